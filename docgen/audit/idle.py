"""Build args the README documents that change nothing: the Dockerfile declares them but never reads
them (`docgen lint`'s DG003), often because every line that read them was commented out
(`README documents build arg TENSORRT_VERSION, but Dockerfile:10 declares it and never uses it: its
only uses are commented out, lines 79-103`), or read only in a branch that never runs, under a test that
a variable nothing declares is set (`if [ -n "${TENSORRT_TENSORRT_VERSION}" ]; then … fi`), or read
only by a RUN that does nothing but set shell variables, which end with it (`docgen lint`'s DG011:
`if [ "${ALLOCATOR}" = "jemalloc" ]; then ALLOCATOR_PACKAGE=libjemalloc-dev; fi`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.cells import arg_names_in_cell, is_build_arg_table
from docgen.audit.coverage import UNUSED, linted_args
from docgen.evaluate import PREDEFINED_ARGS
from docgen.lint import only_assigned
from docgen.markdown import Document, headings_over
from docgen.model import Diagnostic, ImageModel, Instruction
from docgen.shell import referenced_names


def table_args(doc: Document, declared: frozenset[str]) -> set[str]:
    """The names of the rows of the README's build-argument tables."""
    found: set[str] = set()
    for table in doc.tables:
        column = is_build_arg_table(table, declared, over=" ".join(headings_over(doc, table.line)))
        if column is None:
            continue
        for _, cells in table.rows:
            if column < len(cells):
                found.update(arg_names_in_cell(cells[column]))
    return found


def _first_line(doc: Document, name: str) -> int:
    """README line where `name` first appears as a word (0 when it does not)."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    lines = [line for para in doc.paragraphs for line, text in para.lines if word.search(text)]
    lines += [line for fence in doc.fences for line, text in fence.lines if word.search(text)]
    for table in doc.tables:
        lines += [line for line, cells in table.rows if any(word.search(cell) for cell in cells)]
    return min(lines, default=0)


def _commented_uses(model: ImageModel, name: str) -> list[int]:
    """Lines of `model`'s Dockerfile that read `name` (`$NAME`, `${NAME}`) inside a comment."""
    try:
        with open(model.file, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return []
    use = re.compile(rf"\$\{{?{re.escape(name)}(?![A-Za-z0-9_])")
    return [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if line.lstrip().startswith("#") and use.search(line)
    ]


_SAID_UNUSED = re.compile(
    r"\b(?:not[ \t]+(?:yet[ \t]+|currently[ \t]+)?(?:used|consumed|read|wired)|unused|reserved"
    r"|forward[ \t-]compat\w*|for[ \t]+(?:later|future)|future[ \t]+use|placeholder|no[ \t]+effect)\b",
    re.IGNORECASE,
)
"""Words of a comment saying an ARG is declared on purpose with no use yet (`Not consumed by the current
stages -- present for forward-compatibility`, `reserved for later`, `unused for now`)."""


def _said_unused(model: ImageModel, line: int) -> bool:
    """True when the comment block right above the ARG at `line` of `model`'s Dockerfile says the arg is
    unused on purpose, reserved or for later (`_SAID_UNUSED`)."""
    try:
        with open(model.file, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return False
    if not 0 < line <= len(lines):
        return False
    block: list[str] = []
    at = line - 2
    while at >= 0 and lines[at].lstrip().startswith("#"):
        block.append(lines[at])
        at -= 1
    return bool(_SAID_UNUSED.search(" ".join(block)))


_ID_OPTION = re.compile(
    r"\b(?P<command>useradd|adduser|usermod|groupadd|addgroup|groupmod)\b[^;&|\n]*?(?<![\w-])"
    r"(?P<option>-u|--uid|-g|--gid)(?:[ \t]+|=)[\"']?\$\{?(?P<name>[A-Za-z_]\w*)"
)
"""A user or group id a RUN reads from a variable (`useradd -u $USER_GID`, `groupadd --gid ${GID}`)."""


def _id_taken_from(model: ImageModel, name: str) -> tuple[int, str, str] | None:
    """(line, command and option, variable) of the first `useradd -u` / `groupadd -g` … of `model`'s RUNs
    that reads another variable where the unread arg `name` says it holds that id (`USER_UID` for `-u`,
    `GID` for `-g`): the arg meant, left unread by a slip."""
    kind = "u" if re.search(r"(?:^|_)U?UID$", name) else "g" if re.search(r"(?:^|_)GID$", name) else None
    if kind is None:
        return None
    read = dockerfile_read(model.file) if model.file else None
    for inst in read[1].instructions if read is not None else ():
        if inst.keyword != "RUN":
            continue
        text = inst.original or inst.args
        for match in _ID_OPTION.finditer(text):
            if match.group("option").lstrip("-")[0] == kind and match.group("name") != name:
                line = inst.start_line + text.count("\n", 0, match.start("option"))
                return line, f"{match.group('command')} {match.group('option')}", match.group("name")
    return None


def idle_args(
    doc: Document, models: Sequence[ImageModel], path: str, documented: frozenset[str]
) -> Iterator[Diagnostic]:
    """A build arg the README documents (after `--build-arg`, in code in a paragraph or list about build
    args: `documented`; a row of a build-argument table) that every audited Dockerfile declaring it
    declares and never reads: setting it changes nothing (`likely`)."""
    declared = frozenset(a.name for m in models for a in m.args)
    named = (set(documented) | table_args(doc, declared)) & declared
    # only an arg no instruction reads (`used_lines`) is asked about, and only then is the file linted
    idle = {name for name in named if all(not a.used_lines for m in models for a in m.args if a.name == name)}
    if not idle:
        return
    # each arg DG003 finds never used → the line declaring it, per image that declares an idle one
    linted = [m for m in models if m.file and any(a.name in idle for a in m.args)]
    unused = {id(m): linted_args(m, "DG003", UNUSED) for m in linted}
    for name in sorted(idle - PREDEFINED_ARGS):  # BuildKit sets those: documenting them tells, not asks
        owners = [m for m in models if any(a.name == name for a in m.args)]
        if not owners or not all(name in unused.get(id(m), {}) for m in owners):
            continue
        if any(_said_unused(m, unused[id(m)][name]) for m in owners):
            continue
        line = _first_line(doc, name)
        if not line:
            continue
        model = owners[0]
        where = ", ".join(f"{m.path}:{unused[id(m)][name]}" for m in owners)
        message = f"README documents build arg {name}, but {where} declares it and never uses it"
        commented = _commented_uses(model, name) if len(owners) == 1 else []
        if commented:
            span = f"line {commented[0]}" if len(commented) == 1 else f"lines {commented[0]}-{commented[-1]}"
            message += f" (its only uses are commented out: {span})"
        elif len(owners) == 1 and (taken := _id_taken_from(model, name)) is not None:
            message += f" (line {taken[0]} runs {taken[1]} ${taken[2]}: the id comes from {taken[2]})"
        yield Diagnostic(path, line, message, confidence=LIKELY)


_SET_TEST = re.compile(
    r"\bif[ \t]+(?:\[\[?|test\b)[ \t]+(?:-n[ \t]+|!?[ \t]*-z[ \t]+)?"
    r"\"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\"?[ \t]*(?:\]\]?)?[ \t]*;?[ \t]*(?:\\\n[ \t]*)?then\b"
)
"""An `if` whose test is that one variable is set (`if [ -n "${X}" ]; then`, `if [ "$X" ]`, `if test -n
"$X"`; `! -z` too): the branch runs only when `X` is not empty."""
_NOT_EMPTY = re.compile(r"(?:-n|!\s*-z)\s|\[\[?\s*\"?\$|test\s+\"?\$")
_IF_FI = re.compile(r"\b(?:if|fi)\b")
_SOURCES = re.compile(r"(?:^|[;&|(]|\bthen\b|\bdo\b)[ \t\\\n]*(?:source|\.|eval)[ \t]", re.M)
"""A shell command that may set variables the Dockerfile does not show (`. /etc/os-release`, `source
env.sh`, `eval "$(…)"`)."""


def _scoped_line(doc: Document, name: str, models: Sequence[ImageModel]) -> bool:
    """True when a README line naming `name` also names one of `models`' Dockerfiles (`only used in
    Dockerfile.from-source`, `(gpu.Dockerfile only)`): the README scopes the arg itself."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    files = [m.path.rsplit("/", 1)[-1] for m in models]
    marks = {f for f in files} | {part for f in files for part in re.split(r"[./]", f) if len(part) > 3}
    marks -= {"Dockerfile", "dockerfile"}
    texts = [text for para in doc.paragraphs for _, text in para.lines]
    texts += [" ".join(cells) for table in doc.tables for _, cells in table.rows]
    return any(word.search(text) and any(mark in text for mark in marks) for text in texts)


def partly_idle_args(
    doc: Document, models: Sequence[ImageModel], path: str, documented: frozenset[str]
) -> Iterator[Diagnostic]:
    """Build args the README documents for several audited Dockerfiles it names (each declares them)
    that one of them declares and never reads while another reads them: setting them changes nothing in
    that image (`likely`), unless a README line naming the arg names a Dockerfile too (it scopes the arg
    itself). One finding per such Dockerfile, on the README line that first names one of its args."""
    owners_of: dict[str, list[ImageModel]] = {}
    for model in models:
        for name in dict.fromkeys(a.name for a in model.args):
            owners_of.setdefault(name, []).append(model)
    declared = frozenset(owners_of)
    named = (set(documented) | table_args(doc, declared)) & declared
    named -= PREDEFINED_ARGS
    shared = {n for n in named if len(owners_of[n]) > 1}
    if not shared:
        return
    readme = " ".join(text for para in doc.paragraphs for _, text in para.lines)
    if not all(m.path.rsplit("/", 1)[-1] in readme for m in models):
        return  # (the README must speak of each image)
    reads = {(id(m), a.name) for m in models for a in m.args if a.used_lines}
    partly = {
        n
        for n in shared
        if any((id(m), n) in reads for m in owners_of[n])
        and any((id(m), n) not in reads for m in owners_of[n])
    }
    if not partly:
        return
    for model in models:
        idle = sorted(n for n in partly if model in owners_of[n] and (id(model), n) not in reads)
        if not idle:
            continue
        unused = linted_args(model, "DG003", UNUSED)
        idle = [n for n in idle if n in unused and not _said_unused(model, unused[n])]
        idle = [n for n in idle if not _scoped_line(doc, n, owners_of[n]) and _first_line(doc, n)]
        if not idle:
            continue
        lines = {n: _first_line(doc, n) for n in idle}
        idle.sort(key=lambda n: lines[n])
        readers = sorted({r.path for n in idle for r in owners_of[n] if (id(r), n) in reads})
        what = f"build arg {idle[0]}" if len(idle) == 1 else f"build args {', '.join(idle)}"
        at = ", ".join(str(unused[n]) for n in idle)
        yield Diagnostic(
            path,
            lines[idle[0]],
            f"README documents {what} for {', '.join(m.path for m in owners_of[idle[0]])}, but "
            f"{model.path} declares {'it' if len(idle) == 1 else 'them'} (line{'s' if len(idle) > 1 else ''} "
            f"{at}) and never uses {'it' if len(idle) == 1 else 'them'}: setting "
            f"{'it' if len(idle) == 1 else 'them'} changes nothing in that image (only {', '.join(readers)} "
            f"{'reads' if len(readers) == 1 else 'read'} {'it' if len(idle) == 1 else 'them'})",
            confidence=LIKELY,
        )


def _branch_end(text: str, start: int) -> int:
    """Where the `if` block whose `then` ends at `start` in `text` closes (its `fi`; the end of the text
    when it has none)."""
    depth = 1
    for match in _IF_FI.finditer(text, start):
        depth += 1 if match.group() == "if" else -1
        if depth == 0:
            return match.start()
    return len(text)


def _dead_guard(inst: Instruction, name: str, unbound: frozenset[str]) -> tuple[str, int] | None:
    """The variable of an `if` testing that it is set (`_SET_TEST`) that `inst` reads `name` under each
    time, when that variable is one nothing binds (`unbound`): the branch never runs; with the Dockerfile
    line of that `if`. None when a read of `name` lies outside such a branch."""
    text = inst.original or inst.args
    if _SOURCES.search(text):
        return None  # the file it sources or evaluates may set the variable
    reads = [m.start() for m in re.finditer(rf"\$\{{?{re.escape(name)}(?![A-Za-z0-9_])", text)]
    if not reads:
        return None
    spans = [
        (m.end(), _branch_end(text, m.end()), (m.group(1), inst.start_line + text.count("\n", 0, m.start())))
        for m in _SET_TEST.finditer(text)
        if m.group(1) in unbound and _NOT_EMPTY.search(m.group())
    ]
    guards = {next((guard for a, b, guard in spans if a <= at < b), None) for at in reads}
    return guards.pop() if len(guards) == 1 and None not in guards else None


def guarded_args(
    doc: Document, models: Sequence[ImageModel], path: str, documented: frozenset[str]
) -> Iterator[Diagnostic]:
    """A build arg the README documents that every audited Dockerfile declaring it reads only inside an
    `if` testing that a variable no ARG or ENV of any audited image declares (nor BuildKit sets) is not
    empty (`if [ -n "${TENSORRT_TENSORRT_VERSION}" ]; then … ${TENSORRT_VERSION} … fi`): the test is
    always false, setting the arg changes nothing (`likely`: the base image may set the variable)."""
    declared = frozenset(a.name for m in models for a in m.args)
    bound = declared | {e.name for m in models for e in m.env} | PREDEFINED_ARGS
    named = (set(documented) | table_args(doc, declared)) & declared
    for name in sorted(named - PREDEFINED_ARGS):
        owners = [m for m in models if any(a.name == name for a in m.args)]
        uses = [(m, line) for m in owners for a in m.args if a.name == name for line in a.used_lines]
        if not uses or not all(m.file for m in owners):
            continue
        found: list[tuple[ImageModel, tuple[str, int]]] = []
        for model, line in uses:
            unbound = frozenset(v for v, at in model.unbound_reads if at == line) - bound
            inst = _instruction_at(model, line) if unbound else None
            guard = _dead_guard(inst, name, unbound) if inst is not None else None
            if guard is None:
                break
            found.append((model, guard))
        else:
            readme_line = _first_line(doc, name)
            if not readme_line:
                continue
            model, (variable, line) = found[0]
            message = (
                f"README documents build arg {name}, but {model.path}:{line} reads it only in a branch "
                f"that tests ${{{variable}}}, which nothing declares: the branch never runs"
            )
            yield Diagnostic(path, readme_line, message, confidence=LIKELY)


def lost_args(
    doc: Document, models: Sequence[ImageModel], path: str, documented: frozenset[str]
) -> Iterator[Diagnostic]:
    """A build arg the README documents that every audited Dockerfile declaring it reads only in RUNs
    that do nothing but set shell variables (`docgen.lint.only_assigned`, DG011), itself or through an
    ENV giving the image a variable of the arg's own name (`ENV ALLOCATOR=${ALLOCATOR}`, then `RUN if
    [ "${ALLOCATOR}" = "jemalloc" ]; then ALLOCATOR_PACKAGE=libjemalloc-dev; fi`): what the RUN sets
    ends with its shell, so the choice the arg makes reaches no later line (`likely`: the README may
    mean only the image's variable)."""
    declared = frozenset(a.name for m in models for a in m.args)
    named = (set(documented) | table_args(doc, declared)) & declared
    for name in sorted(named - PREDEFINED_ARGS):
        owners = [m for m in models if any(a.name == name for a in m.args)]
        if not owners or not all(m.file for m in owners):
            continue
        lost = [_lost_reads(model, name) for model in owners]
        if not all(lost):
            continue
        readme_line = _first_line(doc, name)
        if not readme_line:
            continue
        (model, line, assigned), *_ = lost[0]
        yield Diagnostic(
            path,
            readme_line,
            f"README documents build arg {name}, but {model.path}:{line} reads it only in a RUN that does "
            f"nothing but set shell variables ({', '.join(assigned)}), which end with that RUN: the choice "
            f"{name} makes reaches no later line (docgen lint: DG011)",
            confidence=LIKELY,
        )


def _lost_reads(model: ImageModel, name: str) -> list[tuple[ImageModel, int, list[str]]]:
    """The RUNs of `model` reading build arg `name` that only set shell variables (line, the variables
    set), when those are all its reads: the arg's own reads (`used_lines`), and for an ENV of the same
    name, the reads of that variable by the later instructions of its stage. [] when any read does
    more, or there is none."""
    read = dockerfile_read(model.file)
    if read is None:
        return []
    instructions = read[1].instructions
    lines = sorted({line for a in model.args if a.name == name for line in a.used_lines})
    found: list[tuple[ImageModel, int, list[str]]] = []
    for line in lines:
        at = next((k for k, i in enumerate(instructions) if i.start_line == line), None)
        if at is None:
            return []
        inst = instructions[at]
        if inst.keyword == "ENV" and any(p.partition("=")[0] == name for p in inst.args.split()):
            later = []
            for other in instructions[at + 1 :]:
                if other.keyword == "FROM":
                    break
                if name in referenced_names(other.body):
                    later.append(other)
            if not later:
                return []  # the image's own variable, read at run time: no choice lost
            for other in later:
                assigned = only_assigned(other.args) if other.keyword == "RUN" and not other.heredocs else []
                if other.exec_form is not None or not assigned:
                    return []
                found.append((model, other.start_line, assigned))
            continue
        assigned = only_assigned(inst.args) if inst.keyword == "RUN" and not inst.heredocs else []
        if inst.exec_form is not None or not assigned:
            return []
        found.append((model, line, assigned))
    return found


def _instruction_at(model: ImageModel, line: int) -> Instruction | None:
    """The instruction of `model`'s Dockerfile starting at `line` (read once for every rule, by
    `auditor.dockerfile_read`)."""
    read = dockerfile_read(model.file)
    if read is None:
        return None
    return next((i for i in read[1].instructions if i.start_line == line), None)
