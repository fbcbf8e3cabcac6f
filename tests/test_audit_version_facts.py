"""`docgen audit`: versions a Dockerfile states outright without pinning them (an ENV, a version label,
the CUDA a wheel or an apt package is built for), the last word when a later pin replaces what the base
image's tag says, and bare `Name version` lines under a versions heading read as surely as a table cell
(docgen/audit/version_facts.py). Each rule: a planted drift, and a near miss that stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree, run

from docgen.audit import audit
from docgen.audit.version_facts import built_for, env_versions, overriding_pins
from docgen.dockerfile import parse_dockerfile
from docgen.model import Component
from docgen.pipeline import build_model, model_of

TABLE = """\
# Trainer image

| Component | Version |
|-----------|---------|
| {name} | {version} |
"""


def _table(name: str, version: str) -> str:
    return TABLE.format(name=name, version=version)


def _confidences(readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", [model], {})]


# --- ENV -------------------------------------------------------------------------------------------

ENVS = """\
FROM ubuntu:22.04
ENV CUDA_HOME=/usr/local/cuda \\
    CUDA_VERSION=12.4.1 \\
    CUDA_PKG_VERSION=12-4=12.4.1-1
ENV NCCL_VERSION 2.21.5
ENV NV_CUDNN_VERSION=9.1.0.70
ENV VERSION=3.0.1
RUN apt-get update && apt-get install -y curl
"""


def test_env_versions_name_their_component() -> None:
    model = model_of(parse_dockerfile(ENVS, "Dockerfile"))
    assert list(env_versions(model)) == [
        ("CUDA", "CUDA_VERSION", "12.4.1", 2),
        ("NCCL", "NCCL_VERSION", "2.21.5", 5),
        ("CUDNN", "NV_CUDNN_VERSION", "9.1.0.70", 6),
    ]


@pytest.mark.parametrize(
    ("name", "claim", "line", "fact"),
    [
        ("CUDA", "12.1", 2, "12.4.1 (ENV CUDA_VERSION)"),
        ("NCCL", "2.20.5", 5, "2.21.5 (ENV NCCL_VERSION)"),
        ("cuDNN", "9.0", 6, "9.1.0.70 (ENV NV_CUDNN_VERSION)"),
    ],
)
def test_a_version_an_env_states_is_a_fact(name: str, claim: str, line: int, fact: str) -> None:
    assert findings(_table(name, claim), {"Dockerfile": ENVS}) == [
        f"5: README says {name} {claim} but Dockerfile:{line} says {fact}"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        _table("CUDA", "12.4"),  # a shorter version agrees
        _table("NCCL", "2.21.5"),
        "# Trainer\n\n## Prerequisites\n\n- CUDA: 12.1 on the host, driver >= 535\n",  # the host
        "# Trainer\n\nThe image is at version 3.1.0 of the trainer.\n",  # `ENV VERSION`: the image's own
    ],
)
def test_envs_that_agree_or_are_not_about_the_image_stay_silent(readme: str) -> None:
    assert findings(readme, {"Dockerfile": ENVS}) == []


# --- labels -----------------------------------------------------------------------------------------

LABELS = """\
FROM registry.example.com/team/gpu-devel:20260301
ARG CUDNN=9.1.0
LABEL com.nvidia.cuda.version="12.4.1" \\
      com.nvidia.cudnn.version="${CUDNN}" \\
      org.opencontainers.image.version="1.4.2"
"""


def test_a_label_naming_a_version_is_a_fact() -> None:
    assert _confidences(_table("CUDA", "12.1"), LABELS) == [
        (5, "README says CUDA 12.1 but Dockerfile:3 says 12.4.1 (LABEL com.nvidia.cuda.version)", "certain")
    ]


def test_the_image_version_label_and_an_unexpanded_one_say_nothing() -> None:
    readme = _table("Trainer", "1.5.0") + "| cuDNN | 8.9 |\n"
    assert findings(readme, {"Dockerfile": LABELS}) == []


# --- the CUDA a package is built for ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comp", "expected"),
    [
        (Component("torch", "pip", "2.5.1+cu124", None, None, "prebuilt", "#0", 2, True), ("cuda", "12.4")),
        (
            Component(
                "torch",
                "pip",
                "2.5.1",
                None,
                "https://download.pytorch.org/whl/cu121",
                "prebuilt",
                "#0",
                2,
                True,
            ),
            ("cuda", "12.1"),
        ),
        (
            Component(
                "torch",
                "pip",
                None,
                None,
                "https://download.pytorch.org/whl/nightly/cu128",
                "prebuilt",
                "#0",
                2,
                False,
            ),
            ("cuda", "12.8"),
        ),
        (Component("torch", "pip", "2.5.1+rocm6.2", None, None, "prebuilt", "#0", 2, True), ("rocm", "6.2")),
        (
            Component(
                "torch",
                "pip",
                "2.5.1",
                None,
                "https://download.pytorch.org/whl/rocm6.3",
                "prebuilt",
                "#0",
                2,
                True,
            ),
            ("rocm", "6.3"),
        ),
        (
            Component("cuda-toolkit-12-4", "apt", None, None, None, "package", "#0", 2, False),
            ("cuda", "12.4"),
        ),
        (Component("cuda-nvcc-12-1", "apt", None, None, None, "package", "#0", 2, False), ("cuda", "12.1")),
        (
            Component("libcudnn8", "apt", "8.9.7.29", "8.9.7.29-1+cuda12.2", None, "package", "#0", 2, True),
            ("cuda", "12.2"),
        ),
        # near misses: a CPU index, a package whose name ends in a number, a plain pin
        (
            Component(
                "torch",
                "pip",
                "2.5.1+cpu",
                None,
                "https://download.pytorch.org/whl/cpu",
                "prebuilt",
                "#0",
                2,
                True,
            ),
            None,
        ),
        (Component("cuda-python", "pip", "12.4.0", None, None, "prebuilt", "#0", 2, True), None),
        (Component("cuda-keyring", "apt", None, None, None, "package", "#0", 2, False), None),
        (Component("libnccl2", "apt", "2.21.5", "2.21.5-1", None, "package", "#0", 2, True), None),
    ],
)
def test_the_release_a_package_is_built_for(comp: Component, expected: tuple[str, str] | None) -> None:
    assert built_for(comp) == expected


BUILT_FOR = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y cuda-toolkit-12-4 libcudnn8=8.9.7.29-1+cuda12.4
RUN pip install torch==2.5.1+cu124 torchvision==0.20.1+cu124
"""


def test_a_cuda_claim_against_the_toolkit_and_the_wheels() -> None:
    assert findings(_table("CUDA", "12.1"), {"Dockerfile": BUILT_FOR}) == [
        "5: README says CUDA 12.1 but Dockerfile:2 says 12.4 (cuda-toolkit-12-4)"
    ]
    assert findings(_table("CUDA", "12.4"), {"Dockerfile": BUILT_FOR}) == []


def test_the_index_names_the_cuda_of_the_wheels() -> None:
    dockerfile = "FROM python:3.11-slim\nRUN pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121\n"
    assert findings(_table("CUDA", "12.4"), {"Dockerfile": dockerfile}) == [
        "5: README says CUDA 12.4 but Dockerfile:2 says 12.1 (torch from https://download.pytorch.org/whl/cu121)"
    ]
    cpu = dockerfile.replace("cu121", "cpu")
    assert findings(_table("CUDA", "12.4"), {"Dockerfile": cpu}) == []


def test_a_host_cuda_next_to_wheels_of_another_stays_silent() -> None:
    readme = "# Trainer\n\n## Requirements\n\nThe host needs CUDA 12.6 drivers (driver >= 560).\n"
    assert findings(readme, {"Dockerfile": BUILT_FOR}) == []


# --- the last word ------------------------------------------------------------------------------------

ROCM_BASE = "rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0"
UPGRADED = f"""\
FROM {ROCM_BASE}
RUN pip install --no-cache-dir torch==2.5.1 --index-url https://download.pytorch.org/whl/rocm6.2
"""


def test_a_later_pin_replaces_the_base_tags_version() -> None:
    assert _confidences(_table("PyTorch", "2.3"), UPGRADED) == [
        (5, "README says PyTorch 2.3 but Dockerfile:2 says 2.5.1", "certain")
    ]
    assert findings(_table("PyTorch", "2.5.1"), {"Dockerfile": UPGRADED}) == []
    # the rest of the tag still stands: ROCm 6.2, Python 3.10
    assert findings(_table("ROCm", "6.2") + "| Python | 3.10 |\n", {"Dockerfile": UPGRADED}) == []


def test_the_overriding_pins_are_of_the_image_built() -> None:
    model = model_of(parse_dockerfile(UPGRADED, "Dockerfile"))
    assert [(c.name, c.version, c.line) for c in overriding_pins(model)] == [("torch", "2.5.1", 2)]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # a builder stage's pin, whose wheel the final stage does not install
        f"FROM {ROCM_BASE} AS build\nRUN pip install torch==2.5.1\nFROM {ROCM_BASE}\nRUN echo ready\n",
        # a range replaces nothing docgen can name
        f"FROM {ROCM_BASE}\nRUN pip install 'torch>=2.3'\n",
        # another package's pin
        f"FROM {ROCM_BASE}\nRUN pip install torchvision==0.20.1\n",
    ],
)
def test_the_tags_version_stands_without_a_later_pin_of_it(dockerfile: str) -> None:
    assert findings(_table("PyTorch", "2.3.0"), {"Dockerfile": dockerfile}) == []


# --- bare version lines under a versions heading ------------------------------------------------------

LISTED = """\
# Trainer image

## {heading}

- PyTorch 2.5.1
- CUDA: {cuda}
"""
PINNED = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install torch==2.5.1\n"


@pytest.mark.parametrize(
    "heading", ["Versions", "Key versions", "Components", "What the container includes", "🚀 Features"]
)
def test_a_bare_item_under_a_versions_heading_is_certain(heading: str) -> None:
    readme = LISTED.format(heading=heading, cuda="12.1")
    assert _confidences(readme, PINNED) == [
        (6, "README says CUDA 12.1 but Dockerfile:1 says 12.4.1", "certain")
    ]


@pytest.mark.parametrize(
    "heading", ["Host environment and versions", "Tested versions", "Supported versions"]
)
def test_a_bare_item_under_another_heading_is_not_certain(heading: str) -> None:
    readme = LISTED.format(heading=heading, cuda="12.1")
    assert all(confidence != "certain" for _, _, confidence in _confidences(readme, PINNED))


@pytest.mark.parametrize(
    "intro", ["Includes:", "The image contains these packages:", "**Installed software:**"]
)
def test_a_bare_item_of_a_list_introduced_as_the_image_s_is_certain(intro: str) -> None:
    readme = f"# Trainer image\n\n## Notes\n\n{intro}\n\n- PyTorch 2.5.1\n- CUDA: 12.1\n"
    assert _confidences(readme, PINNED) == [
        (8, "README says CUDA 12.1 but Dockerfile:1 says 12.4.1", "certain")
    ]


@pytest.mark.parametrize(
    "intro", ["Tested with:", "Supported versions:", "Includes", "Other images include:"]
)
def test_a_bare_item_of_a_list_introduced_otherwise_is_not_certain(intro: str) -> None:
    readme = f"# Trainer image\n\n## Notes\n\n{intro}\n\n- PyTorch 2.5.1\n- CUDA: 12.1\n"
    assert all(confidence != "certain" for _, _, confidence in _confidences(readme, PINNED))


def test_an_item_with_more_words_is_certain_of_its_opening_version() -> None:
    # `- CUDA: 12.1 (the runtime of the base image)` under `## Versions`: the item's subject is CUDA 12.1
    readme = LISTED.format(heading="Versions", cuda="12.1 (the runtime of the base image)")
    assert _confidences(readme, PINNED) == [
        (
            6,
            "README says CUDA 12.1 of the base image but Dockerfile:1 says "
            "nvidia/cuda:12.4.1-devel-ubuntu22.04 (CUDA 12.4.1)",
            "certain",
        )
    ]


# --- items opening with a plain `Name version` and saying more of it (wording.opened_versions) -------

INCLUDED = """# Speech API

## {heading}

- PyTorch {torch} with CUDA {cuda}
- faster-whisper {whisper} (CTranslate2 backend)
- FastAPI server
"""
SPEECH = (
    "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n"
    "RUN pip install torch==2.3.0 --index-url https://download.pytorch.org/whl/cu121\n"
    "RUN pip install faster-whisper==1.0.3 fastapi\n"
)


@pytest.mark.parametrize("heading", ["What's Included", "Components", "Installed packages"])
def test_the_opening_version_of_an_item_under_an_included_heading_is_certain(heading: str) -> None:
    readme = INCLUDED.format(heading=heading, torch="2.4.0", cuda="12.1", whisper="1.1.0")
    assert _confidences(readme, SPEECH) == [
        (5, "README says PyTorch 2.4.0 but Dockerfile:2 says 2.3.0", "certain"),
        (6, "README says faster-whisper 1.1.0 but Dockerfile:3 says 1.0.3", "certain"),
    ]
    # the CUDA after `with` is the wheel's (`cu121`), true of it though the base has 12.4.1
    true = INCLUDED.format(heading=heading, torch="2.3.0", cuda="12.1", whisper="1.0.3")
    assert _confidences(true, SPEECH) == []


def test_the_rest_of_an_opened_item_stays_likely() -> None:
    # a CUDA no wheel says: the claim after the opening one is read as prose, not as the item's subject
    readme = INCLUDED.format(heading="What's Included", torch="2.3.0", cuda="11.8", whisper="1.0.3")
    assert _confidences(readme, SPEECH) == [
        (5, "README says CUDA 11.8 but Dockerfile:1 says 12.4.1", "likely")
    ]


@pytest.mark.parametrize(
    "item",
    [
        "- CUDA 12.6 or newer on the machine",  # one of several versions
        "- CUDA 12.6, 12.8",  # a choice
        "- CUDA 12.6 (legacy images)",  # not the current one
        "- CUDA 12.6 compatible driver",  # the host's
    ],
)
def test_an_opened_item_saying_it_is_not_the_image_s_one_version_is_not_certain(item: str) -> None:
    readme = f"# Speech API\n\n## What's Included\n\n{item}\n- FastAPI server\n"
    assert all(confidence != "certain" for _, _, confidence in _confidences(readme, SPEECH))


@pytest.mark.parametrize("heading", ["Tested versions", "Host requirements", "Available images"])
def test_an_opened_item_under_another_heading_is_not_certain(heading: str) -> None:
    readme = INCLUDED.format(heading=heading, torch="2.4.0", cuda="12.1", whisper="1.1.0")
    assert all(confidence != "certain" for _, _, confidence in _confidences(readme, SPEECH))


def test_a_name_opening_two_items_is_a_choice() -> None:
    readme = (
        "# Speech API\n\n## Components\n\n"
        "- PyTorch 2.4.0 with CUDA 12.1 wheels\n- PyTorch 2.3.0 with CUDA 11.8 wheels\n"
    )
    assert all(confidence != "certain" for _, _, confidence in _confidences(readme, SPEECH))


def test_a_library_wheel_does_not_replace_the_base_images_library() -> None:
    # `nvidia-cudnn-cu12` is the cuDNN PyTorch loads; the base image's own cuDNN stays in the image
    dockerfile = (
        "FROM example/trainer:base-cu124-cudnn9.8-torch2.6\nRUN pip install nvidia-cudnn-cu12==9.1.0.70\n"
    )
    assert findings(_table("cuDNN", "9.8"), {"Dockerfile": dockerfile}) == []
    # while a pin of the package the tag names replaces it
    upgraded = dockerfile.replace("nvidia-cudnn-cu12==9.1.0.70", "torch==2.7.1")
    assert findings(_table("PyTorch", "2.6"), {"Dockerfile": upgraded}) == [
        "5: README says PyTorch 2.6 but Dockerfile:2 says 2.7.1"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Current version: UBUNTU 22.04, CUDA 12.1, PYTHON3.10, SSH-server",
        "**Software stack:** CUDA 12.1, PyTorch 2.5.1",
        "Ubuntu Server 22.04 with Python 3.10, PyTorch 2.5.1, CUDA 12.1.",
        "- Ubuntu 22.04 + CUDA 12.1 + PyTorch 2.5.1",
    ],
)
def test_a_line_saying_the_image_s_versions_is_certain_under_any_heading_about_it(line: str) -> None:
    readme = f"# Trainer image\n\n## Description\n\n{line}\n"
    assert _confidences(readme, PINNED) == [
        (5, "README says CUDA 12.1 but Dockerfile:1 says 12.4.1", "certain")
    ]


@pytest.mark.parametrize(
    ("heading", "line"),
    [
        ("Description", "Tested on Ubuntu 22.04 with CUDA 12.1 and PyTorch 2.5.1."),
        ("Description", "Minimum version: CUDA 12.1, PyTorch 2.5.1"),
        ("Description", "Supported versions: CUDA 12.1, PyTorch 2.5.1"),
        ("Description", "CUDA 12.1 and PyTorch 2.5.1"),  # two: may be an aside
        ("Host requirements", "Ubuntu 22.04 with CUDA 12.1, PyTorch 2.5.1"),
    ],
)
def test_a_line_of_versions_of_something_else_is_not_certain(heading: str, line: str) -> None:
    readme = f"# Trainer image\n\n## {heading}\n\n{line}\n"
    assert all(confidence != "certain" for _, _, confidence in _confidences(readme, PINNED))


def test_an_item_opening_with_a_version_in_bold_under_a_features_heading_is_certain() -> None:
    readme = "# Trainer image\n\n## Features\n\n- **CUDA 12.1** and **cuDNN 9** (DNN backend enabled)\n"
    assert _confidences(readme, PINNED) == [
        (5, "README says CUDA 12.1 but Dockerfile:1 says 12.4.1", "certain")
    ]
    # the same item not in bold stays likely; under a heading about the host it is no claim
    plain = readme.replace("**CUDA 12.1**", "CUDA 12.1")
    assert [c for _, _, c in _confidences(plain, PINNED)] == ["likely"]
    assert _confidences(readme.replace("## Features", "## Host setup"), PINNED) == []


def test_a_choice_of_versions_under_a_versions_heading_is_not_certain() -> None:
    readme = "# Trainer image\n\n## Versions\n\n- CUDA 11.8\n- CUDA 12.4\n"
    assert [c for _, _, c in _confidences(readme, PINNED)] == ["likely"]


ROCM_ENV = """\
FROM ubuntu:22.04
ARG rocm_version{default}
ENV ROCM_VERSION=${{rocm_version}}
RUN echo "rocm ${{ROCM_VERSION}}"
"""


def test_an_env_made_of_what_the_readme_passes_is_no_fact_of_the_dockerfile(chdir_tmp: Path) -> None:
    # the section's build command passes 6.0.0 under a heading saying 6.2.0: the README against itself
    passed = (
        "# ROCm images\n\n## Build for ROCm 6.2.0\n\n```\n"
        "docker build --build-arg rocm_version=6.0.0 -t rocm:6.0.0 -f Dockerfile .\n```\n"
    )
    make_tree(chdir_tmp, {"Dockerfile": ROCM_ENV.format(default=""), "README.md": passed})
    assert run("audit", "--confidence", "likely", "README.md").code == 0
    # the Dockerfile's own default is its fact (trap: the rule above must not drop it)
    stated = "# ROCm image\n\nIt ships ROCm 6.2.0.\n"
    make_tree(chdir_tmp, {"Dockerfile": ROCM_ENV.format(default="=6.0.0"), "README.md": stated})
    result = run("audit", "--confidence", "likely", "README.md")
    assert "README says ROCm 6.2.0 but Dockerfile:3 says 6.0.0 (ENV ROCM_VERSION)" in result.out


def test_a_bare_item_with_a_local_version_under_a_versions_heading_is_certain() -> None:
    readme = "# Trainer image\n\n## Versions\n\n- torch 2.5.0+cu124\n"
    dockerfile = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install torch==2.5.1+cu124\n"
    assert _confidences(readme, dockerfile) == [
        (5, "README says torch 2.5.0+cu124 but Dockerfile:2 says 2.5.1+cu124", "certain")
    ]


# --- a list of bare versions under no heading but the README's title ---------------------------------

TORCH = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN pip install torch==2.5.1+cu124 torchvision==0.20.1+cu124 numpy==1.26.4
"""
UNTITLED = """\
{title}`docker pull example/torch:latest`

{intro}- nvidia/cuda:12.4.1-runtime-ubuntu22.04
- python 3.10
- numpy 1.26.4
- torch 2.5.0+cu124
- torchvision 0.20.1+cu124
"""


@pytest.mark.parametrize("title", ["", "# torch-image\n\n", "torch-image\n===========\n\n"])
@pytest.mark.parametrize("intro", ["", "The image has:\n"])
def test_a_list_of_bare_versions_under_no_heading_but_the_title_is_certain(title: str, intro: str) -> None:
    readme = UNTITLED.format(title=title, intro=intro)
    line = readme.splitlines().index("- torch 2.5.0+cu124") + 1
    assert _confidences(readme, TORCH) == [
        (line, "README says torch 2.5.0+cu124 but Dockerfile:2 says 2.5.1+cu124", "certain")
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # under a heading that is not the title, nor about the image's versions
        UNTITLED.format(title="# torch-image\n\n## Usage\n\n", intro=""),
        # a second top heading: the first is no title of the whole README
        "# torch-image\n\n# Notes\n\n" + UNTITLED.format(title="", intro=""),
        # an introduction about something else than the image
        UNTITLED.format(title="", intro="Tested with:\n"),
        UNTITLED.format(title="", intro="Requirements on the host:\n"),
        UNTITLED.format(title="", intro="A line of prose that introduces nothing.\n"),
        # an item that says more than a name and a version
        UNTITLED.format(title="", intro="").replace("numpy 1.26.4", "numpy 1.26.4 (from conda-forge)"),
        # too short a list to be the image's versions
        "# torch-image\n\n- python 3.10\n- torch 2.5.0+cu124\n",
    ],
)
def test_a_list_that_may_be_something_else_is_not_certain(readme: str) -> None:
    # likely, or silent when the words set it aside (`Requirements on the host`)
    assert [c for _, m, c in _confidences(readme, TORCH) if "torch 2.5.0" in m] in (["likely"], [])
    assert all(c != "certain" for _, _, c in _confidences(readme, TORCH))


@pytest.mark.parametrize(
    "pin",
    [
        "- torch2trt 36656b614f3fbc067ac673932e2200d7afdae712",
        "- onnx-tensorrt release/10.0-GA",
        "- apex `9f1b7c2`",
    ],
)
def test_an_item_pinned_to_a_commit_or_release_branch_keeps_the_list_the_image_s_versions(pin: str) -> None:
    readme = UNTITLED.format(title="# torch-image\n\n", intro="") + pin + "\n"
    line = readme.splitlines().index("- torch 2.5.0+cu124") + 1
    assert _confidences(readme, TORCH) == [
        (line, "README says torch 2.5.0+cu124 but Dockerfile:2 says 2.5.1+cu124", "certain")
    ]


@pytest.mark.parametrize(
    "item",
    [
        "- torch2trt (see 36656b614f3fbc067ac673932e2200d7afdae712 for the fix)",  # more than a pin
        "- onnx-tensorrt release/10.0-GA or main",  # a choice
        "- onnx-tensorrt main",  # a branch that moves
    ],
)
def test_an_item_that_is_more_than_a_pin_keeps_the_list_likely(item: str) -> None:
    readme = UNTITLED.format(title="# torch-image\n\n", intro="") + item + "\n"
    assert {c for _, _, c in _confidences(readme, TORCH)} == {"likely"}


def test_a_choice_of_versions_under_no_heading_is_not_certain() -> None:
    readme = "# torch-image\n\n- torch 2.4.0\n- torch 2.5.0\n- python 3.10\n- numpy 1.26.4\n"
    assert {c for _, _, c in _confidences(readme, TORCH)} == {"likely"}


def test_a_list_of_bare_versions_that_agree_is_silent() -> None:
    readme = UNTITLED.format(title="# torch-image\n\n", intro="").replace("2.5.0+cu124", "2.5.1+cu124")
    assert _confidences(readme, TORCH) == []


# --- a repository that only lends a package ---------------------------------------------------------

DONOR = """\
FROM rocm/dev-ubuntu-22.04:7.0.2
RUN echo 'deb [arch=amd64 trusted=yes] https://repo.radeon.com/rocm/apt/6.3/ jammy main' \\
      > /etc/apt/sources.list.d/rocm63.list && \\
    apt-get update && cd /tmp && apt-get download rocblas=4.3.0.60300-39~22.04 && \\
    dpkg-deb -x rocblas*.deb /tmp/rocblas63 && cp -r /tmp/rocblas63/opt/rocm-6.3.0/lib/* /opt/rocm/lib/ && \\
    rm -rf /tmp/rocblas* /etc/apt/sources.list.d/rocm63.list
"""


def test_a_donor_repository_does_not_outrank_the_base_release() -> None:
    # the 6.3 repository only lends rocBLAS: the image's ROCm is the base's 7.0.2
    readme = "# llama.cpp for gfx906 + ROCm 7.0.2\n\nROCm 7.0.2 dropped gfx906 support in rocBLAS.\n"
    assert _confidences(readme, DONOR) == []
    # a release the base is not is still found, against the base image
    stale = "# llama.cpp for gfx906 + ROCm 6.4.1\n"
    assert _confidences(stale, DONOR) == [(1, "README says ROCm 6.4.1 but Dockerfile:1 says 7.0.2", "likely")]


# --- a version build arg that only labels the image ----------------------------------------------------

LABELLED = """\
FROM rocm/dev-ubuntu-22.04:6.2
ARG TORCH_VERSION="v2.4.0"
LABEL "org.example.torch.version"=${TORCH_VERSION}
ARG workdir_name="torch.${TORCH_VERSION}"
RUN mkdir -p /build/${workdir_name} && cd /build/${workdir_name} && \\
    git clone https://github.com/pytorch/pytorch && cd pytorch && \\
    git submodule update --init --recursive && python3 setup.py install
"""

LABELLED_README = "# PyTorch 2.4.0 on ROCm 6.2\n\nBuilds PyTorch from source.\n"


def _labelled(tmp_path: Path, dockerfile: str, readme: str = LABELLED_README) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", [model], {})]


def test_a_version_arg_that_only_labels_a_clone_of_the_default_branch(tmp_path: Path) -> None:
    assert _labelled(tmp_path, LABELLED) == [
        "1: README says PyTorch 2.4.0 but Dockerfile:2 says ARG TORCH_VERSION=v2.4.0 only labels the image "
        "(LABEL on line 3), while line 6 clones pytorch with no ref: its default branch (likely)"
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # the clone checks the version out
        LABELLED.replace("cd pytorch && \\", "cd pytorch && git checkout ${TORCH_VERSION} && \\"),
        # the clone is at a ref of its own
        LABELLED.replace("git clone https", "git clone -b v2.4.0 https"),
        # a derived arg read as more than a folder (a tag to check out)
        LABELLED.replace(
            'ARG workdir_name="torch.${TORCH_VERSION}"', 'ARG workdir_name="${TORCH_VERSION}"'
        ).replace("cd pytorch && \\", "cd pytorch && git checkout ${workdir_name} && \\"),
        # a wheel pinned besides the clone
        LABELLED + "RUN pip install torch==2.4.0\n",
    ],
)
def test_version_args_the_build_reads_or_a_pin_agrees_with(tmp_path: Path, dockerfile: str) -> None:
    assert _labelled(tmp_path, dockerfile) == []


# --- a repository cloned and built at its default branch ---------------------------------------------

DEFAULT_BRANCH = """\
FROM sci-python-base
RUN cd /src && git clone https://github.com/example/dmft-core dmft.src \\
    && mkdir -p dmft.build && cd dmft.build \\
    && cmake ../dmft.src -DCMAKE_INSTALL_PREFIX=/opt/dmft && make -j$(nproc) && make install
RUN pip install git+https://github.com/example/wannier-tools
RUN cd / && rm -rf /src
"""


def _cloned(tmp_path: Path, readme: str, dockerfile: str = DEFAULT_BRANCH) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", [model], {})]


def _default_branch(line: int, said: str, at: int, url: str) -> str:
    return (
        f"{line}: README says {said} but Dockerfile:{at} says a clone of {url} with no ref (its default "
        f"branch, no release) (likely)"
    )


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # a list of the applications, each with its version and how it is built
        (
            "## Applications\n\n- VASP: 6.4.2 (needs a licence)\n"
            "- `dmft-core` 3.1 (https://example.org/docs/) built with MPICH and MKL\n",
            [_default_branch(4, "dmft-core 3.1", 2, "https://github.com/example/dmft-core")],
        ),
        # a versions table
        (
            "| Package | Version |\n|---|---|\n| dmft-core | 3.1 |\n",
            [_default_branch(3, "dmft-core 3.1", 2, "https://github.com/example/dmft-core")],
        ),
        # a sentence
        (
            "The image builds dmft-core v3.1 from source with MKL.\n",
            [_default_branch(1, "dmft-core v3.1", 2, "https://github.com/example/dmft-core")],
        ),
    ],
)
def test_a_version_said_of_a_clone_of_the_default_branch(
    tmp_path: Path, readme: str, expected: list[str]
) -> None:
    assert _cloned(tmp_path, readme) == expected


@pytest.mark.parametrize(
    "dockerfile",
    [
        # the clone checks out a release after it
        DEFAULT_BRANCH.replace("dmft.src \\", "dmft.src && cd dmft.src && git checkout 3.1 && cd .. \\"),
        # the clone takes a branch or tag
        DEFAULT_BRANCH.replace("git clone https", "git clone --branch 3.1 https"),
        # the release comes from a build arg (a fact of its own, compared as one)
        "ARG DMFT_CORE_VERSION=3.1\n"
        + DEFAULT_BRANCH.replace(
            "dmft.src \\", "dmft.src && cd dmft.src && git checkout ${DMFT_CORE_VERSION} \\"
        ),
        # a pin of the package besides the clone
        DEFAULT_BRANCH + "RUN pip install dmft-core==3.1\n",
        # the clone is only read (a file copied out is used, nothing built): no component
        "FROM ubuntu:22.04\nRUN git clone https://github.com/example/dmft-core /tmp/d && rm -rf /tmp/d\n",
        # the URL names the release through a version build arg
        "FROM ubuntu:22.04\nARG DMFT_TAG=3.1\n"
        "RUN git clone https://example.org/mirror/dmft-core-${DMFT_TAG}.git dmft-core \\\n"
        "    && cd dmft-core && make install\n",
    ],
)
def test_no_finding_when_the_clone_is_pinned_or_no_clone_of_the_default_branch(
    tmp_path: Path, dockerfile: str
) -> None:
    readme = "- `dmft-core` 3.1 built with MPICH\n"
    assert [f for f in _cloned(tmp_path, readme, dockerfile) if "default branch" in f] == []


@pytest.mark.parametrize(
    "readme",
    [
        "The scripts are tested with dmft-core 3.1.\n",  # what the project's code works with
        "## Changes\n\n- 2019-05: upgraded from dmft-core 2.2\n",  # the past
        "```bash\ndocker build -t dmft-core:3.1 .\n```\n",  # the tag a reader gives the build
        "You can pick dmft-core 3.1 by editing the Dockerfile.\n",  # a choice
        "| Step | Time |\n|---|---|\n| dmft-core | 5-10 min |\n",  # minutes in a table of build steps
        # a package pip installs from the default branch: the version its metadata gave (`pip list`)
        "| Package | Version |\n|---|---|\n| wannier-tools | 0.9.2 (compiled from source) |\n",
    ],
)
def test_no_finding_for_a_version_not_said_of_the_clone(tmp_path: Path, readme: str) -> None:
    assert _cloned(tmp_path, readme) == []


def test_no_finding_for_a_clone_of_the_checkouts_own_repository(tmp_path: Path) -> None:
    """The project's Dockerfile clones its own repository at the default branch, and its README gives the
    project's release: the number the branch is being made into, not a drift. Another remote stays
    compared."""
    readme = "- `dmft-core` 3.1 built with MPICH\n"
    make_tree(tmp_path, {".git/config": '[remote "origin"]\n\turl = git@github.com:example/dmft-core.git\n'})
    assert _cloned(tmp_path, readme) == []
    make_tree(tmp_path, {".git/config": '[remote "origin"]\n\turl = https://github.com/other/dmft-tools\n'})
    assert _cloned(tmp_path, readme) == [
        _default_branch(1, "dmft-core 3.1", 2, "https://github.com/example/dmft-core")
    ]


# --- installs with no version, floating tags -------------------------------------------------------


def _tree_findings(tmp_path: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    """`audit` of `readme` against the Dockerfiles of `files`, written under `tmp_path` with the rest."""
    make_tree(tmp_path, {"README.md": readme, **files})
    models = [build_model(tmp_path / path, path) for path in files if path.endswith("Dockerfile")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [(d.line, d.message, d.confidence) for d in found]


CONDA_TORCH = """\
FROM nvidia/cuda:8.0-cudnn6-devel-ubuntu16.04
RUN wget -q https://repo.continuum.io/miniconda/Miniconda3-latest-Linux-x86_64.sh \\
    && sh Miniconda3-latest-Linux-x86_64.sh -b -p /opt/conda
ENV PATH=/opt/conda/bin:$PATH
RUN conda install python=3.6
RUN conda install pytorch torchvision cuda80 -c pytorch && \\
    pip install click
"""

TF_CPU = """\
FROM ubuntu:18.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install tensorflow==2.0.0
"""

FAMILY_TABLE = """\
# Lab images

| OS | Python | Frameworks | Folder |
|----|--------|------------|--------|
| Ubuntu 18.04 | 3.6 | Tensorflow 2.0.0 | [Link](https://github.com/lab/images/tree/master/cpu-tf200) |
| Ubuntu 16.04 | 3.6 | Torch {torch} | [Link](https://github.com/lab/images/tree/master/cuda8-torch) |
"""


def test_a_version_of_a_package_conda_installs_with_none(tmp_path: Path) -> None:
    """A table of images, each row linking its image's folder on the forge: the torch row is compared
    with the Dockerfile in that folder, whose `conda install pytorch` takes the newest release."""
    files = {"cpu-tf200/Dockerfile": TF_CPU, "cuda8-torch/Dockerfile": CONDA_TORCH}
    found = _tree_findings(tmp_path, FAMILY_TABLE.format(torch="0.4.1"), files)
    assert found == [
        (
            6,
            "README says Torch 0.4.1 but cuda8-torch/Dockerfile:6 says `conda install pytorch` with no "
            "version, which takes the newest release the day the image is built",
            "likely",
        )
    ]


SERVE = """\
ARG BASE_IMAGE=ubuntu:18.04
FROM ${BASE_IMAGE} AS build
RUN apt-get update && apt-get install -y python3-venv && python3 -m venv /venv
ENV PATH=/venv/bin:$PATH
RUN pip install --no-cache-dir lensserve lens-archiver
FROM ${BASE_IMAGE}
COPY --from=build /venv /venv
"""

ENVIRONMENT = """\
# Lens serving

## Environment
* ubuntu 18.04 LTS
* lensserve version : {serve} / lens-archiver version : {archiver}
"""


def test_versions_of_packages_pip_installs_with_none(tmp_path: Path) -> None:
    """`pip install lensserve lens-archiver` in a builder whose virtual environment the image copies:
    each version said is a finding, where the image's own line installs it."""
    found = _tree_findings(
        tmp_path, ENVIRONMENT.format(serve="0.3.1", archiver="0.3.1"), {"Dockerfile": SERVE}
    )
    assert [(line, message.split(" but ")[0], conf) for line, message, conf in found] == [
        (5, "README says lensserve 0.3.1", "likely"),
        (5, "README says lens-archiver 0.3.1", "likely"),
    ]
    assert all("Dockerfile:5 says `pip install" in message for _, message, _ in found)


def test_a_release_said_of_a_floating_base(tmp_path: Path) -> None:
    """`FROM rocm/pytorch:latest`: the ROCm release said is the tag's of some day, none the build pins."""
    readme = "# Quantum lab\n\n### AMD image\n- **Base**: ROCm 5.6 Ubuntu 22.04\n"
    dockerfile = "FROM rocm/pytorch:latest AS rocm-base\nRUN pip3 install qiskit==1.0.2\n"
    found = _tree_findings(tmp_path, readme, {"Dockerfile": dockerfile})
    assert [(line, conf) for line, _, conf in found] == [(4, "likely")]
    assert found[0][1] == (
        "README says ROCm 5.6 but Dockerfile:1 says FROM rocm/pytorch:latest, a floating tag: a build takes "
        "the ROCm release it points to that day"
    )


def test_a_download_of_the_latest_installer(tmp_path: Path) -> None:
    """`Miniconda3-latest-Linux-x86_64.sh`: a Miniconda release said is no release the build fetches."""
    readme = "# Torch box\n\nThe image comes with Miniconda 4.5.4.\n"
    found = _tree_findings(tmp_path, readme, {"Dockerfile": CONDA_TORCH})
    assert [(line, message.split(" says ")[-1]) for line, message, _ in found] == [
        (
            3,
            "https://repo.continuum.io/miniconda/Miniconda3-latest-Linux-x86_64.sh, which fetches the "
            "newest release the day the image is built",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the base image's tag gives the release: `pip install torch` keeps it
        (
            "# Box\n\nThe image has PyTorch 1.9.0.\n",
            {
                "Dockerfile": "FROM pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime\n"
                "RUN pip install torch lensserve\n"
            },
        ),
        # constraints, a lock file: something holds the release
        (
            "# Box\n\nThe image has lensserve 0.3.1.\n",
            {
                "Dockerfile": "FROM python:3.11-slim\nCOPY c.txt /c.txt\n"
                "RUN pip install -c /c.txt lensserve\n",
                "c.txt": "lensserve==0.3.1\n",
            },
        ),
        (
            "# Box\n\nThe image has lensserve 0.3.1.\n",
            {
                "Dockerfile": "FROM python:3.11-slim\nCOPY poetry.lock pyproject.toml ./\n"
                "RUN pip install lensserve\n"
            },
        ),
        # a list the build reads that docgen does not find, an install script
        (
            "# Box\n\nThe image has lensserve 0.3.1.\n",
            {"Dockerfile": "FROM python:3.11-slim\nRUN pip install -r requirements.txt lensserve\n"},
        ),
        (
            "# Box\n\nThe image has lensserve 0.3.1.\n",
            {
                "Dockerfile": "FROM python:3.11-slim\nRUN curl -fsSL https://x.example/i.sh | bash\n"
                "RUN pip install lensserve\n"
            },
        ),
        # another package of the same command pinned: the resolver picks the release that fits it
        (
            "# Box\n\nThe image has PyTorch 1.8.0.\n",
            {"Dockerfile": "FROM ubuntu:20.04\nRUN pip install torch torchvision==0.9.0\n"},
        ),
        (
            "# Box\n\nThe image has torchvision 0.7.0.\n",
            {
                "Dockerfile": "FROM nvidia/cuda:10.1-devel-ubuntu18.04\n"
                "RUN conda install -y \\\n    pytorch=1.6 \\\n    torchvision\n"
            },
        ),
        # another index than PyPI: a retired platform release's serves its last builds for good
        (
            "# Box\n\nThe image has PyTorch 2.3.1.\n",
            {
                "Dockerfile": "FROM ubuntu:22.04\n"
                "RUN pip install torch --index-url https://download.pytorch.org/whl/rocm6.0\n"
            },
        ),
        # a minimum, a range: the newest release may well be one
        (
            "# Box\n\nThe image has lensserve 0.3.1 or newer.\n",
            {"Dockerfile": "FROM python:3.11-slim\nRUN pip install lensserve\n"},
        ),
        (
            "# Box\n\nThe image needs ROCm 5.6+.\n",
            {"Dockerfile": "FROM rocm/pytorch:latest\n"},
        ),
        # a pin written as pip writes it, a command block: `floating_pins` reads those
        (
            "# Box\n\n```\npip install lensserve==0.3.1\n```\n",
            {"Dockerfile": "FROM python:3.11-slim\nRUN pip install lensserve\n"},
        ),
        # Anaconda brings numpy at its release's version: `conda install numpy` keeps it
        (
            "# Box\n\nThe image has numpy 1.16.4.\n",
            {
                "Dockerfile": "FROM ubuntu:18.04\nRUN wget https://repo.anaconda.com/archive/Anaconda3-2019.07-"
                "Linux-x86_64.sh && bash Anaconda3-2019.07-Linux-x86_64.sh -b\nRUN conda install numpy\n"
            },
        ),
        # the paragraph names the floating base: it knows the tag moves
        (
            "# Box\n\nBuilt on rocm/pytorch:latest (ROCm 5.6 when this was written).\n",
            {"Dockerfile": "FROM rocm/pytorch:latest\n"},
        ),
        # a tag naming the release
        (
            "# Box\n\nBuilt with ROCm 5.6.\n",
            {"Dockerfile": "FROM rocm/pytorch:rocm5.6_ubuntu20.04_py3.8_pytorch_2.0.1\n"},
        ),
        # another line pins it
        (
            "# Box\n\nThe image has lensserve 0.3.1.\n",
            {
                "Dockerfile": "FROM python:3.11-slim\nRUN pip install lensserve\n"
                "RUN pip install lensserve==0.3.1\n"
            },
        ),
        # an image of the project's own: its Dockerfile may install it at a version
        (
            "# Box\n\nThe image has lensserve 0.3.1.\n",
            {"Dockerfile": "FROM lab/lens-base:2.0\nRUN pip install lensserve\n"},
        ),
    ],
)
def test_what_holds_a_release_or_is_no_claim_of_one(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _tree_findings(tmp_path, readme, files) == []


def test_a_history_section_and_the_host_are_no_claims(tmp_path: Path) -> None:
    """A changelog's old versions and a host requirement are set aside as for any version."""
    readme = (
        "# Box\n\n## Requirements\n\nOn the host: lensserve 0.2.0 for the client.\n\n"
        "## Changelog\n\n- 2021-03: moved to lensserve 0.3.1\n"
    )
    assert (
        _tree_findings(tmp_path, readme, {"Dockerfile": "FROM python:3.11-slim\nRUN pip install lensserve\n"})
        == []
    )


def test_a_version_another_image_of_the_part_may_hold(tmp_path: Path) -> None:
    """Of a README about two images, `lensserve 0.3.1` may be the one whose requirements file docgen does
    not find: no finding; with that image installing nothing unread, the floating install is one."""
    readme = "# Lens images\n\nBoth images ship lensserve 0.3.1.\n"
    floating = "FROM python:3.11-slim\nRUN pip install lensserve\n"
    listed = "FROM python:3.11-slim\nRUN pip install -r requirements.txt\n"
    assert (
        _tree_findings(tmp_path / "a", readme, {"cpu/Dockerfile": floating, "gpu/Dockerfile": listed}) == []
    )
    plain = "FROM python:3.11-slim\nRUN pip install lensclient\n"
    found = _tree_findings(tmp_path / "b", readme, {"cpu/Dockerfile": floating, "gpu/Dockerfile": plain})
    assert [message.split(" but ")[0] for _, message, _ in found] == ["README says lensserve 0.3.1"]
