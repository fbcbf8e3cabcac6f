"""A Python version glued in a path of the image (`/usr/local/lib/python3.6/dist-packages/TTS`) that is
not the image's Python.

A README names the system Python's folders of the image (`/usr/lib/python3.X/…`,
`/usr/local/lib/python3.X/{site,dist}-packages/…`, `/usr/include/python3.X`, `/root/.local/lib/…`) to
say where a package is or what to patch. The version in the path is a claim about the image's Python;
two facts answer it:

- the Dockerfile writes the same path with another version (`mv … /usr/local/lib/python3.8/dist-packages/
  TTS/server/.`): the README was written for an older Python;
- the image's Pythons are all known, and the README's is none of them: every base the image is built on
  ships no Python (`base_contents.lacks_python`) or is a `python:3.X` image, nothing of the image
  brings a Python docgen cannot tell (conda, pyenv, `uv python`, a script it cannot read), and the
  versions the Dockerfile names (`python3.8`, `/python3.8/`, `PYTHON_VERSION=3.8`) and what its
  distribution's `python3` is (`version_facts.distribution_versions`) do not hold it.

Paths of the host are no claim: one under a home folder (`~/.local/lib/python3.6`, `/home/…`), one of
a virtual environment or conda (`/opt/venv/lib/python3.11`, another Python), a line about the host
(`on your machine`, `locally`), a traceback or other output pasted from a run (`File "…", line 12`).
Each finding is `likely`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import CHMOD, PIPED, RUNS_FILE, built_bases, context_of, unbuilt_lines
from docgen.audit.listed_python import PULLS_PYTHON
from docgen.audit.version_facts import distribution_versions
from docgen.base_contents import lacks_python
from docgen.baseimage import split_reference
from docgen.copied import without_whole_context
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_SYSTEM_PATH = re.compile(
    r"(?<![\w.~$}/-])(?P<path>/(?P<prefix>usr/(?:local/)?(?:lib|lib64|include)|root/\.local/lib)"
    r"/python(?P<version>3\.\d{1,2})(?![\d.])(?P<rest>(?:/[\w.+@-]+)*)/?)"
)
"""A path of the system Python's folders in the image, with its version: `/usr/local/lib/python3.6/
dist-packages/TTS`, `/usr/include/python3.10`."""
_NAMED = re.compile(r"python[ \t_-]?(?:version)?[ \t]*[=:]?[ \t]*v?(3\.\d{1,2})(?![\d])", re.IGNORECASE)
"""A Python version the Dockerfile names: `python3.8`, `/python3.8/`, `PYTHON_VERSION=3.8`,
`python:3.8-slim`, `python3.10-venv`."""
_OTHER_PYTHONS = ("conda", "mamba", "miniforge", "pyenv", "asdf", "pixi", "rye")
"""What may bring a Python whose version docgen does not read (letters and digits only)."""
_UV_PYTHON = re.compile(r"\buv[ \t]+(?:python[ \t]+install|venv)\b")
_HOST = re.compile(
    r"\bhost\b|\byour[ \t]+(?:own[ \t]+)?(?:machine|computer|system|laptop|pc|workstation)\b|\blocal(?:ly)?\b"
    r"|\boutside\b|\bjetson\b|\bon[ \t]+the[ \t]+(?:board|device)\b",
    re.IGNORECASE,
)
"""Words making a line about the host's Python, not the image's."""
_PATHS = re.compile(r"(?<![\w.~$/-])[\w.~$-]*(?:/[\w.+@-]+)+/?")
"""Paths, dropped before a line is read for words of the host (`/usr/local` is no `local`)."""
_OUTPUT = re.compile(r"\bFile[ \t]+\"|Traceback|\bsys\.path\b|\berror\b|\bwarning\b", re.IGNORECASE)
"""A line of a traceback or of other output pasted from a run."""


def python_paths(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring) on one part of the README."""
    read: dict[int, _Pythons | None] = {}  # each model's Pythons, read once a part
    lines = [(n, t) for p in doc.paragraphs for n, t in p.lines]
    for fence in doc.fences:
        text = "\n".join(t for _, t in fence.lines)
        if fence.lang.lower() in ("dockerfile", "docker", "python", "py", "pycon") or _OUTPUT.search(text):
            continue  # another image's Dockerfile, code, output
        lines += fence.lines
    for line, text in lines:
        if _HOST.search(_PATHS.sub(" ", text)) or _OUTPUT.search(text):
            continue
        for match in _SYSTEM_PATH.finditer(text):
            found = _contradiction(match, auditor.models, read)
            if found is not None:
                yield Diagnostic(auditor.path, line, found, confidence=LIKELY)
                break


def _contradiction(
    match: re.Match[str], models: tuple[ImageModel, ...], read: dict[int, _Pythons | None]
) -> str | None:
    """The message for the path `match` when no image of `models` has its Python, None otherwise;
    `read`: each model's `_pythons` (by `id`), filled as the models are first read."""
    said = match.group("version")
    shown: list[str] = []
    for model in models:
        if id(model) not in read:
            read[id(model)] = _pythons(model)
        facts = read[id(model)]
        if facts is None or not facts.versions or said in facts.versions:
            return None
        same = [(n, p) for n, p in facts.written if _same_place(p, match)]
        if same:
            line, path = same[0]
            glued = _SYSTEM_PATH.fullmatch(path)
            python = glued.group("version") if glued is not None else path
            shown.append(f"{model.path}:{line} writes {path}: the image's Python is {python}")
        elif facts.unknown:
            return None  # the distribution's own Python, of a release docgen cannot tell, may be it
        else:
            shown.append(f"{model.path}:{facts.told}")
    return f"README names {match.group('path')}, a path of Python {said}, but {shown[0]}" if shown else None


def _same_place(path: str, match: re.Match[str]) -> bool:
    """True when the Dockerfile's system Python path `path` is the README's (`match`) but for the
    version, down to a package of it at least (`…/dist-packages/TTS`)."""
    glued = _SYSTEM_PATH.fullmatch(path)
    rest = match.group("rest").strip("/").split("/")
    if glued is None or len(rest) < 2 or glued.group("prefix") != match.group("prefix"):
        return False
    return glued.group("rest").strip("/").split("/")[: len(rest)] == rest


@dataclass(frozen=True)
class _Pythons:
    """What a Dockerfile says of the Pythons of its image."""

    versions: frozenset[str]
    """The Python releases (`3.8`) it names, its `python:3.X` base's, its distribution's `python3`."""
    written: tuple[tuple[int, str], ...]
    """(line, path) of each system Python path it writes (`/usr/local/lib/python3.8/dist-packages/TTS`)."""
    told: str
    """`N says V`: the line and words that say the image's Python (`2 says 3.8 (python3 of Ubuntu
    20.04)`, `5 says Python 3.8` for a `python3.8` it names)."""
    unknown: bool
    """True when it installs its distribution's `python3` (or a package bringing it) on a release
    docgen cannot tell (`nvidia/cuda:11.0-runtime`): one more Python, of an unknown version."""


def _pythons(model: ImageModel) -> _Pythons | None:
    """`_Pythons` of the image of `model`, None when it may hold a Python docgen cannot tell."""
    if not model.file or model.unread:
        return None
    read = dockerfile_read(model.file)
    if read is None:
        return None
    text = read[0]
    copies = without_whole_context(model.context_copies)
    copied = [w for copy in copies for w in copy.sources]
    unbuilt = unbuilt_lines(model)
    raw = context_of(model.file, copies, unbuilt)[0]
    if any(word in raw for word in _OTHER_PYTHONS) or _UV_PYTHON.search(text):
        return None
    folder = Path(model.file).parent
    names = {w.rstrip("/").rsplit("/", 1)[-1] for w in copied if os.path.isfile(folder / w.lstrip("/"))}
    for inst in read[1].instructions:
        if inst.keyword != "RUN" or any(first <= inst.start_line <= last for first, last in unbuilt):
            continue
        if PIPED.search(inst.args):
            return None  # a download run in a shell: it may bring any Python
        args = CHMOD.sub("", inst.args)
        for run in RUNS_FILE.finditer(args):
            if run.group(2) and args[: run.start(2)].rstrip().endswith(">"):
                continue  # a file written
            if run.group(0).lstrip(" \t;&|(").startswith("python"):
                continue  # run by the image's Python (`python setup.py …`): it brings no other
            if (run.group(1) or run.group(2)).strip("'\"").rsplit("/", 1)[-1] not in names:
                return None  # a script docgen has not read
    versions: set[str] = set()
    for stage in built_bases(model):
        repository, tag = split_reference(stage.base)
        if repository.rsplit("/", 1)[-1] == "python" and tag and (v := re.match(r"3\.\d{1,2}", tag)):
            versions.add(v.group())
        elif not lacks_python(stage.base):
            return None  # a base whose Pythons docgen does not know
    versions.update(m.group(1) for m in _NAMED.finditer(text))
    told = [
        (v, f"{at} says {said}") for what, v, said, at in distribution_versions(model) if what == "python"
    ]
    distribution = bool(told)
    versions.update(".".join(v.split(".")[:2]) for v, _ in told)
    if not told:  # the first line naming a Python release, else the `python:3.X` base
        told = [
            (found.group(1), f"{number} says Python {found.group(1)}")
            for number, line in enumerate(text.splitlines(), start=1)
            for found in _NAMED.finditer(line)
        ][:1] or [(v, f"{built_bases(model)[0].line} says Python {v}") for v in sorted(versions)][:1]
    installs = any(
        c.kind in ("apt", "rpm", "apk")
        and (c.name in PULLS_PYTHON or re.match(r"python3?(?:-|\Z)", c.name) is not None)
        for c in model.components
    )
    written = tuple(
        (number, re.sub(r"/\.?\Z", "", glued.group("path")))
        for number, line in enumerate(text.splitlines(), start=1)
        for glued in _SYSTEM_PATH.finditer(line)
    )
    return _Pythons(frozenset(versions), written, told[0][1] if told else "", installs and not distribution)
