"""An image a Dockerfile the README builds copies from (`COPY --from=huggingspace:tesseract`) or starts
from, which is no stage of it and which nothing of the project builds, while a build of the project
makes an image of a near name: the same tag (`layoutlmv3:tesseract`, a compose service's `image:` with
a `build:`, or a `docker build -t` of the README or of a script). The build looks the name up on Docker
Hub instead of using the image the project has just built: the name was left over from another
project, or renamed on one side only.

Read only for a name with no registry (`nvcr.io/…`) and no variable, whose repository no other file of
the project, nor the README, names (a pull, a load or a script's tag may make it), and a near name that
has the same last name and tag (`acme/tesseract:gpu`, `layoutlm/tesseract:gpu`), or, for a name with no
owner that is no official image (Docker Hub has no such image), the same tag when it is a word
(`tesseract`, `base`; no `latest` nor version). A FROM's near name built from a Dockerfile not told
(`docker build -t me/app:gpu .`, a compose service's `Dockerfile`) may be this Dockerfile's own image,
built from the other: not read. The finding is on the README's first build
command (its `bash build.sh` too) and `likely`: a registry the author's machine reaches may hold it.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.commands import (
    FILE_FLAG,
    OFFICIAL,
    TAG_FLAG,
    fence_commands,
    image_repository,
    joined,
    last_name,
)
from docgen.audit.containers import text_files
from docgen.audit.names import compose_file
from docgen.build_scripts import BUILD
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_BUILDS = re.compile(
    BUILD.pattern + r"|\bdocker[ \t-]+compose\b.*\b(?:build|up)\b|\b(?:bash|sh)[ \t]+\S+\.sh\b|\./\S+\.sh\b"
)
"""A README command that builds images: a build, a compose build or start, a script it runs."""
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)?:[\w][\w.-]*")
"""An image name with a tag and at most one owner: no registry (`nvcr.io/nvidia/x:1` has two slashes)."""
_WORD_TAG = re.compile(r"[a-z][a-z_-]*[a-z]")
_GENERIC = frozenset(
    {"latest", "stable", "nightly", "edge", "main", "master", "dev", "slim", "alpine", "release"}
)
"""Tags many unrelated images carry: no sign of one image renamed."""


def _needed(model: ImageModel) -> list[tuple[str, int, bool]]:
    """(image, Dockerfile line, True for a FROM) of each image a COPY --from or a FROM of the Dockerfile
    takes that is no stage of it."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    stages = {s.name.lower() for s in model.stages if s.name}
    found = [
        (s.base, s.line, True) for s in model.stages if s.parent is None and "$" not in s.base_raw and s.base
    ]
    for inst in read[1].instructions:
        source = inst.flag("from") if inst.keyword == "COPY" else None
        if source is not None and source.value and source.value.lower() not in stages:
            found.append((source.value, inst.start_line, False))
    return [(n, line, base) for n, line, base in found if _NAME.fullmatch(n) and not n.isdigit()]


def _near(needed: str, built: str) -> bool:
    """Whether `built` is a near name of `needed`: the same last name and tag, or, for a name with no
    owner that is no official image (docker.io/library has none of it), the same tag, a word that is no
    common one."""
    tag, other = needed.rsplit(":", 1)[1], built.rsplit(":", 1)[1] if ":" in built else "latest"
    if tag != other or tag in _GENERIC:
        return False
    if last_name(needed) == last_name(built):
        return True
    plain = "/" not in needed and image_repository(needed) not in OFFICIAL
    return plain and bool(_WORD_TAG.fullmatch(tag))


def _built(doc: Document, files: Sequence[Path]) -> list[tuple[str, str, str | None]]:
    """(image, where it is built, its Dockerfile: the `-f` path, `*NAME` for a compose service's (its name
    only), None when not told) of each image the project
    names when it builds one: a compose service's `image:` with a `build:`, a `-t` of a build command of
    the README or of a script."""
    found: list[tuple[str, str, str | None]] = []

    def tags(command: str, where: str) -> None:
        flag = FILE_FLAG.search(command)
        file = posixpath.normpath(flag.group(1)) if flag is not None else None
        found.extend((t, where, file) for t in TAG_FLAG.findall(command))

    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if BUILD.search(command):
                tags(command, f"README:{lines[0][0]}")
    for path in files:
        if compose.FILE_NAME.fullmatch(path.name):
            read = compose_file(path)
            for service in read[0] if read is not None else ():
                if service.builds and service.image:
                    where = f"{path.name}:{service.image_line}"
                    found.append(
                        (service.image, where, posixpath.basename(service.dockerfile or "Dockerfile"))
                    )
        elif path.suffix in (".sh", ".bash") or path.name in ("Makefile", "makefile"):
            for number, line in enumerate((text_or_none(path) or "").splitlines(), 1):
                if BUILD.search(line):
                    tags(line, f"{path.name}:{number}")
    return [b for b in found if not re.search(r"[$<>{}]", b[0])]


def _same_path(written: str, path: str) -> bool:
    """Whether the Dockerfile `written` in a build (`./lamini/Dockerfile_cpu`, `*Dockerfile` for a
    compose service's) is the audited one at `path` (`lamini/Dockerfile_cpu`): the one ends the other."""
    one = posixpath.normpath(written.lstrip("*")).lstrip("./")
    two = posixpath.normpath(path).lstrip("./")
    if written.startswith("*"):
        return posixpath.basename(two) == one
    return one == two or two.endswith("/" + one)


def _unbuilt(model: ImageModel, built: Sequence[tuple[str, str, str | None]]) -> bool:
    """True when every build of the project names its Dockerfile and none names `model`'s: the README
    builds its siblings (`-f ./lamini/Dockerfile_cpu`), and this one is kept unused."""
    return all(file is not None for _, _, file in built) and not any(
        _same_path(file, model.path) for _, _, file in built if file is not None
    )


def _built_on(file: str | None, name: str, models: Sequence[ImageModel]) -> bool:
    """True when the Dockerfile `file` a build of the near name reads is an audited one starting FROM
    `name`: the project's image is built on that image, the two names are upstream and derived."""
    if file is None:
        return False
    return any(
        _same_path(file, model.path) and any(stage.base == name for stage in model.stages) for model in models
    )


def near_images(
    doc: Document, text: str, path: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    line = next(
        (
            lines[0][0]
            for fence in doc.fences
            for lines in fence_commands(fence)
            if _BUILDS.search(joined(lines))
        ),
        None,
    )
    if line is None:
        return
    needed = [(m, name, at, base) for m in models for name, at, base in _needed(m)]
    if not needed:
        return
    readme = real_path(directory / Path(path).name)
    files = text_files(directory.resolve(), readme)
    if files is None:
        return
    built = _built(doc, files)
    if not built:
        return
    own = {real_path(Path(m.file)) for m in models if m.file}
    texts: list[str] | None = None
    told: set[str] = set()
    for model, name, at, base in needed:
        if name in told or any(name == b for b, _, _ in built):
            continue
        near = next(((b, where, file) for b, where, file in built if _near(name, b)), None)
        if near is None:
            continue
        itself = (None, posixpath.normpath(model.path), f"*{posixpath.basename(model.path)}")
        if base and near[2] in itself:
            continue  # (the near name may be this Dockerfile's own image, built FROM the other)
        if _unbuilt(model, built):
            continue  # (no build of the project names this Dockerfile: what it takes is never pulled)
        if _built_on(near[2], name, models):
            continue  # (`powerml/ray:…-cpu` built FROM `rayproject/ray:…-cpu`: the upstream, not a slip)
        word = re.compile(rf"(?<![\w./-]){re.escape(image_repository(name))}(?![\w/-])", re.IGNORECASE)
        if word.search(text):
            continue
        if texts is None:
            texts = [text_or_none(f) or "" for f in files if real_path(f) not in own and os.path.isfile(f)]
        if any(word.search(t) for t in texts):
            continue
        told.add(name)
        yield Diagnostic(
            path,
            line,
            f"README builds the images, but {model.path}:{at} takes {name}, which nothing of the project "
            f"builds, while {near[1]} builds {near[0]}: docker looks for {name} on Docker Hub instead of "
            "the image just built",
            confidence=LIKELY,
        )
