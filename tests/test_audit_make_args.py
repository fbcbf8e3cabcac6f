"""`docgen audit`: a build arg's default a README states that the Makefile it builds with passes
otherwise (docgen/audit/make_args.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "ARG RELEASE=22.04\nFROM ubuntu:${RELEASE}\nARG GPU=sm_80\nRUN echo $GPU\n"
MAKEFILE = (
    "GPU ?= sm_90\n\nbuild:\n\tdocker build --build-arg GPU=$(GPU) --build-arg RELEASE=22.04 -t app .\n"
)


def found(root: Path, readme: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "Makefile": MAKEFILE, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_a_default_the_makefile_passes_otherwise(tmp_path: Path) -> None:
    readme = "# App\n\nBuild with `make build`.\n\n- **`GPU`** (default: `sm_80`): the GPU target\n"
    assert found(tmp_path, readme) == [
        (
            5,
            "README says GPU defaults to sm_80, Dockerfile's default, but make passes sm_90 (Makefile:1)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "Build with `make build`.\n\n- **`GPU`** (default: `sm_90`): the target make passes\n",
        "Build with `make build`.\n\n- **`RELEASE`** (default: `22.04`)\n",  # both agree
        "Build with `docker build -t app .`\n\n- **`GPU`** (default: `sm_80`)\n",  # no make
    ],
)
def test_defaults_left_alone(tmp_path: Path, readme: str) -> None:
    assert [f for f in found(tmp_path, f"# App\n\n{readme}") if "make passes" in f[1]] == []


def test_a_makefile_larger_than_docgen_reads_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = "# App\n\nBuild with `make build`.\n\n- **`GPU`** (default: `sm_80`): the GPU target\n"
    monkeypatch.setattr("docgen.audit.make_targets.MAX_FILE_BYTES", len(MAKEFILE) - 1)
    assert [f for f in found(tmp_path, readme) if "make passes" in f[1]] == []
