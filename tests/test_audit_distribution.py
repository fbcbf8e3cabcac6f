"""`docgen audit`: the Python and the compiler an image takes from its distribution. `apt-get install
python3-pip` on Ubuntu 20.04 installs Python 3.8 (`baseimage.distribution`), so a README saying Python
3.7 is stale (`version_facts.distribution_versions`), unless something else in the image brings a Python
or a compiler of its own (`sources.toolchains`).

Each rule: a planted drift next to the nearest true statement (a trap): a host requirement, a minimum,
a conda or deadsnakes Python, a builder stage, a sibling image, the project's own installation list.
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.audit import audit
from docgen.audit.version_facts import distribution_versions
from docgen.baseimage import Distribution, distribution, floating_distributions
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of
from docgen.sources.toolchains import foreign_toolchains

# --- what each release gives ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("ubuntu:22.04", Distribution("Ubuntu 22.04", "3.10", "11")),
        ("ubuntu:focal-20240530", Distribution("Ubuntu 20.04", "3.8", "9")),
        ("ubuntu:noble-20240904.1", Distribution("Ubuntu 24.04", "3.12", "13")),
        ("docker.io/library/ubuntu:18.04", Distribution("Ubuntu 18.04", "3.6", "7")),
        ("debian:bookworm-slim", Distribution("Debian 12", "3.11", "12")),
        ("debian:11.9", Distribution("Debian 11", "3.9", "10")),
        ("nvidia/cuda:11.3.0-base-ubuntu20.04", Distribution("Ubuntu 20.04", "3.8", "9")),
        ("nvcr.io/nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04", Distribution("Ubuntu 22.04", "3.10", "11")),
        ("nvidia/cuda:12.2.2-devel-rockylinux8", Distribution("Rocky Linux 8", "3.6", "8")),
        ("nvidia/cuda:12.6.3-runtime-ubi9", Distribution("Red Hat UBI 9", "3.9", "11")),
        ("rocm/dev-ubuntu-22.04:6.4.1-complete", Distribution("Ubuntu 22.04", "3.10", "11")),
        ("rockylinux:9.3", Distribution("Rocky Linux 9", "3.9", "11")),
        ("almalinux:8", Distribution("AlmaLinux 8", "3.6", "8")),
    ],
)
def test_a_plain_release_gives_its_python_and_compiler(reference: str, expected: Distribution) -> None:
    assert distribution(reference) == expected


@pytest.mark.parametrize(
    "reference",
    [
        "python:3.11-slim-bookworm",  # its own Python
        "rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0",  # names its Python and PyTorch
        "nvcr.io/nvidia/pytorch:24.08-py3",  # an NGC release: its own stack
        "nvcr.io/nvidia/cuda-dl-base:25.01-cuda12.8-devel-ubuntu24.04",
        "myorg/base:cu124-ubuntu22.04",  # a project's own image: its tag says Ubuntu, not what is on it
        "ubuntu:latest",  # no release
        "ubuntu:14.04",  # a release not in the table
        "nvidia/cuda:${CUDA}-devel-ubuntu22.04",  # an unknown part
    ],
)
def test_an_image_of_its_own_or_an_unknown_release_gives_nothing(reference: str) -> None:
    assert distribution(reference) is None


# --- what brings another Python or compiler ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("RUN wget https://repo.anaconda.com/miniconda/Miniconda3-latest-Linux-x86_64.sh", ["python"]),
        ("RUN curl https://pyenv.run | bash && pyenv install 3.11.9", ["python"]),
        ("RUN uv python install 3.12 && uv venv /opt/venv", ["python"]),
        ("RUN add-apt-repository ppa:deadsnakes/ppa && apt-get install -y python3.11", ["python"]),
        ("RUN cd Python-3.11.9 && ./configure && make altinstall", ["python"]),
        ("RUN bash install_python.sh ${PYTHON_VERSION} && rm -r Python-${PYTHON_VERSION}", ["python"]),
        ("COPY --from=python:3.12-slim /usr/local /usr/local", ["python"]),
        ("RUN asdf install python 3.12.7", ["python"]),
        ("RUN apt-get install -y gcc-13 g++-13", ["gcc"]),
        ("RUN update-alternatives --install /usr/bin/gcc gcc /usr/bin/gcc-12 100", ["gcc"]),
        ("RUN dnf install -y gcc-toolset-13", ["gcc"]),
        ("RUN add-apt-repository ppa:ubuntu-toolchain-r/test", ["gcc"]),
        ("RUN conda install -y python=3.10 gxx_linux-64", ["python", "gcc"]),
        # the distribution's own packages bring nothing else
        ("RUN apt-get install -y python3 python3-pip python3-dev build-essential libgcc-11-dev", []),
        ("RUN python3 -m venv /opt/venv && pip install uv", []),
        ("RUN pip3 install virtualenv && virtualenv /opt/env", []),
        ("RUN virtualenv -p python3.11 /opt/env", ["python"]),
    ],
)
def test_foreign_toolchains(text: str, found: list[str]) -> None:
    assert [what for what, _ in foreign_toolchains([(3, text)])] == found


# --- the facts ---------------------------------------------------------------------------------------

CUDA_PIP = """\
FROM nvidia/cuda:11.3.0-base-ubuntu20.04 AS base
RUN apt-get update && apt-get install -y python3-pip build-essential && \\
    pip3 install torch==1.10.1+cu113 -f https://download.pytorch.org/whl/cu113/torch_stable.html
"""


def _versions(dockerfile: str) -> list[tuple[str, str, str, int]]:
    return list(distribution_versions(model_of(parse_dockerfile(dockerfile, "Dockerfile"))))


def test_the_distribution_package_states_python_and_gcc() -> None:
    assert _versions(CUDA_PIP) == [
        ("python", "3.8", "3.8 (python3-pip of Ubuntu 20.04)", 2),
        ("gcc", "9", "9 (build-essential of Ubuntu 20.04)", 2),
    ]


def test_the_release_comes_through_build_args_and_stage_chains() -> None:
    dockerfile = """\
ARG UBUNTU_VERSION=22.04
ARG BASE=nvidia/cuda:12.4.1-devel-ubuntu${UBUNTU_VERSION}
FROM ${BASE} AS base
RUN apt-get update && apt-get install -y python3-dev
FROM base AS final
RUN pip3 install numpy
"""
    assert _versions(dockerfile) == [("python", "3.10", "3.10 (python3-dev of Ubuntu 22.04)", 4)]


def test_rpm_packages_of_an_el_release() -> None:
    dockerfile = "FROM rockylinux:9\nRUN dnf install -y python3 gcc-c++ && dnf clean all\n"
    assert _versions(dockerfile) == [
        ("python", "3.9", "3.9 (python3 of Rocky Linux 9)", 2),
        ("gcc", "11", "11 (gcc-c++ of Rocky Linux 9)", 2),
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # a Python only in a builder stage the image is not built on
        "FROM ubuntu:20.04 AS builder\nRUN apt-get install -y python3\nFROM ubuntu:22.04\nRUN echo hi\n",
        # conda copied from a builder into the image
        "FROM continuumio/miniconda3 AS env\nRUN conda create -p /env python=3.11\n"
        "FROM ubuntu:22.04\nCOPY --from=env /env /env\nRUN apt-get install -y python3-pip\n",
        # a named release from deadsnakes
        "FROM ubuntu:20.04\nRUN add-apt-repository -y ppa:deadsnakes/ppa && "
        "apt-get install -y python3.11 python3-pip\n",
        # pinned: the pin says it, not the distribution
        "FROM ubuntu:22.04\nRUN apt-get install -y python3=3.10.6-1~22.04\n",
        # an image of its own
        "FROM python:3.11-slim-bookworm\nRUN apt-get install -y python3-pip\n",
    ],
)
def test_no_python_fact_when_the_image_has_another(dockerfile: str) -> None:
    assert [v for v in _versions(dockerfile) if v[0] == "python"] == []


# --- the claims ---------------------------------------------------------------------------------------

LISTED = """\
# pyt

`docker pull ghcr.io/example/pyt:cuda11.3`

- nvidia/cuda:11.3.0-base-ubuntu20.04
- python 3.7
- torch 1.10.1+cu113
"""


def test_a_listed_python_the_distribution_does_not_give() -> None:
    assert findings(LISTED, {"Dockerfile": CUDA_PIP}) == [
        "6: README says python 3.7 but Dockerfile:2 says 3.8 (python3-pip of Ubuntu 20.04)"
    ]


def test_python_2_beside_the_distribution_s_python3_is_another_package() -> None:
    # ROS images list both: Ubuntu's `python3` says nothing of a Python 2 the image may also hold
    readme = LISTED.replace("- python 3.7\n", "- Python 3.8\n- Python 2.7\n")
    assert findings(readme, {"Dockerfile": CUDA_PIP}) == []
    assert findings(LISTED.replace("python 3.7", "Python 3.6"), {"Dockerfile": CUDA_PIP}) == [
        "6: README says Python 3.6 but Dockerfile:2 says 3.8 (python3-pip of Ubuntu 20.04)"
    ]


def test_the_same_release_agrees_to_the_precision_written() -> None:
    readme = LISTED.replace("python 3.7", "python 3.8.10")
    assert findings(readme, {"Dockerfile": CUDA_PIP}) == []


TABLE = """\
# Dev image

| Tool   | Version |
|--------|---------|
| Python | {python} |
| GCC    | {gcc}    |
"""

JAMMY = """\
ARG UBUNTU=22.04
FROM ubuntu:${UBUNTU}
RUN apt-get update && apt-get install -y --no-install-recommends build-essential python3 python3-venv
"""


def test_table_cells_are_certain() -> None:
    model = model_of(parse_dockerfile(JAMMY, "Dockerfile"))
    found = audit(TABLE.format(python="3.8", gcc="9"), "README.md", [model], {})
    assert [(d.line, d.message, d.confidence) for d in found] == [
        (5, "README says Python 3.8 but Dockerfile:3 says 3.10 (python3 of Ubuntu 22.04)", "certain"),
        (6, "README says GCC 9 but Dockerfile:3 says 11 (build-essential of Ubuntu 22.04)", "certain"),
    ]
    assert audit(TABLE.format(python="3.10.12", gcc="11.4.0"), "README.md", [model], {}) == []


TOOLCHAIN_PPA = """\
FROM nvidia/cuda:13.0.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y build-essential software-properties-common
RUN add-apt-repository ppa:ubuntu-toolchain-r/test -y && apt-get install -y gcc-13 g++-13
RUN update-alternatives --install /usr/bin/gcc gcc /usr/bin/gcc-13 100
"""


def test_a_compiler_of_its_own_is_no_distribution_fact() -> None:
    assert findings(TABLE.format(python="3.10", gcc="13"), {"Dockerfile": TOOLCHAIN_PPA}) == []


@pytest.mark.parametrize(
    "readme",
    [
        "# App\n\nThe build requires Python 3.6 on the host.\n",  # the host's
        "# App\n\nWorks with Python 3.9+.\n",  # a minimum: what the project supports
        "# App\n\nTested on Python 3.7-3.9.\n",  # a range
        "# App\n\n## Installation\n- python 3.10\n- boto3\n",  # the project's own installation list
        "# App\n\n## Requirements\n\n| Package | Version |\n|---|---|\n| Python | 3.10 |\n",
    ],
)
def test_what_is_no_claim_about_the_image_stays_silent(readme: str) -> None:
    assert findings(readme, {"Dockerfile": CUDA_PIP}) == []


def test_a_pinned_python_in_an_installation_list_is_still_compared() -> None:
    dockerfile = "FROM python:3.11-slim\nRUN pip install boto3\n"
    assert findings("# App\n\n## Installation\n- Python 3.10\n", {"Dockerfile": dockerfile}) == [
        "4: README says Python 3.10 but Dockerfile:1 says 3.11"
    ]


CONDA = """\
FROM nvidia/cuda:10.1-cudnn7-devel-ubuntu18.04
RUN apt-get update && apt-get install -y build-essential python3-pip wget
RUN wget https://repo.continuum.io/miniconda/Miniconda3-latest-Linux-x86_64.sh -O m.sh && \\
    bash m.sh -b -p /opt/conda
ENV PATH /opt/conda/bin:$PATH
RUN conda install python=3.7
"""


def test_a_conda_python_is_the_image_s_not_the_distribution_s() -> None:
    assert findings("# Img\n\n- Ubuntu 18.04\n- Python 3.7.7\n", {"Dockerfile": CONDA}) == []


PYENV = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y build-essential libssl-dev zlib1g-dev curl git
RUN curl https://pyenv.run | bash && /root/.pyenv/bin/pyenv install 3.10.14
"""


def test_a_sibling_image_s_python_is_not_compared_with_the_distribution() -> None:
    """A README about two images: its Python may be the other one's (a pyenv image's), whose
    Dockerfile says nothing docgen reads; the distribution's default is not enough to contradict it."""
    readme = "# Images\n\nBoth images ship Python 3.10.\n"
    assert findings(readme, {"Dockerfile.cuda": CUDA_PIP, "Dockerfile.pyenv": PYENV}) == []
    assert findings(readme, {"Dockerfile": CUDA_PIP}) == [
        "3: README says Python 3.10 but Dockerfile:2 says 3.8 (python3-pip of Ubuntu 20.04)"
    ]


# --- a floating tag of a repository of several distributions --------------------------------------


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("nvidia/cuda:latest", ("Ubuntu", "CentOS", "Rocky Linux", "Red Hat UBI", "Oracle Linux")),
        ("nvidia/cuda", ("Ubuntu", "CentOS", "Rocky Linux", "Red Hat UBI", "Oracle Linux")),
        ("docker.io/nvidia/opencl:latest", ("Ubuntu", "CentOS")),
        ("nvcr.io/nvidia/cuda:latest", ("Ubuntu", "CentOS", "Rocky Linux", "Red Hat UBI", "Oracle Linux")),
        ("nvidia/cuda:12.4.1-devel-ubuntu22.04", ()),  # the tag names one
        ("nvidia/opencl:runtime-centos7", ()),
        ("nvidia/cuda@sha256:" + "a" * 64, ()),  # a digest: one image
        ("nvidia/cuda:${CUDA_TAG}", ()),  # a build arg may name one
        ("ubuntu:latest", ()),  # one distribution: its release floats, not which it is
        ("debian", ()),
    ],
)
def test_a_floating_tag_of_several_distributions(reference: str, expected: tuple[str, ...]) -> None:
    assert floating_distributions(reference) == expected


CRACKER = """\
FROM nvidia/opencl:latest
RUN apt-get update && apt-get install -y git make && git clone https://example.org/cracker.git && \\
    cd cracker && make install
"""
CRACKER_CUDA = CRACKER.replace("nvidia/opencl:latest", "nvidia/cuda")


def test_a_release_of_a_distribution_no_floating_base_pins() -> None:
    # a one-line summary of a password cracker image, and a container "running" a release
    readme = "# cracker\n\nCracker with its tools on Ubuntu 20.04 OpenCL for NVIDIA GPUs (`:latest`).\n"
    floating = "cuda/Dockerfile:1 says FROM nvidia/cuda, a floating tag that pins no Ubuntu release"
    assert findings(readme, {"cuda/Dockerfile": CRACKER_CUDA, "opencl/Dockerfile": CRACKER}) == [
        f"3: README says Ubuntu 20.04 but {floating}"
    ]
    readme = "# Solver\n\n`solver/worker` will be an Ubuntu 16.04 container with CUDA and the solver.\n"
    floating = "Dockerfile:1 says FROM nvidia/cuda, a floating tag that pins no Ubuntu release"
    assert findings(readme, {"Dockerfile": CRACKER_CUDA}) == [f"3: README says Ubuntu 16.04 but {floating}"]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # no release said
        ("Cracker on Ubuntu with OpenCL for NVIDIA GPUs.\n", {"Dockerfile": CRACKER}),
        ("Cracker on the latest Ubuntu with OpenCL.\n", {"Dockerfile": CRACKER}),
        # a tag naming the distribution and the release said
        (
            "Cracker on Ubuntu 22.04 with OpenCL.\n",
            {"Dockerfile": CRACKER.replace("latest", "runtime-ubuntu22.04")},
        ),
        # one distribution's own image: which distribution it is does not float
        (
            "Cracker on Ubuntu with OpenCL.\n",
            {"Dockerfile": CRACKER.replace("nvidia/opencl:latest", "ubuntu")},
        ),
        # a sibling image pins the release said
        (
            "Cracker on Ubuntu 20.04 with OpenCL.\n",
            {
                "opencl/Dockerfile": CRACKER,
                "cuda/Dockerfile": CRACKER.replace("opencl:latest", "cuda:11.0.3-devel-ubuntu20.04"),
            },
        ),
        # the paragraph names the floating base: it knows the tag moves
        (
            "The image starts from `nvidia/opencl:latest` (Ubuntu 18.04 when this was written).\n",
            {"Dockerfile": CRACKER},
        ),
        ("| Base | nvidia/opencl (Ubuntu 18.04 then) |\n|---|---|\n", {"Dockerfile": CRACKER}),
        # the host, not the image
        ("Tested on Ubuntu 20.04 hosts with driver 450.\n", {"Dockerfile": CRACKER}),
        ("You need Ubuntu 18.04 or later on the host.\n", {"Dockerfile": CRACKER}),
        # a build arg chooses the tag
        (
            "Cracker on Ubuntu 20.04 with OpenCL.\n",
            {"Dockerfile": "ARG TAG=latest\n" + CRACKER.replace("latest", "${TAG}")},
        ),
        # a builder stage on a pinned release, the image on its own
        (
            "Cracker on Ubuntu 20.04.\n",
            {
                "Dockerfile": "FROM ubuntu:20.04 AS build\nRUN make\nFROM nvidia/cuda:latest AS build2\n"
                "FROM build\nCOPY --from=build2 /usr/local/cuda /usr/local/cuda\n"
            },
        ),
    ],
)
def test_a_floating_base_and_what_says_nothing_of_its_release(readme: str, files: dict[str, str]) -> None:
    assert findings("# Cracker\n\n" + readme, files) == []
