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


CHAIN_TREE = """\
```
deploy/
├── Dockerfile
├── Dockerfile.cuda
├── Makefile
├── compose.prod.yaml
├── entrypoint.sh
├── requirements.txt
├── .dockerignore
├── k8s-*.yaml              # Kubernetes manifests
├── config_<SITE>.sh        # one per site, kept outside the repository
└── src/webapp/
    ├── app.py
    ├── settings.py
    └── templates/index.html
```
"""
CHAIN_FILES = {
    "deploy/Makefile": "all:\n",
    "deploy/requirements.txt": "flask\n",
    "deploy/.dockerignore": ".git\n",
    "deploy/k8s-service.yaml": "kind: Service\n",
    "deploy/src/webapp/app.py": "",
    "deploy/src/webapp/settings.py": "",
    "deploy/src/webapp/templates/index.html": "",
}


def test_a_tree_with_a_folder_chain_a_pattern_and_a_filled_in_name(tmp_path: Path) -> None:
    # a branch naming two folders at once (`src/webapp/`) holds the files under both; a pattern
    # (`k8s-*.yaml`) is there when a file matches it; `config_<SITE>.sh` is a name to fill in
    readme = f"# Deploy\n\n## Project structure\n\n{CHAIN_TREE}"
    assert found(tmp_path, readme, CHAIN_FILES) == []


def test_a_tree_whose_pattern_or_chained_file_is_gone(tmp_path: Path) -> None:
    readme = f"# Deploy\n\n## Project structure\n\n{CHAIN_TREE}"
    gone = ("deploy/k8s-service.yaml", "deploy/src/webapp/settings.py")
    extra = {k: v for k, v in CHAIN_FILES.items() if k not in gone}
    suffix = "among the files of its folder, which does not exist there"
    assert found(tmp_path, readme, extra) == [
        (14, f"README lists k8s-*.yaml {suffix}", "likely"),
        (18, f"README lists src/webapp/settings.py {suffix}", "likely"),
    ]
