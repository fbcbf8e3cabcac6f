"""`docgen.audit.base_labels`: the base a label states (`Base image: …`, a `Base image` row, a list item
that is one base reference, `Debian Bullseye based`) against the images the FROM lines name. Planted
drifts and the nearest true statements as traps; the READMEs and Dockerfiles are small models written
for these tests, after the shapes public image READMEs use.
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

NGC = "FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN pip install einops==0.8.0\n"
CUDA_BASE = (
    "FROM nvidia/cuda:11.3.0-base-ubuntu20.04 AS base\nRUN apt-get update && apt-get install -y python3-pip\n"
)
THROUGH_ARGS = """\
ARG CUDA_VERSION=12.4.1
ARG BASE=nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04
FROM ${BASE} AS build
RUN make
FROM build AS final
RUN echo done
"""
SLIM = "FROM python:3.11-slim-bookworm\nRUN pip install flask==3.0.3\n"


def _sure(readme: str, dockerfiles: dict[str, str]) -> list[str]:
    """`line: message (confidence)` of each finding."""
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, None)]


@pytest.mark.parametrize(
    "label",
    [
        "Base image: `nvidia/cuda:12.4.1-devel-ubuntu22.04`",
        "**Base image**: nvidia/cuda:12.4.1-devel-ubuntu22.04",
        "- **Base image:** [nvidia/cuda:12.4.1-devel-ubuntu22.04](https://hub.docker.com/r/nvidia/cuda)",
        "基础镜像：nvidia/cuda:12.4.1-devel-ubuntu22.04",
    ],
)
def test_a_labelled_base_of_a_repository_no_stage_starts_from(label: str) -> None:
    assert _sure(f"# Trainer\n\n{label}\n", {"Dockerfile": NGC}) == [
        "3: README says the base image is nvidia/cuda:12.4.1-devel-ubuntu22.04 but Dockerfile:1 says FROM "
        "nvcr.io/nvidia/pytorch:24.08-py3 (certain)"
    ]


def test_a_base_image_row_of_a_two_column_table() -> None:
    readme = (
        "# Trainer\n\n| Item | Value |\n|---|---|\n| Python | 3.10 |\n"
        "| **Base image** | `nvidia/cuda:12.4.1-devel-ubuntu22.04` |\n"
    )
    assert _sure(readme, {"Dockerfile": NGC}) == [
        "6: README says the base image is nvidia/cuda:12.4.1-devel-ubuntu22.04 but Dockerfile:1 says FROM "
        "nvcr.io/nvidia/pytorch:24.08-py3 (certain)"
    ]


@pytest.mark.parametrize(
    "label",
    [
        "Base image: `nvcr.io/nvidia/pytorch` (monthly release)",  # the repository FROM uses, no tag
        "Base image: pytorch:24.08-py3 from [NGC](https://catalog.ngc.nvidia.com)",  # a registry aside
        "Base image: `nvidia/cuda:12.4.1-devel-ubuntu22.04` or `rocm/dev-ubuntu-22.04:6.4`",  # a choice
        "Base image: your own CUDA image, e.g. `nvidia/cuda:12.4.1-devel-ubuntu22.04`",  # advice
        "Base image: `${BASE_IMAGE}`",  # a placeholder
        "Base image: [docker/Dockerfile.base](docker/Dockerfile.base)",  # a file of the project
        "Base image: `acme/trainer-base:1.2` (built by `make base`), see also `acme/trainer:latest`",  # ours
    ],
)
def test_the_nearest_true_labels(label: str) -> None:
    assert _sure(f"# Trainer\n\n{label}\n", {"Dockerfile": NGC}) == []


def test_a_column_of_bases_is_about_each_row_s_image() -> None:
    readme = (
        "# Images\n\n| Image | Base image |\n|---|---|\n| cuda | `nvidia/cuda:12.4.1-devel-ubuntu22.04` |\n"
    )
    assert _sure(readme, {"Dockerfile": NGC}) == []


def test_a_base_through_build_args_and_a_stage_chain_agrees() -> None:
    readme = "# Builder\n\n- Base: `nvidia/cuda:12.4.1-devel-ubuntu22.04`\n- Python: system\n"
    assert _sure(readme, {"Dockerfile": THROUGH_ARGS}) == []


def test_a_sibling_s_base_in_a_family_is_not_this_image_s() -> None:
    rocm = "FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nRUN echo rocm\n"
    readme = "# Images\n\n## ROCm\n\nBase image: rocm/dev-ubuntu-22.04:6.4.1-complete\n"
    assert findings(readme, {"Dockerfile.cuda": NGC, "Dockerfile.rocm": rocm}) == []


def test_another_variant_of_the_base_repository() -> None:
    readme = "# Torch\n\nBase image: nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04\n"
    assert _sure(readme, {"Dockerfile": CUDA_BASE}) == [
        "3: README says the base image is nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04 but Dockerfile:1 says "
        "FROM nvidia/cuda:11.3.0-base-ubuntu20.04 (certain)"
    ]


def test_a_list_item_that_is_only_the_base_reference() -> None:
    readme = """\
`docker pull ghcr.io/acme/pyt:cuda11.3`

- nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04
- python 3.8
"""
    assert _sure(readme, {"Dockerfile": CUDA_BASE}) == [
        "3: README says the base image is nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04 but Dockerfile:1 says "
        "FROM nvidia/cuda:11.3.0-base-ubuntu20.04 (likely)"
    ]


def test_the_base_reference_in_a_list_of_the_images_versions_is_certain() -> None:
    # the list is nothing but the image's versions (`wording.listed_versions`): its base as plainly said
    readme = """\
`docker pull ghcr.io/acme/pyt:cuda11.3`

- nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04
- python 3.8
- numpy 1.21.4
- torch 1.10.1
"""
    assert _sure(readme, {"Dockerfile": CUDA_BASE}) == [
        "3: README says the base image is nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04 but Dockerfile:1 says "
        "FROM nvidia/cuda:11.3.0-base-ubuntu20.04 (certain)"
    ]
    # the nearest trap: the same list introduced as the host's
    hosted = readme.replace("- nvidia/cuda", "Tested on the host:\n- nvidia/cuda")
    assert all(not finding.endswith("(certain)") for finding in _sure(hosted, {"Dockerfile": CUDA_BASE}))


@pytest.mark.parametrize(
    "readme",
    [
        # a list of bases to choose from: two references of the repository
        "Supported bases:\n\n- nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04\n"
        "- nvidia/cuda:11.3.0-base-ubuntu20.04\n",
        # the same variant, another version: a version claim, said once elsewhere
        "- nvidia/cuda:11.3.0-base-ubuntu20.04\n- python 3.8\n",
        # the project's published images, not a base repository
        "- ghcr.io/acme/pyt:cuda11.3\n- ghcr.io/acme/pyt:cuda11.1\n",
    ],
)
def test_list_items_that_say_nothing_of_the_base(readme: str) -> None:
    assert _sure(readme, {"Dockerfile": CUDA_BASE}) == []


def test_a_distribution_a_label_or_the_based_suffix_names() -> None:
    readme = "# App\n\n**Base**: Alpine\n\nA Debian Bullseye based image.\n"
    assert _sure(readme, {"Dockerfile": SLIM}) == [
        "3: README says the image is based on Alpine but Dockerfile:1 says FROM "
        "python:3.11-slim-bookworm (certain)",
        "5: README says Debian 11 but Dockerfile:1 says 12 (bookworm) (likely)",
    ]


@pytest.mark.parametrize(
    "said",
    [
        "A Debian Bookworm based image.",  # the codename FROM has
        "A Debian-based image.",  # the distribution alone
        "Runs on any Debian or Alpine based host.",  # the host, a choice
        "For example an Alpine-based image needs musl wheels.",  # an example
    ],
)
def test_the_nearest_true_based_claims(said: str) -> None:
    assert _sure(f"# App\n\n{said}\n", {"Dockerfile": SLIM}) == []


def test_an_ubuntu_edition_before_its_version() -> None:
    # a line of nothing but the image's stack says it as plainly as a table
    readme = "# Torch\n\nUbuntu Server 20.04 with Python 3.10 and CUDA 11.8.\n"
    dockerfile = "FROM nvidia/cuda:11.8.0-base-ubuntu22.04\nRUN apt-get update\n"
    assert _sure(readme, {"Dockerfile": dockerfile}) == [
        "3: README says Ubuntu 20.04 but Dockerfile:1 says 22.04 (certain)"
    ]
    # in a sentence saying more, the edition is still read, as a likely claim
    said = readme.replace("Ubuntu Server", "Built for Ubuntu Server")
    assert _sure(said, {"Dockerfile": dockerfile}) == [
        "3: README says Ubuntu 20.04 but Dockerfile:1 says 22.04 (likely)"
    ]


def test_words_inside_a_reference_are_no_choice() -> None:
    readme = "# SDK\n\nBase image: `registry.example.com/acme/cuda:12.4.1-devel-ubuntu22.04`\n"
    assert _sure(readme, {"Dockerfile": NGC}) == [
        "3: README says the base image is registry.example.com/acme/cuda:12.4.1-devel-ubuntu22.04 but "
        "Dockerfile:1 says FROM nvcr.io/nvidia/pytorch:24.08-py3 (certain)"
    ]


NGC_PYTORCH = "FROM nvcr.io/nvidia/pytorch:20.10-py3\nRUN pip install onnx==1.8.0\n"


def test_a_reference_alone_under_a_base_image_heading_is_labelled_by_it() -> None:
    readme = "# DeepLearningLab\n\n# Base image\nnvcr.io/nvidia/tensorrt:20.10-py3\n\n* Ubuntu 18.04\n"
    assert _sure(readme, {"Dockerfile": NGC_PYTORCH}) == [
        "4: README says the base image is nvcr.io/nvidia/tensorrt:20.10-py3 but Dockerfile:1 says "
        "FROM nvcr.io/nvidia/pytorch:20.10-py3 (certain)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "# Lab\n\n## Base image\nnvcr.io/nvidia/pytorch:20.10-py3\n",  # the base itself
        "# Lab\n\n## Base images\nnvcr.io/nvidia/tensorrt:20.10-py3\n",  # several: one of a list
        "# Lab\n\n## Base image\nBuilt on nvcr.io/nvidia/tensorrt:20.10-py3 or your own.\n",  # a choice
        "# Lab\n\n## Usage\nnvcr.io/nvidia/tensorrt:20.10-py3\n",  # no label
    ],
)
def test_a_reference_under_a_heading_that_is_no_label_of_it(readme: str) -> None:
    assert all(not finding.endswith("(certain)") for finding in _sure(readme, {"Dockerfile": NGC_PYTORCH}))


OWN = "FROM someuser/nvidia-cuda-12.6.1-cudnn-devel-ubuntu24.04-python-3.12\nRUN pip install torch==2.8.0\n"


@pytest.mark.parametrize(
    ("label", "dockerfile"),
    [
        ("Base image example: `someuser/nvidia-cuda-13.0.2-cudnn-devel-ubuntu24.04-python-3.12`", OWN),
        (
            "**Base image example:** nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04",
            OWN.replace(
                "someuser/nvidia-cuda-12.6.1-cudnn-devel-ubuntu24.04-python-3.12",
                "nvidia/cuda:12.6.1-cudnn-devel-ubuntu24.04",
            ),
        ),
    ],
)
def test_an_example_base_of_the_same_name_at_other_versions(label: str, dockerfile: str) -> None:
    found = _sure(f"# Torch image\n\n{label}\n", {"Dockerfile": dockerfile})
    assert len(found) == 1
    assert found[0].startswith("3: README says the base image is ")
    assert found[0].endswith("(likely)")
    assert "13.0.2" in found[0] and "12.6.1" in found[0]


@pytest.mark.parametrize(
    "label",
    [
        "Base image example: `someuser/nvidia-cuda-12.6.1-cudnn-devel-ubuntu24.04-python-3.12`",
        "Base image example: `nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04`",
        "Base image example: `someuser/rocm-7.0-ubuntu24.04-python-3.12`",
        "Base image example: `someuser/nvidia-cuda-13.0.2-cudnn-devel-ubuntu24.04-python-3.12` or your own",
    ],
)
def test_an_example_of_another_image_is_just_an_example(label: str) -> None:
    assert _sure(f"# Torch image\n\n{label}\n", {"Dockerfile": OWN}) == []


def test_a_label_whose_value_is_the_fenced_block_below_it() -> None:
    readme = (
        "# vLLM server\n\nBase image example:\n```\n\n"
        "someuser/nvidia-cuda-13.0.2-cudnn-devel-ubuntu24.04-python-3.12\n\n```\n"
    )
    labelled = (
        "# Server\n\n**Base image:**\n```\n"
        "someuser/nvidia-cuda-11.8.0-cudnn-devel-ubuntu22.04-python-3.12\n```\n"
    )
    assert [f[:3] for f in _sure(labelled, {"Dockerfile": OWN})] == ["5: "]
    nightly = OWN.replace(
        "12.6.1-cudnn-devel-ubuntu24.04-python-3.12", "12.8.1-cudnn-devel-ubuntu24.04-python-3.12:latest"
    )
    # told on the line that holds the value (the block's), not on the label's
    assert _sure(readme, {"Dockerfile": OWN, "Dockerfile.nightly": nightly}) == [
        "6: README says the base image is someuser/nvidia-cuda-13.0.2-cudnn-devel-ubuntu24.04-python-3.12 "
        "but Dockerfile:1 says FROM someuser/nvidia-cuda-12.6.1-cudnn-devel-ubuntu24.04-python-3.12 (likely)"
    ]
    # an example that is one of the images' bases (its `:latest` implied) agrees
    assert _sure(readme.replace("13.0.2", "12.8.1"), {"Dockerfile": OWN, "Dockerfile.nightly": nightly}) == []
    # a block that is the README's example Dockerfile is no value: it says nothing here
    example = (
        "# vLLM\n\nBase image example:\n```dockerfile\nFROM someuser/nvidia-cuda-13.0.2-x\nRUN ls\n```\n"
    )
    assert _sure(example, {"Dockerfile": OWN}) == []


TRANSCODER = """\
FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04
ARG X264_VERSION=164
RUN apt-get update && apt-get install -y yasm nasm
"""


@pytest.mark.parametrize(
    "label",
    [
        "- Based on: `nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04`",
        "**Built on:** nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04",
        "* Built on top of: [nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04](https://hub.docker.com/r/nvidia/cuda)",
    ],
)
def test_a_based_on_label_naming_another_variant_of_the_base(label: str) -> None:
    readme = f"# Transcoder\n\n## Image overview\n\n{label}\n- GPU features: NVENC, NVDEC\n"
    assert _sure(readme, {"Dockerfile": TRANSCODER}) == [
        "5: README says the base image is nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04 but Dockerfile:1 says "
        "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 (certain)"
    ]


def test_a_based_on_label_naming_another_repository_or_distribution() -> None:
    readme = "# Transcoder\n\n- Based on: `jrottenberg/ffmpeg:6.1-nvidia`\n- Built from: Alpine\n"
    assert _sure(readme, {"Dockerfile": TRANSCODER}) == [
        "3: README says the base image is jrottenberg/ffmpeg:6.1-nvidia but Dockerfile:1 says FROM "
        "nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 (certain)",
        "4: README says the image is based on Alpine but Dockerfile:1 says FROM "
        "nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 (certain)",
    ]


@pytest.mark.parametrize(
    "label",
    [
        "- Based on: `nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04`",  # the base itself
        "- Based on: Ubuntu 22.04",  # the base's distribution
        "- Based on: `jrottenberg/ffmpeg`",  # no tag: maybe the project the Dockerfile is modelled on
        "- Based on: [FFmpeg](https://ffmpeg.org) 7.0 sources",
        "- Built from: `nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04` or your own CUDA image",
        "- Based on the work in `someone/transcode:v2`, thanks!",  # a sentence, not a label
    ],
)
def test_a_based_on_label_that_agrees_or_names_no_base_image(label: str) -> None:
    assert _sure(f"# Transcoder\n\n{label}\n", {"Dockerfile": TRANSCODER}) == []


CUDNN_DEVEL = "FROM nvidia/cuda:13.0.1-cudnn-devel-ubuntu24.04\nRUN apt-get install -y cmake\n"


def test_a_labelled_base_of_another_version_and_variant_is_certain() -> None:
    # `**Base**: ref` under the image's heading states the base as a table cell would: the version moved
    # and the variant with it (`cudnn-` added), so no tag of the same shape compares it
    readme = "# Course images\n\n**Base**: `nvidia/cuda:12.9.1-devel-ubuntu22.04`\n"
    assert _sure(readme, {"Dockerfile": CUDNN_DEVEL}) == [
        "3: README says the base image is nvidia/cuda:12.9.1-devel-ubuntu22.04 but Dockerfile:1 says "
        "nvidia/cuda:13.0.1-cudnn-devel-ubuntu24.04 (certain)"
    ]
    # in a sentence, or with a second image on the line, it stays `likely`
    for said in (
        "The image is based on `nvidia/cuda:12.9.1-devel-ubuntu22.04`.",
        "**Base**: `nvidia/cuda:12.9.1-devel-ubuntu22.04` (CUDA), `rocm/dev-ubuntu-22.04:7.0` (ROCm)",
    ):
        found = _sure(f"# Course images\n\n{said}\n", {"Dockerfile": CUDNN_DEVEL})
        assert found and all(f.endswith("(likely)") for f in found), found


ROOT_CUDA = "FROM nvidia/cuda:12.8.0-devel-ubuntu22.04\nRUN pip install deepspeed==0.16.4\n"


@pytest.mark.parametrize(
    "said",
    [
        # a cluster acceptance-test image's opening sentence
        "Small example that builds a container (base: nvcr.io/nvidia/pytorch:24.07-py3) and runs a job.",
        # a robotics package's overview of its container build
        "The `Dockerfile` (base image: `nvcr.io/nvidia/isaac-ros:humble-2024.1`) adds the launch files.",
    ],
)
def test_a_base_labelled_in_parentheses(said: str) -> None:
    found = _sure(f"# Cluster test\n\n{said}\n", {"Dockerfile": ROOT_CUDA})
    assert len(found) == 1 and "(certain)" in found[0] and "says FROM nvidia/cuda:12.8.0-devel" in found[0]


@pytest.mark.parametrize(
    "said",
    [
        "Builds a container (base: nvidia/cuda:12.8.0-devel-ubuntu22.04) and runs a job.",  # the base
        "Builds a container (base: nvidia/cuda:12.8.0 for GPU, ubuntu:22.04 for CPU).",  # several images
        "Builds a container (base: your own CUDA image) and runs a job.",  # a choice
        "Builds a container (base: see docker/Dockerfile.base) and runs a job.",  # a file of the project
    ],
)
def test_labels_in_parentheses_that_agree_or_say_nothing(said: str) -> None:
    assert _sure(f"# Cluster test\n\n{said}\n", {"Dockerfile": ROOT_CUDA}) == []


@pytest.mark.parametrize(
    "after",
    [
        # the label names the upstream image, the lines below say it is not FROM's (a Jupyter stack's shape)
        "This image is so large that it cannot be used as a base image.\nGenerating a Dockerfile to build.\n",
        # a Dockerfile rebuilt from the upstream's own (a lab image that replays a vendor's Dockerfiles)
        "We rebuild it from the upstream Dockerfiles instead, see [the notes](./gpu/NOTES.md).\n",
        "The Dockerfile here is generated from its repository's sources.\n",
    ],
)
def test_a_label_its_section_says_is_not_used_as_the_base(after: str) -> None:
    label = "# Lab images\n\n### gpu\nBase image: labstack/gpu-notebook\n"
    assert _sure(f"{label}\n{after}", {"Dockerfile": CUDA_BASE}) == []
    # the same label without those words is told, and with them in another section
    assert [f.split(":")[0] for f in _sure(label, {"Dockerfile": CUDA_BASE})] == ["4"]
    apart = f"{label}\n### Notes\n\n{after}"
    assert [f.split(":")[0] for f in _sure(apart, {"Dockerfile": CUDA_BASE})] == ["4"]
