"""A value the sentence introducing a command block gives a variable, against the value the block under it
passes: `Start with one CPU core (CPUS=1):` over a `docker run … -e CPUS="0" …`, or `Build it with
`GPU_ARCH` set to `gfx942`:` over `docker build --build-arg GPU_ARCH=gfx90a .`. The example does not do
what the sentence says it does (`likely`: it is read from prose).

Read: the last line of the paragraph ending just above a command block, when it ends with `:` (it
introduces the block), holding `(NAME=V)` (`` (`NAME=V`) ``) or `with NAME set to V`, NAME in upper case;
the commands of that block only, where `NAME=W` is given (`-e NAME=W`, `--env NAME=W`, `--build-arg
NAME=W`, `NAME=W cmd`, `export NAME=W`). Told when the block gives NAME one value and it differs from V
(quotes aside, case aside). Silent when the sentence says the value is a default or is replaced
(`defaults to 1; here we use 0`, `instead`, `override`, `change`, `e.g.`, `for example`, `your`), when
the block gives NAME several values or none, when either value is a placeholder or an expansion (`$`,
`<…>`, `{…}`, `...`), and for any block but the first one under the sentence.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import fence_commands, joined, without_prompt
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_NAME = r"[A-Z][A-Z0-9_]*[A-Z0-9]"
_SAID = re.compile(
    rf"\([ \t]*`?({_NAME})=([^\s`()]+)`?[ \t]*\)"
    rf"|\bwith[ \t]+`?({_NAME})`?[ \t]+set[ \t]+to[ \t]+`?([^\s`]+?)`?(?=[ \t]*[,;:)]|[ \t]*\Z|\.(?:\s|\Z))"
)
"""`(NAME=V)`, `` (`NAME=V`) ``, `with NAME set to V` (backquotes allowed around the name and the value)."""
_NOT_SAID = re.compile(
    r"\bdefault|\binstead\b|\boverrid|\breplac|\bchang|\be\.g\.|\bfor[ \t]+example\b|\bsuch[ \t]+as\b"
    r"|\byour?\b|\bwhatever\b|\bany\b|\badjust",
    re.IGNORECASE,
)
"""Words of a sentence whose value is a default, an example or one to replace, not what the block does."""
_PLACEHOLDER = re.compile(r"[$<>{}]|\.\.\.|…")


def _given(name: str) -> re.Pattern[str]:
    """`NAME=W` as a command gives it: after `-e`, `--env`, `--build-arg`, `export`, or leading a command."""
    return re.compile(rf"(?<![\w$./-])[\"']?{name}=(\"[^\"]*\"|'[^']*'|[^\s;&|\"']*)")


def _bare(value: str) -> str:
    """A value without its quotes and its case."""
    return value.strip().strip("\"'").lower()


def _introduction(doc: Document, fence: Fence) -> tuple[int, str] | None:
    """(line, text) of the line ending with `:` that ends the paragraph just above the block; None when
    there is none."""
    if not fence.lines:
        return None
    opening = fence.lines[0][0] - 1
    first = bisect.bisect_left(doc.paragraphs, opening - 2, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[first : first + 2]:
        last, text = para.lines[-1]
        if opening - 2 <= last < opening and text.rstrip().endswith((":", "：")):
            return last, text
    return None


def _values(fence: Fence, name: str) -> list[tuple[int, str]]:
    """(line, value as written) of each `NAME=W` the commands of the block give."""
    pattern = _given(name)
    found: list[tuple[int, str]] = []
    for command in fence_commands(fence):
        code = [
            (n, without_prompt(t).split(" #", 1)[0]) for n, t in command if not t.lstrip().startswith("#")
        ]
        if not code:
            continue
        text = joined(code)
        for match in pattern.finditer(text):
            line = next((n for n, t in code if f"{name}=" in t), code[0][0])
            found.append((line, match.group(1)))
    return found


def said_values(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    for fence in doc.fences:
        intro = _introduction(doc, fence)
        if intro is None or _NOT_SAID.search(intro[1]):
            continue
        line, text = intro
        for match in _SAID.finditer(text):
            name = match.group(1) or match.group(3)
            said = (match.group(2) or match.group(4)).rstrip(".,;:")
            if not said or _PLACEHOLDER.search(said):
                continue
            values = _values(fence, name)
            bare = {_bare(v) for _, v in values}
            if (
                len(bare) != 1
                or "" in bare
                or any(_PLACEHOLDER.search(v) for _, v in values)
                or _bare(said) in bare
            ):
                continue
            at, given = values[0]
            yield Diagnostic(
                readme,
                line,
                f"README introduces the command under it with {name}={said}, but the command passes "
                f"{name}={given} (line {at}): the example does not do what the sentence says",
                confidence=LIKELY,
            )
