"""Table rows pairing an L4T release with a JetPack release it does not belong to (`| 35.2.0 | 6.0 DP |`:
L4T R35 is JetPack 5, JetPack 6.0 is L4T R36.2 and R36.3): one of the two cells is wrong, whatever the
Dockerfile builds. The releases are NVIDIA's (`base_contents.jetpack_of_l4t`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.cells import plain_cell
from docgen.base_contents import jetpack_of_l4t
from docgen.markdown import Document, Table
from docgen.model import Diagnostic

_L4T_CELL = re.compile(r"(?<![\w.])(?:L4T[ \t]*)?[Rr]?(3[2-9]\.\d{1,2}(?:\.\d{1,2})?)(?![\w.])")
"""An L4T release in a cell: `35.2.1`, `r36.2.0`, `L4T R32.7.1`."""
_JETPACK_CELL = re.compile(r"(?<![\w.])(?:JetPack[ \t]*)?([4-7](?:\.\d{1,2}){0,2})(?![\w.])", re.IGNORECASE)
"""A JetPack release in a cell: `5.1.2`, `6.0 DP`, `JetPack 4.6`."""


def _columns(table: Table) -> tuple[int, int] | None:
    """(L4T column, JetPack column) of a table whose header has one of each (`| $JETPACK_L4T | Jetpack
    Version |`: a header naming both is the L4T one), else None."""
    header = [plain_cell(cell).lower() for cell in table.header]
    l4t = [i for i, cell in enumerate(header) if "l4t" in cell]
    jetpack = [i for i, cell in enumerate(header) if "jetpack" in cell and "l4t" not in cell]
    if len(l4t) != 1 or len(jetpack) != 1:
        return None
    return l4t[0], jetpack[0]


def _one(pattern: re.Pattern[str], cell: str) -> str | None:
    """The one release `pattern` finds in `cell`; None when it finds none or several (`5.1 / 5.1.1`)."""
    found = pattern.findall(plain_cell(cell))
    return found[0] if len(found) == 1 else None


def jetpack_rows(doc: Document, path: str) -> Iterator[Diagnostic]:
    """A row whose JetPack cell is not the JetPack release of its L4T cell: another major (`certain`:
    L4T R35 is never JetPack 6), or, for an L4T release NVIDIA lists, another minor or patch on the
    places both give (`likely`)."""
    for table in doc.tables:
        columns = _columns(table)
        if columns is None:
            continue
        at_l4t, at_jetpack = columns
        for line, cells in table.rows:
            if max(at_l4t, at_jetpack) >= len(cells):
                continue
            release, said = _one(_L4T_CELL, cells[at_l4t]), _one(_JETPACK_CELL, cells[at_jetpack])
            if release is None or said is None or (known := jetpack_of_l4t(release)) is None:
                continue
            parts, given = known.split("."), said.split(".")
            if parts[0] != given[0]:
                confidence = CERTAIN
            elif len(parts) > 1 and any(a != b for a, b in zip(parts[1:], given[1:], strict=False)):
                confidence = LIKELY
            else:
                continue
            of = f"L4T {release}" if "." in known else f"L4T R{release.split('.')[0]}"
            yield Diagnostic(
                path,
                line,
                f"README's table pairs L4T {release} with JetPack {plain_cell(cells[at_jetpack])}, but {of} "
                f"is JetPack {known}",
                confidence=confidence,
            )
