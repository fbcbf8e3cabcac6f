"""Tests for docgen.patterns: possessive quantifiers and atomic groups read on Python 3.10 too."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from docgen import patterns
from docgen.patterns import greedy

_DOCGEN = Path(__file__).resolve().parent.parent / "docgen"
_RE_CALLS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (r"[ \t]*+x", r"[ \t]*x"),
        (r"\d++\.x", r"\d+\.x"),
        (r"a?+b", r"a?b"),
        (r"a{1,3}+b", r"a{1,3}b"),
        (r"(?>[ \t]*+,)?", r"(?:[ \t]*,)?"),
        (r"[-*+]+x", r"[-*+]+x"),  # a set holding `+`, then a greedy `+`
        (r"[^]+]*+", r"[^]+]*"),  # a `]` first in a set is one of its characters
        (r"\++", r"\++"),  # an escaped `+` repeated
        (r"a*?b", r"a*?b"),  # lazy, not possessive
        (r"(?:a)+(?P<n>b)?", r"(?:a)+(?P<n>b)?"),
        (r"x{}+", r"x{}+"),  # `{}` is no repeat: the `+` repeats it
        (r"[\]+]*+y", r"[\]+]*y"),
    ],
)
def test_greedy_drops_only_what_makes_a_quantifier_possessive_or_a_group_atomic(
    written: str, read: str
) -> None:
    assert greedy(written) == read
    re.compile(read)


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        (r"(?<![\w.-])v?\d+(?:\.\d+)+|(?<!\d)\d++\.x\b", "CUDA 12.x and 3.10", ["12.x", "3.10"]),
        (r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*+)=", "A=1 B_2=x", ["A", "B_2"]),
        (r"(?:(?>[ \t]*+,)[ \t]*+\w++)+", "a , b,c", [" , b,c"]),
    ],
)
def test_a_pattern_finds_the_same_read_possessive_or_greedy(
    pattern: str, text: str, found: list[str]
) -> None:
    assert re.findall(greedy(pattern), text) == found
    if sys.version_info >= (3, 11):
        assert re.findall(pattern, text) == found
    assert patterns.compile(pattern).findall(text) == found


def _possessive_calls(tree: ast.AST) -> list[int]:
    """The lines of `re.<function>(pattern, …)` calls whose pattern (a string, or the strings an f-string
    or a `+` joins) Python 3.10 refuses."""
    lines = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _RE_CALLS
            and node.args
        ):
            continue
        parts = [
            n.value
            for n in ast.walk(node.args[0])
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        ]
        if any(greedy(part) != part for part in parts):
            lines.append(node.lineno)
    return lines


def test_no_pattern_python_3_10_refuses_is_given_to_re() -> None:
    """A possessive quantifier or atomic group given to `re` itself stops every command on Python 3.10
    (`re.error: multiple repeat` at import): such patterns go through `patterns.compile`."""
    found = [
        f"{path.relative_to(_DOCGEN.parent)}:{line}"
        for path in sorted(_DOCGEN.rglob("*.py"))
        for line in _possessive_calls(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_the_guard_finds_a_possessive_pattern_given_to_re() -> None:
    tree = ast.parse(
        'import re\nA = re.compile(r"[ \\t]*+x")\nB = re.search(f"{x}\\\\d++", y)\nC = re.compile("a+")\n'
    )
    assert _possessive_calls(tree) == [2, 3]
