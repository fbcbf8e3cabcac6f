"""`docgen audit`: a list of the files of the README's folder naming one that is not there
(docgen/audit/file_lists.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
FILES = {
    "deploy/Dockerfile": APP,
    "deploy/Dockerfile.cuda": APP,
    "deploy/compose.prod.yaml": "services: {}\n",
    "deploy/entrypoint.sh": "#!/bin/sh\n",
    "compose.yaml": "services: {}\n",
}
LISTED = """\
- `compose.yaml` - the main compose file
- `compose.prod.yaml` - production overrides
- `Dockerfile` - the CPU image
- `Dockerfile.cuda` - the CUDA image
- `entrypoint.sh`: starts the server
"""
HERE = LISTED.replace("- `compose.yaml` - the main compose file\n", "")


def found(root: Path, readme: str, extra: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    make_tree(root, {**FILES, **(extra or {}), "deploy/README.md": readme})
    folder = root / "deploy"
    model = build_model(folder / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, folder, root)
        if "among the files" in d.message
    ]


def test_a_listed_file_of_this_folder_that_is_elsewhere(tmp_path: Path) -> None:
    readme = f"# Deploy\n\nThis directory holds what deploys the service.\n\n## Files\n\n{LISTED}"
    assert found(tmp_path, readme) == [
        (
            7,
            "README lists compose.yaml among the files of its folder, which does not exist there (there is "
            "one at ../compose.yaml)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("intro", "line", "confidence"),
    [
        ("## Project structure\n\n", 5, "likely"),
        ("## Layout\n\nWhat is in this folder:\n\n", 7, "certain"),
        ("## Overview\n\nThe files:\n\n", 7, "likely"),
    ],
)
def test_other_words_for_a_list_of_files(tmp_path: Path, intro: str, line: int, confidence: str) -> None:
    listed = LISTED.replace("`compose.yaml` - the main", "**compose.yml**: the main")
    assert [(n, c) for n, _, c in found(tmp_path, f"# Deploy\n\n{intro}{listed}")] == [(line, confidence)]


@pytest.mark.parametrize(
    "readme",
    [
        f"# Deploy\n\n## Files\n\n{HERE}",  # all there
        f"# Deploy\n\n## Usage\n\n{LISTED}",  # not said to be files of a folder
        f"# Deploy\n\n## Files\n\nThe build will generate:\n\n{LISTED}",  # files to come
        f"# Deploy\n\n```sh\ntouch compose.yaml\n```\n\n## Files\n\n{LISTED}",  # the README makes it
        "# Deploy\n\n## Files\n\n- `a.yaml` - one\n- `b.yaml` - two\n- `Dockerfile` - the image\n",  # few
        f"# Deploy\n\n## Files\n\n{HERE}- `server.log` - what the server writes\n- `.env` - settings\n",
        # written by a run, or by the reader
    ],
)
def test_lists_that_say_nothing_of_a_missing_file(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


def test_a_file_git_ignores_is_no_claim(tmp_path: Path) -> None:
    readme = f"# Deploy\n\n## Files\n\n{LISTED}"
    assert found(tmp_path, readme, {"deploy/.gitignore": "compose.yaml\n"}) == []


TREE = """\
```
deploy/
├── Dockerfile
├── Dockerfile.cuda
├── compose.prod.yaml
├── scripts/
│   └── build.sh          # builds both images
├── logs/                 # written at run time
└── entrypoint.sh
```
"""


def test_a_tree_of_the_folder_naming_a_file_that_is_not_there(tmp_path: Path) -> None:
    readme = f"# Deploy\n\n## Project structure\n\n{TREE}"
    assert found(tmp_path, readme, {"deploy/scripts/run.sh": "#!/bin/sh\n"}) == [
        (
            11,
            "README lists scripts/build.sh among the files of its folder, which does not exist there",
            "likely",
        )
    ]
    # nor a folder that is not there (git keeps no empty folder), nor the files under it
    assert found(tmp_path / "other", readme) == []


@pytest.mark.parametrize(
    ("readme", "extra"),
    [
        (f"# Deploy\n\n## Project structure\n\n{TREE}", {"deploy/scripts/build.sh": ""}),  # all there
        (f"# Deploy\n\n## Usage\n\n{TREE}", {"deploy/scripts/run.sh": ""}),  # not about files
        (
            f"# Deploy\n\n## Layout\n\nAfter the build the folder will look like:\n\n{TREE}",
            {"deploy/scripts/run.sh": ""},
        ),  # files to come
    ],
)
def test_trees_that_say_nothing_of_a_missing_file(tmp_path: Path, readme: str, extra: dict[str, str]) -> None:
    assert found(tmp_path, readme, extra) == []
