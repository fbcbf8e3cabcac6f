"""`docgen audit`: image names a README says a build script makes, against the tags the script gives
them (docgen/audit/script_images.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM ubuntu:22.04\n"
BUILD = """\
#!/bin/bash
V=${1:-"2.4.0"}
docker build -t ghcr.io/acme/serve-cuda:v$V -f Dockerfile .
docker push ghcr.io/acme/serve-cuda:v$V
docker build -t ghcr.io/acme/serve-rocm:v$V -f Dockerfile .
"""


def found(root: Path, readme: str, build: str = BUILD) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "make_images.sh": build, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "image" in d.message and "tags" in d.message
    ]


LISTED = "# Serve\n\n```bash\nbash make_images.sh 2.4.0\n```\n\nThis script will:\n{items}\n"


def test_a_list_under_the_script_naming_an_image_a_segment_away(tmp_path: Path) -> None:
    items = "- Build/push a dist-serve-cuda image tagged v2.4.0\n- Build a serve-rocm image\n"
    assert found(tmp_path, LISTED.format(items=items)) == [
        (
            8,
            "README says make_images.sh builds image dist-serve-cuda, but make_images.sh:3 tags "
            "ghcr.io/acme/serve-cuda:v2.4.0 and no image of that name",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "said"),
    [
        (
            "# Serve\n\n`make_images.sh` builds and pushes `ghcr.io/acme/serve:v2.4.0`.\n",
            "README says make_images.sh builds image ghcr.io/acme/serve:v2.4.0, but make_images.sh:3 tags",
        ),
        (
            "# Serve\n\nRun `./make_images.sh`; it creates the `serve-rocm-dev` image.\n",
            "README says make_images.sh builds image serve-rocm-dev, but make_images.sh:5 tags",
        ),
    ],
)
def test_a_sentence_naming_the_script_and_an_image(tmp_path: Path, readme: str, said: str) -> None:
    messages = [m for _, m, _ in found(tmp_path, readme)]
    assert len(messages) == 1
    assert messages[0].startswith(said)


@pytest.mark.parametrize(
    "readme",
    [
        # the nearest true statements
        LISTED.format(items="- Build/push a serve-cuda image tagged v2.4.0\n- Build a serve-rocm image\n"),
        "# Serve\n\n`make_images.sh` builds `ghcr.io/acme/serve-cuda:v2.4.0`.\n",
        # a description, not a name; another image; no script said to build it
        LISTED.format(items="- Build a vLLM-CUDA image\n"),
        LISTED.format(items="- Build a docs-site image\n"),
        "# Serve\n\nThe project also builds a dist-serve-cuda image in CI.\n",
        # an image named in code that the sentence does not say the script makes
        "# Serve\n\n`make_images.sh` builds the server on the `ghcr.io/acme/serve:base` image.\n",
        # a prebuilt image of another namespace
        "# Serve\n\n`make_images.sh` builds what we push as `acme/dist-serve-cuda:v2` on Docker Hub.\n",
        # after a block that runs no script
        "# Serve\n\n```bash\ndocker compose build\n```\n\nThis script will:\n"
        "- Build a dist-serve-cuda image\n",
    ],
)
def test_image_names_left_alone(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


TABLE_BUILD = """\
#!/bin/bash
PREFIX="registry.acme.io/base/torch"
DAY=$(date +%F)
docker build \\
    --build-arg BASE=${BASE} \\
    -t ${PREFIX}-${TAG}:${DAY} .
"""
TABLE = """\
# Images

| Contents | Image |
|---|---|
| CUDA 12.1 | `{first}` |
| CUDA 11.8 | `{second}` |

```
bash scripts/build_cuda12.sh
```
"""


def test_an_image_table_in_the_namespace_the_script_pushes_to(tmp_path: Path) -> None:
    readme = TABLE.format(
        first="registry.acme.io/base/py3.10-cuda12.1-devel",
        second="registry.acme.io/base/py3.10-cuda11.8-devel",
    )
    assert found(tmp_path, readme, TABLE_BUILD) == [
        (
            5,
            "README lists image registry.acme.io/base/py3.10-cuda12.1-devel (and 1 more), "
            "but make_images.sh:6 tags registry.acme.io/base/torch-*:* in that namespace",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("registry.acme.io/base/torch-py3.10-cuda12.1-devel", "registry.acme.io/base/torch-py3.10-cuda11.8"),
        ("other.io/base/py3.10-cuda12.1-devel", "nvidia/cuda:12.1.0-devel-ubuntu22.04"),  # another namespace
    ],
)
def test_image_tables_left_alone(tmp_path: Path, first: str, second: str) -> None:
    assert found(tmp_path, TABLE.format(first=first, second=second), TABLE_BUILD) == []


CALLEE = """\
#!/bin/bash
DAY=$(date +%F)
PREFIX="registry.acme.io/base/"
docker build -t ${PREFIX}${IMAGE_TAG}:${DAY} -f Dockerfile .
docker tag ${PREFIX}${IMAGE_TAG}:${DAY} ${PREFIX}${IMAGE_TAG}:latest
"""
CALLER = "#!/bin/sh\nexport PY=3.10\nexport IMAGE_TAG={tag}\n\n./docker/build.sh\n"
CHAINED = """\
# Images

| Contents | Image |
|---|---|
| Torch 2.3, CUDA 12.1 | `registry.acme.io/base/{first}` |
| CUDA 12.1 | `registry.acme.io/base/{second}` |

```
bash scripts/build_xxx.sh
```
"""


def _chained(root: Path, readme: str, tags: list[str]) -> list[tuple[int, str, str]]:
    files = {"docker/Dockerfile": APP, "docker/build.sh": CALLEE, "README.md": readme}
    files |= {f"scripts/build_{t}.sh": CALLER.format(tag=t) for t in tags}
    make_tree(root, files)
    model = build_model(root / "docker/Dockerfile", "docker/Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "image" in d.message and "tags" in d.message
    ]


def test_an_image_a_separator_away_from_the_tag_a_wrapper_script_gives(tmp_path: Path) -> None:
    # scripts/build_*.sh export IMAGE_TAG and run docker/build.sh, which tags ${PREFIX}${IMAGE_TAG}
    tags = ["torch2.3-py3.10-cuda12.1", "py3.10-cuda12.1"]
    readme = CHAINED.format(first="torch-2.3-py3.10-cuda12.1", second="py3.10-cuda12.1")
    assert _chained(tmp_path, readme, tags) == [
        (
            5,
            "README lists image registry.acme.io/base/torch-2.3-py3.10-cuda12.1, but docker/build.sh:4 tags "
            "registry.acme.io/base/torch2.3-py3.10-cuda12.1:* in that namespace "
            "(run by scripts/build_torch2.3-py3.10-cuda12.1.sh)",
            "likely",
        )
    ]


def test_names_the_wrapper_scripts_give_are_no_claim(tmp_path: Path) -> None:
    tags = ["torch2.3-py3.10-cuda12.1", "py3.10-cuda12.1"]
    readme = CHAINED.format(first="torch2.3-py3.10-cuda12.1", second="py3.10-cuda12.1")
    assert _chained(tmp_path, readme, tags) == []
    # the build script alone tags `registry.acme.io/base/*`: any name of the namespace may be one of it
    lone = CHAINED.format(first="torch-2.3-py3.10-cuda12.1", second="py3.10-cuda12.1")
    assert _chained(tmp_path / "lone", lone, []) == []


NAMED_BUILD = "#!/bin/bash\ndocker build --build-arg REF=main -t acme/chat-ui-gpu .\n"
NAMED = "# Chat UI\n\n```sh\n./make_images.sh\n```\n\n{note}\n"


def test_a_note_naming_the_image_the_script_tags_otherwise_in_its_namespace(tmp_path: Path) -> None:
    note = "(note it will call it acme/chat-webui-docker since that's what I push, may change later)"
    assert found(tmp_path, NAMED.format(note=note), NAMED_BUILD) == [
        (
            7,
            "README says make_images.sh names the image acme/chat-webui-docker, but make_images.sh:2 tags "
            "acme/chat-ui-gpu, and no image of that name in acme/",
            "likely",
        )
    ]
    # `tags the image as NAME` under a sentence naming the script
    said = "# Chat UI\n\n`make_images.sh` tags the image as acme/chat-webui:latest.\n"
    assert [m.split(", but")[0] for _, m, _ in found(tmp_path / "b", said, NAMED_BUILD)] == [
        "README says make_images.sh names the image acme/chat-webui:latest"
    ]


@pytest.mark.parametrize(
    ("note", "build"),
    [
        # the name the script gives, with or without a tag
        ("(note it will call it acme/chat-ui-gpu, and tag it too)", NAMED_BUILD),
        ("Note: it will call it acme/chat-ui-gpu:latest.", NAMED_BUILD),
        # a name in another namespace, or none: where the reader pushes it, or a local name
        ("(note it will call it someone/chat-webui-docker)", NAMED_BUILD),
        ("(note it will call it chat-webui-docker)", NAMED_BUILD),
        # a link, not a name
        ("(note it will be named as on https://hub.example.com/r/acme/chat-webui)", NAMED_BUILD),
        # the script's namespace is not known in full
        ("(note it will call it acme/chat-webui-docker)", "#!/bin/bash\ndocker build -t $ORG/chat-ui .\n"),
        # what the reader is told to do with the image afterwards
        ("(note it will build it; then tag it as acme/chat-prod and push it)", NAMED_BUILD),
        # a paragraph that is not about the script
        ("The maintainers call it acme/chat-webui-docker on their servers.", NAMED_BUILD),
    ],
)
def test_notes_naming_the_scripts_image_left_alone(tmp_path: Path, note: str, build: str) -> None:
    assert found(tmp_path, NAMED.format(note=note), build) == []


# a README kept from the project the repository was forked from: its build makes another name now
FORKED = """\
# Docking tools in Docker

Original: https://github.com/labfork/docking-tools-docker

## Build

The build command is the first line of the Dockerfile, just run

\t$(head -1 Dockerfile | sed 's/^#! //')

It builds a tagged container labfork/docking:TOOL_VERSION-IMAGE_VERSION

## Run

\tdocker run -v $PWD:/work labfork/docking:TOOL_VERSION-IMAGE_VERSION dock ...
"""


def _unmade(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": "FROM ubuntu:22.04\nRUN true\n", "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "no file of the project names" in d.message
    ]


def test_an_image_the_readme_says_the_build_makes_that_no_file_names(tmp_path: Path) -> None:
    assert _unmade(tmp_path, FORKED, {"build-image.sh": "docker build -t dock-tools ."}) == [
        (
            11,
            "README says the build makes labfork/docking:TOOL_VERSION-IMAGE_VERSION, but no file of the "
            "project names labfork/docking: build-image.sh:1 tags dock-tools",
            "likely",
        )
    ]


def test_an_image_a_sentence_says_is_created_while_the_makefile_tags_another(tmp_path: Path) -> None:
    readme = "# Lab\n\nRun `make image`. This creates the image `kitlab/jupyter-gpu:3.1`.\n"
    makefile = "image:\n\tdocker build -t kitlab/notebook-gpu:3.1 .\n"
    assert [(line, conf) for line, _, conf in _unmade(tmp_path, readme, {"Makefile": makefile})] == [
        (3, "likely")
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a build file names it: a script's tag, a workflow's push, a comment of the Dockerfile
        (FORKED, {"build-image.sh": "docker build -t labfork/docking:1.0-2 ."}),
        (
            FORKED,
            {
                "build-image.sh": "docker build -t dock-tools .",
                ".github/workflows/ci.yml": "tags: labfork/docking:latest\n",
            },
        ),
        (
            FORKED,
            {
                "build-image.sh": "docker build -t dock-tools .",
                "Dockerfile": "#! docker build -t labfork/docking:1 .\nFROM ubuntu\n",
            },
        ),
        # nothing the project builds is known: no script, or one whose tag comes from an argument
        (FORKED, {}),
        (FORKED, {"build-image.sh": "docker build -t $1 ."}),
        (FORKED, {"build-image.sh": "docker build -t dock-tools .", "push.sh": "docker push org/x:$V\n"}),
        # the README builds or pulls it itself
        (
            FORKED.replace("\t$(head", "\tdocker build -t labfork/docking:1 .\n\t$(head"),
            {"build-image.sh": "docker build -t dock-tools ."},
        ),
        (
            FORKED + "\n\tdocker pull labfork/docking:latest\n",
            {"build-image.sh": "docker build -t dock-tools ."},
        ),
        # a sentence about where the image comes from, or an example
        (
            FORKED.replace("It builds", "The upstream project builds"),
            {"build-image.sh": "docker build -t dock-tools ."},
        ),
        # a name with no namespace is no claim read here
        (FORKED.replace("labfork/docking:", "docking:"), {"build-image.sh": "docker build -t dock-tools ."}),
    ],
)
def test_images_the_project_names_or_makes_unknown(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _unmade(tmp_path, readme, files) == []


# a Makefile whose targets run one build script with words: the script names the image from them
DEVBOX_MAKE = """\
arm-20-build:
\tbash ./build.sh build arm 20 build
x86-22-build:
\tbash ./build.sh build x86 22 build
x86-22-run: x86-22-build
\tbash ./build.sh build x86 22 run
build-all: arm-20-build x86-22-run
"""
DEVBOX_BUILD = """\
set -e
NAME="kitlab/devbox-"
ARCH=$2
DISTRO=$3
if [ -z $VERSION ]; then
    VERSION=latest
fi
if [ $ARCH == "arm" ]; then
    if [ $DISTRO == "20" ]; then
        BASE="arm64v8/ubuntu:20.04"
    else
        echo "Wrong release"; exit 1
    fi
    KIND="-build"
elif [ $ARCH == "x86" ]; then
    if [ $DISTRO == "22" ]; then
        BASE="nvcr.io/nvidia/tensorrt:24.08-py3"
    else
        exit 1
    fi
    if [ $4 == "run" ]; then
        KIND="-run"
    else
        KIND="-build"
    fi
fi
if [[ $1 == "build" ]]; then
    docker build --build-arg BASE=$BASE \\
        --tag $NAME$ARCH-$DISTRO$KIND:$VERSION .
fi
"""
DEVBOX_README = """\
# Devbox

| Container | Platform | Ubuntu |
|---|---|---|
| `devbox-arm-20-build` | Jetson | 20.04 |
| `devbox-x86-20-build` | x86_64 | 20.04 |
| `devbox-x86-20-run` | x86_64 | 20.04 |

```bash
make build-all
```

- [kitlab/devbox-x86-20-build](https://hub.docker.com/r/kitlab/devbox-x86-20-build)
"""


def _made(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "no build of the project makes it" in d.message
    ]


def test_images_a_table_lists_that_the_makefile_s_script_runs_never_make(tmp_path: Path) -> None:
    files = {"Makefile": DEVBOX_MAKE, "build.sh": DEVBOX_BUILD}
    assert _made(tmp_path, DEVBOX_README, files) == [
        (
            6,
            "README lists image devbox-x86-20-build, but no build of the project makes it: make "
            "x86-22-build runs build.sh build x86 22 build, which tags kitlab/devbox-x86-22-build:latest "
            "(build.sh:29); also at line 13",
            "likely",
        ),
        (
            7,
            "README lists image devbox-x86-20-run, but no build of the project makes it: make x86-22-run "
            "runs build.sh build x86 22 run, which tags kitlab/devbox-x86-22-run:latest (build.sh:29)",
            "likely",
        ),
    ]


def test_an_older_release_a_table_lists(tmp_path: Path) -> None:
    make = "cpu:\n\t./scripts/build.sh cpu 2.3\n"
    build = 'docker build -t "acme/infer-$1-$2" -f Dockerfile .\n'
    readme = "# Infer\n\n| Image | For |\n|---|---|\n| `acme/infer-cpu-2.2` | CPUs |\n\n```\nmake cpu\n```\n"
    found = _made(tmp_path, readme, {"Makefile": make, "scripts/build.sh": build})
    assert [(line, conf) for line, _, conf in found] == [(5, "likely")]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # every name listed is made
        (
            DEVBOX_README.replace("x86-20", "x86-22"),
            {"Makefile": DEVBOX_MAKE, "build.sh": DEVBOX_BUILD},
        ),
        # a variant, not a release: no digit in the part
        (
            "| Image |\n|---|\n| `acme/infer-gpu-2.3` |\n\n```\nmake cpu\n```\n",
            {
                "Makefile": "cpu:\n\t./build.sh cpu 2.3\n",
                "build.sh": 'docker build -t "acme/infer-$1-$2" .\n',
            },
        ),
        # the words make passes are not known
        (
            DEVBOX_README,
            {"Makefile": DEVBOX_MAKE.replace("x86 22", "x86 $(DISTRO)"), "build.sh": DEVBOX_BUILD},
        ),
        # a workflow publishes the name listed
        (
            DEVBOX_README,
            {
                "Makefile": DEVBOX_MAKE,
                "build.sh": DEVBOX_BUILD,
                ".github/workflows/ci.yml": "tags: kitlab/devbox-x86-20-build:latest\n"
                "tags2: kitlab/devbox-x86-20-run:latest\n",
            },
        ),
        # the README runs no make
        (
            DEVBOX_README.replace("make build-all", "docker pull kitlab/devbox-x86-22-build"),
            {"Makefile": DEVBOX_MAKE, "build.sh": DEVBOX_BUILD},
        ),
    ],
)
def test_listed_images_made_or_not_judged(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _made(tmp_path, readme, files) == []


def test_a_release_the_readme_builds_by_a_value_it_sets(tmp_path: Path) -> None:
    # `make image CUDA=11.8` builds the listed `acme/infer-cu11.8`: the Makefile's default is only one release
    make = "CUDA ?= 12.1\nimage:\n\tdocker build -t acme/infer-cu$(CUDA) .\n"
    readme = "| Image |\n|---|\n| `acme/infer-cu11.8` |\n| `acme/infer-cu12.1` |\n\n```\nmake image{}\n```\n"
    assert [line for line, _, _ in _made(tmp_path, readme.format(""), {"Makefile": make})] == [3]
    assert _made(tmp_path, readme.format(" CUDA=11.8"), {"Makefile": make}) == []
