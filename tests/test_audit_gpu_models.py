"""`docgen.audit.gpu_models`: a GPU model a README says the image is made for (`MI300X`, `H100`) against
the targets the image sets (`HSA_OVERRIDE_GFX_VERSION`, `PYTORCH_ROCM_ARCH`, `TORCH_CUDA_ARCH_LIST` …).
Planted drifts and the nearest true statements as traps; the READMEs and Dockerfiles are small models
written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen import hardware
from docgen.analysis import build_model
from docgen.audit import audit

OVERRIDE = "FROM rocm/dev-ubuntu-22.04:6.2\nENV HSA_OVERRIDE_GFX_VERSION=11.0.0\nRUN true\n"
ARCH_LIST = 'FROM rocm/dev-ubuntu-22.04:6.2\nARG PYTORCH_ROCM_ARCH="gfx90a;gfx1100"\nRUN true\n'
CUDA_LIST = 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.0;8.6"\nRUN true\n'


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_the_tables_read_model_names_and_overrides() -> None:
    assert hardware.model_target("mi300x") == "gfx942"
    assert hardware.model_target("MI250") == "gfx90a"
    assert hardware.model_target("H100") == "9.0"
    assert hardware.model_target("RTX") is None
    assert hardware.hsa_override_target("11.0.0") == "gfx1100"
    assert hardware.hsa_override_target("9.0.10") == "gfx90a"
    assert hardware.hsa_override_target("10.3.0") == "gfx1030"
    assert hardware.hsa_override_target("latest") is None


@pytest.mark.parametrize(
    "sentence",
    [
        "- Pre-configured for MI300X",
        "The image is optimized for AMD Instinct MI300X accelerators.",
        "Tuned for the `MI300X`.",
        "This container is built for MI250 and MI300X GPUs.",
    ],
)
def test_a_model_the_override_rules_out(tmp_path: Path, sentence: str) -> None:
    found = _audit(tmp_path, f"# Bench\n\n{sentence}\n", OVERRIDE)
    name = "MI250 (gfx90a)" if "MI250" in sentence else "MI300X (gfx942)"
    assert found == [
        f"3: README says the image is for {name}, but Dockerfile:2 sets "
        "HSA_OVERRIDE_GFX_VERSION=11.0.0 (gfx1100) (certain)"
    ] + (
        [
            "3: README says the image is for MI300X (gfx942), but Dockerfile:2 sets "
            "HSA_OVERRIDE_GFX_VERSION=11.0.0 (gfx1100) (certain)"
        ]
        if "MI250" in sentence
        else []
    )


def test_a_model_a_target_list_lacks_is_likely(tmp_path: Path) -> None:
    found = _audit(tmp_path, "# Bench\n\nOptimized for MI300X.\n", ARCH_LIST)
    assert found == [
        "3: README says the image is for MI300X (gfx942), but Dockerfile:2 sets "
        "PYTORCH_ROCM_ARCH=gfx90a;gfx1100 (likely)"
    ]
    found = _audit(tmp_path, "# Bench\n\nOptimized for H100.\n", CUDA_LIST)
    assert found == [
        "3: README says the image is for H100 (9.0), but Dockerfile:2 sets "
        "TORCH_CUDA_ARCH_LIST=8.0;8.6 (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile"),
    [
        ("Optimized for RX 7900 XTX and MI250.", ARCH_LIST),  # gfx90a is built
        ("Pre-configured for MI300X.", OVERRIDE.replace("11.0.0", "9.4.2")),
        ("Optimized for A100.", CUDA_LIST),
        ("Optimized for MI300X.", CUDA_LIST),  # no AMD targets: may run anywhere ROCm does
        ("Optimized for MI300X.", "FROM rocm/pytorch:latest\nRUN true\n"),
        ("If you have an MI300X, set HSA_OVERRIDE_GFX_VERSION yourself.", OVERRIDE),
        ("To run it on your MI300X, built for gfx1100 by default, override the arch.", OVERRIDE),
        ("Tested on MI300X.", OVERRIDE),
        ("Optimized for MI300X or MI250.", OVERRIDE),
    ],
)
def test_a_model_the_image_can_run_is_no_finding(tmp_path: Path, sentence: str, dockerfile: str) -> None:
    assert _audit(tmp_path, f"# Bench\n\n{sentence}\n", dockerfile) == []
