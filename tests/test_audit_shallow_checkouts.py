"""`docgen audit`: a README build (`docker build`, `docker compose up` of a service that builds) of a
Dockerfile that checks out a tag or commit in a clone an earlier step made shallow
(docgen/audit/shallow_checkouts.py, told by docgen/audit/broken_runs.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

BUILD = "docker build -t lathe:dev ."


def _audited(
    tmp_path: Path, dockerfile: str, block: str = BUILD, files: dict[str, str] | None = None
) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "train.py": "print('lathe')\n", **(files or {})})
    models = [build_model(tmp_path / "Dockerfile", "Dockerfile")]
    readme = f"# Lathe\n\n## Build\n\n```bash\n{block}\n```\n"
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "shallow clone" in d.message
    ]


# modelled on a fine-tuning image that clones its trainer at the tip, then pins a release in a later RUN
LATER_RUN = """FROM python:3.11-slim
WORKDIR /workspace
RUN git clone --depth=1 https://example.org/forge/lathe-trainer.git
WORKDIR /workspace/lathe-trainer
RUN git checkout v0.4.0
RUN pip install -e .
ENTRYPOINT ["python3", "train.py"]
"""


def test_tag_checked_out_in_a_later_run(tmp_path: Path) -> None:
    assert _audited(tmp_path, LATER_RUN) == [
        "6: README's build of Dockerfile cannot complete: its RUN at line 5 runs `git checkout v0.4.0` in "
        "the clone of https://example.org/forge/lathe-trainer.git that line 3 makes with --depth: a shallow "
        "clone holds only the tip of one branch, so git finds no tag v0.4.0 and the RUN fails (clone it "
        "with --branch v0.4.0, or fetch the tag first) (likely)"
    ]


def test_commit_from_a_build_arg_in_the_same_run(tmp_path: Path) -> None:
    # modelled on a kernel image that pins a commit of its extension through an ARG
    dockerfile = (
        "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n"
        "ARG KERNEL_COMMIT=3f2a9c1d\n"
        "RUN git clone --depth 1 https://example.org/forge/spindle.git /opt/spindle && \\\n"
        "    cd /opt/spindle && \\\n"
        "    git checkout ${KERNEL_COMMIT} && \\\n"
        "    pip install .\n"
    )
    found = _audited(tmp_path, dockerfile)
    assert len(found) == 1
    assert "its RUN at line 3 runs `git checkout ${KERNEL_COMMIT}` (line 5)" in found[0]
    assert "git finds no commit 3f2a9c1d" in found[0]


def test_reset_through_git_dash_c(tmp_path: Path) -> None:
    dockerfile = (
        "FROM debian:12\n"
        "RUN git clone --depth 1 https://example.org/forge/spindle.git /src/spindle\n"
        "RUN git -C /src/spindle reset --hard 9e8d7c6b5a4f && make -C /src/spindle\n"
    )
    assert "git finds no commit 9e8d7c6b5a4f" in _audited(tmp_path, dockerfile)[0]


def test_a_compose_up_that_builds(tmp_path: Path) -> None:
    compose = "services:\n  trainer:\n    build: .\n    command: lora.yml\n"
    found = _audited(tmp_path, LATER_RUN, "docker compose up -d", {"compose.yaml": compose})
    assert len(found) == 1 and found[0].startswith("6: README's build of Dockerfile cannot complete")


@pytest.mark.parametrize(
    "runs",
    [
        # the tag cloned by name, then named again
        "RUN git clone --depth 1 --branch v0.4.0 https://example.org/forge/lathe-trainer.git\n"
        "RUN cd lathe-trainer && git checkout tags/v0.4.0",
        # the commit fetched before it is checked out
        "RUN git clone --depth=1 https://example.org/forge/lathe-trainer.git && cd lathe-trainer && "
        "git fetch --depth 1 origin 3f2a9c1d && git checkout 3f2a9c1d",
        "RUN git clone --depth=1 https://example.org/forge/lathe-trainer.git\n"
        "RUN cd lathe-trainer && git fetch --unshallow && git checkout v0.4.0",
        # a full clone (modelled on a web UI image that resets an extension to a commit)
        "RUN git clone https://example.org/forge/lathe-trainer.git\n"
        "WORKDIR /workspace/lathe-trainer\nRUN git checkout main && git reset 3f2a9c1d --hard",
        # a branch: it may be the one cloned
        "RUN git clone --depth=1 https://example.org/forge/lathe-trainer.git\n"
        "RUN cd lathe-trainer && git checkout main",
        # a failure the RUN does not return
        "RUN git clone --depth=1 https://example.org/forge/lathe-trainer.git\n"
        "RUN cd lathe-trainer && git checkout v0.4.0 || echo 'staying on the tip'",
        # another clone's folder
        "RUN git clone --depth=1 https://example.org/forge/lathe-trainer.git\n"
        "RUN git clone https://example.org/forge/spindle.git && cd spindle && git checkout v1.2.0",
        # a ref whose value is not known
        "ARG REF\nRUN git clone --depth=1 https://example.org/forge/lathe-trainer.git\n"
        "RUN cd lathe-trainer && git checkout $REF",
    ],
)
def test_checkouts_that_work_are_silent(tmp_path: Path, runs: str) -> None:
    assert _audited(tmp_path, f"FROM python:3.11-slim\nWORKDIR /workspace\n{runs}\n") == []


def test_a_stage_the_build_does_not_build_is_silent(tmp_path: Path) -> None:
    dockerfile = LATER_RUN.replace("FROM python:3.11-slim", "FROM python:3.11-slim AS pinned") + (
        "FROM python:3.11-slim AS app\nCOPY train.py /train.py\n"
    )
    assert _audited(tmp_path, dockerfile) == []
