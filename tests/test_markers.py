"""Marker blocks: every edge case as an input/expected pair, every error with its line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.errors import MarkerError
from docgen.markers import (
    block_bodies,
    fence_after,
    find_blocks,
    newline_of,
    newline_outside,
    opening_fence,
    parse_marker,
    replace_block,
    replace_blocks,
    split_lines,
    unclosed_fence,
)

B = "<!-- BEGIN docgen:{} -->"
E = "<!-- END docgen:{} -->"


def doc(*lines: str, nl: str = "\n", final: bool = True) -> str:
    return nl.join(lines) + (nl if final else "")


@pytest.mark.parametrize(
    ("text", "bodies", "expected"),
    [
        # empty block gets filled
        (
            doc("# T", B.format("a"), E.format("a"), "tail"),
            {"a": "x\n"},
            doc("# T", B.format("a"), "x", E.format("a"), "tail"),
        ),
        # old body replaced
        (
            doc(B.format("a"), "old", "old2", E.format("a")),
            {"a": "new"},
            doc(B.format("a"), "new", E.format("a")),
        ),
        # two blocks, any order, only named ones touched
        (
            doc(B.format("b"), "1", E.format("b"), "mid", B.format("a"), "2", E.format("a")),
            {"a": "A"},
            doc(B.format("b"), "1", E.format("b"), "mid", B.format("a"), "A", E.format("a")),
        ),
        # CRLF file stays CRLF
        (
            doc(B.format("a"), E.format("a"), nl="\r\n"),
            {"a": "x\ny\n"},
            doc(B.format("a"), "x", "y", E.format("a"), nl="\r\n"),
        ),
        # no final newline stays without one
        (
            doc(B.format("a"), E.format("a"), final=False),
            {"a": "x"},
            doc(B.format("a"), "x", E.format("a"), final=False),
        ),
        # indented markers and extra spaces inside the comment
        (
            doc("  <!--  BEGIN docgen:a  -->", "<!--END docgen:a-->"),
            {"a": "x"},
            doc("  <!--  BEGIN docgen:a  -->", "x", "<!--END docgen:a-->"),
        ),
        # markers inside fenced code are examples, not markers
        (
            doc("```", B.format("a"), "```", B.format("a"), E.format("a"), "~~~~", E.format("zz"), "~~~~"),
            {"a": "x"},
            doc(
                "```", B.format("a"), "```", B.format("a"), "x", E.format("a"), "~~~~", E.format("zz"), "~~~~"
            ),
        ),
        # marker text inside a sentence is not a marker
        (
            doc("write " + B.format("a") + " on its own line"),
            {"a": "x"},
            doc("write " + B.format("a") + " on its own line"),
        ),
    ],
)
def test_replace(text: str, bodies: dict[str, str], expected: str) -> None:
    assert replace_blocks(text, bodies) == expected
    # idempotent
    assert replace_blocks(expected, bodies) == expected


def test_attributes_are_kept() -> None:
    text = doc("<!-- BEGIN docgen:a note=keep -->", E.format("a"))
    assert find_blocks(text)[0].attributes == "note=keep"
    assert replace_block(text, "a", "x").startswith("<!-- BEGIN docgen:a note=keep -->\nx\n")


def test_block_bodies() -> None:
    assert block_bodies(doc(B.format("a"), "1", "2", E.format("a"))) == {"a": "1\n2\n"}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (doc("x", B.format("a"), "y"), 2, "has no <!-- END docgen:a --> after it"),
        (doc("x", E.format("a")), 2, "END docgen:a without a BEGIN"),
        (doc(E.format("a"), B.format("a")), 1, "without a BEGIN"),
        (
            doc(B.format("a"), B.format("b"), E.format("b"), E.format("a")),
            2,
            "inside block docgen:a opened at line 1",
        ),
        (doc(B.format("a"), E.format("b")), 2, "does not match BEGIN docgen:a at line 1"),
        (
            doc(B.format("a"), E.format("a"), B.format("a"), E.format("a")),
            3,
            "appears twice (first at line 1)",
        ),
        (doc(B.format("Bad Name"), E.format("a")), 1, "invalid block name"),
        (doc(B.format("nope"), E.format("nope")), 1, "unknown block docgen:nope"),
    ],
)
def test_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(MarkerError) as info:
        find_blocks(text, "README.md", known=["a", "b"])
    assert str(info.value).startswith(f"README.md:{line}: ")
    assert message in str(info.value)


def test_newline_of() -> None:
    assert newline_of("a\r\nb\r\n") == "\r\n"
    assert newline_of("a\nb\n") == "\n"
    assert newline_of("a\r\nb\nc\n") == "\n"


# The marker scanner is written without `re` (it is on the fast path of `docgen check`); these
# regular expressions are its specification, and hypothesis compares the two on generated lines.
MARKER_SPEC = re.compile(r"[ \t]*<!--[ \t]*(BEGIN|END)[ \t]+docgen:([^\s>]*)((?:\s[^>]*)?)-->[ \t]*")
LINE_SPEC = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
FENCE_SPEC = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
PIECES = [" ", "\t", "<!--", "-->", "BEGIN", "END", "docgen:", "versions", "-", ">", "x=1", "\u00a0"]
PIECES += ["\r", "\n", "\r\n", "`", "```", "~~~", "a", "#"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_scanner_agrees_with_its_regular_expressions(text: str) -> None:
    lines = [m.group() for m in LINE_SPEC.finditer(text)]
    assert split_lines(text) == lines
    for line in lines:
        content = line.rstrip("\r\n")
        spec = MARKER_SPEC.fullmatch(content)
        expected = (spec.group(1), spec.group(2), spec.start(3), spec.end(3)) if spec else None
        assert parse_marker(content) == expected
        fence = FENCE_SPEC.match(line)
        assert opening_fence(line) == (fence.group(1) if fence else None)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<!-- BEGIN docgen:versions -->", ("BEGIN", "versions", 26, 27)),
        ("<!--END docgen:versions-->", ("END", "versions", 23, 23)),
        ("  <!-- BEGIN docgen:versions a=1 b -->  ", ("BEGIN", "versions", 28, 35)),
        ("<!-- BEGIN docgen:versions a>b -->", None),
        ("<!-- BEGINdocgen:versions -->", None),
        ("<!-- BEGIN docgen:versions --> x", None),
    ],
)
def test_parse_marker_examples(line: str, expected: tuple[str, str, int, int] | None) -> None:
    assert parse_marker(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        "<!-- BEGIN docgen:versions a>b -->",
        "<!-- END docgen:versions --> and more",
        "  <!--BEGIN docgen:versions",
    ],
)
def test_a_near_miss_marker_is_an_error_on_its_own_line(line: str) -> None:
    text = "# Title\n\n" + line + "\nbody\n<!-- END docgen:versions -->\n"
    with pytest.raises(MarkerError) as info:
        find_blocks(text, "README.md")
    assert str(info.value).startswith("README.md:3: this line starts like a docgen marker but is not one")


def test_marker_words_in_prose_or_code_are_not_near_misses() -> None:
    text = (
        "Write `<!-- BEGIN docgen:versions -->` where the table goes.\n<!-- docgen:versions is a name -->\n"
    )
    assert find_blocks(text) == []


OPENING_SPEC = re.compile(r"[ ]{0,3}(?:(`{3,})[^`]*|(~{3,}).*)")
"""CommonMark's opening fence: a backtick fence's info string has no backtick."""


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=10).map("".join))
def test_opening_fence_agrees_with_commonmark(text: str) -> None:
    for line in split_lines(text):
        content = line.rstrip("\r\n")
        spec = OPENING_SPEC.fullmatch(content)
        expected = (True, spec.group(1) or spec.group(2)) if spec else (False, None)
        assert fence_after(line, None) == expected


def test_inline_code_line_does_not_hide_the_markers_after_it() -> None:
    text = "``` x ``` y\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"
    assert [b.name for b in find_blocks(text)] == ["versions"]
    # inside a fence, such a line neither closes it nor opens another
    assert fence_after("``` x ``` y\n", "```") == (True, "```")


@pytest.mark.parametrize(
    "line",
    ["<!-- begin docgen:versions -->", "<!-- BEGIN DOCGEN:versions -->", "<!-- End Docgen:versions -->"],
)
def test_markers_in_another_case_are_refused_not_ignored(line: str) -> None:
    with pytest.raises(MarkerError, match=r"README.md:2: this line looks like a docgen marker written in"):
        find_blocks(f"intro\n{line}\n", "README.md")
    assert find_blocks(f"`{line}` in prose\n", "README.md") == []


def test_sync_keeps_its_line_ending_when_lf_and_crlf_lines_tie() -> None:
    """The bodies are written with the line ending of the text outside them: with as many LF as CRLF
    lines, a body counted in would tip the balance, and every sync would rewrite the block (found by
    the property test with `--hypothesis-seed=12`)."""
    text = "\n\n\r\n<!-- BEGIN docgen:hardware -->\r\n\n\n<!-- END docgen:hardware -->\r\n"
    once = replace_block(text, "hardware", "a\nb\n")
    assert replace_block(once, "hardware", "a\nb\n") == once
    assert newline_outside(once, find_blocks(once)) == newline_outside(text, find_blocks(text))


BLOCK_AFTER = "<!-- BEGIN docgen:versions -->\nx\n<!-- END docgen:versions -->\n"


def test_a_lazy_continuation_line_keeps_the_list_item_and_its_fence() -> None:
    """`- item` then unindented text continues the item (CommonMark), so the fence indented under it
    belongs to the item and ends with it: the marker after it is read. Until the Markdown reader was
    checked against markdown-it-py, the text ended the item and the fence swallowed the block."""
    text = "- item\nlazy text\n  ```\n" + BLOCK_AFTER
    assert [b.name for b in find_blocks(text)] == ["versions"]
    assert unclosed_fence(text) is None


def test_a_thematic_break_of_dashes_opens_no_list_item() -> None:
    """`- - -` is a thematic break, not three list items: the fence under it is top-level and runs to
    the end, the marker inside it is code."""
    text = "- - -\n  ```\n" + BLOCK_AFTER
    assert find_blocks(text) == []
    assert unclosed_fence(text) == 2
