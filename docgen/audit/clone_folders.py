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

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import CD_STEP, clone_of, cloned_folder
from docgen.audit.missing import name_key, near_names
from docgen.audit.own_repo import remote_names, repository_root
from docgen.audit.steps import own_clone
from docgen.markdown import Document, Fence
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


_PROMPT = re.compile(r"^[ \t]*(?:\$[ \t]+)?")
"""A shell prompt (`$ `) before a command of a block."""
_RENAMED = re.compile(r"\b(?:mv|mkdir|renam\w*|move|ln)\b", re.IGNORECASE)
"""Words of the prose between two blocks that may make or rename the clone's folder."""


_OPENED = re.compile(r"[ \t]*(?:\$[ \t]+)?code[ \t]+([\w.-][^\s;&|]*)[ \t]*$")
"""A `code DIR` step (VS Code opens the folder), with the folder it opens."""
_MAKES_NAMED = re.compile(
    r"\b(?:mkdir|mv|cp|ln|clone|unzip|tar|renam\w*|creat\w*|extract\w*|download\w*|make|makes|made)\b",
    re.IGNORECASE,
)
"""Words of a line naming a folder that may make it (`mkdir app`, `git clone URL app`, `unzip`)."""


def _other_name(text: str, url: str, folder: str, target: str, home: Path) -> bool:
    """True when a `cd`/`code` right after `git clone url` enters `target`, a folder of another name
    than the clone's `folder` that is meant for it: one name, sharing a word of three letters or more
    with `folder` (`devcontainer-gpu-kit` for `ubuntu-gpu-kit-docker`), no line of the README that
    names it may make it (`mkdir`, a clone into it, `unzip`, `rename`), no folder of that name is in the
    repository at `home` (three levels down; nor a file: `code app.code-workspace`), and the README
    names the clone's folder nowhere but in addresses (it is never entered). A renamed repository or a
    copied README: the reader's `cd` fails."""
    if (
        not re.fullmatch(r"[\w.-]+", target)
        or "://" not in url
        and "@" not in url
        or re.search(r"[$<>{}]", url)
    ):
        return False
    if folder.lower() in target.lower():
        return False  # (`cd app.git`, `cd app-main`: a suffix slip, told or left by `clone_folders`)
    words = {w for w in re.split(r"[-_.]", folder.lower()) if len(w) >= 3}
    if not words & {w for w in re.split(r"[-_.]", target.lower()) if len(w) >= 3}:
        return False
    named = re.compile(r"(?<![\w.-])" + re.escape(target) + r"(?![\w-])")
    entered = re.compile(r"\b(?:cd|pushd)[ \t]+(?:\./)?" + re.escape(target) + r"(?![\w-])")
    # (a line that only enters it, `git clone URL && cd app`, makes no folder of that name)
    if any(named.search(u := entered.sub("", t)) and _MAKES_NAMED.search(u) for t in text.splitlines()):
        return False
    if re.search(r"(?<![\w./-])" + re.escape(folder) + r"(?![\w-]|\.git)", text):
        return False  # the clone's folder is named (entered, or told) somewhere
    for top, folders, files in os.walk(home):
        if target in folders or target in files:
            return False
        depth = Path(top).relative_to(home).parts
        folders[:] = (
            [] if len(depth) >= 2 else [f for f in folders if not f.startswith(".") or f == ".devcontainer"]
        )
    return True


def _block_steps(fence: Fence) -> list[tuple[int, str]]:
    """(README line, command) of each step (`&&`, `;`) of a command block, comment lines left out."""
    steps = []
    for line, text in fence.lines:
        code = text.split(" #", 1)[0]
        if code.lstrip().startswith("#"):
            continue
        steps += [(line, s) for p in re.split(r"&&|;", code) if (s := _PROMPT.sub("", p).strip())]
    return steps


def _next_steps(doc: Document) -> Iterator[tuple[int, str, int, str, bool]]:
    """(line, step, line, next step, in one block) of each two steps the reader runs one after the
    other: in a block, or a clone that ends a block and the first step of the next when no prose
    between may rename or make folders."""
    previous: tuple[int, str] | None = None
    for fence in doc.fences:
        steps = _block_steps(fence)
        if previous is not None and steps and clone_of(previous[1]) is not None:
            # (the prose is read only after a clone, not again for every block)
            between = [t for p in doc.paragraphs for n, t in p.lines if previous[0] < n < steps[0][0]]
            if not any(_RENAMED.search(t) for t in between):
                yield previous[0], previous[1], steps[0][0], steps[0][1], False
        for (line, step), (after, following) in zip(steps, steps[1:], strict=False):
            yield line, step, after, following, True
        previous = steps[-1] if steps else None


def clone_slips(doc: Document, text: str, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """A `cd` right after a `git clone URL` that names no folder (the next step of the block, or the
    first of the next block), into a folder a slip away from the one the clone makes: separators or
    letter case (`gpu-burner` for `gpu_burner`), or, for a name of five characters or more, one letter
    (`missing.near_names`). The reader is in the clone's parent, where the clone made only its folder: the
    `cd` fails (`certain`, letter case alone too: the folder git made has the address's letters, and the
    README's commands run on Linux, whose file names are case-sensitive).
    Not reported: a clone into a folder it names, a bare or mirror clone, a `cd` into the clone's folder
    or below it, a folder of that name next to the README or above it.

    And, after a clone of this very repository (`steps.own_clone`: the address names a remote of the
    checkout or the clone's folder has the checkout's name; or the folder is the README's title), a `cd`
    of the same block into a folder of the repository's root (`cd docker` after `git clone …/app.git`):
    the reader is in the clone's parent, not in the clone (`likely`, "did you mean cd app/docker?").

    And a later `cd` whose path names the clone's folder with other separators (`_later_slips`)."""
    found = list(_right_after(doc, text, readme, directory))
    yield from found
    yield from _later_slips(doc, text, readme, directory, {d.line for d in found})


def _later_slips(
    doc: Document, text: str, readme: str, directory: Path | None, told: set[int]
) -> Iterator[Diagnostic]:
    """A `cd` anywhere after a `git clone URL` that names no folder whose path has a part the clone's
    folder but for its separators (`cd ~/work/docker-ros_kinetic` after `git clone …/docker-ros-kinetic`)
    while another `cd` of the README enters that very path (or below it) with the clone's folder (`cd
    ~/work/docker-ros-kinetic` the line after the clone; a relative `cd` alone may be from inside the
    clone, into a folder of its own): no folder of that name is next to the
    README or above it, and no line of the README naming it may make it (`mkdir`, a clone into it).
    `certain`: git made the folder under the address's name. Lines `told` (a `cd` right after the
    clone, `clone_slips`) are not told twice."""
    made: dict[str, tuple[str, int]] = {}  # `name_key` of a clone's folder → (folder, line)
    fences = sorted(doc.fences, key=lambda f: f.lines[0][0] if f.lines else 0)
    entered = {
        cd.group(1).strip("\"'").rstrip("/")
        for fence in fences
        for _, step in _block_steps(fence)
        if (cd := CD_STEP.match(step)) is not None and cd.group(1) is not None
    }
    for fence in fences:
        for line, step in _block_steps(fence):
            clone = clone_of(step)
            if clone is not None:
                url = clone[0]
                if clone[1] is None and not _BARE.search(step) and ("://" in url or "@" in url):
                    if not re.search(r"[$<>{}]", url) and (folder := cloned_folder(url)):
                        made.setdefault(name_key(folder), (folder, line))
                continue
            cd = CD_STEP.match(step)
            if cd is None or cd.group(1) is None or line in told or not made:
                continue
            target = cd.group(1).strip("\"'").rstrip("/")
            if not target.startswith(("~/", "/", "$HOME/", "${HOME}/")):
                continue  # (a relative `cd` may be from inside the clone, into a folder of its own)
            parts = target.split("/")
            for index, part in enumerate(parts):
                folder, at = made.get(name_key(part), ("", 0))
                if not folder or part.lower() == folder.lower() or not re.fullmatch(r"[\w.-]+", part):
                    continue
                if directory is not None and any(
                    os.path.lexists(f / part) for f in [directory, *directory.resolve().parents]
                ):
                    break
                named = re.compile(r"(?<![\w.-])" + re.escape(part) + r"(?![\w-])")
                if any(named.search(t) and _MAKES_NAMED.search(t) for t in text.splitlines()):
                    break
                meant = "/".join([*parts[:index], folder, *parts[index + 1 :]])
                right = "/".join([*parts[:index], folder])
                if not any(e == right or e.startswith(right + "/") for e in entered):
                    break
                yield Diagnostic(
                    readme,
                    line,
                    f"README cds into {target}, but the `git clone` of line {at} makes the folder {folder} "
                    f"(did you mean cd {meant}?)",
                    confidence=CERTAIN,
                )
                break


def _project_folders(directory: Path, home: Path | None) -> list[Path]:
    """The README's folder and those above it up to the project's top `home` (all of them when it is
    not known): where a folder the reader enters may already be. The folders above the project are
    the machine's, and the project's own folder is no folder in it (a checkout named `mmcv`, a clone
    of `onedl-mmcv`)."""
    folders = [directory.resolve(), *directory.resolve().parents]
    if home is None or home.resolve() not in folders:
        return folders
    return folders[: folders.index(home.resolve()) + 1]


def _right_after(doc: Document, text: str, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """The findings of `clone_slips` about a `cd` right after the clone."""
    root = repository_root(directory) if directory is not None else None
    home = root or (directory.resolve() if directory is not None else None)
    remotes = remote_names(root)
    title = re.search(r"^#[ \t]+`?([\w.-]+)`?[ \t]*$", text, re.MULTILINE)
    for _, step, line, following, together in _next_steps(doc):
        clone = clone_of(step)
        cd = CD_STEP.match(following) or _OPENED.match(following)
        if clone is None or clone[1] is not None or cd is None or cd.group(1) is None or _BARE.search(step):
            continue
        folder = cloned_folder(clone[0])
        target = cd.group(1).strip("\"'").removeprefix("./").rstrip("/")
        first = target.split("/", 1)[0]
        if not folder or not re.fullmatch(r"[\w.-]+", first) or first in (folder, ".", ".."):
            continue
        if directory is not None and any(
            os.path.exists(f / first) for f in _project_folders(directory, home)
        ):
            if not together or home is None or not os.path.isdir(home / target):
                continue
            owned = own_clone(clone[0].split(), home, remotes) is not None or (
                title is not None and name_key(title.group(1)) == name_key(folder)
            )
            if not owned or name_key(first) == name_key(folder):
                continue
            yield Diagnostic(
                readme,
                line,
                f"README cds into {target} right after `git clone …/{folder}`, but the reader is in the "
                f"clone's parent: {target} is in the clone (did you mean cd {folder}/{target}?)",
                confidence=LIKELY,
            )
            continue
        if not near_names(first, [(folder, name_key(folder))]):
            if (
                directory is not None
                and home is not None
                and _other_name(text, clone[0], folder, target, home)
            ):
                yield Diagnostic(
                    readme,
                    line,
                    f"README enters {target} right after `git clone …/{clone[0].rsplit('/', 1)[-1]}`, which "
                    f"makes the folder {folder}; no step makes {target} and the repository holds no such "
                    f"folder (did you mean {folder}?)",
                    confidence=LIKELY,
                )
            continue
        meant = folder + target[len(first) :]
        yield Diagnostic(
            readme,
            line,
            f"README cds into {target}, but `git clone …/{clone[0].rsplit('/', 1)[-1]}` makes the folder "
            f"{folder} (did you mean cd {meant}?)",
            confidence=CERTAIN,
        )
