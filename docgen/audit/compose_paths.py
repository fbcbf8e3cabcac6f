"""Files a compose file the README starts reads that the repository lacks: a top-level `include:` of a
compose file that is not there (`include: [./docker-compose-base.yml]`: `docker compose` stops while
loading, before it starts anything), and a single configuration file a service bind-mounts
(`./prometheus.yml:/etc/prometheus/prometheus.yml`) that nothing makes: Docker creates an empty folder
in its place and the program cannot read its configuration.

The compose files the README starts (`started_compose`) are those its `docker compose up|run|create|start`
commands read (the `-f` files, else the default ones of the folder the command runs in, a `cd` of the
block before it followed), and those the recipes of a `make TARGET` it runs read the same way, each
recipe line in its own folder (`cd ragflow && docker compose up -d`). A compose file the README never
leads to is not read.

A bind mount is read only when both sides name a file (`name.ext`), the source is relative to the
compose file (`./`, `../`), holds no variable, and no file the reader is told of makes it: the README
and the Makefile name it nowhere, no `.gitignore` beside the compose file or at the root names it (the
reader creates it), and no twin to copy it from sits in its folder (`prometheus.yml.example`,
`prometheus.example.yml`). A folder the application makes (`./data:/data`) is no file, and a service
with `profiles:` is started only on demand: neither is read. A compose file whose include is missing is
told once, for that. Each finding is `certain`: compose reads these files as the README tells it to run.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose, makefile
from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import fence_commands, joined
from docgen.audit.grammar import COMPOSE, ComposeCall, read_compose
from docgen.audit.make_targets import make_commands, makefile_of, makefile_text
from docgen.audit.paths import resolves_inside
from docgen.errors import DocgenError
from docgen.files import bytes_or_none, real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_STARTS = frozenset({"up", "run", "create", "start"})
"""The compose commands that start a project's services (and so load every file it includes)."""
_STEP = re.compile(r"&&|\|\||;")
_CD = re.compile(r"\A(?:\$[ \t]+)?(?:cd|pushd)(?:[ \t]+([^\s;&|]+))?[ \t]*\Z")
_PREFIX = re.compile(r"\A(?:[@+-]+|(?:sudo|exec|time|nohup)[ \t]+)+")


@dataclass(frozen=True)
class Started:
    """A compose file a README starts."""

    path: Path
    """The compose file, its links resolved."""
    line: int
    """The README line of the command that starts it (the `make` command for a recipe's)."""
    said: str
    """How the README starts it (`README runs make deploy-ragflow, whose recipe (Makefile:34) runs
    docker compose up in ragflow`)."""
    shown: str
    """The compose file's path from the README's folder."""


def _walk(folder: str | None, target: str | None) -> str | None:
    """The folder (from the one a command starts in, '') a `cd TARGET` enters; None when it cannot be
    told (`cd $X`, `cd ~`, `cd /opt`, `cd` alone)."""
    if folder is None or not target:
        return None
    target = target.strip("\"'")
    if not target or target.startswith(("/", "$", "~", "-", "%")) or "`" in target or "$" in target:
        return None
    return posixpath.normpath(posixpath.join(folder, target))


def _compose_step(step: str) -> ComposeCall | None:
    """The compose command of a step that starts services (`docker compose -f a.yml up -d`: its verb,
    the files it names, none for the folder's default); None for another step or one that cannot be
    told."""
    match = COMPOSE.search(step)
    if match is None or step[: match.start()].strip(" \t@+-") not in ("", "sudo", "$"):
        return None
    words = step[match.end() :].replace("\\", " ").split()
    call = read_compose([w.strip("\"'") for w in words])
    if call.verb not in _STARTS or not call.top.complete:
        return None
    if any(re.search(r"[$<>{}*?`]", name) or name == "-" for name in call.files):
        return None
    return call


def _files(root: Path, folder: str, named: tuple[str, ...], top: Path) -> list[Path]:
    """The compose files a start command run in `root`/`folder` reads, each inside `top`."""
    where = root / folder if folder else root
    paths = [where / name for name in named] if named else compose.default_files(where)
    return [real_path(p) for p in paths if os.path.isfile(p) and resolves_inside(p, top)]


def _steps(text: str, folder: str | None) -> tuple[list[tuple[str, ComposeCall]], str | None]:
    """(folder, compose command) of each compose start of one command line run in `folder`, the `cd`
    steps before it followed, and the folder the line ends in."""
    found: list[tuple[str, ComposeCall]] = []
    for step in _STEP.split(text):
        step = _PREFIX.sub("", step.strip())
        cd = _CD.match(step)
        if cd is not None:
            folder = _walk(folder, cd.group(1))
            continue
        start = _compose_step(step)
        if start is not None and folder is not None:
            found.append((folder, start))
    return found, folder


def started_compose(doc: Document, directory: Path, project: Path | None) -> list[Started]:
    """The compose files the README starts: by its command blocks' compose commands (after the block's
    `cd` steps) and by the recipes of the `make` targets it runs; each file once, at the first command."""
    top = real_path(project or directory)
    here = real_path(directory)
    found: dict[Path, Started] = {}

    def add(path: Path, line: int, said: str) -> None:
        if path not in found:
            shown = Path(os.path.relpath(path, here)).as_posix()
            found[path] = Started(path, line, said, shown)

    for fence in doc.fences:
        folder: str | None = ""
        for lines in fence_commands(fence):
            text = joined(lines)
            if text.lstrip().startswith("#"):
                continue
            steps, folder = _steps(text, folder)
            for into, call in steps:
                for path in _files(directory, into, call.files, top):
                    add(path, lines[0][0], f"README runs docker compose {call.verb}")
    commands = list(make_commands(doc))
    if commands:
        made = makefile_of(directory, project)
        recipes = makefile_text(made) if made is not None else None
        if made is not None and recipes is not None:
            shown = Path(os.path.relpath(made, here)).as_posix()
            for line, targets in commands:
                for target in targets:
                    for number, recipe in makefile.recipe_lines(recipes, target) or ():
                        for into, call in _steps(recipe, "")[0]:
                            where = f" in {into}" if into else ""
                            said = (
                                f"README runs make {target}, whose recipe ({shown}:{number}) runs "
                                f"docker compose {call.verb}{where}"
                            )
                            for path in _files(made.parent, into, call.files, top):
                                add(path, line, said)
    return list(found.values())


@dataclass(frozen=True)
class Up:
    """A `docker compose up` of a README's command blocks: the files it reads and what it starts."""

    paths: tuple[Path, ...]
    """The compose files it reads (its `-f` files, else the folder's default ones), links resolved."""
    line: int
    services: tuple[str, ...]
    """The services it names (none: every service not in a profile)."""
    profiles: tuple[str, ...]
    """The profiles its `--profile` options enable."""
    no_deps: bool
    """`--no-deps`: the services it names are started without those they depend on."""


def compose_ups(doc: Document, directory: Path, project: Path | None) -> list[Up]:
    """The `docker compose up` commands of the README's command blocks (after the block's `cd` steps)
    whose every file is there; one whose files cannot be told, or that may read other ones
    (`COMPOSE_FILE`, `--env-file`, `COMPOSE_PROFILES` set before it), is left out."""
    top = real_path(project or directory)
    found: list[Up] = []
    for fence in doc.fences:
        folder: str | None = ""
        cloned = False
        for lines in fence_commands(fence):
            text = joined(lines)
            if text.lstrip().startswith("#"):
                continue
            cloned = cloned or bool(re.search(r"\bgit[ \t]+clone\b", text))
            steps, folder = _steps(text, folder)
            for into, call in steps:
                if call.verb != "up" or re.search(r"COMPOSE_(?:FILE|PROFILES)", text):
                    continue
                if cloned and into and not os.path.isdir(directory / into):
                    into = ""  # the clone the README makes of its own repository: the README's folder
                where = directory / into if into else directory
                named = [where / n for n in call.files] if call.files else compose.default_files(where)
                paths = _files(directory, into, call.files, top)
                if not named or len(paths) != len(named):
                    continue
                no_deps = call.options is not None and any(w == "--no-deps" for w in call.rest)
                found.append(Up(tuple(paths), lines[0][0], call.services, call.profiles, no_deps))
    return found


def read_document(path: Path) -> tuple[Any, tuple[str, ...]] | None:
    """(the YAML document, its lines) of the compose file at `path`, read once while it is unchanged (a
    process may audit a project again after an edit); None when it cannot be read or is no mapping."""
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    return _read_document(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _read_document(path: Path, mtime: int, size: int) -> tuple[Any, tuple[str, ...]] | None:
    del mtime, size  # (the cache's key only)
    data = bytes_or_none(path)
    if data is None:
        return None
    try:
        document = compose.load(data, path.name)
    except DocgenError:
        return None
    if not isinstance(document, dict):
        return None
    return document, tuple(data.decode("utf-8", errors="replace").splitlines())


def entry_line(lines: Sequence[str], start: int | None, text: str) -> int | None:
    """The first line from `start` (1-based, the key's) on that holds the list entry `text`."""
    if start is None:
        return None
    return next((n + 1 for n in range(start - 1, min(len(lines), start + 200)) if text in lines[n]), start)


def _includes(document: dict[Any, Any]) -> list[str]:
    """The compose files a top-level `include:` names (a path, or a mapping's `path:`, one or a list)."""
    raw = document.get("include")
    entries = raw if isinstance(raw, list) else [raw] if raw is not None else []
    found: list[str] = []
    for entry in entries:
        value = entry.get("path") if isinstance(entry, dict) else entry
        found.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
    return found


def missing_includes(started: Started) -> list[tuple[str, int | None]]:
    """(entry, line) of each file the compose file's `include:` names that is not there."""
    read = read_document(started.path)
    if read is None:
        return []
    document, lines = read
    folder = started.path.parent
    found: list[tuple[str, int | None]] = []
    for entry in _includes(document):
        if "$" in entry or "://" in entry or entry.startswith(("/", "~")):
            continue
        if not os.path.lexists(folder / entry):
            found.append((entry, entry_line(lines, compose.line_of(document, "include"), entry)))
    return found


_FILE_NAME = re.compile(r"[\w.-]*\w\.[A-Za-z][\w-]{0,9}")
"""A file's name with an extension (`prometheus.yml`, `nginx.conf`): no folder the application makes."""


def _bind_mounts(service: dict[Any, Any]) -> Iterator[tuple[str, str, str]]:
    """(source, target, the entry as written) of each bind mount of a service's `volumes:` whose source
    is relative to the compose file (`./x.yml:/etc/x.yml:ro`, `{type: bind, source: ./x.yml, …}`)."""
    raw = service.get("volumes")
    for entry in raw if isinstance(raw, list) else []:
        if isinstance(entry, str):
            parts = entry.split(":")
            if len(parts) >= 2:
                yield parts[0], parts[1], entry
        elif isinstance(entry, dict) and entry.get("type") == "bind":
            source, target = entry.get("source"), entry.get("target")
            if isinstance(source, str) and isinstance(target, str):
                yield source, target, source


_MOST_FILES = 50
"""At most this many files of a folder are read for a word about a mounted file."""


@functools.lru_cache(maxsize=16)
def _folder_texts(folder: Path, skip: str) -> str:
    """The texts of the files of `folder` but its compose files (scripts, docs, configurations that may
    make or tell of a mounted file) and `skip` (the compose file read), `_MOST_FILES` at most, each up to
    what docgen reads."""
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False))
    except (OSError, ValueError):
        return ""
    kept = [n for n in names if n != skip and not compose.FILE_NAME.fullmatch(n)]
    texts = [text_or_none(folder / n) or "" for n in kept[:_MOST_FILES]]
    return "\n".join(texts)


def _made_elsewhere(path: Path, name: str, told: str, top: Path, home: Path) -> bool:
    """Whether something the reader is told of makes the file `path` (`name`): the README or the Makefile
    name it (`told`), a file beside the compose file `home` (a setup script, a guide) or beside the
    mounted file names it, a `.gitignore` there or at the root names it, or a twin to copy sits beside
    it."""
    if name in told or any(
        name in _folder_texts(f, home.name) for f in dict.fromkeys((home.parent, path.parent))
    ):
        return True
    for folder in dict.fromkeys((path.parent, top)):
        ignore = text_or_none(folder / ".gitignore")
        if ignore is not None and name in ignore:
            return True
    stem = name.rsplit(".", 1)[0]
    try:
        names = [e.name for e in os.scandir(path.parent)]
    except (OSError, ValueError):
        return False
    return any(n != name and (n.startswith((f"{stem}.", name)) or n.endswith(f".{name}")) for n in names)


def missing_mounts(started: Started, told: str, top: Path) -> Iterator[tuple[str, str, str, int | None]]:
    """(service, source, target, line) of each file a service of the compose file bind-mounts that is
    not there and that nothing the reader is told of makes (`_made_elsewhere`)."""
    read = read_document(started.path)
    if read is None:
        return
    document, lines = read
    services = document.get("services")
    if not isinstance(services, dict):
        return
    folder = started.path.parent
    for name, service in services.items():
        if name == compose.KEY_LINES or not isinstance(service, dict) or service.get("profiles"):
            continue
        for source, target, entry in _bind_mounts(service):
            if not source.startswith(("./", "../")) or "$" in source + target:
                continue
            base, into = posixpath.basename(source), posixpath.basename(target.rstrip("/"))
            if not _FILE_NAME.fullmatch(base) or not _FILE_NAME.fullmatch(into):
                continue
            path = folder / source
            if os.path.lexists(path) or not resolves_inside(path.parent, top):
                continue
            if _made_elsewhere(path, base, told, top, started.path):
                continue
            yield str(name), source, target, entry_line(lines, compose.line_of(service, "volumes"), entry)


def _service_line(doc: Document, service: str) -> int | None:
    """The first table row of the README that names `service` as a word (a service table's row)."""
    if len(service) < 4:
        return None
    word = re.compile(rf"(?<![\w-]){re.escape(service)}(?![\w-])", re.IGNORECASE)
    return next(
        (line for table in doc.tables for line, cells in table.rows if word.search(" ".join(cells))), None
    )


def compose_paths(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """A compose file the README starts that includes a file that is not there, or whose service
    bind-mounts a configuration file that is not there and that nothing makes."""
    started = started_compose(doc, directory, project)
    if not started:
        return
    top = real_path(project or directory)
    made = makefile_of(directory, project)
    told = text + (makefile_text(made) or "" if made is not None else "")
    for one in started:
        missing = missing_includes(one)
        for entry, at in missing:
            yield Diagnostic(
                readme,
                one.line,
                f"{one.said}, but {one.shown}:{at} includes {entry}, which does not exist: compose stops "
                "while loading the file, before it starts any service",
                confidence=CERTAIN,
            )
        if missing:
            continue
        for service, source, target, at in missing_mounts(one, told, top):
            line = _service_line(doc, service) or one.line
            at_line = f", line {one.line}" if line != one.line else ""
            yield Diagnostic(
                readme,
                line,
                f"{one.said} ({one.shown}{at_line}), whose service {service} bind-mounts {source} onto "
                f"{target} ({one.shown}:{at}), but {source} does not exist and nothing makes it: Docker "
                "creates an empty folder in its place, and the service cannot read its configuration",
                confidence=CERTAIN,
            )
