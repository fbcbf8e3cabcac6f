"""The base a sentence says the image is built on, against the images its FROM lines name: an image
repository (`based on the official rocm/pytorch image`) none of them is, or an operating system
(`This image is based on archlinux`) none of them can hold.

The other base-image claims (the same repository with another tag, a distribution's version) are
versions, compared in `versions`. Here only the name counts:

- a repository, in code, in a link or plain (`org/name`), said to be the image's base: a finding when
  no stage of an image compared starts from it, under any registry prefix, and no build arg's default
  names it;
- a distribution (Ubuntu, Debian, Alpine, Arch Linux, CentOS, Rocky, Fedora, AlmaLinux, openSUSE,
  Amazon Linux, openEuler): a finding when every stage's base is known to hold another one, because it
  is that distribution's own image (`ubuntu:22.04`) or its reference names one (`…-ubuntu22.04`,
  `rocm/dev-ubuntu-22.04`, `python:3.12-slim-bookworm`). A base whose reference names no distribution
  may hold any, and says nothing.

The sentence must be about the image (`image`, `container`, `Dockerfile` or `it` before the words, or
`image` right after the name) and say what it is (`based on`, `built on top of`, `built from`,
`derived from`, `extends`); advice, a condition, the past or a choice (`you can`, `if`, `was`,
`instead`, `or`) is not read (`likely`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.wording import is_example, line_at, sentences
from docgen.base_contents import family_name, is_plain
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.sources import naming

_BASED = re.compile(
    r"\b(?:(?:is|are)[ \t]+)?(?:based[ \t]+(?:up)?on|built[ \t]+(?:on[ \t]+top[ \t]+of|(?:up)?on|from)"
    r"|builds?[ \t]+on[ \t]+top[ \t]+of|starts?[ \t]+from|derived[ \t]+from|extends"
    r"|(?:an?[ \t]+)?modified[ \t]+version[ \t]+of)"
    r"[ \t]+(?:the[ \t]+|an?[ \t]+)?"
    r"(?:latest[ \t]+|official[ \t]+|upstream[ \t]+)*",
    re.IGNORECASE,
)
_USES = re.compile(
    r"\buses?[ \t]+(?:the[ \t]+|an?[ \t]+)?(?:latest[ \t]+|official[ \t]+|upstream[ \t]+)*", re.IGNORECASE
)
"""A sentence naming the base before saying it is one: `This image uses `rocm/pytorch` as its base`."""
_AS_BASE = re.compile(
    r"[ \t]*(?:(?:docker|container)[ \t]+)?(?:image[ \t]+)?as[ \t]+(?:its[ \t]+|the[ \t]+|a[ \t]+)?base\b",
    re.IGNORECASE,
)
_BASE_IMAGE = re.compile(r"[ \t]+(?:docker[ \t]+|container[ \t]+)?base[ \t]+image\b", re.IGNORECASE)
"""`base image` right after the name a sentence uses (`Uses the latest official `rocm/pytorch` base
image.`): the words say what the name is to the image, so the sentence needs no subject of its own."""
_HUB_PAGE = re.compile(r"hub\.docker\.com/(?:r/([\w.-]+/[\w.-]+)|_/([\w.-]+))", re.IGNORECASE)
"""A Docker Hub page of a repository (`https://hub.docker.com/r/rocm/pytorch`): a link to it names the
repository whatever its text says (`[ROCm PyTorch](…)`)."""
_SUBJECT = re.compile(r"\b(?:image|container|dockerfile|it)s?\b", re.IGNORECASE)
_NAMED = re.compile(
    r"\[`?([^\]`]{2,80})`?\]\(([^)\s]{1,300})\)"  # a link: its text, its target
    r"|`([^`\s]{2,120})`"  # code
    r"|\*\*([^*]{2,60})\*\*"  # bold
    r"|([A-Za-z][\w.-]*(?:/[\w.-]+)+(?::[\w.-]+)?|[A-Za-z][\w-]*(?:[ \t]+Linux)?)"  # a word or org/name
)
"""What follows `based on`: a link, code, bold or a plain word (`archlinux`, `Arch Linux`,
`rocm/pytorch`)."""
_IMAGE_AFTER = re.compile(
    r"\A[ \t]*(?:docker[ \t]+|base[ \t]+)?(?:container[ \t]+)?(?:image|container)\b", re.IGNORECASE
)
_REGISTRY_LINK = re.compile(r"hub\.docker\.com|ghcr\.io|nvcr\.io|catalog\.ngc|quay\.io|gallery\.ecr", re.I)
_NOT_A_CLAIM = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bwhen\b|\bunless\b|\byou[ \t]+(?:can|may|could|should)\b|\bcan[ \t]+be\b"
    r"|\binstead\b|\bwas\b|\bwere\b|\bused[ \t]+to\b|\bpreviously\b|\bformerly\b|\bor\b|\beither\b"
    r"|\byour\b|\bown\b|\bother\b|\bsuch[ \t]+as\b|\blike\b",
    re.IGNORECASE,
)
DISTROS: dict[str, str] = {
    "ubuntu": "ubuntu",
    "jammy": "ubuntu",
    "noble": "ubuntu",
    "focal": "ubuntu",
    "bionic": "ubuntu",
    "debian": "debian",
    "bookworm": "debian",
    "bullseye": "debian",
    "buster": "debian",
    "trixie": "debian",
    "alpine": "alpine",
    "archlinux": "arch",
    "arch": "arch",
    "centos": "centos",
    "rockylinux": "rocky",
    "rocky": "rocky",
    "fedora": "fedora",
    "almalinux": "alma",
    "opensuse": "opensuse",
    "amazonlinux": "amazon",
    "amazon": "amazon",
    "alma": "alma",
    "openeuler": "openeuler",
    "ubi": "rhel",
    "ubi8": "rhel",
    "ubi9": "rhel",
    "rhel": "rhel",
}
"""Words naming a distribution, in a claim or in an image reference, → the distribution."""
SHOWN = {
    "arch": "Arch Linux",
    "rhel": "Red Hat UBI",
    "alma": "AlmaLinux",
    "amazon": "Amazon Linux",
    "rocky": "Rocky Linux",
}
_REF_WORD = re.compile(r"[a-z]+")
_PRODUCTS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(rf"(?:the[ \t]+)?(?:{words})\b", re.IGNORECASE), repositories)
    for words, repositories in naming.BASE_PRODUCTS
)
"""Products a base image is named by in prose, compiled (`naming.BASE_PRODUCTS`, the one table)."""


def base_claims(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """The sentences of `part` naming a base (`_BASED`) that no image compared is built on. A
    repository of the README's own (`text` names another of its organisation: `mosaicml/composer`
    built on `mosaicml/pytorch`), or named like a stage of a Dockerfile (`pytorch_stage`), is one the
    project builds itself, in another stage or Dockerfile, and says nothing here."""
    for para in part.paragraphs:
        joined = " ".join(said for _, said in para.lines)
        if not _BASED.search(joined) and not _USES.search(joined):
            continue  # (most paragraphs)
        for start, _end, sentence in sentences(para.lines):
            # (each read once a sentence: a sentence of n claims costs n, not n²)
            refused = _NOT_A_CLAIM.search(sentence) is not None
            subject = _SUBJECT.search(sentence)  # the first: a claim needs one before it
            for uses in _USES.finditer(sentence):
                named = _NAMED.match(sentence, uses.end())
                if named is None or refused:
                    continue
                base_image = _BASE_IMAGE.match(sentence, named.end()) is not None
                said_of_it = subject is not None and subject.end() <= uses.start()
                if not base_image and (not _AS_BASE.match(sentence, named.end()) or not said_of_it):
                    continue
                line = line_at(para.lines, start + uses.start())
                finding = _named_claim(named, text, auditor, "latest" in uses.group().lower(), sentence)
                if finding is not None:
                    yield Diagnostic(auditor.path, line, finding, confidence=LIKELY)
            for based in _BASED.finditer(sentence):
                if is_example(sentence, based):
                    continue
                product = next((p for p in _PRODUCTS if p[0].match(sentence, based.end())), None)
                if product is None and refused:
                    continue
                if product is not None and (
                    _NOT_A_CLAIM.search(_clause(sentence, based, product[0])) or _ANYWHERE.search(sentence)
                ):
                    continue
                if product is not None:
                    line = line_at(para.lines, start + based.start())
                    yield from _product_claim(line, sentence, based, product, auditor)
                    continue
                named = _NAMED.match(sentence, based.end())
                if named is None:
                    continue
                after = sentence[named.end() :]
                link = named.group(2) or ""
                about_image = (
                    (subject is not None and subject.end() <= based.start())
                    or bool(_IMAGE_AFTER.match(after))
                    or bool(_REGISTRY_LINK.search(link))
                )
                if not about_image:
                    continue
                line = line_at(para.lines, start + based.start())
                latest = "latest" in based.group().lower()
                finding = _named_claim(named, text, auditor, latest, sentence)
                if finding is None and _EVERY.search(sentence, 0, based.start()):
                    finding = _every_claim(named, text, auditor)
                if finding is not None:
                    yield Diagnostic(auditor.path, line, finding, confidence=LIKELY)


_FAMILY = re.compile(r"[^/:\]]*?\bimages[ \t`*]*\]|[^/:\]]*\][ \t]*images\b", re.IGNORECASE)
"""A link's text in words (then `]`, then the words after the link) that says images, in the plural
(`official CUDA images]`, `CUDA] images`)."""


def _named_claim(
    named: re.Match[str], text: str, auditor: Auditor, latest: bool = False, sentence: str = ""
) -> str | None:
    """The finding's message for the base `named` (a `_NAMED` match) when no image compared may be built
    on it, or when it is said to be the newest (`latest`: the word before it, or its `:latest` tag)
    while every stage starting from its repository pins another tag (`_fixed_tag`), unless the
    `sentence` saying so gives a release that tag holds (`ROCm 7.1.1: uses the latest rocm/pytorch
    image` for `rocm7.1.1_…`: the newest when it was written, named); a link to a Docker Hub page names
    the page's repository whatever its text, but not a tag when the link is to the repository's images
    (`_FAMILY`): `Built on the latest [official CUDA images](https://hub.docker.com/r/nvidia/cuda)`
    praises recent releases of a family, and says no tag is `latest`."""
    hub = _HUB_PAGE.search(named.group(2) or "")
    name = (hub.group(1) or hub.group(2)) if hub is not None else None
    if name is None:
        name = next(g for g in (named.group(1), named.group(3), named.group(4), named.group(5)) if g)
    name = name.strip().strip("*_`").rstrip(".,;:")
    reference = _LINKED_IMAGE.fullmatch(named.group(2) or "")
    said = reference.group() if reference is not None else name
    if hub is not None and reference is None and _FAMILY.match(f"{named.group(1)}]{sentence[named.end() :]}"):
        latest = False  # `the latest [official CUDA images](…hub…/nvidia/cuda)`: recent releases, no tag
    if said.lower().endswith(":latest") or (latest and "/" in said):
        fixed = _fixed_tag(said, auditor.models)
        if fixed is not None and not _names_its_release(sentence, fixed):
            return f"README says the image is based on the latest {bare_repository(said)} but {fixed}"
    if "/" in name and ours(name, text, auditor.models) and not _names_a_sibling(name, auditor.models):
        return None
    finding = _compare(name, auditor.models)
    return f"README says the image is based on {finding}" if finding is not None else None


_EVERY = re.compile(
    r"\b(?:dockerfiles|images|containers)\b"
    r"|\b(?:all|every|each)[ \t]+(?:of[ \t]+)?(?:the[ \t]+|these[ \t]+|our[ \t]+)?"
    r"(?:docker[ \t]?files?|images?|containers?)\b",
    re.IGNORECASE,
)
"""The subject of a base claim about every Dockerfile of the README (`This repo contains Dockerfiles
that will start from the Nvidia/CUDAGL image`, `All images are based on …`)."""


def _every_claim(named: re.Match[str], text: str, auditor: Auditor) -> str | None:
    """The finding's message for a base `named` (a `_NAMED` match) said of every Dockerfile (`_EVERY`)
    that some audited Dockerfiles (of all the README's, `auditor.family`) start from while one starts
    from another image known not to be built on it (`_compare` of it alone): `tensorflow/tensorflow`,
    not a project's own image built from a sibling. None when none starts from it (`_named_claim` says
    so), or every one may."""
    family = auditor.family or auditor.models
    name = next(g for g in (named.group(1), named.group(3), named.group(4), named.group(5)) if g)
    name = name.strip().strip("*_`").rstrip(".,;:")
    if "/" not in name or " " in name or ours(name, text, family):
        return None
    apart = [(model, _compare(name, (model,))) for model in family]
    off = [(model, said) for model, said in apart if said is not None]
    if not off or len(off) == len(apart) or _compare(name, tuple(family)) is not None:
        return None
    model, said = off[0]
    others = f" (and {len(off) - 1} more)" if len(off) > 1 else ""
    return f"README says the Dockerfiles are based on {said}{others}"


_RELEASE = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.]*\d)")
"""A release written in prose (`7.1.1`, `12.4`)."""


def _names_its_release(sentence: str, fixed: str) -> bool:
    """True when `sentence` gives a release (`ROCm 7.1.1`) that the pinned tags `fixed` (the finding's
    text, `Dockerfile:2 says FROM rocm/pytorch:rocm7.1.1_…`) hold, not between digits."""
    return any(
        re.search(rf"(?<![\d.]){re.escape(release.group())}(?![\d])", fixed)
        for release in _RELEASE.finditer(sentence)
    )


_LINKED_IMAGE = re.compile(r"(?:[\w.-]+/)*[\w.-]+:latest", re.IGNORECASE)
"""A link whose target is an image reference at its `latest` tag rather than a page
(`[RAPIDS image](nvcr.io/nvidia/rapidsai/rapidsai:latest)`)."""


def _fixed_tag(reference: str, models: tuple[ImageModel, ...]) -> str | None:
    """`Dockerfile:1 says FROM repo:tag, a fixed tag` when every stage starting from the repository of
    `reference` (a base said to be the newest) names a tag other than `latest` in its FROM as written,
    an operating system's image as any other (`ubuntu:noble-20241118.1` is one snapshot, kept whatever
    `latest` becomes); None when one of them may be at `latest` (no tag, `latest`, a digest, a build
    arg) or none starts from it. The one reader of a base said to be the newest."""
    wanted = bare_repository(reference)
    same = [(m, s) for m in models for s in m.stages if s.parent is None and s.base]
    same = [(m, s) for m, s in same if bare_repository(s.base) == wanted]
    if not wanted or not same or any("$" in s.base_raw or _tag(s.base) in (None, "latest") for _, s in same):
        return None
    shown = ", ".join(f"{m.path}:{s.line} says FROM {s.base}" for m, s in same[:2])
    return f"{shown}, {'a fixed tag' if len(same) == 1 else 'fixed tags'}"


_ANYWHERE = re.compile(
    r"\bnot\b|n't\b|\bif\b|\bunless\b|\binstead\b|\bwas\b|\bwere\b|\bpreviously\b|\bformerly\b|\bor\b"
    r"|\beither\b",
    re.IGNORECASE,
)
"""Words that make a sentence naming a product as the base no claim wherever they are in it (a negation, a
condition, the past, a choice); the rest of `_NOT_A_CLAIM` counts only in the clause naming it (`_clause`)."""
_CLAUSE_END = re.compile(r"[,;:(]|[ \t](?:and|which|that|with|plus)\b", re.IGNORECASE)
"""Where the clause naming a base ends: `based on the NVIDIA PyTorch image and includes TensorFlow, Jax
and other libraries` says nothing of the base after `and` (`other` there is no choice of base)."""


def _clause(sentence: str, based: re.Match[str], pattern: re.Pattern[str]) -> str:
    """The sentence up to the end of the clause naming the product `pattern` matches after `based`: what
    may make it advice, a condition, the past or a choice (`_NOT_A_CLAIM`)."""
    named = pattern.match(sentence, based.end())
    start = named.end() if named is not None else based.end()
    end = _CLAUSE_END.search(sentence, start)
    return sentence[: end.start() if end is not None else len(sentence)]


def _product_claim(
    line: int,
    sentence: str,
    based: re.Match[str],
    product: tuple[re.Pattern[str], tuple[str, ...]],
    auditor: Auditor,
) -> Iterator[Diagnostic]:
    """A sentence saying the image is based on a product (`_PRODUCTS`: `based on the Intel oneAPI HPC
    Toolkit`) while every image compared starts from a distribution's image, or one whose reference
    names one (`ubuntu:24.04`, `nvidia/cuda:12.4.1-devel-ubuntu22.04`), that is none of the product's.
    A base that names no distribution (a build arg, the project's own image) may be built on it."""
    pattern, repositories = product
    named = pattern.match(sentence, based.end())
    if named is None:
        return
    after = sentence[named.end() :]
    if not (_SUBJECT.search(sentence, 0, based.start()) or _IMAGE_AFTER.match(after)):
        return
    bases = [(m, s) for m in auditor.models for s in m.stages if s.parent is None and s.base]
    if not bases or any("$" in s.base or distro_of(s.base) is None for _, s in bases):
        return
    if any(naming.is_product_image(bare_repository(s.base), repositories) for _, s in bases):
        return
    if any(
        r.rstrip("*") in (a.default or "").lower()
        for m in auditor.models
        for a in m.args
        for r in repositories
    ):
        return
    shown = ", ".join(f"{m.path}:{s.line} says FROM {s.base}" for m, s in bases[:2])
    name = named.group().strip()
    name = name[4:] if name.lower().startswith("the ") else name
    yield Diagnostic(
        auditor.path, line, f"README says the image is based on {name} but {shown}", confidence=LIKELY
    )


A_FILE = re.compile(r"dockerfile|containerfile|\A\.{0,2}/|\.(?:ya?ml|sh|py|json|toml|txt|md)\Z", re.I)
"""A path to a file of the project, not an image: `docker/Dockerfile.rocm`, `./base`, `ci/build.yml`."""
_ORG_IMAGE = re.compile(r"(?<![\w./-])([a-z0-9][\w.-]*/[a-z0-9][\w.-]*)(?=[:`\])\s]|$)", re.IGNORECASE)
"""An `org/name` reference in the README's text."""


@functools.lru_cache(maxsize=4)
def _org_images(text: str) -> frozenset[str]:
    """The `org/name` references of the README's `text`, lower case, read once an audit (`… on
    org/name.` without its stop)."""
    return frozenset(m.group(1).lower().rstrip(".") for m in _ORG_IMAGE.finditer(text))


def ours(name: str, text: str, models: tuple[ImageModel, ...]) -> bool:
    """True when the repository `name` is the project's own: another repository of its organisation is
    named in the README (`text`), or its last part is a word of a stage's name."""
    named = _org_images(text)
    repository = bare_repository(name)
    org, _, last = repository.rpartition("/")
    if any(n != repository and n.rpartition("/")[0] == org for n in named):
        return True
    words = {w for m in models for s in m.stages if s.name for w in re.split(r"[^a-z0-9]+", s.name)}
    return last in words


def _compare(name: str, models: tuple[ImageModel, ...]) -> str | None:
    """What the finding says of `name` (`archlinux but Dockerfile:1 starts FROM ubuntu:22.04`), None
    when an image may be built on it."""
    bases = [(m, s) for m in models for s in m.stages if s.parent is None and s.base]
    if not bases or any("$" in s.base for _, s in bases):
        return None
    shown = ", ".join(f"{m.path}:{s.line} says FROM {s.base}" for m, s in bases[:2])
    if "/" in name and " " not in name:
        if A_FILE.search(name):
            return None  # `built from docker/Dockerfile.rocm`: a file of the project
        if not _image_shaped(name):
            return None  # `based on nvidia/container-images/l4t-base`: a project path, no image
        wanted = bare_repository(name)
        if not wanted or any(bare_repository(s.base) == wanted for _, s in bases):
            return None
        if any(wanted in (a.default or "") for m in models for a in m.args):
            return None
        if any(_may_be_built_on(s.base, wanted) and not _org_sibling(s.base, wanted) for _, s in bases):
            return None
        return f"{name} but {shown}"
    words = name.lower().split()
    distro = DISTROS.get("".join(words[:2]).removesuffix("linux")) or DISTROS.get(words[0] if words else "")
    if distro is None:
        return None
    held = [distro_of(s.base) for _, s in bases]
    if any(h is None or h == distro for h in held):
        return None
    return f"{SHOWN.get(distro, name)} but {shown}"


def _org_sibling(base: str, wanted: str) -> bool:
    """True when the image `base` a FROM names and the repository `wanted` a README names are two
    images of one organisation, neither named as a variant of the other (`ismailbouajaja/cuda-python`
    and `ismailbouajaja/cuda-poetry`): the Dockerfile says which of the organisation's images it starts
    from, and it is not the one named. Not siblings: one whose name's words hold the other's
    (`org/base-cuda` may be built on `org/base`), a named one whose name says it is the organisation's
    bottom layer (`_FOUNDATION`: `org/l4t-base`, `org/base-notebook`), nor a known image's
    organisation (`nvidia/pytorch` is built on `nvidia/cuda`: `_may_be_built_on`)."""
    if family_name(base) is not None or is_plain(base):
        return False
    have, said = bare_repository(base), bare_repository(wanted)
    org, _, last = have.rpartition("/")
    said_org, _, said_last = said.rpartition("/")
    if not org or org != said_org or last == said_last:
        return False
    words, said_words = set(re.split(r"[^a-z0-9]+", last)), set(re.split(r"[^a-z0-9]+", said_last))
    if said_words & _FOUNDATION:
        return False  # `org/l4t-base` under `org/tegra-opencv`: the organisation's layer its others start on
    return not words <= said_words and not said_words <= words


_FOUNDATION = frozenset({"base", "core", "minimal"})
"""Words naming an organisation's bottom layer (`mdegans/l4t-base`, `jupyter/base-notebook`,
`org/minimal-notebook`): its other images are built on it, so a FROM naming one of those (`FROM
mdegans/tegra-opencv`) may stand on the base the README names."""


def _names_a_sibling(name: str, models: tuple[ImageModel, ...]) -> bool:
    """True when a stage of an image compared starts from another image of `name`'s organisation
    (`org_sibling`): the README's name, of the project's own organisation, is still comparable."""
    return any(_org_sibling(s.base, name) for m in models for s in m.stages if s.parent is None and s.base)


def _tag(reference: str) -> str | None:
    """An image reference's tag (`latest` for `ubuntu:latest`), None when it has none or a digest."""
    if "@" in reference:
        return None
    last = reference.rsplit("/", 1)[-1]
    return last.split(":", 1)[1].lower() if ":" in last else None


def _may_be_built_on(base: str, wanted: str) -> bool:
    """True when the image `base` may itself be built on the repository `wanted`: an image docgen does
    not know (`tano297/bonnet:cuda9-cudnn7`, a project's own, is built on `nvidia/cuda`), or a known
    one of the same GPU stack (`pytorch/pytorch:…-cuda12.4…` on `nvidia/cuda`, `rocm/pytorch` on
    `rocm/dev-ubuntu-22.04`). An operating system or language image (`ubuntu:22.04`, `python:3.12`) is
    built on none of them."""
    if is_plain(base) or _stack_root(base):
        return False
    if family_name(base) is None:
        return True
    wanted_stack = _stack(wanted)
    return wanted_stack is None or wanted_stack == _stack(base)


_STACK_ROOTS = re.compile(r"(?:nvidia/cuda|rocm/dev-[\w.-]+)\Z")
"""The images a GPU stack starts from, built on an operating system's image alone: `nvidia/cuda`, ROCm's
`rocm/dev-ubuntu-22.04`. No other image of the stack (`nvcr.io/nvidia/pytorch`, `rocm/pytorch`) is under
them; they are under it."""


def _stack_root(base: str) -> bool:
    """True when the image reference `base` is one a GPU stack starts from (`_STACK_ROOTS`)."""
    return _STACK_ROOTS.match(bare_repository(base)) is not None


def _stack(reference: str) -> str | None:
    """The GPU stack an image reference names (`rocm`, `cuda`), None when it names neither."""
    lowered = reference.lower()
    if "rocm" in lowered:
        return "rocm"
    return "cuda" if re.search(r"nvidia|cuda|nvcr\.io", lowered) else None


def _image_shaped(name: str) -> bool:
    """True when `name` may be an image reference: a name without a registry host (a first part with a
    dot, a port or `localhost`) is a Docker Hub one, which has at most two parts (`rocm/pytorch`);
    `nvidia/container-images/l4t-base` is a project's path on a code host, no image."""
    parts = name.split("@", 1)[0].split("/")
    if "." in parts[0] or ":" in parts[0] or parts[0].lower() == "localhost":
        return True
    return len(parts) <= 2


def bare_repository(reference: str) -> str:
    """An image reference's repository without a registry or `library/`: `rocm/pytorch` for
    `docker.io/rocm/pytorch:latest`."""
    reference = reference.split("@", 1)[0].lower()
    parts = reference.split("/")
    if len(parts) > 1 and ("." in parts[0] or ":" in parts[0] or parts[0] == "localhost"):
        parts = parts[1:]
    if parts and parts[0] == "library":
        parts = parts[1:]
    if not parts:
        return ""
    parts[-1] = parts[-1].split(":", 1)[0]
    return "/".join(parts)


def distro_of(base: str) -> str | None:
    """The distribution an image reference holds, when it tells: its repository is one's own image
    (`ubuntu:22.04`) or a word of it names one (`nvidia/cuda:12.4.1-devel-ubuntu22.04`)."""
    found = {DISTROS[w] for w in _REF_WORD.findall(base.lower()) if w in DISTROS and w not in ("arch", "ubi")}
    last = bare_repository(base).rsplit("/", 1)[-1]
    if last in DISTROS:
        found.add(DISTROS[last])
    return found.pop() if len(found) == 1 else None
