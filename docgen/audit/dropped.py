"""What a README says the image is made of that the Dockerfile has only in comments, or not at all: a
build stage the prose names as part of the build (`` a lighter `runtime` image for the final release ``
after a multi-stage build) whose `FROM … AS runtime` is commented out, and the component the README's
title says the image is (`# Docker GAMESS`) that only commented-out instructions name (`#CMD
"${GAMESS_DIR}/run"`), or that nothing of the build or the project names at all (`# Imod Container`
over a Dockerfile that builds RELION and crYOLO: a title left from another image). The README describes
the build before its part was set aside, or another image.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import PIPED
from docgen.audit.left_over import unread_copies
from docgen.audit.own_repo import remote_names, repository_root
from docgen.copied import context_path, copied_files
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_COMMENTED_FROM = re.compile(r"[ \t]*#+[ \t]*FROM[ \t]+\S+[ \t]+AS[ \t]+([\w.-]+)[ \t]*$", re.IGNORECASE)
"""A commented-out `FROM image AS name` (`# FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04 as runtime`)."""
_COMMENTED = re.compile(
    r"[ \t]*#+[ \t]*(?:RUN|ENV|ARG|COPY|ADD|WORKDIR|CMD|ENTRYPOINT|FROM)[ \t]", re.IGNORECASE
)
"""A Dockerfile comment that is an instruction set aside (`#CMD "${GAMESS_DIR}/run.bat"`)."""
_BUILD_STAGES = re.compile(
    r"\bmulti[- ]?stage\b|\b(?:build|final|last|release)[ \t]+stage\b"
    r"|\bstage[ \t]+(?:for|of)[ \t]+the[ \t]+final\b|\bfinal[ \t]+(?:image|release)\b",
    re.IGNORECASE,
)
"""Words saying a sentence is about the stages the build goes through (`Multi-stage builds`, `for the
final release`)."""
_ALNUM = re.compile(r"[A-Za-z0-9]+")
"""A run of letters and digits: a title word without `+` is named where such a run is that word."""
_FOLDED = str.maketrans("\u0130\u0131\u017f\u212a", "iisk")
"""The four letters a case-blind `[A-Za-z]` also matches (`re` documents them), as the letter they match."""
_TITLE_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9+]{2,}")
_GENERIC = frozenset(
    "docker dockerfile dockerfiles image images container containers build builds base the and with for"
    " gpu cpu cuda rocm nvidia amd intel linux ubuntu debian alpine setup env environment dev devel runtime"
    " project repo repository example examples sample template readme"
    # a page's section name as its title (`# installation`, `# Usage notes`)
    " installation installing usage overview introduction instructions guide notes documentation docs"
    " tutorial quickstart quick started requirements prerequisites configuration deployment"
    " about help".split()
)
"""Title words that name no component (`Docker`, `image`, a platform, a section's name: `# installation`)."""
_TITLE_END = re.compile(r"\b(?:for|on|with|in|using|via|to|from|and)\b|[:(\[—–-]{1,2}[ \t]", re.IGNORECASE)
"""Where a title stops naming what the image is (`Docker GAMESS for Singularity`: GAMESS)."""
_STEP_TITLE = re.compile(
    r"[ \t]*(?:how[ \t]+to|add|build|clone|configure|copy|create|deploy|download|fetch|get|getting|install"
    r"|launch|make|mount|move|prepare|pull|put|run|set[ \t]*up|start|train|use|using)\b",
    re.IGNORECASE,
)
"""A first heading that is a step to take (`# COPY dataset to workspace`, `# Install`): it names what to
do, not what the image is."""


def _dropped_from(file: str) -> dict[str, int]:
    """The names of the commented-out `FROM … AS name` lines of the Dockerfile at `file` → line."""
    read = dockerfile_read(file)
    found: dict[str, int] = {}
    for number, line in enumerate(read[0].splitlines() if read else (), 1):
        match = _COMMENTED_FROM.match(line)
        if match is not None:
            found.setdefault(match.group(1).lower(), number)
    return found


def dropped_stages(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A stage name in code in a sentence about the build's stages (`_BUILD_STAGES`) that no audited
    Dockerfile has as a live stage while one has it in a commented-out `FROM … AS name` (`certain`: the
    stage the README describes is set aside)."""
    models = [m for m in auditor.models if m.file]
    if not models or not any(_BUILD_STAGES.search(t) for p in doc.paragraphs for _, t in p.lines):
        return
    live = {stage.name for m in models for stage in m.stages if stage.name}
    dropped = [(m, _dropped_from(m.file)) for m in models]
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" not in text or not _BUILD_STAGES.search(text):
                continue
            for _, _, code in code_spans(text):
                name = code.strip().lower()
                if name in live:
                    continue
                where = next(((m, lines[name]) for m, lines in dropped if name in lines), None)
                if where is not None:
                    model, at = where
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README describes a build stage {code.strip()}, but {model.path}:{at} has it only "
                        "commented out (the build has no such stage)",
                        confidence=CERTAIN,
                    )


def _title_subject(doc: Document, text: str) -> tuple[int, list[str]]:
    """(README line, words) of what the README's title says the image is: its first `#` heading (or its
    first line), up to `for`, `on`, `with` …, without the words that name no component."""
    title = next(((line, t) for line, t in doc.headings if doc.levels.get(line) == 1), None)
    if title is None:
        first = next(((n, t) for n, t in enumerate(text.splitlines()[:3], 1) if t.strip()), None)
        if first is None:
            return 0, []
        title = first
    line, heading = title
    if _STEP_TITLE.match(heading.lstrip("# ")):
        return line, []
    subject = _TITLE_END.split(heading.lstrip("# "), 1)[0]
    return line, [w for w in _TITLE_WORDS.findall(subject) if w.lower() not in _GENERIC]


def project_text(file: Path) -> str:
    """The text of `file` (empty when it cannot be read or is larger than a script)."""
    return text_or_none(file, MAX_PROJECT_FILE_BYTES) or ""


def only_commented(model: ImageModel, words: Collection[str]) -> dict[str, int | None]:
    """For each of `words` (any case): the line of the first commented-out instruction of `model`'s
    Dockerfile naming it when no other line of it does and nothing it copies or runs can bring it; else
    None. The Dockerfile is read once for all the words (a long title has many)."""
    found: dict[str, int | None] = dict.fromkeys(words)
    read = dockerfile_read(model.file)
    if read is None:
        return found
    written = [w.strip("\"'").rstrip("/") for c in model.context_copies for w in c.sources]
    # each source of the build context as BuildKit reads it (`copied.context_path`: `/` and `./` are `.`)
    sources = [p for w in written if (p := context_path(w)) is not None]
    if any(w in (".", "*") for w in sources):
        return found  # it copies the whole project: what it holds is not in the Dockerfile's text
    runs = [i.args for i in read[1].instructions if i.keyword == "RUN"]
    if any(PIPED.search(r) for r in runs) or any(w.rsplit("/", 1)[-1] in r for w in written for r in runs):
        return found  # a RUN runs a download or a file it copies: it may install anything
    folder = Path(model.file).parent
    if any(os.path.isdir(folder / source) for source in sources):
        return found  # a folder it copies may name anything
    lines = read[0].splitlines()
    naming: dict[str, list[int]] = {}  # run of letters and digits (lower case) → the lines holding it
    for number, line in enumerate(lines, 1):
        for run in {w.lower() for w in _ALNUM.findall(line.translate(_FOLDED))}:
            naming.setdefault(run, []).append(number)
    for word in found:
        # a word names a line where a run of letters and digits is its first run (`c++`: `c`)
        numbers = naming.get(_ALNUM.findall(word)[0].lower(), [])
        found[word] = _first_commented([(n, lines[n - 1]) for n in numbers], word)
    copied = [
        project_text(c.path).lower()
        for c in copied_files(real_path(folder), model.context_copies, model.file)
        if c.path is not None
    ]
    for word, at in found.items():
        if at is not None and any(word.lower() in text for text in copied):
            found[word] = None  # a file it copies may name it
    return found


def _first_commented(lines: Sequence[tuple[int, str]], word: str) -> int | None:
    """The number of the first commented-out instruction of `lines` (number, text) naming `word` (not
    between letters or digits, any case) when no other line does; else None."""
    if _ALNUM.fullmatch(word) is None:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", re.IGNORECASE)
        lines = [(n, line) for n, line in lines if pattern.search(line)]
    found = None
    for number, line in lines:
        if not line.lstrip().startswith("#"):
            return None  # a live line names it
        if found is None and _COMMENTED.match(line):
            found = number
    return found


def title_components(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path | None = None
) -> Iterator[Diagnostic]:
    """A word of the README's title naming what the image is (`# Docker GAMESS for Singularity`:
    GAMESS) that every audited Dockerfile names only in commented-out instructions; with the README's
    `directory`, the one name of a title saying the image is it (`# Imod Container`, `# Genesis Docker
    Setup`) that nothing names (`unnamed_title`) (`likely`: the title may be the project's name)."""
    models = [m for m in models if m.file]
    line, words = _title_subject(doc, text)
    if not models:
        return
    read = [only_commented(m, words) for m in models] if words else []
    for word in words:
        where = [found[word] for found in read]
        if all(n is not None for n in where):
            yield Diagnostic(
                readme,
                line,
                f"README's title says the image is {word}, but {models[0].path}:{where[0]} names it only "
                "in a commented-out instruction (the image does not install it)",
                confidence=LIKELY,
            )
            return
    if directory is not None:
        yield from unnamed_title(doc, text, models, readme, directory)


_IMAGE_TITLE = re.compile(
    r"[ \t]*(?:(?P<name>[A-Za-z][\w.+-]{2,40})[ \t]+(?:docker(?:ized)?[ \t]+)?"
    r"(?:container|image|docker[ \t]+(?:image|container|setup|environment)|dockerfile)"
    r"|(?:an?[ \t]+)?docker(?:[ \t]+(?:image|container))?[ \t]+(?:for|of|with)[ \t]+"
    r"(?P<after>[A-Za-z][\w.+-]{2,40}))"
    r"[ \t]*\Z",
    re.IGNORECASE,
)
"""A title saying the image is one thing, and nothing else: `Imod Container`, `Genesis Docker Setup`,
`Foo Docker image`, `Docker image for Foo`."""
_NOT_A_SUBJECT = frozenset(
    "custom simple easy minimal official unofficial my our basic lightweight slim full test demo sample"
    " new old generic universal portable private public personal local remote shared common"
    " inference api app application web frontend backend client agent bot tools toolkit toolbox"
    " workspace lab sandbox playground benchmark ml ai llm gpu cuda research science data model models"
    " notebook notebooks desktop cluster node edge cloud base final release stable nightly"
    " robot robots bench testbed device board radeon instinct geforce nvidia amd intel jetson rtx".split()
)
"""Title words that qualify an image, say what it is for or the hardware it runs on, and name no
component (`# Custom Docker image`, `# Inference container`, `# Robot image`, `# Radeon image`)."""
_ROLE = re.compile(r"(?:[a-z]+-)*[a-z]+(?:er|ers|or|ors|ing|ion|ions|ment|ance|ence|ysis|ics)")
"""A title word naming a role or a task (`Trainer`, `Simulator`, `Fine-tuning`, `Segmentation`, `Analysis`,
`Genomics`): what the image is for, rarely a component of that name."""
_PROJECT_FILES = 200
"""Files of a folder read for a title's name: the README's and each Dockerfile's (beyond, a monorepo)."""


def unnamed_title(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """The one name a title says the image is (`_IMAGE_TITLE`: `# Imod Container`) that no line of the
    README but its title, no audited Dockerfile (its comments too), no file it copies, no file of the
    README's or a Dockerfile's folder, no folder on their paths and no remote of the checkout names,
    when each Dockerfile installs something, copies no whole project (its own code would be the name)
    and leaves no copied script or list unread (`likely`: the title was left from another image)."""
    title = next(((line, t) for line, t in doc.headings if doc.levels.get(line) == 1), None)
    first = next((n for n, t in enumerate(text.splitlines()[:50], 1) if t.strip()), 0)
    if title is None and doc.headings and doc.headings[0][0] == first:
        title = doc.headings[0]  # a README opening with a heading of a lower level (`### Foo Docker Setup`)
    said = _IMAGE_TITLE.fullmatch(plain_title(title[1])) if title is not None else None
    if title is None or said is None:
        return
    name = said.group("name") or said.group("after") or ""
    key = _squashed(name)
    parts = [part for part in re.split(r"[-_.+]+", name.lower()) if part]
    if (
        len(key) < 3
        or _ROLE.fullmatch(name.lower())
        or all(p in _GENERIC or p in _NOT_A_SUBJECT or p.isdigit() for p in parts)
    ):
        return  # (`rocm-build`: a name made of words that name no component)
    own = (directory / Path(readme).name).resolve()
    body = "\n".join(t for n, t in enumerate(text.splitlines(), 1) if n != title[0])
    if key in _squashed(body):
        return
    for model in models:
        read = dockerfile_read(model.file)
        if read is None or not any(i.keyword == "RUN" for i in read[1].instructions):
            return
        sources = [context_path(w) for c in model.context_copies for w in c.sources]
        if any(s in (".", "*") for s in sources) or unread_copies(model):
            return
        if key in _squashed(read[0]) or key in _squashed(" ".join(Path(model.file).resolve().parts)):
            return
        folder = real_path(Path(model.file).parent)
        copied = [
            project_text(c.path) for c in copied_files(folder, model.context_copies, model.file) if c.path
        ]
        if any(key in _squashed(t) for t in copied) or _folder_names(Path(model.file).parent, key, own):
            return
    root = repository_root(directory)
    if _folder_names(directory, key, own) or key in _squashed(" ".join(directory.resolve().parts)):
        return
    if any(key in _squashed(remote) for remote in remote_names(root)):
        return
    yield Diagnostic(
        readme,
        title[0],
        f"README's title says the image is {name}, but nothing of {models[0].path}, the files it copies "
        f"or the project names {name} (the title may be left from another image)",
        confidence=LIKELY,
    )


def plain_title(heading: str) -> str:
    """A heading's text without the marks around it (`**`, `_`, `` ` ``) and a trailing colon."""
    return heading.strip().strip("*_`#: \t")


def _squashed(text: str) -> str:
    """`text` in lower case with everything but letters and digits removed (`Imod` in `IMOD_DIR`)."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _folder_names(folder: Path, key: str, own: Path) -> bool:
    """True when a file of `folder` (up to `_PROJECT_FILES` of them) but the README (`own`) names `key`
    in its name or text."""
    try:
        entries = sorted(folder.iterdir())[:_PROJECT_FILES]
    except OSError:
        return False
    for entry in entries:
        if key in _squashed(entry.name):
            return True
        if entry.is_file() and entry.resolve() != own and key in _squashed(project_text(entry)):
            return True
    return False
