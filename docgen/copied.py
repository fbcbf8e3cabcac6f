"""The build-context files a Dockerfile's COPY and ADD put in the image: the one reader of them, for the
extraction (`docgen.manifests`: which file is at the path a `pip install -r` reads, `placed`) and for
every audit rule (`contents`, `left_over`, `conda_python`, `ports`, `image_paths`, `work_dirs`,
`mount_targets`, `included_paths`, `run_time`, `overrides`, `settings`, `dropped`; `references` and
`moved_scripts` read COPY sources as paths with `context_path`, `moved_scripts` matches them with
`copies_path`, `settings` and `run_time` match a file's name with a source's last part by
`glob_matches`, and `references` reads a `.dockerignore` with `dockerignore`).

A source is read as BuildKit reads it: quotes taken off, from the context's top (`/app.py` and `./app.py`
are `app.py`), a glob matched as BuildKit matches it (Go's `filepath.Match` over each context path: `*`
within one name, a name starting with a dot too, `**` no deeper than `*`), a folder copied with every
file below it. What the context does not hold is not read: a URL or a git repository, a path above the
context (`..`), a link that leads out of it, a path with a variable the build did not give, and a file
the `.dockerignore` leaves out (the Dockerfile's own, `Dockerfile.dockerignore`, else the context's).
Nothing here reads a file's text but `copied_texts`, within `TEXT_LIMIT` and `FILE_LIMIT`.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from docgen.files import real_path
from docgen.model import ContextCopy

TEXT_LIMIT = 4_000_000
"""Bytes of build-context files read at most for one Dockerfile; past it, what it copies is unread."""
FILE_LIMIT = 2_000
"""Build-context files read at most for one Dockerfile."""
_IGNORE_LINES = 2_000
"""Lines of a `.dockerignore` read: enough for any real one, and a bound on the work a huge one makes."""


@dataclass(frozen=True)
class CopiedFile:
    """One file of the build context a COPY or ADD puts in the image, or (`path` None) a source of one
    that names nothing in the context."""

    source: str
    """The COPY source that names it, as written (`ContextCopy.sources`)."""
    stage: int
    """Index of the stage it is copied into."""
    line: int
    """1-based Dockerfile line of the COPY or ADD."""
    dest: str
    """Where it lands in the image: the COPY's destination, with the file's name (and its path below a
    folder copied) added when it goes into a folder (a destination ending in `/` or `.`, several
    sources, a glob matching several files); as written (`./` stays relative)."""
    path: Path | None
    """The file in the build context, as found (links not resolved); None for a source naming nothing."""

    @property
    def name(self) -> str:
        """The file's name (`run.sh`)."""
        return self.path.name if self.path is not None else ""


def context_path(source: str) -> str | None:
    """A COPY or ADD source as a path of the build context, as BuildKit reads it: quotes off, from the
    context's top (`/a`, `./a` → `a`; `.`, `/`, `./` → `.`), normalised; None for what the context does
    not hold: a URL, a git repository, a path above the context (`../a`), a malformed JSON word."""
    word = source.strip("\"'")
    if "://" in source or word.startswith("git@") or source.startswith("[") or above_context(source):
        return None
    return posixpath.normpath(word.lstrip("/")) if word.strip("./") else "."


def above_context(source: str) -> bool:
    """True when the COPY source `source` is a path above the build context (`../shared/run.sh`): no
    build of this context can copy it."""
    word = source.strip("\"'").lstrip("/")
    return "://" not in source and ".." in word.split("/") and posixpath.normpath(word).startswith("..")


@functools.lru_cache(maxsize=256)
def copy_glob(pattern: str) -> re.Pattern[str] | None:
    """The COPY or ADD source `pattern` (a path of the build context, `context_path`) as a regular
    expression over a context path, as BuildKit matches it: Go's `filepath.Match` over the whole path
    (not Python's `fnmatch`): `*` and `?` within one name, so `*.sh` is no file in a folder and `**` is no
    deeper than `*`; `[…]` a class, `[^…]` one that leaves its letters out (`[!…]` is a class holding `!`);
    `\\` takes the next letter as written. None for a pattern Go refuses (an unclosed class)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            if not out or out[-1] != "[^/]*":  # `**` is `*`: one star, no backtracking over a long name
                out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        elif c == "[":
            end = pattern.find("]", i + 1)
            body = pattern[i + 1 : end].removeprefix("^") if end > 0 else ""
            if not body:
                return None
            letters = re.sub(r"\\(.)", r"\1", body)  # `\\x` in a class is `x`; a range (`a-z`) stays one
            negated = "^" if pattern.startswith("[^", i) else ""
            out.append("[" + negated + "".join(ch if ch == "-" else re.escape(ch) for ch in letters) + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    try:
        return re.compile("".join(out))
    except re.error:
        return None  # a range Go refuses too (`[z-a]`)


def copies_path(pattern: str, path: str) -> bool:
    """True when the COPY source `pattern` (read by `context_path`) copies the context path `path`: it
    names the file or a folder above it, or, a glob, matches it or a folder above it (BuildKit copies a
    folder a glob matches whole)."""
    if pattern == "." or path == pattern or path.startswith(pattern + "/"):
        return True
    parts = path.split("/")
    return any(glob_matches(pattern, "/".join(parts[: i + 1])) for i in range(len(parts)))


def glob_matches(pattern: str, path: str) -> bool:
    """True when the COPY source `pattern` (a glob, `copy_glob`) matches the context path `path` itself
    (a name alone too: `*.sh` and `start.sh`), as BuildKit matches it; False for a pattern Go refuses."""
    glob = copy_glob(pattern)
    return glob is not None and glob.fullmatch(path) is not None


def without_whole_context(copies: Sequence[ContextCopy]) -> tuple[ContextCopy, ...]:
    """`copies` with each source that copies the whole build context (`COPY . /app`) left out: for a
    rule that reads the files a Dockerfile names, not a project copied in whole (its README, course
    material)."""
    return tuple(replace(c, sources=tuple(w for w in c.sources if context_path(w) != ".")) for c in copies)


def matched(folder: Path, pattern: str) -> list[Path]:
    """The paths of the build context `folder` a source read by `context_path` names, sorted, found as
    BuildKit finds them: a path as written (`src/` is the folder `src`), or, a glob, each path of the
    context walked once and matched as `glob_matches` does (`*.txt` no file in a folder, `**` no deeper
    than `*`), a folder that matches taken whole, not walked for more, a link to a folder not walked;
    `folder` itself for `.`; none for a path with a variable the build did not give (`${NAME}`); a
    pattern Go refuses (`a[b`) names only the path written so (as `copies_path` reads it). The walk
    starts below the pattern's first wildcard-free folders (`src/*.py` reads `src` alone) and goes no
    deeper than the pattern's names can reach."""
    if pattern == ".":
        return [folder]
    if "$" in pattern:
        return []
    glob = copy_glob(pattern) if _WILDCARD.search(pattern) else None
    if glob is None:
        # (`os.path.exists`: a name longer than the file system allows is no file; `Path.exists` raises)
        return [folder / pattern] if os.path.exists(folder / pattern) else []
    names = pattern.split("/")
    fixed = 0
    while fixed < len(names) - 1 and not _WILDCARD.search(names[fixed]):
        fixed += 1
    start = folder.joinpath(*names[:fixed])
    if any(os.path.islink(folder.joinpath(*names[: n + 1])) for n in range(fixed)):
        return []  # a link to a folder: BuildKit's walk does not go into it
    depth = len(names) + _slash_classes(pattern)
    # each name of a match is matched by the pattern's name at its place (no class may match a `/`): a
    # folder is walked only when its name matches (`d[0-3]` of `src/d[0-3]/*.py`)
    each = [copy_glob(name) for name in names] if depth == len(names) and "\\" not in pattern else []
    found: list[Path] = []
    for top, folders, files in os.walk(start):
        below = Path(top).relative_to(folder).as_posix()
        level = 1 if below == "." else below.count("/") + 2
        taken = {
            name
            for name in (*folders, *files)
            if (relative := name if below == "." else below + "/" + name) == pattern
            or glob.fullmatch(relative)
        }
        found += (Path(top, name) for name in taken)
        step = each[level - 1] if each else None
        folders[:] = [
            name
            for name in folders
            if level < depth and name not in taken and (step is None or step.fullmatch(name))
        ]
    return sorted(found)


def _slash_classes(pattern: str) -> int:
    """How many classes of the glob `pattern` may match a `/` (`[^a]`, `[.-0]`): each lets a match
    reach one folder deeper than the pattern's names."""
    count = i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 1
        elif pattern[i] == "[" and (end := pattern.find("]", i + 1)) > 0:
            glob = copy_glob(pattern[i : end + 1])
            count += glob is not None and glob.fullmatch("/") is not None
            i = end
        i += 1
    return count


_WILDCARD = re.compile(r"[*?\[\\]")
"""A letter that makes a COPY source a glob (`\\` too: it takes the next letter as written)."""


_VCS_FOLDERS = frozenset({".git", ".hg", ".svn"})
"""Folders of version control, whose files no rule reads."""


def _files_below(path: Path) -> Iterator[Path]:
    """`path` when it is a file, else every file below the folder `path`, in order (links to folders
    not followed below it). A version-control folder (`.git`) below `path` is not walked: BuildKit sends it
    unless `.dockerignore` leaves it out, but no rule reads its objects, and a checkout's `.git` alone may
    hold more files than docgen reads (`FILE_LIMIT`), which would leave the files that matter unread."""
    if os.path.isfile(path):
        yield path
        return
    for top, folders, files in os.walk(path):
        folders[:] = sorted(name for name in folders if name not in _VCS_FOLDERS)
        for name in sorted(files):
            each = Path(top, name)
            if os.path.isfile(each):
                yield each


def _inside(path: Path, folder: Path) -> bool:
    """True when `path`, its links resolved, is in the resolved `folder` (a link out of the build
    context: BuildKit copies the link, not what it leads to)."""
    try:
        return path.resolve().is_relative_to(folder)
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return False


def ignore_file(folder: Path, dockerfile: str | None) -> Path | None:
    """The `.dockerignore` BuildKit reads for a build of `dockerfile` with the context `folder`: the
    Dockerfile's own (`Dockerfile.rocm.dockerignore` beside it), else the context's."""
    own = Path(dockerfile + ".dockerignore") if dockerfile else None
    for file in (own, folder / ".dockerignore"):
        if file is not None and os.path.isfile(file):
            return file
    return None


IgnoreRules = tuple[tuple[re.Pattern[str], bool], ...]
"""The lines of a `.dockerignore` as `ignored` reads them: (pattern, whether it leaves a path out)."""


def dockerignore(folder: Path, dockerfile: str | None = None) -> IgnoreRules:
    """The rules of the `.dockerignore` BuildKit reads for a build of the Dockerfile at `dockerfile`
    (its own `NAME.dockerignore` first) with the context `folder`; () when there is none."""
    file = ignore_file(folder, dockerfile)
    return ignore_rules(file) if file is not None else ()


def _glob_regex(pattern: str) -> str:
    """A `.dockerignore` pattern as a regular expression over a context path, as BuildKit's pattern
    matcher reads it: `**` any number of folders, `*` and `?` within one name, `[…]` a class."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):
                out.append("(?:.*/)?")
                i += 1
            else:
                out.append(".*")
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and (end := pattern.find("]", i + 1)) > i + 1:
            body = pattern[i + 1 : end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=32)
def ignore_rules(file: Path) -> IgnoreRules:
    """(pattern, excludes) of each line of the `.dockerignore` `file`: comments and blank lines left
    out, `!` a pattern that takes a path back in, a leading `/` and `./` dropped."""
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()[:_IGNORE_LINES]
    except OSError:
        return ()
    rules: list[tuple[re.Pattern[str], bool]] = []
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        excludes = not text.startswith("!")
        text = posixpath.normpath(text.lstrip("!").strip().lstrip("/"))
        if text in (".", "") or text.startswith(".."):
            continue
        try:
            rules.append((re.compile(_glob_regex(text)), excludes))
        except re.error:
            continue  # a class BuildKit refuses too (`[z-a]`): the build fails, nothing is left out here
    return tuple(rules)


def ignoring_line(file: Path, relative: str) -> tuple[int, str] | None:
    """(line, pattern as written) of the line of the `.dockerignore` `file` that leaves the context path
    `relative` out (the last pattern deciding it, as `ignored` reads them); None when none does."""
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()[:_IGNORE_LINES]
    except OSError:
        return None
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    found: tuple[int, str] | None = None
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        excludes = not text.startswith("!")
        pattern = posixpath.normpath(text.lstrip("!").strip().lstrip("/"))
        if pattern in (".", "") or pattern.startswith(".."):
            continue
        try:
            regex = re.compile(_glob_regex(pattern))
        except re.error:
            continue
        if (excludes != (found is not None)) and any(regex.fullmatch(p) for p in prefixes):
            found = (number, text) if excludes else None
    return found


def ignored(relative: str, rules: Sequence[tuple[re.Pattern[str], bool]]) -> bool:
    """True when the `.dockerignore` `rules` leave the context path `relative` out: the last pattern
    matching it or a folder above it decides (`!keep.sh` takes back what `*.sh` left out)."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    left_out = False
    for pattern, excludes in rules:
        if excludes != left_out and any(pattern.fullmatch(p) for p in prefixes):
            left_out = excludes
    return left_out


def copied_files(
    folder: Path, copies: Sequence[ContextCopy], dockerfile: str | None = None
) -> Iterator[CopiedFile]:
    """Each file of the build context `folder` (resolved) the COPY and ADD `copies` of the Dockerfile
    at `dockerfile` put in the image, in Dockerfile order, folders walked; a source (`context_path`) that
    names nothing there (or only what the `.dockerignore` leaves out) as one `CopiedFile` with no path.
    A here-document and what the context does not hold (`context_path` None, a link out of it) give
    nothing. Lazy: a caller reads as far as its limits let it."""
    rules = dockerignore(folder, dockerfile)
    for copy in copies:
        if copy.heredoc:
            continue
        target = copy.dest.strip("\"'")
        into = target.endswith("/") or target in (".", "./") or len(copy.sources) > 1
        for source in copy.sources:
            pattern = context_path(source)
            if pattern is None:
                continue
            tops = matched(folder, pattern)
            kept = left_out = 0
            for top in tops:
                if not _inside(top, folder):
                    continue  # a link to a folder out of the context: not listed
                for path in _files_below(top):
                    if not _inside(path, folder):
                        continue
                    if rules and ignored(path.relative_to(folder).as_posix(), rules):
                        left_out += 1
                        continue
                    kept += 1
                    if path != top:  # a file of a folder copied: its path below the folder
                        dest = target.rstrip("/") + "/" + path.relative_to(top).as_posix()
                    elif into or len(tops) > 1:  # (a glob matching one file: `dest` is that file)
                        dest = target.rstrip("/") + "/" + path.name
                    else:
                        dest = target
                    yield CopiedFile(source, copy.stage, copy.line, dest, path)
            if not tops or (left_out and not kept):
                yield CopiedFile(source, copy.stage, copy.line, target, None)


def placed(
    folder: Path, copy: ContextCopy, place: str, workdir: str = "/", rules: IgnoreRules = ()
) -> Path | None:
    """The file or folder of the build context `folder` (resolved) that the COPY or ADD `copy`, run in
    the WORKDIR `workdir`, puts at the path `place` of the image (absolute, normalised), resolved; None
    when it puts nothing there. Read as `copied_files` reads a copy (sources by `context_path`, globs,
    a folder's contents under the destination, no link out of the context, what the `.dockerignore`
    `rules` leave out not copied), but from the image's side: one path looked up, no folder walked. A
    later source wins over an earlier one, as a later file overwrites an earlier one. A destination
    that is the WORKDIR (or a folder above it) is a folder: a file copied there keeps its name."""
    for at, whole, top in _puts(folder, copy, workdir):
        if whole:
            if place != at and not place.startswith(at.rstrip("/") + "/"):
                continue
            found = top / posixpath.relpath(place, at) if place != at else top
        elif place == at:
            found = top
        else:
            continue
        if not os.path.exists(found) or not _inside(found, folder):
            continue
        if rules and ignored(found.relative_to(folder).as_posix(), rules):
            continue
        return real_path(found)
    return None


def put_paths(folder: Path, copy: ContextCopy, workdir: str = "/") -> list[tuple[str, bool]]:
    """(the path in the image, whether a folder is put there) of each file and folder of the build
    context `folder` the COPY or ADD `copy`, run in `workdir`, puts in the image: `placed` finds a file
    only at one of these paths or below one that is a folder. For a caller that asks `placed` of many
    copies: an index of these paths leaves out the copies that cannot have put a path."""
    return [(at, whole) for at, whole, _ in _puts(folder, copy, workdir)]


def _puts(folder: Path, copy: ContextCopy, workdir: str) -> Iterator[tuple[str, bool, Path]]:
    """(the path in the image, whether it is a folder, the path in the context `folder`) of what the
    COPY or ADD `copy` puts, latest source first (`placed`)."""
    target = posixpath.normpath(posixpath.join(workdir, copy.dest.strip("\"'")))
    if copy.heredoc or "$" in target:
        return
    written = copy.dest.strip("\"'")
    into = written.endswith("/") or written in (".", "./") or len(copy.sources) > 1
    # a folder the image has (the WORKDIR, or a folder above it: WORKDIR made them) takes the file in
    # under its own name, as `COPY requirements.txt /app` after `WORKDIR /app` puts /app/requirements.txt
    here = posixpath.normpath(workdir)
    into = into or here == target or here.startswith(target.rstrip("/") + "/")
    for source in reversed(copy.sources):
        pattern = context_path(source)
        tops = matched(folder, pattern) if pattern is not None else []
        for top in reversed(tops):
            if os.path.isdir(top):
                yield target, True, top
            else:
                yield (posixpath.join(target, top.name) if into or len(tops) > 1 else target), False, top


@functools.lru_cache(maxsize=32)
def copied_texts(
    file: str, copies: tuple[ContextCopy, ...]
) -> tuple[tuple[tuple[CopiedFile, str], ...], frozenset[str]] | None:
    """The build-context files the Dockerfile at `file` copies (`copied_files`, its folder the build
    context), each with its text, and the sources that name nothing there; None when they come to more
    than docgen reads (`TEXT_LIMIT`, `FILE_LIMIT`)."""
    folder = Path(file).parent.resolve()
    files: list[tuple[CopiedFile, str]] = []
    missing: set[str] = set()
    budget, count = TEXT_LIMIT, FILE_LIMIT
    for copied in copied_files(folder, copies, file):
        if copied.path is None:
            missing.add(copied.source)
            continue
        count -= 1
        try:
            size = copied.path.stat().st_size
            if size > budget or count < 0:
                return None
            budget -= size
            files.append((copied, copied.path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return tuple(files), frozenset(missing)
