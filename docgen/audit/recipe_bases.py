"""The base image a README says a Singularity or Apptainer definition file beside it starts from, against
the `From:` of that file's header: `Base image is docker://tensorflow/tensorflow` under `### Singularity`
while `Singularity.1.0.1-cuda9-cudnn7-devel` opens with `Bootstrap: docker` and `From:
pytorch/pytorch:1.0.1-cuda9-cudnn7-devel`. A user building the recipe gets the image its header names.

Read: the definition files in the README's folder (`Singularity`, `Singularity.*`, `Apptainer`,
`Apptainer.*`, `*.def`, `*.singularity`, `*.apptainer`) whose header (the lines before the first `%`
section) says `Bootstrap:` a registry source (`docker`, `docker-daemon`, `library`, `shub`, `oras`) and
`From:` an image; in the README, a sentence under a heading about Singularity or Apptainer (or naming
one of them, or a `.def` file, itself) that says the base (`Base image is X`, `based on X`, `bootstraps
from X`) with an image reference (`docker://org/name`, `org/name:tag`, in code or plain). A reference
with no `/`, no tag and no `scheme://` (`Ubuntu`) names no image and is not read.

Told (`likely`: read from prose) when no definition file starts from that repository (a registry
prefix, `docker.io/` and `library/` aside), or when every one that does names another tag. Silent for
advice, a condition, a choice or the past (`you can`, `if`, `or`, `instead`, `was`) in the sentence up
to the reference, and when no
definition file with a registry `From:` is there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_DEFINITION = re.compile(
    r"(?:singularity|apptainer)(?:\..+)?|.+\.(?:def|singularity|apptainer)", re.IGNORECASE
)
"""A definition file's name: `Singularity`, `Singularity.1.0.1-cuda9`, `Apptainer`, `tool.def`."""
_HEADER = re.compile(r"[ \t]*(bootstrap|from)[ \t]*:[ \t]*(\S+)", re.IGNORECASE)
_REGISTRY_BOOTSTRAPS = frozenset({"docker", "docker-daemon", "library", "shub", "oras"})
_MOST_BYTES = 256_000
_TOOL = re.compile(r"\b(?:singularity|apptainer)\b|\.def\b", re.IGNORECASE)
_SAID = re.compile(
    r"\bbase(?:[ \t]+(?:docker[ \t]+|container[ \t]+)?image)?[ \t]*(?:is|:)[ \t]+"
    r"|\b(?:(?:is|are)[ \t]+)?(?:based[ \t]+(?:up)?on|bootstraps?(?:[ \t]+from)?|built[ \t]+(?:on|from)"
    r"|starts?[ \t]+from|derived[ \t]+from)[ \t]+",
    re.IGNORECASE,
)
_REFERENCE = re.compile(
    r"(?:the[ \t]+|an?[ \t]+)?(?:official[ \t]+|latest[ \t]+)*[`*]*"
    r"(?:(docker|docker-daemon|library|shub|oras)://)?"
    r"([a-z0-9][\w.-]*(?:/[\w.-]+)*)(?::([\w][\w.-]*))?",
    re.IGNORECASE,
)
_NOT_A_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bwhen\b|\bunless\b|\byou[ \t]+(?:can|may|could|should|might)\b|\bcan[ \t]+be\b"
    r"|\binstead\b|\bwas\b|\bwere\b|\bused[ \t]+to\b|\bpreviously\b|\bformerly\b|\bor\b|\beither\b"
    r"|\byour\b|\bsuch[ \t]+as\b|\be\.g\.|\bexample\b",
    re.IGNORECASE,
)


def _repository(reference: str) -> str:
    """An image repository as any registry writes it: `docker.io/library/ubuntu` is `ubuntu`."""
    name = reference.lower()
    for prefix in ("index.docker.io/", "registry-1.docker.io/", "docker.io/"):
        if name.startswith(prefix):
            name = name[len(prefix) :]
    return name[len("library/") :] if name.startswith("library/") else name


def definition_bases(directory: Path) -> list[tuple[str, int, str]]:
    """(file name, line, image) of the `From:` of each definition file in `directory` whose `Bootstrap:`
    is a registry, in name order."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    found: list[tuple[str, int, str]] = []
    for name in names:
        if not _DEFINITION.fullmatch(name) or not os.path.isfile(directory / name):
            continue
        text = text_or_none(directory / name, _MOST_BYTES)
        if text is None:
            continue
        bootstrap: str | None = None
        image: tuple[int, str] | None = None
        for number, line in enumerate(text.split("\n"), start=1):
            if line.lstrip().startswith("%"):
                break
            if (header := _HEADER.match(line)) is None:
                continue
            if header.group(1).lower() == "bootstrap":
                bootstrap = header.group(2).lower()
            elif image is None:
                image = (number, header.group(2))
        if bootstrap in _REGISTRY_BOOTSTRAPS and image is not None:
            found.append((name, image[0], image[1]))
    return found


def _sections(doc: Document) -> set[int]:
    """The README lines of the headings about Singularity or Apptainer."""
    return {line for line, text in doc.headings if _TOOL.search(text)}


def recipe_bases(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The base `doc` says a definition file beside it starts from, that none does (see the module
    docstring), once per README line (`likely`)."""
    bases = definition_bases(directory)
    if not bases:
        return
    about = _sections(doc)
    for para in doc.paragraphs:
        under = para.section in about
        for line, words in para.lines:
            if not (under or _TOOL.search(words)):
                continue
            for said in _SAID.finditer(words):
                reference = _REFERENCE.match(words, said.end())
                if reference is None:
                    continue
                start = max(words.rfind(". ", 0, said.start()) + 1, 0)
                if _NOT_A_CLAIM.search(words, start, reference.end()):
                    break  # `If you want, base it on …`: advice, a condition, a choice
                scheme, name, tag = reference.group(1), reference.group(2).rstrip("."), reference.group(3)
                if not (scheme or "/" in name or tag):
                    continue  # `based on Ubuntu`: no image named
                if scheme and scheme.lower() not in ("docker", "docker-daemon"):
                    continue  # a library:// or shub:// image: another namespace than Docker's
                finding = _compare(line, reference.group(0).strip("`* \t"), name, tag, bases, readme)
                if finding is not None:
                    yield finding
                break


def _split(image: str) -> tuple[str, str]:
    """(repository, tag) of a `From:` image: `docker://pytorch/pytorch:1.0.1` is (`pytorch/pytorch`,
    `1.0.1`); no tag is `latest`; a digest is left out."""
    name = re.sub(r"\A[\w-]+://", "", image).split("@", 1)[0]
    head, _, last = name.rpartition("/")
    if ":" in last:
        last, tag = last.split(":", 1)
    else:
        tag = "latest"
    return _repository(f"{head}/{last}" if head else last), tag


def _compare(
    line: int, shown: str, name: str, tag: str | None, bases: list[tuple[str, int, str]], readme: str
) -> Diagnostic | None:
    """A finding when no definition file starts from the repository `name` (at `tag`, when given)."""
    wanted = _repository(name)
    same = [(file, at, image) for file, at, image in bases if _split(image)[0] == wanted]
    if same:
        if tag is None or tag.lower() in (_split(image)[1].lower() for _, _, image in same):
            return None
        file, at, image = same[0]
        message = f"README says the base image is {shown}, but {file}:{at} starts from {image} (its From:)"
        return Diagnostic(readme, line, message, confidence=LIKELY)
    file, at, image = bases[0]
    whom = f"{file}:{at} starts from {image} (its From:)"
    if len(bases) > 1:
        whom = "the definition files start from " + ", ".join(f"{f}:{a} {i}" for f, a, i in bases)
    message = f"README says the Singularity recipe's base image is {shown}, but {whom}"
    return Diagnostic(readme, line, message, confidence=LIKELY)
