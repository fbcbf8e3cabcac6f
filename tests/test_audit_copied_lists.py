"""`file_lists.listed_absent`: a file a list or tree of the README's files names that the Dockerfile
beside it copies, and that is not there, is `certain` (the build stops at that COPY), a path with a
folder too; outside a git checkout only when it is the one source of the COPYs missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM pytorch/pytorch:2.1.2-cuda12.1-cudnn8-runtime
WORKDIR /app
COPY requirements.txt ./requirements.txt
RUN pip install -r requirements.txt --no-cache-dir
COPY start.sh ./start.sh
ENTRYPOINT ["./start.sh"]
"""

README = """\
# vLLM server image

## Files in This Repository

- **Dockerfile**: the container environment.
- **start.sh**: starts the server.
- **requirements.txt**: {said}
"""

TREE_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /app
COPY app/requirements.txt ./app/requirements.txt
RUN pip install --no-cache-dir -r ./app/requirements.txt
COPY app/ ./app/
"""

TREE_README = """\
# Mini LLM app

## Repository Structure

```text
mini-app/
├── README.md
├── Dockerfile
├── app/
│   ├── main.py
│   └── requirements.txt
└── scripts/
    ├── bench.py
    └── smoke.sh
```
"""


def found(root: Path, files: dict[str, str]) -> list[str]:
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root, root)
        if "among the files" in d.message
    ]


def test_a_listed_file_the_dockerfile_copies(tmp_path: Path) -> None:
    files = {
        "README.md": README.format(said="Python dependencies of the container."),
        "Dockerfile": DOCKERFILE,
        "start.sh": "vllm serve\n",
    }
    assert found(tmp_path, files) == [
        "7: README lists requirements.txt among the files of its folder, which does not exist there, but "
        "Dockerfile copies it (line 3): its build stops at that COPY (certain)"
    ]


def test_a_path_with_a_folder_in_a_tree_is_certain(tmp_path: Path) -> None:
    files = {
        "README.md": TREE_README,
        "Dockerfile": TREE_DOCKERFILE,
        "app/main.py": "app = None\n",
        "scripts/bench.py": "",
        "scripts/smoke.sh": "",
    }
    assert found(tmp_path, files) == [
        "11: README lists app/requirements.txt among the files of its folder, which does not exist there, "
        "but Dockerfile copies it (line 3): its build stops at that COPY (certain)"
    ]


@pytest.mark.parametrize(
    ("said", "start"),
    [
        ("create it with `pip freeze > requirements.txt`.", True),  # the reader makes it
        ("Python dependencies of the container.", False),  # two sources missing: a partial copy
    ],
)
def test_a_file_the_reader_brings_or_a_partial_copy_is_silent(tmp_path: Path, said: str, start: bool) -> None:
    files = {"README.md": README.format(said=said), "Dockerfile": DOCKERFILE}
    if start:
        files["start.sh"] = "vllm serve\n"
    assert found(tmp_path, files) == []
