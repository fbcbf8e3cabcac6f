"""BuildKit's word splitting and variable substitution, for the instructions BuildKit expands itself.

BuildKit expands ARG/ENV values, FROM, COPY, ADD, WORKDIR … with its own small shell lexer (Go package
`frontend/dockerfile/shell`), not with `/bin/sh`. This module mirrors it: quotes are removed, `'…'`
and escaped characters stay literal, `$NAME`, `${NAME}` and the modifier forms are substituted. A value
that depends on something the Dockerfile cannot know (a predefined platform arg, ENV from an external
base image) is kept symbolically (`${TARGETARCH}`) and reported as unknown, never as an empty string.

It also holds the one reader of a `/bin/sh` command's words and comment (`sh_words`, `sh_code`), for the
commands docgen reads outside a Dockerfile: a README's blocks, a build script, a workflow's `run:` step;
and `sh_tokens`, a command's words and operators (`&&`, `|`, `;` …) as the shell's token recognition
reads them, for a command's structure (a RUN's lists, a README line's steps).
"""

from __future__ import annotations

import fnmatch
import functools
import re
import shlex
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
_SPLIT_WORDS: dict[str, re.Pattern[str]] = {}


def _split_pattern(escape: str) -> re.Pattern[str]:
    """Whole words of `parseWords` for `escape`: quoted parts complete, escapes paired (compiled once).

    No quantifier is nested in another that could match the same text, so a failing match (an
    unterminated quote) backtracks linearly, not exponentially.
    """
    pattern = _SPLIT_WORDS.get(escape)
    if pattern is None:
        e = re.escape(escape)
        pattern = re.compile(f"(?:[^\\s'\"{e}]+|{e}.|'[^']*'|\"(?:[^\"{e}]|{e}.)*\")+", re.DOTALL)
        _SPLIT_WORDS[escape] = pattern
    return pattern


def split_words(text: str, escape: str = "\\") -> list[str]:
    """Split ARG/ENV arguments into words the way BuildKit's `parseWords` does (quotes are kept)."""
    if escape not in text and "'" not in text and '"' not in text:
        return text.split()  # like the loop below, str.split() splits on str.isspace()
    words: list[str] = []
    end = 0
    for match in _split_pattern(escape).finditer(text):
        if match.start() != end and not text[end : match.start()].isspace():
            return _split_words_slowly(text, escape)  # an unterminated quote or a final escape
        words.append(match.group())
        end = match.end()
    if end != len(text) and not text[end:].isspace():
        return _split_words_slowly(text, escape)
    return words


def _split_words_slowly(text: str, escape: str) -> list[str]:
    """`split_words` one character at a time, for text with an unterminated quote or a final escape."""
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
        if not quote and ch.isspace():
            if blank_ok or word:
                words.append("".join(word))
            word, blank_ok, in_word = [], False, False
            i += 1
            continue
        if not quote and ch in "'\"":
            quote, blank_ok = ch, True
        elif quote and ch == quote:
            quote = ""
        elif ch == escape and quote != "'":  # it escapes the next character, except in single quotes
            if i + 1 == n:  # an escape at the very end is dropped
                break
            word.append(ch)
            i += 1
            ch = text[i]
        word.append(ch)
        i += 1
    if in_word and (blank_ok or word):
        words.append("".join(word))
    return words


# Runs of characters the lexer copies as they are, per (escape, stop) and inside double quotes.
_RUNS: dict[tuple[str, str], re.Pattern[str]] = {}
_NAME_RUN = re.compile(r"\w*")


def _run_pattern(escape: str, stop: str) -> re.Pattern[str]:
    pattern = _RUNS.get((escape, stop))
    if pattern is None:
        pattern = re.compile("[^" + re.escape("'\"$" + escape + stop) + "]+")
        _RUNS[(escape, stop)] = pattern
    return pattern


MAX_VALUE = 1024 * 1024
"""The longest value docgen builds by substitution (1 MiB): `ARG A1=${A0}${A0}`, `ARG A2=${A1}${A1}` …
doubles at each line, and 30 such lines would need gigabytes."""


class _Lexer:
    """One pass over a word; the state of BuildKit's `shellWord`.

    Runs of ordinary characters are copied with one regular-expression match each; quotes, escapes
    and `$` are looked at one by one.
    """

    def __init__(self, text: str, lookup: Lookup, escape: str) -> None:
        self.text = text
        self.pos = 0
        self.lookup = lookup
        self.escape = escape
        self.unknown: list[str] = []
        self.substituted = 0  # characters substituted so far, bounded by MAX_VALUE

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def next(self) -> str:
        ch = self.peek()
        self.pos += 1 if ch else 0
        return ch

    def special(self, run: Callable[[str, int], re.Match[str] | None], out: list[str]) -> str:
        """Copy the run of ordinary characters at `pos` (what `run` matches) to `out`; the character
        after it, '' at the end of the text."""
        plain = run(self.text, self.pos)
        if plain is not None:
            out.append(plain.group())
            self.pos = plain.end()
        return self.peek()

    def word(self, stop: str = "") -> str:
        out: list[str] = []
        escape = self.escape
        run = _run_pattern(escape, stop).match
        while True:
            ch = self.special(run, out)
            if not ch:
                return "".join(out)
            pos = self.pos
            if stop and ch == stop:
                return "".join(out)
            if ch == escape:
                self.pos = pos + 1
                out.append(self.next())
            elif ch == "'":
                out.append(self.single_quoted())
            elif ch == '"':
                out.append(self.double_quoted())
            else:  # $
                value = self.dollar()
                self.substituted += len(value)
                if self.substituted > MAX_VALUE:
                    raise ExpansionError(
                        f"the value grows past {MAX_VALUE // (1024 * 1024)} MiB as variables are substituted"
                    )
                out.append(value)

    def single_quoted(self) -> str:
        self.next()
        end = self.text.find("'", self.pos)
        if end < 0:
            raise ExpansionError("unterminated single quote")
        value = self.text[self.pos : end]
        self.pos = end + 1
        return value

    def double_quoted(self) -> str:
        self.pos += 1
        out: list[str] = []
        escape = self.escape
        run = _run_pattern(escape, "").match
        while True:
            ch = self.special(run, out)
            if not ch:
                raise ExpansionError("unterminated double quote")
            pos = self.pos
            if ch == '"':
                self.pos = pos + 1
                return "".join(out)
            if ch == "$":
                out.append(self.dollar())
                continue
            self.pos = pos + 1
            if ch == escape:
                following = self.peek()
                if not following:
                    continue
                if following in ('"', "$", escape):
                    ch = self.next()
            out.append(ch)  # an escape before anything else, or a `'`, stays as written

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
        # `\w` is exactly str.isalnum() or `_`
        match = _NAME_RUN.match(text, start)
        assert match is not None
        self.pos = match.end()
        return match.group()

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
        end = _affix_length(text, word, suffix=False, longest=op == "##")
        return text if end is None else text[end:]
    if op in ("%", "%%"):
        length = _affix_length(text, word, suffix=True, longest=op == "%%")
        return text if length is None else text[: len(text) - length]
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


def _glob_atoms(pattern: str) -> list[None | bool | str | re.Pattern[str]]:
    """`pattern` split into the elements `fnmatch` sees (same bracket rules as `fnmatch.translate`):
    None for `*`, True for `?`, a character, or a compiled one-character class (`[a-z]`, `[!/]`)."""
    atoms: list[None | bool | str | re.Pattern[str]] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            if not atoms or atoms[-1] is not None:
                atoms.append(None)
        elif c == "?":
            atoms.append(True)
        elif c == "[":
            j = i
            if j < n and pattern[j] == "!":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                atoms.append("[")
            else:
                atoms.append(re.compile(fnmatch.translate(pattern[i - 1 : j + 1])))
                i = j + 1
        else:
            atoms.append(c)
    return atoms


def _affix_length(text: str, pattern: str, *, suffix: bool, longest: bool) -> int | None:
    """The length of the shortest (or longest) prefix (or suffix) of `text` that `pattern` matches
    as `fnmatch.fnmatchcase` would; None when none does.

    The glob runs as a set of positions in the pattern (a Thompson NFA), one step per character of
    `text`: linear in the length of `text`, where trying `fnmatch` at each length is quadratic.
    """
    if not any(c in pattern for c in "*?["):  # a literal
        found = text.endswith(pattern) if suffix else text.startswith(pattern)
        return len(pattern) if found else None
    atoms = _glob_atoms(pattern)
    m = len(atoms)
    if None not in atoms:  # every element matches one character: only one length can match
        if m > len(text):
            return None
        return m if fnmatch.fnmatchcase(text[len(text) - m :] if suffix else text[:m], pattern) else None
    if suffix:  # a suffix of the text is a prefix of the reversed text, for the reversed pattern
        atoms.reverse()
        text = text[::-1]
    # closure[i]: the positions reached from i by letting `*` match nothing
    closure: list[frozenset[int]] = [frozenset()] * (m + 1)
    closure[m] = frozenset({m})
    for i in range(m - 1, -1, -1):
        closure[i] = closure[i + 1] | {i} if atoms[i] is None else frozenset({i})
    states = closure[0]
    found_length = 0 if m in states else None
    if found_length is not None and not longest:
        return 0
    for length, ch in enumerate(text, 1):
        following: set[int] = set()
        for i in states:
            if i == m:
                continue
            atom = atoms[i]
            if atom is None:
                following |= closure[i]
            elif atom is True or atom == ch or (isinstance(atom, re.Pattern) and atom.match(ch)):
                following |= closure[i + 1]
        if not following:
            break
        states = frozenset(following)
        if m in states:
            if not longest:
                return length
            found_length = length
    return found_length


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
    if "$" not in text and escape not in text and "'" not in text and '"' not in text:
        return Expanded(text)  # nothing to substitute, no quotes to remove
    lexer = _Lexer(text, lookup, escape)
    result = lexer.word()
    return Expanded(result, tuple(dict.fromkeys(lexer.unknown)))


NAME = r"[A-Za-z_][A-Za-z0-9_]*"
"""A shell variable's name, as a part of a regex."""
DECLARE = r"(?:export|local|readonly|declare(?:\s+-\w+)*)\s+"
"""A word that may stand before a shell assignment (`export X=1`, `declare -r X=1`), as a part of a regex."""
_REFERENCE = re.compile(r"\$\{?(" + NAME + ")")


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


_WORD_BREAK = frozenset(" \t\r\n;&|()<>")
"""The characters after which, outside quotes, a new word starts: blanks and the shell's operators."""


@functools.lru_cache(maxsize=1 << 15)
def sh_code(line: str) -> str:
    """A `/bin/sh` line without its comment: the text before a `#` that starts a word outside quotes
    (`. # nightly`), not one inside a word or a quoted value (`--build-arg URL=https://x/#a`,
    `-e NOTE="rev #4"`, `${#NAME}`), as the shell reads it. One pass over the line; a quote left open
    runs to its end. Kept for the last lines asked: about a dozen rules read each README command
    (benchmarks/bench_shapes.py, `fenced-runs`), so the cache holds more lines than a long README has
    (with 4,096, a README of 7,000 command lines was read a dozen times: `continued-lines`)."""
    quote = ""
    starts = True  # the next character starts a word
    index = 0
    while index < len(line):
        char = line[index]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            index += 1  # an escaped character, `#`, blank or quote included, is a letter of its word
        elif quote:
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and starts:
            return line[:index]
        starts = not quote and char in _WORD_BREAK
        index += 1
    return line


def sh_words(command: str) -> list[str]:
    """The words of a `/bin/sh` command up to its comment (`sh_code`), quotes removed as the shell
    removes them (`shlex.split`). Raises ValueError on a quote left open before the comment.

    shlex grows a word a character at a time, so a word of n characters costs n²: a word longer than
    `MAX_SPLIT_WORD` raises ValueError (`shell_split`)."""
    return shell_split(sh_code(command))


MAX_SPLIT_WORD = 4096
"""The longest word `shell_split` splits out: longer than any option, value or path (`PATH_MAX`)."""
_LONG_QUOTED = re.compile(rf"'[^']{{{MAX_SPLIT_WORD},}}'|\"[^\"]{{{MAX_SPLIT_WORD},}}\"")


def shell_split(text: str, comments: bool = False) -> list[str]:
    """`shlex.split(text)`; ValueError, as for a quote left open, when a word (a run of non-blanks or a
    quoted value) is longer than `MAX_SPLIT_WORD`: shlex grows a word a character at a time, copying
    it, so a word of a megabyte (`docker run -iiii…`) took minutes."""
    if len(text) > MAX_SPLIT_WORD and (
        max(map(len, text.split()), default=0) > MAX_SPLIT_WORD or _LONG_QUOTED.search(text)
    ):
        raise ValueError("a word too long to split")
    return list(_split(text, comments))


@functools.lru_cache(maxsize=4096)
def _split(text: str, comments: bool) -> tuple[str, ...]:
    """`shlex.split(text)`, kept for the last texts asked: about a dozen rules split each README
    command, and shlex reads a character at a time (benchmarks/bench_shapes.py, `fenced-runs`: ten
    thousand `docker run` lines split 100,000 times took 5.2 s of 21 s)."""
    return tuple(shlex.split(text, comments=comments))


@dataclass(frozen=True)
class ShToken:
    """One token of a `/bin/sh` command (`sh_tokens`)."""

    text: str
    """The word as written (quotes and escapes kept), or the operator."""
    operator: bool
    """True for a control or redirection operator (`&&`, `||`, `|`, `;`, `&`, `(`, `>` …)."""


_SH_OPERATORS: tuple[str, ...] = ("&&", "||", ";;", "|&", ">>", "<<", ">&", "<&", "<>", ">|")
_SH_OPERATORS += ("&", "|", ";", "<", ">", "(", ")")
"""The shell's operators, longest first where one starts another."""


def _past(text: str, index: int) -> int:
    """The index just past the quoted part or substitution that starts at `index` (`"…"`, `` `…` ``,
    `$(…)`), reading what nests in it (quotes, `$(…)`, parentheses, escapes) as the shell does, with a
    stack, not recursion: one pass. ValueError when it is left open."""
    closers = {'"': '"', "`": "`"}
    if text.startswith("$(", index):
        stack, index = [")"], index + 2
    else:
        stack, index = [closers[text[index]]], index + 1
    while stack:
        if index >= len(text):
            raise ValueError("a quote or substitution left open")
        char, top = text[index], stack[-1]
        if char == "\\":
            index += 2
            continue
        if char == top:
            stack.pop()
        elif top == "`":
            pass  # (a backquoted command is read to its end, nothing nested)
        elif char == "`" or (char == '"' and top == ")"):
            stack.append(char)
        elif text.startswith("$(", index):
            stack.append(")")
            index += 1
        elif top == ")" and char == "(":
            stack.append(")")
        elif top == ")" and char == "'":
            end = text.find("'", index + 1)
            if end < 0:
                raise ValueError("a single quote left open")
            index = end
        index += 1
    return index


def sh_tokens(command: str) -> list[ShToken]:
    """The words and operators of a `/bin/sh` command, as the shell's token recognition reads them: an
    operator in quotes, after a backslash (`find … \\;`) or inside `$(…)`, `${…}` or backquotes is part
    of its word; a `#` that starts a word starts the comment, which ends the command. Words keep their
    quotes (`"$HOME"`). One pass over the text; ValueError on a quote or substitution left open."""
    tokens: list[ShToken] = []
    start = -1  # where the word being read starts (-1: none)
    index = 0
    while index < len(command):
        char = command[index]
        if char in " \t\r\n":
            if start >= 0:
                tokens.append(ShToken(command[start:index], False))
                start = -1
            index += 1
            continue
        if char in "&|;<>()":
            if start >= 0:
                tokens.append(ShToken(command[start:index], False))
                start = -1
            operator = next(op for op in _SH_OPERATORS if command.startswith(op, index))
            tokens.append(ShToken(operator, True))
            index += len(operator)
            continue
        if char == "#" and start < 0:
            break
        if start < 0:
            start = index
        if char == "\\":
            index += 2
        elif char == "'":
            end = command.find("'", index + 1)
            if end < 0:
                raise ValueError("a single quote left open")
            index = end + 1
        elif char in '"`' or command.startswith("$(", index):
            index = _past(command, index)
        elif char == "$" and command.startswith("${", index):
            end = command.find("}", index)
            if end < 0:
                raise ValueError("a parameter expansion left open")
            index = end + 1
        else:
            index += 1
    if start >= 0:
        tokens.append(ShToken(command[start : min(index, len(command))], False))
    return tokens


# --------------------------------------------------------------------------------------------------
# Bash syntax that dash, Debian's and Ubuntu's /bin/sh, rejects


@dataclass(frozen=True)
class DashRejected:
    """A piece of bash-only syntax in a `/bin/sh` command, as dash (0.5.11, 0.5.12) reads it
    (`dash_rejected`)."""

    construct: str
    """As a message names it: `source`, `[[`, `==`, `function`, `<<<`, `|&`, `x=(…)`, `${x//a/b}`,
    `{a,b}`."""
    written: str
    """The word or operator as written (to find its line)."""
    kind: str
    """`syntax` (dash refuses the whole command: `Syntax error`), `expansion` (dash stops at it: `Bad
    substitution`), `command` (that command fails: `source: not found`, status 127; `[: unexpected
    operator`, status 2) or `literal` (dash takes it as it is: `mkdir x/{a,b}` makes one folder named
    `{a,b}`)."""
    fails: bool
    """True when the command's exit status is that failure whatever the machine: a syntax error, a bad
    substitution outside any `if`, loop, `||` or subshell, a failing command of the last list when that
    list joins its commands with `&&` only (the status of `sh -c` is its last list's)."""


POSIX_SHELLS = frozenset({"sh", "bash", "dash", "ash", "zsh", "ksh"})
"""The programs (by file name) that read a command as a POSIX shell does: a SHELL instruction naming one
keeps RUN's shell form a `sh -c` script, which PowerShell or `cmd` would not."""
_STARTS_COMMAND = frozenset({"then", "do", "else", "elif", "if", "while", "until", "!", "{", "time"})
"""Words after which the next word is a command's name."""
_CONTROL = frozenset({"&&", "||", ";", "|", "&", "(", ")", "|&", ";;"})
_LIST_END = frozenset({";", "&", ";;"})
COMPOUND_WORDS = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "while", "until", "for", "do", "done", "{", "}", "!"}
)
"""The reserved words of a POSIX shell's compound commands and negated pipelines: a list holding one of
them is no plain sequence of simple commands."""
_BASH_EXPANSION = re.compile(r"\$\{(?:![A-Za-z_]|[A-Za-z_]\w*(?://?|:(?![-=?+])|\^|,))")
"""`${x//a/b}`, `${x/a/b}`, `${x:0:2}`, `${x^^}`, `${x,,}`, `${!x}`: dash stops with `Bad substitution`."""
_BRACES = re.compile(r"(?<!\$)\{[^{}\s,]*,[^{}\s]*\}")
"""A brace expansion (`{a,b}`, `{lib,include}`), not a `${…}`."""
_BRACE_COMMANDS = {"cp": "command", "mv": "command", "mkdir": "literal", "touch": "literal"}
"""Commands a brace expansion is looked for in, and what dash's literal word makes of it: `cp x/{a,b} y`
fails (no file `x/{a,b}`), `mkdir x/{a,b}` makes one folder of that name."""
_ARRAY = re.compile(rf"{NAME}\+?=")


def _unquoted_parts(word: str) -> tuple[str, str]:
    """(`word` without its single-quoted parts and escaped characters, what dash expands; `word` without
    any quoted part, what it splits and globs)."""
    expanded: list[str] = []
    bare: list[str] = []
    quote = ""
    index = 0
    while index < len(word):
        char = word[index]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            index += 1
        elif char == '"':
            quote = "" if quote == '"' else '"'
        elif char == "'" and not quote:
            quote = "'"
        else:
            expanded.append(char)
            if not quote:
                bare.append(char)
        index += 1
    return "".join(expanded), "".join(bare)


def dash_rejected(command: str) -> list[DashRejected]:
    """The bash-only syntax of a `/bin/sh` command (a RUN's shell form, a heredoc script: lines end
    commands) that dash rejects or reads otherwise, in order: `source`, `[[`, `==` in `[ ]` or `test`,
    `function f`, `<<<`, `|&`, an array assignment, a bash parameter expansion (`${x//a/b}`) outside
    single quotes, and a brace expansion in a `cp`, `mv`, `mkdir` or `touch`. What a quoted string holds
    (`bash -c 'source x'`) is no command of this shell; `set -o pipefail` is left out (dash 0.5.13 has it).
    [] when the command cannot be read (a quote left open)."""
    try:
        tokens = sh_tokens(re.sub(r"\\\r?\n", "", command).replace("\n", " ; "))
    except ValueError:
        return []
    last = len(tokens)
    while last and tokens[last - 1].operator and tokens[last - 1].text in _LIST_END:
        last -= 1
    last_start = max(
        (i + 1 for i in range(last) if tokens[i].operator and tokens[i].text in _LIST_END), default=0
    )
    tail = tokens[last_start:last]
    plain_tail = not any(
        (t.operator and t.text in _CONTROL and t.text != "&&")
        or (not t.operator and t.text in COMPOUND_WORDS)
        for t in tail
    )
    plain_all = not any(
        (t.operator and t.text in ("||", "(", ")")) or (not t.operator and t.text in COMPOUND_WORDS)
        for t in tokens
    )
    found: list[DashRejected] = []
    start = True  # the next word is a command's name
    target = False  # the next word is a redirection's target
    name = ""  # the name of the command being read
    for index, token in enumerate(tokens):
        text = token.text
        if token.operator:
            if text == "|&":
                found.append(DashRejected("|&", text, "syntax", True))
            elif text == "<<" and index + 1 < len(tokens) and tokens[index + 1].text == "<":
                found.append(DashRejected("<<<", "<<<", "syntax", True))
            elif (
                text == "("
                and index
                and not (before := tokens[index - 1]).operator
                and _ARRAY.fullmatch(before.text)
            ):
                found.append(DashRejected(f"{before.text}(…)", before.text + "(", "syntax", True))
            if text in _CONTROL:
                start, target, name = True, False, ""
            else:
                target = True
            continue
        if target:
            target = False
            continue
        fails = index >= last_start and index < last and plain_tail
        expanded, bare = _unquoted_parts(text)
        if (expansion := _BASH_EXPANSION.search(expanded)) is not None:
            end = expanded.find("}", expansion.start())
            shown = expanded[expansion.start() : end + 1 if end > 0 else len(expanded)]
            found.append(DashRejected(shown, text, "expansion", plain_all))
        if start:
            if text in _STARTS_COMMAND or _ARRAY.match(text) and not text.endswith("="):
                continue
            start, name = False, text
            if text == "source":
                found.append(DashRejected("source", text, "command", fails))
            elif text == "[[":
                found.append(DashRejected("[[", text, "command", fails))
            elif text == "function" and index + 1 < len(tokens) and not tokens[index + 1].operator:
                found.append(DashRejected("function", text, "syntax", True))
            continue
        if text == "==" and name in ("[", "test"):
            found.append(DashRejected(f"== in {'[ ]' if name == '[' else 'test'}", text, "command", fails))
        elif name in _BRACE_COMMANDS and not text.startswith("-") and (brace := _BRACES.search(bare)):
            kind = _BRACE_COMMANDS[name]
            found.append(DashRejected(brace.group(), text, kind, kind == "command" and fails))
    return found
