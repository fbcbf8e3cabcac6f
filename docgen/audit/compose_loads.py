"""Compose files a README starts that compose refuses before it starts a service: a `${NAME:default}`
that is no compose interpolation (`invalid interpolation format`), and a volume or network declared
`external: true` that nothing the README runs creates (`external volume "cache" not found`). The files
are those the README's compose commands and `make` targets start (`compose_paths.started_compose`) and
those a shell script the README runs starts with `docker compose up` (no `-f`, before any `cd`).

And a project those files make together (the `-f` files of one command, or a folder's default file and
its override, with what they `include:`) whose service names what none of them declares
(`undefined_references`), as compose-go's consistency check reads it: a network, a named volume, a
secret, a config or a build secret with no top-level entry of that name (`service "app" refers to
undefined network backend`), a `depends_on` or `network_mode: service:` of a service none of them
has, an `extends:` of a file or service that is not there, a service with neither `image:` nor
`build:`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.compose_paths import entry_line, included, read_document, started_compose
from docgen.audit.names import compose_file
from docgen.audit.paths import resolves_inside
from docgen.audit.references import project_top
from docgen.audit.script_builds import relative_path
from docgen.audit.script_compose import compose_scripts
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_BAD_DEFAULT = re.compile(r"(?<!\$)\$\{([A-Za-z_]\w*):(?![-?+])([^}\s]*)\}?")
"""`${NAME:VALUE}`: compose reads only `:-`, `-`, `:?`, `?`, `:+` and `+` after a name."""
_SCRIPT_UP = re.compile(
    r"(?:^|&&|\|\||;|\()[ \t]*(?:sudo[ \t]+)?(?:docker[ \t]+compose|docker-compose)"
    r"[ \t]+(up|run|create|start)\b"
)
"""A script's `docker compose up` (`run`, `create`, `start`) with no global option before the verb."""
_CREATES = re.compile(r"\b(?:volume|network)[ \t]+create\b")


def _started(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None
) -> Iterator[tuple[Path, int, str, str, tuple[Path, ...]]]:
    """(compose file, README line, how the README starts it, its path from the README's folder, the files
    the command merges: `Started.together`) of each compose file the README starts, once."""
    seen: set[Path] = set()
    for one in started_compose(doc, directory, project, into_clones=True):
        seen.add(one.path)
        yield one.path, one.line, one.said, one.shown, one.together
    top = project_top(directory, project)
    here = real_path(directory)
    for line, run, script, folder, lines in compose_scripts(doc, directory, audited, project):
        for at, code in lines:
            match = _SCRIPT_UP.search(code)
            if match is None or " -f" in code or "--file" in code:
                continue
            defaults = [real_path(p) for p in compose.default_files(folder)]
            merged = () if "COMPOSE_FILE" in "\n".join(c for _, c in lines) else tuple(defaults)
            for path in defaults:
                if path in seen or not resolves_inside(path, top):
                    continue
                seen.add(path)
                shown = relative_path(script, directory)
                said = f"README runs {run}, whose docker compose {match.group(1)} ({shown}:{at})"
                yield path, line, said, Path(os.path.relpath(path, here)).as_posix(), merged
            break


def compose_loads(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A compose file the README starts (`_started`) that writes `${NAME:VALUE}` outside a comment (compose
    stops: invalid interpolation format; `${NAME:-VALUE}` gives a default), or declares a top-level
    volume or network `external: true` whose name nothing creates: neither the README nor a script or
    Makefile beside it or the compose file runs `docker volume create` / `docker network create` or
    names it, and no other compose file there declares it (a project that makes it). `certain`."""
    readme_text = "\n".join(
        [text for fence in doc.fences for _, text in fence.lines]
        + [text for para in doc.paragraphs for _, text in para.lines]
    )
    merged: set[tuple[Path, ...]] = set()
    for path, line, said, shown, together in _started(doc, directory, audited, project):
        if together and together not in merged:
            merged.add(together)
            yield from undefined_references(together, line, said, readme, directory)
        body = text_or_none(path)
        if body is None:
            continue
        for number, text in enumerate(body.splitlines(), 1):
            code = text.split(" #", 1)[0]
            if code.lstrip().startswith("#"):
                continue
            match = _BAD_DEFAULT.search(code)
            if match is not None:
                yield Diagnostic(
                    readme,
                    line,
                    f"{said}, but {shown}:{number} writes {match.group(0)}, which is no compose "
                    f"interpolation (${{{match.group(1)}:-{match.group(2)}}} gives a default): compose "
                    "refuses the file while loading it (invalid interpolation format)",
                    confidence=CERTAIN,
                )
                break
        yield from _externals(path, line, said, shown, readme, readme_text, directory)


def _externals(
    path: Path, line: int, said: str, shown: str, readme: str, readme_text: str, directory: Path
) -> Iterator[Diagnostic]:
    read = read_document(path)
    if read is None or not isinstance(read[0], dict):
        return
    document = read[0]
    if _CREATES.search(readme_text):
        return
    for kind in ("volumes", "networks"):
        declared = document.get(kind)
        if not isinstance(declared, dict):
            continue
        for key, value in declared.items():
            if not isinstance(value, dict) or not isinstance(key, str):
                continue
            external: Any = value.get("external")
            name = value.get("name", key)
            if isinstance(external, dict):
                name = external.get("name", name)
                external = "true"
            if str(external).lower() != "true" or not isinstance(name, str) or "$" in name:
                continue
            if _named_elsewhere(name, path, directory, readme_text):
                continue
            at = compose.line_of(declared, key)
            place = f"{shown}:{at}" if at else shown
            noun = kind[:-1]
            yield Diagnostic(
                readme,
                line,
                f"{said}, but {place} declares the {noun} {name} external: true, and nothing the README "
                f"runs creates it (docker {noun} create {name}): compose stops (external {noun} "
                f'"{name}" not found)',
                confidence=CERTAIN,
            )


_WORD = r"(?<![\w.-]){}(?![\w.-])"


def _named_elsewhere(name: str, path: Path, directory: Path, readme_text: str) -> bool:
    """True when the README, or a file beside it or beside the compose file other than the compose file
    itself (a script, a Makefile, another compose file), names `name`."""
    word = re.compile(_WORD.format(re.escape(name)))
    if word.search(readme_text):
        return True
    for folder in {real_path(directory), path.parent}:
        try:
            entries = sorted(os.listdir(folder))[:200]
        except OSError:
            continue
        for entry in entries:
            other = folder / entry
            if other == path or not os.path.isfile(other) or entry.lower().endswith(".md"):
                continue
            text = text_or_none(other)
            if text is not None and (word.search(text) or _CREATES.search(text)):
                return True
    return False


_BUILDS_IMAGE = re.compile(
    r"\b(?:build|builds|building)[ \t]+(?:the[ \t]+|your[ \t]+|an?[ \t]+|all[ \t]+)?(?:docker[ \t]+)?"
    r"(?:container[ \t]+)?images?\b",
    re.IGNORECASE,
)
"""Prose saying something builds the image (`Build the image if it doesn't exist`)."""
_TOLD_ELSE = re.compile(r"`|\bdocker[ \t]+build\b|\bpull", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|no|never|without)\b|n't\b", re.IGNORECASE)


def unbuilt_claims(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """The prose right after a command block that starts compose (the paragraph or list that begins
    within two lines of the block's end: `This will: - Build the image if it doesn't exist`) saying it
    builds the image, while no service of the compose file it starts has a `build:` (nor an `extends:`
    that may give one): compose pulls every service's `image:` and builds nothing (`likely`: prose). Not a
    line naming a command in code, `docker build`, a pull, or a negation."""
    ends: dict[int, int] = {}  # README line of each fenced line → the block's last line
    for fence in doc.fences:
        if fence.lines and not fence.inline:
            last = fence.lines[-1][0]
            for line, _ in fence.lines:
                ends[line] = last
    after: dict[int, list[tuple[int, str]]] = {}
    for para in doc.paragraphs:
        if para.lines:
            after.setdefault(para.lines[0][0], para.lines)
    told: set[int] = set()
    for path, line, _, shown, _ in _started(doc, directory, audited, project):
        end = ends.get(line)
        if end is None or end in told:
            continue
        last = end
        lines = next((after[n] for n in range(last + 1, last + 4) if n in after), None)
        if lines is None:
            continue
        claim = next(
            (
                (n, t)
                for n, t in lines
                if (found := _BUILDS_IMAGE.search(t)) is not None
                and not _TOLD_ELSE.search(t)
                and not _NEGATED.search(t[: found.start()])
            ),
            None,
        )
        if claim is None:
            continue
        files = [path, *(p for p in compose.default_files(path.parent) if real_path(p) != path)]
        services: list[compose.Service] = []
        for one in files:
            body = text_or_none(one)
            read = compose_file(one)
            if body is None or read is None or read[1] or _EXTENDS.search(body):
                services = []
                break
            services.extend(read[0])
        if not services or any(s.builds for s in services):
            continue
        told.add(last)
        images = ", ".join(dict.fromkeys(f"{s.name} ({s.image})" for s in services if s.image))
        yield Diagnostic(
            readme,
            claim[0],
            f'README says "{claim[1].strip().lstrip("-*+ ").strip()}" of the docker compose command at '
            f"line {line}, but no service of {shown} has a build: (it runs {images}): "
            "compose pulls the images and builds none",
            confidence=LIKELY,
        )


_EXTENDS = re.compile(r"^[ \t]*extends[ \t]*:", re.MULTILINE)


_KINDS = {"networks": "network", "volumes": "volume", "secrets": "secret", "configs": "config"}
"""The top-level sections a service's entries must name an entry of, and what each entry is."""
_VOLUME_NAME = re.compile(r"[A-Za-z0-9][\w.-]+")
"""A named volume as a service's short `volumes:` entry writes it (`data:/var/lib/db`): no path, and not
one letter (`C:\\data`, a Windows drive)."""
_MOST_FILES = 20
"""At most this many compose files are read for one project (its `-f` files and what they include)."""


@dataclass(frozen=True)
class _Definition:
    """A service as one compose file of a project defines it."""

    path: Path
    lines: tuple[str, ...]
    service: dict[Any, Any]
    at: int | None
    """The line of the service's name."""


@dataclass(frozen=True)
class _Problem:
    """A reference of a service to what no file of the project declares."""

    where: _Definition
    line: int | None
    """The line of the reference, when it can be told."""
    why: str
    """What the service does (`joins the network backend`)."""
    refused: str
    """Compose's own words for it (`service "app" refers to undefined network backend`)."""


class _Project:
    """The compose files of one project as compose merges them: the names each top-level section
    declares, and the definitions of each service (one a file that defines it)."""

    def __init__(self) -> None:
        self.declared: dict[str, set[str]] = {kind: set() for kind in _KINDS}
        self.services: dict[str, list[_Definition]] = {}

    def read(self, paths: Sequence[Path]) -> bool:
        """Read `paths` and every file they include (`include:`); False when one cannot be read or told
        (missing, a variable in its path, not YAML, too many), or writes a section in a form compose may
        read otherwise than docgen (not a mapping, left empty)."""
        pending, seen = list(paths), set[Path]()
        while pending:
            path = pending.pop(0)
            if path in seen:
                continue
            seen.add(path)
            read = read_document(path)
            if read is None or len(seen) > _MOST_FILES:
                return False
            document, lines = read
            entries = included(document)
            if "include" in document and not entries:
                return False
            for entry in entries:
                if "$" in entry or not os.path.isfile(path.parent / entry):
                    return False
                pending.append(real_path(path.parent / entry))
            for kind in _KINDS:
                section = document.get(kind)
                if kind in document and not isinstance(section, dict):
                    return False
                if isinstance(section, dict):
                    self.declared[kind].update(k for k in section if isinstance(k, str))
            services = document.get("services")
            if services is not None and not isinstance(services, dict):
                return False
            for name, service in (services or {}).items():
                if name == compose.KEY_LINES:
                    continue
                if not isinstance(name, str) or not isinstance(service, dict):
                    return False
                at = compose.line_of(services or {}, name)
                self.services.setdefault(name, []).append(_Definition(path, lines, service, at))
        return bool(self.services)


def _names(raw: object) -> Iterator[str]:
    """The names a service's list or mapping of references gives: a list of names or of mappings naming
    one under `source:` (a secret, a config), or a mapping keyed by name (networks, `depends_on`)."""
    if isinstance(raw, dict):
        yield from (name for name in raw if isinstance(name, str) and name != compose.KEY_LINES)
    elif isinstance(raw, list):
        for entry in raw:
            if isinstance(entry, str):
                yield entry
            elif isinstance(entry, dict) and isinstance(entry.get("source"), str):
                yield entry["source"]


def _volume_names(raw: object) -> Iterator[str]:
    """The named volumes a service's `volumes:` mounts: a short entry `name:/path[:mode]` whose source is
    no path (`./data`, `/srv`, `~/x`, `C:\\x`), or a long one of `type: volume` with a `source:`."""
    if not isinstance(raw, list):
        return
    for entry in raw:
        if isinstance(entry, str):
            source, colon, _ = entry.partition(":")
            if colon and _VOLUME_NAME.fullmatch(source):
                yield source
        elif isinstance(entry, dict) and entry.get("type", "volume") == "volume":
            named = entry.get("source")
            if isinstance(named, str) and _VOLUME_NAME.fullmatch(named):
                yield named


def _at(where: _Definition, mapping: dict[Any, Any], key: str, name: str) -> int | None:
    """The line of the entry naming `name` under `key` of `mapping` (the service or its `build:`)."""
    return entry_line(where.lines, compose.line_of(mapping, key), name) or where.at


def _extends(project: _Project, name: str) -> Iterator[_Problem]:
    """An `extends:` of service `name` that names a file that is not there, a service that file lacks, or
    (with no file) a service no file of the project defines."""
    for where in project.services[name]:
        extends = where.service.get("extends")
        target = extends.get("service") if isinstance(extends, dict) else extends
        source = extends.get("file") if isinstance(extends, dict) else None
        if (
            not isinstance(target, str)
            or "$" in target
            or (source is not None and not isinstance(source, str))
        ):
            continue
        at = compose.line_of(where.service, "extends") or where.at
        if source is None:
            if target not in project.services:
                yield _Problem(
                    where, at, f"extends the service {target}, which no file defines", "service not found"
                )
            continue
        if "$" in source:
            continue
        if not os.path.isfile(where.path.parent / source):
            yield _Problem(where, at, f"extends a service of {source}, which is not there", "no such file")
            continue
        other = read_document(where.path.parent / source)
        defined = other[0].get("services") if other is not None else None
        if isinstance(defined, dict) and target not in defined:
            yield _Problem(
                where, at, f"extends the service {target} of {source}, which has none", "service not found"
            )


def _problems(project: _Project, name: str) -> Iterator[_Problem]:
    """Each reference of service `name` to what no file of `project` declares (`undefined_references`)."""
    definitions = project.services[name]
    if any("extends" in where.service for where in definitions):
        yield from _extends(project, name)
        return  # (what it extends may bring the rest)
    declared = project.declared
    for where in definitions:
        service = where.service
        if "network_mode" not in service:
            for network in _names(service.get("networks")):
                if network != "default" and "$" not in network and network not in declared["networks"]:
                    yield _Problem(
                        where,
                        _at(where, service, "networks", network),
                        f"joins the network {network}, which no top-level networks: declares",
                        f'service "{name}" refers to undefined network {network}',
                    )
        mode = service.get("network_mode")
        if isinstance(mode, str) and mode.startswith("service:") and "$" not in mode:
            other = mode.removeprefix("service:")
            if other not in project.services:
                yield _Problem(
                    where,
                    compose.line_of(service, "network_mode") or where.at,
                    f"takes the network of the service {other}, which no file defines",
                    f"service \"{other}\" not found for network_mode 'service:{other}'",
                )
        for volume in _volume_names(service.get("volumes")):
            if volume not in declared["volumes"]:
                yield _Problem(
                    where,
                    _at(where, service, "volumes", volume),
                    f"mounts the named volume {volume}, which no top-level volumes: declares",
                    f'service "{name}" refers to undefined volume {volume}',
                )
        build = service.get("build")
        for mapping, kind, doing in (
            (service, "secrets", "reads the secret"),
            (service, "configs", "reads the config"),
            (build if isinstance(build, dict) else {}, "secrets", "builds with the secret"),
        ):
            for entry in _names(mapping.get(kind)):
                if "$" not in entry and entry not in declared[kind]:
                    noun = _KINDS[kind] if mapping is service else "build secret"
                    yield _Problem(
                        where,
                        _at(where, mapping, kind, entry),
                        f"{doing} {entry}, which no top-level {kind}: declares",
                        f'service "{name}" refers to undefined {noun} {entry}',
                    )
        depends = service.get("depends_on")
        for other in _names(depends):
            setting = depends.get(other) if isinstance(depends, dict) else None
            if isinstance(setting, dict) and str(setting.get("required", "true")).lower() == "false":
                continue
            if "$" not in other and other not in project.services:
                yield _Problem(
                    where,
                    _at(where, service, "depends_on", other),
                    f"depends on the service {other}, which no file defines",
                    f'service "{name}" depends on undefined service {other}',
                )
    if not any("image" in where.service or "build" in where.service for where in definitions):
        yield _Problem(
            definitions[0],
            definitions[0].at,
            "has neither an image: nor a build:",
            f'service "{name}" has neither an image nor a build context specified',
        )


def undefined_references(
    together: Sequence[Path], line: int, said: str, readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A service of the project the compose files `together` make (one command's `-f` files, or a
    folder's default file and its override, with what they include) that names what no file of them
    declares (`_problems`): compose's consistency check refuses the project while loading it (`service
    "app" refers to undefined network backend: invalid compose project`) and starts nothing. One finding a
    project, at the README line starting it, telling the first problem (and how many more). A service
    with `profiles:` is left out (compose checks only the services it enables), and one that `extends:`
    another is checked only for what it extends. `certain`: read from the files as compose reads them."""
    project = _Project()
    if not project.read(together):
        return
    here = real_path(directory)
    found = [
        problem
        for name, definitions in project.services.items()
        if not any("profiles" in where.service for where in definitions)
        for problem in _problems(project, name)
    ]
    if not found:
        return
    first = found[0]
    place = Path(os.path.relpath(first.where.path, here)).as_posix()
    where = f"{place}:{first.line}" if first.line else place
    name = next(n for n, d in project.services.items() if first.where in d)
    files = " and ".join(Path(os.path.relpath(p, here)).as_posix() for p in together)
    more = len(found) - 1
    also = f" ({more} more such reference{'s' if more > 1 else ''} too)" if more else ""
    yield Diagnostic(
        readme,
        line,
        f"{said}, but its service {name} ({where}) {first.why} in {files}{also}: compose refuses the "
        f"project while loading it ({first.refused}) and starts nothing",
        confidence=CERTAIN,
    )
