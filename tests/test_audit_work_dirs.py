"""`docgen.audit.work_dirs`: the working folder a run command gives the container (`docker run -w`,
`--workdir=`, `singularity shell --pwd`) that the image does not make while it makes a folder a slip away
(`/workspace` for `WORKDIR /workspaces`, `/benchmark` for `COPY bench /benchmarks`) is a finding, under a
section set aside as the host's too; the folder the image makes, one below or above it, one a command
mounts, one the Dockerfile names, and one with no folder a slip away (or two) are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM rocm/dev-ubuntu-22.04:6.2
COPY bench /benchmarks
WORKDIR /workspaces/app
RUN mkdir -p /opt/tool/src
CMD ["/bin/bash"]
"""

README = """\
# Tool

## Run

```bash
{command}
```
"""


def found(root: Path, command: str, dockerfile: str = DOCKERFILE) -> list[str]:
    make_tree(
        root, {"README.md": README.format(command=command), "Dockerfile": dockerfile, "bench/a.in": "x\n"}
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "starts the container" in d.message
    ]


def slip(path: str, meant: str, at: int) -> str:
    return (
        f"6: README starts the container in {path}, which Dockerfile does not make: it makes {meant} "
        f"(line {at}; did you mean {meant}?) (likely)"
    )


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("singularity shell --pwd /benchmark tool.sif", [slip("/benchmark", "/benchmarks", 2)]),
        ("docker run --rm -it -w /workspace tool bash", [slip("/workspace", "/workspaces", 3)]),
        ("podman run --workdir=/Benchmarks tool", [slip("/Benchmarks", "/benchmarks", 2)]),
        ("docker exec -w /opt/tool/scr tool make", [slip("/opt/tool/scr", "/opt/tool/src", 4)]),
        ("docker run --gpus all \\\n  -w /workspace tool", [slip("/workspace", "/workspaces", 3)]),
        # the folders the image makes, below or above them
        ("singularity shell --pwd /benchmarks tool.sif", []),
        ("docker run -w /workspaces tool", []),
        ("docker run -w /workspaces/app/data tool", []),
        # one the command mounts
        ("docker run -v $PWD:/workspace -w /workspace tool", []),
        # nothing a slip away: another folder of the base image, not a claim docgen can read
        ("docker run -w /data tool", []),
        # not a container command
        ("make -w /workspace", []),
    ],
)
def test_the_working_folder_of_a_run_command(tmp_path: Path, command: str, expected: list[str]) -> None:
    assert found(tmp_path, command) == expected


def test_a_folder_the_dockerfile_names_is_there(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE + "ENV BENCH_DIR=/benchmark\n"
    assert found(tmp_path, "singularity shell --pwd /benchmark tool.sif", dockerfile) == []


def test_two_folders_a_slip_away_name_none(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE + "RUN mkdir /benchmarkz\n"
    assert found(tmp_path, "singularity shell --pwd /benchmark tool.sif", dockerfile) == []


def test_a_section_set_aside_as_the_hosts_is_read(tmp_path: Path) -> None:
    readme = (
        "# Tool\n\n### Build Singularity image from Docker\n\n```\nsingularity build t.sif docker-daemon://t\n"
        "singularity run --pwd /benchmark t.sif\n```\n"
    )
    make_tree(tmp_path, {"README.md": readme, "Dockerfile": DOCKERFILE, "bench/a.in": "x\n"})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    said = [
        d.line
        for d in audit(readme, "README.md", [model], {}, tmp_path)
        if "starts the container" in d.message
    ]
    assert said == [7]


def no_pwd(path: str, line: int = 6) -> str:
    return (
        f"{line}: README starts the container in {path} with --pwd, which Dockerfile does not make "
        "(Singularity warns and starts in the home folder instead); the image's working folder is "
        "/workspaces/app (line 3) (likely)"
    )


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # Singularity's --pwd into a folder the image does not have, nothing a slip away: it starts elsewhere
        ("singularity exec --no-home --pwd /data tool.sif make", [no_pwd("/data")]),
        ("apptainer shell --pwd=/data tool.sif", [no_pwd("/data")]),
        ("singularity shell --no-home -pwd /data tool.sif", [no_pwd("/data")]),  # one dash, as often written
        # the nearest true ones: Docker makes the folder `-w` names; a bind puts it there; the image has it
        ("docker run -w /data tool", []),
        ("singularity exec -B /scratch:/data --pwd /data tool.sif make", []),
        ("singularity exec --bind /data --pwd /data tool.sif make", []),
        ("singularity exec --pwd /workspaces/app tool.sif make", []),
    ],
)
def test_a_singularity_pwd_the_image_does_not_have(tmp_path: Path, command: str, expected: list[str]) -> None:
    assert found(tmp_path, command) == expected


def test_a_singularity_pwd_in_an_image_without_a_workdir(tmp_path: Path) -> None:
    # no WORKDIR: the image's working folder is its base's, which may be the folder named
    dockerfile = DOCKERFILE.replace("WORKDIR /workspaces/app\n", "")
    assert found(tmp_path, "singularity exec --pwd /data tool.sif make", dockerfile) == []


def test_a_path_with_two_leading_slashes_ends_the_climb() -> None:
    """`posixpath.dirname("//")` is `//`: the folders above `//x/y` stop there (a loop that waited for `/`
    never ended)."""
    from docgen.audit.work_dirs import folders

    assert folders({"//x/y": 3, "/a/b": 4}) == {"//x/y": 3, "//x": 3, "//": 3, "/a/b": 4, "/a": 4}
