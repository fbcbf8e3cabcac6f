"""A compose service whose `ports:` publish a container port the server inside does not listen on: the
service's `command:` (or `entrypoint:`), else the CMD and ENTRYPOINT of the Dockerfile it builds
(the audited model's, or the last stage's of one docgen does not audit), starts its one program
with a fixed port (`--port 8001`, `--bind 0.0.0.0:8001`) and the mapping's container side is
another (`9998:8000`): the host port reaches nothing. The rule of a `docker run -p` against the
image's port (`ports.published_ports`), for compose services.

Two places hold such a service:

- a compose file of the project the README starts (`compose_paths.started_compose`: its compose
  commands, the recipes of the `make` targets it runs) or that sits in the README's folder or two
  folders below it. The finding is on the README lines that point the reader at the host port (a port
  table's cell, `localhost:9998`, `port 9998`); a compose file whose host port the README never names
  is not told, and neither is a host port another service of those files publishes from the port its
  server listens on;
- a compose example of the README (```` ```yaml ```` with `services:`), told on its `ports:` entry; a
  service with no command of its own builds the audited Dockerfile its `build:` names, from the
  README's folder.

Silent when the port may be served some other way: the service or image names the container port
anywhere else (its `environment:`, a health check, an ENV value, a script the image starts), the
program is started among others (`a & b`, `sh -c "…; …"`), the command gives several ports or names
`--port` through a variable, an entrypoint script may start the command its own way, `network_mode:
host` (ports are not published), or the image exposes both ports. `certain` when the command is a known
server launcher (`uvicorn`, `vllm`) or also gives the address it listens on (`--host 0.0.0.0`), else
`likely`. A mismatch shown by the image's EXPOSE alone (no command gives a port) is told only when the
README names the exposed port itself (points at it, or maps it in a `-p` or `ports:` it writes): else
the README agrees with the compose file it runs, and EXPOSE, which publishes nothing, is the files'
disagreement, not the README's.

A server the service's command, or the image's ENTRYPOINT, CMD or start script, starts on the
container's loopback address (`--host 127.0.0.1`) behind the published port is told the same way.
And `port_clashes`: two services (or two replicas of one) that a `docker compose up` of the README
starts and that publish the same host port on the same address.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, also_at, dockerfile_read
from docgen.audit.compose_paths import (
    Up,
    compose_ups,
    entry_line,
    read_services,
    service_items,
    started_compose,
)
from docgen.audit.paths import resolves_inside
from docgen.audit.ports import image_loopback, loopback_server
from docgen.audit.settings import LAUNCHER, Image, command_text
from docgen.errors import DocgenError
from docgen.files import DOCKERFILE, built_dockerfile, real_path, text_or_none
from docgen.markdown import Document, plain
from docgen.model import Diagnostic, ImageModel

_SERVER_PORT = re.compile(
    r"(?<![\w-])--(?:(?:server|http|listen|web|api|app|service)[-_])?port(?:[ \t]*=[ \t]*|[ \t]+)"
    r"[\"']?(\d{2,5})(?![\w.])",
    re.IGNORECASE,
)
"""The port a command gives its server (`--port 8001`, `--server-port=7860`); a port of another service
(`--db-port 5432`) is not its own."""
_BIND = re.compile(r"(?<![\w-])(?:--bind|-b)(?:[ \t]*=[ \t]*|[ \t]+)[\"']?[\w.\[\]-]*:(\d{2,5})\b")
_VARIABLE_PORT = re.compile(r"(?<![\w-])--(?:[\w-]*[-_])?port(?:[ \t]*=[ \t]*|[ \t]+)[\"']?\$", re.IGNORECASE)
_HOST = re.compile(r"(?<![\w-])--host(?:[ \t]*=[ \t]*|[ \t]+)[^\s-]")
_SEVERAL = re.compile(r"&|;|\|")
_NUMBER = re.compile(r"(?<![\w.])\d{2,5}(?![\w.])")
_DEPTH = 2
"""How many folders below the README's a compose file is looked for."""
_MOST = 40
"""At most this many compose files are read near the README."""
_FOLDERS = 300
"""At most this many folders are listed to find them."""


@dataclass(frozen=True)
class _Mismatch:
    host: str | None
    container: str
    served: str
    where: str
    """Where the server's port is given (`qwen/docker-compose.yaml:28 (command)`)."""
    sure: str
    loopback: str = ""
    """The option that has the server listen on the container's loopback address (`--host 127.0.0.1`),
    whatever its port: the published port reaches nothing either."""
    exposed: bool = False
    """No command gives a port: `served` is what the image EXPOSEs, and it names the container port
    nowhere (`_exposed_only`)."""


def _loopback(
    entries: list[str], texts: list[tuple[str, str]], image: Image | None, own: bool
) -> list[_Mismatch]:
    """The `ports:` entries publishing the port a server the service starts on the container's
    loopback address listens on (its command, else the image's ENTRYPOINT, CMD or start script; `own`:
    the service gives its command)."""
    found: list[_Mismatch] = []
    for entry in entries:
        published = _published(entry)
        if published is None:
            continue
        bound: tuple[str, str] | None = None
        for at, (text, where) in enumerate(texts):
            server = loopback_server(text)
            if server is not None and server[1] == published[1] and not (at and ".sh" in texts[0][0]):
                bound = (where, server[0])  # (not a command handed to an entrypoint script)
        if bound is None and image is not None and not own:
            bound = image_loopback(image, published[1], False)
        if bound is not None:
            found.append(_Mismatch(published[0], published[1], published[1], bound[0], CERTAIN, bound[1]))
    return found


def _words(value: object) -> str | None:
    """A `command:` or `entrypoint:` as one command line (a list's words joined with spaces)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(w, str) for w in value):
        return " ".join(value)
    return None


def _published(entry: str) -> tuple[str | None, str] | None:
    """(host port, container port) of a `ports:` entry (`127.0.0.1:9998:8000/tcp`, `8000`); None for a
    range or a variable."""
    text = entry.strip().strip("\"'").split("/", 1)[0]
    if "$" in text or "-" in text:
        return None
    if text.startswith("["):
        text = text.partition("]:")[2]
    parts = text.split(":")
    if not all(p.isdigit() for p in parts[-2:]) or len(parts) > 3:
        return None
    return (parts[-2] if len(parts) >= 2 else None), parts[-1]


def _ports(service: dict[Any, Any]) -> list[str] | None:
    raw = service.get("ports")
    if raw is None:
        return []
    if not isinstance(raw, list):
        return None
    found: list[str] = []
    for entry in raw:
        if isinstance(entry, dict) and entry.get("target") is not None:
            published = entry.get("published")
            found.append(f"{published}:{entry['target']}" if published is not None else str(entry["target"]))
        elif isinstance(entry, str):
            found.append(entry)
        else:
            return None
    return found


def _dockerfile(service: dict[Any, Any], folder: Path) -> Path | None:
    """The Dockerfile a service's `build:` names, from `folder` (the compose file's); None for none."""
    build = service.get("build")
    build = {"context": build} if isinstance(build, str) else build
    if not isinstance(build, dict):
        return None
    context, file = build.get("context", "."), build.get("dockerfile", DOCKERFILE)
    if not isinstance(context, str) or not isinstance(file, str) or "$" in context + file or "://" in context:
        return None
    return real_path(built_dockerfile(folder / context / file))


@dataclass(frozen=True)
class _Unaudited:
    """The run settings of the last stage of a Dockerfile a service builds that docgen does not audit."""

    entrypoint: tuple[str, str] | None
    """(its command, where: `docker/Dockerfile:59 (ENTRYPOINT)`)"""
    cmd: tuple[str, str] | None
    exposed: set[str]
    mentioned: set[str]
    """The port numbers its ENV values, ENTRYPOINT and CMD give."""


def _unaudited(dockerfile: Path, service: dict[Any, Any], top: Path) -> _Unaudited | None:
    """The ENTRYPOINT, CMD, EXPOSE and ENV of the last stage of `dockerfile` when it sets its own
    ENTRYPOINT or CMD (one inherited from another stage or the base is not known), builds no other
    `target:`, and starts no script (which may name other ports); None otherwise."""
    build = service.get("build")
    if isinstance(build, dict) and build.get("target") is not None:
        return None
    read = dockerfile_read(str(dockerfile))
    if read is None:
        return None
    instructions = read[1].instructions
    last = max((i for i, x in enumerate(instructions) if x.keyword == "FROM"), default=-1)
    stage = instructions[last + 1 :]
    shown = Path(os.path.relpath(dockerfile, top)).as_posix()
    settings: dict[str, tuple[str, str]] = {}
    exposed: set[str] = set()
    values: list[str] = []
    for instruction in stage:
        if instruction.keyword in ("ENTRYPOINT", "CMD"):
            text = instruction.args if instruction.exec_form is None else " ".join(instruction.exec_form)
            settings[instruction.keyword] = (
                text,
                f"{shown}:{instruction.start_line} ({instruction.keyword})",
            )
            values.append(text)
        elif instruction.keyword == "EXPOSE":
            exposed.update(re.findall(r"\d{2,5}", instruction.args))
        elif instruction.keyword == "ENV":
            values.append(instruction.args)
    if not settings or any(".sh" in text for text, _ in settings.values()):
        return None
    mentioned = set(_NUMBER.findall(" ".join(values)))
    return _Unaudited(settings.get("ENTRYPOINT"), settings.get("CMD"), exposed, mentioned)


def _mismatches(
    service: dict[Any, Any],
    folder: Path,
    shown: str,
    models: Sequence[ImageModel],
    top: Path,
    lines: Sequence[str] = (),
) -> list[_Mismatch]:
    """The `ports:` entries of a service whose container port is not the one its server listens on
    (`lines`: the compose file's, to tell the line of a command's port)."""
    if service.get("network_mode") == "host":
        return []
    entries = _ports(service)
    if not entries:
        return []
    image: Image | None = None
    unaudited: _Unaudited | None = None
    dockerfile = _dockerfile(service, folder)
    if dockerfile is not None and resolves_inside(dockerfile, top):
        model = next((m for m in models if m.file and real_path(Path(m.file)) == dockerfile), None)
        image = Image(model) if model is not None else None
        unaudited = _unaudited(dockerfile, service, top) if model is None else None
    texts: list[tuple[str, str]] = []  # (command text, where)
    entry, command = _words(service.get("entrypoint")), _words(service.get("command"))
    if (service.get("entrypoint") is None) != (entry is None) or (service.get("command") is None) != (
        command is None
    ):
        return []  # a command docgen cannot read
    if entry is not None:
        at = _port_line(lines, compose.line_of(service, "entrypoint"), entry)
        texts.append((entry, f"{shown}:{at} (entrypoint)"))
    elif image is not None and (setting := image.last("ENTRYPOINT")) is not None:
        texts.append((command_text(setting), f"{image.model.path}:{setting.line} (ENTRYPOINT)"))
    elif unaudited is not None and unaudited.entrypoint is not None:
        texts.append(unaudited.entrypoint)
    if command is not None:
        texts.append(
            (command, f"{shown}:{_port_line(lines, compose.line_of(service, 'command'), command)} (command)")
        )
    elif entry is None and image is not None and (setting := image.last("CMD")) is not None:
        texts.append((command_text(setting), f"{image.model.path}:{setting.line} (CMD)"))
    elif entry is None and unaudited is not None and unaudited.cmd is not None:
        texts.append(unaudited.cmd)
    if not any(_SEVERAL.search(t) for t, _ in texts) and (
        bound := _loopback(entries, texts, image, entry is not None or command is not None)
    ):
        return bound
    if not texts or any(_SEVERAL.search(t) or _VARIABLE_PORT.search(t) for t, _ in texts):
        return []
    givers = [
        (where, found) for text, where in texts for found in _SERVER_PORT.findall(text) + _BIND.findall(text)
    ]
    served = {found for _, found in givers}
    if not served and image is not None:
        return _exposed_only(service, entries, image, texts)
    if len(served) != 1:
        return []
    if len(texts) == 2 and ".sh" in texts[0][0] and any(where == texts[1][1] for where, _ in givers):
        return []  # an entrypoint script may start the command its own way
    port = next(iter(served))
    read = [(e, _published(e)) for e in entries]
    if any(p is None for _, p in read) or any(p is not None and p[1] == port for _, p in read):
        return []  # a port not read, or the server's own port published too
    rest = {k: v for k, v in service.items() if k not in ("ports", compose.KEY_LINES)}
    named = set(_NUMBER.findall(compose._text(rest)))
    exposed: set[str] = set()
    mentioned: set[str] = set()
    if image is not None:
        exposed = {
            p for s in image.settings if s.keyword == "EXPOSE" for p in re.findall(r"\d{2,5}", s.value)
        }
        mentioned = image._mentioned() | image._script_ports
    elif unaudited is not None:
        exposed, mentioned = unaudited.exposed, unaudited.mentioned
    joined = " ".join(t for t, _ in texts)
    launcher = LAUNCHER.search(joined)
    sure = CERTAIN if launcher is not None or _HOST.search(joined) or _BIND.search(joined) else LIKELY
    found: list[_Mismatch] = []
    for text, published in read:
        if published is None:
            continue
        host, container = published
        if container in named or container in mentioned or (container in exposed and port in exposed):
            continue
        del text
        found.append(_Mismatch(host, container, port, givers[0][0], sure))
    return found


def _port_line(lines: Sequence[str], key: int | None, command: str) -> int | None:
    """The line of the compose file (`lines`) from `key` (the `command:` key's) on that gives the
    command's port, else `key`."""
    match = _SERVER_PORT.search(command) or _BIND.search(command)
    if key is None or match is None or not lines:
        return key
    return entry_line(lines, key, match.group(1))


def _near(directory: Path, top: Path) -> list[Path]:
    """The compose files in the README's folder and up to `_DEPTH` folders below it (not hidden ones)."""
    found: list[Path] = []
    todo = [(directory, 0)]
    seen = 0
    while todo and len(found) < _MOST and seen < _FOLDERS:
        folder, depth = todo.pop(0)
        seen += 1
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except (OSError, ValueError):
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name == "node_modules":
                continue
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False) and depth < _DEPTH:
                todo.append((path, depth + 1))
            elif (
                compose.FILE_NAME.fullmatch(entry.name)
                and os.path.isfile(path)
                and resolves_inside(path, top)
            ):
                found.append(real_path(path))
    return found


_URL_PORT = re.compile(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{2,5})(?!\d)")
_SAID_PORT = re.compile(
    r"\bports?\b[ \t]*[:=]?[ \t]*`?(\d{2,5})(?![\d:.])|(?<![\d:.])(\d{2,5})`?[ \t]+port\b", re.I
)


def said_ports(doc: Document) -> dict[str, list[int]]:
    """Host port → the README lines that point the reader at it: a cell of a table's port column
    (`| Service | Port |`), an address on the reader's machine (`localhost:9998`), `port 9998`. Each
    line is read once."""
    found: dict[str, list[int]] = {}
    for table in doc.tables:
        columns = [i for i, cell in enumerate(table.header) if re.search(r"\bports?\b", plain(cell), re.I)]
        for line, cells in table.rows:
            for at in columns:
                if at < len(cells):
                    for port in re.findall(r"(?<![\d:.])(\d{2,5})(?![\d:.])", plain(cells[at])):
                        found.setdefault(port, []).append(line)
            for port in _URL_PORT.findall(" ".join(cells)):
                found.setdefault(port, []).append(line)
    for para in doc.paragraphs:
        for line, text in para.lines:
            for match in _URL_PORT.finditer(text):
                found.setdefault(match.group(1), []).append(line)
            for match in _SAID_PORT.finditer(text):
                found.setdefault(match.group(1) or match.group(2), []).append(line)
    for fence in doc.fences:
        for line, text in fence.lines:
            for match in _URL_PORT.finditer(text):
                found.setdefault(match.group(1), []).append(line)
    return {port: sorted(set(lines)) for port, lines in found.items()}


_CONTAINER_SIDE = re.compile(r"(?<![\w.:])\d{2,5}:(\d{2,5})(?![\d.:])")
"""The container side of a port mapping the README writes (`-p 5001:80`, `"8080:80"`)."""


def _named_ports(doc: Document, said: dict[str, list[int]]) -> set[str]:
    """The ports the README names as the server's: those it points the reader at (`said_ports`) and the
    container sides of the mappings it writes."""
    found = set(said)
    for fence in doc.fences:
        for _, text in fence.lines:
            found.update(_CONTAINER_SIDE.findall(text))
    for para in doc.paragraphs:
        for _, text in para.lines:
            found.update(_CONTAINER_SIDE.findall(text))
    return found


def _exposed_only(
    service: dict[Any, Any], entries: list[str], image: Image, texts: list[tuple[str, str]]
) -> list[_Mismatch]:
    """The `ports:` entries of a service that builds the audited image, whose command gives no port,
    publishing a container port the image does not EXPOSE while it EXPOSEs others, and that neither the
    image (ENV, ENTRYPOINT, CMD, the scripts it starts) nor the service (`environment:`, `command:` …)
    names: the rule of `ports.published_ports` for a compose service (`likely`)."""
    if any(re.search(r"\$|\.sh\b", text) and "--" in text for text, _ in texts):
        return []  # (a command built from variables, or a script, may give the port its own way)
    rest = {k: v for k, v in service.items() if k not in ("ports", compose.KEY_LINES)}
    named = set(_NUMBER.findall(compose._text(rest)))
    found: list[_Mismatch] = []
    for entry in entries:
        published = _published(entry)
        if published is None:
            return []
        host, container = published
        if container in named:
            continue
        verdict = image.port(container, listens=True)
        if verdict is None or " exposes no port" in verdict[0]:
            continue
        found.append(
            _Mismatch(host, container, verdict[0].rsplit(" exposes ", 1)[1], verdict[0], LIKELY, exposed=True)
        )
    return found


def compose_ports(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The host ports the README points at that every service of the compose files it starts or keeps
    near publishing them publishes from a container port its server does not listen on; and the
    `ports:` entries of the README's compose examples that do so."""
    yield from _examples(doc, readme, directory, models, project)
    said = said_ports(doc)
    if not said:
        return
    top = real_path(project or directory)
    here = real_path(directory)
    clashes = _clashing(doc, directory, project)
    paths = [s.path for s in started_compose(doc, directory, project)]
    paths = list(dict.fromkeys([*paths, *_near(directory, top)]))
    publishing: dict[str, list[tuple[str, str, _Mismatch | None, int | None]]] = {}
    # host port → (file, service, its mismatch, the line of its entry) of each service publishing it
    for path in paths:
        read = read_services(path)
        if read is None:
            continue
        defined, lines = read
        shown = Path(os.path.relpath(path, here)).as_posix()
        for name, service in service_items(defined):
            bad = {m.host: m for m in _mismatches(service, path.parent, shown, models, top, lines) if m.host}
            for entry in _ports(service) or []:
                published = _published(entry)
                if published is None or published[0] is None:
                    continue
                at = entry_line(lines, compose.line_of(service, "ports"), entry)
                publishing.setdefault(published[0], []).append((shown, str(name), bad.get(published[0]), at))
    for host, services in publishing.items():
        told = said.get(host)
        wrong = next((s for s in services if s[2] is not None), None)
        if not told or wrong is None:
            continue
        shown, name, mismatch, at = wrong
        # another service serving the port is an alternative, unless a compose up of the README starts
        # it with this one (the two clash: `port_clashes`)
        if mismatch is None or any(m is None and (f, n, host) not in clashes for f, n, m, _ in services):
            continue
        if mismatch.loopback:
            yield Diagnostic(
                readme,
                told[0],
                f"README points to port {host}, but {shown}:{at} publishes it from container port "
                f"{mismatch.container} of service {name}, while {mismatch.where} starts the server on the "
                f"container's loopback address ({mismatch.loopback}): nothing answers behind host port "
                f"{host}{also_at(told)}",
                confidence=mismatch.sure,
            )
            continue
        if mismatch.exposed:
            if not set(_NUMBER.findall(mismatch.served)) & _named_ports(doc, said):
                # the README takes no side: the compose file it runs and the image's EXPOSE disagree with
                # each other, and EXPOSE publishes nothing
                continue
            yield Diagnostic(
                readme,
                told[0],
                f"README points to port {host}, but {shown}:{at} publishes it from container port "
                f"{mismatch.container} of service {name}, while {mismatch.where} and names "
                f"{mismatch.container} nowhere in its ENV, ENTRYPOINT or CMD: the image and the compose file "
                f"disagree on the port the server listens on{also_at(told)}",
                confidence=LIKELY,
            )
            continue
        yield Diagnostic(
            readme,
            told[0],
            f"README points to port {host}, but {shown}:{at} publishes it from container "
            f"port {mismatch.container} of service {name}, while {mismatch.where} starts the server on "
            f"port {mismatch.served}: nothing listens behind host port {host}{also_at(told)}",
            confidence=mismatch.sure,
        )


_YAML_LANGS = frozenset({"yaml", "yml", "compose", ""})


def _examples(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each `ports:` entry of a compose example of the README whose container port the service's server
    does not listen on (its command, else the CMD of the audited Dockerfile it builds)."""
    top = real_path(project or directory)
    for fence in doc.fences:
        if fence.lang not in _YAML_LANGS or not any(t.startswith("services:") for _, t in fence.lines):
            continue
        text = "\n".join(t for _, t in fence.lines)
        try:
            document = compose.load(text.encode("utf-8"), readme)
        except DocgenError:
            continue
        services = document.get("services") if isinstance(document, dict) else None
        if not isinstance(services, dict):
            continue
        first = fence.lines[0][0]
        texts = [t for _, t in fence.lines]
        for name, service in services.items():
            if name == compose.KEY_LINES or not isinstance(service, dict):
                continue
            for mismatch in _mismatches(service, directory, readme, models, top, texts):
                if mismatch.exposed:
                    continue  # (told only for a compose file beside the README)
                key = compose.line_of(service, "ports")
                entry = next(
                    (
                        e
                        for e in _ports(service) or []
                        if _published(e) == (mismatch.host, mismatch.container)
                    ),
                    "",
                )
                at = entry_line(texts, key, entry) if key is not None else None
                line = first + (at or 1) - 1
                where = mismatch.where.replace(f"{readme}:", "line ")
                if where.startswith("line "):
                    number, _, rest = where[5:].partition(" ")
                    where = f"line {first + int(number) - 1} {rest}" if number.isdigit() else where
                served = (
                    f"on the container's loopback address ({mismatch.loopback})"
                    if mismatch.loopback
                    else f"on port {mismatch.served}"
                )
                yield Diagnostic(
                    readme,
                    line,
                    f"README's compose example publishes container port {mismatch.container} of service "
                    f"{name}, but {where} starts the server {served}: the published port reaches nothing",
                    confidence=mismatch.sure,
                )


_SHORT = re.compile(
    r"\A(?:(?P<ip>\[[0-9a-fA-F:.]+\]|[\d.]+|[\w-]+):)??(?:(?P<host>\d{1,5}(?:-\d{1,5})?):)?"
    r"(?P<container>\d{1,5}(?:-\d{1,5})?)(?:/(?P<protocol>tcp|udp|sctp))?\Z"
)
_VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}|\$(\w+)")


def _env_file(folder: Path) -> dict[str, str]:
    """The `NAME=value` lines of the `.env` file beside a compose file (compose reads it for its
    variables)."""
    text = text_or_none(folder / ".env")
    found: dict[str, str] = {}
    for line in (text or "").splitlines():
        name, equals, value = line.strip().removeprefix("export ").partition("=")
        if equals and re.fullmatch(r"\w+", name.strip()):
            found[name.strip()] = value.strip().strip("\"'")
    return found


def _resolved(text: str, env: dict[str, str]) -> str | None:
    """`text` with its variables replaced by the `.env` values or their defaults (`${PORT:-8000}`);
    None when one has neither."""
    missing = False

    def value(match: re.Match[str]) -> str:
        nonlocal missing
        name = match.group(1) or match.group(4)
        if name in env and (env[name] or match.group(2) != ":-"):
            return env[name]
        if match.group(2) in (":-", "-"):
            return match.group(3) or ""
        missing = True
        return ""

    out = _VARIABLE.sub(value, text)
    return None if missing or "$" in out else out


def _span(text: str) -> list[int] | None:
    first, _, last = text.partition("-")
    low, high = int(first), int(last or first)
    return list(range(low, high + 1)) if low <= high and high - low < 1000 else None


def _host_ports(entry: object, env: dict[str, str]) -> list[tuple[str, int, str]] | None:
    """(host IP, '' for every address; host port; protocol) of each host port a `ports:` entry binds
    for good; None when it binds none (`"8000"`: a free port) or may bind any of a range
    (`"8000-8010:80"`), or cannot be read."""
    if isinstance(entry, dict):
        published, ip = entry.get("published"), entry.get("host_ip", "")
        protocol = entry.get("protocol", "tcp")
        if published is None or not isinstance(ip, str) or not isinstance(protocol, str):
            return None
        target = _resolved(str(entry.get("target", "")), env)
        host = _resolved(str(published), env)
        ip = _resolved(ip, env)
        if target is None or host is None or ip is None or not re.fullmatch(r"\d{1,5}(?:-\d{1,5})?", host):
            return None
        hosts, targets = _span(host), _span(target) if target.isdigit() else [0]
        if hosts is None or targets is None or (len(hosts) > 1 and len(hosts) != len(targets)):
            return None
        return [(ip.strip("[]"), h, protocol) for h in hosts]
    if not isinstance(entry, (str, int)):
        return None
    text = _resolved(str(entry).strip(), env)
    match = _SHORT.match(text) if text is not None else None
    if match is None or match.group("host") is None:
        return None
    hosts, targets = _span(match.group("host")), _span(match.group("container"))
    if hosts is None or targets is None or (len(hosts) > 1 and len(hosts) != len(targets)):
        return None
    ip = (match.group("ip") or "").strip("[]")
    return [("" if ip in ("0.0.0.0", "::") else ip, h, match.group("protocol") or "tcp") for h in hosts]


@dataclass(frozen=True)
class _Bound:
    service: str
    shown: str
    """The compose file's path from the README's folder."""
    line: int | None
    """The line of the `ports:` entry."""


def _replicas(service: dict[Any, Any]) -> int:
    deploy = service.get("deploy")
    count = deploy.get("replicas") if isinstance(deploy, dict) else service.get("scale")
    text = str(count).strip() if isinstance(count, (int, str)) and not isinstance(count, bool) else ""
    return int(text) if text.isdigit() and len(text) < 4 else 1


def _started(services: dict[str, dict[Any, Any]], up: Up) -> list[str] | None:
    """The services `up` starts; None when that cannot be told (a service it names is not there)."""
    if up.services:
        todo, found = list(up.services), []
        while todo:
            name = todo.pop(0)
            if name in found:
                continue
            if name not in services:
                return None
            found.append(name)
            if up.no_deps:
                continue
            needs = services[name].get("depends_on")
            if isinstance(needs, (list, dict)):
                todo += [str(n) for n in needs if n != compose.KEY_LINES]
            elif needs is not None:
                return None
        return found
    on = set(up.profiles)
    found = []
    for name, service in services.items():
        profiles = service.get("profiles")
        if profiles is None or (
            isinstance(profiles, list) and (on & {str(p) for p in profiles} or "*" in on)
        ):
            found.append(name)
        elif not isinstance(profiles, list):
            return None
    return found


_Clash = tuple[int, str, str, tuple[_Bound, _Bound]]
"""(host port, address, protocol, the first two services binding it)."""


def _clashes(
    doc: Document, directory: Path, project: Path | None
) -> list[tuple[Up, list[_Clash], dict[str, dict[Any, Any]]]]:
    """Each `docker compose up` of the README whose services publish a host port twice, with those
    clashes and its services (the files merged by name)."""
    here = real_path(directory)
    found: list[tuple[Up, list[_Clash], dict[str, dict[Any, Any]]]] = []
    told: set[tuple[Path, ...]] = set()
    for up in compose_ups(doc, directory, project):
        if up.paths in told:
            continue
        merged: dict[str, dict[Any, Any]] = {}
        entries: dict[str, list[tuple[object, Path, int | None]]] = {}
        readable = True
        for path in up.paths:
            read = read_services(path)
            if read is None:
                readable = False
                break
            services, lines = read
            for name, service in service_items(services):
                merged.setdefault(str(name), {}).update(service)
                raw = service.get("ports")
                for entry in raw if isinstance(raw, list) else []:
                    key = compose.line_of(service, "ports")
                    at = (
                        entry_line(lines, key, str(entry))
                        if isinstance(entry, (str, int))
                        else compose.line_of(entry, "published")
                        if isinstance(entry, dict)
                        else key
                    ) or key
                    entries.setdefault(str(name), []).append((entry, path, at))
        if not readable or not merged:
            continue
        started = _started(merged, up)
        if started is None:
            continue
        env = _env_file(up.paths[0].parent)
        bound: dict[tuple[str, int, str], list[_Bound]] = {}
        for name in started:
            service = merged[name]
            if service.get("network_mode") is not None or service.get("extends") is not None:
                continue
            own: dict[tuple[str, int, str], _Bound] = {}  # an entry the override repeats is one
            for entry, path, at in entries.get(name, []):
                shown = Path(os.path.relpath(path, here)).as_posix()
                for binding in _host_ports(entry, env) or []:
                    own.setdefault(binding, _Bound(name, shown, at))
            for binding, where in own.items():
                bound.setdefault(binding, []).extend([where] * min(_replicas(service), 2))
        clashes: list[_Clash] = [
            (port, ip, protocol, (users[0], users[1]))
            for (ip, port, protocol), users in bound.items()
            if len(users) > 1
        ]
        if clashes:
            told.add(up.paths)
            found.append((up, clashes, merged))
    return found


def _clashing(doc: Document, directory: Path, project: Path | None) -> set[tuple[str, str, str]]:
    """(compose file as shown, service, host port) of each service a `docker compose up` of the README
    starts with another on the same host port."""
    return {
        (bound.shown, bound.service, str(port))
        for _, clashes, _ in _clashes(doc, directory, project)
        for port, _, _, pair in clashes
        for bound in pair
    }


def port_clashes(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """Each `docker compose up` of the README that starts two services (or two replicas of one) that
    publish the same host port on the same address and protocol: the second cannot bind it and
    does not start (`certain`). A service on the host's network, a port compose picks (`"8000"`, a
    host range for one container port) or a variable with no value in `.env` and no default is not
    read; services in profiles the command does not enable are not started."""
    for up, clashes, merged in _clashes(doc, directory, project):
        port, ip, protocol, (first, second) = min(clashes, key=lambda c: c[0])
        where = f"{ip}:" if ip else ""
        proto = f"/{protocol}" if protocol != "tcp" else ""
        if first.service == second.service:
            said = (
                f"{_replicas(merged[first.service])} replicas of service {first.service}, and "
                f"{first.shown}:{first.line} publishes host port {where}{port}{proto} for each: only one "
                "can bind it"
            )
        else:
            said = (
                f"services {first.service} ({first.shown}:{first.line}) and {second.service} "
                f"({second.shown}:{second.line}), which both publish host port {where}{port}{proto}: the "
                "second cannot bind it and does not start"
            )
        yield Diagnostic(readme, up.line, f"README's docker compose up starts {said}", confidence=CERTAIN)
