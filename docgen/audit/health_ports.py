"""A `docker run` of an image the README builds that moves its server to another port than the one the
image's HEALTHCHECK probes: the Dockerfile says `HEALTHCHECK CMD curl -f http://localhost:8080/health`,
the README runs `docker run … local/app:server -m model.gguf --port 8000`. The server listens on 8000,
the check asks 8080 and fails, and docker reports the container unhealthy (an orchestrator restarts
it).

The image is one a build command of the README tags (`docker build -t local/app:server -f
server.Dockerfile .`), its Dockerfile the one that build names with `-f` (the only one audited when it
names none). The HEALTHCHECK is the last one of the stages the image is built from; it must name one
port of the container itself (`localhost:N`, `127.0.0.1:N`) and read no variable. The run moves the port
with `--port N` (`--port=N`) after the image, or with `-e NAME=N` where the image's ENTRYPOINT or CMD
reads `$NAME`. Left alone: `HEALTHCHECK NONE`, a run with `--no-healthcheck`, `--health-cmd` or
`--entrypoint`, the same port, and an image the README does not build or whose Dockerfile is unclear.
Each finding is `likely`.

And an image whose own HEALTHCHECK probes a port its server does not listen on (`unserved_checks`): the
Dockerfile sets `ENV LLAMA_ARG_PORT=11434` for the llama-server its ENTRYPOINT starts, or `CMD ["uvicorn",
…, "--port", "8000"]`, and checks `curl -f http://localhost:8080/health`. The port the server listens on
is the one the image sets for the one program it starts (`ports.served_port`: a port option of its
ENTRYPOINT/CMD, a `$NAME` of one read from ENV, or the ENV variable that program reads for its port);
the probed port must be named nowhere else in the image (EXPOSE, ENV values, ENTRYPOINT, CMD, the scripts
they start: a second server, a proxy in front, may serve there). When the image sets no port for its
program, the one port it EXPOSEs is where it listens if the README says so too (a run publishes that
container port, its prose names it): then either the check or the README's port is wrong. Read when the
README says the image has health checks (`It features health checks`, a `Health check` heading), and the
README overrides no check (`--health-cmd`, `--no-healthcheck`, a compose `healthcheck:`): the claim is
what the container does not do, since docker never sees it healthy. `likely`: the server may listen on
the probed port too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import tagged_builds
from docgen.audit.ports import PORT_VARIABLES, PUBLISH, Served, served_port
from docgen.audit.run_args import docker_runs
from docgen.audit.settings import LAUNCHER, Image, command_text, started_program
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Setting, Stage

_PROBED = re.compile(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{2,5})\b")
"""The port of the container a health check asks (`http://localhost:8080/health`)."""
_PORT_WORD = re.compile(r"--port(?:=(\d{2,5}))?")
_ENV_PORT = re.compile(r"([A-Za-z_]\w*)=(\d{2,5})")
_TARGET = re.compile(r"--target(?:[ \t]+|=)([\w.-]+)")
_LEAVES_CHECK = frozenset({"--no-healthcheck", "--health-cmd", "--entrypoint"})


def _tag(image: str) -> str:
    """An image reference with `:latest` when it names no tag (`app` → `app:latest`)."""
    last = image.rsplit("/", 1)[-1]
    return image if ":" in last or "@" in last else image + ":latest"


def _built_tags(doc: Document) -> dict[str, set[tuple[str | None, str | None]]]:
    """Each image (with its tag) the README's `docker build -t` commands tag → (the Dockerfile they
    name with `-f`, None for none or one through a variable; the stage `--target` names, None for
    none) of each."""
    built: dict[str, set[tuple[str | None, str | None]]] = {}
    for image, file, command in tagged_builds(doc):
        target = _TARGET.search(command)
        built.setdefault(_tag(image), set()).add((file, target.group(1) if target else None))
    return built


def _model_of(
    image: str, built: dict[str, set[tuple[str | None, str | None]]], models: Sequence[ImageModel]
) -> tuple[ImageModel, list[Stage]] | None:
    """The model of the Dockerfile the README's build of exactly `image` uses and the stages the image
    is built from (`--target`'s and those it is built on); None when unclear."""
    builds = built.get(_tag(image))
    if not builds or len(builds) != 1:
        return None
    ((file, target),) = builds
    if file is None:
        named = list(models) if len(models) == 1 else []
    else:
        named = [m for m in models if m.path == file or m.path.endswith("/" + file.removeprefix("./"))]
    if len(named) != 1:
        return None
    model = named[0]
    if target is None:
        return model, model.chain()
    stage = model.stage_named(target)
    return (model, model.chain(stage)) if stage is not None else None


def _health_check(model: ImageModel, chain: Sequence[Stage]) -> Setting | None:
    """The HEALTHCHECK of the image built from the stages `chain` (the last one of them), None for none."""
    labels = {stage.label for stage in chain}
    for setting in reversed(model.settings):
        if setting.keyword == "HEALTHCHECK" and setting.stage in labels:
            return setting
    return None


def _program_reads(model: ImageModel, chain: Sequence[Stage]) -> str:
    """The ENTRYPOINT and CMD of the image built from the stages `chain`, as written."""
    labels = {stage.label for stage in chain}
    return " ".join(
        s.value for s in model.settings if s.keyword in ("ENTRYPOINT", "CMD") and s.stage in labels
    )


def _moved_port(after: Sequence[str], env: Sequence[str], program: str) -> tuple[str, str] | None:
    """(port, how the run gives it) of the port a run moves its server to: `--port N` after the image, or
    `-e NAME=N` for a NAME the image's program reads; None when it moves none."""
    for index, word in enumerate(after):
        match = _PORT_WORD.fullmatch(word)
        if match is None:
            continue
        if match.group(1):
            return match.group(1), word
        if index + 1 < len(after) and re.fullmatch(r"\d{2,5}", after[index + 1]):
            return after[index + 1], f"--port {after[index + 1]}"
    for given in env:
        match = _ENV_PORT.fullmatch(given)
        if match is not None and re.search(r"\$\{?" + re.escape(match.group(1)) + r"\b", program):
            return match.group(2), f"-e {given}"
    return None


def health_ports(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not models:
        return
    built = _built_tags(doc)
    if not built:
        return
    unchecked = {
        number
        for fence in doc.fences
        for number, text in fence.lines
        if "--no-healthcheck" in text or "--no-health" in text
    }
    for line, image, read, after in docker_runs(doc):
        if any(name in _LEAVES_CHECK for name, _ in read.values) or unchecked & set(
            range(line - 20, line + 1)
        ):
            continue  # (a flag is not among the values read: looked for on the command's lines)
        own = _model_of(image, built, models)
        if own is None:
            continue
        model, chain = own
        check = _health_check(model, chain)
        if check is None or "$" in check.value or check.value.upper().startswith("NONE"):
            continue
        probed = set(_PROBED.findall(check.value))
        if len(probed) != 1:
            continue
        (port,) = probed
        env = [value for name, value in read.values if name in ("-e", "--env")]
        moved = _moved_port(after, env, _program_reads(model, chain))
        if moved is None or moved[0] == port:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} with {moved[1]}, but {model.path}:{check.line} HEALTHCHECK probes port "
            f"{port}: the server listens on {moved[0]}, the check fails and docker reports the container "
            "unhealthy",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# A plain-HTTP health check of a port the README only ever reaches over HTTPS

_LOCAL_URL = re.compile(r"\b(https?)://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{2,5})(?![\d])")
"""A URL of a port on the reader's machine or the container itself (`https://localhost:8100/web`)."""
_PLAIN_PROBE = re.compile(r"\bhttp://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{2,5})(?![\d])")
_HTTPS_LEAST = 2
"""How many `https://` URLs of the port the README must give (one may be a proxy's example)."""


def plain_health_checks(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """An image whose HEALTHCHECK probes `http://localhost:PORT` while the README reaches that port only
    over TLS: at least two `https://localhost:PORT` URLs (`curl -sk https://localhost:8100/v1/…`, `Open
    https://localhost:8100/web`) and not one `http://` URL of it. The server speaks TLS there, a plain
    HTTP request fails, and docker reports the container unhealthy (`likely`: the README's URLs tell
    what the server speaks). Silent for a check of another port (a TLS proxy in front), one reading a
    variable, `HEALTHCHECK NONE`, and for several images whose checks differ."""
    checks: dict[str, tuple[ImageModel, Setting]] = {}
    for model in models:
        check = _health_check(model, model.chain())
        if check is None or "$" in check.value or check.value.upper().startswith("NONE"):
            continue
        probed = set(_PLAIN_PROBE.findall(check.value))
        if len(probed) == 1 and len(set(_PROBED.findall(check.value))) == 1:
            checks.setdefault(probed.pop(), (model, check))
    if not checks:
        return
    schemes: dict[str, list[tuple[str, int]]] = {}
    lines = [pair for para in doc.paragraphs for pair in para.lines]
    lines += [pair for fence in doc.fences for pair in fence.lines]
    lines += [(line, " | ".join(cells)) for table in doc.tables for line, cells in table.rows]
    for number, text in lines:
        for scheme, port in _LOCAL_URL.findall(text):
            schemes.setdefault(port, []).append((scheme.lower(), number))
    for port, (model, check) in sorted(checks.items()):
        seen = sorted(schemes.get(port, []), key=lambda pair: pair[1])
        secure = [number for scheme, number in seen if scheme == "https"]
        if len(secure) < _HTTPS_LEAST or any(scheme == "http" for scheme, _ in seen):
            continue
        yield Diagnostic(
            readme,
            secure[0],
            f"README reaches port {port} only over HTTPS (https://localhost:{port}, {len(secure)} times), "
            f"but {model.path}:{check.line} HEALTHCHECK probes http://localhost:{port}: a plain HTTP request "
            "to a TLS listener fails and docker reports the container unhealthy",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# An image's own check of a port its server does not listen on

_HEALTH_SAID = re.compile(r"\bhealth[ \t-]?checks?\b|\bhealthcheck\b|\bhealthy\b|健康检查", re.IGNORECASE)
_NOT_SAID = re.compile(
    r"\bno\b|\bnot\b|n't\b|\bnever\b|\bwithout\b|\bdisabl|\bunhealthy\b|\badd(?:ing)?[ \t]+(?:a|an|your)\b"
    r"|health[ \t-]?checks?[ \t]+(?:endpoint|route|url|api|path|page)|/health|/ready|/live",
    re.IGNORECASE,
)
"""A line about a check that is absent, turned off or the reader's to add, or the application's health
route (`a health check endpoint at /health`), not the image's own check."""
_OVERRIDES = re.compile(r"--health-cmd|--no-healthcheck|^[ \t]*healthcheck:", re.MULTILINE)


def _health_claim(doc: Document) -> int | None:
    """The README line of the first sentence, list item, heading or table row saying the image has
    health checks (`_HEALTH_SAID`, not `_NOT_SAID`); None when there is none or a command block overrides
    the image's check (`_OVERRIDES`)."""
    if any(_OVERRIDES.search(text) for fence in doc.fences for _, text in fence.lines):
        return None
    lines = [pair for para in doc.paragraphs for pair in para.lines] + list(doc.headings)
    lines += [(line, " | ".join(cells)) for table in doc.tables for line, cells in table.rows]
    said = [n for n, text in lines if _HEALTH_SAID.search(text) and not _NOT_SAID.search(text)]
    return min(said) if said else None


def _named_ports(image: Image) -> set[str]:
    """The port numbers the image names but in its HEALTHCHECK: EXPOSE, its ENV values, ENTRYPOINT, CMD
    and the scripts from the build context those start."""
    texts = [s.value for s in image.settings if s.keyword == "EXPOSE"]
    texts += [command_text(s) for s in image.settings if s.keyword in ("ENTRYPOINT", "CMD")]
    texts += [e.value or "" for e in image.model.env if e.stage == image.top]
    return set(_PORT_NUMBER.findall(" ".join(texts))) | image._script_ports


_PORT_NUMBER = re.compile(r"(?<![\w.])\d{2,5}(?![\w.])")


_SAID_PORT = re.compile(r"\bports?[ \t]+`?(\d{2,5})\b", re.IGNORECASE)
"""A port named in the README's prose (`It runs on port 11434`, `` port `8000` ``)."""


def _said_ports(doc: Document) -> set[str]:
    """The container ports the README's runs publish (`-p 8080:8000` gives 8000) and the ports its prose
    names (`runs on port 8000`)."""
    said = {
        match.group(2) for fence in doc.fences for _, text in fence.lines for match in PUBLISH.finditer(text)
    }
    said |= {
        m.group(1) for para in doc.paragraphs for _, text in para.lines for m in _SAID_PORT.finditer(text)
    }
    return said


_OWN_DEFAULT = re.compile(
    r"(?<![\w-])(?:[\w./-]*/)?(?:ollama|jupyter\w*|tensorboard|mlflow|code-server)(?![\w-])"
)
"""Servers with a default port of their own (beyond `settings.LAUNCHER` and `ports.PORT_VARIABLES`)."""
_SCRIPT_START = re.compile(
    r"(?<![\w./-])(?:[\w./-]*entrypoint[\w./-]*|[\w./-]+\.sh\b|[\w./-]*start[\w.-]*)", re.I
)
"""A start script an ENTRYPOINT or CMD runs (`/entrypoint.sh`, `start-app`, `npm start`)."""


def _exposed_port(image: Image, doc: Document) -> Served | None:
    """The one port the image EXPOSEs, as where its server listens, when the README agrees (a run
    publishes it, or its prose names it) and the image sets no other for its program (`served_port`).
    None when what the image starts decides the port itself: a server with a default port of its own
    (llama-server's 8080, uvicorn's 8000: the check may ask that one rightly, and EXPOSE be stale), or a
    start script (it may start a proxy on the probed port)."""
    started = " ".join(command_text(s) for s in image.settings if s.keyword in ("ENTRYPOINT", "CMD"))
    program = started_program(started)
    if (
        not started
        or LAUNCHER.search(started)
        or _OWN_DEFAULT.search(started)
        or _SCRIPT_START.search(started)
        or any(reads.fullmatch(program) for _, reads in PORT_VARIABLES)
    ):
        return None
    exposed = [s for s in image.settings if s.keyword == "EXPOSE"]
    ports = {p for s in exposed for p in _PORT_NUMBER.findall(s.value)}
    if len(ports) != 1 or ports.isdisjoint(_said_ports(doc)):
        return None
    (port,) = ports
    setting = exposed[-1]
    return Served(
        port, f"{image.model.path}:{setting.line} EXPOSE {setting.value}, as the README says", setting, False
    )


def unserved_checks(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The README's claim that the image has health checks, for each image whose HEALTHCHECK probes a port
    its server does not listen on (see the module docstring)."""
    claim: int | None = None
    for model in models:
        image = Image(model)
        check = image.last("HEALTHCHECK")
        if check is None or "$" in check.value or check.value.upper().startswith("NONE"):
            continue
        probed = set(_PROBED.findall(check.value))
        if len(probed) != 1 or probed & _named_ports(image):
            continue  # (a port the image names elsewhere: a second server, a proxy, may serve there)
        served = served_port(image) or _exposed_port(image, doc)
        if served is None or served.port in probed:
            continue
        claim = claim if claim is not None else _health_claim(doc)
        if claim is None:
            return
        (port,) = probed
        yield Diagnostic(
            readme,
            claim,
            f"README says the image has health checks, but {model.path}:{check.line} HEALTHCHECK probes "
            f"port {port} while the server listens on {served.port} ({served.source}) and the image names "
            f"{port} nowhere else: the check fails and docker never reports the container healthy",
            confidence=LIKELY,
        )
