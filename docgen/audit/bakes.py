"""`docker buildx bake` commands in a README's command blocks: the targets and groups they name, against
the bake file they read (`-f FILE`, else the bake files `docker buildx bake` reads in the README's
folder).
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import bake, compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_commands, joined, moves
from docgen.audit.memo import per_audit
from docgen.audit.paths import resolves_inside
from docgen.errors import MAX_FILE_BYTES, DocgenError
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import shell_split

_BAKE = re.compile(r"\b(?:docker[ \t]+(?:buildx[ \t]+)?bake|docker-buildx[ \t]+bake)\b")
_TAKES_VALUE = frozenset(
    {"-f", "--file", "--set", "--progress", "--builder", "--metadata-file", "--allow", "--call", "--list"}
    | {"--provenance", "--sbom", "--var"}
)
"""The options of `docker buildx bake` followed by a value (the rest are flags or `--x=value`)."""
_NOT_A_NAME = re.compile(r"[$<>{}*?\[\]]")
"""A placeholder or a variable a reader fills in: `<target>`, `${TARGET}`, `{variant}`."""
_OVERRIDES = ("docker-bake.override.json", "docker-bake.override.hcl")


def bake_targets(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A target or group a `docker buildx bake` command of a command block names (`docker buildx bake
    -f docker-bake.hcl cu118-torch212`) that the bake file it reads does not define (`certain`), with the
    closest name it does. Not checked: a command after a `cd` in its block (it may read another folder's
    files), a bake file that cannot be read, and a folder whose compose files bake also reads when no
    `-f` is given. The targets a `matrix` makes are defined, by their names, as is the matrix target's own
    name (the group of them)."""
    for fence in doc.fences:
        moved = [line for line, _ in moves(fence)]
        for command in build_commands(fence, _BAKE):
            if not moved or moved[0] > command[-1][0]:
                yield from _check(command, directory, readme, project)


def _check(
    command: list[tuple[int, str]], directory: Path, readme: str, project: Path | None
) -> Iterator[Diagnostic]:
    whole = joined(command)
    match = _BAKE.search(whole)
    if match is None:
        return
    try:
        words = shell_split(re.split(r"&&|\|\||;|\|", whole[match.end() :])[0], comments=True)
    except ValueError:
        return
    files: list[str] = []
    names: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word in _TAKES_VALUE:
            if word in ("-f", "--file") and at + 1 < len(words):
                files.append(words[at + 1])
            at += 2
            continue
        if word.startswith(("-f=", "--file=")):
            files.append(word.split("=", 1)[1])
        elif not word.startswith("-"):
            names.append(word)
        at += 1
    names = [n for n in names if not _NOT_A_NAME.search(n)]
    if not names:
        return
    if files:
        paths = [directory / f for f in files]
    else:
        if any(os.path.isfile(directory / n) for n in compose.DEFAULT_FILES):
            return
        paths = [directory / n for n in (*bake.DEFAULT_FILES, *_OVERRIDES)]
    defined = _defined(tuple(paths), (project or directory).resolve())
    if defined is None:
        return
    for name in names:
        if name in defined:
            continue
        close = difflib.get_close_matches(name, sorted(defined), n=1, cutoff=0.6)
        shown = ", ".join(p.name for p in paths if os.path.isfile(p))
        said = f"README bakes {name}, which {shown} does not define"
        said += f" (did you mean {close[0]}?)" if close else f" (it defines {', '.join(sorted(defined)[:8])})"
        yield Diagnostic(readme, command[0][0], said, confidence=CERTAIN)


@per_audit(maxsize=32)
def _defined(paths: tuple[Path, ...], top: Path) -> frozenset[str] | None:
    """The target and group names the bake files at `paths` define (those that exist), or None when none
    exists, one is outside the folder `top` (symlinks resolved) or cannot be read (a `matrix` target
    whose `name` calls a function …). A `matrix` target defines the targets it makes and its own name (the
    group of them). Read once for every command of a README that names the same files."""
    found: set[str] = set()
    read = False
    for path in paths:
        if not resolves_inside(path, top):
            return None
        if not os.path.isfile(path):
            if path.name not in _OVERRIDES and path.name not in bake.DEFAULT_FILES:
                return None  # a `-f` file that is not there: another rule's concern
            continue
        parsed = _parsed(path)
        if parsed is None:
            return None
        read = True
        found.update(parsed.names)
        found.update(parsed.groups)
    return frozenset(found) if read else None


_REGISTRY = re.compile(r"^(?:(?:index\.)?docker\.io|registry-1\.docker\.io)/")
"""Docker Hub's host, which an image name may leave out (`docker.io/acme/app:1` is `acme/app:1`)."""
_MAKES = re.compile(r"\b(?:mkdir|cp|mv|ln|touch|tee|sed|envsubst|make|python3?|bash|sh|\./)\b|>")
"""A command that may make a file it names (a generator writing the Dockerfile first)."""


def bake_dockerfiles(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """An image a README names (one of a bake target's `tags`, `docker.io/` or not) or builds (a
    `docker buildx bake` naming the target or a group holding it, or none: the default group) whose
    target in the bake file of the README's folder has a Dockerfile that is not there: the image cannot
    be built. Silent: targets the README never names, a bake file that cannot be read, a Dockerfile (or
    its folder) a command of the README names before (a step may make it) or another file beside the
    bake file names (a generator), a URL or absolute Dockerfile."""
    top = (project or directory).resolve()
    found = _folder_bake(directory, top)
    if found is None:
        return
    bake_file, parsed, targets = found
    lost: dict[str, bake.Target] = {}
    for name, target in targets.items():
        dockerfile = target.dockerfile
        if posixpath.isabs(dockerfile) or dockerfile.startswith("../") or _NOT_A_NAME.search(dockerfile):
            continue
        place = directory / dockerfile
        if not resolves_inside(place, top) or os.path.exists(place):
            continue
        lost[name] = target
    if not lost:
        return
    named = _generated(directory, bake_file, lost)
    lost = {n: t for n, t in lost.items() if n not in named}
    told: set[str] = set()
    for line, name, how in _named_targets(doc, parsed, lost, directory):
        if name in told:
            continue
        target = lost[name]
        folder = target.dockerfile.rsplit("/", 1)[0] if "/" in target.dockerfile else target.dockerfile
        if _made_before(doc, line, target.dockerfile, folder):
            continue
        told.add(name)
        at = parsed._line("target", name, "dockerfile")  # noqa: SLF001 - the bake reader's line finder
        where = f"{bake_file.name}:{at}" if at else bake_file.name
        said = (
            f"README {how}, built by bake target {name}, whose Dockerfile {target.dockerfile} ({where}) is "
            "not in the project: the image cannot be built"
        )
        yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _folder_bake(directory: Path, top: Path) -> tuple[Path, bake.BakeFile, dict[str, bake.Target]] | None:
    """The one default bake file of `directory` (inside `top`), parsed, with its image targets by name
    (a target that cannot be resolved left out); None with none, several, or one that cannot be read."""
    paths = [directory / n for n in bake.DEFAULT_FILES if os.path.isfile(directory / n)]
    if len(paths) != 1 or not resolves_inside(paths[0], top):
        return None
    parsed = _parsed(paths[0])
    if parsed is None:
        return None
    targets: dict[str, bake.Target] = {}
    for name in parsed.images():
        try:
            targets[name] = parsed.target(name)
        except (DocgenError, KeyError):
            continue
    return paths[0], parsed, targets


@per_audit(maxsize=8)
def _parsed(path: Path) -> bake.BakeFile | None:
    """The bake file at `path`, parsed once an audit for every rule reading it (`bake_targets`,
    `bake_dockerfiles`, `bake_unpinned`, `bake_contexts`); None when it is larger than docgen reads or
    cannot be read or parsed."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return bake.parse(path.read_bytes(), path.name)
    except (OSError, DocgenError):
        return None


def _generated(directory: Path, bake_file: Path, lost: dict[str, bake.Target]) -> set[str]:
    """The lost targets whose Dockerfile another file beside the bake file names (a script or Makefile
    that may write it)."""
    found: set[str] = set()
    try:
        entries = sorted(os.listdir(directory))[:200]
    except OSError:
        return found
    for entry in entries:
        place = directory / entry
        if place == bake_file or entry.lower().endswith((".md", ".rst", ".txt")) or not os.path.isfile(place):
            continue
        try:
            if place.stat().st_size > MAX_FILE_BYTES:
                continue
            text = place.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        found.update(n for n, t in lost.items() if t.dockerfile.removeprefix("./") in text)
    return found


def _made_before(doc: Document, line: int, dockerfile: str, folder: str) -> bool:
    """True when a command-block line of the README before `line` that may make files names the
    Dockerfile or its folder (`mkdir cu118`, `./gen.sh cu118/Dockerfile`)."""
    words = {dockerfile.removeprefix("./"), folder.removeprefix("./")}
    pattern = re.compile("|".join(rf"(?<![\w.-]){re.escape(w)}(?![\w-])" for w in words if w))
    for fence in doc.fences:
        for number, text in fence.lines:
            if number >= line:
                break
            if _BAKE.search(text) is None and _MAKES.search(text) and pattern.search(text):
                return True
    return False


def _named_targets(
    doc: Document, parsed: bake.BakeFile, lost: dict[str, bake.Target], directory: Path
) -> Iterator[tuple[int, str, str]]:
    """(README line, lost target, how the README names it) for each image name of a lost target the
    README writes, and each lost target a `docker buildx bake` of the README's folder builds."""
    tags: dict[str, str] = {}
    for name, target in lost.items():
        for tag in target.tags:
            tags.setdefault(_REGISTRY.sub("", tag), name)
            tags.setdefault(tag, name)
    pattern = (
        re.compile("|".join(rf"(?<![\w./:-]){re.escape(t)}(?![\w.:/-])" for t in sorted(tags, key=len)[::-1]))
        if tags
        else None
    )
    found: list[tuple[int, str, str]] = []
    for fence in doc.fences:
        moved = [line for line, _ in moves(fence)]
        for command in build_commands(fence, _BAKE):
            if moved and moved[0] <= command[-1][0]:
                continue
            built = _baked(command, parsed)
            for name in built:
                if name in lost:
                    found.append((command[0][0], name, f"bakes {name}"))
    if pattern is not None:
        rows = [row for fence in doc.fences for row in fence.lines]
        rows += [row for paragraph in doc.paragraphs for row in paragraph.lines]
        for number, text in rows:
            for match in pattern.finditer(text):
                tag = match.group(0)
                found.append((number, tags[tag], f"names the image {tag}"))
    yield from sorted(found)


def _baked(command: list[tuple[int, str]], parsed: bake.BakeFile) -> tuple[str, ...]:
    """The targets a `docker buildx bake` command with no `-f` builds: those it names, groups expanded, or
    the default ones."""
    whole = joined(command)
    match = _BAKE.search(whole)
    if match is None:
        return ()
    try:
        words = shell_split(re.split(r"&&|\|\||;|\|", whole[match.end() :])[0], comments=True)
    except ValueError:
        return ()
    names: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word in _TAKES_VALUE:
            if word in ("-f", "--file"):
                return ()  # another bake file: `bake_targets` reads it
            at += 2
            continue
        if word.startswith(("-f=", "--file=")):
            return ()
        if not word.startswith("-"):
            names.append(word)
        at += 1
    if any(_NOT_A_NAME.search(n) for n in names):
        return ()
    try:
        return parsed.expand(names) if names else parsed.default()
    except (DocgenError, KeyError):
        return ()


_STATED = re.compile(r"(?<![\w.-])([A-Za-z][\w-]*)[ \t]+v?(\d+\.\d+(?:\.\d+)?)(?![\w.])")
"""A component and its version as a line writes it (`Torch 2.3.0`, `CUDA 11.8.0`)."""


def bake_unpinned(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A version a README line gives a component of an image it names by a bake target's tag (`CUDA
    11.8.0 & Torch 2.3.0   acme/base:cu118-torch230`) while that target's build arg lists the package
    with no version (`TORCH_VER = "torch torchvision torchaudio"`) and another target of the file pins it
    in the same arg (`torch==2.2.2`): pip installs whatever release is newest, not the one said
    (`likely`). Silent: a version the arg pins, a package no other target pins there, a target the README
    never names, a bake file that cannot be read."""
    found = _folder_bake(directory, (project or directory).resolve())
    if found is None:
        return
    bake_file, _, targets = found
    pins: dict[tuple[str, str], str] = {}  # (build arg, package) → a pin another target gives it
    for target in targets.values():
        for arg, value in target.args.items():
            for word in str(value).split():
                pinned = re.fullmatch(r"([A-Za-z][\w.-]*)==([\w.+-]+)", word)
                if pinned is not None:
                    pins.setdefault((arg, pinned.group(1).lower()), word)
    if not pins:
        return
    tags: dict[str, str] = {}
    for name, target in targets.items():
        for tag in target.tags:
            tags.setdefault(_REGISTRY.sub("", tag), name)
    if not tags:
        return
    pattern = re.compile(
        "|".join(rf"(?<![\w./:-]){re.escape(t)}(?![\w.:/-])" for t in sorted(tags, key=len)[::-1])
    )
    rows = [row for fence in doc.fences for row in fence.lines]
    rows += [row for paragraph in doc.paragraphs for row in paragraph.lines]
    rows += [(number, " | ".join(cells)) for table in doc.tables for number, cells in table.rows]
    for number, text in sorted(rows):
        named = {tags[m.group(0)] for m in pattern.finditer(text)}
        if len(named) != 1:
            continue
        name = named.pop()
        target = targets[name]
        for stated in _STATED.finditer(text):
            package = stated.group(1).lower()
            for arg, value in target.args.items():
                words = [w.lower() for w in str(value).split()]
                other = pins.get((arg, package))
                if package not in words or other is None:
                    continue
                at = target.own_args.get(arg)
                where = f"{bake_file.name}:{at}" if at else bake_file.name
                said = (
                    f"README says {stated.group(0)} for the image of bake target {name}, but its "
                    f"build arg {arg} ({where}) installs {stated.group(1)} with no version "
                    f"(`{value}`) while another target pins it (`{other}`): pip installs the newest release"
                )
                yield Diagnostic(readme, number, said, confidence=LIKELY)
                break


_NOT_A_FOLDER = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[a-z][a-z0-9+-]*:|git@)", re.IGNORECASE)
"""A named context that is no local folder: `target:base`, `docker-image://…`, `oci-layout://…`, a URL."""


def bake_contexts(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A named context (`contexts = { scripts = "../../common" }`) of a bake target a `docker buildx bake`
    of the README builds (a command block's or a code span's: `simply run `docker buildx bake``, the
    default group) whose folder, relative to the bake file, is not in the project, while the target's
    Dockerfile copies from that context (`COPY --from=scripts`): the build cannot find it. `certain` for
    a folder inside the project that does not exist, `likely` for one above the project's root (the
    project's checkout does not hold it). Silent for a context that is a target, an image or a URL, one
    with a placeholder, and a bake file that cannot be read."""
    top = (project or directory).resolve()
    found = _folder_bake(directory, top)
    if found is None:
        return
    bake_file, parsed, targets = found
    lost: dict[str, list[tuple[str, str, bool]]] = {}
    for name, target in targets.items():
        for key, value in target.contexts.items():
            if _NOT_A_FOLDER.match(value) or _NOT_A_NAME.search(value) or posixpath.isabs(value):
                continue
            place = Path(posixpath.normpath(posixpath.join(str(directory), value)))
            outside = not resolves_inside(place, top)
            if outside or not os.path.exists(place):
                lost.setdefault(name, []).append((key, value, outside))
    if not lost:
        return
    commands = [
        (line, name)
        for line, name, _ in _named_targets(doc, parsed, {n: targets[n] for n in lost}, directory)
    ]
    for para in doc.paragraphs:
        for line, text in para.lines:
            for _, _, code in code_spans(text):
                if _BAKE.search(code) and not _NOT_A_NAME.search(code):
                    commands += [(line, n) for n in _baked([(line, code)], parsed) if n in lost]
    read: dict[Path, list[str] | None] = {}  # each Dockerfile's lines, read once for every README line
    told: set[str] = set()
    for line, name in sorted(commands):
        if name in told:
            continue
        dockerfile = directory / targets[name].dockerfile
        if dockerfile not in read:
            body = text_or_none(dockerfile) if os.path.isfile(dockerfile) else None
            read[dockerfile] = body.splitlines() if body is not None else None
        rows = read[dockerfile]
        if rows is None:
            continue
        said: list[str] = []
        outside_all = True
        for key, value, outside in lost[name]:
            use = next(
                (
                    number
                    for number, row in enumerate(rows, start=1)
                    if re.search(rf"--from=[\"']?{re.escape(key)}(?![\w.-])", row)
                ),
                None,
            )
            if use is None:
                continue
            where = "above the project's root" if outside else "not in the project"
            said.append(f"{key} = {value} ({where}; {targets[name].dockerfile}:{use} COPY --from={key})")
            outside_all = outside_all and outside
        if not said:
            continue
        told.add(name)
        at = parsed._line("target", name, "contexts")  # noqa: SLF001 - the bake reader's line finder
        shown = f"{bake_file.name}:{at}" if at else bake_file.name
        yield Diagnostic(
            readme,
            line,
            f"README bakes {name}, whose named contexts ({shown}) point at folders the project's checkout "
            f"does not hold: {'; '.join(said)}: the build cannot find them",
            confidence=LIKELY if outside_all else CERTAIN,
        )
