"""A README copied from a sibling image: its Docker Hub badges are about `jupyter/tensorflow-notebook`, an
image named for one framework (TensorFlow), while the Dockerfile installs no TensorFlow but another
framework (PyTorch) that the README's own image is named for (its folder `pytorch-notebook`, a build's
`-t …:pytorch`). The badges, and the links copied with them, describe another image (`likely`).

Read only when the README has one Dockerfile, its badges name one image and that name has one
framework word; not when the Dockerfile installs the badge's framework or its base may hold it, nor
when the README's own image is not named for the framework it installs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import TAG_FLAG
from docgen.audit.provides import install_text, missing_from, name_spellings
from docgen.model import Diagnostic, ImageModel

_BADGE = re.compile(
    r"img\.shields\.io/docker/(?:pulls|stars|image-size|v|automated|cloud/automated|cloud/build|build"
    r"|size|layers)/([\w.-]+/[\w.-]+)"
    r"|images\.microbadger\.com/badges/(?:image|version)/([\w.-]+/[\w-]+)"
)
"""A Docker Hub badge and the image (`owner/name`) it is about."""
_FRAMEWORKS = {
    "tensorflow": "TensorFlow",
    "pytorch": "PyTorch",
    "torch": "PyTorch",
    "jax": "JAX",
    "mxnet": "MXNet",
    "paddle": "PaddlePaddle",
    "paddlepaddle": "PaddlePaddle",
    "mindspore": "MindSpore",
}
"""Words of an image's name that say which deep learning framework it holds, and the framework."""


def _frameworks(name: str) -> set[str]:
    """The frameworks the words of an image name or a folder name say (`_FRAMEWORKS`)."""
    return {_FRAMEWORKS[w] for w in re.split(r"[^a-z0-9]+", name.lower()) if w in _FRAMEWORKS}


def badged_images(text: str, path: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if len(models) != 1 or not models[0].file:
        return
    (model,) = models
    badges: dict[str, int] = {}
    for number, row in enumerate(text.splitlines(), 1):
        for match in _BADGE.finditer(row):
            image = re.sub(r"\.(?:svg|png)\Z", "", (match.group(1) or match.group(2)).lower())
            badges.setdefault(image, number)
    if len(badges) != 1:
        return
    ((image, line),) = badges.items()
    said = _frameworks(image.rsplit("/", 1)[1])
    if len(said) != 1:
        return
    (framework,) = said
    installs = install_text(model)
    others = {f for f in set(_FRAMEWORKS.values()) - said if any(s in installs for s in name_spellings(f))}
    # the README's own image: its folder, the tags its build commands give
    own = _frameworks(PurePosixPath(path).parent.name)
    for tag in TAG_FLAG.findall(text):
        own |= _frameworks(tag)
    named = others & own
    if len(named) != 1 or not missing_from(model, name_spellings(framework), peers=True):
        return
    (installed,) = named
    yield Diagnostic(
        path,
        line,
        f"README's badges are about {image}, a {framework} image, but {model.path} installs no {framework} "
        f"(it installs {installed}, as the README's own image is named): the badges and the links copied "
        "with them describe another image",
        confidence=LIKELY,
    )
