"""Versions a Dockerfile gives that are no pin of the component they name, and which version of a
component is the image's when the Dockerfile gives two.

- An `ENV` that states a version (`ENV CUDA_VERSION=12.4.1`, `ENV NCCL_VERSION 2.21.5`, NVIDIA's
  `NV_CUDNN_VERSION`): the Dockerfile says in plain text what the image has (`env_versions`).
- The CUDA or ROCm release a package is built for (`built_for`): a wheel's local label
  (`torch==2.5.1+cu124`, `+rocm6.2`), the index it comes from (`--index-url …/whl/cu121`,
  `…/whl/rocm6.3`), an apt package of the toolkit (`cuda-toolkit-12-4`, `cuda-nvcc-12-1`) or a
  Debian revision built for one (`libcudnn8=8.9.7.29-1+cuda12.2`).
- The last word (`superseded`): a base image's tag says PyTorch 2.3.0
  (`rocm/pytorch:…_pytorch_release_2.3.0`, an NGC release) but a later RUN of the image built pins
  `torch==2.5.1`: the image has 2.5.1, and the tag's version is no longer one of its facts.

- A version build arg that only labels the image (`labels_only`): `ARG PYTORCH_VERSION="v2.4.0"` read
  by a `LABEL` and a folder name, while the Dockerfile clones pytorch with no ref (its default branch):
  the image has no PyTorch 2.4.0, whatever the label says.

- What the distribution gives (`distribution_versions`): `apt-get install python3-pip` on
  `nvidia/cuda:11.3.0-base-ubuntu20.04` installs Ubuntu 20.04's `python3`, Python 3.8, and
  `build-essential` its `gcc`, GCC 9 (`baseimage.distribution`), when nothing else in the image brings
  a Python or a compiler of its own (`sources.toolchains`).

What it leaves alone: an ENV made of a build arg a README's build command passes (`--build-arg
rocm_version=6.0.0` for `ENV ROCM_VERSION=${rocm_version}`: the README against itself, not the
Dockerfile); an ENV whose value is no version (`ENV CUDA_HOME=/usr/local/cuda`, a
`CUDA_PKG_VERSION` of `10-1=10.1.243-1`), a name with nothing before its version word
(`ENV VERSION=1.2`: the image's own release); an install in a stage the image is not built on (a
builder's `pip install torch==…` whose wheel is not copied does not override the final stage's base).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator

from docgen.audit.versions import CUDA_TAG
from docgen.base_contents import carries
from docgen.baseimage import distribution
from docgen.model import ArgDecl, Component, ImageModel, ManifestPin, ParsedDockerfile
from docgen.rows import image_stages

_ENV_VERSION = re.compile(r"(?:NV_)?([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*?)_(?:VERSION|VER)\Z")
"""An ENV name that states a component's version: `CUDA_VERSION`, `NV_CUDNN_VERSION`, `TORCH_VER`."""
_VERSION_VALUE = re.compile(r"[vV]?\d+(?:\.\d+)+(?:[.+~-]?[A-Za-z0-9]+)*\Z")
"""A value that is a version (`12.4.1`, `v0.6.3`, `2.21.5-1`), not a path, a package spec or a word."""
_NOT_COMPONENTS = frozenset({"image", "build", "app", "release", "pkg", "package", "docker", "base"})
"""Stems of ENV names that state no component's version (`IMAGE_VERSION`, `BUILD_VERSION`)."""


def env_versions(model: ImageModel) -> Iterator[tuple[str, str, str, int]]:
    """(component name, ENV name, version, ENV line) of each ENV in effect in the image built whose
    name states a version (`CUDA_VERSION` → `CUDA`) and whose value is one."""
    target = model.target
    if target is None:
        return
    seen: set[tuple[str, int]] = set()
    # the args a README's build command passes (a configured, compose or bake value has an origin):
    # an ENV made of one says what that command builds, not what the Dockerfile states
    passed = {name for name, _ in model.build_args} - {arg for arg, _, _ in model.arg_origins}
    reads = {(name, line): args for name, line, args in model.env_args}
    for env in model.env:
        if env.stage != target.label or env.value is None:
            continue
        if passed.intersection(reads.get((env.name, env.line), ())):
            continue
        match = _ENV_VERSION.match(env.name)
        value = env.value.strip().strip("\"'")
        if match is None or not _VERSION_VALUE.match(value) or (env.name, env.line) in seen:
            continue
        stem = match.group(1)
        if stem.lower() in _NOT_COMPONENTS or stem.lower().endswith(("_pkg", "_image", "_build")):
            continue
        seen.add((env.name, env.line))
        yield stem.replace("_", "-"), env.name, value, env.line


_LOCAL_CUDA = re.compile(r"\+(cu\d{3}|rocm\d+(?:\.\d+)+)\b", re.IGNORECASE)
_INDEX_TARGET = re.compile(r"/(?:whl|wheels?)/(?:nightly/|test/)?(cu\d{3}|rocm\d+(?:\.\d+)+)(?:/|\Z)")
_APT_TOOLKIT = re.compile(r"cuda-(?:[a-z]+-)*?(\d{1,2})-(\d)\Z")
"""An apt package of one CUDA release: `cuda-toolkit-12-4`, `cuda-nvcc-12-1`, `cuda-12-4`."""
_APT_BUILT_FOR = re.compile(r"\+cuda(\d{1,2}\.\d)(?![\d.])")
"""A Debian revision of a package built for one CUDA release: `8.9.7.29-1+cuda12.2`."""


def _release(word: str) -> tuple[str, str] | None:
    """(`cuda`, `12.4`) for `cu124`, (`rocm`, `6.3`) for `rocm6.3`."""
    cuda = CUDA_TAG.fullmatch(word.lower())
    if cuda:
        return "cuda", f"{int(cuda.group(1))}.{cuda.group(2)}"
    if word.lower().startswith("rocm"):
        return "rocm", word[4:]
    return None


def built_for(comp: Component) -> tuple[str, str] | None:
    """(`cuda` or `rocm`, release) the installed package `comp` is built for, when its pin, its index
    or its name says so; None otherwise."""
    if comp.kind in ("pip", "wheel"):
        if comp.version and (local := _LOCAL_CUDA.search(comp.version)):
            return _release(local.group(1))
        if comp.source and (index := _INDEX_TARGET.search(comp.source)):
            return _release(index.group(1))
    if comp.kind == "apt":
        if (toolkit := _APT_TOOLKIT.match(comp.name.lower())) is not None:
            return "cuda", f"{toolkit.group(1)}.{toolkit.group(2)}"
        if comp.ref and (revision := _APT_BUILT_FOR.search(comp.ref)):
            return "cuda", revision.group(1)
    return None


_LAST_WORD_KINDS = frozenset({"pip", "wheel", "conda"})
"""Installs that replace what the base image ships under the same name (`pip install torch==2.5.1`)."""


def overriding_pins(model: ImageModel) -> Iterator[Component]:
    """The exact pins of Python packages installed in a stage the image built is made of (the target
    and the stages it is built FROM): each replaces what the base image's tag says of it."""
    chain = {s.label for s in model.chain()}
    for comp in model.components:
        if comp.kind in _LAST_WORD_KINDS and comp.pinned and comp.version and comp.stage in chain:
            yield comp


def overriding_manifest_pins(model: ImageModel, pins: Iterable[ManifestPin]) -> Iterator[ManifestPin]:
    """The exact pins of the requirements files (and local projects) a stage the image built is made of
    installs (`manifests.manifest_pins`): each replaces what the base image's tag says of it, as a pin
    on the command line does (`overriding_pins`)."""
    chain = {s.label for s in model.chain()}
    for pin in pins:
        if pin.stage in chain:
            yield pin


_DEFAULT_PACKAGES = {
    "python": frozenset(
        {
            "python3",
            "python3-pip",
            "python3-dev",
            "python3-devel",
            "python3-venv",
            "python3-full",
            "python-is-python3",
        }
    ),
    "gcc": frozenset({"gcc", "g++", "gcc-c++", "build-essential"}),
}
"""Distribution packages that install the distribution's default Python or compiler, whatever its
release: `python3-pip` depends on `python3`, `build-essential` on `gcc` and `g++`."""
_OWN_PYTHON = re.compile(r"python(?:3\.\d{1,2}|3\d{1,2})(?:-.*)?\Z")
"""A package of one Python release (`python3.11`, deadsnakes' `python3.11-venv`, RHEL's `python39`)."""


def distribution_versions(model: ImageModel) -> Iterator[tuple[str, str, str, int]]:
    """(`python` or `gcc`, version, what says it, line) of what the image built takes from its
    distribution: an unpinned `python3` (or `python3-pip`, `python3-dev` …) or `gcc` (`g++`,
    `build-essential`) package of the distribution's own archive, installed in a stage the image is
    built on whose first base is a plain distribution release (`baseimage.distribution`: `ubuntu:22.04`,
    `nvidia/cuda:…-ubuntu22.04`). Nothing of one when any stage whose files are in the image brings its
    own (`ImageModel.foreign_toolchains`, conda packages, a `python3.11` package): its Python is then
    that one, said by its own pin or name, or unknown."""
    target = model.target
    if target is None:
        return
    root, seen = target, 0
    while root.parent is not None and seen < len(model.stages):
        root, seen = model.stages[root.parent], seen + 1
    found = distribution(root.base)
    if found is None:
        return
    own, suppliers = image_stages(model)
    kept = own | suppliers
    foreign = set()
    for what, line in model.foreign_toolchains:
        stage = model.stage_at(line)
        if stage is not None and stage.label in kept:
            foreign.add(what)
    for comp in model.components:
        if comp.stage in kept and (
            comp.kind == "conda" or (comp.kind in ("apt", "rpm") and _OWN_PYTHON.match(comp.name))
        ):
            foreign.add("python")
    versions = {"python": found.python, "gcc": found.gcc}
    for what, names in _DEFAULT_PACKAGES.items():
        if what in foreign:
            continue
        package = next(
            (
                c
                for c in model.components
                if c.kind in ("apt", "rpm") and c.name in names and c.stage in own
                and not c.pinned and not c.source and c.condition is None and c.arg is None
            ),
            None,
        )  # fmt: skip
        if package is not None:
            shown = f"{versions[what]} ({package.name} of {found.name})"
            yield what, versions[what], shown, package.line


_FOLDER_READ = r"(?<=/)\$\{{?{name}\b"
"""A read of an arg as a part of a path (`cd $HOME/build/${dirname}`): a folder's name, not a version."""


def labels_only(
    decl: ArgDecl,
    model: ImageModel,
    parsed: ParsedDockerfile,
    keys: Collection[str],
    keys_of: Callable[[str], Collection[str]],
) -> str | None:
    """What the image has of the component a version build arg names, when the arg only labels it: every
    line reading it is a `LABEL`, or an `ARG` deriving a name that RUNs read only as a folder of a path
    (`ARG dirname="pytorch.${PYTORCH_VERSION}"`, `cd $HOME/build/${dirname}`), and each component known
    by one of `keys` (`keys_of` its name; at least one) is a git clone with no ref, which builds its
    default branch. None otherwise (a RUN reading the version, a pin of the component, a clone at a ref)."""
    comps = [c for c in model.components if set(keys_of(c.name)) & set(keys)]
    if not comps or any(c.kind != "git" or c.pinned or c.ref or c.version for c in comps):
        return None
    at = {inst.start_line: inst for inst in parsed.instructions}
    labels: list[int] = []
    for line in decl.used_lines:
        inst = at.get(line)
        if inst is None:
            return None
        if inst.keyword == "LABEL":
            labels.append(line)
            continue
        if inst.keyword != "ARG":
            return None
        for derived in (a for a in model.args if a.line == line and a.name != decl.name):
            for use in derived.used_lines:
                other = at.get(use)
                if other is None or other.keyword not in ("RUN", "LABEL"):
                    return None
                text = other.original or other.args
                reads = len(re.findall(rf"\$\{{?{re.escape(derived.name)}\b", text))
                if other.keyword == "RUN" and reads != len(
                    re.findall(_FOLDER_READ.format(name=re.escape(derived.name)), text)
                ):
                    return None
    if not labels:
        return None
    clone = comps[0]
    return (
        f"ARG {decl.name}={decl.effective_default} only labels the image (LABEL on line {labels[0]}), while "
        f"line {clone.line} clones {clone.name} with no ref: its default branch"
    )


def default_branches(model: ImageModel, text: str) -> Iterator[Component]:
    """The repositories the image built clones and builds at their default branch: a `git clone URL`
    with no `--branch`, no checkout and no fetch of a ref after it, its URL written out (no build arg in
    it), made on every platform, in a stage whose files are in the image. The image has whatever that
    branch holds the day it is built: no release of it. `text`: the Dockerfile's, where a `pip install
    git+URL` of the repository is told apart from a clone: pip reports the version the branch's own
    metadata gives, the one a README listing what `pip list` showed quotes, and is left alone."""
    own, suppliers = image_stages(model)
    kept = own | suppliers
    for comp in model.components:
        if (
            comp.kind == "git"
            and comp.method == "source"
            and comp.stage in kept
            and not comp.pinned
            and comp.ref is None
            and comp.version is None
            and comp.arg is None
            and comp.condition is None
            and comp.source
            and "$" not in comp.source
            and "git+" + comp.source not in text
        ):
            yield comp


_NEWEST_KINDS = {"pip": "pip install", "conda": "conda install"}
"""Registry packages an install with no version takes at the newest release the index serves that day."""
_HOLDS_ALL = re.compile(
    r"\bpip3?[ \t]+(?:install|sync)\b[^;&|\n]*?[ \t](?:-c|--constraints?|--override)(?=[\s=]|$)"
    r"|--require-hashes|\b(?:PIP|UV)_CONSTRAINT\b"
    r"|\bUV_OVERRIDE\b|\.lock\b|lock\.(?:txt|json|ya?ml)\b|--file[\s=]|\benvironment\.ya?ml\b"
    r"|\|[ \t]*(?:sudo[ \t]+)?(?:ba|z|da)?sh\b",
    re.MULTILINE,
)
"""What may hold every package of the image at a version a README states: constraints (pip's `-c`, not
conda's channel, `PIP_CONSTRAINT`), a lock file or hashes, a conda environment file, a download piped
into a shell."""
_FULL_DISTRIBUTION = re.compile(r"anaconda", re.IGNORECASE)
"""Anaconda (the installer or `continuumio/anaconda3`) brings hundreds of packages at its release's
versions: `conda install numpy` on it keeps the one it has (Miniconda and Miniforge bring only conda)."""


_OTHER_INDEX = re.compile(r"(?:^|\s)(?:-i|--index-url|--extra-index-url|-f|--find-links)(?=[\s=])")
"""pip reading another index than PyPI (`--index-url https://download.pytorch.org/whl/rocm6.0`): one a
platform release retired serves its last builds for good, so the newest there is a fixed release."""
_LATEST_FILE = re.compile(r"(?<![A-Za-z])latest(?![A-Za-z])", re.IGNORECASE)
"""A download's file name naming no release but the newest (`Miniconda3-latest-Linux-x86_64.sh`)."""


def newest_installs(model: ImageModel, parsed: ParsedDockerfile) -> Iterator[tuple[Component, str]]:
    """(component, how the image gets it, as a finding shows it) of each download the image built
    fetches by a file name saying `latest` (`Miniconda3-latest-Linux-x86_64.sh`), and of each Python
    package it installs with pip or conda with no version (`conda install pytorch torchvision cuda80 -c
    pytorch`, `pip install captum torchserve`): a build takes the newest release of that day. A package
    only when nothing of the image may hold it at a version:

    - every base the image starts from is known to carry none of it (`base_contents.carries`: a plain OS,
      language or CUDA image; not `pytorch/pytorch`, not an image of the project's own);
    - no install of the image reads a list or runs a script (`-r FILE`, an install script, a download piped
      into a shell), no constraints, lock file, hashes or conda environment file, no Anaconda (which
      brings numpy and the rest at its release's versions);
    - no other package of the same kind is pinned in the same RUN (the resolver picks the release that
      fits it: `pip install torch torchvision==0.8.2`, `conda install pytorch=1.6 torchvision`), and a
      pip install of the RUN reads no other index than PyPI (`--index-url …/whl/rocm6.0`, `-f`: a
      retired platform release's index serves its last builds for good).

    Whether another line of the image pins or states it is the reader's to check (`Facts`)."""
    if model.target is None or _holds_unread(model, parsed):
        return
    own, suppliers = image_stages(model)
    kept = own | suppliers
    roots = [stage.base for stage in model.chain() if stage.parent is None]
    runs = [(inst.start_line, inst.end_line) for inst in parsed.instructions if inst.keyword == "RUN"]

    def run_of(line: int) -> int:
        return next((start for start, end in runs if start <= line <= end), line)

    held_runs = {(comp.kind, run_of(comp.line)) for comp in model.components if comp.pinned}
    held_runs |= {
        ("pip", inst.start_line)
        for inst in parsed.instructions
        if inst.keyword == "RUN" and _OTHER_INDEX.search(inst.args)
    }
    anaconda = any(_FULL_DISTRIBUTION.search(base) for base in roots) or any(
        comp.kind == "download" and _FULL_DISTRIBUTION.search(comp.name) for comp in model.components
    )
    for comp in model.components:
        if (
            comp.kind == "download"
            and not comp.pinned
            and comp.stage in kept
            and comp.condition is None
            and comp.source
            and _LATEST_FILE.search(comp.source.rsplit("/", 1)[-1])
        ):
            yield comp, f"{comp.source}, which fetches the newest release the day the image is built"
            continue
        how = _NEWEST_KINDS.get(comp.kind)
        if (
            how is None
            or comp.pinned
            or comp.version
            or comp.ref
            or comp.arg
            or comp.condition
            or comp.method != "prebuilt"
            or comp.stage not in kept
            or (comp.kind, run_of(comp.line)) in held_runs
            or (comp.kind == "conda" and anaconda)
        ):
            continue
        if not all(carries(base, [comp.name]) is False for base in roots):
            continue
        yield (
            comp,
            f"`{how} {comp.name}` with no version, which takes the newest release the day the image is built",
        )


def _holds_unread(model: ImageModel, parsed: ParsedDockerfile) -> bool:
    """True when something of the image built may install packages at versions docgen does not read:
    constraints, a lock file, hashes, a conda environment file, a download piped into a shell, a list or
    a project installed (`-r requirements.txt`, `pip install .`: `torch<2` there), an install script;
    or when it starts from no base docgen knows."""
    own, suppliers = image_stages(model)
    kept = own | suppliers
    text = "\n".join(
        inst.args for inst in parsed.instructions if inst.keyword in ("RUN", "COPY", "ADD", "ENV")
    )
    return (
        not any(stage.parent is None for stage in model.chain())
        or _HOLDS_ALL.search(text) is not None
        or any(comp.method in ("requirements", "script") for comp in model.components)
        or any(install.stage in kept for install in model.installs)
    )


def may_hold(model: ImageModel, parsed: ParsedDockerfile, name: str) -> bool:
    """True when the image built may hold the package `name` at a version docgen does not read: a base
    it starts from may carry it (`base_contents.carries` is not sure it does not), or it installs what
    docgen does not read (`_holds_unread`). Of a README about several images, a version said of `name`
    may be one such image's."""
    roots = [stage.base for stage in model.chain() if stage.parent is None]
    return _holds_unread(model, parsed) or not all(carries(base, [name]) is False for base in roots)
