"""`docgen.audit.base_claims`: the base a sentence says the image is built on (an image repository, a
distribution) against the images its FROM lines name. Planted drifts and the nearest true statements
as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


CUDA = "FROM nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN apt-get update\n"
PLAIN = "FROM ubuntu:22.04\nRUN apt-get update\n"


@pytest.mark.parametrize(
    "sentence",
    [
        "Docker image for the toolkit, based on the official"
        " [rocm/pytorch](https://hub.docker.com/r/rocm/pytorch) image.",
        "This image is built on top of `rocm/pytorch`.",
        "The container is derived from **rocm/pytorch**.",
    ],
)
def test_a_base_repository_no_from_names(tmp_path: Path, sentence: str) -> None:
    found = _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", CUDA)
    assert found == [
        "3: README says the image is based on rocm/pytorch but Dockerfile:1 says FROM "
        "nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04 (likely)"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "This image is based on the official `nvidia/cuda` image.",  # the registry prefix aside
        "Based on coreweave/nccl-tests.",  # a repository of code, not said to be an image
        "You can also build it on top of `rocm/pytorch` instead.",  # advice, a choice
        "The image was based on `rocm/pytorch` before 2024.",  # the past
        "The image is based on Ubuntu.",  # the tag names Ubuntu
    ],
)
def test_the_nearest_true_statements(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", CUDA) == []


def test_a_distribution_the_base_does_not_hold(tmp_path: Path) -> None:
    said = "# Toolkit\n\nThis image is based on **archlinux** and needs 38GB.\n\nIt is based on Debian.\n"
    assert _audit(tmp_path, said, PLAIN) == [
        "3: README says the image is based on Arch Linux but Dockerfile:1 says FROM ubuntu:22.04 (likely)",
        "5: README says the image is based on Debian but Dockerfile:1 says FROM ubuntu:22.04 (likely)",
    ]


def test_a_base_that_names_no_distribution_may_hold_any(tmp_path: Path) -> None:
    said = "# Toolkit\n\nThis image is based on archlinux.\n"
    assert _audit(tmp_path, said, "FROM rocm/pytorch:latest\n") == []
    assert _audit(tmp_path, said, "ARG BASE=ubuntu:22.04\nFROM ${BASE}\n") != []  # a default, expanded
    assert _audit(tmp_path, said, "FROM archlinux:base\n") == []


def test_a_base_the_project_builds_itself(tmp_path: Path) -> None:
    # the README's images are `acme/trainer`; `acme/torch` is another of its own (a stage of the same
    # Dockerfile, `torch_stage`): the project builds it, and the FROM names it only through a build arg
    said = (
        "# Trainer\n\nThe [`acme/trainer`](https://hub.docker.com/r/acme/trainer) images are built on top"
        " of the [`acme/torch`](https://hub.docker.com/r/acme/torch) images.\n"
    )
    staged = "FROM ubuntu:22.04 AS torch_stage\nRUN apt-get update\nFROM torch_stage AS trainer\n"
    assert _audit(tmp_path, said, staged) == []
    other = said.replace("acme/trainer", "zeta/trainer")
    assert _audit(tmp_path / "other", other, "FROM ubuntu:22.04 AS build\n") == [
        "3: README says the image is based on acme/torch but Dockerfile:1 says FROM ubuntu:22.04 (likely)"
    ]


def test_a_dockerfile_the_image_is_built_from_is_no_base(tmp_path: Path) -> None:
    said = "# Toolkit\n\nThe image is built from `docker/Dockerfile.cuda` on top of the CUDA image.\n"
    make_tree(tmp_path, {"docker/Dockerfile.cuda": CUDA})  # the file it names is there
    assert _audit(tmp_path, said, CUDA) == []


# --------------------------------------------------------------------------------------------------
# A base named by its product (`the Intel oneAPI HPC Toolkit`, `NGC PyTorch`), not its repository


@pytest.mark.parametrize(
    ("sentence", "product"),
    [
        ("This image is based on the Intel oneAPI HPC Toolkit.", "Intel oneAPI HPC Toolkit"),
        ("The container is built on top of NGC PyTorch.", "NGC PyTorch"),
        ("It is derived from the oneAPI Base Toolkit image.", "oneAPI Base Toolkit"),
        ("This image is based on NVIDIA's PyTorch container.", "NVIDIA's PyTorch container"),
        ("The image is built on top of the ROCm dev image.", "ROCm dev image"),
        ("It is built on the AMD ROCm development container.", "AMD ROCm development container"),
    ],
)
def test_a_base_product_none_of_the_images_starts_from(tmp_path: Path, sentence: str, product: str) -> None:
    assert _audit(tmp_path, sentence + "\n", PLAIN) == [
        f"1: README says the image is based on {product} but Dockerfile:1 says FROM ubuntu:22.04 (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        # the true statements: the product's image, under a registry too
        (
            "This image is based on the Intel oneAPI HPC Toolkit.",
            "FROM intel/oneapi-hpckit:2024.2.1-devel-ubuntu22.04\n",
        ),
        ("The container is built on top of NGC PyTorch.", "FROM nvcr.io/nvidia/pytorch:24.05-py3\n"),
        ("This image is based on NVIDIA's PyTorch container.", "FROM nvcr.io/nvidia/pytorch:25.01-py3\n"),
        ("The image is built on top of the ROCm dev image.", "FROM rocm/dev-ubuntu-22.04:6.2.4\n"),
        ("The image is built on top of the ROCm dev image.", "FROM docker.io/rocm/dev-almalinux-8:6.3\n"),
        # a base that names no distribution may be built on it (a build arg, the project's own image)
        ("This image is based on the Intel oneAPI HPC Toolkit.", "FROM acme/sycl-base:1.0\n"),
        (
            "This image is based on the Intel oneAPI HPC Toolkit.",
            "ARG BASE=intel/oneapi-hpckit\nFROM $BASE\n",
        ),
        # no longer, or a choice
        ("This image is no longer based on the Intel oneAPI HPC Toolkit.", PLAIN),
        ("You can build it on the NGC PyTorch image instead.", PLAIN),
    ],
)
def test_base_products_that_are_no_finding(tmp_path: Path, sentence: str, dockerfile: str) -> None:
    assert _audit(tmp_path, sentence + "\n", dockerfile) == []


def test_a_base_product_is_compared_per_image(tmp_path: Path) -> None:
    readme = (
        "## sycl\n\nThe [sycl/Dockerfile](sycl/Dockerfile) image is based on the oneAPI HPC Toolkit.\n\n"
        "## torch\n\nThe [torch/Dockerfile](torch/Dockerfile) image is built on top of NGC PyTorch.\n"
    )
    make_tree(
        tmp_path,
        {
            "README.md": readme,
            "sycl/Dockerfile": "FROM ubuntu:24.04\nRUN apt-get update\n",
            "torch/Dockerfile": "FROM nvcr.io/nvidia/pytorch:24.05-py3\nRUN pip install x\n",
        },
    )
    models = [build_model(tmp_path / p, p) for p in ("sycl/Dockerfile", "torch/Dockerfile")]
    found = [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]
    assert found == [
        "3: README says the image is based on oneAPI HPC Toolkit but sycl/Dockerfile:1 says FROM ubuntu:24.04"
    ]


CUDA_DEVEL = "FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu24.04\nRUN pip3 install torch tensorflow jax\n"


def test_a_base_product_named_before_what_the_image_adds(tmp_path: Path) -> None:
    # `other` after `and includes …` is about the libraries the image adds, not a choice of base
    sentence = (
        "It is based on the official NVIDIA PyTorch image and includes TensorFlow, Jax, and other libraries."
    )
    assert _audit(tmp_path, sentence + "\n", CUDA_DEVEL) == [
        "1: README says the image is based on NVIDIA PyTorch image but Dockerfile:1 says FROM "
        "nvidia/cuda:12.8.1-cudnn-devel-ubuntu24.04 (likely)"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        # a choice, the past, a condition anywhere in the sentence
        "It is based on the NVIDIA PyTorch image, or on any other CUDA image you like.",
        "It was based on the NVIDIA PyTorch image and now starts from CUDA.",
        "It is based on the NVIDIA PyTorch image, unless you build the slim variant.",
        # `other`, `your` in the clause naming the base
        "It is based on the NVIDIA PyTorch image of your choice.",
        # a lower layer of the real base is no product of the table (CUDA under NGC PyTorch)
        "It is based on the official NVIDIA CUDA image and adds PyTorch.",
    ],
)
def test_base_product_sentences_that_stay_silent(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, sentence + "\n", CUDA_DEVEL) == []
    assert _audit(tmp_path / "ngc", sentence + "\n", "FROM nvcr.io/nvidia/pytorch:25.01-py3\n") == []


# --------------------------------------------------------------------------------------------------
# A repository named with no tag, in more shapes, and bases that may be built on it


@pytest.mark.parametrize(
    "sentence",
    [
        "The image is based on rocm/pytorch.",  # plain, at the sentence's end
        "This image uses `rocm/pytorch` as its base image.",
        "The container uses the official rocm/pytorch image as base.",
        "This container starts from `rocm/pytorch` and adds the server.",
        "We build on top of the official rocm/pytorch image.",
        "It is based on [ROCm PyTorch](https://hub.docker.com/r/rocm/pytorch).",  # the link's target
    ],
)
def test_a_tagless_repository_in_more_shapes(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", PLAIN) == [
        "3: README says the image is based on rocm/pytorch but Dockerfile:1 says FROM ubuntu:22.04 (likely)"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Unlike rocm/pytorch, this image is based on Ubuntu.",  # about another image
        "You can also use rocm/pytorch as the base image.",  # advice
        "Images are pushed to rocm/pytorch.",  # where it goes, not what it is built on
        "The image was based on rocm/pytorch before 2024.",  # the past
        "The container starts from the `/workspace` directory.",  # a folder, not an image
        "This image uses `rocm/pytorch` to build the wheels.",  # no `as base`
    ],
)
def test_tagless_traps(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", PLAIN) == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        "FROM acme/vision:cuda12-cudnn9-tf2\n",  # a project's own image: itself built on nvidia/cuda
        "FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel\n",  # built on the CUDA image
        "ARG BASE=nvidia/cuda:12.4.1-devel-ubuntu22.04\nFROM ${BASE}\n",  # the arg's default names it
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\nFROM ubuntu:22.04\n",  # a stage's base
    ],
)
def test_a_base_that_may_be_built_on_the_repository(tmp_path: Path, dockerfile: str) -> None:
    said = "# Vision\n\nThe Dockerfile is based on the official nvidia/cuda image with cuDNN.\n"
    assert _audit(tmp_path, said, dockerfile) == []


def test_a_base_of_another_gpu_stack_is_not_built_on_it(tmp_path: Path) -> None:
    said = "# Vision\n\nThe Dockerfile is based on the official rocm/pytorch image.\n"
    assert _audit(tmp_path, said, "FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel\n") == [
        "3: README says the image is based on rocm/pytorch but Dockerfile:1 says FROM "
        "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel (likely)"
    ]


def test_a_long_sentence_of_many_claims_is_read_once(tmp_path: Path) -> None:
    """A sentence saying `uses X as its base` n times was searched whole for a word making it no claim
    and for a subject before each: n² (1,000 claims: 90 s; the 3,000 here would take many minutes).
    The same for `based on`. Each claim is still read: the base no FROM names is found."""
    claims = "uses `rocm/pytorch` as its base and is based on `rocm/pytorch` and " * 3000
    readme = f"# Toolkit\n\nThis image {claims}more.\n"
    found = _audit(tmp_path, readme, CUDA)
    assert found and all(f.startswith("3: README says the image is based on rocm/pytorch but") for f in found)


@pytest.mark.parametrize(
    "sentence",
    [
        "This image is based on nvidia/container-images/l4t-base.",  # a project path on a code host
        "The container is built on top of `gitlab-group/images/cuda-base`.",
    ],
)
def test_a_three_part_name_without_a_registry_is_no_image(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", PLAIN) == []


def test_a_registry_name_of_three_parts_is_still_an_image(tmp_path: Path) -> None:
    found = _audit(
        tmp_path, "# Toolkit\n\nThis image is based on `registry.example.org/team/rocm-base`.\n", PLAIN
    )
    assert found == [
        "3: README says the image is based on registry.example.org/team/rocm-base but Dockerfile:1 says FROM "
        "ubuntu:22.04 (likely)"
    ]


GRAPH = "FROM nvcr.io/nvidia/cugraph/cugraph:cuda12.2_ubuntu22.04\nRUN pip install networkx==3.4.2\n"


@pytest.mark.parametrize(
    "sentence",
    [
        "This Dockerfile builds an image derived from the latest"
        " [cuGraph image](nvcr.io/nvidia/cugraph/cugraph:latest) with Jupyter added.",
        "The image is based on `nvcr.io/nvidia/cugraph/cugraph:latest`.",
        "This image builds on top of the latest nvidia/cugraph/cugraph image.",
    ],
)
def test_a_base_said_to_be_the_latest_that_from_pins(tmp_path: Path, sentence: str) -> None:
    # the same repository, but FROM pins a fixed tag: the image does not follow the newest build
    assert _audit(tmp_path, f"# Graph lab\n\n{sentence}\n", GRAPH) == [
        "3: README says the image is based on the latest nvidia/cugraph/cugraph but Dockerfile:1 says FROM "
        "nvcr.io/nvidia/cugraph/cugraph:cuda12.2_ubuntu22.04, a fixed tag (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile", "said"),
    [
        # an operating system's image is read as any other: a snapshot is kept whatever `latest` becomes
        (
            "The base container, based on the `debian:latest` image.",
            "FROM debian:bookworm-20250101\n",
            "Dockerfile:1 says FROM debian:bookworm-20250101, a fixed tag",
        ),
        (
            "The base container, based on the `debian:latest` image.",
            "FROM debian:bookworm-20250101 AS build\nRUN true\nFROM debian:bookworm-20250202\n",
            "Dockerfile:1 says FROM debian:bookworm-20250101, "
            "Dockerfile:3 says FROM debian:bookworm-20250202, fixed tags",
        ),
    ],
)
def test_a_base_said_at_latest_while_from_pins_a_tag(
    tmp_path: Path, sentence: str, dockerfile: str, said: str
) -> None:
    """One rule, one message for a base said to be the newest, whether `latest` is a word before a
    repository or its tag, an operating system's image or another (`_fixed_tag`)."""
    found = _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", dockerfile + "RUN true\n")
    assert found == [f"3: README says the image is based on the latest debian but {said} (likely)"]


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        ("This image is based on the latest Debian.", "FROM debian:bookworm-20250101\n"),  # no tag
        ("This image is based on `debian:latest`.", "FROM debian:latest\n"),
        ("This image is based on `debian:latest`.", "FROM debian\n"),  # no tag is latest
        ("This image is based on `debian:latest`.", "ARG BASE=debian:latest\nFROM ${BASE}\n"),
        ("This image is based on `debian:latest`.", "ARG BASE=debian:bookworm\nFROM ${BASE}\n"),  # a choice
        ("This image is based on `debian:latest`.", "FROM debian@sha256:" + "a" * 64 + "\n"),
    ],
)
def test_latest_base_traps(tmp_path: Path, sentence: str, dockerfile: str) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", dockerfile + "RUN true\n") == []


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        # the sentence names the release it calls the newest: the newest when it was written (a ROCm
        # inpainting image's feature list, a CUDA graph lab's intro)
        (
            "- **ROCm 7.1.1 Support**: Uses the latest official `rocm/pytorch` base image.",
            "FROM rocm/pytorch:rocm7.1.1_ubuntu22.04_py3.11_pytorch_release_2.10.0\n",
        ),
        (
            "This image builds on top of the latest nvidia/cugraph/cugraph image (CUDA 12.2).",
            "FROM nvcr.io/nvidia/cugraph/cugraph:cuda12.2_ubuntu22.04\n",
        ),
    ],
)
def test_a_latest_base_whose_release_the_sentence_names(
    tmp_path: Path, sentence: str, dockerfile: str
) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", dockerfile + "RUN true\n") == []
    # a release the tag does not hold is no such name: the finding stays
    other = sentence.replace("7.1.1", "7.0.2").replace("12.2)", "12.8)")
    told = _audit(tmp_path / "b", f"# Toolkit\n\n{other}\n", dockerfile + "RUN true\n")
    repository = "rocm/pytorch" if "rocm" in dockerfile else "nvidia/cugraph/cugraph"
    assert [f for f in told if "based on the latest" in f] == [
        f"3: README says the image is based on the latest {repository}"
        f" but Dockerfile:1 says FROM {dockerfile.split()[1]}, a fixed tag (likely)"
    ]


def test_a_modified_version_of_a_repository_at_latest_while_from_pins_a_tag(tmp_path: Path) -> None:
    readme = "# Toolkit\n\nModified version of `nvidia/cuda:latest` container, with a shell.\n"
    assert _audit(tmp_path, readme, "FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04\nRUN true\n") == [
        "3: README says the image is based on the latest nvidia/cuda but Dockerfile:1 says FROM "
        "nvidia/cuda:12.2.0-runtime-ubuntu22.04, a fixed tag (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        # FROM follows latest itself: no tag, `:latest`, or latest held by a digest
        ("The image is based on the latest `nvidia/cugraph/cugraph` image.", "FROM nvidia/cugraph/cugraph\n"),
        ("The image is based on `nvidia/cugraph/cugraph:latest`.", "FROM nvidia/cugraph/cugraph:latest\n"),
        (
            "The image is based on the latest `nvidia/cugraph/cugraph` image.",
            "FROM nvidia/cugraph/cugraph@sha256:" + "a" * 64 + "\n",
        ),
        # a tag from a build arg may be the newest
        (
            "The image is based on `nvidia/cugraph/cugraph:latest`.",
            "ARG TAG=cuda12.2_ubuntu22.04\nFROM nvidia/cugraph/cugraph:${TAG}\n",
        ),
        # a pinned tag named as such, and advice
        ("The image is based on `nvidia/cugraph/cugraph:cuda12.2_ubuntu22.04`.", GRAPH),
        ("You can base your own image on `nvidia/cugraph/cugraph:latest` instead.", GRAPH),
        # the latest of a word that names no repository
        ("The image is based on the latest Ubuntu.", "FROM ubuntu:22.04\n"),
    ],
)
def test_latest_base_traps_of_a_pinned_repository(tmp_path: Path, sentence: str, dockerfile: str) -> None:
    assert _audit(tmp_path, f"# Graph lab\n\n{sentence}\n", dockerfile) == []


ROOT_CUDA = "FROM nvidia/cuda:12.8.0-devel-ubuntu22.04\nRUN pip install deepspeed==0.16.4\n"


@pytest.mark.parametrize(
    "sentence",
    [
        # a file list of a cluster acceptance-test image
        "- Dockerfile — image based on nvcr.io/nvidia/pytorch:24.07-py3.",
        # a serving image's overview
        "This container is built on top of `nvcr.io/nvidia/tritonserver:24.05-py3`.",
    ],
)
def test_a_framework_image_said_while_from_is_the_cuda_image_under_it(tmp_path: Path, sentence: str) -> None:
    found = _audit(tmp_path, f"# Cluster test\n\n{sentence}\n", ROOT_CUDA)
    assert (
        len(found) == 1
        and "but Dockerfile:1 says FROM nvidia/cuda:12.8.0-devel-ubuntu22.04 (likely)" in found[0]
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "The image is based on the official nvidia/cuda image.",  # the base itself
        "You can base your own image on nvcr.io/nvidia/pytorch:24.07-py3 instead.",  # advice
        "The image was previously based on nvcr.io/nvidia/pytorch:24.07-py3.",  # history
        "The image is based on nvcr.io/nvidia/pytorch:24.07-py3 or nvidia/cuda.",  # a choice
    ],
)
def test_traps_beside_the_cuda_image(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Cluster test\n\n{sentence}\n", ROOT_CUDA) == []


def test_the_framework_image_over_a_cuda_base_is_still_silent(tmp_path: Path) -> None:
    # the base of the base: an NGC PyTorch image is built on nvidia/cuda
    said = "# Cluster test\n\nThe image is based on the official nvidia/cuda image.\n"
    assert _audit(tmp_path, said, "FROM nvcr.io/nvidia/pytorch:24.07-py3\n") == []


# --------------------------------------------------------------------------------------------------
# `uses NAME base image`: the words after the name say it is the base, with or without a subject


@pytest.mark.parametrize(
    "sentence",
    [
        # a feature bullet with a bold lead-in and no subject (modelled on an inpainting UI's README)
        "- **ROCm 6.3 Support**: Uses the latest official `rocm/pytorch` base image.",
        # a paragraph on running with a GPU (modelled on a speech project's README)
        "The project runs in a container with GPU acceleration."
        " It uses the official rocm/pytorch base image.",
        "Uses a `rocm/pytorch` docker base image.",
    ],
)
def test_a_repository_a_sentence_uses_as_base_image(tmp_path: Path, sentence: str) -> None:
    dockerfile = (
        "ARG PLATFORM=linux/amd64\nFROM --platform=${PLATFORM} ubuntu:22.04\nRUN pip3 install torch\n"
    )
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", dockerfile) == [
        "3: README says the image is based on rocm/pytorch but Dockerfile:2 says FROM ubuntu:22.04 (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        # the base of another stage: the builder starts from it
        (
            "Uses the official `rocm/dev-ubuntu-22.04` base image.",
            "FROM rocm/dev-ubuntu-22.04:6.3 AS build\nRUN make\n"
            "FROM rocm/pytorch:latest\nCOPY --from=build /o /o\n",
        ),
        # the same image under another name, not the base itself
        ("Uses the same base image as rocm/pytorch.", "FROM ubuntu:22.04\n"),
        # a base named through a build arg's default
        ("Uses the latest official `rocm/pytorch` base image.", "ARG BASE=rocm/pytorch\nFROM ${BASE}\n"),
        # history
        ("It used to use the official `rocm/pytorch` base image.", "FROM ubuntu:22.04\n"),
        ("Uses the official `rocm/pytorch` base image if you pass BASE.", "FROM ubuntu:22.04\n"),
        # the true statement, with the registry prefix aside
        ("Uses the latest official `rocm/pytorch` base image.", "FROM docker.io/rocm/pytorch:latest\n"),
        # the name used for something else than the base
        ("Uses `rocm/pytorch` images to build the wheels.", "FROM ubuntu:22.04\n"),
    ],
)
def test_uses_base_image_traps(tmp_path: Path, sentence: str, dockerfile: str) -> None:
    assert _audit(tmp_path, f"# Toolkit\n\n{sentence}\n", dockerfile) == []


NODE_CUDA = (
    "FROM nvidia/cuda:12.2.2-cudnn8-devel-ubuntu22.04 AS build\nRUN true\n"
    "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\nRUN true\n"
)


@pytest.mark.parametrize(
    "sentence",
    [
        # a Node.js + OpenCV image's feature list, a video pipeline's overview: the newest releases of a
        # family of images, praised, not a tag
        "- **GPU support:** Built on the latest [official CUDA images](https://hub.docker.com/r/nvidia/cuda)"
        " to enable GPU acceleration.",
        "The image is built on top of the latest [CUDA](https://hub.docker.com/r/nvidia/cuda) images.",
    ],
)
def test_the_latest_images_of_a_hub_page_are_no_tag(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Node OpenCV\n\n{sentence}\n", NODE_CUDA) == []


def test_the_latest_image_of_a_hub_page_is_still_read(tmp_path: Path) -> None:
    # one image said to be the newest (the link's text singular): FROM pins another tag
    sentence = "The image is based on the latest [CUDA image](https://hub.docker.com/r/nvidia/cuda)."
    assert _audit(tmp_path, f"# Node OpenCV\n\n{sentence}\n", NODE_CUDA) == [
        "3: README says the image is based on the latest nvidia/cuda but Dockerfile:1 says FROM "
        "nvidia/cuda:12.2.2-cudnn8-devel-ubuntu22.04, Dockerfile:3 says FROM "
        "nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04, fixed tags (likely)"
    ]


# --------------------------------------------------------------------------------------------------
# A base of the project's own organisation, another than the one the FROM names


SIBLING = (
    "ARG TAG=12.4.1-devel-ubuntu22.04\nFROM acme/cuda-python:${TAG}-python3.12\nRUN pip install poetry\n"
)


def test_another_image_of_the_organisation_than_the_from_names(tmp_path: Path) -> None:
    # the README names `acme/llama-server` too (its own image): the base it names is still compared,
    # since the FROM says which of the organisation's images the Dockerfile starts from
    said = (
        "# llama server\n\nThis is a Docker image based on `acme/cuda-poetry` that installs the server.\n\n"
        "```bash\ndocker run --rm -p 8000:8000 acme/llama-server\n```\n"
    )
    assert _audit(tmp_path, said, SIBLING) == [
        "3: README says the image is based on acme/cuda-poetry but Dockerfile:2 says FROM "
        "acme/cuda-python:12.4.1-devel-ubuntu22.04-python3.12 (likely)"
    ]


@pytest.mark.parametrize(
    "base",
    [
        "acme/cuda-python",  # the one the FROM names
        "acme/cuda",  # one the FROM's may be built on (`cuda-python` holds its words)
        "zeta/cuda-poetry",  # another organisation's: the FROM's image, unknown, may be built on it
    ],
)
def test_a_base_of_the_organisation_that_may_be_under_the_from(tmp_path: Path, base: str) -> None:
    said = (
        f"# llama server\n\nThis is a Docker image based on `{base}` that installs the server.\n\n"
        "```bash\ndocker run --rm -p 8000:8000 acme/llama-server\n```\n"
    )
    assert _audit(tmp_path, said, SIBLING) == []


@pytest.mark.parametrize(
    ("said", "dockerfile"),
    [
        # a Jetson image on the maintainer's OpenCV layer, the README naming the layer under it
        (
            "Images are based on [lab/l4t-base](https://github.com/lab/docker-tegra/tree/l4t-base).",
            "FROM lab/tegra-opencv:jp-r32.4.2-cv-4.3.0\nRUN true\n",
        ),
        # a notebook stack: the science image stands on the organisation's base notebook
        (
            "This image is based on `stacks/base-notebook`.",
            "FROM stacks/scipy-notebook:2024-01-15\nRUN true\n",
        ),
        (
            "The image is built on top of `stacks/minimal-notebook`.",
            "FROM stacks/torch-notebook:cuda12\nRUN true\n",
        ),
    ],
)
def test_the_organisations_base_layer_under_the_from(tmp_path: Path, said: str, dockerfile: str) -> None:
    """The named image is the organisation's bottom layer (`-base`, `base-`, `minimal`): its other image
    the FROM names may stand on it."""
    assert _audit(tmp_path, f"# Images\n\n{said}\n", dockerfile) == []


def test_a_layer_over_the_organisations_base_is_still_told(tmp_path: Path) -> None:
    """The other way round: the README names the upper image while the FROM is the base layer."""
    said = "# Images\n\nThis image is based on `lab/tegra-opencv`.\n"
    assert _audit(tmp_path, said, "FROM lab/l4t-base:r32.4.2\nRUN true\n") == [
        "3: README says the image is based on lab/tegra-opencv but Dockerfile:1 says FROM "
        "lab/l4t-base:r32.4.2 (likely)"
    ]


def test_a_sibling_said_as_the_past_is_not_told(tmp_path: Path) -> None:
    said = "# llama server\n\nThe image was based on `acme/cuda-poetry` until v0.3.\n"
    assert _audit(tmp_path, said, SIBLING) == []


# A base said of every Dockerfile of the README that one of them does not start from (`_every_claim`).

CUDAGL = "FROM nvidia/cudagl:11.4.2-base-ubuntu20.04\nRUN apt-get update && apt-get install -y curl\n"
LAYERED = "FROM gpu_ros:latest\nRUN pip3 install stable-baselines3\n"
"""A Dockerfile built on the project's own image (tagged by the README's build of the first)."""
TF = "FROM tensorflow/tensorflow:latest-gpu\nRUN pip install gym\n"
ROCM_DEV = "FROM rocm/dev-ubuntu-22.04:6.2\nRUN apt-get update\n"


def _family(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {**files, "README.md": readme})
    models = [build_model(root / path, path) for path in files]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, root)]


def test_a_base_every_dockerfile_is_said_to_start_from(tmp_path: Path) -> None:
    files = {"gpu_ros.dockerfile": CUDAGL, "rl.dockerfile": LAYERED, "tf/tf_ros.dockerfile": TF}
    readme = "These Dockerfiles start from the **nvidia/cudagl** image and add ROS.\n"
    assert _family(tmp_path / "gl", readme, files) == [
        "1: README says the Dockerfiles are based on nvidia/cudagl but tf/tf_ros.dockerfile:1 says FROM "
        "tensorflow/tensorflow:latest-gpu (likely)"
    ]
    # a ROCm family, `All images are built on`, one on a plain OS image
    files = {"a/Dockerfile": ROCM_DEV, "b/Dockerfile": ROCM_DEV, "c/Dockerfile": PLAIN}
    readme = "# Stack\n\nAll images are built on top of `rocm/dev-ubuntu-22.04`.\n"
    assert _family(tmp_path / "rocm", readme, files) == [
        "3: README says the Dockerfiles are based on rocm/dev-ubuntu-22.04 but c/Dockerfile:1 says FROM "
        "ubuntu:22.04 (likely)"
    ]


def test_every_dockerfile_base_traps_stay_silent(tmp_path: Path) -> None:
    # each starts from it, or from the project's own image built on it
    files = {"gpu_ros.dockerfile": CUDAGL, "rl.dockerfile": LAYERED}
    readme = "These Dockerfiles start from the **nvidia/cudagl** image and add ROS.\n"
    assert _family(tmp_path / "own", readme, files) == []
    # a sentence about one image: the TensorFlow one is another image of the README
    files = {"gpu_ros.dockerfile": CUDAGL, "tf/tf_ros.dockerfile": TF}
    one = "The ROS image is based on the **nvidia/cudagl** image.\n"
    assert _family(tmp_path / "one", one, files) == []
    # a choice of bases
    choice = "The images can be built on `nvidia/cudagl` or on TensorFlow's image.\n"
    assert _family(tmp_path / "choice", choice, files) == []
    # a base that may be built on it: an image docgen does not know
    unknown = {"gpu_ros.dockerfile": CUDAGL, "x.dockerfile": "FROM example/robot-gl:2.0\nRUN true\n"}
    assert _family(tmp_path / "unknown", readme, unknown) == []
