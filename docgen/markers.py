"""Find, replace and verify generated blocks in a Markdown text (pure functions over strings).

A block is a begin marker line, the generated body, and an end marker line, each marker alone on its
line (leading and trailing spaces allowed):

    <!-- BEGIN docgen:versions -->
    | Component | Version | … generated …
    <!-- END docgen:versions -->

Markers inside fenced code blocks are examples, not markers, and are ignored. Everything outside the
bodies (the markers themselves included) is kept byte for byte, line endings and final newline too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from docgen.errors import MarkerError

# Linear on any line: the attributes start with whitespace, so no two repeats compete for a character.
_MARKER = re.compile(r"[ \t]*<!--[ \t]*(BEGIN|END)[ \t]+docgen:([^\s>]*)((?:\s[^>]*)?)-->[ \t]*\r?\n?\Z")
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Block:
    """One generated block found in a text."""

    name: str
    """The section name after `docgen:` (`versions`)."""
    begin_line: int
    """1-based line of the begin marker."""
    end_line: int
    """1-based line of the end marker."""
    body_start: int
    """Offset in the text where the body starts (just after the begin marker's line ending)."""
    body_end: int
    """Offset where the body ends (the start of the end marker's line)."""
    attributes: str = ""
    """Anything written after the name in the begin marker, kept as is."""


def _lines_with_offsets(text: str) -> Iterable[tuple[int, int, str]]:
    """(1-based line number, offset, line including its line ending) for every line of `text`."""
    # Markdown ends lines with \n, \r\n or \r only (str.splitlines would also split at \f, \x85,
    # \u2028 … and so disagree with editors about line numbers). A byte-order mark is not text.
    for number, match in enumerate(_LINE.finditer(text), start=1):
        bom = 1 if number == 1 and text.startswith("\ufeff") else 0
        yield number, match.start() + bom, match.group()[bom:]


def find_blocks(text: str, path: str = "<text>", known: Iterable[str] | None = None) -> list[Block]:
    """Every block in `text`, in order.

    Raises `MarkerError` (with `path` and line) for a begin without end, an end without begin, an end
    whose name differs from the open block, a block inside a block, a name used twice, a malformed
    name, or (when `known` is given) a name docgen does not know.
    """
    known_names = set(known) if known is not None else None
    blocks: list[Block] = []
    seen: dict[str, int] = {}
    open_name: str | None = None
    open_line = 0
    open_body = 0
    open_attrs = ""
    fence: str | None = None
    for number, offset, line in _lines_with_offsets(text):
        fence_match = _FENCE.match(line)
        if fence_match:
            mark = fence_match.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip().strip(mark[0]):
                fence = None
            continue
        if fence is not None or "docgen:" not in line:
            continue
        match = _MARKER.match(line.replace("\r\n", "\n").rstrip("\r"))
        if not match:
            continue
        kind, name, attrs = match.group(1), match.group(2), match.group(3).strip()
        if not _NAME.match(name):
            raise MarkerError(
                f"invalid block name {name!r} (use lower-case letters, digits, '-')", path, number
            )
        if kind == "BEGIN":
            if open_name is not None:
                raise MarkerError(
                    f"BEGIN docgen:{name} inside block docgen:{open_name} opened at line {open_line}; "
                    f"add <!-- END docgen:{open_name} --> before it",
                    path,
                    number,
                )
            if known_names is not None and name not in known_names:
                raise MarkerError(
                    f"unknown block docgen:{name}; known blocks: {', '.join(sorted(known_names))}",
                    path,
                    number,
                )
            if name in seen:
                raise MarkerError(
                    f"block docgen:{name} appears twice (first at line {seen[name]})", path, number
                )
            open_name, open_line, open_body, open_attrs = name, number, offset + len(line), attrs
            seen[name] = number
        else:
            if open_name is None:
                raise MarkerError(f"END docgen:{name} without a BEGIN docgen:{name} before it", path, number)
            if name != open_name:
                raise MarkerError(
                    f"END docgen:{name} does not match BEGIN docgen:{open_name} at line {open_line}",
                    path,
                    number,
                )
            blocks.append(Block(open_name, open_line, number, open_body, offset, open_attrs))
            open_name = None
    if open_name is not None:
        raise MarkerError(
            f"BEGIN docgen:{open_name} has no <!-- END docgen:{open_name} --> after it", path, open_line
        )
    return blocks


def newline_of(text: str) -> str:
    """The line ending a text mostly uses: `\\r\\n` when CRLF lines outnumber LF-only ones."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"


def _normalise_body(body: str, newline: str) -> str:
    lines = body.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "".join(line + newline for line in lines)


def replace_blocks(text: str, bodies: Mapping[str, str], path: str = "<text>") -> str:
    """`text` with the body of every block named in `bodies` replaced; other text kept byte for byte.

    Bodies are written with the text's own line ending and always end with one, so the end marker
    stays on a line of its own. Blocks whose name is not in `bodies` are left as they are.
    """
    return splice(text, find_blocks(text, path), bodies)


def splice(text: str, blocks: Iterable[Block], bodies: Mapping[str, str]) -> str:
    """`text` with the bodies of `blocks` (found in it by `find_blocks`) named in `bodies` replaced."""
    newline = newline_of(text)
    out: list[str] = []
    pos = 0
    for block in blocks:
        if block.name not in bodies:
            continue
        out.append(text[pos : block.body_start])
        out.append(_normalise_body(bodies[block.name], newline))
        pos = block.body_end
    out.append(text[pos:])
    return "".join(out)


def replace_block(text: str, name: str, body: str, path: str = "<text>") -> str:
    """`text` with the body of block `name` replaced (see `replace_blocks`)."""
    return replace_blocks(text, {name: body}, path)


def block_bodies(text: str, path: str = "<text>") -> dict[str, str]:
    """Name → current body of every block in `text`."""
    return {b.name: text[b.body_start : b.body_end] for b in find_blocks(text, path)}
