"""`docgen.audit.case_slips`: a folder of the build context the README names in other letter case than
the COPY that reads it. A planted drift and, next to it, the nearest true shapes as traps. The READMEs
and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

BASE = """\
FROM nvidia/cuda:12.4.1-base-ubuntu22.04
COPY cudnn/libcudnn9_9.1.0-1_amd64.deb /tmp/
COPY ${EXTRA}/notes.txt /tmp/
RUN dpkg -i /tmp/libcudnn9_9.1.0-1_amd64.deb
"""

README = """\
# GPU notebook

Download the cuDNN package from NVIDIA and put it into `./base/cuDNN/` before you build.

The notes live in `docs/CUDNN/` and the scratch files in `base/cudnn/`.

Extras go to `base/Extra/`.
"""


def _audit(tmp_path: Path, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": README, "base/Dockerfile": BASE, "docs/index.md": "x", **files})
    model = build_model(tmp_path / "base" / "Dockerfile", "base/Dockerfile")
    found = audit(README, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "letter case" in d.message]


def test_a_folder_named_in_other_case_than_the_copy_that_reads_it(tmp_path: Path) -> None:
    # line 3 names base/cuDNN, the COPY reads base/cudnn; line 5: docs/ is no build context, and
    # base/cudnn is the folder as written; line 7: a COPY from a variable is not compared
    assert _audit(tmp_path, {}) == [
        "3: README names ./base/cuDNN/, but base/Dockerfile:2 copies cudnn/libcudnn9_9.1.0-1_amd64.deb: the "
        "letter case differs, and a build on Linux does not find files put where the README says (certain)"
    ]


# the path written plainly, no code: modelled on a JupyterLab GPU image's download list and on a wheel
# image whose README tells where to put the wheels
PLAIN = """\
# GPU notebook

cuDNN has to be downloaded by hand:
    - Files:
        - libcudnn9_9.1.0-1_amd64.deb
    - To be placed into: ./base/cuDNN

Docs: https://docs.example.com/base/cuDNN/ and /opt/base/cuDNN in the image.
"""
WHEELS = """\
FROM python:3.11-slim
COPY wheels/torch-2.3.0-cp311-linux_aarch64.whl /tmp/
RUN pip install /tmp/torch-2.3.0-cp311-linux_aarch64.whl
"""


def test_a_folder_named_in_plain_words_in_other_case(tmp_path: Path) -> None:
    make_tree(tmp_path, {"README.md": PLAIN, "base/Dockerfile": BASE})
    model = build_model(tmp_path / "base" / "Dockerfile", "base/Dockerfile")
    found = [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(PLAIN, "README.md", [model], {}, tmp_path)
    ]
    # the address and the image's absolute path are no place of the build context
    assert [f for f in found if "letter case" in f] == [
        "6: README names ./base/cuDNN, but base/Dockerfile:2 copies cudnn/libcudnn9_9.1.0-1_amd64.deb: the "
        "letter case differs, and a build on Linux does not find files put where the README says (certain)"
    ]
    readme = "# Wheels\n\nPut the PyTorch wheel into docker/Wheels/ before you build.\n"
    make_tree(tmp_path / "w", {"README.md": readme, "docker/Dockerfile": WHEELS})
    model = build_model(tmp_path / "w" / "docker" / "Dockerfile", "docker/Dockerfile")
    found = [d.message for d in audit(readme, "README.md", [model], {}, tmp_path / "w")]
    assert found == [
        "README names docker/Wheels/, but docker/Dockerfile:2 copies "
        "wheels/torch-2.3.0-cp311-linux_aarch64.whl: the letter case differs, and a build on Linux does not "
        "find files put where the README says"
    ]
    # the true statement
    right = readme.replace("Wheels", "wheels")
    make_tree(tmp_path / "r", {"README.md": right, "docker/Dockerfile": WHEELS})
    model = build_model(tmp_path / "r" / "docker" / "Dockerfile", "docker/Dockerfile")
    assert [d.message for d in audit(right, "README.md", [model], {}, tmp_path / "r")] == []


def test_a_folder_that_is_there_as_written_is_no_finding(tmp_path: Path) -> None:
    assert _audit(tmp_path, {"base/cuDNN/README.txt": "put the debs here"}) == []


def test_a_folder_another_copy_reads_as_written_is_no_finding(tmp_path: Path) -> None:
    both = BASE.replace("COPY ${EXTRA}", "COPY cuDNN/extra.deb /tmp/\nCOPY ${EXTRA}")
    make_tree(tmp_path, {"README.md": README, "base/Dockerfile": both})
    model = build_model(tmp_path / "base" / "Dockerfile", "base/Dockerfile")
    found = audit(README, "README.md", [model], {}, tmp_path)
    assert [d.message for d in found if "letter case" in d.message] == []


NPU = """\
FROM ubuntu:22.04
COPY vendor/Ascend-cann-toolkit*.run /tmp/
COPY vendor/Ascend-cann-kernels*.run /tmp/
COPY vendor/$EXTRA.run /tmp/
RUN chmod +x /tmp/*.run && /tmp/Ascend-cann-toolkit*.run --install --quiet
"""
"""Modelled on an NPU framework image whose installers the reader downloads into the build context."""
NPU_README = """\
# Framework on NPU

## Prerequisites

1. NPU driver installed on the host
2. CANN toolkit package downloaded to `vendor/` directory

## Build

```bash
docker build -t npu-framework .
```
"""
DRIVER = """\
FROM debian:12-slim
COPY drivers/NVIDIA-Linux-x86_64-*.run /tmp/
COPY drivers/cuda_*_linux.run /tmp/
"""
"""Modelled on a GPU driver image whose two installers the README lists by name."""
DRIVER_README = (
    "# Driver image\n\nPut the NVIDIA driver and the CUDA installer in `drivers/` before building.\n"
)


def _supplies(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "never names" in d.message]


def test_a_file_copied_from_a_folder_to_fill_that_the_readme_never_names(tmp_path: Path) -> None:
    assert _supplies(tmp_path / "a", NPU_README, NPU) == [
        "6: README tells what to put in vendor/, but Dockerfile:3 also copies "
        "vendor/Ascend-cann-kernels*.run from it, which the README never names: the build stops there "
        "without it (likely)"
    ]
    # traps: the README names it too; the folder holds it; no other source named; each source named
    named = NPU_README.replace("CANN toolkit package", "CANN toolkit and kernels packages")
    assert _supplies(tmp_path / "b", named, NPU) == []
    held = {"vendor/Ascend-cann-kernels-910b_8.0.0_linux-x86_64.run": "x"}
    assert _supplies(tmp_path / "c", NPU_README, NPU, held) == []
    assert _supplies(tmp_path / "d", NPU_README.replace("CANN toolkit", "CANN"), NPU) == []
    assert _supplies(tmp_path / "e", DRIVER_README, DRIVER) == []
    told = NPU_README.replace("downloaded to", "(see `vendor/` for")
    assert _supplies(tmp_path / "f", told, NPU) == []
