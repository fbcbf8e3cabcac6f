"""`docgen audit` (docgen/audit/described_copies.py): a file the README describes by the words of its
name (`Pre-configured with sample workflows`) that the audited Dockerfile copies while no folder of the
project holds it; and the shapes that stay silent (the file is there, the README names it or says to
make it, a one-word name, a folder or several parts of the project missing, a README that builds the
image itself, where the build's own finding tells it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

COMFY = """\
ARG BASE_IMAGE=rocm/pytorch:latest
FROM ${BASE_IMAGE}
WORKDIR /workspace
COPY docker/requirements_rocm.txt /workspace/
RUN pip install -r requirements_rocm.txt
COPY docker/startup.sh /workspace/startup.sh
COPY docker/sample_workflow.json /workspace/ComfyUI/
CMD ["/workspace/startup.sh"]
"""
"""A node-graph UI image for AMD GPUs (the shape of a ComfyUI-on-ROCm one): its requirements, its start
script and a workflow to open first, each copied from docker/ with the repository's root as context."""
COMFY_README = """\
# ComfyUI for ROCm

## Features

- Tested compatibility: every dependency verified on real hardware
- Ready to use: pre-configured with sample workflows

## Quick Start

```bash
docker compose up -d
```
"""

GALLERY = """\
FROM python:3.11-slim
COPY requirements.txt /app/
COPY app.py /app/
COPY demo_images.tar /app/
COPY default_theme.css /app/static/
"""
"""A small image-gallery web app (the shape of a Gradio demo's): its code, a theme file and demo images."""
GALLERY_README = "# Gallery\n\nThe app opens with the default theme and a few demo images.\n"


def found(root: Path, files: dict[str, str], dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, files)
    model = build_model(root / dockerfile, dockerfile)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "copies them from" in d.message
    ]


def comfy(**changes: str) -> dict[str, str]:
    files = {
        "README.md": COMFY_README,
        "docker/Dockerfile": COMFY,
        "docker/requirements_rocm.txt": "torch\n",
        "docker/startup.sh": "#!/bin/sh\n",
        "docker-compose.yaml": "services:\n  comfyui:\n    image: org/comfyui-rocm:latest\n",
    }
    return {k: v for k, v in {**files, **changes}.items() if v}


def test_a_feature_whose_file_no_folder_holds(tmp_path: Path) -> None:
    assert found(tmp_path, comfy(), "docker/Dockerfile") == [
        (
            6,
            "README describes sample workflows, but docker/Dockerfile:7 copies them from "
            "docker/sample_workflow.json, which no folder of the project holds: the image's build stops "
            "at that COPY",
            "likely",
        )
    ]


def test_words_of_a_name_read_apart_by_a_dash_or_a_blank(tmp_path: Path) -> None:
    files = {"README.md": GALLERY_README, "Dockerfile": GALLERY, "requirements.txt": "", "app.py": "x"}
    files = {k: v or "\n" for k, v in files.items()}
    files["demo_images.tar"] = "x"
    assert [m.split(",")[0] for _, m, _ in found(tmp_path, files, "Dockerfile")] == [
        "README describes default theme"
    ]


@pytest.mark.parametrize(
    "changes",
    [
        {"docker/sample_workflow.json": "{}"},  # it is there
        # the README names the file: one it tells the reader to bring
        {"README.md": COMFY_README + "\nPut your sample_workflow.json in docker/ before building.\n"},
        # the sentence tells to make one
        {"README.md": COMFY_README.replace("pre-configured with", "save your own")},
        # a one-word name: `workflow` may mean anything
        {"docker/Dockerfile": COMFY.replace("sample_workflow.json", "workflow.json")},
        # a folder is missing too: a copy of some of the project's files
        {"docker/Dockerfile": COMFY + "COPY docker/nodes /workspace/ComfyUI/custom_nodes\n"},
        # none of the other sources is there either: a README and a Dockerfile copied alone
        {"docker/startup.sh": "", "docker/requirements_rocm.txt": ""},
        # nothing the README says names it
        {"README.md": COMFY_README.replace("sample workflows", "a tuned default graph")},
    ],
)
def test_files_the_readme_accounts_for_or_a_copy_may_lack(tmp_path: Path, changes: dict[str, str]) -> None:
    assert found(tmp_path, comfy(**changes), "docker/Dockerfile") == []


def test_a_build_the_readme_runs_tells_it_once(tmp_path: Path) -> None:
    readme = COMFY_README.replace("docker compose up -d", "docker build -f docker/Dockerfile -t comfy .")
    make_tree(tmp_path, comfy(**{"README.md": readme}))
    model = build_model(tmp_path / "docker/Dockerfile", "docker/Dockerfile")
    messages = [d.message for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path)]
    assert [m for m in messages if "sample_workflow.json" in m] == [
        "README builds docker/Dockerfile with the context ., which does not hold docker/sample_workflow.json "
        "(line 7) that it copies, and no folder of the project has it"
    ]


def test_a_project_read_through_a_link_to_its_folder(tmp_path: Path) -> None:
    """The project opened by a symlinked path (`~/work` -> `/data/work`): the Dockerfile's folders are
    compared with the project's top with the links of both resolved, so the finding stays."""
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert [f[0] for f in found(tmp_path / "link", comfy(), "docker/Dockerfile")] == [6]
