"""The project keeps its promises: the README's quick start is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def test_quick_start_is_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    assert commands[0].endswith("docgen sync")
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[1] in ci.splitlines()
    assert ".venv/bin/docgen check" in ci and "mkdocs build --strict" in ci


def test_install_lines_use_the_distribution_name() -> None:
    """`pip install docgen` installs an unrelated project: every install line names `dockerdocgen`,
    which is the name pyproject.toml gives the distribution."""
    assert re.search(r'^name = "dockerdocgen"', (ROOT / "pyproject.toml").read_text(), re.M)
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    wrong = re.compile(r"""(pip install|pipx install|--spec|--from)\s+["']?docgen\b""")
    named = 0
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert not wrong.search(text), path.name
        named += text.count("dockerdocgen")
    assert named >= 4
