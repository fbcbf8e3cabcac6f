"""A folder a README says in its prose is mounted in the container (`Mount the directory of this
repository into the container at `/mnt/``), while neither the compose file beside it nor its commands
mount anything there: `volumes: - /home/me/app/:/mnt/me/app/` puts the repository at `/mnt/me/app/`.

And a folder of the reader's home said mounted (`It also maps ~/.ollama from your machine`) where the
compose file or the README's own run mounts one named user's (`/home/kai/.ollama:/root/.ollama`).

The compose files of the README's folder are read once; each prose line and command once.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.audit.commands import fence_commands, joined
from docgen.audit.paths import named_home, resolves_inside, under_any
from docgen.audit.references import project_top
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
_MOUNT_OPTION = re.compile(r"(?:^|[ \t])--mount(?:[ \t]+|=)(\S+)")
"""The value of a `--mount type=bind,source=…,target=…` option."""
_MOUNT_TARGET = re.compile(r"(?:^|[ \t,])(?:target|dst|destination)=[\"']?(/[^\s,\"']*)")
"""A `--mount type=bind,source=…,target=/data` option's path in the container."""


def _target(volume: str) -> str | None:
    """The path in the container of a volume as written (`/srv/app:/mnt/app:ro` → `/mnt/app`,
    `D:\\app:/mnt`, `/cache`); None when it names none."""
    parts = [p for p in volume.strip("\"'").split(":") if p]
    found = [p for p in parts[1:] if p.startswith("/")] or [p for p in parts[:1] if p.startswith("/")]
    return found[0] if found else None


def folder_composes(directory: Path, top: Path) -> list[tuple[Path, str, list[Any]]] | None:
    """(path, text, services) of each compose file in `directory`, by name; None when one cannot be
    read, is not a compose document docgen reads, or is a link leading out of the project folder
    `top`: the rules reading the compose files beside a README (their volumes, their commands) then
    say nothing, as they cannot know what the file runs."""
    found: list[tuple[Path, str, list[Any]]] = []
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
        try:
            document: Any = compose.load(text.encode("utf-8"), path.name)
        except DocgenError:
            return None
        services = document.get("services") if isinstance(document, dict) else None
        found.append((path, text, list(services.values()) if isinstance(services, dict) else []))
    return found


def compose_targets(directory: Path, top: Path) -> tuple[list[str], set[str]] | None:
    """(names of the compose files in `directory`, the container paths the volumes of their services
    name); None when one cannot be read or is a link leading out of the project folder `top`."""
    composes = folder_composes(directory, top)
    if composes is None:
        return None
    found: set[str] = set()
    for _, _, services in composes:
        for service in services:
            volumes = service.get("volumes") if isinstance(service, dict) else None
            for volume in volumes if isinstance(volumes, list) else ():
                if isinstance(volume, dict):
                    target = volume.get("target")
                    target = target if isinstance(target, str) else None
                else:
                    target = _target(str(volume))
                if target:
                    found.add(target)
    return [path.name for path, _, _ in composes], found


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


def mount_claims(
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
    read = compose_targets(directory, project_top(directory, project))
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


_HERE = re.compile(
    r"(?<![\w-])(?:(?:your|the|this)[ \t]+)?(?:(?:current|present)[ \t]+(?:local[ \t]+)?(?:working[ \t]+)?"
    r"(?:directory|folder|dir)|working[ \t]+(?:directory|folder)"
    r"|(?:this|the)[ \t]+(?:repo|repository|project)(?:'s[ \t]+(?:root|folder|directory))?"
    r"|(?:the[ \t]+)?(?:repository|repo|project)[ \t]+(?:root|folder|directory))\b",
    re.IGNORECASE,
)
"""The folder a command is run from, spoken of as a whole: `your current directory`, `this
repository`, `the project folder`."""
_PART_OF = re.compile(r"(?:\b(?:of|in|from|inside|within|under|below|beside|to)|/)\Z", re.IGNORECASE)
"""Words before it that make it the place of another folder (`the data folder of this repository`)."""
_CODE_PATH = re.compile(r"`(/[^`\s]*)`")
_SUB_SOURCE = re.compile(
    r"(?:\./|\.\./|\$\{?PWD\}?/|\$\(pwd\)/|\"\$\(pwd\)\"/|\"\$\{?PWD\}?\"/)(?=[\w./-]*[A-Za-z0-9_])[\w./-]+",
    re.IGNORECASE,
)
"""A host side naming a folder below it or beside it: `./workspace`, `$(pwd)/data`, `../data`."""


def _here_claims(doc: Document) -> Iterator[tuple[int, str]]:
    """(line, container path) of each prose line saying the folder the README is run from is mounted
    at a path: `Mount your current directory into `/workspace``, or `… is mounted … at:` with the
    path alone in the block just below."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if not _MOUNT_WORD.search(text) or _OPTION_SPAN.search(text):
                continue
            spoken = itertools.islice(_HERE.finditer(text), 4)  # (a line naming it more is no claim)
            here = next((m for m in spoken if not _PART_OF.search(text[: m.start()].rstrip())), None)
            if here is None:
                continue
            after = text[here.end() :]
            path = _CODE_PATH.search(after)
            if path is not None:
                if not re.search(r"`", after[: path.start()]) or re.match(r"[ \t]*\(`\.`\)", after):
                    yield line, path.group(1)
                continue
            if text.rstrip().endswith(":"):
                block = (
                    next((f for f in doc.fences if 0 < f.lines[0][0] - line <= 4), None)
                    if doc.fences
                    else None
                )
                shown = [t.strip() for _, t in block.lines if t.strip()] if block and block.lines else []
                if len(shown) == 1 and re.fullmatch(r"/[\w./-]*", shown[0]):
                    yield line, shown[0]


def _drive_joined(parts: list[str]) -> list[str]:
    """The parts of a `HOST:TARGET` volume with a Windows drive's `C` and `\\Users\\x` made one again
    (`C:\\Users\\x:/data` → `C:\\Users\\x`, `/data`)."""
    if len(parts) >= 3 and len(parts[0]) == 1 and parts[0].isalpha() and parts[1][:1] in ("\\", "/"):
        return [f"{parts[0]}:{parts[1]}", *parts[2:]]
    return parts


def _host_sources(directory: Path, top: Path, doc: Document) -> list[tuple[str, str, str]] | None:
    """(where: `docker-compose.yml line 8` or `README line 40`, host side, container side) of each
    bind mount the compose files of `directory` and the README's commands make; None when a compose
    file cannot be read."""
    found: list[tuple[str, str, str]] = []
    composes = folder_composes(directory, top)
    if composes is None:
        return None
    for path, text, services in composes:
        lines = text.splitlines()
        items: dict[str, int] = {}  # a list item's text (`- ./data:/data`) → its first line, read once
        for n, line in enumerate(lines, 1):
            items.setdefault(line.strip().removeprefix("-").strip().strip("\"'"), n)
        for service in services:
            volumes = service.get("volumes") if isinstance(service, dict) else None
            for volume in volumes if isinstance(volumes, list) else ():
                if isinstance(volume, dict):
                    source, target = volume.get("source"), volume.get("target")
                    written = str(source)
                else:
                    written = str(volume)
                    parts = _drive_joined(written.strip("\"'").split(":"))
                    source, target = (parts[0], parts[1]) if len(parts) >= 2 else (None, None)
                if not isinstance(source, str) or not isinstance(target, str):
                    continue
                at = items.get(written.strip("\"'")) or next(
                    (n for n, t in enumerate(lines, 1) if written in t), 0
                )
                found.append((f"{path.name} line {at}" if at else path.name, source, target))
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = joined(command)
            for volume in _VOLUME_FLAG.findall(text):
                parts = _drive_joined(volume.strip("\"'").split(":"))
                if len(parts) >= 2:
                    found.append((f"README line {command[0][0]}", parts[0], parts[1]))
            for option in _MOUNT_OPTION.findall(text):
                keys = dict(p.partition("=")[::2] for p in option.strip("\"'").split(","))
                source = keys.get("source", keys.get("src"))
                target = keys.get("target", keys.get("dst", keys.get("destination")))
                if source is not None and target is not None:
                    found.append((f"README line {command[0][0]}", source.strip("\"'"), target))
    return found


def here_mount_claims(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A prose line saying the folder the README is run from (`your current directory`, `this
    repository`) is mounted at a container path, while every bind mount at that path of the compose
    files beside the README and of its commands takes a folder below it or beside it
    (`./workspace:/workspace`, `$(pwd)/data:/data`, `../data:/data`) (`likely`): `README says the
    current folder is mounted at /workspace, but docker-compose.yml line 8 mounts ./workspace there`.
    Silent when one of them mounts the folder itself (`.`, `./`, `${PWD}`, `$(pwd)`), when one takes
    another kind of source (an absolute path, `~/data`, a variable, a named volume), and when nothing
    mounts there (`mount_claims` speaks of that)."""
    claims = list(_here_claims(doc))
    if not claims:
        return
    mounts = _host_sources(directory, project_top(directory, project), doc)
    if not mounts:
        return
    for line, said in claims:
        there = [(w, s, t) for w, s, t in mounts if _norm(t) == _norm(said)]
        if not there or not all(_SUB_SOURCE.fullmatch(s.strip("\"'")) for _, s, _ in there):
            continue
        where, source, _ = there[0]
        yield Diagnostic(
            readme,
            line,
            f"README says the current folder is mounted at {said}, but {where} mounts {source} there"
            + (
                f" ({len(there) - 1} more mount{'s' if len(there) > 2 else ''} the same way)"
                if len(there) > 1
                else ""
            ),
            confidence=LIKELY,
        )


_HOME_SAID = re.compile(r"(?<![\w/.~$-])(?:~|\$HOME\b|\$\{HOME\})/([\w.-]+(?:/[\w.-]+)*)")
"""A folder of the reader's home as a README writes it: `~/.ollama`, `$HOME/models`, `${HOME}/.cache`."""
_IN_IMAGE = re.compile(
    r"(?:\b(?:at|to|into|onto|under|as|container(?:'s)?|image(?:'s)?)|[ \t]in)[ \t]*`?\Z", re.IGNORECASE
)
"""Words before a home folder making it the container's (`mounted at ~/data`, `the container's ~/x`)."""
_HOST_MOUNT_WORD = re.compile(r"\b(?:mount|map|bind|volume|shar(?:e|es|ed|ing)\b)", re.IGNORECASE)
_CHANGE_WORD = re.compile(
    r"\b(?:replace|change|adjust|modify|edit|substitute|update|customi[sz]e)\b", re.IGNORECASE
)
_CHANGED_THING = re.compile(
    r"\b(?:path|volume|mount|folder|director|compose|ya?ml\b|user[ \t-]?name|home\b)", re.IGNORECASE
)
"""A line telling the reader to change the mounted path (`Change the volume path in compose.yml to
your home`): the fixed path is an example of theirs."""


def _told_to_change(line: str) -> bool:
    return _CHANGE_WORD.search(line) is not None and _CHANGED_THING.search(line) is not None


def _home_tail(path: str) -> str:
    """A path after a home folder, as compared: `/` for `\\`, no trailing `/` or sentence `.`."""
    return path.replace("\\", "/").strip("\"'").rstrip("/").rstrip(".").rstrip("/")


def home_mount_claims(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A prose line saying a folder of the reader's home is mounted (`It also maps ~/.ollama from your
    machine`, `$HOME/models is mounted`) while the compose files beside the README or its own commands
    mount that folder from the home of one named user of one machine (`/home/kai/.ollama:/root/.ollama`,
    `/Users/kai/…`, `C:\\Users\\kai\\…`) and no mount takes it another way (`~/.ollama`, `${HOME}/.ollama`)
    (`likely`): `README says ~/.ollama is mounted, but compose.yml line 7 mounts /home/kai/.ollama, a
    folder of one user's machine`. On any other machine the reader's folder is not the one mounted.
    Only the same folder below the home counts (`/home/NAME/` then the same path); a name that stands
    for anyone's (`/home/user/`), a README or compose file telling the reader to change the path (`Edit
    the volume in compose.yml`), and a README naming that user in its prose keep it silent."""
    said = [
        (line, match.group(0).rstrip("/."), tail)
        for para in doc.paragraphs
        for line, text in para.lines
        if _HOST_MOUNT_WORD.search(text) and not _OPTION_SPAN.search(text)
        for match in itertools.islice(_HOME_SAID.finditer(text), 4)
        if re.search(r"[A-Za-z0-9]", tail := _home_tail(match.group(1)))
        and not _IN_IMAGE.search(text[: match.start()])
    ]
    if not said:
        return
    top = project_top(directory, project)
    mounts = _host_sources(directory, top, doc)
    if not mounts:
        return
    prose = [t for p in doc.paragraphs for _, t in p.lines]
    if any(_told_to_change(t) for t in [*prose, *(t for f in doc.fences for _, t in f.lines)]):
        return
    comments = [
        t.partition("#")[2] for _, text, _ in folder_composes(directory, top) or () for t in text.splitlines()
    ]
    if any(_CHANGE_WORD.search(c) or re.search(r"\byour\b", c, re.IGNORECASE) for c in comments):
        return
    told: set[str] = set()
    for line, shown, tail in said:
        fixed, other = [], False
        for where, source, _ in mounts:
            home = named_home(source.strip("\"'"))
            if home is not None and _home_tail(home[1]) == tail:
                fixed.append((where, source.strip("\"'"), home[0]))
            elif _home_tail(source).endswith("/" + tail):
                other = True
        if not fixed or other or tail in told:
            continue
        where, source, name = fixed[0]
        if any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", t) for t in prose):
            continue
        told.add(tail)
        yield Diagnostic(
            readme,
            line,
            f"README says {shown} is mounted, but {where} mounts {source}, a folder of one user's "
            "machine: on any other machine it is not the reader's",
            confidence=LIKELY,
        )


_SOURCE_SAID = re.compile(
    r"\bmount(?:s|ed|ing)?[ \t]+(?:the[ \t]+|your[ \t]+)?(?:(?:local|host)[ \t]+)?"
    r"(?:(?:folder|directory|dir)[ \t]+)?"
    r"`((?:\./|\.\./)[\w./-]+|\$\{?PWD\}?/[\w./-]+)`"
    r"|`((?:\./|\.\./)[\w./-]+|\$\{?PWD\}?/[\w./-]+)`[ \t]+(?:is|are|gets|get|will[ \t]+be)[ \t]+mounted\b",
    re.IGNORECASE,
)
"""A prose line saying a folder beside the README is mounted: `Mounting `./ComfyUI` into the container`,
`` `./data` is mounted ``."""
_HOST_PREFIX = re.compile(r"\A(?:\$\{?PWD\}?|\$\(pwd\)|\"\$\(pwd\)\"|\"\$\{?PWD\}?\"|\.)/", re.IGNORECASE)


def _host_key(path: str) -> str | None:
    """A host folder below the README's, as compared (`./ComfyUI/`, `${PWD}/ComfyUI`, `ComfyUI` →
    `ComfyUI`); `../x` stays `../x`; None for a path of another kind (absolute, `~`, a variable, a named
    volume)."""
    path = path.strip("\"'")
    path = _HOST_PREFIX.sub("", path, count=1) if _HOST_PREFIX.match(path) else path
    if path.startswith(("/", "~", "$")) or re.match(r"[A-Za-z]:[\\/]", path) or not path:
        return None
    normed = posixpath.normpath(path)
    return normed if normed != "." else ""


def source_mount_claims(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A prose line saying a folder beside the README is mounted (`Mounting `./ComfyUI` into the
    container (via docker-compose)`, `` `./data` is mounted ``) while no bind mount takes it: none of the
    compose files beside the README (only those when the line names compose) nor of the README's
    commands mounts it, a folder holding it or one inside it (`likely`): `README says ./ComfyUI is
    mounted, but docker-compose.yml mounts ./models, ./output, ./user, ./custom_nodes only`. The paths
    are compared spelled alike (`./x`, `x/`, `${PWD}/x`, `$(pwd)/x`). Silent when nothing is mounted, when
    a mount's source is a variable, a home or an absolute path (it may be the folder), and for a line
    explaining an option in code."""
    said = [
        (line, match.group(1) or match.group(2), text)
        for para in doc.paragraphs
        for line, text in para.lines
        if _MOUNT_WORD.search(text) and not _OPTION_SPAN.search(text)
        for match in itertools.islice(_SOURCE_SAID.finditer(text), 4)
    ]
    if not said:
        return
    mounts = _host_sources(directory, project_top(directory, project), doc)
    if not mounts:
        return
    for line, shown, text in said:
        key = _host_key(shown)
        if key is None:
            continue
        composed = re.search(r"\bcompose\b", text, re.IGNORECASE) is not None
        taken = [(w, s) for w, s, _ in mounts if not composed or not w.startswith("README")]
        if not taken:
            continue
        keys = [_host_key(s) for _, s in taken]
        if any(k is None for k in keys):
            continue  # (a variable, an absolute path: it may be the folder)
        held = [k for k in keys if k is not None]
        if any(k == key or under_any(k, {key}) or under_any(key, {k}) or k == "" for k in held):
            continue
        files = sorted({w.split(" line ", 1)[0] for w, _ in taken})
        where = " and ".join(f if not f.startswith("README") else "its commands" for f in files[:3])
        sources = ", ".join(dict.fromkeys(s.strip("\"'") for _, s in taken[:5]))
        yield Diagnostic(
            readme,
            line,
            f"README says {shown} is mounted, but {where} "
            f"mount{'s' if len(files) == 1 and not files[0].startswith('README') else ''} "
            f"{sources} only",
            confidence=LIKELY,
        )
