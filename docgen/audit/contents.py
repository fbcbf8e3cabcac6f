"""Claims that the image includes a component (`The image includes TensorRT`, an item of a list under
`## Installs`) or lacks one (`TensorRT (Not Installed)`), against what the Dockerfiles install; for the
lists, against the Dockerfile's text and the build-context files it copies.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlsplit

from docgen import patterns
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.memo import per_audit
from docgen.audit.paths import basename, matching, reference_path
from docgen.audit.versions import ALIASES, name_keys, norm, raw_name
from docgen.audit.wording import LIST_ITEM, is_example
from docgen.base_contents import KNOWN, brought_by, carries, family_name, is_plain
from docgen.copied import above_context, context_path, copied_texts
from docgen.files import is_dockerfile_name
from docgen.markdown import Document, lists, plain
from docgen.model import Component, ContextCopy, Diagnostic, ImageModel, ParsedDockerfile, Stage
from docgen.rows import renamed
from docgen.sources.pip import PIP
from docgen.stages import built_stages

NOT_INSTALLED = re.compile(
    r"(?<![\w.+-])([A-Za-z][\w.+-]*[A-Za-z0-9])\**`?[ \t]*(?:[(:,–—-][ \t]*)?(?:is[ \t]+|are[ \t]+)?"
    r"not[ \t]+(?:installed|included|shipped|bundled|present)\b"
    r"|\b(?:does[ \t]+not|doesn't|do[ \t]+not|don't)[ \t]+(?:include|ship|contain|install|bundle)[ \t]+"
    r"(?:the[ \t]+|any[ \t]+)?`?([A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""`TensorRT (Not Installed)`, `TensorRT: not installed`, `flash-attn is not included`, `does not include
TensorRT`: the README says the image lacks a component."""
_REPO_SUBJECT = re.compile(
    r"\b(?:this|the|our)[ \t]+(?:project|repository|repo|codebase|source[ \t]+code|git[ \t]+repository)"
    r"(?![ \t]*(?:'s[ \t]+)?(?:docker[ \t]+)?(?:images?|containers?)\b)[^.;]*\Z",
    re.IGNORECASE,
)
"""The subject before an absence verb is the repository, not the image: `This project does not include
ComfyUI or any plugins themselves, only instructions and Docker configuration` says what the repository
ships (a licence note), not what the image built installs."""
_LACKS = re.compile(
    r"\b(?:built|compiled|configured|installed|ships?|shipped|comes?)[ \t]+without[ \t]+"
    r"(?:the[ \t]+|any[ \t]+)?[*_`]*([A-Za-z][\w.+-]*[A-Za-z0-9])"
    r"|\b(?:installs|includes|contains|ships|has|bundles)[ \t]+no[ \t]+[*_`]*([A-Za-z][\w.+-]*[A-Za-z0-9])"
    r"|\b(?:install(?:s|ed)?|ships|includes|bundles)\b[^.;]{0,80}?\binstead[ \t]+of[ \t]+(?:the[ \t]+)?"
    r"`([A-Za-z][\w.+-]*[A-Za-z0-9])`"
    r"|`([A-Za-z][\w.+-]*[A-Za-z0-9])`[ \t]*ではなく(?=[^。]{0,80}?(?:入れ|インストール))",
    re.IGNORECASE,
)
"""More ways to say the image lacks a component: `built without CUDA`, `installs no MPI`, `installs
`libssl-dev` instead of `libcurl4-openssl-dev`` (the name in code after `instead of`, an install verb
before it: `use `uv` instead of `pip`` is advice), the same in Japanese (`` `libcurl4-openssl-dev`
ではなく `libssl-dev` を入れている``)."""
_NO_ITEM = re.compile(
    r"[ \t]*[-*+][ \t]+[*_]*no[*_]*[ \t]+[*_`]*([A-Za-z][\w.+-]*[A-Za-z0-9])[*_`]*[ \t.]*\Z", re.IGNORECASE
)
"""A list item that is only `no NAME` (`* **no** MPI`), in a list of what an image holds."""
_MARKED_ABSENT = re.compile(
    r"[ \t]*[-*+][ \t]+[*_`]*[A-Za-z][\w.+-]*[A-Za-z0-9][*_`]*[ \t]*"
    r"(?:\([ \t]*not[ \t]+(?:installed|included)[ \t]*\)|[:–—-][ \t]*not[ \t]+(?:installed|included))"
    r"[ \t.]*\Z",
    re.IGNORECASE,
)
"""A list item that is only a component and the mark that the image lacks it (`- TensorRT (Not
Installed)`, `* NCCL: not installed`): said as plainly as a table cell (`CERTAIN`)."""
_SET_ASIDE = re.compile(
    r"\b(?:left[ \t]+out|(?:leaving|leave)[ \t]+(?:(?:it|them)[ \t]+)?out|removed|dropped|excluded|omitted"
    r"|not[ \t]+included)\b[ \t,]*(?:(?:[\w-]+[ \t]+){0,3}?)"
    r"(?:for[ \t]+now|for[ \t]+the[ \t]+(?:time[ \t]+being|moment)|at[ \t]+the[ \t]+moment|temporarily)\b"
    r"|\btemporarily[ \t]+(?:removed|dropped|excluded|omitted|left[ \t]+out)\b",
    re.IGNORECASE,
)
"""A sentence saying its subject is left out of the image for now: `leaving out for now`, `removed for
the time being`, `temporarily dropped` (a state meant to change, so the sentence tells what the image
holds today; `removed in v2` is history)."""
_SUBJECT_END = re.compile(
    r"\b(?:is|are|was|were|fails?|failed|has|have|had|appears?|seems?|did|does|do|will|would|could|can"
    r"|cannot|need|needs|got|gets?|left|leaving|removed|dropped|excluded|omitted|not"
    r"|of|in|on|for|from|with|within|inside|under|to)\b",
    re.IGNORECASE,
)
"""The first verb or preposition of a sentence: the words before it are its subject (`mark5access,
PsrXML and a few other packages were …`; `NumPy bindings of PSRFMT are …` is about the bindings)."""
_SUBJECT_NAME = re.compile(r"(?<![\w.+-])[`*_]*([A-Za-z][\w.+-]*[A-Za-z0-9])")
_PART_OF = re.compile(
    r"[`*_]*[ \t]+(?:bindings?|support|plugins?|extensions?|modules?|tests?|examples?|docs|documentation"
    r"|backends?|features?|interfaces?|wrappers?|headers|sources?|packages?|gui|api|files|data|models?"
    r"|cache|integration|acceleration)\b",
    re.IGNORECASE,
)
"""A word after a name saying the subject is a part of it, not it (`Python packages`, `OpenCV's CUDA
backend`): the name itself may well be installed."""
_OF_AN_IMAGE = re.compile(
    r"[^.;]{0,20}?\b(?:of|from)[ \t]+(?:the[ \t]+)?(?:[\w.-]+[ \t]+){0,2}?"
    r"(?:image|variant|flavou?r|tag|edition|container)s?\b",
    re.IGNORECASE,
)
"""`left out of the slim image`: another image of a family is meant."""
_SAID_INSTALLED = re.compile(r"\b(?:is|are)[ \t]+(?:still[ \t]+|already[ \t]+)?installed\b", re.IGNORECASE)
"""`X is installed but disabled for now`: the component is in the image."""


def _set_aside(text: str) -> list[re.Match[str]]:
    """The names of the subject of each sentence of `text` saying it is left out of the image for now
    (`_SET_ASIDE`): `mark5access, PsrXML and a few other packages were intended to be installed but
    appear to have issues compiling, leaving out for now`; none when the sentence says the image has
    them (`_SAID_INSTALLED`) or another image lacks them (`_OF_AN_IMAGE`), nor a name followed by a
    word saying the subject is a part of it (`_PART_OF`)."""
    found: list[re.Match[str]] = []
    for aside in _SET_ASIDE.finditer(text):
        start = max(text.rfind(". ", 0, aside.start()) + 1, 0)
        sentence_end = text.find(". ", aside.end())
        sentence = text[start : len(text) if sentence_end < 0 else sentence_end]
        if (
            _SAID_INSTALLED.search(sentence)
            or MAYBE.search(sentence)
            or _OF_AN_IMAGE.match(text, aside.end())
        ):
            continue
        item = re.match(r"[ \t]*(?:[-*+]|\d{1,3}[.)])?[ \t]*", text[start:])
        begin = start + (item.end() if item else 0)
        verb = _SUBJECT_END.search(text, begin, aside.start())
        end = verb.start() if verb is not None else aside.start()
        for name in _SUBJECT_NAME.finditer(text, begin, end):
            if not _PART_OF.match(text, name.end(1)):
                found.append(name)
    return found


def left_out_claims(doc: Document, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A component a paragraph of the README (each list item of it apart) says is left out of the image
    for now (`_set_aside`: `mark5access, PsrXML and a few other packages … leaving out for now`, `Intel
    MKL/IPP libraries … removed for the time being`) that every Dockerfile compared installs in the
    image built (`psrxml` cloned and built, `intel-oneapi-mkl`), `likely`. The paragraph is read as
    written (`text`, the README): the audit's reading blanks what follows `removed` as the past. Not a
    sentence saying `default`, `unless`, `optional`, `if`, `--build-arg`, `host` or `base` (`MAYBE`)."""
    lines = text.splitlines()
    for para in doc.paragraphs:
        items: list[list[tuple[int, str]]] = []
        for line, _ in para.lines:
            written = lines[line - 1] if 0 < line <= len(lines) else ""
            if not items or LIST_ITEM.match(written):
                items.append([])
            items[-1].append((line, written))
        for item in items:
            joined = " ".join(written for _, written in item)
            lowered = joined.lower()
            if "for " not in lowered and "temporarily" not in lowered:
                continue
            starts = list(itertools.accumulate((len(written) + 1 for _, written in item), initial=0))
            for match in _set_aside(joined):
                name = match.group(1)
                if len(norm(name)) < 3 or is_example(joined, match):
                    continue
                wanted = name_keys(name, auditor.names)
                found = _in_every(auditor.models, functools.partial(installing, stage=None, wanted=wanted))
                if found is not None:
                    model, comp = found
                    line = item[bisect.bisect_right(starts, match.start()) - 1][0]
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README says {name} is left out for now but {model.path}:{comp.line} installs "
                        f"{comp.name}",
                        confidence=LIKELY,
                    )


_T = TypeVar("_T")

_FAMILIES = {"mpi": ("openmpi", "mpich", "mvapich", "mvapich2", "impi", "intelmpi", "hpcx")}
"""A kind of component some packages are one of: `MPI` is OpenMPI, MPICH, MVAPICH."""
MAYBE = re.compile(r"\bdefault\b|\bunless\b|\boptional|\bif\b|--build-arg|\bhost\b|\bbase\b", re.IGNORECASE)
"""Words that make an absence conditional (`not installed by default`, `unless INSTALL_TRT=1`) or about
something else (the host, the base image)."""
PACKAGING = patterns.compile(
    r"\A(?:python3?-|lib|intel-oneapi-)|(?:-dev|-devel|-headers|-runtime|-bin|-utils|(?:[-_]|(?<!\d))\d++)\Z"
)


def installed_under(name: str) -> set[str]:
    """The names a package stands for: `tensorrt-dev` is TensorRT, `libcudnn8` cuDNN, `python3-libnvinfer`
    nvinfer; each normalised (`norm`)."""
    found = {norm(name)}
    current = name.lower()
    for _ in range(3):
        current = PACKAGING.sub("", current)
        found.add(norm(current))
    found.discard("")
    return found


def final_components(model: ImageModel, named: str | None = None) -> list[Component]:
    """The components installed in the image built (the target stage and the stages it builds on), not
    base images and not ones installed only on some platform; with `named`, a stage's name the model
    has, in that stage and the stages it builds on."""
    stages = {s.label for s in model.chain(model.stage_named(named) if named is not None else None)}
    return [c for c in model.components if c.stage in stages and c.kind != "image" and c.condition is None]


def absence_claims(line: int, text: str, auditor: Auditor, stage: str | None = None) -> Iterator[Diagnostic]:
    """A component the README says the image lacks (`TensorRT (Not Installed)`, `does not include
    flash-attn`) that every Dockerfile compared installs, in the image built and on every platform.
    Names match through the name-equivalence table and a package's packaging (`tensorrt-dev`). With
    `stage` (the line describes a build stage: `stage_lines`), what that stage holds, not the image."""
    said = [m for pattern in (NOT_INSTALLED, _LACKS) for m in pattern.finditer(text)]
    said += [m for m in [_NO_ITEM.match(text)] if m is not None]
    if not said or MAYBE.search(text):
        return  # (the line read once for `MAYBE`, not once a claim)
    marked = _MARKED_ABSENT.match(text) is not None or _NO_ITEM.match(text) is not None
    for match in said:
        name = next(group for group in match.groups() if group)
        if len(norm(name)) < 3 and raw_name(name) not in _FAMILIES or is_example(text, match):
            continue
        if _REPO_SUBJECT.search(text, max(0, text.rfind(". ", 0, match.start()) + 1), match.start()):
            continue  # `This repository does not include X`: what the repository ships, not the image
        wanted = name_keys(name, auditor.names)
        wanted.update(norm(kind) for kind in _FAMILIES.get(raw_name(name), ()))
        found = _in_every(auditor.models, functools.partial(installing, stage=stage, wanted=wanted))
        if found is not None:
            model, comp = found
            yield Diagnostic(
                auditor.path,
                line,
                f"README says {name} is not installed but {model.path}:{comp.line} installs {comp.name}",
                confidence=CERTAIN if marked else LIKELY,
            )


_NO_TOOLCHAIN = re.compile(
    r"\b(?:no|without(?:[ \t]+any)?|free[ \t]+of|(?:does[ \t]+not|doesn't)[ \t]+(?:include|ship|contain|have)"
    r"(?:[ \t]+any)?)[ \t]+(?:the[ \t]+)?(?:(development|dev|build)[ \t]+(?:tools?|tool-?chains?|utilities)"
    r"|(compilers?|compiler[ \t]+tool-?chains?|tool-?chains?))\b"
    r"|\b(runtime)[- ]only\b",
    re.IGNORECASE,
)
"""The image said to hold no toolchain: `No development tools`, `built without compilers`, `does not
include build tools`, `a runtime-only image` (compilers, or development tools as a whole)."""
_RUNTIME_IMAGE_AFTER = re.compile(
    r"[ \t]+(?:docker[ \t]+)?(?:images?|containers?|variants?|builds?|flavou?rs?|targets?|editions?|tags?)\b",
    re.IGNORECASE,
)
_RUNTIME_IMAGE_BEFORE = re.compile(
    r"\b(?:is|a|an|this|the|it's|its|our)[ \t]+(?:[\w-]+[ \t]+)?\Z|\A[ \t>]*(?:[-*+][ \t]+)?[*_]*\Z",
    re.IGNORECASE,
)
"""Around `runtime-only`, the words that make it said of the image (`a runtime-only image`, `It is a slim
runtime-only`, a list item or line it starts: `- Runtime only: no compilers`), not of a component's
parts (`ROCm 6.3 runtime only`, `nvcc, headers, runtime only`)."""
_COMPILERS = re.compile(r"(?:build-essential|gcc|g\+\+|gcc-c\+\+|clang|gfortran|cpp)(?:-\d+(?:\.\d+)*)?")
_DEV_TOOLS = re.compile(r"cmake|make|ninja-build|ninja|autoconf|automake|libtool|meson")
"""Build tools (not `git`, which a runtime image may hold to fetch packages)."""
_SOMEONE_ELSE = re.compile(r"\b(?:you|your|need|needs|needed|require[sd]?|host|machine)\b", re.IGNORECASE)
"""Words making a missing toolchain about the reader or their machine (`no compilers needed`)."""
_NOT_THIS = re.compile(
    r"\b(?:not|never|isn't|add|adding|to[ \t-]?do|plan(?:ned)?|will|would|could|future|another|separate)\b",
    re.IGNORECASE,
)
"""Words making the claim about another image or a plan (`not a runtime-only image`, `Add a
runtime-only image`), outside the words of the claim itself."""


def toolchain_claims(
    line: int, text: str, auditor: Auditor, stage: str | None = None
) -> Iterator[Diagnostic]:
    """The image said to hold no toolchain (`_NO_TOOLCHAIN`) while every Dockerfile compared installs, in
    the image built (its final stage and the stages it builds on; with `stage`, that stage), a compiler
    (`build-essential`, `gcc-12`, `clang`) or, for development or build tools, a build tool too (`cmake`,
    `make`; not `git`). A builder stage's compilers are not the image's; not for a line about the reader, the
    host, an option, another image or a plan (`MAYBE`, `_SOMEONE_ELSE`, `_NOT_THIS`)."""
    match = _NO_TOOLCHAIN.search(text)
    if match is None or MAYBE.search(text) or _SOMEONE_ELSE.search(text) or is_example(text, match):
        return
    if _NOT_THIS.search(text[: match.start()] + " " + text[match.end() :]):
        return
    if match.group(3) and not (
        _RUNTIME_IMAGE_AFTER.match(text, match.end())
        or _RUNTIME_IMAGE_BEFORE.search(text, max(0, match.start() - 40), match.start())
    ):
        return  # `ROCm 6.3 runtime only`, `(nvcc, headers, runtime only)`: a component's parts, not the image
    tools = not match.group(2)

    def toolchain(model: ImageModel) -> Component | None:
        held = final_components(model, stage)
        found = next((c for c in held if _COMPILERS.fullmatch(c.name.lower())), None)
        if found is None and tools:
            found = next((c for c in held if _DEV_TOOLS.fullmatch(c.name.lower())), None)
        return found

    found = _in_every(auditor.models, toolchain)
    if found is not None:
        model, comp = found
        said = match.group().strip()
        yield Diagnostic(
            auditor.path,
            line,
            f"README says {said!r} but {model.path}:{comp.line} installs {comp.name}",
            confidence=LIKELY,
        )


def installing(model: ImageModel, stage: str | None, wanted: set[str]) -> Component | None:
    """The first component `model` holds in the end (of `stage`) installed under a name in `wanted`."""
    return next((c for c in final_components(model, stage) if installed_under(c.name) & wanted), None)


def _in_every(
    models: Iterable[ImageModel], find: Callable[[ImageModel], _T | None]
) -> tuple[ImageModel, _T] | None:
    """The first model and what `find` finds in it, when `find` finds something in every model (and
    there is one); None otherwise. `find` is not asked of the models after one where it finds nothing."""
    first: tuple[ImageModel, _T] | None = None
    for model in models:
        found = find(model)
        if found is None:
            return None
        if first is None:
            first = (model, found)
    return first


_FLAG_NAME = r"`(?:-D)?([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])(?:=[^`]*)?`"
_UNSET_FLAG = re.compile(
    rf"\b(?:does[ \t]+not|doesn't|do[ \t]+not|don't|never)[ \t]+(?:set|pass|specify|define)[ \t]+"
    rf"(?:the[ \t]+)?{_FLAG_NAME}"
    rf"|{_FLAG_NAME}[^.;`]{{0,60}}?(?:\b(?:is|are)[ \t]+not[ \t]+(?:set|passed|specified|defined)\b"
    rf"|(?:指定|設定)していない|(?:指定|設定)しない)"
)
"""A build flag or variable the README says the image's build does not set: `does not set
`GGML_CUDA_NO_MXFP4``, ``WITH_X` is not passed`, `` `X` … 指定していない``."""
_FALSY = frozenset({"off", "0", "false", "no", ""})


def unset_flag_claims(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A build flag (`-DNAME=…` of a RUN) or ENV the README says the image does not set that every
    Dockerfile compared sets, to a value that turns it on (`-DNAME=OFF` is set, but not on)."""
    if "`" not in text or MAYBE.search(text):
        return
    for match in _UNSET_FLAG.finditer(text):
        name = match.group(1) or match.group(2)
        found = _in_every(auditor.models, functools.partial(_setting_line, name=name))
        if found is not None:
            model, where = found
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the image does not set {name} but {model.path}:{where} sets it",
                confidence=LIKELY,
            )


def _setting_line(model: ImageModel, name: str) -> int | None:
    """The line where `model`'s Dockerfile sets `name` on: an ENV, or `-DNAME=VALUE` / `NAME=VALUE` in
    a RUN, VALUE not off (`OFF`, `0`, `false`)."""
    for env in model.env:
        if env.name == name and not env.inherited and (env.value or "").lower() not in _FALSY:
            return env.line
    if not model.file:
        return None
    return _flag_lines(model.file).get(name)


@per_audit(maxsize=32)
def _flag_lines(file: str) -> dict[str, int]:
    """`NAME` → the first line of a RUN of the Dockerfile at `file` that sets it on (`-DNAME=ON`,
    `NAME=1 make`)."""
    read = dockerfile_read(file)
    if read is None:
        return {}
    parsed = read[1]
    found: dict[str, int] = {}
    for inst in parsed.instructions:
        if inst.keyword != "RUN":
            continue
        body = inst.body
        for match in re.finditer(r"(?<![\w$])(?:-D)?([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])=([^\s;&|\\]*)", body):
            if match.group(2).strip("\"'").lower() not in _FALSY and match.group(1) not in found:
                written = inst.original.splitlines()
                at = next((i for i, t in enumerate(written) if f"{match.group(1)}=" in t), 0)
                found[match.group(1)] = inst.start_line + at
    return found


_MARKS = r"[*_`]{0,6}"
"""The bold or code marks around a stage's name (`**`, `` ` ``, `` **` ``): a few, so that the `_` a
name may end with is split between the name and the marks a few ways, not once per `_` of a long run
(n `_` or `*` after a name cost n² to refuse, a list item or a heading of 4,000 of them 0.1 s)."""
STAGE_ITEM = re.compile(
    rf"[ \t]*(?:[-*+]|\d{{1,9}}[.)])[ \t]+(?:stage[ \t]+)?[*_`]*([A-Za-z0-9][\w.-]*){_MARKS}"
    rf"(?:[ \t]+stage{_MARKS})?(?=[ \t]*(?:[:(—–-]|\Z))",
    re.IGNORECASE,
)
"""A list item that starts by naming a build stage: `2. **build_openvino**`, `- `runtime`: the final
image`, `* builder stage - compiles`."""
STAGE_TITLE = re.compile(
    rf"(?:\d{{1,9}}[.)][ \t]*)?(?:stage[ \t]+)?[*_`]*([A-Za-z0-9][\w.-]*){_MARKS}(?:[ \t]+stage)?",
    re.IGNORECASE,
)
"""A heading that is a build stage's name (`### `builder` stage`, `### 2. build_openvino`)."""


def stage_lines(lines: list[tuple[int, str]], heading: str, names: Collection[str]) -> dict[int, str]:
    """The README lines (of one paragraph or list, under `heading`) that describe a build stage (one of
    the stage `names`, `FROM … AS NAME`) → its name: the lines of a list item that starts with the name
    and of the items nested in it, and every line under a heading that is the name."""
    if not names:
        return {}
    title = _stage_title(heading)
    default = title if title in names else None
    found: dict[int, str] = {}
    current: tuple[str, int] | None = None  # the stage an item named, and the item's indentation
    for line, text in lines:
        if LIST_ITEM.match(text):
            indent = len(text) - len(text.lstrip())
            item = STAGE_ITEM.match(text)
            if item and item.group(1).lower() in names:
                current = (item.group(1).lower(), indent)
            elif current is not None and indent <= current[1]:
                current = None  # the next item of the list, naming no stage
        stage = current[0] if current else default
        if stage is not None:
            found[line] = stage
    return found


# Asked for each paragraph's heading: read once a heading, not once a paragraph.
@functools.lru_cache(maxsize=64)
def _stage_title(heading: str) -> str | None:
    """The build stage name a heading is, in lower case (`### `Builder` stage` → builder), else None."""
    title = STAGE_TITLE.fullmatch(heading.strip())
    return title.group(1).lower() if title else None


INCLUDES = re.compile(
    r"\b(?:image|container)[ \t]+(?:also[ \t]+)?"
    r"(?:includes|ships(?:[ \t]+with)?|comes[ \t]+with|contains|bundles)"
    r"[ \t]+(?:the[ \t]+)?`?([A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""`The image includes TensorRT`, `the container ships with NCCL`: the image is the subject (`make sure
CUDA is installed` is about the host)."""


_ASKED = re.compile(r"\b(?:make[ \t]+sure|ensure|must|should|needs?[ \t]+to|your)\b", re.IGNORECASE)
"""Words making `the image includes X` the reader's task (`Make sure your image includes X`)."""


def presence_claims(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A component docgen knows (`TensorRT`, `NCCL`, `PyTorch` …) the README says the image includes
    that no Dockerfile compared ever names: built on a plain OS or language image, with nothing docgen
    could not read (an install script, a requirements file, a skipped construct), no component, stage,
    build arg or ENV whose name holds the component's name (`likely`)."""
    if not INCLUDES.search(text) or MAYBE.search(text) or _ASKED.search(text):
        return  # (the line read once for `MAYBE`, not once a claim)
    for match in INCLUDES.finditer(text):
        name = match.group(1)
        key = norm(name)
        if len(key) < 3 or key not in known_keys() or is_example(text, match):
            continue
        if all(never_named(model, key) for model in auditor.models):
            yield installs_none(auditor, line, f"says the image includes {name}", name)


def installs_none(
    auditor: Auditor, line: int, claim: str, name: str, spellings: Collection[str] = ()
) -> Diagnostic:
    """`README {claim} but {the first image} installs no {name}` (`likely`), and why its base does not
    bring it either (`_base_note`), or `… but Dockerfile:N uninstalls {name}` when the image removes
    it (`_uninstalled_at`, `spellings` its names): a component the README puts in the image that none
    of the audited images can have."""
    model = auditor.models[0]
    removed = _uninstalled_at(model, spellings) if spellings else None
    if removed is not None:
        said = f"README {claim} but {model.path}:{removed[0]} uninstalls it ({removed[1]})"
    else:
        said = f"README {claim} but {model.path} installs no {name}{_base_note(model)}"
    return Diagnostic(auditor.path, line, said, confidence=LIKELY)


_SEGMENT = re.compile(r"&&|\|\||[;|\n]")
"""What separates the commands of a RUN."""
_UNINSTALL = re.compile(
    r"\b(?:(?:python3?(?:\.\d+)?[ \t]+-m[ \t]+)?pip3?|uv[ \t]+pip)[ \t]+uninstall\b"
    r"|\b(?:conda|mamba|micromamba)[ \t]+(?:remove|uninstall)\b"
    r"|\b(?:apt-get|apt)[ \t]+(?:-\S+[ \t]+)*(?:remove|purge)\b"
)
"""A command removing packages: `pip uninstall -y transformer-engine`, `apt-get purge …`."""


def _uninstalled_at(model: ImageModel, spellings: Collection[str]) -> tuple[int, str] | None:
    """(the Dockerfile line, the command) of the RUN of a built stage that last removes a package named
    one of `spellings` (`pip uninstall -y transformer-engine` on NGC's PyTorch image), when no command
    after it names one again (a reinstall); None otherwise. Only RUN text is read: a script it runs
    may reinstall it (the caller sees that through `copied_context`)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    unbuilt = unbuilt_lines(model)
    last: tuple[int, str] | None = None
    for inst in read[1].instructions:
        if inst.keyword != "RUN" or in_ranges(inst.start_line, unbuilt):
            continue
        for command in _SEGMENT.split(inst.args):
            if not any(s in raw_name(word) for word in command.split() for s in spellings):
                continue
            removing = _UNINSTALL.search(command)
            last = (inst.start_line, " ".join(removing.group().split())) if removing else None
    return last


@functools.cache
def known_keys() -> frozenset[str]:
    """The normalised names of the components docgen knows by a display name (`torch`, `tensorrt` …)."""
    return frozenset(norm(name) for name in renamed({})) | KNOWN


def never_named(model: ImageModel, key: str) -> bool:
    """True when `model` is built on base images known not to carry `key` (a normalised name: a plain
    OS or language image, or a framework image it is no part of; `base_contents`), docgen read all of
    it (no requirements file, install script or download), and no component, base image, build arg or
    ENV of it is named after `key`."""
    unread = any(c.method in ("requirements", "script") or c.kind == "download" for c in model.components)
    if model.unread or unread:
        return False  # a requirements file, an installer, a download: may install anything
    raw = {k for k, v in ALIASES.items() if v == key} | {key}
    bases = built_bases(model)
    if not bases or any(carries(stage.base, raw) is not False for stage in bases):
        return False
    if brought_by((c.name for c in final_components(model)), raw) is not None:
        return False
    words = [c.name for c in model.components] + [a.name for a in model.args] + [e.name for e in model.env]
    words += [e.value or "" for e in model.env] + [stage.base for stage in bases]
    return not any(r in raw_name(word) for word in words for r in raw)


def built_bases(model: ImageModel) -> list[Stage]:
    """The stages of `model` the image built starts from an image in: the root of each stage the
    default target builds (`stages.built_stages`), each once."""
    built = built_stages(model)
    return [s for s in model.stages if s.parent is None and s.label in built]


def _base_note(model: ImageModel) -> str:
    """`, and its base X (Dockerfile:N, NGC PyTorch) does not carry it` for a finding about a component
    `model` installs none of, when it is built on a known image that is no plain OS or language image
    (one a reader may think holds it); '' otherwise."""
    bases = [s for s in built_bases(model) if not is_plain(s.base) and family_name(s.base)]
    if not bases:
        return ""
    stage = bases[0]
    where = f"{model.path}:{stage.line}, {family_name(stage.base)}"
    return f", and its base {stage.base} ({where}) does not carry it"


CONTENTS_HEADING = re.compile(
    r"(?:installs|installed(?:[ \t]+(?:packages|software|components|libraries|tools))?"
    r"|(?:list[ \t]+of[ \t]+)?packages[ \t]+installed|pre-?installed(?:[ \t]+[\w-]+){0,2}"
    r"|(?:all[ \t]+)?(?:the[ \t]+)?(?:images?|containers?)[ \t]+includes?|what's[ \t]+(?:included|inside)"
    r"|included(?:[ \t]+(?:packages|software|components))?|(?:image[ \t]+)?contents|components)",
    re.IGNORECASE,
)
"""A heading over a list of what the image holds: `## Installs`, `### All Images Include`, `### The
container includes`, `## Contents` (not `Table of Contents`)."""
ADDED_HEADING = re.compile(
    r"(?:additional|added|extras?)(?:[ \t]+(?:packages|components|software|libraries|tools))?", re.I
)
"""A heading over a list of what the Dockerfile adds to its base (`## Additional`): the base image does
not count."""
CONTENTS_INTRO = re.compile(
    r"(?:\b(?:image|container|variant|flavou?r)[ \t]+(?:also[ \t]+)?"
    r"(?:includes|contains|installs|comes[ \t]+with"
    r"|ships(?:[ \t]+with)?|bundles)|\b(?:images|containers|variants|flavou?rs|tags)[ \t]+(?:also[ \t]+)?"
    r"(?:include|contain|install|come[ \t]+with|ship(?:[ \t]+with)?|bundle)"
    r"|\A[*_]*(?:installs|includes|installed[ \t]+packages))[^.:]{0,40}:[*_]*\Z"
    r"|(?:镜像|容器|イメージ)(?:的|の)?(?:内容|中?包含|内置|预装|已安装|に含まれる)[^。.:：]{0,20}[:：][*_]*\Z",
    re.IGNORECASE,
)
"""The line before a list of what the image holds: `The image includes:`, `Installs:`, `All variants
contain:`, `Every variant includes:`, `镜像内容：`, `镜像包含：`, `イメージに含まれるもの:`."""
LATER = re.compile(
    r"\bdownload|\bfetch|\bat[ \t]+(?:run[ \t-]?time|start|launch|first)|\bon[ \t]+(?:start|launch|demand"
    r"|first)|\bruntime\b|\bwhen[ \t]+(?:the[ \t]+)?container|\boptional|\bif\b|\bmount|\blazy|\bnot\b|\bno\b"
    r"|❌|\(removed|\bdeprecated|\byourself\b|\bmanually\b",
    re.IGNORECASE,
)
"""Words saying an item is not in the image as built: fetched later, optional, absent, for the user to
install (`install it yourself`)."""
FEATURES = re.compile(r"\bfeatures?\b|\bsupport", re.IGNORECASE)
"""A list of what the image can do (`This image includes security hardening features:`), not holds."""
_ITEM_NAME = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[([^\[\]]{1,60})\]\(([^()\s]{0,300})\)|`([^`]{1,60})`"
    r"|([A-Za-z][\w.+-]{1,60}))"
)
"""A list item's leading name: a link's text and target, a code span, or a word."""
_KINDS = frozenset({"model", "models", "weights", "checkpoint", "checkpoints", "dataset"})
"""A word after an item's name making it data, which no package manager brings."""
_AFTER_NAME = patterns.compile(r"(?:[ \t]*+\([^()]{0,80}\))?(?:[ \t]++-[ \t].*|[ \t]*+(?:[:–—,][ \t].*)?)\Z")
"""What may follow a name in an item that names one component: a note in brackets, a description. No
run of blanks can be split two ways (a name, 40,000 blanks and a version cost minutes to refuse)."""
VERSION_IN = patterns.compile(r"(?<![\w.-])v?\d+(?:\.\d+)+|(?<!\d)\d++\.x\b")
"""A version in a line (`v2.1.0`, `12.x`); each alternative tried only where a number starts (`12.x`
from each digit of a long number read the rest of it: n²)."""
_COMMON = frozenset(
    {"ubuntu", "debian", "alpine", "centos", "linux", "bash", "sh", "glibc", "libc", "coreutils", "apt"}
    | {"pip", "python", "python3", "setuptools", "wheel", "git", "curl", "wget", "gcc", "make", "perl"}
    | {"tar", "gzip", "openssl", "ca-certificates", "sqlite", "zlib", "gpu", "cpu", "ssh", "sudo"}
)
"""What any base image may hold, or a word that names no component: never said to be missing."""


@dataclass(frozen=True)
class ContentItem:
    """An unversioned item of a list the README presents as what the image holds (`contents_items`)."""

    line: int
    text: str
    added: bool
    """The list is of what the Dockerfile adds to its base (`## Additional`): the base does not count."""
    said: str
    """The list's introduction and heading, as one text."""
    siblings: tuple[str, ...] = ()
    """The text of every item of the list, versioned ones too, an item whose link breaks after its `(`
    joined with its next line."""


def contents_items(doc: Document) -> Iterator[ContentItem]:
    """Each unversioned item of a list the README presents as what the image installs (`## Installs`,
    `The image includes:`; `## Additional` for what it adds to its base), not one of features or of
    what comes later (`LATER`: fetched at run time, optional, absent)."""
    texts: dict[int, str] | None = None
    for block in lists(doc):
        heading = block.heading.strip().strip("*_#: \t").strip()
        added = bool(ADDED_HEADING.fullmatch(heading)) and not block.intro
        intro = block.intro.strip()
        if (
            not (added or (CONTENTS_INTRO.search(intro) if intro else CONTENTS_HEADING.fullmatch(heading)))
            or LATER.search(f"{intro} {heading}")
            or FEATURES.search(f"{intro} {heading}")
        ):
            continue
        if texts is None:
            texts = {line: text for para in doc.paragraphs for line, text in para.lines}
        siblings = tuple(
            text.rstrip() + texts[line + 1].strip() if _OPEN_LINK.search(text) and line + 1 in texts else text
            for line, text in block.items
        )
        for line, text in block.items:
            if not LATER.search(text) and not VERSION_IN.search(text):
                yield ContentItem(line, text, added, f"{intro} {heading}", siblings)


_OPEN_LINK = re.compile(r"\]\([ \t]*\Z")
"""An item whose link's target goes on the next line (`* [Deforum extension](` then the address)."""
_TRAILING_VERSION = re.compile(r"[ \t]+(?:v|version[ \t]+)?\d[\w.+-]*[ \t.]*\Z", re.IGNORECASE)
"""A version ending an item (`Torch 2.0.1`, `[Kohya_ss](…) v22.1.0`)."""
_MOSTLY = 3
"""Items of a list the image must name for its other items to be read as the image's one by one."""


def mostly_named(model: ImageModel, siblings: tuple[str, ...]) -> bool:
    """True when the build of `model` names most items of a list of what it installs (`siblings`): at
    least `_MOSTLY` and two thirds of the items naming a component its base does not carry (a name,
    versioned or not, or a link to a repository or site), each under a spelling the Dockerfile or a file
    it copies holds. Such a list is the image's own, one item per install: an item nothing names is missing
    though the build runs what docgen cannot read (`curl https://getcroc.schollz.com | bash`, a copied
    script the partial copy lacks)."""
    text = copied_context(model)[0]
    bases = built_bases(model)
    counted = named = 0
    for sibling in siblings:
        found = item_components(_TRAILING_VERSION.sub("", sibling))
        spellings = [one[1] for one in found]
        link = re.search(r"\]\([ \t]*<?(https?://[^()\s<>]{1,300})", sibling)
        if not spellings and link is not None:
            spellings = [installed_under(_link_name(link.group(1)))]
        if not spellings or any(carries(stage.base, ss) for stage in bases for ss in spellings):
            continue  # (what the base carries says nothing of how the build installs)
        counted += 1
        if any(s in text for ss in spellings for s in ss):
            named += 1
    return named >= _MOSTLY and 3 * named >= 2 * counted


def listed_contents(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An item of a list the README presents as what the image installs (`contents_items`) that no
    Dockerfile compared can hold: its name, under any spelling, is nowhere in the Dockerfile or the
    build-context files it copies, its base is a plain OS, language or CUDA image (not for an
    `Additional` list), and nothing it runs is unread (a script docgen cannot read, a download piped
    into a shell) (`likely`)."""
    for item in contents_items(doc):
        line, text, added = item.line, item.text, item.added
        each = len(auditor.models) > 1 and _EACH_IMAGE.search(item.said) is not None
        in_each: list[tuple[ImageModel, str]] = []  # (image, name) of this item every image lacks
        for found in item_components(text) or labelled_components(text):
            name, spellings, data = found
            lacking = [
                m
                for m in auditor.models
                if cannot_hold(m, spellings, data, added)
                or cannot_hold(m, spellings, data, added, True)
                and mostly_named(m, item.siblings)
            ]
            if len(lacking) == len(auditor.models):
                yield installs_none(auditor, line, f"lists {name} as in the image", name, spellings)
            elif each and lacking and not _FROM_BASE.search(text):
                if _naming_model(auditor, lacking, spellings) is None:
                    in_each.extend((model, name) for model in lacking)
                else:
                    yield from _lacking_in_each(auditor, line, lacking, found)
            elif len(auditor.models) == 1 and len(auditor.family) > 1 and not _FROM_BASE.search(text):
                # a section about one image of several
                yield from not_held(auditor, line, auditor.models[0], found, fallback=False)
        yield from _lacking_together(auditor.path, line, in_each)


_EACH_IMAGE = re.compile(
    r"\b(?:each|every|all)(?:[ \t]+of)?(?:[ \t]+(?:the|our|these|those))?[ \t]+"
    r"(?:images?|variants?|containers?|flavou?rs?|tags?)\b",
    re.IGNORECASE,
)
"""A list's introduction or heading saying it is what every image holds (`Each image includes:`, `## All
images include`): each image is compared on its own."""


def _naming_model(
    auditor: Auditor, lacking: list[ImageModel], spellings: set[str]
) -> tuple[ImageModel, int] | None:
    """(image, Dockerfile line) of an image of the README other than those of `lacking` whose Dockerfile
    names one of `spellings` outside a comment; None when none does."""
    return next(
        (
            (m, where)
            for m in auditor.models
            if m not in lacking and (where := _naming_line(m, spellings)) is not None
        ),
        None,
    )


def _lacking_together(path: str, line: int, lacking: list[tuple[ImageModel, str]]) -> Iterator[Diagnostic]:
    """One finding an image for the components of one list item that image cannot hold while no other
    image names them (`**Language servers**: a, b, c` over an image installing none): `README lists a, b
    and c as in every image but Dockerfile.x installs none of them`; one name is told as before."""
    names: dict[str, list[str]] = {}
    for model, name in lacking:
        names.setdefault(model.path, []).append(name)
    for image, named in names.items():
        if len(named) == 1:
            said = f"README lists {named[0]} as in every image but {image} installs no {named[0]}"
        else:
            listed = f"{', '.join(named[:-1])} and {named[-1]}"
            said = f"README lists {listed} as in every image but {image} installs none of them"
        yield Diagnostic(path, line, said, confidence=LIKELY)


def _lacking_in_each(
    auditor: Auditor, line: int, lacking: list[ImageModel], found: tuple[str, set[str], bool]
) -> Iterator[Diagnostic]:
    """The findings for a component a list says every image holds (`found` as `item_component` gives
    it) that the images of `lacking` cannot hold while another image of the README can: one a lacking
    image, with the line of another that names it outside a comment, if any."""
    name, spellings, _ = found
    other = _naming_model(auditor, lacking, spellings)
    for model in lacking:
        said = f"README lists {name} as in every image but {model.path} installs no {name}"
        if other is not None:
            said += f" ({other[0].path}:{other[1]} names it)"
        yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


def _naming_line(model: ImageModel, spellings: set[str]) -> int | None:
    """The first line of `model`'s Dockerfile, outside comments, where one of `spellings` is written."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    for number, written in enumerate(read[0].splitlines(), start=1):
        if not written.lstrip().startswith("#") and any(s in raw_name(written) for s in spellings):
            return number
    return None


LIBRARY_HEADING = re.compile(
    r"(?:(?:main|key|core|major|bundled|important|essential|python|system|ml|ai)[ \t]+)?"
    r"(?:libraries|libs|packages|frameworks|software|tools|toolkits|stack|software[ \t]+stack"
    r"|tech(?:nology)?[ \t]+stack|what'?s[ \t]+in(?:side)?(?:[ \t]+the[ \t]+(?:image|container))?)",
    re.IGNORECASE,
)
"""A heading over a list that may be what the image holds or what the project needs: `### Main
Libraries`, `## Stack`, `## Software`; what the list holds decides (`library_lists`)."""
VERSIONS_HEADING = re.compile(
    r"(?:(?:python|installed|bundled|main|key)[ \t]+)?(?:package|software|library|component|framework)s?"
    r"[ \t]+versions",
    re.IGNORECASE,
)
"""A heading over a list of components with their versions (`Package Versions`, `Software versions`): the
versions are left aside and the names read as a `LIBRARY_HEADING` list's."""
NEEDED = re.compile(r"\brequire|\bprerequisite|\bhost\b|\bhardware\b|\bneed|\byour\b|\brecommend", re.I)
"""Words making a list one of what the machine or the user needs, not what the image holds."""


def library_lists(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An unversioned item of a list under a heading that may name the image's components or the
    project's (`### Main Libraries`, `## Stack`, `## Software`), when the list is the image's by what
    it holds: at least two of its components, and at least half of them, are in a Dockerfile compared
    (or the build-context files it copies). An item none of them can hold (`cannot_hold`) is then
    listed as in the image and is not (`likely`). A list under words of need (`Requirements`, `host`,
    `hardware`) or of features, or one whose items the Dockerfiles mostly do not name (the project's
    own dependencies), is not read. Under any other heading (`## Base Notebook`), a list is the image's
    when its versioned items say what the Dockerfile says (`versions_agree`: `Ubuntu 14.04` over `FROM
    ubuntu:14.04`, `CUDA 8.0` over `ENV CUDA_VERSION 8.0.61`)."""
    for block in lists(doc):
        heading = block.heading.strip().strip("*_#: \t").strip()
        if block.intro or CONTENTS_HEADING.fullmatch(heading):
            continue  # (a `## Contents` list is `listed_contents`')
        if NEEDED.search(heading) or FEATURES.search(heading):
            continue
        versioned = bool(VERSIONS_HEADING.fullmatch(heading))
        library = versioned or bool(LIBRARY_HEADING.fullmatch(heading))
        if not library and (
            TRIED.search(heading) or LATER.search(heading) or not versions_agree(block.items, auditor.models)
        ):
            continue
        named: list[tuple[int, tuple[str, set[str], bool]]] = []
        for line, text in block.items:
            if versioned and not LATER.search(text):
                text = _VERSION_AFTER.sub("", text)  # `* PyTorch v1.5.0`: `* PyTorch`
            if not LATER.search(text) and not VERSION_IN.search(text):
                named.extend((line, found) for found in item_components(text))
        if versioned and len(named) >= 3:
            yield from _none_listed(auditor, named)
            continue
        held = sum(
            1
            for _, (_, spellings, _) in named
            if any(m.file and any(s in copied_context(m)[0] for s in spellings) for m in auditor.models)
        )
        if library and (held < 2 or 2 * held < len(named)):
            continue
        for line, (name, spellings, data) in named:
            if all(cannot_hold(model, spellings, data, False) for model in auditor.models):
                yield installs_none(auditor, line, f"lists {name} as in the image", name, spellings)


_VERSION_AFTER = re.compile(r"(?<=[\w`*_])[ \t]+(?:v|version[ \t]+)?\d+(?:\.\d+)+[\w.+-]*(?=[ \t.]*\Z)")
"""The version closing a list item (`PyTorch v1.5.0`, `numpy 1.18.2`)."""


def _none_listed(
    auditor: Auditor, named: list[tuple[int, tuple[str, set[str], bool]]]
) -> Iterator[Diagnostic]:
    """One finding for a list of versioned components (`Package Versions`) none of which any image
    compared can hold (`_holds_none`): the list is of another image (the framework image the base is
    not). Said at the list's first item (`likely`)."""
    spelt = [spellings for _, (_, spellings, _) in named]
    if not all(_holds_none(m, spelt) for m in auditor.models):
        return
    names = [name for _, (name, _, _) in named]
    listed = f"{', '.join(names[:-1])} and {names[-1]}"
    said = f"README lists {listed} as in the image but {auditor.models[0].path} installs none of them"
    note = _base_note(auditor.models[0]).replace("carry it", "carry them")
    yield Diagnostic(auditor.path, named[0][0], said + note, confidence=LIKELY)


_LOCAL_INSTALL = re.compile(
    r"\b(?:pip3?|uv|conda|mamba|micromamba|apt-get|apt|dpkg|rpm|yum|dnf|apk)\b[^;&|]{0,300}?"
    r"(?:[ \t](?:-r|-e|-f|-i|--requirement|--file)[ \t=]|[ \t]\.{1,2}(?=[ \t/;&|]|\Z)|\.whl|\.deb|\.rpm"
    r"|\.tar\.gz|\*|\$)"
)
"""An install of a file, list or folder (`pip install ./wheels/*.whl`, `dpkg -i x.deb`, `pip install -r …`),
or of a variable's packages: what it brings is not written in the Dockerfile."""


def _holds_none(model: ImageModel, spelt: list[set[str]]) -> bool:
    """True when the image of `model` can hold no component under any of the spellings of `spelt`: none
    is written in its Dockerfile (outside comments and unbuilt stages) or a build-context file it copies
    other than a document (a copied README names what it describes), nothing it runs is unread, no RUN
    installs a file, a list or a folder (`_LOCAL_INSTALL`: a whole build context copied is then only
    files), no package it installs pulls one in, and each base image is known not to carry any."""
    read = dockerfile_read(model.file) if model.file else None
    copied = copied_texts(model.file, model.context_copies) if read is not None else None
    if read is None or copied is None or copied_context(model)[1]:
        return False
    unbuilt = unbuilt_lines(model)
    kept = [i for i in read[1].instructions if not in_ranges(i.start_line, unbuilt)]
    if any(i.keyword == "RUN" and _LOCAL_INSTALL.search(i.args) for i in kept):
        return False
    texts = [kept_text(read[0], unbuilt)]
    texts += [text for file, text in copied[0] if not file.name.lower().endswith((".md", ".rst", ".html"))]
    written = raw_name(" ".join(texts))
    components = [c.name for c in final_components(model)]
    bases = built_bases(model)
    return bool(bases) and all(
        not any(s in written for s in spellings)
        and brought_by(components, spellings) is None
        and all(carries(stage.base, spellings) is False for stage in bases)
        for spellings in spelt
    )


VERSIONED_ITEM = patterns.compile(r"(?<![\w+-])[\d_+-]*+([A-Za-z][\w+-]*+)[ \t]+v?(\d+(?:\.\d+)+)\b")
"""A list item's name and the version after it (`CUDA 8.0`, `cuDNN v5.1`, `Ubuntu 14.04`). The name is
the first letter of a word on (as a search from each letter finds first), tried once a word: from each
letter of a long word the rest of it was read again (n²)."""
TRIED = re.compile(
    r"\btest|\bverif|\bvalidat|\bmachine|\bworkstation|\bdriver|\bhost|\bhardware|\brequire"
    r"|\bprerequisite|\bneed|\byour\b|\brecommend|\bminimum",
    re.IGNORECASE,
)
"""Words making a list one of where the project was tried or what it needs, not of what the image
holds."""


def versions_agree(items: Iterable[tuple[int, str]], models: Iterable[ImageModel]) -> bool:
    """True when at least two items of a list name a component and a version (`CUDA 8.0`) that one live
    line of a Dockerfile compared names together (`ENV CUDA_VERSION 8.0.61`, `FROM ubuntu:14.04`), and
    no versioned item names a component a Dockerfile names without its version: the list says what the
    image is made of, item for item."""
    lines = [
        written.lower()
        for m in models
        if m.file and (read := dockerfile_read(m.file)) is not None
        for written in read[0].splitlines()
        if not written.lstrip().startswith("#")
    ]
    agree = 0
    for _, text in items:
        if TRIED.search(text):
            return False
        match = VERSIONED_ITEM.search(plain(text))
        if match is None:
            continue
        name, version = match.group(1).lower(), re.escape(match.group(2))
        same = re.compile(rf"(?<![\w.]){version}(?:\.\d+)*(?![\w.])")
        named = [written for written in lines if name in written]
        if not named:
            continue
        if not any(same.search(written) for written in named):
            return False
        agree += 1
    return agree >= 2


_IMAGE_ITEM = re.compile(
    r"([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+[*_]{0,2}"
    r"(?:\[`?([^\[\]`]{1,200})`?\]\(([^()\s]{1,300})\)|`([^`]{1,200})`)"
)
"""A list item that starts by naming a Dockerfile: a link to it (`* [Dockerfile-cpu](Dockerfile-cpu)`) or
its name in code."""


_FROM_BASE = re.compile(
    r"\bbase\b|\binherit|\bpre-?installed|\bprovided[ \t]+by|\bcomes[ \t]+with|\bbundled|\bupstream", re.I
)
"""An item saying it comes with the base image (`torch (from the base image)`)."""
_NAMED_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+[*_]{0,2}[`\[]")
"""An item whose name is in code or a link: no word of a sentence (`- Use for training`)."""


def image_lists(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An item nested under a list item that names one of the audited Dockerfiles (a link to it, its
    name in code) is what the README says that image holds: one it does not hold is a finding
    (`likely`) when another image of the README installs it with a package manager (so the project does
    not count on a base image for it), or when nothing in its Dockerfile can (`cannot_hold`)."""
    models = auditor.family
    paths = [m.path for m in models]
    for para in doc.paragraphs:
        image: tuple[ImageModel, int] | None = None
        for line, text in para.lines:
            if not LIST_ITEM.match(text):
                continue
            indent = len(text) - len(text.lstrip())
            if image is not None and indent > image[1]:
                if not LATER.search(text) and not VERSION_IN.search(text) and not _FROM_BASE.search(text):
                    in_code = bool(_NAMED_ITEM.match(text))  # a package's name, not a word of prose
                    for found in item_components(text, purpose=True):
                        yield from not_held(auditor, line, image[0], found, fallback=in_code)
                continue
            image = None
            head = _IMAGE_ITEM.match(text)
            if head is None:
                continue
            reference = reference_path(head.group(3) or head.group(4) or "")
            if not is_dockerfile_name(basename(reference)):
                continue
            matched = matching(reference, paths)
            if len(matched) == 1:
                image = (models[matched.pop()], indent)


def not_held(
    auditor: Auditor,
    line: int,
    model: ImageModel,
    found: tuple[str, set[str], bool],
    fallback: bool = True,
) -> Iterator[Diagnostic]:
    """The finding for a component the README lists under the image of `model` (`found` as
    `item_component` gives it) that it does not hold, if any: another image of the README installs
    it, or (with `fallback`) nothing in `model` can (`cannot_hold`)."""
    name, spellings, data = found
    if not model.file:
        return
    text, unread_run, unread_packages = copied_context(model)
    if unread_run or any(s in text for s in spellings):
        return
    installed = _installed_by_another(auditor.family, model, spellings, unread_packages)
    if installed is not None:
        other, comp = installed
        said = (
            f"README lists {name} under {model.path} but it installs no {name} "
            f"({other.path}:{comp.line} installs {comp.name})"
        )
        yield Diagnostic(auditor.path, line, said, confidence=LIKELY)
    elif fallback and cannot_hold(model, spellings, data, False):
        said = f"README lists {name} under {model.path} but it installs no {name}"
        yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


_EXPLICIT = frozenset({"apt", "apk", "rpm", "pip", "conda", "git", "download"})
_SYSTEM = frozenset({"apt", "apk", "rpm", "git", "download"})
"""Installs an image does itself (a package manager, a clone or a download it builds), and those of
them no package list of another image can stand for."""


def _installed_by_another(
    family: tuple[ImageModel, ...], model: ImageModel, spellings: set[str], unread_packages: bool
) -> tuple[ImageModel, Component] | None:
    """An image of `family` other than `model` that installs a component under one of `spellings` with
    a package manager itself, and that component: such an image does not count on its base for it.
    A pip or conda package counts only when `model` installs no package list docgen cannot read."""
    for other in family:
        if other is model or other.path == model.path:
            continue
        for comp in final_components(other):
            if comp.kind not in _EXPLICIT or (unread_packages and comp.kind not in _SYSTEM):
                continue
            if (installed_under(comp.name) | {raw_name(comp.name)}) & spellings:
                return other, comp
    return None


def item_component(text: str, purpose: bool = False) -> tuple[str, set[str], bool] | None:
    """The component a list item names and nothing else (`hiredis`, `[Civetweb](…)`, `BakLLaVA-1
    model`): its name, its spellings (normalised: the link's repository too, without `lib` and `-dev`),
    and whether it is data (a model); None for an item that is a feature (`GPU support`). With
    `purpose`, a name may be followed by what it is for (`mesa-utils for glxinfo`)."""
    extension = _EXTENSION_ITEM.match(text)
    if extension is not None and _AFTER_NAME.match(text[extension.end() :]):
        vendor, framework = extension.group(1), extension.group(2)
        return _spelt(f"{vendor} Extension for {framework}", None, False)
    match = _ITEM_NAME.match(text)
    if match is None or (match.group(4) and not _AFTER_NAME.match(text[match.end() :])):
        known = _known_item(text)  # `Flash Attention 2`, `NVIDIA Apex`, `**Megatron-LM**: …`
        if known is not None:
            return _spelt(known, None, False)
        if match is None:
            return None
    link, target, code, word = match.groups()
    rest = text[match.end() :]
    name = link or code or word or ""
    data = bool(_MODEL_FILE.search(name))
    if word:
        kind = re.match(r"[ \t]+(\w+)", rest)
        if kind and kind.group(1).lower() in _KINDS:
            data, rest = True, rest[kind.end() :]
    if purpose and _PURPOSE.match(rest):
        rest = ""
    if not _AFTER_NAME.match(rest) or len(name.split()) > 3 or raw_name(name) in _COMMON:
        return None
    return _spelt(name, target, data)


_MODEL_FILE = re.compile(r"\.(?:onnx|safetensors|ckpt|pth|pt|gguf|h5|tflite|pb)\Z", re.IGNORECASE)
"""A file name of a model's weights (`inswapper_128.onnx`, `sd_xl_base_1.0.safetensors`): data, which
no package manager brings."""
_EXTENSION_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\*\*|__)?(Intel|AMD|NVIDIA)(?:[®™]|['’]s)?"
    r"[ \t]+Extensions?[ \t]+for[ \t]+"
    r"([A-Za-z][\w.+-]{0,40}?)(?:\*\*|__)?(?=[\s(:,–—-]|\Z)",
    re.IGNORECASE,
)
"""A list item naming a vendor's extension of a framework, singular or plural (`Intel Extensions for
Transformers`, `Intel® Extension for PyTorch`): the pip package `intel-extension-for-transformers`."""
_KNOWN_HEAD = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(\*\*|__)?(?:(?:NVIDIA|AMD|Intel|Microsoft)(?:['’]s)?[ \t]+)?"
)
"""What may come before a component's display name in a list item: the bullet, bold, its vendor."""


def _known_item(text: str) -> str | None:
    """The display name of a few words a list item starts with, maybe after its vendor and in bold
    (`Flash Attention 2`, `NVIDIA Apex`, `**Megatron-LM**: …`), when docgen knows it (`known_keys`) and
    nothing but a note or a description follows; the longest such name. None otherwise."""
    head = _KNOWN_HEAD.match(text)
    if head is None:
        return None
    body = text[head.end() :]
    for extra in (2, 1, 0):
        words = re.match(rf"[A-Za-z][\w.+-]{{0,40}}(?:[ \t]+[A-Za-z0-9][\w.+-]{{0,40}}){{{extra}}}", body)
        if words is None or norm(words.group()) not in known_keys():
            continue
        rest = body[words.end() :]
        if head.group(1):
            rest = rest.removeprefix(head.group(1))
        if _AFTER_NAME.match(rest):
            return words.group()
    return None


def _spelt(name: str, target: str | None, data: bool) -> tuple[str, set[str], bool] | None:
    """`item_component`'s answer for a component named `name` (by a link to `target`, if any)."""
    spellings = installed_under(name) | {raw_name(name)}
    if target:
        spellings |= installed_under(_link_name(target))
    spellings |= {s.removeprefix("lib") for s in spellings} | {norm(s) for s in spellings}
    spellings |= {alias for alias, key in ALIASES.items() if key in spellings}
    spellings = {s for s in spellings if len(s) >= 3}
    if not spellings or spellings & _COMMON:
        return None
    return name, spellings, data


_NAME_TOKEN = r"(?:\[[^\[\]]{1,60}\]\([^()\s]{0,300}\)|`[^`]{1,60}`|[A-Za-z][\w.+-]{0,60})"
_JOIN = r"(?<![ \t])(?:[ \t]+[+&/][ \t]+|[ \t]*[·•、][ \t]*|[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)"
"""What joins two names; tried only where a run of blanks starts (from each blank of a long run, the rest
of it was read again: n²)."""
_JOINED_ITEM = re.compile(
    rf"[ \t]*(?:[-*+]|\d{{1,9}}[.)])[ \t]+[*_]{{0,2}}"
    rf"({_NAME_TOKEN}(?:{_JOIN}{_NAME_TOKEN}){{1,15}})[*_]{{0,2}}"
    r"(?:[ \t]*\([^()]{0,80}\))?(?:[ \t]*(?::|[ \t]-|[ \t]?[–—])[ \t].*)?[ \t.]*"
)
"""A list item joining several components, each one name (`PyTorch + torchvision + torchaudio (with CUDA
support)`, `HYPRE · SuperLU · GSLIB`, `` `gdb`, `valgrind` and `strace` ``)."""
JOIN_SPLIT = re.compile(_JOIN)
BUILT_WITH = re.compile(r"(?<=[A-Za-z0-9])\+[A-Za-z][\w.-]*\Z")
"""`HYPRE+CUDA`: a component and what it is built with; the component is the first name."""


_LABELLED_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\*\*|__)([A-Za-z][\w+/-]{0,30}(?:[ \t][\w+/-]{1,30}){0,3})"
    r"(?::(?:\*\*|__)|(?:\*\*|__)[ \t]*:)[ \t]+(.{1,800})"
)
"""A list item that is a bold label and the names it groups (`**Language servers**: pyright, clangd`,
`__Editors:__ vim, nano`): the label is a kind of component, the names are the components."""
_NOT_A_KIND = re.compile(
    r"(?:\A|[ \t/])(?:gpus?|cpus?|hardware|arch\w*|platforms?|base|os|distros?|ports?|tags?|users?|versions?"
    r"|models?|weights|env\w*|variables?|paths?|volumes?|mounts?|languages?|formats?|examples?)\Z",
    re.IGNORECASE,
)
"""A label's last word naming what is no component the image installs (`**Supported GPUs**: A100,
H100`, `**Tags**: …`, `**Languages**: Go, Rust`; not `**Language servers**`)."""
_LABELLED_PART = re.compile(rf"{_NAME_TOKEN}(?:[ \t]*\([^()]{{1,40}}\))?[ \t.]*")
"""One name of a labelled item, maybe with a note in brackets (`bubblewrap (sandboxing)`)."""


def label_item(text: str) -> bool:
    """True when a list item is a bold label and one or more names (`_LABELLED_ITEM`: `**Linters**:
    shellcheck`, `**Architectures**: amd64, arm64`): the label names no component."""
    labelled = _LABELLED_ITEM.fullmatch(text.rstrip())
    if labelled is None:
        return False
    parts = [part.strip() for part in JOIN_SPLIT.split(labelled.group(2).strip())]
    return all(_LABELLED_PART.fullmatch(part) for part in parts)


def labelled_components(text: str) -> list[tuple[str, set[str], bool]]:
    """The components a labelled list item groups (`_LABELLED_ITEM`: `**Language servers**: pyright,
    rust-analyzer, clangd`): each of two or more names joined by commas, each a name alone or with a
    note in brackets (`item_component`). [] when a part is more than a name (`**Megatron-LM**: a
    framework for …`: the label is the component), the label is no kind of component (`_NOT_A_KIND`)
    or a name is no component (`Ubuntu`)."""
    labelled = _LABELLED_ITEM.fullmatch(text.rstrip())
    if labelled is None or _NOT_A_KIND.search(labelled.group(1)):
        return []
    parts = [part.strip() for part in JOIN_SPLIT.split(labelled.group(2).strip())]
    if len(parts) < 2 or not all(_LABELLED_PART.fullmatch(part) for part in parts):
        return []
    found = [item_component(f"- {part.rstrip('. ')}") for part in parts]
    return [one for one in found if one is not None]


def item_components(text: str, purpose: bool = False) -> list[tuple[str, set[str], bool]]:
    """The components a list item names (`item_component`): the one it names, or each of the names it
    joins (`A + B + C`, `A · B`, `A, B and C`; `_JOINED_ITEM`), a name built with another
    (`HYPRE+CUDA`) being the first; names that are no component (`Ubuntu`, `GPU`) are left out."""
    joined = _JOINED_ITEM.fullmatch(text)
    if joined is None:
        single = item_component(text, purpose)
        return [single] if single is not None else []
    found = []
    for part in JOIN_SPLIT.split(joined.group(1)):
        part = BUILT_WITH.sub("", part.strip())
        if (one := item_component(f"- {part}")) is not None:
            found.append(one)
    return found


_PURPOSE = re.compile(r"[ \t]+(?:for|to)[ \t]+\S")
"""What an item's name may be followed by when the list is of one image's contents: what it is for."""


def _link_name(target: str) -> str:
    """The name a link's target gives what it links to: a repository's (`…/sewenew/redis-plus-plus.git`),
    else the site's (`https://rclone.org/` is rclone)."""
    parts = urlsplit(target)
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.rstrip("/").removesuffix(".git")
    if host in ("github.com", "gitlab.com", "bitbucket.org", "huggingface.co", "codeberg.org"):
        return path.rsplit("/", 1)[-1]
    labels = host.split(".")
    return labels[-2] if len(labels) >= 2 else labels[0]


def cannot_hold(
    model: ImageModel, spellings: set[str], data: bool, added: bool, despite_runs: bool = False
) -> bool:
    """True when the image of `model` cannot hold a component under any of `spellings`: none is in the
    Dockerfile (outside its commented-out instructions and the stages the target does not build) or the
    build-context files it copies, nothing it runs is unread (for `data`, a model, only a script or a
    download run is: a package manager brings no model), no package it installs pulls the component in
    (`pip install vllm` brings xformers), and its base images are known not to carry it (`base_contents`:
    a plain OS or language image, CUDA without cuDNN, a framework image it is no part of) or, for a list
    of what it `added`, not looked at. With `despite_runs`, a file or download run that docgen cannot read
    is passed over (a list `mostly_named` says is installed one item at a time)."""
    if not model.file:
        return False
    text, unread_run, unread_packages = copied_context(model)
    if (
        unread_run
        and not despite_runs
        or unread_packages
        and not data
        and not (spellings & NO_PIP_TOOLS and _pip_lists_only(model))
    ):
        return False
    if any(s in text for s in spellings):
        return not data and not unread_packages and _uninstalled_at(model, spellings) is not None
    if added:
        return True
    if not data and brought_by((c.name for c in final_components(model)), spellings) is not None:
        return False
    bases = built_bases(model)
    return bool(bases) and all(carries(stage.base, spellings) is False for stage in bases)


NO_PIP_TOOLS = frozenset(
    {"ffmpeg", "unzip", "zip", "p7zip", "7zip", "vim", "nano", "emacs", "tmux", "htop", "screen", "rsync"}
    | {"tree", "less", "opensshserver", "opensshclient", "imagemagick", "xvfb", "sqlite3", "rclone"}
)
"""System programs (normalised names) no Python package installs under their name: a requirements file
docgen cannot read (`pip install -r requirements.txt` of a clone) does not bring them (`pip install
ffmpeg` is a module, no `ffmpeg` program)."""
_OTHER_LISTS = re.compile(r"\b(?:conda|mamba|micromamba|pixi|apt-get|apt|xargs)\b")
"""An installer other than pip a RUN may give a list of packages to (`conda env create -f`, `xargs
apt-get install < packages.txt`)."""


def _pip_lists_only(model: ImageModel) -> bool:
    """True when everything `model` installs that docgen cannot read is a Python package list or project
    given to pip or uv (`pip install -r` a file not in the build context, `pip install -e .` of a clone):
    no copy of the whole build context, no unread list given to conda, mamba or apt in a RUN that names
    one. What pip installs brings no system program (`NO_PIP_TOOLS`)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None or any(context_path(w) == "." for copy in model.context_copies for w in copy.sources):
        return False
    unbuilt = unbuilt_lines(model)
    for inst in read[1].instructions:
        if (
            inst.keyword == "RUN"
            and not in_ranges(inst.start_line, unbuilt)
            and _OTHER_LISTS.search(inst.args)
        ):
            if LISTS.search(inst.args) or "<" in inst.args or "$(" in inst.args or "`" in inst.args:
                return False
    return True


RUNS_FILE = re.compile(
    r"(?:^|[\s;&|(])(?:(?:ba|z)?sh|python3?(?:\.\d+)?|perl)[ \t]+([^\s;&|<>()-][^\s;&|<>()]*)"
    r"|(?:^|[\s;&|(])(\.{0,2}/[^\s;&|<>()]+\.(?:sh|py|run|bin|pl))(?=[\s;&|)]|\Z)"
)
"""A RUN running a file: `bash install.sh`, `python setup_env.py`, `./build.sh` (a file sourced sets
variables: `source /venv/bin/activate`)."""
PIPED = re.compile(
    r"\b(?:curl|wget)\b[^;&|]{0,500}\|[ \t]*(?:sudo[ \t]+)?(?:(?:ba|z)?sh|python3?)\b|\$\((?:curl|wget)\b"
)
"""A download run by a shell (`curl -sSL URL | bash`, `sh -c "$(curl …)"`)."""
SOURCE_SETUP = re.compile(
    r"\bhttps?://(?:(?:deb|rpm)\.nodesource\.com/setup_[\w.]+|pyenv\.run\b"
    r"|(?:github\.com|raw\.githubusercontent\.com)/(?:pyenv/pyenv-installer|nvm-sh/nvm)/"
    r"|sh\.rustup\.rs\b|astral\.sh/uv/|install\.python-poetry\.org\b)"
)
"""A download piped into a shell that only adds a package source (NodeSource's `setup_20.x`) or installs
the one tool its address names (pyenv's installer, nvm, rustup, uv, Poetry): the packages the image gets
are still the ones its RUNs install with them."""
LISTS = re.compile(r"(?:^|[ \t])(?:-r|--requirement|--file|-f|--env-file)[ \t=]+([^\s;&|]+)")
"""A file of packages to install: `pip install -r F`, `conda env create -f F`."""
LOCAL_PROJECT = re.compile(
    r"\b" + PIP + r"[ \t]+install\b[^;&|]{0,500}?(?:[ \t]-e[ \t]+\S+|[ \t]\.(?=[ \t;&|]|\Z)|git\+)"
)
"""`pip install -e .`, `pip install .`, `pip install git+URL`: a project whose dependencies are not read."""
_PIP_INSTALL = re.compile(r"\b" + PIP + r"[ \t]+install\b([^;&|]{0,2000})")
_TAKES_VALUE = frozenset(
    {"-r", "--requirement", "-c", "--constraint", "-f", "--find-links", "-t", "--target", "--prefix"}
    | {"--root", "--cache-dir", "--src", "-i", "--index-url", "--extra-index-url", "--log", "--report"}
)
"""pip options whose value is a path or a URL, not something installed (`-r /tmp/req.txt`)."""


def installs_local(args: str) -> bool:
    """True when a RUN's `args` give pip a path to install (`pip install /opt/scorer`, `pip install
    ./wheels/*.whl`, `pip install .`): a project or wheel whose dependencies docgen does not read. The
    value of an option (`-r /tmp/req.txt`, `--target /opt/x`) is no such path."""
    for match in _PIP_INSTALL.finditer(args):
        before = ""
        for word in match.group(1).split():
            word = word.strip("'\"")
            local = word in (".", "..") or word.startswith(("/", "./", "../", "~/"))
            if local and before not in _TAKES_VALUE:
                return True
            before = word
    return False


_INSTALLER = re.compile(r"\b(?:pip3?|uv|conda|mamba|micromamba)\b")
"""An installer a `-r`/`-f` list of packages is given to (`LISTS`)."""
_SCRIPT = re.compile(r"\.(?:sh|bash|py|pl|run)\Z")
_LISTED_FILE = re.compile(r"\.(?:sh|bash|py|txt|ya?ml|toml|cfg|lock|json)\Z|\A[^.]*\Z")
"""A copied file that may say what to install, or a folder: one that is missing leaves that unread."""


_NEGATING_COMMENT = re.compile(
    r"^[ \t]*#[^\n]*\b(?:no|not|without|removed|dropped|disabled|excluded|omitted)\b[^\n]*$",
    re.MULTILINE | re.IGNORECASE,
)
"""A comment of the Dockerfile saying what it does not install (`# - No Enzyme (not needed here)`): it
names a component the image lacks, so it is not read as naming one it may hold."""
_SHELL_RUN = re.compile(r"(?:^|[\s;&|(])(?:ba|z)?sh[ \t]|\.(?:sh|bash)\Z")
"""A `RUNS_FILE` match that runs a shell script (`bash install.sh`, `./setup.sh`): one that may set up
apt sources or packages, where a Python or Perl file run is a build step."""
CHMOD = re.compile(r"\bchmod[ \t]+[^;&|]*")
"""`chmod +x /entrypoint.sh`: a file made runnable, not run."""
ALTERNATIVES = re.compile(r"\bupdate-alternatives[ \t]+[^;&|]*")
"""`update-alternatives --install /usr/bin/python python /usr/bin/python3 1`: a link made, nothing run."""


@dataclass(frozen=True)
class _Runs:
    """What the RUNs and the start of one Dockerfile do with a copied file, read once for all its copies
    (each copy looked up in every instruction again was n² for a Dockerfile of n COPY lines)."""

    runs: tuple[tuple[int, str], ...]
    """(first line, text without its `chmod`s) of each RUN."""
    starts: str
    """The words of its ENTRYPOINTs and CMDs."""

    @classmethod
    def of(cls, parsed: ParsedDockerfile) -> _Runs:
        runs = tuple(
            (inst.start_line, CHMOD.sub("", inst.args))
            for inst in parsed.instructions
            if inst.keyword == "RUN"
        )
        starts = "\n".join(i.args for i in parsed.instructions if i.keyword in ("ENTRYPOINT", "CMD"))
        return cls(runs, starts)


def _started_only(source: str, runs: _Runs, dest: str = "") -> bool:
    """True when the file copied from `source` (to `dest`) is what the container starts with
    (ENTRYPOINT, CMD name it by its name or by the name it is given in the image: `COPY test.py
    /app/test_rocm.py` then `CMD /app/test_rocm.py`) and no RUN does more with it than `chmod` (`runs`):
    it runs when a container starts, and puts nothing in the image, so not reading it hides nothing the
    image holds (`COPY entrypoint.sh /` when docgen has no copy of it)."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    given = dest.strip("\"'")
    given = "" if not given or given.endswith(("/", ".")) else given.rsplit("/", 1)[-1]
    for called in {name, given} - {""}:
        if called in runs.starts and all(called not in args for _, args in runs.runs):
            return all(name not in args for _, args in runs.runs)
    return False


def copied_context(model: ImageModel, strict: bool = True) -> tuple[str, bool, bool]:
    """The Dockerfile of `model` and the build-context files it copies that exist (scripts, requirements
    files, environment.yml), as one text of lower-case letters and digits; whether it runs something
    docgen cannot read (a script not among them, a download piped into a shell; without `strict`, only a
    shell script not among them, `_SHELL_RUN`); whether it installs packages from a list or a project
    docgen cannot read (`-r` a file not among them, `pip install -e .` of a clone). What it copies is
    the model's (`ImageModel.context_copies`)."""
    return context_of(model.file, model.context_copies, unbuilt_lines(model), strict)


def unbuilt_lines(model: ImageModel) -> tuple[tuple[int, int], ...]:
    """The (first, last) Dockerfile lines of each stage of `model` the default target does not build
    (`stages.built_stages`: a test stage, one a `COPY --from` of no built stage names): what they
    install is not in the image. None when a FROM reads a build arg (`FROM base_${FLAVOR}`): another
    value may build them."""
    if any("$" in stage.base_raw for stage in model.stages):
        return ()
    built = built_stages(model)
    return tuple(model.stage_lines(s) for s in model.stages if s.label not in built)


def in_ranges(line: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(first <= line <= last for first, last in ranges)


def kept_text(text: str, unbuilt: tuple[tuple[int, int], ...]) -> str:
    """The Dockerfile `text` as `copied_context` reads it: the lines of `unbuilt` (stages not built) and the
    comments naming what it does not install (`_NEGATING_COMMENT`) left out."""
    if unbuilt:
        text = "\n".join(t for n, t in enumerate(text.splitlines(), start=1) if not in_ranges(n, unbuilt))
    return _NEGATING_COMMENT.sub("", text)


def copies_unread(copies: Sequence[ContextCopy], missing: Collection[str], parsed: ParsedDockerfile) -> bool:
    """True when the COPY and ADD `copies` of the Dockerfile `parsed` name a file that may say what the
    image installs and docgen has no copy of (a script, a package list, a folder: among the `missing`
    sources, `copied.copied_texts`), or copy from above the build context; a file only started with
    the container (ENTRYPOINT, CMD) or one put where apt reads only pins and keys (`_APT_SETTINGS`) does
    not count. (A copy of the whole context is read.)"""
    copy_of = {word: copy for copy in copies if not copy.heredoc for word in copy.sources}
    runs = _Runs.of(parsed)
    for source in (word for copy in copies if not copy.heredoc for word in copy.sources):
        if above_context(source):
            return True  # (a build context holds nothing above it)
        if source in missing and _LISTED_FILE.search(source):
            copy = copy_of[source]
            if _started_only(source, runs, copy.dest):
                continue
            if not _never_run(copy, source, runs) and not _APT_SETTINGS.match(copy.dest):
                return True
    return False


_APT_SETTINGS = re.compile(
    r"[\"']?/(?:etc/apt/(?:preferences|apt\.conf|trusted\.gpg)\.d|etc/apt/keyrings|usr/share/keyrings)"
    r"(?:/|[\"']?\Z)"
)
"""Where a copied file only sets how apt picks packages or trusts a source (a pin of `preferences.d`, an
`apt.conf.d` option, a key): it names no package to install and adds no source, so a missing copy of it
(`COPY 90-rocm-pin /etc/apt/preferences.d/rocm-pin-600`) hides nothing the image holds."""


def _never_run(copy: ContextCopy, source: str, runs: _Runs) -> bool:
    """True when the file copied from `source` by `copy` is a shell script or a Python file (not
    `setup.py`) no RUN after the copy runs or reads: none names it, the folder it lands in or a wildcard
    (`chmod` aside); for a Python file, none names its module (`python -m finetune`), runs Python code
    from a file (which may import it: `_RUNS_PYTHON`) or installs a local project (`pip install .`). It
    can only run when a container starts (`start_server.sh` beside the ENTRYPOINT's script, `COPY
    finetune.py /app/` for the user to run), so it puts nothing in the image."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    found = re.fullmatch(r"([\w.-]+)\.(sh|bash|py)", name)
    if found is None or name == "setup.py":
        return False
    module = (
        re.compile(rf"(?<![\w.-]){re.escape(found.group(1))}(?![\w-])") if found.group(2) == "py" else None
    )
    dest = copy.dest.strip("\"'").rstrip("/")
    folder = dest if copy.dest.strip("\"'").endswith("/") else dest.rsplit("/", 1)[0]
    for start, args in runs.runs:
        if start <= copy.line:
            continue
        if name in args or "*" in args or (folder.startswith("/") and len(folder) > 1 and folder in args):
            return False
        if module is not None and (
            module.search(args)
            or _RUNS_PYTHON.search(args)
            or LOCAL_PROJECT.search(args)
            or installs_local(args)
        ):
            return False
    return True


_RUNS_PYTHON = re.compile(r"(?:^|[\s;&|(])python[\d.]*[ \t]+(?!-c\b|-V\b|--version\b)\S")
"""A RUN running Python code from a file or module (`python main.py`, `python3 -m tools.fetch`): it may
import a copied Python file that it does not name."""


@functools.lru_cache(maxsize=32)
def context_of(
    file: str,
    copies: tuple[ContextCopy, ...],
    unbuilt: tuple[tuple[int, int], ...] = (),
    strict: bool = True,
) -> tuple[str, bool, bool]:
    """`copied_context` of the Dockerfile at `file` whose COPY and ADD of its build context are `copies`
    (`copied.copied_texts` reads the files), the lines of `unbuilt` (stages not built) left out; a
    download piped into a shell and a file run that is no shell script count as unread only when
    `strict`."""
    read = dockerfile_read(file)
    if read is None:
        return "", True, True
    text, parsed = read
    read_copies = copied_texts(file, copies)
    if read_copies is None:
        return "", True, True  # more than docgen reads: what it copies is unread
    files, missing = read_copies
    texts = [kept_text(text, unbuilt), *(text for _, text in files)]
    names = {copied.name for copied, _ in files}
    run_unread = copies_unread(copies, missing, parsed)
    packages_unread = run_unread or any(context_path(w) == "." for copy in copies for w in copy.sources)
    for inst in parsed.instructions:
        if inst.keyword != "RUN" or in_ranges(inst.start_line, unbuilt):
            continue
        if strict and any(not SOURCE_SETUP.search(m.group()) for m in PIPED.finditer(inst.args)):
            run_unread = True  # (a package source's setup script adds a source, no package)
        args = ALTERNATIVES.sub("", CHMOD.sub("", inst.args))  # `chmod +x x.sh` runs nothing
        for match in RUNS_FILE.finditer(args):
            if match.group(2) and args[: match.start(2)].rstrip().endswith(">"):
                continue  # `printf '…' > /workspace/test.sh`: a file written, not run
            ran = (match.group(1) or match.group(2)).strip("'\"")
            if not strict and not _SHELL_RUN.search(match.group()):
                continue  # `python tools/build.py`: a build step, not one that sets up the system
            if ran.startswith("$") or (
                ("/" in ran or _SCRIPT.search(ran)) and ran.rsplit("/", 1)[-1] not in names
            ):
                run_unread = True
        for match in LISTS.finditer(inst.args) if _INSTALLER.search(inst.args) else ():
            if "://" not in match.group(1) and match.group(1).rsplit("/", 1)[-1].strip("'\"") not in names:
                packages_unread = True
        if LOCAL_PROJECT.search(inst.args) or installs_local(inst.args):
            packages_unread = True
    return raw_name(" ".join(texts)), run_unread, packages_unread
