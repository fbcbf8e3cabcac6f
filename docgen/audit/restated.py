"""A component's version a README states twice for the same image, differently, where the Dockerfile
pins nothing to compare either with: `` `ascend-pretrain:latest` (torch 2.1 + CANN 8.0) `` in a table of
what the image is built on, and `based on the official image (CANN 8.1.RC1 + PyTorch 2.6.0)` further
down. One of the two is stale; the later one is reported, next to the line it disagrees with.

Only a part of the README about one image is read, and only lines that say what the image or its base
holds (`base`, `image`, `based on`, `includes`, `ships`, `镜像`, `基于`, `含` …), each naming the component
(a well-known name: PyTorch, CUDA, CANN, Python …) with one version. A line offering choices or
conditions (`supports`, `or`, `compatible`, `tested`, `upgrade`, `from … to`, `支持`, `兼容` …), a table
giving the component a version in several rows (a matrix of images or releases), and a component stated
with three or more versions are not read: they list releases, not what one image holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.versions import name_keys, same_version
from docgen.markdown import Document, lists
from docgen.model import Diagnostic
from docgen.rows import display_name, renamed

_NAMED_VERSION = re.compile(
    r"(?<![\w.+/@-])([A-Za-z][A-Za-z0-9_+-]{0,30}?)[ \t]*[vV]?"
    r"(\d{1,4}(?:\.\d{1,4}){1,3}(?:\.?(?:RC|rc|alpha|beta|post)\d{0,3})?)(?![\w.+-]*\d)(?![\w])"
)
"""`torch 2.1`, `PyTorch 2.6.0`, `CANN 8.1.RC1`, `Python3.10`: a name, then its version."""
_HOLDS = re.compile(
    r"\b(?:base|image|container|based[ \t]+on|built[ \t]+on|includes?|including|ships|comes[ \t]+with"
    r"|contains|bundles|provides)\b|镜像|基于|含|包含|内置|自带",
    re.IGNORECASE,
)
"""Words saying a line tells what the image or its base holds."""
_CHOICES = re.compile(
    r"\b(?:or|supports?|supported|compatible|compatibility|tested|requires?|required|needs?|upgrade[sd]?"
    r"|downgrade[sd]?|from|until|older|newer|previous|latest|later|earlier|and[ \t]+above|or[ \t]+higher"
    r"|min(?:imum)?|max(?:imum)?|recommended|optional(?:ly)?|e\.g|example|instead|replace[sd]?|if)\b"
    r"|[<>~^]=?|支持|兼容|升级|降级|要求|需要|或|以上|以下|例如|可选|推荐|旧|新版",
    re.IGNORECASE,
)
"""Words saying a line offers releases or conditions, not what one image holds."""
_ENTRY = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\*\*|__|`)[^`*_\n]{1,60}(?:\*\*|__|`)[ \t]*[:：—–-]"
)
"""A list item that is an entry under a name (`` - `base-gnu`: Ubuntu 16.04 … ``): about what it names."""
_CODE = re.compile(r"`[^`\n]*`")
"""A code span: an image reference (`name:latest`) or a command, whose words are no choice offered."""


def _claims(sub: Document, known: set[str]) -> Iterator[tuple[str, str, str, int]]:
    """(key, name as written, version, README line) of each component a line of `sub` (paragraphs and
    table rows) says the image holds, once per line; a component a line names with two versions, or a
    table or a list names in two of its rows or items (entries side by side), is left out there, and so
    is an item that is an entry under a name (`_ENTRY`)."""
    lines: list[tuple[int, str, int]] = []  # (line, text, first line of its list or table, or 0)
    in_list = {line: block.intro_line for block in lists(sub) for line, _ in block.items}
    for para in sub.paragraphs:
        lines += [(line, text, in_list.get(line, 0)) for line, text in para.lines if not _ENTRY.match(text)]
    for table in sub.tables:
        lines += [(line, " ".join(cells), table.line) for line, cells in table.rows]
    per_table: dict[tuple[int, str], int] = {}
    found: list[tuple[str, str, str, int, int]] = []
    for line, text, header in lines:
        if not _HOLDS.search(text) or _CHOICES.search(_CODE.sub(" ", text)):
            continue
        seen: dict[str, list[tuple[str, str]]] = {}
        for match in _NAMED_VERSION.finditer(text):
            name, version = match.group(1), match.group(2)
            if name.lower() not in known:
                continue
            for key in sorted(name_keys(name, {})):
                seen.setdefault(key, []).append((name, version))
        for key, said in seen.items():
            if len({v for _, v in said}) == 1:
                found.append((key, said[0][0], said[0][1], line, header))
                if header:
                    per_table[(header, key)] = per_table.get((header, key), 0) + 1
    for key, name, version, line, header in found:
        if not header or per_table[(header, key)] == 1:
            yield key, name, version, line


def restated_versions(sub: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The later of two lines of `sub` (a part of the README about one image) that give a component the
    image holds two versions that disagree, when the Dockerfile pins nothing of it (`likely`)."""
    if len(auditor.models) != 1:
        return
    known = {k.lower() for k in renamed(auditor.names)}
    by_key: dict[str, list[tuple[str, str, int]]] = {}
    for key, name, version, line in _claims(sub, known):
        by_key.setdefault(key, []).append((name, version, line))
    model = auditor.models[0]
    for _key, said in sorted(by_key.items()):
        if len({v for _, v, _ in said}) != 2 or len(said) > 4:
            continue
        if auditor.facts.lookup(said[0][0], auditor.names):
            continue  # pinned or stated in the Dockerfile: the version rules compare with that
        said.sort(key=lambda s: s[2])
        first = said[0]
        for name, version, line in said[1:]:
            if same_version(version, first[1]) is False:
                shown = display_name(name, auditor.names)
                message = (
                    f"README says {shown} {version} but line {first[2]} says {first[0]} {first[1]} "
                    f"for the same image; {model.path} pins neither"
                )
                yield Diagnostic(auditor.path, line, message, confidence=LIKELY)
                break
