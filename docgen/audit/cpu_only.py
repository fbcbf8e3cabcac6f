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

The same fact read against what the README's words say the image runs on (`likely` each):

- `gpu_claims`: a sentence calling the image of its part the GPU (CUDA, ROCm) version, GPU-enabled or
  an image "with GPU support" (`To build the GPU version …`, `**GPU-enabled**`) while every image the
  part is about is a CPU build. Here the GPU frameworks decide (`cpu_frameworks`): every PyTorch,
  TensorFlow, JAX, ONNX Runtime, PaddlePaddle or MXNet package is an explicit CPU build, at least one is
  installed, nothing names a GPU stack and the bases are plain; other packages (conda's, an unknown
  pip package) may be there. A GPU named as the host's (`Docker with GPU support`), a condition, a
  negation, a plan or an edit (`replace`, `switch to`) is not read.
- `cpu_claims`: a sentence calling the image CPU-only (`CPU-only setup`, `A CPU only build of …`, a
  bold `**CPU-only**` over its pull) while every image of its part starts from a CUDA or ROCm image
  (`nvidia/cuda`, `nvcr.io/nvidia/…`, `rocm/…`, a tag naming `cuda`, `cudnn`, `rocm` or `gpu`) or
  installs CUDA builds of its frameworks (`…/whl/cu121`, `+cu118`, `onnxruntime-gpu`): a CPU variant
  beside a GPU one in the part keeps it silent (the claim is the variant's). A CPU-only *mode* or run
  (`--device cpu`, `run on CPU only`) of a GPU image, a host (`CPU-only machines`), a choice (`or`)
  is not read.
- `swapped_variants`: an instruction to replace the hardware word of the base image's tag (`replace
  -cpu … with -gpu`) where no FROM of the part names the word to replace and one already names the
  word to put in: the default build is already the variant the instruction is for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.entry_modes import ReadmeRuns, own_runs, unnamed_installs
from docgen.audit.wording import claims_said, is_example, line_at, sentences
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


_FRAMEWORK = re.compile(
    r"(?:torch|torchvision|torchaudio|tensorflow|tf-nightly|jax|jaxlib|onnxruntime|paddlepaddle|mxnet)(?:[-_]cpu)?"
)
"""The pip packages of a framework that runs on a GPU when its build is one (`torch`, `tensorflow`)."""


def cpu_frameworks(model: ImageModel) -> list[Component] | None:
    """The explicit CPU builds of the GPU frameworks `model` installs when they are every framework of
    it, nothing of its RUNs, ENVs or ARGs names a GPU stack (`_GPU_WORD`) and every stage starts from a
    plain image (see the module docstring); None otherwise. Unlike `cpu_builds`, packages docgen does
    not know may be there: the frameworks decide what can use a GPU."""
    if not model.file or not model.stages or not all(is_plain(stage.base) for stage in model.stages):
        return None
    read = dockerfile_read(model.file)
    if read is None or re.search(r"--from\b", read[0]):
        return None
    instructions = read[1].instructions
    if any(inst.keyword == "FROM" and "$" in inst.args for inst in instructions):
        return None
    said = "\n".join(
        " ".join([inst.args, *(h.body for h in inst.heredocs)])
        for inst in instructions
        if inst.keyword in ("RUN", "ENV", "ARG")
    )
    if _GPU_WORD.search(said) or re.search(
        r"(?:-r|--requirement)[ \t=]|requirements|pyproject|environment\.ya?ml", said
    ):
        return None
    cpu: list[Component] = []
    for component in model.components:
        if component.kind in ("apt", "conda") and _GPU_WORD.search(component.name):
            return None
        if component.kind != "pip" or not _FRAMEWORK.fullmatch(component.name.lower().split("[", 1)[0]):
            continue
        if not _cpu_build(component) or _argued(instructions, component.line):
            return None
        cpu.append(component)
    return cpu or None


def _shown_cpu(model: ImageModel, cpu: Sequence[Component]) -> str:
    """`torch from …/whl/cpu (gpu.Dockerfile:51)`, each CPU build of `cpu` named with its line."""
    return ", ".join(
        f"{c.name} from {c.source} ({model.path}:{c.line})"
        if c.source and "/whl/cpu" in c.source
        else f"{c.name} ({model.path}:{c.line})"
        for c in cpu
    )


_GPU_CLAIM = re.compile(
    r"\b(?:GPU|CUDA|ROCm)[- ](?:version|image|build|variant|container|edition|flavou?r|dockerfile)s?\b"
    r"|\b(?:GPU|CUDA|ROCm)[- ]?(?:enabled|accelerated|powered)\b"
    r"|\b(?:image|container|dockerfile|build|version)\b[^.;]{0,40}?\bwith[ \t]+(?:NVIDIA[ \t]+|AMD[ \t]+)?"
    r"(?:GPU|CUDA|ROCm)[ \t]+(?:support|acceleration)\b",
    re.IGNORECASE,
)
"""Words calling an image the GPU one (`the GPU version`, `GPU-enabled`, `an image with CUDA support`)."""
_NOT_GPU_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bwithout\b|\bno[ \t]+(?:gpu|cuda)\b|\bif\b|\bunless\b|\bwas\b|\bwere\b|\bwill\b"
    r"|\bplann|\bfuture\b|\btodo\b|\bcoming\b|\bsoon\b|\bupgrade|\bswitch|\breplac|\bchang|\bmodif"
    r"|\byour[ \t]+own\b|\bcpu\b|\bflag\b|\boption\b|--gpu|build[- ]?args?\b|\b[A-Z_]+=|\.sh\b|\btarget\b"
    r"|\bmake[ \t]+(?:gpu|cuda|rocm)\b",
    re.IGNORECASE,
)
"""A sentence that names the GPU image without saying this one is it: a negation, a condition, a plan,
an edit the reader makes, a sentence about the CPU one too, a GPU build another switch picks (`add the
--gpu flag`, `GPU=1`, `./build.sh gpu`, a target)."""


_GPU_NAMED = re.compile(r"(?<![a-z])(?:gpu|cuda|rocm)(?![a-z])", re.IGNORECASE)
"""A Dockerfile's path naming the GPU build (`gpu.Dockerfile`, `Dockerfile.cuda`)."""


def gpu_claims(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence of `part` calling its image the GPU one while every image of the part holds only CPU
    builds of its frameworks (`cpu_frameworks`; see the module docstring): `likely`, once a line."""
    found: list[tuple[ImageModel, list[Component]]] | None = None
    told: set[int] = set()
    for line, claim in claims_said(part, _GPU_CLAIM, _NOT_GPU_CLAIM):
        if line in told:
            continue
        if found is None:
            found = [(m, cpu) for m in auditor.models if (cpu := cpu_frameworks(m)) is not None]
            if not found or len(found) != len(auditor.models):
                return
            found.sort(key=lambda pair: not _GPU_NAMED.search(pair[0].path))  # (`gpu.Dockerfile` first)
        told.add(line)
        model, cpu = found[0]
        others = f" (and {len(found) - 1} more image)" if len(found) > 1 else ""
        yield Diagnostic(
            auditor.path,
            line,
            f"README calls the image {claim.group().strip()!r} (a GPU build), but {model.path} starts "
            f"from {model.stages[0].base} (no CUDA or ROCm) and installs only CPU builds of its frameworks "
            f"({_shown_cpu(model, cpu)}){others}: nothing in the image can use a GPU",
            confidence=LIKELY,
        )


_GPU_BASE = re.compile(
    r"\A(?:(?:docker\.io|nvcr\.io)/)?(?:nvidia/(?:cuda|cudagl)\b|rocm/)"
    r"|\Anvcr\.io/nvidia/"
    r"|:[^/]*(?:cuda|cudnn|rocm|(?<![a-z])gpu(?![a-z]))",
    re.IGNORECASE,
)
"""A base image with a GPU stack: NVIDIA's CUDA and NGC images, ROCm's, or a tag naming CUDA, cuDNN,
ROCm or a GPU build (`pytorch/torchserve:0.5.1-gpu`, `…/pytorch-notebook:cuda-12.3.1-…`)."""
_CUDA_WHEEL = re.compile(r"/whl/(?:cu|rocm)\d|\+(?:cu|rocm)\d")
"""A wheel index or version of a CUDA or ROCm build (`…/whl/cu121`, `2.1.0+cu118`)."""
_GPU_PACKAGE = re.compile(
    r"(?:onnxruntime|paddlepaddle|tensorflow|faiss|mxnet)-gpu|cupy-(?:cuda|rocm)\w*|nvidia-\w+-cu\d+"
    r"|tensorflow\[and-cuda\]|jax\[cuda\w*\]",
    re.IGNORECASE,
)
"""A pip package that is a GPU build by its name."""


def gpu_stack(model: ImageModel) -> str | None:
    """What makes the image `model` builds a GPU one: `Dockerfile:1 starts FROM nvidia/cuda:…` when the
    stage its target is built on (through its parent stages) starts from a GPU image (`_GPU_BASE`), or
    `Dockerfile:7 installs torch from …/whl/cu121` for a CUDA or ROCm build of a package; None
    otherwise (a base a build arg picks says nothing)."""
    stage = model.target
    while stage is not None and stage.parent is not None:
        stage = model.stages[stage.parent]
    if stage is not None and "$" not in stage.base and "cpu" not in stage.base.lower():
        if _GPU_BASE.search(stage.base):
            return f"{model.path}:{stage.line} starts FROM {stage.base}"
    for component in model.components:
        if component.kind != "pip":
            continue
        said = (
            f"{component.name}{'+' + component.version if component.version else ''} {component.source or ''}"
        )
        if _CUDA_WHEEL.search(said) or _GPU_PACKAGE.search(component.name):
            shown = f" from {component.source}" if component.source else ""
            return f"{model.path}:{component.line} installs {component.name}{shown}"
    return None


_CPU_CLAIM = re.compile(
    r"\bCPU[- ]?only\b(?![- ](?:mode|machines?|hosts?|systems?|servers?|laptops?|environments?|users?"
    r"|inference|fallback|execution|runs?|devices?))"
    r"|\b(?:image|build|setup|container)[ \t]+(?:is[ \t]+)?(?:for[ \t]+)?CPU[ \t]+only\b",
    re.IGNORECASE,
)
"""Words calling an image CPU-only (`CPU-only setup`, `**CPU-only**`, `A CPU only build`), not a mode or
a host (`CPU-only mode`, `CPU-only machines`)."""
_NOT_CPU_CLAIM = re.compile(
    r"\bmode\b|--device|\bdevice\b|\bflag\b|\boption\b|\benv\w*[ \t]+var|\bset\b|=\s*(?:false|0|cpu)\b"
    r"|\bif\b|\bwhen\b|\bunless\b|\bor\b|\bwas\b|\bwere\b|\bwill\b|\bnot\b|n't\b|\bhosts?\b|\byour\b"
    r"|\bmachines?\b|\brun(?:s|ning)?[ \t]+(?:it[ \t]+)?(?:on|with)[ \t]+(?:the[ \t]+)?cpu\b|\bgpu\b|\bcuda\b"
    r"|\brocm\b|\bfallback\b|\bfalls?[ \t]+back\b",
    re.IGNORECASE,
)
"""A sentence naming CPU-only without saying the image is: a run mode, a host, a condition, a choice,
a sentence about a GPU image too (`CPU-only (GPU-ready upgrade available)` says the GPU is a choice)."""
_GPU_AFTER = re.compile(r"((?:[ \t]+[\w-]+){0,3})[ \t]*\([^()]*?\bgpu\b[^()]*\)", re.IGNORECASE)
"""A parenthesis right after the claim that names the GPU as an upgrade (`CPU-only setup (GPU-ready
upgrade available)`): the sentence is still about this image, CPU-only."""


def cpu_claims(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence of `part` calling its image CPU-only while every image of the part is a GPU one
    (`gpu_stack`; see the module docstring): `likely`, once a line."""
    found: list[str] | None = None
    told: set[int] = set()
    for para in part.paragraphs:
        joined = " ".join(said for _, said in para.lines)
        if not _CPU_CLAIM.search(joined):
            continue
        for start, _end, sentence in sentences(para.lines):
            claim = _CPU_CLAIM.search(sentence)
            if claim is None or is_example(sentence, claim):
                continue
            after = sentence[claim.end() :]
            upgrade = _GPU_AFTER.match(after)
            rest = upgrade.group(1) + after[upgrade.end() :] if upgrade else after
            if _NOT_CPU_CLAIM.search(sentence[: claim.start()] + " " + rest):
                continue
            line = line_at(para.lines, start + claim.start())
            if line in told:
                continue
            if found is None:
                found = [s for m in auditor.models if (s := gpu_stack(m)) is not None]
                if not found or len(found) != len(auditor.models):
                    return
            told.add(line)
            others = f" (and {len(found) - 1} more image)" if len(found) > 1 else ""
            yield Diagnostic(
                auditor.path,
                line,
                f"README calls the image {claim.group().strip()!r}, but {found[0]}{others}, a GPU (CUDA "
                "or ROCm) build: the image is made for a GPU",
                confidence=LIKELY,
            )


_SWAP = re.compile(
    r"\b(?:replace|change|swap)[ \t]+(?:the[ \t]+)?[`'\"]?(?P<old>[-:_]?(?:cpu|gpu|cuda|rocm))[`'\"]?"
    r"(?:[ \t]+(?:tag|suffix|part))?[ \t]+(?:(?:from|in|of)[ \t]+[^.;]{0,60}?[ \t])?(?:with|to|for|by)[ \t]+"
    r"[`'\"]?(?P<new>[-:_]?(?:cpu|gpu|cuda|rocm))\b",
    re.IGNORECASE,
)
"""An instruction to swap the hardware word of an image tag (`replace -cpu from the docker image with
-gpu`, `change `cpu` to `gpu``)."""


def swapped_variants(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """An instruction of `part` to replace a hardware word of the base's tag (`_SWAP`) that no FROM of
    its images names while one already names the word to put in (see the module docstring): `likely`.
    Read in the README's `text` as written: the part has instructions to edit a file set aside."""
    raw: list[str] | None = None
    for para in part.paragraphs:
        if raw is None:
            raw = text.splitlines()
        lines = [(n, raw[n - 1] if 0 < n <= len(raw) else said) for n, said in para.lines]
        if not _SWAP.search(" ".join(said for _, said in lines)):
            continue
        for start, _end, sentence in sentences(lines):
            for swap in _SWAP.finditer(sentence):
                found = _swapped(swap, auditor)
                if found is not None:
                    yield Diagnostic(
                        auditor.path, line_at(lines, start + swap.start()), found, confidence=LIKELY
                    )


def _swapped(swap: re.Match[str], auditor: Auditor) -> str | None:
    """The finding's message for the instruction `swap` when no FROM of `auditor`'s images names the word
    it replaces and one names the word it puts in; None otherwise (a FROM a build arg makes says nothing)."""
    old, new = (swap.group(g).lower().lstrip("-:_") for g in ("old", "new"))
    bases = [(m, s) for m in auditor.models for s in m.stages if s.parent is None and s.base]
    if old == new or not bases or any("$" in s.base_raw for _, s in bases):
        return None
    words = [(m, s, set(re.findall(r"[a-z]+", s.base.lower().rpartition(":")[2]))) for m, s in bases]
    having = [(m, s) for m, s, w in words if new in w]
    if any(old in w for _, _, w in words) or not having:
        return None
    model, stage = having[0]
    return (
        f"README says to replace {swap.group('old')} with {swap.group('new')} in the base image, but "
        f"{model.path}:{stage.line} already starts FROM {stage.base} and no FROM names {old}: the "
        f"default build is already the {new.upper()} image"
    )
