"""What `docgen show` of a Dockerfile named on the command line leaves unloaded: the libraries only some
Dockerfiles or other commands need (their import is most of what `show` costs, see docs/benchmarks.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_imports import ROOT, loaded, modules_loaded


def test_show_loads_packaging_only_for_a_requirement_that_needs_it(tmp_path: Path) -> None:
    """`packaging` (about 20 ms to import) is loaded for a requirement or file name the plain readers
    leave to it (a marker, `===`), not for plain pins, ranges, extras or the usual wheel names; nor are
    `difflib` (for one error message) and `tomllib` (no configuration is read) loaded to show a
    Dockerfile named on the command line."""
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "FROM python:3.12\n"
        "RUN pip install torch==2.5.1 numpy 'ray[default]>=2.47,<3' "
        "https://example.org/w/flash_attn-2.7.4-cp312-cp312-linux_x86_64.whl\n"
    )
    code, output, modules = modules_loaded(["show", "Dockerfile"], tmp_path)
    assert code == 0 and "torch" in output and "2.5.1" in output and "flash-attn" in output
    assert loaded(modules, ("packaging", "difflib", "tomllib")) == []
    for requirement, module in [
        ("'numpy<2; python_version>\"3\"'", "packaging.requirements"),
        ("https://example.org/w/torch-2.5.1+ROCm6.2-cp312-cp312-linux_x86_64.whl", "packaging.utils"),
    ]:
        dockerfile.write_text(f"FROM python:3.12\nRUN pip install {requirement}\n")
        code, output, modules = modules_loaded(["show", "Dockerfile"], tmp_path)
        assert code == 0 and ("numpy" in output or "2.5.1+ROCm6.2" in output)
        assert module in modules


NEVER_FOR_SHOW = ("docgen.rows", "docgen.family", "docgen.pipeline", "docgen.parallel", "docgen.findings")
"""What `docgen show` must not load: it prints the model (`docgen.analysis`), no table rows, no
documents filled, no findings formats (docs/benchmarks.md: `docgen show` against hadolint)."""


@pytest.mark.parametrize("argv", [["show", "docker/rocm/Dockerfile.rocm"], ["show"]])
def test_show_loads_the_model_stage_alone(tmp_path: Path, argv: list[str]) -> None:
    """A configured Dockerfile named on the command line (built with its entry's `args` and `target`,
    so the configuration is read) and the first configured one."""
    shutil.copytree(ROOT / "docker", tmp_path / "docker")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    code, output, modules = modules_loaded(argv, tmp_path)
    assert code == 0 and "components:" in output, output
    assert {"docgen.analysis", "docgen.config"} <= modules
    assert loaded(modules, NEVER_FOR_SHOW) == []
