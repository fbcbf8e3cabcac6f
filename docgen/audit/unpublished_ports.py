"""A localhost address the README tells to open while the `docker run` it gives publishes no port:
"Run the container with `docker run -it my-image`", then "open `http://localhost:8888`". A container's
ports are reachable from the host only when published (`-p 8888:8888`, `-P`) or on the host's network
(`--network host`); the address opens nothing (`likely`: read from prose and commands together).

Read only when the README publishes nothing anywhere: every `docker run` of it lacks `-p`, `-P` and a
network option, and it names no compose file, `ports:`, port forwarding or other way in.

When its runs publish ports, all of them on host ports they name, an address on another port is read
only when a web server the README starts in the container listens there by default (`jupyterhub` on
8000, `settings.SERVERS`) and nothing moves it (`_others`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.audit.settings import SERVERS
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_RUN = re.compile(container_command("run", DOCKER_PODMAN))
_PUBLISHES = re.compile(r"(?:^|[ \t])(?:-[a-zA-Z]*[pP]|--publish(?:-all)?|--net(?:work)?)(?=[ \t=\d\"'$]|$)")
"""An option of `docker run` that makes a port reachable from the host (`-p`, `-P`, also among other
short options: `-dp 8866:8866`)."""
_ELSEWHERE = re.compile(
    r"compose|^[ \t-]*ports:|--publish|--net(?:work)?\b|port-forward|ssh[ \t]+-[A-Za-z]*L|kubectl|helm|nginx"
    r"|reverse[ \t-]proxy|tunnel|ngrok|vs[ \t]?code|devcontainer|runpod|vast\.ai|singularity|apptainer",
    re.IGNORECASE | re.MULTILINE,
)
"""Words of a README that reaches the container another way than the `docker run` it gives."""
_LOCAL_URL = re.compile(r"\bhttps?://(?:localhost|127\.0\.0\.1)[ \t]*:[ \t]*(\d{2,5})\b")
"""An address on the host (`0.0.0.0` is left out: it is what a server inside prints it listens on)."""
_FETCH = re.compile(r"\b(?:curl|wget|http[ \t]+(?:get|post)|requests\.)", re.IGNORECASE)
"""A command fetching the address: it may run inside the container, where the port is reachable."""


def unpublished_ports(
    doc: Document, text: str, readme: str, directory: Path | None, models: Sequence[ImageModel] = ()
) -> Iterator[Diagnostic]:
    """The first localhost address of the prose after a `docker run` of the README, in the same section,
    when no run of the README publishes a port (see the module); an address in a command block, or one
    fetched (`curl`), may be read inside the container. When its runs publish ports, `_others`."""
    if _ELSEWHERE.search(text):
        return
    if directory is not None and any(os.path.isfile(directory / name) for name in compose.DEFAULT_FILES):
        return
    lines = text.splitlines()
    runs: list[int] = []  # README lines (1-based) where a `docker run` starts
    published: list[tuple[int, set[str]]] = []  # (line, host ports) of each run that publishes
    for number, line in enumerate(lines, 1):
        for match in _RUN.finditer(line):
            command = line[match.end() :]
            follow = number
            while command.rstrip().endswith("\\") and follow < len(lines):
                command = command.rstrip()[:-1] + " " + lines[follow]
                follow += 1
            command = command.split("`", 1)[0]
            if _PUBLISHES.search(command):
                hosts = _hosts(command)
                if hosts is None:
                    return
                published.append((number, hosts))
                continue
            runs.append(number)
    if published:
        yield from _others(doc, lines, readme, published, models)
        return
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


_MAPPING = re.compile(
    r"(?:^|[ \t])(?:-[a-zA-Z]*p|--publish)(?:[ \t]+|=)[\"']?(?:(?:\d{1,3}(?:\.\d{1,3}){3}|localhost):)?"
    r"(\d{1,5}):\d{1,5}(?:/(?:tcp|udp))?[\"']?(?=\s|$)"
)
"""A port a `docker run` publishes on a host port it names (`-p 8888:8888`, `-p 127.0.0.1:2222:22`)."""
_ALL = re.compile(r"(?:^|[ \t])(?:-[a-zA-Z]*P|--publish-all|--net(?:work)?)(?=[ \t=]|$)")
_OPTION = re.compile(r"(?:^|[ \t])(?:-[a-zA-Z]*p|--publish)(?=[ \t=]|$)")
_OPEN = re.compile(r"\b(?:open|access|visit|browser|navigate|go[ \t]+to|available)\b", re.IGNORECASE)
_CONFIG = re.compile(r"(?:^|[ \t])(?:-f|--config)(?:[ \t]+|=)[\"']?([^\s\"']+)")


def _hosts(command: str) -> set[str] | None:
    """The host ports a `docker run` publishes; None when one of them is not named (`-P`, `-p 8888`,
    `-p $PORT:8888`, a range) or the run joins another network."""
    if _ALL.search(command):
        return None
    found = {m.group(1) for m in _MAPPING.finditer(command)}
    if len(found) < len(_OPTION.findall(command)) or not found:
        return None
    return found


def _others(
    doc: Document,
    lines: list[str],
    readme: str,
    published: list[tuple[int, set[str]]],
    models: Sequence[ImageModel],
) -> Iterator[Diagnostic]:
    """The first address on the reader's machine (in the prose, or alone in a block after a line telling
    to open it) after the README's first `docker run`, on a port no run of it publishes, that a web server
    the README starts in the container listens on by default (`jupyterhub` on 8000): the command gives
    it no port, the audited images install it, and neither they nor a configuration file the command
    reads move it."""
    hosts = {port for _, ports in published for port in ports}
    first = min(number for number, _ in published)
    texts = [t for t in (text_or_none(Path(m.file)) if m.file else None for m in models) if t is not None]
    if not texts:
        return
    code = {number: fence for fence in doc.fences for number, _ in fence.lines}
    started: dict[str, tuple[int, str]] = {}  # default port → (line, the command starting the server)
    for fence in doc.fences:
        for number, line in fence.lines:
            if "docker run" in line:
                continue
            for server in SERVERS:
                found = server.start.search(line)
                if not server.http or found is None or server.moved.search(line):
                    continue
                if not any(server.start.search(t) or server.name.lower() in t.lower() for t in texts):
                    continue  # the image does not hold the server
                if any(server.moved.search(t) for t in texts) or _moved_by_config(line, server.moved, models):
                    continue
                started.setdefault(server.default, (number, found.group(0).strip()))
    if not started:
        return
    for number, line in enumerate(lines, 1):
        url = _LOCAL_URL.search(line)
        if url is None or number <= first or _FETCH.search(line):
            continue
        port = url.group(1)
        if port in hosts or port not in started:
            continue
        block = code.get(number)
        if block is not None:
            alone = all(_LOCAL_URL.fullmatch(t.strip()) for _, t in block.lines if t.strip())
            before = _before(lines, block.lines[0][0] - 2)
            if not alone or not _OPEN.search(before):
                continue
        start, said = started[port]
        shown = ", ".join(sorted(hosts, key=int))
        yield Diagnostic(
            readme,
            number,
            f"README opens localhost:{port}, where {said} (line {start}) listens by default, but the docker "
            f"run it gives (line {first}) publishes only host port{'s' if len(hosts) > 1 else ''} {shown}: "
            "the address reaches nothing",
            confidence=LIKELY,
        )
        return


def _moved_by_config(command: str, moved: re.Pattern[str], models: Sequence[ImageModel]) -> bool:
    """True when the configuration file a server command names (`-f /code/jupyterhub_config.py`) may
    move its port: a file of that name beside an audited Dockerfile (or one folder below) sets a port,
    or none is found."""
    match = _CONFIG.search(command)
    if match is None:
        return False
    name = os.path.basename(match.group(1))
    for model in models:
        if not model.file:
            continue
        folder = Path(model.file).parent
        for candidate in [folder / name, *(folder / sub / name for sub in _subfolders(folder))]:
            if os.path.isfile(candidate):
                text = text_or_none(candidate)
                lines = [t for t in (text or "").splitlines() if not t.lstrip().startswith("#")]
                return text is None or any(moved.search(t) for t in lines)
    return True


def _before(lines: list[str], at: int) -> str:
    """The last line with words above index `at` of `lines` (a block's opening line)."""
    for index in range(at - 1, max(at - 4, -1), -1):
        if lines[index].strip():
            return lines[index]
    return ""


def _subfolders(folder: Path) -> list[str]:
    try:
        return sorted(e.name for e in os.scandir(folder) if e.is_dir(follow_symlinks=False))[:100]
    except OSError:
        return []


_MAPPING_SAID = re.compile(
    r"端口映射|端口转发|映射端口|\bport[ \t-]?mappings?\b|\bmap(?:ping)?[ \t]+(?:the[ \t]+)?ports?\b"
    r"|\bpublish(?:ing)?[ \t]+(?:the[ \t]+)?ports?\b|\bport[ \t-]forwarding\b",
    re.IGNORECASE,
)
"""A port mapping said of the command below (`并进行端口映射`, `set up port mapping`, `publish the port`)."""
_NOT_MAPPED = re.compile(
    r"不|无需|无须|\bno\b|\bnot\b|n't\b|\bwithout\b|\bif\b|\boptional|可选|如有|\bor\b", re.I
)


def unmapped_runs(
    doc: Document, text: str, readme: str, directory: Path | None, models: Sequence[ImageModel] = ()
) -> Iterator[Diagnostic]:
    """The line introducing a command block (the prose line just above it; a code span's own line)
    that says the command sets up a port mapping (`启动镜像，注意需要挂载GPU、模型…并进行端口映射`,
    `run it with port mapping:`) while no `docker run` of the block publishes a port (`-p`, `-P`, a
    network option) and no audited Dockerfile has an EXPOSE: the mapping said is nowhere, and nothing
    the image declares listens (`likely`). Silent when the README reaches the container another way
    (`_ELSEWHERE`) or a compose file sits beside it, when the words are negated or a condition (`no
    port mapping`, `if`, `optional`), and when no Dockerfile is audited."""
    if not models or _ELSEWHERE.search(text):
        return
    if any(s.keyword == "EXPOSE" for m in models for s in m.settings):
        return
    if directory is not None and any(os.path.isfile(directory / name) for name in compose.DEFAULT_FILES):
        return
    prose = {number: line for para in doc.paragraphs for number, line in para.lines}
    for fence in doc.fences:
        if not fence.lines:
            continue
        runs = [t for _, t in fence.lines if _RUN.search(t)]
        if not runs:
            continue
        body = " ".join(t.rstrip().removesuffix("\\") for _, t in fence.lines)
        if _PUBLISHES.search(body):
            continue
        first = fence.lines[0][0]
        # a code span's command is introduced by its own line; a block's by the lines above its opening
        introducing = (first,) if fence.inline else (first - 2, first - 3)
        said = next(((n, prose[n]) for n in introducing if n in prose), None)
        if said is None:
            continue
        number, line = said
        mapping = _MAPPING_SAID.search(line)
        if mapping is None or _NOT_MAPPED.search(line, max(0, mapping.start() - 20), mapping.start()):
            continue
        files = ", ".join(os.path.basename(m.file) or "the Dockerfile" for m in models)
        yield Diagnostic(
            readme,
            number,
            f"README says the command {'' if fence.inline else 'below '}sets up a port mapping "
            f"({mapping.group(0)}), but the docker run "
            f"it gives (line {fence.lines[0][0]}) publishes no port (no -p, -P or --network) and {files} "
            "exposes none (no EXPOSE): no port of the container is mapped or declared",
            confidence=LIKELY,
        )
