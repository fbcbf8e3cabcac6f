"""Hostile input to the features of the Action round: `docgen changes` (history read from git, notes
for the job summary), the settings cache, `--format github|sarif` and the Action script."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import make_tree, run
from test_action import action

from docgen import cache, fastcheck, findings

CONFIG = '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
README = "# img\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"
PLAIN = "FROM ubuntu:22.04\nARG TORCH=2.4.0\nRUN pip install torch==${TORCH}\n"


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True)
    return done.stdout


def repository(root: Path, dockerfile: str | bytes = PLAIN) -> None:
    """A repository whose first commit (tag v1) holds `dockerfile`; the working tree holds PLAIN."""
    make_tree(root, {"pyproject.toml": CONFIG, "README.md": README, "Dockerfile": dockerfile})
    git(root, "init", "-q")
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "dev")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "v1")
    git(root, "tag", "v1")
    (root / "Dockerfile").unlink()
    (root / "Dockerfile").write_text(PLAIN)


def test_changes_notes_escape_markdown_and_html_from_the_dockerfile(chdir_tmp: Path) -> None:
    # a Renovate depName is Dockerfile text: in the release notes and the job summary it must not
    # become a link or an HTML element
    repository(chdir_tmp, "FROM ubuntu:22.04\n")
    (chdir_tmp / "Dockerfile").write_text(
        "FROM ubuntu:22.04\n"
        "# renovate: datasource=docker depName=[x](javascript:alert(1))<img/src=x>\n"
        "ARG FOO=1.0\n"
        "RUN echo ${FOO}\n"
    )
    result = run("changes", "v1")
    assert result.code == 0, result.err
    assert "[x](javascript:" not in result.out and "<img" not in result.out
    assert "- \\[x\\](javascript:alert(1))&lt;img/src=x&gt; `1.0`" in result.out


def test_changes_refuses_a_huge_dockerfile_at_the_old_revision(chdir_tmp: Path) -> None:
    # the Dockerfile on disk is refused above 10 MiB; the one in history was read whole
    repository(chdir_tmp, "FROM ubuntu:22.04\n" + "# y\n" * 3_000_000)
    result = run("changes", "v1")
    assert result.code == 2
    assert result.err.startswith("Dockerfile at ") and "file is larger than 10 MiB, not read" in result.err


def test_changes_does_not_read_a_symlink_at_the_old_revision_as_a_dockerfile(chdir_tmp: Path) -> None:
    # git stores a link as its target's path: that text is no Dockerfile, and the target is not followed
    make_tree(chdir_tmp, {"pyproject.toml": CONFIG, "README.md": README})
    (chdir_tmp / "Dockerfile").symlink_to("/etc/passwd")
    git(chdir_tmp, "init", "-q")
    git(chdir_tmp, "add", "-A")
    git(chdir_tmp, "-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-qm", "link")
    (chdir_tmp / "Dockerfile").unlink()
    (chdir_tmp / "Dockerfile").write_text(PLAIN)
    result = run("changes", "HEAD")
    assert result.code == 2
    assert result.err.startswith("Dockerfile at ")
    assert "is a symbolic link in that revision, not a Dockerfile" in result.err


def _synced_project(root: Path) -> None:
    make_tree(root, {"pyproject.toml": CONFIG, "README.md": README, "Dockerfile": PLAIN})
    assert run("sync").code == 0
    assert run("check").code == 0  # records the settings
    assert fastcheck.up_to_date([], str(root)) is not None


def test_a_cache_record_reached_through_a_symlink_is_not_read(
    chdir_tmp: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # a checkout's `.docgen_cache -> /elsewhere` must not make docgen read outside the project
    _synced_project(chdir_tmp)
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "cache"
    shutil.move(chdir_tmp / cache.FOLDER, elsewhere)
    (chdir_tmp / cache.FOLDER).symlink_to(elsewhere)
    assert fastcheck.up_to_date([], str(chdir_tmp)) is None
    assert run("check").code == 0  # the full check answers


def test_a_cache_record_that_is_a_symlink_is_not_read(
    chdir_tmp: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _synced_project(chdir_tmp)
    record = chdir_tmp / cache.FOLDER / "settings"
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "settings"
    shutil.move(record, elsewhere)
    record.symlink_to(elsewhere)
    assert fastcheck.up_to_date([], str(chdir_tmp)) is None
    assert run("check").code == 0
    assert elsewhere.read_bytes()  # not written through either: the link was replaced
    assert not record.is_symlink()


TWO_IMAGES = (
    "[tool.docgen]\n"
    '[[tool.docgen.images]]\ndockerfile = "a/Dockerfile"\noutputs = ["a/README.md"]\n'
    '[[tool.docgen.images]]\ndockerfile = "b/Dockerfile"\noutputs = ["b/README.md"]\n'
)


def test_the_action_does_not_trust_a_settings_record_from_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a pull request can commit `.docgen_cache/settings` (git add -f) naming only the images that are
    # up to date: the fast path would then pass a stale README; in CI the full check must decide
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    make_tree(
        repo,
        {
            "pyproject.toml": TWO_IMAGES,
            "a/Dockerfile": PLAIN,
            "a/README.md": README,
            "b/Dockerfile": PLAIN,
            "b/README.md": README,
        },
    )
    assert run("sync").code == 0
    assert run("check").code == 0
    (repo / "b/Dockerfile").write_text(PLAIN.replace("2.4.0", "2.5.1"))  # b/README.md is now stale
    pyproject = (repo / "pyproject.toml").read_bytes()
    record = cache.read(str(repo), pyproject)
    assert record is not None
    shutil.rmtree(repo / cache.FOLDER)
    forged = cache.Settings(record.templates, record.images[:1], {}, record.globs)
    cache.write(str(repo), pyproject, forged)
    assert fastcheck.up_to_date([], str(repo)) == ["a/README.md"]  # the forged record is believed
    done, summary, _ = action(repo, tmp_path, mode="check", base="HEAD")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "- b/README.md is out of date" in summary


def test_the_action_passes_a_base_that_looks_like_an_option_as_a_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    repository(repo)
    assert run("sync").code == 0
    done, summary, _ = action(repo, tmp_path, mode="check", base="-h")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "usage:" not in summary
    assert "revision '-h' not found" in summary


def test_an_ignore_comment_may_give_its_reason_after_the_ids(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "Dockerfile": "FROM ubuntu:22.04\n"
            "# docgen: ignore=DG003 read by the CI matrix\n"
            "ARG UNUSED=1\n"
            "# docgen: ignore=DG004, DG003 both on purpose\n"
            "ARG UNUSED2=2\n"
            "ARG UNUSED3=3\n"
        },
    )
    result = run("lint", "Dockerfile")
    assert "UNUSED " not in result.out and "UNUSED2" not in result.out
    assert "Dockerfile:6: warning: build arg UNUSED3 is declared but never used [DG003]" in result.out


def test_changes_since_a_tag_whose_name_is_not_utf8(chdir_tmp: Path) -> None:
    make_tree(chdir_tmp, {"pyproject.toml": CONFIG, "README.md": README, "Dockerfile": PLAIN})
    git(chdir_tmp, "init", "-q")
    git(chdir_tmp, "add", "-A")
    git(chdir_tmp, "-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-qm", "one")
    subprocess.run([b"git", b"tag", b"release-\xff"], cwd=chdir_tmp, check=True)
    (chdir_tmp / "Dockerfile").write_text(PLAIN.replace("2.4.0", "2.5.1"))
    git(chdir_tmp, "-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-qam", "two")
    result = run("changes")
    assert result.code == 0, result.err
    assert "PyTorch: `2.4.0` → `2.5.1`" in result.out


def test_ignore_comments_are_read_once_per_line_however_many_findings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `ARG A0=1 A1=1 …` (thousands of unused args on one line) under a long `# docgen: ignore=…` list:
    # reading the list again for every finding made lint quadratic (2,000 args: over two minutes)
    text = "FROM ubuntu:22.04\n# docgen: ignore=" + "DG9," * 1000 + "DG001\nARG " + "A=1 " * 500 + "\n"
    found = [
        findings.Finding("DG003", "warning", "Dockerfile", 3, f"build arg A{i} unused") for i in range(500)
    ]
    calls: list[int] = []
    real = findings.ignored_at

    def counting(lines: list[str], line: int) -> set[str]:
        calls.append(line)
        return real(lines, line)

    monkeypatch.setattr(findings, "ignored_at", counting)
    assert findings.keep(found, {"Dockerfile": text}) == found
    assert calls == [3]


def test_the_action_summary_escapes_what_check_says_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `docgen check`'s "changed since" line names components as the Dockerfile does (a Renovate depName)
    hostile = "FROM ubuntu:22.04\n# renovate: datasource=docker depName=[x](javascript:alert(1))<img/src=x>\n"
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    repository(repo, hostile + "ARG FOO=1.0\nRUN echo ${FOO}\n")
    (repo / "Dockerfile").write_text(hostile + "ARG FOO=1.0\nRUN echo ${FOO}\n")
    assert run("sync").code == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "synced")
    (repo / "Dockerfile").write_text(hostile + "ARG FOO=2.0\nRUN echo ${FOO}\n")
    done, summary, _ = action(repo, tmp_path, mode="check", base="HEAD")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "changed since README.md was last committed" in summary
    # only escaped: `\[x\]` (or `\<img`, `&lt;img`) is text, not a link or an element
    assert not re.search(r"(?<!\\)\[x\]\(|(?<!\\)<img", summary)
    assert "\\[x\\]\\(javascript:alert\\(1\\)\\)\\<img/src=x\\> 1.0 → 2.0" in summary
