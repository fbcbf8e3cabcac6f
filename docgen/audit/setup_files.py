"""Files a README's setup steps read that the repository holds nowhere: the source of a `cp`, `mv` or
`ln -s` (`cp config.json.example config.json`), a script `source`d or `.`-read, run with `python`,
`bash`, `sh` or by its path (`./setup.sh`), and a file `cat` prints, in a command block (a quoted
`bash -c '…'` string too), when no file of that name is anywhere in the repository.

`steps` and `references` report such a file when the README's folder holds one a slip away or the
README runs it elsewhere; this rule needs no such neighbour: its evidence is the whole checkout. Only
what the reader runs on the host, in this repository, is read: not a Dockerfile's `RUN` shown in a
block, not what follows `docker run`, `docker exec` or `ssh` (the container's or another host's files),
a block introduced as run inside the container (or under such an introduction that still holds:
`container_blocks.carried_intros`), the steps after a `cd` out of the repository (`cd
/opt/app`, `cd $HOME/x`, the folder of another repository the README clones) or a clone of another
repository. Not a file a step of the README makes (`git clone`, `wget`, `touch`, `mkdir`, a `>`
redirect, a copy's destination, a volume a `docker run -v` mounts, a line saying to create it), one
git ignores or in a generated folder (`build/`, `venv/`), a placeholder (`<file>`, `$VAR`,
`path/to/x`), a glob, or an absolute path; nor a script of the image (one its Dockerfile names, any of
an image that clones another project but one named for driving containers: `_CONTAINER_TOOL`). After a
build step (`make`, `cmake`, `colcon build`, `pip install -e`), which may make any file, and outside a
git checkout (a README copied with its Dockerfile holds none of the scripts it runs), only copies of
templates are read, and Python scripts run on the host when the copy shows itself whole
(`_CopiedReadme`: its links all find their files).

A Python script run with an interpreter (`python x.py`, `uv run x.py`, `poetry run python x.py`) fails
when it is not there: `certain` in a command block, `likely` in the prose's inline code (a numbered
step). Not one run after a script that enters a container (`sh docker_run.sh` holding `docker run -it`),
under words naming another project's repository by its address, or on a line saying it runs inside the
container.

In a block run in the container, a Python script named alone (`python stress.py`) that the image
cannot hold (`_unheld_in_image`): in a git checkout, the audited Dockerfiles set a WORKDIR, copy only
files of the context and name it nowhere, no file of the checkout has its name, and the README mounts
nothing: `likely` (a base image may still hold one).

A template a copy reads (`.example`, `.sample`, `.template`, `.dist`, `-example.`…) is never made by a
build: its finding is `certain`. Any other file may come from a step docgen does not read (a script's
output, a file of the image): `likely`, unless the repository holds a file of the same words in
another order (`config.example.json` for `config.json.example`), named as the file meant.

A settings file a command is given (`python generate.py --config_path configs/7b-base.yml`, an operand
`bash tools/train.sh configs/x.py`) whose folder holds other files of its suffix but not it, and no
folder holds one of its name (`_passed`, `_passed_finding`): `certain` in a checkout, and outside one
when the folder holds the name's sibling but for its last word (`configs/7b-v0.1.yml`), else `likely`.
Not an output's or data's option, a data or generated folder, a placeholder or the reader's own file.

A requirements file a `pip install -r` reads that the repository holds nowhere, while the folder it is
read from holds one a slip away (`requirements` for `requirements.txt`), is `certain` in a checkout or
not (`_slipped_list`); one whose folder holds only other lists of its first word (`requirements.txt`
for `requirements-dev.txt`) is `certain` in a checkout, `likely` outside one. Such files are read in a
block run in a container too when a `docker run` of the README or of a script it runs mounts the
current folder (`-v "$PWD":/workspace`) and another file the block reads is one of the README's folder
(`_mounted_here`, `_mounted_lists`).

A manifest or values file `kubectl apply -f`, `helm install -f` or `docker compose -f` reads that no
folder holds by name while one holds a file a slip from it (`device-plugin.yml` for
`vgpu-device-plugin.yml`), or that another folder holds while the command runs at the root (`_applied`,
`_applied_finding`): `likely`, outside a checkout too. In a git checkout, one given by a path with a
folder (`kubectl apply -f ./k8s/pv-pvc.yaml`) that no folder holds by name, with no file a slip from it
either (`_nowhere_applied`): `likely`, unless a script the README ran before names it (it may write it);
not a bare name (a manifest the reader may download), nor a compose file (the compose rules read those).
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import CD_STEP, clone_of, cloned_folder, continued, without_prompt
from docgen.audit.container_blocks import IN_MACHINE, container_blocks
from docgen.audit.memo import per_audit
from docgen.audit.missing import (
    COMMON_SCRIPTS,
    COPIERS,
    CREATES,
    DOMAIN,
    PATH,
    PLACEHOLDER,
    gitignore_patterns,
    ignored,
    made_names,
    missing_links,
    name_key,
    one_edit,
    repository_files,
    script_names_in_files,
)
from docgen.audit.missing import GENERATED as _SITE_FOLDERS
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import Submodules
from docgen.audit.references import (
    GENERATED,
    OWN_FILE,
    USER_FILE,
    MadeFiles,
    cd_target,
    inside,
    makes_nothing,
    project_top,
    runs_nowhere,
)
from docgen.audit.steps import copy_operands, image_lines, own_clones, plain_path
from docgen.audit.versions import one_slip
from docgen.audit.wording import COMMAND_LANGS, heading_of
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document, Fence, code_spans
from docgen.model import Diagnostic, ImageModel
from docgen.shell import shell_split

_TEMPLATE = re.compile(
    r"(?:\A|[._-])(?:example|examples|sample|template|tmpl|tpl|dist|default|defaults|orig)(?:[._-]|\Z)",
    re.IGNORECASE,
)
"""A file name of a template a setup step copies (`config.json.example`, `.env.sample`,
`settings.template.yaml`, `example.env`): committed, never made by a build."""
_READ_SUFFIXES = frozenset(
    {"json", "yaml", "yml", "toml", "cfg", "ini", "conf", "env", "txt", "properties", "xml", "example"}
    | {"sample", "template", "tmpl", "dist", "sh", "bash", "py", "md"}
)
"""What a `cat` of a file of the repository prints (`cat config/app.yaml`), not a log or an output."""
_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".py")
_PREFIX = re.compile(
    r"\A[ \t]*(?:(?:sudo|time|nohup|exec|command)[ \t]+(?:-\S+[ \t]+)*|[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"
    r"\"[^\"]*\"|[^\s'\"]*)[ \t]+)*"
)
"""What stands before a command's name: `sudo`, `time`, `VAR=value` assignments."""
_SUBSTITUTED = re.compile(r"\A[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*=\$\(([^()`]*)\)[ \t]*\Z")
"""`NV_DEVICES=$(sudo ./list.sh)`: a variable set to a command's output, the command inside."""
_SHELL_STRING = re.compile(r"\A(?:bash|sh|zsh)[ \t]+(?:-[a-z]*[ \t]+)*-[a-z]*c[ \t]+(['\"])(.*?)\1")
"""A quoted command string a shell runs (`bash -c 'docker build -f x.Dockerfile .'`, `sh -lc "…"`)."""
_LEAVES = re.compile(
    r"\b(?:docker|podman|nerdctl|nvidia-docker)(?:[ \t]+compose|-compose)?[ \t]+(?:container[ \t]+)?"
    r"(?:run|exec|attach|start|cp)\b|\b(?:ssh|scp|kubectl|singularity|apptainer|enroot|srun|sbatch|vagrant"
    r"|chroot|su|runpodctl|modal|sky)\b"
)
"""A command whose words, and the block's next lines, may be about another machine's files: a
container, a cluster node, another host."""
_BUILDS = re.compile(
    r"\b(?:make|cmake|ninja|bazel|colcon|catkin(?:_make)?|meson|scons|cargo|go[ \t]+build|npm|yarn|pnpm"
    r"|tar|unzip|7z|gunzip|setup\.py|pip3?[ \t]+install[ \t]+(?:\S+[ \t]+)*-e|docker[ \t]+compose[ \t]+up"
    r"|docker-compose[ \t]+up|conda[ \t]+env[ \t]+create|git[ \t]+(?:checkout|switch|pull|submodule|apply"
    r"|am|worktree|lfs))\b|\./configure\b|\bhuggingface-cli\b|\bhf[ \t]+download\b"
)
"""A step after which any file may be there: a build, an archive unpacked, a checkout moved."""
_CLONE = re.compile(r"\bgit[ \t]+clone\b")
_PYTHON = re.compile(r"python(?:\d(?:\.\d+)?)?")
"""A Python interpreter's command name: `python`, `python3`, `python3.11`."""
_OTHER_PROJECT = re.compile(r"://|\b(?:upstream|their)[ \t]+(?:repo|repository|project)\b", re.IGNORECASE)
"""Words above a block naming another project (`Run this from the root of the [server](https://github.com/…)
repository`): the scripts it runs may be that checkout's."""
_PLACEHOLDER = re.compile(r"(?:\A|/)path/to/|\b(?:your|my|xxx+|foo|bar)(?:[._/-]|\Z)", re.IGNORECASE)
"""A path the reader puts their own in place of (`path/to/config.yaml`, `your_config.json`)."""
_SKIPPED = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"})
"""Folders not looked into for a file's name: a checkout's own store, installed packages."""
_MAX_ENTRIES = 50_000
"""Entries of a repository listed at most: past that, a name not seen may still be there (silent)."""


class _Names:
    """The file names of a repository (each folder's entries, `_SKIPPED` left out), listed once, up to
    `_MAX_ENTRIES`; `complete` tells whether the listing reached every folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._names: dict[str, list[str]] | None = None
        self._by_words: dict[tuple[str, ...], list[str]] | None = None
        self.complete = True

    def paths(self) -> dict[str, list[str]]:
        """Lower-cased file name → the paths (from the root) of the files of that name."""
        if self._names is not None:
            return self._names
        names: dict[str, list[str]] = {}
        seen = 0
        stack = [self.root]
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                seen += 1
                if seen > _MAX_ENTRIES:
                    self.complete = False
                    self._names = names
                    return names
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if is_dir:
                    if entry.name not in _SKIPPED:
                        stack.append(Path(entry.path))
                    continue
                where = os.path.relpath(entry.path, self.root).replace(os.sep, "/")
                names.setdefault(entry.name.lower(), []).append(where)
        self._names = names
        return names

    def by_words(self) -> dict[tuple[str, ...], list[str]]:
        """The words of a file name, sorted (`_words`) → the paths of the files whose names have them."""
        if self._by_words is None:
            self._by_words = {}
            for key, paths in self.paths().items():
                self._by_words.setdefault(_words(key), []).extend(paths)
        return self._by_words


@per_audit(maxsize=8)
def _names_of(root: Path) -> _Names:
    """The one listing of the repository at `root` an audit shares (`setup_files` and `named_nowhere`
    read the same checkout)."""
    return _Names(root)


def _words(name: str) -> tuple[str, ...]:
    """The words of a file name, sorted, lower case: `config.example.json` and `config.json.example`
    have the same."""
    return tuple(sorted(w for w in re.split(r"[._-]+", name.lower()) if w))


def _reordered(name: str, names: _Names) -> str | None:
    """The one file of the repository whose name has the words of `name` in another order (`config.
    example.json` for `config.json.example`), as a path from the root; None when none or several."""
    words = _words(name)
    if len(words) < 2:
        return None
    found = names.by_words().get(words, [])
    return found[0] if len(found) == 1 else None


_VERSION_END = re.compile(r"[._-]?v?\d+(?:[._]\d+)*")
"""What a version adds at a name's end (`15`, `-v2`): `carla15.sh` is `carla.sh` at a version."""


def _slip(name: str, other: str) -> bool:
    """True when file name `other` is `name` with one slip (both lower case): one letter added, dropped,
    changed or two swapped in a name of five letters or more (`trian.py` for `train.py`, `launcher.yml`
    for `launcher.yaml`), or a version the name leaves out before the suffix (`run15.sh` for `run.sh`).
    Not another version (`v1` for `v2`), nor a version the name gives that `other` lacks (`run2.sh`
    for `run.sh`): that is another file."""
    if len(name) >= 5 and one_edit(name, other):
        return True
    stem, _, suffix = name.rpartition(".")
    other_stem, _, other_suffix = other.rpartition(".")
    return bool(stem) and suffix == other_suffix and _versioned(other_stem, stem)


def _versioned(name: str, stem: str) -> bool:
    """True when `name` is `stem` at a version (`export2` of `export`)."""
    return name != stem and name.startswith(stem) and _VERSION_END.fullmatch(name[len(stem) :]) is not None


def _slipped_name(path: str, names: _Names) -> str | None:
    """The one file of the repository, in a folder ending with the folder of `path` (read from wherever
    the command runs), whose name is a slip of the name of `path` (`_slip`): the file `path` means, as a
    path from the root; None when there is none or there are several."""
    folder, _, name = path.rstrip("/").rpartition("/")
    lower = name.lower()
    stem, _, suffix = lower.rpartition(".")
    bare = re.sub(_VERSION_END.pattern + r"\Z", "", stem, count=1) or stem
    if bare != stem and any(
        other != lower and other.endswith("." + suffix) and _versioned(other.rpartition(".")[0], bare)
        for other in names.paths()
        if other.startswith(bare)
    ):
        return None  # `export3.py` beside `export.py` and `export2.py`: which version is not told
    found = [
        where
        for other, paths in names.paths().items()
        if other != lower and _slip(lower, other)
        for where in paths
        if (there := where.rpartition("/")[0]) == folder or there.endswith("/" + folder) or not folder
    ]
    return found[0] if len(found) == 1 else None


def _intro(doc: Document, fence: Fence, ends: Sequence[tuple[int, int]]) -> str:
    """The words just above a block (its paragraph's last two lines, when they end at most two lines
    above it) and its heading; `ends`: (last line, index) of each paragraph of `doc`, sorted."""
    start = fence.lines[0][0] if fence.lines else 0
    first = bisect.bisect_left(ends, (start - 3, -1))
    near = [
        text
        for end, index in ends[first : bisect.bisect_left(ends, (start, -1))]
        for _, text in doc.paragraphs[index].lines[-2:]
    ]
    return " ".join([*near, heading_of(doc, start)])


def _enters(step: str) -> bool:
    """True when a step leaves the reader in a container or on another host for what follows: an
    interactive `docker run -it`/`docker exec -it`, `docker attach`, `ssh HOST` with no command."""
    if re.search(r"\bdocker[ \t]+attach\b|\bssh[ \t]+[^\s-]\S*[ \t]*\Z", step):
        return True
    return bool(re.search(r"\b(?:run|exec)\b.*[ \t]-(?:it|ti|i[ \t]+-t|t[ \t]+-i)\b", step))


_BRACKETED_PROMPT = re.compile(r"\A[ \t]*\[[^\]\n]*\][$#][ \t]+")
"""A prompt `without_prompt` leaves: `[me@host app]$ `."""
_ROOT_PROMPT = re.compile(r"[@:][^\s]*#\Z")
"""A root shell's prompt naming a host or a folder (`root@c0ffee:/app#`): a container's, most often."""
_HEREDOC = re.compile(r"<<-?[ \t]*['\"]?([A-Za-z_]\w*)['\"]?")
"""A here-document (`cat > .env << EOF`): the lines up to its delimiter are a file's text, not commands."""


def _commands(fence: Fence) -> Iterator[tuple[int, str]]:
    """(README line, command) of each command of a block, continued lines joined, without prompt and
    `#` comment; not the text of a here-document, nor, from the first line whose prompt differs from
    the block's first one (`root@container:/app# ls`), the rest: another shell's commands."""
    pending: list[tuple[int, str]] = []
    prompt: str | None = None
    until = ""
    for line, text in fence.lines:
        if until:
            until = "" if text.strip() == until else until
            continue
        if not pending:
            command = without_prompt(_BRACKETED_PROMPT.sub("", text, count=1))
            shown = text[: len(text) - len(command)].strip()
            if shown and re.search(r"[@:#\]]", shown):  # a prompt naming a host, a folder or root
                prompt = shown if prompt is None else prompt
                if shown != prompt or _ROOT_PROMPT.search(shown):
                    return
            text = command
        pending.append((line, text.split(" #", 1)[0]))
        if continued(text):
            continue
        first = pending[0][0]
        code = " ".join(t.rstrip().rstrip("\\").strip() for _, t in pending)
        pending = []
        if (heredoc := _HEREDOC.search(code)) is not None:
            until = heredoc.group(1)
        if code.lstrip().startswith("#"):
            continue
        yield first, code


def _split(code: str) -> list[str]:
    """The steps of a command line: its parts between `&&`, `||`, `;` and `|` outside quotes."""
    steps: list[str] = []
    quote = ""
    start = index = 0
    while index < len(code):
        char = code[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "&" and ">" in code[index - 1 : index + 2]:
            pass  # a redirection (`2>&1`, `&>log`), no step's end
        elif char in "&|;":
            steps.append(code[start:index])
            index += 2 if code[index : index + 2] in ("&&", "||") else 1
            start = index
            continue
        index += 1
    steps.append(code[start:])
    return [step for step in steps if step.strip()]


def _steps(code: str) -> Iterator[list[str]]:
    """The steps of a command line, each a list of one; a quoted shell string (`bash -c '…'`) standing
    for a step is the list of its own steps (a subshell: a `cd` in it moves no later step)."""
    for step in _split(code):
        prefix = _PREFIX.match(step)
        inner = _SHELL_STRING.match(step[prefix.end() if prefix else 0 :].strip())
        yield _split(inner.group(2)) if inner is not None else [step]


def _reads(step: str) -> Iterator[tuple[str, str]]:
    """(how, path) of each file a step reads: `copies` for the sources of `cp`/`mv`/`ln -s`, `sources`
    for `source X` and `. X`, `runs` for `python X.py`, `bash X.sh`, `./X.sh`, `prints` for `cat X`,
    `makes a folder in` for a folder a `mkdir` with no `-p` makes below one it does not
    (`_unparented`). A command whose output a variable takes (`DEVICES=$(sudo ./list.sh)`) is read as
    that command."""
    substituted = _SUBSTITUTED.match(step)
    if substituted is not None:
        step = substituted.group(1)
    prefix = _PREFIX.match(step)
    body = step[prefix.end() if prefix else 0 :].strip()
    try:
        words = shell_split(body)
    except ValueError:
        return
    if not words:
        return
    name, args = words[0], words[1:]
    if name in ("uv", "poetry") and args[:1] == ["run"]:  # `uv run x.py`, `poetry run python x.py`
        if len(args) > 1 and _PYTHON.fullmatch(args[1]):
            name, args = args[1], args[2:]
        elif name == "uv":
            name, args = "python", args[1:]
    listed = _pip_lists(name, args)
    if listed is not None:
        for path in listed:
            yield "installs packages from", path
        return
    if name in ("cp", "mv"):
        operands = copy_operands(name, " ".join(shlex.quote(a) for a in args))
        if operands is not None:
            for source in operands[0]:
                yield "copies", source
    elif name == "ln" and any(a.startswith("-") and "s" in a.lstrip("-") for a in args):
        plain = [a for a in args if not a.startswith("-")]
        if len(plain) == 2 and "/" not in plain[1].rstrip("/"):  # the target is read from here
            yield "copies", plain[0]
    elif name in ("source", "."):
        if args and ("/" in args[0] or args[0].endswith((*_SCRIPT_SUFFIXES, ".env"))):
            yield "sources", args[0]
    elif _PYTHON.fullmatch(name):
        options = [a for a in args if a.startswith("-")]
        script = next((a for a in args if not a.startswith("-")), None)
        if script and not {"-m", "-c"} & set(options) and script.endswith(".py"):
            yield "runs", script
    elif name in ("bash", "sh", "zsh"):
        script = next((a for a in args if not a.startswith("-")), None)
        if script and not any("c" in a.lstrip("-") for a in args if a.startswith("-")):
            if script.endswith(_SCRIPT_SUFFIXES):
                yield "runs", script
    elif name.startswith("./") and name.endswith(_SCRIPT_SUFFIXES):
        yield "runs", name
    elif name == "mkdir":
        for path in _unparented(args):
            yield "makes a folder in", path
    elif name == "cat" and not re.search(r"[<>]", body):  # (`cat > x <<EOF` writes a file)
        for arg in args:
            suffix = arg.rsplit(".", 1)[1].lower() if "." in arg.rsplit("/", 1)[-1] else ""
            if not arg.startswith("-") and suffix in _READ_SUFFIXES:
                yield "prints", arg
    for path in _passed(name, args):
        yield "passes", path


def _mkdir_operands(step: str) -> list[str]:
    """The folders a `mkdir` step makes, as written but for a leading `./` (none for another step)."""
    words = step.split()
    if "mkdir" not in words[:3]:
        return []
    after = words[words.index("mkdir") + 1 :]
    return [
        posixpath.normpath(w.removeprefix("./")) for w in after if not w.startswith("-") and w.strip("./")
    ]


def _unparented(args: Sequence[str]) -> Iterator[str]:
    """The folders a `mkdir` with the arguments `args` makes below a folder it does not make itself
    (`data/kitti` of `mkdir data/kitti`; not of `mkdir data data/kitti`), as written but for a leading
    `./`: with no `-p` (`--parents`), mkdir makes no parent folder, so the parent must be there. None
    with `-p`; not a path with a variable, a glob, braces, a home or an absolute folder, nor `..`."""
    if any(a == "--parents" or re.fullmatch(r"-[a-zA-Z]*p[a-zA-Z]*", a) for a in args):
        return
    made: list[str] = []
    valued = False  # the word after `-m` is the mode
    for arg in args:
        if valued or arg.startswith("-"):
            valued = arg in ("-m", "--mode", "-Z", "--context") and not valued
            continue
        path = posixpath.normpath(arg.removeprefix("./")) if arg.strip() else ""
        parent = posixpath.dirname(path)
        made.append(path)
        if not parent or not plain_path(arg) or re.search(r"[$`*?{}\[\]~]", arg) or arg.startswith("/"):
            continue
        if ".." in path.split("/") or any(parent == m or parent.startswith(m + "/") for m in made[:-1]):
            continue
        yield path


_PIP = re.compile(r"pip(?:\d(?:\.\d+)?)?")
_LIST_OPTIONS = ("-r", "--requirement")


def _pip_lists(name: str, args: list[str]) -> list[str] | None:
    """The requirements files (`-r F`, `-rF`, `--requirement=F`) of a `pip install` (`pip3 install`,
    `python -m pip install`, `uv pip install`) whose program is `name` and arguments `args`; None for
    another command."""
    if _PYTHON.fullmatch(name) and args[:2] == ["-m", "pip"]:
        args = args[2:]
    elif name == "uv" and args[:1] == ["pip"]:
        args = args[1:]
    elif not _PIP.fullmatch(name):
        return None
    if args[:1] != ["install"]:
        return None
    found: list[str] = []
    for at, word in enumerate(args):
        if word in _LIST_OPTIONS and at + 1 < len(args):
            found.append(args[at + 1])
        elif word.startswith("--requirement="):
            found.append(word.partition("=")[2])
        elif word.startswith("-r") and not word.startswith("--") and len(word) > 2:
            found.append(word[2:].removeprefix("="))
    return found


def _slipped_list(
    path: str,
    line: int,
    bases: Sequence[Path],
    top: Path,
    names: _Names,
    made_files: MadeFiles,
    made: set[str],
    doc: Document,
    checkout: bool = True,
) -> tuple[str, str] | None:
    """(message, confidence) of the finding on a requirements file `path` a `pip install -r` on README
    `line` reads when the repository holds no file of its name while the folder it is read from holds
    one a slip away (`requirements` for `requirements.txt`, `requirement.txt`), `certain`, or only other
    lists of the same first word (`requirements.txt` for `requirements-dev.txt`), `certain` in a
    checkout and `likely` outside one (a copy may hold some of the files only): pip stops ("Could not
    open requirements file"). None when a line above makes it, it is a placeholder or a generated
    folder's, a source it is compiled from is there (`requirements-dev.in`), or no such neighbour is
    there (the README may follow another layout: not told)."""
    path = path.removeprefix("./")
    name = posixpath.basename(path)
    if not name or not plain_path(path) or path.endswith("/") or _PLACEHOLDER.search(path) or "$" in path:
        return None
    parts = path.split("/")
    if any(p in GENERATED or p in _SITE_FOLDERS or p in made for p in parts):
        return None
    if names.paths().get(name.lower()) or not names.complete:
        return None
    folder = posixpath.dirname(path)
    lower = name.lower()
    stem, _, suffix = lower.rpartition(".")
    if suffix in ("txt", "in") and names.paths().get(f"{stem}.in"):
        return None  # (compiled from its `.in`: `pip-compile` makes it)
    first = re.split(r"[._-]", lower, maxsplit=1)[0]
    for base in bases:
        where = inside(base / folder, top) if folder else base
        if where is None or not os.path.isdir(where):
            continue
        try:
            entries = sorted(e.name for e in os.scandir(where) if e.is_file(follow_symlinks=False))
        except OSError:
            continue
        close = [
            e
            for e in entries
            if e.lower() in (f"{lower}.txt", f"{lower}.in")
            or (one_slip(e.lower(), lower) and e.lower().endswith((".txt", ".in")))
        ]
        others = [
            e
            for e in entries
            if suffix == "txt"
            and len(first) >= 4
            and e.lower().endswith(".txt")
            and re.split(r"[._-]", e.lower(), maxsplit=1)[0] == first
        ]
        if len(close) == 1 or (not close and others):
            if _made_above(path, line, made_files, doc):
                return None
            said = f"README installs packages from {path}, which does not exist in the repository: pip stops"
            if len(close) == 1:
                meant = posixpath.join(folder, close[0]) if folder else close[0]
                return f"{said} (could not open requirements file) (did you mean {meant}?)", CERTAIN
            held = ", ".join(posixpath.join(folder, e) if folder else e for e in others[:4])
            return (
                f"{said} (could not open requirements file); its folder holds {held}",
                CERTAIN if checkout else LIKELY,
            )
    return None


_WRITES = re.compile(r">|\b(?:touch|wget|curl|cp|mv|ln|tee|freeze|compile|export|echo|cat|sed|awk)\b")
"""A command that may write a file it names (`pip freeze > requirements`, `uv pip compile -o …`)."""


def _made_above(path: str, line: int, made_files: MadeFiles, doc: Document) -> bool:
    """True when a line above README `line` makes the file `path`: `MadeFiles.before` for a file's name
    (`reqs.txt`); for a name with no suffix, a plain word too (`requirements`, `Install requirements:`),
    only a command line above that names it and may write a file (`pip freeze > requirements`)."""
    name = posixpath.basename(path)
    if "." in name.strip("."):
        return made_files.before(path, line)
    word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
    return any(
        number < line and word.search(text) is not None and _WRITES.search(text) is not None
        for fence in doc.fences
        for number, text in fence.lines
    )


_MOUNTS = re.compile(r"(?:\A|\s)(?:-v|--volume|--mount)(?:[ \t=]|\Z)|^[ \t]*volumes:", re.MULTILINE)
"""A mount the README shows (`-v "$PWD":/app`, a compose `volumes:`): a container's file may be the
reader's own, brought in by it."""


def _unheld_in_image(
    fence: Fence,
    models: Sequence[ImageModel],
    dockerfiles: str,
    names: _Names,
    made_files: MadeFiles,
    made: set[str],
    source: Sequence[str],
) -> Iterator[tuple[int, str]]:
    """(line, script) of each Python script a block said to run in the container runs with an
    interpreter (`python main.py --device cuda`) that the image cannot hold: it is named alone, the
    audited Dockerfiles (`dockerfiles`, their text; none of them clones or fetches code: the caller's
    `upstream`) copy files of the build context, all plain (no `--from`), and name it nowhere, and no
    file of the checkout (`names`) has its name; not one a README line makes first, nor when the README
    mounts anything (the reader's own files then), nor for images with no WORKDIR of their own (the
    base's working folder may hold it)."""
    if not names.complete or not dockerfiles or _MOUNTS.search("\n".join(source)):
        return
    if re.search(r"--from|^\s*(?:ADD|COPY)\s+(?:\S+\s+)*(?:https?://|git@)", dockerfiles, re.M | re.I):
        return
    if not models or not all(
        re.search(rf"^\s*{word}\s", dockerfiles, re.MULTILINE | re.IGNORECASE)
        for word in ("(?:COPY|ADD)", "WORKDIR")
    ):
        return  # (the working folder and what it holds are the base image's)
    for line, code in _commands(fence):
        for group in _steps(code):
            for step in group:
                if CD_STEP.match(step) or _CLONE.search(step):
                    return  # (elsewhere in the container, or a project fetched there)
                for how, path in _reads(step):
                    name = path.removeprefix("./")
                    if how != "runs" or not name.endswith(".py") or "/" in name or not _interpreted(step):
                        continue
                    if (
                        not plain_path(name)
                        or _PLACEHOLDER.search(name)
                        or name in dockerfiles
                        or name in made
                    ):
                        continue
                    if names.paths().get(name.lower()) or made_files.before(name, line):
                        continue
                    yield line, name


def _interpreted(step: str) -> bool:
    """True when a step runs its script with an interpreter (`python x.py`, `uv run x.py`), not by the
    script's own path (`./x.py`: the rule on missing scripts')."""
    prefix = _PREFIX.match(step)
    body = step[prefix.end() if prefix else 0 :].lstrip()
    return not body.startswith(("./", "/", "../")) and re.match(r"[\w.-]+\.py(?:\s|\Z)", body) is None


def _script_enters(path: str, folders: Sequence[Path], root: Path) -> bool:
    """True when the shell script `path`, found from one of `folders` in the repository at `root`, has
    a line leaving its caller in a container or on another host (`docker run -it …` in a
    `docker_run.sh`): what the README runs after it may run there."""
    for folder in folders:
        place = inside(folder / path, root)
        if place is None or not os.path.isfile(place):
            continue
        text = text_or_none(place, MAX_PROJECT_FILE_BYTES) or ""
        return any(_LEAVES.search(row) and _enters(row) for row in text.splitlines())
    return False


class _CopiedReadme:
    """Whether a Python script a README outside a git checkout runs on the host is nowhere in the
    project read as a whole, read once for the README, when a run first needs it: a README copied with
    its Dockerfile alone holds none of its scripts, so only a copy whose links all find their files is
    read, and only for a script no other file of the project names (a Dockerfile copying or running
    it, a Makefile writing it) and no file has a name a slip away from."""

    def __init__(
        self, doc: Document, directory: Path, root: Path, models: Sequence[ImageModel], readme: str
    ) -> None:
        self.doc, self.directory, self.root, self.models, self.readme = doc, directory, root, models, readme
        self._read = False
        self._names: frozenset[str] = frozenset()
        self._named: set[str] | None = None

    def _read_once(self, project: Path) -> None:
        self._read = True
        if next(iter(missing_links(self.doc, self.readme, self.directory, project)), None) is not None:
            return  # files the README links to are missing: a partial copy, or another layout
        files = repository_files(self.root)
        if files is not None:
            self._names = frozenset(f.name for f in files)
            self._named = script_names_in_files(files, self.models)

    def whole(self, project: Path | None) -> bool:
        """True when the copy shows itself whole: a project given, whose files were listed, and every
        file the README links to found."""
        if project is None:
            return False
        if not self._read:
            self._read_once(project)
        return self._named is not None

    def holds_none(self, path: str, project: Path | None) -> bool:
        """True when the script `path` may be told missing (see the class)."""
        name = path.rstrip("/").rsplit("/", 1)[-1]
        bare = path.removeprefix("./")
        if project is None or name in COMMON_SCRIPTS or USER_FILE.search(bare) or OWN_FILE.search(bare):
            return False  # (with no project given, the folders above the README are no listing of it)
        if not self._read:
            self._read_once(project)
        return self._named is not None and name not in self._named and runs_nowhere(path, self._names)


_HERE_MOUNT = re.compile(
    r"(?:^|[ \t])(?:-v|--volume)(?:[ \t]+|=)[\"']?(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|%cd%|\.)/?[\"']?:"
    r"[\"']?(/[\w./-]*)[\"']?(?::[\w,]+)?[\"']?(?=\s|$)",
    re.IGNORECASE,
)
"""`-v "$PWD":/workspace`, `-v "%cd%":"/workspace"`, `--volume=$(pwd):/app:rw`: the current folder
mounted in a container, at group 1."""
_RUN_SCRIPT = re.compile(r"(?<![\w/.-])(?:\./)?([\w-][\w.-]*\.(?:sh|bash|bat|cmd))(?![\w.-])")
"""A script a command block runs by its name (`./start-container.sh`, `start-container.bat`)."""


def _mounted_here(doc: Document, bases: Sequence[Path], top: Path) -> tuple[str, str] | None:
    """(target, where) of the first `docker run` mount of the current folder (`_HERE_MOUNT`) in a
    command block of the README or in a script one of its blocks runs by name, found in one of `bases`
    (`where`: `start-container.sh:7`, or `README line 12`); None when there is none."""
    scripts: list[str] = []
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, text in fence.lines:
            found = _HERE_MOUNT.search(text)
            if found is not None and "docker" in " ".join(t for _, t in fence.lines):
                return found.group(1).rstrip("/") or "/", f"README line {line}"
            scripts.extend(m.group(1) for m in _RUN_SCRIPT.finditer(text))
    for name in dict.fromkeys(scripts):
        for base in bases:
            place = inside(base / name, top)
            if place is None or not os.path.isfile(place):
                continue
            text = text_or_none(place, MAX_PROJECT_FILE_BYTES) or ""
            if "docker" not in text and "podman" not in text:
                break
            for number, row in enumerate(text.splitlines(), 1):
                found = _HERE_MOUNT.search(row)
                if found is not None:
                    return found.group(1).rstrip("/") or "/", f"{name}:{number}"
            break
    return None


def _mounted_lists(fence: Fence, target: str, bases: Sequence[Path], top: Path) -> Iterator[tuple[int, str]]:
    """(README line, path) of each requirements file a block run in a container reads (`pip install -r
    requirements-dev.txt`) when the container's shell is in the README's folder, mounted at `target`:
    another file the block reads by the same relative way is one of that folder (`pip install -r
    requirements.txt`). Up to a `cd` elsewhere than `target`, or a command leaving the container."""
    lists: list[tuple[int, str]] = []
    here = False
    for line, code in _commands(fence):
        for step in _split(code):
            if _LEAVES.search(step) or re.match(r"[ \t]*exit\b", step):
                break
            if CD_STEP.match(step):
                if (cd_target(step) or "").rstrip("/") != target:
                    break
                continue
            for how, path in _reads(step):
                if how == "installs packages from":
                    lists.append((line, path))
                bare = path.removeprefix("./")
                if plain_path(bare) and not bare.startswith(("/", "~", "$", "..")):
                    found = (inside(base / bare, top) for base in bases)
                    here = here or any(f is not None and os.path.isfile(f) for f in found)
        else:
            continue
        break
    if here:
        yield from lists


def _clone_folders(doc: Document, own: Callable[[int, str], tuple[str, Path] | None]) -> set[str]:
    """The folders the README's `git clone` commands make of another repository (not of this one: `own`
    tells, `steps.own_clones`), an option's value (`-b main`, `--depth 1`) no folder (`clone_of`)."""
    folders: set[str] = set()
    for fence in doc.fences:
        for line, text in fence.lines:
            clone = clone_of(text)
            if clone is None or own(line, text) is not None:
                continue
            folders.add((clone[1] or cloned_folder(clone[0])).strip("'\"/"))
    return folders


def _elsewhere_from(fence: Fence) -> int:
    """The README line of the first comment of a block saying its commands run in a container (`# run
    in the app_dev container:`, `# inside docker`): the commands below it are that container's; past
    the block's end when none does."""
    for line, text in fence.lines:
        comment = text.strip()
        if comment.startswith("#") and IN_MACHINE.search(comment):
            return line
    return fence.lines[-1][0] + 1 if fence.lines else 0


def _ours(step: str, root: Path) -> bool:
    """True when `step` reads a file of this repository by a path with a folder (`bash docker/build.sh`,
    found at `root`): the clone it runs in is this repository's. A bare name (`./build.sh`) may be any
    repository's."""
    return any("/" in p.strip("./") and os.path.isfile(root / p.removeprefix("./")) for _, p in _reads(step))


def _depth_after(depth: int, step: str) -> int:
    """How deep in another repository's clone the reader is after `step`, from `depth` (0: back out):
    `cd ..` goes up, `cd -` back to where the clone was entered from, `cd sub` down, a `cd` to an
    absolute or home folder stays out of this repository."""
    if not CD_STEP.match(step):
        return depth
    target = cd_target(step) or ""
    if target == "-":
        return 0
    if not target or target.startswith(("/", "~", "$")):
        return max(depth, 1)
    for part in target.split("/"):
        if part == "..":
            depth -= 1
            if depth <= 0:
                return 0
        elif part not in ("", "."):
            depth += 1
    return depth


def _leaving_aliases(doc: Document) -> dict[str, str]:
    """The aliases the README defines for a command that leaves the repository (`alias drun='sudo
    docker run -it …'`), by name, with the command they stand for."""
    found: dict[str, str] = {}
    for fence in doc.fences:
        for _, text in fence.lines:
            for alias in re.finditer(r"\balias[ \t]+([\w.-]+)=(['\"])(.*?)\2", text):
                if _LEAVES.search(alias.group(3)):
                    found[alias.group(1)] = alias.group(3)
    return found


def _made_by_steps(doc: Document) -> set[str]:
    """The names the README's commands make: what `missing.made_names` reads (`mkdir`, `wget`, `touch`,
    `>`, a clone …), the destination of a copy, a move or a link, and the host side of a volume
    (`-v ./models:/m`)."""
    names = set(made_names(doc, CREATES - COPIERS))
    for fence in doc.fences:
        for _, text in fence.lines:
            for volume in re.finditer(r"(?:-v|--volume|--mount)[ \t=]+['\"]?([^\s:'\"]+):", text):
                names.update(p for p in volume.group(1).split("/") if p)
            for step in _split(without_prompt(text).split(" #", 1)[0]):
                prefix = _PREFIX.match(step)
                words = step[prefix.end() if prefix else 0 :].split()
                if len(words) > 2 and words[0] in COPIERS:
                    names.update(p for p in words[-1].strip("'\"").split("/") if p not in ("", "."))
    return names


def setup_files(
    doc: Document,
    source: Sequence[str],
    directory: Path,
    models: Sequence[ImageModel],
    readme: str,
    project: Path | None = None,
    own: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """The files a README's setup steps read (`_reads`) that no folder of the repository holds by name
    (see the module's docstring): `README copies config.json.example, which does not exist in the
    repository`. `source`: the README's lines; `models`: the images audited (a script one of their
    Dockerfiles names or clones is the image's, not the checkout's); `own`: `steps.own_clones` of the
    README, when another rule has it."""
    top = project_top(directory, project)
    root = repository_root(directory)
    if root is None or not root.is_relative_to(top):
        root = top
    # a file other than a template is missing only from a checkout: a copy of a README and its
    # Dockerfile holds none of the files it runs
    checkout = any(
        os.path.exists(folder / ".git") for folder in (directory.resolve(), *directory.resolve().parents)
    )
    names = _names_of(root)
    patterns = gitignore_patterns([directory.resolve(), root], root)
    submodules = Submodules(doc)
    made = _made_by_steps(doc)
    made_files = MadeFiles(source)
    clones = _clone_folders(doc, own or own_clones(doc, directory))
    image = image_lines(doc)
    text = "\n".join(text_or_none(Path(m.file)) or "" for m in models if m.file)
    upstream = any(
        c.kind == "git" or "git+" in (c.source or "") for m in models for c in m.components
    ) or bool(re.search(r"\bgit[ \t]+clone\b|\bgit\+https?://", text))
    leaving = _leaving_aliases(doc)
    built = False  # a build step ran: any file may be there now, but for templates
    copied = None if checkout else _CopiedReadme(doc, directory, root, models, readme)

    def copied_whole() -> bool:
        return copied is not None and copied.whole(project)

    entered = False  # a script the README ran may have left the reader in a container: Python runs not read
    strayed = False  # a `cd` into a folder the project lacks: a README copied outside a checkout is partial
    entered_at: int | None = None  # the heading under which a block left the reader in a container
    seen: set[str] = set()
    ends = sorted((p.lines[-1][0], i) for i, p in enumerate(doc.paragraphs) if p.lines)
    # the blocks its heading, the prose just above or an introduction over captions says run in one
    said_inside = container_blocks(doc, words=IN_MACHINE, langs=COMMAND_LANGS)
    cloned: tuple[int, int] | None = None  # (section, depth) of the reader in another repository's clone
    said_aside: dict[int, bool] = {}  # README line of inline commands → it says inside, or another project
    mounted: tuple[str, str] | None = None  # (target, where) of a mount of the README's folder
    mount_read = False  # `mounted` is read once, for the first block run in a container
    moved = False  # a `cd` ran: the folder a `make` runs in is no longer known
    wandered = False  # a `cd` ran into a folder other than the checkout's own
    # the folders the commands run in, as far as the `cd`s are followed (None: not known any more), and
    # whether a script or program ran that may have made folders there
    place: list[Path] | None = list(dict.fromkeys([directory.resolve(), root]))
    own_keys: set[str] | None = None  # the folders the README's clones of this repository make
    ran = ran_shell = False
    scripts_run: list[str] = []  # the texts of the scripts the README ran so far, that the checkout holds
    folders_made: set[str] = set()  # the folders the `mkdir`s read so far make, as written
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS or not fence.lines:
            continue
        # the block before put the reader in a container, or its words say it runs in one: its files
        # are the container's, but for requirements files of the README's folder mounted there
        in_container = entered_at is not None and fence.section == entered_at
        if not in_container:
            entered_at = None
            cloned = cloned if cloned is not None and cloned[0] == fence.section else None
            intro = _intro(doc, fence, ends)
            in_container = fence.lines[0][0] in said_inside
        if in_container:
            if not mount_read:
                mounted, mount_read = _mounted_here(doc, [directory.resolve(), root], top), True
            if mounted is not None:
                bases = [directory.resolve(), root]
                for line, path in _mounted_lists(fence, mounted[0], bases, top):
                    slip = _slipped_list(path, line, bases, top, names, made_files, made, doc, checkout)
                    if slip is not None and path not in seen:
                        seen.add(path)
                        where = f" (run in the container, where {mounted[1]} mounts the README's folder)"
                        yield Diagnostic(readme, line, slip[0] + where, confidence=slip[1])
            elif checkout and not upstream and not fence.inline:
                for line, path in _unheld_in_image(fence, models, text, names, made_files, made, source):
                    if path not in seen:
                        seen.add(path)
                        yield Diagnostic(
                            readme,
                            line,
                            f"README runs {path} in the container, but the image cannot hold it: no "
                            "Dockerfile line names it, and no file of the repository, whose files are all "
                            "the image's build can copy, has that name, so python cannot open it",
                            confidence=LIKELY,
                        )
            continue
        # a whole command of the prose's inline code (`markdown.inline_commands`): its own line tells too
        # (read once a line: a line of a thousand inline commands is one line)
        at = fence.lines[0][0]
        if fence.inline and 0 < at <= len(source) and at not in said_aside:
            said_aside[at] = bool(IN_MACHINE.search(source[at - 1]) or _OTHER_PROJECT.search(source[at - 1]))
        aside = bool(_OTHER_PROJECT.search(intro)) or (fence.inline and said_aside.get(at, False))
        elsewhere = _elsewhere_from(fence)
        home_checkout = False  # a `cd` into the reader's home put it in its own checkout (`_HOME_CHECKOUT`)
        for line, code in _commands(fence):
            if line in image:
                continue
            if line > elsewhere:
                break
            left = False  # the reader left the repository (a container, another folder): block read
            for group in _steps(code):
                subshell = len(group) > 1 or group[0] not in _split(code)
                for step in group:
                    if cloned is not None and not subshell and not _ours(step, root):
                        depth = _depth_after(cloned[1], step)
                        cloned = (cloned[0], depth) if depth else None
                        continue  # the clone's files, until a `cd` back out
                    cloned = None  # (a file of this repository: the clone is this repository's)
                    for given, path in _applied(step) if not (built or entered or aside) else ():
                        bases = [directory.resolve(), root]
                        applied = _applied_finding(
                            given,
                            path,
                            line,
                            bases,
                            top,
                            names,
                            made_files,
                            made,
                            patterns,
                            wandered,
                            checkout,
                            scripts_run,
                        )
                        if applied is not None and path not in seen:
                            seen.add(path)
                            yield Diagnostic(readme, line, applied[0], confidence=applied[1])
                    alias = leaving.get(step.split()[0] if step.split() else "")
                    if _LEAVES.search(step) or alias is not None:
                        entered_at = fence.section if _enters(alias or step) else entered_at
                        left = not subshell
                        break
                    if CD_STEP.match(step):
                        target = cd_target(step) or ""
                        first = target.split("/", 1)[0]
                        away = not target or target.startswith(("/", "~", "$")) or first in clones
                        if not subshell:
                            if own_keys is None:
                                own_keys = _own_clone_keys(doc, own or own_clones(doc, directory))
                            place = _entered(place, target, root, top, own_keys)
                        if away and _HOME_CHECKOUT.fullmatch(target) and first not in clones:
                            # `cd /home/ubuntu/my_project`: the reader's own checkout, wherever it is
                            # (the project's install is read there, no file of it: `home_checkout`)
                            home_checkout = True
                            continue
                        if away and first not in (root.name, directory.resolve().name):
                            if first in clones and not subshell:
                                cloned = (fence.section, len([p for p in target.split("/") if p != "."]))
                                continue
                            left = not subshell
                            break
                        moved = True
                        wandered = wandered or target.strip("/") not in (root.name, directory.resolve().name)
                        here = (inside(base / target, top) for base in (directory.resolve(), root))
                        strayed = strayed or not any(h is not None and os.path.isdir(h) for h in here)
                        continue
                    if _CLONE.search(step):
                        continue  # its folder is in `clones`: a later `cd` into it ends the block
                    installed = _installs_project(step)
                    if (
                        installed is not None
                        and not (moved or entered or aside or built)
                        and installed not in seen
                    ):
                        said = _no_project(
                            installed, [directory.resolve(), root], top, checkout, copied, project, source
                        )
                        if said is not None:
                            seen.add(installed)
                            yield Diagnostic(readme, line, said[0], confidence=said[1])
                    if home_checkout:
                        continue  # (another folder of the reader's: only the project's install is read)
                    folders_made.update(_mkdir_operands(step))
                    built = (
                        built
                        or bool(_BUILDS.search(step))
                        and not (not moved and makes_nothing(step, (directory.resolve(), root)))
                    )
                    for how, path in _reads(step):
                        if how == "makes a folder in":
                            if built or entered or aside or ran or place is None or fence.lang in _WINDOWS:
                                continue  # (a build or a script may make it; PowerShell makes parents)
                            parent = _missing_parent(path, line, place, top, made_files, source)
                            if parent in folders_made:
                                continue  # (`mkdir data && mkdir data/kitti`)
                            if parent is not None and path not in seen and (checkout or copied_whole()):
                                seen.add(path)
                                yield Diagnostic(
                                    readme,
                                    line,
                                    f"README runs mkdir {path} without -p, but the repository holds no "
                                    f"folder {parent}/ where the commands run: mkdir makes no parent folder, "
                                    "so it fails (No such file or directory)",
                                    confidence=CERTAIN if checkout else LIKELY,
                                )
                            continue
                        if how == "runs":
                            ran = True  # (a script may make any folder, a shell script any file)
                            ran_shell = ran_shell or not path.endswith(".py")
                            scripts_run.extend(_script_texts(path, [directory.resolve(), root], top))
                        if how == "installs packages from":
                            bases = [directory.resolve(), root]
                            slip = _slipped_list(
                                path, line, bases, top, names, made_files, made, doc, checkout
                            )
                            if slip is not None and path not in seen:
                                seen.add(path)
                                yield Diagnostic(readme, line, slip[0], confidence=slip[1])
                            continue
                        if how == "passes":
                            if built or entered or aside or path in seen:
                                continue  # (a build may make it; a container or another checkout reads it)
                            if "/" not in path and (place is None or ran_shell):
                                continue  # (a file named alone is of the folder the commands run in)
                            bases = [directory.resolve(), root] if "/" in path else list(place or [])
                            passed = _passed_finding(
                                path, line, bases, top, names, made_files, made, patterns, text, checkout
                            )
                            if passed is not None:
                                seen.add(path)
                                yield Diagnostic(readme, line, passed[0], confidence=passed[1])
                            continue
                        python = how == "runs" and path.endswith(".py") and _interpreted(step)
                        loose = built or not checkout  # only templates are read
                        if python and (entered or aside):
                            continue  # (may run in a container, or in another project's checkout)
                        if python and not built and copied is not None:
                            loose = strayed or not copied.holds_none(path, project)
                        said = _finding(
                            how, path, line, made_files, names, patterns, made, root, loose, upstream, text
                        )
                        if said is not None and any(
                            submodules.holds(b / path, b) for b in (directory.resolve(), root)
                        ):
                            said = None  # a file of a git submodule not fetched
                        if said is not None and python:  # `python x.py` fails: `likely` in the prose
                            said = (said[0], LIKELY if fence.inline else CERTAIN)
                        shell = how == "runs" and path.endswith((".sh", ".bash", ".zsh"))
                        if shell and not entered:
                            entered = _script_enters(path, [directory.resolve(), root], top)
                        if said is not None and path not in seen:
                            seen.add(path)
                            yield Diagnostic(readme, line, said[0], confidence=said[1])
                if left:
                    break
            if left:
                break


_WINDOWS = frozenset({"powershell", "ps1", "cmd", "bat"})
"""Blocks of a Windows shell, whose `mkdir` makes the parent folders too."""


def _own_clone_keys(doc: Document, own: Callable[[int, str], tuple[str, Path] | None]) -> set[str]:
    """The `name_key`s of the folders the README's clones of this very repository make: `own` tells
    so, or the folder is the README's title (`# ORB-SLAM3-Install` over `git clone
    …/ORB-SLAM3-Install.git`: the repository's name, as `clone_folders.clone_slips` reads it)."""
    title = next(
        (name_key(t) for n, t in doc.headings if doc.levels.get(n) == 1 and _TITLE.fullmatch(t)), None
    )
    keys: set[str] = set()
    for fence in doc.fences:
        for line, text in fence.lines:
            clone = clone_of(text)
            if clone is None:
                continue
            if (found := own(line, text)) is not None:
                keys.add(name_key(found[0]))
            elif clone[1] is None and title is not None and name_key(cloned_folder(clone[0])) == title:
                keys.add(title)
    return keys


_TITLE = re.compile(r"[\w.-]+")
"""A top heading that is one name: the repository's."""


def _entered(
    place: list[Path] | None, target: str, root: Path, top: Path, own: set[str]
) -> list[Path] | None:
    """The folders the commands run in after `cd target` from `place` (None: not known): the folder
    entered from each of them that holds it, the repository's root for the folder of a clone of this
    repository (`own`, read as `name_key`s: a `cd` in another letter case means it, and `clone_slips`
    tells the slip), None for a folder with a variable, home or absolute, or one not found."""
    if place is None or not target or target.startswith(("/", "~", "$", "-")):
        return None
    first, _, rest = target.partition("/")
    found = [f for b in place if (f := inside(b / target, top)) is not None and os.path.isdir(f)]
    if not found and name_key(first) in own:
        found = [
            f for f in [inside(root / rest, top) if rest else root] if f is not None and os.path.isdir(f)
        ]
    return list(dict.fromkeys(found)) or None


_MOUNTED = re.compile(r"(?:^|[ \t])(?:-v|--volume|--mount)[ \t=]")
"""A `docker run` mount on a README line: its host folder is made when it is not there."""


def _missing_parent(
    path: str, line: int, place: Sequence[Path], top: Path, made_files: MadeFiles, source: Sequence[str]
) -> str | None:
    """The parent folder of the folder `path` a `mkdir` on README `line` makes (`data` of `data/kitti`)
    when none of the folders the commands run in (`place`) holds it, no line above makes it or tells to
    (`mkdir data`, `Download the archives into data/`: `MadeFiles`), no mount above names it (`docker
    run -v $PWD/data:/data` makes a missing host folder) and no line above uses a path below it (`label
    -in data/raw.csv`: the reader has it); None when the parent may be there."""
    parent = posixpath.dirname(path)
    if any((f := inside(b / parent, top)) is None or os.path.exists(f) for b in place):
        return None
    first = parent.split("/", 1)[0]
    if first in GENERATED or made_files.before(parent, line):
        return None
    named = re.compile(rf"(?<![\w.-]){re.escape(first)}(?![\w-])")
    below = re.compile(rf"(?<![\w.-]){re.escape(parent)}/[\w.-]")
    if any(_MOUNTED.search(t) and named.search(t) or below.search(t) for t in source[: line - 1]):
        return None  # (a mount makes it; a path below it the README uses above says the reader has it)
    return parent


_HOME_CHECKOUT = re.compile(r"(?:/home/[\w.-]+|/Users/[\w.-]+|~|\$HOME|\$\{HOME\})(?:/[\w.-]+)+/?")
"""A folder below the reader's home (`/home/ubuntu/game_project_rl`, `~/code/app`): where the README's
reader keeps the checkout it documents, unless a clone of the README made it."""
_PIP_INSTALL = re.compile(
    r"\A(?:(?:python[\d.]*|py)[ \t]+-m[ \t]+pip|uv[ \t]+pip|pip[\d.]*)[ \t]+install[ \t]+(.*)\Z"
)
_PROJECT_FILES = ("setup.py", "setup.cfg", "pyproject.toml")
"""What pip reads to build a local project: with none of them, `pip install .` stops (`does not appear to be
a Python project`)."""


def _installs_project(step: str) -> str | None:
    """`.` (or `./`) when the step installs the Python project of the folder it runs in (`pip install -e
    .`, `pip install .[dev]`, `python -m pip install --editable .`, `uv pip install -e .`); else None."""
    prefix = _PREFIX.match(step)
    body = step[prefix.end() if prefix else 0 :].split(" #", 1)[0].strip()
    found = _PIP_INSTALL.match(body)
    if found is None:
        return None
    try:
        words = shell_split(found.group(1))
    except ValueError:
        return None
    for word in words:
        bare = re.sub(r"\[[\w,.-]*\]\Z", "", word.removeprefix("--editable="))
        if bare in (".", "./"):
            return "."
    return None


_LIST_READ = re.compile(r"\binstall\b[^\n#]*?[ \t](?:-r|--requirement)(?:[ \t]+|=)[\"']?([\w./-]+)")


def _lists_here(source: Sequence[str], bases: Sequence[Path], top: Path) -> bool:
    """True when the README installs a requirements file (`pip install -r requirements.txt`) that the
    README's folder (or the root above it: `bases`) holds: the project's dependency files were copied
    with the README, so the absence of its project files is the project's own."""
    for text in source:
        for found in _LIST_READ.finditer(text):
            for base in bases:
                place = inside(base / found.group(1), top)
                if place is not None and os.path.isfile(place):
                    return True
    return False


def _no_project(
    path: str,
    bases: Sequence[Path],
    top: Path,
    checkout: bool,
    copied: _CopiedReadme | None,
    project: Path | None,
    source: Sequence[str],
) -> tuple[str, str] | None:
    """The finding of a `pip install -e .` run in the README's folder (or the root above it: `bases`)
    when none of them holds a setup.py, setup.cfg or pyproject.toml: pip has no project to install there.
    `certain` in a checkout; outside one, `likely` and only for a copy that shows itself whole
    (`_CopiedReadme.whole`: its links all find their files) and holds the requirements files the README
    installs (`_lists_here`), else the project's files were not copied."""
    for base in dict.fromkeys(bases):
        folder = inside(base / path, top)
        if folder is None:
            return None
        if any(os.path.isfile(folder / name) for name in _PROJECT_FILES):
            return None
    if not checkout and (copied is None or not copied.whole(project) or not _lists_here(source, bases, top)):
        return None
    return (
        f"README installs the project of its folder ({path}) with pip, which needs a setup.py, setup.cfg or "
        "pyproject.toml there; the repository has none, so pip has nothing to install",
        CERTAIN if checkout else LIKELY,
    )


def _finding(
    how: str,
    path: str,
    line: int,
    made_files: MadeFiles,
    names: _Names,
    patterns: list[tuple[Path, str]],
    made: set[str],
    root: Path,
    built: bool,
    upstream: bool,
    dockerfiles: str,
) -> tuple[str, str] | None:
    """(message, confidence) of the finding on a file `path` a step on README `line` reads `how`, or
    None when it may be there (see `setup_files`). `built`: a build step ran, or the README is in no
    checkout (only templates are read then); `dockerfiles`: the text of the audited Dockerfiles;
    `upstream`: whether one of them clones another project."""
    path = path.removeprefix("./")
    name = path.rstrip("/").rsplit("/", 1)[-1]
    # a file `source`d by a path with a folder is a file with no suffix too (`source hydra/completion_bash`),
    # read in a checkout only (not a virtual environment's `bin/activate`, which a step makes)
    sourced = how == "sources" and "/" in path and not built and "bin" not in path.split("/")
    if not plain_path(path) or path.endswith("/") or _PLACEHOLDER.search(path):
        return None
    if "." not in name.strip(".") and not sourced:
        return None
    template = how == "copies" and bool(_TEMPLATE.search(name))
    if built and not template:
        return None
    parts = path.split("/")
    if any(p in GENERATED or p in _SITE_FOLDERS or p in made for p in parts):
        return None
    if made_files.before(path, line) or ignored(root / path, patterns):
        return None
    if not template and ((upstream and not _CONTAINER_TOOL.search(name)) or name in dockerfiles):
        return None  # a script of the image, or of a project its Dockerfile clones
    if names.paths().get(name.lower()) or not names.complete:
        return None
    meant = _reordered(name, names) or _slipped_name(path, names)
    hint = f" (did you mean {meant}?)" if meant else ""
    return (
        f"README {how} {path}, which does not exist in the repository{hint}",
        CERTAIN if template or meant else LIKELY,
    )


_CONTAINER_TOOL = re.compile(r"docker|podman|container|compose", re.IGNORECASE)
"""A script's name that says it drives containers (`docker_join.sh`, `run_container.sh`): the checkout's
own host tooling, run beside the image, never a script of a project the image clones and runs in it."""
_CONFIG_SUFFIXES = frozenset({"yml", "yaml", "json", "toml", "cfg", "ini", "py", "sh"})
"""Suffixes of a file a command is given to read as its settings (`--config configs/7b.yml`)."""
_SAID_CONFIG = re.compile(r"conf|cfg|setting|recipe|preset|param|experiment|exp\Z|script", re.IGNORECASE)
"""Words of an option or a folder saying its file holds settings: for a `.json`, `.py` or `.sh`, which
may as well be data or the reader's own."""
_NOT_READ = re.compile(
    r"out|save|dest|write|export|dump|log|result|target|ckpt|checkpoint|weight|model|data|input|resume"
    r"|cache|tmp|temp|dir|folder|file_?name|name|prefix|pred|image|video|audio|prompt|text",
    re.IGNORECASE,
)
"""Option names whose value is a path the run writes, or the reader's own data (`--output`, `--save_to`,
`--data_path`, `--checkpoint_path`): not a file of the repository."""
_ALONE_SUFFIXES = frozenset({"yml", "yaml", "json", "toml", "cfg", "ini"})
"""Suffixes of a settings file an option names alone (`-c config.yaml`): not a script."""
_DATA_FOLDERS = frozenset(
    {"data", "dataset", "datasets", "checkpoints", "checkpoint", "ckpt", "ckpts", "weights", "models"}
    | {"outputs", "output", "results", "logs", "runs", "cache", "tmp", "samples", "inputs", "input"}
)
"""Folders holding what a run or a download makes, or the reader's data: never read for a settings file."""
_NOT_PASSING = frozenset(
    {"cp", "mv", "ln", "cat", "source", ".", "touch", "tee", "mkdir", "rm", "vim", "vi", "nano", "emacs"}
    | {"code", "echo", "printf", "wget", "curl", "git", "docker", "podman", "chmod", "chown", "sed", "awk"}
    | {"export", "cd", "ls", "less", "more", "head", "tail", "diff", "open", "gedit", "install", "rsync"}
    | {"scp", "unzip", "tar", "gdown", "sudoedit", "xdg-open", "find", "grep", "du", "stat", "file"}
    | {"docker-compose", "podman-compose", "nerdctl", "nvidia-docker"}  # (compose files: their own rules)
)
"""Commands whose paths are not read as a program's settings: they make, show, edit or move a file."""


def _passed(name: str, args: Sequence[str]) -> Iterator[str]:
    """The paths with a folder and a settings suffix (`_CONFIG_SUFFIXES`) a command `name` is given as
    an option's value (`--config_path ./configs/7b.yml`, `-c=cfg/x.yaml`) or an operand (`python train.py
    configs/x.yaml`), not the script it runs; none for a command that makes, shows or edits files
    (`_NOT_PASSING`), after a redirection (`> configs/x.yml` writes it), nor an output's or data's
    option (`_NOT_READ`). A `.json`, `.py` or `.sh` only when the option or the folder says settings. A
    settings file named alone (`-c config.yaml`, `--config serve-7b.yml`) only as the value of an
    option that says so (`-c`, `--config`, `--cfg` …: `_SAID_CONFIG`)."""
    if name in _NOT_PASSING or name.startswith(("<", ">")):
        return
    script = _PYTHON.fullmatch(name) or name in ("bash", "sh", "zsh")
    skipped = False  # the script an interpreter runs: the first operand
    option = ""
    for word in args:
        if re.match(r"\d*[<>]", word):
            return
        if script and not skipped and re.fullmatch(r"-[a-z]*c", word):
            return  # (`python -c CODE`, `bash -lc CODE`: a command, no file)
        if word.startswith("-"):
            option, _, value = word.lstrip("-").partition("=")
            if not value:
                continue
            word = value
        elif script and not skipped and not option:
            skipped = True
            continue
        said, option = option, ""
        if said and _NOT_READ.search(said) and not _SAID_CONFIG.search(said):
            continue
        path = word.removeprefix("./")
        folder, _, base = path.rpartition("/")
        suffix = base.rsplit(".", 1)[1].lower() if "." in base.strip(".") else ""
        if suffix not in _CONFIG_SUFFIXES:
            continue
        if not folder and not (suffix in _ALONE_SUFFIXES and (said == "c" or _SAID_CONFIG.search(said))):
            continue
        if suffix in ("json", "py", "sh") and not _SAID_CONFIG.search(said + " " + folder):
            continue
        yield path


def _words_of(name: str) -> list[str]:
    return [w for w in re.split(r"[._-]+", name.lower()) if w]


def _passed_finding(
    path: str,
    line: int,
    bases: Sequence[Path],
    top: Path,
    names: _Names,
    made_files: MadeFiles,
    made: set[str],
    patterns: list[tuple[Path, str]],
    dockerfiles: str,
    checkout: bool,
) -> tuple[str, str] | None:
    """(message, confidence) of the finding on a settings file `path` a command on README `line` is
    given (`_passed`) when its folder is one of the repository's holding other files of its suffix
    (`configs/7b-v0.1.yml`) and no folder holds a file of its name: the run stops at reading it. None
    for a placeholder, the reader's own file (`my_config.yaml`, `custom.yml`), a file a line above makes
    or tells to make, one git ignores, one in a generated or data folder, one a Dockerfile names.
    `certain` in a git checkout; outside one (a copy may hold some files only), `certain` when the folder
    holds a file of the same name but its last word (`7b-sh-32k-v0.1.yml` for `7b-sh-32k-base.yml`: the
    folder was copied as it is, the name changed), else `likely`."""
    if not plain_path(path) or _PLACEHOLDER.search(path) or "$" in path or USER_FILE.search(path):
        return None
    if OWN_FILE.search(path):
        return None
    parts = path.split("/")
    folder, name = "/".join(parts[:-1]), parts[-1]
    if any(p in GENERATED or p in _SITE_FOLDERS or p in _DATA_FOLDERS or p in made for p in parts[:-1]):
        return None
    if names.paths().get(name.lower()) or not names.complete or name in dockerfiles:
        return None
    suffix = name.rsplit(".", 1)[1].lower()
    family = {"yml", "yaml"} if suffix in ("yml", "yaml") else {suffix}
    for base in bases:
        where = inside(base / folder, top)
        if where is None or not os.path.isdir(where):
            continue
        if ignored(where / name, patterns) or made_files.before(path, line):
            return None
        try:
            siblings = sorted(
                e.name
                for e in os.scandir(where)
                if e.is_file(follow_symlinks=False) and e.name.rsplit(".", 1)[-1].lower() in family
            )
        except OSError:
            continue
        if not siblings:
            return None
        words = _words_of(name.rsplit(".", 1)[0])
        variant = [
            s
            for s in siblings
            if len(words) > 1 and _words_of(s.rsplit(".", 1)[0])[: len(words) - 1] == words[:-1]
        ]
        if not folder:
            # named alone: the folder the commands run in holds any settings files (a compose file, a
            # linter's); only one of its words, a variant or a template of it, tells which was meant
            if name in made:
                return None  # (a step of the README makes it: `cp train.example.yaml train.yaml`)
            variant = variant or [s for s in siblings if _words_of(s.rsplit(".", 1)[0])[:1] == words[:1]]
            if not variant:
                return None
        held = ", ".join(f"{folder}/{s}" if folder else s for s in (variant or siblings)[:4])
        return (
            f"README passes {path}, which does not exist in the repository: its folder holds {held}",
            LIKELY if not folder else CERTAIN if checkout or variant else LIKELY,
        )
    return None


_MANIFEST_SUFFIXES = frozenset({"yml", "yaml", "json"})
_APPLYING = {
    "kubectl": (frozenset({"apply", "create", "replace"}), frozenset({"-f", "--filename"})),
    "helm": (frozenset({"install", "upgrade", "template"}), frozenset({"-f", "--values"})),
    "docker-compose": (frozenset(), frozenset({"-f", "--file"})),
    "podman-compose": (frozenset(), frozenset({"-f", "--file"})),
    "conda": (frozenset({"create", "update"}), frozenset({"-f", "--file"})),
    "mamba": (frozenset({"create", "update"}), frozenset({"-f", "--file"})),
    "micromamba": (frozenset({"create", "update", "install"}), frozenset({"-f", "--file"})),
}
"""A command whose option gives it a file of the project to read: (its subcommands that read it, none for
any; the options)."""


def _applied(step: str) -> Iterator[tuple[str, str]]:
    """The files a step gives `kubectl apply|create|replace -f`, `helm install|upgrade|template -f|--values`,
    `docker compose -f` (`docker-compose`, `podman-compose`) or `conda env create|update -f` (`mamba`,
    `micromamba`: an environment file) to read: a relative path with a manifest
    suffix (`_MANIFEST_SUFFIXES`), not a URL, stdin (`-`), a folder, a glob or a variable: (the command
    and its option, `kubectl -f`; the path)."""
    prefix = _PREFIX.match(step)
    body = step[prefix.end() if prefix else 0 :].split(" #", 1)[0].strip()
    try:
        words = shell_split(body)
    except ValueError:
        return
    if len(words) < 2:
        return
    name, args = posixpath.basename(words[0]), words[1:]
    if name in ("docker", "podman") and args[0] == "compose":
        name, args = f"{name}-compose", args[1:]
    if name not in _APPLYING:
        return
    subcommands, options = _APPLYING[name]
    if subcommands and not subcommands & set(args):
        return
    for index, word in enumerate(args):
        option, equals, value = word.partition("=")
        if option not in options:
            continue
        if not equals:
            value = args[index + 1] if index + 1 < len(args) else ""
        base = value.rsplit("/", 1)[-1]
        suffix = base.rsplit(".", 1)[1].lower() if "." in base.strip(".") else ""
        if (
            suffix not in _MANIFEST_SUFFIXES
            or value.startswith(("/", "~"))
            or re.search(r"://|[$*?{<\[]", value)
        ):
            continue
        yield f"{name.replace('-compose', ' compose')} {option}", value.removeprefix("./")


def _near_manifests(name: str, names: _Names) -> list[str]:
    """The repository's files of the suffix of `name` whose names are a slip from it: the words of one
    all in the other, two at least (`device-plugin.yml` for `vgpu-device-plugin.yml`), or a slip of a
    letter or a version (`_slip`: `servce.yaml` for `service.yaml`, `launcher.yml` for `launcher.yaml`)."""
    stem, _, suffix = name.lower().rpartition(".")
    family = ("yml", "yaml") if suffix in ("yml", "yaml") else (suffix,)
    words = set(_words_of(stem))
    found: list[str] = []
    for other, paths in names.paths().items():
        other_stem, _, other_suffix = other.rpartition(".")
        if other_suffix not in family or not other_stem:
            continue
        theirs = set(_words_of(other_stem))
        if len(words & theirs) >= 2 and (theirs <= words or words <= theirs) or _slip(name.lower(), other):
            found.extend(paths)
    return sorted(found)


def _applied_finding(
    given: str,
    path: str,
    line: int,
    bases: Sequence[Path],
    top: Path,
    names: _Names,
    made_files: MadeFiles,
    made: set[str],
    patterns: list[tuple[Path, str]],
    moved: bool,
    checkout: bool = False,
    scripts: Sequence[str] = (),
) -> tuple[str, str] | None:
    """(message, confidence) of the finding on a manifest or values file a `kubectl apply -f`, `helm -f`
    or `docker compose -f` on README `line` reads (`_applied`) that no folder of the repository holds by
    name while it holds one a slip from it (`_near_manifests`: the file renamed), or that is not where the
    command runs from (the README's folder or the repository's root, no `cd` before) while another folder
    holds a file of its name (moved): `likely`, the README may mean a file the reader writes; in a git
    checkout, `certain` when the one file meant is a slip of a letter or a version away (`_slipped_name`:
    `servce.yaml` for `service.yaml`), a name no reader gives their own file. None for a
    placeholder, the reader's own file (`my-values.yaml`, `custom.yaml`), a file a line above makes, one
    git ignores, one in a generated folder. `scripts`: the texts of the scripts the README ran before
    (one naming the file may write it)."""
    if not plain_path(path) or _PLACEHOLDER.search(path) or USER_FILE.search(path) or OWN_FILE.search(path):
        return None
    parts = path.split("/")
    name = parts[-1]
    if any(p in GENERATED or p in _SITE_FOLDERS or p in made for p in parts[:-1]):
        return None
    held = names.paths().get(name.lower())
    if (held and moved) or not names.complete or made_files.before(name, line):
        return None
    for base in bases:
        place = inside(base / path, top)
        if place is None or os.path.exists(place) or ignored(place, patterns):
            return None
    if made_files.before(path, line):
        # a line above makes its folder (`mkdir k8s`), or words that tell of a folder of its name (`run
        # this inside the k8s directory`): a file of the repository named nowhere is still missing
        if held or "/" not in path or _near_manifests(name, names):
            return None
        return _nowhere_applied(given, path, bases, top, checkout, scripts)
    if held:
        return (
            f"README gives {path} to {given}, which is not in the folder the command runs in (the repository "
            f"has {' and '.join(sorted(held)[:3])})",
            LIKELY,
        )
    near = _near_manifests(name, names)
    if not near:
        return _nowhere_applied(given, path, bases, top, checkout, scripts)
    slipped = _slipped_name(path, names)  # `servce.yaml`: no file the reader writes is named so
    return (
        f"README gives {path} to {given}, which does not exist in the repository (did you mean "
        f"{' or '.join(near[:3])}?)",
        CERTAIN if checkout and slipped is not None and near == [slipped] else LIKELY,
    )


def _nowhere_applied(
    given: str, path: str, bases: Sequence[Path], top: Path, checkout: bool, scripts: Sequence[str] = ()
) -> tuple[str, str] | None:
    """The finding on a manifest `kubectl -f`, `helm -f` or `conda env create -f` is given by a path with
    a folder (`k8s/pv-pvc.yaml`, not a bare name the reader may have downloaded) that a git checkout holds
    nowhere, by its name in no folder either (`_applied_finding` has looked): the command stops, the
    path does not exist. `likely`: a step docgen does not read may write it. None outside a checkout (a
    copy need not hold every file), for a compose file (`compose_builds` reads those), for a bare
    name, and when a script the README ran before (`scripts`, their texts) names the file: it may write
    it (`./render.sh` writing `k8s/serving.yaml`)."""
    if not checkout or "compose" in given or "/" not in path:
        return None
    name = re.compile(rf"(?<![\w.-]){re.escape(posixpath.basename(path))}(?![\w-])")
    if any(name.search(text) for text in scripts):
        return None
    folder = posixpath.dirname(path)
    held = any((f := inside(base / folder, top)) is not None and os.path.isdir(f) for base in bases)
    where = f"{folder}/ holds no {posixpath.basename(path)}" if held else f"there is no folder {folder}/"
    return (
        f"README gives {path} to {given}, which the git checkout holds nowhere ({where}, and no folder "
        f"holds a file of its name): {given.split()[0]} stops, the file does not exist",
        LIKELY,
    )


def _script_texts(path: str, bases: Sequence[Path], top: Path) -> list[str]:
    """The text of the script a step runs by `path`, from the first folder of `bases` that holds it
    (none when no folder does: its absence is another rule's finding)."""
    for base in bases:
        place = inside(base / path, top)
        if place is not None and os.path.isfile(place):
            return [text_or_none(place, MAX_PROJECT_FILE_BYTES) or ""]
    return []


_NAMED_KINDS = frozenset(
    "py sh bash zsh ps1 bat ipynb yml yaml json toml cfg ini conf patch diff cmake mk c cc cpp h hpp cu js"
    " ts go rs java rb lua sql proto".split()
)
"""Suffixes of a source, settings or script file: committed files a README names, not a run's outputs,
data, logs or downloads (`.log`, `.csv`, `.bin`, `.pt`, `.txt`)."""
_BARE_KINDS = frozenset("py sh bash zsh ps1 bat ipynb patch diff".split())
"""Suffixes of a file named alone, with no folder, that is the repository's: a script, a notebook, a
patch. A settings file named alone (`config.json`, `train.yaml`) may be a model's, a run's or another
folder's."""
_SOURCED = re.compile(
    r"\A(?:source|\.|bash|sh|zsh|python3?|cat)[ \t]+(?:\./)?([\w.+-]+(?:/[\w.+-]+)+)(?:[ \t]|\Z)"
)
"""A command in inline code whose first operand is a file of the checkout read with a folder
(`source hydra/tab_completion_bash x.py`): named with no suffix, it is still a file."""
_LISTED_PATH = re.compile(r"[ \t]*[-*+][ \t]+(?:\./)?([\w.+-]+(?:/[\w.+-]+)+)[ \t]+(?:-|–|—|:)[ \t]+\S")
"""A list item that starts with a file's path, plain, and says what it is (`* hacks/x.patch - adds …`)."""
_LABELLED_FILE = re.compile(
    r"[ \t]*[-*+][ \t]+(?:\*\*)?[\w.-]+(?:[ \t]+[\w.-]+){0,2}(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]+"
    r"(`?)(?:\./)?([\w.+-]+(?:/[\w.+-]+)*\.[A-Za-z]\w*)\1[ \t]*\Z"
)
"""A list item naming one file under a label of what it is for, and nothing else (`- requirements.txt:
requirements_torch_2.0.1.txt`, `- Setup script: setup.sh`): the file the item is about."""
_REQUIREMENTS = re.compile(r"(?:requirements|constraints)[\w.+-]*\.txt\Z", re.IGNORECASE)
"""A pip requirements or constraints list (`requirements_torch_2.0.1.txt`): committed, unlike other `.txt`."""
_NOT_THERE_YET = re.compile(
    r"\b(?:creat|generat|renam|produc|output|export|dump|download|fetch|compil|sav|writ|wrot|cop|mov"
    r"|add(?:ed|ing)?\b|your|own|will[ \t]+be|gets?[ \t]+made|appears?|e\.g\b|for[ \t]+example|such[ \t]+as"
    r"|previous|formerly|removed|deprecated|no[ \t]+longer|replaced|renamed|was[ \t]+moved|used[ \t]+to"
    r"|next[ \t]+(?:release|version)|upcoming|planned|coming[ \t]+soon|future"
    r"|will[ \t]+(?:add|ship|come))\w*",
    re.IGNORECASE,
)
"""Words of a line saying a file is made (by the reader, a build, a run or a download), an example, the
reader's own, history or plans (`The next release is train_v2.py`): such a path need not be in the
checkout."""
_OTHER_WORDS = re.compile(
    r"://|\b(?:upstream|fork(?:ed)?|submodule|repo(?:sitory)?[ \t]+of)\b|[\w-]+/[\w.-]+@"
    r"|\btheir[ \t]+(?:own[ \t]+)?(?:repo(?:sitory|sitories)?|projects?|code(?:base)?|docs?|documentation"
    r"|sources?|web[ \t]?site|site|readme|github|packages?|library|instructions|guides?|examples?)\b",
    re.I,
)
"""Words of a line naming another project (an address, `upstream`, `their repository`, a submodule); not
`their` of anything else (`the endpoints and their usage`)."""
_HISTORY_HEADINGS = re.compile(r"change|history|release|news|migrat|roadmap|todo|future|plan", re.IGNORECASE)
"""Headings of sections about the past or the future: a path there need not be in the checkout now."""


def _named_paths(doc: Document) -> Iterator[tuple[int, str, str, bool]]:
    """(README line, path, words, read by a command) of each repository path the prose names: a code
    span that is a path, or the file a command in a code span reads (`_SOURCED`), with the sentence
    holding it (`_sentence`); a plain path opening a list item that describes it (`_LISTED_PATH`), and the
    one plain file a list item names under a label (`_LABELLED_FILE`), with the item. Not under a
    heading of history or plans."""
    for para in doc.paragraphs:
        if _HISTORY_HEADINGS.search(para.heading):
            continue
        for line, text in para.lines:
            listed = _LISTED_PATH.match(text)
            if listed is not None:
                yield line, listed.group(1), text, False
            labelled = _LABELLED_FILE.match(text)
            if labelled is not None and not labelled.group(1):  # (in code: read with the spans below)
                yield line, labelled.group(2), text, False
            if "`" not in text:
                continue
            stops = [(m.start(), m.end()) for m in _SENTENCE_END.finditer(text)]
            for start, end, code in code_spans(text):
                code = code.strip()
                sourced = _SOURCED.match(code)
                if sourced is not None:
                    yield line, sourced.group(1), _sentence(text, stops, start, end), True
                elif code and not any(c.isspace() for c in code):
                    yield line, code, _sentence(text, stops, start, end), False


_CONTENTS_OF = re.compile(
    r"\b(?:cop(?:y|ies|ied|ying)|past(?:e|es|ed|ing)|tak(?:e|es|ing)|us(?:e|es|ing)|insert(?:s|ed|ing)?)"
    r"[ \t]+(?:over[ \t]+)?(?:all[ \t]+)?(?:of[ \t]+)?(?:the[ \t]+)?contents?[ \t]+(?:of|from|in)[ \t]+"
    r"(?:the[ \t]+)?(?:file[ \t]+)?[`\"'*]*(?:\./)?([\w.+-]+(?:/[\w.+-]+)*\.[A-Za-z]\w*)(?![\w/-])",
    re.IGNORECASE,
)
"""Words telling the reader to take a file's contents (`copy the contents of KITTI00_02_for_stereo.yaml`,
`paste the content from `config/base.json``): the file is one the reader has, a file of the repository,
even named alone."""


def _contents_sources(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(README line, path, the line's other words) of each file the prose or a line of a block tells
    the reader to take the contents of (`_CONTENTS_OF`): `vim ./KITTI00-02.yaml (then, copy the contents
    of KITTI00_02_for_stereo.yaml)`. The words around it, not the phrase, tell whether it is made, the
    reader's or another project's."""
    lines = [line for para in doc.paragraphs for line in para.lines]
    lines += [line for fence in doc.fences for line in fence.lines]
    for number, text in lines:
        if "ontent" not in text:
            continue
        for match in _CONTENTS_OF.finditer(text):
            yield number, match.group(1).rstrip("."), text[: match.start()] + text[match.end() :]


_SENTENCE_END = re.compile(r"[.!?][\"')\]]*[ \t]+(?=[A-Z])")
"""Where a sentence of a line ends: `.`, `!` or `?` (a closing quote or bracket after it), blanks, then a
capital (not `e.g. `x``, not the `.` of a file's name)."""


def _sentence(text: str, stops: Sequence[tuple[int, int]], start: int, end: int) -> str:
    """The sentence of the line `text` (its sentence ends `stops`, in order) holding its characters
    `start` to `end` (a code span): the words that say whether the path is made, another project's or
    history (`The server provides endpoints for generating images. Refer to the `server.py` file …` is
    read from `Refer`). Found by bisection: a line of thousands of spans is not read once a span."""
    after = bisect.bisect_left(stops, (start, -1))
    first = stops[after - 1][1] if after else 0
    last = max(stops[after][1], end) if after < len(stops) else len(text)
    return text[first:last]


def named_nowhere(
    doc: Document,
    source: Sequence[str],
    directory: Path,
    models: Sequence[ImageModel],
    readme: str,
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A path of the repository the README's prose names (`` the model catalog is
    `configs/model_config.yaml` ``, `` `source hydra/tab_completion_bash` ``, `* hacks/x.patch - adds
    …`) that a git checkout holds nowhere: neither the path nor any file of its name. Only in a git
    checkout, whose tree is the whole repository (a copy of a README may hold some of its files only).
    A relative path with a folder and a source, settings or script suffix (`_NAMED_KINDS`) or a pip
    requirements list's name (`_REQUIREMENTS`), a bare file name of a script's suffix (`_BARE_KINDS`) or
    a requirements list's, or the file a command in a code span reads (`_SOURCED`); not a placeholder,
    the reader's own file, a path the Dockerfiles name (the image's, made or cloned there), a path in a
    generated or data folder, git-ignored, one a command of the README makes, words saying it is made,
    an example, another project's (an address, a clone's folder) or history (`_NOT_THERE_YET`,
    `_OTHER_WORDS`: of the sentence naming a path in code, else of the line), nor on a line run in the
    container. A file the reader is told to take the contents of (`copy the contents of
    KITTI00_02_for_stereo.yaml`, in the prose or a line of a block: `_contents_sources`) is read too,
    named alone with any of those suffixes. `certain` when the path's folder is there and
    holds other files of its suffix, else `likely`."""
    here = directory.resolve()
    if not any(os.path.exists(folder / ".git") for folder in (here, *here.parents)):
        return
    top = project_top(directory, project)
    root = repository_root(directory)
    if root is None or not root.is_relative_to(top):
        root = top
    names = _names_of(root)
    patterns: list[tuple[Path, str]] | None = None
    made: set[str] | None = None
    clones: set[str] | None = None
    dockerfiles: str | None = None
    made_files: MadeFiles | None = None
    submodules = Submodules(doc)
    seen: set[str] = set()
    bases = list(dict.fromkeys([here, root]))
    named = [(line, code, text, command, False) for line, code, text, command in _named_paths(doc)]
    named += [(line, code, text, False, True) for line, code, text in _contents_sources(doc)]
    for line, code, text, command, contents in named:
        path = code.removeprefix("./")
        if (
            path in seen
            or not PATH.fullmatch(path)
            or path.startswith(("/", "~", ".."))
            or path.endswith("/")
        ):
            continue
        if (
            DOMAIN.match(path)
            or PLACEHOLDER.search(path)
            or _PLACEHOLDER.search(path)
            or USER_FILE.search(path)
        ):
            continue
        name = path.rsplit("/", 1)[-1]
        suffix = name.rsplit(".", 1)[1].lower() if "." in name.strip(".") else ""
        listing = _REQUIREMENTS.match(name) is not None
        if "/" not in path and suffix not in _BARE_KINDS and not listing and not contents:
            continue  # (a settings file named alone may be any folder's, but one the reader copies from)
        if suffix not in _NAMED_KINDS and not listing and not (command and not suffix):
            continue  # (a bare `owner/name` span is a model, an image, a repository: only a command's file)
        if name.startswith(".") or "." in path.split("/")[0][:1]:
            continue  # (`.env`, `.github/…`: hidden files a copy or a tool makes)
        if any(os.path.exists(base / path) for base in bases):
            continue
        seen.add(path)
        if not names.complete or names.paths().get(name.lower()):
            continue  # (the file is in the checkout, elsewhere: another rule's)
        parts = path.split("/")
        if any(p in GENERATED or p in _SITE_FOLDERS or p in _DATA_FOLDERS for p in parts[:-1]):
            continue
        if _NOT_THERE_YET.search(text) or _OTHER_WORDS.search(text) or IN_MACHINE.search(text):
            continue
        if dockerfiles is None:
            dockerfiles = "\n".join(text_or_none(Path(m.file)) or "" for m in models if m.file)
        if name in dockerfiles or (
            len(parts) > 1
            and f"{parts[0]}/" in dockerfiles
            and not any(os.path.isdir(base / parts[0]) for base in bases)
        ):
            continue  # (a file of the image, or a folder the image has and the checkout lacks: made there)
        if made is None:
            made = _made_by_steps(doc) | made_names(doc)
            clones = _clone_folders(doc, own_clones(doc, directory))
            made_files = MadeFiles(source)
            patterns = gitignore_patterns([here, root], root)
        assert clones is not None and made_files is not None and patterns is not None
        # (a folder of the checkout is not made by a step: only the file's name is looked for then)
        kept = len(parts) > 1 and any(os.path.isdir(base / parts[0]) for base in bases)
        if any(p in made or p in clones for p in parts[int(kept) :]) or made_files.before(
            name if kept else path, line
        ):
            continue
        if ignored(root / path, patterns) or any(submodules.holds(b / path, b) for b in bases):
            continue
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        siblings = False
        if folder and suffix:
            place = inside(root / folder, top)
            try:
                siblings = place is not None and any(
                    e.name.lower().endswith(f".{suffix}") for e in os.scandir(place) if e.is_file()
                )
            except (OSError, ValueError):
                siblings = False
        if siblings:
            said = (
                f"{folder}/ holds other .{suffix} files, not this one, and no folder holds a file of its name"
            )
        elif folder and not any(os.path.isdir(base / folder) for base in bases):
            said = f"the checkout has no {folder}/ folder and no file {name} anywhere"
        else:
            said = f"no file {name} is anywhere in the checkout"
        yield Diagnostic(
            readme,
            line,
            f"README names {path}, which the repository does not hold: {said}",
            confidence=CERTAIN if siblings else LIKELY,
        )


def named_path(finding: Diagnostic) -> str:
    """The path a `named_nowhere` finding is about (`README names PATH, which …`)."""
    return finding.message.removeprefix("README names ").split(",", 1)[0]
