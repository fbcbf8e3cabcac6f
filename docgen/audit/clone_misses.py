"""A file a README takes from its clone of this very repository that the repository does not hold
(`git clone https://github.com/o/md-test.git`, then `cp md-test/input/start.pdb ./input`, while the
repository has no `input/`): the step fails for every reader.

`steps.clone_paths` reads such a path when a path a slip away exists; this rule reads the rest, made
sure of by what the checkout tells of itself:

- the clone is of this very repository: its address names a remote of the checkout (`.git/config`,
  `certain`), or, with no remote, the repository's name is the checkout folder's or the README's title
  (`# MD Test` for `md-test`, `likely`) or the title's first word written as that name (`#
  run-ai-toolkit on RunPod`); a clone of another branch (`-b dev`) is none;
- another path the README names under the clone's folder is a file of this checkout (`md-test/run.py`),
  a name not every tree has (not `README.md`, `setup.py`, `Dockerfile`); not needed when a remote names
  the clone, or the title's first word is the clone's folder as written;
- the path is a source of a later step of the same command block: a `cp`/`mv`/`rsync` source, the file
  `cat`, `source`, `chmod`, `python`, `bash` or `sh` reads, the folder `cd` enters, a `-f`, `-r`,
  `--env-file` value or the host side of `-v`; reading stops at a `cd`, a `git checkout` and a command
  after which any file may be there (`make`, `tar`, a script run: its own path is still read);
- the path is no build output (`build/`, `dist/`), git ignores it (`.gitignore`, a submodule's folder),
  and no making line above it (`wget`, `mkdir`, `download`) names its file or its folder in the clone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import CLONE_STEP, clone_operands
from docgen.audit.missing import GENERATED, Listings, corrected, gitignore_patterns, ignored
from docgen.audit.own_repo import DEFAULT_BRANCHES, checked_out, owner_name, remote_names, repository_root
from docgen.audit.references import FILES_APPEAR, MAKES_FILE, MAKES_FILE_COMMAND, MadeFiles
from docgen.audit.references import GENERATED as _BUILT
from docgen.audit.steps import image_lines, plain_path
from docgen.markdown import Document
from docgen.model import Diagnostic

_BRANCH = re.compile(r"(?:^|[ \t])(?:-b|--branch)(?:[ \t]+|=)([^\s;&|]+)")
_STEP = re.compile(r"&&|\|\||;|\|")
_QUIET = frozenset("cp mv rsync ls cat echo mkdir chmod head tail less diff wc".split())
"""Commands after which the clone holds what it held: reading goes on."""
_INSTALL = re.compile(r"\b(?:apt-get|apt|yum|dnf|apk|conda|mamba|pip3?|brew)[ \t]+(?:-\S+[ \t]+)*install\b")
_SOURCES_ALL = frozenset("cat source . head tail less chmod".split())
_SOURCES_BUT_LAST = frozenset("cp mv rsync".split())
_RUNNERS = frozenset("python python3 bash sh zsh node perl ruby Rscript cd".split())
_VALUE_OPTIONS = frozenset("-f --file -r --requirement --env-file".split())
_COMMON = frozenset(
    "readme.md readme readme.rst license license.md license.txt makefile setup.py setup.cfg pyproject.toml"
    " requirements.txt dockerfile .gitignore .dockerignore docker-compose.yml docker-compose.yaml"
    " compose.yml compose.yaml environment.yml package.json main.py app.py run.sh".split()
)
"""Names many trees have: a file of that name is no sign the clone is of this repository."""


def _squash(name: str) -> str:
    """`name` lower-cased with its separators and markup dropped: `# Openmm Test` and `openmm-test` meet."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _title(text: str) -> str:
    """The README's first heading, squashed ('' when none)."""
    found = re.search(r"^#[ \t]+(.+?)[ \t#]*$", text, re.MULTILINE)
    return _squash(found.group(1)) if found else ""


def _slug(text: str) -> str:
    """The first word of the README's first heading when it is written as a repository's name is, with
    a `-` or `_` (`# run-ai-toolkit on RunPod`): the README names itself by it; '' otherwise."""
    found = re.search(r"^#[ \t]+`?([A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+)`?(?:[ \t]|$)", text, re.MULTILINE)
    return found.group(1).lower() if found else ""


def _sources(words: list[str]) -> list[str]:
    """The words of one step that name a file or folder it reads (see the module's docstring)."""
    while words and words[0] in ("sudo", "$"):
        words = words[1:]
    if not words:
        return []
    found: list[str] = []
    command, rest = words[0], words[1:]
    for index, word in enumerate(rest[:-1]):
        if word in _VALUE_OPTIONS:
            found.append(rest[index + 1])
        elif word in ("-v", "--volume") and ":" in rest[index + 1]:
            found.append(rest[index + 1].split(":", 1)[0])
    operands = [w for w in rest if not w.startswith("-")]
    if command in _SOURCES_BUT_LAST:
        found += operands[:-1]
    elif command in _SOURCES_ALL:
        found += operands[1:] if command == "chmod" else operands
    elif command in _RUNNERS:
        found += operands[:1]
    else:
        found.append(command)  # `md-test/run.sh`
    return found


class _Made:
    """What the making lines of a README (`wget`, `mkdir`, `cp`, `>`) make, read once: the names they
    name (`steps`' `MadeFiles`), and the first two folders of each path they make (`md-test/input` of
    `mkdir -p md-test/input/x`; of a copy, its destination only), with the first line naming each."""

    def __init__(self, lines: list[str]) -> None:
        self.names = MadeFiles(lines)
        self.folders: dict[str, int] = {}
        for number, text in enumerate(lines, 1):
            if not (MAKES_FILE_COMMAND.search(text) or MAKES_FILE.search(text)):
                continue
            for step in _STEP.split(text):
                words = [w.strip("\"'").removeprefix("./") for w in step.split()]
                command = words[1:2] if words[:1] == ["sudo"] else words[:1]
                for word in words[-1:] if command in (["cp"], ["mv"], ["rsync"]) else words:
                    parts = word.split("/")
                    if len(parts) > 1 and parts[0] and parts[1]:
                        self.folders.setdefault(f"{parts[0]}/{parts[1]}", number)

    def above(self, number: int, folder: str, inner: str) -> bool:
        """True when a making line above README `number` names the file's name or its folder in the
        clone."""
        if self.names.before(inner.rsplit("/", 1)[-1], number):
            return True
        first = f"{folder}/{inner.split('/', 1)[0]}"
        return "/" in inner and self.folders.get(first, number) < number


def clone_misses(doc: Document, text: str, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A path taken from a clone of this very repository that the repository does not hold. See the
    module's docstring."""
    if "clone" not in text:
        return
    root = repository_root(directory)
    home = root or directory.resolve()
    remotes = remote_names(root)
    branches = (*DEFAULT_BRANCHES, *filter(None, [checked_out(root)]))
    slug = _slug(text)
    names = {_title(text), _squash(home.name), _squash(slug)} - {""}
    lines = text.splitlines()
    image = image_lines(doc)
    patterns = None
    made: _Made | None = None
    evidence: dict[str, bool] = {}
    listings = Listings()
    for fence in doc.fences:
        folder, sure, clone_line = None, False, 0
        for number, raw in fence.lines:
            if number in image:
                continue
            code = raw.split(" #", 1)[0].strip()
            if code.startswith("#"):
                continue
            for step in (s.strip() for s in _STEP.split(code)):
                clone = CLONE_STEP.search(step)
                if clone is not None:
                    folder, sure = _own(clone.group(1), step, remotes, names, branches)
                    clone_line = number
                    continue
                if folder is None or not step:
                    continue
                words = [w.strip("\"'") for w in step.split()]
                for word in _sources(words):
                    path = word.removeprefix("./").rstrip("/")
                    if not path.startswith(folder + "/") or not plain_path(path):
                        continue
                    inner = path[len(folder) + 1 :]
                    if os.path.exists(home / inner) or any(
                        p in GENERATED or p in _BUILT for p in inner.split("/")
                    ):
                        continue
                    if patterns is None or made is None:
                        patterns, made = gitignore_patterns([home], root), _Made(lines)
                    if ignored(home / inner, patterns) or made.above(number, folder, inner):
                        continue
                    if corrected(home, inner, listings) is not None:
                        continue  # a path a slip away: `steps.clone_paths`
                    if folder not in evidence:  # a remote or the title's own name are evidence enough
                        evidence[folder] = sure or folder.lower() == slug or _evidence(doc, folder, home)
                    if not evidence[folder]:
                        folder = None
                        break
                    yield Diagnostic(
                        readme,
                        number,
                        f"README takes {path} from its clone of this repository (line {clone_line}), "
                        f"but the repository has no {inner}",
                        confidence=CERTAIN if sure else LIKELY,
                    )
                if folder is None:
                    break
                command = words[0] if words and words[0] != "sudo" else words[1] if len(words) > 1 else ""
                if (
                    command == "cd"
                    or FILES_APPEAR.search(step)
                    or (command not in _QUIET and not _INSTALL.search(step))
                ):
                    folder = None


def _own(
    args: str, step: str, remotes: set[str], names: set[str], branches: tuple[str, ...]
) -> tuple[str | None, bool]:
    """(folder, sure) of a `git clone` whose words after `clone` are `args` when it clones this very
    repository: sure when its address names a remote, else (no remote known) when the repository's
    name is the checkout folder's or the title's; (None, False) otherwise."""
    operands = clone_operands(args.split(), "\"'")
    if not operands or ("://" not in operands[0] and "@" not in operands[0]) or "$" in args:
        return None, False
    branch = _BRANCH.search(step)
    if branch is not None and branch.group(1).strip("\"'") not in branches:
        return None, False
    named = owner_name(operands[0])
    if named is None:
        return None, False
    address = operands[0].rstrip("/")
    folder = operands[1] if len(operands) > 1 else re.split(r"[/:]", address)[-1].removesuffix(".git")
    folder = folder.removeprefix("./").rstrip("/")
    if not plain_path(folder) or "/" in folder:
        return None, False
    if remotes:
        return (folder, True) if named in remotes else (None, False)
    return (folder, False) if _squash(named.split("/")[1]) in names else (None, False)


def _evidence(doc: Document, folder: str, home: Path) -> bool:
    """True when the README's command blocks name a path under `folder` that is a file of the checkout
    at `home`, of a name not every tree has."""
    pattern = re.compile(rf"(?<![\w./-])(?:\./)?{re.escape(folder)}/([\w./-]+)")
    for fence in doc.fences:
        for _, raw in fence.lines:
            for match in pattern.finditer(raw):
                inner = match.group(1).rstrip("./")
                if inner.rsplit("/", 1)[-1].lower() in _COMMON and "/" not in inner:
                    continue
                if plain_path(inner) and os.path.isfile(home / inner):
                    return True
    return False
