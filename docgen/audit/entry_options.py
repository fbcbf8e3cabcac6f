"""The default a README gives an option of the Python program the image starts, against the program's
own `argparse` default.

```
ENTRYPOINT ["python3", "/opt/app/main.py"]      # main.py: parser.add_argument('--stride', default=2)
```

A README that documents the container's arguments (`--stride <n>  Optional. … Default is zero.`) in
a section that runs the image (`docker run`) gives the default the container uses when the option is
left out; a different `default=` in the script's `add_argument` call is a finding (`likely`, at the
README line saying the default).

The script is the `.py` file the last ENTRYPOINT or CMD runs with a Python interpreter, found in the
build context: a file a COPY puts at that path, or a file of a folder whose archive the image copies
and unpacks there (`COPY Workspace.tar.gz /home/` for `/home/Workspace/main.py`, the archive made from
the folder `Workspace/` beside the Dockerfile). The script is read with `ast` (never run or imported).

Silent for: an option the script does not define with a literal `default=` (none, `None`: the value is
set later), one with an `action` (`store_true`: `default: off` is what it means), `nargs` or
`choices`; a section naming another Python script or program (the option may be that one's); a README
value that is not a number or a plain word; a number written as a string (`default='0'` is `0`).
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.env_defaults import same
from docgen.audit.script_args import script_file, started_script
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_OPTION = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
_SAID = re.compile(
    r"\bdefault(?:[ \t]+value)?(?:[ \t]+(?:is|to)[ \t]+|[ \t]*[:=][ \t]*|[ \t]+)"
    r"|\bdefaults[ \t]+to[ \t]+",
    re.IGNORECASE,
)
"""`Default is `, `default: `, `(default=`, `defaults to `: the value follows."""
_VALUE = re.compile(
    r"`([^`\s]{1,40})`|(-?\d+(?:\.\d+)?)(?![\w.-])|(zero|one|two|three|four|five|six|seven|eight|nine|ten)\b",
    re.IGNORECASE,
)
"""The value said: a code span, a number or a number word (a plain word may be none: `default behaviour`)."""
_NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
}
_OTHER_PROGRAM = re.compile(r"[\w/.-]+\.py\b|\bpython[\d.]*[ \t]+-m\b")
_RUNS_IMAGE = re.compile(r"\bdocker[ \t]+(?:container[ \t]+)?run\b|\bpodman[ \t]+run\b")


def argparse_defaults(text: str) -> dict[str, tuple[int, object]]:
    """`--option` → (line, literal default) of each `add_argument` call of the Python source `text` that
    gives a literal `default=` other than None and no `action`, `nargs` or `choices`, an option added
    once; {} when it does not parse or calls `set_defaults`."""
    try:
        tree = ast.parse(text)
    except (
        SyntaxError,
        ValueError,
        MemoryError,
        RecursionError,
    ):  # MemoryError: nesting past the parser's limit
        return {}
    if "set_defaults" in text:
        return {}  # a default given again elsewhere
    found: dict[str, tuple[int, object]] = {}
    twice: set[str] = set()  # in two parsers (subcommands): which one the README means is not known
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        if any(k.arg is None for k in node.keywords) or {"action", "nargs", "choices"} & set(keywords):
            continue
        if "default" not in keywords:
            continue
        try:
            default = ast.literal_eval(keywords["default"])
        except ValueError:
            continue
        if default is None or isinstance(default, bool) or not isinstance(default, (int, float, str)):
            continue
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"):
                twice.update({arg.value} & set(found))
                found.setdefault(arg.value, (node.lineno, default))
    return {option: given for option, given in found.items() if option not in twice}


def _sections(doc: Document, count: int) -> list[tuple[int, int]]:
    """(first, last) 1-based README lines of each section between headings."""
    heads = sorted(line for line, _ in doc.headings)
    bounds = [1, *[h for h in heads if h > 1], count + 1]
    return [(start, end - 1) for start, end in zip(bounds, bounds[1:], strict=False)]


def entry_options(
    doc: Document, text: str, readme: str, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if "--" not in text or "default" not in text.lower():
        return
    started = []
    for model in models:
        path = started_script(model)
        local = script_file(model, path) if path else None
        if path is None or local is None or not os.path.isfile(local):
            continue
        source = text_or_none(local)
        if source is None:
            continue
        if defaults := argparse_defaults(source):
            started.append((posixpath.basename(path), defaults))
    if len(started) != 1:
        return
    script, defaults = started[0]
    lines = text.splitlines()
    for start, end in _sections(doc, len(lines)):
        section = lines[start - 1 : end]
        joined = "\n".join(section)
        if not _RUNS_IMAGE.search(joined):
            continue
        others = {m.group(0) for m in _OTHER_PROGRAM.finditer(joined)}
        if any(posixpath.basename(other) != script for other in others):
            continue
        yield from _said(section, start, defaults, script, readme)


_PY_NAMED = re.compile(r"(?<![\w/.-])((?:\./)?[\w-]+\.py)\b")
_PY_RUN = r"\bpython[\d.]*[ \t]+(?:-\S+[ \t]+)*(?:\./)?{}(?![\w.-])"


def run_script_options(doc: Document, text: str, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The default a section gives an option of a Python script beside the README that the README runs
    (`python eval.py …` in a command, in the image or on the host), against the script's literal
    `argparse` default (`likely`): a section naming that one script alone (`The `eval.py` script accepts
    the following command-line arguments:`) and no other Python script, and that runs no image (those
    are `entry_options`' own)."""
    if "--" not in text or "default" not in text.lower() or ".py" not in text:
        return
    lines = text.splitlines()
    read: dict[str, dict[str, tuple[int, object]]] = {}
    for start, end in _sections(doc, len(lines)):
        section = lines[start - 1 : end]
        joined = "\n".join(section)
        if "default" not in joined.lower() or _RUNS_IMAGE.search(joined):
            continue
        named = {m.group(1).removeprefix("./") for m in _PY_NAMED.finditer(joined)}
        if len(named) != 1 or re.search(r"\bpython[\d.]*[ \t]+-m\b", joined):
            continue
        script = named.pop()
        if script not in read:
            local = directory / script
            source = text_or_none(local) if os.path.isfile(local) else None
            runs = re.search(_PY_RUN.format(re.escape(script)), text) is not None
            read[script] = argparse_defaults(source) if source is not None and runs else {}
        if read[script]:
            yield from _said(section, start, read[script], script, readme, "the README runs")
    yield from _table_defaults(doc, text, readme, directory)


_OPTION_HEADER = re.compile(
    r"\b(?:options?|flags?|arguments?|args?|parameters?|switch(?:es)?)\b", re.IGNORECASE
)
_DEFAULT_HEADER = re.compile(r"\A[*_ \t]*defaults?(?:[ \t]+values?)?[*_ \t]*\Z", re.IGNORECASE)
_NO_VALUE = re.compile(
    r"\A(?:|-+|—|–|n/?a|none|null|empty|\(?empty\)?|required|mandatory|optional|unset|auto(?:matic)?)\Z",
    re.IGNORECASE,
)
"""A default cell that gives no value: blank, a dash, `None`, `required`, `auto`."""


def _script_named(directory: Path, name: str) -> tuple[str, Path] | None:
    """The script `name` beside the README, or when it does not exist the one file there whose name
    differs only by `-` for `_` or one letter's case (`build-docker.py` for `build_docker.py`): the name
    the file has and its path."""
    if "/" in name or name in (".", ".."):
        return None
    local = directory / name
    if os.path.isfile(local):
        return name, local
    try:
        entries = os.listdir(directory)
    except OSError:
        return None
    key = name.replace("-", "_").lower()
    slips = [e for e in entries if e != name and e.replace("-", "_").lower() == key]
    if len(slips) == 1 and os.path.isfile(directory / slips[0]):
        return slips[0], directory / slips[0]
    return None


def _table_defaults(doc: Document, text: str, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The default a table of options gives (`| `--username` | Docker Hub username | Current user |`, a
    column headed `Default`) against the literal `argparse` default of the one Python script the README
    runs (`python3 build-docker.py …`) and names in the table's section or, when that section names
    none, anywhere: `certain`, as a table cell says it. A script named with a slip (`build-docker.py` for
    `build_docker.py`, which another rule reports) is still read. A cell naming the default among other
    words (`ls250824 (Docker Hub user)`) agrees; one giving no value (`-`, `None`, `required`) is not
    compared."""
    if ".py" not in text:
        return
    everywhere = {m.group(1).removeprefix("./") for m in _PY_NAMED.finditer(text)}
    lines = text.splitlines()
    bounds = _sections(doc, len(lines))
    for table in doc.tables:
        options = [i for i, cell in enumerate(table.header) if _OPTION_HEADER.search(cell)]
        given = [i for i, cell in enumerate(table.header) if _DEFAULT_HEADER.match(cell)]
        if len(options) != 1 or len(given) != 1:
            continue
        section = next(("\n".join(lines[a - 1 : b]) for a, b in bounds if a <= table.line <= b), "")
        named = {m.group(1).removeprefix("./") for m in _PY_NAMED.finditer(section)} or everywhere
        if len(named) != 1:
            continue
        script = next(iter(named))
        if re.search(_PY_RUN.format(re.escape(script)), text) is None:
            continue
        found = _script_named(directory, script)
        source = text_or_none(found[1]) if found is not None else None
        defaults = argparse_defaults(source) if source is not None else {}
        if not defaults or found is None:
            continue
        for line, cells in table.rows:
            if max(options[0], given[0]) >= len(cells):
                continue
            flags = {m.group(1) for m in _OPTION.finditer(cells[options[0]])}
            option = next(iter(flags)) if len(flags) == 1 else None
            if option is None or option not in defaults:
                continue
            cell = cells[given[0]].strip()
            value = cell.strip("`*_\"' \t")
            if _NO_VALUE.match(value) or re.search(r"<[^<>]*>|\byour\b|\.\.\.|…", value, re.IGNORECASE):
                continue  # no value, or a placeholder (`<your_user>`)
            at, default = defaults[option]
            if same(value, str(default)) or str(default).lower() in cell.lower():
                continue
            yield Diagnostic(
                readme,
                line,
                f"README says {option} defaults to {cell}, but {found[0]}:{at}, which the README runs, "
                f"gives it default={default!r}",
                confidence=CERTAIN,
            )


def _said(
    section: list[str],
    start: int,
    defaults: dict[str, tuple[int, object]],
    script: str,
    readme: str,
    how: str = "the image starts",
) -> Iterator[Diagnostic]:
    """The defaults the lines of one section give the script's options: the text after an option up to
    the next option or a blank line."""
    option: str | None = None
    for offset, line in enumerate(section):
        if not line.strip():
            option = None
            continue
        rest = line
        named = list(_OPTION.finditer(line))
        if named:
            option = named[-1].group(1)
            rest = line[named[-1].end() :]
            if len({m.group(1) for m in named}) > 1:
                option = None
        if option is None or option not in defaults:
            continue
        said = _SAID.search(rest)
        value_at = _VALUE.match(rest, said.end()) if said is not None else None
        if value_at is None:
            continue
        written = next(group for group in value_at.groups() if group is not None)
        value = _NUMBER_WORDS.get(written.lower(), written)
        at, default = defaults[option]
        if same(value, str(default)):
            option = None
            continue
        yield Diagnostic(
            readme,
            start + offset,
            f"README says {option} defaults to {written}, but {script}:{at}, which "
            f"{how}, gives it default={default!r}",
            confidence=LIKELY,
        )
        option = None
