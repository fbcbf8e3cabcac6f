"""`docgen.audit.prose` and the comparison of versions it asks (`auditor`, `versions`): a version in
prose that agrees although it is not written as the image's.

- a sentence naming one component twice with two versions, one of them the image's (`the same Ubuntu
  24.04 ABI, but glslc from the Ubuntu 26.04 pocket`): the other is something else's;
- a key-value item (`- **CUDA Version:** … CUDA 12.6.3 … CUDA 13.0 …`) naming the image's version and
  another: the other is a comparison, as in one sentence;
- a range written as one word (`Python 3.8-3.11`) holding the image's version;
- a minimum (`cuDNN 7.6+`) against a tag that gives only the major version (`cudnn7`).
- a version the reader is told to pick (`Use GROMACS 2024.2`, `You can use …`), unless called the default.
- a version telling what another component was built with (`torch 2.7.0 built on ROCm 6.5.0rc`).
- a version the project's code or requirements were tested for (`The requirements are tested for python 3.7`).
- a minimum a package in code demands (`` `pyannote.audio` (4.0+) strictly demands PyTorch 2.8+ ``).
- a line naming an image by its tag when the Dockerfile is built as several named images (bake targets):
  that image's versions; a tag of the same shape naming none of them is an image not audited.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import audit_tree, findings

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

UBUNTU = "FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y glslc\n"
PYTHON = "FROM python:3.11-slim\nRUN pip install flask==3.0.3\n"
PADDLE = "FROM example/paddle:2.0.0-gpu-cuda10.0-cudnn7\nRUN pip install flask==3.0.3\n"


def test_a_second_version_of_a_component_in_a_sentence_that_gives_the_images() -> None:
    readme = """\
The image rebuilds on the same Ubuntu 24.04 ABI, but with glslc taken from the Ubuntu 26.04 pocket.

The image rebuilds on Ubuntu 22.04, but with glslc taken from the Ubuntu 26.04 pocket.

The image runs Ubuntu 24.04. Ubuntu 26.04 provides its glslc.
"""
    assert findings(readme, {"Dockerfile": UBUNTU}) == [
        "3: README says Ubuntu 22.04 but Dockerfile:1 says 24.04",
        "3: README says Ubuntu 26.04 but Dockerfile:1 says 24.04; also at line 5",
    ]


def test_a_range_of_versions_written_as_one_word() -> None:
    readme = """\
The service supports Python 3.8-3.11.

The service supports Python 3.8-3.10.

The service supports Python 3.11-3.12.
"""
    assert findings(readme, {"Dockerfile": PYTHON}) == [
        "3: README says Python 3.8-3.10 but Dockerfile:1 says 3.11"
    ]


def test_a_range_against_a_pin_that_gives_only_the_major_version() -> None:
    major = "FROM example/app:1.0\nARG PYTHON_VERSION=3\nRUN apt-get install -y python${PYTHON_VERSION}\n"
    readme = "The service supports Python 3.10-3.13.\n\nThe service supports Python 2.6-2.7.\n"
    assert findings(readme, {"Dockerfile": major}) == [
        "3: README says Python 2.6-2.7 but Dockerfile:2 says 3"
    ]


def test_a_minimum_against_a_tag_that_gives_only_the_major_version() -> None:
    readme = "The image ships cuDNN 7.6+.\n\nThe image ships cuDNN 8.0+.\n"
    assert findings(readme, {"Dockerfile": PADDLE}) == ["3: README says cuDNN 8.0+ but Dockerfile:1 says 7"]


JETSON = """\
ARG L4T_VERSION=l4t-r36.3.0
ARG L4T_MAJOR=36
ARG ROCM_VERSION=6.2.4
FROM example/ros:humble-${L4T_VERSION}
RUN echo ${L4T_MAJOR} ${ROCM_VERSION}
"""


def test_a_product_glued_to_its_version_said_to_be_the_default() -> None:
    """`L4T35.4 by default` against `ARG L4T_VERSION=l4t-r36.3.0`: both read as a version of the arg the
    product names, compared to the README's precision; the true ones (`L4T36.3`, `rocm6.2`) are kept."""
    readme = """\
* `Dockerfile`: Jetson image, running on the given L4T version (L4T35.4 by default).

* `Dockerfile`: Jetson image, running on the given L4T version (L4T36.3 by default).

The ROCm release defaults to rocm6.1 unless you pass another.

The ROCm release defaults to rocm6.2 unless you pass another.

Docker24.0 by default on the build host.
"""
    assert findings(readme, {"Dockerfile": JETSON}) == [
        "1: README says L4T35.4 is the default but Dockerfile:1 says L4T_VERSION=l4t-r36.3.0",
        "5: README says ROCm 6.1 but Dockerfile:3 says 6.2.4",  # (a glued claim, said once)
    ]


METAPACKAGE = (
    "FROM ubuntu:16.04\n"
    "RUN apt-get update && apt-get install -y gfortran=4:5.3.1-1ubuntu1 g++=4:5.3.1-1ubuntu1\n"
)


@pytest.mark.parametrize("said", ["gfortran 5.4.1", "g++ 5.4", "gfortran 5"])
def test_a_compiler_metapackage_pin_says_only_the_major_version(said: str) -> None:
    # `gfortran=4:5.3.1-…` is the package's version: xenial's gfortran-5 is 5.4.0
    model = model_of(parse_dockerfile(METAPACKAGE, "Dockerfile"))
    assert audit(f"Built with {said}.\n", "README.md", model) == []


def test_a_compiler_metapackage_pin_still_tells_the_major_version() -> None:
    model = model_of(parse_dockerfile(METAPACKAGE, "Dockerfile"))
    found = [(d.line, d.message) for d in audit("Built with gfortran 7.3.0.\n", "README.md", model)]
    assert found == [
        (
            1,
            "README says gfortran 7.3.0 but Dockerfile:2 says gfortran=4:5.3.1-1ubuntu1, a metapackage of "
            "the 5.x compiler",
        ),
    ]


XPU = """\
FROM python:3.10-slim
RUN pip install torch==2.1.0.post0 scikit-learn==1.3.0 tensorrt==10.0.1 triton==2.1.0 \\
        intel-extension-for-pytorch==2.1.20+xpu
"""


@pytest.mark.parametrize(
    "said",
    [
        "* Intel Extensions for PyTorch 2.1.20+xpu",
        "The image ships the Intel Extension for PyTorch 2.1.20+xpu.",
        "- Intel Extension for Scikit-learn 2024.1",  # a product docgen does not see pinned: silent
        "- Intel Distribution for Python 3.9",
        "- TensorRT-LLM 0.10.0",
        "- torch-tensorrt 2.3.0",
        "- PyTorch Lightning 2.4",
        "- jax-triton 0.2.0",
    ],
)
def test_a_version_after_a_compound_product_name_is_the_product_s(said: str) -> None:
    assert findings(f"# XPU\n\n### Included Software\n\n{said}\n", {"Dockerfile": XPU}) == []


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "* Intel Extension for PyTorch 2.1.10+xpu",
            "5: README says Intel Extension for PyTorch 2.1.10+xpu but Dockerfile:3 says 2.1.20",
        ),
        ("* PyTorch 2.3.0", "5: README says PyTorch 2.3.0 but Dockerfile:2 says 2.1.0.post0"),
        ("* Support for PyTorch 2.3.0", "5: README says PyTorch 2.3.0 but Dockerfile:2 says 2.1.0.post0"),
        ("* Triton 3.0.0", "5: README says Triton 3.0.0 but Dockerfile:2 says 2.1.0"),
    ],
)
def test_the_compound_product_s_own_version_and_the_inner_name_alone(said: str, expected: str) -> None:
    assert findings(f"# XPU\n\n### Included Software\n\n{said}\n", {"Dockerfile": XPU}) == [expected]


CROSS = """\
ARG BASE_IMAGE=ubuntu:22.04
ARG UNPACKER_IMAGE=python:3.10-slim
FROM ${UNPACKER_IMAGE} AS unpack
RUN python3 -c 'print(1)'
FROM ${BASE_IMAGE}
COPY --from=unpack /tmp /tmp
"""


@pytest.mark.parametrize(
    "said",
    [
        "| Variable | Default | Purpose |\n|---|---|---|\n"
        "| `TOOLKIT_IMAGE` | `registry.example.org/vendor/toolkit:8.5.0-ubuntu22.04-py3.11` | extras |\n"
        "| `EMULATED_BASE` | `arm64v8/ubuntu:20.04` | emulated provisioning |",
        "The script's TOOLKIT_IMAGE defaults to reg.example/tk:8.5.0-ubuntu22.04-py3.11.",
        "Run `TOOLKIT_IMAGE=reg.example/tk:8.5.0-ubuntu22.04-py3.11 ./provision.sh`.",
    ],
)
def test_another_image_given_as_a_variable_s_value_is_not_this_image(said: str) -> None:
    assert findings(f"# Cross\n\n## Provisioning\n\n{said}\n", {"Dockerfile": CROSS}) == []


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # the image's own base given as a variable: still this image's
        (
            "| Variable | Default | Purpose |\n|---|---|---|\n| `UNPACKER_IMAGE` | `python:3.11-slim` | x |",
            "7: README says python:3.11-slim but Dockerfile:2 says python:3.10-slim",
        ),
        # the same tag in a sentence about the image, no variable's value
        (
            "The image runs on registry.example.org/vendor/toolkit:8.5.0-ubuntu22.04-py3.11.",
            "5: README says py 3.11 but Dockerfile:2 says 3.10-slim",
        ),
    ],
)
def test_the_image_s_own_base_as_a_variable_and_a_tag_said_of_the_image(said: str, expected: str) -> None:
    assert findings(f"# Cross\n\n## Provisioning\n\n{said}\n", {"Dockerfile": CROSS}) == [expected]


GROMACS = "FROM ubuntu:22.04\nARG GROMACS_VERSION=2024.1\nRUN curl -LO https://ftp.gromacs.org/gromacs-${GROMACS_VERSION}.tar.gz\n"


@pytest.mark.parametrize(
    "choice",
    [
        "**For latest features:**\n\n- Use GROMACS 2024.2\n- Latest optimizations",
        "You can use GROMACS 2024.2 by passing `--build-arg GROMACS_VERSION=2024.2`.",
        "To use GROMACS 2024.2, pass its version to the build script.",
        "For older topologies, choose GROMACS 2023.3 or switch to GROMACS 2022.5.",
        # the other versions than the default one
        "Builds with other GROMACS releases than the default (GROMACS 2023.3) are not tested.",
    ],
)
def test_a_version_the_reader_is_told_to_pick_is_no_claim(choice: str) -> None:
    assert findings(f"# Tool\n\n{choice}\n", {"Dockerfile": GROMACS}) == []


def test_versions_other_than_the_default_are_no_claim() -> None:
    dockerfile = {"Dockerfile": "FROM python:3.10-slim\nRUN pip install gromacs-tools\n"}
    readme = (
        "# Tool\n\n* `PY_CUSTOM` - build with a different python version than default - available "
        "debian12 with python3.11 and rhel9 with python3.12\n"
        "* Built with a different compiler than the default. It runs python3.11.\n"
    )
    assert [f.split(" but ")[0] for f in findings(readme, dockerfile)] == ["4: README says Python 3.11"]


def test_a_version_said_to_be_used_or_the_default_is_a_claim() -> None:
    readme = (
        "# Tool\n\n- Uses GROMACS 2024.2\n- Use GROMACS 2024.2 (default)\n- The image uses GROMACS 2024.1\n"
    )
    assert [f.split(" but ")[0] + f[f.index(";") :] for f in findings(readme, {"Dockerfile": GROMACS})] == [
        "3: README says GROMACS 2024.2; also at line 4",
    ]


ROCM_TORCH = (
    "FROM rocm/dev-ubuntu-24.04:6.4.3-complete\n"
    "RUN pip install https://example.org/v6.5.0rc/torch-2.7.0a0+gitbfd8155-cp311-cp311-linux_x86_64.whl\n"
)


def test_a_version_telling_what_another_component_was_built_with() -> None:
    readme = """\
- Ubuntu 24.04 with ROCm 6.4.3
- torch 2.7.0 built on ROCm 6.5.0rc and Python 3.11

The image is built on ROCm 6.5.0.
"""
    # the ROCm torch was built on is the wheel's; `built on ROCm 6.5.0` alone is the image's
    assert findings(readme, {"Dockerfile": ROCM_TORCH}) == [
        "4: README says ROCm 6.5.0 but Dockerfile:1 says 6.4.3"
    ]


def test_a_minimum_another_package_demands() -> None:
    readme = """\
## The problem

- **Python & packaging**: The latest `flask-extras` (4.0+) strictly demands Python 3.12+, which breaks
  the resolver.

The image ships Python 3.12+.
"""
    # a minimum a package in code demands is that package's; the image's own minimum is still compared
    assert findings(readme, {"Dockerfile": PYTHON}) == [
        "6: README says Python 3.12+ but Dockerfile:1 says 3.11"
    ]


def test_a_version_the_projects_code_was_tested_for() -> None:
    readme = """\
## Installation

The requirements are tested for python 3.9. The code was only tested on Python 3.10 too.

## Docker

The image ships Python 3.9.
"""
    # what the code or its requirements were tested for is what they work with, not the image's Python;
    # the same version said of the image is a claim
    assert findings(readme, {"Dockerfile": PYTHON}) == [
        "7: README says Python 3.9 but Dockerfile:1 says 3.11"
    ]


DEB_CUDNN = (
    "FROM nvidia/cuda:11.0.3-base-ubuntu20.04\n"
    "COPY cudnn/libcudnn8_8.1.1.33-1+cuda11.2_amd64.deb /tmp\n"
    "RUN dpkg -i /tmp/libcudnn8_8.1.1.33-1+cuda11.2_amd64.deb\n"
)


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        # the package file dpkg installs is cuDNN at the version its name says
        ("- cuDNN: 8.9", ["4: README says cuDNN 8.9 but Dockerfile:3 says 8.1.1.33"]),
        ("- cuDNN: 8.1", []),
        ("- cuDNN 8.1.1.33", []),
    ],
)
def test_a_library_a_package_file_installs_is_compared_by_its_name(item: str, expected: list[str]) -> None:
    readme = f"# GPU image\n\nThe image installs the following:\n{item}\n"
    assert findings(readme, {"Dockerfile": DEB_CUDNN}) == expected


CUDA_DEVEL = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN apt-get update\n"


@pytest.mark.parametrize(
    "said",
    [
        "You can also use `nvidia/cuda:12.1.0-devel-ubuntu22.04` as base by passing `BASE`.",
        "Alternatively, start from nvidia/cuda:12.1.0-devel-ubuntu22.04 instead.",
        "Older images were built on nvidia/cuda:12.1.0-devel-ubuntu22.04.",
        "Requires an Ubuntu 20.04 host with driver 550.",
        "To set up Docker for an NVIDIA GPU on an Ubuntu 24.04 system, see the vendor's guide.",
        "See [Setting up NVIDIA docker & podman (Ubuntu 24.04)](https://example.org/setup) first.",
        "- **NVIDIA GPU driver:** version **≥ 535** (supports CUDA 12.1)",
        # installing Docker happens on the host, and a release the reader may swap is the host's
        "### Docker installation steps on Ubuntu 20.04, as of May 2022",
        "Install Docker on Ubuntu 24.04 first, then continue below.",
        "- Ubuntu 20.04 but any unix system with support for Docker will do",
        "- Ubuntu 20.04, or any other Linux distribution",
    ],
)
def test_a_base_offered_as_a_choice_or_the_host_s_system_is_no_claim(said: str) -> None:
    assert findings(f"# Tools\n\n{said}\n", {"Dockerfile": CUDA_DEVEL}) == []


def test_a_base_of_the_same_shape_said_as_the_image_s_is_still_a_claim() -> None:
    readme = (
        "# Tools\n\nThe image is built from nvidia/cuda:12.1.0-devel-ubuntu22.04. It ships Ubuntu 20.04.\n"
    )
    assert findings(readme, {"Dockerfile": CUDA_DEVEL}) == [
        "3: README says nvidia/cuda:12.1.0-devel-ubuntu22.04 but Dockerfile:1 says "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04",
        "3: README says Ubuntu 20.04 but Dockerfile:1 says 22.04",
    ]


@pytest.mark.parametrize(
    "said",
    [
        "After installing Docker, the image runs Ubuntu 20.04.",
        "Docker installation builds the container on Ubuntu 20.04.",
        "The image ships Ubuntu 20.04 or any later release.",
    ],
)
def test_an_image_named_after_the_docker_install_is_still_a_claim(said: str) -> None:
    assert findings(f"# Tools\n\n{said}\n", {"Dockerfile": CUDA_DEVEL}) == [
        "3: README says Ubuntu 20.04 but Dockerfile:1 says 22.04"
    ]


def test_the_system_packages_of_a_release_are_still_the_image_s() -> None:
    readme = "# Tools\n\nThe image ships the Ubuntu 20.04 system packages.\n"
    assert findings(readme, {"Dockerfile": CUDA_DEVEL}) == [
        "3: README says Ubuntu 20.04 but Dockerfile:1 says 22.04"
    ]


def test_words_inside_a_base_reference_offer_no_choice() -> None:
    dockerfile = "FROM registry.example.com/acme/sdk:8.2.1-x1-ubuntu22.04\nRUN echo x\n"
    readme = "# SDK\n\nThe image is built from `registry.example.com/acme/sdk:8.3.0-x1-ubuntu22.04`.\n"
    assert findings(readme, {"Dockerfile": dockerfile}) == [
        "3: README says registry.example.com/acme/sdk:8.3.0-x1-ubuntu22.04 but Dockerfile:1 says "
        "registry.example.com/acme/sdk:8.2.1-x1-ubuntu22.04"
    ]


def test_an_image_of_another_repository_named_like_the_base_is_no_claim_of_its_version() -> None:
    dockerfile = "ARG BASE_IMAGE=nvcr.io/nvidia/tritonserver:23.03-py3\nFROM ${BASE_IMAGE} AS base\n"
    dockerfile += "RUN pip install tritonclient==2.31.0\n"
    # a custom build of the server pushed under its own name: its tag is that image's, not the base's
    readme = (
        "### Triton 23.02\n\n- `docker image tag tritonserver:latest someone/tritonserver:23.02-py3-dali`\n"
        "- `docker push someone/tritonserver:23.02-py3-dali`\n"
    )
    assert findings(readme, {"Dockerfile": dockerfile}) == []
    # the base itself with another tag, and a version in words, are still claims (traps)
    assert findings("Built on `nvcr.io/nvidia/tritonserver:23.02-py3`.\n", {"Dockerfile": dockerfile}) != []
    assert findings("It has tritonclient 2.30.0.\n", {"Dockerfile": dockerfile}) == [
        "1: README says tritonclient 2.30.0 but Dockerfile:3 says 2.31.0"
    ]


# --- a sentence saying a version is in use -------------------------------------------------------------

CUDA_TORCH = "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\nRUN pip install torch==2.1.2\n"


def _sure(readme: str) -> list[tuple[int, str, str]]:
    model = model_of(parse_dockerfile(CUDA_TORCH, "Dockerfile"))
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", [model], {})]


@pytest.mark.parametrize(
    "sentence",
    [
        "Currently Cuda 11.2 is used, which requires NVIDIA drivers 450.80.02 and later.",
        "CUDA 11.2 is installed.",
        "- CUDA 11.2 is included in the image",
        "Prebuilt GROMACS for GPUs. Currently, CUDA 11.2 is used.",
    ],
)
def test_a_version_said_to_be_in_use_is_certain(sentence: str) -> None:
    readme = f"# GROMACS image\n\n{sentence}\n"
    (finding,) = _sure(readme)
    assert finding[1].startswith("README says C") and finding[1].endswith("but Dockerfile:1 says 11.8.0")
    assert finding[2] == "certain"


@pytest.mark.parametrize(
    "readme",
    [
        "# GROMACS image\n\nIf CUDA 11.2 is used, set the flag.\n",  # a condition
        "# GROMACS image\n\nCUDA 11.2 is used by default.\n",  # a default the reader may change
        "# GROMACS image\n\nCUDA 11.2 is used for the tests.\n",  # more words after the verb
        "# GROMACS image\n\nThe image builds GROMACS with CUDA 11.2.\n",  # no `is used`
        "# GROMACS image\n\n## Tested environment\n\nCUDA 11.2 is used.\n",  # a heading about tests
        "# GROMACS image\n\n## Supported versions\n\nCUDA 11.2 is installed.\n",  # a choice
    ],
)
def test_other_sentences_naming_a_version_are_not_certain(readme: str) -> None:
    assert all(confidence != "certain" for _, _, confidence in _sure(readme))


def test_a_version_said_to_be_in_use_that_agrees_is_silent() -> None:
    assert _sure("# GROMACS image\n\nCurrently CUDA 11.8 is used, and PyTorch 2.1.2 is installed.\n") == []


ROCM_DEV = "FROM docker.io/rocm/dev-ubuntu-24.04:6.4.3-complete\nRUN apt-get update\n"


def test_a_driver_on_a_base_image_line_is_the_base_s_stack() -> None:
    readme = (
        "# ROCm image\n\n"
        "Base image: Ubuntu 24.04 with ROCm 6.5.3 driver (base image from ROCm dev-ubuntu-24.04)\n"
    )
    assert findings(readme, {"rocm/Dockerfile": ROCM_DEV}) == [
        "3: README says ROCm 6.5.3 of the base image but rocm/Dockerfile:1 says "
        "rocm/dev-ubuntu-24.04:6.4.3-complete (ROCm 6.4.3)"
    ]


def test_a_base_image_line_of_one_of_three_images_is_compared_with_its_own() -> None:
    readme = (
        "# GPU images\n\n## CUDA image\n\nBase image: Ubuntu 22.04 with CUDA 12.4.\n\n"
        "Build it with `docker build -f cuda/Dockerfile .`.\n\n## ROCm image\n\n"
        "Base image: Ubuntu 24.04 with ROCm 6.5.3 driver (base image from ROCm dev-ubuntu-24.04)\n\n"
        "Build it with `docker build -f rocm/Dockerfile .`.\n"
    )
    dockerfiles = {
        "cuda/Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n",
        "rocm/Dockerfile": ROCM_DEV,
    }
    assert findings(readme, dockerfiles) == [
        "11: README says ROCm 6.5.3 of the base image but rocm/Dockerfile:1 says "
        "rocm/dev-ubuntu-24.04:6.4.3-complete (ROCm 6.4.3)"
    ]


def test_a_driver_the_base_image_brings_in_a_list_of_what_the_image_includes() -> None:
    readme = (
        "# ROCm images\n\n## The base image\n\nIncludes:\n\n"
        "- Ubuntu 24.04 with ROCm 6.5.3 driver (base image from [ROCm dev-ubuntu-24.04](https://hub.docker.com/r/rocm/dev-ubuntu-24.04))\n"
        "- Python 3.11\n"
    )
    assert findings(readme, {"base/Dockerfile": ROCM_DEV}) == [
        "7: README says ROCm 6.5.3 of the base image but base/Dockerfile:1 says "
        "rocm/dev-ubuntu-24.04:6.4.3-complete (ROCm 6.4.3)"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "Base image: Ubuntu 24.04 with ROCm 6.4.3 driver (base image from ROCm dev-ubuntu-24.04)",
        "- Ubuntu 24.04, ROCm 6.5.3 driver (on the host; base image from rocm/dev-ubuntu-24.04)",
        "Install the latest ROCm 6.5.3 driver in the host machine.",
        "Base image: Ubuntu 24.04; it needs ROCm 6.5.3 on the host.",
        "The image needs the ROCm 6.5.3 driver.",
        "Install the ROCm 6.5.3 drivers first.",
    ],
)
def test_a_driver_elsewhere_stays_the_host_s(said: str) -> None:
    assert findings(f"# ROCm image\n\n{said}\n", {"Dockerfile": ROCM_DEV}) == []


CUDA_118 = "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\nRUN apt-get update\n"
TOOLKIT_DRIFT = ["3: README says CUDA Toolkit 12.2 but Dockerfile:1 says 11.8.0"]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # what the reader installs on a desktop system is the host's: the image is a Linux one
        ("On Windows, install CUDA Toolkit 12.2 or later.", []),
        ("Install CUDA Toolkit 12.2 or later on Windows.", []),
        ("Windows users should install CUDA Toolkit 12.2.", []),
        ("Under WSL2, CUDA Toolkit 12.2 is needed.", []),
        # the image named, a Windows image, another sentence, or no system at all: still a claim
        ("On Windows the image ships CUDA Toolkit 12.2.", TOOLKIT_DRIFT),
        ("On Windows containers, CUDA Toolkit 12.2 is used.", TOOLKIT_DRIFT),
        ("It runs on Windows. It has CUDA Toolkit 12.2.", TOOLKIT_DRIFT),
        ("For windows of 4096 tokens, CUDA Toolkit 12.2 is used.", TOOLKIT_DRIFT),
    ],
)
def test_a_version_for_the_readers_desktop_system_is_the_hosts(said: str, expected: list[str]) -> None:
    assert findings(f"# Speech service\n\n{said}\n", {"Dockerfile": CUDA_118}) == expected


L4T_CUDA = "FROM nvcr.io/nvidia/l4t-cuda:11.4.19-runtime\nRUN apt-get update\n"


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "This image is for JetPack 4.6.",
            [
                "3: README says JetPack 4.6 but Dockerfile:1 says 5 "
                "(nvcr.io/nvidia/l4t-cuda:11.4.19-runtime is of JetPack 5)"
            ],
        ),
        ("This image is for JetPack 5.1.2.", []),
        # the device's release, not the image's
        ("Currently Xavier NX uses JetPack 4.6.", []),
        ("Flash the board with JetPack 4.6 on the host first.", []),
    ],
)
def test_a_jetpack_release_is_compared_with_the_one_the_jetson_base_is_of(
    said: str, expected: list[str]
) -> None:
    assert findings(f"# Edge box\n\n{said}\n", {"Dockerfile": L4T_CUDA}) == expected


L4T_3243 = "FROM nvcr.io/nvidia/l4t-base:r32.4.3\nRUN apt-get update\n"


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "- Added support for Jetpack 4.6",
            [
                "3: README says Jetpack 4.6 but Dockerfile:1 says 4.4 "
                "(nvcr.io/nvidia/l4t-base:r32.4.3 is of JetPack 4.4)"
            ],
        ),
        # the base's own JetPack, to the precision written, or a range holding it
        ("This image is for JetPack 4.4.", []),
        ("Built for JetPack 4.", []),
        ("Tested with JetPack 4.4.1.", []),
        ("Requires JetPack 4.2 or later.", []),
        ("Works on JetPack 4.6 and 4.4.", []),
        # the device's release, not the image's
        ("Currently Xavier NX uses JetPack 4.6.", []),
        # a slip of the name is read as it (seven letters: see `_SLIP_LETTERS`)
        (
            "- Added support Jetpakc 4.6",
            [
                "3: README says Jetpakc (jetpack?) 4.6 but Dockerfile:1 says 4.4 "
                "(nvcr.io/nvidia/l4t-base:r32.4.3 is of JetPack 4.4)"
            ],
        ),
    ],
)
def test_the_jetpack_minor_release_an_l4t_base_is_of(said: str, expected: list[str]) -> None:
    assert findings(f"# Edge box\n\n{said}\n", {"Dockerfile": L4T_3243}) == expected


# --- the version of a base-image label that names the base's product ---------------------------------

NGC_BASE = "FROM nvcr.io/nvidia/pytorch:25.09-py3\nRUN pip install --no-cache-dir torchao\n"


def _on_ngc(readme: str) -> list[tuple[int, str, str]]:
    model = model_of(parse_dockerfile(NGC_BASE, "Dockerfile"))
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", [model], {})]


@pytest.mark.parametrize(
    "item",
    [
        "- **Base Image**: NVIDIA PyTorch 25.10 (includes PyTorch, CUDA, and all dependencies)",
        "- Base image: PyTorch 25.10",
        "**Base**: the official NVIDIA PyTorch 25.10 container",
    ],
)
def test_a_base_label_naming_the_base_s_product_is_certain(item: str) -> None:
    readme = f"# ComfyUI for DGX\n\n## Features\n\n{item}\n- Multi-architecture\n"
    assert _on_ngc(readme) == [(5, "README says PyTorch 25.10 but Dockerfile:1 says 25.09-py3", "certain")]


@pytest.mark.parametrize(
    "item",
    [
        # the base's product, but after other words: what the base holds, in prose
        "- **Base Image**: Ubuntu 24.04 with PyTorch 25.10",
        # no base label
        "- **Framework**: NVIDIA PyTorch 25.10",
    ],
)
def test_other_lines_naming_the_base_s_product_stay_likely(item: str) -> None:
    readme = f"# ComfyUI for DGX\n\n## Features\n\n{item}\n"
    assert [confidence for _, _, confidence in _on_ngc(readme)] == ["likely"]


def test_a_base_label_that_agrees_or_is_history_is_silent() -> None:
    readme = (
        "# ComfyUI for DGX\n\n## Features\n\n- **Base Image**: NVIDIA PyTorch 25.09\n\n"
        "## Version History\n\n- **v0.01** (Initial Release)\n  - Base image: NVIDIA PyTorch 25.10\n"
    )
    assert _on_ngc(readme) == []


LAB = (
    "FROM python:3.10-slim\n"
    "RUN pip install tensorflow==2.1.0 jupyterlab==3.6.1 transformers==4.30.0 mmdetection3d==1.1.0\n"
)


def test_a_component_name_misspelt_before_its_version() -> None:
    readme = "A notebook image with Tensoflow 2.0 and Jupyterlba 3.6.1 for GPU work.\n"
    assert findings(readme, {"Dockerfile": LAB}) == [
        "1: README says Tensoflow (tensorflow?) 2.0 but Dockerfile:2 says 2.1.0"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "A notebook image with Tensoflow 2.1.0.",  # the slip, but the version agrees
        "A notebook image with Tensoflow and CUDA.",  # no version after the word
        "Models use Transformer 4.0 blocks.",  # a singular of `transformers`: a word of its own
        "It runs mmdetection 1.0 too.",  # a digit would be what differs: another package
        "Accelerate 2.0 is not installed.",  # no name a slip off it is pinned
        "Keras 2.0 style layers.",  # a short name: too many words are a letter off one
    ],
)
def test_words_that_are_no_slip_of_a_pinned_name(sentence: str) -> None:
    assert findings(sentence + "\n", {"Dockerfile": LAB}) == []


def test_a_seven_letter_name_misspelt_before_its_version() -> None:
    """`Jetpact 4.6` is JetPack 4.6, compared with the JetPack release of the L4T base."""
    jetson = "FROM nvcr.io/nvidia/l4t-base:r32.4.3\nRUN apt-get update\n"
    assert findings("- Added support Jetpact 4.6\n", {"Dockerfile": jetson}) == [
        "1: README says Jetpact (jetpack?) 4.6 but Dockerfile:1 says 4.4 "
        "(nvcr.io/nvidia/l4t-base:r32.4.3 is of JetPack 4.4)"
    ]
    torch = "FROM python:3.10-slim\nRUN pip install torch==2.1.0 openmpi==4.1.5\n"
    assert findings("Built with Pytroch 2.0.\n", {"Dockerfile": torch}) == [
        "1: README says Pytroch (pytorch?) 2.0 but Dockerfile:2 says 2.1.0"
    ]
    # a word of six letters is no slip of a name of seven: OpenMP is a standard, not Open MPI
    assert findings("Parallel loops use OpenMP 4.5.\n", {"Dockerfile": torch}) == []


def test_a_word_a_slip_off_two_pinned_names_says_no_one() -> None:
    dockerfile = "FROM python:3.10-slim\nRUN pip install pytorchvideo==0.1.5 pytorchvidea==0.2.0\n"
    assert findings("It bundles Pytorchvideb 0.3.\n", {"Dockerfile": dockerfile}) == []


def test_a_long_word_before_a_version_is_read_in_linear_time() -> None:
    """A word is tried as a slip off a name only up to a name's length: its variants cost n²."""
    import time

    started = time.perf_counter()
    assert findings("With Tensoflow 2.0.\n\n" + "x" * 200_000 + " 2.0\n", {"Dockerfile": LAB}) == [
        "1: README says Tensoflow (tensorflow?) 2.0 but Dockerfile:2 says 2.1.0"
    ]
    assert time.perf_counter() - started < 20


# --------------------------------------------------------------------------------------------------
# cuDNN by its major alone (sweep19: `**Ubuntu 18.04, CUDA 10.2, CuDNN 8**` over a Dockerfile pinning
# cuDNN 9.5)

NINE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG CUDNN_VERSION=9.1.0.70
RUN pip install nvidia-cudnn-cu12==${CUDNN_VERSION}
"""


def test_cudnn_by_its_major_is_compared_as_far_as_the_major() -> None:
    readme = "# Inference\n\n**Ubuntu 22.04, CUDA 12.4, CuDNN 8**\n"
    assert findings(readme, {"Dockerfile": NINE}) == ["3: README says cuDNN 8 but Dockerfile:2 says 9.1.0.70"]


@pytest.mark.parametrize(
    "said",
    [
        "Ubuntu 22.04, CUDA 12.4, cuDNN 9",  # the major agrees
        "Ubuntu 22.04, CUDA 12.4, cuDNN v9",
        "works with cuDNN 8 or newer",  # a minimum
        "tested with cuDNN 8 and 9",  # releases, not one
        "the host needs cuDNN 8 for the native build",  # the host's
        "copies libcudnn8 from the base",  # a package name
        "`nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04` bundles cuDNN",  # no version
        "4 cuDNN 8-bit kernels",  # a count before, a word after
    ],
)
def test_cudnn_majors_that_are_no_claim_or_agree(said: str) -> None:
    assert findings(f"# Inference\n\n{said}\n", {"Dockerfile": NINE}) == []


TAGGED_DOCKERFILE = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG TORCH_VERSION
RUN pip install torch==${TORCH_VERSION}
"""
TAGGED_BAKE = """\
{
  "target": {
    "cu118-torch24": {
      "dockerfile": "Dockerfile", "args": {"BASE_IMAGE": "example/cuda:11.8.0", "TORCH_VERSION": "2.4.0"}
    },
    "cu124-torch26": {
      "dockerfile": "Dockerfile", "args": {"BASE_IMAGE": "example/cuda:12.4.1", "TORCH_VERSION": "2.6.0"}
    }
  }
}
"""


def audit_cli(root: Path, files: dict[str, str]) -> list[str]:
    """`docgen audit README.md --confidence likely` run in `root` after writing `files`: its lines."""
    return audit_tree(root, files).out.splitlines()


def test_a_line_naming_an_image_by_its_tag_is_about_that_image(tmp_path: Path) -> None:
    # the Dockerfile is built as two bake targets; each line names its image by tag. The third line
    # names a variant of the same shape that is not audited (a target of a bake file not given): its
    # Torch is that image's. The last line names cu118-torch24 with cu124-torch26's Torch (drift:
    # compared with its own image only, although a sibling has 2.6.0).
    readme = """\
## Images

* Torch 2.4.0   example/app:cu118-torch24
* Torch 2.6.0   example/app:cu124-torch26
* Torch 2.5.1   example/app:cu121-torch25

## Older

* Torch 2.6.0   example/app:cu118-torch24
"""
    files = {"Dockerfile": TAGGED_DOCKERFILE, "docker-bake.json": TAGGED_BAKE, "README.md": readme}
    assert audit_cli(tmp_path, files) == [
        "README.md:9: error: README says Torch 2.6.0 but docker-bake.json:4 says 2.4.0 [DG101] (likely)",
        "1 claim in README.md contradicts Dockerfile (cu118-torch24), Dockerfile (cu124-torch26)",
    ]


VOLTA = "FROM nvidia/cuda:12.6.3-devel-ubuntu22.04\nRUN cmake -B build -DCMAKE_CUDA_ARCHITECTURES=70\n"


def test_a_second_version_of_a_component_in_a_key_value_item_that_gives_the_images() -> None:
    readme = """\
# Volta images

## Notes

- **CUDA Version:** These images use CUDA 12.6.3, the last one for sm_70. CUDA 13.0 is the first without it.
- **Toolkit:** These images use CUDA 12.4, the last toolkit for sm_70. CUDA 13.0 is the first without it.

These images use CUDA 12.6.3. CUDA 13.0 is the first toolkit without sm_70.
"""
    # the item that states the image's version compares the other (certain: a labelled item); one that
    # states another version says both wrong; in plain prose each sentence is its own claim (likely)
    assert findings(readme, {"Dockerfile": VOLTA}) == [
        "6: README says CUDA 12.4 but Dockerfile:1 says 12.6.3",
        "6: README says CUDA 13.0 but Dockerfile:1 says 12.6.3; also at line 8",
    ]


# --- a base image named by a tag without the flavour every tag of its repository names ----------------

CUDA_BASE = "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\nRUN apt-get update && apt-get install -y gfortran\n"


def _unflavoured(line: int, said: str, fact: str, flavour: str, at: int = 1) -> str:
    return (
        f"{line}: README says the base image is nvidia/cuda:{said} but Dockerfile:{at} says "
        f"nvidia/cuda:{fact} (nvidia/cuda publishes no tag without a flavour: the image is built on its "
        f"{flavour} one)"
    )


@pytest.mark.parametrize(
    ("readme", "line"),
    [
        # a list of the project's base images, one "same as above, but with … as base image"
        (
            "## base images\n\n- `base-gnu`: Ubuntu 22.04 with gfortran and MPICH\n"
            "- `base-cuda`: Same as above, but with nvidia/cuda:11.8.0-ubuntu22.04 as base image\n",
            4,
        ),
        # a sentence saying what the container is based on
        ("The container is based on nvidia/cuda:11.8.0-ubuntu22.04, so it comes with CUDA 11.8.\n", 1),
        # a bullet under a Docker heading
        ("### Docker\n\n- Based on `nvidia/cuda:11.8.0-ubuntu22.04`\n- Python 3.10\n", 3),
    ],
)
def test_a_base_tag_without_the_flavour_the_from_tag_names(readme: str, line: int) -> None:
    assert _unflavoured(line, "11.8.0-ubuntu22.04", "11.8.0-devel-ubuntu22.04", "devel") in findings(
        readme, {"Dockerfile": CUDA_BASE}
    )


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the registry's short tag of the same image
        ("Based on nvidia/cuda:11.8.0-devel.\n", CUDA_BASE),
        ("Based on nvidia/cuda:11.8-devel-ubuntu22.04.\n", CUDA_BASE),
        # the flavour and the distribution written, another flavour: another variant, not this claim
        ("Built on nvidia/cuda:11.8.0-runtime-ubuntu22.04.\n", CUDA_BASE),
        # no distribution: a short name the README may use for the release
        ("Based on nvidia/cuda:11.8.0.\n", CUDA_BASE),
        # a devel builder and a runtime final stage: which one the README means is open
        (
            "The image is based on nvidia/cuda:11.8.0-ubuntu22.04.\n",
            "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04 AS build\nRUN make\n"
            "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\nCOPY --from=build /out /opt/out\n",
        ),
        # a repository whose tags carry no flavour
        ("Based on ubuntu:22.04.\n", "FROM ubuntu:22.04\nRUN true\n"),
        # a choice for the reader
        ("You can also use nvidia/cuda:11.8.0-ubuntu22.04 as base.\n", CUDA_BASE),
    ],
)
def test_no_finding_for_a_base_tag_that_names_the_image_or_another_stage(
    readme: str, dockerfile: str
) -> None:
    assert [f for f in findings(readme, {"Dockerfile": dockerfile}) if "flavour" in f] == []


# --- the CUDA a sentence opposes to an old version's ------------------------------------------------

UPSCALER = "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\nRUN pip install flask==3.0.3\n"


def _contrasted(sentence: str, dockerfile: str = UPSCALER) -> list[tuple[int, str, str]]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    readme = f"# Upscaler image\n\n{sentence}\n"
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", [model], {})]


@pytest.mark.parametrize(
    "sentence",
    [
        # modelled on a fork's note on the Dockerfile it took over and updated
        "I took the Dockerfile from another fork and updated it. For example, the old version used the CUDA 9"
        " image, but my RTX 3080 requires CUDA 11.",
        "The previous image was built on CUDA 10, whereas this one uses CUDA 11.",
        "The original Dockerfile used CUDA 10 but was moved to CUDA 11 for the A100 cards.",
    ],
)
def test_the_cuda_opposed_to_the_old_one_is_the_images(sentence: str) -> None:
    assert _contrasted(sentence) == [(3, "README says CUDA 11 but Dockerfile:1 says 12.1.0", "likely")]


@pytest.mark.parametrize(
    "sentence",
    [
        "The old image used CUDA 10.",  # history alone
        "The old version used the CUDA 10 image, but my RTX 3080 requires CUDA 12.",  # agrees
        "The old version used CUDA 10, but my RTX 3080 requires CUDA 11 or newer.",  # a minimum
        "The old version used CUDA 10, but Ampere cards need CUDA 11+.",
        "The old version used CUDA 10, but the new one supports CUDA 11/12.",
        "The old version used CUDA 10, but the host needs CUDA 11 drivers.",
        "If the old version used CUDA 10 but your card requires CUDA 11, change the base image.",
        "The old version used CUDA 11, but my RTX 3080 requires CUDA 11.",  # no change said
        "My RTX 3080 requires CUDA 11.",  # the card's requirement, no old one opposed
        "The old version used CUDA 10. My RTX 3080 requires CUDA 11.",  # two sentences
        "Older releases used CUDA 10, but PyTorch needs CUDA 12 now.",
    ],
)
def test_silent_on_other_cuda_sentences(sentence: str) -> None:
    assert _contrasted(sentence) == []


def test_a_cuda_image_of_the_same_major_agrees() -> None:
    dockerfile = "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
    assert _contrasted("The old version used CUDA 10, but my RTX 3080 requires CUDA 11.", dockerfile) == []


# --- a base image the README says what the image holds comes from ------------------------------------

DL_BASE = (
    "FROM nvidia/cuda:9.0-devel-ubuntu16.04\n"
    "RUN apt-get update && apt-get install -y libcudnn7=7.0.5.15-1+cuda9.0\n"
)


@pytest.mark.parametrize(
    ("said", "line"),
    [
        # a list of what is installed, each item saying where it comes from: a cudnn variant of the base
        ("Image with:\n- CUDA and cuDNN (from nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04)\n- tools\n", 2),
        # the owner written twice, the tag the FROM tag
        ("CUDA comes from nvidia/nvidia/cuda:9.0-devel-ubuntu16.04.\n", 1),
    ],
)
def test_a_base_a_list_item_says_the_image_s_contents_come_from(said: str, line: int) -> None:
    found = findings(f"# Base\n\n{said}", {"Dockerfile": DL_BASE})
    assert len(found) == 1 and found[0].startswith(f"{line + 2}: README says the base image is nvidia/")
    assert found[0].endswith("but Dockerfile:1 says nvidia/cuda:9.0-devel-ubuntu16.04")


@pytest.mark.parametrize(
    "said",
    [
        "- CUDA and cuDNN (from nvidia/cuda:9.0-devel-ubuntu16.04)\n",  # the FROM image itself
        "- copy the binaries from nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04 into /opt\n",  # no base
        "- pulled from nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04 in the CI job\n",
        "- (e.g. from nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04)\n",  # an example
    ],
)
def test_an_image_named_after_from_that_is_no_claim_of_this_base(said: str) -> None:
    assert findings(f"# Base\n\n{said}", {"Dockerfile": DL_BASE}) == []


def test_a_tag_naming_a_variant_more_is_read_only_against_a_single_base() -> None:
    # a builder on the devel tag and a final stage on the runtime one: which the README means is open
    two = "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04 AS build\nFROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\n"
    readme = "# App\n\n- CUDA (from nvidia/cuda:12.1.0-cudnn8-runtime-ubuntu22.04)\n"
    assert findings(readme, {"Dockerfile": two}) == []


# `Name vN` in a heading: a version said by its major alone (`_headed_majors`), modelled on a microscopy
# package's image (`# docker image for tomosuite v2` while the build arg moved to 4.5.3) and a web
# service's (`# Relay v3` over an image pinning relay 3.2.1).
ARGED = (
    "FROM ubuntu:22.04\nARG TOMOSUITE_VERSION=4.5.3\nRUN echo $TOMOSUITE_VERSION\n"
    "RUN pip install relay==3.2.1\n"
)


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        ("# docker image for tomosuite v2\n", ["1: README says tomosuite v2 but Dockerfile:2 says 4.5.3"]),
        ("# docker image for tomosuite v4\n", []),  # the major agrees
        ("# Relay v3\n\nServes the API v2.\n", []),  # `API` is pinned by nothing
        ("# Relay v2\n\nA relay server.\n", ["1: README says Relay v2 but Dockerfile:4 says 3.2.1"]),
        ("# Relay v2 → v3 migration\n", []),  # a change of release names the old one
        ("# Relay\n\nThe image runs relay v2 and up.\n", []),  # prose: a bare major is read in headings only
        ("# Notes\n\n## Upgrading from relay v2\n", []),  # the host's or an older release: `from`
    ],
)
def test_a_heading_naming_a_component_by_its_major(readme: str, expected: list[str]) -> None:
    assert findings(readme, {"Dockerfile": ARGED}) == expected


# A simulator image (the shape of a CARLA one): a Vulkan base, and Python 3.7 added beside the base's own
SIM = (
    "FROM nvidia/vulkan:1.3-470\nARG PYTHON_VERSION=3.7\n"
    "RUN apt-get update && apt-get install -y python${PYTHON_VERSION} python3-pip\n"
)
# A speech server (the shape of a Whisper one): a CUDA base, and Python 3.11 from a PPA over it
SPEECH = (
    "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\n"
    "RUN add-apt-repository ppa:deadsnakes/ppa && apt-get install -y python3.11\n"
)


@pytest.mark.parametrize(
    ("dockerfile", "line"),
    [
        (SIM, "- base image: nvidia/vulkan:1.3-470 (ubuntu 20.04, python 3.8)"),
        (
            SPEECH,
            "Based on [`nvidia/cuda:11.8.0-devel-ubuntu22.04`](https://hub.docker.com/r/nvidia/cuda)"
            " (Python 3.10).",
        ),
    ],
)
def test_what_a_parenthesis_after_the_base_says_is_the_bases(
    tmp_path: Path, dockerfile: str, line: str
) -> None:
    # the Python the base carries, which the one the Dockerfile adds beside it does not contradict
    result = audit_tree(tmp_path, {"README.md": f"# Image\n\n{line}\n", "Dockerfile": dockerfile})
    assert "README says" not in result.out


def test_the_base_gloss_still_answers_to_the_bases_tag_and_a_claim_of_the_image_is_read(
    tmp_path: Path,
) -> None:
    # the tag of the base says its CUDA: a gloss giving another is stale
    cuda = "- base image: nvidia/cuda:11.8.0-devel-ubuntu22.04 (CUDA 12.1)\n"
    result = audit_tree(tmp_path / "a", {"README.md": f"# Image\n\n{cuda}", "Dockerfile": SPEECH})
    assert "README.md:3: error: README says CUDA 12.1" in result.out
    # a Python said of the image, out of the gloss, is compared with what the Dockerfile installs
    said = "The image ships Python 3.10.\n"
    result = audit_tree(tmp_path / "b", {"README.md": f"# Image\n\n{said}", "Dockerfile": SPEECH})
    assert "README.md:3: error: README says Python 3.10" in result.out


@pytest.mark.parametrize(
    "sentence",
    [
        # whoever the subject: a diarisation tool and a simulator bridge, each tested with other releases
        "It developed and tested with python versions Python-3.10.6 and Python 3.12.3 but generally "
        "requires Python version greater or equal to 3.10.",
        "Tested with Python 3.12.3.",
        "This package was verified on Python 3.12 and Ubuntu 24.04.",
        # kept as its sentence's context: the other version there is something else's
        "Tested with python 3.9-3.11, the voice engine does not install on python 3.12 yet.",
        # a lower bound the image meets
        "The application requires Python 3.10 or later.",
        "Requires at least Python 3.10.",
    ],
)
def test_a_version_tested_with_or_a_lower_bound_is_not_the_images(sentence: str) -> None:
    dockerfile = "FROM python:3.10\nRUN pip install flask==3.0.3\n"
    assert findings(f"# Tool\n\n{sentence}\n", {"Dockerfile": dockerfile}) == []


def test_a_clause_turning_from_what_was_tested_to_the_image() -> None:
    dockerfile = "FROM python:3.10\nRUN pip install flask==3.0.3\n"
    readme = "# Tool\n\nTested with Python 3.9, while the image ships Python 3.12.\n\n"
    readme += "Requires Python 3.11+.\n"
    # drift: what the image ships, after the tested-with clause; a lower bound the image does not meet
    assert findings(readme, {"Dockerfile": dockerfile}) == [
        "3: README says Python 3.12 but Dockerfile:1 says 3.10",
        "5: README says Python 3.11+ but Dockerfile:1 says 3.10",
    ]
