"""A package a README tells to download by its URL (`[TensorRT-7.2.3.4.Ubuntu-18.04….tar.gz](https://…
/TensorRT-7.2.3.4.Ubuntu-16.04….tar.gz)`) whose file name is not the one an audited Dockerfile copies
from the build context (`COPY TensorRT-7.2.3.4.Ubuntu-18.04….tar.gz /workspace/`) but the same name with
other numbers (another version, another release of the OS): the reader downloads a file the build does
not copy, and the build stops at that COPY.

Only an archive or package (`.tar.gz`, `.tgz`, `.zip`, `.deb`, `.whl`, `.run` …) the build context does
not hold (from the Dockerfile's folder or the README's); the two names equal once each run of digits is
read as any number, and not the same. Silent when a URL of the README ends in the copied name (it is
offered too), when a code line of the README names the copied file (a command saves or renames the
download: `wget … -O TensorRT-…18.04….tar.gz`, `mv`), and for a source with a variable left unexpanded or
a glob.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.copied import context_path
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PACKAGE = r"[\w.+-]+\.(?:tar\.gz|tar\.xz|tar\.bz2|tgz|txz|zip|deb|rpm|whl|run)"
_URL_FILE = re.compile(rf"\bhttps?://[^\s()<>\"'`]*/({_PACKAGE})(?=[\s()<>\"'`?#]|\Z)", re.IGNORECASE)
"""A URL whose path ends in an archive or package file: its file name."""
_DIGITS = re.compile(r"\d+")


def downloaded_copies(
    doc: Document, source: Sequence[str], models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """The downloads of the README (see the module) whose file an audited Dockerfile copies under
    another version's name; one finding a README line and file name, naming every COPY of it."""
    urls: list[tuple[int, str]] = []  # (README line, file name) of each URL of a package
    for number, text in enumerate(source, start=1):
        if "://" in text:
            urls.extend((number, m.group(1)) for m in _URL_FILE.finditer(text))
    if not urls:
        return
    offered = {name for _, name in urls}
    code = [text for fence in doc.fences for _, text in fence.lines]
    copied: dict[str, list[str]] = {}  # the masked name → `Dockerfile:line copies NAME` of each copy
    names: dict[str, set[str]] = {}  # the masked name → the names copied
    for model in models:
        if not model.file:
            continue
        folder = Path(model.file).parent
        for copy in model.context_copies:
            for word in copy.sources:
                path = context_path(word)
                if path is None or any(c in path for c in "$*?[{"):
                    continue
                name = posixpath.basename(path)
                if not re.fullmatch(_PACKAGE, name, re.IGNORECASE) or name in offered:
                    continue
                if any(os.path.lexists(base / path) for base in (folder, directory)):
                    continue
                if any(name in text for text in code):
                    continue
                masked = _DIGITS.sub("0", name)
                copied.setdefault(masked, []).append(f"{model.path}:{copy.line}")
                names.setdefault(masked, set()).add(name)
    if not copied:
        return
    seen: set[tuple[int, str]] = set()
    for number, name in urls:
        masked = _DIGITS.sub("0", name)
        if masked not in copied or (number, name) in seen or len(names[masked]) != 1:
            continue
        seen.add((number, name))
        (meant,) = names[masked]
        where = ", ".join(copied[masked])
        yield Diagnostic(
            readme,
            number,
            f"README links {name} to download, but {where} cop{'ies' if len(copied[masked]) == 1 else 'y'} "
            f"{meant}: the build does not find the file downloaded",
            confidence=CERTAIN,
        )
