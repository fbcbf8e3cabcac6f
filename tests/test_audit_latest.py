"""`docgen.audit.latest`: a component the README says is at its latest release while the build pins it
exactly (a planted drift next to the nearest true statements)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.manifests import manifest_pins
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvcr.io/nvidia/pytorch:25.10-py3
ARG VLLM_VERSION=0.11.0
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt "vllm==${VLLM_VERSION}" transformers
"""
REQUIREMENTS = "gradio==5.4.0\nnotebook>=7\n"


def _audit(tmp_path: Path, readme: str) -> list[str]:
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    (tmp_path / "requirements.txt").write_text(REQUIREMENTS)
    manifest_pins.cache_clear()
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, tmp_path)
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- Gradio (latest)",
        "- **Gradio**: latest",
        "Ships the latest Gradio for the web UI.",
        "| Gradio (latest version) |",
    ],
)
def test_latest_against_an_exact_pin(tmp_path: Path, said: str) -> None:
    assert _audit(tmp_path, f"# Demo\n\n{said}\n") == [
        "3: README says Gradio is the latest release but requirements.txt:1 pins gradio==5.4.0 (likely)"
    ]


def test_latest_against_an_arg_default(tmp_path: Path) -> None:
    assert _audit(tmp_path, "# Demo\n\n- vLLM (latest)\n") == [
        "3: README says vLLM is the latest release but Dockerfile:2 pins 0.11.0 (likely)"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- Transformers (latest)",  # installed unpinned: the latest is what it gets
        "- Notebook (latest)",  # a range in the requirements file
        "- PyTorch (latest)",  # only the base image's tag says it
        "- **Latest Gradio**: uses Gradio 5.4.0",  # the line gives the version itself
        "Pull the latest image: `docker pull demo:latest`",  # about a tag
        "- Jupyter (latest)",  # nothing installs it under that name
    ],
)
def test_latest_not_contradicted(tmp_path: Path, said: str) -> None:
    assert _audit(tmp_path, f"# Demo\n\n{said}\n") == []


def test_latest_the_readme_gives_the_pinned_release_of(tmp_path: Path) -> None:
    # the README's list of tags says Gradio 5.4.0 is the release of its image: `latest` is that one
    readme = "# Demo\n\n- `demo:1.3` [2025-04-02]: Gradio (5.4.0) on Python\n\nTry the latest Gradio now.\n"
    assert _audit(tmp_path, readme) == []


def test_latest_the_readme_gives_another_release_of(tmp_path: Path) -> None:
    # the list names an older Gradio (5.3.0): the pin 5.4.0 is nowhere in the README, the claim stands
    readme = "# Demo\n\n- `demo:1.2` [2025-01-10]: Gradio (5.3.0) on Python\n\nTry the latest Gradio now.\n"
    assert _audit(tmp_path, readme) == [
        "3: README says Gradio 5.3.0 but requirements.txt:1 says gradio==5.4.0 (likely)",
        "5: README says Gradio is the latest release but requirements.txt:1 pins gradio==5.4.0 (likely)",
    ]


# A C++ stack that downloads a prebuilt library archive (named for the library, then its flavour), while
# a build arg for the same library is left from an older, commented-out download.
NATIVE = """\
FROM ubuntu:22.04
ARG ONNX_VERSION=1.16.3
ARG LIBTORCH_VERSION=1.13.0
RUN apt-get update && apt-get install -y wget unzip
# RUN wget https://download.pytorch.org/libtorch/cpu/libtorch-shared-with-deps-${LIBTORCH_VERSION}%2Bcpu.zip
RUN wget https://download.pytorch.org/libtorch/cpu/libtorch-cxx11-abi-shared-with-deps-2.0.1%2Bcpu.zip && \\
    unzip libtorch-cxx11-abi-shared-with-deps-2.0.1+cpu.zip && cp -r libtorch/* /usr/local/
RUN wget https://github.com/microsoft/onnxruntime/releases/download/v${ONNX_VERSION}/onnxruntime-linux-x64-${ONNX_VERSION}.tgz
"""


def _native(tmp_path: Path, readme: str) -> list[str]:
    (tmp_path / "Dockerfile").write_text(NATIVE)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "latest release" in d.message]


def test_a_list_item_naming_the_latest_release_with_a_dash(tmp_path: Path) -> None:
    readme = "# SLAM\n\nThe image includes:\n\n- ceres-2.1.0\n- libtorch-latest\n- OpenGV\n"
    assert _native(tmp_path, readme) == [
        "6: README says libtorch is the latest release but Dockerfile:6 pins "
        "libtorch-cxx11-abi-shared-with-deps 2.0.1+cpu (likely)"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- opengv-latest",  # nothing pins it
        "- base image `ubuntu-latest` runner",  # no list item of one name
        "Use `acme/slam:x86-latest` to pull the newest build.",  # an image's tag
    ],
)
def test_dashed_latest_not_contradicted(tmp_path: Path, said: str) -> None:
    assert _native(tmp_path, f"# SLAM\n\n{said}\n") == []


@pytest.mark.parametrize(
    "told",
    [
        # an env/arg list telling the reader which variable picks the release (an Ollama-on-Arc stack)
        "## Configuration\n\n- `VLLM_VERSION` - vLLM version to build\n",
        # a build command passing the arg (a serving image's "pick your release" step)
        "## Build\n\n```sh\ndocker build --build-arg VLLM_VERSION=0.12.0 -t demo .\n```\n",
        "| Arg | Meaning |\n|---|---|\n| VLLM_VERSION | release to install |\n",
    ],
)
def test_latest_of_a_release_the_readme_says_the_reader_sets(tmp_path: Path, told: str) -> None:
    """The README names the build arg holding the pin: the release is the reader's to set, and "latest"
    is what they pick, not a claim on the default."""
    assert _audit(tmp_path, f"# Demo\n\n- Latest vLLM with CUDA\n\n{told}") == []


@pytest.mark.parametrize(
    "told",
    [
        "## Build\n\n```sh\ndocker build --build-arg CUDA_ARCH=8.6 -t demo .\n```\n",  # another arg
        "## Notes\n\nThe vllm version is fixed.\n",  # no arg named
    ],
)
def test_latest_beside_no_setting_of_its_release(tmp_path: Path, told: str) -> None:
    found = _audit(tmp_path, f"# Demo\n\n- Latest vLLM with CUDA\n\n{told}")
    assert [f for f in found if "latest" in f] == [
        "3: README says vLLM is the latest release but Dockerfile:2 pins 0.11.0 (likely)"
    ]
