"""`docgen audit` of a README about a family of images: which part of it is about which image.

Each rule has a planted drift that must be found and a trap that must not be reported.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from helpers import audit_tree, findings, make_tree, times_told

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

# --------------------------------------------------------------------------------------------------
# A heading naming one word of a Dockerfile's many-word name

ALMA = """\
ARG OS_TAG=9.4
FROM almalinux:${OS_TAG}
ARG APP_RELEASE=4.2.0
ARG MIRROR=repo.example.org
RUN echo ${APP_RELEASE} ${MIRROR}
"""
DEBIAN = """\
ARG OS_TAG=bookworm
FROM debian:${OS_TAG}
ARG APP_RELEASE=4.1.0
ARG MIRROR=repo.example.org
RUN echo ${APP_RELEASE} ${MIRROR}
"""
FAMILY = {"ci/Dockerfile.alma.app": ALMA, "ci/Dockerfile.debian.app": DEBIAN}
PART_TABLE = """\
# App images

### {heading}

The image takes these build arguments:

| Argument | Default | Meaning |
|---|---|---|
| `APP_RELEASE` | `4.1.0` | app release |
| `MIRROR` | `repo.example.org` | package mirror |
"""


def test_a_heading_naming_a_word_only_one_dockerfile_name_has_ties_its_table_to_that_image() -> None:
    assert findings(PART_TABLE.format(heading="Alma-based Dockerfile"), FAMILY) == [
        "7: build arg OS_TAG (ci/Dockerfile.alma.app:1) is missing from the README's build-argument table",
        "9: README says APP_RELEASE defaults to 4.1.0 but ci/Dockerfile.alma.app:3 says 4.2.0",
    ]


def test_a_heading_word_both_names_share_or_not_about_an_image_ties_nothing() -> None:
    # `app` is in both names; `Alma notes` is no heading about an image: 4.1.0 is debian's default.
    assert findings(PART_TABLE.format(heading="The app image"), FAMILY) == []
    assert findings(PART_TABLE.format(heading="Alma notes"), FAMILY) == []


# --------------------------------------------------------------------------------------------------
# A heading naming a platform word of one Dockerfile's name, or a stage only one Dockerfile has

DESKTOP = """\
FROM python:3.12-slim
ARG TORCH_RELEASE=2.8.0
RUN pip install torch==${TORCH_RELEASE}
"""
BOARD = """\
FROM nvcr.io/nvidia/l4t-base:r36.4.0 AS sources
RUN git clone https://github.com/pytorch/pytorch /src
FROM sources AS torch-compile
ARG TORCH_RELEASE=2.6.0
RUN cd /src && git checkout v${TORCH_RELEASE} && python3 setup.py bdist_wheel
"""
BOARD_FAMILY = {"Dockerfile.tmpl": DESKTOP, "Dockerfile.jetson.tmpl": BOARD}
BOARD_README = """\
# Torch images

## {heading}

Runs on the board.

### How it is made

PyTorch {torch} is compiled from source.
"""


@pytest.mark.parametrize(
    "heading", ["Jetson Support (ARM64)", "Running on NVIDIA Jetson", "The torch-compile stage"]
)
def test_a_heading_naming_one_dockerfile_s_platform_or_stage_ties_its_subsections(heading: str) -> None:
    # the trap: 2.6.0 is right for the Jetson template, wrong only for the other one
    assert findings(BOARD_README.format(heading=heading, torch="2.6.0"), BOARD_FAMILY) == []
    # the planted drift, read against the Jetson template alone
    assert findings(BOARD_README.format(heading=heading, torch="2.5.1"), BOARD_FAMILY) == [
        "9: README says PyTorch 2.5.1 but Dockerfile.jetson.tmpl:4 says 2.6.0"
    ]


def test_a_heading_word_every_name_has_or_no_platform_word_ties_nothing() -> None:
    # `tmpl` is in both names; `Board` names no platform: 2.6.0 agrees with one image of the two
    for heading in ("Template notes", "Board notes"):
        assert findings(BOARD_README.format(heading=heading, torch="2.6.0"), BOARD_FAMILY) == []
        assert findings(BOARD_README.format(heading=heading, torch="2.5.1"), BOARD_FAMILY) == [
            "9: README says PyTorch 2.5.1 but Dockerfile.tmpl:2 says 2.8.0"  # the first image's
        ]


# --------------------------------------------------------------------------------------------------
# A build-arg list some of whose items a note binds to one image

OFED = """\
ARG GCC_VERSION=12
FROM gcc:${GCC_VERSION}
ARG NET_TAG=v2.0
ARG OFED_RELEASE=5.8
RUN echo ${NET_TAG} ${OFED_RELEASE}
"""
VERBS = """\
ARG GCC_VERSION=13
FROM gcc:${GCC_VERSION}
ARG NET_TAG=v2.0
RUN echo ${NET_TAG}
"""
NOTED_LIST = """\
# Fabric images

```bash
docker build -f net-ofed.dockerfile .
docker build -f net-verbs-lib.dockerfile .
```

## Build args

These build args change the images:

- `NET_TAG`: network stack release (default `v2.0`)
- `GCC_VERSION`: compiler (default `12`)
- `OFED_RELEASE`: {note} driver release (default `5.8`)
"""
NET = {"net-ofed.dockerfile": OFED, "net-verbs-lib.dockerfile": VERBS}


def test_a_note_binding_some_items_to_one_image_makes_the_others_about_each_image() -> None:
    assert findings(NOTED_LIST.format(note="(ofed image only)"), NET) == [
        "13: README says GCC_VERSION defaults to 12 but net-verbs-lib.dockerfile:1 says 13",
    ]
    # The words that end a many-word name name its image too: `verbs-lib` (the other one's arg: drift).
    assert findings(NOTED_LIST.format(note="(verbs-lib only)"), NET) == [
        "13: README says GCC_VERSION defaults to 12 but net-verbs-lib.dockerfile:1 says 13",
        "14: README documents build arg OFED_RELEASE but net-verbs-lib.dockerfile does not declare it",
    ]


def test_a_list_without_such_a_note_is_about_each_image_that_declares_the_arg() -> None:
    # every image declares GCC_VERSION: its one default is each image's (family_defaults); OFED_RELEASE,
    # declared by one image only, is that image's and agrees
    assert findings(NOTED_LIST.format(note=""), NET) == [
        "13: README says GCC_VERSION defaults to 12 but net-verbs-lib.dockerfile:1 says 13",
    ]


# --------------------------------------------------------------------------------------------------
# A block listing build args as `NAME: what it sets`

DESCRIBED = """\
# Tools image

## {heading}

```shell
GCC_VERSION:        compiler release of the base image
EXTRA_TOOLS_LIST:   more packages to install
```
"""


def test_a_block_of_name_colon_lines_under_a_build_args_heading_documents_build_args() -> None:
    assert findings(DESCRIBED.format(heading="ARG options"), {"Dockerfile": VERBS}) == [
        "7: README documents build arg EXTRA_TOOLS_LIST but Dockerfile does not declare it",
    ]


def test_such_a_block_under_other_words_or_naming_no_declared_arg_is_no_claim() -> None:
    assert findings(DESCRIBED.format(heading="Environment variables"), {"Dockerfile": VERBS}) == []
    unrelated = DESCRIBED.replace("GCC_VERSION", "LOG_LEVEL_NAME")
    assert findings(unrelated.format(heading="Build args"), {"Dockerfile": VERBS}) == []


# --------------------------------------------------------------------------------------------------
# A build command that does not pass a build arg the build fails without

REQUIRES = """\
FROM alpine:3.20
ARG SOURCE_REV
RUN {check} \\
  && wget https://example.org/src/${{SOURCE_REV}}.tar.gz
"""
BUILDS = """\
# Source image

```bash
docker build -t src -f Dockerfile.src {extra}.
```
"""


def test_a_build_command_missing_an_arg_the_dockerfile_requires_is_reported() -> None:
    for check in (
        'test -n "${SOURCE_REV}"',
        '[ -n "$SOURCE_REV" ] || exit 1',
        'if [ -z "$SOURCE_REV" ]; then echo "pass SOURCE_REV"; exit 1; fi',
        ": ${SOURCE_REV:?}",
    ):
        dockerfile = REQUIRES.format(check=check)
        assert findings(BUILDS.format(extra=""), {"Dockerfile.src": dockerfile}) == [
            "4: README builds Dockerfile.src without --build-arg SOURCE_REV, but Dockerfile.src:3 fails "
            "the build without it (SOURCE_REV has no default)",
        ]


def test_an_optional_arg_a_passed_one_or_a_command_passing_more_is_not_reported() -> None:
    optional = REQUIRES.format(check='if [ -n "$SOURCE_REV" ]; then echo pinned; fi')
    assert findings(BUILDS.format(extra=""), {"Dockerfile.src": optional}) == []
    required = {"Dockerfile.src": REQUIRES.format(check='test -n "${SOURCE_REV}"')}
    assert findings(BUILDS.format(extra="--build-arg SOURCE_REV=v1 "), required) == []
    assert findings(BUILDS.format(extra="$BUILD_FLAGS "), required) == []
    said = BUILDS.format(extra="") + "\nSet `SOURCE_REV` to the release to build.\n"
    assert findings(said, required) == []


MANY_REQUIRED = """\
FROM alpine:3.20
ARG SOURCE_REV
ARG MIRROR_HOST
ARG RELEASE_KEY
RUN test -n "${SOURCE_REV}" && echo "${SOURCE_REV}" > /rev
RUN test -n "${MIRROR_HOST}" && echo "${MIRROR_HOST}" > /mirror
RUN : ${RELEASE_KEY:?}
"""


def searches_of_the_readme_for(names: tuple[str, ...], commands: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times `audit` of a README of `commands` build commands of a Dockerfile requiring the
    build args `names` (none of them passed, the README naming none) searches for one of the names."""
    readme = "# Source image\n\n```bash\n"
    readme += "".join(f"docker build -t src:{i} -f Dockerfile.src .\n" for i in range(commands)) + "```\n"
    searched = []
    real_search = re.search

    def search(pattern: str | re.Pattern[str], string: str, flags: int = 0) -> re.Match[str] | None:
        text = pattern if isinstance(pattern, str) else pattern.pattern
        if any(name in text for name in names):
            searched.append(text)
        return real_search(pattern, string, flags)

    monkeypatch.setattr(re, "search", search)
    found = findings(readme, {"Dockerfile.src": MANY_REQUIRED})
    monkeypatch.undo()
    # each arg is reported for each command: once, naming the commands' lines
    assert len(found) == len(names)
    assert all(times_told(int(f.split(":")[0]), f) == commands for f in found)
    return len(searched)


def test_the_readme_is_searched_for_a_required_arg_once_not_once_a_build_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether the README names a required arg (then it says to pass it) is the same for every build
    command: asking it once per command and arg made 1,200 commands of 5 args take 85 s."""
    names = ("SOURCE_REV", "MIRROR_HOST", "RELEASE_KEY")
    few = searches_of_the_readme_for(names, 3, monkeypatch)
    many = searches_of_the_readme_for(names, 60, monkeypatch)
    assert many == few <= len(names)


# --------------------------------------------------------------------------------------------------
# A build command with no `-f` in a section about a Dockerfile that is not the folder's default

NPU_IMAGE = """\
# Accelerator image

## Building

The [`Dockerfile.npu`](Dockerfile.npu) adds the accelerator runtime:

```
docker build -t npu-app {flag}.
```
"""


def test_a_build_with_no_file_flag_in_a_section_about_another_dockerfile_builds_the_default(
    tmp_path: Path,
) -> None:
    make_tree(tmp_path, {"Dockerfile": "FROM debian:12\n", "Dockerfile.npu": "FROM ubuntu:22.04\n"})
    npu = {"Dockerfile.npu": "FROM ubuntu:22.04\n"}
    assert findings(NPU_IMAGE.format(flag=""), npu, tmp_path) == [
        "8: README builds with no -f, which builds the Dockerfile next to it, not Dockerfile.npu that "
        "this section is about",
    ]
    assert findings(NPU_IMAGE.format(flag="-f Dockerfile.npu "), npu, tmp_path) == []


def test_a_build_with_no_file_flag_where_no_plain_dockerfile_is_builds_nothing_else(tmp_path: Path) -> None:
    # not another image of the family: a build that fails, since no file is named Dockerfile
    # (`entered_builds`), and names the Dockerfile to pass with -f
    make_tree(tmp_path, {"Dockerfile.npu": "FROM ubuntu:22.04\n"})
    (found,) = findings(NPU_IMAGE.format(flag=""), {"Dockerfile.npu": "FROM ubuntu:22.04\n"}, tmp_path)
    assert found.startswith("8: README runs docker build . in the README's own folder")
    assert found.endswith(
        ", but it holds no Dockerfile: with no -f, docker build reads Dockerfile from the context "
        "(the folder has Dockerfile.npu: name one with -f)"
    )


# --------------------------------------------------------------------------------------------------
# `docker pull` / `docker run` of the base image's repository with another release

TOOLKIT = """\
ARG SDK_IMAGE=registry.example.com/ml/server:24.03-py3-sdk
FROM ${SDK_IMAGE}
RUN echo ok
"""
PULLS = """\
# Server tools

Run the SDK container:

```
docker pull registry.example.com/ml/server:{tag}
docker run --gpus all \\
    registry.example.com/ml/server:{tag} bash
docker run --gpus all registry.example.com/ml/server:23.01-py3 nvidia-smi
```
"""


def test_pulling_another_release_of_the_base_image_is_reported() -> None:
    assert findings(PULLS.format(tag="23.10-py3-sdk"), {"Dockerfile": TOOLKIT}) == [
        "6: README pulls registry.example.com/ml/server:23.10-py3-sdk but Dockerfile:1 says "
        "registry.example.com/ml/server:24.03-py3-sdk",
        "8: README runs registry.example.com/ml/server:23.10-py3-sdk but Dockerfile:1 says "
        "registry.example.com/ml/server:24.03-py3-sdk",
    ]


def test_the_same_release_another_variant_or_a_gpu_check_is_not_reported() -> None:
    assert findings(PULLS.format(tag="24.03-py3-sdk"), {"Dockerfile": TOOLKIT}) == []
    assert findings(PULLS.format(tag="23.10-py3"), {"Dockerfile": TOOLKIT}) == []


NEWER_TOOLKIT = "FROM registry.example.com/gpu/toolkit:13.0.1-dnn-devel-ubuntu24.04\nRUN echo ok\n"
BASE_PULL = """\
# Course image

## Troubleshooting

```bash
# Make sure Docker sees the GPU
docker run --rm --gpus all registry.example.com/gpu/toolkit:12.9.1-base nvidia-smi

{comment}
docker pull {image}
docker pull registry.example.com/gpu/other:12.9.1-devel-ubuntu22.04
```
"""


def _pull_findings(comment: str, image: str) -> list[tuple[int, str, str]]:
    readme = BASE_PULL.format(comment=comment, image=image)
    model = model_of(parse_dockerfile(NEWER_TOOLKIT, "docker/gpu/Dockerfile"))
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", [model], {})]


def test_a_pull_of_the_base_repository_at_a_tag_of_another_shape_from_no_longer() -> None:
    old = "registry.example.com/gpu/toolkit:12.9.1-devel-ubuntu22.04"
    said = (
        f"README pulls {old} but docker/gpu/Dockerfile:1 says "
        "registry.example.com/gpu/toolkit:13.0.1-dnn-devel-ubuntu24.04"
    )
    assert _pull_findings("# Check that the base image is available", old) == [(10, said, "certain")]
    assert _pull_findings("# Fetch it ahead of time", old) == [(10, said, "likely")]


@pytest.mark.parametrize(
    ("comment", "image"),
    [
        ("# Check the base image", "registry.example.com/gpu/toolkit:13.0.1-dnn-devel-ubuntu24.04"),  # FROM's
        (
            "# Check the base image",
            "registry.example.com/gpu/toolkit:13.0.1-devel-ubuntu24.04",
        ),  # the same release
        (
            "# Check the base image",
            "registry.example.com/gpu/toolkit:12.9.1-runtime-ubuntu22.04",
        ),  # another variant
        ("# Check the base image", "registry.example.com/gpu/toolkit:latest"),  # no version
        ("# The previous release's base image", "registry.example.com/gpu/toolkit:12.9.1-devel-ubuntu22.04"),
        (
            "# Check the base image",
            "registry.example.com/course/gpu:12.9.1-devel-ubuntu22.04",
        ),  # another image
    ],
)
def test_pulls_of_the_base_that_agree_or_are_not_about_it(comment: str, image: str) -> None:
    assert _pull_findings(comment, image) == []


# --------------------------------------------------------------------------------------------------
# A base image a sentence says is each image's

EACH_BASE = """\
# Fabric images

Two images are built:

```bash
docker build -f net-ofed.dockerfile .
docker build -f net-verbs-lib.dockerfile .
```

{said} the base image is
gcc:12 from Docker Hub.
"""


def test_a_base_said_to_be_each_images_is_compared_with_each() -> None:
    assert findings(EACH_BASE.format(said="In both cases,"), NET) == [
        "11: README says gcc:12 but net-verbs-lib.dockerfile:1 says gcc:13",
    ]


def test_a_base_not_said_to_be_each_images_agrees_with_one() -> None:
    assert findings(EACH_BASE.format(said="For the driver image,"), NET) == []


# --------------------------------------------------------------------------------------------------
# A bake file beside the README: each of its targets is an image, built with its args

BAKED = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG TORCH_VERSION
ARG KERNELS_VERSION
ARG APP_VERSION=1.0.0
RUN /install.sh
"""
BAKE_JSON = """\
{
  "group": {"default": {"targets": ["gpu-new"]}},
  "target": {
    "gpu-old": {
      "dockerfile": "Dockerfile",
      "args": {
        "BASE_IMAGE": "example/base:cuda12.4.1",
        "TORCH_VERSION": "2.4.0",
        "KERNELS_VERSION": "0.3.1",
        "APP_VERSION": "1.2.0"
      }
    },
    "gpu-new": {
      "dockerfile": "Dockerfile",
      "args": {
        "BASE_IMAGE": "example/base:cuda12.8.1",
        "TORCH_VERSION": "2.6.0",
        "KERNELS_VERSION": "0.4.0",
        "APP_VERSION": "1.2.0"
      }
    }
  }
}
"""
BAKED_README = """\
# App images

| Image | Torch | Kernels |
|---|---|---|
| gpu-new * | 2.4.0 | - |
| gpu-old | 2.4.0 | 0.3.1 |

Every image ships App 1.0.0.
"""


def audit_cli(root: Path, files: dict[str, str]) -> tuple[int, str, str]:
    """`docgen audit README.md` run in `root` after writing `files` there: (exit code, stdout, stderr)."""
    result = audit_tree(root, files)
    return result.code, result.out, result.err


def test_each_bake_target_is_audited_as_built_with_its_args(tmp_path: Path) -> None:
    # gpu-new's row says Torch 2.4.0, gpu-old's version (drift: each row is its own target's), and no
    # kernels while it pins 0.4.0 (drift); gpu-old's row is true. App 1.0.0 is the ARG default, but
    # the bake file builds every image with 1.2.0 (drift).
    files = {"Dockerfile": BAKED, "docker-bake.json": BAKE_JSON, "README.md": BAKED_README}
    code, out, err = audit_cli(tmp_path, files)
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "README.md:5: error: README says Torch 2.4.0 but docker-bake.json:17 says 2.6.0 [DG101] (certain)",
        "README.md:5: error: README says gpu-new has no Kernels but docker-bake.json:18 says 0.4.0 [DG101] "
        "(likely)",
        "README.md:8: error: README says App 1.0.0 but docker-bake.json:10 says 1.2.0 [DG101] (likely)",
        "3 claims in README.md contradict Dockerfile (gpu-old), Dockerfile (gpu-new)",
    ]
    true = BAKED_README.replace("| gpu-new * | 2.4.0 | - |", "| gpu-new * | 2.6.0 | 0.4.0 |")
    assert audit_cli(tmp_path, {"README.md": true.replace("App 1.0.0", "App 1.2.0")})[:2] == (
        0,
        "README.md: no claim outside the docgen blocks contradicts Dockerfile (gpu-old), "
        "Dockerfile (gpu-new)\n",
    )


BAKE_MATRIX = """\
target "gpu" {
  name = "gpu-${item.tag}"
  matrix = {
    item = [
      { tag = "old", torch = "2.4.0", kernels = "0.3.1" },
      { tag = "new", torch = "2.6.0", kernels = "0.4.0" },
    ]
  }
  args = {
    BASE_IMAGE      = "example/base:cuda12.8.1"
    TORCH_VERSION   = item.torch
    KERNELS_VERSION = item.kernels
    APP_VERSION     = "1.2.0"
  }
}
"""


def test_each_target_a_bake_matrix_makes_is_audited_as_built_with_its_values(tmp_path: Path) -> None:
    # as above, the two images one matrix target makes: each row is its own target's
    files = {"Dockerfile": BAKED, "docker-bake.hcl": BAKE_MATRIX, "README.md": BAKED_README}
    code, out, err = audit_cli(tmp_path, files)
    assert (code, err) == (1, "")
    assert (
        out.splitlines()[-1] == "3 claims in README.md contradict Dockerfile (gpu-old), Dockerfile (gpu-new)"
    )
    assert out.splitlines()[0] == (
        "README.md:5: error: README says Torch 2.4.0 but docker-bake.hcl:11 says 2.6.0 [DG101] (certain)"
    )
    true = BAKED_README.replace("| gpu-new * | 2.4.0 | - |", "| gpu-new * | 2.6.0 | 0.4.0 |")
    assert audit_cli(tmp_path, {"README.md": true.replace("App 1.0.0", "App 1.2.0")})[:2] == (
        0,
        "README.md: no claim outside the docgen blocks contradicts Dockerfile (gpu-old), "
        "Dockerfile (gpu-new)\n",
    )


def test_a_configured_image_is_audited_as_configured_not_as_the_bake_file_says(tmp_path: Path) -> None:
    config = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
    files = {"Dockerfile": BAKED, "docker-bake.json": BAKE_JSON, "pyproject.toml": config}
    code, out, _ = audit_cli(tmp_path, {**files, "README.md": BAKED_README})
    assert (code, out.splitlines()[-1]) == (
        0,
        "README.md: no claim outside the docgen blocks contradicts Dockerfile",
    )


def test_a_bake_file_that_cannot_be_read_is_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "hcl2", None)  # the [hcl] extra is not installed
    hcl = 'target "gpu-new" {\n  args = { TORCH_VERSION = "2.6.0" }\n}\n'
    files = {"Dockerfile": BAKED, "docker-bake.hcl": hcl, "README.md": BAKED_README}
    code, out, err = audit_cli(tmp_path, files)
    assert code == 0
    assert err.count("docker-bake.hcl was not read") == 1
    assert "python-hcl2" in err


def test_a_section_headed_by_a_bake_targets_name_is_about_that_image(tmp_path: Path) -> None:
    readme = "# App\n\n## gpu-old\n\nBuilt with Torch 2.6.0.\n\n## gpu-new\n\nBuilt with Torch 2.6.0.\n"
    files = {"Dockerfile": BAKED, "docker-bake.json": BAKE_JSON, "README.md": readme}
    # 2.6.0 is gpu-new's, not gpu-old's (drift); gpu-new's own section is true
    assert audit_cli(tmp_path, files)[1].splitlines()[:-1] == [
        "README.md:5: error: README says Torch 2.6.0 but docker-bake.json:8 says 2.4.0 [DG101] (likely)"
    ]


# --------------------------------------------------------------------------------------------------
# A section whose build command passes --build-arg NAME=VALUE is about the image that command builds

STREAM = """\
ARG BASE_CONTAINER=nvcr.io/nvidia/deepstream:6.0.1-devel
FROM ${BASE_CONTAINER}
ARG APP_VERSION=1.4.0
RUN pip install app==${APP_VERSION}
"""
STREAM_README = """\
# Stream images

## Deepstream 6.0.1

    docker build -t ds:6.0.1 .

## Deepstream {heading}

{said}

Build it with:

```bash
docker build --build-arg BASE_CONTAINER=nvcr.io/nvidia/deepstream:6.1.1-devel -t ds:6.1.1 .
{more}
```
"""


def stream(heading: str = "6.1.1", said: str = "", more: str = "") -> str:
    return STREAM_README.format(heading=heading, said=said, more=more)


def test_a_section_is_compared_with_the_image_its_build_command_builds(tmp_path: Path) -> None:
    files = {"Dockerfile": STREAM}
    assert audit_cli(tmp_path, {**files, "README.md": stream()})[:2] == (
        0,
        "README.md: no claim outside the docgen blocks contradicts Dockerfile\n",
    )
    # the same section building the defaults says 6.1.1 of a 6.0.1 image
    plain = stream().replace("--build-arg BASE_CONTAINER=nvcr.io/nvidia/deepstream:6.1.1-devel ", "")
    code, out, _ = audit_cli(tmp_path, {"README.md": plain})
    assert (
        code == 1
        and "README.md:7: error: README says Deepstream 6.1.1 but Dockerfile:1 says 6.0.1-devel" in out
    )


def test_a_claim_the_overridden_build_contradicts_is_still_found(tmp_path: Path) -> None:
    code, out, err = audit_cli(tmp_path, {"Dockerfile": STREAM, "README.md": stream("6.2")})
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == (
        "README.md:7: error: README says Deepstream 6.2 but Dockerfile:1 says 6.1.1-devel [DG101] (likely)"
    )
    # a value the commands do not pass is compared with the defaults
    said = "It ships App 1.5.0."
    code, out, _ = audit_cli(tmp_path, {"README.md": stream(said=said)})
    assert "README.md:9: error: README says App 1.5.0 but Dockerfile:3 says 1.4.0" in out


def test_a_default_stated_in_such_a_section_is_compared_with_the_arg_default(tmp_path: Path) -> None:
    said = "`BASE_CONTAINER` defaults to `nvcr.io/nvidia/deepstream:{}-devel`."
    files = {"Dockerfile": STREAM, "README.md": stream(said=said.format("6.0.1"))}
    assert audit_cli(tmp_path, files)[0] == 0
    code, out, _ = audit_cli(tmp_path, {"README.md": stream(said=said.format("5.0.1"))})
    assert code == 1
    assert (
        "README.md:9: error: README says BASE_CONTAINER defaults to nvcr.io/nvidia/deepstream:5.0.1-devel "
        "but Dockerfile:1 says nvcr.io/nvidia/deepstream:6.0.1-devel [DG101] (likely)"
    ) in out.splitlines()


def test_a_section_with_several_builds_agrees_with_one_of_them(tmp_path: Path) -> None:
    more = "docker build --build-arg APP_VERSION=1.6.0 --build-arg BASE_CONTAINER=nvcr.io/x/y:1 -t ds:app ."
    files = {"Dockerfile": STREAM, "README.md": stream(said="It ships App 1.6.0.", more=more)}
    assert audit_cli(tmp_path, files)[0] == 0
    code, out, _ = audit_cli(tmp_path, {"README.md": stream(said="It ships App 1.7.0.", more=more)})
    assert code == 1 and "README.md:9: error: README says App 1.7.0 but Dockerfile:3 says " in out


def test_a_build_of_another_dockerfile_leaves_this_one_as_declared(tmp_path: Path) -> None:
    readme = stream().replace("docker build --build-arg", "docker build -f Dockerfile.other --build-arg")
    files = {
        "Dockerfile": STREAM,
        "Dockerfile.other": "FROM debian:12\n",
        "pyproject.toml": "",
        "README.md": readme,
    }
    code, out, _ = audit_cli(tmp_path, files)
    assert (
        "README says Deepstream 6.1.1 but Dockerfile:1 says 6.0.1-devel" not in out
    )  # about the other image
    both = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\n'
    both += '[[tool.docgen.images]]\ndockerfile = "Dockerfile.other"\n'
    code, out, _ = audit_cli(tmp_path, {"pyproject.toml": both})
    assert "README.md:7: error: README says Deepstream 6.1.1 but Dockerfile:1 says 6.0.1-devel" not in out


def test_a_value_that_cannot_build_the_dockerfile_leaves_the_defaults(tmp_path: Path) -> None:
    dockerfile = STREAM.replace("FROM ${BASE_CONTAINER}", "FROM ${BASE_CONTAINER} AS build")
    readme = stream("6.1.1", "It ships App 1.5.0.").replace(
        "deepstream:6.1.1-devel", "deepstream:6.1.1-devel --build-arg BASE_CONTAINER=build"
    )
    code, out, err = audit_cli(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    assert (code, err) == (1, "")
    assert "README.md:9: error: README says App 1.5.0 but Dockerfile:3 says 1.4.0" in out
    assert "README.md:7: error: README says Deepstream 6.1.1 but Dockerfile:1 says 6.0.1-devel" in out


def test_the_intro_under_the_title_is_about_the_defaults_not_a_build_section_below(tmp_path: Path) -> None:
    readme = "# Stream image\n\nBuilt on `nvcr.io/nvidia/deepstream:6.0.1-devel` with App 1.4.0.\n\n"
    readme += "## Building\n\n"
    readme += "```bash\ndocker build --build-arg BASE_CONTAINER=nvcr.io/nvidia/deepstream:6.1.1-devel "
    readme += "--build-arg APP_VERSION=1.5.0 .\n```\n"
    files = {"Dockerfile": STREAM, "README.md": readme}
    assert audit_cli(tmp_path, files)[0] == 0
    code, out, _ = audit_cli(tmp_path, {"README.md": readme.replace("App 1.4.0", "App 1.5.0")})
    assert "README.md:3: error: README says App 1.5.0 but Dockerfile:3 says 1.4.0" in out


def test_a_build_args_quoted_value_is_read_as_the_shell_reads_it() -> None:
    from docgen.audit.sections import passed_args

    command = (
        "docker build --build-arg \"APT_PREF=Package: * Pin: 1\" --build-arg='TAG=1.2' \\ --build-arg N=$T ."
    )
    assert passed_args(command) == {"APT_PREF": "Package: * Pin: 1", "TAG": "1.2"}
    assert passed_args('docker build --build-arg "TAG=1.2 .') == {}  # an unclosed quote: nothing told


# A compose file beside the README: each service building an audited Dockerfile is an image, built
# with its build args (`${VAR:-default}` read as its default), as a bake target is

COMPOSED = """\
FROM ubuntu:22.04
ARG INC_VERSION
ARG TORCH_VERSION=2.3.0
ARG PYTHON=python3.10
RUN pip install neural-compressor==${INC_VERSION} torch==${TORCH_VERSION}
"""
COMPOSE_YML = """\
services:
  inc:
    image: example/inc:latest
    build:
      context: .
      args:
        INC_VERSION: ${INC_VERSION:-2.3.1}
        TORCH_VERSION: ${TORCH_VERSION:-2.4.0}
        PYTHON: ${PYTHON:-python3.10}
    environment:
      HF_HOME: /data
"""
COMPOSED_README = """\
# Neural Compressor

## Build

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| INC_VERSION | {inc} | Neural Compressor version |
| TORCH_VERSION | 2.4.0 | PyTorch version |
| PYTHON | python3.10 | Python |

## Run

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| HF_HOME | /data | Where models are cached |
| HF_TOKEN | | Your token |
"""


def test_each_compose_service_is_audited_as_built_with_its_args(tmp_path: Path) -> None:
    # The rows under `Environment Variable Name` are the compose service's build args (each one a
    # declared ARG): a build-argument table, compared with the compose defaults. INC_VERSION 2.3.0 is
    # drift (compose builds 2.3.1); TORCH_VERSION 2.4.0 is compose's value, not the ARG's 2.3.0 (true).
    # REGISTRY is the compose file's own variable, no build arg; the run-time table (HF_HOME is the
    # service's `environment:`, HF_TOKEN nobody's) is no build arg either.
    files = {
        "Dockerfile": COMPOSED,
        "docker-compose.yml": COMPOSE_YML.replace("example/inc", "${REGISTRY}/inc"),
    }
    registry = "| PYTHON | python3.10 | Python |\n| REGISTRY | example | Where the image is pushed |\n"
    readme = COMPOSED_README.format(inc="2.3.0").replace("| PYTHON | python3.10 | Python |\n", registry)
    code, out, err = audit_cli(tmp_path, {**files, "README.md": readme})
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "README.md:7: error: README says INC_VERSION defaults to 2.3.0 but docker-compose.yml:7 says 2.3.1 "
        "[DG101] (certain)",
        "1 claim in README.md contradicts Dockerfile (inc)",
    ]
    assert audit_cli(tmp_path, {"README.md": COMPOSED_README.format(inc="2.3.1")})[:2] == (
        0,
        "README.md: no claim outside the docgen blocks contradicts Dockerfile (inc)\n",
    )


def test_a_compose_list_of_args_and_compose_yaml_are_read(tmp_path: Path) -> None:
    listed = (
        "services:\n  inc:\n    build:\n      context: .\n      args:\n"
        '        - INC_VERSION=${INC_VERSION:-2.3.1}\n        - "TORCH_VERSION=2.4.0"\n        - PYTHON\n'
    )
    readme = COMPOSED_README.format(inc="2.3.0")
    code, out, _ = audit_cli(tmp_path, {"Dockerfile": COMPOSED, "compose.yaml": listed, "README.md": readme})
    # (PYTHON alone is the environment's: the Dockerfile's default stays)
    assert out.splitlines()[:-1] == [
        "README.md:7: error: README says INC_VERSION defaults to 2.3.0 but compose.yaml:5 says 2.3.1 "
        "[DG101] (certain)"
    ]


def test_without_a_compose_service_the_environment_table_is_not_build_args(tmp_path: Path) -> None:
    # the same README beside the Dockerfile alone: names listed as environment variables are not
    # build args to compare (the drift above is not reported: nothing says they are built with)
    code, out, _ = audit_cli(
        tmp_path, {"Dockerfile": COMPOSED, "README.md": COMPOSED_README.format(inc="2.3.0")}
    )
    assert "defaults to" not in out


def test_a_bake_file_wins_over_a_compose_file_for_a_dockerfile_it_builds(tmp_path: Path) -> None:
    bake = '{"target": {"inc-bake": {"args": {"INC_VERSION": "2.3.0", "TORCH_VERSION": "2.4.0"}}}}\n'
    files = {"Dockerfile": COMPOSED, "docker-compose.yml": COMPOSE_YML, "docker-bake.json": bake}
    code, out, err = audit_cli(tmp_path, {**files, "README.md": "# App\n\nShips INC_VERSION 2.3.0.\n"})
    assert (code, err) == (0, "")
    assert out.endswith("contradicts Dockerfile (inc-bake)\n")


def test_a_compose_file_without_pyyaml_is_said_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)  # the [compose] extra is not installed
    files = {"Dockerfile": COMPOSED, "docker-compose.yml": COMPOSE_YML}
    code, out, err = audit_cli(tmp_path, {**files, "README.md": COMPOSED_README.format(inc="2.3.0")})
    # audited with the Dockerfile's own defaults: TORCH_VERSION's 2.3.0
    assert (code, out.splitlines()[0]) == (
        1,
        "README.md:8: error: README says TORCH_VERSION 2.4.0 but Dockerfile:3 says 2.3.0 [DG101] (certain)",
    )
    assert err == (
        "docgen: note: docker-compose.yml: reading a compose file needs the PyYAML package: "
        "pip install 'dockerdocgen[compose]'; docker-compose.yml was not read, the Dockerfiles are "
        "audited with their own defaults\n"
    )


def test_a_bad_compose_file_is_said_with_its_line_and_the_audit_goes_on(tmp_path: Path) -> None:
    bad = "services:\n  inc:\n    build:\n      args: [INC_VERSION=2.3.1\n    image: x\n"
    files = {"Dockerfile": COMPOSED, "docker-compose.yml": bad}
    code, out, err = audit_cli(tmp_path, {**files, "README.md": COMPOSED_README.format(inc="2.3.1")})
    assert code == 1  # TORCH_VERSION 2.4.0: the Dockerfile's default is 2.3.0
    assert re.fullmatch(
        r"docgen: note: docker-compose\.yml:5: invalid YAML: .*; docker-compose\.yml was not read, "
        r"the Dockerfiles are audited with their own defaults\n",
        err,
    )
    assert "Traceback" not in out + err


def test_a_compose_build_leading_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    # The project is proj/ (where audit runs); the Dockerfile audited is outside it, and so are the
    # compose file beside it (broken: it would be noted if read) and the context proj's compose file
    # leads to: neither the build args nor anything there is read.
    import io
    import os

    from docgen.cli import main

    make_tree(
        tmp_path,
        {
            "outside/Dockerfile": COMPOSED,
            "outside/docker-compose.yml": "services: [\n",
            "proj/docker-compose.yml": COMPOSE_YML.replace("context: .", "context: ../outside"),
            "proj/README.md": "# App\n\nShips TORCH_VERSION 2.4.0.\n",
        },
    )
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path / "proj")
    try:
        code = main(
            ["audit", "--confidence", "likely", "README.md", "--dockerfile", "../outside/Dockerfile"],
            out,
            err,
        )
    finally:
        os.chdir(here)
    assert (err.getvalue(), out.getvalue().splitlines()[-1]) == (
        "",
        "1 claim in README.md contradicts ../outside/Dockerfile",
    )
    assert code == 1  # 2.4.0 is compose's value; the Dockerfile outside is audited as it is (2.3.0)


def test_an_arg_the_compose_file_does_not_pass_is_not_missing_from_its_table(tmp_path: Path) -> None:
    # MAX_JOBS is a declared ARG the compose file does not pass: a user of the compose file cannot
    # set it, and the table of what the compose file reads need not list it. Under `| Argument |`,
    # a build-argument table by its header, it is missing (`likely`: the table sits under `## Build`,
    # not under a title of all the build args, and may show the ones its writer picked).
    dockerfile = COMPOSED + "ARG MAX_JOBS=4\nRUN make -j${MAX_JOBS}\n"
    files = {"Dockerfile": dockerfile, "docker-compose.yml": COMPOSE_YML}
    readme = COMPOSED_README.format(inc="2.3.1")
    assert audit_cli(tmp_path, {**files, "README.md": readme})[0] == 0
    code, out, _ = audit_cli(
        tmp_path, {"README.md": readme.replace("Environment Variable Name", "Argument", 1)}
    )
    assert (code, out.splitlines()[0]) == (
        1,
        "README.md:5: error: build arg MAX_JOBS (Dockerfile:6) is missing from the README's build-argument "
        "table [DG101] (likely)",
    )


TARGETED = """\
FROM ubuntu:22.04 AS cpu-base
ARG TORCH_VERSION
ARG PY=3.10
RUN pip install torch==${TORCH_VERSION}

FROM ubuntu:22.04 AS xpu_base
ARG TORCH_VERSION
ARG PY=3.10
RUN pip install torch==${TORCH_VERSION}
"""
TARGETED_YML = """\
services:
  cpu:
    build:
      context: .
      target: cpu-base
      args:
        TORCH_VERSION: ${TORCH_VERSION:-2.4.0}
"""
TARGETED_README = """\
# Images

## CPU Base

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| TORCH_VERSION | {cpu} | PyTorch |
| PY | 3.10 | Python |

## {heading}

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| TORCH_VERSION | 2.0.1+xpu | PyTorch |
| PY | 3.10 | Python |

## Your own stage

```dockerfile
FROM cpu-base as prod
```

Then: `docker build --target prod .`

```bash
docker build --target prod -t mine .
```
"""


def test_a_section_about_a_stage_no_service_builds_is_another_images(tmp_path: Path) -> None:
    # `## XPU Base` is the `xpu_base` stage, which no compose service builds (its service is commented
    # out): its table is not compared with the `cpu` service. `prod` is the README's own example stage,
    # added in a snippet of another section. The CPU row is compared (2.3.0 is drift).
    files = {"Dockerfile": TARGETED, "docker-compose.yml": TARGETED_YML}
    readme = TARGETED_README.format(cpu="2.3.0", heading="XPU Base")
    code, out, _ = audit_cli(tmp_path, {**files, "README.md": readme})
    assert [line.split(" but ")[0] for line in out.splitlines()[:-1]] == [
        "README.md:7: error: README says TORCH_VERSION 2.3.0"
    ]
    # the nearest truth: a heading naming no stage is about the images audited, and its row is drift
    readme = TARGETED_README.format(cpu="2.4.0", heading="Accelerated")
    code, out, _ = audit_cli(tmp_path, {**files, "README.md": readme})
    assert [line.split(" but ")[0] for line in out.splitlines()[:-1]] == [
        "README.md:14: error: README says TORCH_VERSION 2.0.1+xpu"
    ]


@pytest.mark.parametrize(
    ("name", "kind"), [("compose.json", "bake target"), ("compose.yaml", "compose service")]
)
def test_an_image_not_audited_is_named_by_what_its_file_holds_not_by_its_name(
    tmp_path: Path, name: str, kind: str
) -> None:
    files = {"Dockerfile": "FROM ubuntu:22.04\n", "README.md": "# App\n"}
    if name.endswith(".json"):  # configured: read as a bake file
        files[name] = '{"target": {"gpu": {"dockerfile": "Dockerfile", "target": "nope"}}}'
        entry = f'bake = "{name}"\noutputs = ["README.md"]\n'
        files["pyproject.toml"] = "[tool.docgen]\n[[tool.docgen.images]]\n" + entry
    else:  # found beside the README
        files[name] = "services:\n  gpu:\n    build:\n      context: .\n      target: nope\n"
    _, _, err = audit_cli(tmp_path, files)
    assert f"; {kind} 'gpu' is not audited" in err


def test_a_broken_dockerfile_beside_the_readme_is_said_and_the_others_are_audited(tmp_path: Path) -> None:
    good = "FROM ubuntu:22.04\nARG TORCH_VERSION=2.6.0\nRUN pip install torch==${TORCH_VERSION}\n"
    broken = "FROM ubuntu:22.04\nRUN git clone https://example.com/x.git\ngit checkout 236178e5\n"
    readme = "# App\n\nBuilt with Torch 2.5.0.\n"
    files = {"Dockerfile.cuda": good, "Dockerfile.old": broken, "README.md": readme}
    code, out, err = audit_cli(tmp_path, files)
    assert code == 1
    assert "README says Torch 2.5.0 but Dockerfile.cuda:2 says 2.6.0" in out
    assert err == (
        "docgen: note: Dockerfile.old:3: unknown instruction: GIT; Dockerfile.old is not audited\n"
    )
    # Given by name, a broken Dockerfile is the error it is; so is one when nothing else can be read.
    import io

    from docgen.cli import main

    err_io = io.StringIO()
    given = str(tmp_path / "Dockerfile.old")
    assert main(["audit", str(tmp_path / "README.md"), "--dockerfile", given], io.StringIO(), err_io) == 2
    assert "unknown instruction: GIT" in err_io.getvalue()
    code, out, err = audit_cli(tmp_path / "alone", {"Dockerfile": broken, "README.md": readme})
    assert code == 2
    assert "no file or command claim outside the docgen blocks contradicts the repository" in out
    assert "Dockerfile:3: unknown instruction: GIT" in err
    # Nothing else read: what the README says of its files and commands is still told before the error,
    # its build of the broken Dockerfile first (it cannot start).
    told = "# App\n\n```bash\ndocker build -t app .\n```\n\nSee [the guide](docs/guide.md).\n"
    code, out, err = audit_cli(tmp_path / "told", {"Dockerfile": broken, "README.md": told})
    assert code == 2
    assert (
        "README.md:4: error: README's build cannot start: docker cannot read the Dockerfile it builds "
        "(Dockerfile:3: unknown instruction: GIT)"
    ) in out
    assert "README.md:7: error: " in out and "docs/guide.md" in out
    assert err.endswith("Dockerfile:3: unknown instruction: GIT\n")


def test_a_given_dockerfile_that_a_compose_service_builds_and_that_does_not_read_is_an_error(
    tmp_path: Path,
) -> None:
    # `--dockerfile Dockerfile --dockerfile Dockerfile.gpu`, the GPU file built by a compose service,
    # with a heredoc inside a continued RUN that is never closed (BuildKit: unterminated heredoc). It
    # was left out with a note naming the service, and the README's GPU build args were then reported
    # as ones `Dockerfile` does not declare.
    gpu = (
        "FROM ubuntu:22.04\nARG CUDA_VERSION=12.4.1\n"
        "RUN if [ -n \"$CUDA_VERSION\" ]; then \\\n  python3 - <<'PY' > /tmp/x; \\\n"
        "print(1) \\\nPY \\\n  ; fi\n"
    )
    compose = (
        "services:\n  cpu:\n    build: .\n"
        "  gpu:\n    build:\n      context: .\n      dockerfile: Dockerfile.gpu\n"
    )
    readme = "# App\n\n| Argument | Default |\n|---|---|\n| `CUDA_VERSION` | `12.4.1` |\n"
    files = {
        "Dockerfile": "FROM ubuntu:22.04\nARG PG_MAJOR=17\n",
        "Dockerfile.gpu": gpu,
        "docker-compose.yml": compose,
        "README.md": readme,
    }
    import io

    from docgen.cli import main

    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    out, err = io.StringIO(), io.StringIO()
    given = ["--dockerfile", str(tmp_path / "Dockerfile"), "--dockerfile", str(tmp_path / "Dockerfile.gpu")]
    assert main(["audit", str(tmp_path / "README.md"), *given], out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().endswith("Dockerfile.gpu:3: heredoc PY is never closed\n")
    # Found beside the README, not given, it is said and left out, and the other image is audited.
    code, _, found_err = audit_cli(tmp_path / "found", {**files, "pyproject.toml": ""})
    assert code in (0, 1)
    assert "heredoc PY is never closed" in found_err


def test_a_section_about_a_stage_no_service_builds_is_compared_with_that_stage(tmp_path: Path) -> None:
    # `## XPU Base` documents MKL_VER of the `xpu_base` stage, which no service builds, as `MKL Version`
    # (drift: read against that stage built alone). Trap: the same row under `## CPU Base` (both tables
    # get it) is compared
    # with the `cpu` service, which declares no MKL arg at all: a variable of its own, no finding.
    dockerfile = TARGETED + "ARG MKL_VER=2024.0\n"
    readme = TARGETED_README.format(cpu="2.4.0", heading="XPU Base").replace(
        "| PY | 3.10 | Python |\n", "| PY | 3.10 | Python |\n| MKL Version | 2024.0 | MKL |\n"
    )
    files = {"Dockerfile": dockerfile, "docker-compose.yml": TARGETED_YML, "README.md": readme}
    code, out, _ = audit_cli(tmp_path, files)
    assert out.splitlines()[:-1] == [
        "README.md:17: error: README documents build arg MKL Version but Dockerfile:10 declares MKL_VER "
        "[DG101] (certain)"
    ]


# Issue 16: a value a compose file passes under a name the Dockerfile does not declare

ONNX = """\
FROM ubuntu:22.04
ARG ONNX_VER
ARG PORT=8080
ARG WORKERS=2
ARG LOG_LEVEL=info
RUN pip install onnx${ONNX_VER:+==${ONNX_VER}}
CMD serve --port ${PORT}
"""
ONNX_COMPOSE = """\
services:
  onnx:
    image: example/onnx-${IMAGE_SUFFIX:-cpu}
    build:
      context: .
      args:
        ONNX_VERSION: ${ONNX_VERSION:-1.16.0}
        IMAGE_SUFFIX: ${IMAGE_SUFFIX:-cpu}
        PORT: ${PORT:-8080}
        WORKERS: ${WORKERS:-2}
        LOG_LEVEL: ${LOG_LEVEL:-info}
"""
ONNX_README = """\
# ONNX image

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| ONNX_VERSION | `{onnx}` | ONNX release |
| IMAGE_SUFFIX | `cpu` | image name suffix |
| PORT | `8080` | server port |
| WORKERS | `2` | server workers |
| LOG_LEVEL | `info` | log verbosity |
"""


def test_a_value_a_compose_file_passes_under_an_undeclared_name(tmp_path: Path) -> None:
    # ONNX_VERSION: the Dockerfile reads ONNX_VER (drift), and the README's 1.15.0 is not the 1.16.0
    # compose passes, to a name the build does not read (drift, said so). Traps: IMAGE_SUFFIX is the
    # compose file's own variable (the same value, near no ARG); PORT, WORKERS, LOG_LEVEL are true.
    files = {"Dockerfile": ONNX, "docker-compose.yml": ONNX_COMPOSE}
    code, out, err = audit_cli(tmp_path, {**files, "README.md": ONNX_README.format(onnx="1.15.0")})
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "README.md:5: error: README documents build arg ONNX_VERSION but Dockerfile:2 declares ONNX_VER "
        "[DG101] (certain)",
        "README.md:5: error: README says ONNX_VERSION defaults to 1.15.0 but docker-compose.yml:7 passes "
        "1.16.0, under a name Dockerfile does not declare [DG101] (certain)",
        "2 claims in README.md contradict Dockerfile (onnx)",
    ]
    # the README's value is compose's: only the name is wrong
    code, out, err = audit_cli(tmp_path, {"README.md": ONNX_README.format(onnx="1.16.0")})
    assert out.splitlines()[:-1] == [
        "README.md:5: error: README documents build arg ONNX_VERSION but Dockerfile:2 declares ONNX_VER "
        "[DG101] (certain)"
    ]


# --------------------------------------------------------------------------------------------------
# An image tag names one Dockerfile of the family: its versions are compared with that image only

VLLM_12 = """\
FROM example/rl:base-cu126-torch2.7.1
RUN pip install vllm==0.9.1 transformers==4.53.2
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.2
"""
SGL_VLLM_12 = """\
FROM example/rl:base-cu126-torch2.7.1
RUN pip install sglang==0.4.6.post5 vllm==0.8.5.post1 transformers==4.54.0
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.1
"""
VLLM_13 = """\
FROM example/rl:base-cu126-torch2.7.1
RUN pip install vllm==0.10.0 transformers==4.55.4
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.13.0
"""
SGL_13 = """\
FROM example/rl:base-cu126-torch2.7.1
RUN pip install sglang==0.4.9 transformers==4.53.2
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.13.0
"""
RL_FAMILY = {
    "rl/Dockerfile.app.vllm.mcore0.12": VLLM_12,
    "rl/Dockerfile.app.sglang.vllm.mcore0.12": SGL_VLLM_12,
    "rl/Dockerfile.app.vllm.mcore0.13": VLLM_13,
    "rl/Dockerfile.app.sglang.mcore0.13": SGL_13,
}


@pytest.mark.parametrize(
    ("tag", "found"),
    [
        # the versions of a sibling (`Dockerfile.app.sglang.vllm.mcore0.12`) are not this image's
        (
            "app-rl1-vllm0.8.5-mcore0.12.1",
            [
                "README says vllm 0.8.5 but rl/Dockerfile.app.vllm.mcore0.12:2 says 0.9.1",
                "README says mcore 0.12.1 but rl/Dockerfile.app.vllm.mcore0.12:3 says core_v0.12.2",
            ],
        ),
        # a typo compared with the image the tag names, once, not with every sibling pinning it (the
        # sglang image has the mcore of the tag too)
        (
            "app-rl1-transformers0.55.0-vllm0.10.0-mcore0.13.0",
            ["README says transformers 0.55.0 but rl/Dockerfile.app.vllm.mcore0.13:2 says 4.55.4"],
        ),
        # traps: each tag true of the image it names
        ("app-rl1-sglang0.4.6.post5-vllm0.8.5-mcore0.12.1", []),
        ("app-rl1-vllm0.10.0-mcore0.13.0", []),
        ("app-rl1-vllm0.9.1-mcore0.12.2", []),
    ],
)
def test_a_tag_naming_one_dockerfile_is_compared_with_that_image_only(tag: str, found: list[str]) -> None:
    readme = f"## Images\n\n- `example/rl:{tag}`\n"
    assert findings(readme, RL_FAMILY) == [f"3: {m}" for m in found]


def test_a_tag_naming_one_dockerfile_is_as_sure_as_a_pin_and_one_naming_none_is_not() -> None:
    # `app-rl1-vllm0.8.5-mcore0.12.1` names Dockerfile.app.vllm.mcore0.12 by its parts: its stale
    # versions are `certain`; a tag naming no Dockerfile is compared with the image most of it agrees
    # with, which is a guess (`likely`)
    models = [model_of(parse_dockerfile(text, path)) for path, text in RL_FAMILY.items()]
    named = audit("## Images\n\n- `example/rl:app-rl1-vllm0.8.5-mcore0.12.1`\n", "README.md", models)
    assert [(d.line, d.confidence) for d in named] == [(3, "certain"), (3, "certain")]
    one = "FROM example/x:cu126\nRUN pip install torch==2.7.1 sglang==0.4.9 megatron-core==0.13.0\n"
    two = "FROM example/x:cu126\nRUN pip install torch==2.7.1 sglang==0.4.8 megatron-core==0.13.0\n"
    pair = [
        model_of(parse_dockerfile(one, "Dockerfile.one")),
        model_of(parse_dockerfile(two, "Dockerfile.two")),
    ]
    unnamed = audit("Pull `example/x:torch2.7.1-sglang0.4.9-mcore0.12.0`.\n", "README.md", pair)
    assert [(d.line, d.confidence) for d in unnamed] == [(1, "likely")]


def test_a_preview_tag_is_compared_when_the_dockerfile_it_names_is_a_preview_too() -> None:
    # `-preview` names `Dockerfile.app.vllm.mcore0.13.preview` (or a folder of previews); a preview tag
    # naming no preview Dockerfile is an image not built here now
    preview = VLLM_13.replace("core_v0.13.0", "core_v0.12.1")
    family = {
        "rl/Dockerfile.app.vllm.mcore0.12": VLLM_12,
        "rl/Dockerfile.app.vllm.mcore0.13.preview": preview,
    }
    readme = "## Images\n\n- `example/rl:app-rl1-vllm0.10.0-mcore0.13.0-preview`\n"
    assert findings(readme, family) == [
        "3: README says mcore 0.13.0 but rl/Dockerfile.app.vllm.mcore0.13.preview:3 says core_v0.12.1"
    ]
    in_folder = {"rl-preview/Dockerfile.app.vllm.mcore0.13": preview}
    assert findings(readme, in_folder) == [
        "3: README says mcore 0.13.0 but rl-preview/Dockerfile.app.vllm.mcore0.13:3 says core_v0.12.1"
    ]
    assert findings(readme, {"rl/Dockerfile.app.vllm.mcore0.13": preview}) == []


def test_the_folder_of_a_dockerfile_counts_when_run_from_inside_it(chdir_tmp: Path) -> None:
    # `docgen audit README.md` run inside `rl-preview/`: the Dockerfiles' paths have no folder, but
    # the folder they are in still says they are previews, as when run from above it
    preview = VLLM_13.replace("core_v0.13.0", "core_v0.12.1")
    make_tree(chdir_tmp, {"rl-preview/Dockerfile.app.vllm.mcore0.13": preview})
    os.chdir(chdir_tmp / "rl-preview")
    model = model_of(parse_dockerfile(preview, "Dockerfile.app.vllm.mcore0.13"))
    readme = "## Images\n\n- `example/rl:app-rl1-vllm0.10.0-mcore0.13.0-preview`\n"
    assert [d.message for d in audit(readme, "README.md", [model])] == [
        "README says mcore 0.13.0 but Dockerfile.app.vllm.mcore0.13:3 says core_v0.12.1"
    ]


def test_a_tag_naming_no_dockerfile_is_the_image_agreeing_with_most_of_it() -> None:
    # both images agree with a part of the tag; `one` with more of it: the stale mcore is its, once
    one = "FROM example/x:cu126\nRUN pip install torch==2.7.1 sglang==0.4.9 megatron-core==0.13.0\n"
    two = "FROM example/x:cu126\nRUN pip install torch==2.7.1 sglang==0.4.8 megatron-core==0.13.0\n"
    readme = "Pull `example/x:torch2.7.1-sglang0.4.9-mcore0.12.0`.\n"
    assert findings(readme, {"Dockerfile.one": one, "Dockerfile.two": two}) == [
        "1: README says mcore 0.12.0 but Dockerfile.one:2 says 0.13.0"
    ]


# --------------------------------------------------------------------------------------------------
# A package a list of the family's packages names that no image of it installs

RL_BASE = """\
# the project's base
FROM nvcr.io/nvidia/pytorch:24.08-py3
RUN pip install torch==2.7.1 flash-attn==2.8.0.post2 nvidia-cudnn-cu12==9.8.0.87
"""
RL_APP = """\
FROM example/rl:base-rl2-cu126-torch2.7.1-fi0.2.6
RUN pip install sglang==0.4.8
"""
RL_APP_MCORE = """\
FROM example/rl:base-rl2-cu126-torch2.7.1-fi0.2.6
RUN pip install sglang==0.4.8 git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.1
"""
PACKAGES = """\
# Images

```txt
torch==2.7.1
sglang==0.4.8
{line}
```
"""


@pytest.mark.parametrize(
    ("line", "found"),
    [
        (
            "vllm==0.8.5.post1",
            [
                "6: README lists vllm 0.8.5.post1 but none of rl/Dockerfile.base.fi0.2.6, "
                "rl/Dockerfile.app.sglang, rl/Dockerfile.app.sglang.megatron installs vllm"
            ],
        ),
        # traps: installed by the base Dockerfile, by one app, a slip of an installed name (the version
        # agrees), versions after `# Preview`
        ("flash_attn=2.8.0", []),
        ("megatron.core==core_v0.12.1", []),
        ("vidia-cudnn-cu12==9.8.0.87", []),
        ("# Preview\nvllm==0.10.0", []),
    ],
)
def test_a_listed_package_no_image_of_the_family_installs(line: str, found: list[str]) -> None:
    family = {
        "rl/Dockerfile.base.fi0.2.6": RL_BASE,
        "rl/Dockerfile.app.sglang": RL_APP,
        "rl/Dockerfile.app.sglang.megatron": RL_APP_MCORE,
    }
    assert findings(PACKAGES.format(line=line), family) == found


def test_a_listed_package_is_not_judged_when_an_image_is_built_on_a_base_not_built_here() -> None:
    # no base Dockerfile: the base image `example/rl:base-…` may hold vllm; nor one installing from a
    # requirements file docgen does not read
    family = {"rl/Dockerfile.app.sglang": RL_APP, "rl/Dockerfile.app.sglang.megatron": RL_APP_MCORE}
    assert findings(PACKAGES.format(line="vllm==0.8.5.post1"), family) == []
    with_file = RL_APP + "COPY requirements.txt .\nRUN pip install -r requirements.txt\n"
    family = {"rl/Dockerfile.base.fi0.2.6": RL_BASE, "rl/Dockerfile.app.sglang": with_file}
    assert findings(PACKAGES.format(line="vllm==0.8.5.post1"), family) == []


def test_a_list_about_one_app_image_counts_what_its_base_dockerfile_installs() -> None:
    # the section is the megatron image's; cuDNN comes from the base Dockerfile it is built on
    family = {
        "rl/Dockerfile.base.fi0.2.6": RL_BASE,
        "rl/Dockerfile.app.sglang": RL_APP,
        "rl/Dockerfile.app.sglang.megatron": RL_APP_MCORE,
    }
    readme = "# Images\n\n## `Dockerfile.app.sglang.megatron`\n\n```txt\nsglang==0.4.8\n{line}\n```\n"
    assert findings(readme.format(line="nvidia-cudnn-cu12==9.8.0.87"), family) == []
    assert findings(readme.format(line="vllm==0.8.5"), family) == [
        "7: README lists vllm 0.8.5 but rl/Dockerfile.app.sglang.megatron does not install vllm"
    ]


def test_a_tag_sharing_one_word_with_a_dockerfile_name_names_no_image() -> None:
    # `cuda11.8` in a tag of the user's naming is a component, not `Dockerfile.app.cuda`; `app-cuda12.1`
    # repeats two words of `Dockerfile.app.cuda` and is that image's
    family = {
        "Dockerfile.app.cuda": "FROM nvidia/cuda:12.2.2-devel-ubuntu22.04\n",
        "Dockerfile.torch": "FROM pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel\n",
    }
    assert findings("Pull `nvpytorch:1.14-cuda11.8`.\n", family) == []
    assert findings("Pull `example/x:app-cuda12.1`.\n", family) == [
        "1: README says cuda 12.1 but Dockerfile.app.cuda:1 says 12.2.2"
    ]


def test_an_image_built_on_a_base_dockerfile_of_the_family_has_what_that_dockerfile_installs() -> None:
    # the base's tag says torch2.6.0, the base Dockerfile it names installs 2.7.1: the Dockerfile
    # counts; the tag's cu126 still does (the base Dockerfile pins no CUDA: its own base gives it)
    base = "FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN pip install torch==2.7.1\n"
    app = "FROM example/rl:base-cu126-torch2.6.0-fi0.2\nRUN pip install sglang==0.4.8\n"
    family = {"rl/Dockerfile.base.fi0.2": base, "rl/Dockerfile.app.sglang": app}
    readme = "# Images\n\n## `Dockerfile.app.sglang`\n\n```txt\n{line}\nsglang==0.4.8\n```\n"
    assert findings(readme.format(line="torch==2.6.0"), family) == [
        "6: README says torch 2.6.0 but rl/Dockerfile.base.fi0.2:2 says 2.7.1"
    ]
    assert findings(readme.format(line="torch==2.7.1"), family) == []
    assert findings(readme.format(line="cuda==12.6"), family) == []


@pytest.mark.parametrize(
    ("after", "found"),
    [
        (
            "transformer_engine==2.5",
            [
                "6: README says transformer_engine 2.5 but "
                "rl/Dockerfile.app.sglang-preview.mcore0.12:2 says v2.2.1"
            ],
        ),
        ("megatron.core==core_r0.13.0", []),  # the mcore0.13 image's `core_v0.13.0`: the same release
    ],
)
def test_versions_after_a_preview_comment_are_the_familys_when_a_dockerfile_is_a_preview(
    after: str, found: list[str]
) -> None:
    preview = (
        "FROM example/rl:base-cu126\n"
        "RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@v2.2.1\n"
        "RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.12.2\n"
    )
    family = {
        "rl/Dockerfile.app.sglang-preview.mcore0.12": preview,
        "rl/Dockerfile.app.vllm.mcore0.13": VLLM_13,
    }
    readme = "# Versions\n\n```txt\nvllm==0.10.0\n# Preview\n{after}\n```\n"
    assert findings(readme.format(after=after), family) == found
    # without a preview Dockerfile, the lines after `# Preview` are an image not built here
    assert findings(readme.format(after=after), {"rl/Dockerfile.app.vllm.mcore0.13": VLLM_13}) == []


@pytest.mark.parametrize(
    "base", ["example/rl@sha256:" + "a" * 64, "localhost:5000/rl", "scratch", "example/rl:"]
)
def test_a_base_without_a_tag_names_no_dockerfile(base: str) -> None:
    # a digest, a registry port, no tag: nothing to follow, and no error
    family = {"rl/Dockerfile.base.fi0.2": "FROM ubuntu:22.04\n", "rl/Dockerfile.app.fi0.2": f"FROM {base}\n"}
    assert findings("# Images\n\n```txt\ntorch==2.7.1\nvllm==0.10.0\n```\n", family) == []


# --------------------------------------------------------------------------------------------------
# A heading naming what tells one image's folder from the others' (`## Whisper` for `gpu_whisper/`)

GPU_BASE = "FROM ubuntu:24.04\nRUN pip install torch==2.7.0\n"
GPU_PAINT = "FROM local/gpu_base:latest\nRUN pip install git+https://github.com/pytorch/audio.git@v2.7.0\n"
GPU_WHISPER = "FROM local/gpu_base:latest\nRUN pip install torchaudio==2.7.1\n"


def test_a_heading_naming_an_image_folders_own_words_ties_its_section_to_that_image() -> None:
    readme = """\
# GPU images

## Paint Studio

- torchaudio v2.7.0

## Faster Whisper

- torchaudio v2.7.0
"""
    family = {
        "gpu_base/Dockerfile": GPU_BASE,
        "gpu_paint_studio/Dockerfile": GPU_PAINT,
        "gpu_faster_whisper/Dockerfile": GPU_WHISPER,
    }
    # the paint studio's torchaudio is the one its own Dockerfile pins; the whisper one is stale
    assert findings(readme, family) == [
        "9: README says torchaudio v2.7.0 but gpu_faster_whisper/Dockerfile:2 says 2.7.1"
    ]
    # a heading naming only the word every folder shares ties nothing: compared with each image
    shared = readme.replace("## Paint Studio", "## GPU notes")
    assert findings(shared, family) == [
        "5: README says torchaudio v2.7.0 but gpu_faster_whisper/Dockerfile:2 says 2.7.1; also at line 9",
    ]


# --------------------------------------------------------------------------------------------------
# `**File:** `Dockerfile.x`` labels, and a heading that says again the title of an image's section

LABELLED_CUDA = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
ARG APP_RELEASE=2.0.0
RUN echo ${APP_RELEASE}
"""
LABELLED_CPU = """\
FROM python:3.11-slim
ARG APP_RELEASE=1.9.0
RUN echo ${APP_RELEASE}
"""
LABELLED = """\
# App

## Variants

### 1. CUDA flavour (recommended)

**File:** `docker/Dockerfile.gpu`

### 2. Plain flavour

**File:** `docker/Dockerfile`

## Build arguments

### CUDA flavour

| Argument | Default |
|---|---|
| `APP_RELEASE` | `{cuda}` |

### Plain flavour

| Argument | Default |
|---|---|
| `APP_RELEASE` | `1.9.0` |
"""
LABELLED_FILES = {"docker/Dockerfile.gpu": LABELLED_CUDA, "docker/Dockerfile": LABELLED_CPU}


def test_a_heading_saying_again_a_labelled_section_s_title_is_about_the_same_image() -> None:
    assert findings(LABELLED.format(cuda="1.9.0"), LABELLED_FILES) == [
        "19: README says APP_RELEASE defaults to 1.9.0 but docker/Dockerfile.gpu:2 says 2.0.0"
    ]
    assert findings(LABELLED.format(cuda="2.0.0"), LABELLED_FILES) == []


def test_a_repeated_title_under_a_section_already_about_an_image_keeps_that_image() -> None:
    # `#### Build arguments` twice, each under its image's own section: the second is the CPU one's
    nested = """\
# App

### CUDA flavour

**File:** `docker/Dockerfile.gpu`

#### Build arguments

| Argument | Default |
|---|---|
| `APP_RELEASE` | `2.0.0` |

### Plain flavour

**File:** `docker/Dockerfile`

#### Build arguments

| Argument | Default |
|---|---|
| `APP_RELEASE` | `1.9.0` |
"""
    assert findings(nested, LABELLED_FILES) == []


# --------------------------------------------------------------------------------------------------
# A base image another Dockerfile of the family takes by digest alone: its tag is not known

ACCEL_TAGGED = "FROM example/accel:10.0-devel-ubuntu22.04\nRUN echo tagged\n"
ACCEL_DIGEST = "FROM example/accel@sha256:" + "3c" * 32 + "\nRUN echo digest\n"
ACCEL_BOTH = ACCEL_TAGGED + "FROM example/accel@sha256:" + "4d" * 32 + " AS extra\nRUN echo both\n"
ACCEL_README = "# Images\n\nThe GPU images are built from example/accel:9.0-devel-ubuntu20.04.\n"


def test_a_base_tag_a_sibling_may_have_by_its_digest_is_no_finding() -> None:
    family = {"gpu/a/Dockerfile": ACCEL_TAGGED, "gpu/b/Dockerfile": ACCEL_DIGEST}
    assert findings(ACCEL_README, family) == []


def test_a_base_tag_no_image_of_the_family_can_have_is_found() -> None:
    drift = (
        "3: README says example/accel:9.0-devel-ubuntu20.04 but gpu/a/Dockerfile:1 says "
        "example/accel:10.0-devel-ubuntu22.04"
    )
    assert findings(ACCEL_README, {"gpu/a/Dockerfile": ACCEL_TAGGED}) == [drift]
    # a digest in the Dockerfile that also has the tag: that image's tag is known, the claim is compared
    assert findings(ACCEL_README, {"gpu/a/Dockerfile": ACCEL_BOTH}) == [drift]


# --------------------------------------------------------------------------------------------------
# A Python release one Dockerfile of the family takes from its distribution, another's base tag says

PY_DISTRO = "FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y python3 python3-venv\n"
PY_TAGGED = "FROM example/rapids:25.10-cuda13-py3.13\nRUN echo arm\n"


def test_a_python_release_a_dockerfile_of_the_family_takes_from_its_distribution() -> None:
    family = {"Dockerfile.cpu": PY_DISTRO, "Dockerfile.arm": PY_TAGGED}
    assert findings("# Stack\n\n- **Python:** 3.12 in a virtual environment\n", family) == []
    assert findings("# Stack\n\n- **Python:** 3.13 in a virtual environment\n", family) == []


def test_a_python_release_no_dockerfile_of_the_family_has() -> None:
    family = {"Dockerfile.cpu": PY_DISTRO, "Dockerfile.arm": PY_TAGGED}
    assert findings("# Stack\n\n- **Python:** 3.11 in a virtual environment\n", family) == [
        "3: README says Python 3.11 but Dockerfile.arm:1 says 3.13"
    ]


# a run of the base image's repository beside a run of the project's own image (`fences.beside_own_runs`)

TRITON = "FROM nvcr.io/nvidia/tritonserver:21.10-py3\nRUN pip install transformers==4.30.2\n"
TRITON_README = """\
## QA pipeline

### Install
```
docker build -t qa_pipeline .
```

### Run the server

```
docker run --gpus=1 -itd -p 8050-8052:8000-8002 -v ${{PWD}}/models:/models --name qa {own} tritonserver \\
  --model-repository=/models
```

```
docker run --gpus=1 --rm --net=host -v ${{PWD}}/models:/models nvcr.io/nvidia/tritonserver:23.08-py3 \\
  tritonserver --model-repository=/models
```
"""
CHAT = (
    "FROM vllm/vllm-openai:v0.6.3\nCOPY chat_template.jinja /app/\n"
    'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
)
CHAT_README = """\
# chat server

```bash
docker build -t acme/chat:0.2 .
```

## Serving

Our image, or the stock server for comparison:

```bash
docker run --gpus all -p 8000:8000 {own} --model Qwen/Qwen2.5-7B-Instruct
docker run --gpus all -p 8001:8000 vllm/vllm-openai:v0.7.0 --model Qwen/Qwen2.5-7B-Instruct
```
"""


def _base_runs(readme: str, dockerfile: str) -> list[str]:
    return [f for f in findings(readme, {"Dockerfile": dockerfile}) if re.search(r"README runs \S+ but", f)]


def test_an_upstream_run_beside_the_project_s_own_image_is_no_base_claim() -> None:
    assert _base_runs(TRITON_README.format(own="qa_pipeline:latest"), TRITON) == []
    assert _base_runs(CHAT_README.format(own="acme/chat:0.2"), CHAT) == []


def test_an_upstream_run_with_no_run_of_the_project_s_own_image_is_still_one() -> None:
    # the section runs the base's repository only: the README's release of its base
    only_base = TRITON_README.format(own="nvcr.io/nvidia/tritonserver:23.08-py3")
    assert _base_runs(only_base, TRITON) == [
        "11: README runs nvcr.io/nvidia/tritonserver:23.08-py3 but Dockerfile:1 says "
        "nvcr.io/nvidia/tritonserver:21.10-py3; also at line 16",
    ]
    # no build in the README: the run of the base is the README's image
    no_build = CHAT_README.format(own="acme/chat:0.2").replace("docker build -t acme/chat:0.2 .", "ls")
    assert _base_runs(no_build, CHAT) == [
        "13: README runs vllm/vllm-openai:v0.7.0 but Dockerfile:1 says vllm/vllm-openai:v0.6.3"
    ]
