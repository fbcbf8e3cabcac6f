"""How the README says components are installed, against how the Dockerfile installs them: with a tool
it never runs (`` `mmengine`, `mmcv` using `mim install` ``), built from source while the Dockerfile
installs a prebuilt wheel from an index (`| torchvision | Build from source |`), or from prebuilt wheels
while the Dockerfile builds them (`MMCV … installed from prebuilt wheels` over `pip wheel git+…mmcv`);
and the channel PyTorch comes from (nightly or release), against the index torch is installed from or,
when nothing installs it, the base image of PyTorch the image starts from.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.memo import per_audit
from docgen.audit.provides import install_text
from docgen.audit.versions import norm, raw_name
from docgen.audit.wording import line_at, sentences
from docgen.copied import copied_texts
from docgen.manifests import manifest_pins
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel
from docgen.sources.pip import PIP

TOOLS = {
    "mim": "openmim",
    "conda": "conda",
    "mamba": "mamba",
    "micromamba": "micromamba",
    "uv": "uv",
    "pipx": "pipx",
    "poetry": "poetry",
    "pdm": "pdm",
    "npm": "npm",
    "yarn": "yarn",
    "pnpm": "pnpm",
    "cargo": "cargo",
    "vcpkg": "vcpkg",
    "conan": "conan",
    "spack": "spack",
}
"""Installers a README may say it installs with → the package that brings each (`mim` is openmim's)."""
_USING_TOOL = re.compile(
    r"\b(?:using|with|via|through|by)[ \t]+(?:the[ \t]+)?`(?P<tool>[a-z]+)(?:[ \t]+install\b[^`]*)?`",
    re.IGNORECASE,
)
"""`using `mim install``, `via `conda``: the installer a sentence names, in code."""
_INSTALL_SAID = re.compile(
    r"\binstall(?:s|ed)?\b[ \t]*:|\binstalled[ \t]+(?:using|with|via|through|by)\b", re.I
)
"""Words saying what follows is what the image installs (`Installs:`, `installed using`)."""
_NEGATED = re.compile(r"\b(?:not|no|never|without|instead)\b|n['’]t\b", re.IGNORECASE)
"""A negation (`isn't`, `isn’t` with a typographic apostrophe, `no wheel`): no claim of how it is
installed."""
_SPEC = re.compile(r"[<>=!~\[;@ ].*\Z")
"""What follows a package's name in a requirement (`mmcv>=2.0.0rc4`, `uvicorn[standard]`)."""

_FROM_SOURCE = re.compile(
    r"\b(?:built|build|builds|compiled|compile|compiles)[ \t]+(?:\w+[ \t]+)?from[ \t]+source", re.I
)
_PREBUILT = re.compile(
    r"\b(?:pre-?built|pre-?compiled|binary)[ \t]+(?:\w+[ \t]+)?wheels?\b|\bwheels?[ \t]+from[ \t]+PyPI\b"
    r"|\b(?:installed|comes?)[ \t]+from[ \t]+PyPI\b",
    re.IGNORECASE,
)
_SYSTEM = re.compile(
    r"\bsystem[- ]level[ \t]+(?:install(?:ation|ed)?|package|library)\b|\bsystem[ \t]+(?:package|library)\b"
    r"|\b(?:installed|comes?)[ \t]+(?:via|with|through|from|using)[ \t]+`?apt(?:-get)?`?(?![\w-])"
    r"|\b(?:an?[ \t]+)?`?apt`?[ \t]+package\b",
    re.IGNORECASE,
)
"""Words saying a component is the distribution's package (`MuJoCo (system-level install)`, `installed
via apt`, `a system package`), not a Python package."""
_SOURCE = re.compile(r"from[ \t]+source", re.IGNORECASE)
_BUILD_WORD = re.compile(r"\b(?:built|build|builds|building|compiled|compile|compiles|compiling)\b", re.I)
_MARKS = re.compile(rf"{_SOURCE.pattern}|{_PREBUILT.pattern}|{_SYSTEM.pattern}", re.IGNORECASE)
"""Where a clause says how what comes before is installed: `from source` (in a clause with a build
word: `builds X and Y from source`), `prebuilt wheels`, `from PyPI`."""
_BUILDS = re.compile(
    r"\bgit[ \t]+clone\b|\bgit\+|\bpip3?[ \t]+wheel\b|\bcmake\b|\bcolcon\b|\bsetup\.py\b|\bbdist_wheel\b"
    r"|(?<![.\w-])make\b(?![(\w-])|\bninja\b|\bmeson\b|\bbazel\b|--no-binary|--no-build-isolation",
    re.IGNORECASE,
)
"""Words of a RUN that builds what it names from source."""


def _runs(model: ImageModel) -> tuple[str, ...]:
    """The RUN commands of `model`'s Dockerfile, comment lines dropped (as BuildKit reads them)."""
    return _runs_in(model.file)


@per_audit(maxsize=32)
def _runs_in(file: str) -> tuple[str, ...]:
    read = dockerfile_read(file)
    return tuple(i.args for i in read[1].instructions if i.keyword == "RUN") if read else ()


_COMMAND_SEP = re.compile(r"&&|\|\||[;|(]|\bthen\b|\bdo\b|\belse\b")
_ENV_PREFIX = re.compile(r"\A(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)+")
_RUNS_FILE = re.compile(
    r"\A(?:sudo[ \t]+)?(?:(?:(?:ba|z)?sh|python[0-9.]*|perl|source|\.)[ \t]+(?!-)\S"
    r"|\S*\.(?:sh|py|run|pl)(?:[ \t]|\Z))"
)
_PIPED = re.compile(r"\b(?:curl|wget)\b[^;&|]{0,500}\|[ \t]*(?:sudo[ \t]+)?(?:(?:ba|z)?sh|python3?)\b")


def _runs_a_file(run: str) -> bool:
    """True when the RUN command `run` runs a file as a command (`bash install.sh`, `./setup.sh`,
    `python setup.py install`) or a download through a shell: what they run is not read here. A file
    only named (`chmod +x /entry.sh`) or code given inline (`python -c …`) is not run."""
    if _PIPED.search(run):
        return True
    for part in _COMMAND_SEP.split(run):
        command = _ENV_PREFIX.sub("", part.strip())
        if _RUNS_FILE.match(command):
            return True
    return False


def _package(spec: str) -> str:
    return _SPEC.sub("", spec.strip())


def tool_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying packages are installed with an installer (`` `openmim`, then `mmengine`,
    `mmcv>=2.0.0rc4` using `mim install` ``, under `Installs:` or saying `installed using`) that no RUN
    of any image compared runs, when docgen reads all they run (`likely`); the packages it names in code
    that no install brings are named too."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    for para in doc.paragraphs:
        if not any("`" in text for _, text in para.lines):
            continue  # (the installer is named in code: most paragraphs are left at once)
        joined = " ".join(text for _, text in para.lines)
        for start, _, sentence in sentences(para.lines):
            match = _USING_TOOL.search(sentence)
            if match is None or _NEGATED.search(sentence):
                continue
            tool = match.group("tool").lower()
            if tool not in TOOLS:
                continue
            before = f"{para.before} {joined[:start]}"[-200:]
            if not (_INSTALL_SAID.search(sentence) or _INSTALL_SAID.search(before)):
                continue
            runs = [run for m in models for run in _runs(m)]
            if any(_runs_a_file(run) for run in runs):
                return  # a script, or a download run by a shell, may run any installer
            command = re.compile(rf"(?<![\w./-]){re.escape(tool)}(?![\w-])")
            if any(command.search(run) for run in runs):
                continue
            packages = [
                _package(content)
                for offset, _, content in code_spans(sentence)
                if offset < match.start() and _package(content)
            ]
            absent = [p for p in packages if not any(raw_name(p) in install_text(m) for m in models)]
            line = line_at(para.lines, start)
            said = f"README says {', '.join(packages) or 'packages'} are installed using {tool}"
            said += f" but {models[0].path} never runs {tool}"
            if absent:
                said += f" and installs no {', '.join(absent)}"
            yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


def _how_built(models: tuple[ImageModel, ...], name: str) -> str | None:
    """`source` when some RUN that names `name` builds it (a clone, `pip wheel git+…`, cmake …) or a
    component of that name comes from a git repository; `index` when it is installed, only from a
    package index (`pip install torchvision --index-url …`); `distribution` when only a distribution's
    package manager installs it (`apt-get install vlc`) and no RUN naming it compiles anything; None
    when no install names it, or one from an index with `--no-build-isolation` (a wheel when one
    matches, else a build: either way)."""
    key = norm(name)
    comps = [c for m in models for c in m.components if norm(c.name) == key and c.kind != "image"]
    if any(c.kind == "git" or c.method == "source" for c in comps):
        return "source"
    raws = {raw_name(name)} | {raw_name(c.name) for c in comps}
    # each command of a RUN apart: a long RUN may clone one project and pip-install another
    named = [
        cmd
        for m in models
        for run in _runs(m)
        for cmd in _COMMAND_SEP.split(run)
        if any(raw in raw_name(cmd) for raw in raws)
    ]
    if any(_builds(command, raws) for command in named if not _PACKAGE_INSTALL.search(command)):
        return "source"  # (`apt-get install cmake vlc` builds nothing)
    if any("--no-build-isolation" in command for command in named):
        return None  # from an index: a matching wheel if there is one, else built from its sdist
    if comps and all(c.kind == "pip" for c in comps):
        return "index"
    if comps and all(c.kind in _DISTRIBUTION for c in comps) and not _built_nearby(models, raws):
        return "distribution"
    return None


_DISTRIBUTION = frozenset({"apt", "apk", "rpm"})
"""Kinds of the components a distribution's package manager installs, prebuilt."""
_COMPILES = re.compile(rf"{_BUILDS.pattern}|\bconfigure\b|\bautogen\.sh\b", re.IGNORECASE)
_PACKAGE_INSTALL = re.compile(
    r"\b(?:apt-get|apt|apk|yum|dnf|microdnf|zypper)[ \t]+(?:-\S+[ \t]+)*(?:install|add)\b"
)


def _built_nearby(models: tuple[ImageModel, ...], raws: set[str]) -> bool:
    """True when a RUN naming the component also builds something (`wget …/vlc-3.0.tar.xz && tar xf …
    && ./configure && make`): its source may be built from a download next to the package. The
    packages a package manager installs (`apt-get install cmake`) build nothing."""
    for run in (run for m in models for run in _runs(m) if any(raw in raw_name(run) for raw in raws)):
        commands = (c for c in _COMMAND_SEP.split(run) if not _PACKAGE_INSTALL.search(c))
        if any(_COMPILES.search(command) for command in commands):
            return True
    return False


_PIP_INSTALL = re.compile(r"\b(?:" + PIP + r"|uv[ \t]+pip)[ \t]+install\b")


def _builds(command: str, raws: set[str]) -> bool:
    """True when `command` (one command of a RUN) builds what `raws` name from source: a pip install of
    it from a repository or a folder (`git+https://…/mmcv.git`), or with `--no-binary`; any other
    command that clones, configures or compiles (`git clone`, cmake,
    colcon, `pip wheel`). A pip install naming it from an index builds nothing, whatever else it
    installs from a repository."""
    if not _PIP_INSTALL.search(command):
        return bool(_BUILDS.search(command))
    if "--no-binary" in command:
        return True  # (`--no-build-isolation` alone still takes a matching wheel from the index)
    words = command.split()
    for before, word in zip(["", *words], words, strict=False):
        spec = word.strip("'\"")
        if spec.startswith("-") or before in _INDEX_OPTIONS:
            continue  # an option, or where packages come from (`--index-url https://…/whl/cu126`)
        if not any(raw in raw_name(spec) for raw in raws):
            continue
        if ("git+" in spec or spec.startswith(("http", "/", "./", "../"))) and not spec.endswith(".whl"):
            return True
    return False


_CONDITIONAL = re.compile(
    r"\b(?:when|if|where|whenever)[ \t]+(?:one[ \t]+|a[ \t]+wheel[ \t]+|it[ \t]+|they[ \t]+)?"
    r"(?:is[ \t]+|are[ \t]+)?(?:matches|match|exists?|available|found|possible|published)\b"
    r"|\bfalls?[ \t]+back\b|\botherwise\b|\bunless\b"
    r"|\b(?:if|when|whenever|in[ \t]+case)\b[^.;]{0,80}?\b(?:fails?|failed|unavailable|missing|incompatible"
    r"|mismatch(?:es|ed)?)\b",
    re.IGNORECASE,
)
"""A clause saying how something is installed only in some case (`from a prebuilt wheel when one
matches`, `if available`, `falls back to building`, `unless …`, `if the wheel install fails`; a negated
one, `If a wheel isn’t available and it compiles from source`, is left by `_NEGATED`): what happens in
the other case, no claim of how the image installs it."""
_INDEX_OPTIONS = frozenset({"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-c", "-r"})


def built_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A component the README says is built from source while every install of it is a prebuilt wheel
    from a package index, or installed from prebuilt wheels (from PyPI) while the Dockerfile builds it
    (`likely`). Read in a table row (`| torchvision | Build from source |`) and in a sentence naming a
    component the image installs (`MMCV/MMDetection, which are installed from prebuilt wheels`)."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    names = {norm(c.name): c.name for m in models for c in m.components if c.kind != "image"}
    for table in doc.tables:
        for line, cells in table.rows:
            if not cells:
                continue
            name = cells[0].strip().strip("*_` ")
            rest = " ".join(cells[1:])
            if norm(name) in names and not _NEGATED.search(rest):
                yield from _compare(auditor, line, name, rest)
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            line = line_at(para.lines, start)
            seen: set[str] = set()
            for clause in sentence.split(";"):  # `X from source; Y from PyPI`: each clause its own
                if _NEGATED.search(clause) or not (
                    _BUILD_WORD.search(clause) or _PREBUILT.search(clause) or _SYSTEM.search(clause)
                ):
                    continue
                if _CONDITIONAL.search(clause):
                    continue  # `from a prebuilt wheel when one matches`: either way, no claim
                # what a marker says is of the names before it, after the marker before it (`Megatron
                # comes from PyPI, mbridge from git`: not mbridge)
                done = 0
                for mark in _MARKS.finditer(clause):
                    said = mark.group()
                    if _SOURCE.fullmatch(said) and not _BUILD_WORD.search(clause):
                        continue
                    start = done
                    if _SOURCE.fullmatch(said):
                        said = "built from source"
                        verbs = list(_BUILD_WORD.finditer(clause, done, mark.start()))
                        if verbs and clause[verbs[-1].end() : mark.start()].strip():
                            start = verbs[-1].end()  # `builds X and Y from source`: its objects
                    # only the nearest component before it: in `with vLLM nightly and LMCache from
                    # source`, what comes from source may be LMCache alone
                    words = re.findall(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", clause[start : mark.start()])
                    nearest = next((w for w in reversed(words) if norm(w) in names), None)
                    if nearest is not None and norm(nearest) not in seen:
                        seen.add(norm(nearest))
                        yield from _compare(auditor, line, nearest, said)
                    done = mark.end()


def _compare(auditor: Auditor, line: int, name: str, said: str) -> Iterator[Diagnostic]:
    how = _how_built(auditor.models, name)
    path = auditor.models[0].path
    if _FROM_SOURCE.search(said) and not _PREBUILT.search(said) and how == "index":
        message = f"README says {name} is built from source but {path} installs a prebuilt {name}"
        message += " from a package index"
        yield Diagnostic(auditor.path, line, message, confidence=LIKELY)
    elif _FROM_SOURCE.search(said) and not _PREBUILT.search(said) and how == "distribution":
        message = f"README says {name} is built from source but {path} installs {name} as a prebuilt"
        message += " package of the distribution and builds none"
        yield Diagnostic(auditor.path, line, message, confidence=LIKELY)
    elif (
        _SYSTEM.search(said)
        and not _FROM_SOURCE.search(said)
        and how == "index"
        and not _distributed(auditor, name)
    ):
        message = f"README says {name} is installed as a package of the distribution but {path} installs"
        message += f" {name} only with pip, from a package index (no apt, apk or rpm package of it)"
        yield Diagnostic(auditor.path, line, message, confidence=LIKELY)
    elif _PREBUILT.search(said) and not _FROM_SOURCE.search(said) and how == "source":
        message = f"README says {name} is installed from prebuilt wheels but {path} builds {name} from source"
        yield Diagnostic(auditor.path, line, message, confidence=LIKELY)


def _distributed(auditor: Auditor, name: str) -> bool:
    """True when a RUN's package-manager command names `name` (`apt-get install libmujoco-dev`), or one
    downloads it (`wget …/mujoco-2.1.0-linux-x86_64.tar.gz`): the image may hold a system copy too."""
    raw = raw_name(name)
    for model in auditor.models:
        for run in _runs(model):
            for command in _COMMAND_SEP.split(run):
                if raw in raw_name(command) and (
                    _PACKAGE_INSTALL.search(command) or _FETCHES.search(command)
                ):
                    return True
    return False


_FETCHES = re.compile(r"\b(?:curl|wget|git[ \t]+clone|tar|unzip)\b")


# --------------------------------------------------------------------------------------------------
# the channel PyTorch is installed from: nightly or release

_TORCH_WORD = r"`?(?:py)?torch`?"
_SAYS_NIGHTLY = re.compile(
    rf"\b{_TORCH_WORD}[ \t]+(?:[\w.+-]+[ \t]+)?nightl(?:y|ies)\b"
    r"|\bnightl(?:y|ies)[ \t]+(?:(?:builds?|wheels?|releases?|versions?)[ \t]+(?:of[ \t]+)?)?"
    rf"{_TORCH_WORD}\b",
    re.IGNORECASE,
)
"""A line saying PyTorch comes from the nightly channel (`from `torch` nightly`, `nightly PyTorch`)."""
_SAYS_STABLE = re.compile(
    rf"\b{_TORCH_WORD}[ \t]+(?:[\w.+-]+[ \t]+)?stable\b"
    rf"|\bstable[ \t]+(?:(?:builds?|releases?)[ \t]+(?:of[ \t]+)?)?{_TORCH_WORD}\b",
    re.IGNORECASE,
)
"""A line saying PyTorch comes from the stable channel (`PyTorch stable`, `stable PyTorch`)."""
TORCH_INDEX = re.compile(
    r"(?:--(?:extra-)?index-url|-i)(?:[ \t]+|=)[\"']?(https?://download\.pytorch\.org/whl/[^\s\"'\\]*)"
)
"""The PyTorch wheel index a pip command installs from (`--index-url https://download.pytorch.org/whl/xpu`)."""
_TORCH_PACKAGE = re.compile(r"(?:^|[\s\"'])torch(?:[=<>!~;\[\s\"']|\Z)")
_ITEM_OR_ROW = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+")


def _channel(url: str) -> str:
    """`nightly`, `test` (release candidates) or `release`: the channel of a download.pytorch.org index."""
    path = url.split("download.pytorch.org/whl/", 1)[1]
    return "nightly" if path.startswith("nightly") else "test" if path.startswith("test") else "release"


def _torch_sources(model: ImageModel) -> tuple[tuple[int, str, str], ...]:
    """(Dockerfile line, channel, index) of each pip command of a RUN that installs `torch` from a
    download.pytorch.org index. Read once for every part of the README, again only when the Dockerfile
    has changed (its size or modification time)."""
    if not model.file:
        return ()
    try:
        stat = os.stat(model.file)
    except OSError:
        return ()
    return _torch_sources_at(model.file, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _torch_sources_at(file: str, mtime_ns: int, size: int) -> tuple[tuple[int, str, str], ...]:
    """`_torch_sources` of the Dockerfile at `file` as it was at that modification time and size."""
    read = dockerfile_read(file)
    if read is None:
        return ()
    found = []
    for inst in read[1].instructions:
        if inst.keyword != "RUN":
            continue
        for command in re.split(r"&&|\|\||;|\n", inst.args.replace("\\\n", " ")):
            if not re.search(r"\bpip3?[ \t]+install\b|\bpip[ \t]+install\b", command):
                continue
            index = TORCH_INDEX.search(command)
            if index is not None and "$" in index.group(1):
                return ()  # (`…/whl/${TORCH_CUDA_VERSION}`: a build arg, `nightly/cu121` or not, picks it)
            if index is not None and _TORCH_PACKAGE.search(command):
                found.append((inst.start_line, _channel(index.group(1)), index.group(1)))
    return tuple(found)


_INSTALL_COMMAND = re.compile(r"\binstall\b")
_TORCH_NAMED = re.compile(r"(?:^|[\s\"'])(?:py)?torch(?:[=<>!~;\[\s\"']|\Z)")
"""`torch` (or conda's `pytorch`) as a package a command names: `pip install torch==2.5.1`."""


@functools.lru_cache(maxsize=32)
def _torch_installed_at(file: str, mtime_ns: int, size: int) -> bool:
    """Whether a RUN of the Dockerfile at `file` installs `torch` at all (pip, uv, conda, from any
    source): then the image's PyTorch is that install's, whatever its base holds."""
    read = dockerfile_read(file)
    if read is None:
        return True
    for inst in read[1].instructions:
        if inst.keyword != "RUN":
            continue
        for command in re.split(r"&&|\|\||;|\n", inst.args.replace("\\\n", " ")):
            if _INSTALL_COMMAND.search(command) and _TORCH_NAMED.search(command):
                return True
    return False


_PYTORCH_BASES = ("rocm/pytorch", "pytorch/pytorch")
"""Image repositories whose tag says which PyTorch release they hold (`rocm/pytorch:…_release_2.3.0`,
`pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime`); `-nightly` repositories hold nightly builds."""
_RELEASE_TAG = {
    "rocm/pytorch": re.compile(r"(?:\A|_)pytorch_(?:release_)?\d+\.\d+(?:\.\d+)?\Z"),
    "pytorch/pytorch": re.compile(r"\A\d+\.\d+(?:\.\d+)?(?:-|\Z)"),
}
_PRE_RELEASE = re.compile(r"nightly|staging|preview|\.dev|(?<![a-z])rc\d|alpha|beta", re.IGNORECASE)
"""A tag naming a pre-release (`…_pytorch_2.4.0rc1`, `2.5.0.dev20240601`); `devel` is a flavour, not one."""


def _base_channel(image: str) -> str | None:
    """`nightly` or `release`: the PyTorch channel a base image's reference names
    (`rocm/pytorch-nightly:latest`, `rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0`),
    or None when it names none (another image, a `latest` tag, a tag of no PyTorch version)."""
    reference = image.split("@", 1)[0]
    name, _, tag = reference.rpartition(":") if ":" in reference.rsplit("/", 1)[-1] else (reference, "", "")
    repository = "/".join(name.lower().split("/")[-2:])
    if repository in {f"{r}-nightly" for r in _PYTORCH_BASES}:
        return "nightly"
    if repository not in _PYTORCH_BASES:
        return None
    if "nightly" in tag.lower():
        return "nightly"
    if _RELEASE_TAG[repository].search(tag) and not _PRE_RELEASE.search(tag):
        return "release"
    return None


def _base_sources(models: tuple[ImageModel, ...]) -> list[tuple[str, int, str, str]]:
    """(Dockerfile, FROM line, channel, base) of each image whose built stage starts, through its
    parent stages, from a PyTorch image whose reference names a channel (`_base_channel`), written in
    the FROM line itself (a build arg may pick another base), when no RUN installs torch over it and
    no requirements file or project it installs pins torch.
    Empty when an image's base names no channel: the images must all say one."""
    found = []
    for model in models:
        if not model.file or not model.stages:
            return []
        stage = model.stages[model.target_index]
        while stage.parent is not None:
            stage = model.stages[stage.parent]
        channel = _base_channel(stage.base) if "$" not in stage.base_raw else None
        if channel is None:
            return []
        try:
            stat = os.stat(model.file)
        except OSError:
            return []
        if _torch_installed_at(model.file, stat.st_mtime_ns, stat.st_size) or any(
            raw_name(pin.name) == "torch"
            for pin in manifest_pins(model.file, model.path, model.installs, model.context_copies)
        ):
            return []
        found.append((model.path, stage.line, channel, stage.base))
    return found


def channel_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A line saying PyTorch comes from the nightly channel (`PyTorch with XPU support (from `torch`
    nightly)`) while every pip command of the images installing `torch` from a download.pytorch.org index
    uses a release index (`/whl/xpu`, not `/whl/nightly/xpu`), or the stable channel while each uses
    the nightly one. `certain` in a list item or a table row, `likely` in a sentence. Not a line that
    gives the channel as an option or as history (`_NOT_NOW`), nor when the images install torch from
    both channels, or from no PyTorch index (PyPI, a requirements file, the base image), or from one a
    variable picks (`…/whl/${TORCH_CUDA_VERSION}`)."""
    sources = [s for model in auditor.models for s in _torch_sources(model)]
    bases = [] if sources else _base_sources(auditor.models)
    channels = {channel for _, channel, _ in sources} | {channel for _, _, channel, _ in bases}
    if len(channels) != 1 or "test" in channels:
        return
    (channel,) = channels
    said = _SAYS_NIGHTLY if channel == "release" else _SAYS_STABLE
    if sources:
        line_at, _, index = sources[0]
        fact = f"{auditor.models[0].path}:{line_at} installs torch from the {channel} index {index}"
    else:
        path, line_at, _, base = bases[0]
        fact = f"{path}:{line_at} starts FROM {base}, a {channel} image of PyTorch"
    lines = [(n, t, bool(_ITEM_OR_ROW.match(t))) for para in doc.paragraphs for n, t in para.lines]
    lines += [(n, " | ".join(cells), True) for table in doc.tables for n, cells in table.rows]
    for number, text, itemised in sorted(lines):
        found = said.search(text)
        if found is None or _NOT_NOW.search(text):
            continue
        claim = "the nightly channel" if channel == "release" else "the stable channel"
        yield Diagnostic(
            auditor.path,
            number,
            f"README says PyTorch comes from {claim}, but {fact}",
            confidence=CERTAIN if itemised else LIKELY,
        )


_CONDA_SAID = re.compile(r"(?<![\w/.-])(miniconda|miniforge|mambaforge)3?(?![\w/-])", re.IGNORECASE)
"""A conda distribution a sentence names (`Miniconda`, `Miniforge3`); not a path (`/opt/miniconda3/bin`)."""
_USES = re.compile(
    r"\b(?:uses?|using|used|includes?|installs?|installed|with|via|comes?[ \t]+with|ships|provides?"
    r"|based[ \t]+on|built[ \t]+on|managed[ \t]+by|relies[ \t]+on)\b",
    re.IGNORECASE,
)
"""Words saying the image has or uses what the sentence names."""
_NOT_NOW = re.compile(
    r"\b(?:not|no|never|without|instead|previous(?:ly)?|former(?:ly)?|switch(?:ed|es)?|migrat\w*|replac\w*"
    r"|used[ \t]+to|old|legacy|if|optional(?:ly)?|alternatively|prefer|recommend\w*)\b|n't\b|\?",
    re.IGNORECASE,
)
"""Words making a sentence no statement of what the image holds now: a negation, history, a choice."""
_CONDA_INSTALLER = re.compile(
    r"(?<![\w-])(Miniconda|Miniforge|Mambaforge|Anaconda)3?-(?=latest|py\d|\d|\$|Linux|MacOSX|Windows)"
    r"|\brepo\.(?:anaconda|continuum)\.(?:com|io)/(miniconda|archive)\b|\bconda-forge/(miniforge)\b"
    r"|\bcontinuumio/(miniconda|anaconda)3?\b|\bcondaforge/(miniforge|mambaforge)[\w-]*"
    r"|\bmambaorg/(micromamba)\b",
    re.IGNORECASE,
)
"""Where a Dockerfile gets a conda distribution: its installer (`Miniforge3-Linux-x86_64.sh`,
`Miniconda3-latest-…`), the site it is downloaded from, or a base image of it (`continuumio/miniconda3`,
`condaforge/miniforge3`). An install folder (`/root/miniconda3`) tells nothing."""
_CONDA_MAKER = {
    "miniconda": "anaconda",
    "anaconda": "anaconda",
    "archive": "anaconda",
    "miniforge": "conda-forge",
    "mambaforge": "conda-forge",
    "micromamba": "micromamba",
}
"""Who makes each conda distribution: Miniconda and Anaconda are Anaconda's (its channels and terms),
Miniforge and Mambaforge conda-forge's."""


def _conda_installs(model: ImageModel) -> list[tuple[int, str, str]]:
    """(Dockerfile line, what names it, maker) of each conda distribution the image gets: an installer a
    RUN downloads, a base image it starts from, an ARG or ENV naming the installer, or one a copied
    build-context file downloads (at the COPY's line). Comments are not read."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    found = []
    for inst in read[1].instructions:
        if inst.keyword in ("RUN", "FROM", "ARG", "ENV"):
            matches = sorted(_CONDA_INSTALLER.finditer(inst.args), key=lambda m: m.group(1) is None)
            for match in matches:  # (the installer's name first: `Miniforge3`, not its site)
                kind = next(g for g in match.groups() if g).lower()
                found.append((inst.start_line, match.group().rstrip("-"), _CONDA_MAKER[kind]))
    copied = copied_texts(model.file, model.context_copies)
    for file, text in copied[0] if copied is not None else ():
        for match in _CONDA_INSTALLER.finditer(text):
            kind = next(g for g in match.groups() if g).lower()
            found.append((file.line, match.group().rstrip("-"), _CONDA_MAKER[kind]))
    return found


def distribution_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying the image uses a conda distribution (`The container uses Miniconda to manage the
    environment`) while every image compared gets conda from another maker's (`Miniforge3-Linux-x86_64.sh`
    into `/root/miniconda3`: Miniforge, whatever the folder is called), and none names the one said
    (`likely`). A sentence naming two distributions (`switched from Miniconda to Miniforge`), a negation,
    history or a choice is not read."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    installs = [_conda_installs(m) for m in models]
    if not all(installs):
        return
    makers = {maker for found in installs for _, _, maker in found}
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            said = {m.group(1).lower() for m in _CONDA_SAID.finditer(sentence)}
            if len(said) != 1 or not _USES.search(sentence) or _NOT_NOW.search(sentence):
                continue
            name = _CONDA_SAID.search(sentence)
            assert name is not None
            if _CONDA_MAKER[name.group(1).lower()] in makers:
                continue
            line, written, _ = installs[0][0]
            yield Diagnostic(
                auditor.path,
                line_at(para.lines, start),
                f"README says the image uses {name.group()} but {models[0].path}:{line} installs"
                f" {written}, not {name.group()}",
                confidence=LIKELY,
            )


_INSTALLED_FROM_LINK = re.compile(
    r"(?<![\w.+*`-])[*_`]*(?P<name>[A-Za-z][\w.+-]*[A-Za-z0-9])[*_`]*[ \t]+(?:is|are|gets|get|was|were)[ \t]+"
    r"(?P<how>(?:installed|built|provided)[ \t]+(?:with|from|using|via|through|by))[ \t]+"
    r"(?:(?:the|this|that|a|an)[ \t]+)?(?:[\w-]+[ \t]+){0,3}?"
    r"(?:\[[^\[\]]{1,100}\]\((?P<link>https?://[^()\s]{1,300})\)|<?(?P<url>https?://[^\s()<>]{1,300}))",
    re.IGNORECASE,
)
"""`Fastbook is installed with [this repository](https://github.com/KumaTea/pytorch-aarch64)`, `torch is
installed from https://…`: a package and the place a sentence says it comes from. It starts at the first
mark before the name (from each `*` of a run of 20,000 it read the rest of the run: n²)."""
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "huggingface.co")
_SOURCE_OPTIONS = re.compile(
    r"(?:^|[ \t])(?:-i|--index-url|--extra-index-url|-f|--find-links|-c|--constraint|-r|--requirement"
    r"|-e|--editable|--channel|--override-channels)(?=[ \t=])|://|\.whl\b|@[ \t]",
)
"""What gives an install a source other than the default index: an index, links, a constraint, a URL, a
wheel file, a channel."""


def _link_marks(url: str) -> list[str]:
    """The names (as `raw_name`) a build would write if it used `url`: a repository's owner and name
    (`kumatea`, `pytorchaarch64`), else the site's host and first path part."""
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    path = [p for p in parts.path.split("/") if p]
    if host in _CODE_HOSTS and len(path) >= 2:
        marks = [path[0], path[1].removesuffix(".git")]
    else:
        marks = [host.split(":")[0], *path[:1]]
    return [raw_name(m) for m in marks if len(raw_name(m)) >= 4]


def _plain_install(model: ImageModel, package: str) -> int | None:
    """The Dockerfile line of the RUN that installs `package` with pip, uv or conda from the default index
    and nothing else telling where from (`_SOURCE_OPTIONS`); None when none does, or an install of it
    names a source."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    word = re.compile(rf"(?<![\w.+/-]){re.escape(package)}(?![\w/-])", re.IGNORECASE)
    line = None
    for inst in read[1].instructions:
        if inst.keyword != "RUN":
            continue
        for command in _COMMAND_SEP.split(inst.args):
            if not _INSTALLS.search(command) or not word.search(command):
                continue
            if _SOURCE_OPTIONS.search(command):
                return None
            line = line or inst.start_line
    return line


_INSTALLS = re.compile(r"\b(?:" + PIP + r"|uv[ \t]+pip|conda|mamba|micromamba)[ \t]+install\b")


def source_link_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying a package is installed with, from or through a linked repository or site
    (`Fastbook is installed with [this repository](https://github.com/KumaTea/pytorch-aarch64)`) while the
    Dockerfile installs that package with plain pip or conda from the default index (no index, links,
    URL or wheel file) and nothing of the build names the repository's owner or name, or the site
    (`likely`). A negated sentence, or history, is not read."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            match = _INSTALLED_FROM_LINK.search(sentence)
            if match is None or _NOT_NOW.search(sentence):
                continue
            url = match.group("link") or match.group("url")
            marks = _link_marks(url)
            if not marks or any(mark in install_text(m) for m in models for mark in marks):
                continue
            name = match.group("name")
            where = [(m, line) for m in models if (line := _plain_install(m, name.lower())) is not None]
            if len(where) != len(models):
                continue
            model, line = where[0]
            how = " ".join(match.group("how").split())
            yield Diagnostic(
                auditor.path,
                line_at(para.lines, start),
                f"README says {name} is {how} {url} but {model.path}:{line} installs it from the"
                " default index, and nothing of the build names that source",
                confidence=LIKELY,
            )


_PREBUILT_THING = re.compile(
    r"\b(?:pre-?built|pre-?compiled)[ \t]+(?:[`*_]{0,2})(?P<name>[A-Za-z][\w.+-]*[A-Za-z0-9])[`*_]{0,2}"
    r"(?:[ \t]+[A-Za-z][\w.+-]*){0,2}?[ \t]+"
    r"(?P<kind>compilers?|tool-?chains?|binar(?:y|ies)|librar(?:y|ies)|releases?|executables?)\b"
    r"|\b(?:pre-?built|pre-?compiled)[ \t]+(?P<kind2>compilers?|tool-?chains?|binar(?:y|ies)|librar(?:y|ies)"
    r"|releases?|executables?)[ \t]+(?:of|for)[ \t]+(?:the[ \t]+)?[`*_]{0,2}"
    r"(?P<name2>[A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""A build of something made elsewhere (`a pre-built DPCPP CUDA compiler`, `prebuilt binaries of
llama.cpp`): the thing's name and what it is."""
_MADE_WITH = re.compile(
    r"\b(?:uses?|using|used|relies[ \t]+on|relying[ \t]+on|based[ \t]+on|built[ \t]+(?:with|on)"
    r"|downloads?|downloading|fetch(?:es)?|fetching|pulls?|installs?|installing)[ \t]+"
    r"(?:(?:a|an|the|its|some)[ \t]+)?\Z",
    re.IGNORECASE,
)
"""The words right before it that say the image is made with it (`uses a`, `installs the`, `downloads`):
an image that ships, includes or provides `pre-built binaries` may have compiled them itself, for its
users."""
_ELSEWHERE = re.compile(r"\bavailable\b|\belsewhere\b|\balternative", re.IGNORECASE)
_NOT_A_THING = frozenset(
    {"docker", "image", "images", "container", "base", "the", "a", "an", "cuda", "gpu", "cpu", "linux"}
    | {"x86", "arm64", "amd64", "python", "version", "official", "upstream", "release", "binary"}
)
"""Words after `pre-built` that name no one thing the Dockerfile could build (`pre-built CUDA binaries`)."""
_BUILD_SCRIPT = re.compile(r"(?<![\w-])[\w./-]*?([\w-]+)\.(?:sh|bash|py)\b")
"""A script a RUN runs (`/build_dpcpp.sh`, `scripts/compile-llvm.sh`), its file name without the suffix."""
_BUILD_VERB = re.compile(r"build|compile", re.IGNORECASE)
_GETS_IT = re.compile(r"\b(?:curl|wget|aria2c|gh[ \t]+release|pip3?|conda|mamba|apt-get|apt|apk|dnf|yum)\b")
_BRANCHES = re.compile(r"\bif\b|\bcase\b|\|\|")


def _chain_runs(model: ImageModel) -> list[tuple[int, str]]:
    """(line, instruction) of each RUN, COPY and ADD of the stages the image is built from (not a builder
    stage whose files it copies), comment lines dropped: `RUN …`, `ADD …`, `COPY --from …` for a COPY
    from another stage or image."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    spans = [model.stage_lines(s) for s in model.chain()]
    return [
        (i.start_line, ("COPY --from " if i.flag("from") else f"{i.keyword} ") + i.args)
        for i in read[1].instructions
        if i.keyword in ("RUN", "COPY", "ADD") and any(a <= i.start_line <= b for a, b in spans)
    ]


def _built_here(model: ImageModel, name: str) -> tuple[int, str] | None:
    """(line, what) of the RUN of the image's own stages that builds `name` from source: one that runs a
    build script named after it (`/build_dpcpp.sh`), or the component of that name checked out and built
    (`Component.method` `source`); None when none does, or when an instruction of those stages naming it
    downloads or installs something, copies from another stage or image (a prebuilt may be used after
    all), or runs its build script only in a branch (`if`, `||`)."""
    key = raw_name(name)
    runs = _chain_runs(model)
    found: tuple[int, str] | None = None
    for line, command in runs:
        if key not in raw_name(command):
            continue
        if command.startswith(("COPY --from ", "ADD http")) or _GETS_IT.search(command):
            return None  # (a download, a package, a copy from another image: may be the prebuilt one)
        if not command.startswith("RUN "):
            continue  # (a build script copied from the build context)
        for match in _BUILD_SCRIPT.finditer(_CHMOD.sub("", command)):
            stem = match.group(1)
            if key in raw_name(stem) and _BUILD_VERB.search(stem):
                if _BRANCHES.search(command):
                    return None
                found = found or (line, match.group())
    if found is not None:
        return found
    chain = {s.label for s in model.chain()}
    for comp in model.components:
        if comp.stage in chain and comp.method == "source" and raw_name(comp.name) == key:
            return comp.line, f"{comp.source or comp.name}, checked out and built"
    return None


_CHMOD = re.compile(r"\bchmod[ \t]+[^;&|]*")


def prebuilt_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying the image is made with a pre-built thing (`uses a pre-built DPCPP CUDA compiler`,
    `downloads prebuilt binaries of llama.cpp`: `_MADE_WITH` right before it) that every Dockerfile compared
    builds from source in the image's own stages (`_built_here`: a build script named after it, a clone
    of its repository built) (`likely`). A builder stage whose output the image copies is a prebuilt for
    the image, and is not read; nor is a sentence saying the image ships or provides pre-built binaries
    (it may have compiled them for its users), a negated or conditional one, or one about builds
    available elsewhere."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    for para in doc.paragraphs:
        joined = " ".join(text for _, text in para.lines).lower()
        if "pre" not in joined or not re.search(r"pre-?(?:built|compiled)", joined):
            continue  # (most paragraphs)
        for start, _, sentence in sentences(para.lines):
            if _NEGATED.search(sentence) or _CONDITIONAL.search(sentence) or _ELSEWHERE.search(sentence):
                continue
            for match in _PREBUILT_THING.finditer(sentence):
                if not _MADE_WITH.search(sentence, 0, match.start()):
                    continue  # (`ships pre-built binaries`: compiled by the image build, for its users)
                name = match.group("name") or match.group("name2")
                if name.lower() in _NOT_A_THING or len(raw_name(name)) < 3:
                    continue
                built = [_built_here(m, name) for m in models]
                if any(b is None for b in built):
                    continue
                line, what = built[0] or (0, "")
                said = " ".join(match.group().split())
                yield Diagnostic(
                    auditor.path,
                    line_at(para.lines, start),
                    f"README says the image uses `{said}` but {models[0].path}:{line} builds {name} from"
                    f" source (`{what}`): it is no prebuilt",
                    confidence=LIKELY,
                )
