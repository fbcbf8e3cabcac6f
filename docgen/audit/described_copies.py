"""A file the README describes as part of the image by the words of its name (`Pre-configured with sample
workflows`) that the audited Dockerfile copies (`COPY docker/sample_workflow.json …`) while no folder
of the project, from the Dockerfile's own up to the project's top, holds it: the build stops at that COPY
and the image never ships what the sentence promises.

For a README that does not build the image itself (it pulls a published one, or a build guide of its
own builds it), `references.context_misses` has no build command to read; the sentence is the tie.
Only when the Dockerfile's other sources are there (a folder holds each: the project is not a copy of a
few of its files), every source no folder holds is named as a file (`references.plain_files`), the
name has two words or more (`sample_workflow`: `sample workflow`, `sample workflows`), and the README
names neither the file itself (a file it tells to bring or knows) nor says to make it on that line
(`references.MAKES_FILE`). `likely`: the words are the README's, not a command.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.references import MAKES_FILE, build_ignored, copied_sources, plain_files, project_top
from docgen.files import real_path
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_WORD = re.compile(r"[A-Za-z]{3,}")
"""A word of a file's name worth reading in prose: three letters or more (`sample`, `workflow`)."""


def _words_pattern(stem: str) -> re.Pattern[str] | None:
    """The words of a file's name as prose writes them (`sample_workflow` → `sample workflow(s)`,
    `sample-workflow`); None when the name is not two words or more, each of letters only."""
    parts = re.split(r"[_.-]+", stem)
    if len(parts) < 2 or not all(_WORD.fullmatch(p) for p in parts):
        return None
    joined = r"(?:[ \t]+|[-_])".join(re.escape(p) + r"s?" for p in parts)
    return re.compile(rf"(?<![\w-]){joined}(?![\w-])", re.IGNORECASE)


def _held(path: str, folders: Sequence[Path]) -> bool:
    return any(os.path.lexists(folder / path) for folder in folders)


def described_copies(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
    told: Sequence[str] = (),
) -> Iterator[Diagnostic]:
    """The files of `models`' Dockerfiles that the README's prose describes by the words of their name and
    no folder holds (see the module); not one a finding already `told` names (`README builds …, which
    does not hold it`)."""
    top = real_path(project_top(directory, project))
    prose = [(line, text) for para in doc.paragraphs for line, text in para.lines]
    if not prose:
        return
    whole = "\n".join(source)
    seen: set[str] = set()
    for model in models:
        if not model.file or (read := dockerfile_read(model.file)) is None:
            continue
        dockerfile = real_path(Path(model.file))
        folders = [f for f in [dockerfile.parent, *dockerfile.parent.parents] if f.is_relative_to(top)]
        sources = [
            (at, path)
            for at, path in copied_sources(read[1].instructions)
            if not build_ignored(path, folders)
        ]
        missing = [(at, path) for at, path in sources if not _held(path, folders)]
        if not missing or len(missing) == len(sources):
            continue
        files = plain_files(missing, read[1].instructions)
        if len(files) != len(missing):
            continue
        for at, path in files:
            name = posixpath.basename(path)
            pattern = _words_pattern(name.rsplit(".", 1)[0])
            if pattern is None or path in seen or any(f"{path} (line {at})" in t for t in told):
                continue
            if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", whole):
                continue  # the README names the file: one it tells to bring, or knows
            said = next(
                (
                    (line, m.group(0))
                    for line, text in prose
                    if (m := pattern.search(text)) and not MAKES_FILE.search(text)
                ),
                None,
            )
            if said is None:
                continue
            seen.add(path)
            shown = os.path.relpath(dockerfile, real_path(directory))
            yield Diagnostic(
                readme,
                said[0],
                f"README describes {said[1]}, but {shown}:{at} copies them from {path}, which no folder of "
                "the project holds: the image's build stops at that COPY",
                confidence=LIKELY,
            )
