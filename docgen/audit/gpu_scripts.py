"""A run script the README presents as its GPU path whose container run gives the container no GPU,
while another run script the README runs does:

```
For automatic reconstruction, run:        ->  reconstruct.sh: docker run -t --rm -v … lab/mapper …
    bash reconstruct.sh
For an interactive shell, run:            ->  shell.sh: docker run -it --gpus all -v … lab/mapper
    bash shell.sh
If no GPU is available, use the CPU mode:
    bash reconstruct_cpu.sh
```

The README presents a script as the GPU path when the script's name says so (`run_gpu.sh`,
`start-cuda.sh`), when the words just above its block or its heading do (`Run with GPU support:`), or
when the README offers a CPU mode in another block (`If no GPU is available, … CPU mode:`, `CPU
only:`, a script named `run_cpu.sh` or `run_nogpu.sh`): the scripts it runs outside that block are
the ones for a machine with a GPU. The run gives no GPU: no `--gpus`, `--runtime=nvidia`, GPU
`--device` (`nvidia.com/gpu=…`, `/dev/nvidia*`, `/dev/kfd`, `/dev/dri`), `NVIDIA_VISIBLE_DEVICES`,
`--privileged` nor `nvidia-docker`, and it holds no option docgen cannot read (`$GPU_ARGS`, `"$@"`).
A sibling script the README runs gives one, so the project runs its image with a GPU by hand.

Silent when the README speaks of Jetson or L4T or of NVIDIA as the daemon's default runtime
(`default-runtime`): there every container gets the GPU with no option. `likely`: read from prose.

The scripts are those the README runs (`script_builds.shell_scripts_run`), their runs
`script_mounts.container_runs`'s; a script that builds an image is no run script (its run checks the
image it made).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.grammar import run_command
from docgen.audit.script_builds import shell_scripts_run
from docgen.audit.script_mounts import container_runs
from docgen.audit.wording import heading_of
from docgen.build_scripts import BUILD
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_CPU_MODE = re.compile(
    r"\bCPU[- ]?(?:mode|only|version|variant)\b|\bon[ \t]+(?:the[ \t]+)?CPUs?\b"
    r"|\b(?:no|without(?:[ \t]+an?)?|non)[- \t]+(?:\([^()]*\)[ \t]+|[\w-]+[ \t]+)?GPUs?\b",
    re.IGNORECASE,
)
"""Words offering a run for a machine with no GPU (`CPU mode`, `If no (CUDA capable) GPU is available`,
`without a GPU`, `CPU only`, `on the CPU`)."""
_GPU_SAID = re.compile(r"\b(?:GPUs?|CUDA|NVIDIA)\b", re.IGNORECASE)
_GPU_NAME = re.compile(r"(?:^|[_.-])(?:gpu|cuda|nvidia)(?:[_.-]|$)", re.IGNORECASE)
_CPU_NAME = re.compile(r"(?:^|[_.-])(?:cpu|no[_-]?gpu|nogpu|non[_-]?gpu)(?:[_.-]|$)", re.IGNORECASE)
_CPU_SCRIPT = re.compile(_CPU_NAME.pattern + r".*\.(?:sh|bash)\Z", re.IGNORECASE)
"""A script named for a machine with no GPU (`run_cpu.sh`, `start-nogpu.bash`)."""
_DEFAULT_GPU = re.compile(r"\bjetson\b|\bL4T\b|default[-_ ]runtime", re.IGNORECASE)
"""A machine whose Docker daemon hands every container the GPU (Jetson's NVIDIA default runtime)."""
_GPU_DEVICE = re.compile(r"nvidia|/dev/(?:kfd|dri)", re.IGNORECASE)


def gives_gpu(engine: str, words: list[str]) -> bool | None:
    """True when a container run (its engine, its words after `run`) gives the container a GPU, False
    when it surely gives none, None when its options cannot all be read (one from a variable)."""
    if engine.startswith("nvidia-docker"):
        return True
    read = run_command(words)
    if read is None or "$" in read[0]:
        return None
    if any(
        option == "--gpus"
        or (option == "--runtime" and value.strip("\"'").lower() == "nvidia")
        or (option == "--device" and _GPU_DEVICE.search(value))
        or (option in ("-e", "--env") and value.startswith("NVIDIA_VISIBLE_DEVICES"))
        for option, value in read[2]
    ):
        return True
    if "--privileged" in words or any(w.startswith("--privileged=true") for w in words):
        return True
    return False


def _fences(doc: Document) -> dict[int, Fence]:
    """Each README line of a command block → the block."""
    return {line: fence for fence in doc.fences for line, _ in fence.lines}


def _above(ends: dict[int, str], fence: Fence) -> tuple[int, str]:
    """(README line, text) of the last line of the paragraph that ends just above a block, at most one
    blank line between (as `wording.line_above` reads it; `ends`: each paragraph's last line → its
    text); (0, '') when there is none."""
    opening = fence.lines[0][0] - 1 if fence.lines else 0
    return next(((n, ends[n]) for n in (opening - 1, opening - 2) if n in ends), (0, ""))


def gpu_less_scripts(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A run script the README presents as its GPU path that gives the container no GPU while a sibling
    run script of the README gives one (see the module's docstring); one finding a script, at the first
    README line running it."""
    prose = " ".join(t for p in doc.paragraphs for _, t in p.lines)
    if _DEFAULT_GPU.search(prose) or _DEFAULT_GPU.search(" ".join(h for _, h in doc.headings)):
        return
    fences = _fences(doc)
    ends = {para.lines[-1][0]: para.lines[-1][1] for para in doc.paragraphs if para.lines}
    runs: list[tuple[int, str, Path, int, bool | None]] = []  # (README line, run, script, its line, GPU)
    builds: set[Path] = set()  # (a build script's run is a check of the image it made, not its run)
    for line, run, script, _, text in shell_scripts_run(doc, directory, audited, project, cloned):
        started = container_runs(text)
        if not started:
            continue
        if BUILD.search(text):
            builds.add(script)
        given = [gives_gpu(engine, words) for _, engine, words in started]
        gpu = True if any(given) else None if None in given else False
        first = next((at for (at, _, _), g in zip(started, given, strict=True) if g), started[0][0])
        runs.append((line, run, script, first, gpu))
    siblings = [(script, at) for _, _, script, at, gpu in runs if gpu is True]
    if not siblings:
        return
    # the blocks that offer a CPU mode: said above them, or by a script's name
    cpu_blocks: dict[int, tuple[int, str]] = {}  # block's first line → (README line, what says CPU)
    for block in doc.fences:
        if not block.lines:
            continue
        at, above = _above(ends, block)
        offered = _CPU_MODE.search(above)
        if offered is not None:
            cpu_blocks[block.lines[0][0]] = (at, offered.group(0))
            continue
        for line, text in block.lines:
            words = re.split(r"[\s;&|]+", text)
            named = next((w for w in words if _CPU_SCRIPT.search(w.rsplit("/", 1)[-1])), None)
            if named is not None:
                cpu_blocks[block.lines[0][0]] = (line, named)
                break
    for line, run, script, at, gpu in runs:
        sibling = next(((s, s_at) for s, s_at in siblings if s != script), None)
        if gpu is not False or sibling is None or _CPU_NAME.search(script.stem) or script in builds:
            continue
        fence = fences.get(line)
        if fence is None or not fence.lines:
            continue
        above_line, above = _above(ends, fence)
        heading = heading_of(doc, line)
        if _CPU_MODE.search(above) or _CPU_MODE.search(heading) or fence.lines[0][0] in cpu_blocks:
            continue
        if _GPU_NAME.search(script.stem):
            why = "its name says so"
        elif _GPU_SAID.search(above):
            why = f"line {above_line} says so"
        elif cpu_blocks:
            cpu_line, said = next(iter(cpu_blocks.values()))
            why = f'line {cpu_line} offers another run for "{said}"'
        else:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {run} for a machine with a GPU ({why}), but {script.name}:{at} starts the "
            f"container with no --gpus, --runtime=nvidia or GPU device, while {sibling[0].name}:{sibling[1]} "
            "gives it one: the container gets no GPU, and what needs CUDA in it fails or falls back to the "
            "CPU",
            confidence=LIKELY,
        )
