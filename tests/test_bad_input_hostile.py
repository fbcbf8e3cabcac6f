"""Rows of docs/bad-input.md found by a hostile tester: template arithmetic, a console that cannot print
UTF-8, unknown instructions, fences in list items, config entries naming one row twice or nothing, and
costs that grew faster than the input (checked by structure and operation counts, never by time)."""

from __future__ import annotations

import os
import posixpath
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree, run
from test_bad_input import DOCKERFILE, PYPROJECT, README, assert_error, synced
from test_bad_input import project as project  # the fixture

from docgen import audit, markers
from docgen.audit import auditor
from docgen.markers import find_blocks
from docgen.pipeline import build_model
from docgen.sources.context import RunContext, StageState
from docgen.sources.script import make_word

WITH_TEMPLATES = PYPROJECT.replace("[tool.docgen]\n", '[tool.docgen]\ntemplates = "tpl"\n')


def with_template(project: Path, text: str) -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, "tpl/versions.md.j2": text})


# --------------------------------------------------------------------------------------------------
# Template arithmetic: bounded before it is computed, reported at the template's line


CANNOT = "tpl/versions.md.j2:2: cannot render versions.md.j2: "
TOO_MANY_BITS = "makes a number of more than 14,000 bits (about 4,200 digits)\n"


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("{{ 2 ** 20000 }}", "** " + TOO_MANY_BITS),  # folded by Jinja2 at compile time, then unprintable
        ("{{ 10 ** 100000000 }}", "** " + TOO_MANY_BITS),  # minutes of computing
        ("{{ (2 ** 10000) * (2 ** 10000) }}", "* " + TOO_MANY_BITS),
        ('{{ "x" * 10**9 }}', "* would make 1,000,000,000 characters or items (more than 8,388,608)\n"),
        ('{{ 1000000000 * "x" }}', "* would make 1,000,000,000 characters or items (more than 8,388,608)\n"),
        ("{{ [0] * 10**9 }}", "* would make 1,000,000,000 characters or items (more than 8,388,608)\n"),
        ('{{ "x" * 20000000 }}', "* would make 20,000,000 characters or items (more than 8,388,608)\n"),
        ('{{ "%0999999999d" % 1 }}', "% would make 999,999,999 characters or items (more than 8,388,608)\n"),
        (
            '{{ "%*d" % (10**9, 1) }}',
            "% would make 1,000,000,000 characters or items (more than 8,388,608)\n",
        ),
        (
            '{{ "{:>999999999}".format(1) }}',
            "str.format would make 999,999,999 characters or items (more than 8,388,608)\n",
        ),  # fmt: skip
        (
            '{{ "x".ljust(10**9) }}',
            "str.ljust would make 1,000,000,000 characters or items (more than 8,388,608)\n",
        ),
        (
            '{{ "x"|center(1000000000) }}',
            "|center would make 1,000,000,000 characters or items (more than 8,388,608)\n",
        ),  # fmt: skip
        (
            '{{ ("x" * 1000)|replace("x", "y" * 100000) }}',
            "|replace would make 100,000,000 characters or items (more than 8,388,608)\n",
        ),  # fmt: skip
        (
            "{{ [1]|batch(1000000000, 0)|list }}",
            "|batch would make 1,000,000,000 characters or items (more than 8,388,608)\n",
        ),  # fmt: skip
        (
            "{{ lipsum(1000000000) }}",
            "lipsum() would make 800,000,000,000 characters or items (more than 8,388,608)\n",
        ),
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "the loops ran more than 10,000,000 times\n",  # it printed nothing, so ran for hours
        ),
        (
            "{% set r = range(100000) %}{% for i in r %}{% for j in r %}{% endfor %}{% endfor %}",
            "the loops ran more than 10,000,000 times\n",
        ),
        (
            '{% macro f(s, n) %}{{ f(s ~ s, n - 1) if n else s|length }}{% endmacro %}{{ f("x", 40) }}',
            "~ makes a value of 16,777,216 characters or items (more than 8,388,608)\n",
        ),
        (
            '{% macro f(s, n) %}{{ f(s + s, n - 1) if n else s|length }}{% endmacro %}{{ f("x", 40) }}',
            "+ makes a value of 16,777,216 characters or items (more than 8,388,608)\n",
        ),
    ],
)
def test_template_arithmetic_is_bounded(project: Path, expression: str, message: str) -> None:
    """Each used to end in a traceback (`ValueError: Exceeds the limit (4300 digits)`), run for
    minutes, or take gigabytes (`'x' * 10**9`: 28 s and 4.9 GB) before the size check."""
    with_template(project, "Versions:\n" + expression + "\n")
    assert_error(("sync",), CANNOT + message, project)


def test_ordinary_arithmetic_still_renders(project: Path) -> None:
    with_template(
        project,
        '{{ ("ab" ~ "c") * 2 }} {{ 3 * 4 }} {{ 2 ** 10 }} {{ "%5s|%-3d" % ("a", 7) }} '
        '{{ "a,b"|replace(",", "; ") }} {{ ["a", "b"]|join(", ") }} {{ 1 + 2 }} {{ "a" + "b" }} '
        '{{ "{:>4}".format(7) }} {{ "x"|center(5) }}|{{ 2 ** 1000 % 7 }} {{ "=" * 3 }}\n'
        '{% for i in range(3) %}{{ loop.index }}/{{ loop.length }}{{ "," if not loop.last }}{% endfor %} '
        "{% for x in [] %}x{% else %}empty{% endfor %} {% for x in [1, 2] if x > 1 %}{{ x }}{% endfor %}\n",
    )
    assert "abcabc 12 1024     a|7   a; b a, b 3 ab    7   x  |2 ===\n1/3,2/3,3/3 empty 2\n" in synced(
        project
    )


@pytest.mark.parametrize(
    "template",
    [
        "{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}",
        "{{ " + "-" * 5000 + "1 }}",
        "{% if 1 %}" * 3000 + "x" + "{% endif %}" * 3000,
        "{{ 1" + " + 1" * 20000 + " }}",
    ],
    ids=["parentheses", "minus", "if", "plus"],
)
def test_deeply_nested_template_names_the_template(project: Path, template: str) -> None:
    """It used to say `docgen: error: the input is nested too deeply to read` with no file at all."""
    with_template(project, "Versions:\n" + template + "\n")
    assert_error(
        ("sync",),
        "tpl/versions.md.j2:2: template error: the template is nested too deeply to compile "
        "(Python's recursion limit)\n",
        project,
    )


# --------------------------------------------------------------------------------------------------
# A console that cannot print UTF-8


def _docgen(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m docgen ARGV` with an ASCII-only console."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    return subprocess.run(
        [sys.executable, "-m", "docgen", *argv],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        encoding="ascii",
        errors="strict",  # the test itself would fail on anything but ASCII
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("argv", "code", "expected"),
    [
        (("show",), 0, "default '\\xe9t\\xe9'"),
        (("show", "--format", "json"), 0, '"default": "\\u00e9t\\u00e9"'),
        (("check",), 1, "+| `ROCM_VERSION` | `7.0.2-\\xe9t\\xe9` |"),
        (("lint", "Dockerfile"), 0, ""),
        (("audit", "--confidence", "likely", "NOTES.md"), 1, "NOTES.md:1: error: README says"),
        (("sync",), 0, "README.md: updated"),
        (("check",), 0, "up to date"),
    ],
)
def test_an_ascii_console_gets_escapes_not_a_traceback(
    project: Path, argv: tuple[str, ...], code: int, expected: str
) -> None:
    make_tree(
        project,
        {
            "Dockerfile": DOCKERFILE.replace("7.0.2", "7.0.2-été") + "# NOTE note\nARG NOTE=été\n",
            "NOTES.md": "The image has ROCm 6.0 (été).\n",
        },
    )
    if argv == ("check",) and code == 0:
        assert run("sync").code == 0
    result = _docgen(project, *argv)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == code, result.stderr
    assert expected in result.stdout + result.stderr


def test_an_ascii_console_gets_error_messages_escaped(project: Path) -> None:
    make_tree(project, {"Dockerfile": "FROM ubuntu:22.04\nRÜN true\n"})
    result = _docgen(project, "show")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "Dockerfile:2: unknown instruction: R\\xdcN (did you mean RUN?)\n"


# --------------------------------------------------------------------------------------------------
# Unknown instructions


UNKNOWN = "Dockerfile:2: unknown instruction: RUNN (did you mean RUN?)\n"


@pytest.mark.parametrize(
    "argv",
    [
        ("show",),
        ("lint", "Dockerfile"),
        ("sync",),
        ("check",),
        ("audit", "README.md", "--dockerfile", "Dockerfile"),
    ],
)
def test_an_unknown_instruction_is_refused_by_every_command(project: Path, argv: tuple[str, ...]) -> None:
    """It used to be accepted in silence, and its line vanished from every table."""
    make_tree(project, {"Dockerfile": "FROM ubuntu:22.04\nRUNN pip install torch==2.3.0\n"})
    assert_error(argv, UNKNOWN, project)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("FOO bar", "unknown instruction: FOO"),
        ("runn true", "unknown instruction: RUNN (did you mean RUN?)"),
        ("copyy a b", "unknown instruction: COPYY (did you mean COPY?)"),
        ("RUN\u00a0true", "unknown instruction: RUN\u00a0TRUE"),  # not a space to BuildKit's keyword split
    ],
)
def test_unknown_instructions_are_named_as_written(project: Path, line: str, message: str) -> None:
    make_tree(project, {"Dockerfile": f"FROM ubuntu:22.04\n{line}\n"})
    assert_error(("show",), f"Dockerfile:2: {message}\n", project)


def test_every_known_instruction_and_an_onbuild_of_an_unknown_one_are_read(project: Path) -> None:
    """BuildKit reads the instruction an ONBUILD holds only in a later build FROM this image."""
    make_tree(
        project,
        {
            "Dockerfile": "from ubuntu:22.04\nmaintainer me\nlabel a=b\nexpose 80\nenv A=1\nadd a b\n"
            "copy a b\nentrypoint x\nvolume /v\nuser u\nworkdir /w\narg B=2\nonbuild FOO bar\nstopsignal 9\n"
            'healthcheck NONE\nshell ["sh", "-c"]\nrun true\ncmd x\n'
        },
    )
    assert run("show").code == 0


def test_the_mkdocs_plugin_refuses_an_unknown_instruction(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    mkdocs = pytest.importorskip("mkdocs.commands.build")
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    make_tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\n'
            'pages = ["page.md"]\n',
            "Dockerfile": "FROM ubuntu:22.04\nRUNN pip install torch==2.3.0\n",
            "mkdocs.yml": "site_name: t\ntheme: mkdocs\nplugins: [docgen]\n",
            "docs/page.md": "# Page\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n",
        },
    )
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(Abort):
            mkdocs.build(load_config(str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site")))
    finally:
        os.chdir(cwd)
    assert UNKNOWN.rstrip("\n") in caplog.text


# --------------------------------------------------------------------------------------------------
# Fences in list items


LIST_FENCES = {
    "unclosed in its item": "- Build it:\n  ```sh\n  docker build .\n- Run it.\n\n",
    "opened on the item's line": "- ```sh\n  docker build .\n  ```\n\n",
    "in an ordered item": "1. Build:\n\n   ```sh\n   docker build .\n   ```\n2. Done\n\n",
    "nested items": "- a\n  - b\n    ```\n    x\n  - c\n\n",
}


@pytest.mark.parametrize("before", LIST_FENCES.values(), ids=LIST_FENCES.keys())
def test_a_fence_in_a_list_item_ends_with_the_item(project: Path, before: str) -> None:
    """Such a fence used to run to the end of the file, so the valid markers after it were refused
    (`no docgen block …; a code fence opened at line 2 is never closed`)."""
    make_tree(project, {"README.md": "# Image\n\n" + before + README})
    assert run("sync").code == 0
    assert run("check").code == 0
    assert [b.name for b in find_blocks((project / "README.md").read_text())] == ["versions", "build-args"]


def test_list_fences_agree_with_commonmark() -> None:
    """markdown-it-py (a CommonMark parser) as the oracle: the lines it puts in code blocks are the
    lines `markers.Fences` calls code, for list-item fences and the plain ones around them."""
    markdown_it = pytest.importorskip("markdown_it")
    texts = [*LIST_FENCES.values(), "```\na\n```\n", "- x\n\n  ~~~\n  y\n  ~~~\n- z\n", "> q\n\n```\nopen\n"]
    for text in texts:
        document = text + "<!-- BEGIN docgen:versions -->\nafter\n"
        tokens = markdown_it.MarkdownIt("commonmark").parse(document)
        code = set()
        for token in tokens:
            if token.type == "fence" and token.map:
                code.update(range(token.map[0], token.map[1]))
        fences = markers.Fences()
        mine = {i for i, line in enumerate(document.splitlines()) if fences.step(line) != markers.OUTSIDE}
        assert mine == code, text


# --------------------------------------------------------------------------------------------------
# Config entries that name one row twice, or nothing


def test_versions_naming_one_row_twice_is_a_config_error(project: Path) -> None:
    """It used to say the Dockerfile `may have dropped` ROCM_VERSION."""
    make_tree(project, {"pyproject.toml": PYPROJECT + 'versions = ["ROCM_VERSION", "ROCm"]\n'})
    assert_error(
        ("sync",),
        "pyproject.toml:6: versions: 'ROCM_VERSION' and 'ROCm' name the same row (ROCm, Dockerfile:3); "
        "list each row once\n",
        project,
    )
    make_tree(project, {"pyproject.toml": PYPROJECT + 'versions = ["rocm", "ROCm"]\n'})
    assert_error(
        ("sync",), "pyproject.toml:6: versions: 'ROCm' is listed twice; list each row once\n", project
    )


@pytest.mark.parametrize(
    ("config", "line"),
    [
        (PYPROJECT.replace("[tool.docgen]\n", '[tool.docgen]\narch-arg = "GPU_ARCHS"\n'), 2),
        (PYPROJECT + 'arch-arg = "GPU_ARCHS"\n', 6),
    ],
    ids=["top-level", "image"],
)
def test_a_mistyped_arch_arg_is_a_config_error(project: Path, config: str, line: int) -> None:
    """It used to leave Supported hardware empty in silence, while a mistyped `versions` entry failed."""
    make_tree(project, {"pyproject.toml": config, "Dockerfile": DOCKERFILE + "ARG GPU_ARCH=gfx942\n"})
    assert_error(
        ("sync",),
        f"pyproject.toml:{line}: arch-arg = 'GPU_ARCHS' names no ARG or ENV of Dockerfile "
        "(known: GPU_ARCH)\n",
        project,
    )
    make_tree(project, {"pyproject.toml": config.replace("GPU_ARCHS", "GPU_ARCH")})
    assert run("sync").code == 0


def test_the_default_arch_arg_may_be_missing(project: Path) -> None:
    """A CUDA image has no GPU_ARCH; with no `arch-arg` in the config that is not an error."""
    assert run("sync").code == 0


# --------------------------------------------------------------------------------------------------
# Costs that grew faster than the input (structure and counts; the times are in benchmarks/)


class _CountingDict(dict[str, object]):
    lookups = 0

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        type(self).lookups += 1
        return super().get(key, default)

    def items(self) -> Any:
        type(self).lookups += len(self)  # a scan looks at every clone
        return super().items()


def test_finding_the_clone_of_a_folder_does_not_scan_every_clone() -> None:
    """`repo_at` scanned every clone of the stage for each command: 4x the clones cost 8.4x. It now
    looks up the folder and each folder above it."""
    stage = StageState("s")
    repos = _CountingDict({f"/src/r{i}": object() for i in range(10_000)})
    stage.repos = repos  # type: ignore[assignment]
    stage.repo_depth = 2  # (as `sources.git` keeps it for the clones it adds: `/src/rN`)
    context = RunContext.__new__(RunContext)
    context.stage = stage
    assert context.repo_at("/src/r9999/build/lib") is repos["/src/r9999"]
    assert context.repo_at("/opt/x") is None
    assert _CountingDict.lookups <= 4 + 3


def test_words_have_no_dict() -> None:
    """A 10 MiB line of short words is 3.5 million words; a `__dict__` each tripled their memory
    (1.1 GB for that line; now about 0.6 GB at peak, measured in benchmarks/bench_scale.py)."""
    word = make_word("ab", frozenset(), True, False, 1)
    assert not hasattr(word, "__dict__")
    assert word.text == "ab" and word.line == 1


def test_audit_looks_up_only_words_that_can_name_something(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """audit looked every word (and every two and three words) of the prose up: 2.4 s per MB. Now
    only a name whose letters spell something the Dockerfile pins is looked up."""
    calls: list[str] = []
    lookup = auditor.Facts.lookup

    def counted(self: auditor.Facts, name: str, names: Mapping[str, str]) -> list[object]:
        calls.append(name)
        return lookup(self, name, names)  # type: ignore[return-value]

    monkeypatch.setattr(auditor.Facts, "lookup", counted)
    prose = "The image ships many w1 w2 w3 words, and ROCm 7.0.2 too.\n" * 100
    assert audit.audit(prose, "NOTES.md", build_model(project / "Dockerfile", "Dockerfile")) == []
    assert set(calls) == {"ROCm"}


# --------------------------------------------------------------------------------------------------
# Found after the fixes: line separators other than \n, and NUL in the config


def test_line_separators_in_a_value_stay_in_one_row(project: Path) -> None:
    """U+2028, NEL and form feeds are no line break to Markdown but are to `str.splitlines`: raw in a
    cell, `check` showed one table row as three and blamed the wrong line."""
    make_tree(
        project, {"Dockerfile": DOCKERFILE + '# A first.\nARG A="x\u2028y\x85z"\n# C third.\nARG C=2\n'}
    )
    text = synced(project)
    assert "| `A` | <code>x&#x2028;y&#x85;z</code> | first. | base |\n" in text
    make_tree(
        project, {"Dockerfile": DOCKERFILE + '# A first.\nARG A="x\u2028y\x85z"\n# C third.\nARG C=3\n'}
    )
    result = run("check")
    assert "(changed rows come from line 7)\nDockerfile:7: behind the row 'C'\n" in result.out
    assert "-| `C` | `2` | third. | base |\n+| `C` | `3` | third. | base |\n" in result.out


def test_lint_counts_heredoc_lines_as_buildkit_does(project: Path) -> None:
    """A U+2028 or NEL in a heredoc moved every later warning down a line (`splitlines`)."""
    make_tree(
        project,
        {
            "Dockerfile": "ARG MAX_JOBS=4\nFROM ubuntu:22.04\nRUN <<EOF\n"
            "echo a\u2028b\x85c\nmake -j${MAX_JOBS}\nEOF\n"
        },
    )
    result = run("lint", "Dockerfile")
    assert result.out.startswith("Dockerfile:5: warning: ${MAX_JOBS} is used in stage #0")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('names = { ROCM_VERSION = "R\\u0000OCm" }', "[[tool.docgen.images]].names"),
        ('versions = ["ROCm\\u0000"]', "[[tool.docgen.images]].versions"),
        ('dockerfile = "Docker\\u0000file"', "[[tool.docgen.images]].dockerfile"),
    ],
)
def test_a_nul_in_a_config_string_is_refused(project: Path, entry: str, message: str) -> None:
    """A display name with `\\u0000` was written into the README as a NUL byte (a binary file to git)."""
    config = PYPROJECT.replace('dockerfile = "Dockerfile"\n', "") if "dockerfile" in entry else PYPROJECT
    make_tree(project, {"pyproject.toml": config + entry + "\n"})
    line = config.count("\n") + 1
    assert_error(
        ("sync",),
        f"pyproject.toml:{line}: {message} holds a NUL character (\\u0000), which no path, name or row "
        "can have\n",
        project,
    )


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, "{a=" * 3000 + "1" + "}" * 3000])
def test_a_config_nested_thousands_deep_is_an_error_not_a_traceback(project: Path, nested: str) -> None:
    """`docgen check` (the console script, whose fast path reads the config first) ended in a
    RecursionError traceback; the full path named no file."""
    make_tree(
        project, {"pyproject.toml": PYPROJECT.replace("[tool.docgen]\n", f"[tool.docgen]\nx = {nested}\n")}
    )
    result = subprocess.run(
        [sys.executable, "-m", "docgen", "check"], cwd=project, capture_output=True, text=True, check=False
    )
    message = "pyproject.toml: arrays or tables nested too deeply to read (Python's recursion limit)\n"
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)


@pytest.mark.parametrize(
    ("value", "what"), [("\\ud800", "a lone surrogate (U+D800)"), ("\\x00", "a NUL character")]
)
def test_a_template_writing_a_surrogate_or_nul_is_refused(project: Path, value: str, what: str) -> None:
    """`{{ "\\ud800" }}` ended `sync` and `check` in a UnicodeEncodeError traceback; `{{ "\\x00" }}`
    wrote a NUL byte into the README (a binary file to git)."""
    with_template(project, 'Versions:\n{{ "' + value + '" }}\n')
    message = f"tpl/versions.md.j2: the rendered block docgen:versions holds {what} (line 2 of its output); "
    for command in ("sync", "check"):
        assert_error((command,), message + "docgen will not write it\n", project)


def test_a_run_of_thousands_of_cd_steps_looks_for_clones_no_deeper_than_the_deepest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`RUN cd d0 && pip install -r r0.txt && cd d1 && …`: each command looked for the clone holding its
    folder by walking every folder above it, as deep as the `cd` steps went (4,000 steps: 56 s, 1,000:
    1.5 s); now from the folder as deep as the deepest clone of the stage (4,000: 2.7 s)."""
    from docgen.sources import context

    walked = [0]

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(posixpath, name)

        def dirname(self, path: str) -> str:
            walked[0] += 1
            return posixpath.dirname(path)

    monkeypatch.setattr(context, "posixpath", Counting())
    steps = 1_000
    dockerfile = (
        "FROM ubuntu:22.04\nRUN git clone https://github.com/org/tool /src/tool\n"
        "RUN cd /src/tool/sub && pip install .\nRUN "
        + " && ".join(f"cd d{i} && pip install -r r{i}.txt" for i in range(steps))
        + "\n"
    )
    (tmp_path / "Dockerfile").write_text(dockerfile)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert any(c.name == "tool" for c in model.components)
    assert 0 < walked[0] < 10 * steps
