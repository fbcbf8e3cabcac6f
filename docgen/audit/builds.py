"""Claims about building: `--target` and lists of build targets naming a stage the Dockerfile has not,
a build arg the build needs that a build command (the README's own, or a script's it runs) does not pass
(`lacks`: a FROM left blank or invalid, a RUN that fails without it), and "has no build arguments" said
of an image that declares some.
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.commands import (
    FILE_FLAG,
    MOVE,
    PLACEHOLDER,
    build_commands,
    build_paths,
    command_files,
    placeholder_pattern,
)
from docgen.audit.paths import files_named, matching, path_named
from docgen.audit.platforms import takes_base
from docgen.audit.script_builds import project_lines, relative_path, script_builds
from docgen.audit.wording import BUILD_ARG_FLAG, LIST_ITEM, line_at, sentences
from docgen.build_scripts import BUILD
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.hardware import arch_option_backend
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic, ImageModel
from docgen.rows import build_arg_rows
from docgen.script_env import names_variable
from docgen.shell import ExpansionError, Unknown, Value, expand, referenced_names
from docgen.stages import built_stages

_TARGET_FLAG = re.compile(r"(?:^|[ \t])--target(?:[ \t]+|=)[\"']?([^\s\"'`;|&\\]+)")
_STAGE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*\Z")
_TARGETS_INTRO = re.compile(
    r"\b(?:build[ \t]+)?(?:targets?|stages?)\b|\bmulti-?(?:stage|step)[ \t]+build", re.IGNORECASE
)
_BOLD_NAME = re.compile(r"\*\*([A-Za-z][A-Za-z0-9_.-]*)\*\*(?![\w*])|__([A-Za-z][A-Za-z0-9_.-]*)__(?!\w)")
"""A list item that starts with a name in bold (`1. **build_openvino**`), as stage lists are written."""


_STAGE_TITLE = re.compile(
    r"[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|\#{1,6}[ \t]+)?[*_]{0,3}stage[ \t]+\d{1,3}[ \t]*[:.)–—-][ \t]*"
    r"[*_]{0,3}`([A-Za-z][A-Za-z0-9_.-]*)`",
    re.IGNORECASE,
)
"""A numbered stage title, as a list item or a heading: `4. **Stage 4: `pre-flight`**`,
`### Stage 2: `build``."""


def titled_stages(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Stage names a README gives numbered stage titles (`Stage 4: `pre-flight``, in a list item or a
    heading) that no stage has, when most of its titles name a stage: as a whole name, or as a part of
    one between `-` or `_` (`base` for `FROM … AS stage-base`, built as `stage-${TARGET}`) (`likely`)."""
    if not auditor.stages:
        return
    titled = [
        (line, m.group(1))
        for para in doc.paragraphs
        for line, text in para.lines
        if (m := _STAGE_TITLE.match(text))
    ]
    titled += [(line, m.group(1)) for line, text in doc.headings if (m := _STAGE_TITLE.match(text))]
    parts = {part for stage in auditor.stages for part in re.split(r"[-_]", stage)} | set(auditor.stages)
    hits = sum(1 for _, name in titled if name.lower() in parts)
    if not hits or 2 * hits < len(titled):
        return
    for line, name in sorted(titled):
        if name.lower() not in parts:
            yield from some(_no_stage(line, name, auditor.models, auditor.path, "names stage", LIKELY))


_PASSES_MORE = re.compile(r"\$|--build-arg-file|\.\.\.|…|<[\w-]+>|\{[\w-]+\}")
"""A build command that passes more than it shows: `$BUILD_ARGS`, `--build-arg-file`, `...`, `<args>`."""


@dataclass(frozen=True)
class Lack:
    """A build arg a build does not pass that its Dockerfile cannot build without."""

    name: str
    fails: str
    """What fails without it, as a finding goes on after `but`: `Dockerfile:2 FROM ${BASE} names no
    image without it (BASE has no default …)`."""
    confidence: str
    base: bool
    """True when a FROM needs it (BuildKit stops before any step), False when a RUN does."""


def lacks(model: ImageModel, passed: Mapping[str, str | None], target: str | None) -> list[Lack]:
    """The build args the build of `model` to `target` (None: its last stage) passing `passed` (name →
    value; None when the shell fills it in) lacks: those a FROM names that have no default and leave
    its image blank or invalid (`FROM ${BASE}`, `ubuntu:${TAG}`; BuildKit expands every stage's FROM
    before it builds any: `certain` for a stage the target needs, `likely` for another, which the
    legacy builder does not read), and those a RUN of a stage the target needs fails without
    (`ImageModel.required_args`, `likely`: the base image may set the name in its environment)."""
    at = model.stage_named(target) if target is not None else None
    if target is not None and at is None:
        return []  # a target no stage has: `audit_targets` says so
    built = built_stages(replace(model, target_index=at.index if at is not None else -1))
    found = list(_base_lacks(model, passed, built))
    told = {lack.name for lack in found}
    for required in model.required_args:
        if required.name in passed or required.name in told or required.stage not in built:
            continue
        told.add(required.name)
        if required.command:
            shown = _short(required.command)
            fails = f"{model.path}:{required.line} runs `{shown}`, which fails with {required.name} empty"
        else:
            fails = f"{model.path}:{required.line} fails the build without it"
        found.append(Lack(required.name, f"{fails} ({required.name} has no default)", LIKELY, False))
    return found


def _short(command: str) -> str:
    """`command` as a finding shows it: its first and last words around `…` when it is long."""
    if len(command) <= 60:
        return command
    words = command.split()
    return f"{words[0]} … {words[-1]}"


def _base_lacks(model: ImageModel, passed: Mapping[str, str | None], built: set[str]) -> Iterator[Lack]:
    """`lacks` of the FROMs: each global build arg with no default a FROM needs that `passed` does not
    give. An arg is blamed when the FROM fails with it alone unset (the others given any value), or all
    of them when only together they fail it (`${A:-${B}}`)."""
    with_default = {a.name for a in model.args if a.is_global and a.raw_default is not None}
    unset = {a.name for a in model.args if a.is_global and a.name not in with_default} - set(passed)
    unset -= PREDEFINED_ARGS | PROXY_ARGS  # (`ARG TARGETARCH`: BuildKit sets it)
    if not unset:
        return
    values: dict[str, Value] = {}
    for arg in model.args:
        if arg.is_global and arg.name in with_default and arg.name not in values:
            values[arg.name] = arg.default if arg.default is not None else Unknown(arg.unknown or "not known")
    declared = {a.name for a in model.args if a.is_global}
    values.update(
        {k: Unknown("set by the shell") if v is None else v for k, v in passed.items() if k in declared}
    )
    told: set[str] = set()
    for stage in model.stages:
        named = referenced_names(stage.base_raw) & unset
        if not named:
            continue
        whole = _expanded_base(model, stage.base_raw, values)
        if whole is None or whole[1]:
            continue  # a known image, or one docgen cannot tell
        alone = [n for n in sorted(named) if _fails_alone(model, stage.base_raw, values, named - {n})]
        sure = CERTAIN if stage.label in built else LIKELY
        base = whole[0]
        for name in alone or sorted(named):
            if name in told:
                continue
            told.add(name)
            where = f"{model.path}:{stage.line} FROM {stage.base_raw}"
            if base is None:
                fails = f"{where} stops the build without it ({name} has no default)"
            elif not base:
                fails = (
                    f"{where} names no image without it ({name} has no default; BuildKit stops before "
                    "any step: base name should not be blank)"
                )
            else:
                fails = f"{where} is the invalid image reference {base!r} without it ({name} has no default)"
            yield Lack(name, fails, sure, True)


def _expanded_base(
    model: ImageModel, raw: str, values: Mapping[str, Value]
) -> tuple[str | None, bool] | None:
    """(`raw` expanded with `values`, or None when the expansion stops the build (`${BASE:?}`); whether
    BuildKit takes it as a base), None when a value in it is not known."""
    try:
        expanded = expand(raw, values)
    except ExpansionError:
        return None, False
    if not expanded.known:
        return None
    return expanded.text, takes_base(expanded.text, model)


def _fails_alone(model: ImageModel, raw: str, values: Mapping[str, Value], given: set[str]) -> bool:
    """True when the FROM `raw` fails with the args of `given` set to a plain value and the other
    unset args left unset."""
    found = _expanded_base(model, raw, {**values, **dict.fromkeys(given, "x")})
    return found is not None and not found[1]


def _built_models(doc: Document, auditor: Auditor) -> Iterator[tuple[int, str, ImageModel, bool]]:
    """(README line, command joined, model, whether the command builds it for sure) of each build command
    of `doc` and each audited Dockerfile it may build: the one its `-f` names (for sure when one path
    ends so: `paths.path_named`), else the only one the section is about when the context's `Dockerfile`,
    after the block's `cd`s, may be that one (for sure when it is that one, as a path from the README's
    folder; not at all when it is another)."""
    paths = [m.path for m in auditor.models]
    home = posixpath.dirname(auditor.path)
    for fence in doc.fences:
        folders: dict[int, str | None] | None = None  # the block's folders, read at its first build
        for command in build_commands(fence):
            joined = " ".join(line_text.rstrip("\\") for _, line_text in command)
            files = [m.group(1) for m in FILE_FLAG.finditer(joined)]
            chosen = set().union(*(matching(f, paths) for f in files)) if files else set()
            if not files and len(paths) == 1:
                chosen = {0}
            if not chosen:
                continue
            if files:
                exact = len(files) == 1 and path_named(files[0], paths) is not None
            else:
                folders = _block_folders(fence) if folders is None else folders
                built = _default_file(fence, command, folders)
                own = posixpath.normpath(posixpath.relpath(paths[0], home or "."))
                if built is not None and built != own:
                    continue  # (`cd tools && docker build .`: another Dockerfile)
                exact = built is not None
            for index in sorted(chosen):
                yield command[0][0], joined, auditor.models[index], exact


def unpassed_required(doc: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A build command of a Dockerfile that does not pass with `--build-arg` an arg the build needs
    (`lacks`: a FROM that names no image without it, a RUN that fails without it). The command's `-f`
    says which Dockerfile, else the only one the section is about; its `--target`, which stages it
    builds. A command that may pass more (`$ARGS`, `...`) is left alone; so is an arg a RUN needs that
    the README names anywhere (`text`: it says to pass it), and one a FROM needs is then `likely`."""
    named: dict[str, bool] = {}  # arg → the README names it: searched once, not once a command
    for line, joined, model, exact in _built_models(doc, auditor):
        if _PASSES_MORE.search(joined):
            continue
        passed = dict.fromkeys(BUILD_ARG_FLAG.findall(joined), None)
        targets = _TARGET_FLAG.findall(joined)
        for lack in lacks(model, passed, targets[-1] if targets else None):
            if lack.name not in named:
                named[lack.name] = re.search(rf"\b{re.escape(lack.name)}\b", text) is not None
            if named[lack.name] and not lack.base:
                continue
            yield Diagnostic(
                auditor.path,
                line,
                f"README builds {model.path} without --build-arg {lack.name}, but {lack.fails}",
                confidence=lack.confidence if exact and not named[lack.name] else LIKELY,
            )


_PASSED_VALUE = re.compile(
    r"--build-arg(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)(?:=(\"[^\"]*\"|'[^']*'|[^\s\"']*))?"
)
"""`--build-arg NAME=VALUE` in a command: the name and the value as written (quotes kept), if any."""


def inert_passed(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A build command passing `--build-arg NAME=VALUE` to a Dockerfile that reads NAME only in a cmake
    option of a GPU backend the command does not build (`ImageModel.inert_args`: `-D HIP_ARCH=
    ${SM_NUMBER}` next to `-D GPU_API=CUDA`): the value the README gives has no effect (`likely`: the
    option tables of `hardware.py` are what the projects document, not what each of them reads)."""
    for line, joined, model, _ in _built_models(doc, auditor):
        if not model.inert_args:
            continue
        inert = {name: (at, option, selector) for name, at, option, selector in model.inert_args}
        for match in _PASSED_VALUE.finditer(joined):
            name, value = match.group(1), (match.group(2) or "").strip("\"'")
            if name not in inert:
                continue
            at, option, selector = inert[name]
            given = f"{name}={value}" if value else name
            yield Diagnostic(
                auditor.path,
                line,
                f"README passes --build-arg {given} to {model.path}, but {model.path}:{at} gives {name} only "
                f"to {option}, a {arch_option_backend(option)} option, in a cmake build set to {selector}: "
                "the value has no effect on the build",
                confidence=LIKELY,
            )


_VERSION = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.])|(?<=[-_a-z])\d+(?:\.\d+)+(?![\w.])")
"""A dotted version in a FROM reference (`1.10.0` between slashes, `2.0.1` after `installer-`)."""


def written_bases(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A build command passing build args no ARG of its Dockerfile declares that were meant to fill in
    the FROM of the stage it builds, now written out (`FROM vault.example/sdk/1.10.0/…-2.0.1:latest`
    where the README passes `--build-arg SDK_URL=vault.example --build-arg PT_VERSION=2.0.1 --build-arg
    VERSION=1.11.0`): at least one of their values is in that FROM as written; a version among them
    that is not, while the FROM holds one of its shape and major release no value accounts for, is not
    the release the image is built on (`likely`: the words of a FROM may mean something else)."""
    for line, joined, model, exact in _built_models(doc, auditor):
        if not exact:
            continue
        declared = {a.name for a in model.args}
        given = [
            (m.group(1), m.group(2).strip("\"'"))
            for m in _PASSED_VALUE.finditer(joined)
            if m.group(2) and m.group(1) not in declared
        ]
        if len(given) < 2:
            continue
        targets = _TARGET_FLAG.findall(joined)
        stage = (model.stage_named(targets[-1]) if targets else None) or model.target
        root = model.chain(stage)[-1] if stage is not None else None
        if root is None or "$" in root.base_raw:
            continue
        base = root.base_raw
        if not any(len(value) > 2 and value in base for _, value in given):
            continue  # no value of them fills this FROM: args of another build
        accounted = {value for _, value in given if value in base}
        written = [v for v in _VERSION.findall(base) if not any(v in value for value in accounted)]
        for name, value in given:
            if value in base or not re.fullmatch(r"\d+(?:\.\d+)+", value):
                continue
            same = [
                v
                for v in written
                if v.count(".") == value.count(".") and v.split(".")[0] == value.split(".")[0]
            ]
            if len(same) != 1 or same[0] == value:
                continue
            yield Diagnostic(
                auditor.path,
                line,
                f"README passes --build-arg {name}={value}, but {model.path}:{root.line} starts stage "
                f"{root.label} FROM {base}, written out (no ARG takes {name}): the image is built on "
                f"{same[0]}, not {value}",
                confidence=LIKELY,
            )


def script_unpassed(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    models: Sequence[ImageModel],
) -> Iterator[Diagnostic]:
    """`lacks` of the `docker build` of each script the README runs (`script_builds.script_builds`),
    of an audited Dockerfile: the script passes no `--build-arg` for an arg the build needs (`bash
    docker/build.sh`, whose `docker build -f docker/Dockerfile .` passes none, while `ARG USER` has no
    default and `RUN useradd -m ${USER}`). Not a build that may pass more than it shows (`$ARGS`, `"$@"`),
    nor an arg the README or the script names anywhere else (a variable it exports, a step that says
    to set it)."""
    by_file = {os.path.realpath(m.file): m for m in models if m.file}
    if not any(m.required_args or any(a.is_global and a.raw_default is None for a in m.args) for m in models):
        return  # most Dockerfiles: nothing a build cannot do without
    for build in script_builds(doc, directory, audited, project):
        model = by_file.get(os.path.realpath(build.dockerfile))
        if model is None or build.more:
            continue
        script_text = "\n".join(project_lines(build.script))
        script = relative_path(build.script, directory)
        for lack in lacks(model, dict.fromkeys(build.args, None), build.target):
            said = re.search(rf"\b{re.escape(lack.name)}\b", text) is not None
            if said or names_variable(script_text, lack.name):
                continue
            yield Diagnostic(
                readme,
                build.line,
                f"README runs {build.run}, whose docker build ({script}:{build.at}) passes no --build-arg "
                f"{lack.name}, but {lack.fails}",
                confidence=lack.confidence,
            )


def placeholder_builds(
    doc: Document, auditor: Auditor, tied: Mapping[int, frozenset[int]]
) -> Iterator[Diagnostic]:
    """One build command whose `-f` is a placeholder (`-f {DOCKER_FILE_NAME}.dockerfile`), shown as the
    way to build each of the audited images (`auditor`'s) it may name: a `--build-arg NAME` one of them
    declares is passed to the others too, and each that does not declare it is a finding (`likely`).
    Not of the images the README builds with a `-f` of their own, nor of those a section tied to some
    images (`tied`) is not about."""
    paths = [m.path for m in auditor.models]
    # each build command with its fence's section and its `-f` values, read once for both passes
    commands = [
        (fence.section, command, command_files(command))
        for fence in doc.fences
        for command in build_commands(fence)
    ]
    own: set[int] = set()  # Dockerfiles a command names as they are
    for _, _, flags in commands:
        for flag in flags:
            if not PLACEHOLDER.search(flag):
                own.update(matching(flag, paths))
    for section, command, flags in commands:
        pattern = placeholder_pattern(flags[0]) if len(flags) == 1 else None
        if pattern is None:
            continue
        chosen = {i for i, path in enumerate(paths) if pattern.search(path)} - own
        if tied.get(section):  # `## ROCm images`: the command builds those of them only
            chosen &= tied[section]
        if len(chosen) < 2:
            continue  # a command of one image, or of none audited
        models = [auditor.models[i] for i in sorted(chosen)]
        for line, text in command:
            for name in BUILD_ARG_FLAG.findall(text):
                if not any(name in {a.name for a in m.args} for m in models):
                    continue  # declared by none: `arg_claim` says so for the section
                for each in auditor.each:
                    if each.models[0] in models and each.arg_claim(line, name, LIKELY) is not None:
                        yield Diagnostic(
                            auditor.path,
                            line,
                            f"README passes --build-arg {name} to every Dockerfile -f {flags[0]} may "
                            f"name, but {each.models[0].path} does not declare it",
                            confidence=LIKELY,
                        )


def _block_folders(fence: Fence) -> dict[int, str | None]:
    """Line of `fence` → the folder its commands run in, from where the block starts: after the `cd`s of
    the lines before it; None from a `cd` that cannot be followed on (a variable, a home or absolute
    path). Read once for the block, so a block of many builds is read once, not once a build."""
    folders: dict[int, str | None] = {}
    folder: str | None = ""
    for line, text in fence.lines:
        folders[line] = folder
        folder = _moved(folder, text)
    return folders


def _moved(folder: str | None, text: str) -> str | None:
    """`folder` after the `cd`s of `text`; None when one cannot be followed or `folder` is None."""
    for move in MOVE.finditer(text):
        target = move.group(1).strip("\"'")
        if folder is None or not target or target.startswith(("/", "~", "$", "-")):
            return None
        folder = posixpath.join(folder, target)
    return folder


def _default_file(fence: Fence, command: list[tuple[int, str]], folders: dict[int, str | None]) -> str | None:
    """The Dockerfile a build command with no `-f` builds, its context's `Dockerfile`, as a path from
    where the block starts: after the `cd`s of the block before it (`cd ./docker` then `docker build
    --target run ./` builds `docker/Dockerfile`; `folders`: `_block_folders` of `fence`). None when a
    `cd` or the context cannot be followed (a variable, a home or absolute path)."""
    start, first = command[0]
    if (build := BUILD.search(first)) is not None:
        first = first[: build.start()]  # (a `cd` after the build on its line moves later commands)
    folder = _moved(folders.get(start, ""), first)
    if folder is None:
        return None
    paths = build_paths(" ".join(text.rstrip("\\").strip() for _, text in command))
    if paths is None or any(c in paths[1] for c in "$<>{}%~") or paths[1].startswith("/"):
        return None
    if "://" in paths[1]:
        return None
    built = posixpath.normpath(posixpath.join(folder, paths[1], "Dockerfile"))
    return "/".join(part for part in built.split("/") if part != "..")


def _no_stage(
    line: int, target: str, models: Sequence[ImageModel], readme: str, how: str, confidence: str
) -> Diagnostic | None:
    """A diagnostic when `target` is a stage of none of `models`, with the closest stage name."""
    stages = list(dict.fromkeys(s.name for m in models for s in m.stages if s.name))
    if target.lower() in stages:
        return None
    named = list(dict.fromkeys(m.path for m in models))  # a Dockerfile built as several targets: once
    if len(named) == 1:
        whose = f"{named[0]} has no stage"
    else:  # (not "none of … have no stage")
        whose = f"none of {', '.join(named)} has a stage"
    close = difflib.get_close_matches(target.lower(), stages, n=1, cutoff=0.6)
    hint = (
        f"did you mean {close[0]}?"
        if close
        else (f"its stages: {', '.join(stages)}" if stages else "it names no stage")
    )
    return Diagnostic(
        readme,
        line,
        f"README {how} {target}, but {whose} of that name ({hint})",
        confidence=confidence,
    )


_SHOWN_STAGE = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?\S+\s+AS\s+([\w.-]+)\s*$", re.IGNORECASE)
"""`FROM base AS prod` in a Dockerfile snippet of the README."""


def stages_shown(doc: Document) -> dict[str, list[tuple[int, float]]]:
    """The stages the README's own Dockerfile snippets name (`FROM base as prod` under "add this stage"),
    each with where it can excuse a `--target`: from the snippet's line to the end of the section holding
    the snippet's own (the next heading above its level: `##### Add a stage` then `##### Build it` are
    one step after the other). A `--target` there builds the README's example, not a stage the
    Dockerfile lost; one before the snippet, or in another section, is not excused by it."""
    ends = sorted(doc.levels.items())
    shown: dict[str, list[tuple[int, float]]] = {}
    for fence in doc.fences:
        level = doc.levels.get(fence.section, 0) if fence.section else 0
        end: float = next(
            (line for line, rank in ends if line > fence.section and (not level or rank < level)),
            float("inf"),
        )
        for line, text in fence.lines:
            if (match := _SHOWN_STAGE.match(text)) is not None:
                shown.setdefault(match.group(1).lower(), []).append((line, end))
    return shown


def _shown_before(shown: dict[str, list[tuple[int, float]]], target: str, line: int) -> bool:
    """True when a README snippet defines stage `target` before `line`, in the section holding it."""
    return any(start < line < end for start, end in shown.get(target.lower(), ()))


def dead_targets(
    doc: Document, auditor: Auditor, shown: dict[str, list[tuple[int, float]]]
) -> Iterator[Diagnostic]:
    """`--target NAME` of a build command, and the items of a list introduced as the build targets
    (`**Build Targets**:` then `` - `image-build`: … ``), naming a stage the image has not: the
    Dockerfile of the command's `-f`, else the images the section is about. A list is checked only when
    one of its items is a stage (else it lists something else: published tags, CI jobs). A `--target`
    naming a stage a snippet of the README defines before it in its section (`shown`) is its example; one
    naming a stage only a snippet elsewhere defines is reported as likely (it may still be meant)."""
    paths = [m.path for m in auditor.declared_as]
    family = [m.path for m in auditor.family]
    for fence in doc.fences:
        folders: dict[int, str | None] | None = None
        for command in build_commands(fence):
            files = command_files(command)
            chosen = set().union(*(matching(f, paths) for f in files)) if files else set(range(len(paths)))
            default = None
            if not files and any("--target" in text for _, text in command):
                folders = _block_folders(fence) if folders is None else folders
                default = _default_file(fence, command, folders)
            if default is not None and (built := matching(default, family)):
                # with no -f, its context's Dockerfile, of whichever section: `cd docker` then
                # `docker build --target run ./` under a section that builds `-f docker/Dockerfile.podman`
                models = [auditor.family[i] for i in sorted(built)]
            elif chosen:
                models = [auditor.declared_as[i] for i in sorted(chosen)]
            else:
                continue  # another image's command
            for line, text in command:
                for match in _TARGET_FLAG.finditer(text):
                    target = match.group(1)
                    if _STAGE_WORD.match(target) and not _shown_before(shown, target, line):
                        sure = LIKELY if target.lower() in shown else CERTAIN
                        yield from some(
                            _no_stage(line, target, models, auditor.path, "builds --target", sure)
                        )
    for para in doc.paragraphs:
        first = next((i for i, (_, text) in enumerate(para.lines) if LIST_ITEM.match(text)), None)
        if first is None:
            continue
        lead = " ".join(text.strip() for _, text in para.lines[:first]) or para.before.strip()
        intro = lead if lead.rstrip("*_ \t").endswith((":", "：")) else para.heading
        # `### Build stages` over `The image is built in steps:`: the heading says what the list is.
        if not (_TARGETS_INTRO.search(intro) or _TARGETS_INTRO.search(para.heading)):
            continue
        items = []
        for line, text in para.lines[first:]:
            item = LIST_ITEM.match(text)
            if item is None:
                continue
            if (bold := _BOLD_NAME.match(text, item.end())) is not None:  # `1. **build_x**`
                items.append((line, bold.group(1) or bold.group(2)))
                continue
            spans = code_spans(text[item.end() :].lstrip("*_"), html_code=True)
            if spans and spans[0][0] == 0 and _STAGE_WORD.match(spans[0][2].strip()):
                items.append((line, spans[0][2].strip()))
        hits = sum(1 for _, name in items if name.lower() in auditor.stages)
        if hits and 2 * hits >= len(items):  # (one `build` among make targets is no list of stages)
            for line, name in items:
                yield from some(
                    _no_stage(line, name, auditor.declared_as, auditor.path, "lists the build target", LIKELY)
                )


_TARGET_TABLE_INTRO = re.compile(
    r"--target\b|\b(?:build[ \t]+)?(?:targets?|stages?|variants?)\b", re.IGNORECASE
)
"""Words over a table of build targets: `build target`, `--target`, `variant to build`, `Stage`."""
_CHANNEL = re.compile(
    r"[-_.](?:nightly|latest|edge|beta|alpha|rc\d*|preview|stable|weekly|daily|snapshot|main|master"
    r"|v?\d[\w.]*)\Z",
    re.IGNORECASE,
)
"""A release channel or version after a stage's name (`default-nightly`, `runtime-2.1`): a published tag
of that stage."""


def target_columns(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A table column of backticked names (`` | `triton` | … | ``) under a heading, an introduction or a
    column header about build targets, stages or variants, most of whose names are stages of the images
    the section is about: each name that is no stage (`likely`). A stage's name and a release channel
    (`default-nightly` next to stage `default`) is a published tag of that stage, not a stage gone."""
    stages = auditor.stages
    if not stages:
        return
    for table in doc.tables:
        for column, title in enumerate(table.header):
            if not _TARGET_TABLE_INTRO.search(f"{table.context} {title}"):
                continue
            items = []
            for line, cells in table.rows:
                cell = cells[column].strip() if column < len(cells) else ""
                spans = code_spans(cell, html_code=True)
                if not cell:
                    continue
                if not spans or spans[0][0] != 0 or not _STAGE_WORD.match(spans[0][2].strip()):
                    break  # not a column of names
                items.append((line, spans[0][2].strip()))
            else:
                hits = sum(1 for _, name in items if name.lower() in stages)
                if hits < 2 or 2 * hits <= len(items):
                    continue
                for line, name in items:
                    channel = _CHANNEL.search(name)
                    if channel and name[: channel.start()].lower() in stages:
                        continue
                    yield from some(
                        _no_stage(
                            line, name, auditor.declared_as, auditor.path, "lists the build target", LIKELY
                        )
                    )


_NO_BUILD_ARGS = re.compile(
    r"\b(?:(?:does|do)[ \t]*(?:not|n't)[ \t]+(?:define|declare|take|accept|have|use|support|expose)"
    r"[ \t]+(?:any[ \t]+)?|(?:takes|has|defines|declares|accepts|exposes|uses|supports)[ \t]+no[ \t]+)"
    r"build[- ]?arg(?:ument)?s?\b(?![ \t,]+(?:other[ \t]+than|besides|except|apart|beyond))",
    re.IGNORECASE,
)
"""A sentence saying an image has no build args (`Dockerfile.lightweight does not define build
arguments`, `takes no build args`); "does not need any" (all have defaults) is not one."""


_AN_IMAGE = re.compile(r"\b(?:image|dockerfile|containerfile|it|this)\b", re.IGNORECASE)


def denied_args(
    doc: Document, models: Sequence[ImageModel], tied: Mapping[int, frozenset[int]], readme: str
) -> Iterator[Diagnostic]:
    """A sentence saying that a Dockerfile (named before the words, else the one image its section is
    about) has no build arguments while it declares some a user can pass (BuildKit's platform args
    aside; an ARG used only before the first FROM counts: it can be passed)."""
    paths = [m.path for m in models]
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            match = _NO_BUILD_ARGS.search(sentence)
            if match is None:
                continue
            named = files_named(sentence[: match.start()])
            if named:
                chosen = set().union(*(matching(n, paths) for n in named))
            elif not _AN_IMAGE.search(sentence[: match.start()]):
                continue  # `The entrypoint takes no build args`: not the image
            else:
                chosen = set(tied.get(para.section, frozenset(range(len(models)))))
                chosen = chosen if len(chosen) == 1 else set()
            line = line_at(para.lines, start + match.start())
            for index in sorted(chosen):
                rows = build_arg_rows(models[index])
                if rows:
                    more = f" (and {len(rows) - 1} more)" if len(rows) > 1 else ""
                    yield Diagnostic(
                        readme,
                        line,
                        f"README says {paths[index]} has no build arguments but "
                        f"{paths[index]}:{rows[0].line} declares {rows[0].name}{more}",
                        confidence=LIKELY,
                    )
