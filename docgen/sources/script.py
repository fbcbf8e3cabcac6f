"""A small POSIX-shell reader for RUN text: commands, words, redirections and variables.

BuildKit hands RUN text to `/bin/sh` unexpanded; the shell then sees ARG and ENV values as environment
variables. To find what a RUN installs, this module reads the text the way the shell would, well enough
for documentation: commands are split at `&&`, `||`, `;`, `|`, `&`, newlines and parentheses; quotes are
removed; `$NAME` and `${NAME…}` are substituted from shell variables set earlier in the same RUN
(`V=1.2 && curl …/v${V}/…`), then from the ARG/ENV in scope. Command substitutions (`$(nproc)`) are
kept as written and make the word unknown. Every word remembers the ARG/ENV names its value came from,
so a component can say which build arg sets it.

One pass, no backtracking: plain runs of characters are consumed with a single regex match each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from docgen.shell import MAX_VALUE, ExpansionError, Unknown, Value, expand, referenced_names
from docgen.sources import conditions

MAX_DEPTH = 3
"""How deep `bash -c '…'` and heredoc scripts inside scripts are followed."""

_PLAIN = re.compile(r"[^\s\\'\"$`#;&|()<>]+")
_DQ_RUN = re.compile(r'[^"$`\\\n]+')  # inside "…": what is copied as written
# A whole word of ordinary characters (`#` is ordinary after the first), when followed by one of
# _SIMPLE_END: it needs no quote removal, substitution or redirection handling.
_SIMPLE_WORD = re.compile(r"[^\s\\'\"$`#;&|()<>][^\s\\'\"$`;&|()<>]*")
_SIMPLE_END = frozenset(" \t\n\r\f\v;&|()")
_NO_NAMES: frozenset[str] = frozenset()
_BLANKS = re.compile(r"[ \t\r\f\v]+")
_NAME_TEXT = r"[A-Za-z_][A-Za-z0-9_]*"  # a shell variable name
_NAME = re.compile(_NAME_TEXT)
_BRACED_NAME = re.compile(rf"\$\{{({_NAME_TEXT})\}}")
_PLAIN_REFERENCE = re.compile(rf"\$(?:\{{({_NAME_TEXT})\}}|({_NAME_TEXT}))")  # `${NAME}` or `$NAME`
_ARRAY_ELEMENTS = re.compile(rf"\$\{{({_NAME_TEXT})\[([@*])\]\}}")
_ASSIGNMENT = re.compile(rf"({_NAME_TEXT})\+?=")
# What makes a script need the general reader: escapes, backticks, redirections and heredocs, `$`
# other than `$NAME` / `${NAME}`, a comment, characters Python counts as blanks that the shell does
# not (\x1c-\x1f), an array; and quotes that do not close on their line (`_QUOTES_CLOSED`).
_NOT_PLAIN = rf"[\\`<>\x1c-\x1f]|\$(?![A-Za-z_]|\{{{_NAME_TEXT}\}})|=\("
_NOT_PLAIN_SCRIPT = re.compile(rf"{_NOT_PLAIN}|(?:^|[\s;&|()])#")
_NOT_PLAIN_WITHOUT_HASH = re.compile(_NOT_PLAIN)
# every quote closed on its own line (each repetition starts at a quote: no backtracking)
_QUOTES_CLOSED = re.compile(r"""[^"']*(?:(?:"[^"\n]*"|'[^'\n]*')[^"']*)*\Z""")
# A token of a plain script with the blanks before it: (word) or (operator). Taking the blanks in the
# match spares the search a failed attempt at each blank.
_PLAIN_TOKEN = re.compile(r"[ \t\r\f\v]*(?:([^ \t\r\f\v;&|()\n]+)|(&&|\|\||;;|\|&|[;&|()\n]))")
_QUOTED_TOKEN = re.compile(
    r"""[ \t\r\f\v]*(?:((?:[^ \t\r\f\v;&|()\n"']+|"[^"]*"|'[^']*')+)|(&&|\|\||;;|\|&|[;&|()\n]))"""
)
_QUOTED_PIECE = re.compile(r"""([^"']+)|"([^"]*)"|'([^']*)'""")
_BLANK_IN = re.compile(r"[ \t\n]")


@dataclass(frozen=True, slots=True)
class Word:
    """One shell word after quote removal and substitution."""

    text: str
    """The text; unknown parts appear as written (`${TARGETARCH}`, `$(uname -m)`)."""
    names: frozenset[str] = frozenset()
    """ARG/ENV names whose values went into the word (through shell variables too)."""
    known: bool = True
    """False when part of the text could not be known (command substitution, unknown variable)."""
    quoted: bool = False
    """True when any part of the word was quoted (then it is not an assignment or a keyword)."""
    line: int = 0
    """1-based Dockerfile line where the word starts (0 when not known)."""


_new = object.__new__
_SLOTS = tuple(Word.__dict__[name].__set__ for name in ("text", "names", "known", "quoted", "line"))
_SET_TEXT, _SET_NAMES, _SET_KNOWN, _SET_QUOTED, _SET_LINE = _SLOTS


def make_word(text: str, names: frozenset[str], known: bool, quoted: bool, line: int) -> Word:
    """`Word(text, names, known, quoted, line)`, made in a third of the time: the reader makes one
    per shell word, and a frozen dataclass's `__init__` sets each field through `object.__setattr__`.
    The result is an ordinary `Word` (equal, hashable, frozen). Words have slots, not a `__dict__`:
    a 10 MiB line of short words is millions of them, and a dict each tripled their memory."""
    word: Word = _new(Word)
    _SET_TEXT(word, text)
    _SET_NAMES(word, names)
    _SET_KNOWN(word, known)
    _SET_QUOTED(word, quoted)
    _SET_LINE(word, line)
    return word


@dataclass(slots=True)
class Command:
    """One simple command: its words, redirections and here-documents."""

    words: list[Word] = field(default_factory=list)
    redirects: list[tuple[str, Word]] = field(default_factory=list)
    """(operator, target) pairs: `('>', /etc/apt/sources.list.d/x.list)`."""
    heredocs: list[tuple[str, int]] = field(default_factory=list)
    """(body, 1-based line of its first line) of the here-documents this command reads."""
    line: int = 0
    """1-based Dockerfile line where the command starts."""
    sep: str = ""
    """The operator that ended the command (`&&`, `|`, `;`, newline as `\\n`, '' at the end)."""
    skipped: str | None = None
    """Set by `read_commands` when the default build does not run the command: the test that
    decides it (`[ "$USE_SCCACHE" = "1" ]`, USE_SCCACHE unset by default)."""
    condition: str | None = None
    """Set by `read_commands` when the command runs on one platform only (`linux/arm64 only`)."""
    glued: list[tuple[int, int]] = field(default_factory=list)
    """(word, redirect) index pairs of a `>` or `<` written right after a word, no blank between
    (`paddleocr>=2.9.1`: the word `paddleocr`, the redirect `('>', =2.9.1)`); the word index is -1
    when the word before the operator is the previous redirect's target (`torch>=2,<2.6`)."""


Lookup = Callable[[str], "Value | None"]


@dataclass
class _Compound:
    """An `if`, `case` or loop being read: the variables set inside it, with what they held before."""

    keyword: str
    before: dict[str, tuple[Value, frozenset[str]] | None] = field(default_factory=dict)
    branches: bool = False
    """True once an `else` or `elif` was seen: every path may set the variables."""
    taken: bool | None = None
    """Whether the default build runs the branch being read: False when its test is known false,
    True when known true, None when it cannot be known (see `conditions.evaluate`)."""
    earlier: bool | None = False
    """Whether an earlier branch of this `if` or `case` was taken (None: not known)."""
    test: str = ""
    """The test of the branch being read, as written after substitution (for messages)."""
    note: str | None = None
    """The platform the branch being read runs on (`linux/arm64 only`), when its test names one."""
    subject: Word | None = None
    """For a `case`: the word its patterns are matched against."""
    pattern_next: bool = False
    """For a `case`: the next command is a pattern (after `in` or `;;`)."""
    pattern_run: bool = False
    """For a `case`: the pattern just read was followed by `|` (more patterns of one branch follow)."""
    run_patterns: list[Word] = field(default_factory=list)
    """For a `case`: the patterns of the branch being read so far."""
    patterns: list[str] = field(default_factory=list)
    """For a `case`: the patterns of earlier branches (what `*)` is not)."""
    last: conditions.Test | None = None
    """The test of the last `if` / `elif` read (an `else` branch runs when it fails)."""
    chain: tuple[conditions.Test, str] | None = None
    """An `if` / `elif` test joined by `&&` / `||` to the next (`if [ a ] || [ b ]; then`): the test so
    far and the operator; the branch is decided when the last test of the list is read."""
    chain_holds: bool = True


@dataclass
class ShellState:
    """Variables of one running shell: what `NAME=value` set, over the ARG/ENV in scope."""

    scope: Lookup
    """The ARG/ENV in scope (`Scope.lookup`)."""
    variables: dict[str, tuple[Value, frozenset[str]]] = field(default_factory=dict)
    """Shell variables set so far: name → (value, ARG/ENV names it came from)."""
    compounds: list[_Compound] = field(default_factory=list)
    """The `if`, `case` and loops open around the current command, innermost last."""
    untracked: int = 0
    """Compounds open deeper than `_MAX_COMPOUNDS` (counted, not tracked)."""
    in_stage: frozenset[str] | None = None
    """The build args declared in the stage being read, when known (see `doubtful`)."""
    doubtful: set[str] = field(default_factory=set)
    """Names read as empty that the base image may set (see `lookup`): tests on them stay undecided."""
    declared: frozenset[str] = frozenset()
    """Names declared as ARG in the Dockerfile: when one has no value, the shell sees it unset, so
    `${GO_VERSION:-1.22.5}` documents its fallback (rule 17) instead of an unknown."""
    base_env: Mapping[str, str] = field(default_factory=dict)
    """ENV the base image sets, as its tag tells (`CUDA_VERSION` of `nvidia/cuda:12.9.1-…`): the value
    of a name the stage leaves to the base image."""

    def lookup(self, name: str) -> Value | None:
        if name in self.variables:
            return self.variables[name][0]
        value = self.scope(name)
        if isinstance(value, Unknown) and name in self.base_env and value.reason.startswith("may come from"):
            return self.base_env[name]  # the image sets it: `if [ "$CUDA_VERSION" = "13.0.1" ]` is decided
        if (
            isinstance(value, Unknown)
            and name in self.declared
            and value.reason.startswith("may come from")
            and name not in conditions.PLATFORM_ARGS  # BuildKit sets these for the platform built
        ):
            if self.in_stage is not None and name not in self.in_stage:
                # only a global ARG declares it: the RUN sees what the base image sets, if anything,
                # so it reads as empty for the fallbacks it documents, and a test on it is not decided
                self.doubtful.add(name)
            return None
        return value

    def sources(self, name: str) -> frozenset[str]:
        if name in self.variables:
            return self.variables[name][1]
        return frozenset({name}) if self.scope(name) is not None else frozenset()

    def assign(self, name: str, word: Word, append: bool = False) -> None:
        """Set shell variable `name` to `word`'s text. An append (`PKGS+=(…)`, `A+=x`) inside a branch
        is kept after it: the list then holds what the branch may add (a package installed on one
        platform is still one the image may contain); a plain assignment there becomes unknown."""
        value: Value = word.text if word.known else Unknown("set from an unknown value")
        if not word.known and "$(" in word.text and "${" not in word.text and "`" not in word.text:
            if any(c.isdigit() for c in _SUBSTITUTION.sub("", word.text)):
                # `V=2025.6.1_$(arch)`: the text, command substitution kept; `value_of` marks it unknown,
                # and readers still see the version written before it (`nsight-systems-${V}.deb`)
                value = word.text
        if len(word.text) > MAX_VALUE:  # `A=$A$A` repeated: the shell's value doubles each time
            value = Unknown("too long to follow")
        if self.compounds and not append and name not in self.compounds[-1].before:
            before = self.variables.get(name)
            if before is None and isinstance(outer := self.scope(name), str):
                before = (outer, frozenset({name}))  # an ARG/ENV value the branch overrides
            self.compounds[-1].before[name] = before
        self.variables[name] = (value, word.names)


_SUBSTITUTION = re.compile(r"\$\([^()]*\)")


class Reader:
    """Reads one script text into commands."""

    def __init__(
        self,
        text: str,
        state: ShellState,
        line: int,
        bodies: list[tuple[str, int]] | None,
        offsets: list[tuple[int, int]] | None,
    ) -> None:
        self.text = text
        self.offsets = offsets or []
        self.offset_k = 0  # the entry of `offsets` that `line_at` found last
        self.word_start = 0
        self.n = len(text)
        self.i = 0
        self.state = state
        self.line = line
        self.expanded_chars = 0  # characters substituted into this script's words, bounded by MAX_VALUE
        # Bodies of heredocs given separately (a RUN's own heredocs); None: bodies follow in the text.
        self.bodies = bodies
        self.body_index = 0
        self.pending: list[tuple[str, bool, Command]] = []  # inline heredocs waiting for their body
        # the word being built
        self.parts: list[str] = []
        self.names: set[str] = set()
        self.known = True
        self.quoted = False
        self.started = False
        self.in_quotes = False  # inside "…": substituted values are not split into words
        self.split = 0  # 1: an unquoted value with blanks went into the word; 2: an array's "${A[@]}"

    # -- words ---------------------------------------------------------------------------------
    def line_at(self, pos: int) -> int:
        """The Dockerfile line of text offset `pos` (from the offsets table, else lines counted)."""
        offsets = self.offsets
        if len(offsets) < 2:
            return offsets[0][1] if offsets else self.line
        # words are read in order, so the table is walked forward, not searched for each word
        k, last = self.offset_k, len(offsets) - 1
        if pos < offsets[k][0]:
            k = 0
        while k < last and offsets[k + 1][0] <= pos:
            k += 1
        self.offset_k = k
        return offsets[k][1]

    def end_word(self) -> Word | None:
        if not self.started:
            return None
        line = self.line_at(self.word_start)
        word = make_word("".join(self.parts), frozenset(self.names), self.known, self.quoted, line)
        self.parts, self.names, self.known, self.quoted, self.started = [], set(), True, False, False
        return word

    def split_word(self, word: Word, before: list[Word]) -> list[Word]:
        """`word` as the shell passes it on: split at blanks where a substituted value put them
        (`apt-get install $PKGS`, `"${PKGS[@]}"`), and gone when an unquoted shell variable left it
        empty. A word with quoted parts is split only for an array's elements, and an assignment
        (`TORCH_CUDA_ARCH_LIST=$ARCHS pip …`, `export A=$B`; `before` are the command's words so
        far) never is: the shell keeps its value whole."""
        split, self.split = self.split, 0
        if split == 1 and _ASSIGNMENT.match(word.text) and _assignment_position(before):
            return [word]
        if split == 2 or (split == 1 and not word.quoted):
            return [make_word(piece, word.names, word.known, False, word.line) for piece in word.text.split()]
        if not word.text and not word.quoted and not word.names:
            return []  # an unset shell variable; one from an ARG with no value is kept for the tables
        return [word]

    def dollar(self) -> None:
        """Substitute the `$…` at `self.i` into the current word."""
        text, i = self.text, self.i
        nxt = text[i + 1] if i + 1 < self.n else ""
        if nxt == "{":
            end = _closing(text, i + 2, "{", "}")
            expr = text[i:end]
            self.i = end
            self.substitute(expr)
        elif nxt == "(":
            end = _closing(text, i + 2, "(", ")")
            self.parts.append(text[i:end])
            self.known = False
            self.i = end
        elif nxt and (nxt.isalpha() or nxt == "_"):
            m = _NAME.match(text, i + 1)
            assert m is not None
            self.i = m.end()
            self.substitute(text[i : m.end()])
        elif nxt and (nxt.isdigit() or nxt in "@*#?-$!"):
            self.i = i + 2
            self.parts.append(text[i : i + 2])
            self.known = False
        else:
            self.i = i + 1
            self.parts.append("$")
        self.started = True

    def value_of(self, name: str) -> tuple[str, bool]:
        """What `$NAME` becomes in a word, and whether that is known: the value, else `${NAME}` (an
        unknown value, or past `MAX_VALUE` substituted in this script). A value with blanks outside
        quotes marks the word for splitting (`apt-get install $PKGS`)."""
        value = self.state.lookup(name)
        self.expanded_chars += len(value) if isinstance(value, str) else 0
        if isinstance(value, Unknown) or self.expanded_chars > MAX_VALUE:
            return "${" + name + "}", False
        text = value or ""
        substituted = "$(" in text or "`" in text  # what the command prints has no blank to split at
        if not self.in_quotes and not self.split and not substituted and _BLANK_IN.search(text):
            self.split = 1
        return text, not substituted

    def substitute(self, expr: str) -> None:
        simple = _BRACED_NAME.match(expr) if expr[1] == "{" else _NAME.match(expr, 1)
        element = None if simple is not None else _ARRAY_ELEMENTS.fullmatch(expr)
        if element is not None:
            simple = element  # `"${PKGS[@]}"`: every element, each its own word, even in quotes
            if element.group(2) == "@" or not self.in_quotes:
                self.split = 2
        if simple is not None and simple.end() == len(expr):
            # `$NAME` or `${NAME}`: what `expand` would give, without running its lexer
            name = simple.group(1) if expr[1] == "{" else simple.group()
            self.names |= self.state.sources(name)
            text, known = self.value_of(name)
            self.parts.append(text)
            self.known = self.known and known
            return
        for name in referenced_names(expr):
            self.names |= self.state.sources(name)
        try:
            result = expand(expr, self.state.lookup)
        except (ExpansionError, RecursionError):
            self.parts.append(expr)
            self.known = False
            return
        self.expanded_chars += len(result.text)
        if self.expanded_chars > MAX_VALUE:
            self.parts.append(expr)
            self.known = False
            return
        self.parts.append(result.text)
        if not result.known or "$(" in result.text or "`" in result.text:
            self.known = False

    def double_quoted(self) -> None:
        self.i += 1
        self.quoted = self.started = True
        self.in_quotes = True
        try:
            self._double_quoted_body()
        finally:
            self.in_quotes = False

    def _double_quoted_body(self) -> None:
        text = self.text
        run = _DQ_RUN.match
        while self.i < self.n:
            m = run(text, self.i)  # characters with no meaning inside "…", at once
            if m is not None:
                self.parts.append(m.group())
                self.i = m.end()
                if self.i >= self.n:
                    return
            ch = text[self.i]
            if ch == '"':
                self.i += 1
                return
            if ch == "$":
                self.dollar()
            elif ch == "`":
                self.backtick()
            elif ch == "\\" and self.i + 1 < self.n:
                following = text[self.i + 1]
                if following == "\n":
                    self.line += 1
                elif following in '"$`\\':
                    self.parts.append(following)
                else:
                    self.parts.append("\\" + following)
                self.i += 2
            else:
                if ch == "\n":
                    self.line += 1
                self.parts.append(ch)
                self.i += 1

    def array_assignment(self) -> None:
        """`NAME=(a b "c d")` or `NAME+=(…)` at `self.i` (on the `(`): the elements are read as words,
        kept as one value separated by blanks (`${NAME[@]}` splits it again), assigned at once."""
        target = "".join(self.parts)
        name, append = target.rstrip("+="), target.endswith("+=")
        end = _closing(self.text, self.i + 1, "(", ")")
        inner = self.text[self.i + 1 : end - 1 if end <= self.n and self.text[end - 1 : end] == ")" else end]
        reader = Reader(inner, self.state, self.line, None, None)
        words = [w for cmd in reader.general_commands() for w in cmd.words]
        elements = [w.text for w in words]
        if append and isinstance(previous := self.state.lookup(name), str) and previous:
            elements.insert(0, previous)
        names = frozenset(n for w in words for n in w.names)
        self.state.assign(name, Word(" ".join(elements), names, all(w.known for w in words)), append=append)
        self.line += inner.count("\n")
        self.parts, self.names, self.known, self.quoted, self.started = [], set(), True, False, False
        self.i = end

    def backtick(self) -> None:
        end = self.text.find("`", self.i + 1)
        end = self.n if end < 0 else end + 1
        self.parts.append(self.text[self.i : end])
        self.known = False
        self.started = True
        self.i = end

    # -- commands ------------------------------------------------------------------------------
    def commands(self) -> Iterator[Command]:
        return self.plain_commands() if is_plain(self.text) else self.general_commands()

    def general_commands(self) -> Iterator[Command]:
        """The commands of any script, one character class at a time."""
        text = self.text
        cmd = Command(line=self.line)
        redirect: str | None = None  # an operator waiting for its target word

        def add_word(word: Word) -> None:
            nonlocal redirect
            if redirect is not None:
                if redirect in ("<<", "<<-"):
                    self.heredoc(word.text, redirect == "<<-", cmd)
                elif redirect != "<<<":
                    cmd.redirects.append((redirect, word))
                redirect = None
            else:
                if not cmd.words:
                    cmd.line = word.line
                cmd.words.append(word)

        def finish_word() -> None:
            word = self.end_word()
            if word is not None:
                for piece in self.split_word(word, cmd.words):
                    add_word(piece)

        simple = _SIMPLE_WORD.match
        plain = _PLAIN.match
        blanks = _BLANKS.match
        n = self.n
        while self.i < n:
            ch = text[self.i]
            if ch in " \t\r\f\v":
                if self.started:
                    finish_word()
                m = blanks(text, self.i)
                assert m is not None
                self.i = m.end()
                continue
            if ch not in _SIMPLE_END:  # blanks and operators are never part of a word
                if not self.started:
                    self.word_start = self.i
                    # A word of ordinary characters ending at a blank or an operator (most words)
                    # is made at once; anything else goes character class by character class.
                    m = simple(text, self.i)
                    if m is not None:
                        end = m.end()
                        if end == n or (
                            text[end] in _SIMPLE_END
                            and not (text[end] == "(" and _ASSIGNMENT.fullmatch(m.group()))
                        ):
                            add_word(make_word(m.group(), _NO_NAMES, True, False, self.line_at(self.i)))
                        else:
                            self.parts.append(m.group())
                            self.started = True
                        self.i = end
                        continue
                else:
                    m = plain(text, self.i)
                    if m is not None:
                        self.parts.append(m.group())
                        self.i = m.end()
                        continue
            if ch == "\n":
                finish_word()
                self.i += 1
                self.line += 1
                if self.pending:
                    self.read_inline_bodies()
                if cmd.words or cmd.redirects:
                    cmd.sep = "\n"
                    yield cmd
                    cmd = Command(line=self.line)
                continue
            if ch == "\\":
                if self.i + 1 < self.n and text[self.i + 1] == "\n":
                    self.line += 1
                elif self.i + 1 < self.n:
                    self.parts.append(text[self.i + 1])
                    self.started = True
                self.i += 2
            elif ch == "'":
                end = text.find("'", self.i + 1)
                end = self.n if end < 0 else end
                chunk = text[self.i + 1 : end]
                self.line += chunk.count("\n")
                self.parts.append(chunk)
                self.quoted = self.started = True
                self.i = end + 1
            elif ch == '"':
                self.double_quoted()
            elif ch == "$":
                self.dollar()
            elif ch == "`":
                self.backtick()
            elif ch == "#" and not self.started:
                end = text.find("\n", self.i)
                self.i = self.n if end < 0 else end
            elif ch == "#":
                self.parts.append("#")
                self.i += 1
            elif ch in "<>":
                # an all-digit word before the operator is a file descriptor (2>&1)
                if self.started and not self.quoted and "".join(self.parts).isdigit():
                    self.end_word()
                glued = self.started  # no blank between a word and the operator (`name>=1`)
                counts = (len(cmd.words), len(cmd.redirects))
                finish_word()
                j = self.i + 1
                while j < self.n and j - self.i < 3 and text[j] in "<>&|-":
                    j += 1
                op = text[self.i : j]
                if op.startswith("<<<"):
                    op = "<<<"
                elif op.startswith("<<"):
                    op = "<<-" if op.startswith("<<-") else "<<"
                self.i += len(op)
                if op.endswith("&"):
                    # >&2: the target is a descriptor, read as a plain word and dropped
                    m2 = _PLAIN.match(text, self.i)
                    self.i = m2.end() if m2 else self.i
                    continue
                if glued and op in (">", "<") and redirect is None:
                    if len(cmd.words) > counts[0]:
                        cmd.glued.append((len(cmd.words) - 1, len(cmd.redirects)))
                    elif len(cmd.redirects) > counts[1]:
                        cmd.glued.append((-1, len(cmd.redirects)))
                redirect = op
            elif (
                ch == "(" and self.started and not self.quoted and _ASSIGNMENT.fullmatch("".join(self.parts))
            ):
                self.array_assignment()
            else:  # ; & | ( )
                finish_word()
                op = text[self.i : self.i + 2]
                if op not in ("&&", "||", ";;", "|&", ">&"):
                    op = ch
                self.i += len(op)
                if op == "&" and self.i < self.n and text[self.i] == ">":
                    redirect = ">"  # &> file
                    self.i += 1 + (self.i + 1 < self.n and text[self.i + 1] == ">")
                    continue
                if cmd.words or cmd.redirects or cmd.heredocs:
                    cmd.sep = op
                    yield cmd
                    cmd = Command(line=self.line)
        finish_word()
        if self.pending:
            self.read_inline_bodies()
        if cmd.words or cmd.redirects or cmd.heredocs:
            yield cmd

    def plain_commands(self) -> Iterator[Command]:
        """`commands` for a script of plain words, quotes closed on their line, `$NAME` / `${NAME}`
        and operators only (checked by `is_plain`): no escapes, comments, redirections or heredocs.
        One regular expression match per word or operator; the result is the same as the general
        loop's."""
        text = self.text
        quotes = '"' in text or "'" in text
        tokens = _QUOTED_TOKEN if quotes else _PLAIN_TOKEN
        # The line of a word, as `line_at` finds it: from the offsets table when it has two lines or
        # more (walked forward: words come in order; `bound` is where the next entry starts), else
        # the one line it holds, else the lines counted at newlines.
        offsets = self.offsets
        k, last = 0, len(offsets) - 1
        bound = offsets[1][0] if last > 0 else len(text) + 1
        line = offsets[0][1] if offsets else self.line
        words: list[Word] = []  # the command being read
        for token in tokens.finditer(text):
            word = token.group(1)
            if word is None:  # an operator
                op = token.group(2)
                if op == "\n":
                    self.line += 1
                    if not offsets:
                        line = self.line
                if words:
                    yield Command(words, [], [], words[0].line, op)
                    words = []
                continue
            if token.start(1) >= bound:
                start = token.start(1)
                while k < last and offsets[k + 1][0] <= start:
                    k += 1
                line = offsets[k][1]
                bound = offsets[k + 1][0] if k < last else len(text) + 1
            if quotes and ('"' in word or "'" in word):
                words.extend(self.split_word(self.quoted_word(word, line), words))
            elif "$" in word:
                words.extend(self.split_word(self.substituted(word, line), words))  # (none: unset)
            else:
                words.append(make_word(word, _NO_NAMES, True, False, line))
        if words:
            yield Command(words, [], [], words[0].line, "")

    def substituted(self, word: str, line: int) -> Word:
        """A plain word whose every `$` starts `$NAME` or `${NAME}`, substituted (see `substitute`)."""
        parts: list[str] = []
        names: set[str] = set()
        known = True
        pos = 0
        state = self.state
        for ref in _PLAIN_REFERENCE.finditer(word):
            parts.append(word[pos : ref.start()])
            name = ref.group(1) or ref.group(2)
            names |= state.sources(name)
            text, value_known = self.value_of(name)
            parts.append(text)
            known = known and value_known
            pos = ref.end()
        parts.append(word[pos:])
        return make_word("".join(parts), frozenset(names), known, False, line)

    def quoted_word(self, word: str, line: int) -> Word:
        """A plain word with quoted parts (`--index-url="${URL}"`, `'a b'`): quotes removed, `$NAME`
        substituted outside single quotes, never split (see `split_word`)."""
        parts: list[str] = []
        names: frozenset[str] = _NO_NAMES
        known = True
        for piece in _QUOTED_PIECE.finditer(word):
            kind = piece.lastindex or 1
            text = piece.group(kind)
            if kind == 3 or "$" not in text:
                parts.append(text)
                continue
            self.in_quotes = kind == 2
            found = self.substituted(text, line)
            self.in_quotes = False
            parts.append(found.text)
            names |= found.names
            known = known and found.known
        return make_word("".join(parts), names, known, True, line)

    def heredoc(self, delimiter: str, strip_tabs: bool, cmd: Command) -> None:
        if self.bodies is not None:
            if self.body_index < len(self.bodies):
                cmd.heredocs.append(self.bodies[self.body_index])
            self.body_index += 1
        else:
            self.pending.append((delimiter, strip_tabs, cmd))

    def read_inline_bodies(self) -> None:
        """Read the bodies of heredocs opened on the line just ended (a heredoc inside a script)."""
        for delimiter, strip_tabs, cmd in self.pending:
            lines: list[str] = []
            start = self.line
            while self.i < self.n:
                end = self.text.find("\n", self.i)
                end = self.n if end < 0 else end
                raw = self.text[self.i : end]
                self.i = end + 1
                self.line += 1
                check = raw.lstrip("\t") if strip_tabs else raw
                if check == delimiter:
                    break
                lines.append(check + "\n")
            cmd.heredocs.append(("".join(lines), start))
        self.pending = []


def is_plain(text: str) -> bool:
    """True for a script `Reader.plain_commands` reads (see `_NOT_PLAIN_SCRIPT`)."""
    if not text.isascii():
        return False
    if '"' in text or "'" in text:
        if _QUOTES_CLOSED.match(text) is None:
            return False
        text = _QUOTED.sub(_ordinary_inside, text)  # `"torch>=2.5,<2.8"` is no redirection
    # (`_NOT_PLAIN_WITHOUT_HASH` is the same test, in half the time when there is no `#` at all)
    check = _NOT_PLAIN_SCRIPT if "#" in text else _NOT_PLAIN_WITHOUT_HASH
    return check.search(text) is None


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_ORDINARY_IN_DOUBLE_QUOTES = re.compile(r"(?<!\$)[<>#(]")


def _ordinary_inside(quoted: re.Match[str]) -> str:
    """A quoted part with what means nothing inside quotes masked for `_NOT_PLAIN_SCRIPT`: all of
    '…'; `<`, `>`, `#` and `(` in "…" (not after a `$`: `$#` is a special parameter there too)."""
    text = quoted.group()
    if text[0] == "'":
        return "''"
    return _ORDINARY_IN_DOUBLE_QUOTES.sub("_", text)


def expand_text(text: str, state: ShellState) -> Word:
    """`text` (a here-document body) with `$NAME`, `${…}` substituted; quotes and blanks kept."""
    reader = Reader(text, state, 0, None, None)
    out: list[str] = []
    while reader.i < reader.n:
        end = text.find("$", reader.i)
        if end < 0:
            out.append(text[reader.i :])
            break
        out.append(text[reader.i : end])
        reader.i = end
        reader.parts = []
        reader.dollar()
        out.extend(reader.parts)
    return Word("".join(out), frozenset(reader.names), reader.known)


def _closing(text: str, start: int, opener: str, closer: str) -> int:
    """The index after the `closer` matching an already opened `opener` (nesting counted)."""
    depth = 1
    i = start
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def line_offsets(args: str, original: str, escape: str, start_line: int) -> list[tuple[int, int]]:
    """(offset in `args`, Dockerfile line) where each physical line of an instruction begins.

    `args` is the instruction's text with continuation lines joined with nothing in between and its
    keyword and flags removed; `original` the lines as written. Lines that do not continue `args` at the
    expected place (comment lines inside the continuation) are passed over.
    """
    lines = original.split("\n")
    result = [(0, start_line)]
    if len(lines) < 2:
        return result
    bodies = []
    for raw in lines:
        body = raw.rstrip("\r")
        trimmed = body.rstrip()
        bodies.append(trimmed[: -len(escape)] if escape and trimmed.endswith(escape) else body)
    # where the second line starts: after what the first line (minus keyword and flags) contributed;
    # when the first lines hold only flags, at the first line whose text (blanks trimmed) starts `args`
    # (comment and blank lines inside the continuation were dropped by the reader: pass over them)
    # and so are lines holding only blanks before the escape (`<TAB>\\`, docker-library's style)
    first = next(
        (k for k in range(1, len(lines)) if bodies[k].strip() and not lines[k].lstrip().startswith("#")), 1
    )
    second = bodies[first]
    limit = sum(len(body) for body in bodies[:first]) + len(second) + 1
    pos = args.find(second, 0, limit) if second.strip() else -1
    if pos < 0:
        for k in range(1, min(len(bodies), 64)):
            lead = bodies[k].lstrip()
            if lead and args.startswith(lead):
                result, pos, first = [(0, start_line + k)], len(lead), k + 1
                break
        else:
            return result
    for k in range(first, len(bodies)):
        body = bodies[k]
        if args.startswith(body, pos):
            result.append((pos, start_line + k))
            pos += len(body)
    return result


def read_commands(
    text: str,
    state: ShellState,
    line: int,
    bodies: list[tuple[str, int]] | None = None,
    offsets: list[tuple[int, int]] | None = None,
) -> Iterator[Command]:
    """The commands of shell `text` starting at Dockerfile `line`, substituting from `state`.

    `bodies` are the heredoc bodies of a RUN instruction, in the order their `<<` operators appear;
    None when heredoc bodies follow inline (a script that is itself a heredoc body). Leading
    assignments are applied to `state` as each command is produced, so later commands see them.
    """
    tested = False  # the previous command was a test joined by && or || (`[ -z "$V" ] && V=x`)
    test: conditions.Test | None = None  # and what it says for the default build
    for cmd in Reader(text, state, line, bodies, offsets).commands():
        words = cmd.words
        start = _prefix_end(words) if words and words[0].text in _PREFIXES else 0  # (0 for most)
        first = words[start].text if len(words) > start and not words[start].quoted else ""
        inner = state.compounds[-1] if state.compounds and not state.untracked else None
        if inner is not None and inner.keyword == "case" and inner.pattern_next and first != "esac":
            _case_branch(
                inner, words, cmd.sep, state.doubtful
            )  # `aarch64)`, `x86_64 | amd64)`: a pattern, no command
            _branch_condition(cmd, state, None)
            yield cmd
            continue
        if inner is not None and inner.chain is not None and start == 0 and first in ("[", "[[", "test"):
            _chain(
                inner, conditions.evaluate(words, state.doubtful), cmd.sep
            )  # `if [ a ] || [ b ]`: the next test
            _branch_condition(cmd, state, None)
            yield cmd
            continue
        if inner is not None:
            inner.chain = None
        prefix = words[:start]  # (empty for most commands)
        if prefix and state.compounds and any(w.text in ("else", "elif") and not w.quoted for w in prefix):
            state.compounds[-1].branches = True  # before a compound this command opens (`else if`)
            if inner is not None:
                _next_branch(inner, words, start, state.doubtful)
        if first in _OPENERS:
            depth = len(state.compounds)
            _open(state, first)
            if len(state.compounds) > depth:
                _first_branch(state.compounds[-1], first, words, start, cmd.sep, state.doubtful)
        if state.compounds or tested:
            _branch_condition(cmd, state, test if tested else None)
        if tested:  # as `if test; then …; fi`: it may not run
            _open(state, "if")
        if len(words) > start and ("=" in words[start].text or words[start].text in _DECLARATIONS):
            apply_assignments(cmd, state, start)  # (it finds nothing in any other command)
        if tested:
            _close(state)
        if first in _CLOSERS:
            _close(state)
        if (
            cmd.sep == ";;"
            and state.compounds
            and not state.untracked
            and state.compounds[-1].keyword == "case"
        ):
            state.compounds[-1].pattern_next = True
        tested = first in ("[", "[[", "test") and cmd.sep in ("&&", "||")
        test = conditions.evaluate(words[start:], state.doubtful) if tested else None
        if test is not None and cmd.sep == "||":  # `[ … ] || cmd`: cmd runs when the test fails
            truth = None if test.truth is None else not test.truth
            test = replace(test, truth=truth, equal=not test.equal)
        yield cmd


def _first_branch(
    compound: _Compound, keyword: str, words: list[Word], start: int, sep: str, doubtful: set[str]
) -> None:
    """The `if` or `case` just opened by the command `words`: what its first branch's test says."""
    if keyword == "if":
        test = conditions.evaluate(words[start + 1 :], doubtful)
        _set_branch(compound, test, True)
        if sep in ("&&", "||"):  # `if [ a ] || [ b ]; then`: decided with the next test
            compound.chain = (test, sep)
            compound.taken, compound.note = None, None
    elif keyword == "case" and len(words) > start + 1:
        compound.subject = words[start + 1]
        rest = words[start + 3 :] if len(words) > start + 2 and words[start + 2].text == "in" else []
        compound.pattern_next = True
        if rest and sep in (")", "|"):
            _case_branch(compound, rest, sep, doubtful)


def _case_branch(compound: _Compound, words: list[Word], sep: str, doubtful: set[str]) -> None:
    """A `case` pattern (`x86_64`, then `amd64` after `|`): the branch it starts."""
    patterns = [w for w in words if not (w.text == "(" and not w.quoted)]
    if compound.note is not None or compound.taken is not None or compound.patterns:
        if not compound.pattern_run:  # a new branch, not the next pattern after `|`
            compound.earlier = _either(compound.earlier, compound.taken)
    compound.run_patterns.extend(patterns)
    compound.pattern_run = sep == "|"
    compound.pattern_next = sep == "|"
    if compound.pattern_run or compound.subject is None:
        return
    test = conditions.case_pattern(compound.subject, compound.run_patterns, compound.patterns, doubtful)
    compound.patterns.extend(p.text for p in compound.run_patterns if p.text != "*")
    compound.run_patterns = []
    _after_earlier(compound, test, True)


def _next_branch(compound: _Compound, words: list[Word], start: int, doubtful: set[str]) -> None:
    """`else` or `elif …` of the innermost compound."""
    compound.earlier = _either(compound.earlier, compound.taken)
    elif_at = next(i for i, w in enumerate(words[:start]) if w.text in ("else", "elif"))
    if words[elif_at].text == "elif":
        _after_earlier(compound, conditions.evaluate(words[elif_at + 1 :], doubtful), True)
        return
    last = compound.last
    note = None
    if last is not None and (last.platform is not None or last.depends) and compound.earlier is None:
        note = last.note(False)  # `else` after a platform test: the other platforms
    compound.taken = None if compound.earlier is None else not compound.earlier
    compound.test, compound.note = (last.text if last else ""), note


def _chain(compound: _Compound, test: conditions.Test, sep: str) -> None:
    """The next test of an `if` list (`[ a ] || [ b ]`): combined with the tests before it."""
    assert compound.chain is not None
    before, op = compound.chain
    a, b = before.truth, test.truth
    if op == "||":
        truth = True if a is True or b is True else (False if a is False and b is False else None)
    else:
        truth = False if a is False or b is False else (True if a is True and b is True else None)
    combined = conditions.Test(
        truth, text=f"{before.text} {op} {test.text}", depends=before.depends | test.depends
    )
    if sep in ("&&", "||"):
        compound.chain = (combined, sep)
        return
    compound.chain = None
    _after_earlier(compound, combined, True)


def _after_earlier(compound: _Compound, test: conditions.Test, holds: bool) -> None:
    if compound.earlier is True:
        test = conditions.Test(False, text=test.text)
    elif compound.earlier is None and test.truth is True:
        test = replace(test, truth=None)
    _set_branch(compound, test, holds)


def _set_branch(compound: _Compound, test: conditions.Test, holds: bool) -> None:
    compound.last = test
    compound.taken = test.truth if holds or test.truth is None else not test.truth
    compound.test = test.text
    compound.note = test.note(holds)


def _either(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


def _branch_condition(cmd: Command, state: ShellState, test: conditions.Test | None) -> None:
    """Mark `cmd` skipped when a branch around it is known not taken, else note its platform."""
    notes: list[str] = []
    for compound in state.compounds:
        if compound.taken is False:
            cmd.skipped = compound.test or compound.keyword
            return
        if compound.note:
            notes.append(compound.note)
    if test is not None:
        if test.truth is False:
            cmd.skipped = test.text
            return
        note = test.note(True)
        if note:
            notes.append(note)
    if notes:
        cmd.condition = ", ".join(dict.fromkeys(notes))


_PREFIXES = frozenset({"then", "else", "elif", "do", "{", "!", "time"})
_MAX_COMPOUNDS = 32  # nesting tracked; deeper `if`s and loops count but keep no variables of their own


def _prefix_end(words: list[Word]) -> int:
    """Index of the first word after the keywords that may precede a command (`then`, `else`,
    `do`, `{`, `!`, `time`), so `else if …`, `{ if …; }` and `do V=1` are seen for what they are."""
    start = 0
    while start < len(words) and not words[start].quoted and words[start].text in _PREFIXES:
        start += 1
    return start


def _open(state: ShellState, keyword: str) -> None:
    if len(state.compounds) < _MAX_COMPOUNDS and not state.untracked:
        state.compounds.append(_Compound(keyword))
    else:
        state.untracked += 1  # a 240 KB RUN of nested loops must not cost depth² to read


def _close(state: ShellState) -> None:
    """After `fi`, `esac` or `done`: a variable set inside holds what it held before an `if` with no
    `else` (the branch not taken: `V="python=3.12"; if [ "$V" = default ]; then V=python; fi`), and
    is unknown after a `case`, a loop or an `if` with an `else` (any path's value may remain)."""
    if state.untracked:
        state.untracked -= 1
        return
    if not state.compounds:
        return
    compound = state.compounds.pop()
    keep = compound.keyword == "if" and not compound.branches
    for name, before in compound.before.items():
        if keep and before is not None and isinstance(before[0], str):
            state.variables[name] = before
        else:
            sources = state.variables[name][1] if name in state.variables else frozenset()
            state.variables[name] = (Unknown("set in a branch or a loop"), sources)
        if state.compounds:
            state.compounds[-1].before.setdefault(name, before)


_OPENERS = frozenset({"if", "case", "while", "until", "for", "select"})
_CLOSERS = frozenset({"fi", "esac", "done"})
_DECLARATIONS = frozenset({"export", "declare", "local", "readonly", "typeset"})


def _assignment_position(before: list[Word]) -> bool:
    """True when the next word of a command is where an assignment goes: after nothing but
    assignments, or anywhere after `export` and the other declaration builtins."""
    if before and before[0].text in _DECLARATIONS:
        return True
    return all(not w.quoted and _ASSIGNMENT.match(w.text) for w in before)


def apply_assignments(cmd: Command, state: ShellState, start: int | None = None) -> None:
    """Record `NAME=value` words at the start of `cmd` (after `then`, `else`, `do`, `{` …, and the
    arguments of `export` and the other declaration builtins) as shell variables. Inside `if`, `case`
    and loops they hold within the branch; when the compound ends `read_commands` decides what stays.
    `start` is where the command follows those keywords, when the caller found it already."""
    words = cmd.words
    if start is None:
        start = _prefix_end(words)
    declaration = len(words) > start and words[start].text in _DECLARATIONS
    start += declaration
    for word in words[start:]:
        m = _ASSIGNMENT.match(word.text) if "=" in word.text else None
        if not m:
            if declaration:
                continue  # `export PATH A=1`: a name without a value
            break  # `make install VERSION=9`: an argument, not an assignment
        value = word.text[m.end() :]
        if word.text[m.end() - 2 : m.end()] == "+=":  # `A+=x`: appended to what A holds
            previous = state.lookup(m.group(1))
            if isinstance(previous, Unknown):  # `V=$(uname -m); V+=1.0`: still not known
                state.assign(m.group(1), Word(value, word.names, False))
                continue
            if isinstance(previous, str):
                # a list grown in a branch keeps the item (`PKGS+=" libfoo"`); a string changed there
                # (`S+=.1`) is a branch's value like any other
                listed = value[:1] in (" ", "\t")
                state.assign(m.group(1), Word(previous + value, word.names, word.known), append=listed)
                continue
        state.assign(m.group(1), Word(value, word.names, word.known))
