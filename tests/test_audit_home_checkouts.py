"""`docgen.audit.home_checkouts`: a path below the home folder a README enters to start the compose
project of its own folder (`cd ~/dev/app && docker compose up -d`, then `cp ~/dev/app/cfg.json …`) that
the README's folder does not hold is a finding; one it holds, one a command writes or a line before
makes, one of a folder where no compose command runs, and one without a compose file beside the README
are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit

COMPOSE = "services:\n  llm:\n    image: ghcr.io/example/llm-server:1.2\n    ports: ['8000:8000']\n"

QUICK_START = """\
# Local LLM server

## Quick start

```bash
export HF_TOKEN=your_token_here
{enter}
docker logs -f llm-server
mkdir -p ~/.config/agent
{command}
```
"""


def found(
    root: Path,
    command: str,
    enter: str = "cd ~/dev/llm-box && docker compose up -d",
    files: dict[str, str] | None = None,
    readme: str = QUICK_START,
) -> list[str]:
    text = readme.format(enter=enter, command=command)
    make_tree(root, {"README.md": text, **({"docker-compose.yml": COMPOSE} if files is None else files)})
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [], {}, root)
        if "a path of this checkout" in d.message
    ]


def test_planted(tmp_path: Path) -> None:
    assert found(tmp_path, "cp ~/dev/llm-box/agent.json ~/.config/agent/agent.json") == [
        "10: README reads ~/dev/llm-box/agent.json, a path of this checkout (line 7 starts its compose "
        "project from ~/dev/llm-box), which does not hold agent.json (likely)"
    ]


def test_planted_on_two_lines_with_home(tmp_path: Path) -> None:
    readme = """\
# Notes service

Start it from your clone:

```sh
cd $HOME/src/notes
docker compose up --build -d
```

Then load the sample data:

```sh
psql -h localhost -f $HOME/src/notes/sql/seed.sql
```
"""
    text = readme
    make_tree(tmp_path, {"README.md": text, "compose.yaml": COMPOSE, "sql/schema.sql": "--\n"})
    assert [
        f"{d.line}: {d.message}"
        for d in audit(text, "README.md", [], {}, tmp_path)
        if "checkout" in d.message
    ] == [
        "13: README reads $HOME/src/notes/sql/seed.sql, a path of this checkout (line 6 starts its compose "
        "project from ~/src/notes), which does not hold sql/seed.sql"
    ]


@pytest.mark.parametrize(
    ("command", "enter", "files"),
    [
        # the checkout holds it
        (
            "cp ~/dev/llm-box/agent.json ~/.config/agent/",
            None,
            {"docker-compose.yml": COMPOSE, "agent.json": "{}"},
        ),
        # a command writes it
        ("cp agent.json ~/dev/llm-box/agent.json", None, None),
        ("curl -s localhost:8000/v1/models > ~/dev/llm-box/models.json", None, None),
        ("curl -o ~/dev/llm-box/models.json localhost:8000/v1/models", None, None),
        # made by a line before
        ("touch ~/dev/llm-box/agent.json && cp ~/dev/llm-box/agent.json ~/.config/agent/", None, None),
        # no compose command in the folder entered: it may be any folder
        ("cp ~/dev/llm-box/agent.json ~/.config/agent/", "cd ~/dev/llm-box && ls", None),
        # a container run there, no compose project
        (
            "cp ~/dev/llm-box/agent.json ~/.config/agent/",
            "cd ~/dev/llm-box && docker run -d -p 8000:8000 ghcr.io/example/llm-server:1.2",
            None,
        ),
        # a compose file named with -f: another project
        (
            "cp ~/dev/llm-box/agent.json ~/.config/agent/",
            "cd ~/dev/llm-box && docker compose -f x.yml up",
            None,
        ),
        # no compose file beside the README: the folder entered is not this checkout
        ("cp ~/dev/llm-box/agent.json ~/.config/agent/", None, {"Dockerfile": "FROM alpine\n"}),
        # a placeholder or a variable after the folder
        ("cp ~/dev/llm-box/$CONFIG ~/.config/agent/", None, None),
        ("cp ~/dev/llm-box/<your-config> ~/.config/agent/", None, None),
        # a path of another folder of the home
        ("cp ~/dev/other/agent.json ~/.config/agent/", None, None),
    ],
)
def test_traps(tmp_path: Path, command: str, enter: str | None, files: dict[str, str] | None) -> None:
    assert found(tmp_path, command, enter or "cd ~/dev/llm-box && docker compose up -d", files) == []
