"""`docgen audit` (docgen/audit/references.py, `MadeFiles.later`): a build (a compose service, a README's
own `docker build`) whose context lacks a file its Dockerfile copies that the README makes only in a
later step (`go build -o app`, `cp target/release/x x`), which a reader following the page in order has
not run yet; and the shapes that stay silent: the build's section telling to run that step first (by
the file's name, the step's heading, a link to it), the step before the build, the file there."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

GO_DOCKERFILE = """\
FROM debian:bookworm-slim
WORKDIR /srv
COPY relayd /usr/local/bin/relayd
EXPOSE 7000
ENTRYPOINT ["relayd"]
"""
GO_COMPOSE = """\
services:
  relay:
    build:
      context: ..
      dockerfile: deploy/Dockerfile
    ports:
      - "7000:7000"
"""
GO_README = """\
# Relay in a container

## Quick start

```bash
cd deploy
docker compose up -d
```

The relay listens on port 7000.

## Building from source

```bash
# from the repository root
CGO_ENABLED=0 go build -o relayd ./cmd/relayd
cd deploy
docker compose build
```
"""
"""A Go service's deploy/README.md (the shape of one whose quick start builds before the step that makes
the binary its Dockerfile copies)."""


def go_tree(readme: str = GO_README, **change: str) -> dict[str, str]:
    return {
        "deploy/README.md": readme,
        "deploy/Dockerfile": GO_DOCKERFILE,
        "deploy/compose.yaml": GO_COMPOSE,
        "cmd/relayd/main.go": "package main\n\nfunc main() {}\n",
        "go.mod": "module example.com/relay\n",
        **change,
    }


def found(root: Path, files: dict[str, str], readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    here = (root / readme).parent
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files[readme], "README.md", model, {}, here, root)
        if "does not hold" in d.message
    ]


def test_a_compose_build_before_the_step_making_its_binary(tmp_path: Path) -> None:
    assert found(tmp_path, go_tree(), "deploy/README.md", "deploy/Dockerfile") == [
        (
            7,
            "README runs docker compose up, whose service relay builds ../deploy/Dockerfile with the "
            "context .., which does not hold relayd (line 3) that it copies: the README makes it only at "
            "line 16 (`CGO_ENABLED=0 go build -o relayd ./cmd/relayd`), a step after this build",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "told",
    [
        "Build the `relayd` binary before you start it.",
        "Run the steps of [Building from source](#building-from-source) once before.",
        "First follow Building from source.",
    ],
)
def test_a_section_telling_to_run_the_step_first_is_silent(tmp_path: Path, told: str) -> None:
    readme = GO_README.replace("## Quick start\n\n", f"## Quick start\n\n{told}\n\n")
    assert found(tmp_path, go_tree(readme), "deploy/README.md", "deploy/Dockerfile") == []


def test_the_binary_there_is_silent(tmp_path: Path) -> None:
    files = go_tree(**{"relayd": "\x7fELF"})
    assert found(tmp_path, files, "deploy/README.md", "deploy/Dockerfile") == []


def test_another_output_is_no_step_making_the_file(tmp_path: Path) -> None:
    readme = GO_README.replace("-o relayd ./cmd/relayd", "-o bin/relayd-debug ./cmd/relayd")
    assert found(tmp_path, go_tree(readme), "deploy/README.md", "deploy/Dockerfile") == []


RUST_DOCKERFILE = """\
FROM gcr.io/distroless/cc-debian12
COPY config/default.toml /etc/sieve/default.toml
COPY sieve /usr/bin/sieve
CMD ["/usr/bin/sieve", "--config", "/etc/sieve/default.toml"]
"""
RUST_README = """\
# sieve

A log filter.

## Docker

```sh
docker build -t sieve .
docker run --rm -v /var/log:/logs sieve
```

## Development

```sh
cargo build --release
cp target/release/sieve sieve
```
"""
"""A Rust tool's README (the shape of one whose image copies the release binary a development section
copies to the top)."""


def rust_tree(readme: str = RUST_README, **change: str) -> dict[str, str]:
    return {
        "README.md": readme,
        "Dockerfile": RUST_DOCKERFILE,
        "config/default.toml": "level = 'info'\n",
        "Cargo.toml": '[package]\nname = "sieve"\nversion = "0.3.1"\n',
        **change,
    }


def test_a_readme_build_before_the_copy_of_the_release_binary(tmp_path: Path) -> None:
    assert found(tmp_path, rust_tree(), "README.md", "Dockerfile") == [
        (
            8,
            "README builds ./Dockerfile with the context ., which does not hold sieve (line 3) that it "
            "copies: the README makes it only at line 16 (`cp target/release/sieve sieve`), a step after "
            "this build",
            "likely",
        )
    ]


def test_the_step_before_the_build_is_silent(tmp_path: Path) -> None:
    first = "```sh\ncargo build --release\ncp target/release/sieve .\ndocker build"
    readme = RUST_README.replace("```sh\ndocker build", first)
    assert found(tmp_path, rust_tree(readme), "README.md", "Dockerfile") == []
