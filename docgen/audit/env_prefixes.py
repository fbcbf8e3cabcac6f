"""Variables a README sets in front of a script it runs (`GPU=true ./build.sh`) that the script gives a
value of its own before reading them (`docgen.script_env`), or that are build args of the Dockerfile the
script builds and that the script never passes on (`LLAMA_REF=b5000 ./rebuild.sh`, its `docker build`
passing only `--build-arg CUDA_ARCH`): the setting has no effect. And those the script does pass on as
build args, for the rules about the values a build is given (`forwarded_prefixes`)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN
from docgen.audit.references import RUN_SCRIPT, SET_IN_FRONT, Walk, project_top, run_folders
from docgen.audit.steps import own_clones
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.script_env import (
    Override,
    ScriptBuild,
    docker_builds,
    hands_environment_on,
    names_variable,
    overrides,
)


def _script_overrides(script: Path, folder: Path) -> dict[str, Override]:
    """What the script at `script` sets before reading it, run from `folder`."""
    text = text_or_none(script)
    if text is None:
        return {}
    return overrides(text, lambda p: os.path.isfile(folder / p), lambda p: text_or_none(folder / p))


@dataclass(frozen=True)
class _PrefixedRun:
    """A script a README's command runs with variables set in front of it (`GPU=true ./build.sh`)."""

    line: int
    path: str
    """The script as the command names it."""
    given: list[tuple[str, str]]
    """(name, value) of each variable set in front, quotes taken off."""
    script: Path
    """The script found, resolved."""
    folder: Path
    """The folder the command runs it from."""


def _prefixed_runs(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None
) -> Iterator[_PrefixedRun]:
    """Each `NAME=value ./script.sh` (or `NAME=value bash script.sh`) of a command block whose script is
    found where the block runs it (a `cd` into a clone of this repository enters its root)."""
    top = project_top(directory, project)
    walk = Walk(run_folders(directory, audited, top), top, home=True)
    cloned = own_clones(doc, directory)
    for line, step in walk.steps(doc.fences, joined=True):
        clone = cloned(line, step)
        if clone is not None:  # a clone of this repository: its folder is the repository's root
            walk.aliases[clone[0]] = [clone[1]]
            continue
        for match in RUN_SCRIPT.finditer(step):
            prefix = step[match.start() : match.start(1)]
            given = [(m.group(1), m.group(2).strip("\"'")) for m in SET_IN_FRONT.finditer(prefix)]
            if not given:
                continue
            path = match.group(1)
            folder = next((f for f in walk.folders if os.path.isfile(f / path)), None)
            if folder is not None:
                yield _PrefixedRun(line, path, given, Path(os.path.realpath(folder / path)), folder)


def overridden_prefixes(
    doc: Document,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """`NAME=value ./script.sh` (or `NAME=value bash script.sh`) in a command block, for a script found
    where the block runs it that sets NAME itself, or sources a file of that folder setting it, before
    any read of it, in a part of the script every run goes through (`docgen.script_env`), to another
    value (a `cd` into a clone of this repository enters its root): `README sets GPU=true for
    ./build.sh, but build.sh:55 sources .env.example, which sets GPU=false before the script reads
    GPU: the setting has no effect` (`certain`). With the audited `models`, also NAME a build arg of
    the Dockerfile the script builds that the script never names (`_unforwarded`)."""
    read: dict[tuple[Path, Path], dict[str, Override]] = {}
    for run in _prefixed_runs(doc, directory, audited, project):
        script, folder, path, line = run.script, run.folder, run.path, run.line
        if (script, folder) not in read:
            read[(script, folder)] = _script_overrides(script, folder)
        found = read[(script, folder)]
        for name, value in run.given:
            override = found.get(name)
            if override is None or override.value == value:
                continue
            how = (
                f"sources {override.file}, which sets {name}={override.value}"
                if override.file
                else f"sets {name}={override.value}"
            )
            yield Diagnostic(
                readme,
                line,
                f"README sets {name}={value} for {path}, but {script.name}:{override.line} {how} "
                f"before the script reads {name}: the setting has no effect",
                confidence=CERTAIN,
            )
        if models:
            yield from _unforwarded(run, readme, models, found)


def _built_args(
    run: _PrefixedRun, models: Sequence[ImageModel]
) -> tuple[str, list[tuple[ScriptBuild, ImageModel]]] | None:
    """The text of the script `run` runs and each image build of it with the audited model of the
    Dockerfile it builds; None when the script cannot be read or a build's Dockerfile is not audited."""
    text = text_or_none(run.script)
    if text is None:
        return None
    by_file = {os.path.realpath(m.file or m.path): m for m in models if m.file or m.path}
    builds = []
    for build in docker_builds(text):
        if build.file is None:
            return None  # a build of a Dockerfile docgen cannot tell
        base = run.script.parent if build.in_script else run.folder
        model = by_file.get(os.path.realpath(base / build.file))
        if model is None:
            return None
        builds.append((build, model))
    return text, builds


def _unforwarded(
    run: _PrefixedRun, readme: str, models: Sequence[ImageModel], overridden: Mapping[str, Override]
) -> Iterator[Diagnostic]:
    """`NAME=value ./rebuild.sh` where NAME is a build arg of the audited Dockerfile every build of the
    script builds, and the script names NAME nowhere (no `--build-arg NAME`, no `$NAME`) nor runs
    anything that may read its environment (`script_env.hands_environment_on`): the value never
    reaches the build (`certain`)."""
    read = _built_args(run, models)
    if read is None:
        return
    text, builds = read
    if not builds or hands_environment_on(text):
        return
    for name, value in run.given:
        if name in overridden or names_variable(text, name):
            continue
        declared = [(b, m, d) for b, m in builds for d in m.args if d.name == name]
        if not declared or {id(m) for _, m, _ in declared} != {id(m) for _, m in builds}:
            continue
        build, model, decl = declared[0]
        passed = ", ".join(f"--build-arg {n}" for n in sorted(build.passed))
        yield Diagnostic(
            readme,
            run.line,
            f"README sets {name}={value} for {run.path}, but {run.script.name}:{build.line} builds "
            f"{model.path} (ARG {name} at line {decl.line}) passing "
            f"{passed or 'no --build-arg'} and never reads {name}: the setting has no effect",
            confidence=CERTAIN,
        )


def forwarded_prefixes(
    doc: Document,
    directory: Path,
    audited: Sequence[str],
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> dict[int, list[tuple[str, str]]]:
    """README line → (name, value) of each variable set in front of a script there (`CUDA_ARCH=120
    ./rebuild.sh`) that the script passes as a build arg (`--build-arg CUDA_ARCH="$CUDA_ARCH"`,
    `--build-arg CUDA_ARCH`) to an audited Dockerfile declaring it, and does not set itself first."""
    found: dict[int, list[tuple[str, str]]] = {}
    for run in _prefixed_runs(doc, directory, audited, project):
        read = _built_args(run, models)
        if read is None:
            continue
        overridden = _script_overrides(run.script, run.folder)
        for name, value in run.given:
            if name in overridden:
                continue
            if any(name in b.forwarded and any(d.name == name for d in m.args) for b, m in read[1]):
                found.setdefault(run.line, []).append((name, value))
    return found
