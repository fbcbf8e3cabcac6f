"""The container port a README's `docker run -p HOST:CONTAINER` publishes for the image the README
builds, against the ports the image serves on: its EXPOSE, and the port numbers its ENV values,
ENTRYPOINT and CMD give, and the scripts from the build context those start (`settings.Image`). The
image is the Dockerfile the build command that tags it names with `-f`, whatever section the run is in;
a build script the README runs (`bash docker/build.sh`) tags images as its own build commands do.

A mapping's host side is the user's choice; its container side is a claim about the image: the
application inside listens there. When the image exposes other ports and names the published one
nowhere, the README still publishes the port the image used to serve on (`likely`: a configuration
file the Dockerfile does not show may set it). When the one program the image's ENTRYPOINT or CMD
starts is given a fixed port on its command line (`--port 8020`) and the run keeps that command, the
server listens there whatever EXPOSE says: a published port that is not it, and that the image names
nowhere else, reaches nothing (`certain` for a server launcher such as uvicorn, `likely` for another
program).

A well-known server the image starts with no port of its own (`settings.SERVERS`: sshd through
`service ssh start`, `jupyter lab` …) listens on its default port (22, 8888 …). When the README reaches
it on the host side of a mapping whose container side is another port (`ssh -p 2222` behind `-p
2222:2222`), and nothing of the image names that port or moves the server's (`Port 2222` in
`sshd_config`, `--port`), the published port reaches nothing (`likely`: `_stock_server`).

A port table (`| Connect Port | Internal Port | Description |`, RunPod templates) ties a container port
to a service by name. When the image copies in a start script named after that service
(`start_aphrodite_engine.sh` for `Aphrodite Engine`) whose command gives another port (`--port 5001`),
and the nginx configuration it copies in (the whole `/etc/nginx/nginx.conf`) neither listens on the
row's port nor fronts the service on it, the row names a port nothing of the image serves the service
on (`likely`: the service is tied by name).
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.audit_facts import AuditFacts
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import FILE_FLAG, TAG_FLAG, fence_commands, image_repository, joined
from docgen.audit.names import docker_run, image_at
from docgen.audit.paths import path_named
from docgen.audit.settings import (
    CONFIG_LISTENERS,
    LAUNCHER,
    SERVERS,
    Image,
    command_text,
    started_program,
)
from docgen.build_scripts import BUILD
from docgen.copied import FILE_LIMIT, copied_files
from docgen.files import text_or_none
from docgen.markdown import Document, Table, plain
from docgen.model import Diagnostic, ImageModel, Setting

PUBLISH = re.compile(
    r"(?:^|[ \t])(?:-[dit]{0,3}p|--publish)(?:[ \t]+|=)[\"']?"
    r"(?:(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|localhost):)?(?:(\d{1,5}):)?(\d{1,5})(?:/(?:tcp|udp))?"
    r"(?=[\"']?(?:\s|$))"
)
"""A published port (`-p 8080:8000`, `--publish=127.0.0.1:8080:8000/tcp`, `-p 8000`, `-dp 8080:8000`
after `-d`, `-i`, `-t` in one word): group 2 is the container's side. A range (`8000-8010:8000-8010`)
or a variable (`$PORT:8000`) is no match."""
_HOST_NETWORK = re.compile(r"--net(?:work)?(?:[ \t]+|=)[\"']?host\b")
"""`--network host`: Docker ignores `-p` with it."""
_ON_HOST = " with --network host (docker ignores -p there: the server listens on the host's port itself)"
_ENTRYPOINT_OPTION = re.compile(r"(?:^|[ \t])--entrypoint\b")
_SEVERAL = re.compile(r"&|;|\|")
"""What starts more than one program in a command (`redis-server & exec uvicorn …`, `a; b`, `a | b`)."""
_BIND = re.compile(
    r"(?:^|[ \t])(?:--bind(?:-addr(?:ess)?)?|--listen-addr(?:ess)?|-b)(?:[ \t]*=[ \t]*|[ \t]+)[\"']?"
    r"[\w.\[\]-]*:(\d{2,5})\b"
)
"""A port given as an address (`--bind 0.0.0.0:8000`, gunicorn's; `--bind-addr 0.0.0.0:8080`,
code-server's)."""
_NUMBER = re.compile(r"(?<![\w.])\d{2,5}(?![\w.])")


def published_ports(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each `docker run` of `part`'s command blocks that runs an image a `docker build -t` of the README
    tags (`AuditFacts.built`) and publishes a container port (`-p 8080:8000`) that every image compared
    exposes none of, while it exposes others, and names nowhere in its ENV values, ENTRYPOINT or CMD; the
    run command itself must not name the port elsewhere (`--port 8000`, `-e PORT=8000`). With `--network
    host` docker ignores `-p` and the server listens on the host's port itself: only a fixed port of the
    server's other than one published as the same port on both sides is told then. A port besides
    the one the server listens on, when the run publishes that one too (`-p 8888:8888 -p 6006:6006` for
    a notebook and the TensorBoard a user starts in it), is for another program: no claim."""
    built = {**_script_built(auditor.shared), **auditor.shared.built}
    if not built:
        return
    paths = [model.path for model in auditor.family]
    for fence in part.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            run = docker_run(command)
            if run is None or image_repository(run[1]) not in built:
                continue
            host_network = _HOST_NETWORK.search(command) is not None  # docker ignores `-p` then
            on_host = _ON_HOST if host_network else ""
            start, image = run
            # the image a build command of the README tags: the Dockerfile its `-f` names, whatever
            # the section of the run is about (`-f Dockerfile/app.Dockerfile -t run-ai/vllm:…`)
            files = built[image_repository(image)]
            named = {path_named(file, paths) if file is not None else None for file in files}
            beside = _beside(auditor)
            if None in named:
                images = [Image(model) for model in auditor.models]
            else:
                images = [Image(auditor.family[index]) for index in sorted(i for i in named if i is not None)]
            options = image_at(command, start, image)  # what follows the image is its command's
            published = {m.group(2) for m in PUBLISH.finditer(command, start, options)}
            for match in PUBLISH.finditer(command, start, options):
                port = match.group(2)
                rest = command[: match.start()] + " " + command[match.end() :]
                if port in _NUMBER.findall(rest):
                    continue  # the command sets the port itself (`--port 8000`, `-e PORT=8000`)
                line = next((n for n, text in lines if match.group(0).strip() in text), lines[0][0])
                verdicts = [] if host_network else [image_.port(port, listens=True) for image_ in images]
                if verdicts and all(v is not None for v in verdicts):
                    where = verdicts[0][0] if verdicts[0] else ""
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README publishes container port {port} of {image}, but {where} "
                        f"and names {port} nowhere in its ENV, ENTRYPOINT or CMD",
                        confidence=LIKELY,
                    )
                    continue
                if _ENTRYPOINT_OPTION.search(command, start, options):
                    continue  # the run starts another program
                after = command[options + len(image) :].strip()
                fixed = [_fixed_elsewhere(image_, port, bool(after)) for image_ in images]
                if fixed and all(f is not None for f in fixed):
                    where, served, sure, tail = fixed[0] or ("", "", LIKELY, "")
                    if served in published or (host_network and match.group(1) not in (None, port)):
                        continue  # the server's port is published too: this one is for another program
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README publishes container port {port} of {image}{on_host}, but {where} starts "
                        f"the server on fixed port {served}{tail}",
                        confidence=CERTAIN if all(f is not None and f[2] == CERTAIN for f in fixed) else sure,
                    )
                    continue
                if host_network:
                    continue  # the server takes the host's ports itself, its loopback address too
                # a build with no -f reads the Dockerfile of its context: the README's own, when it has one
                read = beside if None in named and len(named) == 1 and beside else images
                configured = [_configured(image_, port, published, bool(after), auditor) for image_ in read]
                if configured and all(c is not None for c in configured):
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README publishes container port {port} of {image}, but {configured[0]}, and the "
                        f"image names {port} nowhere: nothing listens there",
                        confidence=LIKELY,
                    )
                    continue
                stock = [
                    _stock_server(image_, port, match.group(1), bool(after), auditor) for image_ in images
                ]
                if stock and all(s is not None for s in stock):
                    where, server, default, tie = stock[0] or ("", "", "", "")
                    if default in published:
                        continue  # (the server's default port is published too)
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README publishes container port {port} of {image}{tie}, but {where} starts "
                        f"{server} with no port of its own: it listens on its default {default}, and the "
                        f"image names {port} nowhere, so the published port reaches nothing",
                        confidence=LIKELY,
                    )
                    continue
                bound = [image_loopback(image_, port, bool(after)) for image_ in images]
                if bound and all(b is not None for b in bound):
                    where, option = bound[0] or ("", "")
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README publishes container port {port} of {image}, but {where} starts the "
                        f"server on the container's loopback address ({option}): a published port reaches "
                        "the container's network address, not 127.0.0.1, so nothing answers on the host",
                        confidence=CERTAIN,
                    )


def _beside(auditor: Auditor) -> list[Image]:
    """The image of the `Dockerfile` in the README's folder, which a `docker build .` with no `-f` run
    there reads (none when the README's folder is not known or holds none audited)."""
    directory = auditor.shared.directory
    if directory is None:
        return []
    here = os.path.realpath(directory)
    return [
        Image(m)
        for m in auditor.models
        if m.file
        and os.path.basename(m.file) == "Dockerfile"
        and os.path.realpath(os.path.dirname(m.file)) == here
    ]


_RUNS_SCRIPT = re.compile(
    r"\A[ \t]*(?:\$[ \t]+)?(?:(?:bash|sh)[ \t]+|\./)([\w-]+(?:/[\w.-]+)*\.sh)(?=[ \t]*\Z)"
)
"""A command block line that runs a build script of the project from the README's folder with no
arguments (`bash docker/build.sh`, `./build.sh`)."""


def _script_built(shared: AuditFacts) -> dict[str, set[str | None]]:
    """The repositories the build scripts a command block runs (`_RUNS_SCRIPT`) tag with a literal
    `docker build -t NAME` → the Dockerfiles those builds name with `-f` (None: none named), as
    `AuditFacts.built` reads the README's own builds. The script runs from the README's folder, so its
    `-f` is read from there. A script not in that folder or below, or a tag or file through a variable,
    is not read."""
    directory = shared.directory
    if directory is None:
        return {}
    found: dict[str, set[str | None]] = {}
    for fence in shared.doc.fences:
        for _, text in fence.lines:
            match = _RUNS_SCRIPT.match(text)
            if match is None or ".." in match.group(1).split("/"):
                continue
            script = directory / match.group(1)
            body = text_or_none(script) if os.path.isfile(script) and not os.path.islink(script) else None
            for line in (body or "").splitlines():
                if not BUILD.search(line) or "$" in line:
                    continue
                flag = FILE_FLAG.search(line)
                for tag in TAG_FLAG.findall(line):
                    found.setdefault(image_repository(tag), set()).add(flag.group(1) if flag else None)
    return found


def image_loopback(image: Image, port: str, replaced: bool) -> tuple[str, str] | None:
    """(where, the option as written) when the one program the image's ENTRYPOINT and CMD start (or a
    start script of the build context they run, line by line) listens on the loopback address on
    `port` (`--host 127.0.0.1 --port 8000`); None otherwise. `replaced`: the run gives its own command."""
    entry, cmd = image.last("ENTRYPOINT"), image.last("CMD")
    settings = [s for s in (entry, None if replaced else cmd) if s is not None]
    texts = [command_text(s) for s in settings]
    if not settings or any(_SEVERAL.search(text) for text in texts):
        return None
    server = loopback_server(" ".join(texts))
    if server is not None and len(texts) == 2 and ".sh" in texts[0] and loopback_server(texts[0]) is None:
        return None  # a command handed to an entrypoint script, which may start it its own way
    if server is not None:
        return (
            (f"{image.model.path}:{settings[-1].line} ({settings[-1].keyword})", server[0])
            if server[1] == port
            else None
        )
    for name in dict.fromkeys(_SCRIPT.findall(" ".join(texts))):
        script = image._context_script(name)
        if script is None:
            continue
        lines = script.replace("\\\n", " ").splitlines()
        for text in lines:
            if text.lstrip().startswith("#"):
                continue
            server = loopback_server(text)
            if server is not None and server[1] == port:
                return (
                    f"{name} ({image.model.path}:{settings[-1].line} {settings[-1].keyword} runs it)",
                    server[0],
                )
    return None


_SCRIPT = re.compile(r"(?<![\w.-])(?:[\w.-]*/)?([\w.-]+\.sh)\b")
"""A start script a command runs (`/app/start.sh`)."""


@dataclass(frozen=True)
class Served:
    """The port the one program an image starts listens on, as the image sets it (`served_port`)."""

    port: str
    where: str
    """The ENTRYPOINT or CMD starting the program: `Dockerfile:9 (CMD)`."""
    setting: Setting
    """That ENTRYPOINT or CMD."""
    sure: bool
    """Given on the command line of a server launcher (`uvicorn … --port 8020`): it listens there."""
    env: str = ""
    """The ENV that gives it when the command line does not: `Dockerfile:4 ENV LLAMA_ARG_PORT=11434`."""

    @property
    def source(self) -> str:
        """What sets the port: the ENV giving it, else the ENTRYPOINT or CMD."""
        return self.env or self.where


PORT_VARIABLES = (
    ("LLAMA_ARG_PORT", re.compile(r"llama-server")),
    ("OLLAMA_HOST", re.compile(r"ollama")),
    ("UVICORN_PORT", re.compile(r"uvicorn")),
    ("STREAMLIT_SERVER_PORT", re.compile(r"streamlit")),
    ("GRADIO_SERVER_PORT", re.compile(r"gradio|python")),
    ("JUPYTER_PORT", re.compile(r"jupyter(?:-lab|-notebook)?")),
    ("FLASK_RUN_PORT", re.compile(r"flask")),
    ("PORT", re.compile(r"gunicorn|text-generation-launcher|text-embeddings-router|code-server")),
)
"""Environment variables a server reads for the port it listens on when its command line gives none, and
the programs (as `settings.started_program` names them) that read each: llama.cpp's server reads
`LLAMA_ARG_PORT`, Ollama `OLLAMA_HOST` (`0.0.0.0:11434`), gunicorn and Hugging Face's launchers `PORT`.
Another program's `*_PORT` (`REDIS_PORT`, `MASTER_PORT`) says nothing of where the image's server
listens."""
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)(?::?-([^}\s]*))?\}?")
"""A variable a command reads (`$APP_PORT`, `${APP_PORT:-8000}`), with its default."""


def served_port(image: Image, replaced: bool = False) -> Served | None:
    """The port the one program the image's ENTRYPOINT and CMD start listens on, as the image sets it: a
    port its command line gives (`--port 8020`, `--bind 0.0.0.0:8020`, `--port $APP_PORT` with `ENV
    APP_PORT=8020`), else an ENV variable that program reads for its port (`PORT_VARIABLES`:
    `LLAMA_ARG_PORT=11434` for llama-server). None when nothing of the image sets one, it starts several
    programs or gives several ports, or an ENTRYPOINT script gets the command (it may start it its own
    way). `replaced`: a run gives its own command, which replaces the CMD (an ENTRYPOINT still runs)."""
    entry, cmd = image.last("ENTRYPOINT"), image.last("CMD")
    if replaced:
        cmd = None
    settings = [s for s in (entry, cmd) if s is not None]
    texts = [command_text(s) for s in settings]
    if not settings or any(_SEVERAL.search(text) for text in texts):
        return None  # nothing of its own, or several programs: one may serve on the port
    env = {e.name: e for e in image.model.env if e.stage == image.top and e.value is not None}

    def value(match: re.Match[str]) -> str:
        given = env.get(match.group(1))
        if given is not None:
            return given.value or ""
        return match.group(2) or match.group(0)

    expanded = [_VARIABLE.sub(value, text) for text in texts]
    givers = [
        (setting, found)
        for setting, text in zip(settings, expanded, strict=True)
        for found in _PORT_OPTION.findall(text) + _BIND.findall(text)
    ]
    path = image.model.path
    if givers:
        if len({found for _, found in givers}) != 1:
            return None
        setting, port = givers[0]
        if entry is not None and cmd is not None and setting is cmd and ".sh" in command_text(entry):
            return None  # an entrypoint script may start the command, or something else, its own way
        text = command_text(setting)
        launcher = LAUNCHER.search(text)
        written = _PORT_OPTION.search(text) or _BIND.search(text)
        sure = launcher is not None and written is not None and launcher.start() < written.start()
        return Served(port, f"{path}:{setting.line} ({setting.keyword})", setting, sure)
    program = started_program(" ".join(texts))
    for name, reads in PORT_VARIABLES:
        given = env.get(name)
        if given is None or not reads.fullmatch(program):
            continue
        number = re.fullmatch(r"(?:[\w.\[\]:-]*:)?(\d{2,5})", (given.value or "").strip())
        if number is None:
            return None
        setting = settings[0]
        where = f"{path}:{setting.line} ({setting.keyword})"
        line = _assigned_at(image.model, given.line, name)
        return Served(number.group(1), where, setting, False, f"{path}:{line} ENV {name}={given.value}")
    return None


def _assigned_at(model: ImageModel, line: int, name: str) -> int:
    """The line of the ENV instruction starting at `line` that assigns `name` (`LLAMA_ARG_PORT=11434` on
    the fifth line of a continued ENV); `line` when it is not found."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return line
    assigns = re.compile(rf"(?<![\w-]){re.escape(name)}=")
    lines = read[0].splitlines()
    for number in range(line, min(len(lines), line + 200) + 1):
        text = lines[number - 1]
        if assigns.search(text):
            return number
        if not text.rstrip().endswith("\\"):
            break  # the instruction ends here
    return line


def _fixed_elsewhere(image: Image, port: str, replaced: bool) -> tuple[str, str, str, str] | None:
    """(where, the fixed port, confidence, the end of the message) when the one program the image starts
    is given a fixed port (`served_port`: `--port 8020` on its command line, `ENV LLAMA_ARG_PORT=8020`)
    other than `port`, and the image names `port` nowhere but in EXPOSE; None when it may serve on
    `port`. `replaced`: the run gives a command after the image, which replaces the CMD (an ENTRYPOINT
    still runs, the command as its arguments)."""
    served = served_port(image, replaced)
    if served is None or served.port == port:
        return None
    exposed = {p for s in image.settings if s.keyword == "EXPOSE" for p in re.findall(r"\d{2,5}", s.value)}
    if served.port in exposed and port in exposed:
        return None  # the image says it serves on both
    mentioned = image._mentioned() | image._script_ports
    if port in mentioned:
        return None  # an ENV value or a script the image starts names it
    tail = f" ({served.env})" if served.env else ""
    if port in exposed:
        tail += f", which EXPOSE {port} does not change"
    else:
        tail += f", and the image names {port} nowhere"
    return served.where, served.port, CERTAIN if served.sure else LIKELY, tail


_PORT_OPTION = re.compile(
    r"(?<!-)--(?:[^\W_]+[-_])*port(?:[ \t]*=[ \t]*|[ \t]+)[\"']?(\d{2,5})\b", re.IGNORECASE
)
"""A port a command line gives its program (`--port 5001`, `--server_port=7860`, `--listen-port 3001`);
an environment variable (`PORT=3006`) may be another program's, and is not read. The option's words
are read one by one, each then one `-` or `_`: a `[\\w-]*` before `[-_]port` went back over a line of
dashes from each of them (20,000 dashes: 5 s)."""
_LOOPBACK = r"[\"']?(?:localhost|127\.0\.0\.1|\[?::1\]?)[\"']?"
_BOUND = re.compile(
    rf"(?<![\w-])(?:--(?:ip|host|listen|address|server[.-]address|bind|http-host)|-b)"
    rf"(?:[ \t]*=[ \t]*|[ \t]+){_LOOPBACK}(?::(\d{{2,5}}))?(?![\w.:-])"
    rf"|[(,][ \t]*(?:server_name|host)[ \t]*=[ \t]*{_LOOPBACK}",
    re.IGNORECASE,
)
"""A server told to listen on loopback (`--ip localhost`, `--bind 127.0.0.1:8000`, `server_name=
"127.0.0.1"` in a call); group 1 is a port given with the address."""
_LOOPBACK_PORT = re.compile(
    r"(?<![\w-])--(?:(?:server|http|listen|web|app)[-_.])?port(?:[ \t]*=[ \t]*|[ \t]+)[\"']?(\d{2,5})\b"
    r"|\bserver_port[ \t]*=[ \t]*(\d{2,5})\b",
    re.IGNORECASE,
)
_SERVES = re.compile(
    r"(?<![\w-])(?:serve[rs]?|launch\w*|(?:web)?ui|app|api|tensorboard|mlflow|gradio|jupyter\w*|notebook|"
    r"http\.server)(?![\w-])",
    re.IGNORECASE,
)
_CLIENT = re.compile(r"client|bench|curl|wget|request|test|ping|-cli\b", re.IGNORECASE)
"""A command that connects to a server (`python client.py --host localhost`): its `--host` is not where
it listens."""
_JUPYTER = re.compile(r"\bjupyter(?:[ \t-]?lab|[ \t-]notebook)?\b|-m[ \t]+(?:jupyterlab|notebook)\b", re.I)


def loopback_server(text: str) -> tuple[str, str] | None:
    """(the loopback option as written, the port) of a command starting a server on the loopback address
    (`--ip localhost --port 8888`, `--bind 127.0.0.1:8000`; Jupyter's 8888 when no port is given);
    None for another command, or one giving several ports."""
    bound = _BOUND.search(text)
    if bound is None or _CLIENT.search(text):
        return None
    if re.match(r"--(?:host|address)\b|[(,]", bound.group(0)) and not (
        LAUNCHER.search(text) or _SERVES.search(text)
    ):
        return None  # `--host` of a program that may be a client
    port = bound.group(1)
    if port is None:
        given = {a or b for a, b in _LOOPBACK_PORT.findall(text)}
        if len(given) > 1:
            return None
        port = next(iter(given), None)
    if port is None and _JUPYTER.search(text):
        port = "8888"
    return (bound.group(0).strip(), port) if port is not None else None


_START_SCRIPT = re.compile(r"\A(?:start|run|launch)[-_](.+)\.sh\Z", re.IGNORECASE)
"""A script named after the service it starts (`start_aphrodite_engine.sh`)."""
_LISTEN = re.compile(r"^[ \t]*listen[ \t]+(?:[\w.\[\]:*]*:)?(\d{2,5})\b", re.MULTILINE)
_PROXY_PASS = re.compile(
    r"^[ \t]*proxy_pass[ \t]+https?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0)?:(\d{2,5})\b", re.MULTILINE
)
_SERVER = re.compile(r"^[ \t]*server[ \t]*\{", re.MULTILINE)
_INCLUDE = re.compile(r"^[ \t]*include[ \t]+(?![^;]*mime\.types)", re.MULTILINE)
"""An nginx `include` of more servers (`include /etc/nginx/conf.d/*.conf;`): the file is not all then."""
_NGINX_DIR = "/etc/nginx/"
_NGINX_CONF = "/etc/nginx/nginx.conf"


@dataclass(frozen=True)
class _Copied:
    """A file of the build context an image copies in."""

    path: Path
    shown: str
    """The path shown in a finding: relative to the Dockerfile's folder."""
    dest: str
    text: str
    ports: tuple[tuple[str, int], ...]
    """(port, line) of each port its commands give a program (`given_ports`), read once for every row."""
    line: int = 0
    """The Dockerfile line of the COPY or ADD."""


def port_rows(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each row of a port table of `part` whose service a start script the images copy in is named
    after, and whose container port neither that script's command (`--port 5001`) nor the nginx
    configuration the images copy in serves it on."""
    images = [(image, _copied_files(image, auditor.shared)) for image in map(Image, auditor.models)]
    if not images:
        return
    for table in part.tables:
        columns = _port_columns(table)
        if columns is None:
            continue
        port_at, name_at = columns
        for line, cells in table.rows:
            if max(port_at, name_at) >= len(cells):
                continue
            port, service = plain(cells[port_at]).strip(), plain(cells[name_at]).strip()
            if not re.fullmatch(r"\d{2,5}", port) or not service:
                continue
            verdicts = [_serves(image, copied, service, port) for image, copied in images]
            if not verdicts or any(v is None for v in verdicts):
                continue
            yield Diagnostic(
                auditor.path,
                line,
                f"README's port table gives {service} container port {port}, but {verdicts[0]}",
                confidence=LIKELY,
            )


def _port_columns(table: Table) -> tuple[int, int] | None:
    """(container port column, service column) of a port table: a header naming an internal or
    container port (the only port column otherwise), and the first column that is no port's."""
    header = [plain(cell).lower() for cell in table.header]
    ports = [i for i, cell in enumerate(header) if re.search(r"\bports?\b", cell)]
    inside = [i for i in ports if re.search(r"internal|container|inside", header[i])]
    port_at = inside[0] if len(inside) == 1 else ports[0] if len(ports) == 1 else None
    names = [i for i, cell in enumerate(header) if i not in ports and cell]
    if port_at is None or not names:
        return None
    return port_at, names[0]


def _serves(image: Image, copied: list[_Copied], service: str, port: str) -> str | None:
    """None when the image (which copies in `copied`) may serve `service` on container `port`, else
    what it serves it on."""
    if port in image._mentioned() or any(
        port in re.findall(r"\d{2,5}", s.value) for s in image.settings if s.keyword == "EXPOSE"
    ):
        return None
    key = _key(service)
    scripts = [
        f for f in copied if (m := _START_SCRIPT.match(f.path.name)) and _same_service(_key(m[1]), key)
    ]
    given: dict[str, tuple[_Copied, int]] = {}
    for script in scripts:
        for found, number in script.ports:
            given.setdefault(found, (script, number))
    if not given or port in given:
        return None
    if any(port == found for f in copied if f.path.suffix == ".sh" for found, _ in f.ports):
        return None  # another script of the image gives the port to a program
    configs = [f for f in copied if f.dest.startswith(_NGINX_DIR)]
    if not image.plain and not any(f.dest == _NGINX_CONF for f in configs):
        return None  # the base's proxy may serve the service on it
    fronts: list[str] = []
    for config in configs:
        if _INCLUDE.search(config.text):
            return None
        starts = [m.end() for m in _SERVER.finditer(config.text)]
        for begin, end in itertools.pairwise([*starts, len(config.text)]):  # (none: no server)
            server = config.text[begin:end]
            listens = _LISTEN.findall(server)
            if port in listens:
                return None
            listen = _LISTEN.search(server)
            if listen is not None and set(_PROXY_PASS.findall(server)) & set(given):
                line = config.text.count("\n", 0, begin + listen.start()) + 1
                fronts.append(f"{config.shown}:{line} listens on {', '.join(listens)} for it")
    first, (script, number) = next(iter(given.items()))
    shown = " and ".join([f"{script.shown}:{number} starts it on port {first}", *fronts[:1]])
    return f"{shown}, and the image serves it on {port} nowhere"


def given_ports(script: str) -> Iterator[tuple[str, int]]:
    """(port, line) of each port a script's commands give a program (`--port 5001`), comments aside."""
    for number, text in enumerate(script.splitlines(), 1):
        if not text.lstrip().startswith("#"):
            for found in _PORT_OPTION.findall(text):
                yield found, number


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _same_service(script: str, service: str) -> bool:
    """True when a script's name (`textgen_server`) names the service (`TextGen`): the same letters,
    or one starting with the other, the shorter one of four letters or more."""
    short, long = sorted((script, service), key=len)
    return len(short) >= 4 and long.startswith(short)


def _copied_files(image: Image, shared: AuditFacts) -> list[_Copied]:
    """The files of the build context (beside the Dockerfile) the image's stages copy in
    (`copied.copied_files`: globs, folders, no link out of it), with where each goes. Each file is read
    once an audit (`shared`), whichever parts of the README ask."""
    model: ImageModel = image.model
    if not model.file:
        return []
    root = Path(model.file).parent.resolve()
    files: list[_Copied] = []
    copies = [copy for copy in model.context_copies if copy.stage in image.indexes]
    for copied in itertools.islice(copied_files(root, copies, model.file), FILE_LIMIT):
        text = shared.text(copied.path) if copied.path is not None else None
        if copied.path is None or text is None:
            continue
        ports = tuple(given_ports(text)) if copied.path.suffix.lower() == ".sh" else ()
        shown = copied.path.relative_to(root).as_posix()
        files.append(_Copied(copied.path, shown, copied.dest, text, ports, copied.line))
    return files


_CONFIG_OPTION = re.compile(
    r"(?<![\w-])(?:--[\w-]*conf(?:ig)?(?:[-_]file)?|-c|--ini)(?:[ \t]*=[ \t]*|[ \t]+)[\"']?"
    r"(/[^\s\"']+\.(?:properties|conf|cfg|ini|ya?ml|toml|json|py))(?=[\s\"']|$)"
)
"""A configuration file a command line gives its program by an option (`--ts-config /opt/x.properties`,
`-c /srv/gunicorn.conf.py`, `--config=/etc/app.yaml`, `--ini /app/uwsgi.ini`), by its image path and
a configuration file's suffix (`sh -c /app/start.sh` gives a script)."""
_LISTENER = re.compile(
    r"^[ \t]*(?:c\.)?([\w.-]+)[ \t]*[=:][ \t]*[\"'\[]?[ \t]*[\"']?"
    r"(?:(?:https?|grpc|tcp)://)?(?:(0\.0\.0\.0|\*|\[::\]|::|localhost|127\.0\.0\.1|[\w.-]*)?:)?"
    r"(\d{2,5})[\"']?[ \t]*\]?[ \t]*,?[ \t]*(?:#.*)?$"
)
"""A key of a configuration file set to an address or a port (`inference_address=http://0.0.0.0:8085`,
`bind = "0.0.0.0:8000"`, `grpc_inference_port=7070`, `port: 8080`): group 1 the key, 2 the host, 3
the port."""
_LISTEN_KEY = re.compile(r"listen|bind|(?:^|[._-])(?:address|addr)$|port$", re.IGNORECASE)
_OTHER_END = re.compile(
    r"db|database|redis|mongo|postgres|mysql|sql|upstream|proxy|remote|client|target|backend|smtp|mail"
    r"|broker|kafka|rabbit|amqp|elastic|cache|peer|master|coordinator|worker|dns|ldap|s3|minio",
    re.IGNORECASE,
)
"""Words of a key naming another service's address (`redis_address`, `database_port`): where the server
connects to, not where it listens."""
_ALL_INTERFACES = frozenset({"0.0.0.0", "*", "[::]", "::", ""})


def config_listeners(text: str) -> tuple[tuple[str, str, int], ...]:
    """(key, port, line) of each listener a server's configuration file sets: a key naming an address or
    a port of its own (`_LISTEN_KEY`, not another service's: `_OTHER_END`, nor under a parent key or
    `[section]` naming one) whose value is a port, or an address on every interface
    (`http://0.0.0.0:8085`, `:8000`); comments aside. Each line is read once."""
    found: list[tuple[str, str, int]] = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = _LISTENER.match(line)
        if match is None:
            continue
        key, host, port = match.group(1), match.group(2), match.group(3)
        if not _LISTEN_KEY.search(key) or _OTHER_END.search(key):
            continue
        if host is not None and host not in _ALL_INTERFACES:
            continue  # an address of one interface or another host
        if any(_OTHER_END.search(parent) for parent in _parents(lines, index)):
            continue  # `redis:` then `  port: 6379`: another service's
        found.append((key, port, index + 1))
    return tuple(found)


def _parents(lines: list[str], index: int) -> Iterator[str]:
    """The keys of the less indented lines above `lines[index]` (a YAML key's parents, a TOML or INI
    `[section]`), over at most 50 lines."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    for text in reversed(lines[max(0, index - 50) : index]):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            yield stripped
            return
        here = len(text) - len(stripped)
        if here < indent:
            indent = here
            yield stripped.split(":", 1)[0]
            if here == 0:
                return


def _configured(image: Image, port: str, published: set[str], replaced: bool, auditor: Auditor) -> str | None:
    """What the server's configuration file says of its listeners, when the program the image's
    ENTRYPOINT or CMD starts is given a configuration file on its command line (`--ts-config …`, `-c …`)
    that a COPY of the image takes from the build context, the file sets the ports the server listens
    on, and `port` is none of them while nothing of the image (its Dockerfile, the files it copies in)
    names it. A run that publishes one of those ports too publishes `port` for another listener: a
    finding only when `port` is the stock port of a listener the file moves elsewhere, for the servers
    whose listeners docgen knows (`settings.CONFIG_LISTENERS`: an unset one keeps its stock port). None
    otherwise."""
    entry, cmd = image.last("ENTRYPOINT"), image.last("CMD")
    settings = [s for s in (entry, None if replaced else cmd) if s is not None]
    named = [m.group(1) for s in settings for m in _CONFIG_OPTION.finditer(command_text(s))]
    if len(set(named)) != 1:
        return None
    wanted = posixpath.normpath(named[0])
    copied = _copied_files(image, auditor.shared)
    config = next((f for f in copied if posixpath.normpath(f.dest) == wanted), None)
    if config is None:
        return None
    listeners = config_listeners(config.text)
    ports = list(dict.fromkeys(found for _, found, _ in listeners))
    if not listeners or port in ports:
        return None
    moved = ""
    if published & set(ports):
        # the run publishes the server's configured port too: the other is for a listener the file
        # moved off its stock port (TorchServe's management API off 8081), known for the servers of
        # `CONFIG_LISTENERS` only (a listener the file does not set keeps a stock port docgen may not know)
        text = " ".join(command_text(s) for s in settings)
        keys = {key.lower(): found for key, found, _ in listeners}
        moved = next(
            (
                f" and moves {key} off its stock {port} to {keys[key.lower()]}"
                for _name, program, stock in CONFIG_LISTENERS
                if program.search(text)
                for key, default in stock
                if default == port and key.lower() in keys
            ),
            "",
        )
        if not moved:
            return None
    dockerfile = text_or_none(Path(image.model.file)) if image.model.file else None
    if dockerfile is None or port in _NUMBER.findall(dockerfile):
        return None
    if any(port in _NUMBER.findall(f.text) for f in copied):
        return None
    lines = sorted({line for _, _, line in listeners})
    span = f"{lines[0]}-{lines[-1]}" if len(lines) > 1 else str(lines[0])
    return (
        f"the configuration the image's {settings[-1].keyword} gives its server ({config.shown}, copied to "
        f"{wanted} by {image.model.path}:{config.line}) sets its listeners on {', '.join(ports)} "
        f"({config.shown}:{span}){moved}"
    )


_SSH_CLIENT = re.compile(r"\A[ \t]*(?:\$[ \t]+)?ssh[ \t](?:[^\n]*?[ \t])?-p[ \t]*(\d{2,5})(?=\s|\Z)")
"""`ssh -p 2222 root@localhost`: the host port an ssh client of the README connects to."""
_LOCAL = re.compile(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})(?!\d)")


def _stock_server(
    image: Image, port: str, host: str | None, replaced: bool, auditor: Auditor
) -> tuple[str, str, str, str] | None:
    """(where, the server, its default port, how the README reaches it) when the image starts a
    well-known server (`SERVERS`) that nothing of the image moves off its default port, and the README
    reaches the server on `host` (the host side of the mapping publishing container port `port`): an
    ssh client (`ssh -p 2222`) for sshd, an address on the reader's machine (`localhost:8000`) for the
    only web server it starts. None when the image names `port` anywhere (its Dockerfile, a file it
    copies in), when something moves the server's port, or when its base image is the server's own."""
    if host is None or image.root is None:
        return None
    entry, cmd = image.last("ENTRYPOINT"), image.last("CMD")
    settings = [s for s in (entry, None if replaced else cmd) if s is not None]
    if not settings:
        return None
    texts = [(command_text(s), s) for s in settings]
    for setting in settings:
        for name in dict.fromkeys(_SCRIPT.findall(command_text(setting))):
            script = image._context_script(name) or image._written_script(name)
            if script is not None:  # (a script a RUN writes with `printf '…\\n…'`: its lines)
                texts.append((script.replace("\\n", "\n"), setting))
    started = [
        (server, setting, found.group(0).strip())
        for server in SERVERS
        for text, setting in texts
        for found in [server.start.search(text)]
        if found is not None
    ]
    if not started or any(server.default == port for server, _, _ in started):
        return None
    base = image.root.base.lower()
    model = image.model
    dockerfile = text_or_none(Path(model.file)) if model.file else None
    if dockerfile is None or port in _NUMBER.findall(dockerfile):
        return None
    copied = _copied_files(image, auditor.shared)
    if any(port in _NUMBER.findall(f.text) for f in copied) or any(
        port in _NUMBER.findall(text) for text, _ in texts
    ):
        return None
    reached = _reached(auditor.shared.doc)
    web = [s for s in started if s[0].http]
    for server, setting, said in started:
        key = server.name.lower().removesuffix("d")
        if key in base:
            continue  # the base image is the server's own: it may configure it
        if server.http:
            if len(web) != 1 or host not in reached[1]:
                continue
            tie = f" (line {reached[1][host]} opens localhost:{host})"
        else:
            if host not in reached[0]:
                continue
            tie = f" for ssh (line {reached[0][host]}: ssh -p {host})"
        if server.moved.search(dockerfile) or any(server.moved.search(t) for t, _ in texts):
            continue
        if any(server.moved.search(f.text) for f in copied if not f.path.suffix.lower() == ".sh"):
            continue  # a configuration file it copies in may set the port
        where = f"{model.path}:{setting.line} ({setting.keyword}, `{said}`)"
        return where, server.name, server.default, tie
    return None


def _reached(doc: Document) -> tuple[dict[str, int], dict[str, int]]:
    """(host port → line of the first ssh client of the README connecting to it, host port → line of
    the first address on the reader's machine naming it)."""
    ssh: dict[str, int] = {}
    web: dict[str, int] = {}
    for fence in doc.fences:
        for number, text in fence.lines:
            client = _SSH_CLIENT.match(text)
            if client is not None:
                ssh.setdefault(client.group(1), number)
            for found in _LOCAL.finditer(text):
                web.setdefault(found.group(1), number)
    for para in doc.paragraphs:
        for number, text in para.lines:
            for found in _LOCAL.finditer(text):
                web.setdefault(found.group(1), number)
    return ssh, web
