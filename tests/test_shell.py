"""`${V#p}`, `${V##p}`, `${V%p}`, `${V%%p}` and the shell word lexer on any text and on very long values.

The prefix/suffix forms run the glob as an automaton, one step per character of the value, instead of
trying `fnmatch` at every length. Here they are compared with that plain definition (shortest or longest
prefix or suffix `fnmatch.fnmatchcase` accepts), on hand-picked, generated and very long values. How the
cost grows is measured in `benchmarks/bench_scale.py`, not here.
"""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.shell import dash_rejected, expand, sh_code, sh_tokens, sh_words, shell_split, split_words


def reference(value: str, op: str, pattern: str) -> str:
    """The modifier by its definition: try every prefix (suffix) length, shortest or longest first."""
    n = len(value)
    if op in ("#", "##"):
        for end in range(n + 1) if op == "#" else range(n, -1, -1):
            if fnmatch.fnmatchcase(value[:end], pattern):
                return value[end:]
        return value
    for start in range(n, -1, -1) if op == "%" else range(n + 1):
        if fnmatch.fnmatchcase(value[start:], pattern):
            return value[:start]
    return value


def modified(value: str, op: str, pattern: str) -> str:
    return expand("${V" + op + pattern + "}", {"V": value}).text


@pytest.mark.parametrize("op", ["#", "##", "%", "%%"])
@pytest.mark.parametrize(
    ("value", "pattern"),
    [
        ("file.tar.gz", ".*"),
        ("file.tar.gz", "*."),
        ("a/b/c", "*/"),
        ("a/b/c", "/*"),
        ("v1.2.3", "v"),
        ("v1.2.3", "[vV]"),
        ("v1.2.3", "[!0-9]"),
        ("v1.2.3", "?"),
        ("v1.2.3", "*"),
        ("v1.2.3", ""),
        ("", "*"),
        ("", "a"),
        ("abcabc", "a*c"),
        ("abcabc", "*b*"),
        ("a]b", "[]]*"),
        ("a[b", "[*"),
        ("rocm-7.0.2", "*[0-9]"),
    ],
)
def test_prefix_and_suffix_forms(value: str, pattern: str, op: str) -> None:
    assert modified(value, op, pattern) == reference(value, op, pattern)


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="ab./-", max_size=12),
    st.sampled_from(["#", "##", "%", "%%"]),
    st.text(alphabet="ab./*?[]!-", max_size=6),
)
def test_prefix_and_suffix_forms_on_any_value(value: str, op: str, pattern: str) -> None:
    assert modified(value, op, pattern) == reference(value, op, pattern)


def test_very_long_values() -> None:
    value = "x/" * 50_000 + "file.tar.gz"
    assert modified(value, "##", "*/") == "file.tar.gz"
    assert modified(value, "#", "*/") == value[2:]
    assert modified(value, "%", ".*") == value[: -len(".gz")]
    assert modified(value, "%%", ".*") == value[: -len(".tar.gz")]
    assert modified(value, "%%", "/*") == "x"
    assert modified(value, "#", "*q") == value  # no match anywhere


def test_split_words_keeps_quotes_and_escapes() -> None:
    assert split_words('A=1 B=\'x y\' C="a\\"b c" D\\ E') == ["A=1", "B='x y'", 'C="a\\"b c"', "D\\ E"]
    assert split_words("A=`x B", "`") == ["A=`x", "B"]


def test_split_words_with_an_unterminated_quote_or_final_escape() -> None:
    assert split_words("A=1 B='x y") == ["A=1", "B='x y"]
    assert split_words('A="x \\" y') == ['A="x \\" y']
    assert split_words("A=1 B\\") == ["A=1", "B"]
    long = "A=" + "x" * 100_000 + ' "' + "y " * 1000  # would backtrack exponentially in a nested regex
    assert split_words(long) == ["A=" + "x" * 100_000, '"' + "y " * 1000]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("docker build . # nightly", "docker build . "),
        ("docker build .\t#nightly", "docker build .\t"),
        ('docker run -e NOTE="rev #4" app', 'docker run -e NOTE="rev #4" app'),
        ("docker run -e NOTE='rev #4' app # then", "docker run -e NOTE='rev #4' app "),
        ("pip install git+https://x.example/r.git#egg=r", "pip install git+https://x.example/r.git#egg=r"),
        ("echo ${#NAME} $# a\\ #b", "echo ${#NAME} $# a\\ #b"),  # not a word's start, or escaped
        ('echo "a \\" #b" # c', 'echo "a \\" #b" '),  # an escaped quote does not close the value
        ("echo a\\\\ #b", "echo a\\\\ "),  # an escaped backslash, then a blank: a comment
        ("cd src;# go on", "cd src;"),  # after an operator a word starts
        ("# all of it", ""),
        ('echo "open #1', 'echo "open #1'),  # an open quote runs to the end
    ],
)
def test_sh_code_cuts_a_comment_where_the_shell_starts_one(line: str, code: str) -> None:
    assert sh_code(line) == code


def test_sh_words_are_the_shell_words_before_the_comment() -> None:
    assert sh_words('build --build-arg URL=https://x/#frag -e N="a #1" . # --build-arg LATE=1') == [
        "build",
        "--build-arg",
        "URL=https://x/#frag",
        "-e",
        "N=a #1",
        ".",
    ]
    assert sh_words("build . # it's late") == ["build", "."]  # the comment's quote is no quote
    with pytest.raises(ValueError):
        sh_words('build -e N="a #1 .')


def test_sh_code_is_linear_on_a_long_line() -> None:
    import time

    def cost(n: int) -> float:
        line = ('a"#' * n) + " #"
        began = time.perf_counter()
        sh_code(line)
        return time.perf_counter() - began

    cost(1000)
    assert cost(400_000) < 40 * cost(100_000) + 0.05


@pytest.mark.parametrize(
    ("command", "tokens"),
    [
        ("a && && b", ["a", "&&!", "&&!", "b"]),
        ("a&&b", ["a", "&&!", "b"]),
        ("find . -exec rm {} \\; && ls", ["find", ".", "-exec", "rm", "{}", "\\;", "&&!", "ls"]),
        ("echo '&&' \"x;y\" && b", ["echo", "'&&'", '"x;y"', "&&!", "b"]),
        ("x=$(a; b) && c", ["x=$(a; b)", "&&!", "c"]),
        ('echo "$(echo ")")" ; x', ["echo", '"$(echo ")")"', ";!", "x"]),
        ("ls 2>&1 | grep `echo ;`", ["ls", "2", ">&!", "1", "|!", "grep", "`echo ;`"]),
        ("a ${X:-;} # && &&", ["a", "${X:-;}"]),
        ('test -n "$X" && echo a > /f', ["test", "-n", '"$X"', "&&!", "echo", "a", ">!", "/f"]),
    ],
)
def test_sh_tokens(command: str, tokens: list[str]) -> None:
    assert [t.text + ("!" if t.operator else "") for t in sh_tokens(command)] == tokens


@pytest.mark.parametrize("command", ["echo 'open", 'echo "open', "x=$(a", "echo `a", "${X"])
def test_sh_tokens_left_open(command: str) -> None:
    with pytest.raises(ValueError):
        sh_tokens(command)


def test_sh_tokens_deep_nesting_without_recursion() -> None:
    with pytest.raises(ValueError):
        sh_tokens('"$(' * 20000)
    deep = "echo " + '"$(' * 5000 + "x" + ')"' * 5000 + " && ls"
    assert [t.text for t in sh_tokens(deep)][-2:] == ["&&", "ls"]


def test_a_split_kept_for_the_next_rule_is_not_changed_by_the_last_one() -> None:
    """`shell_split` keeps its answers (about ten rules split each README command): each caller gets
    a list of its own, so one rule's edit of its words is not another rule's input."""
    first = shell_split("docker run -e A=1 img")
    first.append("--rm")
    assert shell_split("docker run -e A=1 img") == ["docker", "run", "-e", "A=1", "img"]
    with pytest.raises(ValueError):
        shell_split("docker run 'open")
    with pytest.raises(ValueError):  # an error is not kept as an answer either
        shell_split("docker run 'open")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # modelled on a fine-tuning image that activates conda in its RUN
        ("source activate base && conda env create -f /tmp/environment.yaml", [("source", "command", True)]),
        ("X=1 source /opt/ros/humble/setup.sh && colcon build", [("source", "command", True)]),
        ("[[ -f /tmp/a ]] && echo yes", [("[[", "command", True)]),
        ('if [[ "$MODE" == prod ]]; then echo; fi', [("[[", "command", False)]),
        ('[ "$MODE" == prod ] && pip install gunicorn', [("== in [ ]", "command", True)]),
        ("test $A == $B || true", [("== in test", "command", False)]),
        ("apt-get update; source /etc/profile; make", [("source", "command", False)]),
        ("function fetch { curl -fsSL $1; }; fetch x", [("function", "syntax", True)]),
        ("cat <<< $KEY > /key", [("<<<", "syntax", True)]),
        ("curl x |& tee log", [("|&", "syntax", True)]),
        ("PKGS=(a b) && apt-get install ${PKGS}", [("PKGS=(…)", "syntax", True)]),
        ('echo "${VERSION//./_}" > /v', [("${VERSION//", "expansion", True)]),
        ("echo ${SHA:0:7}", [("${SHA:0:7}", "expansion", True)]),
        ("if true; then echo ${NAME^^}; fi", [("${NAME^^}", "expansion", False)]),
        ("mkdir -p /data/{raw,cache}", [("{raw,cache}", "literal", False)]),
        ("cp /src/{a,b}.py /app/", [("{a,b}", "command", True)]),
        # what dash reads as bash does, or does not run itself
        ("bash -c 'source activate base && conda info'", []),
        ('bash -c "source /opt/venv/bin/activate" && echo', []),
        ("echo '${X//a/b}' > /t", []),
        (". /opt/venv/bin/activate && pip install x", []),
        ("echo ${X:-a} ${#X} ${X%.*} ${X#*/}", []),
        ("set -o pipefail && curl -fsSL x | sh", []),
        ("echo source the env && echo {a,b}", []),
        ("mkdir -p /app && echo 'cp {a,b}' && chmod -R 755 ${DIR}", []),
        ("echo 'unclosed", []),
    ],
)
def test_what_dash_rejects(command: str, expected: list[tuple[str, str, bool]]) -> None:
    found = [(r.construct, r.kind, r.fails) for r in dash_rejected(command)]
    if expected and expected[0][0].endswith("//"):
        found = [(c[: len(expected[0][0])], k, f) for c, k, f in found]
    assert found == expected
