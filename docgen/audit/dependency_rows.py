"""Tables of what the image installs, a row a package (`| Package | Version | Source |`, `| Dependency |
Version |`): a row naming a package no install of the build names, when docgen reads every install the
build makes and its bases are known not to carry it (`contents.cannot_hold`), is a package the image
does not have (`likely`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import Auditor
from docgen.audit.cells import _plain
from docgen.audit.contents import LATER, cannot_hold, copied_context, installs_none, item_component
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


def _dependency_rows(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
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
        header = [_plain(cell).strip().strip("*_ ") for cell in table.header]
        if len(header) < 2 or not _NAME_HEADER.fullmatch(header[0]):
            continue
        if not any(_DETAIL_HEADER.fullmatch(cell) for cell in header[1:]):
            continue
        if _NOT_BUILT.search(table.context):
            continue
        named: list[tuple[int, tuple[str, set[str], bool]]] = []
        for line, cells in table.rows:
            if not cells:
                continue
            words = _URL.sub("", " ".join(_plain(cell) for cell in cells))
            if LATER.search(words) or _BROUGHT.search(words) or _NOT_BUILT.search(words):
                continue
            found = item_component(f"- {_plain(cells[0]).strip()}")
            if found is not None and not found[2]:
                named.append((line, found))
        held = sum(
            1
            for _, (_, spellings, _) in named
            if any(m.file and any(s in copied_context(m)[0] for s in spellings) for m in auditor.models)
        )
        if held < 2 or 2 * held < len(named):
            continue
        for line, (name, spellings, _) in named:
            if all(cannot_hold(model, spellings, False, False) for model in auditor.models):
                said = f"lists {name} as a package of the image"
                yield installs_none(auditor, line, said, name, spellings)
