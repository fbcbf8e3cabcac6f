"""A folder a README says in its prose is mounted in the container (`Mount the directory of this
repository into the container at `/mnt/``), while neither the compose file beside it nor its commands
mount anything there: `volumes: - /home/me/app/:/mnt/me/app/` puts the repository at `/mnt/me/app/`.

The compose files of the README's folder are read once; each prose line and command once.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.audit.commands import fence_commands, joined
from docgen.audit.paths import resolves_inside, under_any
from docgen.audit.references import _top
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_IN_CONTAINER = re.compile(
    r"\b(?:docker[ \t]+)?container[ \t]+(?:at|as|under|to|in|on)[ \t]+`(/[^`\s]*)`"
    r"|\b(?:at|as|to|into|under|on)[ \t]+`(/[^`\s]*)`[ \t]+(?:inside|in|into|within|of)[ \t]+"
    r"(?:the|your|a)[ \t]+(?:docker[ \t]+)?container\b",
    re.IGNORECASE,
)
"""Where a line says a folder goes in the container: `into the Docker container at `/mnt/``, `to
`/data` inside the container`."""
_MOUNT_WORD = re.compile(r"\bmount", re.IGNORECASE)
_OPTION_SPAN = re.compile(r"`[ \t]*(?:-v|--volume|--mount|-)")
"""A line explaining a command's option in code (`` `-v /srv:/data` mounts … ``): the command says it."""
_VOLUME_FLAG = re.compile(r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?(\S+)")
_MOUNT_TARGET = re.compile(r"(?:^|[ \t,])(?:target|dst|destination)=[\"']?(/[^\s,\"']*)")
"""A `--mount type=bind,source=…,target=/data` option's path in the container."""


def _target(volume: str) -> str | None:
    """The path in the container of a volume as written (`/srv/app:/mnt/app:ro` → `/mnt/app`,
    `D:\\app:/mnt`, `/cache`); None when it names none."""
    parts = [p for p in volume.strip("\"'").split(":") if p]
    found = [p for p in parts[1:] if p.startswith("/")] or [p for p in parts[:1] if p.startswith("/")]
    return found[0] if found else None


def compose_targets(directory: Path, top: Path) -> tuple[list[str], set[str]] | None:
    """(names of the compose files in `directory`, the container paths the volumes of their services
    name); None when one cannot be read or is a link leading out of the project folder `top`."""
    names: list[str] = []
    found: set[str] = set()
    try:
        listed = sorted(directory.iterdir()) if os.path.isdir(directory) else []
    except OSError:
        return None
    for path in listed:
        if not os.path.isfile(path) or compose.FILE_NAME.match(path.name) is None:
            continue
        text = text_or_none(path, MAX_PROJECT_FILE_BYTES) if resolves_inside(path, top) else None
        if text is None:
            return None
        names.append(path.name)
        try:
            document: Any = compose.load(text.encode("utf-8"), path.name)
        except DocgenError:
            return None
        services = document.get("services") if isinstance(document, dict) else None
        for service in services.values() if isinstance(services, dict) else ():
            volumes = service.get("volumes") if isinstance(service, dict) else None
            for volume in volumes if isinstance(volumes, list) else ():
                if isinstance(volume, dict):
                    target = volume.get("target")
                    target = target if isinstance(target, str) else None
                else:
                    target = _target(str(volume))
                if target:
                    found.add(target)
    return names, found


def command_targets(doc: Document) -> set[str]:
    """The container paths the `-v`/`--volume`/`--mount` options of the README's commands name."""
    found: set[str] = set()
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = joined(command)
            found.update(t for v in _VOLUME_FLAG.findall(text) if (t := _target(v)))
            found.update(_MOUNT_TARGET.findall(text))
    return found


_VOLUME = re.compile(r"^[ \t]*VOLUME[ \t]+(.+)$", re.IGNORECASE | re.MULTILINE)


def declared_volumes(models: Sequence[ImageModel]) -> set[str]:
    """The container paths the VOLUME instructions of the audited Dockerfiles name (`VOLUME /data`,
    `VOLUME ["/data", "/logs"]`): a volume is mounted there on every run."""
    found: set[str] = set()
    for model in models:
        text = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES) if model.file else None
        for listed in _VOLUME.findall(text or ""):
            found.update(w for w in re.findall(r"[^\s\"',\[\]]+", listed) if w.startswith("/"))
    return found


def _norm(path: str) -> str:
    return posixpath.normpath(path)


def _mount_claims(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A prose line speaking of a mount (`mount`, `mounted`) that puts a folder in the container at a path
    in code (`into the Docker container at `/mnt/``, `to `/data` inside the container`) where neither
    the volumes of the compose files in the README's folder nor the `-v`/`--mount` options of its
    commands mount anything, nor above it, and no VOLUME of the Dockerfiles declares it (`likely`):
    `README says a folder is mounted in the container at /mnt/, but docker-compose.yaml mounts
    /mnt/me/app/ only`. Not a README with no mount at all, nor one speaking of a compose file while
    its folder has none, nor a line explaining an option in code (`` `-v /srv:/data` mounts … ``)."""
    claims = [
        (line, match.group(1) or match.group(2))
        for para in doc.paragraphs
        for line, text in para.lines
        if _MOUNT_WORD.search(text) and not _OPTION_SPAN.search(text)
        for match in _IN_CONTAINER.finditer(text)
    ]
    if not claims:
        return
    read = compose_targets(directory, _top(directory, project))
    if read is None:
        return
    files, targets = read
    if not files and any(
        re.search(r"\bcompose\b", t, re.IGNORECASE) for p in doc.paragraphs for _, t in p.lines
    ):
        return
    commanded = command_targets(doc)
    sources = [*files[:3], *(["its commands"] if commanded else [])]
    targets |= commanded
    if not targets:
        return
    held = {_norm(t) for t in targets | declared_volumes(models)}
    for line, said in claims:
        path = _norm(said)
        if "/" in held or under_any(path, held):
            continue
        where = " and ".join(sources)
        shown = ", ".join(sorted(targets)[:4])
        yield Diagnostic(
            readme,
            line,
            f"README says a folder is mounted in the container at {said}, but {where} "
            f"mount{'s' if len(sources) == 1 and sources[0] != 'its commands' else ''} {shown} only",
            confidence=LIKELY,
        )
