"""`docgen audit`: versions in the package file names a README shows (`torch-2.8.0+rocm6.4`,
`…-cp312-cp312-linux_x86_64.whl`, `….tar.gz`; docgen/audit/wheel_names.py), against the pins of the
Dockerfile.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest
from helpers import findings

PINNED = """\
FROM ubuntu:24.04
ARG PYTORCH_VERSION=2.7.1
ARG FLASH_ATTN_VERSION=2.7.4
RUN pip install --index-url https://download.pytorch.org/whl/rocm6.4 torch \\
 && pip install https://example.org/wheels/flash_attn-${FLASH_ATTN_VERSION}-cp312-cp312-linux_x86_64.whl
"""


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "- The ROCm wheel is 3.6GB (torch-2.8.0+rocm6.4)",
            "README says torch 2.8.0 but Dockerfile:2 says 2.7.1",
        ),
        (
            "Download `flash_attn-2.8.3-cp312-cp312-linux_x86_64.whl` first.",
            "README says flash-attn 2.8.3 but Dockerfile:3 says 2.7.4",
        ),
        ("The build fetches torch-2.6.0.tar.gz.", "README says torch 2.6.0 but Dockerfile:2 says 2.7.1"),
    ],
)
def test_a_package_file_name_of_another_version(said: str, expected: str) -> None:
    assert findings(f"# App\n\n{said}\n", {"Dockerfile": PINNED}) == [f"3: {expected}"]


@pytest.mark.parametrize(
    "said",
    [
        "- The ROCm wheel is 3.6GB (torch-2.7.1+rocm6.4)",
        "Download `flash_attn-2.7.4-cp312-cp312-linux_x86_64.whl` first.",
        "Built on ubuntu-24.04 with rocm-6.4.",  # no package file
        "Wheels look like `torch-X.Y.Z+rocmA.B`, e.g. torch-2.9.0+rocm7.0.",  # an example
        "Works with numpy-2.1.0+local builds too.",  # nothing pins numpy
    ],
)
def test_file_names_the_pins_bear_or_that_name_no_pinned_package(said: str) -> None:
    assert findings(f"# App\n\n{said}\n", {"Dockerfile": PINNED}) == []
