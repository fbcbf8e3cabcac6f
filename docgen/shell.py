"""BuildKit's word splitting and variable substitution, for the instructions BuildKit expands itself.

BuildKit expands ARG/ENV values, FROM, COPY, ADD, WORKDIR … with its own small shell lexer (Go package
`frontend/dockerfile/shell`), not with `/bin/sh`. This module mirrors it: quotes are removed, `'…'`
and escaped characters stay literal, `$NAME`, `${NAME}` and the modifier forms are substituted. A value
that depends on something the Dockerfile cannot know (a predefined platform arg, ENV from an external
base image) is kept symbolically (`${TARGETARCH}`) and reported as unknown, never as an empty string.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Unknown:
    """A variable whose value cannot be known from the Dockerfile alone."""

    reason: str
    """Why, in a few words (`set by the build`, `may come from the base image ubuntu:22.04`)."""


Value = str | Unknown
"""What a name is bound to in a scope; a name missing from the scope is unset."""

Lookup = Callable[[str], "Value | None"]


class ExpansionError(Exception):
    """The text is not valid for BuildKit's lexer (unterminated quote, bad `${…}`)."""


@dataclass(frozen=True)
class Expanded:
    """The result of expanding one word."""

    text: str
    """The expanded text; unknown parts appear symbolically as `${NAME}`."""
    unknown: tuple[str, ...] = ()
    """Reasons why parts of `text` are unknown; empty when the text is exactly known."""

    @property
    def known(self) -> bool:
        """True when no part depends on an unknown value."""
        return not self.unknown


_SPECIAL_PARAMS = frozenset("@*#?-$!0")


def split_words(text: str, escape: str = "\\") -> list[str]:
    """Split ARG/ENV arguments into words the way BuildKit's `parseWords` does (quotes are kept)."""
    words: list[str] = []
    word: list[str] = []
    quote = ""
    in_word = False
    blank_ok = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if not in_word:
            if ch.isspace():
                i += 1
                continue
            in_word = True
        if not quote:
            if ch.isspace():
                if blank_ok or word:
                    words.append("".join(word))
                word, blank_ok, in_word = [], False, False
                i += 1
                continue
            if ch in "'\"":
                quote, blank_ok = ch, True
            elif ch == escape:
                if i + 1 == n:  # an escape at the very end is dropped
                    break
                word.append(ch)
                i += 1
                ch = text[i]
            word.append(ch)
            i += 1
            continue
        # inside quotes: the escape character escapes the next one, except in single quotes
        if ch == quote:
            quote = ""
        elif ch == escape and quote != "'":
            if i + 1 == n:
                break
            word.append(ch)
            i += 1
            ch = text[i]
        word.append(ch)
        i += 1
    if in_word and (blank_ok or word):
        words.append("".join(word))
    return words


class _Lexer:
    """One pass over a word; the state of BuildKit's `shellWord`."""

    def __init__(self, text: str, lookup: Lookup, escape: str) -> None:
        self.text = text
        self.pos = 0
        self.lookup = lookup
        self.escape = escape
        self.unknown: list[str] = []

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def next(self) -> str:
        ch = self.peek()
        self.pos += 1 if ch else 0
        return ch

    def word(self, stop: str = "") -> str:
        out: list[str] = []
        while True:
            ch = self.peek()
            if not ch or (stop and ch == stop):
                return "".join(out)
            if ch == self.escape:
                self.next()
                out.append(self.next())
            elif ch == "'":
                out.append(self.single_quoted())
            elif ch == '"':
                out.append(self.double_quoted())
            elif ch == "$":
                out.append(self.dollar())
            else:
                out.append(self.next())

    def single_quoted(self) -> str:
        self.next()
        end = self.text.find("'", self.pos)
        if end < 0:
            raise ExpansionError("unterminated single quote")
        value = self.text[self.pos : end]
        self.pos = end + 1
        return value

    def double_quoted(self) -> str:
        self.next()
        out: list[str] = []
        while True:
            ch = self.peek()
            if not ch:
                raise ExpansionError("unterminated double quote")
            if ch == '"':
                self.next()
                return "".join(out)
            if ch == "$":
                out.append(self.dollar())
                continue
            self.next()
            if ch == self.escape:
                following = self.peek()
                if not following:
                    continue
                if following in ('"', "$", self.escape):
                    ch = self.next()
            out.append(ch)

    def name(self) -> str:
        start = self.pos
        text = self.text
        if start < len(text) and text[start].isdigit():
            while self.pos < len(text) and text[self.pos].isdigit():
                self.pos += 1
            return text[start : self.pos]
        if start < len(text) and text[start] in _SPECIAL_PARAMS:
            self.pos += 1
            return text[start]
        while self.pos < len(text) and (text[self.pos].isalnum() or text[self.pos] == "_"):
            self.pos += 1
        return text[start : self.pos]

    def value_of(self, name: str) -> Value | None:
        return self.lookup(name)

    def dollar(self) -> str:
        self.next()  # $
        if self.peek() != "{":
            name = self.name()
            if not name:
                return "$"
            value = self.value_of(name)
            if isinstance(value, Unknown):
                self.unknown.append(f"{name}: {value.reason}")
                return "${" + name + "}"
            return value or ""
        self.next()  # {
        ch = self.peek()
        if not ch:
            raise ExpansionError("missing '}' in ${…}")
        if ch in "{}:":
            raise ExpansionError("bad substitution")
        name = self.name()
        if not name:
            raise ExpansionError("bad substitution")
        value = self.value_of(name)
        op = self.next()
        if op == "}":
            if isinstance(value, Unknown):
                self.unknown.append(f"{name}: {value.reason}")
                return "${" + name + "}"
            return value or ""
        if op == ":" and self.peek() in ("-", "+", "?"):
            op += self.next()
        elif op in ("#", "%", "/") and self.peek() == op:
            op += self.next()
        if not op:
            raise ExpansionError("missing '}' in ${…}")
        if op not in (":-", ":+", ":?", "-", "+", "?", "#", "##", "%", "%%", "/", "//"):
            raise ExpansionError(f"unsupported modifier ({op}) in substitution")
        if op in ("/", "//"):
            pattern = self.word(stop="/")
            replacement = ""
            if self.peek() == "/":
                self.next()
                replacement = self.word(stop="}")
        else:
            pattern = self.word(stop="}")
            replacement = ""
        if self.next() != "}":
            raise ExpansionError("missing '}' in ${…}")
        symbolic = "${" + name + op + pattern + ("/" + replacement if op in ("/", "//") else "") + "}"
        if isinstance(value, Unknown):
            self.unknown.append(f"{name}: {value.reason}")
            return symbolic
        if op in (":?", "?") and (value is None or (op == ":?" and not value)):
            # BuildKit stops the build here unless the user passes the arg: a required input
            reason = f"required, must be passed with --build-arg ({pattern or 'no message'})"
            self.unknown.append(f"{name}: {reason}")
            return symbolic
        return _modify(name, value, op, pattern, replacement)


def _modify(name: str, value: str | None, op: str, word: str, replacement: str) -> str:
    """Apply a `${NAME<op>word}` modifier to a known value (None means unset)."""
    if op == ":-":
        return value if value else word
    if op == "-":
        return value if value is not None else word
    if op == ":+":
        return word if value else ""
    if op == "+":
        return word if value is not None else ""
    if op in (":?", "?"):
        return value or ""
    text = value or ""
    if op in ("#", "##"):
        ends = range(len(text) + 1) if op == "#" else range(len(text), -1, -1)
        for end in ends:
            if fnmatch.fnmatchcase(text[:end], word):
                return text[end:]
        return text
    if op in ("%", "%%"):
        starts = range(len(text), -1, -1) if op == "%" else range(len(text) + 1)
        for start in starts:
            if fnmatch.fnmatchcase(text[start:], word):
                return text[:start]
        return text
    # "/" and "//": replace the first (or every) longest match of a glob pattern
    if not word:
        return text
    out: list[str] = []
    pos = 0
    glob = _Glob(word)
    while pos <= len(text):
        found = glob.search(text, pos)
        if found is None:
            break
        start, end = found
        out.append(text[pos:start] + replacement)
        pos = end
        if op == "/":
            break
        if end == start:  # an empty match: step over one character (as Go's ReplaceAllString does)
            out.append(text[pos : pos + 1])
            pos += 1
    out.append(text[pos:])
    return "".join(out)


class _Glob:
    """A shell glob (`*`, `?`, everything else literal) searched leftmost-longest in linear time.

    BuildKit turns the pattern into a Go (RE2) regular expression, which never backtracks; a Python
    regular expression `.*a.*a.*b` would, exponentially. The pattern is split at `*` into pieces of
    fixed length: the first piece anchors the match, the middle ones are placed leftmost (which leaves
    the most room), and the last one is placed rightmost (which makes the match longest). If the pieces
    do not fit after one start, they fit after no later start either, so the search stops there.
    """

    def __init__(self, pattern: str) -> None:
        pieces = pattern.split("*")
        self.star = len(pieces) > 1
        self.pieces = [re.compile(_piece_regex(p), re.DOTALL) for p in pieces]
        self.last = re.compile("(?s:.*)(" + _piece_regex(pieces[-1]) + ")")

    def search(self, text: str, pos: int) -> tuple[int, int] | None:
        first = self.pieces[0].search(text, pos)
        if first is None:
            return None
        if not self.star:
            return first.start(), first.end()
        cursor = first.end()
        for piece in self.pieces[1:-1]:
            middle = piece.search(text, cursor)
            if middle is None:
                return None
            cursor = middle.end()
        last = self.last.match(text, cursor)
        return (first.start(), last.end()) if last else None


def _piece_regex(piece: str) -> str:
    return "".join("." if c == "?" else re.escape(c) for c in piece)


def expand(text: str, lookup: Lookup | Mapping[str, Value], escape: str = "\\") -> Expanded:
    """Expand one word the way BuildKit's `ProcessWord` does.

    `lookup` gives a name's value: a string, `Unknown`, or None when unset. Raises `ExpansionError`
    for text BuildKit itself would reject.
    """
    if isinstance(lookup, Mapping):
        mapping = lookup
        lookup = mapping.get
    lexer = _Lexer(text, lookup, escape)
    result = lexer.word()
    return Expanded(result, tuple(dict.fromkeys(lexer.unknown)))


_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def referenced_names(text: str) -> set[str]:
    """Names a shell or BuildKit would substitute in `text` (`$NAME`, `${NAME…}`)."""
    return set(_REFERENCE.findall(text))


def fallbacks(text: str, name: str) -> list[str]:
    """The words of `${NAME:-word}` / `${NAME-word}` in shell text, as written (rule 17)."""
    found: list[str] = []
    for opener in ("${" + name + ":-", "${" + name + "-"):
        start = text.find(opener)
        while start >= 0:
            begin = start + len(opener)
            end = _matching_brace(text, begin)
            if end > begin:
                found.append(text[begin:end])
            start = text.find(opener, begin)
    return found


def _matching_brace(text: str, pos: int) -> int:
    """Index of the `}` closing a `${` whose word starts at `pos`; -1 when there is none."""
    depth = 0
    i = pos
    while i < len(text):
        ch = text[i]
        if ch in "({":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return -1
