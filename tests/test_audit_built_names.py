"""`docgen audit`: a sentence right above a build command naming an image the command does not tag
(docgen/audit/built_names.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = "FROM python:3.12-slim\nRUN pip install --no-cache-dir evalkit==1.2.0\nWORKDIR /evalkit\n"
BUILD = "```bash\ndocker build -t acme/eval-kit:latest -f gpu.dockerfile .\n```\n"


def _audited(tmp_path: Path, sentence: str, build: str = BUILD) -> list[str]:
    readme = f"# Eval kit\n\n## Build\n\n{sentence}\n{build}"
    make_tree(tmp_path, {"README.md": readme, "gpu.dockerfile": DOCKERFILE})
    model = build_model(tmp_path / "gpu.dockerfile", "gpu.dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message}" for d in found if "builds the" in d.message]


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("Please follow the command below to build the lumen-text-gen image.", "lumen-text-gen"),
        ("Build the `lumen-serve` image:", "lumen-serve"),
        ("To build it from the Dockerfile, run this to create the lumen_bench docker image.", "lumen_bench"),
    ],
)
def test_a_build_under_another_image_name(tmp_path: Path, sentence: str, name: str) -> None:
    assert _audited(tmp_path, sentence) == [
        f"5: README says the command builds the {name} image but it tags acme/eval-kit:latest (line 7)"
    ]


@pytest.mark.parametrize(
    ("sentence", "build"),
    [
        # the name shares a word with the tag, or with the Dockerfile the command names
        ("Build the eval-kit-cuda image:", BUILD),
        ("Build the serve-gpu image:", BUILD),
        # a description, not a name
        ("Build the multi-arch image:", BUILD),
        ("Build the pre-built image again:", BUILD),
        ("Build the Lumen-Text image:", BUILD),
        # the sentence names the tag's repository too
        ("Build the lumen-text-gen image (tagged eval-kit):", BUILD),
        # a tag the reader fills in
        ("Build the lumen-text-gen image:", BUILD.replace("acme/eval-kit:latest", "$IMAGE_NAME")),
        ("Build the lumen-text-gen image:", BUILD.replace("acme/eval-kit:latest", "<your-name>")),
        # no tag, no build word, no build command
        ("Build the lumen-text-gen image:", BUILD.replace("-t acme/eval-kit:latest ", "")),
        ("The lumen-text-gen image is older; for this one:", BUILD),
        ("Build the lumen-text-gen image:", "```bash\ndocker run --rm acme/eval-kit:latest\n```\n"),
        # the sentence is not right above the block
        ("Build the lumen-text-gen image.\n\nThen, for this repository:\n", BUILD),
    ],
)
def test_a_name_the_build_agrees_with_or_no_name(tmp_path: Path, sentence: str, build: str) -> None:
    assert _audited(tmp_path, sentence, build) == []


# `tagged_builds`: the tag a sentence says a build gives, against the block's build or the script it runs.

TENSOR_DOCKERFILE = "FROM nvcr.io/nvidia/tensorrt:24.10-py3\nRUN pip install onnx==1.16.0\n"
BUILD_SCRIPT = (
    "#!/bin/bash\nset -e\necho building\n"
    'docker build --progress=plain . -f docker/Dockerfile -t quantlab_opt:24.10 "$@"\n'
    'echo "built quantlab_opt:24.10"\n'
)


def _tagged(tmp_path: Path, sentence: str, block: str, script: str = BUILD_SCRIPT) -> list[str]:
    readme = f"# quantlab\n\n## Environment\n\n{sentence}\n\n```bash\n{block}\n```\n\nThen run it.\n"
    make_tree(
        tmp_path, {"README.md": readme, "docker/Dockerfile": TENSOR_DOCKERFILE, "docker/build.sh": script}
    )
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "the build makes" in d.message]


def test_a_script_build_tagged_otherwise_than_the_sentence_says(tmp_path: Path) -> None:
    assert _tagged(
        tmp_path, "Build the image (it will be tagged quantlab_opt:latest)", "./docker/build.sh"
    ) == [
        "5: README says the build makes quantlab_opt:latest, but ./docker/build.sh (run at line 8) tags "
        "quantlab_opt:24.10 (likely)"
    ]
    assert _tagged(tmp_path, "This builds the image `quantlab_opt:24.04`:", "bash docker/build.sh") == [
        "5: README says the build makes quantlab_opt:24.04, but docker/build.sh (run at line 8) tags "
        "quantlab_opt:24.10 (certain)"
    ]


def test_a_command_build_named_otherwise(tmp_path: Path) -> None:
    block = "docker build -t voxd/server:2.0 -f docker/Dockerfile ."
    assert _tagged(tmp_path, "This creates an image named `voxd/server:2.1`.", block) == [
        "5: README says the build makes voxd/server:2.1, but the command at line 8 tags "
        "voxd/server:2.0 (certain)"
    ]
    # no tag in the sentence's name: the command's repository is the one named (`latest` is implied)
    assert _tagged(tmp_path, "The image is tagged `voxd/server`.", "docker build -t voxd/server -f x .") == []
    assert _tagged(tmp_path, "The image is tagged `voxd/client`.", "docker build -t voxd/server -f x .") == [
        "5: README says the build makes voxd/client, but the command at line 8 tags voxd/server (certain)"
    ]


@pytest.mark.parametrize(
    ("sentence", "block", "script"),
    [
        # the tag the script gives
        ("Build the image (it will be tagged quantlab_opt:24.10)", "./docker/build.sh", BUILD_SCRIPT),
        # a tag read from a variable with no default: any name may be made
        (
            "Build the image (tagged quantlab_opt:latest)",
            "./docker/build.sh",
            "docker build -t quantlab_opt:$VER .\n",
        ),
        # the reader passes a tag of their own
        (
            "Build the image (tagged quantlab_opt:latest)",
            "./docker/build.sh -t quantlab_opt:latest",
            BUILD_SCRIPT,
        ),
        # a name the reader chooses
        (
            "Build it, tagged `myname:dev` or any name of your own",
            "docker build -t quantlab:1 .",
            BUILD_SCRIPT,
        ),
        # a placeholder
        ("The image will be tagged `quantlab_opt:<version>`", "./docker/build.sh", BUILD_SCRIPT),
        # a script that builds through another one
        ("Build the image (tagged quantlab_opt:latest)", "./docker/build.sh", "./docker/inner.sh\n"),
        # no build in the block
        ("The image is tagged `quantlab_opt:latest`", "docker run --rm quantlab_opt:latest", BUILD_SCRIPT),
        # a script that is not there
        ("Build the image (tagged quantlab_opt:latest)", "./tools/build.sh", BUILD_SCRIPT),
    ],
)
def test_a_tag_the_build_agrees_with_or_cannot_be_told(
    tmp_path: Path, sentence: str, block: str, script: str
) -> None:
    assert _tagged(tmp_path, sentence, block, script) == []


# `tagged_builds` of a compose build: a service with no `image:` is tagged `<project>-<service>` by
# Compose, one with `image:` by that name; the service's or container's name is no image.

NOTEBOOK_COMPOSE = """\
services:
  nb-lab:
    build: .
    container_name: nb-lab
    ports:
      - "8888:8888"
"""
ASR_COMPOSE = """\
services:
  asr:
    build:
      context: .
      dockerfile: docker/Dockerfile
    image: voxline/asr:gpu
  cache:
    image: redis:7
"""


def _composed(
    tmp_path: Path, sentence: str, block: str, compose: str, extra: dict[str, str] | None = None
) -> list[str]:
    folder = tmp_path / "lab"
    readme = f"# Lab\n\n## Build\n\n{sentence}\n\n```bash\n{block}\n```\n"
    make_tree(
        folder,
        {"README.md": readme, "docker/Dockerfile": TENSOR_DOCKERFILE, "docker-compose.yml": compose}
        | (extra or {}),
    )
    model = build_model(folder / "docker/Dockerfile", "docker/Dockerfile")
    found = audit(readme, "README.md", [model], {}, folder)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "the build makes" in d.message]


def test_a_compose_build_said_to_tag_the_service_name(tmp_path: Path) -> None:
    # a notebook stack: the sentence gives the service's (and container's) name as the image's tag
    assert _composed(
        tmp_path / "a",
        "Run this once to build the image (tag: `nb-lab`):",
        "docker compose up --build",
        NOTEBOOK_COMPOSE,
    ) == [
        "5: README says the build makes nb-lab, but the docker compose command at line 8 builds service "
        "nb-lab (docker-compose.yml:2), which has no image: key, and tags lab-nb-lab (certain)"
    ]
    # a speech server whose service names its image: the service name is no tag of it
    assert _composed(
        tmp_path / "b", "This builds an image named `asr`.", "docker-compose build asr", ASR_COMPOSE
    ) == [
        "5: README says the build makes asr, but the docker compose command at line 8 builds service asr "
        "(docker-compose.yml:2), which its image: key tags voxline/asr:gpu (certain)"
    ]


@pytest.mark.parametrize(
    ("sentence", "block", "compose", "extra"),
    [
        # the name Compose gives: the folder's, then the service's (and under `-p`, any project)
        ("Build the image (tag: `lab-nb-lab`):", "docker compose up --build", NOTEBOOK_COMPOSE, None),
        ("Build the image (tagged `shop_nb-lab`):", "docker-compose -p shop build", NOTEBOOK_COMPOSE, None),
        # the service's image: key names what it builds
        (
            "Build the image (tag: `nb-lab`):",
            "docker compose build",
            NOTEBOOK_COMPOSE.replace("    build: .\n", "    build: .\n    image: nb-lab\n"),
            None,
        ),
        ("This builds an image named `voxline/asr:gpu`.", "docker compose build", ASR_COMPOSE, None),
        # an override file beside it gives the image its name
        (
            "Build the image (tag: `nb-lab`):",
            "docker compose build",
            NOTEBOOK_COMPOSE,
            {"docker-compose.override.yml": "services:\n  nb-lab:\n    image: nb-lab\n"},
        ),
        # an image: the environment fills in
        (
            "This builds an image named `asr`.",
            "docker compose build",
            ASR_COMPOSE.replace("voxline/asr:gpu", "${REGISTRY}/asr:gpu"),
            None,
        ),
        # a block that builds nothing, or builds in another folder
        ("Build the image (tag: `nb-lab`):", "docker compose down", NOTEBOOK_COMPOSE, None),
        ("Build the image (tag: `nb-lab`):", "cd ../other && docker compose build", NOTEBOOK_COMPOSE, None),
        # a pulled service's image named
        ("Build the image, tagged `redis:7`:", "docker compose up --build", ASR_COMPOSE, None),
    ],
)
def test_a_compose_build_tag_that_agrees_or_cannot_be_told(
    tmp_path: Path, sentence: str, block: str, compose: str, extra: dict[str, str] | None
) -> None:
    assert _composed(tmp_path, sentence, block, compose, extra) == []
