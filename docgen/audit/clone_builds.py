"""A `docker build` whose path starts with the folder a `git clone` of the README made, written from the
folder the reader cloned in (`git clone …/Dockerfile.git`, then `docker build -t img
Dockerfile/ros1/noetic`): the rest of the path is a path of the cloned repository from its root.

When that rest is the README's own folder from the repository's root (the path ends the README's folder:
`ros1/noetic` for a README in `…/ros1/noetic/`), the clone is of this very repository and the build reads
the README's folder: a Dockerfile it lacks, or a file its Dockerfile copies that the folder lacks
(`references.context_findings`, as for a build run from the README's folder), is told.

When the rest is found nowhere from the README's folder up (no `ros2/ROS2_GPU`), while the README's folder
holds a Dockerfile that no command of the README builds (no build reads it, no compose, Makefile or script
run may), the README documents the Dockerfile beside it but tells to build a path of another repository
(a README copied from another project and left unchanged): `likely`.

A build whose path is found as written from the README's folder or one above it (a checkout whose parent
folder has the clone's name) is `references.context_misses`'; a `cd` into the clone's folder is
`steps.own_clones`'.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_paths, clone_target
from docgen.audit.references import (
    MadeFiles,
    bases_above,
    command_lines,
    context_findings,
    inside,
    project_top,
)
from docgen.audit.steps import CLONE, plain_path
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import context_dockerfile
from docgen.findings import BROKEN_COMMAND, MISSING_FILE
from docgen.markdown import Document
from docgen.model import Diagnostic

_OTHER_BUILDS = re.compile(
    r"\b(?:docker[ \t-]+compose|podman-compose|make|just|task)\b"
    r"|(?:^|[\s;&|(])(?:\./|(?:ba)?sh[ \t]+)[\w./-]+"
)
"""A command that may build a Dockerfile without naming it: compose, a Makefile, a script."""


def _steps(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, step) of every step of the README's command blocks, continued lines joined, their
    prompts (`$ `) taken off."""
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, code in command_lines(fence, True):
            for step in re.split(r"&&|\|\||;", code):
                if step.strip():
                    yield line, step.strip()


def clone_builds(
    doc: Document, source: Sequence[str], readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of the module's docstring, for a README in `directory`."""
    top = project_top(directory, project)
    here = Path(os.path.realpath(directory.absolute()))
    bases = bases_above(directory, top)
    clones: dict[str, str] = {}  # folder → address, of the clones above the current step
    builds: list[tuple[int, str, str | None, str, str]] = []  # (line, clone folder, file, context, url)
    builds_beside = False
    for line, step in _steps(doc):
        clone = CLONE.search(step)
        if clone is not None:
            cloned = clone_target(clone.group(1).split())
            if cloned is not None and plain_path(cloned[0]):
                clones[cloned[0]] = cloned[1]
            continue
        if _OTHER_BUILDS.search(step) and not BUILD.search(step):
            builds_beside = True
            continue
        if not BUILD.search(step):
            continue
        paths = build_paths(step)
        file, context = paths if paths is not None else (None, "")
        first = context.split("/", 1)[0]
        plain = all(plain_path(p) and not p.startswith(("/", "~")) for p in (file, context) if p)
        if (
            plain
            and first in clones
            and "/" in context.strip("/")
            and not any(os.path.isdir(b / first) for b in bases)
        ):
            builds.append((line, first, file, context, clones[first]))
        else:
            builds_beside = True  # (a build of another path: the README builds something itself)
    made = MadeFiles(source)
    for line, folder, file, context, url in builds:
        rest = context.strip("/").split("/", 1)[1]
        parts = Path(rest).parts
        if ".." in parts or "." in parts:
            continue
        if here.parts[-len(parts) :] == parts:
            yield from _own_folder(readme, line, folder, file, context, here, top, made)
        elif not builds_beside and file is None:
            yield from _other_repository(readme, line, folder, context, url, rest, here, bases, top)


def _own_folder(
    readme: str,
    line: int,
    folder: str,
    file: str | None,
    context: str,
    here: Path,
    top: Path,
    made: MadeFiles,
) -> Iterator[Diagnostic]:
    """A build of the README's own folder in this repository's clone `folder`."""
    if file is not None:
        if not file.startswith(folder + "/"):
            return
        inner = inside(here / os.path.relpath(file.split("/", 1)[1], context.split("/", 1)[1]), top)
        dockerfile = inner
        shown = file
    else:
        dockerfile = context_dockerfile(here)
        shown = posixpath.join(context.rstrip("/"), dockerfile.name)
    if dockerfile is None:
        return
    where = f"{context} (this README's folder in the clone {folder}/)"
    if file is None and not os.path.lexists(dockerfile):
        yield Diagnostic(
            readme,
            line,
            f"README builds the context {where}, which holds no Dockerfile: with no -f, docker build reads "
            "Dockerfile from the context",
            confidence=CERTAIN,
            rule=MISSING_FILE,
        )
        return
    if not os.path.isfile(dockerfile):
        return
    try:
        parsed = read_dockerfile(dockerfile, shown)
    except DocgenError:
        return
    lead = f"README builds {shown} with the context {where}"
    instructions = parsed.instructions
    yield from context_findings(readme, line, lead, instructions, dockerfile, here, top, made, own=True)


def _other_repository(
    readme: str,
    line: int,
    folder: str,
    context: str,
    url: str,
    rest: str,
    here: Path,
    bases: Sequence[Path],
    top: Path,
) -> Iterator[Diagnostic]:
    """A build of path `rest` of the clone `folder` of `url`, found nowhere here, while the README's
    folder holds the Dockerfile it documents and no command of the README builds it."""
    beside = context_dockerfile(here)
    if not os.path.isfile(beside) or any(os.path.lexists(b / rest) for b in bases):
        return
    if any(part in ("src", "third_party", "external", "vendor") for part in here.parts[len(top.parts) :]):
        return  # (a copy of another project kept in this one: its README is that project's)
    shown = posixpath.join(posixpath.dirname(readme), beside.name)
    yield Diagnostic(
        readme,
        line,
        f"README clones {url} and builds {context} ({rest} in that clone), a path this repository does not "
        f"have, while the Dockerfile beside the README ({shown}) is built by no command of it: the build "
        "reads another repository's files, not the ones this README documents",
        confidence=LIKELY,
        rule=BROKEN_COMMAND,
    )
