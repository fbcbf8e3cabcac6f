"""`docgen.audit.targets`: a list of GPU targets introduced as what the image itself is compiled for
(`This image is compiled for broad AMD GPU compatibility:`) that is the target build arg's list but for
a slip is `certain`; the same list under weaker words, or a list sharing few of the default's targets,
stays `likely`, and a list to choose from says nothing.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = (
    "FROM rocm/dev-ubuntu-22.04:6.4\n"
    "ARG ROCM_ARCH=gfx900,gfx906,gfx908,gfx90a,gfx942,gfx1030,gfx1100,gfx1101\n"
    "RUN cmake -DAMDGPU_TARGETS=${ROCM_ARCH} .\n"
)

LIST = (
    "- Vega: gfx900, gfx906\n- CDNA: gfx908, gfx90a, gfx942\n- RDNA 2: gfx1030, gfx1031\n"
    "- RDNA 3: gfx1100, gfx1101\n"
)


def said(readme: str) -> list[tuple[int, str]]:
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    return [
        (d.line, d.confidence) for d in audit(readme, "README.md", [model], {}) if "GPU targets" in d.message
    ]


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        # the image itself is said to be compiled for the list, which is the build arg's but for gfx1031
        ("This image is compiled for broad AMD GPU compatibility:", [(7, "certain")]),
        ("The binaries are built for these GPUs:", [(7, "certain")]),
        # weaker words: the list may be the project's, not this build's
        ("Compiled for these GPUs:", [(7, "likely")]),
        # a list to choose from
        ("This image is compiled for your GPU: pick its target.", []),
        # the image's hardware, not its build
        ("This image was tested on:", []),
    ],
)
def test_a_target_list_said_of_the_image(intro: str, expected: list[tuple[int, str]]) -> None:
    assert said(f"# Image\n\n{intro}\n\n{LIST}") == expected


def test_a_short_list_is_not_the_build_args_list() -> None:
    # two of the default's eight targets and one it lacks: a list of highlights, not the build's list
    readme = (
        "# Image\n\nThis image is compiled for:\n\n- gfx942 (MI300X)\n- gfx1100 (RX 7900 XTX)\n- gfx1201\n"
    )
    assert said(readme) == [(7, "likely")]


# -- the value the README's own build passes, from an env file -----------------------------------------

# modelled on a llama.cpp ROCm image: `make build` includes versions.env, exports the arch and runs
# build.sh, which sources the same file and passes it on as an array's `--build-arg`
LLAMA_DOCKERFILE = (
    "ARG ROCM_VERSION=7.1-complete\n"
    "ARG GPU_ARCH=gfx900,gfx906,gfx908,gfx90a,gfx942,gfx1030,gfx1100,gfx1101\n"
    "FROM rocm/dev-ubuntu-24.04:${ROCM_VERSION}\n"
    "ARG GPU_ARCH\n"
    "RUN cmake -B build -DAMDGPU_TARGETS=${GPU_ARCH} && cmake --build build\n"
)
LLAMA_ENV = (
    "# ROCm base image\n"
    "ROCM_VERSION=7.1-complete\n"
    "SERVER_VERSION=b7079\n"
    "# GPU_ARCH=gfx900,gfx906,gfx908,gfx90a,gfx942,gfx1030,gfx1100,gfx1101\n"
    "GPU_ARCH=gfx1151\n"
)
LLAMA_MAKEFILE = (
    "include versions.env\nexport ROCM_VERSION\nexport GPU_ARCH\n\n"
    "build:\n\t./build.sh --platform linux/amd64\n"
)
LLAMA_SCRIPT = (
    "#!/usr/bin/env bash\n"
    'SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"\n'
    "load() {\n"
    '    local versions_file="${SCRIPT_DIR}/versions.env"\n'
    '    source "$versions_file"\n'
    "}\n"
    "load\n"
    "cmd=(docker build\n"
    '    "--build-arg" "ROCM_VERSION=$ROCM_VERSION"\n'
    '    "--build-arg" "GPU_ARCH=$GPU_ARCH"\n'
    "    -t llama-rocm:latest .)\n"
    '"${cmd[@]}"\n'
)
LLAMA_README = """# llama-server on ROCm

## Supported GPUs

This image is compiled for broad AMD GPU compatibility:

- Vega: gfx900, gfx906
- CDNA: gfx908, gfx90a, gfx942
- RDNA 2: gfx1030
- RDNA 3: gfx1100, gfx1101

## Build

```bash
make build
```

## Configuration

Edit `versions.env`:

```bash
ROCM_VERSION=7.1-complete
SERVER_VERSION=b7079
GPU_ARCH=gfx900,gfx906,gfx908,...
```

Example for MI200 series only:

```bash
GPU_ARCH=gfx90a
```
"""


def _built(tmp_path: Path, files: dict[str, str], readme: str) -> list[str]:
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "GPU_ARCH" in d.message or "GPU targets" in d.message
    ]


def _llama(**changes: str) -> dict[str, str]:
    files = {
        "Dockerfile": LLAMA_DOCKERFILE,
        "versions.env": LLAMA_ENV,
        "Makefile": LLAMA_MAKEFILE,
        "build.sh": LLAMA_SCRIPT,
    }
    files.update(changes)
    return files


def test_a_target_list_against_the_env_file_the_build_passes(tmp_path: Path) -> None:
    assert _built(tmp_path, _llama(), LLAMA_README) == [
        "7: README lists GPU targets the image is built for, but the README's build passes "
        "GPU_ARCH=gfx1151 (versions.env:5; Makefile includes versions.env and build.sh passes "
        "--build-arg GPU_ARCH=$GPU_ARCH): it builds gfx1151 only, none of them (certain)",
        "25: README shows versions.env setting GPU_ARCH=gfx900,gfx906,gfx908,..., but versions.env:5 sets "
        "GPU_ARCH=gfx1151 (certain)",
    ]


def test_the_env_file_as_the_readme_shows_it_is_silent(tmp_path: Path) -> None:
    every = "GPU_ARCH=gfx900,gfx906,gfx908,gfx90a,gfx942,gfx1030,gfx1100,gfx1101"
    env = LLAMA_ENV.replace("GPU_ARCH=gfx1151", every)
    assert _built(tmp_path, _llama(**{"versions.env": env}), LLAMA_README) == []


@pytest.mark.parametrize(
    ("changes", "readme"),
    [
        # the README sets the arch for its build
        ({}, LLAMA_README.replace("make build\n", "make build GPU_ARCH=gfx942\n")),
        ({}, LLAMA_README.replace("make build\n", "export GPU_ARCH=gfx942\nmake build\n")),
        # the README builds with docker build too: the Dockerfile's default is what that gives
        ({}, LLAMA_README.replace("make build\n", "make build\ndocker build -t llama-rocm .\n")),
        # the makefile neither exports the arch nor passes it, and runs no script
        ({"Makefile": "include versions.env\n\nbuild:\n\tdocker build -t llama-rocm .\n"}, LLAMA_README),
        # the script passes a literal, not the env file's value
        ({"build.sh": LLAMA_SCRIPT.replace("GPU_ARCH=$GPU_ARCH", "GPU_ARCH=gfx942")}, LLAMA_README),
    ],
)
def test_builds_that_do_not_pass_the_env_file(tmp_path: Path, changes: dict[str, str], readme: str) -> None:
    found = _built(tmp_path, _llama(**changes), readme)
    assert not any("versions.env" in f for f in found)


# modelled on a speech-to-text ROCm image built by a script that sources a build.env beside it
WHISPER_DOCKERFILE = (
    "FROM rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0\n"
    "ARG PYTORCH_ROCM_ARCH=gfx90a;gfx942\n"
    "ENV PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}\n"
    "RUN pip install ctranslate2-rocm\n"
)
WHISPER_SCRIPT = (
    "#!/bin/sh\nset -e\n. ./build.env\n"
    'docker build --build-arg PYTORCH_ROCM_ARCH="$PYTORCH_ROCM_ARCH" -t whisper-rocm .\n'
)
WHISPER_README = """# Whisper on ROCm

The image is built for these GPUs:

- gfx1100 (RX 7900 XTX)
- gfx1101 (RX 7800 XT)

Build it with:

```sh
./build.sh
```
"""


def test_a_script_sourcing_its_env_file(tmp_path: Path) -> None:
    files = {
        "Dockerfile": WHISPER_DOCKERFILE,
        "build.sh": WHISPER_SCRIPT,
        "build.env": "PYTORCH_ROCM_ARCH=gfx1100;gfx1101;gfx1102\n",
    }
    found = _built(tmp_path, files, WHISPER_README)
    # the Dockerfile's default is told apart, as it stands
    assert [f.split(" (")[0] for f in found] == [
        "5: README lists GPU targets gfx1100, gfx1101 that PYTORCH_ROCM_ARCH's default",
        "5: README lists GPU targets the image is built for, but the README's build passes "
        "PYTORCH_ROCM_ARCH=gfx1100;gfx1101;gfx1102",
    ]
    assert found[1].endswith(": it builds gfx1102, which the list leaves out (certain)")


def test_a_list_the_scripts_env_file_builds_is_not_held_to_the_default(tmp_path: Path) -> None:
    # the Dockerfile's default (gfx90a;gfx942) is not what the README's build gives: no finding
    files = {
        "Dockerfile": WHISPER_DOCKERFILE,
        "build.sh": WHISPER_SCRIPT,
        "build.env": "PYTORCH_ROCM_ARCH=gfx1100;gfx1101\n",
    }
    assert _built(tmp_path, files, WHISPER_README) == []
