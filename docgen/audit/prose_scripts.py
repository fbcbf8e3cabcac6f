"""A script the prose tells to run by its path (`` build using `builder/build.sh` ``, `` run
`scripts/train.sh` ``) that is not in its folder, while that folder is there and holds other scripts:
the script was renamed or removed and the sentence still names it.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, _dockerfile_read
from docgen.audit.missing import (
    _PATH,
    _PLACEHOLDER,
    _SCRIPT_SUFFIXES,
    _in_commands,
    _Listings,
    _made,
    _prose_bases,
    _prose_fix,
)
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_RUN_WORDS = re.compile(
    r"\b(?:run|runs|running|execute|executing|launch|invoke|call|start|build(?:ing)?[ \t]+(?:using|with|via)"
    r"|using|via|with)\b[^`]{0,40}`[^`]*\Z",
    re.IGNORECASE,
)
"""The words of a sentence, before a code span, that tell to run what it names: `build using`, `run`,
`execute`, `with` (`Build the image with `tools/build.sh``)."""
_MAKE_WORDS = re.compile(
    r"\b(?:creat|writ|sav|add|generat|download|copy|cop(?:ie)|edit|put|place|rename|new)\w*", re.IGNORECASE
)
"""Words saying the reader makes the file (`create `tools/run.sh``): it may well not be there yet."""
_IN_CONTAINER = re.compile(
    r"\b(?:in|inside|within|from)[ \t]+(?:the[ \t]+|a[ \t]+|your[ \t]+)?(?:running[ \t]+)?"
    r"(?:container|image|pod)\b"
    r"|\bdocker[ \t]+(?:run|exec)\b",
    re.IGNORECASE,
)
"""Words saying the script runs in the container (`run `tools/serve.sh` inside the container`): a path of
the image, which need not be the repository's."""


def _scripts_in(folder: Path) -> list[str]:
    """The names of the scripts (by their suffix) in `folder`; none when it is no folder."""
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.is_file())
    except (OSError, ValueError):
        return []
    return [n for n in names if n.rsplit(".", 1)[-1].lower() in _SCRIPT_SUFFIXES and "." in n]


_SCRIPT_SPAN = re.compile(r"`[^`\s]*/[^`\s]*\.(?:sh|bash|zsh|py)(?:[ \t][^`]*)?`", re.IGNORECASE)
"""A code span holding a script's path with a folder, its arguments after it (`./tests/run.sh <NAME>`):
the only lines worth reading further."""


def _script_spans(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, text) of each code span of the prose that holds a script's path with a folder."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" in text and _SCRIPT_SPAN.search(text):
                yield from ((line, content) for _, _, content in code_spans(text))


_SEPARATOR = re.compile(r"[,;:.!?]|\b(?:or|and|then)\b")
"""What ends the words that run a span: a mark of punctuation, `or`, `and`, `then`."""


class _Line:
    """One line of the README read once for the words before its spans: where each text between two
    neighbouring backticks first stands, where each separator ends, and whether it runs in the
    container. Each span's words are then found by looking back only to the last separator, so a line
    of thousands of paths costs what its length does."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.first: dict[str, int] = {}  # the text between two neighbouring backticks: its first backtick
        ticks = [m.start() for m in re.finditer("`", text)]
        for opening, closing in zip(ticks, ticks[1:], strict=False):
            self.first.setdefault(text[opening + 1 : closing], opening)
        self.ends = [m.end() for m in _SEPARATOR.finditer(text)]
        self.in_container = _IN_CONTAINER.search(text) is not None
        self.lead = len(text) - len(text.lstrip())  # where its first word starts

    def start(self, code: str) -> int:
        """Where the first `` `code` `` of the line starts; the line's end when there is none."""
        if "`" in code:  # a span of longer backtick runs: rare, looked up the plain way
            start = self.text.find(f"`{code}`")
        else:
            start = self.first.get(code, -1)
        return len(self.text) if start < 0 else start

    def words(self, start: int) -> str:
        """The words of the line before `start`, back to the last separator before it."""
        last = bisect.bisect_right(self.ends, start) - 1
        return self.text[self.ends[last] if last >= 0 else 0 : start]


def missing_prose_scripts(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    checkout: bool = False,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """A script path in code in the prose (`` `builder/build.sh` ``: a folder and a script's suffix;
    not absolute, not a placeholder, nothing a command of the README makes or runs) that the sentence
    tells to run (`build using`, `run`, `execute`; not in the container) and that does not exist, while
    its folder does, from the README's folder or the repository root, and holds other scripts
    (`certain`: the folder is this repository's, and the script the sentence runs is not in it). A path
    a slip away from an existing one is `missing`'s (`did you mean`).

    With `checkout` (the README clones this very repository and enters it: its paths are the
    checkout's), a script whose first folder is nowhere at all (`./tests/tool_use/run.sh <NAME>` with no
    `tests/`) is a finding too, unless an audited Dockerfile (`models`) names that folder (the path may
    be the image's) or a command of the README makes it (another checkout)."""
    made: set[str] | None = None  # what the README's commands make or run: read once, when needed
    bases = _prose_bases(directory)
    listings = _Listings()
    seen: set[str] = set()
    lines: dict[int, _Line] = {}  # the lines read so far
    for line, code in _script_spans(doc):
        path = (code.strip().split(None, 1) or [""])[0].removeprefix("./")
        if not _PATH.fullmatch(path) or "/" not in path.rstrip("/") or _PLACEHOLDER.search(path):
            continue
        folder, _, name = path.rpartition("/")
        suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        if suffix not in _SCRIPT_SUFFIXES or path in seen:
            continue
        if line not in lines:
            lines[line] = _Line(source[line - 1] if 0 < line <= len(source) else "")
        read = lines[line]
        start = read.start(code)
        clause = read.words(start)  # the words that run it
        if start <= read.lead and line > 1:  # the span opens its line: the words running it end the last
            if line - 1 not in lines:
                lines[line - 1] = _Line(source[line - 2])
            clause = lines[line - 1].words(len(lines[line - 1].text))
        clause += "`"
        if not _RUN_WORDS.search(clause) or _MAKE_WORDS.search(clause) or read.in_container:
            continue
        if made is None:
            made = _made(doc) | _in_commands(doc)
        if any(part in made for part in path.split("/")):
            continue
        if any((base / path).exists() for base in bases) or _prose_fix(bases, path, suffix, listings):
            continue
        others = next((s for base in bases if (s := _scripts_in(base / folder))), [])
        top = path.split("/", 1)[0]
        if others:
            said = f"the scripts in {folder}/: {', '.join(others[:5])}"
        elif checkout and not any((base / top).exists() for base in bases) and not _named_in(top, models):
            said = f"the repository has no {top}/ folder"
        else:
            continue
        seen.add(path)
        yield Diagnostic(
            readme, line, f"README runs {path}, which does not exist ({said})", confidence=CERTAIN
        )


def _named_in(folder: str, models: Sequence[ImageModel]) -> bool:
    """True when a Dockerfile of `models` names `folder` as a word of a path (`COPY tests/ /app/tests/`,
    `WORKDIR /opt/tests`), or one of them cannot be read: the path may be the image's."""
    for model in models:
        read = _dockerfile_read(model.file) if model.file else None
        if read is None or re.search(rf"(?<![\w.-]){re.escape(folder)}(?![\w.-])", read[0]):
            return True
    return False
