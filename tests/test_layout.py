"""Tests mirror the modules: where a module of docgen/ is tested is a lookup, not a search.

Each module `docgen/NAME.py` (and the `docgen/sources/` package) has `tests/test_NAME.py`, or its
tests live in the one file `ELSEWHERE` names, where they test it through a command or a feature. The
table of docs/contributing.md ("Where tests live") lists the same.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

ELSEWHERE = {
    "__main__": "test_imports.py",
    "analysis": "test_properties.py",
    "arguments": "test_cli.py",
    "console": "test_bad_input_more.py",
    "drift": "test_check.py",
    "errors": "test_bad_input.py",
    "fastcheck": "test_check.py",
    "fingerprint": "test_check.py",
    "hardcoded": "test_lint.py",
    "mkdocs_plugin": "test_mkdocs.py",
    "pipeline": "test_properties.py",
    "render": "test_golden.py",
    "sources": "test_installers.py",
    "stages": "test_site.py",
}
"""Module → the test file holding its tests, for the modules without a `test_NAME.py` of their own."""


def modules() -> list[str]:
    """The modules of docgen/ (`sources` for the package of tool readers)."""
    names = [p.stem for p in (ROOT / "docgen").glob("*.py") if p.stem != "__init__"]
    return sorted([*names, *(p.name for p in (ROOT / "docgen").iterdir() if (p / "__init__.py").exists())])


def test_every_module_has_its_test_file() -> None:
    missing = [m for m in modules() if not (TESTS / f"test_{m}.py").exists() and m not in ELSEWHERE]
    assert missing == [], "add tests/test_NAME.py (move the tests about NAME there) or an ELSEWHERE entry"


def test_every_entry_elsewhere_is_needed_and_points_at_a_test_file() -> None:
    for module, test_file in ELSEWHERE.items():
        assert module in modules(), f"{module}: no such module in docgen/ any more"
        assert not (TESTS / f"test_{module}.py").exists(), f"tests/test_{module}.py exists: drop the entry"
        assert (TESTS / test_file).exists(), test_file


def test_the_contributing_page_lists_where_tests_live() -> None:
    page = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = page.split("### Where tests live", 1)[1].split("\n#", 1)[0]
    for module, test_file in ELSEWHERE.items():
        assert f"| `{module}` | `tests/{test_file}` |" in section, module
