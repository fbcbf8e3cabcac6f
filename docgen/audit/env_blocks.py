"""A code block that restates the image's build args and environment, `NAME=VALUE` a line (an
`## Environment` section listing `ANACONDA_PATH="/usr/local/anaconda3"`, `LANG=en_US.UTF-8`,
`SHELL=/bin/bash`), against the ARG defaults and ENV values of the Dockerfiles: a line whose value no
Dockerfile gives that name, in a block most of whose other lines agree with them.

The agreement is what makes the block a copy of the image's settings rather than values to pass or a
`.env` to write: at least three of its names take a value a Dockerfile gives them, and at least twice
as many as take another. A value with `$NAME` references is expanded with the values the Dockerfiles
give those names; when one of them is no name they give, the line is compared as written with the
ARG's default as written (`${A}-${B}` and `$A-$B` are the same). `likely`: a block may show a
variant's values.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.copies import intro_words
from docgen.audit.wording import about_build_args
from docgen.build_scripts import DOCKER, container_command
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_LINE = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s\"'#]*)[ \t]*\Z")
"""A line of the block: `NAME=VALUE`, `NAME="VALUE"` (nothing else on it)."""
_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
"""A `$NAME` or `${NAME}` reference, read as a shell reads it (`$A_B` is the name `A_B`)."""
_LANGS = frozenset(
    {"", "bash", "sh", "shell", "text", "txt", "env", "dotenv", "ini", "properties", "console"}
)
_NOT_THE_IMAGE = re.compile(
    r"\.env\b|compose|\byour\b|\bexample\b|e\.g\.|\bcustom|\boverrid|\bchange\b|\bhost\b|\bexport\b"
    + "|"
    + container_command("run", DOCKER, container=False)
    + r"|-e\b|--env\b",
    re.IGNORECASE,
)
"""An introduction that makes the block values to choose or pass, not the image's own."""
_MIN_AGREEING = 3


@dataclass(frozen=True)
class _Given:
    """A value a Dockerfile gives a name."""

    value: str
    """Quotes removed, references expanded (None-valued ones are not kept)."""
    raw: str | None
    """An ARG's default as written, references as `${NAME}`; None for an ENV."""
    where: str
    """`Dockerfile:32 sets ARG NAME=…`."""


def env_blocks(part: Document, doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for each line of a restating block (see the module) whose value no Dockerfile gives."""
    given: dict[str, list[_Given]] | None = None
    for fence in part.fences:
        if fence.lang.lower() not in _LANGS or len(fence.lines) < _MIN_AGREEING:
            continue
        pairs = _pairs(fence)
        if pairs is None:
            continue
        intro = intro_words(doc, fence)
        if _NOT_THE_IMAGE.search(intro) or about_build_args(intro):
            continue
        if given is None:
            given = _given(auditor)
        values = {name: {g.value for g in found} for name, found in given.items()}
        judged = [
            (line, name, said, _agrees(said, given[name], values))
            for line, name, said in pairs
            if name in given
        ]
        agreeing = sum(1 for *_, ok in judged if ok)
        differing = [(line, name, said) for line, name, said, ok in judged if ok is False]
        if agreeing < _MIN_AGREEING or agreeing < 2 * len(differing):
            continue
        for line, name, said in differing:
            shown = given[name][0]
            yield Diagnostic(
                auditor.path,
                line,
                f"README says {name}={said} but {shown.where}",
                confidence=LIKELY,
            )


def _pairs(fence: Fence) -> list[tuple[int, str, str]] | None:
    """(README line, name, value without quotes) of each line of `fence`, None when a line is not
    `NAME=VALUE` (a comment or a blank line aside): a block of commands is not read."""
    found: list[tuple[int, str, str]] = []
    for line, text in fence.lines:
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        match = _LINE.match(text)
        if match is None:
            return None
        value = match.group(2)
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        found.append((line, match.group(1), value))
    return found if len(found) >= _MIN_AGREEING else None


def _given(auditor: Auditor) -> dict[str, list[_Given]]:
    """NAME → the values the Dockerfiles give it: ARG defaults, then ENV values."""
    given: dict[str, list[_Given]] = {}
    for model in auditor.models:
        for arg in model.args:
            if arg.default is None or arg.raw_default is None:
                continue
            raw = _braced(arg.raw_default.strip("\"'"))
            where = f"{model.path}:{arg.line} sets ARG {arg.name}={arg.raw_default}"
            given.setdefault(arg.name, []).append(_Given(arg.default, raw, where))
        for env in model.env:
            if env.value is None or env.inherited:
                continue
            where = f"{model.path}:{env.line} sets ENV {env.name}={env.value}"
            given.setdefault(env.name, []).append(_Given(env.value, None, where))
    return given


def _braced(value: str) -> str:
    """`value` with every reference written `${NAME}`."""
    return _REF.sub(lambda m: "${" + (m.group(1) or m.group(2)) + "}", value)


def _agrees(said: str, found: list[_Given], values: dict[str, set[str]]) -> bool | None:
    """True when `said` is a value a Dockerfile gives the name, False when it is none of them, None
    when docgen cannot tell (a reference to a name given several values)."""
    if any(said == g.value for g in found):
        return True
    if "$" not in said:
        return False
    names = [m.group(1) or m.group(2) for m in _REF.finditer(said)]
    if all(len(values.get(n, ())) == 1 for n in names):
        expanded = _REF.sub(lambda m: next(iter(values[m.group(1) or m.group(2)])), said)
        return any(expanded == g.value for g in found)
    if any(len(values.get(n, ())) > 1 for n in names):
        return None
    raws = [g.raw for g in found if g.raw is not None]
    if not raws:
        return None
    return _braced(said) in raws
