"""`docgen audit`: a feature a README says the image is built with that a switch of its own build turns
off (docgen/audit/switches.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.switches import feature, switches_in
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
        ("LLAMA_CLBLAST", False, "clblast"),  # llama.cpp's make variable, in an ENV
        ("GGML_VULKAN", False, "vulkan"),
        ("MODEL_CUDA", False, None),  # no project whose Makefile reads it
    ],
)
def test_the_feature_a_switch_names(name: str, cmake: bool, key: str | None) -> None:
    assert feature(name, cmake) == key


def test_switches_read_off_on_and_unknown() -> None:
    read = [(k, o) for k, o, _, _ in switches_in("cmake -DWITH_QT=OFF -DGGML_CUDA=ON -DWITH_GTK=${GTK} ..")]
    assert read == [("qt", True), ("cuda", False), ("gtk", None)]
    read = [(k, o) for k, o, _, _ in switches_in("./configure --disable-cuda --with-x264 --enable-nvenc=no")]
    assert read == [("cuda", True), ("x264", False), ("nvenc", True)]
    # the switches inside a quoted value are read too
    read = [(k, o) for k, o, _, _ in switches_in("ENV CMAKE_ARGS=\"-DGGML_CUDA=on -DWITH_QT='OFF'\"")]
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


# --------------------------------------------------------------------------------------------------
# A CPU feature the README says the image requires that its build compiles without

NO_AVX = """\
FROM alpine:3.20 AS build
RUN apk add --no-cache build-base cmake git
RUN git clone --depth 1 https://github.com/ggml-org/llama.cpp.git /src
WORKDIR /src
RUN cmake -B out -DCMAKE_C_FLAGS="-mno-avx -mno-avx2" -DCMAKE_CXX_FLAGS="-mno-avx -mno-avx2"
RUN cmake --build out --target llama-server -j 4
FROM alpine:3.20
COPY --from=build /src/out/bin/llama-server /llama-server
ENTRYPOINT ["/llama-server"]
"""
GGML_OFF = """\
FROM rocm/dev-ubuntu-22.04:6.2-complete
RUN git clone https://github.com/ggml-org/llama.cpp /opt/llama
WORKDIR /opt/llama
RUN cmake -B build \\
      -DGGML_HIP=ON \\
      -DGGML_NATIVE=OFF \\
      -DGGML_AVX=OFF \\
      -DGGML_AVX2=OFF \\
      -DGGML_FMA=OFF \\
    && cmake --build build -j 8
"""


def without(line: int, feature: str, where: int, flag: str) -> str:
    return (
        f"{line}: README says the image requires a CPU with {feature}, but Dockerfile:{where} builds "
        f"without it (`{flag}`) (likely)"
    )


@pytest.mark.parametrize(
    ("readme", "dockerfile", "feature", "where", "flag"),
    [
        # a one-paragraph README of a bundled model server (the requirement, then a check of it)
        (
            "A small model and its server in one image. Uses CPU for inference. Requires CPU with AVX2"
            " support from Intel Haswell/AMD Excavator or later generations.\n",
            NO_AVX,
            "AVX2",
            5,
            "-mno-avx2",
        ),
        ("# Server\n\nThe image requires a CPU with FMA.\n", NO_AVX, "FMA", 5, "-mno-avx"),
        # a ROCm llama.cpp build with its CPU paths off (ggml's switches with the native build off)
        ("# llama.cpp on ROCm\n\nAVX2 support is required.\n", GGML_OFF, "AVX2", 8, "-DGGML_AVX2=OFF"),
        ("# llama.cpp on ROCm\n\nYour CPU must support AVX2.\n", GGML_OFF, "AVX2", 8, "-DGGML_AVX2=OFF"),
    ],
)
def test_a_cpu_feature_required_that_the_build_compiles_without(
    tmp_path: Path, readme: str, dockerfile: str, feature: str, where: int, flag: str
) -> None:
    line = next(n for n, t in enumerate(readme.splitlines(), 1) if feature in t)
    assert found(tmp_path, readme, dockerfile) == [without(line, feature, where, flag)]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # a negation, history, a choice
        ("# Server\n\nCompiled without AVX requirement to run on old hardware.\n", NO_AVX),
        ("# Server\n\nThe image does not require AVX2.\n", NO_AVX),
        ("# Server\n\nIt used to require AVX2; the build now runs on any x86-64 CPU.\n", NO_AVX),
        # the check alone, and a requirement of another program or another image
        ("# Server\n\nCheck if your CPU supports AVX2:\n\n```\ngrep -o avx2 /proc/cpuinfo\n```\n", NO_AVX),
        ("# Server\n\nThe gazed daemon requires a CPU with AVX2.\n", NO_AVX),
        ("# Server\n\nThe `:avx2` tag requires a CPU with AVX2.\n", NO_AVX),
        # a second binary built with the feature, a target CPU, a native or multi-variant build
        ("# Server\n\nRequires CPU with AVX2.\n", NO_AVX + "RUN gcc -O2 -mavx2 -o /fast fast.c\n"),
        ("# Server\n\nRequires CPU with AVX2.\n", NO_AVX + "RUN make CFLAGS=-march=haswell\n"),
        ("# Server\n\nRequires CPU with AVX2.\n", GGML_OFF.replace("-DGGML_NATIVE=OFF", "-DGGML_NATIVE=ON")),
        (
            "# Server\n\nRequires CPU with AVX2.\n",
            GGML_OFF.replace("-DGGML_NATIVE=OFF", "-DGGML_CPU_ALL_VARIANTS=ON"),
        ),
        # ggml's switch off while the native build (its default) still takes the machine's CPU
        ("# Server\n\nRequires CPU with AVX2.\n", GGML_OFF.replace("      -DGGML_NATIVE=OFF \\\n", "")),
        # a feature the build does not turn off
        ("# Server\n\nRequires a CPU with AVX-512.\n", GGML_OFF),
    ],
)
def test_cpu_requirements_that_stay_silent(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert found(tmp_path, readme, dockerfile) == []


def test_a_target_cpu_keeps_the_features_its_flags_turn_off(tmp_path: Path) -> None:
    dockerfile = NO_AVX.replace('CMAKE_C_FLAGS="', 'CMAKE_C_FLAGS="-march=sandybridge ')
    assert found(tmp_path, "# Server\n\nRequires CPU with AVX2.\n", dockerfile) == [
        without(3, "AVX2", 5, "-mno-avx2")
    ]


# A KoboldCpp-style make build: the backends are make variables set with ENV.
KOBOLD = """\
ARG UBUNTU_VERSION=22.04
FROM rocm/dev-ubuntu-${UBUNTU_VERSION}:5.6-complete
RUN git clone https://github.com/LostRuins/koboldcpp /opt/koboldcpp
WORKDIR /opt/koboldcpp
ENV LLAMA_OPENBLAS=1
ENV LLAMA_CLBLAST=0
ENV LLAMA_HIPBLAS=1
RUN make -j$(nproc)
CMD ["python3", "koboldcpp.py"]
"""

# A whisper.cpp-style server built with make, OpenCL on, CUDA off.
WHISPER = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y build-essential libclblast-dev
COPY . /src
WORKDIR /src
RUN GGML_CLBLAST=1 GGML_CUBLAS=0 make -j4 server
CMD ["./server"]
"""


@pytest.mark.parametrize(
    ("readme", "dockerfile", "expected"),
    [
        (
            "# KoboldCpp\n\nThe image is based on Ubuntu 22.04, and has both an NVIDIA CUDA and a"
            " generic/OpenCL/ROCm version.\n",
            KOBOLD,
            [off(3, "OpenCL", 6, "LLAMA_CLBLAST=0", "likely")],
        ),
        (
            "# Koboldcpp image\n\n## Features\n\n- OpenCL acceleration\n- ROCm acceleration\n",
            KOBOLD,
            [off(5, "OpenCL", 6, "LLAMA_CLBLAST=0", "certain")],
        ),
        (
            "# whisper server\n\nA whisper.cpp server with OpenCL/CUDA.\n",
            WHISPER,
            [off(3, "CUDA", 5, "GGML_CUBLAS=0", "likely")],
        ),
    ],
)
def test_a_backend_a_make_variable_switches_off(
    tmp_path: Path, readme: str, dockerfile: str, expected: list[str]
) -> None:
    assert [f for f in found(tmp_path, readme, dockerfile) if "switches it off" in f] == expected


@pytest.mark.parametrize(
    "readme",
    [
        # the README names the switch: it documents how to set it
        "# KoboldCpp\n\nThe image has both a CUDA and an OpenCL version; set `LLAMA_CLBLAST=1` for OpenCL.\n",
        # a path is no list of names
        "# KoboldCpp\n\nThe image is built with the kernels of `src/OpenCL/Kernels` in it.\n",
        "# KoboldCpp\n\nThe image is built with the kernels of ./src/OpenCL/Kernels in it.\n",
        # the host's, not the image's
        "# KoboldCpp\n\nYour host must have an OpenCL driver.\n",
        # ROCm is on (hipBLAS)
        "# KoboldCpp\n\nThe image has a ROCm version.\n",
    ],
)
def test_make_variables_that_stay_silent(tmp_path: Path, readme: str) -> None:
    assert not [f for f in found(tmp_path, readme, KOBOLD) if "switches it off" in f]
