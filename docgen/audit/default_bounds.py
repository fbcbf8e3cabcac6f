"""A version bound the README says the image's default meets (`If your ``ray>=2.45.0`` (default), set
…`) while the Dockerfile installs that package with a bound no version of the README's meets
(`"ray[data,train]<2.45.0"`): the reader follows the branch of the other release.

The README's bound is a pip requirement in a code span of prose (`ray>=2.45.0`, `torch<2.4`) with the
word `default` after it on the line (`(default)`, `, the default`). The Dockerfile's is the one set of
specifiers its `pip install` gives the package (`copies.pip_requirements`: a variable, several different
bounds or none and it is no fact). A claim only when the two are disjoint as ranges, read with
`packaging` (`>=2.45.0` and `<2.45.0`; not `>=2.40` and `<2.45`, which share 2.40 … 2.44); a `~=`, a
wildcard or `===` is not compared. `likely` (prose).

`manifest_bounds`: a requirement the README's prose writes in a code span on a line about what is
installed (`**Core (always installed):** ``numpy>=1.24``, …`) whose specifiers differ from the ones the
requirements file the image installs gives that package (`requirements/requirements-base.txt:5
numpy>=1.24,<2.0`): the file is the one `pip install -r` reads in the image (`ImageModel.installs`), found
by the COPY that puts it there (`ImageModel.context_copies`), from the Dockerfile's folder or the
README's. Silent when the files give the package several different specifier sets, none, or a marker or
URL, when the README's span has no specifier, and on a line not about installs. `likely`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.copies import pip_requirements
from docgen.audit.references import inside
from docgen.files import real_path, text_or_none
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


_INSTALLED = re.compile(
    r"\binstall|\bdependenc|\brequirement|\bpackages?\b|\bincludes?\b|\bships?\b|\bbundled?\b",
    re.IGNORECASE,
)
"""Words saying a line is about what the image installs (`Core (always installed):`, `Dependencies:`)."""
_FILE_LIMIT = 200_000
"""Characters of a requirements file read at most."""


def _manifest_files(model: ImageModel, directory: Path) -> list[tuple[Path, str]]:
    """(the file, its path as shown) of each requirements file `pip install -r` reads in the image of
    `model`, found by the COPY that puts it where the install reads it, from the Dockerfile's folder or
    the README's (`directory`), inside the project; one place each, else none."""
    if not model.file:
        return []
    project = real_path(directory)
    beside = real_path(Path(model.file)).parent
    named: dict[str, list[str]] = {}  # the sources a COPY puts at each path, as written
    for copy in model.context_copies:
        dest = copy.dest.strip("\"'")
        for source in copy.sources:
            source = source.strip("\"'")
            if "$" in source or any(c in source for c in "*?["):
                continue
            into = posixpath.join(dest, posixpath.basename(source)) if dest.endswith("/") else dest
            named.setdefault(posixpath.normpath(into), []).append(source)
    found: list[tuple[Path, str]] = []
    for install in model.installs:
        if install.kind != "requirements" or "$" in install.path:
            continue
        for source in named.get(posixpath.normpath(install.path), ()):
            places = {
                p
                for folder in (beside, project)
                if (p := inside(folder / source.lstrip("/"), project)) is not None and os.path.isfile(p)
            }
            if len(places) == 1:
                place = places.pop()
                found.append((place, place.relative_to(project).as_posix()))
    return found


def _file_specifiers(path: Path) -> list[tuple[int, str, Requirement]]:
    """(line, the line as written, the requirement) of each requirement with specifiers of a
    requirements file; options, URLs and markers left out."""
    text = text_or_none(path)
    if text is None:
        return []
    found: list[tuple[int, str, Requirement]] = []
    for number, raw in enumerate(text[:_FILE_LIMIT].splitlines(), 1):
        line = raw.split(" #", 1)[0].split("\t#", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if req.specifier and req.url is None and req.marker is None:
            found.append((number, line, req))
    return found


def _same(one: SpecifierSet, other: SpecifierSet) -> bool:
    """True when the two sets hold the same comparisons (`>=1.24` = `>=1.24.0`)."""

    def key(spec: SpecifierSet) -> set[tuple[str, object]]:
        held: set[tuple[str, object]] = set()
        for one in spec:
            try:
                held.add((one.operator, Version(one.version)))
            except InvalidVersion:
                held.add((one.operator, one.version))
        return held

    return key(one) == key(other)


def manifest_bounds(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path | None
) -> Iterator[Diagnostic]:
    """Each requirement the README's prose writes on a line about installs whose specifiers differ from
    those of the requirements file the image installs (see the module docstring)."""
    if directory is None:
        return
    facts: dict[str, list[tuple[str, int, str, SpecifierSet]]] = {}
    read: set[Path] = set()
    for model in models:
        for path, shown in _manifest_files(model, directory):
            if path in read:
                continue
            read.add(path)
            for number, written, req in _file_specifiers(path):
                facts.setdefault(canonicalize_name(req.name), []).append(
                    (shown, number, written, req.specifier)
                )
    if not facts:
        return
    for para in doc.paragraphs:
        for line, text in para.lines:
            if not _INSTALLED.search(text):
                continue
            for _, _, content in code_spans(text):
                if not _BOUNDED.search(content) and "~=" not in content:
                    continue
                try:
                    req = Requirement(content)
                except InvalidRequirement:
                    continue
                held = facts.get(canonicalize_name(req.name))
                if not held or req.url or req.marker or not req.specifier:
                    continue
                if any(not _same(held[0][3], other[3]) for other in held[1:]):
                    continue
                shown, number, written, spec = held[0]
                if _same(req.specifier, spec):
                    continue
                yield Diagnostic(
                    readme,
                    line,
                    f"README says {content} is installed, but {shown}:{number}, which the image installs, "
                    f"has {written}",
                    confidence=LIKELY,
                )
