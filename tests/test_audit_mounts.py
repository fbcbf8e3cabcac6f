"""`docgen.audit.mounts`: the folder a README's `docker run -v "$PWD:/app" IMAGE python main.py` mounts
the current folder at, against the WORKDIR a container of the image starts in. A planted drift and the
nearest true commands as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
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
    # (the context holds main.py: without it, unshipped_cmd.unshipped_run_scripts reports the run)
    assert _audit(tmp_path, RUNS, RUNTIME + "COPY . .\n", {"main.py": "print(1)\n"}) == []


def test_a_base_that_may_set_the_working_directory(tmp_path: Path) -> None:
    assert _audit(tmp_path, RUNS, "FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime\n") == []


SERVED = """\
FROM python:3.11-slim
COPY ./requirements.txt /srv/reader/requirements.txt
WORKDIR /srv/reader
RUN pip install -r requirements.txt
COPY . /srv/reader
CMD ["uvicorn", "api:app", "--host", "0.0.0.0", "--port", "80"]
"""

HIDES = (
    "README mounts {0}, a folder of one person's machine, over /srv/reader, where Dockerfile:5 copies "
    "the project and the container starts: elsewhere docker makes it empty and it hides the image's code "
    "(likely)"
)


def _served(run: str, prose: str = "Run it:") -> str:
    return f"# Reader\n\n```\ndocker build -t mirela77/reader:ocr .\n```\n\n{prose}\n\n```\n{run}\n```\n"


def _hides(found: list[str]) -> list[str]:
    return [f for f in found if "one person's machine" in f]


@pytest.mark.parametrize(
    "host",
    [
        "~/mirela/reader-api",  # a folder named after the image's owner (mirela77)
        "/home/tomasz/code/reader",  # a named user's home
        "/Users/tomasz/dev/reader",
        "C:\\Users\\tomasz\\reader",
    ],
)
def test_a_folder_of_the_authors_machine_over_the_code(tmp_path: Path, host: str) -> None:
    readme = _served(f"docker run --gpus all -v {host}:/srv/reader -p 80:80 mirela77/reader:ocr")
    assert _hides(_audit(tmp_path, readme, SERVED)) == [f"10: {HIDES.format(host)}"]


@pytest.mark.parametrize(
    ("run", "prose", "dockerfile"),
    [
        ("docker run -v $(pwd):/srv/reader mirela77/reader:ocr", "Run it:", SERVED),  # the checkout
        ("docker run -v ${PWD}:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v .:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /home/user/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),  # anyone's
        ("docker run -v /home/ubuntu/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /home/$USER/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /path/to/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /home/<you>/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v ~/projects/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),  # not a name
        ("docker run -v /home/tomasz/scans:/data mirela77/reader:ocr", "Run it:", SERVED),  # a data folder
        ("docker run -v /home/tomasz/out:/srv/reader/out mirela77/reader:ocr", "Run it:", SERVED),
        (  # the prose tells to put one's own folder there
            "docker run -v /home/tomasz/reader:/srv/reader mirela77/reader:ocr",
            "Replace /home/tomasz/reader with the folder you cloned into:",
            SERVED,
        ),
        ("docker run -v /home/tomasz/reader:/srv/reader tomasz/other", "Run it:", SERVED),  # not built here
        (  # the image copies no project into the folder
            "docker run -v /home/tomasz/reader:/srv/reader mirela77/reader:ocr",
            "Run it:",
            SERVED.replace("COPY . /srv/reader\n", "COPY api.py /srv/reader/\n"),
        ),
        (  # nor starts there
            "docker run -v /home/tomasz/reader:/srv/reader mirela77/reader:ocr",
            "Run it:",
            SERVED + "WORKDIR /tmp\n",
        ),
    ],
)
def test_mounts_that_keep_the_code(tmp_path: Path, run: str, prose: str, dockerfile: str) -> None:
    assert _hides(_audit(tmp_path, _served(run, prose), dockerfile)) == []
