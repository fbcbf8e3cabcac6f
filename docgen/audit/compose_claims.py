"""Settings a README says to make in a compose file beside it (`Edit `docker-compose-api.yml` with the
`API_URL` and `API_KEY``) that the file does not hold: no service passes the variable (`environment:`,
`build.args`) nor reads it (`${API_URL}`), so there is nothing there to edit; the finding names the env
file the services read instead, when they read one.

Each line of the prose is read once; every regular expression runs on one line.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.names import COMPOSE_NAMED, Composed, compose_files
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_EDIT = re.compile(
    r"\b(?:edit|set|change|configure|adjust|update|modify|specif(?:y|ies|ied)|fill[ \t]+in|enter|provide)"
    r"(?:s|d|ed|ing|ting)?\b",
    re.IGNORECASE,
)
"""Words telling the reader to put a value somewhere."""
_GENERIC = re.compile(r"\bthe[ \t]+(?:docker[- ]?)?compose[ \t]+file\b", re.IGNORECASE)
"""`the docker-compose file`, `the compose file`: the one compose file beside the README."""
_NAME = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\Z")
"""A variable's name in code (`API_URL`; one with `_`, not a word such as `GPU`)."""
_NOT = re.compile(r"\b(?:not|no|never|don't|doesn't|without|instead)\b", re.IGNORECASE)
_ENV_FILE = re.compile(r"(?<![\w-])[\w.-]*\.env\b|\benv[_ ]?files?\b", re.IGNORECASE)
"""An env file named on the line (`.env`, `settings.env`): the variables may be meant to go there."""


def _named(file: Composed, name: str) -> bool:
    """True when a service of `file` passes or reads the variable `name`: an `environment:` or
    `build.args` key, or a word of any other setting (`${NAME}`, `NAME=…`)."""
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    return any(
        name in {k for k, _ in s.args}
        or name in {k for k, _, _ in s.environment}
        or any(word.search(text) for _, text in s.settings)
        for s in file.services
    )


def compose_settings(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """A prose line that tells to edit or set variables (`API_URL`, in code) in a compose file beside
    the README, by its name or as `the compose file` when there is one, while no service of it passes
    or reads them: `likely` (the reader may be meant to add them), naming the env file the services
    read when they read one (`env_file: .env`). Not a line that says not to (`no need to edit …`), nor
    one naming an env file (`Set X in .env, which the compose file reads`)."""
    files = compose_files(directory, models, project)
    if not files:
        return
    by_name = {posixpath.basename(f.shown): f for f in files}
    for para in doc.paragraphs:
        for number, text in para.lines:
            if not _EDIT.search(text) or "`" not in text or _NOT.search(text) or _ENV_FILE.search(text):
                continue
            named = [by_name[n] for n in dict.fromkeys(COMPOSE_NAMED.findall(text)) if n in by_name]
            if not named and len(files) == 1 and _GENERIC.search(text):
                named = files
            if len(named) != 1:
                continue
            file = named[0]
            if not file.services:  # an empty file (or one of no services) says nothing
                continue
            shown = posixpath.basename(file.shown)
            names = [c.strip() for _, _, c in code_spans(text) if _NAME.match(c.strip())]
            absent = [n for n in dict.fromkeys(names) if not _named(file, n)]
            if not absent:
                continue
            env = sorted({e for s in file.services for e in s.env_files})
            instead = f"; its services read variables from {', '.join(env)} (env_file)" if env else ""
            which = "it" if len(absent) == 1 else "them"
            yield Diagnostic(
                readme,
                number,
                f"README says to set {', '.join(absent)} in {shown}, but no service there passes or "
                f"reads {which}{instead}",
                confidence=LIKELY,
            )
