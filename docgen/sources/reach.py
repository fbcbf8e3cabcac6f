"""Which build args a RUN reads only in shell branches the default build does not take.

`ARG VLLM_BRANCH=…` read only in `if [ "$BUILD_VLLM" = "1" ]; then … git checkout ${VLLM_BRANCH}; fi`
under `ENV BUILD_VLLM=0` sets nothing the image has: the command that reads it never runs
(`Command.skipped`), just as the clone there is not listed. A RUN's commands are collected while it is
read; at its end, the names read by skipped commands and by no command that runs are that RUN's
unreached uses. A branch whose test cannot be decided runs as far as docgen knows: its uses count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from docgen.shell import referenced_names
from docgen.sources.script import Command

MAX_COMMANDS = 4096
"""Commands of one RUN kept to decide its unreached uses; past that, every use of the RUN counts
(a generated RUN of a million commands must not be held in memory for this)."""

_TESTS = frozenset({"if", "elif", "while", "until", "case"})
_BEFORE = frozenset({"then", "else", "do", "{", "!", "time"})


@dataclass
class Reach:
    """The commands of the RUN being read, and the unreached uses found so far."""

    running: list[Command] = field(default_factory=list)
    """Commands of the RUN being read that the default build runs."""
    skipped: list[Command] = field(default_factory=list)
    """Commands of the RUN being read in a branch the default build does not take."""
    full: bool = False
    """True once the RUN had more than `MAX_COMMANDS` commands: none of its uses is unreached."""
    unreached: set[tuple[str, int]] = field(default_factory=set)
    """(build arg, line of the RUN) of each RUN that reads the arg only where the build never goes."""

    def begin(self) -> None:
        """Start a RUN."""
        self.running.clear()
        self.skipped.clear()
        self.full = False

    def note(self, cmd: Command) -> None:
        """Keep `cmd`, a command of the RUN being read (nested scripts' commands too)."""
        if self.full:
            return
        kept = self.skipped if cmd.skipped is not None and not _tests(cmd) else self.running
        kept.append(cmd)
        if len(self.running) + len(self.skipped) > MAX_COMMANDS:
            self.full = True
            self.running.clear()
            self.skipped.clear()

    def settle(self, line: int, args: frozenset[str]) -> None:
        """End the RUN starting at `line`: record the build args among `args` it reads only in
        commands the default build skips."""
        if self.skipped and not self.full:
            dead = _names(self.skipped) & args
            if dead:
                dead -= _names(self.running)
                self.unreached.update((name, line) for name in dead)
        self.begin()


def _tests(cmd: Command) -> bool:
    """True for a command that opens a branch (`if [ "$V" = 1 ]; then`, `elif …`, `case "$V" in`):
    its test is evaluated even when the branch it opens is not taken, so what it reads is read."""
    for word in cmd.words:
        if word.quoted or word.text not in _BEFORE:
            return not word.quoted and word.text in _TESTS
    return False


def _names(commands: Iterable[Command]) -> set[str]:
    """Every name `commands` read: substituted into their words and redirections, or written in text
    the reader leaves as is (`$(echo $V)`, a here-document's body)."""
    found: set[str] = set()
    for cmd in commands:
        for word in (*cmd.words, *(target for _, target in cmd.redirects)):
            found |= word.names
            if "$" in word.text:
                found |= referenced_names(word.text)
        for body, _ in cmd.heredocs:
            if "$" in body:
                found |= referenced_names(body)
    return found
