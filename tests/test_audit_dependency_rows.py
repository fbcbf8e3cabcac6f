"""`docgen audit`: tables of the image's packages (`| Package | Version | Source |`) against every install
the build makes (docgen/audit/dependency_rows.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

SERVER = """\
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends libgomp1 && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir torch==2.3.1 --index-url https://download.pytorch.org/whl/cpu && \\
    pip install --no-cache-dir fastapi==0.110.0 uvicorn
COPY requirements.txt /tmp/requirements.txt
RUN pip install --no-cache-dir -r /tmp/requirements.txt
CMD ["uvicorn", "app:main"]
"""
REQUIREMENTS = "pydantic>=2\nhttpx\n"
FILES = {"Dockerfile": SERVER, "requirements.txt": REQUIREMENTS}
TABLE = """\
# Scoring server

## Dependencies

| Package | Version | Source |
|---------|---------|--------|
| torch | 2.3.1 | `https://download.pytorch.org/whl/cpu` |
| fastapi | 0.110.0 | PyPI |
| uvicorn | latest | PyPI |
| {row} |
"""


PROJECT = """\
## Dependencies

| Package | Version |
|---|---|
| torch | 2.3 |
| orjson | 3 |
| numba | 1 |
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, files)
    paths = [path for path in files if "Dockerfile" in path]
    models = [build_model(tmp_path / path, path) for path in paths]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]


@pytest.mark.parametrize(
    "row",
    [
        "orjson | 3.10 | PyPI",
        "`orjson` | (matches fastapi) | `https://download.pytorch.org/whl/cpu`",
        "orjson | latest | PyPI",
    ],
)
def test_a_row_naming_a_package_no_install_names(tmp_path: Path, row: str) -> None:
    assert _audited(tmp_path, TABLE.format(row=row), FILES) == [
        "10: README lists orjson as a package of the image but Dockerfile installs no orjson"
    ]


def test_the_header_may_say_dependency_or_component(tmp_path: Path) -> None:
    readme = TABLE.replace("| Package | Version | Source |", "| Dependency | Pinned version | Index |")
    assert _audited(tmp_path, readme.format(row="orjson | 3.10 | PyPI"), FILES) == [
        "10: README lists orjson as a package of the image but Dockerfile installs no orjson"
    ]


@pytest.mark.parametrize(
    "row",
    [
        # in the copied requirements file
        "httpx | latest | PyPI",
        # installed with the system's package manager
        "libgomp1 | 12 | apt",
        # pulled in by a package the build installs (torch brings triton)
        "triton | 2.3.1 | PyPI",
        # the row says how it comes
        "sympy | (pulled by torch) | PyPI",
        "orjson | 3.10 | optional, `pip install orjson` yourself",
        "orjson | 3.10 | downloaded at runtime",
        "orjson | - | not included",
    ],
)
def test_rows_the_image_may_hold(tmp_path: Path, row: str) -> None:
    assert _audited(tmp_path, TABLE.format(row=row), FILES) == []


@pytest.mark.parametrize(
    "files",
    [
        # a requirements file docgen has no copy of
        {"Dockerfile": SERVER},
        # a script it runs
        {**FILES, "Dockerfile": SERVER + "RUN curl -fsSL https://example.org/extras.sh | bash\n"},
        # the dependencies of a project it installs
        {**FILES, "Dockerfile": SERVER + "RUN git clone https://x.org/s /opt/s && pip install /opt/s\n"},
        # a base image that may carry it
        {**FILES, "Dockerfile": SERVER.replace("python:3.11-slim", "nvcr.io/nvidia/pytorch:24.05-py3")},
        {**FILES, "Dockerfile": SERVER.replace("python:3.11-slim", "acme/ml-runtime:3.2")},
    ],
)
def test_builds_whose_installs_docgen_cannot_all_read(tmp_path: Path, files: dict[str, str]) -> None:
    assert _audited(tmp_path, TABLE.format(row="orjson | 3.10 | PyPI"), files) == []


@pytest.mark.parametrize(
    "readme",
    [
        # a table of what is optional, or needed on the host
        TABLE.replace("## Dependencies", "## Optional dependencies"),
        TABLE.replace("## Dependencies", "## Host requirements"),
        # the project's own dependencies: the build names too few of them
        PROJECT,
        # no column of versions or sources
        TABLE.replace("| Package | Version | Source |", "| Package | Purpose | Notes |"),
    ],
)
def test_tables_that_are_not_the_images_packages(tmp_path: Path, readme: str) -> None:
    assert _audited(tmp_path, readme.format(row="orjson | 3.10 | PyPI"), FILES) == []
