"""An example Dockerfile in the README that is the audited one but for its base: a block (```` ```dockerfile
````, or one that reads as a Dockerfile) whose every instruction but the base is the file's, word for
word, or holds a placeholder (`RUN pip install <package>`), at least `_LEAST` of them, and whose `FROM`
(or the `ARG` default the `FROM` takes, `ARG BASE=…:23.04` then `FROM ${BASE}`) names the repository the
file starts from at another tag of the same shape (`23.04-tf2-py3` for `24.04-tf2-py3`). The README
calls it an example (`Example Dockerfile that can be used to run the server`), so the copy rules
(`copies`) leave it; the file moved to a newer base and the example stayed (`likely`).

Not a claim: a block the copy rules read as a copy (they compare it); a block with a line of its own
(the reader's additions: `RUN pip install mypkg`), or built on another image (the project's own, `FROM
org/app:1.0`, to extend it); a base with a placeholder or a variable left; a tag of another shape (another
variant of the repository); a block the words above present as a past state (`the older Dockerfile`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.commands import image_repository
from docgen.audit.copies import (
    DOCKERFILE_LANGS,
    Lines,
    block_instructions,
    copied_model,
    file_instructions,
    instruction_shape,
    intro_words,
    reads_as_dockerfile,
)
from docgen.audit.excerpts import PLACEHOLDER, reference_tag
from docgen.audit.versions import skeleton
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_LEAST = 4
"""Instructions besides the base an example must share with the file (fewer say too little)."""
_ABOVE = 4
"""README lines above a block read for words about the past."""
_PAST = re.compile(r"\b(?:older|previous|earlier|legacy|deprecated|outdated)\b", re.IGNORECASE)
"""Words presenting a block as a past state of the file."""
_FROM = re.compile(r"FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)(?:[ \t]+(?:AS|as)[ \t]+\S+)?[ \t]*\Z")
_ARG = re.compile(r"ARG[ \t]+([A-Za-z_][A-Za-z0-9_]*)=(\S+)[ \t]*\Z")
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\Z")


def _base(block: list[tuple[str, Lines]]) -> tuple[int, str, set[int]] | None:
    """(README line, image, indexes of the instructions that give it) of the block's one `FROM`: its
    image, or the default of the `ARG` before it that it names (`FROM ${BASE}`); None for a block with
    no `FROM` or several, or an image left a variable."""
    froms = [i for i, (keyword, _) in enumerate(block) if keyword == "FROM"]
    if len(froms) != 1:
        return None
    at = froms[0]
    line, text = block[at][1][0]
    m = _FROM.match(text.strip())
    if m is None:
        return None
    image, used = m.group(1), {at}
    if (var := _VARIABLE.match(image)) is not None:
        args = [
            (i, lines[0][0], a.group(2).strip("\"'"))
            for i, (keyword, lines) in enumerate(block[:at])
            if keyword == "ARG" and (a := _ARG.match(lines[0][1].strip())) and a.group(1) == var.group(1)
        ]
        if not args:
            return None
        index, line, image = args[-1]
        used.add(index)
    if "$" in image or PLACEHOLDER.search(image):
        return None
    return line, image, used


def example_copies(doc: Document, fence: Fence, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """The base of `fence` when it is an audited Dockerfile's example copy at an older base (see the
    module docstring); `text`, the README as written (`doc` may have words about the past blanked)."""
    if not fence.lines:
        return
    if fence.lang.lower() not in DOCKERFILE_LANGS and not reads_as_dockerfile(fence):
        return
    start = fence.lines[0][0]
    above = "\n".join(text.splitlines()[max(0, start - 1 - _ABOVE) : start - 1])
    if _PAST.search(intro_words(doc, fence)) or _PAST.search(above) or copied_model(doc, fence, auditor):
        return
    block = block_instructions(fence.lines)
    base = _base(block)
    if base is None:
        return
    line, said, used = base
    rest = [instruction_shape(lines) for i, (_, lines) in enumerate(block) if i not in used]
    for model in auditor.models:
        if not model.stages:
            continue
        shapes = {instruction_shape(lines) for _, lines in file_instructions(model)}
        shared = [shape for shape in rest if shape in shapes]
        if len(shared) < _LEAST or any(s not in shapes and not PLACEHOLDER.search(s) for s in rest):
            continue
        stage = model.stages[0]
        fact = stage.base
        if "$" in fact or image_repository(fact.lower()) != image_repository(said.lower()):
            continue
        if fact.lower() == said.lower():
            return  # the example is the file's, base and all
        if not reference_tag(said) or skeleton(reference_tag(said)) != skeleton(reference_tag(fact)):
            continue
        yield Diagnostic(
            auditor.path,
            line,
            f"README's example Dockerfile is {model.path} but for its base: it says FROM {said} but "
            f"{model.path}:{stage.line} says FROM {fact}",
            confidence=LIKELY,
        )
        return
