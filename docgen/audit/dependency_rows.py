"""Tables of what the image installs, a row a package (`| Package | Version | Source |`, `| Dependency |
Version |`): a row naming a package no install of the build names, when docgen reads every install the
build makes and its bases are known not to carry it (`contents.cannot_hold`), is a package the image
does not have (`likely`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import Auditor
from docgen.audit.cells import plain_cell
from docgen.audit.contents import (
    LATER,
    cannot_hold,
    copied_context,
    installs_none,
    item_component,
    item_components,
)
from docgen.markdown import Document
from docgen.model import Diagnostic

_NAME_HEADER = re.compile(
    r"(?:python[ \t]+|pip[ \t]+|main[ \t]+|key[ \t]+)?(?:package|dependency|dependencies|component|library"
    r"|libraries|module)s?(?:[ \t]+name)?",
    re.IGNORECASE,
)
"""The header of a first column naming a package a row: `Package`, `Dependency`, `Component`."""
_DETAIL_HEADER = re.compile(
    r"(?:(?:pinned|installed|default|required)[ \t]+)?(?:versions?|source|index|origin|channel|wheel|pin)",
    re.IGNORECASE,
)
"""The header of a column saying which build or where from (`Version`, `Source`, `Index`)."""
_NOT_BUILT = re.compile(
    r"\boptional|\bnot[ \t]+(?:included|installed|in[ \t]+the)|\bextras?\b|\brequire|\bprerequisite"
    r"|\bhost\b|\byour\b|\bneed|\bdev(?:elopment)?[ \t]+dependenc|\btest|\bbenchmark|\bexample|\bdocs?\b"
    r"|\bcompat|\bsupport|\brecommend|\bplanned|\broadmap|\bfuture|\btodo\b",
    re.IGNORECASE,
)
"""Words over a table making it one of what is optional, needed on the host or by the reader, for tests
or docs, supported or planned: not what the image holds."""
_BROUGHT = re.compile(
    r"\bpulled\b|\bvia\b|\bby\b|\bwith\b|\bfrom[ \t]+(?:the[ \t]+)?base\b|\bbase[ \t]+image|\binherit"
    r"|\btransitive|\bdependency[ \t]+of|\bbundled|\bcomes[ \t]+with|\bincluded[ \t]+(?:in|with)"
    r"|\bpre-?installed|\bprovided|\bupstream|\bsystem\b|\bapt\b|\bconda\b|\bbuilt[ \t]+in",
    re.IGNORECASE,
)
"""Words of a row saying its package comes with another (`pulled by vLLM`, `via torch`), from the base
image or the system's package manager: it need not be named by any install."""
_URL = re.compile(r"(?<!\S)\S*://\S*")
"""A web address, from the start of its word (as `missing._ADDRESS`: linear in a long word)."""
_LIST_LABEL = re.compile(
    r"(?:extras?|tools|utilities|utils|misc(?:ellaneous)?|others?"
    r"|(?:system|apt|cli|dev)[ \t]+(?:packages|tools))",
    re.IGNORECASE,
)
"""The first cell of a row whose next cell lists several tools of the image (`| Extras | git, ninja,
ffmpeg, unzip |` in a `Component | Version` table)."""


def _listed(cells: list[str]) -> list[tuple[str, set[str], bool]] | None:
    """The components a row labelled as a list of tools (`_LIST_LABEL`) names in its second cell, a list
    of two or more names joined by commas (no version); None for any other row."""
    if len(cells) < 2 or not _LIST_LABEL.fullmatch(plain_cell(cells[0]).strip().strip("*_ ")):
        return None
    listed = plain_cell(cells[1]).strip()
    if "," not in listed or _NOT_BUILT.search(listed) or LATER.search(listed) or _BROUGHT.search(listed):
        return None
    found = item_components(f"- {listed}")
    return found if len(found) >= 2 else None


def dependency_rows(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A row of a table of packages (first column `Package`, `Dependency`, `Component`; another
    `Version`, `Source`, `Index`) whose package, by any spelling, no Dockerfile compared can hold
    (`contents.cannot_hold`: nowhere in the Dockerfile or the build-context files it copies, nothing
    unread run or installed, no installed package known to pull it in, a base known not to carry it).
    The table must be the image's: at least two of its packages, and half of them, are named by the
    build. A table under words of option, need or support, and a row saying how its package comes
    (`pulled by vLLM`, `from the base image`, `optional`, `at runtime`), are not read (`likely`)."""
    if not auditor.models:
        return
    for table in doc.tables:
        header = [plain_cell(cell).strip().strip("*_ ") for cell in table.header]
        if len(header) < 2 or not _NAME_HEADER.fullmatch(header[0]):
            continue
        if not any(_DETAIL_HEADER.fullmatch(cell) for cell in header[1:]):
            continue
        if _NOT_BUILT.search(table.context):
            continue
        named: list[tuple[int, tuple[str, set[str], bool]]] = []
        tools: list[tuple[int, tuple[str, set[str], bool]]] = []
        for line, cells in table.rows:
            if not cells:
                continue
            if (listed := _listed(cells)) is not None:
                tools.extend((line, found) for found in listed if not found[2])
                continue
            words = _URL.sub("", " ".join(plain_cell(cell) for cell in cells))
            if LATER.search(words) or _BROUGHT.search(words) or _NOT_BUILT.search(words):
                continue
            found = item_component(f"- {plain_cell(cells[0]).strip()}")
            if found is not None and not found[2]:
                named.append((line, found))
        held = sum(1 for _, (_, spellings, _) in named if _held(auditor, spellings))
        if held < 2 or 2 * held < len(named):
            continue
        if not any(_held(auditor, spellings) for _, (_, spellings, _) in tools):
            tools = []  # (a row of tools the build names none of may be of the host's)
        for line, (name, spellings, _) in [*named, *tools]:
            if all(cannot_hold(model, spellings, False, False) for model in auditor.models):
                said = f"lists {name} as a package of the image"
                yield installs_none(auditor, line, said, name, spellings)


def _held(auditor: Auditor, spellings: set[str]) -> bool:
    """True when a Dockerfile compared (or a file its build copies) names the component by a spelling."""
    return any(m.file and any(s in copied_context(m)[0] for s in spellings) for m in auditor.models)
