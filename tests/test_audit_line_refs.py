"""`docgen audit`: a reference to a numbered line of a file beside the README (`Used in: Makefile line
9`) whose line does not name the variable the item is about (docgen/audit/line_refs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import CERTAIN, audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM debian:12\nARG TOOL_VERSION=1.2\nENV TZ=UTC \\\n    LANG=C.UTF-8\nENV APP_HOME=/srv\n"
MAKEFILE = (
    "# images\n"
    "GPU_TARGET ?= sm_90\n"
    "\n"
    "DATA_DIR ?= /data\n"
    "TOOL_VERSION ?= 1.2\n"
    "\n"
    "build:\n"
    "\tdocker build --build-arg TOOL_VERSION=$(TOOL_VERSION) -t app .\n"
    "run:\n"
    "\tDATA_DIR=$(DATA_DIR) ./run.sh\n"
)
RUN = '#!/bin/sh\nset -e\nDATA_DIR="${DATA_DIR:-/data}"\nif [ "${QUIET:-0}" = 1 ]; then :; fi\n'


def found(root: Path, readme: str) -> list[tuple[int, str, str]]:
    """(line, message, confidence) of `audit` of root/README.md against root/Dockerfile, with a Makefile
    and a script beside it."""
    make_tree(root, {"Dockerfile": DOCKERFILE, "Makefile": MAKEFILE, "run.sh": RUN, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_a_nested_item_pointing_at_the_wrong_makefile_line(tmp_path: Path) -> None:
    readme = (
        "## Variables\n\n"
        "- **`GPU_TARGET`** (default: `sm_90`)\n"
        "  - Used in: Makefile line 2, Docker build args\n"  # the true statement
        "- **`DATA_DIR`** (default: `/data`)\n"
        "  - Used in: Makefile line 3, run.sh line 3\n"
    )
    assert found(tmp_path, readme) == [
        (
            6,
            "README says DATA_DIR is on Makefile line 3, which does not name it; Makefile line 4 sets it",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("- `DATA_DIR` is set on line 5 of the Makefile", "Makefile line 5"),
        ("- `DATA_DIR=/data`: see `Makefile`, line 2", "Makefile line 2"),
        ("* **DATA_DIR** — Makefile line 8", "Makefile line 8"),
    ],
)
def test_other_wordings_of_a_wrong_line(tmp_path: Path, item: str, message: str) -> None:
    assert found(tmp_path, f"# App\n\n{item}\n") == [
        (3, f"README says DATA_DIR is on {message}, which does not name it; Makefile line 4 sets it", CERTAIN)
    ]


def test_several_lines_of_a_script_one_of_them_wrong(tmp_path: Path) -> None:
    readme = "- **`QUIET`** (default: `0`)\n  - Used in: run.sh lines 4, 2\n"
    assert found(tmp_path, readme) == [
        (2, "README says QUIET is on run.sh line 2, which does not name it; it is on run.sh line 4", "likely")
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "- **`LANG=C.UTF-8`**\n  - Set in: Dockerfile line 3\n",  # on the continued ENV line
        "- **`APP_HOME=/srv`**\n  - Set in: Dockerfile line 5\n",
        "- **`QUIET`**\n  - Used in: run.sh lines 4\n",
        "- **`DATA_DIR`**\n  - Used in: Makefile lines 4, 10\n",  # a recipe line names it too
        "- **`DATA_DIR`**\n  - Used in: Makefile line 40\n",  # past the end: not judged here
        "- **`DATA_DIR`**\n  - Used in: other/Makefile line 3\n",  # a file not there
        "- **`NOT_THERE`**\n  - Used in: Makefile line 3\n",  # a name the file never writes
        "- **`DATA_DIR`** and **`GPU_TARGET`**: Makefile line 3\n",  # which one is meant is unclear
        "See Makefile line 3 for the rest.\n",  # no variable
    ],
)
def test_references_left_alone(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []
