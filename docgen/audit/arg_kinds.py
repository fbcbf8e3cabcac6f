"""Build args a README tells to set as something else, which reaches nothing:

- as environment variables of the build: `CUDA_MINOR=4 docker build .`, or `export CUDA_MINOR=4` before
  it in the block, while the Dockerfile's `ARG CUDA_MINOR=8` gets only what `--build-arg` passes (a bare
  `--build-arg CUDA_MINOR` takes the environment's value; docker build reads no other variable of it):
  the build keeps the default (`env_built_args`, `certain`);
- as the Dockerfile's ENV: `You can change the versions by editing the Dockerfile ENV before building`,
  while no ENV of the Dockerfile sets a version and the versions are ARGs, set with `--build-arg` with no
  edit (`env_said_args`, `likely`: the README may mean ARG lines loosely).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import command_words, fence_commands, joined, without_prompt
from docgen.audit.wording import claims_said
from docgen.build_scripts import BUILD, DOCKER_PODMAN, container_command
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.markdown import Document
from docgen.model import ArgDecl, Diagnostic, ImageModel

_ONE_SET = r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s;&|#]*)"
_SETS = re.compile(rf"(?:export[ \t]+)?(?:{_ONE_SET}[ \t]*)+")
"""A step of assignments alone (`export A=1`, `A=1 B=2`): the shell keeps them for the later steps."""
_SET = re.compile(_ONE_SET)
_PREFIX = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s;&|#]*)[ \t]+")
"""One `NAME=value ` word in front of a command."""
_TOOLS_OWN = re.compile(
    r"(?:DOCKER|BUILDKIT|BUILDX|COMPOSE|PODMAN|BUILDAH|CONTAINERS|REGISTRY_AUTH)(?:_\w*)?"
)
"""Variables the build tool itself reads (`DOCKER_BUILDKIT=1`, `BUILDX_BUILDER`)."""
_ENTERS = re.compile(
    container_command("run|exec", DOCKER_PODMAN, container=False, compose=True) + r"|\bssh[ \t]"
)
"""A command after which a block's lines may run in a container or on another host."""


def _declarations(models: Sequence[ImageModel]) -> dict[str, tuple[ImageModel, ArgDecl]]:
    """Each declared arg → the first declaration of it that has a default, else the first."""
    found: dict[str, tuple[ImageModel, ArgDecl]] = {}
    for model in models:
        for decl in model.args:
            held = found.get(decl.name)
            if held is None or (held[1].raw_default is None and decl.raw_default is not None):
                found[decl.name] = (model, decl)
    return found


def _prefixes(text: str, start: int) -> dict[str, str]:
    """The `NAME=value` words right in front of the command starting at `start` of `text`."""
    step = re.split(r"&&|\|\||;|\|", text[:start])[-1]
    step = re.sub(r"^[ \t]*(?:sudo[ \t]+(?:-E[ \t]+)?)?", "", without_prompt(step.strip()) + " ")
    given: dict[str, str] = {}
    at = 0
    while (match := _PREFIX.match(step, at)) is not None:
        given[match.group(1)] = match.group(2).strip("\"'")
        at = match.end()
    return given if step[at:].strip() in ("", "sudo", "env") else {}


def env_built_args(doc: Document, models: Sequence[ImageModel], path: str) -> Iterator[Diagnostic]:
    """A `docker build` of a README command block given a build arg of the audited Dockerfiles only as
    an environment variable (a `NAME=value` prefix, an `export` or assignment earlier in the block),
    with a value other than the arg's default, and no word of the build naming it (`--build-arg NAME`,
    `$NAME`): the build keeps the default (`certain`)."""
    declared = _declarations(models)
    if not declared:
        return
    for fence in doc.fences:
        shell: dict[str, tuple[str, int]] = {}
        told: set[tuple[str, int]] = set()  # (an export is told once, at the first build it misses)
        for command in fence_commands(fence):
            text = joined(command)
            line = command[0][0]
            if _ENTERS.search(text):
                break
            build = BUILD.search(text)
            if build is None:
                for step in re.split(r"&&|\|\||;", without_prompt(text.strip())):
                    step = re.sub(r"(?:^|[ \t])#.*", "", step).strip()  # (`A=1 ./build.sh` is the script's)
                    if _SETS.fullmatch(step):
                        shell.update(
                            {m.group(1): (m.group(2).strip("\"'"), line) for m in _SET.finditer(step)}
                        )
                continue
            words = command_words(command, BUILD)
            if words is None:
                continue
            given = dict(shell)
            given.update({n: (v, line) for n, v in _prefixes(text, build.start()).items()})
            for name, (value, at) in given.items():
                held = declared.get(name)
                if (
                    held is None
                    or name in PREDEFINED_ARGS | PROXY_ARGS
                    or _TOOLS_OWN.fullmatch(name)
                    or not value
                    or "$" in value
                ):
                    continue
                if any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", w) for w in words):
                    continue
                model, decl = held
                if decl.default == value or not decl.used_lines or (name, at) in told:
                    continue
                told.add((name, at))
                keeps = f"its default {decl.default}" if decl.default else "no value (it has no default)"
                how = f"set at line {at}" if at != line else "set in front of it"
                yield Diagnostic(
                    path,
                    line,
                    f"README's docker build gets {name}={value} from the environment ({how}), but docker "
                    f"build passes no environment variable to the Dockerfile unless --build-arg names it: "
                    f"{model.path}:{decl.line} ARG {name} keeps {keeps} (pass --build-arg {name}={value})",
                    confidence=CERTAIN,
                )


_ENV_SAID = re.compile(
    r"(?:\bDockerfile(?:'s)?[ \t]+`?ENV`?\b|`ENV`"
    r"|\bENV[ \t]+(?:variables?|values?|lines?|instructions?|settings?)\b"
    r"|\bENV\b(?=[ \t]+(?:in|of)[ \t]+(?:the[ \t]+)?Dockerfile))"
)
"""The Dockerfile's ENV named as where settings are made (`modify the Dockerfile ENV`, `the ENV lines`)."""
_CHANGE = re.compile(
    r"\b(?:chang\w*|modif\w*|edit\w*|adjust\w*|set(?:ting)?|select\w*|choos\w*|pick\w*|customi[sz]\w*)\b",
    re.IGNORECASE,
)
_VERSIONS = re.compile(r"\bversions?\b", re.IGNORECASE)
_NOT_A_CLAIM = re.compile(
    r"\b(?:docker[ \t]+run|-e[ \t]|--env\b|runtime|run[ \t-]time|container[ \t]+start)", re.I
)
_VERSION_NAME = re.compile(r"(?:^|_)(?:VERSION|VER|MAJOR|MINOR|PATCH|PATCHLEVEL|RELEASE|TAG)(?:_|$)", re.I)


def env_said_args(doc: Document, models: Sequence[ImageModel], path: str) -> Iterator[Diagnostic]:
    """A README sentence telling to change versions through the Dockerfile's ENV, while no ENV of the
    audited Dockerfiles sets a version-named variable and ARGs named for versions hold them (`likely`)."""
    if any(_VERSION_NAME.search(env.name) for model in models for env in model.env):
        return
    held = [
        (model, decl)
        for model in models
        for decl in model.args
        if _VERSION_NAME.search(decl.name) and decl.raw_default is not None and decl.used_lines
    ]
    if not held:
        return
    for line, claim in claims_said(doc, _ENV_SAID, _NOT_A_CLAIM):
        sentence = claim.string
        if not (_CHANGE.search(sentence) and _VERSIONS.search(sentence)):
            continue
        shown = ", ".join(f"{d.name}={d.raw_default} (line {d.line})" for _, d in held[:4])
        more = f" and {len(held) - 4} more" if len(held) > 4 else ""
        paths = ", ".join(dict.fromkeys(m.path for m, _ in held))
        yield Diagnostic(
            path,
            line,
            f"README says the versions are changed through the Dockerfile's ENV, but no ENV of {paths} sets "
            f"a version: they are build args, ARG {shown}{more}, set with --build-arg NAME=VALUE without "
            "editing the Dockerfile",
            confidence=LIKELY,
        )
        return
