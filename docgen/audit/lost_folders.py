"""A path in the prose that starts in a folder of the repository and goes on into one that is not there:
`` On commit to `docker/llama-cpp-cuda/**` `` while `docker/` holds only `cuda/` (the image's folder was
renamed), "sample files under samples/model_repository/test_models folder" while the samples are in
`samples/test_models`.

A path a slip away from a file is `missing.misspelt_paths`' to tell; this rule takes the paths with no
such file near, and says which folder is gone and what its parent holds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import cloned_folder, clones
from docgen.audit.missing import (
    DOMAIN,
    GENERATED,
    PLACEHOLDER,
    Listings,
    code_paths,
    gitignore_patterns,
    ignored,
    in_commands,
    line_texts,
    made_names,
    prose_bases,
    prose_fix,
)
from docgen.audit.own_repo import repository_root
from docgen.files import is_dockerfile_name, real_path
from docgen.markdown import Document
from docgen.model import Diagnostic

_CODE_PATH = re.compile(r"(?:\./)?[\w.+-]+(?:/[\w.+-]+)*(?:/[\w.+-]*\*[\w.+*-]*)*/?")
"""A relative path in code, maybe ending in patterns (`docker/cuda/**`, `configs/*.yaml`); each pattern
part is read from its first `*` on, one way only (no backtracking on a long span)."""
_PROSE_PATH = re.compile(r"(?<![\w./:@~$-])([\w+-][\w.+-]*(?:/[\w.+-]+){2,})/?(?![\w/])")
"""A path of three parts or more written in plain prose (`samples/model_repository/vllm_model`), not
part of an address (`github.com/a/b`) or of an absolute path."""
_HIDDEN = re.compile(r"`[^`\n]*`|\]\([^()\n]*\)|<[^<>\n]*>|(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://\S*", re.I)
"""Code spans, link targets, HTML tags and addresses: taken out of a line before plain paths are read."""
_FOLDER_WORD = re.compile(r"\b(?:folders?|director(?:y|ies)|dirs?|paths?|under|inside|in)\b", re.I)
"""Words that say a two-part path in code is a folder of the repository (`the `docker/rocm` folder`)."""
_ELSEWHERE = re.compile(
    r"\b(?:creat|generat|renam|download|extract|unzip|untar|mount|clon|instal|export|upload|push|stor)\w*"
    r"|\b(?:writ(?:e|es|ing|ten)|wrote|cop(?:y|ies|ied|ying)|(?:sav|mov|plac|put)(?:e|es|ed|ing)?|puts?)\b"
    r"|\b(?:output|will|would|should|container|image|inside|volume|cache|host|mkdir|touch)\b"
    r"|\b(?:e\.g|for[ \t]+example|such[ \t]+as|like|your|my|own)\b"
    r"|ダウンロード|作成|生成|保存|展開|マウント|キャッシュ|下载|生成|创建|新建|保存|解压|挂载|缓存|다운로드|생성|저장",
    re.I,
)
"""Words of a line saying its path is one the reader, a run or the image makes or holds (`download the
weights to `models/llama-7b``, `mounted at`, `inside the container`, `ダウンロード後`, `下载到`), or an
example (`e.g.`): a path that need not be the repository's."""
_TOOL_MADE = re.compile(r"(?:models|datasets|spaces)--[\w.-]+--[\w.-]+")
"""A folder a download makes with a name of its own: the Hugging Face hub cache's `models--org--name`
(`datasets--`, `spaces--`), never a folder a repository holds."""
_SHOWN = 4
"""The most entries of the parent folder a finding names."""


def lost_folders(
    doc: Document, readme: str, directory: Path, audited: Sequence[str] = (), project: Path | None = None
) -> Iterator[Diagnostic]:
    """A relative path in the prose (in code, or plain with three parts or more) whose first part (two
    for a plain one) is a folder of the repository, read from the README's folder, the repository root
    or an audited Dockerfile's folder, and whose next part, a folder, is not there in any of them, while
    no file a slip away is (`missing.misspelt_paths`): `likely`. The part is a folder when more of the
    path or a pattern (`docker/x/**`) or a `/` follows it, or when it is the last and has no `.` (a
    file's name missing from a folder that is there is the slip rule's to tell, with the file meant). A
    path in code needs a pattern, three parts, a trailing `/` or a word calling it a folder. Not a path
    a command of the README makes, runs or clones, in a generated folder (`build/`), that git ignores,
    with a placeholder, nor in a sentence saying the reader, a run or the image makes or holds it
    (`download`, `mount`, `inside the container`, `e.g.`), nor under a folder that holds nothing but
    hidden files (a place for the reader's data: `models/.gitkeep`). With no repository root found (no
    `.git` nor `pyproject.toml` above the README: a copy of the project's files), the project folder
    holding the README stands for it."""
    bases = list(dict.fromkeys([*prose_bases(directory), *_dockerfile_folders(directory, audited)]))
    root = repository_root(directory)
    if root is None and project is not None and real_path(directory).is_relative_to(real_path(project)):
        bases = list(dict.fromkeys([*bases, project]))
    made = made_names(doc) | in_commands(doc) | {folder or cloned_folder(url) for url, folder in clones(doc)}
    patterns = gitignore_patterns([directory.resolve(), *([root] if root is not None else [])], root)
    listings = Listings()
    texts = line_texts(doc)
    seen: set[str] = set()
    for line, path, fixed, known in _paths(doc, texts):
        if path in seen:
            continue
        parts = path.split("/")[:fixed]
        if any(p in GENERATED or p in ("", ".", "..") for p in parts):
            continue
        missing = _first_missing(bases, parts, known)
        if missing is None:
            continue
        base, index = missing
        if index == len(parts) - 1 and fixed == len(path.split("/")) and "." in parts[index]:
            continue  # a file's name, not a folder's
        if any(p in made or _TOOL_MADE.fullmatch(p) for p in parts[index:]):
            continue  # (the folders it starts in are the repository's: a command may well name them)
        if ignored(base.joinpath(*parts), patterns):
            continue
        if fixed == len(path.split("/")) and prose_fix(bases, path, "", listings) is not None:
            continue  # a slip away from a file: `_misspelt_paths` tells it, with the file meant
        parent = base.joinpath(*parts[:index])
        held = _held(parent)
        if not held:
            continue  # a place for the reader's files, kept by a `.gitkeep`
        if _ELSEWHERE.search(_sentence(texts.get(line, ""), path)):
            continue
        seen.add(path)
        gone = "/".join(parts[: index + 1])
        yield Diagnostic(
            readme,
            line,
            f"README names {path}, but {gone} does not exist{_hint(base, parts, index, held)}",
            confidence=LIKELY,
        )


def _dockerfile_folders(directory: Path, audited: Sequence[str]) -> list[Path]:
    """The folders of the audited Dockerfiles (paths as given: from where docgen runs) other than
    `directory`: a README above several image folders speaks of each one's files from inside it."""
    here = directory.resolve()
    folders = [real_path(Path(a)).parent for a in audited if os.path.isfile(a)]
    return [f for f in folders if f != here]


def _paths(doc: Document, texts: dict[int, str]) -> Iterator[tuple[int, str, int, int]]:
    """(README line, path, how many of its parts are fixed: all but a trailing pattern, how many must
    be folders of the repository: one, two for a plain path) of each path in code in the prose, table
    cells and headings that qualifies (see `lost_folders`), then of each plain path of three parts or
    more in the prose."""
    for line, code in code_paths(doc):
        if not _CODE_PATH.fullmatch(code) or PLACEHOLDER.search(code) or DOMAIN.match(code):
            continue
        path = code.removeprefix("./")
        parts = path.rstrip("/").split("/")
        fixed = next((i for i, p in enumerate(parts) if "*" in p), len(parts))
        if fixed < 2 or is_dockerfile_name(parts[-1]):
            continue  # (a Dockerfile's path is `references`' to check)
        if not (
            fixed < len(parts)
            or fixed >= 3
            or path.endswith("/")
            or _FOLDER_WORD.search(_around(texts.get(line, ""), code))
        ):
            continue
        yield line, "/".join(parts), fixed, 1
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "/" not in text:
                continue
            for found in _PROSE_PATH.finditer(_HIDDEN.sub(" ", text)):
                path = found.group(1).rstrip(".")
                if not PLACEHOLDER.search(path) and not DOMAIN.match(path):
                    yield line, path, path.count("/") + 1, 2


_STOP = re.compile(r"[.!?;][ \t]")
"""The end of a sentence (or of a clause after `;`): `. `, `! `, `? `, `; `."""


def _sentence(text: str, path: str) -> str:
    """The sentence of `text` holding `path` (the whole text when `path` is not in it): what a line
    says of one path is not what its next sentence says of another (`… under x/y. Copy z to w.`)."""
    at = text.find(path)
    if at < 0:
        return text
    start = max((m.end() for m in _STOP.finditer(text, 0, at)), default=0)
    end = _STOP.search(text, at + len(path))
    return text[start : end.start() if end else len(text)]


def _around(text: str, code: str) -> str:
    """The few words of `text` either side of the code span holding `code`."""
    at = text.find(f"`{code}`")
    if at < 0:
        return ""
    return text[max(0, at - 20) : at + len(code) + 22]


def _first_missing(bases: Sequence[Path], parts: Sequence[str], known: int) -> tuple[Path, int] | None:
    """(base, index of the first part not there) when the first `known` parts are folders from some of
    `bases` and, from each of those, the path goes on into a part that is not there; None when the path
    exists from one of them, or starts in no folder of theirs."""
    found: tuple[Path, int] | None = None
    for base in bases:
        if not os.path.isdir(base.joinpath(*parts[:known])):
            continue
        index = known
        while index < len(parts) and os.path.exists(base.joinpath(*parts[: index + 1])):
            index += 1
        if index == len(parts):
            return None
        if found is None:
            found = (base, index)
    return found


def _held(folder: Path) -> list[str]:
    """The entries of `folder` that are not hidden, sorted."""
    try:
        return sorted(e for e in os.listdir(folder) if not e.startswith("."))
    except OSError:
        return []


def _hint(base: Path, parts: Sequence[str], index: int, held: list[str]) -> str:
    """` (there is samples/test_models)`: the missing part found one folder up or more, the rest of the
    path there too; else ` (docker/ holds cuda)`: what the parent holds, when it is a few entries."""
    name, rest = parts[index], parts[index + 1 :]
    for up in range(index - 1, 0, -1):
        if os.path.exists(base.joinpath(*parts[:up], name, *rest)):
            return f" (there is {'/'.join([*parts[:up], name, *rest])})"
    if len(held) <= _SHOWN:
        return f" ({'/'.join(parts[:index])}/ holds {', '.join(held)})"
    return ""
