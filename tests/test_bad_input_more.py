"""More rows of docs/bad-input.md: template run-time errors, templates writing markers or too much,
link targets, standard output that cannot be written, and outputs without a block.

Same fixtures and conventions as `tests/test_bad_input.py`: a small project, `docgen` run as a user
would, the exact message and exit code asserted, and every file left as it was.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import make_tree, run, without_fingerprints
from test_bad_input import PYPROJECT, README, assert_error, synced
from test_bad_input import project as project  # the fixture

from docgen.config import Config, ImageConfig
from docgen.pipeline import render_options
from docgen.render import safe_url

WITH_TEMPLATES = PYPROJECT.replace("[tool.docgen]\n", '[tool.docgen]\ntemplates = "tpl"\n')
QUIET = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def with_template(project: Path, text: str, name: str = "versions.md.j2") -> None:
    make_tree(project, {"pyproject.toml": WITH_TEMPLATES, f"tpl/{name}": text})


def docgen_process(project: Path, *argv: str, stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    """`docgen ARGV` in a new process (the console entry, the fast path of `check` first); its
    standard output is captured, or is the file descriptor `stdout`."""
    return subprocess.run(
        [sys.executable, "-m", "docgen", *argv],
        cwd=project,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )


# ---------------------------------------------------------------------------------------------------
# Templates: run-time errors of any kind name the template file and line (#3, #14)


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ 1/0 }}\n", "tpl/versions.md.j2:1: cannot render versions.md.j2: division by zero"),
        (
            '{{ "%d" % "x" }}\n',
            "tpl/versions.md.j2:1: cannot render versions.md.j2: "
            "%d format: a real number is required, not str",
        ),
        (
            "Rows:\n{{ range(100001) }}\n",
            "tpl/versions.md.j2:2: cannot render versions.md.j2: Range too big. The sandbox blocks ranges "
            "larger than MAX_RANGE (100000).",
        ),
        (
            "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}\n{{ f(0) }}\n",
            "tpl/versions.md.j2:1: cannot render versions.md.j2: macros or includes nested too deeply "
            "(Python's recursion limit)",
        ),
        ("a\nb\n{{ nope }}\n", "tpl/versions.md.j2:3: cannot render versions.md.j2: 'nope' is undefined"),
        (
            "{{ ''.__class__ }}\n",
            "tpl/versions.md.j2:1: cannot render versions.md.j2: access to attribute '__class__' of 'str' "
            "object is unsafe.",
        ),
        (
            '{% include "gone.j2" %}\n',
            "tpl/versions.md.j2:1: cannot render versions.md.j2: template 'gone.j2' not found",
        ),
    ],
)
@pytest.mark.parametrize("command", ["sync", "check"])
def test_template_runtime_errors_name_the_template_and_line(
    project: Path, command: str, template: str, message: str
) -> None:
    with_template(project, template)
    assert_error((command,), message + "\n", project)


def test_template_error_in_an_included_template_names_that_template(project: Path) -> None:
    with_template(project, "Rows:\n{% include 'part.j2' %}\n")
    make_tree(project, {"tpl/part.j2": "x\n{{ 1/0 }}\n"})
    assert_error(("sync",), "tpl/part.j2:2: cannot render versions.md.j2: division by zero\n", project)


def test_template_runtime_error_fails_mkdocs_build_the_same_way(project: Path) -> None:
    with_template(project, "ok\n{{ 1/0 }}\n")
    make_tree(
        project,
        {
            "pyproject.toml": WITH_TEMPLATES.replace('outputs = ["README.md"]', 'pages = ["index.md"]'),
            "mkdocs.yml": "site_name: t\ntheme: mkdocs\nplugins: [docgen]\n",
            "docs/index.md": README,
        },
    )
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=project,
        env=QUIET,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert (
        "ERROR   -  tpl/versions.md.j2:2: cannot render versions.md.j2: division by zero\n" in result.stderr
    )
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------------------------------
# Templates: output docgen could not read back (#4) or that is too large (#13)


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("<!-- END docgen:versions -->", "contains a docgen marker line (line 1 of its output: "),
        ("a\n  <!-- BEGIN docgen:build-args -->\n", "contains a docgen marker line (line 2 of its output: "),
        ("<!-- END docgen:versions --> more\n", "contains a docgen marker line (line 1 of its output: "),
        ("x\r<!-- END docgen:nope -->\n", "contains a docgen marker line (line 2 of its output: "),
        ("text\n```\ncode\n", "opens a code fence at line 2 of its output and never closes it"),
    ],
)
@pytest.mark.parametrize("command", ["sync", "check"])
def test_a_template_cannot_write_a_marker_line(
    project: Path, command: str, template: str, problem: str
) -> None:
    with_template(project, template)
    result = run(command)
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"tpl/versions.md.j2: the rendered block docgen:versions {problem}")
    assert result.err.endswith("; docgen will not write it\n")
    assert (project / "README.md").read_text() == README


def test_marker_line_message_shows_the_line(project: Path) -> None:
    with_template(project, "<!-- END docgen:versions -->\n")
    assert_error(
        ("sync",),
        "tpl/versions.md.j2: the rendered block docgen:versions contains a docgen marker line (line 1 of its "
        "output: <!-- END docgen:versions -->); docgen will not write it\n",
        project,
    )


def test_a_template_may_show_markers_as_escaped_text_or_in_a_closed_fence_prose(project: Path) -> None:
    with_template(project, "Write &lt;!-- BEGIN docgen:versions --> and `docgen:x`.\n```\nok\n```\n")
    assert "Write &lt;!-- BEGIN docgen:versions -->" in synced(project)


@pytest.mark.parametrize(
    "template",
    [
        "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
        '{% for i in range(100000) %}{{ "éé" * 50 }}{% endfor %}',  # 10,000,000 characters, 20,000,000 bytes
    ],
)
def test_rendered_size_is_bounded(project: Path, template: str) -> None:
    with_template(project, template)
    assert_error(
        ("sync",), "tpl/versions.md.j2: the rendered block docgen:versions is larger than 8 MiB\n", project
    )


def test_a_large_block_under_the_bound_renders(project: Path) -> None:
    with_template(project, '{% for i in range(1000) %}{{ "x" * 1000 }}\n{% endfor %}')
    assert synced(project).count("x" * 1000) == 1000


# ---------------------------------------------------------------------------------------------------
# Links (#6, #7)


def test_safe_url_percent_encodes_non_ascii_and_keeps_the_rest() -> None:
    assert (
        safe_url("https://example.com/wheels/pakét-1.0.whl")
        == "https://example.com/wheels/pak%C3%A9t-1.0.whl"
    )
    assert safe_url("https://h/a b|c<d>`e(f)") == "https://h/a%20b%7Cc%3Cd%3E%60e%28f%29"
    assert safe_url("https://h/x?a=1&b=%2B#frag") == "https://h/x?a=1&b=%2B#frag"
    assert safe_url("https://h/😀") == "https://h/%F0%9F%98%80"
    assert safe_url("ftp://h/x") is None and safe_url("") is None and safe_url(None) is None


def test_non_ascii_url_keeps_its_characters_in_the_link(project: Path) -> None:
    make_tree(project, {"README.md": "<!-- BEGIN docgen:contents -->\n<!-- END docgen:contents -->\n"})
    make_tree(
        project,
        {"Dockerfile": "FROM ubuntu:22.04\nADD https://example.com/dätei-2.0.tar.gz /tmp/\n"},
    )
    after = synced(project)
    assert "(https://example.com/d%C3%A4tei-2.0.tar.gz)" in after
    assert "dtei" not in after


def test_line_links_are_url_encoded(project: Path) -> None:
    (project / "Dockerfile").rename(project / "Dockerfile (cuda)")
    make_tree(project, {"pyproject.toml": PYPROJECT.replace('"Dockerfile"', '"Dockerfile (cuda)"')})
    after = synced(project)
    assert "[L3](Dockerfile%20%28cuda%29#L3)" in after
    assert "Dockerfile (cuda)#" not in after


@pytest.mark.parametrize(
    ("dockerfile", "document", "link"),
    [
        ("docker/rocm/Dockerfile.rocm", "docker/rocm/README.md", "Dockerfile.rocm"),
        ("docker/Dockerfile_v1-2~x", "README.md", "docker/Dockerfile_v1-2~x"),
        ("sub dir/ü/Docker#file", "README.md", "sub%20dir/%C3%BC/Docker%23file"),
        ("Dockerfile", "docs/README.md", "../Dockerfile"),
    ],
)
def test_line_link_targets(tmp_path: Path, dockerfile: str, document: str, link: str) -> None:
    image = ImageConfig(dockerfile=tmp_path / dockerfile, display=dockerfile)
    config = Config(root=tmp_path, source="pyproject.toml")
    assert render_options(image, config, tmp_path / document).dockerfile_link == link


# ---------------------------------------------------------------------------------------------------
# Standard output that cannot be written (#12)


needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@needs_dev_full
@pytest.mark.parametrize(
    "argv",
    [("check",), ("check", "--format", "json"), ("show",), ("sync",), ("lint",), ("--help",)],
)
def test_a_full_stdout_is_an_error_not_a_traceback(project: Path, argv: tuple[str, ...]) -> None:
    assert run("sync").code == 0  # so that `check` takes the fast path
    with open("/dev/full", "w") as full:
        result = docgen_process(project, *argv, stdout=full.fileno())
    assert (result.returncode, result.stderr) == (
        2,
        "docgen: error: cannot write to standard output: No space left on device\n",
    )


@pytest.mark.parametrize("command", ["sync", "check", "show"])
def test_a_closed_stdout_is_an_error_before_anything_is_written(project: Path, command: str) -> None:
    script = f'exec "{sys.executable}" -m docgen {command} >&-'
    result = subprocess.run(["sh", "-c", script], cwd=project, capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (
        2,
        "docgen: error: cannot write to standard output: Bad file descriptor\n",
    )
    assert (project / "README.md").read_text() == README


@pytest.mark.parametrize("argv", [("check",), ("show", "Dockerfile")])
def test_a_broken_pipe_is_still_not_an_error(project: Path, argv: tuple[str, ...]) -> None:
    assert run("sync").code == 0
    reader, writer = os.pipe()
    os.close(reader)  # the reader went away before docgen wrote anything
    try:
        result = docgen_process(project, *argv, stdout=writer)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (0, "")


# ---------------------------------------------------------------------------------------------------
# An output without any docgen block (#9)

NO_BLOCK = (
    "README.md: no docgen block found (blocks are <!-- BEGIN docgen:NAME --> … <!-- END docgen:NAME -->)"
)


@pytest.mark.parametrize("command", ["sync", "check"])
def test_an_output_without_a_block_is_an_error(project: Path, command: str) -> None:
    make_tree(project, {"README.md": "# Image\n\nNo markers here.\n"})
    before = (project / "README.md").read_bytes()
    assert_error((command,), NO_BLOCK + "\n", project)
    result = docgen_process(project, command)  # the fast path steps aside, the full check says why
    assert (result.returncode, result.stdout, result.stderr) == (2, "", NO_BLOCK + "\n")
    assert (project / "README.md").read_bytes() == before


@pytest.mark.parametrize("command", ["sync", "check"])
def test_markers_hidden_by_an_unclosed_fence_say_so(project: Path, command: str) -> None:
    make_tree(project, {"README.md": "# Image\n\n```sh\ndocker build .\n\n" + README})
    assert_error(
        (command,),
        f"{NO_BLOCK}; a code fence opened at line 3 is never closed (the markers after it are code)\n",
        project,
    )


def test_an_output_given_on_the_command_line_needs_a_block_too(project: Path) -> None:
    make_tree(project, {"other.md": "nothing\n"})
    assert_error(
        ("sync", "--dockerfile", "Dockerfile", "--output", "other.md"),
        NO_BLOCK.replace("README.md", "other.md") + "\n",
        project,
    )


def test_no_outputs_at_all_still_checks_nothing(project: Path) -> None:
    make_tree(project, {"pyproject.toml": PYPROJECT.replace('["README.md"]', "[]")})
    result = run("check")
    assert (result.code, result.out) == (0, "0 files checked, 0 out of date\n")


def test_one_block_is_enough(project: Path) -> None:
    make_tree(project, {"README.md": README[: README.index("<!-- BEGIN docgen:build-args")]})
    assert "`7.0.2`" in without_fingerprints(synced(project))
