"""A build command that passes a CUDA release (`make … DOCKERFILE_PATH=./docker/Dockerfile-ubuntu
CUDA_VERSION=11.8.0`, `docker build --build-arg CUDA_VERSION=11.8 -f Dockerfile.gpu .`) to a Dockerfile
whose PyTorch wheels are fixed to another one in its text (`torch==${TORCH}+cu117`, `--extra-index-url
…/whl/cu117`): the image the command names for CUDA 11.8 gets CUDA 11.7 PyTorch, whatever is passed.

Each command of the README's command blocks is read once; each Dockerfile it names once.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import fence_commands, joined
from docgen.audit.wording import offered_items
from docgen.build_scripts import BUILD_COMMAND
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PASSED = re.compile(
    r"(?:^|[ \t])(?:--build-arg[ \t=]+)?[\"']?(?P<name>CUDA(?:_VERSION|_VER)?)="
    r"[\"']?(?P<version>\d{1,2}\.\d+(?:\.\d+)?)"
    r"(?=[\"']?(?:$|[ \t;&|]))",
    re.IGNORECASE,
)
"""A CUDA release a command passes as a make variable or a build arg (`CUDA_VERSION=11.8.0`,
`--build-arg CUDA=12.1`)."""
_BUILD = re.compile(r"(?:^|[ \t;&|(])make(?=[ \t]|$)|" + BUILD_COMMAND)
"""A build command, or a `make` (a Makefile target that builds the image, its Dockerfile in a variable)."""
_FILE = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)[\"']?([^\s\"'`;|&]+)")
"""The Dockerfile a `docker build` builds: `-f docker/Dockerfile.gpu`."""
_MAKE_FILE = re.compile(r"(?:^|[ \t])[A-Z_]*DOCKERFILE[A-Z_]*=[\"']?([^\s\"'`;|&]+)")
"""The Dockerfile a `make` variable names: `DOCKERFILE_PATH=./docker/Dockerfile-ubuntu`."""
_WHEEL_CUDA = re.compile(r"\+cu(\d{2,3})\b|/whl/(?:nightly/|test/)?cu(\d{2,3})\b")
"""A CUDA release written into a wheel's pin or its index: `+cu117`, `…/whl/cu117`."""
_CHOSEN = re.compile(r"\+cu\$|/whl/(?:nightly/|test/)?cu\$|\+\$|/whl/\$")
"""A wheel's CUDA read from a variable (`+cu${CU_VERSION}`, `/whl/${CUDA_TAG}`)."""
_TORCH = re.compile(r"\btorch|\bpyg\b|pytorch")


def _release(digits: str) -> tuple[int, int]:
    """(11, 7) for `117`, (9, 2) for `92`."""
    return int(digits[:-1]), int(digits[-1])


def _wheel_cuda(model: ImageModel) -> tuple[tuple[int, int], int] | None:
    """(CUDA release, first line) that the PyTorch wheels of the Dockerfile of `model` are fixed to in
    its text, when every such wheel names the same one and no wheel's CUDA comes from a variable; None
    otherwise."""
    text = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES) if model.file else None
    if not text:
        return None
    found: set[tuple[int, int]] = set()
    first = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        if _CHOSEN.search(line):
            return None
        for match in _WHEEL_CUDA.finditer(line):
            if _TORCH.search(line) is None:
                continue
            found.add(_release(match.group(1) or match.group(2)))
            first = first or number
    if len(found) != 1:
        return None
    return found.pop(), first


def _named(path: str, models: Sequence[ImageModel]) -> ImageModel | None:
    """The one model whose Dockerfile a command's path names (`./docker/x/Dockerfile-ubuntu` names
    `docker/x/Dockerfile-ubuntu`, and `Dockerfile-ubuntu` beside the README)."""
    wanted = posixpath.normpath(path)
    while wanted.startswith("../"):
        wanted = wanted[3:]
    matched = [
        m
        for m in models
        if (have := posixpath.normpath(m.path)) == wanted
        or have.endswith("/" + wanted)
        or wanted.endswith("/" + have)
    ]
    return matched[0] if len(matched) == 1 else None


def _differs(passed: tuple[int, int], wheel: tuple[int, int]) -> bool:
    """Whether wheels built for CUDA `wheel` are not those of the release `passed`: another major
    release, or before CUDA 12 another minor one. From CUDA 12 on, PyTorch's wheels take the CUDA
    libraries from pip's `nvidia-*-cu12` packages and load on any 12.y: a `cu121` wheel on 12.4 is
    the project's choice of the wheels published, not a slip."""
    if passed[0] != wheel[0]:
        return True
    return passed[0] < 12 and passed[1] != wheel[1]


def fixed_wheels(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A build command (`make`, `docker build`) of a command block passing a CUDA release
    (`CUDA_VERSION=11.8.0`, `--build-arg CUDA=11.8`) to a Dockerfile it names (`-f`, a
    `…DOCKERFILE…=` variable; the only one audited for a `docker build` naming none) whose PyTorch
    wheels are fixed in its text to another release (`+cu117`, `…/whl/cu117`) and none reads its CUDA
    from a variable (`likely`): `README builds Dockerfile-ubuntu with CUDA_VERSION=11.8.0, but its PyTorch
    wheels are fixed to CUDA 11.7 (Dockerfile-ubuntu:117: +cu117), whatever is passed`."""
    wheels: dict[str, tuple[tuple[int, int], int] | None] = {}
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = joined(command)
            build = _BUILD.search(text)
            passed = _PASSED.search(text)
            if build is None or passed is None:
                continue
            make = build.group(0).endswith("make")
            named = (_MAKE_FILE if make else _FILE).search(text, build.end())
            if named is not None:
                model = _named(named.group(1), models)
            elif not make and len(models) == 1:
                model = models[0]
            else:
                model = None
            if model is None:
                continue
            if model.path not in wheels:
                wheels[model.path] = _wheel_cuda(model)
            fixed = wheels[model.path]
            version = passed.group("version")
            release = tuple(int(p) for p in version.split(".")[:2])
            if fixed is None or not _differs((release[0], release[1]), fixed[0]):
                continue
            wheel, at = fixed
            yield Diagnostic(
                readme,
                command[0][0],
                f"README builds {model.path} with {passed.group('name')}={version}, but its PyTorch wheels "
                f"are fixed to CUDA {wheel[0]}.{wheel[1]} ({model.path}:{at}: "
                f"cu{wheel[0]}{wheel[1]}), whatever is passed",
                confidence=LIKELY,
            )


# --------------------------------------------------------------------------------------------------
# The wheel index a sentence says the Dockerfile points pip to

_SAID_INDEX = re.compile(
    r"\b(?:wheel|whl)s?[ \t-]+(?:index|channel|repo(?:sitory)?)\b|\bindex[ \t-]+url\b|\bextra[ \t-]+index\b"
    r"|download\.pytorch\.org/whl",
    re.IGNORECASE,
)
"""Words of a sentence about the index pip installs PyTorch's wheels from."""
_SAID_FLAVOUR = re.compile(r"(?<![+\w.-])(cu\d{3}|rocm\d+(?:\.\d+)+)(?![\w.])")
"""A wheel flavour a sentence names on its own (`cu124`, `rocm6.2`), not a pin's label (`+cu124`)."""
_INDEX_FLAVOUR = re.compile(r"/whl/(?:nightly/|test/)?(cu\d{3}|rocm\d+(?:\.\d+)+|cpu|[^/\s\"']*\$)")
"""The flavour an index URL of the Dockerfile gives (`…/whl/cu128`), or `$` when a variable gives it."""
_INDEX_OPTION = re.compile(
    r"--(?:extra-)?index-url|--find-links|(?:^|[ \t])-f[ \t]|PIP_(?:EXTRA_)?INDEX_URL|UV_"
)
_REQUIREMENTS = re.compile(r"(?:^|[ \t])(?:-r|--requirement)[ \t=]+[\"']?([\w./-]+\.(?:txt|in))")
_INDEX_VARIABLE = re.compile(r"--(?:extra-)?index-url(?:[ \t]+|=)[\"']?\$\{?([A-Za-z_]\w*)")
"""An index option that takes its URL from a variable: `--index-url ${ROCM_WHEEL_INDEX}`."""
_SETTING = re.compile(r"[ \t]*(?:ARG|ENV)[ \t]+([A-Za-z_]\w*)[ \t]*=", re.IGNORECASE)
"""An ARG or ENV line giving a variable its value (`ARG ROCM_WHEEL_INDEX=https://…/whl/rocm6.0`)."""
_LEFT_TO_READER = re.compile(
    r"\b(?:replace|change|edit|your|e\.g\.|for example|adjust|match|overrid(?:e|es|ing|den))(?!\w)",
    re.IGNORECASE,
)
"""Words of a sentence telling the reader to set the index (`Override `--cuda-index-url` to the proper URL
(e.g., cu121, cu118)`): the flavours it names are choices, not the image's."""


def _index_flavours(model: ImageModel) -> list[tuple[str, str, int]] | None:
    """(flavour, file shown, line) of each PyTorch index URL of the Dockerfile of `model` and of the
    requirements files it installs from its folder (`-r requirements.txt`), comments left out; None
    when a flavour comes from a variable."""
    text = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES) if model.file else None
    if not text:
        return []
    found: list[tuple[str, str, int]] = []
    files: list[tuple[str, str]] = [(model.path, text)]
    folder = Path(model.file).parent
    for name in dict.fromkeys(m.group(1) for m in _REQUIREMENTS.finditer(text)):
        if ".." in name.split("/") or name.startswith("/"):
            continue
        body = text_or_none(folder / name, MAX_PROJECT_FILE_BYTES)
        if body is not None:
            files.append((posixpath.join(posixpath.dirname(model.path), name), body))
    # the variables an index option of the Dockerfile reads: the ARG or ENV giving one its URL is an index
    read = frozenset(_INDEX_VARIABLE.findall(text))
    for shown, body in files:
        for number, line in enumerate(body.splitlines(), start=1):
            code = line.split(" #", 1)[0]
            if code.lstrip().startswith("#") or "download.pytorch.org" not in code:
                continue
            setting = _SETTING.match(code) if shown == model.path else None
            index = setting is not None and setting.group(1) in read
            if not index and not _INDEX_OPTION.search(code) and shown == model.path and "pip" not in code:
                continue
            for match in _INDEX_FLAVOUR.finditer(code):
                if match.group(1).endswith("$"):
                    return None
                found.append((match.group(1), shown, number))
    return found


def said_indexes(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A sentence of the prose naming the PyTorch wheel index pip uses (`The Dockerfile points pip to
    PyTorch's cu124 wheel index`) by a flavour (`cu124`, `rocm6.2`) that no index URL of the audited
    Dockerfiles' installs (nor of the requirements files they install) names, while they name others
    (`--extra-index-url https://download.pytorch.org/whl/cu128`): `likely`, read from prose. Silent when a
    flavour of the Dockerfile comes from a variable, when none names an index, on a sentence telling
    the reader to change it (`Override … (e.g., cu121, cu118)`), on one naming a build arg (its default
    is the build-arg rules' to compare), and on an item a lead-in offers as a value to pass instead
    (`wording.offered_items`: `- CUDA 11.8: `--cuda-index-url …/whl/cu118`` under `override via
    `--cuda-index-url`:`). An install whose index URL is a variable (`--index-url ${ROCM_WHEEL_INDEX}`)
    uses the value the ARG or ENV giving it writes out."""
    sentences: list[tuple[int, str, list[str]]] = []
    for para in doc.paragraphs:
        offered = offered_items(para.lines, para.before)  # `- CUDA 12.1: `--…-index-url …/cu121`` to pass
        for line, text in para.lines:
            if line in offered:
                continue
            for sentence in re.split(r"(?<=[.!?;])[ \t]+", text):
                if not _SAID_INDEX.search(sentence) or _LEFT_TO_READER.search(sentence):
                    continue
                flavours = [m.group(1).lower() for m in _SAID_FLAVOUR.finditer(sentence)]
                if flavours:
                    sentences.append((line, sentence, flavours))
    # a sentence naming a build arg (`ROCM_WHEEL_INDEX` - … (default: rocm6.0)) gives its default: the
    # build-arg rules compare it with that arg's, image by image
    declared = {arg.name for model in models for arg in model.args}
    sentences = [s for s in sentences if not declared.intersection(re.findall(r"\w+", s[1]))]
    if not sentences:
        return
    used: list[tuple[str, str, int]] = []
    for model in models:
        found = _index_flavours(model)
        if found is None:
            return
        used += found
    if not used:
        return
    have = {flavour for flavour, _, _ in used}
    for line, _, flavours in sentences:
        if any(f in have for f in flavours):
            continue
        shown = ", ".join(f"{where}:{at}: …/whl/{flavour}" for flavour, where, at in used[:3])
        yield Diagnostic(
            readme,
            line,
            f"README says pip uses PyTorch's {flavours[0]} wheel index, but the image's installs use {shown}",
            confidence=LIKELY,
        )
