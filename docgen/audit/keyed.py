"""Entries of a README about a family of images, each under the name of one image: a line that is only
the name of a Dockerfile's folder (`> cu117-py38-u20`, `**opengl-cu121**`, a list item
`` - [`cuda-tpls-sm70`](…) ``, a heading over a list), then what that image holds (`> cuda: 11.7.1 /
python3.7.17 / ubuntu20.04`, nested items `- AmgX 2.4.0`). Each version is compared with the image the
name names (`paths.folder_names`), not with whichever image of the family agrees: a README listing
fifteen images of one family says what each of them holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.paths import folder_names
from docgen.audit.versions import norm
from docgen.markdown import Document, Table
from docgen.model import Diagnostic, ImageModel

_QUOTE = re.compile(r"[ \t]*(?:>[ \t]*)+")
"""The `>` marks of a block quote (`> cu117-py38-u20`)."""
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
_KEY = re.compile(
    r"(?:\#{1,6}[ \t]+)?[*_]{0,2}(?:\[`?([\w.+-]{2,80})`?\]\([^()\s]{0,300}\)|`?([\w.+-]{2,80})`?)"
    r"[*_]{0,2}:?[ \t]*\Z"
)
"""A line that is one name and nothing else: in a link, code, bold, a heading (`**opengl-cu121**`)."""
_PIECES = re.compile(r"[ \t]+/[ \t]+|[ \t]*[,;|][ \t]*")
"""What separates the facts of one entry: `cuda: 12.1.1 / pytorch: cu121 / python3.8.17`."""
PAIR = re.compile(
    r"[*_`]*([A-Za-z][\w+.-]*?(?!(?<=_)_)(?:[ \t]+[A-Za-z][\w+-]*(?!(?<=_)_)){0,2})[*_`]*"
    r"(?:[ \t]*:[ \t]*|[ \t]+)[*_`]*"
    r"v?(\d+(?:\.\d+)+)[*_`]*\Z"
)
"""`cuda: 11.7.1`, `AmgX 2.4.0`, `CUDA toolkit 11.8`: a name and its version. A name's word does not end
between two `_` (the marks after it take the run, as they would when the name ended before it), so that a
name followed by a long run of `_` is not retried at each of them."""
_GLUED = re.compile(r"[*_`]*([A-Za-z][A-Za-z_-]*?)(\d+\.\d+(?:\.\d+)*)[*_`]*\Z")
"""`python3.7.17`, `ubuntu20.04`: a name with its version glued on (a dot needed: not `cu121`, `c++11`)."""


def named_image(key: str, auditor: Auditor) -> tuple[ImageModel, bool] | None:
    """The one Dockerfile of the family `key` names most closely, and whether exactly; None when no
    Dockerfile is named, or two are named alike."""
    scores = [folder_names(key, m.path, norm) for m in auditor.family]
    best = max((score for score, _ in scores), default=0)
    named = [i for i, (score, _) in enumerate(scores) if score == best]
    if not best or len({auditor.family[i].path for i in named}) != 1:
        return None
    return auditor.family[named[0]], scores[named[0]][1]


def _entry_facts(text: str) -> Iterator[tuple[str, str]]:
    """(name, version) of each fact of an entry's line: `cuda: 11.7.1 / python3.7.17 / ubuntu20.04`."""
    for piece in _PIECES.split(text.strip()):
        match = PAIR.match(piece.strip()) or _GLUED.match(piece.strip())
        if match is not None:
            yield match.group(1), match.group(2)


def keyed_entries(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each version an entry of the README states under one image's name (a line naming the
    Dockerfile's folder or variant, then the lines of its paragraph, or the items nested under a list
    item naming it) that the image it names does not have. `certain` when the name is the folder's
    exactly or the image pins the version itself (a clone at a tag, an ARG default, `==`): one image,
    one value, nothing else on the line; `likely` for a version read off a base image's tag under a
    name with words the folder has not (`cuda-sm70`)."""
    for line, body, one, exact in _entries(doc, auditor):
        for name, version in _entry_facts(body):
            agrees, fact = one.verdict(name, "==", version)
            if agrees is False and fact is not None:
                sure = CERTAIN if exact or fact.exact else LIKELY
                yield from some(one.version_claim(line, name, "==", version, sure))


def entry_lines(doc: Document, auditor: Auditor) -> set[int]:
    """The lines of `doc` that are entries of one image (`keyed_entries`) or under a heading naming one
    image (`## cu118-py310`): what they say is that image's, not the family's."""
    lines = {line for line, _, _, _ in _entries(doc, auditor)}
    if len(auditor.family) < 2:
        return lines
    for para in doc.paragraphs:
        head = _KEY.match(para.heading.strip())
        if head is not None and named_image(head.group(1) or head.group(2), auditor) is not None:
            lines.update(line for line, _ in para.lines)
    return lines


def _entries(doc: Document, auditor: Auditor) -> Iterator[tuple[int, str, Auditor, bool]]:
    """(line, its text past any quote or list marker, the auditor of the one image it is under, whether
    that image is named exactly) of each line of an entry (`keyed_entries`)."""
    if len(auditor.family) < 2:
        return
    for para in doc.paragraphs:
        image: tuple[Auditor, bool, int | None] | None = None
        head = _KEY.match(para.heading.strip())
        titled = named_image(head.group(1) or head.group(2), auditor) if head else None
        for line, text in para.lines:
            quote = _QUOTE.match(text)
            unquoted = text[quote.end() :] if quote else text
            item = _ITEM.match(unquoted)
            indent = len(unquoted) - len(unquoted.lstrip())
            body = unquoted[item.end() :] if item else unquoted.strip()
            if image is not None and image[2] is not None and (item is None or indent <= image[2]):
                image = None  # past the items nested under the image's list item
            key = _KEY.match(body.strip())
            if key is not None:
                named = named_image(key.group(1) or key.group(2), auditor)
                if named is not None:
                    model, exact = named
                    image = (auditor._with((model,)), exact, indent if item else None)
                    continue
            if image is None and titled is not None and item is not None:
                image = (
                    auditor._with((titled[0],)),
                    titled[1],
                    None,
                )  # `### cu117-py38` then `- CUDA 11.7.1`
            if image is not None:
                yield line, body, image[0], image[1]


_LEAD_KEY = re.compile(
    r"[*_]{0,2}(?:\[`?([\w.+-]{2,80})`?\]\([^()\s]{0,300}\)|`([\w.+-]{2,80})`"
    r"|(?<=\*\*)([\w.+-]{2,80})(?=\*\*))[*_]{0,2}"
    r"[ \t]*(?::|[ \t]-|[ \t]–|[ \t]—)?[ \t]*[*_]{0,2}[ \t]*\S"
    r"|[*_]{0,2}([\w.+-]{2,80})[*_]{0,2}[ \t]*:[ \t]*[*_]{0,2}[ \t]*\S"
)
"""A list item that starts with one name and goes on with what it is: `` `base-gnu`: Ubuntu 16.04 … ``,
`**cuda-tpls** – CUDA 12.1`, `[`dev`](dev/Dockerfile) adds gdb`; a name in plain words needs a colon
(`base-gnu: …`, not `Ubuntu 16.04 with …`)."""


def item_scopes(lines: list[tuple[int, str]], auditor: Auditor) -> dict[int, Auditor]:
    """The auditor of each line of a list item (and of its wrapped and nested lines) that starts with
    the name of one image of the family (`` - `base-gnu`: Ubuntu 16.04 with gcc 5.4.1 ``, `named_image`)
    when that image is not all `auditor` is about: that image's alone. The item says what that image
    holds; another image's pins neither confirm nor contradict it, and a component its image does not
    pin is not compared at all."""
    if len(auditor.family) < 2:
        return {}
    scopes: dict[int, Auditor] = {}
    judge: Auditor | None = None
    depth = 0
    for line, text in lines:
        item = _ITEM.match(text)
        indent = len(text) - len(text.lstrip())
        if item is not None and (judge is None or indent <= depth):
            judge, depth = None, indent
            key = _LEAD_KEY.match(text, item.end())
            named = named_image(next(g for g in key.groups() if g), auditor) if key else None
            if named is not None and (one := auditor._with((named[0],))) is not auditor:
                judge = one
        elif item is None and not text.strip():
            judge = None
        if judge is not None:
            scopes[line] = judge
    return scopes


def row_folders(table: Table, auditor: Auditor) -> dict[int, Auditor]:
    """The rows (their lines) of a table with a column per component whose first cell is exactly the
    name of one image's folder or variant (`| `cu118-py311` | 11.8.0 | 2.2.0 |`, `named_image`) →
    the auditor of that image alone; none unless at least two rows are named so."""
    if len(auditor.family) < 2:
        return {}
    rows: dict[int, Auditor] = {}
    for line, cells in table.rows:
        key = _KEY.match(cells[0].strip()) if cells else None
        named = named_image(key.group(1) or key.group(2), auditor) if key else None
        if named is not None and named[1]:
            rows[line] = auditor._with((named[0],))
    return rows if len(rows) >= 2 else {}
