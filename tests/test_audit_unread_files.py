"""`docgen audit`: a file beside the README said to go into the build that no Dockerfile copies or
names (docgen/audit/unread_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

READY_BASE = "FROM vendor/studio:latest-gpu\nWORKDIR /srv/app\nRUN git clone https://example.org/nodes.git\n"


def unread(root: Path, readme: str, dockerfile: str = READY_BASE) -> list[tuple[int, str, str]]:
    make_tree(
        root,
        {"Dockerfile": dockerfile, "extras.txt": "pkg-a\n", "settings.toml": "", "README.md": readme},
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "goes into the build" in d.message
    ]


def test_a_package_file_said_to_go_into_the_build_that_nothing_copies(tmp_path: Path) -> None:
    readme = (
        "# Studio\n\n"
        "## Extra wheels\n\n"
        "The accelerator wheel is in extras.txt so it will be part of the build, drop it if you don't\n"
        "want it.\n\n"
        "Options in `settings.toml` are read at build time; `extras.txt` again is no second finding.\n"
    )
    assert unread(tmp_path, readme) == [
        (
            5,
            "README says extras.txt goes into the build, but Dockerfile never copies or names it: "
            "editing it changes nothing",
            "likely",
        ),
        (
            8,
            "README says settings.toml goes into the build, but Dockerfile never copies or names it: "
            "editing it changes nothing",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    ("line", "dockerfile"),
    [
        # copied: by name, with the whole context, through a pattern, or bound for a RUN
        ("`extras.txt` is installed into the image.", READY_BASE + "COPY extras.txt /tmp/\n"),
        ("`extras.txt` is installed into the image.", READY_BASE + "COPY . /srv/app\n"),
        ("`extras.txt` is installed into the image.", READY_BASE + "COPY *.txt /tmp/\n"),
        (
            "`extras.txt` is installed into the image.",
            READY_BASE + "RUN --mount=type=bind,source=extras.txt,target=/e pip install -r /e\n",
        ),
        # the clause denies it
        ("`extras.txt` is not part of the build; install it yourself.", READY_BASE),
        # no such file beside the README, or no words about the build
        ("`missing.txt` is part of the build.", READY_BASE),
        ("List your packages in `extras.txt`.", READY_BASE),
        # a compose file is read by compose, not the build
        ("`docker-compose.yml` is part of the image setup at build time.", READY_BASE),
    ],
)
def test_files_the_build_may_read(tmp_path: Path, line: str, dockerfile: str) -> None:
    assert unread(tmp_path, f"# Studio\n\n{line}\n", dockerfile) == []
