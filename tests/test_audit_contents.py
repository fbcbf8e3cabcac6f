"""`docgen audit`: components a README lists as in the image (docgen/audit/contents.py), read one by one
when an item joins several (`A + B + C`, `A · B`, `A, B and C`), and image by image when the list says
every image holds them.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

PLAIN = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir numpy scipy
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: list[str]) -> list[str]:
    """`audit` of `readme` against `dockerfiles` of `files` (written to `tmp_path`), read from disk."""
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / path, path) for path in dockerfiles]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]


@pytest.mark.parametrize(
    "item",
    [
        "numpy + scipy + sympy (for symbolic maths)",
        "NumPy · SciPy · SymPy",
        "`numpy`, `scipy` and `sympy`",
        "numpy, scipy, sympy: the maths stack",
    ],
)
def test_each_component_an_item_joins_is_read(tmp_path: Path, item: str) -> None:
    readme = f"# Maths box\n\n## What's included\n\n- {item}\n- Python\n"
    found = _audited(tmp_path, readme, {"Dockerfile": PLAIN}, ["Dockerfile"])
    assert len(found) == 1 and found[0].startswith("5: README lists "), found
    assert found[0].lower().endswith("as in the image but dockerfile installs no sympy"), found


@pytest.mark.parametrize(
    ("files", "item"),
    [
        # the base brings it
        ({"Dockerfile": "FROM jupyter/scipy-notebook:2024-01-01\nRUN pip install numpy scipy\n"}, None),
        # a script the Dockerfile copies and runs installs it
        (
            {
                "Dockerfile": PLAIN + "COPY tools/add-cas.sh /tmp/\nRUN bash /tmp/add-cas.sh\n",
                "tools/add-cas.sh": "#!/bin/sh\npip install sympy\n",
            },
            None,
        ),
        # a requirements file the Dockerfile installs lists it
        (
            {
                "Dockerfile": PLAIN + "COPY requirements/cas.txt /tmp/\nRUN pip install -r /tmp/cas.txt\n",
                "requirements/cas.txt": "sympy>=1.12\n",
            },
            None,
        ),
        # the README says the user installs it
        ({"Dockerfile": PLAIN}, "numpy + scipy + sympy (install sympy yourself)"),
        # a join that is a sentence, not names
        ({"Dockerfile": PLAIN}, "numpy and scipy builds with sympy support"),
    ],
)
def test_a_joined_item_the_image_can_hold_is_no_finding(
    tmp_path: Path, files: dict[str, str], item: str | None
) -> None:
    readme = f"# Maths box\n\n## What's included\n\n- {item or 'numpy + scipy + sympy'}\n"
    assert _audited(tmp_path, readme, files, ["Dockerfile"]) == []


FULL = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir numpy scipy
COPY build-cas.sh /opt/
RUN /opt/build-cas.sh sympy
"""
FAMILY = {"Dockerfile.slim": PLAIN, "Dockerfile.full": FULL, "build-cas.sh": 'pip install "$1"\n'}


@pytest.mark.parametrize("intro", ["Each image includes:", "All variants contain:", "Every image ships:"])
def test_a_component_every_image_is_said_to_hold_that_one_lacks(tmp_path: Path, intro: str) -> None:
    readme = f"# Maths images\n\n## Contents\n\n{intro}\n\n- numpy + scipy + sympy\n"
    found = _audited(tmp_path, readme, FAMILY, ["Dockerfile.slim", "Dockerfile.full"])
    assert found == [
        "7: README lists sympy as in every image but Dockerfile.slim installs no sympy "
        "(Dockerfile.full:4 names it)"
    ]


def test_a_list_of_what_the_images_hold_together_is_not_read_image_by_image(tmp_path: Path) -> None:
    # not said of every image: one of them holding it is enough
    readme = "# Maths images\n\n## Contents\n\nThe images include:\n\n- numpy + scipy + sympy\n"
    assert _audited(tmp_path, readme, FAMILY, ["Dockerfile.slim", "Dockerfile.full"]) == []


@pytest.mark.parametrize("intro", ["镜像内容：", "镜像包含以下组件:", "イメージに含まれるもの:"])
def test_a_list_introduced_in_chinese_or_japanese_as_the_image_s(tmp_path: Path, intro: str) -> None:
    readme = f"# Maths box\n\n{intro}\n\n- numpy + scipy + sympy\n"
    assert _audited(tmp_path, readme, {"Dockerfile": PLAIN}, ["Dockerfile"]) == [
        "5: README lists sympy as in the image but Dockerfile installs no sympy"
    ]
