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

from docgen.errors import MarkerError

TYPE_CHECKING = False  # `typing` costs milliseconds at start-up; this module is on the fast path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

SECTIONS = ("hardware", "versions", "contents", "build-args", "stages", "summary", "images", "matrix")
"""The block names docgen knows, one per section template (`versions.md.j2` …)."""

DEFAULT_SECTIONS = SECTIONS[:4]
"""The sections `docgen init` adds to a README (`stages`, the stage diagram, and `summary`, one line of
key versions for the top of a page, are added by hand; so are `images` and `matrix`)."""

FAMILY_SECTIONS = ("images", "matrix")
"""The sections about every image that lists a file (a table of the images, components × images);
the others are about one image, named by the marker's `image=` when several images list the file."""

IMAGE_SECTIONS = tuple(name for name in SECTIONS if name not in FAMILY_SECTIONS)
"""The sections about one image."""

IMAGE = "image"
"""The begin marker attribute naming the image a block is about
(`<!-- BEGIN docgen:versions image=rocm -->`)."""


def attribute(attributes: str, key: str) -> str | None:
    """The value of the `key=value` word of a begin marker's attributes (the first one), else None."""
    prefix = key + "="
    for word in attributes.split():
        if word.startswith(prefix):
            return word[len(prefix) :]
    return None


_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_NAME_CHARS = _NAME_START | {"_", "-"}

# No regular expressions here: `docgen check`'s fast path imports this module, and importing `re`
# (and compiling the patterns) would cost more than the rest of that path. Each function below states
# the pattern it implements; all are single passes, linear in the line's length.


def parse_marker(content: str) -> tuple[str, str, int, int] | None:
    r"""(kind, name, attributes start, attributes end) when `content` (a line without its ending) is
    a marker, else None.

    The grammar is the regular expression
    `[ \t]*<!--[ \t]*(BEGIN|END)[ \t]+docgen:([^\s>]*)((?:\s[^>]*)?)-->[ \t]*`, matched in full;
    the attributes span is that of its third group.
    """
    s = content.lstrip(" \t")
    if not s.startswith("<!--"):
        return None
    pos = len(content) - len(s) + 4
    rest = content[pos:].lstrip(" \t")
    pos = len(content) - len(rest)
    kind = "BEGIN" if rest.startswith("BEGIN") else "END" if rest.startswith("END") else None
    if kind is None:
        return None
    pos += len(kind)
    rest = content[pos:].lstrip(" \t")
    if len(rest) == len(content) - pos or not rest.startswith("docgen:"):
        return None  # `[ \t]+` needs at least one blank
    start = len(content) - len(rest) + len("docgen:")
    end = start
    while end < len(content) and content[end] != ">" and not content[end].isspace():
        end += 1
    tail = content[end:].rstrip(" \t")
    if tail.endswith("-->"):
        attributes = tail[:-3]
        if not attributes or (attributes[0].isspace() and ">" not in attributes):
            return kind, content[start:end], end, end + len(attributes)
    # the name may end in `--` when `-->` follows it directly: `<!-- END docgen:versions-->`
    if content[end - 2 : end] == "--" and end - 2 >= start and tail == ">":
        return kind, content[start : end - 2], end - 2, end - 2
    return None


def _refuse_near_miss(content: str, path: str, number: int) -> None:
    """Raise for a line that starts like a marker but is not one (`<!-- BEGIN docgen:x a>b -->`,
    `<!-- END docgen:x --> text`): left alone it would surface later as a confusing unmatched END."""
    head = content.lstrip(" \t")
    if not head.startswith("<!--"):
        return
    words = head[4:].split(None, 1)
    if (
        words
        and words[0].upper() in ("BEGIN", "END")
        and words[1:]
        and words[1].lower().startswith("docgen:")
    ):
        if words[0] not in ("BEGIN", "END") or not words[1].startswith("docgen:"):
            raise MarkerError(
                f"this line looks like a docgen marker written in another case: write <!-- "
                f"{words[0].upper()} docgen:NAME --> (BEGIN and END in capitals, docgen: in lower case)",
                path,
                number,
            )
        raise MarkerError(
            f"this line starts like a docgen marker but is not one: write <!-- {words[0]} docgen:NAME --> "
            "alone on its line (only spaces after -->, no '>' before it)",
            path,
            number,
        )


def _valid_name(name: str) -> bool:
    """`[a-z0-9][a-z0-9_-]*`, in full."""
    return bool(name) and name[0] in _NAME_START and all(c in _NAME_CHARS for c in name)


def opening_fence(line: str) -> str | None:
    """The run of backticks or tildes opening `line` (`[ ]{0,3}(`{3,}|~{3,})`), else None."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3 or not body or body[0] not in "`~":
        return None
    mark = body[: len(body) - len(body.lstrip(body[0]))]
    return mark if len(mark) >= 3 else None


def fence_after(line: str, fence: str | None) -> tuple[bool, str | None]:
    """Whether `line` opens or closes a fenced code block, and the fence open after it (None: none).

    `fence` is the fence open before the line (the run of backticks or tildes that opened it).
    """
    mark = opening_fence(line)
    if not mark:
        return False, fence
    if fence is None:
        if mark[0] == "`" and "`" in line.lstrip(" ")[len(mark) :]:
            return False, None  # ```` ``` x ``` y ````: inline code (a backtick info string is not allowed)
        return True, mark
    if mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip().strip(mark[0]):
        return True, None
    return True, fence


OUTSIDE, OPENS, INSIDE, CLOSES = 0, 1, 2, 3
"""What `Fences.step` says of a line: prose, the opening fence, code, the closing fence."""

_BULLETS = frozenset("-+*")
_DIGITS = frozenset("0123456789")


def _thematic_break(body: str) -> bool:
    """Whether `body` (a line without its indentation) is a thematic break (`- - -`, `***`, `___`),
    which is not a list item."""
    marks = body.replace(" ", "").replace("\t", "").rstrip("\r\n")
    return len(marks) >= 3 and marks[0] in "-*_" and marks == marks[0] * len(marks)


def _past(text: str, columns: int) -> str:
    """`text` without its first `columns` columns (a tab to the next multiple of four; one it cuts
    through leaves its other columns as spaces), as CommonMark takes an indented code block's
    indentation off."""
    column = 0
    for index, char in enumerate(text):
        if column >= columns:
            return text[index:]
        if char == "\t":
            column += 4 - column % 4
            if column > columns:
                return " " * (column - columns) + text[index + 1 :]
        else:
            column += 1  # a space (or the list marker of `-     code`)
    return ""


def _tabs_expanded(text: str) -> str:
    """`text` with the tabs of its indentation turned into the spaces up to the next multiple of four
    columns (CommonMark's tab stops)."""
    column = 0
    for index, char in enumerate(text):
        if char == "\t":
            column += 4 - column % 4
        elif char == " ":
            column += 1
        else:
            return " " * column + text[index:]
    return " " * column


_RAW_HTML = ("<pre", "<script", "<style", "<textarea")
"""The HTML blocks that blank lines do not end (CommonMark's kind 1): they end at their closing tag."""


def _html_end(rest: str) -> str:
    """What ends the HTML block or block quote a line whose text is `rest` (starting with `<` or `>`)
    opens: `>` a block quote (a blank line), the closing tag of a `<pre>`-like block or `-->` of a
    comment not closed on its line, else '' (a blank line); an HTML block closed on its own line, '-'."""
    if rest[0] == ">":
        quoted = rest[1:].strip()
        return ">" if quoted and _continues_text(quoted) else ">>"
    lower = rest.lower()
    if lower.startswith("<!--"):
        return "-" if "-->" in lower[4:] else "-->"
    for tag in _RAW_HTML:
        if lower.startswith(tag) and lower[len(tag) : len(tag) + 1] in ("", " ", ">", "\t"):
            closing = "</" + tag[1:]
            return "-" if closing in lower else closing
    return ""


def _setext_underline(rest: str, text: bool) -> bool:
    """Whether `rest` (not blank) underlines the paragraph text before it as a heading (`===`): the
    paragraph ends there."""
    return text and not rest.strip().strip("=")


def _continues_text(body: str) -> bool:
    """Whether a line whose text is `body` (not blank) may continue a paragraph: it starts no ATX
    heading, block quote, HTML, thematic break, fence or list item (`[ ]{0,3}(#{1,6}([ \t]|$)|>|<|
    [-+*]([ \t]|$)|[0-9]{1,9}[.)]([ \t]|$))`, or a fence or thematic break)."""
    first = body[0]
    if first in "><" or _thematic_break(body) or opening_fence(body):
        return False
    after = body.lstrip("#") if first == "#" else body[1:] if first in _BULLETS else body.lstrip("0123456789")
    if first == "#" and len(body) - len(after) > 6:
        return True
    if first in _DIGITS:
        if len(body) - len(after) > 9 or not after or after[0] not in ".)":
            return True
        after = after[1:]
    elif first not in _BULLETS and first != "#":
        return True
    return bool(after) and after[0] not in " \t"


class Fences:
    """Fenced code blocks, read line by line as CommonMark reads them, list items included.

    A fence opened inside a list item (`- step:` then an indented ```` ``` ````, or ``- ```bash``
    on the item's own line) belongs to that item: its closing fence is indented like the item's text,
    and when the item ends (a non-blank line indented less than the item's text) the code block ends
    with it, closed or not. Outside list items this is `fence_after`. The list items are followed
    only as far as fences need (their text's column); a lazy continuation line (unindented text right
    after an item's text) keeps them open, as CommonMark does.

    Indented code blocks are followed too, without changing what `step` returns (such a line is
    `OUTSIDE`): `code` says whether the line stepped is one (lines indented four columns or more past
    the text of the list item around them, a tab to the next multiple of four, that continue no paragraph,
    HTML block or block quote; a blank line while one is open, which is the block's only when an indented
    line follows it), and `code_text` what it holds (its indentation up to the block's less).
    """

    __slots__ = (
        "_below",
        "_code",
        "_html",
        "_items",
        "_text",
        "code",
        "code_opens",
        "code_text",
        "fence",
        "info_at",
    )

    def __init__(self) -> None:
        self.fence: str | None = None
        """The run of backticks or tildes of the open fenced code block, None outside one."""
        self.info_at = 0
        """Column just after the opening fence of the last block opened (where its info string is)."""
        self._below = 0  # a non-blank line indented less than this ends the open code block
        self._items: list[int] = []  # columns of the text of the list items open around this line
        self._text = False  # the line before was paragraph text: a lazy continuation line may follow
        self.code = False
        """The line stepped last is a line of an indented code block (a blank one: tentatively)."""
        self.code_opens = False
        """That line opens the indented code block (the line before was none of its)."""
        self.code_text = ""
        """What that line holds, the block's indentation taken off."""
        self._code: int | None = None  # the column the open indented code block's lines start at
        self._html = "-"  # what ends the HTML block or block quote open ("" or ">": a blank line; "-": none)

    def step(self, line: str) -> int:
        """`OUTSIDE`, `OPENS`, `INSIDE` or `CLOSES`: what `line` (with or without its ending) is."""
        text = written = line.rstrip("\r\n")
        body = text.lstrip(" ")
        if body[:1] == "\t":
            text = _tabs_expanded(text)
            body = text.lstrip(" ")
        indent = len(text) - len(body)
        blank = not body.strip()
        self.code = self.code_opens = False
        if self.fence is not None:
            if blank or indent >= self._below:
                _, self.fence = fence_after(text[self._below :], self.fence)
                return CLOSES if self.fence is None else INSIDE
            self.fence = None  # the list item ended, and the code block with it
        if blank:
            self._text = False
            if self._code is not None:
                self.code, self.code_text = True, _past(written, self._code)
            if self._html in ("", ">", ">>"):
                self._html = "-"
            return OUTSIDE
        if self._code is not None:
            if indent >= self._code:
                self.code, self.code_text = True, _past(written, self._code)
                return OUTSIDE
            self._code = None
        if self._html[:1] == ">":  # a block quote: a line of it, a lazy one, or the end of it
            if body[0] == ">":
                quoted = body[1:].strip()
                self._html = ">" if quoted and _continues_text(quoted) else ">>"
            elif self._html != ">" or not (
                _continues_text(body) or indent >= 4 + (self._items[-1] if self._items else 0)
            ):
                self._html = "-"
        html = self._html != "-"  # no indented code in an HTML block or a block quote
        if html and self._html not in ("", ">", ">>") and self._html in body.lower():
            self._html = "-"  # `</pre>`, `-->`: the HTML block ends with this line
        items = self._items
        if items and indent < items[-1] and self._text and _continues_text(body):
            return OUTSIDE  # a lazy continuation: the item goes on
        while items and indent < items[-1]:
            items.pop()
        start = items[-1] if items else 0
        if indent >= start + 4 and not self._text and not html:
            self._code = start + 4
            self.code = self.code_opens = True
            self.code_text = _past(written, self._code)
            return OUTSIDE
        item, deep = False, indent >= start + 4  # deep: a paragraph's text (or an HTML block's)
        if not deep and (body[0] in _BULLETS or body[0] in _DIGITS) and not _thematic_break(body):
            start = self._list_markers(text, indent)
            item = start > indent
        is_fence, fence = fence_after(text[start:], None)
        if fence is None:
            rest = text[start:].lstrip(" ")
            if item and len(text) - len(rest) >= start + 4 and not html:
                self._code = start + 4  # `-     code`: an item whose text is indented code
                self.code = self.code_opens = True
                self.code_text = _past(written, self._code)
                self._text = False
                return OUTSIDE
            if not html and rest[:1] in ("<", ">"):
                self._html = _html_end(rest)
            self._text = bool(rest.strip()) and (
                deep or _continues_text(rest) and not _setext_underline(rest, self._text)
            )
            return OUTSIDE
        self._text = False
        self.fence, self._below = fence, items[-1] if items else 0
        self.info_at = len(text) - len(text[start:].lstrip(" ")) + len(fence)
        return OPENS

    def end_blocks(self) -> None:
        """End the fenced or indented code block open (a line that is no Markdown came)."""
        self.fence, self._code = None, None

    def _list_markers(self, text: str, pos: int) -> int:
        """Read the list markers starting at column `pos` (`- `, `1. `, `- 2) ` …), open an item for
        each, and return the column of the text after them (`pos` when there is none)."""
        while pos < len(text):
            end = pos
            if text[pos] in _BULLETS:
                end = pos + 1
            else:
                while end < len(text) and end - pos < 9 and text[end] in _DIGITS:
                    end += 1
                if end == pos or end >= len(text) or text[end] not in ".)":
                    return pos
                end += 1
            rest = text[end:]
            if rest and rest[0] != " ":
                return pos  # `-x`, `1.5`: no marker
            spaces = len(rest) - len(rest.lstrip(" "))
            column = end + (spaces if 1 <= spaces <= 4 and rest.strip() else 1)
            self._items.append(column)
            pos = min(column, len(text))
        return pos


def split_lines(text: str) -> list[str]:
    """The lines of `text`, each with its ending (`\n`, `\r\n` or a lone `\r`)."""
    if "\r" not in text:
        lines = [line + "\n" for line in text.split("\n")]
        lines[-1] = lines[-1][:-1]
    else:
        lines = []
        for piece in text.split("\n"):
            parts = piece.split("\r")
            # "a\r" + "\n" is one CRLF line; other \r are line breaks of their own
            lines += [part + "\r" for part in parts[:-1]]
            lines.append(parts[-1] + "\n")
            if parts[-1] == "" and len(parts) > 1:
                lines.pop()
                lines[-1] += "\n"
        lines[-1] = lines[-1][:-1]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class Block:
    """One generated block found in a text.

    A plain class rather than a dataclass: `docgen check`'s fast path imports this module, and
    `dataclasses` alone would double its start-up time.
    """

    __slots__ = ("name", "begin_line", "end_line", "body_start", "body_end", "attributes", "begin_start")

    def __init__(
        self,
        name: str,
        begin_line: int,
        end_line: int,
        body_start: int,
        body_end: int,
        attributes: str = "",
        begin_start: int = 0,
    ) -> None:
        self.name = name
        """The section name after `docgen:` (`versions`)."""
        self.begin_line = begin_line
        """1-based line of the begin marker."""
        self.end_line = end_line
        """1-based line of the end marker."""
        self.body_start = body_start
        """Offset in the text where the body starts (just after the begin marker's line ending)."""
        self.body_end = body_end
        """Offset where the body ends (the start of the end marker's line)."""
        self.attributes = attributes
        """Anything written after the name in the begin marker (`dockerfile=… setup=… text=…`)."""
        self.begin_start = begin_start
        """Offset where the begin marker's line starts."""

    @property
    def image(self) -> str | None:
        """The image the block says it is about (its `image=` attribute), else None."""
        return attribute(self.attributes, IMAGE)

    @property
    def key(self) -> str:
        """What tells the block apart in its file: the name, with the image when it names one
        (`versions image=rocm`); bodies are given by key (`splice`)."""
        image = self.image
        return self.name if image is None else f"{self.name} {IMAGE}={image}"

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Block) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Block(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"


def _lines_with_offsets(text: str) -> Iterable[tuple[int, int, str]]:
    """(1-based line number, offset, line including its line ending) for every line of `text`."""
    # Markdown ends lines with \n, \r\n or \r only (str.splitlines would also split at \f, \x85,
    # \u2028 … and so disagree with editors about line numbers). A byte-order mark is not text.
    bom = 1 if text.startswith("\ufeff") else 0
    offset = 0
    for number, line in enumerate(split_lines(text), start=1):
        yield number, offset + bom, line[bom:]
        offset += len(line)
        bom = 0


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
    open_start = 0
    fences = Fences()
    for number, offset, line in _lines_with_offsets(text):
        if fences.step(line) != OUTSIDE or ("docgen:" not in line and "docgen:" not in line.lower()):
            continue
        content = line.rstrip("\r\n")
        marker = parse_marker(content)
        if marker is None:
            _refuse_near_miss(content, path, number)
            continue
        kind, name, attrs_start, attrs_end = marker
        attrs = content[attrs_start:attrs_end].strip()
        if not _valid_name(name):
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
            image = attribute(attrs, IMAGE)
            if image is not None and attrs.count(IMAGE + "=") > 1:
                named = [word for word in attrs.split() if word.startswith(IMAGE + "=")]
                if len(named) > 1:  # the first used to win in silence
                    raise MarkerError(
                        f"block docgen:{name} names {len(named)} images ({' '.join(named)}); a block is "
                        f"about one: keep one {IMAGE}=",
                        path,
                        number,
                    )
            key = name if image is None else f"{name} {IMAGE}={image}"
            if key in seen:
                message = f"block docgen:{key} appears twice (first at line {seen[key]})"
                raise MarkerError(message, path, number)
            open_name, open_line, open_body, open_attrs = name, number, offset + len(line), attrs
            open_start = offset
            seen[key] = number
        else:
            if open_name is None:
                raise MarkerError(f"END docgen:{name} without a BEGIN docgen:{name} before it", path, number)
            if name != open_name:
                raise MarkerError(
                    f"END docgen:{name} does not match BEGIN docgen:{open_name} at line {open_line}",
                    path,
                    number,
                )
            blocks.append(Block(open_name, open_line, number, open_body, offset, open_attrs, open_start))
            open_name = None
    if open_name is not None:
        raise MarkerError(
            f"BEGIN docgen:{open_name} has no <!-- END docgen:{open_name} --> after it", path, open_line
        )
    return blocks


def newline_of(text: str) -> str:
    """The line ending a text mostly uses: `\\r\\n` when CRLF lines outnumber LF-only ones."""
    crlf = text.count("\r\n")
    if not crlf and "\n" not in text and "\r" in text:
        return "\r"
    return "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"


def newline_outside(text: str, blocks: Sequence[Block]) -> str:
    """The line ending the text outside the bodies of `blocks` mostly uses: what `sync` writes the
    bodies with. The bodies themselves do not count, so a sync never changes the answer for the next
    one (a tie between LF and CRLF lines would otherwise flip at every run)."""
    pieces: list[str] = []
    pos = 0
    for block in blocks:
        pieces.append(text[pos : block.body_start])
        pos = block.body_end
    pieces.append(text[pos:])
    return newline_of("".join(pieces))


def normalise_body(body: str, newline: str) -> str:
    """`body` as `sync` writes it into a text whose line ending is `newline`: every line ends with it."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "".join(line + newline for line in lines)


def replace_blocks(text: str, bodies: Mapping[str, str], path: str = "<text>") -> str:
    """`text` with the body of every block named in `bodies` replaced; other text kept byte for byte.

    Bodies are written with the text's own line ending and always end with one, so the end marker
    stays on a line of its own. Blocks whose name is not in `bodies` are left as they are.
    """
    return splice(text, find_blocks(text, path), bodies)


def splice(
    text: str,
    blocks: Iterable[Block],
    bodies: Mapping[str, str],
    attributes: Callable[[Block, str], str] | None = None,
) -> str:
    """`text` with the bodies of `blocks` (found in it by `find_blocks`) whose key (`Block.key`: the name,
    and the image when the marker names one) is in `bodies` replaced.

    With `attributes`, each replaced block's begin marker gets the attributes
    `attributes(block, new_body)` returns (the body as written, in the text's line endings).
    """
    blocks = list(blocks)
    newline = newline_outside(text, blocks)
    out: list[str] = []
    pos = 0
    for block in blocks:
        if block.key not in bodies:
            continue
        body = normalise_body(bodies[block.key], newline)
        if attributes is None:
            out.append(text[pos : block.body_start])
        else:
            out.append(text[pos : block.begin_start])
            out.append(_with_attributes(text[block.begin_start : block.body_start], attributes(block, body)))
        out.append(body)
        pos = block.body_end
    out.append(text[pos:])
    return "".join(out)


def _with_attributes(line: str, attributes: str) -> str:
    """A begin marker line with its attributes replaced; indentation and line ending kept."""
    content = line.rstrip("\r\n")
    ending = line[len(content) :]
    marker = parse_marker(content)
    if marker is None:  # pragma: no cover - find_blocks matched this line
        return line
    new = f" {attributes} " if attributes else " "
    return content[: marker[2]] + new + content[marker[3] :] + ending


def replace_block(text: str, name: str, body: str, path: str = "<text>") -> str:
    """`text` with the body of block `name` replaced (see `replace_blocks`)."""
    return replace_blocks(text, {name: body}, path)


def block_bodies(text: str, path: str = "<text>") -> dict[str, str]:
    """Key (`Block.key`) → current body of every block in `text`."""
    return {b.key: text[b.body_start : b.body_end] for b in find_blocks(text, path)}


def unclosed_fence(text: str) -> int | None:
    """The line of the fenced code block opened in `text` and never closed, else None.

    Everything after such a line is code to Markdown, and so to `find_blocks`: markers there are not
    read (read-only; the same fence rule as `find_blocks`).
    """
    fences = Fences()
    opened = 0
    for number, _offset, line in _lines_with_offsets(text):
        if fences.step(line) == OPENS:
            opened = number
    return opened if fences.fence is not None else None
