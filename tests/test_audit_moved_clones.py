"""`docgen audit`: a path a README uses inside the container that puts a repository the image clones in
a folder the image never makes (docgen/audit/moved_clones.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

# modelled on an HPC code built from a clone at `/` (no WORKDIR), a README typing its benchmark
# inside the container under a folder nothing makes
SOLVER = """\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git cmake openmpi-bin
RUN git clone https://github.com/acme/flowsolve.git flowsolve && cd flowsolve && git checkout stable
RUN cd /flowsolve && mkdir build && cd build && cmake ../cmake && make -j4 install
"""
BENCH = """\
# flowsolve

```shell
docker build -t flowsolve:gpu .
```

```shell
docker run --gpus all -ti -v $(pwd):/srv/input -v $HOME/scratch:/srv/scratch flowsolve:gpu

fs_gpu -in /srv/flowsolve/bench/in.duct

mpirun -np 2 fs_gpu -in /srv/flowsolve/bench/in.duct
```
"""
# modelled on a vision demo built on an NGC image: the clone in WORKDIR /opt, the README in /workspace
VISION = """\
FROM nvcr.io/nvidia/pytorch:24.01-py3
WORKDIR /opt
RUN git clone --depth 1 https://github.com/acme/DepthNetX.git
RUN pip install -r /opt/DepthNetX/requirements.txt
"""
DEMO = """\
# Depth demo

Open a shell in the image:

```bash
docker run --gpus all -it --rm depthnet
cd /workspace/DepthNetX
python demo.py --weights /workspace/DepthNetX/weights/small.pt
```
"""


def found(
    root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "in the container, but" in d.message
    ]


def test_a_benchmark_under_a_folder_the_image_never_makes(tmp_path: Path) -> None:
    assert found(tmp_path, BENCH, SOLVER) == [
        (
            10,
            "README uses /srv/flowsolve/bench/in.duct in the container, but Dockerfile never makes /srv: it "
            "clones flowsolve into /flowsolve (Dockerfile:3) (did you mean /flowsolve/bench/in.duct?); "
            "also at line 12",
            "likely",
        )
    ]


def test_a_clone_in_the_workdir_used_under_the_base_images_folder(tmp_path: Path) -> None:
    assert [(line, message.split(": it ")[1]) for line, message, _ in found(tmp_path, DEMO, VISION)] == [
        (
            7,
            "clones DepthNetX into /opt/DepthNetX (Dockerfile:3) (did you mean /opt/DepthNetX?); "
            "also at line 8",
        )
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (BENCH.replace("/srv/flowsolve", "/flowsolve"), SOLVER),  # where the clone is
        (BENCH, SOLVER.replace("flowsolve.git flowsolve", "flowsolve.git /srv/flowsolve")),  # cloned there
        (BENCH, "FROM ubuntu:22.04\nWORKDIR /srv\n" + SOLVER.split("\n", 1)[1]),  # WORKDIR: clone at /srv
        (BENCH, SOLVER + "RUN ln -s /flowsolve /srv/flowsolve\n"),  # the Dockerfile names the folder
        (BENCH, SOLVER + "VOLUME /srv/scratch\n"),  # the Dockerfile names the top folder
        (BENCH.replace("/srv/input", "/srv"), SOLVER),  # the README mounts the top folder
        (BENCH.replace("/srv/input", "/srv/flowsolve"), SOLVER),  # the README mounts the folder
        (BENCH.replace("-ti ", ""), SOLVER),  # no shell opened in the container: the host's path
        (BENCH, SOLVER.replace("RUN git clone", "RUN cd /tmp && git clone")),  # a `cd` first: place not known
        (
            BENCH,
            SOLVER.replace("nvidia/cuda:12.2.0-devel-ubuntu22.04", "acme/flowsolve-base:2"),
        ),  # base has it
        (BENCH.replace("flowsolve/bench", "models/bench"), SOLVER.replace("flowsolve", "models")),  # a word
        (BENCH.replace("fs_gpu -in", "mkdir -p /srv/flowsolve && fs_gpu -in"), SOLVER),  # the README makes it
        (BENCH.replace("-ti -v", "-ti -w /srv/flowsolve -v"), SOLVER),  # the run's working folder
        (DEMO.replace("/workspace/", "/opt/"), VISION),  # where the clone is
        (
            DEMO,
            VISION.replace("WORKDIR /opt", "WORKDIR /opt\nRUN mkdir -p /workspace/out"),
        ),  # names /workspace
    ],
)
def test_silent(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert found(tmp_path, readme, dockerfile) == []


def test_a_file_of_the_context_that_names_the_folder(tmp_path: Path) -> None:
    assert (
        found(
            tmp_path,
            BENCH,
            SOLVER + "COPY run.sh /usr/local/bin/\n",
            {"run.sh": "ln -s /flowsolve /srv/flowsolve\n"},
        )
        == []
    )
