"""Arguments a README passes to a script beside it that the script itself rejects: a format check on a
positional argument (`if ! [[ $1 =~ ^ubuntu[0-9]+\\.[0-9]+$ ]]; then … exit 1`) that the README's value
(`ubuntu-22.04`) does not pass, so the command stops before doing anything; an option its `case` arms
refuse; a first word its `case "$1"`, its `if [ "$1" = … ]` chain or its heredoc list of entries (searched
with `grep "$1"`) does not take, or a first word, an option too, that a `case` over the name it gives
`$1` before parsing its options refuses (`CUDA_VERSION="${1:-12.1}"`, `--no-cache` given first)
(`unknown_first_words`); a positional argument, in a command or a numbered
list of a script's arguments, that the script never uses (`unused_arguments`); an option given to a
script that reads its arguments only by position
(`PORT="$1"`), in a command or a list of its options (`positional_options`); an option, in a command
or a list or table of a script's options, that the script's `getopt` or `getopts` does not declare, or
a Python script's `argparse` (`--desc-act` where it declares `--desc_act`) (`undeclared_options`).

The scripts are found where the README's commands run them (`references._scripts_run`); each script is
read once, and each of its lines is matched once.
"""

from __future__ import annotations

import ast
import bisect
import collections
import difflib
import fnmatch
import functools
import os
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.grammar import run_command
from docgen.audit.memo import per_audit
from docgen.audit.references import RUN_SCRIPT, Walk, inside, project_top, run_folders
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document, Fence, code_spans, lists
from docgen.model import Diagnostic, ImageModel
from docgen.script_env import env_file
from docgen.shell import DECLARE, sh_code, shell_split

_CHECK = re.compile(
    r"^[ \t]*(?:if[ \t]+!|!|if[ \t]+!?)?[ \t]*\[\[[ \t]+\"?\$\{?(?P<var>\d|[A-Za-z_]\w*)\}?\"?[ \t]+=~[ \t]+"
    r"(?P<regex>[^\s\"']+)[ \t]+\]\](?P<after>.*)$"
)
"""`if ! [[ $1 =~ ^cuda[0-9.]+$ ]]; then`, `[[ $VERSION =~ regex ]] || exit 1`."""
_ALIAS = re.compile(
    r"^[ \t]*(?:" + DECLARE + r")?([A-Za-z_]\w*)=\"?\$\{?(\d)(?::-[^}\"]*)?\}?\"?[ \t]*(?:#.*)?$"
)
"""`VERSION=$1`, `CUDA="${2}"`, `ZED=${3:-zedsdk4.2.5}`: a name for a positional argument."""
_CLASSES = {
    "[:digit:]": "0-9",
    "[:alpha:]": "A-Za-z",
    "[:alnum:]": "A-Za-z0-9",
    "[:upper:]": "A-Z",
    "[:lower:]": "a-z",
    "[:space:]": r" \t",
}


def script_lines(path: Path) -> list[str]:
    """The lines of the script at `path`; none when it cannot be read or is larger than docgen reads."""
    return (text_or_none(path, MAX_PROJECT_FILE_BYTES) or "").splitlines()


def _checks(path: Path) -> list[tuple[int, int, str]]:
    """(script line, positional argument, regular expression) of each format check the script at `path`
    exits on when an argument does not match: `if ! [[ $1 =~ RE ]]; then` with an `exit` before its
    `fi`, or `[[ $1 =~ RE ]] || exit 1`. An argument named first (`VERSION=$1`) is followed."""
    lines = script_lines(path)
    aliases: dict[str, int] = {}
    found: list[tuple[int, int, str]] = []
    for index, text in enumerate(lines):
        alias = _ALIAS.match(text)
        if alias is not None:
            aliases[alias.group(1)] = int(alias.group(2))
            continue
        check = _CHECK.match(text)
        if check is None:
            continue
        var = check.group("var")
        number = int(var) if var.isdigit() else aliases.get(var)
        if not number:
            continue
        negated = re.match(r"[ \t]*(?:if[ \t]+)?!", text) is not None
        after = check.group("after")
        if negated and "then" in after:
            body = []
            for following in lines[index + 1 : index + 8]:
                if re.match(r"[ \t]*(?:fi|else|elif)\b", following):
                    break
                body.append(following)
            exits = any(re.search(r"\bexit[ \t]+[1-9]", b) for b in body)
        else:
            exits = not negated and re.match(r"[ \t]*\|\|[ \t]*\{?[^;]*?\bexit[ \t]+[1-9]", after) is not None
        regex = _translated(check.group("regex"))
        if exits and regex is not None:
            found.append((index + 1, number, regex))
    return found


def _translated(regex: str) -> str | None:
    """A bash `=~` pattern (POSIX extended) as a Python one, or None when it cannot be read alike (a
    backreference, a variable, a `\\` before a letter)."""
    for posix, plain in _CLASSES.items():
        regex = regex.replace(posix, plain)
    if "$" in regex.rstrip("$") or re.search(r"\\[A-Za-z0-9]", regex) or "[:" in regex:
        return None
    try:
        re.compile(regex)
    except re.error:
        return None
    return regex


def _arguments(text: str) -> list[str] | None:
    """The words after a script in a command (`a b "c d"`), up to a pipe or a redirection; None when
    they cannot be split."""
    text = re.split(r"[ \t]#|[|<>]", text, maxsplit=1)[0]
    try:
        return shell_split(text)
    except ValueError:
        return None


_UNREAD = re.compile(r"[$<>{}\[\]*?`]|\.\.\.")
"""An argument with a variable, a placeholder or a glob: not a value to test."""


def rejected_arguments(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A script a command block runs (found where the block runs it) with a positional argument its
    own format check rejects: `README runs ./build.sh with ubuntu-22.04 as argument 1, which build.sh:12
    rejects (it must match ^ubuntu[0-9]+\\.[0-9]+$)` (`likely`: the pattern is read as Python reads
    it). Not an argument with a variable or a placeholder (`<version>`), nor an option (`-v`), nor a
    script that takes options before its arguments (the positions are then not the words')."""
    read: dict[Path, list[tuple[int, int, str]]] = {}
    for line, path, script, words in found_scripts(doc, directory, audited, project):
        if script not in read:
            read[script] = _checks(script)
        if not read[script] or words is None or any(w.startswith("-") for w in words):
            continue
        bad = []
        for at, number, regex in read[script]:
            if number > len(words) or _UNREAD.search(words[number - 1]):
                continue
            if re.search(regex, words[number - 1]) is None:
                bad.append(
                    f"{words[number - 1]} as argument {number}, which {script.name}:{at} rejects "
                    f"(it must match {regex})"
                )
        if bad:
            yield Diagnostic(readme, line, f"README runs {path} with {'; and '.join(bad)}", confidence=LIKELY)


_READS_ARGUMENTS = re.compile(
    r"\$\{?[#@*\d]|\bshift\b|\bgetopts?\b|\bset[ \t]+--|\bBASH_ARGV\b|\beval\b|\$0\b"
    r"|(?:^|[;&|(][ \t]*|\bthen[ \t]+|\bdo[ \t]+)(?:source|\.)[ \t]+\S",
    re.MULTILINE,
)
"""What reads a shell script's arguments, or may (`$1`, `"$@"`, `$#`, `shift`, `getopts`, `set --`; a
script it sources, `eval` and `$0` may pass them on)."""
_SHELL = re.compile(r"\A#![^\n]*\b(?:ba|z|da|k)?sh\b")


def ignored_arguments(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A shell script a command block runs (found where the block runs it) with arguments, that reads
    none (no `$1`, `$@`, `$#`, `shift`, `getopts`, nor a script it sources): `./build.sh 7a3ca2c…`
    where build.sh fetches the latest commit itself. The argument changes nothing (`likely`). A Python
    script run with arguments (`python3 train.py --config x.yaml`) that runs nothing when started
    (`python_runs_nothing`: it only defines functions) does nothing at all (`certain`)."""
    read: dict[Path, bool] = {}
    idle: dict[Path, list[tuple[str, int]] | None] = {}
    for line, path, script, words in found_scripts(doc, directory, audited, project, cloned, python=True):
        words = _before_next_command(words or [])
        if not words:
            continue
        if script.suffix == ".py":
            if script not in idle:
                idle[script] = python_runs_nothing(script)
            defined = idle[script]
            if defined is not None:
                yield Diagnostic(readme, line, _idle_said(path, script, words, defined), confidence=CERTAIN)
            continue
        if script not in read:
            read[script] = reads_no_arguments(script)
        if read[script]:
            yield Diagnostic(readme, line, ignored_said(path, script.name, words), confidence=LIKELY)


def _before_next_command(words: list[str]) -> list[str]:
    """The words a command gives its script: those before a `&&`, `||`, `;` or `&` starting another."""
    for index, word in enumerate(words):
        if word in ("&&", "||", ";", "&"):
            return words[:index]
    return words


def _idle_said(path: str, script: Path, words: list[str], defined: list[tuple[str, int]]) -> str:
    """`README runs train.py with --config x.yaml, but train.py reads no argument and runs nothing …`."""
    shown = " ".join(words[:3]) + (" …" if len(words) > 3 else "")
    names = ", ".join(f"{name} ({script.name}:{at})" for name, at in defined[:4])
    more = ", …" if len(defined) > 4 else ""
    return (
        f"README runs {path} with {shown}, but {script.name} reads no argument and runs nothing when "
        f'started: it only defines {names}{more}, with no `if __name__ == "__main__":` block nor a call '
        "at its top level, so the command does nothing"
    )


_INERT_CALLS = frozenset(
    {
        "logging.getLogger",
        "getLogger",
        "logging.basicConfig",
        "re.compile",
        "TypeVar",
        "typing.TypeVar",
        "namedtuple",
        "collections.namedtuple",
        "os.getenv",
        "os.environ.get",
        "os.environ.setdefault",
        "os.path.join",
        "os.path.dirname",
        "os.path.abspath",
        "os.path.realpath",
        "os.path.basename",
        "Path",
        "pathlib.Path",
        "sys.path.append",
        "sys.path.insert",
        "warnings.filterwarnings",
        "warnings.simplefilter",
        "frozenset",
        "set",
        "dict",
        "list",
        "tuple",
        "str",
        "int",
        "float",
    }
)
"""Calls a module that only defines things makes at its top level, that run nothing of the script's."""
_RUNNING_DECORATORS = re.compile(r"(?:^|\.)(?:register|automain|run\w*|main_entry|entrypoint)$")
"""A decorator that runs the function it is given (`@atexit.register`, sacred's `@ex.automain`)."""
_ARGV_WORDS = re.compile(r"\bargv\b|\bparse_(?:known_)?args\b|\bfileinput\b")


def _inert(node: ast.AST) -> bool:
    """Whether evaluating `node` calls nothing but `_INERT_CALLS` (a lambda's body is not run)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Lambda):
            continue
        if isinstance(item, ast.Call) and ast.unparse(item.func) not in _INERT_CALLS:
            return False
        stack.extend(ast.iter_child_nodes(item))
    return True


def is_main_test(test: ast.expr) -> bool:
    """True for the test of `if __name__ == "__main__":` (either way round); `main_env` reads it too."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in sides) and any(
        isinstance(n, ast.Constant) and n.value == "__main__" for n in sides
    )


def _runs_nothing(body: list[ast.stmt], defined: list[tuple[str, int]]) -> bool:
    """Whether the statements `body` of a module's top level run nothing of the script's when it is
    started (imports, definitions, inert assignments), adding what they define to `defined`."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Pass, ast.Global)):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if any(
                _RUNNING_DECORATORS.search(ast.unparse(d.func if isinstance(d, ast.Call) else d))
                for d in node.decorator_list
            ):
                return False
            if not isinstance(node, ast.ClassDef):
                defined.append((f"{node.name}()", node.lineno))
            else:
                defined.append((node.name, node.lineno))
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and _inert(node):
            continue
        if isinstance(node, ast.Expr) and _inert(node):
            continue
        if isinstance(node, ast.If):
            if is_main_test(node.test):
                if not _runs_nothing(node.body, []) or not _runs_nothing(node.orelse, defined):
                    return False
                continue
            if (
                _inert(node.test)
                and _runs_nothing(node.body, defined)
                and _runs_nothing(node.orelse, defined)
            ):
                continue
            return False
        if isinstance(node, ast.Try):
            parts = [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]
            if all(_runs_nothing(part, defined) for part in parts):
                continue
            return False
        return False
    return True


def python_runs_nothing(script: Path) -> list[tuple[str, int]] | None:
    """(name, line) of what the Python script at `script` defines, when started it runs nothing of its
    own and so reads no argument: its top level only imports, defines functions and classes and sets
    names without calling anything (`logger = logging.getLogger(…)` aside), with no
    `if __name__ == "__main__":` block that calls anything, and nothing in it reads `sys.argv` or parses
    arguments. None otherwise, or when it cannot be read or parsed."""
    text = text_or_none(script, MAX_PROJECT_FILE_BYTES)
    if text is None or not text.strip() or _ARGV_WORDS.search(text):
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    defined: list[tuple[str, int]] = []
    if not _runs_nothing(tree.body, defined) or not defined:
        return None
    return defined


def ignored_said(path: str, script: str, words: list[str]) -> str:
    """`README runs ./x.sh with a b, but x.sh reads no argument …`: what `ignored_arguments` says."""
    shown = " ".join(words[:3]) + (" …" if len(words) > 3 else "")
    return (
        f"README runs {path} with {shown}, but {script} reads no argument (no $1, $@, shift or getopts): "
        "what it is given changes nothing"
    )


_BODY_END = re.compile(r"^[ \t]*\}[ \t]*(?:#.*)?$")
_OWN_ARGUMENTS = re.compile(r"\$\{?[#@*\d]|\bshift\b")
"""What a function's body reads of its own arguments (`local user=$1`), not the script's."""


def reads_no_arguments(script: Path) -> bool:
    """Whether the shell script at `script` holds code (not comments alone: a stub) and reads none of its
    arguments (`_READS_ARGUMENTS`), those its functions read of their own (`$1` in `set_password() {
    local user=$1; … }`) left out: a function that gets the script's arguments is called with them
    (`main "$@"`), which reads them."""
    lines = script_lines(script)
    text = "\n".join(lines)
    if not (script.suffix in (".sh", ".bash") or _SHELL.match(text)):
        return False
    if not any(t.strip() and not t.lstrip().startswith("#") for t in lines):
        return False
    kept: list[str] = []
    inside = False
    for line in lines:
        if inside:
            if _BODY_END.match(line):
                inside = False
            kept.append(_OWN_ARGUMENTS.sub(" ", line))
            continue
        if _FUNCTION.match(line) is not None and line.rstrip().endswith("{"):
            inside = True
        kept.append(line)
    return _READS_ARGUMENTS.search("\n".join(kept)) is None


def found_scripts(
    doc: Document,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
    python: bool = False,
) -> Iterator[tuple[int, str, Path, list[str] | None]]:
    """(README line, path as the command writes it, the script's real path, the words after it; None
    when they cannot be split) of each script a command block runs that is found where the block runs
    it (`references.Walk`: the README's folder, the ones above, a `cd` followed). With `cloned`
    (`steps.own_clones`), a clone of this very repository makes a folder a later `cd` enters as its
    root (`git clone …/app.git` then `cd app`). With `python`, a script run by a Python interpreter
    (`python3 train.py`) too."""
    for line, path, script, rest in script_runs(doc, directory, audited, project, cloned, python):
        yield line, path, script, _arguments(rest)


_PYTHON_RUN = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:(?:sudo|time|nohup|exec)[ \t]+)?"
    r"(?:[A-Za-z_][A-Za-z0-9_]*=[^\s;&|]*[ \t]+)*"
    r"(?:(?:uv|poetry|pipenv|pdm)[ \t]+run[ \t]+)?python(?:\d(?:\.\d+)?)?(?:[ \t]+-[BuOsIE]+)*[ \t]+"
    r"((?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*\.py)(?=$|[ \t;&|)])"
)
"""A Python script run by an interpreter (`python3 train.py --epochs 3`, `uv run python tools/x.py`)."""


def script_runs(
    doc: Document,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
    python: bool = False,
) -> Iterator[tuple[int, str, Path, str]]:
    """(README line, path as the command writes it, the script's real path, the rest of the command
    as written) of each script a command block runs that is found where the block runs it, in the
    project (not through a link leading out of it): what `found_scripts` splits into words."""
    top = project_top(directory, project)
    walk = Walk(run_folders(directory, audited, top), top, home=True)
    for line, step in walk.steps(doc.fences, joined=True):
        own = cloned(line, step) if cloned is not None else None
        if own is not None:
            walk.aliases[own[0]] = [own[1]]
            continue
        runs = [*RUN_SCRIPT.finditer(step), *(_PYTHON_RUN.finditer(step) if python else ())]
        for match in runs:
            path = match.group(1)
            script = next((f / path for f in walk.folders if os.path.isfile(f / path)), None)
            real = Path(os.path.realpath(script)) if script is not None else None
            if real is not None and real.is_relative_to(top):  # a link out of the project is not read
                yield line, path, real, step[match.end() :]


def unfound_python_runs(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None
) -> Iterator[tuple[int, str, list[Path], list[str] | None]]:
    """(README line, path as the command writes it, the folders the command may run in, the words
    after it; None when they cannot be split) of each Python script a command block runs by a relative
    path (`python run_chunks.py --input_dir …`) that none of those folders holds: a script run in the
    container, or one the README gives the wrong folder for."""
    top = project_top(directory, project)
    walk = Walk(run_folders(directory, audited, top), top, home=True)
    for line, step in walk.steps(doc.fences, joined=True):
        for match in _PYTHON_RUN.finditer(step):
            path = match.group(1)
            if path.startswith("../") or not walk.folders:
                continue
            if any(os.path.lexists(f / path) for f in walk.folders):
                continue
            yield line, path, list(walk.folders), _arguments(step[match.end() :])


# --------------------------------------------------------------------------------------------------
# A positional argument a README documents that the script never uses

_PASSES_WORDS = re.compile(
    r"\$\{?[@*]|\$\{!|\bshift\b|\bgetopts?\b|\bset[ \t]+(?:--|-a\b|-o[ \t]+allexport)|\bBASH_ARGV\b|\beval\b"
)
"""What may read a script's arguments or variables otherwise than by name: `"$@"`, `${!name}`, `shift`,
option parsing, `set --`, `set -a` (every variable exported), `eval`."""
_KEPT_AS = re.compile(
    r"^[ \t]*(?:readonly[ \t]+|declare[ \t]+)?([A-Za-z_]\w*)="
    r"\"?\$\{?([1-9])(?::-[^}\"]*)?\}?\"?[ \t]*(?:#.*)?$"
)
"""`BATCH=$6`, `NAME="${5}"`: a positional argument kept in a variable (not exported)."""


@per_audit(64)
def argument_uses(path: Path) -> tuple[frozenset[int], dict[int, tuple[str, int]]] | None:
    """(the positions the shell script at `path` names, `$1` to `$9`; position → (variable, script line)
    of each kept in a variable that nothing reads again: not used, not exported), or None when it may
    read them otherwise (`_PASSES_WORDS`), defines functions (whose `$1` is their own), sources a file
    other than an env file (which sees every variable), or is no shell script."""
    lines = script_lines(path)
    text = "\n".join(lines)
    if not lines or not (path.suffix in (".sh", ".bash") or _SHELL.match(text)):
        return None
    if any(
        _PASSES_WORDS.search(line) or _FUNCTION.match(line) or not _inert_source(line, path.parent)
        for line in lines
        if not line.lstrip().startswith("#")
    ):
        return None
    positions = collections.Counter(int(m.group(1)) for m in _POSITIONAL.finditer(text))
    names = collections.Counter(re.findall(r"[A-Za-z_]\w*", text))  # (each name's uses, counted once)
    unread: dict[int, tuple[str, int]] = {}
    for number, line in enumerate(lines, start=1):
        kept = _KEPT_AS.match(line)
        if kept is not None and names[kept.group(1)] == 1 and positions[int(kept.group(2))] == 1:
            unread[int(kept.group(2))] = (kept.group(1), number)
    return frozenset(positions), unread


_LISTED_ARGUMENT = re.compile(r"[ \t]*(\d+)[.)][ \t]+`?([A-Za-z_][\w-]*)`?[ \t]*(?:—|–|-|:)[ \t]")
"""A numbered item naming an argument: `1. model_path — …`, `2. `labels` - …`, `3. port: …`."""


def _ordinal(number: int) -> str:
    return f"{number}{'st' if number == 1 else 'nd' if number == 2 else 'rd' if number == 3 else 'th'}"


def _listed_arguments(
    doc: Document, directory: Path, top: Path
) -> Iterator[tuple[str, Path, list[tuple[int, str]]]]:
    """(script name, script, (README line, name) of each item) of each numbered list of a script's
    arguments: a line naming a script beside the README in a code span and ending in `:`, then items
    numbered from 1 that each start with a name and a dash or colon (`1. model_path — the model`)."""
    for para in doc.paragraphs:
        for index, (_, text) in enumerate(para.lines):
            if not text.rstrip().endswith(":"):
                continue
            spans = [c.strip() for _, _, c in code_spans(text) if SCRIPT_NAME.fullmatch(c.strip())]
            if len(spans) != 1:
                continue
            script = inside((directory / spans[0]).absolute(), top)
            if script is None or not os.path.isfile(script):
                continue
            names: list[tuple[int, str]] = []
            for line, item in para.lines[index + 1 : index + 11]:  # (`$1` to `$9`, and one more)
                listed = _LISTED_ARGUMENT.match(item)
                if listed is None or int(listed.group(1)) != len(names) + 1:
                    break
                names.append((line, listed.group(2)))
            if len(names) >= 2:
                yield spans[0], script, names


def _unused_said(script: Path, position: int, uses: tuple[frozenset[int], dict[int, tuple[str, int]]]) -> str:
    named, unread = uses
    if position in unread:
        name, at = unread[position]
        return (
            f"{script.name}:{at} only assigns ${position} to {name}, which nothing reads (the script neither "
            "uses nor exports it): the argument has no effect"
        )
    return f"{script.name} never reads ${position}: the argument has no effect"


_SYNOPSIS = re.compile(r"[\[\]<>{}|]|\.\.\.|…")
"""What a usage line's words hold and a command's do not: `[optional]`, `<value>`, `{a|b}`, `...`."""


def unused_arguments(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A positional argument a README gives a shell script (a command's words, or a numbered list of its
    arguments after a line naming it: `1. model_path — …`) that the script never uses: it names no
    `${position}`, or only keeps it in a variable that nothing reads again (`BATCH=$6`, never used nor
    exported: a program it runs sees only exported variables) (`likely`: the README may describe a version
    of the script that used it). Not a script that may read its words otherwise (`argument_uses`), nor
    a command giving options (the positions are then not the words'), nor a usage line of placeholders
    (`_SYNOPSIS`), nor a list past `$9`."""
    top = project_top(directory, project)
    for name, script, names in _listed_arguments(doc, directory, top):
        uses = argument_uses(script)
        if uses is None or len(names) > 9:
            continue
        for position, (line, argument) in enumerate(names, start=1):
            if position not in uses[0] or position in uses[1]:
                said = (
                    f"README lists {len(names)} arguments of {name} (the {_ordinal(position)}: {argument}), "
                    f"but {_unused_said(script, position, uses)}"
                )
                yield Diagnostic(readme, line, said, confidence=LIKELY)
                break
    for line, path, script, words in found_scripts(doc, directory, audited, project):
        words = _before_next_command(words or [])
        if not words or len(words) > 9 or any(w.startswith("-") or _SYNOPSIS.search(w) for w in words):
            continue  # (options, or a usage line of placeholders: `./run.sh [NAME (default: x)]`)
        uses = argument_uses(script)
        if uses is None or not uses[0]:
            continue  # (reading none: `ignored_arguments`)
        for position in range(1, len(words) + 1):
            if position not in uses[0] or position in uses[1]:
                said = (
                    f"README runs {path} with {len(words)} arguments (the {_ordinal(position)}: "
                    f"{words[position - 1]}), but {_unused_said(script, position, uses)}"
                )
                yield Diagnostic(readme, line, said, confidence=LIKELY)
                break


# --------------------------------------------------------------------------------------------------
# Options a README passes to a script whose `case` arms reject every other option

_PATTERN_ARM = re.compile(r"^[ \t]*\(?[ \t]*(-[^)\s|]*(?:[ \t]*\|[ \t]*-[^)\s|]*)*)[ \t]*\)")
"""A `case` arm of option patterns: `-f|--framework)`, `--tag=*)`."""
_CATCH_ALL = re.compile(r"^[ \t]*\(?[ \t]*(?:\*|-\*|-\?\*|--\*|-\?\*\|\*)[ \t]*\)(.*)$")
"""The arm every other word reaches: `*)`, `-*)`, `--*)`."""
_REFUSES = re.compile(
    r"\bexit[ \t]+[1-9]|\busage[ \t]+[1-9]|\b(?:die|fail|error)\b|nknown|nrecogni[sz]ed|nvalid|nsupported"
)
"""What a catch-all arm does with a word it refuses: exit with an error, print usage with a failing status."""
_KEEPS = re.compile(r"\+=|\bbreak\b|\bPOSITIONAL|\bARGS\b|\bEXTRA|\bREST\b|\bset[ \t]+--")
"""What a catch-all arm that passes words on does (collects them, stops reading options)."""


def _options_refused(path: Path) -> tuple[list[str], int] | None:
    """The option patterns of the `case` arms of the script at `path` (`-f`, `--framework`, `--tag=*`) and
    the line of its catch-all arm, when that arm refuses what it gets (exits with an error, or prints an
    "unknown option" message) and the script reads no option another way (`getopt`, `getopts`); None
    otherwise."""
    lines = script_lines(path)
    patterns: list[str] = []
    refused = 0
    for number, text in enumerate(lines, start=1):
        if re.search(r"\bgetopts?\b", text):
            return None
        if (arm := _PATTERN_ARM.match(text)) is not None:
            patterns += [o.strip() for o in arm.group(1).split("|")]
        elif (catch := _CATCH_ALL.match(text)) is not None and not refused:
            body = [catch.group(1)]
            for later in lines[number : number + 4]:
                if ";;" in body[-1]:
                    break
                body.append(later)
            arm_text = "\n".join(body).split(";;", 1)[0]
            if _REFUSES.search(arm_text) and not _KEEPS.search(arm_text):
                refused = number
    return (patterns, refused) if refused and len(patterns) >= 2 else None


def rejected_options(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A script a command block runs (found where the block runs it) with an option none of its `case`
    arms takes, when its catch-all arm refuses any other word: `README runs ./build.sh with --main,
    which build.sh:36 refuses (it takes -f/--framework, -d/--device, -t/--tag, -h/--help)` (`certain`:
    the script stops there). Not a script reading options with `getopt(s)`, one whose catch-all passes
    words on (`ARGS+=("$1")`), nor an option after `--`."""
    read: dict[Path, tuple[list[str], int] | None] = {}
    for line, path, script, words in found_scripts(doc, directory, audited, project):
        if script not in read:
            read[script] = _options_refused(script)
        known = read[script]
        if known is None or words is None:
            continue
        patterns, at = known
        for word in words:
            if word == "--" or word in ("&&", ";", "||"):
                break
            if not word.startswith("-") or word == "-" or _UNREAD.search(word.split("=", 1)[0]):
                continue
            name = word.split("=", 1)[0]
            if any(fnmatch.fnmatchcase(word, p) or fnmatch.fnmatchcase(name, p) for p in patterns):
                continue
            takes = ", ".join(dict.fromkeys(patterns))
            said = f"README runs {path} with {name}, which {script.name}:{at} refuses (it takes {takes})"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
            break


# --------------------------------------------------------------------------------------------------
# The options a README lists for a script, against those its `case` arms or `getopts` accept

_ARM = re.compile(
    r"^[ \t]*\(?[ \t]*((?:-{1,2}[A-Za-z0-9][\w-]*)(?:[ \t]*\|[ \t]*-{1,2}[A-Za-z0-9][\w-]*)*)[ \t]*\)"
)
"""A `case` arm of options: `-p|--port)`, `--vnc-password)`."""
_GETOPTS = re.compile(r"\bgetopts[ \t]+[\"']?:?([A-Za-z0-9:]+)[\"']?")
_HELP = frozenset({"-h", "--help", "-?"})
_OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)")
_ITEM_OPTIONS = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*)?`(-[^`]*)`")
"""A list item starting with options in code: `` - `-p, --port PORT`: … ``."""
SCRIPT_NAME = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:sh|bash))(?![\w-])")
_PY_NAME = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:sh|bash|py))(?![\w-])")
"""A shell or Python script's name: the scripts a list of options of `undeclared_options` may be about."""
SOME = re.compile(
    r"\b(?:common|commonly|main|some|useful|frequent\w*|key|selected|most|important|e\.g\.|example"
    r"|such[ \t]+as)\b",
    re.IGNORECASE,
)
"""Words saying a list holds only some of the options."""


def _accepted(path: Path) -> list[tuple[int, frozenset[str]]]:
    """(script line, options) of each `case` arm of options and of each option of a `getopts` string
    of the script at `path` (`-p|--port)` is one arm: two names of one option)."""
    lines = script_lines(path)
    found: list[tuple[int, frozenset[str]]] = []
    for number, text in enumerate(lines, start=1):
        arm = _ARM.match(text)
        if arm is not None:
            found.append((number, frozenset(o.strip() for o in arm.group(1).split("|"))))
        for letters in _GETOPTS.findall(text):
            found += [(number, frozenset({f"-{c}"})) for c in letters if c != ":"]
    return found


def _named_script(
    doc: Document,
    starts: list[int],
    line: int,
    intro: str,
    heading: str,
    names: re.Pattern[str] = SCRIPT_NAME,
) -> str | None:
    """The script a list at README `line` is about: the one its introduction or heading names, else the
    one the nearest of the four headings above that names one names (`## launch.sh`, then `### Usage`,
    `### Options`)."""
    for text in (intro, heading):
        found = names.findall(text)
        if found:
            return found[0] if len(set(found)) == 1 else None
    end = bisect.bisect_left(starts, line)  # `starts`: the README line of each heading of `doc`
    above = [text for _, text in doc.headings[max(0, end - 4) : end]]
    for text in reversed(above):
        found = names.findall(text)
        if found:
            return found[0] if len(set(found)) == 1 else None
    return None


def option_lists(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A list of a script's options (items starting with them in code: `` - `-i, --image IMAGE`: … ``)
    under a heading or an introduction naming a script beside the README, when every option it lists
    is one the script's `case` arms or `getopts` accept, while the script accepts others it leaves out
    (not `-h`/`--help`): `README lists the options of launch.sh without -p/--port, -d/--desktop, which
    launch.sh:70, 74 accept` (`likely`), at the list's introduction or heading. Not a list saying it
    holds only some (`Common options:`), nor one naming an option the script does not accept (it may be
    another script's list)."""
    starts = [at for at, _ in doc.headings]
    for block in lists(doc):
        listed = [
            frozenset(_OPTION.findall(m.group(1)))
            for _, text in block.items
            if (m := _ITEM_OPTIONS.match(text))
        ]
        if (
            len(listed) < 2
            or len(listed) != len(block.items)
            or SOME.search(f"{block.intro} {block.heading}")
        ):
            continue
        first = block.items[0][0]
        name = _named_script(doc, starts, first, block.intro, block.heading)
        if name is None:
            continue
        path = next(
            (p for p in (directory / name, directory / posixpath.basename(name)) if os.path.isfile(p)),
            None,
        )
        if path is None:
            continue
        arms = _accepted(path)
        every = set().union(*(o for _, o in arms)) if arms else set()
        if not arms or any(not (options & every) for options in listed):
            continue
        said = set().union(*listed)
        left = [(at, o) for at, o in arms if not (o & said) and not (o <= _HELP)]
        if not left:
            continue
        shown = ", ".join("/".join(sorted(o, key=len)) for _, o in left[:5])
        lines = ", ".join(str(at) for at, _ in left[:5])
        yield Diagnostic(
            readme,
            block.intro_line if block.intro else block.section or first,
            f"README lists the options of {name} without {shown}, which {path.name}:{lines} "
            f"accept{'s' if len(left) == 1 else ''}",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# A first word a README gives a script that the script's `case "$1"` or word list does not take

_CASE_FIRST = re.compile(r"^[ \t]*case[ \t]+\"?\$\{?1\}?\"?[ \t]+in[ \t]*(?:#.*)?$")
"""`case "$1" in`: the arms that follow match the script's (or function's) first argument."""
_ARM_WORDS = re.compile(r"^[ \t]*\(?[ \t]*([^()#\s][^()]*)\)(.*)$")
"""A `case` arm: its patterns (`build|up)`, `"llama-3")`) and the rest of its line."""
_LIST_START = re.compile(
    r"^[ \t]*([A-Za-z_]\w*)=\"?\$\([ \t]*cat[ \t]*<<-?[ \t]*[\"']?([A-Za-z_]\w*)[\"']?[ \t]*$"
)
"""`MODEL_LIST=$(cat << EOF`: a list of words written in a heredoc, one entry a line."""
_GREPPED = re.compile(
    r"^[ \t]*([A-Za-z_]\w*)=\"?\$\([ \t]*echo[ \t]+\"\$\{?([A-Za-z_]\w*)\}?\"[ \t]*\|[ \t]*grep[ \t]+"
    r"\"\$\{?1\}?\"[ \t]*(?:\|\|[ \t]*true[ \t]*)?\)\"?[ \t]*$"
)
"""`LINE=$(echo "$LIST" | grep "$1" || true)`: the entries of a list holding the first argument."""
_EMPTY_TEST = re.compile(r"\[[ \t]+-z[ \t]+\"\$\{?([A-Za-z_]\w*)\}?\"[ \t]+\]")
"""`[ -z "$LINE" ]`: a test that the grep found nothing."""
_FUNCTION = re.compile(r"^[ \t]*(?:function[ \t]+)?([A-Za-z_][\w-]*)[ \t]*\([ \t]*\)[ \t]*\{?[ \t]*$")
_NOT_FIRST = re.compile(r"\bshift\b|\bgetopts?\b|\bset[ \t]+--")
"""What makes `$1` another word than the one the README passes first, anywhere in the script (a loop
over the arguments): a `shift`, option parsing, `set --`."""
_SOURCED = re.compile(r"^[ \t]*(?:\.|source)[ \t]+(\S+)")
"""A file the script sources, which may do any of `_NOT_FIRST` to its words (`. ./lib.sh`)."""


def _inert_source(text: str, folder: Path) -> bool:
    """True when the line `text` of a script in `folder` sources no file, or an env file (`set -a; .
    .env`, `source .env.local`): one of the repository holding only assignments, or one it lacks (the
    reader makes it: its variables are theirs)."""
    sourced = _SOURCED.match(text)
    if sourced is None:
        return True
    path = sourced.group(1).strip("\"'").removesuffix(";")
    name = posixpath.basename(path)
    readable = env_file(name, None) and "$" not in path and not path.startswith(("/", "~"))
    return env_file(name, text_or_none(folder / path, MAX_PROJECT_FILE_BYTES) if readable else None)


_PASSES_ON = re.compile(r"\$\{?[@*]|\bexec\b")
_PLAIN_WORD = re.compile(r"[A-Za-z0-9][\w.+-]*\Z")


def _called_with_arguments(lines: list[str], number: int) -> bool:
    """True when script line `number` is at the top level, or inside a function the script's top level
    calls with all of its own arguments (`main "$@"`)."""
    name = None
    for text in reversed(lines[: number - 1]):
        if (defined := _FUNCTION.match(text)) is not None:
            name = defined.group(1)
            break
        if text.startswith("}"):
            return True  # (a function closed above: the line is at the top level)
    if name is None:
        return True
    call = re.compile(rf"^{re.escape(name)}[ \t]+\"\$@\"[ \t]*(?:#.*)?$")
    return any(call.match(text) for text in lines)


def _refusing(lines: list[str], start: int, body: str, end: str) -> bool:
    """True when the lines from `start` (0-based; the first of them `body`) up to the one holding `end`
    exit with an error (`usage; exit 1`, `exit 2`) and pass nothing on (`exec "$@"`)."""
    text = [body]
    for later in lines[start : start + 6]:
        if end in text[-1]:
            break
        text.append(later)
    arm = "\n".join(text).split(end, 1)[0]
    return (
        bool(re.search(r"\bexit[ \t]+[1-9]", arm)) and not _PASSES_ON.search(arm) and not _KEEPS.search(arm)
    )


def _case_words(lines: list[str], number: int) -> list[str] | None:
    """The patterns of the arms of the `case "$1" in` at script line `number` (1-based), when its `*)` arm
    refuses every other word; None otherwise (a nested case, a pattern holding a variable)."""
    patterns: list[str] = []
    refuses = False
    expecting = True
    for index in range(number, len(lines)):
        text = lines[index]
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if expecting and re.match(r"esac\b", stripped):
            return patterns if refuses and len(patterns) >= 2 else None
        if re.match(r"case\b", stripped):
            return None
        if expecting:
            arm = _ARM_WORDS.match(text)
            if arm is None:
                return None
            words = [w.strip().strip("\"'") for w in arm.group(1).split("|")]
            if any("$" in w or not w for w in words):
                return None
            if "*" in words:
                refuses = _refusing(lines, index + 1, arm.group(2), ";;")
                if not refuses:
                    return None
            else:
                patterns += words
            expecting = ";;" in arm.group(2)
        elif ";;" in text:
            expecting = True
    return None


def _word_test(name: str) -> re.Pattern[str]:
    """A test that the variable `name` (`1`: the first argument) is a word: `[ "$1" = "train" ]`, `[[
    $VERSION == 12.1 ]]`."""
    return re.compile(
        r"\[\[?[ \t]+\"?\$\{?" + re.escape(name) + r"\}?\"?[ \t]+==?[ \t]+"
        r"([\"']?)([^\s\"'$`*?\[\]]+)\1[ \t]+\]\]?"
    )


_FIRST_TEST = _word_test("1")
"""A test that the first argument is a word: `[ "$1" = "train" ]`, `[[ $1 == serve ]]`."""
_IF_FIRST = re.compile(r"^[ \t]*(?P<key>if|elif)[ \t]+(?P<test>.*?)[ \t]*;?[ \t]*(?:then)?[ \t]*(?:#.*)?$")
"""An `if` or `elif` line and its condition (`if [ "$1" = build ]; then`)."""
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_IF_FI = re.compile(r"(?<![\w-])(if|fi)(?![\w-])")


def _first_tests(condition: str, test_of: re.Pattern[str] = _FIRST_TEST) -> list[str] | None:
    """The words of a condition that is only tests of `$1` (or the variable `test_of` tests) against
    words joined by `||` (`[ "$1" = a ] || [ "$1" = b ]`); None for any other condition."""
    words: list[str] = []
    for part in condition.split("||"):
        test = test_of.fullmatch(part.strip())
        if test is None:
            return None
        words.append(test.group(2))
    return words


def if_branches(lines: list[str]) -> dict[int, list[tuple[str, int]]]:
    """Each `if` of a script's lines (0-based index) → the `elif`, `else` and `fi` lines of its own that
    start a line, in order (one reading of the script: an `if` and `fi` on one line close at once)."""
    branches: dict[int, list[tuple[str, int]]] = {}
    open_ifs: list[int] = []
    for index, text in enumerate(lines):
        bare = _QUOTED.sub('""', text.split(" #", 1)[0])
        first = re.match(r"[ \t]*(elif|else|fi)\b", bare)
        if first is not None and first.group(1) != "fi" and open_ifs:
            branches[open_ifs[-1]].append((first.group(1), index))
        for keyword in _IF_FI.findall(bare):
            if keyword == "if":
                open_ifs.append(index)
                branches[index] = []
            elif open_ifs:
                branches[open_ifs.pop()].append(("fi", index))
    return branches


def _chain_words(
    lines: list[str],
    number: int,
    branches: dict[int, list[tuple[str, int]]],
    test_of: re.Pattern[str] = _FIRST_TEST,
) -> list[str] | None:
    """The words of the `if`/`elif` chain at script line `number` (1-based; `branches`: `if_branches` of
    the lines) whose every condition tests `$1` (or the variable `test_of` tests) against words, when its
    `else` refuses every other word (exits with an error, passes nothing on); None otherwise (no `else`,
    another condition, an `if` that is not closed)."""
    first = _IF_FIRST.match(lines[number - 1])
    if first is None or first.group("key") != "if":
        return None
    words = _first_tests(first.group("test"), test_of)
    if words is None:
        return None
    for keyword, index in branches.get(number - 1, []):
        if keyword == "elif":
            branch = _IF_FIRST.match(lines[index])
            more = _first_tests(branch.group("test"), test_of) if branch is not None else None
            if more is None:
                return None
            words += more
        elif keyword == "else":
            body = lines[index].strip()[4:]
            return words if len(words) >= 2 and _refusing(lines, index + 1, body, "fi") else None
    return None


def _listed_words(lines: list[str], number: int, grepped: re.Match[str]) -> list[str] | None:
    """The entries' lines of the heredoc list `grepped` (a `LINE=$(echo "$LIST" | grep "$1")` at script
    line `number`) searches, when a later test that it found nothing exits with an error."""
    found, listed = grepped.group(1), grepped.group(2)
    entries: list[str] | None = None
    for index, text in enumerate(lines):
        start = _LIST_START.match(text)
        if start is None or start.group(1) != listed:
            continue
        if entries is not None:
            return None  # (set twice)
        entries = []
        for body in lines[index + 1 :]:
            if body.strip() == start.group(2):
                break
            entries.append(body)
        else:
            return None
    if not entries:
        return None
    for index in range(number, min(number + 8, len(lines))):
        test = _EMPTY_TEST.search(lines[index])
        if test is not None and test.group(1) == found:
            return entries if _refusing(lines, index + 1, lines[index], "fi") else None
    return None


def _in_arms(patterns: tuple[str, ...], word: str) -> bool:
    return any(fnmatch.fnmatchcase(word, p) for p in patterns)


def _in_list(listed: str, word: str) -> bool:
    """`grep "$word"` finds a line of `listed` (a `.` of the word is any character)."""
    return re.search(re.escape(word).replace(r"\.", "."), listed) is not None


@dataclass(frozen=True)
class FirstWords:
    """How a script refuses the first words it does not know (`first_words`)."""

    takes: Callable[[str], bool]
    """Whether it takes a word as its first argument."""
    line: int
    """The script line that reads it."""
    said: str
    """How it reads it (`its `case "$1"` (line 3) takes build, serve`)."""
    options: bool = False
    """True when it reads its first word as a value before any option parsing (`VERSION="${1:-12.1}"`,
    then `shift` and a loop over the options): an option given first is refused too."""


def _case_of(name: str) -> re.Pattern[str]:
    """`case "$NAME" in`, `case ${NAME} in`: the arms that follow match the variable `name`."""
    return re.compile(r"^[ \t]*case[ \t]+\"?\$\{?" + re.escape(name) + r"\}?\"?[ \t]+in[ \t]*(?:#.*)?$")


def _assigned(name: str) -> re.Pattern[str]:
    """A line giving the variable `name` a value: `NAME=…`, `export NAME=…`, `read NAME`, `for NAME in`."""
    word = re.escape(name)
    return re.compile(
        r"(?:^|[;&|(){][ \t]*|\b(?:then|do|else)[ \t]+)(?:" + DECLARE + r")?" + word + r"\+?="
        r"|\bread\b[^;&|]*[ \t]" + word + r"\b|\bfor[ \t]+" + word + r"\b"
    )


def _aliased_words(lines: list[str], before: int) -> FirstWords | None:
    """The words a script takes as its first argument when it names it on a line before its `before`th
    (0-based: the first that moves it, `shift`, `getopts`, `set --`) and at a level every run reaches
    (`VERSION="${1:-12.1}"`), assigns that name nothing else, and refuses a value it does not know
    with a `case "$VERSION"` or an `if [ "$VERSION" = … ]` chain (`first_words`). What follows the
    naming (`shift`, then a loop over the options) does not change the value: an option given first
    is that value too."""
    branches: dict[int, list[tuple[str, int]]] | None = None
    for index, text in enumerate(lines[:before]):
        alias = _ALIAS.match(text)
        if alias is None or alias.group(2) != "1" or not _called_with_arguments(lines, index + 1):
            continue
        name = alias.group(1)
        again = _assigned(name)
        if any(again.search(sh_code(t)) for at, t in enumerate(lines) if at != index):
            return None
        case_of, test_of = _case_of(name), _word_test(name)
        tested = [m.group(2) for t in lines for m in test_of.finditer(t)]
        for number, later in enumerate(lines[index + 1 :], start=index + 2):
            if case_of.match(later):
                words = _case_words(lines, number)
                if words is None:
                    return None
                named = ", ".join(w for w in words if not w.startswith("-"))
                said = f"it reads its first argument as {name} (line {index + 1}), and its `case ${name}` "
                return FirstWords(
                    functools.partial(_in_arms, tuple(words + tested)),
                    number,
                    said + f"(line {number}) takes {named}",
                    options=True,
                )
            if _IF_FIRST.match(later):
                branches = if_branches(lines) if branches is None else branches
                words = _chain_words(lines, number, branches, test_of)
                if words is None:
                    continue
                named = ", ".join(w for w in words if not w.startswith("-"))
                said = f'it reads its first argument as {name} (line {index + 1}), and its `if [ "${name}" '
                return FirstWords(
                    functools.partial(_in_arms, tuple(tested)),
                    number,
                    said + f"= … ]` chain (line {number}) takes {named}",
                    options=True,
                )
        return None
    return None


def first_words(path: Path) -> FirstWords | None:
    """How the script at `path` takes a word as its first argument when it refuses every first word it
    does not know: a `case "$1" in` of words whose `*)` arm exits with an error, or a heredoc list of
    entries the script greps `$1` in and exits with an error when none holds it (`grep` reads the word
    as a pattern: `.` is any character); or a name it gives `$1` before moving it (`_aliased_words`).
    None when it cannot be read so: `$1` moved first (`shift`, `getopts`, `set --`), a sourced file, a
    catch-all that passes words on (`exec "$@"`), a case inside a function not called with `"$@"`."""
    lines = script_lines(path)
    if not lines or not lines[0].startswith("#!"):
        return None
    if not all(_inert_source(text, path.parent) for text in lines):
        return None
    moved = next(
        (i for i, text in enumerate(lines) if not text.lstrip().startswith("#") and _NOT_FIRST.search(text)),
        None,
    )
    if moved is not None:
        return _aliased_words(lines, moved)
    tested = [m.group(2) for text in lines for m in _FIRST_TEST.finditer(text)]  # (`[ "$1" = x ]` anywhere)
    branches: dict[int, list[tuple[str, int]]] | None = None  # (read at the first `if`)
    for number, text in enumerate(lines, start=1):
        if _CASE_FIRST.match(text):
            words = _case_words(lines, number)
            if words is None or not _called_with_arguments(lines, number):
                return None
            named = ", ".join(w for w in words if not w.startswith("-"))
            return FirstWords(
                functools.partial(_in_arms, tuple(words + tested)),
                number,
                f'its `case "$1"` (line {number}) takes {named}',
            )
        if _IF_FIRST.match(text):
            if branches is None:
                branches = if_branches(lines)
            words = _chain_words(lines, number, branches)
            if words is None or not _called_with_arguments(lines, number):
                continue  # (an `if` that takes its words and lets others through)
            named = ", ".join(w for w in words if not w.startswith("-"))
            return FirstWords(
                functools.partial(_in_arms, tuple(tested)),
                number,
                f'its `if [ "$1" = … ]` chain (line {number}) takes {named}',
            )

        if (grepped := _GREPPED.match(text)) is not None:
            entries = _listed_words(lines, number, grepped)
            if entries is None or not _called_with_arguments(lines, number):
                return None
            return FirstWords(
                functools.partial(_in_list, "\n".join(entries)),
                number,
                f"line {number} looks it up in its {grepped.group(2)}, and no entry holds it",
            )
    return _aliased_words(lines, len(lines))


_SCRIPT_SPAN = re.compile(r"(?:(?:ba)?sh[ \t]+)?(?:\./)?((?:[\w.-]+/)*[\w.-]+\.(?:sh|bash))[ \t]+<[^<>]+>\Z")
"""A code span showing how a script is run with a word the reader fills in: `./get.sh <model>`."""
_MOST_SPAN = 300
"""The longest code span read as one (`_SCRIPT_SPAN`): a longer one is no such command."""


@per_audit(64)
def _uncalled_functions(path: Path) -> tuple[tuple[str, int], ...]:
    """(name, script line) of each function the script at `path` defines and never names again."""
    lines = script_lines(path)
    text = "\n".join(lines)
    found: list[tuple[str, int]] = []
    for number, line in enumerate(lines, start=1):
        defined = _FUNCTION.match(line)
        if defined is not None:
            name = defined.group(1)
            if len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)) == 1:
                found.append((name, number))
    return tuple(found)


def _uncalled_hint(script: Path, word: str) -> str:
    """` (its build_images function, line 21, is never called)`: a function of the script named after the
    word the README gives it (a part of its name between `_` or `-`) that nothing calls; '' when none."""
    for name, number in _uncalled_functions(script):
        if word.lower() in re.split(r"[_-]", name.lower()):
            return f" (its {name} function, line {number}, is never called)"
    return ""


def _refused(word: str, takes: Callable[[str], bool], options: bool = False) -> bool:
    """True when `word`, a plain word (or, with `options`, an option: `--no-cache`), is one `takes`
    refuses."""
    shape = _PLAIN_WORD.match(word) or (options and _OPTION_WORD.match(word))
    return bool(shape) and not _UNREAD.search(word) and not takes(word)


def unknown_first_words(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A first word a README gives a script beside it (`./get.sh phi-9` in a command block, or a word of
    the first column of a table under a paragraph showing `./get.sh <model>`) that the script refuses
    (`first_words`): it prints its usage and exits with an error (`likely`). A table is read only when
    at least two of its words are ones the script takes (it lists the script's words)."""
    read: dict[Path, FirstWords | None] = {}

    def known(script: Path) -> FirstWords | None:
        if script not in read:
            read[script] = first_words(script)
        return read[script]

    for line, path, script, words in found_scripts(doc, directory, audited, project):
        told = known(script)
        if told is None or not words or (words[0].startswith("-") and not told.options):
            continue
        if not _refused(words[0], told.takes, told.options):
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {path} with {words[0]}, which {script.name} does not take: {told.said}, so "
            f"it exits with an error{_uncalled_hint(script, words[0])}",
            confidence=LIKELY,
        )
    top = project_top(directory, project)
    shown: dict[int, tuple[str, Path]] = {}
    for para in doc.paragraphs:
        for _, text in para.lines:
            for _, _, code in code_spans(text):
                span = _SCRIPT_SPAN.match(code.strip()) if len(code) < _MOST_SPAN else None
                beside = inside((directory / span.group(1)).absolute(), top) if span else None
                if span and beside is not None and os.path.isfile(beside):
                    shown.setdefault(para.section, (span.group(1), beside))
    for table in doc.tables:
        if table.section not in shown or not table.rows:
            continue
        name, script = shown[table.section]
        told = known(script)
        if told is None:
            continue
        cells = [(line, cells[0].strip().strip("`").strip()) for line, cells in table.rows if cells]
        if not all(_PLAIN_WORD.match(word) for _, word in cells):
            continue
        if sum(told.takes(word) for _, word in cells) < 2:
            continue
        for line, word in cells:
            if _refused(word, told.takes):
                yield Diagnostic(
                    readme,
                    line,
                    f"README lists {word} for {name}, which {script.name} does not take: {told.said}, so it "
                    "exits with an error",
                    confidence=LIKELY,
                )


# --------------------------------------------------------------------------------------------------
# Options a README gives a shell script that reads its arguments only by position

_PARSES_OPTIONS = re.compile(
    r"\bgetopts?\b|\$\{?[@*]|\bshift\b|\bset[ \t]+--|\bBASH_ARGV\b|\beval\b|\$\{?#|\$\{[1-9][#%/^,]"
    r"|(?:^|[;&|(][ \t]*|\bthen[ \t]+|\bdo[ \t]+)(?:source|\.)[ \t]+\S|\bfor[ \t]+\w+[ \t]*(?:;|$|do\b)"
    r"|\bcase\b|(?:==?|!=)[ \t]*[\"']?-"
)
"""What reads a script's arguments as options, or may: option parsing (`getopts`, `case`), the list of
them (`"$@"`, `shift`, `for a; do`), their number, a sourced script or `eval`, a word compared with a
quoted option (`[ "$1" = "--help" ]`)."""
_POSITIONAL = re.compile(r"\$\{?([1-9])(?![0-9])")
_NAMED_POSITION = re.compile(
    r"^[ \t]*(?:" + DECLARE + r")?([A-Za-z_]\w*)=[\"']?\$\{?[1-9](?::-[^}\"']*)?\}?[\"']?[ \t]*(?:#.*)?$"
)
"""`PORT="$1"`, `TAG=${2:-latest}`: a positional argument given a name."""
_TESTED_POSITION = re.compile(
    r"^[ \t]*(?:if|elif|while|until|\[\[?|test)\b[^$]*?[\[ \t]\"?\$\{?[1-9]\}?\"?[ \t]*(?:\]\]?|-\w+)"
)
"""`if [ "$1" ]; then`, `[ -n "$1" ] &&`, `if [[ $2 ]]`: a positional argument tested for being there."""
_LITERAL = re.compile(r"^[ \t]*(?:" + DECLARE + r")?([A-Za-z_]\w*)=([\"']?)([^\s\"'$`]+)\2[ \t]*(?:#.*)?$")
"""`TAG="latest"`: a variable given a literal."""


@dataclass(frozen=True)
class _Positional:
    """What a shell script that reads its arguments only by position does with them."""

    text: str
    """The script's text (to look an option's name up in)."""
    names: tuple[tuple[int, int, str], ...]
    """(argument, script line, name) of each argument given a name (`PORT="$1"`: (1, 9, PORT))."""
    literals: dict[str, tuple[int, str]]
    """Each variable given a literal (`TAG="latest"`), with the line and the value."""


def _positional_only(path: Path) -> _Positional | None:
    """What the shell script at `path` does with its arguments when it reads them only by position, as
    values (`PORT="$1"`, `if [ "$1" ]`), and reads no option nor the list of them; None otherwise
    (another use of `$1`, which may pass it on as an option, a `case`, `getopts`, `"$@"`, …)."""
    lines = script_lines(path)
    text = "\n".join(lines)
    if not text.startswith("#!") and path.suffix not in (".sh", ".bash"):
        return None
    if text.startswith("#!") and _SHELL.match(text) is None:
        return None
    names: list[tuple[int, int, str]] = []
    literals: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(lines, start=1):
        code = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        if not code.strip():
            continue
        if _PARSES_OPTIONS.search(code):
            return None
        if (literal := _LITERAL.match(code)) is not None:
            literals.setdefault(literal.group(1), (number, literal.group(3)))
        if _POSITIONAL.search(code) is None:
            continue
        if (named := _NAMED_POSITION.match(code)) is not None:
            position = _POSITIONAL.search(code)
            assert position is not None
            names.append((int(position.group(1)), number, named.group(1)))
        elif _TESTED_POSITION.match(code) is None:
            return None
    if not names:
        return None
    return _Positional(text, tuple(names), literals)


def _position_said(script: str, read: _Positional) -> str:
    """`it reads only its argument 1, as PORT (run.sh:9)`."""
    named = read.names[:3]
    numbers = " and ".join(dict.fromkeys(str(n) for n, _, _ in named))
    plural = "s" if len({n for n, _, _ in named}) > 1 else ""
    names = ", ".join(name for _, _, name in named)
    lines = ", ".join(str(at) for _, at, _ in named)
    return f"it reads only its argument{plural} {numbers}, as {names} ({script}:{lines})"


def _mentions(option: str, read: _Positional) -> bool:
    """Whether the script names a long option anywhere (a usage line may tell what it does with it); a
    short one (`-d`) is often a word of a command the script runs, so it is not looked up."""
    return option.startswith("--") and option in read.text


def _hard_coded(option: str, script: str, read: _Positional) -> str:
    """`; TAG is set to latest at run.sh:4` when the option names a variable the script gives a literal."""
    name = option.lstrip("-").replace("-", "_").upper()
    if name in read.literals and name not in {n for _, _, n in read.names}:
        at, value = read.literals[name]
        return f"; {name} is set to {value} at {script}:{at}"
    return ""


def positional_options(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """Options a README gives a shell script that parses none: it reads its arguments only by position,
    as values (`PORT="$1"`), with no `case`, `getopts`, `shift` or `"$@"`, and names none of the options
    anywhere. A command block running it with one (`./run.sh --tag v2`: the option becomes the value
    of its first argument, `certain`), and each item of a list of its options (`` * `--train`: … `` under
    `run the `run.sh` script with the following options:`, `likely`: the list is prose), the script
    found beside the README or in the folders above it."""
    read: dict[Path, _Positional | None] = {}

    def known(script: Path) -> _Positional | None:
        if script not in read:
            read[script] = _positional_only(script)
        return read[script]

    for line, path, script, words in found_scripts(doc, directory, audited, project):
        positional = known(script)
        if positional is None or words is None:
            continue
        for word in words:
            if word in ("&&", ";", "||", "--"):
                break
            name = word.split("=", 1)[0]
            if not name.startswith("-") or name == "-" or _UNREAD.search(name) or _mentions(name, positional):
                continue
            yield Diagnostic(
                readme,
                line,
                f"README runs {path} with {name}, but {script.name} parses no options: "
                f"{_position_said(script.name, positional)}, so {name} is taken as a value"
                f"{_hard_coded(name, script.name, positional)}",
                confidence=CERTAIN,
            )
            break
    top = project_top(directory, project)
    bases = run_folders(directory, audited, top)
    starts = [at for at, _ in doc.headings]
    for block in lists(doc):
        items = [(at, m.group(1)) for at, text in block.items if (m := _ITEM_OPTIONS.match(text))]
        if len(items) < 2 or len(items) != len(block.items):
            continue
        named = _named_script(doc, starts, block.items[0][0], block.intro, block.heading)
        if named is None or _UNREAD.search(named):
            continue
        found = next((b / named for b in bases if os.path.isfile(b / named)), None)
        real = Path(os.path.realpath(found)) if found is not None else None
        if real is None or not real.is_relative_to(top):
            continue
        positional = known(real)
        if positional is None:
            continue
        for at, spans in items:
            options = [o for o in _OPTION.findall(spans) if not _mentions(o, positional)]
            if not options or len(options) != len(_OPTION.findall(spans)):
                continue
            shown = "/".join(options)
            yield Diagnostic(
                readme,
                at,
                f"README lists {shown} as an option of {named}, but {real.name} parses no options: "
                f"{_position_said(real.name, positional)}{_hard_coded(options[-1], real.name, positional)}",
                confidence=LIKELY,
            )


# --------------------------------------------------------------------------------------------------
# The options a script declares to `getopt` or `getopts`, against those a README gives or lists for it

_GETOPT = re.compile(r"(?:^|[\s;&|(`=\"'])getopt[ \t]+(.*)$")
"""A `getopt` command (`parameters=$(getopt -o n:t: --long name:,tag: -n "$0" -- "$@")`): its words."""
_QUOTED_ARM = re.compile(
    r"^[ \t]*\(?[ \t]*(([\"']?)-[^)\s|\"']*\2(?:[ \t]*\|[ \t]*([\"']?)-[^)\s|\"']*\3)*)[ \t]*\)"
)
"""A `case` arm of option patterns, quoted or not: `-p|--port)`, `"--port")`, `--*)`."""
_GETOPTS_CALL = re.compile(r"(?:^|[\s;&|(])getopts[ \t]+([\"']?)([^\s\"']*)\1[ \t]+\w")
"""A `getopts` command (`while getopts ":ab:c" opt`): its option string."""


@dataclass(frozen=True)
class ScriptOptions:
    """The options a shell script accepts, read from its own option parser."""

    line: int
    """The script line that declares them."""
    how: str
    """What declares them: `getopt`, `getopts`."""
    short: frozenset[str]
    """Its one-letter options (`-n`)."""
    long: frozenset[str] | None
    """Its long options (`--name`); None when any long option may be taken (`getopts "ab-:"`)."""
    values: frozenset[str]
    """Those of its options that take the next word as their value (`-n`, `--name`)."""
    prefixes: bool
    """A long option may be shortened to a prefix of one alone (`getopt`)."""
    ordered: bool
    """Options end at the first word that is none (`getopts`, `getopt -o +…`)."""
    where: tuple[tuple[str, int], ...] = ()
    """(option, script line) of each option declared on a line of its own (`add_argument`)."""
    positionals: tuple[tuple[str, int], ...] | None = None
    """(name, script line) of each positional argument an `argparse` parser declares, each taking one
    word, when every option takes one value or none; None when the words it takes cannot be counted
    (a positional or an option with `nargs` but 1, subcommands, another parser, a custom action)."""
    choices: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    """(option, script line, values) of each `argparse` option taking one word that must be one of
    the listed strings (`choices=sorted(SYSTEMS.keys())`)."""
    required: tuple[tuple[tuple[str, ...], int], ...] = ()
    """(option strings, script line) of each `argparse` option declared `required=True` (a literal), when
    the script builds one parser and no subcommands: argparse stops when a run gives none of them."""
    uncounted: frozenset[str] = frozenset()
    """The `argparse` options whose words cannot be counted (`nargs='?'`, `'*'`, `'+'`, a number, a
    custom action): a run giving one of them is not counted, a run giving none still is."""
    last: tuple[str, int, int, int | None] | None = None
    """(name, script line, fewest words, most words; None: no limit) of the `argparse` parser's last
    positional argument when it takes a varying number (`nargs='?'`, `'*'`, `'+'`), after `positionals`."""
    allowed: tuple[tuple[str, ...] | None, ...] = ()
    """The values each of `positionals` (then `last`, when it takes one word at most) must be one of
    (`choices=[…]`, read as `_choices` reads them); None for one that takes any."""
    subcommands: tuple[str, int, tuple[str, ...], bool] | None = None
    """(name argparse shows, script line, names and aliases, required) of the subcommands the parser's
    one `add_subparsers` takes, when they can all be read (literal names, the object given to no
    function, no positional argument of the parser before them)."""
    top: tuple[frozenset[str], frozenset[str]] | None = None
    """(options, those taking one word) of the parser itself, not of its subcommands: what a run may
    give before its subcommand; None when they cannot be told."""

    def takes(self, option: str) -> bool:
        """Whether the script accepts `option` (`--name`, `--name=x`, `-n`, `-nfoo`, `-rv`)."""
        name = option.split("=", 1)[0]
        if self.how == "argparse" and not name.startswith("--"):
            return True  # argparse's short options (`-lr`, `-n3`, clusters) are not read
        if name.startswith("--"):
            if self.long is None or name in self.long:
                return True
            return self.prefixes and sum(o.startswith(name) for o in self.long) >= 1
        for letter in name[1:]:  # a cluster: `-rv`, `-n3`
            if f"-{letter}" not in self.short:
                return False
            if f"-{letter}" in self.values:
                return True
        return True


def _joined_commands(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(script line, text) of each command of a script, lines ending in `\\` joined to the next; not
    comment lines."""
    start, parts = 0, list[str]()
    for number, text in enumerate(lines, start=1):
        if not parts:
            start = number
            if text.lstrip().startswith("#"):
                continue
        if text.endswith("\\"):
            parts.append(text[:-1])
            continue
        parts.append(text)
        yield start, " ".join(parts)
        parts = []
    if parts:
        yield start, " ".join(parts)


def _getopt_options(words: list[str]) -> tuple[str, list[str], bool] | None:
    """(short option string, long options, whether long ones may be written with one dash) of the words
    after `getopt`; None when they cannot be read (a variable, an unknown form)."""
    short: str | None = None
    long: list[str] = []
    alternative = False
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            break
        if word in ("-o", "--options", "-l", "--long", "--longoptions", "-n", "--name", "-s", "--shell"):
            if index >= len(words):
                return None
            value = words[index]
            index += 1
            if word in ("-o", "--options"):
                short = value
            elif word in ("-l", "--long", "--longoptions"):
                long += value.split(",")
        elif (m := re.match(r"--(options|longoptions|long|name|shell)=(.*)\Z", word)) is not None:
            if m.group(1) == "options":
                short = m.group(2)
            elif m.group(1) in ("long", "longoptions"):
                long += m.group(2).split(",")
        elif word in ("-a", "--alternative"):
            alternative = True
        elif word in ("-q", "--quiet", "-Q", "--quiet-output", "-u", "--unquoted", "-T", "--test"):
            continue
        elif word.startswith("-o") or word.startswith("-l"):
            if word.startswith("-o"):
                short = word[2:]
            else:
                long += word[2:].split(",")
        elif short is None and not word.startswith("-"):
            short = word  # `getopt ab:c "$@"`: the old form
            break
        else:
            return None
    if short is None or _UNREAD.search(short) or any(_UNREAD.search(o) for o in long):
        return None
    return short, [o for o in long if o], alternative


def _letters(optstring: str) -> tuple[set[str], set[str]]:
    """The one-letter options of a `getopt(s)` string (`n:t:vh::`) and those taking a value (`n:`)."""
    letters: set[str] = set()
    values: set[str] = set()
    for m in re.finditer(r"([A-Za-z0-9])(:{0,2})", optstring.lstrip("+-:")):
        letters.add(f"-{m.group(1)}")
        if m.group(2) == ":":
            values.add(f"-{m.group(1)}")
    return letters, values


_OTHER_PARSERS = re.compile(
    r"^[ \t]*(?:from|import)[ \t]+(?:click|typer|fire|docopt|absl|hydra|jsonargparse|tap|simple_parsing"
    r"|configargparse|omegaconf)\b|\bHfArgumentParser\b|\bparse_known(?:_intermixed)?_args\b",
    re.MULTILINE,
)
"""What makes a Python script take options its `add_argument` calls do not show: another parser (click
and typer spell `desc_act` `--desc-act`; `HfArgumentParser` takes both spellings), options passed on
(`parse_known_args`), a parent parser of another file, other option prefixes. (Options read from
`sys.argv` itself: `_reads_argv`.)"""


def _parents(tree: ast.Module) -> dict[int, ast.AST]:
    """The node holding each node of a script's tree, by the `id` of the node held."""
    parents: dict[int, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    return parents


def _reads_argv(tree: ast.Module) -> bool:
    """Whether the script reads its words from `sys.argv` other than through its parser: any use of
    `sys.argv` (or `argv` imported from `sys`) but its name (`sys.argv[0]`) and the whole list of its
    words (`sys.argv[1:]`) given to `parse_args` or to a function of the script whose parameter it
    binds is only given to `parse_args` (`main(sys.argv[1:])` with `def main(argv): …
    parser.parse_args(argv)`, or never read), or the whole list handed on so (`main(sys.argv)` with
    `def main(args): parse_args(args[1:])`)."""
    defined = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    functions = {n.name: n for n in defined}
    named = [n.name for n in defined]
    imported = any(
        isinstance(n, ast.ImportFrom) and n.module == "sys" and any(a.name == "argv" for a in n.names)
        for n in ast.walk(tree)
    )
    parents = _parents(tree)

    def parsed(node: ast.expr) -> bool:
        """`node` is an argument of a `….parse_args(…)` call."""
        call = parents.get(id(node))
        if isinstance(call, ast.keyword):
            call = parents.get(id(call))
        return (
            isinstance(call, ast.Call)
            and node is not call.func
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in ("parse_args", "parse_intermixed_args")
        )

    def words(node: ast.expr, whole: bool, depth: int) -> bool:
        """`node`, the script's words (`whole`: with its name first, as `sys.argv`), only reaches
        `parse_args`: given to it, its name and the rest split off (`argv[0]`, `argv[1:]`), or handed
        on to a function of the script that does no more with them (`main(sys.argv)` with `def
        main(args): parse_args(args[1:])`), at most a few calls deep."""
        part = parents.get(id(node))
        if whole and isinstance(part, ast.Subscript) and part.value is node:
            index = part.slice
            if isinstance(index, ast.Constant) and index.value == 0:
                return True  # the script's own name
            return (
                isinstance(index, ast.Slice)
                and isinstance(index.lower, ast.Constant)
                and index.lower.value == 1
                and index.upper is None
                and index.step is None
                and words(part, False, depth)
            )
        if not whole and parsed(node):
            return True
        call = part
        if depth > 3 or not (
            isinstance(call, ast.Call)
            and isinstance(call.func, (ast.Name, ast.Attribute))
            and node in call.args
        ):
            return False
        called = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
        function = (
            functions.get(called) if isinstance(call.func, ast.Name) or named.count(called) == 1 else None
        )
        if function is None:
            return False
        params = function.args.args
        # a method called on its object (`ESRGAN().main(sys.argv)`): its `self` is no word
        shift = (
            1 if isinstance(call.func, ast.Attribute) and params and params[0].arg in ("self", "cls") else 0
        )
        if call.args.index(node) + shift >= len(params):
            return False
        name = params[call.args.index(node) + shift].arg
        uses = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name]
        return all(isinstance(n.ctx, ast.Load) and words(n, whole, depth + 1) for n in uses)

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "argv":
            if not (isinstance(node.value, ast.Name) and node.value.id == "sys"):
                continue
        elif not (imported and isinstance(node, ast.Name) and node.id == "argv"):
            continue
        if not words(node, True, 0):
            return True
    return False


_NO_VALUE_ACTIONS = frozenset(
    {"store_true", "store_false", "store_const", "append_const", "count", "help", "version"}
)


def _python_options(path: Path) -> ScriptOptions | None:
    """The options the Python script at `path` declares to `argparse`: the literal option strings of
    its `add_argument` calls, an unambiguous prefix of a long one accepted unless a parser says
    `allow_abbrev=False`. None when it declares none, reads its options another way too
    (`_OTHER_PARSERS`), or an option string is not a literal (`*flags`, a variable).

    What a run must give (its positional arguments, their choices, its subcommands, the required
    options, the values an option's `choices` allow) is read only when the script builds one parser,
    at its top level or in a function its top level calls (`_runs`), and hands it the run's own words
    (`_parses_own_words`): otherwise the words may never reach it."""
    text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
    if text is None or "add_argument" not in text or _OTHER_PARSERS.search(text):
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if _reads_argv(tree):
        return None
    builds = _builds_parser(tree)
    builders = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and builds(n.func)]
    parsers = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and builds(node.value.func)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    prefixes = True
    for builder in builders:
        for keyword in builder.keywords:
            if keyword.arg in (None, "parents", "prefix_chars", "fromfile_prefix_chars"):
                return None
            if keyword.arg == "allow_abbrev" and not (
                isinstance(keyword.value, ast.Constant) and keyword.value.value is True
            ):
                prefixes = False
    for node in ast.walk(tree):  # a parser given to a function of another file may get more options
        if isinstance(node, ast.Call) and any(
            isinstance(a, ast.Name) and a.id in parsers
            for a in [*node.args, *(k.value for k in node.keywords)]
        ):
            return None
    short: set[str] = set()
    long: set[str] = set()
    values: set[str] = set()
    uncounted: set[str] = set()
    first = 0
    where: list[tuple[str, int]] = []
    positionals: list[tuple[str, int]] | None = []
    allowed: list[tuple[str, ...] | None] = []
    last: tuple[str, int, int, int | None] | None = None
    choices: list[tuple[str, int, tuple[str, ...]]] = []
    required: list[tuple[tuple[str, ...], int]] = []
    subcommands = False
    module = _module_values(tree)
    counted = (
        len(builders) == 1
        and _plain_builder(builders[0].func)
        and _runs(tree, builders[0])
        and _parses_own_words(tree)
    )
    top = _top_names(tree, parsers)
    top_options: set[str] | None = set()
    top_values: set[str] = set()
    top_positional = False
    calls = sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for node in calls:
        assert isinstance(node.func, ast.Attribute)
        if node.func.attr in ("add_subparsers", "add_parser"):
            positionals = None
            subcommands = True
        if node.func.attr != "add_argument":
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if len(names) != len(node.args) or any(k.arg is None for k in node.keywords):
            return None
        options = [n for n in names if n.startswith("-")]
        keywords = {k.arg: k.value for k in node.keywords}
        action = keywords.get("action")
        nargs = keywords.get("nargs")
        if _takes_the_rest(nargs):
            return None  # `nargs=REMAINDER`: the words after it, options too, are its values
        receiver = node.func.value
        on_top = isinstance(receiver, ast.Name) and receiver.id in top
        if not isinstance(receiver, ast.Name):
            top_options = None  # (`self.parser.add_argument`): whose option it is is not told
        if not options:
            top_positional = top_positional or on_top or not isinstance(receiver, ast.Name)
            span = _positional_span(action, nargs)
            if not names or span is None or (last is not None and positionals is not None):
                positionals = None  # `add_argument(dest="x")`, a custom action, one after a varying one
            elif positionals is not None:
                shown = _shown_name(names[0], keywords)
                listed = _choices(keywords, module) if action is None and span[1] == 1 else None
                if span == (1, 1):
                    positionals.append((shown, node.lineno))
                    allowed.append(listed)
                else:
                    last = (shown, node.lineno, *span)
                    allowed.append(listed)
            continue
        first = min(first or node.lineno, node.lineno)
        where += [(option, node.lineno) for option in options]
        demand = keywords.get("required")
        if isinstance(demand, ast.Constant) and demand.value is True:
            required.append((tuple(options), node.lineno))
        words = _option_words(action, nargs)
        negated = _negated(action)
        for option in options:
            spellings = [option, "--no-" + option[2:]] if negated and option.startswith("--") else [option]
            for spelled in spellings:
                (long if spelled.startswith("--") else short).add(spelled)
                if words != 0:
                    values.add(spelled)  # (one that may take a value)
                if words is None:
                    uncounted.add(spelled)
                if on_top and top_options is not None:
                    top_options.add(spelled)
                    if words == 1:
                        top_values.add(spelled)
        takes_value = words == 1 or (words is None and not negated)
        listed = _choices(keywords, module) if takes_value and nargs is None and action is None else None
        if listed:
            choices += [(option, node.lineno, listed) for option in options]
    if not first:
        return None
    short.add("-h")
    long.add("--help")
    counted_positionals = positionals is not None and counted
    return ScriptOptions(
        first,
        "argparse",
        frozenset(short),
        frozenset(long),
        frozenset(values),
        prefixes,
        False,
        tuple(where),
        tuple(positionals) if counted_positionals and positionals is not None else None,
        tuple(choices) if counted else (),
        tuple(required) if counted and not subcommands and not _fixed_words(tree) else (),
        frozenset(uncounted),
        last if counted_positionals else None,
        tuple(allowed) if counted_positionals else (),
        _subcommands(tree, top) if counted and subcommands and not top_positional else None,
        (frozenset(top_options | {"-h", "--help"}), frozenset(top_values))
        if top_options is not None
        else None,
    )


def _builds_parser(tree: ast.Module) -> Callable[[ast.expr], bool]:
    """Whether a call's function builds an `argparse` parser: `argparse.ArgumentParser`,
    `ArgumentParser`, or the name the script imports it as (`from argparse import ArgumentParser as
    AP`)."""
    aliases = {
        alias.asname
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "argparse"
        for alias in node.names
        if alias.name == "ArgumentParser" and alias.asname
    }

    def builds(func: ast.expr) -> bool:
        return ast.unparse(func).endswith("ArgumentParser") or (
            isinstance(func, ast.Name) and func.id in aliases
        )

    return builds


def _plain_builder(func: ast.expr) -> bool:
    """Whether a parser is built by `argparse`'s own class (`ArgumentParser`, `argparse.ArgumentParser`,
    an alias), not a subclass whose name ends so (`TolerantArgumentParser`: its `error` may not stop)."""
    if isinstance(func, ast.Attribute):
        return func.attr == "ArgumentParser" and isinstance(func.value, ast.Name)
    if isinstance(func, ast.Name):
        return func.id == "ArgumentParser" or not func.id.endswith("ArgumentParser")  # (or an alias)
    return False


def _shown_name(name: str, keywords: dict[str | None, ast.expr]) -> str:
    """The name argparse shows for a positional argument in its errors: its `metavar`, else its name."""
    metavar = keywords.get("metavar")
    if isinstance(metavar, ast.Constant) and isinstance(metavar.value, str) and metavar.value:
        return metavar.value
    return name


def _top_names(tree: ast.Module, parsers: set[str]) -> set[str]:
    """The names of the parser `parsers` holds (one, or none) and of its argument groups (`inputs =
    parser.add_argument_group("inputs")`): the names whose `add_argument` declares the parser's own
    arguments, not a subcommand's."""
    names = set(parsers)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr in ("add_argument_group", "add_mutually_exclusive_group")
            and isinstance(node.value.func.value, ast.Name)
            and node.value.func.value.id in parsers
        ):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _runs(tree: ast.Module, node: ast.AST) -> bool:
    """Whether running the script reaches `node`: it is outside any function, or each function holding it
    is one the script's top level (its `if __name__ == "__main__":` block too) refers to, or one such a
    function refers to, in turn (`main()` calling `parse()`); a class referred to reaches its
    `__init__`. A function only another program calls (a console script's `cli()`) is not reached."""
    parents = _parents(tree)
    holders: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    above = parents.get(id(node))
    while above is not None:
        if isinstance(above, (ast.FunctionDef, ast.AsyncFunctionDef)):
            holders.append(above)
        above = parents.get(id(above))
    if not holders:
        return True

    def referred(start: ast.AST, skip_functions: bool) -> set[str]:
        found: set[str] = set()
        todo = list(ast.iter_child_nodes(start))
        while todo:
            item = todo.pop()
            if skip_functions and isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.update(ast.unparse(d).split("(")[0].split(".")[-1] for d in item.decorator_list)
                continue
            if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Load):
                found.add(item.id)
            elif isinstance(item, ast.Attribute):
                found.add(item.attr)
            todo.extend(ast.iter_child_nodes(item))
        return found

    functions: dict[str, list[ast.AST]] = collections.defaultdict(list)
    for item in ast.walk(tree):
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[item.name].append(item)
        elif isinstance(item, ast.ClassDef):
            functions[item.name] += [
                f
                for f in item.body
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                and f.name in ("__init__", "__new__", "__call__", "__post_init__")
            ]
    reached: set[str] = set()
    running: set[int] = set()
    todo = list(referred(tree, True))
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        for function in functions.get(name, ()):
            running.add(id(function))
            todo.extend(referred(function, False))
    return all(id(holder) in running for holder in holders)


def _parses_own_words(tree: ast.Module) -> bool:
    """Whether the script's parser is given the run's words and stops the run on an error: it calls
    `parse_args` (or `parse_intermixed_args`), each time with none, `None`, `sys.argv[1:]` or a parameter
    of one of its functions (`main(argv)` handing its words on: `_reads_argv` has checked what it is
    given), and never inside a `try` that catches the `SystemExit` argparse raises."""
    parameters = {
        a.arg
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
    }
    parents = _parents(tree)
    parses = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("parse_args", "parse_intermixed_args")
    ]
    for call in parses:
        given = [*call.args, *(k.value for k in call.keywords if k.arg in ("args", None))]
        for word in given:
            if isinstance(word, ast.Constant) and word.value is None:
                continue
            if isinstance(word, ast.Name) and word.id in parameters | {"argv"}:
                continue
            if isinstance(word, ast.Subscript) and ast.unparse(word).replace(" ", "") in (
                "sys.argv[1:]",
                "argv[1:]",
            ):
                continue
            return False
        above = parents.get(id(call))
        while above is not None:
            if isinstance(above, ast.Try) and any(
                handler.type is None or _SWALLOWED.search(ast.unparse(handler.type))
                for handler in above.handlers
            ):
                return False
            above = parents.get(id(above))
    return bool(parses)


_SWALLOWED = re.compile(r"\b(?:SystemExit|BaseException)\b")
"""What an `except` catching argparse's exit names."""


def _subcommands(tree: ast.Module, top: set[str]) -> tuple[str, int, tuple[str, ...], bool] | None:
    """(name argparse shows, line, names and aliases, required) of the subcommands the parser (whose
    names are `top`) takes through its one `add_subparsers`, when every one of them can be read: the
    object it returns bound to one name, used only to `add_parser` a literal name (and `aliases`) or set
    `required`; None otherwise (the object handed to a function, a name in a variable, a loop)."""
    made = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "add_subparsers"
        and isinstance(node.value.func.value, ast.Name)
        and node.value.func.value.id in top
    ]
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "add_subparsers"
        and (not isinstance(n.func.value, ast.Name) or n.func.value.id in top)
    ]
    if len(made) != 1 or len(calls) != 1 or len(made[0].targets) != 1:
        return None
    [assign] = made
    target = assign.targets[0]
    if not isinstance(target, ast.Name) or not isinstance(assign.value, ast.Call):
        return None
    holder = target.id
    keywords = {k.arg: k.value for k in assign.value.keywords}
    if None in keywords:
        return None
    demand = keywords.get("required")
    required = isinstance(demand, ast.Constant) and demand.value is True
    parents = _parents(tree)
    names: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == holder) or node is target:
            continue
        use = parents.get(id(node))
        if not isinstance(use, ast.Attribute):
            return None  # handed on, bound again: more subcommands may be added elsewhere
        if use.attr == "required" and isinstance(use.ctx, ast.Store):
            assigned = parents.get(id(use))
            if not isinstance(assigned, ast.Assign) or not isinstance(assigned.value, ast.Constant):
                return None
            required = assigned.value.value is True
            continue
        call = parents.get(id(use))
        if use.attr != "add_parser" or not isinstance(call, ast.Call) or call.func is not use:
            if use.attr in ("metavar", "dest", "help", "title", "description"):
                continue
            return None
        if (
            not call.args
            or not isinstance(call.args[0], ast.Constant)
            or not isinstance(call.args[0].value, str)
        ):
            return None
        names.append(call.args[0].value)
        for keyword in call.keywords:
            if keyword.arg is None:
                return None
            if keyword.arg == "aliases":
                aliases = keyword.value
                if not isinstance(aliases, (ast.List, ast.Tuple)) or not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in aliases.elts
                ):
                    return None
                names += [
                    a.value for a in aliases.elts if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
    if not names:
        return None
    shown = "{" + ",".join(n for n in names) + "}"
    for key in ("metavar", "dest"):
        value = keywords.get(key)
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
            shown = value.value
            break
    return shown, assign.lineno, tuple(names), required


def _positional_span(action: ast.expr | None, nargs: ast.expr | None) -> tuple[int, int | None] | None:
    """(fewest, most; None: no limit) words a positional argument with this `action` and `nargs` takes;
    None when they cannot be told (a custom action, a number of words but 1, a variable)."""
    if action is not None and not (isinstance(action, ast.Constant) and action.value in ("store", "append")):
        return None
    if nargs is None:
        return 1, 1
    if not isinstance(nargs, ast.Constant):
        return None
    return {1: (1, 1), "?": (0, 1), "*": (0, None), "+": (1, None)}.get(nargs.value)


def _negated(action: ast.expr | None) -> bool:
    """Whether an `add_argument`'s action is `BooleanOptionalAction` (`--x` and `--no-x`)."""
    return (isinstance(action, ast.Attribute) and action.attr == "BooleanOptionalAction") or (
        isinstance(action, ast.Name) and action.id == "BooleanOptionalAction"
    )


def _option_words(action: ast.expr | None, nargs: ast.expr | None) -> int | None:
    """How many words an option with this `action` and `nargs` takes after it: 0, 1, or None when it
    cannot be told (`nargs='?'`, `'*'`, `'+'`, a number but 1, `extend`, a custom action)."""
    if _negated(action):
        return 0
    if isinstance(action, ast.Constant) and action.value in _NO_VALUE_ACTIONS:
        return 0
    if action is not None and not (isinstance(action, ast.Constant) and action.value in ("store", "append")):
        return None
    if nargs is None:
        return 1
    if isinstance(nargs, ast.Constant) and nargs.value in (0, 1):
        return 1 if nargs.value == 1 else 0
    return None


def _fixed_words(tree: ast.Module) -> bool:
    """Whether a `parse_args` call of the script is given a literal list of words (`parse_args([])`, a
    notebook's or a test's): the run's own words may never be read."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("parse_args", "parse_intermixed_args")
        and any(isinstance(a, (ast.List, ast.Tuple)) for a in [*node.args, *(k.value for k in node.keywords)])
        for node in ast.walk(tree)
    )


def _module_values(tree: ast.Module) -> dict[str, ast.expr]:
    """The value of each name a script's module level assigns once (`SYSTEMS = {…}`, `CUDA = [...]`);
    a name assigned again anywhere, or changed in place (`CUDA.append(…)`), is left out."""
    counted: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for declared in node.names:
                counted[declared] = counted.get(declared, 0) + 2
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.attr
            in ("append", "extend", "insert", "update", "add", "setdefault", "pop", "remove")
        ):
            counted[node.func.value.id] = counted.get(node.func.value.id, 0) + 2
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name):
                counted[node.value.id] = counted.get(node.value.id, 0) + 2
        for target in targets:
            for bound in ast.walk(target):
                if isinstance(bound, ast.Name):
                    counted[bound.id] = counted.get(bound.id, 0) + 1
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
    return {name: value for name, value in values.items() if counted.get(name) == 1}


def _choices(keywords: dict[str | None, ast.expr], module: dict[str, ast.expr]) -> tuple[str, ...] | None:
    """The strings an `add_argument`'s `choices=` allows, when they can be read: a literal list, tuple
    or set of strings, a module-level name bound once to one or to a dict (its keys), `sorted(…)`,
    `list(…)`, `tuple(…)`, `….keys()` around them and `+` between them. None when there are no choices,
    a `type=` other than `str` converts the word first, or a value is not a literal string."""
    kind = keywords.get("type")
    if kind is not None and not (isinstance(kind, ast.Name) and kind.id == "str"):
        return None
    given = keywords.get("choices")
    if given is None:
        return None

    def read(node: ast.expr, depth: int) -> list[str] | None:
        if depth > 6:
            return None
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            found = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            return found if len(found) == len(node.elts) else None
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            return keys if len(keys) == len(node.keys) else None
        if isinstance(node, ast.Name) and node.id in module:
            return read(module[node.id], depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = read(node.left, depth + 1), read(node.right, depth + 1)
            return left + right if left is not None and right is not None else None
        if isinstance(node, ast.Call) and not node.keywords:
            func = node.func
            if (
                isinstance(func, ast.Name)
                and func.id in ("sorted", "list", "tuple", "set")
                and len(node.args) == 1
            ):
                return read(node.args[0], depth + 1)
            if isinstance(func, ast.Attribute) and func.attr == "keys" and not node.args:
                inner = read(func.value, depth + 1)
                dict_like = isinstance(func.value, ast.Dict) or (
                    isinstance(func.value, ast.Name) and isinstance(module.get(func.value.id), ast.Dict)
                )
                return inner if dict_like else None
        return None

    found = read(given, 0)
    return tuple(dict.fromkeys(found)) if found else None


def _takes_the_rest(nargs: ast.expr | None) -> bool:
    """Whether an `add_argument`'s `nargs` is `argparse.REMAINDER` (`"..."`) or `PARSER` (`"A..."`)."""
    if isinstance(nargs, ast.Attribute):
        return nargs.attr in ("REMAINDER", "PARSER")
    if isinstance(nargs, ast.Name):
        return nargs.id in ("REMAINDER", "PARSER")
    return isinstance(nargs, ast.Constant) and nargs.value in ("...", "A...")


@per_audit(maxsize=64)
def script_options(path: Path) -> ScriptOptions | None:
    """The options the shell script at `path` declares to its one option parser, reading its own
    arguments: a single `getopt -o … --long …` of `"$@"` (its short string and its `--long`, `-l` or
    `--longoptions` list; a long option may be shortened), or a single `getopts "ab:c"` string, with the
    options of the script's `case` arms (`--help)`: long options turned into short ones before it) and
    any long option when the string takes `-` (`getopts "ab-:"`). None when the script has no such
    parser, two of them, or one that cannot be read (a variable in the option string, `getopt -a`)."""
    lines = script_lines(path)
    text = "\n".join(lines)
    if path.suffix == ".py" or re.match(r"#![^\n]*\bpython", text):
        return _python_options(path)
    if not (path.suffix in (".sh", ".bash") or _SHELL.match(text)) or "getopt" not in text:
        return None
    found: list[ScriptOptions] = []
    arms: set[str] = set()
    for number, command in _joined_commands(lines):
        if (arm := _QUOTED_ARM.match(command)) is not None:
            arms.update(o.strip().strip("\"'") for o in arm.group(1).split("|"))
        if (call := _GETOPTS_CALL.search(command)) is not None:
            if _UNREAD.search(call.group(2)):
                return None
            letters, values = _letters(call.group(2))
            any_long = "-" in call.group(2).lstrip("-:")
            found.append(
                ScriptOptions(
                    number,
                    "getopts",
                    frozenset(letters),
                    None if any_long else frozenset(),
                    frozenset(values),
                    False,
                    True,
                )
            )
        elif (getopt := _GETOPT.search(command)) is not None:
            rest = re.split(r"[ \t]--[ \t]", getopt.group(1) + " ", maxsplit=1)
            if len(rest) < 2 or not re.match(r"[ \t]*\"?\$[{]?[@*]", rest[1]):
                return None  # not the script's own arguments
            try:
                words = shell_split(rest[0])
            except ValueError:
                return None
            read = _getopt_options(words)
            if read is None or read[2]:
                return None
            letters, values = _letters(read[0])
            longs = frozenset(f"--{o.rstrip(':')}" for o in read[1])
            values |= {f"--{o[:-1]}" for o in read[1] if o.endswith(":") and not o.endswith("::")}
            ordered = read[0].startswith("+")
            found.append(
                ScriptOptions(number, "getopt", frozenset(letters), longs, frozenset(values), True, ordered)
            )
    if len(found) != 1:
        return None
    declared = found[0]
    if declared.how == "getopts" and declared.long is not None:
        extra = {a for a in arms if re.fullmatch(r"--?[A-Za-z0-9][\w-]*", a)}
        long: frozenset[str] | None = declared.long | {a for a in extra if a.startswith("--")}
        short = declared.short | {a for a in extra if not a.startswith("--")}
        if any(not re.fullmatch(r"--?[A-Za-z0-9][\w-]*", a) for a in arms if a.startswith("--")):
            long = None  # `--tag=*)`: long options read another way
        declared = ScriptOptions(
            declared.line, "getopts", frozenset(short), long, declared.values, False, True
        )
    return declared


def _refusal(word: str, script: str, declared: ScriptOptions) -> str:
    """`build.sh does not accept it: its getopt (build.sh:48) declares --python_verison, not
    --python_version` when a declared long option is close to the word, else the options it takes."""
    at = f"{script}:{declared.line}"
    if word.startswith("--") and declared.long is not None:
        key = word.replace("_", "-")
        spelled = [o for o in sorted(declared.long) if o.replace("_", "-") == key]
        if spelled:
            at = f"{script}:{dict(declared.where).get(spelled[0], declared.line)}"
            return (
                f"{script} does not accept it: its {declared.how} ({at}) declares {spelled[0]}, not {word} "
                f"({declared.how} does not read `-` and `_` alike)"
            )
        close = difflib.get_close_matches(word, sorted(declared.long), n=1, cutoff=0.8)
        if close:
            return f"{script} does not accept it: its {declared.how} ({at}) declares {close[0]}, not {word}"
    options = sorted(declared.short) + sorted(declared.long or ())
    shown = ", ".join(options[:12]) + (", …" if len(options) > 12 else "")
    return f"{script} does not accept it: its {declared.how} ({at}) takes {shown}"


def _given_options(words: list[str], declared: ScriptOptions) -> Iterator[str]:
    """The options among the words a command gives a script, as its parser reads them: up to `--` (or
    the first other word, for `getopts`), the value of an option that takes one skipped."""
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in ("--", "&&", ";", "||"):
            return
        if not word.startswith("-") or word == "-":
            if declared.ordered:
                return
            continue
        name = word.split("=", 1)[0]
        yield word
        if name in declared.values and "=" not in word and (name.startswith("--") or len(name) == 2):
            index += 1


_LABELLED_RUN = re.compile(
    r"(?:^|[\s(])(?:\d+\.[ \t]*)?(?:[Rr]un|[Ee]xample|e\.g\.|[Uu]sage)[ \t]*:[ \t]*"
    r"(python[\d.]*[ \t]+[\w./-]+\.py(?:[ \t]+[^\s,;`]+)*)[ \t]*[,;\\]?[ \t]*$"
)
"""A Python run written in prose after a label, ending its line: `example: python dup.py 24 /data/,`,
`4.run: python train.py --epochs 3\\`."""


def _labelled_runs(doc: Document) -> list[Fence]:
    """A one-line block of each Python run a prose line ends with after a label (`_LABELLED_RUN`), for the
    rules that read its words: a README with no code block writes its examples so."""
    found = []
    for para in doc.paragraphs:
        for number, text in para.lines:
            if "python" in text and (run := _LABELLED_RUN.search(text)) is not None:
                command = run.group(1).rstrip("\\").rstrip()  # a line break's `\\`
                found.append(Fence("bash", [(number, command)], para.section, inline=True))
    return found


def _positional_words(words: list[str], declared: ScriptOptions) -> list[str] | None:
    """The words a command gives a Python script that its `argparse` parser reads as positional
    arguments (no option, nor an option's value); None when they cannot be counted: the parser's
    positionals are not known, a word may be several or none (a variable, a placeholder, a glob), a
    word may be a negative number or asks for help, an option is not one the parser declares whole
    (a prefix, a bundle of short options) or takes words that cannot be counted (`nargs='?'`), or
    options come between the words while the last positional argument takes a varying number of
    them (argparse may give it none at the first option: `a --x 1 b` leaves `b` over)."""
    if declared.positionals is None:
        return None
    given: list[str] = []
    runs = 0
    after_option = True
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in ("&&", ";", "||", "|", "&"):
            break
        if _UNREAD.search(word) or "…" in word or re.match(r"-\.?\d", word) or word in ("-h", "--help"):
            return None
        if word == "--":
            given += words[index:]
            runs += 1
            break
        if not word.startswith("-") or word == "-":
            runs += after_option
            after_option = False
            given.append(word)
            continue
        name = word.split("=", 1)[0]
        if name not in declared.short | (declared.long or frozenset()) or name in declared.uncounted:
            return None  # a prefix, `-n3`, a bundle, `--tags a b`: not read here
        after_option = True
        if name in declared.values and "=" not in word:
            index += 1
    if declared.last is not None and runs > 1:
        return None
    return given


def undeclared_options(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """Options a README gives or lists for a shell script that its `getopt` or `getopts` does not
    declare (`script_options`): a command block running it with one (`./build.sh --python_version 3.10`,
    one finding a command), and an option of a list or a table of its options (items or first cells
    starting with options in code, `` * `-v`/`--python_version`: … ``, under an introduction or heading
    naming the script, at least two of them ones the script declares): the parser refuses it (`certain`:
    read from the script's own option list). Not an option with a variable, nor one after `--`.

    A Python script's options are those of its `argparse` parser (`_python_options`): a run of it
    (`python3 quantize.py --desc-act`) or a list naming it, and a list about no script by name when the
    image's ENTRYPOINT or CMD starts the script with Python and the README names it: then only an option
    spelled with `-` where the parser declares `_` (or the reverse) is reported, the list may hold the
    options of `docker run` or another program too."""
    read: dict[Path, ScriptOptions | None] = {}

    def known(script: Path) -> ScriptOptions | None:
        if script not in read:
            read[script] = script_options(script)
        return read[script]

    labelled = replace(doc, fences=[*doc.fences, *_labelled_runs(doc)])
    held = placeholder_lines(labelled)
    for line, path, script, words in found_scripts(labelled, directory, audited, project, python=True):
        declared = known(script)
        complete = line not in held
        said = (
            run_refusal(path, script.name, words, declared, complete)
            if declared and words is not None
            else None
        )
        if said is not None:
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
    top = project_top(directory, project)
    bases = run_folders(directory, audited, top)
    starts = [at for at, _ in doc.headings]
    groups: list[tuple[int, str, str, list[tuple[int, list[str]]]]] = []
    for block in lists(doc):
        items = [
            (at, _OPTION.findall(m.group(1))) for at, text in block.items if (m := _ITEM_SPANS.match(text))
        ]
        if len(items) >= 2 and len(items) == len(block.items):
            groups.append((block.items[0][0], block.intro, block.heading, items))
    for table in doc.tables:
        cells = [(at, row[0].strip()) for at, row in table.rows if row]
        items = [(at, _OPTION.findall(m.group(1))) for at, cell in cells if (m := _CELL_SPANS.match(cell))]
        if len(items) >= 2 and len(items) == len(cells):
            groups.append((table.rows[0][0], table.context, "", items))
    entry = _entry_script(doc, models, top) if groups else None
    for first, intro, heading, items in groups:
        named = _named_script(doc, starts, first, intro, heading, _PY_NAME)
        if named is not None and _UNREAD.search(named):
            continue
        found = next((b / named for b in bases if os.path.isfile(b / named)), None) if named else None
        real = Path(os.path.realpath(found)) if found is not None else None
        spelling_only = False
        if named is None and entry is not None:
            named, real, spelling_only = entry[0], entry[1], True
        if named is None or real is None or not real.is_relative_to(top):
            continue
        declared = known(real)
        if declared is None or sum(any(declared.takes(o) for o in options) for _, options in items) < 2:
            continue
        for at, options in items:
            refused = [
                o for o in options if not declared.takes(o) and (not spelling_only or _respelled(o, declared))
            ]
            if not refused:
                continue
            yield Diagnostic(
                readme,
                at,
                f"README lists {refused[0]} as an option of {named}, but "
                f"{_refusal(refused[0], real.name, declared)}",
                confidence=CERTAIN,
            )


def run_refusal(
    path: str, script: str, words: list[str], declared: ScriptOptions, complete: bool = True
) -> str | None:
    """What the parser `declared` of the script `script` (run as `path`) refuses of the words a command
    gives it: its first option the parser does not declare, else an option's or a positional
    argument's value its `choices` leave out, else a subcommand it does not have, else positional
    words beyond those an `argparse` parser takes, else (when the words are `complete`: no placeholder
    was cut off them) the required options, positional arguments or subcommand they leave out; None
    when it takes them."""
    for word in _given_options(words, declared):
        name = word.split("=", 1)[0]
        if _UNREAD.search(name) or declared.takes(word):
            continue
        return f"README runs {path} with {name}, but {_refusal(name, script, declared)}"
    refused = _refused_choice(words, declared)
    if refused is not None:
        option, value, line, allowed = refused
        return (
            f"README runs {path} with {option} {value}, but its argparse ({script}:{line}) allows only "
            f"{_listed(allowed)} for {option}, so it exits with \"invalid choice: '{value}'\""
        )
    command = _subcommand_word(words, declared)
    subcommands = declared.subcommands
    if command is not None and subcommands is not None:
        shown, line, commands, _ = subcommands
        return (
            f"README runs {path} with the subcommand {command}, but its argparse ({script}:{line}) has only "
            f"{_listed(commands)}, so it exits with \"argument {shown}: invalid choice: '{command}'\""
        )
    given = _positional_words(words, declared)
    if given is not None:
        for name, line, value, allowed in _chosen(given, declared):
            return (
                f"README runs {path} with {value} as its {name} argument, but its argparse ({script}:{line}) "
                f"allows only {_listed(allowed)} for {name}, so it exits with "
                f"\"argument {name}: invalid choice: '{value}'\""
            )
    most = _most_positionals(declared)
    if given is not None and most is not None and len(given) > most:
        return _too_many(path, script, given, declared, most)
    missing = _missing_required(words, declared, given) if complete else []
    if complete and subcommands is not None and subcommands[3] and _no_subcommand(words, declared):
        missing.append((subcommands[0], subcommands[1]))
    if missing:
        names = [name for name, _ in missing]
        at = ", ".join(f"{script}:{line}" for line in dict.fromkeys(line for _, line in missing))
        return (
            f"README runs {path} with no {' or '.join(names)}, but its argparse ({at}) requires "
            f'{"them" if len(names) > 1 else "it"}, so it exits with "the following arguments are required: '
            f'{", ".join(names)}"'
        )
    return None


def _listed(values: Sequence[str]) -> str:
    """The first values of a list, for a message: `a, b, c, …`."""
    shown = list(values)
    return ", ".join(shown[:8]) + (", …" if len(shown) > 8 else "")


def _names_a_value(value: str, allowed: Sequence[str]) -> bool:
    """Whether a word stands for a value the reader picks rather than being one (`OS_NAME`,
    `your_choice`): not one of the `allowed` ones a script compares it with."""
    if value in allowed:
        return False
    return (
        re.fullmatch(r"[A-Z][A-Z0-9_]+", value) is not None
        or re.match(r"(?i)(?:your|my)[_-]|choice\Z", value) is not None
    )


def _chosen(given: list[str], declared: ScriptOptions) -> Iterator[tuple[str, int, str, tuple[str, ...]]]:
    """(name, script line, word, allowed values) of each positional word a run gives that the `choices`
    of the positional argument taking it leave out; not a word naming the argument itself, as a usage
    line writes it (`model`, `dataset_name` for `dataset`)."""
    taking = list(declared.positionals or ())
    if declared.last is not None and declared.last[3] == 1:
        taking.append(declared.last[:2])
    for (name, line), allowed, value in zip(taking, declared.allowed, given, strict=False):
        if not allowed or value in allowed or _names_a_value(value, allowed):
            continue
        if name.lower().replace("-", "_") in value.lower().replace("-", "_"):
            continue
        yield name, line, value, allowed


def _most_positionals(declared: ScriptOptions) -> int | None:
    """How many positional words the `argparse` parser takes at most; None when there is no limit or
    it is not known."""
    if declared.positionals is None:
        return None
    if declared.last is None:
        return len(declared.positionals)
    more = declared.last[3]
    return None if more is None else len(declared.positionals) + more


_COMMAND_WORDS = frozenset({"command", "cmd", "subcommand", "action", "task", "mode", "verb"})
"""Words a usage line writes for the subcommand the reader picks (`python tool.py command`)."""


def _before_subcommand(words: list[str], declared: ScriptOptions) -> tuple[bool, str | None]:
    """(whether the words can be read, the first positional word) of a run of a script whose `argparse`
    parser takes subcommands: its options before it are the parser's own, whole, each with its value;
    not read when a word may be several or none, asks for help, or stands for what a usage line leaves
    to the reader (`...`)."""
    if declared.subcommands is None or declared.top is None:
        return False, None
    options, values = declared.top
    ended = next((i for i, w in enumerate(words) if w in ("&&", ";", "||", "|", "&")), len(words))
    words = words[:ended]
    if any("..." in w or "…" in w for w in words):
        return False, None
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if _UNREAD.search(word) or word in ("-h", "--help", "--version", "-V", "--") or word.startswith("@"):
            return False, None
        if word.startswith("-") and word != "-":
            name = word.split("=", 1)[0]
            if name not in options or name in declared.uncounted:
                return False, None
            if name in values and "=" not in word:
                index += 1
            continue
        return True, word
    return True, None


def _subcommand_word(words: list[str], declared: ScriptOptions) -> str | None:
    """The subcommand a run gives an `argparse` script that its parser does not have (`trian` where it
    has `train`); None when it has it or the words cannot be read so."""
    read, word = _before_subcommand(words, declared)
    if not read or word is None or declared.subcommands is None:
        return None
    names = declared.subcommands[2]
    if word in names or word.lower() in _COMMAND_WORDS or _names_a_value(word, names):
        return None
    return word


def _no_subcommand(words: list[str], declared: ScriptOptions) -> bool:
    """Whether a run of an `argparse` script with subcommands gives none (only its own options)."""
    read, word = _before_subcommand(words, declared)
    return read and word is None


_PLACEHOLDER = re.compile(r"<[\w.-][\w. -]*>")
"""A placeholder the reader fills in (`<options>`): the shell would read it as a redirection, so the words
handed on end before it."""


def placeholder_lines(doc: Document) -> set[int]:
    """The README lines starting a command of a block (lines joined by `\\`) that holds a placeholder."""
    found: set[int] = set()
    for fence in doc.fences:
        start = 0
        continued = False
        for number, text in fence.lines:
            if not continued:
                start = number
            if _PLACEHOLDER.search(text):
                found.add(start)
            continued = text.rstrip().endswith("\\")
    return found


def _missing_required(
    words: list[str], declared: ScriptOptions, given: list[str] | None
) -> list[tuple[str, int]]:
    """(name as argparse shows it, script line) of each required option (`required=True`) the words a
    command gives an `argparse` script leave out, then each positional argument they leave out (when
    they can be counted: `given`). [] when a word may give one unseen: a variable, a placeholder, a
    glob, `-h`/`--help`/`--version` (the script answers and stops), `@file`, or an option spelled in a
    way argparse may read as one of them (a prefix of a long option)."""
    taken: list[str] = []
    for word in words:
        if word in ("&&", ";", "||", "|", "&"):
            break
        if _UNREAD.search(word) or word in ("-h", "--help", "--version", "-V") or word.startswith("@"):
            return []
        taken.append(word.split("=", 1)[0])
    missing: list[tuple[str, int]] = []
    for options, line in declared.required:

        def gives(word: str, options: tuple[str, ...] = options) -> bool:
            for option in options:
                if word == option:
                    return True
                if option.startswith("--"):
                    if (
                        word.startswith("--")
                        and len(word) > 3
                        and option.startswith(word)
                        and declared.prefixes
                    ):
                        return True
                elif len(option) == 2 and word.startswith(option) and not word.startswith("--"):
                    return True  # `-iin.tif`: a short option with its value
            return False

        if not any(gives(word) for word in taken):
            missing.append(("/".join(options), line))
    if given is not None and declared.positionals is not None:
        fixed = declared.positionals
        missing += list(fixed[len(given) :])
        if declared.last is not None and declared.last[2] > 0 and len(given) <= len(fixed):
            missing.append(declared.last[:2])
    return missing


def _refused_choice(
    words: list[str], declared: ScriptOptions
) -> tuple[str, str, int, tuple[str, ...]] | None:
    """(option, value, script line, allowed values) of the first option a command gives an `argparse`
    script with a value its `choices` do not list (`--os centos7` where it allows `centos7-x86_64`);
    not a value with a variable or a placeholder, nor a shortened option."""
    if not declared.choices:
        return None
    allowed = {option: (line, values) for option, line, values in declared.choices}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in ("--", "&&", ";", "||", "|"):
            return None
        name, equals, value = word.partition("=")
        if name not in allowed:
            continue
        if not equals:
            if index >= len(words):
                return None
            value = words[index]
            index += 1
        line, values = allowed[name]
        if _names_a_value(value, values):
            continue  # `--os OS_NAME`: a name for the value the reader picks
        if value and value not in values and not _UNREAD.search(value) and not value.startswith("-"):
            return name, value, line, values
    return None


def _too_many(path: str, script: str, given: list[str], declared: ScriptOptions, most: int) -> str:
    """`README runs x.py with 2 positional arguments (24 /data), but its argparse (x.py:9) declares one,
    amount, so it exits with "unrecognized arguments: /data"`."""
    taken = list(declared.positionals or ())
    if declared.last is not None:
        taken.append((f"{declared.last[0]} (optional)", declared.last[1]))
    extra = given[most:]
    named = ", ".join(name for name, _ in taken)
    count = {0: "none", 1: "one"}.get(len(taken), str(len(taken)))
    at = f"{script}:{taken[0][1]}" if taken else f"{script}:{declared.line}"
    said = " ".join(given[:4]) + (" …" if len(given) > 4 else "")
    shown = " ".join(extra[:3]) + (" …" if len(extra) > 3 else "")
    return (
        f"README runs {path} with {len(given)} positional argument{'s' if len(given) > 1 else ''} ({said}), "
        f"but its argparse ({at}) declares {count}{', ' + named if named else ''}, so it exits with "
        f'"unrecognized arguments: {shown}"'
    )


def _respelled(option: str, declared: ScriptOptions) -> bool:
    """Whether a long option the parser refuses is one it declares with `_` for `-` (or the reverse)."""
    key = option.split("=", 1)[0].replace("_", "-")
    return key.startswith("--") and any(o.replace("_", "-") == key for o in declared.long or ())


def _entry_script(doc: Document, models: Sequence[ImageModel], top: Path) -> tuple[str, Path] | None:
    """(name, build-context file) of the one Python script the images' ENTRYPOINT (else CMD) starts,
    when the README names it (`the entry point runs `quantize.py``); None otherwise."""
    found: dict[Path, str] = {}
    for model in models:
        started = started_script(model)
        local = script_file(model, started) if started else None
        if started is None or local is None or not os.path.isfile(local):
            continue
        real = Path(os.path.realpath(local))
        if real.is_relative_to(top):
            found[real] = posixpath.basename(started)
    if len(found) != 1:
        return None
    [(real, name)] = found.items()
    said = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
    if not any(said.search(text) for para in doc.paragraphs for _, text in para.lines):
        return None
    return name, real


_ITEM_SPANS = re.compile(
    r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*)?((?:`-[^`]*`(?:\*\*)?[ \t]*(?:[/,|][ \t]*|or[ \t]+)?(?:\*\*)?)+)"
)
"""The options in code a list item starts with: `` - `-v`/`--python_version`: … ``, `` * `-p, --port`: ``."""
_CELL_SPANS = re.compile(
    r"(?:\*\*)?((?:`-[^`]*`(?:\*\*)?[ \t]*(?:[/,|][ \t]*|or[ \t]+|<br>[ \t]*)?(?:\*\*)?)+)"
)
"""The options in code a table's first cell starts with: `` `-t`, `--tag` ``."""


# --------------------------------------------------------------------------------------------------
# The Python script an image starts

_PYTHON_PROGRAM = re.compile(r"(?:.*/)?python[\d.]*\Z")
_ARCHIVE = re.compile(r"(?:.*/)?([\w.-]+?)\.(?:tar\.gz|tgz|tar\.bz2|tar\.xz|tar)\Z")


def started_script(model: ImageModel) -> str | None:
    """The image path of the `.py` file the last ENTRYPOINT (else CMD) of the image runs with Python."""
    labels = {stage.label for stage in model.chain()}
    last: dict[str, str] = {}
    for setting in model.settings:
        if setting.keyword in ("ENTRYPOINT", "CMD") and setting.stage in labels:
            last[setting.keyword] = setting.value.strip()
    text = last.get("ENTRYPOINT") or last.get("CMD")
    if text is None:
        return None
    if text.startswith("["):
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return None
        if not isinstance(parsed, list):
            return None
        words = [str(word) for word in parsed]
    else:
        words = text.split()
    if len(words) < 2 or not _PYTHON_PROGRAM.fullmatch(words[0]):
        return None
    script = next((w for w in words[1:] if not w.startswith("-")), "")
    return script if script.endswith(".py") and posixpath.isabs(script) else None


def script_file(model: ImageModel, path: str) -> Path | None:
    """The build-context file the image has at `path`: one a COPY puts there, or one of the folder an
    archive it copies (and names after that folder) was made from."""
    if not model.file:
        return None
    folder = Path(model.file).parent
    for copy in model.context_copies:
        dest = copy.dest.strip("\"'")
        for source in copy.sources:
            source = source.strip("\"'")
            if dest.endswith("/"):
                if path == dest + posixpath.basename(source):
                    return folder / source
                archive = _ARCHIVE.fullmatch(source)
                if archive is not None and path.startswith(dest + archive.group(1) + "/"):
                    inside = path[len(dest) :]
                    local = folder / posixpath.dirname(source) / inside
                    return local if os.path.isfile(local) else None
            elif dest == path:
                return folder / source
    return None


# --------------------------------------------------------------------------------------------------
# Options prose names in code for the script the README runs

_BARE_RUN = re.compile(r"^[ \t]*(?:\$[ \t]+)?((?:[\w.-]+/)*[\w-][\w.-]*\.py)(?=[ \t]|$)")
"""A Python script in the place of the command, by its bare name (`main.py input output --model m`)."""
_PROSE_OPTION = re.compile(r"--[A-Za-z][\w-]*\Z")


def _squashed(option: str) -> str:
    """A long option with its `-` and `_` left out: `--pre-filter` and `--prefilter` alike."""
    return option[2:].replace("-", "").replace("_", "").lower()


def prose_options(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A long option prose names in code (`` pre-filter (``--pre-filter``) ``) that no script the README
    runs declares, while exactly one of them declares it spelled without a `-` or `_` of it
    (`--prefilter`): that script's parser refuses the spelling the README teaches (`certain`: the
    parser's own option list). The scripts are those the README's command blocks run, by a path
    (`./x.py`), by Python (`python3 x.py`) or by a bare name at the start of a line (`main.py input …`)
    found beside the README; their parsers are read by `script_options`."""
    top = project_top(directory, project)
    scripts: dict[Path, str] = {}
    for _, path, script, _ in script_runs(doc, directory, audited, project, python=True):
        scripts.setdefault(script, path)
    for fence in doc.fences:
        for _, text in fence.lines:
            bare = _BARE_RUN.match(text)
            if bare is None or "/" in bare.group(1) and bare.group(1).startswith(".."):
                continue
            local = directory / bare.group(1)
            if os.path.isfile(local):
                real = Path(os.path.realpath(local))
                if real.is_relative_to(top):
                    scripts.setdefault(real, bare.group(1))
    if not scripts:
        return
    declared = {s: o for s in scripts if (o := script_options(s)) is not None and o.long is not None}
    if not declared:
        return
    code_words = {w for fence in doc.fences for _, text in fence.lines for w in text.split()}
    seen: set[str] = set()
    for para in doc.paragraphs:
        for number, text in para.lines:
            if "--" not in text:
                continue
            for _, _, content in code_spans(text):
                option = content.strip()
                if not _PROSE_OPTION.fullmatch(option) or option in seen or option in code_words:
                    continue
                if any(o.takes(option) for o in declared.values()):
                    continue
                near = [
                    (s, d)
                    for s, o in declared.items()
                    for d in sorted(o.long or ())
                    if _squashed(d) == _squashed(option)
                ]
                if len(near) != 1:
                    continue
                seen.add(option)
                script, spelled = near[0]
                options = declared[script]
                at = f"{script.name}:{dict(options.where).get(spelled, options.line)}"
                yield Diagnostic(
                    readme,
                    number,
                    f"README names the option {option} of {scripts[script]}, but its {options.how} ({at}) "
                    f"declares {spelled}, not {option}: the script refuses the spelling the README gives",
                    confidence=CERTAIN,
                )


# --------------------------------------------------------------------------------------------------
# A brace expansion in the value of an option taking one

_BRACED = re.compile(r"(?<!\$)\{([^{}\s,]*(?:,[^{}\s,]*)+)\}")
"""A brace expansion (`{cpu,gpu}`), not a `${…}`: bash makes one word of each of its alternatives."""
_OPTION_WORD = re.compile(r"--?[A-Za-z][\w-]*\Z")
_USAGE = re.compile(r"[ \t]*(?:usage|options|optional arguments|positional arguments)[ \t]*:", re.IGNORECASE)
"""A line of a program's help output: its block shows what the program takes, not a command."""
_SHELL_LANGS = frozenset({"", "bash", "sh", "shell", "console", "shell-session", "zsh", "text", "none"})


_OPERAND_COMMANDS = frozenset(
    "mkdir cp mv rm rmdir touch ls cat chmod chown chgrp ln tar rsync scp zip unzip git echo printf find "
    "du wc head tail diff install sed grep sort tee xargs wget curl".split()
)
"""Commands that take any number of operands: braces after their flags are meant to make several."""


def _operand_command(before: list[str]) -> bool:
    """Whether the command the option belongs to (the first word after the last `&&`, `;`, `|`, `sudo`)
    is one taking many operands (`_OPERAND_COMMANDS`)."""
    start = max((i + 1 for i, w in enumerate(before) if w in ("&&", "||", ";", "|", "sudo")), default=0)
    return start < len(before) and posixpath.basename(before[start]) in _OPERAND_COMMANDS


def _brace_words(word: str, brace: re.Match[str]) -> list[str]:
    """The words bash makes of `word` by its first brace expansion: `a_{x,y}.c` → `a_x.c`, `a_y.c`."""
    head, tail = word[: brace.start()], word[brace.end() :]
    return [head + alternative + tail for alternative in brace.group(1).split(",")]


def _variant_words(image: str) -> set[str]:
    """The words of an image reference's name and tag (`deepinsight/mms_cpu:1` → deepinsight, mms, cpu, 1)."""
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+", image) if w}


def braced_values(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """An option given its value as a brace expansion (`--mms-config /models/mms_app_{cpu,gpu}.conf`):
    bash makes one word of each alternative, so the option takes the first and the others are stray
    arguments. `certain` where the option is known to take one word: docker's own option of a `docker
    run` (`-v /data/{a,b}:/data`: the second word is taken as the image), an option of a project script
    whose `argparse` parser takes one word for each of its options (its extra positional arguments are
    refused), or the command of a `docker run` whose image names one of the alternatives (`mms_cpu`
    given `{cpu,gpu}`: the other is another image's value); `likely` for another program, whose option
    may take several words. Not a value in quotes (no expansion there), a value that is the braces alone
    (`--language {en,de}`: the choices, as a usage line writes them), a block of help output (`usage:`,
    `options:`), `--name=x{a,b}` (two options), a script option taking several words (`nargs`), nor, for
    another program, a short option (`mkdir -p out/{a,b}`) or a command taking many operands."""
    top = project_top(directory, project)
    walk = Walk(run_folders(directory, audited, top), top, home=True)
    shell_fences = [
        f
        for f in doc.fences
        if f.lang.lower() in _SHELL_LANGS and not any(_USAGE.match(t) for _, t in f.lines)
    ]
    for line, step in walk.steps(shell_fences, joined=True):
        if "{" not in step or "," not in step:
            continue
        words = re.split(r"[ \t]+#", step, maxsplit=1)[0].split()
        for index in range(len(words) - 1):
            option, value = words[index], words[index + 1]
            if not _OPTION_WORD.fullmatch(option) or re.search(r"[\"'`\\]|\$\{", value):
                continue
            brace = _BRACED.search(value)
            if brace is None or brace.group() == value:
                continue  # `--language {en,de}`: the choices as a usage line writes them, a placeholder
            split = _brace_words(value, brace)
            said = self_said = None
            confidence = LIKELY
            docker_at = next(
                (
                    i
                    for i in range(index)
                    if words[i] in ("docker", "podman") and words[i + 1 : i + 2] == ["run"]
                ),
                None,
            )
            if docker_at is not None:
                run = run_command(words[docker_at + 2 :])
                if run is not None and (option, value) in run[2]:
                    confidence = CERTAIN
                    self_said = (
                        f"docker run takes one value for {option}, so it reads {split[1]} as the image"
                    )
                elif run is not None:
                    image = run[0]
                    alternatives = [a.lower() for a in brace.group(1).split(",")]
                    named = _variant_words(image)
                    if any(a in named for a in alternatives) and any(a not in named for a in alternatives):
                        confidence = CERTAIN
                        hit = next(a for a in alternatives if a in named)
                        said = f"the run's image {image} names {hit} alone"
            if self_said is None:
                for _, path, script, rest in script_runs(
                    replace(doc, fences=[Fence("bash", [(line, step)])]),
                    directory,
                    audited,
                    project,
                    python=True,
                ):
                    declared = script_options(script)
                    if declared is None or option not in rest.split():
                        continue
                    if (
                        declared.how == "argparse"
                        and declared.positionals is not None
                        and option in declared.values
                        and option not in declared.uncounted
                    ):
                        confidence = CERTAIN
                        self_said = f"{path}'s argparse takes one value for {option}, and refuses {split[1]}"
                    else:
                        self_said = ""  # a script whose option may take several words
                if self_said == "":
                    continue
            if confidence == LIKELY and (not option.startswith("--") or _operand_command(words[:index])):
                continue  # `mkdir -p out/{a,b}`: a flag, and a command taking many operands
            shown = " ".join(split[:3]) + (" …" if len(split) > 3 else "")
            why = self_said or (
                f"{option} takes {split[0]} and {' '.join(split[1:])} "
                f"{'is a stray argument' if len(split) == 2 else 'are stray arguments'}"
                + (f" ({said}: the command as written cannot be right for it)" if said else "")
            )
            yield Diagnostic(
                readme,
                line,
                f"README passes {option} {value}, but bash expands the braces into {len(split)} words "
                f"({shown}): {why}",
                confidence=confidence,
            )
