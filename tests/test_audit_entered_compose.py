"""`docgen audit`: compose commands run after a `cd` into a folder with no compose file
(docgen/audit/entered_compose.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

APP = "FROM python:3.12-slim\nCOPY . /app\n"
SERVICE = "services:\n  web:\n    build: .\n"
SAID = (
    "README runs docker compose build in deploy/cuda, but no compose.yaml, compose.yml, "
    "docker-compose.yml or docker-compose.yaml is in that folder nor in one above it"
)


def found(
    root: Path, block: str, files: dict[str, str] | None = None, readme: str = "README.md", prose: str = ""
) -> list[tuple[int, str, str]]:
    tree = {"Dockerfile": APP, readme: f"# App\n\n{prose}\n\n```sh\n{block}\n```\n"}
    base = {"deploy/cuda/Dockerfile.cuda": APP, "deploy/cuda/docker-compose.mac.yml": SERVICE}
    make_tree(root, tree | base | (files or {}))
    model = build_model(root / "Dockerfile", "Dockerfile")
    page = root / readme
    text = page.read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, readme, model, {}, page.parent, root)]


def test_a_build_in_an_entered_folder_with_no_compose_file(tmp_path: Path) -> None:
    hint = " (it holds docker-compose.mac.yml)"
    assert found(tmp_path, "cd deploy/cuda\ndocker-compose build") == [(7, SAID + hint, "certain")]


def test_the_folder_is_read_from_the_root_for_a_page_in_a_subfolder(tmp_path: Path) -> None:
    result = found(tmp_path, "cd deploy/cuda\ndocker compose build", readme="deploy/cuda/README.md")
    assert [(line, message.split(" (it holds")[0]) for line, message, _ in result] == [(7, SAID)]


def test_the_same_line_cd_is_followed(tmp_path: Path) -> None:
    assert [r[0] for r in found(tmp_path, "cd deploy/cuda && docker compose build")] == [6]


@pytest.mark.parametrize("name", ["compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"])
def test_a_default_file_in_the_folder_is_silent(tmp_path: Path, name: str) -> None:
    assert found(tmp_path, "cd deploy/cuda\ndocker compose build", {f"deploy/cuda/{name}": SERVICE}) == []


def test_a_compose_file_in_a_folder_above_is_silent(tmp_path: Path) -> None:
    assert found(tmp_path, "cd deploy/cuda\ndocker compose build", {"deploy/compose.yaml": SERVICE}) == []
    assert found(tmp_path, "cd deploy/cuda\ndocker compose up", {"docker-compose.yml": SERVICE}) == []


@pytest.mark.parametrize(
    "block",
    [
        "cd deploy/cuda\ndocker compose -f docker-compose.mac.yml build",
        "cd deploy/cuda\ndocker compose --file ../../other.yml up",
        "cd deploy/cuda\ndocker compose --project-directory ../.. build",
        "cd deploy/cuda\nCOMPOSE_FILE=docker-compose.mac.yml docker compose build",
        "cd $HOME/deploy/cuda\ndocker compose build",
        "cd ~/deploy/cuda\ndocker compose build",
        "cd /opt/deploy/cuda\ndocker compose build",
        "git clone https://example.org/other/tool.git\ncd tool/deploy\ndocker compose build",
        "cd deploy/rocm\ndocker compose build",
        "cd deploy/cuda\ndocker compose version",
        "docker compose build\ncd deploy/cuda",
    ],
)
def test_traps_stay_silent(tmp_path: Path, block: str) -> None:
    assert found(tmp_path, block) == []


def test_compose_file_set_in_prose_is_silent(tmp_path: Path) -> None:
    prose = "Set `COMPOSE_FILE=docker-compose.mac.yml` in your shell first."
    assert found(tmp_path, "cd deploy/cuda\ndocker compose build", prose=prose) == []
