"""Many images read in a process pool (`docgen.parallel`): the same bytes, the same messages and the
same first error as the serial reading; `DOCGEN_JOBS`; no pool for a check of one stale image. End to
end through `docgen.cli.main` on a family of generated CUDA and ROCm images in a temporary project."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree, run

from docgen import parallel
from docgen.pipeline import read_image

CUDA = """\
ARG CUDA_VERSION={cuda}
ARG PYTHON_VERSION={python}
FROM nvidia/cuda:${{CUDA_VERSION}}-devel-ubuntu22.04 AS base
ARG CUDA_VERSION
ARG PYTHON_VERSION
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update -y \\
    && apt-get install -y --no-install-recommends git curl python${{PYTHON_VERSION}}-dev \\
    && rm -rf /var/lib/apt/lists/*
# CUDA architectures the kernels are built for.
ARG TORCH_CUDA_ARCH_LIST="{arch}"
ENV TORCH_CUDA_ARCH_LIST=${{TORCH_CUDA_ARCH_LIST}}
# The FlashInfer release to build.
ARG FLASHINFER_GIT_REF="v{flashinfer}"
RUN pip install torch=={torch} --index-url https://download.pytorch.org/whl/cu{cu}

FROM base AS build
ARG FLASHINFER_GIT_REF
RUN git clone https://github.com/flashinfer-ai/flashinfer.git /src/flashinfer \\
    && cd /src/flashinfer && git checkout ${{FLASHINFER_GIT_REF}} \\
    && pip install --no-build-isolation .

FROM base AS final
COPY --from=build /usr/local/lib/python3/dist-packages /usr/local/lib/python3/dist-packages
RUN pip install vllm=={vllm} "xformers>=0.0.30"
"""

ROCM = """\
ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:{rocm}-complete
FROM ${{BASE_IMAGE}} AS base
# AMD GPU targets.
ARG PYTORCH_ROCM_ARCH="{arch}"
ENV PYTORCH_ROCM_ARCH=${{PYTORCH_ROCM_ARCH}}
ARG TRITON_BRANCH="{triton}"
RUN git clone https://github.com/ROCm/triton.git /src/triton \\
    && cd /src/triton && git checkout ${{TRITON_BRANCH}} && pip install python/
RUN pip install torch=={torch} --index-url https://download.pytorch.org/whl/rocm{rocm_short}
# renovate: datasource=pypi depName=amdsmi
ARG AMDSMI_VERSION={amdsmi}
RUN pip install amdsmi==${{AMDSMI_VERSION}}
"""

README = """\
# {name}

Text outside the blocks.

<!-- BEGIN docgen:versions -->
<!-- END docgen:versions -->

<!-- BEGIN docgen:build-args -->
<!-- END docgen:build-args -->

<!-- BEGIN docgen:hardware -->
<!-- END docgen:hardware -->

<!-- BEGIN docgen:contents -->
<!-- END docgen:contents -->
"""

CUDA_IMAGES = [  # (CUDA, Python, arch list, FlashInfer, torch, vLLM)
    ("12.1.1", "3.10", "8.0 8.6", "0.2.5", "2.5.1", "0.6.6"),
    ("12.4.1", "3.11", "8.0 8.9 9.0", "0.2.8", "2.6.0", "0.8.5"),
    ("12.6.3", "3.12", "8.0 9.0", "0.2.11", "2.7.0", "0.9.2"),
    ("12.8.1", "3.12", "8.0 9.0 10.0 12.0", "0.2.14", "2.7.1", "0.10.1"),
    ("12.9.1", "3.12", "9.0 10.0+PTX", "0.3.1", "2.8.0", "0.11.0"),
    ("13.0.1", "3.13", "10.0 12.0", "0.4.0", "2.9.0", "0.12.0"),
]
ROCM_IMAGES = [  # (ROCm, arch list, Triton branch, torch, amdsmi)
    ("6.1.2", "gfx90a;gfx942", "release/3.0", "2.4.1", "6.1.2"),
    ("6.2.4", "gfx90a;gfx942", "release/3.1", "2.5.1", "6.2.4"),
    ("6.3.1", "gfx908;gfx90a;gfx942", "release/3.2", "2.6.0", "6.3.1"),
    ("6.4.1", "gfx942;gfx950", "release/3.3", "2.7.1", "6.4.1"),
]

CUDA_ARCH = 'arch-arg = "TORCH_CUDA_ARCH_LIST"\n'
ROCM_ARCH = 'arch-arg = "PYTORCH_ROCM_ARCH"\n'


def family_files() -> dict[str, str]:
    """14 images: 6 CUDA and 4 ROCm Dockerfiles, and 2 of each built again with other args."""
    files: dict[str, str] = {}
    entries = []
    for cuda, python, arch, flashinfer, torch, vllm in CUDA_IMAGES:
        name = "cu" + cuda.replace(".", "")[:3]
        values = dict(cuda=cuda, python=python, arch=arch, flashinfer=flashinfer, torch=torch, vllm=vllm)
        files[f"cuda/{name}/Dockerfile"] = CUDA.format(**values, cu=name[2:])
        entries.append((f"cuda/{name}/Dockerfile", name, CUDA_ARCH))
    for rocm, arch, triton, torch, amdsmi in ROCM_IMAGES:
        name = "rocm" + rocm.replace(".", "")[:2]
        values = dict(rocm=rocm, arch=arch, triton=triton, torch=torch, amdsmi=amdsmi)
        files[f"rocm/Dockerfile.{name}"] = ROCM.format(**values, rocm_short=rocm[:3])
        entries.append((f"rocm/Dockerfile.{name}", name, ROCM_ARCH))
    entries.append(
        (
            "cuda/cu129/Dockerfile",
            "cu129-py313",
            CUDA_ARCH + 'args = { PYTHON_VERSION = "3.13", CUDA_VERSION = "12.9.0" }\n',
        )
    )
    entries.append(
        (
            "cuda/cu130/Dockerfile",
            "cu130-sm120",
            CUDA_ARCH + 'args = { TORCH_CUDA_ARCH_LIST = "12.0" }\n',
        )
    )
    entries.append(
        (
            "rocm/Dockerfile.rocm64",
            "rocm64-mi350",
            ROCM_ARCH + 'args = { PYTORCH_ROCM_ARCH = "gfx950" }\n',
        )
    )
    entries.append(
        (
            "rocm/Dockerfile.rocm63",
            "rocm63-base",
            'args = { BASE_IMAGE = "rocm/dev-ubuntu-24.04:6.3.4-complete", AMDSMI_VERSION = "6.3.4" }\n',
        )
    )
    config = ["[tool.docgen]\n"]
    for dockerfile, name, extra in entries:
        files[f"docs/{name}.md"] = README.format(name=name)
        config.append(
            f'[[tool.docgen.images]]\ndockerfile = "{dockerfile}"\nname = "{name}"\n'
            f'outputs = ["docs/{name}.md"]\n{extra}'
        )
    files["pyproject.toml"] = "\n".join(config)
    return files


IMAGES = 14


@pytest.fixture
def family(chdir_tmp: Path) -> Path:
    make_tree(chdir_tmp, family_files())
    return chdir_tmp


def outputs(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / "docs").glob("*.md"))}


def run_with(monkeypatch: pytest.MonkeyPatch, jobs: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setenv("DOCGEN_JOBS", jobs)
    result = run(*argv)
    return result.code, result.out, result.err


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of images each process pool started meanwhile was given."""
    started: list[int] = []
    real = parallel.pooled

    def counting(requests: list[parallel.Request], workers: int, method: str) -> Iterator[parallel.Read]:
        started.append(len(requests))
        return real(requests, workers, method)

    monkeypatch.setattr(parallel, "pooled", counting)
    return started


def test_the_family_is_realistic(family: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated images give the tables their versions and args (the comparisons below compare
    full tables, not empty ones)."""
    code, out, err = run_with(monkeypatch, "1", "sync")
    assert (code, err) == (0, "")
    assert out.count(": updated") == IMAGES
    cu121 = (family / "docs/cu121.md").read_text()
    assert "| CUDA | `12.1.1`" in cu121 and "| vLLM | `0.6.6`" in cu121 and "FlashInfer" in cu121
    assert "A100" in cu121  # Supported hardware from the arch list
    assert "| ROCm | `6.3.4`" in (family / "docs/rocm63-base.md").read_text()
    assert "MI350" in (family / "docs/rocm64-mi350.md").read_text()


@pytest.mark.parametrize(
    "argv",
    [["sync"], ["check", "--full"], ["check", "--full", "--format", "json"], ["check", "--strict"]],
)
def test_the_pool_gives_the_serial_runs_bytes(
    family: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int], argv: list[str]
) -> None:
    serial = family / "serial"
    shutil.copytree(family, serial, ignore=shutil.ignore_patterns("serial"))
    pooled = family / "pooled"
    shutil.copytree(serial, pooled)
    if argv != ["sync"]:  # check a synced project, one of whose images is stale
        for project in (serial, pooled):
            monkeypatch.chdir(project)
            assert run_with(monkeypatch, "1", "sync")[0] == 0
            dockerfile = project / "rocm/Dockerfile.rocm62"
            dockerfile.write_text(dockerfile.read_text().replace("2.5.1", "2.5.2"))
    monkeypatch.chdir(serial)
    expected = run_with(monkeypatch, "1", *argv)
    assert pools == []
    monkeypatch.chdir(pooled)
    got = run_with(monkeypatch, "3", *argv)
    assert pools == [IMAGES]
    assert got == expected
    assert expected[0] == (0 if argv == ["sync"] else 1)
    assert outputs(pooled) == outputs(serial)


def test_the_automatic_choice_pools_a_family_and_not_one_stale_image(
    family: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    monkeypatch.delenv("DOCGEN_JOBS", raising=False)
    monkeypatch.setattr(parallel, "start_method", lambda: "fork")
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.setitem(parallel.THRESHOLDS, "fork", IMAGES)  # the family is just large enough
    assert run("sync").code == 0
    assert pools == [IMAGES]
    dockerfile = family / "cuda/cu124/Dockerfile"
    dockerfile.write_text(dockerfile.read_text().replace("0.8.5", "0.8.6"))
    result = run("check")
    assert result.code == 1 and "docs/cu124.md is out of date" in result.out
    assert pools == [IMAGES]  # the one stale image was read here, with no pool started
    assert run("check", "--full").code == 1
    assert pools == [IMAGES, IMAGES]


def broken_family(family: Path) -> None:
    """Image 5 (cu130) with a README whose block is not closed, images 8 and 12 (rocm63, and
    rocm64-mi350) with Dockerfiles docgen cannot read."""
    readme = family / "docs/cu130.md"
    readme.write_text(readme.read_text().replace("<!-- END docgen:hardware -->\n", ""))
    for name in ("rocm/Dockerfile.rocm63", "rocm/Dockerfile.rocm64"):
        dockerfile = family / name
        dockerfile.write_text(dockerfile.read_text() + "RUN <<EOF\necho never closed\n")


@pytest.mark.parametrize("argv", [["sync"], ["check", "--full"]])
def test_the_first_error_in_config_order_is_raised_as_serially(
    family: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int], argv: list[str]
) -> None:
    assert run_with(monkeypatch, "1", "sync")[0] == 0
    broken_family(family)
    for fixed, first in (
        (None, "docs/cu130.md:"),  # a README's error (in rendering) comes before the Dockerfiles'
        ("docs/cu130.md", "rocm/Dockerfile.rocm63:"),  # the first of the two Dockerfile errors
    ):
        if fixed:
            (family / fixed).write_text(README.format(name="cu130"))
        expected = run_with(monkeypatch, "1", *argv)
        got = run_with(monkeypatch, "2", *argv)
        assert got == expected
        code, out, err = got
        assert code == 2 and err.startswith(first) and err.count("\n") == 1, err
        assert "Traceback" not in err
    assert err == "rocm/Dockerfile.rocm63:13: heredoc EOF is never closed\n"
    assert len(pools) == 2


def test_an_error_of_a_worker_keeps_its_type_path_and_line(tmp_path: Path) -> None:
    make_tree(tmp_path, {f"{i}/Dockerfile": "FROM scratch\n" for i in range(3)})
    (tmp_path / "1/Dockerfile").write_text("FROM scratch\nRUN <<EOF\n")
    images = [(tmp_path / f"{i}/Dockerfile", f"{i}/Dockerfile", {}, None, None) for i in range(3)]
    with pytest.raises(Exception) as serial:
        list(parallel.read_images(images, jobs=1))
    with pytest.raises(Exception) as pooled:
        list(parallel.read_images(images, jobs=2))
    assert type(pooled.value) is type(serial.value)
    assert str(pooled.value) == str(serial.value) and str(serial.value).startswith("1/Dockerfile:2: ")


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5"])
def test_a_bad_docgen_jobs_is_a_usage_error(
    family: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    code, out, err = run_with(monkeypatch, value, "sync")
    assert code == 2
    assert err == (
        f"docgen: error: DOCGEN_JOBS={value!r}: expected a number of processes (1 or more) or 'auto'\n"
    )
    assert out == ""


@pytest.mark.parametrize(
    ("value", "count", "workers"),
    [("", 3, 1), ("auto", 3, 1), ("", 4, 2), ("auto", 64, 2), ("1", 64, 1), ("3", 2, 2), ("8", 64, 8)],
)
def test_docgen_jobs_and_the_threshold_choose_the_workers(
    monkeypatch: pytest.MonkeyPatch, value: str, count: int, workers: int
) -> None:
    monkeypatch.setenv("DOCGEN_JOBS", value)
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    assert parallel._workers(count, None, 4) == workers


PARENT = os.getpid()


def _dies_in_a_worker(path: Path, display: str, **kwargs: Any) -> parallel.Read:
    if os.getpid() != PARENT:
        os._exit(1)  # as the kernel's out-of-memory killer would end it
    return read_image(path, display, **kwargs)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_killed_worker_leaves_the_rest_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path, {f"{i}/Dockerfile": f"FROM ubuntu:22.{i:02d}\n" for i in range(6)})
    images = [(tmp_path / f"{i}/Dockerfile", f"{i}/Dockerfile", {}, None, None) for i in range(6)]
    expected = [model for _, model, _ in parallel.read_images(images, jobs=1)]
    monkeypatch.setattr(parallel, "read_image", _dies_in_a_worker)  # inherited by forked workers
    got = [model for _, model, _ in parallel.read_images(images, jobs=2, method="fork")]
    assert got == expected


def test_without_a_pool_the_images_are_read_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no process pool can start (a sandbox without /dev/shm for its semaphores), the images are
    read serially, not lost to an `OSError`."""
    import concurrent.futures

    def no_pool(*args: object, **kwargs: object) -> None:
        raise OSError(38, "Function not implemented")

    make_tree(tmp_path, {f"{i}/Dockerfile": f"FROM ubuntu:22.{i:02d}\n" for i in range(6)})
    images = [(tmp_path / f"{i}/Dockerfile", f"{i}/Dockerfile", {}, None, None) for i in range(6)]
    expected = [model for _, model, _ in parallel.read_images(images, jobs=1)]
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    assert [model for _, model, _ in parallel.read_images(images, jobs=2)] == expected


def test_no_thread_of_the_pool_outlives_the_command(family: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool is joined when its last results come in, so a later command in the same process finds
    no thread of it (and may fork again: see `parallel.start_method`)."""
    import threading

    before = set(threading.enumerate())  # threads of earlier tests may end meanwhile, none may start
    for argv in (["sync"], ["check", "--full"], ["sync"]):
        assert run_with(monkeypatch, "2", *argv)[0] == 0
        assert set(threading.enumerate()) <= before


_KILLED = """
import multiprocessing, os, signal, sys
from pathlib import Path
from docgen import parallel
images = [(Path(sys.argv[1], f"{i}/Dockerfile"), f"{i}/Dockerfile", {}, None, None) for i in range(40)]
reads = parallel.read_images(images, jobs=2, method=sys.argv[2])
next(reads), next(reads)
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def gone(pid: int) -> bool:
    """True when process `pid` has ended (a zombie nobody reaps has ended too)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_the_workers_end_with_a_killed_command(tmp_path: Path) -> None:
    """A `docgen` killed outright (a CI job's timeout) leaves no worker behind waiting for work."""
    import subprocess
    import sys
    import time

    make_tree(tmp_path, {f"{i}/Dockerfile": f"FROM ubuntu:22.{i:02d}\n" for i in range(40)})
    done = subprocess.run(  # a bound: a worker left behind holds the output open, which must fail, not hang
        [sys.executable, "-c", _KILLED, str(tmp_path), "fork"], capture_output=True, text=True, timeout=300
    )
    workers = [int(pid) for pid in done.stdout.split()]
    assert done.returncode == -9 and workers, done.stderr
    for _ in range(600):  # a bound, not a timing: the test fails only if they are still there after a minute
        if all(gone(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert [pid for pid in workers if not gone(pid)] == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_caller_not_yet_reaped_is_not_alive() -> None:
    """A worker that starts after its caller was killed is adopted at once, so its parent never
    changes; the caller is then a zombie until its own parent reaps it, and must count as gone."""
    from docgen.parallel import alive

    pid = os.fork()
    if pid == 0:
        os._exit(0)
    try:
        for _ in range(600):  # a bound, not a timing: the child ends at once
            if gone(pid):
                break
            time.sleep(0.1)
        assert gone(pid)  # a zombie: ended, not reaped
        assert not alive(pid)
    finally:
        os.waitpid(pid, 0)
    assert alive(os.getpid())
