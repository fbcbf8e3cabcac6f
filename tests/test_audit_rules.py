"""`docgen.audit`: the rules that tell what a claim is about, each with a planted drift and a trap.

Scope notes on one item (`(only for `trainer-tpu` image)`), run-time variables, `--build-arg` values,
host drivers, base images stated in words, components said to be absent or present, and the GPU
targets a README says the image is built for. The READMEs and Dockerfiles are small models written
for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

# --------------------------------------------------------------------------------------------------
# F1: a scope note binds one item of a build-arg list or table to an image

TRAINER = """\
ARG CUDA_TAG=12.6.3-devel-ubuntu22.04
FROM nvidia/cuda:${CUDA_TAG}
ARG TORCH_VERSION=2.6.0
ARG NCCL_VERSION=2.21.5
RUN pip install torch==${TORCH_VERSION}
"""
TRAINER_TPU = """\
ARG TPU_BASE=nightly
FROM example/tpu-runtime:${TPU_BASE}
ARG TORCH_VERSION=2.6.0
ARG JAX_VERSION=0.4.35
RUN pip install torch==${TORCH_VERSION} jax==${JAX_VERSION}
"""
SCOPED_LIST = """\
# Images

## Custom builds

Build arguments you can change:

* `TORCH_VERSION` - torch wheel to install
* `NCCL_VERSION` - libnccl version (only for `trainer` image)
* `TPU_BASE` - tag of the TPU runtime to start from (only for `trainer-tpu` image)
* `JAX_VERSION` - jax release (only for `trainer` image)

For example:

```
docker build --build-arg TORCH_VERSION=2.5.1 -f docker/trainer/Dockerfile .
```
"""
FAMILY = {"docker/trainer/Dockerfile": TRAINER, "docker/trainer-tpu/Dockerfile": TRAINER_TPU}


def test_a_scope_note_outranks_the_sections_build_command() -> None:
    # The section's example builds docker/trainer/Dockerfile, but `TPU_BASE` says it is the TPU
    # image's (trap: declared there); `JAX_VERSION` says it is the trainer's, which lacks it (drift),
    # although the TPU image declares it.
    assert findings(SCOPED_LIST, FAMILY) == [
        "10: README documents build arg JAX_VERSION but docker/trainer/Dockerfile does not declare it"
    ]


def test_a_scope_note_naming_a_sibling_that_is_not_audited(tmp_path: Path) -> None:
    # Audited against the TPU image alone: the item bound to `trainer` (next to the README) is the
    # sibling's and not compared; an item without a note still is.
    make_tree(tmp_path, {"docker/trainer/Dockerfile": TRAINER, "docker/trainer-tpu/Dockerfile": TRAINER_TPU})
    readme = "Build arguments:\n\n* `NCCL_VERSION` (only for `trainer` image)\n* `GONE_ARG` - removed\n"
    tpu = {"docker/trainer-tpu/Dockerfile": TRAINER_TPU}
    assert findings(readme, tpu, tmp_path / "docker") == [
        "4: README documents build arg GONE_ARG but docker/trainer-tpu/Dockerfile does not declare it"
    ]


def test_a_scope_note_in_a_build_arg_table_row() -> None:
    cuda = "FROM nvidia/cuda:12.6.3-devel-ubuntu22.04\nARG TORCH_VERSION=2.6.0\nARG CUDA_ARCHS=8.0\n"
    rocm = "FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nARG TORCH_VERSION=2.6.0\nARG GFX_LIST=gfx942\n"
    readme = """\
## Build

| Argument | Default | Description |
|---|---|---|
| `TORCH_VERSION` | `2.6.0` | torch |
| `GFX_LIST` | `gfx942` | GPU targets (ROCm only) |
| `CUDA_ARCHS` | `8.0` | compute capabilities (ROCm only) |

```bash
docker build -f Dockerfile.cuda .
```
"""
    # GFX_LIST is the ROCm image's (trap); CUDA_ARCHS, bound to ROCm by its note, is not declared there.
    assert findings(readme, {"Dockerfile.cuda": cuda, "Dockerfile.rocm": rocm}) == [
        "7: README documents build arg CUDA_ARCHS but Dockerfile.rocm does not declare it"
    ]


# --------------------------------------------------------------------------------------------------
# F2: a name passed at run time is a run-time variable, not a build arg

SERVER = "FROM python:3.12-slim\nARG APP_VERSION=1.4.0\nRUN pip install myserver==${APP_VERSION}\n"


def test_a_run_time_variable_called_a_parameter_is_no_build_arg() -> None:
    readme = """\
## Run

Choose the device parameter `VISIBLE_CARDS` before starting (参数 `VISIBLE_CARDS`).

```
docker run -e VISIBLE_CARDS=0 --env LOG_LEVEL=debug example/server
```

The build arguments are `APP_VERSION` and `APP_FLAVOUR`.
"""
    # VISIBLE_CARDS is passed with -e (trap); APP_FLAVOUR is called a build argument (drift).
    assert findings(readme, {"Dockerfile": SERVER}) == [
        "9: README documents build arg APP_FLAVOUR but Dockerfile does not declare it"
    ]


def test_compose_environment_and_the_words_environment_variable() -> None:
    readme = """\
Arguments: `CACHE_SIZE`, `WORKERS_COUNT`.

```yaml
services:
  server:
    environment:
      - CACHE_SIZE=2G
```

Set the environment variable `WORKERS_COUNT` to scale. The argument `OLD_FLAG` is gone.
"""
    assert findings(readme, {"Dockerfile": SERVER}) == [
        "10: README documents build arg OLD_FLAG but Dockerfile does not declare it"
    ]


def test_a_name_listed_as_an_environment_variable_is_a_run_time_one() -> None:
    readme = """\
## Serving

Set `MODEL_ID` to the model to load. Additional arguments can be passed via `SERVER_ARGS`.
Additional arguments can be passed via `EXTRA_FLAGS`.
The build argument `CACHE_DIR` sets where wheels are kept.

### Environment Variables

| Variable | Default | Description |
|---|---|---|
| `MODEL_ID` | (none) | model to load at start |
| `SERVER_ARGS` | `--port 8000` | extra arguments for the server |
| `CACHE_DIR` | `/cache` | where downloads go |

## Tuning

- `WORKER_ARGS`: arguments of each worker

## Environment variables

- `WORKER_ARGS`: read at start (see Tuning)
"""
    # SERVER_ARGS and WORKER_ARGS are listed as environment variables (traps, though called
    # "arguments"); EXTRA_FLAGS is not (drift), and CACHE_DIR is called a build argument in so many
    # words (drift).
    assert findings(readme, {"Dockerfile": SERVER}) == [
        "4: README documents build arg EXTRA_FLAGS but Dockerfile does not declare it",
        "5: README documents build arg CACHE_DIR but Dockerfile does not declare it",
    ]


def test_a_run_time_name_passed_with_build_arg_is_a_build_arg() -> None:
    readme = (
        "Arguments: `CACHE_SIZE`.\n\n```\ndocker run -e CACHE_SIZE=1 x\n"
        "docker build --build-arg CACHE_SIZE=2 .\n```\n"
    )
    assert findings(readme, {"Dockerfile": SERVER}) == [
        "1: README documents build arg CACHE_SIZE but Dockerfile does not declare it",
        "5: README documents build arg CACHE_SIZE but Dockerfile does not declare it",
    ]


# --------------------------------------------------------------------------------------------------
# F3: a `--build-arg` with no `-f` is any image's; its image value is an override

SLIM = "FROM python:3.11-slim-bookworm\nRUN pip install fastapi\n"
GPU = "ARG CUDA_TAG=12.6.3-runtime-ubuntu22.04\nFROM nvidia/cuda:${CUDA_TAG}\nRUN pip install fastapi\n"
SWITCH = "ARG BASE=python:3.11-slim-bookworm\nFROM ${BASE}\nARG BASE\nRUN pip install fastapi\n"


def test_a_build_arg_value_that_is_an_image_is_an_override() -> None:
    readme = """\
# Server images

## GPU build

`docker build --build-arg BASE=nvidia/cuda:12.1.1-runtime-ubuntu22.04 -t gpu .`

## Pinned build

```
docker build --build-arg NO_SUCH=1 -f gpu/Dockerfile .
```
"""
    dockerfiles = {"slim/Dockerfile": SLIM, "gpu/Dockerfile": GPU, "switch/Dockerfile": SWITCH}
    # BASE is switch's (trap: not GPU's, whose base the value names); NO_SUCH is passed to gpu (drift).
    assert findings(readme, dockerfiles) == [
        "10: README documents build arg NO_SUCH but gpu/Dockerfile does not declare it"
    ]


# --------------------------------------------------------------------------------------------------
# F4: a host driver's version is not the image's component of that name

NPU = "FROM example/cann:8.5.0-910b-ubuntu22.04-py3.11\nRUN pip install numpy\n"


def test_host_drivers_and_firmware_are_not_the_images() -> None:
    readme = """\
## Host setup

Install the CANN 25.5.0 driver and firmware first; the host needs CANN 25.5.0 packages too.

## Image

The image ships CANN 8.3.0.
"""
    assert findings(readme, {"Dockerfile": NPU}) == [
        "7: README says CANN 8.3.0 but Dockerfile:1 says 8.5.0-910b-ubuntu22.04-py3.11"
    ]


# --------------------------------------------------------------------------------------------------
# M1: a base image stated in words

LLAMA = """\
ARG IMAGE=python:3-slim-bookworm
FROM ${IMAGE}
ARG IMAGE
RUN pip install fastapi
"""
PLAIN = "FROM python:3-slim-bullseye\nRUN pip install fastapi\n"


def test_a_base_image_stated_in_words_whose_distribution_differs() -> None:
    readme = """\
## Server

Defaults to the `python:3-slim-bullseye` base image.

You can also start from `python:3-slim-trixie` instead.
"""
    # The second sentence names an image the user may choose (trap).
    assert findings(readme, {"Dockerfile": LLAMA}) == [
        "3: README says the base image is python:3-slim-bullseye but Dockerfile:1 says python:3-slim-bookworm"
    ]


def test_a_default_base_is_compared_with_the_bases_a_build_arg_sets() -> None:
    # In a family, the image built FROM python:3-slim-bullseye as written agrees with the words, but
    # a default is what a build arg sets: the one whose ARG says bookworm.
    readme = "## Builds\n\nDefaults to `python:3-slim-bullseye` as the base.\n"
    assert findings(readme, {"plain/Dockerfile": PLAIN, "llama/Dockerfile": LLAMA}) == [
        "3: README says the base image is python:3-slim-bullseye but llama/Dockerfile:1 says "
        "python:3-slim-bookworm"
    ]
    assert findings("## Builds\n\nBased on `python:3-slim-bullseye`.\n", {"plain/Dockerfile": PLAIN}) == []


def test_a_base_image_version_in_words() -> None:
    cuda = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install torch\n"
    assert findings("Based on nvidia/cuda:12.1-devel.\n", {"Dockerfile": cuda}) == [
        "1: README says the base image is nvidia/cuda:12.1-devel but Dockerfile:1 says "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04"
    ]
    # the same release in short, and another variant (runtime), are no contradiction
    assert findings("Based on nvidia/cuda:12.4-devel.\n", {"Dockerfile": cuda}) == []
    assert findings("Built on nvidia/cuda:12.1.0-runtime-ubuntu22.04.\n", {"Dockerfile": cuda}) == []


# --------------------------------------------------------------------------------------------------
# M2: a component the README says is not installed

TRT = """\
FROM nvidia/cuda:11.8.0-devel-ubuntu22.04 AS build
RUN apt-get update && apt-get install -y libnccl-dev
FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04
ARG TRT=8.6.1
RUN apt-get update && apt-get install -y tensorrt-dev=${TRT}.* libnvinfer8=${TRT}.*
RUN pip install flash-attn==2.6.3
"""


def test_a_component_said_to_be_absent_that_the_image_installs() -> None:
    readme = """\
# Packages
- CUDA 11.8
- TensorRT (Not Installed)
- NCCL: not installed
- Flash-attn is not installed by default
"""
    # NCCL is only in the build stage (trap); flash-attn's "by default" makes it conditional (trap).
    assert findings(readme, {"Dockerfile": TRT}) == [
        "3: README says TensorRT is not installed but Dockerfile:5 installs tensorrt-dev"
    ]
    assert findings("The image does not include flash-attn.\n", {"Dockerfile": TRT}) == [
        "1: README says flash-attn is not installed but Dockerfile:6 installs flash-attn"
    ]


def test_an_item_marked_not_installed_is_certain_and_a_sentence_likely() -> None:
    models = [model_of(parse_dockerfile(TRT, "Dockerfile"))]
    readme = "# Packages\n- CUDA 11.8\n- TensorRT (Not Installed)\n- flash-attn: not included\n"
    readme += "\nThe image does not include flash-attn.\n"
    graded = [(d.line, d.confidence) for d in audit(readme, "README.md", models, {})]
    assert graded == [(3, "certain"), (4, "certain"), (6, "likely")]


SOLVER = """\
FROM gcc:13
RUN apt-get update && apt-get install -y --no-install-recommends \\
        libopenblas-dev \\
        mpich libmpich-dev \\
        libcurl4-openssl-dev
RUN cmake -S src -B build -DSOLVER_USE_MPI=ON -DSOLVER_NO_FORTRAN=OFF \\
    && cmake --build build
"""


def test_a_component_said_to_be_absent_in_other_words() -> None:
    readme = """\
## Latest GCC image

* OpenBLAS
* **no** MPI
* no Fortran

It is built without `libcurl4-openssl-dev`; it installs `libssl-dev` instead of `libcurl4-openssl-dev`.
Unlike the CUDA image it installs no cuDNN, and it ships without Python wheels.
"""
    # MPI is a kind of component (MPICH is one); nothing installs Fortran, cuDNN or wheels (traps).
    assert findings(readme, {"Dockerfile": SOLVER}) == [
        "4: README says MPI is not installed but Dockerfile:4 installs mpich",
        "7: README says libcurl4-openssl-dev is not installed but Dockerfile:5 installs libcurl4-openssl-dev",
    ]
    # about the host, or a default the user can change: no claim about the image
    assert findings("* no MPI on the host\n", {"Dockerfile": SOLVER}) == []
    assert findings("Built without MPI by default.\n", {"Dockerfile": SOLVER}) == []
    # advice on what to use, not what the image installs
    assert findings("Use `libssl-dev` instead of `libcurl4-openssl-dev`.\n", {"Dockerfile": SOLVER}) == []
    japanese = "`libcurl4-openssl-dev` ではなく `libssl-dev` を入れている。\n"
    assert findings(japanese, {"Dockerfile": SOLVER}) == [
        "1: README says libcurl4-openssl-dev is not installed but Dockerfile:5 installs libcurl4-openssl-dev"
    ]


def test_a_build_flag_said_to_be_unset_that_a_run_sets(tmp_path: Path) -> None:
    readme = """\
The build does not set `SOLVER_USE_MPI`.
`SOLVER_NO_FORTRAN` is not set either, and we do not pass `SOLVER_TESTS`.
`SOLVER_USE_MPI` は指定していない。
"""
    # SOLVER_NO_FORTRAN is passed OFF (not on) and SOLVER_TESTS never (traps)
    make_tree(tmp_path, {"Dockerfile": SOLVER, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert [f"{d.line}: {d.message}" for d in audit(readme, "README.md", [model], {}, tmp_path)] == [
        "1: README says the image does not set SOLVER_USE_MPI but Dockerfile:6 sets it; also at line 3",
    ]


STAGED = """\
FROM ubuntu:22.04 AS fetch
RUN apt-get update && apt-get install -y git cmake
FROM fetch AS compile
RUN pip install ninja==1.11.1
FROM ubuntu:22.04 AS runtime
RUN pip install numpy==1.26.4
FROM runtime AS extras
RUN apt-get update && apt-get install -y libopencv-dev
"""


def test_a_component_said_to_be_absent_from_a_build_stage() -> None:
    readme = """\
# Image

The image does not include OpenCV.

## Build stages

1. **fetch**
    Clone the sources and install the build tools.
2. **compile**
    Build the library. It does not include OpenCV.
    It does not include CMake.
3. **runtime**
    A clean image. It does not include ninja.
4. **extras**
    Adds OpenCV on top of runtime.
    - It does not include numpy.

Everything else: the image does not include ninja.

### `runtime` stage

It does not include ninja, and it does not include cmake.

### `compile` stage

It does not include git.
"""
    # A sentence in a stage's item (a numbered item or a heading naming a `FROM … AS` stage) is about
    # that stage and the ones it builds on: OpenCV comes only in `extras`, ninja only in `compile`
    # (traps). `compile` builds on `fetch`, which installs CMake and git, `extras` on `runtime`, which
    # installs numpy (a nested item), and line 3 is about the image: drifts.
    assert findings(readme, {"Dockerfile": STAGED}) == [
        "3: README says OpenCV is not installed but Dockerfile:8 installs libopencv-dev",
        "11: README says CMake is not installed but Dockerfile:2 installs cmake",
        "16: README says numpy is not installed but Dockerfile:6 installs numpy",
        "26: README says git is not installed but Dockerfile:2 installs git",
    ]


# --------------------------------------------------------------------------------------------------
# M3: the GPU targets a README says the image is built for

ARCHES = "FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nARG GPU_TARGETS=gfx90a;gfx942;gfx1100\nRUN make\n"


def test_a_table_of_the_targets_the_image_is_built_for() -> None:
    readme = """\
## GPUs

The image is compiled for these architectures:

| Target | GPUs |
|---|---|
| `gfx942` | MI300X |
| `gfx950` | MI355X |
| `gfx1100` | RX 7900 XTX |
"""
    assert findings(readme, {"Dockerfile": ARCHES}) == [
        "5: README lists GPU targets gfx950 that GPU_TARGETS's default (Dockerfile:2) does not build, "
        "and leaves out gfx90a that it builds"
    ]


def test_a_list_of_targets_that_is_not_the_builds() -> None:
    # Tested on (trap), and a list equal to the default in another order.
    tested = "Tested on:\n\n- `gfx942` (MI300X)\n- `gfx1201` (RX 9070)\n"
    built = "Built for:\n\n- gfx1100\n- gfx942\n- gfx90a\n"
    assert findings(tested, {"Dockerfile": ARCHES}) == []
    assert findings(built, {"Dockerfile": ARCHES}) == []
    stale = "Built for:\n\n- gfx1100\n- gfx942\n"
    assert findings(stale, {"Dockerfile": ARCHES}) == [
        "3: README leaves out GPU targets gfx90a that GPU_TARGETS's default (Dockerfile:2) builds"
    ]


def test_a_list_of_targets_after_a_label() -> None:
    # `Family: target, target` items: every target counts, and the finding is on the item naming one
    # the default lacks.
    labelled = (
        "Compiled for these GPUs:\n\n- CDNA 2: gfx90a (MI210)\n- CDNA 3: gfx942, gfx950\n- RDNA 3: gfx1100\n"
    )
    assert findings(labelled, {"Dockerfile": ARCHES}) == [
        "4: README lists GPU targets gfx950 that GPU_TARGETS's default (Dockerfile:2) does not build"
    ]
    # The same list naming the default's targets, and one whose first word holds two of them, are true;
    # a labelled list of the GPUs it was tested on is about hardware.
    assert findings(labelled.replace(", gfx950", ""), {"Dockerfile": ARCHES}) == []
    assert (
        findings("Built for:\n\n- gfx942, gfx1100 (MI300X, RX 7900)\n- gfx90a\n", {"Dockerfile": ARCHES})
        == []
    )
    tested = "Tested on:\n\n- CDNA 3: gfx942\n- RDNA 4: gfx1201\n"
    assert findings(tested, {"Dockerfile": ARCHES}) == []


def test_targets_to_choose_from_and_bases_to_choose_from_are_no_claims() -> None:
    choose = "## Build\n\nTo get an image built for your GPU, pick its target:\n\n- `gfx942`\n- `gfx1201`\n"
    assert findings(choose, {"Dockerfile": ARCHES}) == []
    bases = "Based on `python:3-slim-bullseye` or `python:3-slim-trixie`.\n"
    assert findings(bases, {"Dockerfile": LLAMA}) == []


# --------------------------------------------------------------------------------------------------
# M2: a component the README says the image includes that nothing installs

PLAIN_TORCH = (
    "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3-pip\nRUN pip install torch==2.6.0\n"
)


def test_a_component_said_to_be_included_that_nothing_installs() -> None:
    readme = "The image includes PyTorch and the container also ships with TensorRT.\n"
    assert findings(readme, {"Dockerfile": PLAIN_TORCH}) == [
        "1: README says the image includes TensorRT but Dockerfile installs no TensorRT"
    ]


def test_what_a_base_image_or_a_script_may_provide_is_no_finding() -> None:
    # The CUDA base provides CUDA (and may provide TensorRT); an install script or a requirements file
    # may install anything; `make sure CUDA is installed` is about the host.
    cuda = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install torch==2.6.0\n"
    script = PLAIN_TORCH + "RUN curl -fsSL https://example.com/install.sh | bash\n"
    requirements = PLAIN_TORCH + "COPY requirements.txt .\nRUN pip install -r requirements.txt\n"
    readme = "The image includes CUDA and TensorRT. Make sure NCCL is installed.\n"
    for dockerfile in (cuda, script, requirements):
        assert findings(readme, {"Dockerfile": dockerfile}) == []


# --------------------------------------------------------------------------------------------------
# C1: the distribution a README states is compared with the base image's, an older release too

OLD_SERVING = """\
FROM ubuntu:20.04
ARG PY_VERSION=3.8
RUN bash /opt/scripts/install_ubuntu.sh -p ${PY_VERSION} && bash install_onnx.sh 1.14.1
"""


def test_an_ubuntu_release_older_than_the_base_is_stale_as_a_newer_one_is() -> None:
    readme = "## CPU\n\n**Ubuntu 14.04, Python bindings**\n\nThe image is Ubuntu 18.04.\n"
    assert findings(readme, {"Dockerfile": OLD_SERVING}) == [
        "3: README says Ubuntu 14.04 but Dockerfile:1 says 20.04",
        "5: README says Ubuntu 18.04 but Dockerfile:1 says 20.04",
    ]
    # the host's release is not the image's
    assert findings("The host needs Ubuntu 16.04 or newer.\n", {"Dockerfile": OLD_SERVING}) == []
    assert findings("**Ubuntu 20.04, Python bindings**\n", {"Dockerfile": OLD_SERVING}) == []


def test_a_semantic_version_is_still_not_compared_with_a_calendar_release() -> None:
    ngc = "FROM nvcr.io/nvidia/pytorch:24.03-py3\n"
    # 2.3.0 is semantic: not comparable with NGC's 24.03; 16.04 is a release of the calendar
    readme = "Ships PyTorch 2.3.0.\n\nBuilt on NGC PyTorch 16.04.\n"
    assert findings(readme, {"Dockerfile": ngc}) == [
        "3: README says PyTorch 16.04 but Dockerfile:1 says 24.03-py3"
    ]


# --------------------------------------------------------------------------------------------------
# A script named after the distribution gives no distribution version: the base image does


def test_a_script_named_after_the_distribution_is_no_version_of_it() -> None:
    readme = "**Ubuntu 16.04, ONNX 1.14.1**\n"
    assert findings(readme, {"Dockerfile": OLD_SERVING}) == [
        "1: README says Ubuntu 16.04 but Dockerfile:1 says 20.04"
    ]


# --------------------------------------------------------------------------------------------------
# C2: a component's name glued to its version (`rocm5.7`, `py3.10`) is a claim of that version

MIGRAPH = """\
FROM ubuntu:20.04
RUN echo 'deb http://repo.radeon.com/rocm/apt/6.1/ focal main' > /etc/apt/sources.list.d/rocm.list
RUN apt-get update && apt-get install -y python3.8 && pip install torch==2.3.1
"""


def test_a_name_glued_to_its_version_is_a_version_claim() -> None:
    readme = "## MIGraphX\n\n**Ubuntu 20.04, rocm5.7, torch2.3**\n\nBuilt with torch2.1 inside.\n"
    assert findings(readme, {"Dockerfile": MIGRAPH}) == [
        "3: README says ROCm 5.7 but Dockerfile:2 says 6.1",
        "5: README says PyTorch 2.1 but Dockerfile:3 says 2.3.1",
    ]


def test_glued_names_in_tags_file_names_commands_and_variants_are_no_claims() -> None:
    readme = (
        "Pull `rocm/pytorch:rocm5.7_ubuntu22.04_py3.10_pytorch_2.0.1`.\n\n"
        "Or rocm/pytorch:rocm5.7_ubuntu22.04.\n\n"
        "See Dockerfile.rocm5.7 and /opt/rocm5.7/bin, run `python3.10 -m pip list`.\n\n"
        "Wheels come from the rocm5.7 index (cu118 and py310 builds too); upgraded from rocm5.6.\n\n"
        "Pass `ROCM_DIST` rocm5.7 to build another image, e.g. rocm5.7.\n"
    )
    assert findings(readme, {"Dockerfile": MIGRAPH}) == []


# G2: pins in a fenced block showing the image's own build lines

ENGINE = """\
FROM example/cuda-python:12.8-py3.12
RUN pip install --upgrade pip uv
RUN uv pip install --system "serve-engine[audio]==0.9.2" --no-cache-dir
"""


def test_pins_in_a_dockerfile_block_built_on_the_images_base() -> None:
    readme = (
        "## Dockerfile at a glance\n\n```dockerfile\nFROM example/cuda-python:12.8-py3.12\n"
        'RUN uv pip install --system \\\n    "serve-engine[audio]==0.9.5" --no-cache-dir\n```\n'
    )
    assert findings(readme, {"Dockerfile": ENGINE}) == [
        "6: README says serve-engine 0.9.5 but Dockerfile:3 says 0.9.2"
    ]
    # the nearest true block: the same lines with the image's pin
    assert findings(readme.replace("0.9.5", "0.9.2"), {"Dockerfile": ENGINE}) == []
    # pip called by its release (`pip3.12`) installs as `pip` does
    versioned = readme.replace("uv pip install --system", "pip3.12 install")
    assert findings(versioned, {"Dockerfile": ENGINE}) == [
        "6: README says serve-engine 0.9.5 but Dockerfile:3 says 0.9.2"
    ]


def test_pins_in_shell_build_lines_presented_as_the_images() -> None:
    readme = "The image installs:\n\n```bash\npip install serve-engine==0.9.4\n```\n"
    assert findings(readme, {"Dockerfile": ENGINE}) == [
        "4: README says serve-engine 0.9.4 but Dockerfile:3 says 0.9.2"
    ]
    # a script that only happens to install something is no build line of the image
    script = "The image installs:\n\n```bash\ncd /tmp\npip install serve-engine==0.9.4\n```\n"
    assert findings(script, {"Dockerfile": ENGINE}) == []


def test_blocks_showing_a_change_or_another_image_are_no_claim() -> None:
    other = "```dockerfile\nFROM example/server:latest\nRUN pip install serve-engine==0.9.5\n```\n"
    override = (
        "To use a different version, edit the Dockerfile:\n\n```dockerfile\n"
        "RUN uv pip install --system serve-engine==0.9.5\n```\n"
    )
    extend = (
        "Extend the image in your own Dockerfile:\n\n```dockerfile\nRUN pip install serve-engine==1.0\n```\n"
    )
    host = "Install the client:\n\n```bash\npip install serve-engine==0.9.5\n```\n"
    upgrade = (
        "To upgrade the engine, add to the Dockerfile:\n\n```dockerfile\nRUN pip install serve-engine==1.0\n"
    )
    for readme in (other, override, extend, host, upgrade + "```\n"):
        assert findings(readme, {"Dockerfile": ENGINE}) == [], readme


def test_a_linked_name_right_before_its_version() -> None:
    dockerfile = "FROM python:3.12\nARG VIEWER_VERSION=v0.3.6\nRUN pip install viewer==${VIEWER_VERSION}\n"
    readme = "Includes:\n\n* [Viewer](https://example.org/viewer) v0.12.3\n* [Viewer docs](https://example.org/d)\n"
    assert findings(readme, {"Dockerfile": dockerfile}) == [
        "3: README says Viewer v0.12.3 but Dockerfile:2 says v0.3.6"
    ]
    assert findings(readme.replace("v0.12.3", "v0.3.6"), {"Dockerfile": dockerfile}) == []


# --------------------------------------------------------------------------------------------------
# M3: an item of a list of what the image installs that nothing can bring


def _listed(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    """`audit` of `readme` against the Dockerfile of `files` (written to `tmp_path`, with the build
    context next to it), read from disk as `docgen audit` reads it."""
    from docgen.analysis import build_model
    from docgen.audit import audit

    make_tree(tmp_path, files)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", [model], {}, tmp_path)]


REDIS = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y --no-install-recommends libhiredis-dev cmake git
RUN git clone https://github.com/sewenew/redis-plus-plus && cmake -S redis-plus-plus -B build
COPY setup.sh /setup.sh
RUN bash /setup.sh
"""
REDIS_LIST = """\
# Server image

## Installs

- hiredis
- [redis++](https://github.com/sewenew/redis-plus-plus)
- Civetweb
- nlohmann-json
- LLaMA-3 model
- GPU support
- Jupyter Lab access
- Ubuntu 22.04
"""


def test_a_listed_component_that_nothing_installs(tmp_path: Path) -> None:
    # hiredis is `libhiredis-dev`, redis++ the repository its link names, the script installs
    # nlohmann-json; Civetweb and the model are nowhere (drifts). Features and a versioned item are
    # not read this way.
    files = {"Dockerfile": REDIS, "setup.sh": "apt-get install -y nlohmann-json3-dev\n"}
    assert _listed(tmp_path, REDIS_LIST, files) == [
        "7: README lists Civetweb as in the image but Dockerfile installs no Civetweb",
        "9: README lists LLaMA-3 as in the image but Dockerfile installs no LLaMA-3",
    ]


ROBOT = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip libopencv-dev
RUN pip3 install --no-cache-dir numpy opencv-python pyrealsense2
COPY ./entrypoint.sh /entrypoint.sh
RUN chmod +x /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"""
ROBOT_README = """\
# Robot workspace

### {heading}

- PyTorch
- OpenCV
- PyRealSense2

### Hardware Requirements

- NVIDIA GPU
- Intel RealSense Camera
"""


@pytest.mark.parametrize("heading", ["Main Libraries", "Software", "Stack", "What's inside", "Key packages"])
def test_a_library_list_whose_items_the_image_mostly_has_is_the_image_s(tmp_path: Path, heading: str) -> None:
    # OpenCV and pyrealsense2 are installed: the list is the image's, and nothing brings PyTorch. The
    # entrypoint script docgen has no copy of runs when a container starts: it installs nothing.
    readme = ROBOT_README.format(heading=heading)
    assert _listed(tmp_path, readme, {"Dockerfile": ROBOT}) == [
        "5: README lists PyTorch as in the image but Dockerfile installs no PyTorch, and its base "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 (Dockerfile:1, a CUDA image) does not carry it"
    ]


def test_a_library_list_of_the_project_s_needs_or_the_host_s_is_not_the_image_s(tmp_path: Path) -> None:
    # the same items under words of need, or a list the Dockerfile mostly does not name (the project's
    # own dependencies), or a list of features
    for number, heading in enumerate(["Required libraries", "Host software", "Libraries you need"]):
        readme = ROBOT_README.format(heading=heading)
        assert _listed(tmp_path / str(number), readme, {"Dockerfile": ROBOT}) == []
    own = (
        ROBOT_README.format(heading="Libraries").replace("- OpenCV", "- Lightning").replace("Sense2", "Sense")
    )
    assert _listed(tmp_path / "own", own, {"Dockerfile": ROBOT.replace("pyrealsense2", "")}) == []
    # a script the image runs while it is built may install anything
    run = ROBOT.replace("RUN chmod +x /entrypoint.sh", "RUN /entrypoint.sh --setup")
    assert _listed(tmp_path / "run", ROBOT_README.format(heading="Software"), {"Dockerfile": run}) == []


def test_what_a_base_an_unread_script_or_the_readme_may_explain_is_no_listed_drift(tmp_path: Path) -> None:
    files = {"Dockerfile": REDIS, "setup.sh": "apt-get install -y nlohmann-json3-dev\n"}
    # a base image that is no plain OS may hold Civetweb; a list of what the Dockerfile adds to it does
    # not count the base
    on_triton = {
        **files,
        "Dockerfile": REDIS.replace("ubuntu:22.04", "nvcr.io/nvidia/tritonserver:24.01-py3"),
    }
    assert _listed(tmp_path / "a", REDIS_LIST, on_triton) == []
    added = REDIS_LIST.replace("## Installs", "## Additional")
    assert [f.split(":")[0] for f in _listed(tmp_path / "b", added, on_triton)] == ["7", "9"]
    # an `nvidia/cuda` base of a `-cudnn` tag holds cuDNN, not Civetweb
    on_cuda = {
        **files,
        "Dockerfile": REDIS.replace("ubuntu:22.04", "nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04"),
    }
    cudnn = REDIS_LIST.replace("- hiredis", "- cuDNN")
    assert [f.split(":")[0] for f in _listed(tmp_path / "h", cudnn, on_cuda)] == ["7", "9"]
    # a script that is not in the build context, or a download run by a shell, may install anything
    assert _listed(tmp_path / "c", REDIS_LIST, {"Dockerfile": REDIS}) == []
    piped = {**files, "Dockerfile": REDIS + "RUN curl -fsSL https://example.com/get.sh | sh\n"}
    assert _listed(tmp_path / "d", REDIS_LIST, piped) == []
    # `pip install -e .` of a clone may bring any package, never a model
    editable = {
        **files,
        "Dockerfile": REDIS + "RUN git clone https://github.com/x/app && pip install -e app\n",
    }
    assert _listed(tmp_path / "e", REDIS_LIST, editable) == [
        "9: README lists LLaMA-3 as in the image but Dockerfile installs no LLaMA-3"
    ]
    # the README says the model is fetched later, or the list is of features
    later = REDIS_LIST.replace("- LLaMA-3 model", "- LLaMA-3 model (downloaded at first start)")
    assert [f.split(":")[0] for f in _listed(tmp_path / "f", later, files)] == ["7"]
    features = REDIS_LIST.replace("## Installs", "## Features")
    assert _listed(tmp_path / "g", features, files) == []


# --------------------------------------------------------------------------------------------------
# M4: what a README lists under one image of several, when another of them installs it itself


def _family(tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: list[str]) -> list[str]:
    """`audit` of `readme` against the Dockerfiles `dockerfiles` of `files` (written to `tmp_path`)."""
    from docgen.analysis import build_model
    from docgen.audit import audit

    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / name, name) for name in dockerfiles]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]


VIEWER = """\
FROM nvcr.io/nvidia/cuda-gl:12.4.1-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg python3-pip
RUN pip install --no-cache-dir pyglet==2.0.15
"""
VIEWER_DEV = """\
FROM nvcr.io/nvidia/cuda-gl:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends \\
    ffmpeg \\
    vulkan-tools \\
    libglfw3-dev
"""
VIEWERS = """\
# Viewer images

* [Dockerfile.viewer](Dockerfile.viewer)
  * Runtime image on the CUDA GL base
  * ffmpeg for recording
  * vulkan-tools for vkcube
  * glfw
  * nsight-systems
  * `libglfw3-dev` (from the base image)
* [Dockerfile.viewer-dev](Dockerfile.viewer-dev)
  * `ffmpeg`
  * vulkan-tools for testing Vulkan inside the container
  * glfw
"""


def test_an_item_listed_under_one_image_that_another_image_installs(tmp_path: Path) -> None:
    # vulkan-tools and GLFW are listed under the runtime image, which does not install them while
    # its sibling does, with apt (drifts); ffmpeg is in both; nsight-systems neither installs (the
    # vendor base may hold it), and an item the README says the base brings is not compared; the
    # sibling's own items are all installed
    files = {"Dockerfile.viewer": VIEWER, "Dockerfile.viewer-dev": VIEWER_DEV}
    assert _family(tmp_path, VIEWERS, files, ["Dockerfile.viewer", "Dockerfile.viewer-dev"]) == [
        "6: README lists vulkan-tools under Dockerfile.viewer but it installs no vulkan-tools"
        " (Dockerfile.viewer-dev:4 installs vulkan-tools)",
        "7: README lists glfw under Dockerfile.viewer but it installs no glfw"
        " (Dockerfile.viewer-dev:5 installs libglfw3-dev)",
    ]


def test_items_under_an_image_no_sibling_installs(tmp_path: Path) -> None:
    # the runtime image now installs what it lists, and nothing else is installed elsewhere
    fixed = VIEWER.replace("ffmpeg python3-pip", "ffmpeg python3-pip vulkan-tools libglfw3")
    files = {"Dockerfile.viewer": fixed, "Dockerfile.viewer-dev": VIEWER_DEV}
    assert _family(tmp_path / "a", VIEWERS, files, ["Dockerfile.viewer", "Dockerfile.viewer-dev"]) == []
    # on plain Ubuntu, a name in code that nothing installs is missing; a word of prose is not read
    plain = VIEWER.replace("nvcr.io/nvidia/cuda-gl:12.4.1-runtime-ubuntu22.04", "ubuntu:22.04")
    readme = VIEWERS.replace("  * nsight-systems", "  * `nsight-systems`\n  * Useful for demos")
    files = {"Dockerfile.viewer": plain, "Dockerfile.viewer-dev": VIEWER_DEV}
    found = _family(tmp_path / "b", readme, files, ["Dockerfile.viewer", "Dockerfile.viewer-dev"])
    assert [f.split(" (")[0] for f in found] == [
        "6: README lists vulkan-tools under Dockerfile.viewer but it installs no vulkan-tools",
        "7: README lists glfw under Dockerfile.viewer but it installs no glfw",
        "8: README lists nsight-systems under Dockerfile.viewer but it installs no nsight-systems",
    ]


def test_a_section_per_image_lists_what_a_sibling_installs(tmp_path: Path) -> None:
    # a section titled by one image lists what only the other installs (drift); the other's own list
    # is right
    readme = """\
# Viewer images

## Dockerfile.player

The image includes:

- ffmpeg
- vulkan-tools

## Dockerfile.viewer-dev

The image includes:

- vulkan-tools
"""
    files = {"Dockerfile.player": VIEWER, "Dockerfile.viewer-dev": VIEWER_DEV}
    assert _family(tmp_path, readme, files, ["Dockerfile.player", "Dockerfile.viewer-dev"]) == [
        "8: README lists vulkan-tools under Dockerfile.player but it installs no vulkan-tools"
        " (Dockerfile.viewer-dev:4 installs vulkan-tools)"
    ]


# Issue 16: a build arg documented under a name a slip away from the one the Dockerfile reads

ANALYTICS = """\
FROM python:3.12-slim
ARG PANDAS_VER=2.2.1
ARG NUMPY_VERSION=1.26.4
ARG WORKERS=4
ARG BLAS_VER
ARG PORT=9000
ARG THREADS=8
ENV LOG_LEVEL=info OMP_NUM_THREADS=${THREADS}
RUN apt-get install -y libopenblas0=${BLAS_VER} && pip install pandas==${PANDAS_VER} numpy==${NUMPY_VERSION}
CMD serve --workers ${WORKERS} --port ${PORT}
"""
ANALYTICS_README = """\
# Analytics image

## Build

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| PANDAS_VERSION | `2.2.1` | pandas release |
| NUMPY_VERSION | `1.26.4` | numpy release |
| WORKERS | `4` | server workers |
| Blas Version | `0.3.26` | OpenBLAS package |
| PORT | `9000` | server port |
| THREADS | `8` | BLAS threads |
| LOG_LEVEL | `info` | log verbosity |
| CACHE_DIR | `/cache` | where results are kept |

## Run

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| HF_HOME | `/data` | model cache |
| HF_TOKEN | | your token |
| NUMPY_VER | `1.26` | numpy version to check at start |
"""


def test_a_build_arg_documented_under_a_near_name_of_a_declared_one() -> None:
    # A table of variables most of whose names are declared build args: PANDAS_VERSION (ARG PANDAS_VER)
    # and `Blas Version` (ARG BLAS_VER) are drift. Traps: NUMPY_VERSION, WORKERS, PORT, THREADS are declared
    # (true), LOG_LEVEL is an ENV, CACHE_DIR a run-time name near no ARG; the run-time table names no
    # build arg mostly, so its NUMPY_VER (a slip from NUMPY_VERSION) is a variable of the container.
    assert findings(ANALYTICS_README, {"Dockerfile": ANALYTICS}) == [
        "7: README documents build arg PANDAS_VERSION but Dockerfile:2 declares PANDAS_VER",
        "10: README documents build arg Blas Version but Dockerfile:5 declares BLAS_VER",
    ]


def test_a_near_name_is_certain_only_when_it_is_the_only_one() -> None:
    from docgen.audit import audit
    from docgen.dockerfile import parse_dockerfile
    from docgen.pipeline import model_of

    readme = "## Build args\n\n| Build arg | Default |\n| --- | --- |\n| `BLAS_VERSION` | `0.3` |\n"
    one = model_of(parse_dockerfile(ANALYTICS, "Dockerfile"))
    other = model_of(parse_dockerfile("FROM scratch\nARG blas_ver=0.3\n", "blas.Dockerfile"))
    [alone] = [d for d in audit(readme, "README.md", [one]) if "BLAS_VERSION" in d.message]
    assert (alone.message, alone.confidence) == (
        "README documents build arg BLAS_VERSION but Dockerfile:5 declares BLAS_VER",
        "certain",
    )
    [two] = audit(readme, "README.md", [one, other])
    assert (two.message, two.confidence) == (
        "README documents build arg BLAS_VERSION but Dockerfile:5 declares BLAS_VER and "
        "blas.Dockerfile:2 declares blas_ver",
        "likely",
    )


SKLEARN = """\
FROM python:3.11-slim
ARG SKLEARN_VERSION
ARG XGB_VERSION
ARG OPT_LEVEL
RUN pip install scikit-learn${SKLEARN_VER:+==${SKLEARN_VER}} xgboost==${XGB_VERSION}
"""
SKLEARN_README = """\
# Classical ML

| Environment Variable Name | Default Value | Description |
| --- | --- | --- |
| SKLEARN_VERSION | `1.4.2` | scikit-learn release |
| XGB_VERSION | `2.0.3` | XGBoost release |
| OPT_LEVEL | `2` | optimisation level |
"""


def test_a_documented_value_of_an_arg_nothing_reads_while_a_run_reads_a_near_name() -> None:
    # SKLEARN_VERSION is declared but the RUN reads SKLEARN_VER, which no ARG declares: the pin has no
    # effect (drift). Traps: XGB_VERSION is read; OPT_LEVEL is read by nothing, but no RUN reads a
    # name near it (it may be read from the environment): no claim of the README is wrong there.
    assert findings(SKLEARN_README, {"Dockerfile": SKLEARN}) == [
        "5: README gives SKLEARN_VERSION 1.4.2 but Dockerfile:2 declares SKLEARN_VERSION and nothing "
        "reads it; the RUN at Dockerfile:5 reads SKLEARN_VER, which no ARG declares: the value has no effect"
    ]
    fixed = SKLEARN.replace("SKLEARN_VER:+==${SKLEARN_VER}", "SKLEARN_VERSION:+==${SKLEARN_VERSION}")
    assert findings(SKLEARN_README, {"Dockerfile": fixed}) == []


@pytest.mark.parametrize(
    ("name", "near"),
    [
        ("INC_VERSION", ["INC_VER"]),  # the other version word
        ("TF_VER", ["TF_VERSION"]),
        ("MKL Version", ["MKL_VER"]),  # words for the name
        ("onnx-version", ["ONNX_VERSION"]),  # case and dashes
        ("TF_PACKAGE_VER", ["TF_PACKAGE_VERSION"]),
        ("TF", []),  # a stem alone is another name
        ("TF_VERSION_MAJOR", []),
        ("PACKAGE_VERSION", []),  # another stem (TF_PACKAGE)
        ("INC_VER", []),  # declared: nothing to say
        ("Neural Compressor Version", []),
    ],
)
def test_names_a_slip_away_from_a_declared_build_arg(name: str, near: list[str]) -> None:
    from docgen.audit.versions import near_args

    declared = {"INC_VER", "TF_VERSION", "MKL_VER", "ONNX_VERSION", "TF_PACKAGE_VERSION", "TF"}
    assert near_args(name, declared) == near


# --------------------------------------------------------------------------------------------------
# The image said to hold no toolchain: no development tools, no compilers, runtime-only

TOOLED = """\
FROM debian:12 AS common
RUN apt-get update && apt-get install -y git cmake g++-12 curl
FROM common AS final
RUN apt-get update && apt-get install -y libgomp1
"""
SLIM = """\
FROM debian:12 AS builder
RUN apt-get update && apt-get install -y build-essential cmake git
RUN make -C /src
FROM debian:12-slim
RUN apt-get update && apt-get install -y libgomp1 git
"""


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        ("### Release image\n- No development tools\n- Small\n", "2: README says 'No development tools'"),
        ("The image is built without compilers.\n", "1: README says 'without compilers'"),
        ("It is a runtime-only image.\n", "1: README says 'runtime-only'"),
        ("The image does not include build tools.\n", "1: README says 'does not include build tools'"),
    ],
)
def test_an_image_said_to_hold_no_toolchain_that_installs_one(readme: str, expected: str) -> None:
    assert findings(readme, {"Dockerfile": TOOLED}) == [f"{expected} but Dockerfile:2 installs g++-12"]


@pytest.mark.parametrize(
    "readme",
    [
        "The image is built without compilers.\n",  # only the builder stage has them
        "A runtime-only image: no build tools in it.\n",
        "- No development tools\n",  # git alone (to fetch packages) is no toolchain
    ],
)
def test_a_toolchain_only_in_a_builder_stage_is_no_finding(readme: str) -> None:
    assert findings(readme, {"Dockerfile": SLIM}) == []


def test_a_toolchain_claim_about_the_reader_is_no_finding() -> None:
    for readme in (
        "No compilers needed on your machine.\n",
        "Built without compilers by default.\n",
        "This is a build image, not a slim runtime-only image.\n",  # about another image
        "## TO DO\n- Add a lightweight runtime-only image\n",  # a plan
        "- ROCm 6.3 runtime only\n",  # what of ROCm, not the image
        "- **CUDA**: Minimal components (nvcc, headers, runtime only)\n",
    ):
        assert findings(readme, {"Dockerfile": TOOLED}) == []
    # build tools in the final stage, but no compiler: "without compilers" holds, "no build tools" not
    only_git = "FROM debian:12\nRUN apt-get update && apt-get install -y git cmake\n"
    assert findings("The image is built without compilers.\n", {"Dockerfile": only_git}) == []
    assert findings("The image has no build tools.\n", {"Dockerfile": only_git}) == [
        "1: README says 'no build tools' but Dockerfile:2 installs cmake"
    ]


def test_runtime_only_of_a_gpu_stack_is_no_claim_about_the_image() -> None:
    # `runtime only` qualifying a component (its runtime library), not the image's kind
    for readme in (
        "- **CUDA**: Minimal components (nvcc, headers, runtime only)\n",
        "### minimal\n- ROCm 6.3 runtime only\n",
        "- CUDA runtime only, no toolkit\n",
    ):
        assert findings(readme, {"Dockerfile": TOOLED}) == []
    # the image's kind, said the same way, still is
    assert findings("- Runtime only: no compilers\n", {"Dockerfile": TOOLED}) == [
        "1: README says 'Runtime only' but Dockerfile:2 installs g++-12"
    ]
