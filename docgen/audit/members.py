"""Sentences of a README about several images that start by naming one of them (`Jetson images were built
with CUDA 10.1.`, `The ROCm image ships Python 3.10.`, `For PCs, CUDA 11.3.1 was used.`): what they claim
is that image's, and is compared with its Dockerfile alone, not with whichever of the family agrees or
comes first. The image is named as a scope note names it (`auditor.image_names`: the variant of its
Dockerfile's name, the folder of a plain `Dockerfile`), a plural too (`PCs` for `pc/Dockerfile`); a
sentence naming two images, or none docgen tells apart, stays the family's.
"""

from __future__ import annotations

import re

from docgen.audit.auditor import Auditor
from docgen.audit.sections import IMAGE_SUBJECT, NOT_A_VARIANT
from docgen.audit.wording import sentences

Lines = list[tuple[int, str]]

_FOR_MEMBER = re.compile(
    r"(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?[*_]*(?:for|on)[ \t]+(?:the[ \t]+)?([\w.+-]+)[ \t]*[,:]",
    re.IGNORECASE,
)
"""A sentence that opens on the image it is about, with a comma or a colon: `For PCs, …`, `On Jetson: …`."""


def _named(sentence: str, auditor: Auditor) -> int | None:
    """The index in `auditor.models` of the one image the opening words of `sentence` name; None when
    they name none or several."""
    sentence = sentence.lstrip()
    match = IMAGE_SUBJECT.match(sentence) or _FOR_MEMBER.match(sentence)
    if match is None:
        return None
    words = {w.strip("`*_").lower() for w in match.group(1).split()} - NOT_A_VARIANT
    words |= {w[:-1] for w in words if w.endswith("s") and len(w) > 2}  # `PCs`, `Jetsons`
    named = {i for word in words for i in auditor.named_models.get(word, ())}
    return next(iter(named)) if len(named) == 1 else None


def _keep(lines: Lines, spans: list[tuple[int, int]]) -> Lines:
    """`lines` (joined with one space each) with every character outside `spans` (offsets in the joined
    text) replaced by a space, so that offsets and line numbers stay."""
    joined = " ".join(text for _, text in lines)
    pieces: list[str] = []
    done = 0  # the joined text is kept or blanked up to here
    for start, end in sorted(spans):
        start, end = max(start, done), min(end, len(joined))
        if start >= end:
            continue
        pieces.append(" " * (start - done))
        pieces.append(joined[start:end])
        done = end
    pieces.append(" " * (len(joined) - done))
    kept = "".join(pieces)
    out: Lines = []
    offset = 0
    for line, text in lines:
        out.append((line, kept[offset : offset + len(text)]))
        offset += len(text) + 1
    return out


def member_sentences(lines: Lines, auditor: Auditor) -> tuple[Lines, list[tuple[Auditor, Lines]]]:
    """(`lines` without the sentences that name one image of `auditor`'s several, [(that image's auditor,
    `lines` with only those sentences)]). With one image audited, or no such sentence, `lines` and []."""
    if len(auditor.models) < 2:
        return lines, []
    spans: dict[int, list[tuple[int, int]]] = {}
    for start, end, sentence in sentences(lines):
        index = _named(sentence, auditor)
        if index is not None:
            spans.setdefault(index, []).append((start, end))
    if not spans:
        return lines, []
    every = sorted(span for found in spans.values() for span in found)
    total = sum(len(text) + 1 for _, text in lines)
    gaps = zip([0, *(end for _, end in every)], [*(start for start, _ in every), total], strict=True)
    rest = [(a, b) for a, b in gaps if a < b]
    members = [
        (auditor._with((auditor.models[i],)), _keep(lines, found)) for i, found in sorted(spans.items())
    ]
    return _keep(lines, rest), members
