"""`docgen changes` and the comparison it shares with `docgen check` (docgen/changes.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import make_tree, run

OLD = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:7.0.2
FROM ${BASE_IMAGE} AS base
# VLLM_TAG vLLM commit to build.
ARG VLLM_TAG=1ff9d3353aa1b2c3d4e5f60718293a4b5c6d7e8f
RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout ${VLLM_TAG}
RUN pip install numpy==1.26.4 ninja==1.11.1
"""

NEW = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:7.1.0
FROM ${BASE_IMAGE} AS base
# VLLM_TAG vLLM commit to build.
ARG VLLM_TAG=18d87a87f00dbeefcafe0123456789abcdef0123
# MAX_JOBS Parallel compile jobs.
ARG MAX_JOBS=64
RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout ${VLLM_TAG}
RUN pip install numpy==1.26.4 triton==3.1.0 && echo ${MAX_JOBS}
"""

CONFIG = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "docker/Dockerfile"\noutputs = ["README.md"]\n'
README = "# img\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True)
    return done.stdout


def repository(root: Path) -> None:
    """A git repository with tag v1 (OLD) and tag v2 (NEW), README synced at v1 only."""
    make_tree(root, {"pyproject.toml": CONFIG, "README.md": README, "docker/Dockerfile": OLD})
    git(root, "init", "-q")
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "dev")
    assert run("sync").code == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "v1")
    git(root, "tag", "v1")
    (root / "docker" / "Dockerfile").write_text(NEW)
    git(root, "commit", "-qam", "bump")
    git(root, "tag", "v2")


def test_markdown_between_two_tags(chdir_tmp: Path) -> None:
    repository(chdir_tmp)
    result = run("changes", "v1..v2")
    assert result.code == 0, result.err
    assert result.out == (
        "## Changes from v1 to v2\n\n### docker/Dockerfile\n\n"
        "**Versions**\n\n"
        "- rocm/dev-ubuntu-22.04: `7.0.2` → `7.1.0`\n"
        "- vLLM: `1ff9d335` → `18d87a87`\n\n"
        "**Added**\n\n- Triton `3.1.0`\n\n"
        "**Removed**\n\n- ninja `1.11.1`\n\n"
        "**Base images**\n\n- stage base: `rocm/dev-ubuntu-22.04:7.0.2` → `rocm/dev-ubuntu-22.04:7.1.0`\n\n"
        "**Build arguments**\n\n"
        "- new `MAX_JOBS` (default `64`)\n"
        "- `BASE_IMAGE` default: `rocm/dev-ubuntu-22.04:7.0.2` → `rocm/dev-ubuntu-22.04:7.1.0`\n"
        "- `VLLM_TAG` default: `1ff9d3353aa1b2c3d4e5f60718293a4b5c6d7e8f` → "
        "`18d87a87f00dbeefcafe0123456789abcdef0123`\n"
    )


def test_default_range_is_the_tag_before_a_tagged_head(chdir_tmp: Path) -> None:
    repository(chdir_tmp)
    assert run("changes").out.startswith("## Changes from v1 to HEAD\n")
    (chdir_tmp / "x").write_text("")
    git(chdir_tmp, "add", "x")
    git(chdir_tmp, "commit", "-qm", "untagged")
    result = run("changes")
    assert result.out.startswith("## Changes from v2 to HEAD\n")
    assert "No change to versions" in result.out


def test_working_tree_and_json(chdir_tmp: Path) -> None:
    repository(chdir_tmp)
    (chdir_tmp / "docker" / "Dockerfile").write_text(NEW.replace("triton==3.1.0", "triton==3.2.0"))
    data = json.loads(run("changes", "v2", "--format", "json").out)
    assert data["schema_version"] == 1
    assert (data["from"], data["to"]) == ("v2", "working tree")
    assert [c["text"] for c in data["images"][0]["changes"]] == ["Triton 3.1.0 → 3.2.0"]


def test_image_added_between_revisions(chdir_tmp: Path) -> None:
    repository(chdir_tmp)
    first = git(chdir_tmp, "rev-list", "--max-parents=0", "HEAD").strip()
    git(chdir_tmp, "mv", "docker/Dockerfile", "docker/Dockerfile.new")
    git(chdir_tmp, "commit", "-qm", "rename")
    (chdir_tmp / "pyproject.toml").write_text(CONFIG.replace("docker/Dockerfile", "docker/Dockerfile.new"))
    assert "New image." in run("changes", f"{first}..HEAD").out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["v9..v2"], "docker/Dockerfile: revision 'v9' not found\n"),
        (["v1...v2"], "docgen: error: 'v1...v2' is not a range; write REV1..REV2 (or REV1 for REV1..the "),
    ],
)
def test_bad_revisions(chdir_tmp: Path, argv: list[str], message: str) -> None:
    repository(chdir_tmp)
    result = run("changes", *argv)
    assert result.code == 2
    assert result.err.startswith(message)


def test_shallow_clone_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    monkeypatch.chdir(origin)
    repository(origin)
    (origin / "docker" / "Dockerfile").write_text(NEW + "RUN true\n")
    git(origin, "commit", "-qam", "three")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    result = run("changes", "HEAD~1..HEAD")
    assert result.code == 2
    assert "revision 'HEAD~1' not found; this is a shallow clone" in result.err
    assert "no tag before HEAD to compare with (this is a shallow clone" in run("changes").err


def test_not_a_git_repository(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": CONFIG, "README.md": README, "docker/Dockerfile": OLD})
    result = run("changes", "v1..v2")
    assert result.code == 2
    assert result.err.startswith("docker/Dockerfile: not in a git repository")


def test_check_names_what_changed_since_the_last_commit(chdir_tmp: Path) -> None:
    """`docgen check` says what the bot's bump changed, in the words of `docgen changes`."""
    repository(chdir_tmp)
    result = run("check")
    assert result.code == 1
    assert "vLLM 1ff9d335 → 18d87a87" in result.out
    line = next(x for x in result.out.splitlines() if "last committed" in x)
    assert line.startswith("docker/Dockerfile: changed since README.md was last committed: ")
    report = json.loads(run("check", "--format", "json").out)
    assert "vLLM 1ff9d335 → 18d87a87" in report["files"][0]["dockerfile_changes"]


def test_changes_name_components_and_stages_as_the_tables_do(tmp_path: Path) -> None:
    """A `pytorch/vision` checkout is torchvision in the tables, so in the release notes too; an
    unnamed stage is `#0` there as everywhere."""
    from docgen.changes import compare
    from docgen.model import ImageModel
    from docgen.pipeline import build_model

    def model(base: str, tag: str) -> ImageModel:
        path = tmp_path / f"Dockerfile.{tag}"
        clone = "git clone https://github.com/pytorch/vision && cd vision"
        path.write_text(f"FROM {base}\nRUN {clone} && git checkout {tag}\n")
        return build_model(path, "Dockerfile")

    found = compare(model("ubuntu:22.04", "v0.20.0"), model("ubuntu:24.04", "v0.21.0"), {})
    assert [c.phrase() for c in found] == [
        "torchvision v0.20.0 → v0.21.0",
        "Ubuntu 22.04 → 24.04",
        "base image of stage #0: ubuntu:22.04 → ubuntu:24.04",
    ]
