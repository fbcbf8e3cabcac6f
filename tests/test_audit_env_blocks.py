"""`docgen.audit.env_blocks`: a code block restating the image's build args and environment
(`NAME=VALUE` a line) against the Dockerfile's ARG defaults and ENV values. Planted drifts and the
shapes that stay silent; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = """\
FROM debian:bookworm
ARG TOOL_DIST="Toolbox"
ARG TOOL_RELEASE="7.2.1"
ARG TOOL_BUILD="3"
ARG TOOL_VERSION="${TOOL_RELEASE}-${TOOL_BUILD}"
ARG TOOL_HOME="/opt/toolbox7"
ARG TOOL_USER="worker"
ENV TOOL_HOME=${TOOL_HOME} \\
    HOME=/home/${TOOL_USER} \\
    LANG=C.UTF-8 \\
    SHELL=/bin/zsh
RUN true
"""


def _audit(
    tmp_path: Path, block: str, intro: str = "The image uses these settings:", lang: str = "bash"
) -> list[str]:
    readme = f"# Toolbox\n\n## Environment\n\n{intro}\n\n```{lang}\n{block}```\n"
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


GOOD = """\
TOOL_DIST="Toolbox"
TOOL_RELEASE="7.2.1"
TOOL_BUILD="3"
TOOL_VERSION="$TOOL_RELEASE-$TOOL_BUILD"
TOOL_HOME="/opt/toolbox7"
HOME=/home/$TOOL_USER
LANG=C.UTF-8
SHELL=/bin/zsh
"""


def test_a_block_that_agrees_is_silent(tmp_path: Path) -> None:
    assert _audit(tmp_path, GOOD) == []


def test_a_value_a_letter_off(tmp_path: Path) -> None:
    found = _audit(tmp_path, GOOD.replace("SHELL=/bin/zsh", "SHELL=/bin/zshh"))
    assert found == ["15: README says SHELL=/bin/zshh but Dockerfile:8 sets ENV SHELL=/bin/zsh (likely)"]


def test_a_reference_list_of_another_shape(tmp_path: Path) -> None:
    block = GOOD.replace('"$TOOL_RELEASE-$TOOL_BUILD"', '"$TOOL_DIST-$TOOL_FLAVOR_$TOOL_RELEASE"')
    found = _audit(tmp_path, block)
    assert found == [
        "11: README says TOOL_VERSION=$TOOL_DIST-$TOOL_FLAVOR_$TOOL_RELEASE but Dockerfile:5 sets ARG "
        'TOOL_VERSION="${TOOL_RELEASE}-${TOOL_BUILD}" (likely)'
    ]


@pytest.mark.parametrize(
    ("block", "intro", "lang"),
    [
        # values to pass, not the image's
        (GOOD.replace("SHELL=/bin/zsh", "SHELL=/bin/fish"), "Write your .env file like this:", "bash"),
        (GOOD.replace("SHELL=/bin/zsh", "SHELL=/bin/fish"), "Override them with docker run -e:", "bash"),
        # too few lines agree: not a copy of the image's settings
        ("SHELL=/bin/fish\nLANG=C.UTF-8\nTOOL_BUILD=4\n", "The image uses these settings:", "bash"),
        # a block of commands, not of settings
        (GOOD.replace("SHELL=/bin/zsh", "SHELL=/bin/fish") + "make install\n", "Then run:", "bash"),
        # names the Dockerfile does not give are no claim of the image
        (GOOD + "EDITOR=vim\n", "The image uses these settings:", "bash"),
        # a block of another language
        (GOOD.replace("SHELL=/bin/zsh", "SHELL=/bin/fish"), "The image uses these settings:", "python"),
    ],
)
def test_blocks_that_stay_silent(tmp_path: Path, block: str, intro: str, lang: str) -> None:
    assert _audit(tmp_path, block, intro, lang) == []
