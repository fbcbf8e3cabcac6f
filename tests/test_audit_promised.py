"""`docgen.audit.promised`: a sentence saying the Dockerfile for a platform is not there yet (`the
Dockerfile for AMD GPU will be provided upon request`) while one of that platform is audited (sweep19: a
kernel library's README next to its `Dockerfile.rocm`), and the sentences of the same shape that stay
silent."""

from __future__ import annotations

import pytest
from helpers import findings

CUDA = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN echo cuda\n"
ROCM = "FROM rocm/dev-ubuntu-22.04:6.3-complete\nRUN echo rocm\n"
FAMILY = {"docker/Dockerfile.cu124": CUDA, "docker/Dockerfile.rocm": ROCM}


def test_a_promised_dockerfile_that_exists_is_a_finding() -> None:
    readme = (
        "# Kernels\n\nWe ship a Dockerfile for NVIDIA GPUs, and the Dockerfile for AMD GPUs will be "
        "provided upon request.\n"
    )
    assert findings(readme, FAMILY) == [
        "3: README says 'the Dockerfile for AMD GPUs will be provided upon request', but "
        "docker/Dockerfile.rocm exists"
    ]


@pytest.mark.parametrize(
    "said",
    [
        # no Dockerfile of that platform: the promise still stands
        "A Dockerfile for Intel GPUs is coming soon.",
        "The CPU Dockerfile will be added later.",
        # no Dockerfile named: support, drivers, images pushed elsewhere
        "ROCm support is coming soon.",
        "AMD drivers are available on request.",
        # two platforms in one clause: which one is meant cannot be told
        "Dockerfiles for AMD and Intel GPUs will be provided.",
        # a promise about the platform the clause does not name before it
        "The Dockerfile is planned for a later release.",
    ],
)
def test_promises_that_are_no_finding(said: str) -> None:
    assert findings(f"# Kernels\n\n{said}\n", FAMILY) == []
