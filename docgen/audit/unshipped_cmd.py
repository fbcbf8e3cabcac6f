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
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.commands import TAG_FLAG, command_words, fence_commands, image_repository, joined
from docgen.audit.container_scripts import image_files_into, work_dir
from docgen.audit.grammar import IMAGE_WORD, run_command
from docgen.audit.names import takes_value, words_of
from docgen.build_scripts import BLANK, BUILD, DOCKER_PODMAN, container_command
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

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


def _on_path(model: ImageModel, name: str) -> bool:
    """True when the image may find `name` on its PATH: its Dockerfile sets PATH or an ENTRYPOINT (the
    word is then the entrypoint's argument), copies a file of that name anywhere, fetches files or names
    it in a RUN, or cannot be read."""
    labels = {stage.label for stage in model.chain()}
    if any(env.name == "PATH" and env.stage in labels for env in model.env):
        return True
    if any(s.keyword == "ENTRYPOINT" and s.stage in labels and s.exec_form != () for s in model.settings):
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
    for fence in doc.fences:
        for lines in fence_commands(fence):
            words = command_words(lines, _DOCKER_RUN)
            if words is None or (read := run_command(words)) is None:
                continue
            image, after, values = read
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
