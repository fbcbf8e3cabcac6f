"""References to a numbered line of a file beside the README (`Used in: Makefile line 9`, `Set in:
Dockerfile line 18`, `run_wrapper.sh lines 46, 59`, `line 12 of the Makefile`) whose line does not name
the variable the list item is about, while another line of that file sets it: the README points at the
wrong line, and the finding says the right one.

The variable is the one name in code or bold on the item's line (`` **`MODEL_PATH`** ``, `` `TZ=UTC` ``),
else on the item it is nested under. Each line is read once; every regular expression runs on one line.
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


def line_references(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A reference to a line of a file beside the README (or at the repository's root) in a list item
    about a variable, when no line it names (nor the continued line it is part of) names the variable
    while the file sets it elsewhere: `README says MODEL_PATH is on Makefile line 9, which does not name
    it; Makefile line 12 sets it` (`certain`). When the file only uses the name elsewhere, `likely`; a
    name the file never writes, a file not there or a line past its end is not judged here."""
    root = repository_root(directory)
    bases = [directory, *([root] if root is not None and root != directory.resolve() else [])]
    files: dict[str, list[str] | None] = {}
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
