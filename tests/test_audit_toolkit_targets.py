"""`docgen.audit.targets.toolkit_targets` and `hardware.cuda_cannot_build`: a README command that builds
the image for a GPU target its CUDA release cannot compile (`sm_120` needs CUDA 12.8; a CUDA 12.6 image
fails the build).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.hardware import cuda_cannot_build
from docgen.pipeline import build_model, model_of

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


# A CMake build whose targets one build arg names, in a stage on a pinned CUDA 12.4 image.
SERVER = """\
ARG GPU_ARCHS=86
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build
ARG GPU_ARCHS
RUN cmake -S /src -B /b -DCMAKE_CUDA_ARCHITECTURES="${GPU_ARCHS}" && cmake --build /b
FROM ubuntu:22.04
COPY --from=build /b/server /usr/local/bin/server
"""
TABLE = """\
# Server

## Choosing a GPU target

| `GPU_ARCHS` | Family | Cards |
|---|---|---|
| `80` | Ampere | A100 |
| `89` | Ada | RTX 4090, L4 |
| `100` | Blackwell | B200 |
"""


def test_a_table_of_values_of_a_target_build_arg() -> None:
    assert findings(TABLE, {"Dockerfile": SERVER}) == [
        "9: README offers GPU_ARCHS=100 but Dockerfile:2 builds on CUDA 12.4.1: "
        "sm_100 needs CUDA 12.8 or later"
    ]
    # the nearest true table: the same values on a CUDA 12.8 image
    assert findings(TABLE, {"Dockerfile": SERVER.replace("12.4.1-devel", "12.8.1-devel")}) == []


def test_a_value_said_to_need_a_newer_cuda_is_no_offer() -> None:
    readme = TABLE.replace("| B200 |", "| B200 (needs a newer CUDA base) |")
    assert findings(readme, {"Dockerfile": SERVER}) == []


def test_a_list_of_values_under_text_naming_the_arg() -> None:
    readme = """\
# Server

Set `GPU_ARCHS` to the compute capability of your card:

- `8.6`: RTX 3090, A40
- `9.0`: H100
- `12.0`: RTX 5090
"""
    assert findings(readme, {"Dockerfile": SERVER}) == [
        "7: README offers GPU_ARCHS=12.0 but Dockerfile:2 builds on CUDA 12.4.1: "
        "sm_120 needs CUDA 12.8 or later"
    ]
    # a list of the same values under text naming no build arg of the image says nothing of it
    assert findings(readme.replace("`GPU_ARCHS`", "`SM_LIST`"), {"Dockerfile": SERVER}) == []


def test_a_table_is_likely_only_when_the_base_can_be_changed() -> None:
    changeable = "ARG CUDA_IMAGE=nvidia/cuda:12.4.1-devel-ubuntu22.04\n" + SERVER.replace(
        "nvidia/cuda:12.4.1-devel-ubuntu22.04", "${CUDA_IMAGE}"
    )
    models = [model_of(parse_dockerfile(changeable, "Dockerfile"))]
    assert [(d.line, d.confidence) for d in audit(TABLE, "README.md", models) if "offers" in d.message] == [
        (9, "likely")
    ]


REBUILD = """\
#!/bin/sh
cd "$(dirname "$0")"
docker build --build-arg GPU_ARCHS="${GPU_ARCHS:-86}" -t server .
"""


def test_a_target_set_in_front_of_a_script_that_passes_it_on(tmp_path: Path) -> None:
    readme = "# Server\n\n```bash\nGPU_ARCHS=89 ./rebuild.sh\nGPU_ARCHS=120 ./rebuild.sh\n```\n"
    make_tree(tmp_path, {"Dockerfile": SERVER, "rebuild.sh": REBUILD, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    said = [(d.line, d.message) for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)]
    assert said == [
        (
            5,
            "README builds for GPU target 120 but Dockerfile:2 says CUDA 12.4.1-devel-ubuntu22.04: "
            "sm_120 needs CUDA 12.8 or later",
        )
    ]
    # the nearest trap: a script that builds with its own targets never builds for the value set
    make_tree(tmp_path, {"rebuild.sh": REBUILD.replace('"${GPU_ARCHS:-86}"', "86")})
    said = [d.message for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)]
    assert [m for m in said if "GPU target" in m] == []
