"""`docgen audit`: how many build stages the README says a Dockerfile has (docgen/audit/stage_count.py),
against its FROM instructions.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import re

import pytest
from helpers import findings

TWO = "FROM debian:bookworm AS build\nRUN make\nFROM debian:bookworm-slim\nCOPY --from=build /out /out\n"
ONE = "FROM debian:bookworm\nLABEL org.opencontainers.image.title=app\nRUN make\n"
FAMILY = {"Dockerfile": TWO, "Dockerfile.release": ONE}


@pytest.mark.parametrize(
    "said",
    [
        "```\napp/\n├── Dockerfile              # multi-stage build\n"
        "├── Dockerfile.release      # Multi-stage with labels for releases\n```",
        "| File | Notes |\n|---|---|\n| `Dockerfile` | multi-stage |\n"
        "| `Dockerfile.release` | Multi stage, labelled |",
        "- `Dockerfile`: two-stage build\n- `Dockerfile.release`: multistage build for releases",
    ],
)
def test_a_dockerfile_said_multi_stage_with_one_from(said: str) -> None:
    found = findings(f"# App\n\n{said}\n", FAMILY)
    assert len(found) == 1
    assert re.fullmatch(
        r"[4-6]: README says Dockerfile\.release is [Mm]ulti[- ]?stage but it has 1 stage \(FROM at :1\)",
        found[0],
    ), found


@pytest.mark.parametrize(
    "said",
    [
        "`Dockerfile.release` is a single-stage build.",
        "`Dockerfile` is a multi-stage build.",
        "Multi-stage Dockerfiles keep the images small.",  # no one file named
        "`Dockerfile.release` is not multi-stage.",
        "Consider making `Dockerfile.release` a multi-stage build.",
    ],
)
def test_stage_counts_the_files_bear_or_that_name_no_one_file(said: str) -> None:
    assert findings(f"# App\n\n{said}\n", FAMILY) == []


def test_the_only_image_said_to_be_built_in_stages() -> None:
    assert findings("# App\n\nThe Dockerfile uses a multi-stage build.\n", {"Dockerfile": ONE}) == [
        "3: README says Dockerfile is multi-stage but it has 1 stage (FROM at :1)"
    ]
    assert findings("# App\n\nThe Dockerfile uses a multi-stage build.\n", {"Dockerfile": TWO}) == []
    assert findings("# App\n\nThe image is a two-stage build.\n", {"Dockerfile": ONE}) == [
        "3: README says Dockerfile is two-stage but it has 1 stage (FROM at :1)"
    ]
