"""Scripts a README runs by a relative path (`./deploy.sh`) in a command block it says runs inside the
container, where the image's working folder (its last WORKDIR) holds no such file while the image copies
a file of that name to one other folder (`COPY docker/server /opt/server` puts `deploy.sh` in
`/opt/server`): the command is not found where it runs, and the README means the path the image gives it.

Read only where the README says so: the block's heading, the prose just before it, or an introduction
still holding over captioned blocks, says its commands run in the container (`Inside the docker
container, run:`; `container_blocks.container_blocks` with `SAID_INSIDE`). Silent when the block moves
first (`cd`, `pushd`) or starts a container itself (`docker run`, `docker exec`: its lines are the
host's, or a `-w` sets the folder), when the README mounts a folder onto, above or into the working
folder (`-v`) or copies a file in (`docker cp`), when the image copies a file of that name into its
working folder, when a RUN names the script (it may copy or link it anywhere), when two folders hold one,
or when the working folder is not known (set from a variable). `likely`: the base image may hold a file
of that name.

And a program run without its suffix (`./test_gpu`) after entering a container (`docker exec -it`, an ssh
to this machine into an image running sshd) and a `cd` into a folder where the image copies the script
with it (`test_gpu.sh`): `unsuffixed_container_scripts`.

And a script run so inside an image the compose file of the README's folder builds from it, which the
image puts in its working folder only by a COPY from a file the folder lacks (`COPY
scripts/run_custom.sh /workspace/` with no `scripts/run_custom.sh`): it is never in the image, and the
COPY fails the build: `uncopied_container_scripts`.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, also_at, dockerfile_read
from docgen.audit.container_blocks import SAID_INSIDE, container_blocks
from docgen.audit.image_paths import mounted_folders
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import container_command
from docgen.compose import default_files
from docgen.copied import FILE_LIMIT, context_path, copied_files
from docgen.files import text_or_none
from docgen.findings import MISSING_FILE
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

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


def _runs(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, path from the working folder) of each script a block said to run in the container
    runs before anything in it moves or leaves."""
    inside = container_blocks(doc, words=SAID_INSIDE, langs=COMMAND_LANGS)
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


_SSH_HERE = re.compile(r"\bssh\b[^\n#]*?(?:@|[ \t])(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?![\w.-])")
"""An ssh into this machine (`ssh root@localhost -p 7776`): into a container publishing its sshd."""
_ENTERS = re.compile(
    container_command("run|exec", compose=True)
    + r"[^\n#]*?[ \t](?:-it|-ti|-i[ \t]+-t|--interactive)(?=[ \t])"
)
"""A command opening a shell in a container (`docker exec -it app bash`)."""
_SSHD = re.compile(r"\bsshd\b|openssh-server")
_CD_LINE = re.compile(r"[ \t]*(?:\$[ \t]+)?cd[ \t]+([\w./-]+)[ \t]*\Z")
_BARE_PROGRAM = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?\./([A-Za-z][\w-]*)(?=\Z|[ \t;&|])")
"""A program run by a path from the folder, named without a suffix (`./test_gpu`)."""
_SUFFIXES = (".sh", ".bash", ".py")


def _bare_runs(doc: Document, sshd: bool) -> Iterator[tuple[int, str, str]]:
    """(README line, program, the folder a `cd` entered: absolute, or relative to a folder not known) of
    each `./name` with no suffix a block runs after entering a container and a `cd`: a `docker exec
    -it`/`docker run -it`, or, when the image runs an sshd (`sshd`), an ssh into this machine. Up to an
    `exit`, a `cd` docgen does not follow (`~`, `..`, `-`) or another command entering elsewhere."""
    for fence in doc.fences:
        inside = False
        folder: str | None = None
        for line, text in fence.lines:
            if _ENTERS.search(text) or (sshd and _SSH_HERE.search(text)):
                inside, folder = True, None
                continue
            if not inside:
                continue
            if (cd := _CD_LINE.match(text)) is not None:
                target = posixpath.normpath(cd.group(1))
                if target.startswith(("~", "-", "..")):
                    inside = False
                    continue
                folder = (
                    target if folder is None or target.startswith("/") else posixpath.join(folder, target)
                )
                continue
            if re.match(r"[ \t]*(?:\$[ \t]+)?(?:exit|logout)\b", text) or _LEAVES.search(text):
                inside = False
                continue
            if folder is not None and (run := _BARE_PROGRAM.match(text)) is not None:
                yield line, run.group(1), folder


def unsuffixed_container_scripts(
    doc: Document, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """A program a README runs in a container by a path without its suffix (`./test_gpu`, after `ssh
    root@localhost -p 7776` and `cd inference_engine_samples_build/intel64/Release/`) where the image
    copies a script of that name with a suffix into that folder (`COPY test_gpu.sh
    /root/inference_engine_samples_build/intel64/Release/`) and nothing of that name without it: the
    shell answers no such file (`likely`: a RUN building there may make one). The folder is the `cd`'s
    (an absolute path, or a relative one that ends the folder the image copies to). Not read: a RUN
    naming the program, a name the image copies as it is, a mount over the folder, two folders matching."""
    if not models or any(not m.file for m in models):
        return
    texts = [dockerfile_read(m.file) for m in models]
    sshd = any(r is not None and _SSHD.search(r[0]) for r in texts)
    runs = list(_bare_runs(doc, sshd))
    if not runs:
        return
    mounts = mounted_folders(doc)
    told: set[str] = set()
    for line, name, folder in runs:
        if name in told:
            continue
        meant: dict[str, tuple[ImageModel, int]] = {}
        held = False
        for model, read in zip(models, texts, strict=True):
            files = _image_files(model)
            into = image_files_into(model)
            if files is None or into is None or read is None:
                held = True
                break
            runs_text = " ".join(i.body for i in read[1].instructions if i.keyword == "RUN")
            if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-]|\.\w)", runs_text):
                held = True
                break
            for path in into:
                where = posixpath.dirname(path)
                here = where == folder if folder.startswith("/") else where.endswith("/" + folder)
                if not here:
                    continue
                base = posixpath.basename(path)
                if base == name:
                    held = True
                elif base in (name + s for s in _SUFFIXES):
                    meant.setdefault(path, (model, files.get(path) or files.get(where) or 0))
        if held or len({posixpath.dirname(p) for p in meant}) != 1:
            continue
        if any(
            m == d or d.startswith(m + "/") for m in mounts for d in {posixpath.dirname(p) for p in meant}
        ):
            continue
        path, (model, copy_line) = sorted(meant.items())[0]
        told.add(name)
        at = f"{model.path}:{copy_line}" if copy_line else model.path
        yield Diagnostic(
            readme,
            line,
            f"README runs ./{name} in the container's {folder}, which holds no {name}: {at} copies "
            f"{posixpath.basename(path)} there ({path}); the shell answers no such file (did you mean "
            f"./{posixpath.basename(path)}?)",
            confidence=LIKELY,
        )


_KEEPS = re.compile(r"[ \t]*(?:chmod|ls|test|stat|file|dos2unix)\b")
"""A RUN step that reads a file the image holds or changes its mode, and makes none (`chmod +x run.sh`)."""
_COMPOSE_MOUNT = re.compile(
    r"^[ \t]*-[ \t]*[\"']?[^\s:\"'#]+:(/[^\s:\"'#]*)|^[ \t]*target:[ \t]*[\"']?(/[^\s\"'#]+)", re.MULTILINE
)
"""The folder in the container a compose `volumes:` item mounts onto (`- ./data:/workspace/data`)."""


def _made_by_run(model: ImageModel, name: str) -> bool:
    """True when a step of a RUN of the Dockerfile names the file `name` other than to read it or change
    its mode (`chmod +x /workspace/run.sh`): it may copy, link or make it."""
    read = dockerfile_read(model.file)
    if read is None:
        return True
    return any(
        name in step and not _KEEPS.match(step)
        for inst in read[1].instructions
        if inst.keyword == "RUN" and name in inst.body
        for step in re.split(r"&&|\|\||;|\n", inst.body)
    )


def _uncopied(model: ImageModel, place: str) -> tuple[int, str] | None:
    """(Dockerfile line, source) of the COPY or ADD of the build context (the Dockerfile's folder) that
    puts a file at the image's absolute path `place` from a source naming nothing there, when no other
    copy puts a file there; None otherwise, or when a destination is relative or a variable or a
    missing source a pattern."""
    indexes = {stage.index for stage in model.chain()}
    copies = {c.line: c for c in model.context_copies if c.stage in indexes}
    root = Path(model.file).parent.resolve()
    found: tuple[int, str] | None = None
    walked = copied_files(root, tuple(copies.values()), model.file)
    for count, copied in enumerate(itertools.islice(walked, FILE_LIMIT + 1)):
        dest = copied.dest.strip("\"'")
        if count >= FILE_LIMIT or not dest.startswith("/") or "$" in dest:
            return None
        if copied.path is not None:
            if place in (
                posixpath.normpath(dest),
                posixpath.join(posixpath.normpath(dest), copied.path.name),
            ):
                return None  # (a file of the context lands there)
            continue
        source = copied.source.strip("\"'")
        if any(c in source for c in "*?[$"):
            return None
        into = dest.endswith("/") or len(copies[copied.line].sources) > 1
        landed = posixpath.join(dest, posixpath.basename(source)) if into else dest
        if posixpath.normpath(landed) == place:
            found = found or (copied.line, source)
    return found


def _folder_copied(model: ImageModel, at: int, source: str, context: str) -> bool:
    """True when a COPY other than the one at line `at` copies a file of the folder of `source` that the
    build context `context` holds (`COPY scripts/run.sh …` beside a missing `scripts/reconstruct.sh`):
    the folder is there, and lacks the one file."""
    held = posixpath.dirname(context_path(source) or "")
    if held in ("", "."):
        return False
    return any(
        (path := context_path(word)) is not None
        and posixpath.dirname(path) == held
        and os.path.isfile(os.path.join(context, path))
        for copy in model.context_copies
        if copy.line != at
        for word in copy.sources
    )


def uncopied_container_scripts(
    doc: Document,
    models: Sequence[ImageModel],
    readme: str,
    directory: Path,
    inside: Collection[int],
    checkout: bool = False,
) -> Iterator[Diagnostic]:
    """A script run by a relative path (`./run_reconstruction.sh`) on a line of a command block that
    runs in the container (`inside`: `container_blocks.container_lines`, read when the compose file of the
    README's folder builds the image from it), which the image puts in its working folder only by a COPY
    whose source the build context lacks (`COPY scripts/run_reconstruction.sh /workspace/…` with no such
    file in `scripts/`): the script is never in the image, and that COPY fails the build. Only for an
    image whose Dockerfile is in the README's folder (its build context: `references.builds_here`), with
    a known working folder, when no other copy puts a file there, no RUN names it but to change its mode
    (`chmod +x`), neither the README nor the compose file mounts a folder onto or above the working
    folder or onto the script, and the README copies nothing into a container (`docker cp`). `certain`
    in a git checkout (`checkout`) or when the source's folder holds another file the image copies (a
    copy of that folder, lacking the one), else `likely`: a copy of some of the project's files may lack
    it. One finding a script, at its first line."""
    runs: dict[str, list[int]] = {}
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, text in fence.lines:
            if line not in inside:
                continue
            if _LEAVES.search(text):
                break
            if (match := _SCRIPT.match(text)) is not None:
                runs.setdefault(posixpath.normpath(match.group(1)), []).append(line)
    if not runs or any(_COPIED_IN.search(t) for fence in doc.fences for _, t in fence.lines):
        return
    here = os.path.realpath(directory)
    models = [m for m in models if m.file and os.path.dirname(os.path.realpath(m.file)) == here]
    if not models:
        return
    mounts = mounted_folders(doc)
    for compose in default_files(directory)[:1]:
        written = text_or_none(compose)
        if written is None:
            return
        mounts |= {posixpath.normpath(m.group(1) or m.group(2)) for m in _COMPOSE_MOUNT.finditer(written)}
    for path, lines in runs.items():
        facts = []
        sure = checkout
        for model in models:
            where = work_dir(model)
            if where is None:
                break
            folder, work_line = where
            place = posixpath.normpath(posixpath.join(folder, path))
            if any(m == folder or folder.startswith(m + "/") or place.startswith(m + "/") for m in mounts):
                break
            copied = _uncopied(model, place)
            if copied is None or _made_by_run(model, posixpath.basename(path)):
                break
            at, source = copied
            sure = sure or _folder_copied(model, at, source, here)
            facts.append(
                f"{model.path}:{at} copies it to {place} (WORKDIR {folder}, line {work_line}) from {source}, "
                "which its build context, the README's folder, does not hold"
            )
        else:
            yield Diagnostic(
                readme,
                lines[0],
                f"README runs ./{path} inside the container, which the image never holds: "
                f"{'; '.join(facts)}{also_at(lines)}",
                confidence=CERTAIN if sure else LIKELY,
                rule=MISSING_FILE,
            )
