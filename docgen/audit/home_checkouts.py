"""Paths below the folder a README says holds this checkout (`cp ~/dev/l4t-vllm/opencode.json …`) that
the checkout does not hold.

A command block line that enters a folder of the user's home (`cd ~/dev/l4t-vllm`, `cd $HOME/src/app`)
and then runs a compose command with no `-f` there (`&& docker compose up -d`, on its line or the next
line of the block) while the README's folder holds a default compose file names this checkout: the
compose project started is the one beside the README. A path of a later command below that folder
(`~/dev/l4t-vllm/opencode.json`) is then a path of the README's folder, and one the folder does not hold
is a finding (`likely`: the folder's name is the user's). Not a path a command writes (the last word
of `cp`/`mv`/`ln`, after `>`, `-o`, `-O`, `mkdir`, `touch`, `tee`), one a line before it makes
(`references.MadeFiles`), nor a word with a variable, a pattern or a placeholder (`<…>`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.references import MadeFiles
from docgen.audit.wording import COMMAND_LANGS
from docgen.compose import default_files
from docgen.findings import MISSING_FILE
from docgen.markdown import Document
from docgen.model import Diagnostic

_HOME_CD = re.compile(
    r"(?:^|[;&|][ \t]*|\$[ \t]+)cd[ \t]+((?:~|\$HOME|\$\{HOME\})/[\w./-]*[\w-])/?(?=$|[ \t;&|])"
)
"""A `cd` into a folder of the user's home (`cd ~/dev/l4t-vllm`)."""
_COMPOSE = re.compile(
    r"\b(?:docker|podman)(?:[ \t]+compose|-compose)(?P<words>(?:[ \t]+[^\s;&|]+)*?)"
    r"[ \t]+(?:up|start|restart|run|exec|logs|build|pull|down|ps)\b"
)
"""A compose command (`docker compose up -d`); `words` are those before its verb (`-f x.yml`)."""
_FILE_FLAG = re.compile(r"(?<![\w-])(?:-f|--file)(?:[ \t]+|=)")
_WRITES = re.compile(
    r"(?:>>?[ \t]*|(?<![\w-])(?:-o|-O|--output)(?:[ \t]+|=)"
    r"|\b(?:mkdir|touch|tee)(?:[ \t]+-\w+)*[ \t]+)[\"']?$"
)
"""The text before a word that makes it (`> `, `-o `, `mkdir -p `)."""
_LAST_WRITTEN = re.compile(r"\b(?:cp|mv|ln|rsync|install)\b")


def _home_checkouts(doc: Document) -> dict[str, int]:
    """Each home folder (`~/dev/l4t-vllm`, as written) a line enters and runs a compose command with no
    `-f` in → that line."""
    found: dict[str, int] = {}
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        lines = fence.lines
        for index, (line, text) in enumerate(lines):
            match = _HOME_CD.search(text)
            if match is None:
                continue
            rest = text[match.end() :]
            after = rest if _COMPOSE.search(rest) else (lines[index + 1][1] if index + 1 < len(lines) else "")
            command = _COMPOSE.search(after)
            if (
                command is None
                or _FILE_FLAG.search(command.group("words"))
                or "cd " in after[: command.start()]
            ):
                continue
            found.setdefault(match.group(1).replace("${HOME}", "~").replace("$HOME", "~"), line)
    return found


def home_checkout_paths(
    doc: Document, source: Sequence[str], directory: Path, readme: str
) -> Iterator[Diagnostic]:
    """A path below a home folder that names this checkout (see the module's docstring) that the README's
    folder does not hold: one finding a path, at its first line."""
    if not default_files(directory):
        return
    homes = _home_checkouts(doc)
    if not homes:
        return
    made = MadeFiles(source)
    here = os.path.realpath(directory)
    told: set[str] = set()
    written: set[str] = set()  # (paths a command writes: a later read is of what it wrote)
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, text in fence.lines:
            if text.lstrip().startswith("#"):
                continue
            for home, entered in homes.items():
                spellings = {home, home.replace("~", "$HOME", 1), home.replace("~", "${HOME}", 1)}
                for spelled in spellings:
                    for match in re.finditer(re.escape(spelled) + r"/([\w.-]+(?:/[\w.-]+)*)", text):
                        path = posixpath.normpath(match.group(1))
                        start, end = match.span()
                        if (
                            path in told
                            or path.startswith("..")
                            or text[end : end + 1] in ("$", "*", "<", "{")
                        ):
                            continue
                        if start and text[start - 1] not in " \t\"'=:":
                            continue
                        if _WRITES.search(text[:start]) or _last_written(text, end):
                            written.add(path)
                            continue
                        if (
                            path in written
                            or made.before(path, line)
                            or os.path.lexists(os.path.join(here, path))
                        ):
                            continue
                        told.add(path)
                        yield Diagnostic(
                            readme,
                            line,
                            f"README reads {spelled}/{path}, a path of this checkout (line {entered} starts "
                            f"its compose project from {home}), which does not hold {path}",
                            confidence=LIKELY,
                            rule=MISSING_FILE,
                        )


def _last_written(text: str, end: int) -> bool:
    """True when the word ending at `end` is the last word of a `cp`, `mv` or `ln` (where it writes)."""
    step = re.split(r"&&|\|\||;|\|", text[end:])[0]
    head = re.split(r"&&|\|\||;|\|", text[:end])[-1]
    return _LAST_WRITTEN.search(head) is not None and not step.strip()
