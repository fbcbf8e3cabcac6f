"""`docgen audit` (docgen/audit/recipe_cds.py): a `cd DIR` that a Makefile recipe a README `make` command
runs, or a script the README runs, makes into a folder that is not there while one of that name is
elsewhere in the project; and the shapes that stay silent: the folder there, one a step makes first, a
variable, a folder no one has, an ignored one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

COMPOSE = "services:\n  llm:\n    image: vllm/vllm-openai:v0.8.5\n"
MAKEFILE = """\
.PHONY: up-small up-large down-small

check:
\t@test -f .env || (echo "copy .env.example first" && exit 1)

up-small: check ## Start the small model
\t@echo "starting"
\tcd models/mistral-7b && docker compose up -d && cd ../..

up-large: check
\tcd models/llama-70b && docker compose up -d

down-small:
\tcd models/mistral-7b && docker compose down
"""
"""A model-serving stack's Makefile (the shape of one that keeps a compose file per model): the small
model's recipes name a folder under models/ while the project keeps it at its top."""
SERVING = """\
# LLM serving

```bash
cp .env.example .env
make up-small
make up-large
```

Stop with `make down-small`.
"""


def tree(**change: str) -> dict[str, str]:
    return {
        "Dockerfile": "FROM alpine:3.20\n",
        "README.md": SERVING,
        "Makefile": MAKEFILE,
        ".env.example": "HF_TOKEN=\n",
        "mistral-7b/docker-compose.yml": COMPOSE,
        "models/llama-70b/docker-compose.yml": COMPOSE,
        **change,
    }


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if " holds no folder " in d.message
    ]


def test_a_recipe_entering_a_folder_kept_elsewhere(tmp_path: Path) -> None:
    assert found(tmp_path, tree()) == [
        (
            5,
            "README runs make up-small, whose recipe (Makefile:8) runs cd models/mistral-7b from the "
            "Makefile's folder, but models/ holds no folder mistral-7b/ (a folder of that name is at the "
            "top): the line stops at the cd",
            "certain",
        ),
        (
            9,
            "README runs make down-small, whose recipe (Makefile:14) runs cd models/mistral-7b from the "
            "Makefile's folder, but models/ holds no folder mistral-7b/ (a folder of that name is at the "
            "top): the line stops at the cd",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    "change",
    [
        # the folder is where the recipe says
        {"models/mistral-7b/docker-compose.yml": COMPOSE},
        # no folder of the name anywhere: one the reader makes, or a copy lacks
        {"mistral-7b/docker-compose.yml": "", "Makefile": MAKEFILE.replace("mistral-7b", "qwen-14b")},
        # an earlier recipe line makes it
        {"Makefile": MAKEFILE.replace('\t@echo "starting"', "\tmkdir -p models/mistral-7b")},
        # a variable: where it leads is not known
        {"Makefile": MAKEFILE.replace("cd models/mistral-7b", "cd $(MODEL_DIR)")},
        # left out of git: the reader's own
        {".gitignore": "models/mistral-7b/\n"},
        # a README line before the command makes it
        {"README.md": SERVING.replace("make up-small", "cp -r mistral-7b models/\nmake up-small")},
    ],
)
def test_what_stays_silent(tmp_path: Path, change: dict[str, str]) -> None:
    files = {k: v for k, v in tree(**change).items() if v}
    assert [d for d in found(tmp_path, files) if "up-small" in d[1]] == []


ROS_SCRIPT = """\
#!/bin/bash
set -e
# build the workspace
cd catkin_ws/src
git clone https://example.org/driver.git
cd ..
catkin_make
"""
"""A robot driver's setup script (the shape of a ROS workspace builder): it enters catkin_ws/src from
where it is run, while the project keeps the workspace under ros/."""
ROS_README = """\
# Driver

Set up the workspace:

```
./setup.sh
```
"""


def test_a_script_entering_a_folder_kept_elsewhere(tmp_path: Path) -> None:
    files = {
        "Dockerfile": "FROM ros:noetic\n",
        "README.md": ROS_README,
        "setup.sh": ROS_SCRIPT,
        "ros/catkin_ws/src/CMakeLists.txt": "",
        "ros/catkin_ws/.keep": "",
    }
    assert found(tmp_path, files) == [
        (
            6,
            "README runs ./setup.sh, whose line 4 runs cd catkin_ws/src from ./, but the folder holds no "
            "folder catkin_ws/ (a folder of that name is at ros/): the script's commands after it run "
            "elsewhere or not at all",
            "likely",
        )
    ]
    # a script that enters its own folder first, where the workspace is: silent
    own = ROS_SCRIPT.replace("set -e\n", 'set -e\ncd "$(dirname "$0")/ros"\n')
    files["setup.sh"] = own
    assert found(tmp_path / "own", files) == []
    # a script that makes the workspace first
    files["setup.sh"] = ROS_SCRIPT.replace("set -e\n", "set -e\nmkdir -p catkin_ws/src\n")
    assert found(tmp_path / "made", files) == []
