"""Read a Dockerfile the way BuildKit's parser does: syntax only, no ARG semantics.

This is the bottom of the pipeline. It turns text into `Instruction`s: parser directives at the top,
continuation lines joined, comment blocks collected, heredoc bodies attached, flags split off, exec
(JSON) form recognised. Every rule mirrors `moby/buildkit/frontend/dockerfile/parser` (checked against
the BuildKit parser itself in `tests/test_oracle.py`); where docgen deliberately differs, the code says
so. Everything runs in linear time: lines are scanned once and joined with `str.join`.
"""

from __future__ import annotations

import json
import os
import re
import stat

from docgen.errors import MAX_FILE_BYTES, TOO_LARGE, DockerfileError
from docgen.model import Diagnostic, Flag, Heredoc, Instruction, ParsedDockerfile

__all__ = [
    "decode_dockerfile",
    "heredoc_hint",
    "parse_dockerfile",
    "read_dockerfile",
    "read_dockerfile_bytes",
]


# Go's unicode.IsSpace, which BuildKit uses for TrimSpace / TrimLeftFunc (Python's str.isspace also
# counts \x1c-\x1f, Go does not).
_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
# Go's regexp `\s` (used in the parser-directive regexp): ASCII only, no \v.
_RE_SPACE = "\t\n\f\r "
# BuildKit's reWhitespace `[\t\v\f\r ]+` splits the keyword from the rest.
_KEYWORD_SPLIT = re.compile(r"[\t\v\f\r ]+")
_VALID_DIRECTIVES = frozenset({"syntax", "escape", "check"})
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_ALNUM = _ASCII_LETTERS | frozenset("0123456789")
# parseMaybeJSON / parseMaybeJSONToList: these instructions may be written as a JSON array.
_EXEC_KEYWORDS = frozenset({"RUN", "CMD", "ENTRYPOINT", "SHELL", "COPY", "ADD", "VOLUME"})
# heredocDirectives; ONBUILD is a heredocCompoundDirective (its sub-command decides).
_HEREDOC_KEYWORDS = frozenset({"RUN", "COPY", "ADD"})

# Pieces for the shell-word lexer below: runs of ordinary characters, and the specials in "…".
_PLAIN = re.compile("[^'\"$<\\\\" + _SPACE + "]+")
_SPACES = re.compile("[" + _SPACE + "]+")
_DQ_SPECIAL = re.compile(r'["$\\]')
_FLAG_PLAIN = re.compile("[^'\"\\\\" + _SPACE + "]+")
_FLAG_QUOTED = {"'": re.compile(r"[^'\\]+"), '"': re.compile(r'[^"\\]+')}
_SPECIAL_PARAMS = frozenset("*#@!?-$0")
_MODIFIERS = frozenset("}?:+-#%/")


def read_dockerfile(path: str | os.PathLike[str], display: str | None = None) -> ParsedDockerfile:
    """Read and parse the Dockerfile at `path` (see `read_dockerfile_bytes` and `decode_dockerfile`).

    `display` is the path shown in messages (default: `str(path)`).
    """
    shown = str(path) if display is None else display
    return parse_dockerfile(decode_dockerfile(read_dockerfile_bytes(path, shown), shown), shown)


def read_dockerfile_bytes(path: str | os.PathLike[str], shown: str) -> bytes:
    """The bytes of the Dockerfile at `path` (shown as `shown` in errors).

    Raises `DockerfileError` when it cannot be read, is not a regular file (a FIFO would block the
    read) or is larger than `errors.MAX_FILE_BYTES` (refused without reading any of it).
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise DockerfileError("not a file", shown)
        with open(path, "rb") as fh:
            # a regular file's size is known up front: refuse a huge one without reading any of it
            size = os.fstat(fh.fileno()).st_size
            # read what fstat says is there (asking for MAX_FILE_BYTES at once allocates 10 MiB for every
            # file: 22 µs each); a file longer than it said (one growing, or a /proc file of size 0)
            # is read on to MAX_FILE_BYTES + 1, so the limit still holds
            data = fh.read(size + 1) if size <= MAX_FILE_BYTES else b""
            if len(data) > size:
                data += fh.read(MAX_FILE_BYTES + 1 - len(data))
    except OSError as exc:
        raise DockerfileError(f"cannot read the Dockerfile: {exc.strerror or exc}", shown) from None
    if size > MAX_FILE_BYTES or len(data) > MAX_FILE_BYTES:
        raise DockerfileError(TOO_LARGE, shown)
    return data


def decode_dockerfile(data: bytes, shown: str) -> str:
    """Dockerfile bytes as text; `DockerfileError` (with the line) for a NUL byte or invalid UTF-8."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise DockerfileError("binary file (contains a NUL byte)", shown, _line_of(data, nul))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DockerfileError("not UTF-8 text", shown, _line_of(data, exc.start)) from None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def parse_dockerfile(text: str, path: str = "Dockerfile") -> ParsedDockerfile:
    """Parse Dockerfile `text` into instructions, as BuildKit's parser would.

    `path` is only used in diagnostics and errors. Raises `DockerfileError` for what BuildKit rejects
    at parse time (unclosed heredoc, repeated or invalid parser directive, a JSON array that is not
    all strings).
    """
    return _Reader(text, path).run()


class _Reader:
    """One pass over the physical lines; `pos` is the 0-based index of the next unread line."""

    def __init__(self, text: str, path: str) -> None:
        # BuildKit discards a byte-order mark on the first line only.
        if text.startswith("\ufeff"):
            text = text[1:]
        # bufio.ScanLines: split on "\n"; a final newline does not start an empty line.
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        self.lines = lines
        self.path = path
        self.pos = 0
        self.escape = "\\"
        self.directives: list[tuple[str, str]] = []
        self.warnings: list[Diagnostic] = []

    def run(self) -> ParsedDockerfile:
        self._read_directives()
        instructions: list[Instruction] = []
        comments: list[str] = []
        comment_lines: list[int] = []
        comment_end = 0  # line of the last comment line
        tail = 0  # comment lines since the last blank line
        lines = self.lines
        while self.pos < len(lines):
            start = self.pos + 1
            token = lines[self.pos].rstrip("\r\n").lstrip(_SPACE)
            self.pos += 1
            if token.startswith("#"):
                # A full-line comment. An empty one ends the description block; a blank line does not.
                text = token[1:]
                if text.startswith(" "):
                    text = text[1:]
                text = text.rstrip(_SPACE)
                if text:
                    comments.append(text)
                    comment_lines.append(start)
                    comment_end = start
                    tail += 1
                else:
                    comments, comment_lines, tail = [], [], 0
                continue
            first, continues = _trim_continuation(token, self.escape)
            if not continues and not first:
                tail = 0
                continue  # blank line
            # the comment lines right above the instruction (none when a blank line parts them)
            above = tail if comments and comment_end == start - 1 else 0
            instruction = self._read_instruction(
                first, continues, start, (tuple(comments), tuple(comment_lines)), above
            )
            if instruction is not None:
                instructions.append(instruction)
            comments, comment_lines, tail = [], [], 0
        return ParsedDockerfile(
            path=self.path,
            directives=tuple(self.directives),
            escape=self.escape,
            instructions=tuple(instructions),
            warnings=tuple(self.warnings),
        )

    def _read_directives(self) -> None:
        # BuildKit's DirectiveParser: directives count while every line so far was one; the first line
        # that is not a known directive (a blank line, another comment, an instruction) ends them.
        seen: set[str] = set()
        while self.pos < len(self.lines):
            parsed = _parse_directive(self.lines[self.pos].rstrip("\r\n").lstrip(_SPACE))
            if parsed is None:
                return
            key, value = parsed
            if key in seen:
                # BuildKit: "only one syntax parser directive can be used" (a parse error).
                raise DockerfileError(f"only one {key} parser directive can be used", self.path, self.pos + 1)
            seen.add(key)
            if key == "escape":
                if value not in ("\\", "`"):
                    raise DockerfileError(
                        f"invalid escape token {value!r} does not match ` or \\", self.path, self.pos + 1
                    )
                self.escape = value
            self.directives.append((key, value))
            self.pos += 1

    def _read_instruction(
        self,
        first: str,
        continues: bool,
        start: int,
        block: tuple[tuple[str, ...], tuple[int, ...]],
        comment_tail: int,
    ) -> Instruction | None:
        """The instruction starting at line `start` (`first`: its first line), with the comment
        `block` above it (its lines' texts and line numbers)."""
        comment, comment_lines = block
        lines = self.lines
        parts = [first]
        empty_line = 0
        while continues and self.pos < len(lines):
            raw = lines[self.pos].rstrip("\r\n")
            self.pos += 1
            stripped = raw.lstrip(_SPACE)
            # Inside a continuation BuildKit drops comment lines and skips empty ones (with a warning);
            # continuation lines keep their leading whitespace.
            if stripped.startswith("#"):
                continue
            if not stripped:
                empty_line = empty_line or self.pos
                continue
            piece, continues = _trim_continuation(raw, self.escape)
            parts.append(piece)
        last = self.pos
        if empty_line:
            self.warnings.append(
                Diagnostic(
                    self.path,
                    empty_line,
                    "empty line inside a continued instruction (BuildKit skips it with a warning)",
                )
            )
        if len(parts) == 1 and last == start:  # one physical line, the common case
            line = first
            original = lines[start - 1].rstrip("\r\n")
        else:
            line = "".join(parts)
            original = "\n".join(raw.rstrip("\r\n") for raw in lines[start - 1 : last])
        body = line.strip(_SPACE)
        if not body:
            # BuildKit keeps a node with an empty keyword here (e.g. a lone `\` before a comment);
            # docgen drops it and says so.
            self.warnings.append(Diagnostic(self.path, start, "line continuation without an instruction"))
            return None

        split = _KEYWORD_SPLIT.split(body, maxsplit=1)
        keyword = split[0].upper()
        flags, args = _extract_flags(split[1]) if len(split) == 2 else ((), "")

        exec_form = None
        if keyword in _EXEC_KEYWORDS:
            exec_form = self._exec_form(args, start)

        heredocs: tuple[Heredoc, ...] = ()
        if "<<" in line and _can_contain_heredoc(keyword, args, exec_form is not None):
            heredocs = self._read_heredocs(line, start)
            if heredocs:
                last = heredocs[-1].end_line

        if keyword in ("ARG", "ENV") and _has_inline_hash(args):
            self.warnings.append(
                Diagnostic(
                    self.path, start, f"'#' is not a comment here: it is part of the {keyword} arguments"
                )
            )
        return Instruction(
            keyword=keyword,
            args=args,
            flags=flags,
            start_line=start,
            end_line=last,
            exec_form=exec_form,
            heredocs=heredocs,
            comment=comment,
            original=original,
            comment_tail=comment_tail,
            comment_lines=comment_lines,
        )

    def _exec_form(self, args: str, line: int) -> tuple[str, ...] | None:
        # parseJSON: only text starting with `[` that decodes as a JSON array; a decoding failure means
        # shell form, but an array holding anything other than strings is a BuildKit parse error.
        if not args.startswith("["):
            return None
        try:
            value = json.loads(args, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return None
        if not isinstance(value, list):
            return None
        if not all(isinstance(item, str) for item in value):
            raise DockerfileError(
                "when using JSON array syntax, arrays must be comprised of strings only", self.path, line
            )
        # Go's encoding/json turns lone surrogate escapes into U+FFFD; Python keeps them.
        return tuple(_fix_surrogates(item) for item in value)

    def _read_heredocs(self, line: str, start: int) -> tuple[Heredoc, ...]:
        found: list[Heredoc] = []
        lines = self.lines
        for name, expand, chomp in _heredoc_words(line):
            body: list[str] = []
            body_start = self.pos + 1
            while True:
                if self.pos >= len(lines):
                    raise DockerfileError(f"heredoc {name} is never closed", self.path, start)
                raw = lines[self.pos]
                self.pos += 1
                # Deliberate difference: BuildKit keeps a CR before the newline in heredoc bodies;
                # docgen strips it like everywhere else.
                text = raw.rstrip("\r\n")
                candidate = text.lstrip("\t") if chomp else text
                if candidate == name:
                    break
                body.append((candidate if chomp else text) + "\n")
            found.append(
                Heredoc(
                    name=name,
                    body="".join(body),
                    expand=expand,
                    strip_tabs=chomp,
                    start_line=body_start,
                    end_line=self.pos,
                )
            )
        return tuple(found)


def _parse_directive(token: str) -> tuple[str, str] | None:
    """Match BuildKit's `^#\\s*([a-zA-Z][a-zA-Z0-9]*)\\s*=\\s*(.+?)\\s*$` on a known key, without regex."""
    if not token.startswith("#"):
        return None
    rest = token[1:].lstrip(_RE_SPACE)
    end = 0
    if not rest or rest[0] not in _ASCII_LETTERS:
        return None
    while end < len(rest) and rest[end] in _ASCII_ALNUM:
        end += 1
    key = rest[:end].lower()
    rest = rest[end:].lstrip(_RE_SPACE)
    if key not in _VALID_DIRECTIVES or not rest.startswith("="):
        return None
    value = rest[1:].strip(_RE_SPACE)
    if not value:
        return None
    return key, value


def _trim_continuation(line: str, escape: str) -> tuple[str, bool]:
    """Remove a trailing escape char; return the text and whether the next line continues it.

    BuildKit's lineContinuationRegex is `([^\\\\])\\\\[ \\t]*$` (with the escape char): the escape char
    followed only by spaces/tabs, and not itself preceded by the escape char, so `echo a\\\\` (an
    escaped backslash) does not continue, while a line holding just `\\` does.
    """
    stripped = line.rstrip(" \t")
    if stripped.endswith(escape) and (len(stripped) == 1 or stripped[-2] != escape):
        return stripped[:-1], True
    return line, False


def _extract_flags(text: str) -> tuple[tuple[Flag, ...], str]:
    """BuildKit's extractBuilderFlags: leading `--name[=value]` words, quotes and `\\` processed.

    The flag value is what BuildKit sees (quotes removed) but unexpanded. A bare `--` ends the flags.
    """
    if not text.startswith("--"):
        stripped = text.lstrip(_SPACE)
        if not stripped.startswith("--"):  # no flags, the common case
            return (), stripped.rstrip(_SPACE)
    words: list[str] = []
    n = len(text)
    pos = 0
    while True:
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos >= n:
            return _make_flags(words), ""
        if not text.startswith("--", pos):
            return _make_flags(words), text[pos:].strip(_SPACE)
        word: list[str] = []
        quote = ""
        while pos < n:
            # Copy runs of ordinary characters at once; look at quotes, backslashes and spaces singly.
            run = (_FLAG_QUOTED[quote] if quote else _FLAG_PLAIN).match(text, pos)
            if run is not None:
                word.append(run.group())
                pos = run.end()
                continue
            ch = text[pos]
            if quote:
                if ch == quote:
                    quote = ""
                    pos += 1
                    continue
            elif ch in _SPACE:
                break
            elif ch in "'\"":
                quote = ch
                pos += 1
                continue
            if ch == "\\":
                pos += 1
                if pos >= n:
                    break
                ch = text[pos]
            word.append(ch)
            pos += 1
        joined = "".join(word)
        if joined == "--":
            return _make_flags(words), text[pos:].strip(_SPACE)
        words.append(joined)


def _make_flags(words: list[str]) -> tuple[Flag, ...]:
    flags: list[Flag] = []
    for word in words:
        name, sep, value = word[2:].partition("=")
        flags.append(Flag(name=name.lower(), value=value if sep else None))
    return tuple(flags)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")  # Go's encoding/json rejects NaN and Infinity


def _fix_surrogates(text: str) -> str:
    if not any("\ud800" <= ch <= "\udfff" for ch in text):
        return text
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def _has_inline_hash(args: str) -> bool:
    return " #" in args or "\t#" in args


def _can_contain_heredoc(keyword: str, args: str, is_exec: bool) -> bool:
    """BuildKit's canContainHeredoc: RUN/COPY/ADD in shell form, also as an ONBUILD sub-command."""
    if keyword == "ONBUILD":
        split = _KEYWORD_SPLIT.split(args, maxsplit=1)
        keyword = split[0].upper()
        if len(split) < 2:
            return keyword in _HEREDOC_KEYWORDS
        _, args = _extract_flags(split[1])
        is_exec = False
        if keyword in _EXEC_KEYWORDS and args.startswith("["):
            try:
                is_exec = isinstance(json.loads(args, parse_constant=_reject_constant), list)
            except (ValueError, RecursionError):
                is_exec = False
    return keyword in _HEREDOC_KEYWORDS and not is_exec


def _heredoc_words(line: str) -> list[tuple[str, bool, bool]]:
    """The heredocs opened on `line`, as (name, expand, chomp), like BuildKit's heredocsFromLine.

    The whole line is split into shell words (quotes, escapes and variables kept as written);
    a word matching `^(\\d*)<<(-?)\\s*([^<]*)$` opens a heredoc whose delimiter is the rest, which must
    be one shell word. Blanks after `<<` stay in its word (`<< EOF` opens EOF, as `<<EOF` does), but
    not after `<<-`: `<<- EOF` is the word `<<-` and opens nothing (BuildKit's lexer and regexp agree).
    `echo "a << b"` is one quoted word, so it opens nothing; an unclosed quote or a bad `${…}` makes
    BuildKit find no heredoc on the line at all.
    """
    words = _shell_words(line, raw=True)
    if words is None:
        return []
    found: list[tuple[str, bool, bool]] = []
    for word in words:
        i = 0
        while i < len(word) and word[i] in "0123456789":
            i += 1
        if not word.startswith("<<", i):
            continue
        i += 2
        chomp = word.startswith("-", i)
        # reHeredoc `^(\d*)<<(-?)\s*([^<]*)$`: the blanks the lexer kept after `<<` are dropped.
        rest = (word[i + 1 :] if chomp else word[i:]).lstrip(_RE_SPACE)
        if not rest or "<" in rest:
            continue
        cooked = _shell_words(rest, raw=False)
        raw = _shell_words(rest, raw=True)
        if cooked is None or raw is None or len(cooked) != 1 or len(raw) != 1:
            continue
        # Quoting any part of the delimiter turns expansion off: compare the quote counts.
        expand = _count_quotes(cooked[0]) == _count_quotes(raw[0])
        found.append((cooked[0], expand, chomp))
    return found


def heredoc_hint(parsed: ParsedDockerfile, line: int) -> str:
    """Why line `line` may have been read as an instruction: the nearest instruction above it that
    writes `<<- NAME`, a space after `<<-`. BuildKit's lexer keeps blanks after `<<` in its word but
    not after `<<-`, so that opens no heredoc and the body's lines become instructions. '' if none."""
    for ins in reversed(parsed.instructions):
        if ins.start_line >= line:
            continue
        if ins.heredocs or ins.keyword not in _HEREDOC_KEYWORDS:
            return ""
        words = ins.args.split()
        for word, name in zip(words, words[1:], strict=False):
            if word.lstrip("0123456789") == "<<-":
                return (
                    f"line {ins.start_line} writes `<<- {name}`, a space after `<<-`, which BuildKit "
                    f"takes for no heredoc, so the lines below it are read as instructions; write `<<-{name}`"
                )
        return ""
    return ""


def _count_quotes(word: str) -> int:
    return word.count("'") + word.count('"')


def _shell_words(text: str, *, raw: bool) -> list[str] | None:
    """A simplified BuildKit `shell.Lex.ProcessWords` with escape `\\` and an empty environment.

    `raw` keeps quotes and backslashes (RawQuotes + RawEscapes). Variables are unset, and kept as
    written (SkipUnsetEnv): `<<$E` opens a heredoc named `$E`, as in BuildKit. Returns None where
    BuildKit's lexer reports an error.
    """
    words: list[str] = []
    word: list[str] = []
    n = len(text)
    pos = 0
    while pos < n:
        ch = text[pos]
        if ch == "'":
            end = text.find("'", pos + 1)
            if end < 0:
                return None
            word.append(text[pos : end + 1] if raw else text[pos + 1 : end])
            pos = end + 1
        elif ch == '"':
            quoted = _double_quoted(text, pos, raw)
            if quoted is None:
                return None
            value, pos = quoted
            word.append(value)
        elif ch == "$":
            dollar = _dollar(text, pos)
            if dollar is None:
                return None
            value, pos = dollar
            # An expansion is split into words on whitespace.
            pieces = _SPACES.split(value)
            for i, piece in enumerate(pieces):
                if i:
                    _end_word(words, word)
                word.append(piece)
        elif ch == "\\":
            if raw:
                word.append(ch)
            pos += 1
            if pos >= n:
                break
            word.append(text[pos])
            pos += 1
        elif ch in _SPACE:
            _end_word(words, word)
            match = _SPACES.match(text, pos)
            pos = match.end() if match else pos + 1
        elif text.startswith("<<", pos):
            # processPossibleHeredoc (BuildKit since dockerfile 1.16, moby/buildkit#5817): `<<` keeps
            # the spaces, tabs and CRs after it in its word, so `<< EOF` is one word, `<<EOF`'s twin.
            end = pos + 2
            while end < n and text[end] in " \t\r":
                end += 1
            word.append(text[pos:end])
            pos = end
        else:
            match = _PLAIN.match(text, pos)
            end = match.end() if match else pos + 1
            word.append(text[pos:end])
            pos = end
    _end_word(words, word)
    return words


def _end_word(words: list[str], word: list[str]) -> None:
    joined = "".join(word)
    if joined:
        words.append(joined)
    word.clear()


def _double_quoted(text: str, pos: int, raw: bool) -> tuple[str, int] | None:
    out: list[str] = ['"'] if raw else []
    n = len(text)
    pos += 1
    while True:
        match = _DQ_SPECIAL.search(text, pos)
        if match is None:
            return None
        out.append(text[pos : match.start()])
        pos = match.start()
        ch = text[pos]
        if ch == '"':
            if raw:
                out.append(ch)
            return "".join(out), pos + 1
        if ch == "$":
            dollar = _dollar(text, pos)
            if dollar is None:
                return None
            value, pos = dollar
            out.append(value)
            continue
        # A backslash escapes only `"`, `$` and itself inside double quotes.
        if pos + 1 < n and text[pos + 1] in '"$\\':
            out.append(text[pos : pos + 2] if raw else text[pos + 1])
            pos += 2
        else:
            out.append(ch)
            pos += 1


def _dollar(text: str, pos: int) -> tuple[str, int] | None:
    """Read a `$…` at `pos`, kept as written; None on BuildKit's "bad substitution"."""
    n = len(text)
    start = pos
    pos += 1
    if pos < n and text[pos] == "{":
        pos += 1
        if pos >= n or text[pos] in "{}:":
            return None
        name_end = _name_end(text, pos)
        if name_end >= n or text[name_end] not in _MODIFIERS:
            return None
        # Skip to the matching brace (nested `${` counted); the modifier words are not examined.
        depth = 1
        pos = name_end
        while pos < n:
            ch = text[pos]
            if ch == "\\":
                pos += 2
                continue
            if ch == "$" and text.startswith("{", pos + 1):
                depth += 1
                pos += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return text[start : pos + 1], pos + 1
            pos += 1
        return None
    name_end = _name_end(text, pos)
    if name_end == pos:
        return "$", pos
    return text[start:name_end], name_end


def _name_end(text: str, pos: int) -> int:
    """BuildKit's processName: digits, one special parameter, or a run of letters, digits and `_`."""
    n = len(text)
    if pos >= n:
        return pos
    if text[pos] in "0123456789":
        while pos < n and text[pos] in "0123456789":
            pos += 1
        return pos
    if text[pos] in _SPECIAL_PARAMS:
        return pos + 1
    while pos < n and (text[pos].isalnum() or text[pos] == "_"):
        pos += 1
    return pos
