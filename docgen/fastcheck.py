"""The fast path of `docgen check`: decide "up to date" without parsing or rendering anything.

`docgen sync` writes a fingerprint into every begin marker (`docgen.fingerprint`): digests of the
Dockerfile, of everything else the block is made from (docgen's code and data, the settings, the
user's templates, the document's path) and of the text it wrote. When every block of every configured
document still carries the fingerprint of its inputs and text as they are now, rendering again would
give the same text, so `docgen check` can answer at once.

Anything else — a fingerprint that differs or is missing, a config the fast path does not fully
understand, a file it cannot read, a command-line option — leaves the decision to the full check in
`docgen.cli`, which reports errors and drift exactly. The fast path therefore never answers
differently from the full check; it only answers sooner. It imports the standard library only, and
this module is the `docgen` console script's entry point, so the common case (everything up to date,
as in a pre-commit hook) never imports Jinja2, packaging or the parser.
"""

from __future__ import annotations

import os
import sys

from docgen import fingerprint, markers, settings
from docgen.errors import MarkerError

TYPE_CHECKING = False  # `typing` alone would double this module's start-up time
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, TextIO


def _inside(path: str, root: str) -> str | None:
    """`path` (relative to `root`) with symlinks resolved, or None when it leaves `root`."""
    if "\0" in path:
        return None
    full = os.path.realpath(os.path.join(root, path))
    return full if full.startswith(root.rstrip(os.sep) + os.sep) else None


def _read(path: str) -> bytes | None:
    """The bytes of regular file `path`, else None (a FIFO would block the read)."""
    try:
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > 10 * 1024 * 1024:
                return None  # larger than the full check reads: it says so
            return handle.read()
    except OSError:
        return None


def _shown(path: str, cwd: str) -> str:
    """A path as `docgen.cli` shows it: relative to the current folder when below it."""
    if path.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, cwd).replace(os.sep, "/")
    return path


def up_to_date(argv: Sequence[str], cwd: str | None = None) -> list[str] | None:
    """The documents checked, when `docgen check ARGV` is sure to find every block up to date.

    None means "not decided here": run the full check.
    """
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:  # the current folder was deleted: the full check says so
            return None
    if list(argv) == []:
        config_path = settings.find_pyproject(cwd)
    elif len(argv) == 2 and argv[0] == "--config":
        config_path = os.path.join(cwd, argv[1])
    else:
        return None
    if config_path is None:
        return None
    data = _read(config_path)
    try:
        found = settings.read_settings(data.decode("utf-8")) if data is not None else None
    except (UnicodeDecodeError, RecursionError):  # arrays nested thousands deep: the full check says so
        return None
    if found is None or not found.images:
        return None
    root = os.path.dirname(os.path.realpath(config_path))
    here = os.path.realpath(cwd)
    templates: str | None = None
    if found.templates:
        templates = _inside(found.templates, root)
        if templates is None:
            return None
    settings_digest = fingerprint.settings_digest(found.sections, found.images, found.templates)
    outside: list[str] = []
    templates_digest = fingerprint.templates_digest(templates, root, outside)
    if outside:  # counted by where the links point, not by what is there: let the full check decide
        return None
    checked: list[str] = []
    seen: set[str] = set()
    for index, (dockerfile, outputs) in enumerate(found.images):
        image_settings = fingerprint.image_settings(settings_digest, index)
        dockerfile_path = _inside(dockerfile, root)
        if dockerfile_path is None or not outputs:
            return None
        data = _read(dockerfile_path)
        if data is None:
            return None
        dockerfile_digest = fingerprint.dockerfile_digest(data)
        dockerfile_rel = os.path.relpath(dockerfile_path, root).replace(os.sep, "/")
        for output in outputs:
            path = _inside(output, root)
            if path is None or path in seen:  # a file listed twice is an error the full check reports
                return None
            seen.add(path)
            data = _read(path)
            try:
                text = data.decode("utf-8") if data is not None else ""
                blocks = markers.find_blocks(text, output, known=markers.SECTIONS)
            except (UnicodeDecodeError, MarkerError):
                return None
            if not blocks:
                return None
            document = os.path.relpath(path, root).replace(os.sep, "/")
            setup = fingerprint.setup_digest(image_settings, templates_digest, document, dockerfile_rel)
            newline = markers.newline_of(text)
            for block in blocks:
                body = text[block.body_start : block.body_end]
                if not fingerprint.matches(block.name, block.attributes, dockerfile_digest, setup, body):
                    return None
                if markers.normalise_body(body, newline) != body:
                    return None  # `docgen sync` would now write the body with other line endings
            checked.append(_shown(path, here))
    return checked


def fast_check(argv: Sequence[str], out: TextIO, cwd: str | None = None) -> int | None:
    """Run `docgen check ARGV` on the fast path: the exit code, or None to run the full check."""
    checked = up_to_date(argv, cwd)
    if checked is None:
        return None
    for shown in checked:
        print(f"{shown} is up to date", file=out)
    print(summary(len(checked), 0), file=out)
    return 0


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


def entry() -> None:
    """The `docgen` console script: the fast path of a plain `docgen check`, else the full CLI."""
    argv = sys.argv[1:]
    code = None
    if argv[:1] == ["check"] and sys.stdout is not None:
        try:
            out = guarded_stdout()
            code = fast_check(argv[1:], out)
            if code is not None:
                out.flush()
        except (BrokenPipeError, OutputError) as exc:
            code = output_failed(exc)
    if code is None:
        from docgen.cli import main_entry

        main_entry()
    sys.exit(code)
