"""A `cd DIR` that the README's commands run through a Makefile or a script, into a folder that is not
there: `make deploy-vllm` whose recipe runs `cd vllm/qwen25-14b-instruct-1m && docker compose up -d`
while the project keeps qwen25-14b-instruct-1m/ at its top. The shell stops the line there ("No such
file or directory"), so nothing after the `cd` runs.

Read: the recipe lines of each target a `make` command of the README names (and of its
prerequisites), each from the Makefile's folder (make runs every recipe line in a shell of its own,
there); and the first `cd` of each shell script the README runs, from the folder it runs in (its own
folder after `cd "$(dirname "$0")"`). Only the first `cd` of a line, to a literal relative folder
(no variable, no `~`, no `-`). Told only when the folder's last part is a folder elsewhere in the
project (the path is wrong, not a folder the reader makes or a copy lacks), and nothing makes it first:
no earlier line of the recipe, Makefile or script names its missing part, no README line before the
command makes it (`references.MadeFiles`), and no `.gitignore` leaves it out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.make_targets import make_commands, makefile_of, makefile_text
from docgen.audit.references import MadeFiles, build_ignored, inside, project_top
from docgen.audit.script_builds import CD, build_start, shell_scripts_run
from docgen.markdown import Document
from docgen.model import Diagnostic

_FIRST_CD = re.compile(r"(?:^|&&|;|\|\||\()[ \t]*[@+-]*[ \t]*(?:cd|pushd)[ \t]+(?P<target>[^\s;&|)]+)")
"""The first `cd DIR` of a line (a recipe line may start with `@`, `-`, `+`)."""
_LITERAL = re.compile(r"[\w.-]+(?:/[\w.-]+)*/?\Z")
_SKIPPED = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__"})
_LOOKED_AT = 4000
"""How many folders of the project are looked at for one of a name, at most."""


def _missing_part(base: Path, target: str, top: Path) -> tuple[str, str] | None:
    """(the first part of `target` not there, the path up to it) when the folder `target` from `base` is
    not there, inside `top`; None when it is, or it leads out of `top`."""
    parts = [p for p in target.strip("/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    folder = base
    for at, part in enumerate(parts):
        step = inside(folder / part, top)
        if step is None:
            return None
        if not os.path.isdir(step):
            return part, "/".join(parts[: at + 1])
        folder = step
    return None


def _elsewhere(name: str, base: Path) -> Path | None:
    """A folder named `name` in `base` or below it (hidden folders and vendored trees left out), the
    shallowest first; None when there is none among the first `_LOOKED_AT` folders."""
    looked = 0
    for root, dirs, _ in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED)
        if name in dirs:
            return Path(root) / name
        looked += len(dirs)
        if looked > _LOOKED_AT:
            return None
    return None


def _named_before(lines: Sequence[str], name: str) -> bool:
    """True when one of `lines` names `name` as a word of its own (a `mkdir`, a clone, a copy)."""
    word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
    return any(word.search(line) for line in lines)


def _cd_finding(base: Path, target: str, top: Path, before: Sequence[str]) -> tuple[str, str, Path] | None:
    """(missing part, path up to it, the folder of its name elsewhere) of a `cd target` from `base`
    that `recipe_cds` tells; None otherwise."""
    target = target.strip("\"'")
    if not _LITERAL.match(target):
        return None
    missing = _missing_part(base, target, top)
    if missing is None:
        return None
    part, path = missing
    if _named_before(before, part) or build_ignored(path, [base, top], docker=False):
        return None
    home = _elsewhere(part, base)
    return (part, path, home) if home is not None else None


def _said(part: str, path: str, home: Path, base: Path) -> str:
    """`vllm/ holds no folder qwen/ (a folder of that name is at the top)`."""
    where = os.path.relpath(home.parent, base)
    at = "the top" if where == "." else f"{where}/"
    parent = path.rsplit("/", 1)[0] + "/" if "/" in path else "the folder"
    return f"{parent} holds no folder {part}/ (a folder of that name is at {at})"


def _make_cds(
    doc: Document, source: Sequence[str], readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    path = makefile_of(directory, project)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None:
        return
    top = project_top(directory, project)
    base = path.parent.resolve()
    made = MadeFiles(source)
    shown = os.path.relpath(path, directory.resolve())
    told: set[int] = set()
    for line, targets in make_commands(doc):
        for target in targets:
            recipe = makefile.recipe_lines(text, target) or ()
            for at, command in recipe:
                cd = _FIRST_CD.search(command)
                if cd is None or at in told:
                    continue
                earlier = [command[: cd.start()], *(c for a, c in recipe if a < at)]
                found = _cd_finding(base, cd.group("target"), top, earlier)
                if found is None or made.before(found[0], line):
                    continue
                told.add(at)
                part, where, home = found
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs make {target}, whose recipe ({shown}:{at}) runs cd {cd.group('target')} "
                    f"from the Makefile's folder, but {_said(part, where, home, base)}: the line stops at "
                    "the cd",
                    confidence=CERTAIN,
                )


def _script_cds(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
) -> Iterator[Diagnostic]:
    top = project_top(directory, project)
    made = MadeFiles(source)
    for line, run, script, cwd, _ in shell_scripts_run(doc, directory, audited, project):
        started = build_start(script, cwd, top)
        if started is None:
            continue
        folder, lines = started
        for index, code in enumerate(lines):
            code = code.split(" #", 1)[0]
            if code.lstrip().startswith("#") or CD.search(code) is None:
                continue
            cd = _FIRST_CD.search(code.strip())
            if cd is None:
                break
            found = _cd_finding(folder, cd.group("target"), top, [*lines[:index], code.strip()[: cd.start()]])
            if found is not None and not made.before(found[0], line):
                part, where, home = found
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs {run}, whose line {index + 1} runs cd {cd.group('target')} from "
                    f"{os.path.relpath(folder, directory.resolve())}/, but "
                    f"{_said(part, where, home, folder)}: the script's commands after it run elsewhere or "
                    "not at all",
                    confidence=LIKELY,
                )
            break  # a later `cd` runs from a folder not followed


def recipe_cds(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """Each `cd` of a Makefile recipe a `make` command of the README runs (`certain`: make runs the line
    from the Makefile's folder) or the first of a script the README runs (`likely`), into a folder that
    is not there while one of its name is elsewhere in the project."""
    yield from _make_cds(doc, source, readme, directory, project)
    yield from _script_cds(doc, source, readme, directory, audited, project)
