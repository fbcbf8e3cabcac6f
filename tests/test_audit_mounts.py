"""`docgen.audit.mounts`: the folder a README's `docker run -v "$PWD:/app" IMAGE python main.py` mounts
the current folder at, against the WORKDIR a container of the image starts in. A planted drift and the
nearest true commands as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


RUNTIME = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir torch==2.5.1
WORKDIR /workspace
"""

RUNS = """\
# PyTorch runtime

```bash
docker build -t acme/torch .
docker run --rm -it --gpus=all --volume="$PWD:/app" acme/torch python3 main.py
docker run --rm -v $(pwd):/workspace acme/torch python3 main.py
docker run --rm -v $(pwd):/app -w /app acme/torch python3 main.py
docker run --rm -v $(pwd):/app acme/torch python3 -m train
docker run --rm -v $(pwd):/app acme/torch python3 /app/main.py
docker run --rm -v $(pwd)/data:/app acme/torch python3 main.py
```
"""


def test_a_script_run_from_a_folder_the_container_does_not_start_in(tmp_path: Path) -> None:
    # line 5 mounts the folder at /app, the container starts in /workspace; line 6 mounts it there;
    # line 7 starts in /app (-w); line 8 runs a module; line 9 an absolute path; line 10 mounts another
    # folder than the current one
    assert _audit(tmp_path, RUNS, RUNTIME) == [
        "5: README runs main.py from the current folder mounted at /app, but Dockerfile:3 says WORKDIR "
        "/workspace: the container starts there, where main.py is not (likely)"
    ]


def test_an_image_that_copies_the_context_may_hold_the_script(tmp_path: Path) -> None:
    assert _audit(tmp_path, RUNS, RUNTIME + "COPY . .\n") == []


def test_a_base_that_may_set_the_working_directory(tmp_path: Path) -> None:
    assert _audit(tmp_path, RUNS, "FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime\n") == []
