"""The structure of a hand-written Markdown file, for `docgen audit`: its headings, tables (Markdown
and HTML), paragraphs and fenced code, outside docgen blocks and HTML comments.

Line numbers are those `docgen.markers` uses. Every regular expression runs on one line or one table
cell and cannot backtrack over user text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docgen import markers

_INFO = re.compile(r"[ \t]*([^`\s]*)")  # a fence's info string: its first word is the language
_HEADING = re.compile(r"[ ]{0,3}#{1,6}(?:[ \t]+(.*))?\Z")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t])#+\Z")
_DELIMITER = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?\Z")  # on a stripped line
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


@dataclass
class Table:
    """A Markdown table outside docgen blocks and fences."""

    line: int
    """README line of the header row."""
    header: list[str]
    rows: list[tuple[int, list[str]]]
    context: str
    """The heading above and the lines just before the table."""
    section: int = 0
    """README line of the heading the table is under (0: none)."""


@dataclass
class Paragraph:
    """Consecutive non-blank prose lines (a paragraph, or a list with its introduction)."""

    lines: list[tuple[int, str]]
    heading: str
    before: str
    """The text of the paragraph just before (a list is often introduced by `… build args:`)."""
    section: int = 0
    """README line of the heading the paragraph is under (0: none)."""


@dataclass
class Fence:
    """A fenced code block."""

    lang: str
    lines: list[tuple[int, str]]
    section: int = 0
    """README line of the heading the block is under (0: none)."""


@dataclass
class Document:
    """What of a README can hold claims: everything outside docgen blocks and HTML comments."""

    tables: list[Table] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    levels: dict[int, int] = field(default_factory=dict)
    """README line of each heading (history ones too) → its level (1 for `#`)."""
    links: list[tuple[int, str]] = field(default_factory=list)
    """(README line, target) of each inline link `[text](target)` outside fences, history included."""


def _split_lines(text: str) -> list[str]:
    """The lines of `text` without line endings, numbered as `docgen.markers` numbers them."""
    lines = [line.rstrip("\r\n") for line in markers.split_lines(text)]
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def _live_lines(text: str, path: str) -> list[str | None]:
    """Every line, None inside docgen blocks; HTML comments outside fences blanked out."""
    lines: list[str | None] = list(_split_lines(text))
    for block in markers.find_blocks(text, path):
        for number in range(block.begin_line, block.end_line + 1):
            lines[number - 1] = None
    in_comment = False
    fences = markers.Fences()
    for index, line in enumerate(lines):
        if line is None:
            continue
        if (fences.fence is not None or not in_comment) and fences.step(line) != markers.OUTSIDE:
            continue
        out: list[str] = []
        pos = 0
        while pos <= len(line):
            if in_comment:
                end = line.find("-->", pos)
                if end < 0:
                    break
                in_comment = False
                out.append(" " * (end + 3 - pos))
                pos = end + 3
            else:
                start = line.find("<!--", pos)
                if start < 0:
                    out.append(line[pos:])
                    break
                out.append(line[pos:start])
                in_comment = True
                pos = start + 4
        lines[index] = "".join(out)
    return lines


def cells(line: str) -> list[str]:
    row = line.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [cell.strip() for cell in _CELL_SPLIT.split(row)]


def read_document(text: str, path: str) -> Document:
    """The tables, paragraphs and fences of `text` outside docgen blocks and HTML comments."""
    lines = _live_lines(text, path)
    doc = Document()
    out = doc  # `doc`, or a document thrown away under a changelog heading (of level `history`)
    history: int | None = None
    heading = ""
    section = 0
    old_list = False  # after `History versions:`: the list that follows tells the past
    dropped = 0  # lines of that list already left out
    previous = ""
    para: list[tuple[int, str]] = []
    fence: Fence | None = None
    fences = markers.Fences()

    def flush() -> None:
        nonlocal para, previous
        nonlocal old_list, dropped
        if para:
            out.paragraphs.append(Paragraph(para, heading, previous, section))
            previous = " ".join(t for _, t in para)
        para = []
        if old_list and dropped:
            old_list, dropped = False, 0

    index = 0
    while index < len(lines):
        line = lines[index]
        number = index + 1
        index += 1
        kind = fences.step(line) if line is not None else markers.OUTSIDE
        if line is None:
            fences.fence = None
        if kind == markers.INSIDE and fence is not None and line is not None:
            fence.lines.append((number, line))
            continue
        if kind != markers.OPENS:
            fence = None  # closed by its fence, by the end of its list item, or by a docgen block
            if kind != markers.OUTSIDE:
                continue
        if line is None or not line.strip():
            flush()
            continue
        if kind == markers.OPENS:
            flush()
            info = _INFO.match(line, fences.info_at)
            fence = Fence(info.group(1).lower() if info else "", [], section)
            if old_list:
                old_list, dropped = False, 0
            else:
                out.fences.append(fence)
            continue
        doc.links.extend((number, m.group(1)) for m in _LINK_TARGET.finditer(line))
        head = _HEADING.match(line)
        if head:
            flush()
            heading = (head.group(1) or "").strip()
            closing = _CLOSING_HASHES.search(heading)  # `## Title ##`
            heading = heading[: closing.start()].strip() if closing else heading
            level = len(line.lstrip()) - len(line.lstrip().lstrip("#"))
            section, old_list, dropped = number, False, 0
            doc.levels[number] = level
            if history is not None and level <= history:
                history, out = None, doc
            if history is None and _HISTORY.search(heading):
                history, out = level, Document()  # a changelog tells the past: not claims
            out.headings.append((number, heading))
            previous = ""
            continue
        if line.lstrip()[:6].lower() == "<table":
            context = heading + " " + (previous if not para else " ".join(t for _, t in para))
            flush()
            table, index = _html_table(lines, index - 1, context)
            if table is not None and not old_list:
                table.section = section
                out.tables.append(table)
            old_list, dropped = False, 0
            previous = ""
            continue
        following = lines[index] if index < len(lines) else None
        if "|" in line and following is not None and "-" in following and _DELIMITER.match(following.strip()):
            context = heading + " " + (previous if not para else " ".join(t for _, t in para))
            flush()
            table = Table(number, cells(line), [], context, section)
            index += 1
            while index < len(lines):
                row = lines[index]
                if row is None or not row.strip() or "|" not in row:
                    break
                table.rows.append((index + 1, cells(row)))
                index += 1
            if not old_list:
                out.tables.append(table)
            old_list, dropped = False, 0
            previous = ""
            continue
        if old_list:
            dropped += 1
            continue
        if _OLD_LIST.match(line):
            old_list = True  # `History versions:`: what follows lists older images, not this one
            continue
        para.append((number, line))
    flush()
    return doc


_OLD_LIST = re.compile(
    r"[ \t]*(?:[-*+][ \t]+)?[*_]*"
    r"(?:history|historical|older|previous|past|old|earlier|legacy|deprecated|archived|preview|nightly|upcoming)\b"
    r"[^:]{0,40}:[*_ \t]*\Z",
    re.IGNORECASE,
)
"""A line introducing a list of older or other images (`History versions:`, `- Preview image:`): what
follows, up to the end of that list, is not about the image audited."""
_LINK_TARGET = re.compile(r"\]\([ \t]*<?([^()<>\s]+)>?(?:[ \t]+\"[^\"]*\")?[ \t]*\)")
_HISTORY = re.compile(r"change[ ]?log|release notes|\bhistory\b|what'?s new|\bnews\b", re.IGNORECASE)
_HTML_CELL = re.compile(r"<(/?)(tr|td|th)\b[^<>]*>", re.IGNORECASE)
_HTML_CODE = re.compile(r"</?code\b[^<>]*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"<[^<>]*>")


def _html_table(lines: list[str | None], start: int, context: str) -> tuple[Table | None, int]:
    """The `<table>` starting at `lines[start]` (its first row is the header), and the index of the line
    after it. Cells become Markdown: `<code>` is a code span, other tags are dropped."""
    rows: list[tuple[int, list[str]]] = []
    cell: list[str] | None = None

    def close() -> None:
        nonlocal cell
        if cell is not None and rows:
            text = _HTML_TAG.sub("", _HTML_CODE.sub("`", "".join(cell)))
            rows[-1][1].append(" ".join(text.split()))
        cell = None

    index = start
    while index < len(lines):
        line = lines[index]
        index += 1
        if line is None or _HEADING.match(line):
            break
        pos = 0
        for tag in _HTML_CELL.finditer(line):
            if cell is not None:
                cell.append(line[pos : tag.start()])
            pos = tag.end()
            close()
            if tag.group(1):
                continue
            if tag.group(2).lower() == "tr":
                rows.append((index, []))
            else:
                cell = []
        if cell is not None:
            cell.append(line[pos:] + " ")
        if "</table" in line.lower():
            break
    close()
    rows = [row for row in rows if row[1]]
    return (Table(rows[0][0], rows[0][1], rows[1:], context) if rows else None), index
