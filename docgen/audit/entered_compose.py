"""Compose commands a README runs after a `cd` into a folder with no compose file: `cd deploy/gpu` then
`docker compose build`, where neither that folder nor one above it (up to the project root) holds a
default compose file (`compose.yaml`, `compose.yml`, `docker-compose.yml`, `docker-compose.yaml`), so
compose stops with "no configuration file provided". A `cd` into the folder a clone of this very
repository makes (`git clone https://github.com/o/app.git` then `cd app`, `steps.own_clone`: the
address names a remote of the checkout, or the folder has the checkout's name) enters the repository's
root: a README kept in `docker/app/` beside its compose file, whose steps build at the clone's root,
builds nothing (`likely`: the clone is told to be this repository by its address or its name). A clone
of another repository, its name not this one's (`git clone https://github.com/YOUR_USERNAME/app-docker`
in a checkout of `o/tools`), holds files docgen cannot see: no finding.

The same for compose commands run where the README stands, in a project with no default compose file
in the README's folder or above (`unentered_compose`).

And, following the README's steps across its blocks (`Placement`: a clone of this very repository, told
by its address, its name or the words above it, entered with `cd`, then the `cd` steps after it), a
compose command run where no default compose file is, nor above (`placed_compose`), and a `make TARGET`
run in a folder with no Makefile while another folder's Makefile has that rule (`placed_makes`: `make up`
at the root, the Makefile in `docker/`).
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import compose, makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import bare_commands, build_commands, command_words, moves
from docgen.audit.grammar import DOCKER_COMPOSE, read_compose
from docgen.audit.make_targets import make_commands, makefile_in, makefile_of, makefile_text
from docgen.audit.own_repo import remote_names, repository_root
from docgen.audit.paths import resolves_inside
from docgen.audit.placement import LEAVES, Placement
from docgen.audit.steps import CLONE, own_clone
from docgen.files import in_submodule, real_path, text_or_none
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic

_NEEDS_FILE = frozenset({"build", "up", "run", "create", "pull", "push", "config", "down", "logs", "start"})
"""The compose commands that read the project's compose file (not `version` or `ls`)."""


WRITES = re.compile(
    r"(?:^|[;&|(][ \t]*|&&[ \t]*)(?:sudo[ \t]+)?(?:cp|mv|ln|install|make|curl|wget|envsubst|tee|sed|cat|echo"
    r"|printf|python3?|bash|sh|\./\S+|\S+\.sh)\b|>"
)
"""A step that may write a file (`cp docker/x/compose.yaml .`, `./configure`, `> compose.yaml`)."""


def _walked(targets: list[str]) -> list[str | None]:
    """The path each run of the first k `cd` `targets` leads to (k from 0: `""`), normalized; None from
    the first step that cannot be followed (`cd $X`, `cd ~/src`, `cd /opt/app`, an empty one) on."""
    paths: list[str | None] = [""]
    for target in targets:
        path = paths[-1]
        target = target.strip("\"'")
        if path is None or not target or target.startswith(("/", "$", "~", "-", "%")) or "`" in target:
            paths.append(None)
        else:
            paths.append(posixpath.normpath(posixpath.join(path, target)))
    return paths


class EnteredCompose:
    """A compose command of a command block run after the block's `cd` lines, read against the folder
    they enter: silent when the README sets `COMPOSE_FILE`, when the command names its files (`-f`) or
    its folder (`--project-directory`), when a `cd` goes where the README cannot be followed (`cd $X`,
    `cd ~/src`, `cd /opt/app`) or to a folder the repository does not hold (a clone of another
    project), and when that folder or one above it, up to the project root, holds a default file."""

    def __init__(self, doc: Document, readme: str, directory: Path, project: Path | None = None) -> None:
        self.doc = doc
        self.readme = readme
        self.directory = directory
        self.top = (project or directory).resolve()
        self.root: Path | None = None  # the repository's root and remotes, read at the first clone
        self.remotes: set[str] = set()

    def findings(self) -> Iterator[Diagnostic]:
        if any("COMPOSE_FILE" in text for fence in self.doc.fences for _, text in fence.lines) or any(
            "COMPOSE_FILE" in text for paragraph in self.doc.paragraphs for _, text in paragraph.lines
        ):
            return  # the README names the compose files through the environment
        for fence in self.doc.fences:
            steps = list(moves(fence))
            if not steps:
                continue
            clones = self._own_clones(fence)
            # the paths the `cd` steps lead to, each step's read once for all the commands after it
            # (a block of thousands of `cd` and compose lines read them all again for each command)
            ats = [at for at, _ in steps]
            from_first = _walked([t for _, t in steps[1:]])  # (`_cloned`: from the first step's folder)
            from_here = _walked([t for _, t in steps])  # (`_folder`)
            writes = [at for at, text in fence.lines if at >= steps[0][0] and WRITES.search(text)]
            for lines in build_commands(fence, DOCKER_COMPOSE):
                line = lines[0][0]
                count = bisect.bisect_right(ats, line)
                if not count:
                    continue
                entered = steps[:1]
                cloned = self._cloned(entered, clones, from_first[count - 1])
                if cloned and bisect.bisect_left(writes, line) > 0:
                    continue  # (`cp docker/x/compose.yaml .`, `./configure`: a file may be made)
                folder = cloned[0] if cloned else self._folder(from_here[count])
                if folder is None:
                    continue
                words = command_words(lines, DOCKER_COMPOSE)
                if words is not None:
                    yield from self._check(words, line, folder, cloned[1] if cloned else None)

    def _own_clones(self, fence: Fence) -> dict[str, int]:
        """The folder each `git clone` of this very repository in `fence` makes → its README line."""
        found: dict[str, int] = {}
        for line, text in fence.lines:
            if (clone := CLONE.search(text)) is None:
                continue
            if self.root is None:
                self.root = repository_root(self.directory) or self.directory.resolve()
                self.remotes = remote_names(repository_root(self.directory))
            words = re.split(r"&&|\|\||;|\|| #", clone.group(1), maxsplit=1)[0].split()
            if (folder := own_clone(words, self.root, self.remotes)) is not None:
                found.setdefault(folder, line)
        return found

    def _cloned(
        self, entered: list[tuple[int, str]], clones: dict[str, int], path: str | None
    ) -> tuple[Path, str] | None:
        """The folder the `cd` steps lead to, and the path the README gives it, when the first
        (`entered`) enters a clone of this very repository made before it (`clones`): a folder of the
        repository; None otherwise or when a step cannot be followed (`path`, where the steps after
        the first lead from it: `_walked`)."""
        at, first = entered[0]
        first = first.strip("\"'").strip("/")
        if self.root is None or clones.get(first, at + 1) > at:
            return None
        if path is None:
            return None
        if path.startswith(".."):
            return None
        folder = self.root / path if path not in ("", ".") else self.root
        if not os.path.isdir(folder) or not resolves_inside(folder, self.root):
            return None
        return folder, posixpath.join(first, path) if path not in ("", ".") else first

    def _folder(self, path: str | None) -> Path | None:
        """The folder the `cd` steps lead to (`path`: `_walked`), from the README's folder or else from
        the project root; None when a step cannot be followed or neither leads to a folder of the
        project."""
        if path is None or path in ("", ".") or path.startswith(".."):
            return None
        for start in (self.directory, self.top):
            folder = start / path
            if os.path.isdir(folder) and resolves_inside(folder, self.top):
                return folder
        return None

    def _check(self, words: list[str], line: int, folder: Path, cloned: str | None) -> Iterator[Diagnostic]:
        call = read_compose(words)
        if call.verb not in _NEEDS_FILE or not call.complete or call.files:
            return
        if any(name == "--project-directory" for name, _ in call.top.values):
            return
        if in_submodule(folder, self.directory):
            return
        here, top = real_path(folder), (self.root or self.top) if cloned else self.top
        while True:
            if any(os.path.isfile(here / name) for name in compose.DEFAULT_FILES):
                return
            if here == top or here.parent == here or not here.is_relative_to(top):
                break
            here = here.parent
        shown = (
            f"{cloned} (a clone of this repository)"
            if cloned
            else posixpath.relpath(real_path(folder).as_posix(), self.top.as_posix())
        )
        others = sorted(
            p.name for p in folder.iterdir() if "compose" in p.name and p.suffix in (".yml", ".yaml")
        )
        hint = f" (it holds {', '.join(others)})" if others else ""
        text = (
            f"README runs docker compose {call.verb} in {shown}, but no compose.yaml, compose.yml, "
            f"docker-compose.yml or docker-compose.yaml is in that folder nor in one above it{hint}"
        )
        yield Diagnostic(self.readme, line, text, confidence=LIKELY if cloned else CERTAIN)


def entered_compose(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of `EnteredCompose`."""
    return EnteredCompose(doc, readme, directory, project).findings()


_NAMES_DEFAULT = re.compile(r"(?i)(?<![\w-])(?:docker-)?compose\.ya?ml\b|COMPOSE_FILE")
"""A README naming a default compose file (one it may tell the reader to write or fetch) or the files
compose reads through the environment."""


def _readme_commands(doc: Document) -> list[tuple[int, list[str]]]:
    """(README line, words after `docker compose`) of each compose command of the README's command blocks,
    inline code and command lines of its prose, in README order."""
    found: list[tuple[int, list[str]]] = []
    for fence in doc.fences:
        for lines in build_commands(fence, DOCKER_COMPOSE):
            if (words := command_words(lines, DOCKER_COMPOSE)) is not None:
                found.append((lines[0][0], words))
    inline = [
        (line, code)
        for para in doc.paragraphs
        for line, text in para.lines
        if "`" in text
        for _, _, code in code_spans(text)
        if DOCKER_COMPOSE.search(code)
    ]
    inline += list(bare_commands(doc, DOCKER_COMPOSE))
    for line, code in inline:
        if (words := command_words([(line, code)], DOCKER_COMPOSE)) is not None:
            found.append((line, words))
    return sorted({line: words for line, words in reversed(found)}.items())  # (a line read once)


def unentered_compose(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """Compose commands the README runs where it stands (no `-f`, no `cd`, clone or other folder before
    the first), while neither the README's folder nor one above it, up to the project root, holds a
    default compose file: `docker-compose build app-cpu` in a repository with no compose file at all, so
    compose stops with "no configuration file provided" (`certain`, told once, at the first). Silent when
    the README names a default compose file anywhere (it may tell the reader to write or download one)
    or `COMPOSE_FILE`, or shows a compose file in a block before the first command (for the reader to
    save), when a command names its files or folder (`-f`, `--project-directory`), and in a submodule."""
    if _NAMES_DEFAULT.search(text):
        return
    commands = []
    for line, words in _readme_commands(doc):
        call = read_compose(words)
        if call.verb not in _NEEDS_FILE or not call.complete:
            continue
        if call.files or any(name == "--project-directory" for name, _ in call.top.values):
            return  # the README names the files its commands read
        commands.append((line, call.verb))
    if not commands:
        return
    first = commands[0][0]
    if any(LEAVES.search(body) for body in text.splitlines()[:first]):
        return
    if any(
        fence.lines and fence.lines[0][0] < first and _COMPOSE_BODY.search(_body(fence))
        for fence in doc.fences
    ):
        return  # the README shows the compose file itself, for the reader to save where they run it
    top = real_path((project or directory).resolve())
    here = real_path(directory)
    if in_submodule(directory, directory) or not here.is_relative_to(top):
        return
    while True:
        if any(os.path.isfile(here / name) for name in compose.DEFAULT_FILES):
            return
        if here == top or here.parent == here:
            break
        here = here.parent
    others = sorted(
        p.name for p in directory.iterdir() if p.is_file() and compose.FILE_NAME.fullmatch(p.name)
    )
    hint = f" (it holds {', '.join(others)}: name one with -f)" if others else ""
    more = len(commands) - 1
    said = f" (and {more} more compose command{'s' if more > 1 else ''} of the README)" if more else ""
    where = (
        "the README's folder"
        if real_path(directory) == top
        else f"the README's folder, {os.path.relpath(real_path(directory), top)}/,"
    )
    yield Diagnostic(
        readme,
        first,
        f"README runs docker compose {commands[0][1]} where it stands{said}, but no "
        f"compose.yaml, compose.yml, docker-compose.yml or docker-compose.yaml is in {where} nor in one "
        f"above it{hint}: compose finds no configuration file",
        confidence=CERTAIN,
    )


_COMPOSE_BODY = re.compile(r"^services:[ \t]*(?:#.*)?\n[ \t]+[\w.-]+:", re.MULTILINE)
"""A compose file's top: `services:` with a service under it."""


def _body(fence: Fence) -> str:
    return "".join(text + "\n" for _, text in fence.lines)


_WRITES_DEFAULT = re.compile(
    r"(?i)(?:\b(?:create|write|save|download|fetch|copy|paste|generate|make|add)\b[^.\n]{0,60}?"
    r"|(?:>|\btee|\bcp|\bmv|\bln|\bcurl|\bwget)\b[^\n]{0,80}?)(?<![\w-])(?:docker-)?compose\.ya?ml\b"
)
"""A line that makes a default compose file (`cat > compose.yaml`, `create a docker-compose.yml`)."""
_GENERATED_MAKEFILE = re.compile(r"(?i)\b(?:cmake|configure|qmake|autogen|autoreconf|meson|Makefile\.PL)\b")
"""A README that makes its Makefile (`cmake ..`, `./configure`)."""
_ENV_FILES = (".env", ".env.example", ".env.sample", ".env.template", "env.example", ".env.dist")
_VENDORED = frozenset("node_modules third_party third-party vendor external extern deps submodules".split())
"""Folders of other projects' files: their Makefiles and compose files are not the README's."""
_MOST_FOLDERS = 400
"""Folders of the project looked through for the file a command lacks (a larger tree is not read)."""


def _folders(top: Path) -> Iterator[tuple[Path, list[str]] | None]:
    """(folder, its file names) of the folders of `top`, four down, hidden folders, vendored ones
    (`_VENDORED`) and links to folders not read; None last when the tree has more than `_MOST_FOLDERS`
    folders (a larger tree is not read)."""
    base = len(top.parts)
    for seen, (folder, dirs, files) in enumerate(os.walk(top), start=1):
        if seen > _MOST_FOLDERS:
            yield None
            return
        here = Path(folder)
        depth = len(here.parts) - base
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _VENDORED) if depth < 4 else []
        dirs[:] = [d for d in dirs if not os.path.islink(here / d)]
        yield here, files


def _found_below(top: Path, names: tuple[str, ...]) -> list[Path] | None:
    """The files of `names` in the folders of `top` (`_folders`), nearest first; None when the tree is
    too large to read."""
    found: list[Path] = []
    for walked in _folders(top):
        if walked is None:
            return None
        here, files = walked
        hit = next((here / n for n in names if n in files), None)
        if hit is not None:
            found.append(hit)
    return sorted(found, key=lambda p: (len(p.parts), p.as_posix()))


def _no_compose_below(top: Path) -> bool:
    """True when no folder of `top` (`_folders`) holds a compose file of any name (`compose.FILE_NAME`:
    `docker-compose.gpu.yml` too); False when the tree is too large to tell."""
    for walked in _folders(top):
        if walked is None or any(compose.FILE_NAME.fullmatch(name) for name in walked[1]):
            return False
    return True


def _relative(path: Path, top: Path) -> str:
    return posixpath.relpath(real_path(path).as_posix(), real_path(top).as_posix())


def _env_names_file(folder: Path) -> bool:
    """True when a `.env` (or its template) of `folder` sets `COMPOSE_FILE`: compose reads it there."""
    for name in _ENV_FILES:
        body = text_or_none(folder / name) if os.path.isfile(folder / name) else None
        if body is not None and "COMPOSE_FILE" in body:
            return True
    return False


def placed_compose(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """Compose commands (no `-f`, `--project-directory`) that the README's earlier blocks place in a
    folder (a clone of this repository entered with `cd`, and the `cd` steps after it) where no default
    compose file is, nor in a folder above it, while the project holds one elsewhere: compose stops with
    "no configuration file provided" (`likely`, told once, at the first, with where the file is).
    Commands after a `cd` of their own block are `entered_compose`'s; silent when the README writes a
    default compose file or names `COMPOSE_FILE`, or a `.env` of the folder does."""
    if "COMPOSE_FILE" in text or any(_WRITES_DEFAULT.search(t) for t in text.splitlines()):
        return
    own_cds = {line for fence in doc.fences for line, _ in moves(fence)}
    fence_of = {line: i for i, fence in enumerate(doc.fences) for line, _ in fence.lines}
    starts = {i: fence.lines[0][0] for i, fence in enumerate(doc.fences) if fence.lines}
    top = real_path((project or directory).resolve())
    placement: Placement | None = None
    found: list[tuple[int, str, Path, str]] = []
    for line, words in _readme_commands(doc):
        call = read_compose(words)
        if call.verb not in _NEEDS_FILE or not call.complete:
            continue
        if call.files or any(name == "--project-directory" for name, _ in call.top.values):
            return
        block = fence_of.get(line)
        if block is not None and any(starts[block] <= cd < line for cd in own_cds):
            continue  # (`entered_compose`'s)
        placement = placement or Placement(doc, text, directory, top)
        placed = placement.at(line)
        if placed is None or placed[1] is None:
            continue  # (unknown, or no move: `unentered_compose`'s)
        found.append((line, call.verb, placed[0], placed[1]))
    if not found:
        return
    line, verb, folder, shown = found[0]
    here = real_path(folder)
    while True:
        if any(os.path.isfile(here / name) for name in compose.DEFAULT_FILES) or _env_names_file(here):
            return
        if here == top or here.parent == here or not here.is_relative_to(top):
            break
        here = here.parent
    files = _found_below(top, compose.DEFAULT_FILES)
    more = len({f[0] for f in found}) - 1
    said = f" (and {more} more compose command{'s' if more > 1 else ''} of the README)" if more else ""
    if files == [] and _no_compose_below(top):
        # no compose file anywhere in the project: wherever in this repository's clone the reader stands
        yield Diagnostic(
            readme,
            line,
            f"README runs docker compose {verb} in {shown} (where its steps lead: a clone of this"
            f" repository){said}, but the project has no compose file at all: compose finds no"
            " configuration file",
            confidence=CERTAIN,
        )
        return
    if not files:
        return
    where = ", ".join(_relative(f, folder) for f in files[:3])
    yield Diagnostic(
        readme,
        line,
        f"README runs docker compose {verb} in {shown} (where its steps lead){said}, but no compose.yaml, "
        f"compose.yml, docker-compose.yml or docker-compose.yaml is in that folder nor in one above it: "
        f"compose finds no configuration file (the project's is {where}: name it with -f or cd there "
        "first)",
        confidence=LIKELY,
    )


def placed_makes(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """`make TARGET` commands (no `-C`, `-f`) run in a folder with no Makefile while the project's only
    Makefiles making a target they name are in other folders (`make up` at the root, the Makefile in
    `docker/`): make stops with "No rule to make target" (told once, at the first, with where the
    Makefile is). The folder is the README's (and those above it, as `make_targets` reads), `certain`,
    or the one its steps lead to (a clone of this repository entered with `cd`), `likely`; unknown
    after any other move. Silent when the README makes its Makefile (`cmake`, `./configure`)."""
    commands = [(line, targets) for line, targets in make_commands(doc) if targets]
    if not commands or _GENERATED_MAKEFILE.search(text):
        return
    top = real_path((project or directory).resolve())
    placement = Placement(doc, text, directory, top)
    found: list[tuple[int, list[str], Path, str | None]] = []
    for line, targets in commands:
        placed = placement.at(line)
        if placed is None:
            continue
        folder, shown = placed
        has = makefile_of(directory, project) if shown is None else makefile_in(folder)
        if has is None:
            found.append((line, targets, folder, shown))
    if not found:
        return
    makefiles = _found_below(top, makefile.DEFAULT_FILES)
    if not makefiles:
        return
    named = {t for _, targets, _, _ in found for t in targets}
    having: list[tuple[Path, frozenset[str]]] = []
    for path in makefiles:
        body = makefile_text(path)
        rules = makefile.rule_targets(body) if body is not None else None
        if rules and named & rules:
            having.append((path, rules))
    if not having:
        return
    line, targets, folder, shown = found[0]
    path, rules = having[0]
    target = next((t for t in targets if t in rules), targets[0])
    where = _relative(path, folder)
    other = _relative(path.parent, folder)
    more = len({f[0] for f in found}) - 1
    said = f" (and {more} more make command{'s' if more > 1 else ''} of the README)" if more else ""
    place = "the README's folder" if shown is None else f"{shown} (where its steps lead)"
    yield Diagnostic(
        readme,
        line,
        f"README runs make {' '.join(targets)} in {place}{said}, but no Makefile is there: make stops "
        f"(no rule to make target {targets[0]}); the Makefile with rule {target} is {where} (run make -C "
        f"{other} {target}, or cd {other} first)",
        confidence=CERTAIN if shown is None else LIKELY,
    )
