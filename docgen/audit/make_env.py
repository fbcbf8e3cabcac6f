"""Build args a README sets for `make TARGET` that the target's image build never passes: `export
ROCM_GPU_ARCH=gfx1100` then `make build` (or `ROCM_GPU_ARCH=gfx1100 make build`, `make build
ROCM_GPU_ARCH=gfx1100`), while the recipe of `build:` runs `docker build --build-arg ROCM_VERSION=…`
alone: the Dockerfile's `ARG ROCM_GPU_ARCH=gfx1151` keeps its default and the image is not the one the
README asks for.

Read: the export lines of a command block before its `make` command, the `NAME=value` words of the
command; the Makefile in the README's folder, the recipes of the target and of its prerequisites
(`docgen.makefile.target_recipe`), each script they run. A name is told when it is an `ARG` the
Dockerfile of a build of the target uses, with a default other than the README's value, and no build
of the target holds the name (`--build-arg NAME=$(NAME)`, a bare `--build-arg NAME`, `$$NAME`, a
variable whose value holds it). Nothing is told when the makefile exports the name or every variable,
computes variable names (`$($(V))`, `.VARIABLES`), a recipe runs `make`, `docker compose` or `docker
buildx bake` (which read the environment), a script that holds the name or cannot be read, or an
interpreter's inline code. `certain` when every command of the recipe is read; `likely` when one is a
program docgen does not know or the build expands a variable the makefile does not set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY, also_at
from docgen.audit.commands import without_prompt
from docgen.audit.make_targets import makefile_in, makefile_text, named_targets
from docgen.audit.make_vars import ASSIGNED, BLIND, ELSEWHERE, INTERPRETERS, MAKE
from docgen.audit.wording import COMMAND_LANGS
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import ArgDecl, Diagnostic, ImageModel

_EXPORT = re.compile(r"(?:^|[;&][ \t]*)export[ \t]+([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s;&|#]*)")
_CD = re.compile(r"(?:^|&&|;)[ \t]*(?:pushd|cd)[ \t]")
_SOURCES = re.compile(r"(?:^|[;&|][ \t]*|\n[ \t]*)(?:source|\.)[ \t]+\S", re.MULTILINE)
"""A script that reads another file into itself (`source env.sh`, `. ./common.sh`)."""


def _settings(doc: Document) -> Iterator[tuple[int, list[str], dict[str, tuple[str, int]]]]:
    """(line, make's words, the variables it gets → (value, README line)) of each `make` command of a
    command block, with the block's `export NAME=value` lines before it, up to a `cd` or a command that
    runs elsewhere (a container, a clone, a remote host)."""
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        exported: dict[str, tuple[str, int]] = {}
        for line, text in fence.lines:
            command = without_prompt(text.strip())
            if command.startswith("#"):
                continue
            if ELSEWHERE.search(command) or _CD.search(command):
                break
            for export in _EXPORT.finditer(command):
                exported[export.group(1)] = (export.group(2).strip("\"'"), line)
            for part in re.split(r"&&|;|\|\|", command):
                make = MAKE.search(part.strip())
                if make is None:
                    continue
                words = make.group(2).split()
                given = dict(exported)
                for word in [*make.group(1).split(), *words]:
                    if (assigned := ASSIGNED.fullmatch(word)) is not None:
                        given[assigned.group(1)] = (assigned.group(2).strip("\"'"), line)
                if given:
                    yield line, words, given


def _script_holds(path: Path, name: str) -> bool | None:
    """Whether the script at `path` may hand `name` on: it names it or reads another file into itself;
    None when it cannot be read."""
    text = text_or_none(path)
    if text is None:
        return None
    return bool(re.search(rf"(?<![\w]){re.escape(name)}(?!\w)", text)) or bool(_SOURCES.search(text))


def _others_read(recipe: makefile.TargetRecipe, name: str, directory: Path) -> bool | None:
    """How the commands of `recipe` other than its image builds may read `name` of the environment:
    True when one may hand it on (nothing is told), False when none does and every one was read,
    None when one is a program docgen does not know."""
    known = True
    for command in recipe.others:
        words = command.words
        program = words[0]
        if program in ("make", "gmake", "$MAKE") or program.endswith("/make") or program == "docker-compose":
            return True
        if program in ("docker", "podman") and any(w in ("compose", "bake", "stack") for w in words[1:3]):
            return True
        if name in " ".join(words):
            return True
        if program in BLIND or program.startswith("$"):
            continue
        script = None
        if program in INTERPRETERS:
            if "-c" in words[1:] or "-m" in words[1:]:
                return True
            rest = [w for w in words[1:] if not w.startswith("-")]
            script = rest[0] if rest else None
        elif "/" in program or re.search(r"\.(?:sh|py|bash)\Z", program):
            script = program
        if script is None:
            known = False
            continue
        if "$" in script or _script_holds(directory / script, name) is not False:
            return True
    return False if known else None


def _arg_of(
    models: Sequence[ImageModel], dockerfile: str, directory: Path, name: str
) -> tuple[str, ArgDecl] | None:
    """(Dockerfile shown, the ARG declaration) of `name` in the audited Dockerfile a build reads, when
    the Dockerfile uses the arg; None otherwise."""
    wanted = real_path(directory / dockerfile)
    for model in models:
        if real_path(directory / model.path) != wanted:
            continue
        used = [d for d in model.args if d.name == name and d.used_lines]
        return (model.path, used[0]) if used else None
    return None


def make_env(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A build arg the README sets for `make TARGET` (an export before it, `NAME=value` on its line)
    that the target's image build never passes (see the module's docstring): `README sets
    ROCM_GPU_ARCH=gfx1100 for make build, but the docker build of its recipe (Makefile:27) does not
    pass ROCM_GPU_ARCH: Dockerfile keeps ARG ROCM_GPU_ARCH=gfx1151 (line 15)`."""
    path = makefile_in(directory)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None or makefile.COMPUTED.search(text):
        return  # a variable name computed (`$($(V))`, `.VARIABLES`): any name may be passed
    told: set[str] = set()
    recipes: dict[str, makefile.TargetRecipe | None] = {}
    for line, words, given in _settings(doc):
        targets = named_targets(words)
        if not targets:
            continue
        for target in targets:
            if target not in recipes:
                recipes[target] = makefile.target_recipe(text, target)
            recipe = recipes[target]
            if recipe is None or not recipe.builds or recipe.exports_all:
                continue
            for name, (value, set_at) in given.items():
                if name in told or name in recipe.exported or not value or "$" in value or "`" in value:
                    continue
                if any(name in b.words for b in recipe.builds):
                    continue
                others = _others_read(recipe, name, directory)
                if others is True:
                    continue
                for build in recipe.builds:
                    found = _arg_of(models, build.dockerfile, directory, name) if build.dockerfile else None
                    if found is None:
                        continue
                    shown, decl = found
                    if decl.default is not None and decl.default == value:
                        continue
                    keeps = (
                        f"keeps ARG {name}={decl.default}"
                        if decl.default is not None
                        else f"leaves ARG {name} unset"
                    )
                    sure = others is False and not build.unknown
                    told.add(name)
                    yield Diagnostic(
                        readme,
                        line,
                        f"README sets {name}={value} for make {target}, but the image build of its recipe "
                        f"({path.name}:{build.line}) does not pass {name}: {shown} {keeps} "
                        f"(line {decl.line})" + also_at([line, set_at]),
                        confidence=CERTAIN if sure else LIKELY,
                    )
                    break
