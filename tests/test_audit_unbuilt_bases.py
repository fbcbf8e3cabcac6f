"""`docgen.audit.unbuilt_bases`: a documented build of a Dockerfile whose base has no namespace, is no
Docker official image and is made by nothing of the README or the repository is a `likely` finding; an
official image, a namespaced one, a stage, an ARG-made base, a base the README builds, pulls or names,
or one a script, compose file, workflow or another Dockerfile of the repository makes is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = 'FROM sketch-base:2.1.0\nRUN apt-get update && apt-get install -y xz-utils\nCMD ["sketch"]\n'
README = """\
# Sketch worker

## Requirements

* Docker Engine 20.10 or newer

## Build

```
docker build -t sketch-worker:2.1.0 .
```

Run it:

```
docker run --name sketch-worker sketch-worker:2.1.0
```
"""


def found(tmp_path: Path, readme: str = README, dockerfile: str = DOCKERFILE, **files: str) -> list[str]:
    (tmp_path / "Dockerfile").write_text(dockerfile)
    for name, body in files.items():
        (tmp_path / name.replace("__", "/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name.replace("__", "/")).write_text(body)
    (tmp_path / "README.md").write_text(readme)
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    diagnostics = audit(readme, "README.md", model, directory=tmp_path)
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics if "docker.io/library" in d.message
    ]


def test_a_base_nothing_makes(tmp_path: Path) -> None:
    assert found(tmp_path) == [
        "10: README builds Dockerfile, whose base sketch-base:2.1.0 (Dockerfile:1) has no namespace and is "
        "no Docker official image, and nothing of the README or the repository builds or pulls it: docker "
        "looks for docker.io/library/sketch-base, so the documented build fails on a clean machine (say how "
        "to get sketch-base first) (likely)"
    ]


def test_the_base_of_a_named_dockerfile(tmp_path: Path) -> None:
    readme = README.replace("docker build -t sketch-worker:2.1.0 .", "docker build -f Dockerfile -t w .")
    assert len(found(tmp_path, readme)) == 1


@pytest.mark.parametrize(
    "base",
    [
        "ubuntu:22.04",  # official images
        "python:3.11-slim",
        "debian",
        "nvidia/cuda:12.4.1-devel-ubuntu22.04",  # namespaced
        "ghcr.io/acme/sketch-base:2.1.0",  # a registry
        "localhost:5000/sketch-base:2",
        "library/sketchy:1",
        "scratch",
    ],
)
def test_bases_docker_can_pull(tmp_path: Path, base: str) -> None:
    assert found(tmp_path, dockerfile=DOCKERFILE.replace("sketch-base:2.1.0", base)) == []


def test_a_stage_and_an_arg_made_base(tmp_path: Path) -> None:
    staged = 'FROM ubuntu:22.04 AS sketch-base\nRUN true\nFROM sketch-base\nCMD ["sketch"]\n'
    assert found(tmp_path, dockerfile=staged) == []
    argued = 'ARG BASE=sketch-base:2.1.0\nFROM ${BASE}\nCMD ["sketch"]\n'
    assert found(tmp_path, dockerfile=argued) == []


@pytest.mark.parametrize(
    "step",
    [
        "docker build -t sketch-base:2.1.0 ../sketch-base\n",  # the README builds it first
        "docker pull reg.acme.io/sketch-base:2 && docker tag reg.acme.io/sketch-base:2 sketch-base:2.1.0\n",
        "docker load -i base.tar\n",
    ],
)
def test_a_readme_that_makes_the_base(tmp_path: Path, step: str) -> None:
    readme = README.replace("docker build -t sketch-worker", step + "docker build -t sketch-worker")
    assert found(tmp_path, readme) == []


def test_a_readme_that_names_the_base_in_prose(tmp_path: Path) -> None:
    readme = README.replace("* Docker", "* the sketch-base image from the platform repository\n* Docker")
    assert found(tmp_path, readme) == []


@pytest.mark.parametrize(
    "files",
    [
        {"build.sh": "#!/bin/sh\ndocker build -t sketch-base:2.1.0 base/\n"},
        {"docker-compose.yml": "services:\n  base:\n    image: sketch-base:2.1.0\n    build: base\n"},
        {".github__workflows__ci.yml": "jobs:\n  b:\n    steps:\n      - run: make sketch-base\n"},
        {"base__Dockerfile": "FROM ubuntu:22.04\n"},  # another Dockerfile may build it
    ],
)
def test_a_repository_that_makes_the_base(tmp_path: Path, files: dict[str, str]) -> None:
    assert found(tmp_path, **files) == []


def test_a_stage_the_build_skips(tmp_path: Path) -> None:
    unused = 'FROM sketch-base:2.1.0 AS old\nRUN true\nFROM ubuntu:22.04\nCMD ["sketch"]\n'
    assert found(tmp_path, dockerfile=unused) == []
    copied = "FROM sketch-base:2.1.0 AS tools\nRUN true\nFROM ubuntu:22.04\nCOPY --from=tools /x /x\n"
    assert len(found(tmp_path, dockerfile=copied)) == 1


def test_a_sibling_dockerfile_audited_too(tmp_path: Path) -> None:
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "Dockerfile").write_text("FROM ubuntu:22.04\n")
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    models = [
        model_of(parse_dockerfile(DOCKERFILE, "Dockerfile")),
        model_of(parse_dockerfile("FROM ubuntu:22.04\n", "base/Dockerfile")),
    ]
    diagnostics = audit(README, "README.md", models, directory=tmp_path)
    assert [d for d in diagnostics if "library/" in d.message] == []


def test_a_readme_without_a_build(tmp_path: Path) -> None:
    readme = README.replace("docker build -t sketch-worker:2.1.0 .", "make image")
    assert found(tmp_path, readme) == []


def test_a_base_that_is_a_substring_of_a_readme_word_is_not_named(tmp_path: Path) -> None:
    readme = README.replace("Sketch worker", "Sketch worker (see acme/sketch-base-docs)")
    assert len(found(tmp_path, readme)) == 1
