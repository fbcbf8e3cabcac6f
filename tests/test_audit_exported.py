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
