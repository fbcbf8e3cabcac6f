"""Defaults a README states for a family of images, against each image: a build arg's or environment
variable's default given once for all of them (`` `ROCM_VERSION` … start with the default of `5.6` ``
under `Each recipe has the following build arguments`) holds for each image that declares it, so
each image declaring another default is named, not only when none agrees; a default given for one
variant (`CPU version defaults to `cpu``) is compared with the images of that variant only.

A line is read when it starts with a variable in code and gives a default in code after a default
word (`default`, `by default`, `默认`: the structure, not the language, is read). A value whose words
name no variant is the family's only when every image the part is about declares the variable;
several values on one line are read each with the variant named before it, and one naming no variant
of the family says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.cells import default_in_cell
from docgen.audit.env_defaults import final_env, same
from docgen.audit.keyed import item_scopes
from docgen.audit.paragraphs import item_auditors, nested_file_scopes
from docgen.audit.paths import variant
from docgen.audit.wording import DEFAULT_WORDS, LIST_ITEM
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_NAME = re.compile(r"[A-Z][A-Z0-9_]{2,}\Z")
"""A variable's name (`ROCM_VERSION`, `WHISPER_MODEL`)."""
_REACH = 48
"""How far before a value in code its default word may be (`the default of `5.6``)."""
_NOT_THE_DEFAULT = re.compile(
    r"\b(?:not|no[ \t]+longer|instead|override|overrid|e\.g|example)", re.IGNORECASE
)


def family_defaults(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of each default the part's list items and lines give a variable of several images."""
    if len(auditor.models) < 2:
        return
    variants = [_variant_words(model) for model in auditor.models]
    for para in part.paragraphs:
        if not any(DEFAULT_WORDS.search(text) for _, text in para.lines):
            continue  # (most paragraphs)
        # an item a note, its nested items or its leading name bind to one image is that image's
        bound = {*item_auditors(para, auditor), *nested_file_scopes(para, auditor)}
        bound |= set(item_scopes(para.lines, auditor))
        for line, text in para.lines:
            if line not in bound and DEFAULT_WORDS.search(text):
                yield from _line_defaults(line, text, auditor, variants)


def _variant_words(model: ImageModel) -> frozenset[str]:
    """The words naming `model`'s variant (`cuda` for `Dockerfile.cuda.12`, `cpu`); none for `Dockerfile`."""
    said = variant(model.path) or ""
    return frozenset(w for w in re.split(r"[^a-z0-9]+", said) if len(w) >= 3 and not w.isdigit())


def _line_defaults(
    line: int, text: str, auditor: Auditor, variants: list[frozenset[str]]
) -> Iterator[Diagnostic]:
    item = LIST_ITEM.match(text)
    body = text[item.end() if item else 0 :].lstrip("*_ \t")
    spans = code_spans(body, html_code=True)
    if not spans or spans[0][0] != 0 or not _NAME.match(spans[0][2].strip()):
        return
    name = spans[0][2].strip()
    values: list[tuple[int, int, str]] = []  # (clause start, value start, value)
    last = spans[0][1]
    for start, stop, content in spans[1:]:
        before = body[max(last, start - _REACH) : start]
        if DEFAULT_WORDS.search(before) and not _NOT_THE_DEFAULT.search(body[last:start]):
            values.append((last, start, content.strip()))
        last = stop
    if not values:
        return
    for clause_start, value_start, value in values:
        clause = body[clause_start:value_start].lower()
        named = [i for i, words in enumerate(variants) if any(_word_in(w, clause) for w in words)]
        if not named:
            if len(values) > 1:
                continue  # one of several values, for no variant docgen knows
            named = list(range(len(auditor.models)))
            if not _declared_by_all(name, [auditor.models[i] for i in named]):
                continue
        for index in named:
            yield from _compare(auditor, auditor.models[index], line, name, value)


def _word_in(word: str, text: str) -> bool:
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text) is not None


def _declared_by_all(name: str, models: list[ImageModel]) -> bool:
    """True when every model declares `name` with a value: as an ARG with a default, or an ENV."""
    return all(
        any(d.name == name and d.effective_default for d in model.args) or name in final_env(model)
        for model in models
    )


def _compare(auditor: Auditor, model: ImageModel, line: int, name: str, value: str) -> Iterator[Diagnostic]:
    """The finding when `model`'s default of `name` is not `value`, worded as the rules for one image
    word it (`Defaults that changed`, `Defaults of the container's environment variables`)."""
    if "$" in value or "<" in value:
        return
    if any(d.name == name and d.effective_default for d in model.args):
        found = auditor._with((model,)).default_claim(line, name, default_in_cell(f"`{value}`"), LIKELY)
        if found is not None:
            yield found
        return
    env = final_env(model)
    if name in env:
        held, at, how = env[name]
        if "$" not in held and not same(value.strip("\"'"), held):
            yield Diagnostic(
                auditor.path,
                line,
                f"README says {name} defaults to {value} but {model.path}:{at} {how}",
                confidence=LIKELY,
            )
