"""Variants of the image a README lists (tags, tiers, flavours, the entries of a build matrix) that nothing
of the project builds.

A README names the images a project publishes by a key each: `- t0 = SSE3 only` … `- t4 = AVX512`
under "This image has 5 tiers", `` - `5090-cu126` - CUDA 12.8 `` under `### Build Matrix`, `` - `rocm`:
AMD GPUs `` under `### Variants`. The build configuration (a workflow's jobs and matrix, bake targets,
compose services, a build script's loop, Makefile targets, the Dockerfiles' names) spells the keys it
builds out in its text (`build-t0:` … `tags: …:t3-latest`, `tag: 4090`). When most keys of such a list
are spelled there and one is spelled nowhere, the README promises a variant no build makes: one
dropped from the workflow, or one planned and never added (`likely`: the image may be built by hand).

Read only when every key the list does not miss is found (at least two), and the missing ones are no
more than the found ones; a key that is a version or a moving tag (`1.2.0`, `latest`, `nightly`), or an
item saying it is planned, removed or to build yourself, is no key; nor is a built key with a channel or
a version joined to it (`default-nightly`, `cuda-v1.4.0`: a CI tag of that variant, `_channel_of`).
A list under a heading about CI (`## GitHub Actions`, `Build Matrix`) is compared with the workflows
alone; any other with every build file beside the README and the Dockerfiles (and the folders above),
the workflows, the names of the files and folders there, and the README's own build commands. A
missing key that a tag written with a variable next to its text could spell (`rocm${SUFFIX}` for
`rocm-dev`) is not told.

And a key of the same shape as a list's keys when they are a word and a number (`t0` … `t4`) that a line
of prose names with the list's noun (`Try a higher tier like t5`) while nothing builds it.

Comment lines of the build files (`#`) are no build. Every regular expression runs on one line or one
key; the build files are read once an audit.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.memo import per_audit
from docgen.audit.owner_images import build_texts, workflow_texts
from docgen.audit.references import project_top
from docgen.audit.wording import LIST_ITEM
from docgen.markdown import Document, headings_over
from docgen.model import Diagnostic, ImageModel

_KEY_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+(?:(?P<q>`|\*\*|__)(?P<quoted>[A-Za-z0-9][\w.+-]{0,40})(?P=q)"
    r"[ \t]*(?:[:=(]|[-–—][ \t]|\Z)|(?P<bare>[A-Za-z0-9][\w.+-]{0,40})[ \t]*(?:[:=]|[-–—][ \t]))"
)
"""A list item that starts with a key: `` - `rocm`: … ``, `- **t1** - …`, `- t0 = …`, `- cpu: …`."""
_VARIANT_NOUN = re.compile(
    r"\b(variants?|tiers?|flavou?rs?|editions?|matrix|tags?|tagged|images?)\b", re.IGNORECASE
)
"""Words of a heading or an introduction saying a list is of the image's variants."""
_HEADER = re.compile(
    r"[*_` \t]*(?:docker[ \t]+)?(?:image[ \t]+)?(?:tags?|variants?|tiers?|flavou?rs?|editions?|images?)"
    r"[*_` \t]*",
    re.IGNORECASE,
)
"""A table header cell naming the column of the image's variants (`Tag`, `Image tag`, `Variant`)."""
_IMAGES = re.compile(r"\bimages\b|\bimage[ \t]+tags\b", re.IGNORECASE)
_COUNTED = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten)[ \t]+(?:[a-z-]+[ \t]+)?[\"'“*_]*"
    r"([a-z]{3,20}s)\b",
    re.IGNORECASE,
)
"""A noun the variants are counted by (`comes in 4 "levels"`, `five build profiles`)."""
_COUNTED_NOT = frozenset(
    "steps ways options things files folders directories scripts commands parts minutes services ports "
    "volumes arguments variables examples".split()
)
"""Counted nouns that are no variants of an image, unless a variant word is there too."""
_CI = re.compile(
    r"\b(?:github[ \t]+actions?|workflows?|ci(?:/cd)?|pipelines?|build[ \t]+matrix)\b", re.IGNORECASE
)
"""Words saying a list is of what CI builds: compared with the workflows alone."""
_NO_KEY = re.compile(
    r"v?\d+(?:\.\d+)+(?:[-+.]\w+)*|latest|nightly|edge|stable|main|master|develop|sha(?:-\w+)?|pr-\w+"
    r"|\d{1,2}",
    re.IGNORECASE,
)
"""Keys a tagging rule makes from a release, a branch or a commit (or a plain small number)."""
_NOT_BUILT = re.compile(
    r"\b(?:planned|upcoming|coming[ \t]+soon|todo|not[ \t]+(?:yet|built|published|available)|removed"
    r"|deprecated|discontinued|dropped|retired|yourself|manual(?:ly)?|locally|local[ \t]+build|optional"
    r"|experimental|wip|soon|future|community|third[ -]party|external(?:ly)?|elsewhere|upstream)\b",
    re.IGNORECASE,
)
"""Words of an item saying its variant is not built (yet, any more, or by the project)."""
_FILE_KEY = re.compile(r".*\.[A-Za-z]{1,12}\Z|(?:docker|make)file\b.*|readme|licen[cs]e", re.IGNORECASE)
"""A key that is a file's name (`entrypoint.log`, `Dockerfile.cuda12`), not a variant's."""
_COMMENT = re.compile(r"[ \t]*(?:#|//)")
_SHAPED = re.compile(r"([a-z]+)\d+\Z", re.IGNORECASE)
_BUILD_LINE = re.compile(r"\b(?:docker|podman|buildah)[ \t]+(?:buildx[ \t]+)?(?:build|tag|bake)\b|\bmake\b")
"""A README command that builds or tags an image."""
_TAG_TEXT = re.compile(r":([\w.\0-]*(?:[\w.-]\0|\0[\w.-])[\w.\0-]*)")
"""An image tag written with a variable (`\\0` once `_VARIABLE`s are put to it) next to its text
(`:rocm${SUFFIX}`, `:${{ matrix.cuda }}-dev`)."""
_VARIABLE = re.compile(r"\$\{\{[^}\n]{0,200}\}\}|\$\{[^}\n]{0,100}\}|\$\w+")


@dataclass(frozen=True)
class _Listed:
    """A list of keys of the image's variants."""

    keys: tuple[tuple[int, str], ...]
    """(README line, key) of each item that names a variant."""
    noun: str
    """The word the heading or introduction calls them (`tier`, `variant`, `tag`)."""
    ci: bool
    """The list is about what CI builds."""


def _key(text: str) -> str | None:
    """The key a list item starts with, None when it starts with none or names a variant not built."""
    match = _KEY_ITEM.match(text)
    if match is None or _NOT_BUILT.search(text):
        return None
    key = match.group("quoted") or match.group("bare")
    if _NO_KEY.fullmatch(key) or _FILE_KEY.fullmatch(key) or not key[-1].isalnum():
        return None
    return key if len(_RUN.findall(key)) <= _MOST_PARTS else None


_KNOWN_NOUNS = frozenset(
    {"tier", "variant", "flavour", "flavor", "edition", "build matrix entry", "tag", "image"}
)
"""The nouns `_noun` gives from a variant word; any other is a noun the variants are counted by."""
_WEAK_NOUNS = frozenset({"image"})
"""Variant words that name an image as well as a variant of it."""


def _noun(heading: str, intro: str) -> str | None:
    """The word the heading over a list or its introduction call the variants by, the most telling one:
    a variant word (`tier` before `image`), else the noun the introduction counts them by (`comes in 4
    "levels"`); None when they call them none."""
    found = [m.group(1).lower() for m in _VARIANT_NOUN.finditer(f"{heading}\n{intro}")]
    for noun in ("tier", "variant", "flavour", "flavor", "edition", "matrix", "tag"):
        if any(f.startswith(noun) for f in found):
            return "build matrix entry" if noun == "matrix" else noun
    counted = _COUNTED.search(intro)
    if counted is not None and counted.group(1).lower() not in _COUNTED_NOT:
        word = counted.group(1).lower()
        return word[:-3] + "y" if word.endswith("ies") else word.removesuffix("s")
    return "image" if found else None


def _lists(doc: Document) -> Iterator[_Listed]:
    """Each run of list items of the README starting with a key (`_KEY_ITEM`, only their continuations,
    two keys at least, under a heading or after a line that calls them variants (`_VARIANT_NOUN`): the
    heading right over them, not the title of the README (`# Docker image for …` over `## Ports`); about
    CI when that heading, the one holding it or the line before says so (`_CI`)."""
    lines = sorted(
        [(line, text, para.section) for para in doc.paragraphs for line, text in para.lines]
        + [(fence.lines[0][0], "", -1) for fence in doc.fences if fence.lines]
    )
    runs: list[tuple[str, list[tuple[int, str]]]] = []  # (the line before, the run's items)
    sections: list[int] = []  # the section of each run
    before: tuple[int, str, int] = (0, "", -1)  # the last line that is no item: line, text, section
    last = 0  # the line of the last list item that was no key item: it ends a run
    for line, text, section in lines:
        if _KEY_ITEM.match(text) is None:
            if section == -1 or LIST_ITEM.match(text) and not text.rstrip().endswith(":"):
                last = line  # (an item ending in `:` introduces the items after it)
            elif not text[:1].isspace() or text.rstrip().endswith(":"):
                before = (line, text, section)  # (a list item's continuation is no introduction)
            continue
        run = runs[-1][1] if runs else []
        if (
            run
            and sections[-1] == section
            and line - run[-1][0] <= _ITEM_GAP
            and before[0] < run[0][0]
            and last < run[-1][0]
        ):
            run.append((line, text))  # (only its items' continuation lines between)
        else:
            near = before[2] == section and 0 < line - before[0] <= 3 and last < before[0]
            runs.append((before[1] if near else "", [(line, text)]))
            sections.append(section)
    for intro, items in runs:
        keys = tuple((line, key) for line, text in items if (key := _key(text)) is not None)
        if len(keys) < 2:
            continue
        headings = headings_over(doc, items[0][0])
        noun = _noun(headings[0] if headings else "", intro)
        if noun is not None and _images_named(noun, f"{headings[0] if headings else ''}\n{intro}", keys):
            yield _Listed(keys, noun, _CI.search(" ".join([*headings[:2], intro])) is not None)


_CELL_KEY = re.compile(r"[`*_ \t]*([A-Za-z0-9][\w.+-]{0,40})[`*_ \t]*")
"""A table cell that is a key alone (`` `t0` ``, `**cuda**`, `rocm`)."""


def _tables(doc: Document) -> Iterator[_Listed]:
    """Each table of the README whose column headed by a variant word alone (`| Tag |`, `| Variant |`,
    `| Image tag |`, `| Image |` as `_images_named` allows) holds a key a row, two rows at least."""
    for table in doc.tables:
        column = next((i for i, cell in enumerate(table.header) if _HEADER.fullmatch(cell)), None)
        if column is None:
            continue
        keys: list[tuple[int, str]] = []
        for line, cells in table.rows:
            cell = _CELL_KEY.fullmatch(cells[column]) if column < len(cells) else None
            if cell is None or _NOT_BUILT.search(" ".join(cells)):
                continue
            key = cell.group(1)
            if not (_NO_KEY.fullmatch(key) or _FILE_KEY.fullmatch(key)) and key[-1].isalnum():
                keys.append((line, key))
        noun = _noun(table.header[column], "")
        headings = headings_over(doc, table.line)
        words = " ".join([*headings[:1], table.context])
        if noun is None or len(keys) < 2 or not _images_named(noun, words, keys):
            continue
        yield _Listed(tuple(keys), noun, _CI.search(" ".join([*headings[:2], table.context])) is not None)


def _images_named(noun: str, words: str, keys: Sequence[tuple[int, str]]) -> bool:
    """False when a key is not written as a tag is (`Build`, `PyTorch`) while the variants are called
    only `image` or a noun they are counted by (`three layers`), or, for `image`, when the words around
    do not say images (`## Images`, `image tags`): a list of what an image does or is made of, not of
    the images."""
    if noun not in _WEAK_NOUNS and noun in _KNOWN_NOUNS:
        return True
    return all(k == k.lower() for _, k in keys) and (noun != "image" or _IMAGES.search(words) is not None)


@per_audit(maxsize=8)
def _names_around(directory: Path, folders: tuple[str, ...]) -> str:
    """The names of the files and folders in the README's folder and the Dockerfiles' folders."""
    found: list[str] = []
    for folder in (str(directory), *folders):
        try:
            found.extend(entry.name for entry in os.scandir(folder))
        except OSError:
            continue
    return "\n".join(found)


_RUN = re.compile(r"[A-Za-z0-9]+")
_MOST_PARTS = 6
"""The most parts (between `-`, `_`, `.`, `+`) a key has: a longer word is no variant's key."""
_ITEM_GAP = 12
"""The most lines between two items of one list (an item may go on over indented lines)."""
_MOST_KEYS = 64
"""The most keys a list of variants has: a longer list is of something else."""


def _spellings(line: str) -> Iterator[str]:
    """Each key `line` spells as a word of its own (lower case): a run of letters and digits, and runs
    joined by one `-`, `_`, `.` or `+` each, up to `_MOST_PARTS` (`build-t0` spells `build`, `t0` and
    `build-t0`)."""
    runs = list(_RUN.finditer(line))
    for index, first in enumerate(runs):
        end = first.end()
        yield first.group(0).lower()
        for after in runs[index + 1 : index + _MOST_PARTS]:
            if after.start() != end + 1 or line[end] not in "-_.+":
                break
            end = after.end()
            yield line[first.start() : end].lower()


def _index(
    texts: Sequence[tuple[Path, str]],
    extra: Sequence[tuple[Path, Sequence[tuple[int, str]]]] = (),
    names: str = "",
) -> dict[str, tuple[Path, int]]:
    """Each key the build files `texts` (and `extra`, (line, text) already) spell → the first (file,
    line) spelling it, comment lines left out; the names of files and folders `names` at line 0. One
    pass over the files, whatever the number of keys asked."""
    found: dict[str, tuple[Path, int]] = {}
    split = [(file, list(enumerate(body.splitlines(), start=1))) for file, body in texts]
    for file, lines in [*split, *extra]:
        for number, line in lines:
            if _COMMENT.match(line):
                continue
            for spelled in _spellings(line):
                found.setdefault(spelled, (file, number))
    for name in names.splitlines():
        for spelled in _spellings(name):
            found.setdefault(spelled, (Path(name), 0))
    return found


class _Templates:
    """The image tags the build files write with a variable next to their text (`rocm${SUFFIX}`), as
    patterns (a variable any text); whether one may spell a key is asked once a key."""

    def __init__(self, texts: Sequence[tuple[Path, str]]) -> None:
        written = {m.group(1) for _, body in texts for m in _TAG_TEXT.finditer(_VARIABLE.sub("\0", body))}
        self.patterns = [
            re.compile(".*".join(re.escape(p) for p in t.split("\0")), re.IGNORECASE) for t in written
        ]
        self.asked: dict[str, bool] = {}

    def spell(self, key: str) -> bool:
        if key not in self.asked:
            self.asked[key] = any(p.fullmatch(key) for p in self.patterns)
        return self.asked[key]


def variant_lists(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    listed = [one for one in [*_lists(doc), *_tables(doc)] if len(one.keys) <= _MOST_KEYS]
    if not listed:
        return
    top = project_top(directory, project)
    workflow_files = workflow_texts(directory, top)
    texts = [*build_texts(directory, models, readme, top), *workflow_files]
    commands = [(n, text) for fence in doc.fences for n, text in fence.lines if _BUILD_LINE.search(text)]
    names = _names_around(
        directory.resolve(), tuple(str(Path(m.file).resolve().parent) for m in models if m.file)
    )
    every = _index(texts, [(Path(readme), commands)], names)
    on_ci = _index(workflow_files) if any(one.ci for one in listed) else {}
    templates = _Templates(texts)
    listed_keys = {key.lower() for one in listed for _, key in one.keys}
    shaped: dict[str, tuple[_Listed, dict[str, tuple[Path, int]], dict[str, tuple[Path, int]]]] = {}
    for one in listed:
        index = on_ci if one.ci else every
        if not index:
            continue
        found = {key: at for _, key in one.keys if (at := index.get(key.lower())) is not None}
        missing = [(line, key) for line, key in one.keys if key not in found]
        if len(found) < 2 or len(missing) > len(found):
            continue
        shape = _shape(one)
        if shape is not None:
            shaped.setdefault(shape, (one, found, index))
        for line, key in missing:
            if not templates.spell(key) and not _channel_of(key, index):
                yield _finding(readme, line, "lists", one, key, found, directory)
    if shaped:
        yield from _prose_keys(doc, readme, shaped, listed_keys, templates, directory)


_CHANNEL = re.compile(
    r"latest|nightly|edge|stable|main|master|develop|beta|alpha|rc\d*|unstable|testing|weekly"
    r"|daily|v\d+(?:\.\d+)+",
    re.IGNORECASE,
)
"""A word a tagging rule adds to a variant's key: a release channel or a release (`default-nightly`,
`cuda-latest`, `rocm-v1.4.0`), not a variant of its own. A bare version is not one: `cuda-12.4` beside
`cuda` may well be a variant of its own (another CUDA release)."""
_SPLIT = re.compile(r"[-_.]")


def _channel_of(key: str, index: dict[str, tuple[Path, int]]) -> bool:
    """True when `key` is a key the build files spell joined to a release channel or a release at either
    end (`default-nightly`, `nightly-default`, `cuda-v1.4.0`): a tag CI pushes of a variant that is built,
    no Dockerfile target of its own."""
    for match in _SPLIT.finditer(key):
        head, tail = key[: match.start()], key[match.end() :]
        if _CHANNEL.fullmatch(tail) and head.lower() in index:
            return True
        if _CHANNEL.fullmatch(head) and tail.lower() in index:
            return True
    return False


def _finding(
    readme: str,
    line: int,
    verb: str,
    one: _Listed,
    key: str,
    found: dict[str, tuple[Path, int]],
    directory: Path,
) -> Diagnostic:
    shown = ", ".join(f"{k} ({_shown(at, directory)})" for k, at in list(found.items())[:6])
    whom = "the workflows" if one.ci else "the build files"
    return Diagnostic(
        readme,
        line,
        f"README {verb} the {one.noun} {key}, but nothing of the project builds it: {whom} name {shown} "
        f"and never {key}",
        confidence=LIKELY,
    )


def _shape(one: _Listed) -> str | None:
    """The word every key of `one` is followed by a number after (`t` of `t0` … `t4`), three keys at
    least; None when they are not so shaped."""
    words = {m.group(1).lower() if (m := _SHAPED.match(key)) else None for _, key in one.keys}
    if len(one.keys) < 3 or len(words) != 1:
        return None
    return words.pop()


_SHAPED_WORD = re.compile(r"(?<![\w.-])([a-z]+)\d+(?![\w-]|\.\w)", re.IGNORECASE)


def _prose_keys(
    doc: Document,
    readme: str,
    shaped: dict[str, tuple[_Listed, dict[str, tuple[Path, int]], dict[str, tuple[Path, int]]]],
    listed_keys: set[str],
    templates: _Templates,
    directory: Path,
) -> Iterator[Diagnostic]:
    """A key of the shape of a list's keys (`shaped`: the word → the list, its keys found, the index it
    was compared with) that a line of prose names with the list's noun (`a higher tier like t5`) while
    nothing builds it; one pass over the README."""
    told: set[str] = set()
    listed_lines = {line for one, _, _ in shaped.values() for line, _ in one.keys}
    for para in doc.paragraphs:
        for line, text in para.lines:
            if line in listed_lines:
                continue
            for match in _SHAPED_WORD.finditer(text):
                key = match.group(0)
                entry = shaped.get(match.group(1).lower())
                if entry is None or key.lower() in listed_keys or key.lower() in told:
                    continue
                one, found, index = entry
                if not re.search(rf"\b{re.escape(one.noun.split()[0])}", text, re.IGNORECASE):
                    continue
                if key.lower() in index or templates.spell(key):
                    continue
                told.add(key.lower())
                yield _finding(readme, line, "names", one, key, found, directory)


def _shown(at: tuple[Path, int], directory: Path) -> str:
    """Where a key is spelled, as the README's reader finds it."""
    file, line = at
    if line == 0:
        return "a file name"
    return f"{Path(os.path.relpath(file, directory.resolve())).as_posix()}:{line}"
