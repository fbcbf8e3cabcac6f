"""`docgen audit`: a README build whose Dockerfile has a RUN reading a file of the build context before a
later COPY or ADD of its stage brings it (docgen/audit/early_reads.py, told by
docgen/audit/broken_runs.py): `conda env create -f env.yml` at one line, `COPY env.yml .` four lines on.

Each drift is planted next to the nearest sound Dockerfile (a trap): the file copied first, a clone or
a download that brings it, a bind mount, a folder copied earlier, a base image that may ship it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.early_reads import read_files

BUILD = "docker build -t tern:dev ."


def _audited(
    tmp_path: Path,
    dockerfile: str,
    block: str = BUILD,
    name: str = "Dockerfile",
    files: dict[str, str] | None = None,
) -> list[str]:
    tree = {name: dockerfile, "env.yml": "name: tern\n", "requirements.txt": "flask==3.0.0\n"}
    make_tree(tmp_path, {**tree, **(files or {})})
    models = [build_model(tmp_path / name, name)]
    readme = f"# Tern\n\n## Build\n\n```bash\n{block}\n```\n"
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "cannot complete" in d.message
    ]


# modelled on a demo's inpainting image: a bash SHELL, conda set up, the env file copied too late
CONDA = """FROM nvidia/cuda:12.2.2-cudnn8-devel-ubuntu20.04
SHELL ["bash", "-c"]
RUN apt-get update && apt-get install -y wget
RUN cd /tmp && wget https://example.org/conda.sh && bash ./conda.sh -b && rm ./conda.sh
WORKDIR /srv/tern
RUN source ~/conda/bin/activate && \\
    conda env create -y -n tern -f env.yml && \\
    conda activate tern
COPY --chown=app docker/env.yml .
RUN pip install flask
"""


def test_conda_env_file_copied_after_the_run(tmp_path: Path) -> None:
    assert _audited(tmp_path, CONDA, files={"docker/env.yml": "name: tern\n"}) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 6 runs `conda env create -y -n "
        "tern -f env.yml` (line 7), which reads env.yml (/srv/tern/env.yml) before the COPY at line 9 puts "
        "it there: no earlier step of the stage brings it, so the command finds no such file and the RUN "
        "fails (copy it before line 6) (certain)"
    ]


def test_copied_first_is_silent(tmp_path: Path) -> None:
    sound = CONDA.replace("COPY --chown=app docker/env.yml .\n", "").replace(
        "WORKDIR /srv/tern\n", "WORKDIR /srv/tern\nCOPY --chown=app docker/env.yml .\n"
    )
    assert _audited(tmp_path, sound, files={"docker/env.yml": "name: tern\n"}) == []


# modelled on a small web service: requirements installed, then the whole context copied
SERVICE = """FROM python:3.11-slim
WORKDIR /app
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
CMD ["python", "app.py"]
"""


def test_requirements_read_before_the_whole_context_is_copied(tmp_path: Path) -> None:
    assert _audited(tmp_path, SERVICE, "docker compose up --build", files={"compose.yaml": COMPOSE}) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 3 runs `pip install "
        "--no-cache-dir -r requirements.txt`, which reads requirements.txt (/app/requirements.txt) before "
        "the COPY at line 4 puts it there: no earlier step of the stage brings it, so the command finds no "
        "such file and the RUN fails (copy it before line 3) (certain)"
    ]


COMPOSE = "services:\n  web:\n    build: .\n"


@pytest.mark.parametrize(
    "earlier",
    [
        "COPY requirements.txt ./",  # the usual order
        "COPY . /app",  # the whole context first
        "COPY ./requirements.txt /app/requirements.txt",
        "COPY *.txt ./",  # a glob
        "COPY --from=builder /app /app",  # another stage's folder
        "RUN pip freeze > requirements.txt",  # a RUN writes it
        "RUN git clone https://example.org/tern.git .",  # a clone into the folder
        "RUN curl -fsSLO https://example.org/tern/requirements.txt",  # a download
        "ADD tern.tar.gz /app/",  # a local archive ADD unpacks
        "ADD https://example.org/tern.git /app",  # a repository ADD clones
    ],
)
def test_an_earlier_step_that_may_bring_it_is_silent(tmp_path: Path, earlier: str) -> None:
    dockerfile = SERVICE.replace("WORKDIR /app\n", f"WORKDIR /app\n{earlier}\n")
    if "builder" in earlier:
        dockerfile = "FROM python:3.11-slim AS builder\nRUN mkdir /app\n" + dockerfile
    assert _audited(tmp_path, dockerfile) == []


@pytest.mark.parametrize(
    "run",
    [
        "RUN --mount=type=bind,source=requirements.txt,target=requirements.txt \\\n"
        "    pip install -r requirements.txt",
        "RUN --mount=type=bind,target=/app pip install -r requirements.txt",
        "RUN test -f requirements.txt && pip install -r requirements.txt || true",  # failure not returned
        "RUN pip install -r requirements.txt; echo done",  # `;`: the RUN's status is echo's
        "RUN if [ -f requirements.txt ]; then pip install -r requirements.txt; fi",
        "RUN pip install -r /opt/other/requirements.txt",  # another path than the COPY's
        "RUN cd $SRC && pip install -r requirements.txt",  # a folder only the build knows
        "RUN pip install -r ${REQS}",
    ],
)
def test_runs_that_do_not_fail_or_read_elsewhere_are_silent(tmp_path: Path, run: str) -> None:
    dockerfile = SERVICE.replace("RUN pip install --no-cache-dir -r requirements.txt", run)
    assert _audited(tmp_path, dockerfile) == []


# modelled on a research repository's training image: an install script run before it is copied
SCRIPT = """FROM ghcr.io/tern-lab/base:2024.1
WORKDIR /opt/tern-trainer
RUN bash install_deps.sh && pip install -e .
COPY scripts/install_deps.sh ./
COPY . .
"""


def test_script_in_a_folder_a_workdir_made_is_certain(tmp_path: Path) -> None:
    assert _audited(tmp_path, SCRIPT, files={"scripts/install_deps.sh": "pip install torch\n"}) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 3 runs `bash install_deps.sh`, "
        "which reads install_deps.sh (/opt/tern-trainer/install_deps.sh) before the COPY at line 4 puts it "
        "there: no earlier step of the stage brings it, so the command finds no such file and the RUN "
        "fails (copy it before line 3) (certain)"
    ]


def test_script_on_a_base_the_readme_builds_is_likely(tmp_path: Path) -> None:
    # the README builds the base first: it may hold the folder and the script
    block = "docker build -f base.Dockerfile -t ghcr.io/tern-lab/base:2024.1 .\n" + BUILD
    found = _audited(tmp_path, SCRIPT, block, files={"scripts/install_deps.sh": "true\n"})
    assert len(found) == 1 and found[0].endswith("(likely)"), found


def test_script_in_a_generic_folder_of_an_unknown_base_is_likely(tmp_path: Path) -> None:
    dockerfile = SCRIPT.replace("/opt/tern-trainer", "/workspace")
    found = _audited(tmp_path, dockerfile, files={"scripts/install_deps.sh": "pip install torch\n"})
    assert len(found) == 1 and found[0].endswith("(likely)"), found


def test_a_remote_file_add_does_not_unpack(tmp_path: Path) -> None:
    # ADD of a URL puts the archive itself: no requirements.txt comes out of it
    dockerfile = SERVICE.replace(
        "WORKDIR /app\n", "WORKDIR /app\nADD https://example.org/tern.tar.gz /app/\n"
    )
    assert len(_audited(tmp_path, dockerfile)) == 1


def test_absolute_path_in_a_system_folder_is_likely(tmp_path: Path) -> None:
    dockerfile = "FROM debian:12\nRUN bash /etc/tern/setup.sh\nCOPY setup.sh /etc/tern/\n"
    found = _audited(tmp_path, dockerfile, files={"setup.sh": "true\n"})
    assert len(found) == 1 and found[0].endswith("(likely)"), found


def test_project_installed_before_its_files_are_copied(tmp_path: Path) -> None:
    # modelled on a package's dev image: an editable install of the folder, then the sources
    dockerfile = "FROM python:3.12\nWORKDIR /src/tern\nRUN pip install -e '.[dev]'\nCOPY . .\n"
    found = _audited(tmp_path, dockerfile, files={"pyproject.toml": "[project]\nname = 'tern'\n"})
    assert len(found) == 1 and "reads pyproject.toml (/src/tern/pyproject.toml)" in found[0], found
    setup_first = dockerfile.replace("RUN pip", "COPY setup.py .\nRUN pip")
    assert _audited(tmp_path, setup_first, files={"pyproject.toml": "[project]\nname = 'tern'\n"}) == []


# modelled on a single-page app's docs service and on an agent framework's image: the dev requirements
# copied, the base requirements they include with `-r` only in the whole context copied later
NESTED = """FROM python:3.10-slim
WORKDIR /srv/docs
COPY requirements-dev.txt ./
RUN pip install --no-cache-dir -r requirements-dev.txt
COPY . .
"""


def test_a_requirements_file_naming_one_copied_later(tmp_path: Path) -> None:
    files = {"requirements-dev.txt": "# dev\n-r requirements.txt\nsphinx==7.2.6\n"}
    assert _audited(tmp_path, NESTED, files=files) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 4 runs `pip install --no-cache-dir "
        "-r requirements-dev.txt`, whose requirements-dev.txt:2 names requirements.txt, which it reads "
        "(/srv/docs/requirements.txt) before the COPY at line 5 puts it there: no earlier step of the stage "
        "brings it, so the command finds no such file and the RUN fails (copy it before line 4) (certain)"
    ]
    both = NESTED.replace("COPY requirements-dev.txt ./", "COPY requirements.txt requirements-dev.txt ./")
    assert _audited(tmp_path, both, files=files) == []
    elsewhere = {"requirements-dev.txt": "-r ../shared/base.txt\n"}  # a file no later COPY brings
    assert _audited(tmp_path, NESTED, files=elsewhere) == []


def test_a_stage_built_on_one_that_copied_it_is_silent(tmp_path: Path) -> None:
    dockerfile = (
        "FROM python:3.11-slim AS base\nWORKDIR /app\nCOPY requirements.txt .\n"
        "FROM base AS app\nRUN pip install -r requirements.txt\nCOPY requirements.txt .\nCOPY . .\n"
    )
    assert _audited(tmp_path, dockerfile) == []


def test_a_stage_the_build_does_not_build_is_silent(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.11-slim AS docs\nWORKDIR /d\nRUN pip install -r requirements.txt\nCOPY . .\n"
    dockerfile += (
        "FROM python:3.11-slim AS app\nWORKDIR /app\nCOPY . .\nRUN pip install -r requirements.txt\n"
    )
    assert _audited(tmp_path, dockerfile, "docker build --target app -t tern .") == []
    assert _audited(tmp_path, dockerfile, "docker build -t tern .") == []


def test_compose_file_named_with_f_from_the_project_top(tmp_path: Path) -> None:
    # the README in docker/ builds with `-f docker/compose.yaml` from the project's top, context `..`
    compose = "services:\n  lab:\n    build:\n      context: ..\n      dockerfile: docker/lab/Dockerfile\n"
    dockerfile = "FROM ubuntu:22.04\nWORKDIR /opt/lab\nRUN bash setup_lab.sh\nCOPY lab/setup_lab.sh .\n"
    make_tree(
        tmp_path,
        {"docker/compose.yaml": compose, "docker/lab/Dockerfile": dockerfile, "lab/setup_lab.sh": "true\n"},
    )
    models = [build_model(tmp_path / "docker/lab/Dockerfile", "docker/lab/Dockerfile")]
    readme = "# Lab\n\n```bash\ndocker compose -f docker/compose.yaml up --build\n```\n"
    found = [
        d.message
        for d in audit(readme, "docker/README.md", models, {}, tmp_path / "docker", project=tmp_path)
        if "cannot complete" in d.message
    ]
    assert len(found) == 1 and "reads setup_lab.sh (/opt/lab/setup_lab.sh)" in found[0], found


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ("pip install -r req.txt -c constraints.txt", ["req.txt", "constraints.txt"]),
        ("python3 -m pip install --requirement=req.txt", ["req.txt"]),
        ("uv pip install -r req.txt", ["req.txt"]),
        ("pip install ./dist/tern-1.0-py3-none-any.whl", ["./dist/tern-1.0-py3-none-any.whl"]),
        ("micromamba install -y -f env.yaml", ["env.yaml"]),
        ("conda env create", ["environment.yml"]),
        ("conda env update -n base --file env.yml", ["env.yml"]),
        ("sudo bash -e install.sh --gpu", ["install.sh"]),
        ("bash -c 'echo hi'", []),
        ("source env.sh", ["env.sh"]),
        ("python setup.py install", ["setup.py"]),
        ("python -m pip install -e '.[dev]'", ["."]),
        ("pip install --no-deps ./", ["."]),
        ("./build.sh", ["./build.sh"]),
        ("chmod +x run.sh", ["run.sh"]),
        ("tar -xzf data.tar.gz", ["data.tar.gz"]),
        ("apt-get install -y ./tern.deb", ["./tern.deb"]),
        ("echo hi", []),
    ],
)
def test_read_files(command: str, files: list[str]) -> None:
    assert read_files(command.split()) == files


def test_a_chain_of_stages_built_on_one_another_reads_each_step_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """2,400 stages each FROM the one before, each RUN reading a file: each stage was given the steps of
    every stage below it (copied, walked to its root, each step's stage looked up), n² steps (16.6 s,
    600 stages 0.9 s); the chain below a stage is read only for a file a later COPY of it brings. The
    last stage's early read is still told."""
    from docgen.audit import early_reads

    given: list[int] = []
    first_early = early_reads._first_early

    def counted(steps: list[Any], *args: Any) -> Any:
        given.append(len(steps))
        return first_early(steps, *args)

    monkeypatch.setattr(early_reads, "_first_early", counted)
    stages = 300
    dockerfile = "FROM ubuntu:22.04 AS s0\nRUN cat a0\n" + "".join(
        f"FROM s{i} AS s{i + 1}\nRUN cat a{i + 1}\n" for i in range(stages - 1)
    )
    dockerfile += f"FROM s{stages - 1} AS last\nWORKDIR /srv\nRUN bash run.sh\nCOPY run.sh .\n"
    told = _audited(tmp_path, dockerfile, files={"run.sh": "echo\n"})
    assert len(told) == 1 and "reads run.sh (/srv/run.sh) before the COPY" in told[0]
    assert len(given) == stages + 1
    assert sum(given) < 4 * len(given)  # each stage's own steps, not the chain below it
