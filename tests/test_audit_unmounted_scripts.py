"""`docgen audit`: a script a README runs inside the container right after the run that starts it,
where the run mounts a sub-folder of the README's folder over the working folder, while the script is
in the README's folder and the image copies none (docgen/audit/unmounted_scripts.py).

The shapes are modelled on two kinds of real README: an accelerator example whose quick start builds,
runs `./run.sh` (its `docker run -it` mounts `$(pwd)/workspace` at the image's `WORKDIR /workspace`) and
then, "inside the container", runs a check script; and a dev-shell script (`bash shell.sh`) whose run
mounts `$(pwd)/work` with `-w /work` on an image without a WORKDIR.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = (
    "FROM ubuntu:22.04 AS base\nRUN apt-get update && apt-get install -y python3\n"
    "FROM base AS app\nCOPY vendor/toolkit.run /tmp/\nRUN sh /tmp/toolkit.run\nWORKDIR /workspace\n"
)
RUN_SH = (
    '#!/bin/bash\nset -e\nIMAGE="npu-demo:1.0"\nif [ ! -e /dev/accel0 ]; then exit 1; fi\n'
    'docker run -it --rm \\\n    --device=/dev/accel0 \\\n    -v "$(pwd)/workspace:/workspace" \\\n'
    '    -v "/usr/local/driver:/usr/local/driver:ro" \\\n    "$IMAGE" \\\n    /bin/bash\n'
)
QUICK = (
    "# 1. Build the image\ndocker build -t npu-demo:1.0 .\n\n# 2. Start the container\n./run.sh\n\n"
    "# 3. Inside the container, check the device\npython check_device.py"
)


def _audited(
    tmp_path: Path,
    block: str = QUICK,
    dockerfile: str = DOCKERFILE,
    script: str = RUN_SH,
    extra: dict[str, str] | None = None,
) -> list[str]:
    files = {"Dockerfile": dockerfile, "run.sh": script, "check_device.py": "print('ok')\n", **(extra or {})}
    make_tree(tmp_path, files)
    readme = f"# NPU demo\n\n## Quick start\n\n```bash\n{block}\n```\n"
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path, tmp_path)
        if "the run mounts" in d.message
    ]


def test_script_left_out_of_the_mounted_sub_folder(tmp_path: Path) -> None:
    assert _audited(tmp_path) == [
        "13: README runs check_device.py in the container's working folder /workspace, where the run "
        "mounts workspace/, which does not hold it, and the image copies no check_device.py (it is in "
        "the README's folder) (likely)"
    ]


def test_dev_shell_with_workdir_flag(tmp_path: Path) -> None:
    script = '#!/bin/sh\ndocker run -it --rm -v $(pwd)/work:/work -w /work devbox "$@"\n'
    block = "bash shell.sh\n# in the container:\npython check_device.py"
    found = _audited(tmp_path, block, "FROM python:3.12\n", extra={"shell.sh": script})
    assert found == [
        "8: README runs check_device.py in the container's working folder /work, where the run mounts "
        "work/, which does not hold it, and the image copies no check_device.py (it is in the README's "
        "folder) (likely)"
    ]


def test_run_mounting_the_folder_itself_is_silent(tmp_path: Path) -> None:
    assert _audited(tmp_path, script=RUN_SH.replace("$(pwd)/workspace:", "$(pwd):")) == []


def test_mounted_folder_holding_the_script_is_silent(tmp_path: Path) -> None:
    assert _audited(tmp_path, extra={"workspace/check_device.py": ""}) == []


def test_image_copying_its_context_is_silent(tmp_path: Path) -> None:
    assert _audited(tmp_path, dockerfile=DOCKERFILE + "COPY . /workspace\n") == []
    assert _audited(tmp_path, dockerfile=DOCKERFILE + "COPY check_device.py .\n") == []


def test_file_mounted_into_the_working_folder_is_silent(tmp_path: Path) -> None:
    script = RUN_SH.replace(
        '-v "$(pwd)/workspace:/workspace"',
        '-v "$(pwd)/workspace:/workspace" -v "$(pwd)/check_device.py:/workspace/check_device.py"',
    )
    assert _audited(tmp_path, script=script) == []


def test_script_the_readme_makes_first_is_silent(tmp_path: Path) -> None:
    block = "cat > check_device.py <<'EOF'\nprint(1)\nEOF\n" + QUICK
    assert _audited(tmp_path, block) == []


def test_detached_run_or_no_word_of_the_container_is_silent(tmp_path: Path) -> None:
    assert _audited(tmp_path, script=RUN_SH.replace("-it --rm", "-d --rm")) == []
    assert _audited(tmp_path, QUICK.replace("# 3. Inside the container, check", "# 3. Check")) == []


def test_cd_before_the_script_is_silent(tmp_path: Path) -> None:
    assert (
        _audited(tmp_path, QUICK.replace("python check_device.py", "cd /opt\npython check_device.py")) == []
    )
