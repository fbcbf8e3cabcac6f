"""A base-image tag a README offers for a build arg (`CUDA_TAG=12.4.1-cudnn-runtime-ubuntu22.04`,
`--build-arg BASE=nvidia/cuda:12.1.0-base-ubuntu22.04`) naming the `runtime` or `base` flavour of an
image family whose flavours the project knows (`baseimage.flavours`: `nvidia/cuda`), where the stage
whose FROM reads that arg (or a stage built on it) compiles CUDA code: `nvcc`, `WITH_CUDA=ON`,
`CUDA_ARCH_BIN`, `-DGGML_CUDA=ON`, `CMAKE_CUDA_ARCHITECTURES`, or `TORCH_CUDA_ARCH_LIST` with a source
build. The compiler and the CUDA headers are only in the `devel` flavour, so the build the README sets
up fails (`likely`: a build is read from words, not run).

Read: `NAME=value` in the README's code blocks (an assignment, `export`, `--build-arg`, an `.env` line),
NAME an arg a FROM of the audited Dockerfile reads. Told only when the Dockerfile's own default for NAME
makes that FROM a `devel` tag (the author builds on devel), the offered value makes it a `runtime` or
`base` tag of the same family, and the stage (or one built on it) compiles CUDA code while no
instruction of it installs the toolkit itself (`cuda-toolkit`, `cuda-nvcc`, `cuda-compiler`, conda's
`cuda-nvcc`). Silent for a stage that only copies what a devel stage built, and for a value with a
placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.baseimage import flavours, split_reference
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_OFFER = re.compile(
    r"(?:^|[\s'\"])([A-Za-z_][A-Za-z0-9_]*)=[\"']?([^\s\"'`;&|()<>{}$]+)[\"']?(?=[\s\"'`;&|)]|$)"
)
"""`NAME=value` as a code block gives it (an assignment, `--build-arg NAME=value`, `export NAME=value`)."""
_COMPILES = re.compile(
    r"\bnvcc\b|(?:\b|(?<=-D))(?:WITH_CUDA[ \t]*=[ \t]*ON\b|CUDA_ARCH_BIN\b|GGML_CUDA[ \t]*=[ \t]*(?:ON|1)\b"
    r"|LLAMA_(?:CUBLAS|CUDA)[ \t]*=[ \t]*(?:ON|1)\b|CMAKE_CUDA_(?:ARCHITECTURES|COMPILER)\b)",
    re.IGNORECASE,
)
"""Words of a build step that compiles CUDA code (needs nvcc and the CUDA headers)."""
_TORCH_ARCH = re.compile(r"\bTORCH_CUDA_ARCH_LIST\b")
_SOURCE_BUILD = re.compile(
    r"\bsetup\.py\b|\bbuild_ext\b|--no-build-isolation\b|\bgit\+|\bcmake\b|\bninja\b|\bmake\b"
    r"|\bpip3?[ \t]+install[ \t]+(?:-e[ \t]+)?\.(?:[ \t]|$)",
    re.IGNORECASE | re.MULTILINE,
)
"""A source build: with `TORCH_CUDA_ARCH_LIST`, an extension compiled for those GPUs."""
_TOOLKIT = re.compile(r"\bcuda-(?:toolkit|nvcc|compiler|libraries-dev|minimal-build)\b|\bcudatoolkit-dev\b")
"""Packages that bring nvcc and the headers into a runtime image."""
_BUILD_FLAVOURS = frozenset({"devel"})
_BARE_FLAVOURS = frozenset({"runtime", "base"})


def _arg_names(raw: str) -> list[str]:
    """The arg names a FROM reads (`${CUDA_TAG}`, `$BASE`, `${X:-y}`)."""
    return re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", raw)


def _flavour(reference: str) -> tuple[str, str] | None:
    """(family, flavour word) of `reference` when its family has known flavours and its tag names one."""
    name, tag = split_reference(reference)
    kinds = flavours(name)
    if not kinds or tag is None:
        return None
    words = set(tag.lower().split("-"))
    found = sorted(words & kinds)
    return (name, found[0]) if len(found) == 1 else None


def _stage_steps(model: ImageModel) -> dict[int, list[tuple[int, str, str]]] | None:
    """Stage index → (line, keyword, text) of each of its RUN, ENV and ARG instructions."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    _, parsed = read
    steps: dict[int, list[tuple[int, str, str]]] = {}
    index = -1
    for instruction in parsed.instructions:
        keyword = instruction.keyword.upper()
        if keyword == "FROM":
            index += 1
            steps[index] = []
        elif index >= 0 and keyword in ("RUN", "ENV", "ARG"):
            body = instruction.args
            for heredoc in instruction.heredocs:
                body += "\n" + heredoc.body
            steps[index].append((instruction.start_line, keyword, body))
    return steps


def _compiling_line(steps: list[tuple[int, str, str]]) -> tuple[int, str] | None:
    """(line, word) of the first step of a stage that compiles CUDA code, None when none does."""
    source = any(_SOURCE_BUILD.search(body) for _, keyword, body in steps if keyword == "RUN")
    for line, _, body in steps:
        found = _COMPILES.search(body) or (_TORCH_ARCH.search(body) if source else None)
        if found:
            return line, found.group(0)
    return None


def _offers(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(README line, NAME, value) of each `NAME=value` in a code block."""
    for fence in doc.fences:
        for line, text in fence.lines:
            for match in _OFFER.finditer(text):
                yield line, match.group(1), match.group(2)


def runtime_bases(doc: Document, family: Auditor) -> Iterator[Diagnostic]:
    """A `runtime`/`base` tag `doc` offers for the base arg of a stage that compiles CUDA code (see the
    module docstring), once per README line and arg (`likely`)."""
    models = [m for m in family.models if m.file and m.stages]
    if not models:
        return
    offers = list(_offers(doc))
    if not offers:
        return
    told: set[tuple[int, str]] = set()
    for model in models:
        read_by = {
            name: [
                stage for stage in model.stages if stage.parent is None and name in _arg_names(stage.base_raw)
            ]
            for name in {n for _, n, _ in offers}
        }
        read_by = {name: stages for name, stages in read_by.items() if stages}
        if not read_by:
            continue
        defaults = {a.name: a.default for a in model.args if a.stage is None and a.default is not None}
        steps: dict[int, list[tuple[int, str, str]]] | None = None
        for line, name, value in offers:
            if name not in read_by or (line, name) in told:
                continue
            for stage in read_by[name]:
                own = _substituted_ref(stage.base_raw, defaults)
                offered = _substituted_ref(stage.base_raw, {**defaults, name: value})
                if own is None or offered is None:
                    continue
                before, after = _flavour(own), _flavour(offered)
                if before is None or after is None or before[0] != after[0]:
                    continue
                if before[1] not in _BUILD_FLAVOURS or after[1] not in _BARE_FLAVOURS:
                    continue
                if steps is None:
                    steps = _stage_steps(model)
                    if steps is None:
                        return
                chain = [stage.index] + [
                    s.index for s in model.stages if _built_on(model, s.index, stage.index)
                ]
                if any(_TOOLKIT.search(b) for i in chain for _, k, b in steps.get(i, []) if k == "RUN"):
                    continue
                compiling = [c for i in chain if (c := _compiling_line(steps.get(i, []))) is not None]
                if not compiling:
                    continue
                told.add((line, name))
                at, word = compiling[0]
                yield Diagnostic(
                    family.path,
                    line,
                    f"README sets {name}={value}, a {after[1]} image of {after[0]} (no nvcc, no CUDA "
                    f"headers), but the stage built on it compiles CUDA code ({model.path}:{at} `{word}`; "
                    f"the Dockerfile's default {own} is a {before[1]} image)",
                    confidence=LIKELY,
                )
                break


def _built_on(model: ImageModel, index: int, root: int) -> bool:
    """Whether stage `index` is built on stage `root` (through its FROM chain), `index` != `root`."""
    seen = set()
    current = model.stages[index].parent
    while current is not None and current not in seen:
        if current == root:
            return True
        seen.add(current)
        current = model.stages[current].parent
    return False


def _substituted_ref(raw: str, values: dict[str, str]) -> str | None:
    """`raw` (a FROM's image as written) with each arg replaced by its value in `values`; None when one
    has no value."""
    pattern = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+][^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
    parts = []
    at = 0
    for match in pattern.finditer(raw):
        value = values.get(match.group(1) or match.group(2))
        if value is None:
            return None
        parts.append(raw[at : match.start()])
        parts.append(value)
        at = match.end()
    parts.append(raw[at:])
    return "".join(parts)
