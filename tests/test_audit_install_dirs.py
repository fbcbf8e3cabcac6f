"""`docgen.audit.install_dirs`: the folder prose says things are installed into against the path a
build arg or ENV of the image names. Planted drifts and traps; small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = """\
FROM debian:bookworm
ARG TOOL_PREFIX="/opt/toolkit2"
ENV CUDA_HOME=/usr/local/cuda-12.4
RUN ./installer.sh -p ${TOOL_PREFIX} && ln -s /usr/local/cuda-12.4 /usr/local/cuda
"""


def _audit(tmp_path: Path, sentence: str) -> list[str]:
    readme = f"# Toolkit\n\n{sentence}\n"
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "README.md": readme})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


@pytest.mark.parametrize(
    "sentence",
    [
        "This image installs the toolkit into the `/opt/toolkit` directory.",
        "The toolkit is installed in `/opt/toolkit/`, ready to use.",
        "The `tool` command works in the `/opt/toolkit` directory.",
    ],
)
def test_an_install_folder_a_character_off(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, sentence) == [
        "3: README says things are installed into /opt/toolkit but Dockerfile:2 sets ARG "
        "TOOL_PREFIX=/opt/toolkit2: the image uses /opt/toolkit2 (likely)"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "This image installs the toolkit into the `/opt/toolkit2` directory.",  # true
        "CUDA is installed in `/usr/local/cuda`.",  # the Dockerfile names it (a link)
        "This image installs the toolkit into the `/opt/toolkit3` directory.",  # another version
        "You can install the toolkit into `/opt/toolkit` on your host.",  # the reader's
        "This image installs the toolkit into the `/srv/toolkit` directory.",  # another folder
        "Run the `/opt/toolkit` script from the shell.",  # no install claim
    ],
)
def test_install_folder_traps(tmp_path: Path, sentence: str) -> None:
    assert _audit(tmp_path, sentence) == []
