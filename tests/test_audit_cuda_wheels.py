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


# `said_indexes`: the wheel index a sentence says the Dockerfile points pip to

TRANSCRIBE = """\
FROM nvidia/cuda:12.8.0-cudnn-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip python3-venv ffmpeg
COPY requirements.txt .
# Use the cu124 index so the cu124 wheels resolve.
RUN python3 -m venv /opt/venv && \\
    /opt/venv/bin/pip install --no-cache-dir \\
      --extra-index-url https://download.pytorch.org/whl/cu128 -r requirements.txt
"""
TRANSCRIBE_README = """\
# Transcriber

Run `docker compose up --build` and open the page.

Notes
- The Dockerfile points pip to PyTorch's {flavour} wheel index so the GPU build resolves.
- Keep the project inside the WSL file system.
"""

ROCM_LLM = """\
FROM rocm/dev-ubuntu-22.04:6.2
WORKDIR /srv
COPY requirements.txt .
RUN pip3 install --no-cache-dir -r requirements.txt
"""
ROCM_REQUIREMENTS = "--index-url https://download.pytorch.org/whl/rocm6.2\ntorch==2.5.1\nvllm-lite==0.3\n"
ROCM_README = """\
# llm-lite on AMD

## How the image is built

PyTorch comes from the rocm6.1 wheel index (see requirements.txt); the base image brings ROCm itself.
"""


def said(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "wheel index, but" in d.message
    ]


def test_a_wheel_index_the_dockerfile_left_for_another(tmp_path: Path) -> None:
    files = {"Dockerfile": TRANSCRIBE, "requirements.txt": "torch==2.7.0+cu128\n"}
    assert said(tmp_path, TRANSCRIBE_README.format(flavour="cu124"), files) == [
        (
            6,
            "README says pip uses PyTorch's cu124 wheel index, but the image's installs use "
            "Dockerfile:7: …/whl/cu128",
            "likely",
        )
    ]


def test_a_rocm_index_in_the_requirements_file(tmp_path: Path) -> None:
    files = {"Dockerfile": ROCM_LLM, "requirements.txt": ROCM_REQUIREMENTS}
    assert said(tmp_path, ROCM_README, files) == [
        (
            5,
            "README says pip uses PyTorch's rocm6.1 wheel index, but the image's installs use "
            "requirements.txt:1: …/whl/rocm6.2",
            "likely",
        )
    ]
    # the index the requirements file names
    assert said(tmp_path / "same", ROCM_README.replace("rocm6.1", "rocm6.2"), files) == []


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the index the Dockerfile uses (its comment naming another is no install)
        (TRANSCRIBE_README.format(flavour="cu128"), TRANSCRIBE),
        # the flavour comes from a build arg
        (TRANSCRIBE_README.format(flavour="cu124"), TRANSCRIBE.replace("whl/cu128", "whl/${CUDA_TAG}")),
        # the reader is told to change it
        (
            TRANSCRIBE_README.format(flavour="cu124").replace(
                "The Dockerfile points", "Change it if your driver differs: it points"
            ),
            TRANSCRIBE,
        ),
        # a pin's label is not an index
        (TRANSCRIBE_README.format(flavour="torch==2.1.2+cu124"), TRANSCRIBE),
        # no index in the Dockerfile at all
        (
            TRANSCRIBE_README.format(flavour="cu124"),
            TRANSCRIBE.replace("--extra-index-url https://download.pytorch.org/whl/cu128 ", ""),
        ),
    ],
)
def test_a_said_index_the_image_may_use(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert said(tmp_path, readme, {"Dockerfile": dockerfile, "requirements.txt": "torch==2.7.0\n"}) == []


# A family whose GPU Dockerfiles take the index URL from a build arg (`--index-url ${ROCM_INDEX}`, its
# default the PyTorch index) beside a CPU one writing its index out: the arg's default is the GPU image's
# index, not something the CPU image's `…/whl/cpu` denies (modelled on a transcription service's ROCm,
# CUDA and CPU variants, and on a speech toolkit's GPU/CPU pair)
INDEX_ARG_ROCM = """\
FROM rocm/dev-ubuntu-22.04:7.0.2 AS base
ARG ROCM_INDEX=https://download.pytorch.org/whl/rocm6.0
RUN pip3 install --no-cache-dir --index-url ${ROCM_INDEX} \\
    torch==2.4.1+rocm6.0
"""
INDEX_ARG_CPU = """\
FROM python:3.11-slim
RUN pip3 install --no-cache-dir --index-url https://download.pytorch.org/whl/cpu torch==2.4.1
"""
INDEX_ARG_README = """\
# Speech service images

The ROCm image installs PyTorch from the {flavour} wheel index.

## Build arguments

### ROCm image
- `ROCM_INDEX` - PyTorch wheel index URL (default: {arg})
"""


def family_said(root: Path, readme: str, rocm: str = INDEX_ARG_ROCM) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile.rocm": rocm, "Dockerfile.cpu": INDEX_ARG_CPU})
    models = [build_model(root / name, name) for name in ("Dockerfile.cpu", "Dockerfile.rocm")]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", models, {}, root, root)
        if "wheel index, but" in d.message
    ]


def test_an_index_a_build_arg_gives_is_the_arg_s_default(tmp_path: Path) -> None:
    assert family_said(tmp_path, INDEX_ARG_README.format(flavour="rocm6.0", arg="rocm6.0")) == []
    # a flavour no image's index has: the arg's default is cited where it is written
    assert family_said(tmp_path / "drift", INDEX_ARG_README.format(flavour="rocm5.7", arg="rocm6.0")) == [
        (
            3,
            "README says pip uses PyTorch's rocm5.7 wheel index, but the image's installs use "
            "Dockerfile.cpu:2: …/whl/cpu, Dockerfile.rocm:2: …/whl/rocm6.0",
            "likely",
        )
    ]
    # read by an extra index written with `=`, the arg's name in braces or not
    for read in ("--extra-index-url=${ROCM_INDEX} ", '--extra-index-url="$ROCM_INDEX" '):
        rocm = INDEX_ARG_ROCM.replace("--index-url ${ROCM_INDEX} ", read)
        readme = INDEX_ARG_README.format(flavour="rocm6.0", arg="rocm6.0")
        assert family_said(tmp_path / read[-5:-1], readme, rocm) == []
    # trap: the item naming the build arg gives its default, which the build-arg list is compared for
    # (`README says ROCM_INDEX defaults to …`), not a second time as a wheel index
    assert family_said(tmp_path / "arg", INDEX_ARG_README.format(flavour="rocm6.0", arg="rocm5.7")) == []


# Values offered for an override: a README giving the image's default index and, under a lead-in that
# tells the reader how to change it, other flavours to pass (modelled on a GPT trainer whose build
# script takes `--cuda-index-url`, and on a segmentation image whose list of other CUDA versions gives
# build args to pass). The flavours of those items are the reader's choice, not the image's.
OVERRIDE_DOCKERFILE = """\
FROM example/gpu-base:25.01
ARG TORCH_INDEX=https://download.pytorch.org/whl/cu124
RUN pip install --no-cache-dir --extra-index-url ${TORCH_INDEX} kernelkit && \\
    pip install --no-cache-dir torch --index-url https://download.pytorch.org/whl/cu124
"""
OVERRIDE_SCRIPT_README = """\
# Trainer image

Notes:
- The Dockerfile installs kernelkit from the PyTorch wheel index. By default it uses CUDA 12.4 wheels \
(`cu124`). If your base image differs, override via `--cuda-index-url`:
  - CUDA 12.1: `--cuda-index-url https://download.pytorch.org/whl/cu121`
  - CUDA 11.8: `--cuda-index-url https://download.pytorch.org/whl/cu118`

Troubleshooting
- kernelkit wheels: override `--cuda-index-url` to the proper URL (e.g., cu121, cu118).
"""
OVERRIDE_LIST_README = """\
# Segmenter

The image installs PyTorch from the {flavour} wheel index.

Other CUDA versions:

- CUDA 11.8: `--build-arg TORCH_INDEX=https://download.pytorch.org/whl/cu118`
- CUDA 12.6: `--build-arg TORCH_INDEX=https://download.pytorch.org/whl/cu126`

The image runs the segmenter on port 8080.
"""


def offered(root: Path, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, "Dockerfile": OVERRIDE_DOCKERFILE})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_flavours_offered_as_values_to_override_with_are_no_claim(tmp_path: Path) -> None:
    # trap: the items under `override via …:` and a troubleshooting hint naming flavours to pass
    assert offered(tmp_path / "script", OVERRIDE_SCRIPT_README) == []
    # trap: a list introduced by `Other CUDA versions:` (its build args are the image's)
    assert offered(tmp_path / "list", OVERRIDE_LIST_README.format(flavour="cu124")) == []
    # drift: the default the README gives is still compared, the lead-in line itself no offer
    drifted = OVERRIDE_SCRIPT_README.replace("CUDA 12.4 wheels (`cu124`)", "CUDA 12.1 wheels (`cu121`)")
    assert offered(tmp_path / "d1", drifted) == [
        (
            4,
            "README says CUDA 12.1 but Dockerfile:3 says 12.4 (kernelkit from "
            "https://download.pytorch.org/whl/cu124)",
            "likely",
        )
    ]
    # drift: the sentence before the offered list says the image's own flavour
    assert offered(tmp_path / "d3", OVERRIDE_LIST_README.format(flavour="cu118")) == [
        (
            3,
            "README says pip uses PyTorch's cu118 wheel index, but the image's installs use "
            "Dockerfile:2: …/whl/cu124, Dockerfile:4: …/whl/cu124",
            "likely",
        )
    ]
