"""What `docgen show` of a Dockerfile named on the command line leaves unloaded: the libraries only some
Dockerfiles or other commands need (their import is most of what `show` costs, see docs/benchmarks.md)."""

from __future__ import annotations

from pathlib import Path

from test_imports import loaded, modules_loaded


def test_show_loads_packaging_only_for_a_requirement_that_needs_it(tmp_path: Path) -> None:
    """`packaging` (about 20 ms to import) is loaded for a range or a wheel name, not for plain pins; nor
    are `difflib` (for one error message) and `tomllib` (no configuration is read) loaded to show a
    Dockerfile named on the command line."""
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("FROM python:3.12\nRUN pip install torch==2.5.1 numpy\n")
    code, output, modules = modules_loaded(["show", "Dockerfile"], tmp_path)
    assert code == 0 and "torch" in output and "2.5.1" in output
    assert loaded(modules, ("packaging", "difflib", "tomllib")) == []
    dockerfile.write_text(
        "FROM python:3.12\n"
        "RUN pip install 'numpy<2' https://example.org/w/torch-2.5.1-cp312-cp312-linux_x86_64.whl\n"
    )
    code, output, modules = modules_loaded(["show", "Dockerfile"], tmp_path)
    assert code == 0 and "torch" in output and "2.5.1" in output
    assert {"packaging.requirements", "packaging.utils"} <= modules
