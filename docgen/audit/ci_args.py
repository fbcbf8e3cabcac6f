"""The values the repository's CI workflows pass to the build args of the Dockerfiles audited.

A README often documents the image CI publishes, not the Dockerfile's defaults: `- onnx 1.15.0` under
`docker pull ghcr.io/acme/torch-onnx1150-trt-server`, while the Dockerfile says `ARG
ONNX_VERSION="1.14.1"` and the workflow that builds and pushes it passes `ONNX_VERSION: "1.15.0"`
(`build-args` of `docker/build-push-action`, a `--build-arg` of a `docker build` in a `run:` script, a
matrix's values). Each value any workflow passes to an ARG of an audited Dockerfile when it builds that
very Dockerfile (`workflows.parse`: the file its step builds) is kept on the model (`published_args`):
a version claim equal to one of them is what a published image has, and no finding. A workflow
building another Dockerfile with the same arg says nothing of this one. A workflow docgen cannot read
is passed over (its values are not known)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from docgen import workflows
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import bytes_or_none, real_path
from docgen.model import ImageModel


def with_published_args(
    models: Sequence[ImageModel], directory: Path, project: Path | None
) -> tuple[ImageModel, ...]:
    """`models`, each with the values the workflows of the repository holding `directory` (not above
    `project`) pass to its build args when they build its Dockerfile (`ImageModel.published_args`)."""
    audited: dict[Path, list[int]] = {}
    for index, model in enumerate(models):
        file = (Path(model.file) if model.file else directory / model.path).resolve()
        audited.setdefault(file, []).append(index)
    top = project if project is not None else directory
    passed: dict[int, dict[tuple[str, str], None]] = {}
    for path in workflows.files(directory, top):
        data = bytes_or_none(path, MAX_PROJECT_FILE_BYTES, top)
        if data is None:
            continue
        try:
            targets = workflows.parse(data, Path(os.path.relpath(path, directory)).as_posix())
        except (OSError, DocgenError):
            continue
        for target in targets:
            for index in audited.get(real_path(path.parent / target.dockerfile), ()):
                passed.setdefault(index, {}).update(dict.fromkeys(target.args.items()))
    return tuple(
        dataclasses.replace(model, published_args=(*model.published_args, *passed[index]))
        if index in passed
        else model
        for index, model in enumerate(models)
    )
