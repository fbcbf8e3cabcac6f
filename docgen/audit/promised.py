"""A Dockerfile for a platform the README says is not there yet (`the Dockerfile for AMD GPU will be
provided upon request`, `ROCm Dockerfile coming soon`) while a Dockerfile of that platform is audited or
lies next to the README: the promise was kept and the sentence not updated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.paths import variant
from docgen.audit.wording import sentences
from docgen.markdown import Document
from docgen.model import Diagnostic

_NOT_YET = re.compile(
    r"\b(?:will[ \t]+be[ \t]+(?:provided|added|released|published|available|supported)"
    r"|(?:up)?on[ \t]+request|coming[ \t]+soon|not[ \t]+(?:yet[ \t]+)?(?:provided|available)"
    r"|(?:is|are)[ \t]+(?:still[ \t]+)?planned)\b",
    re.IGNORECASE,
)
"""Words saying something is not there yet: `will be provided`, `upon request`, `coming soon`,
`not yet available`, `is planned`."""
_CLAUSE = re.compile(r"[;,][ \t]+(?:and|but|while|whereas)\b|[;:]|\bbut\b", re.IGNORECASE)
"""Where a sentence's clauses part: `We provide X, and the Dockerfile for Y will be provided …`."""
_DOCKERFILE = re.compile(r"\b(?:docker|container)files?\b", re.IGNORECASE)
_PLATFORMS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (re.compile(r"\b(?:amd|rocm|hip|radeon|instinct)\b", re.I), re.compile(r"rocm\d*|hip|amd")),
    (re.compile(r"\b(?:intel|xpu|oneapi|sycl)\b", re.I), re.compile(r"xpu|intel|oneapi|sycl|ipex")),
    (re.compile(r"\b(?:ascend|npu|cann)\b", re.I), re.compile(r"ascend|npu|cann")),
    (re.compile(r"\b(?:jetson|l4t)\b", re.I), re.compile(r"jetson|l4t")),
    (re.compile(r"\bcpu\b", re.I), re.compile(r"cpu")),
    (re.compile(r"\b(?:nvidia|cuda)\b", re.I), re.compile(r"cuda|cu\d{2,3}|nvidia")),
)
"""(words naming a platform in prose, the word of a Dockerfile's variant that names it: `rocm` in
`Dockerfile.rocm`, `cu124` in `Dockerfile.cu124`)."""
_WORD = re.compile(r"[a-z0-9]+")


def promised_variants(doc: Document, auditor: Auditor, siblings: Sequence[str] = ()) -> Iterator[Diagnostic]:
    """The clauses of the README's prose saying a Dockerfile for a platform is not there yet
    (`_NOT_YET`), that name one platform (`AMD GPU`) whose variant one of the audited Dockerfiles or of
    `siblings` (the ones next to the README) has in its name (`docker/Dockerfile.rocm`): `likely`."""
    audited = [m.path for m in auditor.family]
    paths = audited + [s for s in siblings if s not in audited]
    words = {path: set(_WORD.findall(variant(path) or "")) for path in paths}
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            if not _NOT_YET.search(sentence):
                continue
            cuts = [0, *(m.end() for m in _CLAUSE.finditer(sentence)), len(sentence)]
            for a, b in zip(cuts, cuts[1:], strict=False):
                clause = sentence[a:b]
                promise = _NOT_YET.search(clause)
                if promise is None or not _DOCKERFILE.search(clause):
                    continue
                named = [pattern for said, pattern in _PLATFORMS if said.search(clause, 0, promise.start())]
                if len(named) != 1:
                    continue
                found = [p for p in paths if any(named[0].fullmatch(w) for w in words[p])]
                if found:
                    line = line_at(para.lines, start + a)
                    said = clause.strip(" ,;:").rstrip(".")
                    message = f"README says {said!r}, but {found[0]} exists"
                    yield Diagnostic(auditor.path, line, message, confidence=LIKELY)


def line_at(lines: list[tuple[int, str]], offset: int) -> int:
    """The README line of the character at `offset` of `lines` joined with one space each."""
    seen = 0
    for line, text in lines:
        if offset < seen + len(text) + 1:
            return line
        seen += len(text) + 1
    return lines[-1][0]
