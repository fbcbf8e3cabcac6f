"""A page the README tells the reader to open on the host (`5. Navigate to http://localhost:8080 in
browser`) right after starting the project with Docker Compose, on a port no service of the compose files
beside the README publishes: the browser finds nothing there. Compose publishes a container's port on the
host only through `ports:` (`127.0.0.1:9010:8080` serves the container's 8080 on the host's 9010), so the
URL names a port the project moved away from, or the container's side of a mapping.

Silent whenever docgen cannot see every port the reader may have published: a host port in a variable
(`${WEBUI_PORT:-7860}:7860`), a port Docker picks (`- "8188"`), `network_mode: host`, a compose file
that includes others, a compose file the README names that is not beside it (unless the README copies
one beside it to that name: `cp docker-compose.dist.yml docker-compose.yml`), `docker run -P`,
`--network host`, a tunnel (`ssh -L`, `port-forward`). A port a `docker run -p` of the README publishes
counts as published. Only a URL on a prose line that says to open it (`open`, `navigate`, `visit`,
`browser`, `access`, `available at` …) and has no word about the host's own services (`host`, `Ollama`
…) is read, and only when the last command the README shows before it is a compose command (a local
`python main.py` before it serves on its own port).

The items of a port list (`Ports:` then `- 8888: Notebook port.`) are read against the same host
ports, unless the list says it names the containers' (`_listed_ports`).

`picked_ports`: a URL of a command block after the compose command (`curl http://localhost:8000/…`)
on a port a service publishes with no host side (`- "8000"`: Docker picks the host port) while nothing
publishes host port 8000 reaches nothing (`certain`), under the same guards.

Each line is read once; every regular expression runs on one line.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, also_at
from docgen.audit.commands import fence_commands, joined
from docgen.audit.make_targets import makefile_in, makefile_text
from docgen.audit.names import COMPOSE_NAMED, Composed, compose_file, compose_files
from docgen.audit.references import inside
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.files import real_path, text_or_none
from docgen.makefile import recipe_lines
from docgen.markdown import Document, lists, plain
from docgen.model import Diagnostic, ImageModel

_URL = re.compile(r"\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{1,5})(?!\d)")
"""A page on the reader's own machine with its port (`http://localhost:8080/docs`)."""
OPEN = re.compile(
    r"\b(?:open(?:s|ing)?|navigate|visit|brows(?:e|er)|go[ \t]+to|head[ \t]+(?:over[ \t]+)?to|"
    r"access(?:ible)?|available|reach(?:able)?)\b",
    re.IGNORECASE,
)
"""Words telling the reader to open the page."""
ELSEWHERE = re.compile(
    r"\bhost\b|\bollama\b|\btunnel|\bport[- ]forward|\bssh\b|\bkubectl\b|\bwithout[ \t]+docker\b",
    re.IGNORECASE,
)
"""Words about a service of the host, or another way to reach or run it: the port is not compose's."""
_COMPOSE_COMMAND = re.compile(r"\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b")
_UP = re.compile(
    r"\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b[^\n`]{0,200}?\b(?:up|start|run)\b"
)
"""A compose command that starts services (`docker compose -f x.yml up -d`); the options are read over
at most 200 characters, so a long line of them costs no more than its length times that."""
_FILE_OPTION = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)[\"']?([^\s\"']+)")
"""`docker compose -f deploy/stack.yml`: a compose file a command runs, whatever its name."""
_CD = re.compile(r"(?:^|[\s;&(])cd[ \t]+[\"']?([\w./-]+)")
"""`cd deploy`: the compose commands after it may run that folder's compose file."""
_COPIED = re.compile(r"\b(?:cp|mv|copy)[ \t]+(?:-\w+[ \t]+)*[\"']?([\w./-]+)[\"']?[ \t]+[\"']?([\w./-]+)")
"""`cp docker-compose.dist.yml docker-compose.yml`: the second file is the first one's copy."""
_PUBLISH = re.compile(
    r"(?:^|[ \t])(?:-p|--publish)(?:[ \t]+|=)[\"']?(?:[\d.]+:|\[[0-9a-fA-F:]+\]:)?(\d{1,5})(?:-(\d{1,5}))?:"
)
"""A host port a `docker run` publishes (`-p 8080:80`, `-p 127.0.0.1:8080:80`, `-p 8000-8010:8000-8010`)."""
_ALL_PORTS = re.compile(r"(?:^|[ \t])(?:-P|--publish-all)\b|--net(?:work)?(?:[ \t]+|=)[\"']?host\b")
"""`-P` (ports Docker picks) or `--network host`: the host's ports are not the README's to tell."""


def _run_published(lines: Iterable[str]) -> set[int]:
    """The host ports the `docker run -p` options of `lines` publish (`_PUBLISH`; a range up to 1000
    ports past its first)."""
    found: set[int] = set()
    for text in lines:
        for match in _PUBLISH.finditer(text):
            low, high = int(match.group(1)), int(match.group(2) or match.group(1))
            found.update(range(low, min(high, low + 1000) + 1))
    return found


def _host_ports(entry: str) -> range | None:
    """The host ports a compose `ports:` entry publishes; None when docgen cannot tell them (a variable,
    a port Docker picks, a form it does not read)."""
    text = entry.strip().split("/", 1)[0]
    if "$" in text:
        return None
    if text.startswith("["):  # `[::1]:8080:80`
        _, _, text = text.partition("]:")
        parts = ["", *text.split(":")]
    else:
        parts = text.split(":")
    if len(parts) == 2:
        host = parts[0]
    elif len(parts) == 3:
        host = parts[1]
    else:
        return None  # `- "8188"`: Docker picks the host's port
    low, _, high = host.partition("-")
    if not low.isdigit() or (high and not high.isdigit()):
        return None
    return range(int(low), int(high or low) + 1)


def _holds_compose(folder: Path) -> bool:
    """True when `folder` (one the README changes to) is a folder holding a compose file."""
    try:
        return os.path.isdir(folder) and any(compose.FILE_NAME.fullmatch(e.name) for e in os.scandir(folder))
    except OSError:
        return False


def _published(services: Sequence[compose.Service]) -> set[int] | None:
    """Every host port the services publish; None when one of them publishes ports docgen cannot tell."""
    found: set[int] = set()
    for service in services:
        if service.ports is None or dict(service.settings).get("network_mode", "").strip() == "host":
            return None
        for entry in service.ports:
            hosts = _host_ports(entry)
            if hosts is None or len(hosts) > 1000:
                return None
            found.update(hosts)
    return found


def block_commands(doc: Document) -> list[tuple[int, str]]:
    """(first line, text) of every command of the README's command blocks, in order."""
    found: list[tuple[int, str]] = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            found.append((lines[0][0], joined(lines)))
    return sorted(found)


_MAKE = re.compile(r"(?:^|[\s;&(])make[ \t]+(?:-[\w-]+[ \t]+)*([\w][\w.-]*)(?=[ \t]*(?:#|$))")
"""`make up`: a target the README makes with the Makefile of its folder (one target, no variables)."""


@dataclass(frozen=True)
class Made:
    """A compose command a `make TARGET` of the README runs through the Makefile of its folder."""

    command: str
    """The compose command of the target's recipe (the first that starts services, else the first)."""
    where: str
    """Where the recipe runs it: `Makefile:2`."""


def made_compose(doc: Document, directory: Path) -> dict[int, Made]:
    """README line → the compose command of each `make TARGET` of its command blocks whose recipe (or
    a prerequisite's) runs one, read in the Makefile `make` reads in the README's folder."""
    path = makefile_in(directory)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None:
        return {}
    found: dict[int, Made] = {}
    for number, command in block_commands(doc):
        target = _MAKE.search(command)
        if target is None:
            continue
        recipe = recipe_lines(text, target.group(1)) or ()
        composed = [(n, t) for n, t in recipe if _COMPOSE_COMMAND.search(t)]
        first = next((c for c in composed if _UP.search(c[1])), composed[0] if composed else None)
        if first is not None:
            start = _COMPOSE_COMMAND.search(first[1])
            shown = first[1][start.start() :].strip() if start is not None else first[1].strip()
            found[number] = Made(shown, f"{path.name}:{first[0]}")
    return found


def _compose_read(
    doc: Document, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> tuple[list[Composed], list[str]] | None:
    """The compose files a compose command of the README starts (itself or through a `make` target:
    `made_compose`), all of which docgen sees, and every line of the README with those commands; None
    when it starts none, publishes every port or chooses its files elsewhere."""
    every_line = [t for p in doc.paragraphs for _, t in p.lines] + [t for f in doc.fences for _, t in f.lines]
    every_line += [made.command for made in made_compose(doc, directory).values()]
    if not any(_UP.search(t) for t in every_line) or any(_ALL_PORTS.search(t) for t in every_line):
        return None
    files = compose_files(directory, models, project)
    if not files:
        return None
    shown = {posixpath.basename(f.shown) for f in files}
    copies = {posixpath.basename(m.group(2)) for t in every_line for m in _COPIED.finditer(t)}
    named = {n for t in every_line for n in COMPOSE_NAMED.findall(t)}
    named |= {
        posixpath.basename(m.group(1))
        for t in every_line
        if _COMPOSE_COMMAND.search(t)
        for m in _FILE_OPTION.finditer(t)
    }
    if any("COMPOSE_FILE" in t or "--project-directory" in t for t in every_line):
        return None  # the files the commands run are chosen elsewhere
    if any(_holds_compose(directory / m.group(1)) for t in every_line for m in _CD.finditer(t)):
        return None  # `cd deploy && docker compose up`: that folder's file, which docgen does not read
    if named - shown - copies:
        return None  # a compose file the README runs that docgen does not see
    return files, every_line


def _published_read(
    doc: Document, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> tuple[list[Composed], set[int]] | None:
    """`_compose_read`'s files, and the host ports they and the README publish: every service's `ports:` and
    each `-p` of the README; None when `_compose_read` reads nothing, or a compose file is unreadable or
    publishes a port docgen cannot read."""
    seen = _compose_read(doc, directory, models, project)
    if seen is None:
        return None
    files, every_line = seen
    published: set[int] = set()
    for file in files:
        read = compose_file(directory / file.shown)
        if read is None or read[1]:
            return None
        ports = _published(file.services)
        if ports is None:
            return None
        published |= ports
    published |= _run_published(every_line)
    return files, published


def compose_urls(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each prose line telling to open `http://localhost:PORT` right after a compose command, when no
    service of the compose files beside the README (or the audited Dockerfiles) publishes host port PORT
    and no `docker run -p` of the README does (`likely`)."""
    seen = _published_read(doc, directory, models, project)
    if seen is None:
        return
    files, published = seen
    made = made_compose(doc, directory)
    commands = [(n, made[n].command if n in made else t) for n, t in block_commands(doc)]
    starts = [n for n, _ in commands]
    names = ", ".join(sorted(f.shown for f in files))
    if not published:
        yield from _unpublished(doc, readme, names, commands, made)
        return
    mapped = {c: h for f in files for s in f.services for c, h in _mappings(s.ports or ())}
    yield from _listed_ports(doc, readme, names, published, mapped)
    for para in doc.paragraphs:
        for number, text in para.lines:
            urls = list(_URL.finditer(text))
            if not urls or not OPEN.search(text) or ELSEWHERE.search(text):
                continue
            last = bisect.bisect_left(starts, number) - 1  # the last command before the line
            if not _UP.search(text) and (last < 0 or not _COMPOSE_COMMAND.search(commands[last][1])):
                continue
            for match in urls:
                port = int(match.group(1))
                if port in published:
                    continue
                listed = ", ".join(str(p) for p in sorted(published)[:8])
                yield Diagnostic(
                    readme,
                    number,
                    f"README says to open {match.group(0)}, but no service of {names} publishes host port "
                    f"{port} (they publish {listed})",
                    confidence=LIKELY,
                )


_OWN_WAY = re.compile(
    r"\bports:|--publish\b|\bpublish(?:es|ing)?[ \t]+(?:the[ \t]+|its[ \t]+)?ports?\b"
    r"|\bport[ \t-]?mappings?\b|\bmap(?:ping)?[ \t]+(?:the[ \t]+)?ports?\b|\bdev[ \t-]?containers?\b"
    r"|\bcodespaces?\b|\bvs[ \t]?code\b"
    r"|\bport[ \t-]forward|\btunnel|\bngrok\b|\bkubectl\b|\btraefik\b",
    re.IGNORECASE,
)
"""Words of a README that publishes the ports another way than its compose files do: it tells the reader
to add a mapping (`ports:`), or an editor, a tunnel or a cluster forwards them."""


def _unpublished(
    doc: Document, readme: str, names: str, commands: list[tuple[int, str]], made: dict[int, Made]
) -> Iterator[Diagnostic]:
    """Each prose line telling to open `http://localhost:PORT` when no service of the compose files the
    README starts publishes any port (no `ports:`; `expose:` and EXPOSE publish nothing) and no `docker
    run -p` of it does: a container's port is reachable from the host only when published (`likely`).
    When the README starts nothing but compose (itself or through `make`), every such line is read; else
    only one right after a compose command. Silent when the README publishes the ports its own way
    (`_OWN_WAY`)."""
    every_line = [t for p in doc.paragraphs for _, t in p.lines] + [t for f in doc.fences for _, t in f.lines]
    if any(_OWN_WAY.search(t) for t in every_line):
        return
    ups = [(n, t) for n, t in commands if _UP.search(t)]
    if not ups:
        return
    up_line, up_text = ups[0]
    alone = not any(_LOCAL_START.search(t) and not _COMPOSE_COMMAND.search(t) for _, t in commands)
    starts = [n for n, _ in commands]
    if up_line in made:
        said = dict(block_commands(doc)).get(up_line, "")
        target = _MAKE.search(said)
        how = f"make {target.group(1)}" if target is not None else "make"
        started = f"{how} (line {up_line}) starts them with {up_text} ({made[up_line].where})"
    else:
        started = f"{up_text} (line {up_line}) starts them"
    for para in doc.paragraphs:
        for number, text in para.lines:
            urls = list(_URL.finditer(text))
            if not urls or not OPEN.search(text) or ELSEWHERE.search(text):
                continue
            last = bisect.bisect_left(starts, number) - 1
            if not alone and (last < 0 or not _COMPOSE_COMMAND.search(commands[last][1])):
                continue
            for match in urls:
                yield Diagnostic(
                    readme,
                    number,
                    f"README says to open {match.group(0)}, but no service of {names} publishes a port (none "
                    f"has ports:; EXPOSE does not publish), and {started}: the address reaches nothing on "
                    "the host",
                    confidence=LIKELY,
                )


_PICKED = re.compile(r"[\"']?(\d{1,5})(?:/tcp)?[\"']?\Z")
"""A `ports:` entry with no host side (`- "8000"`): Docker publishes the port on a host port it picks."""
_LOOKED_UP = re.compile(
    r"\bdocker(?:[ \t]+compose|-compose)?[ \t]+port\b|\bdocker[ \t]+ps\b|\b(?:random|ephemeral)\b", re.I
)
"""The README looks the picked port up (`docker compose port triton 8000`, `docker ps`) or says it is
random."""
_AWAY = re.compile(r"\b(?:docker(?:[ \t]+compose|-compose)?[ \t]+exec|kubectl[ \t]+exec|ssh)\b")
"""A command after which a block's commands run in a container or on another machine."""


def picked_ports(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each port of a `http://localhost:PORT` URL of the README's command blocks after a compose command
    that starts the services, when a service of the compose files publishes container port PORT with no
    host port (`- "8000"`: Docker picks a free host port each time) and nothing publishes host port PORT:
    the request reaches nothing (`certain`). One finding a port, at its first line."""
    seen = _compose_read(doc, directory, models, project)
    if seen is None:
        return
    files, every_line = seen
    if any(_LOOKED_UP.search(t) for t in every_line):
        return
    published: set[int] = set()
    picked: dict[int, tuple[str, compose.Service]] = {}
    for file in files:
        read = compose_file(directory / file.shown)
        if read is None or read[1]:
            return
        for service in file.services:
            if service.ports is None or dict(service.settings).get("network_mode", "").strip() == "host":
                return
            for entry in service.ports:
                bare = _PICKED.match(entry.strip())
                if bare is not None:
                    picked.setdefault(int(bare.group(1)), (file.shown, service))
                    continue
                hosts = _host_ports(entry)
                if hosts is None or len(hosts) > 1000:
                    return
                published.update(hosts)
    if not picked:
        return
    published |= _run_published(every_line)
    up = min((n for f in doc.fences for n, t in f.lines if _UP.search(t)), default=None)
    if up is None:
        return
    told: dict[int, list[int]] = {}
    for fence in doc.fences:
        away = False
        for number, text in fence.lines:
            away = away or bool(_AWAY.search(text))
            if away or number <= up:
                continue
            for match in _URL.finditer(text):
                port = int(match.group(1))
                if port in picked and port not in published:
                    told.setdefault(port, []).append(number)
    for port, lines in sorted(told.items(), key=lambda item: item[1][0]):
        shown, service = picked[port]
        where = f"{shown}:{service.line}" if service.line else shown
        yield Diagnostic(
            readme,
            lines[0],
            f"README sends a request to host port {port}, but service {service.name} ({where}) publishes "
            f"container port {port} with no host port: Docker maps it to a host port it picks, and no "
            f"service publishes host port {port}{also_at(sorted(set(lines)))}",
            confidence=CERTAIN,
        )


_PORT_ITEM = re.compile(
    r"\A[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*|`)?(\d{2,5})(?:\*\*|`)?[ \t]*"
    r"(?::|[-\u2013\u2014]|->|=>)[ \t]*(\S.*)"
)
"""An item of a port list: `- 8888: Notebook port.`, `* **7860** - web UI`."""
_PORTS = re.compile(r"\bports?\b", re.IGNORECASE)
_INSIDE = re.compile(
    r"\b(?:container|internal(?:ly)?|inside|exposed?|target|in[ \t]+the[ \t]+image)\b", re.IGNORECASE
)
"""Words saying a port list names the container's ports, not the host's."""


def _mappings(entries: Sequence[str]) -> Iterator[tuple[int, int]]:
    """(container port, host port) of each `ports:` entry naming both (`8080:8888`)."""
    for entry in entries:
        parts = entry.strip().strip("\"'").split("/", 1)[0].split(":")
        if len(parts) in (2, 3) and parts[-1].isdigit() and parts[-2].isdigit():
            yield int(parts[-1]), int(parts[-2])


def _listed_ports(
    doc: Document, readme: str, names: str, published: set[int], mapped: dict[int, int]
) -> Iterator[Diagnostic]:
    """Each item of a port list of the README (`Ports:` then `- 8888: Notebook port.`) naming a port
    no service of the compose files publishes on the host: the reader opens a port that reaches
    nothing. A list saying it names the containers' ports (`container`, `internal`, `exposed`) is not
    read."""
    for block in lists(doc):
        lead = block.intro or block.heading
        if not _PORTS.search(plain(lead)) or _INSIDE.search(lead):
            continue
        for number, text in block.items:
            item = _PORT_ITEM.match(text)
            if item is None or _INSIDE.search(item.group(2)) or ELSEWHERE.search(item.group(2)):
                continue
            port = int(item.group(1))
            if port in published:
                continue
            if port in mapped:
                said = f"publishes container port {port} on host port {mapped[port]}"
            else:
                listed = ", ".join(str(p) for p in sorted(published)[:8])
                said = f"publishes no host port {port} (they publish {listed})"
            yield Diagnostic(
                readme,
                number,
                f"README lists port {port} ({item.group(2).strip().rstrip('.')}), but {names} {said}",
                confidence=LIKELY,
            )


_LOCAL_START = re.compile(
    r"\b(?:docker[ \t]+run|docker(?:[ \t]+compose|-compose)?[ \t]+(?:exec|down|stop|kill)|podman[ \t]+run|"
    r"python[\d.]*|uvicorn|gunicorn|flask|fastapi|streamlit|gradio|npm|npx|yarn|pnpm|node|deno|bun|"
    r"go[ \t]+run|cargo[ \t]+run|java|mvn|gradle|dotnet|rails|php|make|kubectl|ssh|ollama|vllm|podman)\b|"
    r"(?:^|[\s;&(])\./[\w.-]+"
)
"""A command after which a localhost request may go to something other than the compose services: a
server started on the host or in a container of its own, a command run in a container, the services
stopped."""
_SCRIPT = re.compile(r"(?:^|[\s;&(])python[\d.]*[ \t]+(?:-u[ \t]+)?([\w./-]+\.py)\b")
"""`python bench.py`: a script the README runs on the host."""
_URL_OPTION = re.compile(
    r"add_argument\(\s*[\"'](--[\w-]+)[\"'][^()]{0,300}?\bdefault\s*=\s*[\"']"
    r"(https?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{1,5})(?!\d)[^\"'\s]*)[\"']"
)
"""An argparse option of a script defaulting to a URL on the host (`ap.add_argument("--url",
default="http://localhost:8180")`)."""
_NAMED_URL = re.compile(r"\bhttps?://([A-Za-z][\w-]*):(\d{1,5})(?![\d.\w-])")
"""A URL naming a host by a bare name (`http://kokoro-server:8180`): a service or container of the
compose network."""


def _server_ports(files: Sequence[Composed], models: Sequence[ImageModel]) -> dict[int, str]:
    """The ports the project says its servers listen on, each with where it says so: the container side
    of a compose `ports:` entry, a service's `*PORT` variable, an EXPOSE of an audited Dockerfile."""
    found: dict[int, str] = {}
    for file in files:
        for service in file.services:
            for container, _ in _mappings(service.ports or ()):
                found.setdefault(container, f"service {service.name}")
            for name, value, _line in service.environment:
                if name.upper().endswith("PORT") and value.strip().strip("\"'").isdigit():
                    found.setdefault(int(value.strip().strip("\"'")), f"service {service.name}")
    for model in models:
        for setting in model.settings:
            if setting.keyword == "EXPOSE":
                for port in re.findall(r"\d{2,5}", setting.value):
                    found.setdefault(
                        int(port), f"EXPOSE ({Path(model.file).name or 'Dockerfile'}:{setting.line})"
                    )
    return found


def _script_defaults(
    command: str, directory: Path, project: Path | None
) -> Iterator[tuple[str, str, int, str, int]]:
    """(script, option, port, URL, line in the script) of each option of a script the command runs that
    defaults to a URL on the host and that the command does not pass."""
    match = _SCRIPT.search(command)
    if match is None:
        return
    top = real_path(project or directory)
    path = inside(real_path(directory) / match.group(1), top)
    if path is None or not os.path.isfile(path):
        return
    text = text_or_none(path)
    if text is None:
        return
    for option in _URL_OPTION.finditer(text):
        if re.search(rf"(?:^|\s){re.escape(option.group(1))}(?:[=\s]|$)", command):
            continue
        line = text.count("\n", 0, option.start()) + 1
        yield match.group(1), option.group(1), int(option.group(3)), option.group(2), line


def unpublished_requests(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Requests the README's command blocks send after a compose command starts the services, with no
    server started since, to a host port no service publishes while the project names it as a server's
    port (the container side of a mapping, a `*PORT` variable, an EXPOSE): `curl localhost:8180/health`
    behind `ports: ["8179:8179"]` reaches nothing (`certain`), told once a port; the same of the URL a
    script the README runs defaults to (`python bench.py` with `--url` defaulting to
    `http://localhost:8180`). A port Docker picks is `picked_ports`'."""
    seen = _published_read(doc, directory, models, project)
    if seen is None:
        return
    files, published = seen
    if not published:
        return
    servers = _server_ports(files, models)
    names = ", ".join(sorted(f.shown for f in files))
    listed = ", ".join(str(p) for p in sorted(published)[:8])
    told: dict[int, list[int]] = {}
    scripts: list[Diagnostic] = []
    up = False
    for number, command in block_commands(doc):
        if _UP.search(command):
            up = True
            continue
        if not up or ELSEWHERE.search(command):
            up = up and not _LOCAL_START.search(command)
            continue
        for match in _URL.finditer(command):
            port = int(match.group(1))
            if port not in published and port in servers:
                told.setdefault(port, []).append(number)
        for script, option, port, url, line in _script_defaults(command, directory, project):
            if port not in published and port in servers:
                scripts.append(
                    Diagnostic(
                        readme,
                        number,
                        f"README runs {script} without {option}, which defaults to {url} ({script}:{line}), "
                        f"but no service of {names} publishes host port {port} (they publish {listed})",
                        confidence=CERTAIN,
                    )
                )
        if _LOCAL_START.search(command):
            up = False
    found = [
        Diagnostic(
            readme,
            lines[0],
            f"README sends a request to host port {port}, but no service of {names} publishes it (they "
            f"publish {listed}; {servers[port]} names {port}){also_at(sorted(set(lines)))}",
            confidence=CERTAIN,
        )
        for port, lines in told.items()
    ]
    yield from sorted(found + scripts, key=lambda d: d.line)


def network_urls(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """A URL naming a compose service or its container (`http://kokoro-server:8180`) on a port the
    service does not listen on inside the network: inside it, a container is reached on its own port,
    not a published one. Told when the port is the host side of one of its mappings to another
    container port (`8080:80`, README `http://web:8080`), or when the service's `*PORT` variable sets
    the port it listens on to a port it publishes and the URL names another (`KOKORO_PORT: "8179"`
    behind `8179:8179`). `certain` in a code block, `likely` in prose; one finding a URL."""
    seen = _compose_read(doc, directory, models, project)
    if seen is None:
        return
    files, _ = seen
    by_name: dict[str, tuple[str, compose.Service]] = {}
    for file in files:
        for service in file.services:
            by_name.setdefault(service.name, (file.shown, service))
            if service.container_name:
                by_name.setdefault(service.container_name, (file.shown, service))
    if not by_name:
        return
    lines = [(n, t, LIKELY) for p in doc.paragraphs for n, t in p.lines]
    lines += [(n, t, CERTAIN) for f in doc.fences for n, t in f.lines]
    seen_urls: set[str] = set()
    for number, text, confidence in sorted(lines):
        for match in _NAMED_URL.finditer(text):
            held = by_name.get(match.group(1))
            if held is None or match.group(0) in seen_urls:
                continue
            shown, service = held
            port = int(match.group(2))
            entries = service.ports or ()
            mapped = list(_mappings(entries))
            if not mapped or len(mapped) != len(entries):
                continue  # a port docgen cannot read: the service may listen on it
            inside_ports = {c for c, _ in mapped}
            expose = dict(service.settings).get("expose", "")
            if port in inside_ports or re.search(rf"(?<!\d){port}(?!\d)", expose):
                continue
            said = [
                (name, value.strip().strip("\"'"), line)
                for name, value, line in service.environment
                if name.upper().endswith("PORT") and value.strip().strip("\"'").isdigit()
            ]
            hosts = {h: c for c, h in mapped if h != c}
            where = f"{shown}:{service.line}" if service.line else shown
            if port in hosts:
                why = (
                    f"service {service.name} ({where}) publishes container port {hosts[port]} on host "
                    f"port {port}: inside the network it is reached on {hosts[port]}"
                )
            else:
                setting = next((s for s in said if int(s[1]) in inside_ports), None)
                if setting is None:
                    continue
                name, value, line = setting
                why = (
                    f"service {service.name} listens on {value} ({shown}:{line} sets {name}) and publishes "
                    f"{', '.join(str(p) for p in sorted(inside_ports))}"
                )
            seen_urls.add(match.group(0))
            yield Diagnostic(
                readme,
                number,
                f"README reaches {match.group(0)} from another container, but {why}",
                confidence=confidence,
            )


_PATHED_URL = re.compile(
    r"\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{1,5})(/[\w.~%-]+(?:/[\w.~%-]+)*)"
)
"""A request on the reader's own machine with its port and path (`http://localhost:8080/api/v1/chat`)."""
_RUN_COMMAND = re.compile(container_command("run", DOCKER_PODMAN))
_VARIABLE_PUBLISH = re.compile(r"(?:^|[ \t])(?:-[a-zA-Z]*p|--publish)(?:[ \t]+|=)[\"']?[^\s\"']*[$<{]")
"""A host port a run publishes that is not written out (`-p $PORT:8080`, `-p <port>:8080`)."""


def run_requests(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A request a code block of the README (a shell command or a client's code: `base_url =
    "http://localhost:8000/api/v1"`) sends to a host port none of its `docker run -p` publishes, after a
    run that publishes ports, while another of its code blocks sends a request on the same path to a
    port a run publishes (`curl http://localhost:8080/api/v1/chat/completions` behind `-p 8080:8080`):
    the same server named on a port nothing reaches (`certain`: read from the commands and code). Not
    when the README uses compose, `-P`, the host's network, a host port it does not write out, a way to
    reach the host's own services (`ELSEWHERE`), nor when it names the port anywhere else (`--port 8000`:
    something else may listen there). One finding a port."""
    every_line = [(n, t) for p in doc.paragraphs for n, t in p.lines] + [
        (n, t) for f in doc.fences for n, t in f.lines
    ]
    for _, text in every_line:
        if _COMPOSE_COMMAND.search(text) or _ALL_PORTS.search(text) or ELSEWHERE.search(text):
            return
        if _RUN_COMMAND.search(text) is None and "-p" not in text and "--publish" not in text:
            continue
        if _VARIABLE_PUBLISH.search(text):
            return
    runs = [n for f in doc.fences for n, t in f.lines if _RUN_COMMAND.search(t)]
    if not runs:
        return
    published = _run_published(text for fence in doc.fences for _, text in fence.lines)
    if not published:
        return
    first = min(runs)
    requests = [
        (n, int(m.group(1)), m.group(2).rstrip("/."), m.group(0))
        for f in doc.fences
        for n, t in f.lines
        if n > first
        for m in _PATHED_URL.finditer(t)
    ]
    mentions: dict[int, int] = {}
    for _, text in every_line:
        text = re.sub(r"(?:^|[ \t])(?:-[a-zA-Z]*p|--publish)(?:[ \t]+|=)\S+", " ", text)  # a mapping's sides
        for word in re.findall(r"(?<![\w.])\d{4,5}(?![\w])", text):
            mentions[int(word)] = mentions.get(int(word), 0) + 1
    told: set[int] = set()
    for number, port, path, url in requests:
        if port in published or port in told or len(path) < 2:
            continue
        said = sum(1 for request in requests if request[1] == port)
        if mentions.get(port, 0) > said:
            continue  # the port is named elsewhere too: something may listen there
        sibling = next(
            (
                (n, p, q)
                for n, p, q, _ in requests
                if p in published and (q == path or q.startswith(path + "/") or path.startswith(q + "/"))
            ),
            None,
        )
        if sibling is None:
            continue
        told.add(port)
        listed = ", ".join(str(p) for p in sorted(published)[:8])
        yield Diagnostic(
            readme,
            number,
            f"README sends a request to {url}, but no docker run of it publishes host "
            f"port {port} (they publish {listed}), while README:{sibling[0]} reaches {sibling[2]} on "
            f"published port {sibling[1]}",
            confidence=CERTAIN,
        )
