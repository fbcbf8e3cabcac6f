"""A pin the README tells a maintainer to update for a release that nothing of the project reads: "add a
new release by updating `SIM_VERSION` and `SIM_SHA256`" while neither the Dockerfile nor any file of the
repository (scripts, workflows, compose files) names either. How the version is chosen has changed,
and the instruction leads nowhere.

A sentence of a paragraph is read when it tells the reader to update, set, change, bump or edit
(`updating`, `bump the value of`) one or more names in code that are upper case with an `_` and end as
a pin does (`_VERSION`, `_TAG`, `_COMMIT`, `_SHA256`, `_MD5` …), and speaks of a release, a version,
a build, an image or the Dockerfile. A name is a claim when no audited Dockerfile and no file below the
project's root (its `.github` too; not the README) names it, no command block of the README names it
(`--build-arg`, `export`), and it is not a variable the README passes at run time. The finding is
`likely` (`auditor.arg_claim`): the prose may speak of another project's file.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read, some
from docgen.audit.paths import resolves_inside
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_NAME = r"`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`"
_UPDATE = re.compile(
    r"\b(?:updat(?:e|es|ed|ing)|chang(?:e|es|ing)|set(?:s|ting)?|bump(?:s|ing)?|edit(?:s|ing)?"
    r"|modify(?:ing)?)[ \t]+(?:the[ \t]+)?(?:values?[ \t]+(?:of|for|in)[ \t]+)?"
    rf"({_NAME}(?:[ \t]*(?:,[ \t]*(?:and[ \t]+|or[ \t]+)?|and[ \t]+|or[ \t]+|&[ \t]*){_NAME})*)"
)
"""Words telling the reader to give one or more names in code a new value (`by updating `A_VERSION` and
`A_MD5``)."""
_PIN_NAME = re.compile(
    r"[A-Z][A-Z0-9_]*_(?:VERSION|VER|TAG|COMMIT|REF|BRANCH|RELEASE|SHA|SHA1|SHA256|SHA512|MD5|CHECKSUM|HASH)"
)
"""A name that ends as a pin's does (`GROMACS_VERSION`, `SIM_SHA256`)."""
_RELEASE_WORDS = re.compile(r"\b(?:release|version|build|image|dockerfile|upgrad)", re.IGNORECASE)
"""Words of a sentence about what the build installs."""
_SENTENCE_STOP = re.compile(r"[.:] ")
"""Where a sentence (or what a colon introduces) ends, before an instruction to update."""
_SENTENCE_END = re.compile(r"\. ")
"""Where the sentence of an instruction to update ends."""
_WORD = re.compile(r"\w+")
"""A word of a command block: a name it says (`--build-arg SIM_VERSION=2`, `$SIM_VERSION`)."""
_FILES_LIMIT = 5_000
"""Files of the project read at most: a larger project is not read (no claim)."""
_BYTES_LIMIT = 20_000_000
"""Bytes of the project's files read at most."""


def _project_names(root: Path, readme: Path | None, names: set[str]) -> set[str] | None:
    """The names of `names` that a file below `root` (not `readme`, nor in a folder whose name starts
    with a dot other than `.github`, nor a link out of `root`) holds; None when the project is larger
    than docgen reads."""
    found: set[str] = set()
    pattern = re.compile(
        r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, sorted(names))) + r")(?![A-Za-z0-9_])"
    )
    count, budget = 0, _BYTES_LIMIT
    inside = real_path(root)
    for top, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith(".") or f == ".github")
        for name in sorted(files):
            path = Path(top, name)
            if not resolves_inside(path, inside) or (readme is not None and real_path(path) == readme):
                continue
            count += 1
            if count > _FILES_LIMIT:
                return None
            text = text_or_none(path)
            if text is None:
                continue
            budget -= len(text)
            if budget < 0:
                return None
            found.update(pattern.findall(text))
            if found == names:
                return found
    return found


def _release_vars(
    doc: Document, auditor: Auditor, root: Path, readme: Path | None, runtime: frozenset[str]
) -> Iterator[Diagnostic]:
    """One finding a pin name a sentence tells to update that nothing of the project names (see the
    module's docstring), at its line, `likely`."""
    fenced = {w for fence in doc.fences for _, t in fence.lines for w in _WORD.findall(t)}
    said: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        starts, text = [], ""
        for _, each in para.lines:
            starts.append(len(text))
            text += each + " "
        # Where sentences end and release words are, found once a paragraph, not once a match.
        stops = [m.start() for m in _SENTENCE_STOP.finditer(text)]
        dots = [m.start() for m in _SENTENCE_END.finditer(text)]
        words = list(_RELEASE_WORDS.finditer(text))
        word_starts = [m.start() for m in words]
        for match in _UPDATE.finditer(text):
            before = bisect.bisect_right(stops, match.start() - 2) - 1
            begin = stops[before] + 1 if before >= 0 else 0
            after = bisect.bisect_left(dots, match.end())
            end = dots[after] if after < len(dots) else len(text)
            first = bisect.bisect_left(word_starts, begin)
            if first == len(words) or words[first].end() > end:
                continue
            line = para.lines[bisect.bisect_right(starts, match.start()) - 1][0]
            for name in re.findall(r"`([^`]+)`", match.group(1)):
                if _PIN_NAME.fullmatch(name) and name not in runtime and name not in fenced:
                    said.append((line, name))
    if not said:
        return
    texts = [r[0] for m in auditor.models if m.file and (r := dockerfile_read(m.file)) is not None]
    if len(texts) != len(auditor.models):
        return
    names = {name for _, name in said if not any(re.search(rf"\b{name}\b", t) for t in texts)}
    if not names:
        return
    named = _project_names(root, readme, names)
    if named is None:
        return
    told: set[str] = set()
    for line, name in said:
        if name in names and name not in named and name not in told:
            told.add(name)
            yield from some(auditor.arg_claim(line, name, LIKELY))


def release_vars(
    doc: Document,
    auditor: Auditor,
    root: Path,
    readme: Path | None,
    runtime: frozenset[str],
    told: Sequence[Diagnostic],
) -> list[Diagnostic]:
    """`_release_vars`, without a name on a line another rule has told already (`told`)."""
    return [
        d
        for d in _release_vars(doc, auditor, root, readme, runtime)
        if not any(t.line == d.line and t.message == d.message for t in told)
    ]
