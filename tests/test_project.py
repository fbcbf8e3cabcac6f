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
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    wrong = re.compile(r"""(pip install|pipx install|--spec|--from)\s+["']?docgen\b""")
    named = 0
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert not wrong.search(text), path.name
        named += text.count("dockerdocgen")
    assert named >= 4


def test_the_documented_renovate_manager_finds_what_docgen_names() -> None:
    """The regex manager of docs/ci.md matches the annotated ARGs docgen reads as components."""
    import json

    from docgen.dockerfile import parse_dockerfile
    from docgen.pipeline import model_of

    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    config = json.loads(
        re.findall(r"```json\n(\{\n  \"\$schema\": \"https://docs.renovatebot.com.*?)```", text, re.S)[0]
    )
    manager = config["customManagers"][0]
    pattern = manager["matchStrings"][0].replace("(?<", "(?P<")
    dockerfile = re.findall(r"```dockerfile\n(# renovate:.*?)```", text, re.S)[0]
    dockerfile = f"FROM ubuntu:24.04\n{dockerfile}RUN echo $VLLM_TAG $TORCH_VERSION\n"
    found = [m.group("depName", "currentValue") for m in re.finditer(pattern, dockerfile)]
    assert found == [("vllm-project/vllm", "v0.6.0"), ("torch", "2.5.1")]
    assert re.search(manager["managerFilePatterns"][0].strip("/"), "docker/rocm/Dockerfile.rocm")
    model = model_of(parse_dockerfile(dockerfile))
    named = {c.arg: (c.name, c.source) for c in model.components if c.arg}
    assert named == {
        "VLLM_TAG": ("vllm", "https://github.com/vllm-project/vllm"),
        "TORCH_VERSION": ("torch", "https://pypi.org/project/torch/"),
    }
    assert all(not a.description for a in model.args)
