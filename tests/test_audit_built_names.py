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
