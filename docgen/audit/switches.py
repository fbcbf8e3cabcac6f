"""Features a README says the image is built with that a switch of its own build turns off: a list of
features (`- Hardware acceleration: OpenGL, Qt5, GStreamer`) or a sentence (`llama.cpp with CUDA
support`, `CUDA-accelerated`) naming what a RUN configures off (`cmake -D WITH_QT=OFF`,
`-DGGML_CUDA=OFF`, `./configure --disable-cuda`, `USE_CUDA=0 python setup.py install`, `ENV USE_X=0`)
and nothing of the same image turns on again; and the other side of it, a CPU feature the README
says the image requires (`Requires CPU with AVX2 support`) that the build compiles without
(`-mno-avx2`, `-DGGML_AVX2=OFF` with `-DGGML_NATIVE=OFF`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import NEEDED, in_ranges, unbuilt_lines
from docgen.audit.wording import line_at, sentences
from docgen.markdown import Document, lists
from docgen.model import Diagnostic, ImageModel

_ASSIGNED = re.compile(r"(?<![\w$])(-D[ \t]*)?([A-Za-z][A-Za-z0-9_]*)=(?=[\"']?([^\s;&|)\"'=]*))")
"""`-D WITH_QT=OFF`, `-DGGML_CUDA=ON`, `USE_CUDA=0`: a name given a value, with cmake's `-D` or not; a
quoted value stops at its quote, so the switches inside one are read too (`CMAKE_ARGS="-DGGML_CUDA=on"`)."""
_AUTOTOOLS = re.compile(r"(?<![\w-])--(disable|enable|without|with)-([a-z][a-z0-9]*)(?![\w-])(=\S*)?")
"""`./configure --disable-cuda`, `--with-cuda=/usr/local/cuda`: a feature switched by its own option."""
_SWITCH_WORDS = frozenset({"WITH", "USE", "ENABLE", "BUILD", "HAVE", "NEED"})
"""The words a switch's name starts with (`WITH_QT`), or has after the project's (`LLAMA_BUILD_SERVER`,
`TF_NEED_TENSORRT`)."""
_OFF = frozenset({"off", "false", "no", "0", "n"})
_ON = frozenset({"on", "true", "yes", "1", "y"})
_NOT_FEATURES = frozenset(
    {"tests", "test", "testing", "examples", "example", "docs", "doc", "documentation", "static"}
    | {"shared", "native", "perf", "apps", "tools", "benchmarks", "benchmark", "werror", "lto"}
    | {"debug", "samples", "install", "ccache", "rpath", "type", "verbose", "warnings", "fat"}
)
"""Switches that name no feature a README could promise: what is built beside it, how it is built."""
_MAKE_PROJECTS = frozenset({"LLAMA", "GGML"})
"""Projects whose Makefile takes a backend as a variable of the project's name (`LLAMA_CLBLAST=0 make`,
`ENV LLAMA_CUBLAS=1` in llama.cpp and KoboldCpp): a switch without cmake's `-D` too."""
_ALIASES: dict[str, str] = {"opencl": "clblast", "cuda": "cublas", "rocm": "hipblas", "hip": "hipblas"}
"""A README's name of a backend → the switch of the library that gives it (llama.cpp's make variables:
OpenCL through CLBlast, CUDA through cuBLAS, ROCm through hipBLAS)."""


@dataclass(frozen=True)
class _Switch:
    """A feature a RUN or ENV of an image's build switches off."""

    key: str
    """The feature's name, lower case (`qt`, `cuda`)."""
    line: int
    """Dockerfile line of the switch."""
    text: str
    """The switch as written (`-D WITH_QT=OFF`)."""
    names: tuple[str, ...]
    """The names of the switch, for a README that documents it (`WITH_QT`, `--disable-qt`)."""


def feature(name: str, cmake: bool) -> str | None:
    """The feature a switch named `name` turns (`WITH_QT` → `qt`, `GGML_CUDA` → `cuda`,
    `LLAMA_BUILD_SERVER` → `server`), None when the name is no single feature's (`BUILD_SHARED_LIBS`,
    `OPENCV_DNN_CUDA`). A name without a switch word is one only as a cmake option of a project
    (`-DGGML_CUDA`)."""
    parts = name.split("_")
    if len(parts) == 2 and (parts[0].upper() in _SWITCH_WORDS or cmake or parts[0] in _MAKE_PROJECTS):
        found = parts[1]
    elif len(parts) == 3 and parts[1].upper() in _SWITCH_WORDS:
        found = parts[2]
    else:
        return None
    found = found.lower()
    if len(found) < 2 or not found.isalnum() or found in _NOT_FEATURES:
        return None
    return found


def switches_in(text: str) -> Iterator[tuple[str, bool | None, str, tuple[str, ...]]]:
    """(feature, off (True), on (False) or unknown (None: a variable), switch text, its names) of each
    switch `text` sets."""
    for match in _ASSIGNED.finditer(text):
        cmake = match.group(1) is not None
        key = feature(match.group(2), cmake)
        if key is None:
            continue
        value = match.group(3).strip("\"'").lower()
        off = True if value in _OFF else False if value in _ON else None
        yield key, off, match.group() + match.group(3), (match.group(2),)
    for match in _AUTOTOOLS.finditer(text):
        key = match.group(2)
        if key in _NOT_FEATURES:
            continue
        off = match.group(1) in ("disable", "without") or (match.group(3) or "").lower() in ("=no", "=0")
        names = tuple(f"--{word}-{key}" for word in ("disable", "enable", "without", "with"))
        yield key, off, match.group(), names


@functools.lru_cache(maxsize=32)
def _switched_off(model: ImageModel) -> tuple[_Switch, ...]:
    """The features the built stages of `model` switch off in a RUN or ENV and nowhere on (a switch
    whose value is a variable counts as on: another value may be passed)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return ()
    text, parsed = read
    lines = text.splitlines()
    unbuilt = unbuilt_lines(model)
    off: dict[str, _Switch] = {}
    on: set[str] = set()
    for instruction in parsed.instructions:
        if instruction.keyword not in ("RUN", "ENV") or in_ranges(instruction.start_line, unbuilt):
            continue
        for key, is_off, said, names in switches_in(instruction.args):
            if is_off is not True:
                on.add(key)
            elif key not in off:
                line = _line_of(lines, instruction.start_line, instruction.end_line, said)
                off[key] = _Switch(key, line, said, names)
    return tuple(s for key, s in off.items() if key not in on)


def _line_of(lines: list[str], start: int, end: int, said: str) -> int:
    """The line of the instruction on lines `start`…`end` that is the first not a comment holding
    `said`; `start` when none does (the switch is split over lines)."""
    for number in range(start, min(end, len(lines)) + 1):
        line = lines[number - 1]
        if said in line and not line.lstrip().startswith("#"):
            return number
    return start


_WORD = re.compile(
    r"(?<![\w./-])[A-Za-z0-9]+(?:(?=-(?:accelerat|enabled|powered|backed|based|support))|(?![\w-]))"
)
"""A README word that may name a feature: `Qt`, `Qt5`, `CUDA`, `CUDA-accelerated`; not part of a longer
name (`cuda-toolkit`, `libqt5`) nor of a path."""


def _mentions(text: str, keys: Collection[str]) -> Iterator[tuple[re.Match[str], str]]:
    """Each word of `text` naming one of the features `keys` (`_WORD`; the key, maybe with a release
    number after it: `Qt5` names `qt`), with that key."""
    for match in _words_in(text):
        word = match.group().lower()
        while word:
            if word in keys:
                yield match, word
                break
            if _ALIASES.get(word) in keys:
                yield match, _ALIASES[word]
                break
            if not word[-1].isdigit():
                break
            word = word[:-1]


_SLASH_LIST = re.compile(r"(?<![\w./`~-])[A-Za-z][A-Za-z0-9+]*(?:/[A-Za-z][A-Za-z0-9+]*)+(?![\w/`-]|\.\w)")
"""Names a sentence runs together with slashes (`generic/OpenCL/ROCm`), not a path (which starts with
`/`, `.` or `~`, has dots or is code)."""


def _words_in(text: str) -> Iterator[re.Match[str]]:
    """`_WORD`'s matches of `text`, and the names of a slash list (`_SLASH_LIST`) of two or more that
    are written with capitals (`OpenCL`, `ROCm`; a path's folders rarely are)."""
    yield from _WORD.finditer(text)
    if "/" not in text:
        return
    for listed in _SLASH_LIST.finditer(text):
        names = list(re.finditer(r"[A-Za-z][A-Za-z0-9+]*", listed.group()))
        if sum(1 for n in names if any(c.isupper() for c in n.group())) < 2:
            continue
        for name in names:
            found = _WORD.match(text, listed.start() + name.start())
            if found is None:
                found = re.compile(re.escape(name.group())).match(text, listed.start() + name.start())
            if found is not None:
                yield found


_VERSION_AFTER = re.compile(r"[ \t]*(?:v(?=\d)|version[ \t]+)?\d+(?:\.\d+)")
"""A version right after the name (`CUDA 12.2`): a component's version, compared elsewhere."""
_FEATURE_CONTEXT = re.compile(
    r"\bfeatures?\b|\bsupport|\baccelerat|\benabled\b|\bbuilt[ \t]+with\b|\bcompiled[ \t]+with\b"
    r"|\bbackends?\b|\bcapabilit",
    re.IGNORECASE,
)
"""A heading, an intro or an item's label presenting what the image is built with (`## Features`,
`Hardware acceleration:`, `Built with:`)."""
_NEAR_CLAIM = re.compile(
    r"(?:[ \t-]+(?:support(?:ed)?\b|accelerat\w*|enabled\b|backend\b|powered\b|backed\b))", re.IGNORECASE
)
"""What follows a name in a sentence saying the image has it: `CUDA support`, `CUDA-accelerated`."""
_GLUED_CLAIM = re.compile(r"-(?:accelerated|enabled|powered)\b", re.IGNORECASE)
"""A word glued to the name making it the image's trait (`CUDA-accelerated`)."""
_BEFORE_CLAIM = re.compile(
    r"\b(?:with|supports?|supporting|built[ \t]+with|compiled[ \t]+with|enabled[ \t]+with|accelerated"
    r"[ \t]+(?:by|with)|ha(?:s|ve)[ \t]+(?:both[ \t]+)?an?)\b[^.;:()]{0,40}\Z",
    re.IGNORECASE,
)
"""What comes before a name in a sentence saying the image has it: `llama.cpp with CUDA`, `has both a
CUDA and an OpenCL version`."""
_BEFORE_REACH = 80
"""How far before a name `_BEFORE_CLAIM` looks (it reaches 40 characters past its words)."""
_NOT_SO = re.compile(
    r"\b(?:not|no|never|without|disabled?|off|optional(?:ly)?|unless|if|can[ \t]+be|could|may|might"
    r"|to[ \t]+enable|enable[ \t]+it|set[ \t]+\S+[ \t]+to|build[- ]?args?|flags?|instead|requires?|required"
    r"|needed|must|host"
    r"|your|base|inherit\w*|future|planned|todo|soon|uncomment)\b|--build-arg|n't\b",
    re.IGNORECASE,
)
"""Words making a mention no claim that the image as built has the feature: absent, optional, to be
switched on by the reader, the host's (`required`, `must`: what the machine needs, read by
`cpu_feature_claims`), the base image's (the README gives it to its base)."""


def _claims(doc: Document, keys: Collection[str]) -> Iterator[tuple[int, str, str, str]]:
    """(README line, the name as written, confidence, feature) of each claim of `doc` that the image
    has one of the features `keys`: an item of a list of features (its heading, intro or label says so:
    `certain`), a sentence or heading with the name next to words of support (`likely`). One walk of
    the part for every feature; a line says each feature once."""
    seen: set[tuple[int, str]] = set()
    for block in lists(doc):
        context = f"{block.heading} {block.intro}"
        if NEEDED.search(context) or _NOT_SO.search(block.intro):
            continue
        for line, text in block.items:
            label, _, rest = text.partition(":")
            listed = _FEATURE_CONTEXT.search(context) or (rest and _FEATURE_CONTEXT.search(label))
            if not listed or _NOT_SO.search(text):
                continue
            for match, key in _mentions(text, keys):
                if (line, key) not in seen and not _VERSION_AFTER.match(text, match.end()):
                    seen.add((line, key))
                    yield line, match.group(), CERTAIN, key
    for para in doc.paragraphs:
        if NEEDED.search(para.heading):
            continue
        for start, _, sentence in sentences(para.lines):
            line = line_at(para.lines, start)
            if _NOT_SO.search(sentence):
                continue
            for match, key in _mentions(sentence, keys):
                if (line, key) in seen or _VERSION_AFTER.match(sentence, match.end()):
                    continue
                near = _NEAR_CLAIM.match(sentence, match.end()) or _BEFORE_CLAIM.search(
                    sentence[max(0, match.start() - _BEFORE_REACH) : match.start()]
                )
                if near:
                    seen.add((line, key))
                    yield line, match.group(), LIKELY, key
    for line, heading in doc.headings:
        if _NOT_SO.search(heading):
            continue
        for match, key in _mentions(heading, keys):
            # a heading naming a topic (`## CUDA support`) says nothing of the image; one naming the
            # image by it does (`# OpenCV with CUDA`, `# A CUDA-accelerated llama.cpp`)
            before = _BEFORE_CLAIM.search(heading[max(0, match.start() - _BEFORE_REACH) : match.start()])
            glued = _GLUED_CLAIM.match(heading, match.end())
            if (
                (line, key) not in seen
                and (before or glued)
                and not _VERSION_AFTER.match(heading, match.end())
            ):
                seen.add((line, key))
                yield line, match.group(), LIKELY, key


@functools.lru_cache(maxsize=4)
def _words(text: str) -> frozenset[str]:
    """The words of a README (runs of letters, digits, `_` and `-`), read once a README."""
    return frozenset(re.findall(r"[\w-]+", text))


def _documented(text: str, switch: _Switch) -> bool:
    """True when the README names the switch itself (`WITH_QT`, `--enable-qt`): it tells the reader how
    the build sets it, a claim of its own. (Each name is a run of `_words`' letters, so a word of the
    README it is.)"""
    return any(name in _words(text) for name in switch.names)


def switched_off_claims(doc: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A feature the README says the image is built with (`_claims`) that every image compared switches
    off in its own build (`_switched_off`) and none switches on; not when the README names the switch
    (it documents how to set it). `certain` from an item of a list of features, `likely` from prose."""
    models = [m for m in auditor.models if m.file]
    if not models or len(models) != len(auditor.models):
        return
    per_model = [{s.key: s for s in _switched_off(m)} for m in models]
    keys = set.intersection(*(set(found) for found in per_model))
    keys = {key for key in keys if not any(_documented(text, found[key]) for found in per_model)}
    if not keys:
        return
    for line, name, confidence, key in sorted(_claims(doc, keys), key=lambda claim: (claim[3], claim[0])):
        told = "; ".join(
            dict.fromkeys(
                f"{model.path}:{found[key].line} switches it off (`{found[key].text}`)"
                for model, found in zip(models, per_model, strict=True)
            )
        )
        yield Diagnostic(
            auditor.path,
            line,
            f"README says the image is built with {name}, but {told}",
            confidence=confidence,
        )


# --------------------------------------------------------------------------------------------------
# A CPU feature the README says the image requires, that its build compiles without

CPU_FEATURES: dict[str, str] = {
    "avx": "AVX",
    "avx2": "AVX2",
    "avx512": "AVX-512",
    "avx512f": "AVX-512",
    "fma": "FMA",
    "f16c": "F16C",
}
"""Instruction-set extensions a README may say the host CPU needs → the feature (as shown)."""
_UNDER_AVX = ("AVX2", "AVX-512", "FMA", "F16C")
"""What `-mno-avx` turns off with AVX (the compiler drops the extensions built on it)."""
_GCC_ISA = re.compile(r"(?<![\w-])-m(no-)?(avx512f|avx512|avx2|avx|fma|f16c)(?![\w-])", re.IGNORECASE)
"""`-mno-avx2` (off) and `-mavx2` (on) in compiler flags."""
_CMAKE_ISA = re.compile(
    r"(?<![\w-])(?:-D)?(?:GGML|LLAMA)_(AVX512|AVX2|AVX|FMA|F16C)=[\"']?(\w+)", re.IGNORECASE
)
"""`-DGGML_AVX2=OFF`, `LLAMA_AVX2=ON`: llama.cpp's (ggml's) switch of one extension."""
_NATIVE_OFF = re.compile(r"(?:\b|(?<=-D))(?:GGML|LLAMA)_NATIVE=[\"']?(?:off|0|false|no)\b", re.IGNORECASE)
"""`-DGGML_NATIVE=OFF`: without it ggml builds for the build machine's CPU, whatever the switches say."""
_MARCH = re.compile(r"(?<![\w-])-m(?:arch|cpu)=(?!x86-64(?:-v[12])?(?![\w-]))", re.IGNORECASE)
"""A target CPU (`-march=native`, `-march=haswell`; the baseline `x86-64` and `-v2` hold no AVX): it turns
on every extension its flags do not turn off by name (`-march=sandybridge -mno-avx` is without AVX)."""
_EVERY_ISA = re.compile(
    r"(?:\b|(?<=-D))(?:GGML|LLAMA)_NATIVE=[\"']?(?:on|1|true)\b|ALL_VARIANTS|BACKEND_DL|\bx86-64-v[34]\b",
    re.IGNORECASE,
)
"""A native ggml build (the build machine's CPU) or ggml's runtime choice among CPU variants: any
extension may be used, whatever else the build says."""


@dataclass(frozen=True)
class _Without:
    """A CPU feature the build of an image compiles its code without."""

    feature: str
    """As shown (`AVX2`)."""
    line: int
    """Dockerfile line of the flag."""
    text: str
    """The flag as written (`-mno-avx2`, `-DGGML_AVX2=OFF`)."""


@functools.lru_cache(maxsize=32)
def _built_without(model: ImageModel) -> tuple[_Without, ...]:
    """The CPU features the built stages of `model` compile without (`-mno-avx2`; `-DGGML_AVX2=OFF` with
    `-DGGML_NATIVE=OFF`) and nothing of them compiles with (`-mavx2`, `GGML_AVX2=ON`, a `-march=` of a
    CPU with no `-mno-` of it; a native or multi-variant ggml build: then none)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return ()
    text, parsed = read
    lines = text.splitlines()
    unbuilt = unbuilt_lines(model)
    off: dict[str, _Without] = {}
    implied: set[str] = set()
    on: set[str] = set()
    for instruction in parsed.instructions:
        if instruction.keyword not in ("RUN", "ENV") or in_ranges(instruction.start_line, unbuilt):
            continue
        args = instruction.args
        if _EVERY_ISA.search(args):
            return ()
        found: list[tuple[str, bool, str]] = []  # (feature, off, flag)
        for match in _GCC_ISA.finditer(args):
            found.append((CPU_FEATURES[match.group(2).lower()], match.group(1) is not None, match.group()))
        native_off = _NATIVE_OFF.search(args) is not None
        for match in _CMAKE_ISA.finditer(args):
            is_off = match.group(2).lower() in _OFF
            if is_off and not native_off:
                continue  # a native build takes the machine's CPU whatever the switch
            found.append((CPU_FEATURES[match.group(1).lower()], is_off, match.group()))
        if _MARCH.search(args):
            named_off = {feature for feature, is_off, _ in found if is_off}
            named_off |= set(_UNDER_AVX) if "AVX" in named_off else set()
            on.update(set(CPU_FEATURES.values()) - named_off)
        for feature, is_off, said in found:
            if not is_off:
                on.update((feature, "AVX") if feature in _UNDER_AVX else (feature,))  # `-mavx2` holds AVX
                continue
            line = _line_of(lines, instruction.start_line, instruction.end_line, said)
            if feature not in off or feature in implied:  # its own flag shown over `-mno-avx`
                off[feature] = _Without(feature, line, said)
                implied.discard(feature)
            for each in _UNDER_AVX if said.lower() == "-mno-avx" else ():
                if each not in off:
                    off[each] = _Without(each, line, said)
                    implied.add(each)
    return tuple(w for feature, w in off.items() if feature not in on)


_FEATURE_NAME = r"(?:AVX[- ]?512\w*|AVX2|AVX|FMA3?|F16C)"
_FEATURE_WORD = re.compile(_FEATURE_NAME, re.IGNORECASE)
_REQUIRED = re.compile(
    r"\b(?:requires?|requiring|needs?)[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:x86[-_ ]64[ \t]+)?"
    r"(?:(?:CPU|processor)s?[ \t]+(?:with|that[ \t]+supports?|supporting)[ \t]+)?"
    rf"(?:[^.;:]{{0,30}}?[ \t,/+(])?({_FEATURE_NAME})(?![\w-])"
    rf"|\b({_FEATURE_NAME})(?![\w-])[ \t]+(?:support[ \t]+|instructions?[ \t]+|instruction[ \t]+set[ \t]+)?"
    r"(?:is|are)[ \t]+(?:required|needed|mandatory)\b"
    rf"|\b(?:CPU|processor)[ \t]+must[ \t]+support[ \t]+({_FEATURE_NAME})(?![\w-])",
    re.IGNORECASE,
)
"""A sentence saying the host CPU needs a feature: `Requires CPU with AVX2 support`, `requires a CPU with
AVX2 + FMA`, `AVX2 support is required`, `your CPU must support AVX2`."""
_NOT_REQUIRED = re.compile(
    r"\b(?:not|no|never|without|optional(?:ly)?|unless|if|only|legacy|older|previous(?:ly)?|was|were"
    r"|used[ \t]+to|anymore|longer|recommend\w*|faster|speed|instead"
    r"|or(?![ \t]+(?:later|newer|above|higher|up)\b))\b|n't\b",
    re.IGNORECASE,
)
"""Words making the sentence no requirement of the image as built: a negation, a condition, the past, a
recommendation (`AVX2 makes it faster`), a choice (not `Haswell or later`)."""
_ITS_SUBJECT = re.compile(
    r"\A[^.]*?\b(?:image|container|docker|this|it|build|binary|binaries|server)\b"
    r"|\A[\W_]*(?:(?:your|the|a|an|host|machine)(?:'s)?[ \t]+)*\Z",
    re.IGNORECASE,
)
"""Words before `requires` that make the image the one requiring, or no subject at all (`Requires CPU
with AVX2`, `Your CPU must support`); another subject (`The gazed daemon requires AVX2`) is a program the
build may not compile."""
_OTHER_IMAGE = re.compile(r"`|\b(?:tags?|variants?|flavou?rs?|editions?)\b", re.IGNORECASE)
"""A sentence naming an image of its own (`the `:avx2` tag requires AVX2`), maybe not the one compared."""


def _requirements(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, feature as shown) of each sentence of `doc` saying the host CPU needs a feature."""
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            if not _FEATURE_WORD.search(sentence):
                continue  # (most sentences)
            if _NOT_REQUIRED.search(sentence) or _OTHER_IMAGE.search(sentence):
                continue
            for match in _REQUIRED.finditer(sentence):
                if not _ITS_SUBJECT.match(sentence[: match.start()]):
                    continue
                said = next(g for g in match.groups() if g)
                compact = re.sub(r"[- ]", "", said).upper()
                feature = "AVX-512" if compact.startswith("AVX512") else compact.removesuffix("3")
                yield line_at(para.lines, start + match.start()), feature


def cpu_feature_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A CPU feature the README says the image requires (`Requires CPU with AVX2 support`) that every
    image compared compiles without (`_built_without`): the requirement is stale (`likely`)."""
    models = [m for m in auditor.models if m.file]
    if not models or len(models) != len(auditor.models):
        return
    per_model = [{w.feature: w for w in _built_without(m)} for m in models]
    features = set.intersection(*(set(found) for found in per_model))
    if not features:
        return
    seen: set[tuple[int, str]] = set()
    for line, feature in _requirements(doc):
        if feature not in features or (line, feature) in seen:
            continue
        seen.add((line, feature))
        without = per_model[0][feature]
        yield Diagnostic(
            auditor.path,
            line,
            f"README says the image requires a CPU with {feature}, but {models[0].path}:{without.line} "
            f"builds without it (`{without.text}`)",
            confidence=LIKELY,
        )
