"""Compose commands a README runs after a `cd` into a folder with no compose file: `cd deploy/gpu` then
`docker compose build`, where neither that folder nor one above it (up to the project root) holds a
default compose file (`compose.yaml`, `compose.yml`, `docker-compose.yml`, `docker-compose.yaml`), so
compose stops with "no configuration file provided".
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import _build_commands, _command_words, moves
from docgen.audit.grammar import _DOCKER_COMPOSE, read_compose
from docgen.audit.paths import resolves_inside
from docgen.files import in_submodule
from docgen.markdown import Document
from docgen.model import Diagnostic

_NEEDS_FILE = frozenset({"build", "up", "run", "create", "pull", "push", "config", "down", "logs", "start"})
"""The compose commands that read the project's compose file (not `version` or `ls`)."""


class EnteredCompose:
    """A compose command of a command block run after the block's `cd` lines, read against the folder
    they enter: silent when the README sets `COMPOSE_FILE`, when the command names its files (`-f`) or
    its folder (`--project-directory`), when a `cd` goes where the README cannot be followed (`cd $X`,
    `cd ~/src`, `cd /opt/app`) or to a folder the repository does not hold (a clone of another
    project), and when that folder or one above it, up to the project root, holds a default file."""

    def __init__(self, doc: Document, readme: str, directory: Path, project: Path | None = None) -> None:
        self.doc = doc
        self.readme = readme
        self.directory = directory
        self.top = (project or directory).resolve()

    def findings(self) -> Iterator[Diagnostic]:
        if any("COMPOSE_FILE" in text for fence in self.doc.fences for _, text in fence.lines) or any(
            "COMPOSE_FILE" in text for paragraph in self.doc.paragraphs for _, text in paragraph.lines
        ):
            return  # the README names the compose files through the environment
        for fence in self.doc.fences:
            steps = list(moves(fence))
            if not steps:
                continue
            for lines in _build_commands(fence, _DOCKER_COMPOSE):
                line = lines[0][0]
                entered = [target for at, target in steps if at <= line]
                if not entered:
                    continue
                folder = self._folder(entered)
                if folder is None:
                    continue
                words = _command_words(lines, _DOCKER_COMPOSE)
                if words is not None:
                    yield from self._check(words, line, folder)

    def _folder(self, entered: list[str]) -> Path | None:
        """The folder the `cd` steps lead to, from the README's folder or else from the project root;
        None when a step cannot be followed or neither leads to a folder of the project."""
        path = ""
        for target in entered:
            target = target.strip("\"'")
            if not target or target.startswith(("/", "$", "~", "-", "%")) or "`" in target:
                return None
            path = posixpath.normpath(posixpath.join(path, target))
        if path in ("", ".") or path.startswith(".."):
            return None
        for start in (self.directory, self.top):
            folder = start / path
            if os.path.isdir(folder) and resolves_inside(folder, self.top):
                return folder
        return None

    def _check(self, words: list[str], line: int, folder: Path) -> Iterator[Diagnostic]:
        call = read_compose(words)
        if call.verb not in _NEEDS_FILE or not call.complete or call.files:
            return
        if any(name == "--project-directory" for name, _ in call.top.values):
            return
        if in_submodule(folder, self.directory):
            return
        here = folder.resolve()
        while True:
            if any(os.path.isfile(here / name) for name in compose.DEFAULT_FILES):
                return
            if here == self.top or here.parent == here or not here.is_relative_to(self.top):
                break
            here = here.parent
        shown = posixpath.relpath(folder.resolve().as_posix(), self.top.as_posix())
        others = sorted(
            p.name for p in folder.iterdir() if "compose" in p.name and p.suffix in (".yml", ".yaml")
        )
        hint = f" (it holds {', '.join(others)})" if others else ""
        text = (
            f"README runs docker compose {call.verb} in {shown}, but no compose.yaml, compose.yml, "
            f"docker-compose.yml or docker-compose.yaml is in that folder nor in one above it{hint}"
        )
        yield Diagnostic(self.readme, line, text, confidence=CERTAIN)


def entered_compose(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of `EnteredCompose`."""
    return EnteredCompose(doc, readme, directory, project).findings()
