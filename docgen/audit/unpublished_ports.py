"""A localhost address the README tells to open while the `docker run` it gives publishes no port:
"Run the container with `docker run -it my-image`", then "open `http://localhost:8888`". A container's
ports are reachable from the host only when published (`-p 8888:8888`, `-P`) or on the host's network
(`--network host`); the address opens nothing (`likely`: read from prose and commands together).

Read only when the README publishes nothing anywhere: every `docker run` of it lacks `-p`, `-P` and a
network option, and it names no compose file, `ports:`, port forwarding or other way in.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.markdown import Document
from docgen.model import Diagnostic

_RUN = re.compile(container_command("run", DOCKER_PODMAN))
_PUBLISHES = re.compile(r"(?:^|[ \t])(?:-[a-zA-Z]*[pP]|--publish(?:-all)?|--net(?:work)?)(?=[ \t=\d\"'$]|$)")
"""An option of `docker run` that makes a port reachable from the host (`-p`, `-P`, also among other
short options: `-dp 8866:8866`)."""
_ELSEWHERE = re.compile(
    r"compose|ports:|--publish|--net(?:work)?\b|port-forward|ssh[ \t]+-[A-Za-z]*L|kubectl|helm|nginx"
    r"|reverse[ \t-]proxy|tunnel|ngrok|vs[ \t]?code|devcontainer|runpod|vast\.ai|singularity|apptainer",
    re.IGNORECASE,
)
"""Words of a README that reaches the container another way than the `docker run` it gives."""
_LOCAL_URL = re.compile(r"\bhttps?://(?:localhost|127\.0\.0\.1)[ \t]*:[ \t]*(\d{2,5})\b")
"""An address on the host (`0.0.0.0` is left out: it is what a server inside prints it listens on)."""
_FETCH = re.compile(r"\b(?:curl|wget|http[ \t]+(?:get|post)|requests\.)", re.IGNORECASE)
"""A command fetching the address: it may run inside the container, where the port is reachable."""


def unpublished_ports(doc: Document, text: str, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """The first localhost address of the prose after a `docker run` of the README, in the same section,
    when no run of the README publishes a port (see the module); an address in a command block, or one
    fetched (`curl`), may be read inside the container."""
    if _ELSEWHERE.search(text):
        return
    if directory is not None and any(os.path.isfile(directory / name) for name in compose.DEFAULT_FILES):
        return
    lines = text.splitlines()
    runs: list[int] = []  # README lines (1-based) where a `docker run` starts
    for number, line in enumerate(lines, 1):
        for match in _RUN.finditer(line):
            command = line[match.end() :]
            follow = number
            while command.rstrip().endswith("\\") and follow < len(lines):
                command = command.rstrip()[:-1] + " " + lines[follow]
                follow += 1
            command = command.split("`", 1)[0]
            if _PUBLISHES.search(command):
                return
            runs.append(number)
    if not runs:
        return
    starts = sorted(line for line, _ in doc.headings)
    code = {number for fence in doc.fences for number, _ in fence.lines}
    for number, line in enumerate(lines, 1):
        url = _LOCAL_URL.search(line)
        if url is None or number in code or _FETCH.search(line):
            continue
        before = [run for run in runs if run <= number]
        if not before or _section(starts, before[-1]) != _section(starts, number):
            continue
        port = url.group(1)
        yield Diagnostic(
            readme,
            number,
            f"README opens localhost:{port} but the docker run it gives (line {before[-1]}) publishes no "
            f"port (no -p {port}:…, -P or --network host): the address reaches nothing",
            confidence=LIKELY,
        )
        return


def _section(starts: list[int], line: int) -> int:
    """The line of the heading `line` is under (0: before the first heading)."""
    return max((start for start in starts if start <= line), default=0)
