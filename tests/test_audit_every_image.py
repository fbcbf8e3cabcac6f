"""`docgen audit`: a component the README says every image holds (docgen/audit/every_image.py), against
what each audited Dockerfile installs.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

GNU = """\
FROM debian:bookworm
RUN apt-get update && apt-get install -y --no-install-recommends gfortran libopenmpi-dev \\
        moreutils parallel
"""
INTEL = """\
FROM example/oneapi-kit:2024.1
RUN apt-get update && apt-get install -y --no-install-recommends cmake moreutils
RUN curl -fsSL https://example.org/src/fftw-3.3.10.tar.gz | tar xz \\
 && cd fftw-3.3.10 && ./configure --enable-threads && make install
"""
LAYER = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends strace gdb
"""
FAMILY = {"gnu/Dockerfile": GNU, "intel/Dockerfile": INTEL, "dev/Dockerfile": LAYER}


@pytest.mark.parametrize(
    "said",
    [
        "**Note:** GNU Parallel is installed in each software stack.",
        "GNU Parallel is included in all of the images.",
        "All images ship `parallel`.",
        "Every image includes parallel, for batch jobs.",
        "parallel comes preinstalled in every variant.",
    ],
)
def test_a_component_one_image_lacks_is_not_in_every_image(said: str) -> None:
    found = findings(f"# Stacks\n\n{said}\n", FAMILY)
    assert len(found) == 1
    assert re.fullmatch(
        r"3: README says .+ is in every image but intel/Dockerfile installs no [Pp]arallel "
        r"\(gnu/Dockerfile:3 installs parallel\)",
        found[0],
    ), found


@pytest.mark.parametrize(
    "said",
    [
        "moreutils is installed in each software stack.",  # both install it (the layer builds on them)
        "GNU Parallel is installed in the GNU image.",  # one image, not every one
        "Each image has its own MPI.",
        "Every image ships its own parallel build of HDF5.",
        "parallel is installed in every image if you pass WITH_PARALLEL=1.",  # conditional
        "cmake is installed in all images but the GNU one.",  # an exception named
    ],
)
def test_claims_every_image_bears_or_that_are_not_about_every_image(said: str) -> None:
    assert findings(f"# Stacks\n\n{said}\n", FAMILY) == []


def test_an_image_whose_install_list_docgen_cannot_read_is_not_said_to_lack_it(tmp_path: Path) -> None:
    listed = "FROM example/oneapi-kit:2024.1\nRUN pip install -r requirements.txt\n"
    said = "# Stacks\n\nGNU Parallel is installed in each stack.\n"
    assert findings(said, {"gnu/Dockerfile": GNU, "intel/Dockerfile": listed}) == []
    scripted = "FROM example/oneapi-kit:2024.1\nCOPY install.sh /tmp/\nRUN bash /tmp/install.sh\n"
    make_tree(tmp_path, {"gnu/Dockerfile": GNU, "intel/Dockerfile": scripted})
    models = [build_model(tmp_path / p, p) for p in ("gnu/Dockerfile", "intel/Dockerfile")]
    assert [d.message for d in audit(said, "README.md", models)] == []
