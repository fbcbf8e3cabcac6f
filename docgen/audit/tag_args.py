"""Image tags that spell a build arg's value the build making them does not pass.

A compose service that builds an image names it (`image: owner/opencv:ubuntu20.04-cuda11.2.1-opencv4.6.0`)
and passes its build args (`args: CUDA=11.2.1`). A tag written as `NAMEVERSION` parts
(`cuda11.2.1`, `opencv4.6.0`, `ubuntu20.04`) spells the value of the build arg of that name (`CUDA`,
`CUDA_VERSION`); when the service passes another value (`CUDA=12.0.1`: a service copied from a
sibling and its arg left as it was), the image under that tag is not what the tag says. The README
line that repeats the tag (a row of a tag table, a `docker pull` of it) is reported `certain`, with the
compose line: both the tag and the arg are written in files.

Not read: a part naming no arg the service passes, an arg the Dockerfile does not declare, a value
that is no plain version (`${CUDA}`, `latest`) or one that agrees to the precision both write
(`cuda11.2` for `11.2.1`), a tag made outside the files (`latest` or any tag CI applies), a service
whose Dockerfile is not there, and a tag the README does not repeat.

Each README line is read once per tag built with a contradicted arg; every regular expression runs on
one line or one tag.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.memo import per_audit
from docgen.audit.names import compose_files
from docgen.audit.paths import resolves_inside
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import DOCKERFILE, built_dockerfile, real_path
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PART = re.compile(r"(?P<name>[a-z][a-z]*?)_?v?(?P<version>\d+(?:\.\d+)+)")
"""A tag part spelling a component and its version: `cuda11.0.3`, `ubuntu18.04`, `opencv_4.5.2`."""
_VERSION = re.compile(r"v?(\d+(?:\.\d+)*)")
"""A build arg's value that is a plain version (`11.3.1`, `v4.5`)."""


@per_audit(maxsize=32)
def _declared(path: Path) -> frozenset[str] | None:
    """The build args the Dockerfile at `path` declares (`ARG NAME[=…]`); None when it cannot be read."""
    try:
        parsed = read_dockerfile(path)
    except (OSError, DocgenError):
        return None
    names: set[str] = set()
    for inst in parsed.instructions:
        if inst.keyword.upper() == "ARG":
            for word in inst.args.split():
                names.add(word.partition("=")[0])
    return frozenset(names)


def _spelled(tag: str) -> list[tuple[str, str]]:
    """(component, version) of each `-` part of `tag` that is a name followed by a dotted version."""
    found: list[tuple[str, str]] = []
    for part in tag.split("-"):
        if match := _PART.fullmatch(part):
            found.append((match.group("name"), match.group("version")))
    return found


def _agree(spelled: str, passed: str) -> bool:
    """True when two versions agree to the precision both write (`11.2` and `11.2.1`)."""
    one, two = spelled.split("."), passed.split(".")
    return all(int(a) == int(b) for a, b in zip(one, two, strict=False))


def _arg_line(lines: Sequence[str], start: int, name: str) -> int | None:
    """The first line from `start` (1-based) that sets the build arg `name` (`NAME=…`, `NAME: …`)."""
    setting = re.compile(rf"(?<![\w]){re.escape(name)}[ \t]*[=:]")
    for number in range(max(start, 1), len(lines) + 1):
        if setting.search(lines[number - 1]):
            return number
    return None


def _readme_lines(doc: Document) -> Iterator[tuple[int, str]]:
    """Every README line that can hold claims: table rows, prose and code blocks."""
    for table in doc.tables:
        for number, cells in table.rows:
            yield number, " | ".join(cells)
    for para in doc.paragraphs:
        yield from para.lines
    for fence in doc.fences:
        yield from fence.lines


def tag_args(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The README lines repeating a tag a compose service beside it gives the image it builds, when a
    part of the tag spells a version of a build arg the service passes another value of (see the
    module docstring)."""
    files = compose_files(directory, models, project)
    if not files:
        return
    contradicted: dict[str, str] = {}  # tag → the fact, said once
    for file in files:
        path = directory / file.shown
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        folder = posixpath.dirname(file.shown)
        for service in file.services:
            if not service.builds or not service.image or not service.args:
                continue
            name, colon, tag = service.image.rpartition(":")
            if not colon or "/" in tag or "$" in service.image:
                continue
            context = service.context or "."
            if "$" in context or "://" in context or context.endswith(".git"):
                continue
            dockerfile = built_dockerfile(directory / folder / context / (service.dockerfile or DOCKERFILE))
            if not os.path.isfile(dockerfile) or (
                project is not None and not resolves_inside(dockerfile, project)
            ):
                continue
            declared = _declared(real_path(dockerfile))
            if not declared:
                continue
            passed = dict(service.args)
            facts: list[str] = []
            for component, version in _spelled(tag):
                keys = [
                    k
                    for k in passed
                    if k.lower() in (component, f"{component}_version", f"{component}version")
                    and k in declared
                ]
                if len(keys) != 1:
                    continue
                value = passed[keys[0]].strip().strip("\"'")
                match = _VERSION.fullmatch(value)
                if match is None or _agree(version, match.group(1)):
                    continue
                at = _arg_line(lines, service.image_line or service.line or 1, keys[0])
                where = f"{file.shown}:{at}" if at else file.shown
                facts.append(
                    f"its part `{component}{version}` says {keys[0]} {version}, but {where} (service "
                    f"{service.name}) builds it with {keys[0]}={value}"
                )
            if facts and tag not in contradicted:
                contradicted[tag] = "; ".join(facts)
    if not contradicted:
        return
    told: set[int] = set()
    for tag, fact in contradicted.items():
        word = re.compile(rf"(?<![\w.-]){re.escape(tag)}(?![\w-]|\.\w)")
        for number, text in _readme_lines(doc):
            if number in told or tag not in text or not word.search(text):
                continue
            told.add(number)
            yield Diagnostic(readme, number, f"README names image tag `{tag}`: {fact}", confidence=CERTAIN)
