"""Python, or a scientific Python stack, listed as in an image that holds none.

A list of what an image holds (`## Installs`, `The image includes:`, `### Main Libraries`, or the
`**Features**:` of a section about one image) may name Python (`- Python 3`, `- Python 3 with
scientific libraries`, `- **Python** (for scripting)`). `contents` leaves Python out of what it
compares, since most base images may hold it; this module reads it where docgen knows better:

- Python itself, when nothing of the image names Python (no `python3` package, no pip, conda or pyenv,
  no package known to pull the interpreter in: `software-properties-common`), nothing it runs is
  unread, and every base it is built on ships no interpreter (`base_contents.lacks_python`: Ubuntu,
  Debian, Alpine, `nvidia/cuda` on Ubuntu);
- the scientific libraries an item adds (`with scientific libraries`, `NumPy and SciPy`), when the image
  installs no Python package at all (no pip, conda, `python3-*` package, nor any of the libraries by
  name) and its bases ship no Python: the interpreter may come in as a dependency, its libraries do not.

Each finding is `likely` (a list read as the image's). A list of what the host or the user needs
(`Requirements`, `host`), one of what is fetched later or optional, an item that names no component
(`Python API`, `Python bindings`, `Python 3 support`) and an image that may hold Python are silent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import (
    ADDED_HEADING,
    CONTENTS_HEADING,
    CONTENTS_INTRO,
    LATER,
    LIBRARY_HEADING,
    NEEDED,
    TRIED,
    built_bases,
    context_of,
    unbuilt_lines,
)
from docgen.base_contents import lacks_python
from docgen.copied import without_whole_context
from docgen.markdown import Document, lists, plain
from docgen.model import Diagnostic, ImageModel

_PYTHON_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?P<name>python[ \t]?3?(?:\.(?:\d{1,2}|x)){0,2})"
    r"(?P<rest>(?:[ \t]*\([^()]{0,80}\))?(?:[ \t]*[:,–—][ \t].*|[ \t]+-[ \t].*"
    r"|[ \t]+(?:with|and|plus|including|\+|&)[ \t].*"
    r"|[ \t]+(?:environment|runtime|interpreter|stack|toolchain|libraries|packages)\b.*)?)[ \t.]*\Z",
    re.IGNORECASE,
)
"""A list item naming Python (markup dropped): `- Python 3`, `- Python 3 with scientific libraries`,
`- Python: for scripting`, `- Python (3.x) runtime`."""
_NO_COMPONENT = re.compile(
    r"\b(?:api|apis|bindings?|sdk|client|interface|support(?:ed|s)?|scripts?|examples?|notebooks?"
    r"|tutorials?|wrappers?|modules?[ \t]+for|package[ \t]+for|code|version[ \t]+of)\b",
    re.IGNORECASE,
)
"""Words making a Python item something else than the interpreter in the image: the project's API or
bindings, its support of Python, its scripts."""
_SCIENTIFIC = re.compile(
    r"\bscientific\b|\bdata[ \t]+science\b|\bnumpy\b|\bscipy\b|\bpandas\b|\bmatplotlib\b|\bscikit",
    re.IGNORECASE,
)
"""An item's words naming Python's scientific libraries (`with scientific libraries`, `NumPy`)."""
_FEATURES_LIST = re.compile(r"\bfeatures?\b", re.IGNORECASE)
"""A heading or introduction over what an image offers (`**Features**:`): the image's list when the
section is about one image or the words name it."""
_IMAGE_WORD = re.compile(r"\b(?:images?|containers?|dockerfile)\b", re.IGNORECASE)
_PYTHON_WORDS = ("python", "pip", "conda", "mamba", "pyenv", "virtualenv", "jupyter", "miniforge")
"""What in a Dockerfile's text (letters and digits only) says the image may hold Python."""
PULLS_PYTHON = frozenset(
    "software-properties-common lsb-release meson scons mercurial devscripts ansible awscli supervisor "
    "cloud-init unattended-upgrades ubuntu-drivers-common dh-python glances certbot".split()
)
"""Distribution packages that bring Python's interpreter in as a dependency."""
_INSTALLER_WORDS = ("pip", "conda", "mamba", "pyenv", "poetry", "numpy", "scipy", "pandas", "matplotlib")
"""What in a Dockerfile's text (letters and digits only) may install Python packages or names one."""
_UV = re.compile(r"\buvx?[ \t]+(?:pip|add|sync|tool|venv|python|run)\b")


def listed_python(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring) on one part of the README."""
    single = len(auditor.models) == 1 and len(auditor.family) > 1
    for block in lists(doc):
        heading = block.heading.strip().strip("*_#: \t").strip()
        intro = block.intro.strip()
        said = f"{intro} {heading}"
        if NEEDED.search(said) or TRIED.search(said) or LATER.search(said):
            continue
        label = intro.strip("*_: \t") if intro else heading
        contents = (
            (CONTENTS_INTRO.search(intro) if intro else CONTENTS_HEADING.fullmatch(heading))
            or (not intro and (LIBRARY_HEADING.fullmatch(heading) or ADDED_HEADING.fullmatch(heading)))
            or (_FEATURES_LIST.search(label) and (single or _IMAGE_WORD.search(said)))
        )
        if not contents:
            continue
        for line, text in block.items:
            item = plain(text).replace("*", "").replace("__", "")
            match = _PYTHON_ITEM.match(item)
            if match is None or LATER.search(item) or _NO_COMPONENT.search(match.group("rest")):
                continue
            found = _lacking(auditor.models, match, item)
            if found is not None:
                yield Diagnostic(auditor.path, line, found, confidence=LIKELY)


def _lacking(models: tuple[ImageModel, ...], match: re.Match[str], item: str) -> str | None:
    """The message for the Python item `match` (of list item text `item`) when every image of `models`
    lacks what it names, None when one may hold it."""
    name = match.group("name")
    scientific = _SCIENTIFIC.search(match.group("rest")) is not None
    if all(_holds_no_python(m) for m in models):
        model = models[0]
        return (
            f"README lists {name} as in the image but {model.path} installs no Python, "
            f"and its base {_base(model)} ships none"
        )
    if scientific and all(_holds_no_library(m) for m in models):
        model = models[0]
        return (
            f"README lists {item.lstrip(' -*+0123456789.)')} as in the image but {model.path} installs "
            f"no Python library (no pip, conda or python3-* package), and its base {_base(model)} ships none"
        )
    return None


def _base(model: ImageModel) -> str:
    """`nvidia/cuda:… (Dockerfile:4)`: the first base the image built starts from, and its line."""
    stage = built_bases(model)[0]
    return f"{stage.base} ({model.path}:{stage.line})"


def _read(model: ImageModel) -> tuple[str, bool]:
    """`contents.copied_context` of `model` (its text, letters and digits only, and whether it runs something
    docgen cannot read) without the files of a copy of the whole build context: a README or course
    material copied in names Python without installing it, and a script of it the image runs is then
    unread."""
    copies = without_whole_context(model.context_copies)
    text, unread_run, _ = context_of(model.file, copies, unbuilt_lines(model))
    return text, unread_run


def _holds_no_library(model: ImageModel) -> bool:
    """True when docgen read all that `model` runs, nothing of it names an installer of Python packages
    (pip, conda, uv …), a `python3-*` package or a scientific library, and every base it is built on
    ships no Python. (A copy of the whole build context installs nothing without an installer.)"""
    if not model.file or model.unread:
        return False
    text, unread_run = _read(model)
    if unread_run or any(word in text for word in _INSTALLER_WORDS):
        return False
    read = dockerfile_read(model.file)
    if read is None or _UV.search(read[0]):
        return False
    if any(c.kind in ("pip", "conda") or c.name.lower().startswith("python3-") for c in model.components):
        return False
    bases = built_bases(model)
    return bool(bases) and all(lacks_python(stage.base) for stage in bases)


def _holds_no_python(model: ImageModel) -> bool:
    """True when `_holds_no_library` and nothing of `model` names Python or installs a package that
    brings its interpreter in (`PULLS_PYTHON`)."""
    if not _holds_no_library(model):
        return False
    if any(word in _read(model)[0] for word in _PYTHON_WORDS):
        return False
    return not any(c.name.lower() in PULLS_PYTHON for c in model.components)
