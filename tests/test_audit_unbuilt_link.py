"""`docgen audit`: the one Dockerfile a README links as its own while its build commands build another
(docgen/audit/unbuilt_link.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

_MIRRORS = (
    "FROM pytorch/pytorch:2.1-cuda12.1-cudnn8-devel\nRUN sed -i s/archive/mirror/ /etc/apt/sources.list\n"
)
_SETUP = "FROM pytorch/pytorch:2.1-cuda12.1-cudnn8-devel\nRUN python setup_seg.py develop\n"
_BLOB = "https://github.com/acme/vision/blob/master"
_BUILD = "```shell\ndocker build -t vision:2.1 docker/vision/\n```\n"


def _found(root: Path, intro: str, block: str = _BUILD, files: dict[str, str] | None = None) -> list[str]:
    """`audit` of docker/README.md (`intro`, then `block`) in a checkout of acme/vision (its remote)
    holding docker/Dockerfile and docker/vision/Dockerfile, two recipes: `line (confidence): message`."""
    make_tree(root, {"docker/Dockerfile": _MIRRORS, "docker/vision/Dockerfile": _SETUP, **(files or {})})
    make_tree(root, {".git/config": '[remote "origin"]\n\turl = https://github.com/acme/vision.git\n'})
    readme = f"### Docker image\n\n{intro}\n\n{block}"
    (root / "docker/README.md").write_text(readme)
    model = model_of(parse_dockerfile(_SETUP, "docker/vision/Dockerfile"))
    found = audit(readme, "docker/README.md", [model], {}, root / "docker", root)
    return [f"{d.line} ({d.confidence}): {d.message}" for d in found]


_FINDING = (
    "3 (likely): README links docker/Dockerfile as its Dockerfile, but every build command of it builds "
    "docker/vision/Dockerfile (line 6), another recipe"
)


@pytest.mark.parametrize(
    "intro",
    [
        f"We provide a [Dockerfile]({_BLOB}/docker/Dockerfile) to build an image.",  # the checkout's address
        "We provide a [`Dockerfile`](Dockerfile) to build an image.",  # a relative link
        "The image is built from [the Dockerfile](/docker/Dockerfile).",
    ],
)
def test_the_linked_dockerfile_is_not_the_one_built(tmp_path: Path, intro: str) -> None:
    assert _found(tmp_path, intro) == [_FINDING]


def test_an_address_in_a_checkout_that_names_no_repository(tmp_path: Path) -> None:
    # a copy of the files (no remote): an address whose path is there is read as the repository's own
    intro = f"We provide a [Dockerfile]({_BLOB}/docker/Dockerfile) to build an image."
    _found(tmp_path, intro)
    (tmp_path / ".git/config").unlink()
    assert _found(tmp_path, intro) == [_FINDING]


@pytest.mark.parametrize(
    ("intro", "block", "files"),
    [
        # the link names the Dockerfile built
        (f"We provide a [Dockerfile]({_BLOB}/docker/vision/Dockerfile).", _BUILD, None),
        # several images: two Dockerfiles linked, or builds of two Dockerfiles
        (
            "Two images: [Dockerfile](Dockerfile) and [Dockerfile](vision/Dockerfile).",
            _BUILD,
            None,
        ),
        (
            "We provide a [Dockerfile](Dockerfile).",
            "```shell\ndocker build -t vision:2.1 docker/vision/\ndocker build -t lite docker/lite/\n```\n",
            {"docker/lite/Dockerfile": "FROM alpine\n"},
        ),
        # a base built first, then the image on it
        (
            "We provide a [Dockerfile](Dockerfile).",
            "```shell\ndocker build -t vision-base docker/\ndocker build -t vision:2.1 docker/vision/\n```\n",
            None,
        ),
        # the link gives it another part: the base, an upstream or an example recipe
        ("The image is based on this [Dockerfile](Dockerfile).", _BUILD, None),
        ("Adapted from the upstream [Dockerfile](Dockerfile).", _BUILD, None),
        ("See the [base recipe](Dockerfile).", _BUILD, None),
        # another repository's address
        (
            "We provide a [Dockerfile](https://github.com/other/seg/blob/master/docker/Dockerfile).",
            _BUILD,
            None,
        ),
        # compose, make or a script may build the linked one
        (
            "We provide a [Dockerfile](Dockerfile).",
            "```shell\ndocker build -t vision:2.1 docker/vision/\ndocker compose up\n```\n",
            {"docker/compose.yaml": "services:\n  vision:\n    build: .\n"},
        ),
        (
            "We provide a [Dockerfile](Dockerfile).",
            "```shell\nmake image\ndocker build -t v docker/vision/\n```\n",
            None,
        ),
        # a build that cannot be followed
        ("We provide a [Dockerfile](Dockerfile).", "```shell\ndocker build -t vision $CONTEXT\n```\n", None),
        # the same recipe in two places
        ("We provide a [Dockerfile](Dockerfile).", _BUILD, {"docker/Dockerfile": _SETUP}),
        # a build that builds the linked one when run from the root instead of the README's folder
        (
            "We provide a [Dockerfile](../Dockerfile).",
            "```shell\ndocker build -t v .\n```\n",
            {"Dockerfile": _SETUP + "RUN true\n", "docker/Dockerfile": _MIRRORS},
        ),
        # no build command at all
        ("We provide a [Dockerfile](Dockerfile).", "```shell\ndocker pull acme/vision\n```\n", None),
    ],
)
def test_links_that_are_the_built_one_or_not_the_readmes_image(
    tmp_path: Path, intro: str, block: str, files: dict[str, str] | None
) -> None:
    assert _found(tmp_path, intro, block, files) == []
