"""`docgen audit`: a reference to a numbered line of a file beside the README (`Used in: Makefile line
9`) whose line does not name the variable the item is about (docgen/audit/line_refs.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import CERTAIN, audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM debian:12\nARG TOOL_VERSION=1.2\nENV TZ=UTC \\\n    LANG=C.UTF-8\nENV APP_HOME=/srv\n"
MAKEFILE = (
    "# images\n"
    "GPU_TARGET ?= sm_90\n"
    "\n"
    "DATA_DIR ?= /data\n"
    "TOOL_VERSION ?= 1.2\n"
    "\n"
    "build:\n"
    "\tdocker build --build-arg TOOL_VERSION=$(TOOL_VERSION) -t app .\n"
    "run:\n"
    "\tDATA_DIR=$(DATA_DIR) ./run.sh\n"
)
RUN = '#!/bin/sh\nset -e\nDATA_DIR="${DATA_DIR:-/data}"\nif [ "${QUIET:-0}" = 1 ]; then :; fi\n'


def found(root: Path, readme: str) -> list[tuple[int, str, str]]:
    """(line, message, confidence) of `audit` of root/README.md against root/Dockerfile, with a Makefile
    and a script beside it."""
    make_tree(root, {"Dockerfile": DOCKERFILE, "Makefile": MAKEFILE, "run.sh": RUN, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", model, {}, root, root)]


def test_a_nested_item_pointing_at_the_wrong_makefile_line(tmp_path: Path) -> None:
    readme = (
        "## Variables\n\n"
        "- **`GPU_TARGET`** (default: `sm_90`)\n"
        "  - Used in: Makefile line 2, Docker build args\n"  # the true statement
        "- **`DATA_DIR`** (default: `/data`)\n"
        "  - Used in: Makefile line 3, run.sh line 3\n"
    )
    assert found(tmp_path, readme) == [
        (
            6,
            "README says DATA_DIR is on Makefile line 3, which does not name it; Makefile line 4 sets it",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("- `DATA_DIR` is set on line 5 of the Makefile", "Makefile line 5"),
        ("- `DATA_DIR=/data`: see `Makefile`, line 2", "Makefile line 2"),
        ("* **DATA_DIR** — Makefile line 8", "Makefile line 8"),
    ],
)
def test_other_wordings_of_a_wrong_line(tmp_path: Path, item: str, message: str) -> None:
    assert found(tmp_path, f"# App\n\n{item}\n") == [
        (3, f"README says DATA_DIR is on {message}, which does not name it; Makefile line 4 sets it", CERTAIN)
    ]


def test_several_lines_of_a_script_one_of_them_wrong(tmp_path: Path) -> None:
    readme = "- **`QUIET`** (default: `0`)\n  - Used in: run.sh lines 4, 2\n"
    assert found(tmp_path, readme) == [
        (2, "README says QUIET is on run.sh line 2, which does not name it; it is on run.sh line 4", "likely")
    ]


@pytest.mark.parametrize(
    "readme",
    [
        "- **`LANG=C.UTF-8`**\n  - Set in: Dockerfile line 3\n",  # on the continued ENV line
        "- **`APP_HOME=/srv`**\n  - Set in: Dockerfile line 5\n",
        "- **`QUIET`**\n  - Used in: run.sh lines 4\n",
        "- **`DATA_DIR`**\n  - Used in: Makefile lines 4, 10\n",  # a recipe line names it too
        "- **`DATA_DIR`**\n  - Used in: Makefile line 40\n",  # past the end: not judged here
        "- **`DATA_DIR`**\n  - Used in: other/Makefile line 3\n",  # a file not there
        "- **`NOT_THERE`**\n  - Used in: Makefile line 3\n",  # a name the file never writes
        "- **`DATA_DIR`** and **`GPU_TARGET`**: Makefile line 3\n",  # which one is meant is unclear
        "See Makefile line 3 for the rest.\n",  # no variable
    ],
)
def test_references_left_alone(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


# --------------------------------------------------------------------------------------------------
# A line range named by its words, in a file the paragraph names before it

CLUSTER = "".join(
    f"{line}\n"
    for line in [
        "apiVersion: ray.io/v1",  # 1
        "kind: RayCluster",
        "spec:",
        "  headGroupSpec:",
        "    rayStartParams:",  # 5
        "      dashboard-agent-listen-port: '52365'",
        "    template:",
        "      spec:",
        "        containers:",
        "          - name: ray-head",  # 10
        "            ports:",
        "              - containerPort: 6379",
        "                name: gcs",
        "              - containerPort: 8265",
        "                name: dashboard",  # 15
        "              - containerPort: 8000",
        "                name: serve",
        "              - containerPort: 52365",
        "                name: dashboard-agent",
        "            resources:",  # 20
        "              limits:",
        "                cpu: '1'",
    ]
)
CLUSTER_README = """\
# Serving on KubeRay

The cluster is described [here](cluster.yaml). What matters for Serve:
* Line 6 - setting `dashboard-agent-listen-port`, the port of the serve management API
* Lines 17-18 defining ports for dashboard agent.
* Lines 20-22 limit the head's cpu resources.
"""


def _words_found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, **files, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "README says" in d.message and " hold " in d.message
    ]


def test_a_range_a_line_off_from_the_lines_its_words_name(tmp_path: Path) -> None:
    assert _words_found(tmp_path, CLUSTER_README, {"cluster.yaml": CLUSTER}) == [
        (
            5,
            "README says cluster.yaml lines 17-18 hold 'defining ports for dashboard agent', but "
            "cluster.yaml lines 18-19 do: - containerPort: 52365 / name: dashboard-agent",
            CERTAIN,
        )
    ]
    fixed = CLUSTER_README.replace("Lines 17-18", "Lines 18-19")
    assert _words_found(tmp_path / "fixed", fixed, {"cluster.yaml": CLUSTER}) == []


BUILD = "".join(
    f"{line}\n"
    for line in [
        "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04",  # 1
        "ENV DEBIAN_FRONTEND=noninteractive",
        "RUN apt-get update && apt-get install -y python3-pip git",
        "WORKDIR /opt/app",
        "COPY requirements.txt .",  # 5
        "RUN pip install -r requirements.txt",
        "RUN git clone https://example.org/kernels.git && pip install ./kernels",
        "COPY . .",
        'CMD ["python3", "serve.py"]',
    ]
)


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # the paragraph names the file; the range is one line off the kernels' clone
        (
            "# Kernels\n\nIn the [Dockerfile](Dockerfile.gpu):\n\n- line 6 clones and installs the kernels\n",
            [],  # another paragraph: the file is not known
        ),
        (
            "# Kernels\n\nIn the [Dockerfile](Dockerfile.gpu), line 6 clones and installs the kernels.\n",
            [(3, "line 6", "line 7")],
        ),
        (
            "# Kernels\n\nIn `Dockerfile.gpu`, line 7 clones and installs the kernels.\n",
            [],  # right
        ),
        (
            "# Kernels\n\n[Dockerfile.gpu](Dockerfile.gpu), [run.sh](run.sh): line 6 clones the kernels.\n",
            [],  # two files named: which one is not known
        ),
        (
            "# Kernels\n\nSee [Dockerfile.gpu](Dockerfile.gpu) line 4 for the working folder of the app.\n",
            [],  # `folder` is on no line: no range holds every word
        ),
        (
            "# Kernels\n\n`Dockerfile.gpu` line 3 installs pip and git; line 6 installs the requirements.\n",
            [],  # both right
        ),
    ],
)
def test_ranges_read_by_their_words(
    tmp_path: Path, readme: str, expected: list[tuple[int, str, str]]
) -> None:
    got = _words_found(tmp_path, readme, {"Dockerfile.gpu": BUILD, "run.sh": RUN})
    shape = r"Dockerfile\.gpu (line \d+) hold .* Dockerfile\.gpu (line \d+) does"
    read = [(line, re.search(shape, message)) for line, message, _ in got]
    assert [(line, *m.groups()) for line, m in read if m] == expected
    assert len(got) == len(expected)
