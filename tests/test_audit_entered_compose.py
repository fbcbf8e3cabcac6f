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


CLONED = "git clone https://github.com/acme/tools.git\ncd tools\ndocker compose build"


def cloned(root: Path, block: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    """The findings on a README kept in `docker/x/` beside its compose file, in a checkout of
    acme/tools, whose block is `block`."""
    tree = {
        ".git/config": '[remote "origin"]\n\turl = https://github.com/acme/tools.git\n',
        ".git/HEAD": "ref: refs/heads/main\n",
        "docker/x/Dockerfile": APP,
        "docker/x/docker-compose.yml": SERVICE,
        "docker/x/README.md": f"# X\n\n```sh\n{block}\n```\n",
    }
    make_tree(root, tree | (files or {}))
    model = build_model(root / "docker/x/Dockerfile", "Dockerfile")
    page = root / "docker/x/README.md"
    text = page.read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, page.parent)]


@pytest.mark.parametrize(
    ("block", "line", "verb"),
    [
        (CLONED, 6, "build"),
        ("git clone https://github.com/acme/tools && cd tools\ndocker compose up -d", 5, "up"),
        ("git clone git@github.com:acme/tools.git\ncd tools/\ndocker compose build", 6, "build"),
    ],
)
def test_a_build_at_the_root_of_a_clone_of_this_repository_whose_compose_file_is_below(
    tmp_path: Path, block: str, line: int, verb: str
) -> None:
    assert cloned(tmp_path, block) == [
        (
            line,
            f"README runs docker compose {verb} in tools (a clone of this repository), but no compose.yaml, "
            "compose.yml, docker-compose.yml or docker-compose.yaml is in that folder nor in one above it",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("block", "files"),
    [
        # the compose file is at the root, or the steps go on to its folder or name it
        (CLONED, {"compose.yaml": SERVICE}),
        (CLONED.replace("cd tools", "cd tools/docker/x"), {}),
        (CLONED.replace("cd tools\n", "cd tools\ncd docker/x\n"), {}),
        (CLONED.replace("build", "-f docker/x/docker-compose.yml build"), {}),
        # a step between that may make the file
        (CLONED.replace("cd tools\n", "cd tools\ncp docker/x/docker-compose.yml .\n"), {}),
        (CLONED.replace("cd tools\n", "cd tools\n./configure --gpu\n"), {}),
        # a clone of another repository: its files are not this checkout's
        (
            CLONED.replace("acme/tools", "YOUR_USERNAME/tools-docker").replace("cd tools", "cd tools-docker"),
            {},
        ),
        (CLONED.replace("acme/tools", "other/kit").replace("cd tools", "cd kit"), {}),
        # a branch of its own, or a folder entered that the clone does not make
        (CLONED.replace("clone ", "clone -b v2 "), {}),
        ("cd tools\ngit clone https://github.com/acme/tools.git\ndocker compose build", {}),
    ],
)
def test_builds_in_a_clone_that_holds_the_file_or_is_not_known_are_no_finding(
    tmp_path: Path, block: str, files: dict[str, str]
) -> None:
    assert cloned(tmp_path, block, files) == []
