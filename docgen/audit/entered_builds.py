"""A `docker build -f PATH CONTEXT` after a README `cd` into a folder of this repository, whose `-f` is
written from the context, not from that folder: `cd app/docker` then `docker build -f docker/Dockerfile ..`.

Docker reads a relative `-f` from the current folder, not from the context (with a local context the
CLI makes the path absolute from where it runs), so from `docker/` that command looks for
`docker/docker/Dockerfile` and fails. Reported (`certain`) when, in one command block, a `cd` has put
the reader in one known folder of the project, the `-f` path is found nowhere from there, and it is a
Dockerfile from the context folder.

The folder a `cd` enters is known when its path, from the README's folder or one above it inside the
project, names exactly one folder; a first part found nowhere in the project is the name the reader
gave their clone of this repository (`cd myapp/docker`; then only a build of an audited Dockerfile is
told), unless a `git clone` of the README makes a folder of that name: then it is followed only when
that clone is of this very repository (`steps.own_clones`), into the repository's root; another
repository's clone is not read. A
`cd` to a variable, a home or absolute path, or one that names no single folder leaves the folder
unknown, and the block's later builds are not read. A build written as an alternative in a comment
of a command line (`docker compose build app   # or: docker build -f …`) is read in the folder of
that line. Only Docker's own build (`docker build`, `docker buildx build`): Podman and Buildah look
for a relative `-f` in the context too when it is not found from the current folder. `docker compose`
is no build command here (a compose file's `dockerfile:` is read from its `context:`, as written).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import CD_STEP, build_paths, clone_of
from docgen.audit.references import bases_above, command_lines, inside, project_top
from docgen.audit.steps import own_clones
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import DOCKER, build_command
from docgen.files import real_path
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_DOCKER_BUILD = re.compile(build_command(DOCKER))
"""Docker's own build command (`docker build`, `docker buildx build`, `docker image build`)."""
_ALTERNATIVE = re.compile(r"[ \t]#+[ \t]*(?:or|alternatively)\b[ \t]*:?[ \t]*(?P<command>.*)", re.IGNORECASE)
"""A comment of a command line offering another command for the same step (`# or: docker build …`)."""
_UNKNOWN = re.compile(r"[$<>{}%~*?\[\]`]|://")
"""A path docgen cannot follow: a variable, a placeholder, a home, a pattern, an address."""


def _clone_folders(
    doc: Document, own: Callable[[int, str], tuple[str, Path] | None]
) -> dict[str, Path | None]:
    """The folders the README's `git clone` commands make (named, or the repository's last part) → the
    repository's root when it is a clone of this very repository (`own`: `steps.own_clones`), else None."""
    folders: dict[str, Path | None] = {}
    for fence in doc.fences:
        for line, text in fence.lines:
            clone = clone_of(text)
            if clone is None:
                continue
            repository, folder = clone
            name = (folder or repository.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]).strip("\"'")
            name = name.removesuffix(".git").rstrip("/")
            mine = [made for step in re.split(r"&&|;", text) if (made := own(line, step)) is not None]
            root = next((r for f, r in mine if f == name), None)
            folders[name] = (
                real_path(root) if root is not None and folders.get(name, root) is not None else None
            )
    return folders


def _entered(
    target: str, here: Path | None, bases: list[Path], top: Path, clones: dict[str, Path | None]
) -> tuple[Path, bool] | None:
    """The one folder `cd target` enters from `here` (None: from where the reader starts, the README's
    folder or one above it), and whether its first part was taken for the reader's own name of their
    clone; None when it cannot be told."""
    target = re.sub(r"^(?:\./)+", "", target.strip("\"'")).rstrip("/")
    if not target or target.startswith(("/", "-")) or _UNKNOWN.search(target):
        return None
    if here is not None:
        moved = inside(here / target, top)
        return (moved, False) if moved is not None and os.path.isdir(moved) else None
    found = {f for f in (inside(base / target, top) for base in bases) if f is not None and os.path.isdir(f)}
    if found:
        return (found.pop(), False) if len(found) == 1 else None
    head, _, rest = target.partition("/")
    if not rest or head in (".", "..") or any(os.path.lexists(base / head) for base in bases):
        return None
    if head in clones:  # a folder a clone makes: this repository's root, or another's
        root = clones[head]
        moved = inside(root / rest, top) if root is not None else None
        return (moved, False) if moved is not None and os.path.isdir(moved) else None
    found = {f for f in (inside(base / rest, top) for base in bases) if f is not None and os.path.isdir(f)}
    return (found.pop(), True) if len(found) == 1 else None


def _steps(fence: Fence) -> Iterator[tuple[int, str, bool]]:
    """(README line, step, is an alternative in a comment) of the block's commands in order."""
    raw = dict(fence.lines)
    for line, code in command_lines(fence, joined=True):
        for step in re.split(r"&&|\|\||;", code):
            yield line, step, False
        alternative = _ALTERNATIVE.search(raw.get(line, ""))
        if alternative is not None and _DOCKER_BUILD.search(alternative.group("command")):
            yield line, alternative.group("command"), True


def entered_builds(
    doc: Document,
    readme: str,
    directory: Path,
    project: Path | None = None,
    audited: Sequence[str] = (),
    own: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """Each Docker build of a command block, run in the folder a `cd` of that block entered, whose `-f`
    path is not there but is a Dockerfile from the build's context (see the module). After a `cd` whose
    first part is taken for the reader's name of their clone, only when that Dockerfile is one of
    `audited` (the files of the Dockerfiles audited): the README builds this repository's image. `own`:
    `steps.own_clones` of the README when the caller has it (read once for every rule that asks)."""
    ours = {real_path(Path(file)) for file in audited}
    top = project_top(directory, project)
    bases = bases_above(directory, top)
    clones: dict[str, Path | None] | None = None
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        here: Path | None = None
        entered = guessed = False
        for line, step, _ in _steps(fence):
            cd = CD_STEP.match(step)
            if cd is not None:
                if clones is None:
                    clones = _clone_folders(doc, own or own_clones(doc, directory))
                moved = _entered(cd.group(1) or "", here if entered else None, bases, top, clones)
                if moved is None:
                    break  # a folder that cannot be told: the rest of the block is not read
                here, guessed, entered = moved[0], guessed or moved[1], True
                continue
            if not entered or here is None or not _DOCKER_BUILD.search(step):
                continue
            paths = build_paths(step)
            if paths is None:
                continue
            file, context = paths
            if file is None:
                continue
            if _UNKNOWN.search(file + context) or file.startswith("/") or context.startswith("/"):
                continue
            if os.path.lexists(here / file):
                continue
            root = inside(here / context, top)
            beside = inside(root / file, top) if root is not None else None
            if beside is None or not os.path.isfile(beside) or (guessed and beside not in ours):
                continue
            yield Diagnostic(
                readme,
                line,
                f"README builds with -f {file} from {_shown(here, top)}, where no {file} exists; docker "
                f"reads -f from the current folder, not from the context {context}, where the Dockerfile "
                f"is (-f {os.path.relpath(beside, here)})",
                confidence=CERTAIN,
            )


def _shown(folder: Path, top: Path) -> str:
    """`folder` as a path from the project's top (`docker/`), `./` for the top itself."""
    relative = folder.relative_to(top).as_posix()
    return "./" if relative == "." else f"{relative}/"
