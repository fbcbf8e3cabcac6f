"""`docgen.audit.plain_cuda`: a CUDA or cuDNN release a README says the image has where every stage
starts from a plain OS or language image and nothing the Dockerfile installs brings CUDA.

A planted drift next to the nearest true statements (traps).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

PLAIN = (
    "FROM python:3.11-slim AS deps\n"
    "RUN pip install --no-cache-dir -r requirements-app.txt\n"
    "FROM python:3.11-slim\n"
    "COPY --from=deps /usr/local /usr/local\n"
    "RUN apt-get update && apt-get install -y --no-install-recommends pandoc\n"
    "ENV OMP_NUM_THREADS=4\n"
)
README = "# Fast image\n\nA GPU-ready setup:\n\n## Features\n\n- {item}\n- Small final stage\n"


def found(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "without CUDA" in d.message
    ]


@pytest.mark.parametrize(
    ("item", "said"),
    [
        ("CUDA 12.1 with cuDNN 9", "CUDA 12.1 and cuDNN 9"),
        ("Built on CUDA v11.7", "CUDA 11.7"),
    ],
)
def test_a_cuda_release_an_image_cannot_hold(tmp_path: Path, item: str, said: str) -> None:
    files = {"requirements-app.txt": "fastapi==0.110.0\nnumpy\n"}
    assert found(tmp_path, README.format(item=item), PLAIN, files) == [
        f"7: README says the image has {said}, but every stage starts from an image without CUDA "
        "(Dockerfile:1,3 python:3.11-slim) and nothing the Dockerfile installs brings CUDA (likely)"
    ]


def test_a_table_row(tmp_path: Path) -> None:
    readme = "# Fast image\n\n## Versions\n\n| Part | Version |\n|---|---|\n| CUDA | 12.4 |\n"
    assert [f.split(":", 1)[0] for f in found(tmp_path, readme, PLAIN)] == ["7"]


@pytest.mark.parametrize(
    "install",
    [
        "RUN pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cu121\n",
        "RUN pip install nvidia-cudnn-cu12==9.1.0.70 nvidia-cublas-cu12\n",
        "RUN conda install -y cudatoolkit=11.8\n",
        "RUN apt-get install -y cuda-toolkit-12-4\n",
        "RUN pip install -e .\n",  # a local project: its dependencies are written elsewhere
    ],
)
def test_an_install_that_brings_cuda(tmp_path: Path, install: str) -> None:
    readme = README.format(item="CUDA 12.1 with cuDNN 9")
    assert found(tmp_path, readme, PLAIN + install) == []


def test_a_requirements_file_that_brings_cuda(tmp_path: Path) -> None:
    files = {"requirements-app.txt": "fastapi==0.110.0\ntensorflow==2.16.1\n"}
    assert found(tmp_path, README.format(item="CUDA 12.1 with cuDNN 9"), PLAIN, files) == []


@pytest.mark.parametrize(
    "base",
    [
        "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04",
        "pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime",
        "$BASE",  # a plain default, but a build arg may pass another base
    ],
)
def test_a_base_that_may_hold_cuda(tmp_path: Path, base: str) -> None:
    dockerfile = "ARG BASE=python:3.11\n" + PLAIN.replace("FROM python:3.11-slim\n", f"FROM {base}\n")
    assert found(tmp_path, README.format(item="CUDA 12.1 with cuDNN 9"), dockerfile) == []


@pytest.mark.parametrize(
    "item",
    [
        "Requires CUDA 11.8 on the host",
        "Your machine needs NVIDIA driver 535 and CUDA 12.2",
        "CUDA 12+ capable GPU",  # a range, not a release
        "Full CUDA support",  # no release
        "If you have CUDA 12.1 locally, use the GPU compose file",
    ],
)
def test_the_nearest_true_statements(tmp_path: Path, item: str) -> None:
    assert found(tmp_path, README.format(item=item), PLAIN) == []


def test_a_section_about_the_host(tmp_path: Path) -> None:
    readme = "# Fast image\n\n## Host prerequisites\n\n- CUDA 12.1 with cuDNN 9\n"
    assert found(tmp_path, readme, PLAIN) == []
