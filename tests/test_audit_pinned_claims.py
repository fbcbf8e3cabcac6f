"""`docgen audit`: a README saying every dependency of the image is pinned while the Dockerfile installs
Python packages with no version (docgen/audit/pinned_claims.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

# A feature list in Spanish over an image that pins its framework and leaves the rest floating.
FEATURES = """\
# Imagen de ajuste fino

### Características

1. **Entorno aislado**
   La imagen incluye todas las librerías necesarias.

2. **Reproducibilidad**
   Versión fija de cada dependencia para que los resultados se repitan.
"""

SPLIT = """\
FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip
RUN pip install --no-cache-dir --upgrade pip && \\
    pip install --no-cache-dir \\
      lumencore==3.1.0 \\
      lumenvision==0.9.2 \\
      --extra-index-url https://wheels.example.org/cu122 && \\
    pip install --no-cache-dir \\
      tilekit \\
      quillset \\
      sparrow-tok
COPY train.py .
"""

# A one-line claim over one pip command mixing pins and bare names.
ENGLISH = """\
# Markov experiments

All Python dependencies are pinned, so the results of the paper can be reproduced.
"""

MIXED = """\
FROM python:3.8
WORKDIR /app
RUN pip install --no-cache-dir numbra==1.18.5 tabula plotkit \\
    scipo==1.5.4 statsy
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, **files})
    models = [build_model(tmp_path / path, path) for path in files if path.endswith("Dockerfile")]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message}" for d in found if "pinned" in d.message]


def test_every_dependency_said_fixed_over_floating_installs(tmp_path: Path) -> None:
    assert _audited(tmp_path, FEATURES, {"Dockerfile": SPLIT}) == [
        "9: README says every dependency is pinned ('Versión fija de cada') but Dockerfile:3 installs "
        "tilekit, quillset, sparrow-tok with no version, and no constraints, lock file or package list "
        "fixes them"
    ]


def test_bare_names_next_to_pins_in_one_command(tmp_path: Path) -> None:
    assert _audited(tmp_path, ENGLISH, {"Dockerfile": MIXED}) == [
        "3: README says every dependency is pinned ('All Python dependencies are pinned') but "
        "Dockerfile:3 installs tabula, plotkit, statsy with no version, and no constraints, lock file "
        "or package list fixes them"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- **Reproducible**: every package is pinned.",
        "Built with pinned versions for reproducibility.",
        "所有依赖均固定版本，保证结果可复现。",
        "Todas las dependencias están fijadas.",
    ],
)
def test_other_wordings_of_the_claim(tmp_path: Path, said: str) -> None:
    assert len(_audited(tmp_path, f"# Lumen\n\n{said}\n", {"Dockerfile": MIXED})) == 1


@pytest.mark.parametrize(
    "said",
    [
        "PyTorch is pinned to 2.3 for the kernels.",
        "The CUDA and numbra versions are pinned.",
        "- **numbra 1.18.5** with **scipo 1.5.4** (fixed versions)",
        "Uses pinned versions of numbra and scipo.",
        "Dependencies are pinned in `requirements.txt`.",
        "- [ ] Dependencies are pinned to specific versions",
        "Best practice is to keep all your dependencies pinned.",
        "Dependencies are not pinned yet.",
        "System packages are pinned.",
        "Dependencies are pinned to the release that generated the project.",
    ],
)
def test_a_claim_about_one_component_a_file_or_the_reader(tmp_path: Path, said: str) -> None:
    assert _audited(tmp_path, f"# Lumen\n\n{said}\n", {"Dockerfile": MIXED}) == []


def test_a_changelog_entry(tmp_path: Path) -> None:
    readme = "# Lumen\n\n## Changelog\n\n### 0.3\n\n- All dependencies are pinned.\n"
    assert _audited(tmp_path, readme, {"Dockerfile": MIXED}) == []


@pytest.mark.parametrize(
    "dockerfile",
    [
        # every install pinned (pip itself upgraded: a tool, not a dependency)
        "FROM python:3.8\nRUN pip install --upgrade pip setuptools wheel\n"
        "RUN pip install numbra==1.18.5 scipo==1.5.4\n",
        # a requirements file: the claim may be about it
        "FROM python:3.8\nCOPY requirements.txt .\nRUN pip install -r requirements.txt tabula\n",
        # constraints hold every version
        "FROM python:3.8\nCOPY constraints.txt .\nRUN pip install -c constraints.txt tabula plotkit\n",
        # a lock file installed
        "FROM python:3.8\nCOPY pyproject.toml poetry.lock ./\nRUN poetry install --no-root\n",
        # the base image is the package's own: `pip install` keeps its release
        "FROM lumenserve/lumenserve-openai:v0.6.3\nRUN pip install lumenserve\n",
        # an install script may pin anything
        "FROM python:3.8\nRUN curl -fsSL https://example.org/setup.sh | sh && pip install tabula\n",
    ],
)
def test_installs_that_are_pinned_or_fixed_elsewhere(tmp_path: Path, dockerfile: str) -> None:
    files = {
        "Dockerfile": dockerfile,
        "requirements.txt": "tabula==2.0.1\n",
        "constraints.txt": "tabula==2.0.1\n",
    }
    assert _audited(tmp_path, ENGLISH, files) == []


# a lock file the README says the build uses, that the folder does not hold (provided_locks)
CLONED_TOOLS = """\
FROM continuumio/miniconda3:24.1.2-0
RUN git clone https://github.com/acme/aligner.git /opt/aligner && pip install /opt/aligner
CMD ["aligner", "--help"]
"""
PIXI_IMAGE = """\
FROM ghcr.io/prefix-dev/pixi:0.41.4
WORKDIR /app
COPY pixi.toml pixi.lock ./
RUN pixi install --frozen
"""


def locks(root: Path, sentence: str, dockerfile: str, extra: dict[str, str] | None = None) -> list[str]:
    build = "```bash\ndocker build -t aligner:v1 ./\n```\n"
    readme = f"# Aligner image\n\n## Set up the image\n\n{sentence}\n\n{build}"
    make_tree(
        root,
        {"README.md": readme, "Dockerfile": dockerfile, "create_sif.sh": "#!/bin/bash\n", **(extra or {})},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line} {d.confidence}"
        for d in audit(readme, "README.md", [model], {}, root)
        if "lock file" in d.message
    ]


@pytest.mark.parametrize(
    ("sentence", "dockerfile", "extra", "expected"),
    [
        # copied from a sibling image built from a lock file: this one clones and pip-installs
        (
            "You can build this package on docker with the provided lock file from this directory.",
            CLONED_TOOLS,
            {},
            ["5 likely"],
        ),
        ("Build it with the lock file included in this folder.", CLONED_TOOLS, {}, ["5 likely"]),
        # the folder holds one, or the Dockerfile installs from one
        (
            "You can build this package with the provided lock file.",
            CLONED_TOOLS,
            {"pixi.lock": "version: 6\n"},
            [],
        ),
        (
            "You can build this package with the provided lock file.",
            CLONED_TOOLS,
            {"requirements.txt": "numpy==2.1.0\n"},
            [],
        ),
        ("You can build this package with the provided lock file.", PIXI_IMAGE, {}, []),
        # the reader makes it, or it is another's
        ("Create a lock file with `pixi lock` before you build.", CLONED_TOOLS, {}, []),
        ("Use your own lock file to pin other versions.", CLONED_TOOLS, {}, []),
    ],
)
def test_a_provided_lock_file_the_folder_lacks(
    tmp_path: Path, sentence: str, dockerfile: str, extra: dict[str, str], expected: list[str]
) -> None:
    assert locks(tmp_path, sentence, dockerfile, extra) == expected


def test_a_long_run_of_marks_is_read_as_a_short_one() -> None:
    """A run of 20,000 `*` (or blanks and `_`) is cut before the claim is looked for (each `*` began a
    reading of the rest of the run: n²); a claim after a short or a long run is still found."""
    pinned_claims = sys.modules["docgen.audit.pinned_claims"]  # (the package's name is the rule's function)

    seen: list[int] = []

    class Counted:
        def __init__(self, pattern: re.Pattern[str]) -> None:
            self.pattern = pattern

        def search(self, text: str) -> re.Match[str] | None:
            seen.append(len(text))
            return self.pattern.search(text)

    original = pinned_claims._CLAIM
    pinned_claims._CLAIM = Counted(original)  # type: ignore[assignment]
    try:
        assert pinned_claims._claim("*" * 20_000 + " x") is None
        assert pinned_claims._claim("Note " + "*" * 20_000 + " all dependencies are pinned.") is not None
    finally:
        pinned_claims._CLAIM = original
    assert max(seen) < 100
