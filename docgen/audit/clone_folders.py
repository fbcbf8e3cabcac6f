"""A `cd` into the folder a `git clone` does not make: `git clone https://github.com/o/app.git` then
`cd app.git`. git clones into the address's last part without `.git` (`app`) unless a folder is given
after the address; only a bare or mirror clone (`--bare`, `--mirror`) makes `app.git`. The `cd` fails
(`certain`: the clone and the `cd` are commands of the same block, read as git reads them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import CD_STEP, clone_of, cloned_folder
from docgen.markdown import Document
from docgen.model import Diagnostic

_BARE = re.compile(r"\bgit[ \t]+clone\b[^;&|#\n]*?[ \t]--(?:bare|mirror)\b")
"""A bare or mirror clone: its folder keeps the `.git` of the address."""
_MADE = re.compile(r"\b(?:mkdir|mv|ln|cp|git[ \t]+init|git[ \t]+worktree)\b")
"""Commands that could make a folder of any name: a block holding one is left alone."""


def clone_folders(doc: Document, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """Each `cd X.git` after a `git clone …/X.git` of the same block that names no folder, where no
    `X.git` exists next to the README and the block makes no folder otherwise."""
    for fence in doc.fences:
        if any(_MADE.search(text) for _, text in fence.lines):
            continue
        wrong: dict[str, str] = {}  # `X.git` → `X`, for the clones seen so far in the block
        for line, text in fence.lines:
            code = text.split(" #", 1)[0]
            clone = clone_of(code)
            clone_at = -1
            if clone is not None and clone[1] is not None:
                wrong.pop(clone[1].rstrip("/"), None)
            elif clone is not None and not _BARE.search(code):
                url = clone[0]
                last = url.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                if last.endswith(".git") and len(last) > 4:
                    wrong[last] = cloned_folder(url)
                    clone_at = code.find(url)
            for step in re.split(r"(?=&&|;)", code):
                cd = CD_STEP.match(step)
                if cd is None or cd.group(1) is None:
                    continue
                if clone_at >= 0 and code.find(step) < clone_at:
                    continue
                target = cd.group(1).strip("\"'").removeprefix("./")
                first = target.split("/", 1)[0]
                if first not in wrong:
                    continue
                if directory is not None and any(
                    os.path.exists(folder / first) for folder in [directory, *directory.resolve().parents]
                ):
                    continue
                meant = wrong[first] + target[len(first) :]
                yield Diagnostic(
                    readme,
                    line,
                    f"README cds into {target}, but `git clone …/{first}` makes the folder "
                    f"{wrong[first]} (did you mean cd {meant}?)",
                    confidence=CERTAIN,
                )
