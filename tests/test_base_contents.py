"""What well-known base images carry (docgen/base_contents.py): known families say yes or no, an open
family says no only for the add-ons it is known to lack, an unknown image never says no."""

from __future__ import annotations

import pytest

from docgen.base_contents import (
    architectures,
    brought_by,
    carries,
    dash_sh,
    family_name,
    is_plain,
    jetpack,
    l4t_cuda,
    l4t_release,
    runs_as_root,
)


@pytest.mark.parametrize(
    ("base", "names", "expected"),
    [
        # NGC's PyTorch carries NVIDIA's training stack under any spelling, lacks the add-ons
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["transformer_engine"], True),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["TransformerEngine"], True),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["Apex"], True),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["flash_attn"], True),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["Megatron-LM"], True),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["DeepSpeed"], False),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["vllm"], False),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["pandas"], None),  # it may hold any Python package
        # PyTorch's own image: no NVIDIA training components
        ("pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel", ["apex"], False),
        ("pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel", ["cudnn"], True),
        ("pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel", ["nvcc"], True),
        ("pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime", ["nvcc"], None),
        # AMD's: the ROCm stack and PyTorch, not DeepSpeed; flash-attention not known either way
        ("rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0", ["rccl", "hipblaslt"], True),
        ("rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0", ["deepspeed"], False),
        ("rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0", ["flash-attn"], None),
        # CUDA: its own libraries; cuDNN only in a -cudnn tag, nvcc only in -devel; never TensorRT
        ("nvidia/cuda:12.4.1-devel-ubuntu22.04", ["cudnn", "libcudnn9"], False),
        ("nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04", ["cudnn"], True),
        ("nvidia/cuda:11.3.1-cudnn8-runtime-ubuntu20.04", ["libcudnn8"], True),
        ("nvidia/cuda:12.4.1-runtime-ubuntu22.04", ["cublas", "nccl"], True),
        ("nvidia/cuda:12.4.1-runtime-ubuntu22.04", ["nvcc"], False),
        ("nvidia/cuda:12.4.1-base-ubuntu22.04", ["TensorRT"], False),
        ("registry.local:5000/nvidia/cuda:12.4.1-base-ubuntu22.04", ["TensorRT"], False),  # a mirror
        # ROCm's development image: the ROCm libraries, no framework
        ("rocm/dev-ubuntu-22.04:6.1.2-complete", ["rocBLAS"], True),
        ("rocm/dev-ubuntu-22.04:6.1.2-complete", ["pytorch"], False),
        # an operating system or a language carries no GPU component
        ("ubuntu:22.04", ["apex"], False),
        ("python:3.12-slim", ["python"], True),
        ("python:3.12-slim", ["cudnn"], False),
        # what the container runtime provides is in every image
        ("ubuntu:22.04", ["nvidia-smi"], True),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["nvidia-container-toolkit"], True),
        # an image named after the component carries it; an unknown image may carry anything
        ("vllm/vllm-openai:v0.6.3", ["vLLM"], True),
        ("myorg/trainer:2.1", ["deepspeed"], None),
        ("${BASE_IMAGE}", ["deepspeed"], None),
    ],
)
def test_what_a_base_image_carries(base: str, names: list[str], expected: bool | None) -> None:
    assert carries(base, names) is expected


def test_families_are_named_and_plain_ones_told() -> None:
    assert family_name("nvcr.io/nvidia/pytorch:24.05-py3") == "NGC PyTorch"
    assert family_name("myorg/trainer:2.1") is None
    assert is_plain("docker.io/library/ubuntu:22.04") and is_plain("python:3.11")
    assert not is_plain("nvidia/cuda:12.4.1-base-ubuntu22.04") and not is_plain("scratch")


def test_bases_that_set_no_user() -> None:
    # root unless the Dockerfile sets a USER: plain images, CUDA and ROCm images, NGC's
    assert runs_as_root("ubuntu:24.04") and runs_as_root("nvidia/cuda:12.6.3-runtime-ubuntu24.04")
    assert runs_as_root("rocm/dev-ubuntu-22.04:6.2") and runs_as_root("nvcr.io/nvidia/pytorch:24.05-py3")
    # not known: a conda image (micromamba sets a user), a project's own image, an L4T image
    assert not runs_as_root("mambaorg/micromamba:1.5") and not runs_as_root("ghcr.io/acme/server:2.1")
    assert not runs_as_root("nvcr.io/nvidia/l4t-base:r36.2.0")


def test_what_a_package_pulls_in() -> None:
    assert brought_by(["numpy", "vllm"], ["xformers"]) == "vllm"
    assert brought_by(["torch==2.4.0"], ["triton"]) is None  # a pin is no package name
    assert brought_by(["torch"], ["triton"]) == "torch"
    assert brought_by(["numpy", "deepspeed"], ["xformers"]) is None


@pytest.mark.parametrize(
    ("base", "published"),
    [
        ("nvcr.io/nvidia/l4t-cuda:12.2.12-devel", {"arm64"}),
        ("nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3", {"arm64"}),
        ("dustynv/ros:humble-pytorch-l4t-r35.3.1", {"arm64"}),
        ("nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04", {"amd64"}),
        ("nvidia/cuda:9.2-devel-ubuntu18.04", {"amd64"}),
        # multi-architecture: CUDA 11 and later have arm64 (SBSA) tags, NGC and OS images both
        ("nvidia/cuda:11.8.0-devel-ubuntu22.04", set()),
        ("nvcr.io/nvidia/cuda:12.6.3-devel-ubuntu24.04", set()),
        ("nvcr.io/nvidia/pytorch:24.10-py3", set()),
        ("ubuntu:22.04", set()),
        ("someuser/jetson-app:latest", set()),
    ],
)
def test_the_architectures_a_base_is_published_for(base: str, published: set[str]) -> None:
    assert architectures(base) == published


@pytest.mark.parametrize(
    ("base", "major"),
    [
        # an L4T release NVIDIA shipped a JetPack with: that JetPack
        ("nvcr.io/nvidia/l4t-base:r32.5.0", "4.5"),
        ("nvcr.io/nvidia/l4t-base:r32.4.3", "4.4"),
        ("nvcr.io/nvidia/l4t-base:r32.7.1", "4.6.1"),
        ("nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3", "5.1"),
        ("dustynv/ros:humble-desktop-r36.2.0", "6.0"),
        ("nvcr.io/nvidia/l4t-jetpack:r36.4.0", "6.1"),
        # a release not listed, or written to two parts: the major alone
        ("nvcr.io/nvidia/l4t-base:r32.2", "4"),
        ("nvcr.io/nvidia/l4t-base:r32.5.2", "4"),
        ("dustynv/ros:humble-r36.2", "6"),
        ("nvcr.io/nvidia/l4t-cuda:11.4.19-runtime", "5"),
        ("nvcr.io/nvidia/l4t-cuda:12.2.12-devel", "6"),
        ("nvcr.io/nvidia/l4t-cuda:10.2.460-runtime", "4"),
        # no release in the tag, or no Jetson image
        ("nvcr.io/nvidia/l4t-base:latest", None),
        ("nvcr.io/nvidia/l4t-ml:py3", None),
        ("nvidia/cuda:11.4.3-runtime-ubuntu20.04", None),
        ("ubuntu:r35.1", None),
    ],
)
def test_the_jetpack_a_jetson_base_is_of_is_read_off_its_l4t_or_cuda_release(
    base: str, major: str | None
) -> None:
    assert jetpack(base) == major


@pytest.mark.parametrize(
    ("base", "release"),
    [
        ("nvcr.io/nvidia/l4t-base:r36.2.0", "36.2.0"),
        ("dustynv/pytorch:2.1-r36.2.0", "36.2.0"),
        ("dustynv/ros:humble-desktop-l4t-r35.2.1", "35.2.1"),
        ("nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3", "35.2.1"),
        ("nvcr.io/nvidia/l4t-cuda:11.4.19-runtime", None),  # a CUDA release, no L4T one
        ("someone/app:2.1-r36.2.0", None),  # not a Jetson image docgen knows
        ("ubuntu:22.04", None),
    ],
)
def test_the_l4t_release_a_jetson_base_names(base: str, release: str | None) -> None:
    assert l4t_release(base) == release


@pytest.mark.parametrize(
    ("base", "cuda"),
    [
        ("nvcr.io/nvidia/l4t-base:r32.6.1", "10.2"),  # JetPack 4.6
        ("nvcr.io/nvidia/l4t-base:r32.3.1", "10.0"),  # JetPack 4.3
        ("nvcr.io/nvidia/l4t-ml:r32.7.1-py3", "10.2"),
        ("nvcr.io/nvidia/l4t-pytorch:r35.2.1-pth2.0-py3", "11.4"),  # JetPack 5.1
        ("nvcr.io/nvidia/l4t-jetpack:r36.3.0", "12.2"),  # JetPack 6.0
        ("nvcr.io/nvidia/l4t-jetpack:r36.4.0", "12.6"),  # JetPack 6.1
        ("nvcr.io/nvidia/l4t-base:r36.2", "12.2"),  # a release of two parts: its minor says enough
        # NVIDIA's CUDA image says its own; a community build may carry another CUDA
        ("nvcr.io/nvidia/l4t-cuda:11.4.19-runtime", None),
        ("dustynv/pytorch:2.1-r36.2.0", None),
        # a jetson-containers build of JetPack 4 or 5 is built on NVIDIA's image, with its CUDA
        ("dustynv/ros:noetic-desktop-l4t-r35.3.1", "11.4"),
        ("dustynv/jetson-inference:r32.6.1", "10.2"),
        ("dustynv/pytorch:2.1-r35.4.1-cu122", None),  # unless its tag names one of its own
        ("nvcr.io/nvidia/l4t-base:r36.4.0-cu128", None),
        # no release, or one docgen does not list
        ("nvcr.io/nvidia/l4t-base:latest", None),
        ("nvcr.io/nvidia/l4t-base:r31.1", None),
        ("nvidia/cuda:12.2.0-devel-ubuntu22.04", None),
    ],
)
def test_the_cuda_of_the_jetpack_an_nvidia_jetson_base_is_of(base: str, cuda: str | None) -> None:
    assert l4t_cuda(base) == cuda


@pytest.mark.parametrize(
    ("base", "dash"),
    [
        ("pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel", True),
        ("ubuntu:22.04", True),
        ("docker.io/library/debian:bookworm-slim", True),
        ("arm64v8/ubuntu:24.04", True),
        ("python:3.12-slim", True),
        ("continuumio/miniconda3:24.7.1-0", True),
        ("nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04", True),
        ("nvcr.io/nvidia/cuda:12.5.1-devel-ubuntu22.04", True),
        ("rocm/dev-ubuntu-22.04:6.2.4", True),
        ("rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0", True),
        ("registry.local:5000/ubuntu:22.04", True),
        # ash has `source`; an RPM distribution's sh is bash; Windows has none; unknown images say nothing
        ("python:3.12-alpine3.20", False),
        ("alpine:3.20", False),
        ("busybox", False),
        ("nvidia/cuda:12.4.1-devel-ubi9", False),
        ("nvidia/cuda:12.4.1-devel-rockylinux9", False),
        ("rockylinux:9", False),
        ("centos:7", False),
        ("fedora:40", False),
        ("python:3.12-windowsservercore", False),
        ("rocm/pytorch:latest", False),
        # NGC's framework containers: RUNs with `source` build on them (their sh is not known to be dash)
        ("nvcr.io/nvidia/pytorch:24.05-py3", False),
        ("nvcr.io/nvidia/tensorrt:23.04-py3", False),
        ("myorg/ubuntu:22.04", False),
        ("mambaorg/micromamba:1.5.8", False),
        ("${BASE_IMAGE}", False),
    ],
)
def test_bases_whose_sh_is_dash(base: str, dash: bool) -> None:
    assert dash_sh(base) is dash


def test_l4t_base_comes_without_the_frameworks_its_sibling_images_add() -> None:
    assert carries("nvcr.io/nvidia/l4t-base:r32.4.3", ["torch"]) is False
    assert carries("nvcr.io/nvidia/l4t-base:r35.1.0", ["scikit-learn", "pandas"]) is False
    # CUDA is mounted from the host on R32: not said either way
    assert carries("nvcr.io/nvidia/l4t-base:r32.4.3", ["cuda"]) is None
    # the images built on it that hold them
    assert carries("nvcr.io/nvidia/l4t-ml:r32.7.1-py3", ["torch"]) is None
    assert carries("nvcr.io/nvidia/l4t-pytorch:r32.7.1-pth1.10-py3", ["torch"]) is True


def test_oneapi_toolkit_images_carry_the_compilers_and_not_the_frameworks() -> None:
    assert carries("intel/oneapi-basekit:2024.2.1-0-devel-ubuntu22.04", ["intel-oneapi-mkl-devel"]) is True
    assert carries("intel/oneapi-hpckit:2025.0.0-0-devel-ubuntu24.04", ["dpcpp"]) is True
    basekit = "intel/oneapi-basekit:2024.2.1-0-devel-ubuntu22.04"
    assert carries(basekit, ["intel_extension_for_pytorch"]) is False
    assert carries("intel/oneapi-runtime:2025.1.0", ["torch"]) is False
    # what the toolkit may hold beyond its libraries is not said; the AI Tools image holds the frameworks
    assert carries("intel/oneapi-basekit:2024.2.1-0-devel-ubuntu22.04", ["cmake"]) is None
    assert carries("intel/oneapi-aikit:2024.1.0-devel-ubuntu22.04", ["intel-extension-for-pytorch"]) is None


def test_training_libraries_pull_in_transformers_and_nemo_is_in_no_framework_image() -> None:
    assert brought_by(["trl"], ["transformers"]) == "trl"
    assert brought_by(["peft"], ["accelerate"]) == "peft"
    assert brought_by(["accelerate"], ["transformers"]) is None  # Accelerate needs no Transformers
    assert carries("nvcr.io/nvidia/pytorch:25.03-py3", ["NeMo Framework Launcher"]) is False
    assert carries("nvcr.io/nvidia/pytorch:25.03-py3", ["nemo_toolkit"]) is False
    assert carries("nvcr.io/nvidia/nemo:24.12", ["nemo"]) is True  # its reference names it
