"""Components a list says the image holds, in the shapes the other list readers pass over: versioned
items, category lists inside a contents section, numbered or emoji-led headings, `an image with:`
(`docgen/audit/listed_components.py`); and `a container for X` (`docgen/audit/provides.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

TRAINER = """\
FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 AS build
RUN apt-get update && apt-get install -y python3.11 python3-pip git
# torch 2.3.1: better Lightfold compatibility than 2.4
RUN pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cu121
COPY requirements.txt /tmp/requirements.txt
RUN pip install -r /tmp/requirements.txt

FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3.11 python3-pip
COPY --from=build /usr/local/lib/python3.11/dist-packages /usr/local/lib/python3.11/dist-packages
ENTRYPOINT ["python3"]
"""
REQUIREMENTS = """\
# vision stack (Lightfold is installed at start, see below)
torchvision==0.18.1
optuna==3.6.1
sentencepiece
"""
TRAINER_README = """\
# Trainer image

This folder contains a GPU Docker image with:
- **Python 3.11**
- **PyTorch 2.3.1** with CUDA 12.4
- **Diffusers 0.30.1**
- **Lightfold** for faster fine-tuning
- All the training dependencies

## 🧰 What's Included

### Base Image
- NVIDIA CUDA 12.4.1 + cuDNN
- Ubuntu 22.04

### Libraries
- TorchVision 0.18.1
- Optuna 3.6.1 (tuning)
- Diffusers 0.30.1
- Polars 1.2.0

### Tools
- Label Studio (annotation)
- SentencePiece (tokenization)
- NumPy, Pandas, etc.
"""


def found(root: Path, files: dict[str, str]) -> list[str]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    diagnostics = audit(files["README.md"], "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics]


def lists(found: list[str]) -> list[str]:
    """The findings of a list's component the image does not hold."""
    return [f.split(" as in the image")[0] for f in found if " as in the image but " in f]


def test_versioned_and_category_items_the_image_never_installs(tmp_path: Path) -> None:
    files = {"Dockerfile": TRAINER, "requirements.txt": REQUIREMENTS, "README.md": TRAINER_README}
    got = found(tmp_path / "a", files)
    assert lists(got) == [
        "6: README lists Diffusers 0.30.1",
        "7: README lists Lightfold",  # named in comments only: `# … Lightfold compatibility`
        "20: README lists Polars 1.2.0",
        "23: README lists Label Studio",
    ]
    diffusers = next(f for f in got if f.startswith("6: "))
    assert diffusers == (
        "6: README lists Diffusers 0.30.1 as in the image but Dockerfile installs no Diffusers, and its base "
        "nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 (Dockerfile:1, a CUDA image) does not carry it; also "
        "at line 19 (likely)"
    )


def test_what_the_files_the_image_installs_bring_is_held(tmp_path: Path) -> None:
    requirements = REQUIREMENTS + "diffusers==0.30.1\npolars==1.2.0\nlabel-studio\nlightfold\n"
    files = {"Dockerfile": TRAINER, "requirements.txt": requirements, "README.md": TRAINER_README}
    assert lists(found(tmp_path / "a", files)) == []
    # a requirements file the partial copy does not hold may bring anything
    unread = {"Dockerfile": TRAINER, "README.md": TRAINER_README}
    assert lists(found(tmp_path / "b", unread)) == []


INFERENCE = """\
FROM nvcr.io/nvidia/pytorch:24.10-py3
RUN pip install trl==0.11.0 fastapi
WORKDIR /srv
"""
INFERENCE_README = """\
# Inference image

## 3. Included Components

### Base Image
- **NVIDIA PyTorch**: 24.10-py3 with CUDA 12.6

### Frameworks
- **TRL**: 0.11.0 for preference tuning
- **Transformers**: 4.45 (pulled in by TRL)
- **Transformer Engine**: fused attention kernels
- **NeMo Launcher**: 24.07 for cluster recipes
- **UCX**: fast transport

### System Tools
- **Build tools**: GCC, Make
- **Compression**: zstd for archives
"""


def test_a_framework_base_and_what_packages_pull_in_stay_silent(tmp_path: Path) -> None:
    files = {"Dockerfile": INFERENCE, "README.md": INFERENCE_README}
    # Transformers comes with TRL, Transformer Engine and UCX with NGC's image; NeMo's launcher is in
    # none of NVIDIA's framework images; category labels name no component
    assert lists(found(tmp_path / "a", files)) == ["12: README lists NeMo Launcher 24.07"]
    # installed by a clone's `pip install -e .`, whose dependencies docgen cannot read: no claim
    clone = INFERENCE + "RUN git clone https://github.com/example/recipes /r && pip install -e /r\n"
    assert lists(found(tmp_path / "b", {**files, "Dockerfile": clone})) == []


SERVER = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y nginx curl
"""


def test_lists_that_are_not_the_images_contents(tmp_path: Path) -> None:
    readme = """\
# Web server

## 2. Contents

- Built on Ubuntu 24.04
- Includes Redis Stack for caching
- **nginx**: 1.24 reverse proxy
- **OS**: Ubuntu 24.04
- **Runtime**: Valkey 8.0

## Requirements

- Docker 24.0
- Redis 7.2 on the host

## 📦 Installed

- Redis Stack 7.2 (downloaded at first start)
- Valkey 8.0
"""
    got = lists(found(tmp_path / "a", {"Dockerfile": SERVER, "README.md": readme}))
    # sentences are no names, a label of a named version (`**OS**: Ubuntu 24.04`) no component, a host's
    # needs are not the image's, a later download is not in it
    assert got == ["19: README lists Valkey 8.0"]


JAX_IMAGE = """\
FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu20.04
RUN apt-get update && apt-get install -y curl git mesa-utils
RUN curl -L https://github.com/pyenv/pyenv-installer/raw/master/bin/pyenv-installer | bash \\
    && ~/.pyenv/bin/pyenv install 3.10
"""


def test_a_container_for_a_framework_that_is_never_installed(tmp_path: Path) -> None:
    readme = "# Example\n\nThe files here build and run a Docker container for JAX, with OpenGL.\n"
    # pyenv's installer, piped into bash, installs pyenv alone: the image is read whole
    assert found(tmp_path / "a", {"Dockerfile": JAX_IMAGE, "README.md": readme}) == [
        "3: README says the image provides JAX but Dockerfile installs no JAX (likely)"
    ]
    installed = JAX_IMAGE + 'RUN pip install "jax[cuda11_pip]"\n'
    assert found(tmp_path / "b", {"Dockerfile": installed, "README.md": readme}) == []
    # what it is for is not a component: running, a GPU, a platform
    for said in ("a Docker container for running JAX", "a container for NVIDIA GPUs", "an image for Jetson"):
        other = f"# Example\n\nThis builds {said}.\n"
        assert found(tmp_path / said.replace(" ", "-"), {"Dockerfile": JAX_IMAGE, "README.md": other}) == []
    # an installer piped into a shell that docgen does not know may install anything
    unknown = JAX_IMAGE.replace(
        "github.com/pyenv/pyenv-installer/raw/master/bin/pyenv-installer", "example.com/x"
    )
    assert found(tmp_path / "c", {"Dockerfile": unknown, "README.md": readme}) == []


def test_what_an_image_for_a_component_includes_is_read_as_what_it_includes(tmp_path: Path) -> None:
    readme = "# Example\n\nThe Docker image for the demo includes **Optax**.\n"
    assert found(tmp_path / "a", {"Dockerfile": JAX_IMAGE, "README.md": readme}) == [
        "3: README says the image provides Optax but Dockerfile installs no Optax (likely)"
    ]
