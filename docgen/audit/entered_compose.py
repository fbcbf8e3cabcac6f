"""Compose commands a README runs after a `cd` into a folder with no compose file: `cd deploy/gpu` then
`docker compose build`, where neither that folder nor one above it (up to the project root) holds a
default compose file (`compose.yaml`, `compose.yml`, `docker-compose.yml`, `docker-compose.yaml`), so
compose stops with "no configuration file provided". A `cd` into the folder a clone of this very
repository makes (`git clone https://github.com/o/app.git` then `cd app`, `steps.own_clone`: the
address names a remote of the checkout, or the folder has the checkout's name) enters the repository's
root: a README kept in `docker/app/` beside its compose file, whose steps build at the clone's root,
builds nothing (`likely`: the clone is told to be this repository by its address or its name). A clone
of another repository, its name not this one's (`git clone https://github.com/YOUR_USERNAME/app-docker`
in a checkout of `o/tools`), holds files docgen cannot see: no finding.

The same for compose commands run where the README stands, in a project with no default compose file
in the README's folder or above (`unentered_compose`).
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import bare_commands, build_commands, command_words, moves
from docgen.audit.grammar import DOCKER_COMPOSE, read_compose
from docgen.audit.own_repo import remote_names, repository_root
from docgen.audit.paths import resolves_inside
from docgen.audit.steps import CLONE, own_clone
from docgen.files import in_submodule, real_path
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic

_NEEDS_FILE = frozenset({"build", "up", "run", "create", "pull", "push", "config", "down", "logs", "start"})
"""The compose commands that read the project's compose file (not `version` or `ls`)."""


WRITES = re.compile(
    r"(?:^|[;&|(][ \t]*|&&[ \t]*)(?:sudo[ \t]+)?(?:cp|mv|ln|install|make|curl|wget|envsubst|tee|sed|cat|echo"
    r"|printf|python3?|bash|sh|\./\S+|\S+\.sh)\b|>"
)
"""A step that may write a file (`cp docker/x/compose.yaml .`, `./configure`, `> compose.yaml`)."""


def _walked(targets: list[str]) -> list[str | None]:
    """The path each run of the first k `cd` `targets` leads to (k from 0: `""`), normalized; None from
    the first step that cannot be followed (`cd $X`, `cd ~/src`, `cd /opt/app`, an empty one) on."""
    paths: list[str | None] = [""]
    for target in targets:
        path = paths[-1]
        target = target.strip("\"'")
        if path is None or not target or target.startswith(("/", "$", "~", "-", "%")) or "`" in target:
            paths.append(None)
        else:
            paths.append(posixpath.normpath(posixpath.join(path, target)))
    return paths


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
        self.root: Path | None = None  # the repository's root and remotes, read at the first clone
        self.remotes: set[str] = set()

    def findings(self) -> Iterator[Diagnostic]:
        if any("COMPOSE_FILE" in text for fence in self.doc.fences for _, text in fence.lines) or any(
            "COMPOSE_FILE" in text for paragraph in self.doc.paragraphs for _, text in paragraph.lines
        ):
            return  # the README names the compose files through the environment
        for fence in self.doc.fences:
            steps = list(moves(fence))
            if not steps:
                continue
            clones = self._own_clones(fence)
            # the paths the `cd` steps lead to, each step's read once for all the commands after it
            # (a block of thousands of `cd` and compose lines read them all again for each command)
            ats = [at for at, _ in steps]
            from_first = _walked([t for _, t in steps[1:]])  # (`_cloned`: from the first step's folder)
            from_here = _walked([t for _, t in steps])  # (`_folder`)
            writes = [at for at, text in fence.lines if at >= steps[0][0] and WRITES.search(text)]
            for lines in build_commands(fence, DOCKER_COMPOSE):
                line = lines[0][0]
                count = bisect.bisect_right(ats, line)
                if not count:
                    continue
                entered = steps[:1]
                cloned = self._cloned(entered, clones, from_first[count - 1])
                if cloned and bisect.bisect_left(writes, line) > 0:
                    continue  # (`cp docker/x/compose.yaml .`, `./configure`: a file may be made)
                folder = cloned[0] if cloned else self._folder(from_here[count])
                if folder is None:
                    continue
                words = command_words(lines, DOCKER_COMPOSE)
                if words is not None:
                    yield from self._check(words, line, folder, cloned[1] if cloned else None)

    def _own_clones(self, fence: Fence) -> dict[str, int]:
        """The folder each `git clone` of this very repository in `fence` makes → its README line."""
        found: dict[str, int] = {}
        for line, text in fence.lines:
            if (clone := CLONE.search(text)) is None:
                continue
            if self.root is None:
                self.root = repository_root(self.directory) or self.directory.resolve()
                self.remotes = remote_names(repository_root(self.directory))
            words = re.split(r"&&|\|\||;|\|| #", clone.group(1), maxsplit=1)[0].split()
            if (folder := own_clone(words, self.root, self.remotes)) is not None:
                found.setdefault(folder, line)
        return found

    def _cloned(
        self, entered: list[tuple[int, str]], clones: dict[str, int], path: str | None
    ) -> tuple[Path, str] | None:
        """The folder the `cd` steps lead to, and the path the README gives it, when the first
        (`entered`) enters a clone of this very repository made before it (`clones`): a folder of the
        repository; None otherwise or when a step cannot be followed (`path`, where the steps after
        the first lead from it: `_walked`)."""
        at, first = entered[0]
        first = first.strip("\"'").strip("/")
        if self.root is None or clones.get(first, at + 1) > at:
            return None
        if path is None:
            return None
        if path.startswith(".."):
            return None
        folder = self.root / path if path not in ("", ".") else self.root
        if not os.path.isdir(folder) or not resolves_inside(folder, self.root):
            return None
        return folder, posixpath.join(first, path) if path not in ("", ".") else first

    def _folder(self, path: str | None) -> Path | None:
        """The folder the `cd` steps lead to (`path`: `_walked`), from the README's folder or else from
        the project root; None when a step cannot be followed or neither leads to a folder of the
        project."""
        if path is None or path in ("", ".") or path.startswith(".."):
            return None
        for start in (self.directory, self.top):
            folder = start / path
            if os.path.isdir(folder) and resolves_inside(folder, self.top):
                return folder
        return None

    def _check(self, words: list[str], line: int, folder: Path, cloned: str | None) -> Iterator[Diagnostic]:
        call = read_compose(words)
        if call.verb not in _NEEDS_FILE or not call.complete or call.files:
            return
        if any(name == "--project-directory" for name, _ in call.top.values):
            return
        if in_submodule(folder, self.directory):
            return
        here, top = real_path(folder), (self.root or self.top) if cloned else self.top
        while True:
            if any(os.path.isfile(here / name) for name in compose.DEFAULT_FILES):
                return
            if here == top or here.parent == here or not here.is_relative_to(top):
                break
            here = here.parent
        shown = (
            f"{cloned} (a clone of this repository)"
            if cloned
            else posixpath.relpath(real_path(folder).as_posix(), self.top.as_posix())
        )
        others = sorted(
            p.name for p in folder.iterdir() if "compose" in p.name and p.suffix in (".yml", ".yaml")
        )
        hint = f" (it holds {', '.join(others)})" if others else ""
        text = (
            f"README runs docker compose {call.verb} in {shown}, but no compose.yaml, compose.yml, "
            f"docker-compose.yml or docker-compose.yaml is in that folder nor in one above it{hint}"
        )
        yield Diagnostic(self.readme, line, text, confidence=LIKELY if cloned else CERTAIN)


def entered_compose(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of `EnteredCompose`."""
    return EnteredCompose(doc, readme, directory, project).findings()


_NAMES_DEFAULT = re.compile(r"(?i)(?<![\w-])(?:docker-)?compose\.ya?ml\b|COMPOSE_FILE")
"""A README naming a default compose file (one it may tell the reader to write or fetch) or the files
compose reads through the environment."""
_LEAVES = re.compile(
    r"(?i)(?:^|[;&|(`$][ \t]*|\s)(?:cd|pushd)[ \t]+\S|\bgit[ \t]+clone\b|\bunzip\b|\btar[ \t]+-?x"
    r"|\b(?:go|navigate|change|switch|move|step)[ \t]+(?:in)?to\b"
)
"""A line that may take the reader to another folder (`cd`, a clone, an unpacked archive, `go to X`)."""


def _readme_commands(doc: Document) -> list[tuple[int, list[str]]]:
    """(README line, words after `docker compose`) of each compose command of the README's command blocks,
    inline code and command lines of its prose, in README order."""
    found: list[tuple[int, list[str]]] = []
    for fence in doc.fences:
        for lines in build_commands(fence, DOCKER_COMPOSE):
            if (words := command_words(lines, DOCKER_COMPOSE)) is not None:
                found.append((lines[0][0], words))
    inline = [
        (line, code)
        for para in doc.paragraphs
        for line, text in para.lines
        if "`" in text
        for _, _, code in code_spans(text)
        if DOCKER_COMPOSE.search(code)
    ]
    inline += list(bare_commands(doc, DOCKER_COMPOSE))
    for line, code in inline:
        if (words := command_words([(line, code)], DOCKER_COMPOSE)) is not None:
            found.append((line, words))
    return sorted({line: words for line, words in reversed(found)}.items())  # (a line read once)


def unentered_compose(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """Compose commands the README runs where it stands (no `-f`, no `cd`, clone or other folder before
    the first), while neither the README's folder nor one above it, up to the project root, holds a
    default compose file: `docker-compose build app-cpu` in a repository with no compose file at all, so
    compose stops with "no configuration file provided" (`certain`, told once, at the first). Silent when
    the README names a default compose file anywhere (it may tell the reader to write or download one)
    or `COMPOSE_FILE`, when a command names its files or folder (`-f`, `--project-directory`), and in a
    submodule."""
    if _NAMES_DEFAULT.search(text):
        return
    commands = []
    for line, words in _readme_commands(doc):
        call = read_compose(words)
        if call.verb not in _NEEDS_FILE or not call.complete:
            continue
        if call.files or any(name == "--project-directory" for name, _ in call.top.values):
            return  # the README names the files its commands read
        commands.append((line, call.verb))
    if not commands:
        return
    first = commands[0][0]
    if any(_LEAVES.search(body) for body in text.splitlines()[:first]):
        return
    top = real_path((project or directory).resolve())
    here = real_path(directory)
    if in_submodule(directory, directory) or not here.is_relative_to(top):
        return
    while True:
        if any(os.path.isfile(here / name) for name in compose.DEFAULT_FILES):
            return
        if here == top or here.parent == here:
            break
        here = here.parent
    others = sorted(
        p.name for p in directory.iterdir() if p.is_file() and compose.FILE_NAME.fullmatch(p.name)
    )
    hint = f" (it holds {', '.join(others)}: name one with -f)" if others else ""
    more = len(commands) - 1
    said = f" (and {more} more compose command{'s' if more > 1 else ''} of the README)" if more else ""
    where = (
        "the README's folder"
        if real_path(directory) == top
        else f"the README's folder, {os.path.relpath(real_path(directory), top)}/,"
    )
    yield Diagnostic(
        readme,
        first,
        f"README runs docker compose {commands[0][1]} where it stands{said}, but no "
        f"compose.yaml, compose.yml, docker-compose.yml or docker-compose.yaml is in {where} nor in one "
        f"above it{hint}: compose finds no configuration file",
        confidence=CERTAIN,
    )
