"""Build args the README documents as ones to set whose default the Dockerfile also writes out, in the
same word that reads the arg: `wget …/cudnn/9.5.0/…/cudnn-local-repo-${CUDNN_VERSION}_1.0-1_amd64.deb`
beside `ARG CUDNN_VERSION=9.5.0`. Only the default builds: another value changes the file name and not
the folder, and the download fails. (`docgen lint`'s hard-coded values are on lines that do not read
the arg; this is the line that does.)

The default is a version (`9.5.0`, `v2.1`: two to four numbers), found whole (not in `19.5.0` nor
`9.5.0.1`) in a word of a RUN, ADD or COPY (text between blanks, a comment line skipped) that also reads
the arg plainly (`$NAME`, `${NAME}`; a `${NAME:-9.5.0}` fallback is the arg's own, not a copy of it), on
a line where the arg is in scope. The README documents the arg after `--build-arg`, in code in a
paragraph or list about build args, or in a build-argument table. `likely`: the word may be one the
arg's other values do not need changed (rare; a maintainer would still make both read the arg).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.idle import table_args
from docgen.evaluate import PREDEFINED_ARGS
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_VERSION = re.compile(r"v?\d+(?:\.\d+){1,3}")
"""A default that is a version (`9.5.0`, `v2.1`, `1.2.3.4`)."""
_KEYWORDS = frozenset({"RUN", "ADD", "COPY"})
_SHOWN = 90
"""Characters of the word shown whole in a finding at most (a longer URL is cut to its two parts)."""


def _fixed_words(model: ImageModel, name: str, default: str) -> Iterator[tuple[int, str]]:
    """(Dockerfile line, word) of each word of `model`'s RUN/ADD/COPY lines reading `name` plainly that
    also holds `default` whole (see the module's docstring)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return
    used = {line for a in model.args if a.name == name for line in a.used_lines}
    reference = re.compile(rf"\$(?:\{{{re.escape(name)}\}}|{re.escape(name)}(?![A-Za-z0-9_]))")
    fallback = re.compile(rf"\$\{{{re.escape(name)}[^A-Za-z0-9_}}]")
    literal = re.compile(rf"(?<![\w.]){re.escape(default)}(?!\d|\.\d)")
    for inst in read[1].instructions:
        if inst.keyword.upper() not in _KEYWORDS or inst.start_line not in used:
            continue
        for offset, text in enumerate((inst.original or inst.args).splitlines()):
            if text.lstrip().startswith("#") or name not in text:
                continue
            for word in text.split():
                if reference.search(word) and not fallback.search(word) and literal.search(word):
                    yield inst.start_line + offset, word


def _readme_line(doc: Document, name: str) -> int:
    """README line documenting `name`: the first outside a code block (a list item, a table row: the
    line that says what it is for), else the first in one; 0 when none names it."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    prose = [line for para in doc.paragraphs for line, text in para.lines if word.search(text)]
    prose += [
        line for table in doc.tables for line, cells in table.rows if any(word.search(c) for c in cells)
    ]
    if prose:
        return min(prose)
    return min((line for fence in doc.fences for line, text in fence.lines if word.search(text)), default=0)


def _shown(word: str, default: str, name: str) -> str:
    """`word` as a finding quotes it: whole up to `_SHOWN` characters, else the part from the default to
    the arg's reference with a little around them."""
    if len(word) <= _SHOWN:
        return word
    at = [word.find(default), word.find("$" + name), word.find("${" + name)]
    marks = [a for a in at if a >= 0]
    start = max(0, min(marks) - 12)
    end = min(len(word), max(marks) + len(name) + 3 + 12)
    return ("…" if start else "") + word[start:end] + ("…" if end < len(word) else "")


def fixed_defaults(
    doc: Document, models: Sequence[ImageModel], path: str, documented: frozenset[str]
) -> Iterator[Diagnostic]:
    """A build arg the README documents (`documented`: after `--build-arg`, in code about build args;
    or a row of a build-argument table) whose default every audited Dockerfile declaring it also writes
    literally in a word that reads it (`likely`): only the default builds as meant."""
    declared = frozenset(a.name for m in models for a in m.args)
    named = (set(documented) | table_args(doc, declared)) & declared
    for name in sorted(named - PREDEFINED_ARGS):
        owners = [m for m in models if any(a.name == name for a in m.args)]
        found: list[tuple[ImageModel, str, int, str]] = []
        for model in owners:
            defaults = {a.default for a in model.args if a.name == name and a.default}
            default = defaults.pop() if len(defaults) == 1 else ""
            hits = list(_fixed_words(model, name, default)) if _VERSION.fullmatch(default) else []
            if not hits:
                break
            found.append((model, default, *hits[0]))
        else:
            line = _readme_line(doc, name) if found else 0
            if not line:
                continue
            model, default, at, word = found[0]
            message = (
                f"README documents build arg {name} as one to set, but {model.path}:{at} writes its default "
                f"{default} literally beside ${{{name}}} in `{_shown(word, default, name)}`: another value "
                f"changes one and not the other, so only {default} builds as meant"
            )
            yield Diagnostic(path, line, message, confidence=LIKELY)
