"""A script the README runs that stops when a variable is unset, while the README never names the
variable: `start the containers with ./start.sh`, where start.sh says `if [ -z "$MINER_KEY" ]; then …
exit 1; fi`. Run as the README says, the script aborts.

A stop is a check at the script's top level (not indented, not in a function, so every run reaches
it): `if [ -z "$NAME" ]; then` with an `exit` with a failing status before its `fi`, `[ -z "$NAME" ] &&
exit 1`, `[ -n "$NAME" ] || exit 1`, or `${NAME:?…}` (`: "${NAME:?set NAME}"`). A variable the script
gives a value itself (`NAME=…`, `read NAME`, `${NAME:=…}`, a `for NAME in`), a script that reads other
files into its environment (`source`, `. file`, `set -a`, `eval`, `export $(…)`), a name that a `.env`
file beside the script or the README, a compose file there or a Dockerfile audited names, a name the
README writes anywhere (any case), the environment a shell or a CI runner sets (`HOME`, `USER`,
`GITHUB_TOKEN`) and a lower-case name are not reported.

The scripts are the ones the README's command blocks run (`script_args.script_runs`) and the ones a
code span of the prose runs (`` `./start.sh` ``, `` `bash run.sh` ``) from the README's folder, and the
scripts a command block runs in a container by the path an audited image copies them to (`python
/app/scripts/download.py`): for a Python script, the stops are `python_stops`'s."""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.audit.run_time import RunImage
from docgen.audit.script_args import script_runs
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_NAME = r"([A-Z][A-Z0-9_]*)"
_EMPTY_READ = r"\"?\$(?:\{" + _NAME + r"(?::-)?\}|" + _NAME + r"\b)\"?"
"""A read of a variable as a test operand: `"$NAME"`, `${NAME}`, `"${NAME:-}"`."""
_TEST_Z = re.compile(r"(?:\[\[?|test)[ \t]+-z[ \t]+" + _EMPTY_READ + r"[ \t]*(?:\]\]?)?")
_TEST_N = re.compile(r"(?:\[\[?|test)[ \t]+-n[ \t]+" + _EMPTY_READ + r"[ \t]*(?:\]\]?)?")
_IF_Z = re.compile(r"if[ \t]+" + _TEST_Z.pattern + r"[ \t]*(?:;[ \t]*then)?[ \t]*(?:#.*)?$")
_AND_EXIT = re.compile(r"[ \t]*&&[ \t]*\{?[^#]*?\bexit[ \t]+[1-9]")
_OR_EXIT = re.compile(r"[ \t]*\|\|[ \t]*\{?[^#]*?\bexit[ \t]+[1-9]")
_EXIT = re.compile(r"\bexit[ \t]+[1-9]")
_END = re.compile(r"(?:fi|else|elif)\b")
_REQUIRED = re.compile(r"\$\{" + _NAME + r"\??:?\?")
"""`${NAME:?message}`, `${NAME?}`: the shell stops with the message when NAME is unset."""
FUNCTION = re.compile(r"(?:function[ \t]+[\w:.-]+|[\w:.-]+[ \t]*\([ \t]*\))[ \t]*\{?[ \t]*$")
READS_FILES = re.compile(
    r"(?:^|[;&|(][ \t]*)(?:source|\.)[ \t]+\S|\bset[ \t]+-[a-z]*a|\beval\b|\bexport[ \t]+\$\(|\benv-file\b"
    r"|\bdotenv\b|\bxargs\b"
)
"""What puts variables of another file into the script's environment: `source`, `. file`, `set -a`."""
SHELL_OWN = re.compile(
    r"(?:CI|GITHUB|GITLAB|TRAVIS|CIRCLE|BUILDKITE|JENKINS|DRONE|BITBUCKET|RUNNER|ACTIONS|AZURE|BUILD)_\w*"
    r"|CI|HOME|USER|LOGNAME|SHELL|PATH|PWD|OLDPWD|TERM|LANG|HOSTNAME|UID|EUID|GID|DISPLAY|TMPDIR|BASH\w*"
    r"|XDG_\w*|SUDO_\w*|SSH_\w*|LC_\w*|NVIDIA_\w*|CUDA_\w*"
)
"""Variables a shell, `sudo`, a CI runner or a GPU base image (`CUDA_…`) sets without being told."""
_SPAN_RUN = re.compile(
    r"(?:(?:ba)?sh[ \t]+)?(\./[\w./-]+\.(?:sh|bash)|[\w-][\w./-]*\.(?:sh|bash))(?:[ \t].*)?"
)
"""A code span of the prose that runs a script: `./start.sh`, `bash tools/run.sh --fast`."""
_SHELLS = ("#!/bin/bash", "#!/usr/bin/env bash", "#!/bin/sh", "#!/usr/bin/env sh")


def assigns(text: str, name: str) -> bool:
    """True when the script `text` gives `name` a value itself."""
    word = re.escape(name)
    return (
        re.search(
            rf"(?:^|[;&|(]|\b(?:then|do|else))[ \t]*(?:(?:export|declare|local|readonly|typeset)[ \t]+"
            rf"(?:-\w+[ \t]+)*)?{word}\+?="
            rf"|\bread\b[^\n#]*[ \t]{word}\b|\bfor[ \t]+{word}[ \t]|\bgetopts\b[^\n#]*[ \t]{word}\b"
            rf"|\$\{{{word}:?=",
            text,
            re.MULTILINE,
        )
        is not None
    )


def unset_stops(text: str) -> dict[str, int]:
    """NAME → script line of each variable whose being unset stops the shell script `text` at its top
    level (see the module docstring); none when the script reads other files into its environment."""
    lines = text.splitlines()
    if any(READS_FILES.search(line) for line in lines if not line.lstrip().startswith("#")):
        return {}
    found: dict[str, int] = {}
    in_function = False
    heredoc: str | None = None
    for index, line in enumerate(lines):
        if heredoc is not None:
            if line.strip() == heredoc:
                heredoc = None
            continue
        if (opened := re.search(r"<<-?[ \t]*['\"]?(\w+)['\"]?", line)) is not None:
            heredoc = opened.group(1)
        if in_function:
            in_function = not line.startswith("}")
            continue
        if not line or line[0] in " \t#":
            continue
        if FUNCTION.match(line):
            in_function = not line.rstrip().endswith("}")
            continue
        names: list[str] = []
        if (check := _IF_Z.match(line)) is not None:
            body: list[str] = []
            for following in lines[index + 1 : index + 10]:
                if _END.match(following.strip()):
                    break
                body.append(following)
            if any(_EXIT.search(b.split("#", 1)[0]) for b in body):
                names.append(check.group(1) or check.group(2))
        elif (check := _TEST_Z.match(line)) is not None and _AND_EXIT.match(line, check.end()):
            names.append(check.group(1) or check.group(2))
        elif (check := _TEST_N.match(line)) is not None and _OR_EXIT.match(line, check.end()):
            names.append(check.group(1) or check.group(2))
        else:
            code = line.split(" #", 1)[0]
            names.extend(
                m.group(1) for m in _REQUIRED.finditer(code) if code[: m.start()].count("'") % 2 == 0
            )
        for name in names:
            found.setdefault(name, index + 1)
    return {n: at for n, at in found.items() if not SHELL_OWN.fullmatch(n) and not assigns(text, n)}


_PY_READ = r"os\.(?:environ\.get|getenv)\([ \t]*[\"']" + _NAME + r"[\"'][ \t]*\)"
"""A read of a variable with no default (`os.environ.get("KEY")`, `os.getenv("KEY")`): None when unset."""
_PY_ASSIGN = re.compile(r"([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*" + _PY_READ + r"[ \t]*(?:#.*)?$")
_PY_IF = re.compile(r"if[ \t]+(.+?):[ \t]*(?:#.*)?$")
_PY_NOT = re.compile(r"\bnot[ \t]+(?:([A-Za-z_]\w*)\b(?![ \t]*[.(\[])|" + _PY_READ + r")")
_PY_EXIT = re.compile(
    r"^[ \t]+(?:sys\.exit|exit|quit|os\._exit)\([ \t]*[1-9\"']|^[ \t]+raise[ \t]+SystemExit\b"
)
_PY_FILES = re.compile(
    r"\b(?:load_dotenv|dotenv|environ\.update|environ\.setdefault|environ\[[^\]]+\][ \t]*=)"
)
"""What gives a Python script variables the environment did not (`load_dotenv()`, `os.environ[…] = …`)."""


def python_stops(text: str) -> dict[str, int]:
    """NAME → script line of each variable whose being unset stops the Python script `text` at its top
    level: `KEY = os.environ.get("KEY")` (no default) then `if not KEY …:` whose block exits with a
    failing status (`sys.exit(1)`, `raise SystemExit`), or `if not os.getenv("KEY"):` itself; none when
    the script loads variables from elsewhere (`load_dotenv`)."""
    if _PY_FILES.search(text):
        return {}
    lines = text.splitlines()
    held: dict[str, str] = {}  # (the script's name for it → the variable)
    found: dict[str, int] = {}
    for index, line in enumerate(lines):
        if not line or line[0] in " \t#":
            continue
        if (read := _PY_ASSIGN.match(line)) is not None:
            held[read.group(1)] = read.group(2)
            continue
        if (check := _PY_IF.match(line)) is None:
            continue
        read_names = [m.group(2) or held.get(m.group(1) or "") for m in _PY_NOT.finditer(check.group(1))]
        names: list[str] = [n for n in read_names if n]
        if not names:
            continue
        body: list[str] = []
        for following in lines[index + 1 : index + 12]:
            if following.strip() and following[0] not in " \t":
                break
            body.append(following)
        if any(_PY_EXIT.search(b) for b in body):
            for name in names:
                found.setdefault(name, index + 1)
    return {n: at for n, at in found.items() if not SHELL_OWN.fullmatch(n)}


_CONTAINER_RUN = re.compile(
    r"(?:^|[;&|(]|\s)(?:python[0-9.]*|bash|sh)[ \t]+(?:-[a-zA-Z][ \t]+)*"
    r"(/[\w.-]+(?:/[\w.-]+)+\.(?:py|sh))(?![\w./-])"
)
"""A command running a script by its path in a container (`python /app/scripts/download.py`)."""


def _container_runs(doc: Document, models: Sequence[ImageModel]) -> Iterator[tuple[int, str, Path]]:
    """(README line, path as written, file of the build context) of each script a command block runs
    by an absolute path that an audited image copies a file of its build context to (`COPY scripts/
    /app/scripts/` puts scripts/download.py at /app/scripts/download.py)."""
    images = [RunImage(model) for model in models if model.file]
    if not images:
        return
    for fence in doc.fences:
        for line, text in fence.lines:
            if "/" not in text:
                continue
            for match in _CONTAINER_RUN.finditer(text):
                where = posixpath.normpath(match.group(1))
                for image in images:
                    placed = image._placed_at(where)
                    if placed is None:
                        name = posixpath.basename(where)
                        copied = image.copied_to(name)
                        file = image.context_file(name) if copied is not None and copied[0] == where else None
                        placed = (file, 0) if file is not None else None
                    if placed is not None:
                        yield line, match.group(1), Path(os.path.realpath(placed[0]))
                        break


def _named_nearby(name: str, folders: Sequence[Path], dockerfiles: Sequence[str]) -> bool:
    """True when a `.env` file or a compose file of `folders`, or a Dockerfile audited, names `name`."""
    pattern = re.compile(rf"(?<![\w]){re.escape(name)}(?!\w)")
    paths: list[Path] = [Path(d) for d in dockerfiles]
    for folder in folders:
        try:
            entries = [e.name for e in os.scandir(folder) if e.is_file()]
        except OSError:
            continue
        paths += [
            folder / e
            for e in entries
            if e.startswith(".env")
            or e.endswith(".env")
            or e in compose.DEFAULT_FILES
            or e.endswith(".env.example")
        ]
    for path in paths:
        content = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if content is not None and pattern.search(content):
            return True
    return False


def _span_runs(doc: Document, directory: Path) -> Iterator[tuple[int, str, Path]]:
    """(README line, path as written, real path) of each script a code span of the prose runs, found
    from the README's folder."""
    top = os.path.realpath(directory)
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" not in text or ".sh" not in text:
                continue
            for _, _, code in code_spans(text):
                match = _SPAN_RUN.fullmatch(code.strip())
                if match is None or ".." in match.group(1).split("/"):
                    continue
                path = directory / match.group(1)
                if os.path.isfile(path):
                    real = os.path.realpath(path)
                    if real.startswith(top + os.sep):
                        yield line, match.group(1), Path(real)


def unset_variables(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """Each script the README runs that stops when a variable the README never names is unset (see the
    module docstring), `likely`, once per script at the README line of its first run."""
    runs = [(line, path, script) for line, path, script, _ in script_runs(doc, directory, audited, project)]
    runs += list(_span_runs(doc, directory))
    runs += list(_container_runs(doc, models))
    runs.sort(key=lambda run: run[0])
    said = text.lower()
    dockerfiles = [m.file or m.path for m in models]
    seen: set[Path] = set()
    for line, path, script in runs:
        if script in seen:
            continue
        seen.add(script)
        content = text_or_none(script, MAX_PROJECT_FILE_BYTES)
        if content is None:
            continue
        if script.suffix == ".py":
            read = python_stops(content)
        elif content.lstrip().startswith(_SHELLS):
            read = unset_stops(content)
        else:
            continue
        stops = {
            name: at
            for name, at in read.items()
            if re.search(rf"(?<![\w]){re.escape(name.lower())}(?!\w)", said) is None
            and not _named_nearby(name, (script.parent, directory), dockerfiles)
        }
        if not stops:
            continue
        listed = ", ".join(f"{n} ({script.name}:{at})" for n, at in stops.items())
        yield Diagnostic(
            readme,
            line,
            f"README runs {path}, but {script.name} stops unless {listed} "
            + ("is" if len(stops) == 1 else "are")
            + " set, and the README never names "
            + ("it" if len(stops) == 1 else "them")
            + ": run as written, the script aborts",
            confidence=LIKELY,
        )
