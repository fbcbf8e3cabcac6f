"""Claims that a component is in every image of the README (`GNU Parallel is installed in each software
stack`, `all images ship git-lfs`, `every variant includes NCCL`), against what each audited Dockerfile
installs: an image that installs none of it while another installs it is named.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.contents import copied_context, installed_under, installing
from docgen.audit.versions import name_keys, norm
from docgen.audit.wording import is_example
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_ALL = r"(?:each|every|all)(?:[ \t]+of)?(?:[ \t]+(?:the|our|these|those))?(?:[ \t]+[\w-]+)?[ \t]+"
_KIND = r"(?:images?|stacks?|variants?|containers?|flavou?rs?|tags?)\b"
_NAME = r"[*_`]*([A-Za-z][\w.+-]*[A-Za-z0-9](?:[ \t]+[A-Z][\w.+-]*[A-Za-z0-9])?)[*_`]*"
_EVERY_HOLDS = re.compile(
    rf"(?<![\w.+-]){_NAME}[ \t]+(?:is|are|comes?|gets?)[ \t]+(?:also[ \t]+)?(?:pre-?)?"
    rf"(?:installed|included|bundled|shipped|present|available)[ \t]+(?:in|on|with|into)[ \t]+{_ALL}{_KIND}"
    rf"|\b{_ALL}{_KIND}[ \t]+(?:also[ \t]+)?(?:ships?(?:[ \t]+with)?|includes?|contains?|comes?[ \t]+with"
    rf"|bundles?|installs?)[ \t]+(?:the[ \t]+)?{_NAME}",
    re.IGNORECASE,
)
"""`X is installed in each software stack`, `X is included in all images`, `all images ship X`, `every
image includes X`: the component is said to be in every image."""
_OWN = re.compile(
    r"\A[ \t]*(?:its|their)[ \t]+own\b|\A[ \t]*(?:a|an)[ \t]+(?:different|separate|own)\b", re.I
)
"""`each image has its own X`, `every image ships a different X`: not one component in all of them."""
_VENDOR = re.compile(r"\A(?:gnu|the)[ \t]+", re.IGNORECASE)
"""A word before a component's name that its package does not carry (`GNU Parallel` is `parallel`)."""
_MAYBE = re.compile(r"\bif\b|\bunless\b|\boptional|\bwhen\b|--build-arg|\bhost\b|\bexcept\b|\bbut\b", re.I)
"""Words that make the claim conditional or name exceptions."""


def every_image_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A component a sentence says every image holds (`_EVERY_HOLDS`) that some audited image does not
    install while another does, so the project installs it itself: each image lacking it is named
    (`likely`). An image docgen cannot read whole (a script, a requirements file it has no copy of) or
    built on a base given only by a build arg (a layer over another image) is not said to lack it."""
    models = auditor.family
    if len(models) < 2:
        return
    for para in doc.paragraphs:
        for line, text in para.lines:
            if not _EVERY_HOLDS.search(text) or _MAYBE.search(text):
                continue
            for match in _EVERY_HOLDS.finditer(text):
                name = match.group(1) or match.group(2)
                if (match.group(2) and _OWN.match(text[match.start(2) :])) or is_example(text, match):
                    continue
                yield from _lacking(auditor, line, name, models)


def _lacking(auditor: Auditor, line: int, name: str, models: tuple[ImageModel, ...]) -> Iterator[Diagnostic]:
    """The findings for `name`, said to be in every image of `models`: one per image lacking it."""
    bare = _VENDOR.sub("", name)
    if len(norm(bare)) < 3:
        return
    wanted = name_keys(name, auditor.names) | name_keys(bare, auditor.names) | installed_under(bare)
    held = [(model, installing(model, None, wanted)) for model in models]
    having = next(((m, c) for m, c in held if c is not None), None)
    if having is None:
        return  # no image installs it: nothing tells what installs it
    for model, comp in held:
        if comp is not None or not _readable(model):
            continue
        said = (
            f"README says {name} is in every image but {model.path} installs no {bare} "
            f"({having[0].path}:{having[1].line} installs {having[1].name})"
        )
        yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


def _readable(model: ImageModel) -> bool:
    """True when docgen reads all that `model` installs (no unread script or package list) and each
    of its stages starts from an image it names, not one a build arg alone gives (`FROM ${BASE}`)."""
    # (a downloaded tarball is read as the component it is; a download run by a shell is `context`'s)
    unread = any(c.method in ("requirements", "script") for c in model.components)
    if model.unread or unread or (model.file and any(copied_context(model)[1:])):
        return False  # (`context`: a script or package list it copies or runs that docgen has not)
    return all(stage.base and "$" not in stage.base for stage in model.stages if stage.parent is None)
