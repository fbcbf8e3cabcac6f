"""A Python version the README says conda gives (`- Python 3.8 (conda)`, `conda Python 3.9`) where the
Dockerfile installs the latest conda installer (`…/miniforge/releases/latest/download/Miniforge3-…sh`,
`Miniconda3-latest-Linux-x86_64.sh`) and nothing of the build pins Python: no `python=3.x` in a conda
command or an environment file it copies, no versioned installer (`Miniconda3-py38_…`), no build arg or
ENV of a Python version. Such an environment gets the newest Python its channel has (an environment a
`conda create` names no `python` for) or the installer's own, 3.12 or later for the current Miniforge and
Miniconda installers, so an older version the README states is not what the image has (`likely`). A
version from a base image, an apt package or a `python=` spec is a fact other rules compare; with one,
this rule is silent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.left_over import unread_copies
from docgen.copied import copied_texts
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_CONDA = r"(?:conda|miniconda3?|miniforge3?|mambaforge|anaconda3?|mamba)"
_SAID = re.compile(
    rf"\bPython[ \t]*v?(3\.\d{{1,2}})(?:\.\d{{1,2}})?\b[ \t]*(?:\([ \t]*(?:via[ \t]+|from[ \t]+)?{_CONDA}\b"
    rf"|(?:via|from|in|with)[ \t]+(?:a[ \t]+)?{_CONDA}\b)"
    rf"|\b{_CONDA}[ \t]+(?:with[ \t]+)?Python[ \t]*v?(3\.\d{{1,2}})\b",
    re.IGNORECASE,
)
"""A Python version said to come from conda: `Python 3.8 (conda)`, `Python 3.9 via Miniconda`, `conda
Python 3.10`."""
_LATEST_INSTALLER = re.compile(
    r"(?:miniforge|miniconda|mambaforge|anaconda)[\w./-]{0,80}?(?:/latest/|-latest-)[\w./-]{0,120}",
    re.IGNORECASE,
)
"""A conda installer downloaded as the newest release: `…/miniforge/releases/latest/download/Miniforge3-
Linux-x86_64.sh`, `Miniconda3-latest-Linux-x86_64.sh`."""
_PINNED = re.compile(
    r"\bpython[ \t]*(?:={1,2}|>=?|~=|<|:)[ \t]*[\"']?3|\bpy3\d{1,2}_|\bpython_?version\b|\bpython3\.\d",
    re.IGNORECASE,
)
"""What pins the Python of a build: `python=3.8`, `python==3.10`, `- python: 3.9` (an environment
file), `Miniconda3-py38_4.12.0-Linux-x86_64.sh`, `PYTHON_VERSION`, `python3.10`."""
_NEWEST = (3, 12)
"""The oldest Python the current Miniforge and Miniconda installers bring."""


def _copied_texts(model: ImageModel) -> list[str] | None:
    """The text of each build-context file `model` copies (`copied.copied_texts`: folders walked, no
    link out of the context); None when they are more than docgen reads."""
    copies = copied_texts(model.file, model.context_copies)
    return None if copies is None else [text for _, text in copies[0]]


def _latest_conda(model: ImageModel) -> tuple[int, str] | None:
    """(Dockerfile line, installer) of the newest-release conda installer `model` downloads, when nothing
    of its build pins Python (`_PINNED`, in the Dockerfile or a file it copies, all of them there)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None or _PINNED.search(read[0]) is not None:
        return None
    for inst in read[1].instructions:
        match = _LATEST_INSTALLER.search(inst.args) if inst.keyword in ("RUN", "ADD") else None
        if match is not None:
            texts = None if unread_copies(model) else _copied_texts(model)
            if texts is None or any(_PINNED.search(t) for t in texts):
                return None
            return inst.start_line, match.group().rsplit("/", 1)[-1]
    return None


def _pins_python(model: ImageModel) -> bool:
    """True when the Dockerfile of `model` names a Python version (`_PINNED`), or cannot be read."""
    read = dockerfile_read(model.file)
    return read is None or _PINNED.search(read[0]) is not None


def conda_python(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A Python older than the newest conda installers bring, said to come from conda, where every
    audited image that installs conda installs the newest one and pins no Python (`_latest_conda`)."""
    said = [
        (line, match)
        for para in doc.paragraphs
        for line, text in para.lines
        if "ython" in text and (match := _SAID.search(text)) is not None
    ]
    if not said:
        return
    models = [m for m in auditor.models if m.file]
    conda = [(m, found) for m in models if (found := _latest_conda(m)) is not None]
    if not conda or any(_pins_python(m) for m in models):
        return
    model, (at, installer) = conda[0]
    for line, match in said:
        version = match.group(1) or match.group(2)
        if tuple(int(p) for p in version.split(".")) >= _NEWEST:
            continue
        yield Diagnostic(
            auditor.path,
            line,
            f"README says conda gives Python {version}, but {model.path}:{at} installs the newest "
            f"{installer} and nothing of the build pins Python (that installer brings Python "
            f"{_NEWEST[0]}.{_NEWEST[1]} or later)",
            confidence=LIKELY,
        )
