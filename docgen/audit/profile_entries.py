"""A shell start file the README says the image's build writes an entry to (`an entry is entered to
`/etc/profile` in order to add the Python modules to the `PYTHONPATH``, `source /opt/ros/setup.bash is
appended to `/root/.bashrc``) that nothing of the build names: no instruction of the Dockerfile (nor of
the audited Dockerfile its image is built on), no build-context file it copies. The step the sentence
describes is gone from the build (or never was), and the shell of the container starts without it.

A sentence is a claim when it names the file in code and says an entry, a line or an export is added,
appended, written or entered to it, with the image or its build as the one that does it (a passive
`is entered`, or `the Dockerfile appends`); one that tells the reader what to do (`Add the following to
your `.bashrc``, `you can append`) is none. `likely`: the words are the README's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read, own_base
from docgen.audit.contents import copied_context
from docgen.audit.wording import line_at, sentences
from docgen.copied import copied_texts
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_START_FILE = re.compile(
    r"(?:/etc/profile(?:\.d/[\w.-]+)?|/etc/bash\.bashrc|/etc/environment"
    r"|(?:~|\$HOME|/root|/home/[\w.-]+)/\.(?:bashrc|profile|bash_profile|zshrc))"
)
"""A file a shell reads when it starts, in the image (`/etc/profile`, `/root/.bashrc`)."""
_WRITTEN = re.compile(
    r"\b(?:is|are|gets?|has[ \t]+been|have[ \t]+been|was|were)[ \t]+(?:\w+[ \t]+)?"
    r"(?:added|appended|written|entered|inserted|put|placed)\b"
    r"|\b(?:image|container|dockerfile|build|script)s?[ \t]+(?:also[ \t]+)?"
    r"(?:adds|appends|writes|enters|inserts|puts|modifies|updates|edits)\b",
    re.IGNORECASE,
)
"""Words saying the build writes the entry: passive (`an entry is entered`), or the image as the subject."""
_READER = re.compile(
    r"\b(?:you|your|yourself|please|should|must|need|needs|if|optional|can|may|recommend\w*)\b", re.I
)
"""Words making the sentence the reader's step or a choice, not what the build does."""
_VARIABLE = re.compile(r"\A[A-Z][A-Z0-9_]{2,}\Z")


def _key(path: str) -> str:
    """What a build writing to `path` names: `/etc/profile` (or `profile.d`), `bashrc`, `/etc/environment`."""
    name = path.rsplit("/", 1)[-1]
    if path.startswith("/etc/profile"):
        return "/etc/profile"
    return name.lstrip(".") if name.startswith(".") else path


def _build_texts(model: ImageModel, models: tuple[ImageModel, ...]) -> list[str] | None:
    """The instructions of `model`'s Dockerfile and of the audited Dockerfiles it is built on, and the
    build-context files it copies; None when it runs what docgen cannot read."""
    texts: list[str] = []
    current: ImageModel | None = model
    seen: set[str] = set()
    while current is not None and current.file and current.file not in seen:
        seen.add(current.file)
        read = dockerfile_read(current.file)
        copies = copied_texts(current.file, current.context_copies)
        if read is None or copies is None:
            return None
        if current is model and copied_context(model)[1]:
            return None
        texts += [f"{i.keyword} {i.args}" for i in read[1].instructions]
        texts += [text for _, text in copies[0]]
        current = own_base(current, models)
    return texts


def profile_entry_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A start file a sentence says the build writes an entry to (see the module docstring) that no
    audited image's build names (`likely`), with the variable in code the sentence says the entry sets
    when the build does not name it either."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    for para in doc.paragraphs:
        if not any("`" in text for _, text in para.lines):
            continue
        for start, _, sentence in sentences(para.lines):
            if not _START_FILE.search(sentence):
                continue  # (most sentences: their code spans are not read)
            spans = [content.strip() for _, _, content in code_spans(sentence)]
            files = [s for s in spans if _START_FILE.fullmatch(s)]
            written = _WRITTEN.search(sentence)
            if not files or written is None or _READER.search(sentence):
                continue
            texts = [_build_texts(m, auditor.family or models) for m in models]
            if any(t is None for t in texts):
                return
            joined = ["\n".join(t or ()) for t in texts]
            path = files[0]
            if any(_key(path) in text for text in joined):
                continue
            variables = [s for s in spans if _VARIABLE.fullmatch(s) and not any(s in t for t in joined)]
            also = f" (nor {', '.join(variables)})" if variables else ""
            yield Diagnostic(
                auditor.path,
                line_at(para.lines, start + sentence.find(path)),
                f"README says the build writes an entry to {path}, but nothing of {models[0].path} or the "
                f"files it copies names {_key(path)}{also}: no step of the build writes it",
                confidence=LIKELY,
            )
