"""Find pyproject.toml, and read its `[tool.docgen]` tables as text, without a TOML parser.

`docgen.config` reads the configuration with `tomllib` and validates it. This module exists for the
fast path of `docgen check` (`docgen.fastcheck`), which must answer within twice the start-up time of
Python itself: importing `tomllib` alone (it pulls in `typing`, `string` and `datetime`) costs more
than that whole budget. What the fast path needs is small: the text of the docgen tables (to tell
whether the settings changed), the template folder, and each image's Dockerfile and outputs (to know
which files to look at).

`read_settings` is deliberately narrow: it returns None for any file where it cannot be sure which
lines make up the docgen tables (multi-line strings, quoted table names, a key outside those tables
that could define `tool.docgen` through dotted keys or an inline table). It does not need to be right
about the values either: `docgen sync` puts the image list and template folder *as tomllib parsed
them* into every block's fingerprint, so a misread list can only make the fast path step aside.
"""

from __future__ import annotations

import os

# No regular expressions: importing `re` costs the fast path more than all its work (see above).
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class Settings:
    """What the fast path reads from pyproject.toml (see the module docstring)."""

    __slots__ = ("sections", "templates", "images")

    def __init__(self, sections: str, templates: str, images: list[tuple[str, list[str]]]) -> None:
        self.sections = sections
        """The text of every `[tool.docgen…]` table, headers included, in file order."""
        self.templates = templates
        """The `templates` folder as written ('' when there is none)."""
        self.images = images
        """(dockerfile, outputs) of every `[[tool.docgen.images]]`, as written."""


def find_pyproject(start: str) -> str | None:
    """The nearest pyproject.toml with a `[tool.docgen]` table, from folder `start` upwards."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                with open(candidate, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):
                return candidate  # the nearest one, unreadable: say so rather than use a parent's
            if declares_docgen(text):
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def declares_docgen(text: str) -> bool:
    """True when TOML `text` holds a `tool.docgen` table in any of TOML's spellings: a header
    (`[tool.docgen]`, `[[tool.docgen.images]]`, `[ tool . "docgen" ]`), a dotted key at the top
    (`tool.docgen.images = […]`) or a `docgen` key of a `[tool]` table. Text inside strings (a
    description that mentions `[tool.docgen]`) does not count: only the start of a line does."""
    table = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        key = line.replace(" ", "").replace("\t", "").replace('"', "").replace("'", "")
        if not key:
            continue
        if key[0] == "[":
            table = key.strip("[]").split("]", 1)[0]
            if table == "tool.docgen" or table.startswith("tool.docgen."):
                return True
            continue
        if not table and key.startswith(("tool.docgen.", "tool.docgen=")):
            return True
        if not table and key.startswith("tool=") and "docgen" in key:
            return True  # `tool = { docgen = { … } }`
        if table == "tool" and key.startswith(("docgen.", "docgen=")):
            return True
    return False


def _string(text: str) -> str | None:
    """The value of a one-line TOML string without escapes (`"a"` or `'a'`), else None."""
    text = text.strip(" \t")
    if len(text) < 2 or text[0] not in "\"'" or text[-1] != text[0]:
        return None
    inner = text[1:-1]
    return None if text[0] in inner or (text[0] == '"' and "\\" in inner) else inner


def _header(line: str) -> tuple[str, bool] | None:
    """(table name with dots, is an array of tables) of a TOML table header line, else None.

    Bare and quoted keys (quoted ones without escapes) separated by dots, blanks around them, and a
    trailing comment are understood; anything else gives None.
    """
    text = line.strip(" \t\r\n")
    double = text.startswith("[[")
    pos = 2 if double else 1
    parts: list[str] = []
    while True:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if pos < len(text) and text[pos] in "\"'":
            end = text.find(text[pos], pos + 1)
            if end < 0 or "\\" in text[pos:end]:
                return None
            parts.append(text[pos + 1 : end])
            pos = end + 1
        else:
            start = pos
            while pos < len(text) and text[pos] in _BARE:
                pos += 1
            if pos == start:
                return None
            parts.append(text[start:pos])
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if pos < len(text) and text[pos] == ".":
            pos += 1
            continue
        break
    close = "]]" if double else "]"
    if not text.startswith(close, pos):
        return None
    rest = text[pos + len(close) :].strip(" \t")
    if rest and not rest.startswith("#"):
        return None
    return ".".join(parts), double


def _key(line: str) -> tuple[str, str] | None:
    """(key as written, value text) of a `key = value` line, else None."""
    text = line.lstrip(" \t")
    if not text or text[0] in "=#[" or text[0].isspace():
        return None
    equals = text.find("=")
    if equals < 0:
        return None
    return text[:equals].strip(" \t"), text[equals + 1 :].strip(" \t\r\n")


def _strings(text: str) -> list[str] | None:
    """A one-line array of simple strings (`["a", 'b']`), else None."""
    text = text.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    inner = text[1:-1].strip().rstrip(",")
    if not inner:
        return []
    items = [_string(item) for item in inner.split(",")]
    return None if any(item is None for item in items) else [item for item in items if item is not None]


def _value(text: str) -> str:
    """A value with a trailing comment (a `#` after its last quote) removed."""
    last_quote = max(text.rfind('"'), text.rfind("'"))
    comment = text.find("#", last_quote + 1)
    return (text if comment < 0 else text[:comment]).strip()


def read_settings(text: str, *, parsed: bool = False) -> Settings | None:
    """The docgen tables of a pyproject.toml `text`, or None when this reader cannot be sure of them.

    None also for any text `valid_toml` cannot vouch for: `docgen check` fails on a pyproject.toml
    that `tomllib` rejects, even for a mistake outside the docgen tables, and so must the fast path.
    With `parsed` (tomllib has already accepted the text, as in `docgen.config`) that check is skipped;
    a file it would refuse only makes the fast path step aside later.
    """
    if '"""' in text or "'''" in text or not (parsed or valid_toml(text)):
        return None
    sections: list[str] = []
    templates = ""
    images: list[tuple[str, list[str]]] = []
    current: str | None = None  # "top", "image", "sub" inside docgen tables; None (root) or "other"
    table = ""  # the name of the current table outside the docgen ones
    image: dict[str, object] = {}
    pending: list[str] = []  # the lines of a multi-line `outputs = [` array
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    for line in lines:
        stripped = line.strip()
        if pending:
            pending.append(stripped)
            sections.append(line)
            if stripped.endswith("]"):
                image["outputs"] = _strings(" ".join(pending))
                pending = []
            continue
        if stripped.startswith("["):
            header = _header(line)
            if header is None:
                return None
            name, double = header
            if current == "image":
                images.append(_image(image))
            if name == "tool.docgen" and not double:
                current = "top"
            elif name == "tool.docgen.images" and double:
                current, image = "image", {}
            elif name.startswith("tool.docgen."):
                current = "sub"
            elif name.startswith("tool.docgen"):
                return None
            else:
                current, table = "other", name
            if current != "other":
                sections.append(line)
            continue
        if current in ("top", "image", "sub"):
            sections.append(line)
            found = _key(line)
            if found is None:
                continue
            key, value = found[0], _value(found[1])
            if current == "top" and key == "templates":
                templates = _string(value) or "\0"  # an unreadable value never matches
            elif current == "image" and key == "dockerfile":
                image["dockerfile"] = _string(value)
            elif current == "image" and key == "outputs":
                if value.startswith("[") and not value.endswith("]"):
                    pending = [value]
                else:
                    image["outputs"] = _strings(value)
            continue
        found = _key(line)
        if found is None:
            continue
        written = found[0]
        bare = "".join(c for c in written if not c.isspace() and c not in "\"'")
        path = ".".join(p for p in (table, bare) if p)
        if path == "tool" or path.startswith("tool.docgen") or ("\\" in written and table in ("", "tool")):
            return None  # a dotted key or an inline table that defines tool.docgen outside its tables
    if pending:
        return None
    if current == "image":
        images.append(_image(image))
    return Settings("".join(sections), templates, images)


def _image(found: dict[str, object]) -> tuple[str, list[str]]:
    """(dockerfile, outputs) of one image as read; unreadable values become a path no config has."""
    dockerfile = found.get("dockerfile")
    outputs = found.get("outputs", [])
    return (
        dockerfile if isinstance(dockerfile, str) else "\0",
        outputs if isinstance(outputs, list) else ["\0"],
    )


# --------------------------------------------------------------------------------------------------
# A validator for a common subset of TOML, so the fast path never passes a file `tomllib` rejects.

_CONTROL = tuple(chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F))
_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_AFTER_VALUE = frozenset(" \t\n,]}#")
_SIMPLE_ESCAPES = frozenset('btnfr"\\')


class _Invalid(Exception):
    """Raised inside `valid_toml` for anything outside the subset it vouches for."""


class _Toml:
    """One pass over a TOML text (with `\\n` line endings); see `valid_toml`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        # What each key path is: "value", "explicit" ([table]), "implicit" (a prefix of a header),
        # "aot" ([[array of tables]]) or ("dotted", section) (made by a dotted key in that section).
        # The elements of an array of tables are path components of their own (ints).
        self.kinds: dict[tuple[object, ...], object] = {}
        self.count: dict[tuple[object, ...], int] = {}
        self.table: tuple[object, ...] = ()
        self.section = 0

    def blanks(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        self.pos = pos

    def comment(self) -> None:
        """Skip a comment up to (not past) the end of its line."""
        if self.text.startswith("#", self.pos):
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end

    def end_of_line(self) -> None:
        self.blanks()
        self.comment()
        if self.pos < len(self.text):
            if self.text[self.pos] != "\n":
                raise _Invalid
            self.pos += 1

    def document(self) -> None:
        text = self.text
        while True:
            self.blanks()
            if self.pos >= len(text):
                return
            char = text[self.pos]
            if char == "[":
                self.header()
            elif char != "\n" and char != "#":
                self.key_value(self.table)
            self.end_of_line()

    def simple_key(self) -> str:
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] in "\"'":
            end = text.find(text[pos], pos + 1)
            if end < 0 or "\n" in text[pos:end] or "\\" in text[pos:end]:
                raise _Invalid
            self.pos = end + 1
            return text[pos + 1 : end]
        start = pos
        while pos < len(text) and text[pos] in _BARE:
            pos += 1
        if pos == start:
            raise _Invalid
        self.pos = pos
        return text[start:pos]

    def key(self) -> list[str]:
        parts = [self.simple_key()]
        while True:
            self.blanks()
            if not self.text.startswith(".", self.pos):
                return parts
            self.pos += 1
            self.blanks()
            parts.append(self.simple_key())

    def header(self) -> None:
        double = self.text.startswith("[[", self.pos)
        self.pos += 2 if double else 1
        self.blanks()
        parts = self.key()
        close = "]]" if double else "]"
        if not self.text.startswith(close, self.pos):
            raise _Invalid
        self.pos += len(close)
        self.section += 1
        path: tuple[object, ...] = ()
        for part in parts[:-1]:
            path += (part,)
            kind = self.kinds.get(path)
            if kind is None:
                self.kinds[path] = "implicit"
            elif kind == "aot":
                path += (self.count[path],)
            elif kind not in ("implicit", "explicit"):
                raise _Invalid
        path += (parts[-1],)
        kind = self.kinds.get(path)
        if double:
            if kind is None:
                self.kinds[path] = "aot"
                self.count[path] = 0
            elif kind == "aot":
                self.count[path] += 1
            else:
                raise _Invalid
            self.table = (*path, self.count[path])
        else:
            if kind not in (None, "implicit"):
                raise _Invalid
            self.kinds[path] = "explicit"
            self.table = path

    def key_value(self, table: tuple[object, ...] | None) -> str:
        """A `key = value`; its path is checked against `table` (None: inside an inline table)."""
        parts = self.key()
        self.blanks()
        if not self.text.startswith("=", self.pos):
            raise _Invalid
        self.pos += 1
        self.blanks()
        self.value()
        if table is None:
            if len(parts) > 1:
                raise _Invalid
            return parts[0]
        path = table
        for part in parts[:-1]:
            path += (part,)
            kind = self.kinds.get(path)
            if kind is None:
                self.kinds[path] = ("dotted", self.section)
            elif kind != ("dotted", self.section):
                raise _Invalid
        path += (parts[-1],)
        if path in self.kinds:
            raise _Invalid
        self.kinds[path] = "value"
        return parts[-1]

    def value(self) -> None:
        text = self.text
        if self.pos >= len(text):
            raise _Invalid
        char = text[self.pos]
        if char == '"':
            self.basic_string()
        elif char == "'":
            end = text.find("'", self.pos + 1)
            if text.startswith("'''", self.pos) or end < 0 or "\n" in text[self.pos : end]:
                raise _Invalid
            self.pos = end + 1
        elif char == "[":
            self.array()
        elif char == "{":
            self.inline_table()
        elif text.startswith("true", self.pos):
            self.pos += 4
        elif text.startswith("false", self.pos):
            self.pos += 5
        else:
            self.number()
        if self.pos < len(text) and text[self.pos] not in _AFTER_VALUE:
            raise _Invalid

    def basic_string(self) -> None:
        text = self.text
        if text.startswith('"""', self.pos):
            raise _Invalid
        pos = self.pos + 1
        while True:
            end = text.find('"', pos)
            if end < 0:
                raise _Invalid
            escape = text.find("\\", pos, end)
            if escape < 0:
                break
            kind = text[escape + 1 : escape + 2]
            if kind in _SIMPLE_ESCAPES:
                pos = escape + 2
            elif kind in ("u", "U"):
                size = 4 if kind == "u" else 8
                digits = text[escape + 2 : escape + 2 + size]
                if len(digits) != size or not set(digits) <= _HEX:
                    raise _Invalid
                code = int(digits, 16)
                if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                    raise _Invalid
                pos = escape + 2 + size
            else:
                raise _Invalid
        if "\n" in text[self.pos : end]:
            raise _Invalid
        self.pos = end + 1

    def digits(self) -> str:
        """A run of digits with single underscores between them (`1_000`), else `_Invalid`."""
        text, pos = self.text, self.pos
        while pos < len(text) and (text[pos] in _DIGITS or text[pos] == "_"):
            pos += 1
        digits = text[self.pos : pos]
        if not digits or digits[0] == "_" or digits[-1] == "_" or "__" in digits:
            raise _Invalid
        self.pos = pos
        return digits

    def number(self) -> None:
        """A decimal integer or float (`0`, `-12`, `1_000`, `0.5`, `1e-3`, `inf`); dates, times and
        other bases are not vouched for."""
        text = self.text
        if text.startswith(("+", "-"), self.pos):
            self.pos += 1
        if text.startswith(("inf", "nan"), self.pos):
            self.pos += 3
            return
        whole = self.digits()
        if whole[0] == "0" and len(whole) > 1:
            raise _Invalid  # a leading zero (`01`)
        if text.startswith(".", self.pos):
            self.pos += 1
            self.digits()
        if text.startswith(("e", "E"), self.pos):
            self.pos += 1
            if text.startswith(("+", "-"), self.pos):
                self.pos += 1
            self.digits()

    def skip_array_space(self) -> None:
        text = self.text
        while True:
            self.blanks()
            if self.pos < len(text) and text[self.pos] == "\n":
                self.pos += 1
                # `read_settings` reads line by line: a line starting with `[` must be a header
                self.blanks()
                if text.startswith("[", self.pos):
                    raise _Invalid
            elif text.startswith("#", self.pos):
                self.comment()
            else:
                return

    def array(self) -> None:
        self.pos += 1
        while True:
            self.skip_array_space()
            if self.text.startswith("]", self.pos):
                self.pos += 1
                return
            self.value()
            self.skip_array_space()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif self.text.startswith("]", self.pos):
                self.pos += 1
                return
            else:
                raise _Invalid

    def inline_table(self) -> None:
        self.pos += 1
        self.blanks()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            return
        keys: set[str] = set()
        while True:
            self.blanks()
            key = self.key_value(None)
            if key in keys:
                raise _Invalid
            keys.add(key)
            self.blanks()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif self.text.startswith("}", self.pos):
                self.pos += 1
                return
            else:
                raise _Invalid


def valid_toml(text: str) -> bool:
    """True only when `text` is TOML that `tomllib` accepts, within a subset common in pyproject.toml.

    The subset: tables and arrays of tables, bare or quoted keys (dotted ones too), one-line strings,
    decimal integers and floats, booleans, arrays (over several lines too) and inline tables of those.
    Anything else (multi-line strings, dates, hex numbers, a byte-order mark …) gives False, as does
    any duplicate key or table. False is always safe: the fast path then steps aside for `tomllib` to decide.
    """
    if text.startswith("\ufeff") or any(c in text for c in _CONTROL):
        return False
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return False  # a carriage return on its own
        text = text.replace("\r\n", "\n")
    try:
        _Toml(text).document()
    except _Invalid:
        return False
    return True
