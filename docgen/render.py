"""Rendering: the table rows derived from the model, and one Jinja2 environment for every section.

Each section is one template (`templates/<section>.md.j2`); a user overrides one by putting a file of
the same name in the folder `templates` names in the config. Templates render in Jinja2's sandbox,
and every value that comes from a Dockerfile goes through `escape_text` (the `cell` filter) or
`code_span` (the `code` filter), so `|`, backticks, newlines, `<`, `>` and `-->` cannot break a table,
a marker or a page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.sandbox

from docgen import hardware
from docgen.errors import TemplateError
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.model import GLOBAL_SCOPE, ArgDecl, BuildArgRow, Component, Gpu, ImageModel, VersionRow

SECTIONS = ("hardware", "versions", "contents", "build-args")
"""The block names docgen knows, in the order `docgen init` adds them."""

_TEMPLATES = Path(__file__).parent / "templates"

# Markdown characters that start markup; escaped with a backslash (both GitHub and Python-Markdown
# honour backslash escapes of ASCII punctuation). `|` and backticks become entities instead, because
# pipe splitting happens before escapes in some table parsers.
_MARKUP = re.compile(r"[\\*\[\]~{}#!]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "`": "&#96;"}
_UNSAFE_IN_CODE = re.compile(r"[`|<>&\\\r\n]")


def escape_text(value: object) -> str:
    """`value` as literal Markdown text that stays inside one table cell."""
    text = "" if value is None else str(value)
    text = _MARKUP.sub(lambda m: "\\" + m.group(0), text)
    text = "".join(_ENTITIES.get(c, c) for c in text)
    return re.sub(r"\r\n|\r|\n", "<br>", text)


def code_span(value: object) -> str:
    """`value` as inline code: a backtick span when that is safe, else an escaped `<code>` element."""
    text = "" if value is None else str(value)
    if text == "":
        return '`""`'
    if not _UNSAFE_IN_CODE.search(text) and text.strip() == text:
        return f"`{text}`"
    return f"<code>{escape_text(text)}</code>"


_URL_SAFE = re.compile(r"[A-Za-z0-9\-._~:/?#@!$&'*+,;=%]")


def safe_url(url: str | None) -> str | None:
    """`url` when it is an http(s) URL, with characters that could break Markdown percent-encoded."""
    if not url or not re.match(r"https?://", url):
        return None
    return "".join(c if _URL_SAFE.match(c) else "%{:02X}".format(ord(c)) for c in url if ord(c) < 128)


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
    return decl.bare and any(d.line < decl.line and (d.is_global or d.stage is not None) for d in decls)


def build_arg_rows(model: ImageModel) -> tuple[BuildArgRow, ...]:
    """One row per ARG name a user can pass, in the order names first appear."""
    by_name: dict[str, list[ArgDecl]] = {}
    for decl in _user_args(model):
        by_name.setdefault(decl.name, []).append(decl)
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
            )
        )
    return tuple(rows)


_VERSION_ARG = re.compile(r"(?:^|_)(VERSION|VER|TAG|COMMIT|REF|SHA|BRANCH|RELEASE)$")
_KNOWN_NAMES = {
    "rocm": "ROCm",
    "amdgpu": "AMDGPU driver",
    "python": "Python",
    "cuda": "CUDA",
    "cudnn": "cuDNN",
    "nccl": "NCCL",
    "torch": "PyTorch",
    "pytorch": "PyTorch",
    "triton": "Triton",
    "vllm": "vLLM",
    "fa": "Flash Attention",
    "flash-attention": "Flash Attention",
    "flash_attn": "Flash Attention",
    "te": "TransformerEngine",
    "transformerengine": "TransformerEngine",
    "transformer-engine": "TransformerEngine",
    "aiter": "aiter",
    "megatron-core": "Megatron-core",
    "ubuntu": "Ubuntu",
    "cmake": "CMake",
}


def display_name(name: str, names: Mapping[str, str]) -> str:
    """The name shown for a component or arg: the config's choice, a well-known spelling, or `name`."""
    if name in names:
        return names[name]
    key = name.lower()
    return names.get(key) or _KNOWN_NAMES.get(key, name)


def version_rows(model: ImageModel, names: Mapping[str, str], wanted: tuple[str, ...] | None) -> list[VersionRow]:
    """Key versions: base images, components and version-like build args (deduplicated by name)."""
    rows: list[VersionRow] = []
    for comp in model.components:
        if comp.pinned:
            rows.append(
                VersionRow(display_name(comp.name, names), comp.display_version, comp.source, comp.line, comp.arg)
            )
    covered = {row.arg for row in rows if row.arg}
    for stage in model.stages:
        if stage.parent is None and stage.base.lower() != "scratch" and not model.components:
            image, _, tag = _split_image(stage.base)
            rows.append(VersionRow(display_name(image.rsplit("/", 1)[-1], names), tag, stage.base, stage.line))
    seen_args: set[str] = set()
    for decl in _user_args(model):
        match = _VERSION_ARG.search(decl.name)
        if not match or decl.name in covered or decl.name in seen_args or not decl.effective_default:
            continue
        seen_args.add(decl.name)
        stem = decl.name[: match.start()] or decl.name
        label = names.get(decl.name) or display_name(stem.replace("_", "-"), names)
        rows.append(VersionRow(label, _short(decl.effective_default), None, decl.line, decl.name))
    unique: dict[str, VersionRow] = {}
    for row in rows:
        unique.setdefault(row.name.lower(), row)
    rows = list(unique.values())
    if wanted is not None:
        order = {w.lower(): i for i, w in enumerate(wanted)}
        rows = sorted((r for r in rows if _wanted_key(r, order) is not None), key=lambda r: _wanted_key(r, order) or 0)
    return rows


def _short(value: str) -> str:
    """A full 40-hex commit shortened to 8 characters, like `git log --oneline` does."""
    if len(value) == 40 and all(c in "0123456789abcdef" for c in value.lower()):
        return value[:8]
    return value


def _wanted_key(row: VersionRow, order: Mapping[str, int]) -> int | None:
    for key in (row.name.lower(), (row.arg or "").lower()):
        if key in order:
            return order[key]
    return None


def _split_image(ref: str) -> tuple[str, str | None, str]:
    """`repo[:tag][@digest]` → (repo, digest, tag or digest or `latest`)."""
    ref, _, digest = ref.partition("@")
    slash = ref.rfind("/")
    colon = ref.rfind(":")
    if colon > slash:
        return ref[:colon], digest or None, ref[colon + 1 :]
    return ref, digest or None, digest or "latest"


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
    dockerfile_link: str | None = None
    """Link target of the Dockerfile from the page being rendered; line links add `#L<n>`."""
    templates: Path | None = None
    """User template folder overriding built-in templates."""


@lru_cache(maxsize=8)
def environment(templates: Path | None = None) -> jinja2.Environment:
    """The one Jinja2 environment (sandboxed, user templates first, then docgen's own)."""
    loaders: list[jinja2.BaseLoader] = []
    if templates is not None:
        loaders.append(jinja2.FileSystemLoader(str(templates)))
    loaders.append(jinja2.FileSystemLoader(str(_TEMPLATES)))
    env = jinja2.sandbox.ImmutableSandboxedEnvironment(
        loader=jinja2.ChoiceLoader(loaders),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters["cell"] = escape_text
    env.filters["code"] = code_span
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


def render_sections(model: ImageModel, options: RenderOptions) -> dict[str, str]:
    """Every section's Markdown body for `model`."""
    value, arch_line = arch_value(model, options.arch_arg)
    gpus: tuple[Gpu, ...] = hardware.gpus(value) if value else ()
    context = {
        "image": model,
        "build_args": build_arg_rows(model),
        "versions": version_rows(model, options.names, options.versions),
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
    }
    env = environment(options.templates)
    out = {}
    for section in SECTIONS:
        template_name = f"{section}.md.j2"
        try:
            out[section] = env.get_template(template_name).render(context)
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"template error: {exc.message}", exc.filename or template_name, exc.lineno) from None
        except jinja2.TemplateError as exc:
            raise TemplateError(f"cannot render {template_name}: {exc}", template_name) from None
    return out


def _source_link(comp: Component) -> str:
    """The source of a component as a link (http URLs) or code (images, indexes)."""
    if not comp.source:
        return ""
    if safe_url(comp.source):
        shown = re.sub(r"^https?://", "", comp.source)
        if len(shown) > 60:
            shown = posixpath.basename(shown.rstrip("/")) or shown[:60]
        return link(shown, comp.source)
    return code_span(comp.source)
