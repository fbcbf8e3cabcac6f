"""`docgen audit`: a README naming Jupyter as what its container serves while the image sets no CMD or
ENTRYPOINT on a plain base and nothing starts Jupyter (docgen/audit/jupyter_tokens.py,
`unlaunched_jupyter`)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

CUDA_LAB = """\
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip install jupyterlab torch
EXPOSE 8888
WORKDIR /work
"""
LAB_COMPOSE = 'services:\n  lab:\n    build: .\n    ports:\n      - "8888:8888"\n'
LAB_README = """\
# GPU Jupyter Lab in Docker

Start:

```sh
docker compose up -d
```

Stop with `docker compose down`.
"""
PY_NOTEBOOK = """\
FROM python:3.11-slim AS deps
RUN pip install --no-cache-dir notebook pandas matplotlib
FROM deps
COPY notebooks/ /srv/notebooks/
EXPOSE 8888
"""
NOTEBOOK_README = """\
# Course notebooks

Build and run the image:

```bash
docker build -t course .
docker run --rm -p 8888:8888 course
```

The container then serves the course in a Jupyter Notebook at http://localhost:8888.
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "nothing starts Jupyter" in d.message
    ]


def test_a_jupyter_title_over_a_compose_up_of_an_image_with_no_cmd(tmp_path: Path) -> None:
    assert found(tmp_path, LAB_README, {"Dockerfile": CUDA_LAB, "compose.yaml": LAB_COMPOSE}) == [
        (
            1,
            "README says the container serves Jupyter Lab, but Dockerfile sets no CMD or ENTRYPOINT; no "
            "compose file beside it gives a command: the container runs the default command of its base "
            "nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04 (a shell or a Python prompt) and nothing starts "
            "Jupyter",
            "likely",
        )
    ]


def test_prose_over_a_docker_run_of_a_two_stage_python_image(tmp_path: Path) -> None:
    [(line, message, confidence)] = found(tmp_path, NOTEBOOK_README, {"Dockerfile": PY_NOTEBOOK})
    assert (line, confidence) == (10, "likely")
    assert "serves Jupyter Notebook, but Dockerfile sets no CMD or ENTRYPOINT:" in message
    assert "python:3.11-slim" in message


def test_a_cmd_in_any_stage_or_a_compose_command_starts_something(tmp_path: Path) -> None:
    cmd = PY_NOTEBOOK.replace("AS deps\n", 'AS deps\nCMD ["jupyter", "notebook", "--ip=0.0.0.0"]\n')
    assert found(tmp_path / "a", NOTEBOOK_README, {"Dockerfile": cmd}) == []
    compose = LAB_COMPOSE + "    command: jupyter lab --ip=0.0.0.0 --allow-root\n"
    assert found(tmp_path / "b", LAB_README, {"Dockerfile": CUDA_LAB, "compose.yaml": compose}) == []
    entry = CUDA_LAB + 'ENTRYPOINT ["/usr/local/bin/start-lab.sh"]\n'
    assert found(tmp_path / "c", LAB_README, {"Dockerfile": entry, "compose.yaml": LAB_COMPOSE}) == []


def test_a_jupyter_base_image_starts_it_itself(tmp_path: Path) -> None:
    base = CUDA_LAB.replace("nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04", "jupyter/scipy-notebook:latest")
    assert found(tmp_path / "a", LAB_README, {"Dockerfile": base, "compose.yaml": LAB_COMPOSE}) == []
    own = CUDA_LAB.replace("nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04", "myorg/lab-base:2")
    assert found(tmp_path / "b", LAB_README, {"Dockerfile": own, "compose.yaml": LAB_COMPOSE}) == []


def test_a_readme_that_starts_jupyter_or_tells_the_user_to(tmp_path: Path) -> None:
    command = NOTEBOOK_README.replace("course\n```", "course jupyter notebook --ip=0.0.0.0\n```")
    assert found(tmp_path / "a", command, {"Dockerfile": PY_NOTEBOOK}) == []
    told = NOTEBOOK_README + "\nInside the container you can start Jupyter with the usual command.\n"
    assert found(tmp_path / "b", told, {"Dockerfile": PY_NOTEBOOK}) == []


def test_an_image_with_no_jupyter_or_a_readme_that_runs_nothing(tmp_path: Path) -> None:
    plain = CUDA_LAB.replace("jupyterlab ", "")
    assert found(tmp_path / "a", LAB_README, {"Dockerfile": plain, "compose.yaml": LAB_COMPOSE}) == []
    built_only = NOTEBOOK_README.replace("docker run --rm -p 8888:8888 course\n", "")
    assert found(tmp_path / "b", built_only, {"Dockerfile": PY_NOTEBOOK}) == []
