"""`[tool.docgen]` in pyproject.toml (or the same keys at the top of a docgen.toml, for a repository
without Python): which Dockerfile feeds which documentation files, and how.

Read with `tomllib` (`tomli` on Python 3.10). Unknown keys and wrong types are errors naming the key
and its line; paths are relative to the folder holding pyproject.toml and may not leave it.

    [tool.docgen]
    arch-arg = "GPU_ARCH"                 # the build arg listing GPU targets (Supported hardware)
    templates = "docs/templates"          # a folder whose templates override the built-in ones

    [tool.docgen.lint]
    disable = ["DG003"]                   # lint rules (docgen.findings.RULES) not reported

    [tool.docgen.names]                   # display names: component or build-arg name -> shown name
    torch = "PyTorch"

    [[tool.docgen.images]]
    dockerfile = "docker/rocm/Dockerfile.rocm"
    outputs = ["docker/rocm/README.md"]   # files `docgen sync` writes and `docgen check` verifies
    pages = ["images/rocm.md"]            # MkDocs pages (under docs_dir) filled at build time
    versions = ["ROCm", "Python", "torch"]  # rows of the Key versions table (optional)
    produces = ["org/rocm-base:latest"]   # images this Dockerfile builds (followed by images FROM them)

    [[tool.docgen.images]]
    dockerfile = "docker/Dockerfile.*"    # a glob: one image per file, named after it (`cuda`, `rocm`)
    name = "vllm-{name}"                  # optional; `{name}` is the file's
    outputs = ["docker/README.{name}.md"] # `{name}` is the image's name
    args = { CUDA_VERSION = "13.0.2" }    # build args, as `docker build --build-arg` (a variant)
    target = "vllm-openai"                # the stage built, as `docker build --target`
    exclude = ["docker/Dockerfile.*.dev"] # globs of files the `dockerfile` glob does not take

    [[tool.docgen.images]]
    bake = "docker/docker-bake.hcl"       # one image per target of a bake file (`docgen.bake`)
    targets = ["cu129", "cu130"]          # optional: which (default: as `docker buildx bake` builds)
    outputs = ["docker/README.{name}.md"] # `{name}` is the target's name

    [tool.docgen.base-images."org/base"]  # what a base image provides that its tag does not say
    provides = { PyTorch = "2.6.0", CUDA = "12.4" }
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from docgen import cache
from docgen.errors import MAX_FILE_BYTES, TOO_LARGE, ConfigError
from docgen.fingerprint import image_settings, shared_settings

DEFAULT_ARCH_ARG = "GPU_ARCH"

STANDALONE = "docgen.toml"
"""The configuration file of a repository without pyproject.toml: `[tool.docgen]`'s keys at its top
level. In a folder holding both, docgen.toml is the configuration (as ruff's ruff.toml is)."""


@dataclass(frozen=True)
class ImageConfig:
    """One Dockerfile and the documentation generated from it."""

    dockerfile: Path
    """Absolute path of the Dockerfile."""
    display: str
    """The Dockerfile path relative to the project root, as shown in messages and links."""
    outputs: tuple[Path, ...] = ()
    """Absolute paths of the Markdown files `sync` writes."""
    pages: tuple[str, ...] = ()
    """MkDocs page paths (relative to docs_dir) the plugin fills at build time."""
    arch_arg: str = DEFAULT_ARCH_ARG
    """The build arg whose value lists the GPU targets."""
    arch_arg_set: bool = False
    """True when the config names `arch_arg` for this image: in its own table, or in `[tool.docgen]`
    when it is the only image (then it must be an ARG or ENV of the Dockerfile). With several images
    the top-level value is a default some of them may not have (a CUDA image beside ROCm ones)."""
    arch_arg_line: int | None = None
    """Line of the `arch-arg` key that names it in the config file, for messages."""
    versions: tuple[str, ...] | None = None
    """Names of the Key versions rows, in order; None for the default choice."""
    versions_line: int | None = None
    """Line of the `versions` key in the config file, for messages."""
    pages_line: int | None = None
    """Line of the `pages` key in the config file, for messages."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names: component or build-arg name → name shown in tables."""
    settings: str = ""
    """A digest of the settings this image's blocks are made from (see `fingerprint.image_settings`)."""
    produces: tuple[str, ...] = ()
    """Image names this Dockerfile builds (`rocm/vllm-dev:base`): a Dockerfile built FROM one of them
    shows this one's Key versions too."""
    args: Mapping[str, str] = field(default_factory=dict)
    """Build args the image is built with (`args = { CUDA_VERSION = "13.0.2" }`), as `--build-arg`."""
    args_line: int | None = None
    """Line of the `args` key in the config file, for messages."""
    name: str = ""
    """The image's name: `name` of its entry, else from its file (`rocm` for `Dockerfile.rocm` or
    `rocm.Dockerfile`, else its folder's name)."""
    written: tuple[str, tuple[str, ...]] = ("", ())
    """The Dockerfile and outputs as the config writes them (a glob's match as found, `{name}` filled),
    for the settings cache: the fast path resolves them again, as symlinks may have moved."""
    target: str | None = None
    """The stage built, as `docker build --target` (the entry's `target`, or its bake target's); None
    for the last stage."""
    target_at: tuple[str, int | None] | None = None
    """Where `target` is written (the config file or the bake file, and the line), for messages."""
    bake_args: tuple[str, ...] = ()
    """The names in `args` that its bake target gives (not the entry's own `args`)."""
    bake_own: tuple[tuple[str, int | None], ...] = ()
    """Those its bake target's own block sets, with their lines in the bake file: one no ARG of the
    Dockerfile declares is a mistake there (a typo, a stale entry). One inherited from a shared
    target (`_common`) is not: that block serves several Dockerfiles."""
    bake_at: tuple[str, str] | None = None
    """(the bake file as shown, the target's name) for an image of a bake file."""
    tags: tuple[str, ...] = ()
    """The image names the image is tagged with (its bake target's `tags`)."""


@dataclass(frozen=True)
class Config:
    """The whole `[tool.docgen]` table, paths resolved."""

    root: Path
    """The folder holding pyproject.toml (or the current folder when there is none)."""
    source: str
    """Where the config came from (`pyproject.toml`), for messages."""
    images: tuple[ImageConfig, ...] = ()
    """Every configured Dockerfile, in order."""
    templates: Path | None = None
    """A folder of user templates overriding the built-in ones."""
    base_images: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """`[tool.docgen.base-images]`: image name (with or without a tag) → {shown name: version} it provides."""
    lint_disable: tuple[str, ...] = ()
    """Rule ids (`DG003`) that lint, audit and check do not report (`[tool.docgen.lint] disable`)."""
    globs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each `dockerfile` glob of the config and the files it matched (`cache.expand`, before `exclude`
    removes any: the config's bytes hold the excludes), for the settings cache: a Dockerfile added or
    removed changes the images without changing the config."""
    inputs: tuple[tuple[str, str], ...] = ()
    """Files besides the config that images are read from (each `bake` file): path relative to the
    root, `/`-separated → `cache.file_digest` of its bytes, for the settings cache."""

    @functools.cached_property
    def producers(self) -> tuple[ImageConfig, ...]:
        """The images whose `produces` names an image (few or none), for the many lookups of the base
        image of every image: looking through all of them each time made 4,000 images quadratic."""
        return tuple(image for image in self.images if image.produces)

    def images_for_page(self, page: str) -> tuple[ImageConfig, ...]:
        """The images whose `pages` list `page` (a path relative to docs_dir, `/`-separated), in the
        order of the configuration."""
        return self._page_images.get(page, ())

    @functools.cached_property
    def _page_images(self) -> dict[str, tuple[ImageConfig, ...]]:
        """Page → the images listing it, made once: the MkDocs plugin asks for every page of a site,
        and looking through every image each time is quadratic in a family of thousands."""
        found: dict[str, list[ImageConfig]] = {}
        for image in self.images:
            for page in dict.fromkeys(image.pages):
                found.setdefault(page, []).append(image)
        return {page: tuple(images) for page, images in found.items()}


_TOP_KEYS: dict[str, type] = {
    "arch-arg": str,
    "templates": str,
    "names": dict,
    "images": list,
    "base-images": dict,
    "lint": dict,
}
_LINT_KEYS: dict[str, type] = {"disable": list}
_IMAGE_KEYS: dict[str, type] = {
    "dockerfile": str,
    "outputs": list,
    "pages": list,
    "arch-arg": str,
    "versions": list,
    "names": dict,
    "produces": list,
    "name": str,
    "args": dict,
    "target": str,
    "exclude": list,
    "bake": str,
    "targets": list,
}
_BASE_IMAGE_KEYS: dict[str, type] = {"provides": dict}
_TYPE_NAMES: dict[type, str] = {str: "a string", list: "a list", dict: "a table"}


def _key_line(text: str, key: str, start: int = -1) -> int | None:
    """Best-effort line of `key = …` in the TOML text (tomllib does not report positions): the first
    one from offset `start` on (an image's own table), else from the docgen tables on (a `version` in
    `[project]` is not the one meant), else anywhere."""
    pattern = re.compile(r"^[ \t]*" + re.escape(key) + r"[ \t]*=", re.MULTILINE)
    inline = re.compile(r"(?<![\w.-])" + re.escape(key) + r"[ \t]*=")  # `images = [{ dockerfile = … }]`
    docgen = max(text.find("docgen"), 0)
    match = (
        (pattern.search(text, start) if start >= 0 else None)
        or pattern.search(text, max(text.find("[tool.docgen"), 0))
        or inline.search(text, docgen)
        or pattern.search(text)
    )
    return text.count("\n", 0, match.start()) + 1 if match else None


_IMAGE_HEADER = re.compile(
    r"^[ \t]*\[\[[ \t]*(?:tool[ \t]*\.[ \t]*docgen[ \t]*\.[ \t]*)?images[ \t]*\]\]", re.MULTILINE
)


def _image_starts(text: str) -> list[int]:
    """Offsets just after each `[[tool.docgen.images]]` header in `text`, in order (found once per
    file: looking each image's up again would cost images² on a config of 1,000 images)."""
    return [match.end() for match in _IMAGE_HEADER.finditer(text)]


def _image_start(starts: list[int], index: int) -> int:
    """Where the `index`-th image's keys are looked for first, or -1 (images written as an inline
    array, or a header spelled with quotes)."""
    return starts[index] if index < len(starts) else -1


def _listed_once(
    key: str, values: list[tuple[str, ...]], why: str, where: tuple[str, str, list[int]]
) -> None:
    """Raise `ConfigError` for a value of `key` that two image entries list (`values`: each entry's),
    at the second entry's key; `why` says why one entry is all it may have. `where` is the config file
    as shown, its text and where each image's entry starts (one offset per image)."""
    display, text, starts = where
    owners: dict[str, int] = {}
    for index, listed in enumerate(values):
        for value in listed:
            if owners.setdefault(value, index) != index:
                raise ConfigError(
                    f"{key} = {value!r} is listed by two [[tool.docgen.images]] (entries {owners[value] + 1} "
                    f"and {index + 1}); {why}",
                    display,
                    _key_line(text, key, starts[index]),
                )


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a `[tool.docgen]` table, from `start` upwards."""
    return _nearest(start)[0]


def _nearest(start: Path) -> tuple[Path | None, dict[str, str], bytes | None]:
    """`find_pyproject(start)`, the pyproject.toml files without a docgen table passed on the way
    (path relative to the found one's folder → `cache.file_digest` of their bytes), which the
    settings cache records, and the bytes of the file found when they were read here. The nearest
    pyproject.toml that cannot be read or is not valid TOML is the one found: `load_config` then says
    what is wrong with it, rather than use a parent's."""
    folder = os.path.abspath(start)
    passed: list[tuple[str, bytes]] = []
    while True:
        standalone = os.path.join(folder, STANDALONE)
        if os.path.isfile(standalone):
            return (
                Path(standalone),
                {os.path.relpath(p, folder): cache.file_digest(d) for p, d in passed},
                None,
            )
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as handle:
                    data = handle.read()
                tool = parse_toml(_text(data)).get("tool")
            except (OSError, UnicodeDecodeError, ConfigError):
                return Path(candidate), {}, None
            if (isinstance(tool, dict) and "docgen" in tool) or _arrays_with_docgen(tool):
                return (
                    Path(candidate),
                    {os.path.relpath(p, folder): cache.file_digest(d) for p, d in passed},
                    data,
                )
            passed.append((candidate, data))
        parent = os.path.dirname(folder)
        if parent == folder:
            return None, {}, None
        folder = parent


def _arrays_with_docgen(tool: object) -> bool:
    """True for `[[tool]]` tables with a docgen key: meant as the configuration, and wrong (`load_config`
    says `tool` must be a table)."""
    return isinstance(tool, list) and any(isinstance(t, dict) and "docgen" in t for t in tool)


def _text(data: bytes) -> str:
    """The bytes of a TOML file as text, line endings read as `open` reads them (universal newlines)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def parse_toml(text: str, display: str = "pyproject.toml") -> dict[str, Any]:
    """`text` parsed as TOML; a `ConfigError` naming the line for invalid TOML or a byte-order mark."""
    # imported here, not with the module: `tomllib` and the `datetime` it loads cost about 5 ms, and
    # `docgen show DOCKERFILE` reads no configuration
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    if text.startswith("\ufeff"):
        raise ConfigError(
            "starts with a byte-order mark, which TOML does not allow (pip refuses the file too); "
            "save it as UTF-8 without one",
            display,
            1,
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise ConfigError(f"invalid TOML: {exc}", display, int(match.group(1)) if match else None) from None
    except RecursionError:  # `x = [[[[…]]]]` thousands deep
        message = "arrays or tables nested too deeply to read (Python's recursion limit)"
        raise ConfigError(message, display) from None


NO_CONFIG = "(no [tool.docgen] found)"
"""The `source` of the Config `load_config` gives when no file configures docgen."""


def load_config(path: Path | None = None, cwd: Path | None = None, *, remember: bool = False) -> Config:
    """Read `[tool.docgen]` from `path`, or from the nearest pyproject.toml that has one.

    Without any, returns an empty Config rooted at `cwd` (commands then need `--dockerfile`). With
    `remember`, a valid configuration is recorded in the settings cache (`docgen.cache`) for the fast
    path of `docgen check`.
    """
    cwd = cwd or Path.cwd()
    passed: dict[str, str] = {}
    raw: bytes | None = None  # the file's bytes, when `_nearest` read them already
    if path is None:
        path, passed, raw = _nearest(cwd)
        if path is None:
            return Config(root=cwd.resolve(), source=NO_CONFIG)
    display = os.path.relpath(path, cwd) if path.is_absolute() else str(path)
    try:
        if raw is None:
            raw = path.read_bytes()
        text = _text(raw)
    except FileNotFoundError:
        raise ConfigError("config file not found", display) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config: {exc}", display) from None
    data = parse_toml(text, display)
    tool = data.get("tool", {})
    if path.name == STANDALONE:
        table: Any = data
    elif not isinstance(tool, dict):
        raise ConfigError("tool must be a table (it holds [tool.docgen])", display, _key_line(text, "tool"))
    else:
        table = tool.get("docgen")
    if table is None:
        return Config(root=path.resolve().parent, source=display)
    if not isinstance(table, dict):
        raise ConfigError("[tool.docgen] must be a table", display, _key_line(text, "docgen"))
    config = parse_config(table, path.resolve().parent, display, text)
    if remember:
        images = [
            (image.written[0], list(image.written[1]), image.settings, image.name) for image in config.images
        ]
        globs = [(pattern, list(matches)) for pattern, matches in config.globs]
        found = cache.Settings(str(table.get("templates", "")), images, passed, globs, dict(config.inputs))
        cache.write(str(config.root), raw, found)
    return config


def _check(
    table: Mapping[str, Any],
    allowed: Mapping[str, type],
    where: str,
    display: str,
    text: str,
    start: int = -1,
) -> None:
    for key, value in table.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise ConfigError(
                f"unknown key {key!r} in {where} (known keys: {known})", display, _key_line(text, key, start)
            )
        expected = allowed[key]
        if not isinstance(value, expected):
            raise ConfigError(
                f"{where}.{key} must be {_TYPE_NAMES[expected]}, not {type(value).__name__}",
                display,
                _key_line(text, key, start),
            )
        if key != "images" and _holds_nul(value):
            raise ConfigError(
                f"{where}.{key} holds a NUL character (\\u0000), which no path, name or row can have",
                display,
                _key_line(text, key, start),
            )


def _holds_nul(value: object) -> bool:
    """True when a string in `value` (a string, or a list or table of them, keys included) has a NUL:
    TOML's `\\u0000` escape, which would end up as a NUL byte in a README (a binary file to git)."""
    if isinstance(value, str):
        return "\0" in value
    if isinstance(value, list):
        return any(_holds_nul(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    return False


def _strings(value: list[Any], key: str, display: str, text: str, start: int = -1) -> tuple[str, ...]:
    for item in value:
        if not isinstance(item, str):
            raise ConfigError(
                f"{key} must be a list of strings", display, _key_line(text, key.rsplit(".", 1)[-1], start)
            )
    return tuple(value)


def resolve_path(
    root: Path, value: str, key: str, display: str = "pyproject.toml", text: str = "", start: int = -1
) -> Path:
    """`value` resolved against `root`; an error when it leaves the project (symlinks followed).
    `text` is the config file's text and `start` where the key is looked for first (for the line)."""
    if not value or "\0" in value:
        raise ConfigError(
            f"{key} must be a non-empty path", display, _key_line(text, key.rsplit(".", 1)[-1], start)
        )
    full = (root / value).resolve()
    try:
        full.relative_to(root.resolve())
    except ValueError:
        raise ConfigError(
            f"{key} = {value!r} points outside the project folder {root}",
            display,
            _key_line(text, key.rsplit(".", 1)[-1], start),
        ) from None
    return full


def parse_config(
    table: Mapping[str, Any], root: Path, display: str = "pyproject.toml", text: str = ""
) -> Config:
    """Validate a `[tool.docgen]` table (already parsed) and resolve its paths against `root`."""
    _check(table, _TOP_KEYS, "[tool.docgen]", display, text)
    names = _names(table.get("names", {}), "[tool.docgen.names]", display, text)
    arch_arg = table.get("arch-arg", DEFAULT_ARCH_ARG)
    templates = (
        resolve_path(root, table["templates"], "templates", display, text) if "templates" in table else None
    )
    if templates is not None and not templates.is_dir():
        what = "a file" if templates.exists() else "not found"
        raise ConfigError(
            f"templates = {table['templates']!r} must be a folder of templates ({what})",
            display,
            _key_line(text, "templates"),
        )
    if templates is not None:
        try:
            os.listdir(templates)
        except OSError as exc:  # chmod 000: every template would seem missing, the built-in ones used
            raise ConfigError(
                f"templates = {table['templates']!r}: cannot read the folder ({exc.strerror or exc})",
                display,
                _key_line(text, "templates"),
            ) from None
    images = []
    starts = _image_starts(text)
    starts_of: list[int] = []  # where each image's (expanded) entry starts in the text
    entries: list[Mapping[str, Any]] = []  # each image's own table
    chosen: list[bool] = []  # named by `name` or a glob, not only by its file (as before names were)
    globs: list[tuple[str, tuple[str, ...]]] = []
    inputs: dict[str, str] = {}
    for index, entry in enumerate(table.get("images", [])):
        start = _image_start(starts, index)
        if not isinstance(entry, dict):
            raise ConfigError(
                "[[tool.docgen.images]] entries must be tables", display, _key_line(text, "images")
            )
        _check(entry, _IMAGE_KEYS, "[[tool.docgen.images]]", display, text, start)
        members, source = _members(entry, root, display, text, start, globs, inputs)
        named = entry.get("name")
        if named is not None and not _NAME.fullmatch(named.replace("{name}", "x")):
            raise ConfigError(
                f"name = {named!r} must be letters, digits, '.', '_', '+' or '-' (it names the image "
                "in messages and {name} placeholders)",
                display,
                _key_line(text, "name", start),
            )
        if source is not None and len(members) > 1:
            if named is not None and "{name}" not in named:
                raise ConfigError(
                    f"name = {named!r} would name all {len(members)} {source[0]} {source[1]}; write it "
                    "with {name} (the name from each file, like 'vllm-{name}')",
                    display,
                    _key_line(text, "name", start),
                )
        versions = (
            _strings(entry["versions"], "images.versions", display, text, start)
            if "versions" in entry
            else None
        )
        image_names = {**names, **_names(entry.get("names", {}), "images.names", display, text, start)}
        produces = _strings(entry.get("produces", []), "images.produces", display, text, start)
        for produced in produces:
            if not produced.strip() or "$" in produced or any(c.isspace() for c in produced):
                raise ConfigError(
                    f"produces = {produced!r} must be an image name such as 'org/base:tag'",
                    display,
                    _key_line(text, "produces", start),
                )
        build_args = _build_args(entry.get("args", {}), display, text, start)
        output_values = _strings(entry.get("outputs", []), "images.outputs", display, text, start)
        page_values = _strings(entry.get("pages", []), "images.pages", display, text, start)
        for member in members:
            dockerfile = resolve_path(root, member.written, member.key, display, text, start)
            name = member.name or file_name(dockerfile, root.resolve())
            if named is not None:
                name = named.replace("{name}", name)
            outputs_written = tuple(p.replace("{name}", name) for p in output_values)
            outputs = tuple(resolve_path(root, p, "outputs", display, text, start) for p in outputs_written)
            pages = tuple(_page(p.replace("{name}", name), display, text, start) for p in page_values)
            args = {**member.args, **build_args}
            target, target_at = member.target, member.target_at
            if "target" in entry:
                target = _target(entry["target"], display, text, start)
                target_at = (display, _key_line(text, "target", start) if text else None)
            starts_of.append(start)
            chosen.append(named is not None or source is not None or "args" in entry or "target" in entry)
            entries.append(entry if member.settings is None else {**entry, "bake-target": member.settings})
            images.append(
                ImageConfig(
                    dockerfile=dockerfile,
                    display=dockerfile.relative_to(root.resolve()).as_posix(),
                    outputs=outputs,
                    pages=pages,
                    arch_arg=entry.get("arch-arg", arch_arg),
                    arch_arg_set="arch-arg" in entry or ("arch-arg" in table and len(table["images"]) == 1),
                    arch_arg_line=(
                        (
                            _key_line(text, "arch-arg", start)
                            if "arch-arg" in entry
                            else _key_line(text, "arch-arg")
                        )
                        if text and ("arch-arg" in entry or "arch-arg" in table)
                        else None
                    ),
                    versions=versions,
                    versions_line=(
                        _key_line(text, "versions", start) if versions is not None and text else None
                    ),
                    pages_line=_key_line(text, "pages", start) if pages and text else None,
                    names=image_names,
                    produces=produces,
                    name=name,
                    args=args,
                    args_line=_key_line(text, "args", start) if build_args and text else None,
                    bake_args=tuple(sorted(set(member.args) - set(build_args))),
                    bake_own=tuple((arg, at) for arg, at in member.own_args if arg not in build_args),
                    bake_at=member.bake_at,
                    written=(member.written, outputs_written),
                    target=target,
                    target_at=target_at,
                    tags=member.tags,
                )
            )
    seen_names: dict[str, int] = {}
    for index, image in enumerate(images):
        first = seen_names.setdefault(image.name, index)
        if first != index and (chosen[first] or chosen[index]):
            other = images[first]
            fix = 'give one a name = "…" of its own'
            line = (
                _key_line(text, "name", starts_of[index])
                if starts_of[index] >= 0 and _key_line(text, "name", starts_of[index])
                else (text.count("\n", 0, starts_of[index]) + 1 if starts_of[index] >= 0 else None)
            )
            if starts_of[first] == starts_of[index] >= 0:  # one glob, two files: no `name` tells them apart
                fix = (
                    f'leave one out of the glob (exclude = ["{image.display}"]) and give it an entry of its '
                    'own with a name = "…"'
                )
                line = _key_line(text, "dockerfile", starts_of[index])
            raise ConfigError(
                f"two [[tool.docgen.images]] are named {image.name!r} ({other.display} and {image.display}); "
                + fix,
                display,
                line,
            )
    where = (display, text, starts_of)
    dockerfiles = {image.dockerfile for image in images}
    for index, image in enumerate(images):
        for output in image.outputs:
            if output in dockerfiles:
                shown = output.relative_to(root.resolve()).as_posix()
                raise ConfigError(
                    f"outputs = {shown!r} is a Dockerfile docgen reads; "
                    "docgen will not write generated text into its own input",
                    display,
                    _key_line(text, "outputs", starts_of[index]),
                )
    _listed_once("produces", [image.produces for image in images], "one Dockerfile builds an image", where)
    base_images = _base_images(table.get("base-images", {}), display, text)
    shared = shared_settings(table)
    images = [
        replace(image, settings=image_settings(shared, entries[index], image.name))
        for index, image in enumerate(images)
    ]
    return Config(
        root=root,
        source=display,
        images=tuple(images),
        templates=templates,
        base_images=base_images,
        lint_disable=_lint_disable(table.get("lint", {}), display, text),
        globs=tuple(globs),
        inputs=tuple(sorted(inputs.items())),
    )


_ARG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A build arg's name, as `ARG` accepts it."""


def _build_args(value: Mapping[str, Any], display: str, text: str, start: int) -> dict[str, str]:
    """`args = { CUDA_VERSION = "13.0.2" }`: each name an ARG name, each value a string."""
    for key, item in value.items():
        if not _ARG.fullmatch(key):
            raise ConfigError(
                f"args: {key!r} is not a build arg name (letters, digits and '_')",
                display,
                _key_line(text, "args", start),
            )
        if not isinstance(item, str):
            raise ConfigError(
                f'args.{key} must be a string, as --build-arg gives it (like {key} = "{item}"), '
                f"not {type(item).__name__}",
                display,
                _key_line(text, "args", start),
            )
    return dict(value)


_NAME = re.compile(r"[\w.+-]+")
"""What an image's `name` may hold: it is written in messages and fills `{name}` in paths."""


def file_name(dockerfile: Path, root: Path) -> str:
    """An image's name from its file: `rocm` for `Dockerfile.rocm` and `rocm.Dockerfile`, else the
    name of its folder (`cuda` for `docker/cuda/Dockerfile`), else the file's name."""
    file = dockerfile.name
    if file.startswith("Dockerfile.") and len(file) > len("Dockerfile."):
        return file[len("Dockerfile.") :]
    if file.endswith(".Dockerfile") and len(file) > len(".Dockerfile"):
        return file[: -len(".Dockerfile")]
    if dockerfile.parent != root:
        return dockerfile.parent.name
    return file


@dataclass(frozen=True)
class _Member:
    """One image an entry gives: its `dockerfile` (or one file its glob matches), or one bake target."""

    written: str
    """The Dockerfile relative to the root, as the config (or the bake file) leads to it."""
    key: str = "dockerfile"
    """The config key that names it, for messages."""
    name: str | None = None
    """The image's name when not the file's (a bake target's name)."""
    args: Mapping[str, str] = field(default_factory=dict)
    """Build args from the bake target (the entry's own `args` win over them)."""
    target: str | None = None
    target_at: tuple[str, int | None] | None = None
    tags: tuple[str, ...] = ()
    settings: Mapping[str, object] | None = None
    """What the bake target says, for the image's settings digest (None for a Dockerfile)."""
    own_args: tuple[tuple[str, int | None], ...] = ()
    """The build args the bake target's own block sets, with their lines."""
    bake_at: tuple[str, str] | None = None
    """(the bake file as shown, the target's name)."""


def _members(
    entry: Mapping[str, Any],
    root: Path,
    display: str,
    text: str,
    start: int,
    globs: list[tuple[str, tuple[str, ...]]],
    inputs: dict[str, str],
) -> tuple[list[_Member], tuple[str, str] | None]:
    """The images of one `[[tool.docgen.images]]` entry, and for an entry that may give several (a
    glob, a bake file) how to say so (`files`, `dockerfile = 'docker/*' matches`); None for one Dockerfile.
    A glob's matches are added to `globs`, a bake file's digest to `inputs` (for the settings cache)."""
    if "bake" in entry:
        for key in ("dockerfile", "exclude"):
            if key in entry:
                raise ConfigError(
                    f"{key} and bake = {entry['bake']!r} in one [[tool.docgen.images]]: the bake file "
                    f"names the Dockerfiles; give {key} an entry of its own",
                    display,
                    _key_line(text, key, start),
                )
        members = _bake_members(entry, root, display, text, start, inputs)
        return members, ("targets", f"bake = {entry['bake']!r} lists")
    if "targets" in entry:
        raise ConfigError(
            'targets chooses targets of a bake file: it needs bake = "docker-bake.hcl"',
            display,
            _key_line(text, "targets", start),
        )
    if "dockerfile" not in entry:
        line = text.count("\n", 0, start) + 1 if start >= 0 else _key_line(text, "outputs")
        raise ConfigError("[[tool.docgen.images]] needs a 'dockerfile' key (or a 'bake' file)", display, line)
    pattern = entry["dockerfile"]
    matched = _matches(root, pattern, display, text, start)
    excludes = _strings(entry.get("exclude", []), "images.exclude", display, text, start)
    if matched is None:
        if excludes:
            raise ConfigError(
                f"exclude removes files a glob matches, and dockerfile = {pattern!r} is no glob",
                display,
                _key_line(text, "exclude", start),
            )
        return [_Member(pattern)], None
    globs.append((pattern, tuple(matched)))
    if excludes:
        removed: set[str] = set()
        for exclude in excludes:
            if not exclude or os.path.isabs(exclude):
                raise ConfigError(
                    f"exclude = {exclude!r} must be a glob relative to the project folder {root}",
                    display,
                    _key_line(text, "exclude", start),
                )
            removed.update(cache.expand(str(root), exclude))
        matched = [path for path in matched if path not in removed]
        if not matched:
            raise ConfigError(
                f"dockerfile = {pattern!r} matches no file once exclude = {list(excludes)!r} removes "
                "the files it matches",
                display,
                _key_line(text, "dockerfile", start),
            )
    return [_Member(path) for path in matched], ("files", f"dockerfile = {pattern!r} matches")


def _bake_members(
    entry: Mapping[str, Any], root: Path, display: str, text: str, start: int, inputs: dict[str, str]
) -> list[_Member]:
    """The images of an entry written `bake = "docker-bake.hcl"`: one per target chosen."""
    from docgen import bake  # only for a bake file: most configurations have none

    written = entry["bake"]
    line = _key_line(text, "bake", start)
    path = resolve_path(root, written, "bake", display, text, start)
    relative = path.relative_to(root.resolve()).as_posix()
    shown = os.path.normpath(os.path.join(os.path.dirname(display), relative)).replace(os.sep, "/")
    try:
        if path.exists() and not path.is_file():  # a FIFO would block the read, as would a device
            what = "a folder" if path.is_dir() else "a special file (a FIFO, a device …)"
            raise ConfigError(f"bake = {written!r}: is {what}, not a bake file", display, line)
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_FILE_BYTES:  # HCL is read at about 40 KB/s
                raise ConfigError(f"bake = {written!r}: {TOO_LARGE}", display, line)
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"bake = {written!r}: no such file", display, line) from None
    except OSError as exc:
        message = f"bake = {written!r}: cannot read it ({exc.strerror or exc})"
        raise ConfigError(message, display, line) from None
    inputs[relative] = cache.file_digest(data)
    found = bake.parse(data, shown)
    wanted = _strings(entry.get("targets", []), "images.targets", display, text, start)
    try:
        names = found.expand(list(wanted)) if wanted else found.default()
    except KeyError as exc:
        import difflib

        unknown = str(exc.args[0])
        close = difflib.get_close_matches(unknown, found.names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(
            f"targets: {unknown!r} is no target or group of {shown}{hint}; its targets: "
            f"{', '.join(found.names) or 'none'}",
            display,
            _key_line(text, "targets", start),
        ) from None
    if not names:
        raise ConfigError(f"bake = {written!r}: {shown} has no target to document", display, line)
    folder = posixpath.dirname(relative)
    members = []
    for name in names:
        target = found.target(name)
        dockerfile = posixpath.normpath(posixpath.join(folder, target.dockerfile))
        from_root = posixpath.normpath(target.dockerfile)
        if folder and not (root / dockerfile).is_file() and (root / from_root).is_file():
            dockerfile = from_root  # `docker buildx bake -f docker/docker-bake.hcl` run from the root
        if posixpath.isabs(dockerfile) or dockerfile.startswith("../") or dockerfile == "..":
            raise ConfigError(
                f'bake = {written!r}: target "{name}" builds {dockerfile}, outside the project folder',
                display,
                line,
            )
        if not (root / dockerfile).is_file():
            tried = (
                f"relative to {folder}/ or to the project folder"
                if folder
                else "relative to the project folder"
            )
            raise ConfigError(
                f'bake = {written!r}: target "{name}" builds {target.dockerfile}, which does not exist '
                f"(context + dockerfile, {tried})",
                display,
                line,
            )
        if not _NAME.fullmatch(name):
            raise ConfigError(
                f"bake = {written!r}: target {name!r} cannot name an image (letters, digits, '.', '_', '+' "
                "or '-')",
                display,
                line,
            )
        members.append(
            _Member(
                dockerfile,
                key="bake",
                name=name,
                args=dict(target.args),
                target=target.target,
                target_at=(shown, target.target_line) if target.target else None,
                tags=target.tags,
                own_args=tuple(target.own_args.items()),
                bake_at=(shown, name),
                settings={
                    "dockerfile": dockerfile,
                    "args": dict(target.args),
                    "target": target.target,
                    "tags": list(target.tags),
                },
            )
        )
    return members


def _target(value: str, display: str, text: str, start: int) -> str:
    """`target = "STAGE"`: a stage name as `docker build --target` takes it."""
    if not value.strip() or any(c.isspace() for c in value):
        raise ConfigError(
            f"target = {value!r} must be the name of a stage (FROM … AS name)",
            display,
            _key_line(text, "target", start),
        )
    return value


def _matches(root: Path, pattern: str, display: str, text: str, start: int) -> list[str] | None:
    """The files a `dockerfile` glob (`docker/Dockerfile.*`, `docker/**/Dockerfile`) matches, as
    `cache.expand` finds them; None for a plain path (one without `*`, `?` or `[`, or a file of that
    very name). A glob that matches nothing is an error at its line."""
    if not cache.is_glob(pattern) or (root / pattern).is_file():
        return None
    if os.path.isabs(pattern):
        raise ConfigError(
            f"dockerfile = {pattern!r} must be relative to the project folder {root}",
            display,
            _key_line(text, "dockerfile", start),
        )
    found = cache.expand(str(root), pattern)
    if not found:
        raise ConfigError(
            f"dockerfile = {pattern!r} matches no file (a glob: '*' and '?' match within a folder "
            "name, '**' any folders)",
            display,
            _key_line(text, "dockerfile", start),
        )
    return found


def _base_images(value: Mapping[str, Any], display: str, text: str) -> dict[str, dict[str, str]]:
    """`[tool.docgen.base-images]`: each image name → the `provides` table, every version a string."""
    result: dict[str, dict[str, str]] = {}
    for image, entry in value.items():
        where = f"[tool.docgen.base-images.{image!r}]"
        at = text.find(image) if image else -1
        line = _key_line(text, "provides", at) if at >= 0 else None
        if not isinstance(entry, dict):
            line = text.count("\n", 0, at) + 1 if at >= 0 else None
            raise ConfigError(f"{where} must be a table with a 'provides' key", display, line)
        _check(entry, _BASE_IMAGE_KEYS, where, display, text, max(text.find(image), 0))
        if not image.strip() or "$" in image or any(c.isspace() for c in image):
            message = f"{where}: {image!r} is not an image name such as 'org/base:tag'"
            raise ConfigError(message, display, line)
        provides = entry.get("provides", {})
        for name, version in provides.items():
            if not isinstance(version, str) or not version.strip() or not name.strip():
                raise ConfigError(
                    f"{where}.provides.{name} must be a version written as a string "
                    f'(like {name} = "2.6.0"), not {type(version).__name__}',
                    display,
                    line,
                )
        result[image] = dict(provides)
    return result


def _lint_disable(table: Mapping[str, Any], display: str, text: str) -> tuple[str, ...]:
    """`[tool.docgen.lint] disable`: rule ids, each one docgen has."""
    if not table:  # no `[tool.docgen.lint]`: the rules need not be loaded
        return ()
    from docgen.findings import RULES, unknown_rules

    _check(table, _LINT_KEYS, "[tool.docgen.lint]", display, text)
    ids = _strings(table.get("disable", []), "lint.disable", display, text)
    unknown = unknown_rules(ids)
    if unknown:
        raise ConfigError(
            f"lint.disable: {unknown[0]!r} is no rule id (the ids: {', '.join(RULES)})",
            display,
            _key_line(text, "disable"),
        )
    return ids


def _page(value: str, display: str, text: str, start: int) -> str:
    """A `pages` entry as MkDocs names the page: relative to docs_dir, `/`-separated, normalised
    (`./index.md` is `index.md`); a path out of docs_dir, or absolute, is an error."""
    page = posixpath.normpath(value.replace("\\", "/"))
    if not value or page.startswith(("/", "../")) or page in ("..", ".") or ":" in page.split("/", 1)[0]:
        raise ConfigError(
            f"pages = {value!r} must be a page path relative to the site's docs_dir (like 'images/rocm.md')",
            display,
            _key_line(text, "pages", start),
        )
    return page


def _names(value: Mapping[str, Any], where: str, display: str, text: str, start: int = -1) -> dict[str, str]:
    for key, item in value.items():
        if not isinstance(item, str):
            raise ConfigError(f"{where}.{key} must be a string", display, _key_line(text, key, start))
    return dict(value)
