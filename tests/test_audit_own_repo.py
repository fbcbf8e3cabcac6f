"""The README's own repository as its checkout tells it (docgen/audit/own_repo.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit.own_repo import checked_out, forge_file, owner_name, remote_names


@pytest.mark.parametrize(
    ("target", "found"),
    [
        ("https://github.com/Acme/App/blob/main/docs/run.md", ("acme/app", "main", "docs/run.md")),
        ("https://github.com/acme/app/tree/main/tools/", ("acme/app", "main", "tools")),
        ("https://github.com/acme/app/raw/main/img/a.png", ("acme/app", "main", "img/a.png")),
        ("https://raw.githubusercontent.com/acme/app/main/run.sh", ("acme/app", "main", "run.sh")),
        ("https://raw.githubusercontent.com/acme/app/refs/heads/main/run.sh", ("acme/app", "main", "run.sh")),
        ("https://github.com/acme/app/blob/main/run.sh?plain=1#L3", ("acme/app", "main", "run.sh")),
        ("https://github.com/acme/app/blob/main/my%20notes.md", ("acme/app", "main", "my notes.md")),
        # another ref, no path, a page that is no file, another host: none
        ("https://github.com/acme/app/blob/v1.0/run.sh", None),
        ("https://github.com/acme/app/tree/main", None),
        ("https://github.com/acme/app/issues/3", None),
        ("https://gitlab.com/acme/app/-/blob/main/run.sh", None),
        ("https://github.com/acme/app/blob/mainline/run.sh", None),  # not `main` and a path
    ],
)
def test_a_forge_address_of_a_file(target: str, found: tuple[str, str, str] | None) -> None:
    assert forge_file(target, ("main",)) == found


def test_a_branch_with_a_slash() -> None:
    target = "https://github.com/acme/app/blob/release/2.1/docs/run.md"
    assert forge_file(target, ("release/2.1",)) == ("acme/app", "release/2.1", "docs/run.md")
    assert forge_file(target, ("main", "master")) is None


def test_the_checkouts_remotes_and_branch(tmp_path: Path) -> None:
    assert remote_names(tmp_path) == set() and checked_out(tmp_path) is None  # no .git
    make_tree(
        tmp_path,
        {
            ".git/config": '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:Acme/App.git\n'
            '[remote "up"]\n\turl = https://github.com/upstream/app\n',
            ".git/HEAD": "ref: refs/heads/feature/gpu\n",
        },
    )
    assert remote_names(tmp_path) == {"acme/app", "upstream/app"}
    assert checked_out(tmp_path) == "feature/gpu"
    (tmp_path / ".git/HEAD").write_text("3f2a9c1d0b7e55aa00112233445566778899aabb\n")
    assert checked_out(tmp_path) is None  # detached
    assert owner_name("https://github.com/o/n.git/") == "o/n"
