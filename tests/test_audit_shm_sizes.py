"""`docgen.audit.shm_sizes`: a README saying the setup gives the container a shared memory size that no
file of the project sets. Shapes modelled on a ROCm web UI setup whose README lists its changes (one
of them the SHM size, set nowhere) and on a training stack whose compose file or run script sets it;
a planted drift next to the nearest true statements (traps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM rocm/pytorch:rocm6.0_ubuntu22.04_py3.10_pytorch_2.1.1\nRUN pip install timm\nUSER 1001\n"
CHANGES = """\
# Web UI on ROCm

## Changes compared to the upstream guide

- Running as a non-root user inside the container
- Setting the SHM size to 8GB, like the ROCm guide now suggests
- Installing timm

## Usage

Run `start.sh`.
"""
START = "#!/bin/sh\ndocker compose up -d\n"
TRAINING = "# Trainer\n\nThe training container runs with 16g of shared memory for the data loaders.\n"


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "shared memory" in d.message
    ]


def test_a_shared_memory_size_nothing_sets(tmp_path: Path) -> None:
    assert found(tmp_path / "a", CHANGES, {"start.sh": START}) == [
        "6: README says the container is given 8GB of shared memory, but no file of the project sets it (no "
        "shm_size, --shm-size, ipc: host or /dev/shm mount in its compose files, scripts or the README's "
        "commands; a Dockerfile cannot): Docker gives a container 64MB (likely)"
    ]
    assert [
        f[:50] for f in found(tmp_path / "b", TRAINING, {"run.sh": "docker run --gpus all trainer\n"})
    ] == ["3: README says the container is given 16g of share"]


def test_a_shared_memory_size_stated_with_no_verb(tmp_path: Path) -> None:
    # a feature list of an inference image (`SHM size of 8GB`) and a notebook image's sentence
    features = "# Serving image\n\n## Features\n\n- CUDA 12.4 runtime\n- SHM size of 8GB for the workers\n"
    told = found(tmp_path / "a", features, {})
    assert [f.split(" of shared")[0] for f in told] == ["6: README says the container is given 8GB"]
    label = "# Notebooks\n\nThe image has a shared memory of 16g.\n"
    told = found(tmp_path / "b", label, {})
    assert [f.split(" of shared")[0] for f in told] == ["3: README says the container is given 16g"]
    # a label with its colon, in a line of a specification and in a list
    spec = "# Worker\n\nBase: CUDA 12.4 runtime.\nSHM size: 8GB\n"
    told = found(tmp_path / "c", spec, {})
    assert [f.split(" of shared")[0] for f in told] == ["4: README says the container is given 8GB"]
    listed = "# Worker\n\n- Shared memory: 16g\n- Python 3.11\n"
    told = found(tmp_path / "d", listed, {})
    assert [f.split(" of shared")[0] for f in told] == ["3: README says the container is given 16g"]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # set by the compose file, a script, a mount, or the README's own command
        (
            CHANGES,
            {"start.sh": START, "docker-compose.yml": "services:\n  ui:\n    build: .\n    shm_size: 8gb\n"},
        ),
        (CHANGES, {"start.sh": START, "compose.yaml": "services:\n  ui:\n    build: .\n    ipc: host\n"}),
        (TRAINING, {"scripts/run.sh": "docker run --shm-size=16g --gpus all trainer\n"}),
        (TRAINING, {"run.sh": "docker run -v /dev/shm:/dev/shm trainer\n"}),
        (TRAINING + "\n```sh\ndocker run --ipc=host trainer\n```\n", {}),
        # advice, a condition, the host
        ("# Trainer\n\n- Set the SHM size to 8GB when you run it.\n", {}),
        ("# Trainer\n\nIf training stalls, you may need 16GB of shared memory.\n", {}),
        ("# Trainer\n\nThe host should have 32GB of shared memory.\n", {}),
        # a size that is not of the shared memory
        ("# Trainer\n\nThe container runs with 16g of memory.\n", {}),
    ],
)
def test_shared_memory_traps(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, readme, files) == []
