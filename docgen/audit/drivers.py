"""Host driver requirements a README states (`Works on hosts with NVIDIA driver ≥ 525`, `needs an r470+
driver`, `NVIDIA driver 535 or newer`) that are below what the CUDA release of an image it covers needs
(`hardware.driver_too_old`: CUDA 13.x needs driver 580 or newer, whatever the minor release).

Only a minimum counts: a figure with `>=`, `≥`, `at least`, `minimum`, `requires` before it or `+`, `or
newer`, `or later` after it; a driver the project was tested with, uses or recommends says nothing about
the oldest one that works. A sentence naming a CUDA release (`for the CUDA 11.8 image, driver 450+`) is
compared with the images of that CUDA major only. Each image's CUDA is the one its final stage's base
image names in its tag (`nvidia/cuda:13.0.1-runtime-…`, `pytorch/pytorch:2.9.0-cuda13.0-…`): what runs
on the host's driver. A driver stated by the CUDA release it supports (`NVIDIA GPU Drivers supporting
CUDA 12.8`) is compared by the CUDA major alone (`likely`): a CUDA 12 driver cannot run a CUDA 13 image,
while any 12.x release runs on any CUDA 12 driver. Sections about the host are read too (that is where a
driver is stated); those over older images (`## Legacy images`) are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen import baseimage, hardware
from docgen.audit.aside import PAST
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor
from docgen.audit.cells import texts_and_rows
from docgen.audit.paths import variant
from docgen.audit.wording import line_at, sentences
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_DRIVER = re.compile(r"\bdrivers?\b", re.IGNORECASE)
_FIGURE = re.compile(
    r"(?<![\w.])[rR]?([2-9]\d{2})((?:\.\d+){0,2})(?:\.[xX*])?(?![\w.]*\d)(?!\s*(?:[MG]i?B|W)\b)"
)
"""A driver release (`525`, `535.104.05`, `525.x`, `r470`): three digits first."""
_BEFORE = re.compile(
    r"(?:>=|≥|=>|\bat[ \t]+least|\bminimum|\bmin\b\.?|\brequire[sd]?|\bneeds?|\bnewer[ \t]+than|\babove)"
    r"[^.;\d]{0,40}$",
    re.IGNORECASE,
)
"""Words before a figure that make it a minimum (`driver >= `, `at least driver version `)."""
_AFTER = re.compile(
    r"^(?:\.[xX*])?(?:\+|[ \t]*\(?(?:or|and)[ \t]+(?:newer|later|higher|above|greater|up)\b|[ \t]+minimum\b)"
)
"""What after a figure makes it a minimum (`470+`, `535 or newer`, `525 (or later)`)."""
_NOT_MINIMUM = re.compile(
    r"\b(?:tested|verified|validated|using|used|uses|running|runs|installed|developed|recommend\w*"
    r"|suggested|preferred|ideally|latest|maximum|max|up[ \t]+to|below|older[ \t]+than)\b",
    re.IGNORECASE,
)
"""Words that make a figure something other than the oldest driver that works."""
_BLACKWELL = re.compile(
    r"\bBlackwell\b|\bRTX[ \t]*50[5-9]0\b|\bG?B[12]00\b|\bGB300\b|\bsm_?120\b",
    re.IGNORECASE,
)
"""A Blackwell GPU (`Blackwell`, `RTX 5090`, `B200`, `sm_120`): no driver before the R570 branch runs one."""
_BLACKWELL_DRIVER = "570"
_RECOMMENDED = re.compile(r"\brecommend\w*|\bsuggested|\bpreferred", re.IGNORECASE)
_CUDA = re.compile(r"\bCUDA[ \t-]*v?(\d{1,2})(?:\.(?:\d+|x))?|\bcu(\d{2})\d\b", re.IGNORECASE)
_REACH = 60
"""How far from the word `driver` a figure is read (`NVIDIA driver version 525.60.13 or newer`)."""


def _minimums(sentence: str, advised: bool = False) -> Iterator[tuple[int, str]]:
    """(offset, figure) of each driver release `sentence` states as the oldest that works; with
    `advised`, also one only recommended as such (`driver 555+ recommended`)."""
    words = [m.span() for m in _DRIVER.finditer(sentence)]
    for figure in _FIGURE.finditer(sentence):
        start, end = figure.span()
        if not any(w_start - _REACH <= start and end <= w_end + _REACH for w_start, w_end in words):
            continue
        before = sentence[max(0, start - 45) : start]
        after = sentence[end : end + 30]
        if before.rstrip().lower().endswith(("cuda", "cuda v", "version of cuda")):
            continue
        if not (_BEFORE.search(before) or _AFTER.match(after)):
            continue
        # the clause of the figure: not a remark in parentheses after it, nor what a clause before says
        near = re.split(r"[(,;]", before)[-1] + re.split(r"[(,;]", after, maxsplit=1)[0]
        if _NOT_MINIMUM.search(_RECOMMENDED.sub(" ", near) if advised else near):
            continue
        yield start, figure.group(1) + figure.group(2)


def _image_cuda(auditor: Auditor) -> list[tuple[str, str, int, bool]]:
    """(CUDA release, Dockerfile, FROM line, pinned) of each image of `auditor`, in order, whose final
    stage's base names a CUDA release (pinned when the FROM is written without a variable); ("", …)
    for one whose base names none."""
    found = []
    for model in auditor.models:
        held = baseimage.stage_cuda(model.stages, model.target.index) if model.target is not None else None
        if held is None:
            found.append(("", model.path, 0, False))
        else:
            release, stage = held
            sure = "$" not in stage.base_raw and not _forward_compatible(model, stage.base)
            found.append((release, model.path, stage.line, sure))
    return found


_COMPAT_BASES = re.compile(r"(?:nvcr\.io/)?nvidia/(?!cuda[:@]|cuda$)[\w.-]+[:@]", re.IGNORECASE)
"""NGC framework images (`nvcr.io/nvidia/pytorch:24.08-py3`, `nvidia/tritonserver:…`): they ship CUDA's
forward-compatibility libraries, and their release notes list older data-centre drivers they run on."""


def _forward_compatible(model: ImageModel, base: str) -> bool:
    """True when the image may run on an older driver than its CUDA needs: its base is an NGC framework
    image, or it installs `cuda-compat` itself. Forward compatibility works on data-centre GPUs only, so a
    lower minimum is then doubtful, not wrong."""
    if _COMPAT_BASES.match(base):
        return True
    return any(component.name.startswith("cuda-compat") for component in model.components)


def _named_images(text: str, paths: Sequence[str]) -> set[int]:
    """The indices of `paths` whose Dockerfile `text` names, by its file name (`Dockerfile.legacy`) or
    the variant its name says, as a word (`legacy`, `cu118`)."""
    words = set(re.findall(r"[\w.+-]+", text.lower()))
    named = set()
    for index, path in enumerate(paths):
        name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
        if name in words or (variant(path) or "\0") in words:
            named.add(index)
    return named


def driver_claims(doc: Document, family: Auditor) -> Iterator[Diagnostic]:
    """A minimum host driver `doc` states below what the CUDA of an image it is about needs (see the
    module docstring): `certain` when that image's FROM pins the CUDA release, else `likely`, as it is for
    an image that may use CUDA's forward compatibility (`_forward_compatible`). The
    driver is the host's, so a claim is about every image of `family` but for a sentence or a heading
    naming some of them (`Dockerfile.legacy`, `legacy`) or a CUDA release (`CUDA 11.8`): those only."""
    images: list[tuple[str, str, int, bool]] | None = None  # read once, for a README that states one
    titles = dict(doc.headings)
    paths = [model.path for model in family.models]
    for section, lines in texts_and_rows(doc):
        if not _DRIVER.search(" ".join(text for _, text in lines)) or PAST.search(titles.get(section, "")):
            continue  # (a section over older images: their drivers)
        for start, _end, sentence in sentences(lines):
            claims = list(_minimums(sentence))
            if not claims and (supported := _SUPPORTED.search(sentence)) is not None:
                if images is None:
                    images = _image_cuda(family)
                yield from _cuda_major(family.path, lines, start, sentence, supported, images)
                continue
            if not claims:
                if _BLACKWELL.search(sentence) and (advised := list(_minimums(sentence, advised=True))):
                    if images is None:
                        images = _image_cuda(family)
                    yield from _blackwell(family.path, lines, start, advised[0], images)
                continue
            if images is None:
                images = _image_cuda(family)
            chosen = (
                _named_images(sentence, paths)
                or _named_images(titles.get(section, ""), paths)
                or set(range(len(images)))
            )
            said = f"{sentence} {titles.get(section, '')}"
            majors = {int(m.group(1) or m.group(2)[:2]) for m in _CUDA.finditer(said)}
            about = [
                images[i]
                for i in sorted(chosen)
                if images[i][0] and (not majors or int(images[i][0].split(".", 1)[0]) in majors)
            ]
            offset, figure = claims[0]  # the first minimum; a second is often a recommendation
            told = False
            for release, path, at, pinned in about:
                reason = hardware.driver_too_old(figure, release)
                if reason is not None:
                    told = True
                    yield Diagnostic(
                        family.path,
                        line_at(lines, start + offset),
                        f"README says NVIDIA driver {figure} or newer but {path}:{at} runs on CUDA "
                        f"{release}: {reason}",
                        confidence=CERTAIN if pinned else LIKELY,
                    )
                    break
            if not told and _BLACKWELL.search(sentence):
                yield from _blackwell(family.path, lines, start, claims[0], images)


_SUPPORTED = re.compile(
    r"\bdrivers?\b[^.;:\d]{0,30}?\b(?:support(?:s|ing)?|compatible[ \t]+with)[ \t]+(?:for[ \t]+)?"
    r"CUDA[ \t-]*v?((\d{1,2})(?:\.(?:\d+|[xX*]))?)(?![\w.])",
    re.IGNORECASE,
)
"""A host driver stated by the CUDA release it supports (`NVIDIA GPU Drivers supporting CUDA 12.8`,
`a driver compatible with CUDA 12.x`), not by its own number."""
_NOT_REQUIRED = re.compile(
    r"\b(?:tested|verified|validated|recommend\w*|suggested|preferred|if|when|was|were|older|legacy|or)\b",
    re.IGNORECASE,
)
"""Words before a driver stated by its CUDA release that make it no requirement of the image (a test,
advice, a condition, the past, a choice)."""
_GOES_ON = re.compile(r"[a-z]")
"""A lower-case word right after the CUDA release: the sentence goes on about the driver (`drivers supporting
CUDA 12.x are backward-compatible`, `… at least`), no plain requirement."""
_STILL_THE_CLAIM = re.compile(r"(?:installed|on[ \t]+(?:the|your)[ \t]+(?:host|machine))\b", re.IGNORECASE)
"""Words after the release that keep it a requirement (`drivers supporting CUDA 12.4 installed on the
host`)."""


def _cuda_major(
    readme: str,
    lines: list[tuple[int, str]],
    start: int,
    sentence: str,
    supported: re.Match[str],
    images: list[tuple[str, str, int, bool]],
) -> Iterator[Diagnostic]:
    """A host driver the README states by the CUDA release it supports (`_SUPPORTED`) whose CUDA major is
    below the one of the images' CUDA (`likely`): a driver of the CUDA 12 branches cannot run a CUDA 13
    image, while any CUDA 12.x release runs on a driver of any other (minor version compatibility), so
    only the major counts. Silent for a minimum (`CUDA 12.8 or newer`, `12.8+`), a sentence of a test,
    advice, a condition or a choice (`_NOT_REQUIRED`), and when the images' CUDA releases are of several
    majors, unknown, or may run on an older driver (`_forward_compatible`)."""
    after = sentence[supported.end() : supported.end() + 40].lstrip(" \t*_")
    if _AFTER.match(after) or (_GOES_ON.match(after) and not _STILL_THE_CLAIM.match(after)):
        return  # a minimum (`12.8 or newer`, `12.8+`), or a sentence going on about it (`… are compatible`)
    if _NOT_REQUIRED.search(sentence, 0, supported.end()):
        return
    if not images or any(not release or not pinned for release, _, _, pinned in images):
        return
    majors = {int(release.split(".", 1)[0]) for release, _, _, _ in images}
    said = int(supported.group(2))
    if len(majors) != 1 or said >= next(iter(majors)):
        return
    release, path, at, _ = images[0]
    minimum = hardware.cuda_driver_minimum(release)
    needs = f" (driver {minimum} or newer)" if minimum else ""
    yield Diagnostic(
        readme,
        line_at(lines, start + supported.start()),
        f"README says an NVIDIA driver supporting CUDA {supported.group(1)} but {path}:{at} runs on CUDA "
        f"{release}, which needs a driver supporting CUDA {next(iter(majors))}{needs}",
        confidence=LIKELY,
    )


def _blackwell(
    readme: str,
    lines: list[tuple[int, str]],
    start: int,
    claim: tuple[int, str],
    images: list[tuple[str, str, int, bool]],
) -> Iterator[Diagnostic]:
    """A minimum driver (or one recommended as such) below R570 in a sentence naming a Blackwell GPU, for
    an image whose CUDA is 12.8 or newer (the first to build for Blackwell): no driver before R570 runs
    a Blackwell GPU, whatever the CUDA release (`likely`)."""
    offset, figure = claim
    if int(figure.split(".", 1)[0]) >= int(_BLACKWELL_DRIVER):
        return
    for release, path, at, _pinned in images:
        numbers = re.match(r"(\d+)\.(\d+)", release)
        if numbers is None or (int(numbers[1]), int(numbers[2])) < (12, 8):
            continue
        yield Diagnostic(
            readme,
            line_at(lines, start + offset),
            f"README says NVIDIA driver {figure} or newer for Blackwell GPUs but {path}:{at} runs on CUDA "
            f"{release}, and Blackwell GPUs need driver {_BLACKWELL_DRIVER} or newer",
            confidence=LIKELY,
        )
        return
