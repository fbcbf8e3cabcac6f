"""A sentence right above a build command that names the image it builds (`follow below command to build
the lumen-text-gen image.`, `Build the `lumen-serve` image:`) while the command tags another
(`docker build -t acme/eval-suite:latest …`): a name left over from another project or image.

Read only when the name is image-like (lower case, with a `-`, `/` or `_`, or in backticks; a word
such as `multi-arch`, `pre-built`, `gpu-enabled` names no image), shares no word with the command's
tags nor with the Dockerfile it names (`-f Dockerfile.serve` for the `serve-gpu` image), and the
sentence does not name the tag's repository itself. A tag the reader fills in (`$IMAGE`, `<name>`) is
not read. `likely`: the sentence may name a project, not the image's tag.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import FILE_FLAG, TAG_FLAG, build_commands, joined
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_NAMED = re.compile(
    r"\bthe[ \t]+(?:`(?P<quoted>[a-z0-9][a-z0-9._/:-]*)`|(?P<plain>[a-z0-9]+(?:[-_/][a-z0-9]+)+))"
    r"[ \t]+(?:docker[ \t]+|container[ \t]+)?image\b"
)
"""`the lumen-text-gen image`, `the `serve` docker image`: an image named by the sentence."""
_BUILD_WORD = re.compile(r"\bbuild(?:s|ing)?\b|\bcreate[sd]?\b|\bcreating\b", re.IGNORECASE)
_GENERIC = frozenset(
    """
    multi arch stage platform pre built prebuilt all in one enabled based ready only docker container
    image base final default new custom own local official same above below following this that your
    my the a an cpu gpu
    """.split()
)
"""Words of a hyphenated name that make it a description, not an image (`multi-arch`, `gpu-enabled`)."""
_TOKEN = re.compile(r"[a-z0-9]+")
_FILLED_IN = re.compile(r"[$<>{}]")


def named_builds(doc: Document, path: str) -> Iterator[Diagnostic]:
    """A finding for each build command whose sentence just above names an image the command does not
    tag (`likely`)."""
    for fence in doc.fences:
        intro = _sentence_above(doc, fence)
        if intro is None:
            continue
        line, sentence = intro
        if not _BUILD_WORD.search(sentence):
            continue
        named = [m.group("quoted") or m.group("plain") for m in _NAMED.finditer(sentence)]
        if not named:
            continue
        for command in build_commands(fence):
            text = joined(command)
            tags = [m.group(1) for m in TAG_FLAG.finditer(text)]
            if not tags or any(_FILLED_IN.search(tag) for tag in tags):
                continue
            files = [m.group(1) for m in FILE_FLAG.finditer(text)]
            known = {t for word in [*tags, *files] for t in _TOKEN.findall(word.lower())}
            if any(_repository_name(tag) in sentence.lower() for tag in tags):
                continue
            for name in named:
                words = set(_TOKEN.findall(name))
                if not words or words <= _GENERIC or words & known:
                    continue
                said = (
                    f"README says the command builds the {name} image but it tags {', '.join(tags)} "
                    f"(line {command[0][0]})"
                )
                yield Diagnostic(path, line, said, confidence=LIKELY)
                break
            break  # the sentence is about the block's first build


def _sentence_above(doc: Document, fence: Fence) -> tuple[int, str] | None:
    """The README line and text of the last sentence of the paragraph ending just above `fence` (a
    blank line between at most)."""
    if not fence.lines:
        return None
    opening = fence.lines[0][0] - 1
    for para in doc.paragraphs:
        last, text = para.lines[-1]
        if opening - 2 <= last < opening:
            sentences = [s for s in re.split(r"(?<=[.!?:])[ \t]+", text.strip()) if s]
            return (last, sentences[-1]) if sentences else None
    return None


def _repository_name(tag: str) -> str:
    """The last part of a tag's repository, lower case: `genai-eval` for `acme/genai-eval:latest`."""
    name = tag.split("@", 1)[0].rsplit("/", 1)[-1]
    return name.split(":", 1)[0].lower()
