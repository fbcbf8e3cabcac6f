"""How fast an up-to-date `docgen check` answers, side by side in one run.

A copy of this repository's image (docker/ and pyproject.toml) is synced into a temporary folder, so
every block carries fresh fingerprints. Then, interleaved, best of N rounds, each a new process:

1. `python -c pass`: the floor any Python command pays (interpreter and site start-up);
2. `docgen check`: the console script, which takes the fast path (fingerprints match, the settings
   read from the cache `.docgen_cache/`, nothing parsed);
3. the same in a copy whose pyproject.toml is a real-world one (tests/data/config/real-world.toml:
   arrays of arrays of inline tables over several lines, dotted keys, multi-line strings, a date);
4. `cog --check` of the same README, written the cog way: each table is a `[[[cog` block of Python
   that reads the Dockerfile with regular expressions and prints the table (what projects do by hand);
5. for information: the same check without the console script pip writes (older pips' script imports
   `re` and compiles a pattern before docgen starts), a cold `docgen check` (the cache deleted before
   each run: the full check, which parses pyproject.toml with tomllib and writes the cache), and the
   full check (`docgen check --full`, which skips the fast path and renders every block).

Budgets: `docgen check` within 2× of `python -c pass` on both projects, and faster than `cog --check`.

    pip install '.[bench]'          # cogapp, a benchmark-only dependency
    python benchmarks/bench_check.py [--rounds N]

Exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

COG_TABLES = """\
<!-- [[[cog
import re
text = open("docker/rocm/Dockerfile.rocm").read().replace("\\\\\\n", " ")
args = re.findall(r"^ARG ([A-Z_][A-Z0-9_]*)(?:=(\\S*))?", text, re.M)
cog.outl("| Build arg | Default |")
cog.outl("|---|---|")
seen = set()
for name, default in args:
    if name not in seen:
        seen.add(name)
        cog.outl(f"| `{name}` | `{default.strip(chr(34))}` |")
]]] -->
<!-- [[[end]]] -->

<!-- [[[cog
import re
text = open("docker/rocm/Dockerfile.rocm").read()
cog.outl("| Component | Version |")
cog.outl("|---|---|")
for name, version in re.findall(r"/([a-z_]+)-(\\d[\\w.]*?)(?:%2B|\\+)", text):
    cog.outl(f"| {name} | {version} |")
for name, version in re.findall(r"\\b([A-Za-z][\\w.-]*)==([\\w.]+)", text):
    cog.outl(f"| {name} | {version} |")
for name, version in re.findall(r"^ARG ([A-Z]+)_(?:TAG|VERSION)=(\\S+)", text, re.M):
    cog.outl(f"| {name.title()} | {version} |")
]]] -->
<!-- [[[end]]] -->

<!-- [[[cog
import re
text = open("docker/rocm/Dockerfile.rocm").read()
arch = re.search(r'^ARG GPU_ARCH="?([^"\\n]*)"?', text, re.M).group(1)
cog.outl("| GPU target |")
cog.outl("|---|")
for target in arch.split(";"):
    cog.outl(f"| `{target}` |")
]]] -->
<!-- [[[end]]] -->
"""

_BLOCK = re.compile(r"<!-- BEGIN docgen:[^>]*-->.*?<!-- END docgen:[a-z-]+ -->\n", re.S)


def project(folder: Path, pyproject: Path = ROOT / "pyproject.toml") -> None:
    """This repository's image under `pyproject`, synced, plus README.cog.md: the same README with cog
    blocks."""
    shutil.copytree(ROOT / "docker", folder / "docker")
    shutil.copy(pyproject, folder / "pyproject.toml")
    docgen = BIN / "docgen"
    subprocess.run([docgen, "sync"], cwd=folder, check=True, capture_output=True)
    readme = (folder / "docker/rocm/README.md").read_text()
    first = _BLOCK.search(readme)
    assert first, "the README has no docgen block"
    cog_readme = readme[: first.start()] + COG_TABLES + _BLOCK.sub("", readme[first.start() :])
    (folder / "README.cog.md").write_text(cog_readme)
    subprocess.run([BIN / "cog", "-r", "README.cog.md"], cwd=folder, check=True, capture_output=True)


def timed(argv: list[str | Path], cwd: Path, expect: int) -> float:
    if cwd.name == "cold":
        shutil.rmtree(cwd / ".docgen_cache", ignore_errors=True)
    start = time.perf_counter()
    result = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode != expect:
        raise SystemExit(f"{argv}: exit {result.returncode}, expected {expect}: {result.stderr.decode()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        folder, real_world, cold = Path(tmp, "this"), Path(tmp, "real-world"), Path(tmp, "cold")
        project(folder)
        project(real_world, ROOT / "tests/data/config/real-world.toml")
        project(cold)
        folders = {"docgen check, real-world pyproject.toml": real_world, "docgen check, cold": cold}
        commands: dict[str, tuple[list[str | Path], int]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], 0),
            "docgen check": ([BIN / "docgen", "check"], 0),
            "docgen check, real-world pyproject.toml": ([BIN / "docgen", "check"], 0),
            "docgen check, without the installer's wrapper script": (
                [
                    sys.executable,
                    "-c",
                    "import sys; sys.argv[1:] = ['check']; from docgen.__main__ import main; main()",
                ],
                0,
            ),
            "cog --check README.cog.md": ([BIN / "cog", "--check", "README.cog.md"], 0),
            "docgen check, cold": ([BIN / "docgen", "check"], 0),
            "docgen check, full (no fast path)": ([BIN / "docgen", "check", "--full"], 0),
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):  # interleaved: every command sees the same machine state
            for name, (argv, expect) in commands.items():
                times[name].append(timed(argv, folders.get(name, folder), expect))
    best = {name: min(t) for name, t in times.items()}
    floor, fast, cog = best["python -c pass"], best["docgen check"], best["cog --check README.cog.md"]
    real = best["docgen check, real-world pyproject.toml"]
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {rounds} rounds, new process each\n"
    )
    print("| Command | Best time | Ratio to `python -c pass` |")
    print("|---|---|---|")
    for name, value in best.items():
        print(f"| `{name}` | {value * 1000:.1f} ms | {value / floor:.2f}× |")
    ok_floor, ok_real, ok_cog = fast / floor <= 2.0, real / floor <= 2.0, fast < cog
    print(
        f"\nup-to-date `docgen check`: {fast / floor:.2f}× `python -c pass` (budget ≤ 2×) "
        f"{'✓' if ok_floor else '✗'}; with the real-world pyproject.toml {real / floor:.2f}× "
        f"{'✓' if ok_real else '✗'}; {fast / cog:.2f}× `cog --check` (budget < 1×) {'✓' if ok_cog else '✗'}"
    )
    return 0 if ok_floor and ok_real and ok_cog else 1


if __name__ == "__main__":
    sys.exit(main())
