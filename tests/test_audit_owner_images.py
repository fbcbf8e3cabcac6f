"""`docgen audit`: an image the README names for use that is the build's own image under another owner, a
README kept from the project the repository was forked from (docgen/audit/owner_images.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

_DOCKERFILE = 'ARG BASE="docker.io/bob/gpu-base:6.1-full"\nFROM ${BASE}\nRUN apt-get update\n'
_ENV = '#!/bin/bash\nif [ -z "$OUT_IMAGE" ]; then\n  OUT_IMAGE=docker.io/bob/gpu-base\nfi\n'
_MANIFEST = (
    "```yaml\ncontainers:\n  - name: dev\n    image: docker.io/ann/gpu-base:6.1-full\n"
    "    imagePullPolicy: Always\n```\n"
)


def _found(
    root: Path,
    intro: str,
    block: str = _MANIFEST,
    dockerfile: str = _DOCKERFILE,
    files: dict[str, str] | None = None,
) -> list[str]:
    """`audit` of base/readme.md (a title, `intro`, then `block`) beside base/toolbox.Dockerfile and
    base/env.sh, in a checkout: `line (confidence): message`."""
    make_tree(root, {".git/HEAD": "ref: refs/heads/main\n", "base/toolbox.Dockerfile": dockerfile})
    make_tree(root, {"base/env.sh": _ENV, **(files or {})})
    readme = f"# GPU base\n\n{intro}\n\n## Run\n\n{block}"
    (root / "base/readme.md").write_text(readme)
    model = replace(
        model_of(parse_dockerfile(dockerfile, "base/toolbox.Dockerfile")),
        file=str(root / "base/toolbox.Dockerfile"),
    )
    found = audit(readme, "base/readme.md", [model], {}, root / "base", root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found if "owner" in d.message]


_FINDING = (
    "3 (likely): README names image docker.io/ann/gpu-base:6.1-full, but the build uses "
    "docker.io/bob/gpu-base:6.1-full (toolbox.Dockerfile:1) and no file of it names ann: the image of "
    "another owner (the project this one was forked from?)"
)


def test_the_upstream_image_a_fork_kept(tmp_path: Path) -> None:
    # the sentence and the manifest name one image: one finding, joined
    assert _found(tmp_path, "Recommend use `docker.io/ann/gpu-base:6.1-full`") == [
        _FINDING + "; also at line 10"
    ]


def test_a_pull_in_a_command_block_and_no_registry(tmp_path: Path) -> None:
    found = _found(tmp_path, "Pull the image:", "```bash\ndocker pull ann/gpu-base:6.1-full\n```\n")
    assert found == [
        "8 (likely): README names image ann/gpu-base:6.1-full, but the build uses "
        "docker.io/bob/gpu-base:6.1-full (toolbox.Dockerfile:1) and no file of it names ann: the image of "
        "another owner (the project this one was forked from?)"
    ]


def test_a_tag_a_script_pushes(tmp_path: Path) -> None:
    # the Dockerfile leaves the base to its caller; the script beside it tags and pushes bob's image
    script = (
        "#!/bin/bash\nTAG=docker.io/bob/gpu-tools:6.1\npodman build -t $TAG .\n"
        "podman push docker.io/bob/gpu-tools:6.1\n"
    )
    found = _found(
        tmp_path,
        "Recommend use `docker.io/ann/gpu-tools:6.1`",
        "",
        "ARG BASE\nFROM ${BASE}\n",
        {"base/build.sh": script},
    )
    assert found == [
        "3 (likely): README names image docker.io/ann/gpu-tools:6.1, but the build uses "
        "docker.io/bob/gpu-tools:6.1 (build.sh:2) and no file of it names ann: the image of another owner "
        "(the project this one was forked from?)"
    ]


@pytest.mark.parametrize(
    ("intro", "block"),
    [
        # the README names the build's owner too: both images are told apart on purpose
        ("Recommend use `docker.io/ann/gpu-base:6.1-full`; our build pushes `bob/gpu-base`.", ""),
        ("To use this fork, use `ann/gpu-base:6.1-full` with `bob/gpu-tools` on top.", ""),
        # words telling where the image comes from
        ("This image is based on `docker.io/ann/gpu-base:6.1-full`.", ""),
        ("Upstream publishes `docker.io/ann/gpu-base:6.1-full`.", ""),
        ("Forked from `ann/gpu-base:6.1-full`.", ""),
        ("Replace `ann/gpu-base:6.1-full` in your manifests.", ""),
        # the same owner on another registry (a mirror)
        ("Recommend use `ghcr.io/bob/gpu-base:6.1-full`", ""),
        # another registry: an owner there is another account (`ghcr.io/ann` may be bob's project)
        ("Recommend use `ghcr.io/ann/gpu-base:6.1-full`", ""),
        # another tag, or one that is no version
        ("Recommend use `docker.io/ann/gpu-base:6.0-full`", ""),
        ("Recommend use `docker.io/ann/gpu-base:latest`", ""),
        # a name without a tag may be a repository, not an image
        ("See `ann/gpu-base` on GitHub.", ""),
    ],
)
def test_silent(tmp_path: Path, intro: str, block: str) -> None:
    assert _found(tmp_path, intro, block) == []


def test_a_base_pulled_from_the_other_owner_on_purpose(tmp_path: Path) -> None:
    # the Dockerfile starts from ann's image itself and the script pushes bob's: the README is right
    dockerfile = "FROM docker.io/ann/gpu-base:6.1-full\nRUN make\n"
    script = "#!/bin/bash\npodman build -t docker.io/bob/gpu-base:6.1-full .\n"
    intro = "Recommend use `docker.io/ann/gpu-base:6.1-full`"
    assert _found(tmp_path, intro, "", dockerfile, {"base/build.sh": script}) == []


def test_a_file_of_the_build_names_the_owner(tmp_path: Path) -> None:
    # a script above the README's folder pulls from ann: the owner is known to the build
    script = "#!/bin/bash\npodman pull docker.io/ann/rocm-dev:6.1\n"
    assert (
        _found(tmp_path, "Recommend use `docker.io/ann/gpu-base:6.1-full`", files={"sync.sh": script}) == []
    )


def test_official_namespaces(tmp_path: Path) -> None:
    # `library/` and the architecture namespaces hold one image each, not several owners
    dockerfile = "FROM arm64v8/ubuntu:22.04\nRUN true\n"
    intro = "Recommend use `library/ubuntu:22.04` on x86"
    assert _found(tmp_path, intro, "", dockerfile) == []


def test_an_owner_the_build_reads_from_a_variable(tmp_path: Path) -> None:
    # a script pushes the image under an owner it is given: the build's owner is not known
    script = "#!/bin/bash\npodman push docker.io/${ORG}/gpu-base:6.1-full\n"
    intro = "Recommend use `docker.io/ann/gpu-base:6.1-full`"
    assert _found(tmp_path, intro, "", files={"base/push.sh": script}) == []


def test_many_images_are_told_each_against_the_build_files_read_once(tmp_path: Path) -> None:
    # (benchmarks/bench_shapes.py `owner-images`: each image looked through every build file again)
    intro = "".join(f"Recommend use `docker.io/ann/gpu-base:6.{k}-full` for run {k}.\n" for k in range(40))
    script = "".join(f"OUT_IMAGE{k}=docker.io/bob/gpu-base:6.{k}-full\n" for k in range(2, 40))
    found = _found(
        tmp_path, intro, "", files={"base/build.sh": script + "OUT=docker.io/carl/gpu-base:6.39-full\n"}
    )
    assert len(found) == 38  # 6.0: the build names it nowhere; 6.39: two owners', not told
    assert found[0] == (
        "4 (likely): README names image docker.io/ann/gpu-base:6.1-full, but the build uses "
        "docker.io/bob/gpu-base:6.1-full (toolbox.Dockerfile:1) and no file of it names ann: the image of "
        "another owner (the project this one was forked from?)"
    )
    assert found[1].startswith("5 (likely): README names image docker.io/ann/gpu-base:6.2-full, but the")
    assert "(build.sh:1)" in found[1]
    assert found[-1].startswith("41 (likely): README names image docker.io/ann/gpu-base:6.38-full")
    assert "(build.sh:37)" in found[-1]


# An image the README pulls that is one slip from the one the build or the repository's CI names.
# Modelled on a render worker whose workflow pushes the image (`tags: owner/name:latest`) and an
# inference server whose build script tags and pushes it.
_WORKFLOW = """\
name: Publish worker
on:
  push:
    branches: [main]
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/build-push-action@v6
        with:
          context: .
          push: true
          tags: stellarfox/frame-renderer:latest
"""
_PUSH = (
    "#!/bin/sh\ndocker build -t quillworks/speech-server:0.4 .\ndocker push quillworks/speech-server:0.4\n"
)


def _slips(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    """`audit` of README.md (`readme`) beside a Dockerfile and `files`, at the top of a checkout."""
    make_tree(root, {".git/HEAD": "ref: refs/heads/main\n", "Dockerfile": "FROM ubuntu:24.04\n", **files})
    (root / "README.md").write_text(readme)
    model = replace(
        model_of(parse_dockerfile("FROM ubuntu:24.04\n", "Dockerfile")), file=str(root / "Dockerfile")
    )
    found = audit(readme, "README.md", [model], {}, root, root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found if "did you mean" in d.message]


def test_a_pulled_image_one_letter_off_the_one_the_workflow_pushes(tmp_path: Path) -> None:
    readme = "# Frame renderer\n\n## Image\n\n```bash\ndocker pull stellarfoxx/frame-renderer:latest\n```\n"
    files = {".github/workflows/publish.yml": _WORKFLOW}
    assert _slips(tmp_path, readme, files) == [
        "6 (likely): README names image stellarfoxx/frame-renderer:latest, but no file of the build names "
        "it; .github/workflows/publish.yml:14 names stellarfox/frame-renderer:latest (did you mean "
        "stellarfox/frame-renderer?)"
    ]


def test_a_named_image_with_two_letters_swapped_the_build_script_pushes(tmp_path: Path) -> None:
    readme = "# Speech server\n\nThe image is `quillworks/speech-sevrer:0.4`.\n"
    assert _slips(tmp_path, readme, {"build.sh": _PUSH}) == [
        "3 (likely): README names image quillworks/speech-sevrer:0.4, but no file of the build names it; "
        "build.sh:2 names quillworks/speech-server:0.4 (did you mean quillworks/speech-server?)"
    ]


@pytest.mark.parametrize(
    ("pulled", "files"),
    [
        # the name the workflow pushes
        ("stellarfox/frame-renderer:latest", {".github/workflows/publish.yml": _WORKFLOW}),
        # a placeholder
        ("your-username/frame-renderer:latest", {".github/workflows/publish.yml": _WORKFLOW}),
        # a plural: another image of the same owner
        ("stellarfox/frame-renderers:latest", {".github/workflows/publish.yml": _WORKFLOW}),
        # a variant of three letters (`cpu` for `gpu`)
        ("quillworks/speech-server-cpu:0.4", {"build.sh": _PUSH.replace("server:", "server-gpu:")}),
        # a digit (`v1` for `v2`)
        ("quillworks/speech-server-v1:0.4", {"build.sh": _PUSH.replace("server:", "server-v2:")}),
        # the workflow's owner is a secret: the build's owner is not known
        (
            "stellarfoxx/frame-renderer:latest",
            {
                ".github/workflows/publish.yml": _WORKFLOW.replace(
                    "stellarfox/", "${{ secrets.DOCKERHUB_USERNAME }}/"
                )
                + "          labels: stellarfox/frame-renderer\n"
            },
        ),
        # two images one slip away
        ("quillworks/speech-sever:0.4", {"build.sh": _PUSH + "docker tag a quillworks/speech-seven:0.4\n"}),
    ],
)
def test_pulls_that_are_no_slip_are_silent(tmp_path: Path, pulled: str, files: dict[str, str]) -> None:
    readme = f"# Image\n\n```bash\ndocker pull {pulled}\n```\n"
    assert _slips(tmp_path, readme, files) == []


def test_a_listed_image_missing_the_hyphen_of_the_one_the_scripts_build(tmp_path: Path) -> None:
    # a family of images listed out of code, one of them written without the `-` its build script tags
    readme = (
        "Images for inference.\n\nImages are:\n\n- quillworks/speechserver: the server and its models\n"
        "- quillworks/speech-base - the base\n"
    )
    files = {"build.sh": _PUSH, "build-base.sh": "docker build -t quillworks/speech-base base\n"}
    assert _slips(tmp_path, readme, files) == [
        "5 (likely): README names image quillworks/speechserver, but no file of the build names it; "
        "build.sh:2 names quillworks/speech-server:0.4 (did you mean quillworks/speech-server?)"
    ]


def test_a_listed_image_one_letter_off_the_workflow_push(tmp_path: Path) -> None:
    readme = "# Renderer\n\n* **stellarfox/frame-rendrer** - renders frames on a GPU\n"
    files = {".github/workflows/publish.yml": _WORKFLOW}
    assert [f.split(":", 1)[0] for f in _slips(tmp_path, readme, files)] == ["3 (likely)"]


@pytest.mark.parametrize(
    "item",
    [
        "- quillworks/speech-server: the server",  # the name built
        "- quillworks/speechserver is what we used to call it",  # words go on: no list of images
        "- see quillworks/speechserver: …",  # not the item's first word
        "- docs/speechserver: its pages",  # a folder one `-` off no image: `docs` is no owner built
    ],
)
def test_list_items_that_name_no_slipped_image(tmp_path: Path, item: str) -> None:
    assert _slips(tmp_path, f"# Images\n\n{item}\n", {"build.sh": _PUSH}) == []


def test_a_line_saying_where_the_image_comes_from_is_silent(tmp_path: Path) -> None:
    readme = "# Speech server\n\nBased on `quillworks/speech-sevrer:0.4`, the upstream image.\n"
    assert _slips(tmp_path, readme, {"build.sh": _PUSH}) == []


# A fork's bake file publishes the image under the fork's owner; its README still runs the upstream
# owner's image (modelled on a ComfyUI RunPod family of four variants and on a one-target worker image).
_BAKE_FAMILY = """\
variable "REGISTRY" {
    default = "docker.io"
}

variable "REGISTRY_USER" {
    default = "carol"
}

variable "APP" {
    default = "paintbox"
}

variable "BASE_IMAGE_REPOSITORY" {
    default = "dave/pod-base"
}

target "cu121-py310" {
    dockerfile = "Dockerfile"
    tags = ["${REGISTRY}/${REGISTRY_USER}/${APP}:cu121-py310-v2.3.0"]
    args = {
        BASE_IMAGE = "${BASE_IMAGE_REPOSITORY}:1.9.0-python3.10"
    }
}

target "cu126-py311" {
    dockerfile = "Dockerfile"
    tags = ["${REGISTRY}/${REGISTRY_USER}/${APP}:cu126-py311-v2.3.0"]
    args = {
        BASE_IMAGE = "${BASE_IMAGE_REPOSITORY}:1.9.0-python3.11"
    }
}
"""
_BAKE_ONE = """\
variable "REGISTRY_USER" {
  default = "erin"
}

target "default" {
  dockerfile = "Dockerfile"
  tags = ["docker.io/${REGISTRY_USER}/queue-worker:4.1.0"]
}
"""
_RUN = (
    "```bash\ndocker run -d \\\n  --gpus all \\\n  -p 3000:3001 \\\n  -e EXTRA=--low --fast \\\n"
    "  dave/paintbox:latest\n```\n"
)


def _ran(root: Path, block: str, files: dict[str, str], intro: str = "Start it:") -> list[str]:
    make_tree(
        root, {".git/HEAD": "ref: refs/heads/main\n", "Dockerfile": "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n"}
    )
    make_tree(root, files)
    readme = f"# Paintbox\n\n## Running\n\n{intro}\n\n{block}"
    (root / "README.md").write_text(readme)
    model = replace(
        model_of(parse_dockerfile("ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n", "Dockerfile")),
        file=str(root / "Dockerfile"),
    )
    found = audit(readme, "README.md", [model], {}, root, root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found if "README runs" in d.message]


def test_a_run_of_the_upstream_owner_s_image_the_bake_file_tags_under_the_fork(tmp_path: Path) -> None:
    # the unknown option (`--fast`, the value unquoted) leaves the image the command's last word
    assert _ran(tmp_path, _RUN, {"docker-bake.hcl": _BAKE_FAMILY}) == [
        "12 (likely): README runs dave/paintbox:latest, but docker-bake.hcl:17 tags the build "
        "docker.io/carol/paintbox:cu121-py310-v2.3.0 and no file of the build names dave/paintbox: the image "
        "of another owner (the project this one was forked from?)"
    ]


def test_a_one_target_bake_file_with_its_owner_in_a_variable(tmp_path: Path) -> None:
    block = "```bash\ndocker run --rm -e QUEUE=jobs frank/queue-worker:4.1.0\n```\n"
    assert _ran(tmp_path, block, {"docker-bake.hcl": _BAKE_ONE}) == [
        "8 (likely): README runs frank/queue-worker:4.1.0, but docker-bake.hcl:5 tags the build "
        "docker.io/erin/queue-worker:4.1.0 and no file of the build names frank/queue-worker: the image of "
        "another owner (the project this one was forked from?)"
    ]


@pytest.mark.parametrize(
    ("block", "files", "intro"),
    [
        # the build's own owner
        ("```bash\ndocker run -d carol/paintbox:cu126-py311-v2.3.0\n```\n", {}, "Start it:"),
        # a file of the build names the README's image (a cache source, a mirror)
        ("", {"cache.hcl": 'variable "CACHE" {\n  default = "dave/paintbox:cache"\n}\n'}, "Start it:"),
        # a workflow runs bake: it may set the owner
        (
            "",
            {
                ".github/workflows/push.yml": (
                    "jobs:\n  b:\n    steps:\n      - run: docker buildx bake --push\n"
                )
            },
            "Start it:",
        ),
        # a script beside it runs bake with another owner
        ("", {"release.sh": "REGISTRY_USER=gina docker buildx bake --push\n"}, "Start it:"),
        # the line says where the image comes from
        ("```bash\ndocker run -d dave/paintbox:latest  # the upstream image\n```\n", {}, "Start it:"),
        # the README builds that name itself
        (
            "```bash\ndocker build -t dave/paintbox:latest .\ndocker run -d dave/paintbox:latest\n```\n",
            {},
            "Start it:",
        ),
        # the base image: another name under the same owner
        ("```bash\ndocker run -it dave/pod-base:1.9.0-python3.11\n```\n", {}, "Start it:"),
        # a command whose unknown option may take the image as its value: not the last word
        ("```bash\ndocker run --fancy dave/paintbox:latest bash\n```\n", {}, "Start it:"),
    ],
)
def test_runs_that_are_no_other_owner_s_image_are_silent(
    tmp_path: Path, block: str, files: dict[str, str], intro: str
) -> None:
    assert _ran(tmp_path, block or _RUN, {"docker-bake.hcl": _BAKE_FAMILY, **files}, intro) == []


def test_no_bake_file_no_finding(tmp_path: Path) -> None:
    # a run alone says nothing of who publishes
    assert _ran(tmp_path, _RUN, {}) == []


# `pulled_latest`: a pulled tag (often the implied `latest`) that no tag of the project's build gives.
_TTS_COMPOSE = "services:\n  tts:\n    image: maxo/coqui_tts:1.0.1\n    build: .\n"
_TTS = "# TTS\n\n## Usage\n\n```bash\ndocker pull maxo/coqui_tts\n./run.sh\n```\n"


def _pulled(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(
        root,
        {".git/HEAD": "ref: refs/heads/main\n", "Dockerfile": "FROM ubuntu:22.04\n", "README.md": readme},
    )
    make_tree(root, files)
    model = replace(
        model_of(parse_dockerfile("FROM ubuntu:22.04\n", "Dockerfile")), file=str(root / "Dockerfile")
    )
    found = audit(readme, "README.md", [model], {}, root, root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found if d.message.startswith("README pulls")]


def test_a_pulled_latest_the_build_never_tags(tmp_path: Path) -> None:
    files = {
        "build.sh": "#!/bin/bash\ndocker build -t maxo/coqui_tts:1.0.1 -f Dockerfile .\n",
        "compose.yml": _TTS_COMPOSE,
    }
    assert _pulled(tmp_path, _TTS, files) == [
        "6 (likely): README pulls maxo/coqui_tts (the tag latest), but the build tags maxo/coqui_tts only as "
        "1.0.1 (build.sh:2, compose.yml:3): no build of the project makes latest"
    ]


def test_a_pulled_tag_scheme_a_windows_build_script_does_not_give(tmp_path: Path) -> None:
    bat = 'docker build --pull --build-arg V=%1 -t juice/server:11.7-%1 "."\r\n'
    readme = "# Server\n\n~~~\ndocker pull juice/server:2022-11-22-b1ff-ubuntu-22\n~~~\n"
    assert _pulled(tmp_path, readme, {"build.bat": bat}) == [
        "4 (likely): README pulls juice/server:2022-11-22-b1ff-ubuntu-22, but the build tags juice/server "
        "only as 11.7-… (build.bat:1): no build of the project makes 2022-11-22-b1ff-ubuntu-22"
    ]


@pytest.mark.parametrize(
    "files",
    [
        # the build tags latest too
        {"build.sh": "docker build -t maxo/coqui_tts:1.0.1 -t maxo/coqui_tts:latest .\n"},
        # a tag all from a variable the reader sets
        {"build.sh": "docker build -t maxo/coqui_tts:${VERSION} .\n"},
        # a CI workflow publishes the image under a scheme not read here
        {"build.sh": "docker build -t maxo/coqui_tts:1.0.1 .\n", ".github/workflows/push.yml": "on: push\n"},
        # the project uses the image as a base: an image of another project
        {"Dockerfile.app": "FROM maxo/coqui_tts:1.0.1\n"},
        # the build never names it
        {"build.sh": "docker build -t maxo/other:1.0.1 .\n"},
    ],
)
def test_pulls_the_build_may_give_are_silent(tmp_path: Path, files: dict[str, str]) -> None:
    assert _pulled(tmp_path, _TTS, files) == []


def test_a_pull_the_readme_tags_itself_or_a_version_pattern_matches(tmp_path: Path) -> None:
    files = {"build.sh": "docker build -t maxo/coqui_tts:1.0.1 .\n"}
    assert (
        _pulled(tmp_path, _TTS + "\n```bash\ndocker tag maxo/coqui_tts:1.0.1 maxo/coqui_tts\n```\n", files)
        == []
    )
    pattern = {"build.sh": "docker build -t maxo/coqui_tts:${CUDA}-1.0 .\n"}
    assert _pulled(tmp_path, _TTS.replace("maxo/coqui_tts\n", "maxo/coqui_tts:12.1-1.0\n"), pattern) == []


_TTS_DOCKERFILE = "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\nCOPY server /app\n"
_TTS_BUILD = (
    "#!/usr/bin/env bash\nIMAGE_NAME=${IMAGE_NAME:-vox/speak-trtllm-fast}\nIMAGE_TAG=${IMAGE_TAG:-cu121}\n"
    'docker build -t "${IMAGE_NAME}:${IMAGE_TAG}" -f Dockerfile .\ndocker push "${IMAGE_NAME}:${IMAGE_TAG}"\n'
)


def _renamed(root: Path, readme: str, build: str = _TTS_BUILD) -> list[str]:
    make_tree(root, {".git/HEAD": "ref: refs/heads/main\n", "fast/Dockerfile": _TTS_DOCKERFILE})
    make_tree(root, {"fast/build.sh": build, "fast/README.md": readme})
    model = replace(
        model_of(parse_dockerfile(_TTS_DOCKERFILE, "Dockerfile")), file=str(root / "fast/Dockerfile")
    )
    found = audit(readme, "README.md", [model], {}, root / "fast", root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found if "example runs image" in d.message]


_TTS_README = """\
# Fast TTS

```bash
docker run --gpus all -p 8000:8000 vox/speak-trtllm-fast:cu121
```

## Kubernetes

```yaml
containers:
  - name: tts
    image: vox/speak-tts-fast:cu121
```

## Compose

```yaml
services:
  tts:
    image: vox/speak-tts-fast:cu121
```
"""


def test_a_manifest_image_under_another_name_than_the_build_pushes(tmp_path: Path) -> None:
    assert _renamed(tmp_path, _TTS_README) == [
        "12 (likely): README's example runs image vox/speak-tts-fast:cu121, which no file of the build "
        "names; build.sh:2 builds vox/speak-trtllm-fast, the image the README runs elsewhere as "
        "vox/speak-trtllm-fast:cu121 (did you mean it?)"
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("vox/speak-tts-fast:cu121", "vox/speak-gpu-fast:cu121"),  # a sibling variant (cpu/gpu)
        ("vox/speak-tts-fast:cu121", "vox/speak-tts-fast:latest"),  # no versioned tag
        ("vox/speak-tts-fast:cu121", "ann/speak-tts-fast:cu121"),  # another owner: owner_images' concern
        (
            "    image: vox/speak-tts-fast:cu121\n```\n\n## Compose",
            "    image: vox/speak-tts-fast:cu121  # upstream\n```\n\n## Compose",
        ),
    ],
)
def test_manifest_images_that_are_no_rename(tmp_path: Path, old: str, new: str) -> None:
    readme = _TTS_README.replace(old, new)
    found = _renamed(tmp_path, readme)
    if "upstream" in new:
        assert [f[:3] for f in found] == ["20 "]  # only the compose block's line is told
    else:
        assert found == []


def test_a_manifest_image_the_readme_runs_nowhere_else(tmp_path: Path) -> None:
    # trap: the README never runs the build's name with that tag: which is meant cannot be told
    readme = _TTS_README.replace("vox/speak-trtllm-fast:cu121", "vox/speak-trtllm-fast:cu124")
    assert _renamed(tmp_path, readme) == []


# --------------------------------------------------------------------------------------------------
# Two runs of one repository name under two owners, the Dockerfile's LABEL naming one

_CUDA = "nvidia/cuda:13.0.1-cudnn-devel-ubuntu22.04"
_LABELLED = f'FROM {_CUDA}\nLABEL maintainer="nat@semhoun.net"\nRUN pip install unsloth\n'
# modelled on a fine-tuning image README: a Quick Start, then a Full Example kept from the upstream project
_TWO_RUNS = """\
# Unsloth environment

## Quick Start

```bash
docker run -d -p 8888:8888 \\
  -v $(pwd)/work:/workspace/work \\
  --gpus all \\
  semhoun/unsloth
```

## Full Example

```bash
docker run -d -e JUPYTER_PORT=8000 \\
  -v $(pwd)/work:/workspace/work \\
  unsloth/unsloth
```
"""


def _twins(root: Path, readme: str, dockerfile: str = _LABELLED) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = replace(model_of(parse_dockerfile(dockerfile, "Dockerfile")), file=str(root / "Dockerfile"))
    found = audit(readme, "README.md", [model], {}, root, root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found if "another owner" in d.message]


def test_a_run_of_the_upstream_image_beside_the_labelled_owner_s(tmp_path: Path) -> None:
    assert _twins(tmp_path, _TWO_RUNS) == [
        "17 (likely): README runs unsloth/unsloth, but its run at line 9 starts semhoun/unsloth, the owner "
        "Dockerfile:2's LABEL names, and no file of the build names unsloth/unsloth: the image of another "
        "owner"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # one owner only
        (_TWO_RUNS.replace("unsloth/unsloth", "semhoun/unsloth"), _LABELLED),
        # the label names neither owner: which is the project's is not known
        (_TWO_RUNS, _LABELLED.replace("semhoun.net", "example.org")),
        # the Dockerfile starts from the other image: it is the base, named by the build
        (_TWO_RUNS, _LABELLED.replace(_CUDA, "unsloth/unsloth:latest")),
        # the README says where the other image comes from
        (_TWO_RUNS.replace("## Full", "Based on `unsloth/unsloth`.\n\n## Full"), _LABELLED),
        (_TWO_RUNS.replace("  unsloth/unsloth", "  unsloth/unsloth  # the upstream image"), _LABELLED),
    ],
)
def test_twin_runs_that_are_no_finding(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert _twins(tmp_path, readme, dockerfile) == []


@pytest.mark.parametrize(
    "owner", ["your-image-name", "my-registry", "YOUR_DOCKERHUB_USER", "your_org", "my.registry"]
)
def test_an_owner_the_reader_picks_is_no_other_owner(tmp_path: Path, owner: str) -> None:
    # a SLAM stack's README telling the reader to push the base under their own name, then to change
    # the FROM of the next Dockerfile to it (a dashboard project's README does the same with `my-…`)
    block = f"Then change the FROM line to your own image name:\n\n```\nFROM {owner}/gpu-base:6.1-full\n```\n"
    assert _found(tmp_path, "Build the base first.", block) == []
    # the same line naming an owner's image is read
    assert _found(tmp_path / "b", "Build the base first.", block.replace(owner, "ann")) == [
        _FINDING.replace("3 (likely)", "10 (likely)").replace("docker.io/ann/gpu-base", "ann/gpu-base")
    ]


# `pulled_latest` on runs: a `docker run` pulls an image the machine lacks, so an image the README runs
# under a tag no build file gives is the same slip as a pull (an inference image pushed under versioned
# tags only; a speech server whose Makefile tags a release).
_VLLM_BUILD = (
    "docker buildx build . -f Dockerfile --build-arg base=nvidia/cuda:12.2.2-devel -t tapir/infer:cu12-dev\n"
    "docker push tapir/infer:cu12-dev\n\n"
    "docker buildx build . -f Dockerfile --build-arg base=nvidia/cuda:12.2.2-runtime -t tapir/infer:cu12\n"
    "docker push tapir/infer:cu12\n"
)
_VLLM = (
    "# Inference image\n\n## One-shot start\n\n```\ndocker run --gpus all -p 8000:8000 \\\n"
    "  --shm-size=16gb tapir/infer:latest\n```\n\n## Step by step\n\n```\n"
    "docker run --rm -it --entrypoint sh --gpus all tapir/infer:latest\n```\n"
)


def _ran_latest(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(
        root,
        {".git/HEAD": "ref: refs/heads/main\n", "Dockerfile": "FROM ubuntu:22.04\n", "README.md": readme},
    )
    make_tree(root, files)
    model = replace(
        model_of(parse_dockerfile("FROM ubuntu:22.04\n", "Dockerfile")), file=str(root / "Dockerfile")
    )
    found = audit(readme, "README.md", [model], {}, root, root)
    return [
        f"{d.line} ({d.confidence}): {d.message}"
        for d in found
        if d.message.startswith(("README runs", "README pulls")) and "no build of the project" in d.message
    ]


def test_a_run_image_the_build_script_never_tags(tmp_path: Path) -> None:
    assert _ran_latest(tmp_path, _VLLM, {"build.sh": _VLLM_BUILD}) == [
        "7 (likely): README runs tapir/infer:latest, but the build tags tapir/infer only as cu12-dev, cu12 "
        "(build.sh:1, build.sh:2, build.sh:4): no build of the project makes latest; also at line 13"
    ]


def test_a_run_with_no_tag_of_an_image_a_makefile_tags_by_release(tmp_path: Path) -> None:
    makefile = "VERSION := 0.4.2\nbuild:\n\tdocker build -t kestrel/speech:0.4.2 .\n"
    readme = "# Speech\n\n```sh\nmake build\ndocker run -p 5002:5002 kestrel/speech\n```\n"
    assert _ran_latest(tmp_path, readme, {"Makefile": makefile}) == [
        "5 (likely): README runs kestrel/speech (the tag latest), but the build tags kestrel/speech only as "
        "0.4.2 (Makefile:3): no build of the project makes latest"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the build pushes latest too
        (_VLLM, {"build.sh": _VLLM_BUILD + "docker tag tapir/infer:cu12 tapir/infer:latest\n"}),
        # a CI workflow publishes the image
        (_VLLM, {"build.sh": _VLLM_BUILD, ".github/workflows/publish.yml": "on: push\n"}),
        # a Docker Hub badge: the image is published, Docker Hub may build latest itself
        (
            "[![pulls](https://img.shields.io/docker/pulls/tapir/infer)](https://hub.docker.com/r/tapir/infer)\n\n"
            + _VLLM,
            {"build.sh": _VLLM_BUILD},
        ),
        # the tag comes from a variable the reader sets
        (_VLLM, {"build.sh": "docker build -t tapir/infer:${TAG} .\n"}),
        # the README builds it itself
        ("```\ndocker build -t tapir/infer .\n```\n" + _VLLM, {"build.sh": _VLLM_BUILD}),
        # the README tags it
        ("```\ndocker tag tapir/infer:cu12 tapir/infer:latest\n```\n" + _VLLM, {"build.sh": _VLLM_BUILD}),
        # an owner the reader puts their own name in
        (
            _VLLM.replace("tapir/infer", "yourname/infer"),
            {"build.sh": _VLLM_BUILD.replace("tapir/infer", "yourname/infer")},
        ),
        # a line telling the image is an upstream one
        (
            "```\ndocker run --gpus all tapir/infer:latest  # the upstream image\n```\n",
            {"build.sh": _VLLM_BUILD},
        ),
    ],
)
def test_runs_the_build_may_give_are_silent(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _ran_latest(tmp_path, readme, files) == []


def test_a_versioned_run_tag_is_read_despite_a_docker_hub_link(tmp_path: Path) -> None:
    # Docker Hub's automated builds may push `latest`, never a release tag no build file gives
    readme = (
        "The image is on [Docker Hub](https://hub.docker.com/r/tapir/infer/tags).\n\n"
        "```\ndocker run --gpus all tapir/infer:cu13-ubuntu22\n```\n"
    )
    assert _ran_latest(tmp_path, readme, {"build.sh": _VLLM_BUILD}) == [
        "4 (likely): README runs tapir/infer:cu13-ubuntu22, but the build tags tapir/infer only as cu12-dev, "
        "cu12 (build.sh:1, build.sh:2, build.sh:4): no build of the project makes cu13-ubuntu22"
    ]


# --------------------------------------------------------------------------------------------------
# The image a README runs while the Makefile builds and pushes the owner's image under another name

_CU_MAKEFILE = """\
IMAGE=cu118-jammy-dev
VERSION := $(shell git describe --tags --always --dirty)
REGISTRY := kvlab
TAG := $(VERSION)

build:
\tdocker build -t $(REGISTRY)/$(IMAGE):$(TAG) -f Dockerfile .

push: build
\tdocker push ${REGISTRY}/${IMAGE}:${TAG}
"""
_CU_README = """\
# cuda images

Available versions:
```
FROM kvlab/cuda:11.8-devel-py310-jammy
```

# Run

```
docker run -it --rm --gpus all kvlab/cuda:11.8-devel-py310-jammy nvidia-smi
```
"""


def _make_renamed(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {".git/HEAD": "ref: refs/heads/main\n", "Dockerfile": "FROM ubuntu:22.04\n"})
    make_tree(root, {"README.md": readme, **files})
    model = replace(model_of(parse_dockerfile("FROM ubuntu:22.04\n")), file=str(root / "Dockerfile"))
    return [
        f"{d.line} ({d.confidence}): {d.message}"
        for d in audit(readme, "README.md", model, {}, root, root)
        if "the image it runs is not the one" in d.message
    ]


def test_a_run_of_an_image_the_makefile_builds_under_another_name(tmp_path: Path) -> None:
    assert _make_renamed(tmp_path, _CU_README, {"Makefile": _CU_MAKEFILE}) == [
        "11 (likely): README runs kvlab/cuda:11.8-devel-py310-jammy, but the build makes "
        "kvlab/cu118-jammy-dev:$TAG (Makefile:7) and no file of the build names kvlab/cuda: the image it "
        "runs is not the one the project builds"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the Makefile builds the name the README runs
        (_CU_README, {"Makefile": _CU_MAKEFILE.replace("IMAGE=cu118-jammy-dev", "IMAGE=cuda")}),
        # an owner the Makefile reads from the environment: any owner may be made
        (_CU_README, {"Makefile": _CU_MAKEFILE.replace("REGISTRY := kvlab\n", "")}),
        # a workflow pushes the README's name
        (
            _CU_README,
            {
                "Makefile": _CU_MAKEFILE,
                ".github/workflows/push.yml": (
                    "jobs:\n  p:\n    steps:\n      - run: docker push kvlab/cuda:x\n"
                ),
            },
        ),
        # the README builds an image itself
        (
            _CU_README.replace("# Run\n", "# Run\n\n```\ndocker build -t kvlab/cuda:mine .\n```\n"),
            {"Makefile": _CU_MAKEFILE},
        ),
        # the README runs two images of the owner: a helper beside the build's
        (
            _CU_README.replace("nvidia-smi\n", "nvidia-smi\ndocker run -d kvlab/metrics-agent:1.2\n"),
            {"Makefile": _CU_MAKEFILE},
        ),
        # the line says the image is the older one
        (
            _CU_README.replace("nvidia-smi\n", "nvidia-smi  # the previous image\n"),
            {"Makefile": _CU_MAKEFILE},
        ),
        # the Makefile builds another owner's image
        (_CU_README, {"Makefile": _CU_MAKEFILE.replace("REGISTRY := kvlab", "REGISTRY := other")}),
    ],
)
def test_runs_the_makefile_may_make_or_that_are_not_its(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _make_renamed(tmp_path, readme, files) == []


# `pulled_latest` over a bake file's tags (variables at their defaults): a RunPod-style family of
# variants published with `docker buildx bake --push`, and a one-target queue worker, run as `latest`.
_PAINTBOX_PUBLISH = (
    "[![pulls](https://img.shields.io/docker/pulls/carol/paintbox)](https://hub.docker.com/r/carol/paintbox)\n\n"
    "## Publishing\n\n```bash\ndocker buildx bake -f docker-bake.hcl --push\n```\n\n"
)
_PAINTBOX_RUN = (
    "```bash\ndocker run -d \\\n  --gpus all \\\n  -p 3000:3001 \\\n  carol/paintbox:latest\n```\n\n"
    "Then open port 3000.\n"
)
_OWN_NAME = "You can obviously substitute the image name and tag with your own.\n"
"""The line such READMEs put under the run: the image named is an example (`_own_name_said`)."""


def test_a_run_of_latest_the_bake_file_never_tags(tmp_path: Path) -> None:
    assert _ran_latest(tmp_path, _PAINTBOX_PUBLISH + _PAINTBOX_RUN, {"docker-bake.hcl": _BAKE_FAMILY}) == [
        "13 (likely): README runs carol/paintbox:latest, but the build tags carol/paintbox only as "
        "cu121-py310-v2.3.0, cu126-py311-v2.3.0 (docker-bake.hcl:17, docker-bake.hcl:25): no build of the "
        "project makes latest"
    ]


def test_a_pull_with_no_tag_of_a_one_target_bake_image(tmp_path: Path) -> None:
    readme = "# Worker\n\n```\ndocker pull erin/queue-worker\ndocker run --rm erin/queue-worker\n```\n"
    assert _ran_latest(tmp_path, readme, {"docker-bake.hcl": _BAKE_ONE}) == [
        "4 (likely): README pulls erin/queue-worker (the tag latest), but the build tags erin/queue-worker "
        "only as 4.1.0 (docker-bake.hcl:5): no build of the project makes latest"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a workflow publishes the image (it may push latest)
        (
            _PAINTBOX_PUBLISH + _PAINTBOX_RUN,
            {"docker-bake.hcl": _BAKE_FAMILY, ".github/workflows/bake.yml": "on: push\n"},
        ),
        # the line under the run has the reader put their own image name and tag in
        (
            _PAINTBOX_PUBLISH + _PAINTBOX_RUN.replace("Then open port 3000.\n", _OWN_NAME),
            {"docker-bake.hcl": _BAKE_FAMILY},
        ),
        # the README's own bake run sets the release to latest
        (
            _PAINTBOX_PUBLISH.replace("docker buildx", "RELEASE=latest docker buildx") + _PAINTBOX_RUN,
            {
                "docker-bake.hcl": _BAKE_FAMILY.replace("v2.3.0", "${RELEASE}")
                + 'variable "RELEASE" {\n    default = "v2.3.0"\n}\n'
            },
        ),
        # the README's bake run overrides the tags
        (
            _PAINTBOX_PUBLISH.replace("--push", "--set '*.tags=carol/paintbox:latest' --push")
            + _PAINTBOX_RUN,
            {"docker-bake.hcl": _BAKE_FAMILY},
        ),
        # the README builds the image with `-t …:latest` itself
        (
            "```bash\ndocker build -t carol/paintbox:latest .\n```\n\n" + _PAINTBOX_RUN,
            {"docker-bake.hcl": _BAKE_FAMILY},
        ),
        # a Docker Hub badge and no bake push in the README: Docker Hub may build latest itself
        (
            "[![pulls](https://img.shields.io/docker/pulls/carol/paintbox)](https://hub.docker.com/r/carol/paintbox)"
            "\n\n" + _PAINTBOX_RUN,
            {"docker-bake.hcl": _BAKE_FAMILY},
        ),
        # a script runs bake: it may set the tag
        (
            _PAINTBOX_PUBLISH + _PAINTBOX_RUN,
            {"docker-bake.hcl": _BAKE_FAMILY, "release.sh": "RELEASE=latest docker buildx bake --push\n"},
        ),
        # a bake target tags the image with no tag (latest) or latest itself
        (
            "```\ndocker run --rm erin/queue-worker:latest\n```\n",
            {"docker-bake.hcl": _BAKE_ONE.replace(":4.1.0", "")},
        ),
        (
            "```\ndocker run --rm erin/queue-worker:latest\n```\n",
            {"docker-bake.hcl": _BAKE_ONE.replace('4.1.0"', '4.1.0", "docker.io/erin/queue-worker:latest"')},
        ),
        # the image the README runs is the base image, not the bake file's
        ("```\ndocker run --rm dave/pod-base:latest\n```\n", {"docker-bake.hcl": _BAKE_FAMILY}),
        # a line saying the image is the upstream one
        (
            "```\ndocker run --rm carol/paintbox:latest  # the upstream image\n```\n",
            {"docker-bake.hcl": _BAKE_FAMILY},
        ),
    ],
)
def test_bake_runs_that_may_be_built_are_silent(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _ran_latest(tmp_path, readme, files) == []


# an image of a registry named by its host under a path the build no longer gives it (moved_images)

_MOVED_README = """\
# Lumen

### Variants

- `cuda`: NVIDIA GPUs\\
  URI: `ghcr.io/kiln/portable/lumen:cuda`
- `cpu`: any machine\\
  URI: `ghcr.io/kiln/kiln-apps/lumen:cpu`
"""
_BUILD_COMPOSE = """\
services:
  cuda:
    build:
      dockerfile: ./cuda/Dockerfile
    image: ghcr.io/kiln/kiln-apps/lumen:cuda${VARIANT_SUFFIX}
  cpu:
    build:
      dockerfile: ./cpu/Dockerfile
    image: ghcr.io/kiln/kiln-apps/lumen:cpu${VARIANT_SUFFIX}
"""
_OLD_EXAMPLE = """\
services:
  lumen:
    build:
      dockerfile: ./cuda/Dockerfile
    image: ghcr.io/kiln/portable/lumen:v0.9-cuda
"""


def _moved(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    """`audit` of lumen/README.md beside lumen/cuda/Dockerfile and `files` (in lumen/): `line
    (confidence): message` of the findings of a moved image."""
    make_tree(root, {".git/HEAD": "ref: refs/heads/main\n", "lumen/cuda/Dockerfile": "FROM ubuntu:24.04\n"})
    make_tree(root, {f"lumen/{name}": text for name, text in files.items()})
    (root / "lumen/README.md").write_text(readme)
    model = replace(
        model_of(parse_dockerfile("FROM ubuntu:24.04\n", "cuda/Dockerfile")),
        file=str(root / "lumen/cuda/Dockerfile"),
    )
    found = audit(readme, "lumen/README.md", [model], {}, root / "lumen", root)
    return [
        f"{d.line} ({d.confidence}): {d.message}" for d in found if "no file of the build names" in d.message
    ]


def test_an_image_under_the_path_the_registry_had_before(tmp_path: Path) -> None:
    # modelled on a family of GPU app images: the compose file that builds them names the new path; an
    # old example beside them still names the old one, with another tag
    files = {"docker-compose.build.yml": _BUILD_COMPOSE, "cuda/docker-compose.example.yml": _OLD_EXAMPLE}
    assert _moved(tmp_path, _MOVED_README, files) == [
        "6 (likely): README names image ghcr.io/kiln/portable/lumen:cuda, but no file of the build names "
        "ghcr.io/kiln/portable/lumen with the tag cuda; docker-compose.build.yml:5 names "
        "ghcr.io/kiln/kiln-apps/lumen:cuda${VARIANT_SUFFIX} (did you mean ghcr.io/kiln/kiln-apps/lumen:cuda?)"
    ]


def test_a_pull_of_an_image_a_script_pushes_under_another_group(tmp_path: Path) -> None:
    # modelled on a GitLab-hosted tool: the build script pushes to a group the README does not name
    script = (
        "#!/bin/sh\nset -e\ndocker build -t registry.gitlab.com/orbit/images/sieve:2.1 .\n"
        "docker push registry.gitlab.com/orbit/images/sieve:2.1\n"
    )
    readme = "# Sieve\n\n```bash\ndocker pull registry.gitlab.com/orbit/tools/sieve:2.1\n```\n"
    assert _moved(tmp_path, readme, {"build.sh": script}) == [
        "4 (likely): README names image registry.gitlab.com/orbit/tools/sieve:2.1, but no file of the "
        "build names registry.gitlab.com/orbit/tools/sieve with the tag 2.1; build.sh:3 names "
        "registry.gitlab.com/orbit/images/sieve:2.1"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the build names the README's path with that tag (a variable tag may be it)
        (_MOVED_README.replace("portable", "kiln-apps"), {"docker-compose.build.yml": _BUILD_COMPOSE}),
        (
            "# Lumen\n\n`ghcr.io/kiln/portable/lumen:cuda`\n",
            {
                "docker-compose.yml": _BUILD_COMPOSE
                + "  old:\n    image: ghcr.io/kiln/portable/lumen:${TAG}\n"
            },
        ),
        # another tag only under the other path, or two other paths
        ("# Lumen\n\n`ghcr.io/kiln/portable/lumen:rocm`\n", {"docker-compose.build.yml": _BUILD_COMPOSE}),
        (
            "# Lumen\n\n`ghcr.io/kiln/portable/lumen:cuda`\n",
            {
                "docker-compose.build.yml": _BUILD_COMPOSE
                + "  mirror:\n    image: ghcr.io/kiln/mirror/lumen:cuda\n"
            },
        ),
        # another owner, a path the build gives from a variable, the reader's own name
        ("# Lumen\n\n`ghcr.io/ember/apps/lumen:cuda`\n", {"docker-compose.build.yml": _BUILD_COMPOSE}),
        (
            "# Lumen\n\n`ghcr.io/kiln/portable/lumen:cuda`\n",
            {"docker-compose.yml": "services:\n  a:\n    image: ghcr.io/kiln/${GROUP}/lumen:cuda\n"},
        ),
        ("# Lumen\n\n`ghcr.io/<you>/portable/lumen:cuda`\n", {"docker-compose.build.yml": _BUILD_COMPOSE}),
        # a line saying where the image comes from, and an image the README builds itself
        (
            "# Lumen\n\nBased on the upstream image `ghcr.io/kiln/portable/lumen:cuda`.\n",
            {"docker-compose.build.yml": _BUILD_COMPOSE},
        ),
        (
            "# Lumen\n\n```bash\ndocker build -t ghcr.io/kiln/portable/lumen:cuda cuda\n"
            "docker run ghcr.io/kiln/portable/lumen:cuda\n```\n",
            {"docker-compose.build.yml": _BUILD_COMPOSE},
        ),
    ],
)
def test_images_that_did_not_move(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _moved(tmp_path, readme, files) == []


# A Makefile building one Dockerfile of two: the image the README runs may be the other one's
_DESKTOP_MAKEFILE = """\
VERSION ?= 4.5.3
IMAGE ?= cryolab/emsuite-desktop

build:
\tdocker build \\
\t\t--build-arg VERSION=${VERSION} \\
\t\t. -f Dockerfile.desktop \\
\t-t $(IMAGE):${VERSION}
"""
_DESKTOP_README = (
    "# EM suite\n\n```\nmake build\n```\n\n"
    "Run it:\n\n    docker run -p 39000:39000 cryolab/emsuite-docker:2.2.0\n"
)


def _two_dockerfiles(root: Path, names: list[str], text: str = _DESKTOP_MAKEFILE) -> list[str]:
    files = {name: "FROM ubuntu:22.04\n" for name in names}
    make_tree(root, {".git/HEAD": "ref: refs/heads/main\n", "README.md": _DESKTOP_README, **files})
    make_tree(root, {"Makefile": text})
    models = [
        replace(model_of(parse_dockerfile("FROM ubuntu:22.04\n")), file=str(root / name), path=name)
        for name in names
    ]
    return [
        f"{d.line} ({d.confidence}): {d.message}"
        for d in audit(_DESKTOP_README, "README.md", models, {}, root, root)
        if "the image it runs is not the one" in d.message
    ]


def test_a_run_of_an_image_another_dockerfile_may_make_is_silent(tmp_path: Path) -> None:
    # the repository's first image (`Dockerfile`, published as emsuite-docker) beside the desktop one
    assert _two_dockerfiles(tmp_path / "a", ["Dockerfile", "Dockerfile.desktop"]) == []
    # the Makefile builds the only Dockerfile: the image run is made by no build of the project
    assert _two_dockerfiles(tmp_path / "b", ["Dockerfile.desktop"]) == [
        "9 (likely): README runs cryolab/emsuite-docker:2.2.0, but the build makes "
        "cryolab/emsuite-desktop:4.5.3 (Makefile:5) and no file of the build names cryolab/emsuite-docker: "
        "the image it runs is not the one the project builds"
    ]


def test_a_makefile_building_one_variant_or_a_file_from_a_variable_is_silent(tmp_path: Path) -> None:
    # a trainer's GPU variant the Makefile builds, beside the CPU one it does not: either may be run
    gpu = _DESKTOP_MAKEFILE.replace("Dockerfile.desktop", "docker/Dockerfile.gpu")
    assert _two_dockerfiles(tmp_path / "a", ["docker/Dockerfile.gpu", "docker/Dockerfile.cpu"], gpu) == []
    # the Dockerfile a variable names: which one the build reads is not known
    variable = _DESKTOP_MAKEFILE.replace("-f Dockerfile.desktop", "-f $(DOCKERFILE)")
    assert _two_dockerfiles(tmp_path / "b", ["Dockerfile.desktop"], variable) == []


@pytest.mark.parametrize(
    "readme",
    [
        # the heading over the pull says the image comes from Docker Hub
        "# TTS\n\n## Usage\n\n### Download the image from the Docker Hub\n\n"
        "```bash\ndocker pull maxo/coqui_tts\n```\n",
        # the sentence right above its block does
        "# Vision API\n\nGet the published image from Docker Hub:\n\n"
        "```bash\ndocker pull maxo/coqui_tts\n```\n",
    ],
)
def test_latest_pulled_from_where_the_readme_says_docker_hub_publishes_it(
    tmp_path: Path, readme: str
) -> None:
    # as a link to the image's Docker Hub page: Docker Hub may push `latest` with no file of the repository
    files = {"build.sh": "docker build -t maxo/coqui_tts:1.0.1 -f Dockerfile .\n"}
    assert _pulled(tmp_path, readme, files) == []


def test_docker_hub_named_elsewhere_does_not_vouch_for_a_pull(tmp_path: Path) -> None:
    # Docker Hub named far from the pull (a push step at the end), and a versioned tag: still read
    readme = _TTS + "\n## Release\n\nPush to Docker Hub with `docker push`.\n"
    files = {"build.sh": "docker build -t maxo/coqui_tts:1.0.1 -f Dockerfile .\n"}
    assert [f.split(":", 1)[0] for f in _pulled(tmp_path, readme, files)] == ["6 (likely)"]
    versioned = "# TTS\n\n### From Docker Hub\n\n```bash\ndocker pull maxo/coqui_tts:0.9\n```\n"
    assert [f.split(":", 1)[0] for f in _pulled(tmp_path, versioned, files)] == ["6 (likely)"]


def test_a_run_the_readme_says_to_put_your_own_name_in_is_silent(tmp_path: Path) -> None:
    # modelled on a music-generation image (`You can obviously substitute the image name and tag with
    # your own.` under the run of its published `latest`) and on an inference server's quick start whose
    # intro has the reader use their own registry: the image named is an example
    run = "```\ndocker run --gpus all -p 8000:8000 tapir/infer:latest\n```\n"
    below = (
        f"# Inference image\n\n## Start\n\n{run}\nYou can substitute the image name and tag with your own.\n"
    )
    assert _ran_latest(tmp_path / "a", below, {"build.sh": _VLLM_BUILD}) == []
    above = f"# Inference image\n\n## Start\n\nStart it, with your own image name in place of ours:\n{run}"
    assert _ran_latest(tmp_path / "b", above, {"build.sh": _VLLM_BUILD}) == []
    # a sentence about the reader's own data, or one far from the block, is no such word: the run is told
    data = f"# Inference image\n\n## Start\n\nStart it, with your own data mounted:\n{run}"
    assert _ran_latest(tmp_path / "c", data, {"build.sh": _VLLM_BUILD}) == [
        "7 (likely): README runs tapir/infer:latest, but the build tags tapir/infer only as cu12-dev, cu12 "
        "(build.sh:1, build.sh:2, build.sh:4): no build of the project makes latest"
    ]
    far = below.replace("\nYou can", "\n## Notes\n\nLogs go to stdout.\n\nSee the docs.\n\nYou can")
    assert len(_ran_latest(tmp_path / "d", far, {"build.sh": _VLLM_BUILD})) == 1
