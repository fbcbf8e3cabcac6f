"""`docgen.audit.paragraphs`: a list item whose nested items name one of the audited Dockerfiles by its
file name (`  - Used in: Makefile line 12, Dockerfile ARG`) is about that Dockerfile alone, so the default
it states is compared with that Dockerfile's ARG, not agreed by a sibling's.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

FULL = """\
ARG ROCM_VERSION=7.1.70100-1
ARG UBUNTU_VERSION=jammy
FROM ubuntu:22.04
ARG ROCM_VERSION
ARG UBUNTU_VERSION
RUN echo ${ROCM_VERSION} ${UBUNTU_VERSION}
"""

MINIMAL = "FROM ubuntu:22.04\nARG ROCM_VERSION=7.1.1\nRUN mkdir -p /opt/rocm-${ROCM_VERSION}\n"

README = """\
# Image

## Build variables

- **`ROCM_VERSION`** (default: `{}`)
  - ROCm release of the build
  - Used in: Makefile line 15, {} ARG

- **`UBUNTU_VERSION`** (default: `jammy`)
  - Used in: Makefile line 17, Dockerfile ARG
"""


def test_a_default_in_an_item_whose_nested_items_name_the_dockerfile() -> None:
    dockerfiles = {"Dockerfile": FULL, "Dockerfile.minimal": MINIMAL}
    assert findings(README.format("7.1.1.70101-1", "Dockerfile"), dockerfiles) == [
        "5: README says ROCM_VERSION defaults to 7.1.1.70101-1 but Dockerfile:1 says 7.1.70100-1"
    ]
    # the item about the sibling whose default it gives, and the one about the Dockerfile giving its own
    assert findings(README.format("7.1.1", "Dockerfile.minimal"), dockerfiles) == []
    assert findings(README.format("7.1.70100-1", "Dockerfile"), dockerfiles) == []


def test_nested_items_naming_no_dockerfile_leave_the_family() -> None:
    # about the family: the one default is each image's that declares it (family_defaults), so the
    # image declaring another is named, though the sibling agrees
    readme = README.format("7.1.1", "Docker build").replace("Dockerfile ARG", "Docker build args")
    assert findings(readme, {"Dockerfile": FULL, "Dockerfile.minimal": MINIMAL}) == [
        "5: README says ROCM_VERSION defaults to 7.1.1 but Dockerfile:1 says 7.1.70100-1"
    ]


KERNELS = (
    "FROM ubuntu:22.04\nARG GPU_ARCH=gfx90a\nARG MAX_JOBS=8\nRUN make -j${MAX_JOBS} GPU_TARGETS=${GPU_ARCH}\n"
)


def test_a_default_in_plain_words_right_after_the_name() -> None:
    readme = """\
# Kernels

GPU_ARCH defaults to gfx942. The build runs `MAX_JOBS` (default `4`) jobs.

## Build arguments

- MAX_JOBS (default: 4)
"""
    assert findings(readme, {"Dockerfile": KERNELS}) == [
        "3: README says GPU_ARCH defaults to gfx942 but Dockerfile:2 says gfx90a",
        "3: README says MAX_JOBS defaults to 4 but Dockerfile:3 says 8",
        "7: README says MAX_JOBS defaults to 4 but Dockerfile:3 says 8",
    ]


def test_plain_words_that_are_no_default_of_the_arg() -> None:
    readme = """\
# Kernels

`MAX_JOBS` defaults to 12 or more. `GPU_ARCH` defaults to gfx942 on MI300 nodes.
MAX_JOBS defaults to 12.4 or newer.
MAX_JOBS defaults to the number of cores. `GPU_ARCH` defaults to gfx90a, the first target.
"""
    assert findings(readme, {"Dockerfile": KERNELS}) == []


# A variable the README tells to set for the build that nothing of the build reads

TOKEN_DOCKERFILE = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nARG MAX_JOBS=4\nRUN pip install flash-attn\n"

TOKEN_README = """\
# Trainer

## Build the docker image

{sentence}

```bash
git clone https://github.com/example/trainer
cd trainer
{command}
```
"""

BUILD = "docker build -t trainer -f Dockerfile ."


def _token_findings(
    tmp_path: Path, sentence: str, command: str = BUILD, dockerfile: str = TOKEN_DOCKERFILE
) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    readme = TOKEN_README.format(sentence=sentence, command=command)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, tmp_path)
        if "build arg" in d.message
    ]


@pytest.mark.parametrize(
    "command",
    [
        BUILD,
        "$ sudo docker build -t trainer .",
        "podman build -t trainer .",
        "docker buildx build -t trainer .",
    ],
)
def test_a_variable_to_set_for_the_build_that_no_arg_declares(tmp_path: Path, command: str) -> None:
    sentence = (
        "Use the following command to build the docker image. Make sure to replace the value of "
        "`GITHUB_TOKEN` with your own token."
    )
    assert _token_findings(tmp_path, sentence, command) == [
        "5: README documents build arg GITHUB_TOKEN but Dockerfile does not declare it (certain)"
    ]


@pytest.mark.parametrize(
    ("sentence", "command", "dockerfile"),
    [
        # the build reads it: a secret the RUN mounts, an ARG
        (
            "Build the image. Set `GITHUB_TOKEN` to your token first.",
            "docker build --secret id=GITHUB_TOKEN -t trainer .",
            TOKEN_DOCKERFILE + "RUN --mount=type=secret,id=GITHUB_TOKEN true\n",
        ),
        ("Build the image. Set `MAX_JOBS` to the number of cores.", BUILD, TOKEN_DOCKERFILE),
        # a script builds: it may read the variable itself
        ("Build the image. Set `GITHUB_TOKEN` to your token first.", "./build.sh", TOKEN_DOCKERFILE),
        # a script first, then the build (`build_scripts.BUILD_LINE`: the build must be the line's command)
        (
            "Build the image. Set `GITHUB_TOKEN` to your token first.",
            "./prepare.sh && docker build -t trainer .",
            TOKEN_DOCKERFILE,
        ),
        # a variable of the container, next to a run command
        (
            "Run the container. Set `HF_TOKEN` to your token.",
            "docker run -e HF_TOKEN trainer",
            TOKEN_DOCKERFILE,
        ),
        # no word about building the image
        ("Make sure to replace the value of `GITHUB_TOKEN` with your own token.", BUILD, TOKEN_DOCKERFILE),
    ],
)
def test_a_variable_the_build_reads_or_no_build_sentence(
    tmp_path: Path, sentence: str, command: str, dockerfile: str
) -> None:
    assert _token_findings(tmp_path, sentence, command, dockerfile) == []


CUDA_IMAGE = 'ARG CUDA_IMAGE="12.1.1-devel-ubuntu22.04"\nFROM nvidia/cuda:${CUDA_IMAGE}\nRUN apt-get update\n'


@pytest.mark.parametrize(
    "lines",
    [
        # a host environment made by conda, shown as a command in the prose: its CUDA is not the image's
        "Older versions of cuda can be used with conda environments e.g.:\n"
        "$ conda create -n cuda122 cuda=12.2\n"
        "$ conda activate cuda122",
        "For a local run make an environment first:\nmamba install -c nvidia cuda-toolkit=12.4\n",
        "Some tools need an older one:\n> micromamba create -n old cuda=11.8\n",
    ],
)
def test_a_host_environment_command_in_prose_is_no_claim_on_the_image(lines: str) -> None:
    readme = f"# llama server\n\nThe image supports CUDA 12.1.\n\n{lines}\n"
    assert findings(readme, {"Dockerfile": CUDA_IMAGE}) == []


def test_a_sentence_about_the_image_beside_a_conda_command_is_still_read() -> None:
    readme = (
        "# llama server\n\nThe image is built on CUDA 12.2.\n\n"
        "To match it locally:\n$ conda create -n cuda121 cuda=12.1\n"
    )
    assert findings(readme, {"Dockerfile": CUDA_IMAGE}) == [
        "3: README says CUDA 12.2 but Dockerfile:1 says 12.1.1"
    ]
