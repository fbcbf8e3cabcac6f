"""`docgen.audit.members`: a sentence of a README about several images that opens by naming one of them
(`Jetson images were built with CUDA 10.1.`) is compared with that image alone, and the CUDA release of
the JetPack an NVIDIA Jetson base is of (`l4t-base:r32.6.1`: CUDA 10.2) is a fact of that image.

A planted drift next to the nearest true statements (traps).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

WORKSTATION = "ARG CUDA_TAG=11.8.0-devel-ubuntu22.04\nFROM nvidia/cuda:$CUDA_TAG\nRUN apt-get update\n"
JETSON = "ARG L4T=r35.4.1\nFROM nvcr.io/nvidia/l4t-{kind}:$L4T\nRUN apt-get update\n"
README = (
    "# Speech server\n\nBuild it for your board or your workstation.\n\n"
    "## Notes\n\n- {text}\n- Keep the model folder mounted.\n"
)


def found(root: Path, text: str, kind: str = "base", jetson: str = JETSON) -> list[str]:
    readme = README.format(text=text)
    files = {"workstation/Dockerfile": WORKSTATION, "jetson/Dockerfile": jetson.format(kind=kind)}
    make_tree(root, {"README.md": readme, **files})
    models = [build_model(root / path, path) for path in files]
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root)
        if "CUDA" in d.message
    ]


def test_a_sentence_naming_the_jetson_image_is_compared_with_it_alone(tmp_path: Path) -> None:
    text = "Jetson images were built with CUDA 11.2. As for the workstation build: CUDA 11.8.0 was used."
    assert found(tmp_path, text) == [
        "7: README says CUDA 11.2 but jetson/Dockerfile:1 says 11.4 (nvcr.io/nvidia/l4t-base:r35.4.1 is of "
        "JetPack 5.1.2, which has CUDA 11.4) (likely)"
    ]


def test_a_sentence_naming_the_workstation_image_no_longer_agrees_through_the_jetson_one(
    tmp_path: Path,
) -> None:
    # before: CUDA 11.4 agreed with the Jetson image, whichever image the sentence named
    [finding] = found(tmp_path, "The workstation image ships CUDA 11.4.")
    assert finding.startswith("7: README says CUDA 11.4 but workstation/Dockerfile:1 says 11.8.0")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Jetson images were built with CUDA 11.4.", "base"),
        ("For Jetsons, CUDA 11.4 is what the image has.", "base"),
        ("Jetson images were built with CUDA 11.4. The workstation image ships CUDA 11.8.", "base"),
        # two images named: the family's claim, true of one of them
        ("Jetson and workstation images ship CUDA 11.8.", "base"),
        # no image named at the start: the family's
        ("The images ship CUDA 11.8 or CUDA 11.4, by board.", "base"),
        # NVIDIA's PyTorch image of the same L4T release
        ("Jetson images were built with CUDA 11.4.", "pytorch"),
    ],
)
def test_true_sentences_stay_silent(tmp_path: Path, text: str, kind: str) -> None:
    assert found(tmp_path, text, kind) == []


@pytest.mark.parametrize(
    ("jetson", "said"),
    [
        ("FROM dustynv/pytorch:2.1-r36.2.0\n", "12.4"),  # a community build: its CUDA may be another
        ("FROM nvcr.io/nvidia/l4t-base:r36.4.0-cu128\n", "12.8"),  # the tag's own CUDA, not JetPack 6.1's
        ("FROM nvcr.io/nvidia/l4t-base:latest\n", "12.4"),  # no release
    ],
)
def test_a_jetson_base_whose_cuda_docgen_cannot_tell_says_nothing(
    tmp_path: Path, jetson: str, said: str
) -> None:
    assert found(tmp_path, f"Jetson images ship CUDA {said}.", jetson=jetson) == []


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("11.4", []),
        (
            "11.2",
            [
                "7: README says CUDA 11.2 but jetson/Dockerfile:1 says 11.4 (dustynv/ros:foxy-ros-base-l4t-"
                "r35.3.1 is of JetPack 5.1.1, which has CUDA 11.4) (likely)"
            ],
        ),
    ],
)
def test_a_jetson_containers_base_of_jetpack_5_has_its_cuda(
    tmp_path: Path, said: str, expected: list[str]
) -> None:
    jetson = "ARG L4T=r35.3.1\nFROM dustynv/ros:foxy-ros-base-l4t-$L4T\nRUN apt-get update\n"
    assert found(tmp_path, f"Jetson images ship CUDA {said}.", jetson=jetson) == expected


TOOLKIT = (
    "ARG L4T=r35.3.1\nFROM dustynv/ros:foxy-ros-base-l4t-${L4T}\n"
    "RUN wget https://developer.download.nvidia.com/compute/cuda/12.4.1/local_installers/"
    "cuda-tegra-repo-ubuntu2004-12-4-local_12.4.1-1_arm64.deb && dpkg -i cuda-tegra-repo-*.deb\n"
)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("11.4", "12.4", []),
        ("11.6", "12.4", ["6: README says CUDA 11.6 but"]),
    ],
)
def test_two_dockerfiles_listed_each_with_its_cuda(
    tmp_path: Path, first: str, second: str, expected: list[str]
) -> None:
    # one on the JetPack 5 base as it is, one installing a newer CUDA toolkit on the same base
    readme = (
        "# Vision stack\n\nThis repository holds:\n\n1. Two Dockerfiles:\n"
        f"    1. one with OpenCV 4.8, ROS2 foxy and CUDA {first}\n"
        f"    2. one with OpenCV 4.9, ROS2 foxy and CUDA {second}\n2. Build scripts for both\n"
    )
    files = {
        "Dockerfile.jp5": "ARG L4T=r35.3.1\nFROM dustynv/ros:foxy-ros-base-l4t-${L4T}\nRUN apt-get update\n",
        "Dockerfile.toolkit": TOOLKIT,
    }
    make_tree(tmp_path, {"README.md": readme, **files})
    models = [build_model(tmp_path / path, path) for path in files]
    findings = [
        f"{d.line}: {d.message}"
        for d in audit(readme, "README.md", models, {}, tmp_path)
        if "CUDA" in d.message
    ]
    assert [f[: len(e)] for f, e in zip(findings, expected, strict=False)] == expected
    assert len(findings) == len(expected)


@pytest.mark.parametrize(
    ("jetson", "said", "expected"),
    [
        ("FROM nvcr.io/nvidia/l4t-jetpack:r36.4.0\n", "12.6", None),
        ("FROM nvcr.io/nvidia/l4t-jetpack:r36.4.0\n", "12.2", "12.6"),  # JetPack 6.1 moved to 12.6
        ("FROM nvcr.io/nvidia/l4t-jetpack:r36.3.0\n", "12.2", None),
    ],
)
def test_jetpack_6_releases(tmp_path: Path, jetson: str, said: str, expected: str | None) -> None:
    findings = found(tmp_path, f"Jetson images ship CUDA {said}.", jetson=jetson)
    assert [f.split(" says ")[2].split(" ")[0] for f in findings] == ([expected] if expected else [])


def test_a_sentence_opening_on_the_image_with_for(tmp_path: Path) -> None:
    [finding] = found(tmp_path, "For Jetsons, CUDA 11.2 is what the image has.")
    assert finding.startswith("7: README says CUDA 11.2 but jetson/Dockerfile:1 says 11.4")


def test_many_member_sentences_are_each_kept_for_their_image(tmp_path: Path) -> None:
    # (benchmarks/bench_shapes.py `member-sentences`: each line was blanked span by span, every span again)
    text = "\n  ".join(
        f"Jetson images were built with CUDA 10.{k}. The workstation image was built with CUDA 11.8."
        for k in range(12)
    )
    assert found(tmp_path, text) == [
        f"{7 + k}: README says CUDA 10.{k} but jetson/Dockerfile:1 says 11.4 (nvcr.io/nvidia/l4t-base:"
        "r35.4.1 is of JetPack 5.1.2, which has CUDA 11.4) (likely)"
        for k in range(12)
    ]
