"""Build args a README says give the latest release when unset, which the Dockerfile pins
(`docgen/audit/latest.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

WHEEL = """\
ARG PACKAGE=quokka
ARG QUOKKA_VERSION=3.1.0
FROM python:3.12-slim AS base
ARG PACKAGE
ARG QUOKKA_VERSION
RUN if [ -z "${QUOKKA_VERSION}" ]; then pip install ${PACKAGE}; \\
    else pip install ${PACKAGE}==${QUOKKA_VERSION}; fi
"""

CLONE = """\
FROM ubuntu:24.04
ARG LIBMESH_REF=v1.7.5
ARG JOBS=4
RUN git clone --depth 1 --branch ${LIBMESH_REF} https://example.org/libmesh.git /src \\
 && make -C /src -j${JOBS}
"""


def latest(root: Path, readme: str, dockerfile: str) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [(d.line, d.message, d.confidence) for d in found if "newest release" in d.message]


def told(line: int, name: str, said: str, at: int, default: str) -> tuple[int, str, str]:
    return (
        line,
        f"README says a build that does not set {name} takes {said}, but Dockerfile:{at} gives {name} the "
        f"default {default}: such a build gets {default}, whatever the newest release is",
        "likely",
    )


@pytest.mark.parametrize(
    ("readme", "dockerfile", "expected"),
    [
        (  # either … or, the arg's default offered as the example value
            "# Quokka\n\nThe image installs quokka from PyPI. This will either be the latest release or\n"
            "the version set through `--build-arg=QUOKKA_VERSION=3.1.0`.\n",
            WHEEL,
            told(3, "QUOKKA_VERSION", "the latest release", 2, "3.1.0"),
        ),
        (  # by default, in a list item
            "# Quokka\n\n- By default the newest PyPI version of quokka is installed; set `QUOKKA_VERSION` "
            "to pin one.\n",
            WHEEL,
            told(3, "QUOKKA_VERSION", "the newest PyPI version", 2, "3.1.0"),
        ),
        (  # unless, a tag cloned
            "# libMesh\n\nThe build clones the most recent tagged release of libMesh unless you pass "
            "`--build-arg LIBMESH_REF=<tag>`.\n",
            CLONE,
            told(3, "LIBMESH_REF", "the most recent tagged release", 2, "v1.7.5"),
        ),
    ],
)
def test_latest_said_while_the_arg_is_pinned(
    tmp_path: Path, readme: str, dockerfile: str, expected: tuple[int, str, str]
) -> None:
    assert latest(tmp_path, readme, dockerfile) == [expected]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (  # the pin written out: the README says which release is the latest
            "# Quokka\n\nBy default the latest release (3.1.0) is installed; set `QUOKKA_VERSION` to change "
            "it.\n",
            WHEEL,
        ),
        (  # an arg that follows new releases
            "# Quokka\n\nBy default the latest release is installed; set `QUOKKA_VERSION` to pin one.\n",
            WHEEL.replace("QUOKKA_VERSION=3.1.0", "QUOKKA_VERSION="),
        ),
        (
            "# libMesh\n\nWithout `LIBMESH_REF` the build takes the latest commit of the default branch.\n",
            CLONE.replace("v1.7.5", "master"),
        ),
        (  # the distribution's latest release, not the arg's
            "# libMesh\n\nBy default the image is built on the latest Ubuntu LTS release; `LIBMESH_REF` "
            "picks the library.\n",
            CLONE,
        ),
        (  # two args: which one is meant is not known
            "# libMesh\n\nBy default the latest release is built with `JOBS` and `LIBMESH_REF` as given.\n",
            CLONE,
        ),
        (  # no word about a build without the arg
            "# libMesh\n\nSet `LIBMESH_REF` to the latest release tag to get the newest fixes.\n",
            CLONE,
        ),
        (  # a plain `commit` word is no arg named
            "# libMesh\n\nBy default the latest commit is cloned unless you pin a commit.\n",
            CLONE.replace("LIBMESH_REF", "commit"),
        ),
    ],
)
def test_latest_said_of_something_else_or_true(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert latest(tmp_path, readme, dockerfile) == []
