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

In a git checkout, whose tree holds every file of the project but ignored ones, a README that builds the
image by no `docker build` of its own (`unheld_copies`) is tied to it as well: by a script it runs that
builds an image (`./build.sh`, `isaac.docker/build.bash`: the script's text holds an image build, or,
gone from the checkout, its name says `build`) from the Dockerfile's folder or one above it, or naming
the Dockerfile's path (a `cd` of the block followed); else, when it runs no build script at all, by its
words (`build the docker images`, a heading `**building docker image**`). A source the audited
Dockerfile copies (not `--from`, no variable or glob) that no folder from the Dockerfile's up to the
checkout's top holds, nor any file or folder of the checkout by its name, stops that build whatever the
context. Not a source the README names anywhere (a file it tells the reader to bring, or makes), one
git or the `.dockerignore` leaves out, one of a folder a build makes, one in a git submodule not
fetched, nor one a script, Makefile or workflow of the project names on a line that makes a file (`cp
../common/entry.sh .`). Nor when the README runs a build of its own, a compose build, `make` (their
rules read those) or a tool's build (`ryzers build app`), nor for an image none of whose build scripts
it runs (a script of another image's folder, or one past a `cd` into a folder the checkout lacks), nor
by a build script that builds no image. `certain` when a script of the checkout that builds an image is
the tie and every such source is a plain file of the context's top (`entrypoint.sh`); else `likely`: a
script gone or words leave which build is meant open, and a folder may be a part the checkout lacks on
purpose.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.commands import without_prompt
from docgen.audit.container_blocks import container_lines
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import Submodules
from docgen.audit.references import (
    MAKES_FILE,
    MAKES_FILE_COMMAND,
    MadeFiles,
    Walked,
    bases_above,
    build_ignored,
    cd_target,
    copied_sources,
    in_checkout,
    inside,
    plain_files,
    project_top,
    repository_files,
    repository_names,
    top_plain_files,
)
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path, text_or_none
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


_RUN = re.compile(
    r"\A(?:(?:sudo|time|nohup|exec)[ \t]+)?(?:[A-Za-z_]\w*=\S*[ \t]+)*(?:(?:bash|sh|zsh|source|\.)[ \t]+)?"
    r"((?:\.{1,2}/)*[\w.-]+(?:/[\w.-]+)*\.(?:sh|bash|zsh))(?=[ \t]|\Z)"
)
"""A step that runs a shell script by its path (`./build.sh`, `source docker/build.sh`,
`isaac.docker/build.bash`)."""
_STEP_SPLIT = re.compile(r"&&|\|\||;")
_BUILD_NAME = re.compile(r"build", re.IGNORECASE)
"""A script's name that says it builds (`build.sh`, `BUILD-DOCKER-IMAGE.sh`, `docker_build.bash`)."""
_OWN_BUILDS = re.compile(
    r"\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b[^\n]*?\b(?:build|up)\b"
    r"|(?:\A|[;&|][ \t]*)(?:sudo[ \t]+)?make\b"
)
"""A README step whose build another rule reads: a compose build (`compose_builds`), `make`
(`make_builds`)."""
_SCRIPT_BUILDS = re.compile(
    BUILD.pattern + r"|\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b[^\n]*?\bbuild\b"
    r"|\b(?:docker[ \t]+compose|docker-compose)\b[^\n]*?\bup\b[^\n]*?--build\b"
)
"""A script line that builds an image: a `docker build` (in an array too: `CMD=(docker build …)`), a
compose build."""
_BUILD_WORDS = re.compile(
    r"\bbuild(?:ing|s)?[ \t]+(?:(?:the|a|an|your|our|this|these|new|own|docker|container)[ \t]+){0,3}"
    r"(?:images?|containers?)\b",
    re.IGNORECASE,
)
"""Words telling the reader to build the image (`build the docker images`, `building docker image`)."""
_NOT_READERS = re.compile(
    r"\b(?:CI|workflows?|GitHub[ \t]+Actions?|pipelines?|automatically|nightly|Docker[ \t]+Hub)\b"
)
"""Words saying a build is another's (`CI builds the image`), not one the reader runs."""
_TOOL_BUILD = re.compile(
    r"(?:(?:sudo|time)[ \t]+)?(?!(?:docker|podman|nerdctl|buildah|colcon|catkin|cmake|cargo|go|npm|yarn|pnpm"
    r"|bazel|meson|ninja|dotnet|mvn|gradle|poetry|uv|pip3?|python3?|west|idf\.py|mkdocs|hugo|jekyll)\b)"
    r"[A-Za-z][\w.-]*[ \t]+build\b"
)
"""A step of a tool that builds the image its own way (`ryzers build rocm-gfx1151`, `earthly build`): not a
compiler's or a site's build (`colcon build`, `cargo build`, `mkdocs build`)."""
_MADE_IN = (".sh", ".bash", ".zsh", ".mk", ".yml", ".yaml", ".hcl", ".ps1", ".bat", ".cmd")
_MADE_BY_NAME = frozenset({"Makefile", "makefile", "GNUmakefile", "Justfile", "justfile"})
"""The project's files that may make a file before a build: scripts, Makefiles, workflows and compose
files (`.yml`), bake files; a Python script naming the file at all (`_MAKES_IN_PYTHON`)."""
_MAKES_IN_PYTHON = (".py",)
_MADE_FILES_MOST = 2000
"""Project files read at most to tell whether one makes a missing source: past these, the rule is silent."""


@dataclass(frozen=True)
class _Run:
    """A build script a README command runs: its line, the step as written, the file (None when the
    checkout lacks it) and, for one it lacks, the folder its path names when that folder is there."""

    line: int
    step: str
    place: Path | None
    folder: Path | None

    def builds(self, dockerfile: Path, root: Path) -> bool:
        """True when this run may build `dockerfile`: the script's folder is the Dockerfile's or one above
        it, or the script names the Dockerfile's path from its own folder or the checkout's top
        (`../docker/Dockerfile`); for a script the checkout lacks, when the folder its path names is one
        of those or is not there either."""
        folder = self.place.parent if self.place is not None else self.folder
        if folder is None or dockerfile.parent.is_relative_to(folder):
            return True
        if self.place is None:
            return False
        text = text_or_none(self.place, MAX_PROJECT_FILE_BYTES) or ""
        named = {os.path.relpath(dockerfile, start).replace(os.sep, "/") for start in (root, folder)}
        return any(n in text for n in named)


@dataclass
class _Ties:
    """What ties a README to its image's build (`_ties`): the build scripts its commands run (`runs`),
    whether a block running one was left at a `cd` not followed (`lost`), whether it runs a build another
    rule reads or docgen cannot (`own`), and its first words telling the reader to build (`words`)."""

    runs: list[_Run] = field(default_factory=list)
    lost: bool = False
    own: bool = False
    words: tuple[int, str] | None = None


def _ties(doc: Document, bases: Sequence[Path], top: Path) -> _Ties:
    """The ties of the README's command blocks, read as the reader runs them (a `cd` followed from the
    folders `bases`, within `top`), and of its words (see `_Ties`); a block run in the container is not
    read."""
    found = _Ties()
    inside_lines = container_lines(doc)
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        folders = list(bases)
        for line, text in fence.lines:
            if line in inside_lines:
                continue
            command = without_prompt(text.strip())
            if BUILD.search(command) or _OWN_BUILDS.search(command):
                found.own = True
            for step in (s.strip() for s in _STEP_SPLIT.split(command)):
                if (target := cd_target(step)) is not None:
                    moved = [
                        m for f in folders if (m := inside(f / target, top)) is not None and os.path.isdir(m)
                    ]
                    if not moved:
                        found.lost = found.lost or any(
                            _BUILD_NAME.search(later) for at, later in fence.lines if at >= line
                        )
                        break
                    folders = moved
                    continue
                if _TOOL_BUILD.match(step):
                    found.own = True  # (`ryzers build app`: a tool of its own makes the context)
                run = _RUN.match(step)
                if run is None:
                    continue
                script = run.group(1)
                paths = [p for f in folders if (p := inside(f / script, top)) is not None]
                place = next((p for p in paths if os.path.isfile(p)), None)
                if place is None:
                    if _BUILD_NAME.search(posixpath.basename(script)):
                        folder = next((p.parent for p in paths if os.path.isdir(p.parent)), None)
                        found.runs.append(_Run(line, step, None, folder))
                    continue
                if _SCRIPT_BUILDS.search(text_or_none(place, MAX_PROJECT_FILE_BYTES) or ""):
                    found.runs.append(_Run(line, step, place, None))
            else:
                continue
            break  # (a `cd` not followed: the rest of the block runs elsewhere)
    lines = [*doc.headings, *((line, text) for para in doc.paragraphs for line, text in para.lines)]
    for line, text in sorted(lines):
        said = _BUILD_WORDS.search(text)
        if said is not None and not _NOT_READERS.search(text):
            found.words = (line, said.group(0))
            break
    return found


def _made_by_project(root: Path, walked: Walked, names: set[str]) -> set[str]:
    """Of the file `names`, those a script, Makefile, workflow or compose file of the checkout at `root`
    (its folders and files `walked`, `repository_files`) names on a line that makes a file (`cp
    ../common/entry.sh .`, `wget …/entry.sh`), or a Python script names at all; every name when the
    project has more such files than `_MADE_FILES_MOST`."""
    patterns = {n: re.compile(rf"(?<![\w.-]){re.escape(n)}(?![\w-])") for n in names}
    made: set[str] = set()
    read = 0
    for folder, _, files in walked:
        for file in files:
            python = file.endswith(_MAKES_IN_PYTHON)
            if not (python or file.endswith(_MADE_IN) or file in _MADE_BY_NAME):
                continue
            read += 1
            if read > _MADE_FILES_MOST:
                return set(names)
            text = text_or_none(Path(folder) / file, MAX_PROJECT_FILE_BYTES, root)
            if not text:
                continue
            making: list[str] | None = None  # the lines that make a file, split once for every name
            for name, pattern in patterns.items():
                if name in made or name not in text:
                    continue
                if not python:
                    if making is None:
                        making = [line for line in text.splitlines() if MAKES_FILE_COMMAND.search(line)]
                    if not any(pattern.search(line) for line in making):
                        continue
                made.add(name)
    return made


def unheld_copies(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
    told: Sequence[str] = (),
) -> Iterator[Diagnostic]:
    """The sources `models`' Dockerfiles copy that a git checkout holds nowhere, for a README that
    builds the image by a script or in words (see the module); one finding a Dockerfile, at the line
    that ties the README to the build, not naming a source a finding already `told` names."""
    here = real_path(directory)
    top = real_path(project_top(directory, project))
    if not in_checkout(here, top):
        return
    root = repository_root(directory)
    root = real_path(root) if root is not None and real_path(root).is_relative_to(top) else top
    ties = _ties(doc, bases_above(directory, top), top)
    if ties.own:
        return
    made = MadeFiles(source)
    submodules = Submodules(doc)
    candidates: list[tuple[ImageModel, tuple[int, str, bool], list[tuple[int, str]]]] = []
    for model in models:
        if not model.file or (read := dockerfile_read(model.file)) is None:
            continue
        dockerfile = real_path(Path(model.file))
        folders = [f for f in [dockerfile.parent, *dockerfile.parent.parents] if f.is_relative_to(root)]
        if not folders or not in_checkout(dockerfile.parent, top):
            continue
        run = next((r for r in ties.runs if r.builds(dockerfile, root)), None)
        if run is not None:
            tie = (run.line, run.step, run.place is not None)
        elif ties.words is not None and not ties.runs and not ties.lost:
            tie = (*ties.words, False)
        else:
            continue  # (the README's build scripts build other images, or none is told)
        missing = [
            (at, path)
            for at, path in copied_sources(read[1].instructions)
            if not _held(path, folders)
            and not build_ignored(path, folders, dockerfile)
            and not made.named(path)
            and not any(f"{path} (line {at})" in t for t in told)
            and not submodules.holds(dockerfile.parent / path, dockerfile.parent)
        ]
        if missing:
            candidates.append((model, tie, missing))
    if not candidates:
        return
    walked = repository_files(root)
    listed = repository_names(root, folders=True)  # (of the same walk, kept for the audit)
    if walked is None or listed is None:
        return
    names = {posixpath.basename(p) for _, _, missing in candidates for _, p in missing}
    elsewhere = _made_by_project(root, walked, set(names - listed))
    images = "images" if len(models) > 1 else "image"
    for model, (line, said, scripted), missing in candidates:
        nowhere = [
            (at, path)
            for at, path in missing
            if posixpath.basename(path) not in listed and posixpath.basename(path) not in elsewhere
        ]
        if not nowhere:
            continue
        folder = posixpath.dirname(model.path)
        above = f"not in {folder}/ or a folder above it, " if folder else ""
        if len(nowhere) == 1:
            at, path = nowhere[0]
            what = f"{model.path}:{at} copies {path}"
            where = f"{above}no file or folder of that name anywhere): the build stops at that COPY"
        else:
            what = f"{model.path} copies {', '.join(f'{path} (line {at})' for at, path in nowhere)}"
            where = f"{above}no file or folder of those names anywhere): the build stops at the first of them"
        sure = scripted and top_plain_files(nowhere)
        yield Diagnostic(
            readme,
            line,
            f"README builds the {images} ({said}), but {what}, which the git checkout holds nowhere ({where}",
            confidence=CERTAIN if sure else LIKELY,
        )
