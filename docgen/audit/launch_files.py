"""A ROS launch file a README runs (`roslaunch rover_nav nav.launch`, `ros2 launch rover_nav
nav.launch.py`) that the package, in the repository, does not have: the command fails.

A command is read from a command block or a code span: `roslaunch PKG FILE` or `ros2 launch PKG FILE`
(options before the package skipped, `arg:=value` after the file ignored), FILE a launch file's name
(`.launch`, `.launch.py`, `.launch.xml`, `.py`, `.xml`, `.yaml`) with no variable. The package is a
folder of the repository below the README (at most `_ENTRIES_LIMIT` entries walked, none in a folder
whose name starts with a dot) that is a ROS package: a `package.xml` whose `<name>` is PKG, or a folder
named PKG holding a `package.xml` or a `launch` folder. It is a claim only when such a package is there:
a package the README installs, clones or the base image brings is not known. The finding is `certain`
when no file of any such package has the name and nothing names it but the README's launch commands
(no file of the package, no Dockerfile, no other line of the README: a step that writes the file).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, also_at, dockerfile_read
from docgen.audit.wording import COMMAND_LANGS
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_LAUNCH = re.compile(
    r"(?<![\w/.-])(roslaunch|ros2[ \t]+launch)((?:[ \t]+-[\w-]+)*)[ \t]+([A-Za-z][\w-]*)[ \t]+"
    r"([\w.-]+\.(?:launch(?:\.py|\.xml|\.yaml)?|py|xml|yaml))(?![\w.$/-])"
)
"""`roslaunch PKG FILE` or `ros2 launch PKG FILE`, options (`--wait`) before the package."""
_PACKAGE_NAME = re.compile(r"<name>\s*([\w-]+)\s*</name>")
_SAID = re.compile(r"[\w.-]+")
"""A run of the characters of a launch file's name: the name is said where a whole run is it (not in
`nav.launch.bak`, `old-nav.launch`)."""
_ENTRIES_LIMIT = 20_000
"""Folders and files walked at most below the README: a larger tree is not read (no claim)."""
_SHOWN = 4
"""Launch files of the package named in a finding at most."""


def _commands(doc: Document) -> Iterator[tuple[int, re.Match[str]]]:
    """(README line, match of `_LAUNCH`) of each launch command in a command block or a code span."""
    lines = [(n, t) for fence in doc.fences if fence.lang in COMMAND_LANGS for n, t in fence.lines]
    lines += [(n, span) for para in doc.paragraphs for n, t in para.lines for _, _, span in code_spans(t)]
    for number, text in sorted(lines):
        for match in _LAUNCH.finditer(text):
            yield number, match


def ros_packages(root: Path, names: set[str]) -> dict[str, list[Path]] | None:
    """The folders below `root` that are the ROS packages `names` (see the module's docstring), by
    name; None when the tree is larger than `_ENTRIES_LIMIT`."""
    found: dict[str, list[Path]] = {}
    walked = 0
    for top, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        walked += len(folders) + len(files)
        if walked > _ENTRIES_LIMIT:
            return None
        here = Path(top)
        named = {here.name} & names if ("package.xml" in files or "launch" in folders) else set()
        if "package.xml" in files:
            text = text_or_none(here / "package.xml") or ""
            if (said := _PACKAGE_NAME.search(text)) is not None and said.group(1) in names:
                named.add(said.group(1))
        for package in named:
            found.setdefault(package, []).append(here)
    return found


def _files_of(package: Path) -> list[Path]:
    """The files in the folder `package` and below it, not in a folder whose name starts with a dot."""
    found: list[Path] = []
    for top, folders, files in os.walk(package):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        found += (Path(top, name) for name in sorted(files))
        if len(found) > _ENTRIES_LIMIT:
            break
    return found


def missing_launch_files(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """One finding a launch command whose launch file its package in the repository does not have (see
    the module's docstring), `certain`."""
    commands = list(_commands(doc))
    if not commands:
        return
    packages = ros_packages(directory, {match.group(3) for _, match in commands})
    if not packages:
        return
    dockerfiles = [r[0] for m in models if m.file and (r := dockerfile_read(m.file)) is not None]
    seen: dict[tuple[str, str, str], list[int]] = {}
    for line, match in commands:
        if match.group(3) in packages:
            seen.setdefault((match.group(1), match.group(3), match.group(4)), []).append(line)
    # Each is read once, not once a launch file: a name is said where a run of `_SAID` is the name.
    in_readme = Counter(_SAID.findall(text))
    in_commands = Counter(_SAID.findall(" ".join(m.group() for _, m in commands)))
    files_of: dict[str, list[Path]] = {}
    names_of: dict[str, tuple[set[str], set[str]]] = {}  # a package → (its files' names, words)
    for (tool, package, name), lines in seen.items():
        folders = packages[package]
        if package not in files_of:
            files_of[package] = [f for folder in folders for f in _files_of(folder)]
            names_of[package] = (
                {f.name for f in files_of[package]},
                {w for f in files_of[package] for w in _SAID.findall(text_or_none(f) or "")},
            )
        files = files_of[package]
        file_names, file_words = names_of[package]
        if name in file_names or any(name in t for t in dockerfiles):
            continue
        if in_readme[name] > in_commands[name]:
            continue  # the README names the file elsewhere: a step of it may write it
        if name in file_words:
            continue  # the package names it: a build step may make it
        launches = sorted(
            str(f.relative_to(folders[0]))
            for f in files
            if f.parent == folders[0] / "launch" or ".launch" in f.name
        )
        has = (
            f"it has {', '.join(launches[:_SHOWN])}{' …' if len(launches) > _SHOWN else ''}"
            if launches
            else "it has no launch file"
        )
        where = folders[0].relative_to(directory).as_posix()
        yield Diagnostic(
            readme,
            lines[0],
            f"README runs `{tool} {package} {name}`, but package {package} ({where}) has no {name}: "
            f"{has}{also_at(lines)}",
            confidence=CERTAIN,
        )
