"""Arguments a README gives a script the image holds, run in a container (`docker run app python
train.py --mode train`, `docker exec -it dev /start-scripts/create-user.sh <username>`), that the script
refuses or never reads: the checks `script_args` makes of a script run on the host, on the
build-context file a COPY puts at the path the container runs.

The path is read in the container: absolute, or from the `-w` of the command, else the image's last
WORKDIR; the file is the one a COPY of the target's stages puts there (`main_env.context_file_at`).
Silent when the README mounts a folder onto the path or above it (the container then runs another
file), when the images put different files there, or when the command's words cannot be read (an
option `docker run` does not have: the image is then not known).
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.grammar import EXEC, read_words, run_command
from docgen.audit.image_paths import mounted_folders
from docgen.audit.main_env import context_file_at, work_dir_at
from docgen.audit.moved_scripts import Below
from docgen.audit.references import project_top
from docgen.audit.script_args import (
    ScriptOptions,
    ignored_said,
    reads_no_arguments,
    run_refusal,
    script_options,
    unfound_python_runs,
)
from docgen.build_scripts import container_command
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.shell import shell_split

_STARTS = re.compile(container_command("run|exec", "docker|podman|nvidia-docker", end=r"(?=[ \t])"))
"""`docker run`, `docker exec`, `podman container exec`: the words after the verb follow."""
_END = re.compile(r"[ \t](?:&&|\|\||;|\||#|\d?>|<(?![\w.-][\w. -]*>))")
"""Where a command's words end: another command, a comment, a redirection (not a placeholder: `<name>`)."""
_PYTHON = re.compile(r"(?:/usr(?:/local)?/bin/|/opt/conda/bin/)?python[\d.]*\Z")
_SHELL = re.compile(r"(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh\Z")
_SCRIPT = re.compile(r"[\w./-]+\.(?:sh|bash|py)\Z")


def _lines(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, command) of each command of the README's blocks, a `\\` joining lines."""
    for fence in doc.fences:
        start, parts = 0, list[str]()
        for number, text in fence.lines:
            if not parts:
                start = number
            if text.rstrip().endswith("\\"):
                parts.append(text.rstrip()[:-1])
                continue
            parts.append(text)
            yield start, " ".join(parts)
            parts = []
        if parts:
            yield start, " ".join(parts)


def _command(text: str) -> tuple[list[str], str | None] | None:
    """(the container's command, the `-w` folder given) of a `docker run` or `docker exec` in `text`;
    None when there is none or its words cannot be read."""
    start = _STARTS.search(text)
    if start is None:
        return None
    rest = _END.split(text[start.end() :], maxsplit=1)[0]
    try:
        words = shell_split(rest)
    except ValueError:
        return None
    if start.group(0).rstrip().endswith("exec"):
        read = read_words(words, EXEC)
        if not read.complete or read.help or not read.positional:
            return None
        values, after = read.values, words[read.after :]
    else:
        ran = run_command(words)
        if ran is None:
            return None
        _, after, values = ran
    workdir = next((v for o, v in values if o in ("-w", "--workdir")), None)
    return after, workdir


def _script(command: list[str]) -> tuple[str, list[str]] | None:
    """(the script's path as written, the words after it) of a container command that runs a script:
    `python3 train.py …` (no option of the interpreter's before it), `bash /x/run.sh …`, `/x/run.sh …`."""
    if not command:
        return None
    first = command[0]
    if (_PYTHON.match(first) or _SHELL.match(first)) and len(command) > 1:
        if not _SCRIPT.match(command[1]) or command[1].endswith(".py") != bool(_PYTHON.match(first)):
            return None
        return command[1], command[2:]
    if _SCRIPT.match(first) and "/" in first:
        return first, command[1:]
    return None


def _mounted_over(where: str, mounts: set[str]) -> bool:
    return any(where == m or where.startswith(m.rstrip("/") + "/") for m in mounts)


def _image_files(
    models: Sequence[ImageModel],
    path: str,
    given: str | None,
    mounts: Callable[[], set[str]],
) -> set[Path] | None:
    """The build-context files the images put at the container path `path`, read from the folder
    `given` (`/`, the `-w` of the command) or else each image's last WORKDIR; None when an image's folder
    is not known (none, or a variable) or a folder the README mounts (`mounts()`) covers the path: what
    the container finds there is not the image's."""
    files: set[Path] = set()
    for model in models:
        folder = given or work_dir_at(model, 1 << 30)
        if folder is None or "$" in folder:
            return None
        where = posixpath.normpath(posixpath.join(folder, path))
        if _mounted_over(where, mounts()):
            return None
        file = context_file_at(model, where)
        if file is not None:
            files.add(file)
    return files


def container_script_args(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A script the image holds that a README's `docker run` or `docker exec` runs with words it
    refuses (an option its `getopt`, `getopts` or `argparse` does not declare, positional words beyond
    those its `argparse` takes: `certain`) or never reads (a shell script with no `$1`, `$@`, `shift`,
    `getopts`: `likely`), as `script_args` reads a script run on the host."""
    if not models:
        return
    mounts = functools.cache(lambda: mounted_folders(doc))
    declared: dict[Path, ScriptOptions | None] = {}
    unread: dict[Path, bool] = {}
    for line, text in _lines(doc):
        command = _command(text)
        found = _script(command[0]) if command is not None else None
        if command is None or found is None or "$" in found[0]:
            continue
        path, words = found
        given = "/" if path.startswith("/") else command[1]
        files = _image_files(models, path, given, mounts)
        if files is None or len(files) != 1:
            continue
        [script] = files
        if script not in declared:
            declared[script] = script_options(script)
        options = declared[script]
        said = run_refusal(path, script.name, words, options) if options is not None else None
        if said is not None:
            yield Diagnostic(readme, line, f"{said} (run in the container)", confidence=CERTAIN)
            continue
        if script not in unread:
            unread[script] = reads_no_arguments(script)
        if words and unread[script]:
            said = ignored_said(path, script.name, words)
            yield Diagnostic(readme, line, f"{said} (run in the container)", confidence=LIKELY)


def unplaced_script_options(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    models: Sequence[ImageModel],
) -> Iterator[Diagnostic]:
    """Options a README gives a Python script it runs by a relative path that the folders its commands
    run in do not hold (`python run_chunks.py --input_dir …` under "Inside the container"), when the
    script is known all the same, and its `argparse` refuses them (`certain`): the build-context file a
    COPY puts at that path under the image's last WORKDIR, else the one file below the README's folder
    whose path ends with it (`scripts/run_chunks.py`) when no image is audited or a COPY of the image
    names the script (`COPY run_chunks.py /workspace/`: the image is meant to hold that file, even when
    the COPY's source is not where it says). Silent when the images put different files there, when a
    folder is mounted over the path, or when two files below end with the path."""
    top = project_top(directory, project)
    below = Below()
    mounts = functools.cache(lambda: mounted_folders(doc))
    declared: dict[Path, ScriptOptions | None] = {}
    for line, path, folders, words in unfound_python_runs(doc, directory, audited, project):
        if not words or "$" in path:
            continue
        placed = _image_files(models, path, None, mounts)
        files = {Path(os.path.realpath(file)) for file in placed or ()}
        if placed is None or len(files) > 1:
            continue
        name = posixpath.basename(path)
        if not files and (not models or any(_copies_name(model, name) for model in models)):
            named = [p for p in below.named(folders[0], name) if p.as_posix().endswith("/" + path)]
            if len(named) == 1:
                files.add(Path(os.path.realpath(named[0])))
        if len(files) != 1:
            continue
        [script] = files
        if not script.is_relative_to(top):
            continue
        if script not in declared:
            declared[script] = script_options(script)
        options = declared[script]
        shown = _shown(script, directory)
        said = run_refusal(path, shown, words, options) if options is not None else None
        if said is not None:
            yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _copies_name(model: ImageModel, name: str) -> bool:
    """Whether a COPY of the image names a file `name` as its source or its destination."""
    for copy in model.context_copies:
        for word in (*copy.sources, copy.dest):
            if posixpath.basename(word.strip("\"'").rstrip("/")) == name:
                return True
    return False


def _shown(script: Path, directory: Path) -> str:
    """`script`'s path from the README's folder when it is below it, else its name."""
    try:
        return script.relative_to(directory.resolve()).as_posix()
    except ValueError:
        return script.name
