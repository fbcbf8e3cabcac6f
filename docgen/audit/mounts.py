"""The folder a README's `docker run -v "$PWD:/app" IMAGE python main.py` mounts the current folder
at, against the directory a container of the image starts in: a script named relative to the current
folder (`main.py`, `./run.sh`) is found only when the container starts where the folder is mounted.

The run must be of an image a `docker build -t` of the README tags, pass no `-w`/`--workdir`, and mount
the current folder (`$PWD`, `${PWD}`, `$(pwd)`, `.`); the image must set its WORKDIR (docgen reads the
last one, as built) elsewhere and copy no file of the build context (`COPY . .` may put the script
there too). A finding is `likely`: the script may also be in the image by another way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, _Auditor
from docgen.audit.commands import _repository, fence_commands, joined
from docgen.audit.names import docker_run, image_at
from docgen.audit.settings import _Image
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


def _mounted_scripts(part: Document, auditor: _Auditor) -> Iterator[Diagnostic]:
    """Each `docker run` of `part` of an image the README builds that mounts the current folder at a
    folder other than the image's WORKDIR and runs a script named relative to it."""
    built = auditor.shared.built
    if not built:
        return
    for fence in part.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            run = docker_run(command)
            if run is None or _WORKDIR_FLAG.search(command, run[0]) or _repository(run[1]) not in built:
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
    verdict = _Image(model).workdir(target)
    if verdict is None:
        return None
    if not model.file or model.context_copies:
        return None
    return verdict[0]
