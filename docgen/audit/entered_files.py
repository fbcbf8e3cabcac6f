"""Files a README's commands name by a relative path after its steps have moved the reader into a folder
of the project that does not hold them: `cd qwen-vl`, then `docker-compose -f
docker-compose.qwen-vl-chat.yaml up` with that compose file at the project's root. The shell, compose,
docker or python read a relative path from the folder they run in, so the command stops (or, for a
bind mount, docker makes an empty folder there and mounts it).

Where each step runs is `placement.Placement`'s (the README's folder, the folders its `cd` steps lead
to, across its blocks in order, a clone of this very repository entered with `cd`; unknown after a
`cd` it cannot follow, `cd ..`, `cd -`, a clone of another project entered, an archive unpacked, a
command that may run in a container or on another host). Read: the file of a compose `-f`/`--file`
or `--env-file`, a Docker build's `-f`, a script run (`bash X.sh`, `sh X`, `source X`, `./X`, `python
X.py`), a copy's sources (`cp X Y`), `chmod +x X`, `pip install -r X`, `conda env create -f X`, a
`kubectl` or `helm` `-f`, a bind mount's source written from the current folder (`-v ./X:/…`, `-v
$(pwd)/X:/…`) and a run's `--env-file`. Told only when the path is not there and is
found from the README's folder or the project's root (the file is the project's: the step is read from
the wrong folder). Not a path with a variable, a placeholder or a glob, nor one a README line before it
or an earlier step of its command makes or names as made (`mkdir`, a clone's folder, a download, a
copy), nor after a command in that folder that makes files appear (`make`, `cmake`, `git checkout`,
an archive unpacked). `certain` when a `cd` of the command's own block entered the folder, `likely`
when an earlier block's did (the README's sections may be alternatives) or the folder is in a clone
taken for this repository only by the words above it.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import MOVE, build_paths
from docgen.audit.grammar import COMPOSE, read_compose
from docgen.audit.placement import Placed, Placement
from docgen.audit.references import ELSEWHERE, FILES_APPEAR, MadeFiles, command_lines, project_top
from docgen.audit.steps import CLONE, copy_operands, image_lines, plain_path
from docgen.audit.wording import COMMAND_LANGS
from docgen.files import real_path
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_DOCKER_BUILD = re.compile(r"\bdocker[ \t]+(?:buildx[ \t]+|image[ \t]+)?build\b")
_CONTAINER_RUN = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:container[ \t]+)?(?:run|create)\b")
_HERE = re.compile(r"\A(?:\$\(pwd\)|\$\{?PWD\}?|`pwd`|\.)/")
"""How a bind mount's source starts when it is written from the current folder (`./`, `$(pwd)/`)."""
_LEAD = re.compile(r"\A(?:(?:sudo|time|nohup|exec|env)[ \t]+|[A-Za-z_]\w*=\S*[ \t]+)*")
"""What comes before a step's command: `sudo`, a variable set for it."""
_PIP = re.compile(r"\A(?:python(?:\d(?:\.\d+)?)?[ \t]+-m[ \t]+)?(?:pip3?|uv[ \t]+pip)[ \t]+install\b")
"""A pip install (`pip install -r requirements.txt`, `python3 -m pip install`, `uv pip install`)."""
_CONDA_ENV = re.compile(r"\A(?:conda|mamba|micromamba)[ \t]+env[ \t]+(?:create|update)\b")
_SCRIPT_RUNNER = frozenset({"bash", "sh", "zsh", "source", "."})
_PYTHON = re.compile(r"python(?:\d(?:\.\d+)?)?\Z")
_MADE_HERE = re.compile(r"(?:\b(?:mkdir|touch|wget|curl|cp|mv|ln|tee|git[ \t]+clone|unzip|tar)\b|>)")
"""A step that may make a file its command names (`cp ../x.yaml .`, `> .env`)."""

_SAID = {
    "compose": ("reads the compose file", "compose stops: the file is not found"),
    "env": ("reads the env file", "the command stops: the env file is not found"),
    "build": ("builds with -f", "docker build stops: the Dockerfile is not found"),
    "script": ("runs", "the shell finds no such file"),
    "python": ("runs python on", "python stops (can't open file)"),
    "copy": ("copies", "cp stops (no such file)"),
    "mount": ("mounts", "docker makes an empty folder there and mounts it instead"),
    "chmod": ("makes executable", "chmod stops (no such file)"),
    "pip": ("installs the requirements of", "pip stops (could not open requirements file)"),
    "conda": ("creates the environment of", "conda stops: the environment file is not found"),
    "kube": ("applies", "the command stops: the file is not found"),
}
"""For each kind of file a step names: what the README does with it, and what fails."""


def _words(step: str) -> list[str]:
    """The words of a step, quotes taken off."""
    return [w.strip("\"'") for w in step.split()]


def _valued(words: Sequence[str], names: tuple[str, ...]) -> Iterator[str]:
    """The values of options `names` (`-f X`, `--file X`, `--file=X`) among `words`."""
    for at, word in enumerate(words):
        if word in names and at + 1 < len(words):
            yield words[at + 1]
        for name in names:
            if name.startswith("--") and word.startswith(name + "="):
                yield word[len(name) + 1 :]


def named_files(step: str) -> Iterator[tuple[str, str]]:
    """(kind, relative path as written) of each file a command step reads from the folder it runs in:
    a compose file (`-f`), an env file, a Docker build's `-f`, a script run, a copy's sources, a bind
    mount's source written from the current folder, a file `chmod` makes executable, a pip requirements
    file (`-r`), a conda environment file (`conda env create -f`), a `kubectl` or `helm` `-f`."""
    bare = _LEAD.sub("", step.strip(), 1)
    words = _words(bare)
    if not words:
        return
    if (compose := COMPOSE.search(step)) is not None:
        call = read_compose(_words(step[compose.end() :]))  # (its options before the command: `logs -f`)
        yield from (("compose", p) for p in call.files)
        yield from (("env", value) for name, value in call.top.values if name == "--env-file")
        return
    if _DOCKER_BUILD.search(step):
        yield from (("build", p) for p in _valued(words, ("-f", "--file")))
        return
    if _CONTAINER_RUN.search(step):
        yield from (("env", p) for p in _valued(words, ("--env-file",)))
        for volume in _valued(words, ("-v", "--volume")):
            source = volume.split(":", 1)[0]
            if ":" in volume and _HERE.match(source):
                yield "mount", _HERE.sub("", source, 1)
        return
    head = words[0]
    if head in _SCRIPT_RUNNER and len(words) > 1 and not words[1].startswith("-"):
        yield "script", words[1]
    elif _PYTHON.fullmatch(head) and len(words) > 1 and words[1].endswith(".py"):
        yield "python", words[1]
    elif head.startswith("./") and len(head) > 2:
        yield "script", head
    elif head.lower() == "cp" and (operands := copy_operands(head, " ".join(words[1:]))) is not None:
        yield from (("copy", s) for s in operands[0])
    elif head == "chmod" and len(words) > 2 and re.fullmatch(r"[+ugoa]*[+-][rwx]+|\d{3,4}", words[1]):
        yield from (("chmod", w) for w in words[2:] if not w.startswith("-"))
    elif (pip := _PIP.search(bare)) is not None:
        yield from (("pip", p) for p in _valued(_words(bare[pip.end() :]), ("-r", "--requirement")))
    elif _CONDA_ENV.search(bare):
        yield from (("conda", p) for p in _valued(words, ("-f", "--file")))
    elif head in ("kubectl", "helm"):
        yield from (("kube", p) for p in _valued(words, ("-f", "--filename", "--values")))


def _steps(code: str) -> list[str]:
    """The steps of a command (`&&`, `||`, `;`)."""
    return re.split(r"&&|\|\||;", code)


def _from_context(step: str, path: str, folder: Path) -> bool:
    """True when a Docker build's `-f path` is found from its context (`cd app/docker`, `docker build -f
    docker/Dockerfile ..`), or the context cannot be told."""
    paths = build_paths(step)
    return paths is None or os.path.lexists(folder / paths[1] / path)


def _elsewhere(path: str, placed: Placed, bases: Sequence[Path], top: Path) -> Path | None:
    """The base (the README's folder, the project's root) from which `path` is found, when it is not
    found from the folder the step runs in; None otherwise."""
    folder = placed.folder
    if os.path.lexists(folder / path):
        return None
    for base in bases:
        if real_path(base) == real_path(folder):
            continue
        found = base / path
        if os.path.lexists(found) and real_path(found).is_relative_to(top):
            return base
    return None


def entered_files(
    doc: Document, text: str, source: Sequence[str], readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """Each relative file a command names (`named_files`) after the README's steps moved the reader
    into a folder of the project that does not hold it, while it is found from the README's folder or
    the project's root (see the module)."""
    if not any(MOVE.search(t) for f in doc.fences for _, t in f.lines):
        return
    top = real_path(project_top(directory, project))
    placement = Placement(doc, text, directory, top)
    bases = list(dict.fromkeys([real_path(directory.absolute()), real_path(placement.root), top]))
    image = image_lines(doc)
    made = MadeFiles(source)
    appear = sorted(
        n for f in doc.fences for n, t in f.lines if FILES_APPEAR.search(t) and not CLONE.search(t)
    )
    told: set[tuple[int, str]] = set()
    sections = {n: f.section for f in doc.fences for n, _ in f.lines}
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS or not fence.lines:
            continue
        for line, code in command_lines(fence, joined=True):
            if line in image:
                continue
            places = placement.steps(line, _steps(code))
            # a move of another section is not followed: sections may be run apart (`## Build`: `cd
            # build`, `./build.sh`; `## Run`: `./run_docker.sh`, run from the root)
            kept = [p if p is not None and sections.get(p.since) == fence.section else None for p in places]
            yield from _command(readme, fence, line, code, kept, bases, top, made, appear, told)


def _command(
    readme: str,
    fence: Fence,
    line: int,
    code: str,
    places: Sequence[Placed | None],
    bases: Sequence[Path],
    top: Path,
    made: MadeFiles,
    appear: Sequence[int],
    told: set[tuple[int, str]],
) -> Iterator[Diagnostic]:
    steps = _steps(code)
    for index, (step, placed) in enumerate(zip(steps, places, strict=True)):
        earlier = steps[:index]
        if any(ELSEWHERE.search(s) or FILES_APPEAR.search(s) for s in earlier):
            return  # (the rest may run in a container, or after files appeared)
        if placed is None or placed.shown is None:
            continue
        after = bisect.bisect_left(appear, placed.since)
        if after < len(appear) and appear[after] <= line:
            continue  # (`make`, `cmake`, `git checkout` since the move: any file may be there)
        for kind, path in named_files(step):
            path = path.removeprefix("./")
            if not plain_path(path) or "://" in path or (line, path) in told:
                continue
            if made.before(path, line) or any(
                _MADE_HERE.search(s) and posixpath.basename(path) in s for s in earlier
            ):
                continue
            if kind == "build" and _from_context(step, path, placed.folder):
                continue  # (written from the context: `entered_builds`')
            base = _elsewhere(path, placed, bases, top)
            if base is None:
                continue
            told.add((line, path))
            yield _finding(readme, fence, line, kind, path, placed, base, top)


def _finding(
    readme: str, fence: Fence, line: int, kind: str, path: str, placed: Placed, base: Path, top: Path
) -> Diagnostic:
    shown = placed.shown or "."
    here = posixpath.normpath(shown) + "/" if shown not in ("", ".") else "./"
    found = real_path(base / path).as_posix()
    where = posixpath.relpath(found, top.as_posix())
    at = "at the project's root" if posixpath.dirname(where) == "" else f"{where} from the project's root"
    back = posixpath.relpath(found, real_path(placed.folder).as_posix())
    does, fails = _SAID[kind]
    same_block = fence.lines[0][0] <= placed.since <= line
    return Diagnostic(
        readme,
        line,
        f"README {does} {path} in {here} (where the cd at line {placed.since} leads), but {here} holds no "
        f"{path}: the project's is {at}, so {fails} (name it {back}, or run the command before the cd)",
        confidence=CERTAIN if same_block and placed.sure else LIKELY,
    )
