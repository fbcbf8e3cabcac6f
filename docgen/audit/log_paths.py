"""A file of the container the README names (a log, an output) that nothing of the image names, while a
script of the image writes a file of that name to another folder: a Logs table's `/workspace/logs/app.log`
and `tail -f /workspace/logs/app.log`, while scripts/start_app.sh:12 starts the app with `>
/var/log/app.log`. The reader tails a file that never appears; the log moved.

The README's path is absolute, ends in a file name with a suffix (`app.log`, `results.json`), and is read
from a table cell, a prose line or a command line. No file of the project that is no text for readers
(the Dockerfiles, the scripts, the configuration files) names it, and one of them writes a file of the
same name to another folder: after `>`, `>>`, `tee`, or an option naming a log or output file
(`--log-file`, `--output`, `-o`). `likely`; `certain` when the README's own command reads it in a
running container (`docker exec app tail -f /workspace/logs/app.log`). Silent when a line of the project
links, copies or moves between the two folders (`ln -s /var/log/app.log /workspace/logs/`), when the
written path has a variable in its folder (`> $LOG_DIR/app.log`), and past `missing.WALK_LIMIT` files.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.missing import TEXT_SUFFIXES, repository_files
from docgen.audit.own_repo import repository_root
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_PATH = re.compile(r"(?<![\w.~$/-])(/(?:[\w.-]+/)+[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,5})(?![\w/-])")
"""An absolute path of a file with a suffix (`/workspace/logs/app.log`)."""
_WRITES = re.compile(
    r"(?:>>?|\btee(?:[ \t]+-a)?|--?(?:log|out)[\w-]*(?:[ \t]+|=)|(?<![\w-])-o[ \t]+)[ \t]*[\"']?"
    r"(/(?:[\w.-]+/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,5})(?![\w/-])"
)
"""A command line writing a file (`> /var/log/app.log`, `tee -a /logs/run.log`, `--log-file=/x.log`)."""
_MOVES = re.compile(r"\b(?:ln|cp|mv|rsync|install)\b")
_EXEC = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:container[ \t]+)?exec\b")
_SKIPPED = frozenset({"/dev", "/proc", "/sys", "/tmp"})


def log_paths(
    doc: Document, readme: str, directory: Path, dockerfiles: Sequence[Path], project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring); `dockerfiles`: the audited Dockerfiles."""
    named: dict[str, list[tuple[int, bool]]] = {}  # README path → (line, read by a `docker exec`)
    lines = [(n, t) for table in doc.tables for n, cells in table.rows for t in cells]
    lines += [(n, t) for para in doc.paragraphs for n, t in para.lines]
    commands = [(n, t) for fence in doc.fences for n, t in fence.lines]
    for line, text in [*lines, *commands]:
        for match in _PATH.finditer(text):
            path = match.group(1)
            if path.split("/", 2)[1] and "/" + path.split("/", 2)[1] in _SKIPPED:
                continue
            named.setdefault(path, []).append((line, bool(_EXEC.search(text[: match.start()]))))
    if not named:
        return
    top = (project or repository_root(directory) or directory).resolve()
    files = repository_files(top)
    if files is None:
        return
    texts: list[tuple[str, str]] = []  # (path shown, text) of each file of the project no text for readers
    for path in [*dockerfiles, *files]:
        if path.suffix.lower() in TEXT_SUFFIXES or path.name.lower().startswith("readme"):
            continue
        read = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if read is not None:
            texts.append((os.path.relpath(path, top), read))
    texts = list(dict(texts).items())
    for path, places in named.items():
        if any(path in text for _, text in texts):
            continue
        written = _written(path, texts)
        if written is None:
            continue
        shown, at, other = written
        message = (
            f"README names {path} in the container, but no file of the image names it: {shown}:{at} writes "
            f"{posixpath.basename(path)} to {other}"
        )
        for line, executed in places:
            yield Diagnostic(readme, line, message, confidence=CERTAIN if executed else LIKELY)


def _written(path: str, texts: Sequence[tuple[str, str]]) -> tuple[str, int, str] | None:
    """(file, line, path written) of the one place a file of the project writes a file of `path`'s name
    to another folder; None when none does, when two folders are written, or when a line of the project
    links, copies or moves between the folders."""
    name = posixpath.basename(path)
    folder = posixpath.dirname(path)
    found: list[tuple[str, int, str]] = []
    for shown, text in texts:
        if folder not in text and name not in text:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if folder in line and _MOVES.search(line):
                return None
            for match in _WRITES.finditer(line) if name in line else ():
                written = match.group(1)
                if posixpath.basename(written) == name and posixpath.dirname(written) != folder:
                    found.append((shown, number, written))
    if len({written for _, _, written in found}) != 1:
        return None
    return found[0]
