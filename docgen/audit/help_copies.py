"""A README's copy of a script's argparse help that no longer matches the parser the script defines.

A README often pastes what `script --help` printed when it was written (`usage: lab.sh [-h] [-j PORT]
data_dir`, then `positional arguments:` and `optional arguments:`). The script beside the README
builds its parser with `add_argument` calls (in Python, or in a Bash script feeding them to Python's
argparse through a heredoc); when the script has since renamed a positional argument or gained or
lost an option, the copy tells the reader a command line the script no longer takes, or hides an
option it has. Reported `likely`, on the usage line, with the script line of its first `add_argument`.

Only a copy that is argparse's own output is read: a code block line `usage: NAME [-h] …` where NAME
is a script in the README's folder. Not read: a script with no parser or more than one
(`ArgumentParser(`, or a subclass
of it, called once), subcommands (`add_subparsers`), parents, `add_help=`,
`prefix_chars`, an `add_argument` whose names are not plain strings, an argument with `nargs` or
one hidden from the help (`argparse.SUPPRESS`), and a copy that elides (`...`, `…`) or
shows choices or groups (`{a,b}`, `(-a | -b)`).

Each script is read once; the calls are scanned once, character by character, and every regular
expression runs on one line or one call.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.files import stays_home, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_USAGE = re.compile(r"^[ \t]*usage:[ \t]+(?P<prog>[\w.-]+)[ \t]+\[-h\](?P<rest>.*)$")
"""argparse's usage line (`usage: lab.sh [-h] [-j PORT] data_dir`)."""
_OPTION = re.compile(r"(?<![\w-])-{1,2}[A-Za-z0-9][\w-]*")
_LITERAL = re.compile(r"[ \t\r\n]*(?:[rRbBuU]?)(['\"])([^'\"\\\n]*)\1[ \t\r\n]*(?:,|\Z)")
_LIMIT = 4000
"""The longest `add_argument(` call read (characters); a longer one is not a plain call."""
_SCRIPT_LIMIT = 1_000_000


@dataclass(frozen=True)
class _Argument:
    names: tuple[str, ...]
    """Its option strings (`-j`, `--jupyter-port`), or its one positional name as shown (metavar)."""
    positional: bool
    line: int


def _calls(text: str) -> Iterator[tuple[int, str]]:
    """(line, text inside the parentheses) of each `add_argument(` call of `text`."""
    start = 0
    while (at := text.find("add_argument(", start)) != -1:
        index = at + len("add_argument(")
        depth, quote = 1, ""
        end = min(len(text), index + _LIMIT)
        position = index
        while position < end and depth:
            char = text[position]
            if quote:
                if char == "\\":
                    position += 1
                elif char == quote:
                    quote = ""
            elif char in "'\"":
                quote = char
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            position += 1
        if depth:
            yield text.count("\n", 0, at) + 1, ""
        else:
            yield text.count("\n", 0, at) + 1, text[index : position - 1]
        start = index


def _parser(path: Path) -> list[_Argument] | None:
    """The arguments the script at `path` gives its one argparse parser; None when it has none, or
    one docgen cannot read whole (see the module docstring)."""
    text = text_or_none(path, _SCRIPT_LIMIT)
    if text is None:
        return None
    subclasses = re.findall(r"(?m)^[ \t]*class[ \t]+(\w+)\([^)\n]*ArgumentParser\)", text)
    kinds = "|".join(sorted({"ArgumentParser", *subclasses}))
    making = re.compile(r"(?<![\w])(?:\w+\.)?(?:" + kinds + r")\(")
    made = [
        line for line in text.splitlines() if not line.lstrip().startswith("class ") and making.search(line)
    ]
    if len(made) != 1:
        return None
    if re.search(r"add_subparsers|parents[ \t]*=|add_help[ \t]*=|prefix_chars|parse_intermixed", text):
        return None
    found: list[_Argument] = []
    for line, call in _calls(text):
        if not call:
            return None
        names: list[str] = []
        position = 0
        while match := _LITERAL.match(call, position):
            names.append(match.group(2))
            position = match.end()
        if not names or "SUPPRESS" in call or re.search(r"\bnargs[ \t]*=", call):
            return None
        if names[0].startswith("-"):
            found.append(_Argument(tuple(n for n in names if n.startswith("-")), False, line))
            continue
        if len(names) != 1:
            return None
        metavar = re.search(r"\bmetavar[ \t]*=[ \t]*(['\"])([^'\"\n]*)\1", call)
        if metavar is None and re.search(r"\bmetavar[ \t]*=", call):
            return None
        found.append(_Argument((metavar.group(2) if metavar else names[0],), True, line))
    return found or None


def _copy(
    lines: list[tuple[int, str]], start: int
) -> tuple[list[str], frozenset[str], frozenset[str]] | None:
    """The positional names of the usage at `lines[start]` (with its indented continuation lines), the
    option strings of that usage, and every option string of the copy (usage and option list); None for
    a copy that elides."""
    usage = _USAGE.match(lines[start][1])
    if usage is None:
        return None
    words = [usage.group("rest")]
    index = start + 1
    while index < len(lines) and lines[index][1][:1] in (" ", "\t") and lines[index][1].strip():
        words.append(lines[index][1])
        index += 1
    said = " ".join(words)
    if any(mark in said for mark in ("...", "…", "{", "(", "|")):
        return None
    positional: list[str] = []
    options: set[str] = {"-h"}
    depth = 0
    after_option = False
    for word in re.findall(r"\[|\]|[^\s\[\]]+", said):
        if word == "[":
            depth += 1
        elif word == "]":
            depth -= 1
        elif word.startswith("-"):
            options.update(_OPTION.findall(word))
            after_option = True
            continue
        elif after_option:
            pass  # the option's metavar (`--lr LR`)
        elif depth == 0 and re.fullmatch(r"[\w-]+", word):
            positional.append(word)
        after_option = False
    if depth != 0:
        return None
    shown = frozenset(options)
    # the option list: lines starting with an option, up to two spaces before their help text
    for _, text in lines[index:]:
        stripped = text.strip()
        if _USAGE.match(text):
            break
        if stripped.startswith("-"):
            head = re.split(r"[ \t]{2,}", stripped, maxsplit=1)[0]
            options.update(_OPTION.findall(head))
    return positional, shown, frozenset(options)


def help_copies(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The usage line of each README copy of a script's argparse help that the script's parser no
    longer matches (see the module docstring)."""
    read: dict[Path, list[_Argument] | None] = {}
    for fence in doc.fences:
        for start, (number, text) in enumerate(fence.lines):
            usage = _USAGE.match(text)
            if usage is None:
                continue
            prog = usage.group("prog")
            script = directory / prog
            if not os.path.isfile(script) or not stays_home(script):
                continue
            if script not in read:
                read[script] = _parser(script)
            arguments = read[script]
            copy = _copy(fence.lines, start)
            if arguments is None or copy is None:
                continue
            said, shown_options, options = copy
            defined = [a.names[0] for a in arguments if a.positional]
            facts: list[str] = []
            if said != defined:
                facts.append(
                    f"positional {' '.join(defined) or 'none'} (the copy: {' '.join(said) or 'none'})"
                )
            lacking = [a for a in arguments if not a.positional and not set(a.names) & options]
            if lacking:
                shown = ", ".join("/".join(a.names) for a in lacking)
                facts.append(f"option {shown}, which the copy lacks")
            known = {n for a in arguments for n in a.names} | {"-h", "--help"}
            gone = sorted(o for o in shown_options if o not in known)
            if gone:
                facts.append(f"no option {', '.join(gone)}, which the copy shows")
            if not facts:
                continue
            yield Diagnostic(
                readme,
                number,
                f"README copies the help of {prog}, but {prog}:{arguments[0].line} defines "
                + "; ".join(facts),
                confidence=LIKELY,
            )
