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

A build script of the checkout that builds the image is the tie even beside a `docker build` of the
README's own (one given by hand, `docker build -t <NAME> <FOLDER>`); for it, a source whose name the
checkout holds only in a folder the script neither builds from nor names (another image's
`entrypoint.sh`) is told too, `likely`. A README in the Dockerfile's own folder that builds nothing,
runs no script, pulls or runs no published image and names no one else's build is the image's own: its
first line telling of the image or what it serves (`UI accessible at localhost:8888`) is the tie,
`likely`; not when that line is under a heading naming a folder that holds another Dockerfile (`##
nvidia-spack` in a README of one section per image: the line tells of that image).
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
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import dockerfiles_in, real_path, text_or_none
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
_ABOUT_IMAGE = re.compile(
    r"(?<![\w-])(?:docker|images?|containers?|localhost|127\.0\.0\.1|0\.0\.0\.0)(?![\w-])", re.IGNORECASE
)
"""A line of a README telling of its image or of what the running image serves (`UI accessible at
localhost:8888`): where a README with no build of its own is tied to the image beside it; not a word of a
name (`nvidia-container-toolkit`)."""
_PUBLISHED = re.compile(
    r"\b(?:docker|podman)[ \t]+pull\b|\bDocker[ \t]*Hub\b|\bhub\.docker\.com\b|\b(?:ghcr|quay)\.io/"
    r"|\b(?:docker|podman)[ \t]+run\b[^\n]*?[ \t](?!-)[\w.-]+/[\w.-]+(?::[\w.-]+)?(?![\w./:@-])"
    r"|^[ \t]*image:[ \t]*[\w.-]+/",
    re.IGNORECASE | re.MULTILINE,
)
"""A README that pulls or runs a published image (`docker pull lab/app`, `docker run lab/app:1`, Docker
Hub named, a manifest's `image: lab/app`): the image it documents need not be built from the checkout."""
_NOT_READERS = re.compile(
    r"\b(?:CI|workflows?|GitHub[ \t]+Actions?|(?<!training[ \t])(?<!inference[ \t])(?<!data[ \t])pipelines?"
    r"|automatically|nightly|Docker[ \t]+Hub)\b"
)
"""Words saying a build is another's (`CI builds the image`, `the pipeline pushes it`), not one the reader
runs; not a model's pipeline (`the training pipeline`, `an inference pipeline`, `the data pipeline`)."""
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
    rule reads or docgen cannot (`own`), whether it runs any script (`scripts`: one may make a file or
    build), and its first words telling the reader to build (`words`)."""

    runs: list[_Run] = field(default_factory=list)
    lost: bool = False
    own: bool = False
    words: tuple[int, str] | None = None
    scripts: bool = False
    about: tuple[int, str] | None = None
    """The README's first line telling of its image (`_ABOUT_IMAGE`), else its first heading; None when it
    pulls a published image, tells of another's build (`_PUBLISHED`, `_NOT_READERS`) or writes a build
    command in its prose (`docker build -t app .` as a line of text): no tie then."""
    about_heading: str = ""
    """The heading over `about` (the line itself when it is one): a section may be another image's."""


def _ties(doc: Document, whole: str, bases: Sequence[Path], top: Path) -> _Ties:
    """The ties of the README's command blocks, read as the reader runs them (a `cd` followed from the
    folders `bases`, within `top`), and of its words (see `_Ties`; `whole` is the README's text); a block
    run in the container is not read."""
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
                found.scripts = True
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
    lines = sorted([*doc.headings, *((line, text) for para in doc.paragraphs for line, text in para.lines)])
    for line, text in lines:
        said = _BUILD_WORDS.search(text)
        if said is not None and not _NOT_READERS.search(text):
            found.words = (line, said.group(0))
            break
    built_in_prose = any(BUILD.search(text) or _OWN_BUILDS.search(text) for _, text in lines)
    if (
        not built_in_prose
        and not _PUBLISHED.search(whole)
        and not any(_NOT_READERS.search(t) for _, t in lines)
    ):
        told = next(((line, text) for line, text in lines if _ABOUT_IMAGE.search(text)), None)
        found.about = told or next(iter(doc.headings), None)
        if found.about is not None:
            over = [title for at, title in doc.headings if at <= found.about[0]]
            found.about_heading = over[-1] if over else ""
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


_PLACED = re.compile(
    r"\b(?:copy|put|place|move|drop|replace|paste|add)\b(?:(?![.!?](?:[ \t]|\Z))[^\n]){0,80}?"
    r"\b(?:dockerfile|(?:these|the|our|its)[ \t]+files)\b(?:(?![.!?](?:[ \t]|\Z))[^\n]){0,80}?"
    r"\b(?:in|into|to|under|inside)[ \t]+"
    r"(?:the[ \t]+)?[`'\"*]*(?P<where>[^\s`'\"*,;]+)",
    re.IGNORECASE,
)
"""A sentence telling the reader to put the Dockerfile (`the files`) in a folder: `replace the files
(`Dockerfile`, `build.sh`) in `/.../isaacgym/docker/``, `copy the Dockerfile into your checkout`."""
_FOREIGN = re.compile(r"\A(?:/|~|<|\.\.\.|\$)|\A(?:your|their)\Z", re.IGNORECASE)
"""A folder that is no folder of this repository: written from the root, the home or a placeholder
(`/.../isaacgym/docker/`, `~/src/app`, `<sdk>/docker`), or the reader's own (`your`)."""
_FETCHED = re.compile(r"\b(?:download|clone|unzip|untar|extract|check[ \t]*out)\w*\b", re.IGNORECASE)


def placed_elsewhere(text: str) -> bool:
    """True when a line of the README `text` tells the reader to put the Dockerfile (or `the files`)
    in another project's folder (`_PLACED`): one written from the root or a placeholder, or one of
    something the same line has them download or clone (`Download IsaacGym Preview 4 and unzip,
    replace the files (`Dockerfile`, …) in `/.../isaacgym/docker/``). The build runs in that tree, whose
    files (`docker/nvidia_icd.json`) the download brings, not this repository."""
    for line in text.splitlines():
        match = _PLACED.search(line)
        if match is not None and (_FOREIGN.search(match.group("where")) or _FETCHED.search(line)):
            return True
    return False


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
    builds the image by a script or in words, or is the README of the image beside it (see the module);
    one finding a Dockerfile, at the line that ties the README to the build, not naming a source a
    finding already `told` names."""
    here = real_path(directory)
    top = real_path(project_top(directory, project))
    if not in_checkout(here, top) or placed_elsewhere("\n".join(source)):
        return
    root = repository_root(directory)
    root = real_path(root) if root is not None and real_path(root).is_relative_to(top) else top
    ties = _ties(doc, "\n".join(source), bases_above(directory, top), top)
    made = MadeFiles(source)
    submodules = Submodules(doc)
    candidates: list[tuple[ImageModel, _Tie, list[tuple[int, str]]]] = []
    for model in models:
        if not model.file or (read := dockerfile_read(model.file)) is None:
            continue
        dockerfile = real_path(Path(model.file))
        folders = [f for f in [dockerfile.parent, *dockerfile.parent.parents] if f.is_relative_to(root)]
        if not folders or not in_checkout(dockerfile.parent, top):
            continue
        tie = _tie(ties, dockerfile, root, here)
        if tie is None:
            continue
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
    elsewhere = _made_by_project(root, walked, names)
    images = "images" if len(models) > 1 else "image"
    for model, tie, missing in candidates:
        script = text_or_none(tie.script, MAX_PROJECT_FILE_BYTES) if tie.script is not None else None
        nowhere: list[tuple[int, str]] = []
        apart: list[tuple[int, str, str]] = []  # (line, path, the folder holding a file of its name)
        for at, path in missing:
            name = posixpath.basename(path)
            if name in elsewhere:
                continue
            if name not in listed:
                nowhere.append((at, path))
            elif script is not None and not re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", script):
                apart.append((at, path, _holding(walked, root, name)))
        if not nowhere and not apart:
            continue
        folder = posixpath.dirname(model.path)
        above = f"not in {folder}/ or a folder above it, " if folder else ""
        copies = [*((at, path) for at, path in nowhere), *((at, path) for at, path, _ in apart)]
        if len(copies) == 1:
            at, path = copies[0]
            what = f"{model.path}:{at} copies {path}"
            stops = "the build stops at that COPY"
        else:
            what = f"{model.path} copies {', '.join(f'{path} (line {at})' for at, path in sorted(copies))}"
            stops = "the build stops at the first of them"
        where: list[str] = []
        if nowhere:
            of = "that name" if len(nowhere) == 1 else "those names"
            shown = f" ({', '.join(p for _, p in nowhere)})" if apart else ""
            where.append(f"no file or folder of {of} anywhere{shown}")
        where += [
            f"{posixpath.basename(path)} is only in {holder}, which {tie.said} neither builds from nor copies"
            for _, path, holder in apart
        ]
        held = "the git checkout holds nowhere" if not apart else "the build's context does not hold"
        sure = tie.script is not None and not apart and top_plain_files(nowhere)
        if tie.about:
            claim = f"README documents the {images} of {model.path} ({tie.said})"
        else:
            claim = f"README builds the {images} ({tie.said})"
        yield Diagnostic(
            readme,
            tie.line,
            f"{claim}, but {what}, which {held} ({above}{'; '.join(where)}): {stops}",
            confidence=CERTAIN if sure else LIKELY,
        )


@dataclass(frozen=True)
class _Tie:
    """What ties a README to one Dockerfile's build: its line, the words or step shown, the build script
    of the checkout that builds it (None for words, a script gone, or the README of the image), and
    whether the tie is only that the README is the image's (`about`)."""

    line: int
    said: str
    script: Path | None
    about: bool = False


def _tie(ties: _Ties, dockerfile: Path, root: Path, here: Path) -> _Tie | None:
    """The tie of the README to `dockerfile`'s build: a build script it runs that builds it (whatever
    else it runs), else, when it runs no build of its own, its words telling to build, else, for the
    Dockerfile in the README's own folder and a README that runs no script, pulls no published
    image and names no one else's build, its first line telling of the image (`ties.about`)."""
    run = next((r for r in ties.runs if r.builds(dockerfile, root)), None)
    if run is not None:
        return _Tie(run.line, run.step, run.place)
    if ties.own or ties.runs or ties.lost:
        return None  # (its own build is read by another rule; its scripts build other images)
    if ties.words is not None:
        return _Tie(*ties.words, None)
    if ties.about is not None and not ties.scripts and dockerfile.parent == here:
        if _other_image_section(ties.about_heading, dockerfile, here):
            return None  # (`## nvidia-spack` over it: the line is about the image of nvidia-spack/)
        line, text = ties.about
        said = " ".join(text.strip().lstrip("#").split())
        return _Tie(line, said if len(said) <= 60 else said[:57].rstrip() + "…", None, about=True)
    return None


_HEADING_NAME = re.compile(r"[\s#*_`\[]*\.?/?([\w.-]+(?:/[\w.-]+)*)/?[\s*_`\]]*(?:\([^()\s]*\))?\s*")
"""A heading that is one folder's name, maybe a link or code (`## nvidia-spack`, `## [mpich](mpich)`)."""


def _other_image_section(heading: str, dockerfile: Path, here: Path) -> bool:
    """True when `heading` is the name of a folder below the README's (`here`) holding a Dockerfile other
    than `dockerfile`: a README of several images, each under a heading of its folder, tells of that one
    there."""
    match = _HEADING_NAME.fullmatch(heading)
    if match is None or match.group(1).strip(".") == "":
        return False
    folder = here / match.group(1)
    try:
        return folder.is_dir() and any(p != dockerfile for p in dockerfiles_in(folder, pass_unreadable=True))
    except DocgenError:
        return False


def _holding(walked: Walked, root: Path, name: str) -> str:
    """The first folder of the checkout (its files `walked`) holding a file or folder `name`, from `root`."""
    for folder, subfolders, files in walked:
        if name in files or name in subfolders:
            shown = os.path.relpath(folder, root).replace(os.sep, "/")
            return "the checkout's top" if shown == "." else f"{shown}/"
    return "another folder"
