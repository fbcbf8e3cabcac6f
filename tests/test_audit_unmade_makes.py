"""`references.makes_nothing`: a plain `make …` run where no makefile is (the project's Makefile is in a
subfolder) makes no file, so the scripts the README runs after it are still read: one that lives only in
a subfolder, or nowhere, is a finding; with a makefile where `make` runs, any file may be there."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit

README = """\
# Qwen serving

## Usage

```bash
{make}
make ps            # status
make down          # stop all
```

## Test scripts

```bash
python probe_vl.py sample.jpg
python probe_chat.py "hello" --stream
```
"""


def found(root: Path, files: dict[str, str], make: str = "make up") -> list[str]:
    make_tree(root, {"README.md": README.format(make=make), **files})
    text = (root / "README.md").read_text(encoding="utf-8")
    # (the make with no makefile is a finding of its own: entered_compose.placed_makes)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [], {}, root, root)
        if "probe" in d.message
    ]


SUBFOLDERS = {
    "docker/Makefile": "up:\n\tdocker compose up -d\nps:\n\tdocker compose ps\n",
    "docker/docker-compose.yml": "services:\n  vl:\n    image: vllm/vllm-openai:v0.9.0\n",
    "tests/probe_vl.py": "print(1)\n",
    "tests/probe_chat.py": "print(2)\n",
}


def test_scripts_only_in_a_subfolder_after_a_make_with_no_makefile(tmp_path: Path) -> None:
    assert found(tmp_path, SUBFOLDERS) == [
        "14: README runs probe_vl.py from the README's folder, which has no such file (did you mean "
        "tests/probe_vl.py?) (certain)",
        "15: README runs probe_chat.py from the README's folder, which has no such file (did you mean "
        "tests/probe_chat.py?) (certain)",
    ]


def test_scripts_nowhere_after_a_make_with_no_makefile(tmp_path: Path) -> None:
    files = {k: v for k, v in SUBFOLDERS.items() if not k.startswith("tests/")}
    assert [f.split(",")[0] for f in found(tmp_path, files)] == [
        "14: README runs probe_vl.py",
        "15: README runs probe_chat.py",
    ]


@pytest.mark.parametrize(
    ("files", "make"),
    [
        # a makefile where `make` runs: its recipes may make any file
        ({**SUBFOLDERS, "Makefile": "up:\n\tcp tests/*.py .\n"}, "make up"),
        # `make -C docker`: the makefile is found
        (SUBFOLDERS, "make -C docker up"),
    ],
)
def test_a_make_that_runs_a_makefile_stops_the_reading(
    tmp_path: Path, files: dict[str, str], make: str
) -> None:
    assert [f for f in found(tmp_path, files, make) if "probe_" in f] == []
