"""`docgen audit`: a `docker build` of a script or a Makefile recipe the README runs that writes build
args as bare `NAME=value` words (only the first has `--build-arg`): docker build takes one positional
word, the context, and refuses the command (script_builds.unflagged_build_args,
make_builds.unflagged_recipe_args).

Each case: a planted drift next to the nearest true statements (traps)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

NOTEBOOK_DOCKERFILE = """\
ARG BASE_CONTAINER=jupyter/base-notebook
FROM $BASE_CONTAINER
ARG CUDA_VERSION=11.3.1
ARG TRT_VERSION=8.0.3.4
COPY TensorRT-${TRT_VERSION}.tar.gz /tmp/
"""
NOTEBOOK_SCRIPT = """\
#!/bin/bash
echo "building with docker build --build-arg BASE_CONTAINER=$2 CUDA_VERSION=$4 ."
DOCKER_BUILDKIT=1 docker build -t $1/trt-notebook:$3 \\
    --build-arg BASE_CONTAINER=$1/base-notebook:$2 CUDA_VERSION=$4 TRT_VERSION=$5 .
docker push $1/trt-notebook:$3
"""
NOTEBOOK_README = """\
# TensorRT 8.0.3 notebook

- Download `TensorRT-8.0.3.4.tar.gz` from NVIDIA
- `bash ./build.sh myuser py3.8-cuda11.3 py3.8-trt8.0.3 11.3.1 8.0.3.4`

Older releases were built with `make-notebook.sh`.
"""


def found(root: Path, files: dict[str, str], readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {**files, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "without --build-arg" in d.message
    ]


NOTEBOOK = {"Dockerfile": NOTEBOOK_DOCKERFILE, "build.sh": NOTEBOOK_SCRIPT}


def test_build_args_without_the_flag_in_a_script_a_code_span_runs(tmp_path: Path) -> None:
    assert found(tmp_path, NOTEBOOK, NOTEBOOK_README) == [
        (
            4,
            "README runs build.sh, whose docker build (build.sh:3) passes CUDA_VERSION=$4, TRT_VERSION=$5 "
            "without --build-arg: docker build reads them as positional words besides the context . and "
            "refuses to run (it takes exactly 1 argument), so the image is not built (write --build-arg "
            "before each)",
            "certain",
        )
    ]


def test_a_script_passing_each_arg_with_the_flag(tmp_path: Path) -> None:
    script = NOTEBOOK_SCRIPT.replace(" CUDA_VERSION=$4 TRT_VERSION=$5", " --build-arg CUDA_VERSION=$4")
    assert found(tmp_path, {**NOTEBOOK, "build.sh": script}, NOTEBOOK_README) == []


def test_an_unknown_option_or_a_script_the_readme_does_not_run(tmp_path: Path) -> None:
    script = NOTEBOOK_SCRIPT.replace("DOCKER_BUILDKIT=1 docker build", "docker build --frobnicate x")
    assert found(tmp_path, {**NOTEBOOK, "build.sh": script}, NOTEBOOK_README) == []
    readme = NOTEBOOK_README.replace("`bash ./build.sh", "`bash ./release.sh")
    assert found(tmp_path / "b", NOTEBOOK, readme) == []


def test_a_script_a_command_block_runs(tmp_path: Path) -> None:
    script = "#!/bin/sh\nset -e\ndocker build --build-arg L4T=r35.4.1 OPENCV=4.8.0 -t edge/cv:latest .\n"
    readme = "# Jetson OpenCV\n\n```bash\n./scripts/build_image.sh\n```\n"
    files = {
        "Dockerfile": "FROM nvcr.io/nvidia/l4t-base:r35.4.1\nARG OPENCV\n",
        "scripts/build_image.sh": script,
    }
    assert [(line, message[:90]) for line, message, _ in found(tmp_path, files, readme)] == [
        (4, "README runs scripts/build_image.sh, whose docker build (scripts/build_image.sh:3) passes O")
    ]


ROS_MAKEFILE = """\
ROS ?= humble
CUDA ?= 12.2.0
IMAGE := acme/ros-gpu

build-cpu:
\tdocker build --build-arg ROS_DISTRO=$(ROS) -t $(IMAGE):cpu .

build-gpu:
\tdocker build --build-arg ROS_DISTRO=$(ROS) CUDA=$(CUDA) -f Dockerfile -t $(IMAGE):gpu .
"""
ROS_README = """\
# ROS 2 on the GPU

```sh
make build-cpu   # CPU only
make build-gpu
```
"""
ROS = {"Dockerfile": "ARG ROS_DISTRO=humble\nFROM ros:${ROS_DISTRO}\nARG CUDA\n", "Makefile": ROS_MAKEFILE}


def test_build_args_without_the_flag_in_a_recipe_make_runs(tmp_path: Path) -> None:
    assert found(tmp_path, ROS, ROS_README) == [
        (
            5,
            "README runs make build-gpu, whose recipe's docker build (Makefile:9) passes CUDA=12.2.0 without "
            "--build-arg: docker build reads it as positional words besides the context . and refuses to "
            "run (it takes exactly 1 argument), so the image is not built (write --build-arg before each)",
            "certain",
        )
    ]


def test_a_recipe_the_readme_does_not_run(tmp_path: Path) -> None:
    assert found(tmp_path, ROS, ROS_README.replace("make build-gpu\n", "")) == []
