"""Standard output for docgen's reports: a write that fails (a full disk, a closed descriptor) becomes
`OutputError`, reported in one line with exit 2; a reader that went away (`docgen show | head`) exits 0.
Also the last line of `docgen check` (`summary`), which the fast path and the full check both print.

Standard library only: the fast path of `docgen check` imports it.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # `typing` alone would double the fast path's start-up time
if TYPE_CHECKING:
    from typing import Any, TextIO


def summary(checked: int, stale: int) -> str:
    """The last line of `docgen check`: `3 files checked, 1 out of date`."""
    line = f"{checked} file{'' if checked == 1 else 's'} checked, {stale} out of date"
    return line + ("; run `docgen sync` to update them" if stale else "")


class OutputError(Exception):
    """Standard output cannot be written (a full disk, a closed descriptor …); the message is why.

    Not an `OSError`, so no handler of file errors on the way mistakes it for one."""


class GuardedOutput:
    """Standard output for docgen's reports: a failed write or flush raises `OutputError`, except a
    broken pipe (`docgen show | head`: the reader went away), which stays a `BrokenPipeError`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.strerror or str(exc)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.strerror or str(exc)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guarded_stdout() -> TextIO:
    """`sys.stdout` wrapped in `GuardedOutput`; `OutputError` when it is closed (`docgen sync >&-`),
    before anything is done.

    Standard output and error are set to write what their encoding cannot as backslash escapes
    (`\\xe9`), so a console that cannot print UTF-8 (`PYTHONIOENCODING=ascii`, `LC_ALL=C` on older
    systems) or a lone surrogate from a `\\udc80` escape still gets every line, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):
                pass  # closed, or not a text stream of io's: written to as it is
    if sys.stdout is None:
        try:
            os.fstat(1)
            reason = "it is closed"
        except OSError as exc:
            reason = exc.strerror or "it is closed"
        raise OutputError(reason)
    return GuardedOutput(sys.stdout)  # type: ignore[return-value]


def output_failed(exc: BaseException) -> int:
    """Report a failed write to standard output (`OutputError`, exit 2) or a broken pipe (exit 0);
    the exit code. Standard output is pointed at the null device so that Python's own flush at exit
    does not fail again."""
    if not isinstance(exc, BrokenPipeError) and sys.stderr is not None:
        print(f"docgen: error: cannot write to standard output: {exc}", file=sys.stderr)
    if sys.stdout is not None:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
    return 0 if isinstance(exc, BrokenPipeError) else 2
