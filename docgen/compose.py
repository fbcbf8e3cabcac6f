"""Docker Compose files (`compose.yaml`, `docker-compose.yml` …): the images a project builds with
`docker compose build`, read by `docgen audit` as it reads a bake file (`docgen.bake`).

What is read, as Compose reads it: each service's `build`, a context path or a mapping of `context`
(default `.`), `dockerfile` (default `Dockerfile`, relative to the context), `args` (a mapping, or a
list of `NAME=value`) and `target`; the service's `image` is its tag. Values are interpolated with no
environment: `${VAR:-default}` and `${VAR-default}` give the default, `${VAR:+alt}` gives nothing, and a
value needing a variable that has no default (`${VAR}`, `$VAR`, `${VAR:?error}`, `NAME` without `=`)
is not set, which leaves the Dockerfile's default. `.env` files, `extends` and `include` are not read;
a service whose context is not a local folder (a Git URL) builds no Dockerfile of the project.

YAML is read with the optional PyYAML package (`pip install 'dockerdocgen[compose]'`), imported only
when a compose file is read. Every scalar is kept as written (`3.10` is `3.10`, not a float).
"""

from __future__ import annotations

import copy
import functools
import importlib
import os
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.bake import Target
from docgen.errors import ConfigError

INSTALL_YAML = "pip install 'dockerdocgen[compose]'"
"""What installs the YAML reader."""
COMPOSE_FILE = re.compile(r"(?:docker-)?compose[\w.-]*\.ya?ml")
"""A compose file's name (`docker-compose.yml`, `compose.gpu.yaml`, `docker-compose.override.yml`)."""
DEFAULT_FILES = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
"""The compose files `docker compose` reads in a folder without `-f`, in its order: the first found."""
OVERRIDE_FILES = (
    "compose.override.yml",
    "compose.override.yaml",
    "docker-compose.override.yml",
    "docker-compose.override.yaml",
)
"""The override files it reads after that one, in its order (compose-go's): the first found."""
FILE_NAME = re.compile(r"(?:docker-)?compose(?:[.-][\w.-]+)?\.ya?ml\Z")
"""A compose file's name: one of those, or a variant (`docker-compose.xpu.yml`, `compose.prod.yaml`)."""


def default_files(folder: Path) -> list[Path]:
    """The files `docker compose` reads in `folder` without `-f`: the first of `DEFAULT_FILES` found
    there, then the first of `OVERRIDE_FILES`; none when the folder has no default file (compose then
    looks in the folders above)."""
    first = next((folder / name for name in DEFAULT_FILES if os.path.isfile(folder / name)), None)
    if first is None:
        return []
    override = next((folder / name for name in OVERRIDE_FILES if os.path.isfile(folder / name)), None)
    return [first] if override is None else [first, override]


def run_folder(folder: Path, names: Sequence[str], top: Path) -> Path:
    """The folder a command with `-f NAME…` written in a page of `folder` is run from: `folder` or the
    first folder above it, up to `top` (the project root), that holds every named file (a page in
    docs/ or wiki/ names its files from the root); `folder` when none does."""
    here = folder
    while True:
        if all(os.path.isfile(here / name) for name in names):
            return here
        try:
            if here.resolve() == top.resolve() or not here.resolve().is_relative_to(top.resolve()):
                return folder
        except (OSError, ValueError):
            return folder
        if here.parent == here:
            return folder
        here = here.parent


_NOT_LOCAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@|[a-z0-9.-]+\.git(?:#|$))", re.IGNORECASE)
_VARIABLE = re.compile(r"\$(?:\$|\{|([A-Za-z_][A-Za-z0-9_]*))")
LINE = "__line__"
_BRACE = re.compile(r"[{}]")
MAX_NESTING = 32
"""Defaults within defaults read (`${A:-${B:-x}}` is 2): deeper is refused as nested too deeply."""
_KEPT_TAGS = ("tag:yaml.org,2002:null", "tag:yaml.org,2002:merge")
"""The implicit tags read: `null` (`NAME:` with no value) and `<<` (a merge key); other scalars are text."""


class _Unset(Exception):
    """A value needs a variable that has no default: Compose would take it from the environment."""


def parse(data: bytes, display: str) -> tuple[Target, ...]:
    """The services of the compose file whose bytes are `data` that build an image, as bake targets
    (name: the service's), in file order. Raises `ConfigError` (with the line) for a file Compose
    would refuse, or when PyYAML is not installed."""
    services = _services(data, display)
    found: list[Target] = []
    for name, service in services.items():
        if name == LINE:
            continue
        where = line_of(services, name)
        if service is None:
            continue
        if not isinstance(service, dict):
            raise ConfigError(f"service {name!r} must be a mapping", display, where)
        try:
            target = _service(str(name), service, display, where)
        except RecursionError:  # `${A:-${A:-${…}}}` thousands deep
            raise ConfigError(f"service {name!r}: nested too deeply to read", display, where) from None
        if target is not None:
            found.append(target)
    return tuple(found)


_NOT_IN_PROJECT_NAMES = re.compile(r"[^a-z0-9_-]")


def project_name(name: str) -> str:
    """The project name Compose makes of `name` (a folder's, `COMPOSE_PROJECT_NAME`'s): lower-cased,
    with every character but `a-z`, `0-9`, `_` and `-` dropped."""
    return _NOT_IN_PROJECT_NAMES.sub("", name.lower())


def built_image(image: str | None, service: str, project: str) -> str:
    """The name Compose tags the image a service builds with: its `image:` when it has one, else the
    project's name and the service's joined by `-` (Compose v1 joined them by `_`)."""
    return image or f"{project}-{service}"


@dataclass(frozen=True)
class Service:
    """One service of a compose file as written (no interpolation): what a README's commands and
    examples name of it."""

    name: str
    line: int | None
    """Where the service's name is written."""
    container_name: str | None
    """Its `container_name:` (what `docker exec NAME` takes), None when Compose names the container."""
    image: str | None
    """Its `image:`."""
    dockerfile: str | None
    """Its `build.dockerfile:` as written, None when it gives none."""
    args: tuple[tuple[str, str], ...]
    """Its `build.args` as written (a `NAME` alone has no value and is left out)."""
    settings: tuple[tuple[str, str], ...]
    """Its other keys (`ports`, `volumes`, `environment` …) and their values, each as one text: how
    much a README's example is a copy of it."""
    image_line: int | None = None
    """Where its `image:` is written."""
    environment: tuple[tuple[str, str, int | None], ...] = ()
    """Its `environment:` as written: (name, value, line) of each variable given a value (a mapping,
    or a list of `NAME=value`; a `NAME` alone, passed from the shell, is left out)."""
    env_file: bool = False
    """True when it reads variables from files (`env_file:`), which `environment:` overrides."""
    env_files: tuple[str, ...] = ()
    """The files its `env_file:` names (a path, a list of paths or of mappings with `path:`)."""
    required_env_files: tuple[str, ...] = ()
    """Those of `env_files` compose refuses to start without (all but `{path: …, required: false}`)."""
    profiles: tuple[str, ...] = ()
    """Its `profiles:`: a service with any is started only when one of them is enabled (`--profile`,
    `COMPOSE_PROFILES`) or when a command names it."""
    builds: bool = False
    """True when it has a `build:`: its `image:`, if any, is the name given to the image it builds."""
    ports: tuple[str, ...] | None = ()
    """Its `ports:`, each `HOST:CONTAINER` as written (`127.0.0.1:9000:9000`, `8000-8010:8000`, `${PORT}:80`;
    a long-syntax entry as `PUBLISHED:TARGET`, or `TARGET` when it publishes none); None when they are
    not a list of such entries."""
    context: str | None = None
    """Its `build.context:` (or the `build:` text) as written, None when it gives none."""
    container_name_line: int | None = None
    """Where its `container_name:` is written."""


def services(data: bytes, display: str) -> tuple[Service, ...]:
    """Every service of the compose file whose bytes are `data`, as written, in file order. Raises
    `ConfigError` (with the line) for text that is no YAML or no compose file, or when PyYAML is not
    installed."""
    found: list[Service] = []
    held = _services(data, display)
    for name, service in held.items():
        if name == LINE or not isinstance(service, dict):
            continue
        build = service.get("build")
        build = {"context": build} if isinstance(build, str) else build
        build = build if isinstance(build, dict) else {}
        raw = build.get("args")
        if isinstance(raw, dict):
            args = [(str(k), _text(v)) for k, v in raw.items() if k != LINE and v is not None]
        elif isinstance(raw, list):
            args = [
                (key.strip(), value)
                for e in raw
                if isinstance(e, str)
                for key, sep, value in [e.partition("=")]
                if sep
            ]
        else:
            args = []
        found.append(
            Service(
                image_line=line_of(service, "image"),
                container_name_line=line_of(service, "container_name"),
                environment=_environment(service, data),
                env_file=service.get("env_file") is not None,
                env_files=_env_files(service.get("env_file")),
                required_env_files=_env_files(service.get("env_file"), required=True),
                profiles=_profiles(service.get("profiles")),
                builds=service.get("build") is not None,
                ports=_ports(service.get("ports")),
                name=str(name),
                line=line_of(held, name),
                container_name=_scalar(service.get("container_name")),
                image=_scalar(service.get("image")),
                dockerfile=_scalar(build.get("dockerfile")),
                context=_scalar(build.get("context")),
                args=tuple(args),
                settings=tuple(
                    (str(k), _text(v)) for k, v in service.items() if k not in (LINE, "build", "image")
                ),
            )
        )
    return tuple(found)


def _environment(service: dict[str, Any], data: bytes) -> tuple[tuple[str, str, int | None], ...]:
    """A service's `environment:` as (name, value, line): a mapping's keys have their lines; a list
    item's is the first line after `environment:` that names it."""
    raw = service.get("environment")
    if isinstance(raw, dict):
        return tuple(
            (str(k), _text(v), line_of(raw, k)) for k, v in raw.items() if k != LINE and v is not None
        )
    if not isinstance(raw, list):
        return ()
    start = line_of(service, "environment") or 1
    lines = data.decode("utf-8", errors="replace").splitlines()
    found: list[tuple[str, str, int | None]] = []
    for item in raw:
        if not isinstance(item, str) or "=" not in item:
            continue
        key, _, value = item.partition("=")
        key = key.strip()
        at = next((n + 1 for n in range(start, len(lines)) if f"{key}=" in lines[n]), None)
        found.append((key, value, at))
    return tuple(found)


def _ports(raw: object) -> tuple[str, ...] | None:
    """A service's `ports:` as texts (`Service.ports`); None when they cannot be read so."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        return None
    found: list[str] = []
    for entry in raw:
        if isinstance(entry, (str, int)) and not isinstance(entry, bool):
            found.append(str(entry))
        elif isinstance(entry, dict) and entry.get("target") is not None:
            published = entry.get("published")
            target = str(entry["target"])
            found.append(target if published is None else f"{published}:{target}")
        else:
            return None
    return tuple(found)


def _env_files(raw: object, required: bool = False) -> tuple[str, ...]:
    """The paths an `env_file:` names: `.env`, `[a.env, b.env]`, `[{path: a.env, required: false}]`;
    with `required`, only those compose needs (not a mapping's `required: false`)."""
    items = raw if isinstance(raw, list) else [raw]
    if required:
        items = [i for i in items if not (isinstance(i, dict) and i.get("required", True) is not True)]
    paths = [item.get("path") if isinstance(item, dict) else item for item in items]
    return tuple(p for p in paths if isinstance(p, str))


def _profiles(raw: object) -> tuple[str, ...]:
    """The names a `profiles:` lists (`[gpu, debug]`)."""
    return tuple(p for p in raw if isinstance(p, str)) if isinstance(raw, list) else ()


_INCLUDE = re.compile(rb"^include[ \t]*:", re.MULTILINE)


def includes_others(data: bytes) -> bool:
    """True when the compose file whose bytes are `data` includes other compose files (a top-level
    `include:`), whose services it then has too."""
    return _INCLUDE.search(data) is not None


def _scalar(value: object) -> str | None:
    return value if isinstance(value, str) else None


_TEXT_NODES = 2000
"""The most nodes of one value `_text` writes out: YAML aliases can make a few lines stand for
billions of them (`&a [*b, *b, …]`)."""


def _text(value: object) -> str:
    """A YAML value as one text, the lines the loader records left out: equal values, equal texts.
    A value of more than `_TEXT_NODES` nodes is written `…` (it is compared with nothing)."""
    out: list[str] = []
    budget = [_TEXT_NODES]

    def write(node: object) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise OverflowError
        if isinstance(node, dict):
            out.append("{")
            for key, item in node.items():
                if key != LINE:
                    out.append(f"{key}: ")
                    write(item)
                    out.append(", ")
            out.append("}")
        elif isinstance(node, list):
            out.append("[")
            for item in node:
                write(item)
                out.append(", ")
            out.append("]")
        elif node is not None:
            out.append(str(node))

    try:
        write(value)
    except (OverflowError, RecursionError):
        return "…"
    return "".join(out)


def load(data: bytes, display: str, kind: str = "a compose file") -> Any:
    """The YAML document whose bytes are `data` (shown as `display`), every scalar kept as its text and
    each mapping recording its keys' lines (`line_of`); None for an empty file. Raises `ConfigError`
    (with the line) for text that is not YAML, or when PyYAML is not installed (`kind`: what needs it).
    Each call gets its own copy: a reader may change what it got."""
    try:
        yaml: Any = importlib.import_module("yaml")  # (typed Any: PyYAML has no inline types)
    except ImportError:
        raise ConfigError(f"reading {kind} needs the PyYAML package: {INSTALL_YAML}", display) from None
    document = _load(data, display, yaml)
    try:
        return copy.deepcopy(document)
    except RecursionError:
        raise ConfigError("nested too deeply to read (Python's recursion limit)", display) from None


@functools.lru_cache(maxsize=16)
def _load(data: bytes, display: str, yaml: Any) -> Any:
    """`load`'s document, parsed by the module `yaml` once for the same bytes (an audit's rules read one
    compose file many times: PyYAML's pure-Python parser is most of their cost on a large file)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", display, line) from None
    try:
        document = yaml.load(text, Loader=loader(yaml))  # noqa: S506 (a SafeLoader subclass)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = mark.line + 1 if mark is not None else None
        raise ConfigError(f"invalid YAML: {exc.problem or exc.context}", display, where) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", display) from None
    except RecursionError:
        raise ConfigError("nested too deeply to read (Python's recursion limit)", display) from None
    return document


def _services(data: bytes, display: str) -> dict[Any, Any]:
    """The `services:` mapping of a compose file (empty when it has none)."""
    document = load(data, display)
    if document is None:
        return {}  # an empty file builds nothing
    if not isinstance(document, dict):
        raise ConfigError("a compose file is a mapping (services: …)", display, 1)
    services = document.get("services")
    if services is None:
        return {}
    if not isinstance(services, dict):
        raise ConfigError(
            "services must be a mapping of names to services", display, line_of(document, "services")
        )
    return services


def _service(name: str, service: dict[str, Any], display: str, where: int | None) -> Target | None:
    """Service `name` as a bake target, None when it builds nothing docgen can read."""
    build = service.get("build")
    if build is None:
        return None
    at = line_of(service, "build") or where
    if isinstance(build, str):
        build = {"context": build}
    if not isinstance(build, dict):
        raise ConfigError(f"service {name!r}: build must be a path or a mapping", display, at)

    def string(key: str, default: str) -> str | None:
        value = build.get(key, default)
        if value is None:
            return default
        if not isinstance(value, str):
            raise ConfigError(
                f"service {name!r}: build.{key} must be a string", display, line_of(build, key) or at
            )
        try:
            return _interpolate(value)
        except _Unset:
            return None

    context = string("context", ".")
    dockerfile = string("dockerfile", "Dockerfile")
    if context is None or dockerfile is None or "dockerfile_inline" in build or _NOT_LOCAL.match(context):
        return None  # a Dockerfile from the environment, inline or in another repository: none of ours
    for part in (context, dockerfile):
        if "\0" in part:
            raise ConfigError(f"service {name!r}: a build path holds a NUL character (\\u0000)", display, at)
    path = (
        dockerfile if posixpath.isabs(dockerfile) else posixpath.normpath(posixpath.join(context, dockerfile))
    )
    args, own = _args(name, build.get("args"), build, display, at)
    stage = string("target", "")
    image = service.get("image")
    return Target(
        name=name,
        dockerfile=path,
        args=args,
        target=stage or None,
        tags=(image,) if isinstance(image, str) else (),
        target_line=(line_of(build, "target") or at) if stage else None,
        own_args=own,
        context=posixpath.normpath(context),
    )


def _args(
    name: str, value: object, build: dict[str, Any], display: str, at: int | None
) -> tuple[dict[str, str], dict[str, int | None]]:
    """A service's build args (a mapping or a `NAME=value` list) → (name → value, name → line); one
    Compose would take from the environment is left out."""
    args: dict[str, str] = {}
    lines: dict[str, int | None] = {}
    here = line_of(build, "args") or at
    if value is None:
        return args, lines
    if isinstance(value, dict):
        items = [(str(k), v, line_of(value, k) or here) for k, v in value.items() if k != LINE]
    elif isinstance(value, list):
        items = []
        for entry in value:
            if not isinstance(entry, str):
                raise ConfigError(
                    f"service {name!r}: build.args items must be NAME=value strings", display, here
                )
            key, sep, rest = entry.partition("=")
            items.append((key.strip(), rest if sep else None, here))
    else:
        raise ConfigError(f"service {name!r}: build.args must be a mapping or a list", display, here)
    for key, raw, line in items:
        if raw is None:
            continue  # `NAME` alone, `NAME:` empty: the environment's value, none here
        if isinstance(raw, (dict, list)):
            raise ConfigError(f"service {name!r}: build arg {key} must be a single value", display, line)
        try:
            args[key] = _interpolate(str(raw))
        except _Unset:
            continue
        if "\0" in args[key]:
            raise ConfigError(
                f"service {name!r}: build arg {key} holds a NUL character (\\u0000)", display, line
            )
        lines[key] = line
    return args, lines


def _interpolate(value: str, nesting: int = 0) -> str:
    """`value` with Compose's `${…}` read with no environment (see the module docstring); raises
    `_Unset` when it needs a variable without a default."""
    if nesting > MAX_NESTING:
        raise RecursionError  # each level reads the rest of the value again: a few are enough
    out: list[str] = []
    at = 0
    for match in _VARIABLE.finditer(value):
        if match.start() < at:
            continue
        out.append(value[at : match.start()])
        token = match.group(0)
        if token == "$$":
            out.append("$")
            at = match.end()
            continue
        if match.group(1):
            raise _Unset(match.group(1))
        depth, end = 1, match.end()
        for brace in _BRACE.finditer(value, match.end()):
            depth += 1 if brace.group() == "{" else -1
            end = brace.end()
            if not depth:
                break
        if depth:
            raise _Unset(value)  # no closing `}`: Compose refuses it; docgen does not guess
        inner = value[match.end() : end - 1]
        op = re.match(r"[A-Za-z_][A-Za-z0-9_]*(:?[-+?])?", inner)
        if op is None or (op.group(1) is None and op.end() != len(inner)):
            raise _Unset(inner)
        kind = op.group(1) or ""
        if kind in ("", ":?", "?"):
            raise _Unset(inner)
        out.append(_interpolate(inner[op.end() :], nesting + 1) if kind in (":-", "-") else "")
        at = end
    out.append(value[at:])
    return "".join(out)


def line_of(mapping: Mapping[Any, Any], key: object) -> int | None:
    """The line (1-based) key `key` is written on in `mapping` (a mapping `load` read), as the loader
    recorded it."""
    lines = mapping.get(LINE)
    return lines.get(key) if isinstance(lines, dict) else None


KEY_LINES = LINE
"""The key under which each mapping `load` reads holds its keys' lines (skip it when walking one)."""


def loader(yaml: Any) -> Any:
    """A SafeLoader that keeps every scalar as its text (no ints, floats or booleans: Compose passes
    `3.10` as written) and records in each mapping the line of each key (under `LINE`)."""

    class Loader(yaml.SafeLoader):  # type: ignore[misc]
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag in _KEPT_TAGS]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def mapping(loader: Any, node: Any) -> dict[Any, Any]:
        loader.flatten_mapping(node)
        value: dict[Any, Any] = {}
        lines: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key that is a list or a mapping", key_node.start_mark
                ) from None
            value[key] = loader.construct_object(value_node, deep=True)
            lines[key] = key_node.start_mark.line + 1
        value[LINE] = lines
        return value

    Loader.add_constructor("tag:yaml.org,2002:map", mapping)
    return Loader


@dataclass(frozen=True)
class Variable:
    """One place a compose file reads a variable (Compose interpolates the whole file, so a command, a
    volume or an environment value reads it as well as a build setting)."""

    name: str
    default: str | None
    """The value Compose gives it when it is unset, as written (`${NAME:-x}` and `${NAME-x}` give `x`,
    `${NAME:-}` gives ``); None when it gives none (`$NAME`, `${NAME}`, `${NAME:?error}`, `${NAME:+x}`)."""
    line: int
    service: str | None
    """The service whose settings hold it; None outside `services:` (a top-level `x-` block, volumes)."""


_COMMENT = re.compile(r"(?:^|[ \t])#.*")
_TOP_KEY = re.compile(r"[^\s#][^:]*:")
_SERVICE_KEY = re.compile(r"([ \t]+)([\w.-]+|\"[^\"]+\"|'[^']+')[ \t]*:")
_NAME_OP = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(:?[-+?])?")


def variables(data: bytes) -> tuple[Variable, ...]:
    """Every variable the compose file whose bytes are `data` reads, each time it reads it, in file
    order; a default that holds a variable (`${A:-${B:-x}}`) is kept as written and B is read too.
    `$$` is a literal `$`, and comments are not read. The text is read line by line (a `${…}` does
    not span lines); no YAML reader is needed."""
    text = data.decode("utf-8", errors="replace")
    found: list[Variable] = []
    service: str | None = None
    inside = False
    indent: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw)
        if not line.strip():
            continue
        if _TOP_KEY.match(line):
            inside = line.split(":", 1)[0].strip().strip("\"'") == "services"
            service, indent = None, None
            continue
        key = _SERVICE_KEY.match(line)
        if inside and key and (indent is None or key.group(1) == indent):
            indent = key.group(1)
            service = key.group(2).strip("\"'")
        _read_line(line, number, service if inside else None, found, 0)
    return tuple(found)


def _read_line(line: str, number: int, service: str | None, found: list[Variable], nesting: int) -> None:
    """The variables `line` reads, into `found` (a default's own variables too, `nesting` deep)."""
    if nesting > MAX_NESTING:
        return
    at = 0
    for match in _VARIABLE.finditer(line):
        if match.start() < at:
            continue
        at = match.end()
        if match.group(0) == "$$":
            continue
        if match.group(1):
            found.append(Variable(match.group(1), None, number, service))
            continue
        depth, end = 1, None
        for brace in _BRACE.finditer(line, match.end()):
            depth += 1 if brace.group() == "{" else -1
            if not depth:
                end = brace.end()
                break
        if end is None:
            return  # no closing `}` on the line: not read
        inner = line[match.end() : end - 1]
        op = _NAME_OP.match(inner)
        if op is None:
            continue
        kind = op.group(2) or ""
        rest = inner[op.end() :]
        default = rest if kind in (":-", "-") else None
        if kind or op.end() == len(inner):
            found.append(Variable(op.group(1), default, number, service))
        if rest:
            _read_line(rest, number, service, found, nesting + 1)
        at = end


_DOTENV = re.compile(r"[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(.*)")


def dotenv(data: bytes) -> dict[str, tuple[str, int]]:
    """The variables an env file (`.env`, an `env_file:`) sets: name → (value, line); quotes around a
    value are removed, a ` #` comment after an unquoted one too. The last setting of a name wins."""
    found: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
        match = _DOTENV.match(line)
        if match is None:
            continue
        value = match.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        else:
            value = _COMMENT.sub("", value).strip()
        found[match.group(1)] = (value, number)
    return found
