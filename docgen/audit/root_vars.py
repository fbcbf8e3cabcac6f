"""Shell variables a README uses for its repository's root: `cd $ROOT/docker` where the README says
`$ROOT is the root directory of this git repo`, or a name that says so itself (`$REPO_ROOT`,
`${PROJECT_ROOT}`). A `cd` into one is followed like a `cd` from the repository's root, where a `cd`
into any other variable (`cd $WORKDIR`) cannot be.
"""

from __future__ import annotations

import re

_ROOT_NAME = re.compile(
    r"(?:REPO|REPOSITORY|GIT|PROJECT)_?(?:ROOT|TOP|TOPLEVEL)(?:_DIR|_PATH)?|REPO_DIR", re.IGNORECASE
)
"""A variable name that is the repository's root by itself: `REPO_ROOT`, `PROJECT_ROOT`, `GIT_ROOT`,
`REPO_DIR` (not a bare `ROOT` or `ROOT_DIR`: those may be any folder unless the README says so)."""

_DEFINED_AS_ROOT = re.compile(
    r"`?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`?[ \t]*"
    r"(?::|=|-|–|—|[ \t](?:is|means|denotes|stands[ \t]+for|refers[ \t]+to))[ \t]+"
    r"(?:the[ \t]+)?(?:root|top(?:[ \t-]*level)?|base)(?:[ \t]+(?:directory|folder|dir|path))?[ \t]+"
    r"(?:of|for)[ \t]+(?:this|the|your)[ \t]+(?:(?:git|cloned|local)[ \t]+)?"
    r"(?:repo|repository|project|checkout|clone)\b",
    re.IGNORECASE,
)
"""A sentence defining a variable as the repository's root: `$ROOT is the root directory of this git
repo`, `` `${SRC}` is the top-level folder of the repository ``, `` `$TOP`: the root of this repo ``."""


def root_variables(text: str) -> frozenset[str]:
    """The names of the variables README `text` defines as its repository's root (`$ROOT is the root
    directory of this git repo.`)."""
    return frozenset(match.group(1) for match in _DEFINED_AS_ROOT.finditer(text))


_LEADING_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))(?=/|\Z)")


def from_root(target: str, defined: frozenset[str]) -> str | None:
    """The folder a `cd` `target` enters, from the repository's root ('' for the root itself), when it
    starts with a variable that is the root (`$ROOT/docker` -> `docker` when `ROOT` is in `defined`,
    `${REPO_ROOT}` -> ''); None for any other target."""
    match = _LEADING_VARIABLE.match(target.strip("\"'"))
    if match is None:
        return None
    name = match.group(1) or match.group(2)
    if name not in defined and not _ROOT_NAME.fullmatch(name):
        return None
    return target.strip("\"'")[match.end() :].strip("/")
