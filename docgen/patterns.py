"""Regular expressions that compile on every Python docgen runs on.

Many of docgen's patterns bound their work on hostile input (a run of 20,000 blanks, a word of a
megabyte) with possessive quantifiers (`[ \\t]*+`) and atomic groups (`(?>…)`), which Python's `re` reads
from 3.11 on; 3.10 refuses them (`multiple repeat`). `compile` gives such a pattern to `re` as written
from 3.11 on, and on 3.10 as the greedy quantifiers and plain groups they narrow (`greedy`): where the
pattern stops after the quantifier at something the quantified part cannot match (all of docgen's
patterns), the matches are the same; only the bound on hostile input is lost. Written by hand because
the `regex` package, which reads both everywhere, would be a compiled dependency for one Python."""

from __future__ import annotations

import functools
import re
import sys

POSSESSIVE = sys.version_info >= (3, 11)
"""True when this Python's `re` reads possessive quantifiers and atomic groups."""


def greedy(pattern: str) -> str:
    """`pattern` with each possessive quantifier (`*+`, `++`, `?+`, `{m,n}+`) made greedy and each atomic
    group (`(?>…)`) a plain one; escapes and character sets (`[-*+]`, `[^]+]`) are copied as they are."""
    out: list[str] = []
    i, n = 0, len(pattern)
    quantified = False  # the last token was a quantifier (a `+` after it makes it possessive)
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i, quantified = i + 2, False
        elif c == "[":
            end = _set_end(pattern, i)
            out.append(pattern[i:end])
            i, quantified = end, False
        elif c == "+" and quantified:
            i, quantified = i + 1, False  # possessive: dropped
        elif c in "*+?":
            after_group = c == "?" and bool(out) and out[-1] == "("  # `(?:`, `(?P<…>`: no quantifier
            lazy = c == "?" and quantified
            out.append(c)
            i += 1
            quantified = not after_group and not lazy
        elif c == "{" and (repeat := re.match(r"\{\d*(?:,\d*)?\}", pattern[i:])) and repeat.group() != "{}":
            out.append(repeat.group())
            i, quantified = i + repeat.end(), True
        elif pattern.startswith("(?>", i):
            out.append("(?:")
            i, quantified = i + 3, False
        else:
            out.append(c)
            i, quantified = i + 1, False
    return "".join(out)


def _set_end(pattern: str, start: int) -> int:
    """The offset after the character set opening at `start` (a `]` first, after `[` or `[^`, is one of
    its characters); the end of `pattern` when it is not closed."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return min(i + 1, len(pattern))


@functools.cache
def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 (re.compile's name, on purpose)
    """`pattern` compiled: as written where `re` reads possessive quantifiers and atomic groups, else as
    `greedy` writes it."""
    return re.compile(pattern if POSSESSIVE else greedy(pattern), flags)
