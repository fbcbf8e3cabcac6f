"""A bind mount of a README's `docker run` that hides what the image made below the folder it mounts
over, while the container's command needs it: `docker run -v $(pwd):/app app` of an image whose RUN
made a virtual environment at /app/myenv (`python3 -m venv myenv` under `WORKDIR /app`) and whose CMD
runs `source myenv/bin/activate && python sft.py`. Docker puts the host folder over /app, so the
container sees the host's files only, and the host folder holds no myenv.

What the image makes, read from the RUNs of the target's stages, each from its working folder (the
WORKDIR, then the `cd` of the RUN): a virtual environment (`python -m venv DIR`, `virtualenv DIR`, `uv
venv`, `conda create -p DIR`), `node_modules` (`npm install`/`ci`, `yarn`, `pnpm install`, not global),
a build folder (`cmake -B DIR`, `mkdir DIR && cd DIR && cmake ..`, `cargo build`'s `target`, `go build
-o FILE`) and a download (`git clone URL DIR`, `wget -O`/`-P`, `curl -o`, `huggingface-cli download
--local-dir`). What a COPY puts there is left out: the host folder mounted is most often the build
context that COPY reads.

Told when a run of an image the README builds binds the current folder (`$(pwd)`, `$PWD`, `.`, or a
folder below it: `$(pwd)/src`) over that path or a folder above it, or a service of the README folder's
compose file the README starts binds a folder beside it (`- .:/app`); no other mount of the run lands
between them (`-v /app/node_modules`: docker fills a new volume with the image's files); the folders the
command may be run from (the README's, the Dockerfile's and those above them in the repository) do not
hold it; and the container uses it: a path at or below it in the run's command or, with none, the
image's ENTRYPOINT/CMD (`myenv/bin/activate`, read from the WORKDIR or `-w`), `npm`/`yarn`/`npx`/`node`
started where `node_modules` is (no `cd` first), an `ENV PATH` or `VIRTUAL_ENV` entry in it, or a command
typed in the shell an interactive run opens (a block the README says runs in the container). Silent when
the README itself makes it (any command of it creating a virtual environment, installing node packages,
building; a downloaded or built folder it names: a dev container set up after the run) or the command
the container starts does (`npm ci && npm run dev`). `certain` when
the README's folder is in a git checkout (a path it lacks is no file of the repository) and the thing is
a virtual environment or `node_modules`; else `likely`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import clone_operands, image_repository
from docgen.audit.container_blocks import container_lines
from docgen.audit.container_scripts import work_dir
from docgen.audit.memo import per_audit
from docgen.audit.mounts import SHELL_PROGRAM, built_runs
from docgen.errors import DocgenError
from docgen.evaluate import env_pairs
from docgen.files import DOCKERFILE, built_dockerfile, bytes_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

VENV, NODE, BUILD, DOWNLOAD = (
    "the virtual environment",
    "the node packages",
    "the build output",
    "the download",
)


@dataclass(frozen=True)
class Made:
    """A folder or file a RUN of the image made."""

    path: str
    """Where, absolute, normalised (`/app/myenv`)."""
    kind: str
    """What it is: `VENV`, `NODE`, `BUILD` or `DOWNLOAD`."""
    line: int
    """The Dockerfile line of the RUN."""


_STEP = re.compile(r"&&|\|\||;|\n|\|")
_OPTION_VALUES = frozenset({"-p", "--python", "--prompt", "--prefix", "-O", "-o", "-P", "--output"})


def _words(step: str) -> list[str]:
    return [w.strip("\"'") for w in step.split() if w.strip("\"'")]


def _operand(words: list[str], valued: frozenset[str] = _OPTION_VALUES) -> str | None:
    """The first word of `words` that is no option nor an option's value."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in valued
        else:
            return word
    return None


def _value(words: list[str], *names: str) -> str | None:
    """The value of the first option of `names` in `words` (`-O f`, `--local-dir=f`, `-Pdir`)."""
    for index, word in enumerate(words):
        for name in names:
            if word == name and index + 1 < len(words):
                return words[index + 1]
            if name.startswith("--") and word.startswith(name + "="):
                return word[len(name) + 1 :]
            if not name.startswith("--") and word.startswith(name) and len(word) > len(name):
                return word[len(name) :]
    return None


def _made_by(words: list[str], cwd: str, made_dirs: set[str]) -> Iterator[tuple[str, str]]:
    """(path relative to `cwd` or absolute, kind) of what one shell step makes."""
    if not words:
        return
    program = posixpath.basename(words[0])
    rest = words[1:]
    if re.fullmatch(r"python[\d.]*", program) and rest[:2] == ["-m", "venv"]:
        if (target := _operand(rest[2:])) is not None:
            yield target, VENV
    elif program == "virtualenv" and (target := _operand(rest)) is not None:
        yield target, VENV
    elif program == "uv" and rest[:1] == ["venv"]:
        yield _operand(rest[1:]) or ".venv", VENV
    elif program in ("conda", "mamba", "micromamba") and "create" in rest:
        if (target := _value(rest, "-p", "--prefix")) is not None:
            yield target, VENV
    elif program in ("npm", "pnpm") and rest[:1] in (["install"], ["i"], ["ci"]):
        if not {"-g", "--global"} & set(rest):
            yield posixpath.join(_value(rest, "--prefix") or ".", "node_modules"), NODE
    elif program == "yarn" and (not rest or rest[0] == "install" or rest[0].startswith("-")):
        if "global" not in rest:
            yield "node_modules", NODE
    elif program == "cmake" and (target := _value(rest, "-B")) is not None:
        yield target, BUILD
    elif program in ("cmake", "make", "ninja", "meson") and cwd in made_dirs:
        yield cwd, BUILD
    elif program == "cargo" and rest[:1] == ["build"]:
        yield "target", BUILD
    elif program == "go" and rest[:1] == ["build"] and (target := _value(rest, "-o")) is not None:
        yield target, BUILD
    elif program == "git" and rest[:1] == ["clone"]:
        operands = clone_operands(rest[1:])
        if len(operands) == 2:
            yield operands[1], DOWNLOAD
        elif len(operands) == 1:
            yield posixpath.basename(operands[0].rstrip("/")).removesuffix(".git"), DOWNLOAD
    elif program == "wget" and (target := _value(rest, "-O", "--output-document", "-P")) is not None:
        yield target, DOWNLOAD
    elif program == "curl" and (target := _value(rest, "-o", "--output")) is not None:
        yield target, DOWNLOAD
    elif program in ("huggingface-cli", "hf") and rest[:1] == ["download"]:
        if (target := _value(rest, "--local-dir")) is not None:
            yield target, DOWNLOAD


@per_audit(maxsize=64)
def image_made(model: ImageModel) -> tuple[Made, ...]:
    """What the RUNs of the target's stages of `model` make (see the module docstring), in order."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return ()
    indexes = {stage.index for stage in model.chain()}
    found: list[Made] = []
    workdir = "/"
    current = None
    for inst in read[1].instructions:
        stage = model.stage_at(inst.start_line)
        if stage is None or stage.index not in indexes:
            continue
        if stage.index != current:
            current, workdir = stage.index, ("/" if stage.parent is None else workdir)
        if inst.keyword == "WORKDIR":
            value = inst.args.strip().strip("\"'")
            workdir = posixpath.normpath(posixpath.join(workdir, value)) if "$" not in value else ""
        elif inst.keyword == "RUN" and workdir:
            cwd, made_dirs = workdir, set()
            for step in _STEP.split(inst.args.replace("\\\n", " ")):
                words = _words(step)
                if words[:1] == ["cd"]:
                    into = words[1] if len(words) > 1 else "/root"
                    cwd = posixpath.normpath(posixpath.join(cwd, into)) if "$" not in into else ""
                    if not cwd:
                        break
                    continue
                if words[:1] == ["mkdir"]:
                    made_dirs |= {
                        posixpath.normpath(posixpath.join(cwd, w)) for w in words[1:] if w[0] != "-"
                    }
                for target, kind in _made_by(words, cwd, made_dirs):
                    if "$" in target or "*" in target or not target or target == ".":
                        continue
                    path = posixpath.normpath(posixpath.join(cwd, target))
                    if path != "/" and all(m.path != path for m in found):
                        found.append(Made(path, kind, inst.start_line))
    return tuple(found)


_HOST = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?"
    r"(?P<host>\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|\.)(?P<sub>/[\w./-]*)?[\"']?:[\"']?(?P<target>/[\w./-]*)"
)
"""`-v "$(pwd)":/app`, `--volume=$PWD/src:/app/src`, `-v .:/app`: a folder of the current one bound."""
_BIND = re.compile(
    r"--mount[ \t=]+[\"']?type=bind,(?:src|source)=[\"']?(?P<host>\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|\.)"
    r"(?P<sub>/[\w./-]*)?[\"']?,(?:dst|target|destination)=(?P<target>/[\w./-]*)"
)
_ANY_TARGET = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?(?:[^\s\"':]+:)?(/[\w./-]*)"
    r"|(?:dst|target|destination)=(/[\w./-]*)"
)
"""The container side of any mount (`-v /app/node_modules`, `-v cache:/app/.cache`)."""
_WORKDIR_FLAG = re.compile(r"(?:^|[ \t])(?:-w|--workdir)(?:[ \t]+|=)[\"']?(/[\w./-]*)")
_PATHS = re.compile(r"(?<![\w$.-])(?:\.?/)?[\w.-]+(?:/[\w.@+-]+)+|(?<![\w$.-])/[\w.@+-]+")
_NODE_RUNNERS = re.compile(r"(?<![\w./-])(?:npm|npx|yarn|pnpm|node)(?=[ \t\"',]|$)")
_CD = re.compile(r"(?:^|[\s;&|(])cd[ \t]+[\"']?([\w.][\w./-]*)")
_MOVES = re.compile(r"(?:^|[\s;&|\"'(])(?:cd|pushd)[ \t]")
"""A `cd` in a command: what it starts after it starts elsewhere."""
_MAKERS = {
    VENV: re.compile(r"-m[ \t]+venv\b|\bvirtualenv\b|\buv[ \t]+(?:venv|sync)\b|\bconda[ \t]+create\b"),
    NODE: re.compile(r"\b(?:npm|pnpm)[ \t]+(?:install|ci|i)\b|\byarn(?:[ \t]+install\b|[ \t]*$)", re.M),
    BUILD: re.compile(r"\b(?:cmake|make|ninja|meson|cargo[ \t]+build|go[ \t]+build)\b"),
}
"""README commands that make each kind themselves (a dev container set up after the run)."""


def _readme_texts(auditor: Auditor, text: str) -> tuple[str, str]:
    """(the README's command blocks, its whole text but the lines of its runs of images it builds)."""
    doc = auditor.shared.doc
    runs = {n for lines, *_ in built_runs(doc, auditor) for n, _ in lines}
    code = "\n".join(text for fence in doc.fences for _, text in fence.lines)
    prose = "\n".join(text for n, text in enumerate(text.splitlines(), 1) if n not in runs)
    return code, prose


def _uses(path: Made, words: str, workdir: str) -> str | None:
    """The word of `words` (a command as written) or the ENV line of `model` that uses `path`: a path at
    or below it, read from `workdir`; a node package runner started where `node_modules` is; None."""
    for match in _PATHS.finditer(words):
        word = match.group(0)
        full = posixpath.normpath(posixpath.join(workdir, word))
        if full == path.path or full.startswith(path.path + "/"):
            return f"`{word}`"
    moves = _MOVES.search(words) is not None
    if (
        path.kind == NODE
        and posixpath.dirname(path.path) == workdir
        and not moves
        and _NODE_RUNNERS.search(words)
    ):
        return f"`{_NODE_RUNNERS.search(words).group(0)}`"  # type: ignore[union-attr]
    return None


@per_audit(maxsize=64)
def _env_paths(model: ImageModel) -> tuple[tuple[str, str, int], ...]:
    """(name, absolute folder, line) of each entry of the `PATH` and `VIRTUAL_ENV` the ENVs of the
    target's stages set, as written (`ENV PATH=/app/.venv/bin:$PATH`)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return ()
    indexes = {stage.index for stage in model.chain()}
    found: list[tuple[str, str, int]] = []
    for inst in read[1].instructions:
        stage = model.stage_at(inst.start_line)
        if inst.keyword != "ENV" or stage is None or stage.index not in indexes:
            continue
        for name, value in env_pairs(inst, read[1].escape):
            if name in ("PATH", "VIRTUAL_ENV"):
                for entry in value.strip("\"'").split(":"):
                    if entry.startswith("/") and "$" not in entry:
                        found.append((name, posixpath.normpath(entry), inst.start_line))
    return tuple(found)


def _env_uses(path: Made, model: ImageModel) -> str | None:
    """`ENV PATH (Dockerfile:3)` when an entry of the image's PATH or VIRTUAL_ENV is at or below `path`."""
    for name, entry, line in _env_paths(model):
        if entry == path.path or entry.startswith(path.path + "/"):
            return f"ENV {name} ({model.path}:{line})"
    return None


def _default_command(model: ImageModel) -> tuple[str, int] | None:
    """The ENTRYPOINT and CMD words of the target as one text, with the line of the last of them."""
    labels = {stage.label for stage in model.chain()}
    found: list[str] = []
    line = 0
    for keyword in ("ENTRYPOINT", "CMD"):
        settings = [s for s in model.settings if s.keyword == keyword and s.stage in labels]
        if settings:
            last = settings[-1]
            found.append(" ".join(last.exec_form) if last.exec_form is not None else last.value)
            line = last.line
    return (" ".join(found), line) if found else None


def _host_folders(auditor: Auditor, model: ImageModel) -> tuple[list[Path], bool]:
    """The folders a README command may be run from (the README's, the Dockerfile's and those above them
    up to the git checkout holding the README, or two levels without one), and whether there is one."""
    directory = auditor.shared.directory or Path(".")
    starts = [directory.absolute()]
    if model.file:
        starts.append(Path(model.file).parent.absolute())
    top = next((p for p in (starts[0], *starts[0].parents) if os.path.exists(p / ".git")), None)
    folders: list[Path] = []
    for start in starts:
        for level, folder in enumerate((start, *start.parents)):
            if folder not in folders:
                folders.append(folder)
            if folder == top or (top is None and level >= 2):
                break
    return folders, top is not None


def _model_of(
    image: str, built: dict[str, set[str | None]], family: tuple[ImageModel, ...]
) -> ImageModel | None:
    """The model of the Dockerfile the README's one build of `image` reads: the one its `-f` names (read
    from the README's folder or one above it), the only one audited when it names none."""
    files = built.get(image_repository(image))
    if not files or len(files) != 1:
        return None
    (file,) = files
    if file is None:
        return family[0] if len(family) == 1 else None
    tail = "/" + file.removeprefix("./")
    named = [m for m in family if m.file and os.path.abspath(m.file).endswith(tail)]
    return named[0] if len(named) == 1 else None


@dataclass(frozen=True)
class _Bind:
    """One bind of a folder of the host over a folder of a container of the README's image."""

    model: ImageModel
    image: str
    """The image as the README names it (a compose service: `service app`)."""
    shown: str
    """The mount as written (`-v $(pwd):/app`, `.:/app`)."""
    line: int
    """The README line of the run."""
    target: str
    """The folder of the container it binds over (`/app`)."""
    host: str
    """The folder bound, from the folder the run is made in (`""` for that folder, `src`)."""
    others: tuple[str, ...]
    """The container side of every mount of the run."""
    command: str
    """The run's own command (`""` when it runs the image's, a shell's name when it opens one)."""
    workdir: str
    """Where the command starts (`-w`, compose `working_dir:`, the WORKDIR)."""
    typed: str = ""
    """What the README types in the container's shell after an interactive run with no command."""


def _hides(bind: _Bind, auditor: Auditor, readme: tuple[str, str]) -> Iterator[tuple[Made, str, str]]:
    """(what a RUN made, who uses it, how) for each thing the bind hides from a command that uses it
    (see the module docstring)."""
    model, target = bind.model, bind.target
    default = _default_command(model) if not bind.command else None
    places: list[Path] | None = None  # (the folders that may hold it: read once, at the first thing hidden)
    for thing in image_made(model):
        if thing.path != target and not thing.path.startswith(target.rstrip("/") + "/"):
            continue
        if any(
            t != target
            and t.startswith(target.rstrip("/") + "/")
            and (t == thing.path or thing.path.startswith(t.rstrip("/") + "/"))
            for t in bind.others
        ):
            continue  # (a volume between: docker fills a new one with what the image holds there)
        relative = posixpath.relpath(thing.path, target)
        held = posixpath.join(bind.host, relative) if bind.host else relative
        if places is None:
            folders = _host_folders(auditor, model)[0]
            places = [
                *folders,
                *(folders[0] / f for f in _CD.findall(readme[0]) if "$" not in f and ".." not in f),
            ]
        if any(os.path.lexists(folder / held) for folder in places):
            continue  # (a `cd` of the README may lead to a folder that holds it)
        use, said = None, ""
        if bind.command and not SHELL_PROGRAM.match(bind.command):
            use, said = _uses(thing, bind.command, bind.workdir), "its command uses"
        if use is None and default is not None:
            use, said = (
                _uses(thing, default[0], bind.workdir),
                f"its default command ({model.path}:{default[1]}) uses",
            )
        if use is None and bind.typed:
            use, said = _uses(thing, bind.typed, bind.workdir), "the README's commands in the container use"
        if use is None:
            use, said = _env_uses(thing, model), "the image uses"
        if use is None:
            continue
        code, prose = readme
        maker = _MAKERS.get(thing.kind)
        started = "\n".join((bind.command, default[0] if default is not None else "", bind.typed))
        if maker is not None and (maker.search(code) or maker.search(started)):
            continue  # (the README, or the command the container starts, makes it again)
        name = re.escape(relative.split("/")[0])
        if thing.kind in (BUILD, DOWNLOAD) and re.search(rf"(?<![\w.-]){name}/|/{name}(?![\w.-])", prose):
            continue  # (the README speaks of the folder: it may tell to fill it)
        yield thing, said, use


_INTERACTIVE = re.compile(r"(?:^|[ \t])(?:-it|-ti|-i[ \t]+-t|-t[ \t]+-i|--interactive[ \t]+--tty)(?=[ \t]|$)")


def _run_binds(part: Document, auditor: Auditor) -> Iterator[_Bind]:
    """The binds of the current folder (or one below it) of the README's `docker run`s of images it
    builds."""
    family = auditor.family or auditor.models
    inside: dict[int, str] | None = None
    # (whether each model makes anything, by identity: `image_made` hashes the whole model, once a run)
    made: dict[int, bool] = {}
    for lines, command, start, image, at in built_runs(part, auditor):
        model = _model_of(image, auditor.shared.built, family)
        if model is not None and id(model) not in made:
            made[id(model)] = bool(image_made(model))
        if model is None or at < 0 or not made[id(model)]:
            continue
        options = command[start:at]
        after = command[at + len(image) :].strip()
        targets = tuple(posixpath.normpath(m.group(1) or m.group(2)) for m in _ANY_TARGET.finditer(options))
        flag = _WORKDIR_FLAG.search(options)
        where = work_dir(model)
        workdir = posixpath.normpath(flag.group(1)) if flag is not None else (where[0] if where else "/")
        typed = ""
        if _INTERACTIVE.search(options) and (not after or SHELL_PROGRAM.match(after)):
            if inside is None:
                doc = auditor.shared.doc
                numbers = container_lines(doc)
                inside = {n: t for fence in doc.fences for n, t in fence.lines if n in numbers}
            typed = "\n".join(t for n, t in inside.items() if n > lines[-1][0])
        for mount in (*_HOST.finditer(options), *_BIND.finditer(options)):
            mounted = mount.group(0).strip()
            yield _Bind(
                model,
                image,
                f"`{mounted}`",
                next((n for n, t in lines if mounted in t), lines[0][0]),
                posixpath.normpath(mount.group("target")),
                (mount.group("sub") or "").strip("/"),
                targets,
                after,
                workdir,
                typed,
            )


_COMPOSE_START = re.compile(r"\bdocker(?:-compose|[ \t]+compose)\b[^\n#]*?[ \t](?:up|run)\b")


@per_audit(maxsize=16)
def _compose_services(folder: Path) -> tuple[tuple[str, dict[str, Any], Path], ...]:
    """(name, service as written, compose file) of each service of the default compose file of
    `folder`."""
    for file in compose.default_files(folder)[:1]:
        data = bytes_or_none(file)
        try:
            loaded = compose.load(data, file.name) if data is not None else None
        except DocgenError:
            return ()
        services = loaded.get("services") if isinstance(loaded, dict) else None
        if isinstance(services, dict):
            return tuple((str(n), v, file) for n, v in services.items() if isinstance(v, dict))
    return ()


def _words_of(value: object) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value) if isinstance(value, str) else ""


def _compose_binds(part: Document, auditor: Auditor) -> Iterator[_Bind]:
    """The binds of a folder beside the compose file (`.:/app`, `./src:/app/src`, a long-syntax `bind`)
    of each service of the README folder's compose file that builds an audited Dockerfile, when a
    command of `part` starts the compose project (`docker compose up`, `run`)."""
    directory = auditor.shared.directory
    line = next(
        (n for fence in part.fences for n, t in fence.lines if _COMPOSE_START.search(t)),
        None,
    )
    if directory is None or line is None:
        return
    by_file: dict[str, list[ImageModel]] = {}  # each audited Dockerfile's images, read once for every service
    for m in auditor.family or auditor.models:
        if m.file:
            by_file.setdefault(os.path.abspath(m.file), []).append(m)
    for name, service, file in _compose_services(directory):
        build = service.get("build")
        context, named = (build, DOCKERFILE) if isinstance(build, str) else (None, None)
        if isinstance(build, dict):
            context, named = build.get("context", "."), build.get("dockerfile", DOCKERFILE)
        if not isinstance(context, str) or not isinstance(named, str) or "$" in context + named:
            continue
        dockerfile = os.path.abspath(built_dockerfile(file.parent / context / named))
        models = by_file.get(dockerfile, [])
        if len(models) != 1 or not image_made(models[0]):
            continue
        model = models[0]
        binds: list[tuple[str, str, str]] = []
        others: list[str] = []
        for volume in service.get("volumes") or []:
            host, target, shown = "", "", ""
            if isinstance(volume, str):
                parts = volume.split(":")
                host, target = (parts[0], parts[1]) if len(parts) > 1 else ("", parts[0])
                shown = volume
            elif isinstance(volume, dict) and isinstance(volume.get("target"), str):
                source = volume.get("source")
                host = source if volume.get("type") == "bind" and isinstance(source, str) else ""
                target, shown = volume["target"], f"{host}:{volume['target']}"
            if not target.startswith("/"):
                continue
            others.append(posixpath.normpath(target))
            if host.startswith(".") and "$" not in host:
                relative = os.path.relpath(os.path.abspath(file.parent / host), directory.absolute())
                if not relative.startswith(".."):
                    binds.append((shown, relative if relative != "." else "", posixpath.normpath(target)))
        where = service.get("working_dir")
        start = work_dir(model)
        workdir = where if isinstance(where, str) and where.startswith("/") else (start[0] if start else "/")
        command = " ".join(_words_of(service.get(k)) for k in ("entrypoint", "command")).strip()
        for shown, host, target in binds:
            yield _Bind(
                model,
                f"service {name}",
                f"`{shown}` ({file.name})",
                line,
                target,
                host,
                tuple(others),
                command,
                posixpath.normpath(workdir),
            )


def hidden_paths(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring): one per image and path hidden, at the first run
    that hides it."""
    told: set[tuple[str, str]] = set()
    readme: tuple[str, str] | None = None
    # (binds alike but for the run's line and image, as thousands of runs of one image are, hide alike)
    hidden: dict[tuple[object, ...], list[tuple[Made, str, str]]] = {}
    for bind in (*_run_binds(part, auditor), *_compose_binds(part, auditor)):
        if readme is None:
            readme = _readme_texts(auditor, text)
        key = (id(bind.model), bind.target, bind.host, bind.others, bind.command, bind.workdir, bind.typed)
        if key not in hidden:
            hidden[key] = list(_hides(bind, auditor, readme))
        for thing, said, use in hidden[key]:
            if (bind.model.path, thing.path) in told:
                continue
            told.add((bind.model.path, thing.path))
            checkout = _host_folders(auditor, bind.model)[1]
            held = posixpath.join(bind.host, posixpath.relpath(thing.path, bind.target)).lstrip("/")
            yield Diagnostic(
                auditor.path,
                bind.line,
                f"README runs {bind.image} with {bind.shown}, whose bind over {bind.target} hides "
                f"{thing.path}, {thing.kind} {bind.model.path}:{thing.line} makes: {said} it ({use}) and "
                f"the folder the README runs from holds no {held}, so the command fails",
                confidence=CERTAIN if checkout and thing.kind in (VENV, NODE) else LIKELY,
            )
