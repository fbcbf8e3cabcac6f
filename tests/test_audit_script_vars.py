"""`docgen audit`: a README's table of the environment variables a named script reads, against the
script's `${NAME:-default}` reads (docgen/audit/script_vars.py, docgen/script_env.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = 'FROM ubuntu:22.04\nCOPY start.sh /start.sh\nENTRYPOINT ["/start.sh"]\n'
START = """\
#!/usr/bin/env bash
WORKERS="${WORKERS:-4}"
LISTEN="${LISTEN:-0.0.0.0}"
: "${LOG_LEVEL:=info}"
mode=fast
exec server --workers "$WORKERS" --listen "$LISTEN" --log "$LOG_LEVEL" --mode "${mode:-slow}"
"""


def found(root: Path, readme: str, start: str = START) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, "start.sh": start, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "start.sh" in d.message
    ]


def table(intro: str, rows: str) -> str:
    return f"# Server\n\n## Settings\n\n{intro}\n\n| Variable | Default |\n|---|---|\n{rows}"


def test_a_variable_the_table_leaves_out_and_a_default_that_differs(tmp_path: Path) -> None:
    readme = table(
        "`start.sh` reads its settings from environment variables:",
        "| `WORKERS` | `8` |\n| `LISTEN` | `0.0.0.0` (all interfaces) |\n",
    )
    assert found(tmp_path, readme) == [
        (
            7,
            "README's table of the variables start.sh reads leaves out LOG_LEVEL (start.sh:4, default info)",
            "likely",
        ),
        (9, "README says WORKERS defaults to 8, but start.sh:2 gives it 4", "certain"),
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the nearest true statement
        table(
            "The entrypoint script `start.sh` reads these environment variables:",
            "| `WORKERS` | `4` |\n| `LISTEN` | 0.0.0.0 |\n| `LOG_LEVEL` | `info` |\n",
        ),
        # a table saying it holds only some
        table("Common variables `start.sh` reads:", "| `WORKERS` | `4` |\n| `LISTEN` | `0.0.0.0` |\n"),
        # a table not about that script's variables
        table("Variables of `start.sh`:", "| `PORT` | `80` |\n| `HOST` | `x` |\n| `WORKERS` | `4` |\n"),
        table("Build arguments:", "| `WORKERS` | `8` |\n| `LISTEN` | `0.0.0.0` |\n"),
        table("`run.sh` reads these variables:", "| `WORKERS` | `8` |\n| `LISTEN` | `1.2.3.4` |\n"),
    ],
)
def test_tables_left_alone(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []
