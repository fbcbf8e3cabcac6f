"""Tables with a row per image and a cell of what it holds (`| `cpu:latest` | HYPRE · SuperLU · Enzyme |`),
a cell relative to the row above read against it (`Same + PETSc`, `as above plus gdb`, `同上 + X`, `same,
no Enzyme`): each component a row lists is compared with the Dockerfile its row names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import Auditor
from docgen.audit.cells import plain_cell
from docgen.audit.contents import BUILT_WITH, LATER, VERSION_IN, item_component, not_held
from docgen.audit.keyed import named_image
from docgen.audit.paths import basename, matching, reference_path, variant
from docgen.files import is_dockerfile_name
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_HOLDS_HEADER = re.compile(
    r"(?:(?:key|main|core|major|bundled|included|installed|extra|bundled)[ \t]+)?"
    r"(?:libraries|libs|packages|components|contents|software|includes|included|tools|stack|tpls"
    r"|frameworks|what'?s[ \t]+(?:included|inside))",
    re.IGNORECASE,
)
"""The header of a column saying what each row's image holds: `Key libraries`, `Contents`, `Includes`."""
_SAME = re.compile(
    r"(?:same(?:[ \t]+as[ \t]+(?:above|before|the[ \t]+(?:row[ \t]+)?above|previous))?|as[ \t]+above|ditto"
    r"|同上|〃)(?:[ \t]*(?:\+|plus|,|and|with|;)[ \t]*(.*))?",
    re.IGNORECASE,
)
"""A cell holding what the row above holds, and maybe more: `same`, `Same + PETSc`, `as above plus gdb`."""
_PARTS = re.compile(r"[ \t]*[·•,;、][ \t]*|[ \t]+[+&/][ \t]+|[ \t]+and[ \t]+|[ \t]*<br[ \t]*/?>[ \t]*", re.I)
"""What separates the components of a cell: `HYPRE · SuperLU`, `numpy, scipy`, `A + B`."""
_WITHOUT = re.compile(r"(?:no|without|minus|except|not)[ \t]+(.+)", re.IGNORECASE)
"""A part of a cell taking a component away: `no Enzyme`, `without MPI`."""
_LINK = re.compile(r"\]\(<?([^()\s<>]{1,500})>?\)")

_Listed = tuple[str, set[str], bool]


def content_row_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each component a row of a table of images lists (`_row_components`) that the image its row names
    (`_row_image`) does not hold while another image of the README installs it itself (`not_held`:
    the sibling is named) (`likely`). A table needs two rows naming an image."""
    if len(auditor.family) < 2:
        return
    for table in doc.tables:
        column = next(
            (
                i
                for i, cell in enumerate(table.header)
                if i and _HOLDS_HEADER.fullmatch(plain_cell(cell).strip())
            ),
            None,
        )
        if column is None:
            continue
        rows = [(line, cells, _row_image(cells, auditor)) for line, cells in table.rows]
        if sum(1 for *_, model in rows if model is not None) < 2:
            continue
        above: list[_Listed] | None = None
        for line, cells, model in rows:
            held = _row_components(cells[column] if column < len(cells) else "", above)
            above = held
            if model is None or not held:
                continue
            for found in held:
                yield from not_held(auditor, line, model, found, fallback=False)


def _row_image(cells: list[str], auditor: Auditor) -> ImageModel | None:
    """The one audited image a row names: its Dockerfile (a link, a cell that is its name), its bake
    target's name or its variant (`gpu` for `Dockerfile.gpu`), or its folder in the first cell
    (`cpu-tpls:debug` names `cpu-tpls-debug/Dockerfile`, `cpu-tpls:latest` `cpu-tpls/Dockerfile`)."""
    paths = [m.path for m in auditor.family]
    targets = [reference_path(match.group(1)) for cell in cells for match in _LINK.finditer(cell)]
    targets += [word for cell in cells if " " not in (word := plain_cell(cell).strip("*_` \t"))]
    linked = {
        index
        for target in targets
        if is_dockerfile_name(basename(target))
        for index in matching(target, paths)
    }
    if len(linked) == 1:
        return auditor.family[linked.pop()]
    key = plain_cell(cells[0]).strip("*_` \t") if cells else ""
    if not key or " " in key:
        return None
    for model in auditor.family:
        if key.lower() in ((model.image_name or "").lower(), variant(model.path)):
            return model
    repo, _, tag = key.partition(":")
    for each in [repo] if tag.lower() in ("", "latest") else [f"{repo}-{tag}", key]:
        named = named_image(each, auditor)
        if named is not None:
            return named[0]
    return None


def _row_components(cell: str, above: list[_Listed] | None) -> list[_Listed] | None:
    """The components a cell lists, a relative cell (`Same + PETSc, no Enzyme`) resolved against the
    components of the row `above`; None for a cell that is no list of components (fewer than two names,
    or at most half its parts). A part with a version or saying it comes later (`optional`, `at
    runtime`) is left out."""
    text = plain_cell(cell).strip().strip("*_ ")
    if not text:
        return None
    same = _SAME.fullmatch(text)
    if same is not None:
        if above is None:
            return None
        held, text = list(above), same.group(1) or ""
    else:
        held = []
    parts = [part.strip() for part in _PARTS.split(text) if part.strip()]
    named = 0
    for part in parts:
        without = _WITHOUT.fullmatch(part)
        if without is not None:
            gone = item_component(f"- {without.group(1)}")
            if gone is not None:
                held = [h for h in held if not h[1] & gone[1]]
            continue
        if VERSION_IN.search(part) or LATER.search(part):
            continue
        found = item_component(f"- {BUILT_WITH.sub('', part)}")
        if found is not None:
            named += 1
            held.append(found)
    if same is None and (named < 2 or 2 * named < len(parts)):
        return None
    return held
