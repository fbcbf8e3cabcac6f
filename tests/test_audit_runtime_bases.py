"""`docgen.audit.runtime_bases`: a `runtime`/`base` CUDA tag a README offers for the base arg of a stage
that compiles CUDA code (nvcc and the headers are only in `devel`).

Shapes modelled on a dev container that builds OpenCV with CUDA on a tag chosen through one arg, and
on a llama.cpp-style two-stage build (devel stage compiles, runtime stage copies, one arg each).
A planted drift next to the nearest true statements (traps).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

ONE_STAGE = (
    "ARG CUDA_TAG=12.4.1-cudnn-devel-ubuntu22.04\n"
    "FROM nvcr.io/nvidia/cuda:${CUDA_TAG}\n"
    "RUN apt-get update && apt-get install -y cmake git\n"
    "ARG VISION_VERSION=4.9.0\n"
    "RUN git clone https://example.org/vision.git && cd vision && mkdir build && cd build && \\\n"
    '    cmake -D WITH_CUDA=ON -D CUDA_ARCH_BIN="8.0;8.6" .. && make -j4\n'
)
TWO_STAGES = (
    "ARG CUDA_RELEASE=12.2.0\n"
    "ARG DEV_BASE=nvidia/cuda:${CUDA_RELEASE}-devel-ubuntu22.04\n"
    "ARG RUN_BASE=nvidia/cuda:${CUDA_RELEASE}-runtime-ubuntu22.04\n"
    "FROM ${DEV_BASE} AS build\n"
    "WORKDIR /src\n"
    "COPY . .\n"
    "RUN cmake -B out -DGGML_CUDA=ON . && cmake --build out -j8\n"
    "FROM ${RUN_BASE} AS runtime\n"
    "COPY --from=build /src/out/bin/server /server\n"
    'ENTRYPOINT ["/server"]\n'
)


def found(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "compiles CUDA code" in d.message
    ]


def test_a_runtime_tag_for_a_stage_that_compiles(tmp_path: Path) -> None:
    readme = (
        "# Vision image\n\n## Pick a base\n\nPick a tag, then set it:\n\n"
        "```bash\nCUDA_TAG=12.4.1-cudnn-runtime-ubuntu22.04\n"
        "docker build --build-arg CUDA_TAG=$CUDA_TAG -t box .\n```\n"
    )
    assert found(tmp_path, readme, ONE_STAGE) == [
        "8: README sets CUDA_TAG=12.4.1-cudnn-runtime-ubuntu22.04, a runtime image of nvcr.io/nvidia/cuda "
        "(no nvcc, no CUDA headers), but the stage built on it compiles CUDA code (Dockerfile:5 "
        "`WITH_CUDA=ON`; the Dockerfile's default nvcr.io/nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04 is a "
        "devel image) (likely)"
    ]


def test_a_base_tag_through_build_arg_for_the_compiling_stage(tmp_path: Path) -> None:
    readme = (
        "# Server\n\n```sh\ndocker build \\\n"
        "  --build-arg DEV_BASE=nvidia/cuda:12.2.0-base-ubuntu22.04 -t srv .\n```\n"
    )
    assert [f.split(":", 1)[0] for f in found(tmp_path, readme, TWO_STAGES)] == ["5"]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the runtime tag offered for the stage that only copies what the devel stage built
        (
            "# Server\n\n```sh\ndocker build \\\n"
            "  --build-arg RUN_BASE=nvidia/cuda:12.2.0-runtime-ubuntu24.04 .\n```\n",
            TWO_STAGES,
        ),
        # a devel tag, another release
        ("# Box\n\n```bash\nCUDA_TAG=12.6.3-cudnn-devel-ubuntu24.04\n```\n", ONE_STAGE),
        # a release only: the flavour stays the Dockerfile's
        ("# Server\n\n```sh\nCUDA_RELEASE=12.4.1\n```\n", TWO_STAGES),
        # a placeholder
        ("# Box\n\n```bash\nCUDA_TAG=<version>-cudnn-runtime-ubuntu22.04\n```\n", ONE_STAGE),
        # a runtime tag in prose only
        ("# Box\n\nTags such as `12.4.1-cudnn-runtime-ubuntu22.04` exist too.\n", ONE_STAGE),
    ],
)
def test_traps(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert found(tmp_path, readme, dockerfile) == []


def test_silent_when_the_stage_compiles_nothing(tmp_path: Path) -> None:
    dockerfile = (
        "ARG CUDA_TAG=12.4.1-cudnn-devel-ubuntu22.04\n"
        "FROM nvidia/cuda:${CUDA_TAG}\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cu124\n"
    )
    readme = "# Box\n\n```bash\nCUDA_TAG=12.4.1-cudnn-runtime-ubuntu22.04\n```\n"
    assert found(tmp_path, readme, dockerfile) == []


def test_silent_when_the_stage_installs_the_toolkit(tmp_path: Path) -> None:
    dockerfile = ONE_STAGE.replace("install -y cmake git", "install -y cmake git cuda-toolkit-12-4")
    readme = "# Box\n\n```bash\nCUDA_TAG=12.4.1-cudnn-runtime-ubuntu22.04\n```\n"
    assert found(tmp_path, readme, dockerfile) == []


def test_silent_when_the_default_is_runtime_already(tmp_path: Path) -> None:
    dockerfile = ONE_STAGE.replace("cudnn-devel", "cudnn-runtime")
    readme = "# Box\n\n```bash\nCUDA_TAG=12.4.1-cudnn-runtime-ubuntu22.04\n```\n"
    assert found(tmp_path, readme, dockerfile) == []


def test_torch_arch_list_counts_with_a_source_build_only(tmp_path: Path) -> None:
    base = (
        "ARG CUDA_TAG=12.1.1-devel-ubuntu22.04\nFROM nvidia/cuda:${CUDA_TAG}\n"
        'ENV TORCH_CUDA_ARCH_LIST="8.0 8.6"\n'
    )
    readme = "# Box\n\n```bash\nCUDA_TAG=12.1.1-runtime-ubuntu22.04\n```\n"
    assert found(tmp_path, readme, base + "RUN pip install torch==2.3.0\n") == []
    assert len(found(tmp_path, readme, base + "RUN pip install --no-build-isolation ./ext\n")) == 1
