"""A folder a README enters, or a script it runs, in its clone of this very repository that the
repository does not hold while it holds a path one slip away (`git clone https://github.com/o/alnair`,
then `cd alnai/test/distrubuted-training` and `python mnist-distribured.py`, while the repository has
`test/distributed-training/mnist-distributed.py`): the step fails for every reader, and the finding
names the path the README means.

Read in the command blocks (a shell block, a session, a block with no language). A block may show its
commands after a root prompt `# ` (`# cd app`): when half or more of its lines start with `# ` and at
least two of those, and two thirds of them, start with a command (`cd`, `python`, `docker`, `conda`,
`git` ...), those lines are read as commands; a `# ` line of any other block, or one that starts with
no command (`# install the deps`), is a comment.

After a `git clone` of an address in a block, the walk follows the `cd` steps of that block: the first
must enter the clone's folder (its name, or a name one slip from it when it has six letters or more),
the next ones go on from where the walk is. Each folder entered is read from the repository's root
(`own_repo.repository_root`; in a checkout with neither `.git` nor `pyproject.toml`, the README's folder
or a folder above it up to where docgen runs); the first script run there by a relative path (`python
x.py`, `bash x.sh`, `./x`) too. A path that does not exist is a finding only when `missing.corrected`
turns it into one that does, by changing one name of six letters or more by one slip (a letter
changed, dropped, added, or two swapped); the walk goes on from the corrected folder.

Silent when the checkout's remotes are known and the clone names none of them, when the clone is of
another branch (`-b`) or bare (`--bare`, `--mirror`), when the path has a variable, a glob or `..`,
when an earlier command of the block names the file or folder (`wget`, `cp`, `touch`, `mkdir` may
make it), and after a command that may change the tree (`git checkout`, `make`, `tar`, a script
run). Without a remote to compare with, the path must hold two names or more, so the rest of it backs
the clone being of this repository.
`likely`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import clone_of, without_prompt
from docgen.audit.missing import Listings, corrected, link_roots, one_edit
from docgen.audit.own_repo import owner_name, remote_names, repository_root
from docgen.audit.steps import own_clone
from docgen.audit.wording import SHELL_BLOCK_LANGS
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

COMMAND_WORDS = frozenset(
    {
        "cd", "python", "python2", "python3", "docker", "conda", "git", "pip", "pip3", "bash", "sh",
        "source", "export", "ls", "mkdir", "make", "cmake", "apt", "apt-get", "wget", "curl", "cp",
        "mv", "rm", "tar", "unzip", "nvidia-smi", "torchrun", "mpirun", "horovodrun", "jupyter",
        "echo", "cat", "chmod", "ssh", "ibv_devinfo", "nvcc", "deepspeed", "accelerate", "yum", "dnf",
    }
)  # fmt: skip
"""Words a line of a block with `# ` as its prompt starts with when it is a command."""
_HASH = re.compile(r"[ \t]*#[ \t]+(?=\S)")
_FIRST = re.compile(r"(?:\./)?([\w.-]+)")
_STEP = re.compile(r"&&|\|\||;")
_CD = re.compile(r"cd[ \t]+([^\s;&|]+)[ \t]*\Z")
_SCRIPT = re.compile(
    r"(?:(?:python[\d.]*|bash|sh)[ \t]+(?:-[a-zA-Z][ \t]+)*([\w][\w.-]*(?:/[\w.-]+)*)"
    r"|\./([\w][\w.-]*(?:/[\w.-]+)*))(?=$|[ \t])"
)
_CHANGES = re.compile(r"\A(?:git[ \t]+(?:checkout|pull|switch|submodule|reset|apply)|make|tar|unzip|patch)\b")
_UNREAD = re.compile(r"[$<>{}*?%\[\]:\\`~]|\.\.")
_GENERAL = 6
"""The fewest letters of a name a slip is read in (`test` and `tests` are two folders)."""


def _command(text: str) -> bool:
    first = _FIRST.match(text.strip())
    return first is not None and first.group(1).lower() in COMMAND_WORDS


def block_commands(fence: Fence) -> list[tuple[int, str]]:
    """(README line, command) of each command line of `fence`, its prompt dropped: a `# ` line is a
    command only in a block that uses `# ` as its prompt (see the module's text), else a comment."""
    lines = [(n, t) for n, t in fence.lines if t.strip()]
    hashed = [(n, t[m.end() :]) for n, t in lines if (m := _HASH.match(t))]
    commands = [(n, t) for n, t in hashed if _command(t)]
    prompt = len(hashed) * 2 >= len(lines) and len(commands) >= 2 and len(commands) * 3 >= len(hashed) * 2
    kept = {n: t for n, t in commands} if prompt else {}
    out: list[tuple[int, str]] = []
    for n, text in lines:
        if n in kept:
            out.append((n, kept[n]))
        elif not _HASH.match(text) and not text.lstrip().startswith("#"):
            out.append((n, without_prompt(text).split(" #", 1)[0]))
    return out


def _slipped(written: str, fixed: str) -> bool:
    """True when the one name `corrected` changed has six letters or more."""
    return any(
        a != b and min(len(a), len(b)) >= _GENERAL and one_edit(a, b)
        for a, b in zip(written.split("/"), fixed.split("/"), strict=False)
    )


class _Walk:
    """Where a block's walk in its clone is: the clone's folder name and the folder (from the root)."""

    def __init__(self, folder: str, slipped: bool) -> None:
        self.folder = folder
        self.slipped = slipped
        self.at: str | None = None
        self.root: Path | None = None


def clone_walks(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """The findings of the module's text, one at each line."""
    roots = link_roots(directory, project) or [directory.resolve()]
    root = repository_root(directory)
    remotes = remote_names(root) if root is not None else set()
    listings = Listings()
    for fence in doc.fences:
        if fence.lang.lower() not in SHELL_BLOCK_LANGS:
            continue
        walk: _Walk | None = None
        named: set[str] = set()
        for line, text in block_commands(fence):
            for step in (s.strip() for s in _STEP.split(text)):
                if not step:
                    continue
                clone = clone_of(step)
                if clone is not None:
                    walk = _cloned(step, clone, roots, remotes)
                    continue
                if walk is not None:
                    found, walk = _step(step, walk, roots, listings, named, line, readme, bool(remotes))
                    if found is not None:
                        yield found
                named.update(w.rstrip("/").rsplit("/", 1)[-1] for w in step.split()[1:])


def _cloned(step: str, clone: tuple[str, str | None], roots: list[Path], remotes: set[str]) -> _Walk | None:
    url, folder = clone
    if (
        "://" not in url
        and "@" not in url
        or re.search(r"(?:^|[ \t])(?:-b|--branch|--bare|--mirror)\b", step)
    ):
        return None
    if remotes:
        words = step.split("clone", 1)[1].split()
        if own_clone(words, roots[0], remotes) is None and owner_name(url) not in remotes:
            return None
    name = folder or posixpath.basename(url.rstrip("/")).removesuffix(".git")
    if not name or _UNREAD.search(name) or "/" in name:
        return None
    return _Walk(name, bool(remotes))


def _step(
    step: str,
    walk: _Walk,
    roots: list[Path],
    listings: Listings,
    named: set[str],
    line: int,
    readme: str,
    confirmed: bool,
) -> tuple[Diagnostic | None, _Walk | None]:
    cd = _CD.match(step)
    if cd is not None:
        target = cd.group(1).strip("\"'").rstrip("/")
        if _UNREAD.search(target) or target.startswith("/"):
            return None, None
        parts = [p for p in target.split("/") if p not in ("", ".")]
        head = ""
        if walk.at is None:
            if not parts:
                return None, None
            first = parts.pop(0)
            if first != walk.folder:
                if len(walk.folder) < _GENERAL or not one_edit(first, walk.folder) or first in named:
                    return None, None
                head = first
            inner = "/".join(parts)
        else:
            inner = posixpath.join(walk.at, *parts) if parts else walk.at
        if any(p in named for p in parts):
            return None, None
        return _enter(walk, head, target, inner, roots, listings, line, readme, confirmed)
    if walk.at is None:
        return None, walk
    if _CHANGES.match(step):
        return None, None
    script = _SCRIPT.match(step)
    if script is None:
        return None, walk
    path = script.group(1) or script.group(2)
    if _UNREAD.search(path) or path.rsplit("/", 1)[-1] in named:
        return None, None
    if walk.root is not None:
        base = walk.root / walk.at
        if os.path.exists(base / path):
            return None, None
        fixed = corrected(base, path, listings)
        if fixed is not None and _slipped(path, fixed):
            return (
                Diagnostic(
                    readme,
                    line,
                    f"README runs {path} in {walk.folder}/{walk.at}, its clone of this repository, which "
                    f"holds no such file (did you mean {fixed}?)",
                    confidence=LIKELY,
                ),
                None,
            )
    return None, None


def _enter(
    walk: _Walk,
    head: str,
    target: str,
    inner: str,
    roots: list[Path],
    listings: Listings,
    line: int,
    readme: str,
    confirmed: bool,
) -> tuple[Diagnostic | None, _Walk | None]:
    """The finding of a `cd` into `inner` (from the clone's root) and where the walk goes on."""
    for root in roots:
        if not inner or os.path.isdir(root / inner):
            walk.at, walk.root = inner, root if inner or len(roots) == 1 else None
            return (_found(walk, target, inner, line, readme) if head else None), walk
    if not confirmed and inner.count("/") < 1:
        return None, None
    for root in roots:
        fixed = corrected(root, inner, listings)
        if fixed is not None and _slipped(inner, fixed) and os.path.isdir(root / fixed):
            walk.at, walk.root = fixed, root
            told = confirmed and not head  # `steps.clone_paths` tells of a path in the clone it names
            return (None if told else _found(walk, target, fixed, line, readme)), walk
    return None, None


def _found(walk: _Walk, target: str, fixed: str, line: int, readme: str) -> Diagnostic:
    right = posixpath.join(walk.folder, fixed) if fixed else walk.folder
    return Diagnostic(
        readme,
        line,
        f"README enters {target}, which its clone of this repository does not hold (did you mean {right}?)",
        confidence=LIKELY,
    )
