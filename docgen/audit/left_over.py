"""A README left over from another image: its title and its list of what the image installs both name a
project (`# Docker image for Lyrebird`, then `* [Lyrebird](https://github.com/acme/lyrebird)` under
`## Installs`) that nothing the build reads names, while the Dockerfile builds something else.

`contents` stays silent on such an item when the build installs from a list docgen cannot read (`pip
install -r requirements.txt` of a clone) or runs a file it has no copy of: any of them may bring it. The
title is what tells the two apart: an image's own subject is installed by its Dockerfile, not left to
the dependencies of another project.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import (
    ADDED_HEADING,
    CONTENTS_HEADING,
    CONTENTS_INTRO,
    FEATURES,
    LATER,
    VERSION_IN,
    built_bases,
    copied_context,
    copies_unread,
    final_components,
    item_components,
)
from docgen.audit.versions import raw_name
from docgen.base_contents import brought_by, carries
from docgen.copied import copied_texts
from docgen.markdown import Document, lists
from docgen.model import Diagnostic, ImageModel

_OPEN_LINK = re.compile(r"\]\([ \t]*\Z")
"""An item whose link's target goes on the next line (`* [Lyrebird](` then the URL)."""
_TITLE_CHARS = 500
"""The characters of the title read for the project it names: each item is looked for in it, so a
longer one (no title, a paragraph under `#`) would cost its length for every item."""
_MAY_ADD = re.compile(r"\bcan[ \t]+(?:be[ \t]+)?(?:add|install|enable)|\bplanned\b|\bTODO\b|\bsoon\b", re.I)
"""Words of an item or its list saying it is not there yet: `can be added`, `planned`, `coming soon`."""


def _contents_lists(doc: Document) -> Iterator[list[tuple[int, str]]]:
    """The items of each list the README presents as what the image installs (`## Installs`, `The image
    includes:`; as `contents.listed_contents` reads them), an item whose link goes on the next line
    joined with it."""
    following = {n: t for para in doc.paragraphs for n, t in para.lines}
    for block in lists(doc):
        heading = block.heading.strip().strip("*_#: \t").strip()
        intro = block.intro.strip()
        about = f"{intro} {heading}"
        if (
            ADDED_HEADING.fullmatch(heading)
            or not (CONTENTS_INTRO.search(intro) if intro else CONTENTS_HEADING.fullmatch(heading))
            or LATER.search(about)
            or FEATURES.search(about)
            or _MAY_ADD.search(about)
        ):
            continue
        items = []
        for line, text in block.items:
            if _OPEN_LINK.search(text) and line + 1 in following:
                text = text.rstrip() + following[line + 1].strip()
            items.append((line, text))
        yield items


def unread_copies(model: ImageModel) -> bool:
    """True when the Dockerfile of `model` copies a file from its build context that may say what to
    install (a script, a package list, a folder) and docgen has no copy of it, or copies from above the
    context; a file only started with the container (ENTRYPOINT, CMD) does not count."""
    read = dockerfile_read(model.file)
    if read is None:
        return True
    copies = copied_texts(model.file, model.context_copies)
    if copies is None:
        return True  # more than docgen reads
    return copies_unread(model.context_copies, copies[1], read[1])


def _lacks(model: ImageModel, spellings: set[str]) -> bool:
    """True when nothing docgen reads of the image of `model` names a component under `spellings`: not
    its Dockerfile, not the build-context files it copies (all of them there), no package it installs
    pulls it in, and its base images are known not to carry it."""
    if not model.file or unread_copies(model):
        return False
    text = copied_context(model)[0]
    if any(s in text for s in spellings):
        return False
    if brought_by((c.name for c in final_components(model)), spellings) is not None:
        return False
    bases = built_bases(model)
    return bool(bases) and all(carries(stage.base, spellings) is False for stage in bases)


def left_over_items(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An item of a list of what the image installs that the README's title names too (`# Docker image
    for Lyrebird …`, `* [Lyrebird](…)`) and that no audited image can hold (`_lacks`) (`likely`: the
    README describes another image)."""
    models = [m for m in auditor.models if m.file]
    title = next((t for line, t in doc.headings if doc.levels.get(line) == 1), None)
    if not models or title is None:
        return
    title = title[:_TITLE_CHARS]
    told: set[str] = set()
    for items in _contents_lists(doc):
        for line, text in items:
            if LATER.search(text) or _MAY_ADD.search(text) or VERSION_IN.search(text):
                continue
            for name, spellings, data in item_components(text):
                word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", re.IGNORECASE)
                if data or raw_name(name) in told or len(raw_name(name)) < 4 or not word.search(title):
                    continue
                if not all(_lacks(m, spellings) for m in models):
                    continue
                told.add(raw_name(name))
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README's title and its list of what the image installs name {name}, but "
                    f"{models[0].path} installs no {name} and copies no file naming it (the README may "
                    "describe another image)",
                    confidence=LIKELY,
                )
