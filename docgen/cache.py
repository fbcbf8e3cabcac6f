"""The settings cache: what the fast path of `docgen check` needs from pyproject.toml, as the full path
read it with `tomllib` and validated it.

Importing `tomllib` costs more than the fast path's whole budget, so the fast path does not read TOML.
Instead, each `docgen check` and `docgen sync` that loads a configuration writes what it found to
`.docgen_cache/settings` beside pyproject.toml: the template folder, and each image's Dockerfile and
outputs as written and the settings digest of its `setup` fingerprints. The record is keyed by a digest
of pyproject.toml's bytes and of docgen's code and data (`fingerprint.package_digest`), so any edit
of either makes it stale, and it carries a checksum of itself, so a torn or corrupt file reads as no
cache. The next `docgen check` hashes pyproject.toml, finds the record, and compares fingerprints
without parsing anything. No record (deleted, stale, corrupt, never written because the folder is
read-only) only means the full check runs, which writes it again when it can.

Like ruff's and mypy's caches, the folder holds its own `.gitignore` (`*`), so git never sees it;
deleting it is always safe. A record also lists the pyproject.toml files without a docgen table that
the full path passed on its way up from the current folder (a subproject's), each with the digest of
its bytes, so that the fast path may pass them too, and the other files the images come from (a
`bake` file) with the digest of theirs.

Standard library only: the fast path imports this module.
"""

from __future__ import annotations

import os

from docgen import fingerprint

FOLDER = ".docgen_cache"
"""The cache folder, beside pyproject.toml."""

_FILE = "settings"
_VERSION = "docgen settings cache 4"  # the record's format; a record of another format is no record
_GITIGNORE = b"# Made by docgen: a cache, safe to delete.\n*\n"
_SIZE = 16  # bytes per digest: a cache key must not collide by chance
_LIMIT = 1024 * 1024  # a record larger than this was not written by docgen


class Settings:
    """The record of one configuration (see the module docstring)."""

    __slots__ = ("templates", "images", "passed", "globs", "inputs")

    def __init__(
        self,
        templates: str,
        images: list[tuple[str, list[str], str, str]],
        passed: dict[str, str],
        globs: list[tuple[str, list[str]]] | None = None,
        inputs: dict[str, str] | None = None,
    ) -> None:
        self.templates = templates
        """The `templates` folder as written ('' when there is none)."""
        self.images = images
        """(dockerfile, outputs, settings, name) of every image: the paths as written (a glob's matches
        one by one, `{name}` filled), `fingerprint.image_settings` of the image, and its name (which
        `image=` on markers names)."""
        self.passed = passed
        """pyproject.toml files without a docgen table below this one (path relative to its folder) →
        `file_digest` of their bytes."""
        self.globs = globs or []
        """Each `dockerfile` glob and the files it matched (`expand`): the record holds while the
        glob matches the same files."""
        self.inputs = inputs or {}
        """Files besides pyproject.toml that the images come from (a `bake` file): path relative to
        the root, `/`-separated → `file_digest` of their bytes. The record holds while each has them."""


def is_glob(path: str) -> bool:
    """True when a configured `dockerfile` is written as a glob."""
    return any(c in path for c in "*?[")


def expand(root: str, pattern: str) -> list[str]:
    """The regular files glob `pattern` matches under `root` (`**` any folders; names starting with
    `.` only when the pattern spells the dot), relative to `root`, `/`-separated, sorted. The config
    and the fast path both expand globs here, so they cannot disagree."""
    import glob

    found = glob.glob(pattern, root_dir=root, recursive=True)
    return sorted(p.replace(os.sep, "/") for p in found if os.path.isfile(os.path.join(root, p)))


def file_digest(data: bytes) -> str:
    """The digest of a file's bytes, as records keep them."""
    return fingerprint.digest(data, size=_SIZE)


def _key(pyproject: bytes) -> str:
    """What a record is valid for: pyproject.toml's bytes and docgen's code, data and libraries."""
    return fingerprint.digest(fingerprint.package_digest(), pyproject, size=_SIZE)


def _encode(key: str, found: Settings) -> bytes:
    """A record: NUL-separated fields (no configured path holds a NUL: `config` refuses them), and
    the checksum of all of them last."""
    fields = [_VERSION, key, found.templates, str(len(found.images))]
    for dockerfile, outputs, settings, name in found.images:
        fields += [dockerfile, settings, name, str(len(outputs)), *outputs]
    fields.append(str(len(found.passed)))
    for path in sorted(found.passed):
        fields += [path, found.passed[path]]
    fields.append(str(len(found.globs)))
    for pattern, matches in found.globs:
        fields += [pattern, str(len(matches)), *matches]
    fields.append(str(len(found.inputs)))
    for path in sorted(found.inputs):
        fields += [path, found.inputs[path]]
    payload = "\0".join(fields).encode("utf-8", "surrogateescape")
    return payload + b"\0" + file_digest(payload).encode()


def _decode(data: bytes, key: str) -> Settings | None:
    """The record in `data` when it is whole and made for `key`, else None."""
    payload, _, checksum = data.rpartition(b"\0")
    if checksum != file_digest(payload).encode():
        return None
    fields = iter(payload.decode("utf-8", "surrogateescape").split("\0"))
    try:
        if next(fields) != _VERSION or next(fields) != key:
            return None
        templates = next(fields)
        images = []
        for _ in range(int(next(fields))):
            dockerfile, settings, name = next(fields), next(fields), next(fields)
            images.append((dockerfile, [next(fields) for _ in range(int(next(fields)))], settings, name))
        passed = {}
        for _ in range(int(next(fields))):
            path = next(fields)
            passed[path] = next(fields)
        globs = []
        for _ in range(int(next(fields))):
            pattern = next(fields)
            globs.append((pattern, [next(fields) for _ in range(int(next(fields)))]))
        inputs = {}
        for _ in range(int(next(fields))):
            path = next(fields)
            inputs[path] = next(fields)
    except (StopIteration, ValueError):
        return None
    if next(fields, None) is not None:
        return None
    return Settings(templates, images, passed, globs, inputs)


def read(root: str, pyproject: bytes) -> Settings | None:
    """The record for the pyproject.toml in folder `root` whose bytes are `pyproject`, or None."""
    folder = os.path.join(root, FOLDER)
    path = os.path.join(folder, _FILE)
    try:
        # a FIFO would block the read; a link (of the folder or the record) leads out of the project
        if os.path.islink(folder) or os.path.islink(path) or not os.path.isfile(path):
            return None
        with open(path, "rb") as handle:
            data = handle.read(_LIMIT + 1)
    except OSError:
        return None
    return None if len(data) > _LIMIT else _decode(data, _key(pyproject))


def write(root: str, pyproject: bytes, found: Settings) -> None:
    """Record `found` for the pyproject.toml in folder `root` whose bytes are `pyproject`.

    Never fails: a folder that cannot be written (a read-only checkout, a full disk) only leaves the
    fast path without a record. The record is written to a temporary file and renamed over the old
    one, so a reader (another `docgen check` running at the same time) sees the old record or the new
    one, never half of one; an unchanged record is not written again. The pyproject.toml files passed
    by runs from other folders, recorded for the same bytes, are kept. A `.docgen_cache` that is a
    symlink is not written through (a checkout must not make docgen write outside it).
    """
    folder = os.path.join(root, FOLDER)
    path = os.path.join(folder, _FILE)
    key = _key(pyproject)
    try:
        if os.path.islink(folder):
            return
        old = b""
        if os.path.isfile(path) and not os.path.islink(path):  # a link is replaced, not read
            with open(path, "rb") as handle:
                old = handle.read(_LIMIT + 1)
        recorded = _decode(old, key)
        if recorded is not None:  # what runs from other folders passed stays true: keep it
            found = Settings(
                found.templates,
                found.images,
                {**recorded.passed, **found.passed},
                found.globs,
                found.inputs,
            )
        data = _encode(key, found)
        if data == old:
            return
        os.makedirs(folder, exist_ok=True)
        ignore = os.path.join(folder, ".gitignore")
        if not os.path.isfile(ignore):
            _replace(ignore, _GITIGNORE)
        _replace(path, data)
    except OSError:
        pass


def _replace(path: str, data: bytes) -> None:
    """Write `data` to `path` at once: into a new file beside it, then renamed over it."""
    import tempfile

    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
