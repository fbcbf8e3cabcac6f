"""Components a list says the image holds, in the shapes the other list readers pass over: an item with
its version (`**Transformers 4.45.2**`, `PEFT 0.14.0 (LoRA)`, `**NeMo Launcher**: 24.12 for …`), a list
under a category heading inside a section of what the image holds (`## 📦 What's Included`, then `###
ML Libraries`), under a numbered or emoji-led heading (`## 3. Included Components`), or after an
introduction naming the image and what it comes with (`This directory contains a Docker image with:`).

An item is read when it names one component: a name (a product's, each word capitalised: `Comet ML`,
`Mellanox DOCA`) or a name in bold or code, with its version, a note in brackets or what it is for after
it; not a category label (`**Build tools**: GCC, Make`), a vague group (`NumPy, Pandas, etc.`) or what
comes later (`contents.LATER`: downloaded at start, optional). It is told (`likely`) when no image
compared can hold the component (`contents.cannot_hold`): nothing in the Dockerfile or the build-context
files it copies names it (a requirements file it installs, a project's pyproject), nothing it runs is
unread, no package it installs pulls it in (`base_contents.brought_by`: TRL brings Transformers), and its
base images are known not to carry it (`base_contents.carries`: NGC's PyTorch may carry UCX). A list
under a heading of the base image (`### Base Image`) is the base's, not read. The version itself is
compared elsewhere (`prose`) when the image installs the component.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import Auditor, dockerfile_read
from docgen.audit.contents import (
    ADDED_HEADING,
    CONTENTS_HEADING,
    CONTENTS_INTRO,
    FEATURES,
    LATER,
    NEEDED,
    TRIED,
    VERSION_IN,
    built_bases,
    cannot_hold,
    copied_context,
    in_ranges,
    installs_none,
    item_components,
    known_keys,
    label_item,
    unbuilt_lines,
)
from docgen.audit.memo import per_audit
from docgen.audit.versions import norm, raw_name
from docgen.base_contents import brought_by, carries
from docgen.copied import copied_texts
from docgen.markdown import Document, ListBlock, headings_over, lists
from docgen.model import Diagnostic, ImageModel

_LEAD = re.compile(r"\A[^\w*_`\[(]*(?:\d{1,2}(?:\.\d{1,2})*\.?[ \t]+)?")
"""What leads a heading's title before its words: marks, an emoji, a number (`📦 `, `3. `, `2.1 `)."""
_WITH_INTRO = re.compile(
    r"\b(?:contains|provides|is|builds|creates|defines|offers|gives[ \t]+you)\b[^.:]{0,40}"
    r"\b(?:image|container)[ \t]+(?:that[ \t]+comes[ \t]+)?with[ \t]*:[*_]*\Z",
    re.IGNORECASE,
)
"""An introduction saying what an image comes with: `This directory contains a custom Docker image
with:`, `It builds a container with:` (not `Run the container with:`: a command follows)."""
_BASE = re.compile(r"\bbase\b|\bhost\b|\bupstream\b|\binherit", re.IGNORECASE)
"""A heading or introduction of a list of what the base image or the host holds."""
_VAGUE = re.compile(r"\betc\b|\band[ \t]+more\b|\bother\b|\.\.\.|…|\ball\b", re.IGNORECASE)
"""An item naming a group loosely (`NumPy, Pandas, etc.`, `All training dependencies`)."""
_MARKED = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\*\*([^*]{1,60})\*\*|__([^_]{1,60})__|`([^`]{1,60})`)"
)
"""An item whose lead is in bold or code (`- **Transformers 4.45.2**`, `` - `peft` 0.14 ``)."""
_MARKER = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
_NAME_END = re.compile(r"\(|:|(?<=[ \t])-(?=[ \t])|[–—,]|(?<=[ \t])(?:with|for|to|on|in|as|via)\b|$")
"""Where a plain lead name ends: a note in brackets, a description, a version before it (cut first).
The blanks before it are cut after the search, not by it: a pattern led by `[ \t]*` tried every blank
of a run of 20,000 against the rest of the run (n²)."""
_NOTE = re.compile(r"[ \t]*(?:\([^()]*\)[ \t]*)?(?:[:–—-][ \t].*)?\Z")
"""What may follow a plain name without a version: a note in brackets, a description after a colon or
a dash (`Comet ML (experiment tracking)`, `SentencePiece - tokenization`)."""
_VERSION = re.compile(r"\b(?:v|version[ \t]+)?(?:\d+(?:\.\d+)+|\d+\.x)[\w.+-]*\+?", re.IGNORECASE)
"""A version in or after a name (`4.45.2`, `v0.14.0`, `3.x`, `24.12`, `2.6.3.post1`)."""
_WORD = re.compile(r"[A-Z][\w.+-]*|[a-z][\w.+-]*[A-Z][\w.+-]*")
"""A word of a product's name: capitalised or with a capital inside (`Comet`, `DOCA`, `NeMo`, `vLLM`)."""
_VENDORS = frozenset(
    {"nvidia", "mellanox", "amd", "intel", "google", "microsoft", "meta", "apache", "hugging"}
)
"""A maker's name before a product's (`Mellanox DOCA`, `NVIDIA Apex`): the product is named without it too."""
_MOST_WORDS = 4
_LABEL_OF_VERSIONED = re.compile(
    r"[ \t]*:[ \t]*[*_`]*[A-Za-z][\w.+-]*(?:[ \t]+[A-Za-z][\w.+-]*){0,2}[ \t]+v?\d+(?:\.\d+)+"
)
"""What after a lead without a version names another component with its version (`: Ubuntu 24.04`,
`: CUDA 12.4`): the lead is a label (`**OS**`, `**Runtime**`), the component is what follows."""


def heading_title(heading: str) -> str:
    """A heading's title without marks, an emoji or a number before it (`## 📦 What's Included`:
    `What's Included`; `3. Included Components`: `Included Components`)."""
    title = heading.strip().strip("*_#: \t").strip()
    return _LEAD.sub("", title).strip("*_: \t")


def _about_contents(doc: Document, block: ListBlock) -> tuple[bool, bool]:
    """(the list is of what the image holds, its unversioned items are read here too): by its
    introduction (`CONTENTS_INTRO`, `_WITH_INTRO`), its own heading, or the heading of the section its
    category heading is in (`## What's Included` / `### ML Libraries`). The second is False for a list
    `contents.listed_contents` reads already (its introduction or its own heading as written)."""
    intro = block.intro.strip()
    heading = block.heading.strip().strip("*_#: \t").strip()
    title = heading_title(block.heading)
    said = f"{intro} {heading}"
    if LATER.search(said) or FEATURES.search(said) or NEEDED.search(said) or TRIED.search(said):
        return False, False
    if _BASE.search(said) or ADDED_HEADING.fullmatch(title):
        return False, False
    if intro:
        if CONTENTS_INTRO.search(intro):
            return True, False
        return bool(_WITH_INTRO.search(intro)), True
    if CONTENTS_HEADING.fullmatch(heading):
        return True, False
    if CONTENTS_HEADING.fullmatch(title):
        return True, True
    over = headings_over(doc, block.items[0][0])[1:2] if block.items else []
    return bool(over and CONTENTS_HEADING.fullmatch(heading_title(over[0]))), True


def _lead(text: str) -> tuple[str, str, str] | None:
    """(the name an item leads with, its version or '', what follows) of a list item; None when the item
    leads with no name."""
    marked = _MARKED.match(text)
    if marked is not None:
        lead, rest = marked.group(1) or marked.group(2) or marked.group(3), text[marked.end() :]
    else:
        start = _MARKER.match(text)
        if start is None:
            return None
        body = text[start.end() :]
        version = _VERSION.search(body)
        cut = _NAME_END.search(body)
        end = min(version.start() if version else len(body), cut.start() if cut else len(body))
        end = len(body[:end].rstrip(" \t"))
        lead, rest = body[:end], body[end:]
    version = _VERSION.search(lead)
    said = ""
    if version is not None:
        said = version.group().strip()
        lead = lead[: version.start()]
    elif (after := re.match(r"[ \t]*:?[ \t]*", rest)) and (found := _VERSION.match(rest, after.end())):
        said = found.group().strip()
        rest = rest[found.end() :]
    lead = lead.strip(" \t:-*_`")
    return (lead, said, rest) if lead else None


def _component(text: str) -> tuple[str, str, set[str]] | None:
    """(name, version or '', spellings) of the one component a list item names; None for a label, a
    vague group, a sentence or no name."""
    if label_item(text) or _VAGUE.search(text):
        return None
    found = _lead(text)
    if found is None:
        return None
    lead, version, rest = found
    if not version and not _MARKED.match(text) and not _NOTE.match(rest):
        return None  # `Built on NVIDIA's image`, `Includes X for Y`: a sentence, not a name
    words = lead.split()
    if not words or len(words) > _MOST_WORDS:
        return None
    if not version and _LABEL_OF_VERSIONED.match(rest):
        return None  # `**OS**: Ubuntu 24.04`, `**Runtime**: CUDA 12.4`: a label of what follows
    known = norm(lead) in known_keys()
    if not version and not known and re.match(r"[ \t]*:[ \t]*\S", rest):
        if len(words) > 1 or not _WORD.fullmatch(words[0]) or words[0][1:].islower():
            return None  # `**Compression**: zstd for …`: a category and what is in it
    components = item_components(f"- {lead}")
    if len(components) == 1:
        return components[0][0], version, components[0][1]
    if components or not all(_WORD.fullmatch(word) for word in words):
        return None  # `Build tools`, `All training dependencies`: no product's name
    spellings = {raw_name(lead)}
    if len(words) > 1 and words[0].lower() in _VENDORS:
        spellings.add(raw_name(" ".join(words[1:])))
    return lead, version, spellings


def listed_components(part: Document, doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An item of a list of `part` (of the README `doc`) about what the image holds (`_about_contents`)
    that the other list readers pass over (a versioned item; any item of a list only this module reads
    as the image's) whose component no image compared can hold (`_lacks`) (`likely`)."""
    if not auditor.models:
        return
    for block in lists(part):
        if not block.items:
            continue
        contents, every_item = _about_contents(doc, block)
        if not contents:
            continue
        for line, text in block.items:
            if LATER.search(text) or (not every_item and not VERSION_IN.search(text)):
                continue
            found = _component(text)
            if found is None:
                continue
            name, version, spellings = found
            if len(raw_name(name)) < 2:
                continue
            if all(_lacks(model, frozenset(spellings)) for model in auditor.models):
                said = f"{name} {version}" if version else name
                yield installs_none(auditor, line, f"lists {said} as in the image", name, spellings)


_COMMENT = re.compile(r"(?:^|[ \t])#.*$", re.MULTILINE)
"""A comment of a requirements, environment or shell file (`# 2.4.1 for better Unsloth compatibility`)."""


@per_audit(maxsize=32)
def _written(model: ImageModel) -> str | None:
    """What the build of `model` installs or copies, comments left out, as `raw_name` text: the RUN, COPY,
    ADD and FROM instructions of the stages it builds and the build-context files it copies; None when
    docgen cannot read them."""
    read = dockerfile_read(model.file) if model.file else None
    copies = copied_texts(model.file, model.context_copies) if read is not None and model.file else None
    if read is None or copies is None:
        return None
    unbuilt = unbuilt_lines(model)
    parts = [
        i.args
        for i in read[1].instructions
        if i.keyword in ("RUN", "COPY", "ADD", "FROM") and not in_ranges(i.start_line, unbuilt)
    ]
    parts += [_COMMENT.sub(" ", text) for _, text in copies[0]]
    return raw_name(" ".join(parts))


def _lacks(model: ImageModel, spellings: frozenset[str]) -> bool:
    """True when the image of `model` cannot hold a component under any of `spellings`: `cannot_hold`,
    or the only mention of it is a comment (`# better Unsloth compatibility than 2.5.1`) while nothing
    it runs or installs is unread, no package it installs pulls it in and its bases do not carry it."""
    if cannot_hold(model, set(spellings), False, False):
        return True
    written = _written(model)
    text, unread_run, unread_packages = copied_context(model)
    if written is None or unread_run or unread_packages or not any(s in text for s in spellings):
        return False
    if any(s in written for s in spellings):
        return False
    if brought_by((c.name for c in model.components), spellings) is not None:
        return False
    bases = built_bases(model)
    return bool(bases) and all(carries(stage.base, spellings) is False for stage in bases)
