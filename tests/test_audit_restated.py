"""`docgen audit`: a component's version a README states twice for the same image, differently, where the
Dockerfile pins nothing to compare with (docgen/audit/restated.py)."""

from __future__ import annotations

import pytest
from helpers import findings

UNPINNED = """\
FROM local/npu-trainer:latest
WORKDIR /work
RUN pip install sentencepiece==0.2.0
"""
PINNED = UNPINNED.replace("sentencepiece==0.2.0", "sentencepiece==0.2.0 torch==2.2.0")

DRIFT = (
    "10: README says PyTorch 2.5.1 but line 5 says PyTorch 2.2 for the same image; Dockerfile pins neither"
)
INTRO = """\
# Trainer

| Item | Value |
|---|---|
| Base image | `local/npu-trainer:latest` (PyTorch {first} + CANN 8.0) |
| Disk | 200 GB |

## Build

{later}
"""


def test_two_versions_of_one_component_for_the_same_image() -> None:
    readme = INTRO.format(
        first="2.2", later="- Based on the vendor's NPU image with PyTorch 2.5.1 and CANN 8.0."
    )
    assert findings(readme, {"Dockerfile": UNPINNED}) == [DRIFT]


def test_the_same_claim_in_other_words() -> None:
    readme = INTRO.format(first="2.2", later="镜像内置 PyTorch 2.2.0 与 CANN 8.0。")
    assert findings(readme, {"Dockerfile": UNPINNED}) == []
    readme = INTRO.format(first="2.2", later="镜像内置 PyTorch 2.5.1 与 CANN 8.0。")
    assert findings(readme, {"Dockerfile": UNPINNED}) == [DRIFT]


@pytest.mark.parametrize(
    "later",
    [
        "- The image supports PyTorch 2.5.1 as well.",  # a choice offered
        "- Based on the vendor image; upgrade to PyTorch 2.5.1 when it ships.",  # a plan
        "- Run `pip install torch==2.5.1` on the host for the client.",  # no line about the image
        "- Based on the vendor image (PyTorch 2.2 or 2.5.1).",  # two releases offered
        "基础镜像支持 PyTorch 2.5.1。",  # supports
    ],
)
def test_a_second_version_that_is_no_statement_of_what_the_image_holds(later: str) -> None:
    assert findings(INTRO.format(first="2.2", later=later), {"Dockerfile": UNPINNED}) == []


def test_a_pinned_component_is_compared_with_the_pin_instead() -> None:
    readme = INTRO.format(first="2.2", later="- Based on the vendor image with PyTorch 2.5.1.")
    assert findings(readme, {"Dockerfile": PINNED}) == [
        "10: README says PyTorch 2.5.1 but Dockerfile:3 says 2.2.0"
    ]


def test_a_table_of_releases_is_no_pair_of_statements() -> None:
    readme = (
        "# Trainer\n\n| Image | Base |\n|---|---|\n"
        "| `trainer:a` | base image with PyTorch 2.2 |\n"
        "| `trainer:b` | base image with PyTorch 2.5.1 |\n"
    )
    assert findings(readme, {"Dockerfile": UNPINNED}) == []


def test_entries_side_by_side_are_about_what_each_names() -> None:
    readme = (
        "# Trainer\n\nThe base images:\n\n"
        "- `trainer-old`: base image with Ubuntu 20.04\n"
        "- `trainer-new`: base image with Ubuntu 22.04\n"
        "- Vendor image with Ubuntu 20.04\n"
        "- Vendor image with Ubuntu 24.04\n"
    )
    assert findings(readme, {"Dockerfile": UNPINNED}) == []
