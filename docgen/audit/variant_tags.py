"""Compose services whose image tag names one hardware variant while they build another.

A compose file that builds an image names it (`image: owner/app:cuda`) and says which Dockerfile
builds it (`build.dockerfile: rocm.dockerfile`). An image family built for several accelerators tells
its variants apart by a word in the tag (`cuda`, `rocm`, `nocuda`, `cpu`, `gpu`, `xpu`) and the same
word in the Dockerfile's name (`Dockerfile.cuda`, `nocuda.dockerfile`). When the two name different
variants that exclude each other (a `:cuda` tag built from `nocuda.dockerfile`, a `:cpu` tag from
`Dockerfile.gpu`), or the tag names CUDA (ROCm) while the Dockerfile builds on a ROCm (NVIDIA CUDA)
base image, `docker compose build` puts one variant's build under the other's name: a service edited
to try the other Dockerfile and its `image:` left as it was. The README line that repeats the tag or
runs `docker compose build`/`up` for that file is reported `certain`; a sentence naming the compose
file only is reported `likely`.

Not read: a tag or a Dockerfile name naming no variant (`latest`, `Dockerfile`) unless the base image
says one, a tag naming variants of both sides (`cuda-rocm`), a service whose build args or any
`target:` of the file may select the variant, a tag with `$`, a Dockerfile that is not there, and
variants that can hold together (`gpu` and `cuda`, `nocuda` and `rocm`).

Every regular expression runs on one tag, one file name, one base image or one README line.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.memo import per_audit
from docgen.audit.names import Composed, compose_files
from docgen.audit.paths import resolves_inside
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import is_dockerfile_name, real_path
from docgen.markdown import Document, headings_over
from docgen.model import Diagnostic, ImageModel

_VARIANTS = frozenset({"cuda", "rocm", "nocuda", "cpu", "gpu", "xpu"})
_CLASHES = {
    "cuda": frozenset({"rocm", "nocuda", "cpu", "xpu"}),
    "rocm": frozenset({"cuda", "cpu", "xpu"}),
    "nocuda": frozenset({"cuda"}),
    "cpu": frozenset({"cuda", "rocm", "gpu", "xpu"}),
    "gpu": frozenset({"cpu"}),
    "xpu": frozenset({"cuda", "rocm", "cpu"}),
}
"""For each variant word, the variant words an image of it cannot also be."""
_WORD = re.compile(r"[a-z]+")
_ARG_REF = re.compile(r"\$\{?(\w+)\}?")
_BUILDS = re.compile(
    r"(?<![\w./-])(?:docker[ \t]+compose|docker-compose)(?![\w.-])[^\n]*?[ \t](?:build|up)\b"
)


def _variants(text: str) -> frozenset[str]:
    """The variant words of a tag or file name (`no-cuda`, `non_cuda` and `noncuda` read as `nocuda`)."""
    words = _WORD.findall(text.lower())
    found: set[str] = set()
    for index, word in enumerate(words):
        if word in ("no", "non") and index + 1 < len(words) and words[index + 1] == "cuda":
            found.add("nocuda")
        elif word == "cuda" and index > 0 and words[index - 1] in ("no", "non"):
            continue
        elif word == "noncuda":
            found.add("nocuda")
        elif word in _VARIANTS:
            found.add(word)
    return frozenset(found)


def _clash(tag: frozenset[str], built: frozenset[str]) -> tuple[str, str] | None:
    """(tag variant, built variant) when every variant of both sides excludes every one of the other."""
    if not tag or not built or tag & built:
        return None
    for one in tag:
        if any(other not in _CLASHES[one] for other in built):
            return None
    # the tag must not name variants that exclude each other (a tag naming both sides)
    if any(other in _CLASHES[one] for one in tag for other in tag):
        return None
    return sorted(tag)[0], sorted(built)[0]


@per_audit(maxsize=32)
def _base_variant(path: Path) -> tuple[str, str] | None:
    """(variant, base) of the last stage's base image of the Dockerfile at `path` when it is a ROCm
    (`rocm/…`) or NVIDIA CUDA (`nvidia/cuda…`) image, ARG defaults filled in; None otherwise."""
    try:
        parsed = read_dockerfile(path)
    except (OSError, DocgenError):
        return None
    defaults: dict[str, str] = {}
    stages: dict[str, str] = {}
    base: str | None = None
    for inst in parsed.instructions:
        keyword = inst.keyword.upper()
        if keyword == "ARG" and base is None:
            for word in inst.args.split():
                name, equals, value = word.partition("=")
                if equals:
                    defaults[name] = value.strip("\"'")
        elif keyword == "FROM":
            words = [w for w in inst.args.split() if not w.startswith("--")]
            if not words:
                return None
            image = _ARG_REF.sub(lambda m: defaults.get(m.group(1), m.group(0)), words[0])
            for _ in range(3):
                image = _ARG_REF.sub(lambda m: defaults.get(m.group(1), m.group(0)), image)
            image = stages.get(image.lower(), image)
            if len(words) >= 3 and words[1].lower() == "as":
                stages[words[2].lower()] = image
            base = image
    if base is None or "$" in base:
        return None
    lowered = base.lower()
    if lowered.startswith(("rocm/", "docker.io/rocm/")):
        return "rocm", base
    if lowered.startswith(("nvidia/cuda:", "docker.io/nvidia/cuda:", "nvcr.io/nvidia/cuda:")):
        return "cuda", base
    return None


def variant_tags(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The README line that builds or names the image of a compose service beside it whose tag names
    one hardware variant while its Dockerfile is named for, or built on, another (see the module
    docstring)."""
    files = compose_files(directory, models, project)
    if not files:
        return
    told: set[int] = set()
    for file in files:
        path = directory / file.shown
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if re.search(r"(?m)^[ \t]*target[ \t]*:", text):
            continue
        folder = posixpath.dirname(file.shown)
        building = [s for s in file.services if s.builds]
        for service in building:
            if not service.image or "$" in service.image:
                continue
            _, colon, tag = service.image.rpartition(":")
            if not colon or "/" in tag:
                continue
            tagged = _variants(tag)
            if not tagged:
                continue
            if any(_variants(value) for _, value in service.args):
                continue
            context = service.context or "."
            if "$" in context or "://" in context or context.endswith(".git"):
                continue
            written = service.dockerfile or "Dockerfile"
            if "$" in written:
                continue
            dockerfile = directory / folder / context / written
            if not os.path.isfile(dockerfile) or (
                project is not None and not resolves_inside(dockerfile, project)
            ):
                continue
            named = _variants(posixpath.basename(written))
            fact: str | None = None
            if named:
                clash = _clash(tagged, named)
                if clash:
                    fact = f"its Dockerfile `{written}` is named for `{clash[1]}`"
            else:
                based = _base_variant(real_path(dockerfile))
                if based:
                    clash = _clash(tagged, frozenset({based[0]}))
                    if clash:
                        fact = f"its Dockerfile `{written}` builds on `{based[1]}` ({clash[1]})"
            if fact is None:
                continue
            where = f"{file.shown}:{service.image_line}" if service.image_line else file.shown
            message = (
                f"{where} (service {service.name}) tags the image it builds `{service.image}`, "
                f"naming `{sorted(tagged)[0]}`, but {fact}"
            )
            at = _line(doc, service.image, file.shown, service.name, [s.name for s in building])
            if at is None or at[0] in told:
                continue
            told.add(at[0])
            yield Diagnostic(
                readme, at[0], f"README builds or names image `{service.image}`: {message}", confidence=at[1]
            )


def _line(doc: Document, image: str, shown: str, service: str, others: list[str]) -> tuple[int, str] | None:
    """The README line to report on and how sure: one naming the image (`certain`), else a
    `docker compose build`/`up` in a code block that may build the service (`certain`), else a
    sentence naming the compose file (`likely`)."""
    word = re.compile(rf"(?<![\w.-]){re.escape(image)}(?![\w-]|\.\w)")
    lines: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        lines.extend(para.lines)
    fenced: list[tuple[int, str]] = []
    for fence in doc.fences:
        fenced.extend(fence.lines)
    for number, text in sorted(lines + fenced):
        if image in text and word.search(text):
            return number, CERTAIN
    base = posixpath.basename(shown)
    for number, text in fenced:
        command = _BUILDS.search(text)
        if command is None:
            continue
        if re.search(r"(?:^|[ \t])(?:-f|--file)\b", text) and base not in text:
            continue
        names = set(re.findall(r"[\w.-]+", text[command.end() :]))
        if service not in names and any(o in names for o in others if o != service):
            continue
        return number, CERTAIN
    mention = re.compile(rf"(?<![\w./-]){re.escape(base)}(?![\w-]|\.\w)")
    for number, text in lines:
        if base in text and mention.search(text):
            return number, LIKELY
    return None


# --------------------------------------------------------------------------------------------------
# A README about one GPU platform whose build makes an image of another

_PLATFORM_WORDS = (
    ("rocm", re.compile(r"\bROCm\b|\bAMD\b|\bRadeon\b|\bHIP\b", re.IGNORECASE)),
    ("cuda", re.compile(r"\bCUDA\b|\bNVIDIA\b|\bcuDNN\b", re.IGNORECASE)),
    ("xpu", re.compile(r"\bXPU\b|\boneAPI\b|\bIntel[ \t]+(?:Arc|GPU|Max)\b|\bIPEX\b", re.IGNORECASE)),
    ("npu", re.compile(r"\bAscend\b|\bCANN\b|\bNPU\b", re.IGNORECASE)),
)
"""The words a heading names each GPU platform by."""
_IN_DOCKERFILE = {
    "rocm": re.compile(r"rocm|\bhip|amdgpu|\bgfx\d|radeon", re.IGNORECASE),
    "cuda": re.compile(r"cuda|nvidia|\bcu\d{2,3}\b|cudnn", re.IGNORECASE),
    "xpu": re.compile(r"\bxpu\b|oneapi|intel-extension|\bipex\b|level-zero", re.IGNORECASE),
    "npu": re.compile(r"ascend|\bcann\b|torch[_-]npu", re.IGNORECASE),
}
"""What in a Dockerfile's instructions tells that the image is for each platform (any mention)."""
_INSTALLS = {
    "cuda": re.compile(
        r"pytorch-cuda=|cudatoolkit|download\.pytorch\.org/whl/cu\d+|nvidia-cuda-|cuda-toolkit"
    ),
    "rocm": re.compile(r"download\.pytorch\.org/whl/rocm[\d.]*|\brocm-(?:dev|libs|hip)|\bhipcc\b"),
}
"""Installs that make an image one platform's, on a base that is no platform's."""
_PLATFORM_NAMES = {"rocm": "ROCm", "cuda": "CUDA", "xpu": "Intel XPU", "npu": "Ascend"}
_COMPOSE_BUILD = re.compile(
    r"(?<![\w./-])(?:docker[ \t]+compose|docker-compose)(?![\w.-])[^\n`\"']*?[ \t](?:build|up)\b"
)
_DOCKER_BUILD = re.compile(r"(?<![\w./-])docker[ \t]+(?:buildx[ \t]+)?build\b[^\n`]*")
_FILE_FLAG = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)[\"']?([^\s\"'`;|&]+)")


def _heading_platform(doc: Document, line: int) -> tuple[str, str] | None:
    """(platform, heading) when the headings over README `line` name one GPU platform only."""
    found: dict[str, str] = {}
    for title in headings_over(doc, line):
        for platform, words in _PLATFORM_WORDS:
            if words.search(title):
                found.setdefault(platform, title)
    if len(found) != 1:
        return None
    ((platform, title),) = found.items()
    return platform, title


def _instructions(path: Path) -> str | None:
    """The instructions of the Dockerfile at `path` (comments left out), one a line."""
    try:
        parsed = read_dockerfile(path)
    except (OSError, DocgenError):
        return None
    return "\n".join(f"{inst.keyword} {inst.args}" for inst in parsed.instructions)


def _other_platform(path: Path, platform: str) -> str | None:
    """What makes the Dockerfile at `path` an image of another platform than `platform` (its base, or
    an install on a base of no platform), when nothing of it names `platform`; None otherwise."""
    text = _instructions(path)
    if text is None or _IN_DOCKERFILE[platform].search(text):
        return None
    based = _base_variant(real_path(path))
    if based is not None and based[0] != platform:
        return f"built on {based[1]} ({_PLATFORM_NAMES[based[0]]})"
    for other, installs in _INSTALLS.items():
        if other != platform and (found := installs.search(text)) is not None:
            return f"which installs {found.group(0).rstrip('=-')} ({_PLATFORM_NAMES[other]})"
    return None


def platform_builds(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """A build the README runs under headings about one GPU platform (`# Docker With ROCm Usage`) that
    builds an image of another: `docker compose build`/`up` of the compose file beside the README (in a
    block, a code span or quotes of the prose) whose building services' Dockerfiles are each built on
    another platform's base (`nvidia/cuda:…`) or install only its packages (`pytorch-cuda=11.7`), and
    name nothing of the README's platform; or a `docker build` whose `-f` Dockerfile is so. `certain`
    from a command block, `likely` from prose. Silent when the headings name two platforms, when a
    build arg may pick the base (an arg the FROM reads) and for a Dockerfile that is not there."""
    said: list[tuple[int, str, bool]] = [(n, t, True) for f in doc.fences if not f.inline for n, t in f.lines]
    said += [(n, t, False) for p in doc.paragraphs for n, t in p.lines]
    composed: list[Composed] | None = None
    told: set[str] = set()
    paragraphs = sorted(
        (p.lines[-1][0], p.lines[0][0], " ".join(t for _, t in p.lines)) for p in doc.paragraphs if p.lines
    )
    ends = [end for end, _, _ in paragraphs]
    headings = sorted(doc.levels)
    for line, text, fenced in sorted(said):
        compose_run = _COMPOSE_BUILD.search(text)
        build_run = _DOCKER_BUILD.search(text) if compose_run is None else None
        if compose_run is None and build_run is None:
            continue
        heading = _heading_platform(doc, line)
        if heading is None:
            continue
        platform, title = heading
        if _other_named(text if not fenced else _intro(paragraphs, ends, headings, line), platform):
            continue  # `For CUDA:` over the block, under `## AMD ROCm 6.x`: the line says which
        built: list[tuple[str, Path]] = []  # (how the README's build reaches it, Dockerfile)
        if compose_run is not None:
            if composed is None:
                composed = [c for c in compose_files(directory, models, project) if "/" not in c.shown]
            chosen = _FILE_FLAG.search(text[compose_run.start() :])
            for file in composed:
                if chosen is not None and posixpath.basename(chosen.group(1)) != file.shown:
                    continue
                for service in file.services:
                    dockerfile = _service_dockerfile(directory, file, service, project)
                    if dockerfile is not None:
                        built.append((f"service {service.name} of {file.shown}", dockerfile))
        elif build_run is not None:
            chosen = _FILE_FLAG.search(build_run.group(0))
            if chosen is None or "$" in chosen.group(1):
                continue
            dockerfile = directory / chosen.group(1)
            if os.path.isfile(dockerfile) and (project is None or resolves_inside(dockerfile, project)):
                built.append((f"-f {chosen.group(1)}", dockerfile))
        if not built:
            continue
        facts = [(how, dockerfile, _other_platform(dockerfile, platform)) for how, dockerfile in built]
        if any(fact is None for _, _, fact in facts):
            continue
        for how, dockerfile, fact in facts:
            shown = os.path.relpath(dockerfile, directory)
            if shown in told:
                continue
            told.add(shown)
            beside = [
                n
                for n in _listed(directory)
                if real_path(directory / n) != real_path(dockerfile)
                and (
                    _names(n.replace("_", "-"), platform)
                    or _names(real_path(directory).name.replace("_", "-"), platform)
                    or _names_platform(directory / n, platform)
                )
            ]
            also = (
                f"; the {_PLATFORM_NAMES[platform]} Dockerfile beside the README ({beside[0]}) is not built"
                if beside
                else ""
            )
            yield Diagnostic(
                readme,
                line,
                f"README is about {_PLATFORM_NAMES[platform]} (heading `{title}`), but its build ({how}) "
                f"builds {shown}, {fact}, which names nothing of {_PLATFORM_NAMES[platform]}{also}",
                confidence=CERTAIN if fenced else LIKELY,
            )


def _service_dockerfile(
    directory: Path, file: Composed, service: compose.Service, project: Path | None
) -> Path | None:
    """The Dockerfile a building compose service builds, when it can be told and no build arg of it
    picks the base (an arg a FROM of the Dockerfile reads)."""
    if not service.builds:
        return None
    context = service.context or "."
    written = service.dockerfile or "Dockerfile"
    if "$" in context or "$" in written or "://" in context or context.endswith(".git"):
        return None
    dockerfile = directory / posixpath.dirname(file.shown) / context / written
    if not os.path.isfile(dockerfile) or (project is not None and not resolves_inside(dockerfile, project)):
        return None
    text = _instructions(dockerfile) or ""
    froms = " ".join(row for row in text.splitlines() if row.upper().startswith("FROM "))
    if any(re.search(rf"\$\{{?{re.escape(name)}\b", froms) for name, _ in service.args):
        return None
    return dockerfile


def _listed(directory: Path) -> list[str]:
    try:
        return sorted(n for n in os.listdir(directory) if is_dockerfile_name(n))[:20]
    except OSError:
        return []


def _names_platform(path: Path, platform: str) -> bool:
    text = _instructions(path)
    return text is not None and _IN_DOCKERFILE[platform].search(text) is not None


def _names(text: str, platform: str) -> bool:
    """True when `text` (a file or folder name) names `platform` (`docker-rocm`, `Dockerfile.amd`)."""
    return any(key == platform and words.search(text) for key, words in _PLATFORM_WORDS)


def _intro(paragraphs: list[tuple[int, int, str]], ends: list[int], headings: list[int], line: int) -> str:
    """The text of the paragraph that ends last before README `line` (a block's introduction), when no
    heading lies between (`paragraphs`: (last line, first line, text), sorted; `ends`: their last
    lines; `headings`: the README lines of the headings, sorted)."""
    index = bisect.bisect_left(ends, line) - 1
    if index < 0:
        return ""
    end, _, text = paragraphs[index]
    at = bisect.bisect_right(headings, end)
    return text if at >= len(headings) or headings[at] > line else ""


def _other_named(text: str, platform: str) -> bool:
    """True when `text` names a GPU platform other than `platform`."""
    return any(key != platform and words.search(text) for key, words in _PLATFORM_WORDS)
