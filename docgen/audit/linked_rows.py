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

import dataclasses
import re
from collections.abc import Collection, Iterator

from docgen.audit.auditor import Auditor, image_names
from docgen.audit.paths import basename, matching, reference_path, same_file, same_path
from docgen.audit.prose import audit_text
from docgen.files import is_dockerfile_name
from docgen.markdown import Document, Table, table_cells
from docgen.model import Diagnostic

_LINK = re.compile(r"\]\(<?([^()\s<>]{1,500})>?\)")
"""The destination of a Markdown link in a cell."""
_BLOB = re.compile(r"/(?:blob|tree|raw)/([^/]+)/(.+)\Z")
"""`…/blob/REF/path/Dockerfile` of a forge's address: the ref and the path in the repository."""
_BRANCHES = frozenset(
    {"main", "master", "develop", "development", "dev", "head", "trunk", "latest", "stable"}
)
"""Refs that move: a link at one is about the file as it is now."""


def _dockerfile_links(cells: list[str], folders: bool = False) -> Iterator[tuple[str, str | None, bool]]:
    """(path, ref, whether read off a folder) of each link of a row to a Dockerfile: a forge's address
    gives the path in the repository and the ref (`…/blob/REF/path/Dockerfile`), a relative link its
    path and no ref. With `folders`, a forge's link to a folder (`…/tree/master/cuda8-py36`, a table of
    images linking each image's folder) is read as a link to the `Dockerfile` in it."""
    for cell in cells:
        for match in _LINK.finditer(cell):
            target = reference_path(match.group(1))
            ref = None
            folder = False
            if "://" in target:
                blob = _BLOB.search(target)
                if blob is None:
                    continue
                ref, target = blob.group(1), blob.group(2)
                folder = folders and "/tree/" in match.group(1) and "." not in basename(target.rstrip("/"))
            if is_dockerfile_name(basename(target)):
                yield target, ref, False
            elif folder:
                yield target.rstrip("/") + "/Dockerfile", ref, True


def _row_links(
    cells: list[str], paths: list[str], linked: Collection[str] = ()
) -> tuple[set[int], bool, bool]:
    """The audited Dockerfiles (indices into `paths`) the links of a row name, whether every such
    link pins a release (a tag or a commit, not a branch), and whether a link names a Dockerfile none
    of `paths` is: one no audited path ends like, or that another Dockerfile the README's rows link
    (`linked`) ends like too, so that their shared end cannot tell (`…/0.7.3rc2-…/22.03-lts/Dockerfile`
    and `…/0.8.5rc1-…/22.03-lts/Dockerfile` for an audited `Dockerfile`): another image of the family."""
    named: set[int] = set()
    fixed = True
    other = False
    for target, ref, folder in _dockerfile_links(cells, folders=True):
        shared = max((same_file(target, sibling) for sibling in linked if sibling != target), default=0)
        found = {i for i in matching(target, paths) if same_path(target, paths[i])}
        if folder and len(found) != 1:
            continue  # a folder holding no audited Dockerfile: the row may be about anything
        if not found or same_file(target, paths[next(iter(found))]) <= shared:
            other = True
        elif len(found) == 1:
            named |= found
            fixed = fixed and ref is not None and ref.lower() not in _BRANCHES
    return named, fixed and bool(named), other


def _is_row(text: str) -> bool:
    """A line that is a table row (`| a | b |`)."""
    stripped = text.strip()
    return stripped.startswith("|") and stripped.endswith("|") and stripped.count("|") > 2


def _linked_dockerfiles(doc: Document) -> set[str]:
    """The Dockerfiles the rows of `doc`'s tables (and the rows cut off them, `_loose_rows`) link."""
    rows = [cells for table in doc.tables for _, cells in table.rows]
    rows += [table_cells(text) for para in doc.paragraphs for _, text in para.lines if _is_row(text)]
    return {target for cells in rows for target, _, _ in _dockerfile_links(cells)}


_CODE_NAME = re.compile(r"`([^`\s]{1,300})`")
"""A name in code in a cell (`` `Dockerfile.CUDA` ``)."""


def _named_files(cells: list[str], paths: list[str]) -> tuple[set[int], bool]:
    """The audited Dockerfiles (indices into `paths`) the cells of a row name by file name, in code or
    as a whole cell (`` `Dockerfile.CUDA` ``, `docker/Dockerfile.rocm`), not in a link (`_row_links`
    reads those); and whether one names a Dockerfile none of `paths` is (another image's)."""
    named: set[int] = set()
    other = False
    for cell in cells:
        whole = cell.strip().strip("*` \t")
        candidates = [m.group(1) for m in _CODE_NAME.finditer(cell)]
        if whole and not any(c in whole for c in " \t`[]()"):
            candidates.append(whole)
        for target in candidates:
            if not is_dockerfile_name(basename(target)):
                continue
            found = {i for i in matching(target, paths) if same_path(target, paths[i])}
            if len(found) == 1:
                named |= found
            elif not found:
                other = True
    return named, other


def named_rows(table: Table, family: Auditor) -> dict[int, Auditor | None]:
    """The rows (their lines) of `table` about one image of a family: a row naming exactly one audited
    Dockerfile by its file name (`` | **CUDA** | `Dockerfile.CUDA` | … | ``) → the auditor of that
    Dockerfile alone; a row naming only Dockerfiles none of the audited is → None (another image's
    row, not compared). So is a row whose first cell is exactly one audited Dockerfile's variant or
    folder (`auditor.image_names`: `| **ROCm** | … |` for `Dockerfile.ROCm`), when two rows of the table
    at least name two images so. A row naming two audited Dockerfiles, or none, is the family's (left
    out). Empty for one image."""
    if len(family.family) < 2:
        return {}
    paths = [m.path for m in family.family]
    rows: dict[int, Auditor | None] = {}
    keyed: dict[int, int] = {}
    for line, cells in table.rows:
        named, other = _named_files(cells, paths)
        if len(named) == 1 and not other:
            rows[line] = family._with((family.family[next(iter(named))],))
        elif other and not named:
            rows[line] = None
        elif not named and not other and cells:
            key = cells[0].strip().strip("*`_ \t").lower()
            hits = {i for i, p in enumerate(paths) if key and key in image_names(p)}
            if len(hits) == 1:
                keyed[line] = next(iter(hits))
    if len(set(keyed.values())) >= 2:
        rows.update({line: family._with((family.family[index],)) for line, index in keyed.items()})
    return rows


def _plain_cell(cell: str) -> str:
    return " ".join(re.sub(r"[`*_]", "", cell).split()).lower()


def _audit_linked_table(
    table: Table, family: Auditor, linked: Collection[str] = ()
) -> tuple[list[Diagnostic], set[int]]:
    """The findings of the rows of `table` tied to one audited Dockerfile by their own links, and the
    lines of those rows (audited here, not again as the section's) and of the rows that link only a
    Dockerfile none of the audited is (another image's, audited not at all). `linked`: the Dockerfiles
    the README's rows link (`_row_links`)."""
    paths = [m.path for m in family.family]
    tied: dict[int, tuple[int, bool]] = {}  # row line → (Dockerfile index, link pins a release)
    elsewhere: set[int] = set()
    for line, cells in table.rows:
        named, fixed, other = _row_links(cells, paths, linked)
        if len(named) == 1:
            tied[line] = (next(iter(named)), fixed)
        elif other and not named:
            elsewhere.add(line)
    if not tied:
        return [], elsewhere
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
            next(audit_text(line, cells[col], judge, prose=True), None) is not None
            for col in differing
            if col < len(cells)
        ):
            continue  # another release of the Dockerfile (`Ubuntu 18.04` where it is 22.04 now)
        for col, cell in enumerate(cells):
            if col not in differing:
                found.extend(audit_text(line, cell, judge, prose=True))
    return found, set(tied) | elsewhere


def _loose_rows(doc: Document, paths: list[str], linked: Collection[str]) -> set[int]:
    """The lines of `doc`'s paragraphs that are table rows cut off their table by a blank line
    (`|[0.8.5rc1-…](…/0.8.5rc1-…/22.03-lts/Dockerfile)| vLLM Ascend 0.8.5rc1 … |`, Markdown shows them as
    text) and link only a Dockerfile none of `paths` is: another image's row."""
    found: set[int] = set()
    for para in doc.paragraphs:
        for line, text in para.lines:
            if _is_row(text):
                named, _, other = _row_links(table_cells(text), paths, linked)
                if other and not named:
                    found.add(line)
    return found


def linked_rows(doc: Document, family: Auditor) -> tuple[list[Diagnostic], set[int]]:
    """The findings of the table rows that link to one audited Dockerfile each (`_audit_linked_table`),
    and the README lines of the rows the rest of the audit must not read: those rows, the rows that
    link another image's Dockerfile, and such rows cut off their table (in its paragraphs). `doc` is
    left as it is: `audit` takes the lines out (`without_lines`)."""
    if len(family.family) < 2:
        return [], set()
    linked = _linked_dockerfiles(doc)
    taken = _loose_rows(doc, [m.path for m in family.family], linked)
    found: list[Diagnostic] = []
    for table in doc.tables:
        told, lines = _audit_linked_table(table, family, linked)
        found += told
        taken |= lines
    return found, taken


def without_lines(doc: Document, lines: Collection[int]) -> None:
    """Take the table rows at README `lines` out of `doc`'s tables (a table left with no row goes) and
    blank its paragraphs' lines there, keeping each line's length (`linked_rows`' rows)."""
    if not lines:
        return
    kept: list[Table] = []
    for table in doc.tables:
        rows = [(line, cells) for line, cells in table.rows if line not in lines]
        if rows or len(rows) == len(table.rows):
            kept.append(table if len(rows) == len(table.rows) else dataclasses.replace(table, rows=rows))
    doc.tables[:] = kept
    doc.paragraphs[:] = [
        dataclasses.replace(
            para, lines=[(line, " " * len(text) if line in lines else text) for line, text in para.lines]
        )
        if any(line in lines for line, _ in para.lines)
        else para
        for para in doc.paragraphs
    ]
