"""A README's usage line for a script beside it that names more arguments than the script takes: the
README writes `sh run.sh <version> <gpu> <data> <out> <entry>`, while the script's own usage line
says `Usage: run.sh [version] [gpu] [data]` and it reads only `$1` to `$3` (what follows is passed on
to another program unread, or dropped).

The scripts are found where the README's commands run them (`script_args.script_runs`); each script
is read once, and each of its lines is matched once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.script_args import script_lines, script_runs
from docgen.files import real_path, stays_home
from docgen.markdown import Document, lists
from docgen.model import Diagnostic, ImageModel
from docgen.script_env import environment_defaults

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
    lines = script_lines(path)
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


def longer_usage(
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
    for line, path, script, rest in script_runs(doc, directory, audited, project):
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


# --------------------------------------------------------------------------------------------------
# The default a README gives a script's argument or variable against the script's `${N:-default}`

_SAYS_DEFAULT = re.compile(
    r"\bdefaults?(?:[ \t]+(?:is|to|value[ \t]+is)[ \t]+|[ \t]*[:=][ \t]*)(`[^`\n]+`|[^\s,;()`]+)",
    re.IGNORECASE,
)
"""`Defaults to ./output`, `default: 0`, `default is `/data``: the value a README says is the default."""
_VALUE_LIKE = re.compile(r"[\w./~-]*[\d/._~][\w./~-]*")
"""A default written without backticks that is a value (`0`, `./output`, `cuda_12`), not a word of a
sentence (`Defaults to the current directory`)."""
_AN_EXAMPLE = re.compile(r"e\.?g\.?|i\.?e\.?|ex\.?|like|say", re.IGNORECASE)
"""A word after `default:` that gives an example instead of the value (`default: e.g. `v2.1``)."""
_ITEM_NAME = re.compile(r"[ ]{0,3}[-*+][ \t]+(?:\*\*|`)*[\[<]?([A-Za-z_][\w-]*)[\]>]?(?:\*\*|`)*[ \t]*[:—–]")
"""A list item naming an argument or a variable first (`- OUTPUT_DIR: …`, `- **`[gpu]`**: …`)."""
_POSITIONAL_DEFAULT = re.compile(r"\$\{([1-9]):?[-=]([^{}\n]*)\}")
_ASSIGNED_FROM = re.compile(r"\A(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)=")
_HERE = re.compile(r"\A(?:\$\(pwd\)|\$\{PWD\}|\$PWD|`pwd`)(?=/|\Z)")
"""The current directory written as the shell reads it: `$(pwd)/outputs` is `./outputs`."""


@dataclass(frozen=True)
class _Default:
    """A default a script gives an argument or a variable it reads."""

    line: int
    value: str
    what: str
    """What it is the default of, as the finding says it (`$2`, `MODEL_DIR`)."""
    file: Path | None = None
    """The file the script sources that gives it, None for the script itself."""


def _loose(value: str) -> str | None:
    """`value` as a path is compared (`$(pwd)/x`, `$PWD/x`, `./x` and `x` are one), quotes taken off;
    None when it reads another variable or runs a command (a default computed from the environment)."""
    value = value.strip().strip("\"'")
    value = _HERE.sub(".", value)
    if "$" in value or "`" in value:
        return None
    while value.startswith("./"):
        value = value[2:]
    return value.rstrip("/") or "."


def _script_defaults(path: Path) -> dict[str, _Default]:
    """The defaults the script at `path` gives: by position (`1`, `2` … for `${2:-x}`) and by the name
    of the variable it assigns one to (`OUT=${2:-x}`), and by name for a variable it reads from its
    caller (`${NAME:-x}`, `script_env.environment_defaults`). Left out: a position read with two
    defaults, a variable assigned again later (its value computed there), an empty default."""
    lines = script_lines(path)
    by_position: dict[str, list[tuple[int, str, str | None]]] = {}
    assigned: dict[str, list[int]] = {}  # variable → the lines assigning it
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if text.startswith("#"):
            continue
        assign = _ASSIGNED_FROM.match(text)
        if assign is not None:
            assigned.setdefault(assign.group(1), []).append(number)
        for match in _POSITIONAL_DEFAULT.finditer(text):
            name = assign.group(1) if assign is not None else None
            by_position.setdefault(match.group(1), []).append((number, match.group(2), name))
    found: dict[str, _Default] = {}
    for position, reads in by_position.items():
        if len({value for _, value, _ in reads}) != 1 or not reads[0][1].strip().strip("\"'"):
            continue
        line, value, name = reads[0]
        found[position] = _Default(line, value.strip().strip("\"'"), f"${position}")
        if name is not None and assigned.get(name) == [line]:
            found[name] = found[position]
    for name, (line, value) in environment_defaults("\n".join(lines)).items():
        if name not in found and value and set(assigned.get(name, [line])) == {line}:
            found[name] = _Default(line, value, name)
    return found


def _usage_positions(rest: str) -> dict[str, str]:
    """The argument names of a README's usage line for a script (`[GPU_ID] [OUTPUT_DIRECTORY]`, `<tag>`)
    → their positions (`1`, `2` …), when every word after the script is one of them; else none."""
    rest = re.split(r"[ \t]#|[|;&]|[ \t]>", rest, maxsplit=1)[0]
    words = _WORD.findall(rest)
    if not words or len(words) > 9:
        return {}
    names: dict[str, str] = {}
    for position, word in enumerate(words, start=1):
        if (word[:1], word[-1:]) not in (("[", "]"), ("<", ">")) or not re.fullmatch(r".\w[\w-]*.", word):
            return {}
        names[word[1:-1].lower()] = str(position)
    return names


def _said_defaults(doc: Document, start: int, end: int) -> Iterator[tuple[int, str, str]]:
    """(README line, name, default as written) of each list item between README lines `start` and `end`
    that names an argument or a variable first and says its default (`- OUTPUT_DIR: … Defaults to
    ./output`): a value in backticks, or one that looks like a value (`0`, `./output`)."""
    for block in lists(doc):
        for line, text in block.items:
            if not start <= line < end:
                continue
            named = _ITEM_NAME.match(text)
            if named is None:
                continue
            said = _SAYS_DEFAULT.search(text, named.end())
            if said is None:
                continue
            value = said.group(1)
            if value.startswith("`"):
                value = value.strip("`")
            elif _AN_EXAMPLE.fullmatch(value):  # `default: e.g. `v2.1``: an example, not the default
                continue
            else:
                value = value.rstrip(".:") or value
                if not _VALUE_LIKE.fullmatch(value):
                    continue
            yield line, named.group(1), value


def argument_defaults(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """The default a README's list gives an argument of a script a command block runs (named as its usage
    line there names it: `./run.sh [GPU_ID] [OUTPUT_DIRECTORY]`) or a variable of it, in the section of
    that command, against the `${2:-default}` / `${NAME:-default}` the script reads it with (`likely`):
    `README says OUTPUT_DIRECTORY defaults to ./output, but docker_run.sh:7 gives $2 the default
    $(pwd)/outputs`. A variable the script leaves to a file it sources (`source ./env.sh` after `cd
    "$(dirname "$0")/.."`) is read with that file's default, here and in any section naming that file
    (`All build parameters are centralized in `env.sh``: its list or table of variables,
    `_sourced_defaults`). Paths are compared loosely (`./x`, `x`, `$(pwd)/x`, `$PWD/x` are one). Not a
    default the script computes later (an empty `${1:-}`, a variable assigned again), one read from
    another variable (`${2:-$OUT}`), nor a value a sentence gives as an example."""
    heads = [line for line, _ in doc.headings]
    read: dict[Path, dict[str, _Default]] = {}
    sourced: dict[Path, list[tuple[Path, dict[str, _Default]]]] = {}
    told: set[int] = set()
    for line, _, script, rest in script_runs(doc, directory, audited, project):
        if script not in read:
            read[script] = _script_defaults(script)
            sourced[script] = [(f, _script_defaults(f)) for f in sourced_files(script)]
        defaults = dict(read[script])
        assigned = _assigned_names(script)
        for file, given in sourced[script]:
            for name, kept in given.items():
                if not name.isdigit() and name not in defaults and name not in assigned:
                    defaults[name] = _Default(kept.line, kept.value, name, file)
        if not defaults:
            continue
        positions = _usage_positions(rest)
        start = max((h for h in heads if h <= line), default=0)
        end = min((h for h in heads if h > line), default=1 << 30)
        for at, name, value in _said_defaults(doc, start, end):
            default = defaults.get(name) or defaults.get(positions.get(name.lower(), ""))
            if default is None or at in told:
                continue
            theirs, ours = _loose(default.value), _loose(value)
            if theirs is None or ours is None or theirs == ours:
                continue
            told.add(at)
            where = _shown(default.file, directory) if default.file is not None else script.name
            yield Diagnostic(
                readme,
                at,
                f"README says {name} defaults to {value}, but {where}:{default.line} gives "
                f"{default.what} the default {default.value}",
                confidence=LIKELY,
            )
    yield from _sourced_defaults(doc, readme, directory, sourced, read, models, told)


# --------------------------------------------------------------------------------------------------
# The defaults of a file the README's scripts source, in the README's sections naming that file

_SOURCE_LINE = re.compile(
    r"^[ \t]*(?:source|\.)[ \t]+[\"']?([^\s\"';&|`]+)[\"']?(?:[ \t][^;&|#]*)?(?:[#;].*)?$"
)
"""`source ../env.sh`, `. "./env.sh" rocm`: a file sourced as a whole command, arguments allowed."""
_CD_OWN = re.compile(
    r"^[ \t]*(?:cd|pushd)[ \t]+\"?\$\([ \t]*dirname[ \t]+"
    r"\"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\})\"?[ \t]*\)"
    r"((?:/\.\.)*)/?\"?[ \t]*(?:&&.*|;.*|>.*)?$"
)
"""`cd $(dirname $0)`, `cd "$(dirname "${BASH_SOURCE[0]}")/.."`: into the script's folder or one above."""
_OWN_PREFIX = re.compile(r"\A\$\([ \t]*dirname[ \t]+\"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\})\"?[ \t]*\)/")
_CD = re.compile(r"(?:^|[;&|][ \t]*)(?:cd|pushd|popd)\b")


def sourced_files(script: Path) -> list[Path]:
    """The files the script at `script` sources (`source ./env.sh`, `. ../env.sh`) that are found: a path
    from its own folder (`$(dirname "$0")/env.sh`), or a plain path after a `cd` into its folder or one
    above it (`cd "$(dirname "$0")/.."`); a source before any `cd`, or after another one, is from a
    folder docgen does not know and is not read."""
    folder: Path | None = None
    found: list[Path] = []
    for raw in script_lines(script):
        text = raw.strip()
        if text.startswith("#"):
            continue
        if (into := _CD_OWN.match(text)) is not None:
            folder = script.parent
            for _ in range(into.group(1).count("..")):
                folder = folder.parent
            continue
        if _CD.search(text):
            folder = None
            continue
        source = _SOURCE_LINE.match(text)
        if source is None:
            continue
        path = source.group(1)
        if (own := _OWN_PREFIX.match(path)) is not None:
            file = script.parent / path[own.end() :]
        elif "$" in path or folder is None:
            continue
        else:
            file = folder / path
        if (
            os.path.isfile(file)
            and stays_home(file)
            and real_path(file) != real_path(script)
            and real_path(file) not in found
        ):
            found.append(real_path(file))
    return found


def _assigned_names(script: Path) -> set[str]:
    """The variables the script at `script` assigns itself (`NAME=…`, `export NAME=…`), comments aside."""
    names: set[str] = set()
    for raw in script_lines(script):
        text = raw.strip()
        if not text.startswith("#") and (assign := _ASSIGNED_FROM.match(text)) is not None:
            names.add(assign.group(1))
    return names


def _shown(file: Path, directory: Path) -> str:
    """`file` as a path from the README's folder."""
    return os.path.relpath(file, directory.resolve())


def _named_sections(doc: Document, name: str) -> list[tuple[int, int]]:
    """(first line, end line) of each section of `doc` (heading to next heading) whose text names the
    file `name` (`` `env.sh` ``, `./env.sh`)."""
    pattern = re.compile(r"(?<![\w.-])(?:\./)?" + re.escape(name) + r"(?![\w-])")
    heads = sorted(line for line, _ in doc.headings)
    texts = [(line, text) for para in doc.paragraphs for line, text in para.lines]
    texts += [(line, heading) for line, heading in doc.headings]
    texts += [(table.line, table.context) for table in doc.tables]
    found: list[tuple[int, int]] = []
    for line, text in texts:
        if pattern.search(text) is None:
            continue
        start = max((h for h in heads if h <= line), default=0)
        end = min((h for h in heads if h > line), default=1 << 30)
        if (start, end) not in found:
            found.append((start, end))
    return found


def _passed_as(
    name: str, scripts: Sequence[Path], models: Sequence[ImageModel]
) -> tuple[Path, str, str, int, str] | None:
    """(script, build arg, Dockerfile, ARG line, ARG default) when one of `scripts` passes the variable
    `name` to a build as a build arg (`--build-arg TORCH_REF="${TORCH_BRANCH}"`) that an audited
    Dockerfile declares with a default of its own."""
    passes = re.compile(
        r"--build-arg[ \t=]+[\"']?(\w+)=[\"']?\$\{?" + re.escape(name) + r"\}?[\"']?(?=\s|$|\\)"
    )
    for script in scripts:
        for raw in script_lines(script):
            match = passes.search(raw)
            if match is None:
                continue
            for model in models:
                for arg in model.args:
                    if arg.name == match.group(1) and arg.default is not None:
                        return script, arg.name, model.path, arg.line, arg.default
    return None


def _sourced_defaults(
    doc: Document,
    readme: str,
    directory: Path,
    sourced: dict[Path, list[tuple[Path, dict[str, _Default]]]],
    read: dict[Path, dict[str, _Default]],
    models: Sequence[ImageModel],
    told: set[int],
) -> Iterator[Diagnostic]:
    """The default a list item gives a variable in a section of the README naming a file
    that a script the README runs sources (`All build parameters are centralized in `env.sh`:` over
    `- `TORCH_BRANCH`: … (default: `v2.7.1`)`), against the file's `${NAME:-default}` (`likely`), when no
    script sourcing it assigns the variable itself. When a script passes the variable to a build arg
    whose ARG default is the README's value, the finding says the script's value wins."""
    files: dict[Path, tuple[dict[str, _Default], list[Path]]] = {}
    for script, found in sourced.items():
        for file, defaults in found:
            held = files.setdefault(file, (defaults, []))
            held[1].append(script)
    for file, (defaults, scripts) in files.items():
        names = {n for n in defaults if not n.isdigit()}
        if not names:
            continue
        assigned = set().union(*(_assigned_names(s) for s in scripts))
        for start, end in _named_sections(doc, file.name):
            for at, name, value in _said_defaults(doc, start, end):
                default = defaults.get(name)
                if default is None or name not in names or name in assigned or at in told:
                    continue
                if any(name in read.get(s, {}) for s in scripts):
                    continue
                theirs, ours = _loose(default.value), _loose(value)
                if theirs is None or ours is None or theirs == ours:
                    continue
                told.add(at)
                message = (
                    f"README says {name} defaults to {value}, but {_shown(file, directory)}:{default.line} "
                    f"gives it the default {default.value}"
                )
                passed = _passed_as(name, scripts, models)
                if passed is not None:
                    script, arg, dockerfile, line, arg_default = passed
                    message += f" ({_shown(script, directory)} passes it as build arg {arg}"
                    if _loose(arg_default) == ours:
                        message += f", over {dockerfile}:{line}'s default {arg_default}"
                    message += ")"
                yield Diagnostic(readme, at, message, confidence=LIKELY)


# --------------------------------------------------------------------------------------------------
# The defaults a README's table gives a script's options, against the value the variable each option
# sets holds before the script reads its options

_OPTION_CELL = re.compile(r"[ \t]*`(--?[A-Za-z][\w-]*)(?:[ \t=][^`]*)?`")
"""A first cell that is an option in code: `` `--model` ``, `` `--gpu-memory FRACTION` ``."""
_DEFAULT_HEADER = re.compile(r"\bdefaults?\b", re.IGNORECASE)
_ARM_OPTIONS = re.compile(
    r"^[ \t]*\(?[ \t]*((?:-{1,2}[A-Za-z0-9][\w-]*)(?:[ \t]*\|[ \t]*-{1,2}[A-Za-z0-9][\w-]*)*)[ \t]*\)(.*)$"
)
"""A `case` arm of options and the rest of its line: `--model)`, `-p|--port) PORT="$2"; shift 2 ;;`."""
_TAKES_VALUE = re.compile(r"(?:^|[;\s])(?:export[ \t]+)?([A-Za-z_]\w*)=[\"']?\$\{?2\}?[\"']?(?=[\s;]|$)")
"""An assignment of the option's value: `MODEL="$2"`."""
_PLAIN_ASSIGN = re.compile(
    r"\A(?:export[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)="
    r"(\"[^\"$`\\]*\"|'[^']*'|[^\s\"'$`;&|()<>\\]*)[ \t]*(?:#.*)?\Z"
)
"""A literal assignment on a line of its own: `ARCHITECTURE="gfx1201" # …`, `MODEL=org/model` (no
variable, no command)."""
_IF_DEFAULT = re.compile(r"\A(?:export[ \t]+)?([A-Za-z_]\w*)=\"?\$\{\1:?[-=]([^}$`\"]*)\}\"?[ \t]*(?:#.*)?\Z")
"""`MODEL="${MODEL:-org/model}"`: a value kept unless the caller or a sourced file set one."""
_SOURCED = re.compile(r"\A(?:source|\.)[ \t]+[\"']?((?:\./)?[\w.-]+)[\"']?[ \t]*(?:#.*)?\Z")
"""A file of the script's folder sourced by its plain name: `source .env-template`, `. ./env.sh`."""
_FILE_TEST = re.compile(r"\A(?:if|elif)[ \t]+\[\[?[ \t]+-[fe][ \t]+[\"']?((?:\./)?[\w.-]+)[\"']?[ \t]+\]\]?")
_HEREDOC = re.compile(r"<<-?[ \t]*[\"']?([A-Za-z_]\w*)[\"']?")
_LOOP = re.compile(r"\A(?:while|for|until)\b|\Acase\b")


def _options_set(lines: list[str]) -> tuple[dict[str, tuple[int, str]], int] | None:
    """(option → (script line, variable it sets from its value), line of the first arm) of the `case`
    arms of options that assign the option's value (`--model) MODEL="$2"`, on the arm's line or the
    next two); None when the script has no such arm."""
    found: dict[str, tuple[int, str]] = {}
    first = 0
    for index, text in enumerate(lines):
        arm = _ARM_OPTIONS.match(text)
        if arm is None:
            continue
        for at in range(index, min(index + 3, len(lines))):
            rest = arm.group(2) if at == index else lines[at]
            taken = _TAKES_VALUE.search(rest)
            if taken is not None:
                first = first or index + 1
                for option in arm.group(1).split("|"):
                    found.setdefault(option.strip(), (at + 1, taken.group(1)))
                break
            if at > index and (_ARM_OPTIONS.match(lines[at]) or ";;" in lines[at - 1]):
                break
    return (found, first) if found else None


def _values_before(
    script: Path, lines: list[str], end: int, sourced_at: dict[Path, int]
) -> dict[str, tuple[str, int, Path]]:
    """NAME → (value, line, file) of the literal values the script's variables hold before its line
    `end`: its own assignments at the top level (`NAME=value`, `NAME=${NAME:-value}` when nothing set
    it) and the plain assignments of an env file of its folder it sources (`set -a; source
    .env-template`: the branch of an `if [ -f FILE ]` the checkout takes); not inside a function, a
    loop or a heredoc. `sourced_at` gets the script line sourcing each env file."""
    values: dict[str, tuple[str, int, Path]] = {}
    depth = 0  # (inside a function or a loop: not run here)
    heredoc: str | None = None
    skipping: list[bool] = []  # per open `if`: whether its taken branch is left
    for index in range(min(end - 1, len(lines))):
        text = lines[index].strip()
        if heredoc is not None:
            heredoc = None if text == heredoc else heredoc
            continue
        if (opened := _HEREDOC.search(text)) is not None and not text.startswith("#"):
            heredoc = opened.group(1)
        if not text or text.startswith("#"):
            continue
        if re.match(r"\A[\w-]+[ \t]*\(\)[ \t]*\{?|\Afunction\b", text) or _LOOP.match(text):
            depth += 1
            continue
        if depth:
            if re.match(r"\A(?:\}|done\b|esac\b)", text):
                depth -= 1
            continue
        test = _FILE_TEST.match(text)
        if test is not None:
            skipping.append(not os.path.isfile(script.parent / test.group(1)))
            continue
        if text == "else":
            if skipping:
                skipping[-1] = not skipping[-1]
            continue
        if text == "fi":
            if skipping:
                skipping.pop()
            continue
        if any(skipping):
            continue
        if (sourced := _SOURCED.match(text)) is not None:
            file = script.parent / sourced.group(1)
            if os.path.isfile(file) and stays_home(file):
                sourced_at[file] = index + 1
                for number, raw in enumerate(script_lines(file), start=1):
                    if (plain := _PLAIN_ASSIGN.match(raw.strip())) is not None:
                        values[plain.group(1)] = (plain.group(2).strip("\"'"), number, file)
            continue
        if (kept := _IF_DEFAULT.match(text)) is not None:
            values.setdefault(kept.group(1), (kept.group(2).strip("\"'"), index + 1, script))
        elif (plain := _PLAIN_ASSIGN.match(text)) is not None:
            values[plain.group(1)] = (plain.group(2).strip("\"'"), index + 1, script)
    return values


def option_table_defaults(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """The default a README table of a script's options gives (`| `--gpu-memory` | `0.55` | … |` under
    a `Default` column) against the value the variable that option sets holds when the script starts
    reading its options (`--gpu-memory) GPU_MEMORY_UTILIZATION="$2"`, after `source .env-template`
    set it to 0.88, or `ARCHITECTURE="gfx1201"` above the loop): run without the option, the script
    goes on with that value (`likely`). The script is the one of those the README's command blocks run
    whose `case` arms take every option of the table (two at least). Not an option that sets nothing
    from its value (`--ui`: a switch), a default cell that is words (`disabled`, `your CPU count`), nor a
    variable the script does not set before (the program's own default)."""
    tables = []
    for table in doc.tables:
        column = next((i for i, c in enumerate(table.header) if _DEFAULT_HEADER.search(c)), None)
        if column is None or column == 0:
            continue
        rows = [
            (line, m.group(1), cells[column])
            for line, cells in table.rows
            if len(cells) > column and (m := _OPTION_CELL.match(cells[0])) is not None
        ]
        if len(rows) >= 2:
            tables.append(rows)
    if not tables:
        return
    scripts = list(dict.fromkeys(script for _, _, script, _ in script_runs(doc, directory, audited, project)))
    read: dict[Path, tuple[dict[str, tuple[int, str]], int] | None] = {}
    for rows in tables:
        options = {option for _, option, _ in rows}
        fits = []
        for script in scripts:
            if script not in read:
                read[script] = _options_set(script_lines(script))
            held = read[script]
            accepted = _accepted_options(script)
            if held is not None and options - _HELP_OPTIONS <= accepted and len(options & set(held[0])) >= 2:
                fits.append(script)
        if len(fits) != 1:
            continue
        script = fits[0]
        taken = read[script]
        arms, first = taken if taken is not None else ({}, 0)
        lines = script_lines(script)
        sourced_at: dict[Path, int] = {}
        values = _values_before(script, lines, first, sourced_at)
        for line, option, cell in rows:
            if option not in arms:
                continue
            said = _cell_value(cell)
            at, name = arms[option]
            if said is None or name not in values:
                continue
            value, where, file = values[name]
            theirs, ours = _loose(value), _loose(said)
            if not value or theirs is None or ours is None or theirs == ours:
                continue
            source = f"{script.name}:{where}"
            if file != script:
                source = f"{_shown(file, directory)}:{where} (sourced by {script.name}:{sourced_at[file]})"
            yield Diagnostic(
                readme,
                line,
                f"README says {option} defaults to {said}, but {script.name}:{at} sets {name} from it, "
                f"which {source} sets to {value} before the options are read",
                confidence=LIKELY,
            )


_HELP_OPTIONS = frozenset({"-h", "--help"})


def _accepted_options(script: Path) -> set[str]:
    """Every option a `case` arm of the script takes."""
    found: set[str] = set()
    for text in script_lines(script):
        if (arm := _ARM_OPTIONS.match(text)) is not None:
            found.update(o.strip() for o in arm.group(1).split("|"))
    return found


def _cell_value(cell: str) -> str | None:
    """The value a default cell gives: its one code span (`` `0.55` ``) or a value-like word (`8192`);
    None for words (`disabled`, `CPU count minus 1`)."""
    cell = cell.strip()
    spans = re.findall(r"`([^`]+)`", cell)
    if spans:
        return spans[0].strip() if len(spans) == 1 and re.fullmatch(r"`[^`]+`", cell) else None
    return cell if _VALUE_LIKE.fullmatch(cell) else None
