"""The RUN script reader's fast path for plain scripts gives what its general loop gives.

Scripts of plain words, quotes closed on their line, `$NAME` / `${NAME}` and operators (most RUN
lines) are read with one regular expression match per word (`Reader.plain_commands`); everything
else goes through the general loop (`Reader.general_commands`). On any plain script the two must
produce the same commands, words, lines and shell variables.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.evaluate import Scope
from docgen.shell import Unknown
from docgen.sources.script import Reader, ShellState, apply_assignments, is_plain, read_commands

SCOPE = Scope(1, {"A": "va", "B": "", "U": Unknown("set by the build"), "C": "$(x)"}, "may come from x")
PIECES = [
    "pip", "install", "x==1", "$A", "${B}", "${U}", "$C", "a$A", "$A-b", "${A}${B}c", "V=1", "V=$A",
    "$V", "&&", "||", ";", "|", "&", "(", ")", "\n", " ", "  ", "\t", "a#b", "{", "}", "cd", "/tmp",
    ";;", "|&", "x.y", "export", "W=$V", "$W", "for", "p", "in", "do", "done",
    '"a b"', "'a b'", '""', "''", '"$A"', "'$A'", '"${U}x"', 'x="$C"', "--i=\"${A} ${B}\"", "'\"'", "\"'\"",
    '"if"', "'&&'", '"(a;b)"', '"$A"$A', "'a'\"b\"c", "'#'", '"x>=1,<2"', "'a>b'", '"a #b"',
    "'$(x) `y` \\'", '"a=(b)"', "'<<EOF'",
]  # fmt: skip
# no table (lines counted at newlines), one line, entries at one offset, an entry past the end
OFFSETS = [None, [(0, 7)], [(0, 3), (4, 4), (4, 5), (9, 6), (30, 9)], [(0, 3), (2, 4), (500, 9)]]


def read(text: str, method: str, offsets: list[tuple[int, int]] | None) -> tuple[list[str], int, str]:
    state = ShellState(SCOPE.lookup, declared=frozenset({"A"}))
    reader = Reader(text, state, 3, [], offsets)
    commands = []
    for cmd in getattr(reader, method)():
        apply_assignments(cmd, state)
        commands.append(repr(cmd))
    return commands, reader.line, repr(state.variables)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map(" ".join), st.sampled_from(OFFSETS))
def test_plain_scripts_read_the_same_both_ways(text: str, offsets: list[tuple[int, int]] | None) -> None:
    assert is_plain(text)
    assert read(text, "plain_commands", offsets) == read(text, "general_commands", offsets)


def test_what_is_not_a_plain_script() -> None:
    for text in ["echo 'a", 'echo "a', "a\\\nb", "echo `x`", "a > f", "cat <<EOF", "$(nproc)", "${A:-1}"]:
        assert not is_plain(text), text
    for text in ["# note", "a && # note", "$1", "$", "a\x1cb", '"$#"', '"$<"', "A=(1 2)"]:
        assert not is_plain(text), text
    for text in ['echo "a\nb"', "echo 'a\nb'"]:  # a quote open across a line
        assert not is_plain(text), text
    for text in [
        "pip install x==${V} a#b && cd /x; echo $A",
        "echo 'a' \"$A b\"",
        'echo "it\'s"',
        'pip "a<2"',
    ]:
        assert is_plain(text), text


def test_a_quoted_word_is_read_as_the_general_loop_reads_it() -> None:
    text = 'pip install --index-url="${A}/x" \'a b\' "$U" "" && echo "$A"\'$A\'"$C"'
    assert read(text, "plain_commands", None) == read(text, "general_commands", None)
    commands = read(text, "plain_commands", None)[0]
    assert "text='--index-url=va/x'" in commands[0] and "text='a b'" in commands[0]
    assert "text='va$A$(x)'" in commands[1]


def test_a_redirection_written_right_after_a_word() -> None:
    """`name>=1` unquoted: the word `name`, and a redirection glued to it (`Command.glued`); after a blank,
    quoted, or after a file descriptor (`2>&1`) it is no glued one."""
    text = 'pip install a>=1 "b<2" c >/dev/null x 2>&1 d>=2,<3 e\\>=1'
    cmd = next(read_commands(text, ShellState(lambda name: None), 1))
    assert [w.text for w in cmd.words] == ["pip", "install", "a", "b<2", "c", "x", "d", "e>=1"]
    assert [(op, w.text) for op, w in cmd.redirects] == [
        (">", "=1"),
        (">", "/dev/null"),
        (">", "=2,"),
        ("<", "3"),
    ]
    assert cmd.glued == [(2, 0), (6, 2), (-1, 3)]
