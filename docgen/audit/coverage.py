"""Which build args a README's list of them covers without naming each: a row or item that names a
family of args (`SPACKPACKAGES_*`, `*_VERSION`, `CUDA_{MAJOR,MINOR}`, `MODEL_<NAME>`), an arg
no instruction reads, and one declared only in stages the build never runs (setting either changes
nothing, so no reference table owes it a row); the args that only stamp the image's metadata (a
LABEL's value: a CI's build id; a line echoed into a notice file nothing reads), which a table of the
args a user sets owes no row either; and an arg
whose default only joins args the list documents (`ARG BASE=${BASE_NAME}:${BASE_VERSION}`: the list
documents its parts); an arg its comment says is for internal use (`# for internal use - …` right above
the ARG).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Sequence

from docgen.errors import DocgenError
from docgen.model import Diagnostic, ImageModel, Instruction

_FAMILY = re.compile(r"[A-Za-z0-9_]*(?:\*|<[A-Za-z_ -]+>|\{[A-Za-z0-9_, ]+\})[A-Za-z0-9_*<>{}, -]*\Z")
"""A name with a wildcard or placeholder in it: `SPACKPACKAGES_*`, `*_VERSION`, `FOO_{A,B}`, `FOO_<NAME>`."""
_PART = re.compile(r"\*|<[A-Za-z_ -]+>|\{([A-Za-z0-9_, ]+)\}")


@functools.lru_cache(maxsize=256)
def family_pattern(name: str) -> re.Pattern[str] | None:
    """The build args a family name stands for, as a pattern matched against a whole name: `*` and a
    placeholder (`<NAME>`, `{NAME}`) any run of name characters, alternatives (`{A,B}`) each; None for
    a plain name or one that names no fixed part (`*`, `<name>`)."""
    name = name.strip().strip("`")
    if not _FAMILY.match(name):
        return None
    pieces: list[str] = []
    fixed = 0
    at = 0
    for match in _PART.finditer(name):
        literal = name[at : match.start()]
        fixed += len(literal.strip("_"))
        pieces.append(re.escape(literal))
        choices = match.group(1)
        if choices is not None and "," in choices:
            pieces.append("(?:" + "|".join(re.escape(c.strip()) for c in choices.split(",")) + ")")
        else:
            pieces.append("[A-Za-z0-9_]+")
        at = match.end()
    tail = name[at:]
    fixed += len(tail.strip("_"))
    pieces.append(re.escape(tail))
    if fixed == 0:
        return None
    return re.compile("".join(pieces) + r"\Z")


def family_names(names: Collection[str]) -> list[re.Pattern[str]]:
    """The patterns of the family names among `names`."""
    return [p for n in names if (p := family_pattern(n)) is not None]


def covered(name: str, documented: Collection[str]) -> bool:
    """True when `name` is in `documented` or a family name of it matches it (`SPACKPACKAGES_*` covers
    `SPACKPACKAGES_CHERRYPICKS`)."""
    return name in documented or any(p.match(name) for p in family_names(documented))


_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
"""A plain reference to a variable in an ARG default: `${NAME}`, `$NAME` (no `:-` fallback)."""
_JOINS = re.compile(r"[:/@._-]*")
"""What may join the references of a composed default: `:` of a tag, `/` of a path, `@` of a digest."""


def composed_args(model: ImageModel, documented: Collection[str]) -> frozenset[str]:
    """The build args of `model` whose default only joins others that `documented` covers, with no
    word of its own (`ARG BASE=${BASE_NAME}:${BASE_VERSION}` under a list of `BASE_NAME` and
    `BASE_VERSION`): the list documents its parts, and passing it is passing them."""
    found = set()
    for decl in model.args:
        raw = (decl.raw_default or "").strip().strip("\"'")
        names = [a or b for a, b in _REFERENCE.findall(raw)]
        if names and _JOINS.fullmatch(_REFERENCE.sub("", raw)) and all(covered(n, documented) for n in names):
            found.add(decl.name)
    return frozenset(found)


def lint_of(model: ImageModel) -> tuple[Diagnostic, ...] | None:
    """The warnings `docgen lint` gives `model`'s Dockerfile; None for a model not read from a file, or
    one lint cannot read. The lint rules load only when a caller asks."""
    if not model.file:
        return None
    from docgen.analysis import lint_file

    try:
        return lint_file(model.file, model.path)
    except DocgenError:
        return None


Lint = Callable[[ImageModel], tuple[Diagnostic, ...] | None]
"""How the warnings of a model's Dockerfile are had: `lint_of`, or an audit's copy of what it said
(`AuditFacts.lint`)."""


def unread_args(model: ImageModel, lint: Lint = lint_of) -> frozenset[str]:
    """The build args of `model` that change nothing: no instruction reads them (`used_lines`) and
    `docgen lint` finds them never used (DG003: no RUN sees them as an environment variable a tool
    reads, no script it runs may). Empty for a model not read from a file."""
    idle = {a.name for a in model.args} - {a.name for a in model.args if a.used_lines}
    if not idle or not model.file:
        return frozenset()
    return frozenset(idle & linted_args(model, "DG003", UNUSED, lint).keys())


UNUSED = re.compile(r"build arg (\S+) is declared")
"""The message of `docgen lint`'s DG003 for an arg nothing uses."""


def linted_args(
    model: ImageModel, rule: str, message: re.Pattern[str], lint: Lint = lint_of
) -> dict[str, int]:
    """Build arg → line of the first warning `docgen lint` gives `model`'s Dockerfile under `rule` whose
    message `message` matches from its start (group 1: the arg's name). Empty for a model not read from a
    file, or one lint cannot read."""
    warnings = lint(model)
    if warnings is None:
        return {}
    found: dict[str, int] = {}
    for warning in warnings:
        if warning.rule == rule and (match := message.match(warning.message)) is not None:
            found.setdefault(match.group(1), warning.line)
    return found


_NO_EFFECT = re.compile(r".*?but (\w+) is not declared there\b.*--build-arg \1 has no effect here")
"""The message of `docgen lint`'s DG001 for an arg read in a stage out of its scope."""


def scopeless_args(model: ImageModel, lint: Lint = lint_of) -> dict[str, int]:
    """The build args of `model` declared only before the first FROM, read by no FROM line, and read in
    a stage that does not declare them again: BuildKit shows a global ARG to FROM lines only until a
    stage re-declares it, so `--build-arg` for one changes nothing (`ARG GPU_TARGET=gfx1151` before
    the FROM, `ENV GPU_TARGET=${GPU_TARGET}` after it: empty). Name → the first line reading it out of
    scope (`docgen lint`'s DG001). Empty for a model not read from a file."""
    staged = {a.name for a in model.args if a.stage is not None}
    candidates = {a.name for a in model.args if a.stage is None and not a.used_lines} - staged
    if not candidates:  # the file is linted only when some arg may be out of scope
        return {}
    out_of_scope = linted_args(model, "DG001", _NO_EFFECT, lint)
    return {name: line for name, line in out_of_scope.items() if name in candidates}


def reached_stages(model: ImageModel) -> frozenset[int]:
    """The stages the build of `model` runs: its target (`--target`, else the last stage), the stages
    it is built FROM, and those it copies or mounts from (`COPY --from`, `RUN --mount=…,from=`), each
    with theirs. BuildKit skips every other stage."""
    if not model.stages:
        return frozenset()
    by_index = {stage.index: stage for stage in model.stages}
    todo = [model.stages[model.target_index].index]
    seen: set[int] = set()
    while todo:
        index = todo.pop()
        if index in seen or index not in by_index:
            continue
        seen.add(index)
        stage = by_index[index]
        todo.extend(stage.depends_on)
        if stage.parent is not None:
            todo.append(stage.parent)
    return frozenset(seen)


def unreached_args(model: ImageModel) -> frozenset[str]:
    """The build args of `model` declared only in stages its build never runs (`reached_stages`): a
    `--build-arg` for one changes nothing, so a README's list of the args owes it no row. A global ARG
    (before the first FROM) is reached: FROM lines read it."""
    reached = reached_stages(model)
    if len(reached) == len(model.stages):
        return frozenset()
    stages: dict[str, set[bool]] = {}
    for decl in model.args:
        stages.setdefault(decl.name, set()).add(decl.stage is None or decl.stage in reached)
    return frozenset(name for name, found in stages.items() if True not in found)


_PAIR = re.compile(r"""([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S+)""")
"""One `KEY=value` of an ENV or LABEL instruction."""


def stamped_args(model: ImageModel, instructions: Sequence[Instruction]) -> frozenset[str]:
    """The build args of `model` that only stamp the image: a LABEL reads them (`LABEL
    com.nvidia.build.id="${BUILD_ID}"`) or a RUN only echoes them into a notice file no other instruction
    names (`echo "Sources: …/${RC_DATE}/index.html" > NOTICES.txt`), and every other instruction that
    reads them is an ENV keeping the value under the arg's own name (`ENV BUILD_ID=${BUILD_ID:-unknown}`):
    a CI sets them, nothing the build installs or runs reads them. `instructions` are those of its
    Dockerfile as written (none for a model not read from a file: then none is stamped)."""
    names = {a.name for a in model.args if a.used_lines}
    # what the instructions name once the files echoes write to are taken out: a file named there is read
    named = "\n".join(_WRITTEN_TO.sub(" ", inst.body) for inst in instructions)
    stamped = set()
    for name in names:
        reads = re.compile(r"\$\{?" + re.escape(name) + r"\b")
        stamps = False
        for inst in instructions:
            if not reads.search(inst.body):
                continue
            if inst.keyword == "LABEL" or (inst.keyword == "RUN" and _only_noted(inst.body, reads, named)):
                stamps = True
            elif inst.keyword != "ENV" or any(key != name for key in _env_keys(inst.args, reads)):
                break
        else:
            if stamps:
                stamped.add(name)
    return frozenset(stamped)


_INTERNAL = re.compile(
    r"\b(?:for|only[ \t]+for)[ \t]+internal[ \t]+use\b|\binternal[ \t]+(?:use[ \t]+)?only\b"
    r"|\bdo[ \t]+not[ \t]+override\b|\bdon'?t[ \t]+override\b"
    r"|\bnot[ \t]+(?:meant|intended|supposed)[ \t]+to[ \t]+be[ \t]+(?:set|changed|overridden|passed)\b",
    re.IGNORECASE,
)
"""A comment saying a build arg is the Dockerfile's own (`# for internal use - …`, `# internal use only`,
`# Constants, do not override`, `# not meant to be set by users`)."""
_REDECLARED = re.compile(r"\bre-?declare", re.IGNORECASE)
"""`# Re-declare ARGs for internal use`: the stage reads a value the user still sets elsewhere."""


def internal_args(model: ImageModel, instructions: Sequence[Instruction]) -> frozenset[str]:
    """The build args of `model` every declaration of which (but a bare re-declaration in a later stage)
    sits right under a comment saying it is for internal use (`_INTERNAL`, in the comment lines with no
    blank line between): a table of the args a user sets owes them no row. Not a comment about
    re-declaring args for a stage's use (the value is the user's), nor one parted from the ARG by a blank
    line (a section's header)."""
    at = {inst.start_line: inst for inst in instructions if inst.keyword == "ARG" and inst.comment_tail}
    if not at:
        return frozenset()
    lines: dict[str, list[int]] = {}
    for decl in model.args:  # a bare re-declaration (`ARG NAME` in a stage) takes the value declared before
        if not decl.bare or decl.name not in lines:
            lines.setdefault(decl.name, []).append(decl.line)
    internal = set()
    for name, where in lines.items():
        said = []
        for line in where:
            inst = at.get(line)
            said.append(" ".join(inst.comment[len(inst.comment) - inst.comment_tail :]) if inst else "")
        if all(_INTERNAL.search(text) and not _REDECLARED.search(text) for text in said):
            internal.add(name)
    return frozenset(internal)


_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"|'[^']*'""")
_COMMANDS = re.compile(r"&&|\|\||;|\n")
_ECHOED = re.compile(r"(?:echo|printf)\b[^|<>`()]*?>>?[ \t]*([^\s$`]+)")
"""A command that only writes its words to a file (`echo "…" >> /NOTICE`), the file its last word."""
_WRITTEN_TO = re.compile(r">>?[ \t]*[^\s$`]+")
_NOTICE_FILE = re.compile(
    r"(?:^|/)[\w-]*(?:notice|provenance|licen[cs]e|copying|copyright|attribution|credits|third[_-]?party)"
    r"[\w-]*(?:\.(?:txt|md))?\Z",
    re.I,
)
"""A notice a person reads, no file a program takes: `NOTICES.txt`, `/NEMO_PROVENANCE.txt`, `/NOTICE`."""


def _only_noted(body: str, reads: re.Pattern[str], named: str) -> bool:
    """True when every command of a RUN's `body` that `reads` the arg echoes it into a notice file whose
    name the Dockerfile's instructions (`named`, with the files echoes write to taken out) never give:
    nothing the build runs or copies reads that file."""

    def mark(quoted: re.Match[str]) -> str:
        text = quoted.group(0)
        if "$(" in text or "`" in text:
            return "`"  # a command substitution runs something: no mere text
        return " \x01 " if reads.search(text) else " \x00 "

    for command in _COMMANDS.split(_QUOTED.sub(mark, body)):
        if "\x01" not in command and not reads.search(command):
            continue
        echoed = _ECHOED.fullmatch(command.strip())
        if echoed is None or not _NOTICE_FILE.search(echoed.group(1)):
            return False
        name = echoed.group(1).rsplit("/", 1)[-1]
        if re.search(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])", named):
            return False
    return True


def _env_keys(args: str, reads: re.Pattern[str]) -> list[str]:
    """The variables an ENV's text (`A=$X B=1`, or the old `A $X`) sets from a value `reads` matches."""
    pairs = _PAIR.findall(args)
    if pairs:
        return [key for key, value in pairs if reads.search(value)]
    return args.split(None, 1)[:1]
