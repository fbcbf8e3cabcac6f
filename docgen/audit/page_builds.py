"""The build commands of a Dockerfile's own page that build another Dockerfile of the project.

A page named after its Dockerfile, in its folder (`r36.base.md` for `r36.base.Dockerfile`, `paths.own_page`),
is that image's page. When each of its build commands passes a `-f` naming another Dockerfile that exists
(`-f images/r32.base.Dockerfile`, the sibling the page was copied from) and none builds its own, the reader
who follows it builds the other image. A build whose `-f` cannot be read (`-f -`, `-f $FILE`, a file not
found: another rule tells that one), or that has no `-f`, leaves the page alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import PLACEHOLDER, build_commands, command_files
from docgen.audit.paths import own_page
from docgen.audit.references import inside, project_top, run_folders
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel


def _built_file(flag: str, bases: Sequence[Path], top: Path) -> Path | None:
    """The Dockerfile a `-f` value names, found from one of `bases` (the folders the README's commands
    may run in), resolved; None when it names none that exists there, or cannot be read (`-`, `$FILE`,
    `{name}`, an absolute path, a command substitution)."""
    value = flag.strip("\"'")
    if value in ("", "-") or value.startswith(("/", "~", "$(")) or PLACEHOLDER.search(value):
        return None
    for base in bases:
        found = inside(base.absolute() / value, top)
        if found is not None and os.path.isfile(found):
            return found
    return None


def other_builds(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """One finding on a Dockerfile's own page (`readme`) whose every build command builds, by its `-f`,
    another Dockerfile found in the project, at the first of them, naming the others' lines (`certain`:
    the command says which file it builds, the page's name which one it is about). Silent when a build
    builds the page's own Dockerfile (a base built first, then its own), when one has no `-f` or one
    that cannot be read or found, and on a page of several Dockerfiles (`README.md`)."""
    own = [m for m in models if m.file and own_page(readme, m.path)]
    if len(own) != 1 or not os.path.isfile(own[0].file):
        return
    model = own[0]
    mine = Path(os.path.realpath(model.file))
    top = project_top(directory, project)
    bases = run_folders(directory, [m.path for m in models], top)
    others: list[tuple[int, str]] = []  # (README line, the -f as written) of each build
    for fence in doc.fences:
        for command in build_commands(fence):
            flags = command_files(command)
            if len(flags) != 1:
                return  # no -f (or several): which file it builds is not read here
            built = _built_file(flags[0], bases, top)
            if built is None or built == mine:
                return
            others.append((command[0][0], flags[0]))
    if not others:
        return
    (line, flag), *more = others
    also = f" (also line{'s' if len(more) > 1 else ''} {', '.join(str(n) for n, _ in more)})" if more else ""
    yield Diagnostic(
        readme,
        line,
        f"README is the page of {model.path} (by its name), but its build command builds -f {flag}, "
        f"another Dockerfile, and none builds {model.path}{also}",
        confidence=CERTAIN,
    )
