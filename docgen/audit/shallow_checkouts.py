"""A RUN that checks out a tag or a commit (`git checkout v0.4.0`, `git reset --hard 1a2b3c4`) in a clone
an earlier step made shallow (`git clone --depth=1 URL`): the clone holds only the tip of one branch, so
git finds no such ref ("pathspec 'v0.4.0' did not match") and the RUN fails (`broken_runs` tells it).

Read per stage of the build, in order, with the working folder each WORKDIR and `cd` gives (a stage
built on another starts from its clones and folder); a clone's folder is the one it names or its
address's last part. Left alone: a clone with `--branch` of the same ref, a `git fetch`, `git pull` or
`--unshallow` in the clone (or anywhere the folder cannot be told) between the two, a branch name
(`main`: it may be the one cloned), a ref with a variable that is not known, a checkout whose failure the
RUN does not return (followed by `||`, `;`, `|`, `&`, or in `if`/`for`), a path with a variable, `git -C`
of a folder not read, a RUN docgen's shell reader cannot read.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from docgen.audit.commands import clone_operands
from docgen.model import ImageModel, Instruction, ParsedDockerfile
from docgen.shell import COMPOUND_WORDS, ShToken, sh_tokens
from docgen.stages import built_stages

_TAG = re.compile(r"(?:refs/)?(?:tags/)?v?\d+(?:\.\d+)+(?:[-.+][\w.]+)?|(?:refs/)?tags/\S+")
"""A tag of a release (`v0.4.0`, `1.2.3-rc1`, `tags/v0.1.18`)."""
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
"""An abbreviated or full commit id."""
_SEPARATORS = frozenset(("&&", "||", ";", "|", "&", "|&", "(", ")", ";;"))
_REDIRECTS = frozenset((">", ">>", "<", "<<", ">&", "<&", "<>", ">|"))
_BASE = "<base>"
"""The working folder a stage's base image leaves, not known: relative paths are read from it."""


@dataclass(frozen=True)
class ShallowCheckout:
    """A checkout of a ref a shallow clone does not hold."""

    run: Instruction
    """The RUN that checks it out."""
    command: str
    """The git command as written (`git checkout v0.4.0`)."""
    ref: str
    """The ref it checks out, as the build expands it."""
    clone_line: int
    """The Dockerfile line of the shallow clone."""
    clone: str
    """The clone's address."""
    kind: str
    """`tag` or `commit`."""


@dataclass
class _Clone:
    line: int
    address: str
    branch: str | None
    fetched: bool = False


def _commands(tokens: Sequence[ShToken]) -> Iterator[tuple[list[str], str, str]]:
    """(words, operator before, operator after) of each simple command, redirections left out."""
    words: list[str] = []
    before = ";"
    skip = False
    for token in [*tokens, ShToken(";", True)]:
        if token.operator and token.text in _REDIRECTS:
            skip = True
            continue
        if not token.operator:
            if skip:
                skip = False
            else:
                words.append(token.text)
            continue
        if token.text not in _SEPARATORS:
            continue
        if words:
            yield words, before, token.text
        words = []
        before = token.text


def _plain(word: str) -> str:
    return word.strip("\"'")


def _clone(words: Sequence[str]) -> tuple[str, str | None, str | None, bool] | None:
    """(address, folder or None, branch or None, shallow) of `git clone …`; None when not one."""
    if words[:2] != ["git", "clone"]:
        return None
    rest = list(words[2:])
    operands = clone_operands(rest, "\"'")
    branch = None
    shallow = False
    for at, raw in enumerate(rest):
        word = _plain(raw)
        if word in ("-b", "--branch") and at + 1 < len(rest):
            branch = _plain(rest[at + 1])
        elif word.startswith("--branch="):
            branch = word.partition("=")[2]
        elif (word == "--depth" and at + 1 < len(rest)) or word.startswith("--depth="):
            shallow = True
    if not operands:
        return None
    return operands[0], (operands[1] if len(operands) > 1 else None), branch, shallow


def _git(words: Sequence[str]) -> tuple[str | None, str, list[str]] | None:
    """(the `-C` folder or None, subcommand, its words) of a git command; None when not one."""
    if not words or words[0] != "git":
        return None
    rest = list(words[1:])
    folder = None
    while rest and rest[0].startswith("-"):
        option = rest.pop(0)
        if option == "-C" and rest:
            folder = _plain(rest.pop(0))
        elif option in ("-c", "--git-dir", "--work-tree") and rest:
            rest.pop(0)
    if not rest:
        return None
    return folder, rest[0], rest[1:]


def _checked_ref(subcommand: str, words: Sequence[str]) -> str | None:
    """The ref `git checkout|switch|reset --hard` moves to, None when it names none (a path, `--`)."""
    if subcommand not in ("checkout", "switch", "reset"):
        return None
    rest = list(words)
    operands: list[str] = []
    while rest:
        word = rest.pop(0)
        if word == "--":
            return None if subcommand == "checkout" and not operands else (operands[0] if operands else None)
        if word in ("-b", "-B", "-c", "-C", "--orphan") and rest:
            rest.pop(0)
        elif not word.startswith("-"):
            operands.append(word)
    if subcommand == "reset" and "--hard" not in words:
        return None
    return operands[0] if len(operands) == 1 or (operands and subcommand != "checkout") else None


def _kind(ref: str) -> str | None:
    if _COMMIT.fullmatch(ref) and re.search(r"\d", ref) and re.search(r"[a-f]", ref):
        return "commit"
    if _TAG.fullmatch(ref):
        return "tag"
    return None


def _short(ref: str) -> str:
    return ref.removeprefix("refs/").removeprefix("tags/")


def shallow_checkouts(
    model: ImageModel, parsed: ParsedDockerfile, value: Callable[[Instruction, str], str | None]
) -> Iterator[ShallowCheckout]:
    """Each RUN of a stage the build builds that checks out a tag or commit in a shallow clone of an
    earlier step (see the module). `value(run, name)`: what variable `name` is in that RUN, None when
    not known."""
    built = built_stages(model)
    clones: dict[int, dict[str, _Clone]] = {}  # stage index → clone folder → clone
    folders: dict[int, str | None] = {}  # stage index → working folder (None: not known)
    for inst in parsed.instructions:
        stage = model.stage_at(inst.start_line)
        if stage is None:
            continue
        if stage.index not in clones:
            parent = stage.parent
            inherited = clones.get(parent, {}) if parent is not None else {}
            clones[stage.index] = {k: replace(c) for k, c in inherited.items()}
            folders[stage.index] = folders.get(parent, _BASE) if parent is not None else _BASE
        mine = clones[stage.index]
        if inst.keyword == "WORKDIR":
            folders[stage.index] = _moved(folders[stage.index], _plain(inst.args.strip()))
            continue
        if inst.keyword != "RUN" or inst.exec_form is not None or inst.heredocs:
            continue
        try:
            tokens = sh_tokens(inst.args)
        except ValueError:
            continue
        compound = any(
            (not t.operator and t.text in COMPOUND_WORDS) or (t.operator and t.text in ("(", ")"))
            for t in tokens
        )
        here = folders[stage.index]
        commands = list(_commands(tokens))
        for at, (words, before, _) in enumerate(commands):
            if words[:1] == ["sudo"]:
                words = words[1:]
            if words[:1] == ["cd"]:
                here = _moved(here, _plain(words[1])) if len(words) == 2 else None
                continue
            cloned = _clone(words)
            if cloned is not None:
                address, folder, branch, shallow = cloned
                name = folder or posixpath.basename(address.rstrip("/")).removesuffix(".git")
                path = _moved(here, name)
                if path is not None:
                    mine.pop(path, None)
                    if shallow:
                        mine[path] = _Clone(inst.start_line, address, branch)
                continue
            read = _git(words)
            if read is None:
                continue
            option, subcommand, rest = read
            where = _moved(here, option) if option is not None else here
            if subcommand in ("fetch", "pull") or "--unshallow" in rest:
                for key in [k for k in mine if where is None or k == where]:
                    mine[key].fetched = True
                continue
            ref = _checked_ref(subcommand, rest)
            if ref is None or where not in mine or mine[where].fetched:
                continue
            clone = mine[where]
            ref = _expanded(_plain(ref), functools.partial(value, inst))
            if ref is None or (kind := _kind(ref)) is None:
                continue
            if clone.branch is not None and _short(clone.branch) == _short(ref):
                continue
            returned = before not in ("||", "|", "|&") and all(a == "&&" for _, _, a in commands[at:-1])
            if stage.label in built and returned and not compound:
                yield ShallowCheckout(inst, " ".join(words), ref, clone.line, clone.address, kind)
                return  # (the build stops at its first failing step)


def _moved(folder: str | None, to: str) -> str | None:
    """The folder `cd to` leads to from `folder`; None when it cannot be told (a variable, `-`, `~`)."""
    if folder is None or not to or re.search(r"[$`~*?]", to) or to == "-":
        return None
    return posixpath.normpath(posixpath.join(folder, to))


_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def _expanded(word: str, value: Callable[[str], str | None]) -> str | None:
    """`word` with each variable replaced by its value; None when one is not known or empty."""
    known = True

    def one(match: re.Match[str]) -> str:
        nonlocal known
        said = value(match.group(1) or match.group(2))
        if not said:
            known = False
            return ""
        return said

    expanded = _VARIABLE.sub(one, word)
    return expanded if known and "$" not in expanded else None
