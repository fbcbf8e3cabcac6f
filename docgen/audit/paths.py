"""Dockerfile names and paths: the image of a family a file name says (`variant`: `cuda` for
`Dockerfile.cuda`), whether a reference (a link, a `-f`) names a Dockerfile and which, and the Dockerfile
names a text mentions; whether a host path is in the home of one named user (`named_home`); and whether
a path the README names may lie in a git submodule the checkout has not fetched (`Submodules`).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import posixpath
import re
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator, Sequence, Set
from pathlib import Path

from docgen.files import is_dockerfile_name, real_path, submodule_folders, text_or_none
from docgen.markdown import Document, code_spans

HEADING_FILE = re.compile(r"[\w./+-]+")


def resolves_inside(path: Path, top: Path) -> bool:
    """True when `path`, its links resolved, is in the folder `top`; False when it cannot be resolved."""
    try:
        return real_path(path).is_relative_to(top)
    except (OSError, ValueError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return False


def folders_above(path: str) -> Iterator[str]:
    """The folders above `path`, nearest first (`/a/b/c`: `/a/b`, `/a`), `/` left out."""
    cut = path.rfind("/")
    while cut > 0:
        path = path[:cut]
        yield path
        cut = path.rfind("/")


def under_any(path: str, folders: Set[str]) -> bool:
    """True when `path` or a folder above it is one of `folders`: a look-up a level of `path`, so that
    many paths against many folders cost their sum, not their product."""
    return path in folders or any(folder in folders for folder in folders_above(path))


def basename(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


_IGNORE_LINES = 2000
"""Lines of an ignore file read: enough for any real one, and a bound on the work a huge one makes."""


def ignore_patterns(file: Path) -> list[str]:
    """The patterns of a `.gitignore` (a `.dockerignore` is read by BuildKit's rules, in
    `docgen.copied.dockerignore`), none when `files.text_or_none` reads none (no regular file: a FIFO
    would wait for a writer forever; too large, unreadable, a link out of the project): its first
    `_IGNORE_LINES` lines, blank lines, comments and negations (`!x`) left out, each without a leading or
    trailing `/`."""
    text = text_or_none(file)
    if text is None:
        return []
    lines = text.splitlines()[:_IGNORE_LINES]
    found = (line.strip().strip("/") for line in lines if not line.strip().startswith(("#", "!")))
    return [pattern for pattern in found if pattern]


def ignores(pattern: str, parts: Sequence[str]) -> bool:
    """True when an ignore file's `pattern` (as `ignore_patterns` gives it) matches the path `parts`,
    relative to the file's folder; read simply, as git reads the common cases: a pattern with an inner `/`
    matches the path's leading parts, any other one matches one of its parts."""
    if "/" in pattern:
        return any(fnmatch.fnmatchcase("/".join(parts[: i + 1]), pattern) for i in range(len(parts)))
    return any(fnmatch.fnmatchcase(part, pattern) for part in parts)


def variant(path: str) -> str | None:
    """The image of a family a Dockerfile's name says, lower case: `gb200` for `envs/Dockerfile.gb200`,
    `cuda` for `cuda.Dockerfile`, `22` for `Dockerfile22`, `rocm` for `ROCmDockerfile`; None for a plain
    `Dockerfile`."""
    name = basename(path)
    for stem in (
        "Dockerfile.",
        "Containerfile.",
        "dockerfile.",
        "Dockerfile-",
        "Dockerfile_",
        "Containerfile-",
    ):
        if name.startswith(stem):
            return name[len(stem) :].lower() or None
    for suffix in (
        ".Dockerfile",
        ".dockerfile",
        ".Containerfile",
        "-Dockerfile",
        "_Dockerfile",
        "_dockerfile",
        "-dockerfile",
    ):
        if name.endswith(suffix):
            return name[: -len(suffix)].lower() or None
    numbered = re.fullmatch(r"(?:Dockerfile|Containerfile)(\d+)", name)
    if numbered:
        return numbered.group(1)  # (`Dockerfile22`: the Ubuntu 22.04 image)
    glued = re.fullmatch(r"([\w.+-]*[a-z0-9])Dockerfile|Dockerfile([A-Z][\w.+-]*)", name)
    return (glued.group(1) or glued.group(2)).lower() if glued else None  # `ROCmDockerfile`: rocm


def same_file(reference: str, path: str) -> int:
    """How many trailing parts of the path `reference` (a link, a `-f`) and the Dockerfile `path` share
    (0: another file): `docker/Dockerfile.rocm` and `Dockerfile.rocm` share 1."""
    a = [p for p in reference.replace("\\", "/").split("/") if p not in ("", ".")]
    b = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    shared = 0
    while shared < min(len(a), len(b)) and a[-1 - shared] == b[-1 - shared]:
        shared += 1
    return shared


def same_path(a: str, b: str) -> bool:
    """True when the one of the paths `a` and `b` is the end of the other (`docker/Dockerfile.cuda`,
    `Dockerfile.cuda`): the same file, seen from two folders."""
    parts = [len([p for p in x.replace("\\", "/").split("/") if p not in ("", ".")]) for x in (a, b)]
    return same_file(a, b) == min(parts)


def matching(reference: str, paths: Sequence[str]) -> set[int]:
    """The indices of the Dockerfiles in `paths` that `reference` names (the closest match)."""
    scores = [same_file(reference, p) for p in paths]
    best = max(scores, default=0)
    return {i for i, score in enumerate(scores) if score == best} if best else set()


_STRAY = re.compile(r"\^[@A-Z\[\\\]^_?]|\^|[\x00-\x08\x0b-\x1f\x7f]")
"""A character a terminal or a paste left in a path: a control character (`\\x12`), the way a terminal
shows one (caret notation, `^C`), or a lone caret. No file name of a project holds one."""


def own_page(readme: str, dockerfile: str) -> bool:
    """True when the README is the Dockerfile's own page by name, in its folder: `r36.base.md` for
    `r36.base.Dockerfile` or `Dockerfile.r36.base`."""
    folder, _, name = readme.replace("\\", "/").rpartition("/")
    other, _, file = dockerfile.replace("\\", "/").rpartition("/")
    stem = name.rsplit(".", 1)[0].lower() if "." in name else ""
    file = file.lower()
    if folder != other or not stem or stem == "readme":
        return False
    return file in (f"{stem}.dockerfile", f"dockerfile.{stem}", f"{stem}.containerfile")


def path_named(file: str, paths: Sequence[str]) -> int | None:
    """The index of the one path of `paths` a build command's `-f` names, as a path ending the same way
    (`-f containers/debian/Dockerfile` for `containers/debian/Dockerfile`, `-f docker/Dockerfile.l4t35`
    for `repo/docker/Dockerfile.l4t35`): a Dockerfile of the same name in another folder (`-f
    base/Dockerfile` for `app/Dockerfile`) is another image. None when no path, or several, end so."""
    wanted = posixpath.normpath(file.replace("\\", "/")).lstrip("./")
    found = [
        index
        for index, path in enumerate(posixpath.normpath(p.replace("\\", "/")) for p in paths)
        if path == wanted or path.endswith("/" + wanted) or wanted.endswith("/" + path)
    ]
    return found[0] if len(found) == 1 else None


def stray(path: str) -> str | None:
    """The first stray character of `path` (`_STRAY`) as a reader sees it: `^C` as written, a control
    character in caret notation (`^R` for `\\x12`); None when it has none."""
    found = _STRAY.search(path)
    if found is None:
        return None
    shown = found.group()
    return f"^{chr(ord(shown) ^ 0x40)}" if len(shown) == 1 and shown != "^" else shown


def without_stray(path: str) -> str:
    """`path` with its stray characters (`_STRAY`) taken out: `rocmocblas.ub22.Dockerfile` for
    `rocm^Cocblas.ub22.Dockerfile`."""
    return _STRAY.sub("", path)


def meant_by_stray(path: str, candidates: Sequence[str]) -> int | None:
    """The index of the one path of `candidates` that `path`, whose name holds a stray character,
    means: the same folder, and a name with the text on each side of the stray characters and at most
    three characters between them (`rocm-rocblas.ub22.Dockerfile` for `rocm^Cocblas.ub22.Dockerfile`:
    the stray replaced `-r`). None when no candidate or several match."""
    folder, _, name = path.replace("\\", "/").rpartition("/")
    pieces = _STRAY.split(name)
    if len(pieces) < 2 or not "".join(pieces):
        return None
    pattern = re.compile(".{0,3}".join(re.escape(p) for p in pieces), re.DOTALL)
    found = [
        i
        for i, candidate in enumerate(candidates)
        if pattern.fullmatch(basename(candidate))
        and candidate.replace("\\", "/").rstrip("/").rpartition("/")[0].removeprefix("./")
        == folder.removeprefix("./")
    ]
    return found[0] if len(found) == 1 else None


VAGUE_PARTS = frozenset({"latest", "main", "base", "build", "dev", "devel", "release", "new", "old", "full"})
"""Words of a Dockerfile's name that say no more than "some image" (`Dockerfile.vllm.latest`)."""


@functools.lru_cache(maxsize=1024)
def path_flavour(path: str) -> str | None:
    """The image a Dockerfile's path says, lower case: its `variant` (`cuda` for `Dockerfile.cuda` and
    `cuda.Dockerfile`), else the folder of a plain `Dockerfile` (`cuda` for `cuda/Dockerfile`)."""
    found = variant(path)
    if found is not None:
        return found
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return parts[-2].lower() if len(parts) >= 2 else None


def reference_path(target: str) -> str:
    """The path a link or `-f` names: no `#anchor` or `?query`, %-escapes decoded."""
    return urllib.parse.unquote(target.split("#", 1)[0].split("?", 1)[0])


def files_named(text: str) -> list[str]:
    """The Dockerfile names a text mentions: in code (`` `Dockerfile` ``, `` `Dockerfile.standalone` ``)
    or as words other than a plain `Dockerfile` (which, outside code, is the kind of file), unless it is
    in a list with another name (`Dockerfile and Dockerfile.slim`)."""
    found = [c.strip() for _, _, c in code_spans(text, html_code=True)]
    words = _CODE_SPAN.sub(" ", text)
    found += [w for w in HEADING_FILE.findall(words) if w not in ("Dockerfile", "Containerfile")]
    found = [n for n in found if is_dockerfile_name(basename(n))]
    if found:
        found += [m.group() for m in _LISTED_PLAIN.finditer(words)]
    return list(dict.fromkeys(found))


_CODE_SPAN = re.compile(r"`[^`]*`")
_LISTED_PLAIN = re.compile(
    r"(?<![\w./-])(?:Dockerfile|Containerfile)(?=[ \t]*(?:,|&|\band\b))"
    r"|(?<=\band[ \t])(?:Dockerfile|Containerfile)(?![\w./-])"
)


_NAME_SPLIT = re.compile(r"[-_+]+|\.(?!\d|post\d|rc\d|dev\d)")
_NAME_PART = re.compile(r"([a-z]+?)v?(\d[\w.]*)?")
_PLAIN_PARTS = VAGUE_PARTS | {"app", "dockerfile", "containerfile", "docker", "image", "images"}
"""Words of a Dockerfile's name or folder that a tag naming the image need not repeat (`app`)."""


@functools.lru_cache(maxsize=4096)
def _name_parts(text: str) -> tuple[tuple[str, str], ...]:
    """(word, version) of each part of an image tag or a Dockerfile's variant: `sglang0.4.9.post6`,
    `mcore0.13` for `app.sglang0.4.9.post6.mcore0.13`, and for the tag `…-sglang0.4.9.post6-mcore0.13.0`;
    a part without a version has version `""`. Parts that do not start with a letter are left out."""
    found = []
    for token in _NAME_SPLIT.split(text.lower()):
        match = _NAME_PART.fullmatch(token)
        if match:
            found.append((match.group(1), match.group(2) or ""))
    return tuple(found)


def _part_named(part: tuple[str, str], tag: Sequence[tuple[str, str]], same: Callable[[str], str]) -> bool:
    """Whether a part of a Dockerfile's name (`mcore0.13`) is among the parts of a tag (`mcore0.13.0`):
    the same word (`same` normalises it: `megatron` is `mcore`) and, when the part has a version, one the
    tag's starts with."""
    word, version = part
    return any(
        same(word) == same(other) and (not version or seen == version or seen.startswith(version + "."))
        for other, seen in tag
    )


def _folders(path: str) -> list[str]:
    """The folders of a Dockerfile's path, outermost first (no `.` or `..`). A path with none that is a
    file from the current folder (`docgen audit README.md` run inside `verl0.5-preview-cu128/`) has the
    folder it is in: what a name says of the image must not hang on where the command is run from."""
    folders = [p for p in path.replace("\\", "/").split("/")[:-1] if p not in ("", ".", "..")]
    return folders or _own_folder(path)


@functools.lru_cache(maxsize=1024)
def _own_folder(path: str) -> list[str]:
    """[the name of the folder holding `path`] when `path` is a file from the current folder, else []."""
    try:
        place = real_path(Path(path))
        return [place.parent.name] if os.path.isfile(place) and place.parent.name else []
    except (OSError, RuntimeError):
        return []


def _named_telling(
    parts: Sequence[tuple[str, str]], wanted: Sequence[tuple[str, str]], same: Callable[[str], str]
) -> list[tuple[str, str]]:
    """The parts of the name `parts` that say which image it is (not `app`, `base`) when each is among
    the parts `wanted` (of a tag or a key; `_part_named`); none otherwise, or when no part says it."""
    telling = [p for p in parts if p[0] not in _PLAIN_PARTS]
    return telling if all(_part_named(p, wanted, same) for p in telling) else []


def tag_names(tag: str, path: str, same: Callable[[str], str] = str) -> int:
    """How closely the image tag `tag` names the Dockerfile `path` (0: it does not): every word of the
    Dockerfile's variant that says which image it is (not `app`, `base`) is a part of the tag, with a
    version the tag's starts with (`Dockerfile.app.vllm.mcore0.12` for `app-verl0.5-vllm0.10.0-mcore0.12.2`,
    not `Dockerfile.app.sglang.vllm.mcore0.12` nor `….mcore0.13`). The score is the length of what the tag
    repeats of the variant and of the Dockerfile's folder (`verl0.5-cu126-…/`), at least two of their
    words: the most specific Dockerfile named scores most."""
    name = variant(path)
    if not name:
        return 0
    wanted = _name_parts(tag)
    parts = _name_parts(name)
    if not _named_telling(parts, wanted, same):
        return 0
    folders = _folders(path)
    around = _name_parts(folders[-1]) if folders else ()
    matched = [(w, v) for w, v in parts + around if _part_named((w, v), wanted, same)]
    if len(matched) < 2:
        return 0  # one word (`cuda` of `pytorch:2.4.0-cuda12.1`) is a component the tag names, not the file
    return sum(len(w) + len(v) + 1 for w, v in matched)


def folder_names(key: str, path: str, same: Callable[[str], str] = str) -> tuple[int, bool]:
    """How closely `key` (a README's name for one image of a family: `cu117-py38-u20`, `cuda-tpls-sm70`)
    names the Dockerfile `path`, and whether it names it exactly. A Dockerfile named for its image
    (`Dockerfile.cuda`) is named as an image tag names it (`tag_names`); a plain `Dockerfile` by its
    folder: every word of the folder that says which image it is, with its version, is a part of the key
    (`cu117-py38-u20/Dockerfile` for `cu117-py38-u20`, `cuda-tpls/Dockerfile` for `cuda-tpls-sm70`, not
    `cuda-tpls/Dockerfile` for `cuda-sm70`). Exact: the key has no other part. (0, False): not named."""
    wanted = _name_parts(key)
    if variant(path):
        score = tag_names(key, path, same)
        return score, bool(score) and len(wanted) == len(_name_parts(variant(path) or ""))
    folders = _folders(path)
    if not folders:
        return 0, False
    parts = _name_parts(folders[-1])
    telling = _named_telling(parts, wanted, same)
    if not telling:
        return 0, False
    score = sum(len(w) + len(v) + 1 for w, v in telling)
    return score, len(wanted) == len(parts)


def _one_release(mine: str, seen: str) -> bool:
    """Whether the versions a Dockerfile's name (`mine`) and an image tag (`seen`) give one word can be
    one release: one starts with the other, part by part when both have dots (`2.6` and `2.6.0`, not
    `2.7.1`; `0.12` and `0.12.1`), else digit by digit (`124` and `12.4`, `12` and `124`; not `126`)."""
    if "." in mine and "." in seen:
        ours, theirs = mine.split("."), seen.split(".")
        shared = min(len(ours), len(theirs))
        return ours[:shared] == theirs[:shared]
    ours_digits, theirs_digits = mine.replace(".", ""), seen.replace(".", "")
    return ours_digits.startswith(theirs_digits) or theirs_digits.startswith(ours_digits)


def spelled_releases(tag: str, path: str, same: Callable[[str], str] = str) -> tuple[int, int]:
    """(same, other): how many words with a version of the Dockerfile's name and folder (`verl0.4`,
    `cu124`, `torch2.6` of `verl0.4-cu124-torch2.6/Dockerfile.app`, `mcore0.12` of
    `Dockerfile.app.sglang.mcore0.12`) the image tag `tag` spells with a version too, as one release of
    that word (`app-verl0.4-…-mcore0.12.1`) or another (`app-verl0.5-cu126-…`). A tag spelling a word of
    the name with another release is the tag of another image of the family."""
    folders = _folders(path)
    parts = _name_parts(variant(path) or "") + (_name_parts(folders[-1]) if folders else ())
    wanted = [(same(word), version) for word, version in _name_parts(tag) if version]
    agree = differ = 0
    for word, version in dict.fromkeys(parts):
        seen = [other for key, other in wanted if key == same(word)] if version else []
        if seen:
            if any(_one_release(version, other) for other in seen):
                agree += 1
            else:
                differ += 1
    return agree, differ


def names_other_image(
    tag: str, paths: Sequence[str], same: Callable[[str], str] = str, apart: int = 1
) -> bool:
    """True when the image tag `tag` is written as the names of the Dockerfiles `paths` are (it spells
    two words with a version of one of them, `spelled_releases`) and is the tag of none of them: it
    spells `apart` words of each one's name or more with another release (`base-verl0.5-cu126-…` for
    `verl0.4-cu124-…/Dockerfile.base`), or that Dockerfile's name says which image it is with words the
    tag does not repeat (`Dockerfile.rocm`). A plain `Dockerfile` in a folder whose name has no version
    the tag spells may be that tag's image: not another's."""
    counts = [spelled_releases(tag, path, same) for path in paths]
    if not any(agree + differ >= 2 for agree, differ in counts):
        return False
    said = {same(word) for word, _ in _name_parts(tag)}
    for path, (agree, differ) in zip(paths, counts, strict=True):
        if differ >= apart:
            continue
        if agree:
            return False
        telling = [word for word, _ in _name_parts(variant(path) or "") if word not in _PLAIN_PARTS]
        if not telling or any(same(word) in said for word in telling):
            return False
    return True


def path_words(path: str) -> set[str]:
    """The words (without versions) of a Dockerfile's variant and folder: `preview` for
    `verl0.5-preview-cu128/Dockerfile.app.sglang` and for `Dockerfile.app.mcore0.13.preview`."""
    folders = _folders(path)
    texts = [variant(path) or ""] + folders[-1:]
    return {word for text in texts for word, _ in _name_parts(text)}


HOME_OF_USER = re.compile(r"(?:/home/|/Users/|[A-Za-z]:[\\/]Users[\\/])([^/\\]+)[/\\]", re.IGNORECASE)
"""A folder in the home of a named user of one machine (`/home/akira/`, `/Users/jdoe/`, `C:\\Users\\x\\`)."""
_STAND_INS = frozenset(
    "user username users me you name yourname myuser myname ubuntu root docker admin guest shared public"
    " default test demo example host dev developer vagrant ec2-user pi runner jovyan".split()
)
"""Names of a home folder that stand for anyone's (`/home/user/`) or a stock machine's (`/home/ubuntu/`)."""


def named_home(host: str) -> tuple[str, str] | None:
    """(user name, what follows the home folder) when `host` is a folder in the home of a named user of
    one machine (`/home/akira/.cache` → (`akira`, `.cache`), `/Users/jdoe/x`, `C:\\Users\\x\\y`); None for
    a name that stands for anyone's (`/home/user/`), one with a placeholder or a variable in it, or
    another path."""
    if any(c in host for c in "<>{}$%`"):
        return None
    found = HOME_OF_USER.match(host)
    if found is None:
        return None
    name = found.group(1).lower()
    if name in _STAND_INS or name.startswith(("your", "my", "<")):
        return None
    return found.group(1), host[found.end() :]


_FETCHES_SUBMODULES = re.compile(
    r"\bgit[ \t]+clone\b[^\n`]*?[ \t]--(?:recursive|recurse-submodules)\b"
    r"|\bgit[ \t]+submodule[ \t]+(?:update|init|sync|foreach)\b"
    r"|\bgit[ \t]+(?:pull|checkout|switch|fetch)\b[^\n`]*?[ \t]--recurse-submodules\b"
)
"""A command that fetches a repository's submodules: `git clone --recursive`, `git submodule update
--init`, `git pull --recurse-submodules`."""
_WORD = re.compile(r"[\w][\w.-]*")


class Submodules:
    """Which paths the README names may lie in a git submodule the checkout has not fetched, so that
    their absence says nothing: one the nearest `.gitmodules` lists (`docgen.files.submodule_folders`); one
    under an empty folder (git keeps no empty folder: a checkout holds one only for a submodule not
    fetched); and, when the README tells the reader to fetch submodules (`git clone --recursive`, `git
    submodule update --init`: `_FETCHES_SUBMODULES`) and no `.gitmodules` lists the submodules (a
    copy of the repository's files), one under a folder that is not there and that the README names
    elsewhere too (`the robo360 submodule`, `in the XMem folder [here](XMem/README.md)`). The README's
    words are read once, on first use."""

    def __init__(self, doc: Document) -> None:
        self._doc = doc
        self._text: str | None = None
        self._fetches: bool | None = None
        self._words: Counter[str] | None = None

    def holds(self, full: Path, base: Path) -> bool:
        """True when `full` (a path the README names, read from the folder `base`) may be in a submodule
        not fetched."""
        try:
            listed = submodule_folders(base)
            full = real_path(full)
        except (OSError, ValueError, RuntimeError):
            return False
        if any(full == sub or full.is_relative_to(sub) for sub in listed):
            return True
        folder, below = full.parent, full
        while not os.path.isdir(folder):  # the nearest folder of the path that is there
            if folder == folder.parent:
                return False
            folder, below = folder.parent, folder
        try:
            with os.scandir(folder) as entries:
                empty = next(entries, None) is None
        except OSError:
            empty = False
        if empty:
            return True
        if below == full:
            return False  # the folder holding the file is there: the file is what is missing
        if self._text is None:
            doc = self._doc
            lines = [t for p in doc.paragraphs for _, t in p.lines] + [
                t for f in doc.fences for _, t in f.lines
            ]
            lines += [" ".join(cells) for table in doc.tables for _, cells in table.rows]
            self._text = "\n".join(lines + [t for _, t in doc.headings])
            self._fetches = _FETCHES_SUBMODULES.search(self._text) is not None
        if not self._fetches or listed:
            return False  # (a `.gitmodules` says which folders are submodules)
        if self._words is None:
            self._words = Counter(w.rstrip(".") for w in _WORD.findall(self._text))
        return self._words[below.name] >= 2  # named once by the path itself, and again elsewhere
