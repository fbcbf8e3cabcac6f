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

Two more ways a README says the same (`likely`):

- a list under words saying the image is built or made for what it lists (`Built and tested for:`)
  whose every item starts with GPU models (`**AMD Radeon RX 7800 XT / 7700 XT** (RDNA3)`, `Instinct
  MI300X`): one finding on the first item naming a model whose target no list of the image builds. An
  item that says the card may need `HSA_OVERRIDE_GFX_VERSION` is read only when no built target is of
  the card's family (an RDNA2 card can pose as `gfx1030`, never as an RDNA3 `gfx1100`);
- a floor (`AMD GPU with gfx900 or newer`, `gfx1030+`) whose own target the image's lists lack: the
  oldest GPU the README admits has no kernels in the image.

And NVIDIA cards a README says the image supports (`Supported Architectures: … A100, H100`,
`gpu_support_claims`, read on the whole README) that no CUDA target the build compiles runs on
(`likely`). For NVIDIA cards a target runs as `hardware.cuda_runs_on` says (a cubin on its major's newer
minors, PTX on every newer card), and a CUDA list counts only in a Dockerfile that compiles from source
(`_COMPILES`), read from a builder stage's ENV too, with nvcc's `-gencode … code=…` targets.

The lists are the target build args' defaults and ENV values, the value an env file gives the arg when
the README's own build (`make`, `./build.sh`) passes it (`targets.build_path_values`), and the literal
`-DGPU_TARGETS=…`, `-DAMDGPU_TARGETS=…`, `-DCMAKE_HIP_ARCHITECTURES=…` a RUN gives CMake.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from docgen import hardware
from docgen.audit.aside import PAST
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor
from docgen.audit.memo import per_audit
from docgen.audit.targets import build_path_values
from docgen.audit.wording import LIST_ITEM, claims_said, heading_of, line_at, sentences
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_RADEON = r"RX[ \t]*\d{4}(?!\w)(?:[ \t]+(?:XTX|XT|GRE)\b)?"
"""A Radeon card (`RX 7900 XTX`, `RX 6800`); `RX 6800M`, a mobile chip, is not one."""
_MODEL = (
    r"(?:AMD[ \t]+|NVIDIA[ \t]+)?(?:Instinct[ \t]+|Tesla[ \t]+|Radeon[ \t]+)?"
    rf"`?(?:MI\d{{2,3}}[AXP]?|[ABHLTV]\d{{1,3}}S?|G[BH]\d{{2,3}}|{_RADEON})`?"
)
_MADE_FOR = re.compile(
    r"\b(?:pre-?configured|configured|optimi[sz]ed|tuned|built|compiled|designed|made|intended|targets|"
    r"targeting)(?:[ \t]+(?:specifically|only|primarily|mainly))?[ \t]+for[ \t]+(?:the[ \t]+)?"
    rf"(?P<models>{_MODEL}(?:[ \t]*(?:,|/|&|\band\b)[ \t]*{_MODEL})*)",
    re.IGNORECASE,
)
_NAME = re.compile(rf"MI\d{{2,3}}[AXP]?|[ABHLTV]\d{{1,3}}S?|G[BH]\d{{2,3}}|{_RADEON}", re.IGNORECASE)
_MORE_RADEON = re.compile(
    r"[ \t]*(?:/|,|&|\band\b)[ \t]*(?:RX[ \t]*)?(\d{4}(?!\w)(?:[ \t]+(?:XTX|XT|GRE)\b)?)", re.I
)
"""More cards after one (`RX 7800 XT / 7700 XT`, `RX 6700 XT / 6800 / 6900 XT`)."""
_NOT_A_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bwhen\b|\bunless\b|\byour\b|\binstead\b|\bor\b|\beither\b|\bwas\b|\bwere\b"
    r"|\bcan[ \t]+be\b|\bother\b|\bsuch[ \t]+as\b|\blike\b|\bplanned\b|\bTODO\b",
    re.IGNORECASE,
)
_TARGET_NAME = re.compile(r"(?:ARCH|ARCHS|ARCH_LIST|TARGETS?|ARCHITECTURES)\Z")
_OVERRIDE = "HSA_OVERRIDE_GFX_VERSION"
_LIST_INTRO = re.compile(
    r"\b(?:built|compiled|designed|optimi[sz]ed|tuned|configured|made)(?:[ \t]+and[ \t]+\w+)?[ \t]+"
    r"(?:specifically[ \t]+|primarily[ \t]+)?(?:for|around)\b",
    re.IGNORECASE,
)
"""Words introducing a list of what the image is built for (`Built and tested for:`)."""
_NOT_A_LIST = re.compile(
    r"\bif\b|\bunless\b|\byour\b|\bupstream\b|\bnot\b|n't\b|\bwas\b|\bwere\b|\bplanned\b|\bTODO\b", re.I
)
_ITEM_HEAD = re.compile(r"[*_ \t]*(?:AMD[ \t]+|NVIDIA[ \t]+)?(?:Radeon[ \t]+|Instinct[ \t]+|Tesla[ \t]+)?`?")
_FLOOR = re.compile(
    r"\b(gfx[0-9a-f]{3,4})\b`?[ \t]*"
    r"(?:\+|or[ \t]+(?:newer|later|above|higher)\b|and[ \t]+(?:newer|later|above|up)\b)",
    re.IGNORECASE,
)
"""The oldest AMD target a README admits (`gfx900 or newer`, `gfx1030+`)."""
_NOT_A_FLOOR = re.compile(
    r"\bif\b|\bunless\b|\bupstream\b|\bnot\b|n't\b|\bwas\b|\bwere\b|" + _OVERRIDE, re.IGNORECASE
)
_CMAKE_TARGETS = re.compile(
    r"-D[ \t]?(GPU_TARGETS|AMDGPU_TARGETS|CMAKE_HIP_ARCHITECTURES|CMAKE_CUDA_ARCHITECTURES)="
    r"(\\?[\"']?)([^\s\"'\\$]+)"
)
"""A target list a RUN gives CMake as it is (`-DGPU_TARGETS="gfx1151"`), with no variable in it."""


def gpu_model_claims(part: Document, auditor: Auditor, text: str = "") -> Iterator[Diagnostic]:
    """The sentences of `part` saying its image is made for a GPU model whose target the image's
    settings rule out, and the lists of models it is said to be built for that they rule out (see the
    module's docstring; the floors are `gpu_floor_claims`'). `text`: the README's, whose lines still
    hold the variable names a part blanks as run-time settings (`HSA_OVERRIDE_GFX_VERSION`)."""
    if not auditor.models:
        return
    sets: list[_Targets] | None = None  # read once, for a part that names a model

    def image_sets() -> list[_Targets]:
        nonlocal sets
        if sets is None:
            passed = {v.name: (v.value, v.file, v.line) for v in build_path_values(part, auditor).values()}
            sets = [_targets(m, passed) for m in auditor.models]
        return sets

    for line, claim in claims_said(part, _MADE_FOR, _NOT_A_CLAIM):
        for name in _names(claim.group("models")):
            target = hardware.model_target(name)
            if target is None:
                continue
            found = _ruled_out(name.upper(), target, image_sets())
            if found is not None:
                shown, confidence = found
                message = f"README says the image is for {name.upper()} ({target}), but {shown}"
                yield Diagnostic(auditor.path, line, message, confidence=confidence)
    raw = text.splitlines() if text else []
    for line, listed in _model_lists(part, raw):
        yield from _list_claim(line, listed, image_sets, auditor)


def gpu_floor_claims(doc: Document, family: Auditor) -> Iterator[Diagnostic]:
    """The oldest AMD target `doc` admits (`AMD GPU with gfx900 or newer`) that no target list of the
    images of `family` builds (`likely`). Read on the whole README, the sections about the host too:
    that is where a README states the GPU it needs; not those over older images (`## Legacy`)."""
    if not family.models:
        return
    sets: list[_Targets] | None = None
    titles = dict(doc.headings)
    for line, claim in claims_said(doc, _FLOOR, _NOT_A_FLOOR):
        if PAST.search(heading_of(doc, line)) or PAST.search(titles.get(line, "")):
            continue
        if sets is None:
            passed = {v.name: (v.value, v.file, v.line) for v in build_path_values(doc, family).values()}
            sets = [_targets(m, passed) for m in family.models]
        floor = hardware.target_key(claim.group(1))
        found = _ruled_out(floor, floor, sets)
        if found is not None and not _names_older_built(doc, line, floor, sets):
            said = claim.group(0).replace("`", "").strip()
            message = f"README says the image runs on {said}, but {found[0]}: no kernels for {floor}"
            yield Diagnostic(family.path, line, message, confidence=LIKELY)


_GFX = re.compile(r"\bgfx([0-9]{1,2})([0-9a-f])([0-9a-f])\b", re.IGNORECASE)
"""An AMD target by its name (`gfx906`, `gfx90a`, `gfx1100`): major, minor and stepping."""


def _gfx_order(target: str) -> tuple[int, int, int] | None:
    """(major, minor, stepping) of an AMD target, to tell which is older; None for another name."""
    match = _GFX.fullmatch(target)
    return (int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16)) if match else None


def _names_older_built(doc: Document, line: int, floor: str, sets: list[_Targets]) -> bool:
    """True when a line of `doc` other than `line` names a target an image builds or poses as that is
    older than `floor`: the README says the image is for a GPU below that floor, so the floor is another
    party's (`AMD officially recommends gfx908+` in a section on why the image stays on ROCm 5.7 for
    gfx906), not the oldest GPU the image admits."""
    top = _gfx_order(floor)
    if top is None:
        return False
    built: set[str] = set()
    for _, override, lists in sets:
        if override is not None:
            built.add(override[2].lower())
        built.update(key.lower() for entry in lists for key in entry.keys)
    older = {t for t in built if (order := _gfx_order(t)) is not None and order < top}
    if not older:
        return False
    texts = [text for para in doc.paragraphs for at, text in para.lines if at != line]
    texts += [text for at, text in doc.headings if at != line]
    texts += [text for fence in doc.fences for at, text in fence.lines if at != line]
    return any(m.group(0).lower() in older for text in texts for m in _GFX.finditer(text))


_SUPPORTS = re.compile(
    r"\bsupported(?:[ \t]+(?:NVIDIA[ \t]+)?(?:GPUs?|cards?|architectures?|hardware|devices?|models?))?"
    r"[*_ \t]*:|\bsupports\b|\bruns[ \t]+on\b|\bcompatible[ \t]+with\b",
    re.IGNORECASE,
)
"""Words saying the image supports the cards named after them (`Supported Architectures: … A100, H100`,
`supports H100 and L40S`); `Unsupported …` is not one."""
_NOT_SUPPORTED = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bunless\b|\byour\b|\binstead\b|\bwas\b|\bwere\b|\bplanned\b|\bTODO\b"
    r"|\bupstream\b|\bsoon\b|\bexperimental\b",
    re.IGNORECASE,
)
_GEFORCE = re.compile(r"RTX[ \t-]*\d0(?:\d0(?:[ \t]*(?:Ti|SUPER))?|[ \t-]*series)?(?!\w)", re.IGNORECASE)
"""A GeForce RTX card or series (`RTX 4090`, `RTX 30-series`)."""


def gpu_support_claims(doc: Document, family: Auditor) -> Iterator[Diagnostic]:
    """NVIDIA cards `doc` says the image supports (`Supported Architectures: Ampere, Hopper (e.g., A100,
    H100)`) that no code the build compiles runs on: every CUDA target list the images compile with
    (`TORCH_CUDA_ARCH_LIST`, `CMAKE_CUDA_ARCHITECTURES`, `-gencode`) lacks a target of the card's
    capability, a cubin of its major and an older minor, and PTX of an older target (`likely`). Read on
    the whole README, the sections about the host too, not those over older images."""
    if not family.models:
        return
    sets: list[_Targets] | None = None
    titles = dict(doc.headings)
    for para in doc.paragraphs:
        if not _SUPPORTS.search(" ".join(said for _, said in para.lines)):
            continue
        for start, _end, sentence in sentences(para.lines):
            claim = _SUPPORTS.search(sentence)
            if claim is None or _NOT_SUPPORTED.search(sentence):
                continue
            line = line_at(para.lines, start + claim.start())
            if PAST.search(heading_of(doc, line)) or PAST.search(titles.get(line, "")):
                continue
            after = sentence[claim.end() :]
            cards = [*_names(after), *(m.group(0) for m in _GEFORCE.finditer(after))]
            named = [(n, t) for n in cards if (t := hardware.model_target(n)) and _vendor(t) == "NVIDIA"]
            if not named:
                continue
            if sets is None:
                passed = {v.name: (v.value, v.file, v.line) for v in build_path_values(doc, family).values()}
                sets = [_targets(m, passed) for m in family.models]
            missed: dict[str, str] = {}
            shown = ""
            for name, target in named:
                found = _ruled_out(name, target, sets)
                if found is not None:
                    missed.setdefault(re.sub(r"[ \t]+", " ", name), target)
                    shown = shown or found[0]
            if missed:
                said = ", ".join(f"{name} ({target})" for name, target in missed.items())
                codes = ", ".join(dict.fromkeys("sm_" + t.replace(".", "") for t in missed.values()))
                message = (
                    f"README says the image supports {said}, but {shown}, which its build compiles with: "
                    f"no code for {codes} or a target those cards run"
                )
                yield Diagnostic(family.path, line, message, confidence=LIKELY)


def _names(text: str) -> list[str]:
    """The GPU models `text` names, a card after a Radeon one by its number too (`RX 7800/7700 XT`)."""
    found = []
    for match in _NAME.finditer(text):
        found.append(re.sub(r"[ \t]+", " ", match.group(0)))
        if match.group(0).upper().startswith("RX"):
            at = match.end()
            while (more := _MORE_RADEON.match(text, at)) is not None:
                found.append("RX " + re.sub(r"[ \t]+", " ", more.group(1)))
                at = more.end()
    return found


def _model_lists(part: Document, raw: list[str]) -> Iterator[tuple[int, list[tuple[int, list[str], bool]]]]:
    """(line of the list, [(item line, the models it starts with, says it may need an override)]) of
    each list of two items or more under words saying the image is built for them, every item of
    which starts with a GPU model."""
    for para in part.paragraphs:
        items = [(line, text[m.end() :]) for line, text in para.lines if (m := LIST_ITEM.match(text))]
        if len(items) < 2:
            continue
        intro = " ".join(text for _, text in para.lines if not LIST_ITEM.match(text))
        opening = intro or (para.before if para.before.rstrip().endswith(":") else "")
        if not _LIST_INTRO.search(opening) or _NOT_A_LIST.search(opening):
            continue
        listed = []
        for line, item in items:
            head = item[m.end() :] if (m := _ITEM_HEAD.match(item)) else item
            if _NAME.match(head) is None:
                break
            models = _names(re.split(r"[(:—]| - ", head, maxsplit=1)[0])
            said = raw[line - 1] if 0 < line <= len(raw) else item
            listed.append((line, models, _OVERRIDE in said or "override" in item.lower()))
        else:
            yield para.lines[0][0], listed


def _list_claim(
    line: int,
    listed: list[tuple[int, list[str], bool]],
    image_sets: Callable[[], list[_Targets]],
    auditor: Auditor,
) -> Iterator[Diagnostic]:
    """The finding on the first item of `listed` naming a model no list of the images builds."""
    missed: list[tuple[str, str]] = []
    at, shown = 0, ""
    for item_line, models, override in listed:
        for name in models:
            target = hardware.model_target(name)
            if target is None:
                continue
            found = _ruled_out(name, target, image_sets(), kin=override)
            if found is not None:
                missed.append((name, target))
                at, shown = at or item_line, shown or found[0]
    if missed:
        cards = ", ".join(f"{name} ({target})" for name, target in missed)
        targets = ", ".join(dict.fromkeys(target for _, target in missed))
        message = f"README lists the image as built for {cards}, but {shown}: no kernels for {targets}"
        yield Diagnostic(auditor.path, at, message, confidence=LIKELY)


@dataclasses.dataclass(frozen=True)
class _List:
    """A target list an image sets."""

    name: str
    """The build arg, variable or CMake option (`-DGPU_TARGETS`)."""
    line: int
    value: str
    keys: frozenset[str]
    """Its targets as `hardware.target_key` spells them."""
    file: str = ""
    """The env file giving the value, when the README's build passes one; else the Dockerfile's."""
    read: bool = True
    """False for a build arg no instruction reads (`ARG AMDGPU_TARGETS=…` next to the one CMake gets)."""
    codes: tuple[tuple[str, bool, bool, bool], ...] = ()
    """An NVIDIA list's targets as `hardware.cuda_code` reads them (a cubin, PTX): what cards run it."""


_Targets = tuple[ImageModel, tuple[int, str, str] | None, list[_List]]
"""An image, its final stage's `HSA_OVERRIDE_GFX_VERSION` (line, value, target), and its target lists."""


def _targets(model: ImageModel, passed: Mapping[str, tuple[str, str, int]]) -> _Targets:
    """The override and target lists of `model`; `passed`: arg → (value, env file, line) the README's
    own build gives it."""
    final = model.stages[-1].label if model.stages else None
    override: tuple[int, str, str] | None = None
    lists: list[_List] = []
    for env in model.env:
        if env.value is None:
            continue
        if env.name.upper() == _OVERRIDE and env.stage == final:
            target = hardware.hsa_override_target(env.value)
            if target is not None:
                override = (env.line, env.value, target)
        elif _TARGET_NAME.search(env.name.upper()):
            # a builder stage's CUDA list is the one its compilers read; an AMD list counts in the final one
            found = _target_list(env.name, env.line, env.value)
            lists.extend(entry for entry in found if env.stage == final or entry.codes)
    for decl in model.args:
        if decl.name in passed:
            value, file, line = passed[decl.name]
            lists.extend(_target_list(decl.name, line, value, file))
        elif not decl.bare and decl.effective_default and _TARGET_NAME.search(decl.name.upper()):
            found = _target_list(decl.name, decl.line, decl.effective_default)
            lists.extend(dataclasses.replace(entry, read=bool(decl.used_lines)) for entry in found)
    for name, line, value in _cmake_targets(model.file):
        lists.extend(_target_list(f"-D{name}", line, value))
    gencode = _gencode(model.file)
    if gencode is not None:
        lists.extend(_target_list("-gencode", gencode[0], gencode[1]))
    if not _compiles(model.file):
        lists = [entry for entry in lists if not entry.codes]  # a CUDA list nothing compiles with
    return model, override, lists


@per_audit(maxsize=32)
def _cmake_targets(file: str) -> tuple[tuple[str, int, str], ...]:
    """(option, line, value) of each literal target list the Dockerfile at `file` gives CMake."""
    text = _dockerfile_text(file)
    if text is None or "-D" not in text:
        return ()
    return tuple(
        (m.group(1), text.count("\n", 0, m.start()) + 1, m.group(3)) for m in _CMAKE_TARGETS.finditer(text)
    )


def _target_list(name: str, line: int, value: str, file: str = "") -> list[_List]:
    """`[(name, line, value, its target keys)]` when every word of `value` is a GPU target docgen knows,
    or an AMD one by its spelling (`gfx1035`); `file` is an env file the value comes from. An NVIDIA
    list carries what it builds of each target (`codes`), and is no list when a word is spelt in a way
    `hardware.cuda_code` does not read."""
    gpus = hardware.gpus(value)
    vendors = {_vendor(g.target) for g in gpus}
    if not gpus or "unknown" in vendors or len(vendors) > 1:
        return []
    keys = frozenset(hardware.target_key(g.target) for g in gpus)
    if vendors != {"NVIDIA"}:
        return [_List(name, line, value, keys, file)]
    codes = [hardware.cuda_code(g.target) for g in gpus]
    if any(code is None for code in codes):
        return []
    return [_List(name, line, value, keys, file, codes=tuple(c for c in codes if c is not None))]


_GENCODE = re.compile(
    r"(?:-gencode|--generate-code)[ \t=]+[\"']?arch=compute_(\d{2,3}[af]?),[ \t]*code=\[?([\w,]+)\]?"
)
"""An nvcc target (`-gencode arch=compute_86,code=sm_86`, `code=[sm_90,compute_90]`)."""
_COMPILES = re.compile(
    r"\bpip3?[ \t]+wheel\b|git\+https?://|--no-build-isolation|--no-binary|\bsetup\.py\b|\bcmake\b|\bnvcc\b"
    r"|-m[ \t]+build\b|\bninja\b|\bmake\b"
    r"|\bpip3?[ \t]+install[ \t]+(?:-[-\w]+[ \t]+)*(?:-e[ \t]+)?\.(?:[ \t]|$)"
)
"""A RUN that compiles code from source, which a CUDA target list steers: a wheel built, a package from
git, CMake, nvcc, make, a local project installed."""


@per_audit(maxsize=32)
def _dockerfile_text(file: str) -> str | None:
    return text_or_none(Path(file), 1_000_000) if file else None


def _gencode(file: str) -> tuple[int, str] | None:
    """(line of the first, the targets) of the literal nvcc targets of the Dockerfile at `file`, as one
    list: each `code=` value (`sm_86`, `compute_90`)."""
    text = _dockerfile_text(file)
    if text is None or "code=" not in text:
        return None
    found = list(_GENCODE.finditer(text))
    if not found:
        return None
    codes = [code for match in found for code in match.group(2).split(",") if code]
    return text.count("\n", 0, found[0].start()) + 1, ";".join(dict.fromkeys(codes))


def _compiles(file: str) -> bool:
    """True when a line of the Dockerfile at `file` that is no comment compiles from source (`_COMPILES`)."""
    text = _dockerfile_text(file)
    if text is None:
        return True  # (not known: the lists are read as they are)
    return any(_COMPILES.search(line) for line in text.splitlines() if not line.lstrip().startswith("#"))


def _vendor(target: str) -> str:
    """`hardware`'s vendor of `target`, AMD for any `gfx` target (`gfx1035`, not in its table)."""
    return "AMD" if target.lower().startswith("gfx") else hardware.lookup(target).vendor


def _ruled_out(name: str, target: str, sets: list[_Targets], kin: bool = False) -> tuple[str, str] | None:
    """Where each image's settings rule `target` out (`Dockerfile:2 sets GPU_TARGETS=gfx1100`) and how
    sure that is, when every image's do. With `kin` (the README says the card may need an override), a
    built target of the card's family lets it run."""
    vendor = _vendor(target)
    family = hardware.lookup(target).family
    reasons: list[tuple[str, str]] = []
    for model, override, lists in sets:
        if vendor == "AMD" and override is not None:
            line, value, forced = override
            if forced == target:
                return None
            reasons.append((f"{model.path}:{line} sets {_OVERRIDE}={value} ({forced})", CERTAIN))
            continue
        own = [entry for entry in lists if _vendor(next(iter(entry.keys))) == vendor]
        own.sort(key=lambda entry: not entry.read)  # a list the build reads is the one to show
        if not own:
            return None  # an image with no targets of that vendor may run on it
        keys = {key for entry in own for key in entry.keys}
        if target in keys or (kin and family and any(hardware.lookup(k).family == family for k in keys)):
            return None
        if vendor == "NVIDIA" and hardware.cuda_runs_on(target, [c for entry in own for c in entry.codes]):
            return None  # a cubin of the same major and an older minor, or PTX of an older target
        first = own[0]
        where = f"{first.file}:{first.line}" if first.file else f"{model.path}:{first.line}"
        reasons.append((f"{where} sets {first.name}={first.value}", LIKELY))
    if not reasons:
        return None
    confidence = CERTAIN if all(c == CERTAIN for _, c in reasons) else LIKELY
    return "; ".join(r for r, _ in reasons[:2]), confidence
