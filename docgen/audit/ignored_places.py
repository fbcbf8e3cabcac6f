"""Files a README tells the reader to put in a folder of the build context and then rebuild (`Place your
.wav voice samples inside /app/src/voices/ … Rebuild and rerun Docker`) while the `.dockerignore` the
build reads leaves such files out (`*.wav`): the COPY of that folder (`COPY src /app/src`) never puts them
in the image, whatever the reader places there.

Read: a sentence or list item with a verb of placing (`place`, `put`, `copy`, `add`, `drop`, `save`,
`store`, `move`), a folder (a path with a `/`: `src/voices/`, or the image's `/app/src/voices/`, which a
COPY of the context maps back to the context's `src/voices`), and the files, by a suffix (`.wav`,
`*.wav`) or a name (`speaker.wav`); and a rebuild said on that line or the lines after it up to the
next heading (`rebuild`, `build again`, `docker build`, `docker compose build`, `--build`). The folder is
read from the Dockerfile's folder (the context of the README's own builds); a path of the image is read
through the COPY or ADD (no `--from`) of the final stage whose destination holds it. Told (`certain`)
when the `.dockerignore` BuildKit reads for that Dockerfile (its own `NAME.dockerignore`, else the
context's; `!` patterns taking paths back read) leaves such a file there out, with its line.

Silent: no rebuild said (a folder mounted at run time is read live), a folder no COPY of the context
brings, a `.dockerignore` taking the files back (`!src/voices/*.wav`), a Dockerfile line quoted in the
README (`COPY voices/ /app/voices/`). Every line is read, those of code blocks too (a comment there
tells as much; an unclosed fence leaves the rest of the page in a block).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, dockerfile_read
from docgen.copied import ignore_file, ignoring_line
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PLACE = re.compile(r"\b(?:place|put|copy|add|drop|save|store|move)\b", re.IGNORECASE)
_FOLDER = re.compile(r"(?<![\w.:/-])`?(/?(?:[\w.-]+/)+[\w.-]*)`?")
"""A folder path (`src/voices/`, `/app/src/voices/`, `data/samples`): a `/` in it."""
_SUFFIX = re.compile(r"(?:^|[\s(`\"'])\*?\.([A-Za-z][A-Za-z0-9]{0,5})\b")
"""Files by their suffix (`.wav`, `*.wav`)."""
_NAME = re.compile(r"(?:^|[\s(`\"'])([\w-]+\.[A-Za-z][A-Za-z0-9]{0,5})(?=[\s)`\"',.;:]|$)")
_REBUILD = re.compile(
    r"\bre-?build|\bbuild\b[^.\n]{0,20}\bagain\b|\bdocker(?:-compose|[ \t]+compose)?[ \t]+build\b|--build\b",
    re.IGNORECASE,
)
_INSTRUCTION = re.compile(r"[ \t]*(?:COPY|ADD|RUN)[ \t]")
"""A Dockerfile line quoted in the README, not a sentence."""
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t]")
_NEAR = 10
"""How many lines after the placing sentence a rebuild is looked for (up to the next heading)."""


def _copies(model: ImageModel) -> list[tuple[int, str, str, str]] | None:
    """(line, source, destination made absolute, the instruction's words) of each COPY or ADD of the
    context in the final stage, one source each; None when the Dockerfile cannot be read."""
    read = dockerfile_read(model.file)
    if read is None:
        return None
    instructions = read[1].instructions
    start = max((i for i, inst in enumerate(instructions) if inst.keyword == "FROM"), default=0)
    workdir = "/"
    found: list[tuple[int, str, str, str]] = []
    for inst in instructions[start:]:
        if inst.keyword == "WORKDIR":
            workdir = posixpath.normpath(posixpath.join(workdir, inst.args.strip().strip("\"'")))
        elif inst.keyword in ("COPY", "ADD") and not any(f.name == "from" for f in inst.flags):
            words = [w.strip("\"'") for w in (inst.exec_form or inst.args.split()) if not w.startswith("--")]
            if len(words) != 2 or "$" in inst.args or "://" in inst.args:
                continue
            source = posixpath.normpath(words[0].removeprefix("./")) if words[0] not in (".", "./") else "."
            dest = posixpath.normpath(posixpath.join(workdir, words[1]))
            found.append((inst.start_line, source, dest, " ".join(words)))
    return found


def _context_folder(
    folder: str, copies: Sequence[tuple[int, str, str, str]]
) -> tuple[str, tuple[int, str, str, str]] | None:
    """The context folder a README's folder means, and the copy that brings it to the image: an image
    path through the copy whose destination holds it, a relative path through one whose source holds
    it."""
    path = posixpath.normpath(folder)
    for copy in reversed(copies):
        _, source, dest, _ = copy
        if path.startswith("/"):
            if path == dest or path.startswith(dest.rstrip("/") + "/"):
                rest = path[len(dest.rstrip("/")) + 1 :] if path != dest else ""
                joined = posixpath.normpath(posixpath.join(source, rest)) if rest else source
                return joined.removeprefix("./"), copy
        elif source == "." or path == source or path.startswith(source + "/"):
            return path, copy
    return None


def _rebuilt(source: Sequence[str], line: int) -> bool:
    """True when README `line` or one of the next `_NEAR` lines, before a heading, says to rebuild."""
    for index in range(line - 1, min(len(source), line + _NEAR)):
        text = source[index]
        if index >= line and _HEADING.match(text):
            return False
        if _REBUILD.search(text):
            return True
    return False


def ignored_places(
    doc: Document, source: Sequence[str], models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring), once per README line."""
    for model in models:
        if not model.file:
            continue
        copies: list[tuple[int, str, str, str]] | None = None
        context = Path(model.file).parent
        ignore = ignore_file(context, model.file)
        if ignore is None:
            continue
        for line, text in enumerate(source, start=1):
            if "/" not in text or _PLACE.search(text) is None or _INSTRUCTION.match(text):
                continue
            folders = [
                m.group(1) for m in _FOLDER.finditer(text) if "://" not in text[m.start() - 3 : m.end()]
            ]
            if not folders:
                continue
            spans = "".join(folders)
            kinds = [f"sample.{m.group(1)}" for m in _SUFFIX.finditer(text)]
            kinds += [m.group(1) for m in _NAME.finditer(text) if m.group(1) not in spans]
            if not kinds or not _rebuilt(source, line):
                continue
            if copies is None:
                copies = _copies(model) or []
            told = _told(readme, line, folders, kinds, copies, ignore, model)
            if told is not None:
                yield told


def _told(
    readme: str,
    line: int,
    folders: Sequence[str],
    kinds: Sequence[str],
    copies: Sequence[tuple[int, str, str, str]],
    ignore: Path,
    model: ImageModel,
) -> Diagnostic | None:
    for folder in folders:
        mapped = _context_folder(folder, copies)
        if mapped is None or mapped[0].startswith(".."):
            continue
        where, (at, _, _, words) = mapped
        for kind in kinds:
            relative = posixpath.join(where, kind) if where != "." else kind
            hit = ignoring_line(ignore, relative)
            if hit is None:
                continue
            files = f"*.{kind.rsplit('.', 1)[1]} files" if kind.startswith("sample.") else kind
            shown = (
                f"{ignore.parent.name}/{ignore.name}"
                if ignore.parent != Path(model.file).parent
                else ignore.name
            )
            return Diagnostic(
                readme,
                line,
                f"README tells to put {files} in {folder} and rebuild, but {shown}:{hit[0]} ({hit[1]}) "
                f"leaves them out of the build context: COPY {words} ({model.path}:{at}) never puts them in "
                "the image",
                confidence=CERTAIN,
            )
    return None
