"""A CUDA, cuDNN or NCCL version the README states (`- cuda: 11.1`, `- cudnn: 8`) that a script the
image holds sets otherwise: the Dockerfile copies the script from its build context (`COPY set_env.sh
./`), the README names the script (runs it, sources it, or lists it among the files to revisit: the
name is all that is read), and the script exports the version variable (`export
CUDA_VERSION="10.1.243"`, `export CUDNN_VERSION="7.6.5.32"`): whoever runs it gets an environment that
says another release than the README (`likely`: the script may be left from an older base).

Read: `Name version` and `Name: version` in the README's prose and list items (not code blocks), the
version compared as far as the README writes it (`11.1` against `10.1.243`). Silent for a script the
README never names or the Dockerfile does not copy, a value with a variable, a minimum (`11.1+`, `or
newer`), and a line about the host or its driver.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.paths import resolves_inside
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_VARIABLES = {"CUDA_VERSION": "CUDA", "CUDNN_VERSION": "cuDNN", "NCCL_VERSION": "NCCL"}
"""The variables a script sets that state a component's release."""
_EXPORT = re.compile(
    r"^[ \t]*(?:export[ \t]+)?(CUDA_VERSION|CUDNN_VERSION|NCCL_VERSION)="
    r"[\"']?(\d+(?:\.\d+){0,3})[\"']?[ \t]*(?:#.*)?$",
    re.MULTILINE,
)
_SAID = re.compile(
    r"(?<![\w./-])(CUDA|cuDNN|NCCL)(?:[ \t]+version)?[ \t]*[:=]?[ \t]*v?(\d+(?:\.\d+){0,3})(?![\w.+])",
    re.IGNORECASE,
)
_NOT_SAID = re.compile(r"\bhost\b|\bdriver\b|\bor[ \t]+(?:newer|later|higher)\b|>=|\bat[ \t]+least\b", re.I)
_SCRIPT = re.compile(r"[\w.-]+\.(?:sh|bash|env)\Z")


def _scripts(models: Sequence[ImageModel]) -> list[tuple[Path, str, str, int]]:
    """(script, its text, Dockerfile, COPY line) of each shell script a COPY of an audited Dockerfile
    takes from its build context (the Dockerfile's folder) that is there."""
    found: list[tuple[Path, str, str, int]] = []
    for model in models:
        if not model.file:
            continue
        context = Path(model.file).resolve().parent
        for copy in model.context_copies:
            if copy.heredoc:
                continue
            for source in copy.sources:
                source = source.strip("\"'").removeprefix("./")
                if "$" in source or "*" in source or source.startswith("/") or not _SCRIPT.search(source):
                    continue
                path = Path(context, *source.split("/"))
                if not os.path.isfile(path) or not resolves_inside(path, context):
                    continue
                text = text_or_none(path)
                if text is not None and _EXPORT.search(text):
                    found.append((path, text, model.path, copy.line))
    return found


def script_versions(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The README's CUDA, cuDNN and NCCL versions that a script the image holds and the README names
    exports otherwise (see the module docstring), once per line and component."""
    if ".sh" not in text and ".bash" not in text and ".env" not in text:
        return  # (most READMEs: no script named)
    scripts = [s for s in _scripts(models) if re.search(rf"(?<![\w-]){re.escape(s[0].name)}(?![\w-])", text)]
    if not scripts:
        return
    exported: dict[str, tuple[str, str, int, str, int]] = {}
    for path, script, dockerfile, at in scripts:
        for match in _EXPORT.finditer(script):
            line = script.count("\n", 0, match.start()) + 1
            try:
                shown = path.relative_to(directory.resolve()).as_posix()
            except ValueError:
                shown = path.name
            exported.setdefault(
                _VARIABLES[match.group(1)].lower(), (match.group(2), shown, line, dockerfile, at)
            )
    for para in doc.paragraphs:
        for line, words in para.lines:
            if _NOT_SAID.search(words):
                continue
            told: set[str] = set()
            for match in _SAID.finditer(words):
                name, said = match.group(1), match.group(2)
                key = name.lower()
                if key not in exported or key in told:
                    continue
                value, shown, at, dockerfile, copied = exported[key]
                if value.split(".")[: len(said.split("."))] == said.split("."):
                    continue
                told.add(key)
                variable = next(v for v, n in _VARIABLES.items() if n.lower() == key)
                name_of = _VARIABLES[variable]
                yield Diagnostic(
                    readme,
                    line,
                    f"README says {name_of} {said}, but {shown}:{at}, which {dockerfile}:{copied} "
                    "copies into the image and the README names, "
                    f"sets {variable}={value}",
                    confidence=LIKELY,
                )
