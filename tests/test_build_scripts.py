"""`docgen.build_scripts`: the images a shell build script tags."""

from __future__ import annotations

import re

import pytest

from docgen import build_scripts
from docgen.build_scripts import built_tags


@pytest.mark.parametrize(
    ("script", "tags"),
    [
        ("docker build -t org/app:1.0 .\n", ("org/app:1.0",)),
        ('REG="${REG:-ghcr.io/org}"\nTAG=2.1\ndocker build -t "$REG/app:$TAG" .\n', ("ghcr.io/org/app:2.1",)),
        ("name=$1\nimg=org/${name}\ndocker build --tag=${img} .\n", ("org/*",)),
        ("docker build \\\n  -t 'org/app:${X}' .\n", ("org/app:${X}",)),  # single quotes: as written
        ("docker tag org/app:1 mirror.io/app:1\n", ("mirror.io/app:1",)),
        ("declare -r -x TAG=2.1\ndocker build -t org/app:$TAG .\n", ("org/app:2.1",)),  # any declare flags
        ("IMG=$(cat name.txt)\ndocker build -t $IMG .\n", ()),  # nothing known
        ("echo '-t x'\n", ()),  # not a build
        ('V=${1:-"0.2"}\ndocker push ghcr.io/org/app:v$V\n', ("ghcr.io/org/app:v0.2",)),
    ],
)
def test_the_tags_a_script_builds(script: str, tags: tuple[str, ...]) -> None:
    assert built_tags(script) == tags


def test_a_script_run_by_another_sees_what_it_exports() -> None:
    caller = 'export IMAGE_TAG=torch2.3-cu121\nTAG="${TAG:-nightly}"\n'
    caller += "./docker/build.sh\nbash tools/push.sh x\n"

    calls = build_scripts.called_scripts(caller)
    assert [(line, path) for line, path, _ in calls] == [(3, "./docker/build.sh"), (4, "tools/push.sh")]
    variables = calls[0][2]
    assert variables == {"IMAGE_TAG": "torch2.3-cu121", "TAG": "nightly"}
    callee = 'P="reg.io/base/"\nTAG="${TAG:-latest}"\ndocker build -t ${P}${IMAGE_TAG}:${TAG} .\n'
    assert build_scripts.built_tags(callee) == ("reg.io/base/*:latest",)
    # the caller's value wins over the callee's default
    assert build_scripts.built_tag_lines(callee, variables) == ((3, "reg.io/base/torch2.3-cu121:nightly"),)
    # `$(…)` and a line that is no call are no script run
    assert build_scripts.called_scripts("V=$(./version.sh)\necho ./x.sh\n") == ()


@pytest.mark.parametrize(
    "command",
    [
        "docker build -t org/app .",
        "docker buildx build --platform linux/amd64 .",
        "docker builder build .",
        "docker image build -f docker/Dockerfile .",
        "podman build .",
        "podman image build .",
        "nerdctl build .",
        "buildah bud -t app .",
        "buildah build -t app .",
        "cd docker && docker build .",
        "docker build",  # at the end of a line
        "`docker build`",  # in inline code
    ],
)
def test_a_build_command(command: str) -> None:
    assert build_scripts.BUILD.search(command) is not None


@pytest.mark.parametrize(
    "command",
    [
        "docker buildx create --use",  # a builder, no build
        "docker buildx bake",  # a bake file: `audit.bakes`
        "docker compose build",  # a compose file's builds
        "docker build-push",  # another word
        "docker builds",
        "docker bud .",  # `bud` is buildah's alone
        "docker run org/build .",
        "./build.sh",
        "make build",
    ],
)
def test_no_build_command(command: str) -> None:
    assert build_scripts.BUILD.search(command) is None


@pytest.mark.parametrize(
    ("line", "starts"),
    [
        ("docker build -t app .", True),
        ("  $ sudo docker build -t app .", True),  # a prompt and sudo
        ("sudo podman build .", True),
        ("echo docker build -t app .", False),  # a word of another command
        ("./scripts/build.sh && docker build .", False),  # a script first: it may read more
        ("# docker build .", False),
    ],
)
def test_a_build_line(line: str, starts: bool) -> None:
    assert (build_scripts.BUILD_LINE.match(line) is not None) is starts


def test_one_engine_s_build() -> None:
    docker = re.compile(build_scripts.build_command("docker"))
    assert docker.search("docker buildx build .") and docker.search("docker image build .")
    assert not docker.search("podman build .") and not docker.search("buildah bud .")


def test_a_tag_on_the_line_after_its_flag() -> None:
    script = 'docker build \\\n    --pull \\\n    -t \\\n    app_image:latest "."\n'
    assert build_scripts.built_tag_lines(script) == ((4, "app_image:latest"),)


# a build script a Makefile runs with words: `bash ./build.sh build x86 22 run`
BRANCHED = """\
set -e
NAME="kitlab/devbox-"
ARCH=$2
DISTRO=$3
if [ -z $VERSION ]
then
    VERSION=latest
fi
if [ $ARCH == "arm" ]
then
    if [ "$DISTRO" == "20" ]; then
        BASE="arm64v8/ubuntu:20.04"
    else
        echo "unsupported"; exit 1
    fi
    KIND="-build"
elif [[ $ARCH == "x86" ]]; then
    if [ -z $4 ]; then
        exit 1
    elif [ $4 == "run" ]; then
        KIND="-run"
    elif [ $4 == "build" ]; then
        KIND="-build"
    fi
else
    exit 1
fi
case "$1" in
  fast) EXTRA=1 ;;
esac
if [[ $1 == "build" ]]; then
    docker build --build-arg BASE=$BASE \\
        --tag $NAME$ARCH-$DISTRO$KIND:$VERSION .
elif [[ $1 == "push" ]]; then
    docker push $NAME$ARCH-$DISTRO$KIND:$VERSION
fi
"""


@pytest.mark.parametrize(
    ("arguments", "tags"),
    [
        (["build", "arm", "20"], ((33, "kitlab/devbox-arm-20-build:latest"),)),
        (["build", "x86", "22", "run"], ((33, "kitlab/devbox-x86-22-run:latest"),)),
        (["build", "x86", "22", "build"], ((33, "kitlab/devbox-x86-22-build:latest"),)),
        (["push", "x86", "22", "run"], ((35, "kitlab/devbox-x86-22-run:latest"),)),
        (["build", "arm", "22"], ()),  # the run exits in the branch of another release
        (["build", "x86", "22"], ()),  # no variant: it exits
        (["build", "riscv", "24", "build"], ()),
    ],
)
def test_a_script_read_as_a_run_with_its_words_goes_through(
    arguments: list[str], tags: tuple[tuple[int, str], ...]
) -> None:
    assert build_scripts.built_tag_lines(BRANCHED, None, arguments) == tags


def test_a_function_opened_without_parentheses_is_a_block_of_its_own() -> None:
    # `function f {` opens a block as `f() {` does: its `}` closes the function, not the `if` around it,
    # so a build in a branch the run does not take stays unread
    script = 'if [ "$1" = a ]; then\n  function f {\n    echo x\n  }\n  docker build -t x/y:1 .\nfi\n'
    assert build_scripts.built_tag_lines(script, None, ["b"]) == ()
    assert build_scripts.built_tag_lines(script, None, ["a"]) == ((5, "x/y:1"),)


def test_a_branch_that_cannot_be_decided_leaves_what_it_sets_unknown() -> None:
    script = 'TAG=1\nif [ -f local.env ]; then\n  TAG=2\nfi\nif [ "$(uname -m)" = x86_64 ]; then\n  A=x\nfi\n'
    script += "docker build -t org/app-$A:$TAG .\n"
    assert build_scripts.built_tag_lines(script, None, []) == ((8, "org/app-*:*"),)
    # read with no words, a script's positional `$1` is left as it was: the tag is not known
    assert build_scripts.built_tag_lines("docker build -t org/app:$1 .\n") == ()
    given = build_scripts.built_tag_lines("docker build -t org/app:$1 .\n", None, ["2.0"])
    assert given == ((1, "org/app:2.0"),)


def test_a_test_word_reads_a_variable_as_a_tag_does() -> None:
    # a shell name is ASCII letters, digits and `_`: `$ARCHé` is `$ARCH` then `é`, in a test as in a tag
    script = 'ARCH=x86\nif [ "$ARCHé" = "x86é" ]; then\n  docker build -t org/app-$ARCHé .\nfi\n'
    assert build_scripts.built_tag_lines(script, None, []) == ((3, "org/app-x86é"),)


@pytest.mark.parametrize(
    ("command", "names"),
    [
        ("docker tag org/app:1 mirror.io/app:1", [("org/app:1", "mirror.io/app:1")]),
        # its options skipped, its end where the command ends
        ("podman image tag -f app:dev org/app:1.0; docker push org/app:1.0", [("app:dev", "org/app:1.0")]),
        ("ID=$(docker tag app org/app)&&echo", [("app", "org/app")]),
        ('docker tag "$IMAGE" "org/app:${VERSION}"', [('"$IMAGE"', '"org/app:${VERSION}"')]),
        ("docker tag app \\", []),  # the target on the next line, which a logical line joins
    ],
)
def test_a_tag_command_names_its_source_and_target(command: str, names: list[tuple[str, str]]) -> None:
    assert [m.groups() for m in build_scripts.TAG_COMMAND.finditer(command)] == names
    assert build_scripts.tag_targets(command) == [target for _, target in names]
