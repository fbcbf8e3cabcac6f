"""A file the image's default command reads by a path from its working folder (`CMD ["python3.8",
"main.py", "-i", "data/wall.jpg"]` under `WORKDIR /app`) that a COPY of the build context would put
there (`COPY . .`) while the context does not hold it: a README run that starts the default command
(a bare `docker run` of the image it builds, or `docker compose run`/`up` of a service that builds the
Dockerfile with no `command:` of its own) fails on the missing file.

Read: the last CMD (and the ENTRYPOINT's words before it, exec form or shell words) of the target's
stages; each word after the program that is a relative path with a suffix of letters (`data/wall.jpg`,
`config.json`), not a script (`.py`, `.sh` …: the command's program), not the value of an option that
names what the command writes (`-o`, `--out`, `--output`, `--save…`, `--log…`). The path is read from the
last WORKDIR; the COPY or ADD of the final stage whose destination holds it gives the context file (`COPY
. .` → the context's `data/wall.jpg`). Told when the context lacks that file: `certain` when its folder
holds another file of the same suffix (another sample image: the name is wrong), else `likely`.

Silent: a file a RUN names or makes (its name or its first folder in a RUN, a download, a clone), one a
`COPY --from` may bring, one `.gitignore` or `.dockerignore` leaves out (the reader's own), one the README
names (it tells the reader to provide it), a path under a volume of the service or a mount of the run,
an image that sets a WORKDIR with a variable or none, a README that runs the image only with a command
of its own.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.commands import TAG_FLAG, fence_commands, image_repository, joined
from docgen.audit.container_scripts import work_dir
from docgen.audit.docker_cli import docker_verb, docker_words
from docgen.audit.grammar import IMAGE_WORD, RUN, read_words
from docgen.audit.references import MadeFiles, build_ignored
from docgen.audit.run_args import OFFICIAL, PLAIN_BASES
from docgen.audit.unshipped_cmd import bare_runs
from docgen.build_scripts import BUILD
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import DOCKERFILE, built_dockerfile, bytes_or_none, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PATH = re.compile(r"(?![/~-])[\w.-]+(?:/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}")
"""A relative path with a suffix of letters (`data/wall.jpg`, `config.json`)."""
_SCRIPTS = frozenset({"py", "sh", "bash", "js", "mjs", "ts", "rb", "pl", "php", "jar", "lua", "r"})
_WRITES = re.compile(
    r"-o|-O|--?(?:out|save|log|result|dest|export|write|dump|checkpoint)[\w-]*", re.IGNORECASE
)
"""An option naming what the command writes (`-o results/x`, `--output-dir`, `--save_path`)."""
_MAKES = re.compile(r"\b(?:git|wget|curl|gsutil|aws|rsync|scp|gdown|huggingface-cli|hf)\b")
_COMPOSE_RUN = re.compile(r"\bdocker(?:-compose|[ \t]+compose)\b(?P<rest>[^\n]*)")


def _default_words(model: ImageModel) -> tuple[list[str], int] | None:
    """The words of the command a container of the image runs with none of its own (ENTRYPOINT's, then
    CMD's), and the line of the CMD; None when there is no CMD."""
    labels = {stage.label for stage in model.chain()}
    entry = [s for s in model.settings if s.keyword == "ENTRYPOINT" and s.stage in labels]
    cmds = [s for s in model.settings if s.keyword == "CMD" and s.stage in labels]
    if not cmds:
        return None
    words: list[str] = []
    for setting in (*entry[-1:], cmds[-1]):
        words += list(setting.exec_form) if setting.exec_form is not None else setting.value.split()
    return words, cmds[-1].line


def _read_paths(words: list[str]) -> list[str]:
    """The words after the program that are relative file paths the command reads."""
    found: list[str] = []
    for before, word in zip(words, words[1:], strict=False):
        word = word.strip("\"'")
        if "=" in word:
            name, word = word.split("=", 1)
            if _WRITES.fullmatch(name):
                continue
        elif _WRITES.fullmatch(before):
            continue
        if _PATH.fullmatch(word) and word.rsplit(".", 1)[1].lower() not in _SCRIPTS and "$" not in word:
            found.append(posixpath.normpath(word))
    return found


def _final_stage(instructions: Sequence[Any]) -> list[Any]:
    start = max((i for i, inst in enumerate(instructions) if inst.keyword == "FROM"), default=0)
    return list(instructions[start:])


def _source_of(instructions: Sequence[Any], target: str, name: str) -> tuple[str | None, bool]:
    """(the context path a COPY of the final stage would put at `target`, whether anything else of the
    stage may make it: a RUN naming it or fetching, a `COPY --from`)."""
    workdir = "/"
    found: str | None = None
    other = False
    first = target.strip("/").split("/")
    for inst in _final_stage(instructions):
        if inst.keyword == "WORKDIR":
            workdir = posixpath.normpath(posixpath.join(workdir, inst.args.strip().strip("\"'")))
        elif inst.keyword == "RUN":
            body = inst.args
            if name in body or _MAKES.search(body) or any(len(p) > 2 and p in body for p in first[-2:-1]):
                other = True
        elif inst.keyword in ("COPY", "ADD"):
            words = [w for w in (inst.exec_form or inst.args.split()) if not w.startswith("--")]
            if len(words) < 2:
                continue
            dest = posixpath.normpath(posixpath.join(workdir, words[-1].strip("\"'")))
            covers = target == dest or target.startswith(dest.rstrip("/") + "/")
            if not covers:
                continue
            if any(flag.name == "from" for flag in inst.flags) or "://" in inst.args:
                other = True
                continue
            if len(words) != 2:
                continue
            source = words[0].strip("\"'").removeprefix("./").rstrip("/") or "."
            rest = target[len(dest.rstrip("/")) + 1 :] if target != dest else ""
            found = posixpath.normpath(posixpath.join(source, rest)) if rest else source
    return found, other


def _runs_default(doc: Document, model: ImageModel, directory: Path, path: str) -> int | None:
    """The README line of the first run of the image with its default command: a bare `docker run` of a
    tag the README builds, or a compose `run`/`up` of a service of the README's compose file that builds
    the Dockerfile and sets no `command:`/`entrypoint:` nor a volume holding `path`."""
    tags = {
        image_repository(match.group(1))
        for fence in doc.fences
        for lines in fence_commands(fence)
        if BUILD.search(text := joined(lines))
        for match in TAG_FLAG.finditer(text)
    }
    runs = list(bare_runs(doc, tags)) if tags else []
    services = _default_services(directory, model, path)
    if services:
        for fence in doc.fences:
            for line, text in fence.lines:
                match = _COMPOSE_RUN.search(text)
                if match is None:
                    continue
                words = match.group("rest").split()
                verb = next((w for w in words if not w.startswith("-")), None)
                if verb == "up" or (verb == "run" and _ran_service(words, services)):
                    runs.append(line)
    return min(runs) if runs else None


def _ran_service(words: list[str], services: set[str]) -> bool:
    """True when a `compose run`'s words run one of `services` with no command after it."""
    after = words[words.index("run") + 1 :]
    rest = [w for w in after if not w.startswith("-")]
    return bool(rest) and rest[0] in services and len(rest) == 1


def _default_services(directory: Path, model: ImageModel, path: str) -> set[str]:
    """The services of the README folder's compose file that build the Dockerfile of `model` and start
    its default command with nothing mounted over `path`."""
    found: set[str] = set()
    dockerfile = Path(model.file).resolve()
    for file in compose.default_files(directory)[:1]:
        data = bytes_or_none(file)
        if data is None:
            continue
        try:
            loaded = compose.load(data, file.name)
        except DocgenError:
            continue
        services = loaded.get("services") if isinstance(loaded, dict) else None
        if not isinstance(services, dict):
            continue
        for name, service in services.items():
            if not isinstance(service, dict) or "command" in service or "entrypoint" in service:
                continue
            build = service.get("build")
            context, named = (build, DOCKERFILE) if isinstance(build, str) else (None, None)
            if isinstance(build, dict):
                context, named = build.get("context", "."), build.get("dockerfile", DOCKERFILE)
            if not isinstance(context, str) or not isinstance(named, str):
                continue
            if built_dockerfile(file.parent / context / named).resolve() != dockerfile:
                continue
            volumes = service.get("volumes") or []
            targets = [v.split(":")[1] for v in volumes if isinstance(v, str) and v.count(":") >= 1]
            targets += [v.get("target", "") for v in volumes if isinstance(v, dict)]
            if any(path == t.rstrip("/") or path.startswith(t.rstrip("/") + "/") for t in targets if t):
                continue
            found.add(str(name))
    return found


def missing_cmd_files(
    doc: Document, source: Sequence[str], models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring), at the README's first run of the image with its
    default command."""
    made = MadeFiles(source)
    for model in models:
        if not model.file:
            continue
        default = _default_words(model)
        where = work_dir(model)
        read = dockerfile_read(model.file)
        if default is None or where is None or read is None:
            continue
        words, cmd_line = default
        folder, _ = where
        context = Path(model.file).parent
        for path in _read_paths(words):
            target = posixpath.join(folder, path)
            name = posixpath.basename(path)
            copied, other = _source_of(read[1].instructions, target, name)
            if copied is None or other or copied.startswith(".."):
                continue
            if os.path.lexists(context / copied) or made.named(copied):
                continue
            top = posixpath.dirname(copied).split("/", 1)[0]
            if top and re.search(rf"(?<![\w.-]){re.escape(top)}/", "\n".join(source)):
                continue  # (the README speaks of that folder: it may tell to fill it)
            if build_ignored(copied, [context], Path(model.file)) or build_ignored(
                copied, [context], docker=False
            ):
                continue
            line = _runs_default(doc, model, directory, target)
            if line is None:
                continue
            holder = context / posixpath.dirname(copied)
            suffix = name.rsplit(".", 1)[1].lower()
            kin = sorted(
                entry
                for entry in (os.listdir(holder) if os.path.isdir(holder) else [])
                if entry.lower().endswith("." + suffix) and os.path.isfile(holder / entry)
            )
            also = f" (its folder holds {', '.join(kin[:3])})" if kin else ""
            yield Diagnostic(
                readme,
                line,
                f"README runs the image with its default command, {model.path}:{cmd_line} reading {path} "
                f"from WORKDIR {folder}, but the build context does not hold {copied}{also}: the command "
                "fails on the missing file",
                confidence=CERTAIN if kin else LIKELY,
            )


_ABSOLUTE = re.compile(r"/[\w.-]+(?:/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]{0,9}")
"""An absolute path with a suffix of letters (`/model/tts.pth.tar`, `/data/config.json`)."""
_SYSTEM = frozenset(
    "bin boot dev etc home lib lib32 lib64 libx32 media mnt opt proc root run sbin srv sys tmp usr "
    "var".split()
)
"""Top folders of the file system an image's packages fill: a path under one may be installed."""
_PLAIN_RUNNERS = frozenset({"python", "pypy"})
_SHELL_RUN = re.compile(r"^[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?docker[ \t]+(?:container[ \t]+)?run[ \t]")


def _unfilled(model: ImageModel, dockerfile: str) -> tuple[str, str, str, int] | None:
    """(path, option, top folder, CMD line) of the first absolute file the default command of the image
    `model` reads as an option's value under a top folder nothing else in the Dockerfile names (no COPY,
    RUN, VOLUME, WORKDIR or ENV puts anything there); None when there is none."""
    default = _default_words(model)
    if default is None:
        return None
    words, cmd_line = default
    if words and re.search(r"\.(?:sh|bash)$|entrypoint", words[0]):
        return None  # (a start script may fetch the files)
    rest = "\n".join(
        line
        for line in dockerfile.replace("\\\n", " ").split("\n")
        if not re.match(r"[ \t]*(?:CMD|ENTRYPOINT)\b", line, re.IGNORECASE)
    )
    for before, word in zip(words, words[1:], strict=False):
        option = before
        if "=" in word and word.startswith("-"):
            option, word = word.split("=", 1)
        if not option.startswith("-") or _WRITES.fullmatch(option) or re.search(r"out|save|log|dump", option):
            continue
        if not _ABSOLUTE.fullmatch(word) or word.rsplit(".", 1)[1].lower() in _SCRIPTS:
            continue
        top = word.split("/")[1]
        if top in _SYSTEM or re.search(rf"(?<![\w.$-])/{re.escape(top)}(?![\w.-])", rest):
            continue
        return word, option, top, cmd_line
    return None


def _default_runs(doc: Document, tags: set[str], base: str) -> Iterator[tuple[int, str, list[str]]]:
    """(README line, image, options) of each `docker run` in a command block, or on a line of its own in
    prose, that runs an image with its default command: nothing after the image and no `--entrypoint`.
    The image is one the README builds (`tags`), or, when it builds none, any but the base and official
    images."""
    lines = [joined(command) for fence in doc.fences for command in fence_commands(fence)]
    starts = [command[0][0] for fence in doc.fences for command in fence_commands(fence)]
    for para in doc.paragraphs:
        for line, said in para.lines:
            if _SHELL_RUN.match(said):
                lines.append(said)
                starts.append(line)
    for line, text in zip(starts, lines, strict=True):
        words = docker_words(text.split("&&")[0].split(";")[0].split("|")[0])
        found = docker_verb(words) if words else None
        if words is None or found is None or found[0] != "run":
            continue
        read = read_words(words[found[1] :], RUN)
        if not read.complete or not read.positional or read.after == 0:
            continue
        image = read.positional[0]
        after = words[found[1] + read.after :]
        if after or any(name == "--entrypoint" for name, _ in read.values) or not IMAGE_WORD.fullmatch(image):
            continue
        repository = image_repository(image)
        if (tags and repository not in tags) or (
            not tags and (repository in OFFICIAL or repository == image_repository(base))
        ):
            continue
        yield line, image, [f"{name} {value}" for name, value in read.values]


def unfilled_cmd_paths(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """A README `docker run` of the image with its default command that mounts nothing over a folder the
    default command reads its files from (`--tts_checkpoint /model/tts.pth.tar`) while nothing in the
    Dockerfile puts anything in that folder (`likely`, one per image, at the first such run). Read only
    for the one image audited, built on a plain OS or CUDA image or `python`, whose command is no start
    script, for a folder outside the file system's own (`/usr`, `/opt`, `/tmp` …) that no instruction but
    CMD and ENTRYPOINT names. Silent: a run that mounts anything (`-v`, `--mount`), a README that names the
    folder as a mount target anywhere (`-v ./models:/model`, `target: /model`), a run with a command or
    `--entrypoint`."""
    if len(models) != 1 or not models[0].file:
        return
    model = models[0]
    chain = model.chain()
    base = chain[-1].base if chain else ""
    repository = image_repository(base).removeprefix("docker.io/").removeprefix("library/")
    if repository not in PLAIN_BASES and repository not in _PLAIN_RUNNERS:
        return
    dockerfile = dockerfile_read(model.file)
    source = text_or_none(Path(model.file), MAX_PROJECT_FILE_BYTES) if dockerfile is not None else None
    unfilled = _unfilled(model, source) if source is not None else None
    if unfilled is None:
        return
    path, option, top, cmd_line = unfilled
    if re.search(
        rf":/{re.escape(top)}(?![\w.-])|(?:target|destination|dst)[:=][ \t]*/{re.escape(top)}\b", text
    ):
        return
    tags = {
        image_repository(match.group(1))
        for fence in doc.fences
        for lines in fence_commands(fence)
        if BUILD.search(command := joined(lines))
        for match in TAG_FLAG.finditer(command)
    }
    for line, image, options in _default_runs(doc, tags, base):
        if any(re.match(r"(?:-v|--volume|--mount)\b", option) for option in options):
            continue
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} with its default command and mounts nothing at /{top}, but "
            f"{model.path}:{cmd_line} has it read {path} ({option}) and nothing in the image puts files in "
            f"/{top}: the command cannot find them (mount a folder holding them: -v DIR:/{top})",
            confidence=LIKELY,
        )
        return
