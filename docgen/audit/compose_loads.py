"""Compose files a README starts that compose refuses before it starts a service: a `${NAME:default}`
that is no compose interpolation (`invalid interpolation format`), and a volume or network declared
`external: true` that nothing the README runs creates (`external volume "cache" not found`). The files
are those the README's compose commands and `make` targets start (`compose_paths.started_compose`) and
those a shell script the README runs starts with `docker compose up` (no `-f`, before any `cd`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.compose_paths import read_document, started_compose
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
) -> Iterator[tuple[Path, int, str, str]]:
    """(compose file, README line, how the README starts it, its path from the README's folder) of each
    compose file the README starts, once."""
    seen: set[Path] = set()
    for one in started_compose(doc, directory, project, into_clones=True):
        seen.add(one.path)
        yield one.path, one.line, one.said, one.shown
    top = project_top(directory, project)
    here = real_path(directory)
    for line, run, script, folder, lines in compose_scripts(doc, directory, audited, project):
        for at, code in lines:
            match = _SCRIPT_UP.search(code)
            if match is None or " -f" in code or "--file" in code:
                continue
            for path in compose.default_files(folder):
                path = real_path(path)
                if path in seen or not resolves_inside(path, top):
                    continue
                seen.add(path)
                shown = relative_path(script, directory)
                said = f"README runs {run}, whose docker compose {match.group(1)} ({shown}:{at})"
                yield path, line, said, Path(os.path.relpath(path, here)).as_posix()
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
    for path, line, said, shown in _started(doc, directory, audited, project):
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
    for path, line, _, shown in _started(doc, directory, audited, project):
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
