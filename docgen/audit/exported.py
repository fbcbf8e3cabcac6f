"""Variables a README exports for the scripts it runs next that no one of them reads: `export
ROS_PROJECT_NAME=hoge` then `./run.sh`, where run.sh reads DEEP_PROJECT_NAME only (and exits unless it is
set). The setting changes nothing, and the variable the script wants is not set.

A variable is read by a script when the script names it anywhere (`$NAME`, `${NAME:-…}`, `export NAME`),
or may be when the script hands its environment on (another script, `make`, an interpreter: then it
is not read here); a compose file the script runs (`docker compose -f FILE`, else the default files of
the folder it runs in) reads it when the file names it. Docker's, Compose's and BuildKit's own variables
(`DOCKER_HOST`, `COMPOSE_PROJECT_NAME`) and the usual ones of a shell (`DISPLAY`, `http_proxy`) are not
read.

And a script the README runs that writes `$(NAME)` for a variable the README exports before it, or one
the script sets itself (`substituted_names`): `export SCAN_DIR=/data/scan` then `bash reconstruct.bash`,
whose `docker run -v $(SCAN_DIR):/scan` is the Makefile spelling. In a shell, `$(NAME)` is a command
substitution: it runs a program called NAME, which fails, and puts in nothing, so the value is never
used (the mount above becomes `-v :/scan`, which docker refuses). Not read: a name the script defines
as a function, one in single quotes, a comment or a heredoc's body (a Makefile the script writes).
`certain` for an upper-case name (no program is called so), else `likely`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import without_prompt
from docgen.audit.references import SET_IN_FRONT
from docgen.audit.script_args import found_scripts
from docgen.audit.script_builds import shell_scripts_run
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic
from docgen.script_env import HANDS_ON, logical_lines, names_variable
from docgen.shell import DECLARE, NAME, sh_code, shell_split

_EXPORT = re.compile(r"[ \t]*export[ \t]+(.*)")
_TOOLS = re.compile(
    r"(?:DOCKER|COMPOSE|BUILDKIT|BUILDX|NVIDIA|CUDA|LC|XDG|GIT|SSH)_\w*"
    r"|PATH|HOME|USER|UID|GID|SHELL|TERM|LANG|DISPLAY|XAUTHORITY|TZ|PWD|EDITOR|HOSTNAME"
    r"|(?:http|https|ftp|no|all)_proxy|(?:HTTP|HTTPS|FTP|NO|ALL)_PROXY|\w*PATH",
)
"""Variables a tool the script runs reads without the script naming them (docker, compose, git, a
shell)."""
_REQUIRES = re.compile(
    r"^[ \t]*(?:if[ \t]+)?\[\[?[ \t]+-z[ \t]+\"?\$\{?([A-Za-z_]\w*)\}?\"?[ \t]+\]\]?"
    r"|\$\{([A-Za-z_]\w*):?\?"
)
"""A check that a variable is set: `if [ -z "$NAME" ]`, `[[ -z $NAME ]] && exit 1`, `${NAME:?message}`."""
_FI = re.compile(r"\bfi\b")
_EXIT = re.compile(r"\bexit[ \t]+[1-9]|\$\{\w+:?\?")
_REFERENCE = re.compile(r"\$\{?([A-Za-z_]\w*)")
_COMPOSE_FILE = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)[\"']?([^\s\"';&|]+)")


def _required(lines: Sequence[str]) -> dict[str, int]:
    """NAME → script line of each variable the script's `lines` exit without (`if [ -z "$NAME" ]; then …
    exit 1`, `${NAME:?}`)."""
    found: dict[str, int] = {}
    for number, text in enumerate(lines, start=1):
        if text.lstrip().startswith("#"):
            continue
        for match in _REQUIRES.finditer(text):
            name = match.group(1) or match.group(2)
            after = _FI.split("\n".join([text, *lines[number : number + 5]]), maxsplit=1)[0]
            if match.group(2) or _EXIT.search(after):
                found.setdefault(name, number)
    return found


def _compose_texts(script: str, folder: Path) -> list[str] | None:
    """The texts of the compose files the commands of `script` run (`-f FILE` from `folder`, else the
    folder's default files), None when the script hands its environment to anything else or a file
    cannot be read."""
    texts: list[str] = []
    for line in script.splitlines():
        line = line.strip()
        if line.startswith("#") or (hand := HANDS_ON.search(line)) is None:
            continue
        if "compose" not in hand.group(0):
            return None
        files = [m.group(1) for m in _COMPOSE_FILE.finditer(line)]
        if any("$" in f for f in files):
            return None
        paths = [folder / f for f in files] or compose.default_files(folder)
        for path in paths:
            text = text_or_none(path)
            if text is None:
                return None
            texts.append(text)
    return texts


def _exports(doc: Document) -> list[tuple[int, str, str, int]]:
    """(README line, name, value, line of the block's end) of each `export NAME=value` of a command block."""
    found: list[tuple[int, str, str, int]] = []
    for fence in doc.fences:
        end = fence.lines[-1][0] if fence.lines else 0
        for line, text in fence.lines:
            match = _EXPORT.match(without_prompt(text))
            if match is None:
                continue
            for given in SET_IN_FRONT.finditer(match.group(1).split(" #", 1)[0]):
                try:
                    value = " ".join(shell_split(given.group(2))) if given.group(2) else ""
                except ValueError:
                    value = given.group(2)
                found.append((line, given.group(1), value, end))
    return found


def exported_unread(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """An `export NAME=value` of a command block, followed in the block by scripts (found where the
    block runs them) none of which reads NAME (see the module docstring): `certain` when the next one
    exits unless another variable the block does not export is set (said with `did you mean`), else
    `likely`."""
    exports = [e for e in _exports(doc) if not _TOOLS.fullmatch(e[1])]
    if not exports:
        return
    runs = list(found_scripts(doc, directory, audited, project, cloned))
    texts: dict[Path, str | None] = {}
    for line, name, value, end in exports:
        after = [(at, path, script) for at, path, script, _ in runs if line < at <= end]
        if not after:
            continue
        unread = True
        for _, _, script in after:
            if script not in texts:
                texts[script] = text_or_none(script)
            text = texts[script]
            if text is None or names_variable(text, name):
                unread = False
                break
            composed = _compose_texts(text, directory)
            if composed is None or any(names_variable(c, name) for c in composed):
                unread = False
                break
        if not unread:
            continue
        at, path, script = after[0]
        text = texts[script] or ""
        exported = {n for n_line, n, _, n_end in exports if n_end == end and n_line < at}
        required = {n: r for n, r in _required(text.splitlines()).items() if n not in exported}
        said = f"README exports {name}={value} for {path}, but {script.name} never reads {name}"
        if required:
            wanted = difflib.get_close_matches(name, list(required), n=1, cutoff=0) or [next(iter(required))]
            said += (
                f": it exits unless {wanted[0]} is set ({script.name}:{required[wanted[0]]}; did you mean "
                f"{wanted[0]}?)"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
            continue
        reads = [n for n in dict.fromkeys(_REFERENCE.findall(text)) if n != name and not _TOOLS.fullmatch(n)]
        close = difflib.get_close_matches(name, reads, n=1, cutoff=0.6)
        said += f" (did you mean {close[0]}?)" if close else ": the setting changes nothing"
        yield Diagnostic(readme, line, said, confidence=LIKELY)


_SUBSTITUTED = re.compile(r"\$\((" + NAME + r")\)")
"""`$(NAME)`: a command substitution running a program NAME, the Makefile spelling of a variable."""
_SINGLE_QUOTED = re.compile(r"'[^']*'")
_SETS = re.compile(r"(?:^|[;&|][ \t]*)(?:" + DECLARE + r")?(" + NAME + r")=")
"""A line of a script setting a variable (`DATA=/srv`, `export TAG=1`, `local dir=$1`)."""
_DEFINES = re.compile(r"^(?:function[ \t]+(" + NAME + r")|(" + NAME + r")[ \t]*\(\))")
"""A function the script defines (`detect_gpu() {`, `function NAME {`): `$(detect_gpu)` runs it."""


def _substitutions(text: str) -> tuple[dict[str, int], list[tuple[int, str]], set[str]]:
    """What the shell script `text` sets and substitutes: (NAME → the first script line setting it,
    (script line, NAME) of each `$(NAME)` outside single quotes, comments and heredoc bodies, the
    functions it defines)."""
    sets: dict[str, int] = {}
    uses: list[tuple[int, str]] = []
    functions: set[str] = set()
    raw = text.splitlines()
    for number, line in logical_lines(text):
        code = _SINGLE_QUOTED.sub("''", sh_code(line))
        if (defined := _DEFINES.match(code)) is not None:
            functions.add(defined.group(1) or defined.group(2))
        for match in _SUBSTITUTED.finditer(code):
            # (the line that writes it, in a command continued over several)
            at = next((n for n in range(number, len(raw) + 1) if match.group(0) in raw[n - 1]), number)
            uses.append((at, match.group(1)))
        for match in _SETS.finditer(code):
            sets.setdefault(match.group(1), number)
    return sets, uses, functions


def substituted_names(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A shell script a command block runs that writes `$(NAME)` where NAME is a variable the README
    exports before the run (any block above it, or `NAME=… ./run.sh`) or one the script sets before
    that line (see the module docstring). One finding a name, at the first README line running the
    script (`script_builds.shell_scripts_run`; `cloned`: `steps.own_clones`)."""
    exports: dict[str, int] = {}
    for line, name, _, _ in _exports(doc):
        exports.setdefault(name, line)
    lines = {line: text for fence in doc.fences for line, text in fence.lines}
    told: set[tuple[Path, str]] = set()
    for line, run, script, _, text in shell_scripts_run(doc, directory, audited, project, cloned):
        sets, uses, functions = _substitutions(text)
        written = lines.get(line, "")
        front = {m.group(1) for m in SET_IN_FRONT.finditer(written[: max(written.find(run), 0)])}
        for at, name in uses:
            if (script, name) in told or name in functions:
                continue
            if name in front:
                given = f"README sets {name} for it"
            elif exports.get(name, line) < line:
                given = f"README exports {name} (line {exports[name]}) before it"
            elif sets.get(name, at) < at:
                given = f"{script.name}:{sets[name]} sets {name}"
            else:
                continue
            told.add((script, name))
            yield Diagnostic(
                readme,
                line,
                f"README runs {run}, and {given}, but {script.name}:{at} writes $({name}), a command "
                f"substitution: the shell runs a program called {name}, which fails, and puts in nothing, "
                f"so the value is never used (did you mean ${{{name}}}?)",
                confidence=LIKELY if any(c.islower() for c in name) else CERTAIN,
            )
