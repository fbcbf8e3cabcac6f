"""`docgen.audit.fresh_contexts`: a `docker build .` a README runs in a folder it has just made and
filled only with downloads is told when the Dockerfile copies other files of its context (`certain`) or
the whole context (`likely`). Shapes modelled on a GPU notebook image whose quick start downloads only
its Dockerfile and on an inference server whose Dockerfile copies an entrypoint and a requirements file;
traps: the other files downloaded too, a Dockerfile that copies nothing, a clone or copy in the folder,
another context, a folder of the project entered, a copy from another stage."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

NOTEBOOK = """\
FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04
RUN apt-get update && apt-get install -y cmake python3-pip
COPY . /usr/local/src/solver
RUN cmake -S /usr/local/src/solver -B /tmp/build && cmake --build /tmp/build
EXPOSE 8888
"""
NOTEBOOK_README = """\
# Solver notebook image

## Quick start

```sh
mkdir solver-docker
cd solver-docker
wget https://raw.githubusercontent.com/example/solver/main/docker/gpu/dockerfile.gpu
docker build -f dockerfile.gpu -t solver-gpu .
```
"""
SERVER = """\
FROM nvcr.io/nvidia/pytorch:24.05-py3
COPY requirements.txt /app/
RUN pip install -r /app/requirements.txt
COPY entrypoint.sh /app/entrypoint.sh
COPY --from=nvcr.io/nvidia/tritonserver:24.05-py3 /opt/tritonserver/bin /opt/bin
ENTRYPOINT ["/app/entrypoint.sh"]
"""
SERVER_README = """\
# LLM server

Build it anywhere:

```bash
$ mkdir -p llm-server && cd llm-server
$ curl -LO https://raw.githubusercontent.com/example/llm-server/main/Dockerfile
$ docker build -t llm-server .
```
"""


def found(root: Path, readme: str, dockerfile: str, name: str = "Dockerfile") -> list[str]:
    make_tree(root, {"README.md": readme, name: dockerfile, "requirements.txt": "torch\n"})
    model = build_model(root / name, name)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "the README makes" in d.message
    ]


def test_a_build_copying_the_whole_context_of_a_fresh_folder(tmp_path: Path) -> None:
    assert found(tmp_path, NOTEBOOK_README, NOTEBOOK, "dockerfile.gpu") == [
        "9: README builds dockerfile.gpu in the folder solver-docker the README makes (line 6), which holds "
        "only dockerfile.gpu, but dockerfile.gpu:3 copies the whole context: none of the project's files "
        "are in it (build from a checkout of the repository) (likely)"
    ]


def test_a_build_copying_files_the_downloads_did_not_bring(tmp_path: Path) -> None:
    assert found(tmp_path, SERVER_README, SERVER) == [
        "8: README builds Dockerfile in the folder llm-server the README makes (line 6), which holds only "
        "Dockerfile, but it copies requirements.txt (line 2), entrypoint.sh (line 4) from the context: the "
        "build stops there (build from a checkout of the repository) (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "name"),
    [
        # the other files are downloaded too, one of them under a name of its own
        (
            SERVER_README.replace(
                "$ docker build",
                "$ curl -LO https://raw.githubusercontent.com/example/llm-server/main/requirements.txt\n"
                "$ wget -O entrypoint.sh https://raw.githubusercontent.com/example/llm-server/main/run.sh\n"
                "$ docker build",
            ),
            SERVER,
            "Dockerfile",
        ),
        # a Dockerfile that copies nothing of its context: it clones what it builds
        (
            NOTEBOOK_README,
            "FROM ubuntu:22.04\nRUN git clone https://github.com/example/solver /src\n",
            "dockerfile.gpu",
        ),
        # files put there another way: a clone, a copy
        (
            NOTEBOOK_README.replace("wget", "git clone https://github.com/example/solver src\nwget"),
            NOTEBOOK,
            "dockerfile.gpu",
        ),
        (
            SERVER_README.replace(
                "$ docker build", "$ cp ../entrypoint.sh ../requirements.txt .\n$ docker build"
            ),
            SERVER,
            "Dockerfile",
        ),
        # another context, or a folder of the project (no mkdir)
        (NOTEBOOK_README.replace("-t solver-gpu .", "-t solver-gpu ../solver"), NOTEBOOK, "dockerfile.gpu"),
        (NOTEBOOK_README.replace("mkdir solver-docker\n", ""), NOTEBOOK, "dockerfile.gpu"),
        # a download docgen cannot name, and curl writing to standard output
        (
            SERVER_README.replace(
                "curl -LO https://raw.githubusercontent.com/example/llm-server/main/Dockerfile",
                "curl -L https://example.com/get | sh",
            ),
            SERVER,
            "Dockerfile",
        ),
        # a Dockerfile downloaded under another name than the audited one
        (NOTEBOOK_README, NOTEBOOK, "Dockerfile"),
    ],
)
def test_fresh_folder_traps(tmp_path: Path, readme: str, dockerfile: str, name: str) -> None:
    assert found(tmp_path, readme, dockerfile, name) == []
