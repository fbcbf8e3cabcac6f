"""GitHub Actions workflows (`.github/workflows/*.yml`): the build args CI passes when it builds an
image, read by `docgen audit` as it reads a bake or compose file (`docgen.bake`, `docgen.compose`).

Many images are built by CI only: the Dockerfile's `ARG BASE_IMAGE` has no default and the value lives
in the workflow. Each step that builds is one caller, as a bake target: a `docker/build-push-action`
step (`file`, `context`, `build-args`, `target`) or a `docker build` / `docker buildx build` in a `run:`
script (`-f`, the context, `--build-arg NAME=VALUE`, `--target`). A `matrix:` makes one caller per
combination of its values (`include` and `exclude` read as GitHub reads them).

A value is read where that is plain: `${{ inputs.X }}` and `${{ github.event.inputs.X }}` are the
input's `default` (`workflow_dispatch` or `workflow_call`), `${{ env.X }}` (and `$X` in a script) the
workflow's, job's or step's `env:`, `${{ matrix.X }}` the combination's, `${{ A || 'x' }}` `A` or else
`x`. Anything else (secrets, `vars`, a step's outputs, a function, a variable the script sets itself)
is unknown, and a build arg holding it is not passed: the Dockerfile's own default stays. Paths are
relative to the repository root (the folder holding `.github`); the targets' are made relative to the
workflow file's folder, as bake's are to the bake file's.

The version tags of a `docker/metadata-action` step are read for how they begin (`version_tags`): `v`
then the version, or the version's digits, from its rules, the tag patterns the workflow runs for, and
the `run:` script writing a job or step output a rule reads (`echo "version=$VERSION" >>
$GITHUB_OUTPUT`, every assignment of VERSION in that script).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import patterns
from docgen.bake import Target
from docgen.build_scripts import BUILD, TAG_COMMAND
from docgen.compose import KEY_LINES, line_of, load
from docgen.errors import ConfigError
from docgen.shell import ExpansionError, Unknown, expand, sh_words

FOLDER = ".github/workflows"
"""Where a repository keeps its GitHub Actions workflows."""
MAX_COMBINATIONS = 256
"""The most combinations of one matrix read (GitHub allows 256 jobs a matrix)."""
MAX_EXPRESSION = 1000
"""The longest `${{ … }}` read: a longer one is text holding `$` (unknown), and no `${{` left unclosed
on a long line is searched to its end (one search a `${{` would make the cost quadratic)."""
_EXPRESSION = re.compile(rf"\$\{{\{{(.{{0,{MAX_EXPRESSION}}}?)\}}\}}")
_SHELL_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_ASSIGNED = re.compile(r"(?:^|[;&|(])[ \t]*(?:export[ \t]+|local[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=")
"""A variable a script sets itself (at a command's start: `STAMP=$(date)`, `export TAG=x`)."""
_CONTEXT = re.compile(r"(?:github\.event\.)?(inputs|env|matrix)\.([A-Za-z0-9_-]+)\Z")
_HELD = re.compile(r"__docgen(\d+)__")
"""Where `_command_target` holds an expression while the command is split into words."""
MAX_WORD = 4096
"""The longest word (or quoted value) of a `docker build` command read: shlex grows a word a character
at a time, copying it each time, so a word of n characters costs n² (a 400,000-character `--build-arg`
took 4 s). A command holding a longer one is not read."""
_LONG_WORD = re.compile(rf"(?<![^ \t\r\n])[^ \t\r\n]{{{MAX_WORD}}}|\"[^\"]{{{MAX_WORD}}}|'[^']{{{MAX_WORD}}}")
"""A run of `MAX_WORD` characters that are no blank (from where one starts) or no quote (after one):
each try stops at the run's end, so the search is linear."""
_SETS = patterns.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*+)=")
"""`NAME=` on a line of a command, from where a name starts: tried at each letter of a long word, the
search read the rest of the word from each (n² for a word of n letters and no `=`)."""
_LITERAL = re.compile(r"'((?:[^']|'')*)'\Z")
_UNKNOWN = "\0"
"""What an expression docgen cannot read becomes: a value holding it is not passed."""
MAX_SCRIPTS = 1024 * 1024
"""The most characters of steps (`run:` scripts, `build-args`) one workflow is read for, each counted
once a matrix combination: a matrix or YAML aliases (`steps: [*build, *build, …]`) repeat a step, and a
few lines of a file could otherwise stand for hours of reading."""
_ROOT = "../../"
"""From a workflow file's folder to the repository root."""


def files(folder: Path, top: Path) -> list[Path]:
    """The workflow files of the repository holding `folder`: `.github/workflows/*.yml|yaml` in
    `folder` or the nearest folder above it that has any, not above `top`; sorted, at most 50."""
    here = folder
    while True:
        found = sorted(
            p for pattern in ("*.yml", "*.yaml") for p in (here / FOLDER).glob(pattern) if os.path.isfile(p)
        )
        if found:
            return found[:50]
        if here == top or here.parent == here or not here.is_relative_to(top):
            return []
        here = here.parent


def parse(data: bytes, display: str) -> tuple[Target, ...]:
    """The build steps of the workflow whose bytes are `data`, as bake targets named `job` (and the
    matrix values that tell a combination apart), each with the build args whose values can be read and
    the line that gives each value (see the module docstring). Raises `ConfigError` for text that is
    not YAML, or when PyYAML is not installed."""
    document = load(data, display, "a GitHub Actions workflow")
    if not isinstance(document, dict):
        return ()
    inputs = _inputs(document.get("on"))
    top_env = _env(document.get("env"), {})
    top_dir = _working_directory(document)
    jobs = document.get("jobs")
    if not isinstance(jobs, dict):
        return ()
    found: list[Target] = []
    budget = MAX_SCRIPTS
    for job_name, job in jobs.items():
        if job_name == KEY_LINES or not isinstance(job, dict) or not isinstance(job.get("steps"), list):
            continue
        job_dir = _working_directory(job) or top_dir
        for combination in _combinations(job.get("strategy")):
            scope = _Scope(inputs, {**top_env}, combination)
            scope.env.update(_env(job.get("env"), scope.as_env()))
            label = f"{posixpath.basename(display)}:{job_name}" + "".join(
                f" {v}" for v, _ in combination.values()
            )
            for step in job["steps"]:
                if not isinstance(step, dict):
                    continue
                budget -= _size(step)
                if budget < 0:
                    raise ConfigError(
                        f"its steps come to more than {MAX_SCRIPTS:,} characters of scripts to read, "
                        "each counted once a matrix combination (YAML aliases repeat them too)",
                        display,
                    )
                here = _Scope(inputs, {**scope.env, **_env(step.get("env"), scope.as_env())}, combination)
                folder = (
                    step.get("working-directory") if isinstance(step.get("working-directory"), str) else None
                )
                found.extend(_step_targets(step, here, label, folder or job_dir or "."))
    return tuple(found)


def _size(step: Mapping[str, Any]) -> int:
    """The characters of a step that are read: its `run:` script or its action's `build-args`."""
    run = step.get("run")
    given = step.get("with")
    args = given.get("build-args") if isinstance(given, dict) else None
    items = args if isinstance(args, list) else [run, args]
    return sum(len(item) for item in items if isinstance(item, str))


class _Scope:
    """The values a step's expressions can read: inputs' defaults, env, the matrix combination, each
    with the line that gives it."""

    def __init__(
        self,
        inputs: Mapping[str, tuple[str, int | None]],
        env: dict[str, tuple[str, int | None]],
        matrix: Mapping[str, tuple[str, int | None]],
    ) -> None:
        self.inputs, self.env, self.matrix = inputs, env, matrix

    def as_env(self) -> dict[str, tuple[str, int | None]]:
        return dict(self.env)

    def lookup(self, expression: str) -> tuple[str, int | None] | None:
        """`expression` (the inside of `${{ }}`) read, or None when it is not plain."""
        # `inputs.X || 'x'`: an input a push leaves empty, its fallback; one of a context docgen
        # cannot read (`vars.X || 'x'`: the repository may set it) is unknown. (A loop, not a
        # recursion: a chain of a thousand `||` is one expression.)
        *firsts, last = (part.strip() for part in expression.split("||"))
        for first in firsts:
            if not _CONTEXT.match(first) and not _LITERAL.match(first):
                return None
            value = self._plain(first)
            if value is not None and value[0]:
                return value
        return self._plain(last)

    def _plain(self, expression: str) -> tuple[str, int | None] | None:
        """One operand of `lookup`: a literal, `github.workspace` or a context's value."""
        if (literal := _LITERAL.match(expression)) is not None:
            return literal[1].replace("''", "'"), None
        if expression == "github.workspace":
            return ".", None
        context = _CONTEXT.match(expression)
        if context is None:
            return None
        table = {"inputs": self.inputs, "env": self.env, "matrix": self.matrix}[context[1]]
        return table.get(context[2])

    def expand(self, text: str) -> tuple[str, int | None]:
        """`text` with its expressions replaced by their values (`_UNKNOWN` for one not plain), and the
        line giving the value when the text is one expression alone (None otherwise)."""
        whole = _EXPRESSION.fullmatch(text.strip())
        if whole is not None and "}}" not in whole[1]:  # (not `${{ a }}/${{ b }}`: two expressions)
            value = self.lookup(whole[1])
            return (_UNKNOWN, None) if value is None else value
        return _EXPRESSION.sub(lambda m: (self.lookup(m[1]) or (_UNKNOWN, None))[0], text), None


def _scalar(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _inputs(on: object) -> dict[str, tuple[str, int | None]]:
    """The inputs of `workflow_dispatch` and `workflow_call` that have a default → (it, its line)."""
    found: dict[str, tuple[str, int | None]] = {}
    if not isinstance(on, dict):
        return found
    for trigger in ("workflow_call", "workflow_dispatch"):  # (a dispatch's default wins)
        event = on.get(trigger)
        inputs = event.get("inputs") if isinstance(event, dict) else None
        if not isinstance(inputs, dict):
            continue
        for name, spec in inputs.items():
            if name != KEY_LINES and isinstance(spec, dict) and (default := _scalar(spec.get("default"))):
                found[str(name)] = (default, line_of(spec, "default"))
    return found


def _env(env: object, outer: Mapping[str, tuple[str, int | None]]) -> dict[str, tuple[str, int | None]]:
    """An `env:` mapping → name → (value, line), expressions in it read against `outer` (an env or
    input they name); a value holding one not plain is left out."""
    found: dict[str, tuple[str, int | None]] = {}
    if not isinstance(env, dict):
        return found
    scope = _Scope({}, dict(outer), {})
    for name, raw in env.items():
        value = _scalar(raw)
        if name == KEY_LINES or value is None:
            continue
        expanded, at = scope.expand(value)
        if _UNKNOWN not in expanded:
            found[str(name)] = (expanded, at if at is not None else line_of(env, name))
    return found


def _working_directory(holder: Mapping[str, Any]) -> str | None:
    """`defaults.run.working-directory` of a workflow or job."""
    defaults = holder.get("defaults")
    run = defaults.get("run") if isinstance(defaults, dict) else None
    return _scalar(run.get("working-directory")) if isinstance(run, dict) else None


def _combinations(strategy: object) -> list[dict[str, tuple[str, int | None]]]:
    """The combinations of a job's `strategy.matrix` (one empty one without), each key → (value, line):
    the product of its lists, less `exclude`, with `include` extending the combinations it matches or
    added alone. A matrix docgen cannot read (an expression, more than `MAX_COMBINATIONS`) gives the
    job no combination: its matrix values are unknown."""
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if matrix is None:
        return [{}]
    if not isinstance(matrix, dict):
        return []
    axes: list[list[tuple[str, str, int | None]]] = []
    for key, values in matrix.items():
        if key in (KEY_LINES, "include", "exclude"):
            continue
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            return []  # an expression (`fromJSON(…)`) or mappings: not plain
        axes.append([(str(key), v, line_of(matrix, key)) for v in values])
    size = 1
    for axis in axes:
        size *= len(axis)
    if size > MAX_COMBINATIONS:
        return []
    combos = [{k: (v, at) for k, v, at in chosen} for chosen in itertools.product(*axes)] if axes else []
    for entry in _entries(matrix.get("exclude")):
        combos = [c for c in combos if any(c.get(k, (None,))[0] != v for k, (v, _) in entry.items())]
    originals = {key for key, _, _ in (axis[0] for axis in axes)}
    product = list(combos)  # an `include` extends these only, never a combination another one added
    for entry in _entries(matrix.get("include")):
        matched = False
        for combo in product:
            if all(combo[k][0] == v for k, (v, _) in entry.items() if k in originals):
                combo.update({k: value for k, value in entry.items() if k not in originals})
                matched = True
        if not matched:
            combos.append(dict(entry))
    return combos[:MAX_COMBINATIONS] or [{}]


def _entries(raw: object) -> Iterator[dict[str, tuple[str, int | None]]]:
    """The plain entries of a matrix's `include` or `exclude` list."""
    if not isinstance(raw, list):
        return
    for entry in raw:
        if isinstance(entry, dict):
            yield {
                str(k): (v, line_of(entry, k))
                for k, v in entry.items()
                if k != KEY_LINES and isinstance(v, str)
            }


def _step_targets(step: Mapping[str, Any], scope: _Scope, label: str, folder: str) -> Iterator[Target]:
    """The builds of one step (see the module docstring)."""
    uses = _scalar(step.get("uses")) or ""
    if uses.startswith("docker/build-push-action"):
        given = step.get("with")
        if isinstance(given, dict):
            target = _action_target(given, scope, label)
            if target is not None:
                yield target
        return
    run = step.get("run")
    if isinstance(run, str):
        first = line_of(step, "run")
        yield from _run_targets(run, first, scope, label, folder)


def _path(value: object, scope: _Scope, default: str) -> str | None:
    """A path the step gives (its expressions read), None when it is not plain."""
    raw = _scalar(value)
    if raw is None:
        return default
    expanded, _ = scope.expand(raw)
    return None if _UNKNOWN in expanded or "$" in expanded else expanded


def _action_target(given: Mapping[str, Any], scope: _Scope, label: str) -> Target | None:
    """A `docker/build-push-action` step's `with:` as a target."""
    context = _path(given.get("context"), scope, ".")
    if context is None or "://" in context:
        return None
    dockerfile = _path(given.get("file"), scope, posixpath.join(context, "Dockerfile"))
    if dockerfile is None:
        return None
    args: dict[str, str] = {}
    lines: dict[str, int | None] = {}
    raw = given.get("build-args")
    start = line_of(given, "build-args")
    entries: list[tuple[str, int | None]] = []
    if isinstance(raw, str):
        block = start is not None and "\n" in raw  # a block scalar starts on the line below its key
        entries = [
            (text, start + index + 1 if block and start is not None else start)
            for index, text in enumerate(raw.splitlines())
        ]
    elif isinstance(raw, list):
        entries = [(text, start) for text in raw if isinstance(text, str)]
    for text, at in entries:
        name, sep, value = text.strip().partition("=")
        if sep and name:
            _pass(args, lines, name.strip(), value.strip(), at, scope)
    stage = _path(given.get("target"), scope, "")
    found = _target(label, dockerfile, context, args, lines, stage or None, line_of(given, "target"))
    said = given.get("platforms")
    raw_platforms = (
        ",".join(p for p in said if isinstance(p, str)) if isinstance(said, list) else _scalar(said)
    )
    if found is None or not raw_platforms:
        return found
    expanded, _ = scope.expand(raw_platforms)
    if _UNKNOWN in expanded or "$" in expanded:
        return found
    platforms = tuple(p.strip() for p in re.split(r"[,\s]+", expanded) if p.strip())
    return dataclasses.replace(found, platforms=platforms, platforms_line=line_of(given, "platforms"))


def _pass(
    args: dict[str, str],
    lines: dict[str, int | None],
    name: str,
    value: str,
    at: int | None,
    scope: _Scope,
    shell: bool = False,
) -> None:
    """Build arg `name` set to `value` (its expressions read, and in a `shell` command its `$NAME` the
    env's) when that is plain; its line the one giving the value (an input's default, an env's or
    matrix's line) or else `at`. An action's `build-args` are not expanded by a shell: `$` there is
    unknown."""
    expanded, source = scope.expand(value)
    if shell:
        expanded = _SHELL_VAR.sub(lambda m: scope.env.get(m[1] or m[2], (_UNKNOWN, None))[0], expanded)
        alone = _SHELL_VAR.fullmatch(value.strip('"'))  # `$NAME` of the env: the env's line
        if source is None and alone is not None:
            source = scope.env.get(alone[1] or alone[2], ("", None))[1]
    if _UNKNOWN in expanded or "`" in expanded or "$" in expanded:
        return
    args[name] = expanded.strip("\"'")
    lines[name] = source if source is not None else at


def _target(
    label: str,
    dockerfile: str,
    context: str,
    args: dict[str, str],
    lines: dict[str, int | None],
    stage: str | None,
    stage_line: int | None,
) -> Target | None:
    if posixpath.isabs(dockerfile) or posixpath.isabs(context):
        return None
    return Target(
        name=label,
        dockerfile=posixpath.normpath(_ROOT + dockerfile),
        args=args,
        target=stage,
        tags=(),
        target_line=stage_line if stage else None,
        own_args=lines,
        context=posixpath.normpath(_ROOT + context),
    )


def _run_targets(run: str, first: int | None, scope: _Scope, label: str, folder: str) -> Iterator[Target]:
    """The `docker build` commands of a `run:` script as targets; a variable the script assigns is not
    the env's (unknown)."""
    assigned = {m[1] for line in run.splitlines() for m in _ASSIGNED.finditer(line)}
    shell = _Scope(scope.inputs, {k: v for k, v in scope.env.items() if k not in assigned}, scope.matrix)
    lines = run.splitlines()
    offset = 1 if first is not None and "\n" in run else 0  # a block scalar starts below `run:`
    index = 0
    while index < len(lines):
        start = index
        parts = [lines[index]]
        while parts[-1].rstrip().endswith("\\") and index + 1 < len(lines):
            index += 1
            parts[-1] = parts[-1].rstrip()[:-1]
            parts.append(lines[index])
        index += 1
        command = " ".join(parts)  # (joined once: a join a line would copy the command each time)
        if not BUILD.search(command):
            continue
        where = {n: (first + offset + n if first is not None else None) for n in range(start, index)}
        target = _command_target(command, lines[start:index], where, start, shell, label, folder)
        if target is not None:
            yield target


def _command_target(
    command: str,
    physical: list[str],
    where: Mapping[int, int | None],
    start: int,
    scope: _Scope,
    label: str,
    folder: str,
) -> Target | None:
    """One `docker build` command (continuation lines joined) as a target."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match[0])
        return f"__docgen{len(held) - 1}__"

    if _LONG_WORD.search(command):
        return None
    try:
        words = sh_words(_EXPRESSION.sub(hold, command))
    except ValueError:
        return None
    words = [_HELD.sub(lambda m: _held(m, held), w) if "__docgen" in w else w for w in words]
    arg_lines = _arg_lines(physical, where, start)
    match = BUILD.search(command)
    verbs = len(shlex.split(_EXPRESSION.sub(hold, command[: match.end()]))) if match else len(words)
    rest = words[verbs:]
    args: dict[str, str] = {}
    lines: dict[str, int | None] = {}
    dockerfile: str | None = None
    stage: str | None = None
    context: str | None = None
    position = 0
    while position < len(rest):
        word = rest[position]
        if word in ("&&", "||", ";", "|") or word.endswith(";"):
            break
        value: str | None = None
        flag = word
        if "=" in word and word.startswith("--"):
            flag, _, value = word.partition("=")
        if flag in ("--build-arg", "-f", "--file", "--target", "-t", "--tag", "--platform", "--label"):
            if value is None:
                position += 1
                value = rest[position] if position < len(rest) else ""
            if flag == "--build-arg":
                name, sep, given = value.partition("=")
                if sep:
                    at = arg_lines.get(name, where[start])
                    _pass(args, lines, name, given, at, scope, shell=True)
            elif flag in ("-f", "--file"):
                dockerfile = value
            elif flag == "--target":
                stage = value
        elif not word.startswith("-"):
            context = word  # the last word that is no flag (another flag's value comes before it)
        position += 1
    if context is None or context == "-" or "://" in context:
        return None
    context_path, _ = scope.expand(context)
    file_path, _ = scope.expand(dockerfile) if dockerfile is not None else ("", None)
    if _UNKNOWN in context_path + file_path or "$" in context_path + file_path:
        return None
    context_path = posixpath.join(folder, context_path)
    file_path = (
        posixpath.join(folder, file_path)
        if dockerfile is not None
        else posixpath.join(context_path, "Dockerfile")
    )
    stage_value = scope.expand(stage)[0] if stage is not None else None
    if stage_value is not None and (_UNKNOWN in stage_value or "$" in stage_value):
        return None
    return _target(label, file_path, context_path, args, lines, stage_value, None)


def _held(match: re.Match[str], held: list[str]) -> str:
    """The expression `_command_target` held at `match` (a `__docgen7__` of the script's own, text)."""
    index = int(match[1])
    return held[index] if index < len(held) else match[0]


def _arg_lines(physical: list[str], where: Mapping[int, int | None], start: int) -> dict[str, int | None]:
    """Each name set on a line of a command (`NAME=`) → the line of the first that sets it: one pass,
    not a search of every line a build arg."""
    found: dict[str, int | None] = {}
    for index, text in enumerate(physical):
        for match in _SETS.finditer(text):
            found.setdefault(match[1], where[start + index])
    return found


@dataclass(frozen=True)
class Push:
    """What one `docker/build-push-action` step of one matrix combination publishes."""

    job: str
    """The job's name and its combination's values (`build full-cuda`)."""
    tags: tuple[str, ...]
    """Its `tags:`, expressions read (`UNKNOWN` where one is not plain)."""
    tags_line: int | None
    """The line of its `tags:`."""
    platforms: tuple[str, ...] | None
    """Its `platforms:` (None when it sets none: the runner's own platform is built)."""
    runner: str | None
    """The job's `runs-on` when it is one plain name (`ubuntu-latest`), else None."""
    line: int | None
    """The line of the step's `uses:`."""
    platform_said: bool = False
    """True when the workflow names a platform anywhere else (`setup-buildx-action`'s `platforms:`, a
    `DOCKER_DEFAULT_PLATFORM`): the platform built may be another than the runner's."""
    rules: tuple[tuple[str, str, str], ...] = ()
    """When its `tags:` are a `docker/metadata-action` step's output: (image as read, a pattern of the
    tags one rule of that step gives it, those tags as shown) (`metadata_rules`); its `tags` are then
    ()."""
    dockerfile: str | None = None
    """The Dockerfile it builds, from the workspace's top (`file:`, else `CONTEXT/Dockerfile`); None when
    not plain."""


UNKNOWN = _UNKNOWN
"""What an expression docgen cannot read becomes in a `Push`."""


def pushes(data: bytes, display: str, repository: str | None = None) -> tuple[Push, ...] | None:
    """What the workflow whose bytes are `data` publishes with `docker/build-push-action` (one `Push` a
    step and matrix combination; a step with `push: false` publishes nothing); None when docgen cannot
    tell: a job that builds with a matrix it cannot read, or calls a reusable workflow. `${{ env.X }}`
    reads too what an earlier `run:` step of the job writes to `$GITHUB_ENV` (`echo
    "REPO=${GITHUB_REPOSITORY,,}" >> $GITHUB_ENV`, `GITHUB_REPOSITORY` = `repository`, unknown when
    None). Raises `ConfigError` as `parse` does."""
    document = load(data, display, "a GitHub Actions workflow")
    if not isinstance(document, dict):
        return ()
    inputs = _inputs(document.get("on"))
    top_env = _env(document.get("env"), {})
    jobs = document.get("jobs")
    if not isinstance(jobs, dict):
        return ()
    found: list[Push] = []
    elsewhere = len(re.findall(r"platform", data.decode("utf-8", errors="replace"), re.IGNORECASE))
    for job_name, job in jobs.items():
        if job_name == KEY_LINES or not isinstance(job, dict):
            continue
        if job.get("uses") is not None:
            return None
        steps = [s for s in job.get("steps") or () if isinstance(s, dict)]
        builders = [s for s in steps if (_scalar(s.get("uses")) or "").startswith("docker/build-push-action")]
        if not builders:
            continue
        combinations = _combinations(job.get("strategy"))
        if not combinations:
            return None
        runner = _scalar(job.get("runs-on"))
        metas = {
            str(s["id"]): s
            for s in steps
            if (_scalar(s.get("uses")) or "").startswith("docker/metadata-action") and s.get("id") is not None
        }
        for combination in combinations:
            scope = _Scope(inputs, {**top_env}, combination)
            scope.env.update(_env(job.get("env"), scope.as_env()))
            shown_runner = scope.expand(runner)[0] if runner is not None else None
            label = str(job_name) + "".join(f" {v}" for v, _ in combination.values())
            exported: dict[str, str] = {} if repository is None else {"GITHUB_REPOSITORY": repository}
            for step in steps:
                if isinstance(step.get("run"), str) and "GITHUB_ENV" in step["run"]:
                    values = {**{k: v for k, (v, _) in scope.env.items()}, **exported}
                    for line in scope.expand(step["run"])[0].splitlines():
                        _export(line, values, exported)
                if not any(step is b for b in builders):
                    continue
                written = {k: (v, None) for k, v in exported.items() if k != "GITHUB_REPOSITORY"}
                env = {**scope.env, **written}
                here = _Scope(inputs, {**env, **_env(step.get("env"), env)}, combination)
                given = step.get("with")
                if not isinstance(given, dict):
                    continue
                push = given.get("push")
                if (
                    push is False
                    or (isinstance(push, str) and push.strip().lower() == "false")
                    or push is None
                ):
                    continue  # (build-push-action pushes only when told to)
                tags = _listed(given.get("tags"), here)
                rules: tuple[tuple[str, str, str], ...] = ()
                read = _META_OUTPUT.fullmatch((_scalar(given.get("tags")) or "").strip())
                meta = metas.get(read[1]) if read is not None else None
                if meta is not None and isinstance(meta.get("with"), dict):
                    meta_scope = _Scope(inputs, {**env, **_env(meta.get("env"), env)}, combination)
                    tags, rules = (), metadata_rules(meta["with"], meta_scope, document.get("on"))
                context = _path(given.get("context"), here, ".")
                dockerfile = (
                    _path(given.get("file"), here, posixpath.join(context, "Dockerfile"))
                    if context is not None and "://" not in context
                    else None
                )
                found.append(
                    Push(
                        job=label,
                        tags=tags,
                        rules=rules,
                        dockerfile=posixpath.normpath(dockerfile) if dockerfile else None,
                        tags_line=line_of(given, "tags"),
                        platforms=_listed(given["platforms"], here) if "platforms" in given else None,
                        runner=shown_runner if shown_runner and _UNKNOWN not in shown_runner else None,
                        line=line_of(step, "uses"),
                        platform_said=elsewhere > (1 if "platforms" in given else 0),
                    )
                )
    return tuple(found)


_META_OUTPUT = re.compile(r"\$\{\{[ \t]*steps\.([\w-]+)\.outputs\.tags[ \t]*\}\}")
"""A `docker/build-push-action` step's `tags:` read from a metadata step's output."""
ANY_TAG = r"[\w][\w.-]*"
"""The pattern of a tag docgen cannot tell (any)."""
_ANY_REF = frozenset({"workflow_dispatch", "workflow_call", "repository_dispatch"})
"""Triggers that may run a workflow on any branch or tag."""
_SEMVER_PART = re.compile(r"\{\{[ \t]*(?:version|major|minor|patch)[ \t]*\}\}")


def _tag_pattern(text: str) -> str:
    """A pattern of the tags a metadata rule's value, prefix or suffix may give: its literal text, a
    version for `{{version}}`, `{{major}}` …, any word for another placeholder or an expression docgen
    cannot read (`UNKNOWN`)."""
    out: list[str] = []
    for index, part in enumerate(re.split(r"(\{\{[^{}]*\}\}|\x00)", text)):
        if index % 2 == 0:
            out.append(re.escape(part))
        elif _SEMVER_PART.fullmatch(part):
            out.append(r"\d[\w.-]*")
        else:
            out.append(ANY_TAG)
    return "".join(out)


def _glob_pattern(globs: object) -> str | None:
    """The pattern of the names the `on.push` filter `globs` (`['v*']`, `main`) lets through, a `/` made
    `-` as metadata-action makes it; None with no filter (any name)."""
    items = [globs] if isinstance(globs, str) else globs if isinstance(globs, list) else None
    if not items:
        return None
    parts = []
    for item in items:
        text = str(item)
        if text.startswith("!"):
            continue
        parts.append("".join(ANY_TAG if c in "*?[]{}" else re.escape("-" if c == "/" else c) for c in text))
    return "(?:" + "|".join(parts) + ")" if parts else None


def metadata_rules(given: Mapping[str, Any], scope: _Scope, on: object) -> tuple[tuple[str, str, str], ...]:
    """(image, tag pattern, the tags as shown) for each image and `tags:` rule of a
    `docker/metadata-action` step's `with:`: `type=raw,value=cuda-${{ matrix.cuda }}` its value read;
    `type=semver,pattern={{version}}` a version; `type=ref,event=branch` or `event=tag` the names
    `on.push` lets through (any with no filter); `type=sha`, `type=edge`, `type=schedule`,
    `type=ref,event=pr`; a rule or `{{placeholder}}` docgen cannot read: any tag. The `flavor:` prefix
    and suffix are added, and `latest` when the flavor gives it (`latest=auto` with a version or git
    tag rule, `latest=true`)."""
    images: list[str] = []
    for item in re.split(r"[\n,]+", scope.expand(_scalar(given.get("images")) or "")[0]):
        item = item.strip()
        key, eq, value = item.partition("=")
        if eq and key.strip() == "name":
            images.append(value.strip())
        elif item and not eq:
            images.append(item)
    flavor = scope.expand(_scalar(given.get("flavor")) or "")[0]
    settings = dict(
        (k.strip(), v.strip()) for line in flavor.splitlines() for k, eq, v in [line.partition("=")] if eq
    )
    push = on.get("push") if isinstance(on, dict) else None
    # (a run by hand or by another workflow may be on any branch or tag)
    filters = (
        push if isinstance(push, dict) and isinstance(on, dict) and not _ANY_REF.intersection(on) else {}
    )
    tag_patterns: list[tuple[str, str]] = []
    latest = settings.get("latest", "auto")
    written = given.get("tags")
    rules = written if isinstance(written, list) else (_scalar(written) or "").splitlines()
    for rule in (str(r).strip() for r in rules):
        if not rule or rule.startswith("#"):
            continue  # (metadata-action reads `#` lines as comments)
        fields: dict[str, str] = {}
        for part in re.split(r",(?![^{]*\}\})", scope.expand(rule)[0]):
            key, eq, value = part.partition("=")
            fields[key.strip()] = value.strip() if eq else ""
        kind = fields.get("type", "raw" if "value" in fields else "")
        if fields.get("enable", "true") == "false":
            continue
        if kind in ("semver", "pep440", "match") or (kind == "ref" and fields.get("event") == "tag"):
            latest = "true" if latest == "auto" else latest
        event = fields.get("event", "")
        if kind == "raw":
            pattern, shown = _tag_pattern(fields.get("value", "")), fields.get("value", "")
        elif kind in ("semver", "pep440") and "value" not in fields:
            shown = fields.get("pattern", "{{version}}")
            pattern = _tag_pattern(shown)
        elif kind == "ref" and event in ("branch", "tag"):
            globs = filters.get("branches" if event == "branch" else "tags")
            pattern, shown = _glob_pattern(globs) or ANY_TAG, f"<{event}>"
        elif kind == "ref" and event == "pr":
            pattern, shown = r"pr-\d+", "pr-<number>"
        elif kind == "sha":
            shown = fields.pop("prefix", "sha-") + "<commit>"
            pattern = _tag_pattern(shown.removesuffix("<commit>")) + r"[0-9a-f]{7,40}"
        elif kind == "edge":
            pattern, shown = "edge", "edge"
        elif kind == "schedule":
            shown = fields.get("pattern", "nightly")
            pattern = _tag_pattern(shown)
        else:
            pattern, shown = ANY_TAG, rule
        prefix = fields.get("prefix", settings.get("prefix", ""))
        suffix = fields.get("suffix", settings.get("suffix", ""))
        whole = (prefix + shown + suffix).replace(_UNKNOWN, "*")
        tag_patterns.append((_tag_pattern(prefix) + pattern + _tag_pattern(suffix), whole))
    if latest == "true":
        before, after = _tag_pattern(settings.get("prefix", "")), _tag_pattern(settings.get("suffix", ""))
        tag_patterns.append((f"(?:{before})?latest(?:{after})?", "latest"))
    return tuple((image, pattern, shown) for image in images for pattern, shown in tag_patterns)


def _listed(value: object, scope: _Scope) -> tuple[str, ...]:
    """An action input that is a list (`tags:`, `platforms:`: lines or commas, or a YAML list), each
    item's expressions read; one `UNKNOWN` item for a value that is not text."""
    if isinstance(value, list):
        items = [str(v) for v in value]
    elif isinstance(value, str):
        items = [part for line in value.splitlines() for part in line.split(",")]
    else:
        return (_UNKNOWN,)
    return tuple(expanded for item in items if (expanded := scope.expand(item.strip())[0].strip()))


SCRIPT_PUSH = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?push\b")
"""A `docker push` in a workflow's text."""
_PUSH_LINE = re.compile(r"[ \t]*(?:sudo[ \t]+)?(?:docker|podman)[ \t]+(?:image[ \t]+)?push[ \t]+(.*)\Z")
"""A script line that is one push: its words after `push`."""
_TO_GITHUB_ENV = re.compile(
    r"[ \t]*echo[ \t]+([\"']?)([A-Za-z_][A-Za-z0-9_]*)=([^\"'\s]*)\1[ \t]*>>[ \t]*"
    r"\"?\$(?:GITHUB_ENV|\{GITHUB_ENV\})\"?[ \t]*\Z"
)
"""A script line that sets a variable for the job's later steps (`echo "REPO=…" >> $GITHUB_ENV`)."""
_SCRIPT_ASSIGNMENT = re.compile(r"[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=(\S*)[ \t]*\Z")
"""A script line that is one assignment (`IMAGE=ghcr.io/${REPO}/app`)."""
_LOWERED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*),,\}")
"""Bash's lower-casing expansion (`${GITHUB_REPOSITORY,,}`)."""


def _script_value(text: str, values: Mapping[str, str]) -> str | None:
    """A script word's value, its variables read from `values`; None when one is not known (set by a
    command, `$(date +%Y%m%d)`, or outside the workflow)."""
    if "$(" in text or "`" in text or UNKNOWN in text:
        return None
    lowered = _LOWERED.sub(lambda m: values[m[1]].lower() if m[1] in values else m[0], text)
    try:
        found = expand(lowered, lambda name: values.get(name, Unknown("set outside the script")))
    except ExpansionError:
        return None
    return found.text if found.known else None


def _export(line: str, values: dict[str, str], exported: dict[str, str]) -> bool:
    """True when the script line `line` writes a variable to `$GITHUB_ENV`; its value (read from
    `values`) is then set in `values` and `exported`, or taken out of both when not known."""
    sets = _TO_GITHUB_ENV.match(line)
    if sets is None:
        return False
    value = _script_value(sets[3], values)
    if value is not None:
        exported[sets[2]] = values[sets[2]] = value
    else:
        exported.pop(sets[2], None)
        values.pop(sets[2], None)
    return True


def script_pushes(
    data: bytes, display: str, repository: str | None, retags: dict[str, str] | None = None
) -> tuple[str, ...] | None:
    """The references the `docker push` lines of the workflow's `run:` scripts push, one a line and
    matrix combination (a tag set by a command is kept as `${NAME}`), their variables read from the
    script's own assignments (`IMAGE=ghcr.io/${REPO}/app`), what earlier steps of the job write to
    `$GITHUB_ENV` (`echo "REPO=${GITHUB_REPOSITORY,,}" >> $GITHUB_ENV`), env and matrix values, with
    `GITHUB_REPOSITORY` = `repository` (unknown when None). None when docgen cannot tell: a push whose
    repository part it cannot read, a push written elsewhere than as a script line of its own, a
    matrix it cannot read, a reusable workflow. `retags`, when given, gets the name each `docker tag
    SOURCE TARGET` line of those scripts gives an image → the image it names, both read so. Raises
    `ConfigError` as `parse` does."""
    document = load(data, display, "a GitHub Actions workflow")
    if not isinstance(document, dict) or not isinstance(jobs := document.get("jobs"), dict):
        return ()
    inputs = _inputs(document.get("on"))
    top_env = _env(document.get("env"), {})
    found: list[str] = []
    read = 0
    for job_name, job in jobs.items():
        if job_name == KEY_LINES or not isinstance(job, dict):
            continue
        if job.get("uses") is not None:
            return None
        steps = [s for s in job.get("steps") or () if isinstance(s, dict) and isinstance(s.get("run"), str)]
        if not any(SCRIPT_PUSH.search(s["run"]) for s in steps):
            continue
        combinations = _combinations(job.get("strategy"))
        if not combinations:
            return None
        for number, combination in enumerate(combinations):
            scope = _Scope(inputs, {**top_env}, combination)
            scope.env.update(_env(job.get("env"), scope.as_env()))
            exported: dict[str, str] = {} if repository is None else {"GITHUB_REPOSITORY": repository}
            for step in steps:
                env = {**scope.env, **_env(step.get("env"), scope.as_env())}
                here = _Scope(inputs, env, combination)
                values = {**{k: v for k, (v, _) in env.items()}, **exported}
                lines = here.expand(step["run"].replace("\\\n", " "))[0].splitlines()
                for line in lines:
                    if _export(line, values, exported):
                        pass
                    elif (assigned := _SCRIPT_ASSIGNMENT.match(line)) is not None:
                        value = _script_value(assigned[2], values)
                        if value is not None:
                            values[assigned[1]] = value
                        else:
                            values.pop(assigned[1], None)
                    elif retags is not None and (tagged := TAG_COMMAND.search(line)) is not None:
                        source, target = (_script_value(w.strip('"'), values) for w in tagged.groups())
                        if source is not None and target is not None:
                            retags.setdefault(target, source)
                    elif (push := _PUSH_LINE.match(line)) is not None:
                        read += number == 0
                        try:
                            words = [w for w in sh_words(push[1]) if not w.startswith("-")]
                        except ValueError:
                            return None
                        if len(words) != 1:
                            return None
                        name, colon, tag = words[0].rpartition(":")
                        if not colon or "/" in tag:
                            name, tag = words[0], ""
                        reference = _script_value(name, values)
                        if reference is None:
                            return None
                        found.append(f"{reference}:{tag}" if tag else reference)
    if read != len(SCRIPT_PUSH.findall(data.decode("utf-8", errors="replace"))):
        return None  # a push written another way (`… && docker push x`, in a `with:`): not read
    return tuple(found)


@dataclass(frozen=True)
class VersionForm:
    """How the version tags one rule of a workflow makes begin: the text before the version (`v` for
    `v1.2.3`, `` for `1.2.3`), and whether a digit comes right after it."""

    prefix: str
    digit: bool
    """True when the rule puts the version's digits right after `prefix` (`{{version}}` of a semver tag),
    False when what follows is not known (`v$VERSION` of a script)."""
    rule: str
    """The rule as written (`type=raw,value=${{ needs.release.outputs.version }}`)."""
    line: int | None
    """The line of the `tags:` (or `images:`) it is a rule of."""

    def may_give(self, tag: str) -> bool:
        """True when this rule may make the tag `tag`."""
        if not tag.startswith(self.prefix):
            return False
        rest = tag[len(self.prefix) :]
        return not self.digit or rest[:1].isdigit()


@dataclass(frozen=True)
class VersionTags:
    """The version tags a `docker/metadata-action` step of a workflow gives its images."""

    images: tuple[str, ...]
    """Its `images:`, expressions read (`UNKNOWN` where one is not plain)."""
    forms: tuple[VersionForm, ...] | None
    """How each of its rules that makes a version tag begins; None when one of them cannot be read."""


_VERSION_LITERAL = re.compile(r"(v?)\d+(?:\.\d+)+")
_OUTPUT_LINE = re.compile(
    r"echo[ \t]+[\"']?([A-Za-z_][\w-]*)=(\S*?)[\"']?[ \t]*>>[ \t]*\"?\$\{?GITHUB_OUTPUT\}?\"?"
    r"|::set-output[ \t]+name=([A-Za-z_][\w-]*)::(\S*?)[\"']?[ \t]*$"
)
"""A script line setting a step's output (`echo "version=$VERSION" >> $GITHUB_OUTPUT`)."""
_NEEDS_OUTPUT = re.compile(r"needs\.([\w-]+)\.outputs\.([\w-]+)\Z")
_STEP_OUTPUT = re.compile(r"steps\.([\w-]+)\.outputs\.([\w-]+)\Z")
_SCRIPT_SET = re.compile(r"^[ \t]*(?:export[ \t]+|local[ \t]+)?([A-Za-z_]\w*)=(\S*)", re.MULTILINE)


def _shell_start(value: str, script: str, depth: int = 0) -> tuple[str, bool] | None:
    """(the literal text a shell value starts with, whether a version's digits follow it) of `value` as
    the script `script` sets it: `v$NEXT` → (`v`, False), `1.2.0` → (``, True), `$VERSION` → what every
    assignment of VERSION in the script starts with, when they agree; None when not known."""
    value = value.strip("\"'")
    start = re.split(r"[$`]", value, maxsplit=1)[0]
    if start:
        version = _VERSION_LITERAL.match(start)
        return (version.group(1), True) if version is not None else (start, False)
    variable = re.match(r"\$\{?([A-Za-z_]\w*)\}?", value)
    if variable is None or depth > 2:
        return None  # empty, or set by a command (`$(cat VERSION)`)
    assigned = [m.group(2) for m in _SCRIPT_SET.finditer(script) if m.group(1) == variable.group(1)]
    starts = {_shell_start(a, script, depth + 1) for a in assigned}
    return starts.pop() if len(starts) == 1 and None not in starts else None


def _output_start(
    expression: str, jobs: Mapping[str, Any], job: Mapping[str, Any]
) -> tuple[str, bool] | None:
    """What the value of a job's or step's output (`needs.release.outputs.version`,
    `steps.ver.outputs.version`) starts with (`_shell_start`), read from the `run:` script of the step
    that writes it; None when not known."""
    needs = _NEEDS_OUTPUT.match(expression)
    if needs is not None:
        other = jobs.get(needs[1])
        outputs = other.get("outputs") if isinstance(other, dict) else None
        value = _scalar(outputs.get(needs[2])) if isinstance(outputs, dict) else None
        inner = _EXPRESSION.fullmatch(value.strip()) if value is not None else None
        if inner is None or not isinstance(other, dict):
            return None
        expression, job = inner[1].strip(), other
    step_output = _STEP_OUTPUT.match(expression)
    if step_output is None:
        return None
    step = next(
        (s for s in job.get("steps") or () if isinstance(s, dict) and s.get("id") == step_output[1]), None
    )
    script = _scalar(step.get("run")) if step is not None else None
    if script is None:
        return None
    values = {
        m[2] if m[1] is not None else m[4]
        for line in script.splitlines()
        if (m := _OUTPUT_LINE.search(line)) is not None and (m[1] or m[3]) == step_output[2]
    }
    starts = {_shell_start(v, script) for v in values}
    if len(starts) != 1 or None in starts:
        return None
    return starts.pop()


def _tag_triggers(on: object) -> tuple[list[str], bool]:
    """(the tag patterns a push runs the workflow for, whether a release does)."""
    if not isinstance(on, dict):
        return ([], on == "release" or (isinstance(on, list) and "release" in on))
    push = on.get("push")
    tags = push.get("tags") if isinstance(push, dict) else None
    tag_globs = [str(t) for t in tags] if isinstance(tags, list) else [tags] if isinstance(tags, str) else []
    return tag_globs, "release" in on


def _rule_form(
    rule: str, scope: _Scope, jobs: Mapping[str, Any], job: Mapping[str, Any], on: object
) -> list[tuple[str, bool]] | None:
    """The forms (`VersionForm`'s prefix and digit) of the version tags one `tags:` rule of a
    metadata-action step makes: none for a rule making no version tag (`type=sha`, a branch, `latest`);
    None when not known."""
    fields: dict[str, str] = {}
    for part in re.split(r",(?![^{]*\}\})", rule):
        key, eq, value = part.partition("=")
        if eq:
            fields[key.strip()] = value.strip()
    kind = fields.get("type", "raw" if "value" in fields else "")
    if fields.get("enable", "true").strip() == "false":
        return []
    if kind in ("semver", "pep440"):
        if "value" in fields:
            return None
        pattern = fields.get("pattern", "")
        head = pattern.split("{{", 1)[0]
        after = pattern[len(head) :]
        if re.match(r"\{\{\s*(?:version|major|minor|patch)\s*\}\}", after):
            return [(head, True)]
        return None
    if kind == "ref":
        if fields.get("event") != "tag":
            return []
        tag_globs, release = _tag_triggers(on)
        if release:
            return None
        starts = {re.split(r"[*?\[{]", p, maxsplit=1)[0] for p in tag_globs}
        return [(s, False) for s in starts] if starts else []
    if kind == "raw":
        value = fields.get("value", "")
        whole = _EXPRESSION.fullmatch(value)
        if whole is not None and scope.lookup(whole[1].strip()) is None:
            start = _output_start(whole[1].strip(), jobs, job)
            return [start] if start is not None else None
        text = scope.expand(value)[0]
        if _UNKNOWN in text:
            return None
        version = _VERSION_LITERAL.match(text)
        return [(version.group(1), True)] if version is not None else []
    if kind in ("sha", "schedule", "edge"):
        return []
    return None


def version_tags(data: bytes, display: str) -> tuple[VersionTags, ...]:
    """The version tags each `docker/metadata-action` step of the workflow whose bytes are `data` makes
    (`VersionTags`): for each rule of its `tags:`, what its version tags begin with, read from the rule
    (`type=semver,pattern=v{{version}}`, `type=raw,value=1.2.0`), the tag patterns the workflow runs for
    (`type=ref,event=tag` under `on.push.tags: ['v*']`), or the script that writes the job output the
    rule reads (`echo "version=$VERSION" >> $GITHUB_OUTPUT` after `VERSION="v$CURRENT"`); a `flavor:`
    prefix added. Raises `ConfigError` as `parse` does."""
    document = load(data, display, "a GitHub Actions workflow")
    if not isinstance(document, dict) or not isinstance(jobs := document.get("jobs"), dict):
        return ()
    inputs = _inputs(document.get("on"))
    top_env = _env(document.get("env"), {})
    found: list[VersionTags] = []
    for job_name, job in jobs.items():
        if job_name == KEY_LINES or not isinstance(job, dict):
            continue
        scope = _Scope(inputs, {**top_env}, {})
        scope.env.update(_env(job.get("env"), scope.as_env()))
        for step in job.get("steps") or ():
            if not isinstance(step, dict) or not (_scalar(step.get("uses")) or "").startswith(
                "docker/metadata-action"
            ):
                continue
            given = step.get("with")
            if not isinstance(given, dict):
                continue
            here = _Scope(inputs, {**scope.env, **_env(step.get("env"), scope.as_env())}, {})
            images = tuple(re.split(r"[,\s]+", here.expand(_scalar(given.get("images")) or "")[0].strip()))
            flavor = _scalar(given.get("flavor")) or ""
            prefix = re.search(r"^[ \t]*prefix=([^,\n]*)", flavor, re.MULTILINE)
            added = prefix.group(1).strip() if prefix is not None else ""
            forms: list[VersionForm] = []
            readable = "$" not in added and "{" not in added
            line = line_of(given, "tags")
            written = _scalar(given.get("tags")) or ""
            for index, rule in enumerate(written.splitlines()):
                read = _rule_form(rule.strip(), here, jobs, job, document.get("on")) if rule.strip() else []
                if read is None:
                    readable = False
                    break
                # (a block scalar holds one rule a line, from the line after `tags:`)
                at = line + 1 + index if line is not None and "\n" in written else line
                forms += [VersionForm(added + p, d, rule.strip(), at) for p, d in read]
            found.append(VersionTags(images, tuple(forms) if readable else None))
    return tuple(found)
