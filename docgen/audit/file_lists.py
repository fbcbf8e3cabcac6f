"""A list (or a table: `| File | Contents |`) of the files of the README's folder (`## Files`,
`## Project structure`, `This directory contains:`) naming a file that is not there, while most of its
other files are: the list was written for another folder, or the file moved (`docker-compose.yml`
listed in `config/` while it is at the repository root).

A list of files to create, or that a build writes, has most of its files missing, and says nothing:
the rule needs at least `_EXISTING` listed files present and twice as many present as missing.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.missing import (
    GENERATED,
    PLACEHOLDER,
    gitignore_patterns,
    ignored,
    made_names,
)
from docgen.audit.own_repo import repository_root
from docgen.audit.references import copied_sources, inside
from docgen.markdown import Document, Fence, Table, lists, plain
from docgen.model import Diagnostic, ImageModel

_ABOUT_FILES = re.compile(
    r"\b(?:files?|structure|layout|contents|directory|folder|tree|what'?s[ \t]+(?:here|inside))\b", re.I
)
"""A heading or an introduction that says a list is of files (`## Files`, `## Project structure`)."""
_HERE = re.compile(
    r"\b(?:this|current)[ \t]+(?:directory|folder|dir)\b|\bfiles?[ \t]+(?:here|in[ \t]+here)\b", re.I
)
"""Words that say the files are the README's folder's (`This directory contains`)."""
_ELSEWHERE = re.compile(
    r"\b(?:will|would|should|must|to[ \t]+be|generated|created|produced|output|written|after|once|planned"
    r"|todo|future|example|creat(?:e|ing)|prepar(?:e|ing)|arrange|set[ \t]+up)\b",
    re.I,
)
"""Words that say a list is of files to come (`files the build generates`), not of the folder as it is."""
_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*|__)?`?(?:\./)?([\w.][\w.+/-]*)`?(?:\*\*|__)?"
    r"(?:[ \t]*(?::|-|–|—|\(|$)|[ \t]+[-–—:])"
)
"""A list item that starts with a file's name (`- `compose.yaml` - …`, `- **build.sh**: …`)."""
_TOLD = re.compile(
    r"\b(?:creat|generat|download|fetch|get|obtain|provid|add|put|plac|cop(?:y|ie)|writ|mak|bring|suppl)\w*"
    r"|\b(?:your|own|optional|not[ \t]+(?:included|committed|tracked))\b",
    re.I,
)
"""Words of a list item saying the reader brings the file (`requirements.txt`: create it with …, your
own `keys.json`, not committed): its COPY is the reader's to satisfy."""
_EXISTING = 3
"""Listed files that must exist for a list to be taken as the folder's."""
_GENERATED_NAME = re.compile(r"\.(?:log|out|tmp|pid|sqlite|db)\Z|\A\.env\Z|\A(?:output|outputs|results?)/?\Z")
"""Files a run writes or a reader creates (`app.log`, `.env`): a listed one may not be committed."""


def _file_like(name: str) -> bool:
    """True when `name` looks like a file or folder of the repository (`compose.yaml`, `Dockerfile.gpu`,
    `.dockerignore`, `scripts/`), not a word (`Usage`, `Note`)."""
    base = name.rstrip("/").rsplit("/", 1)[-1]
    return bool(base) and (
        name.endswith("/")
        or base.startswith(".")
        or "." in base.strip(".")
        or base.startswith(("Dockerfile", "Makefile", "LICENSE", "README"))
    )


def listed_absent(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel] = ()
) -> Iterator[Diagnostic]:
    """A file (in code or bold, or plain with a suffix) at the start of an item of a list whose heading
    or introduction says it is of files (`## Files`, `project structure`, `This directory contains`),
    that does not exist in the README's folder while at least `_EXISTING` of the list's files do, twice
    as many as are missing: `certain` when the README says the files are this folder's (`this
    directory`), else `likely`; the finding says where a file of that name is (the folder above, the
    repository root). Not a list of files to come (`generated`, `will`), a file the README's commands
    make or git ignores, nor one a run writes (`*.log`, `.env`).

    In a git checkout (a `.git` at or above the README's folder), a listed file with no folder that an
    audited Dockerfile beside the README copies (`COPY requirements.txt ./`) and that is not there is a
    finding whatever the rest of the list holds (`certain`): the build of that Dockerfile stops at the
    COPY, and the checkout holds every file of the project but ignored ones."""
    root = repository_root(directory)
    here = directory.resolve()
    copied = _copied_here(here, models)
    if not (root is not None and os.path.exists(root / ".git")) and not _whole_copy(copied):
        copied = {}
    made = _created(doc)
    patterns = gitignore_patterns([here, *([root] if root is not None else [])], root)
    whole = " ".join(t for p in doc.paragraphs[:2] for _, t in p.lines)
    headings = dict(doc.headings)
    for block in lists(doc):
        about = f"{block.heading} {block.intro}"
        if not _ABOUT_FILES.search(about) or _ELSEWHERE.search(block.intro):
            continue
        named = [
            (line, m.group(1))
            for line, text in block.items
            if (m := _ITEM.match(text)) and _file_like(m.group(1)) and not PLACEHOLDER.search(m.group(1))
        ]
        if len(named) < len(block.items) * 2 / 3:
            continue  # a list of other things, some of them files
        sure = CERTAIN if _HERE.search(about) or _HERE.search(whole) else LIKELY
        told = {line for line, text in block.items if _TOLD.search(text)}
        kept = {
            n: at
            for n, at in copied.items()
            if not any(posixpath.basename(n) in t for line, t in block.items if line in told)
        }
        yield from _absent(named, sure, here, root, made, patterns, readme, kept)
    for table in doc.tables:
        named = _table_files(table)
        if named:
            sure = CERTAIN if _HERE.search(table.context) or _HERE.search(whole) else LIKELY
            yield from _absent(named, sure, here, root, made, patterns, readme, copied)
        yield from _absent_subfolders(table, here, made, patterns, readme)
        yield from _scriptless_folders(table, here, readme)
    for fence in doc.fences:
        if fence.lang not in _TREE_LANGS:
            continue
        drawn = any(_BRANCH.search(t) for _, t in fence.lines)
        redrawn = fence if drawn else _indented_tree(fence)
        if redrawn is None:
            continue
        fence = redrawn  # noqa: PLW2901 (a tree drawn with indentation, redrawn with branches)
        heading = headings.get(fence.section, "")
        intro = _intro(doc, fence)
        about = f"{heading} {intro}"
        # (a tree drawn with indentation alone, one folder name a line, is a layout by its shape)
        if (drawn and not _ABOUT_FILES.search(about)) or _ELSEWHERE.search(intro):
            continue
        base, entries = _tree(fence, here, root)
        if base is None:
            continue
        sure = CERTAIN if _HERE.search(about) or _HERE.search(whole) else LIKELY
        yield from _absent(entries, sure, base, root, made, patterns, readme, copied)
        yield from _absent_packages(fence, entries, base, here, made, patterns, readme)


_INDENTED = re.compile(r"([ \t]*)([\w.][\w.+@-]*(?:/[\w.][\w.+@-]*)*/?)[ \t]*(?:#[^\n]*)?")
"""A line of a tree drawn with indentation alone (`  runtimes/    # adapters`): one name, a comment."""


def _indented_tree(fence: Fence) -> Fence | None:
    """A tree drawn with indentation alone (`src/pkg/`, then `  core/  # types`, one name a line, at
    least `_EXISTING` of them indented below a first line naming a folder) redrawn with branches, so
    that `_tree` reads it; None for any other block (commands, output)."""
    lines = [(n, t) for n, t in fence.lines if t.strip()]
    if len(lines) <= _EXISTING or not lines[0][1].split("#", 1)[0].strip().endswith("/"):
        return None
    matched = [_INDENTED.fullmatch(t) for _, t in lines]
    if any(m is None for m in matched) or matched[0] is None or matched[0].group(1):
        return None
    drawn = [lines[0]]
    for (number, text), match in zip(lines[1:], matched[1:], strict=True):
        if match is None or not match.group(1):
            return None
        indent = len(match.group(1).expandtabs(4))
        drawn.append((number, " " * (indent - 1) + "├── " + text.lstrip()))
    return Fence(fence.lang, drawn, fence.section, fence.inline)


_COMMENT = re.compile(r"#[ \t]*(.+)$")
_DATA_WORDS = re.compile(
    r"\b(?:data|datasets?|weights?|checkpoints?|sav\w*|stor\w*|download\w*|cache\w*|mount\w*|results?"
    r"|logs?|artifacts?|outputs?|temp\w*|tmp|empty|local|ignored|gitignored|yours?|own)\b",
    re.I,
)
"""Words of a tree entry's comment saying its folder holds what a run or the reader puts there."""


def _absent_packages(
    fence: Fence,
    entries: list[tuple[int, str]],
    base: Path,
    here: Path,
    made: set[str],
    patterns: list[tuple[Path, str]],
    readme: str,
) -> Iterator[Diagnostic]:
    """A folder of a tree that the tree describes as code (`reports/  # markdown + html generators`) and
    that is not there, while at least `_EXISTING` folders beside it in the tree are, each holding files,
    and they are about twice as many as the ones beside it missing or empty, this one counted (at least
    2 × missing − 1): the package was never written or was removed (`likely`). Not a folder whose
    comment says it holds data, output or what the reader brings (`# model weights`, `# your own`), one
    with no comment (a folder a run makes), one named so (`data/`, `weights/`), one the README's
    commands make or git ignores."""
    texts = dict(fence.lines)
    folders = [(line, path) for line, path in entries if path.endswith("/")]
    by_parent: dict[str, list[str]] = {}  # the tree's folders by the folder they are in, grouped once
    for _, path in folders:
        by_parent.setdefault(posixpath.dirname(path.rstrip("/")), []).append(path.rstrip("/"))
    present_in: dict[str, list[str]] = {}  # those of a parent holding files, each folder scanned once
    listed: dict[str, Counter[str]] = {}  # how often the tree lists each folder of a parent
    for line, path in folders:
        name = path.rstrip("/")
        if _exists(base, name) or ("/" in name and not os.path.isdir(base / posixpath.dirname(name))):
            continue
        comment = _COMMENT.search(texts.get(line, "").split("──", 1)[-1])
        if comment is None or _DATA_WORDS.search(comment.group(1)) or _ELSEWHERE.search(comment.group(1)):
            continue
        parts = name.split("/")
        if _DATA_WORDS.fullmatch(parts[-1]) or any(p in made or p in GENERATED for p in parts):
            continue  # (`data/`, `weights/`: a folder of what a run or the reader puts there)
        if ignored(base / name, patterns):
            continue
        parent = posixpath.dirname(name)
        if parent not in present_in:
            present_in[parent] = [p for p in by_parent[parent] if holds_files(base / p)]
            listed[parent] = Counter(by_parent[parent])
        present = present_in[parent]  # (not `name`: it does not exist)
        siblings = len(by_parent[parent]) - listed[parent][name]
        if len(present) < _EXISTING or len(present) < 2 * (siblings + 1 - len(present)) - 1:
            continue
        shown = os.path.relpath(base / name, here).replace(os.sep, "/") + "/"
        yield Diagnostic(
            readme,
            line,
            f"README's tree lists {shown} ({comment.group(1).strip()}), a folder that does not exist, while "
            f"{', '.join(p.rsplit('/', 1)[-1] + '/' for p in present[:4])} beside it do",
            confidence=LIKELY,
        )


_FILE_COLUMN = re.compile(r"(?:file|filename|file[ \t]+name|name|path|folder|directory)s?", re.I)
"""The header of a table's first column that names the folder's files (`| File | Contents |`)."""


def _table_files(table: Table) -> list[tuple[int, str]]:
    """(README line, name) of the first cells of a table of the folder's files: its first column is
    headed `File` (`Name`, `Path`), the heading or the lines above say it is of files (`## Directory
    contents`) and not of files to come, and two thirds of its rows name a file (`_file_like`)."""
    if not table.header or not _FILE_COLUMN.fullmatch(plain(table.header[0]).strip("*_` \t")):
        return []
    if not _ABOUT_FILES.search(table.context) or _ELSEWHERE.search(table.context):
        return []
    named = [
        (line, name)
        for line, cells in table.rows
        if cells
        and _file_like(name := plain(cells[0]).strip("*_` \t").removeprefix("./"))
        and re.fullmatch(r"[\w.][\w.+/-]*", name)
        and not PLACEHOLDER.search(name)
    ]
    return named if len(named) >= len(table.rows) * 2 / 3 else []


_FOLDER_COLUMN = re.compile(r"(?:sub)?(?:folder|directory|dir)s?|paths?|locations?", re.I)
"""The header of a table's first column that names folders of the README's (`| Directory | Contents |`)."""
_SUBFOLDER = re.compile(r"(?:[\w][\w.+-]*/)+[\w][\w.+-]*/?")
"""A folder below another, as a table cell names it (`Ubuntu/focal`): no `..`, no absolute path."""
_UNWRITTEN = re.compile(
    r"\b(?:nothing|empty|planned|todo|to[ \t]+do|tbd|coming|soon|not[ \t]+yet|future|wip|deprecated|removed"
    r"|obsolete|dropped|moved)\b",
    re.I,
)
"""Words of a row saying its folder is not there yet or any more (`Nothing so far.`, `planned`)."""


def _absent_subfolders(
    table: Table, here: Path, made: set[str], patterns: list[tuple[Path, str]], readme: str
) -> Iterator[Diagnostic]:
    """A row of a table of folders (its first column headed `Directory`, `Folder`, `Path`) naming a
    folder below another (`Ubuntu/focal`) that is not there, while its parent is a folder of the README's
    and another row names a folder of that parent that is there (`Ubuntu/jammy`): the row was written
    for a flavour never added or since removed (`certain`: a table cell). Not a table of folders to
    come, a row saying its folder is not there yet (`Nothing so far`, `planned`), a name of the README's
    commands or one git ignores."""
    if not table.header or not _FOLDER_COLUMN.fullmatch(plain(table.header[0]).strip("*_` \t")):
        return
    if _ELSEWHERE.search(table.context):
        return
    rows = [
        (line, name.rstrip("/"), " ".join(cells[1:]))
        for line, cells in table.rows
        if cells
        and _SUBFOLDER.fullmatch(name := plain(cells[0]).strip("*_` \t").removeprefix("./"))
        and not PLACEHOLDER.search(name)
    ]
    present: dict[str, list[str]] = {}  # a parent folder → the folders of it rows name that are there
    for _, name, _ in rows:
        parent, child = name.rsplit("/", 1)
        if os.path.isdir(here / name):
            present.setdefault(parent, []).append(child)
    for line, name, said in rows:
        parent, child = name.rsplit("/", 1)
        if (
            parent not in present
            or os.path.lexists(here / name)
            or not os.path.isdir(here / parent)
            or _UNWRITTEN.search(said)
            or any(p in made or p in GENERATED for p in name.split("/"))
            or ignored(here / name, patterns)
        ):
            continue
        there = ", ".join(sorted(present[parent]))
        yield Diagnostic(
            readme,
            line,
            f"README's table lists the folder {name}, which does not exist: {parent}/ holds {there}, "
            f"not {child}",
            confidence=CERTAIN,
        )


_SCRIPTS_SAID = re.compile(
    r"[ \t]*(?:[\w+-]+[ \t]+){0,2}?scripts?\b(?![ \t]+(?:documentation|docs?|guides?|reference|notes)\b)",
    re.I,
)
"""A row's description that opens by saying its folder holds scripts (`Scripts to create a cpu SIF
image`, `Build scripts`, `Helper scripts for CI`)."""
_SCRIPT_SUFFIXES = frozenset(
    ".sh .bash .zsh .ksh .csh .fish .py .pl .rb .r .ps1 .psm1 .bat .cmd .js .mjs .ts .lua .tcl .jl".split()
)
_SCRIPTLESS_LOOK = 200
"""The entries of a folder (and the folders below it, three deep) looked at for a script, at most."""


def _scripts_in(folder: Path) -> tuple[bool, list[str]]:
    """(whether `folder` or one below it, three deep, holds a script: a file with a script's suffix, a
    Makefile or an executable file; the first files it holds, for the message). True when there are too
    many entries to look through."""
    seen: list[str] = []
    looked = 0
    for top, subfolders, names in os.walk(folder):
        depth = len(Path(top).relative_to(folder).parts)
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".")) if depth < 3 else []
        for name in sorted(names):
            looked += 1
            path = os.path.join(top, name)
            if (
                looked > _SCRIPTLESS_LOOK
                or os.path.splitext(name)[1].lower() in _SCRIPT_SUFFIXES
                or name in ("Makefile", "makefile", "GNUmakefile", "justfile", "Justfile")
                or (os.path.isfile(path) and os.access(path, os.X_OK))
            ):
                return True, seen
            seen.append(os.path.relpath(path, folder).replace(os.sep, "/"))
    return False, seen


def _scriptless_folders(table: Table, here: Path, readme: str) -> Iterator[Diagnostic]:
    """A row of a table of folders (as `_absent_subfolders` reads it) whose description opens by saying
    the folder holds scripts (`Ubuntu | Scripts to create a cpu and a cpu+gpu SIF image`) while the
    folder, there in the README's folder, holds none three deep (no `.sh`, `.py` … file, Makefile or
    executable file): the scripts are elsewhere or gone (`likely`: the table may speak loosely). Not a
    folder that is not there (`_absent_subfolders`, and `lost_folders`, tell that), a link or a path out
    of the README's folder, nor an empty one (git keeps no empty folder: a run may fill it)."""
    if not table.header or not _FOLDER_COLUMN.fullmatch(plain(table.header[0]).strip("*_` \t")):
        return
    if _ELSEWHERE.search(table.context):
        return
    for line, cells in table.rows:
        if len(cells) < 2 or not _SCRIPTS_SAID.match(said := plain(cells[1]).strip("*_` \t")):
            continue
        name = plain(cells[0]).strip("*_` \t").removeprefix("./").rstrip("/")
        if not re.fullmatch(r"[\w][\w.+-]*(?:/[\w][\w.+-]*)*", name) or _UNWRITTEN.search(said):
            continue
        folder = here / name
        if os.path.islink(folder) or not os.path.isdir(folder) or inside(folder, here) is None:
            continue
        held, files = _scripts_in(folder)
        if held or not files:
            continue
        shown = ", ".join(files[:_SHOWN_FILES]) + (" …" if len(files) > _SHOWN_FILES else "")
        yield Diagnostic(
            readme,
            line,
            f"README's table says {name} holds scripts ({said}), but {name}/ holds no script: only {shown}",
            confidence=LIKELY,
        )


_SHOWN_FILES = 4
"""The most files of a folder a finding names."""


def holds_files(folder: Path) -> bool:
    """True when `folder` is a folder holding at least one file."""
    try:
        with os.scandir(folder) as listing:
            return any(entry.is_file() for entry in listing)
    except (OSError, ValueError):
        return False


def _absent(
    named: list[tuple[int, str]],
    sure: str,
    here: Path,
    root: Path | None,
    made: set[str],
    patterns: list[tuple[Path, str]],
    readme: str,
    copied: Mapping[str, tuple[str, int]] | None = None,
) -> Iterator[Diagnostic]:
    """The files of `named` (README line, path from `here`) that are not there, when at least
    `_EXISTING` of them are and twice as many as are missing; and whatever the others, each one
    `copied` names (file name → (Dockerfile, COPY line): `_copied_here`)."""
    copied = copied or {}
    present = [n for _, n in named if _exists(here, n)]
    absent = [
        (line, n)
        for line, n in named
        if not _exists(here, n)
        and not n.endswith("/")  # git keeps no empty folder: a data folder may be made at run time
        and not any(p in made or p in GENERATED for p in n.rstrip("/").split("/"))
        and not _GENERATED_NAME.search(n.rstrip("/").rsplit("/", 1)[-1])
        and not ignored(here / n, patterns)
    ]
    few = len(present) < _EXISTING or len(present) < 2 * len(absent)
    listed = {n.rstrip("/") for _, n in named}
    for line, name in absent:
        key = os.path.normpath(here / name)
        if key in copied:
            dockerfile, at = copied[key]
            yield Diagnostic(
                readme,
                line,
                f"README lists {name} among the files of its folder, which does not exist there, "
                f"but {dockerfile} copies it (line {at}): its build stops at that COPY",
                confidence=CERTAIN,
            )
            continue
        if few:
            continue
        yield Diagnostic(
            readme,
            line,
            f"README lists {name} among the files of its folder, which does not exist there"
            + (_elsewhere(name, here, root) or _renumbered(name, here, listed)),
            confidence=sure,
        )


def _copied_here(here: Path, models: Sequence[ImageModel]) -> dict[str, tuple[str, int]]:
    """Each source (`requirements.txt`, `app/requirements.txt`), as a normalised absolute path, that an
    audited Dockerfile in the folder `here` COPYs or ADDs from its context there
    (`references.copied_sources`: no `--from`, glob, variable, URL), with the Dockerfile's name and the
    instruction's line (the first that copies it)."""
    found: dict[str, tuple[str, int]] = {}
    for model in models:
        if not model.file or Path(model.file).resolve().parent != here:
            continue
        read = dockerfile_read(model.file)
        if read is None:
            continue
        for at, path in copied_sources(read[1].instructions):
            if ".." not in path.split("/") and not path.endswith("/"):
                found.setdefault(os.path.normpath(here / path), (Path(model.file).name, at))
    return found


def _whole_copy(copied: Mapping[str, tuple[str, int]]) -> bool:
    """True when, outside a git checkout, a file the Dockerfile copies may be told missing: it is the one
    source of its COPYs not there, and another is (a README copied with part of its folder lacks more)."""
    there = [path for path in copied if os.path.lexists(path)]
    return bool(there) and len(there) == len(copied) - 1


_NUMBER = re.compile(r"\d+")


def _renumbered(name: str, here: Path, listed: set[str]) -> str:
    """` (rocm/ holds rocm57)`: the one entry of the missing file's folder
    that is its name with other numbers (`rocm57` for `rocm37`) and that the list does not name."""
    folder, _, base = name.rstrip("/").rpartition("/")
    shape = _NUMBER.sub("#", base)
    if shape == base:
        return ""
    try:
        entries = sorted(os.listdir(here / folder))
    except OSError:
        return ""
    twins = [e for e in entries if _NUMBER.sub("#", e) == shape and posixpath.join(folder, e) not in listed]
    if len(twins) != 1:
        return ""
    where = f"{folder}/" if folder else "its folder"
    return f" ({where} holds {twins[0]})"


_TREE_LANGS = frozenset({"", "text", "txt", "plain", "plaintext", "tree", "sh", "bash", "console", "shell"})
_BRANCH = re.compile(r"(?:├──|└──|\|--|\+--|`--|\\--|├─|└─)[ \t\u2500-]*")
"""A branch of a tree (`tree` output, or written by hand): `├── `, `└── `, `|-- `, `+-- `."""
_TREE_NAME = re.compile(r"[\w.*?][\w.+@*?-]*(?:/[\w.*?][\w.+@*?-]*)*/?")
"""A tree entry's name: one file or folder (`entrypoint.sh`, `scripts/`), a chain of folders written on
one branch (`src/my_package/`), or a pattern (`k8s-*.yaml`: any file it matches)."""
_TREE_COMMAND = re.compile(r"[ \t]*[$#>][ \t]+tree\b")
"""A tree's first line that is the command printing it (`$ tree -L 2`)."""
_FILLED = frozenset("<{[$%")
"""A character that, right after a name, says the README fills the rest in (`config_<SYSTEM>.sh`)."""
_GLOB = re.compile(r"[*?]")
"""The characters that make a tree entry a pattern (`*.yaml`, `model-?.bin`)."""


def _exists(here: Path, name: str) -> bool:
    """True when `name` (a path from `here`, or a pattern: `k8s-*.yaml`) is there."""
    if _GLOB.search(name):
        try:
            return any(here.glob(name.rstrip("/")))
        except ValueError:  # not a pattern glob reads (`a**b`): nothing to say of it
            return True
    return os.path.exists(here / name)


def _intro(doc: Document, fence: Fence) -> str:
    """The paragraph just before `fence`, under its heading ('' for none)."""
    first = fence.lines[0][0] if fence.lines else 0
    before = [p for p in doc.paragraphs if p.section == fence.section and p.lines[-1][0] < first]
    return " ".join(t for _, t in before[-1].lines) if before else ""


def _root_name(text: str) -> str | None:
    """The name on a line of a tree that starts a top folder of its own (`rocm`, `scripts/  # tools`):
    no branch, not indented, one name and maybe a comment; None for any other line."""
    if not text[:1].strip() or _BRANCH.search(text):
        return None
    name = text.split("#", 1)[0].strip().rstrip("/")
    if not _TREE_NAME.fullmatch(name) or not name.strip("."):
        return None
    return name


def _tree(fence: Fence, here: Path, root: Path | None) -> tuple[Path | None, list[tuple[int, str]]]:
    """The folder a tree of files is of (its first line `.`, the README's folder's name, a subfolder's,
    or the project's name when the README is at the repository root) and its entries (README line,
    path from that folder); (None, []) when the tree is of something else (its first line an absolute
    path: the image's file system). An entry under a folder that is not there is left out (the folder
    is the finding).

    A tree of several top folders of the README's folder (`cuda` with its branches, then `rocm` with
    its own, each name on a line of its own) is read from the README's folder, each top folder an entry
    too; after a first line `.` (or a folder's or the project's name) a second top name starts a tree
    of something else, and reading stops there."""
    lines = [(n, t) for n, t in fence.lines if t.strip()]
    if lines and _TREE_COMMAND.match(lines[0][1]):
        lines = lines[1:]  # `$ tree`: the command, then its output
    if not lines or _BRANCH.search(lines[0][1]):
        return None, []
    top = lines[0][1].strip().split()[0].rstrip("/") if lines[0][1].strip() else ""
    if top.startswith(("/", "~", "${")) or re.match(r"\$\w", top):
        return None, []  # a tree of the image's or the host's file system (`/opt/app`, `~/models`)
    several = (
        top not in (".", "", here.name)
        and os.path.isdir(here / top)
        and any(_root_name(t) is not None for _, t in lines[1:])
    )
    if several or top in (".", "") or top == here.name:
        base = here
    elif os.path.isdir(here / top):
        base = here / top
    elif root is None or here == root:
        base = here
    else:
        return None, []
    entries: list[tuple[int, str]] = []
    stack: list[tuple[int, str]] = []  # (depth, name) of the folders above
    if several:
        entries.append((lines[0][0], top + "/"))
        stack.append((-1, top))
    for number, text in lines[1:]:
        branch = _BRANCH.search(text)
        if branch is None:
            named = _root_name(text)
            if named is None:
                continue
            if not several:
                break  # a second top: the tree of something else
            if os.path.exists(here / named):
                # (a top name not there may be a folder a run or the reader makes: `models`, `output`;
                # the tree's files under it are left out with it)
                entries.append((number, named + ("/" if os.path.isdir(here / named) else "")))
            stack = [(-1, named)]
            continue
        rest = text[branch.end() :]
        name = _TREE_NAME.match(rest)
        if name is None or "…" in text or "..." in rest.split("#")[0]:
            continue
        depth = branch.start()
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if rest[name.end() : name.end() + 1] in _FILLED:
            word = rest.split(None, 1)[0]
            # a name the README fills in (`config_<SYSTEM>.sh`, `{train,val}.jsonl`): no file of its
            # own; a folder of that kind has no files we could look for either
            stack.append((depth, word))
            continue
        path = "/".join([*(n for _, n in stack), name.group().rstrip("/")])
        if all(os.path.isdir(base / "/".join(n for _, n in stack[: i + 1])) for i in range(len(stack))):
            entries.append((number, path + ("/" if name.group().endswith("/") else "")))
        stack.append((depth, name.group().rstrip("/")))
    return base, entries


_CREATES = frozenset("mkdir touch cp mv ln wget curl tar unzip gunzip install tee".split())
"""Commands whose words name files they make (not `docker compose -f x.yml`, which reads one)."""


def _created(doc: Document) -> set[str]:
    """The names (each part of each path) the command blocks of the README create: the words of
    `mkdir`, `cp`, `wget` … lines, what `>` or `-o` writes, and the folder a `git clone` makes."""
    return made_names(doc, _CREATES)


def _elsewhere(name: str, here: Path, root: Path | None) -> str:
    """` (there is one at ../x)`: where a file of that name is, in a folder above up to `root`."""
    for folder in here.parents:
        if root is not None and not folder.is_relative_to(root):
            break
        if os.path.exists(folder / name):
            shown = posixpath.join(os.path.relpath(folder, here), name)
            return f" (there is one at {shown})"
        if root is None or folder == root:
            break
    return ""
