"""Commits a README says a repository is checked out at, against the commit the Dockerfile checks it
out at: a `git checkout <sha>` / `git reset --hard <sha>` after a `git clone` of the repository in a
command block, a `git+URL@<sha>` install, and a bare hash under a line naming the component and a
hash (`Detectron2 github repo hash:` above a block holding only the hash) or next to both on one line
(`Detectron2 commit `82a57ce`` ).

Only a repository the image checks out at a commit (a `git` component pinned to a full or short hash)
is compared; a hash equal to the other's start agrees (`82a57ce` is `82a57ce0b7…`). A branch or tag is
no commit and says nothing here.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor
from docgen.audit.versions import is_commit, name_keys
from docgen.markdown import Document, Fence
from docgen.model import Component, Diagnostic, short_commit
from docgen.sources.naming import repo_name

_CLONE = re.compile(r"\bgit[ \t]+clone\b[^\n]*?[ \t]((?:https?://|git@|ssh://)\S+?)(?:\.git)?(?=[ \t;&|]|\Z)")
"""`git clone [options] URL`: the repository's URL."""
_CHECKOUT = re.compile(
    r"\bgit[ \t]+(?:-C[ \t]+\S+[ \t]+)?(?:checkout|switch[ \t]+--detach|reset[ \t]+--hard)[ \t]+"
    r"([0-9a-fA-F]{7,40})\b"
)
"""`git checkout <sha>`, `git reset --hard <sha>` (`git -C DIR …` too)."""
_AT_COMMIT = re.compile(r"git\+((?:https?|ssh)://\S+?)(?:\.git)?@([0-9a-fA-F]{7,40})(?![\w.])")
"""`pip install git+https://…/repo.git@<sha>`."""
_HASH_WORD = re.compile(r"\b(?:commit|hash|sha|sha1|revision|rev)\b", re.IGNORECASE)
"""A word saying a hex string is a commit."""
_ALONE = re.compile(r"[ \t`]*([0-9a-fA-F]{7,40})[ \t`]*\Z")
"""A line holding only a hash."""
_INLINE = re.compile(r"`([0-9a-fA-F]{7,40})`|(?<![\w/@#-])([0-9a-fA-F]{7,40})(?![\w/-]|\.\w)")
"""A hash in a sentence, in code or not."""


def _pinned_commits(auditor: Auditor) -> list[tuple[Component, str]]:
    """The repositories the images check out at a commit: (component, its Dockerfile's path)."""
    return [
        (comp, model.path)
        for model in auditor.models
        for comp in model.components
        if comp.kind == "git" and comp.ref and comp.ref_kind in ("commit", "short-commit")
    ]


def _same_repo(url: str, comp: Component) -> bool:
    """True when the clone URL `url` is the repository of `comp` (its name; its host path when known)."""
    if not comp.source:
        return repo_name(url).lower() == comp.name.lower()
    return _repo_path(url) == _repo_path(comp.source)


def _repo_path(url: str) -> str:
    text = url.strip().rstrip("/").lower()
    text = text.removesuffix(".git")
    text = re.sub(r"\A(?:https?://|ssh://|git@)", "", text).replace(":", "/", 1)
    return text


def commit_claims(part: Document, doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each commit the part's command blocks and lines give a repository the images check out at
    another commit (`likely`: a README may build another revision on purpose, elsewhere)."""
    pinned = _pinned_commits(auditor)
    if not pinned:
        return
    for fence in part.fences:
        yield from _fence_commits(fence, pinned, auditor)
        yield from _labelled_hash(fence, doc, pinned, auditor)
    for para in part.paragraphs:
        for line, text in para.lines:
            if _HASH_WORD.search(text):
                yield from _named_hash(line, text, pinned, auditor)


def _fence_commits(
    fence: Fence, pinned: list[tuple[Component, str]], auditor: Auditor
) -> Iterator[Diagnostic]:
    """`git clone URL` then `git checkout/reset --hard SHA` (one block), and `git+URL@SHA`."""
    url: str | None = None
    for line, text in fence.lines:
        for match in _AT_COMMIT.finditer(text):
            yield from _one(auditor, line, _of_repo(match.group(1), pinned), match.group(2))
        clone = _CLONE.search(text)
        if clone:
            url = clone.group(1)
        checkout = _CHECKOUT.search(text, clone.end() if clone else 0)
        if checkout and url is not None and is_commit(checkout.group(1)):
            yield from _one(auditor, line, _of_repo(url, pinned), checkout.group(1))


def _labelled_hash(
    fence: Fence, doc: Document, pinned: list[tuple[Component, str]], auditor: Auditor
) -> Iterator[Diagnostic]:
    """A block holding only a hash under a line (ending in `:`) that names a pinned repository and says
    hash or commit."""
    content = [(line, text) for line, text in fence.lines if text.strip()]
    if len(content) != 1 or not (alone := _ALONE.match(content[0][1])) or not is_commit(alone.group(1)):
        return
    opening = fence.lines[0][0] - 1 if fence.lines else 0
    first = bisect.bisect_left(doc.paragraphs, opening - 2, key=lambda para: para.lines[-1][0])
    label = next(  # (the paragraphs ending just above it, found by bisection: `doc` is in line order)
        (
            text
            for para in doc.paragraphs[first : first + 2]
            for last, text in para.lines[-1:]
            if opening - 2 <= last < opening and text.rstrip().endswith((":", "："))
        ),
        None,
    )
    if label is None or not _HASH_WORD.search(label):
        return
    yield from _one(auditor, content[0][0], _named(label, pinned), alone.group(1))


def _named_hash(
    line: int, text: str, pinned: list[tuple[Component, str]], auditor: Auditor
) -> Iterator[Diagnostic]:
    """A hash on a line that names a pinned repository and says hash or commit."""
    hashes = [m.group(1) or m.group(2) for m in _INLINE.finditer(text)]
    hashes = [h for h in hashes if is_commit(h) and not h.isalpha()]
    if len(hashes) != 1:
        return  # none, or several (an old and a new one): not one claim
    yield from _one(auditor, line, _named(text, pinned), hashes[0])


def _named(text: str, pinned: list[tuple[Component, str]]) -> list[tuple[Component, str, str]]:
    """The pins `text` names (their name as a word, any case, `-`/`_` alike), each with the word."""
    words = re.findall(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", text)
    found = []
    for comp, path in pinned:
        wanted = name_keys(comp.name, {})
        word = next((w for w in words if name_keys(w, {}) & wanted), None)
        if word is not None:
            found.append((comp, path, word))
    return found


def _of_repo(url: str, pinned: list[tuple[Component, str]]) -> list[tuple[Component, str, str]]:
    return [(comp, path, comp.name) for comp, path in pinned if _same_repo(url, comp)]


def _one(
    auditor: Auditor, line: int, matching: list[tuple[Component, str, str]], sha: str
) -> Iterator[Diagnostic]:
    """A finding when `sha` agrees with no commit the `matching` pins check out (none: no claim),
    worded as `Versions next to a component` words it (one finding when both read the line)."""
    said = sha.lower()
    for comp, _path, _word in matching:
        held = (comp.ref or "").lower()
        if said.startswith(held) or held.startswith(said):
            return
    for comp, path, word in matching[:1]:
        yield Diagnostic(
            auditor.path,
            line,
            f"README says {word} {short_commit(sha)} but {path}:{comp.cited_line} says "
            f"{short_commit(comp.ref or '')}",
            confidence=LIKELY,
        )
