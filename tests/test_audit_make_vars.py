"""`docgen audit`: variables a README passes to `make` that no makefile of the build reads
(docgen/audit/make_vars.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
SHARED = """\
QUIET ?= yes
TARGET_OS ?= debian12
EXTRA_PY_VERSION ?=
PY_TAG=py$(subst .,,$(EXTRA_PY_VERSION))
ifdef EXTRA_PY_VERSION
\tPARENT = parent-$(TARGET_OS)-$(PY_TAG)
endif
ifeq ($(QUIET),yes)
\tQ = @
else
\tQ =
endif
image:
\t$(Q)docker build --build-arg PARENT=$(PARENT) -t $(NAME):1.0 $(WORK_DIR)
"""
TORCH = """\
include ../shared.mk
NAME = torch-$(TARGET_OS)
parent:
\tcd ../parent; \\
\tmake image
prepare: parent
\t$(Q)mkdir -p $(WORK_DIR)
image: prepare
"""
PARENT = "include ../shared.mk\nNAME = parent-$(TARGET_OS)\n"


def found(root: Path, readme: str, files: dict[str, str] | None = None) -> list[tuple[int, str, str]]:
    tree = {
        "images/Dockerfile": APP,
        "images/shared.mk": SHARED,
        "images/torch/Makefile": TORCH,
        "images/parent/Makefile": PARENT,
        "images/README.md": readme,
    }
    tree.update(files or {})
    make_tree(root, {k: v for k, v in tree.items() if v})
    model = build_model(root / "images" / "Dockerfile", "Dockerfile")
    findings = audit(readme, "README.md", model, {}, root / "images", root)
    return [(d.line, d.message, d.confidence) for d in findings if "make" in d.message]


README = """\
# Images

```sh
cd torch
make image TARGET_OS=rhel9 PY_EXTRA_VERSION=3.12
```

Variables:
* TARGET_OS - the OS to build on (default debian12)
* PY_EXTRA_VERSION - another Python than the OS's
"""
SAID = (
    "README passes PY_EXTRA_VERSION=3.12 to make, but no makefile it reads (torch/Makefile, shared.mk, "
    "parent/Makefile) reads PY_EXTRA_VERSION: did you mean EXTRA_PY_VERSION (shared.mk:3)?"
)


def test_a_variable_with_its_words_reordered(tmp_path: Path) -> None:
    assert found(tmp_path, README) == [(5, SAID + "; also at line 10", "certain")]


def test_a_sub_make_in_a_folder_not_there_may_read_it(tmp_path: Path) -> None:
    said = SAID.replace(", parent/Makefile)", ")").replace(
        "(shared.mk:3)?",
        "(shared.mk:3)? (torch/Makefile:4 runs make in ../parent, which is not there, and may read it)",
    )
    assert found(tmp_path, README, {"images/parent/Makefile": ""}) == [
        (5, said + "; also at line 10", "likely")
    ]


def test_a_program_docgen_does_not_know_may_read_it(tmp_path: Path) -> None:
    torch = TORCH + "stamp:\n\tpython3 -m stamper --out $(WORK_DIR)\n"
    result = found(tmp_path, README, {"images/torch/Makefile": torch})
    assert [(line, confidence) for line, _, confidence in result] == [(5, "likely")]
    assert "torch/Makefile:10 runs python3 -m stamper" in result[0][1]


@pytest.mark.parametrize(
    "command",
    [
        "PY_EXTRA_VERSION=3.12 make image",  # the environment, before make
        "make -C torch image PY_EXTRA_VERSION=3.12",  # -C, from the README's folder
    ],
)
def test_other_ways_to_pass_it(tmp_path: Path, command: str) -> None:
    folder = "cd torch\n" if command.startswith("PY") else ""
    readme = f"# Images\n\n```sh\n{folder}{command}\n```\n"
    assert [(c, m[:40]) for _, m, c in found(tmp_path, readme)] == [("certain", SAID[:40])]


def test_inline_code(tmp_path: Path) -> None:
    readme = "# Images\n\nFrom `torch/`, run `make image PY_EXTRA_VERSION=3.12`.\n"
    files = {"images/Makefile": "include shared.mk\nNAME = all\n"}
    result = found(tmp_path, readme, files)
    assert [(line, confidence) for line, _, confidence in result] == [(3, "certain")]


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ("make image EXTRA_PY_VERSION=3.12", {}),  # the name the makefiles read
        ("make image FOO_SETTING=1", {}),  # no variable a slip away: nothing to say it was meant
        ("make image CXXFLAGS=-O2", {}),  # make's implicit rules read it
        ("make image QUIETT=no", {"images/shared.mk": SHARED.replace("$(NAME):1.0", "$(NAME):$(QUIETT)")}),
        # a script a recipe runs reads it from its environment
        (
            "make image PY_EXTRA_VERSION=3.12",
            {
                "images/torch/Makefile": TORCH + "stamp:\n\t./stamp.sh\n",
                "images/torch/stamp.sh": '#!/bin/sh\necho "${PY_EXTRA_VERSION:-none}"\n',
            },
        ),
        # a bare --build-arg takes it from the environment
        (
            "make image PY_EXTRA_VERSION=3.12",
            {
                "images/shared.mk": SHARED.replace(
                    "--build-arg PARENT", "--build-arg PY_EXTRA_VERSION --build-arg PARENT"
                )
            },
        ),
        # a compose file the recipe builds with interpolates it
        (
            "make image PY_EXTRA_VERSION=3.12",
            {
                "images/torch/Makefile": TORCH + "up:\n\tdocker compose up -d\n",
                "images/torch/compose.yaml": "services:\n  app:\n    image: app:${PY_EXTRA_VERSION}\n",
            },
        ),
        # a computed name may be any
        (
            "make image PY_EXTRA_VERSION=3.12",
            {"images/torch/Makefile": TORCH + "X = $($(TARGET_OS)_VERSION)\n"},
        ),
        ("docker run -it app bash\nmake image PY_EXTRA_VERSION=3.12", {}),  # in the container
        ("cd $WORK/torch\nmake image PY_EXTRA_VERSION=3.12", {}),  # a folder docgen cannot tell
        ("# make image PY_EXTRA_VERSION=3.12", {}),  # a comment
    ],
)
def test_traps(tmp_path: Path, command: str, files: dict[str, str]) -> None:
    cd = "" if command.startswith(("docker", "cd")) else "cd torch\n"
    readme = f"# Images\n\n```sh\n{cd}{command}\n```\n"
    assert found(tmp_path, readme, files) == []


def test_no_makefile_where_the_command_runs(tmp_path: Path) -> None:
    readme = "# Images\n\n```sh\ncd triton\nmake image PY_EXTRA_VERSION=3.12\n```\n"
    assert found(tmp_path, readme) == []
