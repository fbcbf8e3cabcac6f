"""A base image the documented build cannot get: `FROM renderable-box:1.0.0`, a name with no namespace and
no registry that is no Docker official image, no stage, not made by an ARG, while nothing of the
repository (a script, a compose file, a Makefile, a CI workflow, another Dockerfile, audited or not)
builds it and the README, which documents `docker build` of this Dockerfile, never names it. Docker looks for
`docker.io/library/renderable-box`, which does not exist: the build fails on a clean machine, and the
README should say where the base comes from (`likely`: the author's machine has it).

Docker official images are the names of `commands.OFFICIAL`, a table kept there (docgen reads no registry).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import FILE_FLAG, OFFICIAL, fence_commands, image_repository, joined
from docgen.audit.containers import text_files
from docgen.audit.set_aside import ci_workflows
from docgen.build_scripts import BUILD
from docgen.files import dockerfiles_in, real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Stage

_WORD = r"(?<![\w./-]){}(?![\w/-])"
"""The base's name as a word of a text: not part of a longer name or path."""
_LOADS = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+)?(?:load|import)\b")


def _builds(doc: Document) -> list[tuple[int, str | None]]:
    """(README line, the Dockerfile its `-f` names or None) of each build command of a command block."""
    found: list[tuple[int, str | None]] = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if BUILD.search(command):
                flag = FILE_FLAG.search(command)
                found.append((lines[0][0], flag.group(1) if flag is not None else None))
    return found


def _of(file: str | None, model: ImageModel, count: int) -> bool:
    """True when a build naming `file` (None: none) builds the Dockerfile of `model`, one of `count`."""
    if file is None:
        return count == 1
    return model.path == file or model.path.endswith("/" + file.removeprefix("./"))


def _needed(model: ImageModel) -> list[Stage]:
    """The stages a build of `model`'s target runs (BuildKit skips the others): its chain and the stages
    it copies from, theirs in turn."""
    todo = model.chain()
    seen: dict[int, Stage] = {}
    while todo:
        stage = todo.pop()
        if stage.index in seen:
            continue
        seen[stage.index] = stage
        for index in stage.depends_on:
            todo.extend(model.chain(model.stages[index]))
    return [seen[i] for i in sorted(seen)]


def unbuilt_bases(
    doc: Document, text: str, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    builds = _builds(doc)
    if not builds or _LOADS.search(text):
        return
    # another Dockerfile of the repository, audited or not, may build the base
    if len(models) != 1 or len(dockerfiles_in(directory, 3, pass_unreadable=True)) > 1:
        return
    texts: list[str] | None = None
    told: set[str] = set()
    for model in models:
        line = next((n for n, file in builds if _of(file, model, len(models))), None)
        if line is None:
            continue
        for stage in _needed(model):
            base = stage.base
            if stage.parent is not None or "$" in stage.base_raw or not base or base in told:
                continue
            name = image_repository(base)
            if "/" in name or name.lower() in OFFICIAL or not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
                continue
            word = re.compile(_WORD.format(re.escape(name)), re.IGNORECASE)
            if word.search(text):
                continue  # the README says how to get it (or at least names it)
            if texts is None:
                readme = real_path(directory / Path(path).name)
                files = text_files(directory.resolve(), readme)
                if files is None:
                    return
                texts = [text_or_none(f) or "" for f in files] + ci_workflows(directory, project)
            if any(word.search(t) for t in texts):
                continue  # a script, compose file or workflow of the repository makes it
            told.add(base)
            yield Diagnostic(
                path,
                line,
                f"README builds {model.path}, whose base {base} ({model.path}:{stage.line}) has no namespace "
                f"and is no Docker official image, and nothing of the README or the repository builds or "
                f"pulls it: docker looks for docker.io/library/{name}, so the documented build fails on a "
                f"clean machine (say how to get {name} first)",
                confidence=LIKELY,
            )
