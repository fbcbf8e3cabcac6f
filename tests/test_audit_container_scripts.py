"""`docgen.audit.container_scripts`: a script a block said to run inside the container runs by a
relative path (`./serve_model.sh`) from the image's working folder, which holds no such file while the
image copies one of that name to one other folder, is a finding; a `cd` or `-w` first, the script in the
working folder, one the README copies in or mounts over, one a RUN names, and a run on the host are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvcr.io/nvidia/tritonserver:24.01-py3
COPY deploy/launcher /srv/launcher
COPY deploy/tools/warm.sh /srv/warm.sh
WORKDIR /srv
CMD ["/bin/bash"]
"""

README = """\
# Serving

## Start

```bash
docker run --rm -it {mount} serving:1.0 bash
```

{intro}

```bash
{command}
```
"""

INSIDE = "Inside the docker container, build the engines with the script:"


def found(
    root: Path,
    command: str,
    intro: str = INSIDE,
    dockerfile: str = DOCKERFILE,
    mount: str = "-v /data/weights:/weights",
) -> list[str]:
    make_tree(
        root,
        {
            "README.md": README.format(intro=intro, command=command, mount=mount),
            "Dockerfile": dockerfile,
            "deploy/launcher/serve_model.sh": "#!/bin/sh\n",
            "deploy/launcher/README.txt": "x\n",
            "deploy/tools/warm.sh": "#!/bin/sh\n",
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "inside the container" in d.message
    ]


@pytest.mark.parametrize(
    "command",
    [
        "./serve_model.sh /weights/llm 8 1",
        "$ ./serve_model.sh /weights/llm",
        "bash ./serve_model.sh /weights",
    ],
)
def test_planted(tmp_path: Path, command: str) -> None:
    assert found(tmp_path, command) == [
        "12: README runs ./serve_model.sh inside the container, whose working folder holds no "
        "serve_model.sh: Dockerfile:4 WORKDIR /srv; line 2 copies it to /srv/launcher/serve_model.sh "
        "(did you mean /srv/launcher/serve_model.sh?) (likely)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "cd /srv/launcher\n./serve_model.sh /weights/llm",  # a `cd` first
        "docker exec -it -w /srv/launcher app ./serve_model.sh",  # the block starts its own command
        "./warm.sh",  # in the working folder
        "./launcher/serve_model.sh /weights",  # the path from the working folder
        "./absent.sh",  # in no folder the image fills (the base image's, or a typo another rule reads)
        "docker cp serve_model.sh app:/srv/\n./serve_model.sh",  # copied in by the README
    ],
)
def test_traps(tmp_path: Path, command: str) -> None:
    assert found(tmp_path, command) == []


def test_a_run_on_the_host_is_not_read(tmp_path: Path) -> None:
    assert found(tmp_path, "./serve_model.sh /weights", intro="On your host, run:") == []


@pytest.mark.parametrize("mount", ["-v $PWD/deploy/launcher:/srv", "-v $PWD:/srv/launcher"])
def test_a_folder_mounted_onto_or_into_the_working_folder(tmp_path: Path, mount: str) -> None:
    assert found(tmp_path, "./serve_model.sh", mount=mount) == []


def test_a_script_a_run_moves(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace(
        "WORKDIR /srv", "RUN ln -s /srv/launcher/serve_model.sh /srv/serve_model.sh\nWORKDIR /srv"
    )
    assert found(tmp_path, "./serve_model.sh", dockerfile=dockerfile) == []


def test_a_working_folder_from_a_variable(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("WORKDIR /srv", "WORKDIR ${APP_HOME}")
    assert found(tmp_path, "./serve_model.sh", dockerfile=dockerfile) == []


def test_a_script_copied_into_the_working_folder_named_without_a_slash(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("WORKDIR /srv", "COPY deploy/launcher/serve_model.sh /srv\nWORKDIR /srv")
    assert found(tmp_path, "./serve_model.sh", dockerfile=dockerfile) == []


# --------------------------------------------------------------------------------------------------
# A program run without its suffix where the image copies the script with it

SSH_IMAGE = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y openssh-server && mkdir /var/run/sshd
RUN /opt/sdk/build_samples.sh
COPY check_device.sh /root/samples_build/bin/Release/
WORKDIR /root/samples_build/bin/Release/
CMD bash check_device.sh
"""
SSH_README = """\
# Remote debugging

```bash
docker compose up -d
ssh root@localhost -p 2222
{rest}
```
"""
EXEC_IMAGE = """\
FROM python:3.11-slim
WORKDIR /srv
COPY tools/ /srv/tools/
CMD ["python", "-m", "http.server"]
"""
EXEC_README = """\
# Tools

```
docker build -t toolbox .
docker run -d --name tb toolbox
docker exec -it tb bash
{rest}
```
"""


def unsuffixed(root: Path, readme: str, dockerfile: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "the shell answers no such file" in d.message
    ]


SSH_FILES = {"check_device.sh": "#!/bin/sh\n"}
EXEC_FILES = {"tools/reindex.py": "print(1)\n", "tools/README.txt": "x\n"}


def test_a_script_run_without_its_suffix_in_the_folder_the_image_copies_it_to(tmp_path: Path) -> None:
    rest = "cd samples_build/bin/Release/\n./check_device"
    assert unsuffixed(tmp_path / "a", SSH_README.format(rest=rest), SSH_IMAGE, SSH_FILES) == [
        "7: README runs ./check_device in the container's samples_build/bin/Release, which holds no "
        "check_device: Dockerfile:4 copies check_device.sh there (/root/samples_build/bin/Release/"
        "check_device.sh); the shell answers no such file (did you mean ./check_device.sh?) (likely)"
    ]
    rest = "cd /srv/tools\n./reindex --full"
    assert unsuffixed(tmp_path / "b", EXEC_README.format(rest=rest), EXEC_IMAGE, EXEC_FILES) == [
        "8: README runs ./reindex in the container's /srv/tools, which holds no reindex: Dockerfile:3 "
        "copies reindex.py there (/srv/tools/reindex.py); the shell answers no such file (did you mean "
        "./reindex.py?) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "files"),
    [
        # the name as the image has it; a program the build makes there
        (SSH_README.format(rest="cd samples_build/bin/Release/\n./check_device.sh"), SSH_IMAGE, SSH_FILES),
        (
            SSH_README.format(rest="cd samples_build/bin/Release/\n./benchmark_app -d GPU"),
            SSH_IMAGE,
            SSH_FILES,
        ),
        # ssh into another host; an image with no sshd
        (
            "# x\n\n```bash\nssh ubuntu@gpu-box.example.com\n"
            "cd samples_build/bin/Release/\n./check_device\n```\n",
            SSH_IMAGE,
            SSH_FILES,
        ),
        (
            SSH_README.format(rest="cd samples_build/bin/Release/\n./check_device"),
            SSH_IMAGE.replace("openssh-server && mkdir /var/run/sshd", "curl"),
            SSH_FILES,
        ),
        # on the host (after exit); another folder; a RUN that makes the name
        (EXEC_README.format(rest="exit\ncd tools\n./reindex"), EXEC_IMAGE, EXEC_FILES),
        (EXEC_README.format(rest="cd /srv\n./reindex"), EXEC_IMAGE, EXEC_FILES),
        (
            EXEC_README.format(rest="cd /srv/tools\n./reindex"),
            EXEC_IMAGE + "RUN ln -s /srv/tools/reindex.py /srv/tools/reindex\n",
            EXEC_FILES,
        ),
        # the image copies the name as it is too
        (
            EXEC_README.format(rest="cd /srv/tools\n./reindex"),
            EXEC_IMAGE,
            {**EXEC_FILES, "tools/reindex": "#!/bin/sh\n"},
        ),
    ],
)
def test_programs_run_as_the_image_names_them(
    tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str]
) -> None:
    assert unsuffixed(tmp_path, readme, dockerfile, files) == []


# A script the README runs in the container that the image would copy from a file its build context (the
# README's folder, which its compose file builds from) does not hold: `uncopied_container_scripts`.

RECON_README = """\
# Mesh reconstruction image

## Usage

### Start
```bash
docker compose up -d --build
docker compose exec mesher bash
```

### Examples
Inside the container:

**Fit a surface:**
```bash
{command}
```
"""

RECON_DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
WORKDIR /opt/build
RUN git clone https://example.invalid/mesher.git
WORKDIR /workspace
COPY tools/env_check.sh /workspace/env_check.sh
COPY tools/fit_surface.sh /workspace/fit_surface.sh
{extra}RUN chmod +x /workspace/env_check.sh /workspace/fit_surface.sh
CMD ["sleep", "infinity"]
"""

RECON_COMPOSE = """\
services:
  mesher:
    build:
      context: .
      dockerfile: Dockerfile.mesher
    volumes:
      - {volume}
"""


def uncopied(
    root: Path,
    command: str = "./fit_surface.sh /workspace/data/cloud.ply",
    files: dict[str, str] | None = None,
    extra: str = "",
    volume: str = "../data:/workspace/data",
    compose: bool = True,
    readme: str = RECON_README,
) -> list[str]:
    tree = {
        "README.md": readme.format(command=command),
        "Dockerfile.mesher": RECON_DOCKERFILE.format(extra=extra),
        "tools/env_check.sh": "#!/bin/sh\n",
    }
    if compose:
        tree["docker-compose.yml"] = RECON_COMPOSE.format(volume=volume)
    make_tree(root, {**tree, **(files or {})})
    model = build_model(root / "Dockerfile.mesher", "Dockerfile.mesher")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "never holds" in d.message
    ]


def test_a_script_copied_from_a_file_the_context_lacks(tmp_path: Path) -> None:
    assert uncopied(tmp_path) == [
        "16: README runs ./fit_surface.sh inside the container, which the image never holds: "
        "Dockerfile.mesher:7 copies it to /workspace/fit_surface.sh (WORKDIR /workspace, line 5) from "
        "tools/fit_surface.sh, which its build context, the README's folder, does not hold (certain)"
    ]


def test_a_copy_from_a_folder_the_project_lacks_is_likely(tmp_path: Path) -> None:
    # (no file of tools/ is there at all: a copy of some of the project's files may lack the folder)
    dockerfile = (
        'FROM python:3.11-slim\nWORKDIR /srv\nCOPY helpers/warm.sh helpers/serve.sh /srv/\nCMD ["bash"]\n'
    )
    readme = "# Serve\n\n## Inside the container\n\n```sh\n./serve.sh --port 8080\n```\n"
    make_tree(
        tmp_path,
        {
            "README.md": readme,
            "Dockerfile": dockerfile,
            "compose.yaml": "services:\n  api:\n    build: .\n    ports: ['8080:8080']\n",
        },
    )
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, tmp_path)
        if "never holds" in d.message
    ]
    assert found == [
        "6: README runs ./serve.sh inside the container, which the image never holds: Dockerfile:3 copies "
        "it to /srv/serve.sh (WORKDIR /srv, line 2) from helpers/serve.sh, which its build context, the "
        "README's folder, does not hold (likely)"
    ]


@pytest.mark.parametrize(
    ("command", "files", "extra", "volume", "compose"),
    [
        # the context holds the script
        (
            "./fit_surface.sh x.ply",
            {"tools/fit_surface.sh": "#!/bin/sh\n"},
            "",
            "../data:/workspace/data",
            True,
        ),
        # a RUN makes it
        (
            "./fit_surface.sh x.ply",
            {},
            "RUN cp /opt/build/fit.sh /workspace/fit_surface.sh\n",
            "../d:/d",
            True,
        ),
        # the compose file mounts a host folder onto the working folder
        ("./fit_surface.sh x.ply", {}, "", "./tools:/workspace", True),
        # no compose file building from the README's folder: the context is not known
        ("./fit_surface.sh x.ply", {}, "", "../d:/d", False),
        # a script the image copies from a file the context holds
        ("./env_check.sh", {}, "", "../data:/workspace/data", True),
        # a `cd` first: the script is run from another folder
        ("cd /opt/build/mesher\n./fit_surface.sh x.ply", {}, "", "../d:/d", True),
        # a script the image never copies (another rule's concern)
        ("./absent.sh", {}, "", "../d:/d", True),
    ],
)
def test_uncopied_traps(
    tmp_path: Path, command: str, files: dict[str, str], extra: str, volume: str, compose: bool
) -> None:
    assert uncopied(tmp_path, command, files, extra, volume, compose) == []


def test_a_block_run_on_the_host_is_not_read_as_the_image(tmp_path: Path) -> None:
    readme = RECON_README.replace("Inside the container:", "On the host, from this folder:")
    assert uncopied(tmp_path, readme=readme) == []


def test_a_dockerfile_in_a_subfolder_is_not_built_from_the_readme_folder(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "README.md": RECON_README.format(command="./fit_surface.sh x.ply"),
            "docker/Dockerfile.mesher": RECON_DOCKERFILE.format(extra=""),
            "docker-compose.yml": RECON_COMPOSE.format(volume="../d:/d"),
        },
    )
    model = build_model(tmp_path / "docker/Dockerfile.mesher", "docker/Dockerfile.mesher")
    text = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert not [d for d in audit(text, "README.md", [model], {}, tmp_path) if "never holds" in d.message]
