"""Tests for docgen.audit.fences: the comment of a command block heading a build of the image audited,
read as a sentence of its versions (`build_comments`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

TORCH = "FROM pytorch/pytorch:1.9.0-cuda10.2-cudnn7-runtime\nRUN pip install lmdb==1.2.1\n"
"""A Dockerfile whose base tag gives PyTorch 1.9.0 and CUDA 10.2 (the shape of `pytorch/pytorch`'s)."""


def _likely(readme: str, dockerfiles: dict[str, str]) -> list[str]:
    """`line: message (confidence)` of each finding of `audit`."""
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, None)]


def test_a_comment_over_the_build_states_the_image_s_versions() -> None:
    # the shape of a paper repository's docker README copied from a toolbox's: the comment kept the
    # toolbox's versions while the Dockerfile moved on
    readme = """\
# Docker

```shell
# build an image with PyTorch 1.6, CUDA 10.1
sudo docker build -t vsr .
```
"""
    assert _likely(readme, {"Dockerfile": TORCH}) == [
        "4: README says PyTorch 1.6 but Dockerfile:1 says 1.9.0 (likely)",
        "4: README says CUDA 10.1 but Dockerfile:1 says 10.2 (likely)",
    ]


def test_a_comment_over_a_build_of_the_image_s_folder() -> None:
    # the shape of a detection toolbox fork: `docker build -t name:1.5.0 docker/name/`
    readme = (
        "```shell\n# build an image with PyTorch 1.5, CUDA 10.1\ndocker build -t seg:1.5.0 docker/seg/\n```\n"
    )
    assert findings(readme, {"docker/seg/Dockerfile": TORCH}) == [
        "2: README says PyTorch 1.5 but docker/seg/Dockerfile:1 says 1.9.0",
        "2: README says CUDA 10.1 but docker/seg/Dockerfile:1 says 10.2",
    ]


def test_a_true_comment_is_silent() -> None:
    readme = "```bash\n# build an image with PyTorch 1.9.0, CUDA 10.2\ndocker build -t vsr .\n```\n"
    assert findings(readme, {"Dockerfile": TORCH}) == []


def test_comments_that_are_no_claim_about_the_image_built() -> None:
    readme = """\
```bash
# build an image with PyTorch 1.6, CUDA 10.1
docker build -t vsr-serve docker/serve/
# the CPU image, PyTorch 1.6
docker build -t vsr-cpu -f Dockerfile.cpu .
# build an image with PyTorch 1.6, CUDA 10.1

docker build -t vsr .
# the host needs CUDA 10.1 drivers or newer
docker build -t vsr .
# requires at least CUDA 10.1
docker build -t vsr .
# PyTorch 1.6, CUDA 10.1
docker pull example/other:latest
# For example, for a CUDA 10.1 and Python 3.7 build:
docker build -t vsr --build-arg BASE_IMAGE=pytorch/pytorch:1.6.0-cuda10.1-cudnn7-runtime .
```

```bash
# evaluate in a conda environment on the host with PyTorch 1.6
pip install torch==1.6.0 && docker build -t vsr .
```
"""
    assert findings(readme, {"docker/Dockerfile": TORCH}) == []


def test_a_comment_does_not_repeat_a_pin_the_command_line_tells() -> None:
    readme = "```bash\n# lmdb==1.0.0 here\ndocker build -t vsr .\n```\n"
    assert _likely(readme, {"Dockerfile": TORCH}) == [
        "2: README says lmdb 1.0.0 but Dockerfile:2 says 1.2.1 (certain)"
    ]


NGC_DOCKERFILE = (
    "FROM nvcr.io/nvidia/tensorflow:24.10-tf2-py3\nRUN apt-get update && apt-get install -y vim\n"
)
UPSTREAM_ONLY = (
    "# Model check\n\n## Images\n\n- `nvcr.io/nvidia/tensorflow:25.02-tf2-py3` (steps 1-2)\n"
    "- `nvcr.io/nvidia/tensorrt:25.06-py3` (steps 3-5)\n\n## Run\n\n```bash\n"
    "docker run --rm -it --gpus all -v $(pwd):/workspace nvcr.io/nvidia/tensorflow:25.02-tf2-py3 bash\n"
    "mkdir build && cd build && cmake .. && make -j4\n```\n\n"
    "```bash\ndocker pull nvcr.io/nvidia/tensorflow:25.02-tf2-py3\n```\n"
)


STEPS = (
    "#!/bin/bash\ndocker run --rm --gpus all -v $(pwd):/workspace \\\n"
    "  nvcr.io/nvidia/tensorflow:25.02-tf2-py3 python cifar10.py\n"
)


def test_the_upstream_image_a_readme_that_builds_none_runs_is_no_claim_of_the_base(tmp_path: Path) -> None:
    # the scripts beside the README run the same upstream tag: the README tells their workflow
    make_tree(tmp_path, {"run_steps.sh": STEPS, "Dockerfile": NGC_DOCKERFILE, "README.md": UPSTREAM_ONLY})
    assert findings(UPSTREAM_ONLY, {"Dockerfile": NGC_DOCKERFILE}, tmp_path) == []


def test_an_upstream_tag_no_script_runs_is_still_the_base_s(tmp_path: Path) -> None:
    # no script runs 25.02 (or one runs another tag): the README is the Dockerfile's, left behind
    make_tree(tmp_path, {"Dockerfile": NGC_DOCKERFILE, "README.md": UPSTREAM_ONLY})
    assert any(
        "25.02-tf2-py3 but Dockerfile:1 says" in f
        for f in findings(UPSTREAM_ONLY, {"Dockerfile": NGC_DOCKERFILE}, tmp_path)
    )
    make_tree(tmp_path, {"run_steps.sh": STEPS.replace("25.02", "24.10")})
    assert any(
        "25.02-tf2-py3 but Dockerfile:1 says" in f
        for f in findings(UPSTREAM_ONLY, {"Dockerfile": NGC_DOCKERFILE}, tmp_path)
    )


@pytest.mark.parametrize(
    "added",
    [
        "```bash\ndocker build -t check .\n```\n",  # the README builds its image
        "The Dockerfile adds vim to the image.\n",  # and speaks of the Dockerfile
        "```bash\ndocker compose up\n```\n",  # a compose build may make it
    ],
)
def test_a_readme_that_makes_its_image_still_claims_the_base(added: str) -> None:
    found = findings(UPSTREAM_ONLY + "\n" + added, {"Dockerfile": NGC_DOCKERFILE})
    assert any("25.02-tf2-py3 but Dockerfile:1 says" in f for f in found)


LAB = "FROM txn2/lab-base:v2.0.1\nRUN pip install nbdime==3.2.1\n"
"""An image built on the project's own base image, published at v2.0.1."""


def test_a_run_of_a_tag_the_readme_gives_its_own_build_is_no_base_claim() -> None:
    # the base rebuilt from another project's checkout and tagged by hand, then tried out: the README's
    # own image, not a stale base; a run of a tag nothing of the README makes stays a claim
    readme = """\
# Lab

## Rebuild the base from the upstream project

```bash
docker build -t txn2/lab-base:latest ./upstream/.build/
docker tag txn2/lab-base:latest txn2/lab-base:v1.0.0
docker run --rm -p 8888:8888 txn2/lab-base:v1.0.0
```

## Other ways to make the base

```bash
podman build --tag=txn2/lab-base:v1.1.0 ./alt/
docker run --rm txn2/lab-base:v1.1.0
```

## Run the published base

```bash
docker run --rm -p 8888:8888 txn2/lab-base:v1.9.0
```
"""
    assert _likely(readme, {"Dockerfile": LAB}) == [
        "21: README runs txn2/lab-base:v1.9.0 but Dockerfile:1 says txn2/lab-base:v2.0.1 (likely)",
    ]
