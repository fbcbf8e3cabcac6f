"""A README saying the setup gives the container a shared memory size (`Setting the SHM size to 8GB,
like ROCm PyTorch now suggests`, `the container runs with 16GB of shared memory`) while no file of the
project sets one: a Dockerfile cannot (the size is a run-time option), and no compose file (`shm_size:`,
`ipc: host`), script, Makefile, manifest or command of the README (`--shm-size`, `--ipc=host`, a
`/dev/shm` mount) does, so Docker gives the container its default 64MB (`likely`: read from prose).

Read: lines of prose (not code blocks) that say the setup sets or uses the size (`setting`, `sets`,
`set to`, `configured`, `increased`, `with`) of the shared memory (`SHM`, `shared memory`, `/dev/shm`)
and give it (`8GB`, `16g`), or that state it with no verb, the size after the name and `of` or `set
to` (`SHM size of 8GB`, `a shared memory of 16GB`, `SHM size is set to 8g`). Silent for advice and
conditions (an item opening with `Set`, `Increase`, `Use`; `you`, `your`, `if`, `should`, `may`,
`need`, `recommend`), for a line about the host, and when any file below the project's root (hidden
folders left out, at most `_MOST_FILES` files, `_DEPTH` folders down) or another line of the README
names one of the settings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.paths import resolves_inside
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_SIZE = r"(\d+(?:\.\d+)?[ \t]*(?:[GMT]i?B|[GMgm]\b|gigabytes?|megabytes?))"
_SHM = r"(?:SHM|shared[ \t-]+memory|/dev/shm)"
_CLAIM = re.compile(
    r"\b(?:setting|sets|set[ \t]+to|configur(?:es|ed|ing)|increas(?:es|ed|ing)|rais(?:es|ed|ing)|with"
    r"|gives?|allocat(?:es|ed|ing))\b[^.\n]{0,40}?"
    rf"(?:\b{_SHM}(?:[ \t]+\(?`?/dev/shm`?\)?)?(?:[ \t]+size)?\b[^.\n\d]{{0,20}}?{_SIZE}"
    rf"|{_SIZE}[ \t]+(?:of[ \t]+)?{_SHM}\b)"
    rf"|\b{_SHM}(?:[ \t]+size)?(?:[ \t]+(?:is[ \t]+)?(?:set[ \t]+to|of)|[ \t]*:)[ \t]*{_SIZE}",
    re.IGNORECASE,
)
"""`Setting the SHM size to 8GB`, `runs with 16GB of shared memory`, `SHM size is set to 8g`, `SHM size:
8GB` (a label with its colon)."""
_NOT_SAID = re.compile(
    r"^[ \t]*(?:(?:[-*+]|\d+[.)])[ \t]+)?(?:\*\*|__)?"
    r"(?:set|increase|raise|use|add|pass|give|configure|allocate)\b"
    r"|\byou\b|\byour\b|\bif\b|\bunless\b|\bwhen\b|\bshould\b|\bmust\b|\bneeds?\b|\bmay\b|\bmight\b"
    r"|\bcan\b|\bcould\b|\brecommend|\bnot\b|n't\b|\bwithout\b|\bhost\b|\bdefault\b",
    re.IGNORECASE,
)
"""Advice, a condition, a negation, the host or Docker's default: not a claim about the setup."""
_SETS = re.compile(
    r"shm[_-]?size|\bShmSize\b|--ipc\b|\bipc:[ \t]*[\"']?host|/dev/shm|\bmedium:[ \t]*[\"']?Memory",
    re.IGNORECASE,
)
"""A setting giving a container its shared memory: `shm_size:`, `--shm-size`, `ipc: host`, `--ipc=host`,
a `/dev/shm` mount, a Kubernetes `emptyDir` in memory."""
_MOST_FILES = 3_000
_DEPTH = 4
_SKIPPED = frozenset({"node_modules", "__pycache__", "venv", ".venv"})


def _set_anywhere(top: Path, readme: Path) -> bool | None:
    """True when a file below `top` (the README left out) names a shared memory setting; None when the
    tree holds more than `_MOST_FILES` files (not known)."""
    read = 0
    base = len(top.parts)
    for folder, dirs, names in os.walk(top):
        here = Path(folder)
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and d not in _SKIPPED and len(here.parts) - base < _DEPTH
        )
        for name in sorted(names):
            path = here / name
            read += 1
            if read > _MOST_FILES:
                return None
            if not resolves_inside(path, top) or real_path(path) == readme:
                continue
            text = text_or_none(path)
            if text is not None and _SETS.search(text):
                return True
    return False


def shm_sizes(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """The shared memory size `doc` says the setup gives the container that nothing of the project sets
    (see the module docstring), once per README line (`likely`)."""
    if (
        "shm" not in text.lower()
        and "shared memory" not in text.lower()
        and "shared-memory" not in text.lower()
    ):
        return
    said = [
        (line, claim)
        for para in doc.paragraphs
        for line, words in para.lines
        if (claim := _CLAIM.search(words)) and not _NOT_SAID.search(words)
    ]
    if not said:
        return
    lines = {line for line, _ in said}
    others = "\n".join(t for n, t in enumerate(text.splitlines(), 1) if n not in lines)
    if _SETS.search(others):
        return  # the README's own command or another page's line sets it
    top = real_path(project if project is not None else directory)
    if _set_anywhere(top, real_path(directory / os.path.basename(readme))) is not False:
        return
    for line, claim in said:
        size = next(g for g in claim.groups() if g)
        yield Diagnostic(
            readme,
            line,
            f"README says the container is given {size.strip()} of shared memory, but no file of the "
            "project sets it (no shm_size, --shm-size, ipc: host or /dev/shm mount in its compose files, "
            "scripts or the README's commands; a Dockerfile cannot): Docker gives a container 64MB",
            confidence=LIKELY,
        )
