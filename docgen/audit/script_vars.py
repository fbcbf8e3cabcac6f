"""A README's table of the environment variables a named script reads (`` `entrypoint.sh` reads its
flags from environment variables: `` over `| Variable | Default |`), against the `${NAME:-default}`
reads of that script (`docgen.script_env.environment_defaults`): a variable it leaves out, a default
that differs."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.script_args import SCRIPT_NAME, SOME
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel
from docgen.script_env import environment_defaults

_ABOUT = re.compile(r"\bvariables?\b|\benv\b|\benvironment\b", re.IGNORECASE)
_UPPER = re.compile(r"[A-Z][A-Z0-9_]*")
_DEFAULT_HEADER = re.compile(r"\bdefault", re.IGNORECASE)
_EMPTY = frozenset({"", "-", "—", "none", "(none)", "empty", "(empty)", "unset", "n/a", '""', "''"})


def _found(name: str, folders: Sequence[Path]) -> Path | None:
    """The script `name` names, found in one of `folders`."""
    for folder in folders:
        if os.path.isfile(folder / name):
            return folder / name
    return None


def _cell_name(cell: str) -> str | None:
    """The UPPER_SNAKE variable a first cell names (`` `PORT` ``, `PORT`), None for another cell."""
    spans = [code.strip() for _, _, code in code_spans(cell)]
    text = spans[0] if spans else cell.strip().strip("*")
    return text if _UPPER.fullmatch(text) else None


def _cell_default(cell: str) -> str | None:
    """The default a cell gives: its first code span, else its first word; None for an empty one."""
    spans = [code.strip() for _, _, code in code_spans(cell)]
    words = cell.split()
    value = spans[0] if spans else (words[0] if words else "")
    value = value.strip("\"'")
    return None if value.lower() in _EMPTY else value


def script_variables(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A table whose first column names UPPER_SNAKE variables, under text naming one script (found from
    the README's folder, a folder above it or an audited Dockerfile's) and speaking of variables, when
    at least two of its rows, and most, are variables that script reads with a default
    (`${NAME:-default}`): each such variable it leaves out is a finding at its header (`likely`: a table
    may be meant to be short; not under `common`, `some`, `e.g.` …), and each default in a `Default`
    column that differs from the script's (`certain`)."""
    folders = [
        directory,
        *list(directory.resolve().parents)[:4],
        *(Path(m.file).parent for m in models if m.file),
    ]
    read: dict[Path, dict[str, tuple[int, str]]] = {}
    for table in doc.tables:
        if not table.header or not _ABOUT.search(table.context):
            continue
        names = set(SCRIPT_NAME.findall(table.context))
        if len(names) != 1:
            continue
        name = next(iter(names))
        script = _found(name, folders)
        if script is None:
            continue
        if script not in read:
            text = text_or_none(script) or ""
            read[script] = environment_defaults(text)
        reads = read[script]
        rows = [(line, cells, _cell_name(cells[0])) for line, cells in table.rows if cells]
        listed = {n for _, _, n in rows if n}
        known = listed & set(reads)
        if len(known) < 2 or 2 * len(known) <= len(rows):
            continue
        shown = os.path.basename(name)
        left = [n for n in reads if _UPPER.fullmatch(n) and n not in listed]
        if left and not SOME.search(table.context):
            where = ", ".join(
                f"{n} ({shown}:{reads[n][0]}, default {reads[n][1] or 'empty'})" for n in left[:5]
            )
            yield Diagnostic(
                readme,
                table.line,
                f"README's table of the variables {shown} reads leaves out {where}",
                confidence=LIKELY,
            )
        column = next((i for i, cell in enumerate(table.header) if _DEFAULT_HEADER.search(cell)), None)
        if column is None or column == 0:
            continue
        for line, cells, variable in rows:
            if variable not in reads or column >= len(cells):
                continue
            at, default = reads[variable]
            said = _cell_default(cells[column])
            if said is None or "$" in default or said == default:
                continue
            yield Diagnostic(
                readme,
                line,
                f"README says {variable} defaults to {said}, but {shown}:{at} gives it {default or 'none'}",
                confidence=CERTAIN,
            )
