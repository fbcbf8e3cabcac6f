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
code span of the prose runs (`` `./start.sh` ``, `` `bash run.sh` ``) from the README's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY
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
    runs.sort(key=lambda run: run[0])
    said = text.lower()
    dockerfiles = [m.file or m.path for m in models]
    seen: set[Path] = set()
    for line, path, script in runs:
        if script in seen:
            continue
        seen.add(script)
        content = text_or_none(script, MAX_PROJECT_FILE_BYTES)
        if content is None or not content.lstrip().startswith(_SHELLS):
            continue
        stops = {
            name: at
            for name, at in unset_stops(content).items()
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
