"""What docgen says about every Dockerfile of this repository, as one JSON snapshot, so a change meant
to keep behaviour (a module split, a copy made one) can be checked to say the same on every file.

For each Dockerfile under tests/ and docker/ (`**/*Dockerfile*`, `**/*.Dockerfile`): the output of
`docgen show --format json --verbose` (through `docgen.cli.main`) and every section rendered with
default options (`docgen.render.render_sections`). A file docgen refuses is recorded with its error
message and exit code, so a refusal that changes shows too.

    python benchmarks/same_output.py SNAPSHOT.json        # write a snapshot
    python benchmarks/same_output.py --compare A.json B.json

`--compare` names each file whose output differs, or is only in one snapshot; exits 1 if any does.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from docgen.cli import main
from docgen.errors import DocgenError
from docgen.pipeline import build_model
from docgen.render import RenderOptions, render_sections

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = ("**/*Dockerfile*", "**/*.Dockerfile")


def dockerfiles() -> list[Path]:
    """Every Dockerfile under tests/ and docker/, sorted, each once."""
    found: set[Path] = set()
    for folder in ("tests", "docker"):
        for pattern in PATTERNS:
            found.update(p for p in (ROOT / folder).glob(pattern) if p.is_file())
    return sorted(found)


def output_of(path: Path) -> dict[str, object]:
    """What `show --format json --verbose` prints for `path`, and its rendered sections."""
    shown = str(path.relative_to(ROOT))
    out, err = io.StringIO(), io.StringIO()
    code = main(["show", "--format", "json", "--verbose", shown], out, err)
    entry: dict[str, object] = {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}
    if code != 0:
        return entry
    try:
        entry["sections"] = render_sections(build_model(shown), RenderOptions())
    except DocgenError as exc:
        entry["render_error"] = str(exc)
    return entry


def snapshot(target: Path) -> int:
    """Write the snapshot of every Dockerfile to `target`."""
    import os

    os.chdir(ROOT)
    files = dockerfiles()
    data = {str(p.relative_to(ROOT)): output_of(p) for p in files}
    target.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    shown = sum(1 for entry in data.values() if entry["code"] == 0)
    print(f"{len(data)} Dockerfiles ({shown} shown, {len(data) - shown} refused) -> {target}")
    return 0


def compare(first: Path, second: Path) -> int:
    """Name each file whose output differs between two snapshots; 1 if any does."""
    a = json.loads(first.read_text(encoding="utf-8"))
    b = json.loads(second.read_text(encoding="utf-8"))
    differ = sorted(name for name in a.keys() & b.keys() if a[name] != b[name])
    only = sorted(a.keys() ^ b.keys())
    for name in differ:
        print(f"differs: {name}")
    for name in only:
        print(f"only in {first if name in a else second}: {name}")
    same = len(a.keys() & b.keys()) - len(differ)
    print(f"{same} identical, {len(differ)} differ, {len(only)} in one snapshot only")
    return 1 if differ or only else 0


def run() -> int:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshot", nargs="?", type=Path, help="write the snapshot to this file")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"), help="compare two snapshots")
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.snapshot is None:
        parser.error("give a SNAPSHOT file or --compare A B")
    return snapshot(args.snapshot)


if __name__ == "__main__":
    sys.exit(run())
