"""A folder of the build context the README names in other letter case than the COPY that reads it:
the README says to put the cuDNN packages in `./jupyterlab_GPU_base/cuDNN/` while the Dockerfile beside
it copies `cudnn/libcudnn8_….deb`. On a case-insensitive disk (macOS, Windows) the two are one folder;
on Linux, where images are built, files put where the README says are not found (`certain`: the
letters are the only difference, and the COPY reads one of the two).

A claim is a relative path in code in the prose, a table cell or a heading, or one written plainly
with a folder (`To be placed into: ./jupyterlab_GPU_base/cudNN`, `put the wheel into docker/Wheels/`;
not in an address, a link or an absolute, home or variable path), read from the README's folder, that
goes into the folder of an audited Dockerfile (its build context, as `docker build .` beside it takes
it) and whose parts from there are, letter case aside, the leading folders of a source of one of its
COPY or ADD instructions, and not the same letters. Not read: a path that exists as written (the
folder is there, named so), a source with a variable, an absolute source, a here-document.

And a folder the README tells the reader to fill (`CANN toolkit package downloaded to `packages/``),
named as the COPY reads it, while the Dockerfile copies two or more files from it that the repository
does not hold (the reader's to supply): a source whose own words (`kernels` of
`packages/Ascend-cann-kernels*.run`, the words all those sources share and file kinds left out) the
README never writes, when it writes another source's, is a file the reader is not told to supply, and
the build stops at that COPY (`likely`). Silent when the folder holds files matching the source, for a
source with a variable, and when the README names no source's own words (it may list them elsewhere).
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.missing import code_paths, line_texts
from docgen.markdown import Document, code_spans, links
from docgen.model import Diagnostic, ImageModel

_PLAIN_PATH = re.compile(r"(?<![\w./:@~$%{}<>\\`-])((?:\./)?[A-Za-z_][\w.-]*(?:/[\w.-]+)+/?)(?![\w/-])")
"""A relative path with a folder written plainly (`./base/cudNN`, `docker/Wheels/`): not part of an
address, nor an absolute, home or variable path (what stands before it is no part of a path)."""
_ADDRESS = re.compile(r"(?<!\S)\S*://\S*|\bwww\.\S*")
"""A web address, from the start of its word."""


def _plain_paths(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, path) of each relative path with a folder the prose, a table row or a heading
    writes outside code, links and addresses; a sentence's full stop after it is no part of it."""
    for number, text in line_texts(doc).items():
        if "/" not in text:
            continue
        spans = [(start, end) for start, end, _ in code_spans(text)] if "`" in text else []
        spans += [(link.start, link.end) for link in links(text)] if "](" in text else []
        spans += [match.span() for match in _ADDRESS.finditer(text)]
        for match in _PLAIN_PATH.finditer(text):
            if not any(a <= match.start() < b for a, b in spans):
                yield number, match.group(1).rstrip(".")


def case_slips(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of the README's paths (in code, or plain with a folder) that name a copied folder
    in other letter case (module docstring)."""
    contexts_of: dict[object, tuple[Path, ImageModel]] = {}
    for model in models:  # one per Dockerfile and copies: the images of a compose file's services built alike
        if model.file and model.context_copies:
            key = (model.file, tuple((c.line, tuple(c.sources), c.heredoc) for c in model.context_copies))
            contexts_of.setdefault(key, (Path(model.file).resolve().parent, model))
    contexts = list(contexts_of.values())
    if not contexts:
        return
    here = directory.resolve()
    seen: set[str] = set()
    for line, code in [*code_paths(doc), *_plain_paths(doc)]:
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
                confidence=CERTAIN,
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


_FILL = re.compile(
    r"\b(?:download(?:ed|s)?|place[ds]?|put|puts|copy|copied|save[ds]?|store[ds]?|drop(?:ped)?|add(?:ed)?"
    r"|move[ds]?|must[ \t]+be|goes|go)\b[^`\n]{0,40}\b(?:to|in|into|under|inside)[ \t]+(?:the[ \t]+)?\Z",
    re.IGNORECASE,
)
"""The words before a folder in code telling the reader to fill it (`package downloaded to `, `put them
in the `)."""
_KINDS = frozenset(
    "run deb rpm whl tar tgz zip bin exe gz xz bz2 zst tbz linux x86 x64 amd64 arm64 aarch64 noarch "
    "ubuntu centos el7 el8 release latest version".split()
)
"""Words of a file name telling its kind or platform, not what it is."""


def unnamed_supplies(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """Files the Dockerfile copies from a folder the README tells the reader to fill that the README
    never names (module docstring), once each."""
    contexts_of: dict[object, tuple[Path, ImageModel]] = {}
    for model in models:  # one per Dockerfile and copies: the images of a compose file's services built alike
        if model.file and model.context_copies:
            key = (model.file, tuple((c.line, tuple(c.sources), c.heredoc) for c in model.context_copies))
            contexts_of.setdefault(key, (Path(model.file).resolve().parent, model))
    contexts = list(contexts_of.values())
    if not contexts:
        return
    here = directory.resolve()
    told: set[tuple[str, int]] = set()
    written = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}
    for para in doc.paragraphs:
        for line, words in para.lines:
            if "`" not in words:
                continue
            for match in re.finditer(r"`([\w.-]+(?:/[\w.-]+)*/?)`", words):
                if not _FILL.search(words, max(0, match.start() - 80), match.start()):
                    continue
                path = match.group(1).removeprefix("./").rstrip("/")
                target = Path(here, *path.split("/"))
                for folder, model in contexts:
                    try:
                        parts = target.relative_to(folder).parts
                    except ValueError:
                        continue
                    for source, at in _unnamed(parts, target, model, written):
                        if (model.path, at) in told:
                            continue
                        told.add((model.path, at))
                        shown = Path(model.path).as_posix()
                        yield Diagnostic(
                            readme,
                            line,
                            f"README tells what to put in {match.group(1)}, but {shown}:{at} also copies "
                            f"{source} from it, which the README never names: the build stops there "
                            "without it",
                            confidence=LIKELY,
                        )


def _unnamed(
    parts: tuple[str, ...], target: Path, model: ImageModel, written: set[str]
) -> list[tuple[str, int]]:
    """(source, COPY line) of each file copied from the folder `parts` of the context that no file there
    matches and whose own words the README (`written`) never writes, when it writes another's."""
    if not parts:
        return []
    supplied: list[tuple[str, int, set[str]]] = []
    for copy in model.context_copies:
        if copy.heredoc:
            continue
        for source in copy.sources:
            source = source.strip("\"'").removeprefix("./")
            if "$" in source or source.startswith("/") or source.endswith("/"):
                continue
            folders = source.split("/")[:-1]
            if tuple(folders) != parts:
                continue
            name = source.rsplit("/", 1)[-1]
            try:
                there = [e.name for e in os.scandir(target)] if os.path.isdir(target) else []
            except OSError:
                return []
            if any(fnmatch.fnmatchcase(entry, name) for entry in there):
                continue
            words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", name)} - _KINDS
            supplied.append((source, copy.line, words))
    if len(supplied) < 2:
        return []
    shared = set.intersection(*(words for _, _, words in supplied))
    own = [(source, at, words - shared) for source, at, words in supplied]
    if not any(words and words & written for _, _, words in own):
        return []  # the README names none of them by its own words: it may list them elsewhere
    return [(source, at) for source, at, words in own if words and not words & written]
