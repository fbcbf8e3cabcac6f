"""`docgen audit`: published image tags and platforms a README lists against the one workflow that
publishes the image (docgen/audit/published_tags.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

# A docs page of a C++ project listing its images, published by a matrix of `include` entries.
DOCS = """\
# Docker

## Images

1. `ghcr.io/kestrel/quill.cpp:full`: the CLI and the converters. (platforms: `linux/amd64`, `linux/arm64`)
2. `ghcr.io/kestrel/quill.cpp:lite`: the CLI alone. (platforms: `linux/amd64`)
3. `ghcr.io/kestrel/quill.cpp:full-cuda`: `full` with CUDA. (platforms: `linux/amd64`)

## Usage

```bash
docker run -v /models:/models ghcr.io/kestrel/quill.cpp:full-cuda --run -m /models/7B.gguf
```
"""

MATRIX = """\
name: Publish
on:
  push:
    tags: ['*']
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        include:
          - dockerfile: .devops/full.Dockerfile
            tag: full
          - dockerfile: .devops/full-cuda.Dockerfile
            tag: full-cuda
    steps:
      - uses: actions/checkout@v4
      - uses: docker/login-action@v3
        with:
          registry: ghcr.io
          username: ${{ github.actor }}
          password: ${{ secrets.GITHUB_TOKEN }}
      - name: Build and push
        uses: docker/build-push-action@v5
        with:
          context: .
          file: ${{ matrix.dockerfile }}
          push: true
          tags: ghcr.io/${{ github.repository }}:${{ matrix.tag }}
"""

# A README table of tags over a workflow listing its tags and platforms outright.
TABLE = """\
# visionserve

| Image | Platforms |
|---|---|
| `acmeml/visionserve:latest` | linux/amd64, linux/arm64, linux/ppc64le |
| `acmeml/visionserve:gpu` | linux/amd64 |
| `acmeml/visionserve:cpu` | linux/amd64, linux/arm64 |
"""

LISTED = """\
on: [push]
jobs:
  publish:
    runs-on: ubuntu-22.04
    steps:
      - uses: docker/setup-qemu-action@v3
      - uses: docker/setup-buildx-action@v3
      - uses: docker/build-push-action@v6
        with:
          push: ${{ github.ref == 'refs/heads/main' }}
          platforms: linux/amd64,linux/arm64
          tags: |
            acmeml/visionserve:latest
            acmeml/visionserve:gpu
"""

FILES = {
    ".devops/full.Dockerfile": "FROM ubuntu:22.04\nCOPY . /app\n",
    ".devops/full-cuda.Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY . /app\n",
}


def _audited(tmp_path: Path, readme: str, files: dict[str, str], at: str = "README.md") -> list[str]:
    make_tree(tmp_path, {at: readme, **files})
    models = [build_model(tmp_path / path, path) for path in files if "Dockerfile" in Path(path).name]
    found = audit(readme, at, models, {}, (tmp_path / at).parent, tmp_path)
    return [f"{d.line}: {d.message}" for d in found if "publish" in d.message]


def test_tags_and_platforms_the_matrix_does_not_publish(tmp_path: Path) -> None:
    files = {**FILES, ".github/workflows/publish.yml": MATRIX}
    assert _audited(tmp_path, DOCS, files, "docs/docker.md") == [
        "5: README says ghcr.io/kestrel/quill.cpp:full is published for linux/arm64, but "
        ".github/workflows/publish.yml:23 sets no `platforms:`, so it builds it for the runner's "
        "linux/amd64 (ubuntu-latest) only",
        "6: README names ghcr.io/kestrel/quill.cpp:lite, but .github/workflows/publish.yml, the only "
        "workflow that publishes the image, pushes only the tags full, full-cuda",
    ]


def test_tags_and_platforms_listed_outright(tmp_path: Path) -> None:
    files = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/ci.yml": LISTED}
    assert _audited(tmp_path, TABLE, files) == [
        "5: README says acmeml/visionserve:latest is published for linux/ppc64le, but "
        ".github/workflows/ci.yml:8 builds it for linux/amd64, linux/arm64",
        "7: README names acmeml/visionserve:cpu, but .github/workflows/ci.yml, the only workflow that "
        "publishes the image, pushes only the tags gpu, latest",
    ]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # another way to publish: a Makefile that pushes, a bake file, another CI system
        ("Makefile", "push:\n\tdocker push acmeml/visionserve:cpu\n"),
        (".ci/release.sh", "docker buildx build --platform linux/arm64 -t acmeml/visionserve:cpu --push .\n"),
        ("docker-bake.hcl", 'target "cpu" {\n  tags = ["acmeml/visionserve:cpu"]\n}\n'),
        (".gitlab-ci.yml", "build:\n  script: [make]\n"),
        # a second workflow that builds
        (
            ".github/workflows/nightly.yml",
            "on: [schedule]\njobs:\n  b:\n    steps:\n      - run: docker build .\n",
        ),
    ],
)
def test_another_publishing_path(tmp_path: Path, path: str, text: str) -> None:
    files = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/ci.yml": LISTED, path: text}
    assert _audited(tmp_path, TABLE, files) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a tag an expression gives: any tag may be pushed
        ("acmeml/visionserve:gpu\n", "acmeml/visionserve:${{ github.ref_name }}\n"),
        # a step that pushes `cpu` by itself too
        ("      - uses: docker/setup-qemu-action@v3\n", "      - run: docker push acmeml/visionserve:cpu\n"),
        # metadata-action tags by branch, and the workflow runs on every branch: any tag
        (
            "      - uses: docker/setup-qemu-action@v3\n",
            "      - id: meta\n        uses: docker/metadata-action@v5\n        with:\n"
            "          images: acmeml/visionserve\n          tags: type=ref,event=branch\n",
        ),
    ],
)
def test_tags_the_workflow_may_push(tmp_path: Path, old: str, new: str) -> None:
    flow = LISTED.replace(old, new)
    if "metadata-action" in new:
        flow = flow.replace(
            "          tags: |\n            acmeml/visionserve:latest\n            acmeml/visionserve:gpu\n",
            "          tags: ${{ steps.meta.outputs.tags }}\n",
        )
    files = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/ci.yml": flow}
    found = _audited(tmp_path, TABLE, files)
    assert [f.split(":")[0] for f in found] == ["5"]  # (the platform `latest` is said to have, still)


def test_a_tag_the_readme_builds_or_an_absence(tmp_path: Path) -> None:
    readme = (
        "# visionserve\n\n- `acmeml/visionserve:gpu` (linux/amd64)\n"
        "- `acmeml/visionserve:cpu` is no longer published.\n\n"
        "```bash\ndocker build -t acmeml/visionserve:slim .\ndocker run acmeml/visionserve:slim\n```\n"
    )
    files = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/ci.yml": LISTED}
    assert _audited(tmp_path, readme, files) == []


def test_another_project_on_the_same_registry(tmp_path: Path) -> None:
    docs = DOCS + "\nThe upstream image `ghcr.io/upstream/quill.cpp:server` is built elsewhere.\n"
    files = {**FILES, ".github/workflows/publish.yml": MATRIX}
    assert _audited(tmp_path, docs, files, "docs/docker.md") == []


def test_a_runner_docgen_cannot_tell(tmp_path: Path) -> None:
    files = {**FILES, ".github/workflows/publish.yml": MATRIX.replace("ubuntu-latest", "[self-hosted, gpu]")}
    found = _audited(tmp_path, DOCS, files, "docs/docker.md")
    assert [f.split(":")[0] for f in found] == ["6"]


def test_a_platform_the_builder_is_set_up_for(tmp_path: Path) -> None:
    setup = (
        "      - uses: docker/setup-buildx-action@v3\n        with:\n"
        "          platforms: linux/amd64,linux/arm64\n"
    )
    flow = MATRIX.replace(
        "      - uses: actions/checkout@v4\n", "      - uses: actions/checkout@v4\n" + setup
    )
    found = _audited(tmp_path, DOCS, {**FILES, ".github/workflows/publish.yml": flow}, "docs/docker.md")
    assert [f.split(":")[0] for f in found] == ["6"]


# --------------------------------------------------------------------------------------------------
# an image the README pulls or runs that the workflows push under no such name (`pushed_names`)

PUSH_BY_REPOSITORY = """\
name: Deploy
on:
  push:
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/login-action@v3
        with:
          registry: ghcr.io
          username: ${{ github.repository_owner }}
          password: ${{ secrets.GITHUB_TOKEN }}
      - uses: docker/build-push-action@v5
        with:
          push: true
          tags: |
            ghcr.io/${{ github.repository }}:${{ github.ref_name }}
            ghcr.io/${{ github.repository }}:latest
"""
SOLVER = """\
# Lattice solver image

[![Deploy](https://github.com/fluidlab/solver-gpu-box/actions/workflows/deploy.yml/badge.svg)](https://github.com/fluidlab/solver-gpu-box/actions/workflows/deploy.yml)

* Pull it: `docker pull ghcr.io/fluidlab/olver-gpu`
* Start it: `docker run -ti ghcr.io/fluidlab/solver-gpu:latest /bin/bash`
* The mesher next to it: `docker run ghcr.io/fluidlab/mesher:2`
"""
SOLVER_FILES = {
    "Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n",
    ".github/workflows/deploy.yml": PUSH_BY_REPOSITORY,
}
PUSHED = (
    "README uses image {}, but the workflows that publish the project's images "
    "(.github/workflows/deploy.yml) push only ghcr.io/fluidlab/solver-gpu-box"
)


def test_an_image_the_workflows_push_under_no_such_name(tmp_path: Path) -> None:
    assert _audited(tmp_path, SOLVER, SOLVER_FILES) == [
        "5: " + PUSHED.format("ghcr.io/fluidlab/olver-gpu"),
        "6: " + PUSHED.format("ghcr.io/fluidlab/solver-gpu"),
    ]


def test_two_workflows_pushing_the_same_name(tmp_path: Path) -> None:
    files = SOLVER_FILES | {".github/workflows/docker.yml": PUSH_BY_REPOSITORY}
    found = _audited(tmp_path, SOLVER, files)
    assert [line.split(":", 1)[0] for line in found] == ["5", "6"]
    assert "(.github/workflows/deploy.yml, .github/workflows/docker.yml)" in found[0]


# Docker Hub and GHCR both, the owner's name written out: a shape of many projects' publish workflows.
HUB_AND_GHCR = """\
name: Publish
on:
  release:
    types: [published]
jobs:
  push:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v6
        with:
          push: true
          tags: |
            fluidlab/solver-gpu:latest
            ghcr.io/fluidlab/solver-gpu:latest
"""


@pytest.mark.parametrize(
    ("workflow", "readme"),
    [
        # the name pushed to both registries: the README's pull and runs are right
        (
            HUB_AND_GHCR,
            SOLVER.replace("ghcr.io/fluidlab/olver-gpu", "ghcr.io/fluidlab/solver-gpu"),
        ),
        # it runs the pushed image too: the near names are another project's (`solver-gpu-docs`)
        (
            PUSH_BY_REPOSITORY,
            SOLVER + "\n```bash\ndocker run --rm ghcr.io/fluidlab/solver-gpu-box:latest\n```\n",
        ),
        # a name docgen cannot read may be any
        (PUSH_BY_REPOSITORY.replace("${{ github.repository }}", "${{ env.IMAGE }}"), SOLVER),
        # no badge names the repository: `${{ github.repository }}` is not known
        (PUSH_BY_REPOSITORY, SOLVER.replace("actions/workflows/deploy.yml", "actions")),
        # another push docgen does not read
        (PUSH_BY_REPOSITORY + "      - run: docker push ghcr.io/fluidlab/solver-gpu\n", SOLVER),
    ],
)
def test_names_the_workflows_may_push(tmp_path: Path, workflow: str, readme: str) -> None:
    files = SOLVER_FILES | {".github/workflows/deploy.yml": workflow}
    assert _audited(tmp_path, readme, files) == []


def test_another_owner_a_local_build_and_docker_hub(tmp_path: Path) -> None:
    readme = SOLVER.replace("ghcr.io/fluidlab/olver-gpu", "ghcr.io/otherlab/solver-gpu")  # another owner
    readme = readme.replace(
        "`docker run -ti ghcr.io/fluidlab/solver-gpu:latest /bin/bash`",
        "`docker build -t ghcr.io/fluidlab/solver-gpu .` then "
        "`docker run -ti ghcr.io/fluidlab/solver-gpu /bin/bash`",
    )
    readme += "\n```bash\ndocker pull fluidlab/solver-gpu\n```\n"  # Docker Hub: the workflow pushes not there
    assert _audited(tmp_path, readme, SOLVER_FILES) == []


# Pushed by `docker push` lines of a script, the name lower-cased into `$GITHUB_ENV` (modelled on a
# speech server's workflow: `IMAGE=ghcr.io/${REPO}/…` then `docker push $IMAGE:cpu-latest`).
SCRIPTED = """\
name: Images
on:
  push:
    branches: [main]
jobs:
  cpu:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Lower-case repository
        run: echo "REPO=${GITHUB_REPOSITORY,,}" >> $GITHUB_ENV
      - name: Build and push
        run: |
          STAMP=$(date +%Y%m%d)
          IMAGE=ghcr.io/${REPO}/tts-service
          docker build -f Dockerfile \\
            -t $IMAGE:cpu-latest -t $IMAGE:cpu-${STAMP} .
          docker push $IMAGE:cpu-latest
          docker push $IMAGE:cpu-${STAMP}
  gpu:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        include:
          - cuda: cu118
          - cuda: cu121
    steps:
      - run: echo "REPO=${GITHUB_REPOSITORY,,}" >> $GITHUB_ENV
      - run: |
          IMAGE=ghcr.io/${REPO}/tts-service
          docker build -t $IMAGE:${{ matrix.cuda }}-latest .
          docker push $IMAGE:${{ matrix.cuda }}-latest
"""
VOICE = """\
# Voice box

See [the workflow](.github/workflows/images.yml) for how the images are built.

```bash
git clone https://github.com/VoxLab/tts-docker.git
cd tts-docker
docker pull ghcr.io/voxlab/tts-docker:cpu-latest
```
"""
VOICE_FILES = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/images.yml": SCRIPTED}


def test_a_parent_name_of_what_a_script_pushes(tmp_path: Path) -> None:
    assert _audited(tmp_path, VOICE, VOICE_FILES) == [
        "8: README uses image ghcr.io/voxlab/tts-docker, but the workflows that publish the project's "
        "images (.github/workflows/images.yml) push only ghcr.io/voxlab/tts-docker/tts-service"
    ]


# Modelled on deploy workflows that write `REPO_LOWER=${GITHUB_REPOSITORY,,}` to `$GITHUB_ENV`, then push
# `ghcr.io/${{ env.REPO_LOWER }}/backend` with `docker/build-push-action`.
LOWERED_ENV = """\
name: Deploy
on:
  push:
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo "REPO_LOWER=${GITHUB_REPOSITORY,,}" >> $GITHUB_ENV
      - uses: docker/build-push-action@v6
        with:
          context: ./backend
          push: true
          tags: ghcr.io/${{ env.REPO_LOWER }}/backend:latest
"""
SHOP = """\
# Shop

[![Deploy](https://github.com/Tillworks/Shop/actions/workflows/deploy.yml/badge.svg)](https://github.com/Tillworks/Shop/actions/workflows/deploy.yml)

Run `docker run -p 80:80 ghcr.io/tillworks/shop/back:latest` on the server.
"""


def test_a_name_lower_cased_into_the_env(tmp_path: Path) -> None:
    files = {"backend/Dockerfile": "FROM node:22\n", ".github/workflows/deploy.yml": LOWERED_ENV}
    assert _audited(tmp_path, SHOP, files) == [
        "5: README uses image ghcr.io/tillworks/shop/back, but the workflows that publish the project's "
        "images (.github/workflows/deploy.yml) push only ghcr.io/tillworks/shop/backend"
    ]
    right = SHOP.replace("shop/back:", "shop/backend:")
    assert _audited(tmp_path, right, files) == []


@pytest.mark.parametrize(
    ("workflow", "readme"),
    [
        # the README pulls what the script pushes
        (SCRIPTED, VOICE.replace("tts-docker:cpu-latest", "tts-docker/tts-service:cpu-latest")),
        # no clone tells the repository, or two do, or the README never names the workflow
        (SCRIPTED, VOICE.replace("git clone https://github.com/VoxLab/tts-docker.git\n", "")),
        (SCRIPTED, VOICE.replace("cd tts-docker\n", "git clone https://github.com/other/lib.git\n")),
        (SCRIPTED, VOICE.replace("[the workflow](.github/workflows/images.yml)", "CI")),
        # a repository part set by a command, a matrix of names, a push in a list
        (SCRIPTED.replace("IMAGE=ghcr.io/${REPO}/tts-service", "IMAGE=$(cat image.txt)"), VOICE),
        (
            SCRIPTED.replace("- cuda: cu121", "- cuda: cu121\n            name: x").replace(
                "IMAGE=ghcr.io/${REPO}/tts-service\n          docker build -t",
                "IMAGE=ghcr.io/${REPO}/${{ matrix.name }}\n          docker build -t",
            ),
            VOICE,
        ),
        (
            SCRIPTED.replace(
                "          docker push $IMAGE:cpu-latest\n",
                "          make && docker push $IMAGE:cpu-latest\n",
            ),
            VOICE,
        ),
        # another push docgen does not read: `--push`, a metadata-action's tags
        (
            SCRIPTED + "      - run: docker buildx build --push -t ghcr.io/voxlab/tts-docker:cpu-latest .\n",
            VOICE,
        ),
        (SCRIPTED + "      - uses: docker/metadata-action@v5\n", VOICE),
    ],
)
def test_names_a_script_may_push(tmp_path: Path, workflow: str, readme: str) -> None:
    files = VOICE_FILES | {".github/workflows/images.yml": workflow}
    assert _audited(tmp_path, readme, files) == []


def test_another_workflow_pushing_the_name(tmp_path: Path) -> None:
    other = SCRIPTED.replace("/tts-service", "")
    files = VOICE_FILES | {".github/workflows/release.yml": other}
    assert _audited(tmp_path, VOICE, files) == []


# An inference base image whose release job writes the version with a `v` (`v$CURRENT`) and a metadata
# step that tags the image with it, and a CLI tool whose tags come from `type=semver` of its git tags.
RELEASE = """\
name: Release
on:
  push:
    branches: [main]
env:
  IMAGE_NAME: acme/onnx-base
jobs:
  version:
    runs-on: ubuntu-latest
    outputs:
      version: ${{ steps.pick.outputs.version }}
    steps:
      - uses: actions/checkout@v4
      - id: pick
        run: |
          CURRENT=$(cat VERSION)
          VERSION="v$CURRENT"
          if git tag -l | grep -q "^$VERSION$"; then
            VERSION="v$NEXT"
          fi
          echo "version=$VERSION" >> $GITHUB_OUTPUT
  publish:
    needs: version
    runs-on: ubuntu-latest
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: docker.io/${{ env.IMAGE_NAME }}
          tags: |
            type=ref,event=tag
            type=raw,value=latest
            type=raw,value=${{ needs.version.outputs.version }}
      - uses: docker/build-push-action@v5
        with:
          context: .
          push: true
          tags: ${{ steps.meta.outputs.tags }}
"""
BASE_README = """\
# ONNX base

```dockerfile
FROM acme/onnx-base:1.2.0
```

### Available tags
- `latest` - the last release
- `1.2.0`, `1.2.1` - releases
"""
SEMVER = """\
name: Images
on:
  push:
    tags: ['v*']
jobs:
  image:
    runs-on: ubuntu-latest
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: ghcr.io/acme/tool
          tags: |
            type=semver,pattern={{version}}
            type=semver,pattern={{major}}.{{minor}}
            type=sha
      - uses: docker/build-push-action@v5
        with:
          push: true
          tags: ${{ steps.meta.outputs.tags }}
"""
TOOL_README = "# Tool\n\n```\ndocker pull ghcr.io/acme/tool:v2.1.0\n```\n"
DOCKERFILE = {"Dockerfile": "FROM python:3.12-slim\n"}


def test_release_tags_written_without_the_v_the_workflow_puts_before_them(tmp_path: Path) -> None:
    files = {**DOCKERFILE, ".github/workflows/release.yml": RELEASE}
    rule = "type=raw,value=${{ needs.version.outputs.version }}"
    assert _audited(tmp_path, BASE_README, files) == [
        f"4: README names 1.2.0 as a tag of acme/onnx-base, but .github/workflows/release.yml:33, the "
        f"workflow that publishes it, tags its releases by {rule}, which starts with v: it pushes v1.2.0, "
        "not 1.2.0",
        f"9: README names 1.2.0, 1.2.1 as tags of acme/onnx-base, but .github/workflows/release.yml:33, the "
        f"workflow that publishes it, tags its releases by {rule}, which starts with v: it pushes v1.2.0, "
        "not 1.2.0",
    ]


def test_a_v_tag_where_semver_tags_drop_the_v(tmp_path: Path) -> None:
    files = {**DOCKERFILE, ".github/workflows/images.yml": SEMVER}
    assert _audited(tmp_path, TOOL_README, files) == [
        "4: README names v2.1.0 as a tag of ghcr.io/acme/tool, but .github/workflows/images.yml:14, the "
        "workflow that publishes it, tags its releases by type=semver,pattern={{version}}, which starts "
        "with the version digits: it pushes 2.1.0, not v2.1.0"
    ]


@pytest.mark.parametrize(
    ("readme", "workflow"),
    [
        # the tags the workflow gives
        (BASE_README.replace("1.2.0", "v1.2.0").replace("1.2.1", "v1.2.1"), RELEASE),
        (TOOL_README.replace("v2.1.0", "2.1.0"), SEMVER),
        (TOOL_README, SEMVER.replace("pattern={{version}}", "pattern=v{{version}}")),
        (TOOL_README, SEMVER.replace("type=semver,pattern={{version}}", "type=ref,event=tag")),
        # a rule docgen cannot read, a version the script does not show
        (TOOL_README, SEMVER.replace("type=sha", "type=match,pattern=\\d.\\d.\\d")),
        (BASE_README, RELEASE.replace('VERSION="v$NEXT"', "VERSION=$(git describe)")),
        # another way to publish
        (BASE_README, RELEASE + "      - run: docker push acme/onnx-base:1.2.0\n"),
        # a local build of that tag
        (TOOL_README.replace("docker pull", "docker build -t"), SEMVER),
    ],
)
def test_tags_the_workflow_may_give_or_that_are_not_read(tmp_path: Path, readme: str, workflow: str) -> None:
    files = {**DOCKERFILE, ".github/workflows/release.yml": workflow}
    assert [f for f in _audited(tmp_path, readme, files) if "tags its releases" in f] == []


# --------------------------------------------------------------------------------------------------
# tags a metadata-action step and a re-tagging script give, tags listed bare, and the hardware variant
# a README says a pushed tag is

# A lab image published by CUDA release through metadata-action; a second job re-tags the newest as
# `latest`. The owner is the repository's, which the README leaves as a placeholder.
LAB_FLOW = """\
name: Images
on:
  push:
    branches: [main]
    tags: ['v*']
  workflow_dispatch:
env:
  REGISTRY: ghcr.io
  IMAGE: ${{ github.repository_owner }}/lumen-lab
jobs:
  build:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        cu: ['12.4']
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: ${{ env.REGISTRY }}/${{ env.IMAGE }}
          tags: |
            type=raw,value=cu-${{ matrix.cu }}
            type=raw,value=cu-${{ matrix.cu }}-{{sha}}
            type=semver,pattern={{version}}-cu-${{ matrix.cu }}
      - uses: docker/build-push-action@v6
        with:
          context: .
          file: ./Dockerfile.cuda
          push: true
          tags: ${{ steps.meta.outputs.tags }}
  latest:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: |
          docker pull ${{ env.REGISTRY }}/${{ env.IMAGE }}:cu-12.4
          docker tag ${{ env.REGISTRY }}/${{ env.IMAGE }}:cu-12.4 ${{ env.REGISTRY }}/${{ env.IMAGE }}:latest
          docker push ${{ env.REGISTRY }}/${{ env.IMAGE }}:latest
"""

LAB = """\
# lumen-lab

**Light (CPU-only):**
- Base: `python:3.12-slim`
- Tags: `latest`, `light`

**CUDA 12.4:**
- Tags: `cu-12.4`, `cu-latest`

## Run

**CPU-only, no GPU needed:**
```bash
docker run -p 8888:8888 ghcr.io/[owner]/lumen-lab:latest
```

**NVIDIA GPU:**
```bash
docker run --gpus all -p 8888:8888 ghcr.io/<your-org>/lumen-lab:cu-12.4
docker pull ghcr.io/<your-org>/lumen-lab:1.4.0-cu-12.4
```

Images are tagged with:
- `cu-{version}`: one CUDA release
- `cu-11.8` was published until 2024.
"""

LAB_FILES = {
    "Dockerfile": "FROM python:3.12-slim\nRUN pip install jupyterlab\n",
    "Dockerfile.cuda": "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN apt-get update\n",
    ".github/workflows/images.yml": LAB_FLOW,
}

TAGS = "latest, cu-12.4, cu-12.4-{{sha}}, {{version}}-cu-12.4"  # (as the message lists them)


def test_tags_no_rule_gives_and_a_cpu_image_built_on_cuda(tmp_path: Path) -> None:
    assert _audited(tmp_path, LAB, LAB_FILES) == [
        f"5: README names ghcr.io/[owner]/lumen-lab:light, but .github/workflows/images.yml, the only "
        f"workflow that publishes the image, pushes only the tags {TAGS}",
        f"8: README names ghcr.io/[owner]/lumen-lab:cu-latest, but .github/workflows/images.yml, the only "
        f"workflow that publishes the image, pushes only the tags {TAGS}",
        "14: README says ghcr.io/[owner]/lumen-lab:latest is the CPU-only image, but "
        ".github/workflows/images.yml:25, the workflow that publishes it, builds it from Dockerfile.cuda, "
        "which starts from the CUDA image "
        "nvidia/cuda:12.4.1-runtime-ubuntu22.04",
    ]


def test_a_latest_job_retagging_the_light_image(tmp_path: Path) -> None:
    # the trap: `latest` is the CPU image when the step building the plain Dockerfile pushes it
    flow = LAB_FLOW.replace("file: ./Dockerfile.cuda", "file: ./Dockerfile")
    found = _audited(tmp_path, LAB, {**LAB_FILES, ".github/workflows/images.yml": flow})
    assert [f.split(":")[0] for f in found] == ["5", "8"]


def test_tags_a_branch_or_a_pattern_may_give(tmp_path: Path) -> None:
    flow = LAB_FLOW.replace(
        "type=raw,value=cu-${{ matrix.cu }}-{{sha}}",
        "type=raw,value=cu-latest\n            type=ref,event=branch",
    )
    # `light` is any branch's name (a run by hand takes any), `cu-latest` now a raw value
    assert _audited(tmp_path, LAB, {**LAB_FILES, ".github/workflows/images.yml": flow})[0].startswith(
        "14: README says"
    )


def test_another_owner_than_the_workflow_pushes(tmp_path: Path) -> None:
    flow = LAB_FLOW.replace("${{ github.repository_owner }}/lumen-lab", "kestrel/lumen-lab")
    assert _audited(tmp_path, LAB, {**LAB_FILES, ".github/workflows/images.yml": flow}) == []


# A course image whose one workflow publishes the default Dockerfile, multi-arch, as `latest` and by
# commit; its README calls it the CPU image beside a GPU image of another name.
COURSE_FLOW = """\
on:
  push:
    branches: [docker]
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v5
        with:
          context: .
          file: env/Dockerfile
          platforms: linux/amd64,linux/arm64
          push: ${{ github.event_name == 'push' }}
          tags: |
            ghcr.io/orchard-ai/course-box:latest
            ghcr.io/orchard-ai/course-box:${{ github.sha }}
"""

COURSE = """\
# Course environment

### Pull

**CPU-only (multi-arch)**
```bash
docker pull ghcr.io/orchard-ai/course-box:latest
```

**GPU-enabled (CUDA)**
```bash
docker pull ghcr.io/orchard-ai/course-box-gpu:latest
```

| Image | For |
|---|---|
| `ghcr.io/orchard-ai/course-box:latest` | the CPU-only build |
| `ghcr.io/orchard-ai/course-box:latest` | runs on CPU-only laptops too |
"""


@pytest.mark.parametrize(
    ("base", "found"),
    [
        ("quay.io/jupyter/pytorch-notebook:cuda12-python-3.11", ["7"]),
        ("quay.io/jupyter/pytorch-notebook:python-3.11", []),
        ("nvcr.io/nvidia/pytorch:24.05-py3", ["7"]),
    ],
)
def test_a_cpu_image_said_of_a_cuda_build(tmp_path: Path, base: str, found: list[str]) -> None:
    files = {"env/Dockerfile": f"FROM {base}\nWORKDIR /work\n", ".github/workflows/docker.yml": COURSE_FLOW}
    told = _audited(tmp_path, COURSE, files)
    assert [f.split(":")[0] for f in told] == found
    if found:
        assert told[0] == (
            "7: README says ghcr.io/orchard-ai/course-box:latest is the CPU-only image (also line 17), but "
            ".github/workflows/docker.yml:8, the workflow that publishes it, builds it from env/Dockerfile, "
            f"which starts from the CUDA image "
            f"{base}"
        )


def test_a_cuda_image_said_of_a_cpu_build(tmp_path: Path) -> None:
    readme = COURSE.replace("**CPU-only (multi-arch)**", "**CUDA 12 (NVIDIA GPUs)**").replace(
        "CPU-only laptops", ""
    )
    dockerfile = (
        "FROM python:3.11-slim\n"
        "RUN pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cpu\n"
        "RUN pip install jupyterlab\n"
    )
    files = {"env/Dockerfile": dockerfile, ".github/workflows/docker.yml": COURSE_FLOW}
    assert _audited(tmp_path, readme, files) == [
        "7: README says ghcr.io/orchard-ai/course-box:latest is the CUDA image, but "
        ".github/workflows/docker.yml:8, the workflow that publishes it, builds it from env/Dockerfile, "
        "which installs CPU builds only "
        "(torch (line 2)) on python:3.11-slim, with no CUDA or ROCm"
    ]


def test_a_tag_column_and_a_semver_release(tmp_path: Path) -> None:
    flow = """\
on:
  push:
    branches: [main]
    tags: ['v*']
jobs:
  docker:
    runs-on: ubuntu-latest
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: quillworks/notebook-gpu
          tags: |
            type=semver,pattern={{version}}
            type=semver,pattern={{major}}.{{minor}}
            type=ref,event=branch
            type=sha
      - uses: docker/build-push-action@v5
        with:
          push: true
          tags: ${{ steps.meta.outputs.tags }}
"""
    readme = """\
# notebook-gpu

```bash
docker pull quillworks/notebook-gpu:latest
```

| Tag | Meaning |
|---|---|
| `latest` | the newest release |
| `2.1` | the 2.1 line |
| `main` | the main branch |
| `sha-3f2a9c1` | one commit |
| `edge` | nightly builds |
"""
    files = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/docker.yml": flow}
    assert _audited(tmp_path, readme, files) == [
        "13: README names quillworks/notebook-gpu:edge, but .github/workflows/docker.yml, the only workflow "
        "that publishes the image, pushes only the tags <branch>, latest, sha-<commit>, {{major}}.{{minor}}, "
        "{{version}}"
    ]


def test_bare_tags_of_another_image(tmp_path: Path) -> None:
    flow = LAB_FLOW.replace(
        "          images: ${{ env.REGISTRY }}/${{ env.IMAGE }}\n",
        "          images: |\n            ${{ env.REGISTRY }}/${{ env.IMAGE }}\n"
        "            kestrel/lumen-lab\n",
    )
    # the README names two images the workflow pushes: a bare `Tags:` line may be either's
    readme = LAB + "\nOn Docker Hub: `kestrel/lumen-lab:cu-12.4`.\n"
    found = _audited(tmp_path, readme, {**LAB_FILES, ".github/workflows/images.yml": flow})
    assert [f.split(":")[0] for f in found] == ["14"]


def test_a_tag_column_beside_an_image_column(tmp_path: Path) -> None:
    readme = """\
# lumen-lab

```bash
docker pull ghcr.io/[owner]/lumen-lab:cu-12.4
```

| Image | Tag |
|---|---|
| `ghcr.io/[owner]/lumen-lab` | `cu-12.4` |
| `python` | `3.12-slim` |
| `ghcr.io/[owner]/lumen-lab` | `cu-12.6` |
"""
    assert [f.split(":")[0] for f in _audited(tmp_path, readme, LAB_FILES)] == ["11"]


def test_a_release_tag_is_left_to_the_version_forms(tmp_path: Path) -> None:
    # `{{version}}-cu-12.4` drops the git tag's `v`: `version_prefixes` reads release tags, this rule not
    readme = "# lumen-lab\n\n```bash\ndocker pull ghcr.io/[owner]/lumen-lab:cu-12.4\n```\n\n- Tags: `2.0`\n"
    assert _audited(tmp_path, readme, LAB_FILES) == []


@pytest.mark.parametrize(
    ("dockerfile", "found"),
    [
        # a build arg writes the release only: a CUDA image whatever CI passes
        ("ARG CU=12.4.1\nFROM nvidia/cuda:${CU}-runtime-ubuntu22.04\n", ["5", "8", "14"]),
        # a build arg may pick any base
        ("ARG BASE=nvidia/cuda:12.4.1-runtime-ubuntu22.04\nFROM ${BASE}\n", ["5", "8"]),
    ],
)
def test_a_base_a_build_arg_writes(tmp_path: Path, dockerfile: str, found: list[str]) -> None:
    told = _audited(tmp_path, LAB, {**LAB_FILES, "Dockerfile.cuda": dockerfile})
    assert [f.split(":")[0] for f in told] == found


def test_commented_rules_an_unread_image_and_placeholder_tags(tmp_path: Path) -> None:
    commented = LAB_FLOW.replace(
        "          tags: |\n", "          tags: |\n            # the CUDA release (e.g. cu-12.4)\n"
    )
    assert [
        f.split(":")[0]
        for f in _audited(tmp_path, LAB, {**LAB_FILES, ".github/workflows/images.yml": commented})
    ] == [
        "5",
        "8",
        "14",
    ]
    # an image named by a step's output may be any, with any tag
    unread = LAB_FLOW.replace(
        "images: ${{ env.REGISTRY }}/${{ env.IMAGE }}", "images: ${{ steps.name.outputs.lowered }}"
    )
    assert _audited(tmp_path, LAB, {**LAB_FILES, ".github/workflows/images.yml": unread}) == []
    # a tag with a placeholder in it (`pr-{number}`) is no tag
    readme = LAB.replace(
        "- Tags: `cu-12.4`, `cu-latest`",
        "- `ghcr.io/{owner}/lumen-lab:pr-{number}-cu`, `ghcr.io/{owner}/lumen-lab:vX.Y.Z-cu`, `:SHA`",
    )
    assert [f.split(":")[0] for f in _audited(tmp_path, readme, LAB_FILES)] == ["5", "14"]


def test_docker_hub_written_with_and_without_its_host(tmp_path: Path) -> None:
    flow = LISTED.replace("acmeml/visionserve:", "docker.io/acmeml/visionserve:")
    files = {"Dockerfile": "FROM python:3.12-slim\n", ".github/workflows/ci.yml": flow}
    assert [f.split(":")[0] for f in _audited(tmp_path, TABLE, files)] == ["5", "7"]
