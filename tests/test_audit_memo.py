"""`docgen.audit.memo`: what one audit reads from files is read again by the next, in one process."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen.audit import memo


def test_an_audit_reads_files_as_they_are_and_relative_paths_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two projects audited one after the other in one process, each from its own folder: the compose
    file of the first (`compose.yaml`, a relative path both times) is not read as the second's, and an
    edit between two audits of one project is seen."""
    readme = "# App\n\n```bash\ndocker compose up\n```\n"
    first = tmp_path / "first"
    second = tmp_path / "second"
    make_tree(first, {"compose.yaml": "services:\n  ui:\n    build: apps/ui\n", "README.md": readme})
    make_tree(second, {"compose.yaml": "services:\n  app:\n    image: nginx\n", "README.md": readme})
    monkeypatch.chdir(first)
    assert "service ui builds from apps/ui, which does not exist" in run("audit", "README.md").out
    monkeypatch.chdir(second)
    assert "apps/ui" not in run("audit", "README.md").out
    (second / "compose.yaml").write_text("services:\n  api:\n    build: api\n")
    assert "service api builds from api, which does not exist" in run("audit", "README.md").out


def test_forget_empties_every_per_audit_cache() -> None:
    calls: list[str] = []

    @memo.per_audit(maxsize=4)
    def read(name: str) -> str:
        calls.append(name)
        return name.upper()

    assert read("a") == read("a") == "A" and calls == ["a"]
    memo.forget()
    assert read("a") == "A" and calls == ["a", "a"]
