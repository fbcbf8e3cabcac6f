"""`docgen.audit.jetpack_rows`: a table row pairing an L4T release with a JetPack release of another
major is a `certain` finding, one of another minor for an L4T release NVIDIA lists a `likely` one; rows
that agree, a less precise JetPack cell, an L4T release docgen does not list (major only), cells with two
releases and tables without both columns are silent."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
ARG L4T_TAG=36.3.0
FROM nvcr.io/nvidia/l4t-jetpack:r${L4T_TAG}
RUN apt-get update && apt-get install -y python3-pip
"""


def found(root: Path, readme: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "pairs L4T" in d.message
    ]


def table(header: str, row: str) -> str:
    return f"# Edge image\n\nPick the tag for your board.\n\n{header}\n|---|---|---|\n{row}\n"


@pytest.mark.parametrize(
    ("header", "row", "expected"),
    [
        # another major: L4T R35 is JetPack 5
        (
            "| $L4T_TAG | JetPack version | Python |",
            "| 35.2.0 | 6.0 DP | 3.10 |",
            ["7: README's table pairs L4T 35.2.0 with JetPack 6.0 DP, but L4T R35 is JetPack 5 (certain)"],
        ),
        (
            "| JetPack | L4T | Torch |",
            "| 5.1.2 | r36.3.0 | 2.4.0 |",
            [
                "7: README's table pairs L4T 36.3.0 with JetPack 5.1.2, but L4T 36.3.0 is JetPack 6.0 "
                "(certain)"
            ],
        ),
        # a listed release with another minor
        (
            "| L4T release | JetPack | Torch |",
            "| 35.4.1 | 5.1.1 | 2.1.0 |",
            [
                "7: README's table pairs L4T 35.4.1 with JetPack 5.1.1, but L4T 35.4.1 is JetPack 5.1.2 "
                "(likely)"
            ],
        ),
        # they agree, the JetPack cell less precise, a developer preview
        ("| L4T | JetPack | Torch |", "| 35.4.1 | 5.1.2 | 2.1.0 |", []),
        ("| L4T | JetPack | Torch |", "| 35.4.1 | 5.1 | 2.1.0 |", []),
        ("| L4T | JetPack | Torch |", "| 36.2.0 | 6.0 DP | 2.2.0 |", []),
        # an L4T release docgen does not list: its major only
        ("| L4T | JetPack | Torch |", "| 35.9.9 | 5.3 | 2.1.0 |", []),
        # two releases in a cell: not one pairing
        ("| L4T | JetPack | Torch |", "| 35.3.1 / 36.2.0 | 5.1.1 | 2.1.0 |", []),
        # no JetPack column
        ("| L4T | CUDA | Torch |", "| 35.4.1 | 6.0 | 2.1.0 |", []),
    ],
)
def test_jetpack_rows(tmp_path: Path, header: str, row: str, expected: list[str]) -> None:
    assert found(tmp_path, table(header, row)) == expected
