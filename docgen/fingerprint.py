"""Fingerprints of generated blocks: what a block was made from, and what it said when docgen wrote it.

`docgen sync` writes them into each begin marker, like cog's checksum:

    <!-- BEGIN docgen:versions dockerfile=1a2b3c4d setup=5e6f7a8b text=9c0d1e2f -->

- `dockerfile`: the Dockerfile's bytes;
- `setup`: everything else the block is made from: docgen's version, code and data (every `.py` and
  template file of the package), the major versions of Jinja2, MarkupSafe and `packaging`, the
  image's `[tool.docgen]` settings (its own entry and what every image reads: `image_settings`), the
  user's template folder, and the paths of the document and of the Dockerfile, symlinks resolved
  (links to the Dockerfile are relative to the document);
- `text`: the block's body as docgen wrote it.

Digests are of the exact bytes: whatever could change the rendered text changes a fingerprint. With
them, `docgen check` tells a hand edit (the text no longer matches `text`) from a
changed Dockerfile (`dockerfile` differs), and decides without parsing anything when everything matches
(`docgen.fastcheck`). This module is imported on that fast path: standard library only, nothing heavy.
"""

from __future__ import annotations

import os
import stat

from docgen import __version__

try:  # the built-in module: `hashlib` would first load OpenSSL, which costs milliseconds at start-up
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - Python builds without it
    from hashlib import blake2b

TYPE_CHECKING = False  # `typing` costs milliseconds at start-up; this module is on the fast path
if TYPE_CHECKING:
    from collections.abc import Mapping

KEYS = ("dockerfile", "setup", "text")
"""The fingerprint attributes of a begin marker, in the order docgen writes them."""

_SIZE = 4  # bytes per digest: 8 hex digits, enough to tell an edit from none (1 in 4 billion)
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_package_digest: str | None = None


def digest(*parts: bytes, size: int = _SIZE) -> str:
    """A short hex digest of `parts` (each length-prefixed, so the split between them counts); `size`
    bytes long."""
    h = blake2b(digest_size=size)
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def text_digest(name: str, body: str) -> str:
    """The fingerprint of block `name`'s body as it stands in the document (the name counts: a body
    moved under another block's markers is not what docgen wrote there)."""
    return digest(name.encode("utf-8"), body.encode("utf-8"))


def dockerfile_digest(data: bytes) -> str:
    """The fingerprint of a Dockerfile's bytes."""
    return digest(data)


def _files_digest(
    folder: str, suffixes: tuple[str, ...] | None, within: str | None = None, outside: list[str] | None = None
) -> bytes:
    """Relative path and bytes of every file under `folder` (with one of `suffixes`), in sorted order.

    Symlinked folders are followed (a template loader follows them too), each real folder once, but
    not out of folder `within` (the project): such a link, to a folder or a file, counts by where it
    points and is never read, so a link to `/` cannot make docgen read the whole disk, nor one to
    `/proc/self/environ` put a digest of it in a fingerprint (such links are added to the list
    `outside`, when given).
    A file that cannot be read (a dangling symlink, no
    permission) or is not a regular file (a FIFO, which would block) counts by its name and what it
    is, so it neither stops docgen nor goes unnoticed.
    """
    parts: list[bytes] = []
    reals = {folder: os.path.realpath(folder)}  # real path of each folder walked (links resolved once)
    seen = set(reals.values())
    inside = None if within is None else os.path.realpath(within).rstrip(os.sep) + os.sep
    for top, dirs, files in os.walk(folder, followlinks=True):
        rel = top[len(folder) :].strip(os.sep)
        prefix = rel.replace(os.sep, "/") + "/" if rel else ""
        kept = []
        for name in sorted(d for d in dirs if d != "__pycache__"):
            path = os.path.join(top, name)
            real = os.path.realpath(path) if os.path.islink(path) else os.path.join(reals[top], name)
            if inside is not None and not real.startswith(inside):
                parts.append(os.fsencode(prefix + name))
                parts.append(b"\0a link out of the project to " + os.fsencode(real))
                if outside is not None:
                    outside.append(path)
            elif real not in seen:
                seen.add(real)
                reals[path] = real
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            if suffixes is None or name.endswith(suffixes):
                parts.append(os.fsencode(prefix + name))
                path = os.path.join(top, name)
                target = os.path.realpath(path) if inside is not None and os.path.islink(path) else None
                if target is not None and not target.startswith(inside or ""):
                    parts.append(b"\0a link out of the project to " + os.fsencode(target))  # never read
                    if outside is not None:
                        outside.append(path)
                else:
                    parts.append(_file_bytes(path))
    return bytes.fromhex(digest(*parts))


def _file_bytes(path: str) -> bytes:
    """A digest of the bytes of file `path`, read a piece at a time (a file of gigabytes costs no
    memory); for anything that is not a readable regular file, what it is."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError as exc:
        return f"\0unreadable: {exc.errno}".encode()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b"\0not a regular file"
        whole = blake2b()
        while chunk := os.read(fd, 1 << 20):
            whole.update(chunk)
        return whole.digest()
    except OSError as exc:
        return f"\0unreadable: {exc.errno}".encode()
    finally:
        os.close(fd)


def package_digest() -> bytes:
    """docgen's version, code and data (every `.py` and template file of the installed package), and
    the installed versions of the libraries that shape its output (`dependency_versions`)."""
    global _package_digest
    if _package_digest is None:
        _package_digest = digest(
            __version__.encode(), _files_digest(_PACKAGE, (".py", ".j2")), dependency_versions().encode()
        )
    return bytes.fromhex(_package_digest)


_DEPENDENCIES = ("jinja2", "markupsafe", "packaging")
"""The libraries whose version can change a rendered block: Jinja2 renders, MarkupSafe escapes,
`packaging` reads pins and wheel names."""


def dependency_versions(path: list[str] | None = None) -> str:
    """`jinja2=3 markupsafe=3 packaging=26`: the major version of each of `_DEPENDENCIES` that `import`
    would load from `path` (default `sys.path`), read from the name of its `.dist-info` folder beside
    it, without importing it (`importlib.metadata` costs milliseconds at start-up). A library found
    without metadata counts as `?`, one not found as `-`.

    Only the major version: changes to what these libraries print come with major releases, and two
    developers a patch release apart must not rewrite each other's fingerprints at every sync.
    """
    import sys

    found: dict[str, str] = {}
    cwd = os.getcwd()
    stdlib = sys.base_prefix + os.sep
    for entry in sys.path if path is None else path:
        if path is None and (not entry or entry == cwd):
            # `python -m docgen` puts the current folder first; a project folder named `packaging/`
            # is not the library, and `docgen` (whose path does not have it) must agree
            continue
        if path is None and entry.startswith(stdlib) and "-packages" not in entry:
            continue  # the standard library's folders (hundreds of names, none of these libraries)
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        here = [d for d in _DEPENDENCIES if d not in found and (d in names or d + ".py" in names)]
        if not here:
            continue
        versions = {}  # wheel metadata folders: `Jinja2-3.1.4.dist-info`, `jinja2-3.1.4.dist-info`
        for name in names:
            if name.endswith(".dist-info"):
                project, _, version = name[: -len(".dist-info")].partition("-")
                versions[project.lower()] = version.split(".", 1)[0]
        for dependency in here:
            found[dependency] = versions.get(dependency, "?")
        if len(found) == len(_DEPENDENCIES):
            break
    return " ".join(f"{name}={found.get(name, '-')}" for name in _DEPENDENCIES)


def canonical(value: object) -> str:
    """A stable text form of TOML data (tables sorted by key)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k!r}:{canonical(value[k])}" for k in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    return repr(value)


_SHARED = ("arch-arg", "templates", "names", "base-images")
"""The `[tool.docgen]` keys every image reads (`lint` renders nothing; `images` is per image)."""


def trusted() -> bool:
    """Whether `docgen check` may take a block whose fingerprint matches for up to date without
    rendering it: not in CI (`CI=true`, set by GitHub Actions, GitLab CI and most others), where the
    commit under test could carry fingerprints (or a `.docgen_cache` record) forged by hand."""
    return os.environ.get("CI", "").lower() not in ("true", "1")


def shared_settings(table: Mapping[str, object]) -> str:
    """The part of the settings every image's blocks are made from: the shared keys of the `[tool.docgen]`
    table as `tomllib` parsed it (comments and layout do not count), the entries that `produces` an
    image (an image built FROM it shows their Key versions and hardware), and whether a top-level
    `arch-arg` is the only image's own. A digest, computed once per configuration."""
    images = table.get("images")
    entries = images if isinstance(images, list) else []
    shared = {key: table[key] for key in _SHARED if key in table}
    makers = [entry for entry in entries if isinstance(entry, dict) and "produces" in entry]
    single = "arch-arg" in table and len(entries) == 1
    return digest(canonical([shared, makers, single]).encode())


def image_settings(shared: str, entry: Mapping[str, object], name: str) -> str:
    """The settings of one image: the `shared_settings`, its own `[[tool.docgen.images]]` entry and its
    name. Adding, removing or changing another image (one that `produces` nothing) leaves it as it is,
    and so every block of this image."""
    return digest(shared.encode(), canonical(dict(entry)).encode(), name.encode())


def templates_digest(
    templates: str | None, root: str | None = None, outside: list[str] | None = None
) -> bytes:
    """The user's template folder (None for none), as the `setup` fingerprint covers it; computed once
    per run. `root` is the project folder, which symlinks in the template folder are followed within;
    links out of it are added to `outside` (the fast path of `check` then steps aside, as the digest
    counts them by where they point, not by what is there)."""
    if not templates or not os.path.isdir(templates):
        return b""
    return _files_digest(templates, None, root, outside)


def setup_digest(settings: str, templates: bytes, document: str, dockerfile: str = "") -> str:
    """The fingerprint of everything but the Dockerfile's bytes: docgen itself, settings (a
    `image_settings`), templates (a `templates_digest`), and where the document and the Dockerfile are.

    `document` and `dockerfile` are the output's and the Dockerfile's paths relative to the project
    root, symlinks resolved, `/`-separated (links from the document to the Dockerfile are made from
    them, and so is the Dockerfile's name in the tables: the same bytes elsewhere give other text).
    """
    return digest(
        package_digest(), settings.encode(), templates, os.fsencode(document), os.fsencode(dockerfile)
    )


def parse_attributes(attributes: str) -> dict[str, str]:
    """The `key=value` words of a begin marker's attributes (other words are ignored)."""
    result: dict[str, str] = {}
    for word in attributes.split():
        key, sep, value = word.partition("=")
        if sep:
            result[key] = value
    return result


def with_fingerprint(attributes: str, values: Mapping[str, str]) -> str:
    """`attributes` with the fingerprint words replaced by `values` (other words kept, in order)."""
    kept = [w for w in attributes.split() if w.partition("=")[0] not in KEYS]
    return " ".join([*kept, *(f"{k}={values[k]}" for k in KEYS if k in values)])


def matches(name: str, attributes: str, dockerfile: str, setup: str, body: str) -> bool:
    """True when block `name`'s fingerprint says it is exactly what docgen would write now."""
    found = parse_attributes(attributes)
    return (
        found.get("dockerfile") == dockerfile
        and found.get("setup") == setup
        and found.get("text") == text_digest(name, body)
    )


def family_stamp(members: list[tuple[str, str, str]], options: str = "") -> tuple[str, str]:
    """The `dockerfile` and `setup` fingerprints of an `images` or `matrix` block: of every image it
    covers, each given as (name, its `dockerfile` fingerprint, its `setup` fingerprint), in order, and of
    the block's `options` (`rows=images`). Changing, adding or removing one of them changes both; an
    image's own blocks keep their own fingerprints."""
    dockerfile = digest(*(f"{name}\0{value}".encode() for name, value, _ in members))
    setup = digest(*(f"{name}\0{value}".encode() for name, _, value in members), options.encode())
    return dockerfile, setup
