"""A bash script the README runs with `sh`: `sh build_docker.sh` where build_docker.sh starts `#!/bin/bash`
and pipes with `|&`. `sh` reads the file itself and ignores the `#!` line; where `sh` is dash (Debian,
Ubuntu) bash-only syntax is a syntax error (`likely`: on some systems `sh` is bash).

Only a script of the repository is read, and only its bash-only syntax outside comments, quoted strings
and here-documents counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import resolves_inside
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic
from docgen.shell import sh_code

_SH_RUN = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?sh(?:[ \t]+-[a-z]+)*[ \t]+(?:\./)?([\w./-]{1,200}\.sh)"
    r"(?=$|[ \t;&|])"
)
"""`sh x.sh` at the start of a command (after a prompt or `sudo`; options such as `-x` allowed): the
script."""
_BASH_LINE = re.compile(r"#![ \t]*(?:/usr)?/bin/(?:env[ \t]+)?bash\b")
"""A shebang naming bash."""
_MOST_BYTES = 1_000_000
"""The largest script read: a bash script of more is no README's helper."""
_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)(\w+)\2")
"""A here-document's start (`<<EOF`, `<<-'END'`; `<<<` is a here-string, matched apart), its end word."""
_BASH_ONLY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("$'…'", re.compile(r"\$'")),
    ("|&", re.compile(r"\|&")),
    ("[[", re.compile(r"(?:^|[ \t;&|(!])\[\[[ \t]")),
    ("<<<", re.compile(r"<<<")),
    ("an array (=( … ))", re.compile(r"(?:^|[ \t;&|])[A-Za-z_]\w*\+?=\(")),
    ("source", re.compile(r"(?:^|[;&|(][ \t]*|then[ \t]+|do[ \t]+)source[ \t]")),
    ("function", re.compile(r"^[ \t]*function[ \t]+[\w:.-]+")),
)
"""Bash syntax dash rejects, by the name the finding gives it; read on a line with comments and strings out
(`$'` is looked for before strings are taken out: it opens one)."""


def bash_only(text: str) -> tuple[int, str] | None:
    """(line, construct) of the first bash-only syntax of a script, outside comments, quoted strings and
    here-documents; None when there is none."""
    ending: tuple[str, bool] | None = None  # the here-document being skipped: its end word, `<<-`
    for number, line in enumerate(text.splitlines(), 1):
        if ending is not None:
            if (line.lstrip("\t") if ending[1] else line) == ending[0]:
                ending = None
            continue
        if line.lstrip().startswith("#"):
            continue
        dollar = _BASH_ONLY[0][1].search(line)
        code = unquoted(line)
        code = re.sub(r"(?:^|[ \t])#.*", "", code)
        if dollar is not None and "$'" in code:
            return number, _BASH_ONLY[0][0]
        for name, pattern in _BASH_ONLY[1:]:
            if pattern.search(code):
                return number, name
        if (here := _HEREDOC.search(line.replace("<<<", "   "))) is not None:
            ending = (here.group(3), here.group(1) == "-")
    return None


def unquoted(line: str) -> str:
    """`line` with each quoted string (`'…'`, `"…"` with its escapes) made `''`, in one pass: from a quote
    that is not closed on the line, the rest is kept as it is (a pattern tried at each of many unclosed
    quotes would read the line once per quote)."""
    out: list[str] = []
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if char not in "'\"":
            plain = i
            while i < n and line[i] not in "'\"":
                i += 1
            out.append(line[plain:i])
            continue
        end = i + 1
        if char == "'":
            end = line.find("'", end)
        else:
            while end < n and line[end] != '"':
                end += 2 if line[end] == "\\" else 1
            end = end if end < n else -1
        if end < 0:
            out.append(line[i:])
            break
        out.append("''")
        i = end + 1
    return "".join(out)


def sh_scripts(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """Each `sh x.sh` of the README's blocks whose x.sh, next to the README, starts with a bash `#!` and
    uses bash-only syntax; not one reached through a link out of the repository."""
    read: dict[str, tuple[int, str] | None] = {}
    top: Path | None = None  # the repository, found once when a script is first read
    for fence in doc.fences:
        for line, text in fence.lines:
            for match in _SH_RUN.finditer(sh_code(text)):
                name = match.group(1)
                if name not in read:
                    script = directory / name
                    top = top or repository_root(directory) or directory.resolve()
                    read[name] = _bash_script(script) if resolves_inside(script, top) else None
                if (found := read[name]) is None:
                    continue
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs {name} with sh, but it is a bash script (#!/bin/bash) using {found[1]} "
                    f"(its line {found[0]}), a syntax error where sh is dash: run it with bash or ./{name}",
                    confidence=LIKELY,
                )


def _bash_script(path: Path) -> tuple[int, str] | None:
    """`bash_only` of the script at `path` when it is a file of at most 1 MB starting with a bash `#!`."""
    text = text_or_none(path, _MOST_BYTES)
    if text is None:
        return None
    if not _BASH_LINE.match(text):
        return None
    return bash_only(text)
