"""`docgen audit`: how many build stages the README says a Dockerfile has (docgen/audit/stage_count.py),
against its FROM instructions.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

import re

import pytest
from helpers import findings

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

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


@pytest.mark.parametrize(
    "said",
    [
        "## Features\n\n- **Multi-stage Build**: smaller final images\n",
        "## Specs\n\n- **Build System**: Multi-stage Docker build for a lean image\n",
        "## Notes\n\nThe multi-stage build keeps compilers out of the final image.\n",
        # a label naming the image's build: the plural is still this image's (a demo's feature list)
        "## Automated Features\n\n- ✅ **Docker Image Building**: Multi-stage builds with caching\n",
        "## Highlights\n\n* Container: multistage builds, small final layer\n",
    ],
)
def test_the_only_image_said_to_have_a_multi_stage_build(said: str) -> None:
    found = findings(f"# App\n\n{said}", {"Dockerfile": ONE})
    assert len(found) == 1
    assert re.fullmatch(
        r"[5-6]: README says Dockerfile is [Mm]ulti-?stage but it has 1 stage \(FROM at :1\)", found[0]
    ), found
    assert findings(f"# App\n\n{said}", {"Dockerfile": TWO}) == []


@pytest.mark.parametrize(
    "said",
    [
        "Use a multi-stage build to keep your images small.",  # advice
        "We recommend a multi-stage build for production images.",
        "Multi-stage builds keep images small.",  # builds in general
        "- Multi-stage build support in the generator\n",  # a tool's feature
        "- **Build tips**: use multi-stage builds\n",  # advice after a label
        "- **Best practices**: multi-stage builds\n",  # the label names no build of this image
        "```dockerfile\n# multi-stage build\nFROM debian:bookworm AS build\nFROM debian:bookworm-slim\n```",
    ],
)
def test_a_multi_stage_build_advised_or_shown_elsewhere(said: str) -> None:
    assert findings(f"# App\n\n{said}\n", {"Dockerfile": ONE}) == []


def test_a_multi_stage_build_with_several_dockerfiles_names_none() -> None:
    assert findings("# App\n\n- **Multi-stage Build**: small images\n", FAMILY) == []


def test_a_labelled_multi_stage_build_of_services_sharing_one_dockerfile() -> None:
    # compose services built from one Dockerfile: one file, one count
    models = [model_of(parse_dockerfile(ONE, "Dockerfile")) for _ in ("web", "worker")]
    said = "# App\n\n- **Docker Image Building**: Multi-stage builds with caching\n"
    assert [f"{d.line}: {d.message}" for d in audit(said, "README.md", models, {})] == [
        "3: README says Dockerfile is Multi-stage but it has 1 stage (FROM at :1)"
    ]
