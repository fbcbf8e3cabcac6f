"""Rendering: Markdown escaping, and one Jinja2 environment for every section (the rows it renders
come from `docgen.rows`, which loads no Jinja2).

Each section is one template (`templates/<section>.md.j2`); a user overrides one by putting a file of
the same name in the folder `templates` names in the config. Templates render in Jinja2's sandbox,
and every value that comes from a Dockerfile goes through `escape_text` (the `cell` filter) or
`code_span` (the `code` filter), so `|`, backticks, newlines, `<`, `>` and `-->` cannot break a table,
a marker or a page.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
import posixpath
import re
import stat
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.compiler
import jinja2.exceptions
import jinja2.nodes
import jinja2.parser
import jinja2.runtime
import jinja2.sandbox

from docgen import stages
from docgen.errors import MAX_FILE_BYTES, TOO_LARGE, ConfigError, TemplateError
from docgen.files import display, os_error
from docgen.markers import IMAGE_SECTIONS as IMAGE_SECTIONS
from docgen.markers import SECTIONS as SECTIONS
from docgen.model import BuildArgRow, Component, ImageModel, PackageGroup, VersionRow, short_commit
from docgen.rows import (
    ImageRow,
    build_arg_rows,
    component_label,
    contents_rows,
    declares,
    display_name,
    hardware_of,
    key_versions,
    matrix_rows,
    most_read,
)
from docgen.rows import RenderOptions as RenderOptions  # the options of render_sections

_TEMPLATES = Path(__file__).parent / "templates"

# Markdown characters that start markup; escaped with a backslash (both GitHub and Python-Markdown
# honour backslash escapes of these). `|` and backticks become entities instead, because pipe
# splitting happens before escapes in some table parsers; so does `~` (GitHub's strikethrough), whose
# backslash escape Python-Markdown does not know and would show (`\~2 GB`).
_MARKUP = re.compile(r"[\\*\[\]{}#!]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# Characters Python's `str.splitlines` (and so `difflib` and many tools) take for line breaks, which
# Markdown does not: raw in a cell they would make one table row look like several. Written as
# character references, they show the same and break nothing.
_LINE_SEPARATORS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_ENTITIES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "|": "&#124;",
    "`": "&#96;",
    "~": "&#126;",
    **{char: f"&#x{ord(char):x};" for char in _LINE_SEPARATORS},
}
_UNSAFE_IN_CODE = re.compile(r"[`|<>&\\\r\n" + _LINE_SEPARATORS + "]")


_PLAIN_TEXT = re.compile(r"[^\\*\[\]~{}#!_&<>|`\r\n" + _LINE_SEPARATORS + "]*\\Z")
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


_VARIABLE = re.compile(r"\$[{(A-Za-z_]")


def has_variable(url: str) -> bool:
    """True when `url` still holds a shell variable or command docgen could not expand (`${ARCH}`,
    `$(uname -m)`): its real target is only known at build time."""
    return "$" in url and bool(_VARIABLE.search(url))


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


def commit_code(value: object) -> str:
    """`value` as inline code (`code_span`); a full 40-hex commit shortened as everywhere else
    (`short_commit`), the whole commit as the element's title (`<code title="83f9…282b">83f9e450</code>`)."""
    text = "" if value is None else str(value)
    short = short_commit(text)
    if short == text:
        return code_span(text)
    return f'<code title="{text}">{short}</code>'


_SHELL_SAFE = re.compile(r"[A-Za-z0-9_./:@%+=,-]+\Z")


def docker_build(model: ImageModel, rows: Iterable[BuildArgRow]) -> str:
    """A `docker build` command passing every build arg of `rows` that has one plain default, set to
    that default, one `--build-arg` a line (shell-quoted; values with `$`, backticks or line breaks,
    and defaults not fully known, are left out), for a reader to copy and edit."""
    lines = [f"docker build -f {_shell_word(model.path)}"]
    if model.target_index >= 0 and model.target is not None and model.target.name:  # a `target`
        lines.append(f"--target {_shell_word(model.target.name)}")
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
    """A Markdown link with escaped text; the URL itself as code when it holds a variable docgen could
    not expand (a link to `…/$%7BARCH%7D/…` would be broken); just the escaped text when `url` is not
    http(s)."""
    if url and has_variable(url) and re.match(r"https?://", url):
        return code_span(url)
    target = safe_url(url)
    return f"[{escape_text(text)}]({target})" if target else escape_text(text)


# --------------------------------------------------------------------------------------------------
# Rendering


MAX_INT_BITS = 14_000
"""The largest number (in bits, about 4,200 digits) a template may compute: Python refuses to print
an integer of more than 4,300 digits, and `10 ** 100000000` would take minutes to compute."""

_FORMAT_WIDTH = re.compile(r"%[-#0 +]*([0-9]+|\*)?(?:\.([0-9]+|\*))?|\{[^{}]*:[^{}0-9]*([0-9]+)")


class _TooLarge(jinja2.exceptions.SecurityError):
    """A template computed (or was about to compute) a value beyond `MAX_BLOCK_CHARS`/`MAX_INT_BITS`."""


def _size(value: object) -> int:
    """How large `value` is for `MAX_BLOCK_CHARS`: its length when it has one, else 0."""
    return len(value) if isinstance(value, str | list | tuple | dict | set | frozenset) else 0


def _bounded(value: Any, what: str) -> Any:
    """`value`, or `_TooLarge` when it is larger than `MAX_BLOCK_CHARS`."""
    size = _size(value)
    if size > MAX_BLOCK_CHARS:
        raise _TooLarge(
            f"{what} makes a value of {size:,} characters or items (more than {MAX_BLOCK_CHARS:,})"
        )
    return value


def _check_length(size: int, what: str) -> None:
    if size > MAX_BLOCK_CHARS:
        raise _TooLarge(f"{what} would make {size:,} characters or items (more than {MAX_BLOCK_CHARS:,})")


def _check_format(template: object, args: object, what: str) -> None:
    """Refuse a `%` or `str.format` template with a field width or precision beyond `MAX_BLOCK_CHARS`
    (`'%0999999999d' % 1` is a gigabyte), also when `*` takes it from the arguments."""
    if not isinstance(template, str):
        return
    for match in _FORMAT_WIDTH.finditer(template):
        for number in match.groups():
            if number and number != "*" and (len(number) > 9 or int(number) > MAX_BLOCK_CHARS):
                _check_length(int(number[:12]), what)
        if "*" in match.group():
            values = args if isinstance(args, tuple) else (args,)
            for value in values:
                if isinstance(value, int) and abs(value) > MAX_BLOCK_CHARS:
                    _check_length(abs(value), what)


def _check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse `left OPERATOR right` before it is computed when its result would be too large."""
    if operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
        if math.log2(abs(left)) * right > MAX_INT_BITS:
            raise _TooLarge(f"** makes a number of more than {MAX_INT_BITS:,} bits (about 4,200 digits)")
    elif operator == "*":
        if isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
                raise _TooLarge(f"* makes a number of more than {MAX_INT_BITS:,} bits (about 4,200 digits)")
        elif isinstance(right, int) and _size(left):
            _check_length(_size(left) * right, "*")
        elif isinstance(left, int) and _size(right):
            _check_length(left * _size(right), "*")
    elif operator == "%":
        _check_format(left, right, "%")


def _text_arg(value: object) -> int:
    return len(value) if isinstance(value, str) else 0


def _check_str_method(text: str, name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    """Refuse a call of a `str` method that would make a value larger than `MAX_BLOCK_CHARS`."""
    what = f"str.{name}"
    if name in ("center", "ljust", "rjust", "zfill") and args and isinstance(args[0], int):
        _check_length(args[0], what)
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(size, int):
            _check_length(len(text) + text.count("\t") * size, what)
    elif name == "replace" and len(args) >= 2:
        _check_replace(text, args[0], args[1], args[2] if len(args) > 2 else -1, what)
    elif name == "join" and args and isinstance(args[0], list | tuple):
        _check_join(text, args[0], what)
    elif name in ("format", "format_map"):
        _check_format(text, tuple(args), what)


def _check_replace(text: object, old: object, new: object, count: object, what: str) -> None:
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)) or len(new) <= len(old):
        return
    times = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    _check_length(len(text) + times * (len(new) - len(old)), what)


def _check_join(separator: object, items: list[Any] | tuple[Any, ...], what: str) -> None:
    _check_length(
        sum(_text_arg(item) or 1 for item in items) + _text_arg(separator) * max(len(items) - 1, 0), what
    )


def _guard_filter(original: Any, check: Callable[[Mapping[str, Any]], None]) -> Any:
    """Filter `original`, calling `check(arguments by name)` first; Jinja2's markers kept."""
    signature = inspect.signature(original)

    def guarded(*args: Any, **kwargs: Any) -> Any:
        check(signature.bind(*args, **kwargs).arguments)
        return original(*args, **kwargs)

    return functools.update_wrapper(guarded, original)


def _lines(text: object) -> int:
    return str(text).count("\n") + 1


def _center(a: Mapping[str, Any]) -> None:
    if isinstance(a.get("width"), int):
        _check_length(a["width"], "|center")


def _indent(a: Mapping[str, Any]) -> None:
    width = a.get("width", 4)
    _check_length(_lines(a["s"]) * (width if isinstance(width, int) else len(str(width))), "|indent")


def _format(a: Mapping[str, Any]) -> None:
    _check_format(a["value"], tuple(a.get("args", ())), "|format")


def _replace(a: Mapping[str, Any]) -> None:
    _check_replace(a["s"], a["old"], a["new"], a.get("count"), "|replace")


def _join(a: Mapping[str, Any]) -> None:
    if isinstance(a["value"], list | tuple):
        _check_join(a.get("d", ""), a["value"], "|join")


def _batch(a: Mapping[str, Any]) -> None:
    if isinstance(a["linecount"], int):
        _check_length(a["linecount"], "|batch")


def _slice(a: Mapping[str, Any]) -> None:
    if isinstance(a["slices"], int):
        _check_length(a["slices"], "|slice")


def _lipsum(a: Mapping[str, Any]) -> None:
    paragraphs, words = a.get("n", 5), a.get("max", 100)
    if isinstance(paragraphs, int) and isinstance(words, int):
        _check_length(paragraphs * words * 8, "lipsum()")  # about 8 characters a word, with its space


_FILTER_CHECKS: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "center": _center,
    "indent": _indent,
    "format": _format,
    "replace": _replace,
    "join": _join,
    "batch": _batch,
    "slice": _slice,
}
"""Built-in filters that can make a value much larger than their input, and how each is bounded."""


MAX_LOOP_STEPS = 10_000_000
"""The most `{% for %}` iterations one rendering may make, all loops together: two nested loops over
`range(100000)` that print nothing would run 10,000,000,000 times (hours) before anything is counted
against `MAX_BLOCK_CHARS`. A table of 10,000 rows makes a few tens of thousands."""


_LOOP_FILTER = "docgen_counted_loop"
"""The filter every `{% for %}` iterable is passed through (`_Sandbox.counted`): a filter taking the
context, which Jinja2 never folds into a constant (it does not allow node types of one's own)."""


@jinja2.pass_context
def _counted_loop(context: jinja2.runtime.Context, iterable: Any) -> Iterator[Any]:
    environment = context.environment
    return environment.counted(iterable) if isinstance(environment, _Sandbox) else iter(iterable)


class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja2's code generator, with every `~` concatenation checked against `MAX_BLOCK_CHARS` (so a
    macro that doubles a string at each call stops at the limit instead of filling the memory), and
    every `{% for %}` counted against `MAX_LOOP_STEPS`."""

    def visit_Concat(self, node: jinja2.nodes.Concat, frame: jinja2.compiler.Frame) -> None:
        self.write("environment.bounded(")
        super().visit_Concat(node, frame)
        self.write(', "~")')

    def visit_Template(self, node: jinja2.nodes.Template, frame: jinja2.compiler.Frame | None = None) -> None:
        for loop in node.find_all(jinja2.nodes.For):  # before Jinja2 collects the filters used
            if not (isinstance(loop.iter, jinja2.nodes.Filter) and loop.iter.name == _LOOP_FILTER):
                loop.iter = jinja2.nodes.Filter(
                    loop.iter, _LOOP_FILTER, [], [], None, None, lineno=loop.lineno
                )
        super().visit_Template(node, frame)


class _Sandbox(jinja2.sandbox.ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, with its verdict on each attribute remembered per type, and the
    size of what a template computes bounded.

    The sandbox asks `is_safe_attribute` at every attribute a template reads (hundreds per table),
    and its answer depends only on the object's type and the attribute's name (a leading `_`, the
    internals of functions, frames and generators, the mutating methods of lists, dicts and sets),
    so it is worked out once per (type, name): the same rules, about a quarter less rendering time.

    Arithmetic that can make huge values (`**`, `*`, `+`, `%`) goes through `call_binop`, which
    refuses a result beyond `MAX_INT_BITS` or `MAX_BLOCK_CHARS` before computing it; so do `~`, the
    `str` methods and the built-in filters that can (`center`, `replace`, `join` …). Jinja2 does not
    fold an intercepted operator into a constant when it compiles a template, so `{{ 2 ** 20000 }}`
    fails while rendering, at its line, like any other template error.
    """

    intercepted_binops = frozenset({"**", "*", "+", "%"})
    code_generator_class = _CodeGenerator

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._verdicts: dict[tuple[type, str], bool] = {}
        for name, check in _FILTER_CHECKS.items():
            self.filters[name] = _guard_filter(self.filters[name], check)
        self.globals["lipsum"] = _guard_filter(self.globals["lipsum"], _lipsum)  # lipsum(10**9) never ends
        self.filters[_LOOP_FILTER] = _counted_loop

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        _check_binop(operator, left, right)
        return _bounded(super().call_binop(context, operator, left, right), operator)

    steps = 0
    """`{% for %}` iterations made by the rendering in progress (`_render` sets it to 0)."""

    def counted(self, iterable: Any) -> Iterator[Any]:
        """`iterable`'s items, each counted against `MAX_LOOP_STEPS` (used by compiled `{% for %}`)."""
        for item in iterable:
            self.steps += 1
            if self.steps > MAX_LOOP_STEPS:
                raise _TooLarge(f"the loops ran more than {MAX_LOOP_STEPS:,} times")
            yield item

    def bounded(self, value: Any, what: str) -> Any:
        """`value`, or `_TooLarge` when it is larger than `MAX_BLOCK_CHARS` (used by compiled `~`)."""
        return _bounded(value, what)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        kind = type(__obj)
        if kind is types.BuiltinMethodType or (kind is types.FunctionType and hasattr(__obj, "__wrapped__")):
            target = getattr(__obj, "__wrapped__", __obj)  # the sandbox wraps str.format in a function
            owner = getattr(target, "__self__", None)
            if isinstance(owner, str):
                _check_str_method(owner, target.__name__, args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        key = (type(obj), attr)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = super().is_safe_attribute(obj, attr, value)
        return verdict


class ProjectLoader(jinja2.BaseLoader):
    """The user's template folder, for every template Jinja2 loads (sections, and what they include,
    extend or import): like `jinja2.FileSystemLoader`, but a template must stay inside the project
    once symlinks are resolved, be a regular file, readable, UTF-8 and at most `errors.MAX_FILE_BYTES`.
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
        if info.st_size > MAX_FILE_BYTES:
            raise TemplateError(TOO_LARGE, shown)
        try:
            with real.open("rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
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
    env.filters["commit"] = commit_code
    env.globals["link"] = link
    return env


def _line_link(options: RenderOptions) -> object:
    def line_link(line: int | None) -> str:
        return _file_line_link(options.dockerfile_link, line)

    return line_link


def _file_line_link(target: str | None, line: int | None) -> str:
    """A link to line `line` of the file at link target `target` (plain `L<n>` without a target)."""
    if not line:
        return ""
    return f"[L{line}]({target}#L{line})" if target else f"L{line}"


def render_sections(
    model: ImageModel,
    options: RenderOptions,
    sections: Iterable[str] = IMAGE_SECTIONS,
    versions: Sequence[VersionRow] | None = None,
) -> dict[str, str]:
    """The Markdown body of each of `sections` (default: every section about one image) for `model`;
    `versions` are its Key versions rows (`rows.key_versions`) when worked out already."""
    if options.arch_arg_at is not None and not declares(model, options.arch_arg):
        similar = sorted({d.name for d in model.args} | {e.name for e in model.env})
        similar = [name for name in similar if "ARCH" in name.upper() or "GFX" in name.upper()]
        raise ConfigError(
            f"arch-arg = {options.arch_arg!r} names no ARG or ENV of {model.path} "
            f"(known: {', '.join(similar) or 'none like it'})",
            *options.arch_arg_at,
        )
    found = hardware_of(model, options.arch_arg)
    base = None
    if not found.gpus and options.base_hardware is not None:
        base = options.base_hardware(model)
        if base is not None and (not base.found.gpus or base.found.image):
            base = None  # targets from the base image's own base image tag: not this case
    contents = contents_rows(model.components, model.instruction_lines)
    args = build_arg_rows(model)
    if versions is None:
        versions = key_versions(model, options)
    context = {
        "image": model,
        "build_args": args,
        "docker_build": docker_build(model, args),
        "versions": versions,
        "summary_versions": versions if options.versions is not None else most_read(versions),
        "gpus": base.found.gpus if base else found.gpus,
        "arch_arg": options.arch_arg,
        "arch_value": base.found.value if base else found.value,
        "arch_line": base.found.line if base else found.line,
        "arch_override": found.override,
        "arch_image": found.image,
        "arch_others": () if base else found.others,
        "unbuilt": frozenset(s.label for s in model.stages) - stages.built_stages(model),
        "arch_file": base.dockerfile if base else None,
        "arch_link": base.link if base else None,
        "arch_base_override": base.found.override if base else None,
        "components": model.components,
        "prebuilt": contents.prebuilt,
        "from_source": contents.from_source,
        "packages": contents.packages,
        "name": lambda n: display_name(n, options.names),
        "label": lambda c: component_label(c, options.names),
        "line_link": _line_link(options),
        "file_line_link": _file_line_link,
        "source_link": _source_link,
        "stages": stages.mermaid(model),
    }
    env = environment(options.templates, options.project)
    return {section: _section(env, section, context) for section in sections}


def render_family(section: str, images: Sequence[ImageRow], options: RenderOptions, rows: str = "") -> str:
    """The Markdown body of section `section` (`images` or `matrix`) about `images`, in their order
    (each an `ImageRow`, its link relative to the document); `options` gives the template folder.
    `rows` is the matrix's orientation: `images` for a row per image, else a row per component."""
    context = {
        "images": images,
        "tagged": any(image.tags for image in images),
        "matrix": matrix_rows(images),
        "by_images": rows == "images",
        "version_link": _version_link,
    }
    return _section(environment(options.templates, options.project), section, context)


def _section(env: jinja2.Environment, section: str, context: dict[str, object]) -> str:
    """The body of `section`, from its template `SECTION.md.j2`."""
    template_name = f"{section}.md.j2"
    return _render(_load(env, template_name), template_name, section, context)


def _version_link(row: VersionRow | None, image: ImageRow) -> str:
    """A Key versions row's version as code, linked to the Dockerfile line it comes from (that of the
    base image's Dockerfile for a row from it); '' for no row."""
    if row is None:
        return ""
    target = row.link if row.origin == "base-dockerfile" else image.link
    version = code_span(row.version)
    return f"[{version}]({target}#L{row.line})" if target and row.line else version


def render_page(
    template_name: str,
    context: Mapping[str, object],
    templates: Path | None = None,
    project: Path | None = None,
) -> str:
    """The Markdown of a whole page from template `template_name` (`image-page.md.j2`, the pages the
    MkDocs plugin generates), a user's template of that name winning as for a section, with the same
    sandbox, limits and `path:line` errors."""
    template = _load(environment(templates, project), template_name)
    return _render(template, template_name, template_name.removesuffix(".md.j2"), dict(context))


def _load(env: jinja2.Environment, template_name: str) -> jinja2.Template:
    """Template `template_name` of `env`; any failure to find, read or compile it is a `TemplateError`
    naming the file (and line)."""
    try:
        return env.get_template(template_name)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(
            f"template error: {exc.message}", _shown(exc.filename or template_name), exc.lineno
        ) from None
    except jinja2.TemplateError as exc:
        raise TemplateError(f"cannot load {template_name}: {exc}", template_name) from None
    except RecursionError as exc:  # `{{ ((((…1…)))) }}` thousands deep
        where, line = _compiling_at(exc, template_name)
        message = "the template is nested too deeply to compile (Python's recursion limit)"
        raise TemplateError(f"template error: {message}", where, line) from None
    except UnicodeDecodeError:
        raise TemplateError(f"cannot load {template_name}: not UTF-8 text", template_name) from None
    except OSError as exc:
        raise TemplateError(f"cannot load {template_name}: {exc.strerror or exc}", template_name) from None


MAX_BLOCK_CHARS = 8 << 20
"""The largest body a template may render (8 MiB), so a runaway loop cannot fill a disk; under the
10 MiB docgen reads back (`errors.MAX_FILE_BYTES`), far above the tables of a real image (10,000 packages
make about 2 MB). It also bounds each value a template computes (characters or items): a larger one
could not be written anyway, and `'x' * 10**9` is refused before it takes a gigabyte."""


def template_path(templates: Path | None, section: str, project: Path | None = None) -> str:
    """The template file that renders `section` (a user's override, else docgen's own), as shown."""
    template = environment(templates, project).get_template(f"{section}.md.j2")
    return _shown(template.filename or template.name or section)


def _shown(filename: str) -> str:
    """A template file as messages show it: relative to the current folder when below it."""
    return display(Path(filename))


def _render(template: jinja2.Template, name: str, section: str, context: dict[str, object]) -> str:
    """`template` rendered, its output counted as it is produced (see `MAX_BLOCK_CHARS`).

    Any error a template raises at run time, Jinja2's own or Python's (`{{ 1/0 }}`, a `range` too
    big for the sandbox, a macro that calls itself forever), becomes a `TemplateError` naming the
    template file and the line it failed on.
    """
    pieces: list[str] = []
    size = 0
    if isinstance(template.environment, _Sandbox):
        template.environment.steps = 0
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


def _compiling_at(exc: RecursionError, name: str) -> tuple[str, int | None]:
    """The template file Jinja2 was compiling when it hit Python's recursion limit, and the line:
    where its parser stood, or the innermost node its compiler visited."""
    where, line = name, None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_globals.get("__name__", "").startswith("jinja2."):
            local = frame.f_locals
            if isinstance(local.get("filename"), str):
                where = _shown(local["filename"])
            owner, node = local.get("self"), local.get("node")
            if isinstance(owner, jinja2.parser.Parser):
                line = owner.stream.current.lineno
            elif isinstance(node, jinja2.nodes.Node) and node.lineno:
                line = node.lineno
            elif isinstance(owner, jinja2.nodes.Node) and owner.lineno:  # folding a constant
                line = owner.lineno
        tb = tb.tb_next
    return where, line


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


def _source_link(comp: Component | PackageGroup) -> str:
    """The source of a component as a link (http URLs) or code (images, indexes, URLs holding a
    variable docgen could not expand)."""
    if not comp.source:
        return ""
    if safe_url(comp.source) and not has_variable(comp.source):
        return link(source_text(comp.source), comp.source)
    return code_span(comp.source)
