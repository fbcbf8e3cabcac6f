"""Scripts a README runs by a relative path (`./deploy.sh`) in a command block it says runs inside the
container, where the image's working folder (its last WORKDIR) holds no such file while the image copies
a file of that name to one other folder (`COPY docker/server /opt/server` puts `deploy.sh` in
`/opt/server`): the command is not found where it runs, and the README means the path the image gives it.

Read only where the README says so: the block's heading, or the prose just before it, says its commands
run in the container (`Inside the docker container, run:`). Silent when the block moves first (`cd`,
`pushd`) or starts a container itself (`docker run`, `docker exec`: its lines are the host's, or a `-w`
sets the folder), when the README mounts a folder onto, above or into the working folder (`-v`) or
copies a file in (`docker cp`), when the image copies a file of that name into its working folder,
when a RUN names the script (it may copy or link it anywhere), when two folders hold one, or when the
working folder is not known (set from a variable). `likely`: the base image may hold a file of that name.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.image_paths import mounted_folders
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import container_command
from docgen.copied import FILE_LIMIT, copied_files
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_INSIDE = re.compile(
    r"\b(?:in|inside|within)[ \t]+(?:the|your|a)[ \t]+(?:running[ \t]+)?(?:docker[ \t]+)?container\b",
    re.IGNORECASE,
)
"""Words saying a block's commands run in the container (`Inside the docker container, ...`)."""
_SCRIPT = re.compile(
    r"[ \t]*(?:\$[ \t]+)?(?:(?:sudo|bash|sh|time|nohup)[ \t]+)?\./([\w.-]+(?:/[\w.-]+)*\.(?:sh|py|bash))"
    r"(?=$|[ \t;&|])"
)
"""A line starting with a script run by a path from the folder it runs in (`./deploy.sh /models 8`,
`bash ./tools/run.sh`)."""
_LEAVES = re.compile(
    r"(?:^|[;&|(][ \t]*|\$[ \t]+)(?:cd|pushd)\b"
    r"|" + container_command("run|exec|create", compose=True) + r"|\b(?:singularity|apptainer|kubectl)\b"
)
"""A line after which the block's commands may run in another folder or on the host."""
_COPIED_IN = re.compile(r"\b(?:docker|podman|kubectl)[ \t]+(?:container[ \t]+)?cp\b")
"""A command copying a file into a container (`docker cp deploy.sh app:/opt/`)."""


def inside_blocks(doc: Document) -> list[int]:
    """The README line of the first line of each command block whose heading, or the last lines of the
    prose just before it, say its commands run in the container."""
    titles = dict(doc.headings)
    ends = sorted(
        (para.lines[-1][0], " ".join(t for _, t in para.lines[-2:])) for para in doc.paragraphs if para.lines
    )
    found: list[int] = []
    at, intro, after = 0, "", 0
    for fence in sorted((f for f in doc.fences if f.lines), key=lambda f: f.lines[0][0]):
        first = fence.lines[0][0]
        while at < len(ends) and ends[at][0] < first:
            intro, after = ends[at][1], ends[at][0]
            at += 1
        if fence.lang not in COMMAND_LANGS:
            continue
        if _INSIDE.search(titles.get(fence.section, "")) or (after > fence.section and _INSIDE.search(intro)):
            found.append(first)
    return found


def _runs(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, path from the working folder) of each script a block said to run in the container
    runs before anything in it moves or leaves."""
    inside = set(inside_blocks(doc))
    for fence in doc.fences:
        if not fence.lines or fence.lines[0][0] not in inside:
            continue
        for line, text in fence.lines:
            if _LEAVES.search(text):
                break
            if (match := _SCRIPT.match(text)) is not None:
                yield line, posixpath.normpath(match.group(1))


def work_dir(model: ImageModel) -> tuple[str, int] | None:
    """(folder, line) of the working folder a container of the image starts in: its target's last
    WORKDIR read from those before it; None when none is set or one is a variable."""
    labels = {stage.label for stage in model.chain()}
    where, line = "/", 0
    for setting in model.settings:
        if setting.keyword != "WORKDIR" or setting.stage not in labels:
            continue
        value = setting.value.strip().strip("\"'")
        if "$" in value or not value:
            return None
        where, line = posixpath.normpath(posixpath.join(where, value)), setting.line
    return (where, line) if line else None


def _image_files(model: ImageModel) -> dict[str, int] | None:
    """Each path in the image the COPY and ADD of the build context into the target's stages give a
    file → the line; None when they are more than the audit reads or a copy's destination is relative
    and no WORKDIR is known before it."""
    indexes = {stage.index for stage in model.chain()}
    copies = [c for c in model.context_copies if c.stage in indexes]
    root = Path(model.file).parent.resolve()
    found: dict[str, int] = {}
    for count, copied in enumerate(itertools.islice(copied_files(root, copies, model.file), FILE_LIMIT + 1)):
        if count >= FILE_LIMIT:
            return None
        if copied.path is None:
            continue
        dest = copied.dest.strip("\"'")
        if not dest.startswith("/"):
            return None
        found.setdefault(posixpath.normpath(dest), copied.line)
    return found


def image_files_into(model: ImageModel) -> set[str] | None:
    """`_image_files`, with each file also under its own name below its destination: a destination
    with no `/` at its end (`ADD run.py /opt/app`) is a folder when the image has one there."""
    indexes = {stage.index for stage in model.chain()}
    copies = [c for c in model.context_copies if c.stage in indexes]
    root = Path(model.file).parent.resolve()
    found: set[str] = set()
    for count, copied in enumerate(itertools.islice(copied_files(root, copies, model.file), FILE_LIMIT + 1)):
        if count >= FILE_LIMIT:
            return None
        dest = copied.dest.strip("\"'")
        if not dest.startswith("/"):
            return None  # (`COPY . .`: from a WORKDIR not read here)
        if copied.path is None:
            continue
        found.add(posixpath.normpath(dest))
        found.add(posixpath.join(posixpath.normpath(dest), copied.path.name))
    return found


def _named_by_run(model: ImageModel, name: str) -> bool:
    """True when a RUN of the Dockerfile names the file `name` (it may copy, link or make it)."""
    read = dockerfile_read(model.file)
    if read is None:
        return True
    return any(inst.keyword == "RUN" and name in inst.body for inst in read[1].instructions)


def misplaced_container_scripts(
    doc: Document, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """A script run by a relative path inside the container (see the module's docstring) that no
    audited image has in its working folder while each copies a file of that name to the same one
    other path (`likely`). One finding a script, at its first line."""
    runs: dict[str, list[int]] = {}
    for line, path in _runs(doc):
        runs.setdefault(path, []).append(line)
    if not runs or not models or any(not m.file for m in models):
        return
    if any(_COPIED_IN.search(t) for fence in doc.fences for _, t in fence.lines):
        return
    mounts = mounted_folders(doc)
    images = []
    for model in models:
        where = work_dir(model)
        files = _image_files(model)
        if where is None or files is None:
            return
        if any(m == where[0] or where[0].startswith(m + "/") or m.startswith(where[0] + "/") for m in mounts):
            return  # a folder of the host is the working folder, or is put in it
        into = image_files_into(model)
        if into is None:
            return
        images.append((model, where, files, into))
    for path, lines in runs.items():
        name = posixpath.basename(path)
        meant: set[str] = set()
        facts = []
        for model, (folder, work_line), files, into in images:
            if posixpath.join(folder, path) in into or _named_by_run(model, name):
                meant = set()
                break
            elsewhere = {f: n for f, n in files.items() if f == "/" + path or f.endswith("/" + path)}
            if len(elsewhere) != 1:
                meant = set()
                break
            (there, copy_line), *_ = elsewhere.items()
            meant.add(there)
            facts.append(f"{model.path}:{work_line} WORKDIR {folder}; line {copy_line} copies it to {there}")
        if len(meant) != 1:
            continue
        there = next(iter(meant))
        yield Diagnostic(
            readme,
            lines[0],
            f"README runs ./{path} inside the container, whose working folder holds no {path}: "
            f"{'; '.join(dict.fromkeys(facts))} (did you mean {there}?){also_at(lines)}",
            confidence=LIKELY,
        )
