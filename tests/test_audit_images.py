"""`docgen audit`: what a sentence, a table or a build command says it is about.

Each class of claim has a planted drift that must be found and a trap that must not be reported: a
build-argument table shared by two images, sentences about images that are not audited, captions of
example builds, `--target` and lists of build targets, "has no build arguments", and link texts naming
another file than their target.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of


def found(readme: str, dockerfiles: Mapping[str, str], directory: Path | None = None) -> list[str]:
    """`audit` of `readme` against the Dockerfiles `dockerfiles` (path → text), as `line: message`."""
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, directory)]


# --------------------------------------------------------------------------------------------------
# A build-argument table introduced as about several images

FULL = """\
ARG PY_VERSION=3.11
FROM python:${PY_VERSION}-slim
ARG JOBS=4
ARG SHARED_FLAG=1
ARG WITH_DOCS=0
RUN make -j${JOBS}
"""
SLIM = """\
ARG PY_VERSION=3.12
FROM python:${PY_VERSION}-alpine
ARG JOBS=4
ARG SHARED_FLAG=1
RUN make -j${JOBS}
"""
SHARED_TABLE = """\
## Build arguments

`Dockerfile` and `Dockerfile.slim` accept these build arguments:

| Argument | Default | Description |
|---|---|---|
| `PY_VERSION` | `3.11` | Python |
| `JOBS` | `4` | parallel jobs |
| `WITH_DOCS` | `0` | build the docs |
| `OLD_FLAG` | `1` | gone |

```bash
docker build -f Dockerfile --build-arg JOBS=8 .
```
"""


@pytest.mark.parametrize(
    "readme",
    [
        SHARED_TABLE,
        SHARED_TABLE.replace(
            "## Build arguments", "## Build arguments of Dockerfile and Dockerfile.slim"
        ).replace("`Dockerfile` and `Dockerfile.slim` accept these build arguments:", "Both take:"),
    ],
)
def test_a_table_shared_by_two_images_states_each_default_and_lists_no_required_rows(readme: str) -> None:
    # The build command ties the section to `Dockerfile`, but the introduction (or the heading) says the
    # table is about both images: PY_VERSION's 3.11 is not Dockerfile.slim's; WITH_DOCS (one image's)
    # is documented, and SHARED_FLAG, declared by both, is not "missing" from a table that does not say
    # it is complete.
    assert found(readme, {"Dockerfile": FULL, "Dockerfile.slim": SLIM}) == [
        "7: README says PY_VERSION defaults to 3.11 but Dockerfile.slim:1 says 3.12",
        "10: README documents build arg OLD_FLAG but none of Dockerfile, Dockerfile.slim declares it",
    ]


def test_a_table_about_one_image_must_still_list_its_args() -> None:
    readme = SHARED_TABLE.replace("`Dockerfile` and `Dockerfile.slim` accept", "`Dockerfile` accepts")
    assert found(readme, {"Dockerfile": FULL, "Dockerfile.slim": SLIM}) == [
        "5: build arg SHARED_FLAG (Dockerfile:4) is missing from the README's build-argument table",
        "10: README documents build arg OLD_FLAG but Dockerfile does not declare it",
    ]


def test_a_table_shared_by_images_that_are_not_audited_is_not_compared() -> None:
    readme = SHARED_TABLE.replace(
        "`Dockerfile` and `Dockerfile.slim`", "`Dockerfile.rocm` and `Dockerfile.xpu`"
    )
    assert found(readme, {"Dockerfile": FULL}) == []


# --------------------------------------------------------------------------------------------------
# Sentences about images that are not audited

CUDA = """\
ARG CUDA_VERSION=12.8.1
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04
ARG TORCH_VERSION=2.8.0
RUN pip install torch==${TORCH_VERSION}
"""
OTHER_IMAGES = """\
# Serving image

The CUDA image takes the `CUDA_ARCHS` build arg.
ROCm images use ROCm-specific build args such as `ROCM_ARCH` and `HIP_JOBS`.
For XPU builds, pass `ONEAPI_VER` as a build argument.
The slim variant takes the `SLIM_LEVEL` build argument.

- The default image ships PyTorch 2.7.0.
- ROCm images ship PyTorch 2.5.0.
- The base image is `nvidia/cuda:12.6.3-devel-ubuntu24.04`.
"""


def test_sentences_about_other_images_are_not_claims_about_the_audited_one(tmp_path: Path) -> None:
    # `cuda` is the audited image's (its base is nvidia/cuda); ROCm and XPU are named by none of its
    # paths, base images or args; `slim` is the variant of a Dockerfile next to the README that is not
    # audited.
    # `Dockerfile.base` next to it does not make "the base image" another image's.
    siblings = {"Dockerfile.slim": "FROM alpine\n", "Dockerfile.base": "FROM ubuntu:24.04\n"}
    make_tree(tmp_path, {"Dockerfile.cuda": CUDA, **siblings})
    assert found(OTHER_IMAGES, {"Dockerfile.cuda": CUDA}, tmp_path) == [
        "3: README documents build arg CUDA_ARCHS but Dockerfile.cuda does not declare it",
        "8: README says PyTorch 2.7.0 but Dockerfile.cuda:3 says 2.8.0",
        "10: README says nvidia/cuda:12.6.3-devel-ubuntu24.04 but Dockerfile.cuda:1 says "
        "nvidia/cuda:12.8.1-devel-ubuntu24.04",
    ]


def test_a_heading_naming_images_of_another_platform_is_their_section() -> None:
    readme = "## ROCm images\n\n- PyTorch 2.5.0\n\n## CUDA image\n\n- PyTorch 2.6.0\n"
    assert found(readme, {"Dockerfile": CUDA}) == ["7: README says PyTorch 2.6.0 but Dockerfile:3 says 2.8.0"]


def test_a_platform_the_audited_image_is_built_for_is_its_own() -> None:
    rocm = "ARG BASE=rocm/dev-ubuntu-22.04:6.4.1-complete\nFROM ${BASE}\nARG GPU_TARGETS=gfx942\n"
    readme = "ROCm images take the `ROCM_ARCH` build arg.\n"
    assert found(readme, {"Dockerfile": rocm}) == [
        "1: README documents build arg ROCM_ARCH but Dockerfile does not declare it"
    ]


def test_a_platform_the_audited_image_installs_builds_of_is_its_own() -> None:
    # no path, base image or arg says XPU; the `+xpu` builds it installs do
    xpu = "FROM ubuntu:22.04\nRUN pip install torch==2.6.0+xpu intel-extension-for-pytorch==2.6.10+xpu\n"
    readme = "# Serving XPU Image\n\nThe image ships PyTorch 2.5.0.\n"
    assert found(readme, {"Dockerfile": xpu}) == [
        "3: README says PyTorch 2.5.0 but Dockerfile:2 says 2.6.0+xpu"
    ]
    # a Dockerfile installing CPU builds is not the XPU image
    cpu = xpu.replace("+xpu", "+cpu")
    assert found(readme, {"Dockerfile": cpu}) == []


# --------------------------------------------------------------------------------------------------
# Captions of example builds

CAPTIONS = """\
The image ships PyTorch 2.8.0 on CUDA 12.8.1.

An example to build an image with PyTorch 2.4 and CUDA 12.1.

```bash
docker build --build-arg TORCH_VERSION=2.4.0 --build-arg CUDA_VERSION=12.1.0 .
```

To build the image with PyTorch 2.6.0 for another CUDA, run:

```bash
docker build --build-arg CUDA_VERSION=12.4.1 .
```

The default build uses CUDA 12.6; to change it:

```bash
docker build --build-arg CUDA_VERSION=12.4.1 .
```
"""


def test_a_caption_names_the_versions_its_command_overrides_not_the_defaults() -> None:
    # Line 3's versions are the ones its command passes; line 9's PyTorch is not passed by its command,
    # and line 15 says what the default is.
    assert found(CAPTIONS, {"Dockerfile": CUDA}) == [
        "9: README says PyTorch 2.6.0 but Dockerfile:3 says 2.8.0",
        "15: README says CUDA 12.6 but Dockerfile:1 says 12.8.1",
    ]


SHORT_ARGS = """\
ARG PYTORCH=1.8.1
ARG CUDA=10.2
ARG CACHE_SIZE=64
FROM pytorch/pytorch:${PYTORCH}-cuda${CUDA}-cudnn7-devel
"""


def test_a_caption_naming_an_arg_by_its_component_is_a_caption_and_by_its_name_a_claim() -> None:
    # `CUDA` is both the arg the command passes and the component the caption names with a version:
    # the caption's versions are the example's. `MY_FLAG` alone names the arg: a claim the image takes it.
    readme = (
        "An example to build with PyTorch 1.11 and CUDA 11.3, with the build args `CACHE_SIZE`, "
        "`MY_FLAG`:\n\n"
        "```bash\ndocker build --build-arg PYTORCH=1.9.0 --build-arg CUDA=11.1 "
        "--build-arg CACHE_SIZE=8 --build-arg MY_FLAG=4 .\n```\n"
    )
    assert found(readme, {"Dockerfile": SHORT_ARGS}) == [
        "1: README documents build arg MY_FLAG but Dockerfile does not declare it",
        "4: README documents build arg MY_FLAG but Dockerfile does not declare it",
    ]


# --------------------------------------------------------------------------------------------------
# Build targets

STAGES = """\
FROM python:3.12 AS builder
RUN pip wheel -w /wheels .
FROM python:3.12-slim AS runtime
COPY --from=builder /wheels /wheels
FROM runtime AS dev
RUN pip install pytest
"""
TARGETS = """\
## Targets

**Build targets**:
- `runtime`: the slim image
- `devel`: with the test tools
- `builder`: wheels only

```bash
docker build --target runtime-gpu -t app .
docker build --target=builder -t app:wheels .
docker build --target "$TARGET" .
docker build -f Dockerfile --target dev .
```

Published tags:
- `latest`: the newest release
- `edge`: main

CI stages:
- `lint`: ruff
- `unit`: pytest

Make targets:
- `builder`: the wheels
- `push`: upload them
- `clean`: remove them

## Docs

```bash
docker build -f other/Dockerfile.docs --target site .
```
"""


def test_a_build_target_the_dockerfile_has_no_stage_for_is_a_dead_reference() -> None:
    assert found(TARGETS, {"Dockerfile": STAGES}) == [
        "5: README lists the build target devel, but Dockerfile has no stage of that name (did you mean "
        "dev?)",
        "9: README builds --target runtime-gpu, but Dockerfile has no stage of that name (did you mean "
        "runtime?)",
    ]


STEPS = """\
### Build stages

The image is built in several steps:

1. **builder**
    Builds the wheels.
2. **runtime**
    Installs them on a slim base.
3. **dev**
4. **docs**
    Adds the site generator.
"""


def test_a_list_of_stages_in_bold_under_a_heading_about_stages() -> None:
    # The introduction says `steps`, the heading `Build stages`: a stage named in bold that the
    # Dockerfile lacks is a finding.
    assert found(STEPS, {"Dockerfile": STAGES}) == [
        "10: README lists the build target docs, but Dockerfile has no stage of that name (its stages: "
        "builder, runtime, dev)"
    ]
    # All of them stages: true; a bold list of steps under a heading saying nothing of stages, and make
    # targets in bold fewer than half of which are stages, are about something else.
    assert found(STEPS.replace("4. **docs**", "4. **dev**"), {"Dockerfile": STAGES}) == []
    assert found(STEPS.replace("### Build stages", "### Getting started"), {"Dockerfile": STAGES}) == []
    make = "### Make targets\n\n- **lint**: ruff\n- **docs**: the site\n- **dev**: a shell\n"
    assert found(make, {"Dockerfile": STAGES}) == []


TITLED = """\
ARG TARGET=full
FROM python:3.12 AS stage-lean
FROM stage-lean AS stage-full
FROM stage-${TARGET} AS picked
FROM python:3.12-slim AS final
"""
TITLES = """\
## The build, step by step

1. **Stage 1: `lean`**: the runtime libraries.
2. **Stage 2: `full`**: the compilers on top.
3. **Stage 3: `selector`**: `TARGET` picks `lean` or `full`.

### Stage 4: `final`

The slim image.
"""


def test_a_numbered_stage_title_naming_no_stage() -> None:
    # `selector` is no stage (drift: it is `picked`); `lean` and `full` are the parts `TARGET` picks
    # of `stage-lean` and `stage-full`, `final` (a heading) is a stage.
    assert found(TITLES, {"Dockerfile": TITLED}) == [
        "5: README names stage selector, but Dockerfile has no stage of that name (its stages: stage-lean, "
        "stage-full, picked, final)"
    ]
    # titles that are mostly no stages of this Dockerfile are about something else
    assert found(TITLES, {"Dockerfile": "FROM python:3.12 AS app\nFROM app AS final\n"}) == []


VARIANTS = """\
FROM python:3.12 AS base
FROM base AS cpu
FROM base AS gpu
FROM base AS tiny
FROM gpu AS full
"""
VARIANT_TABLE = """\
## Choose a variant

Pick the variant to build by setting the build target:

| Variant | What it adds |
|---|---|
| `full` | everything |
| `full-nightly` | `full`, rebuilt every night |
| `gpu` | CUDA kernels |
| `cpu` | no GPU code |
| `gpu-legacy` | the old kernels |
"""


def test_a_column_of_build_targets_naming_a_stage_that_is_gone() -> None:
    # `gpu-legacy` is no stage (drift); `full-nightly` is the published nightly tag of stage `full`
    assert found(VARIANT_TABLE, {"Dockerfile": VARIANTS}) == [
        "11: README lists the build target gpu-legacy, but Dockerfile has no stage of that name (its "
        "stages: base, cpu, gpu, tiny, full)"
    ]


def test_a_column_of_names_that_are_mostly_no_stages_is_no_target_list() -> None:
    tags = VARIANT_TABLE.replace("`cpu`", "`cu128-py312`").replace("`gpu`", "`cu124-py311`")
    assert found(tags, {"Dockerfile": VARIANTS}) == []
    # and a column of stages under words that are not about building them lists something else
    untitled = (
        VARIANT_TABLE.replace("## Choose a variant", "## Downloads")
        .replace("Pick the variant to build by setting the build target:", "Downloads:")
        .replace("| Variant |", "| Name |")
    )
    assert found(untitled, {"Dockerfile": VARIANTS}) == []


# --------------------------------------------------------------------------------------------------
# "has no build arguments"

MINIMAL = "ARG BASE=alpine:3.20\nFROM ${BASE}\nRUN true\n"
PLATFORM_ONLY = "FROM alpine:3.20\nARG TARGETARCH\nRUN echo ${TARGETARCH}\n"
DENIALS = """\
`Dockerfile.min` does not define build arguments.
`Dockerfile.tiny` takes no build args.
`Dockerfile` does not need any build arguments: every one has a default.
`Dockerfile` has no build arguments other than `JOBS` worth changing.

## The slim image

This image takes no build args.
Its entrypoint takes no build arguments.
"""


def test_an_image_said_to_take_no_build_args_that_declares_some() -> None:
    # Dockerfile.min's only ARG is used before FROM, and can be passed; Dockerfile.tiny's TARGETARCH is
    # set by BuildKit; "does not need any" says they all have defaults, not that there are none, and
    # "no build arguments other than" names some.
    # Under a heading naming the slim image, "this image" is Dockerfile.slim; its entrypoint is not.
    dockerfiles = {
        "Dockerfile": FULL,
        "Dockerfile.min": MINIMAL,
        "Dockerfile.tiny": PLATFORM_ONLY,
        "Dockerfile.slim": SLIM,
    }
    assert found(DENIALS, dockerfiles) == [
        "1: README says Dockerfile.min has no build arguments but Dockerfile.min:1 declares BASE",
        "8: README says Dockerfile.slim has no build arguments but Dockerfile.slim:1 declares PY_VERSION "
        "(and 2 more)",
    ]


# --------------------------------------------------------------------------------------------------
# Link texts naming another file than their target


def test_a_link_text_naming_a_file_that_does_not_exist(tmp_path: Path) -> None:
    make_tree(tmp_path, {"cuda_x86_64.Dockerfile": CUDA, "docker/cuda.Dockerfile": CUDA})
    readme = (
        "- [`cuda_x86_x64.Dockerfile`](cuda_x86_64.Dockerfile)\n"
        "- [`cuda.Dockerfile`](docker/cuda.Dockerfile)\n"
        "- [the CUDA image](cuda_x86_64.Dockerfile), [`Dockerfile`](cuda_x86_64.Dockerfile)\n"
    )
    assert found(readme, {"cuda_x86_64.Dockerfile": CUDA}, tmp_path) == [
        "1: README names cuda_x86_x64.Dockerfile in a link to cuda_x86_64.Dockerfile; "
        "cuda_x86_x64.Dockerfile does not exist"
    ]


def test_a_caption_names_the_versions_its_command_passes_in_an_image_reference() -> None:
    dockerfile = "ARG BASE_IMAGE=nvidia/cuda:12.8.1-devel-ubuntu24.04\nFROM ${BASE_IMAGE}\n"
    readme = (
        "The image uses CUDA 12.6.\n\n"
        "To build with CUDA 12.4, run:\n\n"
        "```bash\ndocker build --build-arg BASE_IMAGE=nvidia/cuda:12.4.1-devel-ubuntu24.04 .\n```\n"
    )
    assert found(readme, {"Dockerfile": dockerfile}) == [
        "1: README says CUDA 12.6 but Dockerfile:1 says 12.8.1"
    ]


# --------------------------------------------------------------------------------------------------
# One build command for every image: a `-f` with a placeholder

WITH_TORCH = "ARG TORCH_TAG=latest\nFROM example/torch:${TORCH_TAG}\nRUN make\n"
PLAIN = "FROM example/torch:latest\nARG JOBS=4\nRUN make -j${JOBS}\n"
TWO = {"vision-gpu.dockerfile": WITH_TORCH, "vision.dockerfile": PLAIN}


@pytest.mark.parametrize(
    ("flag", "path"),
    [
        ("-f {DOCKER_FILE_NAME}.dockerfile", "{DOCKER_FILE_NAME}.dockerfile"),
        ("-f <dockerfile>", "<dockerfile>"),
        ("--file=$DOCKERFILE", "$DOCKERFILE"),
        ("-f ./${NAME}.dockerfile", "./${NAME}.dockerfile"),
    ],
)
def test_a_build_arg_passed_to_every_dockerfile_a_placeholder_may_name(flag: str, path: str) -> None:
    readme = f"# Vision\n\n## Build\n\n```\ndocker build --build-arg TORCH_TAG={{tag}} {flag} -t x .\n```\n"
    assert found(readme, TWO) == [
        f"6: README passes --build-arg TORCH_TAG to every Dockerfile -f {path} may name, "
        "but vision.dockerfile does not declare it"
    ]


def test_a_placeholder_build_is_not_of_an_image_built_with_its_own_command() -> None:
    readme = "## Build\n\n```\ndocker build --build-arg TORCH_TAG=2.4 -f {NAME}.dockerfile .\n```\n"
    own = "\n## Plain\n\n```\ndocker build -f vision.dockerfile -t vision .\n```\n"
    assert found(readme + own, TWO) == []
    # an arg every image declares; a section about one image; a placeholder naming one image only
    both = {"vision.dockerfile": PLAIN, "vision-arm.dockerfile": PLAIN}
    assert found("```\ndocker build --build-arg JOBS=8 -f <dockerfile> .\n```\n", both) == []
    gpu = "## vision-gpu\n\n```\ndocker build --build-arg TORCH_TAG=2.4 -f <dockerfile> .\n```\n"
    assert found(gpu, TWO) == []
    assert found("```\ndocker build --build-arg TORCH_TAG=2.4 -f {V}-gpu.dockerfile .\n```\n", TWO) == []


def test_a_target_no_image_has_is_said_once_without_a_double_negative() -> None:
    models = [
        model_of(parse_dockerfile(f"FROM ubuntu:22.04 AS {stage}\n", name))
        for name, stage in (("Dockerfile.a", "base"), ("Dockerfile.b", "runtime"))
    ]
    readme = "# Build\n\n```bash\ndocker build --target prodd .\n```\n"
    messages = [d.message for d in audit(readme, "README.md", models)]
    assert any("none of Dockerfile.a, Dockerfile.b has a stage of that name" in m for m in messages), messages
    assert not any("have no stage" in m for m in messages)


# A `--target` of a build with no `-f` is a stage of its context's `Dockerfile`, after the block's `cd`.
# Modelled on an image folder with a Docker and a Podman file (the README in docker/, its Podman build
# run from the root with -f, its Docker build after `cd ./docker`), and on a service whose deploy/ folder
# holds a Dockerfile of its own next to the root one.
WEBUI = 'FROM ubuntu:22.04 AS base\nRUN apt-get update\n\nFROM base AS run\nCMD ["launch"]\n'
WEBUI_PODMAN = 'FROM ubuntu:22.04 AS base\nRUN apt-get update\nCMD ["launch"]\n'
WEBUI_README = """\
# webui

```bash
podman build . -f docker/Dockerfile.podman -t org/webui
```

```bash
cd ./docker
docker build -t org/webui:base --target base ./
docker build -t org/webui:run --target {target} ./
```
"""


def test_a_target_after_a_cd_is_read_from_the_dockerfile_of_that_folder() -> None:
    files = {"docker/Dockerfile": WEBUI, "docker/Dockerfile.podman": WEBUI_PODMAN}
    assert found(WEBUI_README.format(target="run"), files) == []  # docker/Dockerfile has it
    assert found(WEBUI_README.format(target="serve"), files) == [
        "10: README builds --target serve, but docker/Dockerfile has no stage of that name (its stages: "
        "base, run)"
    ]


SERVICE = "FROM golang:1.22 AS build\nRUN go build ./...\n\nFROM gcr.io/distroless/base AS prod\n"
DEPLOY = "FROM golang:1.22 AS build\nRUN go build ./...\n\nFROM alpine:3.20 AS release\n"


def test_a_target_follows_the_cd_and_the_context_of_its_build() -> None:
    files = {"Dockerfile": SERVICE, "deploy/Dockerfile": DEPLOY}
    here = "# svc\n\n```sh\ndocker build --target prod -t svc .\n```\n"
    assert found(here, files) == []  # the root Dockerfile has prod; deploy/Dockerfile is not built
    moved = "# svc\n\n```sh\ncd deploy && docker build --target prod -t svc .\n```\n"
    assert found(moved, files) == [
        "4: README builds --target prod, but deploy/Dockerfile has no stage of that name (its stages: "
        "build, release)"
    ]
    context = "# svc\n\n```sh\ndocker build --target release -t svc deploy\n```\n"
    assert found(context, files) == []  # the context's Dockerfile has it
    # a cd docgen cannot follow: the stages of both
    assert found("# svc\n\n```sh\ncd $SRC\ndocker build --target release .\n```\n", files) == []


def test_a_target_the_readme_adds_in_its_own_dockerfile_snippet_is_no_missing_stage() -> None:
    model = model_of(parse_dockerfile("FROM ubuntu:22.04 AS base\nRUN true\n", "Dockerfile"))
    snippet = "Add a stage to the Dockerfile:\n\n```dockerfile\nFROM base as prod\nCOPY app /app\n```\n\n"
    build = "Then build it:\n\n```bash\ndocker build --target {target} .\n```\n"
    readme = "# Production image\n\n" + snippet + build
    assert audit(readme.format(target="prod"), "README.md", model) == []  # the trap: the README's own stage
    found = [d.message for d in audit(readme.format(target="release"), "README.md", model)]
    assert found == [
        "README builds --target release, but Dockerfile has no stage of that name (its stages: base)"
    ]


def test_a_readme_snippet_excuses_a_target_only_before_it_in_its_own_section() -> None:
    model = model_of(parse_dockerfile("FROM ubuntu:22.04 AS build\nRUN true\n", "Dockerfile"))
    build = "### Smaller images\n\n```bash\ndocker build --target=slim -t app:slim .\n```\n\n"
    snippet = (
        "### Two stages\n\n```dockerfile\nFROM ubuntu:22.04 AS build\nFROM ubuntu:22.04 AS slim\n```\n\n"
    )
    # the command comes first, in another section: the snippet is a later how-to, the stage is missing
    found = audit("# Tips\n\n" + build + snippet, "README.md", model)
    assert [(d.line, d.confidence) for d in found] == [(6, "likely")]
    assert "--target slim, but Dockerfile has no stage of that name" in found[0].message
    # the trap: the snippet first, then the command under a sub-heading of its section
    later = "#### Build it\n\n```bash\ndocker build --target=slim -t app:slim .\n```\n"
    assert audit("# Tips\n\n" + snippet + later, "README.md", model) == []
    # and a step after the snippet's, under the same parent heading
    assert audit("# Tips\n\n" + snippet + later.replace("####", "###"), "README.md", model) == []
    # a later chapter is another section: its command is not the snippet's example
    assert len(audit("## Tips\n\n" + snippet + later.replace("####", "#"), "README.md", model)) == 1


# --------------------------------------------------------------------------------------------------
# The versions an NGC PyTorch release holds, from NVIDIA's release notes (`baseimage._NGC_PYTORCH`)

NGC_2512 = "FROM nvcr.io/nvidia/pytorch:25.12-py3\nRUN pip install --no-deps .\n"


def test_a_cuda_release_the_ngc_base_does_not_hold_is_a_finding() -> None:
    readme = "# Trainer\n\nThe image is built with CUDA 12.8 and Python 3.10.\n"
    assert found(readme, {"Dockerfile": NGC_2512}) == [
        "3: README says CUDA 12.8 but Dockerfile:1 says 13.1.0",
        "3: README says Python 3.10 but Dockerfile:1 says 3.12",
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "# Trainer\n\nThe image is built with CUDA 13.1 and Python 3.12.\n",
        "# Trainer\n\n| Component | Version |\n|---|---|\n| CUDA | 13.1.0 |\n| PyTorch | 2.10 |\n",
    ],
)
def test_what_the_ngc_release_holds_is_no_finding(readme: str) -> None:
    assert found(readme, {"Dockerfile": NGC_2512}) == []


def test_an_ngc_release_docgen_has_no_notes_of_is_not_checked() -> None:
    readme = "# Trainer\n\nThe image is built with CUDA 12.4.\n"
    assert found(readme, {"Dockerfile": "FROM nvcr.io/nvidia/pytorch:24.08-py3\nRUN make\n"}) == []
