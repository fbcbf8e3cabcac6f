"""`docgen.audit.latest`: a component the README says is at its latest release while the build pins it
exactly (a planted drift next to the nearest true statements)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.manifests import manifest_pins
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvcr.io/nvidia/pytorch:25.10-py3
ARG VLLM_VERSION=0.11.0
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt "vllm==${VLLM_VERSION}" transformers
"""
REQUIREMENTS = "gradio==5.4.0\nnotebook>=7\n"


def _audit(tmp_path: Path, readme: str) -> list[str]:
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    (tmp_path / "requirements.txt").write_text(REQUIREMENTS)
    manifest_pins.cache_clear()
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, tmp_path)
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- Gradio (latest)",
        "- **Gradio**: latest",
        "Ships the latest Gradio for the web UI.",
        "| Gradio (latest version) |",
    ],
)
def test_latest_against_an_exact_pin(tmp_path: Path, said: str) -> None:
    assert _audit(tmp_path, f"# Demo\n\n{said}\n") == [
        "3: README says Gradio is the latest release but requirements.txt:1 pins gradio==5.4.0 (likely)"
    ]


def test_latest_against_an_arg_default(tmp_path: Path) -> None:
    assert _audit(tmp_path, "# Demo\n\n- vLLM (latest)\n") == [
        "3: README says vLLM is the latest release but Dockerfile:2 pins 0.11.0 (likely)"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- Transformers (latest)",  # installed unpinned: the latest is what it gets
        "- Notebook (latest)",  # a range in the requirements file
        "- PyTorch (latest)",  # only the base image's tag says it
        "- **Latest Gradio**: uses Gradio 5.4.0",  # the line gives the version itself
        "Pull the latest image: `docker pull demo:latest`",  # about a tag
        "- Jupyter (latest)",  # nothing installs it under that name
    ],
)
def test_latest_not_contradicted(tmp_path: Path, said: str) -> None:
    assert _audit(tmp_path, f"# Demo\n\n{said}\n") == []


def test_latest_the_readme_gives_the_pinned_release_of(tmp_path: Path) -> None:
    # the README's list of tags says Gradio 5.4.0 is the release of its image: `latest` is that one
    readme = "# Demo\n\n- `demo:1.3` [2025-04-02]: Gradio (5.4.0) on Python\n\nTry the latest Gradio now.\n"
    assert _audit(tmp_path, readme) == []


def test_latest_the_readme_gives_another_release_of(tmp_path: Path) -> None:
    # the list names an older Gradio (5.3.0): the pin 5.4.0 is nowhere in the README, the claim stands
    readme = "# Demo\n\n- `demo:1.2` [2025-01-10]: Gradio (5.3.0) on Python\n\nTry the latest Gradio now.\n"
    assert _audit(tmp_path, readme) == [
        "3: README says Gradio 5.3.0 but requirements.txt:1 says gradio==5.4.0 (likely)",
        "5: README says Gradio is the latest release but requirements.txt:1 pins gradio==5.4.0 (likely)",
    ]
