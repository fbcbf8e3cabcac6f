"""`docgen audit` of a README about a family of images: which part of it is about which image.

Each rule has a planted drift that must be found and a trap that must not be reported.
"""

from __future__ import annotations

from collections.abc import Mapping

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of


def found(readme: str, dockerfiles: Mapping[str, str]) -> list[str]:
    """`audit` of `readme` against the Dockerfiles `dockerfiles` (path → text), as `line: message`."""
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {})]


# --------------------------------------------------------------------------------------------------
# A heading naming one word of a Dockerfile's many-word name

ALMA = """\
ARG OS_TAG=9.4
FROM almalinux:${OS_TAG}
ARG APP_RELEASE=4.2.0
ARG MIRROR=repo.example.org
RUN echo ${APP_RELEASE} ${MIRROR}
"""
DEBIAN = """\
ARG OS_TAG=bookworm
FROM debian:${OS_TAG}
ARG APP_RELEASE=4.1.0
ARG MIRROR=repo.example.org
RUN echo ${APP_RELEASE} ${MIRROR}
"""
FAMILY = {"ci/Dockerfile.alma.app": ALMA, "ci/Dockerfile.debian.app": DEBIAN}
PART_TABLE = """\
# App images

### {heading}

The image takes these build arguments:

| Argument | Default | Meaning |
|---|---|---|
| `APP_RELEASE` | `4.1.0` | app release |
| `MIRROR` | `repo.example.org` | package mirror |
"""


def test_a_heading_naming_a_word_only_one_dockerfile_name_has_ties_its_table_to_that_image() -> None:
    assert found(PART_TABLE.format(heading="Alma-based Dockerfile"), FAMILY) == [
        "7: build arg OS_TAG (ci/Dockerfile.alma.app:1) is missing from the README's build-argument table",
        "9: README says APP_RELEASE defaults to 4.1.0 but ci/Dockerfile.alma.app:3 says 4.2.0",
    ]


def test_a_heading_word_both_names_share_or_not_about_an_image_ties_nothing() -> None:
    # `app` is in both names; `Alma notes` is no heading about an image: 4.1.0 is debian's default.
    assert found(PART_TABLE.format(heading="The app image"), FAMILY) == []
    assert found(PART_TABLE.format(heading="Alma notes"), FAMILY) == []
