"""`docgen audit`: containers a README's docker commands address by a name nothing gives them
(docgen/audit/containers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
SERVICE = "services:\n  detector:\n    build: .\n    name: detect_box\n    network_mode: host\n"


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "addresses container" in d.message
    ]


def readme(*blocks: str) -> str:
    return "# Detector\n\n" + "\n".join(f"```bash\n{block}\n```\n" for block in blocks)


def said(verb: str, name: str, hint: str = "") -> str:
    text = (
        f"README's docker {verb} addresses container {name}, which nothing it runs names so (no --name "
        f"{name}, no compose container_name: {name}): docker answers no such container"
    )
    return text + hint


def test_a_compose_name_key_that_is_no_container_name(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": SERVICE,
        "README.md": readme("docker-compose up --build", "docker exec -it detect_box bash"),
    }
    hint = (
        " (docker-compose.yml:4 sets name: detect_box inside a service, which Compose does not take for the "
        "container's name: container_name does)"
    )
    assert found(tmp_path, files) == [(8, said("exec", "detect_box", hint), "likely")]


@pytest.mark.parametrize(
    ("command", "verb"),
    [
        ("docker logs -f --tail 20 trainer_gpu", "logs"),
        ("sudo docker container attach trainer_gpu", "attach"),
        ("docker stop -t 5 trainer_gpu", "stop"),
    ],
)
def test_a_name_no_run_gives(tmp_path: Path, command: str, verb: str) -> None:
    files = {"README.md": readme("docker build -t trainer .\ndocker run -d --gpus all trainer", command)}
    assert found(tmp_path, files) == [(9, said(verb, "trainer_gpu"), "likely")]


@pytest.mark.parametrize(
    "files",
    [
        # a name the README's run gives, on the same line or another
        {"README.md": readme("docker run -d --name trainer_gpu trainer && docker exec -it trainer_gpu bash")},
        {"README.md": readme("docker run -d --name=trainer_gpu trainer", "docker logs trainer_gpu")},
        # compose: container_name, a service, Compose's own name
        {
            "compose.yaml": "services:\n  web:\n    build: .\n    container_name: trainer_gpu\n",
            "README.md": readme("docker compose up -d", "docker exec -it trainer_gpu bash"),
        },
        {
            "compose.yaml": "services:\n  web:\n    build: .\n",
            "README.md": readme("docker compose up -d", "docker exec -it web bash"),
        },
        {
            "compose.yaml": "services:\n  web:\n    build: .\n",
            "README.md": readme("docker compose up -d", "docker exec -it detector-web-1 bash"),
        },
        # a script the README runs names it, or a Makefile, or a devcontainer
        {
            "scripts/start.sh": '#!/bin/sh\nNAME=trainer_gpu\ndocker run -d --name "$NAME" trainer\n',
            "README.md": readme(
                "./scripts/start.sh", "docker run --rm trainer true", "docker exec -it trainer_gpu sh"
            ),
        },
        {
            "Makefile": "run:\n\tdocker run -d --name trainer_gpu trainer\n",
            "README.md": readme("make run", "docker run --rm trainer true", "docker exec -it trainer_gpu sh"),
        },
        # placeholders and IDs
        {"README.md": readme("docker run -d trainer", "docker exec -it <container> bash")},
        {"README.md": readme("docker run -d trainer", "docker exec -it CONTAINER_ID bash")},
        {"README.md": readme("docker run -d trainer", "docker exec -it $NAME bash")},
        {"README.md": readme("docker run -d trainer", "docker exec -it my_container bash")},
        {"README.md": readme("docker run -d trainer", "docker logs 3f2a9c1b7d4e")},
        {"README.md": readme("docker run -d trainer", "docker exec -it $(docker ps -q) bash")},
        # a server the reader may run on their own
        {"README.md": readme("docker run -d trainer", "docker exec -it postgres psql -U lab")},
        # the README says the name elsewhere
        {
            "README.md": readme("docker run -d trainer")
            + "\nThe IDE starts `trainer_gpu` for you.\n\n"
            + readme("docker exec -it trainer_gpu bash")
        },
        # a README that starts no container addresses one started elsewhere
        {"README.md": readme("docker exec -it trainer_gpu bash")},
    ],
)
def test_names_something_gives_or_that_cannot_be_told(tmp_path: Path, files: dict[str, str]) -> None:
    assert found(tmp_path, files) == []


def test_a_script_linked_from_outside_the_project_names_nothing(tmp_path: Path) -> None:
    # A link to a file out of the project is not read: its `--name` is no name this project gives.
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/start.sh").write_text("docker run --name trainer_gpu trainer\n")
    proj = tmp_path / "proj"
    files = {
        "README.md": readme(
            "docker build -t trainer .\ndocker run -d --gpus all trainer", "docker logs trainer_gpu"
        )
    }
    make_tree(proj, {"Dockerfile": APP, **files})
    (proj / "start.sh").symlink_to(tmp_path / "outside/start.sh")
    assert found(proj, files) == [(9, said("logs", "trainer_gpu"), "likely")]
    # the same file in the project names it; binary, empty and Latin-1 files beside it say nothing
    (proj / "start.sh").unlink()
    (proj / "start.sh").write_text("docker run --name trainer_gpu trainer\n")
    (proj / "blob.sh").write_bytes(b"\x00\xff\xfe\x00")
    (proj / "empty.sh").write_bytes(b"")
    (proj / "latin.sh").write_bytes(b"caf\xe9\n")
    assert found(proj, files) == []
