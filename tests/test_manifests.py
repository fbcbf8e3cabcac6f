"""`docgen.manifests`: the exact pins of the requirements files and local projects a Dockerfile installs
from its build context, each at the manifest's own line, and the audit comparing a README's versions
with them (a planted drift next to the nearest true statement)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.manifests import manifest_pins
from docgen.pipeline import build_model

REQUIREMENTS = """\
# serving stack
fastapi==0.115.2
uvicorn[standard]==0.32.0  # the server
numpy>=1.26
-r extra.txt
"""
EXTRA = "httpx===0.27.2\n"
PYPROJECT = """\
[project]
name = "demo"
version = "0.1.0"
dependencies = [
  "jupyterlab==4.2.5",
  "requests",
]

[project.optional-dependencies]
gpu = ["cupy-cuda12x==13.3.0"]
docs = ["mkdocs==1.6.1"]
"""


def _tree(tmp_path: Path, dockerfile: str, files: dict[str, str]) -> str:
    tmp_path.mkdir(exist_ok=True)
    for name, text in {"Dockerfile": dockerfile, **files}.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    manifest_pins.cache_clear()
    return str(tmp_path / "Dockerfile")


def _pins(file: str, shown: str = "docker/Dockerfile") -> list[tuple[str, str, str, int, int]]:
    model = build_model(Path(file), shown)
    return [
        (p.name, p.version, p.file, p.line, p.installed)
        for p in manifest_pins(file, shown, model.installs, model.context_copies)
    ]


def test_a_requirements_file_copied_and_installed(tmp_path: Path) -> None:
    file = _tree(
        tmp_path,
        "FROM python:3.12-slim\nWORKDIR /srv\nCOPY reqs/ ./reqs/\n"
        "RUN pip install --no-cache-dir -r reqs/base.txt\n",
        {"reqs/base.txt": REQUIREMENTS, "reqs/extra.txt": EXTRA},
    )
    assert _pins(file) == [
        ("fastapi", "0.115.2", "docker/reqs/base.txt", 2, 4),
        ("uvicorn", "0.32.0", "docker/reqs/base.txt", 3, 4),
        ("httpx", "0.27.2", "docker/reqs/extra.txt", 1, 4),
    ]


@pytest.mark.parametrize(
    ("copy", "install", "extra"),
    [
        ("COPY pyproject.toml .", "RUN uv pip install --system .", ()),
        ("COPY . /app", "RUN pip install -e '.[gpu]'", ("cupy-cuda12x",)),
        ("COPY pyproject.toml uv.lock ./", "RUN uv sync --frozen --extra docs", ("mkdocs",)),
        ("COPY pyproject.toml /opt/proj/", "RUN python3 -m pip install /opt/proj", ()),
    ],
)
def test_a_local_project_installed(tmp_path: Path, copy: str, install: str, extra: tuple[str, ...]) -> None:
    file = _tree(
        tmp_path,
        f"FROM python:3.12\nWORKDIR /app\n{copy}\n{install}\n",
        {"pyproject.toml": PYPROJECT, "uv.lock": ""},
    )
    assert [name for name, *_ in _pins(file, "Dockerfile")] == ["jupyterlab", *extra]
    assert _pins(file, "Dockerfile")[0][2:4] == ("pyproject.toml", 5)


@pytest.mark.parametrize(
    "run",
    [
        # a heredoc script
        "RUN <<EOF\nset -e\npip install -r /src/reqs/extra.txt\nEOF\n",
        # a path a build arg's default gives
        "ARG REQS=reqs/extra.txt\nRUN pip install -r /src/${REQS}\n",
        # the directory a `cd` moves to
        "RUN cd /src/reqs && pip install -r extra.txt\n",
    ],
)
def test_an_install_as_the_extraction_reads_it(tmp_path: Path, run: str) -> None:
    file = _tree(tmp_path, f"FROM python:3.12\nCOPY reqs /src/reqs\n{run}", {"reqs/extra.txt": EXTRA})
    assert [pin[:4] for pin in _pins(file)] == [("httpx", "0.27.2", "docker/reqs/extra.txt", 1)]


def test_a_requirements_file_bind_mounted(tmp_path: Path) -> None:
    file = _tree(
        tmp_path,
        "FROM python:3.12\nRUN --mount=type=cache,target=/root/.cache \\\n"
        "    --mount=type=bind,source=reqs/extra.txt,target=/tmp/r.txt \\\n"
        "    pip install -r /tmp/r.txt\n",
        {"reqs/extra.txt": EXTRA},
    )
    assert _pins(file) == [("httpx", "0.27.2", "docker/reqs/extra.txt", 1, 2)]


def test_a_nested_file_out_of_the_build_context(tmp_path: Path) -> None:
    (tmp_path / "shared.txt").write_text("rich==13.9.4\n")
    file = _tree(
        tmp_path / "ctx",
        "FROM python:3.12\nCOPY requirements.txt /\nRUN pip install -r /requirements.txt\n",
        {"requirements.txt": "-r ../shared.txt\nclick==8.1.7\n"},
    )
    assert _pins(file) == [("click", "8.1.7", "docker/requirements.txt", 2, 3)]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # installed, never copied from the build context
        "FROM python:3.12\nRUN pip install -r /tmp/requirements.txt\n",
        # copied, never installed
        "FROM python:3.12\nCOPY requirements.txt /tmp/\nRUN pip install fastapi\n",
        # a path only the shell knows
        "FROM python:3.12\nCOPY requirements.txt /tmp/\nRUN pip install -r $REQS\n",
        # copied from another stage, not the build context
        "FROM python:3.12\nCOPY --from=builder /r/requirements.txt /tmp/\n"
        "RUN pip install -r /tmp/requirements.txt\n",
    ],
)
def test_no_manifest_read(tmp_path: Path, dockerfile: str) -> None:
    file = _tree(tmp_path, dockerfile, {"requirements.txt": REQUIREMENTS})
    assert _pins(file) == []


README = """\
# Demo image

- JupyterLab {}
- FastAPI {}
"""


def _audit(tmp_path: Path, readme: str) -> list[str]:
    file = _tree(
        tmp_path,
        "FROM python:3.12\nWORKDIR /app\nCOPY requirements.txt pyproject.toml ./\n"
        "RUN pip install -r requirements.txt && pip install .\n",
        {"requirements.txt": REQUIREMENTS, "extra.txt": EXTRA, "pyproject.toml": PYPROJECT},
    )
    model = build_model(Path(file), "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, tmp_path)
    ]


def test_a_version_the_manifest_pins_otherwise(tmp_path: Path) -> None:
    assert _audit(tmp_path, README.format("4.1.0", "0.115.2")) == [
        "3: README says JupyterLab 4.1.0 but pyproject.toml:5 says jupyterlab==4.2.5 (likely)"
    ]


def test_the_versions_the_manifests_pin(tmp_path: Path) -> None:
    assert _audit(tmp_path, README.format("4.2.5", "0.115")) == []


def test_the_installs_the_extraction_records(tmp_path: Path) -> None:
    file = _tree(
        tmp_path,
        "FROM python:3.12\nWORKDIR /src\nARG REQS=base.txt\n"
        "RUN cd app && pip install -e '.[gpu]' -r ${REQS} && pip wheel -r wheels.txt\n"
        "RUN conda install --file env.txt && uv sync --project /opt/p --extra docs\n"
        "RUN pip install -r $(cat list) numpy ./dist/x-1.0.whl\n",
        {},
    )
    installs = build_model(Path(file), "Dockerfile").installs
    assert [(i.kind, i.path, i.extras, i.line) for i in installs] == [
        ("requirements", "/src/app/base.txt", (), 4),
        ("project", "/src/app", ("gpu",), 4),
        ("requirements", "/src/env.txt", (), 5),
        ("project", "/opt/p", ("docs",), 5),
    ]


@pytest.mark.parametrize(
    "copy",
    [
        'COPY ["reqs/base.txt", "/srv/requirements.txt"]',  # the JSON form
        "ARG REQS=reqs/base.txt\nCOPY ${REQS} /srv/requirements.txt",  # a path an ARG gives
    ],
)
def test_a_requirements_file_copied_as_the_build_reads_the_copy(tmp_path: Path, copy: str) -> None:
    file = _tree(
        tmp_path,
        f"FROM python:3.12-slim\n{copy}\nRUN pip install -r /srv/requirements.txt\n",
        {"reqs/base.txt": "fastapi==0.115.2\n"},
    )
    assert [(name, version) for name, version, *_ in _pins(file)] == [("fastapi", "0.115.2")]


@pytest.mark.parametrize(
    ("copy", "ignore", "pinned"),
    [
        ("COPY reqs/*.txt /srv/", "", True),  # a glob: BuildKit's, one file into a folder
        ("COPY reqs /srv/", "", True),  # a folder's contents under the destination
        ("COPY . /srv/reqs/", "", True),  # the whole context, `reqs/` below it
        # what the `.dockerignore` leaves out is not in the build: the install reads nothing
        ("COPY reqs/*.txt /srv/", "reqs/*.txt\n", False),
        ("COPY . /srv/reqs/", "reqs\n", False),
        ("COPY . /srv/reqs/", "reqs\n!reqs/base.txt\n", True),  # an exception takes it back
        ("COPY . /srv/reqs/", "*.txt\n", True),  # BuildKit: `*.txt` is the context's top only
    ],
)
def test_a_copy_read_as_docgen_copied_reads_it(tmp_path: Path, copy: str, ignore: str, pinned: bool) -> None:
    """`manifests` asks `docgen.copied.placed` which file of the context a COPY puts where the install
    reads: the same reading (globs, folders, `.dockerignore`) as every audit rule."""
    install = "/srv/reqs/reqs/base.txt" if " . " in copy else "/srv/base.txt"
    file = _tree(
        tmp_path,
        f"FROM python:3.12-slim\n{copy}\nRUN pip install -r {install}\n",
        {"reqs/base.txt": "fastapi==0.115.2\n", **({".dockerignore": ignore} if ignore else {})},
    )
    assert bool(_pins(file)) is pinned


def test_a_later_copy_to_the_same_place_wins(tmp_path: Path) -> None:
    file = _tree(
        tmp_path,
        "FROM python:3.12-slim\nCOPY old.txt /srv/requirements.txt\nCOPY new.txt /srv/requirements.txt\n"
        "RUN pip install -r /srv/requirements.txt\n",
        {"old.txt": "fastapi==0.100.0\n", "new.txt": "fastapi==0.115.2\n"},
    )
    assert [(name, version) for name, version, *_ in _pins(file)] == [("fastapi", "0.115.2")]


@pytest.mark.parametrize(
    ("later", "version"),
    [
        ("", "1.0"),  # the folder copied in the first stage holds it
        ("COPY reqs/base.txt /srv/reqs/base.txt\n", "3.0"),  # a file copied later over it wins
        ("COPY other/ /srv/reqs/\n", "2.0"),  # a folder copied later over it wins
        ("COPY other/ /srv/elsewhere/\n", "1.0"),  # a folder copied elsewhere changes nothing
        ("WORKDIR /srv/reqs\nCOPY base.txt .\n", "4.0"),  # a file copied into the WORKDIR
    ],
)
def test_a_file_put_by_a_copy_of_a_stage_the_install_is_built_on(
    tmp_path: Path, later: str, version: str
) -> None:
    # the copies a stage inherits are found by the paths they put, not asked one by one
    file = _tree(
        tmp_path,
        "FROM python:3.12-slim AS base\nCOPY deps/ /srv/reqs/\nFROM base AS mid\n"
        + later
        + "FROM mid AS app\nRUN pip install -r /srv/reqs/base.txt\n",
        {
            "deps/base.txt": "fastapi==1.0\n",
            "other/base.txt": "fastapi==2.0\n",
            "reqs/base.txt": "fastapi==3.0\n",
            "base.txt": "fastapi==4.0\n",
        },
    )
    assert [(name, version) for name, version, *_ in _pins(file)] == [("fastapi", version)]


def test_a_link_out_of_the_build_context_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "base.txt").write_text("fastapi==0.115.2\n")
    file = _tree(
        tmp_path / "ctx",
        "FROM python:3.12-slim\nCOPY base.txt /srv/\nRUN pip install -r /srv/base.txt\n",
        {},
    )
    (tmp_path / "ctx" / "base.txt").symlink_to(outside / "base.txt")
    assert _pins(file) == []


@pytest.mark.parametrize(
    ("dockerfile", "pinned"),
    [
        # the WORKDIR is a folder: the file keeps its name in it (a GAN trainer's Dockerfile)
        ("WORKDIR /training\nCOPY requirements.txt  /training\nRUN pip install -r requirements.txt\n", True),
        # a folder above the WORKDIR is one too
        ("WORKDIR /srv/app\nCOPY requirements.txt /srv\nRUN pip install -r /srv/requirements.txt\n", True),
        # trap: no folder is known there, so the file is copied to that very path
        (
            "WORKDIR /srv\nCOPY requirements.txt /opt/reqs\nRUN pip install -r /opt/reqs/requirements.txt\n",
            False,
        ),
        ("WORKDIR /srv\nCOPY base.txt /opt/reqs\nRUN pip install -r /opt/reqs\n", True),
    ],
)
def test_a_file_copied_to_the_workdir_without_a_slash(tmp_path: Path, dockerfile: str, pinned: bool) -> None:
    file = _tree(
        tmp_path,
        f"FROM python:3.9-slim\n{dockerfile}",
        {"requirements.txt": "fastapi==0.115.2\n", "base.txt": "fastapi==0.115.2\n"},
    )
    assert bool(_pins(file)) is pinned


def _trainer(tmp_path: Path, readme: str) -> list[str]:
    """A trainer image on a PyTorch base whose requirements file pins another torch release."""
    file = _tree(
        tmp_path,
        "FROM pytorch/pytorch:1.10.0-cuda11.3-cudnn8-runtime\nWORKDIR /training\n"
        "COPY requirements.txt /training\nRUN pip install --no-cache-dir -r requirements.txt\n",
        {"requirements.txt": "torch==1.10.1\ntorchvision==0.11.2\n"},
    )
    model = build_model(Path(file), "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", model, {}, tmp_path)
    ]


def test_a_requirements_pin_replaces_the_base_tags_version(tmp_path: Path) -> None:
    # the README lists the requirements: torch 1.10.1 holds for the image, not the tag's 1.10.0
    listed = "# GAN\n\n## Requirements\n\n- torch==1.10.1\n- torchvision==0.11.2\n"
    assert _trainer(tmp_path, listed) == []
    # the base tag's release, which the requirements file replaced, is stale
    stale = "# GAN\n\n## Requirements\n\n- torch==1.10.0\n- torchvision==0.11.2\n"
    assert _trainer(tmp_path, stale) == [
        "5: README says torch 1.10.0 but requirements.txt:1 says torch==1.10.1 (certain)"
    ]


def test_a_requirements_pin_of_a_stage_the_image_is_not_built_on_replaces_nothing(tmp_path: Path) -> None:
    # trap: a test stage built on the image installs the requirements; the image built (`--target
    # runtime`) is the PyTorch base with the app
    file = _tree(
        tmp_path,
        "FROM pytorch/pytorch:1.10.0-cuda11.3-cudnn8-runtime AS runtime\nCOPY app.py /app/\n\n"
        "FROM runtime AS tests\nCOPY requirements.txt /src/\nRUN pip install -r /src/requirements.txt\n",
        {"requirements.txt": "torch==1.10.1\n", "app.py": ""},
    )
    model = build_model(Path(file), "Dockerfile", target="runtime")
    readme = "# App\n\nThe image ships PyTorch 1.10.0.\n"
    assert audit(readme, "README.md", model, {}, tmp_path) == []
