"""The shell commands of a README's blocks that other audit rules share (docgen/audit/commands.py): the
folders `git clone` makes, and where a block leaves its folder."""

from __future__ import annotations

import re

import pytest
from helpers import findings

from docgen.audit.commands import (
    CLONE_STEP,
    CLONE_VALUED,
    clone_of,
    clone_operands,
    clone_target,
    cloned_folder,
    clones,
    command_words,
    file_flags,
    image_repository,
    image_tag,
    joined,
    joined_line,
    joined_starts,
    moves,
    shell_steps,
    substitution_end,
)
from docgen.markdown import read_document


def block(*lines: str) -> str:
    return "# App\n\n```bash\n" + "\n".join(lines) + "\n```\n"


@pytest.mark.parametrize(
    ("command", "clone"),
    [
        ("git clone https://github.com/org/tool.git", ("https://github.com/org/tool.git", None)),
        ("git clone https://github.com/org/tool/ && cd tool", ("https://github.com/org/tool", None)),
        ("$ git clone --depth=1 -b v2.1 https://x.org/tool.git src", ("https://x.org/tool.git", "src")),
        ("git clone --branch main <repo-url>; cd repo", ("repo-url", None)),
    ],
)
def test_the_folder_a_clone_makes(command: str, clone: tuple[str, str | None]) -> None:
    assert list(clones(read_document(block(command), "README.md"))) == [clone]


def test_a_clone_folder_is_the_last_part_of_the_url_without_git() -> None:
    assert cloned_folder("https://github.com/org/tool.git") == "tool"
    assert cloned_folder("git@github.com:org/tool-v2") == "tool-v2"


@pytest.mark.parametrize(
    ("words", "target"),
    [
        ("https://github.com/org/tool.git", ("tool", "https://github.com/org/tool.git")),
        ("--depth 1 https://github.com/org/tool.git", ("tool", "https://github.com/org/tool.git")),
        ("-b v2.1 --single-branch git@github.com:org/tool src/", ("src", "git@github.com:org/tool")),
        ("--recursive https://x.org/a/b/ -- dest", ("dest", "https://x.org/a/b/")),
        ("--depth 1", None),
        ("tool.git dest", None),  # no address
        ("https://x.org/tool.git third_party/tool", None),  # a folder of folders
    ],
)
def test_the_folder_and_address_of_a_clone(words: str, target: tuple[str, str] | None) -> None:
    """The options and their values are passed over (`--depth 1` made `1` the address, and the clone
    nothing, for two readers that skipped only the words led by a dash)."""
    assert clone_target(words.split()) == target


def test_the_lines_where_a_block_leaves_its_folder() -> None:
    doc = read_document(
        block("make build", "cd deploy && make up", "ls; pushd ../x", "echo cd here", "$ cd "), "README.md"
    )
    assert list(moves(doc.fences[0])) == [(5, "deploy"), (6, "../x"), (8, "")]


@pytest.mark.parametrize(
    ("lines", "paths"),
    [
        # a `cd` first in a quoted shell string moves the string's `-f`, not the next command's
        (
            ("sh -c 'cd docker && docker build -f Dockerfile.rocm .'", "docker build -f Dockerfile.cuda ."),
            ["docker/Dockerfile.rocm", "Dockerfile.cuda"],
        ),
        (
            ('BASE=x sudo bash -lc "cd ci/rocm && podman build -f rocm.Dockerfile `pwd`"'),
            ["ci/rocm/rocm.Dockerfile"],
        ),
        # a `cd` of its own line moves every later command
        (("cd docker", "docker build -f Dockerfile.rocm ."), ["docker/Dockerfile.rocm"]),
        # a `cd` later in the string (after the build) moves nothing before it
        (("bash -c 'docker build -f Dockerfile.rocm . && cd out'",), ["Dockerfile.rocm"]),
    ],
)
def test_the_file_flags_of_a_block_from_the_folder_they_run_in(
    lines: tuple[str, ...] | str, paths: list[str]
) -> None:
    text = block(*((lines,) if isinstance(lines, str) else lines))
    fence = read_document(text, "README.md").fences[0]
    assert [path for _, path in file_flags(fence)] == paths


@pytest.mark.parametrize(
    ("text", "substitution"),
    [
        ('$(echo ")") x', '$(echo ")")'),
        ("$(echo ')') x", "$(echo ')')"),
        ("$(echo \\)) x", "$(echo \\))"),
        ("$(a $(b) c) x", "$(a $(b) c)"),
        ('$(echo "$(date ")")") x', '$(echo "$(date ")")")'),
        ("$(echo '(' x", "$(echo '(' x"),  # never closed: the rest of the line
        ("`a` b", "`a`"),
    ],
)
def test_a_substitution_ends_at_its_own_parenthesis(text: str, substitution: str) -> None:
    assert text[: substitution_end(text, 0)] == substitution


def test_a_deep_nest_of_quoted_substitutions_is_walked_without_recursion() -> None:
    text = '$("' * 50_000
    assert substitution_end(text, 0) == len(text)


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        # A `#` inside a quoted value or a word is text, the command goes on after it.
        (
            ['docker build --build-arg NOTE="rev #4" -t app .'],
            ["--build-arg", "NOTE=rev #4", "-t", "app", "."],
        ),
        (
            ["docker build --build-arg URL=https://x.example/a#frag \\", "  -t app ."],
            ["--build-arg", "URL=https://x.example/a#frag", "-t", "app", "."],
        ),
        # A `#` that starts a word outside quotes starts a comment: its words are not the command's.
        (["docker build -t app . # or -t app:dev, it's faster"], ["-t", "app", "."]),
        (["docker build -t app .\t#-f other/Dockerfile"], ["-t", "app", "."]),
        (["# docker build -t app ."], None),  # the command is itself a comment
        (["echo done # docker build -t app ."], None),
    ],
)
def test_command_words_end_where_the_shell_starts_a_comment(
    lines: list[str], words: list[str] | None
) -> None:
    assert command_words(list(enumerate(lines, 1)), re.compile(r"\bdocker[ \t]+build\b")) == words


def test_a_build_command_written_with_an_ellipsis_is_an_excerpt() -> None:
    # a guide to adding an arg shows where the flag goes (`docker build \\`, `  ....`): no build to run;
    # the traps: the same flag in a whole command, and a build passing `..` (a folder), are claims
    dockerfile = {"Dockerfile": "FROM ubuntu:22.04\nARG CUDA_VERSION=12.4\nRUN echo ${CUDA_VERSION}\n"}
    readme = """\
To add a build arg, pass it in the build step of `build.sh`:

```bash
docker build \\
  ....
  --build-arg "EXTRA_FLAG=${EXTRA_FLAG}"
```

```bash
docker build --build-arg CUDA_VERSION=12.4 … --build-arg OTHER_FLAG=1 .
```

```bash
docker build --build-arg CUDA_VERSION=12.4 --build-arg GONE_FLAG=1 -t app ..
```
"""
    assert findings(readme, dockerfile) == [
        "14: README documents build arg GONE_FLAG but Dockerfile does not declare it"
    ]


def test_the_line_of_an_offset_in_a_joined_command() -> None:
    command = [(4, "docker run \\"), (5, "  -e A=1 \\"), (6, "  img")]
    text, starts = joined(command), joined_starts(command)
    assert [joined_line(command, starts, text.index(w)) for w in ("docker", "-e", "img")] == [4, 5, 6]


@pytest.mark.parametrize("option", sorted(CLONE_VALUED))
def test_each_option_of_git_clone_that_takes_a_value_hides_it(option: str) -> None:
    # the value is no operand, written as the next word or after `=`; a short option's glued on too
    assert clone_operands([option, "val", "https://x.org/app.git", "dest"]) == [
        "https://x.org/app.git",
        "dest",
    ]
    assert clone_operands([f"{option}=val", "https://x.org/app.git"]) == ["https://x.org/app.git"]
    if len(option) == 2:
        assert clone_operands([f"{option}val", "https://x.org/app.git"]) == ["https://x.org/app.git"]


def test_a_clone_option_without_a_value_hides_nothing() -> None:
    # traps: flags, and `--recurse-submodules`/`--recursive`, whose value only comes after `=`
    words = "--recurse-submodules --recursive --single-branch -q --bare https://x.org/app.git dest".split()
    assert clone_operands(words) == ["https://x.org/app.git", "dest"]
    assert clone_operands(["--recurse-submodules=lib", "https://x.org/app.git"]) == ["https://x.org/app.git"]


def test_bundled_short_clone_options() -> None:
    # `-qb main`: the last letter takes the next word; `-qbmain`: its value is glued on
    assert clone_operands(["-qb", "main", "https://x.org/app.git"]) == ["https://x.org/app.git"]
    assert clone_operands(["-qbmain", "https://x.org/app.git", "src"]) == ["https://x.org/app.git", "src"]


def test_clone_operands_after_a_double_dash_and_stripped_words() -> None:
    assert clone_operands(["-b", "main", "--", "https://x.org/app.git", "-odd"]) == [
        "https://x.org/app.git",
        "-odd",
    ]
    quoted = ["--branch", "'v1.2'", '"https://x.org/app.git"', "'my app'"]
    assert clone_operands(quoted, "\"'") == ["https://x.org/app.git", "my app"]
    assert clone_operands(["<repo-url>", "(dest)"], "<>()") == ["repo-url", "dest"]


@pytest.mark.parametrize(
    ("line", "clone"),
    [
        ("git clone -b main https://x.org/app.git", ("https://x.org/app.git", None)),
        ("git clone --reference /cache/app https://x.org/app.git out", ("https://x.org/app.git", "out")),
        ("git clone --filter blob:none 'https://x.org/app.git' && cd app", ("https://x.org/app.git", None)),
        ('git clone "https://x.org/app.git" dest && make -C dest', ("https://x.org/app.git", "dest")),
        (
            "git clone https://x.org/a.git one; git clone https://x.org/b.git two",
            ("https://x.org/a.git", "one"),
        ),
        ("git clone --separate-git-dir /g -j 4 https://x.org/app.git", ("https://x.org/app.git", None)),
    ],
)
def test_clone_of_reads_the_first_clone_of_a_line(line: str, clone: tuple[str, str | None]) -> None:
    assert clone_of(line) == clone


def test_every_clone_of_a_run_is_read() -> None:
    # the Dockerfile rules read each clone of a RUN: both of `git clone A && git clone -b v1 B dest`
    script = "git clone https://x.org/a.git && git clone -b v1 --depth 1 https://x.org/b.git dest"
    read = [clone_operands(m.group(1).split(), "\"'") for m in CLONE_STEP.finditer(script)]
    assert read == [["https://x.org/a.git"], ["https://x.org/b.git", "dest"]]


@pytest.mark.parametrize(
    ("line", "steps"),
    [
        # a substitution is one word of its step: the run keeps its image
        (
            "docker run -v $(pwd)/work:/w --gpus all acme/app:1.0",
            ["docker run -v $_/work:/w --gpus all acme/app:1.0", "pwd"],
        ),
        # a command run in a substitution is a step too, nested ones in turn
        (
            "CID=$(docker run -d acme/app) && docker logs $CID",
            ["CID=$_ ", " docker logs $CID", "docker run -d acme/app"],
        ),
        ("echo `docker ps -q $(whoami)`", ["echo $_", "docker ps -q $_"]),
        # an unclosed substitution runs to the end of the line, all of it its command
        ("docker run -v $(pwd", ["docker run -v $_", "pwd"]),
        # single quotes hold no substitution
        ("sh -c 'echo $(date)' ; ls", ["sh -c 'echo $(date)' ", " ls"]),
        # a `;`, `&&` or pipe in quotes or escaped is a word's text, not a step's end
        (
            'docker exec -it lab python3 -c "import torch; print(1)" && ls',
            ['docker exec -it lab python3 -c "import torch; print(1)" ', " ls"],
        ),
        ("sh -c 'a | b && c' | tee x", ["sh -c 'a | b && c' ", " tee x"]),
        ("find . -exec rm {} \\; ; ls", ["find . -exec rm {} \\; ", " ls"]),
        # an unclosed quote holds nothing: the steps after it are read as they were
        ('echo "open ; ls', ['echo "open ', " ls"]),
    ],
)
def test_the_steps_of_a_shell_line(line: str, steps: list[str]) -> None:
    assert shell_steps(line) == steps


def test_a_run_with_a_substitution_in_its_options_is_read_to_its_image() -> None:
    from docgen.audit.run_args import image_runs

    doc = read_document(
        block("docker run --rm -v $(pwd)/models:/models -u $(id -u):$(id -g) acme/app:1.0 serve"), "README.md"
    )
    assert [(image, after) for _, image, _, after in image_runs(doc)] == [("acme/app:1.0", ["serve"])]


def test_nested_substitutions_are_read_once() -> None:
    # a substitution nested in another is a word of it: 3,000 levels are no recursion and no n² reading
    deep = "docker run " + "$(echo " * 3_000 + "x" + ")" * 3_000
    steps = shell_steps(deep)
    assert steps[0] == "docker run $_" and steps[1] == "echo $_" and len(steps) == 2


@pytest.mark.parametrize(
    ("image", "repository", "tag"),
    [
        ("org/app:1.0@sha256:abc", "org/app", "1.0"),
        ("localhost:5000/app", "localhost:5000/app", "latest"),
        ("ubuntu@sha256:abc", "ubuntu", "latest"),
        ("ghcr.io/org/app:cuda12.2", "ghcr.io/org/app", "cuda12.2"),
    ],
)
def test_an_image_reference_parts(image: str, repository: str, tag: str) -> None:
    assert (image_repository(image), image_tag(image)) == (repository, tag)
