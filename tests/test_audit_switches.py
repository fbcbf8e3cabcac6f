"""`docgen audit`: a feature a README says the image is built with that a switch of its own build turns
off (docgen/audit/switches.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.switches import _feature, _switches_in
from docgen.pipeline import build_model

OPENCV = """\
FROM nvidia/cuda:12.2.0-cudnn8-devel-ubuntu22.04
RUN apt-get update && apt-get install -y qtbase5-dev libgstreamer1.0-dev libavcodec-dev
RUN git clone --depth 1 -b 4.12.0 https://github.com/opencv/opencv.git /opt/opencv
WORKDIR /opt/opencv/build
RUN cmake -D CMAKE_BUILD_TYPE=RELEASE \\
      -D WITH_CUDA=ON \\
      -D WITH_QT=OFF \\
      -D WITH_OPENGL=ON \\
      -D WITH_GSTREAMER=ON \\
      -D WITH_FFMPEG=ON \\
      -D BUILD_TESTS=OFF \\
      .. && make -j8 install
"""

LLAMA = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build
RUN git clone https://github.com/ggml-org/llama.cpp /src
WORKDIR /src
RUN cmake -B build -DGGML_CUDA=OFF -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF && cmake --build build -j
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
COPY --from=build /src/build/bin /app
"""

FFMPEG = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y build-essential nasm
RUN ./configure --prefix=/usr/local --enable-gpl --disable-cuda --disable-doc && make install
RUN USE_NNPACK=0 python3 setup.py install
"""


def found(root: Path, readme: str, dockerfile: str = OPENCV) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, root, root)
    ]


def off(line: int, name: str, where: int, switch: str, confidence: str) -> str:
    return (
        f"{line}: README says the image is built with {name}, but Dockerfile:{where} switches it off "
        f"(`{switch}`) ({confidence})"
    )


@pytest.mark.parametrize(
    ("name", "cmake", "key"),
    [
        ("WITH_QT", True, "qt"),
        ("GGML_CUDA", True, "cuda"),
        ("USE_CUDA", False, "cuda"),
        ("LLAMA_BUILD_SERVER", True, "server"),
        ("GGML_TENSORRT", True, "tensorrt"),
        ("TF_NEED_TENSORRT", False, "tensorrt"),
        ("BUILD_SHARED_LIBS", True, None),  # no one feature
        ("OPENCV_DNN_CUDA", True, None),
        ("BUILD_TESTS", True, None),  # what is built beside it, no feature
        ("CUDA_HOME", False, None),  # no switch word, no cmake option
    ],
)
def test_the_feature_a_switch_names(name: str, cmake: bool, key: str | None) -> None:
    assert _feature(name, cmake) == key


def test_switches_read_off_on_and_unknown() -> None:
    read = [(k, o) for k, o, _, _ in _switches_in("cmake -DWITH_QT=OFF -DGGML_CUDA=ON -DWITH_GTK=${GTK} ..")]
    assert read == [("qt", True), ("cuda", False), ("gtk", None)]
    read = [(k, o) for k, o, _, _ in _switches_in("./configure --disable-cuda --with-x264 --enable-nvenc=no")]
    assert read == [("cuda", True), ("x264", False), ("nvenc", True)]
    # the switches inside a quoted value are read too
    read = [(k, o) for k, o, _, _ in _switches_in("ENV CMAKE_ARGS=\"-DGGML_CUDA=on -DWITH_QT='OFF'\"")]
    assert read == [("cuda", False), ("qt", True)]


@pytest.mark.parametrize(
    "readme",
    [
        "# OpenCV\n\n## Features\n\n- OpenCV 4.12.0 with contrib\n"
        "- Hardware acceleration: OpenGL, Qt5, GStreamer\n",
        "# OpenCV\n\nThe image is built with:\n\n- CUDA 12.2\n- Qt\n- GStreamer\n",
    ],
)
def test_a_listed_feature_the_build_switches_off(tmp_path: Path, readme: str) -> None:
    line = next(n for n, t in enumerate(readme.splitlines(), 1) if "Qt" in t)
    name = "Qt5" if "Qt5" in readme else "Qt"
    assert found(tmp_path, readme) == [off(line, name, 7, "-D WITH_QT=OFF", "certain")]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "name", "where", "switch"),
    [
        (
            "# llama.cpp server\n\nllama.cpp with CUDA support, served on port 8080.\n",
            LLAMA,
            "CUDA",
            4,
            "-DGGML_CUDA=OFF",
        ),
        ("# llama.cpp server\n\nA CUDA-accelerated llama.cpp server.\n", LLAMA, "CUDA", 4, "-DGGML_CUDA=OFF"),
        ("# About\n\n## llama.cpp with CUDA\n", LLAMA, "CUDA", 4, "-DGGML_CUDA=OFF"),
        ("# ffmpeg\n\nAn ffmpeg build with CUDA acceleration.\n", FFMPEG, "CUDA", 3, "--disable-cuda"),
        ("# torch\n\nPyTorch compiled with NNPACK support.\n", FFMPEG, "NNPACK", 4, "USE_NNPACK=0"),
    ],
)
def test_a_feature_a_sentence_claims_that_a_switch_turns_off(
    tmp_path: Path, readme: str, dockerfile: str, name: str, where: int, switch: str
) -> None:
    assert found(tmp_path, readme, dockerfile) == [off(3, name, where, switch, "likely")]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the README names the switch: it tells the reader how to turn it on
        ("## Features\n\n- GUI: Qt5 (set `WITH_QT=ON` to enable)\n", OPENCV),
        ("## Features\n\n- Qt5 highgui\n\nBuild with `-D WITH_QT=ON` for a Qt window.\n", OPENCV),
        # said to be off, optional, or the host's
        ("## Features\n\n- OpenGL, GStreamer\n- Qt is not enabled\n", OPENCV),
        ("## Features\n\n- Qt support is optional\n", OPENCV),
        ("## Requirements\n\n- Qt5 on the host to show windows\n", OPENCV),
        # a feature the build does not switch off, and one switched off the README does not claim
        ("## Features\n\n- Hardware acceleration: OpenGL, GStreamer, FFmpeg\n", OPENCV),
        # the base image's, said so; a version of a component is another rule's
        ("The image has CUDA support from its base image.\n", LLAMA),
        ("## Features\n\n- CUDA 12.4 runtime\n", LLAMA),
        # switched off in one stage, on in the built one
        (
            "llama.cpp with CUDA support.\n",
            LLAMA.replace("-DGGML_CUDA=OFF", "-DGGML_CUDA=ON").replace(
                "RUN git clone", "RUN cmake -B cpu -DGGML_CUDA=OFF\nRUN git clone"
            ),
        ),
        # a heading naming a topic, not the image
        ("# llama.cpp\n\n## CUDA support\n\nBuild Dockerfile.cuda for it.\n", LLAMA),
        # a value from a build arg: another may be passed
        ("llama.cpp with CUDA support.\n", LLAMA.replace("-DGGML_CUDA=OFF", "-DGGML_CUDA=${CUDA}")),
        # switched on again inside a quoted value another RUN reads
        (
            "llama.cpp with CUDA support.\n",
            LLAMA.replace("RUN git clone", 'ENV CMAKE_ARGS="-DGGML_CUDA=on"\nRUN git clone'),
        ),
        # the switch is in a comment, not the build
        (
            "## Features\n\n- Hardware acceleration: Qt5\n",
            OPENCV.replace("-D WITH_QT=OFF \\\n", "#-D WITH_QT=OFF \\\n"),
        ),
    ],
)
def test_what_stays_silent(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert [f for f in found(tmp_path, readme, dockerfile) if "switches it off" in f] == []


def test_a_stage_the_image_does_not_build_switches_nothing_off(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu:22.04 AS cpu\nRUN cmake -B build -DGGML_CUDA=OFF && cmake --build build\n"
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS gpu\nRUN cmake -B build -DGGML_CUDA=ON\n"
    )
    assert found(tmp_path, "llama.cpp with CUDA support.\n", dockerfile) == []


def test_history_is_not_a_claim(tmp_path: Path) -> None:
    readme = (
        "# llama\n\nA llama.cpp server.\n\n## Changelog\n\n"
        "- 0.2: dropped the CUDA-accelerated build\n- 0.1: llama.cpp with CUDA support\n"
    )
    assert [f for f in found(tmp_path, readme, LLAMA) if "switches it off" in f] == []
