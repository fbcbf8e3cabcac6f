"""An installer the README says the image holds (`The container includes uv package manager for fast
installations:`, then `uv pip install …` to run in it) that nothing of the image installs, on a base
docgen knows comes without it (a plain OS, language or CUDA image): the commands fail in the container
with `uv: command not found`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import MAYBE, built_bases, copied_context
from docgen.audit.methods import TOOLS
from docgen.audit.provides import NEGATED, REQUIRED
from docgen.audit.wording import line_at, sentences
from docgen.base_contents import carries
from docgen.copied import copied_texts
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_HOLDS = re.compile(
    r"\b(?:image|container)s?\b[^.;:]{0,40}?\b(?:includes|contains|provides|bundles|has"
    r"|comes[ \t]+with|ships(?:[ \t]+with)?)[ \t]+(?:the[ \t]+|an?[ \t]+)?[`*]{0,2}(?P<tool>[a-z]+)[`*]{0,2}"
    r"(?![\w.-])",
    re.IGNORECASE,
)
"""`The container includes uv`, `this image comes with `conda``: the installer the image is said to hold,
right after the word that says so."""


def _word(tool: str) -> re.Pattern[str]:
    """The installer's name as a word of a command or path (`uv pip`, `astral-sh/uv:0.5`, `/uv`), not
    inside another name (`uvicorn`, `UV_SYSTEM_PYTHON`)."""
    return re.compile(rf"(?<![\w.-]){re.escape(tool)}(?![\w-])", re.IGNORECASE)


@functools.lru_cache(maxsize=32)
def _written(model: ImageModel) -> str:
    """What the image's Dockerfile says, comments dropped, and the build-context files it copies: where
    an install of the installer would show (`pip install uv`, `COPY --from=ghcr.io/astral-sh/uv …`,
    `curl -LsSf https://astral.sh/uv/install.sh | sh`, a copied script that installs it)."""
    read = dockerfile_read(model.file)
    if read is None:
        return ""
    _, parsed = read
    texts = [f"{i.keyword} {i.args}" for i in parsed.instructions]
    copied = copied_texts(model.file, model.context_copies)
    texts += [text for _, text in copied[0]] if copied is not None else []
    return "\n".join(texts)


def _lacks(model: ImageModel, tool: str) -> bool:
    """True when `model` cannot hold `tool`: docgen reads all it runs and installs, none of it names the
    installer, and each base it is built on is known to come without it (`base_contents.carries`)."""
    _, run_unread, packages_unread = copied_context(model)
    if run_unread or packages_unread or _word(tool).search(_written(model)):
        return False
    bases = built_bases(model)
    return bool(bases) and all(carries(s.base, [TOOLS[tool]]) is False for s in bases)


def held_tool_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying the image includes, contains, provides or comes with an installer (`uv`,
    `conda`, `poetry` …) that no image compared installs, each read whole and built on bases known to
    lack it (`likely`)."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            match = _HOLDS.search(sentence)
            if match is None or NEGATED.search(sentence) or MAYBE.search(sentence):
                continue
            if REQUIRED.search(sentence, 0, match.start()):
                continue
            tool = match.group("tool").lower()
            if tool not in TOOLS or not all(_lacks(m, tool) for m in models):
                continue
            base = built_bases(models[0])[0].base
            said = (
                f"README says the image includes {tool} but {models[0].path} installs no {tool}, "
                f"and its base {base} comes without it"
            )
            yield Diagnostic(auditor.path, line_at(para.lines, start), said, confidence=LIKELY)
