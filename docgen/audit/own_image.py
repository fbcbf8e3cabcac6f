"""The image a README about one Dockerfile of several documents, and the Dockerfiles it is built on.

A folder may hold several Dockerfiles while its README documents one of them: it builds it with `-f`
(`docker build -f docker/Dockerfile.publish .`), links it or names it (`` `Dockerfile.publish` extends
… ``), and names no other. Its claims are then about that image: the one Dockerfile and those of the
folder that build the images it is built on (`own_base`, matched by tag name). A sibling outside that
chain (an alternate base the README never mentions) is no image the README speaks of, and a version it
pins contradicts nothing the README says.

When the image the documented Dockerfile is built on is a local one (`FROM app-base:arm64`, no
registry) that siblings may build but none is named by the tag, the chain cannot be told: each way to
complete it is a choice, and a claim is a finding (`likely` at most) only when it contradicts every
choice.

Pure functions over the parsed README and the models; each text is read once.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docgen.audit.auditor import own_base, with_bases
from docgen.audit.commands import build_commands, command_files, file_flags, swapped_flags
from docgen.audit.paths import basename, files_named, matching, reference_path, variant
from docgen.files import is_dockerfile_name
from docgen.markdown import Document
from docgen.model import ImageModel

_WORDS = re.compile(r"[a-z]+\d*|\d+")
_COMPOSE = re.compile(r"\bdocker[ \t]+compose\b|\bdocker-compose\b|\bpodman-compose\b")


@dataclass(frozen=True)
class OwnImage:
    """The images (indices of the models audited) a README documents: the Dockerfile it names and
    those building its bases. `choices`: when the base of the last of them is a local image that no
    tag names but siblings may build, each way to complete the chain (`images` with one such sibling
    and the Dockerfiles it is built on); empty when the chain is known."""

    images: frozenset[int]
    choices: tuple[frozenset[int], ...] = ()


def readme_image(
    doc: Document, models: Sequence[ImageModel], tied: Mapping[int, frozenset[int]]
) -> OwnImage | None:
    """The image the README documents when a build command's `-f` or a link names one of several
    audited Dockerfiles, and it names none of the others (in its text either, a plain `Dockerfile`
    included), builds nothing without `-f` or with compose, and no section of it is about another
    (`tied`); None otherwise (one Dockerfile, none named, several)."""
    if len(models) < 2:
        return None
    paths = [m.path for m in models]
    built: set[int] = set()  # named by a build command's `-f` or a link
    named: set[int] = set()  # named at all

    def note(reference: str, into: set[int]) -> None:
        into.update(matching(reference_path(reference), paths))

    for fence in doc.fences:
        for command in build_commands(fence):
            if not command_files(command):
                return None  # `docker build .`: the plain Dockerfile of its context, named too
        if any(_COMPOSE.search(text) for _, text in fence.lines):
            return None  # what compose builds is named by its compose file
        swapped = swapped_flags(fence)  # `# replace cu124 with the one you want`: no one image built
        for line, flag in file_flags(fence):
            if line not in swapped:
                note(flag, built)
    for _, link in doc.links:
        target = urllib.parse.unquote(link.split("#", 1)[0])
        if "://" not in target and is_dockerfile_name(basename(target)):
            note(target, built)
    texts = [t for p in doc.paragraphs for _, t in p.lines] + [t for _, t in doc.headings]
    for text in texts:
        if "ockerfile" in text or "ontainerfile" in text or "OCKERFILE" in text:
            for name in files_named(text):
                note(name, named)
    if len(built) != 1:
        return None
    own = models[next(iter(built))]
    chain = with_bases((own,), models)
    images = frozenset(i for i, m in enumerate(models) if any(m is c for c in chain))
    if named - images or any(found - images for found in tied.values()):
        return None  # another image of the folder named, or a section about one: more than one image
    choices = []
    for index in _may_build(chain[-1], models, images):
        more = with_bases((models[index],), models)
        choices.append(images | {i for i, m in enumerate(models) if any(m is c for c in more)})
    return OwnImage(images, tuple(choices))


def _may_build(model: ImageModel, models: Sequence[ImageModel], chain: frozenset[int]) -> list[int]:
    """The Dockerfiles of `models` outside `chain` that may build the local image `model` is built on
    (no registry, no namespace: `app-base:arm64`) when no tag names one (`own_base`): those sharing a
    word of the image's name (`Dockerfile.app-base`, `Dockerfile.base-arm64`). None when the base is
    named, or is another registry's."""
    if own_base(model, models) is not None:
        return []
    stage = model.target
    seen = 0
    while stage is not None and stage.parent is not None and seen < len(model.stages):
        stage, seen = model.stages[stage.parent], seen + 1
    if stage is None:
        return []
    reference = stage.base.split("@", 1)[0]
    repository = reference.rsplit(":", 1)[0] if ":" in reference.rsplit("/", 1)[-1] else reference
    if not repository or "/" in repository or "$" in repository:
        return []
    words = {w for w in _WORDS.findall(repository.lower()) if len(w) > 2}
    return [
        i
        for i, m in enumerate(models)
        if i not in chain
        and words & {w for w in _WORDS.findall((variant(m.path) or "").lower()) if len(w) > 2}
    ]
