"""A path a README uses inside the container that puts a repository the image clones in a folder the
image never makes (`lmp_gpu -in /srv/lammps/bench/in.lj` typed in `docker run -ti … lammps_gpu`, while
the Dockerfile runs `git clone https://github.com/lammps/lammps.git lammps` in `/`, so LAMMPS is at
`/lammps`): the file is at `/lammps/bench/in.lj`, and the documented one is not there.

`image_paths` reads paths in folders the Dockerfile fills, and moved folders of a name no folder gets by
chance; this rule reads the other case, a folder the Dockerfile never names at all, made sure of by where
the Dockerfile says the clone is:

- the path is read from a command block, on a line after a command that opens a shell in a container
  (`docker run -it`, `nvidia-docker run -ti`, `docker exec -it`), the run line itself left out;
- one of its folders, below the top, has the name of a repository the last stage clones, at a place the
  Dockerfile shows (an absolute destination, or a relative one read from a WORKDIR written out, with no
  `cd` before it in its RUN), and that folder is not the clone's place;
- the name is four characters or more and no word any tree has (`models`, `data`, `src`), and not in the
  name of the base image (which may hold the project where the README says);
- the top folder of the path (`/srv`) is no system folder and neither the Dockerfile nor the
  build-context files next to it or those it copies name it or anything below it; no mount of the
  README (`-v`, `--mount`, `-w`) nor a command of it that makes a path (`mkdir`, `git clone`) is at,
  above or below the folder (a mount beside it is no matter: `-v $(pwd):/srv/input`).

One finding a folder, at its first line (`likely`: a base image may hold a folder nothing here names).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.commands import CLONE_STEP, clone_operands
from docgen.audit.image_paths import (
    ABSOLUTE,
    MOUNT_WORDS,
    SYSTEM,
    clean_path,
    context_text,
    mounted_folders,
    named_paths,
    readme_paths,
)
from docgen.audit.paths import under_any
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import WITH_NVIDIA, container_command
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_SHELL_RUN = re.compile(container_command("run|exec", WITH_NVIDIA))
_FLAGS = re.compile(r"(?<!\S)-([a-z]+)(?!\S)|(?<!\S)--interactive(?!\S)")
"""A command that opens an interactive shell in a container (`docker run -ti … image`)."""
WORKDIR = re.compile(r"(?<![\w-])(?:-w|--workdir)(?:[ \t]+|=)(\S+)")
"""The working folder a run gives the container: docker makes it."""
CD = re.compile(r"(?:^|[;&|(][ \t]*)cd[ \t]")
GENERIC = frozenset(
    "models model data datasets src source code app apps tools scripts examples example docs config configs"
    " build lib libs bin test tests utils util workspace home work weights checkpoints output outputs input"
    " inputs cache common core demo demos server client web api assets resources share include".split()
)
"""Repository names that are words any tree has: a folder of that name may be anything."""


def _interactive(options: str) -> bool:
    """True when the words of `options` ask for an interactive terminal: `-it`, `-ti`, `-dit`, `-i -t`,
    `--interactive`."""
    letters = "".join(m.group(1) or "it" for m in _FLAGS.finditer(options))
    return "i" in letters and "t" in letters


def _clones(model: ImageModel) -> list[tuple[str, int]]:
    """(place, line) of each repository the last stage of `model`'s Dockerfile clones where the Dockerfile
    shows: an absolute destination, or one read from a WORKDIR written out, no `cd` before it."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    found: list[tuple[str, int]] = []
    workdir: str | None = "/"
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            workdir, found = "/", []
        elif inst.keyword == "WORKDIR":
            value = inst.args.strip().strip("\"'")
            workdir = clean_path(
                value if value.startswith("/") or workdir is None else posixpath.join(workdir, value)
            )
        elif inst.keyword == "RUN":
            script = inst.body
            for match in CLONE_STEP.finditer(script):
                rest = clone_operands(match.group(1).split(), "\"'")
                if not rest or "$" in "".join(rest[:2]):
                    continue
                url = rest[0]
                if len(rest) > 1:
                    place = rest[1]
                else:
                    place = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                    place = place[:-4] if place.endswith(".git") else place
                if not place.startswith("/"):
                    if workdir is None or CD.search(script[: match.start()]):
                        continue
                    place = posixpath.join(workdir, place)
                if (cleaned := clean_path(place)) is not None and cleaned != "/":
                    found.append((cleaned, inst.start_line))
    return found


def _base(model: ImageModel) -> str:
    """The last FROM's image, lower-cased ('' when not read)."""
    read = dockerfile_read(model.file) if model.file else None
    froms = [i.args for i in read[1].instructions if i.keyword == "FROM"] if read else []
    return froms[-1].lower() if froms else ""


def in_container(doc: Document) -> list[tuple[int, str]]:
    """(README line, text) of the command-block lines after one that opens a shell in a container."""
    found = []
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        inside = False
        for number, text in fence.lines:
            if (run := _SHELL_RUN.search(text)) is not None and _interactive(text[run.end() :]):
                inside = True
                continue
            if inside:
                found.append((number, text))
    return found


def moved_clones(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A path used in the container under a folder the image never makes, through a folder named as a
    repository the image clones elsewhere (`likely`). See the module's docstring."""
    lines = in_container(doc)
    if not lines:
        return
    used: list[tuple[int, str]] = []
    for number, text in lines:
        for match in ABSOLUTE.finditer(MOUNT_WORDS.sub(" ", text)):
            path = clean_path(match.group(1))
            if path is not None and path.count("/") >= 2:
                used.append((number, path))
    if not used:
        return
    clones = {m.path: (m, c) for m in models if (c := _clones(m))}
    if not clones:
        return
    places: dict[str, list[tuple[str, int, str]]] = {}  # name → (place, line, Dockerfile as shown)
    for shown, (model, found) in clones.items():
        base = _base(model)
        for place, line in found:
            name = posixpath.basename(place)
            if len(name) < 4 or name.lower() in GENERIC or name.lower() in base:
                continue
            places.setdefault(name, []).append((place, line, shown))
    if not places:
        return
    made = {path for _, path, by_readme in readme_paths(doc) if by_readme} | mounted_folders(doc)
    made |= {
        path
        for fence in doc.fences
        for _, text in fence.lines
        for value in WORKDIR.findall(text)
        if (path := clean_path(value.strip("\"'"))) is not None
    }
    seen: dict[str, list[int]] = {}
    where: dict[str, tuple[str, int, str, str]] = {}
    for number, path in used:
        parts = path.split("/")[1:]
        top = "/" + parts[0]
        if top in SYSTEM or under_any(path, made):
            continue
        for depth in range(1, len(parts)):
            name = parts[depth]
            named_so = places.get(name, [])
            if len({p for p, _, _ in named_so}) != 1:
                continue
            folder = "/" + "/".join(parts[: depth + 1])
            place, line, shown = named_so[0]
            if folder == place or place.startswith(folder + "/") or folder.startswith(place + "/"):
                break
            if any(m == folder or m.startswith(folder + "/") or folder.startswith(m + "/") for m in made):
                break
            seen.setdefault(folder, []).append(number)
            where.setdefault(folder, (place, line, shown, path))
            break
    if not seen:
        return
    named: set[str] = set()
    for model in models:
        if model.file:
            context = context_text(model.file, model.context_copies, str(directory))
            if context is None:
                return
            named |= named_paths(context)
    for folder, numbers in seen.items():
        top = "/" + folder.split("/")[1]
        if top in named:
            continue  # the image may make it: a folder the Dockerfile or its context names
        place, line, shown, path = where[folder]
        meant = place + path[len(folder) :]
        yield Diagnostic(
            readme,
            numbers[0],
            f"README uses {path} in the container, but {shown} never makes {top}: it clones "
            f"{posixpath.basename(place)} into {place} ({shown}:{line}) (did you mean {meant}?)"
            f"{also_at(numbers)}",
            confidence=LIKELY,
        )
