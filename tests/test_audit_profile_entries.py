"""`docgen audit`: a shell start file the README says the image's build writes an entry to that nothing of
the build names (docgen/audit/profile_entries.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = """\
FROM ubuntu:22.04
ADD build-vision.sh /tmp/
RUN /tmp/build-vision.sh
"""
SCRIPT = "#!/bin/sh\ncmake -D CMAKE_INSTALL_PREFIX=/usr/local ..\nmake -j4\nmake install\n"
SAYS = (
    "# Vision kit\n\nThe library is installed in `/usr/local` and an entry is added to `/etc/profile` so "
    "that its Python modules are on the `PYTHONPATH`.\n"
)


def _found(root: Path, readme: str, dockerfile: str, script: str = SCRIPT) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme, "build-vision.sh": script})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "entry to" in d.message]


def test_an_entry_the_build_is_said_to_write_that_nothing_writes(tmp_path: Path) -> None:
    assert _found(tmp_path, SAYS, DOCKERFILE) == [
        "3: README says the build writes an entry to /etc/profile, but nothing of Dockerfile or the files it "
        "copies names /etc/profile (nor PYTHONPATH): no step of the build writes it (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile", "script"),
    [
        # the copied script writes it
        (SAYS, DOCKERFILE, SCRIPT + "echo 'export PYTHONPATH=/usr/local/python' >> /etc/profile\n"),
        # the Dockerfile writes it
        (
            SAYS,
            DOCKERFILE + "RUN echo 'export PYTHONPATH=/usr/local/python' > /etc/profile.d/vision.sh\n",
            SCRIPT,
        ),
        # the reader's own shell file
        (
            "# Vision kit\n\nAdd the following line to your `~/.bashrc`: `source /opt/env.sh`.\n",
            DOCKERFILE,
            SCRIPT,
        ),
        (
            "# Vision kit\n\nYou can append `export X=1` to `/root/.bashrc` if you need it.\n",
            DOCKERFILE,
            SCRIPT,
        ),
        # a script docgen cannot read runs in the build
        (SAYS, DOCKERFILE + "RUN curl -fsSL https://example.com/setup.sh | sh\n", SCRIPT),
    ],
)
def test_entries_the_build_writes_or_that_are_the_readers(
    tmp_path: Path, readme: str, dockerfile: str, script: str
) -> None:
    assert _found(tmp_path, readme, dockerfile, script) == []
