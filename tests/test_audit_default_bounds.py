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
