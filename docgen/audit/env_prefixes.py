"""Variables a README sets in front of a script it runs (`GPU=true ./build.sh`) that the script gives a
value of its own before reading them (`docgen.script_env`): the setting has no effect."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.missing import repository_root
from docgen.audit.references import _RUN_SCRIPT, _bases, _top, _Walk
from docgen.audit.steps import _cloned_here, _remote_names
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic
from docgen.script_env import Override, overrides

_PREFIX = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s;&|]*)")


def _script_overrides(script: Path, folder: Path) -> dict[str, Override]:
    """What the script at `script` sets before reading it, run from `folder`."""
    text = text_or_none(script)
    if text is None:
        return {}
    return overrides(text, lambda p: (folder / p).is_file(), lambda p: text_or_none(folder / p))


def _overridden_prefixes(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """`NAME=value ./script.sh` (or `NAME=value bash script.sh`) in a command block, for a script found
    where the block runs it that sets NAME itself, or sources a file of that folder setting it, before
    any read of it, in a part of the script every run goes through (`docgen.script_env`), to another
    value (a `cd` into a clone of this repository enters its root): `README sets GPU=true for
    ./build.sh, but build.sh:55 sources .env.example, which sets GPU=false before the script reads
    GPU: the setting has no effect` (`certain`)."""
    top = _top(directory, project)
    walk = _Walk(_bases(directory, audited, top), top, home=True)
    root = repository_root(directory)
    remotes = _remote_names(root)
    read: dict[tuple[Path, Path], dict[str, Override]] = {}
    for line, step in walk.steps(doc.fences, joined=True):
        clone = _cloned_here(doc, line, step, root or directory.resolve(), remotes)
        if clone is not None:  # a clone of this repository: its folder is the repository's root
            walk.aliases[clone] = [root or directory.resolve()]
            continue
        for match in _RUN_SCRIPT.finditer(step):
            prefix = step[match.start() : match.start(1)]
            given = [(m.group(1), m.group(2).strip("\"'")) for m in _PREFIX.finditer(prefix)]
            if not given:
                continue
            path = match.group(1)
            folder = next((f for f in walk.folders if os.path.isfile(f / path)), None)
            if folder is None:
                continue
            script = Path(os.path.realpath(folder / path))
            if (script, folder) not in read:
                read[(script, folder)] = _script_overrides(script, folder)
            found = read[(script, folder)]
            for name, value in given:
                override = found.get(name)
                if override is None or override.value == value:
                    continue
                how = (
                    f"sources {override.file}, which sets {name}={override.value}"
                    if override.file
                    else f"sets {name}={override.value}"
                )
                yield Diagnostic(
                    readme,
                    line,
                    f"README sets {name}={value} for {path}, but {script.name}:{override.line} {how} "
                    f"before the script reads {name}: the setting has no effect",
                    confidence=CERTAIN,
                )
