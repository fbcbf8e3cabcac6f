"""The values the repository's CI workflows pass to the build args of the Dockerfiles audited.

A README often documents the image CI publishes, not the Dockerfile's defaults: `- onnx 1.15.0` under
`docker pull ghcr.io/acme/torch-onnx1150-trt-server`, while the Dockerfile says `ARG
ONNX_VERSION="1.14.1"` and the workflow that builds and pushes it passes `ONNX_VERSION: "1.15.0"`
(`build-args` of `docker/build-push-action`, a `--build-arg` of a `docker build` in a `run:` script, a
matrix's values). Each value any workflow passes to an ARG of an audited Dockerfile when it builds that
very Dockerfile (`workflows.parse`: the file its step builds) is kept on the model (`published_args`):
a version claim equal to one of them is what a published image has, and no finding. A workflow
building another Dockerfile with the same arg says nothing of this one. A workflow docgen cannot read
is passed over (its values are not known).

The same builds are read against two README claims: a build command passing a build arg another value
than CI's one (`ci_arg_values`), and a line saying the image has no ARM build while a step building it
lists an ARM platform (`ci_platform_claims`)."""

from __future__ import annotations

import dataclasses
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import workflows
from docgen.audit.auditor import LIKELY
from docgen.audit.commands import fence_commands, joined, joined_line, joined_starts
from docgen.bake import Target
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import built_dockerfile, bytes_or_none, real_path
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel


def with_published_args(
    models: Sequence[ImageModel], directory: Path, project: Path | None
) -> tuple[ImageModel, ...]:
    """`models`, each with the values the workflows of the repository holding `directory` (not above
    `project`) pass to its build args when they build its Dockerfile (`ImageModel.published_args`)."""
    passed: dict[int, dict[tuple[str, str], None]] = {}
    for index, _shown, target in _ci_builds(models, directory, project):
        passed.setdefault(index, {}).update(dict.fromkeys(target.args.items()))
    return tuple(
        dataclasses.replace(model, published_args=(*model.published_args, *passed[index]))
        if index in passed
        else model
        for index, model in enumerate(models)
    )


def _ci_builds(
    models: Sequence[ImageModel], directory: Path, project: Path | None
) -> Iterator[tuple[int, str, Target]]:
    """(index of the model, workflow file as shown, target) of each workflow step building the
    Dockerfile of one of `models` (`workflows.parse`); a workflow docgen cannot read is passed over."""
    audited: dict[Path, list[int]] = {}
    for index, model in enumerate(models):
        file = (Path(model.file) if model.file else directory / model.path).resolve()
        audited.setdefault(file, []).append(index)
    top = project if project is not None else directory
    for path in workflows.files(directory, top):
        data = bytes_or_none(path, MAX_PROJECT_FILE_BYTES, top)
        if data is None:
            continue
        shown = Path(os.path.relpath(path, directory)).as_posix()
        try:
            targets = workflows.parse(data, shown)
        except (OSError, DocgenError):
            continue
        for target in targets:
            for index in audited.get(real_path(built_dockerfile(path.parent / target.dockerfile)), ()):
                yield index, shown, target


_BUILD_ARG = re.compile(r"--build-arg(?:=|[ \t]+)([\"']?)([A-Za-z_][A-Za-z0-9_]*)=([^\s\"']*)\1(?=\s|\Z)")
"""`--build-arg NAME=VALUE` of a README command (quoted or not)."""
_BUILDS = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+)?(?:buildx[ \t]+)?(?:build\b|--|-)")
"""A command that builds an image (`docker build`, `docker buildx build`, `docker buildx --platform …`)."""
_FILE = re.compile(r"(?:^|\s)(?:-f|--file)(?:=|[ \t]+)[\"']?([^\s\"']+)")
_PLACEHOLDER = re.compile(
    r"[$<>{}]|\.\.\.|\A(?:x+|value)\Z|your|change[-_]?me|placeholder|(?-i:\A[A-Z][A-Z0-9]*_[A-Z0-9_]+\Z)",
    re.IGNORECASE,
)
"""A value standing for the reader's own (`<ver>`, `$VER`, `YOUR_GPU_ARCH`, `RELEASE_ID`)."""
_ASIDE = re.compile(
    r"\b(?:e\.g\.|for[ \t]+example|such[ \t]+as|replace|change|any[ \t]+(?:other|version)|your[ \t]+own"
    r"|previous(?:ly)?|older|used[ \t]+to|was|were|deprecated|instead)\b",
    re.IGNORECASE,
)
"""Words of a line (or of the paragraph introducing a block) telling the reader the values are theirs to
choose, or of the past."""


def ci_arg_values(
    doc: Document, text: str, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """A README build command passing a build arg a value that the CI workflow never builds the image
    with: `--build-arg TORCHVISION_VER=0.15.1` where every workflow step building the audited Dockerfile
    passes `TORCHVISION_VER: 2.0.1`. Told only when the command is the CI build written out: it passes
    at least one other build arg a value CI passes it too, CI passes the arg one value alone (a matrix of
    several is a list to pick from), the command names no other Dockerfile (`-f`), and neither the
    command nor the text introducing it says the values are examples, the reader's or the past.
    `likely`: a reader may build with other values."""
    if "--build-arg" not in text:  # (no command passes one: the workflows need not be read)
        return
    builds = list(_ci_builds(models, directory, project))
    if not builds:
        return
    values: dict[str, dict[str, tuple[str, int | None]]] = {}
    files: set[str] = set()
    for index, shown, target in builds:
        model = models[index]
        files.add(posixpath.basename(model.path))
        for name, value in target.args.items():
            values.setdefault(name, {}).setdefault(value, (shown, target.own_args.get(name)))
    for lines, aside in _commands(doc, text.splitlines()):
        command = joined(lines)
        if "--build-arg" not in command or not _BUILDS.search(command):
            continue
        if _ASIDE.search(aside) or _ASIDE.search(command):
            continue
        named = _FILE.search(command)
        if named is not None and posixpath.basename(named.group(1)) not in files:
            continue  # another Dockerfile of the project
        starts = joined_starts(lines)
        found = {m.group(2): m for m in _BUILD_ARG.finditer(command)}
        given = {name: m.group(3) for name, m in found.items()}
        agreed = [n for n, v in given.items() if v in values.get(n, {})]
        if not agreed:
            continue
        for name, value in given.items():
            ci = values.get(name, {})
            if len(ci) != 1 or value in ci or not value or _PLACEHOLDER.search(value):
                continue
            ((wanted, (shown, at)),) = ci.items()
            if _PLACEHOLDER.search(wanted):
                continue
            where = f"{shown}:{at}" if at else shown
            yield Diagnostic(
                path,
                joined_line(lines, starts, found[name].start()),
                f"builds with {name}={value} but the CI workflow building the image "
                f"passes {name}={wanted} ({where}), with the same "
                f"{', '.join(f'{n}={given[n]}' for n in agreed[:3])}",
                confidence=LIKELY,
            )


def _commands(doc: Document, raw: Sequence[str]) -> Iterator[tuple[list[tuple[int, str]], str]]:
    """(the README lines of a command, the text introducing it) of each command of the README's code
    blocks (introduced by the three lines of `raw`, the README's lines, above the block's opening line:
    a paragraph set aside as an instruction still tells the values are the reader's) and of each code
    span of its paragraphs (introduced by its own line), each line read once: a code span that is a whole
    command is a one-line fence (`markdown.inline_commands`) read with its own line, and a paragraph's
    other spans are read from the README's line, not the paragraph's text (whose versions are masked)."""
    spans: set[int] = set()
    for fence in doc.fences:
        first = fence.lines[0][0] if fence.lines else 0
        if fence.inline:
            spans.add(first)
            intro = raw[first - 1] if 0 < first <= len(raw) else ""
        else:
            above = [raw[n - 1] for n in range(max(first - 4, 1), first - 1) if n <= len(raw)]
            intro = " ".join(above)
        for command in fence_commands(fence):
            yield command, intro
    for para in doc.paragraphs:
        for line, _ in para.lines:
            text = raw[line - 1] if 0 < line <= len(raw) else ""
            if line not in spans and "`" in text and "--build-arg" in text:
                for _, _, code in code_spans(text):
                    yield [(line, code)], text


_NO_ARM = re.compile(
    r"\b(?:no|not|without)\b[^.;:!?]{0,40}?\b(?:arm(?:64|32|v[678]|hf)?|aarch64)\b(?![-/.]\w)[^.;:!?]{0,20}?"
    r"\bsupport"
    r"|\b(?:arm(?:64)?|aarch64)\b(?![-/.]\w)[^.;:!?]{0,30}?\b(?:is|are)[ \t]+(?:not|never)[ \t]+"
    r"(?:yet[ \t]+)?(?:supported|built|available)"
    r"|\b(?:x86[_-]64|amd64)[ \t]+only\b|\bonly[ \t]+(?:for[ \t]+|supports?[ \t]+)?(?:x86[_-]64|amd64)\b",
    re.IGNORECASE,
)
"""A README's line saying the image is not for ARM (`There is no ARM support`, `arm64 is not supported`,
`amd64 only`)."""
_NOT_NOW = re.compile(
    r"\b(?:was|were|previously|until|used[ \t]+to|no[ \t]+longer|host|robot(?:ic)?|gripper|GPU|CUDA)\b",
    re.IGNORECASE,
)
"""Words of a line whose ARM negation is of the past, the host, a robot's arm or a GPU stack."""


def ci_platform_claims(
    doc: Document, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """A README line saying the image has no ARM build (`NOTE: There is no ARM support`, `amd64 only`)
    while a CI workflow step building its Dockerfile builds it for an ARM platform too
    (`docker/build-push-action`'s `platforms: linux/amd64,linux/arm64`). Read from prose, outside code,
    a line of the past, of the host, of a robot's arm or of a GPU stack aside. `likely`."""
    arm = [
        (shown, target)
        for _, shown, target in _ci_builds(models, directory, project)
        if any(re.search(r"arm|aarch64", p, re.IGNORECASE) for p in target.platforms)
    ]
    if not arm:
        return
    shown, target = arm[0]
    platforms = ",".join(target.platforms)
    where = f"{shown}:{target.platforms_line}" if target.platforms_line else shown
    for para in doc.paragraphs:
        for line, text in para.lines:
            prose = text
            if "`" in text:
                for start, end, _ in reversed(code_spans(text)):
                    prose = prose[:start] + " " + prose[end:]
            said = _NO_ARM.search(prose)
            if said is None or _NOT_NOW.search(prose):
                continue
            yield Diagnostic(
                path,
                line,
                f'says "{said.group().strip()}" but the CI workflow building the image builds it for '
                f"{platforms} ({where})",
                confidence=LIKELY,
            )
