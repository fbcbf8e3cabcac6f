"""`docgen.audit.listed_python`: Python, or Python's scientific libraries, listed as in an image that
holds none.

Each rule: a planted drift next to the nearest true statement (a trap). The Dockerfiles are small
models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

CUDA = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends cmake gdb valgrind \\
    && rm -rf /var/lib/apt/lists/*
WORKDIR /work
COPY . /work/course/
RUN printf '#!/bin/bash\\nnvcc --version\\n' > /work/check.sh && chmod +x /work/check.sh
"""
WITH_PPA = CUDA.replace("cmake gdb", "cmake software-properties-common gdb")
ROCM = """\
FROM rocm/dev-ubuntu-22.04:6.2
RUN apt-get update && apt-get install -y python3 python3-pip && pip3 install numpy matplotlib
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: list[str]) -> list[str]:
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / path, path) for path in dockerfiles]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_python_listed_in_an_image_that_holds_none(tmp_path: Path) -> None:
    readme = "# Lab image\n\n## Installed\n\n- CMake\n- Python 3\n- gdb and valgrind\n"
    assert _audited(tmp_path, readme, {"Dockerfile": CUDA}, ["Dockerfile"]) == [
        "6: README lists Python 3 as in the image but Dockerfile installs no Python, and its base "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 (Dockerfile:1) ships none (likely)"
    ]


def test_scientific_libraries_where_only_the_interpreter_may_be(tmp_path: Path) -> None:
    # software-properties-common brings python3 in: the interpreter may be there, its libraries are not
    readme = "# Lab image\n\n## Installed\n\n- Python 3\n- Python 3 with scientific libraries\n"
    assert _audited(tmp_path, readme, {"Dockerfile": WITH_PPA}, ["Dockerfile"]) == [
        "6: README lists Python 3 with scientific libraries as in the image but Dockerfile installs no "
        "Python library (no pip, conda or python3-* package), and its base "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 (Dockerfile:1) ships none (likely)"
    ]


def test_the_interpreter_alone_is_no_scientific_stack(tmp_path: Path) -> None:
    # Debian's python3 brings no NumPy: the libraries the item adds are nowhere
    readme = "# Lab image\n\n## Installed\n\n- Python 3\n- Python 3 with NumPy and SciPy\n"
    dockerfile = CUDA.replace("cmake gdb", "cmake python3 gdb")
    assert _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"]) == [
        "6: README lists Python 3 with NumPy and SciPy as in the image but Dockerfile installs no Python "
        "library (no pip, conda or python3-* package), and its base nvidia/cuda:12.4.1-devel-ubuntu22.04 "
        "(Dockerfile:1) ships none (likely)"
    ]


def test_features_of_one_image_of_two(tmp_path: Path) -> None:
    # the section about the CUDA image lists Python's libraries; the ROCm image installs them (trap)
    readme = """\
# GPU course images

### CUDA container

**Base**: `nvidia/cuda:12.4.1-devel-ubuntu22.04`

**Features**:
- CUDA 12.4 with development tools
- Python 3 with scientific libraries

### ROCm container

**Base**: `rocm/dev-ubuntu-22.04:6.2`

**Features**:
- ROCm 6.2
- Python 3 with scientific libraries
"""
    files = {"docker/cuda/Dockerfile": WITH_PPA, "docker/rocm/Dockerfile": ROCM}
    assert _audited(tmp_path, readme, files, ["docker/cuda/Dockerfile", "docker/rocm/Dockerfile"]) == [
        "9: README lists Python 3 with scientific libraries as in the image but docker/cuda/Dockerfile "
        "installs no Python library (no pip, conda or python3-* package), and its base "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 (docker/cuda/Dockerfile:1) ships none (likely)"
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        CUDA.replace("cmake gdb", "cmake python3-numpy gdb"),
        CUDA + "RUN pip install --no-cache-dir rich\n",
        CUDA + "RUN uv pip install --system rich\n",
        CUDA + "RUN curl -fsSL https://example.org/setup.sh | bash\n",  # a download run: unread
        CUDA + "COPY setup.sh /tmp/\nRUN bash /tmp/setup.sh\n",  # a script docgen has no copy of
        CUDA.replace("nvidia/cuda:12.4.1-devel-ubuntu22.04", "nvidia/cuda:12.4.1-devel-ubi9"),  # RPM: dnf
        CUDA.replace("nvidia/cuda:12.4.1-devel-ubuntu22.04", "rocm/dev-ubuntu-22.04:6.2"),
        CUDA.replace("nvidia/cuda:12.4.1-devel-ubuntu22.04", "python:3.12-slim"),
        CUDA.replace("nvidia/cuda:12.4.1-devel-ubuntu22.04", "acme/base:1.0"),  # a base docgen does not know
    ],
)
def test_an_image_that_may_hold_python_is_no_claim(tmp_path: Path, dockerfile: str) -> None:
    readme = "# Lab image\n\n## Installed\n\n- Python 3 with scientific libraries\n"
    assert _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"]) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the host's list, the user's, a later install
        "# Lab image\n\n## Requirements\n\n- Python 3\n- Docker\n",
        "# Lab image\n\n## Installed\n\n- Python 3 (install it yourself)\n",
        "# Lab image\n\n## Installed\n\n- Python 3 (optional)\n",
        # items that name no interpreter in the image
        "# Lab image\n\n## Installed\n\n- Python API\n",
        "# Lab image\n\n## Installed\n\n- Python 3 support\n",
        "# Lab image\n\n## Installed\n\n- Python bindings for the solver\n",
        "# Lab image\n\n## Installed\n\n- Python 2.7\n",
        # a project's features, not said of an image
        "# Lab image\n\n## Features\n\n- Python 3\n- Fast solvers\n",
        # a list that is no contents list
        "# Lab image\n\n## Languages\n\n- Python 3\n- C++\n",
    ],
)
def test_lists_that_are_not_the_images_contents_are_no_claim(tmp_path: Path, readme: str) -> None:
    assert _audited(tmp_path, readme, {"Dockerfile": CUDA}, ["Dockerfile"]) == []


def test_features_said_of_the_container(tmp_path: Path) -> None:
    readme = "# Lab image\n\n## Container features\n\n- Python 3\n- CUDA 12.4\n"
    assert _audited(tmp_path, readme, {"Dockerfile": CUDA}, ["Dockerfile"]) == [
        "5: README lists Python 3 as in the image but Dockerfile installs no Python, and its base "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 (Dockerfile:1) ships none (likely)"
    ]
