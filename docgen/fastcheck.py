"""The fast path of `docgen check`: decide "up to date" without parsing or rendering anything.

`docgen sync` writes a fingerprint into every begin marker (`docgen.fingerprint`): digests of the
Dockerfile, of everything else the block is made from (docgen's code and data, the settings, the
user's templates, the document's path) and of the text it wrote. When every block of every configured
document still carries the fingerprint of its inputs and text as they are now, rendering again would
give the same text, so `docgen check` can answer at once.

The configuration comes from the settings cache (`docgen.cache`): what the full path last read from
pyproject.toml's bytes as they are now, so the fast path reads no TOML. Anything else — a fingerprint
that differs or is missing, no settings record for pyproject.toml as it is, a file it cannot read, a
command-line option — leaves the decision to the full check in `docgen.cli`, which reports errors and
drift exactly (and records the settings for the next run). The fast path therefore never answers
differently from the full check; it only answers sooner. It imports the standard library only, and
the `docgen` console script (`docgen.__main__`) tries it before importing the full CLI, so the common
case (everything up to date, as in a pre-commit hook) never imports Jinja2, packaging or the parser.
"""

from __future__ import annotations

import os

from docgen import cache, fingerprint, markers
from docgen.console import summary
from docgen.errors import MAX_FILE_BYTES, MarkerError

TYPE_CHECKING = False  # `typing` alone would double this module's start-up time
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO


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
            if os.fstat(handle.fileno()).st_size > MAX_FILE_BYTES:
                return None  # larger than the full check reads: it says so
            return handle.read()
    except OSError:
        return None


def _shown(path: str, cwd: str) -> str:
    """A path as `docgen.cli` shows it: relative to the current folder when below it."""
    if path.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, cwd).replace(os.sep, "/")
    return path


def _configured(argv: list[str], cwd: str) -> tuple[str, cache.Settings] | None:
    """The project folder and the settings of the configuration `docgen check ARGV` reads, as the
    full path last recorded them for pyproject.toml's bytes as they are now (`docgen.cache`); None
    when there is no such record, or another option is given.

    Without `--config`, the nearest pyproject.toml with a record is the configuration, provided the
    record lists every pyproject.toml passed on the way up, each with its bytes as they are now
    (the full path found no docgen table in them).
    """
    if len(argv) == 2 and argv[0] == "--config":
        config_path = os.path.join(cwd, argv[1])
        data = _read(config_path)
        root = os.path.dirname(os.path.realpath(config_path))
        found = cache.read(root, data) if data is not None else None
        return None if found is None else (root, found)
    if argv:
        return None
    passed: list[tuple[str, bytes]] = []  # pyproject.toml files without a record, on the way up
    folder = os.path.abspath(cwd)
    while True:
        standalone = os.path.join(folder, "docgen.toml")  # config.STANDALONE; config imports tomllib
        candidate = standalone if os.path.isfile(standalone) else os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            data = _read(candidate)
            if data is None:
                return None
            root = os.path.dirname(os.path.realpath(candidate))
            found = cache.read(root, data)
            if found is not None:
                for path, passed_data in passed:
                    if found.passed.get(os.path.relpath(path, folder)) != cache.file_digest(passed_data):
                        return None
                return root, found
            if candidate == standalone:  # always the configuration: the full check reads it
                return None
            passed.append((candidate, data))
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def up_to_date(argv: Sequence[str], cwd: str | None = None) -> list[str] | None:
    """The documents checked, when `docgen check ARGV` is sure to find every block up to date.

    None means "not decided here": run the full check.
    """
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:  # the current folder was deleted: the full check says so
            return None
    configured = _configured(list(argv), cwd)
    if configured is None:
        return None
    root, found = configured
    if not found.images:
        return None
    for pattern, matches in found.globs:  # a Dockerfile added or removed: other images, other blocks
        if cache.expand(root, pattern) != matches:
            return None
    for written, recorded in found.inputs.items():  # a bake file edited: other args, other targets
        input_path = _inside(written, root)
        data = _read(input_path) if input_path is not None else None
        if data is None or cache.file_digest(data) != recorded:
            return None
    here = os.path.realpath(cwd)
    templates: str | None = None
    if found.templates:
        templates = _inside(found.templates, root)
        if templates is None:
            return None
    outside: list[str] = []
    templates_digest = fingerprint.templates_digest(templates, root, outside)
    if outside:  # counted by where the links point, not by what is there: let the full check decide
        return None
    documents: dict[str, list[tuple[str, str, str]]] = {}  # output → the images listing it
    listed: set[tuple[str, str]] = set()  # (output, image name): a set, as 4,000 images may list one
    for dockerfile, outputs, image_settings, name in found.images:
        dockerfile_path = _inside(dockerfile, root)
        if dockerfile_path is None or not outputs:
            return None
        for output in outputs:
            path = _inside(output, root)
            if path is None:
                return None
            if (path, name) in listed:  # listed twice: the full check says so
                return None
            listed.add((path, name))
            documents.setdefault(path, []).append((name, dockerfile_path, image_settings))
    digests: dict[str, str | None] = {}
    for path, members in documents.items():
        fresh = fresh_blocks(root, path, members, templates_digest, digests)
        if fresh is None or not all(fresh.values()):
            return None
    return [_shown(path, here) for path in documents]


def fresh_blocks(
    root: str,
    path: str,
    members: list[tuple[str, str, str]],
    templates: bytes,
    digests: dict[str, str | None] | None = None,
    text: str | None = None,
) -> dict[str, bool] | None:
    """Each block of document `path` (by `Block.key`) → whether it still carries the fingerprint of its
    inputs and text as they are now, so rendering it again would give the same text.

    `members` are the images listing the document, in the order of the configuration: (name,
    Dockerfile, `fingerprint.image_settings`), paths absolute with symlinks resolved; `digests`
    remembers each Dockerfile's fingerprint between calls; `text` is the document's, when it is read
    already. None when the document cannot be judged
    here: unreadable, without blocks, a Dockerfile unreadable, or a mistake the full check reports (a
    block naming no image, or one that does not list the document …). The full check asks this too,
    and models only the images of the blocks that are not fresh."""
    digests = {} if digests is None else digests
    stamps = []
    document = os.path.relpath(path, root).replace(os.sep, "/")
    for name, dockerfile, settings in members:
        if dockerfile not in digests:
            data = _read(dockerfile)
            digests[dockerfile] = None if data is None else fingerprint.dockerfile_digest(data)
        dockerfile_digest = digests[dockerfile]
        if dockerfile_digest is None:
            return None
        dockerfile_rel = os.path.relpath(dockerfile, root).replace(os.sep, "/")
        setup = fingerprint.setup_digest(settings, templates, document, dockerfile_rel)
        stamps.append((name, dockerfile_digest, setup))
    try:
        if text is None:
            data = _read(path)
            text = data.decode("utf-8") if data is not None else ""
        blocks = markers.find_blocks(text, path, known=markers.SECTIONS)
    except (UnicodeDecodeError, MarkerError):
        return None
    if not blocks:
        return None
    index = {name: at for at, (name, _, _) in enumerate(stamps)}  # by name, each block in one step
    newline = markers.newline_outside(text, blocks)
    owned: set[tuple[str, str]] = set()
    found: dict[str, bool] = {}
    for block in blocks:
        image = block.image
        if block.name in markers.FAMILY_SECTIONS:
            rows = ""  # as `docgen.family.rows_option` reads it
            if block.name == "matrix":
                if block.attributes.count("rows=") > 1:  # an error of the full check's (`family.rows_option`)
                    return None
                value = markers.attribute(block.attributes, "rows")
                rows = "components" if value is None else value
            if image is not None or rows not in ("", "components", "images"):
                return None
            dockerfile_digest, setup = fingerprint.family_stamp(stamps, rows)
        else:
            if (image is None and len(stamps) != 1) or (image is not None and image not in index):
                return None
            about = stamps[0][0] if image is None else image
            if (block.name, about) in owned:  # two blocks about one image
                return None
            owned.add((block.name, about))
            _, dockerfile_digest, setup = stamps[index[about]]
        body = text[block.body_start : block.body_end]
        found[block.key] = (
            fingerprint.matches(block.name, block.attributes, dockerfile_digest, setup, body)
            # else `docgen sync` would now write the body with other line endings
            and markers.normalise_body(body, newline) == body
        )
    return found


def fast_check(argv: Sequence[str], out: TextIO, cwd: str | None = None) -> int | None:
    """Run `docgen check ARGV` on the fast path: the exit code, or None to run the full check.

    Never in CI (see `fingerprint.trusted`): the fast path trusts the fingerprints in the README's
    markers and the settings record in `.docgen_cache/`, and a pull request can forge both."""
    if not fingerprint.trusted():
        return None
    checked = up_to_date(argv, cwd)
    if checked is None:
        return None
    for shown in checked:
        print(f"{shown} is up to date", file=out)
    print(summary(len(checked), 0), file=out)
    return 0
