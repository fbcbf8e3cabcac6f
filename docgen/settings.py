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
                text = ""
            if "[tool.docgen" in text:
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


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


def read_settings(text: str) -> Settings | None:
    """The docgen tables of a pyproject.toml `text`, or None when this reader cannot be sure of them."""
    if '"""' in text or "'''" in text:
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
