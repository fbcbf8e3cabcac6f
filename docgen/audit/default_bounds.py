"""A version bound the README says the image's default meets (`If your ``ray>=2.45.0`` (default), set
…`) while the Dockerfile installs that package with a bound no version of the README's meets
(`"ray[data,train]<2.45.0"`): the reader follows the branch of the other release.

The README's bound is a pip requirement in a code span of prose (`ray>=2.45.0`, `torch<2.4`) with the
word `default` after it on the line (`(default)`, `, the default`). The Dockerfile's is the one set of
specifiers its `pip install` gives the package (`copies.pip_requirements`: a variable, several different
bounds or none and it is no fact). A claim only when the two are disjoint as ranges, read with
`packaging` (`>=2.45.0` and `<2.45.0`; not `>=2.40` and `<2.45`, which share 2.40 … 2.44); a `~=`, a
wildcard or `===` is not compared. `likely` (prose).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.copies import pip_requirements
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_DEFAULT = re.compile(r"\A[^.;:!?]{0,24}?\bdefault\b", re.IGNORECASE)
"""`default` just after the code span, in the same clause: `` `ray>=2.45.0` (default)``."""
_BOUNDED = re.compile(r"[<>]|==")

Bound = tuple[Version, bool] | None


def _range(spec: SpecifierSet) -> tuple[Bound, Bound] | None:
    """(lowest, highest) version `spec` allows, each with whether it is included (None: unbounded); None
    when a specifier is not a plain comparison (`~=`, `==2.*`, `===`). `!=` narrows nothing here."""
    low: Bound = None
    high: Bound = None
    for one in spec:
        op = one.operator
        if op == "!=":
            continue
        if op not in ("<", "<=", ">", ">=", "==") or "*" in one.version:
            return None
        try:
            version = Version(one.version)
        except InvalidVersion:
            return None
        if op in (">", ">=", "=="):
            low = _tighter(low, (version, op != ">"), 1)
        if op in ("<", "<=", "=="):
            high = _tighter(high, (version, op != "<"), -1)
    return low, high


def _tighter(held: Bound, new: tuple[Version, bool], side: int) -> Bound:
    """The tighter of two lower (`side` 1) or upper (`side` -1) bounds: the higher lower bound, the
    lower upper one; at the same version, the one that leaves the version out."""
    if held is None or (new[0] > held[0] if side > 0 else new[0] < held[0]):
        return new
    if new[0] == held[0]:
        return (held[0], held[1] and new[1])
    return held


def disjoint(one: SpecifierSet, other: SpecifierSet) -> bool:
    """True when no version meets both `one` and `other` (both plain comparisons, `_range`)."""
    first, second = _range(one), _range(other)
    if first is None or second is None:
        return False
    lows = [b for b in (first[0], second[0]) if b is not None]
    highs = [b for b in (first[1], second[1]) if b is not None]
    if not lows or not highs:
        return False
    low = max(lows, key=lambda b: (b[0], not b[1]))
    high = min(highs, key=lambda b: (b[0], b[1]))
    return low[0] > high[0] or (low[0] == high[0] and not (low[1] and high[1]))


def default_bounds(doc: Document, models: Sequence[ImageModel], readme: str) -> Iterator[Diagnostic]:
    """Each README bound said to be the default that the Dockerfile's bound of the package excludes."""
    facts: dict[str, tuple[str, int, str, SpecifierSet]] = {}
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            continue
        for name, held in pip_requirements(list(enumerate(read[0].splitlines(), 1))).items():
            if len({str(spec) for _, _, spec in held}) == 1:
                facts.setdefault(name, (model.path, held[0][0], held[0][1], held[0][2]))
    if not facts:
        return
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "default" not in text.lower():
                continue
            for _, end, content in code_spans(text):
                if not _BOUNDED.search(content) or not _DEFAULT.match(text[end:]):
                    continue
                try:
                    req = Requirement(content)
                except InvalidRequirement:
                    continue
                fact = facts.get(canonicalize_name(req.name))
                if fact is None or req.url or not disjoint(req.specifier, fact[3]):
                    continue
                path, at, written, _ = fact
                yield Diagnostic(
                    readme,
                    line,
                    f"README says the default has {content} but {path}:{at} installs {written}, which no "
                    f"version of {content} meets",
                    confidence=LIKELY,
                )
