"""The folder a README's `docker run -v "$PWD:/app" IMAGE python main.py` mounts the current folder
at, against the directory a container of the image starts in: a script named relative to the current
folder (`main.py`, `./run.sh`) is found only when the container starts where the folder is mounted.
And a folder of the author's own machine (`-v ~/jsmith/ocr-api:/app`) mounted over the folder the image
copies the project into and starts in (`mounted_code`).

The run must be of an image a `docker build -t` of the README tags, pass no `-w`/`--workdir`, and mount
the current folder (`$PWD`, `${PWD}`, `$(pwd)`, `.`); the image must set its WORKDIR (docgen reads the
last one, as built) elsewhere and copy no file of the build context (`COPY . .` may put the script
there too). A finding is `likely`: the script may also be in the image by another way.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read, remotes
from docgen.audit.commands import fence_commands, image_repository, joined
from docgen.audit.image_paths import SYSTEM, clean_path, mounted_folders, read_image
from docgen.audit.missing import PLACEHOLDER
from docgen.audit.names import docker_run, image_at
from docgen.audit.paths import HOME_OF_USER, named_home
from docgen.audit.settings import Image
from docgen.build_scripts import built_tags
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_MOUNT = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?"
    r"(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|\.)[\"']?:[\"']?(/[\w./-]*)[\"']?(?::[\w,]+)?[\"']?(?=\s|$)"
)
"""`-v "$PWD:/app"`, `--volume=$(pwd):/work:rw`: the current folder mounted at group 1."""
_WORKDIR_FLAG = re.compile(r"(?:^|[ \t])(?:-w|--workdir)(?:[ \t]+|=)")
_LAUNCHERS = frozenset({"python", "python3", "bash", "sh", "node", "perl", "ruby", "Rscript", "julia"})
_SCRIPT = re.compile(r"(?:\./)?[\w-]+(?:/[\w.-]+)*\.(?:py|sh|js|pl|rb|R|jl|ipynb)\Z")


def built_runs(
    part: Document, auditor: Auditor
) -> Iterator[tuple[list[tuple[int, str]], str, int, str, int]]:
    """(lines, the command on one line, where `docker run` starts in it, the image as written, where the
    image is, -1 when it cannot be placed) of each `docker run` of `part` of an image the README builds."""
    built = auditor.shared.built
    if not built:
        return
    for fence in part.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            run = docker_run(command)
            if run is not None and image_repository(run[1]) in built:
                start, image = run
                yield lines, command, start, image, image_at(command, start, image)


def mounted_scripts(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each `docker run` of `part` of an image the README builds that mounts the current folder at a
    folder other than the image's WORKDIR and runs a script named relative to it."""
    for lines, command, start, image, at in built_runs(part, auditor):
        if _WORKDIR_FLAG.search(command, start):
            continue
        mount = _MOUNT.search(command, start, at)
        script = _script(command[at + len(image) :].split())
        if mount is None or script is None:
            continue
        target = mount.group(1).rstrip("/") or "/"
        said = [_starts_elsewhere(model, target) for model in auditor.models]
        if not said or any(s is None for s in said):
            continue
        line = next((n for n, text in lines if script in text), lines[0][0])
        yield Diagnostic(
            auditor.path,
            line,
            f"README runs {script} from the current folder mounted at {target}, but {said[0]}: "
            f"the container starts there, where {script} is not",
            confidence=LIKELY,
        )


def _script(words: list[str]) -> str | None:
    """The script a container command names relative to where it starts (`python3 main.py`,
    `./run.sh`), None when it names none or an absolute one."""
    if not words:
        return None
    first = words[0].strip("\"'")
    if _SCRIPT.fullmatch(first) and first.startswith("./"):
        return first
    if first.rsplit("/", 1)[-1] not in _LAUNCHERS:
        return None
    for word in words[1:]:
        if word.startswith("-"):
            return None  # `python -m pkg`, `bash -c "…"`: no file, or one docgen does not follow
        word = word.strip("\"'")
        return word if _SCRIPT.fullmatch(word) and not word.startswith("/") else None
    return None


def _starts_elsewhere(model: ImageModel, target: str) -> str | None:
    """Where a container of `model` starts (`Dockerfile:5 says WORKDIR /workspace`), None when it may
    start at `target` or hold the script: no WORKDIR set (on a base that may set one), one set from a
    variable, or a COPY/ADD of the build context (the script may be copied in)."""
    verdict = Image(model).workdir(target)
    if verdict is None:
        return None
    if not model.file or model.context_copies:
        return None
    return verdict[0]


_ANY_MOUNT = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?([A-Za-z]:[\\/][^\s\"':]*|[^\s\"':]+):(/[^\s\"':]*)"
)
"""`-v HOST:/target` (a Windows drive's `C:\\Users\\x:/app` too): the host side, the container's."""
_TILDE = re.compile(r"~/([\w.-]+)/")
_TOLD_TO_CHANGE = re.compile(
    r"\b(?:replace|change|adjust|modify|edit|substitute|your|yours|path[ \t]+to|where[ \t]+you)\b",
    re.IGNORECASE,
)


def _personal(host: str, owners: set[str]) -> bool:
    """True when `host` is a folder of one person's machine: in the home of a named user, or in a
    `~/NAME/` folder named after the image's or the repository's owner (`~/akira/` for `akira90/ocr`)."""
    if any(c in host for c in "<>{}$%`"):
        return False
    if HOME_OF_USER.match(host) is not None:
        return named_home(host) is not None
    tilde = _TILDE.match(host)
    if tilde is None or len(name := tilde.group(1).lower()) < 4:
        return False
    return any(owner.startswith(name) for owner in owners)


def _code_folder(model: ImageModel) -> tuple[str, int] | None:
    """(folder, line) of the folder the last stage of `model` copies the whole build context into
    (`COPY . /app`) when its last WORKDIR is that folder (the program starts there); None otherwise."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    workdir, copied = "/", None
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            workdir, copied = "/", None
        elif inst.keyword == "WORKDIR":
            value = inst.args.strip().strip("\"'")
            if "$" in value:
                return None
            workdir = posixpath.normpath(posixpath.join(workdir, value))
        elif inst.keyword in ("COPY", "ADD"):
            words = [w for w in inst.args.split() if not w.startswith("--")]
            if "--from" in inst.args or len(words) != 2 or words[0].strip("\"'") not in (".", "./"):
                continue
            target = words[1].strip("\"'")
            if "$" in target:
                return None
            copied = (posixpath.normpath(posixpath.join(workdir, target)), inst.start_line)
    return copied if copied is not None and copied[0] == workdir and workdir != "/" else None


def mounted_code(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A `docker run` of an image the README builds mounting a folder of one person's machine over the
    folder the image copies the project into and starts in: on any other machine docker makes that
    folder empty, and it hides the image's code (`likely`)."""
    lines = text.splitlines()
    owners: set[str] | None = None
    built = auditor.shared.built
    for command_lines, command, start, _image, at in built_runs(part, auditor):
        for mount in _ANY_MOUNT.finditer(command, start, at if at >= 0 else len(command)):
            host, target = mount.group(1), posixpath.normpath(mount.group(2))
            if owners is None:
                owners = {o.split("/")[0] for m in auditor.models if m.file for o in remotes(m.file)}
                owners |= {b.split("/")[0].lower() for b in built if "/" in b}
            if not _personal(host, owners):
                continue
            codes = [_code_folder(m) for m in auditor.models]
            if not codes or any(c is None or c[0] != target for c in codes):
                continue
            first, last = command_lines[0][0], command_lines[-1][0]
            near = lines[max(0, first - 4) : last + 3]
            if any(_TOLD_TO_CHANGE.search(t) for t in near):
                continue
            folder, line = codes[0] if codes[0] is not None else ("", 0)
            yield Diagnostic(
                auditor.path,
                first,
                f"README mounts {host}, a folder of one person's machine, over {folder}, where "
                f"{auditor.models[0].path}:{line} copies the project and the container starts: "
                "elsewhere docker makes it empty and it hides the image's code",
                confidence=LIKELY,
            )


_ENTRYPOINT_FLAG = re.compile(r"(?:^|[ \t])--entrypoint\b")
_NO_WORKDIR_BASES = ("nvidia/cuda",)
"""Bases that are not plain OS images but set no WORKDIR: a container of an image built on them with no
WORKDIR starts in / (their ENTRYPOINT, if any, runs the CMD it is given)."""


def _baked_script(model: ImageModel, target: str) -> tuple[str, str, int, int] | None:
    """(where the container starts, script, CMD line, COPY line) when the image's CMD runs a script
    named relative to where it starts (`CMD ["python3", "finetune.py"]`) that a COPY of the build context
    puts there (`COPY finetune.py .`), the image starts outside `target` and sets no ENTRYPOINT, and its
    Dockerfile names `target` nowhere; else None."""
    image = Image(model)
    base = image.root.base.split("@", 1)[0].split(":", 1)[0].lower() if image.root is not None else ""
    if image.last("ENTRYPOINT") is not None or not any(s.keyword == "WORKDIR" for s in image.settings):
        if image.last("ENTRYPOINT") is not None or not (image.plain or base.endswith(_NO_WORKDIR_BASES)):
            return None  # a base image may start its containers in `target`
    elif image.workdir(target) is None:
        return None
    cmd = image.last("CMD")
    if cmd is None:
        return None
    script = _script(list(cmd.exec_form) if cmd.exec_form is not None else cmd.value.split())
    read = dockerfile_read(model.file) if model.file else None
    if script is None or read is None or target in read[0]:
        return None
    workdir = "/"
    for setting in image.settings:
        if setting.keyword == "WORKDIR":
            workdir = posixpath.normpath(posixpath.join(workdir, setting.value.strip().strip("\"'")))
    if workdir.startswith(target + "/") or (workdir != "/" and target.startswith(workdir + "/")):
        return None  # the mount holds where it starts, or a folder below it the script may use
    name = posixpath.basename(script)
    copied = None
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            copied = None
        elif inst.keyword in ("COPY", "ADD") and "--from" not in inst.args:
            words = [w.strip("\"'") for w in inst.args.split() if not w.startswith("--")]
            if len(words) >= 2 and any(posixpath.basename(w) == name or w in (".", "./") for w in words[:-1]):
                copied = inst.start_line
    if copied is None:
        return None
    return workdir, script, cmd.line, copied


def idle_mounts(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A `docker run` of an image the README builds, with no command, no `-w` and no `--entrypoint`,
    that mounts the current folder at a folder (`-v $(pwd):/workspace`) the image never uses: its CMD
    runs the copy of a script of the project the Dockerfile puts where the container starts
    (`COPY finetune.py .` then `CMD ["python3", "finetune.py"]`, no WORKDIR: from /), so the mounted
    files (the reader's edits of that script) are not what runs. Silent when the Dockerfile or another
    line of the README names the folder (a script may write its output there) (`likely`)."""
    for lines, command, start, image, at in built_runs(part, auditor):
        if _WORKDIR_FLAG.search(command, start) or _ENTRYPOINT_FLAG.search(command, start):
            continue
        mount = _MOUNT.search(command, start, at)
        if at < 0 or mount is None or command[at + len(image) :].split():
            continue
        target = posixpath.normpath(mount.group(1))
        if target == "/" or text.count(target) > sum(t.count(target) for _, t in lines):
            continue  # the README uses the folder elsewhere
        baked = [_baked_script(model, target) for model in auditor.models]
        if not baked or any(b is None for b in baked):
            continue
        workdir, script, cmd_line, copy_line = baked[0] if baked[0] is not None else ("", "", 0, 0)
        shown = auditor.models[0].path
        yield Diagnostic(
            auditor.path,
            next((n for n, t in lines if mount.group(0).strip() in t), lines[0][0]),
            f"README mounts the current folder at {target}, but nothing in the image uses it: the "
            f"container starts in {workdir} and its CMD ({shown}:{cmd_line}) runs the copy of {script} "
            f"that {shown}:{copy_line} puts there, not the mounted one",
            confidence=LIKELY,
        )


_SHELL_RUN = re.compile(r"(?:^|[ \t])(?:-it|-ti|-i[ \t]+-t|-t[ \t]+-i)(?=[ \t]|$)")
"""An interactive run: the README's next commands are typed in the container's shell."""
SHELL_PROGRAM = re.compile(r"\A(?:/(?:usr/)?bin/)?(?:ba|z)?sh\Z")
"""A shell a container is started with (`bash`, `/bin/sh`, `zsh`): the next commands are typed in it."""
_ENTRYPOINT_VALUE = re.compile(r"(?:^|[ \t])--entrypoint(?:[ \t]+|=)[\"']?([^\s\"']+)")
_ENDS_SHELL = re.compile(r"\b(?:exit|docker|podman|kubectl|ssh)\b")
"""A command after which the next ones are not typed in the container's shell any more."""


def _shell_of(
    command: str, models: Sequence[ImageModel], built: Collection[str]
) -> tuple[str, str, list[tuple[str, str]]] | None:
    """(where it starts, the Dockerfile's word for it, [(mount target below it, `-v` text)]) of an
    interactive `docker run` of an image the README builds that opens a shell (`--entrypoint /bin/bash`,
    a trailing `bash`, or an image whose ENTRYPOINT or CMD is a shell) and mounts folders below where it
    starts (`-v $PWD/data:/app/data` under `WORKDIR /app`); None otherwise."""
    run = docker_run(command)
    if run is None or image_repository(run[1]) not in built:
        return None
    start, image = run
    at = image_at(command, start, image)
    if at < 0 or not _SHELL_RUN.search(command, start, at) or _WORKDIR_FLAG.search(command, start, at):
        return None
    rest = command[at + len(image) :].split()
    entry = _ENTRYPOINT_VALUE.search(command, start, at)
    starts: set[str] = set()
    for model in models:
        image_settings = Image(model)
        if entry is not None:
            shell = bool(SHELL_PROGRAM.match(entry.group(1))) and not rest
        elif rest:
            shell = bool(SHELL_PROGRAM.match(rest[0])) and len(rest) == 1
        else:
            runs = image_settings.last("ENTRYPOINT") or image_settings.last("CMD")
            words = (runs.exec_form or tuple(runs.value.split())) if runs is not None else ()
            shell = len(words) == 1 and bool(SHELL_PROGRAM.match(words[0]))
        workdir = image_settings.last("WORKDIR")
        value = workdir.value.strip().strip("\"'") if workdir is not None else ""
        if not shell or not value.startswith("/") or "$" in value:
            return None
        starts.add(f"{posixpath.normpath(value)}|{model.path}:{workdir.line if workdir else 0}")
    if len(starts) != 1:
        return None
    where, said = starts.pop().split("|", 1)
    mounts = [
        (target, m.group(0).strip())
        for m in _ANY_MOUNT.finditer(command, start, at)
        if (target := posixpath.normpath(m.group(2))).startswith(where.rstrip("/") + "/")
    ]
    return (where, said, mounts) if mounts and where != "/" else None


def doubled_paths(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path, built: Collection[str]
) -> Iterator[Diagnostic]:
    """A relative path typed in the shell of an interactive container (`--outdir app/data/outputs`)
    that spells a folder the run mounts below where the container starts (`-v $PWD/data:/app/data`
    under `WORKDIR /app`) from the top, without its leading slash: the shell reads it from /app, so it
    names /app/app/data/outputs, outside the mount, and what is written there is lost with the
    container (`likely`). The commands read are those after the run up to the next container command
    or `exit`; a folder of the README's folder named as the path's first part (the path may be the
    host's) keeps it silent."""
    if not built or not models:
        return
    shell: tuple[int, str, str, list[tuple[str, str]]] | None = None
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            opened = _shell_of(command, models, built)
            if opened is not None:
                shell = (lines[0][0], *opened)
                continue
            if shell is None:
                continue
            if _ENDS_SHELL.search(command):
                shell = None
                continue
            first, where, said, mounts = shell
            for word in command.split():
                path = word.rsplit("=", 1)[-1].strip("\"'")
                for target, mount in mounts:
                    relative = target.lstrip("/")
                    if path != relative and not path.startswith(relative + "/"):
                        continue
                    if os.path.isdir(directory / relative.split("/", 1)[0]):
                        break  # a folder of the README's folder: the path may be the host's
                    line = next((n for n, t in lines if path in t), lines[0][0])
                    yield Diagnostic(
                        readme,
                        line,
                        f"README gives {path} in the container the command at line {first} opens, which "
                        f"starts in {where} ({said} says WORKDIR): it names {posixpath.join(where, path)}, "
                        f"outside {target} that `{mount}` mounts, so what is written there is lost with the "
                        "container and nothing there comes from the host",
                        confidence=LIKELY,
                    )
                    break


_QUOTED_MOUNT = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?([^\s\"':]+)[\"']?:[\"']?(/[^\s\"':]*)"
)
"""`-v HOST:/target`, each side quoted or not (`-v "$(pwd)/ckpt":/app/ckpt`)."""


def _container_words(
    doc: Document, built: Collection[str]
) -> Iterator[tuple[int, str, int, str, list[tuple[str, str, int]]]]:
    """(README line, word, line of the run, `runs` or `opens`, the run's mounts as (host, target, line))
    of each word a README gives a container of an image it builds: the words of a `docker run`'s own
    command after the image, and those of the commands typed in the shell an interactive run opens (the
    blocks after it too, up to `exit` or another container command)."""
    shell: tuple[int, list[tuple[str, str, int]]] | None = None
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            run = docker_run(command)
            if run is not None:
                shell = None
                start, image = run
                at = image_at(command, start, image)
                if image_repository(image) not in built or at < 0:
                    continue
                mounts = [
                    (m.group(1), posixpath.normpath(m.group(2)), _line_of(lines, m.group(0).strip()))
                    for m in _QUOTED_MOUNT.finditer(command, start, at)
                ]
                rest = command[at + len(image) :].split()
                if _SHELL_RUN.search(command, start, at) and (not rest or SHELL_PROGRAM.match(rest[0])):
                    shell = (lines[0][0], mounts)
                for word in rest:
                    yield _line_of(lines, word), word, lines[0][0], "runs", mounts
                continue
            if shell is None:
                continue
            if _ENDS_SHELL.search(command):
                shell = None
                continue
            for word in command.split():
                yield _line_of(lines, word), word, shell[0], "opens", shell[1]


def _line_of(lines: Sequence[tuple[int, str]], text: str) -> int:
    """The README line of `lines` (a command's) holding `text`, else its first."""
    return next((n for n, t in lines if text in t), lines[0][0])


def _image_names(models: Sequence[ImageModel], top: str) -> bool:
    """True when a Dockerfile of `models` makes a path at or below the folder `top` or names it (or
    cannot be read)."""
    named = re.compile(r"(?<![\w.$}/-])" + re.escape(top) + r"(?![\w.-])")
    for model in models:
        read = dockerfile_read(model.file)
        image = read_image(model)
        if read is None or image is None or image.piped:
            return True
        if any(p == top or p.startswith(top + "/") for p in image.made):
            return True
        if any(named.search(inst.args) for inst in read[1].instructions):
            return True
    return False


_BUILD_SCRIPT = re.compile(r"(?<![\w./-])(?:\./)?([\w.-]+\.sh)\b")
"""A script of the README's folder a README names (`./build-docker.sh`)."""


def _script_tags(doc: Document, directory: Path) -> set[str]:
    """The repositories the scripts of the README's folder that its commands or prose name tag with
    their `docker build -t` (`build-docker.sh`: `docker build -t pose_estimator .`)."""
    lines = [t for fence in doc.fences for _, t in fence.lines]
    lines += [t for para in doc.paragraphs for _, t in para.lines]
    names = {m.group(1) for text in lines for m in _BUILD_SCRIPT.finditer(text)}
    tags: set[str] = set()
    for name in sorted(names):
        place = directory / name
        if os.path.isfile(place):
            tags.update(
                image_repository(t) for t in built_tags(text_or_none(place, MAX_PROJECT_FILE_BYTES) or "")
            )
    return tags


class _Folders:
    """Container folders (mount targets) indexed for what `top_mount_paths` asks of each path: thousands
    of paths each compared with thousands of mounts were their product."""

    def __init__(self, folders: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.stems: set[str] = set()  # (each without its trailing `/`)
        self.heads: set[str] = set()  # (the folder at the top of each: `/data` of `/data/in`)
        for folder in folders:
            self.exact.add(folder)
            self.stems.add(folder.rstrip("/"))
            if folder.startswith("/"):
                self.heads.add("/" + folder[1:].split("/", 1)[0])

    def above(self, path: str) -> bool:
        """True when a folder is above `path` (`path.startswith(folder.rstrip("/") + "/")`)."""
        return any(path[:i] in self.stems for i, c in enumerate(path) if c == "/")


def top_mount_paths(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path, built: Collection[str]
) -> Iterator[Diagnostic]:
    """An absolute path a README gives a container of its image (the run's own command, or a command
    typed in the shell it opens) at a folder at the top (`/weights/coco/w32.pth`) that nothing puts
    there, while the run mounts a host folder of that very name below another folder (`-v
    $(pwd)/weights:/srv/posekit/weights`): the path misses the mount, so the file is not found (or what
    is written there is lost with the container). Silent when a mount of the run or of another README
    command is at that folder or above the path, when a Dockerfile makes, fills or names the folder, for
    a folder every image has (`/tmp`, `/usr`), a host folder of another name, and a folder named by more
    than one mount, and when the folder mounted at is itself a placeholder (`-v
    /path/to/work/speech:/path/to/work/speech`: a later `/speech/data` is the author's short for the
    place the reader picks, `missing.PLACEHOLDER`). The image is one a README command builds or a
    script of its folder it names (`./build-docker.sh`). `likely`: the program may be told the path
    some other way."""
    if not models:
        return
    built = set(built) | _script_tags(doc, directory)
    if not built:
        return
    mounted = _Folders(mounted_folders(doc))
    told: set[str] = set()
    # (the index of the mounts of the last run read: the words typed in one shell share its mounts)
    last: tuple[list[tuple[str, str, int]], _Folders, dict[str, list[tuple[str, str, int]]]] | None = None
    for line, word, run_line, verb, mounts in _container_words(doc, built):
        path = clean_path(word.rsplit("=", 1)[-1].strip("\"'"))
        if path is None or path in told:
            continue
        parts = path.strip("/").split("/")
        top = "/" + parts[0]
        if len(parts) < 2 or top in SYSTEM:
            continue
        if last is None or last[0] is not mounts:
            named: dict[str, list[tuple[str, str, int]]] = {}
            for mount in mounts:
                named.setdefault(posixpath.basename(mount[1]), []).append(mount)
            last = mounts, _Folders(t for _, t, _ in mounts), named
        targets = last[1]
        if path in targets.exact or targets.above(path) or top in targets.heads:
            continue
        if top in mounted.exact or mounted.above(path):
            continue
        away = [
            (host, target, at)
            for host, target, at in last[2].get(parts[0], [])
            if target != top and posixpath.basename(host.strip("\"'").rstrip("/")) == parts[0]
        ]
        if len(away) != 1 or _image_names(models, top):
            continue
        host, target, at = away[0]
        if PLACEHOLDER.search(target.strip("\"'")):
            continue  # (`-v /path/to/work/app:/path/to/work/app`: `/app/x` is the author's short for it)
        told.add(path)
        yield Diagnostic(
            readme,
            line,
            f"README gives {path} in the container the command at line {run_line} {verb}, but nothing is "
            f"at {top} there: the run mounts {host.strip(chr(34) + chr(39))} at {target} (line {at}) and "
            f"the image makes no {top}, so the path misses the mount: nothing of the host's folder is "
            f"there, and what is written there is lost with the container (it is "
            f"{posixpath.join(target, *parts[1:])})",
            confidence=LIKELY,
        )
