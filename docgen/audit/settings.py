"""Claims about how a container of the image runs, against the instructions that set it: a built-in
health check (HEALTHCHECK), the ports it exposes (EXPOSE), the user it runs as (USER), the directory
it starts in (WORKDIR) and what it starts (ENTRYPOINT, CMD).

Only the image built counts: the target stage and the stages it builds on (`ImageModel.settings`). A
base image that is no plain OS may set any of them itself, so an instruction the Dockerfile leaves out
is a finding only on a plain base (`likely`); a value the Dockerfile sets that differs is `certain`.
A port said of one variant of a family (`GPU 版本默认运行在端口 8001`) is compared with that variant's
Dockerfile (`variant_port_claims`).
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, OwnBases, dockerfile_read, image_names
from docgen.audit.paths import resolves_inside
from docgen.audit.versions import near_names
from docgen.audit.wording import is_example, line_at, sentences
from docgen.base_contents import is_plain, runs_as_root
from docgen.compose import COMPOSE_FILE
from docgen.copied import copied_files, glob_matches
from docgen.errors import MAX_FILE_BYTES
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Setting, Stage

_HEALTH = re.compile(r"\bhealth[ \t-]?checks?\b|健康检查", re.IGNORECASE)
_HEALTH_HELD = re.compile(
    r"\b(?:image|container|dockerfile)s?\b[^.;]{0,120}?\b(?:includes?|has|ships|comes[ \t]+with|defines?"
    r"|provides?|adds|configures?|declares?|sets[ \t]+up)\b|\bbuilt[ \t-]?in\b|\bbuiltin\b|内置|自带",
    re.IGNORECASE,
)
"""Words saying the image itself has a health check: `The image includes a health check`, `built-in
health check`, `内置…健康检查`."""
_ONE_PORT = r"`?\d{2,5}(?:/(?:tcp|udp))?`?"
_PORT_CLAIM = re.compile(
    r"\b(?:image|container|dockerfile|it)[ \t]+(?:also[ \t]+|only[ \t]+)?(exposes|listens[ \t]+on)[ \t]+"
    r"(?:the[ \t]+)?(?:tcp[ \t]+|udp[ \t]+|http[ \t]+)?ports?[ \t]+"
    rf"({_ONE_PORT}(?:(?:[ \t]*,[ \t]*|[ \t]+and[ \t]+|[ \t]*/[ \t]*){_ONE_PORT})*)"
    r"(?![\w:]|\.\d)",
    re.IGNORECASE,
)
"""`The image exposes port 8000`, `the container listens on ports 8081 and 8082`: the ports a container
of the image serves on (a `-p 8080:8000` mapping is the host's, and not read)."""
_SERVES_CLAIM = re.compile(
    r"\b(?:image|container|it)[ \t]+(?:runs|serves|starts|launches)[ \t]+"
    r"(?:`[^`]{1,60}`|[^.;:,()`]){1,80}?[ \t]on[ \t]+"
    rf"(?:the[ \t]+)?(?:tcp[ \t]+|http[ \t]+)?port[ \t]+({_ONE_PORT})(?![\w:]|\.\d)",
    re.IGNORECASE,
)
"""`The image runs `llama-server` on port 8080 by default`, `the container serves the API on port
9000`: a port the application in a container of the image listens on."""
_PORT = re.compile(r"\d{2,5}")
LAUNCHER = re.compile(
    r"(?<![\w./-])(?:[\w./-]*/)?(?:uvicorn|gunicorn|hypercorn|granian|streamlit|flask|fastapi|vllm"
    r"|text-generation-launcher|llama-server)(?![\w-])"
    r"|-m[ \t]+(?:uvicorn|gunicorn|hypercorn|streamlit|flask|vllm\.entrypoints\.[\w.]+"
    r"|sglang\.launch_server)\b"
)
"""A program that takes the port it listens on from its command line."""


@dataclass(frozen=True)
class Server:
    """A well-known server an image starts, with the port it listens on when nothing moves it
    (`ports.published_ports`, `unpublished_ports`)."""

    name: str
    default: str
    start: re.Pattern[str]
    """A command starting it (`service ssh start`, `/usr/sbin/sshd -D`, `jupyter lab`)."""
    moved: re.Pattern[str]
    """What gives it another port: an option, a configuration key, an environment variable."""
    http: bool
    """Reached by an address (`http://localhost:8888`) rather than a client of its own (`ssh -p`)."""


SERVERS = (
    Server(
        "sshd",
        "22",
        re.compile(
            r"\bservice[ \t]+sshd?[ \t]+(?:re)?start\b|\bsystemctl[ \t]+(?:re)?start[ \t]+sshd?\b"
            r"|/etc/init\.d/sshd?[ \t]+(?:re)?start\b|(?<![\w/.-])(?:/usr/sbin/)?sshd(?![\w/.-])"
        ),
        re.compile(r"(?<![\w-])Port(?![\w-])|(?i:ListenAddress|SSH_?PORT|\bsshd\b[^\n;&|]*[ \t]-p[ \t]*\d)"),
        False,
    ),
    Server(
        "JupyterHub",
        "8000",
        re.compile(r"(?<![\w/.-])(?:[\w./-]*/)?jupyterhub(?![\w.-])"),
        re.compile(r"--port|\bport[ \t]*=|bind_url|\.port\b|JUPYTERHUB_\w*PORT", re.I),
        True,
    ),
    Server(
        "Jupyter",
        "8888",
        re.compile(
            r"(?<![\w/.-])(?:[\w./-]*/)?jupyter(?:[ \t-]+(?:lab|notebook)\b)"
            r"|-m[ \t]+(?:jupyterlab|notebook)\b"
        ),
        re.compile(r"--port|\.port\b|\bport[ \t]*=|JUPYTER_PORT|-p[ \t]+\d", re.I),
        True,
    ),
    Server(
        "TensorBoard",
        "6006",
        re.compile(r"(?<![\w/.-])tensorboard(?![\w.-])[^\n]*--logdir"),
        re.compile(r"--port|\bport[ \t]*=", re.I),
        True,
    ),
    Server(
        "Ollama",
        "11434",
        re.compile(r"(?<![\w/.-])ollama[ \t]+serve\b"),
        re.compile(r"OLLAMA_HOST[^\n]*:\d", re.I),
        True,
    ),
)
CONFIG_LISTENERS = (
    (
        "TorchServe",
        re.compile(r"(?<![\w/.-])torchserve(?![\w.-])"),
        (
            ("inference_address", "8080"),
            ("management_address", "8081"),
            ("metrics_address", "8082"),
            ("grpc_inference_port", "7070"),
            ("grpc_management_port", "7071"),
        ),
    ),
    (
        "Jupyter",
        re.compile(r"(?<![\w/.-])jupyter(?:[ \t-]+(?:lab|notebook|server)\b)"),
        (("ServerApp.port", "8888"), ("NotebookApp.port", "8888")),
    ),
    ("code-server", re.compile(r"(?<![\w/.-])code-server(?![\w.-])"), (("bind-addr", "8080"),)),
    ("Grafana", re.compile(r"(?<![\w/.-])grafana(?:-server)?(?![\w.-])"), (("http_port", "3000"),)),
)
"""Servers with several listeners, or one, that a configuration file given on their command line sets:
(name, what starts it, (key, the port the server listens on when the file does not set the key) …)."""
_SCRIPT_WORD = re.compile(r"(?<![\w./-])[\w./-]+\.(?:sh|py)\b")
"""A script a command starts (`./app.sh`, `python3 ready.py`)."""
_PORT_LINE = re.compile(r"port|listen|bind", re.IGNORECASE)
"""A line of a script that may set the port it serves on (`flask_port = …("READINESS_PORT", "3001")`)."""
_USER_CLAIM = re.compile(
    r"(?:\b(?:image|container|process|it)[ \t]+(?:now[ \t]+|always[ \t]+)?"
    r"|(?:^|[-*+][ \t]+)(?:(?:\*\*|__)[^*_\n]{1,40}(?:\*\*|__)[ \t]*(?:[:\uff1a\u2013\u2014-][ \t]*)?)?)"
    r"runs[ \t]+as[ \t]+(?:an?[ \t]+|the[ \t]+)?"
    r"(?:(non-?root|unprivileged|root)\b(?:[ \t]+user\b)?(?:[ \t]+`([\w.-]{1,32})`)?"
    r"|user[ \t]+`([\w.-]{1,32})`|`([\w.-]{1,32})`[ \t]+user\b)",
    re.IGNORECASE,
)
"""`The container runs as a non-root user`, `runs as the non-root user `app``, `- Runs as user
`worker``, `- **Security**: Runs as a non-root user`, `runs as root`: who the processes of a container
of the image run as."""
_LISTED_USER = re.compile(
    r"(?:^|[-*+][ \t]+)(?:(?:\*\*|__)[^*_\n]{1,40}(?:\*\*|__)[ \t]*[:\uff1a\u2013\u2014-][ \t]*)?"
    r"(?:\*\*|__)?(?:non-?root|unprivileged)[ \t]+user(?:\*\*|__)?[ \t]*"
    r"(?:\([ \t]*`([\w.-]{1,32})`|:[ \t]*`([\w.-]{1,32})`|`([\w.-]{1,32})`)",
    re.IGNORECASE,
)
"""A list item naming the image's user with no verb: `` - Non-root user (`rluser`) ``, `` - **Non-root
user**: `app` ``, `` - **Security**: non-root user `app` ``."""
WORKDIR_CLAIM = re.compile(
    r"(?:\b(?:default|image'?s|container'?s)[ \t]+working[ \t]+dir(?:ectory)?|`?WORKDIR`?)[ \t]+"
    r"(?:(?:of|in|inside|within)[ \t]+the[ \t]+(?:image|container)[ \t]+)?"
    r"(?:is[ \t]+(?:set[ \t]+to[ \t]+)?|:[ \t]*)"
    r"`(/[^`\s]{0,200})`"
    r"|\bsets[ \t]+the[ \t]+working[ \t]+dir(?:ectory)?[ \t]+to[ \t]+`(/[^`\s]{0,200})`",
    re.IGNORECASE,
)
"""`The default working directory is `/workspace``, `WORKDIR is `/app``, `the Dockerfile sets the
working directory to `/srv``: where a container of the image starts."""
_OWNER = r"(?:the[ \t]+)?(?:image'?s[ \t]+|container'?s[ \t]+)?"
_START_CLAIM = re.compile(
    rf"(?:\b{_OWNER}(?:default[ \t]+)?(entrypoint)|\b{_OWNER}default[ \t]+(command)|`(CMD|ENTRYPOINT)`)"
    r"(?:[ \t]+(?:of|in|to|for)[ \t]+the[ \t]+(?:image|container|Dockerfile))?[ \t]+is[ \t]+"
    r"(?:set[ \t]+to[ \t]+)?"
    r"(?:`([^`]{1,200})`|\[[^\]\n]{1,100}\]\((?:\./)?([\w./+-]{1,200}\.(?:sh|py|bash))\))",
    re.IGNORECASE,
)
"""`The entrypoint of the image is `vllm serve``, `the default command is `python app.py``, `the
entrypoint to the Dockerfile is set to [start](start.sh)` (a link to the script it starts): what a
container of the image starts."""
_LANDS_CLAIM = re.compile(
    r"(?:\b(?:drops?|puts?|lands?)[ \t]+(?:you|users?|the[ \t]+user)[ \t]+"
    r"|\b(?:launch(?:es)?|starts?|opens?|boots?)[ \t]+)"
    r"(?:directly[ \t]+|straight[ \t]+|right[ \t]+)?into[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:interactive[ \t]+)?"
    r"`([\w.+-]{1,40})`[ \t]+(?:shell|session|prompt|REPL|console|interpreter)\b",
    re.IGNORECASE,
)
"""`This command starts your container and drops you directly into an `ipython` session`, `the image
launches into a `bash` shell`: the program a container of the image starts when run with no command."""
_PROGRAM_WORD = re.compile(r"[\w.+-]+(?:/[\w.+-]+)*")
_UID = re.compile(r"[ \t]*\((?:uid[ \t=:]*)?(\d{1,6})\b", re.IGNORECASE)
"""A user id given after the name: `` `app` (UID 1000) ``."""
_NOT_A_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bnever\b|\bno\b|\bwithout\b|\bif\b|\bunless\b|\bwhen\b|\bonce\b|\bshould\b|\bmust\b"
    r"|\byou[ \t]+(?:can|may|could|should|need)\b|\badd(?:ing)?[ \t]+(?:a|an|the|your)\b|\bconsider"
    r"|\brecommend|\bto[ \t]+your\b|\bhost\b|\bcompose\b|\bkubernetes\b|\bk8s\b|\bpod\b|\bprobes?\b"
    r"|--user\b|(?:^|[ \t])-[uw][ \t]|--health|--expose\b|--workdir|--entrypoint|healthcheck:|\buser:"
    r"|\boverride|\breplace|\binstead\b"
    r"|没有|不含|不包含|未内置",
    re.IGNORECASE,
)
"""Words making a sentence about another container, the host or what to do, not about the image as
built: negations, conditions, advice (`add a HEALTHCHECK to your Dockerfile`), run-time options
(`--user`, `--health-cmd`), Compose and Kubernetes."""
_ENDPOINT = re.compile(
    r"health[ \t-]?checks?[ \t]+(?:endpoint|route|url|api|path|server|page)|/health|端点|接口", re.I
)
"""A health check the application serves (`a health check endpoint at /health`), not the image's."""
_ANY = re.compile(
    r"health|健康|\bports?\b|\bruns[ \t]+as\b|working[ \t]+dir|workdir|entrypoint|command|\bCMD\b"
    r"|non-?root|unprivileged",
    re.IGNORECASE,
)
"""A word one of the claims needs: a line without any holds none."""
_CLAUSE_END = re.compile(r"(?<=[。；])")
"""Where a sentence of Chinese text ends (`sentences` cuts English ones)."""
_ROOT_USERS = frozenset({"root", "0", "0:0", "root:root"})


def setting_claims(
    doc: Document, auditor: Auditor, told_users: set[int] | None = None
) -> Iterator[Diagnostic]:
    """The paragraphs' claims about the image's health check, exposed ports and user that no image
    compared agrees with (`Image` says how each compares). `told_users`, when given, gets the README line
    of each claim about the image's user reported (`user_names` tells no user twice)."""
    images = [Image(model) for model in auditor.models]
    for para in doc.paragraphs:
        lines = para.lines
        if not _ANY.search(" ".join(text for _, text in lines)):
            continue  # (most paragraphs: none of the words these claims need)
        for start, _end, sentence in sentences(lines):
            at = line_at(lines, start)
            compared = (
                _stage_images(auditor.models, _stage_named(lines, at, para.heading, sentence)) or images
            )
            for part in _CLAUSE_END.split(sentence):
                if _NOT_A_CLAIM.search(part):
                    continue
                at = line_at(lines, start + sentence.find(part))
                yield from _claims(part, at, compared, auditor, told_users)


_ITEM_STAGE = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)?`?(?:--target[ =])?([A-Za-z0-9][\w.-]*)`?(?:\*\*|__)?"
    r"\s*(?:--|—|–|:|-|\()",
)
"""A list item that opens with a name (`` - `runtime` -- … ``, `- **dev**: …`): a stage, when the
Dockerfile has one by that name."""
_SAID_STAGE = re.compile(
    r"--target[ =]`?([\w.-]+)|`([\w.-]+)`[ \t]+(?:stage|target)\b|\b(?:stage|target)[ \t]+`([\w.-]+)`",
    re.IGNORECASE,
)
"""A stage named in a sentence or heading: `--target dev`, `` the `dev` stage ``, `` target `dev` ``."""
_HEADING_STAGE = re.compile(r"^\W*`?([\w.-]+)`?[ \t]+(?:stage|target|image)\W*$", re.IGNORECASE)
"""A heading that is a stage's name (`` `runtime` stage ``, `Dev target`)."""


def _stage_named(lines: list[tuple[int, str]], line: int, heading: str, sentence: str) -> str | None:
    """The stage a sentence at README `line` speaks of (lower case), if its words name one: the
    sentence itself (`--target dev`, `` the `dev` stage ``), else the list item it is in when that item
    opens with a name, else its heading; None when nothing names one (the image built is meant)."""
    if match := _SAID_STAGE.search(sentence):
        return next(g for g in match.groups() if g).lower()
    for _, text in reversed([(n, t) for n, t in lines if n <= line]):
        if match := _ITEM_STAGE.match(text):
            return match.group(1).lower()
        if _LIST_START.match(text):
            break  # an item that opens with no name
    if match := _SAID_STAGE.search(heading) or _HEADING_STAGE.match(heading):
        return next(g for g in match.groups() if g).lower()
    return None


_LIST_START = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def _stage_images(models: list[ImageModel] | tuple[ImageModel, ...], name: str | None) -> list[Image]:
    """The images of the stage `name` of the Dockerfiles that define it (none when name is None or no
    Dockerfile does: the images built are compared then)."""
    if name is None:
        return []
    found = []
    for model in models:
        stage = model.stage_named(name)
        if stage is not None:
            found.append(Image(model, stage))
    return found


_NAMED_SUBJECT = re.compile(r"\b(?:image|container)s?\b(?![ \t]+(?:health|ports?\b))", re.IGNORECASE)
"""`image` or `container` as a noun (not `container health check`)."""
THE = frozenset({"", "the", "this", "our", "that", "each", "every", "same"})
_KIND = frozenset(
    {"docker", "final", "runtime", "resulting", "built", "production", "oci", "in", "small", "slim"}
    | {"lightweight", "minimal", "tiny", "single", "official", "prebuilt", "pre-built", "provided"}
)
"""Words that may stand between `the` and `image` or `container` and leave it the image built."""
_WORDS_BEFORE = re.compile(r"\w[\w-]*")


def of_another(text: str, the: frozenset[str] = THE) -> bool:
    """True when `text` names an image or container qualified by a word that makes it one of several
    (`the frontend container`, `the base image`): not the image built, as far as the words tell."""
    for match in _NAMED_SUBJECT.finditer(text):
        words = [w.lower() for w in _WORDS_BEFORE.findall(text, max(0, match.start() - 60), match.start())]
        while words and words[-1] in _KIND:
            words.pop()
        before = words[-1] if words else ""
        if before not in the:
            return True
    return False


_RUN_LINE = re.compile(r"\b(?:run|exec)\b", re.IGNORECASE)
"""A line that may run a command in a container (`docker run -it app ipython`, `docker exec`)."""


def _run_words(doc: Document) -> frozenset[str]:
    """The words (as `_program` gives them) of the README's lines that run something in a container:
    a program a `docker run` names itself is started whatever the image's CMD says."""
    lines = [t for f in doc.fences for _, t in f.lines] + [t for p in doc.paragraphs for _, t in p.lines]
    return frozenset(_program(w) for t in lines if _RUN_LINE.search(t) for w in _PROGRAM_WORD.findall(t))


def start_into_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The sentences of `doc` saying a container of the image starts into a program (`_LANDS_CLAIM`)
    that no image compared starts. Read in a part of the README shared by several images too: every
    one of them must start another program."""
    images = [Image(model) for model in auditor.models]
    run_words: frozenset[str] | None = None
    for para in doc.paragraphs:
        if not any(_LANDS_CLAIM.search(text) for _, text in para.lines):
            continue  # (most paragraphs; a claim split over two lines is not read)
        if run_words is None:
            run_words = _run_words(doc)
        for start, _end, sentence in sentences(para.lines):
            for part in _CLAUSE_END.split(sentence):
                if not _NOT_A_CLAIM.search(part):
                    at = line_at(para.lines, start + sentence.find(part))
                    yield from _lands_claims(part, at, images, auditor, run_words)


def _lands_claims(
    text: str, line: int, images: list[Image], auditor: Auditor, run_words: frozenset[str]
) -> Iterator[Diagnostic]:
    """A sentence saying a container of the image starts into a program (`_LANDS_CLAIM`) while the
    Dockerfile's ENTRYPOINT and CMD start another, with no script that may start it (`likely`). The
    reader's own container (`starts your container and drops you into …`) is the image built here;
    a program any run line of the README names (`docker run -it app ipython`) says nothing."""
    if of_another(text, THE | {"your"}):
        return
    for match in _LANDS_CLAIM.finditer(text):
        program = match.group(1)
        if is_example(text, match) or _program(program) in run_words:
            continue
        verdicts = [image.starts(program) for image in images]
        facts = [v[0] for v in verdicts if v is not None and v[1] == CERTAIN]
        if facts and len(facts) == len(verdicts):
            said = f"README says a container of the image starts into {program}"
            yield Diagnostic(auditor.path, line, f"{said} but {facts[0]}", confidence=LIKELY)


def _claims(
    text: str, line: int, images: list[Image], auditor: Auditor, told_users: set[int] | None = None
) -> Iterator[Diagnostic]:
    """The findings of one sentence (`text`, at README `line`); the line of a user claim reported goes
    into `told_users`."""
    if of_another(text):
        return
    health = _HEALTH.search(text)
    if health and _HEALTH_HELD.search(text) and not _ENDPOINT.search(text) and not is_example(text, health):
        verdicts = [image.health() for image in images]
        if all(v is not None for v in verdicts):
            said = "says the image has a health check"
            yield _finding(auditor, line, said, verdicts)
    said_ports = [
        (not m.group(1).lower().startswith("expose"), m.group(2))
        for m in _PORT_CLAIM.finditer(text)
        if not is_example(text, m)
    ] + [(True, m.group(1)) for m in _SERVES_CLAIM.finditer(text) if not is_example(text, m)]
    for listens, ports in said_ports:
        for port in _PORT.findall(ports):
            verdicts = [image.port(port, listens) for image in images]
            if all(v is not None for v in verdicts):
                said = (
                    f"says the container listens on port {port}"
                    if listens
                    else f"says the image exposes port {port}"
                )
                yield _finding(auditor, line, said, verdicts)
    for match in _USER_CLAIM.finditer(text):
        if is_example(text, match):
            continue
        kind, after, named, before = match.groups()
        given = after or named or before
        names = {given.lower()} if given else set()
        uid = _UID.match(text, match.end())
        if uid and names:
            names.add(uid.group(1))
        root = kind is not None and kind.lower() == "root"
        claim = f"user {given}" if given else ("root" if root else "a non-root user")
        verdicts = [image.user(names, root) for image in images]
        if all(v is not None for v in verdicts):
            if told_users is not None:
                told_users.add(line)
            yield _finding(auditor, line, f"says the image runs as {claim}", verdicts)
        elif not root and not names and (rooted := _rooted_sibling(text, images, verdicts)):
            if told_users is not None:
                told_users.add(line)
            yield rooted.diagnostic(auditor.path, line)
    if not _USER_CLAIM.search(text):
        for match in _LISTED_USER.finditer(text):
            given = next(g for g in match.groups() if g)
            if _UID.match(text, match.end()):
                continue  # a name with its id: `user_names` compares the user made with that id
            verdicts = [image.user({given.lower()}, False) for image in images]
            if not is_example(text, match) and all(v is not None for v in verdicts):
                if told_users is not None:
                    told_users.add(line)
                yield _finding(auditor, line, f"says the image runs as user {given}", verdicts)
    yield from _start_claims(text, line, images, auditor)


def _start_claims(text: str, line: int, images: list[Image], auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of one sentence's working directory and entrypoint or default command claims."""
    for match in WORKDIR_CLAIM.finditer(text):
        if is_example(text, match):
            continue
        path = match.group(1) or match.group(2)
        verdicts = [image.workdir(path) for image in images]
        if all(v is not None for v in verdicts):
            yield _finding(auditor, line, f"says the working directory is {path}", verdicts)
    for match in _START_CLAIM.finditer(text):
        entrypoint, command, keyword, code, linked = match.groups()
        said = code if code is not None else posixpath.basename(linked)
        program = _PROGRAM_WORD.search(said)
        if program is None or is_example(text, match) or "$" in said or "<" in said:
            continue
        named = (entrypoint or command or keyword).lower()
        which = "entrypoint" if named == "entrypoint" else "default command"
        verdicts = [image.starts(said) for image in images]
        if all(v is not None for v in verdicts):
            yield _finding(auditor, line, f"says the {which} is {said}", verdicts)


@dataclass(frozen=True)
class _Rooted:
    """An image of a family that runs as root (`fact`), said with a sibling that does not (`other`)."""

    fact: str
    other: str

    def diagnostic(self, readme: str, line: int) -> Diagnostic:
        message = (
            "README says the image runs as a non-root user, of every image it documents here (no words "
            f"name one), but {self.fact}, while {self.other}"
        )
        return Diagnostic(readme, line, message, confidence=LIKELY)


def _rooted_sibling(text: str, images: list[Image], verdicts: list[tuple[str, str] | None]) -> _Rooted | None:
    """For a sentence saying the image runs as a non-root user in a part of the README about several
    images (`- Runs as non-root user` under `## Features` of a page about a `cpu` and a `cuda` tag): the
    first of them that runs as root on a plain base (no USER, no entrypoint dropping privileges) while
    another sets a non-root USER. The sentence says it of each of them, not of whichever agrees: None
    when it names one of them (`the CUDA image runs as …`), when one may be built on another (a FROM
    naming a Dockerfile of the family, or an image no table of docgen's knows: a base image of the
    family sets no USER, its children do), or when no sibling sets a USER."""
    if len(images) < 2:
        return None
    words = {w.lower() for w in re.findall(r"[\w.+-]+", text)}
    if any(image_names(image.model.path) & words for image in images):
        return None
    models = [image.model for image in images]
    bases = OwnBases(models)
    if any(
        bases(model) is not None or not image.root_base for model, image in zip(models, images, strict=True)
    ):
        return None  # an image built on another (or on an image docgen does not know): the children's user
    rooted = next((v[0] for v in verdicts if v is not None and v[0].endswith("sets no USER (root)")), None)
    setting = next(
        (
            (image.model.path, user)
            for image, v in zip(images, verdicts, strict=True)
            if v is None and (user := image.last("USER")) is not None
        ),
        None,
    )
    if rooted is None or setting is None:
        return None
    path, user = setting
    return _Rooted(rooted, f"{path}:{user.line} sets USER {user.value}")


def _finding(auditor: Auditor, line: int, claim: str, verdicts: list[tuple[str, str] | None]) -> Diagnostic:
    """`README {claim} but {the first image's fact}`, `certain` when every image sets a value of its own
    that differs, else `likely`."""
    said = [v for v in verdicts if v is not None]
    confidence = CERTAIN if all(sure == CERTAIN for _, sure in said) else LIKELY
    return Diagnostic(auditor.path, line, f"README {claim} but {said[0][0]}", confidence=confidence)


class Image:
    """The settings of the image one model builds: the target stage's and those of the stages it
    builds on, and whether its base is a plain OS image (which sets none of them)."""

    def __init__(self, model: ImageModel, target: Stage | None = None) -> None:
        self.model = model
        chain = model.chain(target)
        self.root = chain[-1] if chain else None  # the stage built FROM the base image
        self.top = chain[0].label if chain else ""  # the stage built: its ENV values are the container's
        self.labels = {s.label for s in chain}
        self.indexes = {s.index for s in chain}
        self.settings = [s for s in model.settings if s.stage in self.labels]
        base = self.root.base if self.root is not None else ""
        self.plain = is_plain(base) or base.split("@", 1)[0].lower() == "scratch"
        self.root_base = self.plain or runs_as_root(base)  # a base that sets no USER

    def last(self, keyword: str) -> Setting | None:
        return next((s for s in reversed(self.settings) if s.keyword == keyword), None)

    def health(self) -> tuple[str, str] | None:
        """None when the image may have a health check, else why it has none."""
        check = self.last("HEALTHCHECK")
        path = self.model.path
        if check is not None:
            if check.value.split(None, 1)[0].upper() != "NONE":
                return None
            return f"{path}:{check.line} turns it off (HEALTHCHECK NONE)", CERTAIN
        if not self.plain or _compose_says(self.model.file, "healthcheck"):
            return None  # the base image, or a Compose file beside the Dockerfile, may give it one
        return f"{path} has no HEALTHCHECK", LIKELY

    def port(self, port: str, listens: bool) -> tuple[str, str] | None:
        """None when the image may expose (or, for `listens`, serve on) `port`, else why not."""
        exposed = [s for s in self.settings if s.keyword == "EXPOSE"]
        ports = {p for s in exposed for p in _PORT.findall(s.value)}
        mentioned = port in self._mentioned() or (listens and port in self._script_ports)
        if port in ports or (listens and mentioned):
            return None
        if exposed:
            where = f"{self.model.path}:{exposed[-1].line} exposes {', '.join(sorted(ports, key=int))}"
            return where, CERTAIN if self.plain and not listens and not mentioned else LIKELY
        if listens or not self.plain or port in self._mentioned():
            return None  # nothing exposed: the application, or the base, may serve on it
        return f"{self.model.path} exposes no port", LIKELY

    def user(self, names: set[str], root: bool) -> tuple[str, str] | None:
        """None when the image may run as the user claimed (`names`, else root or any non-root user),
        else why not."""
        set_user = self.last("USER")
        path = self.model.path
        if set_user is None:
            if not self.root_base or root or self._drops_privileges():
                return None  # the base may set it, or an entrypoint switches user
            return f"{path} sets no USER (root)", LIKELY
        value = set_user.value.strip().lower()
        user = value.split(":", 1)[0]
        if "$" in user:
            return None
        is_root = value in _ROOT_USERS or user in ("root", "0")
        said = f"{path}:{set_user.line} says USER {set_user.value}"
        if root:
            return None if is_root else (said, CERTAIN)
        if is_root:
            return said, CERTAIN
        if not names or user in names:
            return None
        if user.isdigit() != all(n.isdigit() for n in names):
            return None  # a name against a user id: which id the name has is not known here
        return said, CERTAIN

    def workdir(self, path: str) -> tuple[str, str] | None:
        """None when a container of the image may start in `path`, else where it starts."""
        where = "/"
        last: Setting | None = None
        for setting in self.settings:
            if setting.keyword == "WORKDIR":
                value = setting.value.strip().strip("\"'")
                where = value if value.startswith("/") else f"{where.rstrip('/')}/{value}"
                last = setting
        wanted = path.rstrip("/") or "/"
        if "$" in where or (where.rstrip("/") or "/") == wanted:
            return None
        if last is None:
            return None if not self.plain else (f"{self.model.path} sets no WORKDIR (/)", LIKELY)
        return f"{self.model.path}:{last.line} says WORKDIR {last.value}", CERTAIN

    def starts(self, program: str) -> tuple[str, str] | None:
        """None when the image's ENTRYPOINT or CMD may start `program` (a command: one of its words is
        one of theirs), else what they start. A base image sets both when the Dockerfile does not:
        nothing to compare then."""
        set_here = [s for s in self.settings if s.keyword in ("ENTRYPOINT", "CMD")]
        if not set_here:
            return None
        words = {_program(w) for s in set_here for w in _PROGRAM_WORD.findall(s.value)}
        if started_program(program) in words:
            return None
        shown = "; ".join(f"{s.keyword} {s.value}" for s in set_here[-2:])
        wrapped = any(".sh" in w for w in words)  # a script it runs may start the program
        return f"{self.model.path}:{set_here[-1].line} says {shown}", LIKELY if wrapped else CERTAIN

    @functools.cached_property
    def _run_text(self) -> str:
        return " ".join(s.value for s in self.settings if s.keyword in ("ENTRYPOINT", "CMD", "HEALTHCHECK"))

    def _mentioned(self) -> set[str]:
        """The port numbers the image's ENV values, entrypoint and command give (`--port 8000`)."""
        chain = {s.stage for s in self.settings} | {self.model.target.label if self.model.target else ""}
        values = " ".join(e.value or "" for e in self.model.env if e.stage in chain)
        return set(_PORT.findall(f"{values} {self._run_text}"))

    @functools.cached_property
    def _script_ports(self) -> set[str]:
        """The port numbers on the lines about a port (`port`, `listen`, `bind`) of the scripts the
        image's entrypoint or command starts and of those they start in turn, when a COPY of the
        image takes them from the build context: `app.sh` starting `python3 ready.py`, whose
        `READINESS_PORT` defaults to 3001. The build context is looked for beside the Dockerfile and
        in the two folders above it (`-f Dockerfile/app.Dockerfile .`), never above the folder the
        Dockerfile was named from (its `path` relative to it), nor through a link out of it."""
        if not self.model.file:
            return set()
        found: set[str] = set()
        todo = [(posixpath.basename(word), 0) for word in _SCRIPT_WORD.findall(self._run_text)]
        seen: set[str] = set()
        while todo:
            name, depth = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            text = self._context_script(name)
            if text is None:
                continue
            for line in text.splitlines():
                if _PORT_LINE.search(line):
                    found.update(_PORT.findall(line))
            if depth < 2:
                todo += [(posixpath.basename(word), depth + 1) for word in _SCRIPT_WORD.findall(text)]
        return found

    @functools.cached_property
    def _copied_names(self) -> set[str]:
        """The last parts of the sources the image's COPYs take from the build context: file names
        and patterns (`*.py`)."""
        return {
            posixpath.basename(src.strip("\"'").rstrip("/"))
            for copy in self.model.context_copies
            if copy.stage in self.indexes and not copy.heredoc
            for src in copy.sources
        }

    def _context_script(self, name: str) -> str | None:
        """The text of the script `name` when a COPY of the image takes it from the build context and
        it is there, read as `docgen.copied` reads the copy (a source's folder, no link out of the
        context, the `.dockerignore`): the context looked for at the Dockerfile's folder and the two
        folders above it (`-f Dockerfile/app.Dockerfile .`), never above the folder the Dockerfile was
        named from (its `path` relative to it). None otherwise."""
        if not self.model.file or not any(
            last == name or glob_matches(last, name) for last in self._copied_names
        ):
            return None  # no source names it (a folder copied is not walked for it)
        named = PurePosixPath(self.model.path)
        inside = 0 if named.is_absolute() or ".." in named.parts else len(named.parts) - 1
        folder = Path(self.model.file).parent
        copies = [c for c in self.model.context_copies if c.stage in self.indexes]
        for root in [folder, *list(folder.parents)[: min(2, inside)]]:
            try:
                context = real_path(root)
            except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
                return None
            for copied in copied_files(context, copies, self.model.file):
                if copied.path is not None and copied.name == name:
                    return text_or_none(copied.path)
        return None

    def _written_script(self, name: str) -> str | None:
        """The text of the RUN that writes the script `name` (`echo "…" > /usr/local/bin/start.sh`,
        `cat <<EOF > start.sh`, its heredocs with it): the script's text is in it. None when no RUN
        of the Dockerfile writes a file of that name."""
        read = dockerfile_read(self.model.file) if self.model.file else None
        if read is None:
            return None
        writes = re.compile(
            rf"(?:>>?|\btee(?:[ \t]+-a)?)[ \t]*['\"]?(?:[^\s>]*/)?{re.escape(name)}(?![\w.-])"
        )
        for instruction in read[1].instructions:
            if instruction.keyword == "RUN" and writes.search(instruction.args):
                return " ".join([instruction.args, *(h.body for h in instruction.heredocs)])
        return None

    def _drops_privileges(self) -> bool:
        """True when what starts the container may switch to another user: a tool that changes user
        (`gosu`, `su-exec`, `runuser`, `setpriv`) in its entrypoint or command or among the image's
        components, or a script it starts whose text docgen cannot read (not copied from the build
        context, not written by a RUN), that changes user, or that starts another script."""
        text = self._run_text + " " + " ".join(c.name for c in self.model.components)
        if _SWITCH_TOOL.search(text):
            return True
        for word in _STARTER.findall(self._run_text):
            name = posixpath.basename(word)
            script = self._context_script(name) or self._written_script(name)
            if script is None or _SWITCH_TOOL.search(script):
                return True
            if any(posixpath.basename(other) != name for other in _STARTER.findall(script)):
                return True
        return False


_SWITCH_TOOL = re.compile(r"gosu|su-exec|runuser|setpriv|\bsu\b|sudo|\bs6|supervisor")
"""A tool that starts a program as another user (or a supervisor that may)."""
_STARTER = re.compile(r"(?<![\w./-])(?:[\w./-]*entrypoint[\w./-]*|[\w./-]+\.sh\b)", re.IGNORECASE)
"""A script an entrypoint or command starts (`/usr/local/bin/start.sh`, `docker-entrypoint`)."""


_LAUNCHERS = frozenset(
    {"python", "bash", "sh", "node", "exec", "env", "tini", "dumb-init", "uv", "run", "poetry", "java"}
)
"""Words that start another program: a command's program is the next word (`python serve.py`)."""


def started_program(command: str) -> str:
    """The program a command starts, as `_program` gives it: `python3 -m serve` is `serve`, `uvicorn
    app:main` `uvicorn`, `tini -- llama-server` `llama-server`."""
    words = [w for w in command.split() if not w.startswith("-")]
    for word in words:
        program = _program(word)
        if program not in _LAUNCHERS:
            return program
    return _program(words[0]) if words else ""


def _program(word: str) -> str:
    """A word of a command as compared: its file name, lower case, without a version (`python3.11` is
    `python`)."""
    return re.sub(r"(?<=[a-z])[\d.]+\Z", "", word.rsplit("/", 1)[-1].lower())


def _compose_says(file: str, key: str) -> bool:
    """True when a Compose file next to the Dockerfile at `file` has `key:` (`healthcheck:`), or the
    Dockerfile's folder is not known. A Compose file linked out of that folder is not read."""
    return _compose_holds(file, re.compile(rf"^[ \t]*{key}[ \t]*:", re.MULTILINE))


def _compose_holds(file: str, pattern: re.Pattern[str]) -> bool:
    """True when a Compose file next to the Dockerfile at `file` holds `pattern`, or the Dockerfile's
    folder is not known (`_compose_says`)."""
    if not file:
        return True
    folder = Path(file).parent
    top = real_path(folder)
    try:
        candidates = [p for p in folder.iterdir() if COMPOSE_FILE.fullmatch(p.name)]
        for candidate in candidates:
            if not resolves_inside(candidate, top):
                continue
            if os.path.isfile(candidate) and candidate.stat().st_size <= MAX_FILE_BYTES:
                if pattern.search(candidate.read_text(encoding="utf-8", errors="replace")):
                    return True
    except OSError:
        return True
    return False


# --------------------------------------------------------------------------------------------------
# The port a variant of the family is said to listen on

_VARIANT_PORT = re.compile(
    r"(?<![\w.+-])([A-Za-z][\w.+-]{1,20})[ \t]+(?:version|variant|image|container|build|flavou?r)[ \t]+"
    r"(?:by[ \t]+default[ \t]+)?(?:runs|listens|serves|is[ \t]+served|is[ \t]+available)[ \t]+"
    r"(?:by[ \t]+default[ \t]+)?on[ \t]+(?:the[ \t]+)?(?:tcp[ \t]+|http[ \t]+)?port[ \t]+`?(\d{2,5})`?"
    r"(?![\w:]|\.\d)"
    r"|(?<![\w.+-])([A-Za-z][\w.+-]{1,20})[ \t]*(?:版本|版|镜像|容器)[ \t]*(?:默认)?[ \t]*"
    r"(?:运行|监听|服务)[ \t]*(?:在|于)?[ \t]*(?:端口|port)[ \t]*[:：]?[ \t]*`?(\d{2,5})`?(?!\d)",
    re.IGNORECASE,
)
"""`The GPU version runs on port 8001 by default`, `GPU 版本默认运行在端口 8001` (the GPU version runs on
port 8001 by default): the port a container of one variant of the family serves on."""
_GPU_VARIANTS = frozenset({"cuda", "rocm", "gpu", "nvidia", "xpu"})
"""The variants of a Dockerfile's name a README calls its GPU one (`Dockerfile.cuda`)."""


def _variant_models(word: str, auditor: Auditor) -> list[ImageModel]:
    """The images compared that the variant `word` names: those whose Dockerfile's name has it
    (`cuda` for `Dockerfile.cuda`), or for `GPU` those of a GPU variant; none when the word names
    none (another image, a word that is no variant)."""
    word = word.lower()
    named = [m for m in auditor.models if word in image_names(m.path)]
    if named or word != "gpu":
        return named
    return [m for m in auditor.models if image_names(m.path) & _GPU_VARIANTS]


def variant_port_claims(doc: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A port the README says one variant of the family listens on (`_VARIANT_PORT`) that its
    Dockerfile neither exposes nor gives its server (`Image.port`): `likely`. Only among several
    images compared; the port is a host's when the README or a Compose file beside the Dockerfile maps
    it (`-p 8001:8000`, `"8001:8000"`)."""
    if len(auditor.models) < 2:
        return
    for para in doc.paragraphs:
        if "port" not in " ".join(t for _, t in para.lines).lower() and "端口" not in " ".join(
            t for _, t in para.lines
        ):
            continue  # (most paragraphs)
        for start, _end, sentence in sentences(para.lines):
            if _NOT_A_CLAIM.search(sentence):
                continue
            for match in _VARIANT_PORT.finditer(sentence):
                word = match.group(1) or match.group(3)
                port = match.group(2) or match.group(4)
                models = _variant_models(word, auditor)
                if not models or len(models) == len(auditor.models) or _host_port(port, text, models):
                    continue
                verdicts = [Image(model).port(port, True) for model in models]
                if all(v is not None for v in verdicts):
                    at = line_at(para.lines, start + match.start())
                    said = f"says the {word} image listens on port {port}"
                    yield _finding(auditor, at, said, verdicts)


def _host_port(port: str, text: str, models: list[ImageModel]) -> bool:
    """True when `port` is published as a host's port (`-p 8001:8000`, `- "8001:8000"`) in the README's
    `text` or a Compose file beside one of the Dockerfiles of `models`."""
    pattern = re.compile(rf"(?<![\w.:-]){port}:\d{{2,5}}\b")
    return pattern.search(text) is not None or any(_compose_holds(m.file, pattern) for m in models)


# --------------------------------------------------------------------------------------------------
# ENV NAME cited in prose

_ENV_CITED = re.compile(
    r"(?<![\w-])ENV[ \t]+`?([A-Za-z_][A-Za-z0-9_]*)\b"
    r"|(?i:\b(?:image|Dockerfile|container)[ \t]+sets[ \t]+(?:the[ \t]+)?)`([A-Za-z_][A-Za-z0-9_]*)`"
    r"|(?i:\benv(?:ironment)?[ \t]+var(?:iable)?[ \t]+)`([A-Za-z_][A-Za-z0-9_]*)`"
)
"""An ENV variable of the image named in prose: `(see Dockerfile: ENV venv_dir)`, `the image sets
`VENV_DIR``, `the environment variable `VENV_DIR``."""


def env_name_claims(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """An ENV variable a line cites (`_ENV_CITED`) that no ENV or ARG of the Dockerfiles sets, while
    an ENV of a name a slip away does (`near_names`: `venv_dir` for `VENVDir`): the name is wrong.
    `certain` when cited as an instruction (`ENV venv_dir`), else `likely` (a variable the user sets
    at run time may be meant)."""
    if "ENV" not in text and "`" not in text:
        return
    envs: dict[str, tuple[ImageModel, int]] = {}
    for model in auditor.models:
        for env in model.env:
            envs.setdefault(env.name, (model, env.line))
    if not envs:
        return
    args = {decl.name for model in auditor.models for decl in model.args}
    for match in _ENV_CITED.finditer(text):
        name = next(group for group in match.groups() if group)
        if name in envs or name in args or is_example(text, match):
            continue
        near = near_names(name, envs)
        if not near:
            continue
        model, at = envs[near[0]]
        yield Diagnostic(
            auditor.path,
            line,
            f"README names ENV {name}, which {model.path} does not set; {model.path}:{at} sets {near[0]}",
            confidence=CERTAIN if match.group(1) else LIKELY,
        )


def command_text(setting: Setting) -> str:
    """An ENTRYPOINT or CMD as one command line: the exec form's words joined with spaces."""
    return setting.value if setting.exec_form is None else " ".join(setting.exec_form)
