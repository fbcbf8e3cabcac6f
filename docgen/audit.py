"""Audit a hand-written README: claims outside docgen blocks that contradict the Dockerfile.

Most projects start from a README written by hand. Before it adopts markers, `audit` lists what in it is
already stale, as `Diagnostic`s (`README.md:42: README says Megatron-core 0.16.0 but Dockerfile:230 says
0.18.0`):

- a build arg the README documents (a build-argument table, `--build-arg NAME`, a backticked
  `UPPER_SNAKE` name in a sentence about build args or in a list under a build-args heading, a one-word
  name of a `NAME=VALUE` list that can only be build args) that the Dockerfile does not declare; ENV
  names, BuildKit's predefined args and placeholders are not claims;
- a build arg a user can pass that the README's build-argument table (when it has one) leaves out;
- a default in that table (Markdown or HTML), or in a list item (`- `CUDA_VERSION` set to `12.4.0``)
  or a sentence (`` `JOBS` defaults to `4` ``), that differs from the effective default, and a build arg
  the README says is required (`has no default`, `must be explicitly specified`) while its ARG has one;
- a version next to a component (a version table row, a table with a column per component, a
  shields.io badge, an inline `pkg==1.2.3` / `pkg>=1.2` pin, or prose such as `PyTorch 2.9.1`) that
  disagrees with every pin of it in the Dockerfile, base image tags included;
- a base image stated in words (`Defaults to `python:3-slim-bullseye` base image`) whose version or
  distribution differs from the one FROM uses;
- a component said to be absent (`TensorRT (Not Installed)`) that the image built installs, or said
  to be included (`The image includes TensorRT`) that nothing in a plain-OS-based image installs;
- a list of the GPU targets the image is built for that differs from the target build arg's default.

Changelog and release-notes sections tell the past and are skipped; so is text about the host, older
images or another build tool's arguments (`docgen.aside`). A README about a family of images
is audited against all of them: each section against the image it says it is about (a build command's
`-f`, a Dockerfile or its variant in the heading, a link, a base image; for a `-f` to a Dockerfile that
is gone, the one it most likely means now, or none), the rest against every one.
Each finding carries a confidence: `certain` when read from a table cell, a pin, a build command or a
file reference, `likely` when read from prose.

Everything here is a pure function over strings and the model. The text is read once, line by line;
every regular expression runs on one line, a table cell or a bounded window, and none can backtrack
over user text (each repeat is followed by text it cannot match).
"""

from __future__ import annotations

import bisect
import dataclasses
import difflib
import functools
import html
import itertools
import posixpath
import re
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from docgen import hardware
from docgen.aside import aside_lines, is_host_intro, not_current_spans, other_tool_args, version_owner
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.files import dockerfiles_in, is_dockerfile_name
from docgen.markdown import (
    Document,
    Fence,
    Paragraph,
    Table,
    code_spans,
    links,
    read_document,
    source_lines,
    without_links,
)
from docgen.model import ArgDecl, Component, Diagnostic, ImageModel, short_commit
from docgen.rows import VERSION_ARG as _VERSION_ARG
from docgen.rows import build_arg_rows, display_name, renamed, version_rows
from docgen.sources.naming import SAME_PROJECT

CERTAIN = "certain"
"""A finding's confidence when the claim is read from a table cell next to a name, a pin (`pkg==1.2`), a
build command or a file reference: it can only mean what docgen read."""
LIKELY = "likely"
"""A finding's confidence when the claim is read from prose, a list item, a heading, a badge or an image
tag: the words around it could make it something else (a host requirement, another image)."""

# --------------------------------------------------------------------------------------------------
# What counts as a claim about build args

_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")

_COMMAND_LANGS = frozenset(
    {"", "bash", "sh", "shell", "console", "zsh", "shell-session", "powershell", "ps1", "cmd", "bat"}
    | {"docker", "text", "txt", "plaintext", "plain", "none", "terminal"}
)
"""Fence info strings of blocks a `docker build` line in is a command to run (```` ```docker ```` too); a
```` ```dockerfile ```` block is a Dockerfile, its `# docker build -f …` a comment."""

_BUILD_ARG_WORDS = re.compile(r"build[- ]?arg|(?-i:\bARG[Ss]?\b)", re.IGNORECASE)
_NOT_A_BUILD_ARG = re.compile(
    r"\b(?:not|never|no longer)[ \t]+(?:as[ \t]+)?(?:an?[ \t]+)?build[- ]?arg", re.IGNORECASE
)
_BUILD_EVIDENCE = re.compile(_BUILD_ARG_WORDS.pattern + r"|构建参数|编译参数", re.IGNORECASE)
_ARGUMENT_WORDS = re.compile(r"argument|\bargs?\b|参数", re.IGNORECASE)
_NOT_BUILD_ARG_WORDS = re.compile(
    r"\benv\b|environment|环境变量|(?:launcher|server|cli|command[- ]line|program|script|engine)[ \t]+arg",
    re.IGNORECASE,
)


def _about_build_args(text: str) -> bool:
    """True when `text` talks about build args: `build arg`, `--build-arg`, `ARG`, or `argument` when it
    is not about environment variables or a program's arguments (`launcher argument`); and does not
    say that something is not one (`HF_TOKEN is not a build argument`), nor that they are another
    tool's (`Required CMake build arguments:`)."""
    if _NOT_A_BUILD_ARG.search(text) or other_tool_args(text):
        return False
    if _BUILD_ARG_WORDS.search(text):
        return True
    return bool(_ARGUMENT_WORDS.search(text)) and not _NOT_BUILD_ARG_WORDS.search(text)


def _says_build_args(text: str) -> bool:
    """True when `text` has words that can only mean build args (`build arg`, `--build-arg`, `ARG`)
    and none of environment variables or a program's arguments: the stricter test of `NAME=VALUE`
    lists and blocks, where a one-word name is a claim too."""
    return bool(_BUILD_ARG_WORDS.search(text)) and not _NOT_BUILD_ARG_WORDS.search(text)


def _build_evidence(text: str) -> bool:
    """True when `text` says build args in so many words (`build argument`, `--build-arg`, `ARG`), not
    only `argument`, `parameter` or 参数, which a run-time variable is called too."""
    return bool(_BUILD_EVIDENCE.search(text)) and not _NOT_A_BUILD_ARG.search(text)


# --------------------------------------------------------------------------------------------------
# Names and versions

_ALIASES = SAME_PROJECT

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_DIGIT = re.compile(r"[0-9]")


def _raw(name: str) -> str:
    """`name` in lower case with everything but letters and digits removed."""
    return _NON_ALNUM.sub("", name.lower())


def _norm(name: str) -> str:
    """`Megatron-core`, `megatron_core` and `Megatron Core` all become `megatroncore`."""
    key = _raw(name)
    return _ALIASES.get(key, key)


def _keys(name: str, names: Mapping[str, str]) -> set[str]:
    """The normalised keys a name is known by: as written, and its display name (config or well known)."""
    keys = {_norm(name), _norm(display_name(name, names))}
    dashed = re.sub(r"[\s_]+", "-", name.strip().lower())
    keys.add(_norm(display_name(dashed, names)))
    keys.discard("")
    return keys


_HEX = re.compile(r"[0-9a-f]{7,40}\Z")
_EPOCH = re.compile(r"\d{1,4}:(?=\d)")
"""A Debian epoch: `1:2.34.1-1ubuntu1.10` is git 2.34.1 (the revision after `-` is the packaging's)."""
_RELEASE = re.compile(r"\d+(?:\.\d+)*")


def _is_commit(value: str) -> bool:
    return bool(_HEX.match(value.lower())) and not value.isdigit()


_REF_PREFIX = re.compile(r"[A-Za-z]+(?:[-_/][A-Za-z]+)*[-_/][vVrR]?(?=\d)|[vV](?=\d)")
_CALENDAR = re.compile(r"(?:1[7-9]|[23]\d)\.(?:0[1-9]|1[0-2])(?!\d)")


def _strip_v(value: str) -> str:
    """The version in a tag or branch: `0.18.0` for `v0.18.0`, `core_r0.13.0` or `release/0.18.0`."""
    prefix = _REF_PREFIX.match(value)
    return value[prefix.end() :] if prefix else value


def _same_version(claim: str, fact: str, exact: bool = False) -> bool | None:
    """True when `claim` agrees with `fact`, False when it disagrees, None when they cannot be compared.

    `v0.18.0` equals `0.18.0` and `core_r0.18.0`; a short commit equals the long one it starts; a
    release agrees with a longer or shorter release it is a prefix of (`12.4` and `12.4.1`, `0.16` and
    `0.16.0`), whatever follows it (`2.9.1` and `2.9.1.dev20251204+rocm7.0.2`, `9.1.0.70-1`). A
    calendar version (`25.04`, an NGC container) and a semantic one (`2.7.0`) cannot be compared. An
    `exact` fact (a `==` pin, not a version read off an image tag) is all there is: a claim adding a
    post- or dev release to it (`2.7.1.post4` for `torch-npu==2.7.1`) disagrees.
    """
    a, b = (_strip_v(_EPOCH.sub("", v.strip())).lower() for v in (claim, fact))
    if a == b:
        return True
    if _is_commit(a) or _is_commit(b):
        if _is_commit(a) and _is_commit(b):
            return a.startswith(b) or b.startswith(a)
        return None
    ra, rb = _RELEASE.match(a), _RELEASE.match(b)
    if not ra or not rb or bool(_CALENDAR.match(a)) != bool(_CALENDAR.match(b)):
        return None
    ta = _release_tuple(ra.group())
    tb = _release_tuple(rb.group())
    shorter = min(len(ta), len(tb))
    return ta[:shorter] == tb[:shorter] and _same_suffix(a, b, exact)


def _same_suffix(a: str, b: str, exact: bool = False) -> bool:
    """False when two versions whose releases agree are different pre-, post- or dev releases by
    `packaging.version` (`0.8.5.post1` and `0.8.5.post2`, `2.7.1rc1` and `2.7.1`); True when one only
    omits what the other adds (`0.8.5` for `0.8.5.post1`, `2.7.1` for `2.7.1+cu126`) or either does not
    parse (`9.1.0.70-1`, a Debian revision); with an `exact` fact `b`, `a` may not add one either."""
    try:
        va, vb = Version(a), Version(b)
    except InvalidVersion:
        return True
    if len(va.release) == len(vb.release) and va.pre != vb.pre:
        return False
    added = (va.post is not None and vb.post is None) or (va.dev is not None and vb.dev is None)
    if exact and added and len(va.release) == len(vb.release):
        return False
    return all(x is None or y is None or x == y for x, y in ((va.post, vb.post), (va.dev, vb.dev)))


def _release_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def _satisfies(operator: str, claim: str, fact: str, exact: bool = False) -> bool | None:
    """Whether `fact` satisfies the requirement `operator claim` (`>=2.4`), None when unknowable."""
    if operator in ("==", "==="):
        return _same_version(claim, fact, exact)
    if _is_commit(fact):
        return None
    try:
        public = Version(_strip_v(fact)).base_version
        return SpecifierSet(f"{operator}{_strip_v(claim)}").contains(public, prereleases=True)
    except (InvalidVersion, InvalidSpecifier):
        return None


def _shown_version(version: str | None, display: str) -> str:
    """A dev or local build (`2.9.1.dev20251204+rocm7.0.2…`) as its public release, like Key versions."""
    if version:
        try:
            parsed = Version(version)
        except InvalidVersion:
            return display
        if parsed.is_devrelease or parsed.local:
            return parsed.base_version
    return display


@dataclass(frozen=True)
class _Fact:
    """One version a Dockerfile pins, under the names it is known by."""

    value: str
    shown: str
    line: int
    path: str
    """The Dockerfile, as shown."""
    exact: bool = False
    """A pin that says all of the version (`==2.7.1`, an ARG's default), not one read off an image tag."""


class _Facts:
    """The pins of one or more Dockerfiles (the images a part of the README may be about), looked up by
    normalised name."""

    def __init__(self, models: Sequence[ImageModel], names: Mapping[str, str]) -> None:
        self.by_key: dict[str, list[_Fact]] = {}
        self._in_key: dict[str, set[_Fact]] = {}  # by_key's facts as sets: 4,000 Dockerfiles pin torch
        self._seen: dict[str, list[_Fact]] = {}
        self.images: dict[str, list[_Fact]] = {}
        """Each base image's repository → its tags (`rocm/dev-ubuntu-22.04` → `6.4.1-complete`)."""
        self.arg_defaults = [
            (decl.name, decl.effective_default, decl.line, model.path)
            for model in models
            for decl in model.args
            if not decl.bare and decl.effective_default
        ]
        for model in models:
            self._read(model, names)
        # The spellings (lower case, `_NON_ALNUM` removed, before `_ALIASES`) a name can have for
        # `lookup` to find anything: most words of a README have none, and are passed over at once.
        self.findable = {_raw(k) for k in renamed(names)} | set(self.by_key)
        self.findable |= {alias for alias, key in _ALIASES.items() if key in self.by_key}

    def _read(self, model: ImageModel, names: Mapping[str, str]) -> None:
        path = model.path
        # Build args first: when a README is stale, the ARG line is where the version is changed.
        for decl in model.args:
            match = _VERSION_ARG.search(decl.name)
            if not match or decl.bare or not decl.effective_default:
                continue
            stem = decl.name[: match.start()] or decl.name
            keys = _keys(decl.name, names) | _keys(stem, names)
            if decl.name in names:
                keys |= _keys(names[decl.name], names)
            default = decl.effective_default
            self._add(keys, _Fact(default, short_commit(default), decl.line, path, exact=True))
        # where a version is changed: the ARG that sets it (`ARG BASE_IMAGE=…:6.4`), else its line
        arg_lines: dict[str, int] = {}
        for decl in model.args:
            if not decl.bare and decl.default is not None:
                arg_lines.setdefault(decl.name, decl.line)
        for row in version_rows(model, names, None):
            if row.source and row.source.endswith(":" + row.version) and not _TAG_VERSION.match(row.version):
                continue  # an image's tag that is a name (`base-v2-cu126-…`), not a version
            keys = _keys(row.name, names) | (_keys(row.arg, names) if row.arg else set())
            line = arg_lines.get(row.arg, row.line) if row.arg and row.origin in ("tag", "name") else row.line
            self._add(keys, _Fact(row.version, row.version, line, path, exact=row.origin is None))
        for comp in model.components:
            value = comp.version or comp.ref
            if not comp.pinned or not value:
                continue
            line = arg_lines.get(comp.arg, comp.line) if comp.arg else comp.line
            keys = _keys(comp.name, names)
            if comp.kind == "image":
                self.images.setdefault(comp.name.lower(), []).append(_Fact(value, value, line, path))
                keys |= _keys(comp.name.rsplit("/", 1)[-1], names)
                for name, version in _tag_versions(value):
                    self._add(_keys(name, names), _Fact(version, version, line, path))
                if not _TAG_VERSION.match(value):
                    continue  # `verlai/verl:base-v2-cu126-…` is a name, not verl 2
            elif comp.kind in ("pip", "wheel"):
                # `flashinfer-python` is FlashInfer, `pytorch-triton-rocm` is Triton.
                keys |= {k.removesuffix("python") for k in keys if len(k) > len("python") + 3}
            shown = _shown_version(comp.version, comp.display_version)
            self._add(keys, _Fact(value, shown, line, path, exact=True))

    def _add(self, keys: set[str], fact: _Fact) -> None:
        for key in keys:
            held = self._in_key.setdefault(key, set())
            if fact not in held:
                held.add(fact)
                self.by_key.setdefault(key, []).append(fact)

    def lookup(self, name: str, names: Mapping[str, str]) -> list[_Fact]:
        """The pins of everything `name` may mean (`PyTorch`: torch, TORCH_VERSION …), best first."""
        if name not in self._seen:
            found: dict[_Fact, None] = {}  # in order, each once
            for key in sorted(_keys(name, names)):
                found.update(dict.fromkeys(self.by_key.get(key, ())))
            self._seen[name] = list(found)
        return self._seen[name]


def _tag_versions(tag: str) -> list[tuple[str, str]]:
    """What an image tag says of other components: `rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.4.0`
    is ROCm 6.3, Ubuntu 22.04, Python 3.10 and PyTorch 2.4.0; `12.4.1-devel-ubuntu22.04` is Ubuntu 22.04.
    Versions without a dot (`py3`, `rocm630`, `20250923`) are too terse to compare and left out."""
    found: list[tuple[str, str]] = []
    word = ""
    for token in re.split(r"[-_]+", tag.lower()):
        glued = re.fullmatch(r"([a-z]+)(\d+(?:\.\d+)+[a-z0-9.]*)", token)
        cuda = _CUDA_TAG.fullmatch(token)
        if cuda:
            found.append(("cuda", f"{int(cuda.group(1))}.{cuda.group(2)}"))
        elif glued:
            found.append((glued.group(1), glued.group(2)))
        elif re.fullmatch(r"\d+(?:\.\d+)+", token) and word:
            found.append((word, token))
        if token.isalpha() and token not in ("release", "version", "v", "r"):
            word = token
        elif not token.isalpha():
            word = ""
    return found


_DIGITS = re.compile(r"\d+")
_VERSION_RUN = re.compile(r"\d+(?:\.[0-9A-Za-z]+)+|(?<![A-Za-z])\d+")
"""A version in a tag: dotted (`8.3.rc2`, the `22.04` of `ubuntu22.04`), or digits not glued to a word
(`20250923`, the `910` of `910b`); `x1`, `py3` and `cu129` name a variant, not a release."""


def _skeleton(tag: str) -> str:
    """An image tag with each version replaced by `0`: `8.3.rc2-910b-ubuntu22.04-py3.11` and
    `9.0.0-910b-ubuntu22.04-py3.11` are both `0-0b-ubuntu0-py0` (one image, another release),
    `9.0.0-a3-ubuntu22.04-py3.11` is `0-a3-ubuntu0-py0` (another variant)."""
    return _VERSION_RUN.sub("0", tag)


_TAG_VERSION = re.compile(r"[vV]?\d")
"""An image tag that is a version (`6.4.1-complete`, `v0.10.1`, `25.04-py3`), not a name (`base-v2-…`)."""
_CUDA_TAG = re.compile(r"cu(1[0-9])([0-9])")
"""`cu126` in a tag or wheel name: CUDA 12.6 (PyTorch's spelling; `cu130` is 13.0)."""


# --------------------------------------------------------------------------------------------------
# Claims


@dataclass(frozen=True)
class _Auditor:
    """What the Dockerfiles a part of the README is about say, and how to turn one claim into a finding.
    With several Dockerfiles (a README about a family of images), a claim agreeing with any one of them
    is true of the family."""

    path: str
    models: tuple[ImageModel, ...]
    names: Mapping[str, str]
    facts: _Facts
    declared: frozenset[str]
    env: frozenset[str]
    family: tuple[ImageModel, ...] = ()
    """Every Dockerfile audited (`models` is the part of them a section is about)."""
    siblings: tuple[str, ...] = ()
    """The Dockerfiles next to the README that are not audited (a scope note may name one)."""
    runtime: frozenset[str] = frozenset()
    """Names the README passes at run time (`docker run -e NAME=…`, compose `environment:`) and never
    with `--build-arg`: build args only where the text says build args."""

    @classmethod
    def of(
        cls,
        path: str,
        models: tuple[ImageModel, ...],
        names: Mapping[str, str],
        family: tuple[ImageModel, ...] = (),
        siblings: tuple[str, ...] = (),
        runtime: frozenset[str] = frozenset(),
    ) -> _Auditor:
        return cls(
            path=path,
            models=models,
            names=names,
            facts=_Facts(models, names),
            declared=frozenset(a.name for m in models for a in m.args),
            env=frozenset(e.name for m in models for e in m.env),
            family=family or models,
            siblings=siblings,
            runtime=runtime,
        )

    def _with(self, models: tuple[ImageModel, ...]) -> _Auditor:
        if models == self.models:
            return self
        return _Auditor.of(self.path, models, self.names, self.family, self.siblings, self.runtime)

    @functools.cached_property
    def each(self) -> tuple[_Auditor, ...]:
        """One auditor a Dockerfile (this one, when it has one)."""
        if len(self.models) == 1:
            return (self,)
        return tuple(self._with((model,)) for model in self.models)

    @functools.cached_property
    def whole(self) -> _Auditor:
        """The auditor of every Dockerfile audited: a `--build-arg NAME=…` of a command naming no `-f`
        is about whichever of them declares NAME."""
        return self._with(self.family)

    def scoped(self, text: str) -> _Auditor | None:
        """The auditor of the image a scope note in `text` (one list item or table row) names: `(only
        for `horovod-ray` image)`, `(ROCm only)`, `for the cuda image`. The note outranks the section:
        the item is about that image of the family, or (None) about a sibling not audited. Without a
        note naming an image docgen knows, this auditor."""
        named = _scope_names(text)
        if not named:
            return self
        family = tuple(m for m in self.family if named & _image_names(m.path))
        if family:
            return self._with(family)
        if any(named & _image_names(p) for p in self.siblings):
            return None
        return self

    @staticmethod
    def where(fact: _Fact) -> str:
        return f"{fact.path}:{fact.line}"

    def verdict(self, name: str, operator: str, version: str) -> tuple[bool | None, _Fact | None]:
        """(True, pin) when a pin of `name` satisfies `operator version`, (False, first pin that does
        not) when none does but one can be compared, (None, None) when none can. `3.10+` is `>=3.10`."""
        if operator == "==" and version.endswith("+"):
            operator, version = ">=", version.rstrip("+")
        wrong = None
        for fact in self.facts.lookup(name, self.names):
            agrees = _satisfies(operator, version, fact.value, fact.exact)
            if agrees:
                return True, fact
            wrong = fact if agrees is False and wrong is None else wrong
        return (False, wrong) if wrong else (None, None)

    def version_claim(
        self, line: int, name: str, operator: str, version: str, confidence: str
    ) -> Diagnostic | None:
        """A diagnostic, showing the claim as the README wrote it, when it contradicts every pin."""
        agrees, fact = self.verdict(name, operator, version)
        if agrees is not False or fact is None:
            return None
        shown = f"{name} {version}" if operator == "==" else f"{name}{operator}{version}"
        message = f"README says {shown} but {self.where(fact)} says {fact.shown}"
        return Diagnostic(self.path, line, message, confidence=confidence)

    def default_claim(
        self, line: int, name: str, claim: str | None, confidence: str, required: bool = False
    ) -> Diagnostic | None:
        """A diagnostic when the default a README gives the build arg `name` (normalised by
        `_default_in_cell`, None when it is in words) differs from the Dockerfiles'. `required`: the
        README says the arg has no default and must be passed (claim '')."""
        decls = [(m.path, d) for m in self.models for d in m.args if d.name == name and not d.unknown]
        if claim is None or not decls or _same_default(claim, [d for _, d in decls]):
            return None
        path, first = next(((p, d) for p, d in decls if not d.bare), decls[0])
        said = "has no default (must be passed)" if required else f"defaults to {claim or chr(34) * 2}"
        return Diagnostic(
            self.path,
            line,
            f"README says {name} {said} but {path}:{first.line} says {_shown_default(first)}",
            confidence=confidence,
        )

    def arg_claim(self, line: int, name: str, confidence: str) -> Diagnostic | None:
        """A diagnostic when the README documents a build arg no Dockerfile declares."""
        if (
            name in self.declared
            or name in self.env
            or name in PREDEFINED_ARGS
            or name in PROXY_ARGS
            or name in _NOT_BUILD_ARGS
            or name.startswith(("BUILDKIT_", "BUILDX_", "COMPOSE_"))
        ):
            return None
        if len(self.models) == 1:
            whom = f"{self.models[0].path} does not declare it"
        else:
            whom = f"none of {', '.join(m.path for m in self.models)} declares it"
        return Diagnostic(
            self.path, line, f"README documents build arg {name} but {whom}", confidence=confidence
        )


_SCOPE_NOTE = re.compile(
    r"\([ \t]*(?:only[ \t]+)?(?:for|in)[ \t]+(?:the[ \t]+)?([\w.+-]+)"
    r"(?:[ \t]+images?)?(?:[ \t]+only)?[ \t]*\)"
    r"|\([ \t]*([\w.+-]+?)(?:[ \t]+images?)?(?:[ \t]+|-)only[ \t]*\)"
    r"|\bonly[ \t]+(?:for|in)[ \t]+(?:the[ \t]+)?([\w.+-]+)[ \t]+images?\b"
    r"|\bfor[ \t]+(?:the[ \t]+)?([\w.+-]+)[ \t]+images?\b",
    re.IGNORECASE,
)
"""A note binding one item of a build-arg list or table to an image: `(only for `horovod` image)`,
`(ROCm only)`, `(rocm-only)`, `only for the cuda image`, `for the horovod-ray image`."""


def _scope_names(text: str) -> set[str]:
    """The image names (lower case) the scope notes of `text` name."""
    plain = text.replace("`", "").replace("*", "")
    return {name.lower() for m in _SCOPE_NOTE.finditer(plain) for name in m.groups() if name}


def _image_names(path: str) -> set[str]:
    """The names an image of a family goes by in its README: the variant of its Dockerfile's name
    (`rocm` for `rocm.Dockerfile`), and the folder of a plain `Dockerfile` (`horovod-ray` for
    `docker/horovod-ray/Dockerfile`). Of a variant of several words, the words that end it too
    (`mofed`, `rdma-core` for `UCXPy-rdma-core.dockerfile`), but no vague word (`latest`)."""
    found = {v} if (v := variant(path)) else set()
    pieces = re.split(r"([._-]+)", v or "")
    for start in range(2, len(pieces), 2):  # the words after each separator, to the end
        if "".join(pieces[start:]) not in _VAGUE_PARTS:
            found.add("".join(pieces[start:]))
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    if len(parts) >= 2 and parts[-1] in ("Dockerfile", "Containerfile"):
        found.add(parts[-2].lower())
    return found


_NOT_BUILD_ARGS = frozenset(
    {
        # placeholders people write in examples
        "NAME",
        "KEY",
        "VALUE",
        "VAR",
        "VARIABLE",
        "ARG",
        "ARG_NAME",
        "BUILD_ARG",
        "FOO",
        "BAR",
        "BAZ",
        # variables of the docker client, not of the build
        "DOCKER_BUILDKIT",
        "DOCKER_HOST",
        "DOCKER_CONFIG",
        "DOCKER_DEFAULT_PLATFORM",
        "DOCKER_CLI_EXPERIMENTAL",
        "SOURCE_DATE_EPOCH",
    }
)

_ARG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\Z")
_UPPER_WORD = re.compile(r"[A-Z][A-Z0-9_]*\Z")
_BUILD_ARG_FLAG = re.compile(r"--build-arg(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)")
_PIN = re.compile(
    r"(?<![\w.+/@-])([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[A-Za-z0-9_,.-]*\])?[ \t]*"
    r"(===|==|>=|<=|~=)[ \t]*((?:\d{1,4}:)?v?\d[A-Za-z0-9.+!*-]*|[0-9a-f]{7,40}\b)"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*")
_AFTER_NAME = re.compile(
    r"[ \t*`:=@(—–]*"
    r"(?:(?:version|release|commit|tag|ref|at|is|pinned|to)[ \t*`:=@(]+){0,3}"
    r"(v?\d+(?:\.\d+)+[A-Za-z0-9.+!-]*|[0-9a-f]{7,40}(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
_DEFAULT_LEAD = re.compile(r"(?:the[ \t]+)?default(?:[ \t]+value)?(?:[ \t]+(?:of|for))?[ \t]+", re.IGNORECASE)
"""A list item that starts with the word: `Default `CUDA` is `10.0``, `The default for `JOBS` is `4``."""
_IS_VALUE = re.compile(r"[ \t]*(?:is|=|:)[ \t]*(?=`|<code>)", re.IGNORECASE)
_SET_TO = re.compile(r"[ \t]*(?:is[ \t]+)?set[ \t]+to[ \t]*(?=`|<code>)", re.IGNORECASE)
_DEFAULT_IS = re.compile(
    r"\bdefault(?:s|[ \t]+value)?(?:[ \t]+(?:is|to))?[ \t]*(?:[:=][ \t]*)?(?=`|<code>)", re.I
)
_IMAGE_REF = re.compile(
    r"(?<![\w./:@-])([a-z0-9][a-z0-9._/-]*):([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)"
)
"""`repository:tag` in text; a tag ends in a letter, digit or `_` (a full stop after it ends a sentence)."""
_BADGE = re.compile(r"img\.shields\.io/badge/([^/?#\s()\"'<>]+)")
_BADGE_VERSION = re.compile(r"v?\d+(?:\.\d+)*[A-Za-z0-9.]*\+?")
_NAME_WORDS = re.compile(r"[A-Za-z0-9._ \t-]+")
_OR_NEWER = re.compile(r"[ \t]+(?:or|and)[ \t]+(?:newer|later|above|higher)", re.IGNORECASE)
_MORE_VERSIONS = re.compile(r"[ \t]*(?:,|/|-+|–|to|and|or|through)[ \t]*v?\d", re.IGNORECASE)
_OR_OLDER = re.compile(r"[ \t]+(?:or|and)[ \t]+(?:older|earlier|below|lower)", re.IGNORECASE)
_EXAMPLE = re.compile(r"\b(?:for example|for instance|e\.g\b)", re.IGNORECASE)
_NAMES_AN_IMAGE = re.compile(r"[ \t]+(?:image|variant)s?\b", re.IGNORECASE)
_SENTENCE_THE = re.compile(r"(?:^|[.!?:][ \t]+)[ \t]*the[ \t]+\Z", re.IGNORECASE)
"""`The CUDA 13.0 image has its own Dockerfile.`: a sentence about the image of the family named by its
version (a sibling of a cu129/cu130 pair); it does not say what this one holds (`Uses the NGC PyTorch
25.03 image` does)."""
_NOT_A_CLAIM_BEFORE = re.compile(
    r"(?:\bfrom|\bthan|\bbefore|\bunlike|\bwas|\bpre|\bdefault[ \t]+(?:for|of)|^[ \t*+-]*default)[ \t`]*\Z",
    re.IGNORECASE,
)
"""Words before a name that make what follows no claim of its version: `upgraded from PyTorch 2.8.0`;
`Default `CUDA` is `10.0``, a build arg's default (compared as one)."""
_HOST_AFTER = re.compile(
    r"[ \t]*(?:[A-Za-z][\w.-]*[ \t]+)?(?:(?:kernel|host|gpu|npu|display)[ \t-]+)?"
    r"(?:drivers?|firmware|kernel[ \t-]+modules?|kmd|dkms)\b"
    r"|[ \t]+(?:on|of|in)[ \t]+the[ \t]+host\b",
    re.IGNORECASE,
)
"""After a version, what makes it one of the host's: `CANN 25.5.0 driver and firmware`, `ROCm 6.4
drivers`, `CUDA 12.4 compatible driver`, `CUDA 12.4 on the host`."""
_HOST_BEFORE = re.compile(
    r"\bhost(?:'s)?[ \t]+(?:[A-Za-z]+[ \t]+){0,2}\Z|\bon[ \t]+the[ \t]+host[ \t,]+(?:[A-Za-z]+[ \t]+){0,2}\Z"
    r"|\b(?:host|driver|firmware)[ \t]+(?:version[ \t]+)?\Z",
    re.IGNORECASE,
)
"""Before a name, what makes its version the host's: `the host needs ROCm 6.4`, `host driver CANN …`."""
_SENTENCE_END = re.compile(r"(?<=[.!?;])[ \t]+(?=[A-Z`*(\[])")


def _plain(cell: str) -> str:
    """A table cell as plain text: entities decoded, links reduced to their text, emphasis removed."""
    text = html.unescape(cell.replace("\\|", "|"))
    text = without_links(text)
    return text.replace("**", "").replace("__", "").strip()


def _first_code(cell: str) -> str | None:
    """The content of the first code span (backticks or `<code>`) of a cell, if it has one."""
    text = cell.replace("\\|", "|")
    spans = code_spans(text, html_code=True)
    return html.unescape(spans[0][2]).strip() if spans else None


def _arg_names_in_cell(cell: str) -> list[str]:
    """The build args a table cell names: each code span (`VLLM_TAG` / `AITER_TAG`), or the words of
    the cell when they are UPPER_SNAKE (`VLLM_TAG, AITER_TAG`)."""
    text = cell.replace("\\|", "|")
    spans = code_spans(text, html_code=True)
    if spans:
        found = []
        for _, _, content in spans:
            candidate = html.unescape(content).strip().removeprefix("--build-arg").strip()
            candidate = candidate.split("=", 1)[0].strip()
            if _ARG_NAME.match(candidate):
                found.append(candidate)
            elif not found:
                return []
        return found
    words = [w.strip("*_ ") for w in re.split(r"[ \t]*(?:/|,|\bor\b|\band\b)[ \t]*", _plain(cell))]
    if all(_UPPER_WORD.match(w) and len(w) > 2 for w in words):
        return words
    return []


_NO_VALUE = frozenset(
    {
        "pinned",
        "varies",
        "various",
        "required",
        "computed",
        "derived",
        "auto",
        "automatic",
        "see below",
        "see above",
        "see notes",
        "per variant",
        "per image",
        "set by ci",
        "ci",
        "generated",
        "latest pin",
    }
)
"""Words a default cell holds when it gives no value (`pinned`: there is one, the README does not say it)."""

_REQUIRED_CELL = re.compile(
    r"(?:(?:none|no default|-|—|–)[ \t]*(?:[,;(][ \t]*)?)?\(?(?:required|mandatory|must be (?:explicitly )?"
    r"(?:set|specified|provided|given|passed))\)?\.?"
)
"""A default cell saying the arg has none and must be passed (`required`, `none (required)`)."""

_EMPTY = frozenset({"", "-", "—", "–", "n/a", "not set", "no default"}) | {
    form for word in ("none", "empty", "unset") for form in (word, f"({word})", f"*({word})*")
}
"""How people write "no default" in a table cell."""


def _default_in_cell(cell: str) -> str | None:
    """The default a table cell claims, normalised ('' for empty), None when it is free text."""
    code = _first_code(cell)
    text = code if code is not None else _plain(cell).strip("*_ ")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    if text.lower() in _EMPTY:
        return ""
    if code is None and text.lower().rstrip(".") in _NO_VALUE:
        return None
    if code is None:
        words = text.split()
        if len(words) >= 2 and any(w.isalpha() and len(w) > 1 for w in words):
            return None
    return text


def _list_items(value: str) -> list[str]:
    return [item for item in re.split(r"[;,|\s]+", value) if item]


_LATEST = frozenset({"latest", "newest", "most recent", "the latest", "latest version", "latest release"})
"""How a README says a version arg with an empty default pins nothing (`TF_VERSION` | `latest` for
`ARG TF_VERSION=`, used as `tensorflow${TF_VERSION:+==${TF_VERSION}}`)."""


def _same_default(claim: str, decls: list[ArgDecl]) -> bool:
    """True when the default a README claims (normalised, '' for none) agrees with one declaration."""
    for decl in decls:
        if claim == "" and decl.default is None and decl.effective_default is None:
            return True
        empty = not decl.effective_default and not decl.default
        if empty and claim.lower() in _LATEST and _VERSION_ARG.search(decl.name):
            return True  # `latest` for `ARG TF_VERSION=`: no pin, the newest is installed
        for value in (decl.effective_default, decl.default, decl.raw_default):
            if value is None:
                continue
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            if claim == value:
                return True
            items = _list_items(value)
            if len(items) > 1 and sorted(_list_items(claim)) == sorted(items):
                return True  # `gfx942,gfx950` for `gfx942;gfx950`
            command = value[2:].rstrip(")").split()[:1] if value.startswith("$(") else []
            if command and command[0] in claim:
                return True  # `nproc` for `$(nproc)`
            single = len(items) == 1 and len(_list_items(claim)) == 1
            versioned = single and (_is_commit(value) or _strip_v(value)[:1].isdigit())
            if versioned and _same_version(claim, value) is True:
                return True  # `83f9e450` for the full commit, `0.15.1` for `v0.15.1`
    return False


def _shown_default(decl: ArgDecl) -> str:
    value = decl.effective_default if decl.effective_default is not None else decl.default
    if value is None:
        return "no default"
    return value if value else '""'


def _is_build_arg_table(table: Table, declared: frozenset[str] = frozenset()) -> int | None:
    """The column naming build args when `table` is a build-argument table, else None: by its header,
    or (a header in another language, `| 参数 | 默认值 |`) by its first column, when at least two rows
    and most of them name, in code, a build arg that is `declared`."""
    header = [_plain(h).strip("*_` ").lower() for h in table.header]
    if other_tool_args(table.context + " " + " | ".join(header)):
        return None  # `### CMake build arguments` over `| Argument | Default |`: `cmake -D` options
    for index, cell in enumerate(header):
        if re.fullmatch(r"(?:docker[ ]+)?(?:build[- ]?)?arg(?:ument)?s?(?:[ ]+name)?|--build-arg", cell):
            return index
    if _about_build_args(table.context) and not _NOT_BUILD_ARG_WORDS.search(" ".join(header)):
        for index, cell in enumerate(header):
            if cell in ("name", "variable", "parameter", "option", "setting", "key"):
                return index
    named = [cells[0] for _, cells in table.rows if cells and _first_code(cells[0]) is not None]
    hits = sum(1 for cell in named if _first_code(cell) in declared)
    if hits >= 2 and 2 * hits > len(table.rows) and not _NOT_BUILD_ARG_WORDS.search(table.context):
        return 0
    return None


_VERSION_HEADER = re.compile(
    r"(?:pinned |current |default )?(?:version|versions|tag|commit|ref|release|pin)"
    r"(?:[ /]+(?:or|and)?[ /]*\w+)?"
)
"""A version column's header: `Version`, `Pinned version`, `Tag`, `Version or source`, `Version / ref`."""
_NAME_HEADERS = frozenset(
    {"component", "package", "name", "library", "software", "dependency", "framework", "tool", "project"}
)


def _version_columns(table: Table) -> tuple[int, int] | None:
    """(name column, version column) when `table` lists versions of components: the column called
    `Version` (or `Tag` …), else the first one headed by a release (`| Component | 25.04 | 25.03 |`, NGC's
    support matrix, newest first)."""
    header = [_plain(h).strip("*_` ").lower() for h in table.header]
    version = next((i for i, h in enumerate(header) if _VERSION_HEADER.fullmatch(h)), None)
    if version is None:
        version = next((i for i, h in enumerate(header) if i and re.fullmatch(r"v?\d+(?:\.\d+)+", h)), None)
    if version is None and len(header) >= 2 and len(table.rows) >= 2:
        # By content (a header in another language, `| 组件 | 版本或来源 |`): a column most of whose cells
        # start with a version, next to a first column of names.
        cells = [0] * len(header)  # per column, its cells and those starting with a version (read once)
        versioned = [0] * len(header)
        for _, row in table.rows:
            for index, cell in enumerate(row[: len(header)]):
                cells[index] += 1
                versioned[index] += _version_in_cell(cell) is not None

        def most(index: int, versions: bool) -> bool:
            hits = versioned[index] if versions else cells[index] - versioned[index]
            return 2 * hits > len(table.rows)

        # (Several such columns are a column per component: `_audit_other_table`'s.)
        columns = [i for i in range(1, len(header)) if most(i, versions=True)]
        if len(columns) == 1 and most(0, versions=False):
            version = columns[0]
    if version is None or len(header) < 2:
        return None
    name = next((i for i, h in enumerate(header) if h in _NAME_HEADERS and i != version), None)
    if name is None:
        name = 0 if version != 0 else 1
    return name, version


def _version_in_cell(cell: str) -> str | None:
    """The version a cell starts with (`3.10+` for `3.10 or newer`), None for none or several."""
    code = _first_code(cell)
    text = code if code is not None else _plain(cell)
    match = re.match(r"[ \t]*(?:(==|>=)[ \t]*)?(v?\d[A-Za-z0-9.+!-]*|[0-9a-f]{7,40}(?![A-Za-z0-9]))", text)
    if not match or _OR_OLDER.match(text, match.end()) or _MORE_VERSIONS.match(text, match.end()):
        return None
    version = match.group(2).rstrip(".")
    newer = match.group(1) == ">=" or _OR_NEWER.match(text, match.end())
    return version + "+" if newer and not version.endswith("+") else version


def _name_in_cell(cell: str) -> str:
    text = _plain(cell).replace("`", "")
    return text.split("(", 1)[0].strip("*_ \t")


def audit(
    text: str,
    path: str,
    model: ImageModel | Sequence[ImageModel],
    names: Mapping[str, str] = {},
    directory: Path | None = None,
) -> list[Diagnostic]:
    """Claims in the Markdown `text` (shown as `path`) outside docgen blocks that contradict `model`, or,
    for a README about a family of images, the models of their Dockerfiles.

    Returns diagnostics sorted by README line, each `README says X but Dockerfile:N says Y` or naming a
    build arg that is documented but not declared, or declared but missing from the README's table, and
    each with its confidence (`certain`, `likely`). A section that says which image it is about (a build
    command's `-f`, a Dockerfile or an image variant in its heading, a link to a Dockerfile, the base
    image of only some of them) is compared with that image only, or not at all when it is none of
    them; any other part with every image, and a claim agreeing with one of them is true.
    With `directory` (where the README is), links and `-f` paths to Dockerfiles that do not exist too,
    and the Dockerfiles next to it that are not audited tell the sections about them.
    Raises `MarkerError` when the text's docgen markers are broken.
    """
    models = (model,) if isinstance(model, ImageModel) else tuple(model)
    if not models:
        raise ValueError("audit needs at least one Dockerfile model")
    doc = read_document(text, path)
    everything = frozenset(range(len(models)))
    siblings = (
        [p.relative_to(directory).as_posix() for p in dockerfiles_in(directory, 1, pass_unreadable=True)]
        if directory is not None
        else []
    )
    audited = [m.path for m in models]
    dead = list(_dead_references(doc, directory, siblings, audited, text)) if directory is not None else []
    tied = _tied_sections(doc, models, siblings, {(line, target) for line, target, _ in dead})
    runtime = _runtime_names(doc)
    elsewhere = _documented_outside_tables(doc)
    parts: dict[frozenset[int], Document] = {}
    source = source_lines(text)
    _set_aside(doc, source, models, siblings, names)
    aside = _drop_aside(doc, source)
    shared = _shared_tables(doc, [m.path for m in models])
    shared_parts: dict[frozenset[int], Document] = {}

    def part(section: int) -> Document | None:
        images = tied.get(section, everything)
        return parts.setdefault(images, Document()) if images else None

    for table in doc.tables:
        if table.line in shared:  # a table about several images, as its introduction says
            if shared[table.line]:
                shared_parts.setdefault(shared[table.line], Document()).tables.append(table)
        elif (into := part(table.section)) is not None:
            into.tables.append(table)
    for para in doc.paragraphs:
        if (into := part(para.section)) is not None:
            into.paragraphs.append(para)
    for fence in doc.fences:
        if (into := part(fence.section)) is not None:
            into.fences.append(fence)
    for line, heading in doc.headings:
        if line not in aside and (into := part(line)) is not None:
            into.headings.append((line, heading))
    found = [_dead_finding(path, line, target, flag, models, siblings, doc) for line, target, flag in dead]
    if directory is not None:
        found.extend(_misnamed_links(source, doc, path, directory))
    found.extend(_denied_args(doc, models, tied, path))
    if directory is not None:
        found.extend(_default_file_builds(doc, models, tied, directory, path))
    for images, sub in shared_parts.items():
        of_all = _Auditor.of(
            path, tuple(models[i] for i in sorted(images)), names, models, tuple(siblings), runtime
        )
        found.extend(_audit_tables(sub, of_all, True))
    for images, sub in sorted(parts.items(), key=lambda item: sorted(item[0])):
        auditor = _Auditor.of(
            path, tuple(models[i] for i in sorted(images)), names, models, tuple(siblings), runtime
        )
        found.extend(_audit_tables(sub, auditor, elsewhere=elsewhere))
        for line, heading in sub.headings:
            found.extend(_audit_text(line, heading, auditor, prose=True))
        for para in sub.paragraphs:
            found.extend(_audit_paragraph(para, auditor))
        for fence in sub.fences:
            found.extend(_audit_fence(fence, auditor))
            intro = _fence_intro(doc, fence)
            found.extend(_assignment_block(fence, intro, auditor))
            said = f"{intro} {_heading_of(doc, fence.lines[0][0] if fence.lines else 0)}"
            found.extend(_described_block(fence, said, auditor))
        found.extend(_audit_targets(sub, auditor))
        found.extend(_dead_targets(sub, auditor))
        found.extend(_unpassed_required(sub, auditor, text))
    return sorted(dict.fromkeys(found), key=lambda d: d.line)  # one finding per line and message


_RUN_ENV = re.compile(r"(?:^|[\s`(])(?:-e|--env)(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)")
"""`docker run -e NAME=…`, `--env NAME`: a variable of the container at run time."""
_ENV_WORDS = re.compile(
    r"\benv(?:ironment)?[ \t]+var(?:iable)?s?[ \t:]+`?((?-i:[A-Z][A-Z0-9_]+))"
    r"|`?\b((?-i:[A-Z][A-Z0-9_]+))`?[ \t]+env(?:ironment)?[ \t]+var(?:iable)?s?\b"
    r"|环境变量[ \t]*`?((?-i:[A-Z][A-Z0-9_]+))",
    re.IGNORECASE,
)
"""`the environment variable `NAME``, ``NAME` environment variable`."""
_COMPOSE_ENV = re.compile(r"([ \t]*)environment:[ \t]*\Z")
_COMPOSE_ITEM = re.compile(r"[ \t]*(?:-[ \t]*)?[\"']?([A-Za-z_][A-Za-z0-9_]*)[ \t]*[=:]")


def _runtime_names(doc: Document) -> frozenset[str]:
    """Names the README passes to a container at run time (`docker run -e NAME=…`, `--env NAME`, a
    compose file's `environment:`, `the environment variable NAME`) and never with `--build-arg`. A
    sentence calling one a "parameter" (参数) or "argument" does not make it a build arg."""
    runtime: set[str] = set()
    built: set[str] = set()
    texts = [text for p in doc.paragraphs for _, text in p.lines]
    for fence in doc.fences:
        indent: int | None = None
        for _, text in fence.lines:
            texts.append(text)
            item = _COMPOSE_ITEM.match(text)
            depth = len(text) - len(text.lstrip())
            if indent is not None and text.strip() and depth > indent and item:
                runtime.add(item.group(1))
            elif text.strip():
                indent = None
            if (env := _COMPOSE_ENV.match(text)) is not None:
                indent = len(env.group(1))
    for text in texts:
        runtime.update(m.group(1) for m in _RUN_ENV.finditer(text))
        runtime.update(n for m in _ENV_WORDS.finditer(text) for n in m.groups() if n)
        built.update(m.group(1) for m in _BUILD_ARG_FLAG.finditer(text))
    return frozenset(runtime - built)


_FILE_FLAG = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)[\"']?([^\s\"'`;|&]+)")
"""The Dockerfile a `docker build` / `podman build` command names."""
_HEADING_FILE = re.compile(r"[\w./+-]+")
_BUILD_COMMAND = re.compile(r"\b(?:docker|podman|buildah|nerdctl)(?:[ \t]+buildx)?[ \t]+(?:build|bud)\b")


_CD = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?cd[ \t]+([^\s;&|]+)[ \t]*(?:$|&&|;)")
"""`cd main` (or `$ cd main &&` before the build on the same line): later `-f` paths are from there."""


def _file_flags(fence: Fence) -> Iterator[tuple[int, str]]:
    """(README line, path) of each `-f PATH` of a build command in a command block (continued lines too),
    from the folder the block is in after its `cd` lines; after a `cd` to a place that cannot be told
    (`cd $WORKDIR`, `cd ~/src`) a path starts with `$`."""
    if fence.lang not in _COMMAND_LANGS:
        return
    building = False
    folder = ""
    for line, text in fence.lines:
        if (cd := _CD.match(text)) is not None:
            target = cd.group(1).strip("\"'")
            if target.startswith(("/", "$", "~", "-")) or folder.startswith("$"):
                folder = "$CD"
            else:
                folder = posixpath.normpath(posixpath.join(folder, target))
                folder = "" if folder == "." else folder
        building = building or bool(_BUILD_COMMAND.search(text))
        if building:
            for match in _FILE_FLAG.finditer(text):
                path = match.group(1)
                if folder and not path.startswith(("/", "$")):
                    path = posixpath.normpath(posixpath.join(folder, path))
                yield line, path
        if not _continued(text):
            building = False


def _continued(text: str) -> bool:
    """True when a command line goes on on the next: it ends with `\\`, or with ` /`, the slip of a
    README that writes `docker build -t x /` then `-f conda.Dockerfile .` (a build of the root folder
    `/` is no command anyone documents)."""
    end = text.rstrip()
    return end.endswith("\\") or end.endswith((" /", "\t/"))


def _lines_of_commands_with_file(fence: Fence) -> set[int]:
    """The README lines of the commands of `fence` (a line and the lines it continues with `\\`) that
    name a Dockerfile with `-f`."""
    found: set[int] = set()
    command: list[int] = []
    has_file = False
    for line, text in fence.lines:
        command.append(line)
        has_file = has_file or bool(_FILE_FLAG.search(text))
        if not _continued(text):
            if has_file:
                found.update(command)
            command, has_file = [], False
    if has_file:
        found.update(command)
    return found


def _basename(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def variant(path: str) -> str | None:
    """The image of a family a Dockerfile's name says, lower case: `gb200` for `envs/Dockerfile.gb200`,
    `cuda` for `cuda.Dockerfile`; None for a plain `Dockerfile`."""
    name = _basename(path)
    for stem in (
        "Dockerfile.",
        "Containerfile.",
        "dockerfile.",
        "Dockerfile-",
        "Dockerfile_",
        "Containerfile-",
    ):
        if name.startswith(stem):
            return name[len(stem) :].lower() or None
    for suffix in (
        ".Dockerfile",
        ".dockerfile",
        ".Containerfile",
        "-Dockerfile",
        "_Dockerfile",
        "_dockerfile",
        "-dockerfile",
    ):
        if name.endswith(suffix):
            return name[: -len(suffix)].lower() or None
    return None


def _same_file(reference: str, path: str) -> int:
    """How many trailing parts of the path `reference` (a link, a `-f`) and the Dockerfile `path` share
    (0: another file): `docker/Dockerfile.rocm` and `Dockerfile.rocm` share 1."""
    a = [p for p in reference.replace("\\", "/").split("/") if p not in ("", ".")]
    b = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    shared = 0
    while shared < min(len(a), len(b)) and a[-1 - shared] == b[-1 - shared]:
        shared += 1
    return shared


def _same_path(a: str, b: str) -> bool:
    """True when the one of the paths `a` and `b` is the end of the other (`docker/Dockerfile.cuda`,
    `Dockerfile.cuda`): the same file, seen from two folders."""
    parts = [len([p for p in x.replace("\\", "/").split("/") if p not in ("", ".")]) for x in (a, b)]
    return _same_file(a, b) == min(parts)


def _matching(reference: str, paths: Sequence[str]) -> set[int]:
    """The indices of the Dockerfiles in `paths` that `reference` names (the closest match)."""
    scores = [_same_file(reference, p) for p in paths]
    best = max(scores, default=0)
    return {i for i, score in enumerate(scores) if score == best} if best else set()


_HEADING_WORD = re.compile(r"[a-z0-9][a-z0-9._+-]*")
_OTHERS_HEADING = re.compile(r"\b(?:community|third[- ]party|unofficial)\b", re.IGNORECASE)
"""A heading over images others build (`## Community Image`): not the images audited."""


_PART_HEADING = re.compile(r"\b(?:dockerfile|containerfile|image|container)s?\b|-based\b", re.IGNORECASE)
"""A heading about an image (`### UBI-based Dockerfile`, `## The RHEL image`)."""
_VAGUE_PARTS = frozenset({"latest", "main", "base", "build", "dev", "devel", "release", "new", "old", "full"})
"""Words of a Dockerfile's name that say no more than "some image" (`Dockerfile.vllm.latest`)."""


def _named_part(title: str, variants: Sequence[str | None], others: set[str]) -> set[int]:
    """The Dockerfile whose name alone has a word of the heading `title` about an image, when its
    variant has several words: `### UBI-based Dockerfile` names `.cd/Dockerfile.rhel.ubi.vllm` among
    `Dockerfile.ubuntu.pytorch.vllm` and `Dockerfile.rhel.ubi.vllm`. A word two names share (`vllm`),
    a word of a Dockerfile that is not audited (`others`), a vague word (`latest`), or a heading not
    about an image ties nothing."""
    if not _PART_HEADING.search(title):
        return set()
    owners: dict[str, set[int]] = {}
    for index, name in enumerate(variants):
        parts = re.split(r"[._-]+", name or "")
        for part in parts if len(parts) > 1 else ():  # one word: the whole variant, tied above
            owners.setdefault(part, set()).add(index)
    for name in others:
        for part in re.split(r"[._-]+", name):
            owners.setdefault(part, set()).add(-1)
    words = {w for w in re.split(r"[^a-z0-9]+", title.lower()) if w}
    found: set[int] = set()
    for word in words - _VAGUE_PARTS:
        who = owners.get(word, set())
        if len(who) == 1 and -1 not in who and len(word) >= 3 and not word.isdigit():
            found |= who
    return found if len(found) == 1 else set()


def _flavour(path: str) -> str | None:
    """The image a Dockerfile's path says, lower case: its `variant` (`cuda` for `Dockerfile.cuda` and
    `cuda.Dockerfile`), else the folder of a plain `Dockerfile` (`cuda` for `cuda/Dockerfile`)."""
    found = variant(path)
    if found is not None:
        return found
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return parts[-2].lower() if len(parts) >= 2 else None


@functools.lru_cache(maxsize=8)
def _candidates(paths: tuple[str, ...], siblings: tuple[str, ...]) -> tuple[str, ...]:
    """`paths`, then the `siblings` that are none of them: the Dockerfiles a dead reference may mean
    (found once for all the references of a README, not once each: n siblings were compared with every
    path for each reference)."""
    return (*paths, *(s for s in siblings if not any(_same_path(s, p) for p in paths)))


def _meant(reference: str, paths: Sequence[str], siblings: Sequence[str], heading: str) -> set[int]:
    """The indices of the Dockerfiles in `paths` a reference to a Dockerfile that no longer exists most
    likely means now: the one Dockerfile it names by another path (`docker/Dockerfile.rocm` moved up),
    else the one of its flavour (`cuda/Dockerfile` renamed `docker/Dockerfile.cuda`), else the only
    Dockerfile there is. None when that is not clear: two candidates, a flavour only a Dockerfile that
    is not audited has, or a reference (or its `heading`) about an image of the past
    (`Dockerfile.legacy`, `## Old images`)."""
    if _NOT_CURRENT.search(reference.replace("_", " ").replace("-", " ")) or _NOT_CURRENT.search(heading):
        return set()
    every = _candidates(tuple(paths), tuple(siblings))
    if variant(reference) is not None:  # a plain `Dockerfile` of the same name says nothing
        same = _matching(reference, every)
        if len(same) == 1:
            return same & set(range(len(paths)))
    flavour = _flavour(reference)
    alike = {i for i, p in enumerate(every) if flavour is not None and _flavour(p) == flavour}
    if alike:
        return alike & set(range(len(paths))) if len(alike) == 1 else set()
    return {0} if len(every) == 1 and len(paths) == 1 else set()


def _dead_finding(
    readme: str,
    line: int,
    target: str,
    flag: bool,
    models: Sequence[ImageModel],
    siblings: Sequence[str],
    doc: Document,
) -> Diagnostic:
    """The finding on a link or `-f` to a Dockerfile that is gone, naming the Dockerfile its section is
    compared with instead when `_meant` tells one."""
    path = _reference_path(target)
    how = "builds with" if flag else "links to"
    now = _meant(path, [m.path for m in models], siblings, _heading_of(doc, line))
    instead = f"; compared with {models[min(now)].path}, which it most likely means now" if now else ""
    # A file of the same name found elsewhere: the reference may only be read from another folder.
    known = bool(now) and _basename(models[min(now)].path) == _basename(path)
    return Diagnostic(
        readme,
        line,
        f"README {how} {path}, which does not exist (the Dockerfile is gone or moved{instead})",
        confidence=LIKELY if known else CERTAIN,
    )


def _heading_of(doc: Document, line: int) -> str:
    """The text of the heading `line` is under ('' before the first)."""
    index = bisect.bisect_right(doc.headings, line, key=lambda heading: heading[0]) - 1
    return doc.headings[index][1] if index >= 0 else ""


def _tied_sections(
    doc: Document,
    models: Sequence[ImageModel],
    siblings: Sequence[str],
    dead: set[tuple[int, str]] = set(),  # noqa: B006 (never changed)
) -> dict[int, frozenset[int]]:
    """The sections (heading lines, 0 before the first heading) that say which of `models` they are
    about → the indices of those models; an empty set when they are about other images only (`siblings`:
    the Dockerfiles next to the README that are not audited). A section says it with

    - the `-f` of a build command in it, or a Dockerfile named in its heading (`## Dockerfile.cuda`):
      that Dockerfile, another image when it is none of `models`;
    - a link to a Dockerfile in it (`[Dockerfile.rocm](Dockerfile.rocm)`): that one, when it is audited
      or next to the README;
    - a word of its heading that is the variant of a Dockerfile's name (`### GB200 Environment (gb200)`
      for `envs/Dockerfile.gb200`), of an audited one or of one next to the README;
    - a base image (`rocm/dev-ubuntu-22.04:6.4.1-complete`) only some of `models` are built on;
    - `Community`, `Third-party` or `Unofficial` in its heading: images others build, none of `models`.

    A `-f` or link in `dead` ((README line, target) of those naming a Dockerfile that no longer exists)
    ties its section to the Dockerfile it most likely means now (`_meant`); when none is clear, a `-f`
    ties it to none, a link does not tie it.
    A section that says nothing is about what the heading above it is about."""
    paths = [m.path for m in models]
    named: dict[int, set[int]] = {}
    other: set[int] = set()  # sections naming an image that is not audited

    def tie(section: int, found: set[int], known_other: bool) -> None:
        if found:
            named.setdefault(section, set()).update(found)
        elif known_other:
            other.add(section)

    sections = sorted(doc.levels)

    def section_of(line: int) -> int:
        index = bisect.bisect_right(sections, line) - 1
        return sections[index] if index >= 0 else 0

    def meant(line: int, reference: str) -> set[int]:
        return _meant(_reference_path(reference), paths, siblings, _heading_of(doc, line))

    for fence in doc.fences:
        for line, flag in _file_flags(fence):
            tie(fence.section, meant(line, flag) if (line, flag) in dead else _matching(flag, paths), True)
    for line, link in doc.links:
        target = urllib.parse.unquote(link.split("#", 1)[0])
        if (line, link) in dead:  # a link may be a "see also": unclear, it leaves the section as it is
            tie(section_of(line), meant(line, link), False)
        elif "://" not in target and is_dockerfile_name(_basename(target)):
            tie(section_of(line), _matching(target, paths), bool(_matching(target, siblings)))
    variants = [variant(p) for p in paths]
    other_variants = {v for v in map(variant, siblings) if v} - set(variants)
    platforms = _other_images_words(models, siblings)
    bases = [{c.name.lower() for c in m.components if c.kind == "image"} for m in models]
    for head_line, title in doc.headings:  # `## Dockerfile.cuda`, `### The `Dockerfile.rocm` image`
        for word in _HEADING_FILE.findall(title):
            if is_dockerfile_name(_basename(word)) and word not in ("Dockerfile", "Containerfile"):
                tie(head_line, _matching(word, paths), True)
        if _OTHERS_HEADING.search(title):  # `## Community images`: built by others, elsewhere
            tie(head_line, set(), True)
        if (subject := _IMAGE_SUBJECT.match(title)) and _other_images(
            subject, *platforms
        ):  # `## ROCm images`
            tie(head_line, set(), True)
        words = {w.rstrip(".") for w in _HEADING_WORD.findall(title.lower())}
        tie(head_line, {i for i, v in enumerate(variants) if v in words}, bool(words & other_variants))
        tie(head_line, _named_part(title, variants, other_variants), False)
    # a base image only some images are built on
    texts = [(p.section, t) for p in doc.paragraphs for _, t in p.lines]
    texts += [(t.section, " ".join(c for _, row in t.rows for c in row)) for t in doc.tables]
    for section, text in texts:
        for match in _IMAGE_REF.finditer(text):
            if _is_passed_value(text, match):
                continue  # `--build-arg IMAGE=nvidia/cuda:…`: what to pass, not what an image is built on
            users = {i for i, repos in enumerate(bases) if match.group(1).lower() in repos}
            if users and len(users) < len(models):
                tie(section, users, False)
    tied: dict[int, frozenset[int]] = {}
    if 0 in named or 0 in other:
        tied[0] = frozenset(named.get(0, ()))
    parents: list[tuple[int, int]] = []  # (level, heading line) of the headings above
    for line, level in sorted(doc.levels.items()):
        while parents and parents[-1][0] >= level:
            parents.pop()
        parents.append((level, line))
        for _, heading in reversed(parents):
            if heading in named or heading in other:
                tied[line] = frozenset(named.get(heading, ()))
                break
    return tied


def _reference_path(target: str) -> str:
    """The path a link or `-f` names: no `#anchor` or `?query`, %-escapes decoded."""
    return urllib.parse.unquote(target.split("#", 1)[0].split("?", 1)[0])


def _dead_references(
    doc: Document, directory: Path, siblings: Sequence[str] = (), audited: Sequence[str] = (), said: str = ""
) -> Iterator[tuple[int, str, bool]]:
    """(README line, target, is a `-f`) of the links to Dockerfiles (`[…](Dockerfile.rocm6.2)`) and the
    `-f PATH` of build commands naming files that exist neither next to the README nor (for `-f`, run
    from the repository's root) above it. A `-f some/where/Dockerfile` is taken for the `Dockerfile`
    next to the README (a path of another checkout), unless its folder names the flavour of another
    Dockerfile there (`-f rocm/Dockerfile` with `docker/Dockerfile.rocm`: renamed, gone)."""
    refs = [(line, target, False) for line, target in doc.links]
    refs += [(line, name, True) for fence in doc.fences for line, name in _file_flags(fence)]
    for line, target, flag in refs:
        path = _reference_path(target)
        if not path or "://" in target or path.startswith(("/", "$", "<", "-")) or "{" in path:
            continue
        if not is_dockerfile_name(_basename(path)):
            continue
        bases = [directory, *list(directory.resolve().parents)[:4]] if flag else [directory]
        if any((base / path).exists() for base in bases):
            continue
        flavour = _flavour(path)
        renamed = flavour is not None and any(
            _flavour(s) == flavour and _basename(s) != _basename(path) for s in siblings
        )
        if flag and not renamed and (directory / _basename(path)).exists():
            continue
        if flag and _run_in_dockerfile_folder(path, audited, said):
            continue
        yield line, target, flag


def _run_in_dockerfile_folder(path: str, audited: Sequence[str], said: str = "") -> bool:
    """True when the `-f PATH` of a build command is found from the folder of an audited Dockerfile or
    one above it: `-f Dockerfile.gpu` (or `-f docker/Dockerfile.gpu`) when `tools/docker/Dockerfile.gpu`
    is audited, or when a file of that name is next to an audited Dockerfile. The README's commands are
    run from there (`docker build -t app .` next to the Dockerfiles); the reference is not dead. A bare
    `-f NAME` is run there only when the README (`said`) puts the reader in that folder: it names a
    Dockerfile in it (`tools/docker/Dockerfile.gpu`, `docker/Dockerfile`) or a `cd` to it."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return False
    for dockerfile in audited:
        if len(parts) == 1 and not _puts_in_folder(said, dockerfile):
            continue
        if _same_file(path, dockerfile) == len(parts):  # the end of an audited Dockerfile's path
            return True
        found = Path(dockerfile)  # as given: from the working directory, when it is there
        if found.is_file() and (found.parent / path).is_file():  # a Dockerfile next to an audited one
            return True
    return False


def _puts_in_folder(said: str, dockerfile: str) -> bool:
    """True when README text `said` names a Dockerfile in the folder of `dockerfile` (`docker/Dockerfile`,
    a link to `…/tools/docker/Dockerfile.gpu`) or a `cd` to it; always for a Dockerfile at the top."""
    folder = posixpath.basename(posixpath.dirname(dockerfile.replace("\\", "/")))
    if not folder or folder == "..":
        return True
    name = re.escape(folder)
    return bool(
        re.search(rf"(?<![\w.-]){name}/(?:[\w.-]*[Dd]ockerfile|Containerfile)", said)
        or re.search(rf"\bcd[ \t]+[^\s;&|]*?(?<![\w.-]){name}/?(?![\w.-])", said)
    )


def _audit_tables(
    doc: Document, auditor: _Auditor, shared: bool = False, elsewhere: frozenset[str] = frozenset()
) -> Iterator[Diagnostic]:
    """Build-argument tables (names, defaults, rows missing), version tables, and the text of others.
    `shared`: the tables are introduced as about all of `auditor`'s images (`Dockerfile` and
    `Dockerfile.standalone` support …): a default must be each one's, and no row is missing.
    `elsewhere`: build args the README documents outside its tables (`_documented_outside_tables`),
    never missing from them."""
    documented: set[str] = set()
    first_table: int | None = None
    for table in doc.tables:
        column = _is_build_arg_table(table, auditor.declared)
        versions = _version_columns(table)
        if column is not None and versions is not None and column != 0:
            # `| Component | Version | Build arg |`: a version table that names the arg setting each.
            for line, cells in table.rows:
                for name in _arg_names_in_cell(cells[column]) if column < len(cells) else []:
                    if _UPPER_WORD.match(name):
                        yield from _some(auditor.arg_claim(line, name, CERTAIN))
            column = None
        rows = [
            (line, cells, names)
            for line, cells in table.rows
            if column is not None and column < len(cells)
            for names in [_arg_names_in_cell(cells[column]) or _declared_in_cell(cells[column], auditor)]
            if names and all(name in auditor.declared or _UPPER_WORD.match(name) for name in names)
        ]
        if column is not None and rows:
            # (A table of a program's command-line arguments names no build arg: it is not one.)
            first_table = table.line if first_table is None else first_table
            documented.update(name for _, _, names in rows for name in names)
            yield from _audit_build_arg_rows(table, rows, auditor, shared)
        elif versions is not None:
            name_col, version_col = versions
            for line, cells in table.rows:
                if max(versions) < len(cells):
                    name, version = _name_in_cell(cells[name_col]), _version_in_cell(cells[version_col])
                    if name and version:
                        yield from _some(auditor.version_claim(line, name, "==", version, CERTAIN))
                    elif version is None:  # in words: `Inherited from the CANN 9.0.0 base image`
                        yield from _audit_text(line, cells[version_col], auditor, prose=True)
        else:
            yield from _audit_other_table(table, auditor)
    # (Of a family's table, docgen cannot tell which image's args it must list.)
    if first_table is not None and len(auditor.models) == 1 and not shared:
        model = auditor.models[0]
        for row in build_arg_rows(model):
            if row.name not in documented and row.name not in elsewhere:
                yield Diagnostic(
                    auditor.path,
                    first_table,
                    f"build arg {row.name} ({model.path}:{row.line}) is missing from the README's "
                    "build-argument table",
                    confidence=CERTAIN,
                )


def _declared_in_cell(cell: str, auditor: _Auditor) -> list[str]:
    """The build arg a name cell names in plain words when no rule of `_arg_names_in_cell` reads it: a
    declared ARG however short (`| OS | ubuntu22.04 |` for `ARG OS`)."""
    name = _plain(cell).strip("*_ ")
    return [name] if name in auditor.declared else []


def _documented_outside_tables(doc: Document) -> frozenset[str]:
    """Build args the README documents outside its tables: after `--build-arg` (in prose, inline code or
    a command block), and in code in a paragraph about build args (`` - `PYPI_INDEX_URL`: … `` under
    `Build arguments:`). A table that leaves them out does not hide them from its reader."""
    found: set[str] = set()
    texts = [(p.heading + " " + p.before, [t for _, t in p.lines]) for p in doc.paragraphs]
    texts += [("", [t for _, t in f.lines]) for f in doc.fences]
    for intro, lines in texts:
        joined = " ".join(lines)
        found.update(m.group(1) for m in _BUILD_ARG_FLAG.finditer(joined))
        if _about_build_args(intro) or _about_build_args(joined):
            for _, _, content in code_spans(joined, html_code=True):
                name = content.strip().split("=", 1)[0].strip()
                if _ARG_NAME.match(name):
                    found.add(name)
    return frozenset(found)


def _audit_other_table(table: Table, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A table whose header names components (`| Container | PyTorch | NCCL |`, a release per row) is
    checked column by column: a column is stale when none of its rows agrees with the Dockerfile (the
    newest row comes first); in a build matrix, not with a build arg's default. A table none of whose
    cells agrees is not about this image (benchmark
    numbers, a compatibility matrix): it is read as text, like any other table."""
    names = [_name_in_cell(cell) for cell in table.header]
    columns: dict[int, list[tuple[int, str, bool | None]]] = {}
    for line, cells in table.rows:  # row by row, each cell once (a wide header over short rows)
        for index, cell in enumerate(cells[: len(names)]):
            version = _version_in_cell(cell) if names[index] else None
            if version:
                verdict = auditor.verdict(names[index], "==", version)[0]
                columns.setdefault(index, []).append((line, version, verdict))
    columns = dict(sorted(columns.items()))  # in the header's order
    if any(agrees for column in columns.values() for _, _, agrees in column):
        # A build matrix (no column tells the rows apart: `| PyTorch | CUDA | Python | Tag |` with PyTorch
        # 2.3.0 for Python 3.11 and 3.10): each row is an image built with its own --build-arg values, so
        # a column is not compared with an ARG's default, only with a version the Dockerfile hard-codes.
        matrix = len(table.rows) >= 3 and all(len({v for _, v, _ in c}) < len(c) for c in columns.values())
        arg_lines = {(m.path, d.line) for m in auditor.models for d in m.args}
        for index, column in columns.items():
            stale = [(line, version) for line, version, agrees in column if agrees is False]
            if stale and not any(agrees for _, _, agrees in column):
                fact = auditor.verdict(names[index], "==", stale[0][1])[1]
                if matrix and fact is not None and (fact.path, fact.line) in arg_lines:
                    continue
                yield from _some(auditor.version_claim(stale[0][0], names[index], "==", stale[0][1], LIKELY))
        return
    for line, cells in table.rows:
        for cell in cells:
            yield from _audit_text(line, cell, auditor, prose=True)


def _audit_build_arg_rows(
    table: Table, rows: list[tuple[int, list[str], list[str]]], auditor: _Auditor, shared: bool = False
) -> Iterator[Diagnostic]:
    """Names the Dockerfile does not declare, and defaults that differ from the effective default. A
    row naming several args (`VLLM_TAG` / `AITER_TAG`) has each name checked, its default none. A
    default in words is no value, but a version in it is a claim (`A2 Ubuntu CANN 9.0.0 image`)."""
    header = [_plain(h).strip("*_` ").lower() for h in table.header]
    default_col = next((i for i, h in enumerate(header) if h.startswith("default")), None)
    for line, cells, names in rows:
        judge = auditor.scoped(" ".join(cells))  # `(ROCm only)`: that image's row
        if judge is None:
            continue
        problems = [p for p in (judge.arg_claim(line, name, CERTAIN) for name in names) if p]
        yield from problems
        if problems:
            continue
        if default_col is None:  # a header docgen cannot read: what its cells say in words
            for cell in cells:
                if _arg_names_in_cell(cell) != names:
                    yield from _audit_text(line, cell, judge, prose=True)
            continue
        if default_col >= len(cells):
            continue
        if len(names) == 1 and _REQUIRED_CELL.fullmatch(_plain(cells[default_col]).strip("*_ ").lower()):
            yield from _some(auditor.default_claim(line, names[0], "", CERTAIN, required=True))
            continue
        default = _default_in_cell(cells[default_col])
        if default is None:
            yield from _audit_text(line, cells[default_col], judge, prose=True)
        elif len(names) == 1:
            claims = (each.default_claim(line, names[0], default, CERTAIN) for each in judge.each)
            claim = next(filter(None, claims), None) if shared else None
            yield from _some(claim or judge.default_claim(line, names[0], default, CERTAIN))


def _some(diagnostic: Diagnostic | None) -> Iterator[Diagnostic]:
    if diagnostic is not None:
        yield diagnostic


def _audit_text(
    line: int, text: str, auditor: _Auditor, prose: bool, named_file: bool | None = None
) -> Iterator[Diagnostic]:
    """`--build-arg NAME`, `pkg==1.2.3` pins and (in prose) `Name 1.2.3` claims on one line of text.
    `named_file`: whether the build command the line is part of names its Dockerfile with `-f` (None:
    read it off the line); one that does not passes its `--build-arg`s to whichever image of the
    family declares them."""
    if named_file is None:
        named_file = bool(_FILE_FLAG.search(text))
    for match in _BUILD_ARG_FLAG.finditer(text):
        # `--build-arg to override …` in prose names nothing; lower-case args are named with `=`.
        if not _UPPER_WORD.match(match.group(1)) and not text.startswith("=", match.end()):
            continue
        problem = (auditor if named_file else auditor.whole).arg_claim(line, match.group(1), CERTAIN)
        if problem:
            yield problem
    taken: list[tuple[int, int]] = []
    for match in _PIN.finditer(text):
        taken.append((match.start(), match.end()))
        version = match.group(3).rstrip(".,;:*")
        problem = auditor.version_claim(line, match.group(1), match.group(2), version, CERTAIN)
        if problem:
            yield problem
    if not prose:
        return
    for match in _BADGE.finditer(text):
        label, message = _badge(match.group(1))
        if label and _BADGE_VERSION.fullmatch(message):
            yield from _some(auditor.version_claim(line, label, "==", message, LIKELY))
    for match in _IMAGE_REF.finditer(text):
        if _is_passed_value(text, match):
            taken.append((match.start(), match.end()))
            continue  # `--build-arg IMAGE=nvidia/cuda:12.1.1-…`: an override to pass, not the base image
        if _example(text, match):
            continue
        # `rocm/dev-ubuntu-22.04:6.4.0-complete` for the base `…:6.4.1-complete`: a tag of the same shape
        # (versions aside) of the same repository as a base image, that is none of its tags. A tag of
        # another shape (`cann:9.0.0-a3-…` for `cann:8.3.rc2-910b-…`) is a variant built with another
        # base, not a claim about this one; either way its name is no `Name version` claim below.
        bases = auditor.facts.images.get(match.group(1).lower(), [])
        if bases:
            taken.append((match.start(), match.end()))
        shape = _skeleton(match.group(2))
        alike = [fact for fact in bases if _skeleton(fact.value) == shape]
        if alike and all(fact.value != match.group(2) for fact in alike):
            yield Diagnostic(
                auditor.path,
                line,
                f"README says {match.group()} but {auditor.where(alike[0])} says {match.group(1)}:"
                f"{alike[0].value}",
                confidence=CERTAIN,
            )
            continue
        if _NOT_CURRENT.search(match.group(2)):
            continue  # `…-mcore0.13.0-preview`, `nightly-…`: not the image the Dockerfile builds now
        # `verlai/verl:app-verl0.5-vllm0.10.0-mcore0.13.0`: a tag naming versions of components. A tag
        # names one image: of a family, each image is asked alone whether the tag is its own, and a
        # version is stale when it is that image's and no image of the family has it.
        stale = {
            (name, version)
            for name, version in _tag_versions(match.group(2))
            if auditor.verdict(name, "==", version)[0] is False
        }
        for image in auditor.each if stale else ():
            claims = [
                (name, version, image.verdict(name, "==", version)[0])
                for name, version in _tag_versions(match.group(2))
            ]
            # It is this image's when at least a third of its versions that can be compared agree
            # (`cu126` is in most tags: its agreeing says little); a tag with fewer is a sibling's or an
            # older one.
            agreeing = sum(1 for name, _, agrees in claims if agrees and name != "cuda")
            if agreeing and 2 * agreeing >= sum(1 for _, _, agrees in claims if agrees is False):
                for name, version, agrees in claims:
                    if agrees is False and (name, version) in stale:
                        yield from _some(image.version_claim(line, name, "==", version, LIKELY))
    for match in _DEFAULTS_TO.finditer(text):
        yield from _some(_stated_default(line, text, match, auditor))
    yield from _stated_bases(line, text, auditor)
    yield from _absence_claims(line, text, auditor)
    yield from _presence_claims(line, text, auditor)
    taken.sort()
    words = list(_WORD.finditer(text))
    # Each word's spelling as `_Facts.findable` holds them (a word is letters, digits and `-_.`), so a
    # name of up to three words is checked with a join and a set lookup, not a regex and a lookup each:
    # audit of a megabyte of prose went from 5 s to a fraction of that.
    raws = [w.group().lower().replace("-", "").replace("_", "").replace(".", "") for w in words]
    digit_after = [
        bool(_DIGIT.search(text, a.end(), b.start())) for a, b in zip(words, words[1:], strict=False)
    ]
    findable = auditor.facts.findable
    pin = 0
    for index, word in enumerate(words):
        while pin < len(taken) and taken[pin][1] <= word.start():
            pin += 1
        if pin < len(taken) and taken[pin][0] <= word.start():
            continue  # part of a `pkg==1.2` pin, already checked
        # A name may be up to three words (`Flash Attention`, `Transformer Engine`): longest first.
        for width in (3, 2, 1):
            if index + width > len(words):
                continue
            if width == 1 or not any(digit_after[index : index + width - 1]):
                if "".join(raws[index : index + width]) not in findable:
                    continue
            last = words[index + width - 1]
            between = text[word.start() : last.end()]
            if width > 1 and not _NAME_WORDS.fullmatch(between):
                continue
            if _raw(between) not in findable:  # a digit between the words (`PyTorch 2 Lightning`) counts
                continue
            name = between
            if len(_norm(name)) < 3 or not auditor.facts.lookup(name, auditor.names):
                continue
            if _NOT_A_CLAIM_BEFORE.search(text[max(0, word.start() - 16) : word.start()]) or _example(
                text, word
            ):
                break
            if (_UPPER_SNAKE.match(name) or name in auditor.declared) and text.startswith("=", last.end()):
                break  # `ROCM_VERSION=6.4`, `VERSION=23.01`: a value to pass, not what the Dockerfile says
            after = _AFTER_NAME.match(text, last.end(), min(len(text), last.end() + 40))
            if not after:
                break
            version = after.group(1).rstrip(".,;:")
            if _HEX.match(version.lower()) and not any(c.isdigit() for c in version):
                break
            rest = text[after.end() : after.end() + 16]
            if _OR_OLDER.match(rest) or _MORE_VERSIONS.match(rest):
                break  # `CUDA 11.8 or older`; `ROCm 5.7, 6.0 and 6.1`, `Python 3.9 -- 3.12`: not one version
            if _NAMES_AN_IMAGE.match(rest) and _SENTENCE_THE.search(
                text, max(0, word.start() - 80), word.start()
            ):
                break  # `The CUDA 13.0 image has …`: that image of the family is the subject
            host = _HOST_BEFORE.search(text, max(0, word.start() - 60), word.start())
            if host or _HOST_AFTER.match(text, after.end()):
                break  # `CANN 25.5.0 driver and firmware`, `the host needs ROCm 6.4`: outside the image
            if _OR_NEWER.match(rest) and not version.endswith("+"):
                version += "+"
            owner = version_owner(
                text[max(0, word.start() - 80) : word.start()], text[last.end() : after.start(1)]
            )
            if owner is not None:  # `The default CUDA version used by CMake is 13.0`: CUDA's
                if not auditor.facts.lookup(owner, auditor.names):
                    break
                name = owner
            problem = auditor.version_claim(line, name, "==", version, LIKELY)
            if problem:
                yield problem
            break


_DEFAULTS_TO = re.compile(
    r"\bdefaults?[ \t]+(?:to|is)[ \t]+(?:the[ \t]+)?([A-Za-z0-9][\w.:/+-]*)"
    r"|\bby[ \t]+default\b,?[^.;:()]{0,60}?\b(?:to|is|uses?|for|as)[ \t]+(?:the[ \t]+)?"
    r"([A-Za-z0-9][\w.:/+-]*)",
    re.I,
)
"""`defaults to the cu130 base`, `By default, sets the device to gfx1100` in words (a backticked default
after a backticked name is `_DEFAULT_IS`'s)."""
_TAG_PART = re.compile(r"[-_:/@+;,]")
_LETTER = re.compile(r"[A-Za-z]")


def _stated_default(line: int, text: str, match: re.Match[str], auditor: _Auditor) -> Diagnostic | None:
    """`defaults to the cu130 base` while `ARG BASE_IMAGE=…-cu129`: a value in prose of the shape of a
    part of a build arg's default (the one the text names, else any), equal to no such part."""
    value = (match.group(1) or match.group(2)).rstrip(".,;:")
    if not _DIGIT.search(value) or not _LETTER.search(value) or value in auditor.declared:
        return None
    named = {name for name in _WORD.findall(text) if name in auditor.declared}
    shape = _DIGITS.sub("0", value)
    alike: list[tuple[str, str, int, str]] = []
    for name, default, decl_line, dockerfile in auditor.facts.arg_defaults:
        if named and name not in named:
            continue
        parts = [default, *_TAG_PART.split(default)]
        if value in parts:
            return None
        if any(_DIGITS.sub("0", part) == shape for part in parts):
            alike.append((name, default, decl_line, dockerfile))
    if not alike:
        return None
    name, default, decl_line, dockerfile = alike[0]
    return Diagnostic(
        auditor.path,
        line,
        f"README says the default is {value} but {dockerfile}:{decl_line} says {name}={default}",
        confidence=LIKELY,
    )


_BASE_WORDS = re.compile(
    r"\bbased?\b|\bbuilt[ \t]+(?:on|from|upon|atop)\b|\bdefaults?\b|\bstarts?[ \t]+from\b|(?-i:\bFROM\b)",
    re.IGNORECASE,
)
"""Words that make an image reference in a sentence the image's base: `Defaults to `python:3-slim-bullseye`
base image`, `based on nvidia/cuda:12.1-devel`, `built from …`."""
_OTHER_BASE = re.compile(
    r"\b(?:instead|alternative(?:ly)?|can|could|may|might|if|override|older|newer|other|another|"
    r"previous(?:ly)?|used[ \t]+to|such[ \t]+as|e\.g|example|was|were|no[ \t]+longer)\b",
    re.IGNORECASE,
)
"""Words that make a base image in a sentence one the user may choose, or a past one."""
_SENTENCE_STOP = re.compile(r"[.!?;](?:[ \t]|\Z)")
_DISTROS = frozenset(
    {"bullseye", "bookworm", "buster", "stretch", "trixie", "jessie", "focal", "jammy", "noble", "bionic"}
    | {"xenial", "ubuntu", "debian", "alpine", "centos", "rockylinux", "rocky", "ubi", "almalinux"}
    | {"oraclelinux", "amazonlinux", "fedora", "openeuler", "el", "rhel", "manylinux"}
)
"""Distributions and their codenames, as image tags name them (`3-slim-bookworm`, `…-ubuntu22.04`)."""


def _tag_parts(tag: str) -> tuple[str | None, set[str], set[str]]:
    """(leading version, variant words, distributions) of an image tag: `12.4.1-devel-ubuntu22.04` is
    (`12.4.1`, {devel}, {ubuntu22.04}); `3-slim-bookworm` is (`3`, {slim}, {bookworm})."""
    tokens = [t for t in re.split(r"[-_]+", tag.lower()) if t]
    version = tokens[0] if tokens and tokens[0][:1].isdigit() else None
    words: set[str] = set()
    distros: set[str] = set()
    for token in tokens[1:] if version else tokens:
        prefix = re.match(r"[a-z]+", token)
        if prefix and prefix.group() in _DISTROS:
            distros.add(token)
        elif prefix:
            words.add(prefix.group())
    return version, words, distros


def _same_base(claim: str, fact: str) -> bool | None:
    """Whether the tag a README states for a base image agrees with the one FROM uses: None when the
    claim is another variant (`runtime` for a `devel` base), False when its version or its distribution
    differs (`3-slim-bullseye` for `3-slim-bookworm`, `12.1-devel` for `12.4.1-devel-ubuntu22.04`)."""
    if claim.lower() == fact.lower():
        return True
    version, words, distros = _tag_parts(claim)
    fact_version, fact_words, fact_distros = _tag_parts(fact)
    if not words <= fact_words:
        return None
    if version and fact_version and _same_version(version, fact_version) is False:
        return False
    if distros and fact_distros and not distros & fact_distros:
        return False
    return True if version or distros else None


def _stated_bases(line: int, text: str, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A base image stated in a sentence (`Defaults to `python:3-slim-bullseye` base image`, `based on
    nvidia/cuda:12.1-devel`) of a repository a FROM uses, whose tag differs from every tag FROM uses
    there in its version or distribution (tags of the same shape are `_audit_text`'s, and are certain).
    After `default`, only bases a build arg sets are compared (`ARG IMAGE=python:3-slim-bookworm`)."""
    stops: list[re.Match[str]] | None = None
    read: dict[tuple[int, int], tuple[bool, bool, dict[str, int]]] = {}  # each sentence read once
    for match in _IMAGE_REF.finditer(text):
        repo, tag = match.group(1).lower(), match.group(2).rstrip(".,;:-")
        if stops is None:
            stops = list(_SENTENCE_STOP.finditer(text))
        before = bisect.bisect_right(stops, match.start(), key=lambda stop: stop.end()) - 1
        start = stops[before].end() if before >= 0 else 0
        if match.start() and text[match.start() - 1] in ".!?;":
            start = match.start()  # a stop the sentence's own end would make (`x;python:3`)
        after = bisect.bisect_left(stops, match.end(), key=lambda stop: stop.start())
        end = stops[after].start() if after < len(stops) else len(text)
        if (start, end) not in read:
            sentence = text[start:end]
            base = bool(_BASE_WORDS.search(sentence)) and not _OTHER_BASE.search(sentence)
            repos: dict[str, int] = {}
            for other in _IMAGE_REF.finditer(sentence):
                repos[other.group(1).lower()] = repos.get(other.group(1).lower(), 0) + 1
            read[start, end] = (base, bool(re.search(r"\bdefaults?\b", sentence, re.IGNORECASE)), repos)
        base, defaults, repos = read[start, end]
        if not base or _NOT_CURRENT.search(tag):
            continue
        if repos.get(repo, 0) > 1:
            continue  # `python:3-slim-bullseye` or `python:3-slim-bookworm`: a choice of bases
        if _is_passed_value(text, match) or _example(text, match):
            continue
        bases = [
            (model, comp)
            for model in auditor.models
            for comp in model.components
            if comp.kind == "image" and comp.name.lower() == repo and (comp.version or comp.ref)
        ]
        if defaults and any(c.arg for _, c in bases):
            bases = [(model, comp) for model, comp in bases if comp.arg]  # what a build arg can change
        if any(_skeleton(comp.version or comp.ref or "") == _skeleton(tag) for _, comp in bases):
            continue  # the same shape: compared (certain) with the tag read as a version claim
        verdicts = [(_same_base(tag, comp.version or comp.ref or ""), model, comp) for model, comp in bases]
        if any(agrees is not False for agrees, _, _ in verdicts) or not verdicts:
            continue
        _, model, comp = verdicts[0]
        where = next((d.line for d in model.args if d.name == comp.arg and not d.bare), comp.line)
        yield Diagnostic(
            auditor.path,
            line,
            f"README says the base image is {match.group(1)}:{tag} but {model.path}:{where} says "
            f"{comp.name}:{comp.version or comp.ref}",
            confidence=LIKELY,
        )


_NOT_INSTALLED = re.compile(
    r"(?<![\w.+-])([A-Za-z][\w.+-]*[A-Za-z0-9])\**`?[ \t]*(?:[(:,–—-][ \t]*)?(?:is[ \t]+|are[ \t]+)?"
    r"not[ \t]+(?:installed|included|shipped|bundled|present)\b"
    r"|\b(?:does[ \t]+not|doesn't|do[ \t]+not|don't)[ \t]+(?:include|ship|contain|install|bundle)[ \t]+"
    r"(?:the[ \t]+|any[ \t]+)?`?([A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""`TensorRT (Not Installed)`, `TensorRT: not installed`, `flash-attn is not included`, `does not include
TensorRT`: the README says the image lacks a component."""
_MAYBE = re.compile(r"\bdefault\b|\bunless\b|\boptional|\bif\b|--build-arg|\bhost\b|\bbase\b", re.IGNORECASE)
"""Words that make an absence conditional (`not installed by default`, `unless INSTALL_TRT=1`) or about
something else (the host, the base image)."""
_PACKAGING = re.compile(r"\A(?:python3?-|lib)|(?:-dev|-devel|-headers|-runtime|-bin|-utils|[-_]?\d+)\Z")


def _installed_under(name: str) -> set[str]:
    """The names a package stands for: `tensorrt-dev` is TensorRT, `libcudnn8` cuDNN, `python3-libnvinfer`
    nvinfer; each normalised (`_norm`)."""
    found = {_norm(name)}
    current = name.lower()
    for _ in range(3):
        current = _PACKAGING.sub("", current)
        found.add(_norm(current))
    found.discard("")
    return found


def _final_components(model: ImageModel) -> list[Component]:
    """The components installed in the image built (the target stage and the stages it builds on), not
    base images and not ones installed only on some platform."""
    stages: set[str] = set()
    stage = model.target
    while stage is not None:
        stages.add(stage.label)
        stage = model.stages[stage.parent] if stage.parent is not None else None
    return [c for c in model.components if c.stage in stages and c.kind != "image" and c.condition is None]


def _absence_claims(line: int, text: str, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A component the README says the image lacks (`TensorRT (Not Installed)`, `does not include
    flash-attn`) that every Dockerfile compared installs, in the image built and on every platform.
    Names match through the name-equivalence table and a package's packaging (`tensorrt-dev`)."""
    if not _NOT_INSTALLED.search(text) or _MAYBE.search(text):
        return  # (the line read once for `_MAYBE`, not once a claim)
    for match in _NOT_INSTALLED.finditer(text):
        name = match.group(1) or match.group(2)
        if len(_norm(name)) < 3 or _example(text, match):
            continue
        wanted = _keys(name, auditor.names)
        installs = []
        for model in auditor.models:
            comp = next((c for c in _final_components(model) if _installed_under(c.name) & wanted), None)
            if comp is None:
                break
            installs.append((model, comp))
        else:
            model, comp = installs[0]
            yield Diagnostic(
                auditor.path,
                line,
                f"README says {name} is not installed but {model.path}:{comp.line} installs {comp.name}",
                confidence=LIKELY,
            )


_TARGET = re.compile(r"gfx[0-9a-f]{3,4}|sm_\d{2,3}[af]?", re.IGNORECASE)
"""A GPU target spelled so it can be nothing else (`gfx942`, `sm_90`); `9.0` alone could be anything."""
_BUILT_FOR = re.compile(
    r"\b(?:built|compiled)\b[^.]{0,60}?\b(?:for|covering|targeting)\b"
    r"|\bfat[ \t]+build\b|\bbuild[ \t]+targets?\b",
    re.IGNORECASE,
)
"""Words saying a list of GPU targets is what the image is built for (`a fat build covering`, `compiled
for`), not which GPUs a project supports or was tested on."""
_TARGET_CHOICE = re.compile(r"\b(?:your|pick|choose|select|override|instead|e\.g)\b|--build-arg", re.I)
"""Words making a list of targets ones to choose from (`to build for your GPU, pick its target`)."""
_ARCH_ARG_NAME = re.compile(r"(?:ARCH|ARCHS|ARCH_LIST|TARGETS|ARCHITECTURES)\Z")


def _target_column(table: Table) -> list[str] | None:
    """The targets of the column of `table` every non-empty cell of which is one GPU target."""
    columns: list[list[str]] = [[] for _ in table.header]  # each cell read once (rows may be short)
    for _, row in table.rows:
        for index, cell in enumerate(row[: len(columns)]):
            if text := (_first_code(cell) or _plain(cell)).strip():
                columns[index].append(text)
    for texts in columns:
        if len(texts) >= 2 and all(_TARGET.fullmatch(t) for t in texts):
            return texts
    return None


def _audit_targets(doc: Document, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A table column or a list of GPU targets (`gfx942`, `sm_90`) under text saying the image is built
    for them (`a fat build covering every architecture`, `compiled for`), against the default of the
    build arg listing the targets (`GPU_ARCH`, `PYTORCH_ROCM_ARCH`, `ROCM_DOCKER_ARCH`,
    `TORCH_CUDA_ARCH_LIST` …): targets the README lists that it lacks, and targets it has that the
    README leaves out."""
    lists: list[tuple[int, list[str], bool]] = []
    sections: dict[int, _SectionText] = {}
    for table in doc.tables:
        targets = _target_column(table)
        if targets:
            if not sections:  # the prose of each section, joined once
                for para in doc.paragraphs:
                    sections.setdefault(para.section, _SectionText()).lines.extend(para.lines)
            text = sections.setdefault(table.section, _SectionText())
            lists.append((table.line, targets, text.built_for(table.context, table.line)))
    for para in doc.paragraphs:
        items = [text[m.end() :] for _, text in para.lines if (m := _LIST_ITEM.match(text))]
        heads = [_first_word(item) for item in items]
        if len(items) >= 2 and all(_TARGET.fullmatch(head) for head in heads):
            intro = " ".join(text for _, text in para.lines if not _LIST_ITEM.match(text))
            context = " ".join((para.heading, para.before, intro))
            lists.append((para.lines[0][0], heads, _built_for(context)))
    for line, targets, built in lists:
        if built:
            yield from _some(_targets_claim(line, targets, auditor))


def _built_for(context: str) -> bool:
    """True when `context` says the image is built for a list of targets and does not offer a choice."""
    return bool(_BUILT_FOR.search(context)) and not _TARGET_CHOICE.search(context)


_REACH = 200
"""More than the longest match of `_BUILT_FOR` and `_TARGET_CHOICE` (but for one holding a run of 140
blanks: `fat`, the blanks, `build`), so text read once for them is read again only this far back."""


@dataclass
class _SectionText:
    """The paragraph lines of a section, joined with spaces, read for `_built_for` before each table of
    the section in turn: each part of the text once, not once a table (a section of n paragraphs and n
    tables of GPU targets cost n²)."""

    lines: list[tuple[int, str]] = field(default_factory=list)
    text: str | None = None
    ends: list[int] = field(default_factory=list)
    read: dict[int, tuple[int, bool]] = field(default_factory=dict)  # pattern → (read up to, found)

    def built_for(self, context: str, line: int) -> bool:
        """`_built_for(context + " " + the lines before `line`, joined)`, for tables in line order."""
        if self.text is None:
            self.text = " ".join(text for _, text in self.lines)
            self.ends = list(itertools.accumulate(len(text) + 1 for _, text in self.lines))
        count = bisect.bisect_left(self.lines, line, key=lambda item: item[0])
        upto = self.ends[count - 1] - 1 if count else 0  # the end of " ".join(the first `count` lines)
        head = context + " " + self.text[: min(upto, _REACH)]  # matches that start in `context`
        found = []
        for pattern in (_BUILT_FOR, _TARGET_CHOICE):
            match = pattern.search(head)
            done, seen = self.read.get(id(pattern), (-1, False))
            if done > upto:  # a table before the last one read: from the start
                done, seen = -1, False
            if not seen and done < upto:  # the new lines, and the end of the old ones a match may span
                seen = pattern.search(self.text, max(0, done - _REACH), upto) is not None
                self.read[id(pattern)] = (upto, seen)
            found.append(seen or (match is not None and match.start() <= len(context)))
        return found[0] and not found[1]


def _first_word(item: str) -> str:
    """The first word of a list item, or its first code span when it starts with one (`gfx942`)."""
    body = item.lstrip("*_ ")
    spans = code_spans(body, html_code=True)
    if spans and spans[0][0] == 0:
        return spans[0][2].strip()
    return body.split(" ", 1)[0].rstrip(":,;.")


def _targets_claim(line: int, listed: list[str], auditor: _Auditor) -> Diagnostic | None:
    claimed = {hardware.target_key(t) for t in listed}
    candidates = []
    for model in auditor.models:
        for decl in model.args:
            if decl.bare or not decl.effective_default or not _ARCH_ARG_NAME.search(decl.name.upper()):
                continue
            default = [hardware.target_key(t) for t in hardware.parse_targets(decl.effective_default)]
            if not default or not all(_TARGET.fullmatch(t) or re.fullmatch(r"\d+\.\d", t) for t in default):
                continue
            if {t.startswith("gfx") for t in default} != {t.startswith("gfx") for t in claimed}:
                continue  # another vendor's list
            if set(default) == claimed:
                return None
            candidates.append((len(claimed & set(default)), model, decl, default))
    if not candidates:
        return None
    _, model, decl, default = max(candidates, key=lambda c: c[0])
    extra = [t for t in listed if hardware.target_key(t) not in default]
    missing = [t for t in default if t not in claimed]
    default_at = f"{decl.name}'s default ({model.path}:{decl.line})"
    if extra:
        said = f"README lists GPU targets {', '.join(extra)} that {default_at} does not build"
        said += f", and leaves out {', '.join(missing)} that it builds" if missing else ""
    else:
        said = f"README leaves out GPU targets {', '.join(missing)} that {default_at} builds"
    return Diagnostic(auditor.path, line, said, confidence=LIKELY)


_INCLUDES = re.compile(
    r"\b(?:image|container)[ \t]+(?:also[ \t]+)?"
    r"(?:includes|ships(?:[ \t]+with)?|comes[ \t]+with|contains|bundles)"
    r"[ \t]+(?:the[ \t]+)?`?([A-Za-z][\w.+-]*[A-Za-z0-9])",
    re.IGNORECASE,
)
"""`The image includes TensorRT`, `the container ships with NCCL`: the image is the subject (`make sure
CUDA is installed` is about the host)."""
_PLAIN_BASES = frozenset(
    {"ubuntu", "debian", "python", "alpine", "centos", "rockylinux", "fedora", "almalinux", "busybox"}
    | {"amazonlinux", "oraclelinux", "ubi8", "ubi9", "ubi-minimal", "ubi", "buildpack-deps", "opensuse"}
)
"""Base images that hold an operating system and at most a language, no GPU or ML component."""


def _presence_claims(line: int, text: str, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A component docgen knows (`TensorRT`, `NCCL`, `PyTorch` …) the README says the image includes
    that no Dockerfile compared ever names: built on a plain OS or language image, with nothing docgen
    could not read (an install script, a requirements file, a skipped construct), no component, stage,
    build arg or ENV whose name holds the component's name (`likely`)."""
    if not _INCLUDES.search(text) or _MAYBE.search(text):
        return  # (the line read once for `_MAYBE`, not once a claim)
    for match in _INCLUDES.finditer(text):
        name = match.group(1)
        key = _norm(name)
        if len(key) < 3 or key not in _known_keys() or _example(text, match):
            continue
        if all(_never_named(model, key) for model in auditor.models):
            model = auditor.models[0]
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the image includes {name} but {model.path} installs no {name}",
                confidence=LIKELY,
            )


@functools.cache
def _known_keys() -> frozenset[str]:
    """The normalised names of the components docgen knows by a display name (`torch`, `tensorrt` …)."""
    return frozenset(_norm(name) for name in renamed({}))


def _never_named(model: ImageModel, key: str) -> bool:
    """True when `model` is built on plain OS or language images only, docgen read all of it (no
    requirements file, install script or download), and no component, base image, build arg or ENV of
    it is named after `key` (a normalised name)."""
    unread = any(c.method in ("requirements", "script") or c.kind == "download" for c in model.components)
    if model.skipped or unread:
        return False  # a requirements file, an installer, a download: may install anything
    bases = [stage.base for stage in model.stages if stage.parent is None]
    for base in bases:
        repo = base.split("@", 1)[0].rsplit(":", 1)[0] if ":" in base.rsplit("/", 1)[-1] else base
        if repo.rsplit("/", 1)[-1].lower() not in _PLAIN_BASES:
            return False
    raw = {k for k, v in _ALIASES.items() if v == key} | {key}
    words = [c.name for c in model.components] + [a.name for a in model.args] + [e.name for e in model.env]
    words += [e.value or "" for e in model.env] + bases
    return not any(r in _raw(word) for word in words for r in raw)


_PASSED = re.compile(r"--build-arg(?:[ \t]+|=)[\"']?[A-Za-z_][A-Za-z0-9_]*=[\"']?\Z")


def _is_passed_value(text: str, match: re.Match[str]) -> bool:
    """True when `match` is the value of `--build-arg NAME=…`: an override the user passes."""
    return bool(_PASSED.search(text, max(0, match.start() - 80), match.start()))


def _example(text: str, match: re.Match[str]) -> bool:
    """True when `for example` or `e.g.` comes shortly before `match`: an example, not a claim."""
    return bool(_EXAMPLE.search(text, max(0, match.start() - 80), match.start()))


def _badge(path: str) -> tuple[str, str]:
    """(label, message) of a shields.io static badge `label-message-color`, ('', '') for another form.
    In each part `--` is a dash, `__` an underscore and `_` a space."""
    escaped = urllib.parse.unquote(path).replace("--", "\0").replace("__", "\1")
    parts = [p.replace("\0", "-").replace("_", " ").replace("\1", "_").strip() for p in escaped.split("-")]
    return (parts[0], parts[1]) if len(parts) == 3 else ("", "")


def _items(para: Paragraph) -> list[list[tuple[int, str]]]:
    """The lines of each list item of `para`; the lines before the first item (the text introducing
    the list, or the whole paragraph when it is no list) make one more, first."""
    chunks: list[list[tuple[int, str]]] = []
    for line, text in para.lines:
        if _LIST_ITEM.match(text) or not chunks:
            chunks.append([])
        chunks[-1].append((line, text))
    return chunks


def _item_scopes(para: Paragraph, auditor: _Auditor) -> dict[int, _Auditor | None]:
    """The auditor of each line of `para` whose list item has a scope note naming an image (`(only for
    `horovod` image)`): that image's, or None for a sibling's; lines without one are absent."""
    scopes: dict[int, _Auditor | None] = {}
    for chunk in _items(para):
        text = "".join(line_text + " " for _, line_text in chunk)
        if not _LIST_ITEM.match(text):
            continue  # the text introducing the list: a note there is no item's
        scoped = auditor.scoped(text)
        if scoped is not auditor:
            scopes.update(dict.fromkeys((line for line, _ in chunk), scoped))
    return scopes


def _audit_paragraph(para: Paragraph, auditor: _Auditor) -> Iterator[Diagnostic]:
    scopes = _item_scopes(para, auditor)
    if scopes:  # items bound to an image by a note: each checked with that image alone
        yield from _audit_scoped_paragraph(para, auditor, scopes)
        return
    for line, text in para.lines:
        yield from _audit_text(line, text, auditor, prose=True)
    yield from _bases_of_each(para, auditor)
    # Backticked names are build-arg claims only in build-arg context: a sentence that mentions build
    # args, or a list item that starts with the name under a build-args heading or introduction.
    # The nearest introduction naming another tool's arguments (`Required CMake build arguments:`)
    # outranks a heading about build args.
    intro = para.lines[0][1] + (" " + para.before if para.before.rstrip().endswith(":") else "")
    list_context = not other_tool_args(intro) and bool(
        _about_build_args(para.heading)
        or (para.before.rstrip().endswith(":") and _about_build_args(para.before))
        or _about_build_args(para.lines[0][1])
    )
    yield from _assignment_list(para, auditor)
    for line, text in para.lines:
        item = _LIST_ITEM.match(text)
        if not item:
            continue
        body = text[item.end() :].lstrip("*_[ ")
        spans = code_spans(body, html_code=True)
        lead = _DEFAULT_LEAD.match(body)  # `Default `CUDA` is `10.0-…``: the name after the word
        if spans and lead and spans[0][0] == lead.end():
            name = spans[0][2].strip()
            is_value = _IS_VALUE.match(body, spans[0][1])
            value = code_spans(body[is_value.end() :], html_code=True) if is_value else []
            if is_value and value and value[0][0] == 0 and name in auditor.declared:
                claim = _default_in_cell(body[is_value.end() :][: value[0][1]])
                yield from _some(auditor.default_claim(line, name, claim, LIKELY))
            continue
        if not spans or spans[0][0] != 0:
            continue
        name = spans[0][2].strip().split("=", 1)[0].strip()
        if _UPPER_SNAKE.match(name) and (list_context or _about_build_args(text)):
            said = " ".join((para.heading, para.before, para.lines[0][1], text))
            if name not in auditor.runtime or _build_evidence(said):
                yield from _some(auditor.arg_claim(line, name, LIKELY))
        if name not in auditor.declared:
            continue
        # A default: `CUDA_VERSION` set to `12.4.0` (right after the name), `BUILD_FA`: … default is `1`.
        default = _SET_TO.match(body, spans[0][1]) or _DEFAULT_IS.search(body, spans[0][1])
        value = code_spans(body[default.end() :], html_code=True) if default else []
        if default and value and value[0][0] == 0:
            claim = _default_in_cell(body[default.end() :][: value[0][1]])
            yield from _some(auditor.default_claim(line, name, claim, LIKELY))
    for chunk in _items(para):
        yield from _audit_sentences(chunk, auditor)


_EACH_IMAGE = re.compile(
    r"\bin[ \t]+(?:both|all)[ \t]+cases\b"
    r"|\b(?:both|each|every|all)[ \t]+(?:of[ \t]+)?(?:the[ \t]+|these[ \t]+)?"
    r"(?:images?|dockerfiles?|containers?|variants?)\b",
    re.IGNORECASE,
)
"""A sentence about each image of the section (`In both cases, the default base image is …`)."""


def _bases_of_each(para: Paragraph, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A base image stated in a sentence that says it is each image's (`In both cases, the default base
    image is nvidia/cuda:11.5.2-devel-ubuntu20.04`), in a section about several images: compared with
    each of them, not only with one of them, as image references in prose are (`_audit_text`)."""
    if len(auditor.models) < 2:
        return
    for start, _, sentence in _sentences(para.lines):
        if not _EACH_IMAGE.search(sentence) or not _BASE_WORDS.search(sentence):
            continue
        for match in _IMAGE_REF.finditer(sentence):
            line = _line_at(para.lines, start + match.start())
            for each in auditor.each:
                for found in _audit_text(line, match.group(), each, prose=True):
                    if found.message.startswith(f"README says {match.group()} but"):
                        yield dataclasses.replace(found, confidence=LIKELY)


def _audit_scoped_paragraph(
    para: Paragraph, auditor: _Auditor, scopes: dict[int, _Auditor | None]
) -> Iterator[Diagnostic]:
    """`para` whose list items bind some of its lines to other images: the lines of each image, with
    the text introducing the list, audited with that image's auditor; a sibling's not at all."""
    first = next((i for i, (_, text) in enumerate(para.lines) if _LIST_ITEM.match(text)), len(para.lines))
    intro = " ".join(text.strip() for _, text in para.lines[:first]) or para.before
    groups: dict[int, tuple[_Auditor, list[tuple[int, str]]]] = {}
    for line, text in para.lines:
        judge = scopes.get(line, auditor)
        if judge is not None:
            groups.setdefault(id(judge), (judge, []))[1].append((line, text))
    for judge, lines in groups.values():
        yield from _audit_paragraph(Paragraph(lines, para.heading, intro, para.section), judge)
    # A note binding some items to one image says the others are about each image of the section:
    # their defaults must be each one's (not only one's, as in a list about a family).
    ours = [judge for judge in scopes.values() if judge is not None and judge.models != auditor.models]
    unscoped = groups.get(id(auditor))
    if ours and unscoped and len(auditor.models) > 1:
        for each in auditor.each:
            part = Paragraph(unscoped[1], para.heading, intro, para.section)
            yield from (d for d in _audit_paragraph(part, each) if _DEFAULT_FINDING.search(d.message))


_DEFAULT_FINDING = re.compile(r"\A(?:README says [A-Z][A-Z0-9_]* (?:defaults to|has no default))")
"""A finding about a build arg's default (`default_claim`)."""


_ASSIGNMENT = re.compile(r"`?([A-Z][A-Z0-9_]*)[ \t]*=[ \t]*(\"[^\"]*\"|'[^']*'|[^\s\"'`]*)`?[ \t]*\Z")
"""A list item that is only `NAME=VALUE` (`VERSION="22.12"`, `` `GUID=1000` ``)."""
_DEFAULT_WORDS = re.compile(r"\bdefaults?\b|默认|默認|缺省", re.IGNORECASE)


def _assignment_list(para: Paragraph, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A list of `NAME=VALUE` items introduced as build args or their defaults ("Default build
    variables:", "默认参数变量："): each default against the ARG's, each name no ARG declares. A list is
    about build args when its introduction (the line ending in `:` before it, else the heading) says so,
    or most of its names are declared ARGs; its values are defaults only when the introduction says
    "default" (else they are values to pass)."""
    first = next((i for i, (_, text) in enumerate(para.lines) if _LIST_ITEM.match(text)), None)
    if first is None:
        return
    lead = " ".join(text.strip() for _, text in para.lines[:first]) or para.before.strip()
    intro = lead if lead.endswith((":", "：")) else para.heading
    items = [(line, text[m.end() :]) for line, text in para.lines if (m := _LIST_ITEM.match(text))]
    assignments = [(line, m) for line, body in items if (m := _ASSIGNMENT.match(body))]
    if not intro or not assignments or len(assignments) * 2 < len(items) or other_tool_args(intro):
        return
    declared = sum(1 for _, m in assignments if m.group(1) in auditor.declared)
    if not _about_build_args(intro) and (
        _NOT_BUILD_ARG_WORDS.search(intro) or declared * 2 <= len(assignments)
    ):
        return
    defaults = bool(_DEFAULT_WORDS.search(intro))
    # A one-word name (`PYTHON=3.11`) is a claim only under words that can only mean build args.
    strict = _says_build_args(intro)
    for line, match in assignments:
        name, value = match.group(1), match.group(2).strip("\"'")
        if name in auditor.declared:
            if defaults and value:
                yield from _some(auditor.default_claim(line, name, _default_in_cell(value), LIKELY))
        elif _UPPER_SNAKE.match(name) or strict:
            yield from _some(auditor.arg_claim(line, name, LIKELY))


def _audit_sentences(lines: list[tuple[int, str]], auditor: _Auditor) -> Iterator[Diagnostic]:
    """Backticked UPPER_SNAKE names (and `NAME=VALUE` lists, `_BARE_ASSIGNMENT`) in sentences of `lines`
    (one list item or paragraph) that mention build args; required args and defaults stated in any
    sentence (`_stated_arg_defaults`)."""
    joined = ""
    offsets: list[int] = []
    for _, text in lines:
        offsets.append(len(joined))
        joined += text + " "
    sentence_start = 0
    for boundary in [*_SENTENCE_END.finditer(joined), None]:
        end = boundary.start() if boundary else len(joined)
        sentence = joined[sentence_start:end]

        def line_at(offset: int, base: int = sentence_start) -> int:
            return lines[bisect.bisect_right(offsets, base + offset) - 1][0]

        about = _about_build_args(sentence)
        claims = bool(_ARG_CLAIM_WORDS.search(sentence))
        spans = code_spans(sentence, html_code=True) if about or claims else []
        if about:
            # `NAME=VALUE` lists of one-word names only in words that can only mean build args
            # (`Build args: CUDA=12.4 PYTHON=3.11`), never next to env words (`docker run -e PORT=80`).
            strict = _says_build_args(sentence)
            for start, _, content in spans:
                assignment = _ASSIGNMENT.fullmatch(content.strip())
                name = content.strip().split("=", 1)[0].strip()
                if (_UPPER_SNAKE.match(name) or (strict and assignment)) and (
                    name not in auditor.runtime or _build_evidence(sentence)
                ):
                    yield from _some(auditor.arg_claim(line_at(start), name, LIKELY))
            if strict:
                bare = sentence
                for start, stop, _ in spans:  # what is in code was checked above
                    bare = bare[:start] + " " * (stop - start) + bare[stop:]
                for match in _BARE_ASSIGNMENT.finditer(bare):
                    yield from _some(auditor.arg_claim(line_at(match.start(1)), match.group(1), LIKELY))
        if claims:
            yield from _stated_arg_defaults(sentence, spans, line_at, auditor)
        sentence_start = boundary.end() if boundary else end


_BARE_ASSIGNMENT = re.compile(
    r"(?<![\w$./:=-])(?<!-e )(?<!-e=)(?<!--env )(?<!export )(?<!ENV )(?<!env )(?<!set )"
    r"([A-Z][A-Z0-9_]*)=(?=[\w\"'.:/-])"
)
"""`PYTHON=3.11` in prose, not after `-e`, `--env`, `export`, `ENV` or `set` (a variable of the shell
or of the running container)."""
_ARG_REQUIRED = re.compile(
    r"[ \t`*]*(?:\((?:required|mandatory)\)"
    r"|(?:must|needs?[ \t]+to|has[ \t]+to)[ \t]+be[ \t]+(?:explicitly[ \t]+)?"
    r"(?:specified|set|provided|given|passed|defined)"
    r"|is[ \t]+(?:required|mandatory)"
    r"|has[ \t]+no[ \t]+default(?:[ \t]+value)?)"
    r"(?![ \t]+(?:to|for|when|if|by|at|in|on|with|unless|only)\b)",
    re.IGNORECASE,
)
"""`X must be explicitly specified`, `X is required`, `X has no default`, right after the name, and
not for a case (`is required for GPU builds`, `must be set to your GPU`)."""
_ARG_DEFAULTS = re.compile(
    r"[ \t`*]*(?:\([ \t]*)?(?:defaults[ \t]+to|default(?:[ \t]+value)?[ \t]*(?:is|:|=))[ \t]*(?=`|<code>)",
    re.IGNORECASE,
)
"""`X defaults to `12.4``, `X (default: `12.4`)`: a default in code right after the name."""


_ARG_CLAIM_WORDS = re.compile(r"default|required|mandatory|\b(?:must|needs?|has)\b", re.IGNORECASE)
"""A word `_ARG_REQUIRED` or `_ARG_DEFAULTS` needs: a sentence without one is not read for them."""


def _stated_arg_defaults(
    sentence: str,
    spans: list[tuple[int, int, str]],
    line_at: Callable[[int], int],
    auditor: _Auditor,
) -> Iterator[Diagnostic]:
    """A declared build arg (in code, or a bare UPPER_SNAKE word) the sentence says has no default and
    must be passed, while the Dockerfile gives it one, or a default in code after it that differs from
    the Dockerfile's (one declared without a default included)."""
    names = [(start, stop, content.strip()) for start, stop, content in spans]
    span_end = {start: stop for start, stop, _ in spans}  # the sentence's spans, parsed once
    names += [
        (m.start(), m.end(), m.group()) for m in _WORD.finditer(sentence) if _UPPER_SNAKE.match(m.group())
    ]
    for start, stop, name in names:
        if name not in auditor.declared:
            continue
        if _ARG_REQUIRED.match(sentence, stop):
            yield from _some(auditor.default_claim(line_at(start), name, "", LIKELY, required=True))
        elif (lead := _ARG_DEFAULTS.match(sentence, stop)) is not None:
            if (value_end := span_end.get(lead.end())) is not None:  # a code span right after the words
                claim = _default_in_cell(sentence[lead.end() : value_end])
                yield from _some(auditor.default_claim(line_at(start), name, claim, LIKELY))


_LIST_PIN = re.compile(
    r"[ \t]*(?:[-*][ \t]+)?([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[A-Za-z0-9_,.-]*\])?[ \t]*"
    r"(===|==|=|>=|~=)[ \t]*([A-Za-z0-9][A-Za-z0-9._+!/-]*)[ \t]*(?:#.*)?\Z"
)
"""One line of a `pkg==version` list in a fenced block (`flash_attn=2.7.4.post1` with one `=` too)."""
_NOT_CURRENT = re.compile(
    r"\b(?:preview|nightly|old(?:er)?|previous|history|legacy|deprecated|upcoming|planned|next)\b",
    re.IGNORECASE,
)
"""A comment in a package list after which the versions are not the image's current ones (`# Preview`)."""


_ASSIGNMENT_LANGS = frozenset({"", "text", "txt", "plaintext", "plain", "ini", "env", "dotenv", "properties"})
"""Fence languages of a block that lists `NAME=VALUE` lines as data (a shell block runs them: its
variables are the shell's)."""


def _fence_intro(doc: Document, fence: Fence) -> str:
    """What introduces a fenced block: the line ending in `:` just above it (`Build args:`), else the
    heading it is under."""
    opening = fence.lines[0][0] - 1 if fence.lines else 0
    first = bisect.bisect_left(doc.paragraphs, opening - 2, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[first : first + 2]:  # in line order: those ending just above it
        last, text = para.lines[-1]
        if opening - 2 <= last < opening and text.rstrip().endswith((":", "：")):
            return text
    return _heading_of(doc, opening)


def _assignment_block(fence: Fence, intro: str, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A data block (```` ``` ````, ```` ```text ````, ```` ```ini ````) of `NAME=VALUE` lines only, under
    words that can only mean build args (`## Build args`, `Build arguments:`): each name no ARG declares
    (`PYTHON=3.11`, one word or UPPER_SNAKE). Under environment words it is an env file, no claim."""
    if fence.lang not in _ASSIGNMENT_LANGS or not _says_build_args(intro):
        return
    if _NOT_A_BUILD_ARG.search(intro) or other_tool_args(intro):
        return
    content = [  # `PYTHON=3.11  # the interpreter`: the comment is no part of the value
        (line, text.split(" #", 1)[0].strip())
        for line, text in fence.lines
        if text.strip() and not text.lstrip().startswith("#")
    ]
    assignments = [(line, _ASSIGNMENT.match(text)) for line, text in content]
    if not content or not all(match for _, match in assignments):
        return
    for line, match in assignments:
        if match is not None:
            yield from _some(auditor.arg_claim(line, match.group(1), LIKELY))


_DESCRIBED = re.compile(r"[ \t]*`?([A-Z][A-Z0-9_]*)`?[ \t]*:(?:[ \t]+\S.*)?\Z")
"""A line `NAME:   what it sets` of a block listing build args (`PYTORCH_VERSION:  rocm/pytorch tag`)."""


def _described_block(fence: Fence, said: str, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A block (of any language: `NAME: text` is no shell or YAML a program reads) of `NAME: what it
    sets` lines only, under a heading or an introduction (`said`) that says build args (`## ARG
    options`), one of whose names an ARG declares: each other UPPER_SNAKE name no ARG declares."""
    if not _says_build_args(said) or _NOT_A_BUILD_ARG.search(said):
        return
    content = [
        (line, text) for line, text in fence.lines if text.strip() and not text.lstrip().startswith("#")
    ]
    described = [(line, _DESCRIBED.match(text)) for line, text in content]
    names = [(line, match.group(1)) for line, match in described if match is not None]
    if not names or len(names) < len(content) or not any(n in auditor.declared for _, n in names):
        return
    for line, name in names:
        if _UPPER_SNAKE.match(name):
            yield from _some(auditor.arg_claim(line, name, LIKELY))


_PULL_OR_RUN = re.compile(
    r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+pull|pull|run|container[ \t]+run)\b"
)
_GPU_CHECK = re.compile(r"\bnvidia-smi\b|\brocm-smi\b|\bnpu-smi\b")
"""A command a README runs to check the host's devices in some image, not to use this one's base."""


def _pulled_bases(fence: Fence, auditor: _Auditor) -> Iterator[Diagnostic]:
    """`docker pull` / `docker run` (continued lines too) of an image of the repository a FROM uses,
    with a tag of the same shape (`21.10-py3-sdk` for `22.08-py3-sdk`, versions aside) that is none of
    the tags FROM uses: the README pulls an older (or newer) release of the base. Not a command that
    checks the host's GPUs (`nvidia-smi`), which may use any image."""
    command = False
    for line, text in fence.lines:
        command = command or bool(_PULL_OR_RUN.search(text))
        if command and not _GPU_CHECK.search(text):
            start = m.end() if (m := _PULL_OR_RUN.search(text)) else 0
            for match in _IMAGE_REF.finditer(text, start):
                bases = auditor.facts.images.get(match.group(1).lower(), [])
                alike = [fact for fact in bases if _skeleton(fact.value) == _skeleton(match.group(2))]
                if alike and all(fact.value != match.group(2) for fact in alike):
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README runs {match.group()} but {auditor.where(alike[0])} says "
                        f"{match.group(1)}:{alike[0].value}",
                        confidence=LIKELY,
                    )
        command = command and text.rstrip().endswith("\\")


def _audit_fence(fence: Fence, auditor: _Auditor) -> Iterator[Diagnostic]:
    """A shell block showing a `docker build`: its `--build-arg` names and its pins. A block listing
    `pkg==version` lines (an "Important packages version" block): each pin, up to a comment such as
    `# Preview` after which the versions are not this image's."""
    body = "\n".join(text for _, text in fence.lines)
    if fence.lang in _COMMAND_LANGS and any(
        w in body for w in ("docker", "podman", "buildah", "--build-arg")
    ):
        named = _lines_of_commands_with_file(fence)
        for line, text in fence.lines:
            yield from _audit_text(line, text, auditor, prose=False, named_file=line in named)
        yield from _pulled_bases(fence, auditor)
        return
    pins = [(line, _LIST_PIN.match(text)) for line, text in fence.lines]
    listed = [(line, m) for line, m in pins if m]
    content = [text for _, text in fence.lines if text.strip() and not text.lstrip().startswith("#")]
    if not listed or len(listed) * 2 < len(content):
        return  # code or a config file, not a list of packages
    for line, text in fence.lines:
        if text.lstrip().startswith("#") and _NOT_CURRENT.search(text):
            return
        match = _LIST_PIN.match(text)
        if match is None:
            continue
        operator = "==" if match.group(2) in ("=", "===") else match.group(2)
        version = match.group(3)
        if not _DIGIT.search(version) or (match.group(2) == "=" and _UPPER_WORD.match(match.group(1))):
            continue  # `ROCM_VERSION=6.2` is a variable set to a value, as in an env file
        yield from _some(auditor.version_claim(line, match.group(1), operator, version, CERTAIN))


# --------------------------------------------------------------------------------------------------
# What a sentence, a table or a command says it is about


def _files_named(text: str) -> list[str]:
    """The Dockerfile names a text mentions: in code (`` `Dockerfile` ``, `` `Dockerfile.standalone` ``)
    or as words other than a plain `Dockerfile` (which, outside code, is the kind of file), unless it is
    in a list with another name (`Dockerfile and Dockerfile.slim`)."""
    found = [c.strip() for _, _, c in code_spans(text, html_code=True)]
    words = _CODE_SPAN.sub(" ", text)
    found += [w for w in _HEADING_FILE.findall(words) if w not in ("Dockerfile", "Containerfile")]
    found = [n for n in found if is_dockerfile_name(_basename(n))]
    if found:
        found += [m.group() for m in _LISTED_PLAIN.finditer(words)]
    return list(dict.fromkeys(found))


_CODE_SPAN = re.compile(r"`[^`]*`")
_LISTED_PLAIN = re.compile(
    r"(?<![\w./-])(?:Dockerfile|Containerfile)(?=[ \t]*(?:,|&|\band\b))"
    r"|(?<=\band[ \t])(?:Dockerfile|Containerfile)(?![\w./-])"
)


def _shared_tables(doc: Document, paths: Sequence[str]) -> dict[int, frozenset[int]]:
    """The tables (their header lines) introduced as about several Dockerfiles ("`Dockerfile` and
    `Dockerfile.standalone` support the following build arguments:", a heading naming two images) →
    the audited ones of them (none: the table is about other images). Such a table is not one image's."""
    shared: dict[int, frozenset[int]] = {}
    for table in doc.tables:
        named = _files_named(table.context)
        if len(named) >= 2:
            shared[table.line] = frozenset(i for name in named for i in _matching(name, paths))
    return shared


_PLATFORMS = frozenset(
    "cuda rocm hip xpu cpu npu hpu gaudi ascend cann musa jetson tpu neuron mlu dcu sycl oneapi "
    "openvino metal vulkan".split()
)
"""Words that name a variant of an image by what it runs on (`ROCm images`, `the CUDA variant`)."""
_IMAGE_SUBJECT = re.compile(
    r"(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?[*_]*(?:(?:for|on|with|in)[ \t]+)?(?:(?:the|all|our)[ \t]+)?"
    r"((?:[`\w.+-]+[ \t]+){1,3}?)(?:images?|variants?|containers?|builds?|flavou?rs?)\b",
    re.IGNORECASE,
)
"""A sentence that starts by naming images (`ROCm images use …`, `The CUDA variant takes …`,
`For XPU builds, pass …`): the words before the noun say which."""
_NOT_A_VARIANT = frozenset({"base", "docker", "default", "final", "official", "resulting", "same", "this"})
"""Words before `image` that say what an image is for the audited one too (`The base image is …`), even
when a Dockerfile next to the README is named after one (`Dockerfile.base`)."""


def _other_images_words(models: Sequence[ImageModel], siblings: Sequence[str]) -> tuple[set[str], set[str]]:
    """(words naming the audited images, words naming images that are not audited): the variants of
    the audited Dockerfiles' names and the platform words their names, base images and build args
    mention; the variants of the Dockerfiles next to the README, and the platform words none of the
    audited ones mentions."""
    ours = {v for v in (variant(m.path) for m in models) if v}
    said = " ".join(
        [m.path for m in models]
        + [s.base for m in models for s in m.stages]
        + [f"{a.name} {a.effective_default or ''}" for m in models for a in m.args]
    ).lower()
    ours |= {word for word in _PLATFORMS if word in said}
    others = {v for v in (variant(s) for s in siblings) if v} | _PLATFORMS
    return ours, others - ours


def _blank(lines: list[tuple[int, str]], spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """`lines` (joined with one space each) with the characters of `spans` (offsets in the joined
    text) replaced by spaces."""
    out: list[tuple[int, str]] = []
    offset = 0
    for line, text in lines:
        chars = list(text)
        for start, end in spans:
            for pos in range(max(start, offset), min(end, offset + len(text))):
                chars[pos - offset] = " "
        out.append((line, "".join(chars)))
        offset += len(text) + 1
    return out


def _sentences(lines: list[tuple[int, str]]) -> Iterator[tuple[int, int, str]]:
    """(start, end, text) of each sentence of `lines` joined with one space each; a list item starts one."""
    joined = ""
    starts = []
    for _, text in lines:
        if _LIST_ITEM.match(text):
            starts.append(len(joined))
        joined += text + " "
    cuts = sorted({0, *starts, *(m.end() for m in _SENTENCE_END.finditer(joined))})
    for start, end in zip(cuts, [*cuts[1:], len(joined)], strict=True):
        yield start, end, joined[start:end]


def _other_images(subject: re.Match[str], ours: set[str], others: set[str]) -> bool:
    """True when the words before `images` in `subject` (an `_IMAGE_SUBJECT` match) name images none
    of the audited ones is."""
    words = {w.strip("`*_").lower() for w in subject.group(1).split()} - _NOT_A_VARIANT
    return bool(words & others) and not words & ours


def _about_other_images(para: Paragraph, ours: set[str], others: set[str]) -> Paragraph:
    """`para` without the sentences that start by naming images none of the audited Dockerfiles is
    (`ROCm images use ROCm-specific arguments such as ROCM_VERSION` next to CUDA images; `The
    lightweight variant takes X` when Dockerfile.lightweight is not audited): what they claim is
    another image's."""
    spans = []
    for start, end, sentence in _sentences(para.lines):
        match = _IMAGE_SUBJECT.match(sentence)
        if match is not None and _other_images(match, ours, others):
            spans.append((start + match.start(1), end))
    if not spans:
        return para
    return dataclasses.replace(para, lines=_blank(para.lines, spans))


def _not_current(para: Paragraph) -> Paragraph:
    """`para` without what its sentences say is gone or another component's requirement
    (`aside.not_current_spans`): `The Dockerfile removes its vLLM 0.20.2`, `OpenCV 4.13 requires
    NumPy >= 2`."""
    spans = [
        (start + a, start + b)
        for start, _, sentence in _sentences(para.lines)
        for a, b in not_current_spans(sentence)
    ]
    return dataclasses.replace(para, lines=_blank(para.lines, spans)) if spans else para


def _captioned(para: Paragraph, fence: Fence, names: Mapping[str, str]) -> Paragraph:
    """`para` right before the build command `fence`, without what its last sentence says of the
    components the command sets with `--build-arg`: "An example to build an image with PyTorch 1.11 and
    CUDA 11.3" over `docker build --build-arg PYTORCH=1.9.0 --build-arg CUDA=11.1 …` captions an example
    build, it does not tell the defaults. Left out are the names of the args (`PYTORCH`, `CUDA` for
    `CUDA_VERSION`) and the versions their values hold ("To build with CUDA 12.1:" over `--build-arg
    BASE_IMAGE=nvidia/cuda:12.1.0-devel…`). A caption that says "default" is still a claim."""
    overridden: set[str] = set()
    values: list[str] = []
    passed: set[str] = set()  # the args by name: "Arguments: `CACHE_SIZE`" still says the image takes it
    for _, text in fence.lines:
        for match in _BUILD_ARG_FLAG.finditer(text):
            name = match.group(1)
            passed.add(name)
            version = _VERSION_ARG.search(name)
            overridden |= _keys(name, names)
            if version and version.start():
                overridden |= _keys(name[: version.start()], names)
            if text.startswith("=", match.end()):
                values.append(re.split(r"[\s\"']", text[match.end() + 1 :].lstrip("\"'"), maxsplit=1)[0])
    if not overridden:
        return para
    start, _, sentence = list(_sentences(para.lines))[-1]
    if _DEFAULT_WORDS.search(sentence):
        return para
    spans = [
        (start + word.start(), start + word.end())
        for word in _WORD.finditer(sentence)
        if _keys(word.group(), names) & overridden
        and (word.group() not in passed or _VERSION_NEXT.match(sentence, word.end()))
    ]
    spans += [
        (start + found.start(), start + found.end())
        for found in _CAPTION_VERSION.finditer(sentence)
        if any(re.search(rf"(?<![\d.]){re.escape(found.group())}(?![\d])", value) for value in values)
    ]
    return dataclasses.replace(para, lines=_blank(para.lines, spans)) if spans else para


_VERSION_NEXT = re.compile(r"[ \t]*v?\d")
"""A version right after a word: `CUDA 11.3` is a component's version, `` `CACHE_SIZE` `` an arg's name."""
_CAPTION_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+")


def _build_fence_after(doc: Document, lines: Sequence[str]) -> dict[int, Fence]:
    """The last line of each paragraph that a command block running a build follows (only blank lines
    between) → that block."""
    opening = {
        fence.lines[0][0] - 1: fence
        for fence in doc.fences
        if fence.lines
        and fence.lang in _COMMAND_LANGS
        and any(_BUILD_COMMAND.search(text) for _, text in fence.lines)
    }
    after: dict[int, Fence] = {}
    for para in doc.paragraphs:
        line = para.lines[-1][0] + 1
        while line <= len(lines) and not lines[line - 1].strip() and line not in opening:
            line += 1
        if line in opening:
            after[para.lines[-1][0]] = opening[line]
    return after


# --------------------------------------------------------------------------------------------------
# Build targets, "no build arguments", link texts


_TARGET_FLAG = re.compile(r"(?:^|[ \t])--target(?:[ \t]+|=)[\"']?([^\s\"'`;|&\\]+)")
_STAGE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*\Z")
_TARGETS_INTRO = re.compile(r"\b(?:build[ \t]+)?(?:targets?|stages?)\b", re.IGNORECASE)


def _build_commands(fence: Fence) -> Iterator[list[tuple[int, str]]]:
    """The lines of each build command (`docker build`, continued lines too) of a command block."""
    if fence.lang not in _COMMAND_LANGS:
        return
    command: list[tuple[int, str]] = []
    for line, text in fence.lines:
        if command or _BUILD_COMMAND.search(text):
            command.append((line, text))
        if command and not text.rstrip().endswith("\\"):
            yield command
            command = []
    if command:
        yield command


_PASSES_MORE = re.compile(r"\$|--build-arg-file|\.\.\.|…|<[\w-]+>|\{[\w-]+\}")
"""A build command that passes more than it shows: `$BUILD_ARGS`, `--build-arg-file`, `...`, `<args>`."""


def _unpassed_required(doc: Document, auditor: _Auditor, text: str) -> Iterator[Diagnostic]:
    """A build command of the Dockerfile a build arg is required for (declared without a default, and
    a RUN fails without it: `ImageModel.required_args`) that does not pass it with `--build-arg`. The
    command's `-f` says which Dockerfile, else the only one the section is about. A command that may
    pass more (`$ARGS`, `...`) and a README that names the arg anywhere (`text`: it says to pass it)
    are left alone."""
    paths = [m.path for m in auditor.models]
    named: dict[str, bool] = {}  # arg → the README names it: searched once, not once a command
    for fence in doc.fences:
        for command in _build_commands(fence):
            joined = " ".join(line_text.rstrip("\\") for _, line_text in command)
            if _PASSES_MORE.search(joined):
                continue
            files = [m.group(1) for m in _FILE_FLAG.finditer(joined)]
            chosen = set().union(*(_matching(f, paths) for f in files)) if files else set()
            if not files and len(paths) == 1:
                chosen = {0}
            passed = set(_BUILD_ARG_FLAG.findall(joined))
            for index in sorted(chosen):
                model = auditor.models[index]
                for name, line in model.required_args:
                    if name not in named:
                        named[name] = re.search(rf"\b{re.escape(name)}\b", text) is not None
                    if name in passed or named[name]:
                        continue
                    yield Diagnostic(
                        auditor.path,
                        command[0][0],
                        f"README builds {model.path} without --build-arg {name}, but {model.path}:{line} "
                        f"fails the build without it ({name} has no default)",
                        confidence=LIKELY,
                    )


def _no_stage(
    line: int, target: str, models: Sequence[ImageModel], readme: str, how: str, confidence: str
) -> Diagnostic | None:
    """A diagnostic when `target` is a stage of none of `models`, with the closest stage name."""
    stages = list(dict.fromkeys(s.name for m in models for s in m.stages if s.name))
    if target.lower() in stages:
        return None
    whose = models[0].path if len(models) == 1 else "none of " + ", ".join(m.path for m in models)
    close = difflib.get_close_matches(target.lower(), stages, n=1, cutoff=0.6)
    hint = (
        f"did you mean {close[0]}?"
        if close
        else (f"its stages: {', '.join(stages)}" if stages else "it names no stage")
    )
    has = "has" if len(models) == 1 else "have"
    return Diagnostic(
        readme,
        line,
        f"README {how} {target}, but {whose} {has} no stage of that name ({hint})",
        confidence=confidence,
    )


def _dead_targets(doc: Document, auditor: _Auditor) -> Iterator[Diagnostic]:
    """`--target NAME` of a build command, and the items of a list introduced as the build targets
    (`**Build Targets**:` then `` - `image-build`: … ``), naming a stage the image has not: the
    Dockerfile of the command's `-f`, else the images the section is about. A list is checked only when
    one of its items is a stage (else it lists something else: published tags, CI jobs)."""
    paths = [m.path for m in auditor.models]
    for fence in doc.fences:
        for command in _build_commands(fence):
            files = [m.group(1) for _, text in command for m in _FILE_FLAG.finditer(text)]
            chosen = set().union(*(_matching(f, paths) for f in files)) if files else set(range(len(paths)))
            if not chosen:
                continue  # another image's command
            models = [auditor.models[i] for i in sorted(chosen)]
            for line, text in command:
                for match in _TARGET_FLAG.finditer(text):
                    target = match.group(1)
                    if _STAGE_WORD.match(target):
                        yield from _some(
                            _no_stage(line, target, models, auditor.path, "builds --target", CERTAIN)
                        )
    for para in doc.paragraphs:
        first = next((i for i, (_, text) in enumerate(para.lines) if _LIST_ITEM.match(text)), None)
        if first is None:
            continue
        lead = " ".join(text.strip() for _, text in para.lines[:first]) or para.before.strip()
        intro = lead if lead.rstrip("*_ \t").endswith((":", "：")) else para.heading
        if not _TARGETS_INTRO.search(intro):
            continue
        items = []
        for line, text in para.lines[first:]:
            item = _LIST_ITEM.match(text)
            spans = code_spans(text[item.end() :].lstrip("*_"), html_code=True) if item else []
            if spans and spans[0][0] == 0 and _STAGE_WORD.match(spans[0][2].strip()):
                items.append((line, spans[0][2].strip()))
        stages = {s.name for m in auditor.models for s in m.stages if s.name}
        hits = sum(1 for _, name in items if name.lower() in stages)
        if hits and 2 * hits >= len(items):  # (one `build` among make targets is no list of stages)
            for line, name in items:
                yield from _some(
                    _no_stage(line, name, auditor.models, auditor.path, "lists the build target", LIKELY)
                )


_NO_BUILD_ARGS = re.compile(
    r"\b(?:(?:does|do)[ \t]*(?:not|n't)[ \t]+(?:define|declare|take|accept|have|use|support|expose)"
    r"[ \t]+(?:any[ \t]+)?|(?:takes|has|defines|declares|accepts|exposes|uses|supports)[ \t]+no[ \t]+)"
    r"build[- ]?arg(?:ument)?s?\b(?![ \t,]+(?:other[ \t]+than|besides|except|apart|beyond))",
    re.IGNORECASE,
)
"""A sentence saying an image has no build args (`Dockerfile.lightweight does not define build
arguments`, `takes no build args`); "does not need any" (all have defaults) is not one."""


_AN_IMAGE = re.compile(r"\b(?:image|dockerfile|containerfile|it|this)\b", re.IGNORECASE)


def _denied_args(
    doc: Document, models: Sequence[ImageModel], tied: Mapping[int, frozenset[int]], readme: str
) -> Iterator[Diagnostic]:
    """A sentence saying that a Dockerfile (named before the words, else the one image its section is
    about) has no build arguments while it declares some a user can pass (BuildKit's platform args
    aside; an ARG used only before the first FROM counts: it can be passed)."""
    paths = [m.path for m in models]
    for para in doc.paragraphs:
        for start, _, sentence in _sentences(para.lines):
            match = _NO_BUILD_ARGS.search(sentence)
            if match is None:
                continue
            named = _files_named(sentence[: match.start()])
            if named:
                chosen = set().union(*(_matching(n, paths) for n in named))
            elif not _AN_IMAGE.search(sentence[: match.start()]):
                continue  # `The entrypoint takes no build args`: not the image
            else:
                chosen = set(tied.get(para.section, frozenset(range(len(models)))))
                chosen = chosen if len(chosen) == 1 else set()
            line = _line_at(para.lines, start + match.start())
            for index in sorted(chosen):
                rows = build_arg_rows(models[index])
                if rows:
                    more = f" (and {len(rows) - 1} more)" if len(rows) > 1 else ""
                    yield Diagnostic(
                        readme,
                        line,
                        f"README says {paths[index]} has no build arguments but "
                        f"{paths[index]}:{rows[0].line} declares {rows[0].name}{more}",
                        confidence=LIKELY,
                    )


_CONTEXT_HERE = re.compile(r"[ \t]\.[ \t]*\Z")
"""A build command whose context is the folder it runs in (`docker build -t app .`)."""


def _default_file_builds(
    doc: Document,
    models: Sequence[ImageModel],
    tied: Mapping[int, frozenset[int]],
    directory: Path,
    readme: str,
) -> Iterator[Diagnostic]:
    """A build command with no `-f` and the context `.`, in a section about one Dockerfile that is not
    the plain `Dockerfile` (`Dockerfile.gaudi`, next to the README), while a plain `Dockerfile` is there
    too: run where the README is, it builds that other file. Not when the block changes folder first."""
    if not (directory / "Dockerfile").is_file():
        return
    for fence in doc.fences:
        images = tied.get(fence.section, frozenset())
        if len(images) != 1 or any(_CD.match(text) or "pushd " in text for _, text in fence.lines):
            continue
        model = models[next(iter(images))]
        name = _basename(model.path)
        if name in ("Dockerfile", "Containerfile") or not (directory / name).is_file():
            continue
        for command in _build_commands(fence):
            joined = " ".join(text.rstrip("\\").strip() for _, text in command)
            if _FILE_FLAG.search(joined) or not _CONTEXT_HERE.search(joined):
                continue
            yield Diagnostic(
                readme,
                command[0][0],
                f"README builds with no -f, which builds the Dockerfile next to it, not {model.path} "
                "that this section is about",
                confidence=LIKELY,
            )


def _line_at(lines: list[tuple[int, str]], offset: int) -> int:
    """The README line of `offset` in `lines` joined with one space each."""
    for line, text in lines:
        if offset <= len(text):
            return line
        offset -= len(text) + 1
    return lines[-1][0]


def _misnamed_links(
    source: Sequence[str], doc: Document, readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A link whose text names a Dockerfile (`` [`a_x64.Dockerfile`](a_x86_64.Dockerfile) ``) other
    than its target, when no file of that name exists next to the README or to the target: the text
    names a file that is not there. `source`: the README's lines (`source_lines`)."""
    for number in sorted({line for line, _ in doc.links}):
        for link in links(source[number - 1]):
            if link.target is None or "://" in link.target or link.image:
                continue
            target = urllib.parse.unquote(link.target.split("#", 1)[0])
            if not is_dockerfile_name(_basename(target)):
                continue
            named = [
                n for n in _files_named(link.text) if _basename(n) not in ("Dockerfile", "Containerfile")
            ]
            if len(named) != 1 or _basename(named[0]) == _basename(target):
                continue
            folder = posixpath.dirname(target)
            if (directory / named[0]).exists() or (directory / folder / _basename(named[0])).exists():
                continue
            yield Diagnostic(
                readme,
                number,
                f"README names {named[0]} in a link to {target}; {named[0]} does not exist",
                confidence=LIKELY,
            )


def _drop_aside(doc: Document, source: Sequence[str]) -> set[int]:
    """Remove from `doc` what is about the host or the past, not the image (`aside.aside_lines`):
    sections on building or installing without the container or on what the machine needs, lists
    introduced as the host's (`is_host_intro`), sections headed `Previous versions` or `Legacy`. (Their
    links and `-f` paths were checked before: a Dockerfile they name must still exist.)"""
    titles = dict(doc.headings)
    heads = {line: (level, titles.get(line, "")) for line, level in doc.levels.items()}
    host = aside_lines(source, heads)
    doc.paragraphs[:] = [
        p
        for p in doc.paragraphs
        if p.lines[0][0] not in host
        and not is_host_intro(p.before)
        and not (len(p.lines) > 1 and is_host_intro(p.lines[0][1]))
    ]
    doc.tables[:] = [t for t in doc.tables if t.line not in host]
    doc.fences[:] = [f for f in doc.fences if not f.lines or f.lines[0][0] not in host]
    return host  # the headings stay: they still tell what a dead reference's section is about


def _set_aside(
    doc: Document,
    source: Sequence[str],
    models: Sequence[ImageModel],
    siblings: Sequence[str],
    names: Mapping[str, str],
) -> None:
    """Blank out in `doc`'s paragraphs what is not a claim about the audited images: sentences about
    other images (`_about_other_images`), what is gone or another component's requirement
    (`_not_current`) and, in the caption of a build command, the components the
    command sets (`_captioned`)."""
    ours, others = _other_images_words(models, siblings)
    after = _build_fence_after(doc, source)
    paragraphs = []
    for para in doc.paragraphs:
        para = _not_current(_about_other_images(para, ours, others))
        fence = after.get(para.lines[-1][0])
        paragraphs.append(_captioned(para, fence, names) if fence is not None else para)
    doc.paragraphs[:] = paragraphs
