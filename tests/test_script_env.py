"""`docgen.script_env`: what a shell script sets before reading it, and what it reads from its caller."""

from __future__ import annotations

import pytest

from docgen.script_env import env_file, environment_defaults, overrides


def test_a_branch_not_taken_sets_nothing() -> None:
    script = "if [ -f .env ]; then\n  GPU=a\nelif [ -f x ]; then\n  GPU=b\nelse\n  GPU=c\nfi\n"
    assert overrides(script, lambda p: p == ".env", lambda p: None)["GPU"].value == "a"
    assert overrides(script, lambda p: p == "x", lambda p: None)["GPU"].value == "b"
    assert overrides(script, lambda p: False, lambda p: None)["GPU"].value == "c"


def test_a_variable_the_script_sets_first_is_not_read_from_the_caller() -> None:
    assert environment_defaults('X=1\necho "${X:-2}" "${Y:-3}"\ncat <<EOF\n${Z:-4}\nEOF\n') == {"Y": (2, "3")}


def test_a_sourced_file_sets_what_it_assigns_without_reading_it() -> None:
    files = {"vars.env": "A=1\nexport B=two\nC=${C:-3}\n"}
    found = overrides("set -a\n. vars.env\nset +a\n", lambda p: p in files, files.get)
    assert {name: (o.line, o.value, o.file) for name, o in found.items()} == {
        "A": (2, "1", "vars.env"),
        "B": (2, "two", "vars.env"),
    }


def test_docker_builds_reads_the_dockerfile_and_the_args_passed() -> None:
    from docgen.script_env import ScriptBuild, docker_builds

    script = """\
#!/bin/sh
ROOT="$(dirname "$0")"
docker build --build-arg A=1 \\
  --build-arg B -f "$ROOT/images/Dockerfile.gpu" -t x .
cd somewhere
docker build -t y .
"""
    assert docker_builds(script) == (
        ScriptBuild(3, "images/Dockerfile.gpu", True, frozenset({"A", "B"}), frozenset({"B"})),
        ScriptBuild(6, None, False, frozenset()),
    )


def test_a_hash_inside_a_quoted_build_arg_is_no_comment() -> None:
    from docgen.script_env import ScriptBuild, docker_builds

    # `#` in a quoted value or inside a word is text (the shell's reading); one that starts a word
    # outside quotes starts a comment, and what follows it is not passed.
    script = """\
#!/bin/sh
docker build --build-arg NOTE="build #7" --build-arg URL=https://x.example/a#part -f ci/Dockerfile.dev .
docker build --build-arg A=1 . # --build-arg LATE=2 -f other/Dockerfile
"""
    assert docker_builds(script) == (
        ScriptBuild(2, "ci/Dockerfile.dev", False, frozenset({"NOTE", "URL"})),
        ScriptBuild(3, "Dockerfile", False, frozenset({"A"})),
    )


def test_no_file_known_leaves_every_file_test_undecided() -> None:
    # a script run in a container: neither branch of a file test is one every run takes
    script = "if [ -f .env ]; then\n  GPU=a\nelse\n  GPU=b\nfi\n[ -f x ] && MODE=c\nPORT=1\n"
    found = overrides(script, None, lambda p: None)
    assert sorted(found) == ["PORT"]


def test_an_exec_of_a_command_ends_the_script() -> None:
    assert overrides('exec "$@"\nGPU=a\n', None, lambda p: None) == {}
    assert overrides('[ "$1" = sh ] && exec sh\nGPU=a\n', None, lambda p: None) == {}
    # redirections only: the shell goes on
    assert list(overrides("exec >log 2>&1\nexec 3>&1\nGPU=a\n", None, lambda p: None)) == ["GPU"]


def test_the_files_a_script_sources_from_its_folder_or_where_it_runs() -> None:
    from docgen.script_env import sourced_files

    script = (
        "#!/bin/bash\n"
        'source "$(dirname "$0")"/config.sh\n'
        ". ./versions.env  # pins\n"
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n'
        'source "${HERE}/gpu.env"\n'
        "if [ -f local.env ]; then\n  source local.env\nfi\n"  # in a branch: not every run
        'source "$HOME/.bashrc"\n'  # out of the project
        "cat <<EOF\nsource heredoc.sh\nEOF\n"
    )
    assert [(s.line, s.path, s.in_script) for s in sourced_files(script)] == [
        (2, "config.sh", True),
        (3, "versions.env", False),
        (5, "gpu.env", True),
    ]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (".env", "# the port\nPORT=8000\n\nexport APP_NAME=my app\n", True),
        (".env.example", 'TOKEN="change me"  # from the dashboard\n', True),
        ("prod.env", None, True),  # (not there: the name alone)
        ("env.sample", "A=1\n", True),
        (".ENV.local", "A=1\n", True),
        (".env.local", "PORT=8000\nshift\n", False),  # a command
        ("env.sh", "A=1\n", False),  # a script
        ("environment.yml", None, False),
        ("lib.sh", None, False),
    ],
)
def test_an_env_file_by_its_name_and_lines(name: str, text: str | None, expected: bool) -> None:
    assert env_file(name, text) is expected
