"""Realistic GPU Dockerfiles (tests/data/realworld/, written for docgen in the idioms of public RL-training
and inference images) read as a maintainer reads the components table: every row right, none missing,
no phantom.

`EXPECTED` is written by hand: what each image ends with, one row per component (name, version as shown,
pinned, stage). A package installed and removed again is absent; a release branch is not pinned; a Debian
pin shows its upstream release. `measure` counts rows listed, right, wrong (a component of that name with
another version, pin or stage), phantom (no such component) and missed; run this file to print them:

    python tests/test_realworld.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from docgen.pipeline import build_model

DATA = Path(__file__).resolve().parent / "data" / "realworld"
CASES = sorted(DATA.glob("*.Dockerfile"))

Row = tuple[str, str, bool, str]

EXPECTED: dict[str, list[Row]] = {
    "ascend_vllm": [
        ("quay.io/ascend/cann", "8.1.rc1-910b-ubuntu22.04-py3.10", True, "#0"),
        ("torch", "2.5.1", True, "#0"),
        ("torch-npu", "2.5.1.post1", True, "#0"),
        ("torchvision", "0.20.1", True, "#0"),
        ("vllm", "v0.9.1", True, "#0"),
        ("vllm-ascend", "v0.9.1rc1", True, "#0"),
        ("mbridge", "0.13.0", True, "#0"),
    ],
    "megatron_ngc": [
        ("nvcr.io/nvidia/pytorch", "25.04-py3", True, "#0"),
        ("TransformerEngine", "v2.4", True, "#0"),
        ("Megatron-LM", "core_r0.12.0", False, "#0"),
        ("apex", "0b1c2d3e", True, "#0"),
        ("transformers", ">=4.51,<4.53", False, "#0"),
        ("datasets", "3.6.0", True, "#0"),
        ("accelerate", "unpinned", False, "#0"),
        ("git", "2.43.0", True, "#0"),
        ("nvidia-resiliency-ext", "0.4.1", True, "#0"),
    ],
    "rl_vllm_stable": [
        ("nvidia/cuda", "12.8.1-devel-ubuntu22.04", True, "#0"),
        ("git", "2.34.1", True, "#0"),
        ("libnuma-dev", "unpinned", False, "#0"),
        ("cuda-toolkit-12-8", "unpinned", False, "#0"),
        ("torch", "2.7.1", True, "#0"),
        ("torchvision", "0.22.1", True, "#0"),
        ("vllm", "0.10.1.1", True, "#0"),
        ("TransformerEngine", "release_v2.6", False, "#0"),
        ("Megatron-LM", "core_v0.13.0", True, "#0"),
        ("flash_attn", "2.8.1", True, "#0"),
        ("DeepEP", "b92d0d4", True, "#0"),
        ("nccl", "2.27.3", True, "#0"),
        ("deepep", "1.2.1", True, "#0"),
    ],
    "rocm_rl": [
        ("rocm/dev-ubuntu-22.04", "6.4.1-complete", True, "base"),
        ("rocm", "6.4.1", True, "base"),
        ("amdgpu", "6.4.1", True, "base"),
        ("rocm-dev", "unpinned", False, "base"),
        ("hipblaslt", "unpinned", False, "base"),
        ("pytorch", "release/2.7", False, "base"),
        ("triton", "3.3.1", True, "final"),
        ("pip", "unpinned", False, "final"),
        ("setuptools", "unpinned", False, "final"),
        ("wheel", "unpinned", False, "final"),
    ],
    "rocm_wheels": [
        ("rocm/dev-ubuntu-22.04", "7.0.2-complete", True, "base"),
        ("software-properties-common", "unpinned", False, "base"),
        ("git", "unpinned", False, "base"),
        ("curl", "unpinned", False, "base"),
        ("python3.12", "unpinned", False, "base"),
        ("python3.12-dev", "unpinned", False, "base"),
        ("packaging", "unpinned", False, "base"),
        ("cmake", "<4", False, "base"),
        ("ninja", "unpinned", False, "base"),
        ("setuptools", "<80", False, "base"),
        ("triton", "c0ffee12", True, "build_triton"),
        ("pytorch", "a1b2c3d4", True, "build_torch"),
        ("kineto", "9f8e7d6", True, "build_torch"),
        ("vision", "v0.24.0", True, "build_torch"),
        ("flash-attention", "5e6f7a8b", True, "build_fa"),
        ("aiter", "v0.1.9.post1", True, "build_aiter"),
        ("amdsmi", "7.0.2", True, "final"),
    ],
    "sglang_dev": [
        ("nvidia/cuda", "12.9.1-cudnn-devel-ubuntu22.04", True, "base"),
        ("tzdata", "unpinned", False, "base"),
        ("curl", "unpinned", False, "base"),
        ("wget", "unpinned", False, "base"),
        ("git-lfs", "unpinned", False, "base"),
        ("ccache", "unpinned", False, "base"),
        ("libnuma-dev", "unpinned", False, "base"),
        ("rdma-core", "unpinned", False, "base"),
        ("ibverbs-providers", "unpinned", False, "base"),
        ("gdrcopy", "2.5.1", True, "base"),
        ("sglang", "v0.5.5", True, "dev"),
        ("nvidia-nccl-cu12", "2.28.3", True, "dev"),  # torch 2.9.0 is for CUDA 13 (nvidia/cuda's ENV)
        ("DeepEP", "9af0e0d0", True, "dev"),
        ("nvidia-cutlass-dsl", "4.3.0.dev0", True, "dev"),
        ("CMake", "3.31.1", True, "dev"),
        ("pytest", "unpinned", False, "dev"),
        ("black", "unpinned", False, "dev"),
        ("isort", "unpinned", False, "dev"),
        ("uv", "unpinned", False, "dev"),
        ("pre-commit", "unpinned", False, "dev"),
        ("clangd", "18.1.3", True, "dev"),
    ],
    "sglang_tools": [
        ("lmsysorg/sglang", "v0.5.2-cu126", True, "build"),
        ("nsight-systems", "2025.6.1", True, "build"),
        ("sgl-kernel", "0.3.9.post2", True, "build"),
        ("flashinfer-python", "0.3.1", True, "build"),
        ("deepspeed", "0.17.5", True, "build"),
        ("ruff", "0.6.9", True, "build"),
        ("mooncake", "0.3.6", True, "build"),
        ("ucx", "1.19.0", True, "build"),
    ],
    "trtllm_style": [
        ("nvcr.io/nvidia/pytorch", "25.06-py3", True, "base"),
        ("tensorrt", "10.11.0.33", True, "base"),
        ("cmake", "version set by install_cmake.sh", False, "base"),
        ("libibverbs-dev", "39.0", True, "base"),
        ("ccache", "4.5.1", True, "base"),
        ("gdrcopy", "v2.5", True, "base"),
        ("nvidia-modelopt", "0.33.0", True, "base"),
        ("cuda-python", "12.9.0", True, "base"),
        ("mpi4py", "4.0.3", True, "base"),
        ("tensorrt_llm", "1.0.0", True, "wheel"),
        ("flashinfer-python", "0.2.9", True, "release"),
    ],
}


def rows_of(path: Path) -> list[Row]:
    """The component rows docgen lists for `path`: (name, version shown, pinned, stage)."""
    return [(c.name, c.display_version, c.pinned, c.stage) for c in build_model(path).components]


def measure(found: list[Row], expected: list[Row]) -> dict[str, int]:
    """Rows listed, right, wrong, phantom and missed; pinned rows expected and found right."""
    left = Counter(expected)
    names = Counter(row[0] for row in expected)
    counts = dict.fromkeys(("listed", "right", "wrong", "phantom", "missed"), 0)
    counts["listed"] = len(found)
    for row in found:
        if left[row] > 0:
            left[row] -= 1
            names[row[0]] -= 1
            counts["right"] += 1
        elif names[row[0]] > 0:
            names[row[0]] -= 1
            counts["wrong"] += 1
        else:
            counts["phantom"] += 1
    counts["missed"] = sum(n for n in names.values() if n > 0)
    pinned = Counter(row for row in expected if row[2])
    counts["pinned"] = sum(pinned.values())
    counts["pinned_found"] = sum(min(n, Counter(found)[row]) for row, n in pinned.items())
    return counts


def test_every_case_has_expected_rows() -> None:
    assert {p.stem for p in CASES} == set(EXPECTED)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_rows_are_what_the_image_ends_with(path: Path) -> None:
    assert rows_of(path) == EXPECTED[path.stem]


def main() -> None:
    total: Counter[str] = Counter()
    for path in CASES:
        counts = measure(rows_of(path), EXPECTED[path.stem])
        total.update(counts)
        print(path.stem, counts)
    print("total", dict(total))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
