"""`docgen.audit.conda_python`: a Python version older than the newest conda installers bring, said to
come from conda, where the Dockerfile installs the latest Miniforge or Miniconda and nothing pins Python,
is a finding; a `python=` spec, a versioned installer, a pinning environment file, a `PYTHON_VERSION`
arg, a Python the claim does not tie to conda, a version the newest installer may give and an
environment file docgen has no copy of are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvidia/cuda:11.8.0-devel-ubuntu20.04
ENV PATH=/opt/forge/bin:$PATH
RUN curl -sL {installer} -o /tmp/forge.sh && bash /tmp/forge.sh -b -p /opt/forge && rm /tmp/forge.sh
RUN conda create -y -n work {packages}
{extra}
"""
LATEST = "https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-Linux-x86_64.sh"
README = "# Solver image\n\n## Contents\n\n- Solver (gpu)\n- {item}\n"


def found(root: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root)
        if "conda gives" in d.message
    ]


MESSAGE = (
    "6: README says conda gives Python {v}, but Dockerfile:3 installs the newest {i} and nothing of the "
    "build pins Python (that installer brings Python 3.12 or later) (likely)"
)


@pytest.mark.parametrize(
    ("item", "installer", "packages", "extra", "files", "expected"),
    [
        (
            "Python 3.8 (conda) + numpy, pandas",
            LATEST,
            "numpy pandas",
            "",
            {},
            [MESSAGE.format(v="3.8", i="Miniforge3-Linux-x86_64.sh")],
        ),
        (
            "conda Python 3.9 with scipy",
            "https://repo.anaconda.com/miniconda/Miniconda3-latest-Linux-x86_64.sh",
            "scipy",
            "",
            {},
            [MESSAGE.format(v="3.9", i="Miniconda3-latest-Linux-x86_64.sh")],
        ),
        # pinned: a spec, a versioned installer, an arg, an environment file
        ("Python 3.8 (conda)", LATEST, "python=3.8 numpy", "", {}, []),
        (
            "Python 3.8 (conda)",
            "https://repo.anaconda.com/miniconda/Miniconda3-py38_23.1.0-1-Linux-x86_64.sh",
            "numpy",
            "",
            {},
            [],
        ),
        ("Python 3.8 (conda)", LATEST, "numpy", "ARG PYTHON_VERSION=3.8", {}, []),
        (
            "Python 3.8 (conda)",
            LATEST,
            "numpy",
            "COPY env.yml /tmp/\nRUN conda env update -n work -f /tmp/env.yml",
            {"env.yml": "dependencies:\n  - python=3.8\n"},
            [],
        ),
        # an environment file docgen has no copy of may pin it
        (
            "Python 3.8 (conda)",
            LATEST,
            "numpy",
            "COPY env.yml /tmp/\nRUN conda env update -f /tmp/env.yml",
            {},
            [],
        ),
        # not said to be conda's, or a version the newest installer may bring
        ("Python 3.8 + numpy", LATEST, "numpy", "", {}, []),
        ("Python 3.12 (conda)", LATEST, "numpy", "", {}, []),
    ],
)
def test_conda_python(
    tmp_path: Path,
    item: str,
    installer: str,
    packages: str,
    extra: str,
    files: dict[str, str],
    expected: list[str],
) -> None:
    dockerfile = DOCKERFILE.format(installer=installer, packages=packages, extra=extra)
    assert found(tmp_path, README.format(item=item), dockerfile, files) == expected


def test_what_the_build_copies_is_read_within_the_context(tmp_path: Path) -> None:
    # a pattern Python's glob cannot read was a traceback (ValueError); a file linked from outside the
    # build context was read (its `python=3.8` silenced the rule), as was a source above the context
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "environment.yml").write_text("dependencies:\n  - python=3.8\n")
    root = tmp_path / "project"
    root.mkdir()
    (root / "env").mkdir()
    (root / "env" / "environment.yml").symlink_to(outside / "environment.yml")
    readme = README.format(item="Python 3.8 (conda)")
    odd = DOCKERFILE.format(installer=LATEST, packages="numpy", extra="COPY a**b /opt/\n")
    assert found(root, readme, odd) == []  # a source not there: it may pin Python
    linked = DOCKERFILE.format(installer=LATEST, packages="numpy", extra="COPY env/ /opt/env/\n")
    assert found(root, readme, linked) == [MESSAGE.format(v="3.8", i="Miniforge3-Linux-x86_64.sh")]


def test_a_whole_context_copied_is_read_for_a_pin(tmp_path: Path) -> None:
    # `COPY . /src` was passed over: its environment.yml pinning Python was not seen
    dockerfile = DOCKERFILE.format(
        installer=LATEST, packages="--file /src/environment.yml", extra="COPY . /src\n"
    )
    files = {"environment.yml": "dependencies:\n  - python=3.8\n"}
    assert found(tmp_path, README.format(item="Python 3.8 (conda)"), dockerfile, files) == []
