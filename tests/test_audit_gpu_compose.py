"""`docgen.audit.gpu_compose`: a README saying the compose deployment runs on a CPU where every service
the compose file starts reserves an NVIDIA GPU and no CPU variant exists.

Shapes modelled on a speech-to-text API whose one service reserves `driver: nvidia` devices, and on an
LLM server stack whose services use `runtime: nvidia`. A planted drift next to the nearest true
statements (traps).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\nRUN pip install fastapi\nEXPOSE 9000\n"
RESERVED = (
    "services:\n"
    "  speech-api:\n"
    "    build: .\n"
    "    ports:\n"
    '      - "9000:9000"\n'
    "    environment:\n"
    "      - COMPUTE=cuda\n"
    "    deploy:\n"
    "      resources:\n"
    "        reservations:\n"
    "          devices:\n"
    "            - driver: nvidia\n"
    "              count: 1\n"
    "              capabilities: [gpu]\n"
)
RUNTIME = (
    "services:\n"
    "  llm-server:\n"
    "    build: .\n"
    "    runtime: nvidia\n"
    "  llm-ui:\n"
    "    image: example/chat-ui:1.2\n"
    "    runtime: nvidia\n"
)
CLAIM = (
    "# Speech API\n\n## Features\n\n"
    "- A `docker-compose.yml` for quick deployment on both CPU and NVIDIA GPU machines.\n"
    "- Streams results as they come.\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "reserves one" in d.message
    ]


def test_a_cpu_deployment_every_service_reserves_a_gpu_against(tmp_path: Path) -> None:
    assert found(tmp_path, CLAIM, {"docker-compose.yml": RESERVED}) == [
        "5: README says the compose deployment runs without an NVIDIA GPU (CPU and NVIDIA GPU), but every "
        "service docker-compose.yml starts (speech-api) reserves one and no CPU variant exists: on a host "
        "without one, `docker compose up` cannot start it (likely)"
    ]


def test_runtime_nvidia_and_an_env_var_picking_the_device(tmp_path: Path) -> None:
    readme = "# LLM stack\n\nThe compose stack runs with or without a GPU; set DEVICE=cpu in `.env`.\n"
    files = {
        "compose.yaml": RUNTIME.replace(
            "    runtime: nvidia\n  llm-ui",
            "    runtime: nvidia\n    environment:\n      - DEVICE=${DEVICE:-cuda}\n  llm-ui",
        )
    }
    assert [f.split(":", 1)[0] for f in found(tmp_path, readme, files)] == ["3"]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a CPU variant beside it
        (
            CLAIM,
            {
                "docker-compose.yml": RESERVED,
                "docker-compose.cpu.yml": "services:\n  speech-api:\n    build: .\n",
            },
        ),
        # an override file
        (CLAIM, {"docker-compose.yml": RESERVED, "docker-compose.override.yml": "services: {}\n"}),
        # a CPU variant in a folder of its own
        (
            CLAIM,
            {
                "docker-compose.yml": RESERVED,
                "cpu/docker-compose.yml": "services:\n  speech-api:\n    build: ..\n",
            },
        ),
        # another compose file the README runs
        (
            CLAIM + "\n```sh\ndocker compose -f deploy/compose.cpu.yaml up -d\n```\n",
            {"docker-compose.yml": RESERVED},
        ),
        # a profile
        (
            CLAIM,
            {"docker-compose.yml": RESERVED.replace("    build: .\n", "    build: .\n    profiles: [gpu]\n")},
        ),
        # one service starts without a GPU
        (
            CLAIM,
            {
                "docker-compose.yml": RUNTIME.replace(
                    "    image: example/chat-ui:1.2\n    runtime: nvidia\n",
                    "    image: example/chat-ui:1.2\n",
                )
            },
        ),
        # a switchable runtime
        (CLAIM, {"docker-compose.yml": RUNTIME.replace("runtime: nvidia", "runtime: ${RUNTIME:-nvidia}")}),
        # the app, not the compose file, runs on a CPU
        ("# Speech API\n\nThe model runs on CPU or GPU.\n", {"docker-compose.yml": RESERVED}),
        # an instruction to edit the file
        (
            "# Speech API\n\nNo GPU? Remove the `deploy` block from docker-compose.yml"
            " and run on CPU or GPU.\n",
            {"docker-compose.yml": RESERVED},
        ),
        # no reservation at all
        (CLAIM, {"docker-compose.yml": "services:\n  speech-api:\n    build: .\n"}),
    ],
)
def test_traps(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, readme, files) == []


PLAIN = (
    "services:\n"
    "  trainer:\n"
    "    build:\n"
    "      context: .\n"
    "    ipc: host\n"
    '    shm_size: "16g"\n'
    "    command: bash train.sh\n"
)
"""Modelled on a fine-tuning setup: one training service, shared memory set, no GPU reserved."""
GPU_CLAIM = (
    "Docker training\n\nQuick start\n- One command: `bash scripts/train.sh`\n"
    "  - Builds the training image and runs the `trainer` service with GPU support.\n"
)
STACK_CLAIM = "# Chat stack\n\nThe compose stack runs on the GPU out of the box.\n"


def gpu_less(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "reserves none for" in d.message
    ]


def test_a_gpu_run_said_for_a_service_that_reserves_none(tmp_path: Path) -> None:
    assert gpu_less(tmp_path / "a", GPU_CLAIM, {"docker-compose.yml": PLAIN}) == [
        "5: README says service trainer runs with a GPU (with GPU support), but docker-compose.yml reserves "
        "none for it (no deploy.resources.reservations.devices, runtime: nvidia or gpus:): Compose gives the "
        "container no GPU (likely)"
    ]
    two = PLAIN + "  ui:\n    image: example/chat-ui:1.2\n"
    assert [f[:42] for f in gpu_less(tmp_path / "b", STACK_CLAIM, {"compose.yaml": two})] == [
        "3: README says services trainer, ui run wi"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the service reserves a GPU (each way of writing it)
        (GPU_CLAIM, {"docker-compose.yml": RESERVED.replace("speech-api", "trainer")}),
        (GPU_CLAIM, {"docker-compose.yml": PLAIN + "    runtime: nvidia\n"}),
        (GPU_CLAIM, {"docker-compose.yml": PLAIN + "    gpus: all\n"}),
        (GPU_CLAIM, {"docker-compose.yml": PLAIN + "    runtime: ${RUNTIME:-runc}\n"}),
        # an override file may add it
        (GPU_CLAIM, {"docker-compose.yml": PLAIN, "docker-compose.override.yml": "services: {}\n"}),
        # the line passes --gpus itself, or is about editing the file, or names another service
        (
            GPU_CLAIM.replace("service with", "service (`docker compose run --gpus all trainer`) with"),
            {"docker-compose.yml": PLAIN},
        ),
        (GPU_CLAIM.replace("Builds", "If you edit the file, it builds"), {"docker-compose.yml": PLAIN}),
        (GPU_CLAIM.replace("`trainer`", "`worker`"), {"docker-compose.yml": PLAIN}),
        # a line naming neither Compose nor a service; a CPU fallback said
        ("# Trainer\n\nThe model trains on the GPU.\n", {"docker-compose.yml": PLAIN}),
        ("# Trainer\n\nThe compose stack runs on the GPU, or the CPU.\n", {"docker-compose.yml": PLAIN}),
    ],
)
def test_a_gpu_run_said_traps(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert gpu_less(tmp_path, readme, files) == []


TOC = (
    "# Local LLM\n\n## Table of Contents\n\n"
    "- [Run with Docker Compose](#run-with-docker-compose)\n"
    "  - [Run with NVIDIA GPU support with Docker Compose]"
    "(#run-with-nvidia-gpu-support-with-docker-compose)\n"
)


def test_a_contents_entry_or_another_compose_file_is_no_gpu_claim(tmp_path: Path) -> None:
    files = {"docker-compose.yml": PLAIN}
    assert gpu_less(tmp_path / "a", TOC, files) == []
    # the GPU run the README names is another compose file's: this one's services need none
    other = (
        "# Trainer\n\nThe compose stack runs with GPU support:\n\n"
        "```bash\ndocker compose -f docker-compose-cuda.yml up\n```\n"
    )
    assert gpu_less(tmp_path / "b", other, files) == []
    # the same words outside a link are still a claim
    said = TOC.replace(
        "[Run with NVIDIA GPU support with Docker Compose](#run-with-nvidia-gpu-support-with-docker-compose)",
        "Run with NVIDIA GPU support with Docker Compose",
    )
    assert [f[:18] for f in gpu_less(tmp_path / "c", said, files)] == ["6: README says ser"]
