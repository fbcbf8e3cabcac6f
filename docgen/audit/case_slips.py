"""A folder of the build context the README names in other letter case than the COPY that reads it:
the README says to put the cuDNN packages in `./jupyterlab_GPU_base/cuDNN/` while the Dockerfile beside
it copies `cudnn/libcudnn8_….deb`. On a case-insensitive disk (macOS, Windows) the two are one folder;
on Linux, where images are built, files put where the README says are not found (`likely`).

A claim is a relative path in code in the prose, a table cell or a heading, read from the README's
folder, that goes into the folder of an audited Dockerfile (its build context, as `docker build .`
beside it takes it) and whose parts from there are, letter case aside, the leading folders of a
source of one of its COPY or ADD instructions, and not the same letters. Not read: a path that exists
as written (the folder is there, named so), a source with a variable, an absolute source, a
here-document.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.missing import code_paths
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel


def case_slips(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of the README's paths in code that name a copied folder in other letter case
    (module docstring)."""
    contexts = [
        (Path(model.file).resolve().parent, model) for model in models if model.file and model.context_copies
    ]
    if not contexts:
        return
    here = directory.resolve()
    seen: set[str] = set()
    for line, code in code_paths(doc):
        path = code.removeprefix("./").rstrip("/")
        if not path or path in seen or path.startswith(("/", "~", "$")) or any(c in path for c in " *?$<>{}"):
            continue
        target = Path(here, *path.split("/"))
        if os.path.exists(target):
            continue
        for folder, model in contexts:
            try:
                parts = target.relative_to(folder).parts
            except ValueError:
                continue
            found = _copied_in_other_case(parts, model)
            if found is None:
                continue
            source, at = found
            seen.add(path)
            shown = Path(model.path).as_posix()
            yield Diagnostic(
                readme,
                line,
                f"README names {code}, but {shown}:{at} copies {source}: the letter case differs, and a "
                "build on Linux does not find files put where the README says",
                confidence=LIKELY,
            )
            break


def _copied_in_other_case(parts: tuple[str, ...], model: ImageModel) -> tuple[str, int] | None:
    """(the COPY source, its line) whose leading folders are `parts` but for letter case, None when a
    source has them as written or none has them."""
    if not parts:
        return None
    wanted = [p.casefold() for p in parts]
    found: tuple[str, int] | None = None
    for copy in model.context_copies:
        if copy.heredoc:
            continue
        for source in copy.sources:
            source = source.strip("\"'").removeprefix("./")
            if not source or "$" in source or source.startswith("/"):
                continue
            folders = source.split("/")[:-1] if not source.endswith("/") else source.rstrip("/").split("/")
            if len(folders) < len(parts):
                continue
            head = folders[: len(parts)]
            if list(head) == list(parts):
                return None  # a COPY reads the folder as written
            if [f.casefold() for f in head] == wanted and found is None:
                found = source, copy.line
    return found
