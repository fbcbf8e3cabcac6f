"""`docgen audit`: a version a README gives that a CI workflow building the Dockerfile passes to the ARG
giving it is the published image's (docgen/audit/ci_args.py).

Modelled on a repository of ML images published by one workflow per Dockerfile (`ARG ONNX_VERSION`
defaulting to an older release, the workflow's matrix `include` passing the newer one in `build-args`)
and on a CI that builds a Docker image per (Python, PyTorch) pair of a matrix (`--build-arg
PYTORCH_VERSION=${{ matrix.pytorch }}`). Each: the planted drift next to the traps that must stay silent.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from helpers import make_tree

from docgen.cli import main

DOCKERFILE = """\
ARG BASE_IMAGE
FROM $BASE_IMAGE
ARG GRAPH_VERSION="2.3.1"
ARG SOLVER_VERSION="0.9.0"
RUN pip install graphkit==${GRAPH_VERSION} solverlib==${SOLVER_VERSION}
"""

ACTION = """\
name: Publish
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        include:
          - BASE_IMAGE: "python:3.11-slim"
            GRAPH_VERSION: "2.4.0"
            tags: ghcr.io/acme/graph240-server
    steps:
      - uses: actions/checkout@v4
      - uses: docker/build-push-action@v5
        with:
          context: "./{folder}/"
          build-args: |
            BASE_IMAGE=${{{{ matrix.BASE_IMAGE }}}}
            GRAPH_VERSION=${{{{ matrix.GRAPH_VERSION }}}}
          push: true
          tags: ${{{{ matrix.tags }}}}
"""

README = """\
# Graph images

## Graph server (`graph`)

- graphkit {graph}
- solverlib {solver}

```bash
docker pull ghcr.io/acme/graph240-server:latest
```
"""


def audit_in(root: Path, files: dict[str, str], *given: str) -> str:
    """`docgen audit README.md --confidence likely` run in `root` after writing `files`: its stdout."""
    make_tree(root, files)
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(root)
    try:
        main(["audit", "--confidence", "likely", "README.md", *given], out, err)
    finally:
        os.chdir(here)
    return out.getvalue()


def graph_repo(graph: str, solver: str = "0.9.0", folder: str = "graph") -> dict[str, str]:
    return {
        "README.md": README.format(graph=graph, solver=solver),
        "graph/Dockerfile": DOCKERFILE,
        ".github/workflows/graph.yaml": ACTION.format(folder=folder),
    }


def test_the_value_the_workflow_passes_is_the_published_image_s(tmp_path: Path) -> None:
    # ARG GRAPH_VERSION defaults to 2.3.1, the workflow building graph/Dockerfile passes 2.4.0
    assert "graphkit" not in audit_in(tmp_path, graph_repo("2.4.0"), "--dockerfile", "graph/Dockerfile")


def test_the_default_is_still_true(tmp_path: Path) -> None:
    # a README giving the ARG's own default: the Dockerfile's build has it (as before)
    assert "graphkit" not in audit_in(tmp_path, graph_repo("2.3.1"), "--dockerfile", "graph/Dockerfile")


def test_a_value_neither_the_default_nor_passed_is_a_finding(tmp_path: Path) -> None:
    out = audit_in(tmp_path, graph_repo("2.2.0", solver="0.8.0"), "--dockerfile", "graph/Dockerfile")
    assert "README says graphkit 2.2.0 but graph/Dockerfile:3 says 2.3.1" in out
    # an arg the workflow does not pass keeps its default only
    assert "README says solverlib 0.8.0 but graph/Dockerfile:4 says 0.9.0" in out


def test_a_workflow_building_another_dockerfile_says_nothing_of_this_one(tmp_path: Path) -> None:
    files = graph_repo("2.4.0", folder="other")
    files["other/Dockerfile"] = DOCKERFILE
    out = audit_in(tmp_path, files, "--dockerfile", "graph/Dockerfile")
    assert "README says graphkit 2.4.0 but graph/Dockerfile:3 says 2.3.1" in out


MATRIX = """\
name: CI build Docker
on:
  push:
    branches: [master]
jobs:
  build:
    runs-on: ubuntu-22.04
    strategy:
      matrix:
        python: ["3.10", "3.11"]
        torch: ["2.1.2", "2.2.1"]
    steps:
      - uses: actions/checkout@v4
      - name: Build
        run: |
          docker build -f dockers/base/Dockerfile \\
            --build-arg PYTHON_VERSION=${{ matrix.python }} \\
            --build-arg PYTORCH_VERSION=${{ matrix.torch }} \\
            -t acme/trainer:py${{ matrix.python }}-torch${{ matrix.torch }} .
"""

BASE = """\
ARG PYTHON_VERSION=3.9
FROM python:${PYTHON_VERSION}-slim
ARG PYTORCH_VERSION=2.0.1
RUN pip install torch==${PYTORCH_VERSION}
"""


def test_a_matrix_passing_the_readme_s_value(tmp_path: Path) -> None:
    # the CI builds PyTorch 2.1.2 and 2.2.1 images: each is published; 1.13.1 none builds
    files = {
        "dockers/base/Dockerfile": BASE,
        ".github/workflows/docker.yml": MATRIX,
        "README.md": "# Trainer images\n\nImages ship PyTorch {v}.\n",
    }
    for said in ("2.2.1", "2.1.2", "2.0.1"):
        files["README.md"] = f"# Trainer images\n\nImages ship PyTorch {said}.\n"
        assert "PyTorch" not in audit_in(tmp_path, files, "--dockerfile", "dockers/base/Dockerfile"), said
    files["README.md"] = "# Trainer images\n\nImages ship PyTorch 1.13.1.\n"
    out = audit_in(tmp_path, files, "--dockerfile", "dockers/base/Dockerfile")
    assert "README says PyTorch 1.13.1 but dockers/base/Dockerfile:3 says 2.0.1" in out


def test_a_build_argument_default_is_still_the_dockerfile_s(tmp_path: Path) -> None:
    # a table of build args documents the defaults: the value CI passes is no default
    files = graph_repo("2.4.0")
    files["README.md"] += "\n| Argument | Default |\n| --- | --- |\n| `GRAPH_VERSION` | `2.4.0` |\n"
    out = audit_in(tmp_path, files, "--dockerfile", "graph/Dockerfile")
    assert "README says GRAPH_VERSION defaults to 2.4.0 but graph/Dockerfile:3 says 2.3.1" in out


# ci_arg_values: a README build command passing a build arg another value than CI builds the image with.
# Modelled on a CPU PyTorch image whose single-combination matrix feeds `build-args` (the README's test
# build written out by hand), and on a CUDA robotics image built by a `docker build` in a `run:` script.

CPU_DOCKERFILE = """\
ARG BASE_IMG
FROM ${BASE_IMG}
ARG TORCH_V
ARG VISION_V
ARG AUDIO_V
RUN pip3 install torch==${TORCH_V} torchvision==${VISION_V} torchaudio==${AUDIO_V}
"""

CPU_WORKFLOW = """\
name: images
on: [push]
jobs:
  image:
    strategy:
      matrix:
        include:
        - BASE_IMG: python:3.12-slim-bookworm
          TORCH_V: 2.3.1
          VISION_V: {vision}
          AUDIO_V: 2.3.1
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/build-push-action@v5
        with:
          context: .
          file: ./Dockerfile
          build-args: |
            BASE_IMG=${{{{ matrix.BASE_IMG }}}}
            TORCH_V=${{{{ matrix.TORCH_V }}}}
            VISION_V=${{{{ matrix.VISION_V }}}}
            AUDIO_V=${{{{ matrix.AUDIO_V }}}}
          platforms: linux/amd64
          tags: ghcr.io/acme/torch-cpu:torch-${{{{ matrix.TORCH_V }}}}
"""

CPU_README = """\
# torch-cpu
A small CPU-only PyTorch image.

## Test the build
{intro}
```bash
docker buildx build -t torch-test --build-arg BASE_IMG=python:3.12-slim-bookworm \\
  --build-arg TORCH_V=2.3.1 --build-arg VISION_V={vision} --build-arg AUDIO_V=2.3.1 .
```
"""


def cpu_repo(
    readme_vision: str, ci_vision: str = "0.18.1", intro: str = "Build it as CI does:"
) -> dict[str, str]:
    return {
        "README.md": CPU_README.format(vision=readme_vision, intro=intro),
        "Dockerfile": CPU_DOCKERFILE,
        ".github/workflows/images.yml": CPU_WORKFLOW.format(vision=ci_vision),
    }


def test_a_build_command_value_ci_never_builds_with_is_a_finding(tmp_path: Path) -> None:
    out = audit_in(tmp_path, cpu_repo("0.18.0"))
    assert (
        "README.md:8: error: builds with VISION_V=0.18.0 but the CI workflow building the image passes"
        " VISION_V=0.18.1"
        " (.github/workflows/images.yml:10), with the same BASE_IMG=python:3.12-slim-bookworm, TORCH_V=2.3.1,"
        " AUDIO_V=2.3.1"
        " [DG101] (likely)"
    ) in out
    assert "TORCH_V=2.3.1 but" not in out and "AUDIO_V=2.3.1 but" not in out


def test_the_command_ci_runs_is_silent(tmp_path: Path) -> None:
    assert "builds with" not in audit_in(tmp_path, cpu_repo("0.18.1"))


def test_values_the_reader_is_told_to_choose_are_silent(tmp_path: Path) -> None:
    for intro in ("For example, with your own versions:", "Replace the versions to build another release:"):
        assert "builds with" not in audit_in(tmp_path, cpu_repo("0.18.0", intro=intro)), intro


def test_a_code_span_command_is_introduced_by_its_own_line(tmp_path: Path) -> None:
    """A whole command in a code span is read once, with its own line as its introduction, not the
    lines above it (a block above says nothing of the span's values)."""
    span = (
        "`docker buildx build -t torch-test --build-arg BASE_IMG=python:3.12-slim-bookworm "
        "--build-arg TORCH_V=2.3.1 --build-arg VISION_V=0.18.0 --build-arg AUDIO_V=2.3.1 .`"
    )
    files = cpu_repo("0.18.1")
    files["README.md"] += f"\nFor example, with your own versions: {span}\n"
    assert "builds with" not in audit_in(tmp_path, files)
    files["README.md"] = files["README.md"].replace("For example, with your own versions: ", "CI runs ")
    assert "builds with VISION_V=0.18.0" in audit_in(tmp_path, files)


def test_a_placeholder_value_is_silent(tmp_path: Path) -> None:
    for placeholder in ("<vision-version>", "YOUR_VISION_VERSION", "VISION_RELEASE", "$VISION"):
        assert "builds with" not in audit_in(tmp_path, cpu_repo(placeholder)), placeholder


def test_a_matrix_of_several_values_is_a_list_to_pick_from(tmp_path: Path) -> None:
    files = cpu_repo("0.18.0")
    files[".github/workflows/images.yml"] = CPU_WORKFLOW.format(vision="0.18.1").replace(
        "          AUDIO_V: 2.3.1\n",
        "          AUDIO_V: 2.3.1\n        - BASE_IMG: python:3.12-slim-bookworm\n"
        "          TORCH_V: 2.3.0\n          VISION_V: 0.18.0\n          AUDIO_V: 2.3.0\n",
    )
    assert "builds with" not in audit_in(tmp_path, files)


ROBOT_DOCKERFILE = """\
ARG CUDA_VERSION=12.4.1
ARG UBUNTU=22.04
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu${UBUNTU}
ARG ROS_DISTRO=humble
RUN apt-get update && apt-get install -y ros-${ROS_DISTRO}-ros-base
"""

ROBOT_WORKFLOW = """\
name: build
on:
  push:
    tags: ["v*"]
jobs:
  docker:
    runs-on: ubuntu-22.04
    steps:
      - uses: actions/checkout@v4
      - name: Build the image
        run: |
          docker build -f docker/Dockerfile \\
            --build-arg CUDA_VERSION=12.6.3 \\
            --build-arg UBUNTU=22.04 --build-arg ROS_DISTRO=humble \\
            -t acme/rover:latest .
"""

ROBOT_README = """\
# Rover

Build the image the release workflow publishes:

```
docker build -f {file} --build-arg CUDA_VERSION=12.4.1 --build-arg UBUNTU=22.04 -t acme/rover .
```

## Changelog

- v0.3: previously built with
  `docker build -f docker/Dockerfile --build-arg CUDA_VERSION=11.8.0 --build-arg UBUNTU=22.04 .`
"""


def robot_repo(file: str = "docker/Dockerfile") -> dict[str, str]:
    return {
        "README.md": ROBOT_README.format(file=file),
        "docker/Dockerfile": ROBOT_DOCKERFILE,
        "docker/Dockerfile.dev": ROBOT_DOCKERFILE,
        ".github/workflows/build.yml": ROBOT_WORKFLOW,
    }


def test_a_run_script_build_is_read_too_and_history_is_not(tmp_path: Path) -> None:
    out = audit_in(tmp_path, robot_repo(), "--dockerfile", "docker/Dockerfile")
    assert (
        "README.md:6: error: builds with CUDA_VERSION=12.4.1 but the CI workflow building the image passes"
        " CUDA_VERSION=12.6.3 (.github/workflows/build.yml:13), with the same UBUNTU=22.04"
    ) in out
    assert "11.8.0" not in out  # the changelog's past command


def test_a_command_building_another_dockerfile_is_silent(tmp_path: Path) -> None:
    out = audit_in(tmp_path, robot_repo("docker/Dockerfile.dev"), "--dockerfile", "docker/Dockerfile")
    assert "builds with" not in out


# ci_platform_claims: a README saying the image has no ARM build over a workflow building it for arm64.
# Modelled on the CPU PyTorch image above (a `NOTE:` line under its title) and on a web service image
# whose README says `amd64 only` in its list of limits.


def test_no_arm_support_over_an_arm64_build_is_a_finding(tmp_path: Path) -> None:
    files = cpu_repo("0.18.1")
    files["README.md"] = files["README.md"].replace(
        "A small CPU-only PyTorch image.", "A small CPU-only PyTorch image.\nNOTE: There is no ARM support"
    )
    files[".github/workflows/images.yml"] = files[".github/workflows/images.yml"].replace(
        "platforms: linux/amd64", "platforms: linux/amd64,linux/arm64"
    )
    out = audit_in(tmp_path, files)
    assert (
        'README.md:3: error: says "no ARM support" but the CI workflow building the image builds it for'
        " linux/amd64,linux/arm64 (.github/workflows/images.yml:24) [DG101] (likely)"
    ) in out
    # the same README over a workflow building amd64 alone is true
    files[".github/workflows/images.yml"] = CPU_WORKFLOW.format(vision="0.18.1")
    assert "ARM" not in audit_in(tmp_path, files)


SERVICE_WORKFLOW = """\
name: release
on: {{release: {{types: [published]}}}}
jobs:
  image:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v6
        with:
          context: ./{folder}
          platforms:
            - linux/amd64
            - linux/arm64
          push: true
          tags: acme/notes:latest
"""


def service_repo(limit: str, folder: str = "server") -> dict[str, str]:
    return {
        "README.md": f"# notes\n\nA notes server in a container.\n\n## Limits\n\n- {limit}\n",
        "server/Dockerfile": 'FROM node:22-slim\nCOPY . /app\nCMD ["node", "/app/index.js"]\n',
        "worker/Dockerfile": 'FROM node:22-slim\nCOPY . /app\nCMD ["node", "/app/worker.js"]\n',
        ".github/workflows/release.yml": SERVICE_WORKFLOW.format(folder=folder),
    }


def test_amd64_only_over_a_list_of_platforms(tmp_path: Path) -> None:
    out = audit_in(tmp_path, service_repo("The image is amd64 only."), "--dockerfile", "server/Dockerfile")
    assert 'README.md:7: error: says "amd64 only" but the CI workflow building the image builds it for' in out
    assert "linux/amd64,linux/arm64 (.github/workflows/release.yml:10)" in out


def test_arm_negations_of_another_thing_are_silent(tmp_path: Path) -> None:
    for limit in (
        "There was no ARM support before v2.",  # the past
        "No GPU support on arm64 hosts.",  # a GPU stack, the host
        "The robot arm is not supported yet.",  # a robot's arm
    ):
        out = audit_in(tmp_path, service_repo(limit), "--dockerfile", "server/Dockerfile")
        assert "CI workflow" not in out, limit


def test_a_workflow_building_another_image_for_arm_is_silent(tmp_path: Path) -> None:
    files = service_repo("The image is amd64 only.", folder="worker")
    assert "CI workflow" not in audit_in(tmp_path, files, "--dockerfile", "server/Dockerfile")
