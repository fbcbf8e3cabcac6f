"""A script a README runs inside the container by a relative path (`python test_npu.py`) right after
the run that starts the container, where that run mounts a host folder onto the image's working folder
that is not the README's folder (`./run.sh`, whose `docker run` has `-v "$(pwd)/workspace:/workspace"`
over `WORKDIR /workspace`) and the image copies no such file: the script is in the README's folder, not
in the folder mounted, and the command finds no file.

Read only when all of this holds:

- in one command block, a container run (`docker run`, or a script of the README's folder it runs,
  `./run.sh`, `bash run.sh`, that holds exactly one `docker run` and no `cd`) that is interactive
  (`-it`, `-i -t`) and not detached (`-d`), and no `cd` in the block before it;
- the run mounts a folder below the one it starts in (`$(pwd)/workspace`, `${PWD}/work`, `./work`)
  at the working folder (its `-w` written out, else the target's last WORKDIR), and nothing into it
  (`-v $(pwd)/x.py:/work/x.py` puts the file there);
- a later line of the block runs the script (`python x.py`, `bash x.sh`, `./x.sh`; no `cd`, `exit` or
  other run between), and a comment line between them, the block's heading or the prose just before
  it says the commands run in the container (`# Inside container, verify`);
- the script is a file of the README's folder, the mounted folder holds no such file (or does not
  exist: Docker makes it empty), no earlier line of the README's blocks names it (it may make it);
- the target's COPY and ADD give no file of that name, copy no folder or glob into the working folder
  (`COPY . /workspace`) and copy nothing from another stage or image, and no RUN names the script.

`likely`: the reader may put the script in the mounted folder themselves.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.commands import without_prompt
from docgen.audit.container_blocks import SAID_INSIDE, container_blocks
from docgen.audit.container_scripts import image_files_into, work_dir
from docgen.audit.wording import COMMAND_LANGS, SHELL_BLOCK_LANGS
from docgen.build_scripts import WITH_NVIDIA, container_command
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_RUN = re.compile(container_command("run|create", WITH_NVIDIA))
_SCRIPT_RUN = re.compile(r"(?:\./|(?:bash|sh)[ \t]+)([\w][\w.-]*\.sh)(?=$|[ \t])")
"""A run of a shell script of the README's folder (`./run.sh`, `bash run.sh 2`)."""
_RUNS = re.compile(
    r"(?:python[\d.]*|bash|sh)[ \t]+(?:-[a-zA-Z][ \t]+)*(?:\./)?([\w][\w.-]*\.(?:py|sh))(?=$|[ \t])"
    r"|\./([\w][\w.-]*\.(?:py|sh))(?=$|[ \t])"
)
"""A run of a script by a bare name, from the folder the shell is in."""
_VOLUME = re.compile(r"(?:^|[\s\"'=(])(?:-v|--volume)(?:[ \t]+|=)[\"']?([^\s\"']+)[\"']?")
_BIND = re.compile(r"(?:^|[\s\"'=(])--mount(?:[ \t]+|=)[\"']?([^\s\"']+)")
_PWD = re.compile(r"\A(?:\$\(pwd\)|\$\{PWD\}|\$PWD|`pwd`|\.)(?=/|\Z)")
_INTERACTIVE = re.compile(
    r"(?:^|[ \t])(?:-it|-ti|--interactive[ \t=]+--tty|--tty[ \t=]+--interactive)(?=[ \t]|$)"
)
_DETACHED = re.compile(r"(?:^|[ \t])(?:-d|--detach|-[a-zA-Z]*d[a-zA-Z]*)(?=[ \t]|$)")
_WORKDIR_FLAG = re.compile(r"(?:^|[ \t])(?:-w|--workdir)(?:[ \t]+|=)[\"']?([^\s\"']+)")
_LEAVES = re.compile(r"(?:^|[;&|][ \t]*)(?:cd|pushd|exit)\b")
_CD = re.compile(r"(?:^|[;&|\n][ \t]*)(?:cd|pushd)[ \t]")


def _host_folder(run: str, workdir: str | None, here: Path) -> tuple[Path, str] | None:
    """The host folder the run `run` mounts at its working folder (`-w`, else `workdir`) and that
    folder, read from `here` (where the run starts); None when it mounts none there, or one not
    written as a folder below `here`."""
    sources: list[tuple[str, str]] = []
    for match in _VOLUME.finditer(run):
        parts = match.group(1).split(":")
        if len(parts) >= 2:
            sources.append((parts[0], parts[1]))
    for match in _BIND.finditer(run):
        fields = dict(f.split("=", 1) for f in match.group(1).split(",") if "=" in f)
        source = fields.get("source") or fields.get("src")
        target = fields.get("target") or fields.get("dst") or fields.get("destination")
        if source and target:
            sources.append((source, target))
    given = _WORKDIR_FLAG.search(run)
    if given is not None:
        if re.search(r"[$`{]", given.group(1)) or not given.group(1).startswith("/"):
            return None
        workdir = posixpath.normpath(given.group(1))
    if workdir is None:
        return None
    targets = [posixpath.normpath(t.strip("\"'")) for _, t in sources]
    if any(t.startswith(workdir.rstrip("/") + "/") for t in targets):
        return None  # (a file or folder mounted into the working folder: `-v $(pwd)/x.py:/work/x.py`)
    found = [s for (s, _), t in zip(sources, targets, strict=True) if t == workdir]
    if len(found) != 1:
        return None
    source = found[0].strip("\"'")
    pwd = _PWD.match(source)
    if pwd is None:
        return None
    rest = source[pwd.end() :].strip("/")
    if not rest or re.search(r"[$`*?{}]|\.\.", rest):
        return None
    return here / rest, workdir


def _script_run(directory: Path, name: str) -> str | None:
    """The one container run of the script `name` of `directory`, its lines joined; None when it has
    none, more than one, or moves (`cd`)."""
    text = text_or_none(directory / name, MAX_PROJECT_FILE_BYTES)
    if text is None:
        return None
    joined = re.sub(r"\\\n", " ", text)
    code = [line for line in joined.splitlines() if not line.lstrip().startswith("#")]
    runs = [line for line in code if _RUN.search(line)]
    if len(runs) != 1 or any(_CD.search(line) for line in code):
        return None
    return runs[0]


def _copies_unknown(model: ImageModel, workdir: str, name: str) -> bool:
    """True when the image may hold `name` in `workdir`: a copied file of that name, a folder or glob
    copied into it, a copy from a stage or an image, a RUN that names it."""
    files = image_files_into(model)
    if files is None or posixpath.join(workdir, name) in files:
        return True
    read = dockerfile_read(model.file)
    if read is None:
        return True
    for inst in read[1].instructions:
        if inst.keyword == "RUN" and name in inst.args:
            return True
        if inst.keyword in ("COPY", "ADD"):
            if any(flag.name == "from" for flag in inst.flags):
                return True
            words = inst.args.split()
            dest = words[-1].strip("\"'") if words else ""
            into = not dest.startswith("/") or posixpath.normpath(dest).startswith(workdir.rstrip("/") + "/")
            into = into or posixpath.normpath(dest) == workdir
            if into and any(not re.fullmatch(r"[\w.-]+(?:/[\w.-]+)*\.\w+", w) for w in words[:-1]):
                return True
    return False


def unmounted_scripts(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """The findings of the module's text, one at each script's line."""
    if len(models) != 1:
        return
    place = work_dir(models[0])
    workdir = place[0] if place is not None and place[0] != "/" else None
    inside = container_blocks(doc, words=SAID_INSIDE, langs=COMMAND_LANGS)
    seen: list[str] = []
    for fence in doc.fences:
        if fence.lang.lower() not in SHELL_BLOCK_LANGS or not fence.lines:
            continue
        host: tuple[Path, str] | None = None
        said = fence.lines[0][0] in inside
        moved = False
        for line, text in fence.lines:
            stripped = text.strip()
            if stripped.startswith("#"):
                said = said or (host is not None and SAID_INSIDE.search(stripped) is not None)
                continue
            code = without_prompt(stripped).split(" #", 1)[0]
            run = _container_run(code, directory)
            if run is not None:
                host = None if moved else _mounted(run, workdir, directory)
                continue
            if _LEAVES.search(code):
                moved, host = True, None
                continue
            script = _RUNS.match(code)
            if host is not None and said and script is not None:
                name = script.group(1) or script.group(2)
                folder, inner = host
                shown = folder.relative_to(directory.resolve()).as_posix()
                if (
                    os.path.isfile(directory / name)
                    and not os.path.exists(folder / name)
                    and not any(name in t for t in seen)
                    and not _copies_unknown(models[0], inner, name)
                ):
                    yield Diagnostic(
                        readme,
                        line,
                        f"README runs {name} in the container's working folder {inner}, where the run "
                        f"mounts {shown}/, which does not hold it, and the image copies no {name} (it is "
                        f"in the README's folder)",
                        confidence=LIKELY,
                    )
                host = None
            seen.append(code)
        seen.extend(t for _, t in fence.lines)


def mounted_work_folders(
    doc: Document, models: Sequence[ImageModel], directory: Path
) -> list[tuple[int, Path]]:
    """(README line, host folder) of each folder below the README's that an interactive, not detached
    container run of its shell blocks (`docker run -it -v $PWD/app:/home/app img bash`, continued lines
    joined, or a script of the README's folder holding one) mounts at the container's working folder
    (its `-w`, else the last WORKDIR of an audited image): a command typed in that container's shell
    after it reads that folder of the checkout."""
    places = {place[0] for model in models if (place := work_dir(model)) is not None and place[0] != "/"}
    workdirs: list[str | None] = [*sorted(places)] or [None]  # (None: only a run's own `-w` is known)
    found: list[tuple[int, Path]] = []
    for fence in doc.fences:
        if fence.lang.lower() not in SHELL_BLOCK_LANGS:
            continue
        start, parts = 0, list[str]()
        for line, text in fence.lines:
            if not parts:
                start = line
            parts.append(text.rstrip().removesuffix("\\"))
            if text.rstrip().endswith("\\"):
                continue
            code = without_prompt(" ".join(parts).strip()).split(" #", 1)[0]
            parts = []
            run = _container_run(code, directory)
            if not run:
                continue
            for workdir in workdirs:
                host = _mounted(run, workdir, directory)
                if host is not None:
                    found.append((start, host[0]))
    return found


def _container_run(code: str, directory: Path) -> str | None:
    """The container run a command line makes: its own `docker run`, or the one of the script it runs."""
    if _RUN.search(code):
        return code
    script = _SCRIPT_RUN.match(code)
    if script is not None:
        return _script_run(directory, script.group(1)) or ""
    return None


def _mounted(run: str, workdir: str | None, directory: Path) -> tuple[Path, str] | None:
    """The host folder an interactive, not detached run mounts at `workdir`."""
    words = run.split()
    if not _INTERACTIVE.search(run) or any(_DETACHED.fullmatch(" " + w) for w in words if w.startswith("-")):
        return None
    return _host_folder(run, workdir, directory.resolve())
