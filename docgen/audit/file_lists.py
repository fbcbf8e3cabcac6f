"""A list of the files of the README's folder (`## Files`, `## Project structure`, `This directory
contains:`) naming a file that is not there, while most of its other files are: the list was written
for another folder, or the file moved (`docker-compose.yml` listed in `config/` while it is at the
repository root).

A list of files to create, or that a build writes, has most of its files missing, and says nothing:
the rule needs at least `_EXISTING` listed files present and twice as many present as missing.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.missing import (
    _GENERATED,
    _OUTPUT,
    _PLACEHOLDER,
    _PROMPT,
    _WORD,
    _ignore_patterns,
    _ignored,
    repository_root,
)
from docgen.markdown import Document, lists
from docgen.model import Diagnostic

_ABOUT_FILES = re.compile(
    r"\b(?:files?|structure|layout|contents|directory|folder|tree|what'?s[ \t]+(?:here|inside))\b", re.I
)
"""A heading or an introduction that says a list is of files (`## Files`, `## Project structure`)."""
_HERE = re.compile(
    r"\b(?:this|current)[ \t]+(?:directory|folder|dir)\b|\bfiles?[ \t]+(?:here|in[ \t]+here)\b", re.I
)
"""Words that say the files are the README's folder's (`This directory contains`)."""
_ELSEWHERE = re.compile(
    r"\b(?:will|would|should|must|to[ \t]+be|generated|created|produced|output|written|after|once|planned"
    r"|todo|future|example)\b",
    re.I,
)
"""Words that say a list is of files to come (`files the build generates`), not of the folder as it is."""
_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*|__)?`?(?:\./)?([\w.][\w.+/-]*)`?(?:\*\*|__)?"
    r"(?:[ \t]*(?::|-|–|—|\(|$)|[ \t]+[-–—:])"
)
"""A list item that starts with a file's name (`- `compose.yaml` - …`, `- **build.sh**: …`)."""
_EXISTING = 3
"""Listed files that must exist for a list to be taken as the folder's."""
_GENERATED_NAME = re.compile(r"\.(?:log|out|tmp|pid|sqlite|db)\Z|\A\.env\Z|\A(?:output|outputs|results?)/?\Z")
"""Files a run writes or a reader creates (`app.log`, `.env`): a listed one may not be committed."""


def _file_like(name: str) -> bool:
    """True when `name` looks like a file or folder of the repository (`compose.yaml`, `Dockerfile.gpu`,
    `.dockerignore`, `scripts/`), not a word (`Usage`, `Note`)."""
    base = name.rstrip("/").rsplit("/", 1)[-1]
    return bool(base) and (
        name.endswith("/")
        or base.startswith(".")
        or "." in base.strip(".")
        or base.startswith(("Dockerfile", "Makefile", "LICENSE", "README"))
    )


def _listed_absent(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A file (in code or bold, or plain with a suffix) at the start of an item of a list whose heading
    or introduction says it is of files (`## Files`, `project structure`, `This directory contains`),
    that does not exist in the README's folder while at least `_EXISTING` of the list's files do, twice
    as many as are missing: `certain` when the README says the files are this folder's (`this
    directory`), else `likely`; the finding says where a file of that name is (the folder above, the
    repository root). Not a list of files to come (`generated`, `will`), a file the README's commands
    make or git ignores, nor one a run writes (`*.log`, `.env`)."""
    root = repository_root(directory)
    here = directory.resolve()
    made = _created(doc)
    patterns = _ignore_patterns([here, *([root] if root is not None else [])], root)
    whole = " ".join(t for p in doc.paragraphs[:2] for _, t in p.lines)
    for block in lists(doc):
        about = f"{block.heading} {block.intro}"
        if not _ABOUT_FILES.search(about) or _ELSEWHERE.search(block.intro):
            continue
        named = [
            (line, m.group(1))
            for line, text in block.items
            if (m := _ITEM.match(text)) and _file_like(m.group(1)) and not _PLACEHOLDER.search(m.group(1))
        ]
        if len(named) < len(block.items) * 2 / 3:
            continue  # a list of other things, some of them files
        present = [n for _, n in named if (here / n).exists()]
        absent = [(line, n) for line, n in named if not (here / n).exists()]
        if len(present) < _EXISTING or len(present) < 2 * len(absent):
            continue
        sure = CERTAIN if _HERE.search(about) or _HERE.search(whole) else LIKELY
        for line, name in absent:
            parts = name.rstrip("/").split("/")
            if (
                any(p in made or p in _GENERATED for p in parts)
                or _GENERATED_NAME.search(name)
                or _ignored(here / name, patterns)
            ):
                continue
            yield Diagnostic(
                readme,
                line,
                f"README lists {name} among the files of its folder, which does not exist there"
                + _elsewhere(name, here, root),
                confidence=sure,
            )


_CREATES = frozenset("mkdir touch cp mv ln wget curl tar unzip gunzip install tee".split())
"""Commands whose words name files they make (not `docker compose -f x.yml`, which reads one)."""


def _created(doc: Document) -> set[str]:
    """The names (each part of each path) the command blocks of the README create: the words of
    `mkdir`, `cp`, `wget` … lines, what `>` or `-o` writes, and the folder a `git clone` makes."""
    names: set[str] = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            prompt = _PROMPT.match(text)
            words = _WORD.findall(text[prompt.end() if prompt else 0 :])
            found = [m.group(1) for m in _OUTPUT.finditer(text)]
            if words and words[0] in _CREATES:
                found += words[1:]
            elif words[:2] == ["git", "clone"]:
                found += words[2:]
            names.update(p.removesuffix(".git") for w in found for p in w.rstrip("/").split("/"))
    return names


def _elsewhere(name: str, here: Path, root: Path | None) -> str:
    """` (there is one at ../x)`: where a file of that name is, in a folder above up to `root`."""
    for folder in here.parents:
        if root is not None and not folder.is_relative_to(root):
            break
        if (folder / name).exists():
            shown = posixpath.join(os.path.relpath(folder, here), name)
            return f" (there is one at {shown})"
        if root is None or folder == root:
            break
    return ""
