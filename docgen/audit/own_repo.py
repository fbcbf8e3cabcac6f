"""The README's own repository as its checkout tells it: the `owner/name` of its remotes (`.git/config`),
the branch checked out (`.git/HEAD`), and the file of it a forge address names
(`https://github.com/o/app/blob/main/tools/run.sh`, `https://raw.githubusercontent.com/o/app/main/run.sh`).
"""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path

from docgen.files import text_or_none

_ADDRESS = re.compile(
    r"https?://(?:www\.)?github\.com/([\w.-]+)/([\w.-]+)/(?:blob|tree|raw)/([^?#\s]+)"
    r"|https?://raw\.githubusercontent\.com/([\w.-]+)/([\w.-]+)/([^?#\s]+)"
)
"""An address of a file or folder of a GitHub repository: `github.com/OWNER/NAME/blob|tree|raw/REF/PATH`
or `raw.githubusercontent.com/OWNER/NAME/REF/PATH` (the ref and the path are told apart by `forge_file`)."""
DEFAULT_BRANCHES = ("main", "master")
"""The names a repository's default branch has: a link at one, in a checkout whose branch is not known
(no `.git/HEAD`, a detached one), is about the files as they are now."""


def repository_root(directory: Path) -> Path | None:
    """The folder a link starting with `/` is read from: the nearest one at or above `directory`
    holding `.git`, else holding `pyproject.toml` (docgen's project root); None when there is none."""
    start = directory.resolve()
    for marker in (".git", "pyproject.toml"):
        for folder in (start, *start.parents):
            if os.path.exists(folder / marker):
                return folder
    return None


_SECTION = re.compile(r'\[[ \t]*([A-Za-z0-9.-]+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?[ \t]*\]')
"""A section header of a git config: `[remote "origin"]`, `[core]`, `[remote.origin]` (the old form)."""
_SETTING = re.compile(r"([A-Za-z][A-Za-z0-9-]*)[ \t]*(?:=[ \t]*(.*))?")
"""A setting of a git config: `url = git@github.com:o/n.git`, `bare` (a boolean with no value)."""


def _remote_urls(config: str) -> list[str] | None:
    """The `url` of each `remote` section of the git config text `config`, read line by line as git reads
    it (a section header, then its settings; `#` and `;` start comments); None when a line is none of
    these: git itself then refuses the file (`bad config line`), and docgen reads no remote. One pass,
    linear in the file (`configparser` joined its errors into one growing message: a file of 100,000
    lines that were no setting took minutes)."""
    urls: list[str] = []
    remote = False
    for raw in config.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            header = _SECTION.match(line)
            if header is None or line[header.end() :].strip()[:1] not in ("", "#", ";"):
                return None
            name = header.group(1).lower()
            remote = name == "remote" and header.group(2) is not None or name.startswith("remote.")
            continue
        setting = _SETTING.fullmatch(line)
        if setting is None:
            return None
        if remote and setting.group(1).lower() == "url" and setting.group(2):
            urls.append(setting.group(2).split(" #", 1)[0].split(" ;", 1)[0].strip().strip('"'))
    return urls


def remote_names(root: Path | None) -> set[str]:
    """The `owner/name` of each remote of the repository at `root` (its `.git/config`), lower-cased."""
    if root is None or (config := text_or_none(root / ".git" / "config")) is None:
        return set()
    urls = _remote_urls(config) or []
    return {n for u in urls if (n := owner_name(u))}


def owner_name(url: str) -> str | None:
    """`owner/name` of a repository address (`https://github.com/o/n.git`, `git@host:o/n`)."""
    found = re.search(r"[/:]([\w.-]+)/([\w.-]+?)(?:\.git)?/?\Z", url.strip())
    return f"{found.group(1)}/{found.group(2)}".lower() if found else None


def checked_out(root: Path | None) -> str | None:
    """The branch the checkout at `root` has (`ref: refs/heads/BRANCH` in `.git/HEAD`); None when it is
    not known (no `.git/HEAD`, a detached HEAD, `.git` a file of a worktree)."""
    if root is None or (text := text_or_none(root / ".git" / "HEAD")) is None:
        return None
    head = text.strip()
    return head.removeprefix("ref: refs/heads/") if head.startswith("ref: refs/heads/") else None


def forge_file(target: str, branches: tuple[str, ...]) -> tuple[str, str, str] | None:
    """(`owner/name` lower-cased, ref, path) of a link `target` to a file or folder of a GitHub repository
    at one of `branches` (`refs/heads/BRANCH` too); None for another address, another ref (a tag, a
    commit, another branch: the file may be there) or an address with no path."""
    found = _ADDRESS.match(target.strip())
    if found is None:
        return None
    owner, name, rest = (
        (found.group(1), found.group(2), found.group(3)) if found.group(1) else found.group(4, 5, 6)
    )
    rest = rest.removeprefix("refs/heads/")
    for ref in branches:
        if rest.startswith(ref + "/") and rest[len(ref) + 1 :].strip("/"):
            path = urllib.parse.unquote(rest[len(ref) + 1 :].rstrip("/"))  # `my%20notes.md`: `my notes.md`
            return f"{owner}/{name.removesuffix('.git')}".lower(), ref, path
    return None
