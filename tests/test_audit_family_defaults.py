"""`docgen audit`: defaults a README states for a family of images (docgen/audit/family_defaults.py),
against each image that declares the variable, or the images of the variant it names.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import pytest
from helpers import findings

CENTOS = "FROM rockylinux:9\nARG HIP_RELEASE=6.1\nARG BUNDLE=hip-dev\nRUN echo ${HIP_RELEASE} ${BUNDLE}\n"
UBUNTU = "FROM ubuntu:24.04\nARG HIP_RELEASE=6.2\nARG BUNDLE=hip-dev\nRUN echo ${HIP_RELEASE} ${BUNDLE}\n"
RECIPES = {"Dockerfile.rocky9": CENTOS, "Dockerfile.noble": UBUNTU}

CPU = 'FROM python:3.12-slim\nENV SPEECH_MODEL=small\nENV ACCEL=cpu\nCMD ["serve"]\n'
GPU = (
    'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV SPEECH_MODEL=large-v3\nENV ACCEL=cuda\nCMD ["serve"]\n'
)
SERVICE = {"Dockerfile.cpu": CPU, "Dockerfile.cuda": GPU}


def test_a_build_arg_default_said_of_each_recipe_that_one_contradicts() -> None:
    readme = (
        "# Recipes\n\nEach recipe has these build arguments:\n\n"
        "* `HIP_RELEASE` - the HIP release. Just start with the default of `6.1` if unsure.\n"
        "* `BUNDLE` - the packages. By default, this is set to `hip-dev`.\n"
    )
    assert findings(readme, RECIPES) == [
        "5: README says HIP_RELEASE defaults to 6.1 but Dockerfile.noble:2 says 6.2"
    ]


def test_an_env_default_said_of_every_image_that_one_contradicts() -> None:
    readme = "# Service\n\n## Environment\n\n- `SPEECH_MODEL`: the model loaded, default `large-v3`\n"
    assert findings(readme, SERVICE) == [
        "5: README says SPEECH_MODEL defaults to large-v3 but Dockerfile.cpu:2 sets ENV SPEECH_MODEL=small"
    ]


def test_a_default_given_by_structure_in_another_language() -> None:
    readme = "# Service\n\n## 环境变量\n\n- `SPEECH_MODEL`：默认值为`large-v3`\n"
    assert findings(readme, SERVICE) == [
        "5: README says SPEECH_MODEL defaults to large-v3 but Dockerfile.cpu:2 sets ENV SPEECH_MODEL=small"
    ]


def test_a_default_said_of_one_variant_is_compared_with_that_variant() -> None:
    readme = "# Service\n\n- `ACCEL`: the CPU image defaults to `cuda`\n"
    assert findings(readme, SERVICE) == [
        "3: README says ACCEL defaults to cuda but Dockerfile.cpu:3 sets ENV ACCEL=cpu"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfiles"),
    [
        # one value per variant, each true
        ("- `ACCEL`: the CPU image defaults to `cpu`, the CUDA image defaults to `cuda`", SERVICE),
        # the variant named and right
        ("- `SPEECH_MODEL`: in the cuda image the default is `large-v3`", SERVICE),
        # a value per variant, one variant docgen does not know: that value says nothing
        ("- `ACCEL`: CPU 版本默认为`cpu`，GPU 版本默认为`cuda`", SERVICE),
        # every image agrees
        ("* `BUNDLE` - By default, this is set to `hip-dev`.", RECIPES),
        # not a default
        ("- `SPEECH_MODEL`: not the default; set it to `large-v3` for accuracy", SERVICE),
        # one image leaves it to its base: not every image's
        (
            "- `SPEECH_MODEL`: default `large-v3`",
            {"Dockerfile.cpu": 'FROM python:3.12-slim\nCMD ["serve"]\n', "Dockerfile.cuda": GPU},
        ),
    ],
)
def test_defaults_true_of_the_images_they_are_said_of(readme: str, dockerfiles: dict[str, str]) -> None:
    assert findings(f"# Images\n\n{readme}\n", dockerfiles) == []
