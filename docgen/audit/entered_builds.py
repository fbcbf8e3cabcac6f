"""A `docker build -f PATH CONTEXT` after a README `cd` into a folder of this repository, whose `-f` is
written from the context, not from that folder: `cd app/docker` then `docker build -f docker/Dockerfile ..`.

Docker reads a relative `-f` from the current folder, not from the context (with a local context the
CLI makes the path absolute from where it runs), so from `docker/` that command looks for
`docker/docker/Dockerfile` and fails. Reported (`certain`) when, in one command block, a `cd` has put
the reader in one known folder of the project, the `-f` path is found nowhere from there, and it is a
Dockerfile from the context folder.

The folder a `cd` enters is known when its path, from the README's folder or one above it inside the
project, names exactly one folder; a first part found nowhere in the project is the name the reader
gave their clone of this repository (`cd myapp/docker`; then only a build of an audited Dockerfile is
told), unless a `git clone` of the README makes a folder of that name: then it is followed only when
that clone is of this very repository (`steps.own_clones`), into the repository's root; another
repository's clone is not read. A
`cd` to a variable, a home or absolute path, or one that names no single folder leaves the folder
unknown, and the block's later builds are not read. A build written as an alternative in a comment
of a command line (`docker compose build app   # or: docker build -f …`) is read in the folder of
that line. Only Docker's own build (`docker build`, `docker buildx build`): Podman and Buildah look
for a relative `-f` in the context too when it is not found from the current folder. `docker compose`
is no build command here (a compose file's `dockerfile:` is read from its `context:`, as written).

A Docker build with no `-f` run there reads `CONTEXT/Dockerfile` (or `dockerfile`): a context folder of
the project that holds neither fails it (`certain`; `_no_dockerfile`). The same is read in prose
(`prose_builds`): a list or paragraph whose sentence enters a folder (`go to docker/gpu`) and whose later
line is one code span building with no `-f`; through a placeholder the sentence explains (`go to
X/build_cv where X is the image folder`) every folder it may be is read (`likely`). A build with no `-f`
and no `cd` before it runs in the README's folder: told when its context holds only Dockerfiles of
other names (`Dockerfile22`, `Dockerfile24`), or when neither it nor the project's top holds one while
the project's audited Dockerfile is elsewhere (`_built_nowhere`), or no Dockerfile was found to audit
at all (`certain` in a git checkout, `likely` in a copy of some of its files). A `cd` of an earlier
block counts: the reader's shell is still where it took them, so after one such a build is not taken as
run in the README's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import CD_STEP, build_paths, clone_of
from docgen.audit.copies import reads_as_dockerfile
from docgen.audit.references import bases_above, command_lines, in_checkout, inside, project_top
from docgen.audit.steps import own_clones
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import DOCKER, build_command
from docgen.files import context_dockerfile, is_dockerfile_name, real_path, text_or_none
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_DOCKER_BUILD = re.compile(build_command(DOCKER))
"""Docker's own build command (`docker build`, `docker buildx build`, `docker image build`)."""
_ALTERNATIVE = re.compile(r"[ \t]#+[ \t]*(?:or|alternatively)\b[ \t]*:?[ \t]*(?P<command>.*)", re.IGNORECASE)
"""A comment of a command line offering another command for the same step (`# or: docker build …`)."""
_UNKNOWN = re.compile(r"[$<>{}%~*?\[\]`]|://")
"""A path docgen cannot follow: a variable, a placeholder, a home, a pattern, an address."""


def _clone_folders(
    doc: Document, own: Callable[[int, str], tuple[str, Path] | None]
) -> dict[str, Path | None]:
    """The folders the README's `git clone` commands make (named, or the repository's last part) → the
    repository's root when it is a clone of this very repository (`own`: `steps.own_clones`), else None."""
    folders: dict[str, Path | None] = {}
    for fence in doc.fences:
        for line, text in fence.lines:
            clone = clone_of(text)
            if clone is None:
                continue
            repository, folder = clone
            name = (folder or repository.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]).strip("\"'")
            name = name.removesuffix(".git").rstrip("/")
            mine = [made for step in re.split(r"&&|;", text) if (made := own(line, step)) is not None]
            root = next((r for f, r in mine if f == name), None)
            folders[name] = (
                real_path(root) if root is not None and folders.get(name, root) is not None else None
            )
    return folders


def _entered(
    target: str, here: Path | None, bases: list[Path], top: Path, clones: dict[str, Path | None]
) -> tuple[Path, bool] | None:
    """The one folder `cd target` enters from `here` (None: from where the reader starts, the README's
    folder or one above it), and whether its first part was taken for the reader's own name of their
    clone; None when it cannot be told."""
    target = re.sub(r"^(?:\./)+", "", target.strip("\"'")).rstrip("/")
    if not target or target.startswith(("/", "-")) or _UNKNOWN.search(target):
        return None
    if here is not None:
        moved = inside(here / target, top)
        return (moved, False) if moved is not None and os.path.isdir(moved) else None
    found = {f for f in (inside(base / target, top) for base in bases) if f is not None and os.path.isdir(f)}
    if found:
        return (found.pop(), False) if len(found) == 1 else None
    head, _, rest = target.partition("/")
    if not rest or head in (".", "..") or any(os.path.lexists(base / head) for base in bases):
        return None
    if head in clones:  # a folder a clone makes: this repository's root, or another's
        root = clones[head]
        moved = inside(root / rest, top) if root is not None else None
        return (moved, False) if moved is not None and os.path.isdir(moved) else None
    found = {f for f in (inside(base / rest, top) for base in bases) if f is not None and os.path.isdir(f)}
    return (found.pop(), True) if len(found) == 1 else None


def _steps(fence: Fence) -> Iterator[tuple[int, str, bool]]:
    """(README line, step, is an alternative in a comment) of the block's commands in order."""
    raw = dict(fence.lines)
    for line, code in command_lines(fence, joined=True):
        for step in re.split(r"&&|\|\||;", code):
            yield line, step, False
        alternative = _ALTERNATIVE.search(raw.get(line, ""))
        if alternative is not None and _DOCKER_BUILD.search(alternative.group("command")):
            yield line, alternative.group("command"), True


def entered_builds(
    doc: Document,
    readme: str,
    directory: Path,
    project: Path | None = None,
    audited: Sequence[str] = (),
    own: Callable[[int, str], tuple[str, Path] | None] | None = None,
    source: Sequence[str] | None = None,
) -> Iterator[Diagnostic]:
    """Each Docker build of a command block, run in the folder a `cd` of that block entered, whose `-f`
    path is not there but is a Dockerfile from the build's context (see the module). After a `cd` whose
    first part is taken for the reader's name of their clone, only when that Dockerfile is one of
    `audited` (the files of the Dockerfiles audited): the README builds this repository's image. `own`:
    `steps.own_clones` of the README when the caller has it (read once for every rule that asks).
    `source`: the README's lines, whole (`doc` may be what is left of it), read for the names its
    commands write Dockerfiles to (`_writes_others`)."""
    others = _writes_others(source if source is not None else [t for f in doc.fences for _, t in f.lines])
    ours = {real_path(Path(file)) for file in audited}
    top = project_top(directory, project)
    bases = bases_above(directory, top)
    clones: dict[str, Path | None] | None = None
    may_make = _maker(doc)
    moved_before = False  # a `cd` of an earlier block: the reader's shell is no longer in the README's folder
    rooted = _said_rooted(doc, directory, top)
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS or reads_as_dockerfile(fence):
            continue  # (a Dockerfile pasted in a `bash` block: its RUN's `cd` moves no reader)
        here: Path | None = None
        entered = guessed = False
        said_at = rooted.get(fence.lines[0][0]) if fence.lines and rooted else None
        if said_at is not None:  # the sentence over the block puts the reader in the repository's root
            here, entered = real_path(top), True
        docker_only = True  # every step run since the last `cd` is one of Docker's own (`DOCKER_STEP`)
        started = not moved_before
        for line, step, alternative in _steps(fence):
            cd = CD_STEP.match(step)
            if cd is not None:
                moved_before = True
                if clones is None:
                    clones = _clone_folders(doc, own or own_clones(doc, directory))
                moved = _entered(cd.group(1) or "", here if entered else None, bases, top, clones)
                if moved is None:
                    break  # a folder that cannot be told: the rest of the block is not read
                here, guessed, entered = moved[0], guessed or moved[1], True
                docker_only = True
                continue
            if not alternative and step.strip():
                docker_only = docker_only and DOCKER_STEP.match(step) is not None
            if started and not entered and not alternative and _DOCKER_BUILD.search(step):
                paths = build_paths(step)
                if paths is not None and paths[0] is None and docker_only:
                    told = list(
                        _no_dockerfile(readme, line, real_path(directory), paths[1], top, may_make, others)
                    )
                    if not told and not fence.inline:  # (the prose of a code span may say where)
                        told = list(
                            _built_nowhere(
                                readme, fence, line, directory, paths[1], top, may_make, audited, doc
                            )
                        )
                    yield from told
            if not entered or here is None or not _DOCKER_BUILD.search(step):
                continue
            paths = build_paths(step)
            if paths is None:
                continue
            file, context = paths
            if file is None:
                if not guessed and docker_only:
                    yield from _no_dockerfile(
                        readme, line, here, context, top, may_make, said_at=said_at, readme_folder=directory
                    )
                continue
            if _UNKNOWN.search(file + context) or file.startswith("/") or context.startswith("/"):
                continue
            if os.path.lexists(here / file):
                continue
            root = inside(here / context, top)
            beside = inside(root / file, top) if root is not None else None
            if beside is None or not os.path.isfile(beside) or (guessed and beside not in ours):
                continue
            yield Diagnostic(
                readme,
                line,
                f"README builds with -f {file} from {_shown(here, top)}, where no {file} exists; docker "
                f"reads -f from the current folder, not from the context {context}, where the Dockerfile "
                f"is (-f {os.path.relpath(beside, here)})",
                confidence=CERTAIN,
            )


DOCKER_STEP = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?docker[ \t]")
"""A step of Docker's own (a build, a pull, a run): none writes a Dockerfile into the folder."""
WRITES_DOCKERFILE = re.compile(
    r"(?:>|\b(?:cp|mv|ln|install|rsync|wget|curl|touch|tee|envsubst|sed|m4|cat|make|generate\w*)\b)"
    r"[^\n]*\b[Dd]ockerfile\b|\b[Dd]ockerfile\b[^\n]*\b(?:generat|creat|writ|render|templat)\w*"
    r"|\b(?:[Cc]reat|[Ww]rit|[Ss]av|[Pp]ast|[Pp]repar|[Pp]ut|[Pp]lac)\w*[ \t]+(?:(?:an?|the|this|that|it|"
    r"your|own|new|simple|following|text|contents?|below|above|file|named|called|as|in|into|to)[ \t]+"
    r"|[`\"'*]){0,8}[Dd]ockerfile\b",
)
"""A command or sentence that makes a Dockerfile: `cp Dockerfile.gpu Dockerfile`, `> Dockerfile`, `make
dockerfile`, `the Dockerfile is generated by …`, and the reader told to write one (`create a Dockerfile
as following:`, `save the text below as `Dockerfile``, `paste it into a file named Dockerfile`): a
README that gives the text of its Dockerfile for the reader to put in a file."""
_SCRIPT_FILE = re.compile(r".+\.(?:sh|bash|py|mk|pl|rb|js|ts)|[Mm]akefile|GNUmakefile|justfile|\.gitignore")
"""The files of a folder that may make a Dockerfile there (or, `.gitignore`, say one is made)."""


def _no_dockerfile(
    readme: str,
    line: int,
    here: Path,
    context: str,
    top: Path,
    may_make: Callable[[Path], bool],
    others_made: bool | None = None,
    said_at: int | None = None,
    readme_folder: Path | None = None,
) -> Iterator[Diagnostic]:
    """A finding when `docker build CONTEXT` (no `-f`), run in `here`, finds no Dockerfile in CONTEXT:
    docker reads `CONTEXT/Dockerfile` (a `dockerfile` of another case is taken too, and not told).
    Silent when the README or a script, Makefile or `.gitignore` of that folder may make one
    (`may_make`, from `_maker`).
    `others_made` (not None): run where the reader starts, the README's folder (no `cd` before it),
    only told when that context folder holds Dockerfiles of other names (`Dockerfile22`,
    `gpu.Dockerfile`): the folder is the image's, and the build names none of them; True when the
    README's commands write Dockerfiles of other names only (then what may make one is not read)."""
    if not _PLAIN_PATH.fullmatch(context):
        return
    folder = inside(here / context, top)
    if folder is None or not os.path.isdir(folder):
        return
    started = others_made is not None
    if not others_made and may_make(folder):
        return
    others: list[str] = []
    if started:
        others = sorted(n for n in _names(folder) if is_dockerfile_name(n) and os.path.isfile(folder / n))
        if not others:
            return
    own = _shown(here, top)
    where = (
        f"in {own} (after its cd)"
        if not started
        else "in the README's own folder" + ("" if own == "./" else f" {own}")
    )
    if said_at is not None:
        where = f"from the repository's root {own} (as line {said_at} says)"
    holder = "it" if started and folder == here else _shown(folder, top)
    said = (
        f"README runs docker build {context} {where}, but {holder} holds no Dockerfile: with "
        "no -f, docker build reads Dockerfile from the context"
    )
    if others:
        said += f" (the folder has {', '.join(others[:3])}: name one with -f)"
    if said_at is not None and readme_folder is not None and context.rstrip("/") == ".":
        beside = real_path(readme_folder.absolute())
        if os.path.isfile(context_dockerfile(beside)):
            said += f"; the README's folder {_shown(beside, top)} has one: build from there"
    yield Diagnostic(readme, line, said, confidence=LIKELY if said_at is not None else CERTAIN)


_BLOCK_SCRIPT = re.compile(r"(?<![^\s;&|(])\./([\w.-]+)")
"""A script a block runs from the folder it stands in (`./start_sim.bash`)."""


def _built_nowhere(
    readme: str,
    fence: Fence,
    line: int,
    directory: Path,
    context: str,
    top: Path,
    may_make: Callable[[Path], bool],
    audited: Sequence[str],
    doc: Document | None = None,
) -> Iterator[Diagnostic]:
    """A finding when `docker build CONTEXT` (no `-f`, no `cd` before it) finds no Dockerfile (any case)
    in CONTEXT from either folder the reader may run it in, the README's own and the project's top, while
    an audited Dockerfile of the project is elsewhere (`docker/Dockerfile.rocm`): the build needs `-f`;
    or none is audited at all (no Dockerfile found for the README): the nearest above the README, if
    any, is named, `certain` in a git checkout, `likely` outside one (a copy may lack the Dockerfile).
    Silent when a context folder is not there from both, or may get a Dockerfile (`may_make`), or when
    the block (`fence`) runs a `./script` that is beside an audited Dockerfile and not beside the README
    (`gpu/start_sim.bash` by `gpu/Dockerfile`: the block is run there), or when the prose of its section
    before it writes that Dockerfile's folder as a path (`./docker`, `docker/`, `` `docker` ``): a step
    sending the reader there, in words docgen need not read (`ir a la carpeta ./docker`)."""
    if not _PLAIN_PATH.fullmatch(context):
        return
    starts = list(dict.fromkeys([real_path(directory.absolute()), real_path(top)]))
    folders = list(dict.fromkeys(inside(start / context, top) for start in starts))
    if any(folder is None or not os.path.isdir(folder) or may_make(folder) for folder in folders):
        return
    ours = [real_path(Path(f).absolute()) for f in audited]
    ours = [f for f in ours if f.is_relative_to(top) and os.path.isfile(f)]
    if not ours and audited:
        return
    if doc is not None and _folder_said(doc, fence, line, [own.parent for own in ours], directory, top):
        return
    for own in ours:  # a script the block runs is in the Dockerfile's folder, not the README's: run there
        if any(
            os.path.isfile(own.parent / name) and not os.path.isfile(directory / name)
            for name in _BLOCK_SCRIPT.findall("\n".join(text for _, text in fence.lines))
        ):
            return
    shown = [_shown(f, top) for f in folders if f is not None]
    where = (
        f"{shown[0]} holds no Dockerfile"
        if len(shown) == 1
        else f"neither {shown[0]} nor {shown[1]} holds a Dockerfile"
    )
    lead = f"README runs docker build {context} with no -f (from the README's folder or the project's top)"
    if not ours:  # no Dockerfile audited: none beside the README (a copy of the project may lack it)
        above = next(
            (
                context_dockerfile(f)
                for f in bases_above(directory, top)[1:]
                if os.path.isfile(context_dockerfile(f))
            ),
            None,
        )
        said = f"{lead}, but {where}: with no -f, docker build reads Dockerfile from the context and stops"
        said += (
            " with none to read"
            if above is None
            else f"; the nearest is {_shown(above.parent, top)}Dockerfile (build there or name it with -f)"
        )
        yield Diagnostic(
            readme,
            line,
            said,
            confidence=CERTAIN if in_checkout(real_path(directory.absolute()), top) else LIKELY,
        )
        return
    yield Diagnostic(
        readme,
        line,
        f"{lead}, but {where}: with no "
        f"-f, docker build reads Dockerfile from the context; the project's is "
        f"{ours[0].relative_to(top).as_posix()} (name it with -f)",
        confidence=CERTAIN,
    )


def _folder_said(
    doc: Document, fence: Fence, line: int, folders: Sequence[Path], directory: Path, top: Path
) -> bool:
    """Whether a paragraph of `fence`'s section, before README `line`, writes one of `folders` (inside
    the project) as a path from the README's folder or the project's top: `./docker`, `docker/`,
    `` `docker` `` (a bare word is no path: `docker` is also the command)."""
    names: set[str] = set()
    for folder in folders:
        for start in (real_path(directory.absolute()), real_path(top)):
            if folder != start and folder.is_relative_to(start):
                names.add(folder.relative_to(start).as_posix())
    if not names:
        return False
    either = "(?:" + "|".join(re.escape(name) for name in sorted(names)) + ")"
    said = re.compile(rf"\./{either}(?![\w.-])|(?<![\w./-]){either}/(?![\w.-])|`(?:\./)?{either}/?`")
    return any(
        said.search(text)
        for paragraph in doc.paragraphs
        if paragraph.section == fence.section
        for at, text in paragraph.lines
        if at < line
    )


_FROM_ROOT = re.compile(
    r"\b(?:from|in|at|inside|within)[ \t]+(?:the[ \t]+)?(?:"
    r"(?:top(?:-level)?[ \t]+)?root[ \t]+(?:folder[ \t]+|directory[ \t]+|dir[ \t]+)?of[ \t]+"
    r"(?:the|this|your)[ \t]+"
    r"(?:repo(?:sitory)?|project|checkout|clone)"
    r"|(?:repo(?:sitory)?|project)(?:'s)?[ \t]+root(?:[ \t]+(?:folder|directory|dir))?)\b",
    re.IGNORECASE,
)
"""A sentence putting the reader in the repository's root: `from the root of the repository`, `in the
repo root`, `from the project's root directory`."""


def _said_rooted(doc: Document, directory: Path, top: Path) -> dict[int, int]:
    """(first line of a command block) → (README line) of each block right under a sentence (ending
    within two lines above it) saying to run it from the repository's root, when the README is in a
    folder below that root (`top`, or the git checkout's folder at or above the README within it)."""
    here = real_path(directory.absolute())
    checkout = next(
        (f for f in (here, *here.parents) if f.is_relative_to(top) and os.path.exists(f / ".git")), None
    )
    root = real_path(checkout or top)
    if here == root or not here.is_relative_to(root) or checkout not in (None, real_path(top)):
        return {}
    ends = {para.lines[-1][0]: para.lines[-1][1] for para in doc.paragraphs if para.lines}
    found: dict[int, int] = {}
    for fence in doc.fences:
        if not fence.lines:
            continue
        opening = fence.lines[0][0] - 1
        said = next((n for n in (opening - 1, opening - 2) if n in ends), None)
        if said is not None and _FROM_ROOT.search(ends[said]):
            found[fence.lines[0][0]] = said
    return found


_WRITTEN = re.compile(r">[ \t]*(?P<name>[\w./-]*[Dd]ockerfile[\w.-]*)")
"""A command writing a Dockerfile (`hpccm … > Dockerfile24`), the name it writes."""


def _writes_others(lines: Sequence[str]) -> bool:
    """True when the README's commands make their Dockerfiles under other names than `Dockerfile`
    (`hpccm --recipe r.py > Dockerfile24`), none as `Dockerfile`: its account of how a Dockerfile is
    made (a sentence, a generator in the folder) makes no `Dockerfile` for a plain build."""
    names = {m.group("name").rsplit("/", 1)[-1] for t in lines for m in _WRITTEN.finditer(t)}
    return bool(names) and not any(n.lower() == "dockerfile" for n in names)


def _names(folder: Path) -> list[str]:
    """The names in `folder` (none when it cannot be read)."""
    try:
        return [e.name for e in os.scandir(folder)]
    except OSError:
        return []


_PLAIN_PATH = re.compile(r"\.{1,2}(?:/\.{1,2})*/?|(?:\.{1,2}/)*[\w.-]+(?:/[\w.-]+)*/?")
"""A context folder written as a plain relative path (`.`, `..`, `docker/gpu`)."""


def _maker(doc: Document) -> Callable[[Path], bool]:
    """A test of whether a folder holds a Dockerfile (any case), or the README or a file of the folder
    (`_SCRIPT_FILE`) may make one there. The README is read once (on the first folder asked of), each
    folder once: a README of many builds costs no more than its lines and its folders."""
    readme: list[bool] = []
    seen: dict[Path, bool] = {}

    def may_make(folder: Path) -> bool:
        if folder not in seen:
            seen[folder] = _folder_may_make(folder, lambda: _readme_makes(doc, readme))
        return seen[folder]

    return may_make


def _readme_makes(doc: Document, known: list[bool]) -> bool:
    """True when a line of the README (a command or a sentence) makes a Dockerfile; kept in `known`."""
    if not known:
        texts = [text for f in doc.fences for _, text in f.lines]
        texts += [text for p in doc.paragraphs for _, text in p.lines]
        known.append(any(WRITES_DOCKERFILE.search(text) for text in texts))
    return known[0]


def _folder_may_make(folder: Path, readme_makes: Callable[[], bool]) -> bool:
    """True when `folder` holds a Dockerfile (any case), or the README (`readme_makes`) or a file of the
    folder (`_SCRIPT_FILE`) may make one there."""
    try:
        names = [e.name for e in os.scandir(folder)]
    except OSError:
        return True
    if any(name.lower() == "dockerfile" for name in names):
        return True
    if readme_makes():
        return True
    for name in names:
        if _SCRIPT_FILE.fullmatch(name):
            content = text_or_none(folder / name) or ""
            if "dockerfile" in content.lower():
                return True
    return False


_GO_TO = re.compile(
    r"\b(?:go|change|move|navigate|switch|step)[ \t]+(?:in)?to[ \t]+(?:the[ \t]+)?"
    r"(?:(?:folder|directory|dir)[ \t]+)?(?P<quote>`?)"
    r"(?P<path>[\w.<>-]+(?:/[\w.<>-]+)+|[\w.<>-]+(?=`))/?(?P=quote)",
    re.IGNORECASE,
)
"""A sentence entering a folder: `go to X/build_opencv`, `change into `docker/gpu``."""
_PLACEHOLDER_PART = re.compile(r"[A-Z]|<[\w -]+>")
"""A first part of a path the reader fills in: `X`, `<folder>`."""
_SPAN_BUILD = re.compile(r"(?:[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+)?`(?P<command>[^`]+)`[ \t]*\Z")
"""A line (or list item) that is one code span: the command of a step."""


_MAX_FOLDERS = 2000
"""The folders of the project looked through for what a placeholder may be, at most."""


def _expansions(part: str, rest: str, line: str, top: Path) -> tuple[list[Path], bool] | None:
    """The folders `PART/rest` may be, a placeholder `PART` explained in `line` (`where X is …`): the one
    the line names (True: named), else every folder of the project (three levels deep) that holds
    `rest`; None when the line does not explain it."""
    if re.search(rf"(?:\bwhere|\bwith)[ \t]+{re.escape(part)}[ \t]+(?:is|=|stands)\b", line) is None:
        return None
    found: list[Path] = []
    for seen, (folder, subfolders, _) in enumerate(os.walk(top)):
        if seen >= _MAX_FOLDERS:
            return None
        depth = len(Path(folder).relative_to(top).parts)
        subfolders[:] = (
            [d for d in subfolders if not d.startswith(".") and d != "node_modules"] if depth < 3 else []
        )
        if os.path.isdir(os.path.join(folder, rest)):
            found.append(Path(folder))
    named = [f for f in found if f != top and re.search(rf"(?<![\w.-]){re.escape(f.name)}(?![\w-])", line)]
    if len(named) == 1:
        return [named[0]], True
    return found, False


def prose_builds(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """`docker build .` (no `-f`), a code span of a list or paragraph, after a sentence of it entering a
    folder (`go to docker/gpu`), when that folder holds no Dockerfile (`_no_dockerfile`): `certain`
    when the sentence names the folder, `likely` when it names it through a placeholder it explains
    (`go to X/build_opencv where X is the image's folder`) and no folder of the project it may be
    holds one. A placeholder it does not explain is not read."""
    top = project_top(directory, project)
    bases = bases_above(directory, top)
    may_make = _maker(doc)
    for para in doc.paragraphs:
        folders: list[Path] = []
        sure = True
        entered_at = 0
        for line, text in para.lines:
            go = _GO_TO.search(text)
            if go is not None:
                path = go.group("path")
                part, _, rest = path.partition("/")
                if _PLACEHOLDER_PART.fullmatch(part) and rest:
                    expanded = _expansions(part, rest, text, top)
                    found = [inside(f / rest, top) for f in (expanded[0] if expanded else [])]
                    folders = [f for f in found if f is not None]
                    sure = expanded is not None and expanded[1]
                elif "<" in path or ">" in path:
                    folders = []
                else:
                    moved = _entered(path, None, bases, top, {})
                    folders, sure = ([moved[0]], True) if moved is not None and not moved[1] else ([], True)
                entered_at = line
                continue
            span = _SPAN_BUILD.match(text)
            if not folders or span is None or not _DOCKER_BUILD.search(span.group("command")):
                continue
            paths = build_paths(span.group("command"))
            if paths is None or paths[0] is not None:
                continue
            context = paths[1]
            if not _PLAIN_PATH.fullmatch(context):
                continue
            contexts = [inside(f / context, top) for f in folders]
            if any(c is None or not os.path.isdir(c) or may_make(c) for c in contexts):
                continue
            shown = ", ".join(_shown(c, top) for c in contexts if c is not None)
            yield Diagnostic(
                readme,
                line,
                f"README runs docker build {context} in the folder line {entered_at} enters ({shown}), but "
                f"it holds no Dockerfile: with no -f, docker build reads Dockerfile from the context",
                confidence=CERTAIN if sure else LIKELY,
            )


def _shown(folder: Path, top: Path) -> str:
    """`folder` as a path from the project's top (`docker/`), `./` for the top itself."""
    relative = folder.relative_to(top).as_posix()
    return "./" if relative == "." else f"{relative}/"
