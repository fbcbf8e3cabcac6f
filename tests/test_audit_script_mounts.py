"""`docgen audit`: a folder a README's prose says a mount lands on in the container while the run
script the README names mounts elsewhere (docgen/audit/script_mounts.py)."""

from __future__ import annotations

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
