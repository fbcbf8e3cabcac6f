"""Install scripts the build runs (`bash install_nccl.sh --NCCL_VER=${NCCL_VERSION}`, `./install_deepep.sh
1.2.1`, `bash scripts/install_mooncake.sh ${MOONCAKE_VERSION}`): docgen does not read the script, but its
name says what it installs and its arguments often say which version.

A script named `install_X.sh`, `install-X.sh` or `X_install.sh` is a `script` component named X (a
`build-X.sh` builds what is listed otherwise: `build-deb-packages.sh` is no component). Its version is
the value of the option named for X (`--NCCL_VER=2.27.3` for install_nccl.sh, `--TRT_VER` for
install_tensorrt.sh), else of the only option whose name holds VER or VERSION (`--version 1.2`), else the
first argument that is a version (`1.2.1`, `v0.3.6`). Several such options none of which names X
(`--CUDA_VER=12.9 --NCCL_VER=2.27`) or none at all leave the version unknown (the script sets it): the row
says so by its source, the script, and no version; docgen never guesses one. A script named after a
Linux distribution (`install_ubuntu.sh -p ${PYTHON_VERSION}`) sets up that system's packages: its
arguments are not the distribution's version, which the base image gives, so it has none.
"""

from __future__ import annotations

import re

from docgen.sources.context import RunContext
from docgen.sources.installer import add
from docgen.sources.naming import DISTRIBUTIONS
from docgen.sources.script import Word

_SCRIPT = re.compile(
    r"(?:install[_-](?P<a>[A-Za-z0-9][A-Za-z0-9_.+-]*?)|(?P<b>[A-Za-z0-9][A-Za-z0-9_.+-]*?)[_-]install)\.sh\Z",
    re.IGNORECASE,
)
_VERSION = re.compile(r"v?[0-9]+(?:\.[0-9]+)+(?:[-.+_]?[A-Za-z0-9.]+)?\Z")
_VERSION_OPTION = re.compile(r"--?[A-Za-z0-9_-]*(?:VER|VERSION)\Z", re.IGNORECASE)
_GENERIC = frozenset({"deps", "dependencies", "requirements", "all", "base", "env", "tools", "packages"})


def component_name(script: str) -> str | None:
    """What a script installs, by its file name (`install_nccl.sh` → nccl); None for another script."""
    match = _SCRIPT.match(script[script.rfind("/") + 1 :])
    if match is None:
        return None
    name = match.group("a") or match.group("b")
    return None if name.lower() in _GENERIC else name


def _stem(option: str) -> str:
    """`--NCCL_VER` → nccl, `--version` → ''."""
    return re.sub(r"[_-]?(?:VERSION|VER)\Z", "", option.lstrip("-"), flags=re.IGNORECASE).lower()


def _abbreviates(stem: str, name: str) -> bool:
    """True when `stem` is `name` or an abbreviation of it: its letters in order, the first the same
    (`trt` for tensorrt, `nccl` for nccl; not `cuda` for tensorrt)."""
    if not stem or stem[0] != name[:1]:
        return False
    rest = iter(name)
    return all(c in rest for c in stem)


def run_script(script: Word, args: list[Word], ctx: RunContext) -> None:
    """Record what `script ARGS…` installs, when its name says."""
    name = component_name(script.text)
    if name is None:
        return
    if name.lower() in DISTRIBUTIONS:
        args = []  # `install_ubuntu.sh -p 3.6`: Python's 3.6, not Ubuntu's; the base image says which Ubuntu
    options: list[tuple[str, Word]] = []  # (option name, its value) for each `--X_VER` option
    for i, word in enumerate(args):
        key, eq, value = word.text.partition("=")
        if word.text.startswith("-") and _VERSION_OPTION.match(key):
            if eq:
                options.append((key, Word(value, word.names, word.known, line=word.line)))
            elif i + 1 < len(args):
                options.append((key, args[i + 1]))
    version: Word | None = None
    named = [value for key, value in options if _abbreviates(_stem(key), name.lower())]
    if named:
        version = named[0]  # `install_tensorrt.sh --CUDA_VER=12.9 --TRT_VER=10.11`: TRT_VER
    elif len(options) == 1:
        version = options[0][1]
    elif not options:
        version = next((w for w in args if _VERSION.match(w.text)), None)
    known = version is not None and version.known and bool(version.text) and "$" not in version.text
    add(
        ctx,
        version if version is not None else script,
        name=name,
        kind="script",
        version=version.text if version is not None and known else None,
        pinned=known,
        source=script.text,
        method="script",
    )
