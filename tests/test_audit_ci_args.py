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
