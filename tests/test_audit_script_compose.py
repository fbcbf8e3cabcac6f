"""`docgen audit`: compose files and Dockerfiles a script the README runs names that the repository
lacks (docgen/audit/script_compose.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
STACK = "services:\n  lab:\n    build: .\n"
START = '#!/bin/bash\nmkdir -p out cache\ndocker compose -f deploy/stack.yml run --rm lab "$@"\n'
README = "# Lab image\n\n## Usage\n\n```bash\n./start.sh cuda\n```\n"


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    tree = {"deploy/cuda/README.md": README, "deploy/cuda/Dockerfile.cuda": APP} | files
    make_tree(root, {k: v for k, v in tree.items() if v})
    model = build_model(root / "deploy/cuda/Dockerfile.cuda", "deploy/cuda/Dockerfile.cuda")
    folder = root / "deploy/cuda"
    readme = tree["deploy/cuda/README.md"]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "deploy/cuda/README.md", model, {}, folder, root)
        if "which the repository does not have" in d.message
    ]


def test_a_compose_file_a_script_runs_that_is_not_there(tmp_path: Path) -> None:
    assert found(tmp_path, {"start.sh": START}) == [
        (
            6,
            "README runs ./start.sh, whose docker compose (../../start.sh:3) reads deploy/stack.yml, "
            "which the repository does not have",
            "likely",
        )
    ]


def test_a_dockerfile_a_script_builds_that_is_not_there(tmp_path: Path) -> None:
    script = "#!/bin/sh\nVARIANT=rocm\ndocker build -f deploy/Dockerfile.$VARIANT -t lab .\n"
    assert [m for _, m, _ in found(tmp_path, {"start.sh": script})] == [
        "README runs ./start.sh, whose docker build (../../start.sh:3) reads deploy/Dockerfile.rocm, "
        "which the repository does not have"
    ]


@pytest.mark.parametrize(
    "files",
    [
        # the file is there
        {"start.sh": START, "deploy/stack.yml": STACK},
        # the script enters another folder first
        {"start.sh": "#!/bin/bash\ncd tools\n" + START.split("\n", 1)[1], "tools/deploy/stack.yml": STACK},
        # a variable the script does not give
        {"start.sh": START.replace("deploy/stack.yml", "$STACK_FILE")},
        {"start.sh": START.replace("deploy/stack.yml", "deploy/${FLAVOUR}.yml")},
        # the script writes the file it reads
        {"start.sh": START.replace("mkdir -p out cache", "envsubst < stack.tmpl > deploy/stack.yml")},
        {"start.sh": START.replace("mkdir -p out cache", "cp deploy/stack.example.yml deploy/stack.yml")},
        # an absolute path, a command only shown
        {"start.sh": START.replace("deploy/stack.yml", "/etc/lab/stack.yml")},
        {"start.sh": "#!/bin/sh\necho docker compose -f deploy/stack.yml up\n# docker build -f nope.df .\n"},
        # not a shell script
        {"start.sh": "", "start.py": "import os\nos.system('docker compose -f deploy/stack.yml up')\n"},
    ],
)
def test_traps_stay_silent(tmp_path: Path, files: dict[str, str]) -> None:
    assert found(tmp_path, files) == []


def test_a_file_beside_the_script_or_the_readme_is_there(tmp_path: Path) -> None:
    script = "#!/bin/sh\ndocker compose -f stack.yml up\n"
    assert found(tmp_path, {"start.sh": script, "deploy/cuda/stack.yml": STACK}) == []
    assert found(tmp_path / "b", {"start.sh": script, "stack.yml": STACK}) == []


WEBUI_START = """\
#!/usr/bin/env sh

sudo mkdir -p ./data
sudo docker compose down &&
  sudo docker compose build --pull &&
  sudo docker compose up -d &&
  sudo docker compose logs -f
"""
"""A web UI's start script (the shape of a ROCm Stable Diffusion image's): each step reads the compose
file."""
WEBUI = """\
# WebUI on ROCm

## Usage

After cloning the repository, just run the `start.sh` script. This will do everything for you.
"""


def compose_claims(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM rocm/pytorch\n", **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "reads a compose file" in d.message
    ]


def test_a_script_whose_compose_commands_find_no_compose_file(tmp_path: Path) -> None:
    said = (
        "README runs start.sh, whose docker compose down (start.sh:4) reads a compose file, but no "
        f"compose.yaml, compose.yml, docker-compose.yml or docker-compose.yaml is in the folder it runs in "
        f"({tmp_path.name}/, the README's folder) nor in one above it"
    )
    files = {"README.md": WEBUI, "start.sh": WEBUI_START}
    assert compose_claims(tmp_path, files) == [(5, said, "likely")]  # a copy of some files may lack it
    (tmp_path / ".git").mkdir()
    assert compose_claims(tmp_path, files) == [(5, said, "certain")]  # a checkout holds every file


@pytest.mark.parametrize(
    "change",
    [
        {"docker-compose.yml": "services:\n  webui:\n    build: .\n"},  # the true statement
        {"start.sh": WEBUI_START.replace("compose down", "compose -f deploy/compose.yaml down")},
        {"start.sh": "#!/bin/sh\ncd deploy\ndocker compose up -d\n"},  # another folder: not followed
        {"start.sh": "#!/bin/sh\ndocker compose version\ndocker compose ls\n"},  # no compose file read
        {"start.sh": "#!/bin/sh\nexport COMPOSE_FILE=deploy/webui.yaml\ndocker compose up -d\n"},
        {"README.md": WEBUI.replace("just run the", "inside the container, run the")},
    ],
)
def test_scripts_whose_compose_commands_have_their_file(tmp_path: Path, change: dict[str, str]) -> None:
    assert compose_claims(tmp_path, {"README.md": WEBUI, "start.sh": WEBUI_START, **change}) == []


def test_a_fenced_run_of_a_compose_script_in_a_folder_above_its_file(tmp_path: Path) -> None:
    # compose looks in the folders above: a file at the root serves a script run from docker/
    readme = "# WebUI\n\n```\ncd docker\n./start.sh\n```\n"
    files = {"README.md": readme, "docker/start.sh": WEBUI_START, "compose.yaml": "services: {}\n"}
    assert compose_claims(tmp_path, files) == []
    del files["compose.yaml"]
    assert [line for line, _, _ in compose_claims(tmp_path / "b", files)] == [5]
