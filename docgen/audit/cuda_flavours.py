"""The flavour of the CUDA image a README says the image is (`CUDA 13.0 Runtime` under `It's based on:`,
`built on the CUDA 12.4 devel image`) against the flavour the FROM tag names (`nvidia/cuda:13.0.0-devel-…`):
the `runtime`, `devel` and `base` images of `nvidia/cuda` (`baseimage.flavours`) are different images, a
devel one holding the compiler and headers a runtime one lacks.

Read only where the words name the image itself, never the CUDA libraries (a devel image holds the CUDA
runtime too, so `includes the CUDA 12.4 runtime` is true of it):

- a list item that is the flavour and nothing else (`- **CUDA 13.0 Runtime**`) in a list introduced as
  the image's base (`It's based on:`, `Base image:`);
- the flavour named as an image (`the CUDA 12.4 runtime image`, `CUDA 12.4 devel base image`) in a
  sentence about the image (not a condition, a choice, advice or the past).

Told when the image's final stage starts (itself or through the stages it is built on) from an
`nvidia/cuda` tag of another flavour, and no stage of any image compared starts from one of the flavour
said: a multi-stage build (a devel builder, a runtime final stage) may name both. `likely`: read from
prose. The CUDA release is a version, compared elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.baseimage import flavours
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_FLAVOUR = re.compile(
    r"\bCUDA[ \t]+v?(\d{1,2}(?:\.\d+){0,2})[ \t]+(runtime|devel|development)\b",
    re.IGNORECASE,
)
"""`CUDA 13.0 Runtime`, `CUDA 12.4 devel`: a CUDA release with a flavour word right after it."""
_IMAGE_AFTER = re.compile(r"[ \t]*(?:base[ \t]+)?(?:docker[ \t]+)?(?:image|container)\b", re.IGNORECASE)
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
_MARKUP = re.compile(r"[*_`]+")
_WHOLE_ITEM = re.compile(
    r"(?:NVIDIA[ \t]+)?CUDA[ \t]+v?\d{1,2}(?:\.\d+){0,2}[ \t]+(?:runtime|devel|development)"
    r"(?:[ \t]+(?:base[ \t]+)?image)?[ \t]*[.;,]?",
    re.IGNORECASE,
)
"""A list item that is a flavour and nothing else (markup set aside)."""
_BASE_INTRO = re.compile(
    r"\b(?:based[ \t]+(?:up)?on|built[ \t]+(?:on(?:[ \t]+top[ \t]+of)?|upon|from)|base[ \t]+image)\b"
    r"[^.]{0,20}:",
    re.IGNORECASE,
)
"""The line introducing a list as the image's base: `It's based on:`, `Base image:`."""
_NOT_A_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bwhen\b|\bunless\b|\byou[ \t]+(?:can|may|could|should)\b|\binstead\b|\bwas\b"
    r"|\bwere\b|\bused[ \t]+to\b|\bpreviously\b|\bformerly\b|\bor\b|\beither\b|\byour\b|\bown\b|\bother\b"
    r"|\bswitch|\bchange|\breplace",
    re.IGNORECASE,
)
_TAG_FLAVOUR = re.compile(r"(?:^|-)(base|runtime|devel)(?=-|$)")


def _flavour(reference: str) -> str | None:
    """The flavour (`devel`, `runtime`, `base`) an `nvidia/cuda` reference's tag names, None for another
    repository, a build arg or a tag that names none."""
    if "$" in reference or ":" not in reference.rsplit("/", 1)[-1]:
        return None
    repository = reference.split("@", 1)[0].rsplit(":", 1)[0]
    if not flavours(repository):
        return None
    found = _TAG_FLAVOUR.search(reference.rsplit(":", 1)[1].lower())
    return found.group(1) if found is not None else None


def _final_base(model: ImageModel) -> tuple[str, int] | None:
    """(base, FROM line) of the stage the image's final stage is built on, through its parent stages."""
    if model.target is None or not model.stages:
        return None
    stage, seen = model.stages[model.target.index], 0
    while stage.parent is not None and seen < len(model.stages):
        stage, seen = model.stages[stage.parent], seen + 1
    return (stage.base, stage.line) if stage.base else None


def flavour_claims(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each claim of `part` naming the CUDA image's flavour that the images of `auditor` contradict (see
    the module docstring)."""
    said: list[tuple[int, str, str]] = []  # (README line, words, flavour)
    for para in part.paragraphs:
        joined = " ".join(text for _, text in para.lines)
        if "cuda" not in joined.lower() or _FLAVOUR.search(joined) is None:
            continue  # (most paragraphs)
        intro = next((text for _, text in para.lines if not _ITEM.match(text)), para.before)
        listed = _BASE_INTRO.search(_MARKUP.sub("", intro)) is not None
        for line, text in para.lines:
            item = _ITEM.match(text)
            plain = _MARKUP.sub("", text[item.end() :] if item is not None else text).strip()
            for found in _FLAVOUR.finditer(plain):
                whole = item is not None and listed and _WHOLE_ITEM.fullmatch(plain) is not None
                named = _IMAGE_AFTER.match(plain, found.end()) is not None
                if not whole and not (named and _NOT_A_CLAIM.search(plain) is None):
                    continue
                flavour = "devel" if found.group(2).lower() == "development" else found.group(2).lower()
                said.append((line, found.group(), flavour))
    if not said:
        return
    every = [s.base for m in auditor.models for s in m.stages if s.parent is None and s.base]
    if not every or any("$" in base for base in every):
        return
    held = {_flavour(base) for base in every}
    for line, words, flavour in said:
        if flavour in held:
            continue  # a stage starts from that flavour: a builder, or the image itself
        for model in auditor.models:
            final = _final_base(model)
            other = _flavour(final[0]) if final is not None else None
            if final is None or other is None or other == flavour:
                continue
            base, at = final
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the image is the {words} image but {model.path}:{at} says FROM {base}, "
                f"a {other} image",
                confidence=LIKELY,
            )
            break
