"""A server a README starts inside a container bound to the container's loopback address while its
`docker run` publishes the server's port: `docker run -p 8888:8888 …`, then, inside the container,
`jupyter lab --ip localhost --port 8888`. A published port forwards to the container's own network
address; a server listening on `127.0.0.1` there answers only from inside the container, so the host
port reaches nothing (the server must listen on `0.0.0.0`).

The server is the command a `docker run` gives its image (`docker run -p 8000:8000 img uvicorn app:app
--host 127.0.0.1 --port 8000`, `certain`), or a command of a later block the README says runs in the
container: a `docker exec` of one, a prompt of a container (`root@3f2a…:/#`), or the prose just before
the block or a comment line of it saying so ("Inside the container: run", `likely`). Its port is the
one it is given (`--port 8000`, `--bind 127.0.0.1:8000`, `server_port=7860`; Jupyter's 8888 when
none), compared with the container ports of the latest `docker run` before it. Loopback is `localhost`,
`127.0.0.1` or `::1` given as `--ip`, `--host`, `--listen`, `--bind`, `--address`,
`--server.address` or `server_name=`.

Not told: a run on the host's network (`--network host`: nothing is published, the container shares
the host's addresses), a server on `0.0.0.0` or another address, a command run on the host (no word
of a container before it), a port the run does not publish.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import fence_commands, joined
from docgen.audit.names import docker_run, image_at
from docgen.audit.ports import PUBLISH, loopback_server
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.markdown import Document
from docgen.model import Diagnostic

_HOST_NETWORK = re.compile(r"--net(?:work)?(?:[ \t]+|=)[\"']?host\b")
_INSIDE = re.compile(
    r"\b(?:in(?:side)?|within|into)[ \t]+(?:the|a|your|this|that)[ \t]+(?:running[ \t]+|docker[ \t]+)?"
    r"(?:container|docker)\b|\bcontainer'?s[ \t]+(?:shell|terminal|bash)\b",
    re.IGNORECASE,
)
"""Words saying the next commands run in the container ("Inside the container: run")."""
_OUTSIDE = re.compile(r"\b(?:on|from)[ \t]+(?:the|your)[ \t]+(?:host|local[ \t]+machine)\b", re.I)
_CONTAINER_PROMPT = re.compile(r"\A[ \t]*(?:root|\w+)@[0-9a-f]{6,}:[^\s]*[#$][ \t]")
_RUN = re.compile(container_command("run", DOCKER_PODMAN))
_EXEC = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+)?exec\b")


@dataclass(frozen=True)
class _Run:
    line: int
    ports: dict[str, str]
    """Container port → how the run publishes it (`-p 8888:8888`)."""
    host_network: bool


def _said_inside(doc: Document) -> dict[int, bool]:
    """README line → whether the prose line there says the next commands run in the container (True)
    or on the host (False); lines saying neither are left out."""
    found: dict[int, bool] = {}
    for para in doc.paragraphs:
        for line, text in para.lines:
            if _OUTSIDE.search(text):
                found[line] = False
            elif _INSIDE.search(text):
                found[line] = True
    return found


def loopback_binds(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """Each server a README starts in a container on loopback on a port its `docker run` publishes
    (see the module)."""
    said = _said_inside(doc)
    fences = sorted((f for f in doc.fences if f.lines), key=lambda f: f.lines[0][0])
    last: _Run | None = None
    previous_end = 0
    for fence in fences:
        first = fence.lines[0][0]
        # the prose between the block before and this one: its last line saying where wins
        inside = next(
            (said[n] for n in range(first - 1, max(previous_end, first - 6), -1) if n in said), None
        )
        previous_end = fence.lines[-1][0]
        for lines in fence_commands(fence):
            command = joined(lines)
            stripped = command.lstrip()
            if stripped.startswith("#"):
                if _OUTSIDE.search(command):
                    inside = False
                elif _INSIDE.search(command):
                    inside = True
                continue
            run = docker_run(command)
            bare = _RUN.search(command) if run is None else None
            if run is not None or bare is not None:
                # a run whose image cannot be told (its line ends before it) still publishes its ports
                start, image = run if run is not None else (bare.end() if bare is not None else 0, "")
                at = image_at(command, start, image) if image else -1
                options = command[start:at] if at >= 0 else command[start:]
                ports = {m.group(2): m.group(0).strip() for m in PUBLISH.finditer(options)}
                last = _Run(lines[0][0], ports, bool(_HOST_NETWORK.search(options)))
                if at >= 0:
                    yield from _told(readme, lines, command[at + len(image) :], last, CERTAIN)
                continue
            if last is None or last.host_network:
                continue
            if _EXEC.search(command) or _CONTAINER_PROMPT.match(command):
                yield from _told(readme, lines, command, last, CERTAIN)
            elif inside:
                yield from _told(readme, lines, command, last, LIKELY)


def _told(readme: str, lines: list[tuple[int, str]], text: str, run: _Run, sure: str) -> Iterator[Diagnostic]:
    server = loopback_server(text)
    if server is None or run.host_network:
        return
    option, port = server
    published = run.ports.get(port)
    if published is None:
        return
    word = option.split("=")[0].split()[0] if "=" not in option or option.startswith("-") else option
    line = next((n for n, t in lines if word in t), lines[0][0])
    yield Diagnostic(
        readme,
        line,
        f"README starts a server in the container on its loopback address ({option}, port {port}), but "
        f"the docker run of line {run.line} publishes that port ({published}): a published port reaches "
        "the container's network address, not 127.0.0.1, so nothing answers on the host (listen on "
        "0.0.0.0)",
        confidence=sure,
    )
