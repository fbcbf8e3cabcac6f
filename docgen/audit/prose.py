"""Claims read from one line of text: `--build-arg NAME`, `pkg==1.2.3` pins, shields.io badges, image
references whose tag is not the base's, `Name 1.2.3` in prose (not the host's, not another image's, not an
example), a default in words (`defaults to the cu130 base`) and a base image stated in words.
"""

from __future__ import annotations

import bisect
import re
import urllib.parse
from collections.abc import Collection, Iterator, Mapping, Sequence

from docgen import patterns
from docgen.audit.aside import compound_names, contrasted_cuda, edit_example, option_default, version_owner
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.cells import MEASURED, MORE_VERSIONS, OR_NEWER, OR_OLDER
from docgen.audit.commands import FILE_FLAG
from docgen.audit.contents import absence_claims, presence_claims, toolchain_claims, unset_flag_claims
from docgen.audit.paths import path_words, tag_names
from docgen.audit.pinned_installs import pinned_install_claims
from docgen.audit.settings import env_name_claims
from docgen.audit.versions import (
    DIGITS,
    HEX,
    is_address,
    norm,
    raw_name,
    same_version,
    skeleton,
    tag_versions,
)
from docgen.audit.wheel_names import wheel_name_claims
from docgen.audit.wording import (
    BUILD_ARG_FLAG,
    DEFAULT_WORDS,
    DIGIT,
    IMAGE_REF,
    LIST_ITEM,
    NOT_CURRENT,
    UPPER_SNAKE,
    UPPER_WORD,
    WORD,
    is_example,
    is_passed_value,
    variable_of_value,
)
from docgen.baseimage import flavours, read_word
from docgen.markdown import code_spans
from docgen.model import Diagnostic

PIN = re.compile(
    r"(?<![\w.+/@-])([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[A-Za-z0-9_,.-]*\])?[ \t]*"
    r"(===|==|>=|<=|~=)[ \t]*((?:\d{1,4}:)?v?\d[A-Za-z0-9.+!*-]*|[0-9a-f]{7,40}\b)"
)


_AFTER_NAME = re.compile(
    r"[ \t*`:=@(—–]*"
    r"(?:(?:version|release|commit|tag|ref|at|is|pinned|to"
    r"|(?<=version[ \t])(?:targeted|used|installed|shipped|bundled|included)(?=[ \t]+is\b)"
    r"|(?<=ubuntu[ \t])(?:server|desktop))[ \t*`:=@(]+){0,3}"
    r"(v?\d+(?:\.\d+)+[A-Za-z0-9.+!-]*|v?\d+\.x(?![\w.])|[0-9a-f]{7,40}(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
"""After a name, the words up to its version: `ROCm 6.4`, `PyTorch version: 2.4.0`, `CUDA release is 12.4`,
`ROCm version targeted is 6.4` (a participle only between `version` and `is`), `Ubuntu Server 20.04`, a
major with a wildcard (`ROCm 7.x-compatible`: any 7 release, compared as far as the major goes)."""


_WILDCARD = re.compile(r"v?\d+\.x", re.IGNORECASE)
_ABOUT_BUILD = re.compile(
    r"\b(?:images?|containers?|dockerfiles?|recipes?|build(?:s|ing)?|built)\b|Dockerfile", re.I
)
"""A major with a wildcard (`7.x`) is read only on a line about the image or its build (`Dockerfile.gfx906`:
`Container recipe building ROCm 7.x-compatible vLLM runtime`): elsewhere it names a line of releases
(`RDNA2 | ROCm 6.x で公式サポート`, `ROCm 6.x + PyTorch 2.4+`: another path) more often than a claim."""
_BADGE = re.compile(r"img\.shields\.io/badge/([^/?#\s()\"'<>]+)")
_BADGE_VERSION = re.compile(r"v?\d+(?:\.\d+)*[A-Za-z0-9.]*\+?")
_NAME_WORDS = re.compile(r"[A-Za-z0-9._ \t-]+")


_NAMES_AN_IMAGE = re.compile(r"[ \t]+(?:image|variant)s?\b", re.IGNORECASE)
SENTENCE_THE = re.compile(r"(?:^|[.!?:][ \t]+)[ \t]*the[ \t]+\Z", re.IGNORECASE)
"""`The CUDA 13.0 image has its own Dockerfile.`: a sentence about the image of the family named by its
version (a sibling of a cu129/cu130 pair); it does not say what this one holds (`Uses the NGC PyTorch
25.03 image` does)."""
_NOT_A_CLAIM_BEFORE = re.compile(
    r"(?:\bfrom|\bthan|\bbefore|\bunlike|\bwas|\bpre|\bdefault[ \t]+(?:for|of)|^[ \t*+-]*default)[ \t`]*\Z",
    re.IGNORECASE,
)
"""Words before a name that make what follows no claim of its version: `upgraded from PyTorch 2.8.0`;
`Default `CUDA` is `10.0``, a build arg's default (compared as one)."""
_DESKTOP = (
    r"(?:an?[ \t]+)?(?-i:Windows|WINDOWS|macOS|MacOS|Mac|WSL2?)\b"
    r"(?![ \t]*-?[ \t]*(?:server[ \t]+)?(?:containers?|base)\b)"
)
"""The reader's desktop system after `on`, `for` or `under` (`on Windows`, `for macOS`, `under WSL2`),
spelled as a name (`for windows of 4096 tokens` is no system); not `Windows containers` nor `a Windows
base`, which are images."""
HOST_AFTER = patterns.compile(
    r"[ \t]*(?:[A-Za-z][\w.-]*[ \t]+)?(?:(?:kernel|host|gpu|npu|display)[ \t-]+)?"
    r"(?:drivers?|firmware|kernel[ \t-]+modules?|kmd|dkms)\b"
    r"|[ \t]+(?:on|of|in)[ \t]+the[ \t]+host\b"
    r"|[ \t]+hosts?\b(?![ \t]*[-:])"
    r"|[ \t]+(?:system|machine|workstation|computer|laptop|desktop|pc|server)s?\b"
    r"(?![ \t]*(?:[-:]|packages?|librar|python|images?|tools?|dependenc|deps\b|compilers?|gcc|pip\b))"
    r"|(?:[ \t]+or[ \t]+(?:later|newer|above|higher))?[ \t]+(?:on|for|under)[ \t]+"
    + _DESKTOP
    + r"|(?:[ \t]*+,)?[ \t]++(?:but|or)[ \t]+any[ \t]+(?:other[ \t]+)?(?:[A-Za-z][\w-]*[ \t]+)?"
    r"(?:system|os|distro|distribution|machine)s?\b",
    re.IGNORECASE,
)
"""After a version, what makes it one of the host's: `CANN 25.5.0 driver and firmware`, `ROCm 6.4
drivers`, `CUDA 12.4 compatible driver`, `CUDA 12.4 on the host`, `an Ubuntu 20.04 host`, `on an Ubuntu
24.04 system` (not `Ubuntu 22.04 system packages`, the image's), `CUDA Toolkit 12.2 or later on Windows`
(the reader's desktop system; the image is a Linux one), `Ubuntu 20.04 but any unix system will do` (the
reader picks it, so it is the machine Docker runs on). The blanks before `but`/`or` are taken whole: split
between a `[ \t]*` and a `[ \t]+`, a version and n blanks before anything else cost n² to refuse."""
_HOST_BEFORE = re.compile(
    r"\bhost(?:'s)?[ \t]+(?:[A-Za-z]+[ \t]+){0,2}\Z|\bon[ \t]+the[ \t]+host[ \t,]+(?:[A-Za-z]+[ \t]+){0,2}\Z"
    r"|\b(?:host|driver|firmware)[ \t]+(?:version[ \t]+)?\Z"
    r"|\bdrivers?\b[^.;]{0,50}?\bsupports?[ \t]+\Z"
    r"|\bset(?:ting)?[ \t]*up[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:nvidia[ \t]+)?(?:docker|podman)\b[^.]{0,40}\Z"
    r"|(?:\binstall(?:ing)?[ \t]+(?:the[ \t]+)?(?:nvidia[ \t]+)?(?:docker|podman)|\b(?:docker|podman)[ \t]+"
    r"install(?:ation|ing)?)\b(?:(?!\b(?:image|container|dockerfile|base)s?\b)[^.;:!?]){0,40}\Z"
    r"|\b(?:jetson|xavier|orin|nano|tx[12]|agx|thor)(?:[ \t]+(?:nx|nano|agx))?[ \t]+"
    r"(?:uses|runs|has|ships|comes[ \t]+with|is[ \t]+on)[ \t]+(?:[A-Za-z]+[ \t]+){0,2}\Z"
    r"|(?:\b(?:on|for|under)[ \t]+" + _DESKTOP + r"|\b(?-i:Windows|macOS|Mac)[ \t]+users?\b)"
    r"(?:(?!\b(?:image|container|dockerfile)s?\b)[^.;:!?]){0,40}\Z",
    re.IGNORECASE,
)
"""Before a name, what makes its version the host's: `the host needs ROCm 6.4`, `host driver CANN …`,
`Setting up NVIDIA docker & podman (Ubuntu 24.04)`, `Docker installation instructions on Ubuntu 20.04`,
`Install Docker on Ubuntu 22.04` (Docker itself is set up on the host), `Xavier NX
uses JetPack 4.5` (the device's release), `GPU driver: version ≥ 535 (supports CUDA 12.2)` (what the
driver can run), `On Windows, install CUDA Toolkit 12.2`, `Mac users need Python 3.11` (the reader's
desktop system, in the same clause, no image named between)."""
_BASE_LABEL = re.compile(
    r"\A[ \t]*(?:[-*+][ \t]+)?[*_]{0,2}base(?:[ \t]+(?:docker[ \t]+|container[ \t]+)?image)?"
    r"(?:[ \t]*[:：][*_]{0,2}|[*_]{1,2}[ \t]*[:：])",
    re.IGNORECASE,
)
"""A line labelled the base image (`Base image: Ubuntu 24.04 with ROCm 6.5.3 driver`): what follows is
what the base holds, its `driver` the user-space stack in it, not the host's."""
_DRIVER_OF_BASE = re.compile(r"[ \t]+drivers?[ \t]*\([ \t]*base[ \t]+image\b", re.IGNORECASE)
"""After a version: `6.5.3 driver (base image from ROCm dev-ubuntu-24.04)`, the stack the base holds."""
_ON_HOST = re.compile(r"[ \t]+(?:on|of|in)[ \t]+the[ \t]+host\b|[ \t]+hosts?\b(?![ \t]*[-:])", re.IGNORECASE)


def _hosts(text: str, start: int, end: int) -> bool:
    """True when the words after a version ending at `end` make it the host's (`HOST_AFTER`); on a
    line labelled the base image (`_BASE_LABEL`) only the host named (`on the host`) does, and a
    `driver` the base image is said to bring right after it (`_DRIVER_OF_BASE`) does not."""
    if not HOST_AFTER.match(text, end) or _DRIVER_OF_BASE.match(text, end):
        return False
    return not _BASE_LABEL.match(text[:start]) or bool(_ON_HOST.match(text, end))


def passed_image(variable: str | None, repository: str, auditor: Auditor) -> bool:
    """True when an image reference of `repository` is the value of `variable` (a script's or the
    user's setting: `CANN_IMAGE=quay.io/ascend/cann:…`) and not this image's base: no ARG of the images
    has that name and no FROM names that repository. Its tag's versions are that other image's."""
    if variable is None or variable in auditor.declared:
        return False
    return not auditor.facts.images.get(repository.lower())


def _tag_claims(line: int, tag: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """The versions an image tag names (`verlai/verl:app-verl0.5-vllm0.10.0-mcore0.13.0`) that the image
    it is the tag of does not have. A tag names one image: of a family, the Dockerfile whose name's
    parts the tag repeats (`Dockerfile.app.vllm.mcore0.13`, the most specific such one; `tag_names`), and
    each of its versions is compared with that image only, whatever a sibling has. A tag naming no
    Dockerfile is the image's (or images') that agree with most of its versions, when at least a third
    of its versions that can be compared agree (`cu126` is in most tags: its agreeing says little); a tag
    with fewer is a sibling's or an older one; its versions are stale when no image of the family has
    them. `…-preview`, `nightly-…`: not the image built now, unless the Dockerfile named says so too."""
    versions = tag_versions(tag)
    if not versions:
        return
    scores = [tag_names(tag, model.path, norm) for model in auditor.models]
    best = max(scores)
    not_current = {m.group().lower() for m in NOT_CURRENT.finditer(tag)}
    if best:
        named = [auditor.each[i] for i, score in enumerate(scores) if score == best]
        if not_current - set().union(*(path_words(image.models[0].path) for image in named)):
            return
        # the tag names this Dockerfile by its parts: a version it states that the file does not
        # build is as sure as a pin in a table (verl's `app-…-sglang0.4.6.post5-mcore0.12.1` for
        # `Dockerfile.app.sglang.mcore0.12`, which installs sglang 0.4.8)
        for image in named:
            for name, version in versions:
                yield from some(image.version_claim(line, name, "==", version, CERTAIN))
        return
    if not_current:
        return
    stale = {(n, v) for n, v in versions if auditor.verdict(n, "==", v)[0] is False}
    if not stale:
        return
    owners: list[tuple[int, Auditor, list[tuple[str, str, bool | None]]]] = []
    for image in auditor.each:
        claims = [(name, version, image.verdict(name, "==", version)[0]) for name, version in versions]
        agreeing = sum(1 for name, _, agrees in claims if agrees and name != "cuda")
        if agreeing and 2 * agreeing >= sum(1 for _, _, agrees in claims if agrees is False):
            owners.append((agreeing, image, claims))
    most = max((agreeing for agreeing, _, _ in owners), default=0)
    for agreeing, image, claims in owners:
        if agreeing == most:
            for name, version, agrees in claims:
                if agrees is False and (name, version) in stale:
                    yield from some(image.version_claim(line, name, "==", version, LIKELY))


def audit_text(
    line: int,
    text: str,
    auditor: Auditor,
    prose: bool,
    named_file: bool | None = None,
    stage: str | None = None,
    listed: bool = False,
    plain: bool = False,
    opened: bool = False,
    elided: bool = False,
    commented: bool = False,
    offered_item: bool = False,
) -> Iterator[Diagnostic]:
    """`--build-arg NAME`, `pkg==1.2.3` pins and (in prose) `Name 1.2.3` claims on one line of text.
    `named_file`: whether the build command the line is part of names its Dockerfile with `-f` (None:
    read it off the line); one that does not passes its `--build-arg`s to whichever image of the
    family declares them. `stage`: the build stage the line describes, whose contents a component
    said to be absent is compared with (`_stage_lines`). `listed`: the line is a bare `Name version`
    item under a heading about the image's versions (`wording.listed_versions`), as sure as a table cell.
    `plain`: the line is under a heading that may describe the image (`wording.about_this_image`), where
    a sentence saying a version is in use (`_said_in_use`) is as sure as a table cell too. `opened`: the
    line is a list item opening with a plain `Name version` under such a heading
    (`wording.opened_versions`); that opening claim is as sure as a table cell, the rest of the line not.
    `elided`: the line is part of a command written with an ellipsis for what it leaves out
    (`commands.lines_of_elided_commands`), whose `--build-arg`s are no claim. `commented`: the line is
    the text of a `#` comment heading a build of the image in a command block (`fences.build_comments`):
    only the versions it names are read (`Name version`, an image's tag), not what a sentence says is
    absent, installed or set. `offered_item`: the line is an item a lead-in offers as a value to pass instead
    of the image's (`wording.offered_items`: `- CUDA 12.1: `--cuda-index-url …/cu121`` under `override
    via `--cuda-index-url`:`): only its build args are read, its versions are the reader's choice."""
    if named_file is None:
        named_file = bool(FILE_FLAG.search(text))
    if DEFAULT_WORDS.search(text):  # `BASE defaults to …:6.0.1` next to a build passing another BASE
        auditor = auditor.as_declared
    for match in () if elided else BUILD_ARG_FLAG.finditer(text):
        # `--build-arg to override …` in prose names nothing; lower-case args are named with `=`.
        if not UPPER_WORD.match(match.group(1)) and not text.startswith("=", match.end()):
            continue
        problem = (auditor if named_file else auditor.whole).arg_claim(
            line, match.group(1), CERTAIN, passed=True
        )
        if problem:
            yield problem
    if offered_item:
        return
    taken: list[tuple[int, int]] = []
    for match in PIN.finditer(text):
        taken.append((match.start(), match.end()))
        if is_example(text, match) or edit_example(text, match.start(), match.end()):
            continue  # `(e.g. change `torch>=2.0.0` to `torch==2.0.0`)`: how to write a pin, no claim
        version = match.group(3).rstrip(".,;:*")
        problem = auditor.version_claim(line, match.group(1), match.group(2), version, CERTAIN)
        if problem:
            yield problem
    if not prose:
        return
    for match in _BADGE.finditer(text):
        label, message = _badge(match.group(1))
        if label and _BADGE_VERSION.fullmatch(message):
            yield from some(auditor.version_claim(line, label, "==", message, LIKELY))
    offered: list[list[tuple[int, int]]] = []
    glossed: list[tuple[int, int]] = []  # a parenthesis right after a base image's reference
    for match in IMAGE_REF.finditer(text):
        if is_passed_value(text, match):
            taken.append((match.start(), match.end()))
            continue  # `--build-arg IMAGE=nvidia/cuda:12.1.1-…`: an override to pass, not the base image
        if is_example(text, match):
            continue
        if passed_image(variable_of_value(text, match), match.group(1), auditor):
            taken.append((match.start(), match.end()))
            continue  # `CANN_IMAGE=quay.io/ascend/cann:…-py3.11`: another image to pass, not this one's
        # `rocm/dev-ubuntu-22.04:6.4.0-complete` for the base `…:6.4.1-complete`: a tag of the same shape
        # (versions aside) of the same repository as a base image, that is none of its tags. A tag of
        # another shape (`cann:9.0.0-a3-…` for `cann:8.3.rc2-910b-…`) is a variant built with another
        # base, not a claim about this one; either way its name is no `Name version` claim below.
        bases = auditor.facts.images.get(match.group(1).lower(), [])
        if bases:
            taken.append((match.start(), match.end()))
            if (gloss := _GLOSS.match(text, match.end())) is not None:
                glossed.append(gloss.span(1))
            if _offered_base(text, match, offered):
                continue  # `You can also use `nvidia/cuda:12.1.0-…` as base`: a choice, not this image's
        if (stale_base := auditor.base_tag_claim(line, match, "says", CERTAIN)) is not None:
            yield stale_base
            continue
        # the tag's versions are read here, not as `Name version` words below: `someone/tritonserver:
        # 23.02-py3` is an image of that repository, no claim of the base `nvcr.io/…/tritonserver`'s
        taken.append((match.start(), match.end()))
        yield from _tag_claims(line, match.group(2), auditor)
    if not commented:
        for match in _DEFAULTS_TO.finditer(text):
            yield from some(_stated_default(line, text, match, auditor))
        for match in GLUED_DEFAULT.finditer(text):
            yield from some(_glued_default(line, match, auditor))
        yield from _stated_bases(line, text, auditor)
        yield from absence_claims(line, text, auditor, stage)
        yield from toolchain_claims(line, text, auditor, stage)
        yield from unset_flag_claims(line, text, auditor)
        yield from env_name_claims(line, text, auditor)
        yield from presence_claims(line, text, auditor)
        yield from pinned_install_claims(line, text, auditor)
        yield from wheel_name_claims(line, text, auditor)
    taken.sort()
    yield from _glued_claims(line, text, auditor, taken)
    yield from _major_claims(line, text, auditor, taken)
    if prose and not commented and _V_MAJOR.search(text) and _is_heading(line, auditor):
        yield from _headed_majors(line, text, auditor, taken)
    yield from _contrasted_cuda(line, text, auditor)
    yield from _version_first(line, text, auditor, taken)
    words = list(WORD.finditer(text))
    # Each word's spelling as `_Facts.findable` holds them (a word is letters, digits and `-_.`), so a
    # name of up to three words is checked with a join and a set lookup, not a regex and a lookup each:
    # audit of a megabyte of prose went from 5 s to a fraction of that.
    raws = [w.group().lower().replace("-", "").replace("_", "").replace(".", "") for w in words]
    digit_after = [
        bool(DIGIT.search(text, a.end(), b.start())) for a, b in zip(words, words[1:], strict=False)
    ]
    findable, respelt = auditor.facts.findable, auditor.facts.respelt
    spelt: dict[int, str] = {}  # where a name is a slip off the one read, as the README spells it
    tested: set[int] = set()  # where a version something was tested with starts (`_TESTED_FOR`)
    named: list[tuple[str, int, int, str, str]] = []  # the `Name version` claims, compared at the end
    pin = 0
    for index, word in enumerate(words):
        while pin < len(taken) and taken[pin][1] <= word.start():
            pin += 1
        if pin < len(taken) and taken[pin][0] <= word.start():
            continue  # part of a `pkg==1.2` pin, already checked
        # A name may be up to three words (`Flash Attention`, `Transformer Engine`): longest first.
        for width in (3, 2, 1):
            if index + width > len(words):
                continue
            meant = None  # the name a word a slip off one is read as (`Tensoflow` for tensorflow)
            if width == 1 or not any(digit_after[index : index + width - 1]):
                if "".join(raws[index : index + width]) not in findable:
                    if (
                        width > 1
                        or not _VERSION_NEXT.match(text, word.end())
                        or not (meant := respelt(raws[index]))
                    ):
                        continue
            last = words[index + width - 1]
            between = text[word.start() : last.end()]
            if width > 1 and not _NAME_WORDS.fullmatch(between):
                continue
            if meant is None and raw_name(between) not in findable:  # a digit between the words counts
                continue
            name = between if meant is None else meant
            if len(norm(name)) < 3 or not auditor.facts.lookup(name, auditor.names):
                continue
            if _NOT_A_CLAIM_BEFORE.search(text[max(0, word.start() - 16) : word.start()]) or is_example(
                text, word
            ):
                break
            if _chosen(text, word.start(), last.end()):
                break  # `Use GROMACS 2024.2`, `you can pick CUDA 12.1`: a choice, not what the image has
            if option_default(text, word.start()):
                break  # `with `--docker_cuda` (default version set at CUDA=9.1)`: the script option's
            if _BUILT_WITH.search(text, max(0, word.start() - 60), word.start()):
                break  # `torch 2.7.0 built on ROCm 6.5.0rc`: how that torch was built, not the image's ROCm
            if _TESTED_FOR.search(text, max(0, word.start() - 60), word.start()):
                # `Tested with python 3.9-3.11, piper does not install on python 3.12`: what the code
                # works with, no claim; kept as the sentence's context (`_agreeing_sentences`), not reported
                tested.add(word.start())
            if (UPPER_SNAKE.match(name) or name in auditor.declared) and text.startswith("=", last.end()):
                break  # `ROCM_VERSION=6.4`, `VERSION=23.01`: a value to pass, not what the Dockerfile says
            after = _AFTER_NAME.match(text, last.end(), min(len(text), last.end() + 40))
            if not after:
                break
            version = after.group(1).rstrip(".,;:")
            if _WILDCARD.fullmatch(version) and not _ABOUT_BUILD.search(text):
                break  # `ROCm 6.x で公式サポート` in a table of GPUs: a line of releases, not the image's
            if HEX.match(version.lower()) and not any(c.isdigit() for c in version):
                break
            if is_address(after.group(1), text[after.end(1) : after.end(1) + 8]):
                break  # `Prometheus (`127.0.0.1:9090`)`: where it listens, not its version
            rest = text[after.end() : after.end() + 16]
            if OR_OLDER.match(rest) or MORE_VERSIONS.match(rest):
                break  # `CUDA 11.8 or older`; `ROCm 5.7, 6.0 and 6.1`, `Python 3.9 -- 3.12`: not one version
            if MEASURED.match(text, after.end()):
                break  # `vLLM 422.8 tok/s`, `PyTorch 1.5 GB`: a measure of it, not its version
            if _NAMES_AN_IMAGE.match(rest) and SENTENCE_THE.search(
                text, max(0, word.start() - 80), word.start()
            ):
                break  # `The CUDA 13.0 image has …`: that image of the family is the subject
            host = _HOST_BEFORE.search(text, max(0, word.start() - 60), word.start())
            if host or _hosts(text, word.start(), after.end()):
                break  # `CANN 25.5.0 driver and firmware`, `the host needs ROCm 6.4`: outside the image
            if OR_NEWER.match(rest) and not version.endswith("+"):
                version += "+"
            if version.endswith("+") and _NEEDED_BY.search(text, max(0, word.start() - 100), word.start()):
                break  # `` `pyannote.audio` (4.0+) demands PyTorch 2.8+ ``: that package's requirement
            wholes = compound_names(text[max(0, word.start() - 80) : word.start()], name)
            if wholes:  # `Intel Extension for PyTorch 2.1.20`: the extension's version
                known = (
                    n for w in wholes for n in _singular_forms(w) if auditor.facts.lookup(n, auditor.names)
                )
                name = next(known, "")
                if not name:
                    break
            owner = version_owner(
                text[max(0, word.start() - 80) : word.start()], text[last.end() : after.start(1)]
            )
            if owner is not None:  # `The default CUDA version used by CMake is 13.0`: CUDA's
                if not auditor.facts.lookup(owner, auditor.names):
                    break
                name = owner
            named.append((norm(name), word.start(), after.end(), name, version))
            if meant is not None:
                spelt[word.start()] = f"{between} ({meant}?)"
            break
    if glossed:
        named = [claim for claim in named if not _of_base_only(claim, glossed, auditor)]
    sure = {
        start
        for key, start, end, _, _ in named
        if plain and (_said_in_use(text, start, end) or _labelled_base_version(text, start, key, auditor))
    }
    if opened and (item := LIST_ITEM.match(text)) is not None:
        opening = len(text) - len(text[item.end() :].lstrip("*_`"))
        sure.update(start for _, start, _, _, _ in named if start == opening)
    tagged = _tagged_image(text, auditor)
    if tagged is not None:  # `CUDA 11.8.0 & Torch 2.3.0  org/img:cu118-torch230`: that image's versions
        confidence = CERTAIN if listed else LIKELY
        yield from _named_versions(
            line, text, named, tagged, confidence, sure, spelt, item=listed, unreported=tested
        )


_GLOSS = re.compile(r"[`*_]*(?:\][ \t]*\([^()\s]*\))?[ \t]*\(([^()]{1,160})\)")
"""A parenthesis right after an image's reference (a link's target between): `nvidia/vulkan:1.3-470
(ubuntu 20.04, python 3.8)`, what that image is."""


def _of_base_only(
    claim: tuple[str, int, int, str, str], glossed: Sequence[tuple[int, int]], auditor: Auditor
) -> bool:
    """True when the `Name version` `claim` is inside a parenthesis that glosses a base image's
    reference (`base image: nvidia/vulkan:1.3-470 (ubuntu 20.04, python 3.8)`) and nothing the base
    gives says a version of that name (its tag, its distribution's default package): it says what the
    base holds, which what the Dockerfile installs over it (`python3.7` beside the base's 3.8) does not
    contradict."""
    _, start, _, name, _ = claim
    if not any(a <= start < b for a, b in glossed):
        return False
    return not any(f.tag or f.default for f in auditor.facts.lookup(name, auditor.names))


def _tagged_image(text: str, auditor: Auditor) -> Auditor | None:
    """Whose versions a line's `Name version` words are when the audited Dockerfiles are built as
    several named images (bake targets named `cu118-torch212`, `cu121-torch221`): a line naming one of
    them by an image tag (`org/base:cu118-torch212`) speaks of that image; one naming a tag of the same
    shape, digits aside, that is none of them (`org/base:cu118-torch230`) speaks of an image not audited
    (None). Otherwise the line is compared with `auditor` as it is."""
    names = {m.image_name.lower(): m for m in auditor.family if m.image_name}
    if not names or ":" not in text:
        return auditor
    shapes = {DIGITS.sub("0", name) for name in names}
    for match in IMAGE_REF.finditer(text):
        tag = match.group(2).lower()
        if tag in names:
            return auditor._with((names[tag],))
        if DIGITS.sub("0", tag) in shapes:
            return None
    return auditor


_BASE_LEAD = re.compile(
    r"[ \t*_`]*(?:(?:the|an?|official|nvidia|amd|intel|google)[ \t]+){0,3}[*_`]*", re.IGNORECASE
)
"""What may stand between a base-image label and the name of the base's product: `NVIDIA`, `the official`."""


def _labelled_base_version(text: str, start: int, key: str, auditor: Auditor) -> bool:
    """True when the `Name version` claim at `start` (`key`: its name as `norm` spells it) is the value
    of a line labelled the base image (`_BASE_LABEL`), right after the label but for a vendor word, and
    the name is the product a FROM image of the audited Dockerfiles is named after (`- **Base Image**:
    NVIDIA PyTorch 25.10` for `FROM nvcr.io/nvidia/pytorch:25.09-py3`): the version is that base's tag,
    stated as plainly as a base image reference (`certain`). Another name there (`Base image: Ubuntu
    22.04 with PyTorch 2.1` for a `pytorch/pytorch` base) says what the base holds, in words: prose."""
    label = _BASE_LABEL.match(text)
    if label is None or not _BASE_LEAD.fullmatch(text, label.end(), start):
        return False
    products = {
        norm(stage.base.split("@", 1)[0].rsplit("/", 1)[-1].split(":", 1)[0])
        for model in auditor.models
        for stage in model.stages
    }
    return key in products


_IN_USE_LEAD = re.compile(r"(?:(?:currently|now|here),?)?(?:[ \t]*\bthe)?", re.IGNORECASE)
"""What may open a sentence before the name it says is in use: `Currently`, `Now`, `The`."""
_IN_USE = re.compile(
    r"[ \t]+(?:is|are)[ \t]+(?:(?:already|now)[ \t]+)?"
    r"(?:used|installed|pre-?installed|included|bundled|shipped)"
    r"(?:[ \t]+in[ \t]+(?:the|this)[ \t]+(?:docker[ \t]+)?(?:image|container))?[ \t]*(?:[,.;]|\Z)",
    re.IGNORECASE,
)
"""`is used`, `is installed`, `is included in the image`, ending its clause: the version in the image."""


_STOPS: list[tuple[str, list[int]]] = []
"""The last text `_said_in_use` read, with where each of its sentences starts: the claims of one line are
read one after another, so the line is cut into sentences once, not once a claim."""


def _said_in_use(text: str, start: int, end: int) -> bool:
    """True when the `Name version` claim at `start`-`end` of `text` is the whole subject of a clause
    saying the image uses it (`Currently Cuda 11.2 is used, which requires drivers …`, `PyTorch 2.1 is
    installed.`): as plain a statement about the image as a table cell. Not with more words before it in
    its sentence (`if CUDA 11.2 is used`, `On the host, CUDA 11.2 is installed`) or after the verb
    (`is used by default`, `is used for testing`)."""
    if not _STOPS or _STOPS[0][0] is not text:
        _STOPS[:] = [(text, [stop.end() for stop in SENTENCE_STOP.finditer(text)])]
    stops = _STOPS[0][1]
    before = bisect.bisect_right(stops, start) - 1
    if start and text[start - 1] in ".!?;":
        before, stops = 0, [start]  # a stop the claim's own start would make (`x.CUDA 11.2`)
    opening = text[stops[before] if before >= 0 else 0 : start]
    opening = LIST_ITEM.sub("", opening, count=1) if LIST_ITEM.match(opening) else opening
    return bool(_IN_USE_LEAD.fullmatch(opening.strip(" \t*_")) and _IN_USE.match(text, end))


_BUILT_WITH = re.compile(
    r"\b[A-Za-z][\w.+-]*[ \t]+v?\d+(?:\.\d+)+[\w.+-]*[ \t]+(?:(?:was|is)[ \t]+)?"
    r"(?:built|compiled)[ \t]+(?:on|against|with|for)[ \t]+(?:the[ \t]+)?\Z",
    re.IGNORECASE,
)
"""A component and its version, then the words telling what it was built with: the version that
follows (`torch 2.7.0 built on ROCm 6.5.0rc`, `jaxlib 0.4.30 compiled against CUDA 12.3`) is a fact of
that build (its wheel), not a claim of what the image has. `Built on ROCm 6.4` alone is the image's."""

_NEEDED_BY = re.compile(
    r"`[^`\n]{1,60}`(?:[ \t]*\([^)\n]{0,20}\))?[ \t]+(?:\w+[ \t]+)?"
    r"(?:demands|requires|needs|depends[ \t]+on|wants|pulls[ \t]+in)[ \t]+(?:at[ \t]+least[ \t]+)?\Z",
    re.IGNORECASE,
)
"""A package in code and the words saying what it needs: the minimum that follows (`` `pyannote.audio`
(4.0+) strictly demands PyTorch 2.8+ ``) is that package's requirement, not the image's version."""
_TESTED_FOR = re.compile(
    r"\b(?:(?:developed|built|written)[ \t]+and[ \t]+)?(?:tested|verified|validated)"
    r"(?:[ \t]+(?:only|mainly|mostly|primarily|successfully))?[ \t]+(?:for|on|with|against|under|using|in)\b"
    r"(?:(?!\b(?:images?|containers?|dockerfiles?|but|while|whereas|although|ships?|installs?)\b)"
    r"(?:[^.;:!?]|[.:](?=\w))){0,60}\Z",
    re.IGNORECASE,
)
"""The words saying what something was tested with, in the same clause before a version (`The requirements
are tested for python 3.7`, `Tested with Python 3.12.3`, `developed and tested with python versions 3.10.6
and 3.12.3`, `verified on Ubuntu 22.04`): whoever the subject, the version that follows is one the code
is known to work with (a reader's machine, a release it was tried on), not what the image has. A clause
turning to the image (`…, but the image ships Python 3.11`) is read again."""


_CHOICE_BEFORE = re.compile(
    r"(?:^|[.!?:;,][ \t]+|\b(?:or|and)[ \t]+)[ \t*+>-]*"
    r"(?:(?:you|users?)[ \t]+(?:can|may|could|might)[ \t]+(?:also[ \t]+)?|to[ \t]+|please[ \t]+"
    r"|instead[ \t,]+)?(?:use|choose|pick|select|switch[ \t]+to|try|build[ \t]+with|opt[ \t]+for)"
    r"[ \t]+(?:the[ \t]+)?\Z",
    re.IGNORECASE,
)
"""A sentence (or list item) telling the reader to pick the version that follows: `Use`, `You can use`,
`To use`, `Choose`, `Switch to`; not `Uses` nor `The image uses` (a claim of what it has)."""
_SENTENCE_REST = re.compile(r"(?:[^.!?;]|\.(?=\w))*")
"""The rest of a sentence (a dot inside a version or a name does not end it)."""


_NOT_THE_DEFAULT = re.compile(
    r"\b(?:different|other|another)\b(?:[^.!?;]|\.(?=\w)){0,40}?\bthan[ \t]+(?:the[ \t]+)?defaults?\b"
    r"|\bnon-default\b|\bother[ \t]+than[ \t]+(?:the[ \t]+)?defaults?\b",
    re.IGNORECASE,
)
"""Words telling that what follows in the sentence are the other choices, not what the image has: `build
with a different python version than default - available ubuntu22.04 with python3.11`."""


def _chosen(text: str, start: int, end: int) -> bool:
    """True when the name at `text[start:end]` and the version after it are the reader's choice (`Use
    GROMACS 2024.2` under `For Latest Features:`, `You can use CUDA 12.1 by passing …`, `a different
    Python than the default: 3.11 or 3.12`), unless the sentence calls it the default (`Use GROMACS
    2024.1 (default)`: a claim of the default)."""
    near = max(0, start - 120)  # (a bounded look back: a line of n claims costs n, not n²)
    other = _NOT_THE_DEFAULT.search(text, near, start)
    if other is not None and not SENTENCE_STOP.search(text, other.end(), start):
        return True  # (in the claim's own sentence)
    if not _CHOICE_BEFORE.search(text, max(0, start - 40), start):
        return False
    rest = _SENTENCE_REST.match(text, end)
    return not (rest and DEFAULT_WORDS.search(rest.group()))


def _singular_forms(name: str) -> list[str]:
    """`name` and, when a word of it is plural, that word singular (`Intel Extensions for PyTorch` is
    the package `intel-extension-for-pytorch`)."""
    words = name.split()
    forms = [name]
    for index, word in enumerate(words):
        if len(word) > 3 and word.lower().endswith("s") and not word.lower().endswith("ss"):
            forms.append(" ".join([*words[:index], word[:-1], *words[index + 1 :]]))
    return forms


_JOINED = re.compile(r"[ \t*`_]*(?:,[ \t]*(?:and|or)\b|,|/|&|\band\b|\bor\b)[ \t*`_]*\Z", re.IGNORECASE)
"""What joins two values of one claim: `Ubuntu 18.04 and Ubuntu 20.04`, `CUDA 11.8 or CUDA 12.1`,
`Ubuntu 20.04/Ubuntu 22.04`."""


_MAJOR_ONLY = re.compile(r"(?<![\w./:@-])(cudnn)[ \t]+v?(\d{1,2})(?![\w.-])", re.IGNORECASE)
"""cuDNN said by its major release alone (`CUDA 10.2, CuDNN 8`, `cuDNN v9`), as NVIDIA's own image tags
write it (`cudnn8`); `Name 1.2` claims need a dotted version, a bare number after a name being a count."""


def _major_claims(
    line: int, text: str, auditor: Auditor, taken: Sequence[tuple[int, int]]
) -> Iterator[Diagnostic]:
    """`cuDNN 8` in prose (`_MAJOR_ONLY`) against the image's cuDNN, compared as far as the major goes;
    not inside a pin or an image reference already read (`taken`), nor when it is a minimum, a list of
    releases or the host's."""
    for match in _MAJOR_ONLY.finditer(text):
        if any(a <= match.start() < b for a, b in taken) or is_example(text, match):
            continue
        rest = text[match.end() : match.end() + 16]
        if OR_OLDER.match(rest) or MORE_VERSIONS.match(rest) or OR_NEWER.match(rest):
            continue
        if _HOST_BEFORE.search(text, max(0, match.start() - 60), match.start()) or _hosts(
            text, match.start(), match.end()
        ):
            continue
        yield from some(auditor.version_claim(line, "cuDNN", "==", match.group(2), LIKELY))


_V_MAJOR = re.compile(r"(?<![\w./:@-])([A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9])[ \t]+v(\d{1,3})(?![\w.+-])")
"""A name and a `v` with a major release alone (`cryosparc v2`): a version, not a count (`GPU 2`)."""
_CHANGED = re.compile(
    r"\b(?:from|migrat\w*|upgrad\w*|moving|since|until|before|after|vs|versus|compat\w*)\b|→|->|=>",
    re.IGNORECASE,
)
"""Words of a heading about a change of release or another release (`Migrating from v2`)."""


def _is_heading(line: int, auditor: Auditor) -> bool:
    """Whether README `line` is a heading's."""
    headings = auditor.shared.doc.headings
    index = bisect.bisect_left(headings, line, key=lambda heading: heading[0])
    return index < len(headings) and headings[index][0] == line


def _headed_majors(
    line: int, text: str, auditor: Auditor, taken: Sequence[tuple[int, int]]
) -> Iterator[Diagnostic]:
    """`Name vN` in a heading (`# docker image for cryosparc v2`), which `Name version` claims do not
    read (a dotted version only), against what the image pins of that name (its `CRYOSPARC_VERSION`,
    as a Makefile's `make` passes it), compared as far as the major goes (`likely`); not inside a pin
    or an image reference already read (`taken`), nor a name nothing of the image pins exactly (`API
    v2`), nor the host's or an example."""
    if _CHANGED.search(text) or NOT_CURRENT.search(text):
        return  # `Upgrading from relay v2`, `v2 → v3 migration`: a release the image left
    for match in _V_MAJOR.finditer(text):
        if any(a <= match.start() < b for a, b in taken) or is_example(text, match):
            continue
        name = match.group(1)
        if len(norm(name)) < 3 or not any(f.exact for f in auditor.facts.lookup(name, auditor.names)):
            continue
        if _HOST_BEFORE.search(text, max(0, match.start() - 60), match.start()):
            continue
        yield from some(auditor.version_claim(line, name, "==", f"v{match.group(2)}", LIKELY))


def _contrasted_cuda(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """The CUDA a sentence says the image needs or uses now against the old one's (`the old version used
    the CUDA 10 image, but my RTX 3090 requires CUDA 11`: `aside.contrasted_cuda`), when said by its
    major release alone, which `Name version` claims do not read: compared as far as it goes (`likely`).
    A dotted one (`CUDA 11.8`) is read as any `Name version` claim."""
    for claim in contrasted_cuda(text):
        if "." not in claim.group(1):
            yield from some(auditor.version_claim(line, "CUDA", "==", claim.group(1), LIKELY))


_VERSION_FIRST = re.compile(
    r"(?<![\w./:=-])v?(\d+(?:\.\d+)+)[ \t]+([A-Za-z][A-Za-z0-9+-]*(?:[ \t]+[A-Za-z][A-Za-z0-9+-]*)?)"
    r"[ \t]+versions?\b(?![ \t]+(?:of|for)\b)",
    re.IGNORECASE,
)
"""A version written before its name and the word `version` (`compatible with 1.13.0 Habana Version`,
`the 12.4 CUDA version`), not a version of something named after it (`the 2.1 Habana version of
PyTorch`)."""


def _version_first(
    line: int, text: str, auditor: Auditor, taken: Sequence[tuple[int, int]]
) -> Iterator[Diagnostic]:
    """`1.13.0 Habana Version` in prose (`_VERSION_FIRST`) against the pins and stated versions of that
    name (`likely`); not inside a pin or an image reference already read (`taken`), nor a list of
    releases, an example or the host's (`the 535.104 NVIDIA driver version`)."""
    if "version" not in text.lower():
        return
    for match in _VERSION_FIRST.finditer(text):
        if any(a <= match.start() < b for a, b in taken) or is_example(text, match):
            continue
        words = match.group(2).split()
        name = next(
            (
                " ".join(words[:n])
                for n in (2, 1)
                if len(words) >= n and auditor.facts.lookup(" ".join(words[:n]), auditor.names)
            ),
            None,
        )
        if name is None or len(norm(name)) < 3 or words[-1].lower() in ("driver", "drivers", "firmware"):
            continue
        before = text[max(0, match.start() - 60) : match.start()]
        if MORE_VERSIONS.search(before[-8:]) or re.search(r"\d[ \t]*(?:,|/|or|and|to)[ \t]*\Z", before):
            continue  # `1.12 or 1.13.0 Habana version`: several releases
        if _HOST_BEFORE.search(before) or _TESTED_FOR.search(before) or _BUILT_WITH.search(before):
            continue
        yield from some(auditor.version_claim(line, name, "==", match.group(1), LIKELY))


_VERSION_NEXT = re.compile(r"[ \t]+[vV]?\d")
"""A version right after a word (` 2.0`, ` v2`): only then is a word a slip off a name tried."""


def _named_versions(
    line: int,
    text: str,
    named: list[tuple[str, int, int, str, str]],
    auditor: Auditor,
    confidence: str = LIKELY,
    sure: Collection[int] = (),
    spelt: Mapping[int, str] | None = None,
    item: bool = False,
    unreported: Collection[int] = (),
) -> Iterator[Diagnostic]:
    """The `Name version` claims of one line of text, (key, start, end, name, version) each in order,
    that contradict the Dockerfiles (`CERTAIN` for those starting at an offset in `sure`). Claims of one
    name joined by `and`, `or`, `,` or `/` (`Dockerfiles for Ubuntu 18.04 and Ubuntu 20.04`) are one
    claim of several values: true when one of them is. `item`: the line is one key-value item (`-
    **CUDA Version:** These images use CUDA 12.6.3. CUDA 13.0 is the first without sm_70.`), whose
    sentences say one thing: a version of a component besides the one agreeing with the image is a
    comparison, as in one sentence (`_agreeing_sentences`). `unreported`: the offsets of versions read
    only as their sentence's context (what something was tested with), never reported."""
    groups: list[list[tuple[str, int, int, str, str]]] = []
    for claim in named:
        last = groups[-1][-1] if groups else None
        if last is not None and last[0] == claim[0] and _JOINED.match(text[last[2] : claim[1]]):
            groups[-1].append(claim)
        else:
            groups.append([claim])
    stops = [stop.end() for stop in SENTENCE_STOP.finditer(text)] if len(named) > 1 and not item else []
    sentence = {start: bisect.bisect_right(stops, start) for _, start, _, _, _ in named}
    agreeing = _agreeing_sentences(named, sentence, auditor)
    for group in groups:
        if len(group) > 1 and any(auditor.verdict(name, "==", v)[0] for _, _, _, name, v in group):
            continue
        for key, start, _, name, version in group:
            if start in unreported:
                continue
            if (key, sentence[start]) in agreeing:
                continue  # `Ubuntu 24.04, but glslc from the Ubuntu 26.04 pocket`: 26.04 is not the image's
            if spelt and start in spelt:  # a slip off the name read: never more than `likely`
                said = spelt[start]
                yield from some(auditor.version_claim(line, name, "==", version, LIKELY, said))
                continue
            sureness = CERTAIN if start in sure else confidence
            yield from some(auditor.version_claim(line, name, "==", version, sureness))


def _agreeing_sentences(
    named: list[tuple[str, int, int, str, str]], sentence: dict[int, int], auditor: Auditor
) -> set[tuple[str, int]]:
    """(name key, sentence) of each sentence that names a component twice or more with different
    versions, one of which agrees with the image: the sentence says which version the image has, and
    the other is something else's (`the same Ubuntu 24.04 ABI, but glslc from the Ubuntu 26.04
    pocket`). `sentence`: the index of the sentence each claim starts in."""
    versions: dict[tuple[str, int], set[str]] = {}
    for key, start, _, _, version in named:
        versions.setdefault((key, sentence[start]), set()).add(version)
    found: set[tuple[str, int]] = set()
    for key, start, _, name, version in named:
        where = (key, sentence[start])
        if where not in found and len(versions[where]) > 1 and auditor.verdict(name, "==", version)[0]:
            found.add(where)
    return found


_DEFAULTS_TO = re.compile(
    r"\bdefaults?[ \t]+(?:to|is)[ \t]+(?:the[ \t]+)?([A-Za-z0-9][\w.:/+-]*)"
    r"|\bby[ \t]+default\b,?[^.;:()]{0,60}?\b(?:to|is|uses?|for|as)[ \t]+(?:the[ \t]+)?"
    r"([A-Za-z0-9][\w.:/+-]*)",
    re.I,
)
"""`defaults to the cu130 base`, `By default, sets the device to gfx1100` in words (a backticked default
after a backticked name is `_DEFAULT_IS`'s)."""
_TAG_PART = re.compile(r"[-_:/@+;,]")
_LETTER = re.compile(r"[A-Za-z]")


def _stated_default(line: int, text: str, match: re.Match[str], auditor: Auditor) -> Diagnostic | None:
    """`defaults to the cu130 base` while `ARG BASE_IMAGE=…-cu129`: a value in prose of the shape of a
    part of a build arg's default (the one the text names, else any), equal to no such part."""
    value = (match.group(1) or match.group(2)).rstrip(".,;:")
    if not DIGIT.search(value) or not _LETTER.search(value) or value in auditor.declared:
        return None
    named = {name for name in WORD.findall(text) if name in auditor.declared}
    shape = DIGITS.sub("0", value)
    alike: list[tuple[str, str, int, str]] = []
    for name, default, decl_line, dockerfile in auditor.facts.arg_defaults:
        if named and name not in named:
            continue
        parts = [default, *_TAG_PART.split(default)]
        if value in parts:
            return None
        if any(DIGITS.sub("0", part) == shape for part in parts):
            alike.append((name, default, decl_line, dockerfile))
    if not alike:
        return None
    name, default, decl_line, dockerfile = alike[0]
    return Diagnostic(
        auditor.path,
        line,
        f"README says the default is {value} but {dockerfile}:{decl_line} says {name}={default}",
        confidence=LIKELY,
    )


GLUED_DEFAULT = re.compile(
    r"(?<![\w./:@$=+~-])(?P<a>[A-Za-z][A-Za-z0-9]*[A-Za-z])[-_]?[rRvV]?(?P<av>\d+(?:\.\d+)+)"
    r"[ \t]+(?:is[ \t]+(?:the[ \t]+|used[ \t]+)?)?(?:by[ \t]+default|the[ \t]+default)\b"
    r"|\bdefaults?(?:[ \t]+(?:to|is))?(?:[ \t]*:)?[ \t]+(?:the[ \t]+)?"
    r"(?P<b>[A-Za-z][A-Za-z0-9]*[A-Za-z])[-_]?[rRvV]?(?P<bv>\d+(?:\.\d+)+)(?![\w.]*[/:@])",
    re.IGNORECASE,
)
"""A product glued to its version, said to be the default: `(L4T35.4 by default)`, `rocm6.2 is the
default`, `defaults to JP6.0`, `default: cuda12.4`."""
_DOTTED = re.compile(r"\d+(?:\.\d+)+")


def _glued_default(line: int, match: re.Match[str], auditor: Auditor) -> Diagnostic | None:
    """`L4T35.4 by default` while `ARG L4T_VERSION=l4t-r36.3.0`: the product's build arg (a declared arg
    one of whose `_` parts is the product's name, with a dotted version in its default) holds another
    version, compared to the precision the README writes (`35.4` against `36.3.0`). Any arg of the
    name agreeing, or none with a version, is no finding."""
    name = (match.group("a") or match.group("b")).upper()
    version = match.group("av") or match.group("bv")
    if auditor.verdict(name, "==", version)[0] is False:
        return None  # `rocm6.1` against a ROCm pin: `_glued_claims` says it
    want = tuple(int(part) for part in version.split("."))
    wrong = None
    for arg, default, decl_line, dockerfile in auditor.as_declared.facts.arg_defaults:
        if name not in re.split(r"[^A-Z0-9]+", arg.upper()):
            continue
        found = _DOTTED.search(default)
        if found is None:
            continue
        have = tuple(int(part) for part in found.group().split("."))
        if have[: len(want)] == want:
            return None
        wrong = wrong or (arg, default, decl_line, dockerfile)
    if wrong is None:
        return None
    arg, default, decl_line, dockerfile = wrong
    said = match.group("a") and f"{match.group('a')}{version}" or f"{match.group('b')}{version}"
    return Diagnostic(
        auditor.path,
        line,
        f"README says {said} is the default but {dockerfile}:{decl_line} says {arg}={default}",
        confidence=LIKELY,
    )


_GLUED = re.compile(
    r"(?<![A-Za-z0-9_./:@$=+~-])([A-Za-z]{2,}\d+(?:\.\d+)*)(?![A-Za-z0-9_/:@=+~-]|\.[A-Za-z0-9])"
)
"""A component's name glued to its version, a word of its own in prose (`rocm3.3`, `py3.10`,
`基于ubuntu22.04`): not a part of a path, a file name, an image tag or a URL (`rocm6.2_ubuntu22.04`,
`/opt/rocm6.2`)."""

_GLUED_VARIANT = re.compile(r"[ \t]+(?:index|wheels?|whl|variants?|images?|tags?|builds?)\b", re.IGNORECASE)
"""After a glued name, what makes it the name of a package build or an image variant, not the version
this image has: `the rocm6.3 index`, `torch2.4 wheels`, `the cuda11.8 image`."""
_ARG_BEFORE = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[`'\"]?[ \t]*[:=]?[ \t]*[`'\"]?\Z")
"""A build arg's name right before: `DISTRIBUTION_VERSION ubuntu22.04` is a value to pass or another
image's default, not this image's."""


def _glued_claims(
    line: int, text: str, auditor: Auditor, taken: Sequence[tuple[int, int]]
) -> Iterator[Diagnostic]:
    """`**Ubuntu 16.04, rocm3.3**`: a name glued to its version, as image tags write them (the words
    `baseimage.read_word` reads), is that component's version (`likely`). Not in code (`python3.10 -m
    pip` is a command), not in an image reference or a pin (`taken`), and not where a version next to a
    name is no claim either (`upgraded from rocm5.7`, `for example`, the host's, `cu118 or older`)."""
    code: list[tuple[int, int]] | None = None
    for match in _GLUED.finditer(text):
        reading = read_word(match.group(1))
        if reading is None or "." not in reading.written:
            continue  # `cu118`, `py310`, `rocm630`: the name of a wheel or an image variant, too terse
        at = match.start()
        if code is None:
            code = [(start, stop) for start, stop, _ in code_spans(text)]
        if any(start <= at < stop for start, stop in [*taken, *code]):
            continue
        rest = text[match.end() : match.end() + 16]
        if (
            _NOT_A_CLAIM_BEFORE.search(text[max(0, at - 16) : at])
            or is_example(text, match)
            or OR_OLDER.match(rest)
            or MORE_VERSIONS.match(rest)
            or _HOST_BEFORE.search(text, max(0, at - 60), at)
            or HOST_AFTER.match(text, match.end())
            or _GLUED_VARIANT.match(rest)
            or _ARG_BEFORE.search(text, max(0, at - 40), at)
            or _chosen(text, at, match.end())
        ):
            continue
        version = reading.version + ("+" if OR_NEWER.match(rest) else "")
        yield from some(auditor.version_claim(line, reading.name, "==", version, LIKELY))


BASE_WORDS = re.compile(
    r"\bbased?\b|\bbuilt[ \t]+(?:on|from|upon|atop)\b|\bdefaults?\b|\bstarts?[ \t]+from\b|(?-i:\bFROM\b)",
    re.IGNORECASE,
)
"""Words that make an image reference in a sentence the image's base: `Defaults to `python:3-slim-bullseye`
base image`, `based on nvidia/cuda:12.1-devel`, `built from …`."""
OTHER_BASE = re.compile(
    r"\b(?:instead|alternative(?:ly)?|can|could|may|might|if|override|older|newer|other|another|"
    r"previous(?:ly)?|used[ \t]+to|such[ \t]+as|e\.g|example|was|were|no[ \t]+longer)\b",
    re.IGNORECASE,
)
"""Words that make a base image in a sentence one the user may choose, or a past one."""
_FROM_IMAGE = re.compile(
    r"(?:\(|\b(?:comes?|coming|inherited|taken|provided|installed)[ \t]+)from[ \t]+"
    r"(?:the[ \t]+)?(?:image[ \t]+)?[`*_]*\Z",
    re.IGNORECASE,
)
"""`(from nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04)`, `comes from …`: what the image holds comes from that
image, its base (not `copied from`, `pulled from`)."""
_FROM_REACH = 256
"""How far before an image `_FROM_IMAGE`'s words are looked for: they end where the image starts, and are
a few words long; read from the sentence's start, a line of thousands of images cost its length squared."""
_DOUBLED_OWNER = re.compile(r"([^/\s]+)/\1/([^/\s]+)\Z", re.IGNORECASE)
"""`nvidia/nvidia/cuda`: a repository written with its owner twice, the repository `nvidia/cuda`."""


def _extra_variant(claim: str, fact: str) -> bool:
    """True when the README's tag is the FROM tag's version, distribution and variant words plus more
    (`9.0-cudnn7-devel-ubuntu16.04` for `9.0-devel-ubuntu16.04`): a variant the base is not."""
    version, words, distros = tag_parts(claim)
    fact_version, fact_words, fact_distros = tag_parts(fact)
    return bool(
        version
        and fact_version
        and same_version(version, fact_version)
        and fact_words
        and words > fact_words
        and distros == fact_distros
    )


def _base_verdict(claim: str, fact: str, doubled: bool, count: int) -> bool | None:
    """`same_base`, but False for a repository written with its owner twice (`nvidia/nvidia/cuda`: no
    such repository) and, for a repository one FROM uses, a tag naming a variant more (`_extra_variant`)."""
    if doubled or (count == 1 and _extra_variant(claim, fact)):
        return False
    return same_base(claim, fact)


SENTENCE_STOP = re.compile(r"[.!?;](?:[ \t]|\Z)")
_DISTROS = frozenset(
    {"bullseye", "bookworm", "buster", "stretch", "trixie", "jessie", "focal", "jammy", "noble", "bionic"}
    | {"xenial", "ubuntu", "debian", "alpine", "centos", "rockylinux", "rocky", "ubi", "almalinux"}
    | {"oraclelinux", "amazonlinux", "fedora", "openeuler", "el", "rhel", "manylinux"}
)
"""Distributions and their codenames, as image tags name them (`3-slim-bookworm`, `…-ubuntu22.04`)."""


def _offered_base(text: str, match: re.Match[str], read: list[list[tuple[int, int]]]) -> bool:
    """True when the sentence of `text` holding `match` offers the image as one the user may choose
    or tells the past (`OTHER_BASE`: `You can also use …`, `… was used before`), not this image's base.
    `read`: the sentence stops and `OTHER_BASE` words of `text`, filled at the first call (a line of
    many images is read once, not once an image)."""
    if not read:
        read += [
            [m.span() for m in SENTENCE_STOP.finditer(text)],
            [m.span() for m in OTHER_BASE.finditer(text)],
        ]
    stops, others = read
    before = bisect.bisect_right(stops, match.start(), key=lambda stop: stop[1]) - 1
    start = stops[before][1] if before >= 0 else 0
    if match.start() and text[match.start() - 1] in ".!?;":
        start = match.start()  # a stop the sentence's own end would make (`x;python:3`)
    after = bisect.bisect_left(stops, match.end(), key=lambda stop: stop[0])
    end = stops[after][0] if after < len(stops) else len(text)
    # the words around the reference, not in it (`registry.example.com/…`)
    first = bisect.bisect_left(others, start, key=lambda word: word[0])
    last = bisect.bisect_right(others, end, key=lambda word: word[1])
    # the words of the sentence are others[first:last]: the first is the earliest, the last the latest
    return first < last and (others[first][1] <= match.start() or others[last - 1][0] >= match.end())


def tag_parts(tag: str) -> tuple[str | None, set[str], set[str]]:
    """(leading version, variant words, distributions) of an image tag: `12.4.1-devel-ubuntu22.04` is
    (`12.4.1`, {devel}, {ubuntu22.04}); `3-slim-bookworm` is (`3`, {slim}, {bookworm})."""
    tokens = [t for t in re.split(r"[-_]+", tag.lower()) if t]
    version = tokens[0] if tokens and tokens[0][:1].isdigit() else None
    words: set[str] = set()
    distros: set[str] = set()
    for token in tokens[1:] if version else tokens:
        prefix = re.match(r"[a-z]+", token)
        if prefix and prefix.group() in _DISTROS:
            distros.add(token)
        elif prefix:
            words.add(prefix.group())
    return version, words, distros


def same_base(claim: str, fact: str) -> bool | None:
    """Whether the tag a README states for a base image agrees with the one FROM uses: None when the
    claim is another variant (`runtime` for a `devel` base), False when its version or its distribution
    differs (`3-slim-bullseye` for `3-slim-bookworm`, `12.1-devel` for `12.4.1-devel-ubuntu22.04`)."""
    if claim.lower() == fact.lower():
        return True
    version, words, distros = tag_parts(claim)
    fact_version, fact_words, fact_distros = tag_parts(fact)
    if not words <= fact_words:
        return None
    if version and fact_version and same_version(version, fact_version) is False:
        return False
    if distros and fact_distros and not distros & fact_distros:
        return False
    return True if version or distros else None


def _left_out_flavour(repo: str, claim: str, tags: list[str]) -> str | None:
    """The flavour (`devel`) the FROM tags of `repo` name that the README's tag for it leaves out, when
    `repo` names one in every tag naming a distribution (`baseimage.flavours`: `nvidia/cuda:9.0-ubuntu16.04`
    is no tag of it) and every FROM tag of it is of the claim's version and distribution and of that one
    flavour; None otherwise (a claim naming a flavour, `9.0-devel`, is `same_base`'s; bases of two
    flavours, a `devel` builder and a `runtime` final stage, leave the README's meaning open)."""
    kinds = flavours(repo)
    version, words, distros = tag_parts(claim)
    if not kinds or words & kinds or not distros or not version or not tags:
        return None
    found: set[str] = set()
    for tag in tags:
        fact_version, fact_words, fact_distros = tag_parts(tag)
        if not fact_version or not same_version(version, fact_version) or not distros <= fact_distros:
            return None
        found |= fact_words & kinds
    return found.pop() if len(found) == 1 else None


def _stated_bases(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A base image stated in a sentence (`Defaults to `python:3-slim-bullseye` base image`, `based on
    nvidia/cuda:12.1-devel`) of a repository a FROM uses, whose tag differs from every tag FROM uses
    there in its version or distribution (tags of the same shape are `audit_text`'s, and are certain).
    After `default`, only bases a build arg sets are compared (`ARG IMAGE=python:3-slim-bookworm`).
    `likely`, but `certain` on a line labelled the base image that names this image alone (`**Base**:
    `nvidia/cuda:12.9.1-devel-ubuntu22.04``)."""
    stops: list[re.Match[str]] | None = None
    read: dict[tuple[int, int], tuple[bool, bool, dict[str, int]]] = {}  # each sentence read once
    for match in IMAGE_REF.finditer(text):
        repo, tag = match.group(1).lower(), match.group(2).rstrip(".,;:-")
        doubled = _DOUBLED_OWNER.match(repo)
        if doubled is not None:
            repo = f"{doubled.group(1)}/{doubled.group(2)}"
        if stops is None:
            stops = list(SENTENCE_STOP.finditer(text))
        before = bisect.bisect_right(stops, match.start(), key=lambda stop: stop.end()) - 1
        start = stops[before].end() if before >= 0 else 0
        if match.start() and text[match.start() - 1] in ".!?;":
            start = match.start()  # a stop the sentence's own end would make (`x;python:3`)
        after = bisect.bisect_left(stops, match.end(), key=lambda stop: stop.start())
        end = stops[after].start() if after < len(stops) else len(text)
        if (start, end) not in read:
            sentence = text[start:end]
            base = bool(BASE_WORDS.search(sentence)) and not OTHER_BASE.search(sentence)
            repos: dict[str, int] = {}
            for other in IMAGE_REF.finditer(sentence):
                repos[other.group(1).lower()] = repos.get(other.group(1).lower(), 0) + 1
            read[start, end] = (base, bool(re.search(r"\bdefaults?\b", sentence, re.IGNORECASE)), repos)
        base, defaults, repos = read[start, end]
        near = max(start, match.start() - _FROM_REACH)  # (the words end at the image: read just before it)
        base = base or bool(_FROM_IMAGE.search(text, near, match.start()))
        if not base or NOT_CURRENT.search(tag):
            continue
        if repos.get(repo, 0) > 1:
            continue  # `python:3-slim-bullseye` or `python:3-slim-bookworm`: a choice of bases
        if is_passed_value(text, match) or is_example(text, match):
            continue
        bases = [
            (model, comp)
            for model in auditor.models
            for comp in model.components
            if comp.kind == "image" and comp.name.lower() == repo and (comp.version or comp.ref)
        ]
        if defaults and any(c.arg for _, c in bases):
            bases = [(model, comp) for model, comp in bases if comp.arg]  # what a build arg can change
        if doubled is None and any(
            skeleton(comp.version or comp.ref or "") == skeleton(tag) for _, comp in bases
        ):
            continue  # the same shape: compared (certain) with the tag read as a version claim
        verdicts = [
            (_base_verdict(tag, comp.version or comp.ref or "", doubled is not None, len(bases)), model, comp)
            for model, comp in bases
        ]
        flavour = _left_out_flavour(repo, tag, [comp.version or comp.ref or "" for _, comp in bases])
        if flavour is None and (any(agrees is not False for agrees, _, _ in verdicts) or not verdicts):
            continue
        _, model, comp = verdicts[0]
        where = next((d.line for d in model.args if d.name == comp.arg and not d.bare), comp.line)
        if flavour is not None:
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the base image is {match.group(1)}:{tag} but {model.path}:{where} says "
                f"{comp.name}:{comp.version or comp.ref} ({repo} publishes no tag without a flavour: "
                f"the image is built on its {flavour} one)",
                confidence=LIKELY,
            )
            continue
        # a line labelled the base image that names this one image states it as a table cell would
        label = _BASE_LABEL.match(text)
        labelled = (
            label is not None
            and sum(repos.values()) == 1
            and not text[label.end() : match.start()].strip(" \t`*_")
        )
        yield Diagnostic(
            auditor.path,
            line,
            f"README says the base image is {match.group(1)}:{tag} but {model.path}:{where} says "
            f"{comp.name}:{comp.version or comp.ref}",
            confidence=CERTAIN if labelled else LIKELY,
        )


def _badge(path: str) -> tuple[str, str]:
    """(label, message) of a shields.io static badge `label-message-color`, ('', '') for another form.
    In each part `--` is a dash, `__` an underscore and `_` a space."""
    escaped = urllib.parse.unquote(path).replace("--", "\0").replace("__", "\1")
    parts = [p.replace("\0", "-").replace("_", " ").replace("\1", "_").strip() for p in escaped.split("-")]
    return (parts[0], parts[1]) if len(parts) == 3 else ("", "")
