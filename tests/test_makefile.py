"""Makefiles: the build args their recipes pass to `docker build` (docgen/makefile.py)."""

from __future__ import annotations

from docgen.makefile import PassedArg, build_args

MAKEFILE = """\
GPU ?= sm_90
BASE := ubuntu
BASE_TAG = $(BASE):22.04
GPU ?= sm_80
STAMP = $(shell date +%s)

image: ## the image
\tdocker build \\
\t\t--build-arg GPU=$(GPU) \\
\t\t--build-arg BASE_IMAGE=${BASE_TAG} \\
\t\t--build-arg STAMP=$(STAMP) --build-arg USER=$(USER) \\
\t\t-t app .

slim:
\tdocker build -f Dockerfile.slim --build-arg GPU=sm_70 .
\techo --build-arg NOT=read
"""


def test_the_build_args_a_recipe_passes() -> None:
    assert build_args(MAKEFILE) == (
        PassedArg("GPU", "sm_90", 8, 1, "Dockerfile"),  # the first `?=` wins
        PassedArg("BASE_IMAGE", "ubuntu:22.04", 8, 3, "Dockerfile"),
        PassedArg("STAMP", None, 8, 5, "Dockerfile"),  # a function: not known
        PassedArg("USER", None, 8, None, "Dockerfile"),  # the environment
        PassedArg("GPU", "sm_70", 15, None, "Dockerfile.slim"),
    )


def test_no_recipe_no_build_args() -> None:
    assert build_args("GPU ?= sm_90\n# docker build --build-arg GPU=$(GPU) .\n") == ()
