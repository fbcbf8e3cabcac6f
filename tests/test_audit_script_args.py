"""`docgen audit`: arguments a README passes to a script beside it that the script's own format check
rejects (docgen/audit/script_args.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM ubuntu:22.04\n"
BUILD = """\
#!/bin/bash
if ! [[ $1 =~ ^jammy|noble$ ]]; then
    echo "bad release"
    exit 1
fi
TOOLKIT="${2:-cuda12.4}"
[[ $TOOLKIT =~ ^cuda[[:digit:]]+\\.[0-9]+$ ]] || exit 2
if ! [[ $3 =~ ^v[0-9]+ ]]; then
    echo "no tag given, using main"
fi
docker build --build-arg RELEASE=$1 -t app .
"""


def found(root: Path, commands: str) -> list[tuple[int, str, str]]:
    readme = f"# App\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, "build.sh": BUILD, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README runs" in d.message
    ]


def test_an_argument_the_scripts_check_rejects(tmp_path: Path) -> None:
    assert found(tmp_path, "./build.sh jammy cuda-12.4") == [
        (
            4,
            "README runs ./build.sh with cuda-12.4 as argument 2, which build.sh:7 rejects "
            "(it must match ^cuda[0-9]+\\.[0-9]+$)",
            "likely",
        )
    ]


def test_two_rejected_arguments_are_one_finding(tmp_path: Path) -> None:
    [(line, message, _)] = found(tmp_path, "bash build.sh ubuntu-22.04 12.4")
    assert line == 4
    assert "ubuntu-22.04 as argument 1, which build.sh:2 rejects" in message
    assert "12.4 as argument 2, which build.sh:7 rejects" in message


@pytest.mark.parametrize(
    "commands",
    [
        "./build.sh noble cuda12.4",  # the true statement
        "./build.sh jammy",  # the second argument left to its default
        "./build.sh jammy cuda12.4 main",  # a check that only warns
        "./build.sh <release> <toolkit>",  # placeholders
        "./build.sh $RELEASE cuda12.4",  # a variable
        "./build.sh --release noble cuda-12.4",  # options first: positions are not the words'
        "docker run app ./build.sh ubuntu-22.04",  # run in the container
    ],
)
def test_arguments_left_alone(tmp_path: Path, commands: str) -> None:
    assert found(tmp_path, commands) == []
