"""`docgen.audit.python_paths`: a Python version glued in a path of the image that is not the image's
Python.

Each rule: a planted drift next to the nearest true statement (a trap). The Dockerfiles are small
models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

# a CUDA base of no OS in its tag: the distribution's python3 is of a release docgen cannot tell, and
# the Dockerfile's own path says which it is
MOVED = """\
FROM nvidia/cuda:11.2.0-runtime
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip git
RUN cd /tmp && git clone https://github.com/example/vocoder.git && cd vocoder \\
    && python3 setup.py bdist_wheel && pip3 install ./dist/*.whl \\
    && mv vocoder/web/static /usr/local/lib/python3.8/dist-packages/vocoder/web/.
"""
DISTRO = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y python3 python3-pip && pip3 install flask==3.0.3
"""


def _audited(tmp_path: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_the_path_the_dockerfile_writes_with_another_python(tmp_path: Path) -> None:
    readme = "# Vocoder\n\nThe package in /usr/local/lib/python3.6/dist-packages/vocoder is patched.\n"
    assert _audited(tmp_path, readme, MOVED) == [
        "3: README names /usr/local/lib/python3.6/dist-packages/vocoder, a path of Python 3.6, but "
        "Dockerfile:5 writes /usr/local/lib/python3.8/dist-packages/vocoder/web: the image's Python is 3.8 "
        "(likely)"
    ]
    # the same Python, and another folder of the base's Python the distribution's python3 may be (traps)
    same = readme.replace("python3.6", "python3.8")
    assert _audited(tmp_path, same, MOVED) == []
    elsewhere = "# Vocoder\n\nSystem packages live in `/usr/lib/python3.6/dist-packages`.\n"
    assert _audited(tmp_path, elsewhere, MOVED) == []


def test_a_path_of_another_python_than_the_distributions(tmp_path: Path) -> None:
    readme = "# Service\n\nMount your patch over `/usr/local/lib/python3.8/dist-packages/flask/app.py`.\n"
    assert _audited(tmp_path, readme, DISTRO) == [
        "3: README names /usr/local/lib/python3.8/dist-packages/flask/app.py, a path of Python 3.8, but "
        "Dockerfile:2 says 3.10 (python3 of Ubuntu 22.04) (likely)"
    ]
    assert _audited(tmp_path, readme.replace("python3.8", "python3.10"), DISTRO) == []


@pytest.mark.parametrize(
    "line",
    [
        # the host's, a virtual environment's, a home folder's
        "On your machine the package is in `/usr/local/lib/python3.8/dist-packages/flask`.",
        "Locally, check /usr/lib/python3.8/site-packages.",
        "Copy `~/.local/lib/python3.8/site-packages/flask` out.",
        "It is in `/home/dev/.local/lib/python3.8/site-packages`.",
        "The venv is `/opt/venv/lib/python3.8/site-packages`.",
        # output pasted from a run
        '`File "/usr/local/lib/python3.8/dist-packages/flask/app.py", line 12, in run`',
    ],
)
def test_paths_that_are_not_the_images_python(tmp_path: Path, line: str) -> None:
    assert _audited(tmp_path, f"# Service\n\n{line}\n", DISTRO) == []


def test_a_traceback_block_is_output(tmp_path: Path) -> None:
    readme = """\
# Service

```
Traceback (most recent call last):
  File "/usr/local/lib/python3.8/dist-packages/flask/app.py", line 12, in run
```
"""
    assert _audited(tmp_path, readme, DISTRO) == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        DISTRO.replace("python3 python3-pip", "python3 python3.8 python3-pip"),  # deadsnakes' too
        DISTRO.replace("ubuntu:22.04", "acme/base:1.0"),  # a base docgen does not know
        DISTRO.replace("ubuntu:22.04", "nvidia/cuda:12.2.0-devel-ubi8"),  # an RPM distribution's
        DISTRO + "RUN curl -fsSL https://example.org/get-python.sh | bash\n",  # unread
        DISTRO + "RUN conda install -y python=3.8\n",
        DISTRO + "RUN uv python install 3.8\n",
        DISTRO + "COPY setup-python.sh /tmp/\nRUN bash /tmp/setup-python.sh\n",  # a script docgen has not
    ],
)
def test_an_image_whose_pythons_are_not_all_known_is_no_claim(tmp_path: Path, dockerfile: str) -> None:
    readme = "# Service\n\nMount your patch over `/usr/local/lib/python3.8/dist-packages/flask/app.py`.\n"
    assert _audited(tmp_path, readme, dockerfile) == []


def test_a_python_base_image(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.11-slim\nRUN pip install flask==3.0.3\n"
    readme = "# Service\n\nPatch `/usr/local/lib/python3.9/site-packages/flask/app.py`.\n"
    assert _audited(tmp_path, readme, dockerfile) == [
        "3: README names /usr/local/lib/python3.9/site-packages/flask/app.py, a path of Python 3.9, but "
        "Dockerfile:1 says Python 3.11 (likely)"
    ]
    assert _audited(tmp_path / "same", readme.replace("3.9", "3.11"), dockerfile) == []


def test_a_long_line_is_read_in_linear_time(tmp_path: Path) -> None:
    """Paths are dropped from a line before its words are read for the host: a pattern that could
    start anywhere in a run of word characters cost n² on a 200,000-character word."""
    import time

    readme = "# Service\n\n" + "a" * 200_000 + " /usr/local/lib/python3.8/dist-packages/flask\n"
    started = time.perf_counter()
    found = _audited(tmp_path, readme, DISTRO)
    assert time.perf_counter() - started < 20
    said = "3: README names /usr/local/lib/python3.8/dist-packages/flask"
    assert [f.split(",")[0] for f in found] == [said]
