"""An image a README saves, pushes or tags right after its own builds, under a tag none of them gives:
`docker build -t $(cat TAG) .` in `icon-gpu/` (whose TAG file reads `acme/hpc:21.3-runtime-icon-gpu`),
then `docker save acme/hpc:21.3-devel-icon -o icon.tar`. `docker save`, `docker push` and the source of
`docker tag` take an image that is there already (none pulls it), so a tag of the README's own
repository that no build, tag or pull of the README gives fails the command ("No such image").

The names the builds give are read from their `-t` (`--tag`, `buildah bud --tag`): a literal, or
`$(cat FILE)` read as the first line of FILE in the folder the build runs in (the README's folder, or
the folder its last `cd` names: every folder of the project whose path ends with the `cd`'s path, each
holding FILE). Told (`likely`) only when the image is of a repository a build of the README tags
(`acme/hpc`), its tag is none a build or `docker tag` of the README gives, none it pulls, no base an
audited Dockerfile starts from, and every name the README's builds give is known: silent when a build
tags through a variable, a placeholder or a file not found, when the README runs a script, `make`,
compose or bake (which may tag anything), loads, imports or commits an image, or pulls the repository
under a tag it does not write; a name the reader picks (`your`, `my`, `example`, a placeholder) is not
read. A `docker run` is not read: it pulls a tag published under that name.

And a push, save or tag source naming an image that nothing of the README makes while a name it makes
is a slip away (`_slipped`: `<you>/midspore:latest` tagged, `<you>/mindspore:latest` pushed; `certain`),
placeholders read as part of the name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import (
    CD_STEP,
    PICKED,
    fence_commands,
    image_repository,
    image_tag,
    joined,
    tagged_reference,
    without_prompt,
)
from docgen.audit.make_targets import makefile_in, makefile_text
from docgen.audit.references import command_lines, project_top
from docgen.audit.versions import differing, one_slip
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_TAG = re.compile(
    r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)[\"']?(\$\(cat[ \t]+[^\s()\"'`;|&]+[ \t]*\)|[^\s\"'`;|&]+)"
)
"""The `-t` value of a build: a literal, or `$(cat FILE)`."""
_CAT = re.compile(r"\$\(cat[ \t]+([\w./-]+)[ \t]*\)\Z")
_HANDLED = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?P<verb>save|push|tag)[ \t]+(?P<rest>[^;&|#]*)"
)
"""A command taking an image that must be there: `docker save`, `docker push`, `docker tag SRC DEST`."""
_SAVE_VALUES = frozenset({"-o", "--output", "--platform"})
_PULL = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?pull[ \t]+(?:-\S+[ \t]+)*([^\s`;&|]+)")
_ANY_IMAGE = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+|container[ \t]+)?(?:load|import|commit)\b"
    r"|\bcompose\b|\bbake\b|\bmake\b|\bjust\b|\.sh\b|\.bash\b|\.py\b|\bbuildx[ \t]+bake\b"
)
"""A command that may give any image a name the README does not show."""
_MAX_FOLDERS = 2000
"""The folders of the project looked through for those a `cd` may name, at most."""


class _Folders:
    """The folders of the project, read once, and those a `cd` path may name."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self._all: list[Path] | None = None

    def ending(self, path: str) -> list[Path] | None:
        """The folders whose path ends with `path` (`..` and `.` parts dropped); None when the project
        holds too many folders to read."""
        parts = [p for p in path.split("/") if p not in ("", ".", "..")]
        if not parts:
            return None
        if self._all is None:
            found: list[Path] = []
            for seen, (folder, subfolders, _) in enumerate(os.walk(self.top)):
                if seen >= _MAX_FOLDERS:
                    return None
                subfolders[:] = [d for d in subfolders if not d.startswith(".") and d != "node_modules"]
                found.append(Path(folder))
            self._all = found
        return [f for f in self._all if list(f.relative_to(self.top).parts[-len(parts) :]) == parts]


def _made(value: str, folders: Sequence[Path]) -> list[str] | None:
    """The names a `-t` value gives: itself, or the first line of FILE in each of `folders` for `$(cat
    FILE)`; None when it cannot be told (a variable, a placeholder, a file not found)."""
    cat = _CAT.match(value)
    if cat is None:
        return None if re.search(r"[$<>{}`*]", value) else [value]
    names: list[str] = []
    for folder in folders:
        text = text_or_none(folder / cat.group(1))
        lines = (text or "").strip().splitlines()
        if not lines or re.search(r"[\s$<>{}`]", lines[0].strip()):
            return None
        names.append(lines[0].strip())
    return names or None


def _operands(rest: str) -> list[str]:
    """The words of a `docker save` / `push` / `tag` that are no option nor an option's value; a
    placeholder written with spaces (`<your docker name>/app`) is one word."""
    words: list[str] = []
    for word in rest.split():
        if words and words[-1].count("<") > words[-1].count(">"):
            words[-1] += " " + word
        else:
            words.append(word)
    found: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-"):
            index += 2 if word in _SAVE_VALUES else 1
            continue
        found.append(word.strip("\"'"))
        index += 1
    return found


def _opaque(image: str) -> bool:
    """True when what an image is named cannot be read: its own name (the repository's last part) is a
    variable or a pattern (`$IMAGE`, `app-*`), or it is made by a command (`$(…)`, backquotes)."""
    last = image_repository(image).rsplit("/", 1)[-1]
    return not last or "$(" in image or "`" in image or re.search(r"[$*{}]", last) is not None


def _bases(models: Sequence[ImageModel]) -> set[str]:
    """The images the audited Dockerfiles start from (`FROM`, as written), with their tags."""
    return {tagged_reference(stage.base_raw) for model in models for stage in model.stages}


def saved_images(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[Diagnostic]:
    """The `docker save`, `docker push` and `docker tag` sources of `doc` naming a tag of a repository the
    README builds that none of its builds, tags or pulls gives, and those naming an image a slip away
    from one they give (`_slipped`; see the module)."""
    top = project_top(directory, project)
    folders = _Folders(top)
    here: list[Path] = [directory]
    made: dict[str, str] = {}  # name → where it comes from (`icon-gpu/TAG`)
    picked: dict[str, str] = {}  # a name of a placeholder (`<your name>/app`) → where
    pulled: set[str] = set()
    handled: list[tuple[int, str, str]] = []  # (README line, verb, image)
    exact = True  # every name is known: a tag none gives is told
    others = False  # a script, make, compose or bake run: any name their files write may be made
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, code in command_lines(fence, joined=True):
            for step in re.split(r"&&|\|\||;", code):
                step = without_prompt(step.strip()).removeprefix("sudo ").strip()
                cd = CD_STEP.match(step)
                if cd is not None:
                    target = (cd.group(1) or "").strip("\"'")
                    found = (
                        folders.ending(target) if target and not re.search(r"[$~<>{}`*]", target) else None
                    )
                    if found is None:
                        exact = False  # a folder that cannot be told: a `$(cat FILE)` of it is not known
                    here = found or []
                    continue
                if _ANY_IMAGE.search(step):
                    if _UNNAMED.search(step):
                        return  # an image by any name
                    exact, others = False, True
                    continue
                if BUILD.search(step):
                    for match in _TAG.finditer(step):
                        value = match.group(1)
                        names = _made(value, here)
                        if names is None:
                            exact = False
                            if _CAT.match(value) or _opaque(value):
                                return
                            picked.setdefault(tagged_reference(value), f"-t at line {line}")
                            continue
                        cat = _CAT.match(value)
                        if cat is None:
                            made.setdefault(tagged_reference(names[0]), f"-t at line {line}")
                            continue
                        for name, folder in zip(names, here, strict=True):
                            made.setdefault(
                                tagged_reference(name), os.path.relpath(folder / cat.group(1), directory)
                            )
                    continue
                pull = _PULL.search(step)
                if pull is not None:
                    pulled.add(pull.group(1).strip("\"'"))
                    continue
                handle = _HANDLED.search(step)
                if handle is None:
                    continue
                operands = _operands(handle.group("rest"))
                if handle.group("verb") == "tag":
                    if len(operands) != 2 or _opaque(operands[1]):
                        return
                    into = picked if PICKED.search(operands[1]) else made
                    exact = exact and into is made
                    into.setdefault(tagged_reference(operands[1]), f"docker tag at line {line}")
                    operands = operands[:1]
                if made or picked:
                    handled += [(line, handle.group("verb"), o) for o in operands]
    if any(_opaque(p) for p in pulled):
        return  # `docker pull $IMAGE`: any image may be there
    yield from _slipped(handled, {**picked, **made}, pulled, models, readme, top if others else None)
    if not made or not exact:
        return
    repositories = {image_repository(name) for name in made}
    if any(PICKED.search(p) for p in pulled):
        return  # `docker pull acme/hpc:$TAG`: any tag may be there
    known = set(made) | {tagged_reference(p) for p in pulled} | _bases(models)
    for line, verb, image in handled:
        if (
            PICKED.search(image)
            or tagged_reference(image) in known
            or image_repository(image) not in repositories
        ):
            continue
        repository = image_repository(image)
        given = sorted(n for n in made if image_repository(n) == repository)
        shown = ", ".join(f"{n} ({made[n]})" for n in given)
        yield Diagnostic(
            readme,
            line,
            f"README runs docker {verb} {image}, but its builds tag {repository} only as {shown}: "
            f"no build, tag or pull of the README makes {tagged_reference(image)}",
            confidence=LIKELY,
        )


_UNNAMED = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+|container[ \t]+)?(?:load|import|commit)\b")
"""A command that gives an image a name no build or tag of the README shows (`docker load`)."""
_WRITERS = re.compile(r"(?i)(?:\A(?:makefile|gnumakefile|justfile)\Z|\.(?:sh|bash|mk|py|ya?ml|hcl|json)\Z)")
"""The files a script, make, compose or bake run may read the names it gives from."""
_MAX_FILES = 2000


def _named_in_project(name: str, top: Path) -> bool:
    """True when a script, makefile, compose or bake file of the project (`_WRITERS`) names `name`, or the
    project has more such files than docgen reads."""
    seen = 0
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = [d for d in subfolders if not d.startswith(".") and d != "node_modules"]
        for file in files:
            if not _WRITERS.search(file):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return True
            text = text_or_none(Path(folder) / file)
            if text is not None and name in text:
                return True
    return False


def _slipped(
    handled: Sequence[tuple[int, str, str]],
    given: dict[str, str],
    pulled: set[str],
    models: Sequence[ImageModel],
    readme: str,
    top: Path | None,
) -> Iterator[Diagnostic]:
    """A `docker push`, `save` or `tag` source naming an image no build, tag or pull of the README gives
    while one it gives is a slip away (`acme/midspore:latest` tagged, `acme/mindspore:latest` pushed): the
    command fails with "No such image" (`certain`). A placeholder is part of the name (`<your docker
    name>/app` on both sides is the same name). `top`: the project, when the README runs a script,
    make, compose or bake, whose files must not name the image either."""
    known = set(given) | {tagged_reference(p) for p in pulled} | _bases(models)
    for line, verb, image in handled:
        if _opaque(image) or tagged_reference(image) in known:
            continue
        repository, tag = image_repository(image), image_tag(image)
        near = [
            n
            for n in given
            if one_slip(image_repository(n), repository)
            and not "".join(
                differing(image_repository(n), repository)
            ).isdigit()  # `app1`, `app2`: two images
            and (image_tag(n) == tag or re.search(r"[$<>{}]", image_tag(n) + tag))
        ]
        if not near:
            continue
        if top is not None and _named_in_project(repository, top):
            continue
        shown = ", ".join(f"{n} ({given[n]})" for n in near)
        yield Diagnostic(
            readme,
            line,
            f"README runs docker {verb} {image}, but no build, tag or pull of the README makes "
            f"{image_repository(image)}: it makes {shown}, a slip away",
            confidence=CERTAIN,
        )


_LOAD = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?load\b(?:[^;&|<\n]*?(?:-i|--input)(?:[ \t]+|=)|[ \t]*<[ \t]*)"
    r"[\"']?([^\s\"';&|]+)"
)
"""A load from a file: `docker load -i out/app-1.0.tar.gz`, `docker load < app.tar`."""
_COMPOSE_IMAGE = re.compile(r"^[ \t]*image:[ \t]*[\"']?([^\s\"'#]+)")


def _saved_files(recipe: makefile.TargetRecipe) -> dict[str, tuple[int, list[str]]]:
    """The file name (no folder) of each archive a make target's `docker save` writes (`-o FILE`, or a
    `> FILE` of the command it pipes into) → (makefile line, the images it saves)."""
    found: dict[str, tuple[int, list[str]]] = {}
    commands = list(recipe.others)
    for at, command in enumerate(commands):
        words = list(command.words)
        if words[:2] != ["docker", "save"] and words[:3] != ["docker", "image", "save"]:
            continue
        images: list[str] = []
        output = None
        rest = words[2:] if words[1] == "save" else words[3:]
        index = 0
        while index < len(rest):
            word = rest[index]
            if word in ("-o", "--output"):
                output = rest[index + 1] if index + 1 < len(rest) else None
                index += 2
                continue
            if word.startswith("--output=") or word.startswith("-o="):
                output = word.split("=", 1)[1]
            elif word == ">":
                output = rest[index + 1] if index + 1 < len(rest) else None
                break
            elif not word.startswith("-"):
                images.append(word)
            index += 1
        if output is None and at + 1 < len(commands) and commands[at + 1].line == command.line:
            piped = list(commands[at + 1].words)
            output = piped[piped.index(">") + 1] if ">" in piped[:-1] else None
        if output and images and "$" not in output:
            found[output.rsplit("/", 1)[-1]] = (command.line, images)
    return found


def loaded_tags(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """An image the README uses after loading an archive a make target it runs saves, under a tag the
    archive does not hold: `make all` runs `docker save iopaint-rocm:1.6.0 | gzip > out/iopaint-rocm-
    1.6.0.tar.gz`, the README loads `iopaint-rocm-1.6.0.tar.gz` on another machine and deploys `image:
    iopaint-rocm:latest`. `docker save NAME:TAG` carries that tag alone: the machine that loads it has no
    `latest`, and compose pulls one (`likely`: a later step may tag it). A save of a name without a tag
    (every tag of it) is not read, nor a README that builds, pulls or tags the repository after the
    load."""
    path = makefile_in(directory)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None:
        return
    saved: dict[str, tuple[int, list[str]]] = {}
    loads: list[tuple[int, str]] = []
    uses: list[tuple[int, str]] = []
    recipes: set[str] = set()
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = without_prompt(joined(lines).strip())
            for part in re.split(r"&&|;|\|\|", command):
                make = re.match(r"^(?:sudo[ \t]+)?make((?:[ \t]+[\w.-]+)*)[ \t]*$", part.strip())
                for target in make.group(1).split() if make is not None else ():
                    if target not in recipes:
                        recipes.add(target)
                        recipe = makefile.target_recipe(text, target)
                        saved.update(_saved_files(recipe) if recipe is not None else {})
            loads += [(lines[0][0], m.group(1).rsplit("/", 1)[-1]) for m in _LOAD.finditer(command)]
            if re.search(r"\b(?:pull|tag|build|import|commit)\b", command):
                uses.append((lines[0][0], "\0"))  # a command that may give the image another tag
        for line, body in fence.lines:
            named = _COMPOSE_IMAGE.match(body)
            if named is not None:
                uses.append((line, named.group(1)))
    for load_line, name in loads:
        if name not in saved:
            continue
        at, images = saved[name]
        if any(":" not in i.rsplit("/", 1)[-1] or "@" in i for i in images):
            continue  # a name without a tag: every tag of it is saved
        repositories = {image_repository(i) for i in images}
        for line, image in sorted(uses):
            if line <= load_line:
                continue
            if image == "\0":
                break
            if (
                PICKED.search(image)
                or image_repository(image) not in repositories
                or tagged_reference(image) in images
            ):
                continue
            yield Diagnostic(
                readme,
                line,
                f"README uses {image} after loading {name} (line {load_line}), but {path.name}:{at} saves it "
                f"as {', '.join(images)} only: the loaded image has no {image_tag(image)} tag",
                confidence=LIKELY,
            )
            break
