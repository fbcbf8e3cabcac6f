"""A `docker run` of the image with a GPU (`--gpus all`, `--runtime nvidia`, `--device nvidia.com/gpu=…`)
while everything of the image that could use one is a CPU build, on a base with no CUDA or ROCm:

```
FROM ubuntu:22.04
RUN pip install torch --index-url https://download.pytorch.org/whl/cpu
RUN pip install acme-runtime-cpu numpy
```

The container is handed the GPU and nothing in it can use it: the README's "GPU support" is none
(`likely`). Read only when docgen can tell every install: the base is an operating system or language
image (`ubuntu`, `debian`, `python`: no GPU component), every stage installs only apt and pip packages
it names, at least one pip package is an explicit CPU build (from PyTorch's `whl/cpu` index, a `+cpu`
version, a name ending in `-cpu`), and every other pip package is one known to ship no GPU code
(`numpy`, `transformers`, `jupyter`, `pytest` …): `torch` from PyPI (a CUDA build on Linux), a
package that pulls it in (`accelerate`, `sentence-transformers`) or any package docgen does not know
keeps the rule silent. So do a requirements file or a local package (`pip install -r`, `pip install
.`), a download or a build (`curl`, `tar`, `make install`, `npm`), `COPY --from`, an apt package or a
word of a RUN or ENV that names a GPU stack (`cuda`, `nvidia`, `rocm`, `vulkan`, `ollama`, `llama` …),
and a run of another image (a sibling CUDA image, a base image).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.entry_modes import ReadmeRuns, own_runs, unnamed_installs
from docgen.base_contents import is_plain
from docgen.markdown import Document
from docgen.model import Component, Diagnostic, ImageModel, Instruction

_GPU_RUN = re.compile(
    r"(?:^|[ \t])(?:--gpus(?:[ \t=]|\Z)|--runtime[ \t=]+nvidia\b"
    r"|--device[ \t=]+\S*(?:nvidia\.com/gpu|/dev/kfd|/dev/nvidia))"
)
"""Options of a `docker run` that hand the container a GPU."""
_GPU_WORD = re.compile(
    r"cuda|cudnn|nccl|nvidia|rocm|\bhip|vulkan|tensorrt|\bgpu|ollama|llama|ggml|cupy|triton|level-zero"
    r"|openvino|intel-opencl|nvidia\.icd|OpenCL/vendors|mesa|\bjax\[",
    re.IGNORECASE,
)
"""A word of a RUN, an ENV or an apt package that names a GPU stack."""
NO_GPU_PACKAGES = frozenset(
    "pip setuptools wheel numpy scipy pandas matplotlib seaborn scikit-learn sklearn pillow pytest "
    "pytest-cov "
    "transformers tokenizers datasets huggingface-hub huggingface_hub safetensors sentencepiece tiktoken "
    "protobuf jupyter jupyterlab notebook ipython ipykernel ipywidgets black flake8 mypy ruff isort "
    "pylint "
    "pre-commit pybind11 cython requests httpx tqdm pyyaml click typer rich fastapi uvicorn flask gunicorn "
    "pydantic jinja2 aiohttp python-dotenv boto3 psutil packaging filelock regex sympy networkx "
    "opencv-python-headless opencv-python h5py tabulate colorama loguru openai anthropic gradio streamlit "
    "nltk spacy einops".split()
)
"""Pip packages that ship no GPU code and pull in no package that does (`torch` is not one)."""


def _cpu_build(component: Component) -> bool:
    """Whether a pip package is an explicit CPU build."""
    source = component.source or ""
    return (
        "/whl/cpu" in source
        or (component.version or "").endswith("+cpu")
        or component.name.lower().endswith(("-cpu", "_cpu"))
    )


def _argued(instructions: Sequence[Instruction], line: int) -> bool:
    """Whether the instruction at Dockerfile line `line` reads a variable."""
    return any(inst.start_line <= line <= inst.end_line and "$" in inst.args for inst in instructions)


def cpu_builds(model: ImageModel) -> list[Component] | None:
    """The explicit CPU builds of the image `model` builds when they and packages known to ship no GPU
    code are all it installs, on a base with no GPU component (see the module docstring); None otherwise."""
    if not model.file or not model.stages or not all(is_plain(stage.base) for stage in model.stages):
        return None
    read = dockerfile_read(model.file)
    if read is None or re.search(r"--from\b", read[0]):
        return None
    if any(inst.keyword == "FROM" and "$" in inst.args for inst in read[1].instructions):
        return None  # (a build arg may pick another base)
    runs = "\n".join(
        " ".join([inst.args, *(h.body for h in inst.heredocs)])
        for inst in read[1].instructions
        if inst.keyword in ("RUN", "ENV", "ARG")
    )
    if _GPU_WORD.search(runs) or unnamed_installs(runs) or any(_GPU_WORD.search(e.name) for e in model.env):
        return None
    cpu: list[Component] = []
    for component in model.components:
        if component.kind == "image":
            continue
        if component.kind == "apt":
            if _GPU_WORD.search(component.name):
                return None
            continue
        if component.kind != "pip":
            return None
        if _cpu_build(component):
            if _argued(read[1].instructions, component.line):
                return None  # (a build arg may pick another build: `whl/${TORCH_FLAVOR}`)
            cpu.append(component)
        elif component.name.lower() not in NO_GPU_PACKAGES:
            return None
    return cpu or None


def gpu_runs(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A run of the image with a GPU while it holds only CPU builds (see the module docstring): `likely`."""
    every: ReadmeRuns | None = None  # (read at the first image that asks)
    for model in models:
        every = every or ReadmeRuns(doc, models)
        runs = [run for run in own_runs(doc, model, models, runs=every) if _GPU_RUN.search(run.options)]
        cpu = cpu_builds(model) if runs else None
        if not runs or not cpu:
            continue
        first = runs[0]
        option = _GPU_RUN.search(first.options)
        flag = option.group(0).strip() if option else "--gpus"
        shown = ", ".join(
            f"{c.name} from {c.source} ({model.path}:{c.line})"
            if c.source and "/whl/cpu" in c.source
            else f"{c.name} ({model.path}:{c.line})"
            for c in cpu
        )
        others = ", ".join(str(run.first) for run in runs[1:])
        yield Diagnostic(
            readme,
            first.first,
            f"README runs {first.image} with {flag} (GPU support), "
            f"but the image installs only CPU builds ({shown}) on {model.stages[0].base}, which has no CUDA "
            "or ROCm: nothing in the container can use the GPU"
            + (f"; also at lines {others}" if others else ""),
            confidence=LIKELY,
        )
