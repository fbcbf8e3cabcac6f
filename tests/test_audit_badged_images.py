"""`docgen.audit.badged_images`: Docker Hub badges about an image named for one framework, in the README
of an image named for another framework that the Dockerfile installs instead, are a `likely` finding
(a README copied from a sibling image); badges of the image itself, badges of several images, an image
that installs both, a base that may hold the framework, or a README whose own image is not named for
the framework installed are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = """\
ARG OWNER=acme
ARG BASE=$OWNER/lab-base
FROM $BASE
# Install the framework
RUN pip install --no-cache-dir torch torchvision
"""
README = """\
# Lab notebook stack

[![pulls](https://img.shields.io/docker/pulls/acme/tensorflow-lab.svg)](https://hub.docker.com/r/acme/tensorflow-lab/)
[![size](https://img.shields.io/docker/image-size/acme/tensorflow-lab/latest)](https://hub.docker.com/r/acme/tensorflow-lab/)

- [Lab specifics :: TensorFlow](https://lab.example.org/specifics.html#tensorflow)

```
docker build -t kim/lab:torch .
```
"""


def found(
    root: Path, readme: str = README, dockerfile: str = DOCKERFILE, folder: str = "pytorch-lab"
) -> list[str]:
    make_tree(root, {f"{folder}/Dockerfile": dockerfile, f"{folder}/README.md": readme})
    model = build_model(root / folder / "Dockerfile", f"{folder}/Dockerfile")
    diagnostics = audit(readme, f"{folder}/README.md", model, {}, root / folder)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics if "badges" in d.message]


def test_badges_of_a_sibling_image(tmp_path: Path) -> None:
    assert found(tmp_path) == [
        "3: README's badges are about acme/tensorflow-lab, a TensorFlow image, but pytorch-lab/Dockerfile "
        "installs no TensorFlow (it installs PyTorch, as the README's own image is named): the badges and "
        "the links copied with them describe another image (likely)"
    ]


def test_the_build_tag_names_the_image(tmp_path: Path) -> None:
    assert len(found(tmp_path, folder="lab")) == 1  # `-t kim/lab:torch`


@pytest.mark.parametrize(
    ("readme", "dockerfile", "folder"),
    [
        (README, DOCKERFILE.replace("torch torchvision", "torch tensorflow"), "pytorch-lab"),  # installs both
        (README, DOCKERFILE.replace("$OWNER/lab-base", "tensorflow/tensorflow:2.15.0-gpu"), "pytorch-lab"),
        (README.replace("tensorflow-lab", "pytorch-lab"), DOCKERFILE, "pytorch-lab"),  # its own badges
        (README.replace(":torch", ""), DOCKERFILE, "lab"),  # its own image names no framework
        (README.replace("pulls/acme/tensorflow-lab", "pulls/acme/pytorch-lab"), DOCKERFILE, "pytorch-lab"),
        (README.replace("tensorflow-lab", "lab"), DOCKERFILE, "pytorch-lab"),  # no framework in the name
    ],
)
def test_badges_that_say_nothing_false(tmp_path: Path, readme: str, dockerfile: str, folder: str) -> None:
    assert found(tmp_path, readme, dockerfile, folder) == []
