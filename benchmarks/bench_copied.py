"""How the cost of reading a COPY source grows with the build context: `docgen.copied.matched`, which
walks the context to match a glob as BuildKit does (Go's `filepath.Match` over each context path, a
folder that matches taken whole), over contexts of n and 4n files (default 20,000 and 80,000, in
folders of 100 two levels deep, plus a `.git` of as many objects as a checkout holds).

Each source pattern is timed at both sizes, best of several rounds, beside Python's `pathlib` glob of
the same pattern (what `matched` used before; it reads `**` as any depth, so it walks the whole tree for
`**/*.py`, and it is no reading of BuildKit's). Budget: 4× the files cost at most 5× (linear, with
room for noise); a pattern of wildcard-free folders first (`src/d1/*.py`) reads those folders alone,
whatever the context's size.

    python benchmarks/bench_copied.py [--rounds N] [--files N]

Prints a table of results; exits 1 when a budget is exceeded.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from docgen.copied import matched

PATTERNS = ("*.txt", "src/d1/*.py", "src/*/*.py", "**/*.py", "src/d[0-3]/f1?.py", "src/*")


def build(folder: Path, files: int) -> None:
    """A context of `files` files: `src/dK/fJ.py` in folders of 100, a few files at the top, and a
    `.git` of objects in 256 folders."""
    for k in range(files):
        path = folder / "src" / f"d{k // 100}" / f"f{k % 100}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    for name in ("README.md", "a.txt", "b.txt"):
        (folder / name).write_bytes(b"")
    for k in range(files // 4):
        path = folder / ".git" / "objects" / f"{k % 256:02x}" / f"{k:038x}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")


def best(run: object, rounds: int) -> float:
    """Best seconds of `run()` over `rounds` rounds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main_bench() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds per measurement (best is kept)")
    parser.add_argument("--files", type=int, default=20_000, help="files of the smaller context")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {args.rounds} rounds\n")
    print("| Pattern | matches | n | 4n | Ratio | pathlib n | pathlib 4n | Budget |")
    print("|---|---|---|---|---|---|---|---|")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp, "n"), Path(tmp, "4n")
        build(small, args.files)
        build(large, 4 * args.files)
        for pattern in PATTERNS:
            found = len(matched(small, pattern))
            ours = [best(lambda f=f, p=pattern: matched(f, p), args.rounds) for f in (small, large)]
            theirs = [best(lambda f=f, p=pattern: sorted(f.glob(p)), args.rounds) for f in (small, large)]
            ratio = ours[1] / max(ours[0], 1e-4)
            print(
                f"| `{pattern}` | {found} | {ours[0]:.4f} s | {ours[1]:.4f} s | {ratio:.1f}× "
                f"| {theirs[0]:.4f} s | {theirs[1]:.4f} s | ≤ 5× |",
                flush=True,
            )
            if ratio > 5 and ours[1] > 0.01:  # a few milliseconds are noise, not growth
                failures.append(pattern)
    print("\n" + (f"over budget: {', '.join(failures)}" if failures else "all within budget"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main_bench())
