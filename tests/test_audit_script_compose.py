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
