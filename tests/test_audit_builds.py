"""`docgen.audit.builds`: a build the README runs (its own `docker build`, or one of a script it runs)
that does not pass a build arg its Dockerfile cannot build without (`lacks`): a FROM that names no image
without it, a RUN that fails without it. Planted drifts modelled on two kinds of project (an image whose
base is chosen by a global ARG with no default; a developer image making the host's user with an ARG
of no default, built by a script), and the nearest true builds as traps. The READMEs, Dockerfiles and
scripts are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

PAINTER = """\
ARG base_image
FROM ${base_image} AS base
RUN pip install diffusers
ARG weights_dir
ENV weights_dir=${weights_dir}
RUN chown -R painter ${weights_dir}
CMD ["/start.sh"]
"""
"""A base chosen by a global ARG with no default, and a folder an ARG of no default names."""

DEVBOX = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y cmake
ARG HOST_USER
ARG HOST_UID=1000
RUN useradd -m -u ${HOST_UID} -s /bin/bash ${HOST_USER}
USER ${HOST_USER}
WORKDIR /workspace
"""
"""A developer image that makes the host's user from an ARG with no default."""

BUILD_SH = """\
#!/bin/bash
NAME=devbox
docker build -t $NAME:0.2 --file docker/Dockerfile --network host .
"""


def _found(root: Path, files: dict[str, str], dockerfile: str, readme_at: str = "README.md") -> list[str]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    folder = (root / readme_at).parent
    found = audit(files[readme_at], readme_at, model, {}, folder, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "--build-arg" in d.message]


def _fence(*lines: str) -> str:
    return "# Painter\n\nFrom the `docker` folder, run:\n\n```sh\n" + "\n".join(lines) + "\n```\n"


# --------------------------------------------------------------------------------------------------
# The README's own build command


def test_a_base_arg_with_no_default_that_the_command_does_not_pass(tmp_path: Path) -> None:
    files = {"docker/README.md": _fence("docker build -t painter ."), "docker/Dockerfile": PAINTER}
    assert _found(tmp_path, files, "docker/Dockerfile", "docker/README.md") == [
        "6: README builds docker/Dockerfile without --build-arg base_image, but docker/Dockerfile:2 FROM "
        "${base_image} names no image without it (base_image has no default; BuildKit stops before any "
        "step: base name should not be blank) (certain)",
        "6: README builds docker/Dockerfile without --build-arg weights_dir, but docker/Dockerfile:6 runs "
        "`chown -R painter ${weights_dir}`, which fails with weights_dir empty (weights_dir has no "
        "default) (likely)",
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker build --build-arg base_image=python:3.11 --build-arg weights_dir=/models -t painter .",
        "docker build --build-arg base_image --build-arg weights_dir -t painter .",  # from the environment
        "docker build $BUILD_ARGS -t painter .",  # passes more than it shows
    ],
)
def test_a_command_passing_them_is_no_finding(tmp_path: Path, command: str) -> None:
    files = {"docker/README.md": _fence(command), "docker/Dockerfile": PAINTER}
    assert _found(tmp_path, files, "docker/Dockerfile", "docker/README.md") == []


def test_an_invalid_reference_and_a_fallback(tmp_path: Path) -> None:
    tagged = "ARG UBUNTU_TAG\nARG IMAGE\nFROM ${IMAGE:-ubuntu}:${UBUNTU_TAG}\nRUN true\n"
    files = {"README.md": _fence("docker build -t tools ."), "Dockerfile": tagged}
    # IMAGE has a fallback: only the tag is needed
    assert _found(tmp_path, files, "Dockerfile") == [
        "6: README builds Dockerfile without --build-arg UBUNTU_TAG, but Dockerfile:3 FROM "
        "${IMAGE:-ubuntu}:${UBUNTU_TAG} is the invalid image reference 'ubuntu:' without it "
        "(UBUNTU_TAG has no default) (certain)"
    ]
    fallback = "ARG UBUNTU_TAG\nFROM ubuntu:${UBUNTU_TAG:-24.04}\nRUN true\n"
    files = {"README.md": _fence("docker build -t tools ."), "Dockerfile": fallback}
    assert _found(tmp_path, files, "Dockerfile") == []


def test_a_stage_the_target_does_not_build(tmp_path: Path) -> None:
    dockerfile = (
        "ARG DEV_BASE\nFROM python:3.12-slim AS prod\nARG HOST_USER\nRUN pip install flask\n"
        "FROM ${DEV_BASE} AS dev\nARG HOST_USER\nRUN useradd -m ${HOST_USER}\n"
    )
    files = {"README.md": _fence("docker build --target prod -t app ."), "Dockerfile": dockerfile}
    # BuildKit expands the FROM of every stage; the legacy builder stops at the target: likely. The
    # RUN of the stage not built runs in no build: nothing.
    assert _found(tmp_path, files, "Dockerfile") == [
        "6: README builds Dockerfile without --build-arg DEV_BASE, but Dockerfile:5 FROM ${DEV_BASE} names "
        "no image without it (DEV_BASE has no default; BuildKit stops before any step: base name should not "
        "be blank) (likely)"
    ]
    files["README.md"] = _fence("docker build --target dev --build-arg DEV_BASE=python:3.12 -t app .")
    assert _found(tmp_path, files, "Dockerfile") == [
        "6: README builds Dockerfile without --build-arg HOST_USER, but Dockerfile:7 runs `useradd -m "
        "${HOST_USER}`, which fails with HOST_USER empty (HOST_USER has no default) (likely)"
    ]


def test_an_arg_the_readme_names_elsewhere(tmp_path: Path) -> None:
    said = _fence("docker build -t painter .") + "\nSet `base_image` and `weights_dir` before you build.\n"
    files = {"docker/README.md": said, "docker/Dockerfile": PAINTER}
    # the README says to pass them: the command may be shortened; a blank FROM still stops it
    assert _found(tmp_path, files, "docker/Dockerfile", "docker/README.md") == [
        "6: README builds docker/Dockerfile without --build-arg base_image, but docker/Dockerfile:2 FROM "
        "${base_image} names no image without it (base_image has no default; BuildKit stops before any "
        "step: base name should not be blank) (likely)"
    ]


def test_a_compose_or_bake_build_gives_the_values(tmp_path: Path) -> None:
    compose = (
        "services:\n  painter:\n    build:\n      context: .\n      args:\n"
        "        base_image: python:3.11\n        weights_dir: /models\n"
    )
    files = {
        "docker/README.md": _fence("docker compose build", "docker buildx bake"),
        "docker/Dockerfile": PAINTER,
        "docker/compose.yaml": compose,
    }
    assert _found(tmp_path, files, "docker/Dockerfile", "docker/README.md") == []


# --------------------------------------------------------------------------------------------------
# The build of a script the README runs


def _devbox(script: str = BUILD_SH, readme: str = "") -> dict[str, str]:
    readme = readme or "# Devbox\n\nBuild the image:\n\n```bash\nbash docker/build.sh\n```\n"
    return {"README.md": readme, "docker/build.sh": script, "docker/Dockerfile": DEVBOX}


def test_a_script_whose_build_passes_no_build_arg(tmp_path: Path) -> None:
    assert _found(tmp_path, _devbox(), "docker/Dockerfile") == [
        "6: README runs docker/build.sh, whose docker build (docker/build.sh:3) passes no --build-arg "
        "HOST_USER, but docker/Dockerfile:5 runs `useradd -m -u ${HOST_UID} -s /bin/bash ${HOST_USER}`, "
        "which fails with HOST_USER empty (HOST_USER has no default) (likely)"
    ]


def test_a_script_whose_base_needs_an_arg(tmp_path: Path) -> None:
    script = "#!/bin/sh\ndocker build -t painter:latest -f docker/Dockerfile docker\n"
    files = {
        "README.md": "# Painter\n\n```\n./build.sh\n```\n",
        "build.sh": script,
        "docker/Dockerfile": PAINTER.replace("ARG weights_dir\n", "ARG weights_dir=/models\n"),
    }
    assert _found(tmp_path, files, "docker/Dockerfile") == [
        "4: README runs ./build.sh, whose docker build (build.sh:2) passes no --build-arg base_image, but "
        "docker/Dockerfile:2 FROM ${base_image} names no image without it (base_image has no default; "
        "BuildKit stops before any step: base name should not be blank) (certain)"
    ]


@pytest.mark.parametrize(
    "build",
    [
        "docker build -t devbox --build-arg HOST_USER=$(whoami) -f docker/Dockerfile .",
        'docker build -t devbox "$@" -f docker/Dockerfile .',  # the caller's options
        "docker build -t devbox $EXTRA -f docker/Dockerfile .",
        "docker build -t devbox --target $STAGE -f docker/Dockerfile .",
    ],
)
def test_a_script_that_passes_it_or_may_pass_more(tmp_path: Path, build: str) -> None:
    assert _found(tmp_path, _devbox(f"#!/bin/bash\n{build}\n"), "docker/Dockerfile") == []


def test_a_script_or_readme_that_names_the_arg(tmp_path: Path) -> None:
    # the script reads it for something docgen does not follow
    script = BUILD_SH.replace("NAME=devbox\n", 'NAME=devbox\necho "user: $HOST_USER"\n')
    assert _found(tmp_path, _devbox(script), "docker/Dockerfile") == []
    # the README tells the reader to set it
    readme = "# Devbox\n\nSet HOST_USER in build.sh first, then:\n\n```bash\nbash docker/build.sh\n```\n"
    assert _found(tmp_path / "b", _devbox(readme=readme), "docker/Dockerfile") == []


# --------------------------------------------------------------------------------------------------
# A value passed to an arg the build reads only in an option of a backend it does not build

SIM = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build
ARG SM_TARGET=sm_75
RUN cmake -S sim -B out -D PKG_GPU=on -D GPU_API={api} -D HIP_ARCH=${{SM_TARGET}} && cmake --build out
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
COPY --from=build /out/sim /app/sim
"""


def test_a_value_for_an_option_of_another_backend(tmp_path: Path) -> None:
    files = {
        "README.md": _fence("docker build --build-arg SM_TARGET=sm_89 -t sim ."),
        "Dockerfile": SIM.format(api="CUDA"),
    }
    make_tree(tmp_path, files)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(files["README.md"], "README.md", model, {}, tmp_path, tmp_path)
    assert [f"{d.line}: {d.message} ({d.confidence})" for d in found] == [
        "6: README passes --build-arg SM_TARGET=sm_89 to Dockerfile, but Dockerfile:3 gives SM_TARGET only "
        "to HIP_ARCH, a HIP option, in a cmake build set to GPU_API=CUDA: the value has no effect on the "
        "build (likely)"
    ]


def test_a_value_for_an_option_of_the_backend_built(tmp_path: Path) -> None:
    files = {
        "README.md": _fence("docker build --build-arg SM_TARGET=gfx90a -t sim ."),
        "Dockerfile": SIM.format(api="HIP"),
    }
    make_tree(tmp_path, files)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    assert audit(files["README.md"], "README.md", model, {}, tmp_path, tmp_path) == []


# --------------------------------------------------------------------------------------------------
# Build args meant to fill in a FROM that is now written out

ACCEL = """\
ARG UBUNTU_VER=22.04
FROM ubuntu:${UBUNTU_VER} AS cpu
RUN pip install torch
FROM vault.example.ai/accel-docker/1.10.0/ubuntu22.04/accel/pytorch-installer-2.0.1:latest AS accel
RUN pip install optimum-accel
"""


def _accel(tmp_path: Path, command: str, dockerfile: str = ACCEL) -> list[str]:
    files = {"docker/README.md": _fence(command), "docker/Dockerfile": dockerfile}
    make_tree(tmp_path, files)
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    found = audit(files["docker/README.md"], "docker/README.md", model, {}, tmp_path / "docker", tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "written out" in d.message]


GIVEN = (
    "docker build -f Dockerfile --target accel --build-arg REGISTRY=vault.example.ai "
    '--build-arg VERSION="{version}" --build-arg PT_VERSION="2.0.1" --build-arg OS_NUMBER=2204 .'
)


def test_a_version_passed_for_a_from_written_out(tmp_path: Path) -> None:
    assert _accel(tmp_path, GIVEN.format(version="1.11.0")) == [
        "6: README passes --build-arg VERSION=1.11.0, but docker/Dockerfile:4 starts stage accel FROM "
        "vault.example.ai/accel-docker/1.10.0/ubuntu22.04/accel/pytorch-installer-2.0.1:latest, written "
        "out (no ARG takes VERSION): the image is built on 1.10.0, not 1.11.0 (likely)"
    ]


def test_a_sdk_release_passed_for_a_tag_written_out(tmp_path: Path) -> None:
    dockerfile = "FROM registry.example.com/sdk/runtime:2.3.1-cuda12\nRUN make\n"
    command = "docker build --build-arg SDK_HOST=registry.example.com --build-arg SDK_RELEASE=2.4.0 ."
    assert _accel(tmp_path, command, dockerfile) == [
        "6: README passes --build-arg SDK_RELEASE=2.4.0, but docker/Dockerfile:1 starts stage #0 FROM "
        "registry.example.com/sdk/runtime:2.3.1-cuda12, written out (no ARG takes SDK_RELEASE): the "
        "image is built on 2.3.1, not 2.4.0 (likely)"
    ]


@pytest.mark.parametrize(
    ("command", "dockerfile"),
    [
        (GIVEN.format(version="1.10.0"), ACCEL),  # the release the FROM has
        (GIVEN.format(version="1.11.0").replace("--target accel", "--target cpu"), ACCEL),  # another stage
        (
            GIVEN.format(version="1.11.0").replace("REGISTRY=vault.example.ai", "REGISTRY=other.io"),
            ACCEL.replace("pytorch-installer-2.0.1", "pytorch-installer"),
        ),
        (GIVEN.format(version="2.11.0"), ACCEL),  # another major release: no release of the FROM's
        (
            GIVEN.format(version="1.11.0"),
            ACCEL.replace("1.10.0/", "${VERSION}/").replace("AS accel", "AS accel"),
        ),
        ("docker build --build-arg SDK_RELEASE=2.4.0 .", "FROM registry.example.com/sdk/runtime:2.3.1\n"),
    ],
)
def test_values_that_fill_no_written_from(tmp_path: Path, command: str, dockerfile: str) -> None:
    assert _accel(tmp_path, command, dockerfile) == []


def test_a_command_building_another_folder(tmp_path: Path) -> None:
    files = {"README.md": _fence("cd tools && docker build -t tool ."), "docker/Dockerfile": PAINTER}
    assert _found(tmp_path, files, "docker/Dockerfile") == []
    # a folder docgen cannot follow: the command may build it, or not
    files["README.md"] = _fence("cd ~/src/painter/docker && docker build -t painter .")
    assert all(f.endswith("(likely)") for f in _found(tmp_path / "b", files, "docker/Dockerfile"))
    assert _found(tmp_path / "b", files, "docker/Dockerfile")


def test_a_platform_arg_buildkit_sets(tmp_path: Path) -> None:
    dockerfile = (
        "ARG TARGETARCH\nFROM alpine:3.20 AS base-amd64\nFROM alpine:3.20 AS base-arm64\n"
        "FROM base-${TARGETARCH} AS x\nRUN true\n"
    )
    files = {"README.md": _fence("docker build -t x ."), "Dockerfile": dockerfile}
    assert _found(tmp_path, files, "Dockerfile") == []
