"""`docgen audit` (docgen/audit/references.py `context_findings`): outside a git checkout, a file the
README's own build copies that the context does not hold and no folder of the project has, while every
other source it copies is there (a file never committed, not a part of the project a copy left out);
with the build args the README passes expanding the source (`requirements-${ENV}.txt`). And the shapes
that must stay silent: a file a step above makes, a file the README names, a folder, an ignored file,
a glob, another stage's file, a heredoc, a URL context, an arg read from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

NOTEBOOK = """\
FROM nvcr.io/nvidia/cuda:11.1.1-cudnn8-devel-ubuntu18.04
ENV PROJECT_DIR /workspace/
WORKDIR ${PROJECT_DIR}
ADD ./requirements.txt ${PROJECT_DIR}
RUN pip3 install -r requirements.txt
ADD ./jupyter_notebook_config.py /home/ubuntu/.jupyter/
CMD ["jupyter", "lab"]
"""
"""A vision library's GPU dev image (the shape of one kept in docker/dev/ beside a docker/cpu/ twin):
the requirements and a Jupyter settings file, each added from the folder the README builds."""
DEV_README = """\
# Docker
## GPU
```
docker build -t vision_gpu ./
```

```
docker run --runtime=nvidia -it --rm vision_gpu /bin/bash
```
"""

PHYSICS = """\
FROM continuumio/anaconda3
WORKDIR /notebooks
ARG ENV
COPY requirements-${ENV}.txt /notebooks/requirements.txt
RUN conda install -y --file requirements.txt
"""
"""A physics-notebook image whose requirements file is picked by a build arg (one file per course)."""


def findings(root: Path, files: dict[str, str], readme_at: str = "README.md") -> list[tuple[int, str, str]]:
    make_tree(root, files)
    readme = files[readme_at]
    folder = (root / readme_at).parent
    dockerfile = str(Path(readme_at).parent / "Dockerfile")
    model = build_model(root / dockerfile, dockerfile)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, readme_at, model, {}, folder, root)
        if "that it copies" in d.message
    ]


def dev_tree(readme: str = DEV_README, dockerfile: str = NOTEBOOK, **extra: str) -> dict[str, str]:
    return {
        "docker/dev/README.md": readme,
        "docker/dev/Dockerfile": dockerfile,
        "docker/dev/requirements.txt": "torch\n",
        **extra,
    }


def test_a_settings_file_never_committed_stops_the_readmes_build(tmp_path: Path) -> None:
    assert findings(tmp_path, dev_tree(), "docker/dev/README.md") == [
        (
            4,
            "README builds ./Dockerfile with the context ./, which does not hold jupyter_notebook_config.py "
            "(line 6) that it copies, and no folder of the project has it",
            "certain",
        )
    ]


def test_two_files_missing_at_once_are_likely(tmp_path: Path) -> None:
    files = {k: v for k, v in dev_tree().items() if not k.endswith("requirements.txt")}
    [(line, message, confidence)] = findings(tmp_path, files, "docker/dev/README.md")
    assert (line, confidence) == (4, "likely")
    assert "requirements.txt (line 4), jupyter_notebook_config.py (line 6)" in message


@pytest.mark.parametrize(
    "change",
    [
        # it is there (the true statement)
        {"docker/dev/jupyter_notebook_config.py": "c = get_config()\n"},
        # a step above the build makes it
        {
            "docker/dev/README.md": DEV_README.replace(
                "docker build", "cp ../cpu/jupyter_notebook_config.py .\ndocker build"
            )
        },
        # the README names it: a file the project has, which this copy of it lacks
        {
            "docker/dev/README.md": DEV_README
            + "\nThe image reads jupyter_notebook_config.py for its token.\n"
        },
        # the context lacks a folder the Dockerfile copies too: a copy of some of the project's files
        {"docker/dev/Dockerfile": NOTEBOOK + "COPY src/ /workspace/src/\n"},
        # left out of git on purpose: the reader's own
        {"docker/dev/.gitignore": "jupyter_notebook_config.py\n"},
        # a glob, another stage's file, a heredoc: not looked for
        {"docker/dev/Dockerfile": NOTEBOOK.replace("./jupyter_notebook_config.py", "./jupyter_*.py")},
        {
            "docker/dev/Dockerfile": NOTEBOOK.replace(
                "ADD ./jupyter_notebook_config.py", "COPY --from=base /etc/jupyter_notebook_config.py"
            )
        },
        {
            "docker/dev/Dockerfile": "# syntax=docker/dockerfile:1\n"
            + NOTEBOOK.replace(
                "ADD ./jupyter_notebook_config.py /home/ubuntu/.jupyter/",
                "COPY <<EOF /home/ubuntu/.jupyter/jupyter_notebook_config.py\nc = get_config()\nEOF",
            )
        },
        # a context that is a URL: the build reads another repository
        {"docker/dev/README.md": DEV_README.replace("./\n", "github.com/lab/vision#main:docker/dev\n")},
        # a model file only a download gives: `fetched_copies` tells it, with its own words
        {"docker/dev/Dockerfile": NOTEBOOK.replace("jupyter_notebook_config.py", "weights.safetensors")},
        # a folder (no suffix), which a copy of some of the project's files may lack
        {"docker/dev/Dockerfile": NOTEBOOK.replace("./jupyter_notebook_config.py", "./notebooks")},
    ],
)
def test_what_a_copy_may_lack_or_the_readme_accounts_for_is_silent(
    tmp_path: Path, change: dict[str, str]
) -> None:
    found = findings(tmp_path, {**dev_tree(), **change}, "docker/dev/README.md")
    assert [m for _, m, _ in found if "no folder of the project has" in m] == []


def test_a_file_copied_into_a_folder_of_files_is_a_file(tmp_path: Path) -> None:
    """No suffix, but copied alone to a name in `/etc/sudoers.d/`: a file (the shape of a ROCm image's
    password-less sudo rule); the same name copied to `/opt/` may be a folder."""
    dockerfile = "FROM rocm/dev-ubuntu-22.04\nCOPY sudo-nopasswd /etc/sudoers.d/sudo-nopasswd\n"
    readme = "# ROCm\n\n```sh\ndocker build -t rocm-dev .\n```\n"
    files = {"README.md": readme, "Dockerfile": dockerfile}
    assert [(line, confidence) for line, _, confidence in findings(tmp_path / "a", files)] == [(4, "certain")]
    files["Dockerfile"] = dockerfile.replace("/etc/sudoers.d/sudo-nopasswd", "/opt/sudo-nopasswd")
    assert findings(tmp_path / "b", files) == []


def physics(command: str) -> dict[str, str]:
    readme = f"# Physics notebooks\n\n## Build image\n```bash\n{command}\n```\n"
    return {"README.md": readme, "Dockerfile": PHYSICS, "requirements-base.txt": "numpy\n"}


def test_a_build_arg_naming_a_file_the_project_lacks(tmp_path: Path) -> None:
    found = findings(tmp_path, physics("docker build --build-arg ENV=patolli -t physics-patolli-env ."))
    assert found == [
        (
            5,
            "README builds ./Dockerfile with the context ., which does not hold requirements-patolli.txt "
            "(line 4) that it copies, and no folder of the project has it",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker build --build-arg ENV=base -t physics-env .",  # the file that is there
        "docker build --build-arg ENV -t physics-env .",  # read from the reader's environment
        "docker build --build-arg ENV=$COURSE -t physics-env .",  # a variable: any file
        "docker build --build-arg ENV=<course> -t physics-env .",  # a placeholder
        "docker build -t physics-env .",  # no value at all: the source stays unexpanded
    ],
)
def test_build_args_that_name_no_missing_file_are_silent(tmp_path: Path, command: str) -> None:
    assert findings(tmp_path, physics(command)) == []


def test_a_file_copied_into_etc_default_is_a_file(tmp_path: Path) -> None:
    """No suffix, copied alone to `/etc/default/` (a folder of settings files): a file (the shape of a
    ROS desktop image's keyboard layout, the README building with a placeholder tag); present, silent."""
    dockerfile = "FROM ubuntu:20.04\nWORKDIR /root\nCOPY keyboard /etc/default/keyboard\nRUN apt-get update\n"
    readme = "# ROS desktop\n\n```shell\ndocker build -t $USER/$rep:$tag .\n```\n"
    files = {"README.md": readme, "Dockerfile": dockerfile}
    assert [(line, confidence) for line, _, confidence in findings(tmp_path / "a", files)] == [(4, "certain")]
    assert "keyboard (line 3)" in findings(tmp_path / "c", files)[0][1]
    files["keyboard"] = 'XKBLAYOUT="us"\n'
    assert findings(tmp_path / "b", files) == []
