"""The table rows derived from the model: build args, Key versions, contents and Supported hardware,
the names components are shown by (the well-known spellings and the configured ones), and the options
the sections are rendered with.

Pure functions of an `ImageModel`: no Markdown escaping and no Jinja2 here (`docgen.render` turns the
rows into Markdown), so `audit`, `drift`, `init` and `show` use them without loading a template engine.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen import baseimage, hardware
from docgen.components import stages_not_chosen
from docgen.errors import ConfigError
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.hardcoded import note_for
from docgen.model import (
    GLOBAL_SCOPE,
    ArgDecl,
    BuildArgRow,
    Component,
    Gpu,
    HardCoded,
    Hardware,
    ImageModel,
    PackageGroup,
    VersionRow,
    short_commit,
)
from docgen.sources.naming import forked_project, repo_name, repository_path

# --------------------------------------------------------------------------------------------------
# Rows


def _user_args(model: ImageModel) -> list[ArgDecl]:
    """The build args a user may pass: not those BuildKit sets, nor the proxy args Docker predefines
    unless the Dockerfile gives one a default of its own (`ARG http_proxy=http://10.0.0.1:3128`
    changes what every build sees, so the table lists it)."""
    proxies = {a.name for a in model.args if a.name in PROXY_ARGS and a.raw_default is not None}
    return [
        a
        for a in model.args
        if a.name not in PREDEFINED_ARGS and (a.name not in PROXY_ARGS or a.name in proxies)
    ]


def _repeats(decl: ArgDecl, decls: list[ArgDecl]) -> bool:
    """True for a bare re-declaration that only brings an earlier declaration's value into scope."""
    return decl.bare and any(d.line < decl.line for d in decls)


def build_arg_rows(model: ImageModel) -> tuple[BuildArgRow, ...]:
    """One row per ARG name a user can pass, in the order names first appear."""
    by_name: dict[str, list[ArgDecl]] = {}
    for decl in _user_args(model):
        by_name.setdefault(decl.name, []).append(decl)
    hardcoded: dict[str, list[HardCoded]] = {}
    for entry in model.hardcoded:
        hardcoded.setdefault(entry.arg, []).append(entry)
    from_lines = {s.line for s in model.stages}
    given = dict(model.build_args)
    rows = []
    for name, decls in by_name.items():
        defaults: dict[str | None, list[str]] = {}
        declared = [d for d in decls if not _repeats(d, decls)]
        for decl in declared:
            defaults.setdefault(decl.effective_default, []).append(decl.scope)
        stages = tuple(dict.fromkeys(d.scope for d in decls if d.scope != GLOBAL_SCOPE))
        rows.append(
            BuildArgRow(
                name=name,
                defaults=tuple((value, tuple(dict.fromkeys(st))) for value, st in defaults.items()),
                purpose=next((d.description for d in decls if d.description), ""),
                stages=stages,
                line=decls[0].line,
                unknown=next((d.unknown for d in decls if d.unknown), None),
                notes=(
                    *((note_for(hardcoded[name]),) if name in hardcoded else ()),
                    *((_given_note(given[name], decls),) if name in given else ()),
                ),
                from_lines=any(d.is_global and from_lines.intersection(d.used_lines) for d in decls),
            )
        )
    return tuple(rows)


def _given_note(value: str, decls: list[ArgDecl]) -> str:
    """What a row says when the image's `args` set the value its Default column shows: the Dockerfile
    read on its own (and `docker build` without that `--build-arg`) gives what its ARG line writes."""
    written = next((d.raw_default for d in decls if d.raw_default is not None), None)
    if written is None:
        return f"{value} is given for this image by the configuration (args)."
    own = written.strip("\"'")
    return f"{value} is given for this image by the configuration (args); the Dockerfile's default is {own}."


VERSION_ARG = re.compile(r"(?:^|_)(VERSION|VER|TAG|COMMIT|REF|SHA|BRANCH|RELEASE)$")
"""A build arg whose name says it sets a version or ref (`TORCH_VERSION`, `TE_TAG`): its name stem says
of what (Key versions rows here, `docgen audit`'s checks of the README)."""
_KNOWN_NAMES = {
    "rocm": "ROCm",
    "amdgpu": "AMDGPU driver",
    "python": "Python",
    "cuda": "CUDA",
    "nvidia/cuda": "CUDA",
    "cudnn": "cuDNN",
    "cann": "CANN",
    "nccl": "NCCL",
    "rccl": "RCCL",
    "torch": "PyTorch",
    "pytorch": "PyTorch",
    "triton": "Triton",
    "pytorch-triton-rocm": "Triton",
    "pytorch-triton-xpu": "Triton",
    "triton-xpu": "Triton",
    "triton-ascend": "Triton",
    "triton_ascend": "Triton",
    "vllm": "vLLM",
    "sglang": "SGLang",
    "fa": "Flash Attention",
    "flash-attention": "Flash Attention",
    "flash_attn": "Flash Attention",
    "flash-attn": "Flash Attention",
    "flashinfer": "FlashInfer",
    "flashinfer-python": "FlashInfer",
    "te": "TransformerEngine",
    "transformerengine": "TransformerEngine",
    "transformer-engine": "TransformerEngine",
    "transformer_engine": "TransformerEngine",
    "aiter": "aiter",
    "megatron-core": "Megatron-core",
    "megatron-lm": "Megatron-LM",
    "deepspeed": "DeepSpeed",
    "xformers": "xFormers",
    "jax": "JAX",
    "jaxlib": "JAX",
    "tensorflow": "TensorFlow",
    "tensorrt": "TensorRT",
    "tensorrt-llm": "TensorRT-LLM",
    "vllm-ascend": "vLLM Ascend",
    "torch-npu": "torch-npu",
    "torch_npu": "torch-npu",
    "paddlepaddle": "PaddlePaddle",
    "paddlepaddle-gpu": "PaddlePaddle",
    "mindspore": "MindSpore",
    "onnxruntime": "ONNX Runtime",
    "onnxruntime-gpu": "ONNX Runtime",
    "openvino": "OpenVINO",
    "lmdeploy": "LMDeploy",
    "ubuntu": "Ubuntu",
    "cmake": "CMake",
}
_KEY_NAMES = frozenset(
    {
        "ROCm",
        "CUDA",
        "cuDNN",
        "CANN",
        "NCCL",
        "RCCL",
        "Python",
        "PyTorch",
        "Triton",
        "vLLM",
        "vLLM Ascend",
        "torch-npu",
        "SGLang",
        "Flash Attention",
        "FlashInfer",
        "TransformerEngine",
        "aiter",
        "Megatron-core",
        "Megatron-LM",
        "DeepSpeed",
        "xFormers",
        "JAX",
        "TensorFlow",
        "TensorRT",
        "TensorRT-LLM",
        "PaddlePaddle",
        "MindSpore",
        "ONNX Runtime",
        "OpenVINO",
        "LMDeploy",
    }
)
"""Display names that make a component a Key versions row by default."""
_LIBRARY_WHEELS = {"nccl": "NCCL", "cudnn": "cuDNN"}
_LIBRARY_WHEEL = re.compile(r"nvidia-(nccl|cudnn)-cu[0-9]+")
"""NVIDIA's PyPI packages of a key library (`nvidia-nccl-cu12`, `nvidia-cudnn-cu13`): its Key versions row."""
_LIBRARY_DEB = re.compile(r"lib(nccl|cudnn)[0-9]*(?:-cuda-[0-9]+)?(?:-dev)?")
"""NVIDIA's Debian packages of a key library (`libcudnn8`, `libcudnn9-cuda-12`, `libnccl2`, `libnccl-dev`):
its Key versions row, like the PyPI ones."""


def renamed(names: Mapping[str, str]) -> set[str]:
    """Every spelling `display_name` turns into another name (the config's and the well-known ones)."""
    return {*names, *_KNOWN_NAMES}


def display_name(name: str, names: Mapping[str, str]) -> str:
    """The name shown for a component or arg: the config's choice, a well-known spelling, or `name`."""
    if name in names:
        return names[name]
    key = name.lower()
    return names.get(key) or _KNOWN_NAMES.get(key, name)


def _configured_label(comp: Component, names: Mapping[str, str]) -> str | None:
    """The whole label the config gives a git source by its repository (`"ROCm/flash-attention" =
    "Flash Attention (ROCm fork)"`, matched case-insensitively), else None."""
    path = repository_path(comp.source) if comp.kind == "git" and comp.source else None
    if path is None:
        return None
    wanted = path.lower()
    return next((shown for key, shown in names.items() if key.lower() == wanted), None)


def component_name(comp: Component, names: Mapping[str, str]) -> str:
    """The name shown for a component, first match wins: the config's name for its repository
    (`owner/repo`), for the build arg that sets its version or ref (`TE_TAG`), for its own name (exact,
    then lower-case), then the project a fork built from a repository named after it with fork words
    is (`RLFoundation/vllm-patch` → vLLM; see `naming.forked_project`), then the package a well-known
    repository builds (`pytorch/vision` → torchvision),
    then a well-known spelling (`torch` → PyTorch), then its name as found. An arg
    that only appears in the name (`python${PYTHON_VERSION}-dev`) does not name the component."""
    configured = _configured_label(comp, names)
    if configured is not None:
        return configured
    if comp.arg and (comp.version or comp.ref) and comp.arg in names:
        return names[comp.arg]
    if comp.name in names or comp.name.lower() in names:
        return display_name(comp.name, names)
    path = repository_path(comp.source) if comp.kind == "git" and comp.source else None
    if comp.fork and path and comp.name == repo_name(path):
        # a fork built from a repository named after the project (`RLFoundation/vllm-patch`): the project
        project = forked_project(comp.name)
        if project is not None:
            return display_name(project, names)
    return _KNOWN_REPOSITORIES.get(path.lower() if path else "") or display_name(comp.name, names)


_KNOWN_REPOSITORIES = {
    "pytorch/vision": "torchvision",
    "pytorch/audio": "torchaudio",
    "pytorch/text": "torchtext",
}
"""Repositories whose name is not the name of what they build (`git clone …/pytorch/vision`)."""


def component_label(comp: Component | PackageGroup, names: Mapping[str, str]) -> str:
    """The Component cell of the contents table (unescaped): the shown name, with `(OWNER fork)` for a
    fork (see `naming.fork_of`) unless the config labels the repository itself."""
    if isinstance(comp, PackageGroup):
        return comp.name
    shown = component_name(comp, names)
    if comp.fork and _configured_label(comp, names) is None:
        shown += f" ({comp.fork} fork)"
    if comp.condition:
        shown += f" ({comp.condition})"
    return shown


def _key_version(comp: Component) -> str:
    """The version a Key versions row shows: the release as the contents table shows it (a post or dev
    release `0.6.3.post1`, `2.9.1.dev20251204` is a release of its own), the short ref for git. A long
    local label is left out (`2.9.1.dev20251204` for `2.9.1.dev20251204+rocm7.0.2.lw.git351ff442`) only
    when the row's link, the wheel's URL, shows it whole."""
    version = comp.version
    if version and "+" in version and comp.kind in ("pip", "wheel", "download"):
        shown = (comp.source or "").replace("%2B", "+").replace("%2b", "+")
        if version in shown:
            return version.split("+", 1)[0]
    if version and "-" in version and comp.kind == "download":
        # a package file's version with a build or revision after the release
        # (`cuda-repo-…_12.4.1-550.54.15-1_amd64.deb` from `…/cuda/12.4.1/…`): the release, when a
        # folder of its URL names it too
        release = version.split("-", 1)[0]
        if f"/{release}/" in (comp.source or ""):
            return release
    return comp.display_version


_RELEASE_NUMBER = re.compile(r"[0-9]+\.[0-9]+")


def _release_line(comp: Component) -> bool:
    """True for a git source checked out at a release branch, a branch named after a release
    (`release_v2.11`, `core_r0.16.0`, `release/2.10`): it moves, but within that release line, which is
    what a reader of Key versions wants to know of a key item (`main` says nothing)."""
    return comp.kind == "git" and comp.ref_kind == "branch" and bool(_RELEASE_NUMBER.search(comp.ref or ""))


_PYTHON_PACKAGE = re.compile(r"python(3\.[0-9]+)")
"""A distribution package that is one Python release (`python3.12` from deadsnakes, `python3.11` of
dnf): its name is the version of the Python the image has."""
_DISTRIBUTION_KINDS = frozenset({"apt", "apk", "rpm"})


def _python_of(comp: Component) -> str | None:
    """The Python release an unpinned distribution package named after it installs (`python3.12`);
    None for one named from a build arg (`python${PYTHON_VERSION}`): that arg's row says it."""
    if comp.kind not in _DISTRIBUTION_KINDS or comp.condition or comp.arg:
        return None
    match = _PYTHON_PACKAGE.fullmatch(comp.name)
    return match.group(1) if match else None


def _target_images(model: ImageModel) -> set[int]:
    """Lines of the FROM instructions the default target is built on (its chain of parents)."""
    lines: set[int] = set()
    stage = model.target
    while stage is not None:
        if stage.parent is None:
            lines.add(stage.line)
            break
        stage = model.stages[stage.parent]
    return lines


def image_stages(model: ImageModel) -> tuple[set[str], set[str]]:
    """Labels of the stages whose contents are in the image the default target makes: (its own
    stages, the stages that supply it). Its own are the target and the stages it is built FROM; a
    supplier is a stage one of those copies or mounts files from, and, transitively, a stage a
    supplier copies files from. A stage whose files a supplier only mounts for a RUN that copies
    nothing out (`pip install /wheels/*.whl` in a stage that builds another wheel) supplies nothing:
    what it built was used up there (`Stage.used_up`)."""
    own = {s.index for s in model.chain()}
    todo = [d for i in own for d in model.stages[i].depends_on]
    supplied: set[int] = set()
    while todo:
        index = todo.pop()
        if index in supplied or index in own:
            continue
        supplied.add(index)
        stage = model.stages[index]
        todo.extend(d for d in stage.depends_on if d not in stage.used_up)
        if stage.parent is not None:
            todo.append(stage.parent)
    return {model.stages[i].label for i in own}, {model.stages[i].label for i in supplied}


def _global_args(model: ImageModel) -> tuple[dict[str, str | None], dict[str, str]]:
    """The global build args FROM lines read: their values, and their defaults as written."""
    values = {a.name: a.effective_default for a in model.args if a.is_global}
    written = {a.name: a.raw_default for a in model.args if a.is_global and a.raw_default}
    return values, written


def base_images(model: ImageModel) -> tuple[str, ...]:
    """The external image the default target is built on (after ARG expansion), when there is one."""
    lines = _target_images(model)
    return tuple(s.base for s in model.stages if s.line in lines and s.parent is None)


def version_rows(
    model: ImageModel,
    names: Mapping[str, str],
    wanted: tuple[str, ...] | None,
    where: tuple[str, int | None] | None = None,
    *,
    provides: Mapping[str, Mapping[str, str]] | None = None,
    provides_file: str | None = None,
    produced: Mapping[str, tuple[VersionRow, ...]] | None = None,
) -> list[VersionRow]:
    """The Key versions rows.

    Default choice (no `versions` in the config), in Dockerfile order:

    - the base image the default target is built on: the versions its reference states (CUDA, ROCm,
      the OS, Python … see `docgen.baseimage`), the versions the configuration declares for it
      (`provides`, from `provides_file`) and the rows of the configured Dockerfile that builds it
      (`produced`, keyed by image name); the image itself when none of those says anything. A row
      the Dockerfile gives itself wins over one of the same name from its base image;
    - every pinned component whose display name is a well-known key item (ROCm, CUDA, cuDNN, NCCL,
      Python, PyTorch, torch-npu, Triton, vLLM, SGLang, Flash Attention, FlashInfer, TransformerEngine,
      aiter, Megatron, DeepSpeed, xFormers, JAX, TensorFlow, TensorRT; NVIDIA's `nvidia-nccl-cu12` and
      `nvidia-cudnn-cu12` packages count as NCCL and cuDNN), the first one of each name; Python packages
      show their public release (`2.9.1` for `2.9.1.dev20251204+rocm7.0.2…`), git sources their short ref;
    - version-like build args (`*_VERSION`, `*_TAG`, `*_COMMIT` …) whose name stem is such an item and
      that no component row covers (`PYTHON_VERSION` → Python), with the source of a component that uses
      the arg;
    - none of a stage the default target does not build (`FROM fetch_${REMOTE}` picks one of two), nor
      from an arg in scope only there, nor from an arg every use of which sits in a shell branch the
      default build does not take (`if [ "$BUILD_VLLM" = "1" ]` under `ENV BUILD_VLLM=0`; a branch
      whose test docgen cannot decide counts);
    - when none of those items but Python is found (a Dockerfile docgen knows nothing about), every
      pinned component set by a build arg and every version-like build arg too.

    With `wanted` (the config's `versions` list), the rows are the candidates (any pinned component,
    any version-like build arg, any base image row) whose display name, component name or build arg is
    in the list, in the list's order. An entry that matches nothing is a `ConfigError` at `where` (the
    config file and the line of its `versions` key), when given: the row would otherwise vanish
    without a word.
    """
    # (row, component or arg name, key item, position in the table)
    candidates: list[tuple[VersionRow, str, bool, int]] = []
    key_items: set[int] = set()  # ids of the rows of well-known key items (not just the base image)
    image_lines = _target_images(model)
    defaults, written = _global_args(model)
    raws = {s.line: s.base_raw for s in model.stages}
    own, supplied = image_stages(model)
    built = own | supplied
    from_suppliers: set[int] = set()  # ids of the rows of what a stage that supplies files built
    told: set[int] = set()  # ids of the rows of base images whose tag gave rows of their own
    for comp in model.components:
        if comp.stage not in built:
            continue  # a stage the default build skips, or whose artifact is used up on the way
        is_base = comp.kind == "image" and comp.line in image_lines
        based: list[VersionRow] = []
        if is_base and comp.source:
            based = baseimage.image_rows(
                comp.source, raws.get(comp.line, comp.source), comp.line, defaults,
                provides or {}, provides_file, produced or {}, written,
            )  # fmt: skip
            candidates += [(row, comp.name, True, comp.line) for row in based]
            key_items.update(id(row) for row in based if row.name in _KEY_NAMES)
        python = None if comp.pinned else _python_of(comp)
        if python is not None:  # `apt-get install python3.12`: the name is the version
            row = VersionRow("Python", python, comp.source, comp.line, comp.arg)
            key_items.add(id(row))
            candidates.append((row, comp.name, True, comp.line))
            continue
        if not comp.pinned and not _release_line(comp):
            continue
        if based or (comp.kind == "image" and baseimage.read_reference(comp.source or "")):
            # the image itself, by its name, for a `versions` entry that asks for it; its versions
            # are rows of their own when the default target is built on it, else not key items
            # (`nvidia/cuda:…-devel` of a build stage says nothing of the CUDA the image ships)
            row = VersionRow(
                comp.name, comp.display_version, comp.source, comp.line, comp.arg, value_line=comp.value_line
            )
            candidates.append((row, comp.name, False, comp.line))
            if based:
                told.add(id(row))
            continue
        label = component_name(comp, names)
        wheel_of = _LIBRARY_WHEEL.fullmatch(comp.name.lower()) if comp.kind in ("pip", "wheel") else None
        if comp.kind == "apt":
            wheel_of = _LIBRARY_DEB.fullmatch(comp.name.lower())
        if wheel_of and label == comp.name:  # `nvidia-nccl-cu12==2.27.6` is the NCCL the image uses
            label = _LIBRARY_WHEELS[wheel_of.group(1)]
        # a key item under the name the config gives it too (`TE_TAG = "Transformer Engine"`); one
        # installed on one platform only (an arm64 nightly torch) is not the image's version
        key_item = not comp.condition and (label in _KEY_NAMES or display_name(comp.name, {}) in _KEY_NAMES)
        if not comp.pinned and not key_item:
            continue  # a release branch names the release line of a key item only
        version = _key_version(comp) if key_item else comp.display_version
        row = VersionRow(label, version, comp.source, comp.line, comp.arg, value_line=comp.value_line)
        if key_item:
            key_items.add(id(row))
        if comp.stage in supplied:
            from_suppliers.add(id(row))
        candidates.append((row, comp.name, key_item or is_base, comp.line))
    covered = {row.arg for row, _, _, _ in candidates if row.arg and row.origin != "base-dockerfile"}
    sources: dict[str, str] = {}
    for comp in model.components:
        if comp.arg and comp.source:
            sources.setdefault(comp.arg, comp.source)
    seen_args: set[str] = set()
    unchosen = stages_not_chosen(model.stages)
    unreached = set(model.unreached_uses)
    for decl in _user_args(model):
        match = VERSION_ARG.search(decl.name)
        if not match or decl.name in covered or decl.name in seen_args or not decl.effective_default:
            continue
        if decl.stages and built.isdisjoint(decl.stages):
            continue  # in scope only in stages the default build skips: it sets nothing the image has
        if decl.stages and all(label in unchosen for label in decl.stages):
            continue  # used only in stages the default build does not build (`VLLM_BRANCH`, REMOTE_VLLM=0)
        if decl.used_lines and all((decl.name, line) in unreached for line in decl.used_lines):
            continue  # read only in shell branches the default build does not take, like a clone there
        if match.start() == 0:  # `ARG VER=12-3`, `ARG VERSION`: no name says what it is the version of
            continue
        seen_args.add(decl.name)
        stem = decl.name[: match.start()] or decl.name
        label = names.get(decl.name) or display_name(stem.replace("_", "-"), names)
        row = VersionRow(
            label, short_commit(decl.effective_default), sources.get(decl.name), decl.line, decl.name
        )
        key_item = label in _KEY_NAMES or display_name(stem.replace("_", "-"), {}) in _KEY_NAMES
        if key_item:
            key_items.add(id(row))
        candidates.append((row, decl.name, key_item, decl.line))
    # the Dockerfile's own rows first: what the image's own stages install wins over what a stage
    # that supplies files built (`pip install triton==3.2.0` in the final stage over the Triton a
    # wheel stage builds), and both over what its base image brings
    candidates.sort(key=lambda c: (c[0].origin is not None, id(c[0]) in from_suppliers))
    if wanted is not None:
        order: dict[str, int] = {}
        for i, w in enumerate(wanted):
            if order.setdefault(w.lower(), i) != i and where is not None:
                raise ConfigError(f"versions: {w!r} is listed twice; list each row once", *where)
        picked: dict[int, VersionRow] = {}
        also: dict[int, int] = {}  # an entry naming a row another entry picked -> that entry
        for row, name, _, _ in candidates:
            position = _wanted_key(row, name, order)
            if position is not None and position not in picked:
                picked[position] = row
                for spelling in (row.name.lower(), name.lower(), (row.arg or "").lower()):
                    also.setdefault(order.get(spelling, position), position)
        missing = [w for i, w in enumerate(wanted) if i not in picked and order[w.lower()] == i]
        twice = [i for i, w in enumerate(wanted) if w in missing and also.get(i, i) != i]
        if twice and where is not None:
            row = picked[also[twice[0]]]
            pair = sorted((twice[0], also[twice[0]]))
            raise ConfigError(
                f"versions: {wanted[pair[0]]!r} and {wanted[pair[1]]!r} name the same row "
                f"({row.name}, {model.path}:{row.line}); list each row once",
                *where,
            )
        if missing and where is not None:
            shown = {c[0].name.lower(): c[0].name for c in candidates}  # `Ubuntu` (its tag) over `ubuntu`
            known = ", ".join(sorted(shown.values(), key=str.lower)) or "none"
            raise ConfigError(
                f"versions: {', '.join(map(repr, missing))} matches no pinned component or version-like "
                f"build arg of {model.path} (the Dockerfile may have dropped it; known: {known})",
                *where,
            )
        return [picked[i] for i in sorted(picked)]
    keyed = [(row, key, position) for row, _, key, position in candidates]
    # Python alone (a `py310` base image tag) does not make the Dockerfile one docgen knows about
    if not any(id(row) in key_items and row.name != "Python" for row, _, _ in keyed):
        keyed = [
            (row, key or (row.arg is not None and id(row) not in told), position)
            for row, key, position in keyed
        ]
    unique: dict[str, tuple[VersionRow, int]] = {}
    for row, key, position in sorted(
        keyed, key=lambda t: (t[0].origin is not None, id(t[0]) in from_suppliers, t[2])
    ):
        if key:
            unique.setdefault(row.name.lower(), (row, position))
    return [row for row, _ in sorted(unique.values(), key=lambda t: t[1])]


def _wanted_key(row: VersionRow, name: str, order: Mapping[str, int]) -> int | None:
    for key in (row.name.lower(), name.lower(), (row.arg or "").lower()):
        if key in order:
            return order[key]
    return None


# The contents table keeps a row of its own for every key component: anything pinned, anything that
# is not a distribution or registry package (base images, downloads, git sources, repositories,
# requirements files), and packages docgen knows as GPU/ML components. The other packages, unpinned
# helpers the build needs (apt's build-essential and git, pip's setuptools, wheel and ninja), are
# grouped: one row per install command.
_GROUPED_KINDS = frozenset({"apt", "apk", "rpm", "pip", "conda", "npm"})
_REPOSITORY_KINDS = frozenset({"apt", "apk", "rpm", "conda"})
_KEY_PACKAGES = frozenset(
    {
        *_KNOWN_NAMES, "torchvision", "torchaudio", "torchao", "apex", "transformers", "megatron",
        "flashinfer", "flashinfer-python", "flash-mla", "deep-ep", "deep-gemm", "cupy", "nvidia", "libnccl",
        "libcudnn", "cuda-toolkit", "tensorrt", "onnxruntime", "bitsandbytes", "peft", "trl",
        "accelerate", "liger-kernel", "mamba-ssm", "causal-conv1d", "ray", "hip", "hipblaslt", "rocblas",
        "miopen", "composable-kernel", "amd-smi", "amdsmi", "rocm-smi", "mooncake-transfer-engine",
        "nixl", "ucx", "openmpi", "libopenmpi", "mpi4py", "nvshmem", "lmcache", "xgrammar", "vllm-rocm",
    }
)  # fmt: skip
_LONGEST_KEY = max(map(len, _KEY_PACKAGES))
_NOT_KEY = frozenset({"cmake", "ubuntu", "python", "fa", "te"})
"""Well-known names that are build tools or too short to start a name, not GPU/ML components."""


def is_key_package(name: str) -> bool:
    """True for a package docgen knows as a GPU/ML component: a name of `_KEY_PACKAGES`, or one of them
    followed by a dash or a digit (`cupy-rocm-7-0`, `nvidia-cudnn-cu12`, `libnccl2`, `rocm-dev`)."""
    low = re.sub(r"[_.]", "-", name.lower())
    if low in _KEY_PACKAGES:
        return low not in _NOT_KEY
    return any(
        (char == "-" or char.isdigit()) and low[:i] in _KEY_PACKAGES and low[:i] not in _NOT_KEY
        for i, char in enumerate(low[: _LONGEST_KEY + 1])
    )


def _is_key(comp: Component) -> bool:
    return (
        comp.pinned
        or comp.condition is not None  # a row of its own, so its platform note shows
        or comp.kind not in _GROUPED_KINDS
        or comp.method == "requirements"
        or is_key_package(comp.name)
    )


def _shared_source(sources: list[str | None]) -> str | None:
    """The source every member has, else the scheme and host every member's URL has, else None."""
    if not sources or any(s is None for s in sources):
        return None
    if len(set(sources)) == 1:
        return sources[0]
    hosts = {m.group(0) if (m := re.match(r"https?://[^/?#]+/", s or "")) else None for s in sources}
    return hosts.pop() if len(hosts) == 1 else None


def _same_as_repository(comp: Component, repos: Mapping[tuple[str, str], Component]) -> bool:
    """True for a package installed from a repository of the same name that is itself a row (`apt-get
    install rocm` from `…/rocm/apt/7.0.2/`): the repository row already says what it is and its version."""
    repo = repos.get((comp.stage, comp.source)) if comp.source else None
    return repo is not None and repo.name.lower() == comp.name.lower() and not comp.version


def _member(comp: Component) -> str:
    """A package as a group lists it: its name, with the range it was asked for (`numpy<2`)."""
    if not comp.version:
        return comp.name
    return comp.name + comp.version if comp.version[0] in "<>=!~" else f"{comp.name} {comp.version}"


@dataclass(frozen=True)
class ContentsRows:
    """The rows of the contents table, by part."""

    prebuilt: list[Component]
    """Key components installed from published packages, wheels and images."""
    from_source: list[Component]
    """Key components checked out and built."""
    packages: list[Component | PackageGroup]
    """The rest, by line: key packages, repositories, requirements files, checkouts, and one
    `PackageGroup` per install command for the other packages (a lone one as itself)."""


def contents_rows(components: Iterable[Component], instruction_lines: Sequence[int] = ()) -> ContentsRows:
    """Which rows the contents table has (see `_is_key` and `PackageGroup`): the packages that are not
    key components are grouped by kind and instruction (`instruction_lines`, the first line of each;
    without them, by line), one row for an instruction's `apt-get install` spread over several lines.

    Nothing is listed twice: a package that repeats the repository row it comes from is dropped, and so
    is a row identical to an earlier one of the same stage.
    """
    comps = list(components)
    repos = {(c.stage, c.source): c for c in comps if c.kind.endswith("-repo") and c.source}
    prebuilt: list[Component] = []
    from_source: list[Component] = []
    rest: list[tuple[int, int, Component | PackageGroup]] = []
    groups: dict[tuple[str, str, int, str | None], list[tuple[int, Component]]] = {}
    seen: set[tuple[object, ...]] = set()
    for order, comp in enumerate(comps):
        same = (comp.name, comp.kind, comp.version, comp.ref, comp.source, comp.stage)
        if same in seen or (comp.kind in _GROUPED_KINDS and _same_as_repository(comp, repos)):
            continue
        seen.add(same)
        if not _is_key(comp):
            at = bisect.bisect_right(instruction_lines, comp.line) - 1
            instruction = instruction_lines[at] if at >= 0 else comp.line
            # a distribution package's source is its repository (a PPA, a channel): one row per repository
            repository = comp.source if comp.kind in _REPOSITORY_KINDS else None
            groups.setdefault((comp.kind, comp.stage, instruction, repository), []).append((order, comp))
        elif comp.method == "prebuilt":
            prebuilt.append(comp)
        elif comp.method == "source":
            from_source.append(comp)
        else:
            rest.append((comp.line, order, comp))
    for (kind, stage, _, _), members in groups.items():
        first, line = members[0][0], members[0][1].line
        if len(members) == 1:
            rest.append((line, first, members[0][1]))
            continue
        names = tuple(dict.fromkeys(_member(m) for _, m in members))
        source = _shared_source([m.source for _, m in members])
        rest.append((line, first, PackageGroup(kind, names, source, stage, line)))
    return ContentsRows(prebuilt, from_source, [row for _, _, row in sorted(rest, key=lambda t: t[:2])])


def declares(model: ImageModel, name: str) -> bool:
    """True when the Dockerfile has an ARG or ENV called `name`."""
    return any(d.name == name for d in model.args) or any(e.name == name for e in model.env)


def arch_value(model: ImageModel, arch_arg: str) -> tuple[str | None, int | None]:
    """The value of the architecture arg (an ARG default, else an ENV of that name) and its line."""
    for decl in model.args:
        if decl.name == arch_arg and decl.effective_default:
            return decl.effective_default, decl.line
    for env in model.env:
        if env.name == arch_arg and env.value:
            return env.value, env.line
    return None, None


_TARGET_LIST = re.compile(r"(?:ARCH|ARCHS|ARCH_LIST|TARGETS|ARCHITECTURES)\Z")
"""Names of the variables build tools read a GPU target list from (`AITER_ROCM_ARCH`, `GPU_TARGETS`)."""


def _other_target_lists(
    model: ImageModel, arch_arg: str, main: tuple[Gpu, ...]
) -> tuple[tuple[str, str, int], ...]:
    """The other target lists of the default target (ENV, else an ARG in scope there) naming only known
    targets of the vendor of `main`, but not the same ones: what reads them is built for those GPUs."""
    target = model.target.label if model.target is not None else None
    vendors = {gpu.vendor for gpu in main}
    wanted = {gpu.target for gpu in main}
    values: dict[str, tuple[str, int]] = {}
    for decl in model.args:
        if target in decl.stages and decl.effective_default and decl.name not in PREDEFINED_ARGS:
            values[decl.name] = (decl.effective_default, decl.line)
    for env in model.env:
        if env.stage == target and env.value:
            values[env.name] = (env.value, env.line)
    others = []
    for name, (value, line) in values.items():
        if name == arch_arg or not _TARGET_LIST.search(name.upper()):
            continue
        gpus = hardware.gpus(value)
        if gpus and all(g.known and g.vendor in vendors for g in gpus) and {g.target for g in gpus} != wanted:
            others.append((name, value, line))
    return tuple(sorted(others, key=lambda other: other[2]))


def hardware_of(model: ImageModel, arch_arg: str) -> Hardware:
    """The Supported hardware facts of `model`: the targets of `arch_arg` (an ARG default, else an ENV
    of that name), and the build arg that really changes them: the ARG itself, or the build arg an ENV
    is set from (`ENV TORCH_CUDA_ARCH_LIST=${torch_cuda_arch_list}`), or none for an ENV written
    literally (`--build-arg` cannot change it). Without such a value, the NPU an Ascend base image's
    tag names (`…/cann:8.5.0-910b-ubuntu22.04-py3.11`); else, for an ENV of that name the default
    target has but whose value docgen cannot know (`${PYTORCH_ROCM_ARCH}` of the base image), its line
    and the build arg that sets it, with no targets."""
    value, line = arch_value(model, arch_arg)
    if value:
        override: str | None = None
        if any(d.name == arch_arg and d.line == line for d in model.args):
            override = arch_arg
        else:
            setters = (args[0] for name, at, args in model.env_args if name == arch_arg and at == line)
            override = next(setters, None)
        found = hardware.gpus(value)
        return Hardware(found, value, line, override, others=_other_target_lists(model, arch_arg, found))
    lines = _target_images(model)
    defaults, written = _global_args(model)
    for stage in model.stages:
        npu = baseimage.npu_of(stage.base) if stage.line in lines else None
        if npu:
            arg = baseimage.controlling_arg(npu, stage.base_raw, defaults, written)
            return Hardware(hardware.gpus(npu), npu, stage.line, arg, stage.base)
    target = model.target.label if model.target is not None else None
    for env in model.env:  # set, but from what the Dockerfile does not give (the base image's ENV)
        if env.name == arch_arg and env.stage == target:
            setters = (args[0] for name, at, args in model.env_args if name == arch_arg and at == env.line)
            return Hardware(line=env.line, override=next(setters, None))
    return Hardware()


# --------------------------------------------------------------------------------------------------
# Images of one document (the `images` and `matrix` sections)


def key_versions(model: ImageModel, options: RenderOptions) -> list[VersionRow]:
    """The Key versions rows of `model` rendered with `options`: what its `versions` block shows, and
    what its `summary`, its row of an `images` table and its column of a `matrix` are made of."""
    return version_rows(
        model,
        options.names,
        options.versions,
        options.versions_at,
        provides=options.provides,
        provides_file=options.provides_file,
        produced=options.produced,
    )


@dataclass(frozen=True)
class ImageRow:
    """One image of a document that several images (or one) feed: a row of the `images` table, a
    column of the `matrix`."""

    name: str
    """The configured image's name (`rocm`)."""
    dockerfile: str
    """Its Dockerfile, as displayed."""
    link: str | None
    """The link target of the Dockerfile from the document (line links add `#L<n>`)."""
    base: str
    """The image the default target is built on, ARGs expanded ('' when it starts from no image)."""
    versions: tuple[VersionRow, ...]
    """Its Key versions rows (`key_versions`), in the order of its `versions` block."""
    tags: tuple[str, ...] = ()
    """The tags it is published under, when the configuration knows them."""
    chosen: bool = False
    """True when the configuration lists its Key versions (`versions`): their order is the user's."""

    @property
    def summary(self) -> tuple[VersionRow, ...]:
        """The Key versions its row of the `images` table shows: the three a reader looks for first
        (`most_read`), or the first three the configuration lists."""
        return self.versions[:3] if self.chosen else tuple(most_read(self.versions)[:3])


def image_row(
    name: str,
    model: ImageModel,
    options: RenderOptions,
    tags: Sequence[str] = (),
    versions: Sequence[VersionRow] | None = None,
) -> ImageRow:
    """The `ImageRow` of image `name` built from `model` (`versions`: its Key versions rows, when
    worked out already)."""
    bases = base_images(model)
    return ImageRow(
        name=name,
        dockerfile=model.path,
        link=options.dockerfile_link,
        base=bases[0] if bases else "",
        versions=tuple(key_versions(model, options) if versions is None else versions),
        tags=tuple(tags),
        chosen=options.versions is not None,
    )


MOST_READ = (
    *("CUDA", "ROCm", "CANN", "NGC release"),
    *("PyTorch", "torch-npu", "JAX", "TensorFlow", "PaddlePaddle", "MindSpore"),
    *("vLLM", "vLLM Ascend", "SGLang", "TensorRT-LLM", "LMDeploy", "ONNX Runtime", "OpenVINO"),
    "Python",
    *("cuDNN", "NCCL", "RCCL", "Triton", "Flash Attention", "FlashInfer", "TransformerEngine", "aiter"),
    *("Megatron-core", "Megatron-LM", "DeepSpeed", "xFormers", "TensorRT"),
)
"""Key items in the order a reader of a family's tables looks for them: the accelerator stack (what
the image needs of the host), the framework, the inference engine, the language, then the libraries.
Other rows (the OS, a base image's own name) come after them."""
_RANK = {name.lower(): rank for rank, name in enumerate(MOST_READ)}


def most_read(rows: Sequence[VersionRow]) -> list[VersionRow]:
    """`rows` in `MOST_READ` order (names matched in any case), the others after them as they were."""
    return sorted(rows, key=lambda row: _RANK.get(row.name.lower(), len(MOST_READ)))


@dataclass(frozen=True)
class MatrixRow:
    """One key component of a `matrix` and its row in each image."""

    name: str
    """The component, as shown (`PyTorch`)."""
    cells: tuple[VersionRow | None, ...]
    """Its Key versions row in each image, in the order of the images; None where an image lacks it."""


def matrix_rows(images: Sequence[ImageRow]) -> tuple[MatrixRow, ...]:
    """Key components × images: one row per component shown by any image's Key versions. The rows
    come in `MOST_READ` order (CUDA, ROCm, CANN, PyTorch …), the others in the order they first
    appear (the first image's rows, then the new ones of the second …); when the configuration lists
    the Key versions of every image, all rows come in the order they first appear."""
    cells: dict[str, list[VersionRow | None]] = {}
    shown: dict[str, str] = {}
    for index, image in enumerate(images):
        for row in image.versions:
            key = _SAME_ITEM.get(row.name.lower(), row.name.lower())
            column = cells.setdefault(key, [None] * len(images))
            shown.setdefault(key, row.name)
            if column[index] is None:
                column[index] = row
    keys = list(cells)
    if not all(image.chosen for image in images):
        keys.sort(key=lambda key: _RANK.get(key, len(MOST_READ)))
    return tuple(MatrixRow(shown[key], tuple(cells[key])) for key in keys)


_SAME_ITEM = {"megatron-core": "megatron-lm"}
"""Key items that one image names one way and another the other way (`pip install megatron-core`, a
`mcore0.13` tag, `git clone …/Megatron-LM` at `core_v0.13.0`): one row of a matrix, shown by the name
the first image gives it. Names are compared in lower case (`Pytorch` in one image's `names`)."""


# --------------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class RenderOptions:
    """How to render the sections of one image."""

    arch_arg: str = "GPU_ARCH"
    """The build arg listing GPU targets."""
    arch_arg_at: tuple[str, int | None] | None = None
    """Where the config names `arch_arg` (config file, line), for the error when the Dockerfile has
    no ARG or ENV of that name; None when it is the default, which a Dockerfile may well not have."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names."""
    versions: tuple[str, ...] | None = None
    """Key versions rows wanted, in order; None for the default choice."""
    versions_at: tuple[str, int | None] | None = None
    """Where `versions` is set (config file, line), for the error when an entry matches nothing."""
    dockerfile_link: str | None = None
    """Link target of the Dockerfile from the page being rendered; line links add `#L<n>`."""
    templates: Path | None = None
    """User template folder overriding built-in templates."""
    project: Path | None = None
    """The project folder the user's templates must stay inside, symlinks resolved (None: the
    template folder itself)."""
    provides: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """What base images provide that their tags do not say: image name → {shown name: version}."""
    provides_file: str | None = None
    """Where `provides` is declared (the config file), as shown."""
    produced: Mapping[str, tuple[VersionRow, ...]] = field(default_factory=dict)
    """Image name → the Key versions rows of the configured Dockerfile that builds that image."""
    base_hardware: Callable[[ImageModel], BaseHardware | None] | None = None
    """The Supported hardware of the configured Dockerfile that builds a model's base image, if one
    does (for an image whose own Dockerfile lists no targets)."""


@dataclass(frozen=True)
class BaseHardware:
    """The Supported hardware of the configured Dockerfile that builds the base image."""

    found: Hardware
    """Its targets, where they are set and the build arg of that build that changes them."""
    dockerfile: str
    """That Dockerfile, as displayed."""
    link: str | None
    """The link target of that Dockerfile from the page being rendered."""
