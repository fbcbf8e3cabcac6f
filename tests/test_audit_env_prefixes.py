"""`docgen audit`: a variable a README sets in front of a script it runs that the script sets itself
before reading it (docgen/audit/env_prefixes.py, docgen/script_env.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM ubuntu:22.04\n"
SOURCED = """\
#!/bin/bash
set -e
usage() {
    cat <<EOF
Set GPU=true in .env for GPU mode.
EOF
}
if [ -f ".env" ]; then
    set -o allexport
    source .env
    set +o allexport
elif [ -f .env.example ]; then
    set -a
    . ./.env.example
    set +a
fi
GPU="${GPU:-false}"
docker compose build
"""
EXAMPLE = "# copy to .env\nGPU=false\nPORT=8080\n"


def found(root: Path, commands: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    readme = f"# App\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"Dockerfile": APP, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "has no effect" in d.message
    ]


def test_a_prefix_an_env_file_the_script_sources_overrides(tmp_path: Path) -> None:
    files = {"build.sh": SOURCED, ".env.example": EXAMPLE}
    assert found(tmp_path, "./build.sh\nGPU=true ./build.sh", files) == [
        (
            5,
            "README sets GPU=true for ./build.sh, but build.sh:14 sources ./.env.example, which sets "
            "GPU=false before the script reads GPU: the setting has no effect",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("script", "commands", "said"),
    [
        (
            "#!/bin/sh\nTAG=latest\ndocker build -t app:$TAG .\n",
            "TAG=1.0 sh build.sh",
            "README sets TAG=1.0 for build.sh, but build.sh:2 sets TAG=latest",
        ),
        (
            '#!/bin/bash\n[ -f .env.example ] && source .env.example\nexport GPU="yes"\n',
            "PORT=9000 bash ./build.sh",
            "README sets PORT=9000 for ./build.sh, but build.sh:2 sources .env.example, which sets PORT=8080",
        ),
        (
            '#!/bin/bash\nexport GPU="no"\necho "$GPU"\n',
            "GPU=yes ./build.sh --fast",
            "README sets GPU=yes for ./build.sh, but build.sh:2 sets GPU=no",
        ),
    ],
)
def test_a_prefix_the_script_sets_itself(tmp_path: Path, script: str, commands: str, said: str) -> None:
    messages = [m for _, m, _ in found(tmp_path, commands, {"build.sh": script, ".env.example": EXAMPLE})]
    assert len(messages) == 1
    assert messages[0].startswith(said)


@pytest.mark.parametrize(
    ("script", "commands"),
    [
        # the nearest true statements: the script takes the value from its caller
        ('#!/bin/bash\nGPU="${GPU:-false}"\n', "GPU=true ./build.sh"),
        ("#!/bin/bash\n: ${GPU:=false}\nGPU=false\n", "GPU=true ./build.sh"),
        ('#!/bin/bash\nif [ -z "$GPU" ]; then\n  GPU=false\nfi\n', "GPU=true ./build.sh"),
        ("#!/bin/bash\nif [ -f .env ]; then\n  source .env\nfi\n", "GPU=true ./build.sh"),  # no .env
        ("#!/bin/bash\nif [ ! -f .env.example ]; then\n  GPU=false\nfi\n", "GPU=true ./build.sh"),
        ("#!/bin/bash\nsetup() {\n  GPU=false\n}\n", "GPU=true ./build.sh"),
        ("#!/bin/bash\nfor x in a b; do\n  GPU=false\ndone\n", "GPU=true ./build.sh"),
        ("#!/bin/bash\ncd app\nsource .env.example\n", "GPU=true ./build.sh"),
        ("#!/bin/bash\nGPU=false docker compose build\n", "GPU=true ./build.sh"),  # a prefix too
        ('#!/bin/bash\necho "$GPU"\nGPU=false\n', "GPU=true ./build.sh"),  # read first
        ("#!/bin/bash\nGPU=false\n", "GPU=false ./build.sh"),  # the same value
        ("#!/bin/bash\nGPU=false\n", "GPU=true docker compose up"),  # not the script
        ("#!/bin/bash\nGPU=false\n", "GPU=true ./other.sh"),  # not found
        ("#!/bin/bash\nsource .env.example\n", "CUDA=12 ./build.sh"),  # the file does not set it
    ],
)
def test_prefixes_left_alone(tmp_path: Path, script: str, commands: str) -> None:
    assert found(tmp_path, commands, {"build.sh": script, ".env.example": EXAMPLE}) == []


# A build script passing one build arg on; the Dockerfile declares two more it leaves at their defaults.
ENGINE = """\
ARG SM_TARGETS=86
ARG ENGINE_REF=main
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build
ARG SM_TARGETS
ARG ENGINE_REF
RUN git clone https://example.org/engine /engine && git -C /engine checkout "$ENGINE_REF" && \\
    cmake -S /engine -B /b -DCMAKE_CUDA_ARCHITECTURES="${SM_TARGETS}" && cmake --build /b
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
COPY --from=build /b/bin/engine /usr/local/bin/engine
"""
REMAKE = """\
#!/usr/bin/env bash
# Override with e.g. SM_TARGETS=89 ./tools/remake.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SM_TARGETS="${SM_TARGETS:-86}"
docker build \\
  --build-arg SM_TARGETS="$SM_TARGETS" \\
  -f "$HERE/docker/Dockerfile" \\
  -t engine:dev "$HERE/docker"
docker run --rm --gpus all engine:dev engine --version
"""


def unpassed(root: Path, commands: str, script: str = REMAKE) -> list[tuple[int, str, str]]:
    readme = f"# Engine\n\n```bash\n{commands}\n```\n"
    make_tree(root, {"docker/Dockerfile": ENGINE, "README.md": readme, "tools/remake.sh": script})
    model = build_model(root / "docker" / "Dockerfile", "docker/Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "has no effect" in d.message
    ]


def test_a_prefix_naming_a_build_arg_the_script_never_passes(tmp_path: Path) -> None:
    commands = "SM_TARGETS=89 ./tools/remake.sh\nENGINE_REF=v2.1 ./tools/remake.sh"
    assert unpassed(tmp_path, commands) == [
        (
            5,
            "README sets ENGINE_REF=v2.1 for ./tools/remake.sh, but remake.sh:6 builds docker/Dockerfile "
            "(ARG ENGINE_REF at line 2) passing --build-arg SM_TARGETS and never reads ENGINE_REF: the "
            "setting has no effect",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "script",
    [
        REMAKE.replace(
            '  --build-arg SM_TARGETS="$SM_TARGETS" \\\n',
            "  --build-arg SM_TARGETS --build-arg ENGINE_REF \\\n",
        ),
        REMAKE.replace(
            'SM_TARGETS="${SM_TARGETS:-86}"', 'SM_TARGETS="${SM_TARGETS:-86}"\nREF="${ENGINE_REF:-main}"'
        ),
        REMAKE.replace("docker run --rm", 'make -C "$HERE" smoke\ndocker run --rm'),
        REMAKE.replace("docker build \\", "docker compose build\ndocker build \\"),
    ],
    ids=["passed-bare", "read-by-the-script", "make-may-read-it", "compose-may-read-it"],
)
def test_a_prefix_the_script_passes_or_may_hand_on_is_no_finding(tmp_path: Path, script: str) -> None:
    assert unpassed(tmp_path, "ENGINE_REF=v2.1 ./tools/remake.sh", script) == []


def test_a_prefix_that_is_no_build_arg_of_the_dockerfile_is_no_finding(tmp_path: Path) -> None:
    # OTHER is no ARG of docker/Dockerfile: the script may not need it at all, nothing says it should
    assert unpassed(tmp_path, "OTHER=1 ./tools/remake.sh") == []
