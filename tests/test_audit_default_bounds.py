"""`docgen.audit.default_bounds`: a version bound the README says the default meets against the bound the
Dockerfile installs the package with; a claim only when no version meets both."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree
from packaging.specifiers import SpecifierSet

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.default_bounds import disjoint

# modelled on a trainer whose ROCm image pins ray below the release that renamed a setting
TRAINER = """\
FROM rocm/pytorch:rocm6.2_ubuntu22.04
RUN pip install accelerate \\
    "ray[data,train]<2.45.0" \\
    wandb
"""

TRAINER_README = """\
# Trainer on ROCm

## Ray settings

1. If your `ray>=2.45.0` (default), set `RAY_EXPERIMENTAL_NOSET_HIP_VISIBLE_DEVICES`.
2. If your `ray<2.45.0`, set `RAY_EXPERIMENTAL_NOSET_ROCR_VISIBLE_DEVICES`.
"""


def _bounds(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    models = [build_model(root / "Dockerfile", "Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root)
        if "README says the default has" in d.message
    ]


def test_a_default_the_dockerfile_s_bound_excludes(tmp_path: Path) -> None:
    assert _bounds(tmp_path, TRAINER_README, TRAINER) == [
        "5: README says the default has ray>=2.45.0 but Dockerfile:3 installs ray[data,train]<2.45.0, which "
        "no version of ray>=2.45.0 meets (likely)"
    ]
    for trap in (
        TRAINER.replace("<2.45.0", ">=2.45"),  # the same bound
        TRAINER.replace("<2.45.0", ">=2.40,<2.50"),  # 2.45 … 2.49 meet both
        TRAINER.replace("<2.45.0", "${RAY_BOUND}"),  # a variable
        TRAINER.replace("<2.45.0", "~=2.44"),  # not a plain comparison
        TRAINER.replace("wandb", 'wandb && pip install "ray<2.50"'),  # two bounds
    ):
        assert _bounds(tmp_path, TRAINER_README, trap) == [], trap
    no_default = TRAINER_README.replace(" (default)", "")
    assert _bounds(tmp_path, no_default, TRAINER) == []
    other_clause = TRAINER_README.replace(" (default), set", ", set this; the default image differs and")
    assert _bounds(tmp_path, other_clause, TRAINER) == []


# modelled on a vision service README stating which torch its image defaults to
VISION = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir "torch>=2.4,<2.6" torchvision
"""


def test_a_torch_default_of_a_vision_service(tmp_path: Path) -> None:
    readme = "# Vision API\n\nThe image ships `torch<2.4`, the default, with CPU wheels.\n"
    assert _bounds(tmp_path, readme, VISION) == [
        "3: README says the default has torch<2.4 but Dockerfile:2 installs torch>=2.4,<2.6, which no "
        "version of torch<2.4 meets (likely)"
    ]
    inside = readme.replace("`torch<2.4`", "`torch<=2.4`")  # 2.4 meets both
    assert _bounds(tmp_path, inside, VISION) == []


def test_disjoint_ranges() -> None:
    assert disjoint(SpecifierSet(">=2.45.0"), SpecifierSet("<2.45"))
    assert disjoint(SpecifierSet("==1.2"), SpecifierSet(">1.2"))
    assert not disjoint(SpecifierSet(">=1.2"), SpecifierSet("<=1.2"))
    assert not disjoint(SpecifierSet(">1"), SpecifierSet(">2"))
    assert not disjoint(SpecifierSet("!=1.2"), SpecifierSet("==1.2"))  # `!=` is not read


# modelled on a course repository whose CPU image installs a base requirements file copied from the top
COURSE_DOCKERFILE = """\
FROM python:3.11-slim
WORKDIR /workspace
COPY requirements/base.txt /workspace/base.txt
COPY requirements/extra.txt /workspace/
RUN pip install --no-cache-dir -r base.txt && pip install -r extra.txt
"""
COURSE_FILES = {
    "requirements/base.txt": "# numerics\nnumpy>=1.24,<2.0\nrich>=13.7\ngymnasium[classic-control]>=1.0\n",
    "requirements/extra.txt": "tensorboard>=2.16\npandas\n",
    "requirements/dev.txt": "pytest>=8.0\n",  # the image never installs it
}


def _manifest(root: Path, readme: str, files: dict[str, str] = COURSE_FILES) -> list[str]:
    make_tree(root, {"README.md": readme, "docker/Dockerfile": COURSE_DOCKERFILE, **files})
    models = [build_model(root / "docker/Dockerfile", "docker/Dockerfile")]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root)
        if "which the image installs" in d.message
    ]


def test_a_requirement_written_without_the_file_s_upper_bound(tmp_path: Path) -> None:
    readme = (
        "# RL course\n\n**Core (always installed):** `numpy>=1.24`, `rich>=13.7`, "
        "`gymnasium[classic-control]>=1.0`, `tensorboard>=2.16`\n"
    )
    assert _manifest(tmp_path, readme) == [
        "3: README says numpy>=1.24 is installed, but requirements/base.txt:2, which the image installs, "
        "has numpy>=1.24,<2.0 (likely)"
    ]


def test_a_dependency_list_with_a_raised_bound(tmp_path: Path) -> None:
    readme = "# Agents\n\n## Dependencies\n\n- The image installs `tensorboard>=2.14` and `pandas`.\n"
    assert _manifest(tmp_path, readme) == [
        "5: README says tensorboard>=2.14 is installed, but requirements/extra.txt:1, which the image "
        "installs, has tensorboard>=2.16 (likely)"
    ]


def test_requirements_that_agree_or_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "# RL course\n\n"
        "Installs `numpy<2.0,>=1.24.0` and `rich>=13.7` and `pandas`.\n\n"  # the same sets; no specifier
        "On your laptop you may try `numpy>=2.1`.\n\n"  # not about what is installed
        "Dependencies for tests: `pytest>=7.0`.\n"  # a file the image does not install
    )
    assert _manifest(tmp_path, readme) == []
    two = {**COURSE_FILES, "requirements/extra.txt": "numpy>=1.26\n"}  # two sets for numpy: no one fact
    assert _manifest(tmp_path, "# RL course\n\nInstalls `numpy>=1.24`.\n", two) == []
