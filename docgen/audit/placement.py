"""Where a README's steps place the reader: the folder each command runs in, read across the README's
blocks in order. The README's folder until a line moves the reader; a `cd` from a known folder into a
folder of the project moves them there; after a `git clone` of this very repository (`steps.own_clone`,
or the words before it: `Clone the repository`) and a `cd` into the folder it makes, the repository's
root, and the folders later `cd` steps lead to from there. A clone of another project moves no one (the
reader stays where they ran it), but its folder is not the project's: a `cd` into it is a move to an
unknown folder. A README below the repository's root whose first `cd` is written from the root
(`cd docker` in docker/README.md) is read from the root. Unknown after any other move: a `cd` to a
variable, a home or absolute path, `..` or `-`, a `popd`, an archive unpacked, `go to …` in prose, a
command after which the next ones may run in a container or on another host.

`Placement.at` tells the folder at a README line (what the lines above it did); `Placement.steps` the
folder each step of one command runs in, the `cd` steps of that command before it counted too.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen.audit.commands import MOVE, clone_target, moves
from docgen.audit.own_repo import remote_names, repository_root
from docgen.audit.paths import resolves_inside
from docgen.audit.steps import CLONE, own_clone
from docgen.files import in_submodule, real_path
from docgen.markdown import Document

LEAVES = re.compile(
    r"(?i)(?:^|[;&|(`$][ \t]*|\s)(?:cd|pushd)[ \t]+\S|\bgit[ \t]+clone\b|\bunzip\b|\btar[ \t]+-?x"
    r"|\b(?:go|navigate|change|switch|move|step)[ \t]+(?:in)?to\b"
)
"""A line that may take the reader to another folder (`cd`, a clone, an unpacked archive, `go to X`)."""
_OWN_CLONE_SAID = re.compile(
    r"(?i)\bclon(?:e|ing)\b[^.\n]{0,40}?\b(?:this|the|our)\s+(?:git\s+)?(?:repo|repository|project|code|source)\b"
)
"""Words before a `git clone` telling it clones the README's own repository (`Clone the Repository:`)."""
_INSIDE = re.compile(
    r"(?i)\b(?:docker|podman)(?:[ \t]+compose|-compose)?[ \t]+(?:exec|run|attach)\b[^\n]*[ \t]-\w*[it]"
    r"|\b(?:ssh|vagrant[ \t]+ssh|toolbox[ \t]+enter|distrobox[ \t]+enter)\b"
    r"|\b(?:inside|in|within|into)[ \t]+(?:the|a|your|this)[ \t]+(?:running[ \t]+)?"
    r"(?:container|vm|devcontainer)\b"
)
"""A line after which commands may run in a container or on another host (`docker exec -it app bash`)."""
_POPD = re.compile(r"(?:^|&&|\|\||;)[ \t]*popd\b")
"""A `popd`: the reader goes back to a folder not followed here."""
_CLONES = ("clone", "other")
_UNFOLLOWED = ("/", "$", "~", "-", "%", "..")
"""How a `cd` target starts when it cannot be followed: an absolute path, a variable, a home, `-`, `..`."""


@dataclass(frozen=True)
class Placed:
    """Where a command runs, as the README's steps place the reader."""

    folder: Path
    """The folder (a folder of the project)."""
    shown: str | None
    """The path the README gives it (from the README's folder, or from the clone's folder as named);
    None for the README's folder reached by no move."""
    sure: bool
    """False when the folder is in a clone taken for this repository only by the words above it."""
    since: int
    """README line of the last move (0: none)."""


@dataclass
class _State:
    """What the events up to a line did: the clones of this repository made (their folder → told by
    address or name, not only by words), other projects' clone folders, where the reader stands
    (`("readme" | "root", path)`, None: unknown), whether a move happened, and the line of the last."""

    clones: dict[str, bool] = field(default_factory=dict)
    others: set[str] = field(default_factory=set)
    where: tuple[str, str] | None = ("readme", "")
    moved: bool = False
    since: int = 0


class Placement:
    """Where the README's commands place the reader at each line (see the module): read once, each
    call going on from the last when asked in README order (a README of thousands of `cd` lines is not
    read again for each command)."""

    def __init__(self, doc: Document, text: str, directory: Path, top: Path) -> None:
        self.directory = directory
        self.top = top
        self.root = repository_root(directory) or top
        remotes = remote_names(repository_root(directory))
        body = text.splitlines()
        fenced: set[int] = set()
        events: list[tuple[int, str, str, bool]] = []  # (line, kind, folder, sure): clone/other/cd/lost
        for fence in doc.fences:
            lines = {line for line, _ in fence.lines}
            fenced |= lines
            cds = dict(moves(fence))
            for line, code in fence.lines:
                if (clone := CLONE.search(code)) is not None:
                    words = re.split(r"&&|\|\||;|\|| #", clone.group(1), maxsplit=1)[0].split()
                    folder = own_clone(words, self.root, remotes)
                    sure = folder is not None
                    if folder is None:
                        folder = self._said_own(words, body, line)
                    if folder:
                        events.append((line, "clone", folder, sure))
                    else:
                        events.append((line, "other", _plain_clone(words) or "", False))
                if line in cds:
                    for match in MOVE.finditer(code):
                        events.append((line, "cd", match.group(1), True))
                elif CLONE.search(code) is None and (LEAVES.search(code) or _INSIDE.search(code)):
                    events.append((line, "lost", "", False))
                if _POPD.search(code):  # (back to where the `pushd` was: after it on its line)
                    events.append((line, "lost", "", False))
        for number, line_text in enumerate(body, 1):
            if number not in fenced and (LEAVES.search(line_text) or _INSIDE.search(line_text)):
                events.append((number, "lost", "", False))
        events.sort(key=lambda e: e[0])
        self.events = events
        self.lines = [e[0] for e in events]
        self._state = _State()
        self._read = 0  # the events `_state` holds

    def _said_own(self, words: list[str], body: list[str], line: int) -> str | None:
        """The folder a clone makes when the lines just above it say it clones this repository."""
        folder = _plain_clone(words)
        if folder is None:
            return None
        above = [t for t in body[max(0, line - 6) : line - 1] if t.strip() and not t.strip().startswith("`")]
        return folder if any(_OWN_CLONE_SAID.search(t) for t in above[-3:]) else None

    def _upto(self, line: int) -> _State:
        """The state the events of the lines above README `line` leave (kept: a later line goes on
        from it)."""
        count = bisect.bisect_left(self.lines, line)
        if count < self._read:
            self._state, self._read = _State(), 0
        for at, kind, step, sure in self.events[self._read : count]:
            self._apply(self._state, at, kind, step, sure)
        self._read = count
        return self._state

    def _apply(self, state: _State, line: int, kind: str, step: str, sure: bool) -> None:
        if kind == "other":
            if step:
                state.others.add(step)
            return
        state.moved, state.since = True, line
        if kind == "clone":
            state.clones[step] = sure
            state.where = None  # (the reader stands above the clone until a `cd` enters it)
        elif kind == "lost":
            state.where = None
        else:
            state.where = self._entered(state, step)

    def _entered(self, state: _State, step: str) -> tuple[str, str] | None:
        """Where `cd step` leads from where `state` stands."""
        target = step.strip("\"'")
        first, _, rest = target.strip("/").partition("/")
        where = state.where
        if first in state.clones and not target.startswith("/"):
            return ("root", posixpath.normpath(rest) if rest else "")
        if where is None or not target or target.startswith(_UNFOLLOWED) or first in state.others:
            return None
        moved = (where[0], posixpath.normpath(posixpath.join(where[1], target)))
        base = self.root if moved[0] == "root" else self.directory
        if os.path.isdir(base / moved[1]):
            return moved
        if (
            where == ("readme", "")
            and real_path(self.root) != real_path(self.directory)
            and os.path.isdir(self.root / target)
        ):
            # a README below the root whose first `cd` is written from the root (`cd docker` in
            # docker/README.md): the reader runs its commands from the repository's root
            return ("root", posixpath.normpath(target))
        return None

    def _placed(self, state: _State) -> Placed | None:
        where = state.where
        if where is None:
            return None
        base = self.root if where[0] == "root" else self.directory
        folder = base / where[1] if where[1] not in ("", ".") else base
        if not resolves_inside(folder, self.top) or in_submodule(folder, self.directory):
            return None
        if not state.moved:
            return Placed(folder, None, True, 0)
        name = next(iter(state.clones), "") if where[0] == "root" else ""
        shown = posixpath.join(name, where[1]) if name and where[1] not in ("", ".") else name or where[1]
        sure = where[0] == "readme" or state.clones.get(name, not state.clones)
        return Placed(folder, shown or ".", sure, state.since)

    def at(self, line: int) -> tuple[Path, str | None] | None:
        """(the folder the reader stands in at README `line`, the clone's path to it, None for the
        README's folder reached by no move); None when unknown."""
        placed = self._placed(self._upto(line))
        return None if placed is None else (placed.folder, placed.shown)

    def steps(self, line: int, steps: Sequence[str]) -> list[Placed | None]:
        """Where each of `steps` (the steps of one command starting at README `line`, in order) runs:
        where the lines above place the reader, moved by the `cd` steps of the command before it."""
        start = self._upto(line)
        state = _State(dict(start.clones), set(start.others), start.where, start.moved, start.since)
        here = bisect.bisect_left(self.lines, line)
        clones = [e for e in self.events[here : bisect.bisect_right(self.lines, line)] if e[1] in _CLONES]
        placed: list[Placed | None] = []
        for step in steps:
            placed.append(self._placed(state))
            if clones and CLONE.search(step):  # (`git clone …/app && cd app && …`)
                self._apply(state, *clones.pop(0))
            for match in MOVE.finditer(step.strip()):
                self._apply(state, line, "cd", match.group(1), True)
            if _POPD.search(step):
                self._apply(state, line, "lost", "", False)
        return placed


def _plain_clone(words: list[str]) -> str | None:
    """The folder a `git clone` (its words after `clone`) makes, when it is a plain name."""
    target = clone_target(words)
    return target[0] if target is not None and not target[0].startswith((".", "$", "-")) else None
