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
CUDA_LIST = (
    'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.0;8.6"\n'
    "RUN pip install --no-build-isolation ./kernels\n"
)


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


# Lists of cards, floors, and the lists an env file or a literal CMake option gives. The first two
# READMEs are modelled on a llama.cpp stack for Radeon cards and a speech server built with one fork of
# a HIP library; the names are made up.
CARDS = """# Stack

## Hardware

Built and validated for:

- **AMD Radeon RX 7900 XTX** (RDNA3, 24 GB) ✓
- **AMD Radeon RX 7800 XT / 7700 XT** (RDNA3) ✓
- **AMD Instinct MI300X** (CDNA3) ✓
"""
ONE_TARGET = (
    "FROM rocm/dev-ubuntu-24.04:7.1-complete\n"
    "ARG GPU_TARGETS=gfx1100\n"
    "RUN cmake -DGPU_TARGETS=${GPU_TARGETS} .\n"
)
SPEECH = """# Speech server

## Prerequisites

- AMD GPU with gfx900 or newer architecture
- Docker and Docker Compose
"""
SIX_TARGETS = (
    "FROM rocm/dev-ubuntu-24.04:7.1-complete\n"
    "ARG HIP_TARGETS=gfx1100,gfx1101\n"
    'ARG CMAKE_HIP_ARCHITECTURES="gfx1100;gfx1101;gfx1030;gfx1031"\n'
    'RUN cmake -DCMAKE_HIP_ARCHITECTURES="${CMAKE_HIP_ARCHITECTURES}" .\n'
)


def test_the_table_reads_radeon_cards() -> None:
    assert hardware.model_target("RX 7900 XTX") == "gfx1100"
    assert hardware.model_target("RX 7700 XT") == "gfx1101"
    assert hardware.model_target("RX 6700 XT") == "gfx1031"
    assert hardware.model_target("RX 6800M") is None  # a mobile chip: another target
    assert hardware.lookup("gfx1012").family == "RDNA"


def test_a_list_of_cards_the_build_does_not_compile_for(tmp_path: Path) -> None:
    assert _audit(tmp_path, CARDS, ONE_TARGET) == [
        "8: README lists the image as built for RX 7800 XT (gfx1101), RX 7700 XT (gfx1101), "
        "MI300X (gfx942), but Dockerfile:2 sets GPU_TARGETS=gfx1100: no kernels for gfx1101, gfx942 (likely)"
    ]


def test_a_card_that_may_need_an_override_is_read_against_its_family(tmp_path: Path) -> None:
    readme = (
        "# Stack\n\nDesigned for:\n\n- RX 7900 XTX\n"
        "- RX 6700 XT / 6800 (may need `HSA_OVERRIDE_GFX_VERSION`)\n"
    )
    found = _audit(tmp_path, readme, ONE_TARGET)  # no RDNA2 target: no override makes it run
    assert found == [
        "6: README lists the image as built for RX 6700 XT (gfx1031), RX 6800 (gfx1030), but Dockerfile:2 "
        "sets GPU_TARGETS=gfx1100: no kernels for gfx1031, gfx1030 (likely)"
    ]
    assert _audit(tmp_path, readme, ONE_TARGET.replace("gfx1100", "gfx1100;gfx1030")) == []


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (CARDS, ONE_TARGET.replace("gfx1100", '"gfx1100;gfx1101;gfx942"')),
        (CARDS.replace("Built and validated for", "Tested on"), ONE_TARGET),  # where it ran, not built for
        (CARDS.replace("Built and validated for", "Upstream llama.cpp is built for"), ONE_TARGET),
        (CARDS, "FROM rocm/pytorch:latest\nRUN pip install vllm\n"),  # no list: a prebuilt wheel's targets
        (CARDS.replace("- **AMD Instinct MI300X** (CDNA3) ✓\n", "- Any ROCm GPU\n"), ONE_TARGET),
    ],
)
def test_a_list_of_cards_that_holds_is_no_finding(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert _audit(tmp_path, readme, dockerfile) == []


def test_a_floor_the_build_does_not_compile(tmp_path: Path) -> None:
    assert _audit(tmp_path, SPEECH, SIX_TARGETS) == [
        "5: README says the image runs on gfx900 or newer, but Dockerfile:3 sets "
        "CMAKE_HIP_ARCHITECTURES=gfx1100;gfx1101;gfx1030;gfx1031: no kernels for gfx900 (likely)"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "- AMD GPU with gfx1030 or newer architecture",  # built
        "- If your card is gfx900 or newer, set HSA_OVERRIDE_GFX_VERSION yourself",
        "- Upstream supports gfx900 or newer",
    ],
)
def test_a_floor_that_holds_is_no_finding(tmp_path: Path, line: str) -> None:
    readme = SPEECH.replace("- AMD GPU with gfx900 or newer architecture", line)
    assert _audit(tmp_path, readme, SIX_TARGETS) == []
    assert _audit(tmp_path, SPEECH, "FROM rocm/pytorch:latest\nRUN pip install ctranslate2\n") == []


def test_a_literal_cmake_list_and_an_env_file_the_build_reads(tmp_path: Path) -> None:
    literal = 'FROM rocm/dev-ubuntu-24.04:7.1-complete\nRUN cmake -DAMDGPU_TARGETS="gfx1151" -B build .\n'
    assert _audit(tmp_path, "# Box\n\nNeeds an AMD GPU, gfx1030+.\n", literal) == [
        "3: README says the image runs on gfx1030+, but Dockerfile:2 sets -DAMDGPU_TARGETS=gfx1151: "
        "no kernels for gfx1030 (likely)"
    ]
    make_tree(
        tmp_path,
        {
            "versions.env": "# GPU_ARCH=gfx1030,gfx1100\nGPU_ARCH=gfx1151\n",
            "Makefile": "include versions.env\nexport\nbuild:\n\t./build.sh\n",
            "build.sh": "#!/bin/sh\ndocker build --build-arg GPU_ARCH=$GPU_ARCH -t box .\n",
        },
    )
    readme = "# Box\n\nNeeds an AMD GPU, gfx1030 or newer.\n\n```bash\nmake build\n```\n"
    dockerfile = (
        "FROM rocm/dev-ubuntu-24.04:7.1-complete\nARG GPU_ARCH=gfx1030,gfx1100\nRUN make GPU=$GPU_ARCH\n"
    )
    assert _audit(tmp_path, readme, dockerfile) == [
        "3: README says the image runs on gfx1030 or newer, but versions.env:2 sets GPU_ARCH=gfx1151: "
        "no kernels for gfx1030 (likely)"
    ]


# A floor another party sets, in a README that says its image is for a GPU below it. Modelled on a
# ComfyUI image kept on an old ROCm for a Vega card and on a llama server pinned to an RDNA2 override;
# the names are made up.
VEGA = "FROM rocm/pytorch:rocm5.7_ubuntu22.04\nENV HSA_OVERRIDE_GFX_VERSION=9.0.6\nRUN true\n"
VEGA_README = """# Vega box

Runs on a Radeon VII (gfx906) with ROCm 5.7.

## Why ROCm 5.7

- ROCm 6 puts gfx906 in maintenance
- {floor}
"""


@pytest.mark.parametrize(
    ("floor", "dockerfile"),
    [
        ("AMD now recommends gfx908+ (MI100 and newer)", VEGA),
        ("新しい版は gfx90a 以降 のみ: gfx90a or newer", VEGA),
        # an RDNA2 image whose README names its own target in a code block
        (
            "Newer wheels want gfx1100 or newer",
            'FROM rocm/dev-ubuntu-22.04:6.2\nARG GPU_TARGETS="gfx1030"\n'
            "RUN cmake -DGPU_TARGETS=${GPU_TARGETS} .\n",
        ),
    ],
)
def test_a_floor_above_the_target_the_readme_names_for_the_image(
    tmp_path: Path, floor: str, dockerfile: str
) -> None:
    """The README says the image is for gfx906 (or shows its gfx1030 build): a higher floor it quotes
    is not the oldest GPU the image admits."""
    readme = VEGA_README.format(floor=floor)
    if "gfx1030" in dockerfile:
        readme = readme.replace("Radeon VII (gfx906)", "RX 6800").replace("ROCm 5.7", "ROCm 6.2")
        readme += "\n```sh\ndocker build --build-arg GPU_TARGETS=gfx1030 -t box .\n```\n"
    assert _audit(tmp_path, readme, dockerfile) == []


def test_a_floor_is_still_read_when_the_readme_names_only_newer_or_no_built_targets(tmp_path: Path) -> None:
    """A built target the README names above the floor (gfx1100 over gfx1030+), or none named: the
    floor is the image's, and the image lacks its kernels."""
    two = 'FROM rocm/dev-ubuntu-22.04:6.2\nARG GPU_TARGETS="gfx1100;gfx1101"\nRUN true\n'
    readme = "# Box\n\nTested on gfx1100.\n\n## Needs\n\n- An AMD GPU, gfx1030 or newer\n"
    expected = (
        "7: README says the image runs on gfx1030 or newer, but Dockerfile:2 sets "
        "GPU_TARGETS=gfx1100;gfx1101: no kernels for gfx1030 (likely)"
    )
    assert _audit(tmp_path, readme, two) == [expected]
    no_name = readme.replace("Tested on gfx1100.", "Tested on a desktop.")
    assert _audit(tmp_path / "b", no_name, two) == [expected]
    vega = (
        VEGA_README.format(floor="Needs gfx908 or newer")
        .replace(" (gfx906)", "")
        .replace("puts gfx906", "puts it")
    )
    assert [f for f in _audit(tmp_path / "c", vega, VEGA) if "gfx908" in f] != []


# modelled on an inference server whose builder stage compiles its CUDA extensions into wheels
WHEELS = """\
ARG CUDA_VERSION=12.8.0
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS builder
ENV DEBIAN_FRONTEND=noninteractive \\
    TORCH_CUDA_ARCH_LIST="8.6" \\
    CUDA_HOME=/usr/local/cuda
RUN pip wheel --wheel-dir=/wheels "fastattn @ git+https://example.org/fastattn.git"
FROM nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu22.04
COPY --from=builder /wheels /wheels
RUN pip install --no-index --find-links=/wheels fastattn
"""
REQUIREMENTS = """\
# Server

## System Requirements

- **GPU**: an NVIDIA GPU with Ampere architecture or newer.
  - **Supported Architectures**: Ampere, Hopper (e.g., RTX 30-series, RTX 40-series, A100, H100).
  - **Unsupported Architectures**: Turing, Volta (e.g., RTX 20-series, T4, V100).
"""
# modelled on a kernel library whose build calls nvcc with its targets spelled out
NVCC = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
COPY kernels /src
RUN nvcc -O3 -gencode arch=compute_80,code=sm_80 -o /usr/local/bin/bench /src/bench.cu
"""
SUPPORTS = "# Bench\n\nThe image supports H100 and L40S GPUs.\n"


def _support(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    return [f for f in _audit(tmp_path, readme, dockerfile) if "supports" in f]


def test_cards_said_supported_that_no_compiled_target_runs_on(tmp_path: Path) -> None:
    # a card of another major, or of an older minor than the one cubin: no code runs on it; the RTX 40
    # series (8.9) runs the 8.6 cubin, the RTX 30 series is 8.6
    assert _support(tmp_path / "a", REQUIREMENTS, WHEELS) == [
        "6: README says the image supports A100 (8.0), H100 (9.0), but Dockerfile:3 sets "
        "TORCH_CUDA_ARCH_LIST=8.6, which its build compiles with: no code for sm_80, sm_90 or a target "
        "those cards run (likely)"
    ]
    # nvcc's own targets: the sm_80 cubin runs on the L40S (8.9), not on the H100 (9.0)
    assert _support(tmp_path / "b", SUPPORTS, NVCC) == [
        "3: README says the image supports H100 (9.0), but Dockerfile:3 sets -gencode=sm_80, which its "
        "build compiles with: no code for sm_90 or a target those cards run (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # PTX of 8.6 runs on every newer card; A100 has the cubin of its own
        (REQUIREMENTS, WHEELS.replace('"8.6"', '"8.0;8.6+PTX"')),
        (SUPPORTS, NVCC.replace("code=sm_80", "code=[sm_80,compute_80]")),
        # CMake's plain `80` builds PTX as well
        (SUPPORTS, NVCC.replace("RUN nvcc", 'RUN cmake -DCMAKE_CUDA_ARCHITECTURES="80" -B b && nvcc')),
        # a list nothing compiles with: the prebuilt wheels run on every card
        (
            SUPPORTS,
            'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="7.0"\n'
            "RUN pip install torch\n",
        ),
        # not said supported, or said unsupported
        ("# Bench\n\nH100 and L40S are not supported yet.\n", NVCC),
        ("# Bench\n\n- **Unsupported GPUs**: H100, L40S\n", NVCC),
    ],
)
def test_cards_said_supported_that_the_build_covers(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert _support(tmp_path, readme, dockerfile) == []


def test_cuda_codes_and_what_runs_them() -> None:
    assert hardware.cuda_code("8.6+PTX") == ("8.6", True, True, False)
    assert hardware.cuda_code("86-real") == ("8.6", True, False, False)
    assert hardware.cuda_code("compute_90") == ("9.0", False, True, False)
    assert hardware.cuda_code("gfx942") is None
    assert hardware.cuda_runs_on("8.9", [("8.6", True, False, False)])
    assert not hardware.cuda_runs_on("9.0", [("8.6", True, False, False)])
    assert hardware.cuda_runs_on("9.0", [("8.6", False, True, False)])
    assert not hardware.cuda_runs_on("10.0", [("9.0", True, True, True)])  # 9.0a runs on 9.0 only
    assert hardware.model_target("RTX 30-series") == "8.6"
    assert hardware.model_target("RTX 4090") == "8.9"
