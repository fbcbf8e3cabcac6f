"""`docgen.audit.targets._toolkit_targets` and `hardware.cuda_cannot_build`: a README command that builds
the image for a GPU target its CUDA release cannot compile (`sm_120` needs CUDA 12.8; a CUDA 12.6 image
fails the build).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.hardware import cuda_cannot_build

CUDA126 = """\
ARG BASE_IMAGE=pytorch/pytorch:2.7.1-cuda12.6-cudnn9-devel
ARG TORCH_CUDA_ARCH_LIST="8.0;8.6;9.0"
FROM ${BASE_IMAGE}
ARG TORCH_CUDA_ARCH_LIST
RUN pip install ninja==1.11.1.4
"""

CUDA128 = CUDA126.replace("cuda12.6", "cuda12.8")


@pytest.mark.parametrize(
    ("target", "cuda", "reason"),
    [
        ("120", "12.6", "sm_120 needs CUDA 12.8 or later"),
        ("sm_100a", "12.4.1", "sm_100 needs CUDA 12.8 or later"),
        ("12.0", "12.8", None),
        ("9.0", "11.7", "sm_90 needs CUDA 11.8 or later"),
        ("89", "11.8", None),
        ("10.3", "12.8", "sm_103 needs CUDA 12.9 or later"),
        ("101", "13.0", "CUDA 13.0 has no sm_101 (CUDA 13.0 renumbered it sm_110)"),
        ("7.0", "13.0", "CUDA 13.0 no longer builds for sm_70 (CUDA 13.0 starts at sm_75)"),
        ("7.5", "13.1", None),
        ("gfx942", "12.6", None),
        ("10", "13.0", None),
    ],
)
def test_the_cuda_release_a_target_needs(target: str, cuda: str, reason: str | None) -> None:
    assert cuda_cannot_build(target, cuda) == reason


def test_a_build_arg_naming_a_target_the_cuda_release_lacks() -> None:
    readme = """\
# Build

```bash
docker build --build-arg TORCH_CUDA_ARCH_LIST="8.0;12.0" -t app .
docker build --build-arg TORCH_CUDA_ARCH_LIST="8.0;9.0" -t app .
```
"""
    assert findings(readme, {"Dockerfile": CUDA126}) == [
        "4: README builds for GPU target 12.0 but Dockerfile:1 says CUDA 12.6: "
        "sm_120 needs CUDA 12.8 or later"
    ]
    assert findings(readme, {"Dockerfile": CUDA128}) == []


def test_a_target_list_given_to_a_build_script() -> None:
    readme = """\
# Build

```bash
./build.sh "80,86,89,120"    # with RTX 50 series
./build.sh "80,86,89"
bash scripts/train.sh --epochs 10,20
```
"""
    assert findings(readme, {"Dockerfile": CUDA126}) == [
        "4: README builds for GPU target 120 but Dockerfile:1 says CUDA 12.6: sm_120 needs CUDA 12.8 or later"
    ]


def test_a_target_in_prose_or_a_dockerfile_snippet_is_no_build() -> None:
    readme = """\
# Build

Blackwell (120) requires CUDA 12.8+, so the default list leaves it out.

```dockerfile
ARG TORCH_CUDA_ARCH_LIST="8.0;9.0;12.0"
```

```bash
# ./build.sh "80,120" once the image moves to CUDA 12.8
```
"""
    assert [f for f in findings(readme, {"Dockerfile": CUDA126}) if "GPU target" in f] == []


def test_an_image_whose_cuda_release_is_unknown() -> None:
    unknown = "FROM example/base:latest\nARG TORCH_CUDA_ARCH_LIST=8.0\n"
    readme = '```bash\ndocker build --build-arg TORCH_CUDA_ARCH_LIST="12.0" .\n```\n'
    assert findings(readme, {"Dockerfile": unknown}) == []
