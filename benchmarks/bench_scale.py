"""How docgen's cost grows with its input: eleven measurements, side by side in one run.

1. **Model vs BuildKit's parser**: docgen's full model (read, evaluate, extract) of each Dockerfile
   under `tests/` and `docker/` (the ones docgen refuses, the test suite's error cases, are left out)
   against BuildKit's own parser (`dockerfile.parse_file`, the Go parser the tests use as an oracle)
   reading the same files. The two run interleaved, best of several rounds. Budget: at most 2×.
   Beside them, for information: docgen's read + evaluate alone.
2. **Images in one `docgen check`**: 1, 10, 100 and 1,000 images in one project, checked in-process
   with `--full` (every image rendered; without it, up-to-date images are only compared).
   Budget: time grows at most linearly (each 10× step costs at most 10×, with 10 % noise).
3. **Per-line cost**: the bundled Dockerfile repeated to 1×, 10× and 100× its size (stages renamed so
   it stays valid), modelled and rendered. Budget: the cost per line stays within 1.3× across sizes.
4. **Very long ARG values** cut with `#`, `##`, `%`, `%%`: 2,000 and 20,000 characters.
   Budget: linear (10× the length costs at most 10×, with 10 % noise).
5. **Many stages**: 1,000 and 10,000 named stages, each copying from the one before or picked by a
   platform arg (`FROM s-${TARGETARCH}`), modelled. Budget: linear.
6. **Peak memory** of `python -m docgen check` over 1,000 images (the child's maximum RSS).
7. **Many git clones**: 2,000 and 8,000 `RUN git clone … && cd … && git checkout … && pip install .`
   lines, modelled. Budget: linear (4× the clones cost at most 4.4×; they cost 8.4× when each clone
   scanned every earlier one).
8. **audit of a long README**: 1 MB and 4 MB of hand-written README prose and tables (the project's
   own READMEs without their markers, repeated). Budget: linear (at most 4.4× for 4× the text).
9. **Memory of one long line**: a `RUN echo` of 1 MiB and 4 MiB of two-letter words, modelled, peak
   traced by `tracemalloc` (budget: linear, at most 4.4×), and the peak RSS of
   `python -m docgen show` on a 10 MiB such line (report; it was 1.1 GB).
10. **A bake matrix**: one target block whose `matrix` makes 1,024 and 4,096 targets (two keys, an
   object value read by key, 20 build args each), read (JSON: no HCL reader to import) and every
   target resolved. Budget: linear (4× the targets cost at most 4.4×).
11. **audit of a README of many builds**: 62 and 250 sections of about 90 lines (up to 22,000
   lines), each building the image with its own `--build-arg` (so each is a part of the README audited
   on its own), running it, and with build-argument, environment and port tables; the image copies in
   start scripts and an nginx configuration. Budget: linear (at most 4.4× for 4× the sections): facts
   of the whole README read once per part made it grow faster.

`dockerfile` (BuildKit's parser) is a benchmark-only dependency (`pip install '.[bench]'`).

    python benchmarks/bench_scale.py [--rounds N] [--only-model]

Prints a table of results; exits 1 when a budget is exceeded.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import dockerfile

from docgen.cli import main
from docgen.dockerfile import parse_dockerfile, read_dockerfile
from docgen.errors import DocgenError
from docgen.evaluate import evaluate
from docgen.pipeline import build_model
from docgen.render import RenderOptions, render_sections

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "docker" / "rocm" / "Dockerfile.rocm"
README = """\
# Image {i}

<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->

<!-- BEGIN docgen:build-args -->
<!-- END docgen:build-args -->

<!-- BEGIN docgen:hardware -->
<!-- END docgen:hardware -->
"""


def best(fn: Callable[[], object], rounds: int) -> float:
    """The fastest of `rounds` runs of `fn`, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


# --------------------------------------------------------------------------------------------------
# the corpus


def corpus() -> tuple[list[Path], int]:
    """The Dockerfiles under tests/ and docker/ that docgen models, and how many it refuses."""
    found = sorted({*ROOT.glob("tests/**/*Dockerfile*"), *ROOT.glob("docker/**/*Dockerfile*")})
    usable = []
    refused = 0
    for path in found:
        if not path.is_file():
            continue
        try:
            build_model(path)
        except DocgenError:  # the test suite's error cases: nothing to compare
            refused += 1
            continue
        dockerfile.parse_file(str(path))  # BuildKit reads all that docgen reads
        usable.append(path)
    return usable, refused


def compare_with_buildkit(paths: list[Path], rounds: int) -> tuple[float, float, float]:
    """Best times of docgen's model, of its read + evaluate alone, and of BuildKit's parser."""

    def docgen_model() -> None:
        for path in paths:
            build_model(path)

    def docgen_read_evaluate() -> None:
        for path in paths:
            evaluate(read_dockerfile(path))

    names = [str(path) for path in paths]

    def buildkit() -> None:
        for name in names:
            dockerfile.parse_file(name)

    docgen_times, reader_times, buildkit_times = [], [], []
    for _ in range(rounds):  # interleaved, so all see the same machine state
        docgen_times.append(best(docgen_model, 1))
        reader_times.append(best(docgen_read_evaluate, 1))
        buildkit_times.append(best(buildkit, 1))
    return min(docgen_times), min(reader_times), min(buildkit_times)


# --------------------------------------------------------------------------------------------------
# many images


def make_project(folder: Path, images: int) -> None:
    text = BUNDLED.read_text()
    config = ['[tool.docgen]\narch-arg = "GPU_ARCH"\n']
    for i in range(images):
        image = folder / f"img{i}"
        image.mkdir(parents=True)
        (image / "Dockerfile").write_text(text.replace("7.0", f"7.{i % 10}"))
        (image / "README.md").write_text(README.format(i=i))
        config.append(
            f'[[tool.docgen.images]]\ndockerfile = "img{i}/Dockerfile"\noutputs = ["img{i}/README.md"]\n'
        )
    (folder / "pyproject.toml").write_text("\n".join(config))


def in_folder(folder: Path, argv: list[str]) -> int:
    old = os.getcwd()
    os.chdir(folder)
    try:
        return main(argv, stdout=io.StringIO(), stderr=io.StringIO())
    finally:
        os.chdir(old)


def check_many(base: Path, counts: list[int], rounds: int) -> dict[int, float]:
    folders = {}
    for n in counts:
        folders[n] = base / f"images-{n}"
        make_project(folders[n], n)
        assert in_folder(folders[n], ["sync"]) == 0
    times: dict[int, list[float]] = {n: [] for n in counts}
    for _ in range(rounds):
        for n in counts:
            times[n].append(best(lambda n=n: in_folder(folders[n], ["check", "--full"]), 1))
    return {n: min(t) for n, t in times.items()}


# VmHWM is the peak RSS of this process image only (ru_maxrss would include the forked parent's).
_CHILD = """
import sys
from docgen.cli import main
code = main(sys.argv[1:]) if sys.argv[1:] else 0
status = open("/proc/self/status").read()
print(status.split("VmHWM:")[1].split()[0], file=sys.stderr)
sys.exit(code)
"""


def peak_memory(folder: Path, argv: list[str]) -> tuple[int, float]:
    """Maximum RSS (KiB) and wall time of docgen ARGV run in a child process in `folder`."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *argv], cwd=folder, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return int(proc.stderr.split()[-1]), elapsed


# --------------------------------------------------------------------------------------------------
# per-line cost


def scaled(factor: int) -> str:
    """The bundled Dockerfile `factor` times over, each copy's stages renamed `name_k`."""
    text = BUNDLED.read_text()
    names = re.findall(r"^FROM\s+\S+\s+AS\s+(\S+)", text, re.MULTILINE | re.IGNORECASE)
    pattern = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, names)) + r")(?![\w.-])")
    head, sep, body = text.partition("\nFROM ")
    copies = [text]
    for k in range(1, factor):
        copies.append(pattern.sub(lambda m, k=k: f"{m.group(1)}_{k}", sep.lstrip("\n") + body))
    return "\n".join(copies)


def per_line(folder: Path, factors: list[int], rounds: int) -> dict[int, tuple[int, float]]:
    files = {}
    for factor in factors:
        path = folder / f"scaled-{factor}.Dockerfile"
        path.write_text(scaled(factor))
        files[factor] = path

    def model_and_render(path: Path) -> None:
        render_sections(build_model(path), RenderOptions())

    # the same work per sample at every size: the smaller inputs are run more times per round (a
    # single 8 ms run of the 1× file is at the mercy of the machine's noise)
    largest = max(factors)
    times: dict[int, list[float]] = {f: [] for f in factors}
    for _ in range(rounds):
        for factor in factors:
            times[factor].append(best(lambda p=files[factor]: model_and_render(p), max(1, largest // factor)))
    result = {}
    for factor in factors:
        lines = files[factor].read_text().count("\n")
        result[factor] = (lines, min(times[factor]) / lines)
    return result


# --------------------------------------------------------------------------------------------------
# very long ARG values


def long_value_file(length: int) -> str:
    """A Dockerfile whose ARG value is `length` characters, cut by `#`, `##`, `%` and `%%` patterns."""
    value = "x/" * (length // 2)
    return (
        f"ARG V={value}\n"
        "ARG A=${V##*/}\nARG B=${V#*x}\nARG C=${V%%/*}\nARG D=${V%x*}\nARG E=${V##*[!x/]}\n"
        "FROM scratch\n"
    )


def many_stages_file(count: int) -> str:
    """`count` named stages, each copying from the one before, every other one picked by platform."""
    lines = ["FROM ubuntu:22.04 AS s0-amd64"]
    for i in range(1, count):
        if i % 2:
            lines.append(f"FROM s{i - 1}-${{TARGETARCH}} AS s{i}-amd64")
        else:
            lines += [f"FROM ubuntu:22.04 AS s{i}-amd64", f"COPY --from=s{i - 1}-amd64 /a /b"]
    return "\n".join(lines) + "\n"


def many_stages(folder: Path, counts: list[int], rounds: int) -> tuple[dict[int, float], dict[int, float]]:
    """Best times of the model, and of the reader alone (one linear pass, the yardstick), per count."""
    files = {}
    for n in counts:
        files[n] = folder / f"stages-{n}.Dockerfile"
        files[n].write_text(many_stages_file(n))
    largest = max(counts)
    times: dict[int, list[float]] = {n: [] for n in counts}
    reads: dict[int, list[float]] = {n: [] for n in counts}
    for _ in range(rounds):
        for n in counts:  # the same work per sample at every size, as in `per_line`
            times[n].append(best(lambda p=files[n]: build_model(p), max(1, largest // n)))
            reads[n].append(best(lambda p=files[n]: read_dockerfile(p), max(1, largest // n)))
    return {n: min(t) for n, t in times.items()}, {n: min(t) for n, t in reads.items()}


def long_values(lengths: list[int], rounds: int) -> dict[int, float]:
    texts = {n: long_value_file(n) for n in lengths}
    times: dict[int, list[float]] = {n: [] for n in lengths}
    for _ in range(rounds):
        for n in lengths:
            times[n].append(best(lambda t=texts[n]: evaluate(parse_dockerfile(t)), 1))
    return {n: min(t) for n, t in times.items()}


def clones_file(count: int) -> str:
    return "FROM ubuntu:22.04\n" + "".join(
        f"RUN git clone https://github.com/o/r{i} /src/r{i} && cd /src/r{i} && git checkout v1 "
        "&& pip install .\n"
        for i in range(count)
    )


def many_clones(folder: Path, counts: list[int], rounds: int) -> dict[int, float]:
    files = {}
    for n in counts:
        files[n] = folder / f"clones-{n}.Dockerfile"
        files[n].write_text(clones_file(n))
    times: dict[int, list[float]] = {n: [] for n in counts}
    for _ in range(rounds):
        for n in counts:
            times[n].append(best(lambda p=files[n]: build_model(p), 1))
    return {n: min(t) for n, t in times.items()}


def matrix_file(count: int) -> bytes:
    """A bake file of one matrix target making `count` targets (`count` a multiple of 4)."""
    items = [{"sm": sm, "cuda": f"12.{sm}"} for sm in ("80", "86", "89", "90")]
    args = {f"A{i}": "${item.cuda}-${n}" for i in range(20)}
    target = {"name": "t-${n}-sm${item.sm}", "matrix": {"n": [str(i) for i in range(count // 4)]}}
    target["matrix"]["item"] = items
    return json.dumps({"target": {"t": {**target, "args": args, "tags": ["r/t:${n}"]}}}, indent=1).encode()


def bake_matrix(counts: list[int], rounds: int) -> dict[int, float]:
    from docgen import bake

    def read_all(data: bytes) -> int:
        found = bake.parse(data, "docker-bake.json")
        return len([found.target(name) for name in found.default()])

    files = {n: matrix_file(n) for n in counts}
    assert all(read_all(files[n]) == n for n in counts)
    return {n: best(lambda d=files[n]: read_all(d), rounds) for n in counts}


_MARKER_LINE = re.compile(r"(?m)^<!-- (BEGIN|END) docgen:.*$")


def audit_readme(size: int) -> str:
    """`size` characters of README text: the project's READMEs without their markers, repeated."""
    text = _MARKER_LINE.sub("", (ROOT / "README.md").read_text() + (BUNDLED.parent / "README.md").read_text())
    return (text * (size // len(text) + 1))[:size]


def audit_long(folder: Path, sizes: list[int], rounds: int) -> dict[int, float]:
    files = {}
    for n in sizes:
        files[n] = folder / f"audit-{n}.md"
        files[n].write_text(audit_readme(n))
    argv = ["audit", "--dockerfile", str(BUNDLED)]
    times: dict[int, list[float]] = {n: [] for n in sizes}
    for _ in range(rounds):
        for n in sizes:
            times[n].append(best(lambda p=files[n]: main([*argv, str(p)], stdout=io.StringIO()), 1))
    return {n: min(t) for n, t in times.items()}


SECTIONED_DOCKERFILE = """\
FROM ubuntu:22.04 AS base
ARG MAX_JOBS=4
ARG TORCH_VERSION=2.3.1
RUN apt-get update && apt-get install -y python3-pip nginx && rm -rf /var/lib/apt/lists/*
RUN MAX_JOBS=${MAX_JOBS} pip install torch==${TORCH_VERSION} vllm==0.5.1
COPY scripts/ /opt/scripts/
COPY start_api_server.sh start_web_ui.sh /opt/
COPY nginx.conf /etc/nginx/nginx.conf
EXPOSE 8000 7860
WORKDIR /workspace
ENTRYPOINT ["/opt/start_api_server.sh"]
"""
SECTION = """\
## Variant {i}

The variant {i} image is built with {i} parallel jobs. It ships PyTorch with ROCm 7.0.2 and Python 3.12,
and serves the model on port 8000 once it starts.

```bash
docker build --build-arg MAX_JOBS={i} -t acme/rocm-v{i}:latest .
docker run --rm -p 9{j:03d}:8000 -e MODEL_DIR=/models -e TORCH_FLAG=1 --user appuser acme/rocm-v{i}:latest
```

| Build argument | Default | Description |
|---|---|---|
| `PYTHON_VERSION` | `3.12` | the Python release |
| `MAX_JOBS` | `` | parallel compile jobs |

### Environment variables of variant {i}

| Variable | Description |
|---|---|
| `MODEL_DIR` | where the models are |

Set the `MODEL_REPO` environment variable before running. The entrypoint `/opt/start.sh` is executed
when the container starts.

Build every flavour of variant {i}:

```bash
git clone https://example.com/acme/variants.git && cd variants
docker build --build-arg MAX_JOBS={i} -t acme/rocm-v{i}:base -t acme/rocm-v{i}:dev .
docker build --build-arg MAX_JOBS={i} -t acme/rocm-v{i}:slim .
docker tag acme/rocm-v{i}:slim registry.example.com/acme/rocm-v{i}:slim
docker run --rm -v "$PWD:/app" acme/rocm-v{i}:dev python3 main.py
make build VARIANT={i}
```

| Connect Port | Internal Port | Description |
|---|---|---|
| 9{j:03d} | 8000 | API Server |

{prose}
"""
SECTION_PROSE = "\n".join(
    f"Line {k} of the notes: the image is built on Ubuntu 22.04 and installs flash-attention, vLLM and "
    "Triton; see the docs for more."
    for k in range(40)
)


def sectioned_project(folder: Path, sections: int) -> Path:
    """A project whose README has `sections` sections, each building the image with its own build arg
    (one part of the README each), and the Dockerfile and the files it copies in; the README's path."""
    folder.mkdir(parents=True)
    (folder / "Dockerfile").write_text(SECTIONED_DOCKERFILE)
    (folder / "scripts").mkdir()
    for k in range(1, 13):
        (folder / "scripts" / f"helper{k}.sh").write_text(
            f"#!/bin/sh\nexec python3 -m tool{k} --port 60{k:02d}\n"
        )
    (folder / "start_api_server.sh").write_text(
        "#!/bin/sh\nexec python3 -m vllm.entrypoints.api_server --port 8000\n"
    )
    (folder / "start_web_ui.sh").write_text("#!/bin/sh\nexec python3 -m webui --server_port 7860\n")
    (folder / "nginx.conf").write_text(
        "events {}\nhttp {\n  server {\n    listen 8080;\n"
        "    location / { proxy_pass http://localhost:8000; }\n  }\n}\n"
    )
    text = "# Many variants\n\n" + "\n".join(
        SECTION.format(i=i, j=i % 1000, prose=SECTION_PROSE) for i in range(1, sections + 1)
    )
    (folder / "README.md").write_text(text)
    return folder / "README.md"


def audit_sections(folder: Path, counts: list[int], rounds: int) -> dict[int, tuple[int, float]]:
    """(README lines, best seconds) of `docgen audit --confidence likely` of a README of each count of
    sections, in-process, run from the project's folder."""
    readmes = {n: sectioned_project(folder / f"sections-{n}", n) for n in counts}
    times: dict[int, list[float]] = {n: [] for n in counts}
    for _ in range(rounds):
        for n in counts:
            argv = ["audit", "README.md", "--confidence", "likely"]
            times[n].append(best(lambda r=readmes[n], a=argv: in_folder(r.parent, a), 1))
    return {n: (readmes[n].read_text().count("\n"), min(t)) for n, t in times.items()}


def long_line_file(size: int) -> str:
    return "FROM ubuntu:22.04\nRUN echo " + "ab " * ((size - 64) // 3) + "\n"  # under MAX_FILE_BYTES


def long_line_memory(folder: Path, sizes: list[int]) -> dict[int, int]:
    """Peak traced memory (bytes) of modelling a Dockerfile with one `size`-character line."""
    peaks = {}
    for n in sizes:
        path = folder / f"line-{n}.Dockerfile"
        path.write_text(long_line_file(n))
        tracemalloc.start()
        build_model(path)
        peaks[n] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peaks


# --------------------------------------------------------------------------------------------------


def main_bench() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds per measurement (best is kept)")
    parser.add_argument("--only-model", action="store_true", help="measure the model against BuildKit only")
    args = parser.parse_args()
    failures = []
    rows: list[tuple[str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)

        paths, refused = corpus()
        lines = sum(p.read_text().count("\n") for p in paths)
        docgen_s, reader_s, buildkit_s = compare_with_buildkit(paths, args.rounds)
        ratio = docgen_s / buildkit_s
        rows.append(
            (
                f"model of {len(paths)} Dockerfiles ({lines:,} lines; {refused} refused by docgen left out)",
                f"docgen {docgen_s * 1000:.1f} ms, BuildKit's parser {buildkit_s * 1000:.1f} ms",
                f"{ratio:.2f}×",
                "≤ 2×",
            )
        )
        if ratio > 2:
            failures.append("model vs BuildKit's parser")
        rows.append(
            (
                "  of which read + evaluate only (no extraction)",
                f"docgen {reader_s * 1000:.1f} ms, BuildKit's parser {buildkit_s * 1000:.1f} ms",
                f"{reader_s / buildkit_s:.2f}×",
                "(for information)",
            )
        )
        if args.only_model:
            return report(args.rounds, rows, failures)

        counts = [1, 10, 100, 1000]
        check = check_many(base, counts, max(2, args.rounds // 2))
        for small, large in zip(counts, counts[1:], strict=False):
            growth = check[large] / check[small]
            rows.append(
                (
                    f"`docgen check`, {small:,} → {large:,} images",
                    f"{check[small] * 1000:.1f} ms → {check[large] * 1000:.1f} ms",
                    f"{growth:.2f}× for 10× images",
                    "≤ 10× (linear)",
                )
            )
            if growth > 11:
                failures.append(f"check {small} → {large}")

        factors = [1, 10, 100]
        costs = per_line(base, factors, args.rounds)
        low = min(c for _, c in costs.values())
        for factor in factors:
            n, cost = costs[factor]
            rows.append(
                (
                    f"per line, {factor}× the bundled Dockerfile ({n:,} lines)",
                    f"{cost * 1e6:.2f} µs/line",
                    f"{cost / low:.2f}× the cheapest",
                    "≤ 1.3×",
                )
            )
        if max(c for _, c in costs.values()) / low > 1.3:
            failures.append("per-line cost")

        lengths = [2_000, 20_000]
        cut = long_values(lengths, args.rounds)
        growth = cut[lengths[1]] / cut[lengths[0]]
        rows.append(
            (
                f"`${{V##*/}}`, `${{V%x*}}` … on a {lengths[0]:,} → {lengths[1]:,} character ARG value",
                f"{cut[lengths[0]] * 1000:.1f} ms → {cut[lengths[1]] * 1000:.1f} ms",
                f"{growth:.2f}× for 10× the length",
                "≤ 10× (linear)",
            )
        )
        if growth > 11:
            failures.append("long values")

        stage_counts = [1_000, 10_000]
        staged, read_only = many_stages(base, stage_counts, args.rounds)
        growth = staged[stage_counts[1]] / staged[stage_counts[0]]
        yardstick = read_only[stage_counts[1]] / read_only[stage_counts[0]]
        rows.append(
            (
                f"{stage_counts[0]:,} → {stage_counts[1]:,} named stages "
                "(`COPY --from`, `FROM s-${TARGETARCH}`)",
                f"{staged[stage_counts[0]] * 1000:.1f} ms → {staged[stage_counts[1]] * 1000:.1f} ms "
                f"(the reader alone, one linear pass: {yardstick:.2f}×)",
                f"{growth:.2f}× for 10× the stages",
                "≤ 10× (linear), or ≤ 1.1× the reader's own growth",
            )
        )
        if growth > max(11, 1.1 * yardstick):
            failures.append("many stages")

        clone_counts = [2_000, 8_000]
        cloned = many_clones(base, clone_counts, max(1, args.rounds // 2))
        growth = cloned[clone_counts[1]] / cloned[clone_counts[0]]
        rows.append(
            (
                f"{clone_counts[0]:,} → {clone_counts[1]:,} `git clone` lines",
                f"{cloned[clone_counts[0]] * 1000:.0f} ms → {cloned[clone_counts[1]] * 1000:.0f} ms",
                f"{growth:.2f}× for 4× the clones",
                "≤ 4.4× (linear)",
            )
        )
        if growth > 4.4:
            failures.append("many clones")

        sizes = [1_000_000, 4_000_000]
        audited = audit_long(base, sizes, max(1, args.rounds // 2))
        growth = audited[sizes[1]] / audited[sizes[0]]
        rows.append(
            (
                "`docgen audit` of a 1 MB → 4 MB README",
                f"{audited[sizes[0]]:.2f} s → {audited[sizes[1]]:.2f} s",
                f"{growth:.2f}× for 4× the text",
                "≤ 4.4× (linear)",
            )
        )
        if growth > 4.4:
            failures.append("audit of a long README")

        section_counts = [62, 250]
        sectioned = audit_sections(base, section_counts, max(1, args.rounds // 2))
        (lines_small, small_s), (lines_large, large_s) = (sectioned[n] for n in section_counts)
        growth = large_s / small_s
        rows.append(
            (
                f"`docgen audit` of a README of {section_counts[0]} → {section_counts[1]} sections, "
                f"each its own build ({lines_small:,} → {lines_large:,} lines)",
                f"{small_s:.2f} s → {large_s:.2f} s",
                f"{growth:.2f}× for 4× the sections",
                "≤ 4.4× (linear)",
            )
        )
        if growth > 4.4:
            failures.append("audit of a README of many builds")

        matrix_counts = [1_024, 4_096]
        baked = bake_matrix(matrix_counts, args.rounds)
        growth = baked[matrix_counts[1]] / baked[matrix_counts[0]]
        rows.append(
            (
                f"a bake matrix of {matrix_counts[0]:,} → {matrix_counts[1]:,} targets, each resolved",
                f"{baked[matrix_counts[0]] * 1000:.0f} ms → {baked[matrix_counts[1]] * 1000:.0f} ms",
                f"{growth:.2f}× for 4× the targets",
                "≤ 4.4× (linear)",
            )
        )
        if growth > 4.4:
            failures.append("bake matrix")

        line_sizes = [1 << 20, 4 << 20]
        peaks = long_line_memory(base, line_sizes)
        growth = peaks[line_sizes[1]] / peaks[line_sizes[0]]
        long_line = base / "long-line"
        long_line.mkdir()
        (long_line / "Dockerfile").write_text(long_line_file(10 << 20))
        line_rss, line_elapsed = peak_memory(long_line, ["show", "Dockerfile"])
        rows.append(
            (
                "memory of one 1 MiB → 4 MiB line of short words (traced peak)",
                f"{peaks[line_sizes[0]] >> 20} MiB → {peaks[line_sizes[1]] >> 20} MiB "
                f"({peaks[line_sizes[1]] / line_sizes[1]:.0f} bytes per input byte); a 10 MiB line, "
                f"`docgen show`: {line_rss / 1024:.0f} MiB max RSS, {line_elapsed:.1f} s",
                f"{growth:.2f}× for 4× the line",
                "≤ 4.4× (linear)",
            )
        )
        if growth > 4.4:
            failures.append("memory of a long line")

        baseline, _ = peak_memory(base, [])
        rss, elapsed = peak_memory(base / "images-1000", ["check"])
        rows.append(
            (
                "peak memory, `python -m docgen check`, 1,000 images",
                f"{rss / 1024:.1f} MiB max RSS ({elapsed:.2f} s); "
                f"importing docgen alone: {baseline / 1024:.1f} MiB",
                f"{(rss - baseline) / 1024 / 1000 * 1024:.1f} KiB per image over the import",
                "report",
            )
        )
        shutil.rmtree(base, ignore_errors=True)

    return report(args.rounds, rows, failures)


def report(rounds: int, rows: list[tuple[str, str, str, str]], failures: list[str]) -> int:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, best of {rounds} rounds\n")
    print("| Measurement | Result | Ratio | Budget |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if failures:
        print(f"\nover budget: {', '.join(failures)}")
        return 1
    print("\nall within budget")
    return 0


if __name__ == "__main__":
    sys.exit(main_bench())
