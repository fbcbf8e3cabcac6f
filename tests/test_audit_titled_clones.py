"""`steps.said_remotes`: outside a git checkout, a `git clone` of the repository the README's title
names, whose block ends by entering the clone while the next block runs a script of the checkout that
not every repository has, is a clone of this very repository: the scripts run after it are read, and
one the repository lacks is a finding. A clone of another name, or one whose next block runs only
common scripts, stops the reading."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit

README = """\
# {title}
A container of ROS 2 with a GPU.

## How to use
1. Clone this repository and move to its root
```bash
$ git clone https://github.com/someone/ros2_gpu_workspace.git
$ cd ros2_gpu_workspace
```

2. Build and run
```bash
$ . {first}
```
When you only start the container
```bash
$ . start_only_container.sh
```
"""


def found(root: Path, title: str = "ros2_gpu_workspace", first: str = "first_build_and_run.sh") -> list[str]:
    make_tree(
        root,
        {
            "README.md": README.format(title=title, first=first),
            "Dockerfile": "FROM osrf/ros:humble-desktop\n",
            "first_build_and_run.sh": "docker compose up -d --build\n",
            "run.sh": "docker compose up -d\n",
            "rebuild_and_run.sh": "docker compose up -d --build --force-recreate\n",
        },
    )
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [], {}, root, root)
        if "start_only_container" in d.message
    ]


@pytest.mark.parametrize("title", ["ros2_gpu_workspace", "ROS2 GPU Workspace"])
def test_a_script_missing_after_a_clone_the_title_names(tmp_path: Path, title: str) -> None:
    assert [f.split(",")[0] for f in found(tmp_path, title)] == ["17: README runs start_only_container.sh"]


@pytest.mark.parametrize(
    ("title", "first"),
    [
        ("ROS 2 helpers", "first_build_and_run.sh"),  # the title names another project
        ("ros2_gpu_workspace", "run.sh"),  # a script any repository may have: no sign of this one
    ],
)
def test_a_clone_not_told_to_be_this_repository_stops_the_reading(
    tmp_path: Path, title: str, first: str
) -> None:
    assert found(tmp_path, title, first) == []
