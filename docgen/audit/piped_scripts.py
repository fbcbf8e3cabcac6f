"""A script of the README's own repository that the README pipes into a shell from its GitHub address
(`curl -fsSL https://raw.githubusercontent.com/o/app/main/scripts/install.sh | bash`, `bash <(curl …)`)
while the script finds files beside itself through its own path:

```
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cp "$SCRIPT_DIR/newtf" "$TARGET_DIR/newtf"
```

A shell reading a script from a pipe has no file for it: `${BASH_SOURCE[0]}` is unset (bash reports
it unbound under `set -u`) and `$0` is `bash`, so the folder is the reader's current one, and the
pipe fetched the script alone: the sibling file (`newtf`, beside install.sh in the repository) is not
there. The command works only from a clone (`bash scripts/install.sh`).

The script is the checkout's file the address names (`missing.own_addresses`: the README's own
repository at the branch checked out, or at `main`/`master`). Its folder variable is one assigned
from `dirname` of `${BASH_SOURCE[0]}` or `$0` (or `${BASH_SOURCE%/*}`); a use of `"$VAR/NAME"` whose
NAME is a file beside the script in the checkout is the finding (`certain` when the address is the
repository's for sure, else as `own_addresses` says). Silent when the script downloads that name
itself (`curl`/`wget`/`git clone` on a line naming it), when the name is not a file beside the script
(an output it writes, a folder it makes), and for an address of another repository or another ref.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Collection, Iterator
from pathlib import Path

from docgen.audit.missing import own_addresses
from docgen.audit.own_repo import remote_names, repository_root
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_PIPED = re.compile(
    r"\b(?:curl|wget)\b[^|`]*?(https?://(?:raw\.githubusercontent\.com|github\.com)/[^\s'\"|)]+)[^|]*"
    r"\|[ \t]*(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:/bin/|/usr/bin/(?:env[ \t]+)?)?(?:ba|z)?sh\b"
    r"|\b(?:ba|z)?sh[ \t]+<\([ \t]*(?:curl|wget)\b[^)]*?(https?://(?:raw\.githubusercontent\.com|github\.com)/"
    r"[^\s'\"|)]+)"
)
"""`curl -fsSL URL | bash`, `wget -qO- URL | sudo sh`, `bash <(curl -s URL)`: a script read from a pipe."""
_OWN_FOLDER = re.compile(
    r"^[ \t]*(?:(?:local|readonly|export|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_]\w*)="
    r"(?=.*(?:dirname[^\n]*(?:BASH_SOURCE|\$0\b|\$\{0\})|\$\{BASH_SOURCE(?:\[0\])?%/\*\}))"
)
"""`SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"`, `HERE=$(dirname "$0")`: the script's
own folder."""
_FETCHES = re.compile(r"\b(?:curl|wget|git[ \t]+clone)\b")


def _piped(doc: Document) -> list[tuple[int, str]]:
    """(README line, address) of each script a command block pipes into a shell from GitHub."""
    found: list[tuple[int, str]] = []
    for fence in doc.fences:
        for line, text in fence.lines:
            if "github" not in text:
                continue
            for match in _PIPED.finditer(text):
                found.append((line, (match.group(1) or match.group(2)).rstrip(".,:")))
    return found


def _sibling_reads(script: Path, text: str) -> Iterator[tuple[int, str, str]]:
    """(script line, folder variable, name) of each use of a file beside `script` through the folder
    the script computes from its own path (`"$SCRIPT_DIR/newtf"`)."""
    lines = text.splitlines()
    names = {m.group(1) for line in lines if (m := _OWN_FOLDER.match(line))}
    if not names:
        return
    use = re.compile(r"\$\{?(" + "|".join(sorted(names)) + r")\}?/([\w.-]+)(?![\w.$/-])")
    fetched = [line for line in lines if _FETCHES.search(line)]
    folder = script.parent
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("#"):
            continue
        for match in use.finditer(line):
            name = match.group(2)
            if name in (".", "..") or not os.path.isfile(folder / name):
                continue
            if any(name in f for f in fetched):
                continue  # the script downloads it when it is not there
            yield number, match.group(1), name


_REPOSITORY = re.compile(r"(?:raw\.githubusercontent\.com|github\.com)/([\w.-]+/[\w.-]+)/")


def _told_own(doc: Document, line: int, address: str, said: Collection[str]) -> bool:
    """Whether the README tells the address's repository is its own, in a checkout with no remote to
    tell: `said` (`steps.said_remotes`) names it, or another line of the README names `owner/name` (its
    `git clone`, a link): a file of the same path in another project's installer (`nvm-sh/nvm/…/install.sh`)
    is not this checkout's."""
    found = _REPOSITORY.search(address)
    if found is None:
        return False
    repository = found.group(1).lower()
    if repository in said:
        return True
    named = re.compile(rf"(?<![\w.-]){re.escape(repository)}(?![\w-])", re.IGNORECASE)
    return any(at != line and named.search(text) for fence in doc.fences for at, text in fence.lines) or any(
        named.search(target) for _, target in doc.destinations
    )


def piped_scripts(
    doc: Document, readme: str, directory: Path, project: Path | None = None, said: Collection[str] = ()
) -> Iterator[Diagnostic]:
    """A script of the README's own repository piped into a shell from its address that reads a file
    beside itself through its own path (see the module's docstring): one finding a command."""
    piped = _piped(doc)
    if not piped:
        return
    root = repository_root(directory)
    top = (project or directory).resolve() if root is None else root
    own = own_addresses(piped, directory, root, top, said)
    remotes = remote_names(root)
    for (line, address), (full, path, confidence) in sorted(own.items()):
        if not os.path.isfile(full) or not (remotes or _told_own(doc, line, address, said)):
            continue
        text = text_or_none(full, MAX_PROJECT_FILE_BYTES)
        if text is None:
            continue
        read = next(_sibling_reads(full, text), None)
        if read is None:
            continue
        number, variable, name = read
        name_path = posixpath.join(posixpath.dirname(path.strip("/")), name)
        yield Diagnostic(
            readme,
            line,
            f"README pipes {posixpath.basename(path)} from {address} into a shell, but {path}:{number} reads "
            f"{name} from ${variable}, the folder it takes from its own path: read from a pipe, the script "
            f"has no file, so that is the current folder, and the pipe never fetches {name_path} (run it "
            f"from a clone instead)",
            confidence=confidence,
        )
