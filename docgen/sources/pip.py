"""pip and `uv pip`: requirements, pins, wheel and sdist URLs, `git+` sources, `-r` files, indexes.

Requirements and file names are read with `packaging`, as pip reads them. A pin is one `==` (without
`*`) or `===`; a range is not a pin. A wheel URL pins exactly (version from the wheel file name, URL
decoded, `+local` part kept).

`packaging` is imported by the functions that use it, on the first requirement or file name that needs
it (the usual forms are read without it): importing it takes about 20 ms (its tags module loads
`platform`, `subprocess`, `logging` and `sysconfig`), more than `docgen show` spends on most
Dockerfiles, whose pins are plain `name==version`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from urllib.parse import unquote

from docgen.sources.context import RunContext, operands
from docgen.sources.installer import add
from docgen.sources.naming import (
    fork_of,
    github_repo,
    is_pinned_ref,
    name_version,
    ref_kind,
    repo_name,
    split_extension,
)
from docgen.sources.script import Word

# Options that take a value (`--opt VALUE`): VALUE is never a package. One table per tool, each from one
# release; tests/test_pip_options.py checks PIP_VALUE_OPTIONS against the option parser of the installed
# pip, so an option a newer pip adds fails a test rather than a user.
PIP_VALUE_OPTIONS = frozenset(
    {
        # pip 26.3: `install`, `download`, `wheel` and `uninstall` (general options included)
        "--abi",
        "--all-releases",
        "--build-constraint",
        "--cache-dir",
        "--cert",
        "--client-cert",
        "-C",
        "--config-settings",
        "-c",
        "--constraint",
        "--default-timeout",
        "--timeout",
        "-d",
        "--dest",
        "--destination-dir",
        "--destination-directory",
        "-e",
        "--editable",
        "--exists-action",
        "-i",
        "--index-url",
        "--pypi-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--group",
        "--implementation",
        "--keyring-provider",
        "--local-log",
        "--log",
        "--log-file",
        "--no-binary",
        "--only-binary",
        "--only-final",
        "--platform",
        "--prefix",
        "--progress-bar",
        "--proxy",
        "--python",
        "--python-version",
        "--refresh-package",
        "--report",
        "-r",
        "--requirement",
        "--requirements-from-script",
        "--resume-retries",
        "--retries",
        "--root",
        "--root-user-action",
        "--src",
        "--source",
        "--source-dir",
        "--source-directory",
        "-t",
        "--target",
        "--trusted-host",
        "--upgrade-strategy",
        "--uploaded-prior-to",
        "--use-deprecated",
        "--use-feature",
        "-w",
        "--wheel-dir",
        # removed from pip, still in Dockerfiles written for older releases
        "--build-option",
        "--global-option",
        "--install-option",
        "-b",
        "--build",
        "--build-dir",
    }
)

UV_VALUE_OPTIONS = frozenset(
    {
        # uv 0.13.9 (`uv … --help`): `uv pip install`, `uv pip sync`, `uv sync`, `uv tool install`, `uv add`
        "--allow-insecure-host",
        "--bounds",
        "--branch",
        "-b",
        "--build-constraints",
        "--cache-dir",
        "--cert",
        "--color",
        "--config-file",
        "-C",
        "--config-setting",
        "--config-settings-package",
        "-c",
        "--constraints",
        "--default-index",
        "--directory",
        "-e",
        "--editable",
        "--exclude-newer",
        "--exclude-newer-package",
        "--excludes",
        "--extra",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--fork-strategy",
        "--group",
        "--index",
        "--index-strategy",
        "-i",
        "--index-url",
        "--keyring-provider",
        "--link-mode",
        "-m",
        "--marker",
        "--no-binary",
        "--no-binary-package",
        "--no-build-isolation-package",
        "--no-build-package",
        "--no-editable-package",
        "--no-extra",
        "--no-group",
        "--no-install-package",
        "--no-sources-package",
        "--only-binary",
        "--only-group",
        "--optional",
        "--output-format",
        "--overrides",
        "--package",
        "--prefix",
        "--prerelease",
        "--prerelease-package",
        "--project",
        "-p",
        "--python",
        "--python-platform",
        "--python-version",
        "--refresh-package",
        "--reinstall-package",
        "-r",
        "--requirements",
        "--resolution",
        "--rev",
        "--script",
        "--tag",
        "-t",
        "--target",
        "--torch-backend",
        "--upgrade-group",
        "-P",
        "--upgrade-package",
        "-w",
        "--with",
        "--with-editable",
        "--with-executables-from",
        "--with-requirements",
        # older uv spellings
        "--override",
        "--build-constraint",
    }
)
_VALUE_OPTIONS = PIP_VALUE_OPTIONS | UV_VALUE_OPTIONS
_INDEX_OPTIONS = frozenset({"-i", "--index-url", "--extra-index-url", "--index", "--default-index"})
_LINK_OPTIONS = frozenset({"-f", "--find-links"})
_REQUIREMENT_OPTIONS = frozenset({"-r", "--requirement", "--requirements"})
_EDITABLE_OPTIONS = frozenset({"-e", "--editable"})
_GLOB = frozenset("*?[")


def handle(words: list[Word], ctx: RunContext, build_only: bool = False) -> None:
    """Read the arguments of `pip install …` (`words` start after `install`).

    With `build_only` (`pip wheel`), local source builds only mark a clone as built; requirements
    from an index, a URL or git are recorded as for `pip install` (their wheels are installed later).
    """
    index: str | None = None
    extra: str | None = None
    items: list[tuple[Word, bool]] = []  # (requirement word, editable)
    requirement_files: list[Word] = []
    seen: set[str] = set()  # requirement words already read: `pkg pkg[s3]` is one package
    i = 0
    while i < len(words):
        word = words[i]
        text = word.text
        value: Word | None = words[i + 1] if i + 1 < len(words) else None
        key = text
        step = 2  # an option and its value
        if text.startswith("--") and "=" in text:
            key, _, inline = text.partition("=")
            value, step = Word(inline, word.names, word.known), 1
        elif len(text) > 2 and text[0] == "-" and text[1] != "-" and text[:2] in _VALUE_OPTIONS:
            key, value, step = text[:2], Word(text[2:], word.names, word.known), 1
        if key in _INDEX_OPTIONS and value is not None:
            if key in ("-i", "--index-url", "--default-index"):
                index = value.text
            else:
                extra = extra or value.text
            i += step
        elif key in _REQUIREMENT_OPTIONS and value is not None:
            requirement_files.append(value)
            i += step
        elif key in _EDITABLE_OPTIONS and value is not None:
            items.append((value, True))
            i += step
        elif key in _VALUE_OPTIONS or key in _LINK_OPTIONS:
            i += step
        elif text.startswith("--") and step == 2 and value is not None and _is_option_value(value.text):
            # an option docgen does not know, followed by what is no package (`--new-opt 5`, `--x off`):
            # read as the option's value rather than listed as a package called `5`
            ctx.recorder.skip(ctx.line_of(word), f"pip option not known to docgen: {text} {value.text}")
            i += 2
        elif text.startswith("-"):
            i += 1
        else:
            # `name @ URL` written as three words
            if i + 2 < len(words) and words[i + 1].text == "@":
                joined = Word(
                    f"{text} @ {words[i + 2].text}",
                    word.names | words[i + 2].names,
                    word.known and words[i + 2].known,
                )
                items.append((joined, False))
                i += 3
                continue
            items.append((word, False))
            i += 1
    source_index = index or extra
    if not source_index:  # the ARG/ENV in scope only when no option names an index
        scope_index = ctx.state.lookup("PIP_INDEX_URL") or ctx.state.lookup("UV_INDEX_URL")
        source_index = scope_index if isinstance(scope_index, str) else None
    for req_file in requirement_files:
        if not build_only:
            ctx.install("requirements", req_file)
        if not req_file.known and not req_file.names & ctx.recorder.arg_names:
            # `for f in requirements*.txt; do pip install -r $f` : a file only the shell knows
            ctx.recorder.skip(ctx.line_of(req_file), f"pip requirements file not known: {req_file.text}")
        else:
            # a file is a list of components, not one: its pins live in the file (docgen does not read
            # it), so it is not a row; `show --verbose` says which checkout it comes from
            clone = ctx.repo_at(ctx.path(req_file.text)) if req_file.known else None
            owner = f" of the {repo_name(clone.url)} checkout" if clone is not None and clone.url else ""
            ctx.recorder.skip(
                ctx.line_of(req_file),
                f"pip install -r {req_file.text}{owner}: its pins live in that file; not listed",
            )
    for word, editable in items:
        project = None if build_only else local_project(word.text)
        if project is not None:
            ctx.install("project", word, *project)
        key = (_EXTRAS.sub("", word.text) if "[" in word.text else word.text).lower()
        if key not in seen:
            seen.add(key)
            _item(word, editable, source_index, ctx, build_only)


_TRAILING_EXTRAS = re.compile(r"\[([^\]]*)\]\Z")


def local_project(text: str) -> tuple[str, tuple[str, ...]] | None:
    """(folder, extras) of a local project a requirement word installs (`.`, `./app[serve]`, `/src`);
    None for a package, a URL or a package file (`./dist/x.whl`)."""
    extras = _TRAILING_EXTRAS.search(text)
    path = text[: extras.start()] if extras else text
    if not path.startswith((".", "/")) or path.endswith((".whl", ".tar.gz", ".zip")):
        return None
    return path, tuple(e.strip() for e in extras.group(1).split(",")) if extras else ()


_OPTION_WORDS = frozenset(
    {"on", "off", "true", "false", "yes", "no", "auto", "always", "never", "ignore", "warn", "error", "none"}
)


def _is_option_value(text: str) -> bool:
    """True for a word after an unknown `--option` that cannot be a requirement: a number or duration
    (`999`, `1.5`, `30s`) or a common option value (`off`, `ignore`). A path is never taken for the
    option's value: it is no package either, and after a flag (`--no-build-isolation .`) it is what
    gets installed."""
    return bool(_NUMBER.match(text)) or text.lower() in _OPTION_WORDS


_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)*[smh]?\Z")
_EXTRAS = re.compile(r"\[[^\]]*\]")
_UNINSTALLED_KINDS = frozenset({"pip", "wheel", "git"})


def uninstall(words: list[Word], ctx: RunContext) -> None:
    """`pip uninstall -y NAME…` (`words` start after `uninstall`): the packages are not in the image."""
    for word in operands(words, _VALUE_OPTIONS):
        parsed = requirement(word.text) if word.known else None
        if parsed is not None:
            ctx.remove(_UNINSTALLED_KINDS, parsed[0], word, "pip uninstall")


_NAME_BEFORE_SPECIFIER = re.compile(
    r"([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]$]*\])?\s*[<>=!~]"
)


def _item(word: Word, editable: bool, index: str | None, ctx: RunContext, build_only: bool) -> None:
    text = word.text.strip()
    if not text:
        return
    low = text.lower()
    if not word.known and text.startswith("$"):
        ctx.recorder.skip(
            ctx.line_of(word), f"pip requirement with a value not known from the Dockerfile: {text}"
        )
        return
    remote = "://" in text or low.startswith("git+")
    if _is_local(text) or (editable and not remote):  # `-e "python[all]"`: a folder, with extras
        path = _EXTRAS.sub("", text) if editable else text
        if low.endswith(".whl") and not _GLOB & set(posixpath.basename(text)) and not build_only:
            _package_file(_file_name(text), word, ctx, source=text)
            return
        clone = ctx.repo_at(ctx.path(path))
        if clone is not None:
            clone.built = True
        elif not build_only:
            ctx.recorder.skip(ctx.line_of(word), f"pip install of a local path without a version: {text}")
        return
    if low.startswith("git+") or (("://" in low) and low.split("#", 1)[0].endswith(".git")):
        _git(text, None, word, ctx)
        return
    if "://" in text and " @ " not in text and "@" not in text.split("://", 1)[0]:
        _url(text, None, word, ctx)
        return
    if not word.known and "$" in text:
        named = _NAME_BEFORE_SPECIFIER.match(text)
        if named is None or "$" in named.group(1):
            ctx.recorder.skip(
                ctx.line_of(word), f"pip requirement with a value not known from the Dockerfile: {text}"
            )
            return
        text = named.group(1)  # `"bitsandbytes>=${V}"`, V set by the shell: the package, unpinned
    parsed = requirement(text)
    if parsed is None and word.names:
        named = _NAME_BEFORE_SPECIFIER.match(text)
        if named is not None:  # `"torch==${TORCH_VERSION}"`, an ARG with no default: torch, unpinned
            parsed = (named.group(1), None, None)
    if parsed is None:
        ctx.recorder.skip(ctx.line_of(word), f"not a pip requirement: {text}")
        return
    name, url, version = parsed
    if url:
        if url.lower().startswith("git+"):
            _git(url, name, word, ctx)
        else:
            _url(url, name, word, ctx)
        return
    constraint = None if version is not None else version_range(text)
    add(
        ctx,
        word,
        name=name,
        kind="pip",
        version=version or constraint,
        source=index or f"https://pypi.org/project/{name}/",
        method="source" if editable else "prebuilt",
        pinned=version is not None and word.known,
        arg_version=version,
    )


# `name==version` with a plain PEP 440 version, `name[extras]==version`, and ranges of plain release
# numbers (`numpy<2`, `transformers>=4.51,<4.53`): the common cases, read without `packaging` (which
# takes ~40 µs a requirement). Only forms `packaging` is sure to read the same way are matched:
# tests/test_pip_requirement.py checks the two agree.
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_EXTRAS_LIST = rf"(?:\[{_NAME}(?:,{_NAME})*\])?"
_SIMPLE_PIN = re.compile(
    rf"({_NAME}){_EXTRAS_LIST}"
    r"==([0-9]+(?:\.[0-9]+)*(?:(?:a|b|rc)[0-9]+)?(?:\.post[0-9]+)?(?:\.dev[0-9]+)?"
    r"(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?)\Z"
)
_SIMPLE_NAME = re.compile(rf"({_NAME}){_EXTRAS_LIST}\Z")
# `~=` needs two release numbers or more; `<`, `<=`, `>`, `>=` and `!=` take any
_SPEC = r"(?:~=[0-9]+(?:\.[0-9]+)+|(?:[<>]=?|!=)[0-9]+(?:\.[0-9]+)*)"
_SIMPLE_RANGE = re.compile(rf"({_NAME}){_EXTRAS_LIST}({_SPEC}(?:,{_SPEC})*)\Z")
_SPEC_PARTS = re.compile(r"([<>~!]=?)([0-9.]+)")


def requirement(text: str) -> tuple[str, str | None, str | None] | None:
    """(name, URL, pinned version) of requirement `text` as pip reads it; None when it is not one.

    The version is set for a pin: exactly one `==` (without `*`) or `===` specifier.
    """
    pin = _SIMPLE_PIN.match(text)
    if pin is not None:
        return pin.group(1), None, pin.group(2)
    plain = _SIMPLE_NAME.match(text) or _SIMPLE_RANGE.match(text)
    if plain is not None:
        return plain.group(1), None, None
    return packaging_requirement(text)


def packaging_requirement(text: str) -> tuple[str, str | None, str | None] | None:
    """`requirement` read by `packaging.requirements.Requirement`, the authority."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    if req.url:
        return req.name, req.url, None
    specs = list(req.specifier)
    version = None
    if len(specs) == 1 and (
        specs[0].operator == "===" or (specs[0].operator == "==" and not specs[0].version.endswith("*"))
    ):
        version = specs[0].version
    return req.name, None, version


_LOWER_BOUNDS = (">=", ">", "~=", "==", "===")


def version_range(text: str) -> str | None:
    """The version range of requirement `text` that is not a pin (`numpy<2`, `cmake>=3.26,<4`,
    `torch~=2.5.0`, `flash-attn==2.7.*`), lower bounds first; None when there is none. Shown in the
    tables as a floating version, never as a pin."""
    if not any(c in text for c in "<>=!~"):
        return None
    simple = _SIMPLE_RANGE.match(text)
    if simple is not None:  # plain release numbers: the specifiers as written (`packaging` keeps them)
        specs = set(_SPEC_PARTS.findall(simple.group(2)))
        return _range_text(specs)
    return packaging_version_range(text)


def packaging_version_range(text: str) -> str | None:
    """`version_range` read by `packaging.requirements.Requirement`, the authority."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        specs = Requirement(text).specifier
    except InvalidRequirement:
        return None
    return _range_text({(spec.operator, spec.version) for spec in specs})


def _range_text(specs: set[tuple[str, str]]) -> str | None:
    """`op+version` pairs joined by commas, lower bounds first (then by operator and version)."""
    ordered = sorted(specs, key=lambda spec: (spec[0] not in _LOWER_BOUNDS, spec[0], spec[1]))
    return ",".join(op + version for op, version in ordered) or None


def _is_local(text: str) -> bool:
    if "://" in text or text.startswith("git+"):
        return False
    return (
        text in (".", "..")
        or text.startswith(("./", "../", "/", "~", "$"))
        or ("/" in text and "@" not in text and "==" not in text)
        # a wheel's file name alone (`torch-2.3.0-cp310-cp310-linux_aarch64.whl`): pip reads a word
        # ending in an archive's extension as a file in the working directory
        or (text.lower().endswith(".whl") and "==" not in text and "@" not in text)
    )


def _git(url: str, name: str | None, word: Word, ctx: RunContext) -> None:
    """`git+https://host/org/repo.git@REF#egg=name&subdirectory=…`."""
    base = url[4:] if url.lower().startswith("git+") else url
    base, _, fragment = base.partition("#")
    egg = None
    for part in fragment.split("&"):
        key, _, value = part.partition("=")
        if key == "egg" and value:
            egg = value.split("[", 1)[0]
    ref = None
    scheme_end = base.find("://")
    path_start = base.find("/", scheme_end + 3 if scheme_end >= 0 else 0)
    at = base.rfind("@")
    if path_start >= 0 and at > path_start:
        base, ref = base[:at], base[at + 1 :]
    _git_source(name or egg or repo_name(base), ref, base, word, ctx)


def _git_source(name: str, ref: str | None, source: str, word: Word, ctx: RunContext) -> None:
    """A repository at `ref` built and installed by pip (`git+…@ref`, a GitHub archive of the ref)."""
    kind = ref_kind(ref) if ref else None
    add(
        ctx,
        word,
        name=name,
        kind="git",
        version=None,
        ref=ref,
        source=source,
        method="source",
        pinned=kind is not None and is_pinned_ref(kind) and word.known,
        ref_kind=kind,
        fork=fork_of(source, installed=True),
    )


def _url(url: str, name: str | None, word: Word, ctx: RunContext) -> None:
    """A wheel or sdist given by URL (`#sha256=…` and query strings ignored for the file name)."""
    plain = url.split("#", 1)[0].split("?", 1)[0]
    filename = unquote(posixpath.basename(plain))
    if filename.lower().endswith(".whl"):
        _package_file(_file_name(filename), word, ctx, source=url, name=name)
        return
    repo = github_repo(plain)
    if repo is not None and "/archive/" in plain:
        # github.com/O/R/archive/<commit or tag>.tar.gz: the repository at that ref, like `git+…@ref`
        stem = split_extension(filename)[0]
        _git_source(
            name or repo[1], stem.removeprefix("refs/tags/"), plain.split("/archive/", 1)[0], word, ctx
        )
        return
    _package_file(filename, word, ctx, source=url, name=name)


def _file_name(path: str) -> str:
    """The file name of a path or URL, `#…` and `?…` left out, %-escapes decoded."""
    return unquote(posixpath.basename(path.split("#", 1)[0].split("?", 1)[0]))


def _package_file(filename: str, word: Word, ctx: RunContext, source: str, name: str | None = None) -> None:
    """A wheel (installed as built) or an sdist (built from source): the package and the version its
    file name says; for another archive, what its name looks like (`name_version`)."""
    if filename.lower().endswith(".whl"):
        found: tuple[str, str | None] | None = wheel_name_version(filename)
        if found is None:
            ctx.recorder.skip(ctx.line_of(word), f"not a valid wheel file name: {filename}")
            return
        kind, method, pinned = "wheel", "prebuilt", word.known
    else:
        found = sdist_name_version(filename) or name_version(*split_extension(filename))
        kind, method, pinned = "pip", "source", found[1] is not None and word.known
    add(
        ctx,
        word,
        name=name or found[0],
        kind=kind,
        version=found[1],
        source=source,
        method=method,
        pinned=pinned,
    )


# The usual wheel and sdist file names (`torch-2.5.1+rocm6.2-cp310-cp310-linux_x86_64.whl`,
# `flash_attn-2.7.4.tar.gz`), read without `packaging.utils`: importing it loads `packaging.tags`,
# which loads `logging`, `platform`, `subprocess` and `sysconfig` (~15 ms, a tenth of `docgen show`).
# Anything else goes to `packaging`; tests/test_pip_requirement.py checks the two agree.
_FILE_VERSION = (
    r"[0-9]+(?:\.[0-9]+)*(?:(?:a|b|rc)[0-9]+)?(?:\.post[0-9]+)?(?:\.dev[0-9]+)?"
    r"(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?"
)
_TAG_PART = r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*"
_SIMPLE_WHEEL = re.compile(
    rf"((?:[A-Za-z0-9.]|_(?!_))+)-({_FILE_VERSION})(?:-[0-9][A-Za-z0-9_.]*)?"
    rf"-[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*-{_TAG_PART}-{_TAG_PART}\.whl\Z"
)  # (a name with `__` is not a wheel's)
_SIMPLE_SDIST = re.compile(rf"([A-Za-z0-9._]+)-({_FILE_VERSION})(?:\.tar\.gz|\.zip)\Z")


def wheel_name_version(filename: str) -> tuple[str, str] | None:
    """(normalised name, version as written) of a wheel file name; None when it is not a valid one."""
    simple = _SIMPLE_WHEEL.match(filename)
    return (_canonical(simple[1]), simple[2]) if simple else packaging_file_name_version(filename, True)


_WHEEL_TAGS = re.compile(r"-([A-Za-z0-9_.]+)-([A-Za-z0-9_.]+)-[A-Za-z0-9_.]+\.whl\Z")
_CPYTHON_ABI = re.compile(r"cp(3)(\d{1,2})[dmut]*")  # cp312, cp37m, cp313t (PEP 425 / PEP 703)


def wheel_python(filename: str) -> str | None:
    """The Python release a wheel file name's interpreter tags fix (PEP 425): `3.12` for
    `flash_attn-2.8.3-cp312-cp312-linux_x86_64.whl`, whose CPython ABI only 3.12 loads. None when the tags
    allow several releases: `py3-none-any`, the stable ABI (`cp38-abi3`: 3.8 and later), several tags
    (`cp311.cp312`)."""
    tags = _WHEEL_TAGS.search(filename)
    if tags is None or "." in tags[1] or "." in tags[2]:
        return None
    abi = _CPYTHON_ABI.fullmatch(tags[2])
    python = _CPYTHON_ABI.fullmatch(tags[1])
    if abi is None or python is None or python.group(1, 2) != abi.group(1, 2):
        return None
    return f"{abi[1]}.{abi[2]}"


PIP = r"(?:pip[0-9.]*|python[0-9.]*\s+-m\s*pip)"
"""How a shell command calls pip, as a part of a regex: `pip`, `pip3.11`, `python3 -m pip` (what lint
and the audit read as a pip command builds on it)."""


_NAMED_PYTHON = re.compile(r"(?<![\w.$-])(?:[\w./-]*/)?python(3\.\d{1,2})(?![\w.])")
"""An interpreter named with its release in a command (`ln -s /usr/bin/python3.10 /usr/bin/python`,
`python3.11 -m pip`, `/opt/conda/bin/python3.12`, the package `python3.10-venv`)."""


def named_python(runs: Iterable[tuple[int, str]]) -> tuple[str, int] | None:
    """The Python release the commands of `runs` (line, RUN text) name by path or name (`python3.10`),
    and the first line naming it, when they name one release only; None otherwise."""
    found: dict[str, int] = {}
    for line, text in runs:
        for match in _NAMED_PYTHON.finditer(text) if "python3." in text else ():
            found.setdefault(match.group(1), line)
    if len(found) != 1:
        return None
    return next(iter(found.items()))


def sdist_name_version(filename: str) -> tuple[str, str] | None:
    """(normalised name, version) of an sdist file name (`.tar.gz`, `.zip`); None when not one."""
    simple = _SIMPLE_SDIST.match(filename)
    return (_canonical(simple[1]), simple[2]) if simple else packaging_file_name_version(filename, False)


def packaging_file_name_version(filename: str, wheel: bool) -> tuple[str, str] | None:
    """`wheel_name_version` (with `wheel`) or `sdist_name_version` read by `packaging.utils`, the
    authority."""
    from packaging import utils

    try:  # (InvalidWheelFilename and InvalidSdistFilename are ValueErrors)
        if wheel:
            name, parsed = utils.parse_wheel_filename(filename)[:2]
        else:
            name, parsed = utils.parse_sdist_filename(filename)
    except ValueError:
        return None
    return str(name), _raw_version(filename, parsed)


def _canonical(name: str) -> str:
    """`packaging.utils.canonicalize_name` of an ASCII name: lower case, runs of `-_.` made one `-`."""
    value = name.lower().replace("_", "-").replace(".", "-")
    while "--" in value:
        value = value.replace("--", "-")
    return value


def _raw_version(filename: str, parsed: object) -> str:
    """The version as written in a `name-version-…` file name (packaging normalises it)."""
    parts = filename.split("-")
    if len(parts) >= 2 and parts[1][:1].isdigit():
        raw = parts[1]
        for ext in (".tar.gz", ".zip", ".tar.bz2", ".tar"):
            if raw.endswith(ext):
                raw = raw[: -len(ext)]
        return raw
    return str(parsed)


_REDIRECTED = {
    ">": "its output redirected to {}",
    "<": "its input read from the file {}, which fails the build when there is none",
}
_REDIRECT_WARNING = re.compile(
    r"RUN line \d+: (?P<tool>.+?) (?P<spec>\S+) is read by the shell as (?P<name>\S+) with .*: "
    r'quote the requirement \("(?P=spec)"\)\Z'
)


def redirect_warning(run_line: int, tool: str, name: str, redirects: list[tuple[str, str]]) -> str:
    """The `docgen lint` warning (DG013) for a requirement whose bound the shell reads as redirections:
    `pip install paddleocr>=2.9.1` is `paddleocr` with its output redirected to `=2.9.1`."""
    spec = name + "".join(op + target for op, target in redirects)
    how = " and ".join(_REDIRECTED[op].format(target) for op, target in redirects)
    return (
        f"RUN line {run_line}: {tool} {spec} is read by the shell as {name} with {how}: "
        f'quote the requirement ("{spec}")'
    )


def read_redirect_warning(message: str) -> tuple[str, str] | None:
    """(name, requirement as written) of a DG013 warning (`redirect_warning`): `('paddleocr',
    'paddleocr>=2.9.1')`; None for any other message."""
    found = _REDIRECT_WARNING.match(message)
    return (found.group("name"), found.group("spec")) if found is not None else None
