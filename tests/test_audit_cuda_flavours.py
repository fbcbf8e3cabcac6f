"""`docgen.audit.cuda_flavours`: the flavour of the CUDA image (runtime, devel) a README says the image is,
against the flavour its FROM tag names. Planted drifts and the nearest true statements as traps; the
READMEs and Dockerfiles are small models written after the shapes public image READMEs use (a fine-tuning
notebook image's "based on" list, a speech service's overview, a worker's feature list).
"""

from __future__ import annotations

import pytest
from helpers import findings

DEVEL = "FROM nvidia/cuda:13.0.0-devel-ubuntu24.04\nRUN pip install jupyterlab==4.4.0\n"
RUNTIME = "FROM nvcr.io/nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\nRUN pip install fastapi==0.115.0\n"
TWO_STAGES = (
    "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\nRUN nvcc -o /app kernel.cu\n"
    "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCOPY --from=build /app /app\n"
)


@pytest.mark.parametrize(
    ("readme", "dockerfile", "line"),
    [
        (
            "# Lab\n\nIt's based on:\n- **Ubuntu 24.04**\n- **CUDA 13.0 Runtime**\n- **Python 3**\n",
            DEVEL,
            5,
        ),
        ("# Speech\n\nThe service image is built on the NVIDIA CUDA 12.4 devel image.\n", RUNTIME, 3),
        ("# Speech\n\nBase image:\n\n- CUDA 12.4 development image\n", RUNTIME, 5),
    ],
)
def test_a_flavour_the_from_tag_does_not_name(readme: str, dockerfile: str, line: int) -> None:
    found = findings(readme, {"Dockerfile": dockerfile})
    assert len(found) == 1 and found[0].startswith(f"{line}: README says the image is the CUDA")


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        ("# Lab\n\nIt's based on:\n- **Ubuntu 24.04**\n- **CUDA 13.0 Devel**\n", DEVEL),  # agrees
        ("# Lab\n\nThe image includes the CUDA 13.0 runtime and cuDNN.\n", DEVEL),  # the libraries
        ("# Worker\n\nThis starts a worker with:\n- CUDA 13.0 runtime\n- PyTorch\n", DEVEL),  # no base list
        ("# Speech\n\nProduction GPU image:\n- CUDA 12.4 runtime with cuDNN 9\n", RUNTIME),  # agrees
        # a multi-stage build: the devel builder is named, the final stage is the runtime image
        ("# App\n\nIt compiles in the CUDA 12.4 devel image and ships on the runtime image.\n", TWO_STAGES),
        ("# App\n\nIt's based on:\n- CUDA 12.4 Runtime\n", TWO_STAGES),
        ("# Lab\n\nYou can switch to the CUDA 13.0 runtime image for a smaller download.\n", DEVEL),  # advice
        (
            "# Lab\n\nIt's based on:\n- CUDA 13.0 Runtime\n",
            "FROM pytorch/pytorch:2.9.0-cuda13.0-cudnn9-devel\n",
        ),
    ],
)
def test_flavour_traps(readme: str, dockerfile: str) -> None:
    assert findings(readme, {"Dockerfile": dockerfile}) == []
