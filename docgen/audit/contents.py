"""Claims that the image includes a component (`The image includes TensorRT`) or lacks one
(`TensorRT (Not Installed)`), against what the Dockerfiles install.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator

from docgen.audit.auditor import LIKELY, _Auditor
from docgen.audit.versions import _ALIASES, _keys, _norm, _raw
from docgen.audit.wording import _LIST_ITEM, _example
from docgen.model import Component, Diagnostic, ImageModel
from docgen.rows import renamed

_NOT_INSTALLED = re.compile(
    r"(?<![\w.+-])([A-Za-z][\w.+-]*[A-Za-z0-9])\**`?[ \t]*(?:[(:,–—-][ \t]*)?(?:is[ \t]+|are[ \t]+)?"
    r"not[ \t]+(?:installed|included|shipped|bundled|present)\b"
    r"|\b(?:does[ \t]+not|doesn't|do[ \t]+not|don't)[ \t]+(?:include|ship|contain|install|bundle)[ \t]+"
    r"(?:the[ \t]+|any[ \t]+)?`?([A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""`TensorRT (Not Installed)`, `TensorRT: not installed`, `flash-attn is not included`, `does not include
TensorRT`: the README says the image lacks a component."""
_MAYBE = re.compile(r"\bdefault\b|\bunless\b|\boptional|\bif\b|--build-arg|\bhost\b|\bbase\b", re.IGNORECASE)
"""Words that make an absence conditional (`not installed by default`, `unless INSTALL_TRT=1`) or about
something else (the host, the base image)."""
_PACKAGING = re.compile(r"\A(?:python3?-|lib)|(?:-dev|-devel|-headers|-runtime|-bin|-utils|[-_]?\d+)\Z")


def _installed_under(name: str) -> set[str]:
    """The names a package stands for: `tensorrt-dev` is TensorRT, `libcudnn8` cuDNN, `python3-libnvinfer`
    nvinfer; each normalised (`_norm`)."""
    found = {_norm(name)}
    current = name.lower()
    for _ in range(3):
        current = _PACKAGING.sub("", current)
        found.add(_norm(current))
    found.discard("")
    return found


def _final_components(model: ImageModel, named: str | None = None) -> list[Component]:
    """The components installed in the image built (the target stage and the stages it builds on), not
    base images and not ones installed only on some platform; with `named`, a stage's name the model
    has, in that stage and the stages it builds on."""
    stages: set[str] = set()
    stage = next((s for s in model.stages if s.name == named), model.target)
    while stage is not None:
        stages.add(stage.label)
        stage = model.stages[stage.parent] if stage.parent is not None else None
    return [c for c in model.components if c.stage in stages and c.kind != "image" and c.condition is None]


def _absence_claims(
    line: int, text: str, auditor: _Auditor, stage: str | None = None
) -> Iterator[Diagnostic]:
    """A component the README says the image lacks (`TensorRT (Not Installed)`, `does not include
    flash-attn`) that every Dockerfile compared installs, in the image built and on every platform.
    Names match through the name-equivalence table and a package's packaging (`tensorrt-dev`). With
    `stage` (the line describes a build stage: `_stage_lines`), what that stage holds, not the image."""
    if not _NOT_INSTALLED.search(text) or _MAYBE.search(text):
        return  # (the line read once for `_MAYBE`, not once a claim)
    for match in _NOT_INSTALLED.finditer(text):
        name = match.group(1) or match.group(2)
        if len(_norm(name)) < 3 or _example(text, match):
            continue
        wanted = _keys(name, auditor.names)
        installs = []
        for model in auditor.models:
            held = _final_components(model, stage)
            comp = next((c for c in held if _installed_under(c.name) & wanted), None)
            if comp is None:
                break
            installs.append((model, comp))
        else:
            model, comp = installs[0]
            yield Diagnostic(
                auditor.path,
                line,
                f"README says {name} is not installed but {model.path}:{comp.line} installs {comp.name}",
                confidence=LIKELY,
            )


_MARKS = r"[*_`]{0,6}"
"""The bold or code marks around a stage's name (`**`, `` ` ``, `` **` ``): a few, so that the `_` a
name may end with is split between the name and the marks a few ways, not once per `_` of a long run
(n `_` or `*` after a name cost n² to refuse, a list item or a heading of 4,000 of them 0.1 s)."""
_STAGE_ITEM = re.compile(
    rf"[ \t]*(?:[-*+]|\d{{1,9}}[.)])[ \t]+(?:stage[ \t]+)?[*_`]*([A-Za-z0-9][\w.-]*){_MARKS}"
    rf"(?:[ \t]+stage{_MARKS})?(?=[ \t]*(?:[:(—–-]|\Z))",
    re.IGNORECASE,
)
"""A list item that starts by naming a build stage: `2. **build_openvino**`, `- `runtime`: the final
image`, `* builder stage - compiles`."""
_STAGE_TITLE = re.compile(
    rf"(?:\d{{1,9}}[.)][ \t]*)?(?:stage[ \t]+)?[*_`]*([A-Za-z0-9][\w.-]*){_MARKS}(?:[ \t]+stage)?",
    re.IGNORECASE,
)
"""A heading that is a build stage's name (`### `builder` stage`, `### 2. build_openvino`)."""


def _stage_lines(lines: list[tuple[int, str]], heading: str, names: Collection[str]) -> dict[int, str]:
    """The README lines (of one paragraph or list, under `heading`) that describe a build stage (one of
    the stage `names`, `FROM … AS NAME`) → its name: the lines of a list item that starts with the name
    and of the items nested in it, and every line under a heading that is the name."""
    if not names:
        return {}
    title = _stage_title(heading)
    default = title if title in names else None
    found: dict[int, str] = {}
    current: tuple[str, int] | None = None  # the stage an item named, and the item's indentation
    for line, text in lines:
        if _LIST_ITEM.match(text):
            indent = len(text) - len(text.lstrip())
            item = _STAGE_ITEM.match(text)
            if item and item.group(1).lower() in names:
                current = (item.group(1).lower(), indent)
            elif current is not None and indent <= current[1]:
                current = None  # the next item of the list, naming no stage
        stage = current[0] if current else default
        if stage is not None:
            found[line] = stage
    return found


# Asked for each paragraph's heading: read once a heading, not once a paragraph.
@functools.lru_cache(maxsize=64)
def _stage_title(heading: str) -> str | None:
    """The build stage name a heading is, in lower case (`### `Builder` stage` → builder), else None."""
    title = _STAGE_TITLE.fullmatch(heading.strip())
    return title.group(1).lower() if title else None


_INCLUDES = re.compile(
    r"\b(?:image|container)[ \t]+(?:also[ \t]+)?"
    r"(?:includes|ships(?:[ \t]+with)?|comes[ \t]+with|contains|bundles)"
    r"[ \t]+(?:the[ \t]+)?`?([A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""`The image includes TensorRT`, `the container ships with NCCL`: the image is the subject (`make sure
CUDA is installed` is about the host)."""
_PLAIN_BASES = frozenset(
    {"ubuntu", "debian", "python", "alpine", "centos", "rockylinux", "fedora", "almalinux", "busybox"}
    | {"amazonlinux", "oraclelinux", "ubi8", "ubi9", "ubi-minimal", "ubi", "buildpack-deps", "opensuse"}
)
"""Base images that hold an operating system and at most a language, no GPU or ML component."""


def _presence_claims(line: int, text: str, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A component docgen knows (`TensorRT`, `NCCL`, `PyTorch` …) the README says the image includes
    that no Dockerfile compared ever names: built on a plain OS or language image, with nothing docgen
    could not read (an install script, a requirements file, a skipped construct), no component, stage,
    build arg or ENV whose name holds the component's name (`likely`)."""
    if not _INCLUDES.search(text) or _MAYBE.search(text):
        return  # (the line read once for `_MAYBE`, not once a claim)
    for match in _INCLUDES.finditer(text):
        name = match.group(1)
        key = _norm(name)
        if len(key) < 3 or key not in _known_keys() or _example(text, match):
            continue
        if all(_never_named(model, key) for model in auditor.models):
            model = auditor.models[0]
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the image includes {name} but {model.path} installs no {name}",
                confidence=LIKELY,
            )


@functools.cache
def _known_keys() -> frozenset[str]:
    """The normalised names of the components docgen knows by a display name (`torch`, `tensorrt` …)."""
    return frozenset(_norm(name) for name in renamed({}))


def _never_named(model: ImageModel, key: str) -> bool:
    """True when `model` is built on plain OS or language images only, docgen read all of it (no
    requirements file, install script or download), and no component, base image, build arg or ENV of
    it is named after `key` (a normalised name)."""
    unread = any(c.method in ("requirements", "script") or c.kind == "download" for c in model.components)
    if model.skipped or unread:
        return False  # a requirements file, an installer, a download: may install anything
    bases = [stage.base for stage in model.stages if stage.parent is None]
    for base in bases:
        repo = base.split("@", 1)[0].rsplit(":", 1)[0] if ":" in base.rsplit("/", 1)[-1] else base
        if repo.rsplit("/", 1)[-1].lower() not in _PLAIN_BASES:
            return False
    raw = {k for k, v in _ALIASES.items() if v == key} | {key}
    words = [c.name for c in model.components] + [a.name for a in model.args] + [e.name for e in model.env]
    words += [e.value or "" for e in model.env] + bases
    return not any(r in _raw(word) for word in words for r in raw)
