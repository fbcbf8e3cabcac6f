"""`missing.misspelt_paths`: a Dockerfile path with a folder that the prose says the image is built
from (`builds the image defined in `.docker/app/Dockerfile``) and that does not exist, while the project
holds other Dockerfiles, is a finding naming them; a path that exists, one the reader creates, one of a
repository the README clones or names by address, and a project with no Dockerfile are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit

README = """\
# llama-cpp-python with a GPU

1. **Build the image:**
    ```bash
    docker compose -f docker/docker-compose.yml build
    ```
    * {sentence}
"""

FILES = {
    "docker/docker-compose.yml": "services:\n  llm:\n    build:\n      context: .\n"
    "      dockerfile: llama_gpu/Dockerfile\n",
    "docker/llama_gpu/Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n",
}


def found(root: Path, sentence: str, files: dict[str, str] = FILES) -> list[str]:
    make_tree(root, {"README.md": README.format(sentence=sentence), **files})
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [], {}, root, root)
        if "Dockerfile" in d.message
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "This builds the image defined in `.docker/llama-cpp/Dockerfile`. It compiles the wheel.",
        "The image is based on `containers/gpu/Dockerfile`.",
    ],
)
def test_a_dockerfile_the_prose_builds_from_that_is_gone(tmp_path: Path, sentence: str) -> None:
    path = sentence.split("`")[1]
    assert found(tmp_path, sentence) == [
        f"7: README names {path} as the image's Dockerfile, which does not exist (the project's: "
        "docker/llama_gpu/Dockerfile) (likely)"
    ]


@pytest.mark.parametrize(
    ("sentence", "files"),
    [
        ("This builds the image defined in `docker/llama_gpu/Dockerfile`.", FILES),  # it exists
        ("Create `docker/cpu/Dockerfile` to build a CPU image.", FILES),  # the reader makes it
        ("It builds from upstream's `docker/cuda/Dockerfile`.", FILES),  # another project's
        ("This builds the image defined in `.docker/llama-cpp/Dockerfile`.", {"app/run.py": ""}),  # none here
    ],
)
def test_dockerfiles_that_are_there_or_not_the_projects_are_silent(
    tmp_path: Path, sentence: str, files: dict[str, str]
) -> None:
    assert found(tmp_path, sentence, files) == []
