"""Build args documented one entry each: the entry's title is the arg's name alone (`- ### UCX_BRANCH`,
`### CUDA_VERSION`, `- **BASE_IMAGE**`, `` - `TAG` ``) and a line under it gives its default in code
(`Default: `v1.17.0``). Such an entry is as plain as a row of a build-arg table: a default that
differs from the ARG's, and an entry naming an arg no Dockerfile declares under a build-arg
introduction (`Possible `build-arg` for the Docker build command`), are `certain`.

Each paragraph is read once (its first three lines); nothing else of the README is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import CERTAIN, Auditor, some
from docgen.audit.cells import default_in_cell
from docgen.audit.wording import IMAGE_REF, about_build_args
from docgen.markdown import Document, Paragraph, code_spans
from docgen.model import Diagnostic

TITLE = re.compile(
    r"[ \t]*(?:[-*+][ \t]+)?(?:#{1,6}[ \t]+)?[*_]*`?([A-Z][A-Z0-9_]*[A-Z0-9])`?[*_]*[ \t]*(?::[ \t]*)?\Z"
)
"""An entry's title that is a name alone: `- ### UCX_BRANCH`, `### CUDA_VERSION`, `- **TAG**:`."""
DEFAULT_LINE = re.compile(
    r"[ \t>]*(?:[-*+][ \t]+)?[*_]*(?:default(?:[ \t]+value)?|defaults[ \t]+to)[*_]*"
    r"[ \t]*(?:[:=][*_]*[ \t]*|[*_]+[ \t]*)?(?=`)",
    re.IGNORECASE,
)
"""A line under the title giving the default in code: `Default: `v1.17.0``, `- **Default value**: `1``."""
_MOST_DECLARED = 2
"""How many entries of a section must be declared ARGs for its entries to be build args without an
introduction saying so."""


def _entry(para: Paragraph) -> tuple[int, str, int, str] | None:
    """(title line, name, default line, default in code) of a paragraph that is one entry: its first
    line the name alone, one of the next two its default; or, under a heading that is the name alone,
    its first line the default (the title line is then the section's)."""
    lines = para.lines
    title = TITLE.fullmatch(lines[0][1]) if lines else None
    if title is not None:
        under = lines[1:3]
        at, name = lines[0][0], title.group(1)
    elif lines and (heading := TITLE.fullmatch(para.heading)) is not None and para.section:
        under = lines[:1]
        at, name = para.section, heading.group(1)
    else:
        return None
    for line, text in under:
        lead = DEFAULT_LINE.match(text)
        if lead is None:
            continue
        spans = code_spans(text[lead.end() :], html_code=True)
        if spans and spans[0][0] == 0:
            return at, name, line, text[lead.end() :][: spans[0][1]]
    return None


def arg_entry_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each entry (`_entry`) of `doc`: its default against the ARG's when an image declares the name;
    else, when the entry is about a build arg (the paragraph introducing the entries, or the heading,
    says build args, or at least two entries of the section are declared ARGs), the name documented
    but declared nowhere."""
    entries: list[tuple[Paragraph, tuple[int, str, int, str], str]] = []
    intro: dict[int, str] = {}
    for para in doc.paragraphs:
        entry = _entry(para)
        if entry is None:
            intro[para.section] = " ".join(text for _, text in para.lines)
        else:
            entries.append((para, entry, intro.get(para.section, "")))
    declared: dict[int, int] = {}
    for para, (_, name, _, _), _ in entries:
        if name in auditor.declared:
            declared[para.section] = declared.get(para.section, 0) + 1
    for para, (at, name, line, value), said in entries:
        if name in auditor.declared:
            image = IMAGE_REF.fullmatch(value.strip("` "))
            if image is not None and auditor.base_tag_claim(line, image, "says", CERTAIN) is not None:
                continue  # a base image's tag: the README's image reference is reported on its line
            claim = default_in_cell(value)
            yield from some(auditor.default_claim(at, name, claim, CERTAIN))
        elif "_" in name and (
            about_build_args(said)
            or about_build_args(para.heading)
            or declared.get(para.section, 0) >= _MOST_DECLARED
        ):
            yield from some(auditor.arg_claim(at, name, CERTAIN))
