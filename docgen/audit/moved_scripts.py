"""Scripts a README runs from the folder its commands run in (`python clone_plugins.py`, `bash
tools/run.sh`, `./build.sh`) that are not there, while a file of that name is in exactly one folder below
it (`plugins/clone_plugins.py`): the script moved, or the README forgot the folder it lives in. Or one
of which the folder it is run in holds a single file of the same name but for case and separators
(`python3 build-docker.py`, the repository's `build_docker.py`): the script was renamed.

Runs are read from the command blocks, as a reader follows them (a `cd` moves every later block, a `cd`
into a variable the README says is the repository's root too: `root_vars`; a sentence of the
section moving the reader into a folder moves the section's later runs:
`references.moved_to_script`), and from the inline code of
the items of a numbered list (`1. download plugins, `python clone_plugins.py``). A run that may happen in
a container is not a claim about the checkout: the rest of a block after `docker run -it` or `docker
exec`, a block or step under a heading or introduction about the container, and a script the image
copies from that folder (`COPY plugins/ /app/`, or a WORKDIR ending in that folder's name), or one
an earlier interactive run mounts onto the container's working folder (`docker run -it -v
$PWD/pycoral:/home/coral img bash` over `WORKDIR /home/coral`: `./check.sh` typed after it is
pycoral/check.sh, `unmounted_scripts.mounted_work_folders`). An
introduction about the container holds over the captioned blocks after it (`container_blocks.carried_intros`).
A script a block in the container runs by its bare name that an audited image copies from a source no
folder holds, while one file of that name is below the Dockerfile's folder, is told too (`_lost_copy`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.container_blocks import IN_CONTAINER, container_blocks
from docgen.audit.missing import made_names
from docgen.audit.paths import resolves_inside
from docgen.audit.references import (
    ELSEWHERE,
    FILES_APPEAR,
    Walk,
    cd_target,
    makes,
    makes_nothing,
    moved_to_script,
    project_top,
    puts_in_folder,
    root_cd,
    run_folders,
)
from docgen.audit.root_vars import root_variables
from docgen.audit.unmounted_scripts import mounted_work_folders
from docgen.build_scripts import LEAD, container_command
from docgen.copied import context_path, copies_path
from docgen.markdown import Document, code_spans, lists, without_links
from docgen.model import Diagnostic, ImageModel

_PYTHON = (
    r"(?:python(?:\d(?:\.\d+)?)?|uv[ \t]+run(?:[ \t]+python(?:\d(?:\.\d+)?)?)?"
    r"|poetry[ \t]+run[ \t]+python(?:\d(?:\.\d+)?)?)"
)
"""A Python interpreter as a command names it: `python`, `python3`, `python3.11`, `uv run`, `uv run
python`, `poetry run python`."""
_RUN = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:(?:sudo|time|nohup|exec)[ \t]+)?"
    r"(?:[A-Za-z_][A-Za-z0-9_]*=[^\s;&|]*[ \t]+)*"
    rf"(?:(?:{_PYTHON}|bash|sh|zsh|source)[ \t]+(?:-(?![mc](?:[ \t]|$))[A-Za-z]\w*[ \t]+)*"
    r"(?:\./)?([\w.-]+(?:/[\w.-]+)*\.(?:py|sh|bash|zsh))"
    r"|\./([\w.-]+(?:/[\w.-]+)*\.(?:py|sh|bash|zsh)))(?=$|[ \t;&|)])"
)
"""A script a command runs by a path from the folder it runs in: with an interpreter (`python
x.py`, `python3 -u tools/x.py`, `uv run x.py`, `bash run.sh`) or by itself (`./run.sh`); not an
argument of another command (`docker run img python x.py` runs it in the container), nor a module or
a program given in words (`python -m pkg`, `python -c "…"`)."""
_ORDERED = re.compile(r"[ \t]*\d{1,3}[.)][ \t]")
"""A numbered list item (`1. `, `2) `)."""
_MOVES = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:pushd|popd|Set-Location|chdir)\b")
"""A command moving to another folder that the reading does not follow."""
_STAYS = re.compile(LEAD + container_command("run|exec", start=""))
"""A `docker run` or `docker exec` (not `docker compose`'s, which opens a terminal by default) that may
leave the reader on the host: see `enters`."""
_FLAG = re.compile(r"(?<!\S)(?:-([A-Za-z]+)|--interactive|--tty)(?=[\s=]|$)")
"""A flag word: `-it`, `-i`, `-dit`, `--tty` open the container's terminal to the reader (`_opens_terminal`).
The letters are matched as one run and looked at after: a pattern placing an `i` or `t` inside the run
(`-[A-Za-z]*[it][A-Za-z]*`) tries every split of a long run of letters (`-iiii…`), the square of it."""


def _opens_terminal(step: str) -> bool:
    """True when a flag of `step` opens the container's terminal (`-it`, `-dit`, `--interactive`)."""
    return any(
        flag.group(1) is None or "i" in flag.group(1) or "t" in flag.group(1) for flag in _FLAG.finditer(step)
    )


def enters(step: str) -> bool:
    """True when the step (a line of a block that `references.ELSEWHERE` matches) may leave the next
    lines of its block running elsewhere; False for a one-line `docker run`/`docker exec` with no flag
    opening a terminal (`docker run --rm -p 8080:8080 app`): it returns to the host's shell. A line
    continued with `\\` is read as entering (its flags may be on the next line)."""
    if not _STAYS.match(step) or step.rstrip().endswith("\\"):
        return True
    return _opens_terminal(step)


def _says_folder(lines: Sequence[str], folder: str) -> bool:
    """True when `lines` (the README lines of a run's section up to it; the five before it when no
    heading is above) tell the reader to be in `folder` (`` from the `nodes` folder ``, `in nodes/`,
    `cd nodes`, `` using `build.sh` in `scripts` directory ``): the run is from there."""
    name = re.escape(folder.rsplit("/", 1)[-1])
    said = re.compile(
        rf"`\.?/?(?:[\w.-]+/)*{name}/?`|(?<![\w/.-]){name}/(?![\w.-])"
        rf"|\b(?:in|into|from|inside|under|enter|open|to)[ \t]+(?:the[ \t]+)?{name}\b"
        rf"|\b{name}[ \t]+(?:folder|directory|dir)\b",
        re.IGNORECASE,
    )
    return any(said.search(without_links(text)) for text in lines)


_UNREAD = frozenset({"node_modules", "__pycache__", "venv", "site-packages", "build", "dist"})
"""Folders holding what a tool wrote, not the project's own scripts."""
_DEPTH = 3
"""Folders below the one a command runs in that are looked into."""
_FOLDERS = 2_000
"""Folders looked into at most for one README: the search stays bounded in a large checkout."""


class Below:
    """The files below a folder by name (`x.py` → its paths), read once, when a run needs it."""

    def __init__(self) -> None:
        self._seen: dict[Path, dict[str, list[Path]]] = {}

    def named(self, folder: Path, name: str) -> list[Path]:
        """The files named `name` in the folders below `folder` (not `folder` itself), at most
        `_DEPTH` deep, not in a hidden folder nor in one a tool writes."""
        if folder not in self._seen:
            self._seen[folder] = _index(folder)
        return self._seen[folder].get(name, [])


def _index(folder: Path) -> dict[str, list[Path]]:
    """Name → paths of the files in the folders below `folder` (see `Below.named`)."""
    found: dict[str, list[Path]] = {}
    visited = 0
    for top, folders, files in os.walk(folder):
        depth = len(Path(top).relative_to(folder).parts)
        folders[:] = (
            sorted(f for f in folders if not f.startswith(".") and f not in _UNREAD) if depth < _DEPTH else []
        )
        visited += 1
        if visited > _FOLDERS:
            break
        if depth:
            for name in files:
                found.setdefault(name, []).append(Path(top, name))
    return found


def _fence_runs(
    doc: Document, text: str, directory: Path, audited: Sequence[str], project: Path, roots: frozenset[str]
) -> Iterator[tuple[int, str, list[Path]]]:
    """(README line, path, folders the command may run in) of each script a command block runs,
    read top to bottom as the reader follows the blocks (`references.Walk`); a `cd` into a variable
    that is the repository's root goes to that folder from the README's folder or one above it. The
    folder of an audited Dockerfile below the README's is one the commands run in only when the README
    puts the reader there (`references.puts_in_folder`: `cd torch_bench`, `from the docker/ folder`): a
    README at the root running `./build_run.sh` that only `torch_bench/` holds names a path that fails."""
    bases = run_folders(directory, [d for d in audited if puts_in_folder(text, d)], project)
    walk = Walk(bases, project, home=True)
    walk.recover = root_cd(bases, project, roots)
    container = container_blocks(doc)
    fences = [fence for fence in doc.fences if fence.lines and fence.lines[0][0] not in container]
    for line, step in walk.steps(fences, joined=False):
        if _MOVES.match(step):
            return  # `pushd tools`: the folder is not followed
        for match in _RUN.finditer(step):
            yield line, match.group(1) or match.group(2), list(walk.folders)
        if FILES_APPEAR.search(step) and not makes_nothing(step, walk.folders):
            return
        if ELSEWHERE.search(step) and enters(step):
            walk.skip_block()


def _step_runs(doc: Document, directory: Path, project: Path) -> Iterator[tuple[int, str, list[Path]]]:
    """(README line, path, folders it may run in) of each script the inline code of a numbered list's
    item runs (`1. download plugins, `python clone_plugins.py``), up to an item that `cd`s elsewhere or
    runs in the container. The folders are those the README's commands may run from (`run_folders`:
    its own and those above it, so `./docker/scripts/build.sh` of `docker/README.md` is the root's)."""
    folders = run_folders(directory, (), project)
    for block in lists(doc):
        if IN_CONTAINER.search(f"{block.intro} {block.heading}"):
            continue
        for line, text in block.items:
            if not _ORDERED.match(text):
                break
            if IN_CONTAINER.search(text):
                break  # this step and the next may run in the container
            spans = [content.strip() for _, _, content in code_spans(text)]
            if any(cd_target(span) is not None for span in spans):
                break
            for span in spans:
                match = _RUN.match(span)
                if match is not None:
                    yield line, match.group(1) or match.group(2), list(folders)


def _copied_in(meant: str, models: Sequence[ImageModel]) -> bool:
    """True when an image copies the script at `meant` from its build context (its folder, a folder
    above it, the file itself or a pattern matching it), or works in a folder of its folder's name: the
    script may be run in the container, where it is at the top. Not a copy keeping the folder under the
    image's working folder as the checkout has it (`COPY ./apps /work/apps` with `WORKDIR /work`): the
    script is at `meant` there too."""
    folder = posixpath.dirname(meant)
    for model in models:
        workdirs = [s.value for s in model.settings if s.keyword == "WORKDIR"]
        workdir = workdirs[-1].rstrip("/") if workdirs and workdirs[-1].startswith("/") else None
        for copy in model.context_copies:
            for source in copy.sources:
                word = context_path(source)  # as BuildKit reads it: `/a`, `./a` are `a`; no URL, no `..`
                if word is not None and word != "." and copies_path(word, meant):
                    kept = word.rstrip("/")
                    if (
                        workdir is not None
                        and "$" not in copy.dest + workdir
                        and meant.startswith(kept + "/")
                        and copy.dest.rstrip("/") == f"{workdir}/{kept}"
                    ):
                        continue  # (the image keeps the checkout's layout: the script is at `meant`)
                    return True
        for setting in model.settings:
            if setting.keyword == "WORKDIR" and setting.value.rstrip("/").endswith("/" + folder):
                return True
    return False


def _spelling(name: str) -> str:
    """`name` without case or separators: `build-docker.py` and `Build_Docker.py` have one spelling."""
    return re.sub(r"[-_.]", "_", name.lower())


def _respelt(path: str, folders: Sequence[Path], top: Path) -> str | None:
    """The path of the one file of the first of `folders` holding one, in the folder `path` names,
    whose name is the script's but for case and separators (`build_docker.py` for `build-docker.py`,
    `tools/Sync.sh` for `tools/sync.sh`): the script renamed. None when there is none, or two. A
    folder outside `top` (through `..` or a link leading out) is not listed."""
    folder, name = posixpath.split(path)
    for base in folders:
        if not resolves_inside(base / folder, top):
            continue
        try:
            entries = sorted(os.listdir(base / folder))
        except (OSError, ValueError):
            continue
        key = _spelling(name)
        same = [e for e in entries if e != name and _spelling(e) == key and os.path.isfile(base / folder / e)]
        if same:
            return posixpath.join(folder, same[0]) if len(same) == 1 else None
    return None


def _lifted(path: str, folders: Sequence[Path], models: Sequence[ImageModel], doc: Document) -> str | None:
    """The Python script's name when `path` runs it from a folder (`client/client.py`) that none of `folders`
    holds, while the first of them holds a file of that name (`client.py`): the folder is gone, or never
    was. None when the README makes the folder or the file (`mkdir client`, `git clone … client`), or an
    image copies into or works in a folder of that name (the path may be the container's)."""
    folder, name = posixpath.split(path)
    first = folder.split("/", 1)[0]
    if not name.endswith(".py"):
        return None  # a shell script's is told by `references.missing_scripts` (`did you mean env.sh?`)
    if not folder or first in ("", ".", "..") or not os.path.isfile(folders[0] / name):
        return None
    if any(os.path.lexists(base / first) for base in folders) or {first, name} & made_names(doc):
        return None
    for model in models:
        places = [copy.dest for copy in model.context_copies]
        places += [s.value for s in model.settings if s.keyword == "WORKDIR"]
        if any(first in re.split(r"[/\s]+", place) for place in places):
            return None
    return name


_LONGER = re.compile(r"(?<![\w./:@~$-])((?:[\w-][\w.-]*/)+[\w-][\w.-]*\.(?:py|sh))(?![\w./-])")
"""A relative path to a script written in a README (`apps/charnn/main.py`): not one of an address or
an absolute path."""


class _Written:
    """The relative script paths a README writes (`_LONGER`), by each of their ends below a folder
    (`apps/charnn/main.py` under `charnn/main.py` and `main.py`), with the first line writing each:
    indexed once, on first use."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._ends: dict[str, dict[str, int]] | None = None

    def ending(self, path: str) -> dict[str, int]:
        """The longer paths the README writes that end with `/path`, each with its first line."""
        if self._ends is None:
            self._ends = {}
            for at, row in enumerate(self._text.splitlines(), 1):
                for match in _LONGER.finditer(row):
                    found = match.group(1).removeprefix("./")
                    parts = found.split("/")
                    for cut in range(1, len(parts)):
                        self._ends.setdefault("/".join(parts[cut:]), {}).setdefault(found, at)
        return self._ends.get(path, {})


def _longer(
    path: str, written: _Written, folders: Sequence[Path], models: Sequence[ImageModel], doc: Document
) -> tuple[str, int] | None:
    """(the path, its README line) when the README elsewhere writes the script `path` (`charnn/main.py`,
    run from a folder with no `charnn/`) below one more folder (`apps/charnn/main.py`), the one path of
    it the README writes, and that folder is there or an audited image copies it from its context
    (`COPY ./apps …`): the README's other commands run the script from where `path` is run, so `path`
    has lost its folder. Only a path with a folder of its own, none of the README's folders holding
    that folder, and the longer one's first folder made by no step of the README (a clone)."""
    first = path.split("/", 1)[0]
    if "/" not in path or any(os.path.lexists(base / first) for base in folders):
        return None
    longer = written.ending(path)
    if len(longer) != 1:
        return None
    meant, at = next(iter(longer.items()))
    top = meant.split("/", 1)[0]
    if top in ("", ".", "..") or top in made_names(doc):
        return None
    if not (os.path.isdir(folders[0] / top) or _copies_folder(top, models)):
        return None
    return meant, at


_LOCAL = re.compile(
    r"\blocal(?:ly)?[ \t]+(?:development|dev|setup|install(?:ation)?|run|usage)\b"
    r"|\b(?:run(?:ning)?|develop(?:ment)?)[ \t]+locally\b|\bwithout[ \t]+docker\b"
    r"|\bon[ \t]+(?:the|your)[ \t]+host\b",
    re.IGNORECASE,
)
"""A heading saying its commands run on the reader's machine (`Local Development`, `Running locally`,
`Without Docker`)."""


def _local_sections(doc: Document) -> set[int]:
    """The sections whose heading says their commands run on the host, not in the container."""
    return {section for section, title in enumerate(_titles(doc)) if title and _LOCAL.search(title)}


def _titles(doc: Document) -> list[str]:
    titles = dict(doc.headings)
    return [titles.get(n, "") for n in range(max(titles, default=-1) + 1)]


_IMAGE_RUN = re.compile(r"^[ \t]*(?:RUN|CMD|ENTRYPOINT)\b", re.IGNORECASE)


def _image_place(path: str, models: Sequence[ImageModel], doc: Document) -> str | None:
    """Where an audited image says the script `path` (a bare name: `proxy.py`) is: the image copies a
    folder of its context (`COPY neutts /neutts`) to its working folder (`WORKDIR /neutts`) and its
    `RUN`, `CMD` or `ENTRYPOINT` runs the script there. Told as `Dockerfile:line runs it in …`; None
    when no image says so, or the README makes that folder."""
    if "/" in path:
        return None
    word = re.compile(rf"(?<![\w./-]){re.escape(path)}(?![\w.-])")
    for model in models:
        workdirs = [s.value.rstrip("/") for s in model.settings if s.keyword == "WORKDIR"]
        if not workdirs or not workdirs[-1].startswith("/") or "$" in workdirs[-1]:
            continue
        workdir = workdirs[-1]
        folders = [
            word_
            for copy in model.context_copies
            if copy.dest.rstrip("/") == workdir and len(copy.sources) == 1
            for word_ in [(context_path(copy.sources[0]) or "").rstrip("/")]
            if word_ and word_ != "." and "*" not in word_ and "$" not in word_
        ]
        if len(folders) != 1 or folders[0].split("/", 1)[0] in made_names(doc):
            continue
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            continue
        for number, row in enumerate(read[0].splitlines(), 1):
            if _IMAGE_RUN.match(row) and word.search(row):
                shown = os.path.basename(model.path or model.file)
                return (
                    f"{shown}:{number} runs it in {workdir}, where the image copies {folders[0]}/"
                    f" (did you mean {folders[0]}/{path}?)"
                )
    return None


def _copies_folder(folder: str, models: Sequence[ImageModel]) -> bool:
    """True when an audited image copies `folder` of its context (`COPY ./apps /work/apps`)."""
    for model in models:
        for copy in model.context_copies:
            if any((context_path(s) or "").rstrip("/") == folder for s in copy.sources):
                return True
    return False


_CD = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:cd|pushd)\b")


def _container_runs(doc: Document, container: set[int]) -> Iterator[tuple[int, str]]:
    """(README line, name) of each script a block about the container (`container`: the first lines of
    those blocks) runs by its bare name (`python run_chunks.py`), up to a `cd` of the block."""
    for fence in doc.fences:
        if not fence.lines or fence.lines[0][0] not in container:
            continue
        for line, text in fence.lines:
            if _CD.match(text):
                break
            for match in _RUN.finditer(text):
                path = match.group(1) or match.group(2)
                if "/" not in path:
                    yield line, path


def _lost_copy(name: str, models: Sequence[ImageModel], top: Path, below: Below) -> str | None:
    """What a finding says of the script `name` run in the container when an audited image copies it
    (`COPY run_chunks.py /workspace/run_chunks.py`) from a source no folder holds, from the Dockerfile's
    own up to the project's top, while one file of that name is below the Dockerfile's folder (the
    script moved and the COPY still names its old place); None otherwise."""
    for model in models:
        if not model.file:
            continue
        folder = Path(model.file).parent.resolve()
        bases = [folder, *(p for p in folder.parents if p.is_relative_to(top))]
        for copy in model.context_copies:
            dest = copy.dest.strip("\"'")
            for source in copy.sources:
                word = context_path(source)
                if word is None or posixpath.basename(word) != name:
                    continue
                if not (dest.endswith("/") or posixpath.basename(dest) == name):
                    continue
                if any(os.path.lexists(base / word) for base in bases):
                    return None
                found = below.named(folder, name)
                if len(found) != 1:
                    return None
                meant = found[0].relative_to(folder).as_posix()
                return (
                    f"{model.path}:{copy.line} copies it from {word} of the build context, which has no "
                    f"such file (did you mean {meant}?)"
                )
    return None


_WORD = re.compile(r"[\w.-]+")
"""A word of a README line as a script's name is one: `run.sh`, not `build_run.sh` (another name)."""


class _Mentions:
    """The README lines naming each word (`_WORD`), indexed on first use: a README running many missing
    scripts looks each up once, not each line again for each script (n² for n lines that run one)."""

    def __init__(self, source: Sequence[str]) -> None:
        self._source = source
        self._index: dict[str, list[int]] | None = None

    def lines(self, name: str) -> list[int]:
        """The 1-based lines of the README naming `name` as a word of its own (`./run.sh`, `(run.sh)`;
        not `build_run.sh`)."""
        if not _WORD.fullmatch(name):  # (a name of other characters: looked for line by line)
            mention = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
            return [at for at, text in enumerate(self._source, 1) if mention.search(text)]
        if self._index is None:
            self._index = {}
            for at, text in enumerate(self._source, 1):
                for word in set(_WORD.findall(text)):
                    self._index.setdefault(word, []).append(at)
        return self._index.get(name, [])


def moved_scripts(
    doc: Document,
    text: str,
    directory: Path,
    audited: Sequence[str],
    models: Sequence[ImageModel],
    readme: str,
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A script the README runs (see the module's docstring) that is in none of the folders the command
    may run in, while exactly one file of its name (its path's end: `tools/x.py`) is below the folder
    it runs in (`certain`: the file is this repository's, and the command does not reach it), or one
    file of its name but for case and separators is where it is run (`build_docker.py`: `certain`, a
    name a reader types is the file's or no file), unless a line of the README makes the script
    (`wget …/build-docker.py`, whichever the case). One finding a script, at its first run."""
    top = project_top(directory, project)
    below = Below()
    roots = root_variables(text)
    source = text.splitlines()
    seen: set[str] = set()
    naming = _Mentions(source)
    written = _Written(text)
    local = _local_sections(doc)
    first_line = {n: f.section for f in doc.fences for n, _ in f.lines}  # README line → its block's section
    runs = [*_fence_runs(doc, text, directory, audited, top, roots), *_step_runs(doc, directory, top)]
    mounts: list[tuple[int, Path]] | None = None  # read when a finding needs it
    making: dict[str, list[int]] = {}  # name → the README lines making it (read once: a script run often)
    for line, name in _container_runs(doc, container_blocks(doc)) if models else ():
        if name in seen or (lost := _lost_copy(name, models, top, below)) is None:
            continue
        seen.add(name)
        yield Diagnostic(
            readme, line, f"README runs {name} inside the container, where {lost}", confidence=CERTAIN
        )
    for line, path, folders in sorted(runs, key=lambda run: run[0]):
        if path in seen or not folders:
            continue
        if any(os.path.lexists(folder / path) for folder in folders):
            continue
        here = folders[0]
        named = below.named(here, posixpath.basename(path))
        matches = [p for p in named if p.as_posix().endswith("/" + path)]
        name = posixpath.basename(path)
        if name not in making:
            making[name] = [at for at in naming.lines(name) if makes(source[at - 1], name)]
        if any(at != line or len(matches) != 1 for at in making[name]):
            continue  # another line of the README makes it (`wget …/build_run.sh`) where it runs it
        if len(matches) != 1:
            meant = _respelt(path, folders, top) or _lifted(path, folders, models, doc)
            if meant is None and not matches and first_line.get(line) in local:
                placed = _image_place(path, models, doc)
                if placed is not None:
                    seen.add(path)
                    yield Diagnostic(
                        readme,
                        line,
                        f"README runs {path} on the host from the README's folder, which has no such file;"
                        f" {placed}",
                        confidence=LIKELY,
                    )
                    continue
            if meant is None and not matches and (longer := _longer(path, written, folders, models, doc)):
                meant, at = longer
                seen.add(path)
                place = "the README's folder" if folders[0] == directory.resolve() else f"{folders[0].name}/"
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs {path} from {place}, which has no such file; README:{at}"
                    f" runs it as {meant}",
                    confidence=CERTAIN,
                )
                continue
            if meant is None:
                continue
        else:
            meant = matches[0].relative_to(here).as_posix()
            if _copied_in(meant, models) and first_line.get(line) not in local:
                continue  # (a run not said to be on the host may be the container's, where it is at the top)
            if mounts is None:
                mounts = mounted_work_folders(doc, models, directory)
            if any(at < line and (host / path).resolve() == matches[0].resolve() for at, host in mounts):
                continue  # typed in the shell of a container working in the folder a run mounts: there it is
            heading = max((at for at, _ in doc.headings if at < line), default=max(0, line - 5))
            if _says_folder(source[heading:line], posixpath.dirname(meant)):
                continue  # the prose of its section tells the reader to be there
            if moved_to_script(doc, source, line, path, folders):
                continue  # a step of the section moved the reader there (`move into the x directory`)
        seen.add(path)
        where = "the README's folder" if here == directory.resolve() else f"{here.name}/"
        yield Diagnostic(
            readme,
            line,
            f"README runs {path} from {where}, which has no such file (did you mean {meant}?)",
            confidence=CERTAIN,
        )
