"""Claims about how many build stages a Dockerfile has (`Dockerfile.cloud  # Multi-stage build`, `the
Dockerfile is a two-stage build`), against the number of its FROM instructions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor
from docgen.audit.paths import basename, matching
from docgen.files import is_dockerfile_name
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_SHAPE = re.compile(
    r"(?<![\w-])(multi|single|one|two|three|four|[2-4])[ \t]*-?[ \t]*stages?(?![\w-])"
    r"|(?<![\w-])multistage(?![\w-])",
    re.IGNORECASE,
)
"""`multi-stage`, `Multi Stage`, `multistage`, `single-stage`, `two-stage`: a build's stage count."""
_COUNTS = {"one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_NOT = re.compile(
    r"\bnot\b|n't\b|\bno\b|\bno[nt]-|\binstead\b|\bconsider|\bshould\b|\bcould\b|\bwould\b", re.I
)
"""Words that deny, suggest or imagine a structure rather than state it."""
_FILE_NAME = re.compile(
    r"(?<![\w./+-])((?:[\w.+-]+/)*(?:[\w.+-]*[Dd]ockerfile[\w.+-]*|[\w.+-]+\.[Dd]ockerfile))"
)
"""A Dockerfile's name or path in a line (`Dockerfile.cloudbuild`, `docker/app.Dockerfile`)."""
_THE_IMAGE = re.compile(
    r"\b(?:the|this|our)[ \t]+(?:dockerfile|image|build)[ \t]+(?:is|uses|has)[ \t]+(?:an?[ \t]+)?$", re.I
)
"""`The Dockerfile is a `, `This image uses `: what comes next is said of the image."""
_A_BUILD = re.compile(r"[*_`]{0,3}[ \t]+(?:docker[ \t]+)?build(?![\w-])(?![ \t]+support)", re.I)
"""What follows a stage count said of one build (`Multi-stage Build`, `multi-stage Docker build`), not
of builds in general (`multi-stage builds`) or of a tool's feature (`multi-stage build support`)."""
_ADVICE = re.compile(
    r"\b(?:use|try|prefer|recommend\w*|may|might|can|tips?|practices?|learn|about|how[ \t]+to"
    r"|e\.g\.|example)\b",
    re.I,
)
"""Words before a stage count that advise or teach (`Use a multi-stage build to …`) rather than say what
the image's build is."""
_LABEL = re.compile(
    r"\A[^\w]*(?:[*_]{1,2})?(?P<label>[^:*_|]{1,60}?)(?:[*_]{1,2})?[ \t]*[:：][ \t]*(?:[*_`]{1,3})?[ \t]*\Z"
)
"""A list item's or a line's label right before the stage count (`- ✅ **Docker Image Building**: `)."""
_BUILD_LABEL = re.compile(r"\b(?:docker\w*|images?|dockerfiles?|builds?|building|container\w*)\b", re.I)
"""A label saying its value is how the image is built (`Docker Image Building`, `Build`, `Container`):
`Multi-stage builds with caching` after it is the image's build, not builds in general."""


def stage_count_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A stage count said of a Dockerfile its line names alone (a tree listing's comment, a table
    row, a list item) or, with one image audited, of `the Dockerfile` / `this image`, that its FROM
    instructions contradict: `multi-stage` with one FROM, `single-stage` or `two-stage` with another
    number (`certain` for a named file: counting FROM lines leaves no doubt; `likely` otherwise)."""
    models = auditor.family
    paths = [m.path for m in models]
    lines = [pair for para in doc.paragraphs for pair in para.lines]
    fenced = {line for fence in doc.fences for line, _ in fence.lines}
    lines += [pair for fence in doc.fences for pair in fence.lines]
    lines += [(line, " | ".join(cells)) for table in doc.tables for line, cells in table.rows]
    lines += doc.headings
    for line, text in sorted(lines):
        match = _SHAPE.search(text)
        if match is None or _NOT.search(text):
            continue
        named = {m.group(1) for m in _FILE_NAME.finditer(text) if is_dockerfile_name(basename(m.group(1)))}
        if len(named) == 1:
            matched = matching(named.pop(), paths)
            if len(matched) != 1:
                continue
            model, confidence = models[matched.pop()], CERTAIN
        elif not named and len(set(paths)) == 1 and _said_of_the_build(text, match, line in fenced):
            model, confidence = models[0], LIKELY
        else:
            continue
        lowest, highest = _said_count(match)
        if not lowest <= len(model.stages) <= highest:
            yield _finding(auditor, line, match.group(0), model, confidence)


def _said_of_the_build(text: str, match: re.Match[str], fenced: bool) -> bool:
    """True when the stage count `match` found in `text` is said of the one image audited: after `the
    Dockerfile is` / `this image uses`, or (outside code blocks, which may show another Dockerfile) as
    the shape of a single build (`**Multi-stage Build**: smaller images`, `Build System: multi-stage
    Docker build`) with no advice before it (`Use a multi-stage build`), or as the value of a label
    naming the image's build (`**Docker Image Building**: Multi-stage builds with caching`, where the
    plural is still this image's build: the label says what it describes)."""
    if _THE_IMAGE.search(text, 0, match.start()):
        return True
    label = _LABEL.match(text[: match.start()])
    if not fenced and label is not None and _BUILD_LABEL.search(label.group("label")):
        return _ADVICE.search(label.group("label")) is None
    return (
        not fenced
        and _A_BUILD.match(text, match.end()) is not None
        and _ADVICE.search(text, 0, match.start()) is None
    )


def _said_count(match: re.Match[str]) -> tuple[int, float]:
    """The fewest and the most stages the words of `match` allow (`multi-stage`: two or more)."""
    word = (match.group(1) or "multi").lower()
    if word == "multi":
        return 2, float("inf")
    return _COUNTS[word], _COUNTS[word]


def _finding(auditor: Auditor, line: int, said: str, model: ImageModel, confidence: str) -> Diagnostic:
    """`README says X is multi-stage but it has one stage (FROM at :2)`."""
    count = len(model.stages)
    froms = ", ".join(f":{s.line}" for s in model.stages)
    has = f"{count} stage{'s' if count != 1 else ''} (FROM at {froms})"
    message = f"README says {model.path} is {said} but it has {has}"
    return Diagnostic(auditor.path, line, message, confidence=confidence)
