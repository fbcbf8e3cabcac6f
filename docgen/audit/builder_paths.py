"""A path the README uses in the image (`export PATH="/app:$PATH"` in the container, `docker run … /app/
server`, `binaries are in /app`) that only a stage the image is not built from has: the builder's
working folder, whose files the final stage copies elsewhere (`WORKDIR /app` in `builder`, then `COPY
--from=builder /app/full /usr/local/bin/`). The README was written against the single-stage image, or
reads the builder's layout as the image's.

A folder is the builder's when a stage outside the target's chain (`ImageModel.chain`) sets it as its
WORKDIR and a `COPY --from` of that stage into the image takes files from it (or it whole) to another
place. It is the image's too, and nothing is told, when any instruction of the image's own stages names
it or a folder below it other than as that copy's source (a `COPY --from=builder /app /app`, a WORKDIR,
an ENV, the ENTRYPOINT), a file the image's stages copy from the build context names it (an entrypoint
script making it at run time), a README command or a compose file beside the README mounts it or a
folder around it, or the README builds the builder stage itself (`--target builder`).

Read: absolute paths in command blocks (not a Dockerfile excerpt, not a build command) and code spans,
and a path after `in`, `under`, `at` or `from` in prose; a line telling how the stages work (`stage`,
`builder`, `copied`, `COPY`) is not read. `likely`: the base image may have the folder.

And a path from the working folder (`./mpt-7b-chat`) a README block passes under the heading of one of
the targets it builds (`--target cpu`) while only a stage that target is not built from makes it
(`target_clones`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.commands import CLONE_STEP, build_commands, clone_operands, cloned_folder
from docgen.audit.image_paths import ABSOLUTE, SYSTEM, clean_path, copied, mounted_folders, text_of
from docgen.files import stays_home
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_DOCKERFILE_LINE = re.compile(
    r"^[ \t]*(?:FROM|RUN|COPY|ADD|WORKDIR|ENV|ARG|ENTRYPOINT|CMD|VOLUME|LABEL|USER|EXPOSE|SHELL)[ \t]"
)
"""A line of a Dockerfile excerpt quoted in the README: what the Dockerfile says, not the image."""
_BUILD = re.compile(
    r"\b(?:docker|podman|buildah)(?:[ \t]+buildx)?[ \t]+(?:build|bake)\b|\bbuildah[ \t]+bud\b"
)
"""A build command: its paths are the host's (the build context, `-f`)."""
_STAGE_WORDS = re.compile(
    r"\b(?:stages?|builder|multi-?stage|copie[sd]|copying|COPY|compiles?|compiled|built|builds)\b", re.I
)
"""Words of a sentence or a comment telling how the build works, where a builder's folder is right."""
_PROSE_PATH = re.compile(
    r"\b(?:in|under|at|from|into)[ \t]+[`\"']?(/[A-Za-z0-9_.+@-]+(?:/[A-Za-z0-9_.+@-]+)*)"
)
"""A path prose says something is in (`the binaries are in /app`)."""
_SEARCH_PATH = re.compile(r"\b\w*PATH=")
"""A search-path assignment (`PATH=`, `LD_LIBRARY_PATH=`): a `:`-separated list of folders."""
_COMPOSE = re.compile(r"(?:docker-)?compose[\w.-]*\.ya?ml\Z", re.I)


@dataclass(frozen=True)
class _Builder:
    """A folder only a stage outside the image's chain has, whose files the image copies elsewhere."""

    folder: str
    stage: str
    """The stage's name as the Dockerfile writes it (its index when it has none)."""
    workdir_line: int
    copy_line: int
    """The `COPY --from` that takes its files to `dest`."""
    dest: str
    dockerfile: str
    """The Dockerfile, as shown."""


def _names(text: str, folder: str) -> bool:
    """True when `text` names `folder` or a path below it as a path."""
    return re.search(rf"(?<![\w.~$}}-]){re.escape(folder)}(?![\w.+@-])", text) is not None


def _builders(model: ImageModel, readme_folder: str) -> tuple[list[_Builder], list[str]]:
    """The builder folders of `model` (see the module's docstring) and the texts of the image's own
    stages as they name paths (each instruction, a `COPY --from`'s sources left out; the build-context
    files they copy)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None or not model.stages:
        return [], []
    parsed = read[1]
    own = {stage.index for stage in model.chain()}
    stage = -1
    workdirs: dict[int, list[tuple[str, int]]] = {}
    texts: list[str] = []
    taken: list[tuple[int, str, str, int]] = []  # (stage copied from, source, destination, line)
    for inst in parsed.instructions:
        if inst.keyword == "FROM":
            stage += 1
            continue
        if stage < 0:
            continue
        if inst.keyword == "WORKDIR" and stage not in own:
            if (folder := clean_path(inst.args.strip().strip("\"'"))) is not None:
                workdirs.setdefault(stage, []).append((folder, inst.start_line))
        if stage not in own:
            continue
        source = inst.flag("from")
        if inst.keyword == "COPY" and source is not None and source.value is not None:
            words = list(inst.exec_form) if inst.exec_form else inst.args.split()
            words = [w for w in words if not w.startswith("--")]
            origin_stage = model.stage_from(source.value)
            origin = origin_stage.index if origin_stage is not None else -1
            if len(words) >= 2 and origin >= 0:
                for src in words[:-1]:
                    taken.append((origin, src, words[-1], inst.start_line))
                texts.append(words[-1])
                continue
        texts.append(inst.body)
    copies = tuple(c for c in model.context_copies if c.stage in own)
    texts += [text_of(p) for p in copied(model.file, copies, readme_folder)]
    found: list[_Builder] = []
    for origin, src, dest, line in taken:
        path = clean_path(src)
        if path is None or origin in own:
            continue
        for folder, at in workdirs.get(origin, []):
            if folder in SYSTEM or not (path == folder or path.startswith(folder + "/")):
                continue
            if dest.rstrip("/") == folder or dest.startswith(folder + "/"):
                continue
            name = model.stages[origin].name or str(origin)
            found.append(_Builder(folder, name, at, line, dest, model.path))
    return found, texts


def compose_text(directory: Path) -> str:
    """The compose files beside the README, as one text."""
    try:
        files = [
            p
            for p in sorted(directory.iterdir())
            if os.path.isfile(p) and _COMPOSE.match(p.name) and stays_home(p)
        ]
    except OSError:
        return ""
    return "\n".join(text_of(p) for p in files)


def _readme_paths(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, absolute path) of each path the README uses in the image (see the module's
    docstring)."""
    for fence in doc.fences:
        if fence.lang.lower() in ("dockerfile", "docker", "containerfile"):
            continue
        for line, text in fence.lines:
            if _DOCKERFILE_LINE.match(text) or _BUILD.search(text):
                continue
            command = text.partition(" #")[0]
            if _SEARCH_PATH.search(command):
                command = command.replace(":", " ")  # `PATH="/app:$PATH"`: each folder of the list
            for match in ABSOLUTE.finditer(command):
                yield line, match.group(1)
    for para in doc.paragraphs:
        for line, text in para.lines:
            if _STAGE_WORDS.search(text):
                continue
            for _, _, span in code_spans(text):
                if not _BUILD.search(span):
                    for match in ABSOLUTE.finditer(span):
                        yield line, match.group(1)
            for match in _PROSE_PATH.finditer(text):
                yield line, match.group(1)


def builder_paths(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path
) -> Iterator[Diagnostic]:
    """The paths of the README in a folder only a builder stage of the image has (see the module's
    docstring), one finding a folder at its first line (`likely`)."""
    read = [_builders(m, str(directory)) for m in models]
    builders = [b for found, _ in read for b in found]
    if not builders:
        return
    image_texts = [t for _, texts in read for t in texts]
    text = "\n".join(
        [t for fence in doc.fences for _, t in fence.lines] + [t for p in doc.paragraphs for _, t in p.lines]
    )
    mounted = mounted_folders(doc)
    compose = compose_text(directory)
    told: set[str] = set()
    for builder in builders:
        folder = builder.folder
        if folder in told:
            continue
        if re.search(rf"--target(?:=|[ \t]+){re.escape(builder.stage)}\b", text, re.I):
            continue  # the README builds the builder stage itself
        if any(m == folder or m.startswith(folder + "/") or folder.startswith(m + "/") for m in mounted):
            continue
        if _names(compose, folder) or any(_names(t, folder) for t in image_texts):
            continue
        lines: list[int] = []
        first = ""
        for line, path in _readme_paths(doc):
            clean = clean_path(path)
            if clean is not None and (clean == folder or clean.startswith(folder + "/")):
                first = first or clean
                lines.append(line)
        if not lines:
            continue
        told.add(folder)
        dest = posixpath.normpath(builder.dest) if builder.dest.startswith("/") else builder.dest
        yield Diagnostic(
            readme,
            lines[0],
            f"README uses {first} in the image, but in {builder.dockerfile} only stage {builder.stage} has "
            f"{folder} (its WORKDIR, line {builder.workdir_line}): the image copies its files to {dest} "
            f"(line {builder.copy_line}){also_at(sorted(set(lines)))}",
            confidence=LIKELY,
        )


_PLACES = re.compile(
    r"(?:^|[;&|(]|\bthen\b|\bdo\b)[ \t]*(?:sudo[ \t]+)?(?:cp|mv|install|ln[ \t]+-s\w*)"
    r"((?:[ \t]+-[\w-]+(?:=\S+)?)*(?:[ \t]+[^\s;&|<>()-][^\s;&|<>()]*){2,})"
)
"""A command putting files in place (`cp build/bin/llama-server /usr/local/bin/`, `install -m 755 x /opt/
bin/`): its words after the options are the sources, then the destination."""
_REDIRECT = re.compile(r"(?<![\w-])\d*(?:>>?|<)&?[ \t]*[^\s;&|<>()]+")
"""A redirection (`2>/dev/null`, `> log`): no file a command puts in place."""
_NOT_A_FILE = re.compile(r"[*?\[{$]|\A\.{0,2}\Z")
"""A word of a path that names no one file: a glob, a variable, `.`."""
_HOW_BUILT = re.compile(
    r"\b(?:builder|stages?|multi-?stage|not[ \t]+copied|left[ \t]+out|discard\w*)\b", re.I
)
"""Words of a line telling how the stages are built: the builder's files are right there."""


def _placed(args: str) -> Iterator[str]:
    """The absolute paths a RUN's `cp`, `mv`, `install` or `ln -s` commands put a named file at: a source's
    name in a destination folder (ending in `/`) or the destination path when one source goes to a
    path that is no folder."""
    for match in _PLACES.finditer(_REDIRECT.sub(" ", args)):
        words = [w.strip("\"'") for w in match.group(1).split() if not w.startswith("-")]
        words = [w for w in words if not w.startswith(("2>", ">", "/dev/"))]
        if len(words) < 2 or any(_NOT_A_FILE.search(w) for w in words):
            continue
        *sources, dest = words
        if not dest.startswith("/"):
            continue
        if dest.endswith("/") or len(sources) > 1:
            yield from (posixpath.join(dest, posixpath.basename(s.rstrip("/"))) for s in sources)
        else:
            yield dest


def _left_behind(model: ImageModel) -> list[tuple[str, int, str, int]]:
    """(file, Dockerfile line placing it, stage name, line of a `COPY --from` of that stage) of each file a
    stage outside the image's chain puts at a path (`_placed`) whose stage the image copies named files
    from, none of them the file or a folder holding it: the file stays in the builder. Nothing when a
    copy of that stage takes a glob or a variable, or the image's stages name the file's name."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None or len(model.stages) < 2:
        return []
    own = {stage.index for stage in model.chain()}
    stage = -1
    placed: dict[int, list[tuple[str, int]]] = {}
    taken: dict[int, list[tuple[str, int]]] = {}
    own_text: list[str] = []
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            stage += 1
            continue
        if stage < 0:
            continue
        if stage not in own:
            if inst.keyword == "RUN":
                placed.setdefault(stage, []).extend((p, inst.start_line) for p in _placed(inst.args))
            continue
        source = inst.flag("from")
        if inst.keyword in ("COPY", "ADD") and source is not None and source.value is not None:
            words = list(inst.exec_form) if inst.exec_form else inst.args.split()
            words = [w for w in words if not w.startswith("--")]
            origin_stage = model.stage_from(source.value)
            origin = origin_stage.index if origin_stage is not None else -1
            if origin < 0:
                continue
            taken.setdefault(origin, []).extend((w, inst.start_line) for w in words[:-1])
            continue
        own_text.append(inst.body)
    image_text = "\n".join(own_text)
    found = []
    for origin, files in placed.items():
        copies = taken.get(origin, [])
        if not copies or any(_NOT_A_FILE.search(src) for src, _ in copies):
            continue
        sources = [posixpath.normpath(src) for src, _ in copies]
        for path, line in files:
            path = posixpath.normpath(path)
            if any(path == s or path.startswith(s.rstrip("/") + "/") for s in sources):
                continue
            base = posixpath.basename(path)
            if len(base) < 3 or re.search(rf"(?<![\w.-]){re.escape(base)}(?![\w-])", image_text):
                continue
            label = model.stages[origin].name or str(origin)
            found.append((path, line, label, copies[0][1]))
    return found


def left_behind(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A file the README names in code (`llama-server-webui`, as a table cell or prose) that a builder stage
    of the image makes (`cp … /usr/local/bin/`) while the image's `COPY --from` of that stage takes other
    files one by one, none of them it: the image does not hold it (`likely`). A line telling how the
    stages work (`builder`, `stage`, `not copied`) is not read; one finding a file, at its first line."""
    behind = {
        posixpath.basename(path): (model, path, line, stage, copy)
        for model in models
        for path, line, stage, copy in _left_behind(model)
    }
    if not behind:
        return
    rows = [(line, " | ".join(cells)) for table in doc.tables for line, cells in table.rows]
    lines = [*rows, *(pair for para in doc.paragraphs for pair in para.lines)]
    told: set[str] = set()
    for line, text in sorted(lines):
        if "`" not in text or _HOW_BUILT.search(text):
            continue
        for _, _, content in code_spans(text):
            name = content.strip()
            if name in told or name not in behind:
                continue
            model, path, made, stage, copy = behind[name]
            told.add(name)
            yield Diagnostic(
                readme,
                line,
                f"README names {name} as a program of the image, but in {model.path} only stage {stage} has"
                f" it ({path}, line {made}): the image's COPY --from={stage} (line {copy}) takes other"
                " files, not it",
                confidence=LIKELY,
            )


_DOT_PATH = re.compile(r"(?<![\w./$-])\./([\w][\w.-]*)(?=[/\"' \t]|$)")
"""A path from the working folder a README command passes (`--base_model_path "./mpt-7b-chat"`)."""
_TARGET = re.compile(r"--target(?:=|[ \t]+)[\"']?([\w.-]+)")
_WORD = re.compile(r"[a-z0-9]+")
_HOST_LINE = re.compile(
    r"\b(?:docker|podman|git|cd|pushd|mkdir|cp|mv|ln|wget|curl|huggingface-cli)\b|(?:^|\s)-v\s"
)
"""A line of the host's or one that makes a file: its `./x` is not read."""


def _stage_names(model: ImageModel) -> tuple[dict[str, int], list[tuple[int, str, int]]] | None:
    """(stage name → index, (stage index, a name the stage makes in its working folder: a repository it
    clones, a destination it copies to, line) each); None when the Dockerfile cannot be read."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    named = {stage.name: stage.index for stage in model.stages if stage.name}
    made: list[tuple[int, str, int]] = []
    index = -1
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            index += 1
        elif inst.keyword == "RUN":
            for match in CLONE_STEP.finditer(inst.body):
                rest = clone_operands(match.group(1).split(), "\"'")
                if rest and "$" not in "".join(rest[:2]):
                    made.append(
                        (index, cloned_folder(rest[1] if len(rest) > 1 else rest[0]), inst.start_line)
                    )
        elif inst.keyword in ("COPY", "ADD"):
            words = inst.args.split()
            if words:
                made.append(
                    (index, posixpath.basename(words[-1].strip("\"'[],").rstrip("/")), inst.start_line)
                )
    return named, made


def _section_targets(doc: Document, named: dict[str, int]) -> dict[str, set[str]]:
    """Each stage the README builds by `--target` → the words of the headings over its build commands."""
    titles = dict(doc.headings)
    found: dict[str, set[str]] = {}
    for fence in doc.fences:
        for command in build_commands(fence):
            for _, text in command:
                for match in _TARGET.finditer(text):
                    if match.group(1).lower() in named:
                        words = set(_WORD.findall(titles.get(fence.section, "").lower()))
                        found.setdefault(match.group(1).lower(), set()).update(words)
    return found


def target_clones(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A path from the working folder (`./mpt-7b-chat`) a README command passes under a heading that
    names one of the targets it builds (`### Run the Inference on Xeon SPR` for the `--target cpu` built
    under `### Setup Xeon SPR Environment`) while only a stage that target is not built from makes it
    (`git clone …/mpt-7b-chat` in the `hpu` stage): the image of that target lacks it (`likely`).

    A heading tells the target when it shares a word with the headings over that target's builds that
    the headings over the other targets' builds lack, and no such word of another target. Not read: a
    line of the host's or one making files (`docker`, `git`, `cd`, `mkdir`, `wget`, a `-v`), a name a
    README line before it makes or names otherwise (`git clone …/mpt-7b-chat`), a name any instruction
    of the target's stages names (a COPY --from, a RUN fetching it)."""
    if len(models) != 1 or not models[0].file:
        return
    model = models[0]
    read = _stage_names(model)
    if read is None:
        return
    named, made = read
    targets = _section_targets(doc, named)
    if len(targets) < 2:
        return
    own = {
        target: words - set().union(*(w for other, w in targets.items() if other != target))
        for target, words in targets.items()
    }
    dockerfile = dockerfile_read(model.file)
    if dockerfile is None:
        return
    stage_text: dict[int, list[str]] = {}
    index = -1
    for inst in dockerfile[1].instructions:
        index += inst.keyword == "FROM"
        stage_text.setdefault(index, []).append(inst.args)
    titles = dict(doc.headings)
    named_before: dict[str, int] = {}
    for fence in doc.fences:
        for line, text in fence.lines:
            for word in re.finditer(r"[\w][\w.-]*", _DOT_PATH.sub(" ", text)):
                named_before[word.group()] = min(named_before.get(word.group(), line), line)
    told: set[tuple[str, str]] = set()
    for fence in doc.fences:
        heading = set(_WORD.findall(titles.get(fence.section, "").lower()))
        which = [target for target, words in own.items() if words and heading & words]
        if len(which) != 1:
            continue
        target = which[0]
        chain = {stage.index for stage in model.chain(model.stages[named[target]])}
        chain_text = "\n".join(t for i in chain for t in stage_text.get(i, []))
        for line, text in fence.lines:
            if _HOST_LINE.search(text):
                continue
            for match in _DOT_PATH.finditer(text):
                name = match.group(1)
                if (target, name) in told or named_before.get(name, line) < line:
                    continue
                if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", chain_text):
                    continue
                elsewhere = [(i, at) for i, made_name, at in made if made_name == name and i not in chain]
                if not elsewhere:
                    continue
                told.add((target, name))
                stage = model.stages[elsewhere[0][0]]
                yield Diagnostic(
                    readme,
                    line,
                    f"README passes ./{name} in the image built with --target {target}, but {model.path} "
                    f"makes {name} only in stage {stage.name or stage.index} (line {elsewhere[0][1]}), "
                    f"which --target {target} is not built from",
                    confidence=LIKELY,
                )
