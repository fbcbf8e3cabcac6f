"""`docgen audit`: environment variables a README says one Dockerfile sets that it does not set, and
where they are set instead (docgen/audit/env_homes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVER = """\
FROM example/inference-runtime:1.4
ARG THREADS=4
ENV MODEL_ROOT=/models
ENV RUNTIME_THREADS=${THREADS}
CMD ["serve"]
"""
STACK = """\
services:
  server:
    build:
      context: .
      dockerfile: ./Dockerfile
    environment:
      ACCEL_BACKEND: vulkan
      CACHE_LIMIT: "8G"
"""
LAUNCH = "#!/bin/sh\nexport QUEUE_DEPTH=32\nexec docker compose up\n"


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": SERVER, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "sets the environment variable" in d.message
    ]


def said(name: str, where: str = "") -> str:
    message = f"README says Dockerfile sets the environment variable {name}, but it has no ENV or ARG {name}"
    return f"{message}; {where} sets it" if where else message


@pytest.mark.parametrize(
    "intro",
    [
        "The [Dockerfile](Dockerfile) environment variables:",
        "Environment variables set in the `Dockerfile`:",
        "Env vars the Dockerfile defines:",
    ],
)
def test_a_variable_listed_as_the_dockerfile_s_that_compose_or_a_script_sets(
    tmp_path: Path, intro: str
) -> None:
    readme = (
        "# Server\n\n## Tuning\n\n"
        f"{intro}\n"
        "* `MODEL_ROOT` is where the weights live.\n"
        "* Change `ACCEL_BACKEND` for another accelerator.\n"
        "* `QUEUE_DEPTH` bounds the queue.\n"
        "* `THREADS` sets the worker threads.\n"
        "* `SWAP_LIMIT` caps the swap.\n"
    )
    assert found(tmp_path, readme, {"compose.yaml": STACK, "launch.sh": LAUNCH}) == [
        (7, said("ACCEL_BACKEND", "compose.yaml:7"), "certain"),
        (8, said("QUEUE_DEPTH", "launch.sh:2"), "certain"),
        (10, said("SWAP_LIMIT"), "likely"),
    ]


@pytest.mark.parametrize(
    "intro",
    [
        # the list is the compose file's, the container's at run time, or says the names are not the file's
        "The [compose file](compose.yaml) environment variables:",
        "The Dockerfile image reads these environment variables, passed with `docker run -e`:",
        "Environment variables not set in the Dockerfile:",
        # no environment variables named, or no Dockerfile
        "The [Dockerfile](Dockerfile) build settings:",
        "Environment variables:",
    ],
)
def test_a_list_not_tied_to_the_dockerfile_s_environment_is_no_claim(tmp_path: Path, intro: str) -> None:
    items = "* Change `ACCEL_BACKEND` for another accelerator.\n* `SWAP_LIMIT` caps the swap.\n"
    readme = f"# Server\n\n{intro}\n{items}"
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == []


def test_every_name_the_dockerfile_declares_is_no_drift(tmp_path: Path) -> None:
    intro = "The [Dockerfile](Dockerfile) environment variables:"
    readme = f"# Server\n\n{intro}\n* `MODEL_ROOT`\n* `RUNTIME_THREADS`\n"
    assert found(tmp_path, readme, {"compose.yaml": STACK}) == []
