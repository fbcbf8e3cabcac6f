"""The build commands of a page that build another Dockerfile of the project than the page is about.

A page named after its Dockerfile, in its folder (`r36.base.md` for `r36.base.Dockerfile`, `paths.own_page`),
is that image's page. When each of its build commands passes a `-f` naming another Dockerfile that exists
(`-f images/r32.base.Dockerfile`, the sibling the page was copied from) and none builds its own, the reader
who follows it builds the other image. A build whose `-f` cannot be read (`-f -`, `-f $FILE`, a file not
found: another rule tells that one), or that has no `-f`, leaves the page alone.

And a README whose prose describes two Dockerfiles or more of its folder as the recipes it offers
(`… with the mpi option (Dockerfile_MPI) and with the cuda option (Dockerfile_cuda)`), whose every build
command names by `-f` a Dockerfile its prose never names (`-f Dockerfile`; the word `Dockerfile` counts
only in code or a link, "the Dockerfile" being any of them), while none builds one it describes
(`undescribed_builds`, `likely`): the reader who follows the command builds a recipe the README does not
say what it is, and none of those it does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import PLACEHOLDER, build_commands, command_files
from docgen.audit.paths import own_page
from docgen.audit.references import inside, project_top, run_folders
from docgen.files import is_dockerfile_name
from docgen.markdown import Document, code_spans, links
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


_FILE_WORD = re.compile(r"(?<![\w/.-])([\w.-]*[Dd]ockerfile[\w.-]*)(?![\w/-])")
"""A word that may be a Dockerfile's name (`Dockerfile_cuda`, `Dockerfile.gpu`, `cpu.Dockerfile`)."""


def _described(doc: Document, directory: Path) -> dict[str, int]:
    """The Dockerfiles beside the README its prose names (a name ending in `.` is the sentence's),
    by name → the first line naming it; the plain word `Dockerfile` only in code or a link's text."""
    found: dict[str, int] = {}
    for para in doc.paragraphs:
        for line, text in para.lines:
            coded = {code.strip() for _, _, code in code_spans(text)}
            linked = {link.text for link in links(text) if link.target is not None}
            for match in _FILE_WORD.finditer(text):
                name = match.group(1).rstrip(".")
                if name == "Dockerfile" and name not in coded | linked:
                    continue
                if is_dockerfile_name(name) and os.path.isfile(directory / name):
                    found.setdefault(name, line)
    return found


_MOVES = re.compile(r"(?:^|[;&|(]|\bsudo)[ \t]*(?:mv|cp|ln)[ \t]")


def _renamed(doc: Document, described: dict[str, int], built: set[str]) -> bool:
    """True when a command of the README moves, copies or links a described Dockerfile to a built name
    (`mv Dockerfile.gpu Dockerfile && docker build -f Dockerfile .`): the build builds the recipe."""
    for fence in doc.fences:
        for _, text in fence.lines:
            if _MOVES.search(text) and any(d in text for d in described) and any(b in text for b in built):
                return True
    return False


def undescribed_builds(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """One finding at the first of the README's build commands when each builds, by its `-f`, a
    Dockerfile beside the README its prose never names, while the prose names two or more others there
    that no command builds (see the module's docstring; `likely`: the prose may name them for another
    use). Silent when a build has no `-f`, or one that cannot be read or is not beside the README, and
    when a command moves a described recipe to the built name first (`_renamed`)."""
    described = _described(doc, directory)
    if len(described) < 2:
        return
    here = directory.absolute()
    top = project_top(directory, project)
    builds: list[tuple[int, str]] = []
    for fence in doc.fences:
        for command in build_commands(fence):
            flags = command_files(command)
            if len(flags) != 1:
                return
            built = _built_file(flags[0], [here], top)
            if built is None or built.parent != here.resolve() or built.name in described:
                return
            builds.append((command[0][0], built.name))
    if not builds or _renamed(doc, described, {name for _, name in builds}):
        return
    (line, name), *more = builds
    also = f" (also line{'s' if len(more) > 1 else ''} {', '.join(str(n) for n, _ in more)})" if more else ""
    names = sorted(described, key=described.__getitem__)
    said = ", ".join(names[:-1]) + f" and {names[-1]}"
    yield Diagnostic(
        readme,
        line,
        f"README describes {said} (line {described[names[0]]}), but its build command builds -f {name}, "
        f"which it never describes, and none builds {said.replace(' and ', ' or ')}{also}",
        confidence=LIKELY,
    )
