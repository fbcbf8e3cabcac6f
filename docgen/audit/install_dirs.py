"""The folder prose says something is installed into (`This container installs Anaconda into the
`/usr/local/anaconda` directory`) against the folder a build arg or ENV of the image names (`ARG
ANACONDA_PATH="/usr/local/anaconda3"`): a path the Dockerfile names nowhere, next to one it gives a
variable that is that path but for one character more, less or changed (`anaconda3` for `anaconda`).

The path must be in code and said to be where a thing is installed (`install… into / in / to`) or
be `the `/x/y` directory|folder`; the image's path must be a variable's value (the place the build
installs to, not one a RUN happens to name), in the same folder. `likely`: read from prose.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, also_at, dockerfile_read
from docgen.audit.versions import differing
from docgen.markdown import Document
from docgen.model import Diagnostic

_CLAIM = re.compile(
    r"\binstall(?:s|ed|ing)?\b[^`.;]{0,60}?\b(?:in|into|to|under)[ \t]+(?:the[ \t]+)?`(/[\w.+/-]+?)/?`"
    r"|\b(?:in|into|under)[ \t]+the[ \t]+`(/[\w.+/-]+?)/?`[ \t]+(?:directory|folder)\b",
    re.IGNORECASE,
)
"""`installs Anaconda into the `/usr/local/anaconda` directory`, `in the `/opt/conda` folder`."""
_NOT_THE_IMAGE = re.compile(r"\byour\b|\bhost\b|\bmount|\bif\b|\bcan\b|\bnot\b|n't\b", re.IGNORECASE)
"""A sentence about the reader's folders, the host, a mount or a choice is no claim about the image."""


def install_dirs(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """One finding for each path the prose says things are installed into (see the module) that the
    Dockerfiles name nowhere while a variable of theirs names the path a character away."""
    claims: dict[str, list[int]] = {}
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`/" not in text or _NOT_THE_IMAGE.search(text):
                continue
            for match in _CLAIM.finditer(text):
                claims.setdefault(match.group(1) or match.group(2), []).append(line)
    if not claims:
        return
    values = _path_values(auditor)
    texts = [read[0] for m in auditor.models if (read := dockerfile_read(m.file)) is not None]
    for path, lines in claims.items():
        if any(re.search(re.escape(path) + r"(?![\w.+-])", text) for text in texts):
            continue  # the Dockerfile names it: the image has it
        near = [(v, where) for v, where in values if _one_off(path, v)]
        if len({v for v, _ in near}) != 1:
            continue
        value, where = near[0]
        yield Diagnostic(
            auditor.path,
            lines[0],
            f"README says things are installed into {path} but {where}: the image uses {value}"
            f"{also_at(lines)}",
            confidence=LIKELY,
        )


def _path_values(auditor: Auditor) -> list[tuple[str, str]]:
    """(absolute path, `Dockerfile:36 sets ARG NAME`) of each ARG default and ENV value that is one path."""
    found: list[tuple[str, str]] = []
    for model in auditor.models:
        for arg in model.args:
            if arg.default and arg.default.startswith("/") and ":" not in arg.default:
                found.append(
                    (arg.default.rstrip("/"), f"{model.path}:{arg.line} sets ARG {arg.name}={arg.default}")
                )
        for env in model.env:
            if env.value and env.value.startswith("/") and ":" not in env.value and not env.inherited:
                found.append(
                    (env.value.rstrip("/"), f"{model.path}:{env.line} sets ENV {env.name}={env.value}")
                )
    return found


def _one_off(said: str, value: str) -> bool:
    """True when `value` is `said` but for one character of its last part added, dropped or changed, in
    the same folder (`/usr/local/anaconda3` for `/usr/local/anaconda`); not a version apart
    (`cuda-12.4` for `cuda`)."""
    if said == value or posixpath.dirname(said) != posixpath.dirname(value):
        return False
    a, b = posixpath.basename(said), posixpath.basename(value)
    if len(a) < 4 or abs(len(a) - len(b)) > 1:
        return False
    in_a, in_b = differing(a, b)
    edited = in_a + in_b
    return len(edited) == 1 or (len(edited) == 2 and len(in_a) == 1 and not edited.isdigit())
