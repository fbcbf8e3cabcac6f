"""`docgen.audit.mpi_root`: `mpirun` run as root in a container of an image that installs Open MPI and
sets no USER (Open MPI's launcher refuses root without `--allow-run-as-root`) is a `likely` finding; other
MPIs, a user, the allowing variables or option, a run as another user and unknown bases are not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

MD = """\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git cmake build-essential openmpi-bin libopenmpi-dev
RUN git clone --depth 1 https://example.org/md/solver.git /opt/solver && \\
    cd /opt/solver && cmake -B build && cmake --build build -j8
ENV PATH=/opt/solver/build:$PATH
"""

SHELL_IN = """\
# solver_docker

```shell
docker build -t 'solver_gpu:2024' .
```

```shell
nvidia-docker run -ti -v $(pwd):/data solver_gpu:2024

solver_gpu -in /data/in.melt

mpirun -np 4 solver_gpu -in /data/in.melt
```
"""
"""Modelled on a molecular-dynamics image's README: an interactive run, then the commands typed in it."""

ONE_LINE = """\
# Solver

```
docker build -t acme/solver:3 .
docker run --rm -v $HOME/cases:/cases acme/solver:3 \\
    mpiexec -n 2 solver_mpi -case /cases/a
```
"""
"""Modelled on a model-runner image's README: the launcher given to the run itself."""


def found(readme: str, dockerfile: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "Dockerfile"
    path.write_text(dockerfile)
    model = replace(model_of(parse_dockerfile(dockerfile, "Dockerfile")), file=str(path))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, directory=tmp_path)
        if "refuses to run as root" in d.message
    ]


def test_mpirun_typed_in_an_interactive_run(tmp_path: Path) -> None:
    assert found(SHELL_IN, MD, tmp_path) == [
        "12: README runs mpirun in a container of the image Dockerfile builds, which runs as root (no USER) "
        "and installs Open MPI: Open MPI's launcher refuses to run as root without --allow-run-as-root (or "
        "OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1) (likely)"
    ]


def test_the_launcher_given_to_the_run(tmp_path: Path) -> None:
    assert [f.split(":")[0] for f in found(ONE_LINE, MD, tmp_path)] == ["5"]


def test_open_mpi_built_from_source(tmp_path: Path) -> None:
    dockerfile = MD.replace(
        "openmpi-bin libopenmpi-dev",
        "wget && wget -q https://example.org/openmpi-4.1.6.tar.gz && tar xf openmpi-4.1.6.tar.gz",
    )
    assert len(found(ONE_LINE, dockerfile, tmp_path)) == 1


@pytest.mark.parametrize(
    "dockerfile",
    [
        MD.replace("openmpi-bin libopenmpi-dev", "mpich libmpich-dev"),  # MPICH runs as root
        MD.replace("openmpi-bin libopenmpi-dev", "openmpi-bin intel-oneapi-mpi"),  # two MPIs
        MD + "RUN useradd -m md\nUSER md\n",  # a user
        MD + "ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1\n",  # allowed
        MD.replace("nvidia/cuda:12.2.0-devel-ubuntu22.04", "acme/hpc-base:2"),  # unknown base
        MD + 'ENTRYPOINT ["/usr/local/bin/as-user.sh"]\n',  # a script may switch user
        MD.replace("openmpi-bin libopenmpi-dev", "python3"),  # no MPI installed here
        MD + "RUN echo 'alias mpirun=\"mpirun --allow-run-as-root\"' >> /root/.bashrc\n",
    ],
)
def test_images_whose_mpirun_may_run(dockerfile: str, tmp_path: Path) -> None:
    assert found(SHELL_IN, dockerfile, tmp_path) == []
    assert found(ONE_LINE, dockerfile, tmp_path) == []


@pytest.mark.parametrize(
    "readme",
    [
        SHELL_IN.replace("mpirun -np 4", "mpirun --allow-run-as-root -np 4"),  # allowed
        ONE_LINE.replace("--rm", "--rm -u 1000:1000"),  # another user
        ONE_LINE.replace("--rm", "--rm --user $(id -u)"),
        ONE_LINE.replace("--rm", "--rm -e OMPI_ALLOW_RUN_AS_ROOT=1 -e OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"),
        SHELL_IN.replace("solver_gpu -in /data/in.melt\n", "exit\n"),  # back on the host
        SHELL_IN.replace("solver_gpu -in /data/in.melt\n", "su md\n"),  # switches user
        SHELL_IN.replace("solver_gpu:2024\n", "solver_gpu:2024\n```\n\n```\n"),  # another block
        SHELL_IN.replace("nvidia-docker run -ti -v $(pwd):/data solver_gpu:2024", "docker run -ti ubuntu"),
        ONE_LINE.replace("acme/solver:3 \\", "acme/other:3 \\"),  # not the image built
        ONE_LINE.replace("    mpiexec", '    bash -c "mpiexec').replace("/cases/a", '/cases/a"'),  # not read
    ],
)
def test_runs_that_stay_silent(readme: str, tmp_path: Path) -> None:
    assert found(readme, MD, tmp_path) == []
