"""Build commands of a README that cannot work for the image they build: a `--platform` the base image
is not published for, or `--build-arg` values that make the FROM reference invalid.

The command's words are read as the shell reads them; the Dockerfile is the one its `-f` names (else
the only one audited, built from its own folder), the stage its `--target` names (else the last one),
and the base the first stage of that chain starts from, its FROM expanded with the command's
`--build-arg` values over the global ARG defaults, as BuildKit expands it:

- a platform the base cannot be: an image of Docker Hub's per-architecture namespaces (`amd64/debian`,
  `arm64v8/ubuntu`, `ppc64le/…`) is published for that architecture only, so `--platform linux/arm64`
  over `amd64/debian:stable-slim` fails (`certain`), and so does `linux/amd64` over an L4T image
  (`nvcr.io/nvidia/l4t-*`, arm64 only) or `linux/arm64` over `nvidia/cuda` of CUDA 10 (amd64 only:
  `base_contents.architectures`); a base whose name or tag carries another architecture as a word
  (`…:1.2-amd64`, `…-x86_64`) most likely holds that one only (`likely`). A FROM with its own
  `--platform` (`--platform=$BUILDPLATFORM`) is pulled for that platform and not read.
- an invalid reference: the expanded FROM is neither a stage nor an image reference Docker accepts
  (`debian_stable_base:local:` once `INTERNAL_TAG=""` empties the tag after the second colon), when the
  command passes one of the args it names (`certain`).

A command whose values the shell fills in (`$ARCH`, `<tag>`) or that passes an arg from the environment
(`--build-arg NAME`) is not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen import shell
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_commands, command_words
from docgen.audit.paths import path_named
from docgen.base_contents import architectures
from docgen.build_scripts import BUILD
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Stage

_ARCHES: dict[str, str] = {
    "amd64": "amd64",
    "x86_64": "amd64",
    "x86-64": "amd64",
    "arm64": "arm64",
    "aarch64": "arm64",
    "arm64v8": "arm64",
    "arm": "arm",
    "armhf": "arm",
    "armv7": "arm",
    "arm32v5": "arm",
    "arm32v6": "arm",
    "arm32v7": "arm",
    "386": "386",
    "i386": "386",
    "ppc64le": "ppc64le",
    "s390x": "s390x",
    "riscv64": "riscv64",
    "mips64le": "mips64le",
}
"""Architecture words of a platform or an image name → GOARCH, the name `--platform` uses."""
_NAMESPACES = frozenset(
    {"amd64", "arm64v8", "arm32v5", "arm32v6", "arm32v7", "i386", "ppc64le", "s390x", "riscv64", "mips64le"}
)
"""Docker Hub's per-architecture namespaces of the official images, each published for one architecture."""
_TAG_ARCH_WORDS = ("amd64", "x86_64", "arm64", "aarch64", "arm64v8", "ppc64le", "s390x")
"""Architecture words a single-architecture image carries in its name or tag."""
_ARCH_WORD = re.compile(r"(?<![a-z0-9])(" + "|".join(_TAG_ARCH_WORDS) + r")(?![a-z0-9])")
_FILLED_IN = re.compile(r"\$|<[^<>]*>|\{[^{}]*\}|…|\.\.\.")
"""A value the shell or the reader fills in: `$ARCH`, `<tag>`, `{version}`, `...`."""
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_REFERENCE = re.compile(
    r"(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
    r"(?::[0-9]+)?|\[[0-9A-Fa-f:]+\](?::[0-9]+)?)/)?"
    rf"{_COMPONENT}(?:/{_COMPONENT})*"
    r"(?::[\w][\w.-]{0,127})?"
    r"(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?\Z"
)
"""An image reference as Docker's reference grammar accepts it: `[host[:port]/]path[:tag][@digest]`."""
_EMPTY = '""'
"""An empty value, as a command shows it."""


def build_platforms(doc: Document, models: Sequence[ImageModel], readme: str) -> Iterator[Diagnostic]:
    """The build commands of `doc`'s command blocks whose platform or build args the base image their
    Dockerfile starts from cannot take (see the module's docstring)."""
    for fence in doc.fences:
        for command in build_commands(fence):
            words = command_words(command, BUILD)
            if words is None:
                continue
            read = _read(words)
            if read is None:
                continue
            file, platforms, passed, target, contexts = read
            model = _built(file, models)
            if model is None:
                continue
            stage = _root(model, target)
            if stage is None:
                continue
            yield from _compare(readme, command[0][0], model, stage, platforms, passed, contexts)


def _read(
    words: list[str],
) -> tuple[str | None, list[str], dict[str, str], str | None, frozenset[str]] | None:
    """(`-f`, `--platform` values, `--build-arg` values, `--target`, `--build-context` names) of a build
    command's words; None when a value is filled in or an arg comes from the environment."""
    file: str | None = None
    target: str | None = None
    platforms: list[str] = []
    passed: dict[str, str] = {}
    contexts: set[str] = set()  # named contexts: one may stand for the FROM's image
    index = 0
    while index < len(words):
        word = words[index]
        name, eq, value = word.partition("=")
        if name in ("-f", "--file", "--platform", "--build-arg", "--target", "--build-context") and not eq:
            if index + 1 >= len(words):
                return None
            value = words[index + 1]
            index += 1
        index += 1
        if name in ("-f", "--file"):
            file = value
        elif name == "--target":
            target = value
        elif name == "--platform":
            if _FILLED_IN.search(value):
                return None
            platforms.extend(p for p in value.split(",") if p)
        elif name == "--build-context":
            contexts.add(value.partition("=")[0])
        elif name == "--build-arg":
            arg, has_value, arg_value = value.partition("=")
            if not has_value or _FILLED_IN.search(arg_value):
                return None
            passed[arg] = arg_value
    if file is not None and _FILLED_IN.search(file):
        return None
    return file, platforms, passed, target, frozenset(contexts)


def _built(file: str | None, models: Sequence[ImageModel]) -> ImageModel | None:
    """The audited Dockerfile a build command's `-f` names (`paths.path_named`); without `-f`, the only
    one."""
    if file is None:
        return models[0] if len(models) == 1 else None
    index = path_named(file, [m.path for m in models])
    return models[index] if index is not None else None


def _root(model: ImageModel, target: str | None) -> Stage | None:
    """The first stage of the chain the build ends on: `target`'s, else the last stage's."""
    stages = model.stages
    if not stages:
        return None
    stage = stages[-1] if target is None else model.stage_named(target)
    if stage is None:
        return None  # a target no stage has: `builds` says so
    seen = 0
    while stage.parent is not None and seen < len(stages):
        stage = stages[stage.parent]
        seen += 1
    return stage


def _compare(
    readme: str,
    line: int,
    model: ImageModel,
    stage: Stage,
    platforms: list[str],
    passed: dict[str, str],
    contexts: frozenset[str] = frozenset(),
) -> Iterator[Diagnostic]:
    """The findings of one build command: its FROM made invalid, or a platform its base is not for."""
    named = shell.referenced_names(stage.base_raw)
    values: dict[str, shell.Value] = {}
    for arg in model.args:
        if arg.scope == "global" and arg.name not in values:
            if arg.unknown is not None or (arg.default is None and not arg.bare):
                values[arg.name] = shell.Unknown(arg.unknown or "not known")
            elif arg.default is not None:
                values[arg.name] = arg.default
            # (a bare ARG nobody passes is unset: BuildKit makes it empty)
    declared = {arg.name for arg in model.args if arg.scope == "global"}
    values.update({k: v for k, v in passed.items() if k in declared})
    try:
        expanded = shell.expand(stage.base_raw, values)
    except shell.ExpansionError:
        return
    if not expanded.known:
        return
    base = expanded.text
    stage_names = {s.name.lower() for s in model.stages if s.name}
    if base.lower() in stage_names or base == "scratch":
        return
    if base in contexts or base.rsplit(":", 1)[0] in contexts:
        return  # `--build-context NAME=…` replaces the image the FROM names
    given = sorted(n for n in named if n in passed)
    if given and not _REFERENCE.match(base):
        shown = ", ".join(f"{n}={passed[n] or _EMPTY}" for n in given)
        yield Diagnostic(
            readme,
            line,
            f"README builds {model.path} with --build-arg {shown}, which makes {model.path}:{stage.line} "
            f"FROM {stage.base_raw} the invalid image reference {base!r}",
            confidence=CERTAIN,
        )
        return
    if stage.platform is not None or not platforms:
        return
    arch, confidence = _base_arch(base)
    if arch is None:
        return
    for platform in platforms:
        wanted = _platform_arch(platform)
        if wanted is not None and wanted != arch:
            yield Diagnostic(
                readme,
                line,
                f"README builds {model.path} for --platform {platform}, but {model.path}:{stage.line} starts "
                f"FROM {base}, an image for {arch} only",
                confidence=confidence,
            )
            return


def takes_base(base: str, model: ImageModel) -> bool:
    """True when BuildKit takes `base`, a FROM as expanded, as a stage of `model`, `scratch` or an image
    reference (`_REFERENCE`); an empty base is none of them."""
    if base == "scratch" or base.lower() in {s.name.lower() for s in model.stages if s.name}:
        return True
    return _REFERENCE.match(base) is not None


def _platform_arch(platform: str) -> str | None:
    """The architecture of a `--platform` value (`linux/arm64/v8` → arm64, `linux/x86_64` → amd64)."""
    parts = platform.lower().split("/")
    word = parts[1] if len(parts) > 1 else parts[0]
    return _ARCHES.get(word)


def _base_arch(base: str) -> tuple[str | None, str]:
    """The one architecture an image reference is for, and how sure: Docker Hub's namespace
    (`amd64/debian`, `certain`), a family published for one (`base_contents.architectures`: L4T,
    `certain`), or one architecture word in its name or tag (`likely`)."""
    reference = base.split("@", 1)[0].lower()
    parts = reference.split("/")
    if len(parts) > 1 and parts[0] in ("docker.io", "index.docker.io", "registry-1.docker.io"):
        parts = parts[1:]
    if len(parts) == 2 and parts[0] in _NAMESPACES:
        return _ARCHES[parts[0]], CERTAIN
    published = architectures(base)
    if len(published) == 1:
        return next(iter(published)), CERTAIN  # L4T: arm64 only; CUDA 10: amd64 only
    last = parts[-1]
    words = {_ARCHES[w] for w in _ARCH_WORD.findall(last)}
    if len(words) == 1:
        return words.pop(), LIKELY
    return None, LIKELY
