"""`edited_configs`: a comment line of a command block that is a step telling the reader to edit a
settings file (`# update vscode-image.jsonc`) the project holds nowhere is a finding; a comment naming a
file the project has, one that is no edit step, or a file an earlier step makes, is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit

README = """\
# Dev container image

## Build a customised image

```bash
npm install -g @devcontainers/cli
{before}
{comment}

devcontainer build \\
    --workspace-folder . \\
    --config .devcontainer/torch-devcontainer.jsonc \\
    --image-name someone/torch-devcontainer:dev
```
"""


def found(root: Path, comment: str, before: str = "") -> list[str]:
    make_tree(
        root,
        {
            "README.md": README.format(comment=comment, before=before),
            ".devcontainer/torch-devcontainer.jsonc": "{}\n",
            "Dockerfile": "FROM pytorch/pytorch:2.1.0-cuda11.8-cudnn8-devel\n",
            "defaults/settings.example.yaml": "a: 1\n",
        },
    )
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [], {}, root, root)
        if "edit" in d.message
    ]


@pytest.mark.parametrize(
    "comment", ["# update vscode-torch-image.jsonc", "# Edit `vscode-torch-image.jsonc`:"]
)
def test_a_comment_step_editing_a_file_the_project_lacks(tmp_path: Path, comment: str) -> None:
    assert found(tmp_path, comment) == [
        "8: README has the reader edit vscode-torch-image.jsonc for its settings, but the project has no "
        "vscode-torch-image.jsonc: not in the README's folder nor in any other folder, and nothing the "
        "README runs makes it (likely)"
    ]


@pytest.mark.parametrize(
    ("comment", "before"),
    [
        ("# update torch-devcontainer.jsonc", ""),  # the project has it (in .devcontainer/)
        ("# update the packages in vscode-torch-image.jsonc to your needs", ""),  # no step of its own
        ("# edit settings.yaml", "cp defaults/settings.example.yaml settings.yaml"),  # made just before
    ],
)
def test_comments_on_files_there_or_made_are_silent(tmp_path: Path, comment: str, before: str) -> None:
    assert found(tmp_path, comment, before) == []
