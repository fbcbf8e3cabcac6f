"""A README's table of the variables a compose file reads (`| Variable | Default | Used by |`), against
the compose files it runs or that sit near it: the default a row gives that the file gives otherwise
(`${ROS_DOMAIN_ID:-0}`), a row naming a variable nothing reads (setting it changes nothing), and a row
saying a variable is a build arg of a service (`zed.build.args`) that the service's Dockerfile does not
declare or that compose does not pass to it. Beside the tables: a block of the env file a README's
`docker compose --env-file FILE` reads whose variables no compose file reads, a listen address the README
gives as `0.0.0.0` that a compose service sets to loopback, a `- NAME=value` block said to be in a
compose file whose values its service sets otherwise, and a volume whose host side is a variable with no
default that nothing sets for the README's own `docker compose up` (`- ${DATA_DIR}:/data` becomes
`:/data`, which compose refuses: `_empty_sources`).

The compose files are those a `docker compose -f FILE` of a command block or a link names, and the
compose files of the README's folder, of the folder above, and of a `docker/` or `deploy/` folder in
either. The variables each file reads come from `docgen.compose.variables`, the `.env` beside it and
the env files its services read from `docgen.compose.dotenv`. Each table row is read once.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_commands, command_words
from docgen.audit.compose_paths import Started, started_compose
from docgen.audit.env_defaults import cell_default, same
from docgen.audit.grammar import DOCKER_COMPOSE, read_compose
from docgen.audit.memo import per_audit
from docgen.audit.missing import one_edit
from docgen.audit.names import compose_file
from docgen.audit.paths import resolves_inside
from docgen.audit.wording import CODE_NAME, NOT_CURRENT, heading_of
from docgen.bake import Target
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import bytes_or_none, real_path, text_or_none
from docgen.findings import BROKEN_COMMAND
from docgen.markdown import Document, Table, code_spans, links, lists
from docgen.model import Diagnostic, ImageModel

_NEAR = ("", "docker", "deploy")
"""The folders of the README's folder and of the one above it whose compose files are read."""
_COMPOSE_WORD = re.compile(r"\bcompose\b", re.IGNORECASE)
_NAME_COLUMN = re.compile(r"\b(?:variable|name|env|key|setting|parameter)s?\b", re.IGNORECASE)
_BUILD_ARG = re.compile(r"\bbuild[._ -]?args?\b|--build-arg\b|(?-i:\bARG\b)", re.IGNORECASE)
_SERVICE_SPAN = re.compile(r"([\w-]+)(?:\.([\w.]+))?\Z")
_MULTI = re.compile(r"[,;]|\bor\b|\band\b", re.IGNORECASE)


@dataclass(frozen=True)
class _File:
    """A compose file read for its variables."""

    shown: str
    folder: Path
    services: tuple[compose.Service, ...]
    variables: tuple[compose.Variable, ...]
    builds: tuple[Target, ...]
    env: dict[str, tuple[str, str]]
    """What its `.env` and its services' env files set: name → (value, `file:line`)."""
    templated: frozenset[str] = frozenset()
    """The names of `env` read from a template the README copies to an env file that is not there
    (`cp .env.example .env`): the values the reader starts from."""


@per_audit(maxsize=16)
def _read(path: Path) -> tuple[tuple[compose.Variable, ...], tuple[Target, ...]] | None:
    data = bytes_or_none(path)
    if data is None:
        return None
    try:
        return compose.variables(data), compose.parse(data, path.name)
    except DocgenError:
        return None


def _env_file(path: Path) -> dict[str, tuple[str, int]]:
    data = bytes_or_none(path)
    return {} if data is None else compose.dotenv(data)


_COPY_TO = re.compile(r"(?<![\w-])cp(?:[ \t]+-[a-zA-Z]+)*[ \t]+([^\s;&|<>$]+)[ \t]+([^\s;&|<>$]+)")
"""A `cp SOURCE DESTINATION` step (`cp .env.example .env`)."""


def _templates(doc: Document, directory: Path) -> dict[Path, Path]:
    """The files the README's `cp` steps (command blocks, code spans) make from a template of the
    repository: destination → template, both from the README's folder."""
    lines = [t for f in doc.fences for _, t in f.lines]
    lines += [span for p in doc.paragraphs for _, t in p.lines for _, _, span in code_spans(t)]
    found: dict[Path, Path] = {}
    for text in lines:
        for match in _COPY_TO.finditer(text):
            source, target = (directory / m.strip("\"'") for m in match.groups())
            if os.path.isfile(source):
                found.setdefault(real_path(target), source)
    return found


def compose_files(doc: Document, directory: Path, top: Path) -> list[_File]:
    """The compose files the README runs (`-f`), links, or that sit near it, each read once."""
    paths: list[Path] = []
    for fence in doc.fences:
        for lines in build_commands(fence, DOCKER_COMPOSE):
            words = command_words(lines, DOCKER_COMPOSE)
            named = read_compose(words).files if words is not None else ()
            if named and not any(re.search(r"[$<>{}*?]", n) for n in named):
                folder = compose.run_folder(directory, named, top)
                paths.extend(folder / n for n in named)
    for para in doc.paragraphs:
        for _, text in para.lines:
            for link in links(text):
                target = (link.target or "").split("#", 1)[0]
                if compose.FILE_NAME.fullmatch(posixpath.basename(target)) and "://" not in target:
                    paths.append(directory / target)
    for base in (directory, directory.parent):
        for sub in _NEAR:
            folder = base / sub if sub else base
            try:
                names = sorted(e.name for e in os.scandir(folder) if os.path.isfile(e))
            except OSError:
                continue
            paths.extend(folder / n for n in names if compose.FILE_NAME.fullmatch(n))
    found: list[_File] = []
    templates: dict[Path, Path] | None = None  # read once, when an env file is not there
    for path in dict.fromkeys(real_path(p) for p in paths if os.path.isfile(p)):
        if not path.is_relative_to(top):
            continue
        services, read = compose_file(path), _read(path)
        if services is None or read is None:
            continue
        env: dict[str, tuple[str, str]] = {}
        templated: set[str] = set()
        sources = [".env", *(f for s in services[0] for f in s.env_files)]
        for name in dict.fromkeys(sources):
            if not resolves_inside(path.parent / name, top):
                continue  # (an env file named out of the project is not read)
            file, shown = path.parent / name, name
            if not os.path.exists(file):  # the template the README copies it from, if any
                templates = _templates(doc, directory) if templates is None else templates
                template = templates.get(real_path(file))
                if template is None or not resolves_inside(template, top):
                    continue
                file = template
                shown = Path(os.path.relpath(template, directory.resolve())).as_posix()
                templated.update(k for k in _env_file(file) if k not in env)
            for key, (value, line) in _env_file(file).items():
                env.setdefault(key, (value, f"{shown}:{line}"))
        shown = Path(os.path.relpath(path, directory.resolve())).as_posix()
        found.append(_File(shown, path.parent, services[0], read[0], read[1], env, frozenset(templated)))
    return found


def compose_variables(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each row of a table of compose variables (see the module docstring) that a compose file near
    the README contradicts."""
    prose = " ".join(t for p in doc.paragraphs for _, t in p.lines).lower()
    told = "compose" in prose and "variable" in prose  # (`set X in the compose file`)
    fenced = any("compose" in t for f in doc.fences for _, t in f.lines)
    edits = any(".env" in t and _EDITS_ENV.search(t) for f in doc.fences for _, t in f.lines)  # `nano .env`
    tabled = bool(doc.tables) or "default" in prose or ".env" in prose or told or edits
    if not tabled and "compose" not in prose and not fenced:
        return  # (most READMEs: no compose file is read)
    top = (project or directory).resolve()
    files = compose_files(doc, directory, top)
    if not files:
        return
    yield from _ignored_build_args(doc, readme, files, models)
    yield from _interpolation_only(doc, readme, files)
    yield from _loopback_overrides(doc, readme, files)
    yield from _compose_excerpts(doc, readme, files)
    yield from _empty_sources(doc, readme, directory, project, files)
    if not tabled:
        return
    services = {s.name for f in files for s in f.services}
    title = doc.headings[0][1] if doc.headings else ""
    for table in doc.tables:
        if not table.header or not _NAME_COLUMN.search(table.header[0]):
            continue
        rows = [(line, cells, m.group(1)) for line, cells in table.rows if (m := CODE_NAME.match(cells[0]))]
        if len(rows) < 2:
            continue
        known = [name for _, _, name in rows if _reads(files, name)]
        if len(known) < 2 or 2 * len(known) < len(rows):
            continue  # a table of what the application reads, not of the compose file's variables
        said = " ".join([*table.header, heading_of(doc, table.line), table.context, title])
        worded = bool(_COMPOSE_WORD.search(said)) or _of_template(files, [name for _, _, name in rows])
        named_rows = {line: _named(cells, table.header, services) for line, cells, _ in rows}
        if not worded and not any(named_rows.values()):
            continue
        column = next((i for i, c in enumerate(table.header) if re.search(r"default", c, re.I)), None)
        for line, cells, name in rows:
            yield from _row(readme, files, models, table, line, cells, name, column, named_rows[line], worded)
    yield from _said_defaults(doc, readme, files, title)
    yield from _env_lists(doc, readme, files, models)
    yield from _unset_by_env_fences(doc, readme, directory, project, files)
    if told:
        yield from _misspelt_settings(doc, readme, files, models)


_UPPER_NAME = re.compile(r"(?<![\w$])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w])")
"""A variable's name in prose, code or not: upper case with a `_` (`ONEAPI_DEVICE_SELECTOR`)."""
_VARIABLE_WORD = re.compile(r"\bvariables?\b", re.IGNORECASE)


def _misspelt_settings(
    doc: Document, readme: str, files: Sequence[_File], models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A variable a sentence speaking of a compose file and of variables names (`set the
    ONEAPI_DEVICE_DELECTOR environment variable in the docker compose file`) that no compose file near
    the README sets or reads, nor any Dockerfile compared, while exactly one name they set or read is a
    slip away from it (one letter added, dropped, changed or two swapped, as file names are matched):
    the name the reader would set does nothing (`likely`)."""
    where: dict[str, str] = {}  # each name a compose file sets or reads → `file:line`
    for file in files:
        for service in file.services:
            for name, _value, number in service.environment:
                where.setdefault(name, f"{file.shown}:{number}" if number else file.shown)
        for variable in file.variables:
            where.setdefault(variable.name, f"{file.shown}:{variable.line}")
        for name, (_value, place) in file.env.items():
            where.setdefault(name, place)
    declared = {a.name for m in models for a in m.args} | {e.name for m in models for e in m.env}
    for para in doc.paragraphs:
        for line, text in para.lines:
            if not _COMPOSE_WORD.search(text) or not _VARIABLE_WORD.search(text):
                continue
            for match in _UPPER_NAME.finditer(text):
                name = match.group(1)
                if len(name) < 8 or name in where or name in declared or _reads(files, name):
                    continue
                near = [known for known in where if len(known) >= 8 and one_edit(name, known)]
                if len(near) != 1:
                    continue
                yield Diagnostic(
                    readme,
                    line,
                    f"README says to set {name}, which no compose file nor Dockerfile sets or reads; "
                    f"{where[near[0]]} sets {near[0]} (did you mean {near[0]}?)",
                    confidence=LIKELY,
                )


_ENV_FILE = re.compile(r"(?<![\w.])\.env\b(?![.\w-])|\benv(?:ironment)?[ \t]+file\b", re.IGNORECASE)
"""Words naming the env file Compose reads beside the compose file (`Edit .env to customize:`)."""
_ITEM_NAME = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*)?`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`")
"""A list item starting with a variable's name in code (`` - `ENABLE_WEBUI` - … ``, `` - `PORT=8080` ``)."""


def _env_lists(
    doc: Document, readme: str, files: Sequence[_File], models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A list of variables the README says to set in the `.env` file (its introduction or heading names
    it), most of which (at least two) the compose files near the README read: a name no compose file,
    no Dockerfile and no script beside them reads is set for nothing, as Compose passes `.env` only to
    its own interpolation (`certain`). Not when a service reads an env file (`env_file:`: the container
    may read any variable), nor a list about the application's settings (most names unread)."""
    if any(s.env_files for f in files for s in f.services):
        return
    groups: list[list[tuple[int, str]]] = []
    for block in lists(doc):
        if _ENV_FILE.search(f"{block.intro} {block.heading}"):
            groups.append([(line, m.group(1)) for line, text in block.items if (m := _ITEM_NAME.match(text))])
    groups.extend(named for named, _ in _env_fences(doc))
    scripts: list[str] | None = None  # the scripts beside the compose files, read once when needed
    for named in groups:
        if len(named) < 2:
            continue
        read = [name for _, name in named if _compose_reads(files, name)]
        if len(read) < 2 or 2 * len(read) < len(named):
            continue
        for line, name in named:
            if name in read or _in_dockerfiles(files, models, name):
                continue
            if scripts is None:
                scripts = _script_texts(files, yaml=True)  # (a profile's compose file: no default name)
            if any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) for text in scripts):
                continue
            shown = ", ".join(dict.fromkeys(f.shown for f in files))
            said = (
                f"README says to set {name} in .env, but nothing reads it: no compose file ({shown}), "
                "Dockerfile or script beside them names it"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)


_SHELL_SET = frozenset("PWD HOME USER UID GID HOSTNAME PATH SHELL LOGNAME TERM TMPDIR OLDPWD".split())
"""Variables the user's shell has already when compose runs (`${PWD}`, `${HOME}`)."""


def _unset_by_env_fences(
    doc: Document, readme: str, directory: Path, project: Path | None, files: Sequence[_File]
) -> Iterator[Diagnostic]:
    """A variable a compose file reads with no default (`${ACTIVE_PROFILES}`, `$TOKEN`), when the README
    writes out the `.env` beside it as a block (`_env_fences`) that sets at least two of the variables the
    file reads but not this one: run as the README says, compose gives it an empty value (`likely`: the
    service may not need it). Not when anything else may set it: the `.env` or another env file there
    (`.env.example`, `*.env`), a script or Makefile beside the compose file, the README anywhere (an
    `export NAME=…`, `NAME=… docker compose up`, a sentence), or the shell (`${PWD}`); nor `${NAME:+x}`,
    which reads nothing when it is unset. A script that sets it only for the compose run it makes itself
    does not set it for the README's own start of the file (`_bypassed`). Once per variable, at the
    block's first line."""
    fences = [named for named, intro in _env_fences(doc) if not _PARTIAL.search(intro)]
    if not fences:
        return
    text = "\n".join(t for f in doc.fences for _, t in f.lines)
    text += "\n" + "\n".join(t for p in doc.paragraphs for _, t in p.lines)
    scripts: list[tuple[Path, str]] | None = None
    starts: dict[Path, Started] | None = None  # the compose files the README's own commands start
    reported: set[str] = set()
    for named in fences:
        names = {name for _, name in named}
        for file in files:
            variables = [v for v in file.variables if v.name not in _SHELL_SET]
            read = {v.name for v in variables}
            if len(names & read) < 2:
                continue
            lines = (text_or_none(file.folder / posixpath.basename(file.shown)) or "").splitlines()
            unset: dict[str, int] = {}
            for v in variables:
                if v.name in names or v.name in file.env or v.name in reported:
                    continue
                raw = lines[v.line - 1] if 0 < v.line <= len(lines) else ""
                if v.default is not None or re.search(rf"\$\{{{re.escape(v.name)}:?\+", raw):
                    unset.pop(v.name, None)
                    reported.add(v.name)  # (given a default somewhere: not read as unset)
                    continue
                unset.setdefault(v.name, v.line)
            for name, at in unset.items():
                word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])", re.IGNORECASE)
                if word.search(text) or _in_env_files(file.folder, word):
                    continue
                if scripts is None:
                    scripts = _scripts(files)
                setters = [(path, t) for path, t in scripts if word.search(t)]
                if setters:
                    if starts is None:
                        starts = {s.path: s for s in started_compose(doc, directory, project)}
                    started = starts.get(real_path(file.folder / posixpath.basename(file.shown)))
                    bypass = _bypassed(setters, name, text, started)
                    if bypass is None:
                        continue
                    reported.add(name)
                    said = (
                        f"README's .env sets no {name}, but {file.shown}:{at} reads ${{{name}}} with no "
                        f"default and only {bypass}: compose gives it an empty value"
                    )
                    yield Diagnostic(readme, named[0][0], said, confidence=LIKELY)
                    continue
                reported.add(name)
                said = (
                    f"README's .env sets no {name}, but {file.shown}:{at} reads ${{{name}}} with no default "
                    "and no env file, script or command of the README sets it: compose gives it an empty "
                    "value"
                )
                yield Diagnostic(readme, named[0][0], said, confidence=LIKELY)


_BARE_SOURCE = re.compile(r"[ \t]*-[ \t]*[\"']?\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))(:/[^\s\"']*)")
"""A volume (short syntax) whose host side is one variable and nothing else: `- ${DATA_DIR}:/data`."""
_PLAIN_START = re.compile(
    r"(?:^|[\s:(])(?:sudo[ \t]+)?docker(?:[ \t]+compose|-compose)((?:[ \t]+-[-\w]+)*)[ \t]+"
    r"(?:up|run|create|start)\b(.*)"
)
"""A compose start written in a line of prose, out of code (`on main: docker compose up -d --build`)."""
_ELSEWHERE = re.compile(r"(?<![\w-])(?:-f|--file|--env-file|--project-directory)\b|\bcd\b")


def _prose_starts(doc: Document, directory: Path) -> list[tuple[int, list[Path]]]:
    """(README line, the compose files of the README's folder) of each compose start a line of prose
    writes out of code, with no file, env file, folder or `cd` of its own."""
    found: list[tuple[int, list[Path]]] = []
    for para in doc.paragraphs:
        for line, text in para.lines:
            bare, at = [], 0
            for begin, end, _ in code_spans(text):
                bare.append(text[at:begin])
                at = end
            start = _PLAIN_START.search(" ".join([*bare, text[at:]]))
            if start is not None and not _ELSEWHERE.search(start.group(1) + start.group(2)):
                found.append((line, [real_path(p) for p in compose.default_files(directory)]))
    return found


def _empty_sources(
    doc: Document, readme: str, directory: Path, project: Path | None, files: Sequence[_File]
) -> Iterator[Diagnostic]:
    """A compose file the README starts as it is (`docker compose up`, in a command block or a line of
    prose) whose service mounts a volume from a variable alone (`- ${UNSLOTH_DIR}:/mnt/`) that has no
    default and that nothing gives the README's run: no `.env` or env file beside the file names it,
    the README never names it (an `export`, `NAME=… docker compose up`, a sentence) nor an env file
    to pass (`--env-file`), and the shell does not set it (`${PWD}`). Compose puts in an empty value, reads
    the volume as `:/mnt/` and refuses the file (`invalid spec: :/mnt/: empty section between colons`),
    so the command fails (`certain`). A script beside the file that sets it only for the compose run it
    makes itself (`export UNSLOTH_DIR=…`, then `docker-compose up`) is named (`_bypassed`); any other
    file naming it keeps the rule silent. A service in a profile is left alone. Once per variable."""
    text = "\n".join(t for f in doc.fences for _, t in f.lines)
    text += "\n" + "\n".join(t for p in doc.paragraphs for _, t in p.lines)
    if "--env-file" in text:
        return
    starts: dict[Path, Started] = {}
    for started in started_compose(doc, directory, project):
        starts.setdefault(started.path, started)
    for line, paths in _prose_starts(doc, directory):
        for path in paths:
            shown = Path(os.path.relpath(path, real_path(directory))).as_posix()
            starts.setdefault(path, Started(path, line, "README runs docker compose up", shown))
    scripts: list[tuple[Path, str]] | None = None
    told: set[str] = set()
    written_env = next(_env_fences(doc), None) is not None
    for file in files:
        path = real_path(file.folder / posixpath.basename(file.shown))
        start = starts.get(path)
        if start is None:
            continue
        lines = (text_or_none(path) or "").splitlines()
        profiled = {s.name for s in file.services if s.profiles}
        for v in file.variables:
            if v.default is not None or v.service is None or v.service in profiled or v.name in told:
                continue
            if v.name in _SHELL_SET or v.name in file.env or not 0 < v.line <= len(lines):
                continue
            source = _BARE_SOURCE.match(lines[v.line - 1])
            bare_source = source is not None and v.name in source.groups()[:2]
            if not bare_source and re.search(rf"\$\{{{re.escape(v.name)}:?\+", lines[v.line - 1]):
                continue  # (`${NAME:+x}` reads nothing when it is unset)
            word = re.compile(rf"(?<![\w]){re.escape(v.name)}(?![\w])", re.IGNORECASE)
            if word.search(text) or _in_env_files(file.folder, word):
                continue
            if scripts is None:
                scripts = _scripts(files)
            setters = [(p, t) for p, t in scripts if word.search(t)]
            bypassed = _bypassed(setters, v.name, text, start) if setters else None
            if setters and bypassed is None:
                continue
            if source is None or not bare_source:
                if bypassed is None or written_env:
                    continue  # (a README writing the env file out is `_unset_by_env_fences`' to read)
                told.add(v.name)
                yield Diagnostic(
                    readme,
                    start.line,
                    f"{start.said}, but {file.shown}:{v.line} reads ${v.name} with no default "
                    f"({lines[v.line - 1].strip()}), and no env file or command of the README sets it; "
                    f"{bypassed}: run as the README says, compose gives {v.name} an empty value",
                    confidence=LIKELY,
                    rule=BROKEN_COMMAND,
                )
                continue
            told.add(v.name)
            names = " and ".join(p.name for p, _ in setters[:2])
            only = (
                f" (only {names}, which {'runs' if len(setters) == 1 else 'run'} compose itself, "
                f"{'sets' if len(setters) == 1 else 'set'} it)"
                if setters
                else ""
            )
            yield Diagnostic(
                readme,
                start.line,
                f"{start.said}, but {file.shown}:{v.line} mounts ${{{v.name}}} as a volume's host path with "
                f"no default, and no env file or command of the README sets {v.name}{only}: compose reads "
                f"the volume as {source.group(3)} and refuses the file (invalid spec: empty section between "
                "colons)",
                confidence=CERTAIN,
                rule=BROKEN_COMMAND,
            )


_WRITES_ENV = re.compile(r">>?[ \t]*[\"']?[\w./-]*\.env\b|\btee\b[^\n]*\.env\b|\bsed[ \t]+-i\b[^\n]*\.env\b")
"""A script writing an env file (`echo "X=1" >> .env`, `cat > .env <<EOF`, `tee .env`, `sed -i … .env`)."""
_RUNS_COMPOSE = re.compile(r"(?m)^[^#\n]*\bdocker(?:[ \t]+|-)compose\b")
"""A line of a script running compose (`docker compose … up`, `docker-compose -f x.yml up`)."""


def _bypassed(
    setters: Sequence[tuple[Path, str]], name: str, readme_text: str, start: Started | None
) -> str | None:
    """What sets `name` and what runs without it (`up.sh, which runs compose itself, sets it, while README
    runs docker compose up (line 56) not through it`) when every script in `setters` naming `name` is a
    shell script that sets it (`export NAME=…`, `NAME=…`) and runs compose itself, for its own run,
    which the README does not source (`. ./up.sh`) and that writes no env file, while the README's own
    command blocks start the compose file (`start`) without it: that command sees no value. None
    otherwise (a Makefile, a script that only reads it, a sourced one or one writing `.env`: it may set
    it for the README's commands)."""
    if start is None:
        return None
    assigned = re.compile(rf"(?m)^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?{re.escape(name)}=")
    for path, text in setters:
        if (
            not path.name.endswith((".sh", ".bash"))
            or not assigned.search(text)
            or not _RUNS_COMPOSE.search(text)
        ):
            return None
        if _WRITES_ENV.search(text):
            return None  # (it writes the env file the README's command reads after it)
        if re.search(rf"(?:\bsource|(?:^|[;&|(\s])\.)[ \t]+\S*{re.escape(path.name)}\b", readme_text, re.M):
            return None
    names = [p.name for p, _ in setters]
    which = (
        f"{names[0]}, which runs compose itself, sets it"
        if len(names) == 1
        else f"{', '.join(names[:-1])} and {names[-1]}, which run compose themselves, set it"
    )
    return (
        f"{which}, while {start.said} (line {start.line}) not through {'it' if len(names) == 1 else 'them'}"
    )


def _in_env_files(folder: Path, word: re.Pattern[str]) -> bool:
    """True when an env file of `folder` (`.env`, `.env.example`, `prod.env`) names the word."""
    try:
        names = sorted(e.name for e in os.scandir(folder) if os.path.isfile(e))
    except OSError:
        return False
    for name in names:
        if name.startswith(".env") or name.endswith(".env") or name.startswith("env."):
            if (text := text_or_none(folder / name)) is not None and word.search(text):
                return True
    return False


_ENV_LINE = re.compile(r"([A-Z][A-Z0-9_]*)=(?:[^\s'\"`$]*|\"(?:[^\"\\]|\\.)*\"|'[^']*')")
"""A line of an env file: `NAME=value`, the value one plain word (or none) or quoted (`ARGS="--port 80"`)."""
_ENV_LANGS = frozenset({"", "bash", "sh", "shell", "env", "dotenv", "ini", "text", "properties", "conf"})


_EDITS_ENV = re.compile(
    r"\b(?:nano|vim?|vi|emacs|code|edit|cp|mv|touch|cat)\b[^\n#]*?(?<![\w./-])\.env(?![\w.-])", re.IGNORECASE
)
"""A command of a block that makes or edits the env file (`nano .env`, `cp .env.example .env`)."""


_PARTIAL = re.compile(r"\b(?:examples?|optional(?:ly)?|skip|sample)\b", re.IGNORECASE)
"""Words saying a `.env` block is an example or optional (`Here is an example `.env` file:`, `Environment
Setup (Optional)`): the variables it leaves out are not said to be set, and an unset one is no slip."""


def _env_fences(doc: Document) -> Iterator[tuple[list[tuple[int, str]], str]]:
    """(README line, name) of each line of a fenced block that is the `.env` file, with the words that
    introduce it (the line above and the heading): the line ending in `:` just above it names it
    (`Create a `.env` file in this directory:`), or an earlier block of its section edits it (`nano
    .env`, then `Ensure these settings are configured:`), and every line that is not blank or a `#`
    comment is `NAME=value`."""
    ends = {para.lines[-1][0]: para.lines[-1][1] for para in doc.paragraphs if para.lines}
    edited: set[int] = set()  # the sections a block of which edits the env file (`nano .env`)
    for fence in doc.fences:
        if fence.lang.lower() not in _ENV_LANGS or not fence.lines:
            continue
        opening = fence.lines[0][0] - 1
        intro = next((ends[n] for n in (opening - 1, opening - 2) if n in ends), "")
        shown = fence.section in edited  # (`Ensure these settings are configured:` under that block)
        if fence.section and any(_EDITS_ENV.search(text) for _, text in fence.lines):
            edited.add(fence.section)
        if not intro.rstrip().endswith(":") or not (shown or _ENV_FILE.search(intro)):
            continue
        named: list[tuple[int, str]] = []
        for line, text in fence.lines:
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            if (match := _ENV_LINE.fullmatch(text)) is None:
                break
            named.append((line, match.group(1)))
        else:
            yield named, f"{intro} {heading_of(doc, opening)}"


def _compose_reads(files: Sequence[_File], name: str) -> bool:
    """True when a compose file reads `name`: as a variable, an `environment:` or `args:` key, a word of
    a setting (not an env file setting it)."""
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    return any(
        any(v.name == name for v in f.variables)
        or any(
            name in {k for k, _ in s.args}
            or name in {k for k, _, _ in s.environment}
            or any(word.search(text) for _, text in s.settings)
            for s in f.services
        )
        for f in files
    )


_YAML_DEPTH = 2
"""How deep below a compose file's folder the other YAML files are read (`profiles/monitoring.yml`)."""
_YAML_MOST = 60
"""At most this many of them are read."""


def _script_texts(files: Sequence[_File], yaml: bool = False) -> list[str]:
    """The texts of the shell scripts and Makefiles in the compose files' folders (one may source
    `.env` and read its variables); with `yaml`, also of the YAML files in and below them (`_YAML_DEPTH`
    folders down, no hidden one): a compose file no command names and no default name gives
    (`profiles/monitoring.yml`, which the reader passes with `-f`) reads what `.env` sets too."""
    return [text for _, text in _scripts(files, yaml)]


def _scripts(files: Sequence[_File], yaml: bool = False) -> list[tuple[Path, str]]:
    """(path, text) of each file `_script_texts` reads."""
    texts: list[tuple[Path, str]] = []
    yamls = 0
    for top in dict.fromkeys(f.folder for f in files):
        below: list[tuple[Path, int]] = [(top, 0)]
        while below:
            folder, depth = below.pop(0)
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                name = entry.name
                try:
                    is_file = entry.is_file()
                    is_dir = yaml and entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if is_dir and depth < _YAML_DEPTH and not name.startswith("."):
                    below.append((folder / name, depth + 1))
                    continue
                if not is_file:
                    continue
                wanted = depth == 0 and (name.endswith((".sh", ".bash")) or name in ("Makefile", "makefile"))
                if yaml and not wanted and name.endswith((".yml", ".yaml")) and yamls < _YAML_MOST:
                    wanted, yamls = True, yamls + 1
                if wanted and (text := text_or_none(folder / name)) is not None:
                    texts.append((folder / name, text))
    return texts


_SAID_DEFAULT = re.compile(
    r"`([A-Z][A-Z0-9]*_[A-Z0-9_]*)`[^`\n]{0,40}?\bdefault(?:s|s[ \t]+to|[ \t]+value)?(?:[ \t]+is)?[ \t]*[:=]?"
    r"[ \t]*`([^`\s]{1,80})`",
    re.IGNORECASE,
)
"""`` `MODEL_DIR` defaults to `./models` ``, `` - `PORT` (default: `8080`) ``: a name, then its default."""


def _said_defaults(doc: Document, readme: str, files: Sequence[_File], title: str) -> Iterator[Diagnostic]:
    """A line of prose or a list item giving a compose variable a default (`` `PORT` defaults to
    `8080` ``), on a line or under a heading that speaks of compose or the page's title does, against
    the defaults the compose files give it (`likely`: prose may mean another way to run the image)."""
    for para in doc.paragraphs:
        for number, text in para.lines:
            if "default" not in text.lower() or "`" not in text:
                continue  # (most lines)
            about = f"{text} {heading_of(doc, number)} {title}"
            if not _COMPOSE_WORD.search(about) and ".env" not in about:
                continue
            for match in _SAID_DEFAULT.finditer(text):
                name, said = match.group(1), match.group(2).strip("\"'")
                if "$" in said or "<" in said or not any(v.name == name for f in files for v in f.variables):
                    continue
                yield from _default(readme, files, number, name, said, {}, LIKELY)


def _named(cells: list[str], header: list[str], services: set[str]) -> dict[str, bool]:
    """The services a row's cells name in code (`zed`, `zed.build.args`) → True when it names their
    build args; the name and default columns are not read."""
    found: dict[str, bool] = {}
    for index, cell in enumerate(cells[1:], start=1):
        if index < len(header) and re.search(r"default|value", header[index], re.I):
            continue
        for _, _, span in code_spans(cell):
            match = _SERVICE_SPAN.match(span.strip())
            if match and match.group(1) in services:
                arg = bool(match.group(2) and _BUILD_ARG.search(match.group(2)))
                found[match.group(1)] = found.get(match.group(1), False) or arg
    return found


def _of_template(files: Sequence[_File], names: Sequence[str]) -> bool:
    """True when most of `names` (two at least) are set by the env template the README copies for a
    compose file (`cp .env.example .env`): a table of them documents that file."""
    set_there = [n for n in names if any(n in f.templated for f in files)]
    return len(set_there) >= 2 and 2 * len(set_there) > len(names)


def _reads(files: Sequence[_File], name: str) -> bool:
    """True when a compose file reads or sets `name` (a variable, an `environment:` or `args:` key, a
    word of a setting) or its env files set it."""
    return any(name in f.env for f in files) or _compose_reads(files, name)


def _row(
    readme: str,
    files: Sequence[_File],
    models: Sequence[ImageModel],
    table: Table,
    line: int,
    cells: list[str],
    name: str,
    column: int | None,
    named: dict[str, bool],
    worded: bool,
) -> Iterator[Diagnostic]:
    rest = " ".join(cells[1:])
    build_arg = any(named.values()) or bool(
        _BUILD_ARG.search(" ".join(s for c in cells[1:] for _, _, s in code_spans(c)))
    )
    if build_arg:
        yield from _build_arg(readme, files, line, name, named)
        return
    if column is None:
        return
    if _reads(files, name):
        said = cell_default(cells, column)
        if said is not None and "$" not in said and "<" not in said:
            one = len(code_spans(cells[column])) <= 1 and not _MULTI.search(cells[column])
            yield from _default(readme, files, line, name, said, named, CERTAIN if one else LIKELY)
        return
    if any(s.env_file for f in files for s in f.services):
        return  # the services read variables compose does not name
    if _in_dockerfiles(files, models, name) or "$" in rest:
        return
    shown = ", ".join(f.shown for f in files if f.services)
    yield Diagnostic(
        readme,
        line,
        f"README lists {name} as a variable of {shown}, but no service there reads it (setting it "
        "changes nothing)",
        confidence=CERTAIN if worded else LIKELY,
    )


def _values(file: _File, name: str, service: str | None) -> list[tuple[str | None, str]]:
    """The values `file` gives `name` (in `service`, or anywhere): (value or None when it gives none,
    where)."""
    found: list[tuple[str | None, str]] = []
    for v in file.variables:
        if v.name == name and (service is None or v.service in (service, None)):
            found.append((v.default, f"{file.shown}:{v.line}"))
    for s in file.services:
        if service is not None and s.name != service:
            continue
        for key, value, at in s.environment:
            if key == name and "$" not in value:
                found.append((value, f"{file.shown}:{at}" if at else file.shown))
    return found


def _default(
    readme: str,
    files: Sequence[_File],
    line: int,
    name: str,
    said: str,
    named: dict[str, bool],
    confidence: str,
) -> Iterator[Diagnostic]:
    """A default the README gives `name` that no compose file gives it (each service the row names
    apart); one set by an env file (`.env`) is the value compose reads, and agrees too."""
    if any(name in f.env and same(said, f.env[name][0]) for f in files):
        return
    scopes: list[str | None] = [*named] or [None]
    wrong: list[tuple[str | None, str | None, str]] = []
    for service in scopes:
        found = [pair for f in files for pair in _values(f, name, service)]
        if not found or any(value is None for value, _ in found):
            continue  # not read there, or read from the environment with no default
        if not any(same(said, value) for value, _ in found if value is not None):
            wrong.append((service, *found[0]))
    env = next((f.env[name] for f in files if name in f.env), None)
    given_anywhere = [v for f in files for v, _ in _values(f, name, None) if v is not None]
    if env is not None and not any(same(said, v) for v in given_anywhere):
        value, where = env
        holder = next(f for f in files if name in f.env)
        if not value and name in holder.templated and _written_in(holder.folder, said):
            return  # the template leaves it empty, and a script of the project may fill it with this
        text = f"README says {name} defaults to {said}, but {where} sets {name}={value}"
        text += "" if value else " (empty)"
        yield Diagnostic(readme, line, text, confidence=confidence)
        return
    if not wrong:
        return
    scoped, given, at = wrong[0]
    gives = f"defaults it to {given}" if given else "gives it no default (empty)"
    scope = f" for service {scoped}" if scoped and len(wrong) < len(scopes) else ""
    yield Diagnostic(
        readme,
        line,
        f"README says {name} defaults to {said}{scope}, but {at} {gives}",
        confidence=confidence,
    )


_WRITTEN_FILES = 2_000
"""Files read at most below a compose file's folder for a value a template leaves empty."""


def _written_in(folder: Path, value: str) -> bool:
    """True when a file below `folder` but a Markdown page (a script, a Dockerfile) writes `value`; or
    when the tree is larger than `_WRITTEN_FILES` (not known)."""
    read = 0
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in sorted(names):
            if name.lower().endswith((".md", ".markdown", ".rst")):
                continue
            read += 1
            if read > _WRITTEN_FILES:
                return True
            if value in (text_or_none(Path(top, name)) or ""):
                return True
    return False


def _declares(dockerfile: Path, name: str) -> int | None | bool:
    """The line of `dockerfile`'s `ARG name`; False when it declares none; None when it cannot be read."""
    try:
        parsed = read_dockerfile(dockerfile)
    except (OSError, DocgenError):
        return None
    for inst in parsed.instructions:
        if inst.keyword == "ARG":
            if any(w.split("=", 1)[0] == name for w in inst.args.split()):
                return inst.start_line
    return False


def _build_arg(
    readme: str, files: Sequence[_File], line: int, name: str, named: dict[str, bool]
) -> Iterator[Diagnostic]:
    """A row saying `name` is a build arg (of the services it names in `svc.build.args`, else of every
    service that builds): each service must pass it and its Dockerfile declare it."""
    builds = [(f, t, s) for f in files for t in f.builds for s in f.services if s.name == t.name]
    wanted = [svc for svc, arg in named.items() if arg] or list(named)
    chosen = [b for b in builds if b[1].name in wanted] if wanted else builds
    if not chosen:
        return
    problems: list[str] = []
    declared_somewhere = False
    for file, target, service in chosen:
        dockerfile = file.folder / target.dockerfile
        if target.dockerfile.startswith("/") or not os.path.isfile(dockerfile):
            return
        declared = _declares(dockerfile, name)
        if declared is None:
            return
        shown_df = posixpath.normpath(posixpath.join(posixpath.dirname(file.shown), target.dockerfile))
        passed = name in {k for k, _ in service.args} or name in target.own_args
        if declared is not False:
            declared_somewhere = True
        if declared is False and passed:
            at = next((v.line for v in file.variables if v.name == name and v.service == target.name), None)
            at = at or target.own_args.get(name)
            where = f"{file.shown}:{at}" if at else file.shown
            problems.append(
                f"{shown_df} declares no ARG {name} ({where} passes it to {target.name}; it changes nothing)"
            )
        elif declared is False:
            problems.append(
                f"{file.shown} does not pass it to {target.name}, and {shown_df} declares no ARG {name}"
            )
        elif not passed:
            problems.append(
                f"{file.shown} does not pass it to {target.name} ({shown_df}:{declared} declares it)"
            )
    if not problems:
        return
    if not wanted and declared_somewhere:
        return  # every service was checked only because the row names none
    sure = CERTAIN if any(named.values()) else LIKELY
    yield Diagnostic(
        readme,
        line,
        f"README says {name} is a build arg ({', '.join(wanted) or 'of the compose builds'}), "
        f"but {'; '.join(problems)}",
        confidence=sure,
    )


_QUOTED_COMPOSE = frozenset({"yaml", "yml"})
"""Fence languages that quote a compose file: its `build.args` shown as they are, not a knob to turn."""


def _ignored_args(files: Sequence[_File]) -> dict[str, tuple[str, str, str]]:
    """Each build arg a compose file passes (`build.args`) to a service whose Dockerfile neither
    declares it (no `ARG`) nor names it at all, and that the service does not also set in its
    `environment:` → (where it is passed, `file:line`; the service; the Dockerfile as shown). Docker warns
    the arg was not consumed and builds as if it were not there."""
    dead: dict[str, tuple[str, str, str]] = {}
    for file in files:
        for target in file.builds:
            service = next((s for s in file.services if s.name == target.name), None)
            if service is None:
                continue
            dockerfile = file.folder / target.dockerfile
            if target.dockerfile.startswith("/") or not os.path.isfile(dockerfile):
                continue
            text = _dockerfile_text(dockerfile)
            set_here = {name for name, _value, _line in service.environment}
            shown_df = posixpath.normpath(posixpath.join(posixpath.dirname(file.shown), target.dockerfile))
            for name in dict.fromkeys([*(k for k, _ in service.args), *target.own_args]):
                if name in dead or name in set_here or not text or _declares(dockerfile, name) is not False:
                    continue
                if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
                    continue  # (named without an ARG: read some other way, or a comment about it)
                at = next(
                    (v.line for v in file.variables if v.name == name and v.service == target.name), None
                )
                at = at or target.own_args.get(name)
                where = f"{file.shown}:{at}" if at else file.shown
                dead[name] = (where, target.name, shown_df)
    return dead


def _ignored_build_args(
    doc: Document, readme: str, files: Sequence[_File], models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A build arg a compose file passes that the service's Dockerfile does not declare (`_ignored_args`),
    named by the README in code in the prose or in a command or settings block (not a YAML block, which
    quotes the compose file): the README has the reader set a knob that changes nothing (`When CUDA
    updates, edit CUDA_BASE_IMAGE` after the Dockerfile stopped reading it). `likely`; once a name, at
    its first line; not on a line saying the name is of the past (`deprecated`, `old`), nor a name an
    audited Dockerfile or another service's Dockerfile declares (a build script may pass it there: the
    base image the service builds on)."""
    declared = {a.name for m in models for a in m.args}
    for file in files:
        for target in file.builds:
            other = file.folder / target.dockerfile
            if not target.dockerfile.startswith("/") and os.path.isfile(other):
                text = _dockerfile_text(other)
                declared.update(re.findall(r"(?im)^[ \t]*ARG[ \t]+([A-Za-z_]\w*)", text))
    dead = {name: said for name, said in _ignored_args(files).items() if name not in declared}
    if not dead:
        return
    word = re.compile(
        r"(?<![\w$])(" + "|".join(re.escape(n) for n in sorted(dead, key=len, reverse=True)) + r")(?![\w])"
    )
    lines: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        lines.extend((n, " ".join(c for _, _, c in code_spans(t))) for n, t in para.lines if "`" in t)
    lines.extend((n, " ".join(c for _, _, c in code_spans(t))) for n, t in doc.headings if "`" in t)
    for fence in doc.fences:
        if fence.lang.lower() not in _QUOTED_COMPOSE:
            lines.extend(fence.lines)
    said: set[str] = set()
    for line, text in sorted(lines):
        if NOT_CURRENT.search(text):
            continue
        for match in word.finditer(text):
            name = match.group(1)
            if name in said:
                continue
            said.add(name)
            where, service, dockerfile = dead[name]
            yield Diagnostic(
                readme,
                line,
                f"README names {name}, which {where} passes to {service} as a build arg; {dockerfile} "
                f"declares no ARG {name}, so setting it changes nothing",
                confidence=LIKELY,
            )


def _in_dockerfiles(files: Sequence[_File], models: Sequence[ImageModel], name: str) -> bool:
    """True when a Dockerfile the compose files build, or one audited, names `name`."""
    paths = {f.folder / t.dockerfile for f in files for t in f.builds}
    paths |= {Path(m.file) for m in models if m.file}
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    return any(word.search(_dockerfile_text(path)) for path in sorted(paths))


@per_audit(maxsize=32)
def _dockerfile_text(path: Path) -> str:
    """The text of the Dockerfile at `path`, read once ('' when it cannot be read)."""
    return text_or_none(path) or ""


_CLI_ENV_FILE = re.compile(r"(?<![\w-])--env-file(?:[ \t]+|=)[\"']?([^\s\"';&|<>$]+)")
"""The env file a `docker compose --env-file FILE up` reads for interpolation."""
_COMPOSE_OWN = re.compile(r"(?:COMPOSE|DOCKER|BUILDKIT)_\w*")
"""Variables Compose itself reads from an env file (`COMPOSE_PROJECT_NAME`, `DOCKER_HOST`)."""


def _interpolation_only(doc: Document, readme: str, files: Sequence[_File]) -> Iterator[Diagnostic]:
    """A block of `NAME=value` lines the line above introduces as the file a README's `docker compose
    --env-file FILE` reads (`Create a `.compose.env` file … and define the following variables:`),
    whose names no compose file near the README reads (`${NAME}`): Compose uses that file only to fill
    in the compose file, so setting them changes nothing (`certain`). Not when a service also reads the
    file (`env_file: FILE` passes it to the container), nor names Compose reads itself (`COMPOSE_…`), nor
    a name a script beside the compose files names (one may source the file). Once per block."""
    named: dict[str, int] = {}  # the env file's base name → the line of the command reading it
    for fence in doc.fences:
        for line, text in fence.lines:
            if _COMPOSE_WORD.search(text):
                for match in _CLI_ENV_FILE.finditer(text):
                    named.setdefault(posixpath.basename(match.group(1)), line)
    if not named or not files:
        return
    passed = {posixpath.basename(f) for file in files for s in file.services for f in s.env_files}
    ends = {para.lines[-1][0]: para.lines[-1][1] for para in doc.paragraphs if para.lines}
    scripts: list[str] | None = None
    for fence in doc.fences:
        if fence.lang.lower() not in _ENV_LANGS or not fence.lines:
            continue
        opening = fence.lines[0][0] - 1
        intro = next((ends[n] for n in (opening - 1, opening - 2) if n in ends), "")
        target = next((n for n in named if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w.-])", intro)), None)
        if target is None or target in passed:
            continue
        names: list[tuple[int, str]] = []
        for line, text in fence.lines:
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            if (setting := _ENV_LINE.fullmatch(text)) is None:
                names = []
                break
            names.append((line, setting.group(1)))
        unread = [
            (line, name)
            for line, name in names
            if not _COMPOSE_OWN.fullmatch(name)
            and not any(v.name == name for f in files for v in f.variables)
        ]
        if not unread:
            continue
        if scripts is None:
            scripts = _script_texts(files)
        unread = [
            (line, name)
            for line, name in unread
            if not any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", t) for t in scripts)
        ]
        if not unread:
            continue
        shown = ", ".join(dict.fromkeys(f.shown for f in files))
        listed = ", ".join(name for _, name in unread)
        said = (
            f"README says the compose run (line {named[target]}, --env-file {target}) reads {listed} from "
            f"{target}, but no compose file ({shown}) uses {'it' if len(unread) == 1 else 'them'}: Compose "
            "reads that file only to fill in ${…} in the compose file, so setting them changes nothing"
        )
        yield Diagnostic(readme, unread[0][0], said, confidence=CERTAIN)


_LOOPBACK_VALUE = re.compile(r"(?:127\.0\.0\.1|localhost|\[?::1\]?)(?::\d+)?", re.IGNORECASE)
_WILDCARD = re.compile(r"(?<![\w.])(?:0\.0\.0\.0|\[?::\]?)(?::\d+)?(?![\w.])")
_LOOPBACK_WORD = re.compile(r"(?<![\w.])(?:127\.0\.0\.1|localhost|::1)(?![\w.])", re.IGNORECASE)


def _loopback_overrides(doc: Document, readme: str, files: Sequence[_File]) -> Iterator[Diagnostic]:
    """A variable a README's table row or sentence gives the every-address value (`` | `OLLAMA_HOST` |
    `0.0.0.0:11434` | Listen address | ``) that a service of a compose file the README starts (`docker
    compose up`) sets to a loopback address (`OLLAMA_HOST=127.0.0.1`) while it publishes ports or runs on
    the host's network: the server compose starts listens on loopback only, out of reach of the published
    port (bridge network) or of other machines (host network), as `loopback_binds` tells of a `docker run`
    (`likely`: the README may mean the image's own default). Not when the README names a loopback value
    on a line naming the variable (`set OLLAMA_HOST=127.0.0.1 to keep it local`)."""
    if not any("up" in t.split() and _COMPOSE_WORD.search(t) for f in doc.fences for _, t in f.lines):
        return
    said: dict[str, tuple[int, str]] = {}  # variable → (README line, the every-address value it gives)
    for table in doc.tables:
        for line, cells in table.rows:
            if cells and (coded := CODE_NAME.match(cells[0])) is not None:
                value = next((m.group(0) for c in cells[1:] if (m := _WILDCARD.search(c))), None)
                if value is not None:
                    said.setdefault(coded.group(1), (line, value))
    for para in doc.paragraphs:
        for line, text in para.lines:
            for match in _SAID_DEFAULT.finditer(text):
                if _WILDCARD.fullmatch(match.group(2)):
                    said.setdefault(match.group(1), (line, match.group(2)))
    if not said:
        return
    for para in doc.paragraphs:  # a loopback value the README itself gives the variable
        for _, text in para.lines:
            if _LOOPBACK_WORD.search(text):
                for name in [n for n in said if n in text]:
                    del said[name]
    for fence in doc.fences:
        for _, text in fence.lines:
            if _LOOPBACK_WORD.search(text):
                for name in [n for n in said if n in text]:
                    del said[name]
    for file in files:
        for service in file.services:
            host = any(k == "network_mode" and v.strip("\"'") == "host" for k, v in service.settings)
            if not host and not service.ports:
                continue
            for name, value, number in service.environment:
                if name not in said or not _LOOPBACK_VALUE.fullmatch(value.strip("\"'")):
                    continue
                line, wide = said[name]
                where = f"{file.shown}:{number}" if number else file.shown
                reach = (
                    "network_mode: host, so it is out of reach of other machines"
                    if host
                    else f"its published ports ({', '.join(service.ports or ())}) reach the container's "
                    "network address, not its loopback, so nothing answers"
                )
                yield Diagnostic(
                    readme,
                    line,
                    f"README gives {name} as {wide} (every address), but {where} sets {name}={value} for "
                    f"service {service.name}: the server `docker compose up` starts listens on loopback only "
                    f"({reach})",
                    confidence=LIKELY,
                )


_EXCERPT_ITEM = re.compile(r"[ \t]*-[ \t]+[\"']?([A-Za-z_][A-Za-z0-9_]*)=([^\s\"'#]*)[\"']?[ \t]*(?:#.*)?")
"""An `environment:` list item of a compose file (`- POSTGRES_USER=whisper`)."""
_CHANGE = re.compile(
    r"\b(?:change|replace|adjust|customi[sz]e|modify|your|own|example|e\.g\.|such[ \t]+as|like[ \t]+this|"
    r"for[ \t]+instance|override|edit)\b",
    re.IGNORECASE,
)
"""Words telling the reader the values shown are theirs to choose."""
_PLACEHOLDER = re.compile(r"[<>{}$]|\.\.\.|\bx{3,}\b|your|change|secret|here\b", re.IGNORECASE)


def _compose_excerpts(doc: Document, readme: str, files: Sequence[_File]) -> Iterator[Diagnostic]:
    """A block of `- NAME=value` items the line above says are in a compose file by its name (`uncomment
    the PostgreSQL variables in docker-compose.yml:`), at least two of whose names one service of that
    file sets with at least one the same value: a value the service sets otherwise is not what the file
    holds (`certain`: the README quotes the file). Not when the introduction or the section's heading
    tells the reader to choose (`change`, `your`, `example`), nor placeholder values (`<password>`)."""
    ends = {para.lines[-1][0]: para.lines[-1][1] for para in doc.paragraphs if para.lines}
    for fence in doc.fences:
        if fence.lang.lower() not in {"yaml", "yml", ""} or not fence.lines:
            continue
        opening = fence.lines[0][0] - 1
        intro = next((ends[n] for n in (opening - 1, opening - 2) if n in ends), "")
        quoted = [
            f for f in files if re.search(rf"(?<![\w.-]){re.escape(posixpath.basename(f.shown))}\b", intro)
        ]
        if not quoted or _CHANGE.search(f"{intro} {heading_of(doc, opening)}"):
            continue
        items: list[tuple[int, str, str]] = []
        for line, text in fence.lines:
            if not text.strip() or text.strip().startswith("#"):
                continue
            if (match := _EXCERPT_ITEM.fullmatch(text)) is None:
                items = []
                break
            items.append((line, match.group(1), match.group(2)))
        if len(items) < 2:
            continue
        for file in quoted[:1]:
            for service in file.services:
                sets = {name: (value.strip("\"'"), number) for name, value, number in service.environment}
                shared = [(line, n, v) for line, n, v in items if n in sets]
                if len(shared) < 2 or not any(sets[n][0] == v for _, n, v in shared):
                    continue
                for line, name, value in shared:
                    have, number = sets[name]
                    if have == value or _PLACEHOLDER.search(value) or _PLACEHOLDER.search(have):
                        continue
                    where = f"{file.shown}:{number}" if number else file.shown
                    yield Diagnostic(
                        readme,
                        line,
                        f"README shows {name}={value} as in {file.shown}, but {where} sets {name}={have} "
                        f"for service {service.name}",
                        confidence=CERTAIN,
                    )
                break
