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

import difflib
import functools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose, makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import cloned_folder, clones, fence_commands, image_repository, joined
from docgen.audit.grammar import COMPOSE, ComposeCall, read_compose
from docgen.audit.make_targets import make_commands, makefile_of, makefile_text
from docgen.audit.memo import per_audit
from docgen.audit.missing import line_texts, repository_files
from docgen.audit.paths import files_named, resolves_inside
from docgen.build_scripts import BUILD
from docgen.errors import DocgenError
from docgen.files import (
    DOCKERFILE,
    built_dockerfile,
    bytes_or_none,
    context_dockerfile,
    real_path,
    text_or_none,
)
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
    together: tuple[Path, ...] = ()
    """Every compose file the command that starts it reads, merged into one project (its `-f` files, or
    the folder's default file and its override), links resolved; empty when they cannot all be told (a
    named file missing, `COMPOSE_FILE` set where it runs or anywhere in the README)."""


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


def together(
    root: Path, folder: str, named: tuple[str, ...], top: Path, told: bool = False
) -> tuple[Path, ...]:
    """The compose files one start command run in `root`/`folder` merges (`_files`), when every one of them
    is there and nothing else may be merged in: no `COMPOSE_FILE` in the `.env` of a folder read without
    `-f` (nor anywhere in the README or script: `told`); else ()."""
    where = root / folder if folder else root
    if not named and (told or "COMPOSE_FILE" in (text_or_none(where / ".env") or "")):
        return ()
    expected = len(named) if named else len(compose.default_files(where))
    paths = _files(root, folder, named, top)
    return tuple(paths) if paths and len(paths) == expected else ()


def _compose_calls(
    doc: Document, cloned: frozenset[str] = frozenset()
) -> Iterator[tuple[int, str, ComposeCall]]:
    """(README line, folder, compose command) of each compose start of the README's command blocks, each
    block's `cd`s followed from the README's folder (`_steps`; a `cd` from there into a folder of
    `cloned` stays in it)."""
    for fence in doc.fences:
        folder: str | None = ""
        for lines in fence_commands(fence):
            text = joined(lines)
            if text.lstrip().startswith("#"):
                continue
            steps, folder = _steps(text, folder, cloned)
            for into, call in steps:
                yield lines[0][0], into, call


def _steps(
    text: str, folder: str | None, cloned: frozenset[str] = frozenset()
) -> tuple[list[tuple[str, ComposeCall]], str | None]:
    """(folder, compose command) of each compose start of one command line run in `folder`, the `cd`
    steps before it followed (one from the README's folder into a folder of `cloned` stays there), and
    the folder the line ends in."""
    found: list[tuple[str, ComposeCall]] = []
    for step in _STEP.split(text):
        step = _PREFIX.sub("", step.strip())
        cd = _CD.match(step)
        if cd is not None:
            into = (cd.group(1) or "").strip("\"'").rstrip("/").removesuffix(".git")  # (a bare `cd`: home)
            folder = folder if folder == "" and into in cloned else _walk(folder, cd.group(1))
            continue
        start = _compose_step(step)
        if start is not None and folder is not None:
            found.append((folder, start))
    return found, folder


def started_compose(
    doc: Document, directory: Path, project: Path | None, into_clones: bool = False
) -> list[Started]:
    """The compose files the README starts: by its command blocks' compose commands (after the block's
    `cd` steps; with `into_clones`, a `cd` into a folder the README clones into is taken for the README's
    own folder, the clone of its repository, as `compose_services` takes it) and by the recipes of the
    `make` targets it runs; each file once, at the first command."""
    top = real_path(project or directory)
    here = real_path(directory)
    found: dict[Path, Started] = {}

    def add(path: Path, line: int, said: str, merged: tuple[Path, ...]) -> None:
        if path not in found:
            shown = Path(os.path.relpath(path, here)).as_posix()
            found[path] = Started(path, line, said, shown, merged)

    cloned: frozenset[str] = frozenset()
    if into_clones:
        cloned = frozenset(
            name for url, folder in clones(doc) for name in (folder, cloned_folder(url)) if name
        )
    told = any("COMPOSE_FILE" in text for fence in doc.fences for _, text in fence.lines) or any(
        "COMPOSE_FILE" in text for para in doc.paragraphs for _, text in para.lines
    )
    for line, into, call in _compose_calls(doc, cloned):
        merged = together(directory, into, call.files, top, told)
        for path in _files(directory, into, call.files, top):
            add(path, line, f"README runs docker compose {call.verb}", merged)
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
                            merged = together(made.parent, into, call.files, top, "COMPOSE_FILE" in recipes)
                            for path in _files(made.parent, into, call.files, top):
                                add(path, line, said, merged)
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


def read_services(path: Path) -> tuple[dict[Any, Any], tuple[str, ...]] | None:
    """(its `services:` mapping, its lines) of the compose file at `path` (`read_document`); None when
    the file cannot be read or its `services:` is no mapping."""
    read = read_document(path)
    if read is None:
        return None
    services = read[0].get("services")
    return (services, read[1]) if isinstance(services, dict) else None


def service_items(services: dict[Any, Any]) -> Iterator[tuple[Any, dict[Any, Any]]]:
    """(name, service) of each service of a `services:` mapping that is a mapping (not the line table)."""
    for name, service in services.items():
        if name != compose.KEY_LINES and isinstance(service, dict):
            yield name, service


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


def included(document: dict[Any, Any]) -> list[str]:
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
    for entry in included(document):
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


@per_audit(maxsize=16)
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
    read = read_services(started.path)
    if read is None:
        return
    services, lines = read
    folder = started.path.parent
    for name, service in service_items(services):
        if service.get("profiles"):
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


def _started_services(services: dict[Any, Any], up: Up) -> list[tuple[str, dict[Any, Any]]]:
    """(name, service) of each service of a compose file an `up` starts: those it names, else every one
    not in a profile."""
    found = []
    for name, service in service_items(services):
        if (str(name) in up.services) if up.services else not service.get("profiles"):
            found.append((str(name), service))
    return found


def moved_binds(up: Up, told: str, top: Path) -> Iterator[tuple[Path, str, str, str, int | None, str]]:
    """(compose file, service, source, target, line, where the file is) of each long-syntax bind mount
    (`{type: bind, source: run.sh, …}`) of a service the `up` starts whose source file is not there while
    a file of its name sits elsewhere in the project (`workspace/run.sh`), and nothing the reader is told
    of makes it there: compose refuses a long-syntax bind of a missing source ("bind source path does not
    exist") instead of creating a folder."""
    files: list[Path] | None = None
    for path in up.paths:
        read = read_services(path)
        if read is None:
            continue
        services, lines = read
        folder = path.parent
        for name, service in _started_services(services, up):
            raw = service.get("volumes")
            for entry in raw if isinstance(raw, list) else []:
                if not isinstance(entry, dict) or entry.get("type") != "bind":
                    continue
                bind = entry.get("bind")
                if isinstance(bind, dict) and bind.get("create_host_path") in (True, "true"):
                    continue
                source, target = entry.get("source"), entry.get("target")
                if not isinstance(source, str) or not isinstance(target, str) or "$" in source + target:
                    continue
                if source.startswith(("/", "~")) or "\0" in source or len(source) > 255:
                    continue
                base = posixpath.basename(source.rstrip("/"))
                if not _FILE_NAME.fullmatch(base):
                    continue
                full = folder / source
                if os.path.lexists(full) or not resolves_inside(full.parent, top):
                    continue
                if files is None:
                    files = repository_files(top) or []
                twins = [f for f in files if f.name == base and f.parent != full.parent]
                if not twins or _made_elsewhere(full, base, told, top, path):
                    continue
                where = Path(os.path.relpath(twins[0], folder)).as_posix()
                at = entry_line(lines, compose.line_of(service, "volumes"), f"source: {source}")
                yield path, name, source, target, at, where


_SHAPES = {
    "environment": "a mapping (NAME: value) or a list of NAME=value strings",
    "ports": "a list of ports (HOST:CONTAINER strings or mappings with target:)",
    "volumes": "a list of mounts (SOURCE:TARGET strings or mappings with type:)",
}
"""The service keys whose shape compose checks while loading the file, and the shape it takes."""


def _misshapen(key: str, value: object) -> int | None:
    """The index of the first item of a service's `key` compose refuses (-1: the value itself); None
    when compose takes it."""
    if value is None:
        return None
    if key == "environment" and isinstance(value, dict):
        return None
    if not isinstance(value, list):
        return -1
    for index, item in enumerate(value):
        if key == "environment" and not isinstance(item, str):
            return index
        if isinstance(item, list):
            return index
    return None


def misshapen_keys(started: Started) -> Iterator[tuple[str, str, int | None, str]]:
    """(service, key, line, the shape compose takes) of each `environment:`, `ports:` or `volumes:` of a
    service of the compose file whose shape compose refuses (`- GRANT_SUDO: "yes"`: a list of mappings
    as the environment): compose stops while loading the file, before it starts any service."""
    read = read_services(started.path)
    if read is None:
        return
    services, lines = read
    for name, service in service_items(services):
        for key, shape in _SHAPES.items():
            index = _misshapen(key, service.get(key))
            if index is None:
                continue
            at = compose.line_of(service, key)
            item = service[key][index] if index >= 0 else None
            if isinstance(item, dict):
                first = next((k for k in item if k != compose.KEY_LINES), None)
                at = entry_line(lines, at, f"{first}:") if first is not None else at
            yield str(name), key, at, shape
        device = _capless_device(service)
        if device is not None:
            reservations, item = device
            at = compose.line_of(reservations, "devices")
            first = next((k for k in item if k != compose.KEY_LINES), None)
            at = entry_line(lines, at, f"{first}:") if first is not None else at
            yield str(name), "deploy.resources.reservations.devices", at, _DEVICES


SERVICE_KEYS = frozenset(
    "annotations attach build blkio_config cap_add cap_drop cgroup cgroup_parent command configs "
    "container_name cpu_count cpu_percent cpu_shares cpu_quota cpu_period cpu_rt_period cpu_rt_runtime "
    "cpus cpuset credential_spec depends_on deploy develop device_cgroup_rules devices dns dns_opt "
    "dns_search domainname entrypoint env_file label_file environment expose extends external_links "
    "extra_hosts gpus group_add healthcheck hostname image init ipc isolation labels links logging "
    "mac_address mem_limit mem_reservation mem_swappiness memswap_limit network_mode networks "
    "oom_kill_disable oom_score_adj pid pids_limit platform ports post_start pre_stop privileged profiles "
    "provider pull_policy pull_refresh_after read_only restart runtime scale secrets security_opt "
    "shm_size stdin_open stop_grace_period stop_signal storage_opt sysctls tmpfs tty ulimits "
    "use_api_socket user userns_mode uts volumes volumes_from working_dir models "
    "volume_driver log_driver log_opt net dockerfile kernel_memory mem_swap_limit".split()
)
"""The keys a compose service takes: the Compose Specification's (compose-spec.json) and those of the
older file formats `docker-compose` read (`log_driver`, `net`, `volume_driver`). Compose refuses a
service with another key ("additional properties 'name' not allowed"), `x-` extensions aside."""
_SERVICE_KEY_SLIPS = {"name": "container_name", "container-name": "container_name", "env": "environment"}
"""Keys a README's compose file gives a service meaning another one."""


def unknown_service_keys(started: Started) -> Iterator[tuple[str, str, int | None]]:
    """(service, key, line) of each key of a service of the compose file that compose does not take
    (`SERVICE_KEYS`): compose stops while loading the file, before it starts any service."""
    read = read_services(started.path)
    if read is None:
        return
    services, _ = read
    for name, service in service_items(services):
        for key in service:
            if not isinstance(key, str) or key == compose.KEY_LINES or key.startswith(("x-", "<<")):
                continue
            if key not in SERVICE_KEYS:
                yield str(name), key, compose.line_of(service, key)


_DEVICES = "a list of device requests each with capabilities: (such as [gpu])"
"""The shape compose takes for a service's device reservations: `capabilities` must be set."""


def _capless_device(service: dict[Any, Any]) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
    """(the `reservations:` mapping, the entry) of the first `deploy.resources.reservations.devices` entry of
    a service that is a mapping with no `capabilities:` (`- driver: nvidia` / `count: all`): the compose
    specification requires it, and compose refuses the file; None when every entry has one."""
    deploy = service.get("deploy")
    resources = deploy.get("resources") if isinstance(deploy, dict) else None
    reservations = resources.get("reservations") if isinstance(resources, dict) else None
    devices = reservations.get("devices") if isinstance(reservations, dict) else None
    if not isinstance(reservations, dict) or not isinstance(devices, list):
        return None
    for item in devices:
        if isinstance(item, dict) and not any(isinstance(k, str) and k.startswith("x-") for k in item):
            if "capabilities" not in item and not any("$" in str(v) for v in item.values()):
                return reservations, item
    return None


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
    moved: set[tuple[Path, str, str]] = set()
    for up in compose_ups(doc, directory, project):
        for path, service, source, target, at, where in moved_binds(up, told, top):
            if (path, service, source) in moved:
                continue
            moved.add((path, service, source))
            shown = Path(os.path.relpath(path, real_path(directory))).as_posix()
            yield Diagnostic(
                readme,
                up.line,
                f"README runs docker compose up, whose service {service} bind-mounts {source} onto {target} "
                f"({shown}:{at}), but {source} does not exist beside {shown} (the file is {where}): compose "
                'stops with "bind source path does not exist"',
                confidence=CERTAIN,
            )
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
        if missing or any(True for _ in misshapen_keys(one)):
            continue  # (told by compose_shapes)
        for service, source, target, at in missing_mounts(one, told, top):
            if (one.path, service, source) in moved:
                continue
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


def compose_shapes(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """A compose file the README starts whose service gives `environment:`, `ports:` or `volumes:` in a
    shape compose refuses, or a GPU reservation with no `capabilities:` (`misshapen_keys`)."""
    for one in started_compose(doc, directory, project, into_clones=True):
        if missing_includes(one):
            continue
        for service, key, at, shape in misshapen_keys(one):
            yield Diagnostic(
                readme,
                one.line,
                f"{one.said}, but the {key}: of service {service} ({one.shown}:{at}) is not {shape}: "
                "compose refuses the file while loading it, before it starts any service",
                confidence=CERTAIN,
            )
        for service, key, at in unknown_service_keys(one):
            close = _SERVICE_KEY_SLIPS.get(key) or next(
                iter(difflib.get_close_matches(key, sorted(SERVICE_KEYS), n=1, cutoff=0.8)), None
            )
            meant = f" (did you mean {close}:?)" if close else ""
            yield Diagnostic(
                readme,
                one.line,
                f"{one.said}, but service {service} ({one.shown}:{at}) has the key {key}:, which is no "
                f"compose service key{meant}: compose refuses the file while loading it (additional "
                f"property {key} not allowed), before it starts any service",
                confidence=CERTAIN,
            )


_FROM = re.compile(r"^[ \t]*FROM[ \t]+(?:--\S+[ \t]+)*([^\s$]+)", re.MULTILINE | re.IGNORECASE)
_ELSE_BUILDS = re.compile(r"\b(?:make|just|bake|task)\b|\.(?:ps1|bat)\b")
"""A README command that may build a Dockerfile another way (a Makefile, bake, a Windows script)."""
_SCRIPT = re.compile(r"(?<![\w.-])((?:\.{1,2}/)?[\w./-]*\w\.(?:sh|bash))(?![\w-])")


def _builds_any(commands: Sequence[str], directory: Path, top: Path) -> bool:
    """Whether a README command builds an image, or may: a `docker build`, a `make`, bake, or a shell
    script of the project (or one that cannot be read) that holds a build or a compose build."""
    for command in commands:
        if BUILD.search(command) or _ELSE_BUILDS.search(command):
            return True
        for name in _SCRIPT.findall(command):
            script = directory / name
            if not os.path.lexists(script):
                continue  # (a script that is not there builds nothing)
            body = text_or_none(script) if resolves_inside(script, top) else None
            if body is None or BUILD.search(body) or re.search(r"\bcompose\b.*\b(?:build|up)\b", body):
                return True
    return False


def _built_dockerfiles(path: Path, service: dict[Any, Any]) -> list[Path]:
    """The Dockerfile a service's `build:` builds (`build: ./app` reads `./app/Dockerfile`)."""
    build = service.get("build")
    if isinstance(build, str):
        return [real_path(context_dockerfile(path.parent / build))]
    if isinstance(build, dict):
        context, name = build.get("context", "."), build.get("dockerfile", DOCKERFILE)
        if isinstance(context, str) and isinstance(name, str):
            return [real_path(built_dockerfile(path.parent / context / name))]
    return []


def unbuilt_extensions(
    doc: Document, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """A Dockerfile the README names (`jupyter_notebook/Dockerfile`: it adds packages to the image) that
    starts FROM the image a service of the compose file the README starts runs with no `build:`
    (`image: cschranz/gpu-jupyter:…`), while no service of it builds that Dockerfile and the README
    builds nothing itself (no `docker build`, script, `make` or bake): what the Dockerfile adds never
    reaches the running stack (`likely`)."""
    ups = compose_ups(doc, directory, project)
    if not ups:
        return
    commands = [joined(lines) for fence in doc.fences for lines in fence_commands(fence)]
    top = real_path(project or directory)
    if _builds_any(commands, directory, top):
        return
    here = real_path(directory)
    built: set[Path] = set()
    runs: list[tuple[str, str, Path, int | None]] = []  # (service, image, compose file, line)
    read_files: set[Path] = set()  # (what each file builds, read once: thousands of `up`s of one file)
    for up in ups:
        for path in up.paths:
            read = read_services(path)
            if read is None:
                continue
            services = read[0]
            if path not in read_files:
                read_files.add(path)
                for _, service in service_items(services):
                    built.update(_built_dockerfiles(path, service))
            for name, service in _started_services(services, up):
                image = service.get("image")
                if service.get("build") is None and isinstance(image, str) and "$" not in image:
                    runs.append((name, image, path, compose.line_of(service, "image")))
    if not runs:
        return
    told: set[Path] = set()
    for line, said in line_texts(doc).items():
        for name in files_named(said):
            if "/" not in name or name.startswith(("/", "~")) or "$" in name:
                continue
            file = directory / name.removeprefix("./")
            if not os.path.isfile(file) or not resolves_inside(file, top):
                continue
            real = real_path(file)
            if real in built or real in told:
                continue
            base = _FROM.search(text_or_none(real) or "")
            if base is None:
                continue
            wanted = image_repository(base.group(1)).lower()
            run = next((r for r in runs if image_repository(r[1]).lower() == wanted), None)
            if run is None:
                continue
            told.add(real)
            running, image, path, at = run
            shown = Path(os.path.relpath(path, here)).as_posix()
            yield Diagnostic(
                readme,
                line,
                f"README names {name}, built FROM {base.group(1)}, but the compose file it starts never "
                f"builds it: service {running} runs {image} ({shown}:{at}) with no build:, so what {name} "
                "adds is not in the running image",
                confidence=LIKELY,
            )


_PROGRAM = re.compile(r"(?:python[\d.]*|bash|sh|node|Rscript|julia|perl|ruby)\Z")
"""A program a `docker compose run SERVICE PROGRAM FILE` hands a file of the container to."""


def _service_files(paths: list[Path], named: bool, service: str, top: Path) -> list[Path]:
    """The compose files a `run` of `service` reads: those of the command; when it names none and its
    folder has none, the one compose file of the project (two folders down) that defines the service."""
    if paths or named:
        return paths
    files = repository_files(top) or []
    holding = []
    for path in files:
        if not compose.FILE_NAME.fullmatch(path.name) or len(path.relative_to(top).parts) > 3:
            continue
        read = read_services(path)
        if read is not None and service in read[0]:
            holding.append(real_path(path))
    return holding if len(holding) == 1 else []


def _run_file(call: ComposeCall, service: str) -> str | None:
    """The relative file a `run` of `service` hands its program (`python app/run.py` → `app/run.py`)."""
    rest = list(call.rest)
    at = next((n for n, word in enumerate(rest) if word == service), None)
    if at is None or at + 2 >= len(rest) or not _PROGRAM.fullmatch(posixpath.basename(rest[at + 1])):
        return None
    file = next((w for w in rest[at + 2 :] if not w.startswith("-")), None)
    if any(w in ("-m", "-c") for w in rest[at + 2 :]) or file is None:
        return None
    if file.startswith(("/", "~")) or re.search(r"[$<>{}*?`\"']", file):
        return None
    return file if _FILE_NAME.fullmatch(posixpath.basename(file)) else None


def _mount_sources(service: dict[Any, Any]) -> list[tuple[str, str]]:
    """(host folder relative to the compose file, container folder) of each bind mount of a service."""
    found = []
    for source, target, _ in _bind_mounts(service):
        if source.startswith(("/", "~")) or "$" in source + target or not target.startswith("/"):
            continue
        if source.startswith(".") or "/" in source:  # (`name:/data` is a named volume)
            found.append((source, posixpath.normpath(target)))
    return found


def run_paths(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """A `docker compose run SERVICE python DIR/FILE` whose relative file, read from the service's
    `working_dir:` in the folder it mounts there (`../app:/app`, `working_dir: /app`), is not in the
    mounted folder while a shorter path of it is (`app/run.py` is `/app/app/run.py`; the file is
    `/app/run.py`): the program finds no such file (`certain`)."""
    top = real_path(project or directory)
    here = real_path(directory)
    for line, into, call in _compose_calls(doc):
        if call.verb != "run" or not call.services:
            continue
        service = call.services[0]
        file = _run_file(call, service)
        if file is None:
            continue
        paths = _files(directory, into, call.files, top)
        for path in _service_files(paths, bool(call.files), service, top):
            read = read_services(path)
            held = read[0].get(service) if read is not None else None
            if not isinstance(held, dict):
                continue
            found = _misplaced(path, held, file, top)
            if found is None:
                continue
            inside_path, fixed, source, target = found
            shown = Path(os.path.relpath(path, here)).as_posix()
            at = compose.line_of(held, "working_dir")
            yield Diagnostic(
                readme,
                line,
                f"README runs docker compose run {service} … {file}, but the service starts in "
                f"{held['working_dir']} ({shown}:{at}), where it mounts {source} at {target}: {file} "
                f"is {inside_path}, which {source} does not hold; the file is {fixed}",
                confidence=CERTAIN,
            )
            break


def _misplaced(path: Path, service: dict[Any, Any], file: str, top: Path) -> tuple[str, str, str, str] | None:
    """(the container path `file` reads, the one that holds it, mount source, mount target) when
    `file`, read from the service's working folder, falls in a mounted folder that lacks it while a
    shorter path of it is there."""
    start = service.get("working_dir")
    if not isinstance(start, str) or not start.startswith("/") or "$" in start:
        return None
    wanted = posixpath.normpath(posixpath.join(start, file))
    mounts = [(s, t) for s, t in _mount_sources(service) if wanted.startswith(t.rstrip("/") + "/")]
    if not mounts:
        return None
    source, target = max(mounts, key=lambda m: len(m[1]))
    rest = wanted[len(target.rstrip("/")) + 1 :].split("/")
    host = path.parent / source
    if not os.path.isdir(host) or not resolves_inside(host, top):
        return None
    if os.path.lexists(host.joinpath(*rest)):
        return None
    for cut in range(1, len(rest)):
        if os.path.isfile(host.joinpath(*rest[cut:])):
            return wanted, posixpath.join(target, *rest[cut:]), source, target
    return None


_RUN_SCRIPT = re.compile(r"(?:^|[;&|][ \t]*)(?:(?:ba)?sh[ \t]+)?((?:\./)?[\w./-]*\w\.sh)(?=$|[ \t;&|])")
"""A shell script a README command runs (`./create_dirs.sh`, `bash setup.sh`)."""
_MKDIR = re.compile(r"^[ \t]*(?:sudo[ \t]+)?mkdir[ \t]+((?:[^\n;&|#])+)", re.MULTILINE)


def _home_path(word: str) -> str | None:
    """A folder of the host as `~/…` or `/…` (`$HOME/x`, `${HOME}/x` read as `~/x`); None for another."""
    word = re.sub(r"\A(?:\$HOME|\$\{HOME\})(?=/|\Z)", "~", word.strip("\"'"))
    if not word.startswith(("~/", "/")) or re.search(r"[$*?{}`]", word):
        return None
    return posixpath.normpath(word)


def _made_folders(script: str) -> list[tuple[str, int]]:
    """(folder, line) of each folder of the host (`_home_path`) a script's `mkdir` makes."""
    found = []
    for match in _MKDIR.finditer(script):
        line = script.count("\n", 0, match.start()) + 1
        for word in match.group(1).split():
            folder = None if word.startswith("-") else _home_path(word)
            if folder is not None:
                found.append((folder, line))
    return found


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def unmade_mounts(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """A setup script the README runs that makes a folder of the host (`mkdir -p ~/data/notebooks`) no
    service of the compose file the README starts mounts, while a service mounts a folder beside it that
    nothing makes (`~/data/ml_notebook:/home/jovyan`): Docker creates that one empty, and what the script
    prepared is not what the container sees (`likely`). Silent when the README or another script it runs
    makes or names the mounted folder."""
    ups = compose_ups(doc, directory, project)
    if not ups:
        return
    top = real_path(project or directory)
    here = real_path(directory)
    mounts: list[tuple[str, str, int | None]] = []  # (host folder, compose file shown, line)
    for up in ups:
        for path in up.paths:
            read = read_services(path)
            if read is None:
                continue
            shown = Path(os.path.relpath(path, here)).as_posix()
            for _, service in _started_services(read[0], up):
                for source, _, entry in _bind_mounts(service):
                    folder = _home_path(source)
                    if folder is not None:
                        at = entry_line(read[1], compose.line_of(service, "volumes"), entry)
                        mounts.append((folder, shown, at))
    if not mounts:
        return
    scripts: list[tuple[int, str, str]] = []  # (README line, script as written, its text)
    for fence in doc.fences:
        for lines in fence_commands(fence):
            for name in _RUN_SCRIPT.findall(joined(lines).strip()):
                script = directory / name
                body = text_or_none(script) if resolves_inside(script, top) else None
                if body is not None:
                    scripts.append((lines[0][0], name, body))
    made = [(folder, at, line, name) for line, name, body in scripts for folder, at in _made_folders(body)]
    told = {f for f, _, _, _ in made}
    for folder, at, line, name in made:
        if any(_under(m, folder) or _under(folder, m) for m, _, _ in mounts):
            continue
        for mount, shown, where in mounts:
            if posixpath.dirname(mount) != posixpath.dirname(folder) or any(_under(mount, t) for t in told):
                continue
            word = re.compile(rf"(?<![\w-]){re.escape(posixpath.basename(mount))}(?![\w/-])")
            whole = re.compile(rf"{re.escape(mount.removeprefix('~'))}(?![\w.-])")
            if word.search(text) or any(whole.search(body) for _, _, body in scripts):
                continue  # the README names it (it may tell the reader to make it)
            told.add(mount)
            yield Diagnostic(
                readme,
                line,
                f"README runs {name}, which makes {folder} ({posixpath.basename(name)}:{at}), but the "
                f"compose file it starts mounts {mount} ({shown}:{where}), which nothing makes: Docker "
                f"creates it empty, and {folder} is not what the container sees",
                confidence=LIKELY,
            )
