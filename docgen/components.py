"""Components and pins found in FROM, RUN, COPY and ENV (sources, versions, how they are installed).

This first version knows base images; RUN/COPY/ENV recognisers come next.
"""

from __future__ import annotations

from docgen.evaluate import Evaluation
from docgen.model import Component, Diagnostic, ParsedDockerfile


def split_image(ref: str) -> tuple[str, str | None, str | None]:
    """`name[:tag][@digest]` → (name, tag, digest); no tag and no digest means tag `latest`."""
    name, _, digest = ref.partition("@")
    slash = name.rfind("/")
    colon = name.rfind(":")
    tag = None
    if colon > slash:
        name, tag = name[:colon], name[colon + 1 :]
    if tag is None and not digest:
        tag = "latest"
    return name, tag, digest or None


def extract(parsed: ParsedDockerfile, evaluation: Evaluation) -> tuple[tuple[Component, ...], tuple[Diagnostic, ...]]:
    """The components of one Dockerfile and the constructs that were skipped."""
    components = []
    for stage in evaluation.stages:
        if stage.parent is not None or stage.base.lower() == "scratch":
            continue
        name, tag, digest = split_image(stage.base)
        components.append(
            Component(
                name=name.rsplit("/", 1)[-1],
                kind="image",
                version=tag,
                ref=digest,
                source=stage.base,
                method="prebuilt",
                stage=stage.label,
                line=stage.line,
                pinned=bool(digest) or (tag not in (None, "latest")),
            )
        )
    return tuple(components), ()
