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

import functools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.names import compose_files
from docgen.audit.paths import resolves_inside
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import real_path
from docgen.markdown import Document
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


@functools.lru_cache(maxsize=32)
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
