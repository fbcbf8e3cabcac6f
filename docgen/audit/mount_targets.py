"""A folder a README mounts into the container (`-v ${PWD}:/usr/local/gmx/share/top`) that the image
does not have, while the Dockerfile names the path it most likely means: the same path with one folder
more or less (`/usr/local/gmx/share/gmx/top`). The mount makes a new, empty folder beside the one the
image uses, and what the reader puts there is never read.

A mount is read from a command block, a paragraph or a table cell (`-v HOST:/in/image`, `--mount
…,target=/in/image`). It is a claim only when the Dockerfile, the build-context files next to it or
those it copies name the target nowhere (nor anything below it), the README names it nowhere but in
mounts (`-e DATA_DIR=/opt/x/data` tells the program where it is), and the Dockerfile itself names one
path, no other, that is the target with one folder inserted or dropped before its last part, in a
folder of at least two parts that is no system folder (`/usr/local`, `/opt` alone say too little), or
the target with one folder's name a slip off (`/home/dev/catin_ws/src` for `/home/dev/catkin_ws/src`:
a letter added, dropped, changed or two swapped, in a name of five letters or more, no digit in what
differs, not a plural `s`), at the same depth in such a folder. A mount of a file (`…/config.yaml`) is
none. `$HOME`, `${HOME}` and `~/` in the Dockerfile are read as the home the image knows (an ARG or
ENV `HOME`, else that of its last USER: `/home/dev`, `/root`). The finding is `likely`: the program
may be told of the folder by a way docgen does not read.

A folder the Dockerfile itself makes (`RUN mkdir /notebook`, `WORKDIR /notebook`, a COPY's
destination) is where the image wants the files: a mount target a slip off it at the same depth, a plural
too (`-v ~/notebooks:/notebooks` for a made `/notebook`), is one at any depth below `/`.

A command's mount that the README's own note restates with the same host folder and another target the
Dockerfile names (`restated_mounts`) is one too: the note was updated, the command was not.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.image_paths import (
    MOUNT,
    MOUNT_WORDS,
    SYSTEM,
    clean_path,
    context_text,
    named_paths,
    read_image,
    text_of,
)
from docgen.audit.versions import one_slip
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel


def _mount_lines(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, folder) of each mount target in a command block, a paragraph or a table row."""
    lines = [(n, t) for fence in doc.fences for n, t in fence.lines]
    lines += [(n, t) for para in doc.paragraphs for n, t in para.lines]
    lines += [(n, " | ".join(cells)) for table in doc.tables for n, cells in table.rows]
    for number, text in lines:
        for match in MOUNT.finditer(text):
            path = clean_path(match.group(1) or match.group(2) or "")
            if path is not None:
                yield number, path


def _one_folder_away(target: str, named: frozenset[str]) -> list[str]:
    """The paths of `named` that are `target` with one folder inserted or dropped before its last part,
    where the two part in a folder of two parts or more that is no system folder."""
    parts = target.split("/")[1:]
    found: set[str] = set()
    for i in range(2, len(parts) - 1):  # drop part i: `/a/b/x/c` → `/a/b/c`
        if "/" + "/".join(parts[:i]) not in SYSTEM:
            shorter = "/" + "/".join(parts[:i] + parts[i + 1 :])
            if shorter in named:
                found.add(shorter)
    for path in named:  # insert one part: `/a/b/c` → `/a/b/x/c`
        other = path.split("/")[1:]
        if len(other) != len(parts) + 1 or other[-1] != parts[-1]:
            continue
        i = next((k for k, (a, b) in enumerate(zip(parts, other, strict=False)) if a != b), len(parts))
        if i >= 2 and other[:i] + other[i + 1 :] == parts and "/" + "/".join(parts[:i]) not in SYSTEM:
            found.add(path)
    return sorted(found)


_HOME_USE = re.compile(r"\$\{HOME\}|\$HOME(?!\w)|(?<![\w/.~-])~(?=/)")
"""`$HOME`, `${HOME}` or `~/` in a Dockerfile or a script: the home of the image's user."""
_FILE_NAME = re.compile(r"[^./]\.[A-Za-z][A-Za-z0-9]{0,4}\Z")
"""A last part that names a file (`config.yaml`, `run.sh`), not a folder (`.cache` is one)."""
_MIN_SLIP = 5
"""Letters a folder's name has at least for a slip of it to be told (`catkin_ws`; not `data`, `src`)."""


def _homes(model: ImageModel) -> set[str]:
    """The home folders `$HOME` may be in the image of `model`: an ARG or ENV `HOME` whose value is
    known, else `/root` or `/home/USER` for its last USER (none when that is not known)."""
    said = {decl.effective_default for decl in model.args if decl.name == "HOME" and decl.effective_default}
    said |= {env.value for env in model.env if env.name == "HOME" and env.value}
    homes = {home.rstrip("/") for home in said if clean_path(home) == home.rstrip("/")}
    if homes:
        return homes
    users = [s.value.split(":", 1)[0].strip() for s in model.settings if s.keyword == "USER"]
    user = users[-1] if users else "root"
    if user in ("root", "0"):
        return {"/root"}
    return {f"/home/{user}"} if re.fullmatch(r"[a-z_][\w.-]*", user) else set()


def _with_homes(text: str, homes: set[str]) -> str:
    """`text` and, for each of `homes`, `text` with `$HOME` (`${HOME}`, `~/`) written as that home."""
    if not _HOME_USE.search(text):
        return text
    return "\n".join([text, *(_HOME_USE.sub(home, text) for home in sorted(homes))])


def _slip_away(target: str, named: frozenset[str]) -> list[str]:
    """The paths of `named` that are `target` with one folder's name a slip off (`_slip`: a letter
    added, dropped, changed or two swapped; `catin_ws` for `catkin_ws`), at the same depth, in a folder of
    two parts or more that is no system folder; the names of `_MIN_SLIP` letters or more, no digit in
    what differs (`v1`, `py310` are other folders), not one name the other's plural."""
    parts = target.split("/")[1:]
    found = []
    for path in named:
        other = path.split("/")[1:]
        if len(other) != len(parts):
            continue
        differ = [i for i, (a, b) in enumerate(zip(parts, other, strict=True)) if a != b]
        if len(differ) != 1 or differ[0] < 2 or "/" + "/".join(parts[: differ[0]]) in SYSTEM:
            continue
        said, meant = parts[differ[0]], other[differ[0]]
        if min(len(said), len(meant)) < _MIN_SLIP or not one_slip(said, meant):
            continue
        if said.lower().rstrip("s") == meant.lower().rstrip("s"):
            continue  # `model` and `models`: a folder of its own as often as a slip
        if any(c.isdigit() for c in set(said) ^ set(meant)) or said.lower() == meant.lower():
            continue
        found.append(path)
    return sorted(found)


_VOLUME_ITEM = re.compile(r"^[ \t]*-[ \t]*[\"']?[^\s\"':]+:/[^\s:\"']*(?::[a-z,]+)?[\"']?[ \t]*$", re.M)
"""A compose file's short volume entry (`- /home/me/notebooks:/notebooks`): a mount, as the README's."""


def _made_slip(target: str, made: Sequence[str]) -> list[str]:
    """The folders of `made` (those the Dockerfile itself makes: `mkdir`, WORKDIR, a COPY's
    destination) that are `target` with one folder's name a slip off or its plural (`/notebooks` for a
    made `/notebook`, `/datasets` for `/dataset`), at the same depth, at any depth below `/` but in no
    system folder; the names of `_MIN_SLIP` letters or more, no digit in what differs. A folder the
    image makes is where it wants the files: one a letter away beside it is a slip, a plural too."""
    parts = target.split("/")[1:]
    found = []
    for path in made:
        other = path.split("/")[1:]
        if len(other) != len(parts) or path in SYSTEM:
            continue
        differ = [i for i, (a, b) in enumerate(zip(parts, other, strict=True)) if a != b]
        if len(differ) != 1 or "/" + "/".join(parts[: differ[0]]) in SYSTEM - {"/"}:
            continue
        said, meant = parts[differ[0]], other[differ[0]]
        if min(len(said), len(meant)) < _MIN_SLIP or not one_slip(said, meant):
            continue
        if any(c.isdigit() for c in set(said) ^ set(meant)) or said.lower() == meant.lower():
            continue
        found.append(path)
    return sorted(found)


def near_mount_targets(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """One finding a mount target one folder away from the path the Dockerfile names (see the module's
    docstring), at its first line, `likely`."""
    seen: dict[str, list[int]] = {}
    for line, target in _mount_lines(doc):
        if target not in SYSTEM and not _FILE_NAME.search(target):
            seen.setdefault(target, []).append(line)
    if not seen:
        return
    elsewhere = named_paths(MOUNT_WORDS.sub(" ", text))  # the README's paths outside its mounts
    images = [image for m in models if m.file and (image := read_image(m)) is not None]
    read: list[tuple[str, frozenset[str], frozenset[str], list[str]]] = []  # (shown, context's, own, made)
    homes = {m.file: _homes(m) for m in models if m.file}
    for image in images:
        context = context_text(image.file, image.copies, str(directory))
        if context is None:
            return  # more than docgen reads: what the image holds is not known
        home = homes.get(image.file, set())
        own = _with_homes(text_of(Path(image.file)), home)
        made = [path for path in image.built if not path.startswith(("/usr/", "/etc/", "/var/"))]
        context = _VOLUME_ITEM.sub(
            "", context
        )  # a compose file's mount repeats the README's, no path of the image
        read.append((image.path, named_paths(_with_homes(context, home)), named_paths(own), made))
    for target, lines in seen.items():
        if target in elsewhere or any(target in named for _, named, _, _ in read):
            continue
        deep = target.count("/") >= 3
        meant = [
            (shown, p)
            for shown, _, own, made in read
            for p in [
                *(_one_folder_away(target, own) if deep else []),
                *(_slip_away(target, own) if deep else []),
                *_made_slip(target, made),
            ]
        ]
        if len({p for _, p in meant}) != 1:
            continue
        path, means = meant[0]
        yield Diagnostic(
            readme,
            lines[0],
            f"README mounts a folder at {target}, which {path} does not have: it names {means} (did you "
            f"mean {means}?){also_at(lines)}",
            confidence=LIKELY,
        )


_VOLUME = re.compile(r"(?<![\w-])(?:-v|--volume)(?:[ \t]+|=)[\"']?([^\s:\"'`]+):(/[^\s:\"',`]*)")
"""`-v HOST:/in/image`: the host folder and the folder in the container."""


def _volumes(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str, str]]:
    """(README line, host folder, container folder) of each `-v` of `lines`."""
    for number, text in lines:
        for match in _VOLUME.finditer(text):
            target = clean_path(match.group(2))
            if target is not None:
                yield number, match.group(1), target


def restated_mounts(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A mount of a command block (`-v .:/workspace`) that the README's own note restates with the same
    host folder and another target (`` `-v .:/home/dev/workspace` mounts the current folder ``), where
    the Dockerfile names the note's target or the folder it is in (`WORKDIR /home/dev`) and neither it
    nor the files of its build context name the command's target or anything below it (`likely`: the
    note was updated, the command was not; the image never reads the folder the command mounts)."""
    commands = list(_volumes((n, t) for fence in doc.fences for n, t in fence.lines))
    if not commands:
        return
    notes = list(_volumes((n, t) for para in doc.paragraphs for n, t in para.lines))
    images = [image for m in models if m.file and (image := read_image(m)) is not None]
    if not notes or not images:
        return
    named: set[str] = set()
    own: set[str] = set()
    for image in images:
        context = context_text(image.file, image.copies, str(directory))
        if context is None:
            return  # more than docgen reads: what the image holds is not known
        named |= named_paths(context)
        own |= named_paths(text_of(Path(image.file)))
    said = {(host, target) for _, host, target in commands}
    noted = {t for _, _, t in notes}
    first: dict[tuple[str, str], int] = {}  # (host, target) of a note → its first line
    meant_of: dict[str, set[str]] = {}  # a host → the targets its notes give that no command does
    for n, h, t in notes:
        first.setdefault((h, t), n)
        if (h, t) not in said and posixpath.dirname(t) in own:
            meant_of.setdefault(h, set()).add(t)
    only = {h: next(iter(ts)) for h, ts in meant_of.items() if len(ts) == 1}  # the one a host's notes mean
    for line, host, target in commands:  # (each looked up, not searched for: a pass a command)
        if target in SYSTEM or target in named or target in noted:
            continue
        meant = only.get(host)
        if meant is None or posixpath.dirname(meant) in SYSTEM:
            continue
        at = first[(host, meant)]
        yield Diagnostic(
            readme,
            line,
            f"README mounts {host} at {target}, but its note on line {at} mounts it at {meant}, and "
            f"{images[0].path} names {posixpath.dirname(meant)}, not {target}",
            confidence=LIKELY,
        )
