"""`docgen audit`: variables a README exports for the scripts it runs next that none of them reads
(docgen/audit/exported.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = "FROM python:3.12-slim\nCOPY . /app\n"
STRICT = """\
#!/bin/bash
if [ -z "$LAB_PROJECT" ]; then
  echo "Set LAB_PROJECT first"
  exit 1
fi
docker compose -p "$LAB_PROJECT" -f ./deploy/compose.yml up -d
"""
LOOSE = '#!/bin/sh\nTAG="${LAB_TAG:-dev}"\ndocker build -t "lab:$TAG" .\n'
COMPOSE = "services:\n  lab:\n    build: ..\n    container_name: ${CONTAINER}\n"


def found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "deploy/compose.yml": COMPOSE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if " exports " in d.message
    ]


def readme(*lines: str) -> str:
    return "# Lab\n\n```\n" + "\n".join(lines) + "\n```\n"


def test_an_export_the_script_never_reads_while_it_requires_another(tmp_path: Path) -> None:
    files = {"start.sh": STRICT, "README.md": readme("$ export ROBOT_PROJECT=demo", "$ ./start.sh")}
    assert found(tmp_path, files) == [
        (
            4,
            "README exports ROBOT_PROJECT=demo for ./start.sh, but start.sh never reads ROBOT_PROJECT: it "
            "exits unless LAB_PROJECT is set (start.sh:2; did you mean LAB_PROJECT?)",
            "certain",
        )
    ]


def test_an_export_the_script_never_reads(tmp_path: Path) -> None:
    files = {"build.sh": LOOSE, "README.md": readme("export LAB_TAGS=v2", "bash build.sh")}
    assert found(tmp_path, files) == [
        (
            4,
            "README exports LAB_TAGS=v2 for build.sh, but build.sh never reads LAB_TAGS "
            "(did you mean LAB_TAG?)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "files",
    [
        {"start.sh": STRICT, "README.md": readme("export LAB_PROJECT=demo", "./start.sh")},  # read
        {"build.sh": LOOSE, "README.md": readme("export LAB_TAG=v2", "./build.sh")},  # read with a default
        # read by the compose file the script runs
        {"start.sh": STRICT, "README.md": readme("export LAB_PROJECT=demo CONTAINER=lab1", "./start.sh")},
        # read by a later script of the block
        {
            "build.sh": LOOSE,
            "push.sh": '#!/bin/sh\ndocker push "lab:$PUSH_TAG"\n',
            "README.md": readme("export PUSH_TAG=v2", "./build.sh", "./push.sh"),
        },
        # a script that hands its environment on (make, python, another script)
        {
            "run.sh": "#!/bin/sh\nmake image\n",
            "README.md": readme("export OTHER=1", "./run.sh"),
        },
        {
            "run.sh": "#!/bin/sh\npython3 tools/launch.py\n",
            "README.md": readme("export OTHER=1", "./run.sh"),
        },
        # docker's and the shell's own variables
        {"build.sh": LOOSE, "README.md": readme("export DOCKER_BUILDKIT=1", "./build.sh")},
        {"build.sh": LOOSE, "README.md": readme("export http_proxy=http://proxy:3128", "./build.sh")},
        # no script after it in the block, or a script that is not there
        {"build.sh": LOOSE, "README.md": readme("./build.sh", "export UNUSED=1")},
        {"README.md": readme("export UNUSED=1", "./missing.sh")},
        # a compose file that cannot be told
        {
            "run.sh": '#!/bin/sh\ndocker compose -f "$FILE" up\n',
            "README.md": readme("export OTHER=1", "./run.sh"),
        },
    ],
)
def test_exports_a_script_reads_or_may(tmp_path: Path, files: dict[str, str]) -> None:
    assert found(tmp_path, files) == []


# -- `$(NAME)` in a script for a variable the README exports or the script sets (`substituted_names`) --

# Modelled on a photogrammetry image's run scripts: the README exports the scan folder, and one of the
# scripts mounts it with the Makefile spelling while its sibling reads the variable.
SCAN = """\
docker run \\
    --rm \\
    --user $(id -u):$(id -g) \\
    -v $(SCAN_DIR):/scan \\
    lab/mapper \\
    mapper auto --input /scan
"""
SHELL_SCAN = SCAN.replace("$(SCAN_DIR)", "$SCAN_DIR")
SCAN_README = """\
# Mapper

Set the folder of the scan:
```
export SCAN_DIR=/data/scan
```

Then run:
```
bash reconstruct.bash
bash shell.bash
```
"""
# Modelled on a release script copied out of a Makefile: it sets its version, then passes it as `$(…)`.
RELEASE = """\
#!/usr/bin/env bash
set -e
VERSION=2.4.1
detect_arch() { uname -m; }
ARCH=$(detect_arch)
docker build --build-arg VERSION=$(VERSION) -t "lab/app:${VERSION}-$(detect_arch)" .
"""


def substituted(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "command substitution" in d.message
    ]


def test_a_variable_the_readme_exports_written_as_a_command_substitution(tmp_path: Path) -> None:
    files = {"reconstruct.bash": SCAN, "shell.bash": SHELL_SCAN, "README.md": SCAN_README}
    assert substituted(tmp_path, files) == [
        (
            10,
            "README runs reconstruct.bash, and README exports SCAN_DIR (line 5) before it, but "
            "reconstruct.bash:4 writes $(SCAN_DIR), a command substitution: the shell runs a program "
            "called SCAN_DIR, which fails, and puts in nothing, so the value is never used (did you mean "
            "${SCAN_DIR}?)",
            "certain",
        )
    ]


def test_a_variable_the_script_sets_written_as_a_command_substitution(tmp_path: Path) -> None:
    files = {"release.sh": RELEASE, "README.md": readme("./release.sh")}
    assert substituted(tmp_path, files) == [
        (
            4,
            "README runs ./release.sh, and release.sh:3 sets VERSION, but release.sh:6 writes $(VERSION), "
            "a command substitution: the shell runs a program called VERSION, which fails, and puts in "
            "nothing, so the value is never used (did you mean ${VERSION}?)",
            "certain",
        )
    ]


def test_a_variable_set_in_front_of_the_run(tmp_path: Path) -> None:
    files = {"reconstruct.bash": SCAN, "README.md": readme("SCAN_DIR=/data/scan bash reconstruct.bash")}
    assert [m for _, m, _ in substituted(tmp_path, files)] == [
        "README runs reconstruct.bash, and README sets SCAN_DIR for it, but reconstruct.bash:4 writes "
        "$(SCAN_DIR), a command substitution: the shell runs a program called SCAN_DIR, which fails, and "
        "puts in nothing, so the value is never used (did you mean ${SCAN_DIR}?)"
    ]


@pytest.mark.parametrize(
    "files",
    [
        # the variable read as a variable; a command (`$(id -u)`), a function the script defines
        {"shell.bash": SHELL_SCAN, "README.md": SCAN_README},
        {"release.sh": RELEASE.replace("$(VERSION)", "${VERSION}"), "README.md": readme("./release.sh")},
        # a name nothing sets: not said to be a variable
        {"reconstruct.bash": SCAN, "README.md": SCAN_README.replace("export SCAN_DIR", "export SCAN")},
        # exported only after the script runs
        {
            "reconstruct.bash": SCAN,
            "README.md": "# Mapper\n\n```\nbash reconstruct.bash\nexport SCAN_DIR=/data/scan\n```\n",
        },
        # set by the script only after the line
        {
            "release.sh": RELEASE.replace("VERSION=2.4.1\n", "").replace("set -e\n", "set -e\n")
            + "VERSION=2.4.2\n",
            "README.md": readme("./release.sh"),
        },
        # in single quotes (a make variable passed on), a comment, a heredoc writing a Makefile
        {
            "release.sh": RELEASE.replace("VERSION=$(VERSION)", "VERSION='$(VERSION)'"),
            "README.md": readme("./release.sh"),
        },
        {
            "release.sh": RELEASE.replace(
                "docker build", "# docker build -t $(VERSION)\ndocker build", 1
            ).replace("VERSION=$(VERSION)", "VERSION=$VERSION"),
            "README.md": readme("./release.sh"),
        },
        {
            "release.sh": RELEASE.replace("VERSION=$(VERSION)", "VERSION=$VERSION")
            + "cat > Makefile <<EOF\nall:\n\techo $(VERSION)\nEOF\n",
            "README.md": readme("./release.sh"),
        },
        # a function of that name, and a Makefile the README runs (where `$(NAME)` is a variable)
        {
            "release.sh": RELEASE.replace("detect_arch() {", "VERSION() {"),
            "README.md": readme("./release.sh"),
        },
        {"Makefile": "VERSION=1\nall:\n\techo $(VERSION)\n", "README.md": readme("export VERSION=2", "make")},
    ],
)
def test_substitutions_that_are_no_slip(tmp_path: Path, files: dict[str, str]) -> None:
    assert substituted(tmp_path, files) == []
