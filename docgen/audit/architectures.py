"""The architecture a README says the image is for (`Platform | NVIDIA Jetson AGX Orin`, `runs on
arm64`, `for x86_64`) against the one its Dockerfile can only be built for.

What the image can be built for is read from two kinds of fact, each unambiguous:

- its base (`base_contents.architectures`): an L4T image (`nvcr.io/nvidia/l4t-*`, `dustynv/*`) is
  published for arm64 only, an `nvidia/cuda` image of CUDA 10 or older for amd64 only; a FROM with its
  own `--platform linux/arm64` is pulled for that one;
- what its RUNs download or install outside any shell branch: a Debian package of one architecture
  (`…_arm64.deb`, `…_amd64.deb`), a wheel of one (`…-linux_aarch64.whl`, `…manylinux…_x86_64.whl`), a
  PyTorch 1.x wheel of a CUDA build (`torch==1.5.0+cu101`: PyTorch published those for x86_64 only),
  an archive or installer named for one (`cmake-3.17.0-Linux-x86_64.tar.gz`).

Each stage the build target uses counts; a RUN that branches (`if`, `case`, `uname -m`,
`$TARGETARCH`) may pick another file on another architecture and is not read. Facts that disagree
tell nothing. Multi-architecture bases (`ubuntu`, `python`, `nvidia/cuda` 11+, NGC containers) and
index URLs (`…/whl/cu126`, which has aarch64 wheels too) say nothing.

What the README says, read off a row labelled `Platform`, `Architecture` or `Arch` of a two-column
table or a `Platform:` line (`certain`), or a sentence or heading about the image (`image`,
`container`, `Dockerfile`, `this`) that says it is for, runs on or targets one (`likely`):
architecture words (`arm64`, `aarch64`, `x86_64`, `amd64`, `x86`) and the devices that imply one
(`Jetson …`, `L4T`, `Grace`, `GH200`: arm64).

Not read: a README offering both (two architectures joined in one line, `amd64 and arm64`,
`x86 / Jetson`, or headings for each), text about the host (`host`, `requires`, `install JetPack`,
`qemu`, a Requirements or Hardware section), a choice, the past or a negation. A README claim a
`--platform` build command makes is `platforms`' to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.wording import line_at, sentences
from docgen.base_contents import architectures
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.stages import built_stages

_SHOWN = {"amd64": "amd64 (x86_64)", "arm64": "arm64 (aarch64)"}
_MENTION = re.compile(
    r"(?<![\w.-])(?:(?P<amd64>x86[_-]64|amd64|x64|x86)|(?P<arm64>arm64(?:v8)?|aarch64|armv8"
    r"|(?:nvidia[ \t]+)?jetson(?:[ \t]+(?:agx|orin|xavier|nano|tx[12]|nx|thor))*"
    r"|l4t|linux[ \t]+for[ \t]+tegra"
    r"|(?:nvidia[ \t]+)?grace[ \t-]+(?:hopper|blackwell|cpu)|nvidia[ \t]+grace|g[hb]200|sbsa))(?![\w-])",
    re.IGNORECASE,
)
"""A word naming an architecture, or a device that implies one (a Jetson runs arm64, so does Grace)."""
_JOINED = re.compile(
    r"\A[^.;:!?]{0,40}?(?:[,/|&+]|\b(?:and|or|vs\.?|versus|as[ \t]+well[ \t]+as|aside|plus)\b)", re.IGNORECASE
)
"""Between two mentions: a list of platforms (`amd64 and arm64`, `x86 / Jetson`), the README offers both."""
_LINKED = re.compile(r"\b(?:is|are|based|uses?|runs?|built)\b", re.IGNORECASE)
"""Between two mentions: one said of the other (`Jetson is based on AMD64 architecture`), not a list."""
_LABEL_WORD = r"[ \t]*(?:[-*+][ \t]+)?[*_]{0,2}(?:target[ \t]+)?(?:platform|architecture|arch)"
"""The word labelling a value the image's platform, maybe in an item and bold: `- **Architecture`."""
_LABEL = re.compile(_LABEL_WORD + r"[*_]{0,2}[ \t]*[:：]?[*_]{0,2}[ \t]*", re.IGNORECASE)
"""A table's first cell labelling the second the image's platform: `**Platform**`, `Architecture`."""
_LINE_LABEL = re.compile(_LABEL_WORD + r"(?:[ \t]*[:：][*_]{0,2}|[*_]{1,2}[ \t]*[:：])[ \t]*", re.IGNORECASE)
"""A line that labels its value the image's platform: `Platform: `, `- **Architecture:** `."""
_SUBJECT = re.compile(r"\b(?:image|container|dockerfile|docker|this|it)\b", re.IGNORECASE)
_FOR = re.compile(
    r"\b(?:for|on|targets?|targeting|supports?|with)[ \t]+(?:the[ \t]+|an?[ \t]+|nvidia'?s?[ \t]+)?"
    r"[*_`\[]{0,3}\Z",
    re.IGNORECASE,
)
"""Right before a mention: the image is for it (`designed for development on the **`, `runs on`)."""
_NOT_A_CLAIM = re.compile(
    r"\bhosts?\b|\bmachines?\b|\bworkstations?\b|\blaptops?\b|\bdesktops?\b|\brequires?d?\b|\bneeds?\b"
    r"|\binstall|\bflash|\bqemu\b|\bemulat|\bbinfmt|\bcross[ \t-]|--platform|\bbuildx\b|\bnot\b|n't\b"
    r"|\bwas\b|\bwere\b|\bpreviously\b|\bformerly\b|\binstead\b|\bunlike\b|\bother\b|\balso\b|\beither\b"
    r"|\bif\b|\byou[ \t]+(?:can|may|could)\b|\btested\b|\bsoon\b|\bplanned\b|\bTODO\b",
    re.IGNORECASE,
)
"""Words of a sentence about the host, a choice, the past or the future: not what the image is for."""
_ASIDE_HEADING = re.compile(
    r"require|prereq|host|hardware|setup|install|flash|troubleshoot|faq", re.IGNORECASE
)
_BRANCHES = re.compile(
    r"\bif\b|\bcase\b|\buname\b|\barch\b|TARGETARCH|TARGETPLATFORM|print-architecture|\|\|"
    r"|sysroot|rootfs|\bcross|qemu|dpkg(?:-deb)?[ \t]+(?:-x|--extract)\b|--root\b|--target\b"
)
"""A RUN that may take another path on another architecture, or that fetches files for another machine
(a Jetson sysroot an x86 image cross-compiles against)."""
_INSTALLS = re.compile(
    r"\bdpkg[ \t]+-i\b|\bapt(?:-get)?[ \t]+(?:-\S+[ \t]+)*install\b|\bgdebi\b|\bpip3?\b|\bconda\b"
)
"""A RUN that installs what it fetches: a package file counts only then (an archive or installer always)."""
_RUNNABLE = (".tar.gz", ".tgz", ".tar.xz", ".zip", ".sh", ".run")
_ARTIFACTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"[\w.+%~-]+_(arm64|aarch64|amd64)\.deb\b"), ""),
    (re.compile(r"[\w.+%~-]+[-_](?:linux|manylinux\w*)_(aarch64|x86_64)\.whl\b"), ""),
    (
        re.compile(
            r"[\w.+%~-]+[-_]linux[-_](aarch64|x86_64|arm64|amd64)\.(?:tar\.gz|tgz|tar\.xz|zip|sh|run)\b", re.I
        ),
        "",
    ),
    (re.compile(r"\btorch(?:vision|audio)?==1\.[\d.]+\+cu\d+"), "amd64"),
)
"""A file of one architecture a RUN fetches or installs (the architecture: the group, else the second)."""
_WORDS = {"aarch64": "arm64", "arm64": "arm64", "x86_64": "amd64", "amd64": "amd64"}


def architecture_claims(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """The platform rows, lines and sentences of `part` naming an architecture no image compared can be
    built for (see the module's docstring); `text`: the whole README, read for an offer of both."""
    if not any(_MENTION.search(line) for line in _said(part)):
        return  # (most READMEs)
    facts = [_fact(m) for m in auditor.models]
    if not facts or any(f is None for f in facts) or _offers_both(text):
        return
    known = [f for f in facts if f is not None]
    for table in part.tables:
        if len(table.header) != 2:
            continue
        for line, cells in table.rows:
            if len(cells) == 2 and _LABEL.fullmatch(cells[0]):
                yield from _compare(line, cells[1], known, auditor, CERTAIN)
    for para in part.paragraphs:
        aside = bool(_ASIDE_HEADING.search(para.heading))
        if aside:
            continue
        for line, said in para.lines:
            label = _LINE_LABEL.match(said)
            if label is not None:
                yield from _compare(line, said[label.end() :], known, auditor, CERTAIN)
        for start, _end, sentence in sentences(para.lines):
            if _NOT_A_CLAIM.search(sentence) or _LINE_LABEL.match(sentence):
                continue
            for mention in _MENTION.finditer(sentence):
                if _FOR.search(sentence, max(0, mention.start() - 40), mention.start()) and _SUBJECT.search(
                    sentence, 0, mention.start()
                ):
                    line = line_at(para.lines, start + mention.start())
                    yield from _compare(line, mention.group(), known, auditor, LIKELY)
                    break
    for line, heading in part.headings:
        if part.levels.get(line) == 1 and not _NOT_A_CLAIM.search(heading) and _SUBJECT.search(heading):
            titled = _MENTION.search(heading)
            if titled is not None and _FOR.search(heading, max(0, titled.start() - 40), titled.start()):
                yield from _compare(line, titled.group(), known, auditor, LIKELY)


def _said(part: Document) -> Iterator[str]:
    for table in part.tables:
        for _, cells in table.rows:
            yield " ".join(cells)
    for para in part.paragraphs:
        for _, said in para.lines:
            yield said
    for _, heading in part.headings:
        yield heading


def _offers_both(text: str) -> bool:
    """True when the README offers the image for two architectures: one line joins two (`amd64 and
    arm64`, `x86 / Jetson`), or its headings name both."""
    headed: set[str] = set()
    for line in text.splitlines():
        mentions = list(_MENTION.finditer(line))
        if line.lstrip().startswith("#"):
            headed |= {_kind(m) for m in mentions}
        if _joined(line, mentions):
            return True
    return len(headed) > 1


def _kind(mention: re.Match[str]) -> str:
    return "amd64" if mention.group("amd64") else "arm64"


def _compare(
    line: int, value: str, facts: list[tuple[str, str]], auditor: Auditor, confidence: str
) -> Iterator[Diagnostic]:
    """A finding when every architecture `value` names differs from what each image compared is for;
    a value naming two (`amd64, arm64`) is an offer of both and says nothing."""
    mentions = list(_MENTION.finditer(value))
    if not mentions or _joined(value, mentions):
        return
    for mention in mentions:
        said = _kind(mention)
        if all(arch != said for arch, _ in facts):
            arch, why = facts[0]
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the image is for {mention.group()} ({said}) but {why}, for {_SHOWN[arch]} only",
                confidence=confidence,
            )
            return


def _joined(value: str, mentions: list[re.Match[str]]) -> bool:
    """True when two mentions of different architectures in `value` are a list of both."""
    for first, second in zip(mentions, mentions[1:], strict=False):
        between = value[first.end() : second.start()]
        if _kind(first) != _kind(second) and _JOINED.match(between) and not _LINKED.search(between):
            return True
    return False


def _fact(model: ImageModel) -> tuple[str, str] | None:
    """(the one architecture `model`'s build target can be built for, why) when its base or a file its
    RUNs fetch tells, else None."""
    built = built_stages(model)  # the target, the stages it starts from and copies from
    stages = [s for s in model.stages if s.label in built]
    if not stages:
        return None
    found: list[tuple[str, str]] = []
    for stage in stages:
        if stage.parent is not None:
            continue
        if stage.platform is not None:
            word = stage.platform.lower().split("/")[-2:] if "/" in stage.platform else [stage.platform]
            arch = next((_WORDS[w] for w in word if w in _WORDS), None)
            if "$" in stage.platform or arch is None:
                return None  # `--platform=$BUILDPLATFORM`: a stage of the build machine's
            found.append((arch, f"{model.path}:{stage.line} starts FROM --platform={stage.platform}"))
            continue
        if "$" in stage.base:
            return None
        published = architectures(stage.base)
        if len(published) == 1:
            (arch,) = published
            found.append((arch, f"{model.path}:{stage.line} starts FROM {stage.base}"))
    found.extend(_fetched(model, {s.index for s in stages}))
    arches = {arch for arch, _ in found}
    return found[0] if len(arches) == 1 else None


def _fetched(model: ImageModel, used: set[int]) -> Iterator[tuple[str, str]]:
    """(architecture, why) of each file of one architecture a RUN of a stage of `used` fetches or
    installs outside a shell branch."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return
    for inst in read[1].instructions:
        if inst.keyword != "RUN" or _BRANCHES.search(inst.args):
            continue
        stage = model.stage_at(inst.start_line)
        if stage is None or stage.index not in used:
            continue
        for pattern, arch in _ARTIFACTS:
            found = pattern.search(inst.args)
            if found is not None and (found.group().endswith(_RUNNABLE) or _INSTALLS.search(inst.args)):
                which = arch or _WORDS[found.group(1).lower()]
                yield which, f"{model.path}:{inst.start_line} installs {found.group()}"
