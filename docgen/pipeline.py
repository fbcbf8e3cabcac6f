"""The whole pipeline as library functions: Dockerfile → model → sections → filled Markdown.

`docgen sync`, `docgen check` and the MkDocs plugin all go through `fill`, so the README and the site
can never disagree.
"""

from __future__ import annotations

import os
from pathlib import Path

from docgen import components, lint, markers
from docgen.config import Config, ImageConfig
from docgen.dockerfile import read_dockerfile
from docgen.evaluate import evaluate
from docgen.fingerprint import text_digest, with_fingerprint
from docgen.model import Diagnostic, ImageModel, ParsedDockerfile
from docgen.render import SECTIONS, RenderOptions, render_sections


def build_model(dockerfile: str | os.PathLike[str], display: str | None = None) -> ImageModel:
    """Read, evaluate and extract one Dockerfile into an `ImageModel`."""
    return model_of(read_dockerfile(dockerfile, display))


def model_of(parsed: ParsedDockerfile) -> ImageModel:
    """Evaluate and extract an already parsed Dockerfile into an `ImageModel`."""
    evaluation = evaluate(parsed)
    found, skipped = components.extract(parsed, evaluation)
    return ImageModel(
        path=parsed.path,
        stages=evaluation.stages,
        args=evaluation.args,
        env=evaluation.env,
        components=found,
        warnings=evaluation.warnings,
        skipped=skipped,
        directives=parsed.directives,
        hardcoded=lint.hardcoded(parsed, evaluation),
    )


def lint_file(dockerfile: str | os.PathLike[str], display: str | None = None) -> tuple[Diagnostic, ...]:
    """The warnings for one Dockerfile (`docgen lint`), sorted by line: the lint rules' findings (see
    `docgen.lint`) and the reader's and evaluator's own warnings (`'#' is not a comment here`, an empty
    line inside a continued instruction …). Raises `DocgenError` for a file that cannot be read.
    """
    parsed = read_dockerfile(dockerfile, display)
    evaluation = evaluate(parsed)
    found, _ = components.extract(parsed, evaluation)
    warnings = (*evaluation.warnings, *lint.lint(parsed, evaluation, found))
    return tuple(sorted(warnings, key=lambda d: d.line))


def render_options(image: ImageConfig, config: Config, document: Path | None) -> RenderOptions:
    """Rendering options for `image` as it appears in `document` (for relative line links)."""
    link = None
    if document is not None:
        link = Path(os.path.relpath(image.dockerfile, document.parent)).as_posix()
    return RenderOptions(
        arch_arg=image.arch_arg,
        names=image.names,
        versions=image.versions,
        dockerfile_link=link,
        templates=config.templates,
    )


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
    outside the blocks is kept byte for byte.
    """
    blocks = markers.find_blocks(text, path, known=SECTIONS)
    if not blocks:
        return text
    bodies = render_sections(model, options, [b.name for b in blocks])
    if stamp is None:
        return markers.splice(text, blocks, bodies)
    values = {"dockerfile": stamp[0], "setup": stamp[1]}

    def attributes(block: markers.Block, body: str) -> str:
        return with_fingerprint(block.attributes, {**values, "text": text_digest(block.name, body)})

    return markers.splice(text, blocks, bodies, attributes)
