"""Build args a README says leave the build to take the latest release when they are not set, while
the Dockerfile pins them: `This will either be the latest release or the version set through
--build-arg=HEAT_VERSION=1.2.0`, `By default the newest version of the SDK is installed; pass
SDK_VERSION to pin one`, against `ARG HEAT_VERSION=1.2.0`. A build that does not set the arg gets the
pinned default, never a newer release.

Read: the sentences of the README's paragraphs and list items that speak of the latest (newest, most
recent) release, version, tag or commit, say how a build goes without the arg (`by default`, `either …
or`, `unless`, `otherwise`, `if not set`, `when omitted`, `without`) and name exactly one build arg
an audited Dockerfile declares and reads. Told when every declaration of the arg has a known default
that is a pinned version (digits in it; not `latest`, `main`, `nightly` …) that the paragraph does not
write out (`the latest release (1.2.0) by default` says the pin). `likely`: the pin may have been the
latest release when the README was written, but the build will not follow newer ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY
from docgen.audit.wording import claims_said
from docgen.markdown import Document, code_spans
from docgen.model import ArgDecl, Diagnostic, ImageModel

_LATEST = re.compile(
    r"\b(?:the[ \t]+)?(?:latest|newest|most[ \t]+recent)"
    r"(?:[ \t]+(?:stable|available|published|released|official|upstream|tagged|PyPI|GitHub|[A-Za-z][\w.+-]*))?"
    r"[ \t]+(?:releases?|versions?|tags?|commits?|revisions?|builds?)\b",
    re.IGNORECASE,
)
"""`the latest release`, `the newest version`, `the most recent PyPI release`, `latest heat release`."""
_ABSENT = re.compile(
    r"\bby[ \t]+default\b|\bdefaults?\b|\beither\b|\bunless\b|\botherwise\b|\bwithout\b"
    r"|\b(?:if|when)[ \t]+(?:it[ \t]+is[ \t]+|they[ \t]+are[ \t]+)?(?:not|no|none|unset|omitted|left|empty)\b"
    r"|\bif[ \t]+(?:\S+[ \t]+){1,3}(?:is|are)[ \t]+(?:not|unset|omitted|empty)\b",
    re.IGNORECASE,
)
"""Words saying what a build does when the arg is not given."""
_NOT_A_CLAIM = re.compile(
    r"\b(?:Ubuntu|Debian|Alpine|CentOS|Rocky|Fedora|LTS|distro|OS|driver|drivers|docker|Docker[ \t]+Engine"
    r"|Compose|Podman|kernel)\b",
)
"""A sentence about the host's or the distribution's latest release, not the arg's."""
_FLOATING = re.compile(r"latest|nightly|main|master|head|stable|edge|rolling|dev|develop|trunk", re.IGNORECASE)
"""Defaults that follow new releases."""
_DIGIT = re.compile(r"[0-9]")
_NAME = re.compile(r"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])")


def _pinned(decl: ArgDecl) -> bool:
    """True when `decl` has a known default that names one version (`1.2.0`, `v2.4`, a commit)."""
    value = decl.default
    return bool(value) and value is not None and bool(_DIGIT.search(value)) and not _FLOATING.search(value)


def _named(sentence: str, declared: dict[str, list[tuple[ImageModel, ArgDecl]]]) -> set[str]:
    """The declared args `sentence` names: in code, after `--build-arg`, or spelt like an arg (upper
    case, or with `_`) in words."""
    spans = [(start, end) for start, end, _ in code_spans(sentence)]
    found = set()
    for match in _NAME.finditer(sentence):
        name = match.group(0)
        if name not in declared:
            continue
        coded = any(start <= match.start() < end for start, end in spans)
        if coded or "_" in name or name.isupper():
            found.add(name)
    return found


def latest_args(doc: Document, models: Sequence[ImageModel], path: str) -> Iterator[Diagnostic]:
    """A README sentence saying a build without the arg takes the latest release, of an arg whose every
    declaration pins a version the paragraph does not write (`likely`)."""
    declared: dict[str, list[tuple[ImageModel, ArgDecl]]] = {}
    for model in models:
        for decl in model.args:
            declared.setdefault(decl.name, []).append((model, decl))
    if not declared:
        return
    told: set[str] = set()
    for line, claim in claims_said(doc, _LATEST, _NOT_A_CLAIM):
        sentence = claim.string
        if not _ABSENT.search(sentence):
            continue
        names = _named(sentence, declared)
        if len(names) != 1:
            continue
        name = names.pop()
        decls = declared[name]
        if name in told or not all(_pinned(d) for _, d in decls):
            continue
        if not any(d.used_lines for _, d in decls):
            continue  # (an arg nothing reads is `idle`'s)
        defaults = {d.default for _, d in decls if d.default}
        paragraph = next((p for p in doc.paragraphs if any(at == line for at, _ in p.lines)), None)
        text = " ".join(t for _, t in paragraph.lines) if paragraph is not None else sentence
        text = re.sub(rf"{re.escape(name)}[ \t]*=[ \t]*\S+", " ", text)  # (`--build-arg NAME=1.2.0` offers it)
        if any(value in text for value in defaults):
            continue
        told.add(name)
        written = [(m, d) for m, d in decls if d.raw_default is not None] or decls
        model, decl = min(written, key=lambda md: md[1].line)
        yield Diagnostic(
            path,
            line,
            f"README says a build that does not set {name} takes {claim.group(0).strip()}, but "
            f"{model.path}:{decl.line} gives {name} the default {decl.default}: such a build gets "
            f"{decl.default}, whatever the newest release is",
            confidence=LIKELY,
        )
