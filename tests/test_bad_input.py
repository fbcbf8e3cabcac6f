"""The bad-input matrix of docs/bad-input.md: one test per row, asserting what the user sees.

Each test builds a small project, runs `docgen` the way a user would, and checks the exact message,
the exit code, and that no file was damaged.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import make_tree, run, without_fingerprints

import docgen.files
from docgen.errors import MarkerError
from docgen.markers import find_blocks
from docgen.pipeline import build_model

PYPROJECT = """\
[tool.docgen]

[[tool.docgen.images]]
dockerfile = "Dockerfile"
outputs = ["README.md"]
"""

DOCKERFILE = """\
FROM ubuntu:22.04 AS base
# ROCM_VERSION ROCm release.
ARG ROCM_VERSION=7.0.2
"""

README = """\
# Image

Intro.
<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->
<!-- BEGIN docgen:build-args -->
<!-- END docgen:build-args -->
Outro.
"""

NO_FROM = "Dockerfile:1: no FROM instruction: this is not a Dockerfile BuildKit can build\n"


@pytest.fixture
def project(chdir_tmp: Path) -> Path:
    make_tree(chdir_tmp, {"pyproject.toml": PYPROJECT, "Dockerfile": DOCKERFILE, "README.md": README})
    return chdir_tmp


def write_dockerfile(project: Path, content: str | bytes) -> None:
    make_tree(project, {"Dockerfile": content})


def assert_error(argv: tuple[str, ...], message: str, project: Path) -> None:
    """`docgen ARGV` exits 2 with exactly `message` and leaves the README as it was."""
    before = (project / "README.md").read_bytes()
    result = run(*argv)
    assert (result.code, result.out, result.err) == (2, "", message)
    assert (project / "README.md").read_bytes() == before


def synced(project: Path) -> str:
    """Sync the project; the README afterwards (and `check` must then pass)."""
    result = run("sync")
    assert result.code == 0, result.err
    assert run("check").code == 0
    return without_fingerprints((project / "README.md").read_text(encoding="utf-8"))


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".docgen-tmp")]


# ---------------------------------------------------------------------------------------------------
# The Dockerfile


@pytest.mark.parametrize("command", ["sync", "check"])
def test_empty_dockerfile(project: Path, command: str) -> None:
    write_dockerfile(project, b"")
    assert_error((command,), NO_FROM, project)


def test_binary_dockerfile(project: Path) -> None:
    write_dockerfile(project, b"FROM a\n\x7fELF\x02\x01\x01\x00\x00")
    assert_error(("sync",), "Dockerfile:2: binary file (contains a NUL byte)\n", project)
    result = run("show", "Dockerfile", "--format", "json")
    assert (result.code, result.out) == (2, "")


def test_invalid_utf8_dockerfile(project: Path) -> None:
    write_dockerfile(project, b"FROM a\n# caf\xe9 in Latin-1\nRUN true\n")
    assert_error(("check",), "Dockerfile:2: not UTF-8 text\n", project)


def test_invalid_utf8_readme(project: Path) -> None:
    make_tree(project, {"README.md": README.encode().replace(b"Intro.", b"Intr\xf8.")})
    assert_error(("sync",), "README.md:3: not UTF-8 text\n", project)


def test_byte_order_mark_dockerfile_reads_like_without(project: Path) -> None:
    plain = synced(project)
    make_tree(project, {"README.md": README})
    write_dockerfile(project, "\ufeff" + DOCKERFILE)
    assert synced(project) == plain


def test_byte_order_mark_readme_is_kept_and_marker_on_line_1_found(project: Path) -> None:
    text = "\ufeff" + README[README.index("<!-- BEGIN") :]
    make_tree(project, {"README.md": text})
    after = synced(project)
    assert after.startswith("\ufeff<!-- BEGIN docgen:versions -->\n| ")
    assert "`7.0.2`" in after


def test_crlf_dockerfile_reads_like_lf(project: Path) -> None:
    plain = synced(project)
    make_tree(project, {"README.md": README})
    write_dockerfile(project, DOCKERFILE.replace("\n", "\r\n"))
    assert synced(project) == plain


def test_mixed_line_endings_readme_outside_text_kept(project: Path) -> None:
    lines = README.splitlines(keepends=True)
    mixed = "".join(line.replace("\n", "\r\n") if i % 2 else line for i, line in enumerate(lines))
    make_tree(project, {"README.md": mixed})
    run("sync")
    after = (project / "README.md").read_bytes().decode()
    blocks = find_blocks(after)
    outside = after[: blocks[0].body_start] + after[blocks[0].body_end : blocks[1].body_start]
    outside += after[blocks[1].body_end :]
    assert without_fingerprints(outside) == mixed
    body = after[blocks[0].body_start : blocks[0].body_end]
    assert body.endswith("\n") and "|" in body
    assert run("check").code == 0


def test_50_mb_dockerfile_is_refused_fast_without_reading_it(project: Path) -> None:
    with open(project / "Dockerfile", "wb") as handle:
        handle.write(b"FROM ubuntu:22.04\n")
        handle.truncate(50 * 1000 * 1000)  # sparse: reading it would take time and memory
    assert_error(("sync",), "Dockerfile: file is larger than 10 MiB, not read\n", project)


def test_run_of_100000_continued_lines(project: Path) -> None:
    body = "RUN echo start \\\n" + "    && echo step \\\n" * 100_000 + "    && echo done\n"
    write_dockerfile(project, DOCKERFILE + body + "ARG LATE_VERSION=1.2\n")
    result = run("show", "Dockerfile", "--format", "json")
    assert result.code == 0, result.err
    late = [a for a in json.loads(result.out)["args"] if a["name"] == "LATE_VERSION"]
    assert [(a["line"], a["default"]) for a in late] == [(100_006, "1.2")]
    assert "`1.2`" in synced(project)


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("RUN <<EOF\necho hi\n", "Dockerfile:4: heredoc EOF is never closed\n"),
        ('ARG X="abc\n', "Dockerfile:4: unterminated double quote in '\"abc'\n"),
        ("ARG X='abc\n", 'Dockerfile:4: unterminated single quote in "\'abc"\n'),
        ("ARG X=${Y\n", "Dockerfile:4: missing '}' in ${…} in '${Y'\n"),
        ("ENV X=${Y:-a\n", "Dockerfile:4: missing '}' in ${…} in '${Y:-a'\n"),
    ],
    ids=["heredoc", "double-quote", "single-quote", "dollar-brace", "dollar-brace-modifier"],
)
def test_unterminated(project: Path, tail: str, message: str) -> None:
    write_dockerfile(project, DOCKERFILE + tail)
    assert_error(("sync",), message, project)


def test_unterminated_dollar_brace_in_run_is_the_shells_business(project: Path) -> None:
    # BuildKit hands RUN to /bin/sh without expanding it; the shell reports the error at build time
    write_dockerfile(project, DOCKERFILE + "RUN echo ${Y\n")
    assert "`7.0.2`" in synced(project)


def test_arg_defined_by_itself(project: Path) -> None:
    # BuildKit: the name is unset while its own default is expanded, so the value is empty
    write_dockerfile(project, "ARG A=${A}\nFROM scratch\nARG A\nARG B=${B:-fallback}\n")
    result = run("show", "Dockerfile", "--format", "json")
    assert result.code == 0, result.err
    args = {(a["name"], a["scope"]): a["default"] for a in json.loads(result.out)["args"]}
    assert args == {("A", "global"): "", ("A", "#0"): "", ("B", "#0"): "fallback"}


@pytest.mark.parametrize(
    ("dockerfile", "message"),
    [
        ("FROM base AS base\n", "Dockerfile:1: stage base builds FROM base, which is itself\n"),
        (
            "FROM ubuntu AS a\nFROM later AS b\nFROM ubuntu AS later\n",
            "Dockerfile:2: stage b builds FROM later, which is a stage defined later, at line 3\n",
        ),
        ("FROM ubuntu AS a\nFROM ubuntu AS A\n", "Dockerfile:2: stage name 'a' is used twice\n"),
    ],
    ids=["itself", "later", "twice"],
)
def test_stage_cycles(project: Path, dockerfile: str, message: str) -> None:
    write_dockerfile(project, dockerfile)
    assert_error(("check",), message, project)


def test_from_an_unknown_stage_is_an_image(project: Path) -> None:
    # BuildKit pulls `builder` from a registry when no stage has that name; so does docgen's model
    write_dockerfile(project, "FROM builder AS app\nCOPY --from=nowhere /a /b\n")
    result = run("show", "Dockerfile", "--format", "json")
    assert result.code == 0, result.err
    stages = json.loads(result.out)["stages"]
    assert [(s["name"], s["from"], s["parent"], s["depends_on"]) for s in stages] == [
        ("app", "builder", None, [])
    ]


# ---------------------------------------------------------------------------------------------------
# The README


def test_readme_missing(project: Path) -> None:
    (project / "README.md").unlink()
    result = run("check")
    assert (result.code, result.out) == (2, "")
    assert result.err == "README.md: file not found (create it with the marker blocks first)\n"
    assert not (project / "README.md").exists()


def test_read_only_readme_check_works_sync_refuses(project: Path) -> None:
    readme = project / "README.md"
    readme.chmod(0o444)
    assert run("check").code == 1  # check never writes, so a read-only file is fine
    assert_error(("sync",), "README.md: file is read-only; docgen will not replace it\n", project)
    assert readme.stat().st_mode & 0o777 == 0o444


def test_readme_symlink_outside_the_repository(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("elsewhere") / "victim.md"
    outside.write_text(README)
    (project / "README.md").unlink()
    (project / "README.md").symlink_to(outside)
    root = project.resolve()
    assert_error(
        ("sync",),
        f"pyproject.toml:5: outputs = 'README.md' points outside the project folder {root}\n",
        project,
    )
    assert outside.read_text() == README


def test_readme_symlink_inside_the_repository_updates_the_target(project: Path) -> None:
    (project / "README.md").rename(project / "real.md")
    (project / "README.md").symlink_to("real.md")
    assert run("sync").out == "real.md: updated\n"
    assert (project / "README.md").is_symlink()
    assert "`7.0.2`" in (project / "real.md").read_text()


# ---------------------------------------------------------------------------------------------------
# The config


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'outputs = ["README.md"]',
            'outputs = ["../../etc/passwd"]',
            "pyproject.toml:5: outputs = '../../etc/passwd' points outside the project folder {root}\n",
        ),
        (
            'dockerfile = "Dockerfile"',
            'dockerfile = "../../etc/passwd"',
            "pyproject.toml:4: dockerfile = '../../etc/passwd' points outside the project folder {root}\n",
        ),
        (
            "[tool.docgen]\n",
            '[tool.docgen]\ntemplates = "../../etc"\n',
            "pyproject.toml:2: templates = '../../etc' points outside the project folder {root}\n",
        ),
        (
            'dockerfile = "Dockerfile"',
            'dockerfile = "/etc/passwd"',
            "pyproject.toml:4: dockerfile = '/etc/passwd' points outside the project folder {root}\n",
        ),
    ],
    ids=["output", "dockerfile", "templates", "absolute"],
)
def test_config_paths_leaving_the_repository(project: Path, old: str, new: str, message: str) -> None:
    make_tree(project, {"pyproject.toml": PYPROJECT.replace(old, new)})
    assert_error(("sync",), message.format(root=project.resolve()), project)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "[tool.docgen]\n",
            '[tool.docgen]\narch_arg = "GPU"\n',
            "pyproject.toml:2: unknown key 'arch_arg' in [tool.docgen] "
            "(known keys: arch-arg, base-images, images, lint, names, templates)\n",
        ),
        (
            'outputs = ["README.md"]',
            'output = ["README.md"]',
            "pyproject.toml:5: unknown key 'output' in [[tool.docgen.images]] "
            "(known keys: arch-arg, args, bake, dockerfile, exclude, name, names, outputs, pages, produces, "
            "target, targets, versions)\n",
        ),
        (
            'outputs = ["README.md"]',
            'outputs = "README.md"',
            "pyproject.toml:5: [[tool.docgen.images]].outputs must be a list, not str\n",
        ),
        (
            'outputs = ["README.md"]',
            "outputs = [1]",
            "pyproject.toml:5: images.outputs must be a list of strings\n",
        ),
    ],
    ids=["unknown-top", "unknown-image", "wrong-type", "wrong-item-type"],
)
def test_unknown_or_mistyped_config_keys(project: Path, old: str, new: str, message: str) -> None:
    make_tree(project, {"pyproject.toml": PYPROJECT.replace(old, new)})
    assert_error(("check",), message, project)


@pytest.mark.parametrize("command", ["check", "sync", "lint"])
def test_config_with_a_byte_order_mark(project: Path, command: str) -> None:
    make_tree(project, {"pyproject.toml": "\ufeff" + PYPROJECT})
    assert_error(
        (command,),
        "pyproject.toml:1: starts with a byte-order mark, which TOML does not allow (pip refuses the file "
        "too); save it as UTF-8 without one\n",
        project,
    )


# ---------------------------------------------------------------------------------------------------
# Writing


def test_two_syncs_at_once_leave_the_file_whole(project: Path) -> None:
    expected = synced(project)
    for _ in range(3):
        make_tree(project, {"README.md": README})
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "docgen", "sync"],
                cwd=project,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(4)
        ]
        outputs = [p.communicate(timeout=60) for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0, 0], outputs
        assert without_fingerprints((project / "README.md").read_text()) == expected
        assert no_temp_files(project)
    assert run("check").code == 0


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_write_failing_midway_keeps_the_original(
    project: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    def boom(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(docgen.files.os, failing, boom)
    assert_error(("sync",), "README.md: cannot write: No space left on device\n", project)
    assert no_temp_files(project)


def test_an_interrupt_midway_keeps_the_original(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(docgen.files.os, "replace", interrupt)
    result = run("sync")
    assert (result.code, result.err) == (130, "")
    assert (project / "README.md").read_text() == README
    assert no_temp_files(project)


@pytest.mark.parametrize(
    "fifo, argv, message",
    [
        ("README.md", ("check",), "README.md: not a file\n"),
        ("README.md", ("sync",), "README.md: not a file\n"),
        ("Dockerfile", ("check",), "Dockerfile: not a file\n"),
        ("pyproject.toml", ("check", "--config", "pyproject.toml"), "pyproject.toml: not a file\n"),
        ("README.md", ("init",), "README.md: README is not a regular file\n"),
        ("pyproject.toml", ("init",), "pyproject.toml: pyproject.toml is not a regular file\n"),
    ],
)
def test_a_fifo_is_not_a_file_and_blocks_nothing(
    project: Path, fifo: str, argv: tuple[str, ...], message: str
) -> None:
    """A named pipe where a file should be: reading it would wait forever for a writer."""
    (project / fifo).rename(project / f"{fifo}.bak")
    os.mkfifo(project / fifo)
    # a new process (the console entry, fast path first), so a regression fails instead of hanging
    result = subprocess.run(
        [sys.executable, "-m", "docgen", *argv], cwd=project, capture_output=True, text=True, timeout=120
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)


@pytest.mark.parametrize("command", ["check", "sync", "init"])
def test_a_deleted_current_folder_is_an_error_not_a_traceback(tmp_path: Path, command: str) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    script = f'cd "{gone}" && rmdir "{gone}" && exec "{sys.executable}" -m docgen {command}'
    env = {**os.environ, "PYTHONPATH": str(Path(docgen.cli.__file__).resolve().parent.parent)}
    result = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "docgen: error: cannot use the current folder: No such file or directory\n"


# ---------------------------------------------------------------------------------------------------
# Security


def test_no_network_and_no_execution(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def forbidden(name: str) -> object:
        def deny(*args: object, **kwargs: object) -> None:
            calls.append(name)
            raise AssertionError(f"docgen called {name}")

        return deny

    for name in ("socket", "create_connection", "getaddrinfo"):
        monkeypatch.setattr(socket, name, forbidden(f"socket.{name}"))
    monkeypatch.setattr(subprocess, "Popen", forbidden("subprocess.Popen"))
    for name in ("system", "popen", "execv", "execve", "execvp", "fork", "posix_spawn"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, forbidden(f"os.{name}"))
    marker = project / "executed"
    write_dockerfile(
        project,
        DOCKERFILE
        + f"RUN touch {marker} && curl https://example.com/x | sh\n"
        + f"ADD https://example.com/a.tgz /a\nRUN <<EOF\ntouch {marker}\nEOF\n",
    )
    for argv in (("sync",), ("check",), ("show", "Dockerfile"), ("show", "--format", "json")):
        result = run(*argv)
        assert result.code == 0, (argv, result.err)
    assert calls == [] and not marker.exists()


def test_user_templates_render_in_the_sandbox(project: Path) -> None:
    make_tree(
        project,
        {
            "pyproject.toml": PYPROJECT.replace("[tool.docgen]\n", '[tool.docgen]\ntemplates = "tpl"\n'),
            "tpl/versions.md.j2": "{{ ''.__class__.__mro__[1].__subclasses__() }}\n",
        },
    )
    result = run("sync")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith("tpl/versions.md.j2:1: cannot render versions.md.j2: ")
    assert "unsafe" in result.err and (project / "README.md").read_text() == README


def test_dockerfile_values_cannot_break_the_table_or_the_markers(project: Path) -> None:
    evil = "1.0 | x --> <!-- END docgen:versions --> <img src=x onerror=alert(1)>\\n`"
    write_dockerfile(project, DOCKERFILE + f"ARG EVIL_VERSION='{evil}'\n")
    after = synced(project)
    assert [b.name for b in find_blocks(after)] == ["versions", "build-args"]
    assert "<img" not in after and "-->" not in after.replace(" -->", "")
    for block in find_blocks(after):
        rows = [r for r in after[block.body_start : block.body_end].splitlines() if r.startswith("|")]
        assert block.name != "build-args" or any("EVIL_VERSION" in row for row in rows)
        assert {row.count("|") for row in rows} == {rows[0].count("|")}, block.name


# ---------------------------------------------------------------------------------------------------
# Linear cost: inputs that made a regular expression backtrack


def test_long_marker_like_line_is_linear() -> None:
    """Would take hours with a backtracking pattern, so CI would time out; costs are in benchmarks/."""
    for line in ("<!-- BEGIN docgen:x" + " " * 200_000 + "-x\n", "<!-- BEGIN docgen:" + "a" * 200_000 + "\n"):
        with pytest.raises(MarkerError, match="starts like a docgen marker but is not one"):
            find_blocks(line)


def test_glob_replacement_is_linear(project: Path) -> None:
    write_dockerfile(
        project, f"FROM scratch\nARG V={'a' * 50_000}\nARG W=${{V//*a*a*a*a*b/x}}\nARG Z=${{V/a*/z}}\n"
    )
    result = run("show", "Dockerfile", "--format", "json")
    defaults = {a["name"]: a["default"] for a in json.loads(result.out)["args"]}
    assert (defaults["W"], defaults["Z"]) == ("a" * 50_000, "z")


def test_symlink_loop_as_output(project: Path) -> None:
    (project / "loop.md").symlink_to("loop.md")
    make_tree(
        project, {"pyproject.toml": PYPROJECT.replace('outputs = ["README.md"]', 'outputs = ["loop.md"]')}
    )
    for command in ("check", "sync"):
        result = run(command)
        assert result.code == 2 and "Traceback" not in result.err
        assert "loop" in result.err.lower()


def test_deeply_nested_substitution_is_an_error_not_a_crash(project: Path) -> None:
    write_dockerfile(project, "FROM a\nENV B=" + "${A:-" * 2000 + "x" + "}" * 2000 + "\n")
    result = run("show", "Dockerfile")
    assert (result.code, result.err) == (
        2,
        "Dockerfile:2: ${…} nested too deeply to read (Python's recursion limit)\n",  # at its line now
    )


def test_tool_that_is_not_a_table(project: Path) -> None:
    make_tree(project, {"pyproject.toml": "[[tool]]\nx = 1\n" + PYPROJECT})
    result = run("check")
    assert result.code == 2
    assert result.err == "pyproject.toml: tool must be a table (it holds [tool.docgen])\n"


def test_unknown_key_line_is_the_one_in_the_docgen_table(project: Path) -> None:
    text = '[project]\nname = "x"\nversion = "1"\n\n' + PYPROJECT.replace(
        "[tool.docgen]\n", '[tool.docgen]\nversion = "2"\n'
    )
    make_tree(project, {"pyproject.toml": text})
    result = run("check")
    assert result.code == 2 and result.err.startswith(
        "pyproject.toml:6: unknown key 'version' in [tool.docgen]"
    )


@pytest.mark.parametrize(
    ("second", "line", "message"),
    [
        ('dockerfile = "Dockerfile"\noutputs = ["../x.md"]\n', 9, "outputs = '../x.md' points outside"),
        (
            'dockerfile = "Dockerfile"\noutputs = "README.md"\n',
            9,
            "[[tool.docgen.images]].outputs must be a list",
        ),
        ('dockerfile = "Dockerfile"\nvesrions = []\n', 9, "unknown key 'vesrions'"),
        ('outputs = ["README.md"]\n', 7, "[[tool.docgen.images]] needs a 'dockerfile' key"),
        (
            'dockerfile = "Dockerfile"\n[tool.docgen.images.names]\nx = 1\n',
            10,
            "images.names.x must be a string",
        ),
    ],
)
def test_config_error_in_a_later_image_names_that_image_line(
    project: Path, second: str, line: int, message: str
) -> None:
    """Both images have the same keys: the error points at the second image's line, not the first's."""
    text = (
        '[tool.docgen]\n\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n\n'
        "[[tool.docgen.images]]\n" + second
    )
    make_tree(project, {"pyproject.toml": text})
    result = run("check")
    assert result.code == 2
    assert result.err.startswith(f"pyproject.toml:{line}: "), result.err
    assert message in result.err


def test_hard_linked_readme_is_refused_not_split(project: Path) -> None:
    os.link(project / "README.md", project / "other-name.md")
    assert_error(
        ("sync",),
        "README.md: has 2 hard links; docgen writes a new file and renames it over this one, which would "
        "leave the other links with the old text (make it a plain file or a symlink)\n",
        project,
    )
    assert (project / "other-name.md").read_text() == README


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give files away")
def test_sync_as_root_keeps_the_readme_owner(project: Path) -> None:
    readme = project / "README.md"
    os.chown(readme, 65534, 65534)
    readme.chmod(0o640)
    assert run("sync").code == 0
    info = readme.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (65534, 65534, 0o640)
    assert "BEGIN docgen:versions dockerfile=" in readme.read_text()


@pytest.mark.parametrize(
    ("dockerfile", "message"),
    [
        (
            "FROM alpine\nARG A0=xxxxxxxx\n"
            + "".join(f"ARG A{i}=${{A{i - 1}}}${{A{i - 1}}}\n" for i in range(1, 40)),
            "Dockerfile:20: the value grows past 1 MiB as variables are substituted in '${A17}${A17}'\n",
        ),
        (
            "FROM alpine\n" + "".join(f"ARG A{i}=1\n" for i in range(8000)),
            "Dockerfile:2002: too many ARG/ENV names in scope across too many ARG, ENV and FROM lines (more "
            "than 2,000,000 copied); docgen stops here rather than use gigabytes of memory\n",
        ),
    ],
)
def test_values_and_scopes_that_would_need_gigabytes_stop_early(
    project: Path, dockerfile: str, message: str
) -> None:
    write_dockerfile(project, dockerfile)
    assert_error(("check",), message, project)


def test_shell_values_that_double_are_not_followed(project: Path) -> None:
    """`B=$B$B` sixty times in one RUN: the script reader stops following B, and reads on."""
    doubling = "".join("B=$B$B; " for _ in range(60))
    write_dockerfile(project, f"FROM alpine\nRUN B=x; {doubling}pip install $B torch==2.5.1\n")
    assert run("sync").code == 0
    assert "torch" in (project / "README.md").read_text()


def test_an_output_that_is_a_dockerfile_is_refused(project: Path) -> None:
    make_tree(project, {"pyproject.toml": PYPROJECT.replace('["README.md"]', '["Dockerfile"]')})
    assert_error(
        ("sync",),
        "pyproject.toml:5: outputs = 'Dockerfile' is a Dockerfile docgen reads; docgen will not write "
        "generated text into its own input\n",
        project,
    )


@pytest.mark.parametrize(("folder", "what"), [("templtes", "not found"), ("README.md", "a file")])
def test_template_folder_that_is_not_one(project: Path, folder: str, what: str) -> None:
    make_tree(
        project,
        {"pyproject.toml": PYPROJECT.replace("[tool.docgen]\n", f'[tool.docgen]\ntemplates = "{folder}"\n')},
    )
    assert_error(
        ("sync",),
        f"pyproject.toml:2: templates = '{folder}' must be a folder of templates ({what})\n",
        project,
    )


def test_versions_entry_that_matches_nothing(project: Path) -> None:
    """A row the config asks for but the Dockerfile no longer has is said, not dropped in silence."""
    make_tree(project, {"pyproject.toml": PYPROJECT + 'versions = ["rocm", "pytorch-typo"]\n'})
    assert_error(
        ("sync",),
        "pyproject.toml:6: versions: 'pytorch-typo' matches no pinned component or version-like build arg "
        "of Dockerfile (the Dockerfile may have dropped it; known: ROCm, Ubuntu)\n",
        project,
    )
    make_tree(project, {"pyproject.toml": PYPROJECT + 'versions = ["rocm"]\n'})
    assert run("sync").code == 0


def test_twenty_thousand_named_stages_are_read(project: Path) -> None:
    """Each FROM used to scan every stage before it (23 s for these); the benchmark
    `benchmarks/bench_scale.py` measures that the cost now grows linearly."""
    stages = ["FROM ubuntu:22.04 AS s0-amd64"]
    for i in range(1, 20_000):
        stages.append(
            f"FROM s{i - 1}-${{TARGETARCH}} AS s{i}-amd64"
            if i % 2
            else f"FROM ubuntu:22.04 AS s{i}-amd64\nCOPY --from=s{i - 1}-amd64 /a /b"
        )
    write_dockerfile(project, "\n".join(stages) + "\n")
    model = build_model(project / "Dockerfile")
    assert len(model.stages) == 20_000
    assert model.stages[1].parent == 0 and model.stages[2].depends_on == (1,)


def test_markdown_larger_than_ten_mib_is_not_read(project: Path) -> None:
    (project / "README.md").write_text(README + ("y" * 99 + "\n") * 110_000)
    before = (project / "README.md").read_bytes()
    for argv in (("check",), ("sync",), ("audit", "README.md")):
        result = run(*argv)
        assert (result.code, result.err) == (2, "README.md: file is larger than 10 MiB, not read\n")
    assert (project / "README.md").read_bytes() == before


def test_sync_writes_nothing_when_a_later_image_fails(project: Path) -> None:
    make_tree(
        project,
        {
            "pyproject.toml": PYPROJECT
            + '\n[[tool.docgen.images]]\ndockerfile = "b/Dockerfile"\noutputs = ["b/README.md"]\n',
            "b/Dockerfile": "FROM $NOWHERE\n",
            "b/README.md": README,
        },
    )
    assert_error(("sync",), "b/Dockerfile:1: FROM $NOWHERE expands to an empty image name\n", project)


def test_sync_writes_nothing_when_a_later_output_has_hard_links(project: Path) -> None:
    make_tree(
        project,
        {"pyproject.toml": PYPROJECT.replace('["README.md"]', '["A.md", "README.md"]'), "A.md": README},
    )
    os.link(project / "README.md", project / "other-name.md")
    before = (project / "A.md").read_bytes()
    result = run("sync")
    assert result.code == 2 and result.err.startswith("README.md: has 2 hard links")
    assert (project / "A.md").read_bytes() == before


def test_a_generated_file_docgen_could_not_read_back_is_not_written(project: Path) -> None:
    big = '{{ "x" * 6000000 }}\n'  # two blocks of 6 MB: each under the block bound, 12 MB together
    make_tree(
        project,
        {
            "pyproject.toml": PYPROJECT.replace("[tool.docgen]\n", '[tool.docgen]\ntemplates = "tpl"\n'),
            "tpl/versions.md.j2": big,
            "tpl/build-args.md.j2": big,
        },
    )
    assert_error(
        ("sync",),
        "README.md: the generated file would be larger than 10 MiB, which docgen does not read back; "
        "not written (make the blocks smaller)\n",
        project,
    )


def test_config_errors_in_inline_tables_have_their_line(project: Path) -> None:
    make_tree(
        project,
        {
            "pyproject.toml": '[project]\nname = "x"\n\n[tool]\ndocgen.images = [\n'
            '  { dockerfile = "../../etc/passwd", outputs = ["README.md"] },\n]\n'
        },
    )
    result = run("sync")
    assert result.code == 2 and result.err.startswith(
        "pyproject.toml:6: dockerfile = '../../etc/passwd' points"
    )


def test_readme_with_cr_only_line_endings_keeps_them(project: Path) -> None:
    (project / "README.md").write_bytes(
        b"a\rb\r<!-- BEGIN docgen:versions -->\r<!-- END docgen:versions -->\rc\r"
    )
    assert run("sync").code == 0
    written = (project / "README.md").read_bytes()
    assert (
        b"\n" not in written
        and written.startswith(b"a\rb\r<!-- BEGIN docgen:versions")
        and written.endswith(b"\rc\r")
    )
    assert run("sync").out == "README.md: unchanged\n" and run("check").code == 0
