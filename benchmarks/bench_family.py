"""Families of images: the process pool, growth with the image count, and one stale image of many.

Four measurements in one run, each interleaved (every variant sees the same machine state), best of N
rounds, in-process unless said otherwise; the projects are copies of the bundled ROCm Dockerfile, each
with its README, as `bench_scale.py` makes them, synced first:

1. **Serial against the pool**: `docgen check --full` of 2, 4, 8, 16, 32 and 64 images with
   `DOCGEN_JOBS=1` (serial) and with one process per CPU (`DOCGEN_JOBS=<cpus>`, threshold bypassed),
   each in a new process timed after docgen is imported (as a `docgen` run: the reader's lazy imports
   not done, a small heap to fork): the speed-up at each count and the count from which it stays
   above 1, against `docgen.parallel.THRESHOLDS`.
2. **Start methods**: `parallel.read_images` of 16, 64 and 256 images in a new process each time (so a fork
   server or spawned workers pay their start-up, as a `docgen` run would), serially and with the pool
   started by `fork`, `forkserver` and `spawn`.
3. **1 → 10 → 100 → 1,000 images**: `docgen sync` (nothing left to write: every image read and
   rendered) and `docgen check --full`, the pool on as docgen chooses. Budget: linear (each 10× step
   at most 10×, with 10 % noise).
4. **1 stale image of 300**: `docgen check` with every image up to date (fingerprints compared,
   nothing modelled), with one image's Dockerfile changed, the same with `--full`, and the full check
   of a project of one image. Budget: 1 stale costs at most 3× all fresh + 2× one image's full check.

    python benchmarks/bench_family.py [--rounds N]

Prints the tables; exits 1 when a budget is missed. About 2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import best, in_folder, make_project  # noqa: E402

from docgen import parallel  # noqa: E402

POOL_COUNTS = [2, 4, 8, 16, 32, 64]
METHOD_COUNTS = [16, 64, 256]
METHODS = ["fork", "forkserver", "spawn"]
SCALE = [1, 10, 100, 1000]
IMAGES = 300
CPUS = parallel.cpus()


def main_bench() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    print(f"python {sys.version.split()[0]}, {CPUS} CPUs usable, best of {rounds} rounds\n")
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        pool_vs_serial(base, rounds)
        start_methods(base, 2)
        failures += growth(base, 2)
        failures += one_stale(base, rounds)
    if failures:
        print(f"\nover budget: {', '.join(failures)}")
        return 1
    print("\nall within budget")
    return 0


def project(base: Path, name: str, images: int) -> Path:
    folder = base / name
    make_project(folder, images)
    _run(folder, ["sync"], 0)
    return folder


_CHECK = """
import io, os, sys, time
from docgen.cli import main
os.chdir(sys.argv[1])
start = time.perf_counter()
code = main(sys.argv[2:], stdout=io.StringIO())
print(time.perf_counter() - start)
sys.exit(code)
"""


def after_import(folder: Path, argv: list[str], jobs: str) -> float:
    """Seconds of `docgen ARGV` in `folder`, run in a new process with DOCGEN_JOBS=`jobs` and timed
    after docgen is imported: a `docgen` run's conditions (the reader's lazy imports not done yet, a
    small heap to fork), without Python's start-up."""
    env = {**os.environ, parallel.JOBS_VARIABLE: jobs}
    done = subprocess.run([sys.executable, "-c", _CHECK, str(folder), *argv], capture_output=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"docgen {' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()}")
    return float(done.stdout)


def pool_vs_serial(base: Path, rounds: int) -> None:
    folders = {n: project(base, f"pool-{n}", n) for n in POOL_COUNTS}
    jobs = {"serial": "1", "pool": str(CPUS)}
    times: dict[tuple[int, str], list[float]] = {}
    for _ in range(rounds):
        for n, folder in folders.items():
            for mode, value in jobs.items():
                times.setdefault((n, mode), []).append(after_import(folder, ["check", "--full"], value))
    method = parallel.start_method()
    print(f"## `docgen check --full` in a new process, serial against a pool of {CPUS} ({method})\n")
    print("| Images | Serial | Pool | Speed-up |")
    print("|---|---|---|---|")
    speedups = {}
    for n in POOL_COUNTS:
        serial, pooled = min(times[n, "serial"]), min(times[n, "pool"])
        speedups[n] = serial / pooled
        print(f"| {n} | {serial * 1000:,.1f} ms | {pooled * 1000:,.1f} ms | {speedups[n]:.2f}× |")
    paying = [n for n in POOL_COUNTS if all(speedups[m] > 1 for m in POOL_COUNTS if m >= n)]
    crossing = f"from {paying[0]} images on" if paying else "at none of these counts"
    threshold = parallel.THRESHOLDS[method]
    print(f"\nThe pool pays {crossing}; docgen.parallel.THRESHOLDS[{method!r}] = {threshold}.\n")


_CHILD = """
import sys, time
from pathlib import Path
from docgen.parallel import read_images
jobs, method, folder, count = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
images = [(folder / f"img{i}/Dockerfile", f"img{i}/Dockerfile", {}) for i in range(count)]
start = time.perf_counter()
models = list(read_images(images, jobs=jobs, method=method))
print(time.perf_counter() - start)
"""


def start_methods(base: Path, rounds: int) -> None:
    folder = project(base, "methods", max(METHOD_COUNTS))
    variants = {"serial": (1, "fork"), **{method: (CPUS, method) for method in METHODS}}
    times: dict[tuple[int, str], list[float]] = {}
    for _ in range(rounds):
        for n in METHOD_COUNTS:
            for name, (jobs, method) in variants.items():
                argv = [sys.executable, "-c", _CHILD, str(jobs), method, str(folder), str(n)]
                done = subprocess.run(argv, capture_output=True, text=True, check=True)
                times.setdefault((n, name), []).append(float(done.stdout))
    print("## Start methods: `read_images` in a new process, after import\n")
    print("| Images | " + " | ".join(variants) + " |")
    print("|---|" + "---|" * len(variants))
    for n in METHOD_COUNTS:
        serial = min(times[n, "serial"])
        cells = [f"{min(times[n, v]) * 1000:,.1f} ms ({serial / min(times[n, v]):.2f}×)" for v in variants]
        print(f"| {n} | " + " | ".join(cells) + " |")
    print()


def growth(base: Path, rounds: int) -> list[str]:
    folders = {n: project(base, f"scale-{n}", n) for n in SCALE}
    commands = {"`docgen sync`": ["sync"], "`docgen check --full`": ["check", "--full"]}
    times: dict[tuple[int, str], list[float]] = {}
    for _ in range(rounds):
        for n, folder in folders.items():
            for name, argv in commands.items():
                seconds = best(lambda f=folder, a=argv: _run(f, a, 0), 1)
                times.setdefault((n, name), []).append(seconds)
    print("## 1 → 10 → 100 → 1,000 images (the pool as docgen chooses)\n")
    print("| Command | " + " | ".join(f"{n:,} images" for n in SCALE) + " | Per 10× | Budget |")
    print("|---|" + "---|" * (len(SCALE) + 2))
    failures = []
    for name in commands:
        best_times = [min(times[n, name]) for n in SCALE]
        ratios = [large / small for small, large in zip(best_times, best_times[1:], strict=False)]
        cells = [f"{t * 1000:,.1f} ms" for t in best_times]
        within = all(r <= 11 for r in ratios)
        steps = ", ".join(f"{r:.2f}×" for r in ratios)
        print(f"| {name} | " + " | ".join(cells) + f" | {steps} | ≤ 10× {'✓' if within else '✗'} |")
        if not within:
            failures.append(f"{name} growth")
    print()
    return failures


def one_stale(base: Path, rounds: int) -> list[str]:
    fresh, stale, single = project(base, "fresh", IMAGES), project(base, "stale", IMAGES), base / "scale-1"
    dockerfile = stale / "img7/Dockerfile"
    dockerfile.write_text(dockerfile.read_text() + "\nARG EXTRA_VERSION=1.0\n")
    runs = {
        f"`docgen check`, {IMAGES} images, all up to date": (fresh, ["check"], 0),
        f"`docgen check`, {IMAGES} images, 1 stale": (stale, ["check"], 1),
        f"`docgen check --full`, {IMAGES} images, 1 stale": (stale, ["check", "--full"], 1),
        "`docgen check --full`, 1 image": (single, ["check", "--full"], 0),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, (folder, argv, expect) in runs.items():
            times[name].append(best(lambda f=folder, a=argv, e=expect: _run(f, a, e), 1))
    result = {name: min(t) for name, t in times.items()}
    all_fresh, one, _, single_full = result.values()
    print(f"## 1 stale image of {IMAGES}\n")
    print("| Measurement | Best time | Ratio to all up to date |")
    print("|---|---|---|")
    for name, value in result.items():
        print(f"| {name} | {value * 1000:,.1f} ms | {value / all_fresh:.2f}× |")
    budget = 3 * all_fresh + 2 * single_full
    verdict = "✓" if one <= budget else "✗"
    print(
        f"\n1 stale of {IMAGES}: {one * 1000:,.1f} ms; budget 3× all fresh + 2× one image's full check = "
        f"{budget * 1000:,.1f} ms {verdict}"
    )
    return [] if one <= budget else ["1 stale image"]


def _run(folder: Path, argv: list[str], expect: int) -> None:
    code = in_folder(folder, argv)
    if code != expect:
        raise SystemExit(f"docgen {' '.join(argv)}: exit {code}, expected {expect}")


if __name__ == "__main__":
    sys.exit(main_bench())
