"""`docgen check` of a family of images when one of them is stale.

300 images (copies of the bundled ROCm Dockerfile, each with its README, as `bench_scale.py` makes them)
are synced; then, in-process and on the full check (the console script's fast path answers only when
every image is up to date), interleaved, best of N rounds:

1. every image up to date: fingerprints compared, nothing modelled;
2. one image's Dockerfile changed: that image modelled and rendered, the 299 others compared;
3. the same with `--full`: all 300 modelled and rendered, as every `check` did before.

Budget: 1 stale image of 300 costs at most 5× what all fresh do (it used to cost what 300 stale do).

    python benchmarks/bench_family.py [--rounds N]

Exits 1 when the budget is missed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import best, in_folder, make_project  # noqa: E402

IMAGES = 300
BUDGET = 5.0


def main_bench() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        fresh, stale = Path(tmp, "fresh"), Path(tmp, "stale")
        for folder in (fresh, stale):
            make_project(folder, IMAGES)
            assert in_folder(folder, ["sync"]) == 0
        dockerfile = stale / "img7/Dockerfile"
        dockerfile.write_text(dockerfile.read_text() + "\nARG EXTRA_VERSION=1.0\n")
        runs = {
            f"`docgen check`, {IMAGES} images, all up to date": (fresh, ["check"], 0),
            f"`docgen check`, {IMAGES} images, 1 stale": (stale, ["check"], 1),
            f"`docgen check --full`, {IMAGES} images, 1 stale": (stale, ["check", "--full"], 1),
        }
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(rounds):  # interleaved: every run sees the same machine state
            for name, (folder, argv, expect) in runs.items():
                times[name].append(best(lambda f=folder, a=argv, e=expect: _run(f, a, e), 1))
    result = {name: min(t) for name, t in times.items()}
    floor = next(iter(result.values()))
    print("| Measurement | Best time | Ratio to all up to date |")
    print("|---|---|---|")
    for name, value in result.items():
        print(f"| {name} | {value * 1000:,.1f} ms | {value / floor:.2f}× |")
    one_stale = list(result.values())[1] / floor
    print(f"\n1 stale of {IMAGES}: {one_stale:.2f}× all fresh (budget ≤ {BUDGET}×)")
    return 0 if one_stale <= BUDGET else 1


def _run(folder: Path, argv: list[str], expect: int) -> None:
    code = in_folder(folder, argv)
    if code != expect:
        raise SystemExit(f"docgen {' '.join(argv)}: exit {code}, expected {expect}")


if __name__ == "__main__":
    sys.exit(main_bench())
