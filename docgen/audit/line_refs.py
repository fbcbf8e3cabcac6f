"""References to a numbered line of a file beside the README (`Used in: Makefile line 9`, `Set in:
Dockerfile line 18`, `run_wrapper.sh lines 46, 59`, `line 12 of the Makefile`) whose line does not name
the variable the list item is about, while another line of that file sets it: the README points at the
wrong line, and the finding says the right one.

The variable is the one name in code or bold on the item's line (`` **`MODEL_PATH`** ``, `` `TZ=UTC` ``),
else on the item it is nested under. Each line is read once; every regular expression runs on one line.

A reference that names no file (`* Lines 51-52 defining ports for dashboard agent.`) points into the
one file its paragraph names before it (`The example configuration is [here](example.yaml).`); it, and
a reference naming its file whose item names no variable, is read by its words (`_by_words`): when the
lines it names lack one of the words that say what is there (`ports`, `dashboard`, `agent`) while the
same number of lines a little off (up to `_SHIFT` lines) hold them all, and no other such lines do, the
README points a little off (`likely`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.own_repo import repository_root
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import DECLARE

_FILE = (
    r"(?:[\w.-]+/)*(?:GNUmakefile|[Mm]akefile|[\w.-]*(?:Dockerfile|Containerfile)[\w.-]*"
    r"|[\w.-]+\.(?:sh|bash|py|mk|ya?ml|env|toml|cfg|ini|conf)|\.env)"
)
"""A file a README points into by line: a Makefile, a Dockerfile, a script, a compose or settings file."""
_NUMBERS = r"\d{1,6}(?:[ \t]*(?:,|and|&|-|–)[ \t]*\d{1,6})*"
_FILE_LINE = re.compile(
    rf"(?<![\w./-])`?(?P<file>{_FILE})`?,?[ \t]+(?:on[ \t]+|at[ \t]+)?lines?[ \t]+(?P<numbers>{_NUMBERS})"
    rf"|\blines?[ \t]+(?P<before>{_NUMBERS})[ \t]+(?:of|in)[ \t]+(?:the[ \t]+)?"
    rf"`?(?P<after>{_FILE})`?(?![\w-])",
    re.IGNORECASE,
)
"""`Makefile line 9`, `` `run.sh` lines 46, 59 ``, `Dockerfile, line 18`, `line 12 of the Makefile`."""
_NAME = re.compile(r"([A-Z][A-Z0-9_]*[A-Z0-9])(?:=.*)?\Z")
"""A variable's name in code (`MODEL_PATH`, `TZ=UTC`, `PATH="/opt/bin:${PATH}"`)."""
_BOLD = re.compile(r"\*\*([A-Z][A-Z0-9_]*[A-Z0-9])\*\*")


def _names(text: str, skip: str = "") -> list[str]:
    """The variable names `text` writes in code or bold, in order, each once (not the file `skip`)."""
    found = [m.group(1) for _, _, code in code_spans(text) if (m := _NAME.match(code.strip()))]
    found += _BOLD.findall(text)
    return [n for n in dict.fromkeys(found) if n != skip]


def _numbers(text: str) -> list[tuple[int, int]]:
    """The line ranges a reference names (`46, 59` → (46, 46), (59, 59); `10-12` → (10, 12))."""
    ranges: list[tuple[int, int]] = []
    for piece in re.split(r"[ \t]*(?:,|and|&)[ \t]*", text):
        ends = [int(n) for n in re.findall(r"\d+", piece)]
        if ends:
            ranges.append((ends[0], ends[-1]) if ends[0] <= ends[-1] else (ends[0], ends[0]))
    return ranges


def _logical(lines: list[str], first: int, last: int) -> tuple[int, int]:
    """The 1-based lines `first`..`last` widened to the whole continued lines (`\\`) they are part of."""
    while first > 1 and lines[first - 2].rstrip().endswith("\\"):
        first -= 1
    while last < len(lines) and lines[last - 1].rstrip().endswith("\\"):
        last += 1
    return first, last


def _sets(name: str) -> re.Pattern[str]:
    """A line that assigns `name`: `NAME ?= v`, `export NAME=v`, `ENV NAME v`, `ARG NAME`, `NAME: v`."""
    word = re.escape(name)
    return re.compile(
        r"^[ \t]*(?:-[ \t]*)?"
        r"(?:" + DECLARE + r"|override[ \t]+)?"
        rf"[\"']?{word}[\"']?[ \t]*(?:\?=|:=|::=|\+=|!=|=|:(?![:\w]))"
        rf"|^[ \t]*(?:ENV|ARG)[ \t]+(?:[^\s=]+=\S*[ \t]+)*{word}(?![\w])"
    )


_NESTED = 12
"""The most lines above an item looked at for the item it is nested under."""


def _item_name(paragraph: list[tuple[int, str]], index: int, file: str) -> str | None:
    """The one variable the list item on `paragraph[index]` is about: named on its line, else on the
    nearest line above it that is less indented (the item it is nested under)."""
    text = paragraph[index][1]
    here = _names(_FILE_LINE.sub(" ", text), file)
    if here:
        return here[0] if len(here) == 1 else None
    indent = len(text) - len(text.lstrip())
    for _, above in reversed(paragraph[max(0, index - _NESTED) : index]):
        depth = len(above) - len(above.lstrip())
        if depth < indent:
            found = _names(above, file)
            return found[0] if len(found) == 1 else None
    return None


def _read(path: Path) -> list[str] | None:
    text = text_or_none(path)
    return None if text is None else text.splitlines()


def _shown(lines: list[int]) -> str:
    return f"line {lines[0]}" if len(lines) == 1 else f"lines {', '.join(map(str, lines[:3]))}"


_BARE_LINES = re.compile(rf"(?<![\w-])lines?[ \t]+(?P<numbers>{_NUMBERS})(?![\w.-])", re.IGNORECASE)
"""`Lines 51-52`, `line 20`: a reference that may name no file."""
_NAMED_FILE = re.compile(rf"\]\((?:\./)?(?P<link>{_FILE})\)|(?<![\w./-])`?(?P<name>{_FILE})`?(?![\w/\]-])")
"""A file a paragraph names: a link's target (`[here](example.yaml)`) or its name (`` `run.sh` ``)."""
_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
"""A Markdown link: its text and target say which file, not what its lines hold."""
_SHIFT = 3
_PLAIN = frozenset(
    """the and for that this with from into there their these those which where what when then than
    are was were has have had its not all any each one two can may will also just only here see
    line lines file files define defines defining defined set sets setting use uses used using
    example configuration config section part value values specific important thing things
    following above below shown show shows make makes need needs way""".split()
)
"""Words of a reference that say nothing of what the lines hold."""


def _words(text: str) -> set[str]:
    """The content words of `text`, lower case, split at `-`, `_` and case changes (`containerPort` is
    `container` and `port`), a plural's `s` taken off; not numbers, short words or `_PLAIN` ones."""
    split = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    found = set()
    for word in re.findall(r"[A-Za-z]+", split):
        word = word.lower()
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if len(word) >= 3 and word not in _PLAIN:
            found.add(word)
    return found


def _by_words(lines: list[str], ranges: list[tuple[int, int]], said: set[str]) -> tuple[int, int] | None:
    """The one range as long as the single range of `ranges`, up to `_SHIFT` lines off, whose lines hold
    every word of `said` while the range named lacks one; None otherwise (see the module's docstring)."""
    if len(ranges) != 1 or not 2 <= len(said) <= 8:
        return None
    first, last = ranges[0]
    if last - first > 20 or last > len(lines):
        return None

    def held(start: int, end: int) -> set[str]:
        return set().union(*(_words(lines[i - 1]) for i in range(start, end + 1))) & said

    if held(first, last) == said:
        return None
    full = [
        (first + shift, last + shift)
        for shift in range(-_SHIFT, _SHIFT + 1)
        if shift
        and first + shift >= 1
        and last + shift <= len(lines)
        and held(first + shift, last + shift) == said
    ]
    return full[0] if len(full) == 1 else None


def _word_findings(
    doc: Document, readme: str, bases: list[Path], files: dict[str, list[str] | None]
) -> Iterator[Diagnostic]:
    """A reference to lines of a file, named by it or by its paragraph before it, whose item names no
    variable, read by its words (`_by_words`)."""
    for para in doc.paragraphs:
        named: list[str] = []
        for index, (number, text) in enumerate(para.lines):
            references = list(_FILE_LINE.finditer(text)) if "line" in text.lower() else []
            bare = list(_BARE_LINES.finditer(text)) if "line" in text.lower() else []
            for match in references:
                file = match.group("file") or match.group("after")
                numbers = match.group("numbers") or match.group("before")
                if _item_name(para.lines, index, file) is None:
                    yield from _word_finding(readme, number, text, file, numbers, bases, files)
            here = [(m.start(), m.group("link") or m.group("name")) for m in _NAMED_FILE.finditer(text)]
            for match in bare if not references else ():
                before = {*named, *(name for at, name in here if at < match.start())}
                if len(before) == 1:
                    file = next(iter(before))
                    yield from _word_finding(readme, number, text, file, match.group("numbers"), bases, files)
            named += [name for _, name in here]


def _word_finding(
    readme: str,
    number: int,
    text: str,
    file: str,
    numbers: str,
    bases: list[Path],
    files: dict[str, list[str] | None],
) -> Iterator[Diagnostic]:
    """The finding on README line `number` (`text`) referring to `numbers` of `file`, if any."""
    if file not in files:
        found = next((b / file for b in bases if os.path.isfile(b / file)), None)
        files[file] = _read(found) if found is not None else None
    lines = files[file]
    if lines is None:
        return
    ranges = _numbers(numbers)
    said = _words(_NAMED_FILE.sub(" ", _LINK.sub(" ", _FILE_LINE.sub(" ", _BARE_LINES.sub(" ", text)))))
    right = _by_words(lines, ranges, said)
    if right is None:
        return
    first, last = ranges[0]
    held = set().union(*(_words(lines[i - 1]) for i in range(first, last + 1))) & said
    shown = f"line {first}" if first == last else f"lines {first}-{last}"
    there = f"line {right[0]}" if right[0] == right[1] else f"lines {right[0]}-{right[1]}"
    verb = "does" if right[0] == right[1] else "do"
    content = " / ".join(lines[i - 1].strip() for i in range(right[0], right[1] + 1))
    about = re.sub(r"\A[\s*+>-]*|[\s.:;,]*\Z", "", _FILE_LINE.sub(" ", _BARE_LINES.sub(" ", text)))
    about = re.sub(r"\A[\s,:–-]*", "", about)
    yield Diagnostic(
        readme,
        number,
        f"README says {file} {shown} hold {about[:80]!r}, but {file} {there} {verb}: {content[:120]}",
        confidence=CERTAIN if 2 * len(held) <= len(said) else LIKELY,
    )


def line_references(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A reference to a line of a file beside the README (or at the repository's root) in a list item
    about a variable, when no line it names (nor the continued line it is part of) names the variable
    while the file sets it elsewhere: `README says MODEL_PATH is on Makefile line 9, which does not name
    it; Makefile line 12 sets it` (`certain`). When the file only uses the name elsewhere, `likely`; a
    name the file never writes, a file not there or a line past its end is not judged here."""
    root = repository_root(directory)
    bases = [directory, *([root] if root is not None and root != directory.resolve() else [])]
    files: dict[str, list[str] | None] = {}
    yield from _word_findings(doc, readme, bases, files)
    for para in doc.paragraphs:
        for index, (number, text) in enumerate(para.lines):
            if "line" not in text.lower():
                continue
            for match in _FILE_LINE.finditer(text):
                file = match.group("file") or match.group("after")
                numbers = match.group("numbers") or match.group("before")
                if file not in files:
                    found = next((b / file for b in bases if os.path.isfile(b / file)), None)
                    files[file] = _read(found) if found is not None else None
                lines = files[file]
                name = _item_name(para.lines, index, file) if lines else None
                if lines is None or name is None:
                    continue
                word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
                ranges = _numbers(numbers)
                if any(last > len(lines) for _, last in ranges):
                    continue
                wrong = []
                for first, last in ranges:
                    start, end = _logical(lines, first, last)
                    if not any(word.search(lines[i - 1]) for i in range(start, end + 1)):
                        wrong.append(first if first == last else f"{first}-{last}")
                if not wrong:
                    continue
                sets = _sets(name)
                assigned = [i for i, line in enumerate(lines, start=1) if sets.search(line)]
                # a top-level assignment over a recipe's or a function's (`\tNAME=$(NAME) ./run.sh`)
                assigned = [i for i in assigned if not lines[i - 1][:1].isspace()] or assigned
                used = [i for i, line in enumerate(lines, start=1) if word.search(line)]
                if not used:
                    continue
                said = ", ".join(map(str, wrong))
                verb = "sets" if len(assigned) == 1 else "set"
                where = f"{file} {_shown(assigned)} {verb} it" if assigned else ""
                where = where or f"it is on {file} {_shown(used)}"
                yield Diagnostic(
                    readme,
                    number,
                    f"README says {name} is on {file} line{'s' if len(wrong) > 1 else ''} {said}, which "
                    f"does not name it; {where}",
                    confidence=CERTAIN if assigned else LIKELY,
                )
