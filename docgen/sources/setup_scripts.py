"""Install scripts the build runs (`bash install_nccl.sh --NCCL_VER=${NCCL_VERSION}`, `./install_deepep.sh
1.2.1`, `bash scripts/install_mooncake.sh ${MOONCAKE_VERSION}`): docgen does not read the script, but its
name says what it installs and its arguments often say which version.

A script named `install_X.sh`, `install-X.sh` or `X_install.sh` is a `script` component named X (a
`build-X.sh` builds what is listed otherwise: `build-deb-packages.sh` is no component). Its version is
the value of an option whose name holds VER or VERSION (`--NCCL_VER=2.27.3`, `--version 1.2`), else the
first argument that is a version (`1.2.1`, `v0.3.6`); with neither, the version is unknown (the script
sets it) and the row says so by its source, the script, and no version.
"""

from __future__ import annotations

import re

from docgen.sources.context import RunContext
from docgen.sources.installer import add
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


def run_script(script: Word, args: list[Word], ctx: RunContext) -> None:
    """Record what `script ARGS…` installs, when its name says."""
    name = component_name(script.text)
    if name is None:
        return
    version: Word | None = None
    i = 0
    while i < len(args) and version is None:
        text = args[i].text
        key, eq, value = text.partition("=")
        if text.startswith("-") and _VERSION_OPTION.match(key):
            if eq:
                version = Word(value, args[i].names, args[i].known, line=args[i].line)
            elif i + 1 < len(args):
                version = args[i + 1]
        i += 1
    if version is None:
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
