"""`docgen audit` (docgen/audit/cmd_files.py): a file the image's default command reads by a path from its
WORKDIR that the COPY of the context would bring while the context lacks it, for a README that runs the
default command; and the shapes that stay silent: an output path, a volume over it, a file the README
names, one a RUN makes, an ignored one, a run with a command of its own, the file there."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

SPEECH_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /opt/asr
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
CMD ["python", "transcribe.py", "--audio", "samples/greeting.wav", "--out", "out/greeting.txt"]
"""
SPEECH_COMPOSE = """\
services:
  asr:
    build: .
    volumes:
      - ./out:/opt/asr/out
"""
SPEECH_README = """\
# Tiny speech recogniser

## Run

```bash
docker compose build
docker compose run asr
```

The transcript lands in out/ on the host.
"""
"""A speech demo's README (the shape of one whose default command transcribes a bundled sample)."""


def speech_tree(**change: str) -> dict[str, str]:
    return {
        "README.md": SPEECH_README,
        "Dockerfile": SPEECH_DOCKERFILE,
        "compose.yaml": SPEECH_COMPOSE,
        "requirements.txt": "numpy==2.1.0\n",
        "transcribe.py": "import argparse\n",
        "samples/hello.wav": "RIFF",
        **change,
    }


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "default command" in d.message and "reading" in d.message
    ]


def test_a_sample_the_context_lacks_beside_another(tmp_path: Path) -> None:
    assert found(tmp_path, speech_tree()) == [
        (
            7,
            "README runs the image with its default command, Dockerfile:6 reading samples/greeting.wav from "
            "WORKDIR /opt/asr, but the build context does not hold samples/greeting.wav (its folder holds "
            "hello.wav): the command fails on the missing file",
            "certain",
        )
    ]


def test_the_sample_there_or_the_output_is_silent(tmp_path: Path) -> None:
    # (out/greeting.txt is what the command writes: no finding for it)
    assert found(tmp_path, speech_tree(**{"samples/greeting.wav": "RIFF"})) == []


def test_a_volume_over_the_file_is_silent(tmp_path: Path) -> None:
    compose = SPEECH_COMPOSE + "      - ./samples:/opt/asr/samples\n"
    assert found(tmp_path, speech_tree(**{"compose.yaml": compose})) == []


def test_a_service_with_a_command_of_its_own_is_silent(tmp_path: Path) -> None:
    compose = SPEECH_COMPOSE + '    command: ["python", "transcribe.py", "--audio", "samples/hello.wav"]\n'
    assert found(tmp_path, speech_tree(**{"compose.yaml": compose})) == []


def test_a_run_naming_a_command_is_silent(tmp_path: Path) -> None:
    readme = SPEECH_README.replace("docker compose run asr", "docker compose run asr python transcribe.py")
    assert found(tmp_path, speech_tree(**{"README.md": readme})) == []


def test_a_file_a_run_makes_or_the_readme_names_is_silent(tmp_path: Path) -> None:
    dockerfile = SPEECH_DOCKERFILE.replace(
        "COPY . .\n", "COPY . .\nRUN python -c 'print(1)' && cp samples/hello.wav samples/greeting.wav\n"
    )
    assert found(tmp_path, speech_tree(Dockerfile=dockerfile)) == []
    readme = SPEECH_README + "\nRecord your own greeting.wav before you run it.\n"
    assert found(tmp_path, speech_tree(**{"README.md": readme})) == []


def test_an_ignored_file_is_the_readers_own(tmp_path: Path) -> None:
    assert found(tmp_path, speech_tree(**{".gitignore": "*.wav\n!samples/hello.wav\n"})) == []


SERVER_DOCKERFILE = """\
FROM golang:1.23 AS build
WORKDIR /src
COPY . .
RUN go build -o /out/gateway ./cmd/gateway

FROM gcr.io/distroless/base-debian12
WORKDIR /srv
COPY --from=build /out/gateway /usr/local/bin/gateway
COPY conf conf
ENTRYPOINT ["gateway"]
CMD ["--config", "conf/gateway.toml", "--log-file", "logs/gateway.log"]
"""
SERVER_README = """\
# gateway

```sh
docker build -t gateway .
docker run -p 8080:8080 gateway
```
"""
"""A Go gateway's README (the shape of one whose image reads a config from a folder it copies)."""


def server_tree(**change: str) -> dict[str, str]:
    return {
        "README.md": SERVER_README,
        "Dockerfile": SERVER_DOCKERFILE,
        "conf/example.toml": "listen = ':8080'\n",
        "cmd/gateway/main.go": "package main\n",
        **change,
    }


def test_a_config_of_a_copied_folder_a_bare_run_reads(tmp_path: Path) -> None:
    assert found(tmp_path, server_tree()) == [
        (
            5,
            "README runs the image with its default command, Dockerfile:11 reading conf/gateway.toml from "
            "WORKDIR /srv, but the build context does not hold conf/gateway.toml (its folder holds "
            "example.toml): the command fails on the missing file",
            "certain",
        )
    ]


def test_a_run_mounting_a_folder_or_no_run_is_silent(tmp_path: Path) -> None:
    readme = SERVER_README.replace("docker run -p", "docker run -v $PWD/conf:/srv/conf -p")
    assert found(tmp_path, server_tree(**{"README.md": readme})) == []
    readme = SERVER_README.replace("docker run -p 8080:8080 gateway\n", "")
    assert found(tmp_path, server_tree(**{"README.md": readme})) == []
