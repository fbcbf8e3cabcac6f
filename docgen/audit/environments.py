"""Versions a README's Spack commands name (`spack install --force mfem@master`) against the Spack
environment file the Dockerfile copies and installs (`COPY spack.yaml /opt/env/`, then `spack install`):
a spec of a package the file lists, at a version the file lists for none of its specs of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.image_paths import copied, text_of
from docgen.audit.wording import COMMAND_LANGS
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_SPEC = re.compile(r"(?<![\w@/.=:-])([a-z0-9][a-z0-9_-]*)@(=?[A-Za-z0-9_.:,-]+)(?=[+~^%\s'\",\]]|\Z)")
"""A Spack spec's package and version: `mfem@develop+examples`, `dealii@9.7.1~cuda`, `python@:3.10`."""
_SPACK = re.compile(r"\bspack[ \t]+(?:-\S+[ \t]+)*(?:install|add|develop|spec|concretize|load|find)\b")
"""A Spack command that names specs."""
_INSTALLS = re.compile(r"\bspack\b[^\n]*?\b(?:install|concretize)\b")
_ENVIRONMENT = re.compile(r"^spack:[ \t]*$", re.MULTILINE)
"""The top of a Spack environment file (`spack.yaml`)."""
_SPEC_LINE = re.compile(r"^[ \t]*(?:-[ \t]+|spec:[ \t]+|specs:[ \t]*\[)")
"""A line of an environment file that holds specs: a list item, `spec:`, `specs: [ … ]`."""


def _exact(version: str) -> bool:
    """True for one version (`develop`, `9.7.1`, `=2.1`), not a range or a list (`:3.10`, `1.2,1.4`)."""
    return not any(c in version for c in ":,")


def _listed(text: str) -> dict[str, set[str]]:
    """Each package an environment file's specs name → the versions they give it."""
    found: dict[str, set[str]] = {}
    for line in text.splitlines():
        if _SPEC_LINE.match(line):
            for name, version in _SPEC.findall(line.split(" #", 1)[0]):
                found.setdefault(name, set()).add(version.lstrip("="))
    return found


def _environments(models: Sequence[ImageModel], directory: Path) -> list[tuple[str, dict[str, set[str]]]]:
    """(the file and the Dockerfile line copying it, the versions its specs give each package) of each
    Spack environment file an audited Dockerfile copies and then installs."""
    found: list[tuple[str, dict[str, set[str]]]] = []
    for model in models:
        if not model.file:
            continue
        read = dockerfile_read(model.file)
        if read is None or not any(
            i.keyword == "RUN" and _INSTALLS.search(i.args) for i in read[1].instructions
        ):
            continue
        for copy in model.context_copies:
            for each in copied(model.file, (copy,), str(directory))[:50]:
                if each.suffix not in (".yaml", ".yml"):
                    continue
                text = text_of(each)
                if _ENVIRONMENT.search(text):
                    found.append((f"{each.name} ({model.path}:{copy.line})", _listed(text)))
    return found


def spack_versions(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A spec in a Spack command of a command block (`spack install mfem@master`) whose package the
    environment file the Dockerfile copies and installs lists only at other exact versions (`likely`).
    Ranges (`python@:3.10`) on either side are not compared."""
    said = [
        (line, name, version)
        for fence in doc.fences
        if fence.lang in COMMAND_LANGS
        for line, text in fence.lines
        if _SPACK.search(text)
        for name, version in _SPEC.findall(text.split(" #", 1)[0])
        if _exact(version)
    ]
    if not said:
        return
    environments = _environments(models, directory)
    for line, name, version in said:
        version = version.lstrip("=")
        holding = [(shown, listed[name]) for shown, listed in environments if name in listed]
        if not holding or any(version in versions for _, versions in holding):
            continue
        if not all(_exact(v) for _, versions in holding for v in versions):
            continue
        shown, versions = holding[0]
        listed = ", ".join(f"{name}@{v}" for v in sorted(versions))
        yield Diagnostic(
            readme,
            line,
            f"README runs Spack with {name}@{version}, but the environment {shown} lists {listed}",
            confidence=LIKELY,
        )
