"""A page the README tells the reader to open on the container's side of the port mapping its `docker run`
gives: `-p 8082:8080` publishes the container's 8080 on the host's 8082, and "access the desktop at
`http://<host-ip>:8080`" then names a port nothing publishes on the host. The mapping shows the author
moved the host side (or copied the container side): the browser finds nothing there (`likely`: read
from prose and a command together).

Read only when the line says to open the page (`open`, `visit`, `browser`, `access`, `available at` …),
its address is the reader's own machine (`localhost`, `127.0.0.1`, `0.0.0.0`) or a placeholder for it
(`<host-ip>`, `{server_ip}`, `YOUR_HOST_IP`), the last command the README shows before it is a `docker
run` (or `podman run`) that publishes that container port on another host port, and no run of the
README publishes that host port. Silent whenever the reader may have the port another way: `-P`,
`--network host`, a host port in a variable, a compose file or command, a tunnel, a proxy or port
forwarding named anywhere in the README; a line with a word about the host's own services (`host`
outside the address, `Ollama`, `ssh`); an address in a command block (`curl` may run inside).
Each line is read once; every regular expression runs on one line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY
from docgen.audit.compose_urls import ELSEWHERE, OPEN, block_commands
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.markdown import Document
from docgen.model import Diagnostic

_RUN = re.compile(container_command("run", DOCKER_PODMAN))
_MAPPING = re.compile(
    r"(?:^|[ \t])(?:-[a-zA-Z]*p|--publish)(?:[ \t]+|=)[\"']?(?:(?:[\d.]+|\[[0-9a-fA-F:]+\]):)?"
    r"(\d{1,5})(?:-(\d{1,5}))?:(\d{1,5})(?:-\d{1,5})?(?:/[a-z]+)?[\"']?(?=[ \t\\]|$)"
)
"""A port mapping of a run (`-p 8082:8080`, `-p 127.0.0.1:8082:8080`, `-p 3478:3478/udp`, `-dp 80:80`):
host port (or the first of a range, and its last), container port."""
_UNKNOWN = re.compile(
    r"(?:^|[ \t])(?:-P|--publish-all)\b|--net(?:work)?(?:[ \t]+|=)[\"']?host\b"
    r"|(?:^|[ \t])(?:-[a-zA-Z]*p|--publish)(?:[ \t]+|=)[\"']?[^\s\"']*\$"
)
"""`-P`, `--network host`, a mapping through a variable: host ports docgen cannot tell."""
_ELSEWHERE_TEXT = re.compile(
    r"compose|ports:|port[ \t-]forward|ssh[ \t]+-[A-Za-z]*L|kubectl|helm|nginx|traefik|caddy"
    r"|reverse[ \t-]proxy|tunnel|ngrok",
    re.IGNORECASE,
)
"""Words of a README that may reach the container another way than the run's mapping."""
_URL = re.compile(
    r"\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|<[\w .-]{1,30}>|\{[\w .-]{1,30}\}|\[[\w .-]{1,30}\]"
    r"|[A-Za-z_-]{0,20}(?:ip|IP|host|HOST|server|SERVER)[A-Za-z_-]{0,20}):(\d{1,5})(?!\d)"
)
"""A page on the reader's machine with its port, the address possibly a placeholder (`<host-ip>`)."""


def run_urls(doc: Document, text: str, readme: str) -> Iterator[Diagnostic]:
    """Each prose line telling to open a page on the container's side of the mapping the `docker run`
    just before it gives, when no run of the README publishes that host port (see the module)."""
    if _ELSEWHERE_TEXT.search(text):
        return
    commands = block_commands(doc)
    runs = [(n, c) for n, c in commands if _RUN.search(c)]
    if not runs or any(_UNKNOWN.search(c) for _, c in runs):
        return
    published: set[int] = set()
    for _, command in runs:
        for match in _MAPPING.finditer(command):
            low = int(match.group(1))
            published.update(range(low, min(int(match.group(2) or low), low + 1000) + 1))
    starts = [n for n, _ in commands]
    for para in doc.paragraphs:
        for number, line in para.lines:
            urls = list(_URL.finditer(line))
            if not urls or not OPEN.search(line) or ELSEWHERE.search(_URL.sub(" ", line)):
                continue
            last = bisect.bisect_left(starts, number) - 1  # the last command before the line
            if last < 0 or not _RUN.search(commands[last][1]):
                continue
            run_line, command = commands[last]
            found = _RUN.search(command)
            verb = " ".join(found.group(0).split()) if found else "docker run"
            moved = {
                int(m.group(3)): int(m.group(1)) for m in _MAPPING.finditer(command) if m.group(2) is None
            }
            for match in urls:
                port = int(match.group(1))
                host = moved.get(port)
                if host is None or host == port or port in published:
                    continue
                yield Diagnostic(
                    readme,
                    number,
                    f"README says to open {match.group(0)}, but the {verb} on line {run_line} publishes "
                    f"container port {port} on host port {host}, and no run of the README publishes host "
                    f"port {port}",
                    confidence=LIKELY,
                )
