"""Input/expected pairs for every reader rule (DOCKERFILE-SEMANTICS.md rules 1-8) and its errors.

Each case in `CASES` is also kept as a file under `tests/data/reader/` so that `tests/test_oracle.py`
checks it against BuildKit's own parser. After adding or changing a case, regenerate those files with

    python tests/test_dockerfile.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.dockerfile import parse_dockerfile, read_dockerfile, read_dockerfile_bytes
from docgen.errors import MAX_FILE_BYTES, DockerfileError
from docgen.evaluate import evaluate
from docgen.model import Instruction, ParsedDockerfile

DATA = Path(__file__).parent / "data" / "reader"
REGENERATE = "python tests/test_dockerfile.py"

Row = tuple[str, tuple[str, ...], str, int, int]


def rows(parsed: ParsedDockerfile) -> list[Row]:
    """Each instruction as (keyword, flags as `--name=value`, args, start line, end line)."""
    return [(i.keyword, flag_strings(i), i.args, i.start_line, i.end_line) for i in parsed.instructions]


def flag_strings(ins: Instruction) -> tuple[str, ...]:
    return tuple(f"--{f.name}" + ("" if f.value is None else f"={f.value}") for f in ins.flags)


# name -> (Dockerfile text, expected rows)
CASES: dict[str, tuple[str, list[Row]]] = {
    # 1. parser directives
    "directives": (
        "# syntax=docker/dockerfile:1\n# ESCAPE = `\n# check=skip=all\nFROM x\nRUN a `\n  b\n",
        [("FROM", (), "x", 4, 4), ("RUN", (), "a   b", 5, 6)],
    ),
    "directive_after_comment": (
        "# licence\n# escape=`\nFROM x\nRUN a \\\n b\n",
        [("FROM", (), "x", 3, 3), ("RUN", (), "a  b", 4, 5)],
    ),
    "directive_after_blank": (
        "\n# escape=`\nFROM x\nRUN a `\n",
        [("FROM", (), "x", 3, 3), ("RUN", (), "a `", 4, 4)],
    ),
    # 2. continuations
    "continuation_comment_blank": (
        "FROM x\nRUN apt-get install -y \\\n# compilers\n    gcc \\\n\n    make\nRUN next\n",
        [
            ("FROM", (), "x", 1, 1),
            ("RUN", (), "apt-get install -y     gcc     make", 2, 6),
            ("RUN", (), "next", 7, 7),
        ],
    ),
    "escaped_backslash": (
        "FROM x\nRUN echo a\\\\\nRUN b\\\\\\\nRUN c\n",
        [
            ("FROM", (), "x", 1, 1),
            ("RUN", (), "echo a\\\\", 2, 2),
            ("RUN", (), "b\\\\\\", 3, 3),
            ("RUN", (), "c", 4, 4),
        ],
    ),
    "continuation_trailing_space": (
        "FROM x\nRUN a \\ \t\n  b\n\\\nRUN c\n",
        [("FROM", (), "x", 1, 1), ("RUN", (), "a   b", 2, 3), ("RUN", (), "c", 4, 5)],
    ),
    "continuation_at_eof": ("FROM x\nRUN a \\", [("FROM", (), "x", 1, 1), ("RUN", (), "a", 2, 2)]),
    # 3. '#' after an instruction is not a comment
    "arg_hash": (
        'FROM x\nARG TORCH_BRANCH="8514f05" # release/2.10\n',
        [("FROM", (), "x", 1, 1), ("ARG", (), 'TORCH_BRANCH="8514f05" # release/2.10', 2, 2)],
    ),
    # 4. heredocs
    "heredoc_basic": (
        "FROM x\nRUN <<EOF\nset -e\nFROM not-an-instruction\n# not a comment\nEOF\nRUN after\n",
        [("FROM", (), "x", 1, 1), ("RUN", (), "<<EOF", 2, 6), ("RUN", (), "after", 7, 7)],
    ),
    "heredoc_forms": (
        "FROM x\nRUN cat > f <<'EOF' && python3 - <<-\"PY\" && echo done\nhello $X\nEOF\n\tprint(1)\n\tPY\n"
        "COPY --chmod=755 <<EOF /a\nx\nEOF\n",
        [
            ("FROM", (), "x", 1, 1),
            ("RUN", (), "cat > f <<'EOF' && python3 - <<-\"PY\" && echo done", 2, 6),
            ("COPY", ("--chmod=755",), "<<EOF /a", 7, 9),
        ],
    ),
    "heredoc_continued": (
        "FROM x\nRUN cat \\\n  <<EOF\nbody\nEOF\n",
        [("FROM", (), "x", 1, 1), ("RUN", (), "cat   <<EOF", 2, 5)],
    ),
    "heredoc_not": (
        'FROM x\nRUN echo "a <<EOF b"\nRUN cat <<- EOF\nCMD <<EOF\nRUN ["cat", "<<EOF"]\n',
        [
            ("FROM", (), "x", 1, 1),
            ("RUN", (), 'echo "a <<EOF b"', 2, 2),
            ("RUN", (), "cat <<- EOF", 3, 3),
            ("CMD", (), "<<EOF", 4, 4),
            ("RUN", (), '["cat", "<<EOF"]', 5, 5),
        ],
    ),
    "heredoc_quirks": (
        "FROM x\nRUN cat <<EOF&&x\nbody\nEOF&&x\nRUN x=$(cat <<EOF)\na\nEOF)\nRUN echo ${!x} <<EOF\n"
        "RUN 3<<EOF cat\na\nEOF\nRUN <<$E\na\n$E\nRUN cat <<'EOF\nRUN x$A<<EOF\n",
        [
            ("FROM", (), "x", 1, 1),
            ("RUN", (), "cat <<EOF&&x", 2, 4),
            ("RUN", (), "x=$(cat <<EOF)", 5, 7),
            ("RUN", (), "echo ${!x} <<EOF", 8, 8),
            ("RUN", (), "3<<EOF cat", 9, 11),
            ("RUN", (), "<<$E", 12, 14),
            ("RUN", (), "cat <<'EOF", 15, 15),
            ("RUN", (), "x$A<<EOF", 16, 16),
        ],
    ),
    # 5. flags
    "flags": (
        "FROM --platform=$BUILDPLATFORM img AS x\n"
        "RUN --mount=type=cache,target=/root/.cache --mount=type=bind,from=x,source=/a,target=/b pip i y\n"
        "COPY --from=build --chown=1:1 --link a b\n"
        "ADD --checksum=sha256:abc https://e.x/f /f\n"
        'RUN --mount=type=secret,id="a b" -- --not-a-flag\n',
        [
            ("FROM", ("--platform=$BUILDPLATFORM",), "img AS x", 1, 1),
            (
                "RUN",
                ("--mount=type=cache,target=/root/.cache", "--mount=type=bind,from=x,source=/a,target=/b"),
                "pip i y",
                2,
                2,
            ),
            ("COPY", ("--from=build", "--chown=1:1", "--link"), "a b", 3, 3),
            ("ADD", ("--checksum=sha256:abc",), "https://e.x/f /f", 4, 4),
            ("RUN", ("--mount=type=secret,id=a b",), "--not-a-flag", 5, 5),
        ],
    ),
    # 6. exec form
    "exec_form": (
        'FROM x\nRUN ["pip", "install", "x==1"]\nCMD ["a",]\nENTRYPOINT []\n',
        [
            ("FROM", (), "x", 1, 1),
            ("RUN", (), '["pip", "install", "x==1"]', 2, 2),
            ("CMD", (), '["a",]', 3, 3),
            ("ENTRYPOINT", (), "[]", 4, 4),
        ],
    ),
    # 7. case, CRLF, BOM, unknown keywords, indentation
    "case_crlf_bom": (
        "\ufefffrom x As Base\r\n  run a \\\r\n  b\r\nfoo bar\r\nRUN\n",
        [
            ("FROM", (), "x As Base", 1, 1),
            ("RUN", (), "a   b", 2, 3),
            ("FOO", (), "bar", 4, 4),
            ("RUN", (), "", 5, 5),
        ],
    ),
    # 8. comment blocks
    "comments": (
        "# syntax=docker/dockerfile:1\n# Base image\n\n# pinned\nFROM x\n# dropped\n#\n# Kept\nRUN a \\\n"
        "# inside\n  b\nRUN c\n",
        [("FROM", (), "x", 5, 5), ("RUN", (), "a   b", 9, 11), ("RUN", (), "c", 12, 12)],
    ),
}


# Files BuildKit refuses to parse; docgen must refuse them too, at the given line.
ERROR_CASES: dict[str, tuple[str, int, str]] = {
    "error_directive_repeated": ("# syntax=a\n# Syntax=b\nFROM x\n", 2, "only one syntax parser directive"),
    "error_escape_invalid": ("# escape=x\nFROM x\n", 1, "invalid escape token"),
    "error_heredoc_open": ("FROM x\nRUN <<EOF\nabc\n", 2, "heredoc EOF is never closed"),
    "error_heredoc_chomp_open": ("FROM x\nRUN <<-EOF cat\n\tabc\n EOF\n", 2, "heredoc EOF is never closed"),
    "error_exec_not_strings": ('FROM x\nRUN ["a", 1]\n', 2, "arrays must be comprised of strings only"),
}


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_error_case(name: str) -> None:
    text, line, message = ERROR_CASES[name]
    with pytest.raises(DockerfileError) as err:
        parse_dockerfile(text, "Dockerfile.x")
    assert (err.value.path, err.value.line) == ("Dockerfile.x", line) and message in err.value.message
    path = DATA / f"{name}.Dockerfile"
    assert path.exists() and path.read_bytes() == text.encode(), f"run `{REGENERATE}`"


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str) -> None:
    text, expected = CASES[name]
    assert rows(parse_dockerfile(text)) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_exported_for_oracle(name: str) -> None:
    path = DATA / f"{name}.Dockerfile"
    assert path.exists() and path.read_bytes() == CASES[name][0].encode(), f"run `{REGENERATE}`"


def test_directives() -> None:
    parsed = parse_dockerfile(CASES["directives"][0])
    assert parsed.directives == (("syntax", "docker/dockerfile:1"), ("escape", "`"), ("check", "skip=all"))
    assert parsed.escape == "`"
    later = parse_dockerfile(CASES["directive_after_comment"][0])
    assert later.directives == () and later.escape == "\\"
    assert parse_dockerfile("\n# escape=`\nFROM x\n").directives == ()


def test_empty_continuation_line_warns() -> None:
    parsed = parse_dockerfile(CASES["continuation_comment_blank"][0])
    assert [(w.line, "empty line inside a continued instruction" in w.message) for w in parsed.warnings] == [
        (5, True)
    ]
    assert parsed.instructions[1].original == "RUN apt-get install -y \\\n# compilers\n    gcc \\\n\n    make"


def test_backtick_escape_keeps_backslash() -> None:
    parsed = parse_dockerfile("# escape=`\nFROM x\nRUN dir C:\\ `\n  /s\nRUN c\\\n")
    assert rows(parsed)[1:] == [("RUN", (), "dir C:\\   /s", 3, 4), ("RUN", (), "c\\", 5, 5)]


def test_arg_hash_warns() -> None:
    parsed = parse_dockerfile(CASES["arg_hash"][0])
    assert [(w.line, "'#' is not a comment here" in w.message) for w in parsed.warnings] == [(2, True)]


def test_heredoc_basic() -> None:
    ins = parse_dockerfile(CASES["heredoc_basic"][0]).instructions[1]
    assert [(h.name, h.body, h.expand, h.strip_tabs, h.start_line, h.end_line) for h in ins.heredocs] == [
        ("EOF", "set -e\nFROM not-an-instruction\n# not a comment\n", True, False, 3, 6)
    ]
    assert ins.original == "RUN <<EOF"


def test_heredoc_forms() -> None:
    run, copy = parse_dockerfile(CASES["heredoc_forms"][0]).instructions[1:]
    assert [(h.name, h.body, h.expand, h.strip_tabs, h.start_line, h.end_line) for h in run.heredocs] == [
        ("EOF", "hello $X\n", False, False, 3, 4),
        ("PY", "print(1)\n", False, True, 5, 6),
    ]
    assert [(h.name, h.body, h.expand) for h in copy.heredocs] == [("EOF", "x\n", True)]


def test_heredoc_partly_quoted_and_crlf() -> None:
    ins = parse_dockerfile('FROM x\r\nRUN <<E"O"F\r\na\r\nEOF\r\n').instructions[1]
    assert [(h.name, h.body, h.expand, h.end_line) for h in ins.heredocs] == [("EOF", "a\n", False, 4)]


def test_heredoc_on_continued_line() -> None:
    ins = parse_dockerfile(CASES["heredoc_continued"][0]).instructions[1]
    assert [(h.name, h.body, h.start_line) for h in ins.heredocs] == [("EOF", "body\n", 4)]


# Not in CASES (so not exported to the oracle): the PyPI `dockerfile` wrapper bundles a BuildKit older
# than dockerfile 1.16, where `<< EOF` was no heredoc.
def test_heredoc_after_blanks() -> None:
    """BuildKit's lexer (processPossibleHeredoc, dockerfile 1.16, moby/buildkit#5817) keeps the spaces,
    tabs and CRs after `<<` in its word and reHeredoc's `\\s*` drops them: `<< EOF` opens EOF."""
    text = (
        "FROM x\n"
        "RUN cat > f << 'EOF'\nFROM not-an-instruction\nEOF\n"
        "COPY <<\t  X /x\nbody\nX\n"
        "RUN << -E\nRUN inside\n-E\n"
        "RUN 3<< EOF cat\na\nEOF\n"
        "RUN cat <<\n"
        "RUN echo '<< EOF'\n"
    )
    ins = parse_dockerfile(text).instructions
    assert [(i.keyword, i.start_line, i.end_line) for i in ins] == [
        ("FROM", 1, 1),
        ("RUN", 2, 4),
        ("COPY", 5, 7),
        ("RUN", 8, 10),
        ("RUN", 11, 13),
        ("RUN", 14, 14),
        ("RUN", 15, 15),
    ]
    assert [(h.name, h.body, h.expand, h.strip_tabs) for i in ins for h in i.heredocs] == [
        ("EOF", "FROM not-an-instruction\n", False, False),
        ("X", "body\n", True, False),
        # `-` after the blanks is the name's: only `<<-` written together chomps.
        ("-E", "RUN inside\n", True, False),
        ("EOF", "a\n", True, False),
    ]


def test_heredoc_with_blanks_left_open() -> None:
    with pytest.raises(DockerfileError, match="heredoc EOF is never closed") as info:
        parse_dockerfile("FROM x\nRUN cat << EOF\nabc\n")
    assert info.value.line == 2


def test_space_after_chomp_dash_is_named_when_its_body_fails() -> None:
    """`<<- EOF` opens nothing in BuildKit: its body lines are instructions, and the error says why."""
    parsed = parse_dockerfile("FROM x\nRUN cat <<- EOF > /f\n\thello\n\tEOF\n")
    with pytest.raises(DockerfileError) as info:
        evaluate(parsed)
    assert str(info.value) == (
        "Dockerfile:3: unknown instruction: HELLO (did you mean SHELL?) (line 2 writes `<<- EOF`, a space "
        "after `<<-`, which BuildKit takes for no heredoc, so the lines below it are read as instructions; "
        "write `<<-EOF`)"
    )
    # An error with no such opener above it is left as it is.
    with pytest.raises(DockerfileError) as plain:
        evaluate(parse_dockerfile("FROM x\nRUN true\nHELLO\n"))
    assert "<<-" not in str(plain.value)
    # An opener after the failing line, or a heredoc that did open in between, explains nothing.
    with pytest.raises(DockerfileError) as later:
        evaluate(parse_dockerfile("FROM x\nRUN cat <<- A\nRUN <<EOF\nb\nEOF\nHELLO\n"))
    assert "<<-" not in str(later.value)


def test_onbuild_heredoc() -> None:
    ins = parse_dockerfile("FROM x\nONBUILD RUN <<EOF\nRUN a\nEOF\nRUN b\n").instructions
    assert [(i.keyword, i.end_line, len(i.heredocs)) for i in ins] == [
        ("FROM", 1, 0),
        ("ONBUILD", 4, 1),
        ("RUN", 5, 0),
    ]


def test_flag_objects() -> None:
    ins = parse_dockerfile("COPY --FROM=build --link a b\n").instructions[0]
    assert [(f.name, f.value) for f in ins.flags] == [("from", "build"), ("link", None)]
    assert ins.flag("from") is not None and ins.flags_named("link")[0].value is None


def test_exec_form() -> None:
    run, cmd, entry = parse_dockerfile(CASES["exec_form"][0]).instructions[1:]
    assert run.exec_form == ("pip", "install", "x==1")
    assert cmd.exec_form is None
    assert entry.exec_form == ()
    assert parse_dockerfile('LABEL ["a"]\n').instructions[0].exec_form is None


def test_comment_blocks() -> None:
    ins = parse_dockerfile(CASES["comments"][0]).instructions
    assert [i.comment for i in ins] == [("Base image", "pinned"), ("Kept",), ()]


def test_comment_lines_are_where_the_comments_are() -> None:
    text = "# for a docker image with:\n# CUDA 10.0\n\n# base\nFROM ubuntu:22.04\n#\n# kept\nRUN true\n"
    first, second = parse_dockerfile(text).instructions
    assert first.comment == ("for a docker image with:", "CUDA 10.0", "base")
    assert first.comment_lines == (1, 2, 4)
    assert (second.comment, second.comment_lines) == (("kept",), (7,))


def test_empty_text() -> None:
    assert parse_dockerfile("").instructions == ()
    assert parse_dockerfile("# only a comment\n\n").instructions == ()


# read_dockerfile


def test_read_file(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_bytes(b"\xef\xbb\xbfFROM x\r\n")
    parsed = read_dockerfile(path, display="docker/Dockerfile")
    assert parsed.path == "docker/Dockerfile" and rows(parsed) == [("FROM", (), "x", 1, 1)]
    assert read_dockerfile(str(path)).path == str(path)


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"FROM x\nRUN echo \xff\n", 2, "not UTF-8 text"),
        (b"FROM x\n\nRUN a\0\n", 3, "binary file"),
        (b"FROM x\n" + b"#" * MAX_FILE_BYTES, None, "larger than 10 MiB"),
    ],
)
def test_read_errors(tmp_path: Path, data: bytes, line: int | None, message: str) -> None:
    path = tmp_path / "Dockerfile"
    path.write_bytes(data)
    with pytest.raises(DockerfileError) as err:
        read_dockerfile(path, display="D")
    assert err.value.path == "D" and err.value.line == line and message in err.value.message


def test_read_missing(tmp_path: Path) -> None:
    with pytest.raises(DockerfileError) as err:
        read_dockerfile(tmp_path / "nope")
    assert "No such file or directory" in str(err.value)
    with pytest.raises(DockerfileError):
        read_dockerfile(tmp_path)  # a directory


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux's /proc")
def test_a_file_longer_than_its_stated_size_is_read_whole() -> None:
    """A /proc file says it has 0 bytes and has more: read on to the limit, not cut at the stated size."""
    data = read_dockerfile_bytes("/proc/self/status", "status")
    assert os.stat("/proc/self/status").st_size == 0
    assert len(data) > 100 and data.startswith(b"Name:") and data.endswith(b"\n")


def test_long_continuation_is_fast() -> None:
    text = "FROM x\nRUN a \\\n" + "  pkg \\\n" * 100_000 + "  end\n"
    ins = parse_dockerfile(text).instructions[1]
    assert (ins.start_line, ins.end_line) == (2, 100_003)
    assert ins.args.endswith("pkg   end")


# Fragments that exercise every branch of the reader; "|" separates them.
_ALPHABET = st.sampled_from(
    "\n|\r\n|\\|`|#| |\t|RUN |FROM x|<<|<<-|EOF|'|\"|$|{|}|[|]|,|--|=|a|\ufeff".split("|")
    + ["# escape=`", "COPY ", "ONBUILD "]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_raises_only_dockerfile_error(text: str) -> None:
    try:
        parsed = parse_dockerfile(text)
    except DockerfileError:
        return
    for ins in parsed.instructions:
        assert 1 <= ins.start_line <= ins.end_line


def export_cases() -> None:
    """Write every case to `tests/data/reader/<name>.Dockerfile` (for the BuildKit oracle)."""
    DATA.mkdir(parents=True, exist_ok=True)
    for old in DATA.glob("*.Dockerfile"):
        if old.stem not in CASES and old.stem not in ERROR_CASES:
            old.unlink()
    texts = {name: text for name, (text, _) in CASES.items()}
    texts.update((name, text) for name, (text, _, _) in ERROR_CASES.items())
    for name, text in texts.items():
        (DATA / f"{name}.Dockerfile").write_bytes(text.encode())


if __name__ == "__main__":
    export_cases()
    print(f"wrote {len(CASES) + len(ERROR_CASES)} files to {DATA}")
