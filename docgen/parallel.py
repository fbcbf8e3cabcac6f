"""Many images' models at once: `read_images` reads the Dockerfiles `sync` and `check` have to model,
in a pool of worker processes when there are enough of them for the pool to pay, one after another
otherwise, and hands the results back in order, errors included, exactly as the serial reading would.

Only the reading is spread (`analysis.read_image`: read, evaluate, extract, lint): it is most of the
cost of an image, and its result, `(bytes, ImageModel, warnings)`, is frozen dataclasses that pickle
in a fraction of the time they take to build. Rendering and writing stay in the calling process.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import TypeAlias

from docgen.analysis import read_image
from docgen.errors import UsageError
from docgen.model import Diagnostic, ImageModel

Read: TypeAlias = tuple[bytes, ImageModel, tuple[Diagnostic, ...]]
"""What `analysis.read_image` gives for one image: its Dockerfile's bytes, its model, its lint warnings."""

Image: TypeAlias = tuple[Path, str, Mapping[str, str], "str | None", "tuple[str, int | None] | None"]
"""One image to read: its Dockerfile, its name as shown, its build args, its target stage (None: the
last) and where that target is written (for messages), as `analysis.read_image` takes them."""

Request: TypeAlias = tuple[
    Path, str, bool, tuple[tuple[str, str], ...], "str | None", "tuple[str, int | None] | None"
]
"""What a worker needs to read one image: an `Image` with lint or not, its build args as pairs."""

JOBS_VARIABLE = "DOCGEN_JOBS"
"""The environment variable that sets the number of processes: `1` reads serially; unset, `auto` or
empty: the automatic choice."""

THRESHOLDS = {"fork": 64, "forkserver": 256, "spawn": 256}
"""Start method → the number of images to model from which the pool is used. Measured by
`benchmarks/bench_family.py` on 2 cores shared with other work (Python 3.11, copies of the bundled
ROCm Dockerfile, `docgen check --full` in a new process after import; docs/benchmarks.md): with `fork`
the pool ran 32 images at 0.75× to 1.20× the serial speed over three runs and 64 at 1.12× to 1.47×;
started by `forkserver` or `spawn` (docgen imported again, a third to half a second) it ran 16 images
at about a quarter of the serial speed and 256 at 0.5× to 1.5×."""


BATCHES_PER_WORKER = 4
"""A worker gets its images in batches, one message each way per batch instead of one per image:
about this many batches a worker, so that the first models come back (and are rendered here) early …"""

BATCH = 8
"""… and at most this many images a batch (40 ms or more of work against a fraction of a millisecond
per message). With at most two batches a worker under way, the models waiting to be rendered stay
a few dozen, however many images there are."""


def read_images(
    images: Sequence[Image],
    *,
    with_lint: bool = False,
    jobs: int | None = None,
    method: str | None = None,
) -> Iterator[Read]:
    """`analysis.read_image` of each `(dockerfile, display, build args, target, target_at)` of
    `images`, in order.

    The results come lazily, as the serial loop gave them: the error of an image (a `DocgenError`
    carrying its `path:line`, an `OSError` …) is raised when its turn comes, after the results of the
    images before it, so the first error in config order is the one raised, whatever the workers met
    meanwhile. Serial below `THRESHOLDS[method]` images or when `DOCGEN_JOBS=1`; otherwise one process
    per usable CPU (or `DOCGEN_JOBS` of them), never more than images. `jobs` overrides `DOCGEN_JOBS`
    (the threshold does not apply to either), `method` the start method (see `start_method`).
    """
    requests = [
        (Path(path), display, with_lint, tuple(args.items()), target, target_at)
        for path, display, args, target, target_at in images
    ]
    method = method or start_method()
    workers = _workers(len(requests), jobs, THRESHOLDS[method])
    if workers < 2:
        return (_read(request) for request in requests)
    return pooled(requests, workers, method)


def _workers(count: int, jobs: int | None, threshold: int) -> int:
    """How many processes read `count` images: 1 means serially, here."""
    if jobs is None:
        value = os.environ.get(JOBS_VARIABLE, "").strip()
        if value in ("", "auto"):
            return min(cpus(), count) if count >= threshold else 1
        if not value.isdigit() or int(value) < 1:
            raise UsageError(
                f"{JOBS_VARIABLE}={value!r}: expected a number of processes (1 or more) or 'auto'"
            )
        jobs = int(value)  # the user's number: the threshold does not apply
    return max(1, min(jobs, count))


def cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counter is not None:
        return int(counter() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def start_method() -> str:
    """How the workers are started.

    `fork` where it is safe: on Linux, from a process with no other thread (the `docgen` command).
    A forked worker has docgen imported already; `forkserver` and `spawn` import docgen again (once in
    the fork server, in every worker with spawn), a third to half a second on 2 cores, what modelling
    40 to 60 images costs (benchmarks/bench_family.py measures the three). Python 3.14
    made `forkserver` the default on Linux because forking a process with threads can copy a lock
    another thread holds (and 3.12 warns about it): a program that runs docgen beside threads of its
    own gets `forkserver`, with docgen preloaded in the server. macOS and Windows get `spawn`, their
    default (fork is unsafe on macOS, absent on Windows).
    """
    import multiprocessing
    import threading

    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return "fork"
    if sys.platform.startswith("linux") and "forkserver" in methods:
        return "forkserver"
    return "spawn"


def pooled(requests: list[Request], workers: int, method: str) -> Iterator[Read]:
    """The results of `requests` read by `workers` processes started by `method`, in order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # The first image is read here, before the pool starts: what the reader imports on its first use
    # (`packaging` for pip pins, about 20 ms) is then imported once, and forked workers have it.
    first = _read(requests[0])
    rest = requests[1:]
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["docgen.analysis"])
    size = min(BATCH, max(1, -(-len(rest) // (workers * BATCHES_PER_WORKER))))
    batches = iter([rest[i : i + size] for i in range(0, len(rest), size)])
    pool = None
    try:
        pool = ProcessPoolExecutor(
            min(workers, len(rest)), context, initializer=_start_worker, initargs=(os.getpid(),)
        )
        under_way = deque(pool.submit(_read_batch, batch) for batch in islice(batches, 2 * workers))
    except OSError:  # no pool here (a sandbox without /dev/shm, a process limit): serially
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        yield first
        yield from (_read(request) for request in rest)
        return
    done = 0
    try:
        yield first
        while under_way:
            outcomes = under_way.popleft().result()
            following = next(batches, None)
            if following is not None:
                under_way.append(pool.submit(_read_batch, following))
            if not under_way:  # the last batch is in: the workers are idle and joined at once, so no
                pool.shutdown()  # thread of the pool outlives the results (see start_method)
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
                done += 1
                yield outcome
    except BrokenProcessPool:  # a worker was killed (out of memory …): the rest as the serial run would
        pool.shutdown(wait=False)
        yield from (_read(request) for request in rest[done:])
    except BaseException:  # an error, or the caller stopped early (an error in an earlier image's output)
        pool.shutdown(wait=False, cancel_futures=True)  # without waiting for the batches under way
        raise


def _read(request: Request) -> Read:
    path, display, with_lint, args, target, target_at = request
    return read_image(
        path, display, with_lint=with_lint, build_args=dict(args), target=target, target_at=target_at
    )


def _read_batch(requests: list[Request]) -> list[Read | Exception]:
    """In a worker: each request's result, or the error it raised (kept as a value, so the results of
    the images before it in the batch still come back, and the caller raises it in its turn)."""
    outcomes: list[Read | Exception] = []
    for request in requests:
        try:
            outcomes.append(_read(request))
        except Exception as exc:  # every error: the caller re-raises it where the serial run would
            outcomes.append(exc)
    return outcomes


def _start_worker(caller: int) -> None:
    """In a new worker: Ctrl-C is the calling process's to handle (exit 130), not each worker's to
    print a traceback; and the worker ends when the calling process (`caller`) does, killed by a CI
    timeout, say, instead of waiting for work forever (a fork server's workers would keep it alive
    too)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(caller, os.getppid()), daemon=True).start()


def _exit_with(caller: int, parent: int) -> None:
    import time

    while os.getppid() == parent and alive(caller):  # an orphan is adopted by another process
        time.sleep(0.5)
    os._exit(1)


def alive(pid: int) -> bool:
    """True while process `pid` runs. A killed caller whose own parent has not reaped it yet is a
    zombie, which `os.kill(pid, 0)` still finds: a worker that starts only after its caller was killed
    (adopted already, so its parent never changes) would wait for it forever."""
    if os.name != "posix":  # os.kill(pid, 0) would end it on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # the number is another user's process now
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):  # no /proc (macOS): what os.kill found
        return True
    return state not in ("Z", "X")
