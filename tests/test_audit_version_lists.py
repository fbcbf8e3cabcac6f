"""`docgen.audit.version_lists`: a list of a component's versions said of a README's images (`Python 3.10
or 3.11`) against the versions the images have. Planted drifts and the nearest true statements as traps;
the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

IMAGES = {
    "py310/Dockerfile": "FROM python:3.10-slim\nRUN pip install numpy==2.1.0\n",
    "py311/Dockerfile": "FROM python:3.11-slim\nRUN pip install numpy==2.1.0\n",
    "py312/Dockerfile": "FROM python:3.12-slim\nRUN pip install numpy==2.1.0\n",
}


def _audit(tmp_path: Path, readme: str, images: dict[str, str] = IMAGES) -> list[str]:
    make_tree(tmp_path, {**images, "README.md": readme})
    models = [build_model(tmp_path / path, path) for path in images]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


@pytest.mark.parametrize(
    ("sentence", "written"),
    [
        ("All images come with:\n\n- A Python environment (3.10 or 3.11)", "3.10 or 3.11"),
        ("The images support Python 3.10 and 3.11.", "3.10 and 3.11"),
        ("Every image ships Python versions 3.10/3.11.", "3.10/3.11"),
    ],
)
def test_a_list_that_leaves_out_a_version_an_image_has(tmp_path: Path, sentence: str, written: str) -> None:
    found = _audit(tmp_path, f"# Runners\n\n{sentence}\n")
    assert len(found) == 1
    assert found[0].endswith(f"README lists Python {written}, but py312/Dockerfile:1 has 3.12 (likely)")


def test_a_listed_version_no_image_has(tmp_path: Path) -> None:
    found = _audit(tmp_path, "# Runners\n\nImages for Python 3.9, 3.10, 3.11 and 3.12.\n")
    assert found == [
        "3: README lists Python 3.9, 3.10, 3.11 and 3.12, but no image it is about has 3.9 (likely)"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Images for Python 3.10, 3.11 and 3.12.",
        "Images for Python 3.10, 3.11 or 3.12.",
        "If your code needs Python 3.10 or 3.11, pick that image.",
        "Your host requires Python 3.10 or 3.11 to run the build script.",
        "Older releases shipped Python 3.8 and 3.9.",
        "Images for Python 3.10 to 3.12.",
        "numpy 2.1 and 2.2 both work.",
    ],
)
def test_a_list_the_images_agree_with_is_no_finding(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, f"# Runners\n\n{sentence}\n") == []


def test_one_image_or_an_unknown_version_is_not_read(tmp_path: Path) -> None:
    one = {"py310/Dockerfile": IMAGES["py310/Dockerfile"]}
    assert _audit(tmp_path, "# Runner\n\nPython 3.10 or 3.11.\n", one) == []
    unknown = {**IMAGES, "any/Dockerfile": "ARG BASE\nFROM ${BASE}\nRUN true\n"}
    assert _audit(tmp_path, "# Runners\n\nPython 3.10 or 3.11.\n", unknown) == []


@pytest.mark.parametrize(
    "row",
    [
        "| [tag](https://git.example.org/images/blob/main/py3.10/24.04-lts/Dockerfile) | arm64 |",
        "See https://git.example.org/tree/main/python3.11/22.04/ for the build files.",
        "| [tag](https://git.example.org/images/blob/main/cuda-python3.12/22.04/Dockerfile) | amd64 |",
    ],
)
def test_a_version_in_a_link_address_is_no_list(tmp_path: Path, row: str) -> None:
    # (a row after a blank line is a paragraph, as a README that spaces its table's rows has them)
    readme = f"# Images\n\n| Tag | Arch |\n|--|--|\n| py310 | amd64 |\n\n{row}\n"
    assert _audit(tmp_path, readme) == []


def test_a_list_beside_a_link_is_still_read(tmp_path: Path) -> None:
    readme = (
        "# Images\n\nThe images ([files](https://git.example.org/blob/main/py3.10/Dockerfile)) ship "
        "Python 3.10 or 3.11.\n"
    )
    found = _audit(tmp_path, readme)
    assert len(found) == 1
    assert found[0].endswith("README lists Python 3.10 or 3.11, but py312/Dockerfile:1 has 3.12 (likely)")


# One version said of every image of a family (modelled on a set of audio-model images, one Dockerfile a
# CUDA release, and on a set of notebook images, one a Python release; the names are made up).
FOUR = {
    "Dockerfile.cu118": "FROM python:3.9-slim\nRUN pip install numpy==2.1.0\n",
    "Dockerfile.cu121": "FROM python:3.11-slim\nRUN pip install numpy==2.1.0\n",
    "Dockerfile.cu124": "FROM python:3.12-slim\nRUN pip install numpy==2.1.0\n",
    "Dockerfile.cu128": "FROM python:3.12-slim\nRUN pip install numpy==2.1.0\n",
}


def test_one_version_said_of_a_family_only_one_image_has(tmp_path: Path) -> None:
    readme = "# Tunes\n\n## Dependencies\n\nCore components:\n\n- Python 3.9\n- numpy\n"
    assert _audit(tmp_path, readme, FOUR) == [
        "7: README says Python 3.9 of the images it is about, but Dockerfile.cu121:1 has 3.11; "
        "Dockerfile.cu124:1 has 3.12; Dockerfile.cu128:1 has 3.12 (only Dockerfile.cu118:1 has 3.9) (likely)"
    ]
    found = _audit(tmp_path, "# Runners\n\nThe runners ship Python 3.10.\n")
    assert found == [
        "3: README says Python 3.10 of the images it is about, but py311/Dockerfile:1 has 3.11; "
        "py312/Dockerfile:1 has 3.12 (only py310/Dockerfile:1 has 3.10) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "images"),
    [
        ("# Tunes\n\nCore components:\n\n- Python 3.12\n- numpy\n", FOUR),  # most images have it
        ("# Tunes\n\nThe default image uses Python 3.9.\n", FOUR),
        ("# Tunes\n\nPython 3.9 in Dockerfile.cu118, newer ones elsewhere.\n", FOUR),  # names an image
        ("# Tunes\n\nCore components:\n\n- Python 3.9+\n", FOUR),  # a floor
        ("# Tunes\n\nPython version varies by image (3.9 to 3.12).\n", FOUR),
        ("# Runners\n\n| Image | Python |\n|---|---|\n| a | Python 3.10 |\n| b | Python 3.11 |\n", IMAGES),
        (
            "# Two\n\nThe images ship Python 3.10.\n",
            {k: IMAGES[k] for k in ("py310/Dockerfile", "py311/Dockerfile")},  # one each: either meant
        ),
    ],
)
def test_one_version_of_a_family_that_is_no_finding(
    tmp_path: Path, readme: str, images: dict[str, str]
) -> None:
    assert _audit(tmp_path, readme, images) == []
