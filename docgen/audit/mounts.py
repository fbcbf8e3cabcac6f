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

import posixpath
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read, remotes
from docgen.audit.commands import fence_commands, image_repository, joined
from docgen.audit.names import docker_run, image_at
from docgen.audit.paths import HOME_OF_USER, named_home
from docgen.audit.settings import Image
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


def mounted_scripts(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each `docker run` of `part` of an image the README builds that mounts the current folder at a
    folder other than the image's WORKDIR and runs a script named relative to it."""
    built = auditor.shared.built
    if not built:
        return
    for fence in part.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            run = docker_run(command)
            if run is None or _WORKDIR_FLAG.search(command, run[0]) or image_repository(run[1]) not in built:
                continue
            start, image = run
            at = image_at(command, start, image)
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
    built = auditor.shared.built
    if not built:
        return
    lines = text.splitlines()
    owners: set[str] | None = None
    for fence in part.fences:
        for command_lines in fence_commands(fence):
            command = joined(command_lines)
            run = docker_run(command)
            if run is None or image_repository(run[1]) not in built:
                continue
            start, image = run
            at = image_at(command, start, image)
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
