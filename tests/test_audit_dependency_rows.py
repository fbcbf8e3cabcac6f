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


# A CUDA image whose Python packages come from a cloned project's requirements (unread), with a
# `Component | Version` table whose last row lists the extra tools of the image.
CLONED = """\
FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends \\
    python3.10 python3-pip git wget ninja-build libgl1 && rm -rf /var/lib/apt/lists/*
RUN git clone https://github.com/acme/splat3d.git /workspace/splat3d
WORKDIR /workspace/splat3d
RUN pip install -r requirements.txt
"""
STACK = """\
# Splat3D container

| Component | Version |
|-----------|---------|
| CUDA      | 12.1 |
| cuDNN     | 8 |
| Python    | 3.10 |
| Tools     | {tools} |
"""


def test_a_row_listing_tools_the_build_never_installs(tmp_path: Path) -> None:
    readme = STACK.format(tools="git, ninja, ffmpeg, unzip")
    assert _audited(tmp_path, readme, {"Dockerfile": CLONED}) == [
        "8: README lists ffmpeg as a package of the image but Dockerfile installs no ffmpeg, and its base "
        "nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 (Dockerfile:1, a CUDA image) does not carry it",
        "8: README lists unzip as a package of the image but Dockerfile installs no unzip, and its base "
        "nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 (Dockerfile:1, a CUDA image) does not carry it",
    ]


@pytest.mark.parametrize(
    ("tools", "dockerfile"),
    [
        # installed: by apt, or a system package of that name
        ("git, ninja, ffmpeg", CLONED.replace("libgl1", "libgl1 ffmpeg")),
        # a tool pip may bring (the unread requirements may name it)
        ("git, ninja, cmake, gdown", CLONED),
        # a row of tools the build names none of (the host's)
        ("ffmpeg, unzip", CLONED),
        # the row says they are optional
        ("ninja, ffmpeg (optional)", CLONED),
        # an unread list conda installs may bring ffmpeg
        ("ninja, ffmpeg", CLONED.replace("pip install -r requirements.txt", "conda env create -f env.yml")),
        # the whole build context copied: something in it may install them
        ("ninja, ffmpeg", CLONED + "COPY . /opt/ctx\nRUN bash /opt/ctx/setup.sh\n"),
    ],
)
def test_rows_of_tools_the_image_may_hold(tmp_path: Path, tools: str, dockerfile: str) -> None:
    assert _audited(tmp_path, STACK.format(tools=tools), {"Dockerfile": dockerfile}) == []


def test_a_list_of_what_the_image_includes_past_unread_requirements(tmp_path: Path) -> None:
    # (`contents.cannot_hold`: a Python package may come from the unread requirements, a system program not)
    readme = "# Splat3D\n\n## Contents\n\n- ninja\n- ffmpeg\n- opencv-python\n"
    found = _audited(tmp_path, readme, {"Dockerfile": CLONED})
    assert [f.split(" as in")[0] for f in found] == ["6: README lists ffmpeg"]
