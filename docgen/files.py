"""Reading and writing the user's files: one place for the messages and for atomic writes.

Every command reads Markdown files and writes them the same way; `docgen.cli` and `docgen.init` both
use these, so a missing file, a folder, a FIFO, bad UTF-8 or a read-only file reads the same
everywhere (`path:line: message`, see docs/bad-input.md).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import posixpath
import re
import stat
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.errors import MAX_FILE_BYTES, TOO_LARGE, UsageError


def display(path: Path) -> str:
    """A path as shown to the user: relative to the current folder when it is below it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return str(path)


def real_path(path: Path) -> Path:
    """`path` made absolute, its links resolved as far as they go (`os.path.realpath`): what
    `Path.resolve()` gives, but never an error, for a path a README or Dockerfile names. A symlink loop
    is left as written from there on (`Path.resolve` raises RuntimeError for it before Python 3.13); a
    path holding a NUL byte, which names no file, is only made absolute."""
    try:
        return Path(os.path.realpath(path))
    except ValueError:  # a NUL byte
        return path.absolute()


_OS_ERRORS = {
    errno.ENAMETOOLONG: "file name too long (longer than the file system allows)",
    errno.ELOOP: "too many levels of symbolic links (a symlink loop?)",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EACCES: "permission denied",
    errno.ENOENT: "file not found",
}


def os_error(exc: OSError, path: str | os.PathLike[str] | None = None) -> UsageError:
    """`exc`, raised by a file operation on `path` (default: the file the error names), as the
    `UsageError` the user sees: `path: file name too long …`. The one place where the errors of
    path operations (a name past 255 bytes, a symlink loop, a file used as a folder) get their words."""
    target = path if path is not None else exc.filename
    reason = _reason(exc)
    if target is None:
        return UsageError(reason)
    shown = os.fsdecode(target) if isinstance(target, (str, bytes, os.PathLike)) else str(target)
    return UsageError(reason, display(Path(shown)) if shown else repr(shown))


def _reason(exc: OSError) -> str:
    """What went wrong in `exc`, in the words `os_error` gives it."""
    return _OS_ERRORS.get(exc.errno or 0) or exc.strerror or str(exc)


@dataclass(frozen=True)
class Snapshot:
    """A file as docgen read it, to tell just before replacing it whether it changed meanwhile (an
    edit saved while `sync` ran must not be lost)."""

    path: Path
    data: bytes | None
    """Its bytes; None when there was no file."""
    stat: tuple[int, int, int, int] | None
    """(device, inode, size, mtime in ns) when it was read; None when there was no file."""

    @classmethod
    def missing(cls, path: Path) -> Snapshot:
        """A file that does not exist (yet): a file created there meanwhile is a change too."""
        return cls(path, None, None)

    def changed(self) -> bool:
        """True when the file is no longer what was read: another inode, size, time or content."""
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return self.data is not None
        except OSError:
            return True
        if self.stat is None or self.stat != _identity(info):
            return True
        try:
            with self.path.open("rb") as handle:
                return handle.read(len(self.data or b"") + 1) != self.data
        except OSError:
            return True


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def read_snapshot(
    path: Path,
    *,
    not_found: str = "file not found",
    not_a_file: str = "not a file",
    folder: str | None = None,
    refuse_binary: bool = False,
) -> tuple[str, Snapshot]:
    """`path` decoded as UTF-8, and the `Snapshot` of what was read (for a file docgen will replace); a
    `UsageError` (with the line of a bad byte) when it cannot be decoded.

    `not_a_file` is the message for a FIFO or another special file (reading one could block), and
    for a folder unless `folder` is given. With `refuse_binary`, a NUL byte is an error too (text to
    be edited: markers added to UTF-16 text would corrupt it).
    """
    shown = display(path)
    try:
        if path.is_dir():
            raise UsageError(folder or not_a_file, shown)
        if path.exists() and not path.is_file():
            raise UsageError(not_a_file, shown)
        with path.open("rb") as handle:
            # a regular file's size is known up front: refuse a huge one without reading any of it
            info = os.fstat(handle.fileno())
            if info.st_size > MAX_FILE_BYTES:
                raise UsageError(TOO_LARGE, shown)
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(not_found, shown) from None
    except OSError as exc:
        if exc.errno in (errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTDIR):
            raise os_error(exc, path) from None
        raise UsageError(f"cannot read: {exc.strerror or exc}", shown) from None
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(TOO_LARGE, shown)
    if refuse_binary and b"\0" in data:
        raise UsageError(
            "binary file (contains a NUL byte)", shown, data[: data.index(b"\0")].count(b"\n") + 1
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError("not UTF-8 text", shown, data[: exc.start].count(b"\n") + 1) from None
    return text, Snapshot(path, data, _identity(info))


_NO_DOCKERFILE = r"(?![\w.+-]*\.(?:dockerignore|md|txt|sh|py|ps1|bat|ya?ml|json|toml|cfg|ini)\Z)"
"""What a file named like a Dockerfile is not: `Dockerfile.dockerignore` (BuildKit's ignore file of a
Dockerfile), `Dockerfile.md`, `Dockerfile-build.sh` (a script about one)."""
_DOCKERFILE_NAME = re.compile(
    rf"(?:[Dd]ockerfile|[Cc]ontainerfile)(?:\d+|{_NO_DOCKERFILE}[._-][\w.+-]+)?"
    r"|[\w.+-]+[._-](?:Dockerfile|dockerfile)"
    rf"|[\w.+-]*[a-z0-9]Dockerfile|{_NO_DOCKERFILE}Dockerfile[A-Z][\w.+-]*"
)


def _holder(folder: Path) -> Path | None:
    """The nearest folder at or above `folder`, as written (its links not resolved), holding `.git`, else
    the nearest holding `pyproject.toml`; None when none does."""
    for marker in (".git", "pyproject.toml"):
        for above in (folder, *folder.parents):
            if os.path.exists(above / marker):
                return above
    return None


@functools.lru_cache(maxsize=512)
def _home(folder: Path) -> Path | None:
    """The repository a file in the absolute folder `folder` stays in, resolved: the folder holding it
    (`_holder`), found by climbing `folder` as written, so that a folder linked into another checkout
    (`docs -> /other/repo/docs`) is still this project's; `folder` itself when nothing holds it. None
    when that repository is a link out of the one holding it (`vendor -> /other/repo`, its `.git` read
    through the link, or a folder above it linked out), or when nothing holds `folder` as written but
    something does once it is resolved (a link into another checkout): a file there is not the
    project's."""
    holder = _holder(folder)
    if holder is None:
        # (nothing holds it as written, yet something does once resolved: a link into another checkout)
        resolved = folder.resolve()
        return None if _holder(resolved) is not None else resolved
    resolved = holder.resolve()
    if holder.parent != holder and (outer := _holder(holder.parent)) is not None:
        home = _home(outer)
        if home is None or not resolved.is_relative_to(home):
            return None
    return resolved


def stays_home(path: Path, top: Path | None = None) -> bool:
    """True when `path`, its links resolved, is in the repository of its own folder (`_home`): a file
    found beside the README is not read through a link leading out of the project, be the link the
    file, a folder above it (`.github`, `docs`, `requirements`) or the repository's own folder inside
    another. With `top` (the project's top folder, as the audit knows it), it must be in `top` too,
    resolved: a project with no `.git` or `pyproject.toml` has no repository to tell its files by.
    False when it cannot be resolved (a loop, a name longer than the file system allows)."""
    try:
        # `_home` keeps its answers: asked of the absolute folder, one run after a `chdir` (the MkDocs
        # plugin, tests) is not told the repository of the same relative folder before it
        home = _home(path.parent.absolute())
        if home is None:
            return False
        resolved = path.resolve()
        return resolved.is_relative_to(home) and (top is None or resolved.is_relative_to(top.resolve()))
    except (OSError, ValueError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return False


def bytes_or_none(path: Path, limit: int = MAX_FILE_BYTES, top: Path | None = None) -> bytes | None:
    """The bytes of the file at `path` that a rule reads beside the Dockerfile (a requirements file, a
    script, a workflow, another Dockerfile), None when it is no regular file, is larger than `limit`
    bytes, cannot be read or is a link leading out of the project (`stays_home`; out of `top` too, when
    given): such a file says nothing, it is no error. A rule that reads a file only when it may be a
    script passes `errors.MAX_PROJECT_FILE_BYTES`."""
    try:
        if not path.is_file() or not stays_home(path, top):
            return None
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                return None  # refused without reading any of it
            data = handle.read(size + 1)  # not `limit + 1`: that allocates the limit for every file
            if len(data) > size:  # grown since, or a /proc file of size 0: still no more than the limit
                data += handle.read(limit + 1 - len(data))
    except OSError:
        return None
    return data if len(data) <= limit else None


def text_or_none(path: Path, limit: int = MAX_FILE_BYTES, top: Path | None = None) -> str | None:
    """The text of the file at `path` that `bytes_or_none` reads, bad UTF-8 replaced and every line end
    (CR LF, CR) a newline, as `open` reads text; None when `bytes_or_none` gives none."""
    data = bytes_or_none(path, limit, top)
    if data is None:
        return None
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


DOCKERFILE = "Dockerfile"
"""The name a build given no `-f` (a compose `build:` given no `dockerfile:`) reads from its context."""


def built_dockerfile(path: Path) -> Path:
    """The file a build reads for the Dockerfile `path`: `path`, or, when `path` is named `Dockerfile`
    and is not there, the `dockerfile` beside it, which the Docker CLI, BuildKit and Compose read in its
    place (moby#10858: `build: .` or `docker build .` over a folder holding only `dockerfile` works).
    The one reading of "the Dockerfile a context has" for every rule that looks for one by name."""
    if path.name == DOCKERFILE and not os.path.lexists(path):
        lower = path.with_name(DOCKERFILE.lower())
        if os.path.isfile(lower):
            return lower
    return path


def context_dockerfile(context: Path) -> Path:
    """The Dockerfile a build of the folder `context` with no `-f` reads (`built_dockerfile`)."""
    return built_dockerfile(context / DOCKERFILE)


def is_dockerfile_name(name: str) -> bool:
    """True for a file name a Dockerfile has (docs/audit/index.md): `Dockerfile`, `Containerfile`, in
    lower case too (`dockerfile`, which BuildKit reads when there is no `Dockerfile`), with a number
    (`Dockerfile22`, `Dockerfile24`: one per Ubuntu release), with `.`, `-` or `_`: `Dockerfile.rocm`,
    `Dockerfile-ubuntu`, `Dockerfile_llamacpp`, `dockerfile.gpu`, `cuda.Dockerfile`, `cuda_dockerfile`,
    and with a word written onto it: `ROCmDockerfile`, `DockerfileOptimized`; not
    `Dockerfile.dockerignore`, `Dockerfile.md` or `Dockerfile-build.sh`."""
    return bool(_DOCKERFILE_NAME.fullmatch(name))


def _is_file(entry: os.DirEntry[str]) -> bool:
    """Whether `entry` is a file or a link to one: a symlink loop is none, as a dangling link is (its
    error is the file's, not the folder's, which was listed)."""
    try:
        return entry.is_file()
    except OSError:
        return False


def dockerfiles_in(folder: Path, depth: int | None = 0, *, pass_unreadable: bool = False) -> list[Path]:
    """The files named like Dockerfiles (`is_dockerfile_name`) in `folder` and in its subfolders down
    to `depth` levels (0: the folder alone, 1: and its immediate subfolders, None: all of them), in
    order of their paths. Folders whose name starts with a dot (`.git`, `.venv`, `.devcontainer`) and
    links to folders are not looked into; a folder that does not exist holds none.

    A folder that cannot be listed is a `UsageError` (`docker: cannot read the folder (permission
    denied)`): the Dockerfiles in it would be missed in silence. With `pass_unreadable`, for a listing
    that is only a hint, subfolders that cannot be listed (a volume owned by another user beside a
    README) are passed over; `folder` itself must still be readable.
    """
    found: list[Path] = []
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if depth != 0 and not entry.name.startswith("."):
                    below = None if depth is None else depth - 1
                    try:
                        found += dockerfiles_in(Path(entry.path), below, pass_unreadable=pass_unreadable)
                    except UsageError:
                        if not pass_unreadable:
                            raise
            elif is_dockerfile_name(entry.name) and _is_file(entry):
                found.append(Path(entry.path))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise UsageError(f"cannot read the folder ({_reason(exc)})", display(folder)) from None
    return found


_LED_CD = re.compile(r"(?:^|[;&|(]|\$\(|\bsudo[ \t]+)[ \t]*cd[ \t]+([^\s;&|()`'\"<>$]+)", re.MULTILINE)
_LED_FILE = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)([^\s;&|()`'\"<>$]+)", re.MULTILINE)
_LED_CONTEXT = re.compile(
    r"\b(?:docker|podman|buildah)[ \t]+(?:image[ \t]+)?(?:buildx[ \t]+)?build\b[^\n;&|]*?[ \t]"
    r"([.\w][^\s;&|()`'\"<>$]*)[ \t]*$",
    re.MULTILINE,
)
_LED_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)[^\n]*\n(.*?)^[ \t]{0,3}\1", re.MULTILINE | re.DOTALL)
_LED_INLINE = re.compile(r"`([^`\n]+)`")
_LED_SKIP = frozenset(
    ".git .hg .svn .venv .tox .cache .mypy_cache .pytest_cache .ruff_cache .idea .eggs".split()
)
"""Dot-folders that never hold the project's Dockerfile: version control, tools' caches."""


def _within(path: Path, top: Path) -> Path | None:
    """`path` with its links resolved when it stays in `top` (resolved); else None (never raises)."""
    try:
        real = Path(os.path.realpath(path))
        return real if real.is_relative_to(Path(os.path.realpath(top))) else None
    except (OSError, ValueError):
        return None


_COMPOSE_BUILD = re.compile(r"([ \t]*)build:[ \t]*(.*)")
"""A compose `build:` line: its indent, and what follows it (a context, a flow mapping, nothing)."""
_COMPOSE_KEY = re.compile(r"(context|dockerfile):[ \t]*['\"]?([^\s'\"#{},]+)")
"""A `context:` or `dockerfile:` of a `build:` mapping (block or flow), its value."""


def _compose_builds(text: str) -> list[tuple[str, str]]:
    """(context, dockerfile) of each `build:` of a compose file's services, read per service: a
    `build: CONTEXT` reads `CONTEXT/Dockerfile`, a mapping its own `context:` (`.` when it has none)
    and `dockerfile:` (`Dockerfile`). A file with no `build:` gives its `dockerfile:` values (or
    `Dockerfile`) in its own folder."""
    builds: list[tuple[str, str]] = []
    open_at: int | None = None  # the indent of the `build:` mapping being read
    keys: dict[str, str] = {}
    for line in [*text.splitlines(), "end:"]:
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped.strip():
            continue
        indent = len(stripped) - len(stripped.lstrip())
        if open_at is not None:
            if indent > open_at:
                for key, value in _COMPOSE_KEY.findall(stripped):
                    keys.setdefault(key, value)
                continue
            builds.append((keys.get("context", "."), keys.get("dockerfile", "Dockerfile")))
            open_at = None
        build = _COMPOSE_BUILD.fullmatch(stripped)
        if build is None:
            continue
        value = build.group(2).strip()
        if not value:
            open_at, keys = len(build.group(1)), {}
        elif value.startswith("{"):
            flow = dict(reversed(_COMPOSE_KEY.findall(value)))
            builds.append((flow.get("context", "."), flow.get("dockerfile", "Dockerfile")))
        elif match := re.fullmatch(r"['\"]?([^\s'\"{}]+)['\"]?", value):
            builds.append((match.group(1), "Dockerfile"))
    if builds:
        return builds
    names = re.findall(r"^[ \t]*dockerfile:[ \t]*['\"]?([^\s'\"#{}]+)", text, re.MULTILINE)
    return [(".", name) for name in names or ["Dockerfile"]]


def _compose_dockerfiles(compose: Path, top: Path) -> list[Path]:
    """The Dockerfiles a compose file's `build:` entries name, found as files beside it: each service's
    `dockerfile:` read from its own `context:`, else a `Dockerfile` in that context (`_compose_builds`)."""
    text = text_or_none(compose)
    if text is None:
        return []
    found: list[Path] = []
    for context, name in dict.fromkeys(_compose_builds(text)):
        with contextlib.suppress(OSError, ValueError):
            candidate = built_dockerfile(compose.parent / context / name)
            if os.path.isfile(candidate) and _within(candidate, top) is not None:
                found.append(candidate)
    return found


_LED_COMPOSE = re.compile(
    r"\b(?:(?:docker|podman)[ \t]+compose|docker-compose|podman-compose)(?![\w.-])([^\n;&|]*)"
)
"""A compose command of a README's code, and what follows it on its line."""
_DEFAULT_COMPOSE = (
    "compose.yaml",
    "compose.yml",
    "docker-compose.yaml",
    "docker-compose.yml",
    "compose.override.yaml",
    "compose.override.yml",
    "docker-compose.override.yaml",
    "docker-compose.override.yml",
)
"""The compose files a `docker compose` given no `-f` reads from its folder (`compose.*` first)."""


def led_code(text: str) -> str:
    """A README's code: its fenced blocks, then its inline code spans, one a line."""
    code = "\n".join(m.group(2) for m in _LED_FENCE.finditer(text))
    return code + "\n" + "\n".join(m.group(1) for m in _LED_INLINE.finditer(_LED_FENCE.sub("", text)))


def compose_dockerfiles_led_to(document: Path, code: str, top: Path) -> list[Path]:
    """The Dockerfiles the default compose files of a README's compose commands build: when its code
    (`led_code`) runs `docker compose`/`docker-compose` with no `-f`, the
    `compose.y(a)ml`/`docker-compose.y(a)ml` (and their `.override`) of its folder and of the folders its
    `cd X` enters, each service's `build:` context and `dockerfile:` resolved from the compose file's
    folder; none of them past `top`, none that is not a file; none from a compose file with no `build:`
    (its services pull their images). A compose file the commands name with
    `-f` is read by `dockerfiles_led_to` itself."""
    if not any(not _LED_FILE.search(m.group(1)) for m in _LED_COMPOSE.finditer(code)):
        return []
    base = document.parent
    folders = [base]
    for match in _LED_CD.finditer(code):
        word = match.group(1)
        if word.startswith(("/", "~", "-")) or "\0" in word or len(word) > 255:
            continue
        with contextlib.suppress(OSError, ValueError):
            if os.path.isdir(base / word) and _within(base / word, top) is not None:
                folders.append(base / word)
    found: list[Path] = []
    seen: set[str] = set()
    for folder in folders:
        for name in _DEFAULT_COMPOSE:
            path = folder / name
            with contextlib.suppress(OSError, ValueError):
                if not os.path.isfile(path) or _within(path, top) is None:
                    continue
                real = os.path.realpath(path)
                if real in seen:
                    continue
                seen.add(real)
                text = text_or_none(path)
                if text and re.search(r"^[ \t]*build:", text, re.MULTILINE):
                    found += _compose_dockerfiles(path, top)
    return found


_LED_LINK = re.compile(
    r"\]\([ \t]*<?([^)\s>]+)>?(?:[ \t]+[\"'(][^)]*)?\)|^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)",
    re.MULTILINE,
)
"""The target of a Markdown link (`[Dockerfile.cuda](../Dockerfile.cuda)`, `[x]: ../Dockerfile`)."""
_LED_WORD = re.compile(
    r"(?<![\w./$~-])((?:\.{1,2}/)?(?:[\w.+-]+/)*[\w.+-]*(?:[Dd]ockerfile|[Cc]ontainerfile)[\w.+-]*)"
)
"""A word of a page's text that may be a Dockerfile's name or path: `Dockerfile.cpu`,
`docker/cuda/base/Dockerfile`."""
_LED_BARE = frozenset("Dockerfile dockerfile Containerfile containerfile".split())
"""Words of prose that are a Dockerfile in general, not a file named so (`Write a Dockerfile`), unless in
code or a link (`**File:** `Dockerfile``)."""
_LED_DOCKER = re.compile(
    r"\b(?:docker|podman)(?:[ \t]+(?:image|container))?[ \t]+(?:run|pull|build|buildx|compose|create)\b"
    r"|\bdocker-compose\b"
)
"""A docker command in a page's code: the page is about running or building an image."""
_LED_DOCS = frozenset({"docs", "doc", "documentation"})
"""The folders a project keeps its documentation pages in."""

LED_HERE = ""
"""Why `led_dockerfiles` took a Dockerfile: where the README's own commands lead from its own folder (a
`cd`, a `-f`, a build context, a compose file), or its folder's dot-folders: said by no note."""
LED_ROOT = "its commands name {them} from the project root"
"""... a path its commands name that is not in its folder but is from the project root (`docker build -f
Dockerfile.cuda .` in `docs/`, run from the root)."""
LED_TEXT = "its text names {them}"
"""... a Dockerfile its text, code spans or links name (`**File:** `Dockerfile.cpu``)."""
LED_BELOW = "below its folder, as it names no Dockerfile"
"""... the Dockerfiles below its own folder, more than one folder down (`docker/cuda/base/Dockerfile`
for `docker/README.md`), when nothing names one."""
LED_DOCS = (
    "the project's, at its root and under docker/, as a docs page running docker that names no Dockerfile"
)
"""... the project's Dockerfiles at its root and under `docker/` (those `docgen init` looks at), for a
page of its documentation folder (`docs/`) whose code runs docker, when nothing names one."""


def _led_file(path: Path, top: Path) -> list[Path] | None:
    """The Dockerfiles a word of a README's commands leads to at `path`: itself when it is a
    Dockerfile, those a compose file builds, those of a folder and its immediate subfolders; None when
    nothing of the project is there (or it leads out of `top`)."""
    if _within(path, top) is None:
        return None
    try:
        if os.path.isfile(path):
            if is_dockerfile_name(path.name):
                return [path]
            return _compose_dockerfiles(path, top) if path.suffix in (".yml", ".yaml") else []
        if os.path.isdir(path):
            return dockerfiles_in(path, 1, pass_unreadable=True)
    except (OSError, ValueError, UsageError):
        return []
    return None


def _usable(word: str) -> bool:
    """Whether a word of a README may be looked up as a path of the project: not absolute, home, a
    URL, an option, nor a placeholder."""
    return not (
        word in (".", "..", "~", "-")
        or word.startswith(("/", "~", "-", "#"))
        or "://" in word
        or "\0" in word
        or len(word) > 255
        or any(c in word for c in "<>{}$*?")
    )


def led_dockerfiles(document: Path, text: str, top: Path) -> list[tuple[Path, str]]:
    """For a README with no Dockerfile beside it (`dockerfiles_in` found none): the Dockerfiles it is
    about, each with why (`LED_HERE`, `LED_ROOT` …), in the order of these rules; none past `top`.

    - Where its own commands lead (its code: fenced blocks and inline code): the folders `cd X`
      enters, the files and folders `-f X` names (a Dockerfile, a compose file whose `build:` names
      one, a folder) and the build contexts `docker build … X` ends with, from its own folder; a
      folder is looked into with its immediate subfolders (`dockerfiles_in(folder, 1)`). A path not
      there is looked for from the project root (`top`): a page in `docs/` writes the commands run
      from the root (`docker build -f Dockerfile.cuda .`), and a `docker build .` with no `-f` and no
      `cd` builds the root's `Dockerfile` (`LED_ROOT`).
    - The Dockerfiles its text names: a link to one, a code span or word of its prose that is a
      Dockerfile's name or path (`**File:** `Dockerfile.cpu``, `docker/cuda/base/Dockerfile`; the
      bare word `Dockerfile` only in code or a link), from its own folder, else from the root
      (`LED_TEXT`).
    - What a compose command with no `-f` builds (`compose_dockerfiles_led_to`).

    When none of these names one: its folder's dot-folders (`.docker/`, `.devcontainer/`); else, for a
    README below the root, the Dockerfiles more than one folder down its own folder (`LED_BELOW`);
    else, for a page of the documentation folder (`docs/`, `doc/`, `documentation/`) whose code runs
    docker, the Dockerfiles at the root and under `docker/`, as `docgen init` finds them (`LED_DOCS`).
    """
    base = document.parent
    code = led_code(text)
    found: list[tuple[Path, str]] = []
    below_top = _within(base, top) is not None and os.path.realpath(base) != os.path.realpath(top)
    named = [m.group(1) for pattern in (_LED_CD, _LED_FILE, _LED_CONTEXT) for m in pattern.finditer(code)]
    for word in dict.fromkeys(named):
        if not _usable(word):
            continue
        here = base / word
        with contextlib.suppress(OSError, ValueError):
            if os.path.isdir(here) and os.path.realpath(here) == os.path.realpath(base):
                continue  # the README's own folder: nothing beside it
        led = _led_file(here, top)
        if led is not None:
            found += [(path, LED_HERE) for path in led]
        elif below_top and (led := _led_file(top / word, top)):
            found += [(path, LED_ROOT) for path in led]
    if below_top and not _LED_CD.search(code):  # `docker build -t app .` run from the root
        for match in _LED_CONTEXT.finditer(code):
            if match.group(1) == "." and not _LED_FILE.search(match.group(0)):
                with contextlib.suppress(OSError, ValueError):
                    if os.path.isfile(context_dockerfile(top)):
                        found.append((context_dockerfile(top), LED_ROOT))
                break
    found += [(path, LED_TEXT) for path in _named_in_text(base, text, top)]
    found += [(path, LED_HERE) for path in compose_dockerfiles_led_to(document, code, top)]
    if not found:
        try:
            with os.scandir(base) as listing:
                dotted = sorted(e.name for e in listing if e.name.startswith(".") and e.name not in _LED_SKIP)
        except OSError:
            dotted = []
        for name in dotted:
            folder = base / name
            if os.path.isdir(folder) and _within(folder, top) is not None:
                with contextlib.suppress(UsageError):
                    found += [(path, LED_HERE) for path in dockerfiles_in(folder, 1, pass_unreadable=True)]
    if not found and below_top:
        with contextlib.suppress(UsageError):
            below = dockerfiles_in(base, None, pass_unreadable=True)
            found += [(path, LED_BELOW) for path in below if _within(path, top) is not None]
    if not found and below_top and _docs_page(base, top) and _LED_DOCKER.search(code):
        with contextlib.suppress(UsageError):
            project = dockerfiles_in(top, 0) + dockerfiles_in(top / "docker", None, pass_unreadable=True)
            found += [(path, LED_DOCS) for path in project if _within(path, top) is not None]
    unique: dict[str, tuple[Path, str]] = {}
    for path, why in found:
        unique.setdefault(os.path.realpath(path), (path, why))
    return list(unique.values())


def _docs_page(base: Path, top: Path) -> bool:
    """Whether the folder `base` is the project's documentation folder (`docs/`) or one below it."""
    try:
        parts = Path(os.path.realpath(base)).relative_to(os.path.realpath(top)).parts
    except ValueError:
        return False
    return bool(parts) and parts[0].lower() in _LED_DOCS


def _named_in_text(base: Path, text: str, top: Path) -> list[Path]:
    """The Dockerfiles a README's text names (`led_dockerfiles`): its links' targets, its code spans and
    the words of its prose that are a Dockerfile's name or path, each from the README's folder, else
    from `top`; those that are files of the project only."""
    named: list[tuple[int, str]] = []  # (where in the text, the word), read in the text's order
    for match in _LED_LINK.finditer(text):
        target = (match.group(1) or match.group(2)).split("#", 1)[0]
        if is_dockerfile_name(posixpath.basename(target)):
            named.append((match.start(), target))
    prose = _LED_FENCE.sub(lambda m: " " * len(m.group(0)), text)  # blanked, the places kept
    for match in _LED_INLINE.finditer(prose):
        if is_dockerfile_name(posixpath.basename(span := match.group(1).strip())):
            named.append((match.start(), span))
    plain = _LED_INLINE.sub(
        lambda m: " " * len(m.group(0)), _LED_LINK.sub(lambda m: " " * len(m.group(0)), prose)
    )
    for match in _LED_WORD.finditer(plain):
        word = match.group(1).rstrip(".")
        if word not in _LED_BARE and is_dockerfile_name(posixpath.basename(word)):
            named.append((match.start(), word))
    words = [word for _, word in sorted(named)]
    found: list[Path] = []
    for word in dict.fromkeys(words):
        if not _usable(word):
            continue
        for folder in (base, top):
            path = folder / word
            with contextlib.suppress(OSError, ValueError):
                if os.path.isfile(path) and _within(path, top) is not None:
                    found.append(path)
                    break
    return found


def dockerfiles_led_to(document: Path, text: str, top: Path) -> list[Path]:
    """The Dockerfiles `led_dockerfiles` finds for a README with none beside it, without why."""
    return [path for path, _ in led_dockerfiles(document, text, top)]


_SUBMODULE_PATH = re.compile(r"^[ \t]*path[ \t]*=[ \t]*(\S+)", re.MULTILINE)
_GITMODULES_BYTES = 64 * 1024
"""Bytes of a `.gitmodules` read: enough for any real one, and a bound on the work a huge one makes."""


def submodule_folders(folder: Path) -> tuple[Path, ...]:
    """The folders of the git submodules the nearest `.gitmodules` at or above `folder` lists (its
    `path = …` lines, read from the folder holding it); none when there is no such file or it cannot be
    read. A checkout leaves them empty unless cloned with `--recurse-submodules`, so what they hold is
    not known from the checkout."""
    start = folder.resolve()
    for here in (start, *start.parents):
        try:
            with (here / ".gitmodules").open("rb") as handle:
                data = handle.read(_GITMODULES_BYTES)
        except OSError:
            if os.path.exists(here / ".git"):
                return ()
            continue
        text = data.decode("utf-8", errors="replace")
        return tuple(here / path.strip("/") for path in _SUBMODULE_PATH.findall(text) if path.strip("/"))
    return ()


def in_submodule(path: Path, folder: Path) -> bool:
    """True when `path` lies in a git submodule the nearest `.gitmodules` at or above `folder` lists."""
    full = real_path(path)
    return any(full == sub or full.is_relative_to(sub) for sub in submodule_folders(folder))


def check_writable(path: Path) -> None:
    """A `UsageError` when `path` exists but is read-only (a rename would replace it regardless, so
    docgen respects the user's intent instead) or has other hard links (the rename would leave them
    with the old text). Also called for every file before the first write, to change nothing."""
    try:
        info = path.stat()
    except OSError:
        return
    if not os.access(path, os.W_OK) or not info.st_mode & 0o222:
        raise UsageError("file is read-only; docgen will not replace it", display(path))
    if info.st_nlink > 1:
        raise UsageError(
            f"has {info.st_nlink} hard links; docgen writes a new file and renames it over this one, "
            "which would leave the other links with the old text (make it a plain file or a symlink)",
            display(path),
        )


TEMP_SUFFIX = ".docgen-tmp"
_NAME_BYTES = 160
"""The most bytes of a file's name its temporary file repeats (the temporary name must stay under the
255 bytes file systems allow, with the process id and the random part added)."""
STALE_AFTER = 60.0
"""Seconds after which a temporary file of a process that no longer runs is removed. Not at once: a
process id from another PID namespace (a container sharing the folder) looks like a dead one here."""
LEGACY_STALE_AFTER = 3600.0
"""Seconds after which a temporary file without a process id (from docgen before 2026-12), or one
whose process id was given to another process since, is removed: no run keeps one for an hour."""


def _short_name(name: str) -> str:
    """`name` cut to at most `_NAME_BYTES` bytes of UTF-8 (a whole character at a time)."""
    while len(os.fsencode(name)) > _NAME_BYTES:
        name = name[:-1]
    return name


def _temp_file(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, named `.NAME.PID.RANDOM.docgen-tmp` (the process id tells a
    later run whether the file is stale); its descriptor and path."""
    import tempfile  # only to write: importing it costs every run (`docgen show` too) about 6 ms

    return tempfile.mkstemp(
        prefix=f".{_short_name(path.name)}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=path.parent
    )


_TEMP_TAIL = re.compile(r"\.(?:(\d+)\.)?[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + r"\Z")
"""The end of docgen's temporary file names: the process id (absent in the names docgen wrote before
it recorded one) and the 8 characters `tempfile` draws from `[a-z0-9_]`."""


def _temp_owners(name: str) -> list[tuple[str, int | None]]:
    """The (name cut by `_short_name`, process id) a temporary file named `name` may belong to; none
    when `name` is not docgen's. Two readings when the name could also end with the number."""
    match = _TEMP_TAIL.search(name) if name.startswith(".") else None
    if match is None:
        return []
    pid = match.group(1)
    if pid is None:
        return [(name[1 : match.start()], None)]
    # `.a.12.q7w_e9r0.docgen-tmp`: process 12's file for `a`, or an earlier docgen's file for `a.12`
    return [(name[1 : match.start()], int(pid)), (name[1 : match.end(1)], None)]


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process (EPERM), or no valid id: alive
        return True
    return True


def remove_stale_temps(paths: Iterable[Path], now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed docgen left beside each of `paths` (`.README.md.*.docgen-tmp`,
    each folder read once); the ones removed. Only regular files named exactly as docgen names them,
    and only stale ones: of a process that no longer runs (and older than `STALE_AFTER`), or older
    than `LEGACY_STALE_AFTER`. A `sync` running at the same time keeps its file; errors are ignored
    (the files are only litter)."""
    now = time.time() if now is None else now
    folders: dict[Path, set[str]] = {}
    for path in paths:
        folders.setdefault(path.parent, set()).update({_short_name(path.name), path.name})
    removed = []
    for folder, names in folders.items():
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name in names:  # one of `paths` itself, however it is named
                continue
            owners = [pid for name, pid in _temp_owners(entry.name) if name in names]
            if not owners:
                continue
            try:
                info = entry.stat(follow_symlinks=False)
                if not entry.is_file(follow_symlinks=False):
                    continue
                age = now - info.st_mtime
                pid = owners[0]
                if age > LEGACY_STALE_AFTER or (pid is not None and age > STALE_AFTER and not _alive(pid)):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
            except OSError:
                continue
    return removed


def _prepare(path: Path, data: bytes) -> str:
    """A temporary file beside `path` holding `data`, synced to disk, with `path`'s mode and (when
    docgen may set it, run as root) its owner; its name. Removed again when anything fails."""
    try:
        info: os.stat_result | None = path.stat()
    except OSError:
        info = None
    mode = info.st_mode & 0o7777 if info else 0o644
    try:
        fd, tmp = _temp_file(path)
    except OSError as exc:
        raise UsageError(f"cannot write: {exc.strerror or exc}", display(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if (
            info is not None
            and hasattr(os, "geteuid")
            and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid())
        ):
            with contextlib.suppress(OSError):  # only root may give a file away; others keep theirs
                os.chown(tmp, info.st_uid, info.st_gid)
    except BaseException as exc:  # also Ctrl-C midway: never leave the temporary file behind
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write: {exc.strerror or exc}", display(path)) from None
        raise
    return tmp


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename; the file's mode, and its owner
    when docgen may set it (run as root), are kept. A file with other hard links is refused: the
    rename would leave them with the old text."""
    replace_all([(path, text, None)])


CHANGED_MEANWHILE = (
    "changed since docgen read it (saved while docgen ran?); nothing was written, so that edit is kept: "
    "run docgen again"
)


def replace_all(changes: Sequence[tuple[Path, str, Snapshot | None]]) -> None:
    """Write each `(path, text, snapshot)` of `changes`, all or nothing.

    Every file is checked (`check_writable`) and its new text written to a temporary file beside it
    before the first rename, so a full disk or a read-only folder changes nothing. Just before the
    renames, a file that is no longer its `snapshot` (the user saved it meanwhile) stops the run with
    `CHANGED_MEANWHILE`, unless it now holds the new text already (a `sync` run at the same time wrote
    it). A rename refused midway (an append-only file) puts back the files already replaced, from
    their snapshots, before the error is raised.
    """
    for path, _, _ in changes:
        check_writable(path)
    temps: list[str] = []
    try:
        for path, text, _ in changes:
            temps.append(_prepare(path, text.encode("utf-8")))
        renames = []
        for (path, text, snapshot), tmp in zip(changes, temps, strict=True):
            if snapshot is not None and snapshot.changed():
                if _holds(path, text.encode("utf-8")):
                    continue
                raise UsageError(CHANGED_MEANWHILE, display(path))
            renames.append((path, snapshot, tmp))
        done: list[tuple[Path, Snapshot | None]] = []
        for path, snapshot, tmp in renames:
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise UsageError(
                    f"cannot write: {exc.strerror or exc}{_put_back(done)}", display(path)
                ) from None
            except BaseException:  # Ctrl-C between two renames: none of them, as for an error
                _put_back(done)
                raise
            done.append((path, snapshot))
    finally:
        for tmp in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)  # the ones not renamed


def _holds(path: Path, data: bytes) -> bool:
    """True when `path` is a regular file holding exactly `data`."""
    try:  # without waiting for a writer, should a FIFO have taken its place
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
                return False
            return handle.read(len(data) + 1) == data
    except OSError:
        return False


def _put_back(done: Sequence[tuple[Path, Snapshot | None]]) -> str:
    """Restore the files in `done` (already replaced) from their snapshots; what to add to the error."""
    failed = []
    for path, snapshot in reversed(done):
        try:
            if snapshot is None:
                failed.append(display(path))
            elif snapshot.data is None:
                os.unlink(path)
            else:
                tmp = _prepare(path, snapshot.data)
                try:
                    os.replace(tmp, path)
                except OSError:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
                    raise
        except (OSError, UsageError):
            failed.append(display(path))
    if failed:
        return f"; already written, and could not be put back: {', '.join(failed)}"
    return "; the files written before it were put back" if done else ""
