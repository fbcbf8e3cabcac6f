"""What the steps of a README's commands name that is not there: the folder a `cd` enters
(`cd gromacs-5.1.4` next to `gromacs5.1.4/`), the file a `cp` or `copy` copies (`copy example.env .env`
next to `.env.sample`), and, after a `git clone` of this very repository, a path in that clone (read
from the repository's root).

Each needs evidence from the README or the folder itself (a name a slip away, a twin command, a file
the next commands use found without the `cd`): a checkout that holds only some files must stay quiet.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import CD_STEP, build_paths, clone_target
from docgen.audit.grammar import DOCKER_COMPOSE
from docgen.audit.missing import (
    GENERATED,
    PLACEHOLDER,
    SUFFIXES,
    WORD,
    Listings,
    corrected,
    made_names,
    name_key,
)
from docgen.audit.own_repo import owner_name, remote_names, repository_root
from docgen.audit.references import (
    ELSEWHERE,
    FILES_APPEAR,
    RUN_SCRIPT,
    MadeFiles,
    Walk,
    cd_target,
    project_top,
    run_folders,
    until_moved,
)
from docgen.build_scripts import BUILD
from docgen.compose import default_files
from docgen.files import DOCKERFILE, built_dockerfile, real_path
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic

_INSTRUCTION = re.compile(r"[ \t]*(?:RUN|FROM|COPY|ADD|WORKDIR|ENV|ARG|CMD|ENTRYPOINT)[ \t]", re.IGNORECASE)
"""A line of a Dockerfile shown in a block with no language: its commands run in the image, not here."""


def image_lines(doc: Document) -> set[int]:
    """The README lines of command blocks that are Dockerfile instructions (`RUN cd app && cp a b`)."""
    return {n for fence in doc.fences for n, text in fence.lines if _INSTRUCTION.match(text)}


_UNREAD = re.compile(r"[$<>{}*?%\[\]:\\`]|\.\.")
"""A path with a variable, a placeholder, a glob, a drive or a way up: not a name to look for."""


def plain_path(path: str) -> bool:
    """True when `path` is a relative path to look for as written (`gromacs-5.1.4`, `docker/app`)."""
    return (
        bool(path.strip("./"))
        and not path.startswith(("/", "-", "~"))
        and not _UNREAD.search(path)
        and not PLACEHOLDER.search(path)
    )


def _ours(folder: Path, directory: Path, root: Path | None) -> bool:
    """True when `folder` is the README's folder or below it, or in the repository (not a folder far
    above a README that is in no repository)."""
    return folder.is_relative_to(directory.resolve()) or (root is not None and folder.is_relative_to(root))


def _path_words(text: str) -> list[str]:
    """The words of a command that name a relative file (`scripts/run.py`, `setup.cfg`)."""
    found = []
    for word in WORD.findall(text):
        word = word.strip("\"'")
        name = posixpath.basename(word.rstrip("/"))
        suffix = name.rsplit(".", 1)[1].lower() if "." in name else ""
        if plain_path(word) and ("/" in word.strip("/") or suffix in SUFFIXES) and "://" not in word:
            found.append(word.removeprefix("./"))
    return found


def _names_the_repository(target: str, text: str, root: Path | None, directory: Path) -> bool:
    """True when a `cd` target may be the repository's own folder, where the reader cloned it: its last
    folder has the repository's name (`cd Developer/src/personal/app` for the repository `app`). The
    name is the checkout folder's (`app`), a remote's (`.git/config`), the
    last part of an address in the README (the clone's folder), or the README's title (`# app`)."""
    parts = [p for p in target.split("/") if p not in ("", ".")]
    if not parts:
        return False
    name = name_key(parts[-1])
    top = root or directory.resolve()
    folder = name_key(top.name)
    own = {folder, *(name_key(n.rsplit("/", 1)[-1]) for n in remote_names(root))}
    title = re.search(r"^#[ \t]+`?([\w.-]+)`?[ \t]*$", text, re.MULTILINE)
    if title is not None:
        own.add(name_key(title.group(1)))
    # (a path of several folders names itself: only an address's last part is the clone's folder)
    address = "/" if len(parts) == 1 else r"(?:://|@)[\w.-]+[/:](?:[\w.-]+/)*"
    return name in own or bool(
        re.search(rf"{address}{re.escape(parts[-1])}(?:\.git)?(?![\w-]|\.\w)", text, re.IGNORECASE)
    )


def missing_folders(
    doc: Document,
    text: str,
    directory: Path,
    audited: Sequence[str],
    readme: str,
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A `cd DIR` of a command block (read top to bottom as the reader runs them) into a folder that does
    not exist where it runs, while a folder a slip away does (`gromacs5.1.4/` for `cd gromacs-5.1.4`),
    or a file the next commands of its block use is found without the `cd` (`scripts/run.py` at the
    root after `cd services/api`: a path of two folders or more; one folder may be the repository's
    own under another name). Not after a command that makes files appear (`git clone`, `tar`,
    `make`), nor for a folder a command of the README makes (`mkdir`, a clone's), a generated one
    (`build/`), a variable, a placeholder or an absolute path. A clone of this very repository
    (`_cloned_here`) that the next step enters is its root, and reading goes on; after a folder a slip
    away the reader is taken to be in the one they meant, and reading goes on too."""
    top = project_top(directory, project)
    walk = Walk(run_folders(directory, audited, top), top)
    cloned = own_clones(doc, directory)
    found: list[Diagnostic] = []

    def recover(line: int, step: str, fence: Fence) -> list[Path] | None:
        finding, meant = _lost_cd(doc, text, directory, walk.folders, line, step, fence, readme)
        found.extend([finding] if finding is not None else [])
        return meant

    walk.recover = recover
    for line, step in walk.steps(doc.fences, joined=False):
        clone = cloned(line, step)
        if clone is not None:
            walk.aliases[clone[0]] = [clone[1]]
            continue
        if FILES_APPEAR.search(step):
            break
        if ELSEWHERE.search(step):
            walk.skip_block()
    yield from found


def _cloned_here(
    doc: Document,
    line: int,
    step: str,
    home: Path,
    remotes: set[str],
    blocks: tuple[dict[int, int], dict[str, int]],
) -> str | None:
    """The folder a `git clone` `step` on README `line` makes when it clones this very repository (whose
    root is `home`): `own_clone` tells so, or the next step of its block enters that folder (`cd app`,
    `cd $PWD/app`) and a command after it names a file found at `home` (`chmod +x deploy.sh`). A clone
    that ends its block is followed into the later blocks that start by entering its folder (`cd app`
    then `docker build .`, `cd app` then `./build.sh`): one of them names such a file. `blocks` is
    `_blocks` of the README (read once for all its clones: `own_clones`)."""
    clone = CLONE.search(step)
    if clone is None:
        return None
    words = clone.group(1).split()
    own = own_clone(words, home, remotes)
    if own is not None:
        return own
    operands = [w for w in words if not w.startswith("-")]
    if not operands or "://" not in operands[0] and "@" not in operands[0]:
        return None
    url = operands[0]
    folder = operands[1] if len(operands) > 1 else posixpath.basename(url.rstrip("/")).removesuffix(".git")
    block_of, last_entering = blocks
    at = block_of.get(line)
    if at is None or not plain_path(folder) or "/" in folder.strip("/"):
        return None
    folder = folder.strip("/")
    steps = _steps_below(doc.fences[at], line)
    first = next(steps, None)
    if first is not None:  # `git clone … && cd app && ./run.sh`
        if cd_target(first) != folder:
            return None
        return folder if _names_file(_until_a_move(steps), home) else None
    # the clone ends its block: a later block that starts by entering the folder
    return folder if last_entering.get(folder, -1) > at else None


def _names_file(steps: list[str], home: Path, folder: bool = False) -> bool:
    """True when `steps` (until one leaves the folder) name a file found at `home` (with `folder`, by a
    path with a folder: `docker/build.sh`)."""
    words = _path_words(until_moved("\n".join(steps)))
    return any(os.path.isfile(home / w) for w in words if not folder or "/" in w.strip("/"))


def _blocks(doc: Document, home: Path) -> tuple[dict[int, int], dict[str, int]]:
    """For `_cloned_here`, read once a README (each clone would otherwise read every block below it): the
    command block of each README line, and for each folder the last block that starts by entering it
    (`cd app`) and then names a file found at `home` (a block holding only that `cd`: in the block after
    it, by a path with a folder)."""
    block_of: dict[int, int] = {}
    last: dict[str, int] = {}
    for index, fence in enumerate(doc.fences):
        for number, _ in fence.lines:
            block_of.setdefault(number, index)
        rest = block_steps(fence)
        entered = cd_target(rest[0]) if rest else None
        if entered is not None and len(rest) == 1 and index + 1 < len(doc.fences):
            # a block that only enters the folder (`cd app`): the next block's commands run there, and
            # one naming a file of `home` by a path with a folder (`bash docker/build.sh`; a bare
            # `./build.sh` may be any repository's) tells the clone is this repository
            after = block_steps(doc.fences[index + 1])
            if after and cd_target(after[0]) is None and _names_file(after, home, folder=True):
                last[entered] = index
        elif entered is not None and _names_file(rest[1:], home):
            last[entered] = index
    return block_of, last


def block_steps(fence: Fence, after: int = 0) -> list[str]:
    """The steps (`&&`, `;`) of the lines of a command block below README line `after`, comments left out."""
    return list(_steps_below(fence, after))


def _steps_below(fence: Fence, after: int) -> Iterator[str]:
    """`block_steps`, read as they are asked for: a clone needs its next step, and the ones after it
    only when that step enters its folder (a block of thousands of clones read the rest of the block
    for each: `cd-after-clones` in benchmarks/bench_shapes.py); the lines at or above `after` are
    skipped by a binary search of the block's lines (README order), not read."""
    start = bisect.bisect_right(fence.lines, after, key=lambda numbered: numbered[0])
    for number, text in fence.lines[start:]:
        if number <= after:
            continue
        for piece in re.split(r"&&|;", text.split(" #", 1)[0].strip()):
            if piece.strip():
                yield piece.strip()


def _until_a_move(steps: Iterator[str]) -> list[str]:
    """`steps` up to the first one holding a `cd` or a command that may run elsewhere (`until_moved`
    stops there): those after it are never read."""
    kept = []
    for step in steps:
        kept.append(step)
        if any(CD_STEP.match(p) or ELSEWHERE.search(p) for p in re.split(r"&&|\|\||;|\n", step)):
            break
    return kept


def own_clones(doc: Document, directory: Path) -> Callable[[int, str], tuple[str, Path] | None]:
    """For a README in `directory`: a function telling, of a step on a README line, the folder it makes
    and the repository's root when it is a clone of this very repository (`_cloned_here`), else None."""
    root = repository_root(directory)
    home = root or directory.resolve()
    remotes = remote_names(root) or said_remotes(doc, home)
    blocks: list[tuple[dict[int, int], dict[str, int]]] = []  # `_blocks`, read at the first clone
    told: dict[tuple[int, str], tuple[str, Path] | None] = {}  # (rules ask again of the same step)

    def own(line: int, step: str) -> tuple[str, Path] | None:
        if CLONE.search(step) is None:
            return None
        key = (line, step)
        if key not in told:
            if not blocks:
                blocks.append(_blocks(doc, home))
            folder = _cloned_here(doc, line, step, home, remotes, blocks[0])
            told[key] = (folder, home) if folder is not None else None
        return told[key]

    return own


_COMPOSE_NO_FILE = re.compile(DOCKER_COMPOSE.pattern + r"(?![^\n]*(?:^|[ \t])(?:-f|--file)(?:[ \t=]|$))")
"""A compose command that reads the default compose file of the folder it runs in (no `-f`): after a
clone that `built_clones` would read as the README's own folder (`git clone …`, `cd app`, `docker build
.`, `docker-compose up -d`), a README's folder with no compose file is not the clone's root (a README in
`docker/` of a repository whose compose file and Dockerfile are at its root), and the build reads
another Dockerfile than the one beside the README."""


_COMPOSE_BUILD = re.compile(
    DOCKER_COMPOSE.pattern + r"(?:[ \t]+--?[\w-]+(?:[ \t]+[^\s-]\S*)?)*?[ \t]+(?:up|build|run|create)\b"
)
"""A compose command that builds (`docker compose up --build`, `docker-compose build`)."""
_COMPOSE_FILE_FLAG = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t=]|$)")


def built_clones(
    doc: Document,
    directory: Path,
    own_clone: Callable[[int, str], tuple[str, Path] | None] | None = None,
    only_built: bool = False,
) -> Callable[[int, str], tuple[str, Path] | None]:
    """`own_clones`, and a clone that the README then enters and builds (`git clone …/app.git`, `cd
    app`, `docker build .`) while the README's folder holds that Dockerfile, or then runs a compose
    command that builds (`docker compose up --build`, no `-f`) while the README's folder holds a default
    compose file: the README builds its own checkout, unless a compose command (no `-f`) follows in the
    clone while the README's folder has no compose file (`_COMPOSE_NO_FILE`). The `cd` may be joined to
    the clone by the backslash closing the clone's line (then `cd app` on the next: one command to the
    shell, the reader's meaning plain), comment lines may come between, and the build may be the first
    command of the next command block when the clone's block ends with the `cd`, the `cd` and the build
    those of the blocks after it when it ends with the clone (`git clone …`; `cd app`; `docker build -t
    app .`). With
    `only_built`, only such a clone (not every clone `own_clones` tells: one of an upstream whose checkout
    may differ from the README's, `git clone …/upstream` then `docker build -f docker/Dockerfile .`)."""
    own = own_clone or own_clones(doc, directory)
    home = directory.resolve()
    places: dict[int, tuple[int, int]] = {}  # README line → (its block, its place there), made once
    blocks: dict[int, tuple[list[str], list[int], list[bool]]] = {}  # block → `_block_steps`, once

    def place(line: int) -> tuple[int, int] | None:
        if not places:
            for at, fence in enumerate(doc.fences):
                for index, (number, _) in enumerate(fence.lines):
                    places.setdefault(number, (at, index))
        return places.get(line)

    def steps_of(at: int) -> tuple[list[str], list[int], list[bool]]:
        if at not in blocks:
            blocks[at] = _block_steps(doc.fences[at])
        return blocks[at]

    def cloned(line: int, step: str) -> tuple[str, Path] | None:
        found = None if only_built else own(line, step)
        clone = CLONE.search(step)
        if found is not None or clone is None:
            return found
        words = [w for w in clone.group(1).split() if not w.startswith("-")]
        joined = len(words) == 3 and words[1] == "cd"  # `git clone URL` + backslash + `cd app`
        if not (len(words) == 1 or joined) or "://" not in words[0] and "@" not in words[0]:
            return None
        folder = posixpath.basename(words[0].rstrip("/")).removesuffix(".git")
        where = place(line)
        if where is None or not folder or joined and words[2].strip("/") != folder:
            return None
        at, index = where
        lines = doc.fences[at].lines
        while index < len(lines) - 1 and lines[index][1].rstrip().endswith("\\"):
            index += 1  # (the lines the clone command goes on to)
        steps, starts, compose_after = steps_of(at)
        later = [f"cd {folder}"] if joined else []
        first = starts[index + 1]  # (the steps of the lines after the clone: two read, the rest told)
        later += steps[first : first + 2 - len(later)]
        rest = min(first + 2 - (1 if joined else 0), len(steps))
        following = at + 1  # the clone ends its block: the `cd` and the build in the blocks after it
        while len(later) < 2 and following < min(at + 3, len(doc.fences)):
            later += block_steps(doc.fences[following])[: 2 - len(later)]
            following += 1
        if len(later) < 2 or cd_target(later[0]) != folder:
            return None
        if _COMPOSE_BUILD.search(later[1]) and not _COMPOSE_FILE_FLAG.search(later[1]):
            return (folder, home) if default_files(home) else None  # (its own compose file)
        if not BUILD.search(later[1]):
            return None
        if compose_after[rest] and not default_files(home):
            return None  # the clone's root has a compose file the README's folder lacks: it is another
        paths = build_paths(later[1])
        if (
            paths is None
            or paths[1] != "."
            or not os.path.isfile(built_dockerfile(home / (paths[0] or DOCKERFILE)))
        ):
            return None
        return folder, home

    return cloned


def _block_steps(fence: Fence) -> tuple[list[str], list[int], list[bool]]:
    """The steps of `fence`'s lines (split at `&&` and `;`; comment lines left out: `# Build and
    start`), the index in them of the first step of each line (and their count, last), and for each
    index whether a step from it on is a compose command without `-f` (`_COMPOSE_NO_FILE`): what
    `cloned` reads after each clone of the block, made once a block."""
    steps: list[str] = []
    starts: list[int] = []
    for _, text in fence.lines:
        starts.append(len(steps))
        if not text.lstrip().startswith("#"):
            steps += [part.strip() for part in re.split(r"&&|;", text) if part.strip()]
    starts.append(len(steps))
    compose_after = [False] * (len(steps) + 1)
    for index in range(len(steps) - 1, -1, -1):
        compose_after[index] = compose_after[index + 1] or bool(_COMPOSE_NO_FILE.search(steps[index]))
    return steps, starts, compose_after


def _lost_cd(
    doc: Document,
    text: str,
    directory: Path,
    folders: list[Path],
    line: int,
    step: str,
    fence: Fence,
    readme: str,
) -> tuple[Diagnostic | None, list[Path] | None]:
    """The finding (if any) on a `cd` `step` on README `line` that cannot be followed from `folders`
    (see `missing_folders`), and the folders the reader is in after it when a folder a slip away is
    the one they meant (the folders before it too: the failed `cd` left them there)."""
    if line in image_lines(doc):
        return None, None
    cd = CD_STEP.match(step)
    target = (cd.group(1) or "").strip("\"'") if cd else ""
    if not plain_path(target):
        return None, None
    parts = [p for p in target.split("/") if p not in ("", ".")]
    if any(p in GENERATED or p in made_names(doc) for p in parts):
        return None, None
    if any(os.path.exists(folder / target) for folder in [directory, *directory.resolve().parents]):
        return None, None
    root = repository_root(directory)
    ours = [f for f in folders if _ours(f, directory, root)]
    rest = _after(fence, line, step)
    if _names_the_repository(target, text, root, directory):
        return None, None
    listings = Listings()
    near = [
        (f, fixed) for f in ours if (fixed := corrected(f, target, listings)) and os.path.isdir(f / fixed)
    ]
    runs = bool(BUILD.search(rest) or RUN_SCRIPT.search(rest) or re.search(r"\bpython", rest))
    if near:
        finding = Diagnostic(
            readme,
            line,
            f"README cds into {target}, which does not exist (did you mean {near[0][1]}?)",
            confidence=CERTAIN if runs or near[0][1].lower() == target.strip("/").lower() else LIKELY,
        )
        return finding, list(dict.fromkeys([*folders, *(real_path(f / fixed) for f, fixed in near)]))
    if "/" not in target.strip("/"):  # one folder: maybe the repository's own under another name
        return None, None
    here = [w for w in _path_words(rest) if any(os.path.isfile(f / w) for f in ours)]
    if here:
        finding = Diagnostic(
            readme,
            line,
            f"README cds into {target}, which does not exist; {here[0]}, which the commands after it "
            "use, is where the block starts",
            confidence=CERTAIN,
        )
        return finding, None
    return None, None


def _after(fence: Fence, line: int, step: str) -> str:
    """The commands of `fence` after the `cd` `step` on README `line`, to the next `cd` or to a command
    that may run elsewhere (`docker run -it`)."""
    lines = [(n, t.split(" #", 1)[0]) for n, t in fence.lines if n >= line]
    text = "\n".join(t for _, t in lines if not t.lstrip().startswith("#"))
    return until_moved(text.split(step, 1)[1] if step in text else text)


_COPY = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+|PS[^>]*>[ \t]*)?(?:sudo[ \t]+)?"
    r"(?:gsutil[ \t]+(?:-m[ \t]+)?|gcloud[ \t]+storage[ \t]+|aws[ \t]+s3[ \t]+|azcopy[ \t]+)?"
    r"(cp|copy|Copy-Item)[ \t]+([^;&|\n]+)",
    re.IGNORECASE,
)
"""A copy command (`cp a b`, Windows' `copy a b`, PowerShell's `Copy-Item a b`, a cloud storage
client's `gsutil cp a gs://b`) and its operands."""


def copy_operands(command: str, args: str) -> tuple[list[str], str] | None:
    """(sources, destination) of a copy command's operands; None when they cannot be told apart."""
    words = [w.strip("\"'") for w in args.split()]
    sources: list[str] = []
    destination = None
    plain: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        lower = word.lower()
        if command.lower() == "copy-item" and lower in ("-path", "-literalpath", "-destination"):
            if index + 1 < len(words):
                (sources.append if lower != "-destination" else plain.append)(words[index + 1])
                destination = words[index + 1] if lower == "-destination" else destination
            index += 2
            continue
        if lower in ("-t", "--target-directory") or lower.startswith("--target-directory="):
            return None
        if not word.startswith("-") and not (command.lower() == "copy" and word.startswith("/")):
            plain.append(word)
        index += 1
    if destination is None:
        if len(plain) < 2:
            return None
        return [*sources, *plain[:-1]], plain[-1]
    return [*sources, *(p for p in plain if p != destination)], destination


def _copies(
    doc: Document, directory: Path, audited: Sequence[str], top: Path
) -> list[tuple[int, str, str, list[Path]]]:
    """(README line, source, destination, folders it is read from) of each copy the README tells to run:
    in inline code in the prose (read from the README's folder and the repository's root), and in the
    command blocks, read where they run."""
    root = repository_root(directory)
    found: list[tuple[int, str, str, list[Path]]] = []
    home = [directory.resolve(), *([root] if root is not None and root != directory.resolve() else [])]
    for para in doc.paragraphs:
        for number, text in para.lines:
            for _, _, code in code_spans(text):
                for match in _COPY.finditer(code.strip()):
                    operands = copy_operands(match.group(1), match.group(2))
                    if operands:
                        found += [(number, s, operands[1], home) for s in operands[0]]
    walk = Walk(run_folders(directory, audited, top), top)
    image = image_lines(doc)
    cloned = own_clones(doc, directory)
    for number, step in walk.steps(doc.fences, joined=True):
        clone = cloned(number, step)
        if clone is not None:
            walk.aliases[clone[0]] = [clone[1]]
            continue
        if FILES_APPEAR.search(step):
            break
        if number in image:
            continue
        for match in _COPY.finditer(step):
            operands = copy_operands(match.group(1), match.group(2))
            if operands:
                folders = [f for f in walk.folders if _ours(f, directory, root)]
                found += [(number, s, operands[1], folders) for s in operands[0]]
        if ELSEWHERE.search(step):
            walk.skip_block()
    return found


def missing_copies(
    doc: Document,
    source: Sequence[str],
    directory: Path,
    audited: Sequence[str],
    readme: str,
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """The source of a copy the README tells to run (`cp .env.sample .env`, `copy example.env .env`,
    `Copy-Item`), a relative file, that does not exist where it runs, while the README copies an
    existing file to the same destination (the same step for another shell) or a file a slip away
    exists: `README copies example.env, which does not exist (did you mean .env.sample?)`. Not for a
    file a README line above makes or tells to make, a variable, a glob, a placeholder or an absolute
    path; a copy with no such evidence may be of a file the checkout does not hold."""
    top = project_top(directory, project)
    copies = _copies(doc, directory, audited, top)
    existing = {
        posixpath.basename(d.rstrip("/")): s
        for _, s, d, folders in copies
        if plain_path(s) and any(os.path.isfile(f / s) for f in folders)
    }
    listings = Listings()
    made = MadeFiles(source)
    seen: set[tuple[int, str]] = set()
    for line, src, destination, folders in copies:
        if not plain_path(src) or not folders or (line, src) in seen:
            continue
        if any(os.path.exists(f / src) for f in folders) or made.before(src, line):
            continue
        if any(p in GENERATED for p in src.split("/")):
            continue
        twin = existing.get(posixpath.basename(destination.rstrip("/")))
        fixed = next((c for f in folders if (c := corrected(f, src, listings))), None)
        meant = fixed or twin
        if meant is None:
            continue
        seen.add((line, src))
        yield Diagnostic(
            readme,
            line,
            f"README copies {src}, which does not exist (did you mean {meant}?)",
            confidence=CERTAIN,
        )


CLONE = re.compile(r"\bgit[ \t]+clone[ \t]+(.+)")


_BRANCH = re.compile(r"-b|--branch(?:=|\Z)")
"""A `git clone` option that checks out another branch than the default (`-b v2`, `--branch=v2`)."""


def own_clone(words: Sequence[str], root: Path, remotes: set[str]) -> str | None:
    """The folder a `git clone` (its words after `clone`) makes when it clones this repository: its address
    names a remote of the checkout, or its folder has the checkout's name (`name`, `name-main`)."""
    target = clone_target(words)
    if target is None or not plain_path(target[0]) or any(_BRANCH.match(w) for w in words):
        return None  # (a branch of its own, `-b v2`: its files are not this checkout's)
    folder, url = target
    named = owner_name(url)
    own = name_key(root.name) in {name_key(folder), name_key(folder) + "_main", name_key(folder) + "_master"}
    return folder if own or (named is not None and named in remotes) else None


_BADGE = re.compile(
    r"img\.shields\.io/(github|docker)/[\w-]+/([\w.-]+)/([\w.-]+)"
    r"|github\.com/([\w.-]+)/([\w.-]+)/(?:actions/)?workflows/[^\s)]*badge\.svg",
    re.IGNORECASE,
)
"""A badge naming the project's repository (`img.shields.io/github/stars/OWNER/NAME`, a workflow's
`badge.svg`) or the image it publishes (`img.shields.io/docker/v/OWNER/NAME`)."""
_COMMON_FILES = re.compile(
    r"(?i)(?:readme|license|licence|changelog|requirements[\w-]*|setup|pyproject|makefile|dockerfile"
    r"|docker-compose|compose|package|environment|cmakelists|cargo|go|\.env|\.gitignore|\.dockerignore)"
    r"(?:\.\w+)*\Z"
)
"""File names any repository may hold: a clone naming one tells nothing of which repository it is."""


def said_remotes(doc: Document, home: Path) -> set[str]:
    """`owner/name` of each `git clone` of the README that the README itself tells is of this very
    repository, for a copy with no `.git` to tell (a downloaded archive): a badge names the same
    repository (`img.shields.io/github/…/OWNER/NAME`), or a Docker Hub badge an image of the clone's name
    (the image the project publishes), or the paths of the clone's folder its later commands name are
    files at `home` (not names any repository has: `README.md`, `requirements.txt`) at least as often
    as they are not there."""
    badged: set[str] = set()
    images: set[str] = set()
    for _, target in doc.destinations:
        for found in _BADGE.finditer(target):
            if found.group(1) and found.group(1).lower() == "docker":
                images.add(name_key(found.group(3)))
            elif found.group(1):
                badged.add(f"{found.group(2)}/{found.group(3)}".lower())
            else:
                badged.add(f"{found.group(4)}/{found.group(5)}".lower())
    said: set[str] = set()
    paths: _ClonePaths | None = None
    for fence in doc.fences:
        for line, text in fence.lines:
            clone = CLONE.search(text.split(" #", 1)[0])
            if clone is None:
                continue
            operands = [w for w in clone.group(1).split() if not w.startswith("-")]
            if not operands or (named := owner_name(operands[0])) is None:
                continue
            folder = (
                operands[1] if len(operands) > 1 else posixpath.basename(operands[0].rstrip("/"))
            ).removesuffix(".git")
            if not plain_path(folder) or "/" in folder.strip("/"):
                continue
            folder = folder.strip("/")
            if named in badged or name_key(named.split("/")[1]) in images:
                said.add(named)
            elif _titled(doc, named) and _entered_runs_home(doc, fence, line, folder, home):
                said.add(named)
            else:
                paths = _ClonePaths(doc.fences, home) if paths is None else paths
                if paths.clone_files(line, folder):
                    said.add(named)
    return said


def _titled(doc: Document, named: str) -> bool:
    """True when the README's first heading is the name of repository `named` (`owner/name`), its
    separators and case aside (`# ros2_humble_docker_container`, `# Ros2 Humble Docker Container`)."""
    if not doc.headings:
        return False
    title = re.sub(r"[^a-z0-9]", "", doc.headings[0][1].lower())
    return bool(title) and title == re.sub(r"[^a-z0-9]", "", named.split("/")[1].lower())


def _entered_runs_home(doc: Document, fence: Fence, line: int, folder: str, home: Path) -> bool:
    """True when the step after the clone on README `line` enters its `folder` (`cd app`) and the steps
    after it (those of the next command block when the `cd` ends its own) name a file found at `home`
    that not every repository has (`. initial_build_run_container.sh`, not `./run.sh`, `Dockerfile`)."""
    steps = _steps_below(fence, line)
    if cd_target(next(steps, "")) != folder:
        return False
    rest = _until_a_move(steps)
    if not rest:
        at = doc.fences.index(fence)
        rest = _until_a_move(iter(block_steps(doc.fences[at + 1]))) if at + 1 < len(doc.fences) else []
    words = _path_words(until_moved("\n".join(rest)))
    return any(
        not _COMMON_FILES.match(posixpath.basename(w)) and posixpath.basename(w) not in _BARE_COMMON
        for w in words
        if os.path.isfile(home / w)
    )


_BARE_COMMON = frozenset("run.sh build.sh start.sh main.py app.py setup.sh install.sh test.sh".split())
"""Script names many repositories hold: one of them found at the checkout's root tells nothing."""


class _ClonePaths:
    """The paths the README's commands name under a folder (`app/run.sh` under `app`), each read once:
    for each folder, the README lines that name one and whether it is a file at `home` (not
    `_COMMON_FILES`) or not there at all, with the counts from each line on (`clone_files` of many clones
    is then a look-up, not a read of the commands after each)."""

    def __init__(self, fences: Sequence[Fence], home: Path) -> None:
        named: dict[str, list[tuple[int, int, int]]] = {}
        for fence in fences:
            for line, text in fence.lines:
                for word in WORD.findall(text.split(" #", 1)[0]):
                    word = word.strip("\"'")
                    folder, slash, inner = word.partition("/")
                    inner = inner.strip("/")
                    if not slash or not inner or not plain_path(word):
                        continue
                    if os.path.isfile(home / inner):
                        named.setdefault(folder, []).append(
                            (line, int(not _COMMON_FILES.match(posixpath.basename(inner))), 0)
                        )
                    elif not os.path.exists(home / inner):
                        named.setdefault(folder, []).append((line, 0, 1))
        self._lines: dict[str, list[int]] = {}
        self._after: dict[str, list[tuple[int, int]]] = {}  # (found, missing) from each entry on
        for folder, entries in named.items():
            totals = [(0, 0)]
            for _, found, missing in reversed(entries):
                totals.append((totals[-1][0] + found, totals[-1][1] + missing))
            self._lines[folder] = [line for line, _, _ in entries]
            self._after[folder] = totals[::-1]

    def clone_files(self, after: int, folder: str) -> bool:
        """True when the paths in `folder` that the commands after README line `after` name are files
        at `home` at least as often as they are not there, and one is."""
        lines = self._lines.get(folder)
        if lines is None:
            return False
        found, missing = self._after[folder][bisect.bisect_right(lines, after)]
        return found > 0 and found >= missing


_RUN_WORD = re.compile(r"(?:^|&&|\|\||;)[ \t]*(?:sudo[ \t]+)?(?:(?:ba)?sh[ \t]+|python3?[ \t]+)?([^\s;&|]+)")
"""The word a step of a command line runs (`app/run.sh`, `bash app/run.sh`, `python3 app/x.py`)."""
_SCRIPT_NAME = re.compile(r"\.(?:sh|bash|py)\Z")


def clone_paths(doc: Document, directory: Path, readme: str) -> Iterator[Diagnostic]:
    """After a `git clone` of this very repository (`own_clone`), a path of a later command of the
    block in the clone's folder (`app/build-docker.py` after cloning `app`) is a path from the
    repository's root: one that does not exist there while a path a slip away does is a finding."""
    root = repository_root(directory) or directory.resolve()
    remotes = remote_names(repository_root(directory)) or said_remotes(doc, root)
    listings = Listings()
    folder = None  # (a later block names the clone's paths too: `app/run.sh`)
    for fence in doc.fences:
        for line, text in fence.lines:
            code = text.split(" #", 1)[0]
            if folder is not None:
                runs = {m.group(1) for m in _RUN_WORD.finditer(code)}
                for word in WORD.findall(code):
                    word = word.strip("\"'")
                    if not word.startswith(folder + "/") or not plain_path(word):
                        continue
                    inner = word[len(folder) + 1 :]
                    if not inner or os.path.exists(root / inner):
                        continue
                    fixed = corrected(root, inner, listings)
                    if fixed is None:
                        if word in runs and "/" not in inner.strip("/") and _SCRIPT_NAME.search(inner):
                            yield Diagnostic(
                                readme,
                                line,
                                f"README runs {word}, a script in this repository's clone, which does "
                                f"not exist (no {inner} at the repository's root)",
                                confidence=CERTAIN,
                            )
                        continue
                    yield Diagnostic(
                        readme,
                        line,
                        f"README names {word}, a path in this repository's clone, which does not exist "
                        f"(did you mean {folder}/{fixed}?)",
                        confidence=CERTAIN,
                    )
            clone = CLONE.search(code)
            if clone is not None:
                folder = own_clone(clone.group(1).split(), root, remotes)
