"""Makefiles (`Makefile`, `GNUmakefile`, `makefile`): the build args their recipes pass to `docker build`
(`--build-arg ROCM_VERSION=$(ROCM_VERSION)`), with the value a plain `make` gives them, for `docgen
audit` to tell the default a README states for `make build` from the Dockerfile's own.

What is read, as make reads it: top-level variable assignments (`NAME ?= v`, `NAME := v`, `NAME = v`,
`override NAME = v`; the last one wins, a `?=` only when none came before), and in recipe lines (a tab
first) each `--build-arg NAME=VALUE` of a `docker`/`podman`/`buildah` build, its value expanded with those
variables (`$(NAME)`, `${NAME}`). A value needing a variable with no assignment, a function call
(`$(shell …)`, `$(if …)`) or the environment is not known. Conditionals, includes and target-specific
variables are not read. `rule_targets` lists the targets its rules make, for `make TARGET` commands.
Pure functions over the file's text; each line is read once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_FILES = ("GNUmakefile", "makefile", "Makefile")
"""The files `make` reads in a folder without `-f`, in its order: the first found."""

_ASSIGN = re.compile(
    r"(?:override[ \t]+|export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(\?=|:=|::=|=)[ \t]*(.*)"
)
_BUILD_ARG = re.compile(r"--build-arg[ \t=]+[\"']?([A-Za-z_][A-Za-z0-9_]*)=([^\s\"']*)")
_REFERENCE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
_FILE = re.compile(r"(?:^|[ \t])(?:-f|--file)[ \t=]+[\"']?([^\s\"']+)")
_BUILDS = re.compile(r"\b(?:docker|podman|buildah)\b(?:[ \t]+(?:buildx|image))?[ \t]+(?:build|bud)\b")


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
        if not _BUILDS.search(joined):
            continue
        file = _FILE.search(joined)
        dockerfile = (_expanded(file.group(1), variables) if file else "Dockerfile") or ""
        for match in _BUILD_ARG.finditer(joined):
            name, raw = match.groups()
            reference = _REFERENCE.fullmatch(raw)
            at = variables.get(reference.group(1)) if reference else None
            found.append(PassedArg(name, _expanded(raw, variables), first, at[1] if at else None, dockerfile))
    return tuple(found)


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
