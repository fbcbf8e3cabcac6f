"""A GPU model a README says the image is made for (`Pre-configured for MI300X`, `optimized for H100`)
against the GPU targets the image sets: the one `HSA_OVERRIDE_GFX_VERSION` makes the ROCm runtime
report, or the lists its target build args and variables give (`PYTORCH_ROCM_ARCH`, `GPU_TARGETS`,
`TORCH_CUDA_ARCH_LIST`, `CMAKE_CUDA_ARCHITECTURES` …). The model names and their targets are
`hardware`'s one table.

- `HSA_OVERRIDE_GFX_VERSION` set in the final stage to another target (`11.0.0`, gfx1100, for an MI300X,
  gfx942): the runtime treats every GPU as that target, and the model named cannot run the image's
  kernels (`certain`);
- every target list of the image's vendor lacking the model's target (`likely`: a list may be one
  library's only).

The sentence must say the image is made for the model (`configured`, `optimized`, `tuned`, `built`,
`compiled`, `designed`, `targets` … `for`); a condition, a choice or an example (`if`, `your`, `e.g.`,
`or`, `instead`) is not read, nor a section about images some of which set no targets of that vendor.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen import hardware
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor
from docgen.audit.wording import claims_said
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_MODEL = (
    r"(?:AMD[ \t]+|NVIDIA[ \t]+)?(?:Instinct[ \t]+|Tesla[ \t]+)?"
    r"`?(?:MI\d{2,3}[AXP]?|[ABHLTV]\d{1,3}S?|G[BH]\d{2,3})`?"
)
_MADE_FOR = re.compile(
    r"\b(?:pre-?configured|configured|optimi[sz]ed|tuned|built|compiled|designed|made|intended|targets|"
    r"targeting)(?:[ \t]+(?:specifically|only|primarily|mainly))?[ \t]+for[ \t]+(?:the[ \t]+)?"
    rf"(?P<models>{_MODEL}(?:[ \t]*(?:,|/|&|\band\b)[ \t]*{_MODEL})*)",
    re.IGNORECASE,
)
_NAME = re.compile(r"MI\d{2,3}[AXP]?|[ABHLTV]\d{1,3}S?|G[BH]\d{2,3}", re.IGNORECASE)
_NOT_A_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bwhen\b|\bunless\b|\byour\b|\binstead\b|\bor\b|\beither\b|\bwas\b|\bwere\b"
    r"|\bcan[ \t]+be\b|\bother\b|\bsuch[ \t]+as\b|\blike\b|\bplanned\b|\bTODO\b",
    re.IGNORECASE,
)
_TARGET_NAME = re.compile(r"(?:ARCH|ARCHS|ARCH_LIST|TARGETS?|ARCHITECTURES)\Z")
_OVERRIDE = "HSA_OVERRIDE_GFX_VERSION"


def gpu_model_claims(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The sentences of `part` saying its image is made for a GPU model whose target the image's
    settings rule out (see the module's docstring)."""
    if not auditor.models:
        return
    sets: list[_Targets] | None = None  # read once, for a part that names a model
    for line, claim in claims_said(part, _MADE_FOR, _NOT_A_CLAIM):
        if sets is None:
            sets = [_targets(m) for m in auditor.models]
        for name in _NAME.findall(claim.group("models")):
            target = hardware.model_target(name)
            if target is None:
                continue
            found = _ruled_out(name.upper(), target, sets)
            if found is not None:
                message, confidence = found
                yield Diagnostic(auditor.path, line, message, confidence=confidence)


_Targets = tuple[ImageModel, tuple[int, str, str] | None, list[tuple[str, int, str, set[str]]]]
"""An image, its final stage's `HSA_OVERRIDE_GFX_VERSION` (line, value, target), and its target lists
(name, line, value, target keys)."""


def _targets(model: ImageModel) -> _Targets:
    final = model.stages[-1].label if model.stages else None
    override: tuple[int, str, str] | None = None
    lists: list[tuple[str, int, str, set[str]]] = []
    for env in model.env:
        if env.stage != final or env.value is None:
            continue
        if env.name.upper() == _OVERRIDE:
            target = hardware.hsa_override_target(env.value)
            if target is not None:
                override = (env.line, env.value, target)
        elif _TARGET_NAME.search(env.name.upper()):
            lists.extend(_target_list(env.name, env.line, env.value))
    for decl in model.args:
        if not decl.bare and decl.effective_default and _TARGET_NAME.search(decl.name.upper()):
            lists.extend(_target_list(decl.name, decl.line, decl.effective_default))
    return model, override, lists


def _target_list(name: str, line: int, value: str) -> list[tuple[str, int, str, set[str]]]:
    """`[(name, line, value, its target keys)]` when every word of `value` is a GPU target docgen knows."""
    gpus = hardware.gpus(value)
    if not gpus or any(g.vendor == "unknown" for g in gpus):
        return []
    return [(name, line, value, {hardware.target_key(g.target) for g in gpus})]


def _ruled_out(name: str, target: str, sets: list[_Targets]) -> tuple[str, str] | None:
    """The finding's message and confidence when every image's settings rule `target` out."""
    vendor = hardware.lookup(target).vendor
    reasons: list[tuple[str, str]] = []
    for model, override, lists in sets:
        if vendor == "AMD" and override is not None:
            line, value, forced = override
            if forced == target:
                return None
            reasons.append((f"{model.path}:{line} sets {_OVERRIDE}={value} ({forced})", CERTAIN))
            continue
        own = [entry for entry in lists if hardware.lookup(next(iter(entry[3]))).vendor == vendor]
        if not own:
            return None  # an image with no targets of that vendor may run on it
        if any(target in keys for *_, keys in own):
            return None
        arg, line, value, _ = own[0]
        reasons.append((f"{model.path}:{line} sets {arg}={value}", LIKELY))
    if not reasons:
        return None
    confidence = CERTAIN if all(c == CERTAIN for _, c in reasons) else LIKELY
    shown = "; ".join(r for r, _ in reasons[:2])
    return f"README says the image is for {name} ({target}), but {shown}", confidence
