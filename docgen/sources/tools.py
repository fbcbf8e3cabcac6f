"""Language installers: `npm install -g`, `go install`, `cargo install`, `uv tool install`, `pipx install`.

Each takes `name@version` (cargo also `--version X`; pipx and uv also pip's `name==version`). Only an
exact version pins: `pnpm@9.15.0` and `golangci-lint@v1.62.2` do, `turbo@^2` and `goimports@latest`
do not. npm packages count only when installed globally (`-g`, `--global`, `yarn global add`): a local
`npm install` / `npm ci` installs a project's own lockfile. `go install` and `cargo install` compile what
they fetch, so their method is `source`; a local `cargo install --path DIR` marks a clone as built.
uv tool and pipx install PyPI packages: they are `pip` components, read by the pip recogniser.
"""

from __future__ import annotations

import re
from dataclasses import replace

from docgen.sources import pip
from docgen.sources.context import RunContext
from docgen.sources.installer import Options, add, is_path, is_url, read_options, short
from docgen.sources.naming import is_pinned_ref, ref_kind, repo_name
from docgen.sources.script import Word

_SEMVER = re.compile(r"v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.\-]+)?(?:\+[0-9A-Za-z.\-]+)?\Z")
_HEX = re.compile(r"[0-9a-f]{7,40}\Z")

# --------------------------------------------------------------------------------------------------
# npm, pnpm, yarn

_NPM_VALUES = frozenset(
    {
        "--prefix",
        "--registry",
        "--location",
        "--tag",
        "--cache",
        "--userconfig",
        "--omit",
        "--include",
        "--install-strategy",
        "-w",
        "--workspace",
        "--loglevel",
        "--dir",
        "-C",
        "--store-dir",
        "--global-dir",
    }
)
_NPM_INSTALL = frozenset({"install", "i", "add", "in", "isntall"})
_NPM_PACKAGE = re.compile(r"(?P<name>(?:@[a-z0-9][\w.\-]*/)?[a-z0-9][\w.\-]*)(?:@(?P<version>.+))?\Z", re.I)


def npm(command: str, words: list[Word], ctx: RunContext) -> None:
    """`npm|pnpm install -g …`, `yarn global add …` (`words` start after the command name)."""
    options = read_options(words, _NPM_VALUES)
    operands = options.operands
    if command == "yarn":
        if len(operands) < 2 or operands[0].text != "global" or operands[1].text != "add":
            return
        operands = operands[1:]
    elif not (
        options.flags & {"-g", "--global"}
        or any(w.text == "global" for w in options.all_values("--location"))
    ):
        return  # a local install: the project's package.json and lockfile
    if not operands or operands[0].text not in _NPM_INSTALL:
        return
    registry = options.value("--registry")
    for word in operands[1:]:
        match = _NPM_PACKAGE.match(word.text)
        if match is None or is_url(word.text):
            ctx.recorder.skip(ctx.line_of(word), f"{command} package not read: {word.text}")
            continue
        name, version = match.group("name"), match.group("version")
        add(
            ctx,
            word,
            name=name,
            kind="npm",
            version=None if version == "latest" else version,
            pinned=bool(version and _SEMVER.match(version) and word.known),
            source=registry.text if registry is not None else f"https://www.npmjs.com/package/{name}",
            method="prebuilt",
        )


# --------------------------------------------------------------------------------------------------
# go install

_GO_VALUES = frozenset(
    {
        "-C",
        "-p",
        "-asmflags",
        "-buildmode",
        "-compiler",
        "-gccgoflags",
        "-gcflags",
        "-installsuffix",
        "-ldflags",
        "-mod",
        "-modfile",
        "-overlay",
        "-pgo",
        "-pkgdir",
        "-tags",
        "-toolexec",
        "-o",
        "-covermode",
        "-coverpkg",
    }
)
_GO_FLOATING = frozenset({"latest", "upgrade", "patch", "none"})


def go(words: list[Word], ctx: RunContext) -> None:
    """`go install path@version …` (`words` start after `go`); local packages are builds, not components."""
    options = read_options(words, _GO_VALUES)
    if not options.operands or options.operands[0].text != "install":
        return
    for word in options.operands[1:]:
        path, at, query = word.text.partition("@")
        if not at or is_path(path):
            continue  # `go install ./cmd/...`: the module being built
        parts = [p for p in path.split("/") if p and p != "..."]
        if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]):
            parts.pop()  # `…/tool/v2`: the major version suffix
        exact = bool(_SEMVER.match(query)) and word.known
        commit = bool(_HEX.match(query)) and word.known
        branch = not exact and not commit and query not in _GO_FLOATING
        add(
            ctx,
            word,
            name=parts[-1] if parts else path,
            kind="go",
            version=query if exact or (not word.known and query) else None,
            pinned=exact or commit,
            source=f"https://pkg.go.dev/{path}",
            method="source",
            ref=query if commit or branch else None,
            ref_kind="commit" if commit else "branch" if branch else None,
        )


# --------------------------------------------------------------------------------------------------
# cargo install

_CARGO_VALUES = frozenset(
    {
        "--version",
        "--vers",
        "--git",
        "--branch",
        "--tag",
        "--rev",
        "--path",
        "--root",
        "--index",
        "--registry",
        "--features",
        "-F",
        "--target",
        "--target-dir",
        "--profile",
        "--bin",
        "--example",
        "-j",
        "--jobs",
        "--config",
        "-Z",
        "--color",
        "--message-format",
    }
)
_CARGO_EXACT = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.\-]+)?(?:\+[0-9A-Za-z.\-]+)?\Z")


def cargo(words: list[Word], ctx: RunContext) -> None:
    """`cargo [+toolchain] install …` (`words` start after `cargo`)."""
    options = read_options(words, _CARGO_VALUES)
    operands = [w for w in options.operands if not w.text.startswith("+")]
    if not operands or operands[0].text != "install":
        return
    crates = operands[1:]
    local = options.value("--path")
    if local is not None:
        clone = ctx.repo_at(ctx.path(local.text))
        if clone is not None:
            clone.built = True
        return
    git = options.value("--git")
    if git is not None:
        _cargo_git(git, crates, options, ctx)
        return
    version_option = options.value("--version", "--vers")
    registry = options.value("--registry", "--index")
    for word in crates:
        name, at, version = word.text.partition("@")
        version_word = word
        if not at and version_option is not None and len(crates) == 1:
            version, version_word = version_option.text, version_option
        add(
            ctx,
            version_word,
            name=name,
            kind="cargo",
            version=version or None,
            pinned=bool(_CARGO_EXACT.match(version)) and version_word.known,
            source=registry.text if registry is not None else f"https://crates.io/crates/{name}",
            method="source",
        )


def _cargo_git(git: Word, crates: list[Word], options: Options, ctx: RunContext) -> None:
    """`cargo install --git URL [--tag T | --rev R | --branch B] [crate]`."""
    ref_word = options.value("--tag", "--rev", "--branch")
    ref = ref_word.text if ref_word is not None else None
    kind = ref_kind(ref) if ref else None
    if ref_word is not None and ref_word.text and options.value("--branch") is ref_word:
        kind = "branch"
    add(
        ctx,
        ref_word or git,
        name=crates[0].text if crates else repo_name(git.text),
        kind="cargo",
        version=None,
        pinned=kind is not None and is_pinned_ref(kind) and (ref_word is None or ref_word.known),
        source=git.text,
        method="source",
        ref=ref,
        ref_kind=kind,
    )


# --------------------------------------------------------------------------------------------------
# uv tool install, pipx install

_UV_TOOL_VALUES = pip.UV_VALUE_OPTIONS | {"--from"}
_PIPX_VALUES = frozenset(
    {"--python", "--pip-args", "--index-url", "-i", "--suffix", "--spec", "--preinstall", "--backend"}
)
_INDEX_OPTIONS = ("--index-url", "-i", "--default-index", "--extra-index-url", "--index")
_AT_VERSION = re.compile(r"([A-Za-z0-9][A-Za-z0-9._\-]*(?:\[[^\]]*\])?)@([^\s/:@]+)\Z")


def uv_tool(words: list[Word], ctx: RunContext) -> None:
    """`uv tool install …` (`words` start after `install`)."""
    options = read_options(words, _UV_TOOL_VALUES)
    package = options.value("--from") or (options.operands[0] if options.operands else None)
    requirements = ([package] if package is not None else []) + options.all_values("--with", "-w")
    _pip(requirements, options, ctx)


def uv_sync(words: list[Word], ctx: RunContext) -> None:
    """`uv sync [--project DIR] [--extra X]…` (`words` start after `sync`): the project in the working
    directory (or DIR) installed with its dependencies, as its manifest pins them."""
    options = read_options(words, _UV_TOOL_VALUES)
    project = options.value("--project", "--directory") or Word(".")
    ctx.install("project", project, extras=tuple(w.text for w in options.all_values("--extra")))


def pipx(words: list[Word], ctx: RunContext) -> None:
    """`pipx install|inject …` (`words` start after `pipx`)."""
    options = read_options(words, _PIPX_VALUES)
    if not options.operands:
        return
    verb = options.operands[0].text
    if verb == "install":
        spec = options.value("--spec")
        _pip([spec] if spec is not None else options.operands[1:], options, ctx)
    elif verb == "inject":
        _pip(options.operands[2:], options, ctx)
    elif verb in ("runpip", "upgrade", "reinstall"):
        return
    elif verb == "run":
        ctx.recorder.skip(ctx.line, f"pipx run is not read by docgen: {short([Word('pipx'), *words])}")


def _pip(requirements: list[Word], options: Options, ctx: RunContext) -> None:
    """Hand `requirements` (with `name@version` read as `name==version`) and the index to the pip reader."""
    args: list[Word] = []
    for key in _INDEX_OPTIONS:
        for value in options.values.get(key, ()):
            args += [Word(key), value]
    for word in requirements:
        match = _AT_VERSION.match(word.text)
        if match is not None:
            version = match.group(2)
            text = match.group(1) if version == "latest" else f"{match.group(1)}=={version}"
            word = replace(word, text=text)
        args.append(word)
    pip.handle(args, ctx)
