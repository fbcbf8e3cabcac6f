"""A file of the repository the README says goes into the build (`Nunchaku is in wheels.txt so it will
be part of the build`, `` the packages in `extra.txt` are installed into the image ``) that no audited
Dockerfile copies or names: editing it changes nothing (`likely`).

A line of prose is a claim when it names a package or settings file beside the README (a `.txt`,
`.toml`, `.cfg`, `.lock`, `.in`, `.yml` or `.yaml` name that is there, in code or not; not a compose
file) and says it goes into the build or the image (`part of the build`, `installed into the image`,
`at build time`, `during the build`). It is a drift only when every audited Dockerfile can be read and
none copies it (a COPY or ADD of the file, of a folder above it, or of the whole context) nor names it
anywhere (a `RUN --mount=…,source=wheels.txt`, a comment). Not when the clause saying so denies it
(`is not part of the build`, `never`, `n't`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.compose import COMPOSE_FILE
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_INTO_BUILD = re.compile(
    r"\bpart[ \t]+of[ \t]+the[ \t]+(?:docker[ \t]+)?(?:build|image)\b"
    r"|\b(?:installed|baked|included|copied|added)[ \t]+(?:in|into|to)[ \t]+the[ \t]+(?:docker[ \t]+)?image\b"
    r"|\bat[ \t]+build[ \t]+time\b|\bduring[ \t]+the[ \t]+(?:docker[ \t]+)?build\b",
    re.IGNORECASE,
)
"""Words saying a file goes into the build (`part of the build`, `installed into the image`)."""
_DENIED = re.compile(r"\b(?:not|never|no[ \t]+longer)\b|n't\b", re.IGNORECASE)
_FILE = re.compile(r"(?<![\w./$-])([\w][\w.-]*\.(?:txt|toml|cfg|lock|in|ya?ml))(?![\w/-])")
"""A package or settings file's name (`wheels.txt`, `requirements.in`, `environment.yml`)."""


def _sources(instructions: Sequence[object]) -> list[str]:
    """The sources of each COPY and ADD not from another stage, as written (`./`, `src/`, `a.txt`)."""
    found: list[str] = []
    for inst in instructions:
        keyword = getattr(inst, "keyword", "")
        if keyword not in ("COPY", "ADD") or any(f.name == "from" for f in getattr(inst, "flags", ())):
            continue
        words = list(getattr(inst, "exec_form", None) or getattr(inst, "args", "").split())
        found.extend(words[:-1])
    return found


def _covers(source: str, name: str) -> bool:
    """True when a COPY source may bring the file `name` (a path from the README's folder) in: the file
    itself, a folder above it, the whole context, or a pattern (`*.txt`)."""
    if any(c in source for c in "$*?[{"):
        return True
    path = posixpath.normpath(source.lstrip("/")) if source.strip("/.") else "."
    return path == "." or path == name or posixpath.basename(path) == posixpath.basename(name)


def unread_files(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """Each line of prose saying a file beside the README goes into the build that no audited
    Dockerfile copies or names (see the module docstring)."""
    claims: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        for line, text in para.lines:
            into = _INTO_BUILD.search(text)
            if into is None or _DENIED.search(re.split(r"[,.;:!?]", text[: into.start()])[-1]):
                continue  # (`… is not part of the build`; a later `if you don't want it` denies nothing)
            claims.extend((line, m.group(1)) for m in _FILE.finditer(text.replace("`", " ")))
    claims = [(line, name) for line, name in claims if not COMPOSE_FILE.fullmatch(name)]
    if not claims or not models:
        return
    reads = []
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            return
        reads.append(read)
    said: set[str] = set()
    for line, name in claims:
        if name in said or not os.path.isfile(directory / name):
            continue
        word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if any(word.search(text) for text, _ in reads):
            continue
        if any(_covers(s, name) for _, parsed in reads for s in _sources(parsed.instructions)):
            continue
        said.add(name)
        shown = " and ".join(dict.fromkeys(posixpath.basename(m.path) or m.path for m in models))
        yield Diagnostic(
            readme,
            line,
            f"README says {name} goes into the build, but {shown} never copies or names it: "
            "editing it changes nothing",
            confidence=LIKELY,
        )
