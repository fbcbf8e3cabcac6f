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

import dataclasses
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from docgen.build_scripts import BUILD
from docgen.shell import DECLARE, NAME, sh_code, sh_words

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
_EXEC = re.compile(
    r"(?:^|[;&|)][ \t]*|\b(?:then|do|else)[ \t]+)exec[ \t]+(?:-[acl]+[ \t]+)*(?![0-9]*[<>]|&>)[^\s<>;&|]"
)
"""`exec` of a command (`exec "$@"`, `exec python main.py`), not of redirections (`exec >log 2>&1`)."""
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


_ENV_FILE_NAME = re.compile(r"(?:\A|\.)env(?:\.[\w.-]+)?\Z|\A\.?env\.", re.IGNORECASE)
"""The name of an env file or its template (`.env`, `.env.example`, `prod.env`, `env.sample`)."""
_ENV_FILE_LINE = re.compile(r"[ \t]*(?:(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*=.*|#.*)?")
"""A line an env file may hold: `NAME=value` (maybe exported), a comment, nothing."""


def env_file(name: str, text: str | None) -> bool:
    """True when the file named `name` is an env file or its template: named so (`.env`, `.env.local`,
    `prod.env`, `env.sample`; not a script, `env.sh`) and, when its `text` is known, every line of it
    an assignment, a comment or blank. It sets variables and does nothing else: it reads none of them
    and leaves a script's arguments alone."""
    return (
        _ENV_FILE_NAME.search(name) is not None
        and not name.endswith((".sh", ".bash", ".py"))
        and (text is None or all(_ENV_FILE_LINE.fullmatch(line) for line in text.splitlines()))
    )


def overrides(
    text: str, exists: Callable[[str], bool] | None, read: Callable[[str], str | None]
) -> dict[str, Override]:
    """NAME → how the shell script `text` sets NAME before it reads it (see the module docstring).
    `exists(path)` tells whether a file the script names (as written) is in the folder it runs in
    (None: no file is known, as for a script run in a container, so every file test is a condition
    some runs skip); `read(path)` gives such a file's text (None when it cannot be read). After a
    `cd`, files are not looked up (the folder is no longer known) and no `source` counts. An `exec` of
    a command (not one of redirections only) ends the script: nothing after it runs."""
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
        known = not moved and exists is not None
        if (branch := _IF.match(line)) is not None:
            outcome = known and exists is not None and _test(branch.groups()[1:], exists)
            if branch.group(1) == "if":
                blocks.append([outcome, outcome, known])
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
            taken = known and exists is not None and _test(guarded.groups()[:4], exists)
            command = guarded.group(5) if taken else ""
        if _EXEC.search(line):
            break  # (in a block too: what follows may run only when it did not)
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


@dataclass(frozen=True)
class ScriptBuild:
    """One `docker build` (or `podman build`, `buildah bud`) a shell script runs."""

    line: int
    """The script line the command starts on."""
    file: str | None
    """The Dockerfile it builds, as a path from the script's folder (`-f "$SCRIPT_DIR/Dockerfile"` is
    `Dockerfile`) or from the folder the script runs in (`-f docker/Dockerfile`), with `in_script`
    telling which; None when the script names it in a way docgen cannot follow."""
    in_script: bool
    """True when `file` is a path from the script's own folder."""
    passed: frozenset[str]
    """The names it passes with `--build-arg NAME` or `--build-arg NAME=…`."""
    forwarded: frozenset[str] = frozenset()
    """Those of `passed` whose value the script's caller gives: `--build-arg NAME` (from the
    environment), or a value reading NAME (`NAME="$NAME"`, `NAME=$X` after `X="${NAME:-86}"`)."""


_OWN_FOLDER = re.compile(
    r"^(?:\$\(\s*(?:cd\s+)?\"?\$\(\s*dirname\s+[^)]*\)\"?[^)]*\)|\$\(\s*dirname\s+[^)]*\)"
    r"|\$\{?(" + NAME + r")\}?)(?:/(.*))?$"
)
"""A path from the script's folder: `$(dirname "$0")/Dockerfile`, `$SCRIPT_DIR/docker/Dockerfile`."""
_DIRNAME = re.compile(r"\bdirname\b|\bBASH_SOURCE\b|\$0\b|\$\{0\}")
_FLAGS_WITHOUT_VALUE = frozenset(
    {
        "--no-cache",
        "--pull",
        "--load",
        "--push",
        "-q",
        "--quiet",
        "--rm",
        "--force-rm",
        "--squash",
        "--compress",
    }
)
HANDS_ON = re.compile(
    r"(?:^|[;&|(`][ \t]*|\b(?:sudo|then|do|else|time|nohup)[ \t]+)"
    r"(?:make|cmake|python3?|node|npm|npx|env|envsubst|source|\.|bash|sh|zsh|exec)(?=[\s;&|)`]|$)"
    r"|\b(?:docker[ \t]+compose|docker-compose|podman-compose|bake)\b|[\w./-]\.(?:sh|bash|py)\b"
)
"""A command a script runs that may read the environment it was given (another script, `make`, a compose
file, a bake file, an interpreter, `env`): a variable the script itself never names may still be used."""


def logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, command) of the lines of `text` outside heredoc bodies, a line ending in `\\`
    joined with the next."""
    held: list[str] = []
    start = 0
    for number, line in _outside_heredocs(text):
        if not held:
            start = number
        if line.endswith("\\"):
            held.append(line[:-1])
            continue
        held.append(line)
        yield start, " ".join(held)
        held = []
    if held:
        yield start, " ".join(held)


def _own_folder_names(text: str) -> dict[str, str]:
    """The variables the script sets to its own folder, or one above it, → that folder from the
    script's (`SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"` → `.`, `ROOT="$(dirname "$0")/.."` → `..`)."""
    names = {}
    for _, line in _outside_heredocs(text):
        assign = re.match(r"^(?:" + DECLARE + ")?(" + NAME + r")=(.*)$", line)
        if assign is not None and _DIRNAME.search(assign.group(2)) and "$(" in assign.group(2):
            ups = re.findall(r"/\.\.(?=[/\"')\s]|$)", assign.group(2))
            names[assign.group(1)] = "/".join([".."] * len(ups)) or "."
    return names


def docker_builds(text: str) -> tuple[ScriptBuild, ...]:
    """Each image build the shell script `text` runs, outside heredoc bodies and comments, with the
    Dockerfile it builds where the script names it so docgen can follow (`-f`, else `Dockerfile` in the
    context) and the build args it passes. A `cd` before the build other than into the script's own
    folder leaves the Dockerfile unknown."""
    own = _own_folder_names(text)
    found: list[ScriptBuild] = []
    moved: bool | None = False  # False: where the script runs; True: its own folder; None: unknown
    reading: dict[str, set[str]] = {}  # each variable the script sets → the variables its value reads
    for number, line in logical_lines(text):
        if line.startswith("#"):
            continue
        if (assign := _ASSIGN.match(line)) is not None:
            reading[assign.group(1)] = set(_READS.findall(assign.group(2)))
        for cd in re.finditer(r"(?:^|[;&|][ \t]*)(?:cd|pushd)[ \t]+(.+?)[ \t]*(?=&&|\|\||;|$)", line):
            target = _unquote(cd.group(1))
            folder = _OWN_FOLDER.match(target)
            into_own = (
                folder is not None
                and not folder.group(2)
                and own.get(folder.group(1) or "", ".") == "."
                and (folder.group(1) is None or folder.group(1) in own)
            )
            moved = True if into_own else None
        build = BUILD.search(line)
        if build is None:
            continue
        try:
            words = sh_words(line[build.end() :])
        except ValueError:
            continue
        passed: set[str] = set()
        forwarded: set[str] = set()
        file: str | None = None
        context: str | None = None
        index = 0
        while index < len(words):
            word = words[index]
            if word in ("&&", "||", ";", "|") or word.startswith((";", "&", "|")):
                break
            if word.startswith("-") and word not in _FLAGS_WITHOUT_VALUE:
                flag, _, value = word.partition("=")
                if not value and index + 1 < len(words):
                    index += 1
                    value = words[index]
                if flag == "--build-arg":
                    name, given, arg_value = value.partition("=")
                    passed.add(name)
                    reads = set(_READS.findall(arg_value))
                    reads |= {n for var in reads for n in reading.get(var, ())}
                    if not given or name in reads:
                        forwarded.add(name)
                elif flag in ("-f", "--file"):
                    file = value
            elif not word.startswith("-"):
                context = word
            index += 1
        located = _located(number, file, context, passed, own, moved)
        found.append(dataclasses.replace(located, forwarded=frozenset(forwarded)))
    return tuple(found)


def _located(
    number: int,
    file: str | None,
    context: str | None,
    passed: set[str],
    own: dict[str, str],
    moved: bool | None,
) -> ScriptBuild:
    """The `ScriptBuild` of a build whose `-f` is `file` (None: not given) and context `context`."""
    path = file if file is not None else ((context or ".").rstrip("/") + "/Dockerfile")
    folder = _OWN_FOLDER.match(path)
    if folder is not None and (not folder.group(1) or folder.group(1) in own):
        up = own.get(folder.group(1) or "", ".")  # `$(dirname "$0")` is the script's folder itself
        within = posixpath.join(up, folder.group(2) or "Dockerfile")
        return ScriptBuild(number, posixpath.normpath(within), True, frozenset(passed))
    if "$" in path or "`" in path or moved is None:
        return ScriptBuild(number, None, False, frozenset(passed))
    return ScriptBuild(number, posixpath.normpath(path), bool(moved), frozenset(passed))


def names_variable(text: str, name: str) -> bool:
    """True when the shell script `text` names the variable `name` anywhere (`$NAME`, `${NAME:-…}`,
    `--build-arg NAME`, `export NAME`), comments aside."""
    pattern = re.compile(r"(?<![\w$])\$?\{?" + re.escape(name) + r"(?!\w)")
    return any(pattern.search(line) for _, line in _outside_heredocs(text) if not line.startswith("#"))


def hands_environment_on(text: str) -> bool:
    """True when the shell script `text` runs a command that may read the environment it was given
    (`HANDS_ON`): another script, `make`, a compose or bake file, an interpreter."""
    return any(
        HANDS_ON.search(line) for _, line in _outside_heredocs(text) if line and not line.startswith("#")
    )


@dataclass(frozen=True)
class Sourced:
    """A file a shell script sources (`source "$(dirname "$0")"/config.sh`, `. ./versions.env`)."""

    line: int
    """The script line of the `source`."""
    path: str
    """The file, as a path from the script's own folder (`in_script`) or from the folder it runs in."""
    in_script: bool
    """True when `path` is from the script's own folder."""


_SOURCE_WORD = re.compile(r"^(?:source|\.)[ \t]+(.+?)[ \t]*$")


def sourced_files(text: str) -> tuple[Sourced, ...]:
    """The files the shell script `text` sources on lines every run goes through (not in a block some
    runs skip, nor after a `cd` other than into its own folder), outside heredoc bodies: a path from its
    own folder (`"$(dirname "$0")"/config.sh`, `${SCRIPT_DIR}/gpu.env` after `SCRIPT_DIR=$(dirname …)`)
    or from the folder it runs in (`./versions.env`); a path of a variable it cannot follow (`$HOME/…`)
    is left out."""
    own = _own_folder_names(text)
    found: list[Sourced] = []
    depth = 0
    for number, line in logical_lines(text):
        if not line or line.startswith("#"):
            continue
        if _CLOSES.match(line):
            depth = max(0, depth - 1)
            continue
        if _OPENS.match(line) and not re.search(r"\b(?:fi|done|esac)\b|\}[ \t]*$", line[2:]):
            depth += 1
            continue
        if _CD.search(line):
            break  # (a `cd` anywhere: the folder a later relative path is read from is no longer known)
        source = _SOURCE_WORD.match(sh_code(line))
        if source is None or depth:
            continue
        try:
            words = sh_words(source.group(1))
        except ValueError:
            continue
        if not words:
            continue
        path = words[0]
        folder = _OWN_FOLDER.match(path)
        if folder is not None and (not folder.group(1) or folder.group(1) in own) and folder.group(2):
            up = own.get(folder.group(1) or "", ".")
            found.append(Sourced(number, posixpath.normpath(posixpath.join(up, folder.group(2))), True))
        elif "$" not in path and "`" not in path and not path.startswith(("/", "~")):
            found.append(Sourced(number, posixpath.normpath(path), False))
    return tuple(found)
