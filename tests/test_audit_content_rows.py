"""`docgen audit`: tables with a row per image and a cell of what it holds (docgen/audit/content_rows.py),
a relative cell (`Same + X`) read against the row above, each component compared with its row's image.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

TOOLS = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y --no-install-recommends gdb libboost-dev cmake g++
RUN git clone --depth 1 https://github.com/fmtlib/fmt /opt/fmt && cmake -S /opt/fmt -B /opt/fmt/build
"""
DEBUG = """\
FROM ubuntu:24.04
# Differences from tools/: no fmt (not needed for debugging)
RUN apt-get update && apt-get install -y --no-install-recommends gdb libboost-dev valgrind
"""
FILES = {"tools/Dockerfile": TOOLS, "tools-debug/Dockerfile": DEBUG}
TABLE = """\
# Toolboxes

| Image | Use | Key libraries |
|---|---|---|
| `tools:latest` | development | gdb · Boost · fmt |
| {debug} | debugging | {cell} |
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, files)
    paths = [path for path in files if "Dockerfile" in path]
    models = [build_model(tmp_path / path, path) for path in paths]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]


@pytest.mark.parametrize(
    ("debug", "cell"),
    [
        ("`tools:debug`", "Same + Valgrind, -O0 builds"),
        ("`tools:debug`", "as above plus Valgrind"),
        ("`tools:debug`", "同上 + Valgrind"),
        ("[debug](tools-debug/Dockerfile)", "gdb · Boost · fmt · Valgrind"),
    ],
)
def test_a_component_a_row_lists_that_only_another_image_installs(
    tmp_path: Path, debug: str, cell: str
) -> None:
    readme = TABLE.format(debug=debug, cell=cell)
    assert _audited(tmp_path, readme, FILES) == [
        "6: README lists fmt under tools-debug/Dockerfile but it installs no fmt "
        "(tools/Dockerfile:3 installs fmt)"
    ]


@pytest.mark.parametrize(
    ("files", "cell"),
    [
        # the row takes it away
        (FILES, "Same + Valgrind, no fmt"),
        # a script the Dockerfile copies and runs installs it
        (
            {
                **FILES,
                "tools-debug/Dockerfile": DEBUG + "COPY get-fmt.sh /tmp/\nRUN bash /tmp/get-fmt.sh\n",
                "tools-debug/get-fmt.sh": "git clone https://github.com/fmtlib/fmt /opt/fmt\n",
            },
            "Same + Valgrind",
        ),
        # no image installs it itself: the base may bring it, nothing tells
        (FILES, "gdb · Boost · Valgrind · Python"),
        # a cell that is no list of components
        (FILES, "Like the development image, for memory checks"),
    ],
)
def test_rows_whose_components_their_image_may_hold(tmp_path: Path, files: dict[str, str], cell: str) -> None:
    readme = TABLE.format(debug="`tools:debug`", cell=cell)
    assert _audited(tmp_path, readme, files) == []


def test_rows_tied_by_a_dockerfile_name_or_a_variant(tmp_path: Path) -> None:
    # `Dockerfile.arm` in a cell, `x86` the variant of `Dockerfile.x86`; `same as above` is the row above
    files = {
        "Dockerfile.x86": "FROM debian:12\nRUN apt-get update && apt-get install -y lz4 zstd pigz\n",
        "Dockerfile.arm": "FROM debian:12\nRUN apt-get update && apt-get install -y lz4 zstd\n",
    }
    readme = (
        "# Packers\n\n| Build | File | Contents |\n|---|---|---|\n"
        "| x86 | - | lz4, zstd, pigz |\n| arm64 | `Dockerfile.arm` | same as above |\n"
    )
    assert _audited(tmp_path, readme, files) == [
        "6: README lists pigz under Dockerfile.arm but it installs no pigz (Dockerfile.x86:2 installs pigz)"
    ]
