"""Services and profiles a README's `docker compose` commands name, against the compose files those
commands read: `docker compose up -d web-cpu` when the file defines `web` only, `--profile gpu` when no
service has that profile, and `docker compose exec worker …` after a `docker compose up` that does not
start `worker` (it is only in a profile the command does not enable). A program where the service of
`docker compose run|exec` goes (`docker compose run --rm /bin/bash`) is told as the service left out.
The commands are those of command blocks, inline code, and prose lines that are a command
(`commands.bare_commands`).

The files a command reads are its `-f` files, else the files compose reads in the folder it runs from
without one (`compose.default_files`: the first default file, with the first override file). A
command is not read when it may run from another folder (a `cd` before it in the README, but into the
clone the README makes of its own repository), when a file it reads is not there, cannot be read or
includes other files (`include:`), or when the README writes a compose file itself.

And a variable set in front of such a command (`OS_API_KEY=x docker compose up -d`) that none of the
files it reads names (`_unread_in_front`): it never reaches a container. And a service a `docker compose
build` names that those files give an `image:` and no `build:` (`_built_nothing`): compose skips it.
"""

from __future__ import annotations

import bisect
import difflib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import (
    bare_commands,
    build_commands,
    cloned_folder,
    clones,
    command_words,
    joined,
    moves,
)
from docgen.audit.grammar import COMPOSE, read_compose
from docgen.audit.names import compose_file
from docgen.audit.paths import resolves_inside
from docgen.audit.references import SET_IN_FRONT
from docgen.errors import DocgenError
from docgen.files import text_or_none
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic

_NOT_A_NAME = re.compile(r"[$<>{}\[\]*?|]|\A(?:service|services|service[-_]name|name|container)\Z", re.I)
"""A placeholder a reader fills in: `<service>`, `${SERVICE}`, `service_name`."""
_PROFILES_SET = re.compile(r"\bCOMPOSE_PROFILES=[\"']?([\w.,-]+)")
_WRITES_COMPOSE = re.compile(r"(?:>|\btee[ \t]+(?:-a[ \t]+)?)[ \t]*\S*compose[\w.-]*\.ya?ml\b")
"""A command that writes a compose file (`cat > docker-compose.yml <<EOF`)."""


@dataclass(frozen=True)
class _Call:
    """One compose command of a README: what it reads, enables and names."""

    line: int
    files: tuple[str, ...]
    """Its `-f` files, in order (none: the folder's default file)."""
    profiles: tuple[str, ...]
    """The profiles it enables (`--profile`, before or after the verb, and `COMPOSE_PROFILES=`)."""
    verb: str
    services: tuple[str, ...]
    """The services it names."""
    elsewhere: bool
    """True when it reads files it does not name (`--project-directory`, `COMPOSE_FILE=`)."""
    complete: bool = True
    """Every option it gives is known, so its verb and services are right."""


def _call(command: list[tuple[int, str]], enabled: Sequence[str]) -> _Call | None:
    """The compose command of `command` (its lines), None when there is none or its words cannot be
    told (`commands.command_words`)."""
    text = joined(command)
    match = COMPOSE.search(text)
    words = command_words(command, COMPOSE)
    if match is None or words is None:
        return None
    head = text[: match.start()]
    profiles = [p for m in _PROFILES_SET.finditer(head) for p in m.group(1).split(",") if p]
    call = read_compose(words)
    elsewhere = "COMPOSE_FILE=" in head or any(w.partition("=")[0] == "--project-directory" for w in words)
    profiles += [*enabled, *call.profiles]
    return _Call(
        command[0][0], call.files, tuple(profiles), call.verb or "", call.services, elsewhere, call.complete
    )


def _read(path: Path) -> tuple[compose.Service, ...] | None:
    """The services of the compose file at `path`, None when it is not there, cannot be read, or
    includes other files."""
    read = compose_file(path)
    return None if read is None or read[1] else read[0]


def _files(call: _Call, folder: Path, top: Path) -> list[Path] | None:
    """The compose files `call` reads from `folder`, None when they cannot all be read (or one is
    outside `top`)."""
    if call.files:
        paths = [compose.run_folder(folder, call.files, top) / f for f in call.files]
    else:
        paths = compose.default_files(folder)
        if not paths:
            return None  # Compose looks in the folders above: not read
    return paths if all(resolves_inside(path, top) for path in paths) else None


def _moves(doc: Document, directory: Path, top: Path) -> list[tuple[int, bool]]:
    """(README line, back home) of the `cd` commands that may take a later command to another folder:
    not one into the clone of a repository the README makes (`git clone …/repo && cd repo`). For a
    README in a subfolder of the project, a `cd` into a folder of that subfolder's name (`cd docker`,
    `cd ~/src/app/docker/` for `docker/README.md`) is back home: it enters the README's own folder, so
    the commands after it read its files again (`back home` True)."""
    cloned = {name for url, folder in clones(doc) for name in (folder, cloned_folder(url)) if name}
    here = directory.resolve()
    own = here.name if here != top and top in here.parents else None
    found = [
        (line, own is not None and folder.strip("\"'").rstrip("/").rsplit("/", 1)[-1] == own)
        for fence in doc.fences
        for line, folder in moves(fence)
        if folder.strip("/\"'").removesuffix(".git") not in cloned
    ]
    return sorted(found)


class _Moves:
    """`_moves` of a README, read for each compose command: which was the last `cd` at or before a line
    is found by a binary search over them sorted by line, not by reading them all again."""

    def __init__(self, moves: list[tuple[int, bool]]) -> None:
        self._moves = moves
        order = sorted(range(len(moves)), key=lambda index: moves[index][0])
        self._lines = [moves[index][0] for index in order]
        self._last: list[int] = []  # the last of `moves` (in their order) among the first k+1 by line
        for index in order:
            self._last.append(max(index, self._last[-1]) if self._last else index)

    def away(self, line: int) -> bool:
        """True when the last `cd` at or before README `line` may have left the README's folder."""
        count = bisect.bisect_right(self._lines, line)
        return bool(count) and not self._moves[self._last[count - 1]][1]


def _shown_services(doc: Document, readme: str) -> set[str] | None:
    """The services of the compose examples of the README (a YAML block with `services:`), which the
    reader may be meant to add to a file (those that could run alone, `_whole`); None when a block writes
    a compose file (`cat > docker-compose.yml`), or shows one that cannot be read: the file the commands
    read may be that."""
    found: set[str] = set()
    for fence in doc.fences:
        if any(_WRITES_COMPOSE.search(text) for _, text in fence.lines):
            return None
        if fence.lang in ("yaml", "yml", "compose", "") and any(
            text.startswith("services:") for _, text in fence.lines
        ):
            try:
                shown = compose.services("\n".join(t for _, t in fence.lines).encode("utf-8"), readme)
            except DocgenError:
                return None
            found.update(s.name for s in shown if _whole(s))
    return found


def _whole(service: compose.Service) -> bool:
    """True when a README's example service could stand as a service of its own: it has an `image:`,
    a `build:` or `extends:`. One with neither (`lora-training:` with only `runtime: nvidia`) is a
    change to a service of the project's file (a snippet under `# In docker-compose.yaml`), which
    Compose could not run alone: its name is no service the reader adds."""
    return service.image is not None or service.builds or any(k == "extends" for k, _ in service.settings)


def compose_services(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A service or profile a `docker compose` command of a command block names that the compose files
    it reads do not define (`certain`), with the closest name they do; and a service a later `exec`,
    `logs` or `run` of the same block names that the block's `docker compose up` did not start, being
    only in profiles that command does not enable (`likely`). See the module docstring for what is not
    read."""
    shown_services = _shown_services(doc, readme)
    if shown_services is None:
        return
    top = (project or directory).resolve()
    moves = _Moves(_moves(doc, directory, top))
    for fence in doc.fences:
        yield from _block(_fence_commands(fence), readme, directory, top, moves, shown_services)
    inline = [
        [(line, code)]
        for para in doc.paragraphs
        for line, text in para.lines
        if "`" in text
        for _, _, code in code_spans(text)
        if COMPOSE.search(code)
    ]
    inline += [
        [(line, code)]
        for table in doc.tables
        for line, cells in table.rows
        for cell in cells
        if "`" in cell
        for _, _, code in code_spans(cell)
        if COMPOSE.search(code)
    ]
    inline += [[(line, command)] for line, command in bare_commands(doc, COMPOSE)]
    for command in inline:
        yield from _block([(command, [])], readme, directory, top, moves, shown_services)


_EXPORTED = re.compile(r"[ \t]*export[ \t]+COMPOSE_PROFILES=[\"']?([\w.,-]+)")


def _fence_commands(fence: Fence) -> list[tuple[list[tuple[int, str]], list[str]]]:
    """The compose commands of a command block, each with the profiles an `export COMPOSE_PROFILES=`
    before it enables."""
    found: list[tuple[list[tuple[int, str]], list[str]]] = []
    # each export's line and profiles, read once for all the block's commands (not again for each)
    exports = [(n, m.group(1).split(",")) for n, text in fence.lines if (m := _EXPORTED.match(text))]
    for command in build_commands(fence, COMPOSE):
        line = command[0][0]
        exported = [p for n, profiles in exports if n < line for p in profiles]
        found.append((command, exported))
    return found


def _block(
    commands: list[tuple[list[tuple[int, str]], list[str]]],
    readme: str,
    directory: Path,
    top: Path,
    moves: _Moves,
    shown_services: set[str],
) -> Iterator[Diagnostic]:
    """The findings of the compose commands of one command block, or of one inline command (see
    `compose_services`)."""
    started: dict[tuple[Path, ...], tuple[int, frozenset[str]]] = {}  # files → (line of `up`, profiles)
    for command, exported in commands:
        line = command[0][0]
        call = _call(command, exported)
        if call is None or call.elsewhere or moves.away(line):
            continue
        paths = _files(call, directory, top)
        if paths is None:
            continue
        read = [_read(p) for p in paths]
        if any(r is None for r in read):
            continue
        services = [s for r in read if r is not None for s in r]
        if not services:
            continue
        shown = ", ".join(p.name for p in paths)
        defined = sorted({s.name for s in services} | shown_services)
        profiles = {p for s in services for p in s.profiles}
        missing = [
            p
            for p in dict.fromkeys(call.profiles)
            if p not in profiles and p != "*" and not _NOT_A_NAME.search(p)
        ]
        if missing:
            said = _undefined("profile", missing, shown, sorted(profiles))
            yield Diagnostic(readme, _line_of(command, missing[0]), said, confidence=CERTAIN)
        missing = [
            n
            for n in dict.fromkeys(call.services)
            if n not in defined and not _NOT_A_NAME.search(n) and not n.isupper()
        ]
        if missing:
            said = _undefined("service", missing, shown, defined)
            if call.verb in ("run", "exec") and _PROGRAM.fullmatch(missing[0]):
                said = _program_first(call.verb, missing[0], shown, defined)
            yield Diagnostic(readme, _line_of(command, missing[0]), said, confidence=CERTAIN)
        yield from _unread_in_front(command, readme, paths, call.verb)
        if call.verb == "build":
            named = [(p, s) for p, r in zip(paths, read, strict=True) if r is not None for s in r]
            yield from _built_nothing(command, call, readme, directory, named, shown_services)
        key = tuple(paths)
        if call.verb == "up" and not call.services:
            started[key] = (line, frozenset(call.profiles))
        elif call.verb in ("exec", "logs") and key in started:
            up, on = started[key]
            by_name = {s.name: s for s in services}
            for name in call.services:
                service = by_name.get(name)
                if service is None or not service.profiles or set(service.profiles) & (on | {"*"}):
                    continue
                needs = ", ".join(service.profiles)
                yield Diagnostic(
                    readme,
                    _line_of(command, name),
                    f"README's docker compose {call.verb} {name} needs a container the docker compose up of "
                    f"line {up} does not start: {shown} puts service {name} only in profile {needs}, which "
                    "that command does not enable",
                    confidence=LIKELY,
                )


def _built_nothing(
    command: list[tuple[int, str]],
    call: _Call,
    readme: str,
    directory: Path,
    services: Sequence[tuple[Path, compose.Service]],
    shown_services: set[str],
) -> Iterator[Diagnostic]:
    """A service a `docker compose build` names that the files it reads give an `image:` and no `build:`
    (in no file, the override merged: `services`, each with its file): compose has nothing to build for
    it and skips it (`certain`). Not one that `extends:` another (which may build), nor one the README
    shows a compose example of (the reader may be meant to add its `build:`)."""
    by_name: dict[str, list[tuple[Path, compose.Service]]] = {}
    for path, service in services:
        by_name.setdefault(service.name, []).append((path, service))
    for name in dict.fromkeys(call.services):
        entries = by_name.get(name)
        if not entries or name in shown_services:
            continue
        if any(s.builds or any(k == "extends" for k, _ in s.settings) for _, s in entries):
            continue
        pulled = next(((p, s) for p, s in entries if s.image), None)
        if pulled is None:
            continue
        path, service = pulled
        where = Path(os.path.relpath(path, directory.resolve())).as_posix()
        line = service.image_line or service.line
        yield Diagnostic(
            readme,
            _line_of(command, name),
            f"README's docker compose build {name} builds nothing: {where}{f':{line}' if line else ''} gives "
            f"service {name} only image: {service.image} and no build: section, so compose skips it "
            "(the image is pulled, not built)",
            confidence=CERTAIN,
        )


_PROGRAM = re.compile(r"/[\w./-]+|(?:ba|z|fi)?sh|python[\d.]*|ipython|jupyter|nvidia-smi|pytest|node|npm")
"""A word that is a program to run, never a service (`/bin/bash`, `bash`, `python3`): the command a
`docker compose run|exec` line was meant to give the service it leaves out."""


def _program_first(verb: str, program: str, shown: str, defined: Sequence[str]) -> str:
    """The words of a finding about a `docker compose run|exec` that gives the program it runs where
    the service goes (`docker compose run --rm /bin/bash`)."""
    said = (
        f"README's docker compose {verb} names service {program}, which {shown} does not define: the first "
        f"word after its options is the service, so {program} is taken for one"
    )
    if len(defined) == 1:
        return f"{said} (did you mean docker compose {verb} … {defined[0]} {program}?)"
    listed = ", ".join(defined[:8]) + (" …" if len(defined) > 8 else "")
    return f"{said} (name one of {listed} before it)"


def _undefined(kind: str, names: Sequence[str], shown: str, defined: Sequence[str]) -> str:
    """The words of a finding about the services or profiles `names` the files `shown` do not define."""
    said = f"README's compose command names {kind}{'s' if len(names) > 1 else ''} {', '.join(names)}, "
    said += f"which {shown} does not define"
    close = [c for n in names for c in difflib.get_close_matches(n, list(defined), n=1, cutoff=0.6)]
    if close:
        return f"{said} (did you mean {', '.join(dict.fromkeys(close))}?)"
    if not defined:
        return f"{said} (no service there has profiles)" if kind == "profile" else said
    listed = ", ".join(defined[:8]) + (" …" if len(defined) > 8 else "")
    return f"{said} (it defines {listed})"


def _line_of(command: list[tuple[int, str]], word: str) -> int:
    """The README line of `command` that holds `word`, else its first."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(word)}(?![\w.-])")
    return next((n for n, text in command if pattern.search(text)), command[0][0])


_STARTS = frozenset(("up", "run", "create", "build"))
"""The compose verbs that make containers or images from the files as read then."""
_COMPOSE_OWN = re.compile(r"(?:COMPOSE|DOCKER|BUILDKIT)_\w+|PWD|HOME|USER|UID|GID|PATH|TMPDIR|SUDO_\w+")
"""Variables Compose, the Docker client or the shell read themselves (`COMPOSE_PROFILES=gpu`)."""
_SEGMENT = re.compile(r"&&|\|\||[;|(]")
_COMMENTED = re.compile(r"(?:^|[ \t])#.*", re.MULTILINE)


def _unread_in_front(
    command: list[tuple[int, str]], readme: str, paths: Sequence[Path], verb: str
) -> Iterator[Diagnostic]:
    """Variables set in front of a compose command that makes containers (`OS_API_KEY=x docker compose up
    -d`) that none of the files it reads names outside a comment (a `${OS_API_KEY}`, an `environment:`
    entry `- OS_API_KEY` passing it on), nor an env file beside them or that they read (Compose
    interpolates those too), nor a file they extend: the shell's variables reach a container only
    through the file, so the setting does nothing (`certain`). Names another compose file of that folder
    reads are told, with the `-f` the command lacks. Not Compose's, Docker's or the shell's own
    variables (`COMPOSE_PROFILES`, `DOCKER_BUILDKIT`, `UID`)."""
    if verb not in _STARTS:
        return
    text = joined(command)
    match = COMPOSE.search(text)
    if match is None:
        return
    head = _SEGMENT.split(text[: match.start()])[-1]
    if not head.strip() or re.search(r"[^\s]", SET_IN_FRONT.sub("", head).replace("env", "", 1)):
        return  # (`sudo X=1 docker compose`, `time docker compose`: not read)
    names = [m.group(1) for m in SET_IN_FRONT.finditer(head) if not _COMPOSE_OWN.fullmatch(m.group(1))]
    if not names:
        return
    folder = paths[0].parent
    texts: list[str] = []
    for path in paths:
        read = text_or_none(path)
        if read is None or re.search(r"^[ \t]*extends[ \t]*:", read, re.MULTILINE):
            return
        texts.append(_COMMENTED.sub("", read))
    for entry in os.scandir(folder) if os.path.isdir(folder) else ():
        if entry.name.startswith(".env") or entry.name.endswith(".env"):
            texts.append(text_or_none(Path(entry.path)) or "")
    for service in (s for p in paths for r in [_read(p)] if r for s in r):
        texts.extend(text_or_none(folder / f) or "" for f in service.env_files)
    shown = ", ".join(p.name for p in paths)
    for name in dict.fromkeys(names):
        word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
        if any(word.search(t) for t in texts):
            continue
        said = (
            f"README sets {name} in front of docker compose {verb}, but {shown} never reads it "
            f"(no ${{{name}}}, no environment entry passing it on): the container does not get it"
        )
        other = _other_reader(folder, paths, word)
        if other:
            said += f"; {other[0]}:{other[1]} reads it (add -f {other[0]})"
        yield Diagnostic(readme, _line_of(command, name), said, confidence=CERTAIN)


def _other_reader(folder: Path, paths: Sequence[Path], word: re.Pattern[str]) -> tuple[str, int] | None:
    """The first other compose file of `folder` that names `word` outside a comment, and the line."""
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.is_file())
    except OSError:
        return None
    for name in names:
        if not compose.FILE_NAME.fullmatch(name) or any(p.name == name for p in paths):
            continue
        for number, line in enumerate((text_or_none(folder / name) or "").splitlines(), start=1):
            if word.search(_COMMENTED.sub("", line)):
                return name, number
    return None
