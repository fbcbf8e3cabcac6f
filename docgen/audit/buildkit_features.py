"""A BuildKit feature the README says its Dockerfile uses (`The Dockerfile uses BuildKit cache mounts
(`RUN --mount=...`), so BuildKit is required`) that none of the Dockerfiles audited uses in any stage:
the reason given for needing BuildKit, or for a faster rebuild, is gone.

The claim is a sentence whose subject is the Dockerfile (`The Dockerfile`, `This Dockerfile`, `our
Dockerfiles`, `the build`) and whose verb says it uses something (`uses`, `relies on`, `leverages`),
followed in the same clause by a feature: cache, secret or SSH mounts (`RUN --mount`), heredocs
(`<<EOF`), `COPY --link`, `COPY --chmod`, the `# syntax=` frontend directive, or the platform args
(`TARGETARCH`, `FROM --platform`). A condition (`if the Dockerfile uses cache mounts`), a negation
(`no longer uses`), a modal (`can use`) or advice (`consider using`) is no claim; nor is `BuildKit is
required` without a feature.

A Dockerfile uses a feature when its text outside comments spells it anywhere (an ARG that builds the
flag, `ARG CACHE="--mount=type=cache,…"`, counts): only a Dockerfile that never writes it contradicts
the claim. `likely`; `certain` when the README writes the flag itself in code (`` `RUN --mount` ``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.files import dockerfiles_in, stays_home
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_SUBJECT = re.compile(
    r"\b(?:the|this|our|these|all(?:[ \t]+(?:the|our))?|each|every)[ \t]+(?:[\w`.*-]+[ \t]+)?"
    r"(?P<noun>Dockerfiles?|(?:image[ \t]+)?build)\b[`*]*"
    r"(?P<between>[^.;:!?]{0,40}?)[ \t]+(?:(?:now|also|already|heavily|extensively)[ \t]+)?"
    r"(?:uses|relies[ \t]+on|makes[ \t]+use[ \t]+of|leverages|employs|takes[ \t]+advantage[ \t]+of"
    r"|(?:is|are)[ \t]+using|use|rely[ \t]+on|make[ \t]+use[ \t]+of|leverage|employ)\b",
    re.I,
)
"""The Dockerfile (or the build) as the subject of a verb of use; `between` is what stands between
them (`The Dockerfile in this folder uses`)."""
_NOT_SAID = re.compile(
    r"\b(?:not|no|never|longer|can|could|may|might|should|would|will|must|to|if|when|once|unless)\b|n't", re.I
)
"""Words that make the use a condition, a negation, a possibility or advice."""
_CONDITION = re.compile(
    r"\b(?:if|when|whether|unless|once|before|after|suppose|can|could|should|may|might|would|will|must|to"
    r"|make|let|have|want|need|consider|recommend)\b",
    re.I,
)
"""A condition or advice in the sentence before the subject (`If the Dockerfile uses cache mounts, …`,
`You can make the Dockerfile use cache mounts`)."""
_CLAUSE_END = re.compile(r"[.;!?](?:[ \t*_)]|$)|\b(?:but|if|unless|although|though|whereas|while)\b", re.I)
"""Where the clause after the verb ends: the things used stop there."""
_SENTENCE_START = re.compile(r"[.;!?][*_)\]]*[ \t]+")
"""The end of the sentence before (the sentence of the subject starts after the last one)."""


@dataclass(frozen=True)
class _Feature:
    """A BuildKit feature: how a README names it, how a Dockerfile spells it."""

    said: str
    """How a finding names it."""
    spelled: str
    """How a Dockerfile writes it, as a finding names it."""
    words: re.Pattern[str]
    """Its names in the README's clause."""
    code: re.Pattern[str]
    """Its spelling in a Dockerfile's text outside comments."""


_PLATFORM = r"\b(?:TARGETARCH|TARGETPLATFORM|TARGETOS|TARGETVARIANT|BUILDPLATFORM|BUILDARCH)\b|--platform\b"
_FEATURES = (
    _Feature(
        "cache mounts",
        "--mount=type=cache",
        re.compile(r"cache[ \t-]+mounts?\b|type=cache\b", re.I),
        re.compile(r"type=cache\b"),
    ),
    _Feature(
        "secret mounts",
        "--mount=type=secret",
        re.compile(r"secrets?[ \t-]+mounts?\b|type=secret\b", re.I),
        re.compile(r"type=secret\b"),
    ),
    _Feature(
        "SSH mounts",
        "--mount=type=ssh",
        re.compile(r"ssh[ \t-]+mounts?\b|type=ssh\b", re.I),
        re.compile(r"type=ssh\b"),
    ),
    _Feature(
        "RUN --mount",
        "--mount",
        re.compile(r"(?:RUN[ \t]+)?--mount\b|\bmount[ \t]+flags?\b", re.I),
        re.compile(r"--mount\b"),
    ),
    _Feature(
        "heredocs",
        "<<EOF",
        re.compile(r"\bhere-?docs?\b|\bhere[ \t]+documents?\b|<<-?[ \t]*[\"']?[A-Z_]+\b", re.I),
        re.compile(r"<<-?[ \t]*[\"']?[A-Za-z_]"),
    ),
    _Feature("COPY --link", "--link", re.compile(r"--link\b"), re.compile(r"--link\b")),
    _Feature("COPY --chmod", "--chmod", re.compile(r"--chmod\b"), re.compile(r"--chmod\b")),
    _Feature(
        "# syntax= directive",
        "# syntax=",
        re.compile(r"#[ \t]*syntax[ \t]*=|\bsyntax[ \t]+directive\b", re.I),
        re.compile(r"^[ \t]*#[ \t]*syntax[ \t]*=", re.I | re.M),
    ),
    _Feature("platform args", "TARGETARCH or --platform", re.compile(_PLATFORM), re.compile(_PLATFORM)),
)
_GENERIC = _FEATURES[3]
"""`RUN --mount` of any type: when a clause names a mount of a type too (`cache mounts (`RUN
--mount=...`)`), that type is the claim, and any mount of the Dockerfile answers the loose wording."""
_TYPED = frozenset(_FEATURES[:3])
_COMMENT = re.compile(r"^[ \t]*#.*$", re.M)


def _text(file: str) -> str | None:
    """The Dockerfile at `file` without its comment lines, the `# syntax=` directive kept; None when it
    cannot be read."""
    read = dockerfile_read(file)
    if read is None:
        return None
    text = read[0]
    syntax = "".join(f"# syntax={value}\n" for key, value in read[1].directives if key.lower() == "syntax")
    return syntax + _COMMENT.sub("", text)


def _in_code(spans: list[tuple[int, int, str]], start: int, end: int) -> bool:
    """True when `[start, end)` lies inside one of the code spans `spans` (`code_spans` of the text)."""
    return any(s <= start and end <= e for s, e, _ in spans)


def _claims(doc: Document) -> Iterator[tuple[int, bool, list[tuple[_Feature, bool]]]]:
    """(README line, plural subject, [(feature, written in code)]) of each sentence saying the
    Dockerfile uses BuildKit features."""
    for para in doc.paragraphs:
        starts: list[tuple[int, int]] = []  # (offset in the joined text, README line)
        joined = ""
        for line, text in para.lines:
            starts.append((len(joined), line))
            joined += text.strip() + " "
        offsets = [offset for offset, _ in starts]
        # where each sentence starts (after the end of the one before); a subject starts with a
        # letter, so no end of sentence runs over its start
        sentence_starts = [m.end() for m in _SENTENCE_START.finditer(joined)]
        spans: list[tuple[int, int, str]] | None = None  # the code spans of `joined`, read once
        for match in _SUBJECT.finditer(joined):
            if _NOT_SAID.search(match["between"]):
                continue
            at = bisect.bisect_right(sentence_starts, match.start())
            sentence = joined[sentence_starts[at - 1] if at else 0 : match.start()]
            if _CONDITION.search(sentence):
                continue
            rest = joined[match.end() : match.end() + 160]
            end = _CLAUSE_END.search(rest)
            clause_end = match.end() + (end.start() if end else len(rest))
            clause = joined[match.end() : clause_end]
            named: list[tuple[_Feature, bool]] = []
            for feature in _FEATURES:
                hits = list(feature.words.finditer(clause))
                if hits:
                    if spans is None:
                        spans = code_spans(joined)
                    code = any(_in_code(spans, match.end() + h.start(), match.end() + h.end()) for h in hits)
                    named.append((feature, code))
            if not named:
                continue
            line = starts[bisect.bisect_right(offsets, match.start()) - 1][1]  # lines are in order
            yield line, match["noun"].lower().endswith("s"), named


def buildkit_features(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None
) -> Iterator[Diagnostic]:
    """The BuildKit features a sentence says the Dockerfile uses (see the module's docstring) that no
    Dockerfile audited (for a plural subject, nor one next to the README) spells outside comments."""
    claims = list(_claims(doc))
    if not claims:
        return
    files = [m.file for m in models if m.file]
    texts = [t for f in files if (t := _text(f)) is not None]
    if not texts or len(texts) != len(files):
        return
    for line, plural, named in claims:
        pool = texts
        if plural and directory is not None:
            others = [  # (one leading out of the project is read as one that cannot be read)
                _text(str(p)) if stays_home(p) else None
                for p in dockerfiles_in(directory, 1, pass_unreadable=True)
            ]
            if any(o is None for o in others):
                continue
            pool = texts + [o for o in others if o is not None]
        generic = next((code for f, code in named if f is _GENERIC), None)
        any_mount = generic is not None and any(_GENERIC.code.search(t) for t in pool)
        typed = any(f in _TYPED for f, _ in named)
        missing = [
            (f, code or (f in _TYPED and bool(generic)))
            for f, code in named
            if not (f is _GENERIC and typed)  # told as the type it names
            and not (f in _TYPED and any_mount)
            and not any(f.code.search(t) for t in pool)
        ]
        if not missing:
            continue
        said = ", ".join(f.said for f, _ in missing)
        spelled = " or ".join(f.spelled for f, _ in missing)
        shown = models[0].path if len(pool) == 1 else f"the {len(pool)} Dockerfiles"
        where = " in any stage" if len(pool) == 1 else ""
        have = "has" if len(pool) == 1 else "have"
        yield Diagnostic(
            readme,
            line,
            f"README says the Dockerfile uses BuildKit {said}, but {shown} {have} no {spelled}{where}",
            confidence=CERTAIN if any(code for _, code in missing) else LIKELY,
        )
