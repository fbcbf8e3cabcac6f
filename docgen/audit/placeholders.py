"""Build commands whose folder is a version placeholder (`cd images/x.y.z && docker build .`, `-f
images/<version>/Dockerfile`): the placeholder read against the version folders that exist, and the
newest of them found not to hold a Dockerfile where the command expects one (it moved a level down:
`images/2.1.0/cuda12/Dockerfile`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import CD_STEP, VERSION_PLACEHOLDER, build_paths
from docgen.audit.missing import code_paths
from docgen.audit.references import command_lines
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD
from docgen.errors import DocgenError
from docgen.files import dockerfiles_in
from docgen.markdown import Document
from docgen.model import Diagnostic

_VERSION_FOLDER = re.compile(r"v?\d+(?:\.\d+)+[\w.+-]*\Z")
"""A folder named after a release: `2.2.14`, `v1.5.0rc1`, `0.7.0-beta`."""
_PRE_RELEASE = re.compile(r"[a-zA-Z]")


def version_key(name: str) -> tuple[tuple[int, ...], int]:
    """A release folder's name in release order: `1.10.0` after `1.9.1`, `2.0.0rc1` before `2.0.0`."""
    numbers = re.match(r"v?(\d+(?:\.\d+)*)", name)
    parts = tuple(int(p) for p in numbers.group(1).split(".")) if numbers else ()
    rest = name[numbers.end() :] if numbers else name
    return parts, 0 if _PRE_RELEASE.search(rest) else 1


def _commands(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(README line, folder the command runs in as written, build command) of each build command of the
    command blocks (after their `cd` lines), table cells and code spans (`cd x && docker build .`)."""
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        folder = ""
        for line, code in command_lines(fence, joined=True):
            yield from _with_cd(line, code, folder)
            for cd in CD_STEP.finditer(code):
                if cd.group(1):
                    folder = posixpath.normpath(posixpath.join(folder, cd.group(1).strip("\"'")))
    cells = [(line, cell) for table in doc.tables for line, cells in table.rows for cell in cells]
    for line, text in [*cells, *code_paths(doc)]:
        yield from _with_cd(line, text.replace("`", " "), "")


def _with_cd(line: int, code: str, folder: str) -> Iterator[tuple[int, str, str]]:
    """The build command of one command line, in `folder` moved by the `cd`s before it on the line."""
    build = BUILD.search(code)
    if build is None:
        return
    for cd in CD_STEP.finditer(code[: build.start()]):
        if cd.group(1):
            folder = posixpath.normpath(posixpath.join(folder, cd.group(1).strip("\"'")))
    yield line, folder, code[build.start() :]


def placeholder_folders(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A build command whose Dockerfile (its `-f`, else the context's `Dockerfile`, from the folder a
    `cd` put it in) has a version placeholder for a folder: read against the release folders there
    (`x.y.z` → `2.2.14`, `1.2.1`), when the newest of them holds no Dockerfile at that place while it
    holds one deeper, it is a finding (`likely`). Not when the newest holds one (older layouts may
    differ), nor when no release folder is there (another checkout), nor for other placeholders."""
    seen: set[tuple[int, str]] = set()
    for line, folder, command in _commands(doc):
        paths = build_paths(command)
        if paths is None:
            continue
        file, context = paths
        if "://" in context:
            continue
        expected = posixpath.join(folder, file) if file else posixpath.join(folder, context, "Dockerfile")
        expected = posixpath.normpath(expected)
        parts = expected.split("/")
        holes = [i for i, p in enumerate(parts) if VERSION_PLACEHOLDER.fullmatch(p)]
        if len(holes) != 1 or (line, expected) in seen or expected.startswith(("/", "..", "~")):
            continue
        hole = holes[0]
        if any(VERSION_PLACEHOLDER.search(p) or "$" in p for p in parts[:hole] + parts[hole + 1 :]):
            continue
        parent = directory.joinpath(*parts[:hole])
        try:
            releases = sorted(
                (p.name for p in parent.iterdir() if os.path.isdir(p) and _VERSION_FOLDER.match(p.name)),
                key=version_key,
            )
        except OSError:
            continue
        if not releases:
            continue
        newest = releases[-1]
        rest = parts[hole + 1 :]
        if os.path.isfile(parent.joinpath(newest, *rest)):
            continue
        try:
            deeper = dockerfiles_in(parent / newest, 2, pass_unreadable=True)
        except DocgenError:
            continue
        if not deeper:
            continue  # an empty or partly copied release folder: nothing to say where it went
        seen.add((line, expected))
        holding = [r for r in releases if os.path.isfile(parent.joinpath(r, *rest))]
        shown = posixpath.join(*parts[:hole], newest) if hole else newest
        instead = ", ".join(
            posixpath.join(shown, p.relative_to(parent / newest).as_posix()) for p in deeper[:3]
        )
        some = (
            f"; of the {len(releases)} release folders only {', '.join(holding[:3])}"
            f"{' …' if len(holding) > 3 else ''} hold{'s' if len(holding) == 1 else ''} one there"
            if holding
            else ""
        )
        yield Diagnostic(
            readme,
            line,
            f"README builds {expected}, but the newest release folder {shown}/ has no "
            f"{'/'.join(rest)} there (its Dockerfiles: {instead}){some}",
            confidence=LIKELY,
        )
