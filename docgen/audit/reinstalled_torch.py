"""A README command that pip-installs PyTorch at another release than the one the image's base fixes
(`pip install torch==1.8.1+cu111 …` under `## Update` in a README whose image is `FROM
pytorch/pytorch:1.9.0-cuda11.1-cudnn8-devel` and which says `pytorch: 1.9.0` elsewhere): advice left
from an older base, which now swaps the image's PyTorch for another one.

Read only when every PyTorch release docgen knows of the images (the base image's tag, the release table
of an NGC tag, a pin) is one and the same, one of them from the base image, and the README states that
release outside its command blocks (`PyTorch 1.9.0`, `| torch | 1.9 |`) and never the one the command
installs. A command in a block that makes another environment (`conda create`, `python -m venv`,
`virtualenv`, an `activate`), or under a heading or after a paragraph about the host, a local setup or
another environment (`Install on the host`, `without Docker`, `Colab`), installs PyTorch elsewhere: not
read; nor one under a heading or after a paragraph naming some GPUs (`# 3090`, `For Ampere cards`,
`sm_86`) or saying it is optional: a step for some readers only. Always `likely`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, clipped
from docgen.audit.commands import fence_commands, joined
from docgen.audit.wording import heading_of
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_PIP_TORCH = re.compile(
    r"\b(?:pip3?(?:\.\d+)?|python3?(?:\.\d+)?[ \t]+-m[ \t]+pip|uv[ \t]+pip)[ \t]+install\b[^;&|\n]*?"
    r"(?<![\w.-])[\"']?torch(?:\[[\w,]+\])?===?[ \t]*[\"']?"
    r"(?P<version>\d+\.\d+(?:\.\d+)?)(?P<local>\+[\w.]+)?"
)
"""`pip install torch==1.8.1+cu111`, `python -m pip install "torch==2.1.0"`: an exact pin of torch."""
_OTHER_ENVIRONMENT = re.compile(
    r"\bconda[ \t]+(?:create|activate|env[ \t]+create)|\bpython3?(?:\.\d+)?[ \t]+-m[ \t]+venv\b"
    r"|\bvirtualenv\b|\buv[ \t]+venv\b|\bsource[ \t]+[^\n]*activate\b|\bpoetry\b|\bpipenv\b|\bpyenv\b",
    re.IGNORECASE,
)
"""A block that makes or enters another Python environment: what it installs is not the image's."""
_ELSEWHERE = re.compile(
    r"\bhosts?\b|\blocal(?:ly)?\b|\bwithout[ \t]+docker\b|\boutside\b|\bnatively\b|\bbare[ \t-]?metal\b"
    r"|\bcolab\b|\bvenv\b|\bvirtual[ \t]*env|\bconda\b|\bkaggle\b|\bwindows\b|\bmacos\b|\bmac\b"
    r"|\bdevelop(?:ment)?[ \t]+setup"
    r"|\bfrom[ \t]+source\b|\bmanual[ \t]+install|\bno[ \t]+docker\b|\binstead[ \t]+of[ \t]+docker\b",
    re.IGNORECASE,
)
"""Words of a heading or of the paragraph before a block that put it outside the image."""
_FOR_SOME = re.compile(
    r"\b(?:RTX|GTX|Quadro|Titan|GeForce)\b|(?<![\w.])[1-5]0[5-9]0(?:[ \t]*Ti)?(?![\w.])"
    r"|\b(?:Ampere|Hopper|Blackwell|Turing|Volta|Pascal|Lovelace)\b|\b[ABHLTV]\d{2,3}\b|\bsm_?\d{2,3}\b"
    r"|\boptional(?:ly)?\b|\bif[ \t]+(?:you|your)\b|\bnewer[ \t]+(?:GPU|card)s?\b",
    re.IGNORECASE,
)
"""Words of a heading or of the paragraph before a block that make it a step for some GPUs only (`# 3090`,
`For Ampere cards`, `sm_86`) or optional: a choice the README leaves to the reader, not the image's."""
_STATED = re.compile(
    r"(?<![\w-])(?:py)?torch(?![\w-])(?:[ \t]*version)?[ \t:=|]{0,8}v?(\d+\.\d+(?:\.\d+)?)", re.I
)
"""A PyTorch release said in prose or a table: `pytorch: 1.9.0`, `PyTorch 2.1`, `| torch | 2.3.1 |`."""


_RELEASE = re.compile(r"\d+\.\d+(?:\.\d+)?(?=\Z|[-+_a-z])")
"""The release a PyTorch fact starts with: `1.9.0` of `1.9.0-cuda11.1-cudnn8-devel`, of `2.1.0+cu121`,
of NGC's `2.1.0a0+32f93b1`."""
_CALENDAR = re.compile(r"\d{2}\.\d{2}(?:\Z|-)")
"""An NGC image's own release (`23.10-py3`): the image's, not PyTorch's."""


def _agrees(said: str, release: str) -> bool:
    """True when `said` (`1.9`) is `release` (`1.9.0`) to the places it writes."""
    given, have = said.split("."), release.split(".")
    return all(a == b for a, b in zip(given, have, strict=False)) and len(given) <= len(have) + 1


def _image_torch(family: Auditor) -> tuple[str, str] | None:
    """(the one PyTorch release every image of `family` has, where the base image says it) when every
    PyTorch fact agrees and one of them is read off a base image; None otherwise."""
    facts = family.facts.lookup("torch", family.names)
    if not facts:
        return None
    releases: set[str] = set()
    from_base = []
    for fact in facts:
        match = _RELEASE.match(fact.value.lstrip("v"))
        if match is None or _CALENDAR.match(fact.value):
            if fact.tag:
                continue  # the base's own tag (`rocm6.3_ubuntu22.04_…`, NGC's `23.10-py3`), not torch's
            return None
        releases.add(match.group())
        if fact.tag:
            from_base.append(fact)
    if len(releases) != 1 or not from_base:
        return None
    return releases.pop(), f"{from_base[0].path}:{from_base[0].line}"


def _stated(doc: Document) -> list[tuple[int, str]]:
    """(README line, release) of each PyTorch release the README says outside its command blocks."""
    found: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        for line, text in para.lines:
            found.extend((line, m.group(1)) for m in _STATED.finditer(text))
    for table in doc.tables:
        for line, cells in table.rows:
            found.extend((line, m.group(1)) for m in _STATED.finditer(" | ".join(cells)))
    return found


def _before(doc: Document, fence: Fence) -> str:
    """The paragraph right before `fence` under the same heading, or ''."""
    first = fence.lines[0][0] if fence.lines else 0
    near = [p for p in doc.paragraphs if p.section == fence.section and p.lines and p.lines[-1][0] < first]
    return " ".join(text for _, text in max(near, key=lambda p: p.lines[-1][0]).lines) if near else ""


def reinstalled_torch(doc: Document, family: Auditor) -> Iterator[Diagnostic]:
    """Each README command that pins torch at another release than the images' (see the module
    docstring), once per line (`likely`)."""
    if not family.models or not any("torch" in text for fence in doc.fences for _, text in fence.lines):
        return
    image = _image_torch(family)
    if image is None:
        return
    release, where = image
    stated = _stated(doc)
    said = [line for line, version in stated if _agrees(version, release)]
    if not said:
        return
    told: set[int] = set()
    for fence in doc.fences:
        block = "\n".join(text for _, text in fence.lines)
        if "torch" not in block or _OTHER_ENVIRONMENT.search(block):
            continue
        around = f"{heading_of(doc, fence.lines[0][0]) if fence.lines else ''}\n{_before(doc, fence)}"
        if _ELSEWHERE.search(around) or _FOR_SOME.search(around):
            continue
        for command in fence_commands(fence):
            text = joined(command)
            match = _PIP_TORCH.search(text) if "torch=" in text else None
            if match is None or _agrees(match.group("version"), release):
                continue
            if any(_agrees(version, match.group("version")) for _, version in stated):
                continue  # the README says that release too: a choice it documents
            line = command[0][0]
            if line in told:
                continue
            told.add(line)
            pin = f"torch=={match.group('version')}{match.group('local') or ''}"
            yield Diagnostic(
                family.path,
                line,
                f"README's command `{clipped(text.strip())}` installs {pin} in place of the image's PyTorch "
                f"{release} ({where}), the release README says at line {said[0]}",
                confidence=LIKELY,
            )
