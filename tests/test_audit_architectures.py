"""`docgen.audit.architectures`: the architecture a README says the image is for, against the one its
base or the files its RUNs install allow. Planted drifts and the nearest true claims as traps; the
READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

L4T = "FROM nvcr.io/nvidia/l4t-cuda:12.2.12-devel\nRUN bash /setup/install_python.sh\n"
OLD_CUDA = (
    "FROM nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04\n"
    "RUN pip3 install torch==1.5.0+cu101 -f https://download.pytorch.org/whl/torch_stable.html\n"
)
X86_WHEEL = (
    "FROM ubuntu:22.04\nRUN pip install https://example.org/whl/torch-2.8.0-cp312-cp312-linux_x86_64.whl\n"
)
ARM_DEB = (
    "FROM ubuntu:22.04\nRUN wget https://example.org/libfoo_1.2_arm64.deb && dpkg -i libfoo_1.2_arm64.deb\n"
)
MULTI = (
    "FROM nvcr.io/nvidia/cuda:12.6.3-devel-ubuntu24.04\n"
    "RUN pip install torch --index-url https://download.pytorch.org/whl/cu126\n"
)
BRANCHED = (
    "FROM ubuntu:22.04\n"
    'RUN if [ "$(uname -m)" = aarch64 ]; then wget https://example.org/libfoo_1.2-1_arm64.deb; fi\n'
)


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "is for" in d.message]


def test_a_platform_row_naming_amd64_over_an_l4t_base(tmp_path: Path) -> None:
    readme = (
        "# Orin dev image\n\n| **Feature** | **Description** |\n|---|---|\n"
        "| **Platform** | NVIDIA Jetson AGX Orin (Jetson is based on AMD64 architecture) |\n"
        "| **CUDA Version** | 12.x |\n"
    )
    assert _audit(tmp_path, readme, L4T) == [
        "5: README says the image is for AMD64 (amd64) but Dockerfile:1 starts FROM "
        "nvcr.io/nvidia/l4t-cuda:12.2.12-devel, for arm64 (aarch64) only (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "said"),
    [
        (
            "# Pose\n\nRun this container on a Jetson device (Nano, TX2, Xavier).\n",
            OLD_CUDA,
            "Jetson (arm64)",
        ),
        ("# Tools\n\nPlatform: arm64\n", X86_WHEEL, "arm64 (arm64)"),
        ("# Tools\n\nThis image is built for x86_64 servers.\n", ARM_DEB, "x86_64 (amd64)"),
    ],
)
def test_an_architecture_the_image_cannot_be_for(
    tmp_path: Path, readme: str, dockerfile: str, said: str
) -> None:
    found = _audit(tmp_path, readme, dockerfile)
    assert len(found) == 1
    assert f"README says the image is for {said} but Dockerfile:" in found[0]


def test_a_device_in_bold_after_for_the(tmp_path: Path) -> None:
    readme = "# Pose\n\nThis Docker image is designed for development on the **NVIDIA Jetson Nano** board.\n"
    assert _audit(tmp_path, readme, OLD_CUDA) == [
        "3: README says the image is for NVIDIA Jetson Nano (arm64) but Dockerfile:1 starts FROM "
        "nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04, for amd64 (x86_64) only (likely)"
    ]
    assert _audit(tmp_path, readme, L4T) == []


def test_prose_is_likely_and_a_label_certain(tmp_path: Path) -> None:
    assert _audit(tmp_path, "# Pose\n\nThis image runs on Jetson Nano.\n", OLD_CUDA)[0].endswith("(likely)")
    assert _audit(tmp_path, "# Pose\n\n- **Architecture:** aarch64\n", OLD_CUDA)[0].endswith("(certain)")


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the claim agrees
        ("# Orin\n\n| Feature | Value |\n|---|---|\n| Platform | NVIDIA Jetson AGX Orin (arm64) |\n", L4T),
        ("# Docker container with TensorFlow for Jetson Nano\n\nBuild it with docker build.\n", L4T),
        # host requirements, not what the image is for
        ("# Pose\n\nThis image requires a Jetson with JetPack 6 on the host.\n", OLD_CUDA),
        ("# Pose\n\n## Requirements\n\nThe container runs on a Jetson Xavier.\n", OLD_CUDA),
        ("# Pose\n\nYou need to install JetPack 4.6 for Jetson Nano first.\n", OLD_CUDA),
        # the README offers both
        ("# Tools\n\nThe image is available for amd64 and arm64.\n\nPlatform: arm64\n", X86_WHEEL),
        ("# Tools\n\n## x86_64\n\nBuild it.\n\n## Jetson\n\nThis image runs on Jetson.\n", OLD_CUDA),
        ("# Dev\n\nA build image for the Jetson Nano, aside with an x86 test image.\n", ARM_DEB),
        # a multi-architecture base and an index URL say nothing
        ("# vLLM for GH200\n\nThis image is built for the GH200 (arm64).\n", MULTI),
        # a RUN that branches on the architecture says nothing
        ("# Tools\n\nPlatform: x86_64\n", BRANCHED),
        # the past
        ("# Pose\n\nThis image was built for Jetson TX2 before the move to x86.\n", OLD_CUDA),
    ],
)
def test_the_nearest_true_claims(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert _audit(tmp_path, readme, dockerfile) == []


def test_a_from_platform_is_what_the_stage_is_for(tmp_path: Path) -> None:
    dockerfile = "FROM --platform=linux/arm64 ubuntu:22.04\nRUN echo ok\n"
    found = _audit(tmp_path, "# Tools\n\nPlatform: amd64\n", dockerfile)
    assert found == [
        "3: README says the image is for amd64 (amd64) but Dockerfile:1 starts FROM "
        "--platform=linux/arm64, for arm64 (aarch64) only (certain)"
    ]
    assert (
        _audit(tmp_path, "# Tools\n\nPlatform: amd64\n", dockerfile.replace("linux/arm64", "$BUILDPLATFORM"))
        == []
    )


def test_facts_that_disagree_tell_nothing(tmp_path: Path) -> None:
    dockerfile = L4T + "RUN wget https://example.org/tool-1.0-linux-x86_64.tar.gz\n"
    assert _audit(tmp_path, "# Tools\n\nPlatform: amd64\n", dockerfile) == []


@pytest.mark.parametrize(
    "run",
    [
        # files for another machine: a Jetson sysroot an x86 image cross-compiles against
        "RUN wget https://example.org/libfoo_1.2_arm64.deb && dpkg -x libfoo_1.2_arm64.deb /sysroot",
        # fetched, never installed
        "RUN wget -P /opt/debs https://example.org/libfoo_1.2_arm64.deb",
    ],
)
def test_a_package_file_not_installed_here_says_nothing(tmp_path: Path, run: str) -> None:
    dockerfile = f"FROM ubuntu:22.04\n{run}\n"
    assert _audit(tmp_path, "# Tools\n\nPlatform: x86_64\n", dockerfile) == []


def test_a_word_that_only_looks_like_a_device_is_no_claim(tmp_path: Path) -> None:
    readme = "# Pose\n\nThe container stops with a grace period of 30 seconds.\n"
    assert _audit(tmp_path, readme, OLD_CUDA) == []
    assert _audit(tmp_path, "# Pose\n\nThis image is for NVIDIA Grace Hopper.\n", OLD_CUDA) != []
