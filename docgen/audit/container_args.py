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
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import built_repositories, image_repository
from docgen.audit.grammar import EXEC, misplaced, read_compose, read_words, run_command
from docgen.audit.image_paths import mounted_folders
from docgen.audit.main_env import context_file_at, work_dir_at
from docgen.audit.moved_scripts import Below
from docgen.audit.owner_images import build_texts, workflow_texts
from docgen.audit.references import project_top, run_folders
from docgen.audit.run_args import docker_runs, own_model, published_model, titled_image
from docgen.audit.script_args import (
    ScriptOptions,
    ignored_said,
    placeholder_lines,
    reads_no_arguments,
    run_refusal,
    script_file,
    script_options,
    unfound_python_runs,
)
from docgen.build_scripts import container_command
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Setting
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


def _words_after(verb: re.Pattern[str], text: str) -> tuple[re.Match[str], list[str]] | None:
    """The first `verb` of `text` and the shell words after it up to the command's end; None when there
    is none or the words cannot be read."""
    start = verb.search(text)
    if start is None:
        return None
    try:
        return start, shell_split(_END.split(text[start.end() :], maxsplit=1)[0])
    except ValueError:
        return None


def _command(text: str) -> tuple[list[str], str | None] | None:
    """(the container's command, the `-w` folder given) of a `docker run` or `docker exec` in `text`;
    None when there is none or its words cannot be read."""
    found = _words_after(_STARTS, text)
    if found is None:
        return None
    start, words = found
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
    held = placeholder_lines(doc)
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
        said = run_refusal(path, shown, words, options, line not in held) if options is not None else None
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


# --------------------------------------------------------------------------------------------------
# The words after the image, given to the Python script the image's ENTRYPOINT runs

_NO_PARSER = ScriptOptions(0, "", frozenset(), frozenset(), frozenset(), False, False)
"""What a script without a parser docgen reads is taken as (`_held_script`)."""
_OVERRIDES = re.compile(r"(?:.*/)?(?:python[\d.]*|(?:ba|z|da)?sh|bash|env)\Z")
"""A first word after the image that asks for another program (`bash`, `python3 -c …`): the README
means to replace the script, a concern of other rules."""


@dataclass(frozen=True)
class EntryScript:
    """The Python script an image's exec-form ENTRYPOINT runs, and what a `docker run` adds to it."""

    path: str
    """The script's path in the image, as the ENTRYPOINT writes it."""
    file: Path
    """The build-context file a COPY puts there."""
    words: tuple[str, ...]
    """The words the ENTRYPOINT gives the script itself (`["python3", "app.py", "--host", "0.0.0.0"]`)."""
    cmd: tuple[str, ...] | None
    """The words of the image's exec-form CMD, which a run with no words after the image appends; None
    when the CMD is in the shell form (its words are not known)."""
    line: int
    """The Dockerfile line of the ENTRYPOINT."""
    where: str
    """The script's absolute path in the image."""
    via: str = ""
    """The line of the ENTRYPOINT's shell script that hands the words on (`entrypoint.sh:7`), if any."""


_HANDS_ON = re.compile(
    r"^[ \t]*(?:exec[ \t]+)?((?:[\w./-]*/)?python[\d.]*(?:[ \t]+-[A-Za-z]+)*[ \t]+[\w./-]+\.py"
    r"(?:[ \t]+[^\s\"'$&|;<>]+)*)[ \t]+\"?\$(?:@|\{@\})\"?[ \t]*$"
)
"""A shell line handing its words on to a Python script: `exec python3 -u app.py "$@"`."""
_READS_WORDS = re.compile(
    r"\$\{?[@*1-9#]|\bshift\b|\bgetopts?\b|\bcase\b|\bset[ \t]+--|(?:^|[;&|])[ \t]*cd[ \t]"
)
"""What else may read, drop or move a script's words (or its folder): `$1`, `shift`, `case`, `cd`."""


def _script_words(words: Sequence[str]) -> list[str] | None:
    """[script, its own words …] of a command running a Python script: `python3 -u app.py --x 1` (the
    interpreter's options left out) or `./app.py --x 1`; None for anything else (`python -m`, `-c`)."""
    words = list(words)
    if words and _PYTHON.match(words[0]):
        words.pop(0)
        while words and words[0].startswith("-") and words[0] not in ("-m", "-c"):
            words.pop(0)  # the interpreter's own options (`-u`, `-B`)
    if not words or not words[0].endswith(".py") or "$" in words[0]:
        return None
    return words


def _handed_on(text: str) -> tuple[int, list[str]] | None:
    """(line, [script, its own words …]) of the one line of the shell script `text` that hands its words
    on to a Python script (`_HANDS_ON`), when nothing else of it reads them, moves or branches on them."""
    found: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        match = _HANDS_ON.match(line)
        if match is not None:
            words = _script_words(match.group(1).split())
            if words is None:
                return None
            found.append((number, words))
        elif _READS_WORDS.search(line):
            return None
    return found[0] if len(found) == 1 else None


def entry_script(model: ImageModel) -> EntryScript | None:
    """The Python script the exec-form ENTRYPOINT of the image `model` builds runs with the words of a
    run: `["python3", "-u", "main.py", …]`, `["./main.py"]`, a shell script of the build context that
    hands them on (`["/entrypoint.sh"]` running `exec python app.py "$@"`), or `["sh", "-c", "python
    app.py \"$@\"", "--"]`; the script found through the COPY that puts it at that path (relative paths
    from the WORKDIR at the ENTRYPOINT). None for a shell-form ENTRYPOINT (which drops the run's words),
    `python -m`, a script no COPY of the build context puts there."""
    labels = [stage.label for stage in model.chain()]
    last: dict[str, Setting] = {}
    for setting in model.settings:
        if setting.keyword in ("ENTRYPOINT", "CMD") and setting.stage in labels:
            last[setting.keyword] = setting
    entry = last.get("ENTRYPOINT")
    if entry is None or not entry.exec_form:
        return None
    folder = work_dir_at(model, entry.line)
    if folder is None:
        return None
    via = ""
    words = _script_words(entry.exec_form)
    form = list(entry.exec_form)
    if words is None and len(form) in (3, 4) and _SHELL.match(form[0]) and form[1] == "-c":
        handed = _handed_on(form[2])
        words = handed[1] if handed is not None else None
    elif words is None:
        shell = form[1:] if _SHELL.match(form[0]) else form
        if len(shell) == 1 and _SCRIPT.match(shell[0]) and shell[0].endswith((".sh", ".bash")):
            local = context_file_at(model, posixpath.normpath(posixpath.join(folder, shell[0])))
            text = text_or_none(local, MAX_PROJECT_FILE_BYTES) if local is not None else None
            handed = _handed_on(text) if text is not None else None
            if local is not None and handed is not None:
                words, via = handed[1], f"{local.name}:{handed[0]}"
    if words is None:
        return None
    path = words[0]
    where = posixpath.normpath(posixpath.join(folder, path))
    file = context_file_at(model, where)
    if file is None:
        return None
    cmd = last.get("CMD")
    # an ENTRYPOINT set after the CMD's stage resets the CMD a base stage gave
    kept = cmd is not None and labels.index(cmd.stage) >= labels.index(entry.stage)
    cmd_words = (tuple(cmd.exec_form) if cmd.exec_form is not None else None) if cmd and kept else ()
    return EntryScript(path, file, tuple(words[1:]), cmd_words, entry.line, where, via)


def entry_script_args(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The words a README's `docker run` gives after the image (`docker run app --input a.wav --out
    b.txt`), which docker appends to an exec-form ENTRYPOINT running a Python script, that the script's
    `argparse` refuses: an option it does not declare, a value its `choices` do not list, more
    positional words than it takes, a required option or positional argument left out. The image is the
    README's own: built by the README (`run_args.own_model`: `certain`), or not built by it and named as
    the one Dockerfile audited (`run_args.titled_image`), or run with at least one option the script
    declares while every audited image runs that script (`likely`: the name may mean another image).
    Silent with `--entrypoint`, a first word asking for another program (`bash`, `python`), a folder the
    README mounts over the script, a run with no words whose CMD is in the shell form."""
    if not models:
        return
    mounts = functools.cache(lambda: mounted_folders(doc))
    built = built_repositories(doc)
    scripts = {id(model): entry_script(model) for model in models}
    held = functools.cache(lambda: placeholder_lines(doc))
    shared = {s.file for s in scripts.values() if s is not None}
    everyone = len(shared) == 1 and all(s is not None for s in scripts.values())
    bases = {image_repository(stage.base) for model in models for stage in model.stages}
    for line, image, read, after in docker_runs(doc):
        if any(name == "--entrypoint" for name, _ in read.values):
            continue
        if after and (_OVERRIDES.match(after[0]) or misplaced(after) is not None):
            continue  # another program asked for, or docker's own options (`misplaced_options`)
        model = own_model(image, built, models) if built else None
        how = "own"
        if model is None:
            if image_repository(image) in built or image_repository(image) in bases:
                continue
            if len(models) == 1 and titled_image(doc, image, models[0]):
                model, how = models[0], "titled"
            elif everyone:
                model, how = models[0], "shared"
        script = scripts.get(id(model)) if model is not None else None
        if model is None or script is None or _mounted_over(script.where, mounts()):
            continue
        if not after and (script.cmd is None or how != "own"):
            continue
        options = script_options(script.file)
        if options is None:
            continue
        given = list(after) if after else list(script.cmd or ())
        if how == "shared" and not any(w.startswith("--") and options.takes(w) for w in given):
            continue  # no word of the run shows it is this script's image
        said = run_refusal(
            script.path, script.file.name, [*script.words, *given], options, line not in held()
        )
        if said is None:
            continue
        yield Diagnostic(
            readme,
            line,
            f"{said} (docker run {image} appends the words after the image to the ENTRYPOINT "
            f"{model.path}:{script.line} gives, which runs {script.path}"
            + (f" through {script.via}" if script.via else "")
            + ")",
            confidence=CERTAIN if how == "own" else LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# Options given after an image that sets no ENTRYPOINT, meant for the one script it holds


def _own_setting(model: ImageModel, keyword: str) -> Setting | None:
    """The last ENTRYPOINT or CMD (`keyword`) of the stages the image `model` builds."""
    labels = {stage.label for stage in model.chain()}
    return next((s for s in reversed(model.settings) if s.keyword == keyword and s.stage in labels), None)


def _held_script(model: ImageModel) -> tuple[str, Path, int] | None:
    """(path in the image, build-context file, COPY line) of the one Python script with an `argparse`
    parser that the image's COPYs put in it by name (`COPY ./main.py /opt/`); None when there is none or
    several."""
    indexes = {stage.index for stage in model.chain()}
    found: dict[Path, tuple[str, Path, int]] = {}
    for copy in model.context_copies:
        if copy.stage not in indexes:
            continue
        for source in copy.sources:
            source = source.strip("\"'")
            if not source.endswith(".py") or any(c in source for c in "*?[$"):
                continue
            dest = copy.dest.strip("\"'")
            where = dest + posixpath.basename(source) if dest.endswith("/") else dest
            folder = work_dir_at(model, copy.line)
            if folder is None:
                return None
            file = script_file(model, where) if where.startswith("/") else None
            where = posixpath.normpath(posixpath.join(folder, where))
            file = file or context_file_at(model, where)
            if file is not None and os.path.isfile(file):
                found[Path(os.path.realpath(file))] = (where, file, copy.line)
    scripts = [held for real, held in found.items() if (script_options(real) or _NO_PARSER).how == "argparse"]
    return scripts[0] if len(scripts) == 1 else None


def unentered_script_args(
    doc: Document,
    readme: str,
    directory: Path,
    project: Path | None,
    models: Sequence[ImageModel],
) -> Iterator[Diagnostic]:
    """Options a README gives after the image (`docker run … org/app:latest --cpu in.tif -o /data/`)
    whose own stages set no ENTRYPOINT, where the words are meant for the one Python script the image
    copies (`COPY ./main.py /opt/`, at least one of the words an option it declares) and its `argparse`
    refuses them (an undeclared option, a required one left out): `likely`. The image is the README's
    own (`run_args.own_model`), named as the one Dockerfile audited (`run_args.titled_image`), or one a
    build file of the project tags under any registry (`published_model`). Whether docker even reaches
    the script is `run_args`' concern (words after an image with no ENTRYPOINT replace its CMD)."""
    if not models:
        return
    top = project_top(directory, project)
    texts = functools.cache(
        lambda: (*build_texts(directory, models, readme, top), *workflow_texts(directory, top))
    )
    built = built_repositories(doc)
    held = functools.cache(lambda: placeholder_lines(doc))
    for line, image, read, after in docker_runs(doc):
        if (
            any(name == "--entrypoint" for name, _ in read.values)
            or not after
            or not after[0].startswith("-")
        ):
            continue
        if after[0] in ("-", "--") or misplaced(after) is not None:
            continue
        model = own_model(image, built, models) if built else None
        if model is None and image_repository(image) not in built:
            if len(models) == 1 and titled_image(doc, image, models[0]):
                model = models[0]
            else:
                published = published_model(image, models, texts())
                model = published[0] if published is not None else None
        if model is None or _own_setting(model, "ENTRYPOINT") is not None:
            continue
        if _own_setting(model, "CMD") is not None:
            continue  # (its CMD's program is what the words replace: `run_args`)
        copied_script = _held_script(model)
        if copied_script is None:
            continue
        where, file, copied = copied_script
        options = script_options(file)
        if options is None or not any(
            w.split("=", 1)[0] in options.short | (options.long or frozenset()) and w not in ("-h", "--help")
            for w in after
        ):
            continue  # no word of the run is the script's: it may be meant for another program
        said = run_refusal(where, file.name, after, options, line not in held())
        if said is None:
            continue
        base = model.chain()[-1].base if model.chain() else "its base"
        said = said.replace(f"README runs {where} with", f"README runs {image} with", 1)
        yield Diagnostic(
            readme,
            line,
            f"{said}; the words after the image are meant for {where}, the one script the image copies "
            f"({model.path}:{copied}), and {model.path} sets no ENTRYPOINT or CMD, so unless {base} sets an "
            f"ENTRYPOINT docker runs {after[0]} itself as the container's program",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# A script of the project run in a container by a relative path the image's files do not tell

_COMPOSE_VERB = re.compile(r"(?<![\w./-])(?:docker[ \t]+compose|docker-compose|podman-compose)(?=[ \t])")


def _compose_command(text: str) -> list[str] | None:
    """The container's command of a `docker compose run SERVICE …` or `exec SERVICE …` in `text`; None
    when there is none or its words cannot be read."""
    found = _words_after(_COMPOSE_VERB, text)
    if found is None:
        return None
    call = read_compose(found[1])
    if call.verb not in ("run", "exec") or call.options is None or not call.services:
        return None
    if not call.options.complete:
        return None
    return list(call.rest[call.options.after :])


_HERE_MOUNT = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?(?:\$\(pwd\)|\$\{?PWD\}?|\.)/?:([^:\s\"']+)"
)
"""A mount of the current folder: `-v $(pwd):/app`, `-v "${PWD}":/workspace:rw`, `-v .:/src`."""


def _checkout_mounted(text: str, folder: str | None) -> bool:
    """Whether the `docker run` of `text` mounts the current folder onto `folder`, where its command runs."""
    return folder is not None and any(
        posixpath.normpath(m.group(1)) == posixpath.normpath(folder) for m in _HERE_MOUNT.finditer(text)
    )


def project_script_args(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    models: Sequence[ImageModel],
) -> Iterator[Diagnostic]:
    """A script of the project a README runs in a container by a relative path (`docker compose run
    trainer python3 eval.py --episodes 2`, `docker exec app python ingest.py --src …`) with words its
    parser refuses (`argparse`: an undeclared option, a refused choice, too many positional words, a
    required one left out; `getopt`/`getopts`), when the image's files do not tell which file runs (no
    Dockerfile audited, a compose service, a path no COPY of the image puts there: a mounted checkout)
    and the README's folder, or one above it, holds the one file at that path: `likely`, the container
    may hold another copy. Left to `container_script_args`: a run whose image puts a file there."""
    top = project_top(directory, project)
    bases = run_folders(directory, audited, top)
    mounts = functools.cache(lambda: mounted_folders(doc))
    held = functools.cache(lambda: placeholder_lines(doc))
    for line, text in _lines(doc):
        command: list[str] | None
        given: str | None = None
        ran = _command(text)
        if ran is not None:
            command, given = ran
        else:
            command = _compose_command(text)
        found = _script(command) if command else None
        if found is None or found[0].startswith(("/", "../", "~")) or "$" in found[0]:
            continue
        path, words = found
        started = _STARTS.search(text)
        run = ran is not None and started is not None and not started.group(0).rstrip().endswith("exec")
        if ran is not None and models and _image_files(models, path, given, mounts) is not None:
            continue  # the image's own file (`container_script_args`), or none: not this project's copy
        if run:
            folder = given or (work_dir_at(models[0], 1 << 30) if len(models) == 1 else None)
            if not _checkout_mounted(text, folder):
                continue  # `docker run`: the project's script only where the current folder is mounted
        folders = [directory] if run else bases
        local = next((b / path for b in folders if os.path.isfile(b / path)), None)
        if local is None:
            continue
        real = Path(os.path.realpath(local))
        if not real.is_relative_to(top):
            continue
        options = script_options(real)
        if options is None:
            continue
        said = run_refusal(path, _shown(real, directory), words, options, line not in held())
        if said is not None:
            yield Diagnostic(readme, line, f"{said} (run in the container)", confidence=LIKELY)
