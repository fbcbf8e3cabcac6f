"""A README's usage line for a script beside it that names more arguments than the script takes: the
README writes `sh run.sh <version> <gpu> <data> <out> <entry>`, while the script's own usage line
says `Usage: run.sh [version] [gpu] [data]` and it reads only `$1` to `$3` (what follows is passed on
to another program unread, or dropped).

The scripts are found where the README's commands run them (`script_args._script_runs`); each script
is read once, and each of its lines is matched once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.script_args import _lines, _script_runs
from docgen.markdown import Document
from docgen.model import Diagnostic

_USAGE = re.compile(
    r"\busage:?[ \t]+(?:(?:ba)?sh[ \t]+)?"
    r"(?P<who>`basename[ \t]+\"?\$\{?0\}?\"?`|\$\(basename[ \t]+\"?\$\{?0\}?\"?\)|\$\{0##\*/\}|\$\{?0\}?"
    r"|(?:\./)?[\w.-]+\.(?:sh|bash))"
    r"(?P<rest>[^\"'\n]*)",
    re.IGNORECASE,
)
"""A script's usage line naming itself (`echo "Usage: $(basename $0) [version] [gpu id]"`,
`Usage: ./run.sh <tag>`), up to the end of the quoted text."""
_WORD = re.compile(r"<[^<>]*>|\[[^\[\]]*\]|\S+")
"""One word of a usage line: `<gpu id>`, `[output path]` (one word, spaces and all), `NAME`."""
_NOT_PLAIN = re.compile(r"^\[?-|\.\.\.|…|\||option|arg|[{}()=$]", re.IGNORECASE)
"""A usage word that is no single positional argument: an option (`-v`, `[--tag T]`), a list
(`files...`, `[args]`), alternatives (`build|run`), a variable."""
_PASSES_ALL = re.compile(
    r"\$\{?[@*]|\bshift\b|\bgetopts?\b|\bset[ \t]+--|\bBASH_ARGV\b|\beval\b"
    r"|(?:^|[;&|(][ \t]*|\bthen[ \t]+|\bdo[ \t]+)(?:source|\.)[ \t]+\S"
    r"|\bfor[ \t]+\w+[ \t]*(?:;|$|do\b)"
)
"""What reads a script's arguments as a list (`"$@"`, `shift`, `getopts`, `set --`,
`for a; do`), or may (a sourced script, `eval`): their number is then not its usage line's."""
_POSITION = re.compile(r"\$\{?([1-9])(?![0-9])")
_PLACEHOLDER = re.compile(r"<[^<>\s]+(?:[ \t][^<>\s]+)*>")


@dataclass(frozen=True)
class _Usage:
    """What a script says and does with its arguments."""

    line: int
    """The script line of its usage line."""
    names: tuple[str, ...]
    """The arguments its usage line names, as written (`[version]`, `[gpu id]`)."""
    read: int
    """The last argument it reads by itself (`$3`: 3), not counting those only passed on."""
    passed: int
    """The first of the arguments it passes on in a row to the end (`$3 $4 … $9`: 3); 0 when none."""


def _usage(path: Path) -> _Usage | None:
    """The usage line of the script at `path` and what it reads, when it names one or more arguments,
    each a single positional one, and the script reads its arguments only by number (`$1`, `${2}`):
    None for a script with no usage line or two, one whose usage names options or a list (`[args]`,
    `files...`), one reading no argument, or one reading `"$@"`, `shift`, `getopts` or sourcing a script."""
    lines = _lines(path)
    found: list[tuple[int, tuple[str, ...]]] = []
    read = passed = 0
    for number, text in enumerate(lines, start=1):
        if _PASSES_ALL.search(text):
            return None
        usage = _USAGE.search(text)
        if usage is not None:
            who = usage.group("who")
            if who.endswith((".sh", ".bash")) and who.rsplit("/", 1)[-1] != path.name:
                return None
            found.append((number, tuple(_WORD.findall(usage.group("rest")))))
            continue
        code = re.split(r"(?:^|[ \t])#", text, maxsplit=1)[0]
        positions = [int(p) for p in _POSITION.findall(code)]
        run = _run_to_nine(positions)
        if run:
            passed = run if not passed else min(passed, run)
            positions = positions[: len(positions) - (10 - run)]
        read = max([read, *positions])
    if len(found) != 1:
        return None
    line, names = found[0]
    if not names or not read or any(_NOT_PLAIN.search(n) for n in names):
        return None
    return _Usage(line, names, read, passed)


def _run_to_nine(positions: list[int]) -> int:
    """The first of the arguments a line passes on in a row to the last one a shell names by a single
    digit (`$3 $4 $5 $6 $7 $8 $9`: 3), when it is three or more long and ends the line's reads; 0
    otherwise."""
    if len(positions) < 3 or positions[-1] != 9:
        return 0
    start = 9
    for earlier in reversed(positions[:-1]):
        if earlier != start - 1:
            break
        start = earlier
    return start if 9 - start >= 2 else 0


def _placeholders(rest: str) -> list[str] | None:
    """The required placeholders (`<version>`) of a README's usage line for a script, the words after
    it; None when it holds anything else than placeholders followed by optional ones (`[args]`): a
    value, an option before them, a placeholder after an optional one."""
    rest = re.split(r"[ \t]#|[|;&]|[ \t]>", rest, maxsplit=1)[0]
    words = _WORD.findall(rest)
    required: list[str] = []
    optional = False
    for word in words:
        if _PLACEHOLDER.fullmatch(word):
            if optional:
                return None
            required.append(word)
        elif word.startswith("[") and word.endswith("]") or word in ("...", "…"):
            optional = True
        else:
            return None
    return required


def _longer_usage(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A README's usage line for a script a command block runs (found where the block runs it) that names
    more arguments (`<version> <gpu> <data> <out> <entry>`) than the script's own usage line, when the
    script reads none past those (`likely`): `README runs run.sh with 5 arguments (<version> … <entry>),
    but run.sh:3 says its usage is [version] [gpu] [data] and it reads $1 to $3 only`. Only
    placeholders count (`<name>`, not `[name]`, which may be left out); not a script whose usage
    names options or a list, one reading `"$@"`, `shift` or `getopts`, nor one without a usage
    line."""
    read: dict[Path, _Usage | None] = {}
    told: set[tuple[int, Path]] = set()
    for line, path, script, rest in _script_runs(doc, directory, audited, project):
        if script not in read:
            read[script] = _usage(script)
        usage = read[script]
        if usage is None or (line, script) in told:
            continue
        named = _placeholders(rest)
        if named is None or len(named) <= max(len(usage.names), usage.read):
            continue
        told.add((line, script))
        taken = max(len(usage.names), usage.read)
        extra = ", ".join(named[taken:])
        if usage.passed and usage.passed <= taken + 1:
            fate = f"{extra} would be passed on to what it runs, as ${usage.passed} on are"
        else:
            fate = f"{extra} would be left unread"
        said = " ".join(usage.names)
        yield Diagnostic(
            readme,
            line,
            f"README runs {path} with {len(named)} arguments ({' '.join(named)}), but {script.name}:"
            f"{usage.line} gives its usage as {said} and it reads ${'1 to $' if usage.read > 1 else ''}"
            f"{usage.read} only: {fate}",
            confidence=LIKELY,
        )
