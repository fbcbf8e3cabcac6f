"""`docgen.audit.build_flags`: a block of CMake `-D` options the README quotes from the build, against
the options the Dockerfile's RUNs pass (a planted drift next to the nearest true statements)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ARG GPU_LIST="80;90"
RUN git clone --branch 2.4.0 https://example.com/meshforge.git && \\
    cmake -S meshforge -B build -GNinja \\
        -DCMAKE_BUILD_TYPE=Release \\
        -DUSE_GPU=ON \\
        -DCMAKE_CUDA_ARCHITECTURES="86;89;90" \\
        -DINSTALL_ROOT=/opt/meshforge && \\
    ninja -C build install
RUN cmake -S helper -B hb "-DHELPER_ARCHS=${GPU_LIST}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
# RUN cmake -DUSE_VIEWER=ON ..
"""


def _audit(tmp_path: Path, readme: str) -> list[str]:
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, tmp_path)
    ]


def _readme(intro: str, block: str, lang: str = "cmake") -> str:
    return f"# Meshforge image\n\n## Build\n\n{intro}\n```{lang}\n{block}\n```\n"


def test_an_option_the_build_now_passes_otherwise(tmp_path: Path) -> None:
    block = (
        "-DUSE_GPU=ON                              # GPU meshing\n"
        '-DCMAKE_CUDA_ARCHITECTURES="80;86;89;90"  # recent NVIDIA GPUs\n'
        "-DINSTALL_ROOT=/opt/meshforge"
    )
    assert _audit(tmp_path, _readme("The image builds meshforge 2.4.0 with:", block)) == [
        "8: README says -DCMAKE_CUDA_ARCHITECTURES=80;86;89;90 but Dockerfile:7 builds with "
        "-DCMAKE_CUDA_ARCHITECTURES=86;89;90 (likely)"
    ]


def test_a_switch_turned_off(tmp_path: Path) -> None:
    assert _audit(tmp_path, _readme("Built with:", "-DUSE_GPU=OFF \\\n-DCMAKE_BUILD_TYPE=Release", "")) == [
        "7: README says -DUSE_GPU=OFF but Dockerfile:6 builds with -DUSE_GPU=ON (likely)"
    ]


@pytest.mark.parametrize(
    "block",
    [
        "-DUSE_GPU=TRUE",  # CMake's other word for ON
        "-DUSE_GPU:BOOL=on",  # typed, lower case
        '-DCMAKE_CUDA_ARCHITECTURES="90;89;86"',  # the same list in another order
        "-DCMAKE_CUDA_ARCHITECTURES=86;89;90 -DUSE_GPU=ON",  # two on a line, unquoted list
        "-DCMAKE_BUILD_TYPE=RelWithDebInfo",  # agrees with the second cmake of the file
        "-DHELPER_ARCHS=75",  # the file passes a variable: its value is the build's
        "-DUSE_VIEWER=OFF",  # only a comment line of the file names it
        "-DENABLE_PYTHON=ON",  # no cmake of the file passes it (another project's option)
        "-DCMAKE_CUDA_ARCHITECTURES=<your GPUs>",  # a placeholder
    ],
)
def test_options_that_agree_or_cannot_be_compared(tmp_path: Path, block: str) -> None:
    assert _audit(tmp_path, _readme("Built with:", block)) == []


@pytest.mark.parametrize(
    ("intro", "block", "lang"),
    [
        # a command the reader runs on their own machine, not a quoted list of the build's options
        ("Build it on the host:", "cmake -S . -B build -DUSE_GPU=OFF", "bash"),
        ("Build it on the host:", "cmake .. \\\n  -DUSE_GPU=OFF", "bash"),
        # words presenting the block as the reader's or an example
        ("For example, for an older card:", '-DCMAKE_CUDA_ARCHITECTURES="75"', "cmake"),
        ("To build your own without a GPU, pass:", "-DUSE_GPU=OFF", ""),
        # another language: a C define, not a CMake option
        ("Defines:", "-DUSE_GPU=OFF", "python"),
    ],
)
def test_blocks_that_are_no_quote_of_the_build(tmp_path: Path, intro: str, block: str, lang: str) -> None:
    assert _audit(tmp_path, _readme(intro, block, lang)) == []


def test_prose_options_are_not_read(tmp_path: Path) -> None:
    readme = "# Meshforge image\n\nThe build passes `-DUSE_GPU=OFF` to cmake.\n"
    assert _audit(tmp_path, readme) == []
