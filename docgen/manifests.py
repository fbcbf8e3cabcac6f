"""Pins in the manifests a Dockerfile installs, read from its build context.

A `RUN pip install -r requirements.txt` (or `uv pip install -r`, conda `--file`) after `COPY
requirements.txt .` installs what that file pins; `pip install .` (`-e .`, `uv pip install .`, `uv
sync`) after `COPY pyproject.toml .` installs the project's PEP 621 `dependencies` (and the optional
extras it names, `.[serve]`, `--extra serve`). The components of the Dockerfile list such a file as one
row (`method` `requirements`) or not at all: its pins are not the Dockerfile's text. This module reads
them as facts of the image (`ManifestPin`), each at the manifest's own line, for the rules that compare
a README's versions (`docgen audit`).

Which manifests each RUN installs, and where, is the extraction's reading of the command
(`ImageModel.installs`, recorded by `docgen.sources.pip`, `conda` and `tools`): heredoc scripts, `cd`
and paths build args give are followed as for the components. The build context is the Dockerfile's
folder (as `docker build -f DIR/Dockerfile DIR`). Only files a COPY or ADD of the context puts where
the install reads them are read, as `docgen.copied` reads a copy (globs, folders, the `.dockerignore`,
no link out of the context); a path only the shell knows, a file outside the context or one that is
not there leaves nothing. Requirements are read with
`docgen.sources.pip.requirement` (`packaging` for all but the plain forms); only exact pins (`==`,
`===`) are kept.
"""

from __future__ import annotations

import bisect
import functools
import os
import posixpath
import sys
from collections.abc import Sequence
from pathlib import Path

from docgen.copied import IgnoreRules, dockerignore, placed, put_paths
from docgen.dockerfile import decode_dockerfile, parse_dockerfile, read_dockerfile_bytes
from docgen.errors import DocgenError
from docgen.files import real_path, text_or_none
from docgen.model import ContextCopy, Instruction, ManifestInstall, ManifestPin
from docgen.sources.pip import requirement

_NESTED = 3
"""How deep `-r other.txt` lines inside a requirements file are followed."""


@functools.lru_cache(maxsize=64)
def manifest_pins(
    file: str, shown: str, installs: tuple[ManifestInstall, ...], copies: tuple[ContextCopy, ...]
) -> tuple[ManifestPin, ...]:
    """The exact pins of the manifests the Dockerfile at `file` (shown as `shown`) installs from its
    build context (`installs`, as the extraction read its RUNs: `ImageModel.installs`; what its COPYs
    put where, `copies`: `ImageModel.context_copies`), in Dockerfile order; () when it cannot be
    read or installs none."""
    if not installs:
        return ()
    try:
        text = decode_dockerfile(read_dockerfile_bytes(Path(file), file), file)
        parsed = parse_dockerfile(text, file)
    except DocgenError:
        return ()
    context = Path(file).parent.resolve()  # every path below is compared with it resolved
    folder = posixpath.dirname(shown)
    found: list[ManifestPin] = []
    copied = {copy.line: copy for copy in copies}
    rules = dockerignore(context, file)
    stages: dict[str, _Stage] = {}
    ordered = sorted(installs, key=lambda install: install.line)  # each RUN's found by its lines
    state = _Stage("#0")
    index = -1
    for inst in parsed.instructions:
        if inst.keyword == "FROM":
            index += 1
            words = inst.args.split()
            parent = stages.get(words[0].lower()) if words else None
            label = words[2].lower() if len(words) > 2 and words[1].lower() == "as" else f"#{index}"
            state = _Stage(label, parent.workdir if parent else "/", parent)
            stages[label] = state
        elif inst.keyword == "WORKDIR" and "$" not in inst.args:
            state.workdir = posixpath.normpath(posixpath.join(state.workdir, inst.args.strip().strip("\"'")))
        elif inst.start_line in copied:
            state.add(copied[inst.start_line], context)
        elif inst.keyword == "RUN":
            mounts = _bind_mounts(inst, state.workdir, context)
            first = bisect.bisect_left(ordered, inst.start_line, key=lambda install: install.line)
            last = bisect.bisect_right(ordered, inst.end_line, key=lambda install: install.line)
            for install in ordered[first:last]:
                try:
                    local = state.source_of(install.path, context, rules, mounts)
                    if install.kind == "project" and (local is None or os.path.isdir(local)):
                        local = state.source_of(
                            posixpath.join(install.path, "pyproject.toml"), context, rules, mounts
                        )
                    pins = _read(install.kind, local, install.extras) if local is not None else []
                except (OSError, ValueError):
                    continue  # a file that cannot be read (a loop of links, no permission) pins nothing
                for name, version, line, path in pins:
                    if not path.is_relative_to(context):
                        continue  # a `-r ../x.txt` out of the build context: not in it
                    shown_file = posixpath.join(folder, path.relative_to(context).as_posix())
                    found.append(ManifestPin(name, version, shown_file, line, inst.start_line, state.label))
    return tuple(found)


_Mount = tuple[str, Path, bool]
"""(path in the image, path in the build context, whether it is a folder) of a RUN's bind mount."""


def _bind_mounts(inst: Instruction, workdir: str, context: Path) -> list[_Mount]:
    """The build-context files a RUN's `--mount=type=bind,source=S,target=T` (no `from`) shows at T
    (`context` resolved)."""
    found: list[_Mount] = []
    for flag in inst.flags_named("mount"):
        options = flag.options()
        if options.get("type") != "bind" or "from" in options or "$" in (flag.value or "$"):
            continue  # a cache or secret mount, another stage's files, a path only the build knows
        target = options.get("target") or options.get("dst") or options.get("destination")
        if not target:
            continue
        local = real_path(context / options.get("source", options.get("src", ".")).lstrip("/"))
        if local.is_relative_to(context) and os.path.exists(local):
            found.append((posixpath.normpath(posixpath.join(workdir, target)), local, os.path.isdir(local)))
    return found


class _Stage:
    """Where a stage's RUNs run and what puts build-context files in the image: its COPYs (read by
    `docgen.copied.placed`)."""

    def __init__(self, label: str, workdir: str = "/", parent: _Stage | None = None):
        self.label = label
        self.workdir = workdir
        self.copies: list[tuple[str, ContextCopy]] = list(parent.copies) if parent else []
        """(the WORKDIR it runs in, the COPY or ADD of the build context), latest last."""
        self.files: dict[str, tuple[int, ...]] = dict(parent.files) if parent else {}
        """The copies (places in `copies`) that put a file at a path of the image (`copied.put_paths`)."""
        self.folders: dict[str, tuple[int, ...]] = dict(parent.folders) if parent else {}
        """The copies that put a folder at a path of the image."""

    def add(self, copy: ContextCopy, context: Path) -> None:
        """Take in the COPY or ADD `copy` of the build context `context` (resolved), run in the WORKDIR."""
        self.copies.append((self.workdir, copy))
        try:
            puts = put_paths(context, copy, self.workdir)
        except (OSError, ValueError, NotImplementedError):
            return  # `placed` raises on it too: nothing copied is known
        for at, whole in puts:
            index = self.folders if whole else self.files
            index[at] = (*index.get(at, ()), len(self.copies) - 1)

    def source_of(
        self, where: str, context: Path, rules: IgnoreRules = (), mounts: Sequence[_Mount] = ()
    ) -> Path | None:
        """The build-context file or folder at `where` in the image (`context` resolved, `rules` its
        `.dockerignore`), when a bind mount of the RUN (`mounts`) shows it there or a COPY put it there."""
        for image, local, folder in reversed(mounts):
            if where == image:
                return local
            if folder and where.startswith(image.rstrip("/") + "/"):
                found = real_path(local / posixpath.relpath(where, image))
                return found if found.is_relative_to(context) and os.path.exists(found) else None
        # only the copies that put a file at `where` or a folder at or above it can have put it there
        # (asking `placed` of every copy is quadratic in a long chain of stages)
        ends = [i + 1 for i, letter in enumerate(where) if letter == "/"]
        heads = {where, *(where[: max(end - 1, 1)] for end in ends)}
        maybe = {*self.files.get(where, ()), *(i for head in heads for i in self.folders.get(head, ()))}
        for i in sorted(maybe, reverse=True):
            workdir, copy = self.copies[i]
            try:
                put = placed(context, copy, where, workdir, rules)
            except (OSError, ValueError, NotImplementedError):
                continue  # a pattern `glob` refuses, a folder that cannot be read: nothing copied is known
            if put is not None:
                return put
        return None


def _read(kind: str, local: Path, extras: tuple[str, ...]) -> list[tuple[str, str, int, Path]]:
    """(name, version, line, file) of the exact pins of the manifest at `local`."""
    if kind == "project":
        pyproject = local / "pyproject.toml" if os.path.isdir(local) else local
        return _pyproject(pyproject, extras) if pyproject.name == "pyproject.toml" else []
    return _requirements(local, _NESTED)


def _requirements(path: Path, depth: int) -> list[tuple[str, str, int, Path]]:
    """The exact pins of a requirements file, and of the files its `-r` lines name."""
    text = text_or_none(path)
    if text is None:
        return []
    found: list[tuple[str, str, int, Path]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].split("\t#", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-"):
            option, _, value = line.replace("=", " ", 1).partition(" ")
            if option in ("-r", "--requirement") and value.strip() and depth > 0:
                found.extend(_requirements(path.parent / value.strip(), depth - 1))
            continue
        parsed = requirement(line)
        if parsed is not None and parsed[2] is not None and parsed[1] is None:
            found.append((parsed[0], parsed[2], number, path.resolve()))
    return found


def _pyproject(path: Path, extras: tuple[str, ...]) -> list[tuple[str, str, int, Path]]:
    """The exact pins of a PEP 621 project's `dependencies` and of the optional extras named."""
    text = text_or_none(path)
    if text is None:
        return []
    if sys.version_info >= (3, 11):  # imported here: only a project install needs it
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        project = tomllib.loads(text).get("project", {})
    except tomllib.TOMLDecodeError:
        return []
    if not isinstance(project, dict):
        return []
    wanted = list(project.get("dependencies") or [])
    optional = project.get("optional-dependencies") or {}
    for extra in extras:
        if isinstance(optional, dict):
            wanted.extend(optional.get(extra) or [])
    lines = text.splitlines()
    found: list[tuple[str, str, int, Path]] = []
    for item in wanted:
        if not isinstance(item, str):
            continue
        parsed = requirement(item)
        if parsed is None or parsed[2] is None or parsed[1] is not None:
            continue
        number = next((n for n, line in enumerate(lines, 1) if f'"{item}"' in line or f"'{item}'" in line), 0)
        if number:
            found.append((parsed[0], parsed[2], number, path.resolve()))
    return found
