"""The working folder a README's run command gives the container (`docker run -w /workspace`,
`singularity shell --pwd /benchmark`) when the image does not have it while the Dockerfile makes a
folder a slip away from it (`WORKDIR /workspaces`, `COPY benchmark /benchmarks`): the command starts in
a folder that is not there.

`image_paths` reads paths in the image too, but never a folder at the top (`/benchmark`: `/` is every
base image's) and only where a near name shares a word; a working-folder option is a stronger claim (the
command says the folder is there), so a top folder is read, and only a slip (a letter added, dropped or
changed, or the case) counts as near.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.image_paths import clean_path, context_text, mounted_folders, named_paths, read_image
from docgen.audit.versions import one_slip
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import container_command
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_RUNS = re.compile(
    r"\b(?:"
    + container_command("run|exec|create", start="", end="", compose=True)
    + r"|(?:singularity|apptainer)[ \t]+(?:run|exec|shell|instance[ \t]+start))\b"
)
"""A command starting a container (or a command in one) whose options may set its working folder."""
_WORK_DIR = re.compile(r"(?<![\w-])(?:-w|--workdir|--?pwd|--cwd)(?:[ \t]+|=)[\"']?(/[^\s\"';&|]*)")
"""The working-folder option of `docker run` (`-w`, `--workdir`) and Singularity/Apptainer (`--pwd`)."""


def _slip(a: str, b: str) -> bool:
    """True when `a` and `b` differ by one letter added, dropped or changed, two next to each other
    swapped (`versions.one_slip`), or by case only."""
    return a != b and (a.lower() == b.lower() or one_slip(a, b))


def folders(made: dict[str, int]) -> dict[str, int]:
    """The paths of `made` (path → Dockerfile line) and every folder above each (`/workspaces` for
    `WORKDIR /workspaces/app`), at the line of the first path making it."""
    found: dict[str, int] = {}
    for path, line in made.items():
        while path not in ("", "/"):
            found.setdefault(path, line)
            if (parent := posixpath.dirname(path)) == path:
                break  # `//`, which dirname keeps: the top
            path = parent
    return found


_SINGULARITY = re.compile(r"\b(?:singularity|apptainer)[ \t]+(?:run|exec|shell|instance[ \t]+start)\b")
"""A Singularity/Apptainer command starting the image: unlike `docker run -w`, which makes the folder,
its `--pwd` into a folder the image lacks starts the command elsewhere (the home folder, with a
warning)."""
_BIND = re.compile(r"(?<![\w-])(?:-B|--bind|--mount)(?:[ \t]+|=)[\"']?([^\s\"']+)")
"""Singularity's binds (`-B /data`, `--bind /host:/in/image,/x`): folders the container has whatever the
image holds."""


def _bound(doc: Document) -> set[str]:
    """The folders the README's Singularity/Apptainer commands bind into the container."""
    found = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            for match in _BIND.finditer(text):
                for spec in match.group(1).split(","):
                    parts = spec.split(":")
                    inside = parts[1] if len(parts) > 1 else parts[0]
                    if (
                        path := clean_path(inside.removeprefix("dst=").removeprefix("destination="))
                    ) is not None:
                        found.add(path)
    return found


def _work_dirs(doc: Document) -> Iterator[tuple[int, str, bool]]:
    """(README line, folder, by Singularity/Apptainer's `--pwd`) of each working folder a command
    block's container command sets (a command continued over lines with `\\` is read as one)."""
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        command: list[tuple[int, str]] = []
        for line, text in fence.lines:
            command.append((line, text))
            if text.rstrip().endswith("\\"):
                continue
            joined = " ".join(t.rstrip().rstrip("\\") for _, t in command)
            first = command[0][0]
            command = []
            if not _RUNS.search(joined):
                continue
            singularity = bool(_SINGULARITY.search(joined))
            for match in _WORK_DIR.finditer(joined):
                path = clean_path(match.group(1))
                if path is not None and path != "/":
                    yield first, path, singularity and match.group().lstrip().startswith(("--pwd", "-pwd"))


def missing_work_dirs(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A working folder a run command gives the container (see the module's docstring) that no audited
    image makes, is under or above, that no README command mounts and that the Dockerfile and its build
    context never name, while one of them makes a folder a slip away from it in the same folder
    (`likely`: the base image may have it). One finding a folder, at its first line."""
    used = list(_work_dirs(doc))
    if not used:
        return
    images = [image for m in models if m.file and (image := read_image(m)) is not None]
    if not images or any(image.piped for image in images):
        return
    made = (
        {path for image in images for path in [*image.made, *image.entered]}
        | mounted_folders(doc)
        | _bound(doc)
    )
    seen: dict[str, list[int]] = {}
    pwd: set[str] = set()  # the folders a Singularity `--pwd` starts in
    for line, path, singular in used:
        if any(path == m or path.startswith(m + "/") or m.startswith(path + "/") for m in made):
            continue
        seen.setdefault(path, []).append(line)
        if singular:
            pwd.add(path)
    if not seen:
        return
    for image in images:
        text = context_text(image.file, image.copies, str(directory))
        if text is None:
            return
        image.named = named_paths(text)
    for path, lines in seen.items():
        if any(path in image.named for image in images):
            continue
        folder, name = posixpath.split(path)
        near = [
            (image, m, line)
            for image in images
            for m, line in folders(image.made).items()
            if posixpath.dirname(m) == folder and _slip(name, posixpath.basename(m))
        ]
        if len({m for _, m, _ in near}) != 1:
            if path in pwd and not near:  # (two folders a slip away: which one was meant is not told)
                yield from _no_pwd(readme, path, lines, models)
            continue
        image, meant, at = near[0]
        more = also_at(lines)
        yield Diagnostic(
            readme,
            lines[0],
            f"README starts the container in {path}, which {image.path} does not make: it makes {meant} "
            f"(line {at}; did you mean {meant}?){more}",
            confidence=LIKELY,
        )


def _no_pwd(
    readme: str, path: str, lines: Sequence[int], models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A Singularity/Apptainer `--pwd` into a folder no audited image makes, names or is under, nor a
    bind puts there, while every image sets a working folder of its own (`WORKDIR`): Singularity does not
    fail, it warns (`Could not set container working directory`) and starts in the home folder (`/` with
    `--no-home`), where the commands the README gives next do not find their files (`likely`: the base
    image may have the folder)."""
    workdirs = [(m, w) for m in models for w in m.settings if w.keyword == "WORKDIR"]
    if not workdirs or {m.path for m, _ in workdirs} != {m.path for m in models}:
        return
    model, last = workdirs[-1]
    yield Diagnostic(
        readme,
        lines[0],
        f"README starts the container in {path} with --pwd, which {model.path} does not make (Singularity "
        f"warns and starts in the home folder instead); the image's working folder is {last.value} (line "
        f"{last.line}){also_at(lines)}",
        confidence=LIKELY,
    )
