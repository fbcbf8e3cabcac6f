"""The Markdown reader: what docgen reads in a README, for `markers`, `audit`, `drift` and `init`.

- lines numbered as `docgen.markers` numbers them (`source_lines`, `bare`), with the state of fenced
  code blocks (`fence_states`; the fence scanner itself is `markers.Fences`, which lives there because
  `docgen check`'s fast path imports `markers` and must not import `re`);
- headings, ATX, setext and one-line HTML (`headings`, `Heading`, `plain`, `heading_key`);
- code spans by CommonMark's backtick-run rules (`code_spans`), inline links and images (`links`,
  `without_links`);
- table rows (`table_cells`, `delimiter_cells`) with GFM's escaped pipes;
- for `docgen audit`, the whole structure (`read_document`): tables (Markdown and HTML), paragraphs,
  fenced code, headings and links outside docgen blocks and HTML comments, the bodies of MkDocs
  admonitions and content tabs (`!!! note`, `=== "Tab"`) read as the Markdown they render as;
  indented code blocks (CommonMark's: four columns past the list item's text, no lazy line of a
  paragraph, blank lines inside kept) as blocks with no language, unindented; and the commands a
  paragraph writes at a `$ ` prompt, with the lines a `\\` continues, as such a block too
  (`prompt_commands`).

Line numbers are those `docgen.markers` uses. Every regular expression runs on one line or one table
cell and cannot backtrack over user text, and every function takes time linear (or n log n) in its
text. `tests/test_markdown.py` compares headings, fences, code spans, links and table cells with
markdown-it-py's (indented code blocks too). What is not followed: what block quotes hold (only their
lazy lines are), what HTML blocks hold (a list marker in one opens an item; an indented line there is
no code), indented code in a reStructuredText page (whose directives indent their bodies), link
reference definitions (a `[text][label]` is a link whose target is not known here),
the raw HTML or autolinks that would take precedence over a code span or link starting inside them,
and a table row without `|` (GFM reads a one-cell row; here it ends the table).
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from docgen import markers
from docgen.markers import CLOSES, INSIDE, OPENS, OUTSIDE

__all__ = [
    "CLOSES",
    "INSIDE",
    "OPENS",
    "OUTSIDE",
    "Document",
    "Fence",
    "Heading",
    "Link",
    "Paragraph",
    "Table",
    "atx_heading",
    "bare",
    "code_spans",
    "delimiter_cells",
    "fence_states",
    "heading_key",
    "headings",
    "links",
    "plain",
    "prompt_commands",
    "read_document",
    "source_lines",
    "table_cells",
    "without_links",
]

# --------------------------------------------------------------------------------------------------
# lines and fences


def bare(line: str) -> str:
    """`line` without its line ending and a byte-order mark."""
    return line.rstrip("\r\n").lstrip("\ufeff")


def source_lines(text: str) -> list[str]:
    """The lines of `text` without line endings, numbered as `docgen.markers` numbers them (the first
    line without its byte-order mark)."""
    lines = [line.rstrip("\r\n") for line in markers.split_lines(text)]
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


_INFO = re.compile(r"[ \t]*([^`\s]*)")  # a fence's info string: its first word is the language


def fence_states(lines: Sequence[str]) -> tuple[list[int], str | None]:
    """What each of `lines` (with or without line endings and byte-order mark) is to fenced code
    (`OUTSIDE`, `OPENS`, `INSIDE`, `CLOSES`, as `markers.Fences` reads them, list items included),
    and the fence still open after the last line (None: none)."""
    fences = markers.Fences()
    return [fences.step(bare(line)) for line in lines], fences.fence


# --------------------------------------------------------------------------------------------------
# inline: code spans, links, plain text

_BACKTICKS = re.compile(r"`+")
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_TAG = re.compile(r"<[^<>]*>")


def _escaped(text: str, pos: int, floor: int = 0) -> bool:
    """Whether the character at `pos` follows an odd run of backslashes (that starts at `floor` or later)."""
    start = pos
    while start > floor and text[start - 1] == "\\":
        start -= 1
    return (pos - start) % 2 == 1


def code_spans(text: str, html_code: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, content) of the code spans in `text`, in order, by CommonMark's rules.

    A run of n backticks opens a span that the next run of exactly n backticks closes; a run with no
    partner is literal text, and so is a backtick escaped by a backslash outside a span. The content
    has its line endings turned into spaces and, when it both starts and ends with a space (and is not
    all spaces), one space stripped from each side. With `html_code`, `<code>…</code>` elements count
    too (their content with entities decoded), where no backtick span overlaps them.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    of_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        of_length.setdefault(end - start, []).append(index)
    spans: list[tuple[int, int, str]] = []
    floor = 0  # where the text after the last span starts: backslashes before it are code
    index = 0
    while index < len(runs):
        start, end = runs[index]
        if _escaped(text, start, floor):
            start += 1  # `\``: a literal backtick; the rest of the run may still open a span
        length = end - start
        same = of_length.get(length, [])
        closing = bisect.bisect_right(same, index)
        if not length or closing == len(same):
            index += 1
            continue
        close_start, close_end = runs[same[closing]]
        content = text[end:close_start].replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        if len(content) > 2 and content[0] == " " and content[-1] == " " and content.strip(" "):
            content = content[1:-1]
        spans.append((start, close_end, content))
        floor = close_end
        index = same[closing] + 1
    if html_code:
        lower = text.lower()
        pos = lower.find("<code>")
        while pos >= 0:
            end = lower.find("</code>", pos + 6)
            if end < 0:
                break
            spans.append((pos, end + 7, html.unescape(text[pos + 6 : end])))
            pos = lower.find("<code>", end + 7)
        spans.sort()
        spans = [span for i, span in enumerate(spans) if i == 0 or span[0] >= spans[i - 1][1]]
    return spans


@dataclass(frozen=True)
class Link:
    """An inline link `[text](target "title")`, an image `![alt](target)`, or a reference link
    `[text][label]` (its target defined elsewhere: None)."""

    source: str = field(repr=False, compare=False)
    """The text the link was found in."""
    target: str | None
    """The destination, backslash escapes resolved; None for a reference link."""
    start: int
    """Offset of the `[` (of the `!` of an image)."""
    end: int
    """Offset just after the closing `)` (`]` of a reference link)."""
    text_end: int
    """Offset of the `]` closing its text."""
    image: bool = False

    @property
    def text_start(self) -> int:
        """Offset where its text starts, after `[` or `![`."""
        return self.start + 1 + self.image

    @property
    def text(self) -> str:
        """The source between the brackets (the alt text of an image)."""
        return self.source[self.text_start : self.text_end]


class _BareDestinations:
    """Where a bare link destination (`[…](dest)`) starting at any offset of a text ends, found in
    linear time for the whole text: scanning each `](` to its end would take quadratic time on a long
    line of them.

    A bare destination runs to the first blank or control character, or to the first unescaped `)`
    that closes no `(` opened in it; it is valid when its unescaped parentheses balance (CommonMark).
    """

    def __init__(self, text: str) -> None:
        n = len(text)
        self.depth = depth = [0] * (n + 1)  # unescaped `(` minus `)` before each offset
        level = pos = 0
        while pos < n:
            char = text[pos]
            if char == "\\" and pos + 1 < n and text[pos + 1] in _ESCAPABLE:
                depth[pos + 1] = level
                pos += 2
            else:
                level += (char == "(") - (char == ")")
                pos += 1
            depth[pos] = level
        self.below = below = [n + 1] * (n + 1)  # the next offset where the depth is lower
        stack: list[int] = []
        for offset, value in enumerate(depth):
            while stack and value < depth[stack[-1]]:
                below[stack.pop()] = offset
            stack.append(offset)
        self.blank = blank = [n] * (n + 1)  # the next blank or control character
        following = n
        for offset in range(n - 1, -1, -1):
            if text[offset] <= " " or text[offset] == "\x7f":
                following = offset
            blank[offset] = following

    def end(self, start: int) -> int | None:
        """Where the bare destination starting at `start` ends (at a blank, a control character, the
        closing `)` or the end of the text), or None when its parentheses do not balance."""
        closing = self.below[start] - 1  # the `)` that closes no `(` of the destination
        if closing < self.blank[start]:
            return closing
        end = self.blank[start]
        return end if self.depth[end] == self.depth[start] else None


def _destination(text: str, pos: int, bare_ends: _BareDestinations) -> tuple[str, int] | None:
    """The link destination, optional title and closing `)` of `[…](` from `pos` (just after `(`):
    (destination, offset after `)`), or None when it is not one."""
    n = len(text)
    while pos < n and text[pos] in " \t":
        pos += 1
    if pos < n and text[pos] == "<":
        end = pos + 1
        while end < n and text[end] not in "<>\n":
            end += 2 if text[end] == "\\" and end + 1 < n else 1
        if end >= n or text[end] != ">":
            return None
        target, pos = text[pos + 1 : end], end + 1
    else:
        bare_end = bare_ends.end(pos)
        if bare_end is None:
            return None
        target, pos = text[pos:bare_end], bare_end
    after = pos
    while pos < n and text[pos] in " \t":
        pos += 1
    if pos < n and text[pos] in "\"'(" and pos > after:
        close = ")" if text[pos] == "(" else text[pos]
        end = pos + 1
        while end < n and text[end] != close:
            if text[end] == "(" and close == ")":
                return None
            end += 2 if text[end] == "\\" else 1
        if end >= n:
            return None
        pos = end + 1
        while pos < n and text[pos] in " \t":
            pos += 1
    if pos >= n or text[pos] != ")":
        return None
    return _ESCAPE.sub(r"\1", target), pos + 1


def links(text: str) -> list[Link]:
    """The inline links and images of `text` (one line or one paragraph), in order of their start.

    Brackets in code spans or escaped by a backslash do not count; a link's text may hold an image but
    not another link (`[[a](b)](c)` is a link to b in brackets), as CommonMark reads them.
    """
    code = {start: end for start, end, _ in code_spans(text)}
    bare_ends: _BareDestinations | None = None
    found: list[Link] = []
    openers: list[tuple[int, int]] = []  # (offset of `[` or `![`, 1 for an image)
    inactive_below = 0  # a link formed: the `[` before its own may open no link (images still may)
    pos, n = 0, len(text)
    while pos < n:
        if pos in code:
            pos = code[pos]
            continue
        char = text[pos]
        if char == "\\" and pos + 1 < n and text[pos + 1] in _ESCAPABLE:
            pos += 2
        elif char == "!" and text.startswith("[", pos + 1):
            openers.append((pos, 1))
            pos += 2
        elif char == "[":
            openers.append((pos, 0))
            pos += 1
        elif char == "]" and openers:
            start, image = openers.pop()
            active = bool(image) or start >= inactive_below
            tail: tuple[str | None, int] | None = None
            if active and text.startswith("(", pos + 1):
                bare_ends = bare_ends or _BareDestinations(text)
                tail = _destination(text, pos + 2, bare_ends)
            if tail is None and active and text.startswith("[", pos + 1):
                label_end = text.find("]", pos + 2)
                if (
                    label_end >= 0
                    and "[" not in text[pos + 2 : label_end]
                    and text[label_end + 1 : label_end + 2] != "("
                ):
                    # `[text][label]`; not `[a][b](c)`, where `[b](c)` is the link
                    tail = (None, label_end + 1)
            if tail is None:
                pos += 1
                continue
            found.append(Link(text, tail[0], start, tail[1], pos, bool(image)))
            if not image:
                inactive_below = start  # no link inside a link
            pos = tail[1]
        else:
            pos += 1
    found.sort(key=lambda link: link.start)
    return found


def without_links(text: str, keep_alt: bool = True) -> str:
    """`text` with every link replaced by its text, and every image by its alt text (by nothing
    without `keep_alt`: badges)."""
    cuts: list[tuple[int, int]] = []  # the markup to leave out: `[`, `](target)`, dropped images
    for link in links(text):
        if link.image and not keep_alt:
            cuts.append((link.start, link.end))
        else:
            cuts += [(link.start, link.text_start), (link.text_end, link.end)]
    out: list[str] = []
    pos = 0
    for start, end in sorted(cuts):  # links nest: a cut inside a dropped image is dropped with it
        out.append(text[pos:start] if start > pos else "")
        pos = max(pos, end)
    out.append(text[pos:])
    return "".join(out)


def plain(text: str, html_tags: bool = True) -> str:
    """`text` as a reader sees it: code spans as their content, links as their text, no images
    (badges), no HTML tags (kept without `html_tags`), backslash escapes and entities resolved,
    white space collapsed."""
    out: list[str] = []
    pos = 0
    for start, end, content in [*code_spans(text), (len(text), len(text), "")]:
        prose = without_links(text[pos:start], keep_alt=False)
        if html_tags:
            prose = _TAG.sub("", prose)
        out.append(html.unescape(_ESCAPE.sub(r"\1", prose)))
        out.append(content)
        pos = end
    return " ".join("".join(out).split())


# --------------------------------------------------------------------------------------------------
# headings

_ATX = re.compile(r"[ ]{0,3}(#{1,6})(?:[ \t](.*))?\Z")
_CLOSING_HASHES = re.compile(r"(?:\A|[ \t])#+\Z")
_SETEXT = re.compile(r"[ ]{0,3}(=+|-+)[ \t]*\Z")
# Lines that start another kind of block, so a setext underline after them is not a heading.
# Four columns of indent: spaces, or up to three spaces and a tab (tabs stop at multiples of four).
_INDENTED = re.compile(r"[ ]{4}|[ ]{0,3}\t")
_NOT_PARAGRAPH = re.compile(
    r"[ ]{0,3}(?:[>|<]|[-*+][ \t]|[-*+]\Z|\d{1,9}[.)](?:[ \t]|\Z))|" + _INDENTED.pattern
)
_NUMBERING = re.compile(r"[ \t]*(?:\d+(?:\.\d+)*\.?|[IVXivx]+\.)[ \t]+")
_HTML_HEADING = re.compile(r"[ ]{0,3}<h([1-6])(?:[ \t][^>]*)?>(.*)</h\1>[ \t]*\Z", re.IGNORECASE)
_THEMATIC_BREAK = re.compile(r"[ ]{0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z")
_LIST_ITEM = re.compile(r"[ ]{0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\Z)")
_DETAILS = re.compile(r"<(/?)details\b", re.IGNORECASE)


def _continues(line: str, item: re.Match[str] | None) -> bool:
    """Whether the list item `item` starting `line` is text that continues a paragraph instead: only
    a bullet or `1.` with text may interrupt a paragraph (CommonMark)."""
    if item is None:
        return False
    marker = line[: item.end()].strip()
    return not line[item.end() :].strip() or (marker[0].isdigit() and marker[:-1].lstrip("0") != "1")


def _lazy_line(line: str) -> bool:
    """Whether `line`, unindented after a list item's text, continues that text (and so the item):
    `===` does (an underline cannot be lazy), `---` is a thematic break."""
    return not (atx_heading(line) or _NOT_PARAGRAPH.match(line) or _THEMATIC_BREAK.match(line))


def _ends_table(line: str) -> bool:
    """Whether `line` ends the rows of a table: a line starting another block (indented code, a fence,
    a heading, a thematic break, a list item, a block quote) as GFM reads it."""
    return bool(
        _INDENTED.match(line)  # indented code
        or markers.fence_after(line, None)[1]
        or atx_heading(line)
        or _THEMATIC_BREAK.match(line)
        or _LIST_ITEM.match(line)
        or line.lstrip(" ")[:1] == ">"
    )


def atx_heading(line: str) -> tuple[int, str] | None:
    """(level, text) when `line` is an ATX heading (`## Title ##`: 2, "Title"), else None."""
    atx = _ATX.match(line)
    if not atx:
        return None
    return len(atx.group(1)), _CLOSING_HASHES.sub("", (atx.group(2) or "").strip()).strip()


def heading_key(text: str) -> str:
    """A heading compared loosely: its plain text (`plain`) without a leading section number, case,
    punctuation or spaces. "2. What's in it?", "[Supported GPUs](https://…)" and
    "Build args ![badge](…)" read as their words."""
    text = plain(text)
    numbering = _NUMBERING.match(text)
    if numbering:
        text = text[numbering.end() :]
    return "".join(c for c in text.casefold() if c.isalnum())


@dataclass(frozen=True)
class Heading:
    """An ATX (`## Title`), setext (`Title` over `---`) or one-line HTML (`<h2>Title</h2>`) heading."""

    level: int
    """1 to 6 (`#`, `===` and `<h1>` are 1)."""
    text: str
    """Its source: the ATX text without closing hashes, the setext lines joined by a space, the HTML
    element's content."""
    line: int
    """1-based line of its first line."""
    last: int
    """1-based line of its last line (the underline of a setext heading)."""
    html: bool = False
    """An `<hN>` element (only one alone between blank lines is read)."""
    nested: bool = False
    """Inside `<details>` or indented into a list item."""

    @property
    def shown(self) -> str:
        """The heading as messages name it: without badges, link targets and HTML tags (code spans,
        escapes and entities as written)."""
        return " ".join(_TAG.sub("", without_links(self.text, keep_alt=False)).split())

    @property
    def key(self) -> str:
        """The text compared loosely (see `heading_key`)."""
        return heading_key(self.text)


def headings(lines: Sequence[str]) -> list[Heading]:
    """The headings of `lines` (with or without their line endings), in order.

    Not those in fenced code (examples) or in an HTML comment spanning lines; an HTML heading only
    when it is an HTML block of its own, between blank lines.
    """
    found: list[Heading] = []
    paragraph: list[int] = []
    fences = markers.Fences()
    comment = False  # inside a `<!-- … -->` that spans lines
    details = 0  # how many <details> are open
    table = False  # in the rows of a table
    lazy = False  # the paragraph is a list item's or a block quote's: an underline there is no heading
    items: list[int] = []  # the columns of the text of the list items open around the line
    for index, raw in enumerate(lines):
        line = bare(raw)
        if comment:
            comment = "-->" not in line
            paragraph, lazy = [], False
            continue
        kind = fences.step(line)
        if kind in (OPENS, CLOSES):
            paragraph, lazy = [], False
            while kind == OPENS and items and len(line) - len(line.lstrip(" ")) < items[-1]:
                items.pop()  # a fence left of the item's text ends the item
            continue
        if kind == INSIDE:
            continue
        opened = line.rfind("<!--")
        if opened >= 0 and "-->" not in line[opened:]:
            comment = True
            paragraph, lazy = [], False
            continue
        if not line.strip():
            paragraph, table, lazy = [], False, False
            continue
        pos = 0
        for start, end, _ in code_spans(line):
            for tag in _DETAILS.finditer(line, pos, start):  # not in code: `<details>` written as code
                details = max(details - 1, 0) if tag.group(1) else details + 1
            pos = end
        for tag in _DETAILS.finditer(line, pos):
            details = max(details - 1, 0) if tag.group(1) else details + 1
        item = None if _THEMATIC_BREAK.match(line) else _LIST_ITEM.match(line)
        continues = bool(paragraph) and _continues(line, item)
        if continues:
            item = None  # `2. x` or an empty item continues a paragraph: no list item
        indent = len(line) - len(line.lstrip(" "))
        if line[0] != "\t" and not (lazy and _lazy_line(line)):
            while items and indent < items[-1]:
                items.pop()  # the list item ended
        if item:
            marker_end = item.end() - (line[item.end() - 1 : item.end()] in (" ", "\t"))
            rest = line[marker_end:]
            spaces = len(rest) - len(rest.lstrip(" "))
            items.append(marker_end + (spaces if 1 <= spaces <= 4 and rest.strip() else 1))
        nested = bool(details) or (bool(items) and line[0].isspace())
        atx = atx_heading(line)
        if atx:
            found.append(Heading(atx[0], atx[1], index + 1, index + 1, nested=nested))
            paragraph, lazy = [], False
            continue
        element = _HTML_HEADING.match(line)
        if element:
            # only an HTML block of its own: inside `<div>` or before unseparated text it is part of
            # the HTML around it
            if all(i < 0 or i >= len(lines) or not bare(lines[i]).strip() for i in (index - 1, index + 1)):
                level = int(element.group(1))
                found.append(Heading(level, element.group(2), index + 1, index + 1, True, nested))
            paragraph, lazy = [], False
            continue
        if table or _starts_table(line, lines[index + 1] if index + 1 < len(lines) else ""):
            paragraph, table, lazy = (
                [],
                True,
                False,
            )  # a table interrupts a paragraph; its rows are no paragraph
            continue
        setext = _SETEXT.match(line)
        if setext and paragraph and lazy and not nested:
            if setext.group(1)[0] == "=":
                paragraph.append(index)  # `===` continues the item's text
            else:
                paragraph, lazy = [], False  # `---` is a thematic break
            continue
        if setext and paragraph:
            text = " ".join(bare(lines[i]).strip() for i in paragraph)
            level = 1 if setext.group(1)[0] == "=" else 2
            found.append(Heading(level, text, paragraph[0] + 1, index + 1, nested=nested))
            paragraph, lazy = [], False
            continue
        if (setext and setext.group(1)[0] == "-") or _THEMATIC_BREAK.match(line):
            paragraph, lazy = [], False
            continue
        # inside a list item, what starts a block is read from the column of the item's text
        own = line[items[-1] :] if items and not item and indent >= items[-1] else line
        if _NOT_PARAGRAPH.match(own) and not (paragraph and (_INDENTED.match(own) or continues)):
            paragraph = []
            lazy = (
                bool(item and line[item.end() :].strip())
                or line.lstrip(" ")[:1] == ">"
                or (lazy and bool(items) and line[0].isspace())  # more of the item's text
            )
            continue
        if not paragraph and items and line[0].isspace():
            lazy = True  # a paragraph of the item's
        paragraph.append(index)
    return found


# --------------------------------------------------------------------------------------------------
# tables


def _starts_table(line: str, following: str) -> bool:
    """Whether `line` is the header row of a table whose delimiter row is `following`."""
    if "|" not in line or len(line) - len(line.lstrip(" ")) > 3:
        return False
    columns = delimiter_cells(bare(following))
    return columns is not None and columns == len(table_cells(line))


def table_cells(line: str) -> list[str]:
    """The cells of a table row, stripped, as GFM splits them: at every `|` not right after a
    backslash (in code spans too), the outer pipes dropped. An escaped pipe stays `\\|` in the cell."""
    cells = _CELL_SPLIT.split(line.strip())
    if cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    return [cell.strip() for cell in cells]


_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def cell_spans(line: str) -> list[tuple[int, int]]:
    """(start, end) in `line` of each cell of a table row, as `table_cells` splits it: at every `|` not
    right after a backslash, the outer pipes dropped (the spans are not stripped)."""
    bounds = [-1, *(match.start() for match in _CELL_SPLIT.finditer(line)), len(line)]
    spans = [(start + 1, end) for start, end in zip(bounds, bounds[1:], strict=False)]
    if len(spans) > 1 and not line[: spans[0][1]].strip():
        spans.pop(0)  # (the outer pipe at the start: what is before it is no cell)
    if len(spans) > 1 and not line[spans[-1][0] :].strip():
        spans.pop()
    return spans


def pipe_tables(lines: Sequence[str]) -> Iterator[tuple[int, list[int]]]:
    """(index of the header row, indexes of the body rows) of each pipe table of `lines` (without line
    endings) outside fenced code, its rows ended as `read_document` ends them (`_ends_table`)."""
    if not any("|" in line for line in lines):
        return
    states, _ = fence_states(lines)
    index = 0
    while index + 1 < len(lines):
        line = lines[index]
        if states[index] != markers.OUTSIDE or states[index + 1] != markers.OUTSIDE or "|" not in line:
            index += 1
            continue
        if not _starts_table(line, lines[index + 1]):
            index += 1
            continue
        header, index = index, index + 2
        rows: list[int] = []
        while index < len(lines) and states[index] == markers.OUTSIDE:
            row = lines[index]
            if not row.strip() or "|" not in row or _ends_table(row):
                break
            rows.append(index)
            index += 1
        yield header, rows


_DELIMITER_CELL = re.compile(r":?-+:?\Z")


def delimiter_cells(line: str) -> int | None:
    """How many columns a table's delimiter row (`|---|:--:|`, `--- | ---`) has; None when `line` is
    not one. As GFM: only `|`, `-`, `:` and spaces, each cell `:?-+:?`, not a list item (`- -`)."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3 or len(body) < 2 or body[0] not in "|-:" or body[1] not in "|-: ":
        return None
    if body[:2] == "- " or body.strip(" |-:\t"):
        return None
    row = [cell.strip(" \t") for cell in body.rstrip().split("|")]
    if row and not row[0]:
        row.pop(0)
    if row and not row[-1]:
        row.pop()
    if not row or not all(_DELIMITER_CELL.match(cell) for cell in row):
        return None
    return len(row)


# --------------------------------------------------------------------------------------------------
# the structure of a README, for `docgen audit`


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
    """A fenced code block (an indented one, or a paragraph's `$ ` commands: lang '')."""

    lang: str
    lines: list[tuple[int, str]]
    section: int = 0
    """README line of the heading the block is under (0: none)."""
    inline: bool = False
    """A one-line block made of an inline code span that is a whole command (`inline_commands`), or of a
    prose line that is one (`plain_commands`)."""
    loose: bool = False
    """A prose line that is a command in a paragraph that also holds other text (`plain_commands`): kept
    only in a README with no code block."""
    prompted: bool = False
    """A paragraph's lines written at a `$ ` prompt (`prompt_commands`): commands, though no code block."""
    title: str = ""
    """The file name an info string gives after the language and a colon (```` ```sh:run.sh ````, the
    `lang:filename` form of Qiita and Zenn): `lang` is the language alone."""


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
    destinations: list[tuple[int, str]] = field(default_factory=list)
    """(README line, target) of every link outside fences, history included, in any form: inline links
    and images (`[text](target)`, `![alt](img.png)`), reference definitions (`[label]: target`) and
    HTML `<a href>`, `<img src>` (`destinations`)."""
    _parents: list[int] = field(default_factory=list, compare=False, repr=False)
    """For each heading, the index of the heading over its section (-1: none), made by `headings_over` and
    again when the number of headings has changed since."""


@dataclass(frozen=True)
class ListBlock:
    """A list of a README, one even when blank lines set its items apart (each of those a `Paragraph`)."""

    intro: str
    """The text before its first item: in the item's paragraph, else the paragraph just before ('')."""
    intro_line: int
    """README line of that text (of the first item when there is none)."""
    heading: str
    items: list[tuple[int, str]]
    """(README line, text) of the first line of each of its items; nested items are not its own."""
    section: int = 0
    """README line of the heading the list is under (0: none)."""


def headings_over(doc: Document, line: int) -> list[str]:
    """The title of the heading README `line` is under, then those of the headings that hold its section,
    nearest first (`### ROCm Variant`, then `## Environment Variables`); [] before the first heading.
    Each heading's parent (the nearest heading above it of a higher level) is found once a document."""
    if len(doc._parents) != len(doc.headings):
        doc._parents = []
        above: list[int] = []  # indexes of the headings over the one read, highest level first
        for index, (number, _) in enumerate(doc.headings):
            level = doc.levels.get(number, 6)
            while above and doc.levels.get(doc.headings[above[-1]][0], 6) >= level:
                above.pop()
            doc._parents.append(above[-1] if above else -1)
            above.append(index)
    index = bisect.bisect_right(doc.headings, line, key=lambda heading: heading[0]) - 1
    found: list[str] = []
    while index >= 0:
        found.append(doc.headings[index][1])
        index = doc._parents[index]
    return found


def lists(doc: Document) -> list[ListBlock]:
    """The lists of `doc`'s paragraphs: consecutive paragraphs under one heading, with no fence between
    them, each starting with an item as far indented as the first, make one list."""
    paragraphs = sorted(doc.paragraphs, key=lambda p: p.lines[0][0])
    fence_lines = sorted(f.lines[0][0] for f in doc.fences if f.lines)
    found: list[ListBlock] = []

    def indent(text: str) -> int:
        return len(text) - len(text.lstrip())

    def is_item(text: str, base: int) -> bool:
        """`text` starts a list item, read from the paragraph's own indent `base` (a paragraph inside a
        list item, indented as its content: `    - item` under `    Intro:` is a list of that item)."""
        return _LIST_ITEM.match(text[min(base, indent(text)) :]) is not None

    index = 0
    while index < len(paragraphs):
        para = paragraphs[index]
        index += 1
        base = indent(para.lines[0][1]) if not _LIST_ITEM.match(para.lines[0][1]) else 0
        first = next((i for i, (_, text) in enumerate(para.lines) if is_item(text, base)), None)
        if first is None:
            continue
        lead = para.lines[:first]
        intro_line = lead[0][0] if lead else para.lines[0][0]
        intro = " ".join(text.strip() for _, text in lead)
        if not lead and index >= 2:  # the paragraph just before, when no fence is between
            previous = paragraphs[index - 2]
            if " ".join(t for _, t in previous.lines) == para.before and not fence_between(
                fence_lines, previous.lines[-1][0], intro_line
            ):
                intro, intro_line = para.before.strip(), previous.lines[0][0]
        depth = indent(para.lines[first][1])
        lines = list(para.lines[first:])
        while index < len(paragraphs):  # a paragraph going on with the list: its next item
            after, previous = paragraphs[index], paragraphs[index - 1]
            if (
                after.section != para.section
                or after.before != " ".join(t for _, t in previous.lines)
                or fence_between(fence_lines, lines[-1][0], after.lines[0][0])
                or not is_item(after.lines[0][1], depth)
                or indent(after.lines[0][1]) != depth
            ):
                break
            lines += after.lines
            index += 1
        items = [(n, t) for n, t in lines if is_item(t, depth) and indent(t) == depth]
        found.append(ListBlock(intro, intro_line, para.heading, items, para.section))
    return found


def fence_between(fence_lines: Sequence[int], low: int, high: int) -> bool:
    """True when a fence of `fence_lines` (sorted first lines) starts strictly between `low` and `high`."""
    return bisect.bisect_right(fence_lines, low) < bisect.bisect_left(fence_lines, high)


def _live_lines(text: str, path: str) -> list[str | None]:
    """Every line, None inside docgen blocks; HTML comments outside fences blanked out."""
    lines: list[str | None] = list(source_lines(text))
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
        kept = "".join(out)
        if kept != line and kept.startswith(" "):  # a comment blanked at the start indents nothing
            indent = len(line) - len(line.lstrip(" \t"))
            kept = line[:indent] + kept[indent:].lstrip(" ")
        lines[index] = kept
    return lines


REFERENCE_DEFINITION = re.compile(
    r"[ ]{0,3}\[(?!\^)(?:[^\]\\]|\\.)+\]:[ \t]*(?:<([^<>\n]*)>|(\S+))"
    r"[ \t]*(?:(?:\"[^\"]*\"|'[^']*'|\([^()]*\))[ \t]*)?\Z"
)
"""`[label]: target "title"` (not a footnote `[^1]: text`): a reference link's definition. Each part
is followed by what it cannot hold (no run of blanks can be split two ways)."""
_PATH_LIKE = re.compile(r"[./#]")
"""A bare definition target has a `.`, `/` or `#` (`[docs]: docs/index.md`): `[Optional]: set FOO`
is a sentence."""
_HTML_DESTINATION = re.compile(
    r"<(?:a|img|source|video|audio|iframe|embed|link)\b[^<>]*?[ \t](?:href|src)[ \t]*=[ \t]*"
    r"(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s\"'<>=`]+))",
    re.IGNORECASE,
)
"""An HTML link or embedded file: `<a href="…">`, `<img src='…'>`."""


def destinations(line: str, inline: Sequence[Link] | None = None) -> list[str]:
    """The targets of every link `line` (one line of Markdown outside code blocks) holds: inline links
    and images (`inline`, when the caller has read them: `links(line)`), a reference definition
    (`[label]: target`) and HTML `href`/`src` values (entities decoded), in order; reference links
    (`[text][label]`) have none of their own."""
    # Each form is looked for only when the line has its mark: most lines have no link.
    if inline is None:
        inline = links(line) if "](" in line else []
    found = [link.target for link in inline if link.target is not None]
    definition = REFERENCE_DEFINITION.match(line) if "]:" in line else None
    if definition and (definition.group(1) is not None or _PATH_LIKE.search(definition.group(2))):
        found.append(_ESCAPE.sub(r"\1", definition.group(1) or definition.group(2)))
    tags = list(_HTML_DESTINATION.finditer(line)) if "<" in line else []
    spans = code_spans(line) if tags and "`" in line else []
    for tag in tags:
        if not any(start <= tag.start() < end for start, end, _ in spans):
            found.append(html.unescape(next(g for g in tag.groups() if g is not None)))
    return [target for target in found if target]


_ADMONITION = re.compile(
    r"([ ]*)(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z][\w-]*(?:[ \t]+(?:\"[^\"]*\"|inline|end))*[ \t]*\Z"
    r"|([ ]*)===\+?[ \t]+\"[^\"]*\"[ \t]*\Z"
)
"""The opening line of a block MkDocs reads with Python-Markdown's extensions, whose body is the lines
indented four spaces more below it: an admonition (`!!! note "Title"`, a collapsible `??? tip`) or a
content tab (`=== "Docker"`)."""
_FENCE_MARK = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")


def _unfold_blocks(lines: list[str | None]) -> None:
    """Dedent, in place, the bodies of MkDocs admonitions and content tabs (`_ADMONITION`), nested ones
    too, so that a fenced block or a list in one is read as it renders (a fence indented under `!!!
    Note` is a fence, not a paragraph); their opening lines stay. A line indented less than a body
    ends it; blank lines do not. Each line is read once."""
    bodies: list[int] = []  # the indent, in the source, of each open body
    fence = ""  # the mark of the fence open in the unfolded text, else ""
    for index, line in enumerate(lines):
        if line is None:
            bodies, fence = [], ""
            continue
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        while bodies and indent < bodies[-1]:
            bodies.pop()
        if bodies:
            line = line[4 * len(bodies) :]
            lines[index] = line
        mark = _FENCE_MARK.match(line)
        if fence:
            if mark and mark.group(1)[0] == fence[0] and len(mark.group(1)) >= len(fence):
                fence = ""
        elif mark:
            fence = mark.group(1)
        elif _ADMONITION.match(line):
            bodies.append(indent + 4)


_MARKDOWN_INFO = frozenset({"markdown", "md"})


def _unwrap_markdown(lines: list[str | None]) -> None:
    """Read, in place, a fenced block of Markdown that is the README's own text as Markdown: a block whose
    info string is `markdown` or `md`, whose body starts with a heading, and inside which a fence the
    author opened (```` ```bash ````) is still open when the outer fence closes. That is the mark of a
    README pasted with the wrapper a chat answer put around it (```` ````markdown ````): the author's text
    goes on after the closing fence (the list of the body continued), and that fence closes the inner
    block, not a Markdown example. Only the opening line is blanked; the body is then read as prose, the
    inner fence as a code block closed by the outer one. A Markdown example for another file (a badge, a
    model card to fill in) closes every fence it opens, and stays code. Each line is read once."""
    fences = markers.Fences()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line is None:
            fences.end_blocks()  # a docgen block ends the code block open
            continue
        if fences.step(line) != markers.OPENS:
            continue
        info = _INFO.match(line, fences.info_at)
        if info is None or info.group(1).lower() not in _MARKDOWN_INFO:
            continue
        opener, inner, first = index - 1, markers.Fences(), ""
        kind = markers.OUTSIDE
        while index < len(lines) and (body := lines[index]) is not None:
            kind = fences.step(body)
            index += 1
            if kind != markers.INSIDE:
                break
            first = first or body.strip()
            inner.step(body)
        if kind == markers.CLOSES and inner.fence is not None and first and atx_heading(first) is not None:
            lines[opener] = ""
            if inner.step(lines[index - 1] or "") != markers.CLOSES:
                lines[index - 1] = ""  # the inner block ended with its list item: the closer is no fence


_RST_UNDERLINE = re.compile(r"([=\-~^\"'`#*+:.])\1{2,}[ \t]*\Z")
"""A reStructuredText section adornment: one punctuation character repeated (`~~~~`, `====`)."""
_RST_CODE = re.compile(r"([ \t]*)\.\.[ \t]+(?:code-block|code|sourcecode)::[ \t]*(\S*)[ \t]*\Z")
"""A reStructuredText code directive (`.. code-block:: bash`) and its language."""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _rst_as_markdown(lines: list[str | None]) -> None:
    """Rewrite a reStructuredText page in place, line for line, as the Markdown it means: a title over
    its adornment (`Setup` over `-----`, `~~~~` which Markdown would open a fence with) an ATX heading
    of the level the adornment first came in, and the indented body of a `.. code-block:: bash`
    directive or under a paragraph ending `::` a fenced block (the directive line or the blank line
    after `::` opening it, the blank line after the body closing it, the body dedented). A body with no
    blank line after it is left as it was."""
    levels: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line is None:
            index += 1
            continue
        title = lines[index - 1] if index else None
        if (
            _RST_UNDERLINE.match(line)
            and title is not None
            and title.strip()
            and _indent(title) == 0
            and not _RST_UNDERLINE.match(title)
            and len(line.rstrip()) >= len(title.rstrip()) - 2
        ):
            over = lines[index - 2] if index > 1 else None
            key = line[0] + ("o" if over is not None and over.rstrip() == line.rstrip() else "")
            if key not in levels:
                levels.append(key)
            lines[index - 1] = "#" * min(6, levels.index(key) + 1) + " " + title.strip()
            lines[index] = ""
            if key.endswith("o") and over is not None:
                lines[index - 2] = ""
            index += 1
            continue
        code = _RST_CODE.match(line)
        literal = code is None and line.rstrip().endswith("::") and not line.lstrip().startswith("..")
        if code is None and not literal:
            index += 1
            continue
        base = _indent(line)
        end = index + 1
        while (
            end < len(lines)
            and ((lines[end] or "").strip() == "" or _indent(lines[end] or "") > base)
            and lines[end] is not None
        ):
            end += 1
        body = [i for i in range(index + 1, end) if (lines[i] or "").strip()]
        if code is not None:
            while body and (lines[body[0]] or "").lstrip().startswith(":"):
                lines[body[0]] = ""
                body.pop(0)
        closing = body[-1] + 1 if body else end
        opening = index if code is not None else index + 1
        if (
            not body
            or closing >= len(lines)
            or (lines[closing] or "").strip()
            or opening >= body[0]
            or (lines[opening] or "").strip()
            and code is None
        ):
            index = max(end, index + 1)
            continue
        cut = min(_indent(lines[i] or "") for i in body)
        lines[opening] = "```" + (code.group(2) if code is not None else "")
        for i in range(opening + 1, closing):
            lines[i] = (lines[i] or "")[cut:]
        lines[closing] = "```"
        index = closing + 1


def read_document(text: str, path: str) -> Document:
    """The tables, paragraphs and fences of `text` outside docgen blocks and HTML comments, the bodies of
    MkDocs admonitions and content tabs read as if they were not indented (`_unfold_blocks`)."""
    lines = _live_lines(text, path)
    if path.lower().endswith((".rst", ".rest")):
        _rst_as_markdown(lines)
    if "markdown" in text or "```md" in text or "~~~md" in text:
        _unwrap_markdown(lines)
    if "!!!" in text or "???" in text or "===" in text:
        _unfold_blocks(lines)
    # setext headings span lines: read them all first (ATX ones too); HTML headings are prose here
    heads = {h.line: h for h in headings(["" if line is None else line for line in lines]) if not h.html}
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
    indented = not path.lower().endswith((".rst", ".rest"))  # reStructuredText indents what is no code
    code: Fence | None = None  # the indented code block open
    blanks: list[tuple[int, str]] = []  # the blank lines after its last line: its own if code follows

    def flush() -> None:
        nonlocal para, previous
        nonlocal old_list, dropped
        if para:
            out.paragraphs.append(Paragraph(para, heading, previous, section))
            quoted = quote_fenced(para, section)
            out.fences.extend(quoted)
            rest = para
            if quoted:  # the lines of `'''` blocks and their fences are no paragraph's commands
                inside = {n for f in quoted for n, _ in f.lines}
                rest = [(n, t) for n, t in para if n not in inside and not _QUOTE_FENCE.match(t)]
            out.fences.extend(inline_commands(rest, section))
            prompted = prompt_commands(rest, section)
            out.fences.extend(prompted)
            out.fences.extend(plain_commands(rest, section, {n for f in prompted for n, _ in f.lines}))
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
            fences.end_blocks()  # a docgen block ends the code block open
        if indented and fences.code and kind == markers.OUTSIDE and line is not None:
            if not line.strip():
                if code is not None:
                    blanks.append((number, fences.code_text))
                continue
            if code is None or fences.code_opens:
                flush()
                blanks = []
                code = Fence("", [], section)
                if old_list:
                    old_list, dropped = False, 0
                else:
                    out.fences.append(code)
            code.lines.extend(blanks)
            code.lines.append((number, fences.code_text))
            blanks = []
            continue
        code, blanks = None, []
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
            lang, colon, title = (info.group(1) if info else "").partition(":")
            if not lang:  # (`:title` alone: no language, as written)
                lang, title = colon + title, ""
            fence = Fence(lang.lower(), [], section, title=title)
            if old_list:
                old_list, dropped = False, 0
            else:
                out.fences.append(fence)
            continue
        head = heads.get(number)
        for link_line in range(number, head.last + 1 if head else number + 1):
            link_text = lines[link_line - 1] or ""
            found = links(link_text)
            doc.links.extend((link_line, link.target) for link in found if link.target is not None)
            doc.destinations.extend((link_line, target) for target in destinations(link_text, found))
        if head:
            flush()
            for underline in lines[index : head.last]:  # a setext heading's underline ends its text
                fences.step(underline or "")
            index = head.last  # after a setext heading's underline
            heading, level = head.text, head.level
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
            for row_line in range(number + 1, index + 1):  # the table's lines after its first
                row_text = lines[row_line - 1] or ""
                doc.destinations.extend((row_line, target) for target in destinations(row_text))
            if table is not None and not old_list:
                table.section = section
                out.tables.append(table)
            old_list, dropped = False, 0
            previous = ""
            continue
        following = lines[index] if index < len(lines) else None
        if following is not None and _starts_table(line, following):
            context = heading + " " + (previous if not para else " ".join(t for _, t in para))
            flush()
            table = Table(number, table_cells(line), [], context, section)
            index += 1
            while index < len(lines):
                row = lines[index]
                if row is None or not row.strip() or "|" not in row or _ends_table(row):
                    break
                table.rows.append((index + 1, table_cells(row)))
                out.fences.extend(inline_commands([(index + 1, row)], section))
                found = links(row)
                doc.links.extend((index + 1, link.target) for link in found if link.target is not None)
                doc.destinations.extend((index + 1, target) for target in destinations(row, found))
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
    if any(f.loose for f in doc.fences) and any(not f.inline and not f.prompted for f in doc.fences):
        doc.fences = [f for f in doc.fences if not f.loose]  # the README writes its commands in blocks
    return doc


_INLINE_COMMAND = re.compile(
    r"(?:sudo[ ]+)?(?:"
    r"(?:docker|podman|nvidia-docker)[ ]+(?:(?:image|container|buildx)[ ]+)?"
    r"(?:build|run|pull|push|create|exec)[ ]"
    r"|docker[ ]+compose[ ]+(?:build|up|run|pull|exec)\b"
    r"|docker-compose[ ]+(?:build|up|run|pull|exec)\b"
    r"|git[ ]+clone[ ]+\S"
    r"|(?:bash|sh)[ ]+[\w./-]+\.sh\b|\./[\w./-]+\.sh\b"
    r"|(?:python(?:\d(?:\.\d+)?)?|uv[ ]+run(?:[ ]+python[\d.]*)?|poetry[ ]+run[ ]+python[\d.]*)[ ]+"
    r"(?:-[A-Za-z][ ]+)*[\w./-]+\.py\b"
    r"|make(?:[ ]+[\w.-]+)*\Z"
    r"|(?:singularity|apptainer)[ ]+(?:build|run|exec|pull|shell)[ ]"
    r"|cd[ ]+[\w.~/-]+\Z"
    r")"
)
"""The start of a whole command written as inline code: `docker build -t app .`, `sudo docker run …`,
`git clone URL`, `bash setup.sh`, `./run.sh`, `python train.py` (`python3.11 -u x.py`, `uv run x.py`,
`poetry run python x.py`), `make`, `singularity build …`, `cd dir`
(so that what follows runs where it is written to)."""
_PLACEHOLDER = re.compile(
    r"<[^<>]*>|\{\{|\$\{?[A-Z_]*(?:IMAGE|NAME|TAG)\b|\[[^\]]*\]|\.\.\.|…|\bpath[_/]to\b|\bimage_name\b"
    r"|\b[Yy]our\b|\byour[_-]|\bYOUR|\bsome[_-]|\$\{?pwd\b"
)
"""A span that shows a command's shape, not a command to run: `docker run <image>`, `-t image_name:tag
path`, `/path/to/repo`, `/path/where/your/data/is`, `[options]`, `...`; `${pwd}` is PowerShell's, not a
shell's."""
_BUILD = re.compile(r"(?:sudo[ ]+)?(?:docker|podman|nvidia-docker)[ ]+(?:(?:image|buildx)[ ]+)?build[ ]")
_CONTEXT = re.compile(r"(?:\.{1,2}|-|\.{0,2}/\S*|\S*[./]\S*|https?://\S+|git@\S+)\Z")


def inline_commands(lines: Sequence[tuple[int, str]], section: int) -> list[Fence]:
    """Each inline code span of `lines` (a paragraph, a list item or a table row) that is a whole command
    (`_INLINE_COMMAND`, no placeholder like `<image>` or `...`), as a one-line `bash` block marked
    `inline`: `- run ``docker build -t app .`` to build` holds a command as a fenced block does."""
    found: list[Fence] = []
    for number, text in lines:
        if "`" not in text:
            continue
        for _, _, code in code_spans(text):
            code = " ".join(code.split())
            if not _INLINE_COMMAND.match(code) or _PLACEHOLDER.search(code):
                continue
            if _BUILD.match(code) and not _built(code.split()):
                continue  # `docker build --platform linux/arm64`: options alone, no context
            found.append(Fence("bash", [(number, code)], section, inline=True))
    return found


_PLAIN_COMMAND = re.compile(
    r"(?:sudo[ ]+)?(?:"
    r"(?:docker|podman|nvidia-docker)[ ]+(?:build|run|pull|push|exec)[ ]"
    r"|docker[ ]+compose[ ]+(?:build|up|run|pull|exec)\b"
    r"|docker-compose[ ]+(?:build|up|run|pull|exec)\b"
    r"|git[ ]+clone[ ]+(?:https?://|git@)\S"
    r"|(?:bash|sh)[ ]+[\w./-]+\.sh(?:[ ]|\Z)|(?:bash|sh)[ ]+\w[\w/-]*\Z|\./[\w./-]+(?:[ ]|\Z)"
    r"|python[\d.]*[ ]+[\w./-]+\.py(?:[ ]|\Z)"
    r"|cd[ ]+[\w.~/-]+\Z"
    r")"
)
"""The start of a prose line that is a whole command written without code: `cd build`, `./run.sh`,
`bash build.sh`, `bash build` (the line being only a script run by its name), `sudo docker run …`,
`git clone https://…`, `python app.py` (after a `$ ` prompt too); `make`, `pip` and the like start
sentences too often (`make sure …`) to be read so."""
_SENTENCE_WORD = re.compile(
    r"(?i)(?<![\w./-])(?:the|a|an|to|and|or|will|would|is|are|be|then|with|for|of|in|it|its|this|that"
    r"|these|you|your|can|should|must|may|which|when|if|now|first|here|also|into|from|using)(?![\w./-])"
)
"""A word of a sentence, which a command line does not hold."""


_PROMPT = re.compile(r"[ \t]*\$[ \t]+(?=[A-Za-z_./~])")
"""A prose line's `$ ` prompt before a command (a word, `./run.sh`, `/opt/x`, `~/bin/x`; not `$ 5`)."""
_COMMENTS = re.compile(r"`[^`]*`|(?<!\S)#.*")
"""What a command line holds that is no word of it: a backtick substitution, a comment."""


def _prompted(text: str) -> bool:
    """Whether `text` is a `$ `-prompted command line: no sentence (no sentence word outside its comments,
    no sentence end but a build's context `.`)."""
    prompt = _PROMPT.match(text)
    if prompt is None:
        return False
    command = _COMMENTS.sub(" ", text[prompt.end() :]).strip()
    if command.endswith((".", ":", ",", ";", "!", "?", ")")) and not command.endswith((" .", "..")):
        return False
    return _SENTENCE_WORD.search(command) is None


_QUOTE_FENCE = re.compile(r"[ ]{0,3}'''[ \t]*([\w+-]*)[ \t]*\Z")
"""A line that is three single quotes and at most a language (`'''`, `'''bash`): a fence written with
the wrong character, which Markdown shows as a paragraph."""


def quote_fenced(lines: Sequence[tuple[int, str]], section: int) -> list[Fence]:
    """The code blocks of a paragraph whose author fenced them with three single quotes in place of
    backticks (`'''` lines, a Python habit): each pair of such lines, in order, encloses one block, its
    language the opening line's. None when the paragraph holds an odd number of them (a quote in prose,
    or a block a blank line split from its other fence: not read as a block)."""
    marks = [index for index, (_, text) in enumerate(lines) if _QUOTE_FENCE.match(text)]
    if not marks or len(marks) % 2:
        return []
    found: list[Fence] = []
    for opening, closing in zip(marks[::2], marks[1::2], strict=True):
        language = _QUOTE_FENCE.match(lines[opening][1])
        body = list(lines[opening + 1 : closing])
        if body:
            found.append(Fence(language.group(1).lower() if language else "", body, section))
    return found


def prompt_commands(lines: Sequence[tuple[int, str]], section: int) -> list[Fence]:
    """The command blocks of a paragraph written at a `$ ` prompt without a fence: each run of `$ `-prompted
    command lines (`_prompted`), the lines a `\\` continues, and the options indented deeper than the
    run's first line after a line whose `\\` is missing (so that the rules reading blocks see the slip), as
    a block with no language, the lines as written (prompts stay, as in a fenced block). Any other line
    of the paragraph stays prose only."""
    found: list[Fence] = []
    index = 0
    while index < len(lines):
        number, text = lines[index]
        index += 1
        if not _prompted(text):
            continue
        block = [(number, text)]
        depth = len(text) - len(text.lstrip())
        while index < len(lines):
            after = lines[index][1]
            body = after.lstrip()
            if not (
                block[-1][1].rstrip().endswith("\\")
                or _prompted(after)
                or (body.startswith("-") and len(after) - len(body) > depth)
            ):
                break
            block.append(lines[index])
            index += 1
        found.append(Fence("", block, section, prompted=True))
    return found


def _labelled_lines(lines: Sequence[tuple[int, str]]) -> bool:
    """Whether a paragraph is a label and the indented lines under it (`Create image:` over `     docker
    build -t …`): Markdown folds an indented line into the paragraph above it, though the author wrote a
    code block."""
    first = lines[0][1] if lines else ""
    return (
        len(lines) > 1
        and not first.startswith((" ", "\t"))
        and first.rstrip().endswith(":")
        and all(text.startswith(("    ", "\t")) for _, text in lines[1:])
    )


_SHELL_ONLY = re.compile(r"(?:\$[ ]+)?(?:eval[ ]+\$\([^`]*\)|export[ ]+[A-Za-z_]\w*=\S*|[a-z][a-z0-9_-]*)\Z")
"""A prose line only the shell reads that no rule reads as a command: `eval $(docker-machine env
node-1)`, `export CUDA=1`, a lone lower-case word (`awsenv`, a shell alias). A paragraph of commands
with such lines between them is a block of commands written without a fence, not prose."""


_BARE_SCRIPT = re.compile(r"(?:sudo[ ]+)?(?:bash|sh)[ ]+\w[\w/-]*\Z")
"""A script run by a name with no extension (`bash image`, `sh install`)."""


def plain_commands(
    lines: Sequence[tuple[int, str]], section: int, taken: frozenset[int] | set[int] = frozenset()
) -> list[Fence]:
    """Each line of a paragraph that is a whole command written as plain text (`_PLAIN_COMMAND`, no
    code span, link or emphasis, no word of a sentence, no sentence end but a build's context `.`, no
    placeholder), as a one-line `bash` block marked `inline`: a README with no code block writes `cd
    build` and `./run.sh` so. A line in a paragraph with other text is marked `loose` (`read_document`
    drops those when the README has a code block), but for lines only the shell reads (`_SHELL_ONLY`:
    `eval $(…)`, `export X=1`, a lone word); an indented line is an indented block's. The lines
    of `taken` are read already (`prompt_commands`)."""
    found: list[Fence] = []
    labelled = _labelled_lines(lines)
    for number, text in lines:
        if text.startswith(("    ", "\t")) and not labelled:
            return []
        if number in taken:
            continue
        command = text.strip()
        if command.startswith("$ "):
            command = command[2:].lstrip()
        if (
            not _PLAIN_COMMAND.match(command)
            or any(c in command for c in "`[]*<>")
            or (command.endswith((".", ":", ",", ";", "!", "?", ")")) and not command.endswith((" .", "..")))
            or _SENTENCE_WORD.search(command)
            or _PLACEHOLDER.search(command)
        ):
            continue
        found.append(Fence("bash", [(number, command)], section, inline=True))
    shell = sum(1 for number, text in lines if number not in taken and _SHELL_ONLY.match(text.strip()))
    if len(found) + shell < len(lines):
        # (`bash build`, a script by a name with no extension, is a command only among commands: in a
        # paragraph of prose it may be words wrapped onto their own line, `bash scripts`)
        found = [fence for fence in found if not _BARE_SCRIPT.match(fence.lines[0][1])]
        for fence in found:
            fence.loose = True
    return found


def fenced_only(doc: Document) -> Document:
    """`doc` without the command blocks read from inline code: for a rule about the prose that reads the
    spans of the prose itself (a script a sentence names is not one a command of the README runs)."""
    if not any(fence.inline for fence in doc.fences):
        return doc
    return replace(doc, fences=[fence for fence in doc.fences if not fence.inline])


def _built(words: list[str]) -> bool:
    """Whether the words of a `docker build` name its context: `.` or `..` anywhere (`docker build . -t
    app`), else a last word that is a path or URL and no option's value (`--platform linux/arm64`)."""
    if "." in words or ".." in words:
        return True
    last, before = words[-1], words[-2]
    if last.startswith("-") and last != "-":
        return False
    return _CONTEXT.match(last) is not None and (before[:1] != "-" or before in _FLAGS)


_FLAGS = ("--squash", "--no-cache", "--pull", "-q", "--quiet", "--rm", "--load", "--push")
"""Options of `docker build` that take no value."""


_OLD_LIST = re.compile(
    r"[ \t]*(?:[-*+][ \t]+)?[*_]*"
    r"(?:history|historical|older|previous|past|old|earlier|legacy|deprecated|archived|preview|nightly|upcoming)\b"
    r"[^:(]{0,40}(?:\([^():]{0,160}\)[^:(]{0,20})?:[*_ \t]*\Z",
    re.IGNORECASE,
)
"""A line introducing a list of older or other images (`History versions:`, `- Preview image:`, `History
(sglang-based images, before the switch to vLLM):`, a parenthesis of any length): what follows, up to the
end of that list, is not about the image audited."""
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
        if line is None or atx_heading(line):
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
