"""Fixtures shared by the tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests run as on a developer's machine, in CI too (`CI=true` turns off the fast path of
    `docgen check`); a test about CI sets the variable itself."""
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def chdir_tmp(tmp_path: Path) -> Iterator[Path]:
    """Run the test inside `tmp_path`."""
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)
