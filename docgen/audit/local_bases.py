"""A README build of an image whose base is a build arg defaulting to the published image of one the
README has just built locally, with no `--build-arg` for it, or that published image written out:
`docker build -t local/app:full-cuda -f full-cuda.Dockerfile .`, then `docker build -t local/app:server
-f server.Dockerfile .` where server.Dockerfile starts `ARG FULL_IMAGE=ghcr.io/acme/app:full-cuda` /
`FROM ${FULL_IMAGE}`. The second build pulls the published image and builds on it, not on the one just
built, so what the reader changed in the first build (its build args, its sources) never reaches the
second.

The later build's Dockerfile is the one its `-f` names (the only one audited when it names none); the
first stage of the image it builds (its `--target`'s chain) must be `FROM ${NAME}` (`$NAME`) alone, NAME
a global ARG whose default has a registry or a namespace. The earlier build (a line before it) tags an
image the default is the published form of: the same tag and the same last name, or (a tag other
than `latest`) one holding the other (`ik_llama.cpp`, `llama.cpp`), but not the default itself. Not
read: a build passing `--build-arg NAME`, a README naming NAME anywhere (it tells the reader about it),
a default that is the local name, builds made through bake or compose files.

The same when the FROM writes the published image out (`FROM ghcr.io/kitlab/l4t-focal-base:r32.7.1`,
a test image of a base the README has just built as `l4t-focal-base:r32.7.1`), with the same last name
and tag: no build arg can change it, so the image is built on the published base whatever the reader
built. Not read: an official image (no namespace), a README tagging the published name itself (`-t`,
`docker tag`) before the build, a build given the base by `--build-context NAME=…`. Each finding is
`likely`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import FILE_FLAG, TAG_FLAG, fence_commands, joined
from docgen.build_scripts import BUILD, tag_targets
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Stage

_TARGET = re.compile(r"--target(?:[ \t]+|=)([\w.-]+)")
_WHOLE_ARG = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


@dataclass(frozen=True)
class _Build:
    line: int
    command: str
    tags: tuple[str, ...]
    file: str | None
    target: str | None
    tagging: bool = False
    """True for a `docker tag` (its destinations are `tags`), which builds nothing."""


def _builds(doc: Document) -> list[_Build]:
    """Each `docker build` of the README's command blocks, in README order."""
    found: list[_Build] = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if lines and (retags := tuple(tag_targets(command))):
                found.append(_Build(lines[0][0], command, retags, None, None, tagging=True))
            if not BUILD.search(command) or not lines:
                continue
            flag = FILE_FLAG.search(command)
            file = flag.group(1) if flag is not None and not re.search(r"[<>${}]", flag.group(1)) else None
            target = _TARGET.search(command)
            tags = tuple(
                m.group(1) for m in TAG_FLAG.finditer(command) if not re.search(r"[<>${}]", m.group(1))
            )
            found.append(_Build(lines[0][0], command, tags, file, target.group(1) if target else None))
    found.sort(key=lambda b: b.line)
    return found


def _parts(image: str) -> tuple[str, str]:
    """(last name, tag) of an image reference (`latest` when it names no tag)."""
    last = image.split("@", 1)[0].rsplit("/", 1)[-1]
    name, _, tag = last.partition(":")
    return name.lower(), tag or "latest"


def _published_form(default: str, local: str) -> bool:
    """True when the image `default` is the published form of the image `local` the README builds."""
    if default == local:
        return False
    (name, tag), (local_name, local_tag) = _parts(default), _parts(local)
    if tag != local_tag:
        return False
    if name == local_name:
        return True
    if tag == "latest":
        return False
    shorter, longer = sorted((name, local_name), key=len)
    return len(shorter) >= 4 and shorter in longer


def _model(build: _Build, models: Sequence[ImageModel]) -> ImageModel | None:
    """The audited model the build uses; None when unclear."""
    if build.file is None:
        return models[0] if len(models) == 1 else None
    named = [
        m for m in models if m.path == build.file or m.path.endswith("/" + build.file.removeprefix("./"))
    ]
    return named[0] if len(named) == 1 else None


def local_bases(doc: Document, text: str, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not models or "build" not in text:
        return
    builds = _builds(doc)
    if len(builds) < 2:
        return
    said = text.lower()
    for index, build in enumerate(builds):
        model = _model(build, models) if not build.tagging else None
        if model is None or not model.stages:
            continue
        if build.target is not None:
            stage = model.stage_named(build.target)
            if stage is None:
                continue
            chain = model.chain(stage)
        else:
            chain = model.chain()
        if not chain:
            continue
        first = chain[-1]
        earlier = builds[:index]
        whole = _WHOLE_ARG.fullmatch(first.base_raw.strip())
        if whole is None:
            found = _written_base(readme, build, model.path, first, earlier)
            if found is not None:
                yield found
            continue
        name = whole.group(1)
        arg = next((a for a in model.args if a.name == name and a.scope == "global"), None)
        default = arg.default if arg is not None else None
        if arg is None or not default or "/" not in default or "$" in default:
            continue
        if re.search(r"--build-arg(?:[ \t]+|=)[\"']?" + re.escape(name) + r"\b", build.command):
            continue
        if re.search(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", said):
            continue  # (the README tells about the arg somewhere: not judged)
        local = _local_form(default, earlier)
        if local is None:
            continue
        yield Diagnostic(
            readme,
            build.line,
            f"README builds {model.path} after building {local}, but {model.path}:{first.line} starts "
            f"FROM ${{{name}}}, whose default (line {arg.line}) is the published {default}, and the build "
            f"passes no --build-arg {name}={local}: the image is built on the published base, not on the "
            "one just built",
            confidence=LIKELY,
        )


def _local_form(published: str, earlier: Sequence[_Build], same_name: bool = False) -> str | None:
    """The tag of a build of `earlier` (the last one giving it) that is the local form of the image
    `published`; None when there is none, or when one of them tags or retags `published` itself (the
    local image then answers to that name). With `same_name`, only a tag of the very last name."""
    if any(_parts(t) == _parts(published) and _same_place(t, published) for b in earlier for t in b.tags):
        return None
    for build in reversed(earlier):
        if build.tagging:
            continue
        for tag in build.tags:
            if _published_form(published, tag) and (not same_name or _parts(tag) == _parts(published)):
                return tag
    return None


def _same_place(a: str, b: str) -> bool:
    """True when the image references `a` and `b` name one repository (`docker.io/` and `library/`
    dropped)."""

    def where(image: str) -> str:
        return image.lower().removeprefix("docker.io/").removeprefix("library/").rsplit("/", 1)[0]

    return ("/" in a) == ("/" in b) and where(a) == where(b)


def _written_base(
    readme: str, build: _Build, path: str, first: Stage, earlier: Sequence[_Build]
) -> Diagnostic | None:
    """The finding of a build whose first stage starts FROM a published image written out, whose last
    name and tag an earlier build of the README gives a local image (see the module's docstring)."""
    base = first.base_raw.strip()
    if "$" in base or "/" not in base.lower().removeprefix("docker.io/library/") or "@" in base:
        return None
    if re.search(r"--build-context(?:[ \t]+|=)[\"']?" + re.escape(base.split(":", 1)[0]), build.command):
        return None
    local = _local_form(base, earlier, same_name=True)
    if local is None:
        return None
    return Diagnostic(
        readme,
        build.line,
        f"README builds {path} after building {local}, but {path}:{first.line} starts FROM the published "
        f"{base}, written out (no build arg can change it): the image is built on the published base, not "
        "on the one just built",
        confidence=LIKELY,
    )
