"""The whole pipeline as library functions: Dockerfile → model → sections → filled Markdown.

A Dockerfile's model comes from `docgen.analysis` (`build_model`, `image_model`, `model_of`,
`read_image`, `lint_file`, importable from here too); the rest of this module fills documents with it.

`docgen sync`, `docgen check` and the MkDocs plugin all fill a document with
`docgen.family.fill_document` (from the images that list it, each made a `Member` by `member`), so the
README and the site can never disagree; `fill` is that for a document of one image.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from docgen import baseimage
from docgen.analysis import build_model as build_model
from docgen.analysis import image_model as image_model
from docgen.analysis import lint_file as lint_file
from docgen.analysis import model_of as model_of
from docgen.analysis import read_image as read_image
from docgen.config import Config, ImageConfig
from docgen.dockerfile import read_dockerfile_bytes
from docgen.family import Member, fill_document
from docgen.fingerprint import digest, dockerfile_digest
from docgen.model import ImageModel, VersionRow
from docgen.rows import BaseHardware, RenderOptions, base_images, hardware_of, version_rows


def _link(dockerfile: Path, document: Path | None) -> str | None:
    """The link target of `dockerfile` from `document`, URL-encoded (keeping `/`): CommonMark ends a
    link target at a space, so `[L3](Dockerfile (cuda)#L3)` would not be a link on GitHub."""
    if document is None:
        return None
    return quote(Path(os.path.relpath(dockerfile, document.parent)).as_posix())


def render_options(
    image: ImageConfig,
    config: Config,
    document: Path | None,
    link: Callable[[ImageConfig], str | None] | None = None,
) -> RenderOptions:
    """Rendering options for `image` as it appears in `document` (for relative line links); with
    `link`, the link target of each image's Dockerfile instead (a site links to its repository)."""
    linker = link or (lambda other: _link(other.dockerfile, document))
    return RenderOptions(
        arch_arg=image.arch_arg,
        arch_arg_at=(config.source, image.arch_arg_line) if image.arch_arg_set else None,
        names=image.names,
        versions=image.versions,
        versions_at=(config.source, image.versions_line) if image.versions is not None else None,
        dockerfile_link=linker(image),
        templates=config.templates,
        project=config.root,
        provides=config.base_images,
        provides_file=config.source,
        produced=(produced := BaseDockerfiles(config, linker, (image.dockerfile,))),
        base_hardware=produced.hardware,
    )


def member(
    image: ImageConfig,
    model: ImageModel,
    config: Config,
    document: Path | None,
    link: Callable[[ImageConfig], str | None] | None = None,
    stamp: tuple[str, str] | None = None,
) -> Member:
    """`image` (modelled as `model`) as one of the images filling `document`, for `fill_document`:
    its render options there (`render_options`, with `link`) and, with `stamp`, its fingerprints."""
    return Member(image.name, model, render_options(image, config, document, link), stamp, image.tags)


class BaseDockerfiles(Mapping[str, tuple[VersionRow, ...]]):
    """Image name → the Key versions rows of the configured Dockerfile that `produces` it, marked as
    from that Dockerfile and linked to its lines; worked out only for a name asked for (the base image
    a Dockerfile is built on), each Dockerfile read once.

    `stack` holds the Dockerfiles being followed already (the one documented first): a Dockerfile on
    it is never followed again, so images built on each other in a cycle end there.
    """

    def __init__(
        self,
        config: Config,
        link: Callable[[ImageConfig], str | None],
        stack: tuple[Path, ...],
        memo: dict[tuple[Path, ...], tuple[VersionRow, ...]] | None = None,
    ) -> None:
        self._config = config
        self._link = link
        self._stack = stack
        self._memo = {} if memo is None else memo
        self._makers = {
            name: image
            for image in config.producers
            if image.dockerfile not in stack
            for name in image.produces
        }

    def __getitem__(self, name: str) -> tuple[VersionRow, ...]:
        image = self._makers[name]
        key = (*self._stack, image.dockerfile)
        if key not in self._memo:
            model = image_model(image)
            rows = version_rows(
                model,
                image.names,
                None,
                provides=self._config.base_images,
                provides_file=self._config.source,
                produced=BaseDockerfiles(self._config, self._link, key, self._memo),
            )
            link = self._link(image)
            self._memo[key] = tuple(
                row
                if row.origin == "base-dockerfile"
                else replace(row, origin="base-dockerfile", origin_file=image.display, link=link)
                for row in rows
            )
        return self._memo[key]

    def __contains__(self, name: object) -> bool:  # without working the rows out
        return name in self._makers

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def hardware(self, model: ImageModel) -> BaseHardware | None:
        """The Supported hardware of the configured Dockerfile that builds `model`'s base image (with
        that entry's `arch-arg`), following further base images while one lists no targets."""
        maker = self._maker_of(model)
        if maker is None:
            return None
        base = image_model(maker)
        found = hardware_of(base, maker.arch_arg)
        if not found.gpus:
            makers = BaseDockerfiles(self._config, self._link, (*self._stack, maker.dockerfile), self._memo)
            return makers.hardware(base)
        return BaseHardware(found, maker.display, self._link(maker))

    def followed(self, model: ImageModel) -> tuple[Path, ...]:
        """The configured Dockerfiles whose rows `model`'s Key versions include: the one building its
        base image, the one building that one's, and so on (their bytes belong in its fingerprint)."""
        found: list[Path] = []
        maker = self._maker_of(model)
        stack = self._stack
        while maker is not None and maker.dockerfile not in stack:
            found.append(maker.dockerfile)
            stack = (*stack, maker.dockerfile)
            makers = BaseDockerfiles(self._config, self._link, stack, self._memo)
            maker = makers._maker_of(image_model(maker))
        return tuple(found)

    def _maker_of(self, model: ImageModel) -> ImageConfig | None:
        for ref in base_images(model):
            name = baseimage.matching_key(ref, self._makers)
            if name is not None:
                return self._makers[name]
        return None


def dockerfile_stamp(data: bytes, model: ImageModel, options: RenderOptions) -> str:
    """The `dockerfile` fingerprint of `model`'s blocks: the bytes of its Dockerfile (`data`) and of
    every configured Dockerfile whose Key versions it shows (see `BaseDockerfiles`)."""
    produced = options.produced
    followed = produced.followed(model) if isinstance(produced, BaseDockerfiles) else ()
    if not followed:
        return dockerfile_digest(data)
    return digest(data, *(read_dockerfile_bytes(path, str(path)) for path in followed))


def fill(
    text: str,
    path: str,
    model: ImageModel,
    options: RenderOptions,
    stamp: tuple[str, str] | None = None,
) -> str:
    """`text` (a Markdown document shown as `path`) with every docgen block regenerated from `model`.

    With `stamp` (the Dockerfile's and the setup's fingerprints, see `docgen.fingerprint`), each begin
    marker also gets the block's fingerprint. Raises `MarkerError` for broken or unknown blocks; text
    outside the blocks is kept byte for byte. A document that several images list is filled by
    `docgen.family.fill_document`, which this calls with the one image.
    """
    return fill_document(text, path, [Member("", model, options, stamp)])[0]
