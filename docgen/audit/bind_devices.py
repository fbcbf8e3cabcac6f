"""A `docker compose up` the README runs while the compose file binds a named volume to a folder of the
checkout that a fresh clone does not have: `volumes: models: {driver: local, driver_opts: {type: none, o:
bind, device: ${PWD}/models}}` with `/models` in `.gitignore`, and nothing of the README making it. The
local driver mounts the device when the container starts and refuses a missing one ("failed to mount
local volume: … no such file or directory"), so `up` fails on the first run.

Read: the compose commands of the README's command blocks and inline code whose command is `up`, with the
files they name (`-f`) or the folder's default ones; a volume with no driver or `driver: local` whose
`driver_opts` `o:` has `bind` and whose `device:` is `${PWD}/folder` or `$PWD/folder` (the folder
`docker compose up` runs in: the README's), used by a service the command starts. The folder must be
missing from the checkout and ignored by a `.gitignore` of the README's folder or the repository's root
(a clone never has it). Not read: a README that enters another folder (`cd`: `$PWD` is another one), a
README that names the folder anywhere (`mkdir models`, "put the weights in models/": it tells of it), a
script or Makefile the README runs that names it (or one docgen cannot find), a `--project-directory`.
`likely`: the reader may make the folder some way the README does not tell.
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
from docgen.audit.commands import fence_commands, joined, moves
from docgen.audit.grammar import COMPOSE, read_compose
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import resolves_inside
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import bytes_or_none, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import shell_split

_DEVICE = re.compile(r"\$(?:\{PWD\}|PWD(?![\w{]))/([\w.-]+(?:/[\w.-]+)*)/?")
"""A bind device under the folder compose runs in (`${PWD}/models`, `$PWD/data/in`): the path below it."""
_RUNS = re.compile(r"(?<![\w/.-])(?:\./)?[\w./-]+\.(?:sh|bash|py)\b|(?<![\w-])make(?![\w-])")
"""A script or `make` a command of the README runs: what it makes is not read."""


def _ups(doc: Document) -> Iterator[tuple[int, list[str]]]:
    """(README line, words after the compose command) of each compose command of the README's command
    blocks and inline code."""
    texts = [(lines[0][0], joined(lines)) for fence in doc.fences for lines in fence_commands(fence)]
    texts += [(n, code) for p in doc.paragraphs for n, t in p.lines for _, _, code in code_spans(t)]
    for line, text in texts:
        for match in COMPOSE.finditer(text):
            rest = re.split(r"[;&|]", text[match.end() :], maxsplit=1)[0]
            try:
                yield line, shell_split(rest)
            except ValueError:
                continue


def _ignored(folder: str, directory: Path, top: Path) -> bool:
    """`folder` (relative to `directory`) is ignored by a `.gitignore` of `directory` or of `top`, and no
    negated pattern keeps a file of it."""
    found = False
    for where in dict.fromkeys((directory.resolve(), top)):
        text = text_or_none(where / ".gitignore") or ""
        path = posixpath.relpath(posixpath.join(str(directory.resolve()), folder), str(where))
        for raw in text.splitlines():
            pattern = raw.strip()
            if not pattern or pattern.startswith("#"):
                continue
            if pattern.startswith("!"):
                if pattern[1:].lstrip("/").startswith(path):
                    return False
                continue
            bare = pattern.rstrip("/").removesuffix("/**").removesuffix("/*")
            parts = path.split("/")
            above = ["/".join(parts[: i + 1]) for i in range(len(parts))]  # it, or a folder it is in
            if bare.lstrip("/") in above or ("/" not in bare and bare in parts):
                found = True
    return found


def _uses(services: Any, volume: str, named: Sequence[str]) -> bool:
    """A service the command starts (`named`, all when none) mounts the named `volume`."""
    if not isinstance(services, dict):
        return False
    for name, service in services.items():
        if name == compose.KEY_LINES or not isinstance(service, dict) or (named and name not in named):
            continue
        for entry in service.get("volumes") or ():
            source = entry.get("source") if isinstance(entry, dict) else str(entry).split(":", 1)[0]
            if source == volume:
                return True
    return False


def _made(text: str, doc: Document, folder: str, directory: Path) -> bool:
    """The README names `folder` anywhere (`mkdir models`, "put the weights in models/": it tells of
    it), or runs a script or a Makefile that names it, or one docgen cannot find."""
    name = re.compile(rf"(?<![\w-]){re.escape(folder)}(?![\w-])", re.IGNORECASE)
    if name.search(text):
        return True
    for fence in doc.fences:
        for lines in fence_commands(fence):
            for run in _RUNS.finditer(joined(lines)):
                path = "Makefile" if run.group(0) == "make" else run.group(0).removeprefix("./")
                script = text_or_none(directory / path, MAX_PROJECT_FILE_BYTES)
                if script is None or name.search(script):
                    return True
    return False


def bind_devices(doc: Document, text: str, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if any(True for fence in doc.fences for _ in moves(fence)):
        return  # the README enters another folder: `$PWD` is not the README's
    top = repository_root(directory) or directory.resolve()
    told: set[str] = set()
    for line, words in _ups(doc):
        call = read_compose(words)
        if call.verb != "up" or not call.complete or "--project-directory" in words:
            continue
        files = [directory / f for f in call.files] if call.files else compose.default_files(directory)
        for file in files:
            data = bytes_or_none(file, MAX_PROJECT_FILE_BYTES) if resolves_inside(file, top) else None
            if data is None or b"device" not in data:
                continue
            try:
                document = compose.load(data, file.name)
            except DocgenError:
                continue
            volumes = document.get("volumes") if isinstance(document, dict) else None
            if not isinstance(volumes, dict):
                continue
            missing: list[tuple[str, str, int | None]] = []  # (volume, folder, line)
            for volume, spec in volumes.items():
                if volume == compose.KEY_LINES or not isinstance(spec, dict) or volume in told:
                    continue
                opts = spec.get("driver_opts")
                if spec.get("driver") not in (None, "local") or not isinstance(opts, dict):
                    continue
                if "bind" not in str(opts.get("o", "")).split(","):
                    continue
                device = _DEVICE.fullmatch(str(opts.get("device", "")))
                if device is None or ".." in device.group(1).split("/"):
                    continue
                folder = device.group(1)
                if os.path.lexists(directory / folder) or not _ignored(folder, directory, top):
                    continue
                if not _uses(document.get("services"), str(volume), call.services):
                    continue
                if _made(text, doc, folder, directory) or _made(
                    text, doc, posixpath.basename(folder), directory
                ):
                    continue
                told.add(str(volume))
                missing.append((str(volume), folder, compose.line_of(volumes, volume)))
            if missing:
                yield _finding(readme, line, os.path.relpath(file, directory), missing)


def _finding(readme: str, line: int, shown: str, missing: list[tuple[str, str, int | None]]) -> Diagnostic:
    """The finding for the volumes of one compose file whose bind folders a clone lacks."""
    names = ", ".join(f"{v} (line {at})" if at else v for v, _, at in missing)
    folders = " ".join(f for _, f, _ in missing)
    many = len(missing) > 1
    return Diagnostic(
        readme,
        line,
        f"README runs docker compose up, but {shown} binds volume{'s' if many else ''} {names} to "
        f"{'folders' if many else 'a folder'} under $PWD a clone does not have (.gitignore ignores "
        f"{folders}) and nothing of the README makes: the local driver refuses a missing device, so up "
        f"fails (mkdir {folders} first)",
        confidence=LIKELY,
    )
