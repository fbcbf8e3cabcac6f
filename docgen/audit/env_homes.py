"""Environment variables a README says one Dockerfile sets (`The [Dockerfile](Dockerfile) environment
variables:` over a list of `` `DEVICE` ``, `` `OLLAMA_NUM_GPU` ``) that the Dockerfile neither ENV- nor
ARG-declares, with where they are set instead: the `environment:` of a compose file beside the README,
or a script there that exports them.

Only a list (or a table) whose introduction ties it to one audited Dockerfile, by a link, a name in code
or the file's own name, and says `environment variables` (`env vars`, `ENV`) is read; each item's first
upper-case name in code is the variable. An introduction that sets the names apart from the Dockerfile
(`not set in the Dockerfile`, `besides`, a compose file or `docker run -e` named) is none.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.compose_variables import compose_files
from docgen.audit.paths import basename, matching
from docgen.build_scripts import DOCKER, container_command
from docgen.files import is_dockerfile_name, text_or_none
from docgen.markdown import Document, code_spans, links, lists
from docgen.model import Diagnostic, ImageModel

_ENV_WORDS = re.compile(r"\b(?:environment|env)[ \t]+var(?:iable)?s?\b|(?-i:\bENV\b)", re.IGNORECASE)
"""Words saying a list holds environment variables (`environment variables`, `env vars`, `ENV`)."""
_APART = re.compile(
    r"\bnot\b|n't\b|\bbesides\b|\boutside\b|\bother[ \t]+than\b|\binstead\b|\bcompose\b|\.env\b"
    + "|"
    + container_command("run", DOCKER, container=False)
    + r"|(?<![\w-])-e\b|--env\b|\bhost\b|\bruntime\b|\boverrid",
    re.IGNORECASE,
)
"""Words setting the names apart from what the Dockerfile declares."""
_NAME = re.compile(r"[A-Z][A-Z0-9_]{2,}\Z")
_WORD_FILE = re.compile(
    r"(?<![\w./-])((?:[\w.-]+/)*(?:Dockerfile|Containerfile)(?:[._-][\w.-]*\w)?)(?![\w/-])"
)
_MAX_INTRO = 200


def _named_file(intro: str, paths: Sequence[str]) -> int | None:
    """The one audited Dockerfile (index in `paths`) the introduction `intro` names: by a link, a name
    in code, or the file's name written out; None when it names none or several."""
    named: list[str] = [link.target.split("#", 1)[0] for link in links(intro) if link.target]
    named += [content for _, _, content in code_spans(intro)]
    named += _WORD_FILE.findall(intro)
    found: set[int] = set()
    for reference in named:
        if "://" in reference or not is_dockerfile_name(basename(reference)):
            continue
        found |= matching(reference, paths)
    return found.pop() if len(found) == 1 else None


def _first_name(text: str) -> str | None:
    """The first upper-case name in code of a list item or a table cell (`` `OLLAMA_NUM_GPU` ``)."""
    for _, _, content in code_spans(text):
        name = content.strip().split("=", 1)[0]
        if _NAME.match(name):
            return name
    return None


def _said_lists(doc: Document, paths: Sequence[str]) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """(index of the Dockerfile, [(README line, name)]) of each list or table introduced as that
    Dockerfile's environment variables."""
    for block in lists(doc):
        intro = block.intro
        if len(intro) > _MAX_INTRO or not _ENV_WORDS.search(intro) or _APART.search(intro):
            continue
        if (index := _named_file(intro, paths)) is None:
            continue
        named = [(line, name) for line, text in block.items if (name := _first_name(text))]
        if named:
            yield index, named
    for table in doc.tables:
        intro = table.context
        if len(intro) > _MAX_INTRO or not _ENV_WORDS.search(intro) or _APART.search(intro):
            continue
        if (index := _named_file(intro, paths)) is None:
            continue
        named = [(line, name) for line, cells in table.rows if cells and (name := _first_name(cells[0]))]
        if named:
            yield index, named


def _script_setting(directory: Path, name: str) -> str | None:
    """`script:line` of the first line of a shell script in `directory` that sets `name` (`export
    NAME=…`, `NAME=…`, `-e NAME=…`)."""
    sets = re.compile(rf"(?:^|[\s;])(?:export[ \t]+|-e[ \t]+|--env[ \t=]+)?{re.escape(name)}=")
    try:
        scripts = sorted(
            e.name for e in os.scandir(directory) if os.path.isfile(e) and e.name.endswith((".sh", ".bash"))
        )
    except OSError:
        return None
    for script in scripts:
        text = text_or_none(directory / script)
        for number, line in enumerate((text or "").splitlines(), 1):
            if not line.lstrip().startswith("#") and sets.search(line):
                return f"{script}:{number}"
    return None


def env_homes(
    doc: Document, readme: str, directory: Path | None, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each variable of a list introduced as one Dockerfile's environment variables (see the module
    docstring) that no audited Dockerfile sets with ENV or declares with ARG: `certain` when a compose
    file or a script beside the README sets it (said where), `likely` otherwise (the base image may)."""
    paths = [m.path for m in models]
    said = list(_said_lists(doc, paths))
    if not said:
        return
    declared = {e.name for m in models for e in m.env} | {a.name for m in models for a in m.args}
    files = None
    for index, named in said:
        for line, name in named:
            if name in declared:
                continue
            if files is None:
                files = compose_files(doc, directory, (project or directory).resolve()) if directory else []
            where = next(
                (
                    f"{f.shown}:{at}" if at else f.shown
                    for f in files
                    for s in f.services
                    for key, _, at in s.environment
                    if key == name
                ),
                None,
            ) or (_script_setting(directory, name) if directory else None)
            message = (
                f"README says {paths[index]} sets the environment variable {name}, "
                f"but it has no ENV or ARG {name}"
            )
            if where:
                yield Diagnostic(readme, line, f"{message}; {where} sets it", confidence=CERTAIN)
            else:
                yield Diagnostic(readme, line, message, confidence=LIKELY)
