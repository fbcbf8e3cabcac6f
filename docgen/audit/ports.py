"""The container port a README's `docker run -p HOST:CONTAINER` publishes for the image the README
builds, against the ports the image serves on: its EXPOSE, and the port numbers its ENV values,
ENTRYPOINT and CMD give, and the scripts from the build context those start (`settings._Image`). The
image is the Dockerfile the build command that tags it names with `-f`, whatever section the run is in.

A mapping's host side is the user's choice; its container side is a claim about the image: the
application inside listens there. When the image exposes other ports and names the published one
nowhere, the README still publishes the port the image used to serve on (`likely`: a configuration
file the Dockerfile does not show may set it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, _Auditor
from docgen.audit.commands import _FILE_FLAG, fence_commands, joined
from docgen.audit.names import _BUILDS, _TAG_FLAG, _repository, docker_run
from docgen.audit.paths import path_named
from docgen.audit.settings import _Image
from docgen.markdown import Document
from docgen.model import Diagnostic

_PUBLISH = re.compile(
    r"(?:^|[ \t])(?:-p|--publish)(?:[ \t]+|=)[\"']?"
    r"(?:(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|localhost):)?(?:(\d{1,5}):)?(\d{1,5})(?:/(?:tcp|udp))?"
    r"(?=[\"']?(?:\s|$))"
)
"""A published port (`-p 8080:8000`, `--publish=127.0.0.1:8080:8000/tcp`, `-p 8000`): group 2 is the
container's side. A range (`8000-8010:8000-8010`) or a variable (`$PORT:8000`) is no match."""
_HOST_NETWORK = re.compile(r"--net(?:work)?(?:[ \t]+|=)[\"']?host\b")
"""`--network host`: Docker ignores `-p` with it."""
_NUMBER = re.compile(r"(?<![\w.])\d{2,5}(?![\w.])")


def _published_ports(part: Document, whole: Document, auditor: _Auditor) -> Iterator[Diagnostic]:
    """Each `docker run` of `part`'s command blocks that runs an image a `docker build -t` of the README
    (`whole`) tags and publishes a container port (`-p 8080:8000`) that every image compared exposes
    none of, while it exposes others, and names nowhere in its ENV values, ENTRYPOINT or CMD; the run
    command itself must not name the port elsewhere (`--port 8000`, `-e PORT=8000`)."""
    built = _built_repositories(whole)
    if not built:
        return
    paths = [model.path for model in auditor.family]
    for fence in part.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            run = docker_run(command)
            if run is None or _HOST_NETWORK.search(command) or _repository(run[1]) not in built:
                continue
            start, image = run
            # the image a build command of the README tags: the Dockerfile its `-f` names, whatever
            # the section of the run is about (`-f Dockerfile/app.Dockerfile -t run-ai/vllm:…`)
            files = built[_repository(image)]
            named = {path_named(file, paths) if file is not None else None for file in files}
            if None in named:
                images = [_Image(model) for model in auditor.models]
            else:
                images = [
                    _Image(auditor.family[index]) for index in sorted(i for i in named if i is not None)
                ]
            options = command.find(image, start)  # what follows the image is its command's
            for match in _PUBLISH.finditer(command, start, options):
                port = match.group(2)
                rest = command[: match.start()] + " " + command[match.end() :]
                if port in _NUMBER.findall(rest):
                    continue  # the command sets the port itself (`--port 8000`, `-e PORT=8000`)
                verdicts = [image_.port(port, listens=True) for image_ in images]
                if not verdicts or any(v is None for v in verdicts):
                    continue
                line = next((n for n, text in lines if match.group(0).strip() in text), lines[0][0])
                where = verdicts[0][0] if verdicts[0] else ""
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README publishes container port {port} of {image}, but {where} "
                    f"and names {port} nowhere in its ENV, ENTRYPOINT or CMD",
                    confidence=LIKELY,
                )


def _built_repositories(doc: Document) -> dict[str, set[str | None]]:
    """The repositories the README's `docker build -t` commands tag → the Dockerfiles those commands
    name with `-f` (None: a command that names none, or names one through a variable)."""
    built: dict[str, set[str | None]] = {}
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if not _BUILDS.search(command):
                continue
            flag = _FILE_FLAG.search(command)
            file = flag.group(1) if flag is not None and not re.search(r"[<>${}]", flag.group(1)) else None
            for match in _TAG_FLAG.finditer(command):
                built.setdefault(_repository(match.group(1)), set()).add(file)
    return {b: files for b, files in built.items() if not re.search(r"[<>${}]", b)}
