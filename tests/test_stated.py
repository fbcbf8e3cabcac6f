"""`docgen.stated`: versions a Dockerfile states in words (a label's description, a present-tense comment
about its base), and the audit reading them, `likely`, for what nothing pins or tags (a planted drift next
to the nearest true statement, and comments that are history, plans or needs)."""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.dockerfile import parse_dockerfile
from docgen.stated import stated_versions

LABELLED = """\
FROM registry.example.com/team/gpu-devel:20260301
RUN pip install accelerate
LABEL org.opencontainers.image.title="trainer" \\
      org.opencontainers.image.description="PyTorch 2.6.0 CUDA 12.6 runtime on Ubuntu 22.04" \\
      org.opencontainers.image.version="1.4.2"
"""

TABLE = """\
| Component | Version |
|-----------|---------|
| PyTorch   | {}      |
| CUDA      | 12.6    |
"""


def _stated(text: str) -> list[tuple[str, str, int, str]]:
    return [(s.name, s.version, s.line, s.where) for s in stated_versions(parse_dockerfile(text))]


def test_a_label_description_states_the_stack() -> None:
    assert _stated(LABELLED) == [
        ("PyTorch", "2.6.0", 3, "label"),
        ("CUDA", "12.6", 3, "label"),
        ("Ubuntu", "22.04", 3, "label"),
    ]


def test_a_version_the_label_states_otherwise() -> None:
    assert findings(TABLE.format("2.5.1"), {"Dockerfile": LABELLED}) == [
        "3: README says PyTorch 2.5.1 but Dockerfile:3 says PyTorch 2.6.0 (its LABEL description)"
    ]


def test_the_version_the_label_states() -> None:
    assert findings(TABLE.format("2.6.0"), {"Dockerfile": LABELLED}) == []


def test_a_pin_outranks_the_label() -> None:
    pinned = LABELLED.replace("pip install accelerate", "pip install torch==2.5.1")
    assert findings(TABLE.format("2.5.1"), {"Dockerfile": pinned}) == []


def test_a_base_tag_outranks_the_label() -> None:
    tagged = LABELLED.replace(
        "registry.example.com/team/gpu-devel:20260301", "nvidia/cuda:12.4.1-devel-ubuntu22.04"
    )
    assert findings("- CUDA 12.4\n", {"Dockerfile": tagged}) == []


COMMENTED = """\
FROM registry.example.com/edge/jp6-ml:latest
# make pip current (the JetPack 6 base ships Python 3.10)
RUN python3 -m pip install --upgrade pip
"""


def test_a_comment_about_the_base() -> None:
    assert _stated(COMMENTED) == [("Python", "3.10", 2, "comment")]
    assert findings("The image runs Python 3.8.\n", {"Dockerfile": COMMENTED}) == [
        "1: README says Python 3.8 but Dockerfile:2 says Python 3.10 (a comment about the base)"
    ]
    assert findings("The image runs Python 3.10.\n", {"Dockerfile": COMMENTED}) == []


@pytest.mark.parametrize(
    "comment",
    [
        "# the base used to ship Python 3.8",  # history
        "# TODO: the base image has Python 3.8, move to 3.12",  # a plan
        "# pin the release compatible with Python 3.10",  # what something needs
        "# install Python 3.10 packages",  # no sentence about the base
        "# if the base image has CUDA 12.8, skip this",  # a condition
    ],
)
def test_comments_that_state_nothing_now(comment: str) -> None:
    assert _stated(f"FROM example/base:1\n{comment}\nRUN true\n") == []


def test_a_comment_apart_from_the_instruction_is_not_read() -> None:
    assert _stated("FROM example/base:1\n# the base ships Python 3.10\n\nRUN true\n") == []


LABELLED_BASE = """\
# base: local/npu-trainer (torch 2.1 + CANN 8.0)
FROM local/npu-trainer:latest
# Base image: Python 3.9
RUN pip install sentencepiece==0.2.0
"""


def test_a_comment_labelling_the_base_states_its_stack() -> None:
    assert _stated(LABELLED_BASE) == [
        ("torch", "2.1", 1, "comment"),
        ("CANN", "8.0", 1, "comment"),
        ("Python", "3.9", 3, "comment"),
    ]
    labelled = "# base: torch 2.1 + CANN 8.0\nFROM local/npu-trainer:latest\n"
    assert _stated(labelled) == [("torch", "2.1", 1, "comment"), ("CANN", "8.0", 1, "comment")]
    # the planted drift, and the nearest truth
    assert findings("The image ships PyTorch 2.6.0.\n", {"Dockerfile": labelled}) == [
        "1: README says PyTorch 2.6.0 but Dockerfile:1 says torch 2.1 (a comment about the base)"
    ]
    assert findings("The image ships PyTorch 2.1.\n", {"Dockerfile": labelled}) == []


@pytest.mark.parametrize(
    "comment",
    ["# base: was torch 2.0, now newer", "# rebase: torch 2.1", "# database: Postgres 16.2"],
)
def test_a_base_label_about_the_past_or_no_base_label_states_nothing(comment: str) -> None:
    assert _stated(f"{comment}\nFROM local/npu-trainer:latest\n") == []


def test_a_label_whose_key_names_a_version() -> None:
    text = """\
FROM registry.example.com/team/gpu-devel:20260301
LABEL com.nvidia.cuda.version="12.4.1" cudnn_version=9.1.0 \\
      com.nvidia.volumes.needed="nvidia_driver" \\
      org.opencontainers.image.version="1.4.2" org.label-schema.version="1.0" \\
      com.nvidia.nccl.version="${NCCL_VERSION}"
"""
    assert _stated(text) == [("cuda", "12.4.1", 2, "version-label"), ("cudnn", "9.1.0", 2, "version-label")]


STACK = """\
# for a docker image with:
# CUDA 10.0.130
# NCCL 2.4.2
# Anaconda3-2019.07 (python 3.7.5)
# tini from its latest release, NCCL 2.5 once it is out

# base
FROM nvidia/cuda:10.0-devel-ubuntu16.04
"""


def test_a_comment_listing_the_images_stack() -> None:
    assert _stated(STACK) == [
        ("CUDA", "10.0.130", 2, "stack-comment"),
        ("NCCL", "2.4.2", 3, "stack-comment"),
        ("python", "3.7.5", 4, "stack-comment"),
    ]


@pytest.mark.parametrize(
    "intro",
    [
        "# the old image used to come with:",  # the past
        "# To build it you need:",  # no image holding anything
    ],
)
def test_a_list_under_another_intro_states_nothing(intro: str) -> None:
    assert _stated(STACK.replace("# for a docker image with:", intro)) == []


def test_a_stack_comment_against_a_readme() -> None:
    readme = "# Base\n\n| Component | Version |\n|---|---|\n| NCCL | 2.2 |\n| CUDA | 10.0 |\n"
    assert findings(readme, {"Dockerfile": STACK}) == [
        "5: README says NCCL 2.2 but Dockerfile:3 says NCCL 2.4.2 (a comment listing the image's stack)"
    ]
