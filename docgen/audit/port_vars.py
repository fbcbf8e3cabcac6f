"""A port variable the README says sets the container's port (`PORT`, `APP_PORT`, `API_SERVER_PORT`)
while the server the image starts is given a fixed port and nothing of the image reads the variable.

The README's claim is one of: an entry of a table or list under an environment-variables heading, a
sentence telling the user to set it (`` Set the `PORT` environment variable to change the port ``), or
`-e PORT=9000` in a `docker run` of an image the README builds (`run_time` reads all three). The fact:
the image's ENTRYPOINT or CMD, or the shell script of the build context it starts, runs a server
launcher that takes its port on the command line (uvicorn, gunicorn with `--bind`, hypercorn, granian,
streamlit, flask, fastapi, vLLM, SGLang, text-generation-launcher, llama-server) with a number
(`--port 8000`, `--bind 0.0.0.0:8000`), and the variable's name appears nowhere in the ENTRYPOINT, CMD,
the start script, ENV values or RUN lines: a value set at run time changes nothing.

Silent when something may read it (`${PORT:-8000}` in a shell-form CMD, a start script reading `$PORT`,
an ENV passing it on, a RUN that writes a script), when the launcher takes no fixed port
(gunicorn with no `--bind` reads `$PORT` itself), when the image has no ENTRYPOINT of its own and its base
is one docgen does not know (its entrypoint may read it), or an ENTRYPOINT docgen cannot read (a program,
not a script of the build context, nor an init such as tini) runs the CMD, and for a `-e` value equal to
the fixed port. The application's own files do not count: a launcher given `--port 8000` listens there
whatever the application reads.
Each finding is `likely`: the claim may be about another image of the project.

And a `docker run` that moves a port variable off the container port it publishes (`moved_ports`: `-e
JUPYTER_PORT=8000 -p 8000:8888`, the image defaulting JUPYTER_PORT to 8888).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.commands import fence_commands, joined, joined_line, joined_starts
from docgen.audit.names import compose_files, docker_run, image_at
from docgen.audit.paths import resolves_inside
from docgen.audit.preset_env import folder_files
from docgen.audit.run_time import (
    RunImage,
    env_entries,
    run_options,
    runs_ours,
    told_to_set,
)
from docgen.audit.settings import LAUNCHER, command_text
from docgen.base_contents import family_name
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_PORT_NAME = re.compile(
    r"\A(?:(?:APP|API|WEB|HTTP|SERVER|SERVICE|LISTEN|UVICORN|GUNICORN|WEBUI|UI)_){0,2}PORT\Z"
)
"""Names of a variable that sets the port a server listens on (`PORT`, `APP_PORT`, `API_SERVER_PORT`);
not one of another program (`MASTER_PORT`, `REDIS_PORT`, `VLLM_PORT`)."""
_PORT_WORD = r"(\d{2,5}\b|\$\{?[A-Za-z_]\w*\}?)"
_FIXED_PORT = re.compile(
    rf"(?<!-)--(?:server\.)?port(?:[ \t]*=[ \t]*|[ \t]+)[\"']?{_PORT_WORD}"
    rf"|(?:^|[ \t])(?:--bind|-b|--listen)(?:[ \t]*=[ \t]*|[ \t]+)[\"']?[\w.\[\]:-]*:{_PORT_WORD}"
)
"""The port given on the command line: a fixed one (`--port 8000`, `--server.port=8501`, `--bind
0.0.0.0:8000`) or another variable's, with no default (`--port ${VLLM_PORT}`, `--bind :$APP_PORT`)."""
_CONTINUED = re.compile(r"\\\n[ \t]*")


def port_var_claims(part: Document, whole: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of the part's port variables that every image compared ignores (module docstring)."""
    images = [RunImage(model) for model in auditor.models]
    if not images:
        return
    said: set[tuple[int, str]] = set()
    claims: list[tuple[int, str, str, str | None]] = []
    for line, name in env_entries(part, whole):
        claims.append((line, name, "documents", None))
        said.add((line, name))
    for line, name in told_to_set(part):
        if (line, name) not in said:
            claims.append((line, name, "tells to set", None))
    ours = runs_ours(auditor)
    for line, name, _user, image in run_options(part):
        if name and image and ours(image):
            given = re.search(rf"(?<![\w$]){name}=[\"']?(\d{{2,5}})\b", _line_text(part, line))
            claims.append((line, name, f"passes (`docker run … {image}`)", given.group(1) if given else None))
    for line, name, how, value in claims:
        if not _PORT_NAME.match(name):
            continue
        facts = [_ignores(image, name) for image in images]
        if not facts or any(f is None for f in facts):
            continue
        where, port = facts[0] or ("", "")
        if value is not None and value == port:
            continue  # the value passed is the port the server listens on anyway
        yield Diagnostic(
            auditor.path,
            line,
            f"README {how} {name} for the port the container listens on, but {where} starts the server on "
            f"{_shown_port(port)} and nothing the image runs reads {name}",
            confidence=LIKELY,
        )


def _shown_port(port: str) -> str:
    """`fixed port 8000`, or `the port of ${VLLM_PORT}` for another variable's."""
    return f"the port of {port}" if port.startswith("$") else f"fixed port {port}"


def _line_text(part: Document, line: int) -> str:
    """The text of README line `line` in one of the part's command blocks ('' when none holds it)."""
    return next((text for fence in part.fences for n, text in fence.lines if n == line), "")


def _ignores(image: RunImage, name: str) -> tuple[str, str] | None:
    """(where the server is started, its fixed port) when the image starts a launcher on a fixed port and
    nothing it runs before the launcher reads `name`; None when it may read it or docgen cannot tell.
    The application's own files do not count: a launcher given `--port 8000` listens there whatever the
    application reads (its `main()`, which reads `SERVER_PORT`, is not what runs)."""
    word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    commands = image.commands()
    script = image.script()
    started = (text_or_none(script[1]) or "") if script is not None else ""
    if any(word.search(command_text(s)) for s in commands) or word.search(started):
        return None  # what the container starts reads it
    if any(word.search(value) for value in image.values.values()):
        return None  # an ENV passes it on (`ENV UVICORN_PORT=${PORT}`)
    if any(word.search(run.original or run.args) for run in image._runs):
        return None  # a RUN may write a script that reads it
    entry = image.last("ENTRYPOINT")
    if entry is None and (image.root is None or family_name(image.root.base) is None):
        return None  # the base's entrypoint, which docgen cannot see, may read it
    found: tuple[str, str] | None = None
    for setting in commands:
        port = _fixed_port(command_text(setting))
        if port is not None:
            found = f"{image.model.path}:{setting.line} ({setting.keyword})", port
            break
    if found is None and script is not None:
        for command in _CONTINUED.sub(" ", started).splitlines():
            if not command.lstrip().startswith("#") and (port := _fixed_port(command)) is not None:
                found = f"{script[0]}, which its ENTRYPOINT or CMD runs,", port
                break
    if (
        found is not None
        and entry is not None
        and script is None
        and _fixed_port(command_text(entry)) is None
        and not _INIT.match(command_text(entry))
    ):
        return None  # an ENTRYPOINT docgen cannot read may rewrite the command (`entrypoint.py`)
    return found


_INIT = re.compile(r"\A[ \t]*(?:/\S*/)?(?:tini|dumb-init|catatonit)\b")
"""An init process as the ENTRYPOINT: it runs the CMD as given."""


def _fixed_port(command: str) -> str | None:
    """The fixed port a server launcher of `command` is given (`uvicorn app:app --port 8000`), if any."""
    launcher = LAUNCHER.search(command)
    if launcher is None:
        return None
    found = _FIXED_PORT.search(command, launcher.end())
    if found is None:
        return None
    port = next(g for g in found.groups() if g)
    if port.startswith("$"):
        name = port.strip("${}")
        rest = command[found.end() :]
        if rest.startswith((":", "-")) or not _NAMED.fullmatch(name):
            return None  # (`${PORT:-8000}` has a default; `$1` an argument)
        return f"${{{name}}}"
    return port


_NAMED = re.compile(r"[A-Z][A-Z0-9_]*")


_ANY_PORT_NAME = re.compile(r"(?:[A-Z0-9]+_)*PORT")
"""A variable named for a port (`JUPYTER_PORT`, `PORT`); a finding needs the image to default it to the
port the run publishes, so a port of another program is not taken for the server's."""
_SET_PORT = re.compile(
    r"(?:^|[\s\[(])(?:-e|--env)(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)=[\"']?(\d{2,5})(?=[\"']?(?:\s|$))"
)
_PUBLISHED = re.compile(
    r"(?:^|[ \t])(?:-[dit]{0,3}p|--publish)(?:[ \t]+|=)[\"']?"
    r"(?:(?:\d{1,3}(?:\.\d{1,3}){3}|localhost):)?(?:\d{1,5}:)?(\d{1,5})(?:/tcp)?(?=[\"']?(?:\s|$))"
)


def moved_ports(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A `docker run` that sets a port variable of the image to another port (`-e JUPYTER_PORT=8000`)
    while it publishes the container port that variable defaults to (`-p 8000:8888`, the entrypoint
    script the image starts saying `${JUPYTER_PORT:-8888}`, or `ENV JUPYTER_PORT=8888`) and not the
    new one: the server moves to 8000 inside the container, and the published 8888 reaches nothing
    (`likely`: the default is read from the image, the server's use of it is not). The image is one of
    those compared whose default it is (every image compared that names the variable gives it that
    default); not when the run shares the host's network or publishes every port (`-P`)."""
    images = [RunImage(model) for model in auditor.models]
    if not images:
        return
    for fence in part.fences:
        for command in fence_commands(fence):
            text = joined(command)
            if "PORT=" not in text or (run := docker_run(text)) is None:
                continue
            start, image = run
            end = image_at(text, start, image)
            options = text[start : end if end >= 0 else len(text)]
            if re.search(r"--net(?:work)?[ =]+host|(?:^|\s)(?:-P|--publish-all)\b", options):
                continue
            published = [m.group(1) for m in _PUBLISHED.finditer(options)]
            for match in _SET_PORT.finditer(options):
                name, value = match.group(1), match.group(2)
                if not _ANY_PORT_NAME.fullmatch(name) or value in published:
                    continue
                defaults = [d for i in images if (d := _default_of(i, name)) is not None]
                if not defaults or len({d[0] for d in defaults}) != 1 or defaults[0][0] not in published:
                    continue
                port, where = defaults[0]
                line = joined_line(command, joined_starts(command), start + match.start(1))
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README sets {name}={value} and publishes container port {port}, but {where} makes "
                    f"{name} the port the container listens on ({port} by default): the server moves to "
                    f"{value}, which is not published, and container port {port} reaches nothing",
                    confidence=LIKELY,
                )


def _default_of(image: RunImage, name: str) -> tuple[str, str] | None:
    """(port, where) the image gives variable `name` as its default: `${NAME:-8888}` in the script its
    ENTRYPOINT or CMD starts, else an ENV or ARG value that is a port number."""
    script = image.script()
    if script is not None:
        text = text_or_none(script[1]) or ""
        found = re.search(rf"\$\{{{re.escape(name)}:?-[\"']?(\d{{2,5}})[\"']?\}}", text)
        if found is not None:
            line = text.count("\n", 0, found.start()) + 1
            shown = script[0]
            if image.model.file:
                relative = os.path.relpath(script[1], os.path.dirname(image.model.file))
                shown = relative if not relative.startswith("..") else shown
            return found.group(1), f"{Path(shown).as_posix()}:{line}"
    value = image.values.get(name, "")
    number = re.fullmatch(r"[\"']?(?:\$\{\w+:-)?(\d{2,5})\}?[\"']?", value)
    if number is not None:
        return number.group(1), f"{image.model.path} (ENV {name})"
    return None


# --------------------------------------------------------------------------------------------------
# A port variable of a container a compose service starts with a script of the project

_STARTED_SCRIPT = re.compile(r"(?:^|[\s\[,'\"])((?:\.{0,2}/)?(?:[\w.-]+/)*[\w.-]+\.sh)(?=[\s\],'\"]|$)")
"""The script a compose service's `command:` or `entrypoint:` runs (`[/entrypoint.sh]`, `bash ./start.sh`)."""
_MOUNT = re.compile(r"(?:^|[\s\[,])(\.{1,2}/[\w./-]+):(/[\w./-]+)")
"""A bind mount of a file of the project: `./entrypoint.sh:/usr/local/bin/start.sh`."""
_ENTRY_NAME = re.compile(r"[ \t]*`([A-Z][A-Z0-9_]*)`")
"""A heading that is a variable's entry (`### `PORT` : int`)."""
_SAID_DEFAULT = re.compile(
    r"\bdefault(?:s)?(?:[ \t]+(?:is|to|of|port))?[ \t]*[:=]?[ \t]*`?(\d{2,5})\b`?", re.I
)
"""A default port said in an entry's words: `(default 6919)`, `Default: `8000``."""
_MAX_START = 200_000
"""Bytes of a started script read."""


def _compose_starts(directory: Path, project: Path | None) -> list[tuple[str, str, str, Path]]:
    """(compose file as shown, service, script as shown, the script's file) of each service of the
    compose files of the README's folder whose `command:` or `entrypoint:` runs a shell script of the
    project: one the service bind-mounts from the project at the path it runs, else one of that name
    in the folder of its `build:` context."""
    found: list[tuple[str, str, str, Path]] = []
    for composed in compose_files(directory, (), project):
        base = directory / posixpath.dirname(composed.shown)
        for service in composed.services:
            settings = dict(service.settings)
            start = settings.get("entrypoint") or settings.get("command") or ""
            match = _STARTED_SCRIPT.search(start)
            if match is None:
                continue
            run = match.group(1)
            file: Path | None = None
            for mount in _MOUNT.finditer(settings.get("volumes", "")):
                if mount.group(2) == run or (not run.startswith("/") and mount.group(2).endswith("/" + run)):
                    file = base / mount.group(1)
            if file is None and service.context is not None and "$" not in service.context:
                file = base / service.context / posixpath.basename(run)
            if file is None or not os.path.isfile(file) or not resolves_inside(file, (project or directory)):
                continue
            shown = Path(os.path.relpath(file, directory)).as_posix()
            found.append((composed.shown, service.name, shown, file))
    return found


def _logical(script: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each line of a shell script, a line continued with `\\` joined to the next."""
    held: list[str] = []
    first = 0
    for number, line in enumerate(script.splitlines(), 1):
        if not held:
            first = number
        if line.endswith("\\"):
            held.append(line[:-1])
            continue
        yield first, " ".join([*held, line])
        held = []
    if held:
        yield first, " ".join(held)


def _port_claims(doc: Document, lines: list[str]) -> Iterator[tuple[int, str, str, str | None]]:
    """(line, NAME, how the README says it, the port it gives or None) of each port variable the
    README documents (a table or list of environment variables, a heading that is the variable's name),
    tells to set or passes with `docker run -e NAME=…`."""
    for line, name in env_entries(doc, doc):
        yield line, name, "documents", None
    for line, title in doc.headings:
        if (entry := _ENTRY_NAME.match(title)) is not None:
            yield line, entry.group(1), "documents", None
    for line, name in told_to_set(doc):
        yield line, name, "tells to set", None
    for line, name, _user, image in run_options(doc):
        if name and image:
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            given = re.search(rf"(?<![\w$]){name}=[\"']?(\d{{2,5}})\b", text)
            yield line, name, f"passes (`docker run … {image}`)", given.group(1) if given else None


def compose_start_ports(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """A port variable the README says sets the container's port (`PORT`: an entry of its environment
    variables, `-e PORT=6920`) while the shell script a compose service of its folder starts
    (`command: ["/entrypoint.sh"]`, the script beside it) runs a server launcher on a fixed port or on
    another variable's (`uvicorn … --port ${VLLM_PORT}`), and no file of the folder (not Markdown: the
    script, the compose file, a Dockerfile) names the variable: a value set changes nothing (`likely`:
    the README may be about another image). A default the entry gives that port (`(default 6919)`)
    while the launcher's variable has no default there and no file of the folder writes that number is
    a finding of its own, at the line saying it. Once per variable, at its first claim."""
    starts = _compose_starts(directory, project)
    if not starts:
        return
    lines = text.splitlines()
    claims = sorted({c for c in _port_claims(doc, lines) if _PORT_NAME.match(c[1])}, key=lambda c: c[0])
    if not claims:
        return
    launched: list[tuple[str, str, str]] = []  # (where, port, script text)
    for composed, service, shown, file in starts:
        script = text_or_none(file, _MAX_START)
        if script is None:
            continue
        for number, command in _logical(script):
            if not command.lstrip().startswith("#") and (port := _fixed_port(command)) is not None:
                where = f"{shown}:{number} (which service {service} of {composed} starts)"
                launched.append((where, port, script))
                break
    if len(launched) != len(starts):
        return  # (a service starts a script docgen cannot read, or one with no launcher on a port)
    folders = tuple(dict.fromkeys(real_path(file.parent) for *_, file in starts))
    texts = [t for _, t in folder_files(folders)]
    done: set[str] = set()
    for line, name, how, value in claims:
        if name in done:
            continue
        done.add(name)
        word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
        if any(word.search(t) for t in texts):
            continue  # (something of the project may read it)
        where, port, _script = launched[0]
        if value is not None and value == port:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README {how} {name} for the port the container listens on, but {where} runs the server on "
            f"{_shown_port(port)} and nothing of the project reads {name}",
            confidence=LIKELY,
        )
        yield from _said_default(readme, lines, line, name, launched[0], texts)


def _said_default(
    readme: str, lines: list[str], line: int, name: str, launched: tuple[str, str, str], texts: list[str]
) -> Iterator[Diagnostic]:
    """The default port the README's entry of `name` gives (its line or the two after it) when the
    launcher's port is another variable's with no default and no file of the folder writes that number."""
    where, port, _script = launched
    if not port.startswith("$"):
        return
    for at in range(line, min(line + 3, len(lines) + 1)):
        said = _SAID_DEFAULT.search(lines[at - 1])
        if said is None:
            continue
        number = said.group(1)
        if any(re.search(rf"(?<!\d){number}(?!\d)", t) for t in texts):
            return
        yield Diagnostic(
            readme,
            at,
            f"README says {name} defaults to {number}, but {where} runs the server on {_shown_port(port)}, "
            f"which has no default there, and no file of the project gives {number}",
            confidence=LIKELY,
        )
        return
