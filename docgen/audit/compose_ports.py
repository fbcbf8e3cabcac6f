"""A compose service whose `ports:` publish a container port the server inside does not listen on: the
service's `command:` (or `entrypoint:`), else the CMD and ENTRYPOINT of the audited Dockerfile it
builds, starts its one program with a fixed port (`--port 8001`, `--bind 0.0.0.0:8001`) and the
mapping's container side is another (`9998:8000`): the host port reaches nothing. The rule of a `docker
run -p` against the image's port (`ports.published_ports`), for compose services.

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
`likely`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, also_at
from docgen.audit.compose_paths import entry_line, read_document, started_compose
from docgen.audit.paths import resolves_inside
from docgen.audit.settings import LAUNCHER, Image, command_text
from docgen.errors import DocgenError
from docgen.files import real_path
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
    context, file = build.get("context", "."), build.get("dockerfile", "Dockerfile")
    if not isinstance(context, str) or not isinstance(file, str) or "$" in context + file or "://" in context:
        return None
    return real_path(folder / context / file)


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
    dockerfile = _dockerfile(service, folder)
    if dockerfile is not None and resolves_inside(dockerfile, top):
        model = next((m for m in models if m.file and real_path(Path(m.file)) == dockerfile), None)
        image = Image(model) if model is not None else None
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
    if command is not None:
        texts.append(
            (command, f"{shown}:{_port_line(lines, compose.line_of(service, 'command'), command)} (command)")
        )
    elif entry is None and image is not None and (setting := image.last("CMD")) is not None:
        texts.append((command_text(setting), f"{image.model.path}:{setting.line} (CMD)"))
    if not texts or any(_SEVERAL.search(t) or _VARIABLE_PORT.search(t) for t, _ in texts):
        return []
    givers = [
        (where, found) for text, where in texts for found in _SERVER_PORT.findall(text) + _BIND.findall(text)
    ]
    served = {found for _, found in givers}
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
    paths = [s.path for s in started_compose(doc, directory, project)]
    paths = list(dict.fromkeys([*paths, *_near(directory, top)]))
    publishing: dict[str, list[tuple[str, str, _Mismatch | None, int | None]]] = {}
    # host port → (file, service, its mismatch, the line of its entry) of each service publishing it
    for path in paths:
        read = read_document(path)
        if read is None:
            continue
        document, lines = read
        services = document.get("services")
        if not isinstance(services, dict):
            continue
        shown = Path(os.path.relpath(path, here)).as_posix()
        for name, service in services.items():
            if name == compose.KEY_LINES or not isinstance(service, dict):
                continue
            bad = {m.host: m for m in _mismatches(service, path.parent, shown, models, top, lines) if m.host}
            for entry in _ports(service) or []:
                published = _published(entry)
                if published is None or published[0] is None:
                    continue
                at = entry_line(lines, compose.line_of(service, "ports"), entry)
                publishing.setdefault(published[0], []).append((shown, str(name), bad.get(published[0]), at))
    for host, services in publishing.items():
        told = said.get(host)
        if not told or any(m is None for _, _, m, _ in services):
            continue
        shown, name, mismatch, at = services[0]
        if mismatch is None:
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
                yield Diagnostic(
                    readme,
                    line,
                    f"README's compose example publishes container port {mismatch.container} of service "
                    f"{name}, but {where} starts the server on port {mismatch.served}: the published port "
                    "reaches nothing",
                    confidence=mismatch.sure,
                )
