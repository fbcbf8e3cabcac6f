"""Versions a base image's reference states: `nvidia/cuda:12.9.1-cudnn-devel-ubuntu24.04` is CUDA 12.9.1
on Ubuntu 24.04.

The versions readers look for first (CUDA, ROCm, the OS, Python, PyTorch, the NGC release) often live
only in the tag of the image a Dockerfile starts from. `_FAMILIES` is the one table of what docgen
knows: for each image family GPU projects build on, a pattern of its repository and a pattern of its
tag, whose named groups are the versions read. Everything else here only splits a reference and turns
what a group matched into the version shown (`cu129` is CUDA 12.9, `bookworm` is Debian 12).

An image of a family not in the table is read word by word (`_WORDS`: `cu124`, `torch2.6`, `th2.6.0`,
`fa2.7.4`, the words a project's own images put in their tags), and so is the rest of a tag its family's
pattern matches (`vllm/vllm-openai:v0.8.1-th2.6.0`); a tag its family's pattern does not match, or one
with no such word, yields nothing: docgen never guesses a version. The tag of NGC's PyTorch container
names only the release; `_NGC_PYTORCH` holds what NVIDIA's release notes state for the releases read.
Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from docgen.model import Stage, VersionRow
from docgen.shell import referenced_names

# A named group is `item` (a key of `_ITEMS`), or `item__how` when what it matches needs converting
# (see `_convert`: `cuda__cu` reads `129` as CUDA 12.9).
_V = r"\d+\.\d+(?:\.\d+)?"  # 12.9, 12.9.1
_PY_RELEASE = r"\d+\.\d+\.\d+(?:\.\d+)?(?:rc\d+)?(?:\.post\d+)?"  # 0.9.1, 0.4.6.post5, 0.5.0rc2, 0.10.1.1
_TAIL = r"(?:[-_.][a-z0-9]+)*"  # suffixes that state no version: -runtime, -amd64, _20251210, -mi30x
# `_mi300`, `_navi`, `_20250715` between the parts of an underscore tag, never a part docgen reads
_SKIP = r"(?:_(?!ubuntu|py\d|pytorch|vllm)[a-z0-9]+)*"

# (repository pattern, tag pattern or None when any tag will do), matched in full, case-insensitively.
# Repositories are written as pulled, without the default registry (`docker.io/library/` dropped);
# an image pulled through another registry or a mirror (`registry:5000/nvidia/cuda`) is also tried
# without that registry.
_FAMILIES: tuple[tuple[str, str | None], ...] = (
    # Operating systems
    (
        "ubuntu",
        r"(?P<ubuntu>\d\d\.\d\d)(?:-\d{8}(?:\.\d+)?)?|(?P<ubuntu__codename>[a-z]+)(?:-\d{8}(?:\.\d+)?)?",
    ),
    (
        "debian",
        r"(?P<debian>\d+(?:\.\d+)?)(?:-slim)?(?:-\d{8})?|(?P<debian__codename>[a-z]+)(?:-slim)?(?:-\d{8})?",
    ),
    ("rockylinux(?:/rockylinux)?", r"(?P<rocky>\d+(?:\.\d+)?)(?:-[a-z]+)*(?:\.\d{8})?"),
    ("almalinux", r"(?P<alma>\d+(?:\.\d+)?)(?:-[a-z]+)*(?:-\d{8})?"),
    # python:3.11-slim-bookworm, python:3.12-alpine3.20
    (
        "python",
        r"(?P<python>\d+\.\d+(?:\.\d+)?)(?:-slim)?"
        r"(?:-alpine(?P<alpine>\d+\.\d+)?|-(?P<debian__codename>bookworm|bullseye|buster|trixie)|-[a-z0-9.]+)?",
    ),
    # nvidia/cuda:12.9.1-cudnn-devel-ubuntu24.04, 12.4.1-cudnn9-runtime-ubuntu22.04, 12.2.2-devel-rockylinux8
    (
        "nvidia/cuda",
        rf"(?P<cuda>{_V})(?:-cudnn(?P<cudnn>\d+)?)?-(?:devel|runtime|base)"
        r"-(?:ubuntu(?P<ubuntu>\d\d\.\d\d)|rockylinux(?P<rocky>\d+)|ubi(?P<ubi>\d+)|centos(?P<centos>\d+)"
        r"|oraclelinux(?P<oracle>\d+))",
    ),
    # pytorch/pytorch:2.6.0-cuda12.4-cudnn9-devel
    ("pytorch/pytorch", rf"(?P<torch>{_V})-cuda(?P<cuda>\d+\.\d+)-cudnn(?P<cudnn>\d+)-(?:devel|runtime)"),
    # NGC containers, monthly releases: nvcr.io/nvidia/pytorch:24.08-py3,
    # nvcr.io/nvidia/tritonserver:24.08-trtllm-python-py3, nvcr.io/nvidia/nemo:25.02.01,
    # nvcr.io/nvidia/cuda-dl-base:25.01-cuda12.8-devel-ubuntu24.04
    (
        r"nvcr\.io/nvidia/(?:pytorch|tritonserver|nemo|jax|tensorflow|cuda-dl-base|dgl|paddlepaddle)",
        r"(?P<ngc>\d\d\.\d\d(?:\.\d+)?)(?:-cuda(?P<cuda>\d+\.\d+))?"
        r"(?:-[a-z0-9.-]*?ubuntu(?P<ubuntu>\d\d\.\d\d))?" + _TAIL,
    ),
    # nvcr.io/nvidia/tensorrt-llm/release:1.0.0rc4
    (r"nvcr\.io/nvidia/tensorrt-llm/release", rf"v?(?P<trtllm>{_PY_RELEASE})" + _TAIL),
    # rocm/dev-ubuntu-22.04:6.4.1-complete, rocm/dev-almalinux-8:6.4.1, rocm/dev-ubuntu-22.04:6.1.1_hip_update
    (
        r"rocm/dev-(?:ubuntu-(?P<ubuntu>\d\d\.\d\d)|almalinux-(?P<alma>\d+)|centos-(?P<centos>\d+)"
        r"|rockylinux-(?P<rocky>\d+))",
        rf"(?P<rocm>{_V})(?:[-_][a-z][a-z0-9]*)*",
    ),
    # rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0
    (
        r"rocm/pytorch(?:-training)?",
        rf"rocm(?P<rocm>{_V})_ubuntu(?P<ubuntu>\d\d\.\d\d)_py(?P<python>\d+\.\d+)"
        rf"_pytorch_(?:release_)?(?P<torch>{_V})" + _TAIL,
    ),
    # rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715, rocm/vllm:rocm6.3.1_mi300_ubuntu22.04_py3.12_vllm_0.6.6,
    # rocm/vllm-dev:rocm7.1.1_navi_ubuntu24.04_py3.12_pytorch_2.8_vllm_0.10.2rc1
    (
        r"rocm/vllm(?:-dev)?",
        rf"rocm(?P<rocm>{_V}){_SKIP}(?:_ubuntu(?P<ubuntu>\d\d\.\d\d))?{_SKIP}(?:_py(?P<python>\d+\.\d+))?{_SKIP}"
        rf"(?:_pytorch_(?:release_)?(?P<torch>{_V}))?{_SKIP}(?:_vllm_v?(?P<vllm>{_PY_RELEASE}))?{_SKIP}",
    ),
    # rocm/primus:v25.9, rocm/primus:v26.7-pytorch2.12-te2.17 (the release of the Primus image)
    (
        r"rocm/primus",
        rf"v(?P<primus>{_V})(?:_gfx[0-9a-f]+)?(?:-pytorch(?P<torch>{_V}))?(?:-te(?P<te>{_V}))?",
    ),
    # vllm/vllm-openai:v0.9.1, vllm/vllm-openai-rocm:v0.10.1
    (r"vllm/vllm-openai(?:-rocm)?", rf"v(?P<vllm>{_PY_RELEASE})" + _TAIL),
    # lmsysorg/sglang:v0.5.2-cu129, v0.4.9.post2-rocm630-mi30x, v0.5.9-cu129-amd64-runtime
    (
        r"lmsysorg/sglang",
        rf"v(?P<sglang>{_PY_RELEASE})(?:-cu(?P<cuda__cu>\d{{3}}))?(?:-rocm(?P<rocm__digits>\d{{3}}))?"
        + _TAIL,
    ),
    # Ascend CANN: quay.io/ascend/cann:8.5.0-910b-ubuntu22.04-py3.11, 8.5.0-a3, 9.2.0-beta.1-910b-…-devel,
    # swr.cn-south-1.myhuaweicloud.com/ascendhub/cann:8.3.rc1.alpha001-a3-openeuler24.03-py3.11
    (
        r"(?:quay\.io/ascend|ascendai|swr\.[a-z0-9-]+\.myhuaweicloud\.com/ascendhub)/cann",
        r"(?P<cann>\d+\.\d+\.(?:\d+|rc\d+)(?:\.(?:alpha|beta)\d+|-(?:alpha|beta)\.\d+)?)"
        r"(?:-(?P<npu>910b|a3|a2|310p))?(?:-(?:ubuntu(?P<ubuntu>\d\d\.\d\d)|openeuler(?P<openeuler>\d\d\.\d\d)))?"
        r"(?:-py(?P<python>\d+\.\d+))?(?:-devel)?",
    ),
    # quay.io/ascend/vllm-ascend:v0.9.1rc1, v0.10.0rc1-a3
    (
        r"quay\.io/ascend/vllm-ascend",
        rf"v(?P<vllm_ascend>{_PY_RELEASE})(?:-(?P<npu>a3|310p))?(?:-openeuler)?",
    ),
    # quay.io/pypa/manylinux_2_28_x86_64 (PEP 600: glibc 2.28), manylinux2014 (PEP 599: glibc 2.17)
    (
        r"quay\.io/pypa/(?:manylinux_(?P<glibc__underscore>\d+_\d+)|manylinux(?P<glibc__legacy>2014|2010|1)"
        r"|musllinux_(?P<musl__underscore>\d+_\d+))_[a-z0-9_]+",
        None,
    ),
)

# A project's own images often say what they hold in their tag, one version a word:
# `verlai/verl:base-v1-cu124-cudnn9.8-torch2.6-fa2.7.4-te2.3`, `org/x:ubuntu22.04_rocm6.4.3_vllm_…`.
# For an image of a family not in `_FAMILIES`, each word of its tag (between `-` and `_`) that is one
# of these, whole, is read; any other word is passed over (`thin`, `pytorch` with no version). For an
# image of a known family, the words fill in what its pattern did not read. `th` and `pt` are PyTorch
# (`hiyouga/verl:ngc-th2.6.0-cu126-…`, `…-pt2.4-…`), `py310` is Python 3.10.
_NUM = r"\d+(?:\.\d+)+"  # 2.7.4, 9.8, 6.4.3.127 (a dot at least: `v1` and `20250911` are no versions)
_WORDS: tuple[str, ...] = (
    r"cu(?:da)?(?P<cuda__cu>\d{3})",  # cu124, cu130, cuda126
    rf"cuda(?P<cuda>{_NUM})",
    r"cudnn(?P<cudnn>\d+(?:\.\d+)*)",
    rf"rocm(?P<rocm>{_NUM})|rocm(?P<rocm__digits>\d{{3}})",
    r"cann(?P<cann>\d+\.\d+\.(?:\d+|rc\d+))",
    r"(?:py|python)(?P<python>3\.\d+)|py(?P<python__nodot>3\d{1,2})",
    rf"(?:torch|pytorch|th|pt)(?P<torch>{_NUM})",
    rf"fa(?P<fa>{_NUM}(?:\.post\d+)?)",
    rf"te(?P<te>{_NUM})",
    rf"vllm(?P<vllm>{_PY_RELEASE}|\d+\.\d+)",
    rf"(?:sglang|sgl)(?P<sglang>{_PY_RELEASE}|\d+\.\d+)",
    rf"mcore(?P<mcore>{_NUM})",
    r"ubuntu(?P<ubuntu>\d\d\.\d\d)|ubuntu(?P<ubuntu__yymm>\d\d[01]\d)",  # ubuntu22.04, ubuntu2404
)

_ITEMS: dict[str, str] = {
    "ngc": "NGC release",
    "primus": "Primus image release",
    "sglang": "SGLang",
    "vllm": "vLLM",
    "vllm_ascend": "vLLM Ascend",
    "trtllm": "TensorRT-LLM",
    "cann": "CANN",
    "rocm": "ROCm",
    "cuda": "CUDA",
    "cudnn": "cuDNN",
    "torch": "PyTorch",
    "fa": "Flash Attention",
    "te": "TransformerEngine",
    "mcore": "Megatron-core",
    "python": "Python",
    "ubuntu": "Ubuntu",
    "debian": "Debian",
    "rocky": "Rocky Linux",
    "alma": "AlmaLinux",
    "centos": "CentOS",
    "oracle": "Oracle Linux",
    "ubi": "Red Hat UBI",
    "alpine": "Alpine",
    "openeuler": "openEuler",
    "glibc": "glibc",
    "musl": "musl",
}
"""Group name → the name shown, in the order rows are listed."""

_NOT_VERSIONS = frozenset({"npu"})
"""Groups that name hardware, not a version (read by `npu_of`)."""

CODENAMES = {
    "bionic": "18.04",
    "focal": "20.04",
    "jammy": "22.04",
    "noble": "24.04",
    "oracular": "24.10",
    "plucky": "25.04",
    "buster": "10",
    "bullseye": "11",
    "bookworm": "12",
    "trixie": "13",
}
# PEP 599 / PEP 571 / PEP 513: the glibc each legacy manylinux policy requires
_LEGACY_MANYLINUX = {"2014": "2.17", "2010": "2.12", "1": "2.5"}
_MAX_REFERENCE = 512
"""Longer references are not read: Docker limits a tag to 128 characters and a name to 255 (the patterns
stay linear only on input of that size)."""
_DEFAULT_REGISTRIES = ("docker.io/", "index.docker.io/", "registry-1.docker.io/")

_NOTES = "https://docs.nvidia.com/deeplearning/frameworks/pytorch-release-notes/"
_NGC_PYTORCH: dict[str, tuple[dict[str, str], str]] = {
    # NGC release → (versions NVIDIA's release notes for it state, `_ITEMS` keys; the page read).
    # Only figures read in NVIDIA's own "PyTorch Release YY.MM" page: "The container also includes the
    # following: Ubuntu 18.04 including Python 3.6 …", "Release 25.12 is based on CUDA 13.1.0",
    # "PyTorch container image version 25.12 is based on 2.10.0a0+b4e4ee81d3", and the Python of the
    # environment PyTorch is installed in (`/usr/local/lib/python3.12/dist-packages/torch`). An item the
    # page read does not state is left out; a release not read is not here (its tag gives the release only).
    "19.03": ({"cuda": "10.1.105", "python": "3.6", "ubuntu": "16.04"}, _NOTES + "rel_19-03.html"),
    # 19.05: "NVIDIA CUDA 10.1 Update 1", no third number
    "19.05": ({"cuda": "10.1", "python": "3.6", "ubuntu": "16.04"}, _NOTES + "rel_19-05.html"),
    "19.10": ({"cuda": "10.1.243", "python": "3.6", "ubuntu": "18.04"}, _NOTES + "rel_19-10.html"),
    "20.02": (
        {"cuda": "10.2.89", "torch": "1.4.0a0+a5b4d78", "python": "3.6", "ubuntu": "18.04"},
        _NOTES + "rel_20-02.html",
    ),
    "20.06": ({"cuda": "11.0.167", "python": "3.6"}, _NOTES + "rel_20-06.html"),
    "25.12": (
        {"cuda": "13.1.0", "torch": "2.10.0a0+b4e4ee81d3", "python": "3.12"},
        _NOTES + "rel-25-12.html",
    ),
}
_NGC_PYTORCH_TAG = re.compile(r"(?P<ngc>\d\d\.\d\d)-py3(?:-igpu)?")
"""The tags of NGC's PyTorch container `_NGC_PYTORCH` describes: `24.08-py3`, `24.08-py3-igpu`."""


@dataclass(frozen=True)
class Reading:
    """One version a base image reference states."""

    name: str
    """The name shown (`CUDA`, `Ubuntu`)."""
    version: str
    """The version (`12.9.1`; `12 (bookworm)` for a codename)."""
    written: str
    """How the reference writes it (`12.9.1`, `cu129`, `bookworm`)."""
    in_name: bool
    """True when read from the repository name (`rocm/dev-ubuntu-22.04`), not the tag."""
    from_notes: bool = False
    """True when NVIDIA's release notes for the release the tag names state it (`_NGC_PYTORCH`)."""


def split_reference(ref: str) -> tuple[str, str | None]:
    """`[registry[:port]/]name[:tag][@digest]` → (name as pulled, lower-cased; tag or None)."""
    ref = ref.strip().split("@", 1)[0]
    slash = ref.rfind("/")
    colon = ref.rfind(":")
    tag = None
    if colon > slash:
        ref, tag = ref[:colon], ref[colon + 1 :]
    return image_name(ref.lower()), tag or None


def image_name(name: str) -> str:
    """The image repository as people write it (`docker.io/library/ubuntu` → `ubuntu`)."""
    for prefix in _DEFAULT_REGISTRIES:
        name = name.removeprefix(prefix)
    return name.removeprefix("library/")


def _names(name: str) -> list[str]:
    """`name`, and `name` without a registry host when it has one (a mirror of a Docker Hub image)."""
    first, sep, rest = name.partition("/")
    if sep and ("." in first or ":" in first or first == "localhost"):
        return [name, rest.removeprefix("library/")]
    return [name]


@lru_cache(maxsize=1)
def _words() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{pattern})" for pattern in _WORDS), re.IGNORECASE)


def _read_words(ref: str) -> tuple[Reading, ...]:
    """The versions the words of the tag of `ref`, an image of no known family, state (see `_WORDS`);
    each item once: a tag that names one twice (`cu124-…-cu126`) says nothing sure of it."""
    _, tag = split_reference(ref)
    if not tag:
        return ()
    found: dict[str, Reading | None] = {}
    for word in re.split(r"[-_]", tag):
        read = _word_reading(word)
        if read is not None:
            item, reading = read
            found[item] = None if item in found else reading
    return tuple(r for item in _ITEMS if (r := found.get(item)) is not None)


def _word_reading(word: str) -> tuple[str, Reading] | None:
    """(item, reading) of one word of `_WORDS` (`rocm6.4.3`, `cu124`), whole; None for any other."""
    match = _words().fullmatch(word)
    if match is None:
        return None
    for group, text in match.groupdict().items():
        if text is None:
            continue
        item, _, how = group.partition("__")
        version = _convert(how, text)
        if version is not None:
            return item, Reading(_ITEMS[item], version, text, False)
    return None


def read_word(word: str) -> Reading | None:
    """The version a component's name glued to it states, as image tags write them and READMEs too
    (`rocm3.3` is ROCm 3.3, `cuda11.8` and `cu118` CUDA 11.8, `py3.10` Python 3.10, `torch2.4` PyTorch
    2.4): the words of `_WORDS`; None for any other word."""
    read = _word_reading(word)
    return read[1] if read is not None else None


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[re.Pattern[str], re.Pattern[str] | None], ...]:
    return tuple(
        (re.compile(repo, re.IGNORECASE), re.compile(tag, re.IGNORECASE) if tag else None)
        for repo, tag in _FAMILIES
    )


def _match(ref: str) -> tuple[re.Match[str], re.Match[str] | None] | None:
    """The family pattern matches for `ref`: (repository match, tag match or None), or None."""
    if "$" in ref or len(ref) > _MAX_REFERENCE:
        return None  # an unknown part: nothing can be read for sure; or not a reference Docker takes
    name, tag = split_reference(ref)
    for candidate in _names(name):
        for repo, tag_pattern in _compiled():
            found = repo.fullmatch(candidate)
            if found is None:
                continue
            tag_match = tag_pattern.fullmatch(tag) if tag_pattern is not None and tag else None
            return found, tag_match
    return None


def _convert(how: str, text: str) -> str | None:
    """What a group's text means as a version; None when docgen does not know."""
    low = text.lower()
    if how == "":
        return text
    if how == "codename":
        number = CODENAMES.get(low)
        return f"{number} ({low})" if number else None
    if how == "cu":  # cu129 → 12.9, cu118 → 11.8
        return f"{int(text[:-1])}.{text[-1]}"
    if how == "yymm":  # ubuntu2404 → 24.04
        return f"{text[:2]}.{text[2:]}"
    if how == "nodot":  # py310 → 3.10
        return f"{text[0]}.{text[1:]}"
    if how == "digits":  # rocm630 → 6.3.0
        return ".".join(text)
    if how == "underscore":  # manylinux_2_28 → 2.28
        return text.replace("_", ".")
    if how == "legacy":
        return _LEGACY_MANYLINUX.get(low)
    raise ValueError(f"unknown conversion {how!r}")  # a mistake in _FAMILIES


def ngc_pytorch(ref: str) -> tuple[Reading, ...]:
    """The versions NVIDIA's release notes give for the NGC PyTorch container `ref`
    (`nvcr.io/nvidia/pytorch:25.12-py3`, with or without a digest), from `_NGC_PYTORCH`; () for another
    image, another tag, or a release docgen has no notes of. Each is written as the release (`25.12`):
    the tag states the release, the notes the rest."""
    name, tag = split_reference(ref)
    found = _NGC_PYTORCH_TAG.fullmatch(tag or "") if name == "nvcr.io/nvidia/pytorch" else None
    if found is None or found["ngc"] not in _NGC_PYTORCH:
        return ()
    release = found["ngc"]
    versions = _NGC_PYTORCH[release][0]
    return tuple(
        Reading(_ITEMS[item], versions[item], release, False, from_notes=True)
        for item in _ITEMS
        if item in versions
    )


@lru_cache(maxsize=1024)
def read_reference(ref: str) -> tuple[Reading, ...]:
    """The versions image reference `ref` states (after ARG expansion), in `_ITEMS` order; () for an
    image family docgen does not know, a tag its pattern does not match, or a reference with an
    unknown part (`${BASE}`). Remembered per reference: a Dockerfile of many stages names a few images
    many times (reading each anew made the Key versions of 20,000 stages 3× as slow)."""
    if "$" in ref or len(ref) > _MAX_REFERENCE:
        return ()  # an unknown part: nothing can be read for sure; or not a reference Docker takes
    found = _match(ref)
    if found is None:
        return _read_words(ref)
    readings: dict[str, Reading] = {}
    for match, in_name in ((found[0], True), (found[1], False)):
        if match is None:
            continue
        for group, text in match.groupdict().items():
            item, _, how = group.partition("__")
            if text is None or item in _NOT_VERSIONS or item in readings:
                continue
            version = _convert(how, text)
            if version is not None:
                readings[item] = Reading(_ITEMS[item], version, text, in_name)
    if found[1] is not None:  # the words of a tag the pattern matched: `v0.8.1-th2.6.0-cu124`
        for reading in _read_words(ref):
            readings.setdefault(_item_of(reading.name), reading)
    for reading in ngc_pytorch(ref):  # what NVIDIA's release notes say the release holds
        readings.setdefault(_item_of(reading.name), reading)
    return tuple(readings[item] for item in _ITEMS if item in readings)


_DISTRIBUTION_DEFAULTS: dict[tuple[str, str], dict[str, str]] = {
    # (`_ITEMS` key of the distribution, its major release) → the release of the Python its `python3`
    # package installs and the major version of the compiler its `gcc` package depends on. From the
    # distributions' own package lists (packages.ubuntu.com, packages.debian.org, the AppStream of
    # RHEL 8 and 9, which Rocky Linux, AlmaLinux and UBI rebuild): `python3` on jammy is 3.10.x, `gcc`
    # on bookworm is gcc-12. Only the releases read there are here; any other says nothing.
    ("ubuntu", "16.04"): {"python": "3.5", "gcc": "5"},
    ("ubuntu", "18.04"): {"python": "3.6", "gcc": "7"},
    ("ubuntu", "20.04"): {"python": "3.8", "gcc": "9"},
    ("ubuntu", "22.04"): {"python": "3.10", "gcc": "11"},
    ("ubuntu", "24.04"): {"python": "3.12", "gcc": "13"},
    ("debian", "10"): {"python": "3.7", "gcc": "8"},
    ("debian", "11"): {"python": "3.9", "gcc": "10"},
    ("debian", "12"): {"python": "3.11", "gcc": "12"},
    ("debian", "13"): {"python": "3.13", "gcc": "14"},
    ("rocky", "8"): {"python": "3.6", "gcc": "8"},
    ("rocky", "9"): {"python": "3.9", "gcc": "11"},
    ("alma", "8"): {"python": "3.6", "gcc": "8"},
    ("alma", "9"): {"python": "3.9", "gcc": "11"},
    ("ubi", "8"): {"python": "3.6", "gcc": "8"},
    ("ubi", "9"): {"python": "3.9", "gcc": "11"},
}
_PLAIN_ITEMS = frozenset({"cuda", "cudnn", "rocm"})
"""What an image may say of itself besides its distribution and still carry only the distribution's
Python and compiler (`nvidia/cuda`, `rocm/dev-ubuntu-22.04`); an image that names a Python, a PyTorch
or a release of its own (`python:3.11-bookworm`, `rocm/pytorch:…`, an NGC container) has its own."""


@dataclass(frozen=True)
class Distribution:
    """The distribution release a base image is, and what its default packages install."""

    name: str
    """As shown: `Ubuntu 22.04`, `Debian 12`, `Rocky Linux 9`."""
    python: str
    """The Python release of its `python3` package (`3.10`)."""
    gcc: str
    """The major version of the compiler of its `gcc` and `g++` packages (`11`)."""


def distribution(ref: str) -> Distribution | None:
    """The distribution release image `ref` (after ARG expansion) is, when it is one of
    `_DISTRIBUTION_DEFAULTS` and carries nothing of its own but CUDA or ROCm: `ubuntu:22.04`,
    `debian:bookworm-slim`, `nvidia/cuda:12.4.1-devel-ubuntu22.04`, `rocm/dev-ubuntu-22.04:6.4.1`,
    `rockylinux:9.3`. None for an image of no known family (a project's own, whose tag may say
    `ubuntu22.04` over a conda install), for one that names its own Python, PyTorch or release, and
    for a release not in the table."""
    if _match(ref) is None:
        return None
    found = [(_item_of(r.name), r) for r in read_reference(ref)]
    systems = [(item, r) for item, r in found if item not in _PLAIN_ITEMS]
    if len(systems) != 1:
        return None
    item, reading = systems[0]
    number = reading.version.split(" ", 1)[0]
    release = number if item == "ubuntu" else number.split(".", 1)[0]
    defaults = _DISTRIBUTION_DEFAULTS.get((item, release))
    if defaults is None:
        return None
    return Distribution(f"{reading.name} {release}", defaults["python"], defaults["gcc"])


def stage_cuda(stages: Sequence[Stage], index: int) -> tuple[str, Stage] | None:
    """The CUDA release the base image of stage `index` (or of the stage it builds on) names in its
    tag (`nvidia/cuda:12.6.3-devel-…`, `pytorch/pytorch:2.7.1-cuda12.6-…`), with the stage whose FROM
    names it; None when it names none."""
    seen = 0
    stage = stages[index]
    while stage.parent is not None and seen < len(stages):
        stage, seen = stages[stage.parent], seen + 1
    release = next((r.version for r in read_reference(stage.base) if r.name == "CUDA"), None)
    return (release, stage) if release is not None else None


def _item_of(name: str) -> str:
    """The `_ITEMS` key of the name shown."""
    return next(item for item, shown in _ITEMS.items() if shown == name)


_ENVIRONMENT = {"nvidia/cuda": {"CUDA_VERSION": "cuda"}}
"""ENV a well-known image family sets from what its tag says: every `nvidia/cuda` image sets
`CUDA_VERSION` to the CUDA release of its tag (`12.9.1`), which RUN tests read (`if [ "$CUDA_VERSION"
= "13.0.1" ]`) when no ARG of the stage declares it."""


def environment(ref: str) -> dict[str, str]:
    """The ENV image `ref` (after ARG expansion) sets that its tag tells (`_ENVIRONMENT`); {} for the
    others, and for a tag that does not say the version whole (`nvidia/cuda:12.9-…` is no release)."""
    names = _names(image_name(split_reference(ref)[0]))
    wanted = next((_ENVIRONMENT[name] for name in names if name in _ENVIRONMENT), None)
    if not wanted:
        return {}
    readings = {reading.name: reading for reading in read_reference(ref) if not reading.in_name}
    found = {}
    for env, item in wanted.items():
        reading = readings.get(_ITEMS[item])
        if reading is not None and re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", reading.written):
            found[env] = reading.written
    return found


_FLAVOURS = {
    "nvidia/cuda": frozenset({"base", "runtime", "devel"}),
    "nvidia/cudagl": frozenset({"base", "runtime", "devel"}),
}
"""Image families whose every tag that names a distribution names a flavour too: NVIDIA publishes
`nvidia/cuda:9.0-devel-ubuntu16.04`, `9.0-runtime-ubuntu16.04` and `9.0-base-ubuntu16.04`, no
`9.0-ubuntu16.04`."""


def flavours(repository: str) -> frozenset[str]:
    """The flavour words every tag of `repository` naming a distribution carries (`_FLAVOURS`: `devel`,
    `runtime`, `base` for `nvidia/cuda`, also under `nvcr.io/`); empty for another repository."""
    names = _names(image_name(repository.lower()))
    return next((_FLAVOURS[name] for name in names if name in _FLAVOURS), frozenset())


_SEVERAL_DISTRIBUTIONS = {
    "nvidia/cuda": ("Ubuntu", "CentOS", "Rocky Linux", "Red Hat UBI", "Oracle Linux"),
    "nvidia/cudagl": ("Ubuntu", "CentOS"),
    "nvidia/opencl": ("Ubuntu", "CentOS"),
}
"""Image repositories that publish images of several distributions, one distribution a tag
(`nvidia/cuda:12.4.1-devel-ubuntu22.04`, `…-rockylinux9`), → the distributions, as shown."""


def floating_distributions(ref: str) -> tuple[str, ...]:
    """The distributions (as shown) the image `ref` (as written) may be, when it is a repository of
    `_SEVERAL_DISTRIBUTIONS` at a floating tag (`latest`, no tag): which distribution and release such
    a tag holds is the publisher's choice of the day, and nothing in the Dockerfile pins it. Empty for
    a tag naming one (`…-ubuntu22.04`), a digest, a build arg, another repository."""
    if "$" in ref or "@" in ref:
        return ()
    name, tag = split_reference(ref)
    if tag not in (None, "latest"):
        return ()
    names = _names(image_name(name.lower()))
    return next((_SEVERAL_DISTRIBUTIONS[n] for n in names if n in _SEVERAL_DISTRIBUTIONS), ())


_FLOATING_STACKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"rocm/pytorch(?:-nightly|-training)?", ("ROCm", "PyTorch")),
    (r"rocm/vllm(?:-dev)?", ("ROCm", "PyTorch", "vLLM")),
    (r"rocm/dev-[\w.-]+|rocm/rocm-terminal", ("ROCm",)),
    (r"pytorch/pytorch", ("PyTorch", "CUDA")),
    (r"tensorflow/tensorflow", ("TensorFlow",)),
    (r"vllm/vllm-openai(?:-rocm)?", ("vLLM",)),
    (r"lmsysorg/sglang", ("SGLang",)),
)
"""Image repositories whose tags name the release of what they carry (`rocm/pytorch:rocm6.4_…_pytorch_
release_2.6.0`, `vllm/vllm-openai:v0.9.1`) → those components, as shown: at a floating tag the image holds the
releases of the day."""
_FLOATING_TAG = re.compile(r"(?:latest|nightly)(?:[-_][a-z0-9]+)*", re.IGNORECASE)
"""A tag a publisher moves to each new release: `latest`, `latest-gpu`, `nightly` (no tag is `latest`)."""


def floating_releases(ref: str) -> tuple[str, ...]:
    """The components (as shown) whose release the image `ref` (as written) leaves to the day it is
    pulled: a repository of `_FLOATING_STACKS` at a floating tag (`rocm/pytorch:latest` → ROCm, PyTorch;
    `FROM tensorflow/tensorflow` → TensorFlow). Empty for a tag naming a release, a digest, a build arg,
    another repository."""
    if "$" in ref or "@" in ref:
        return ()
    name, tag = split_reference(ref)
    if tag is not None and not _FLOATING_TAG.fullmatch(tag):
        return ()
    names = _names(image_name(name.lower()))
    return next((stack for pattern, stack in _FLOATING_STACKS for n in names if re.fullmatch(pattern, n)), ())


def npu_of(ref: str) -> str | None:
    """The Ascend NPU an image reference is built for (`910b`, `a3`, `310p` in a CANN tag), or None."""
    found = _match(ref)
    if found is None or found[1] is None:
        return None
    return found[1].groupdict().get("npu")


# --------------------------------------------------------------------------------------------------
# Rows of the Key versions table


def matching_key(ref: str, keys: Iterable[str]) -> str | None:
    """The entry of `keys` (image names, with or without a tag) that image `ref` is: one naming its
    tag exactly first, else one naming its repository without a tag; None when none does."""
    name, tag = split_reference(ref)
    by_name = None
    for key in keys:
        key_name, key_tag = split_reference(key)
        if key_name not in _names(name) and name not in _names(key_name):
            continue
        if key_tag is not None and key_tag == (tag or "latest"):
            return key
        if key_tag is None and by_name is None:
            by_name = key
    return by_name


_LITERAL_ARG = re.compile(r"\$\{[^{}]*\}|\$[A-Za-z_][A-Za-z0-9_]*")


def controlling_arg(
    written: str,
    raw: str,
    defaults: Mapping[str, str | None],
    raws: Mapping[str, str] | None = None,
    _seen: frozenset[str] = frozenset(),
) -> str | None:
    """The build arg that sets the part `written` of a FROM reference written `raw` (`${CUDA_VERSION}`
    for `12.9.1`), or None when `raw` writes it literally (the value is fixed at that line).

    `defaults` are the values of the global build args (FROM reads only those) and `raws` their
    defaults as written. Of the args `raw` reads, the first whose value holds `written` is the one,
    or deeper, the arg its own default reads it from (`ARG FINAL_BASE_IMAGE=nvidia/cuda:${CUDA_VERSION}-…`
    makes CUDA `CUDA_VERSION`'s, Ubuntu `FINAL_BASE_IMAGE`'s); failing that, the first arg read."""
    pattern = re.compile(rf"(?<![0-9.]){re.escape(written)}(?![0-9])", re.IGNORECASE)
    if pattern.search(_LITERAL_ARG.sub(" ", raw)):
        return None
    used = sorted((n for n in referenced_names(raw) if n in defaults), key=lambda n: (raw.find(n), n))
    for name in used:
        if pattern.search(defaults[name] or ""):
            inner = (raws or {}).get(name)
            if inner and name not in _seen:
                deeper = controlling_arg(written, inner, defaults, raws, _seen | {name})
                if deeper is not None:
                    return deeper
            return name
    return used[0] if used else None


def image_rows(
    ref: str,
    raw: str,
    line: int,
    defaults: Mapping[str, str | None],
    provides: Mapping[str, Mapping[str, str]],
    config_file: str | None,
    produced: Mapping[str, tuple[VersionRow, ...]],
    raws: Mapping[str, str] | None = None,
) -> list[VersionRow]:
    """The Key versions rows base image `ref` (written `raw` on FROM line `line`) brings, most
    authoritative first: the rows of the configured Dockerfile that builds it (`produced`, keyed by
    image name), the versions the configuration declares for it (`provides`, from `config_file`),
    then what its reference states (`read_reference`), each with the build arg that sets it
    (`controlling_arg`, from the global args' values `defaults` and defaults as written `raws`)."""
    rows: list[VersionRow] = []
    key = matching_key(ref, produced)
    if key is not None:
        rows += produced[key]
    key = matching_key(ref, provides)
    if key is not None:
        for name, version in provides[key].items():
            rows.append(VersionRow(name, version, ref, line, None, "config", config_file))
    for reading in read_reference(ref):
        arg = controlling_arg(reading.written, raw, defaults, raws)
        origin = "name" if reading.in_name else "release-notes" if reading.from_notes else "tag"
        rows.append(VersionRow(reading.name, reading.version, ref, line, arg, origin))
    return rows
