"""Reading and writing the user's files: one place for the messages and for atomic writes.

Every command reads Markdown files and writes them the same way; `docgen.cli` and `docgen.init` both
use these, so a missing file, a folder, a FIFO, bad UTF-8 or a read-only file reads the same
everywhere (`path:line: message`, see docs/bad-input.md).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from docgen.errors import UsageError


def display(path: Path) -> str:
    """A path as shown to the user: relative to the current folder when it is below it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


MAX_TEXT = 10 * 1024 * 1024
"""The largest Markdown file docgen reads (10 MiB, as for a Dockerfile): a README of 100 MB would take
gigabytes of memory to split into lines and blocks."""


def read_text(
    path: Path,
    *,
    not_found: str = "file not found",
    not_a_file: str = "not a file",
    folder: str | None = None,
    refuse_binary: bool = False,
) -> str:
    """`path` decoded as UTF-8; a `UsageError` (with the line of a bad byte) when it cannot be.

    `not_a_file` is the message for a FIFO or another special file (reading one could block), and
    for a folder unless `folder` is given. With `refuse_binary`, a NUL byte is an error too (text to
    be edited: markers added to UTF-16 text would corrupt it).
    """
    shown = display(path)
    if path.is_dir():
        raise UsageError(folder or not_a_file, shown)
    if path.exists() and not path.is_file():
        raise UsageError(not_a_file, shown)
    try:
        with path.open("rb") as handle:
            # a regular file's size is known up front: refuse a huge one without reading any of it
            if os.fstat(handle.fileno()).st_size > MAX_TEXT:
                raise UsageError(f"file is larger than {MAX_TEXT // (1024 * 1024)} MiB, not read", shown)
            data = handle.read(MAX_TEXT + 1)
    except FileNotFoundError:
        raise UsageError(not_found, shown) from None
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror or exc}", shown) from None
    if len(data) > MAX_TEXT:
        raise UsageError(f"file is larger than {MAX_TEXT // (1024 * 1024)} MiB, not read", shown)
    if refuse_binary and b"\0" in data:
        raise UsageError(
            "binary file (contains a NUL byte)", shown, data[: data.index(b"\0")].count(b"\n") + 1
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError("not UTF-8 text", shown, data[: exc.start].count(b"\n") + 1) from None


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


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename; the file's mode, and its owner
    when docgen may set it (run as root), are kept. A file with other hard links is refused: the
    rename would leave them with the old text."""
    shown = display(path)
    check_writable(path)
    try:
        info: os.stat_result | None = path.stat()
    except OSError:
        info = None
    mode = info.st_mode & 0o7777 if info else 0o644
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".docgen-tmp", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write: {exc.strerror or exc}", shown) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
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
        os.replace(tmp, path)
    except BaseException as exc:  # also Ctrl-C midway: never leave the temporary file behind
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write: {exc.strerror or exc}", shown) from None
        raise
