"""One Dockerfile's model: read (`docgen.dockerfile`), evaluated (`docgen.evaluate`) and extracted
(`docgen.components`, `docgen.hardcoded`) into an `ImageModel`, built as configured (`--build-arg`,
`--target`), with its `docgen lint` warnings when asked.

The model stage of the pipeline: what `docgen show`, `lint` and `audit` need, without the rows, the
families and the templates that `docgen.pipeline` fills documents with.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator, Mapping
from dataclasses import replace

from docgen import components, hardcoded
from docgen.arg_reads import inert_args, required_args
from docgen.config import ImageConfig
from docgen.dockerfile import decode_dockerfile, parse_dockerfile, read_dockerfile, read_dockerfile_bytes
from docgen.evaluate import Evaluation, evaluate
from docgen.model import Diagnostic, ImageModel, ParsedDockerfile, Setting
from docgen.shell import ExpansionError, expand, split_words
from docgen.sources.pip import named_python
from docgen.sources.toolchains import foreign_toolchains
from docgen.stages import built_stages
from docgen.stated import stated_versions


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a model is built, as it was before.

    Reading a Dockerfile makes many small objects and no reference cycles (reference counting frees
    them all), yet each 700 allocations set off a collection that walks every object still alive:
    on a Dockerfile of 20,000 stages that made the cost grow faster than the file (12.4× for 10×
    the stages, 11.1× without it), and it costs time on any file.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def build_model(
    dockerfile: str | os.PathLike[str],
    display: str | None = None,
    build_args: Mapping[str, str] | None = None,
    target: str | None = None,
    target_at: tuple[str, int | None] | None = None,
) -> ImageModel:
    """Read, evaluate and extract one Dockerfile into an `ImageModel` (built with `build_args`, as
    `docker build --build-arg` would, and `--target target`; an unknown stage is an error at
    `target_at`, the config file and line naming it)."""
    with _collector_paused():
        parsed = read_dockerfile(dockerfile, display)
        return _analyse(parsed, False, build_args, target, target_at, os.fspath(dockerfile))[0]


def image_model(image: ImageConfig) -> ImageModel:
    """`build_model` of a configured image: its Dockerfile built with its `args` and `target` (an
    unknown stage is an error at the line that names it)."""
    return build_model(image.dockerfile, image.display, image.args, image.target, image.target_at)


def model_of(parsed: ParsedDockerfile) -> ImageModel:
    """Evaluate and extract an already parsed Dockerfile into an `ImageModel`."""
    with _collector_paused():
        return _analyse(parsed, with_lint=False)[0]


def read_image(
    dockerfile: str | os.PathLike[str],
    display: str | None = None,
    *,
    with_lint: bool = False,
    build_args: Mapping[str, str] | None = None,
    target: str | None = None,
    target_at: tuple[str, int | None] | None = None,
) -> tuple[bytes, ImageModel, tuple[Diagnostic, ...]]:
    """One read of a Dockerfile for everything `sync` and `check` need: its bytes (for the
    fingerprint), its model (as `build_model` makes it), and with `with_lint` its `docgen lint`
    warnings (else empty)."""
    shown = str(dockerfile) if display is None else display
    data = read_dockerfile_bytes(dockerfile, shown)
    with _collector_paused():
        parsed = parse_dockerfile(decode_dockerfile(data, shown), shown)
        model, warnings = _analyse(parsed, with_lint, build_args, target, target_at, os.fspath(dockerfile))
    return data, model, warnings


def lint_file(dockerfile: str | os.PathLike[str], display: str | None = None) -> tuple[Diagnostic, ...]:
    """The warnings for one Dockerfile (`docgen lint`), sorted by line: the lint rules' findings (see
    `docgen.lint`) and the reader's and evaluator's own warnings (`'#' is not a comment here`, an empty
    line inside a continued instruction …). Raises `DocgenError` for a file that cannot be read.
    """
    return read_image(dockerfile, display, with_lint=True)[2]


def _analyse(
    parsed: ParsedDockerfile,
    with_lint: bool,
    build_args: Mapping[str, str] | None = None,
    target: str | None = None,
    target_at: tuple[str, int | None] | None = None,
    file: str = "",
) -> tuple[ImageModel, tuple[Diagnostic, ...]]:
    """The model of a parsed Dockerfile read from `file` (`ImageModel.file`), and its lint warnings
    when asked (sharing the evaluation, the components and the hard-coded values with the model)."""
    evaluation = evaluate(parsed, build_args, target, target_at)
    found, skipped, unreached, installs = components.extract_all(parsed, evaluation)
    model = ImageModel(
        path=parsed.path,
        stages=evaluation.stages,
        args=evaluation.args,
        env=evaluation.env,
        components=found,
        warnings=evaluation.warnings,
        skipped=skipped,
        directives=parsed.directives,
        hardcoded=hardcoded.hardcoded(parsed, evaluation),
        instruction_lines=tuple(inst.start_line for inst in parsed.instructions),
        env_args=components.env_args(parsed, frozenset(a.name for a in evaluation.args)),
        build_args=tuple(sorted((build_args or {}).items())),
        required_args=required_args(parsed, evaluation),
        inert_args=inert_args(parsed, evaluation),
        unreached_uses=unreached,
        unbound_reads=evaluation.unbound_reads,
        target_index=evaluation.target,
        file=file,
        settings=_settings(parsed, evaluation),
        stated=stated_versions(parsed),
        installs=installs,
        context_copies=evaluation.context_copies,
        named_python=named_python((i.start_line, i.args) for i in parsed.instructions if i.keyword == "RUN"),
        foreign_toolchains=foreign_toolchains(
            (i.start_line, i.original + "".join(h.body for h in i.heredocs))
            for i in parsed.instructions
            if i.keyword in ("RUN", "COPY")
        ),
    )
    if target is not None:  # `docker build --target`: the stages it does not need are not built at all
        built = built_stages(model)
        model = replace(
            model,
            components=tuple(c for c in model.components if c.stage in built),
            args=tuple(a for a in model.args if a.is_global or a.scope in built),
        )
    if not with_lint:
        return model, ()
    from docgen import lint  # the lint rules load only for `docgen lint` and `check --lint`

    mistakes = (d for d in skipped if d.rule)  # what extraction saw wrong in the Dockerfile (`DG008`)
    warnings = (*evaluation.warnings, *mistakes, *lint.lint(parsed, evaluation, found, model.hardcoded))
    return model, tuple(sorted(warnings, key=lambda d: d.line))


_SETTINGS = frozenset({"EXPOSE", "USER", "WORKDIR", "ENTRYPOINT", "CMD", "HEALTHCHECK"})
_EXPANDED = frozenset({"EXPOSE", "USER", "WORKDIR"})
"""The settings BuildKit expands ARG and ENV in (ENTRYPOINT, CMD and HEALTHCHECK run in a shell later)."""


def _settings(parsed: ParsedDockerfile, evaluation: Evaluation) -> tuple[Setting, ...]:
    """The instructions that set how a container runs (`ImageModel.settings`), EXPOSE, USER and WORKDIR
    expanded in the scope they are in."""
    found = []
    for inst, scope in zip(parsed.instructions, evaluation.scopes, strict=False):
        if inst.keyword not in _SETTINGS or scope.stage is None:
            continue
        value = inst.args.strip()
        if inst.keyword in _EXPANDED and "$" in value:
            words = []
            for word in split_words(value, parsed.escape):
                try:
                    words.append(expand(word, scope.lookup, parsed.escape).text)
                except (ExpansionError, RecursionError):
                    words.append(word)
            value = " ".join(words)
        label = evaluation.stages[scope.stage].label
        found.append(Setting(inst.keyword, value, label, inst.start_line, inst.exec_form))
    return tuple(found)
