"""Claims about building: `--target` and lists of build targets naming a stage the Dockerfile has not,
a required build arg a build command does not pass, and "has no build arguments" said of an image that
declares some.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence

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
from docgen.audit.paths import files_named, matching
from docgen.audit.wording import BUILD_ARG_FLAG, LIST_ITEM, line_at, sentences
from docgen.build_scripts import BUILD
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic, ImageModel
from docgen.rows import build_arg_rows

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


def unpassed_required(doc: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """A build command of the Dockerfile a build arg is required for (declared without a default, and
    a RUN fails without it: `ImageModel.required_args`) that does not pass it with `--build-arg`. The
    command's `-f` says which Dockerfile, else the only one the section is about. A command that may
    pass more (`$ARGS`, `...`) and a README that names the arg anywhere (`text`: it says to pass it)
    are left alone."""
    paths = [m.path for m in auditor.models]
    named: dict[str, bool] = {}  # arg → the README names it: searched once, not once a command
    for fence in doc.fences:
        for command in build_commands(fence):
            joined = " ".join(line_text.rstrip("\\") for _, line_text in command)
            if _PASSES_MORE.search(joined):
                continue
            files = [m.group(1) for m in FILE_FLAG.finditer(joined)]
            chosen = set().union(*(matching(f, paths) for f in files)) if files else set()
            if not files and len(paths) == 1:
                chosen = {0}
            passed = set(BUILD_ARG_FLAG.findall(joined))
            for index in sorted(chosen):
                model = auditor.models[index]
                for name, line in model.required_args:
                    if name not in named:
                        named[name] = re.search(rf"\b{re.escape(name)}\b", text) is not None
                    if name in passed or named[name]:
                        continue
                    yield Diagnostic(
                        auditor.path,
                        command[0][0],
                        f"README builds {model.path} without --build-arg {name}, but {model.path}:{line} "
                        f"fails the build without it ({name} has no default)",
                        confidence=LIKELY,
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
