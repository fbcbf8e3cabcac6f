"""`docgen.audit.paths`: which audited Dockerfile a build command's `-f` names."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from docgen.audit.paths import folders_above, ignore_patterns, path_named, under_any

PATHS = ["app/Dockerfile", "base/Dockerfile", "docker/Dockerfile.l4t35", "repo/tools/Dockerfile.cpu"]


@pytest.mark.parametrize(
    ("file", "index"),
    [
        ("app/Dockerfile", 0),
        ("./base/Dockerfile", 1),
        ("docker/Dockerfile.l4t35", 2),
        ("Dockerfile.l4t35", 2),  # the name alone, when one path ends with it
        ("tools/Dockerfile.cpu", 3),
        ("/src/repo/tools/Dockerfile.cpu", 3),  # a longer path ending with the audited one
        (r"docker\Dockerfile.l4t35", 2),
    ],
)
def test_a_path_ending_the_same_way_names_the_dockerfile(file: str, index: int) -> None:
    assert path_named(file, PATHS) == index


@pytest.mark.parametrize(
    "file", ["Dockerfile", "other/Dockerfile", "Dockerfile.l4t36", "ools/Dockerfile.cpu"]
)
def test_another_folder_or_several_matches_name_none(file: str) -> None:
    # `Dockerfile` alone ends two paths; `other/Dockerfile` is a Dockerfile of another folder
    assert path_named(file, PATHS) is None


def test_folders_above_and_under_any() -> None:
    assert list(folders_above("/a/b/c")) == ["/a/b", "/a"]
    assert list(folders_above("a/b")) == ["a"]
    assert list(folders_above("/a")) == []
    assert under_any("/a/b/c", {"/a"}) and under_any("/a", {"/a"})
    assert not under_any("/ab/c", {"/a"}) and not under_any("/a", {"/a/b"})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_gitignore_that_is_a_fifo_is_not_read(tmp_path: Path) -> None:
    """A `.gitignore` made with `mkfifo` beside the README: reading it waited for a writer, so the audit
    hung. A writer here opens it once a reader does: the old read then got its pattern."""
    fifo = tmp_path / ".gitignore"
    os.mkfifo(fifo)
    done = threading.Event()

    def writer() -> None:
        while not done.wait(0.01):
            try:
                handle = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader yet
                continue
            os.write(handle, b"secret\n")
            os.close(handle)
            return

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        assert ignore_patterns(fifo) == []
    finally:
        done.set()
        thread.join()


def test_a_gitignore_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    """A `.gitignore` is read as every file a rule reads beside the README (`files.text_or_none`): a link
    leading out of the project is not followed."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "ignore").write_text("secrets/\n")
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "proj" / ".gitignore").symlink_to(tmp_path / "outside" / "ignore")
    (tmp_path / "proj" / "own").write_text("build/\n# a comment\n!keep\n/dist/\n")
    assert ignore_patterns(tmp_path / "proj" / ".gitignore") == []
    assert ignore_patterns(tmp_path / "proj" / "own") == ["build", "dist"]
