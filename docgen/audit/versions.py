"""Names and versions compared: a component's name normalised (`Megatron-core` = `megatron_core`),
two versions (`v0.18.0` = `0.18.0`, `12.4` agrees with `12.4.1`), a requirement (`>=2.4`), a build arg's
default as a README writes it, and the versions an image tag states (`…_pytorch_release_2.4.0`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from docgen.model import ArgDecl
from docgen.rows import VERSION_ARG as _VERSION_ARG
from docgen.rows import display_name
from docgen.sources.naming import SAME_PROJECT

ALIASES = SAME_PROJECT


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def raw_name(name: str) -> str:
    """`name` in lower case with everything but letters and digits removed."""
    return _NON_ALNUM.sub("", name.lower())


def norm(name: str) -> str:
    """`Megatron-core`, `megatron_core` and `Megatron Core` all become `megatroncore`."""
    key = raw_name(name)
    return ALIASES.get(key, key)


def name_keys(name: str, names: Mapping[str, str]) -> set[str]:
    """The normalised keys a name is known by: as written, and its display name (config or well known)."""
    keys = {norm(name), norm(display_name(name, names))}
    dashed = re.sub(r"[\s_]+", "-", name.strip().lower())
    keys.add(norm(display_name(dashed, names)))
    keys.discard("")
    return keys


HEX = re.compile(r"[0-9a-f]{7,40}\Z")
_EPOCH = re.compile(r"\d{1,4}:(?=\d)")
"""A Debian epoch: `1:2.34.1-1ubuntu1.10` is git 2.34.1 (the revision after `-` is the packaging's)."""
RELEASE = re.compile(r"\d+(?:\.\d+)*")


def is_commit(value: str) -> bool:
    return bool(HEX.match(value.lower())) and not value.isdigit()


_REF_PREFIX = re.compile(r"[A-Za-z]+(?:[-_/][A-Za-z]+)*[-_/][vVrR]?(?=\d)|[vV](?=\d)")
_CALENDAR = re.compile(r"(?:(?:1[7-9]|[23]\d)\.(?:0[1-9]|1[0-2])|1[0-6]\.0[1-9])(?!\d)")
"""A calendar version (`25.04`, an NGC release; `16.04`, an Ubuntu release: a month written with its
`0`, which no semantic version has), compared only with another one."""


def strip_v(value: str) -> str:
    """The version in a tag or branch: `0.18.0` for `v0.18.0`, `core_r0.13.0` or `release/0.18.0`."""
    prefix = _REF_PREFIX.match(value)
    return value[prefix.end() :] if prefix else value


def same_version(claim: str, fact: str, exact: bool = False) -> bool | None:
    """True when `claim` agrees with `fact`, False when it disagrees, None when they cannot be compared.

    `v0.18.0` equals `0.18.0` and `core_r0.18.0`; a short commit equals the long one it starts; a
    release agrees with a longer or shorter release it is a prefix of (`12.4` and `12.4.1`, `0.16` and
    `0.16.0`), whatever follows it (`2.9.1` and `2.9.1.dev20251204+rocm7.0.2`, `9.1.0.70-1`). A
    calendar version (`25.04`, an NGC container) and a semantic one (`2.7.0`) cannot be compared. An
    `exact` fact (a `==` pin, not a version read off an image tag) is all there is: a claim adding a
    post- or dev release to it (`2.7.1.post4` for `torch-npu==2.7.1`) disagrees.
    """
    a, b = (strip_v(_EPOCH.sub("", v.strip())).lower() for v in (claim, fact))
    if a == b:
        return True
    if is_commit(a) or is_commit(b):
        if is_commit(a) and is_commit(b):
            return a.startswith(b) or b.startswith(a)
        return None
    ra, rb = RELEASE.match(a), RELEASE.match(b)
    if not ra or not rb or bool(_CALENDAR.match(a)) != bool(_CALENDAR.match(b)):
        return None
    ta = release_tuple(ra.group())
    tb = release_tuple(rb.group())
    shorter = min(len(ta), len(tb))
    return ta[:shorter] == tb[:shorter] and _same_suffix(a, b, exact)


def _same_suffix(a: str, b: str, exact: bool = False) -> bool:
    """False when two versions whose releases agree are different pre-, post- or dev releases by
    `packaging.version` (`0.8.5.post1` and `0.8.5.post2`, `2.7.1rc1` and `2.7.1`), but for a source
    build of the other's release (`2.7.0a0+gitbfd8155` and `2.7.0`); True when one only
    omits what the other adds (`0.8.5` for `0.8.5.post1`, `2.7.1` for `2.7.1+cu126`) or either does not
    parse (`9.1.0.70-1`, a Debian revision); with an `exact` fact `b`, `a` may not add one either, nor
    differ from an unparsed `b` by a pre-release word alone (`7.0.RC1.3.beta1` for `7.0.RC1.3`)."""
    try:
        va, vb = Version(a), Version(b)
    except InvalidVersion:
        return not (exact and pre_release_apart(a, b))
    if len(va.release) == len(vb.release) and va.pre != vb.pre:
        # `2.7.0` for `2.7.0a0+gitbfd8155`: a source build of the release (PyTorch's scheme)
        return (va.pre is None and _source_build(vb)) or (vb.pre is None and _source_build(va))
    added = (va.post is not None and vb.post is None) or (va.dev is not None and vb.dev is None)
    if exact and added and len(va.release) == len(vb.release):
        return False
    return all(x is None or y is None or x == y for x, y in ((va.post, vb.post), (va.dev, vb.dev)))


_PARTS = re.compile(r"[a-z]+|\d+")
_PRE_WORDS = frozenset({"a", "alpha", "b", "beta", "c", "rc", "pre", "preview", "dev"})


def version_parts(version: str) -> list[str]:
    """The words and numbers of a version, lower case (`7.0.RC1.3.beta1`: 7 0 rc 1 3 beta 1)."""
    return _PARTS.findall(strip_v(version).lower())


def pre_release_apart(claim: str, fact: str) -> bool:
    """True when a claimed version `packaging.version` does not read (Huawei's `7.0.RC1.3.beta1`) is the
    fact's release, part for part, and then a pre-release word (`7.0.RC1.3.beta1` for `7.0.RC1.3`): the
    beta of that release is not the release. A claim leaving out what the fact adds (`8.2` for
    `8.2.rc1-x1-ubuntu22.04`) or only saying more of it (`7.0.RC1.3` of `7.0rc1`) is not apart."""
    said, have = version_parts(claim), version_parts(fact)
    return len(have) < len(said) and said[: len(have)] == have and said[len(have)] in _PRE_WORDS


def finer_than(claim: str, fact: str) -> bool:
    """True when `claim` says all of `fact` and more, part for part (`7.0.RC1.3.beta1` of `7.0rc1`)."""
    pc, pf = version_parts(claim), version_parts(fact)
    return len(pf) < len(pc) and pc[: len(pf)] == pf


def _source_build(version: Version) -> bool:
    """True for the version a source build of a release reports: `a0` and a local label
    (`2.7.0a0+gitbfd8155`, `0.22.0a0+7a0c5e1`), as PyTorch, torchvision and torchaudio built from a
    release tag do; not a published alpha (`2.7.0a1`, `2.7.0a0` without a label)."""
    return version.pre == ("a", 0) and version.local is not None


def release_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def satisfies(operator: str, claim: str, fact: str, exact: bool = False) -> bool | None:
    """Whether `fact` satisfies the requirement `operator claim` (`>=2.4`), None when unknowable."""
    if operator in ("==", "==="):
        return same_version(claim, fact, exact)
    if is_commit(fact):
        return None
    coarse, fine = RELEASE.match(strip_v(fact)), RELEASE.match(strip_v(claim))
    if coarse and fine and coarse.end() == len(strip_v(fact)):
        have, want = release_tuple(coarse.group()), release_tuple(fine.group())
        if len(have) < len(want) and want[: len(have)] == have:
            return None  # `cudnn7` in a tag against `cuDNN 7.6+`: the tag does not tell the minor
    try:
        public = Version(strip_v(fact)).base_version
        return SpecifierSet(f"{operator}{strip_v(claim)}").contains(public, prereleases=True)
    except (InvalidVersion, InvalidSpecifier):
        return None


def shown_version(version: str | None, display: str) -> str:
    """A dev or local build (`2.9.1.dev20251204+rocm7.0.2…`) as its public release, like Key versions."""
    if version:
        try:
            parsed = Version(version)
        except InvalidVersion:
            return display
        if parsed.is_devrelease or parsed.local:
            return parsed.base_version
    return display


def tag_versions(tag: str) -> list[tuple[str, str]]:
    """What an image tag says of other components: `rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.4.0`
    is ROCm 6.3, Ubuntu 22.04, Python 3.10 and PyTorch 2.4.0; `12.4.1-devel-ubuntu22.04` is Ubuntu 22.04.
    Versions without a dot (`py3`, `rocm630`, `20250923`) are too terse to compare and left out."""
    found: list[tuple[str, str]] = []
    word = ""
    for token in re.split(r"[-_]+", tag.lower()):
        glued = re.fullmatch(r"([a-z]+)(\d+(?:\.\d+)+[a-z0-9.]*)", token)
        cuda = CUDA_TAG.fullmatch(token)
        if cuda:
            found.append(("cuda", f"{int(cuda.group(1))}.{cuda.group(2)}"))
        elif glued:
            found.append((glued.group(1), glued.group(2)))
        elif re.fullmatch(r"\d+(?:\.\d+)+", token) and word:
            found.append((word, token))
        if token.isalpha() and token not in ("release", "version", "v", "r"):
            word = token
        elif not token.isalpha():
            word = ""
    return found


def tag_named(tag: str, names: Mapping[str, str]) -> set[str]:
    """The keys of the components an image tag gives a version of their own, glued (`torch260`,
    `py3.11`, `cu1281`) or after their name (`pytorch_release_2.4.0`): the tag's leading version
    (`1.3.1-cu1281-torch260-…`, the image's own release) is not theirs, even when the image's name is
    one of them (`runpod/pytorch`)."""
    found = {key for name, _ in tag_versions(tag) for key in name_keys(name, names)}
    for token in re.split(r"[-_]+", tag.lower()):
        if CUDA_TAG.fullmatch(token):
            found |= name_keys("cuda", names)
        elif glued := re.fullmatch(r"([a-z]{2,})v?\d[\d.]*", token):
            found |= name_keys(glued.group(1), names)
    return found


_IPV4 = re.compile(r"(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)")
_PORT_OR_PREFIX = re.compile(r"(?::\d{1,5}|/\d{1,2})(?![\w.])")
_LISTEN = re.compile(r"0\.0\.0\.0|127\.\d{1,3}\.\d{1,3}\.\d{1,3}")


def is_address(value: str, after: str) -> bool:
    """True when `value`, followed by the text `after`, is an IPv4 address and no version: one with a
    port or a prefix length after it (`127.0.0.1:9090`, `10.0.0.0/8`), or one a server listens on
    (`0.0.0.0`, `127.0.0.1`). Four numbers alone are a version (`8.9.7.29`, a cuDNN release)."""
    if not _IPV4.fullmatch(value):
        return False
    return bool(_PORT_OR_PREFIX.match(after) or _LISTEN.fullmatch(value))


DIGITS = re.compile(r"\d+")
_VERSION_RUN = re.compile(r"\d+(?:\.[0-9A-Za-z]+)+|(?<![A-Za-z])\d+")
"""A version in a tag: dotted (`8.3.rc2`, the `22.04` of `ubuntu22.04`), or digits not glued to a word
(`20250923`, the `910` of `910b`); `x1`, `py3` and `cu129` name a variant, not a release."""


def skeleton(tag: str) -> str:
    """An image tag with each version replaced by `0`: `8.3.rc2-910b-ubuntu22.04-py3.11` and
    `9.0.0-910b-ubuntu22.04-py3.11` are both `0-0b-ubuntu0-py0` (one image, another release),
    `9.0.0-a3-ubuntu22.04-py3.11` is `0-a3-ubuntu0-py0` (another variant)."""
    return _VERSION_RUN.sub("0", tag)


TAG_VERSION = re.compile(r"[vV]?\d")
"""An image tag that is a version (`6.4.1-complete`, `v0.10.1`, `25.04-py3`), not a name (`base-v2-…`)."""
CUDA_TAG = re.compile(r"cu(1[0-9])([0-9])")
"""`cu126` in a tag or wheel name: CUDA 12.6 (PyTorch's spelling; `cu130` is 13.0)."""


def _list_items(value: str) -> list[str]:
    return [item for item in re.split(r"[;,|\s]+", value) if item]


_LATEST = frozenset({"latest", "newest", "most recent", "the latest", "latest version", "latest release"})
"""How a README says a version arg with an empty default pins nothing (`TF_VERSION` | `latest` for
`ARG TF_VERSION=`, used as `tensorflow${TF_VERSION:+==${TF_VERSION}}`)."""


_ELIDED = re.compile(r"(?:\.\.\.|…)\Z")
"""The end of a value a README shortens (`86f7292...`, `https://example.org/…`)."""


def same_default(claim: str, decls: list[ArgDecl]) -> bool:
    """True when the default a README claims (normalised, '' for none) agrees with one declaration, case
    aside (as `env_defaults.same` reads an ENV's: a README capitalising a word in a table names the same
    value, not another ref); a shortened claim (`86f7292...` for the full commit) agrees with a value it
    starts, the last part of a URL's path (`cu121`) with the URL."""
    elided = _ELIDED.search(claim)
    stem = claim[: elided.start()] if elided else ""
    for decl in decls:
        if claim == "" and decl.default is None and decl.effective_default is None:
            return True
        empty = not decl.effective_default and not decl.default
        if empty and claim.lower() in _LATEST and _VERSION_ARG.search(decl.name):
            return True  # `latest` for `ARG TF_VERSION=`: no pin, the newest is installed
        for value in (decl.effective_default, decl.default, decl.raw_default):
            if value is None:
                continue
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            if claim == value or (len(stem) >= 4 and value.startswith(stem)):
                return True
            if claim and claim.lower() == value.lower():
                return True  # `Master` for `master`, `ON` for `on`: the value, capitalised as prose writes it
            if claim and "/" not in claim and _url_leaf(value) == claim:
                return True  # `cu121` for `https://download.pytorch.org/whl/cu121`: the URL by its last part
            items = _list_items(value)
            if len(items) > 1 and sorted(_list_items(claim)) == sorted(items):
                return True  # `gfx942,gfx950` for `gfx942;gfx950`
            command = value[2:].rstrip(")").split()[:1] if value.startswith("$(") else []
            if command and command[0] in claim:
                return True  # `nproc` for `$(nproc)`
            single = len(items) == 1 and len(_list_items(claim)) == 1
            versioned = single and (is_commit(value) or strip_v(value)[:1].isdigit())
            if versioned and same_version(claim, value) is True and not _adds_tag_words(claim, value):
                return True  # `83f9e450` for the full commit, `0.15.1` for `v0.15.1`
    return False


_TAG_WORDS = re.compile(r"\d+(?:\.\d+)*-(?=[^-]*[A-Za-z])(.+)\Z")
"""A base image's tag: a release, then words after a `-` (`12.4.1-devel-ubuntu22.04`)."""


def _adds_tag_words(claim: str, value: str) -> bool:
    """True when `claim` and the default `value` are both image tags of one release (`_TAG_WORDS`)
    and the claim has a word the default does not (`12.4.1-cudnn-devel-ubuntu22.04` for
    `12.4.1-devel-ubuntu22.04`: another image); a claim that only leaves words out (`12.4.1-devel` for
    `12.4.1-devel-ubuntu22.04`) agrees."""
    said, fact = _TAG_WORDS.match(claim.lower()), _TAG_WORDS.match(value.lower())
    if said is None or fact is None:
        return False
    return not set(said.group(1).split("-")) <= set(fact.group(1).split("-"))


_URL_PATH = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#]+(/[^\s?#]*)")


def _url_leaf(value: str) -> str | None:
    """The last part of a URL's path (`cu121` of `https://download.pytorch.org/whl/cu121/`), None for a
    value that is no URL or has no path."""
    url = _URL_PATH.fullmatch(value)
    parts = [part for part in url.group(1).split("/") if part] if url else []
    return parts[-1] if parts else None


def shown_default(decl: ArgDecl) -> str:
    value = decl.effective_default if decl.effective_default is not None else decl.default
    if value is None:
        return "no default"
    return value if value else '""'


_ARG_SPELLING = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ _-]+[A-Za-z0-9]+)*\Z")
"""A name a README may write a build arg under: `INC_VERSION`, `mkl-ver`, `MKL Version`."""
_VERSION_WORD = re.compile(r"_(?:VERSION|VER|TAG|BRANCH|COMMIT|REF|SHA|REV|REVISION)\Z")
"""The word ending a build arg's name that says it picks a release; the kind it says is no guide (a
`*_BRANCH` often holds a tag or a commit), and a renamed arg keeps its stem (`AITER_BRANCH` →
`AITER_COMMIT`, `VLLM_TAG` → `VLLM_REF`)."""


@functools.lru_cache(maxsize=4096)
def _arg_stem(name: str) -> tuple[str, bool] | None:
    """A build arg's name with its case, spaces and dashes made one (`MKL Version` → `MKL_VERSION`),
    and its version or ref word dropped (`_VERSION_WORD`): (stem, whether it had one). `MKL_VER`,
    `MKL_VERSION` and `MKL_TAG` are `("MKL", True)`. None for what is no name."""
    if not _ARG_SPELLING.match(name.strip()):
        return None
    upper = re.sub(r"[ _-]+", "_", name.strip()).upper()
    stem = _VERSION_WORD.sub("", upper)
    return (stem, stem != upper) if stem else None


def one_slip(a: str, b: str) -> bool:
    """True when `a` and `b` differ by one letter added, dropped or changed, or two next to each other
    swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(differ) == 1 or (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and a[differ[0]] == b[differ[1]]
            and a[differ[1]] == b[differ[0]]
        )
    short, long = sorted((a, b), key=len)
    at = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[at:] == long[at + 1 :]


def differing(a: str, b: str) -> tuple[str, str]:
    """The parts of `a` and `b` between their longest common start and their longest common end after
    it: `("", "3")` for `anaconda` and `anaconda3`, `("kc", "ck")` for `dokcer` and `docker`."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    return a[start:end_a], b[start:end_b]


def near_args(name: str, declared: Collection[str]) -> list[str]:
    """The names of `declared` a README naming the build arg `name` may mean, when `name` is not one
    of them: the same stem with another version or ref word (`INC_VERSION` for `ARG INC_VER`,
    `AITER_BRANCH` for `ARG AITER_COMMIT`: the arg renamed), or the same
    name in other case, spaces or dashes (`MKL Version` for `MKL_VERSION`), sorted."""
    if name in declared:
        return []
    stem = _arg_stem(name)
    if stem is None:
        return []
    return sorted(other for other in declared if other != name and _arg_stem(other) == stem)


def near_names(name: str, declared: Collection[str]) -> list[str]:
    """The names of `declared` a README naming the variable `name` (no name of them) may mean: those
    `near_args` gives, and the same name with other case or separators (`venv_dir` for `VENVDir`),
    sorted."""
    if name in declared:
        return []
    same = {other for other in declared if raw_name(other) == raw_name(name) and other != name}
    return sorted(same.union(near_args(name, declared)))
