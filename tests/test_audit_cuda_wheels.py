"""`docgen audit`: a build command passing a CUDA release to a Dockerfile whose PyTorch wheels are fixed
to another one in its text (docgen/audit/cuda_wheels.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

FIXED = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG TORCH_VERSION
# wheels for the CUDA of the base
RUN pip install --no-cache-dir \\
    --extra-index-url https://download.pytorch.org/whl/cu116 \\
    torch==${TORCH_VERSION}+cu116 torchvision
"""
MAKE = (
    "make -f images.mk DOCKERFILE_PATH=./images/gpu/Dockerfile.jammy CUDA_VERSION={cuda} TORCH_VERSION=1.13.1"
)


def found(root: Path, commands: str, dockerfile: str = FIXED) -> list[tuple[int, str, str]]:
    readme = f"# Trainer image\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"images/gpu/Dockerfile.jammy": dockerfile, "images/gpu/README.md": readme})
    path = "images/gpu/Dockerfile.jammy"
    model = build_model(root / path, path)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "images/gpu/README.md", model, {}, root / "images/gpu", root)
        if "PyTorch wheels" in d.message
    ]


def test_a_cuda_release_passed_to_wheels_fixed_to_another(tmp_path: Path) -> None:
    assert found(tmp_path, MAKE.format(cuda="11.7.1")) == [
        (
            4,
            "README builds images/gpu/Dockerfile.jammy with CUDA_VERSION=11.7.1, but its PyTorch wheels are "
            "fixed to CUDA 11.6 (images/gpu/Dockerfile.jammy:6: cu116), whatever is passed",
            "likely",
        )
    ]


def test_a_docker_build_passing_another_major_release(tmp_path: Path) -> None:
    command = "docker build --build-arg CUDA=12.1 -f Dockerfile.jammy -t trainer ."
    assert [line for line, _, _ in found(tmp_path, command)] == [4]


@pytest.mark.parametrize(
    ("commands", "dockerfile"),
    [
        # the release the wheels are built for
        (MAKE.format(cuda="11.6.2"), FIXED),
        (MAKE.format(cuda="11.6"), FIXED),
        # from CUDA 12 on, a wheel of another minor release loads on the base's
        (MAKE.format(cuda="12.4.1"), FIXED.replace("cu116", "cu121")),
        # wheels whose CUDA the build chooses
        (MAKE.format(cuda="11.7.1"), FIXED.replace("cu116", "cu${CU_VERSION}")),
        (MAKE.format(cuda="11.7.1"), FIXED.replace("whl/cu116", "whl/${CUDA_TAG}")),
        # wheels of two releases
        (MAKE.format(cuda="11.7.1"), FIXED.replace("+cu116", "+cu117")),
        # no PyTorch wheel
        (
            MAKE.format(cuda="11.7.1"),
            "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN pip install spconv==2.3.6+cu116\n",
        ),
        # another Dockerfile, or none named
        (MAKE.format(cuda="11.7.1").replace("Dockerfile.jammy", "Dockerfile.centos"), FIXED),
        ("make image CUDA_VERSION=11.7.1", FIXED),
        # no CUDA passed
        ("docker build -f Dockerfile.jammy --build-arg TORCH_VERSION=1.13.1 .", FIXED),
        ("CUDA_VERSION=11.7.1 ./build.sh", FIXED),
    ],
)
def test_builds_whose_wheels_are_the_cuda_passed(tmp_path: Path, commands: str, dockerfile: str) -> None:
    assert found(tmp_path, commands, dockerfile) == []
