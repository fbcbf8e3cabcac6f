"""Rendering: the table rows derived from the model, and one Jinja2 environment for every section.

Each section is one template (`templates/<section>.md.j2`); a user overrides one by putting a file of
the same name in the folder `templates` names in the config. Templates render in Jinja2's sandbox,
and every value that comes from a Dockerfile goes through `escape_text` (the `cell` filter) or
`code_span` (the `code` filter), so `|`, backticks, newlines, `<`, `>` and `-->` cannot break a table,
a marker or a page.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.sandbox
from packaging.version import InvalidVersion, Version

from docgen import hardware, stages
from docgen.errors import ConfigError, TemplateError
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.files import MAX_TEXT, os_error
from docgen.lint import note_for
from docgen.markers import SECTIONS as SECTIONS
from docgen.model import (
    GLOBAL_SCOPE,
    ArgDecl,
    BuildArgRow,
    Component,
    Gpu,
    HardCoded,
    ImageModel,
    VersionRow,
    short_commit,
)

_TEMPLATES = Path(__file__).parent / "templates"

# Markdown characters that start markup; escaped with a backslash (both GitHub and Python-Markdown
# honour backslash escapes of these). `|` and backticks become entities instead, because pipe
# splitting happens before escapes in some table parsers; so does `~` (GitHub's strikethrough), whose
# backslash escape Python-Markdown does not know and would show (`\~2 GB`).
_MARKUP = re.compile(r"[\\*\[\]{}#!]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "`": "&#96;", "~": "&#126;"}
_UNSAFE_IN_CODE = re.compile(r"[`|<>&\\\r\n]")


_PLAIN_TEXT = re.compile(r"[^\\*\[\]~{}#!_&<>|`\r\n]*\Z")
_ENTITY_TABLE = str.maketrans(_ENTITIES)
_NEWLINES = re.compile(r"\r\n|\r|\n")


def escape_text(value: object) -> str:
    """`value` as literal Markdown text that stays inside one table cell."""
    text = "" if value is None else str(value)
    if _PLAIN_TEXT.match(text):
        return text  # nothing to escape: most names and versions
    text = _MARKUP.sub(lambda m: "\\" + m.group(0), text)
    text = text.translate(_ENTITY_TABLE)
    return _NEWLINES.sub("<br>", text)


def code_span(value: object) -> str:
    """`value` as inline code: a backtick span when that is safe, else an escaped `<code>` element."""
    text = "" if value is None else str(value)
    if text == "":
        return '`""`'
    if not _UNSAFE_IN_CODE.search(text) and text.strip() == text:
        return f"`{text}`"
    return f"<code>{escape_text(text)}</code>"


_URL_UNSAFE = re.compile(r"[^A-Za-z0-9\-._~:/?#@!$&'*+,;=%]")


def safe_url(url: str | None) -> str | None:
    """`url` when it is an http(s) URL, with characters that could break Markdown percent-encoded."""
    if not url or not re.match(r"https?://", url):
        return None
    return _URL_UNSAFE.sub(lambda m: _percent(m.group()), url)


def _percent(char: str) -> str:
    """`char` percent-encoded: each byte of its UTF-8 form as `%XX` (`é` → `%C3%A9`)."""
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


_WHEEL = re.compile(
    r"(?P<package>[^/-]+)-(?P<version>[^/-]+)(?:-\d[^/-]*)?-(?P<python>[^/-]+)-[^/-]+-(?P<platform>[^/-]+)\.whl\Z"
)


def source_text(url: str) -> str:
    """The short text a source URL is shown as (the URL itself stays the link's target): a wheel as
    its package, version, Python tag and platform (`torch 2.9.1+rocm7.0.2 · cp312 · linux_x86_64`);
    another URL without its scheme, or only its last path segment past 60 characters; `%2B` as `+`."""
    shown = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*://", "", url).replace("%2B", "+").replace("%2b", "+")
    wheel = _WHEEL.search(shown.rsplit("/", 1)[-1])
    if wheel:
        return " · ".join((f"{wheel['package']} {wheel['version']}", wheel["python"], wheel["platform"]))
    if len(shown) > 60:
        return posixpath.basename(shown.rstrip("/")) or shown[:60]
    return shown


_SHELL_SAFE = re.compile(r"[A-Za-z0-9_./:@%+=,-]+\Z")


def docker_build(model: ImageModel, rows: Iterable[BuildArgRow]) -> str:
    """A `docker build` command passing every build arg of `rows` that has one plain default, set to
    that default, one `--build-arg` a line (shell-quoted; values with `$`, backticks or line breaks,
    and defaults not fully known, are left out), for a reader to copy and edit."""
    lines = [f"docker build -f {_shell_word(model.path)}"]
    for row in rows:
        if row.varies or row.unknown or not row.defaults:
            continue
        value = row.defaults[0][0]
        if (
            value is None
            or re.search(r"[$`\r\n]|<!--|-->", value)
            or not re.fullmatch(r"[A-Za-z_]\w*", row.name)
        ):
            continue
        lines.append(f"--build-arg {_shell_word(f'{row.name}={value}')}")
    lines.append(".")
    return " \\\n    ".join(lines)


def _shell_word(text: str) -> str:
    """`text` as one POSIX shell word: as it is when safe, else in single quotes."""
    if _SHELL_SAFE.match(text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def link(text: str, url: str | None) -> str:
    """A Markdown link with escaped text, or just the escaped text when `url` is not http(s)."""
    target = safe_url(url)
    return f"[{escape_text(text)}]({target})" if target else escape_text(text)


# --------------------------------------------------------------------------------------------------
# Rows


def _user_args(model: ImageModel) -> list[ArgDecl]:
    return [a for a in model.args if a.name not in PREDEFINED_ARGS and a.name not in PROXY_ARGS]


def _repeats(decl: ArgDecl, decls: list[ArgDecl]) -> bool:
    """True for a bare re-declaration that only brings an earlier declaration's value into scope."""
    return decl.bare and any(d.line < decl.line for d in decls)


def build_arg_rows(model: ImageModel) -> tuple[BuildArgRow, ...]:
    """One row per ARG name a user can pass, in the order names first appear."""
    by_name: dict[str, list[ArgDecl]] = {}
    for decl in _user_args(model):
        by_name.setdefault(decl.name, []).append(decl)
    hardcoded: dict[str, list[HardCoded]] = {}
    for entry in model.hardcoded:
        hardcoded.setdefault(entry.arg, []).append(entry)
    rows = []
    for name, decls in by_name.items():
        defaults: dict[str | None, list[str]] = {}
        declared = [d for d in decls if not _repeats(d, decls)]
        for decl in declared:
            defaults.setdefault(decl.effective_default, []).append(decl.scope)
        stages = tuple(dict.fromkeys(d.scope for d in decls if d.scope != GLOBAL_SCOPE))
        rows.append(
            BuildArgRow(
                name=name,
                defaults=tuple((value, tuple(dict.fromkeys(st))) for value, st in defaults.items()),
                purpose=next((d.description for d in decls if d.description), ""),
                stages=stages,
                line=decls[0].line,
                unknown=next((d.unknown for d in decls if d.unknown), None),
                notes=(note_for(hardcoded[name]),) if name in hardcoded else (),
            )
        )
    return tuple(rows)


_VERSION_ARG = re.compile(r"(?:^|_)(VERSION|VER|TAG|COMMIT|REF|SHA|BRANCH|RELEASE)$")
_KNOWN_NAMES = {
    "rocm": "ROCm",
    "amdgpu": "AMDGPU driver",
    "python": "Python",
    "cuda": "CUDA",
    "nvidia/cuda": "CUDA",
    "cudnn": "cuDNN",
    "nccl": "NCCL",
    "rccl": "RCCL",
    "torch": "PyTorch",
    "pytorch": "PyTorch",
    "triton": "Triton",
    "pytorch-triton-rocm": "Triton",
    "vllm": "vLLM",
    "sglang": "SGLang",
    "fa": "Flash Attention",
    "flash-attention": "Flash Attention",
    "flash_attn": "Flash Attention",
    "flash-attn": "Flash Attention",
    "te": "TransformerEngine",
    "transformerengine": "TransformerEngine",
    "transformer-engine": "TransformerEngine",
    "transformer_engine": "TransformerEngine",
    "aiter": "aiter",
    "megatron-core": "Megatron-core",
    "megatron-lm": "Megatron-LM",
    "deepspeed": "DeepSpeed",
    "xformers": "xFormers",
    "jax": "JAX",
    "jaxlib": "JAX",
    "tensorflow": "TensorFlow",
    "tensorrt": "TensorRT",
    "tensorrt-llm": "TensorRT-LLM",
    "ubuntu": "Ubuntu",
    "cmake": "CMake",
}
_KEY_NAMES = frozenset(
    {
        "ROCm",
        "CUDA",
        "cuDNN",
        "NCCL",
        "RCCL",
        "Python",
        "PyTorch",
        "Triton",
        "vLLM",
        "SGLang",
        "Flash Attention",
        "TransformerEngine",
        "aiter",
        "Megatron-core",
        "Megatron-LM",
        "DeepSpeed",
        "xFormers",
        "JAX",
        "TensorFlow",
        "TensorRT",
        "TensorRT-LLM",
    }
)
"""Display names that make a component a Key versions row by default."""


def display_name(name: str, names: Mapping[str, str]) -> str:
    """The name shown for a component or arg: the config's choice, a well-known spelling, or `name`."""
    if name in names:
        return names[name]
    key = name.lower()
    return names.get(key) or _KNOWN_NAMES.get(key, name)


def _key_version(comp: Component) -> str:
    """The version a Key versions row shows: the public release for Python packages (a dev or local
    build `2.9.1.dev20251204+rocm7.0.2…` shows as `2.9.1`), the short ref for git, else as found."""
    if comp.version and comp.kind in ("pip", "wheel"):
        try:
            return Version(comp.version).base_version
        except InvalidVersion:
            return comp.version
    return comp.display_version


def _target_images(model: ImageModel) -> set[int]:
    """Lines of the FROM instructions the default target is built on (its chain of parents)."""
    lines: set[int] = set()
    stage = model.target
    while stage is not None:
        if stage.parent is None:
            lines.add(stage.line)
            break
        stage = model.stages[stage.parent]
    return lines


def version_rows(
    model: ImageModel,
    names: Mapping[str, str],
    wanted: tuple[str, ...] | None,
    where: tuple[str, int | None] | None = None,
) -> list[VersionRow]:
    """The Key versions rows.

    Default choice (no `versions` in the config), in Dockerfile order:

    - the base image the default target is built on;
    - every pinned component whose display name is a well-known key item (ROCm, CUDA, cuDNN, NCCL,
      Python, PyTorch, Triton, vLLM, SGLang, Flash Attention, TransformerEngine, aiter, Megatron,
      DeepSpeed, xFormers, JAX, TensorFlow, TensorRT), the first one of each name; Python packages
      show their public release (`2.9.1` for `2.9.1.dev20251204+rocm7.0.2…`), git sources their short ref;
    - version-like build args (`*_VERSION`, `*_TAG`, `*_COMMIT` …) whose name stem is such an item and
      that no component row covers (`PYTHON_VERSION` → Python), with the source of a component that uses
      the arg;
    - when none of those items is found at all (a Dockerfile docgen knows nothing about), every pinned
      component set by a build arg and every version-like build arg instead.

    With `wanted` (the config's `versions` list), the rows are the candidates (any pinned component,
    any version-like build arg) whose display name, component name or build arg is in the list, in the
    list's order. An entry that matches nothing is a `ConfigError` at `where` (the config file and the
    line of its `versions` key), when given: the row would otherwise vanish without a word.
    """
    candidates: list[tuple[VersionRow, str, bool]] = []  # (row, component or arg name, key item)
    image_lines = _target_images(model)
    for comp in model.components:
        if not comp.pinned:
            continue
        label = display_name(comp.name, names)
        is_base = comp.kind == "image" and comp.line in image_lines
        version = _key_version(comp) if label in _KEY_NAMES else comp.display_version
        row = VersionRow(label, version, comp.source, comp.line, comp.arg)
        candidates.append((row, comp.name, label in _KEY_NAMES or is_base))
    covered = {row.arg for row, _, _ in candidates if row.arg}
    sources: dict[str, str] = {}
    for comp in model.components:
        if comp.arg and comp.source:
            sources.setdefault(comp.arg, comp.source)
    seen_args: set[str] = set()
    for decl in _user_args(model):
        match = _VERSION_ARG.search(decl.name)
        if not match or decl.name in covered or decl.name in seen_args or not decl.effective_default:
            continue
        seen_args.add(decl.name)
        stem = decl.name[: match.start()] or decl.name
        label = names.get(decl.name) or display_name(stem.replace("_", "-"), names)
        row = VersionRow(
            label, short_commit(decl.effective_default), sources.get(decl.name), decl.line, decl.name
        )
        candidates.append((row, decl.name, label in _KEY_NAMES))
    if wanted is not None:
        order = {w.lower(): i for i, w in enumerate(wanted)}
        picked: dict[int, VersionRow] = {}
        for row, name, _ in candidates:
            position = _wanted_key(row, name, order)
            if position is not None and position not in picked:
                picked[position] = row
        missing = [w for i, w in enumerate(wanted) if i not in picked and order[w.lower()] == i]
        if missing and where is not None:
            known = ", ".join(sorted({row.name for row, _, _ in candidates}, key=str.lower)) or "none"
            raise ConfigError(
                f"versions: {', '.join(map(repr, missing))} matches no pinned component or version-like "
                f"build arg of {model.path} (the Dockerfile may have dropped it; known: {known})",
                *where,
            )
        return [picked[i] for i in sorted(picked)]
    keyed = [(row, key) for row, _, key in candidates]
    if not any(key and row.name in _KEY_NAMES for row, key in keyed):
        keyed = [(row, key or row.arg is not None) for row, key in keyed]
    unique: dict[str, VersionRow] = {}
    for row, key in sorted(keyed, key=lambda t: t[0].line):
        if key:
            unique.setdefault(row.name.lower(), row)
    return list(unique.values())


def _wanted_key(row: VersionRow, name: str, order: Mapping[str, int]) -> int | None:
    for key in (row.name.lower(), name.lower(), (row.arg or "").lower()):
        if key in order:
            return order[key]
    return None


def arch_value(model: ImageModel, arch_arg: str) -> tuple[str | None, int | None]:
    """The value of the architecture arg (an ARG default, else an ENV of that name) and its line."""
    for decl in model.args:
        if decl.name == arch_arg and decl.effective_default:
            return decl.effective_default, decl.line
    for env in model.env:
        if env.name == arch_arg and env.value:
            return env.value, env.line
    return None, None


# --------------------------------------------------------------------------------------------------
# Rendering


@dataclass(frozen=True)
class RenderOptions:
    """How to render the sections of one image."""

    arch_arg: str = "GPU_ARCH"
    """The build arg listing GPU targets."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names."""
    versions: tuple[str, ...] | None = None
    """Key versions rows wanted, in order; None for the default choice."""
    versions_at: tuple[str, int | None] | None = None
    """Where `versions` is set (config file, line), for the error when an entry matches nothing."""
    dockerfile_link: str | None = None
    """Link target of the Dockerfile from the page being rendered; line links add `#L<n>`."""
    templates: Path | None = None
    """User template folder overriding built-in templates."""
    project: Path | None = None
    """The project folder the user's templates must stay inside, symlinks resolved (None: the
    template folder itself)."""


class _Sandbox(jinja2.sandbox.ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, with its verdict on each attribute remembered per type.

    The sandbox asks `is_safe_attribute` at every attribute a template reads (hundreds per table),
    and its answer depends only on the object's type and the attribute's name (a leading `_`, the
    internals of functions, frames and generators, the mutating methods of lists, dicts and sets),
    so it is worked out once per (type, name): the same rules, about a quarter less rendering time.
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._verdicts: dict[tuple[type, str], bool] = {}

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        key = (type(obj), attr)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = super().is_safe_attribute(obj, attr, value)
        return verdict


class ProjectLoader(jinja2.BaseLoader):
    """The user's template folder, for every template Jinja2 loads (sections, and what they include,
    extend or import): like `jinja2.FileSystemLoader`, but a template must stay inside the project
    once symlinks are resolved, be a regular file, readable, UTF-8 and at most `files.MAX_TEXT`.
    Anything else is a `TemplateError` naming the template, raised before a byte of it is read (a
    link to `/proc/self/environ` would put the environment in the README, a CI log and the site). A
    name that is not there (not even a dangling link) is `TemplateNotFound`: docgen's own is used."""

    def __init__(self, folder: Path, project: Path | None = None) -> None:
        self.folder = folder
        self.project = (project or folder).resolve()

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        path = self.folder.joinpath(*jinja2.loaders.split_template_path(template))
        try:  # where the link is, not where it points
            shown = path.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            shown = str(path)
        try:
            info = path.stat()
        except (FileNotFoundError, NotADirectoryError):
            if not path.is_symlink():
                raise jinja2.TemplateNotFound(template) from None
            raise TemplateError("a symlink to a file that is not there", shown) from None
        except OSError as exc:  # an unreadable folder (chmod 000), a symlink loop, a name too long
            raise TemplateError(f"cannot read the template: {os_error(exc).message}", shown) from None
        real = path.resolve()
        if not real.is_relative_to(self.project):
            raise TemplateError(
                f"resolves to {real}, outside the project folder {self.project}; "
                "templates must stay inside it (not read)",
                shown,
            )
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "a special file (a FIFO, a device …)"
            raise TemplateError(f"is {what}, not a template file", shown)
        if info.st_size > MAX_TEXT:
            raise TemplateError(f"file is larger than {MAX_TEXT >> 20} MiB, not read", shown)
        try:
            with real.open("rb") as handle:
                data = handle.read(MAX_TEXT + 1)
        except OSError as exc:
            raise TemplateError(f"cannot read the template: {os_error(exc).message}", shown) from None
        try:
            contents = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TemplateError("not UTF-8 text", shown, data[: exc.start].count(b"\n") + 1) from None
        mtime = info.st_mtime_ns

        def uptodate() -> bool:
            try:
                return os.stat(real).st_mtime_ns == mtime
            except OSError:
                return False

        return contents, str(path), uptodate


@lru_cache(maxsize=8)
def environment(templates: Path | None = None, project: Path | None = None) -> jinja2.Environment:
    """The one Jinja2 environment (sandboxed, user templates first, kept inside `project`, then
    docgen's own)."""
    loaders: list[jinja2.BaseLoader] = []
    if templates is not None:
        loaders.append(ProjectLoader(templates, project))
    loaders.append(jinja2.FileSystemLoader(str(_TEMPLATES)))
    env = _Sandbox(
        loader=jinja2.ChoiceLoader(loaders),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters["cell"] = escape_text
    env.filters["code"] = code_span
    env.filters["source_text"] = source_text
    env.globals["link"] = link
    return env


def _line_link(options: RenderOptions) -> object:
    def line_link(line: int | None) -> str:
        if not line:
            return ""
        if options.dockerfile_link:
            return f"[L{line}]({options.dockerfile_link}#L{line})"
        return f"L{line}"

    return line_link


def render_sections(
    model: ImageModel, options: RenderOptions, sections: Iterable[str] = SECTIONS
) -> dict[str, str]:
    """The Markdown body of each of `sections` (default: all) for `model`."""
    value, arch_line = arch_value(model, options.arch_arg)
    gpus: tuple[Gpu, ...] = hardware.gpus(value) if value else ()
    args = build_arg_rows(model)
    context = {
        "image": model,
        "build_args": args,
        "docker_build": docker_build(model, args),
        "versions": version_rows(model, options.names, options.versions, options.versions_at),
        "gpus": gpus,
        "arch_arg": options.arch_arg,
        "arch_value": value,
        "arch_line": arch_line,
        "components": model.components,
        "prebuilt": [c for c in model.components if c.method == "prebuilt"],
        "from_source": [c for c in model.components if c.method == "source"],
        "packages": [c for c in model.components if c.method not in ("prebuilt", "source")],
        "name": lambda n: display_name(n, options.names),
        "line_link": _line_link(options),
        "source_link": _source_link,
        "stages": stages.mermaid(model),
    }
    env = environment(options.templates, options.project)
    out = {}
    for section in sections:
        template_name = f"{section}.md.j2"
        try:
            template = env.get_template(template_name)
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(
                f"template error: {exc.message}", _shown(exc.filename or template_name), exc.lineno
            ) from None
        except jinja2.TemplateError as exc:
            raise TemplateError(f"cannot load {template_name}: {exc}", template_name) from None
        except UnicodeDecodeError:
            raise TemplateError(f"cannot load {template_name}: not UTF-8 text", template_name) from None
        except OSError as exc:
            raise TemplateError(
                f"cannot load {template_name}: {exc.strerror or exc}", template_name
            ) from None
        out[section] = _render(template, template_name, section, context)
    return out


MAX_BLOCK_CHARS = 8 << 20
"""The largest body a template may render (8 MiB), so a runaway loop cannot fill a disk; under the
10 MiB docgen reads back (`files.MAX_TEXT`), far above the tables of a real image (10,000 packages
make about 2 MB)."""


def template_path(templates: Path | None, section: str, project: Path | None = None) -> str:
    """The template file that renders `section` (a user's override, else docgen's own), as shown."""
    template = environment(templates, project).get_template(f"{section}.md.j2")
    return _shown(template.filename or template.name or section)


def _shown(filename: str) -> str:
    """A template file as messages show it: relative to the current folder when below it."""
    try:
        return Path(filename).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return filename


def _render(template: jinja2.Template, name: str, section: str, context: dict[str, object]) -> str:
    """`template` rendered, its output counted as it is produced (see `MAX_BLOCK_CHARS`).

    Any error a template raises at run time, Jinja2's own or Python's (`{{ 1/0 }}`, a `range` too
    big for the sandbox, a macro that calls itself forever), becomes a `TemplateError` naming the
    template file and the line it failed on.
    """
    pieces: list[str] = []
    size = 0
    try:
        for piece in template.generate(context):
            pieces.append(piece)
            size += len(piece)
            if size > MAX_BLOCK_CHARS:
                break
    except RecursionError as exc:
        where, line = _failed_at(exc, _shown(template.filename or name))
        message = "macros or includes nested too deeply (Python's recursion limit)"
        raise TemplateError(f"cannot render {name}: {message}", where, line) from None
    except jinja2.TemplateSyntaxError as exc:  # in a template it includes or imports
        where = _shown(exc.filename or template.filename or name)
        raise TemplateError(f"template error: {exc.message}", where, exc.lineno) from None
    except Exception as exc:  # a template is user code: whatever it raises is the user's error
        where, line = _failed_at(exc, _shown(template.filename or name))
        text = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message else str(exc)
        if type(exc) is jinja2.TemplateNotFound:
            text = f"template {exc.name!r} not found"
        raise TemplateError(f"cannot render {name}: {text or type(exc).__name__}", where, line) from None
    body = "".join(pieces)
    if size > MAX_BLOCK_CHARS or (
        size * 4 > MAX_BLOCK_CHARS and len(body.encode("utf-8", "surrogatepass")) > MAX_BLOCK_CHARS
    ):
        raise TemplateError(
            f"the rendered block docgen:{section} is larger than {MAX_BLOCK_CHARS >> 20} MiB",
            _shown(template.filename or name),
        )
    return body


def _failed_at(exc: BaseException, shown: str) -> tuple[str, int | None]:
    """The template file and line an error was raised at: the innermost template frame of its
    traceback (Jinja2 rewrites those frames to point at the template source), else `shown`."""
    where, line = shown, None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if "__jinja_exception__" in frame.f_globals:  # a frame Jinja2 made for template code
            where, line = _shown(frame.f_code.co_filename), tb.tb_lineno
        tb = tb.tb_next
    return where, line


def _source_link(comp: Component) -> str:
    """The source of a component as a link (http URLs) or code (images, indexes)."""
    if not comp.source:
        return ""
    if safe_url(comp.source):
        return link(source_text(comp.source), comp.source)
    return code_span(comp.source)
