"""Files a script the README runs hands to Docker that the repository lacks: `./run.sh gpu` whose
script runs `docker compose -f deploy/compose.yml run …` or `docker build -f deploy/Dockerfile.gpu .`
where no such file is, read from the folder the script runs its commands in; and a script whose
`docker compose` reads the project's compose file (no `-f`) where none is (`fileless_composes`: `run the
`start.sh` script`, which runs `docker compose up -d` in a folder with no compose file).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_paths, substituted
from docgen.audit.references import in_checkout, inside, project_top
from docgen.audit.script_builds import (
    CD,
    SHELL,
    SHOWN,
    WRITER,
    build_start,
    logical_lines,
    project_lines,
    relative_path,
    script_runs,
    shell_scripts_run,
)
from docgen.build_scripts import BUILD, UNKNOWN, expand, walk_assignments
from docgen.markdown import Document
from docgen.model import Diagnostic

_COMPOSE = re.compile(r"\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b")
_COMPOSE_FILE = re.compile(r"[ \t](?:-f|--file)(?:[ \t]+|=)(\"[^\"]*\"|'[^']*'|[^\s;|&]+)")
"""A `-f FILE` of a compose command (the global option, before or after others)."""


class ScriptFiles:
    """Of each shell script the README runs (once per script), the compose files its `docker compose -f`
    and the Dockerfiles its `docker build -f` name, up to its first `cd` (other than into its own folder),
    their variables given literal values: one that is neither in the folder the script runs in, nor
    beside the script, nor in the README's folder is a finding (`likely`: the script may be run from
    elsewhere). Not a path holding a variable the script does not give, an absolute path, nor a file
    the script writes, copies or moves (a line naming it after `>`, `cp`, `mv`, `tee`, `sed -i`)."""

    def __init__(
        self, doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None
    ) -> None:
        self.doc = doc
        self.readme = readme
        self.directory = directory
        self.audited = audited
        self.project = project
        self.top = project_top(directory, project)

    def findings(self) -> Iterator[Diagnostic]:
        seen: set[Path] = set()
        for line, run, script, cwd in script_runs(self.doc, self.directory, self.audited, self.project):
            if script in seen:
                continue
            seen.add(script)
            lines = project_lines(script)
            text = "\n".join(lines)
            if not (script.suffix in (".sh", ".bash") or SHELL.match(text)):
                continue
            started = build_start(script, cwd, self.top)
            if started is None:
                continue
            folder, kept = started
            places = list(dict.fromkeys([folder, cwd, script.parent, self.directory.resolve()]))
            for at, kind, name in _named_files(kept):
                if name.startswith(("/", "~")) or _written(lines, name):
                    continue
                if any(
                    (p := inside(place / name, self.top)) is not None and os.path.isfile(p)
                    for place in places
                ):
                    continue
                shown = posixpath.relpath(script.as_posix(), self.directory.resolve().as_posix())
                said = (
                    f"README runs {run}, whose {kind} ({shown}:{at}) reads {name}, "
                    "which the repository does not have"
                )
                yield Diagnostic(self.readme, line, said, confidence=LIKELY)


def _named_files(lines: list[str]) -> Iterator[tuple[int, str, str]]:
    """(script line, `docker compose` or `docker build`, path) of each `-f` file of a compose command or a
    build of the script's `lines` before any `cd`, its literal variables expanded."""
    logical = logical_lines(lines)
    numbers = [n for n, _ in logical]
    for index, line, variables in walk_assignments([t for _, t in logical], {}):
        if SHOWN.match(line):
            continue
        code = substituted(line.split(" #", 1)[0])
        compose = _COMPOSE.search(code)
        build = BUILD.search(code)
        first = min((m.start() for m in (compose, build) if m is not None), default=None)
        if any(first is None or m.start() < first for m in CD.finditer(code)):
            return  # a `cd`: the folder of what follows is not known
        if compose is not None:
            for match in _COMPOSE_FILE.finditer(code[compose.end() :]):
                name = expand(match.group(1), variables)
                if name and UNKNOWN not in name and "$" not in name and name != "-":
                    yield numbers[index], "docker compose", posixpath.normpath(name)
        elif build is not None:
            paths = build_paths(code[build.start() :])
            if paths is None or not paths[0]:
                continue
            file, context = expand(paths[0], variables), expand(paths[1], variables)
            if UNKNOWN in file + context or "$" in file + context or not context or file == "-":
                continue
            yield numbers[index], "docker build", posixpath.normpath(file)


def _written(lines: list[str], name: str) -> bool:
    """True when a line of the script names the file's name after something that writes, copies or
    moves it."""
    base = posixpath.basename(name)
    for line in lines:
        named = line.rfind(base)
        if named >= 0 and (writer := WRITER.search(line)) is not None and writer.start() < named:
            return True
    return False


def script_files(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of `ScriptFiles`."""
    return ScriptFiles(doc, readme, directory, audited, project).findings()


_READS_COMPOSE = re.compile(
    r"(?:^|&&|\|\||;|\()[ \t]*(?:sudo[ \t]+)?(?:docker[ \t]+compose|docker-compose)[ \t]+(?P<verb>[a-z]+)\b"
)
"""A `docker compose VERB` (`docker-compose VERB`) as a command of a script line, no global option before
the verb (`-f`, `-p`, `--project-directory`: not read)."""
_NEEDS_FILE = frozenset({"build", "up", "run", "create", "pull", "push", "config", "down", "logs", "start"})
"""The compose commands that read the project's compose file (not `version` or `ls`), as
`entered_compose` reads them."""
_NAMES_FILES = re.compile(r"COMPOSE_FILE|--project-directory|\b(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml\b")
"""What gives compose its file another way, or writes one: `COMPOSE_FILE`, `--project-directory`, a
compose file's name (`cat > docker-compose.yml`, `cp compose.prod.yaml …`)."""


def _has_compose_file(folder: Path, top: Path) -> bool:
    """True when `folder` or one above it, up to `top`, holds a file compose reads without `-f`."""
    for place in (folder, *folder.parents):
        if any(os.path.isfile(place / name) for name in compose.DEFAULT_FILES):
            return True
        if place == top or not place.is_relative_to(top):
            return False
    return False


def compose_scripts(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[tuple[int, str, Path, Path, list[tuple[int, str]]]]:
    """(README line, how the README runs it, the script, the folder it runs in, its lines up to its own
    first `cd`, comments cut) of each shell script the README runs that gives compose no file of its
    own (`_NAMES_FILES`): a `docker compose` among those lines reads the default file of that folder."""
    top = project_top(directory, project)
    for line, run, script, cwd, text in shell_scripts_run(doc, directory, audited, project):
        if _NAMES_FILES.search(text):
            continue
        started = build_start(script, cwd, top)
        if started is None:
            continue
        folder, lines = started
        before: list[tuple[int, str]] = []
        for at, code in logical_lines(lines):
            code = code.split(" #", 1)[0]
            if CD.search(code):
                break
            before.append((at, code))
        yield line, run, script, folder, before


def fileless_composes(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A script the README runs (`./start.sh`, `run the `start.sh` script`) whose `docker compose`
    command reads the project's compose file (`up`, `build`, `down`, `logs` … as `entered_compose`
    lists them), before any `cd` of its own but into its folder, while neither the folder the script
    runs in nor one above it, up to the project's top, holds one: compose stops with "no configuration
    file provided" (`certain` in a git checkout, which holds every file; `likely` in a copy of some).
    Not a script that names a compose file (it may write one, or pass it), `COMPOSE_FILE` or
    `--project-directory`, nor one run from a folder no README step shows."""
    real_top = Path(os.path.realpath(project_top(directory, project)))
    for line, run, script, folder, lines in compose_scripts(doc, directory, audited, project):
        for at, code in lines:
            match = _READS_COMPOSE.search(code)
            if match is None or match.group("verb") not in _NEEDS_FILE:
                continue
            if _has_compose_file(Path(os.path.realpath(folder)), real_top):
                break
            checkout = in_checkout(Path(os.path.realpath(folder)), real_top)
            where = relative_path(folder, directory)
            shown = f"{folder.name}/, the README's folder" if where == "." else f"{where}/"
            names = ", ".join(compose.DEFAULT_FILES[:-1]) + f" or {compose.DEFAULT_FILES[-1]}"
            command = f"docker compose {match.group('verb')} ({relative_path(script, directory)}:{at})"
            yield Diagnostic(
                readme,
                line,
                f"README runs {run}, whose {command} reads a compose file, but no {names} is in the folder "
                f"it runs in ({shown}) nor in one above it",
                confidence=CERTAIN if checkout else LIKELY,
            )
            break
