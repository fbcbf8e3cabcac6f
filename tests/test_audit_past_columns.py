"""`docgen audit`: the cells of a table column headed as what the project replaced (`| Old | Now |`,
`Before`, `Previous setup`) are no claims about the project (docgen/audit/aside.py,
`without_past_columns`); the other columns still are."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.aside import past_columns, without_past_columns
from docgen.pipeline import build_model

DOCKERFILE = (
    "FROM vendor/serving-rocm:v0.24.0\nCOPY entrypoint.sh /entrypoint.sh\nCOPY scripts/ /opt/scripts/\n"
)


def audited(root: Path, readme: str) -> list[tuple[int, str]]:
    make_tree(
        root,
        {
            "README.md": readme,
            "Dockerfile": DOCKERFILE,
            "entrypoint.sh": '#!/bin/sh\nexec serve "$@"\n',
            "scripts/check.sh": "#!/bin/sh\n",
            "scripts/smoke.py": "print('ok')\n",
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [(d.line, d.message) for d in audit(readme, "README.md", [model], {}, root, root) if d.line > 2]


SERVING = """\
# serving-rocm

Thin layer on `vendor/serving-rocm:v0.24.0`; run `scripts/check.sh` then `scripts/smoke.py`.

## What This Replaces

| Old | serving-rocm |
|-----|--------------|
| Custom wheel (`serving-0.1.dev1+g1234.rocm724-cp312.whl`) | Official v0.24.0 |
| `run-legacy-server.sh` Triton workarounds | Not needed: `entrypoint.sh` sets the env |
"""


def test_the_old_column_of_a_replacement_table_is_not_read(tmp_path: Path) -> None:
    assert audited(tmp_path, SERVING) == []


def test_the_column_beside_it_is_still_read(tmp_path: Path) -> None:
    readme = SERVING.replace("`entrypoint.sh` sets the env", "`launch-server.sh` sets the env")
    found = audited(tmp_path, readme)
    assert [line for line, _ in found] == [10]
    assert "launch-server.sh" in found[0][1]


def test_without_the_header_the_same_rows_are_read(tmp_path: Path) -> None:
    readme = SERVING.replace("| Old | serving-rocm |", "| Component | serving-rocm |")
    assert 10 in {line for line, _ in audited(tmp_path, readme)}


BACKUP = """\
# nightly-backup

## Migration

Before / after of the job layout:

Before | After
--- | ---
`cron/backup-v1.sh` every night | `scripts/check.sh` then the job
"""


def test_a_table_without_outer_pipes_and_before_after_headers(tmp_path: Path) -> None:
    blanked = without_past_columns(BACKUP)
    assert blanked.splitlines()[8].startswith(" " * len("`cron/backup-v1.sh` every night") + " |")
    assert blanked.splitlines()[8].endswith("`scripts/check.sh` then the job")
    assert len(blanked) == len(BACKUP)


@pytest.mark.parametrize(
    ("header", "past"),
    [
        (["Old", "New"], [0]),
        (["**Before**", "After"], [0]),
        (["Setting", "Previous default", "Default now"], [1]),
        (["Legacy (v1)", "v2"], [0]),
        (["Removed", "Kept"], [0]),
        (["Was", "Now"], [0]),
        # what replaced it, a comparison, or no other column: none
        (["Old flag", "Replaced by"], [0]),
        (["Replaced by", "Reason"], []),
        (["Deprecated in favour of", "Since"], []),
        (["Older than", "Action"], []),
        (["Old", "Previous"], []),
        (["Name", "Oldest release"], []),
    ],
)
def test_past_headers(header: list[str], past: list[int]) -> None:
    assert past_columns(header) == past


def test_a_table_in_a_code_block_and_line_endings_are_kept() -> None:
    text = (
        "```\n| Old | New |\n|---|---|\n| a.sh | b.sh |\n```\r\n"
        "| Old | New |\r\n|---|---|\r\n| x.sh | y.sh |\r\n"
    )
    out = without_past_columns(text)
    assert "| a.sh | b.sh |" in out
    assert out.endswith("|      | y.sh |\r\n")
    assert without_past_columns("| Name | Value |\n|---|---|\n| a | b |\n") == (
        "| Name | Value |\n|---|---|\n| a | b |\n"
    )
