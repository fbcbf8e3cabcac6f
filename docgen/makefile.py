"""Makefiles (`Makefile`, `GNUmakefile`, `makefile`): the build args their recipes pass to `docker build`
(`--build-arg ROCM_VERSION=$(ROCM_VERSION)`), with the value a plain `make` gives them, for `docgen
audit` to tell the default a README states for `make build` from the Dockerfile's own.

What is read, as make reads it: top-level variable assignments (`NAME ?= v`, `NAME := v`, `NAME = v`,
`override NAME = v`; the last one wins, a `?=` only when none came before), and in recipe lines (a tab
first) each `--build-arg NAME=VALUE` of a `docker`/`podman`/`buildah` build, its value expanded with those
variables (`$(NAME)`, `${NAME}`). A value needing a variable with no assignment, a function call
(`$(shell …)`, `$(if …)`) or the environment is not known. Conditionals, includes and target-specific
variables are not read. `targets` gives the builds as bake targets, for `audit` to build a Dockerfile
with the values `make` passes its ARGs without a default. `rule_targets` lists the targets its rules
make, for `make TARGET` commands;
`reading` tells what a makefile reads of the variables a make command line gives (its words, the
variables it names, its includes, the commands its recipes and `$(shell …)` calls run);
`target_recipe` what `make TARGET` runs (the image builds of its recipe and its prerequisites', the
other commands).
Pure functions over the file's text; each line is read once.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen.bake import Target
from docgen.build_scripts import BUILD

DEFAULT_FILES = ("GNUmakefile", "makefile", "Makefile")
"""The files `make` reads in a folder without `-f`, in its order: the first found."""

_ASSIGN = re.compile(
    r"(?:override[ \t]+|export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(\?=|:=|::=|=)[ \t]*(.*)"
)
_BUILD_ARG = re.compile(r"--build-arg[ \t=]+[\"']?([A-Za-z_][A-Za-z0-9_]*)=([^\s\"']*)")
_REFERENCE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
_FILE = re.compile(r"(?:^|[ \t])(?:-f|--file)[ \t=]+[\"']?([^\s\"']+)")


@dataclass(frozen=True)
class PassedArg:
    """A build arg a Makefile's recipe passes to an image build."""

    name: str
    """The build arg (`ROCM_VERSION`)."""
    value: str | None
    """Its value with a plain `make` (`7.1.1`); None when it needs the environment or a function."""
    line: int
    """The Makefile line of the `--build-arg`."""
    variable_line: int | None
    """The line of the assignment that gives the value (`ROCM_VERSION ?= 7.1.1`), when one does."""
    dockerfile: str
    """The Dockerfile the build reads, as its `-f` gives it (`Dockerfile` in the context without one)."""


def _variables(lines: list[str]) -> dict[str, tuple[str, int]]:
    """The top-level variables of a Makefile's `lines` → (value as written, line)."""
    found: dict[str, tuple[str, int]] = {}
    for number, text in enumerate(lines, start=1):
        if text.startswith("\t") or text.lstrip().startswith("#"):
            continue
        match = _ASSIGN.fullmatch(text.split(" #", 1)[0].rstrip())
        if match is None:
            continue
        name, how, value = match.groups()
        if how == "?=" and name in found:
            continue
        found[name] = (value.strip(), number)
    return found


def _expanded(value: str, variables: dict[str, tuple[str, int]], depth: int = 0) -> str | None:
    """`value` with the variables it names replaced by theirs; None when one is unknown or a function."""
    if depth > 8 or re.search(r"\$[({][a-z]+[ \t]", value):
        return None
    missing = False

    def replace(match: re.Match[str]) -> str:
        nonlocal missing
        held = variables.get(match.group(1))
        inner = _expanded(held[0], variables, depth + 1) if held is not None else None
        if inner is None:
            missing = True
            return ""
        return inner

    out = _REFERENCE.sub(replace, value)
    return None if missing or "$" in out.replace("$$", "") else out


def build_args(text: str) -> tuple[PassedArg, ...]:
    """The build args the recipes of the Makefile `text` pass to `docker build` (continued lines read as
    one command, at its first line), in file order."""
    lines = text.splitlines()
    variables = _variables(lines)
    found: list[PassedArg] = []
    command: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line.startswith("\t") and not command:
            continue
        command.append((number, line))
        if line.rstrip().endswith("\\"):
            continue
        joined = " ".join(t.rstrip().rstrip("\\") for _, t in command)
        first = command[0][0]
        command = []
        if not BUILD.search(joined) and not BUILD.search(_partly_expanded(joined, variables)):
            continue  # (`$(CONTAINER_RUNTIME) build` with `CONTAINER_RUNTIME ?= docker` builds too)
        file = _FILE.search(joined)
        dockerfile = (_expanded(file.group(1), variables) if file else "Dockerfile") or ""
        for match in _BUILD_ARG.finditer(joined):
            name, raw = match.groups()
            reference = _REFERENCE.fullmatch(raw)
            at = variables.get(reference.group(1)) if reference else None
            found.append(PassedArg(name, _expanded(raw, variables), first, at[1] if at else None, dockerfile))
    return tuple(found)


def targets(data: bytes, display: str) -> tuple[Target, ...]:
    """The image builds of the Makefile whose bytes are `data` (shown as `display`) as bake targets (named
    `Makefile:LINE`, the line of the build command), each
    with the build args a plain `make` passes it a known value (`--build-arg CRYOSPARC_VERSION=$(…)`
    with `CRYOSPARC_VERSION ?= 4.5.3`) and the Makefile line giving each, for `audit` to build the
    Dockerfile as `make` does. A Makefile has no syntax to refuse: what is not read is no build."""
    builds: dict[tuple[int, str], dict[str, tuple[str, int]]] = {}
    for passed in build_args(data.decode("utf-8", errors="replace")):
        args = builds.setdefault((passed.line, passed.dockerfile), {})
        if passed.value is not None and passed.dockerfile:
            args[passed.name] = (passed.value, passed.variable_line or passed.line)
    return tuple(
        Target(
            name=f"{display}:{line}",
            dockerfile=dockerfile,
            args={name: value for name, (value, _) in args.items()},
            target=None,
            tags=(),
            target_line=None,
            own_args={name: at for name, (_, at) in args.items()},
        )
        for (line, dockerfile), args in builds.items()
        if args
    )


_RULE = re.compile(r"([^:=#\t][^:=#]*?)[ \t]*&?::?(?![:=])")
"""A rule line: its targets before `:` (`::`, `&:`), not an assignment (`:=`, `::=`)."""
_NOT_RULE = re.compile(
    r"(?:ifeq|ifneq|ifdef|ifndef|else|endif|export|unexport|override|vpath)(?=[ \t(]|$)"
    r"|\$[({](?:info|warning|error)[ \t]"
)
"""A directive, not a rule: its word alone or before a blank (make reads `export:` as a rule making
`export`, `export NAME` and `export` alone as the directive)."""
_DYNAMIC = re.compile(r"^[ \t]*-?(?:include|sinclude)[ \t]|\$[({]eval[ \t]", re.MULTILINE)
"""What makes rules docgen cannot list: an included makefile, rules made with `$(eval …)`."""


def rule_targets(text: str) -> frozenset[str] | None:
    """The targets the rules of the Makefile `text` make (`toolbox-rocm` of `toolbox-rocm: check`),
    patterns kept as written (`%.o`); special targets (`.PHONY`) and what they list are not rules.
    None when the rules cannot all be told: an `include`, an `$(eval …)`, or a target naming a variable
    (`$(NAME)-image:`). `define … endef` bodies and recipe lines are not read."""
    if _DYNAMIC.search(text):
        return None
    found: set[str] = set()
    defining = False
    for line in text.splitlines():
        if defining:
            defining = not line.strip().startswith("endef")
            continue
        if line.startswith("define ") or line.strip() == "define":
            defining = True
            continue
        if line.startswith("\t") or line.lstrip().startswith("#") or _NOT_RULE.match(line.lstrip()):
            continue
        match = _RULE.match(line)
        if match is None:
            continue
        names = match.group(1).split()
        if any("$" in name for name in names):
            return None
        found.update(name for name in names if not name.startswith("."))
    return frozenset(found)


# --------------------------------------------------------------------------------------------------
# What a Makefile reads of the variables a `make` command line gives

VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
COMPUTED = re.compile(r"\$[({][A-Za-z0-9_.-]*\$|\.VARIABLES\b")
"""A variable whose name is computed (`$($(ARCH)_FLAGS)`, `$(BASE_$(OS))`) or every variable listed
(`.VARIABLES`): any name may be read."""
_REFERENCED = re.compile(
    r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}:]|\b(?:ifdef|ifndef)[ \t]+([A-Za-z_][A-Za-z0-9_]*)"
)
"""A variable read: `$(NAME)`, `${NAME}`, `$(NAME:.c=.o)`, `ifdef NAME`."""
_INCLUDE = re.compile(r"[ \t]*(-?include|sinclude)[ \t]+(.+)")
_SHELL_CALL = re.compile(r"\$[({]shell[ \t]")
_SPLIT = re.compile(r"&&|\|\||[;|()`]")
"""Where one shell command of a recipe line ends and the next begins."""
_PREFIX_WORDS = frozenset({"sudo", "exec", "time", "nohup", "command", "builtin", "then", "else", "do", "if"})
_MAKES = frozenset({"make", "gmake", "$MAKE"})
_UNKNOWN = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")


@dataclass(frozen=True)
class Command:
    """A command a recipe (or a `$(shell …)`) runs, as docgen reads it to tell whether it may read a
    variable of the make command line from its environment."""

    words: tuple[str, ...]
    """Its words, the makefile's variables expanded where they are known (`$(DOCKER)` → `docker`),
    prefixes such as `@`, `sudo` and `NAME=value` dropped."""
    folder: str | None
    """For a `make` a recipe runs: the folder it makes in (`-C DIR`, a `cd DIR` before it on the line;
    '' for the same folder), None when it cannot be told. None for another command."""
    line: int
    """The makefile line the command is on (its first line when continued)."""


@dataclass(frozen=True)
class Reading:
    """What a Makefile's text reads: the names it holds, the variables it names, the files it includes
    and the commands its recipes run."""

    words: frozenset[str]
    """Every name-like word of the text (`NAME` of `$(NAME)`, `ifdef NAME`, `$$NAME`, `-e NAME`)."""
    variables: dict[str, int]
    """The make variables it assigns or reads → the first line naming each."""
    computed: bool
    """A variable name is computed (`$($(X)_VERSION)`) or all are listed (`.VARIABLES`)."""
    includes: tuple[tuple[str, bool, int], ...]
    """(path as written, variables expanded where known; optional (`-include`); line) of each include."""
    commands: tuple[Command, ...]
    assigned: dict[str, tuple[str, int]]
    """The variables set (with `outside`'s) → (value as written, line), for the files read after it."""


def _balanced(text: str, start: int) -> str:
    """The text of `text` from `start` (just after an opening `(` or `{`) up to its closing one."""
    depth = 1
    for at in range(start, len(text)):
        if text[at] in "({":
            depth += 1
        elif text[at] in ")}":
            depth -= 1
            if depth == 0:
                return text[start:at]
    return text[start:]


def _partly_expanded(text: str, variables: dict[str, tuple[str, int]]) -> str:
    """`text` with the variables whose values are known replaced (`$(DOCKER)` → `docker`); the others
    (`$(MAKE)`, `$(BUILD_DIR)` set from the environment) kept as written."""

    def replace(match: re.Match[str]) -> str:
        held = variables.get(match.group(1))
        value = _expanded(held[0], variables) if held is not None else None
        return value if value is not None else match.group()

    return _REFERENCE.sub(replace, text)


def _commands_of(text: str, line: int, variables: dict[str, tuple[str, int]]) -> Iterator[Command]:
    """The commands of one recipe line (continued lines joined) or `$(shell …)` text."""
    folder: str | None = ""
    # a variable whose value is not known stays a word (`$(MAKE)` → `$MAKE`), not split at its parentheses
    for part in _SPLIT.split(_UNKNOWN.sub(r"$\1", _partly_expanded(text, variables))):
        words = part.split()
        while words and (words[0] in _PREFIX_WORDS or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0])):
            words = words[1:]
        if words:
            words[0] = words[0].lstrip("@+-")
            if not words[0]:
                words = words[1:]
        if not words:
            continue
        if words[0] == "cd":
            folder = words[1].strip("\"'") if len(words) > 1 and "$" not in words[1] else None
            continue
        if words[0] in _MAKES or words[0].endswith("/make"):
            where = folder
            for flag, value in zip(words, words[1:], strict=False):
                if flag in ("-C", "--directory"):
                    where = None if "$" in value else posixpath.join(where, value) if where else value
            yield Command(tuple(words), where, line)
            continue
        yield Command(tuple(words), None, line)


_CONDITIONAL = re.compile(r"[ \t]*(?:ifeq|ifneq|ifdef|ifndef|else|endif)\b")


def _recipe_lines(lines: list[str]) -> list[bool]:
    """Whether each line is a recipe line: a tab first, after a rule line with nothing between but
    recipe lines, conditionals, comments and blank lines (a tab-indented assignment inside an
    `ifdef` before any rule is no recipe)."""
    found: list[bool] = []
    in_rule = False
    for line in lines:
        if line.startswith("\t") and in_rule:
            found.append(True)
            continue
        found.append(False)
        code = line.split("#", 1)[0].strip()
        if not code or _CONDITIONAL.match(code):
            continue
        in_rule = _ASSIGN.fullmatch(code) is None and _RULE.match(code) is not None
    return found


def reading(text: str, outside: dict[str, tuple[str, int]] | None = None) -> Reading:
    """What the Makefile `text` reads (`Reading`), each line read once. `outside`: the variables the
    makefiles read with it set (an included `common.mk`), for the commands' words; its own win."""
    lines = text.splitlines()
    recipes = _recipe_lines(lines)
    variables = dict(outside or {})
    variables.update(
        _variables([line if r else line.lstrip("\t") for line, r in zip(lines, recipes, strict=True)])
    )
    named: dict[str, int] = {}
    includes: list[tuple[str, bool, int]] = []
    commands: list[Command] = []
    recipe: list[tuple[int, str]] = []
    for number, (line, in_recipe) in enumerate(zip(lines, recipes, strict=True), start=1):
        code = line if in_recipe else line.split("#", 1)[0]
        for match in _REFERENCED.finditer(code):
            named.setdefault(match.group(1) or match.group(2), number)
        if not in_recipe and not recipe:
            if (assign := _ASSIGN.match(code.strip())) is not None:
                named.setdefault(assign.group(1), number)
            if (include := _INCLUDE.match(code)) is not None:
                optional = include.group(1) != "include"
                for path in _partly_expanded(include.group(2), variables).split():
                    includes.append((path, optional, number))
            for call in _SHELL_CALL.finditer(code):
                commands.extend(_commands_of(_balanced(code, call.end()), number, variables))
            if ";" in code and _RULE.match(code) and not _ASSIGN.match(code.strip()):
                commands.extend(_commands_of(code.split(";", 1)[1], number, variables))  # `all: ; cmd`
            continue
        recipe.append((number, line))
        if line.rstrip().endswith("\\"):
            continue
        joined = " ".join(t.strip().removesuffix("\\") for _, t in recipe)
        first = recipe[0][0]
        recipe = []
        for call in _SHELL_CALL.finditer(joined):
            commands.extend(_commands_of(_balanced(joined, call.end()), first, variables))
        commands.extend(_commands_of(joined, first, variables))
    return Reading(
        words=frozenset(VARIABLE_NAME.findall(text)),
        variables=named,
        computed=bool(COMPUTED.search(text)),
        includes=tuple(includes),
        commands=tuple(commands),
        assigned=variables,
    )


# --------------------------------------------------------------------------------------------------
# What one target's recipe runs

_EXPORTS = re.compile(r"^[ \t]*(?:export[ \t]*$|\.EXPORT_ALL_VARIABLES[ \t]*:)", re.MULTILINE)
"""Every variable exported to the recipes (`export` alone, `.EXPORT_ALL_VARIABLES:`)."""
_EXPORT = re.compile(r"[ \t]*export[ \t]+([^=:?+#]*)")
_TAG = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)[^\s]+")
"""The name a build tags its image with (`-t llama-$(ARCH)`): a variable there passes nothing to it."""
_AUTOMATIC = frozenset({"@", "<", "^", "+", "?", "*", "%", "MAKE", "MAKECMDGOALS", "MAKEFILE_LIST", "CURDIR"})


@dataclass(frozen=True)
class TargetBuild:
    """One `docker build` (`podman`, `buildah`) a target's recipe runs."""

    line: int
    """The makefile line of the command (its first line when continued)."""
    dockerfile: str | None
    """The Dockerfile it reads (`-f`, expanded; `Dockerfile` without one); None when not known."""
    words: frozenset[str]
    """The name-like words of the command (its tag left out) and of the values of the variables it
    expands, transitively (`ROCM_VERSION` of `$(BUILD_ARGS)` with `BUILD_ARGS := --build-arg
    ROCM_VERSION=7`)."""
    unknown: bool
    """The command expands a variable with no assignment in the makefile (it may come from the
    environment)."""
    tags: tuple[str | None, ...] = ()
    """The names it tags the image with (`-t`), expanded; None for one that cannot be."""
    command: str = ""
    """The build command as make runs it, the variables whose values are known expanded (the others kept
    as written), from the build's program on; "" when a `cd` before it on its recipe line runs it in
    another folder than the Makefile's."""


@dataclass(frozen=True)
class TargetRecipe:
    """What `make TARGET` runs: the recipes of the target and of the prerequisites it makes."""

    builds: tuple[TargetBuild, ...]
    others: tuple[Command, ...]
    """The other commands, variables expanded where known."""
    exported: frozenset[str]
    """The variables the makefile exports to its recipes by name (`export NAME`)."""
    exports_all: bool
    """The makefile exports every variable (`export` alone, `.EXPORT_ALL_VARIABLES:`)."""


def _closure(text: str, variables: dict[str, tuple[str, int]]) -> tuple[set[str], bool]:
    """The words of `text` and of the values of the variables it names, transitively; whether one of
    those variables has no assignment."""
    words = set(VARIABLE_NAME.findall(text))
    unknown = False
    todo = [m.group(1) for m in _REFERENCE.finditer(text)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        held = variables.get(name)
        if held is None:
            unknown = unknown or name not in _AUTOMATIC
            continue
        words |= set(VARIABLE_NAME.findall(held[0]))
        todo.extend(m.group(1) for m in _REFERENCE.finditer(held[0]))
    if re.search(r"\$[({][a-z]+[ \t]", text):  # a function call: `$(shell …)`, `$(if …)`
        unknown = True
    return words, unknown


@dataclass(frozen=True)
class _Rules:
    """The rules of a Makefile as `target_recipe` reads them, read once for all its targets."""

    variables: dict[str, tuple[str, int]]
    rules: dict[str, list[tuple[list[str], list[tuple[int, str]]]]]
    """target → (its prerequisites, its recipe lines (line, the continued lines joined)) of each rule."""
    exported: frozenset[str]
    specific: frozenset[str]
    """The targets a rule sets target-specific variables for."""
    exports_all: bool
    """Whether the makefile exports every variable."""


@functools.lru_cache(maxsize=8)
def _rules(text: str) -> _Rules | None:
    """The rules of the Makefile `text` (`_Rules`); None when it includes others or makes rules with
    `$(eval …)`. Each line is read once."""
    if _DYNAMIC.search(text):
        return None
    lines = text.splitlines()
    recipes = _recipe_lines(lines)
    variables = _variables([line if r else line.lstrip("\t") for line, r in zip(lines, recipes, strict=True)])
    rules: dict[str, list[tuple[list[str], list[tuple[int, str]]]]] = {}
    current: list[tuple[int, str]] | None = None
    pending: list[tuple[int, str]] = []
    exported: set[str] = set()
    specific: set[str] = set()
    for number, (line, in_recipe) in enumerate(zip(lines, recipes, strict=True), start=1):
        if in_recipe and current is not None:
            pending.append((number, line))
            if not line.rstrip().endswith("\\"):
                current.append((pending[0][0], " ".join(t.strip().removesuffix("\\") for _, t in pending)))
                pending = []
            continue
        code = line.split("#", 1)[0].rstrip()
        if not code.strip() or _CONDITIONAL.match(code):
            continue
        current = None
        if (export := _EXPORT.match(code)) is not None:
            exported.update(export.group(1).split())
        if _ASSIGN.fullmatch(code.strip()) or _NOT_RULE.match(code.lstrip()):
            continue
        match = _RULE.match(code)
        if match is None:
            continue
        after = code[match.end() :]
        if "=" in after.split(";", 1)[0]:
            specific.update(match.group(1).split())  # a target-specific variable
            continue
        current = []
        prerequisites = after.split(";", 1)[0].split()
        if ";" in after:
            current.append((number, after.split(";", 1)[1]))
        for name in match.group(1).split():
            rules.setdefault(name, []).append((prerequisites, current))
    return _Rules(variables, rules, frozenset(exported), frozenset(specific), bool(_EXPORTS.search(text)))


def target_recipe(text: str, target: str) -> TargetRecipe | None:
    """What `make TARGET` runs in the Makefile `text`: the recipe lines of `target`'s rule and of its
    prerequisites' rules (continued lines joined), split into image builds and other commands. None
    when it cannot be told: `target` has no rule of its own (a pattern rule would make it), several
    rules give it recipes, a rule sets target-specific variables, or the makefile includes others or
    makes rules with `$(eval …)`. The makefile is read once for all its targets (`_rules`)."""
    read = _rules(text)
    if read is None or target in read.specific:
        return None
    variables, rules, exported = read.variables, read.rules, read.exported
    if len([r for r in rules.get(target, []) if r[1]]) > 1 or target not in rules:
        return None
    builds: list[TargetBuild] = []
    others: list[Command] = []
    seen: set[str] = set()
    todo = [target]
    while todo:
        name = todo.pop(0)
        if name in seen or name not in rules:
            continue
        seen.add(name)
        for prerequisites, recipe in rules[name]:
            todo.extend(prerequisites)
            for first, command in recipe:
                moved = False
                for part in re.split(r"&&|\|\||;", command):
                    moved = moved or re.match(r"[ \t]*[@+-]*[ \t]*(?:cd|pushd)\b", part) is not None
                    if build := BUILD.search(part):
                        file = _FILE.search(part)
                        words, unknown = _closure(_TAG.sub(" ", part), variables)
                        dockerfile = _expanded(file.group(1), variables) if file else "Dockerfile"
                        tags = tuple(
                            _expanded(t.split(None, 1)[-1].split("=", 1)[-1].strip("\"'"), variables)
                            for t in (m.group().strip() for m in _TAG.finditer(part))
                        )
                        shown = "" if moved else _partly_expanded(part[build.start() :], variables).strip()
                        builds.append(TargetBuild(first, dockerfile, frozenset(words), unknown, tags, shown))
                    else:
                        others.extend(_commands_of(part, first, variables))
    return TargetRecipe(tuple(builds), tuple(others), exported, read.exports_all)


def recipe_lines(text: str, target: str) -> tuple[tuple[int, str], ...] | None:
    """The recipe lines (makefile line, the continued lines joined, variables left as written) that `make
    TARGET` runs in the Makefile `text`: those of `target`'s rules and of the prerequisites they make,
    in the order make runs them (prerequisites first). None when `target_recipe` cannot tell them."""
    read = _rules(text)
    if read is None or target in read.specific or target not in read.rules:
        return None
    if len([r for r in read.rules[target] if r[1]]) > 1:
        return None
    found: list[tuple[int, str]] = []
    seen: set[str] = set()

    def walk(name: str, depth: int) -> None:
        if name in seen or name not in read.rules or depth > 20:
            return
        seen.add(name)
        for prerequisites, _ in read.rules[name]:
            for prerequisite in prerequisites:
                walk(prerequisite, depth + 1)
        for _, recipe in read.rules[name]:
            found.extend(recipe)

    walk(target, 0)
    return tuple(found)


_RECIPE_PREFIX = re.compile(r"\A([ \t]*)[@+-]+[ \t]*(?=(?:sudo[ \t]+)?(?:nvidia-docker|docker|podman)[ \t])")
"""The prefixes make reads off a recipe line (`@`, `-`, `+`) before a container command: `-docker run`."""


def recipe_commands(text: str, target: str) -> tuple[tuple[tuple[int, str], ...], ...] | None:
    """The recipe commands `make TARGET` runs in the Makefile `text` (those of `recipe_lines`, in its
    order), each as its lines are written (makefile line, text): the tab make strips off each line
    taken off (the one of a continued line too), a recipe after a rule's `;` from there, the `@`, `-`,
    `+` before a container command left out. None when `recipe_lines` cannot tell them."""
    found = recipe_lines(text, target)
    if found is None:
        return None
    lines = text.splitlines()
    commands: list[tuple[tuple[int, str], ...]] = []
    taken: set[int] = set()  # (a line a command before carried on to)
    for first, _ in found:
        if first in taken:
            continue
        command: list[tuple[int, str]] = []
        number = first
        while number <= len(lines):
            line = lines[number - 1]
            if number == first and not line.startswith("\t"):
                line = line.split(";", 1)[1] if ";" in line else ""  # (`target: ; docker run …`)
            line = line.removeprefix("\t")
            command.append((number, _RECIPE_PREFIX.sub(r"\1", line) if number == first else line))
            taken.add(number)
            if not line.rstrip().endswith("\\"):
                break
            number += 1
        commands.append(tuple(command))
    return tuple(commands)


# --------------------------------------------------------------------------------------------------
# Lines GNU make stops reading a Makefile at

_DIRECTIVE = re.compile(
    r"-?(?:ifeq|ifneq|ifdef|ifndef|else|endif|export|unexport|override|private|vpath|include|sinclude"
    r"|undefine|endef|load)(?=[ \t(]|\Z)"
)
"""A directive: make reads it wherever the line starts (`  ifeq (…)`, `  export NAME`)."""
_DEFINE = re.compile(r"(?:(?:override|export|private)[ \t]+)*define(?=[ \t]|\Z)")
_ENDEF = re.compile(r"endef(?=[ \t#]|\Z)")
_RECIPE_PREFIX_SET = re.compile(r"\.RECIPEPREFIX[ \t]*(?::::=|::=|:=|\?=|\+=|=)(.*)\Z")
"""`.RECIPEPREFIX = >`: the first character of the value starts a recipe line instead of a tab."""
_ASSIGNMENT = re.compile(r"(?:(?:override|export|private)[ \t]+)*[^\s=:#]+[ \t]*(?:\?|\+|!)?=")
"""An assignment as make reads it: one name before the `=` (`echo a=b` is no assignment: two words)."""
_CALLS = re.compile(r"\$\$|\$[({][^()${}]*[)}]|\$[A-Za-z0-9@<^+?*%]")
"""A reference or call with no reference inside it (`$(X)`, `${X}`, `$(info hi)`, `$@`), or `$$`."""


@dataclass(frozen=True)
class SeparatorSlip:
    """A line GNU make stops reading a Makefile at: `Makefile:27: *** missing separator.  Stop.`"""

    line: int
    """The Makefile line."""
    text: str
    """The line as written."""
    expanded: bool
    """Whether it names variables: a value with a `:` would make it a rule, so make might read it."""


def separator_slips(text: str) -> tuple[SeparatorSlip, ...]:
    """The lines of the Makefile `text` led by spaces that GNU make reads as neither a recipe line (a tab
    first, or the character `.RECIPEPREFIX` sets), a directive (`  ifeq`, `  export X`), an assignment (one
    name before `=`), a rule (a `:`), a comment, nor a line that is only calls (`  $(info …)`):
    `        echo $(ID) > id.txt` after a rule, a recipe line indented with spaces, on which make stops with
    "missing separator" before it makes any target. Lines a `\\` continues and the bodies of `define … endef`
    are not read alone, as make does not. Empty when `.RECIPEPREFIX` is set from a variable (unknown)."""
    found: list[SeparatorSlip] = []
    prefix = "\t"
    continued = False
    defining = 0
    for number, line in enumerate(text.splitlines(), start=1):
        carried, continued = continued, (len(line) - len(line.rstrip("\\"))) % 2 == 1
        if carried:
            continue
        code = line.strip()
        if defining:
            defining += 1 if _DEFINE.match(code) else -1 if _ENDEF.match(code) else 0
            continue
        if _DEFINE.match(code):
            defining = 1
            continue
        if (recipe := _RECIPE_PREFIX_SET.match(code)) is not None:
            value = recipe.group(1).strip()
            if "$" in value:
                return ()
            prefix = value[:1] or "\t"
            continue
        if line.startswith((prefix, "\t")) or not line.startswith(" "):
            continue
        if not code or code.startswith("#") or _DIRECTIVE.match(code) or ":" in code:
            continue
        if _ASSIGNMENT.match(code):
            continue
        bare = code
        while (shorter := _CALLS.sub("", bare)) != bare:
            bare = shorter
        if not bare.strip():
            continue  # `  $(info building)`: only calls, which expand to nothing make reads
        found.append(SeparatorSlip(number, line, bare != code))
    return tuple(found)
