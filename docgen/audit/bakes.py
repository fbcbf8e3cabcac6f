"""`docker buildx bake` commands in a README's command blocks: the targets and groups they name, against
the bake file they read (`-f FILE`, else the bake files `docker buildx bake` reads in the README's
folder).
"""

from __future__ import annotations

import difflib
import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import bake, compose
from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import build_commands, joined, moves
from docgen.audit.paths import resolves_inside
from docgen.errors import MAX_FILE_BYTES, DocgenError
from docgen.markdown import Document
from docgen.model import Diagnostic
from docgen.shell import shell_split

_BAKE = re.compile(r"\b(?:docker[ \t]+(?:buildx[ \t]+)?bake|docker-buildx[ \t]+bake)\b")
_TAKES_VALUE = frozenset(
    {"-f", "--file", "--set", "--progress", "--builder", "--metadata-file", "--allow", "--call", "--list"}
    | {"--provenance", "--sbom", "--var"}
)
"""The options of `docker buildx bake` followed by a value (the rest are flags or `--x=value`)."""
_NOT_A_NAME = re.compile(r"[$<>{}*?\[\]]")
"""A placeholder or a variable a reader fills in: `<target>`, `${TARGET}`, `{variant}`."""
_OVERRIDES = ("docker-bake.override.json", "docker-bake.override.hcl")


def bake_targets(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A target or group a `docker buildx bake` command of a command block names (`docker buildx bake
    -f docker-bake.hcl cu118-torch212`) that the bake file it reads does not define (`certain`), with the
    closest name it does. Not checked: a command after a `cd` in its block (it may read another folder's
    files), a bake file that cannot be read, and a folder whose compose files bake also reads when no
    `-f` is given. The targets a `matrix` makes are defined, by their names, as is the matrix target's own
    name (the group of them)."""
    for fence in doc.fences:
        moved = [line for line, _ in moves(fence)]
        for command in build_commands(fence, _BAKE):
            if not moved or moved[0] > command[-1][0]:
                yield from _check(command, directory, readme, project)


def _check(
    command: list[tuple[int, str]], directory: Path, readme: str, project: Path | None
) -> Iterator[Diagnostic]:
    whole = joined(command)
    match = _BAKE.search(whole)
    if match is None:
        return
    try:
        words = shell_split(re.split(r"&&|\|\||;|\|", whole[match.end() :])[0], comments=True)
    except ValueError:
        return
    files: list[str] = []
    names: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word in _TAKES_VALUE:
            if word in ("-f", "--file") and at + 1 < len(words):
                files.append(words[at + 1])
            at += 2
            continue
        if word.startswith(("-f=", "--file=")):
            files.append(word.split("=", 1)[1])
        elif not word.startswith("-"):
            names.append(word)
        at += 1
    names = [n for n in names if not _NOT_A_NAME.search(n)]
    if not names:
        return
    if files:
        paths = [directory / f for f in files]
    else:
        if any(os.path.isfile(directory / n) for n in compose.DEFAULT_FILES):
            return
        paths = [directory / n for n in (*bake.DEFAULT_FILES, *_OVERRIDES)]
    defined = _defined(tuple(paths), (project or directory).resolve())
    if defined is None:
        return
    for name in names:
        if name in defined:
            continue
        close = difflib.get_close_matches(name, sorted(defined), n=1, cutoff=0.6)
        shown = ", ".join(p.name for p in paths if os.path.isfile(p))
        said = f"README bakes {name}, which {shown} does not define"
        said += f" (did you mean {close[0]}?)" if close else f" (it defines {', '.join(sorted(defined)[:8])})"
        yield Diagnostic(readme, command[0][0], said, confidence=CERTAIN)


@functools.lru_cache(maxsize=32)
def _defined(paths: tuple[Path, ...], top: Path) -> frozenset[str] | None:
    """The target and group names the bake files at `paths` define (those that exist), or None when none
    exists, one is outside the folder `top` (symlinks resolved) or cannot be read (a `matrix` target
    whose `name` calls a function …). A `matrix` target defines the targets it makes and its own name (the
    group of them). Read once for every command of a README that names the same files."""
    found: set[str] = set()
    read = False
    for path in paths:
        if not resolves_inside(path, top):
            return None
        if not os.path.isfile(path):
            if path.name not in _OVERRIDES and path.name not in bake.DEFAULT_FILES:
                return None  # a `-f` file that is not there: another rule's concern
            continue
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                return None
            data = path.read_bytes()
            parsed = bake.parse(data, path.name)
        except (OSError, DocgenError):
            return None
        read = True
        found.update(parsed.names)
        found.update(parsed.groups)
    return frozenset(found) if read else None
