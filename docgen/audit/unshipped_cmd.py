"""A `docker run` of the image the README builds, with no command of its own and nothing mounted, while
the image's default command runs a script of the project by a relative path (`CMD ["python3",
"scripts/check_env.py"]`) that the image never holds: the build context has the script, but no COPY or
ADD puts it where the command looks (the WORKDIR and the path under it), so the container fails at
start (`likely`: the README may mean a mount it does not show).

Silent when the run mounts anything (`-v`, `--mount`, `--volume`) or sets `--entrypoint` or `-w`, when
the image copies the script there (a folder above it or the whole context included), when the build
context does not hold the script (the base image may), when a RUN fetches or installs files of its own
(`git clone`, `curl`, `wget`, `pip install .`) or names the script, when a stage copies from another
(`COPY --from`), when the Dockerfile sets an ENTRYPOINT other than none (`ENTRYPOINT []`), and when a
copy's destination or the working folder cannot be read. A README that runs the image through Compose is
not read here (its volumes may bring the source).

And a `docker run` of that image whose command is a script of the project named without a folder
(`docker run -v $(pwd):/workspace app entrypoint.sh`) while the image neither copies a file of that name
nor sets PATH (`bare_script_commands`): Docker looks it up on the PATH, not in the working folder.

And a script a container of that image runs from its working folder (`docker run app python poc.py`, or
`python tag.py` typed in the shell a `docker run -it app` opens) that the image does not hold there and
no mount brings (`unshipped_run_scripts`).

And a `docker run` of the image whose command is a near name of a program the Dockerfile copies onto
the PATH under a name of its own (`create_turkish_srt` for `COPY create_turkish_subtitle.sh
/usr/local/bin/create_turkish_subtitle`, `renamed_programs`).

And a README run of the image it builds (`docker run`, `docker compose up`) whose exec-form ENTRYPOINT
(or CMD) holds the program and its arguments in one string (`ENTRYPOINT ["python3 main.py"]`): docker
finds no program of that name (`spaced_programs`, `certain`; `likely` for a registry's image of the built
name and tag).
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, also_at, dockerfile_read
from docgen.audit.commands import (
    CLONE_STEP,
    TAG_FLAG,
    clone_operands,
    cloned_folder,
    command_words,
    fence_commands,
    image_repository,
    image_tag,
    joined,
    tagged_builds,
)
from docgen.audit.container_scripts import image_files_into, work_dir
from docgen.audit.docker_cli import compose_commands
from docgen.audit.entry_modes import unnamed_installs
from docgen.audit.grammar import IMAGE_WORD, read_compose, run_command
from docgen.audit.image_paths import Image, read_image
from docgen.audit.missing import one_edit
from docgen.audit.names import compose_file, takes_value, words_of
from docgen.audit.references import makes
from docgen.build_scripts import BLANK, BUILD, DOCKER_PODMAN, built_tags, container_command
from docgen.copied import FILE_LIMIT, context_path, copied_files
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import built_dockerfile, bytes_or_none, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Instruction

_RUN = re.compile(container_command("run", DOCKER_PODMAN, end=BLANK))
_INTERPRETERS = re.compile(r"(?:python(?:[23](?:\.\d+)?)?|bash|sh|node|ruby|perl)")
_SCRIPT = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.(?:py|sh|js|rb|pl)")
"""A script by a path from the working folder (`scripts/check.py`)."""
_FETCHES = re.compile(
    r"\b(?:git|hg|svn)[ \t]+(?:clone|checkout|pull)\b|\b(?:curl|wget|gsutil|aws|rsync|scp)\b"
    r"|\bpip[0-9.]*[ \t]+install\b[^\n;&|]*?[ \t](?:-e[ \t]+)?\.(?:[ \t]|$|\[)"
)
"""A RUN that brings files from elsewhere or installs the project itself."""
_AWAY = frozenset({"-v", "--volume", "--mount", "--entrypoint", "-w", "--workdir", "--volumes-from"})


def bare_runs(doc: Document, tags: set[str]) -> Iterator[int]:
    """The README line of each `docker run` of an image the README builds (`tags`) with no command after
    the image and no option that mounts, moves or replaces the start."""
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = joined(command)
            if (match := _RUN.search(text)) is None:
                continue
            words = words_of(text[match.end() :].split("&&")[0].split(";")[0].split("|")[0])
            index = 0
            while index < len(words) and words[index].startswith("-"):
                word = words[index]
                if word.split("=")[0] in _AWAY or (
                    word.startswith("-") and not word.startswith("--") and "v" in word
                ):
                    break
                index += 1 if "=" in word or not takes_value(word) else 2
            else:
                if index < len(words) and index == len(words) - 1 and image_repository(words[index]) in tags:
                    yield command[0][0]


def _default_script(model: ImageModel) -> tuple[str, int] | None:
    """(script, line) of the CMD the image starts with when it runs a script by a relative path through
    an interpreter and the Dockerfile sets no ENTRYPOINT but none (`ENTRYPOINT []`)."""
    labels = {stage.label for stage in model.chain()}
    entry = [s for s in model.settings if s.keyword == "ENTRYPOINT" and s.stage in labels]
    if entry and entry[-1].exec_form != ():
        return None
    cmds = [s for s in model.settings if s.keyword == "CMD" and s.stage in labels]
    if not cmds:
        return None
    cmd = cmds[-1]
    words = list(cmd.exec_form) if cmd.exec_form is not None else cmd.value.split()
    if len(words) < 2 or not _INTERPRETERS.fullmatch(posixpath.basename(words[0])):
        return None
    script = words[1]
    if not _SCRIPT.fullmatch(script) or script.startswith("/"):
        return None
    return posixpath.normpath(script), cmd.line


def _brings_files(model: ImageModel, name: str) -> bool:
    """True when a RUN fetches or installs files of its own or names `name`, or a COPY copies from
    another stage or image (or the Dockerfile cannot be read)."""
    read = dockerfile_read(model.file)
    if read is None:
        return True
    for inst in read[1].instructions:
        if inst.keyword == "RUN" and (_FETCHES.search(inst.body) or name in inst.body):
            return True
        if inst.keyword in ("COPY", "ADD") and any(flag.name == "from" for flag in inst.flags):
            return True
        if inst.keyword == "ADD" and "://" in inst.args:
            return True
    return False


def unshipped_default_scripts(
    doc: Document, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring): one, at the first bare run."""
    if len(models) != 1 or not models[0].file:
        return
    model = models[0]
    tags = {
        image_repository(match.group(1))
        for fence in doc.fences
        for lines in fence_commands(fence)
        if BUILD.search(text := joined(lines))
        for match in TAG_FLAG.finditer(text)
    }
    lines = list(bare_runs(doc, tags)) if tags else []
    if not lines or (default := _default_script(model)) is None:
        return
    script, cmd_line = default
    where = work_dir(model)
    files = image_files_into(model)
    if where is None or files is None or _brings_files(model, posixpath.basename(script)):
        return
    folder, work_line = where
    path = posixpath.join(folder, script)
    if path in files or any(f.startswith(path + "/") for f in files):
        return
    if not os.path.isfile(Path(model.file).parent / script):
        return  # not the project's: the base image may hold it
    yield Diagnostic(
        readme,
        lines[0],
        f"README runs the image with its default command, {model.path}:{cmd_line} CMD running {script} "
        f"from WORKDIR {folder} (line {work_line}), but no COPY or ADD puts {path} in the image and the "
        f"run mounts nothing: the script is in the build context only (mount the source or COPY it)",
        confidence=LIKELY,
    )


_DOCKER_RUN = re.compile(container_command("run", DOCKER_PODMAN, end=BLANK))
_BARE_SCRIPT = re.compile(r"[\w][\w.-]*\.(?:sh|bash|py)")
"""A script named without a folder (`entrypoint.sh`): a command Docker looks up on the PATH."""


def _built_names(doc: Document) -> set[str]:
    """The repositories of the words of the README's build commands (`-t app:v1`, or a tag given without
    `-t`, `docker build app:v1 .`): the images the README makes."""
    names: set[str] = set()
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined(lines)
            if BUILD.search(text):
                names.update(image_repository(word) for word in text.split() if IMAGE_WORD.fullmatch(word))
    return names


def _read_runs(
    doc: Document,
) -> Iterator[tuple[list[tuple[int, str]], str, list[str], list[tuple[str, str]]]]:
    """(lines, image, the words after it, the options with their values) of each `docker run` of the
    README's command blocks whose words `run_command` reads."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            words = command_words(lines, _DOCKER_RUN)
            if words is not None and (read := run_command(words)) is not None:
                yield lines, *read


def _sets_entrypoint(model: ImageModel) -> bool:
    """True when a stage the image `model` builds is made of sets an ENTRYPOINT other than
    `ENTRYPOINT []`: the words a run gives become its arguments."""
    labels = {stage.label for stage in model.chain()}
    return any(s.keyword == "ENTRYPOINT" and s.stage in labels and s.exec_form != () for s in model.settings)


def _on_path(model: ImageModel, name: str) -> bool:
    """True when the image may find `name` on its PATH: its Dockerfile sets PATH or an ENTRYPOINT (the
    word is then the entrypoint's argument), copies a file of that name anywhere, fetches files or names
    it in a RUN, or cannot be read."""
    labels = {stage.label for stage in model.chain()}
    if any(env.name == "PATH" and env.stage in labels for env in model.env):
        return True
    if _sets_entrypoint(model):
        return True
    files = image_files_into(model)
    if files is None or any(posixpath.basename(f) == name for f in files):
        return True
    return _brings_files(model, name)


def bare_script_commands(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A `docker run` of the image the README builds whose container command is a script named with no
    folder (`docker run -v $(pwd):/workspace -w /workspace app entrypoint.sh`) while the script is a file
    of the project (beside the README or the Dockerfile) and the image neither copies a file of that name
    nor sets PATH: Docker looks a command without a `/` up on the PATH, not in the working folder, so the
    container does not start ("executable file not found in $PATH"; `./entrypoint.sh` or `bash
    entrypoint.sh` runs it). `likely`: the base image may put a script of that name on its PATH. Not read:
    a run with `--entrypoint` or `-e PATH=…`, a Dockerfile with an ENTRYPOINT, an image the README does not
    build, a word that is a placeholder."""
    if len(models) != 1 or not models[0].file:
        return
    model = models[0]
    built: set[str] | None = None
    told: set[str] = set()
    for lines, image, after, values in _read_runs(doc):
        if not after or not _BARE_SCRIPT.fullmatch(after[0]) or after[0] in told:
            continue
        if any(n == "--entrypoint" or (n in ("-e", "--env") and v.startswith("PATH")) for n, v in values):
            continue
        name = after[0]
        places = (directory / name, Path(model.file).parent / name)
        if not any(os.path.isfile(place) for place in places):
            continue
        built = _built_names(doc) if built is None else built
        if image_repository(image) not in built or _on_path(model, name):
            continue
        told.add(name)
        yield Diagnostic(
            readme,
            lines[0][0],
            f"README's docker run gives the container the command {name}, a script named without a "
            f"folder: Docker looks such a command up on the PATH, and {model.path} neither copies "
            f"{name} into the image nor sets PATH, so the container does not start (executable file "
            f"not found in $PATH; run ./{name} or bash {name})",
            confidence=LIKELY,
        )


_SHELLS = frozenset({"bash", "sh", "/bin/bash", "/bin/sh", "zsh"})
_LEAVES_SHELL = re.compile(r"^[ \t]*(?:\$[ \t]+)?(?:cd|pushd|exit|docker|podman)\b")
"""A line after which the commands typed in the container's shell are no longer read as run in the
working folder (a `cd`, the shell left, another container command)."""
_TYPED = re.compile(
    r"^[ \t]*(?:[#$][ \t]+)?(?:python(?:[23](?:\.\d+)?)?|bash|sh)[ \t]+(?!-)([\w.-]+(?:/[\w.-]+)*\.(?:py|sh))"
    r"(?=[ \t]|$)"
)
"""A command typed in the container's shell running a script by a path from its folder (`python tag.py
…`)."""


def _mount_targets(values: Sequence[tuple[str, str]]) -> list[str] | None:
    """The container folders the `-v` options of a run mount; None when a `--mount`, `--volumes-from`,
    `-w` or `--entrypoint` makes the run's files or folder something not read here."""
    targets: list[str] = []
    for name, value in values:
        if name in ("--mount", "--volumes-from", "-w", "--workdir", "--entrypoint"):
            return None
        if name in ("-v", "--volume"):
            parts = value.split(":")
            if len(parts) < 2 or not parts[1].startswith("/"):
                return None  # a named volume, a Windows drive, or no target
            targets.append(posixpath.normpath(parts[1]))
    return targets


def _container_runs(doc: Document, built: set[str]) -> Iterator[tuple[int, str, list[str]]]:
    """(README line, script, mount targets) of each script a README runs in a container of an image it
    builds by a path from the working folder: the command of `docker run IMAGE python x.py`, or a
    `python x.py` line of the same block after a `docker run -it IMAGE` opening a shell,
    up to a `cd`, an `exit` or another container command."""
    for fence in doc.fences:
        shell: list[str] | None = None  # the mounts of the run whose shell the next lines are typed in
        for lines in fence_commands(fence):
            text = joined(lines)
            words = command_words(lines, _DOCKER_RUN)
            if words is not None:
                shell = None
                read = run_command(words)
                if read is None or image_repository(read[0]) not in built:
                    continue
                image, after, values = read
                targets = _mount_targets(values)
                if targets is None:
                    continue
                if not after or after[0] in _SHELLS and len(after) == 1:
                    shell = targets  # `docker run -it img`: the lines below are typed in its shell
                    continue
                if len(after) >= 2 and _INTERPRETERS.fullmatch(after[0]) and _SCRIPT.fullmatch(after[1]):
                    yield lines[0][0], after[1], targets
                continue
            if shell is None:
                continue
            if _LEAVES_SHELL.match(text):
                shell = None
                continue
            if (typed := _TYPED.match(text)) is not None:
                yield lines[0][0], typed.group(1), shell


def unshipped_run_scripts(
    doc: Document, source: Sequence[str], models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A script a README runs in a container of the image it builds, by a path from the working folder
    (`docker run img python poc.py`, or `python tag.py` typed in the shell of a `docker run -it img`),
    that the image does not hold there: the Dockerfile sets its WORKDIR, no COPY or ADD puts a file at
    that path, and no `-v` of the run mounts a folder at the working folder or above it (a mount
    elsewhere, `-v ~/Downloads:/workspace` with WORKDIR /code, does not bring it). Either the image copies
    the build context whole into the working folder (`COPY . .`) and the context holds no such file (the
    README runs a script the project does not have), or the script is a file of the build context that
    no COPY takes in, or the working folder is one only the Dockerfile makes that no step fills
    (`_made_empty`) and the project holds no file of that name. The image may be built by a script of
    the README's folder the README runs (`_script_built_names`). `likely`: the reader may be meant to
    bring it. Not read: a Dockerfile with an
    ENTRYPOINT, a RUN naming the script, a copy from another stage, a script next to the README (the
    build may take its folder for the context), a RUN fetching files (`git clone`,
    `wget`) when the script is not the context's (it may bring it), a run with
    `--mount`, `-w` or `--entrypoint`, a script a README line makes (`wget`, `save as`)."""
    if len(models) != 1 or not models[0].file:
        return
    model = models[0]
    if _sets_entrypoint(model):
        return
    built = _built_names(doc) | _script_built_names(doc, directory)
    runs = list(_container_runs(doc, built)) if built else []
    if not runs or (where := work_dir(model)) is None:
        return
    folder, work_line = where
    placed = _placed_files(model)
    if placed is None:
        return
    files, wholes = placed
    context = Path(model.file).parent
    whole = any(folder == w or folder.startswith(w.rstrip("/") + "/") for w in wholes)
    told: set[str] = set()
    lines_of = _Holding(source)
    places: _Places | None = None
    for line, script, targets in runs:
        path = posixpath.normpath(posixpath.join(folder, script))
        name = posixpath.basename(script)
        if script in told or ".." in script.split("/") or path in files:
            continue
        if any(path == t or path.startswith(t.rstrip("/") + "/") for t in targets):
            continue  # a mount brings it
        if any(makes(source[i], name) for i in lines_of.holding(name)):
            continue
        if "/" in script and places is None:
            places = _Places.of(model, files)
        moved = _moved_folder(places, folder, script, context if whole else None) if places else None
        if moved is not None:
            elsewhere, made_line = moved
            rest = script.split("/", 1)[1]
            top = script.split("/", 1)[0]
            told.add(script)
            yield Diagnostic(
                readme,
                line,
                f"README runs {script} in a container of the image {model.path} builds, from its WORKDIR "
                f"{folder} (line {work_line}), but the image puts {top} at {elsewhere} (line {made_line}), "
                f"not {posixpath.join(folder, top)}: the script is not found there (run "
                f"{posixpath.join(elsewhere, rest)}, or give -w {posixpath.dirname(elsewhere)})",
                confidence=LIKELY,
            )
            continue
        in_context = os.path.isfile(context / script)
        # a folder only the Dockerfile makes, which no step writes in: a fetch elsewhere brings nothing there
        empty = (
            not in_context and not whole and "/" not in script and _made_empty(model, folder, name, source)
        )
        if _names_or_takes(model, name) or not in_context and not empty and _brings_files(model, name):
            continue  # (a fetch brings files of other projects, not the project's own script)
        if in_context:
            said = f"no COPY or ADD of {model.path} puts it in the image"
        elif whole and not os.path.lexists(directory / script):
            said = f"the build context {model.path} copies into it holds no {script}"
        elif empty and not _anywhere(directory, name):
            said = (
                f"the image makes that folder itself and nothing of the build puts a {script} in it, nor "
                "does the project hold one"
            )
        else:
            continue  # neither the project's file nor a copy of the project: the base image may hold it
        mounted = f"; the run mounts {', '.join(targets)}, not the working folder" if targets else ""
        told.add(script)
        yield Diagnostic(
            readme,
            line,
            f"README runs {script} in a container of the image {model.path} builds, from its WORKDIR "
            f"{folder} (line {work_line}), but {said}{mounted}: the script is not found there",
            confidence=LIKELY,
        )


def _relative_clones(body: str) -> Iterator[str]:
    """The folder each `git clone` of a RUN `body` makes by a relative path (its destination, or the
    repository's name when it gives none): a folder of the RUN's working folder."""
    for found in CLONE_STEP.finditer(body.replace("\\\n", " ")):
        operands = clone_operands(found.group(1).split(), "\"'")
        if len(operands) >= 2:
            if not operands[1].startswith("/"):
                yield operands[1].rstrip("/").split("/")[0]
        elif operands:
            yield cloned_folder(operands[0].rstrip("/"))


class _Holding:
    """Texts (README lines, RUN bodies) joined once, to find the few holding a word: thousands of scripts,
    each looked for in every text, were the square of the input."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.starts = list(itertools.accumulate((len(t) + 1 for t in texts), initial=0))
        self.joined = "\n".join(texts)

    def holding(self, word: str) -> list[int]:
        """The indices of the texts holding `word`, in order."""
        if not word:
            return list(range(len(self.starts) - 1))
        found: list[int] = []
        at = self.joined.find(word)
        while at >= 0:
            index = bisect.bisect_right(self.starts, at) - 1
            if not found or found[-1] != index:
                found.append(index)
            at = self.joined.find(word, at + 1)
        return found


@dataclass(frozen=True)
class _Places:
    """What `_moved_folder` reads of an image, read once for all the scripts a README runs in it."""

    image: Image
    runs: tuple[Instruction, ...]
    bodies: _Holding
    staged: bool
    """True when a COPY or ADD copies from another stage."""
    taken: frozenset[str]
    """Every file a COPY puts, every path the Dockerfile makes, and each folder above them."""
    built: dict[str, list[tuple[int, str]]]
    """The paths the Dockerfile makes (`Image.built`) by their last name → (line, path)."""

    @staticmethod
    def of(model: ImageModel, files: set[str]) -> _Places | None:
        image = read_image(model)
        read = dockerfile_read(model.file)
        if image is None or read is None:
            return None
        runs = tuple(i for i in read[1].instructions if i.keyword == "RUN")
        staged = any(
            i.keyword in ("COPY", "ADD") and any(flag.name == "from" for flag in i.flags)
            for i in read[1].instructions
        )
        taken: set[str] = set()
        for path in (*files, *image.made):
            while path not in taken and path not in ("", "/"):
                taken.add(path)
                path = posixpath.dirname(path)
        built: dict[str, list[tuple[int, str]]] = {}
        for path, line in image.built.items():
            built.setdefault(posixpath.basename(path), []).append((line, path))
        return _Places(image, runs, _Holding([i.body for i in runs]), staged, frozenset(taken), built)


def _moved_folder(places: _Places, folder: str, script: str, whole: Path | None) -> tuple[str, int] | None:
    """(path, line) of the one folder the Dockerfile makes elsewhere (a clone, COPY, `mkdir`, WORKDIR or
    link destination: `image_paths.read_image`) under the name of the first folder of `script`, a path
    from the working folder `folder` (`segmenter/tests/x.py` from `/root`, the image cloning
    `/segmenter`), when nothing of the image is at `folder/segmenter`: no file a COPY puts below it, no
    folder of the build context a COPY of it whole into `folder` brings, no path the Dockerfile makes,
    enters or names there, no relative clone or other RUN word naming the folder bare, no copy from
    another stage, no download run in a shell. None otherwise."""
    top = script.split("/", 1)[0]
    here = posixpath.join(folder, top)
    if top in (".", "..") or here in places.taken:
        return None  # (a file a COPY puts or a path the Dockerfile makes is there)
    if whole is not None and os.path.lexists(whole / top):
        return None  # (the build context `whole`, copied whole into the working folder, brings it)
    image = places.image
    if image.piped or here in image.entered:
        return None
    made = sorted(places.built.get(top, []))
    if len({p for _, p in made}) != 1 or places.staged:
        return None
    line, elsewhere = made[0]
    bare = re.compile(r"(?<![\w./~$-])" + re.escape(top) + r"(?![\w-])")
    # (a RUN naming the folder holds its name: only those are read)
    for inst in (places.runs[i] for i in places.bodies.holding(top)):
        body = inst.body.replace(elsewhere, " ")
        if here in inst.body or bare.search(body) or top in _relative_clones(inst.body):
            return None
    return elsewhere, line


_SCRIPT_RUN = re.compile(
    r"(?:^|[;&|][ \t]*)(?:sudo[ \t]+)?(?:(?:bash|sh)[ \t]+|\./)([\w.-]+\.sh)(?=[ \t;&|]|$)"
)
"""A script of the README's folder a command line runs (`sh build-docker-image.sh`, `./build.sh`)."""


def _script_built_names(doc: Document, directory: Path) -> set[str]:
    """The repositories the build scripts of the README's folder that its command blocks run tag
    (`sh build-docker-image.sh`, whose `docker build -t app .` makes `app`)."""
    names: set[str] = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            for found in _SCRIPT_RUN.finditer(text.strip()):
                place = directory / found.group(1)
                if not os.path.isfile(place):
                    continue
                script = text_or_none(place, MAX_PROJECT_FILE_BYTES) or ""
                names.update(image_repository(tag) for tag in built_tags(script))
    return names


_SYSTEM_TOPS = frozenset(
    {"", "workspace", "opt", "usr", "root", "home", "srv", "var", "etc", "tmp", "tf", "notebooks", "mnt"}
    | {"data", "src", "code", "lib", "bin", "sbin", "run", "app", "workdir", "work", "content", "project"}
)
"""Folders at the top of an image that a base image may fill (`/workspace` of the PyTorch images)."""
_WRITES = re.compile(
    r"\b(?:git|hg|svn)[ \t]+(?:clone|checkout|pull)\b"
    r"|\b(?:curl|wget|gsutil|aws|rsync|scp|unzip|tar|7z|cp|mv|ln|touch|tee|install|mkdir|pip[0-9.]*|conda|make|cmake|npm|yarn)\b|>"
)
"""A step that may write files into its working folder."""


def _made_empty(model: ImageModel, folder: str, name: str, source: Sequence[str]) -> bool:
    """True when the working folder `folder` is one only the Dockerfile makes (below a top folder no base
    image is known to fill, its WORKDIR lines making it) and no step can have put a file there: no COPY
    or ADD into it or above it (checked by the caller), no RUN run in it or in a folder above it that may
    write files (a clone, a download, an unpacked archive, a copy), no RUN naming `name`, no copy from
    another stage or image, and no README line making `name`."""
    parts = [p for p in folder.split("/") if p]
    if (
        not parts
        or parts[0].lower() in _SYSTEM_TOPS
        or any(name in text and makes(text, name) for text in source)
    ):
        return False
    read = dockerfile_read(model.file)
    if read is None:
        return False
    where = "/"
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            where = "/"
            continue
        if inst.keyword == "WORKDIR":
            value = inst.args.strip().strip("\"'")
            if "$" in value:
                return False
            where = posixpath.normpath(posixpath.join(where, value))
        elif inst.keyword in ("COPY", "ADD") and any(flag.name == "from" for flag in inst.flags):
            return False
        elif inst.keyword == "RUN":
            if name in inst.body or folder in inst.body:
                return False
            above = where == "/" or folder == where or folder.startswith(where.rstrip("/") + "/")
            if above and _WRITES.search(_without_package_steps(inst.body)):
                # a step above the folder: it may make the folder only by naming it (`git clone x F`)
                if folder == where or parts[len([p for p in where.split("/") if p])] in inst.body:
                    return False
                if re.search(r"\b(?:unzip|tar|7z)\b", inst.body):
                    return False  # (an archive may hold the folder)
                clone = re.search(
                    r"\bgit[ \t]+clone\b[^\n;&|]*?([\w.-]+?)(?:\.git)?/?[\"']?(?:[ \t]|$)", inst.body
                )
                if clone is not None and clone.group(1) == parts[len([p for p in where.split("/") if p])]:
                    return False
    return True


def _without_package_steps(body: str) -> str:
    """`body` without its system package installs (`apt-get install -y git unzip`)."""
    return " && ".join(
        step
        for step in re.split(r"&&|\|\||;", body)
        if not re.match(r"[ \t\\\n]*(?:sudo[ \t]+)?(?:apt-get|apt|yum|dnf|apk)[ \t]", step)
    )


def _anywhere(directory: Path, name: str) -> bool:
    """True when a file named `name` is in the README's folder or one below it (a bounded walk), or the
    walk is cut short."""
    seen = 0
    for _, folders, files in os.walk(directory):
        folders[:] = [f for f in folders if not f.startswith(".") and f != "node_modules"]
        seen += len(files)
        if name in files or seen > 20000:
            return True
    return False


def _names_or_takes(model: ImageModel, name: str) -> bool:
    """True when a RUN of the Dockerfile names `name` or a COPY copies from another stage or image (or
    the Dockerfile cannot be read)."""
    read = dockerfile_read(model.file)
    if read is None:
        return True
    return any(
        inst.keyword == "RUN"
        and name in inst.body
        or inst.keyword in ("COPY", "ADD")
        and any(flag.name == "from" for flag in inst.flags)
        for inst in read[1].instructions
    )


def _placed_files(model: ImageModel) -> tuple[set[str], list[str]] | None:
    """The paths in the image the COPY and ADD of the build context into the target's stages give files
    (a relative destination read from the WORKDIR before it), and the folders they copy the whole
    context into (`COPY . .` in WORKDIR /app: `/app`); None when they are more than the audit reads or a
    WORKDIR is a variable."""
    indexes = {stage.index for stage in model.chain()}
    labels = {stage.label for stage in model.chain()}
    works = sorted(
        (s.line, s.value.strip().strip("\"'"))
        for s in model.settings
        if s.keyword == "WORKDIR" and s.stage in labels
    )
    if any("$" in value for _, value in works):
        return None

    def work_at(line: int) -> str:
        where = "/"
        for at, value in works:
            if at < line:
                where = posixpath.normpath(posixpath.join(where, value))
        return where

    copies = [c for c in model.context_copies if c.stage in indexes]
    wholes = [
        posixpath.normpath(posixpath.join(work_at(c.line), c.dest.strip("\"'")))
        for c in copies
        if any(context_path(s) == "." for s in c.sources)
    ]
    root = Path(model.file).parent.resolve()
    found: set[str] = set()
    for count, copied in enumerate(itertools.islice(copied_files(root, copies, model.file), FILE_LIMIT + 1)):
        if count >= FILE_LIMIT:
            return None
        if copied.path is None:
            continue
        dest = posixpath.normpath(posixpath.join(work_at(copied.line), copied.dest.strip("\"'")))
        found.add(dest)
        found.add(posixpath.join(dest, copied.path.name))
    return found, wholes


_BIN_DEST = re.compile(r"/(?:usr/(?:local/)?)?s?bin/([\w][\w.+-]*)")
"""A COPY's destination that puts a file on the PATH under a name of its own (`/usr/local/bin/create_srt`)."""
_COMMAND_WORD = re.compile(r"[A-Za-z][\w.+-]*")


def _path_programs(model: ImageModel) -> dict[str, int]:
    """The programs the Dockerfile puts on the PATH by copying one file of the build context to a bin
    folder under a name (`COPY create_srt.sh /usr/local/bin/create_srt`): {name: Dockerfile line}."""
    found: dict[str, int] = {}
    for copy in model.context_copies:
        dest = copy.dest.strip("\"'")
        named = _BIN_DEST.fullmatch(dest)
        if named is not None and len(copy.sources) == 1 and not copy.heredoc and "$" not in dest:
            found.setdefault(named.group(1), copy.line)
    return found


def _near_program(word: str, names: Sequence[str]) -> str | None:
    """The one program name a slip away from `word`: the same opening (at least half of `word`, past a `_`
    or `-` joining its words: `create_turkish_s`) and most letters shared (`create_turkish_srt` for
    `create_turkish_subtitle`)."""
    close: list[str] = []
    for name in names:
        prefix = os.path.commonprefix([word, name])
        if len(prefix) < len(word) / 2 or not re.search(r"[\w.+][_-][\w.+]", prefix):
            continue
        if difflib.SequenceMatcher(None, word, name).ratio() >= 0.7:
            close.append(name)
    return close[0] if len(close) == 1 else None


def renamed_programs(doc: Document, models: Sequence[ImageModel], readme: str) -> Iterator[Diagnostic]:
    """A `docker run` of the image whose command (`create_turkish_srt`) is no program the image has while
    the Dockerfile copies a program of a near name onto the PATH (`COPY create_turkish_subtitle.sh
    /usr/local/bin/create_turkish_subtitle`): the container fails ("executable file not found in
    $PATH"). The image is the Dockerfile's when the README builds it or another run of it starts a
    program the Dockerfile puts on the PATH. `likely`: the base image may hold a program of that name.
    Not read: a Dockerfile with an ENTRYPOINT (its script may take the word), a run with `--entrypoint`,
    a word a RUN names (it may install it), a RUN installing what it does not name (`pip install .`,
    `-r requirements.txt`), a word with a folder, a word near two of the names."""
    if len(models) != 1 or not models[0].file:
        return
    model = models[0]
    if _sets_entrypoint(model):
        return
    programs = _path_programs(model)
    if not programs:
        return
    runs: list[tuple[int, str, str]] = []  # (README line, image repository, first word)
    for lines, image, after, values in _read_runs(doc):
        if after and not any(n == "--entrypoint" for n, _ in values):
            runs.append((lines[0][0], image_repository(image), after[0]))
    if not runs:
        return
    built = _built_names(doc)
    ours = {repo for _, repo, word in runs if word in programs} | (built & {repo for _, repo, _ in runs})
    parsed = dockerfile_read(model.file)
    if parsed is None:
        return
    installs = "\n".join(
        " ".join([i.args, *(h.body for h in i.heredocs)])
        for i in parsed[1].instructions
        if i.keyword == "RUN"
    )
    if unnamed_installs(installs):
        return  # (`pip install .`, `-r requirements.txt`: it may install a program of that name)
    told: set[str] = set()
    for line, repo, word in runs:
        if repo not in ours or word in programs or word in told or not _COMMAND_WORD.fullmatch(word):
            continue
        if re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", installs):
            continue
        near = _near_program(word, sorted(programs))
        if near is None:
            continue
        told.add(word)
        yield Diagnostic(
            readme,
            line,
            f"README runs {word} in the container, but the image has no program of that name: "
            f"{model.path}:{programs[near]} puts it on the PATH as {near}; the container fails "
            f"(executable file not found in $PATH)",
            confidence=LIKELY,
        )


def _spaced_program(model: ImageModel) -> tuple[str, str, int] | None:
    """(instruction, program, line) of the image's start when its program, the first word of an
    exec-form ENTRYPOINT (or of CMD, with no ENTRYPOINT or `ENTRYPOINT []`), holds a blank (`ENTRYPOINT
    ["python3 main.py"]`): docker takes the whole string as the program's name, which no file has."""
    labels = {stage.label for stage in model.chain()}
    entries = [s for s in model.settings if s.keyword == "ENTRYPOINT" and s.stage in labels]
    cmds = [s for s in model.settings if s.keyword == "CMD" and s.stage in labels]
    if entries and entries[-1].exec_form != ():
        chosen = entries[-1]
    elif cmds:
        chosen = cmds[-1]
    else:
        return None
    words = chosen.exec_form
    if not words or not re.search(r"\S\s+\S", words[0]) or re.search(r"[$<>{}]", words[0]):
        return None
    return chosen.keyword, words[0].strip(), chosen.line


def _building_services(directory: Path, file: str) -> set[str]:
    """The services of the default compose files of `directory` that build the Dockerfile `file`
    (`build: .` beside it)."""
    mine = os.path.realpath(file)
    found: set[str] = set()
    for path in compose.default_files(directory):
        data = bytes_or_none(path)
        try:
            targets = compose.parse(data, path.name) if data is not None else ()
        except DocgenError:
            continue
        found.update(
            t.name for t in targets if os.path.realpath(built_dockerfile(path.parent / t.dockerfile)) == mine
        )
    return found


def _compose_starts(
    doc: Document, directory: Path | None, built: set[str], keyword: str, file: str | None = None
) -> Iterator[int]:
    """The README line of each `docker compose up` / `run` (with no command of its own) whose compose
    file (the README folder's default one) has a service of an image the README builds (`built`), or
    with `file` one that builds that Dockerfile, that sets no `entrypoint:` (nor `command:`, when
    `keyword` is CMD)."""
    if directory is None:
        return
    services: list[compose.Service] = []
    for path in compose.default_files(directory):
        read = compose_file(path)  # (parsed once an audit for every rule reading it)
        if read is not None:  # (a compose file docgen cannot read starts nothing it knows)
            services += read[0]
    replaced = {"entrypoint"} | ({"command"} if keyword == "CMD" else set())
    builders = _building_services(directory, file) if file else set()
    started = {
        s.name
        for s in services
        if ((s.image is not None and image_repository(s.image) in built) or s.name in builders)
        and not replaced & {key for key, _ in s.settings}
    }
    if not started:
        return
    for line, words in compose_commands(doc):
        call = read_compose(words)
        if call.options is None or not call.complete or call.top.help or call.options.help:
            continue
        named = call.services
        if call.verb == "up" and (not named or started & set(named)):
            yield line
        elif call.verb == "run" and named and named[0] in started and len(call.options.positional) == 1:
            yield line


_SHELL_SYNTAX = re.compile(r"&&|\|\||[;|<>`]|\$\(")
"""What only a shell reads in a start's one string (`a && b`, `x > log`): it needs `sh -c`, not words."""
_SHOWN = 60
"""The most characters of a start's string a finding repeats."""


def _starts(
    doc: Document, keyword: str, built: set[str], tags: Sequence[str]
) -> tuple[list[int], list[tuple[int, str, str]]]:
    """The README lines of each `docker run` of an image the README builds (`built`: the repositories)
    that starts it as built: no `--entrypoint`, no command when `keyword` is CMD; and (line, image, tag)
    of each such run of an image a registry holds under the name and tag a build's `-t` gives (`tags`;
    `ghcr.io/org/app:1` for `-t app:1`), which may be the build pushed."""
    exact: list[int] = []
    pushed: list[tuple[int, str, str]] = []
    for run_lines, image, after, values in _read_runs(doc):
        if any(name == "--entrypoint" for name, _ in values) or (keyword == "CMD" and after):
            continue
        repository = image_repository(image)
        if repository in built:
            exact.append(run_lines[0][0])
            continue
        head, _, last = repository.rpartition("/")
        same = [t for t in tags if image_repository(t) == last and image_tag(t) == image_tag(image)]
        if head and same:
            pushed.append((run_lines[0][0], image, same[0]))
    return exact, pushed


def _names_built(
    doc: Document,
    model: ImageModel,
    count: int,
    builds: Sequence[tuple[str, str | None, str]],
    directory: Path | None,
) -> tuple[list[str], set[str]] | None:
    """The tags the README's builds give `model`'s image and the names they build it as: every build's
    when the README is about one Dockerfile (`count` 1), else those whose `-f` is `model`'s file; None
    when `model`'s builds cannot be told (several Dockerfiles, no folder or file to match)."""
    if count == 1:
        return [image for image, _, _ in builds], _built_names(doc)
    if directory is None or not model.file:
        return None
    mine = os.path.realpath(model.file)
    tags = [i for i, f, _ in builds if f and os.path.realpath(directory / f) == mine]
    return tags, {image_repository(t) for t in tags}


def spaced_programs(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path | None = None
) -> Iterator[Diagnostic]:
    """A README run of the image it builds (`docker run`, or `docker compose up` / `run` of a service of
    that image) whose start is an exec-form ENTRYPOINT or CMD with the program and its arguments in one
    string (`ENTRYPOINT ["python3 main.py"]`): docker looks for a program of that whole name, finds none,
    and the container cannot start (`certain`). In a README about several Dockerfiles, an image is the
    one its build's `-f` names. A run of a registry's image of the built name and tag (`docker run
    ghcr.io/org/app:1` after `docker build -t app:1`) is `likely`: the registry's may be built from
    another version of the file. Silent for a run with `--entrypoint` (or a command of its own, when the
    program is CMD's), a compose service with `entrypoint:` (or `command:`), a program with a variable or
    placeholder."""
    builds = list(tagged_builds(doc))
    for model in models:
        spaced = _spaced_program(model)
        if spaced is None:
            continue
        keyword, program, at = spaced
        names = _names_built(doc, model, len(models), builds, directory)
        if names is None:
            continue
        tags, built = names
        if not built:
            continue
        lines, pushed = _starts(doc, keyword, built, tags)
        lines += _compose_starts(doc, directory, built, keyword)
        sure = CERTAIN
        head = "README starts the image"
        if not lines and pushed:
            sure = LIKELY
            lines = [line for line, _, _ in pushed]
            head = (
                f"README starts {pushed[0][1]}, a registry's image of the name and tag it builds from "
                f"{model.path} ({pushed[0][2]})"
            )
        if not lines:
            continue
        lines.sort()
        shown = program if len(program) <= _SHOWN else program[: _SHOWN - 1] + "…"
        if _SHELL_SYNTAX.search(program):
            fix = f'write it in the shell form, or as ["/bin/sh", "-c", "{shown}"]'
        else:
            fix = "write [" + ", ".join(f'"{w}"' for w in program.split()) + "]"
        said = (
            f'{head}, but {model.path}:{at} {keyword} ["{shown}"] is the exec form with the program and its '
            f'arguments in one string: docker looks for a program named "{shown}", finds none, and the '
            f"container cannot start ({fix}){also_at(lines)}"
        )
        yield Diagnostic(readme, lines[0], said, confidence=sure)


_CONSOLE_SCRIPTS = {
    "torch": ("torchrun",),
    "jupyter": ("jupyter",),
    "jupyterlab": ("jupyter", "jupyter-lab"),
    "notebook": ("jupyter", "jupyter-notebook"),
    "huggingface-hub": ("huggingface-cli",),
    "huggingface_hub": ("huggingface-cli",),
    "tensorboard": ("tensorboard",),
    "supervisor": ("supervisord",),
    "python3": ("python3",),
    "python3-pip": ("pip3",),
}
"""Packages whose programs have another name than theirs (`torch` gives `torchrun`); any other package
is taken to give a program of its own name (`accelerate`, `uvicorn`, `streamlit`)."""
_WELL_KNOWN = {
    "python": "Python's interpreter",
    "python3": "Python's interpreter",
    "bash": "the shell",
    "accelerate": "the launcher of Hugging Face's accelerate",
    "torchrun": "PyTorch's launcher",
    "deepspeed": "DeepSpeed's launcher",
    "uvicorn": "the ASGI server uvicorn",
    "gunicorn": "the WSGI server gunicorn",
    "hypercorn": "the ASGI server hypercorn",
    "streamlit": "Streamlit's server",
    "gradio": "Gradio's server",
    "jupyter": "Jupyter's launcher",
    "tensorboard": "TensorBoard's server",
    "supervisord": "supervisor's daemon",
    "celery": "Celery's worker",
    "fastapi": "FastAPI's server",
    "huggingface-cli": "the Hugging Face Hub's program",
    "node": "Node.js",
    "nginx": "the nginx server",
    "redis-server": "Redis' server",
    "dumb-init": "the init dumb-init",
}
"""Programs that images start with, whatever installs them (a project's own `pip install -e .`, the base
image): a start program one slip from one of them that nothing names is most likely that program."""
_PACKAGE_INSTALL = re.compile(
    r"\b(?:pip[\d.]*|uv[ \t]+pip|python[\d.]*[ \t]+-m[ \t]+pip|conda|mamba|micromamba|apt-get|apt|apk|yum|dnf"
    r"|npm)[ \t]+(?:-\S+[ \t]+)*(?:install|add)\b([^;&|\n]*)"
)
"""A package install command of a RUN and the words after it, up to the next operator."""
_PACKAGE_NAME = re.compile(r"[A-Za-z][\w.-]*")


def _start_setting(model: ImageModel) -> tuple[str, tuple[str, ...], int] | None:
    """(instruction, exec-form words, line) of what starts the image: its last ENTRYPOINT, or its last
    CMD with no ENTRYPOINT or `ENTRYPOINT []`; None when that is in the shell form or there is none."""
    labels = {stage.label for stage in model.chain()}
    entries = [s for s in model.settings if s.keyword == "ENTRYPOINT" and s.stage in labels]
    cmds = [s for s in model.settings if s.keyword == "CMD" and s.stage in labels]
    chosen = entries[-1] if entries and entries[-1].exec_form != () else cmds[-1] if cmds else None
    if chosen is None or not chosen.exec_form:
        return None
    return chosen.keyword, chosen.exec_form, chosen.line


def _slipped_program(model: ImageModel) -> tuple[str, str, int, str, str] | None:
    """(instruction, program, line, the program meant, what gives it) when the image's start program is
    a bare name (`accelrate`) one slip (`missing.one_edit`) from a program the Dockerfile installs (`pip
    install accelerate`, a console script of `torch`: `torchrun`) or an interpreter (`python3`), while
    nothing in the Dockerfile names it: no RUN, COPY or ADD, no file of the build context. Not a name
    whose slip is in its digits (`python2` for `python3`), a name shorter than five letters."""
    start = _start_setting(model)
    if start is None:
        return None
    keyword, words, line = start
    program = words[0].strip()
    if not _COMMAND_WORD.fullmatch(program) or len(program) < 5:
        return None
    parsed = dockerfile_read(model.file) if model.file else None
    if parsed is None:
        return None
    texts = [
        " ".join([i.args, *(h.body for h in i.heredocs)])
        for i in parsed[1].instructions
        if i.keyword in ("RUN", "COPY", "ADD")
    ]
    if any(re.search(rf"(?<![\w.-]){re.escape(program)}(?![\w-])", t) for t in texts):
        return None  # (a step names it: it may make it)
    root = Path(model.file).parent
    if any(os.path.lexists(root / name) for name in (program, f"{program}.sh", f"{program}.py")):
        return None
    given: dict[str, str] = {}
    for text in texts:
        for command in _PACKAGE_INSTALL.finditer(text):
            for word in command.group(1).split():
                word = word.strip("\"'")
                named = _PACKAGE_NAME.match(word)
                if word.startswith("-") or named is None:
                    continue
                package = named.group(0).rstrip(".-")
                for script in _CONSOLE_SCRIPTS.get(package.lower(), (package,)):
                    given.setdefault(script, f"the Dockerfile installs {package}")
    for name, what in _WELL_KNOWN.items():
        given.setdefault(name, what)
    for name, why in given.items():
        if program == name or not one_edit(program, name):
            continue
        if re.sub(r"[\d.]", "", program) == re.sub(r"[\d.]", "", name):
            continue  # (`python2` for `python3`: another version, not a slip)
        return keyword, program, line, name, why
    return None


def slipped_programs(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path | None = None
) -> Iterator[Diagnostic]:
    """A README run of the image it builds (`docker run`, or `docker compose up` / `run` of a service that
    builds it or runs its image) whose start program, the first word of an exec-form ENTRYPOINT or CMD,
    is a slip of a program the Dockerfile installs (`ENTRYPOINT ["accelrate", "launch", "train.py"]`
    after `pip install accelerate`, `_slipped_program`): docker finds no program of that name and the
    container cannot start (`likely`: the base image may hold one). Silent where `spaced_programs` is:
    a run with `--entrypoint`, or a command of its own for CMD's program, a service setting
    `entrypoint:` (or `command:`)."""
    builds = list(tagged_builds(doc))
    for model in models:
        slipped = _slipped_program(model)
        if slipped is None:
            continue
        keyword, program, at, meant, why = slipped
        names = _names_built(doc, model, len(models), builds, directory)
        if names is None:
            continue
        tags, built = names
        lines = _starts(doc, keyword, built, tags)[0] if built else []
        lines += _compose_starts(doc, directory, built, keyword, model.file)
        if not lines:
            continue
        lines.sort()
        yield Diagnostic(
            readme,
            lines[0],
            f"README starts the image, but {model.path}:{at} {keyword} runs {program}, a program nothing in "
            f"the Dockerfile names, one letter from {meant} ({why}): docker finds no executable "
            f'"{program}" in $PATH and the container cannot start{also_at(lines)}',
            confidence=LIKELY,
        )
