"""The GitHub Action's script (action/run.sh) on a temporary repository: a bot's bump of a build arg fails
`mode: check` with annotations and a job summary naming what changed, and `mode: sync` regenerates the
README and commits it to the branch. GitHub's files (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT) are temporary
files; nothing goes over the network (the "remote" is a bare repository in a folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_changes import git, repository

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "action" / "run.sh"


def action(
    repo: Path, tmp: Path, github: dict[str, str] | None = None, **inputs: str
) -> tuple[subprocess.CompletedProcess[str], str, str]:
    """Run the action's script in `repo` with `inputs` and `github` (more GITHUB_* variables); (the
    process, the job summary, the outputs file)."""
    wrapper = tmp / "docgen"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m docgen "$@"\n')
    wrapper.chmod(0o755)
    summary, outputs = tmp / "summary.md", tmp / "output.txt"
    summary.write_text("")
    outputs.write_text("")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))},
        "DOCGEN": str(wrapper),
        "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(outputs),
        **(github or {}),
        **{f"INPUT_{k.upper()}": v for k, v in inputs.items()},
    }
    done = subprocess.run(["bash", str(SCRIPT)], cwd=repo, env=env, capture_output=True, text=True)
    return done, summary.read_text(), outputs.read_text()


@pytest.fixture
def bumped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose last commit bumps VLLM_TAG (and more) without regenerating the README."""
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    repository(repo)
    return repo


def test_check_fails_with_annotations_and_a_summary(bumped: Path, tmp_path: Path) -> None:
    done, summary, outputs = action(bumped, tmp_path, mode="check", base="v1")
    assert done.returncode == 1, done.stderr
    assert "::error file=README.md,line=3,title=docgen::block docgen:versions is out of date" in done.stdout
    assert "::error file=docker/Dockerfile,line=4,title=docgen::this line changed row 'vLLM'" in done.stdout
    assert summary.startswith("## docgen check\n\nThe generated documentation is **out of date**")
    assert "- README.md is out of date\n" in summary
    assert "docker/Dockerfile: changed since README.md was last committed: " in summary
    assert "vLLM 1ff9d335 → 18d87a87" in summary
    assert "### Changes from v1 to the working tree\n\n#### docker/Dockerfile\n" in summary
    assert "- vLLM: `1ff9d335` → `18d87a87`\n" in summary
    assert outputs == "out-of-date=true\n"


def test_sync_commits_the_regenerated_readme(bumped: Path, tmp_path: Path) -> None:
    before = git(bumped, "rev-parse", "HEAD").strip()
    done, summary, outputs = action(bumped, tmp_path, mode="sync", push="false")
    assert done.returncode == 0, done.stderr
    commit = git(bumped, "rev-parse", "HEAD").strip()
    assert commit != before
    assert git(bumped, "log", "-1", "--format=%s%n%an").splitlines() == [
        "docs: regenerate with docgen sync",
        "github-actions[bot]",
    ]
    assert git(bumped, "show", "--name-only", "--format=", "HEAD").split() == ["README.md"]
    assert git(bumped, "status", "--porcelain") == ""
    assert "`18d87a87`" in (bumped / "README.md").read_text()
    assert outputs == f"changed-files=README.md\ncommitted=true\ncommit={commit}\n"
    assert f"Regenerated and committed {commit[:12]}:\n\n- README.md\n" in summary
    again, summary, outputs = action(bumped, tmp_path, mode="check")
    assert again.returncode == 0, again.stdout
    assert outputs == "out-of-date=false\n"
    assert "The generated documentation is up to date." in summary
    assert "No change to versions" in summary  # HEAD^ (the bump) to the working tree


def test_sync_pushes_to_the_pull_requests_branch(bumped: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    git(bumped, "remote", "add", "origin", str(remote))
    done, _, _ = action(bumped, tmp_path, mode="sync", commit_message="chore: docgen sync")
    assert done.returncode == 2  # no branch named: nothing done
    assert "no branch to push to" in done.stderr
    assert git(bumped, "status", "--porcelain") == "" and git(bumped, "log", "-1", "--format=%s") == "bump\n"
    branch = {"GITHUB_HEAD_REF": "renovate/vllm-18d87a87"}
    done, _, _ = action(bumped, tmp_path, branch, mode="sync", commit_message="chore: docgen sync")
    assert done.returncode == 0, done.stderr
    pushed = git(remote, "log", "-1", "--format=%s", "renovate/vllm-18d87a87")
    assert pushed == "chore: docgen sync\n"


def test_unknown_mode(bumped: Path, tmp_path: Path) -> None:
    done, _, _ = action(bumped, tmp_path, mode="fix")
    assert done.returncode == 2
    assert done.stderr == "docgen action: mode must be check or sync, not 'fix'\n"
