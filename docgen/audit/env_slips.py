"""Environment variables a README names that nothing of the project knows, one slip away from exactly
one that it does: a list item `` 4. **`NVIDIA_DRIVER_CAPABILITES`** : … `` while the Dockerfile sets
`ENV NVIDIA_DRIVER_CAPABILITIES=all`, or `` `NVIDIA_DIABLE_REQUIRE` `` where the NVIDIA container runtime
reads `NVIDIA_DISABLE_REQUIRE`. A user who sets the name as written sets nothing anyone reads (`likely`,
"did you mean …?").

The README's names are read from code spans that are a variable alone (`` `NAME` ``, `` `NAME=1` ``)
and from the `-e NAME` / `--env NAME` of its command blocks. The names the project knows are the ENV and
ARG names of the audited images, the environment and args of the compose services beside them, every
upper-case name with a `_` in the files (not Markdown) of the README's folder, the Dockerfiles' folders
and their direct subfolders, and the variables the GPU container runtimes read (`hardware`'s table).

A name is read only when it is eight characters or more, no file of the project names it, the README
does not assign it itself (`export NAME=…`, `NAME=…` in a command block), and exactly one known name is
one slip from it: one letter added, dropped, changed, or two swapped, in one part between `_` of at least
five letters (a part of four letters only by a swap: `MODEL_PAHT`). Not a slip: an edit of a digit or of
a `_`, and a plural (`MODEL_PATH` and `MODEL_PATHS` may both be real; for a runtime's variable, whose list
is closed, the plural is a slip). A line naming both names (`use X, not Y`) is silent.

A name no known name is one slip from is read too when a line naming it gives, in code, a value that is
the default of exactly one ARG or ENV of the images under a name sharing a part with it, for a name the
README passes or calls an environment variable (`wording.runtime_names`) (`` `gemma2:2b` ``
for `MODEL_NAME`, `ARG MODEL_LIST="gemma2:2b"`): the README names the variable that does that job
otherwise (`_same_default`, `likely`). A line of a command block that is one `NAME=value` alone (a
setting to paste into a platform) is no assignment of the README's own unless its commands expand `$NAME`.

Each README line is read once; the files of the few folders read are read once each, to a bounded size
and number.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.missing import one_slip
from docgen.audit.names import compose_files
from docgen.audit.preset_env import folder_files
from docgen.audit.run_time import APP_READ
from docgen.audit.wording import runtime_names
from docgen.files import real_path
from docgen.hardware import runtime_reads, runtime_variables
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_VARIABLE = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
_SPAN = re.compile(r"[ \t]*\$?(" + _VARIABLE + r")(?:=\S*)?[ \t]*")
"""A code span that is a variable alone (`NAME`, `$NAME`, `NAME=1`)."""
_PASSED = re.compile(r"(?<![\w-])(?:-e|--env)(?:[ \t]+|=)[\"']?(" + _VARIABLE + r")\b")
"""A variable a command passes to a container (`-e NAME=1`, `--env NAME`)."""
_ASSIGNED = re.compile(r"^[ \t]*(?:\$[ \t]+)?(?:export[ \t]+|ENV[ \t]+|ARG[ \t]+)?(" + _VARIABLE + r")[=\s]")
"""A variable a command block line assigns itself (`export NAME=1`, `NAME=1 ./run.sh`)."""
_DEFINITION = re.compile(r"[ \t]*" + _VARIABLE + r"=[^\s$`;&|]*[ \t]*")
"""A line that is one `NAME=value` alone (a variable to paste into a platform's settings, an env file):
the README's own commands assign nothing with it unless they expand `$NAME`."""
_EXPANDED = re.compile(r"\$\{?(" + _VARIABLE + r")")
_WORD = re.compile(r"(?<![A-Za-z0-9_])" + _VARIABLE + r"(?![A-Za-z0-9_])")
_MIN_NAME = 8
_DEFINE = re.compile(r"(?<![\w-])-D(" + _VARIABLE + r")(?![A-Za-z0-9_])")
"""A compiler or CMake definition, `-DSOLVER_USE_MPI=ON`: the name after `-D` is one the build sets."""
_UNDERSCORE = re.compile("_")


def env_slips(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each variable the README names that is one slip from exactly one the project or a GPU runtime
    knows (see the module docstring)."""
    said = _said(doc)
    if not said:
        return
    expanded = {
        m.group(1) for fence in doc.fences for _, text in fence.lines for m in _EXPANDED.finditer(text)
    }
    assigned = {
        m.group(1)
        for fence in doc.fences
        for _, text in fence.lines
        if (m := _ASSIGNED.match(text)) is not None
        and (m.group(1) in expanded or not _DEFINITION.fullmatch(text))
    }
    asked = [n for n in said if len(n) >= _MIN_NAME and n not in assigned and not runtime_reads(n)]
    known: dict[str, str] = {}  # name → where it is set or read
    for model in models:
        shown = (
            os.path.relpath(Path(model.file).resolve(), directory.resolve())
            if model.file
            else "the Dockerfile"
        )
        for env in model.env:
            known.setdefault(env.name, f"{shown}:{env.line} sets")
        for arg in model.args:
            known.setdefault(arg.name, f"{shown}:{arg.line} declares")
    if all(name in known for name in asked):
        return  # (the files beside are read only for a name the images do not know)
    for composed in compose_files(directory, models, project):
        for service in composed.services:
            for name, _, _ in service.environment:
                known.setdefault(name, "a compose service sets")
    folders = [directory, *(Path(m.file).parent for m in models if m.file)]
    for path, text in folder_files(tuple(dict.fromkeys(real_path(f) for f in folders))):
        shown = os.path.relpath(path, directory.resolve())
        for number, written in enumerate(text.splitlines(), start=1):
            for word in _WORD.findall(written):
                known.setdefault(word, f"{shown}:{number} names")
            for word in _DEFINE.findall(written):
                known.setdefault(word, f"{shown}:{number} names")
    runtimes = runtime_variables()
    for name, runtime in runtimes.items():
        known.setdefault(name, f"{runtime} reads")
    index = SlipIndex(k for k in known if len(k) >= _MIN_NAME)
    defaults = _defaults(models)
    at_run_time = runtime_names(doc)  # (a build arg no Dockerfile declares is `arg_lists`' own)
    for name in asked:
        line, text = said[name][0]
        if name in known:
            continue
        near = [o for o in index.near(name) if _slip(name, o, o in runtimes)]
        if len(near) == 1 and near[0] not in text:
            meant = near[0]
            yield Diagnostic(
                readme,
                line,
                f"README names {name}, which nothing of the project sets or reads; {known[meant]} {meant} "
                f"(did you mean {meant}?)",
                confidence=LIKELY,
            )
        elif not near and not APP_READ.search(name) and name in at_run_time:
            yield from _same_default(readme, name, said[name], defaults, known)


_SAID_LINES = 20
"""Lines naming one variable read at most."""
_PLAIN_VALUE = re.compile(
    r"(?i)\A(?:true|false|yes|no|on|off|none|null|auto|all|default|latest|main|\d{1,4})\Z"
)
"""Values too common to tie two variables (`true`, `0`, `latest`)."""


def _defaults(models: Sequence[ImageModel]) -> dict[str, list[tuple[str, str, int, str]]]:
    """Value → (name, Dockerfile shown, line, `declares`/`sets`) of each ARG default and ENV value of the
    images, values of three characters or more that are no plain word (`_PLAIN_VALUE`)."""
    found: dict[str, list[tuple[str, str, int, str]]] = {}
    for model in models:
        for arg in model.args:
            if arg.default and len(arg.default) >= 3 and not _PLAIN_VALUE.match(arg.default):
                found.setdefault(arg.default, []).append((arg.name, model.path, arg.line, "declares"))
        for env in model.env:
            if env.value and len(env.value) >= 3 and not _PLAIN_VALUE.match(env.value):
                found.setdefault(env.value, []).append((env.name, model.path, env.line, "sets"))
    return found


def _same_default(
    readme: str,
    name: str,
    lines: list[tuple[int, str]],
    defaults: dict[str, list[tuple[str, str, int, str]]],
    known: dict[str, str],
) -> Iterator[Diagnostic]:
    """A variable nothing of the project knows, that a line naming it gives a value in code (`` the
    `gemma2:2b` model ``) which is the default of exactly one ARG or ENV of the images, under another
    name sharing a part with it (`MODEL_LIST` for `MODEL_NAME`): the README names the variable that does
    that job otherwise (`likely`)."""
    parts = {p for p in name.split("_") if len(p) >= 3}
    for line, text in lines:
        for _, _, code in code_spans(text):
            value = code.strip()
            holders = {h[0]: h for h in defaults.get(value, ())}
            if len(holders) != 1:
                continue
            (other, shown, at, how), *_ = holders.values()
            if other == name or other in text or not parts & set(other.split("_")) or other not in known:
                continue
            yield Diagnostic(
                readme,
                line,
                f"README names {name}, which nothing of the project sets or reads, with the value {value}; "
                f"{shown}:{at} {how} {other} with that default (did you mean {other}?)",
                confidence=LIKELY,
            )
            return


def _said(doc: Document) -> dict[str, list[tuple[int, str]]]:
    """The variables the README names in a code span of their own or passes with `-e` → the lines naming
    them so (the first first) with their text, `_SAID_LINES` at most."""
    said: dict[str, list[tuple[int, str]]] = {}

    def add(name: str, line: int, text: str) -> None:
        lines = said.setdefault(name, [])
        if len(lines) < _SAID_LINES and (not lines or lines[-1][0] != line):
            lines.append((line, text))

    for para in doc.paragraphs:
        for line, text in para.lines:
            for _, _, code in code_spans(text):
                match = _SPAN.fullmatch(code)
                if match is not None:
                    add(match.group(1), line, text)
    for table in doc.tables:
        for line, cells in table.rows:
            for cell in cells:
                for _, _, code in code_spans(cell):
                    match = _SPAN.fullmatch(code)
                    if match is not None:
                        add(match.group(1), line, cell)
    for fence in doc.fences:
        for line, text in fence.lines:
            for match in _PASSED.finditer(text):
                add(match.group(1), line, text)
    for lines in said.values():
        lines.sort()
    return said


def _slip(name: str, other: str, closed: bool) -> bool:
    """True when `other` is `name` with one slip in one part between `_` (see the module docstring);
    `closed` when `other` is of a closed list, where a plural is a slip too."""
    return len(other) >= _MIN_NAME and one_slip(name.split("_"), other.split("_"), closed)


class SlipIndex:
    """Names by their parts between `_` (or `separators`) but one, so that the names a name may be one
    slip from (`one_slip`: all parts but one the same) are found in as many look-ups as it has parts.

    A name's key for a left-out part is the hash of the parts before it and of those after it, each
    made part by part from the one before, so that a name of n parts costs n steps, not n² (the
    parts themselves, n - 1 of them for each of its n keys); a name the hashes bring is kept only
    when its parts are the name's but the one at that place."""

    def __init__(self, names: Iterable[str], separators: re.Pattern[str] = _UNDERSCORE) -> None:
        self._split = separators.split
        self._parts: dict[str, list[str]] = {}
        self._by_rest: dict[tuple[int, int, int], list[str]] = {}
        for name in dict.fromkeys(names):
            parts = self._split(name)
            self._parts[name] = parts
            for key in _rest_keys(parts):
                self._by_rest.setdefault(key, []).append(name)

    def near(self, name: str) -> list[str]:
        """The names that have every part of `name` but one, in the same places (`name` left out)."""
        parts = self._split(name)
        found: dict[str, None] = {}
        for key in _rest_keys(parts):
            at = key[0]
            for other in self._by_rest.get(key, ()):
                others = self._parts[other]
                if other != name and others[:at] == parts[:at] and others[at + 1 :] == parts[at + 1 :]:
                    found[other] = None
        return list(found)


def _rest_keys(parts: Sequence[str]) -> Iterator[tuple[int, int, int]]:
    """(place, hash of the parts before it, hash of the parts after it) for each place of `parts`."""
    after = [0]
    for part in reversed(parts[1:]):
        after.append(hash((after[-1], part)))
    before = 0
    for at, part in enumerate(parts):
        yield at, before, after[len(parts) - 1 - at]
        before = hash((before, part))
