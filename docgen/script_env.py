"""Shell scripts and their environment: the variables a script gives a value of its own before it reads
them, so that one its caller sets (`GPU=true ./build.sh`) never reaches it, for `audit`.

A script overrides NAME when, before any line reading `$NAME`, it assigns NAME a value that does not
read NAME (`GPU=false`, not `GPU="${GPU:-false}"`), or sources a file (`source .env`, `. ./.env`) that
does, in a part of the script every run goes through. Blocks are followed as a plain run takes them:
`if [ -f .env ]; then … elif [ -f .env.example ]; then …` is decided by the files of the folder the
script runs in (the repository as checked out); any other condition, a loop, a `case` or a function
body is a part some runs skip, and what it sets is no override.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from docgen.shell import DECLARE, NAME

_ASSIGN = re.compile(
    r"^(?:" + DECLARE + ")?(" + NAME + r")="
    r"(\"(?:[^\"\\]|\\.)*\"|'[^']*'|\$\([^()]*\)|[^\s;&|]*)[ \t]*(?:;.*|#.*)?$"
)
"""`NAME=value` as a whole command (not `NAME=value cmd`, a prefix that sets it for `cmd` only)."""
_SOURCE = re.compile(r"^(?:source|\.)[ \t]+(\"[^\"$`]*\"|'[^']*'|[^\s;&|$`]+)[ \t]*(?:#.*)?$")
_TEST = (
    r"(?:\[\[?[ \t]+(!?)[ \t]*-[efrs][ \t]+(\"[^\"$`]*\"|'[^']*'|[^\s\]$`]+)[ \t]+\]\]?"
    r"|test[ \t]+(!?)[ \t]*-[efrs][ \t]+(\"[^\"$`]*\"|'[^']*'|[^\s;$`]+))"
)
"""A file test (`[ -f .env ]`, `[[ ! -e x ]]`, `test -f x`): (negated, path) twice, one pair set."""
_IF = re.compile(r"^(if|elif)[ \t]+" + _TEST + r"[ \t]*(?:;[ \t]*then)?[ \t]*$")
_GUARDED = re.compile(r"^" + _TEST + r"[ \t]*&&[ \t]*(.+)$")
"""`[ -f .env ] && source .env`: a command run when a file is there."""
_OPENS = re.compile(
    r"^(?:if|case|while|until|for|select)\b|^(?:function[ \t]+)?[\w.:-]+[ \t]*\(\)[ \t]*\{?|^function[ \t]"
)
"""A line opening a block some runs skip: a condition, a loop, a `case`, a function."""
_CLOSES = re.compile(r"^(?:(?:fi|esac|done)\b|\})")
_HEREDOC = re.compile(r"<<-?[ \t]*[\"']?([A-Za-z_]\w*)[\"']?")
_READS = re.compile(r"\$\{?#?(" + NAME + r")")
_CD = re.compile(r"(?:^|[;&|][ \t]*)(?:cd|pushd)[ \t]")


@dataclass(frozen=True)
class Override:
    """A variable a script sets before it reads it."""

    line: int
    """The script line of the assignment, or of the `source` of the file that sets it."""
    value: str
    """The value given, as written (quotes taken off)."""
    file: str | None
    """The file sourced that sets it, as the script names it; None when the script sets it itself."""


def _unquote(word: str) -> str:
    return word[1:-1] if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'" else word


def _test(groups: tuple[str | None, ...], exists: Callable[[str], bool]) -> bool:
    """The outcome of a file test `[ -f X ]` / `test ! -f X` from its regex groups."""
    negated = bool(groups[0] or groups[2])
    path = _unquote(groups[1] or groups[3] or "")
    return exists(path) != negated


def env_file_values(text: str) -> dict[str, str]:
    """NAME → value of the assignments of a sourced file (`NAME=value`, `export NAME=value`) that do not
    read NAME itself, first one of each name."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _ASSIGN.match(line.strip())
        if match is None:
            continue
        name, value = match.groups()
        if name not in found and name not in _READS.findall(value):
            found[name] = _unquote(value)
    return found


def overrides(
    text: str, exists: Callable[[str], bool], read: Callable[[str], str | None]
) -> dict[str, Override]:
    """NAME → how the shell script `text` sets NAME before it reads it (see the module docstring).
    `exists(path)` tells whether a file the script names (as written) is in the folder it runs in;
    `read(path)` gives such a file's text (None when it cannot be read). After a `cd`, files are not
    looked up (the folder is no longer known) and no `source` counts."""
    found: dict[str, Override] = {}
    seen: set[str] = set()
    # each open block: True when a plain run goes through the part being read, False when it skips it
    # or cannot be told; `if` chains also remember whether a branch was taken (then the rest is skipped)
    blocks: list[list[bool]] = []  # [part taken, a branch taken, every condition known]
    moved = False
    for number, line in _outside_heredocs(text):
        if not line or line.startswith("#"):
            continue
        through = all(b[0] for b in blocks)
        if (branch := _IF.match(line)) is not None:
            outcome = not moved and _test(branch.groups()[1:], exists)
            if branch.group(1) == "if":
                blocks.append([outcome, outcome, not moved])
            elif blocks:
                top = blocks[-1]
                top[0] = top[2] and not top[1] and outcome
                top[1] = top[1] or top[0]
            continue
        if re.match(r"^elif\b", line) and blocks:
            blocks[-1][0] = False
            blocks[-1][2] = False
            continue
        if re.match(r"^else\b", line) and blocks:
            top = blocks[-1]
            top[0] = top[2] and not top[1]
            top[1] = True
            continue
        if _CLOSES.match(line) and blocks:
            blocks.pop()
            continue
        if _OPENS.match(line) and not re.search(r"\b(?:fi|done|esac)\b|\}[ \t]*$", line[2:]):
            blocks.append([False, False, False])
            continue
        command = line
        if (guarded := _GUARDED.match(line)) is not None:
            taken = not moved and _test(guarded.groups()[:4], exists)
            command = guarded.group(5) if taken else ""
        if through and not moved:
            _record(command, number, seen, found, read)
        if _CD.search(line):
            moved = True
        seen.update(_READS.findall(line))
    return found


def _record(
    command: str,
    number: int,
    seen: set[str],
    found: dict[str, Override],
    read: Callable[[str], str | None],
) -> None:
    """Add to `found` what the one command `command` (a line every run goes through) sets before any
    read of it (`seen`)."""
    if (assign := _ASSIGN.match(command)) is not None:
        name, value = assign.groups()
        if name not in seen and name not in found and name not in _READS.findall(value):
            found[name] = Override(number, _unquote(value), None)
        return
    if (source := _SOURCE.match(command)) is not None:
        path = _unquote(source.group(1))
        body = read(path)
        if body is None:
            return
        for name, value in env_file_values(body).items():
            if name not in seen and name not in found:
                found[name] = Override(number, value, path)


_READ_DEFAULT = re.compile(r"\$\{(" + NAME + r"):?[-=]([^{}]*)\}")
"""`${NAME:-default}`, `${NAME:=default}`, `${NAME-default}`: a variable read with a default."""


def _outside_heredocs(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line without its indent) of each line of the shell script `text` that is not the
    body of a heredoc (the line opening one is)."""
    heredoc: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if heredoc is not None:
            if line == heredoc:
                heredoc = None
            continue
        if (doc := _HEREDOC.search(line)) is not None:
            heredoc = doc.group(1)
        yield number, line


def environment_defaults(text: str) -> dict[str, tuple[int, str]]:
    """NAME → (script line, default as written, quotes taken off) of each variable the shell script
    `text` reads from its caller with a default (`${NAME:-default}`), first read kept; not a name the
    script assigned itself before (`X=1` … `${X:-2}`), nor one of a heredoc."""
    found: dict[str, tuple[int, str]] = {}
    assigned: set[str] = set()
    for number, line in _outside_heredocs(text):
        if line.startswith("#"):
            continue
        for match in _READ_DEFAULT.finditer(line):
            name = match.group(1)
            if name not in assigned and name not in found:
                found[name] = (number, _unquote(match.group(2).strip()))
        if (assign := _ASSIGN.match(line)) is not None and assign.group(1) not in _READS.findall(
            assign.group(2)
        ):
            assigned.add(assign.group(1))
    return found
