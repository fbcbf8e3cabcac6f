"""The base image a README states under a label, against the images the FROM lines name: a line
`Base image: nvidia/cuda:12.4.1-devel-ubuntu22.04`, `**Base**: rocm/pytorch`, a list item
`- Base image: …`, a label in parentheses (`builds a container (base: nvidia/cuda:12.4.1-devel-ubuntu22.04)`),
a row `| Base image | … |` of a two-column table, or a distribution said to be
the base (`Debian Bullseye based`, `**Base**: Alpine`).

What `base_claims` reads in a sentence (`based on …`), this reads off a label, where the README states
the base and nothing else; the same comparison decides (`base_claims.bare_repository`, `distro_of`):

- an image reference whose repository no stage of an image compared starts from, no build arg's
  default names, and no other image of the family starts from (`certain`: a label is unambiguous). A
  tag other than FROM's of the same repository is a version claim, compared where versions are
  (`prose`, `auditor.base_tag_claim`), not here;
- a distribution (`Base: Alpine`) that no stage's base can hold, and a distribution's codename
  (`Debian Bullseye based`) compared as its version (`bullseye` is Debian 11) with the base's.

Not read: a label whose section says below it that the image named is not FROM's (`cannot be used as
a base image`, `Generating a Dockerfile to build`: `_NOT_FROM`), a label holding several images or words
of a choice (`nvidia/cuda or rocm/dev-ubuntu`,
`your own`, `e.g.`), a table with a column of bases (one row an image, a sibling's base in each), a
repository of the project's own (`base_claims.ours`) or a path to a file of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.base_claims import A_FILE, DISTROS, SHOWN, bare_repository, distro_of, ours
from docgen.audit.prose import same_base
from docgen.audit.versions import skeleton
from docgen.audit.wording import IMAGE_REF, NOT_CURRENT, is_example, listed_versions
from docgen.baseimage import CODENAMES
from docgen.markdown import Document
from docgen.model import Diagnostic

_LABEL_WORDS = (
    r"base(?:[ \t]+(?:docker[ \t]+|container[ \t]+)?image)?|parent[ \t]+image|基础镜像|基础映像|底层镜像"
)
_LABEL = re.compile(
    rf"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{{1,9}}[.)])[ \t]+)?[*_]{{0,2}}(?:{_LABEL_WORDS})"
    r"(?:[ \t]*[:：][*_]{0,2}|[*_]{1,2}[ \t]*[:：])[ \t]*",
    re.IGNORECASE,
)
"""`Base image: `, `**Base**: `, `- **Base image:** `, `> Base: `: a line that labels its value the base."""
_BASED_LABEL = re.compile(
    r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?[*_]{0,2}"
    r"(?:based[ \t]+(?:up)?on|built[ \t]+(?:on(?:[ \t]+top[ \t]+of)?|upon|from))"
    r"(?:[ \t]*[:：][*_]{0,2}|[*_]{1,2}[ \t]*[:：])[ \t]*",
    re.IGNORECASE,
)
"""`Based on: `, `- **Built on:** `: a label that may name the base image or the project the image is
built from (`Based on: ggerganov/llama.cpp`); only an image reference with a tag, or a distribution, is
read under it (`_labelled`, `tagged`)."""
_EXAMPLE_LABEL = re.compile(
    rf"[ \t]*(?:(?:[-*+]|\d{{1,9}}[.)])[ \t]+)?[*_]{{0,2}}(?:(?:{_LABEL_WORDS})[ \t]+example"
    r"|example[ \t]+base(?:[ \t]+image)?)(?:[ \t]*[:：][*_]{0,2}|[*_]{1,2}[ \t]*[:：])[ \t]*",
    re.IGNORECASE,
)
"""`Base image example: `: a line whose value is an example of the base, compared only with a base of
the same name at other versions (`_example_base`)."""
_ASIDE_LABEL = re.compile(
    rf"\((?:{_LABEL_WORDS})[ \t]*[:：][ \t]*([^()]{{1,200}})\)",
    re.IGNORECASE,
)
"""A label in parentheses inside a sentence (`builds a container (base: nvcr.io/nvidia/pytorch:24.07-py3)`):
its value, up to the closing parenthesis, is read as a label's."""
_CELL_LABEL = re.compile(rf"[*_`]{{0,2}}(?:{_LABEL_WORDS})[*_`]{{0,2}}:?", re.IGNORECASE)
"""The first cell of a table row that labels the second: `Base image`, `**Base**`."""
_CHOICE = re.compile(
    r"\bor\b|\byour\b|\bown\b|\bany\b|\bcustom\b|\bchoose\b|\bconfigurable\b|\bselect|\bvia\b|\$\{?|<|\(e\.g"
    r"|\be\.g\b|\bexample\b|\binstead\b|\bformerly\b|\bpreviously\b|\bwas\b|\bused[ \t]+to\b"
    r"|\bno[ \t]+longer\b",
    re.IGNORECASE,
)
"""Words in a label's value that make it a choice, an example or the past (`nvidia/cuda or your own`)."""
_REPOSITORY = re.compile(r"(?<![\w./:@-])([a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)+)(?![\w./:@-])")
"""`org/name` without a tag, in code or in a link's text: `rocm/pytorch`."""
_LEADING_VERSION = re.compile(r"v?\d")
_BARE_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+`?([a-z0-9][\w./-]*/[\w./-]+:[\w.-]+)`?[ \t]*")
"""A list item that is one image reference of an organisation and nothing else: `- nvidia/cuda:11.3-…`."""
_ONLY_REFERENCE = re.compile(r"[ \t]*`?[a-z0-9][\w.-]*(?:/[\w.-]+)+:[\w.-]+`?[ \t]*")
"""A line that is one image reference of an organisation and nothing else: `nvcr.io/nvidia/tensorrt:…`."""
_FENCED_REFERENCE = re.compile(r"[a-z0-9][\w.-]*(?:/[\w.-]+)+(?::[\w.-]+)?(?:@[\w:]+)?", re.IGNORECASE)
"""A line that is one image reference of an organisation and nothing else, a tag or not."""
_LINK = re.compile(r"\[([^\]]{1,200})\]\([^)\s]{0,300}\)")
_BASED = re.compile(
    r"(?<![\w-])(?P<name>ubuntu|debian|alpine|centos|rocky(?:[ \t]+linux)?|fedora|almalinux"
    r"|arch(?:[ \t]+linux)?|opensuse|amazon[ \t]+linux|openeuler)"
    r"(?:[ \t]+(?P<word>[A-Za-z]+|\d+(?:\.\d+)*))?[ \t]*(?:-[ \t]*)?based\b",
    re.IGNORECASE,
)
"""`Debian Bullseye based`, `Alpine-based`, `Ubuntu 22.04 - based`: a distribution, maybe a codename or
version, said to be the image's base."""


_NOT_FROM = re.compile(
    r"\b(?:can ?not|can't|could ?not|couldn't|not|never|isn't|too[ \t]+(?:large|big|huge))\b[^.\n]{0,40}"
    r"\b(?:use[ds]?|usable|serve)\b[^.\n]{0,15}\bas\b[^.\n]{0,15}\bbase\b"
    r"|\b(?:generat\w*|rebuil[dt]|reproduc\w*|replicat\w*|re-?creat\w*|mirror\w*)\b[^.\n]{0,40}\bDockerfiles?\b"
    r"|\bDockerfiles?\b[^.\n]{0,40}\b(?:generated|copied|taken|derived|rebuilt)\b",
    re.IGNORECASE,
)
"""Words after a base label saying the image named is not what FROM starts from: it is too large or cannot
be used as a base, and a Dockerfile generated from (or copying) its own is built instead."""


def _disowned(part: Document) -> set[int]:
    """The README lines of base labels whose section says, at or after the label, that the image named
    is not the one FROM uses (`_NOT_FROM`): the lines of such a section up to its last line saying so."""
    told: dict[int, int] = {}  # section → the last line saying so
    for para in part.paragraphs:
        for line, said in para.lines:
            if _NOT_FROM.search(_LINK.sub(r"\1", said)):
                told[para.section] = max(told.get(para.section, 0), line)
    return {
        line
        for para in part.paragraphs
        if para.section in told
        for line, _ in para.lines
        if line <= told[para.section]
    }


def base_labels(part: Document, auditor: Auditor, text: str, title: int = -1) -> Iterator[Diagnostic]:
    """Each base image `part` states under a label (a line, a list item, a two-column table row) or a
    distribution it says the image is based on, that the images compared cannot start from. A bare image
    item of a list of the image's versions (`wording.listed_versions`; `title`: the line of the README's
    title) is as sure as a label."""
    disowned = _disowned(part)
    for para in part.paragraphs:
        untitled = para.section in (0, title)
        sure = CERTAIN if listed_versions(para.heading, para.lines, untitled, para.before) else LIKELY
        if _CELL_LABEL.fullmatch(para.heading.strip()) and _ONLY_REFERENCE.fullmatch(para.lines[0][1]):
            # `# Base image` over a line that is one image reference: the heading is its label
            yield from some(_labelled(para.lines[0][0], para.lines[0][1], auditor, text))
        for line, said in para.lines:
            if line in disowned:
                continue  # (`This image is so huge that it cannot be used as a base image` below it)
            label = _LABEL.match(said)
            based_label = None if label is not None else _BASED_LABEL.match(said)
            if label is not None:
                value, at = _value_of(part, line, said[label.end() :])
                yield from some(_labelled(at, value, auditor, text))
            elif based_label is not None:
                value, at = _value_of(part, line, said[based_label.end() :])
                yield from some(_labelled(at, value, auditor, text, tagged=True))
            elif (example := _EXAMPLE_LABEL.match(said)) is not None:
                value, at = _value_of(part, line, said[example.end() :])
                yield from some(_example_base(at, value, auditor))
            elif "(" in said and (aside := _ASIDE_LABEL.search(said)) is not None:
                yield from some(_labelled(line, aside.group(1), auditor, text))
            elif (item := _BARE_ITEM.fullmatch(said)) is not None:
                repository = bare_repository(item.group(1))
                alike = [r for _, other in para.lines for r in IMAGE_REF.finditer(other)]
                if sum(bare_repository(r.group()) == repository for r in alike) == 1:
                    yield from some(_other_variant(line, item.group(1), auditor, sure, bare=True))
            for based in _BASED.finditer(said):
                yield from _based(line, said, based, auditor)
    for table in part.tables:
        if len(table.header) != 2 or _CELL_LABEL.fullmatch(table.header[0].strip()):
            continue  # a column of bases (`| Image | Base image |`): each row is another image
        for line, cells in table.rows:
            if len(cells) == 2 and _CELL_LABEL.fullmatch(cells[0].strip()):
                yield from some(_labelled(line, cells[1], auditor, text))


def _labelled(line: int, value: str, auditor: Auditor, text: str, tagged: bool = False) -> Diagnostic | None:
    """The finding on the value of a base label (`nvidia/cuda:12.4.1-devel-ubuntu22.04 (CUDA 12.4)`):
    its one image reference, or the distribution it starts with. `tagged` (a `Based on:` label): a
    repository without a tag may be the project the image is built from, not its base: none is read."""
    value = _LINK.sub(r"\1", value).replace("`", " ").strip(" *_")
    references = [m.group() for m in IMAGE_REF.finditer(value)]
    untagged = [m.group(1) for m in _REPOSITORY.finditer(IMAGE_REF.sub(" ", value))]
    if tagged and untagged:
        return None  # `Based on: ggerganov/llama.cpp`: the upstream project, maybe
    references += untagged
    if not value or _CHOICE.search(_REPOSITORY.sub(" ", IMAGE_REF.sub(" ", value))):
        return None  # the words around the images, not in them (`registry.example.com/…`)
    if len(references) > 1:
        return None  # several images: a list of bases, one per variant
    if references:
        return _other_variant(line, references[0], auditor, CERTAIN) or _other_repository(
            line, references[0], auditor, text
        )
    word = re.match(r"[A-Za-z]+(?:[ \t]+Linux)?", value)
    if word is None:
        return None
    words = word.group().lower().split()
    distro = DISTROS.get("".join(words).removesuffix("linux")) or DISTROS.get(words[0])
    return _other_distro(line, distro, word.group(), auditor, CERTAIN) if distro else None


def _value_of(part: Document, line: int, rest: str) -> tuple[str, int]:
    """The value of a label on README line `line` (`rest`: its words after the label) and the line that
    holds it: the label's own, or the fenced block's below it when the label ends its line
    (`_fenced_value`)."""
    if rest.strip(" \t*_`"):
        return rest, line
    return _fenced_value(part, line) or (rest, line)


def _fenced_value(part: Document, line: int) -> tuple[str, int] | None:
    """The value of a label that ends its line (`Base image example:`) and its README line, when a fenced
    block right below it holds one line and nothing else (the image reference); None otherwise."""
    for fence in part.fences:
        said = [(at, text.strip()) for at, text in fence.lines if text.strip()]
        if fence.lines and line < fence.lines[0][0] <= line + 3 and len(said) == 1:
            return (said[0][1], said[0][0]) if _FENCED_REFERENCE.fullmatch(said[0][1]) else None
    return None


def _example_base(line: int, value: str, auditor: Auditor) -> Diagnostic | None:
    """A finding (`likely`) when the one image reference `value` gives as an example of the base is a
    base FROM uses at other versions (`org/nvidia-cuda-13.0.2-cudnn-devel-ubuntu24.04` for FROM's
    `…-12.6.1-…`, `nvidia/cuda:13.0.2-…` for `nvidia/cuda:12.6.1-…`): the example names the very image,
    stale. Any other example (another image, another variant) may be just that, an example."""
    value = _LINK.sub(r"\1", value).replace("`", " ").strip(" *_")
    references = [m.group() for m in IMAGE_REF.finditer(value)]
    references += [m.group(1) for m in _REPOSITORY.finditer(IMAGE_REF.sub(" ", value))]
    if len(references) != 1 or _CHOICE.search(
        _REPOSITORY.sub(" ", IMAGE_REF.sub(" ", value)).replace("example", "")
    ):
        return None
    example = references[0]
    bases = _root_bases(auditor)
    if not bases or any("$" in base for _, _, base in bases):
        return None
    shape = skeleton(_named(example))
    for _path, _at, base in bases:
        if _named(base) == _named(example):
            return None  # the example is the base
    same = [(path, at, base) for path, at, base in bases if skeleton(_named(base)) == shape]
    if not same or not any(c.isdigit() for c in example):
        return None
    path, at, base = same[0]
    message = f"README says the base image is {example} but {path}:{at} says FROM {base}"
    return Diagnostic(auditor.path, line, message, confidence=LIKELY)


def _named(reference: str) -> str:
    """An image reference without its registry, `library/`, digest and the `:latest` tag it implies,
    lower case."""
    name = reference.split("@", 1)[0].lower().removesuffix(":latest")
    first, _, rest = name.partition("/")
    if rest and ("." in first or ":" in first or first == "localhost"):
        name = rest
    return name.removeprefix("library/")


def _same_repository(base: str, wanted: str) -> bool:
    """True when the repository `wanted` is the one of the reference `base`, or its last parts: a
    README may drop the organisation too (`pytorch:24.08-py3` for `nvcr.io/nvidia/pytorch:24.08-py3`)."""
    have = bare_repository(base)
    return have == wanted or have.endswith("/" + wanted)


def _root_bases(auditor: Auditor) -> list[tuple[str, int, str]]:
    """(Dockerfile, line, base) of each stage of the images compared that starts from an image."""
    return [
        (str(m.path), s.line, s.base) for m in auditor.models for s in m.stages if s.parent is None and s.base
    ]


def _other_repository(line: int, reference: str, auditor: Auditor, text: str) -> Diagnostic | None:
    """A finding when no stage of the images compared starts from the repository of `reference`, no
    build arg's default names it and no other image of the family starts from it."""
    if A_FILE.search(reference):
        return None  # `Base image: docker/Dockerfile.base`: a file of the project
    bases = _root_bases(auditor)
    if not bases or any("$" in base for _, _, base in bases):
        return None  # a base docgen cannot resolve may be any image
    wanted = bare_repository(reference)
    if not wanted or any(_same_repository(base, wanted) for _, _, base in bases):
        return None  # the same repository: its tag is a version, compared elsewhere
    family = auditor.family or auditor.models
    if any(wanted in (a.default or "").lower() for m in family for a in m.args):
        return None  # a value a build arg can give FROM
    if any(_same_repository(s.base, wanted) for m in family for s in m.stages if s.parent is None):
        return None  # another image of the family starts from it: the label is about that one
    if "/" in wanted and ours(wanted, text, auditor.models):
        return None  # the project's own image, built by another Dockerfile
    shown = ", ".join(f"{path}:{at} says FROM {base}" for path, at, base in bases[:2])
    return Diagnostic(
        auditor.path, line, f"README says the base image is {reference} but {shown}", confidence=CERTAIN
    )


def _other_variant(
    line: int, reference: str, auditor: Auditor, confidence: str, bare: bool = False
) -> Diagnostic | None:
    """A finding when `reference` is of a repository a stage starts from, with a tag of another variant
    than every tag FROM uses there (`11.3-cudnn8-runtime-ubuntu20.04` for `11.3.0-base-ubuntu20.04`).
    A tag of the same shape, or of the same variant with another version, is a version claim `prose`
    reports (`auditor.base_tag_claim`, `prose._stated_bases`). `bare`: the reference is a list item
    without a label, read only when the tags start with a version: a tag that is a name
    (`verlai/verl:app-…` over `FROM verlai/verl:base-…`) may be the image built, not its base."""
    repository, _, tag = reference.rpartition(":")
    if not repository or "/" in tag or NOT_CURRENT.search(tag):
        return None
    wanted = bare_repository(repository)
    bases = [(path, at, base) for path, at, base in _root_bases(auditor) if _same_repository(base, wanted)]
    tags = [base.split("@", 1)[0].rpartition(":")[2] for _, _, base in bases if ":" in base]
    if not bases or len(tags) != len(bases) or any("$" in t for t in tags):
        return None
    if bare and not all(_LEADING_VERSION.match(t) for t in [tag, *tags]):
        return None
    if any(skeleton(t) == skeleton(tag) or same_base(tag, t) is not None for t in tags):
        return None  # the same tag or variant: agreeing, or a version `prose` compares
    family = auditor.family or auditor.models
    if any(reference.lower() in (a.default or "").lower() for m in family for a in m.args):
        return None
    if any(s.base.lower() == reference.lower() for m in family for s in m.stages if s.parent is None):
        return None  # another image of the family starts from it
    path, at, base = bases[0]
    message = f"README says the base image is {reference} but {path}:{at} says FROM {base}"
    return Diagnostic(auditor.path, line, message, confidence=confidence)


def _other_distro(line: int, distro: str, said: str, auditor: Auditor, confidence: str) -> Diagnostic | None:
    """A finding when every stage of the images compared starts from a base known to hold another
    distribution than `distro` (`base_claims.distro_of`); a base that names none may hold any."""
    bases = _root_bases(auditor)
    if not bases or any("$" in base for _, _, base in bases):
        return None
    held = [distro_of(base) for _, _, base in bases]
    if any(h is None or h == distro for h in held):
        return None
    shown = ", ".join(f"{path}:{at} says FROM {base}" for path, at, base in bases[:2])
    name = SHOWN.get(distro, said)
    return Diagnostic(
        auditor.path, line, f"README says the image is based on {name} but {shown}", confidence=confidence
    )


def _based(line: int, said: str, based: re.Match[str], auditor: Auditor) -> Iterator[Diagnostic]:
    """`Debian Bullseye based` (`likely`): the distribution against the bases, and a codename as the
    distribution's version against the base's (`bullseye` is Debian 11). A version written in digits
    (`Ubuntu 22.04 based`) is a version claim `prose` compares already."""
    if is_example(said, based) or _CHOICE.search(said, max(0, based.start() - 40), based.start()):
        return
    name = based.group("name")
    words = name.lower().split()
    distro = DISTROS.get("".join(words).removesuffix("linux")) or DISTROS.get(words[0])
    if distro is None:
        return
    found = _other_distro(line, distro, name, auditor, LIKELY)
    if found is not None:
        yield found
        return
    word = (based.group("word") or "").lower()
    number = CODENAMES.get(word)
    if number is not None and DISTROS.get(word) == distro:
        yield from some(auditor.version_claim(line, name, "==", number, LIKELY))
