"""One document filled from the images that list it (`outputs` of a README, `pages` of a site page).

A file one image lists is filled from that image, as always. A file several images list (one README
for a CUDA and two ROCm images) says which image each block is about with `image=` in its begin marker
(`<!-- BEGIN docgen:versions image=rocm -->`); its `images` and `matrix` blocks are about all of them,
in the order of the configuration. Each block carries the fingerprints of what it is made from: its
image's, or for `images` and `matrix` a combination of every image's (`fingerprint.family_stamp`), so
changing one image leaves the blocks of the others byte for byte.

`docgen sync`, `docgen check` and the MkDocs plugin all fill documents with `fill_document`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docgen import markers
from docgen.errors import MarkerError, TemplateError
from docgen.fingerprint import family_stamp, text_digest, with_fingerprint
from docgen.markers import FAMILY_SECTIONS, IMAGE, SECTIONS, Block
from docgen.model import ImageModel, VersionRow
from docgen.rows import RenderOptions, image_row, key_versions

if TYPE_CHECKING:
    from pathlib import Path

    from docgen.config import ImageConfig

ROWS = "rows"
"""The `matrix` block attribute choosing its orientation (`rows=images`)."""

MATRIX_ROWS = ("components", "images")
"""The values of `rows=`: a row per component (the default), or a row per image."""


@dataclass(frozen=True)
class Member:
    """One image that lists a document, ready to render."""

    name: str
    """The configured image's name (`rocm`), which `image=` on markers names."""
    model: ImageModel | None
    """Its model; None when none of its blocks is rendered (`fill_document`'s `fresh` holds them all)."""
    options: RenderOptions
    """How to render it in this document (links relative to it)."""
    stamp: tuple[str, str] | None = None
    """Its `dockerfile` and `setup` fingerprints for this document; None to write no fingerprints (a
    site page)."""
    tags: tuple[str, ...] = ()
    """The tags it is published under (the `images` table shows them)."""


def by_document(images: Sequence[ImageConfig]) -> dict[Path, list[ImageConfig]]:
    """Each output → the images listing it, in the order of the configuration (the outputs in the
    order they are first listed)."""
    found: dict[Path, list[ImageConfig]] = {}
    for image in images:
        for output in dict.fromkeys(image.outputs):
            found.setdefault(output, []).append(image)
    return found


def owners(blocks: Sequence[Block], path: str, names: Sequence[str]) -> dict[str, int | None]:
    """Block key → the index in `names` (the images listing the document, in order) of the image the
    block is about; None for an `images` or `matrix` block, which is about all of them.

    Raises `MarkerError` at the marker's line for a block about one image that does not say which when
    several list the document, an `image=` naming none of them, two blocks of one name about one image,
    `image=` on an `images` or `matrix` block, and a `rows=` docgen does not know.
    """
    found: dict[str, int | None] = {}
    first: dict[tuple[str, int], int] = {}
    listed = ", ".join(names)
    for block in blocks:
        image = block.image
        if block.name in FAMILY_SECTIONS:
            if image is not None:
                raise MarkerError(
                    f"block docgen:{block.name} is about every image that lists this file ({listed}); "
                    f"remove {IMAGE}={image}",
                    path,
                    block.begin_line,
                )
            rows_option(block, path)
            found[block.key] = None
            continue
        if image is None:
            if len(names) > 1:
                raise MarkerError(
                    f"block docgen:{block.name} does not say which image it is about; add {IMAGE}=NAME "
                    f"(one of: {listed})",
                    path,
                    block.begin_line,
                )
            index = 0
        elif image in names:
            index = names.index(image)
        else:
            import difflib  # only for this message: `docgen show` never needs it

            close = difflib.get_close_matches(image, names, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            which = "the image that lists it is" if len(names) == 1 else "the images that list it are"
            if names == [""]:  # a Dockerfile given on the command line or in a page's front matter
                which, listed = "its Dockerfile is no configured image", "with a name"
            raise MarkerError(
                f"block docgen:{block.name} {IMAGE}={image}: no image of that name lists this file "
                f"({hint}{which} {listed})",
                path,
                block.begin_line,
            )
        earlier = first.setdefault((block.name, index), block.begin_line)
        if earlier != block.begin_line:
            raise MarkerError(
                f"block docgen:{block.name} about image {names[index]} appears twice "
                f"(first at line {earlier})",
                path,
                block.begin_line,
            )
        found[block.key] = index
    return found


def rows_option(block: Block, path: str) -> str:
    """The `rows=` of a `matrix` block (`components` when absent); a `MarkerError` at its line for a
    value docgen does not know. '' for other blocks, whose `rows=` is kept and means nothing."""
    if block.name != "matrix":
        return ""
    value = markers.attribute(block.attributes, ROWS)
    if value is None:
        return MATRIX_ROWS[0]
    given = [word for word in block.attributes.split() if word.startswith(ROWS + "=")]
    if len(given) > 1:  # the first used to win in silence
        raise MarkerError(
            f"block docgen:matrix gives {ROWS}= twice ({' '.join(given)}); keep one", path, block.begin_line
        )
    if value not in MATRIX_ROWS:
        raise MarkerError(
            f"block docgen:matrix {ROWS}={value}: write {ROWS}=components (a row per component, the "
            f"default) or {ROWS}=images (a row per image)",
            path,
            block.begin_line,
        )
    return value


def fill_document(
    text: str, path: str, members: Sequence[Member], fresh: Collection[str] = ()
) -> tuple[str, list[Block], dict[str, str]]:
    """`text` (a Markdown document shown as `path`) with every docgen block regenerated from `members`,
    the images that list it in the order of the configuration; the blocks found, and the body each is
    given (keyed by `Block.key`, as written: in the text's line endings).

    With fingerprints (`Member.stamp`), each begin marker also gets those of its block. The blocks
    whose key is in `fresh` (their fingerprints match: `fastcheck.fresh_blocks`) are kept as they are
    and left out of the bodies; an image none of whose blocks is rendered needs no model. Raises
    `MarkerError` for broken or unknown blocks and for the mistakes `owners` names; text outside the
    blocks is kept byte for byte.
    """
    blocks = markers.find_blocks(text, path, known=SECTIONS)
    if not blocks:
        return text, blocks, {}
    owner = owners(blocks, path, [member.name for member in members])
    stale = [block for block in blocks if block.key not in fresh]
    newline = markers.newline_outside(text, blocks)
    from docgen.render import render_family, render_sections  # Jinja2 loads only to render

    versions: dict[int, list[VersionRow]] = {}  # an image's Key versions: its blocks' and the family's

    def key_rows(index: int) -> list[VersionRow]:
        if index not in versions:
            versions[index] = key_versions(_model(members[index]), members[index].options)
        return versions[index]

    rendered: dict[str, str] = {}
    for index, member in enumerate(members):
        mine = [block for block in stale if owner[block.key] == index]
        if mine:
            names = [block.name for block in mine]
            bodies = render_sections(_model(member), member.options, names, key_rows(index))
            rendered.update((block.key, bodies[block.name]) for block in mine)
    family = [block for block in stale if owner[block.key] is None]
    if family:
        rows = [image_row(m.name, _model(m), m.options, m.tags, key_rows(i)) for i, m in enumerate(members)]
        for block in family:
            body = render_family(block.name, rows, members[0].options, rows_option(block, path))
            rendered[block.key] = body
    result = {key: markers.normalise_body(body, newline) for key, body in rendered.items()}
    for block in stale:
        refuse_unreadable(block.name, result[block.key], members[0].options)
    if not any(member.stamp for member in members):
        return markers.splice(text, blocks, result), blocks, result

    def attributes(block: Block, body: str) -> str:
        index = owner[block.key]
        if index is None:
            dockerfile, setup = family_stamp(
                [(m.name, *_stamp(m)) for m in members], rows_option(block, path)
            )
        else:
            dockerfile, setup = _stamp(members[index])
        values = {"dockerfile": dockerfile, "setup": setup, "text": text_digest(block.name, body)}
        return with_fingerprint(block.attributes, values)

    return markers.splice(text, blocks, result, attributes), blocks, result


def _model(member: Member) -> ImageModel:
    if member.model is None:  # pragma: no cover - callers model every image whose blocks are stale
        raise ValueError(f"image {member.name} has blocks to render but no model")
    return member.model


def _stamp(member: Member) -> tuple[str, str]:
    if member.stamp is None:  # pragma: no cover - fingerprints are written for all images or none
        raise ValueError(f"image {member.name} has no fingerprints")
    return member.stamp


_NOT_TEXT = re.compile("[\0\ud800-\udfff]")


def refuse_unreadable(name: str, body: str, options: RenderOptions) -> None:
    """Raise `TemplateError` for a rendered body that would break its document's blocks once written:
    one with a line `find_blocks` reads as a marker (or refuses as a near miss), or one that leaves
    a code fence open (the end marker would then be code). Values from a Dockerfile are escaped, so
    only a template's own text can do this; refusing it keeps `sync` from writing a file it cannot
    read back."""
    problem = None
    for number, line in enumerate(markers.split_lines(body), start=1):
        bad = _NOT_TEXT.search(line)
        if (
            bad
        ):  # `{{ "\ud800" }}`, `{{ "\x00" }}`: no UTF-8 file can hold the one; git takes the other for binary
            what = (
                "a NUL character" if bad.group() == "\0" else f"a lone surrogate (U+{ord(bad.group()):04X})"
            )
            problem = f"holds {what} (line {number} of its output)"
            break
        if "<!--" not in line:
            continue
        try:
            if not markers.find_blocks(line):
                continue
        except MarkerError:
            pass
        shown = line.strip()
        shown = shown if len(shown) <= 60 else shown[:59] + "…"
        problem = f"contains a docgen marker line (line {number} of its output: {shown})"
        break
    if problem is None:
        opened = markers.unclosed_fence(body)
        if opened is None:
            return
        problem = (
            f"opens a code fence at line {opened} of its output and never closes it, "
            "so its end marker would be read as code"
        )
    from docgen.render import template_path

    raise TemplateError(
        f"the rendered block docgen:{name} {problem}; docgen will not write it",
        template_path(options.templates, name, options.project),
    )
