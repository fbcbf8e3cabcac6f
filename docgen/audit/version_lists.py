"""A list of versions a README gives for a component across its images (`Python environment (3.10 or
3.11)`, `CUDA 11.8 and 12.1 images`, `supports Python 3.10, 3.11`) against the versions the images it
is about have: a version an image has that the list leaves out, or a listed one no image has. And one
version said of them all (`Core components: - Python 3.9`) that only a few of them have: three images
of four built on Python 3.11 or 3.12 make `Python 3.9` a claim about one image, stale for the rest.

Read only for a part of the README about two images or more, each of which pins or names a version of
the component (`auditor.facts`, as the Key versions rows read them); the versions are compared to the
precision the README writes (`3.12.4` is `3.12`). A sentence with a condition, a choice, the past or a
requirement of the host (`if`, `your`, `e.g.`, `older`, `requires`, `host`) is not read (`likely`).
A single version is read only in prose (no table: its rows are often one image each), in a part about
three images or more, in a sentence naming none of them nor a default (`the default image`), and only
when more images have another version than have the one written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, Fact
from docgen.audit.keyed import entry_lines
from docgen.audit.wording import claims_said
from docgen.markdown import Document
from docgen.model import Diagnostic

_V = r"\d{1,2}\.\d{1,2}(?:\.\d{1,3})?"
_LIST = re.compile(
    r"\b(?P<name>Python|CUDA|PyTorch|ROCm|TensorFlow|GCC|Node(?:\.js)?|Java|Go|Ubuntu|Debian)"
    r"(?:[ \t]+(?:environment|versions?|runtime|releases?))?[ \t]*:?[ \t]*\(?[ \t]*"
    rf"(?P<list>{_V}(?:[ \t]*[,/][ \t]*{_V})*,?[ \t]*(?:\bor\b|\band\b|/|&)[ \t]*{_V})(?!\.?\d)",
    re.IGNORECASE,
)
_VERSION = re.compile(_V)
_ONE = re.compile(
    r"\b(?P<name>Python|CUDA|PyTorch|ROCm|TensorFlow|GCC|Node(?:\.js)?|Java|Ubuntu|Debian)"
    rf"(?:[ \t]+(?:version|runtime|release))?[ \t]*:?[ \t]*v?(?P<version>{_V})"
    r"(?![\d.]*\d)(?![ \t]*(?:\+|[,/&-][ \t]*\d|(?:or|and)[ \t]+\d|x\b))",
    re.IGNORECASE,
)
"""One version of a component (`Python 3.9`), not a list, a range or a floor (`3.9+`)."""
_NOT_OF_ALL = re.compile(r"\bdefault\b|\bexample\b|\bvar(?:y|ies)\b|\bdepend", re.IGNORECASE)
"""Words making one version that of one image (`the default image`, `for example`) or saying it varies."""
_NOT_A_CLAIM = re.compile(
    r"\bif\b|\bwhen\b|\bunless\b|\byour\b|\binstead\b|\bwas\b|\bwere\b|\bolder\b|\bprevious(?:ly)?\b"
    r"|\blegacy\b|\bdeprecated\b|\brequires?\b|\bhost\b|\bplanned\b|\bupcoming\b|\bnot\b|n't\b"
    r"|\bbetween\b|\bfrom\b|\bto\b|\bnewer\b|\bor[ \t]+(?:later|newer|above)\b",
    re.IGNORECASE,
)


def version_lists(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The lists of a component's versions in `part`'s sentences that leave out a version one of
    `auditor`'s images has, or name one none has (see the module's docstring)."""
    if len(auditor.models) < 2:
        return
    for line, claim in claims_said(part, _LIST, _NOT_A_CLAIM):
        found = _compare(claim.group("name"), claim.group("list"), auditor)
        if found is not None:
            yield Diagnostic(auditor.path, line, found, confidence=LIKELY)
    if len(auditor.models) < 3:
        return
    entries = entry_lines(part, auditor)  # (an entry under one image's name is that image's alone)
    for line, claim in claims_said(part, _ONE, _NOT_A_CLAIM):
        if line in entries:
            continue
        found = _of_few(claim.group("name"), claim.group("version"), claim.string, auditor)
        if found is not None:
            yield Diagnostic(auditor.path, line, found, confidence=LIKELY)


def _of_few(name: str, version: str, sentence: str, auditor: Auditor) -> str | None:
    """What is wrong with one version of `name` said of every image of `auditor` when fewer images
    have it than have another; None when the sentence names an image or the images agree."""
    if _NOT_OF_ALL.search(sentence) or auditor.scoped(sentence) is not auditor:
        return None
    parts = version.count(".") + 1
    have = _each_version(name, parts, auditor)
    if have is None or version not in {v for v, _ in have.values()}:
        return None  # an image of unknown version; or no image has it (`version_claim` tells that)
    other = [fact for v, fact in have.values() if v != version]
    if len(other) <= len(have) - len(other):
        return None
    agree = [fact for v, fact in have.values() if v == version]
    shown = "; ".join(f"{f.path}:{f.line} has {_cut(f.value, parts)}" for f in other[:3])
    only = ", ".join(f"{f.path}:{f.line}" for f in agree[:2])
    return f"README says {name} {version} of the images it is about, but {shown} (only {only} has {version})"


def _each_version(name: str, parts: int, auditor: Auditor) -> dict[str, tuple[str, Fact]] | None:
    """Image path → (its one version of `name` to `parts` numbers, the fact), None when an image has
    none or several."""
    each: dict[str, list[Fact]] = {}
    for fact in auditor.facts.lookup(name, auditor.names):
        each.setdefault(fact.path, []).append(fact)
    have: dict[str, tuple[str, Fact]] = {}
    for model in auditor.models:
        versions = {_cut(f.value, parts): f for f in each.get(model.path, ()) if _cut(f.value, parts)}
        if len(versions) != 1:
            return None
        have[model.path] = versions.popitem()
    return have


def _compare(name: str, written: str, auditor: Auditor) -> str | None:
    """What a list of `name`'s versions (`written`: `3.10 or 3.11`) leaves out or adds, against every
    image; None when an image has no known version or the list agrees."""
    listed = _VERSION.findall(written)
    facts = auditor.facts.lookup(name, auditor.names)
    each: dict[str, list[Fact]] = {}
    for fact in facts:
        each.setdefault(fact.path, []).append(fact)
    if any(not each.get(m.path) for m in auditor.models):
        return None  # an image whose version is not known may have any
    depth = {v.count(".") for v in listed}
    if len(depth) != 1:
        return None
    parts = depth.pop() + 1
    have: dict[str, Fact] = {}
    for model in auditor.models:
        versions = {_cut(f.value, parts): f for f in each[model.path] if _cut(f.value, parts)}
        if len(versions) != 1:
            return None  # several versions of one image (a build stage's, a fallback): not told
        version, fact = versions.popitem()
        have.setdefault(version, fact)
    wanted = {_cut(v, parts) for v in listed}
    extra = sorted(set(have) - wanted, key=_key)
    missing = sorted(wanted - set(have), key=_key)
    said = f"README lists {name} {written}"
    if extra:
        shown = "; ".join(f"{have[v].path}:{have[v].line} has {v}" for v in extra[:2])
        return f"{said}, but {shown}"
    if missing:
        return f"{said}, but no image it is about has {', '.join(missing)}"
    return None


def _cut(value: str, parts: int) -> str:
    """`value`'s first `parts` numbers (`3.12.4` → `3.12`), empty when it has fewer."""
    match = re.match(r"v?(\d+(?:\.\d+)*)", value)
    if match is None:
        return ""
    numbers = match.group(1).split(".")
    return ".".join(numbers[:parts]) if len(numbers) >= parts else ""


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split("."))
