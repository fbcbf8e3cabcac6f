"""Versions a Dockerfile states about its image in words rather than in an instruction that installs
them: the free text of its labels (`LABEL org.opencontainers.image.description="PyTorch 2.10.0 CUDA
12.8 + Ubuntu 24.04"`), comments about its base in the present tense (`# the JetPack 6.2.1 base ships
Python 3.10`) and comment lists of the image's stack (`# for a docker image with:` then `# NCCL
2.4.2`); and the labels whose key names a component's version (`com.nvidia.cuda.version="12.4.1"`).

A label's description or title is what the maintainer publishes as the image's stack; a comment next
to FROM or an install says what the base holds. Neither is a pin: the base image decides. So they are
kept apart (`StatedVersion`) and count only for what nothing the build pins or the base tag states
(`docgen audit` reads them `likely`).

Comments also hold history, plans and the versions other things need; only a sentence that says the
base or the image *has* a release now is read (`ships`, `includes`, `comes with`, `is based on`, a
label `# base: torch 2.1`), and
none that speaks of the past, the future or a condition (`was`, `used to`, `TODO`, `until`, `if`,
`requires`, `compatible`).
"""

from __future__ import annotations

import re

from docgen.model import ParsedDockerfile, StatedVersion

_LABEL_KEYS = re.compile(
    r"(?:org\.opencontainers\.image\.|org\.label-schema\.)?(?:description|title|summary|name)\Z",
    re.IGNORECASE,
)
"""The labels whose value describes the image in words (OCI, label-schema, plain `description=`)."""
_VERSION_KEY = re.compile(r"(?:[A-Za-z0-9-]+\.)*?([A-Za-z][A-Za-z0-9-]*?)[._-]version\Z", re.IGNORECASE)
"""A label whose key names a component's version: `com.nvidia.cuda.version`, `cudnn_version`."""
_NOT_COMPONENT_KEYS = frozenset({"image", "label-schema", "schema", "build", "app", "release", "docker"})
"""Keys whose version is the image's own or the label format's (`org.opencontainers.image.version`,
`org.label-schema.version`), no component's."""
_LABEL_VERSION = re.compile(r"[vV]?\d+(?:\.\d+)+(?:[.+~-]?[A-Za-z0-9]+)*\Z")
_LABEL_PAIR = re.compile(r"""([A-Za-z0-9_.-]+)=("(?:[^"\\]|\\.)*"|'[^']*'|\S+)""")
_PAIR = re.compile(
    r"(?<![\w.+/-])([A-Za-z][A-Za-z+-]{1,30}?)[ \t]*v?(\d{1,4}(?:\.\d{1,4}){1,3})(?![\w.+-]*\d)(?![\w/])"
)
"""`Name X.Y`, `Name X.Y.Z` (`Pytorch 2.10.0`, `CUDA 12.8`, `Ubuntu 24.04`, `Python3.10`)."""
_PRESENT = re.compile(
    r"\b(?:base|image|container)\b(?:[^.;:()]|\.(?=\d)){0,40}?"
    r"\b(?:ships|includes|comes[ \t]+with|provides|contains|bundles|already[ \t]+has|has"
    r"|is[ \t]+based[ \t]+on|based[ \t]+on|runs)\b((?:[^.;:()]|\.(?=\d)){1,120})",
    re.IGNORECASE,
)
"""A sentence saying the base or image holds something now: `JetPack 6.2.1 base ships Python 3.10`; the
group is what it holds."""
_BASE_LABEL = re.compile(
    r"\A[ \t#]*(?:the[ \t]+)?base(?:[ \t]+image)?[ \t]*:[ \t]*((?:[^.;]|\.(?=\d)){1,120})", re.IGNORECASE
)
"""A comment labelling what the base holds: `# base: npu-trainer (torch 2.1 + CANN 8.0)`, `# Base image:
Python 3.11`."""
_NOT_NOW = re.compile(
    r"\b(?:was|were|used[ \t]+to|previously|formerly|no[ \t]+longer|todo|fixme|xxx|will|would|should"
    r"|until|once|when|if|unless|requires?|needs?|compatible|instead|upgrade|downgrade|bump|switch"
    r"|older|newer|not|doesn't|don't|isn't)\b",
    re.IGNORECASE,
)
"""Words that make a comment about the past, the future, a condition or another thing's needs."""
_NOT_NAMES = frozenset(
    {"version", "release", "v", "rev", "revision", "build", "line", "step", "stage", "port"}
)


def stated_versions(parsed: ParsedDockerfile) -> tuple[StatedVersion, ...]:
    """The versions the labels' descriptions and the present-tense comments about the base state, in
    Dockerfile order."""
    found: list[StatedVersion] = []
    for inst in parsed.instructions:
        if inst.keyword == "LABEL":
            for key, value in _LABEL_PAIR.findall(inst.args):
                if _LABEL_KEYS.match(key.strip("\"'")):
                    found.extend(_pairs(value.strip("\"'"), inst.start_line, "label"))
                elif (
                    said := _version_label(key.strip("\"'"), value.strip("\"'"), inst.start_line)
                ) is not None:
                    found.append(said)
        if inst.comment_tail and inst.keyword in ("FROM", "RUN", "ARG", "ENV"):
            # the comment lines right above the instruction (their lines known: no blank line between)
            tail = inst.comment[-inst.comment_tail :]
            for offset, text in enumerate(tail):
                if _NOT_NOW.search(text):
                    continue
                line = inst.start_line - len(tail) + offset
                for match in _PRESENT.finditer(text):
                    found.extend(_pairs(match.group(1), line, "comment"))
                if (label := _BASE_LABEL.match(text)) is not None:
                    found.extend(_pairs(label.group(1), line, "comment"))
        if inst.keyword in ("FROM", "RUN", "ARG", "ENV") and inst.comment_lines:
            found.extend(_listed_stack(inst.comment, inst.comment_lines))
    return tuple(found)


_STACK_INTRO = re.compile(
    r"\b(?:image|container|docker)\b[^:]{0,40}?"
    r"\b(?:with|contains?|includes?|ships|has|provides|comes[ \t]+with)[ \t]*:\Z",
    re.IGNORECASE,
)
"""A comment introducing a list of what the image holds: `for a docker image with:`, `This image
contains:`."""


def _listed_stack(comment: tuple[str, ...], lines: tuple[int, ...]) -> list[StatedVersion]:
    """The versions of the comment lines listed under a `_STACK_INTRO` line (`# for a docker image
    with:` then `# CUDA 10.0.130`, `# NCCL 2.4.2`), up to the first line that names none or speaks of
    the past, a plan or a condition."""
    found: list[StatedVersion] = []
    listing = False
    for text, line in zip(comment, lines, strict=True):
        if _STACK_INTRO.search(text) and not _NOT_NOW.search(text):
            listing = True
            continue
        if not listing:
            continue
        pairs = [] if _NOT_NOW.search(text) else _pairs(text, line, "stack-comment")
        if not pairs:
            listing = False
        found.extend(pairs)
    return found


def _version_label(key: str, value: str, line: int) -> StatedVersion | None:
    """The version a label whose key names it states (`com.nvidia.cuda.version="12.4.1"` is CUDA
    12.4.1), None for another label, the image's own version or a value that is no version (a
    `${CUDA_VERSION}` docgen did not expand)."""
    match = _VERSION_KEY.match(key)
    if match is None or match.group(1).lower() in _NOT_COMPONENT_KEYS or not _LABEL_VERSION.match(value):
        return None
    return StatedVersion(match.group(1), value, line, "version-label", key)


def _pairs(text: str, line: int, where: str) -> list[StatedVersion]:
    return [
        StatedVersion(name, version, line, where)
        for name, version in _PAIR.findall(text)
        if name.lower().rstrip("-+") not in _NOT_NAMES
    ]
