"""Where a component's version is written: the line a finding about it cites (`Component.value_line`).

A version a RUN reads from a variable is changed where the variable gets its value, not where it is
used: `ENV PYVER=3.8.17` on line 4 for `wget …/Python-${PYVER}.tgz` on line 28, the ARG an ENV copies
(`ARG A=1.2`, `ENV B=${A}`, `ENV C=${B}`: the ARG), or the RUN's own assignment a few lines above the
command (`V=1.2 && \\` … `wget …$V…`). One home for every rule that cites a version's line."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import replace

from docgen.evaluate import Evaluation, env_pairs
from docgen.model import ArgDecl, Component, EnvVar, Instruction, ParsedDockerfile
from docgen.shell import referenced_names

_ASSIGNMENT = re.compile(r"(?<![\w$./=-])([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|)]*)")
"""A shell assignment `NAME=value` (quoted or a plain word), not an option (`--tag=1.2`) or a pin
(`torch==2.1`: the name is followed by `=` and the word by another `=`)."""

_DEPTH = 6
"""How many `ENV A=${B}` steps are followed before the line reached is cited as it is."""


def value_lines(
    components: Sequence[Component], parsed: ParsedDockerfile, evaluation: Evaluation
) -> tuple[Component, ...]:
    """`components`, each with `value_line` set when another line than its own writes its version."""
    starts = [inst.start_line for inst in parsed.instructions]
    finder = _Writers(parsed, evaluation)
    result = []
    for comp in components:
        line = _value_line(comp, parsed.instructions, starts, finder)
        result.append(replace(comp, value_line=line) if line is not None and line != comp.line else comp)
    return tuple(result)


class _Writers:
    """The ARG and ENV lines that give a name its value, per stage."""

    def __init__(self, parsed: ParsedDockerfile, evaluation: Evaluation) -> None:
        self.parsed = parsed
        self.evaluation = evaluation
        self.by_line = {inst.start_line: inst for inst in parsed.instructions}
        self.arg_lines: dict[str, int] = {}  # what a build arg's line was before: its first valued ARG
        for decl in evaluation.args:
            if not decl.bare and decl.default is not None:
                self.arg_lines.setdefault(decl.name, decl.line)
        self.envs: dict[str, list[EnvVar]] = {}
        for env in evaluation.env:
            self.envs.setdefault(env.name, []).append(env)
        self.args: dict[str, list[ArgDecl]] = {}
        for decl in evaluation.args:
            self.args.setdefault(decl.name, []).append(decl)
        self.runs: dict[int, _Run] = {}
        """What each instruction reads, worked out once: a RUN of 40,000 installs is read once."""

    def writer(self, name: str, stage: str, before: int) -> tuple[int, str, str] | None:
        """(line, value as written, value resolved) of the ENV, else the ARG, that sets `name` for an
        instruction of `stage` at line `before`; None when neither does (a shell or base image name)."""
        envs = [e for e in self.envs.get(name, ()) if e.stage == stage and e.line < before]
        if envs:
            env = max(envs, key=lambda e: e.line)
            raw = self._env_raw(env.line, name)
            return (env.line, raw, env.value) if raw is not None and env.value is not None else None
        decls = [
            d
            for d in self.evaluation.args
            if d.name == name
            and d.default is not None
            and d.line < before
            and (stage in d.stages or d.stage is None)
        ]
        # the one that writes a value; a bare `ARG NAME` only when none does (a build file passes it)
        written = [d for d in decls if not d.bare and d.raw_default is not None] or decls
        if not written:
            return None
        decl = max(written, key=lambda d: d.line)
        return decl.line, decl.raw_default or "", decl.default or ""

    def _env_raw(self, line: int, name: str) -> str | None:
        inst = self.by_line.get(line)
        if inst is None or inst.keyword != "ENV":
            return None
        return next((raw for key, raw in env_pairs(inst, self.parsed.escape) if key == name), None)

    def source(
        self, names: set[str], values: Sequence[str], stage: str, before: int, depth: int = 0
    ) -> int | None:
        """The one line that writes one of `values` among the ARG/ENV `names` read at line `before`,
        following `ENV A=${B}` down to the line where the value is spelled out."""
        found: set[int] = set()
        for name in names:
            got = self.writer(name, stage, before)
            if got is None or not any(v in got[2] for v in values):
                continue
            line, raw, _ = got
            if any(v in raw for v in values) or depth >= _DEPTH:
                found.add(line)
                continue
            deeper = self.source(referenced_names(raw), values, stage, line, depth + 1)
            found.add(deeper if deeper is not None else line)
        return found.pop() if len(found) == 1 else None


_MOST_NAMES = 64
"""A RUN reading more ARG/ENV names than this is not searched for the one behind a version (each
component would look at each name)."""


class _Run:
    """One instruction as `_value_line` reads it: the names it reads, and its own assignments of
    them (physical line, value as written)."""

    def __init__(self, inst: Instruction) -> None:
        self.body = inst.original or inst.args
        self.read = referenced_names(inst.body)
        self.assignments: list[tuple[int, str]] = []
        if self.read and len(self.read) <= _MOST_NAMES:
            for index, text in enumerate(self.body.split("\n")):
                if "=" in text:
                    self.assignments.extend(
                        (inst.start_line + index, m.group(2))
                        for m in _ASSIGNMENT.finditer(text)
                        if m.group(1) in self.read
                    )


def _value_line(
    comp: Component, instructions: Sequence[Instruction], starts: list[int], finder: _Writers
) -> int | None:
    values = [v for v in (comp.ref, comp.version) if v and any(c.isalnum() for c in v)]
    if not values:
        return None
    if comp.arg:  # a build arg's version: its ARG line, as findings cited it before
        return finder.arg_lines.get(comp.arg)
    at = bisect.bisect_right(starts, comp.line) - 1
    if at < 0:
        return None
    inst = instructions[at]
    if inst.keyword not in ("RUN", "ADD", "COPY") or comp.line > inst.end_line:
        return None
    run = finder.runs.get(inst.start_line)
    if run is None:
        run = finder.runs[inst.start_line] = _Run(inst)
    if not run.read or len(run.read) > _MOST_NAMES:
        return None  # nothing read from a variable (most RUNs), or too much to tell
    assigned = [line for line, raw in run.assignments if any(v in raw for v in values)]
    if assigned:
        return _assigned(inst, run.body, values, run.read)
    line = finder.source(run.read, values, comp.stage, inst.start_line)
    if line is not None and any(v in run.body for v in values):
        return None  # spelled out where it is used (too)
    return line


def _assigned(inst: Instruction, body: str, values: Sequence[str], read: set[str]) -> int | None:
    """The line of the RUN's own assignment (`V=1.2`) of a variable it reads, when every place the RUN
    spells the version out is such an assignment; None when it is also written where it is used."""
    lines: list[int] = []
    for index, text in enumerate(body.split("\n")):
        spans = [
            m.span(2)
            for m in _ASSIGNMENT.finditer(text)
            if m.group(1) in read and any(v in m.group(2) for v in values)
        ]
        for value in values:
            start = text.find(value)
            while start >= 0:
                if not any(a <= start and start + len(value) <= b for a, b in spans):
                    return None  # spelled out where it is used (too)
                lines.append(inst.start_line + index)
                start = text.find(value, start + 1)
    return lines[0] if lines else None
