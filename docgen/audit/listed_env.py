"""A README's list of the container's environment variables with their values (`MODEL=base-int8`,
`LANGUAGE=en`, … one a line, in a quote, a list or a code block, under a heading or a sentence about
environment variables), against the defaults the script the image starts gives them (`${NAME:-default}`
in the shell script its ENTRYPOINT or CMD runs, a file of the build context the image copies).

When every other entry of the list that the script reads is that script's default, the list states the
defaults, and an entry whose value is not the script's default is stale: `likely`, at the entry.

Silent for: a list with fewer than two entries matching the script's defaults, or as many differing
entries as matching ones (a list of the user's own settings); a list an example introduces (`for
example`, `e.g.`, `such as`) or one of the user's settings (`.env`, `your`, `set`, `change`,
`override`); lines of a compose `environment:` block or a `docker run -e` (the line before the list is
then no sentence about environment variables); a variable the Dockerfile's ENV sets (that value, not
the script's default, is what a container starts with); a default that expands another variable; a
README value with a placeholder (`<…>`, `$…`); a README audited against several images whose started
scripts give defaults (which one a list speaks of is not known).

Such a list is also read against the scripts the README runs that start a container themselves
(`run_script_env`): a `-e NAME=value` one of them gives its `docker run` is the value a container it
starts has, and a listed value that differs is a finding (`likely`).

The list is read from the parsed README (`Document`), as every other rule reads it: a list in what the
audit sets aside (an HTML comment, a docgen block, a section about the host, a changelog) is not read,
and the line before a list is the nearest one the audit kept.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.audit.env_defaults import same
from docgen.audit.script_args import script_runs
from docgen.audit.unset_stops import FUNCTION, READS_FILES, SHELL_OWN, assigns
from docgen.audit.wording import about_env
from docgen.copied import copied_texts
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, Paragraph, headings_over
from docgen.model import Diagnostic, ImageModel, Setting
from docgen.script_env import environment_defaults

_ENTRY = re.compile(
    r"[ \t]*(?:>[ \t]*)*(?:[-*+][ \t]+)?`?(?:export[ \t]+)?([A-Z][A-Z0-9_]*)="
    r"(\"[^\"`]*\"|'[^'`]*'|[^\s\"'`]*)`?"
    r"(?:[ \t]+.*)?\Z"
)
"""One line that is an entry `NAME=value`, maybe quoted (`>`), a list item, in backticks, words after it."""
_EMPTY_QUOTE = re.compile(r"[ \t]*>[ \t>]*\Z")
"""A line of a quote with nothing in it (`>`), between two entries of a quoted list."""
_EXAMPLE = re.compile(
    r"\bexamples?\b|\be\.g\.|\bsuch as\b|\blike\b|\bsample\b|例如|比如"
    r"|\.env\b|\byour\b|\bcreate\b|\bchange\b|\bset\b|\boverride\b|\bcustom",
    re.IGNORECASE,
)
"""An intro of values the user picks: an example, a `.env` file to write, settings to change."""
_SCRIPT = re.compile(r"\.(?:sh|bash)\Z")


def _started_words(model: ImageModel) -> list[str]:
    """The words of the last ENTRYPOINT and CMD of the image `model` builds: the exec form's words as the
    reader read them (`Setting.exec_form`), else the shell form's."""
    labels = {stage.label for stage in model.chain()}
    last: dict[str, Setting] = {}
    for setting in model.settings:
        if setting.keyword in ("ENTRYPOINT", "CMD") and setting.stage in labels:
            last[setting.keyword] = setting
    words: list[str] = []
    for setting in last.values():
        words.extend(setting.exec_form if setting.exec_form is not None else setting.value.split())
    return words


def started_defaults(model: ImageModel) -> tuple[str, dict[str, tuple[int, str]]] | None:
    """(the script's name, NAME → (script line, default)) of the shell script of the build context the
    image's ENTRYPOINT or CMD runs, when it is one file the image copies; None otherwise."""
    found = started_script(model)
    return None if found is None else (found[0], environment_defaults(found[1]))


def started_script(model: ImageModel) -> tuple[str, str] | None:
    """(the script's name, its text) of the shell script of the build context the image's ENTRYPOINT or
    CMD runs, when it is one file the image copies; None otherwise."""
    scripts = [w for w in _started_words(model) if _SCRIPT.search(w) and "$" not in w]
    if len(scripts) != 1 or not model.file:
        return None
    started = scripts[0]
    read = copied_texts(model.file, tuple(model.context_copies))
    if read is None:
        return None
    found = []
    for copied, text in read[0]:
        if posixpath.basename(copied.dest) != posixpath.basename(started):
            continue
        if posixpath.isabs(copied.dest) and posixpath.isabs(started) and copied.dest != started:
            continue
        found.append((copied, text))
    if len({copied.path for copied, _ in found}) != 1:
        return None
    copied, text = found[0]
    return copied.name, text


def _blocks(doc: Document) -> Iterator[list[tuple[int, str]]]:
    """The (README line, text) of each stretch of `doc` a list may run through: a fenced block's lines
    (blank ones left out: a list goes on over them), and the lines of paragraphs that follow each other
    with only blank lines between them under one heading, no fence between (a list whose items blank
    lines set apart). What the audit set aside is not in `doc`; a line it blanked is blank here."""
    for fence in doc.fences:
        yield [(line, text) for line, text in fence.lines if text.strip()]
    paragraphs = sorted(doc.paragraphs, key=lambda p: p.lines[0][0])
    fence_lines = sorted(f.lines[0][0] for f in doc.fences if f.lines)
    chain: list[tuple[int, str]] = []
    previous: Paragraph | None = None
    for para in paragraphs:
        if (
            previous is None
            or para.section != previous.section
            or para.before != " ".join(text for _, text in previous.lines)
            or bisect.bisect_right(fence_lines, previous.lines[-1][0])
            < bisect.bisect_left(fence_lines, para.lines[0][0])
        ):
            if chain:
                yield chain
            chain = []
        chain.extend(para.lines)
        previous = para
    if chain:
        yield chain


def _runs(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str, str]]]:
    """The entries (README line, name, value) of each run of entry lines of one stretch (`_blocks`),
    empty quote lines (`>`) allowed between them."""
    index = 0
    while index < len(lines):
        if _ENTRY.match(lines[index][1]) is None:
            index += 1
            continue
        entries: list[tuple[int, str, str]] = []
        while index < len(lines):
            line, text = lines[index]
            if (entry := _ENTRY.match(text)) is not None:
                entries.append((line, entry.group(1), entry.group(2).strip("\"'")))
            elif not _EMPTY_QUOTE.match(text):
                break
            index += 1
        yield entries


def _lines_before(doc: Document) -> tuple[list[int], list[str]]:
    """The README lines of `doc` that may introduce a list, in order, and their texts: headings, table
    rows, the lines of paragraphs (a line the audit blanked is ''; empty quote lines are left out) and
    the non-blank lines of fenced blocks."""
    found = [(line, heading) for line, heading in doc.headings]
    for para in doc.paragraphs:
        found.extend(
            (line, text.strip() and text) for line, text in para.lines if not _EMPTY_QUOTE.match(text)
        )
    for fence in doc.fences:
        found.extend((line, text) for line, text in fence.lines if text.strip())
    for table in doc.tables:
        found.append((table.line, " | ".join(table.header)))
        found.extend((line, " | ".join(cells)) for line, cells in table.rows)
    found.sort()
    return [line for line, _ in found], [text for _, text in found]


def _intro(lines: list[int], texts: list[str], first: int) -> str:
    """The text of the nearest line of `doc` before README line `first` (`_lines_before`)."""
    at = bisect.bisect_left(lines, first) - 1
    return texts[at] if at >= 0 else ""


def listed_env(doc: Document, text: str, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if "=" not in text:
        return
    started = [(model, found) for model in models if (found := started_defaults(model)) and found[1]]
    if len(started) != 1:
        return
    model, (script, defaults) = started[0]
    set_by_env = {e.name for e in model.env}
    lines, texts = _lines_before(doc)
    for entries in (run for block in _blocks(doc) for run in _runs(block)):
        intro = _intro(lines, texts, entries[0][0])
        if not about_env(intro.strip(" \t>#*:")) or _EXAMPLE.search(intro):
            continue
        matching, differing = 0, []
        for line, name, value in entries:
            if name not in defaults or name in set_by_env:
                continue
            at, default = defaults[name]
            if "$" in default or not value or "<" in value or "$" in value:
                continue
            if same(value, default):
                matching += 1
            else:
                differing.append((line, name, value, at, default))
        if matching < 2 or len(differing) >= matching:
            continue
        for line, name, value, at, default in differing:
            yield Diagnostic(
                readme,
                line,
                f"README lists {name}={value} among the environment variables, but {script}:{at}, which "
                f"the image starts, defaults it to {default or 'empty'} (`${{{name}:-{default}}}`); the "
                f"list's other entries are its defaults",
                confidence=LIKELY,
            )


_OPTION_VALUE = re.compile(
    r"(?<![\w-])(-+[A-Za-z][\w-]*)[ \t]+\$(?:\{([A-Z][A-Z0-9_]*)\}|([A-Z][A-Z0-9_]*)\b)(?![:\w}-])"
)
"""An option given an unquoted variable as its value: `--host $HOST`, `--tensor-parallel-size ${NUM_GPUS}`."""
_RUN_IMAGE = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+)?run\b")
_HANDLED = r"\$\{{{name}(?::?[-=+?])|\b(?:-z|-n)[ \t]+\"?\$\{{?{name}\b"
"""A read of the variable that copes with it unset: a default (`${NAME:-x}`, `${NAME:=x}`), `${NAME:+x}`,
`${NAME:?msg}`, a test (`[ -z "$NAME" ]`)."""


def unset_started_vars(
    doc: Document, text: str, readme: str, models: Sequence[ImageModel], directory: Path
) -> Iterator[Diagnostic]:
    """The variables the shell script the image starts (`started_script`) passes as an option's value
    (`--host $HOST`, at its top level: not indented, not in a function) that nothing sets when the README
    runs the image: no ENV or ARG of the image, no word of the README (a `-e HOST=…`, an `--env-file`'s
    mention, a sentence: the name written anywhere, case kept), no assignment or read of the script that
    copes with it unset (`HOST=…`, `${HOST:-0.0.0.0}`, `[ -z "$HOST" ]`), no file it reads in (`source`,
    `set -a`), and no compose file, env file or other script of the README's or the Dockerfile's folder
    naming it (`_near_texts`). The option then
    gets no value (the program stops, or takes the next option as the value): `likely`, once at the
    README's first `docker run`, naming every such variable. Silent for a README that runs no container,
    audited against several images that start scripts, and for the variables a shell, a CI runner or a
    GPU base image sets (`HOME`, `CUDA_…`)."""
    runs = [line for fence in doc.fences for line, t in fence.lines if _RUN_IMAGE.search(t)]
    if not runs or len(models) != 1:
        return
    model = models[0]
    found = started_script(model)
    if found is None:
        return
    script, body = found
    if re.search(READS_FILES.pattern, body, re.MULTILINE):
        return
    known = {e.name for e in model.env} | {a.name for a in model.args}
    unset: dict[str, tuple[int, str]] = {}
    inside = False  # within a function's body
    for number, line in enumerate(body.splitlines(), start=1):
        code = line.split(" #", 1)[0]
        if FUNCTION.match(code.strip()) or re.match(r"[\w:.-]+[ \t]*\(\)", code.strip()):
            inside = not code.rstrip().endswith("}")
            continue
        if inside:
            inside = not code.startswith("}")
            continue
        if code[:1] in (" ", "\t"):
            continue
        for match in _OPTION_VALUE.finditer(code):
            name = match.group(2) or match.group(3)
            if name in known or name in unset or SHELL_OWN.fullmatch(name):
                continue
            unset[name] = (number, f"{match.group(1)} ${name}")
    if not unset:
        return
    near = _near_texts([directory, Path(model.file).parent], script)
    named = [
        name
        for name in unset
        if not re.search(rf"(?<![\w]){name}(?![\w])", text)
        and not assigns(body, name)
        and not re.search(_HANDLED.format(name=name), body)
        and not any(re.search(rf"(?<![\w]){name}(?![\w])", t) for t in near)
    ]
    if not named:
        return
    shown = ", ".join(named)
    at = unset[named[0]][0]
    options = "; ".join(unset[n][1] for n in named[:4])
    one = len(named) == 1
    yield Diagnostic(
        readme,
        runs[0],
        f"README's docker run sets no {shown}, but {script}:{at}, which the image starts, passes "
        f"{'it as an option value' if one else 'them as option values'} ({options}) and neither the "
        f"Dockerfile's ENV nor the README sets {'it' if one else 'them'}: the option gets no value",
        confidence=LIKELY,
    )


def _near_texts(folders: Sequence[Path], script: str) -> list[str]:
    """The texts of the compose files, env files (`.env`, `.env.example`, `prod.env`) and shell scripts
    (but the one the image starts, `script`) of `folders`: each may set a variable for the container."""
    texts: list[str] = []
    for folder in dict.fromkeys(real_path(f.absolute()) for f in folders):
        try:
            names = sorted(e.name for e in os.scandir(folder) if e.is_file())
        except OSError:
            continue
        for name in names:
            wanted = (
                compose.FILE_NAME.fullmatch(name) is not None
                or name.startswith(".env")
                or name.endswith(".env")
                or (name.endswith((".sh", ".bash")) and name != posixpath.basename(script))
            )
            if wanted and (read := text_or_none(folder / name, MAX_PROJECT_FILE_BYTES)) is not None:
                texts.append(read)
    return texts


# --------------------------------------------------------------------------------------------------
# A listed value the run script the README starts the container with passes otherwise

_SCRIPT_ENV = re.compile(
    r"(?<![\w-])(?:-e|--env)(?:[ \t]+|=)([\"']?)([A-Z][A-Z0-9_]*)=([^\s\"'\\;&|()`]*)\1(?=[\s\\;&|)]|\Z)"
)
"""A `-e NAME=value` (`--env`) a script gives a `docker run`, the value one plain word."""


def _passed_values(text: str) -> dict[str, tuple[int, str]] | None:
    """NAME → (script line, value) of each variable the script `text` passes with `-e NAME=value` to the
    containers it runs (`docker run`, `podman run`, maybe built up in an array over several lines), when
    it passes it one plain value everywhere; None for a script that runs no container."""
    code = re.sub(r"(?m)^[ \t]*#.*$", "", text)  # (a comment's `-e` passes nothing; lines kept)
    if not _RUN_IMAGE.search(code):
        return None
    values: dict[str, set[str]] = {}
    first: dict[str, int] = {}
    for match in _SCRIPT_ENV.finditer(code):
        name, value = match.group(2), match.group(3)
        values.setdefault(name, set()).add(value)
        first.setdefault(name, code.count("\n", 0, match.start()) + 1)
    return {
        name: (first[name], value)
        for name, (value, *more) in ((n, sorted(v)) for n, v in values.items())
        if not more and value and "$" not in value
    }


def _under_env(doc: Document, intro: str, first: int) -> bool:
    """True when the entries from README line `first` are introduced as the container's environment
    variables: the line before them says so (`Environment variables:`), or it is a heading under one
    that does (`## Environment Variables` over `### ROCm Container`); not an example or the user's own
    settings (`_EXAMPLE`)."""
    if _EXAMPLE.search(intro):
        return False
    if about_env(intro.strip(" \t>#*:")):
        return True
    over = headings_over(doc, first)
    return len(over) > 1 and intro.strip(" \t#") == over[0].strip() and about_env(over[1])


def run_script_env(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    models: Sequence[ImageModel],
) -> Iterator[Diagnostic]:
    """A README's list of the container's environment variables with their values (`_blocks`, `_runs`,
    introduced as environment variables: `_under_env`) that gives a variable another value than the
    `-e NAME=value` of the `docker run` of a script the README runs (`./docker/scripts/run.sh rocm`):
    a container the README starts that way has the script's value (`likely`: the README may start it
    otherwise too, a compose file giving the listed value). Silent for a value with a placeholder or a
    variable (`<…>`, `$…`), one the script passes several values or a variable, and a name the README's
    own commands pass with `-e` (its run sets it as it says)."""
    if "=" not in text or not re.search(r"\.(?:sh|bash)\b", text):
        return
    passed: dict[str, tuple[str, int, int, str]] = {}  # NAME → (script, script line, README line, value)
    read: dict[Path, dict[str, tuple[int, str]] | None] = {}  # (a script run again is read once)
    for line, path, script, _ in script_runs(doc, directory, audited, project):
        if script not in read:
            body = text_or_none(script, MAX_PROJECT_FILE_BYTES)
            read[script] = _passed_values(body) if body is not None else None
        for name, (at, value) in (read[script] or {}).items():
            passed.setdefault(name, (path.removeprefix("./"), at, line, value))  # (as the README runs it)
    if not passed:
        return
    own = {m.group(2) for f in doc.fences for _, t in f.lines for m in _SCRIPT_ENV.finditer(t)}
    env = {e.name: (e.value, e.line, m.path) for m in models for e in m.env if e.value is not None}
    lines, texts = _lines_before(doc)
    for entries in (run for block in _blocks(doc) for run in _runs(block)):
        if not any(name in passed and name not in own for _, name, _ in entries):
            continue
        if not _under_env(doc, _intro(lines, texts, entries[0][0]), entries[0][0]):
            continue
        for line, name, value in entries:
            if name not in passed or name in own or not value or "<" in value or "$" in value:
                continue
            shown, at, run, given = passed[name]
            if same(value, given):
                continue
            image = ""
            if name in env and same(value, env[name][0] or ""):
                image = f" (over the image's ENV {name}={value}, {env[name][2]}:{env[name][1]})"
            yield Diagnostic(
                readme,
                line,
                f"README lists {name}={value} among the environment variables, but {shown}:{at}, "
                f"which the README runs to start the container (line {run}), passes -e {name}={given}"
                f"{image}: a container it starts has {given}",
                confidence=LIKELY,
            )
