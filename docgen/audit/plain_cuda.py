"""A CUDA or cuDNN release a README says the image has (`CUDA 11.8 with cuDNN 8`, `| CUDA | 12.1 |`)
where every stage of every image audited starts from a plain operating-system or language image
(`python:3.12-slim`, `ubuntu:22.04`, `node:20`) and nothing the Dockerfile runs brings CUDA: no word of
its instructions names CUDA, cuDNN, NVIDIA, a `cuXXX` wheel index, conda, or a framework whose wheels
carry CUDA's libraries (PyTorch, TensorFlow, JAX, CuPy, ONNX Runtime, Paddle, TensorRT, vLLM, …), and
neither does a requirements file it installs that the project holds.

Always `likely`: what a package pulls in is not written in the Dockerfile. A requirements file the
project does not hold is not read (the build would fail without it). Sentences about the host (`requires
CUDA 11.8 on the host`, a driver, `nvidia-smi`), a condition or the past, and sections about the host or
older releases are not read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.cells import texts_and_rows
from docgen.audit.wording import NOT_THE_IMAGE, line_at, sentences
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PLAIN = frozenset(
    "python ubuntu debian alpine busybox centos rockylinux almalinux fedora amazonlinux oraclelinux archlinux"
    " opensuse/leap opensuse/tumbleweed node golang ruby php rust openjdk eclipse-temurin amazoncorretto"
    " buildpack-deps nginx httpd perl haskell erlang elixir gcc clojure maven gradle".split()
)
"""Images that hold an operating system and maybe a language, never CUDA."""
_BRINGS_CUDA = re.compile(
    r"cuda|cudnn|cublas|nvidia|nccl|\bcu\d{2,3}\b|torch|tensorflow|\btf-nightly|\bjax|cupy|conda|mamba"
    r"|pixi|onnxruntime|paddle|tensorrt|mxnet|\bvllm|xformers|llama[-_.]?cpp|sglang|\bdeepspeed|\bcolab"
    r"|\bgpu\b|ultralytics|transformers\[|sentence[-_]transformers|whisper|diffusers|accelerate",
    re.IGNORECASE,
)
"""What in a Dockerfile or a requirements file may bring CUDA's libraries into the image."""
_PROJECT = re.compile(
    r"\bpip3?[ \t]+install\b[^\n]*?[ \t](?:-e[ \t]+)?\.(?:\[|[ \t]|$)"
    r"|\bpoetry[ \t]+install|\buv[ \t]+sync|\bpipenv|\bsetup\.py\b|\bpdm[ \t]+install|\bhatch\b",
    re.MULTILINE,
)
"""A local project installed: its dependencies are written elsewhere."""
_REQUIREMENTS = re.compile(r"(?:^|[ \t])(?:-r|--requirement)[ \t=]+[\"']?([^\s\"';&|]+)")
_CLAIM = re.compile(
    r"\b(?P<what>CUDA|cuDNN)(?:[ \t]+(?:toolkit|runtime|version))?[ \t:]*v?"
    r"(?P<version>\d{1,2}(?:\.\d{1,2}){0,2})"
    r"(?![\w.]*\d)(?![ \t]*\+)",
    re.IGNORECASE,
)
"""A CUDA or cuDNN release (`CUDA 11.8`, `cuDNN 8`, `CUDA v12.1`); `CUDA 12+` is a range, not read."""
_ASIDE = re.compile(
    r"\bhosts?\b|\bdrivers?\b|nvidia-smi|\byour\b|\blocal(?:ly)?\b|\brequire|\bneeds?\b|\bprerequisite"
    r"|\bcompatib|\bif\b|\bwhen\b|\bwas\b|\bwere\b|\bprevious|\bolder\b|\blegacy\b|\bwill\b|\bplanned\b"
    r"|\btodo\b|\bfuture\b|\broadmap\b|\bcoming\b|\bor\b|\binstead\b|\bwheels?\b|\bbuild-arg\b|\bARG\b"
    r"|\bbase[ \t]+image\b|\bnvidia/cuda\b|\bcan\b|\bmay\b|\bcould\b|\bshould\b|\bsupports?[ \t]+up",
    re.IGNORECASE,
)
"""Words that make a sentence about the host, a choice, a condition or another image."""


def _base_repository(base: str) -> str:
    """`python` for `docker.io/library/python:3.12-slim@sha256:…`."""
    name = base.split("@", 1)[0].lower()
    last = name.rsplit("/", 1)[-1]
    if ":" in last:
        name = name[: len(name) - len(last)] + last.split(":", 1)[0]
    for prefix in ("docker.io/", "index.docker.io/", "library/"):
        if name.startswith(prefix):
            name = name[len(prefix) :]
    return name.removeprefix("library/")


def _requirements(model: ImageModel, text: str) -> Iterator[str]:
    """The text of each requirements file the Dockerfile installs with `-r` that the project holds, looked
    for beside the Dockerfile and in the folders above it (up to three)."""
    folder = Path(model.file).parent
    for match in _REQUIREMENTS.finditer(text):
        name = match.group(1).lstrip("./")
        if "$" in name:
            continue
        for up in (folder, *list(folder.parents)[:3]):
            for candidate in (up / name, up / Path(name).name):
                found = text_or_none(candidate, MAX_PROJECT_FILE_BYTES) if os.path.isfile(candidate) else None
                if found is not None:
                    yield found
                    break
            else:
                continue
            break


def _plain_image(model: ImageModel) -> list[int] | None:
    """The FROM lines of `model` when every stage starts from a plain image (`_PLAIN`) or an earlier
    stage and nothing its text runs, nor a requirements file it installs, may bring CUDA; None otherwise."""
    if not model.file or not model.stages:
        return None
    lines = []
    for stage in model.stages:
        if stage.parent is not None:
            continue
        if "$" in stage.base_raw or _base_repository(stage.base) not in _PLAIN:
            return None
        lines.append(stage.line)
    text = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES)
    if text is None:
        return None
    run = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    run = run.replace("\\\n", " ")  # an instruction continued on the next line is one line
    if _BRINGS_CUDA.search(run) or _PROJECT.search(run):
        return None
    if any(_BRINGS_CUDA.search(found) for found in _requirements(model, run)):
        return None
    return lines


def _bases(model: ImageModel, lines: list[int]) -> str:
    """`4,29 python:3.12-slim`: the FROM lines of `model` and the images they name."""
    images = sorted({stage.base for stage in model.stages if stage.parent is None})
    return f"{','.join(str(n) for n in lines)} {', '.join(images)}"


def plain_cuda(doc: Document, family: Auditor) -> Iterator[Diagnostic]:
    """A CUDA or cuDNN release `doc` says the image has where no image of `family` can hold one (see the
    module docstring), once per README line (`likely`)."""
    models = list(family.models)
    if not models:
        return
    plain: list[tuple[ImageModel, list[int]]] | None = None
    titles = dict(doc.headings)
    told: set[int] = set()
    for section, lines in texts_and_rows(doc):
        if NOT_THE_IMAGE.search(titles.get(section, "")):
            continue
        for start, _end, sentence in sentences(lines):
            claims = list(_CLAIM.finditer(sentence))
            if not claims or _ASIDE.search(sentence):
                continue
            if plain is None:
                plain = [(m, found) for m in models if (found := _plain_image(m)) is not None]
                if len(plain) != len(models):
                    return
            line = line_at(lines, start + claims[0].start())
            if line in told:
                continue
            told.add(line)
            said = " and ".join(f"{m.group('what')} {m.group('version')}" for m in claims)
            where = "; ".join(f"{model.path}:{_bases(model, at)}" for model, at in plain)
            yield Diagnostic(
                family.path,
                line,
                f"README says the image has {said}, but every stage starts from an image without CUDA "
                f"({where}) and nothing the Dockerfile installs brings CUDA",
                confidence=LIKELY,
            )
