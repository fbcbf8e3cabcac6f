"""`references.dead_code_names`: a Dockerfile path with a folder in the prose (`builds the image defined in
`.docker/app/Dockerfile``) that does not exist is a finding even when the plain name `Dockerfile` is
the project's elsewhere (`did you mean` the one of that name); a path that exists, one a path of the
project ends with, one the reader creates, another project's and the plain word `Dockerfile` are not."""

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
        f"7: README names {path}, which does not exist (the Dockerfile is gone or moved; did you mean "
        "docker/llama_gpu/Dockerfile?) (certain)"
    ]


@pytest.mark.parametrize(
    ("sentence", "files"),
    [
        ("This builds the image defined in `docker/llama_gpu/Dockerfile`.", FILES),  # it exists
        ("Create `docker/cpu/Dockerfile` to build a CPU image.", FILES),  # the reader makes it
        ("It builds from upstream's `docker/cuda/Dockerfile`.", FILES),  # another project's
        ("This builds the image defined in `llama_gpu/Dockerfile`.", FILES),  # a path of the project ends so
        ("Using the following short `Dockerfile` you can extend it.", FILES),  # the word for any Dockerfile
    ],
)
def test_dockerfiles_that_are_there_or_not_the_projects_are_silent(
    tmp_path: Path, sentence: str, files: dict[str, str]
) -> None:
    assert found(tmp_path, sentence, files) == []
