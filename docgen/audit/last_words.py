"""A `cd $_` right after a command whose last word is not a folder: `git clone https://host/o/app && cd $_`.

`$_` is the last argument of the command before (bash, zsh). After `mkdir -p build && cd $_` or
`git clone URL app && cd $_` that is the folder just made, and the idiom works. After a `git clone URL`
that names no folder it is the address itself (or the clone's last option), and after any other command
ending in an address (`wget https://…/app.tar.gz && cd $_`) it is that address: `cd` fails (`certain`:
the two commands are one line of a block or of one code span, read as the shell reads them).

Not read: a `cd $_` after a pipeline, a redirection or a `||` (which command ran last is not plain), or
one whose previous command is on another line of the block, or a `$_` in single quotes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import clone_of, fence_commands, joined
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import sh_tokens

_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+|[\w.-]+@[\w.-]+:\S+")
"""A word that is an address (`https://host/o/app`, `git@host:o/app.git`), never a folder of the disk."""
_LAST_ARG = frozenset(("$_", "${_}"))
_SEPARATORS = frozenset(("&&", ";"))


def _not_a_folder(words: list[str]) -> str | None:
    """Why `$_` after the simple command `words` is not a folder: the address it ends with, or the last
    word of a `git clone` that names no folder (`--recursive`); None when it may be one."""
    last = words[-1].strip("\"'")
    if _ADDRESS.fullmatch(last):
        return f"the address {last}"
    clone = clone_of(" ".join(words))
    if clone is not None and clone[1] is None and words[:2] == ["git", "clone"] and last.startswith("-"):
        return f"the option {last}"
    return None


def _wrong_cds(command: str) -> Iterator[tuple[str, str]]:
    """(the command before, why its `$_` is not a folder) of each `cd $_` of `command` (one line of a
    block, or a code span) whose previous command (`&&`, `;`) is a simple command ending in a word that
    is not a folder."""
    if "$_" not in command and "${_}" not in command:
        return
    try:
        tokens = sh_tokens(command)
    except ValueError:
        return
    simple: list[list[str]] = [[]]  # the commands, each a list of words (redirections and parentheses kept)
    joins: list[str] = []  # the operator before each command after the first
    for token in tokens:
        if token.operator and token.text in ("&&", ";", "||", "|", "&"):
            joins.append(token.text)
            simple.append([])
        else:
            simple[-1].append(token.text if not token.operator else f"\0{token.text}")
    for index in range(1, len(simple)):
        words = simple[index]
        if len(words) != 2 or words[0] != "cd" or words[1].strip('"') not in _LAST_ARG:
            continue
        before = simple[index - 1]
        if index == 1 and before[:1] == ["$"]:
            before = before[1:]  # a shell prompt
        if joins[index - 1] not in _SEPARATORS or not before:
            continue
        if index >= 2 and joins[index - 2] in ("|", "||", "&"):
            continue  # the command before is the end of a pipeline or an alternative
        if any(w.startswith("\0") for w in before):
            continue  # a redirection or a subshell: not a plain command
        why = _not_a_folder(before)
        if why is not None:
            yield " ".join(before), why


def last_word_cds(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """Each `cd $_` of the README's command blocks and code spans right after a command whose last
    argument is an address or a clone's option (see the module), at its line."""
    commands: list[tuple[int, str]] = []
    for fence in doc.fences:
        commands.extend((c[0][0], joined(c)) for c in fence_commands(fence))
    for paragraph in doc.paragraphs:
        for line, text in paragraph.lines:
            if "$_" in text or "${_}" in text:
                commands.extend((line, span) for _, _, span in code_spans(text))
    for line, command in commands:
        for before, why in _wrong_cds(command):
            yield Diagnostic(
                readme,
                line,
                f"README runs `cd $_` right after `{before}`, but `$_` is the last argument of the command "
                f"before, {why}, not a folder: the cd fails",
                confidence=CERTAIN,
            )
