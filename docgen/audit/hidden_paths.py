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
folder below it: `$(pwd)/src`) over that path or a folder above it, no other mount of the run lands
between them (`-v /app/node_modules`: docker fills a new volume with the image's files), the folders
the command may be run from (the README's, the Dockerfile's and those above them in the repository) do
not hold it, and the container uses it: a path below it in the run's command or, with none, the image's
ENTRYPOINT/CMD (`myenv/bin/activate`, read from the WORKDIR or `-w`), `npm`/`yarn`/`npx` started where
`node_modules` is, or an `ENV PATH` entry in it. Silent when the README itself makes it (any command of
it creating a virtual environment, installing node packages, building, or naming the downloaded
folder: a dev container set up after the run). `certain` when the README's folder is in a git checkout
(a path it lacks is no file of the repository) and the thing is a virtual environment or
`node_modules`; else `likely`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import image_repository
from docgen.audit.container_scripts import work_dir
from docgen.audit.memo import per_audit
from docgen.audit.mounts import built_runs
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

VENV, NODE, BUILD, DOWNLOAD = "a virtual environment", "node_modules", "a build folder", "a download"


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
        operands = [w for w in rest[1:] if not w.startswith("-")]
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
                    if path != "/":
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
_NODE_RUNNERS = re.compile(r"(?<![\w./-])(?:npm|npx|yarn|pnpm)(?=[ \t\"',]|$)")
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
    if path.kind == NODE and posixpath.dirname(path.path) == workdir and _NODE_RUNNERS.search(words):
        return f"`{_NODE_RUNNERS.search(words).group(0)}`"  # type: ignore[union-attr]
    return None


def _env_uses(path: Made, model: ImageModel) -> str | None:
    labels = {stage.label for stage in model.chain()}
    for env in model.env:
        if env.stage not in labels or env.name not in ("PATH", "VIRTUAL_ENV") or not env.value:
            continue
        for entry in env.value.split(":"):
            entry = posixpath.normpath(entry) if entry.startswith("/") else ""
            if entry and (entry == path.path or entry.startswith(path.path + "/")):
                return f"ENV {env.name} ({model.path}:{env.line})"
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


def hidden_paths(part: Document, auditor: Auditor, text: str) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring): one per image and path hidden, at the first run
    that hides it."""
    family = auditor.family or auditor.models
    told: set[tuple[str, str]] = set()
    code: str | None = None
    prose = ""
    for lines, command, start, image, at in built_runs(part, auditor):
        model = _model_of(image, auditor.shared.built, family)
        if model is None or at < 0:
            continue
        made = image_made(model)
        if not made:
            continue
        options = command[start:at]
        after = command[at + len(image) :].strip()
        targets = [posixpath.normpath(m.group(1) or m.group(2)) for m in _ANY_TARGET.finditer(options)]
        flag = _WORKDIR_FLAG.search(options)
        where = work_dir(model)
        workdir = posixpath.normpath(flag.group(1)) if flag is not None else (where[0] if where else "/")
        default = _default_command(model)
        for mount in (*_HOST.finditer(options), *_BIND.finditer(options)):
            target = posixpath.normpath(mount.group("target"))
            sub = (mount.group("sub") or "").strip("/")
            for thing in made:
                if (model.path, thing.path) in told:
                    continue
                if thing.path != target and not thing.path.startswith(target.rstrip("/") + "/"):
                    continue
                between = [
                    t
                    for t in targets
                    if t != target
                    and (t == thing.path or (thing.path + "/").startswith(t.rstrip("/") + "/"))
                    and t.startswith(target.rstrip("/") + "/")
                ]
                if between:
                    continue
                relative = posixpath.relpath(thing.path, target)
                folders, checkout = _host_folders(auditor, model)
                held = os.path.join(sub, relative) if sub else relative
                if any(os.path.lexists(folder / held) for folder in folders):
                    continue
                use = _uses(thing, after, workdir) if after else None
                said = "its command"
                if use is None and not after and default is not None:
                    use = _uses(thing, default[0], workdir)
                    said = f"its default command ({model.path}:{default[1]})"
                if use is None:
                    use, said = _env_uses(thing, model), "the image"
                if use is None:
                    continue
                if code is None:
                    code, prose = _readme_texts(auditor, text)
                maker = _MAKERS.get(thing.kind)
                if maker is not None and maker.search(code):
                    continue
                name = re.escape(relative.split("/")[0])
                if thing.kind in (BUILD, DOWNLOAD) and re.search(
                    rf"(?<![\w.-]){name}/|/{name}(?![\w.-])", prose
                ):
                    continue  # (the README speaks of the folder: it may tell to fill it)
                told.add((model.path, thing.path))
                mounted = mount.group(0).strip()
                yield Diagnostic(
                    auditor.path,
                    next((n for n, t in lines if mounted in t), lines[0][0]),
                    f"README runs {image} with `{mounted}`, which hides {thing.path}, {thing.kind} "
                    f"{model.path}:{thing.line} makes, under the folder it binds; {said} uses it "
                    f"({use}), and the folder the README runs from holds no {held}: the command fails",
                    confidence=CERTAIN if checkout and thing.kind in (VENV, NODE) else LIKELY,
                )
