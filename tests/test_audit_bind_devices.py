"""`docgen.audit.bind_devices`: a `docker compose up` whose compose file binds a named volume (`driver:
local`, `o: bind`, `device: ${PWD}/folder`) to a folder a clone does not have (missing, ignored by
`.gitignore`) while nothing of the README makes it (`likely`); a folder the README names or makes, one
the checkout has or git keeps, an absolute or relative device, another driver, a `cd` and a service the
command does not start are not findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

pytest.importorskip("yaml")

COMPOSE = """\
services:
  webui:
    build: .
    volumes:
      - weights:/app/weights
      - plugins:/app/plugins
    ports:
      - 7000:7000
  worker:
    build: .
volumes:
  weights:
    driver: local
    driver_opts:
      type: none
      o: bind
      device: ${PWD}/weights
  plugins:
    driver: local
    driver_opts:
      type: none
      o: bind
      device: ${PWD}/plugins
"""


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    tree = {
        "README.md": readme,
        "Dockerfile": 'FROM python:3.12-slim\nCMD ["python", "app.py"]\n',
        "compose.yaml": COMPOSE,
        ".gitignore": "/weights\n/plugins\n/outputs\n",
        **(files or {}),
    }
    make_tree(root, {k: v for k, v in tree.items() if v is not None})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "refuses a missing device" in d.message
    ]


WEBUI = "# Web UI\n\n## Installation\n\nRun `docker compose up` and add `-d` to run it in the background.\n"


def test_bound_folders_a_clone_lacks(tmp_path: Path) -> None:
    # a web UI's README: one inline command, four (here two) volumes bound under $PWD, all gitignored
    assert found(tmp_path, WEBUI) == [
        "5: README runs docker compose up, but compose.yaml binds volumes weights (line 12), plugins (line "
        "18) to folders under $PWD a clone does not have (.gitignore ignores weights plugins) and nothing of "
        "the README makes: the local driver refuses a missing device, so up fails (mkdir weights plugins "
        "first) (likely)"
    ]


def test_a_bound_folder_below_an_ignored_one(tmp_path: Path) -> None:
    # a blog-style compose file: no `driver:` line, the device deeper, its parent folder ignored
    compose = (
        "services:\n  web:\n    image: nginx\n    volumes:\n      - content:/usr/share/nginx/html\n"
        "volumes:\n  content:\n    driver_opts:\n      type: none\n      device: $PWD/site/content\n"
        "      o: bind\n"
    )
    readme = "# Site\n\n```bash\ndocker-compose up -d\n```\n"
    assert found(tmp_path, readme, {"compose.yaml": compose, ".gitignore": "site/\n"}) == [
        "4: README runs docker compose up, but compose.yaml binds volume content (line 7) to a folder under "
        "$PWD a clone does not have (.gitignore ignores site/content) and nothing of the README makes: the "
        "local driver refuses a missing device, so up fails (mkdir site/content first) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the README makes the folders, or tells of them
        ("# Web UI\n\n```bash\nmkdir -p weights plugins\ndocker compose up -d\n```\n", {}),
        (WEBUI + "\nPut the checkpoints in `weights/` and the add-ons in `plugins/` first.\n", {}),
        # a script the README runs makes them (or cannot be read)
        (
            "# Web UI\n\n```bash\n./prepare.sh\ndocker compose up -d\n```\n",
            {"prepare.sh": "#!/bin/sh\nmkdir -p weights plugins\n"},
        ),
        ("# Web UI\n\n```bash\n./prepare.sh\ndocker compose up -d\n```\n", {}),
        # the checkout has the folders (git keeps them), or git does not ignore them
        (WEBUI, {"weights/.gitkeep": "", "plugins/.gitkeep": ""}),
        (WEBUI, {".gitignore": "/outputs\n"}),
        (WEBUI, {".gitignore": "/weights/*\n!/weights/.gitkeep\n/plugins/*\n!/plugins/.gitkeep\n"}),
        # devices that are no folder of the checkout under $PWD
        (WEBUI, {"compose.yaml": COMPOSE.replace("${PWD}/weights", "/srv/weights").replace("${PWD}/", "./")}),
        # another driver, and a service the command does not start
        (WEBUI, {"compose.yaml": COMPOSE.replace("driver: local", "driver: rclone")}),
        ("# Web UI\n\n```bash\ndocker compose up -d worker\n```\n", {}),
        # the README enters another folder: $PWD is not the README's
        ("# Web UI\n\n```bash\ncd deploy\ndocker compose up -d\n```\n", {}),
        # no up at all
        ("# Web UI\n\n```bash\ndocker compose build\n```\n", {}),
    ],
)
def test_no_bind_device_claim(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert found(tmp_path, readme, files) == []
