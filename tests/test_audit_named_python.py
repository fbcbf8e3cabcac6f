"""`docgen audit`: the Python release a Dockerfile names by path (`ln -s /usr/bin/python3.10
/usr/bin/python`, `python3.11 -m pip`) is the image's Python when nothing else fixes it
(`sources.pip.named_python`, recorded on the model as `ImageModel.named_python` for
`docgen.audit.auditor`); a `PYTHON_VERSION` a bake target passes
that no ARG declares changes nothing, and is said so.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import audit_tree, make_tree

from docgen.pipeline import build_model
from docgen.sources.pip import named_python

LINKED = """\
ARG BASE_IMAGE=nvidia/cuda:12.1.1-devel-ubuntu22.04
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y python3-pip
RUN ln -s /usr/bin/python3.10 /usr/bin/python
ARG TORCH_VERSION
RUN pip3 install torch==${TORCH_VERSION}
"""
BAKE = """\
{
  "group": {"default": {"targets": ["py310-torch24", "py311-torch24"]}},
  "target": {
    "py310-torch24": {"dockerfile": "Dockerfile",
                      "args": {"PYTHON_VERSION": "3.10", "TORCH_VERSION": "2.4.0"}},
    "py311-torch24": {"dockerfile": "Dockerfile",
                      "args": {"PYTHON_VERSION": "3.11", "TORCH_VERSION": "2.4.0"}}
  }
}
"""
README = """\
# Images

## py310-torch24

- Python 3.10.12
- Torch 2.4.0

## py311-torch24

- Python 3.11.9
- Torch 2.4.0
"""


def audit_in(root: Path, files: dict[str, str]) -> list[str]:
    return audit_tree(root, files).out.splitlines()[:-1]


def test_a_python_the_bake_arg_cannot_set(tmp_path: Path) -> None:
    assert audit_in(tmp_path, {"Dockerfile": LINKED, "docker-bake.json": BAKE, "README.md": README}) == [
        "README.md:10: error: README says Python 3.11.9 but Dockerfile:4 says 3.10 (python3.10 named); "
        "docker-bake.json:7 passes PYTHON_VERSION=3.11, which Dockerfile does not declare [DG101] (likely)"
    ]


def test_a_python_the_dockerfile_fixes_otherwise_is_not_read_from_a_path(tmp_path: Path) -> None:
    declared = LINKED.replace(
        "RUN ln -s /usr/bin/python3.10",
        "ARG PYTHON_VERSION=3.10\nRUN apt-get install -y python${PYTHON_VERSION}\n"
        "RUN ln -s /usr/bin/python3.10",
    )
    found = audit_in(tmp_path, {"Dockerfile": declared, "docker-bake.json": BAKE, "README.md": README})
    assert not any("python3.10 named" in line for line in found)


@pytest.mark.parametrize(
    ("runs", "release"),
    [
        ([(4, "ln -s /usr/bin/python3.10 /usr/bin/python")], ("3.10", 4)),
        ([(2, "apt-get install -y python3.11-venv"), (5, "python3.11 -m pip install -U pip")], ("3.11", 2)),
        ([(3, "/opt/conda/bin/python3.12 -m pip install x")], ("3.12", 3)),
        ([(2, "apt-get install -y python3.11"), (3, "ln -s /usr/bin/python3.10 /usr/bin/python")], None),
        ([(2, "pip install ${PYTHON}3.11"), (3, "ls /usr/lib/mypython3.10")], None),
        ([(2, "pip install python3.10-compat==1.0.0a python3.10x")], ("3.10", 2)),
    ],
)
def test_the_python_release_commands_name(
    runs: list[tuple[int, str]], release: tuple[str, int] | None
) -> None:
    assert named_python(runs) == release


def test_the_model_records_the_python_its_runs_name(tmp_path: Path) -> None:
    """Recorded once when the Dockerfile is read (`ImageModel.named_python`), from every stage's RUNs
    as written, for the audit to take."""
    make_tree(
        tmp_path, {"Dockerfile": LINKED, "Dockerfile.two": LINKED + "RUN python3.11 -m pip --version\n"}
    )
    assert build_model(tmp_path / "Dockerfile", "Dockerfile").named_python == ("3.10", 4)
    assert build_model(tmp_path / "Dockerfile.two", "Dockerfile.two").named_python is None
