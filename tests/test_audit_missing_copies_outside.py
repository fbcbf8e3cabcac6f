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


def test_two_files_of_the_contexts_top_missing_at_once_are_certain(tmp_path: Path) -> None:
    """Both read in the very folder the build command names: the build stops at the first COPY."""
    files = {k: v for k, v in dev_tree().items() if not k.endswith("requirements.txt")}
    [(line, message, confidence)] = findings(tmp_path, files, "docker/dev/README.md")
    assert (line, confidence) == (4, "certain")
    assert "requirements.txt (line 4), jupyter_notebook_config.py (line 6)" in message


def test_two_files_one_in_a_folder_missing_at_once_are_likely(tmp_path: Path) -> None:
    """A file of a sub-folder missing with another: a copy that lacks a part more often than a file
    never committed."""
    dockerfile = NOTEBOOK.replace("./requirements.txt", "./requirements/gpu.txt")
    files = {**dev_tree(dockerfile=dockerfile), "docker/dev/notes.txt": ""}
    files = {k: v for k, v in files.items() if not k.endswith("requirements.txt")}
    [(line, message, confidence)] = findings(tmp_path, files, "docker/dev/README.md")
    assert (line, confidence) == (4, "likely")
    assert "requirements/gpu.txt (line 4), jupyter_notebook_config.py (line 6)" in message


FALCON = """\
FROM huggingface/transformers-pytorch-gpu:4.28.1
ARG MODEL_ID
WORKDIR /usr/src/app/
COPY requirements.txt ./
RUN pip install --no-cache-dir -r ./requirements.txt
COPY fetch_weights.py .
RUN python3 fetch_weights.py --model $MODEL_ID
COPY . .
CMD python3 serve.py
"""
"""A chat model served with FastAPI (the shape of a blog post's template repository, which holds only
its README and Dockerfile): the requirements and a weights script are copied from the context's top."""
FALCON_README = """\
# Serve a chat model with FastAPI

## Build the image

```bash
docker build --file ./Dockerfile \\
    --build-arg="MODEL_ID=org/chat-7b" \\
    --tag demo/chat-7b:latest \\
    .
```
"""


def test_every_file_a_template_copies_from_its_top_is_missing(tmp_path: Path) -> None:
    assert findings(tmp_path, {"README.md": FALCON_README, "Dockerfile": FALCON}) == [
        (
            6,
            "README builds ./Dockerfile with the context ., which does not hold requirements.txt (line 4), "
            "fetch_weights.py (line 6) that it copies, and no folder of the project has them",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "change",
    [
        # the files are there
        {"requirements.txt": "fastapi\n", "fetch_weights.py": "print()\n"},
        # the README names one of them: files the project has, which this copy lacks
        {"README.md": FALCON_README + "\n`fetch_weights.py` pulls the weights at build time.\n"},
        # a folder is missing too: a copy of some of the project's files
        {"Dockerfile": FALCON.replace("COPY . .", "COPY app/ ./app/")},
    ],
)
def test_a_template_copy_that_may_lack_its_files_is_silent(tmp_path: Path, change: dict[str, str]) -> None:
    files = {"README.md": FALCON_README, "Dockerfile": FALCON, **change}
    assert [m for _, m, _ in findings(tmp_path, files) if "no folder of the project has" in m] == []


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


TOKENS = """\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
RUN git clone https://github.com/example/llm-gate.git /gate
WORKDIR /gate
COPY config.yml /gate
COPY api_tokens.yml /gate
EXPOSE 5000
CMD ["python3", "main.py"]
"""
"""An inference gateway's image (the shape of one of a backends collection's folders): it clones the
server and copies the settings and the API keys from the folder it is built in."""


def tokens_readme(run: str) -> str:
    return (
        "# llm-gate\n\n## Run with Docker\n\n```bash\ndocker build -f Dockerfile -t lab/llm-gate .\n```\n\n"
        f"```bash\n{run}\n```\n"
    )


MOUNTED = "  -v ./api_tokens.yml:/gate/api_tokens.yml lab/llm-gate"
BIND = "docker run --gpus all -p 5000:5000 \\\n  -v ./config.yml:/gate/config.yml \\\n"


@pytest.mark.parametrize(
    "run",
    [
        BIND + "  -v ./api_tokens.yml:/gate/api_tokens.yml \\\n  lab/llm-gate",
        BIND + '  --volume="$(pwd)/api_tokens.yml:/gate/api_tokens.yml" \\\n  lab/llm-gate',
        BIND + "  --mount type=bind,source=./api_tokens.yml,target=/gate/api_tokens.yml lab/llm-gate",
        # a compose file the README shows, whose service mounts it
        "services:\n  gate:\n    image: lab/llm-gate\n    volumes:\n"
        "      - ./api_tokens.yml:/gate/api_tokens.yml",
    ],
)
def test_a_file_the_readme_only_mounts_is_no_file_it_knows_the_project_has(tmp_path: Path, run: str) -> None:
    """The run mounts the reader's own api_tokens.yml over the image's; the build, before it, copies
    one the folder does not hold."""
    files = {"README.md": tokens_readme(run), "Dockerfile": TOKENS, "config.yml": "port: 5000\n"}
    assert findings(tmp_path, files) == [
        (
            6,
            "README builds Dockerfile with the context ., which does not hold api_tokens.yml (line 5) that "
            "it copies, and no folder of the project has it",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("run", "extra"),
    [
        # it is there
        (BIND + MOUNTED, {"api_tokens.yml": "keys: []\n"}),
        # git ignores it: the reader's own, made before the build
        (BIND + MOUNTED, {".gitignore": "api_tokens.yml\n"}),
        # the README names it in its words too: a file it knows the project has
        (
            BIND + MOUNTED + "\n```\n\nEdit api_tokens.yml to add your keys.\n```",
            {},
        ),
        # a mount of another name, and the file named in a command that reads it
        (BIND + "  lab/llm-gate\ncat api_tokens.yml", {}),
    ],
)
def test_a_mounted_file_the_project_may_hold_is_silent(
    tmp_path: Path, run: str, extra: dict[str, str]
) -> None:
    files = {"README.md": tokens_readme(run), "Dockerfile": TOKENS, "config.yml": "port: 5000\n", **extra}
    assert [m for _, m, _ in findings(tmp_path, files) if "no folder of the project has" in m] == []


def test_a_file_the_readme_tells_to_make_before_the_build_then_mounts_is_silent(tmp_path: Path) -> None:
    made = "## Run with Docker\n\n```bash\ncp api_tokens.sample.yml api_tokens.yml\n```\n"
    readme = tokens_readme(BIND + MOUNTED).replace("## Run with Docker\n", made)
    files = {"README.md": readme, "Dockerfile": TOKENS, "config.yml": "port: 5000\n"}
    assert findings(tmp_path, files) == []


HUB_USER = """\
FROM jupyter/minimal-notebook:latest
USER root
RUN apt-get update && apt-get install -y sudo && rm -rf /var/lib/apt/lists/*
COPY ./content/ /home/jovyan/work/
USER jovyan
"""
"""A JupyterHub user image (the shape of a multi-user hub's lab folder): it copies a folder of sample
notebooks into the user's work folder."""
HUB_README = """\
# Multi-user hub

Build the user image:
```
cd ./lab_image
docker build -t lab-image:latest .
```
"""


def test_a_folder_the_readmes_own_build_copies_that_no_folder_has(tmp_path: Path) -> None:
    files = {"README.md": HUB_README, "Dockerfile": "FROM alpine\n", "lab_image/Dockerfile": HUB_USER}
    assert findings(tmp_path, files) == [
        (
            6,
            "README builds ./Dockerfile with the context ., which does not hold content/ (line 4) that it "
            "copies, and no folder of the project has it",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "change",
    [
        # it is there
        {"lab_image/content/intro.ipynb": "{}"},
        # the README names it: a folder the project has, which this copy lacks
        {"README.md": HUB_README + "\nThe notebooks in `content` are copied to each user.\n"},
        # the README tells to make it
        {"README.md": HUB_README.replace("cd ./lab_image\n", "cd ./lab_image\nmkdir content\n")},
        # another source missing too: a copy of some of the project's files
        {"lab_image/Dockerfile": HUB_USER + "COPY start.sh /usr/local/bin/\n"},
        # written without the `/`: a file or a folder
        {"lab_image/Dockerfile": HUB_USER.replace("./content/", "./content")},
        # a path of several parts
        {"lab_image/Dockerfile": HUB_USER.replace("./content/", "./notebooks/content/")},
    ],
)
def test_a_folder_a_copy_may_lack_is_silent(tmp_path: Path, change: dict[str, str]) -> None:
    files = {
        "README.md": HUB_README,
        "Dockerfile": "FROM alpine\n",
        "lab_image/Dockerfile": HUB_USER,
        **change,
    }
    assert findings(tmp_path, files) == []


def test_a_folder_a_script_builds_is_silent(tmp_path: Path) -> None:
    """Only the README's own build command: a script's build is read with its own guards."""
    readme = "# Multi-user hub\n\n```\n./build.sh\n```\n"
    files = {
        "README.md": readme,
        "Dockerfile": HUB_USER,
        "build.sh": "#!/bin/bash\ndocker build -t lab-image:latest .\n",
    }
    assert findings(tmp_path, files) == []


PACKAGES = """\
FROM tensorflow/tensorflow:1.15.5-gpu-py3
COPY ./python_packages.txt /
RUN pip --no-cache-dir install -r /python_packages.txt
"""
PACKAGES_README = """\
# jupyter-gpu

1. Edit `python_packages.txt` to pick the packages you need
2. Build the image

```
docker build -t jupyter-gpu .
```
"""


def test_a_file_the_readme_tells_to_edit_is_no_file_it_makes(tmp_path: Path) -> None:
    """In a git checkout, which holds every file: `Edit python_packages.txt` tells of a file the project
    has, not one the reader makes before the build."""
    files = {"README.md": PACKAGES_README, "Dockerfile": PACKAGES, ".git/HEAD": "ref: refs/heads/main\n"}
    [(line, message, confidence)] = findings(tmp_path, files)
    assert (line, confidence) == (7, "certain")
    assert "python_packages.txt (line 2) that it copies, in a git checkout that holds every file" in message
    # told to create it: the reader's own
    made = PACKAGES_README.replace("Edit `python_packages.txt`", "Create `python_packages.txt`")
    assert findings(tmp_path / "made", {**files, "README.md": made}) == []


def test_a_file_copied_to_a_name_of_a_kind_of_file_is_a_file(tmp_path: Path) -> None:
    """No suffix, but copied alone to `/etc/bash.bashrc` (the shape of a TensorFlow GPU image's shell
    settings, built from an indented block): a file; the same name copied to a folder may be one."""
    dockerfile = "FROM nvidia/cuda:11.3.1-base-ubuntu20.04\nCOPY bashrc /etc/bash.bashrc\n"
    readme = (
        "# TensorFlow GPU\n\n    sudo docker build --build-arg TF_PACKAGE_VERSION=2.8.3 .\n"
        "    sudo docker images\n"
    )
    files = {"README.md": readme, "Dockerfile": dockerfile}
    assert [(line, confidence) for line, _, confidence in findings(tmp_path / "a", files)] == [(3, "certain")]
    files["Dockerfile"] = dockerfile.replace("/etc/bash.bashrc", "/etc/bashrc.d/")
    assert findings(tmp_path / "b", files) == []
    files["Dockerfile"] = dockerfile.replace("/etc/bash.bashrc", "/var/www/example.org")
    assert findings(tmp_path / "c", files) == []


RELAY = """\
FROM ubuntu:22.04
COPY . /opt/relay/
RUN bash /opt/relay/tools/install_deps.sh
WORKDIR /opt/relay
RUN ./tools/configure.sh --prefix=/usr/local
"""


def relay(root: Path, files: dict[str, str]) -> list[str]:
    readme = "# Relay\n\n```\ndocker build -t relay .\n```\n"
    make_tree(root, {"README.md": readme, "Dockerfile": RELAY, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "runs from its copy" in d.message
    ]


def test_scripts_a_run_takes_from_the_copy_of_the_context_of_the_readme_build(tmp_path: Path) -> None:
    # modelled on a relay server built by the README itself: its tools/ folder was never committed
    assert relay(tmp_path, {"relay.c": "int main(void){return 0;}\n"}) == [
        "4: README builds ./Dockerfile with the context ., which does not hold "
        "tools/install_deps.sh (line 3), tools/configure.sh (line 5) that it runs from its copy of the "
        "context (likely)"
    ]
    # the context holds them: silent
    held = {"tools/install_deps.sh": "true\n", "tools/configure.sh": "true\n"}
    assert relay(tmp_path / "b", held) == []
