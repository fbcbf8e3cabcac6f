"""`docgen audit`: a folder a README's prose says a mount lands on in the container while the run
script the README names mounts elsewhere (docgen/audit/script_mounts.py)."""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

LAB = "FROM ubuntu:22.04\nARG NB_USER=dana\nWORKDIR /home/$NB_USER/notes\nEXPOSE 8888\n"
START = """\
#!/usr/bin/env bash
NOTES=$(readlink -f "$1")
IMAGE=dana/notelab:latest
docker pull "$IMAGE"
ID=$(docker run -d --rm -P \\
      "--volume=$NOTES:/home/dana/notes" "$IMAGE")
echo "Jupyter: $(docker port "$ID" 8888)"
"""
# modelled on a lab launcher: a list of what the script does, one item naming where the folder lands
LIST = (
    "# Note lab\n\nRun [start-lab.sh](start-lab.sh) with your notes folder.\n\n## What it does\n\n"
    "1. Pulls the image.\n1. In the container `notes_folder` mounts as `/lab`.\n1. Prints the URL.\n"
)
# modelled on a reconstruction workbench: scripts named in a list, a sentence on the workspace
WORKBENCH = "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04\nWORKDIR /opt/bench\n"
ENTER = "#!/bin/bash\ndocker run -it --gpus all -v $(pwd)/space:/opt/bench/space benchkit bash\n"
SPACE = (
    "# Bench\n\n- `bash_start.sh` starts the container\n\n## Workspace\n\n"
    "The space folder is mounted in `/srv/space` in the container; datasets go there.\n"
)


def found(
    root: Path, readme: str, files: dict[str, str], dockerfile: str = LAB
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "mounted in the container" in d.message
    ]


def test_a_mount_the_run_script_puts_elsewhere(tmp_path: Path) -> None:
    assert found(tmp_path, LIST, {"start-lab.sh": START}) == [
        (
            8,
            "README says a folder is mounted in the container at /lab, but start-lab.sh mounts "
            "/home/dana/notes only",
            "likely",
        )
    ]


def test_a_workspace_the_script_mounts_below_another_folder(tmp_path: Path) -> None:
    assert [line for line, _, _ in found(tmp_path, SPACE, {"bash_start.sh": ENTER}, WORKBENCH)] == [7]


@pytest.mark.parametrize(
    ("readme", "script"),
    [
        (LIST.replace("`/lab`", "`/home/dana/notes`"), START),  # what the script mounts
        (LIST.replace("`/lab`", "`/home/dana`"), START),  # a folder above the mount
        (LIST, START.replace("/home/dana/notes", "/lab")),  # the script mounts there
        (LIST, START.replace(":/home/dana/notes", ":$TARGET")),  # a target not written out
        (LIST, START + 'docker exec "$ID" ln -s /home/dana/notes /lab\n'),  # the script names it
        (LIST, START.replace("docker run", "docker start")),  # the script starts no container
        (LIST.replace("In the container", "On your host"), START),  # the host's folder
        (LIST.replace("mounts as `/lab`", "is the folder of your notes"), START),  # no mount said
        (LIST.replace("[start-lab.sh](start-lab.sh)", "the launcher"), START),  # no script named
        (LIST + "\n```sh\ndocker run -v $PWD:/lab dana/notelab\n```\n", START),  # the README mounts it
    ],
)
def test_silent(tmp_path: Path, readme: str, script: str) -> None:
    assert found(tmp_path, readme, {"start-lab.sh": script}) == []


def test_a_dockerfile_that_names_the_path(tmp_path: Path) -> None:
    dockerfile = LAB + "RUN ln -s /home/dana/notes /lab\n"
    assert found(tmp_path, LIST, {"start-lab.sh": START}, dockerfile) == []


def test_a_volume_the_image_declares(tmp_path: Path) -> None:
    assert found(tmp_path, LIST, {"start-lab.sh": START}, LAB + "VOLUME /lab\n") == []


def test_extra_mounts_from_the_scripts_arguments(tmp_path: Path) -> None:
    script = (
        START.replace('"$IMAGE")', '"${EXTRA[@]}" "$IMAGE")')
        + 'EXTRA=(); for m in "$@"; do EXTRA+=(-v "$m"); done\n'
    )
    assert found(tmp_path, LIST, {"start-lab.sh": script}) == []


# -- a run script the README runs as it is whose mount is a placeholder (`placeholder_mounts`) -----------

SLAM = "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04\nWORKDIR /home\n"
# Modelled on a SLAM image's run script: X11 mounts, then the checkout mounted from a path left to fill in.
SLAM_RUN = """\
XSOCK=/tmp/.X11-unix
docker run -d --gpus all -it --network=host -e DISPLAY=$DISPLAY -v $XSOCK:$XSOCK \\
    -v /path/to/slam_kit:/home/slam_kit --name slam_exp slam_image
"""
SLAM_README = """\
# Running slam_kit with docker

## 1. Clone
```bash
git clone https://github.com/example/slam_kit.git
```

## 2. Build
```bash
cd slam_kit/docker
docker build -t slam_image .
```

## 3. Run
```bash
chmod +x run.sh
./run.sh
```
- the container's name is set in `run.sh`

## 4. Install
```bash
docker exec -it slam_exp bash
cd /home/slam_kit/docker
```
"""
# Modelled on a model server's start script: the weights folder quoted, a placeholder in words.
SERVE = (
    "#!/bin/bash\nset -e\ndocker run --rm --gpus all -p 8000:8000 \\\n"
    '  -v "/your/models/dir:/models" \\\n  lab/serve:1.2\n'
)


def placeholders(root: Path, readme: str, files: dict[str, str], at: str = "README.md") -> list[str]:
    make_tree(root, {at: readme, **files})
    model = build_model(root / posixpath.dirname(at) / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, at, model, {}, root / posixpath.dirname(at), root)
        if "placeholder" in d.message
    ]


def test_a_run_script_mounting_a_placeholder_run_as_it_is(tmp_path: Path) -> None:
    files = {"docker/Dockerfile": SLAM, "docker/run.sh": SLAM_RUN}
    assert placeholders(tmp_path, SLAM_README, files, "docker/README.md") == [
        "17: README runs ./run.sh as it is, but run.sh:3 mounts /path/to/slam_kit at /home/slam_kit, a "
        "placeholder the README never says to fill in: docker makes an empty folder of that name on the "
        "host, so /home/slam_kit in the container holds nothing (likely)"
    ]


def test_a_quoted_placeholder_mount(tmp_path: Path) -> None:
    readme = "# Serve\n\nStart the server:\n\n```bash\nbash serve.sh\n```\n"
    assert placeholders(tmp_path, readme, {"Dockerfile": SLAM, "serve.sh": SERVE}) == [
        "6: README runs serve.sh as it is, but serve.sh:4 mounts /your/models/dir at /models, a placeholder "
        "the README never says to fill in: docker makes an empty folder of that name on the host, so "
        "/models in the container holds nothing (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "script"),
    [
        # the README tells the reader to edit the script, or names the placeholder to replace
        (
            "# Serve\n\nEdit `serve.sh` to point at your weights, then:\n\n```bash\nbash serve.sh\n```\n",
            SERVE,
        ),
        (
            "# Serve\n\nPut your weights in place of /your/models/dir.\n\n```bash\nbash serve.sh\n```\n",
            SERVE,
        ),
        ("# Serve\n\n```bash\nvim serve.sh  # the models folder\nbash serve.sh\n```\n", SERVE),
        ("# Serve\n\nChange the models path in the script first.\n\n```bash\nbash serve.sh\n```\n", SERVE),
        # the placeholder only in printed instructions, a comment or a heredoc
        (
            "# Serve\n\n```bash\nbash serve.sh\n```\n",
            '#!/bin/bash\ndocker build -t lab/serve .\necho "Run with:\n'
            '  docker run -v /your/models:/models \\\\\n    lab/serve"\n',
        ),
        ("# Serve\n\n```bash\nbash serve.sh\n```\n", "#!/bin/bash\n# docker run -v /path/to/m:/m lab/x\n"),
        (
            "# Serve\n\n```bash\nbash serve.sh\n```\n",
            "#!/bin/bash\ncat > run-example.sh <<'EOF'\ndocker run -v /path/to/m:/m lab/serve\nEOF\n",
        ),
        # a mount from a variable, the script's arguments, or a real path
        ("# Serve\n\n```bash\nbash serve.sh /srv/models\n```\n", SERVE.replace("/your/models/dir", "$1")),
        ("# Serve\n\n```bash\nbash serve.sh\n```\n", SERVE.replace("/your/models/dir", "/tmp/.X11-unix")),
    ],
)
def test_placeholder_mounts_the_readme_fills_or_none(tmp_path: Path, readme: str, script: str) -> None:
    assert placeholders(tmp_path, readme, {"Dockerfile": SLAM, "serve.sh": script}) == []
