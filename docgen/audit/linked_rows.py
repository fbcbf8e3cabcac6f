"""Rows of a table that each link to the Dockerfile they are about: a table of published images
(`| base:gnu11-2022.12 | Ubuntu 22.04 | HDF5 1.8.10 | [base](…/blob/2022.12/gnu/Dockerfile) |`).

A row's own link ties the row to the Dockerfile it names, whatever the section is about. Rows tied to
one Dockerfile that give different values in a column (Ubuntu 18.04 and 22.04) are builds with
different args or releases, not all the default build: that column is not compared for them. A row
whose link pins a release (a tag or commit, not a branch) is about that release: when it contradicts
the Dockerfile in such a column while a sibling row does not, it describes an older build and is not
compared at all. Columns all the rows agree on are compared with the Dockerfile each row links.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import _Auditor
from docgen.audit.paths import _basename, _matching, _reference_path
from docgen.audit.prose import _audit_text
from docgen.files import is_dockerfile_name
from docgen.markdown import Document, Table
from docgen.model import Diagnostic

_LINK = re.compile(r"\]\(<?([^()\s<>]{1,500})>?\)")
"""The destination of a Markdown link in a cell."""
_BLOB = re.compile(r"/(?:blob|tree|raw)/([^/]+)/(.+)\Z")
"""`…/blob/REF/path/Dockerfile` of a forge's address: the ref and the path in the repository."""
_BRANCHES = frozenset(
    {"main", "master", "develop", "development", "dev", "head", "trunk", "latest", "stable"}
)
"""Refs that move: a link at one is about the file as it is now."""


def _row_links(cells: list[str], paths: list[str]) -> tuple[set[int], bool]:
    """The audited Dockerfiles (indices into `paths`) the links of a row name, and whether every such
    link pins a release (a tag or a commit, not a branch)."""
    named: set[int] = set()
    fixed = True
    for cell in cells:
        for match in _LINK.finditer(cell):
            target = _reference_path(match.group(1))
            ref = None
            if "://" in target:
                blob = _BLOB.search(target)
                if blob is None:
                    continue
                ref, target = blob.group(1), blob.group(2)
            if not is_dockerfile_name(_basename(target)):
                continue
            found = _matching(target, paths)
            if len(found) == 1:
                named |= found
                fixed = fixed and ref is not None and ref.lower() not in _BRANCHES
    return named, fixed and bool(named)


def _plain_cell(cell: str) -> str:
    return " ".join(re.sub(r"[`*_]", "", cell).split()).lower()


def _audit_linked_table(table: Table, family: _Auditor) -> tuple[list[Diagnostic], set[int]]:
    """The findings of the rows of `table` tied to one audited Dockerfile by their own links, and the
    lines of those rows (audited here, not again as the section's)."""
    paths = [m.path for m in family.family]
    tied: dict[int, tuple[int, bool]] = {}  # row line → (Dockerfile index, link pins a release)
    for line, cells in table.rows:
        named, fixed = _row_links(cells, paths)
        if len(named) == 1:
            tied[line] = (next(iter(named)), fixed)
    if not tied:
        return [], set()
    cells_of = dict(table.rows)
    width = len(table.header)
    varying: dict[int, set[int]] = {}  # Dockerfile index → the columns its rows disagree on
    for index in {i for i, _ in tied.values()}:
        rows = [cells_of[line] for line, (i, _) in tied.items() if i == index]
        varying[index] = {
            col
            for col in range(width)
            if len({_plain_cell(cells[col]) if col < len(cells) else "" for cells in rows}) > 1
        }
    found: list[Diagnostic] = []
    for line, (index, fixed) in tied.items():
        judge = family._with((family.family[index],))
        cells = cells_of[line][:width]
        differing = varying[index]
        if fixed and any(
            next(_audit_text(line, cells[col], judge, prose=True), None) is not None
            for col in differing
            if col < len(cells)
        ):
            continue  # another release of the Dockerfile (`Ubuntu 18.04` where it is 22.04 now)
        for col, cell in enumerate(cells):
            if col not in differing:
                found.extend(_audit_text(line, cell, judge, prose=True))
    return found, set(tied)


def _linked_rows(doc: Document, family: _Auditor) -> Iterator[Diagnostic]:
    """The findings of the table rows that link to one audited Dockerfile each (`_audit_linked_table`);
    those rows are taken out of `doc`'s tables, the rest left to be audited with their section."""
    if len(family.family) < 2:
        return
    kept: list[Table] = []
    for table in doc.tables:
        found, lines = _audit_linked_table(table, family)
        yield from found
        if not lines:
            kept.append(table)
            continue
        rows = [(line, cells) for line, cells in table.rows if line not in lines]
        if rows:
            table.rows = rows
            kept.append(table)
    doc.tables[:] = kept
