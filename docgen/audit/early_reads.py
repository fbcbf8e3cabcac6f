"""A RUN that reads a file of the build context before the Dockerfile brings it into the image: `RUN
conda env create -f conda_env.yml` at line 53 and `COPY lama/conda_env.yml .` at line 57, in the same
folder. No earlier step of the stage (nor of the stages it is built on) put the file there, so the
command finds none ("No such file or directory", conda's `EnvironmentFileNotFound`) and the RUN fails
(`broken_runs` tells it, for a README build of the Dockerfile).

Read per stage of the build, in order, with the working folder each WORKDIR and `cd` gives (a stage
built on another starts from its folder and its steps). A read is a file operand of a command whose
failure the RUN returns (joined to the RUN's end by `&&` only, or after `set -e`; not after `||`, not in
a pipe, `if` or loop): `pip install -r|-c F` (`uv pip`, `python -m pip`), `conda|mamba|micromamba …
-f|--file F`, `bash|sh|source|. F`, `python F.py` (`perl`, `Rscript`, `node`, `ruby`), `./F`, `chmod
MODE F`, `cat F`, `cp|mv F …`, `tar -xf F`, `unzip F`, `dpkg -i F`, `git apply F`, `patch -i F`, `< F`,
and a local wheel, archive or package `pip install F.whl` (`apt-get install ./F.deb`). It counts only when
a LATER COPY or ADD of the build context in the same stage brings that very path (its name into the
folder, or a folder of the context holding it: `COPY . .`): what the author meant to read.

Left alone (an earlier step may have put it there): a COPY or ADD (of the context, of a stage or image
with `--from`, a URL) whose destination is the path or a folder above it, unless each of its sources is a
file of another name; a RUN mentioning the file's name, or cloning, unpacking, copying, moving or
syncing into its folder or one above it, or in a folder it cannot tell (`cd $DIR`); a `--mount` whose
target is the path or a folder above it; a path with a variable, glob or `~`; a WORKDIR or `cd` it
cannot tell; an exec-form or heredoc RUN, one under a SHELL that is not a POSIX shell, one the shell
reader cannot read.

`certain` when the base image cannot hold the file: the build starts from a plain OS or language image
(`plain_bases.plain_base`) and the path is outside the folders the system fills (`/usr`, `/etc`, …),
or the path is relative and its folder is one a WORKDIR of the build names that no base fills (not `/`,
`/app`, `/workspace`, a home, a system folder) on a base the README does not build itself; `likely`
otherwise (the base image may ship the file).

A `-r` or `-c` line of a requirements file the RUN reads, which an earlier COPY put in the image (read
from the build context), names a file pip reads from that file's folder: it is read the same way
(`requirements-dev.txt` copied, its `-r requirements.txt` brought only by a later `COPY . .`).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from docgen.audit.commands import last_name
from docgen.audit.plain_bases import plain_base
from docgen.copied import placed, put_paths
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.model import ContextCopy, ImageModel, Instruction, ParsedDockerfile, Stage
from docgen.shell import COMPOUND_WORDS, POSIX_SHELLS, ShToken, sh_tokens
from docgen.stages import built_stages

_SEPARATORS = frozenset(("&&", "||", ";", "|", "&", "|&", "(", ")", ";;"))
_REDIRECTS = frozenset((">", ">>", "<", "<<", ">&", "<&", "<>", ">|"))
_PLAIN_PATH = re.compile(r"[\w@%+=:,./-]+")
"""A path written plainly: no variable, glob, `~` or substitution."""
_OS_FOLDERS = frozenset("usr etc var lib lib32 lib64 libx32 bin sbin proc sys dev run boot".split())
"""First folders of a path the system of a plain image fills."""
_GENERIC_FOLDERS = frozenset(
    "/ /app /apps /workspace /workspaces /work /src /code /opt /srv /data /project /projects /root /home /tmp"
    " /usr/src/app /usr/src /opt/app /build".split()
)
"""Working folders a base image may already fill (a vendor's `/workspace`, a project's own `/app`)."""
_FILLS = frozenset("git svn hg tar bsdtar unzip 7z 7za cp mv rsync ln cpio rclone gsutil aws".split())
"""Programs that put files whose names a RUN does not spell (a clone, an archive, a folder copied)."""
_PIP = re.compile(r"pip[\d.]*")
_PYTHON = re.compile(r"python[\d.]*")
_CONDA = frozenset(("conda", "mamba", "micromamba"))
_SHELLS = frozenset(("bash", "sh", "dash", "zsh", "ash", "ksh"))
_SCRIPT_RUNNERS = frozenset(("perl", "ruby", "node", "Rscript"))
_ARCHIVE = re.compile(r"\.(?:tar|tgz|tbz2?|txz|tar\.\w+)\Z")
"""A local archive ADD unpacks into its destination."""
_PROJECT_FILES = ("pyproject.toml", "setup.py")
"""What a project install of a folder reads in it (`pip install -e .`)."""
_PACKAGES = re.compile(r".+\.(?:whl|deb|rpm|tar\.gz|tgz|zip)")
"""A local package file an installer reads (`./dist/app-1.0-py3-none-any.whl`, `./pkg.deb`)."""


@dataclass(frozen=True)
class EarlyRead:
    """A file a RUN reads before a later COPY or ADD of its stage brings it."""

    run: Instruction
    """The RUN that reads it."""
    command: str
    """The command as written (`conda env create -y -n lama -f conda_env.yml`)."""
    word: str
    """The file as the command names it (`conda_env.yml`)."""
    path: str
    """Where the command reads it in the image (`/opt/app/conda_env.yml`)."""
    copy_line: int
    """The Dockerfile line of the later COPY or ADD that brings it."""
    copy_keyword: str
    """`COPY` or `ADD`."""
    certain: bool
    """True when the base image cannot hold it (see the module)."""
    via: str = ""
    """For a file a requirements file the command reads names (`-r base.txt` on its line 1), that
    line as `requirements-dev.txt:1`; '' when the command names the file itself."""


@dataclass(frozen=True)
class _Command:
    words: list[str]
    before: str
    after: str
    redirects: list[tuple[str, str]]


def _commands(tokens: Sequence[ShToken]) -> Iterator[_Command]:
    """Each simple command: its words, the operators before and after it, its redirections."""
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    before = ";"
    pending = ""
    for token in [*tokens, ShToken(";", True)]:
        if token.operator and token.text in _REDIRECTS:
            pending = token.text
            continue
        if not token.operator:
            if pending:
                redirects.append((pending, token.text))
                pending = ""
            else:
                words.append(token.text)
            continue
        if token.text not in _SEPARATORS:
            continue
        if words or redirects:
            yield _Command(words, before, token.text, redirects)
        words, redirects = [], []
        before = token.text


def _plain(word: str) -> str | None:
    """`word` without its quotes when it is a plain path (no variable, glob or `~`); None otherwise."""
    word = word.strip("\"'")
    return word if word and not word.startswith("-") and _PLAIN_PATH.fullmatch(word) else None


def _program(words: list[str]) -> list[str]:
    """The words from the program on: `sudo`, `exec`, `time`, `env` and assignments left out."""
    at = 0
    while at < len(words) and (
        words[at] in ("sudo", "exec", "time", "nohup", "env", "command")
        or re.fullmatch(r"[A-Za-z_]\w*=\S*", words[at])
    ):
        at += 1
    return words[at:]


def _option_values(rest: Sequence[str], short: str, long: str) -> Iterator[str]:
    """The values of `-X F`, `-XF`, `--long F` and `--long=F` among `rest`."""
    for at, word in enumerate(rest):
        if word in (short, long) and at + 1 < len(rest):
            yield rest[at + 1]
        elif word.startswith(long + "="):
            yield word.partition("=")[2]
        elif short and word.startswith(short) and len(word) > len(short) and not word.startswith("--"):
            yield word[len(short) :]


def _operands(rest: Sequence[str]) -> list[str]:
    return [w for w in rest if not w.startswith("-")]


def _pip_install(words: list[str]) -> list[str] | None:
    """The words after `install` of a pip command (`pip3`, `python -m pip`, `uv pip`); None for another."""
    words = _program(words)
    program, rest = (words[0], list(words[1:])) if words else ("", [])
    if _PYTHON.fullmatch(program) and rest[:2] == ["-m", "pip"]:
        program, rest = "pip", rest[2:]
    if program == "uv" and rest[:1] == ["pip"]:
        program, rest = "pip", rest[1:]
    return rest[1:] if _PIP.fullmatch(program.rsplit("/", 1)[-1]) and rest[:1] == ["install"] else None


def requirement_files(words: list[str]) -> list[str]:
    """The requirements and constraints files a pip install reads (`-r F`, `-c F`), as written."""
    rest = _pip_install(words)
    if rest is None:
        return []
    return [*_option_values(rest, "-r", "--requirement"), *_option_values(rest, "-c", "--constraint")]


_NESTED = re.compile(r"[ \t]*(?:-r|--requirement|-c|--constraint)(?:[ \t]+|=)(\S+)[ \t]*(?:#.*)?")
"""A line of a requirements file that reads another (`-r base.txt`), relative to its own folder."""


def read_files(words: list[str]) -> list[str]:
    """The files a simple command reads by name (as written), of the kinds the module lists."""
    words = _program(words)
    if not words:
        return []
    program = words[0].rsplit("/", 1)[-1] if words[0].startswith("/") else words[0]
    rest = list(words[1:])
    if _PYTHON.fullmatch(program) and rest[:2] == ["-m", "pip"]:
        program, rest = "pip", rest[2:]
    if program == "uv" and rest[:1] == ["pip"]:
        program, rest = "pip", rest[1:]
    if (installed := _pip_install(words)) is not None:
        files = requirement_files(words)
        operands = [w.strip("\"'") for w in _operands(installed)]
        project = ["."] if any(re.fullmatch(r"\.(?:/)?(?:\[[\w,-]+\])?", w) for w in operands) else []
        return files + [w for w in operands if _PACKAGES.fullmatch(w)] + project
    if program in _CONDA:
        if not {"create", "install", "update"} & set(rest[:2]):
            return []
        named = list(_option_values(rest, "-f", "--file"))
        return named or (["environment.yml"] if rest[:2] == ["env", "create"] else [])
    if program in ("apt-get", "apt") and rest[:1] == ["install"] or program == "dpkg" and "-i" in rest:
        return [w for w in _operands(rest) if w.startswith("./") and _PACKAGES.fullmatch(w.strip("\"'"))]
    if program in _SHELLS or program in ("source", "."):
        if program in _SHELLS and any(w.startswith("-") and "c" in w.lstrip("-") for w in rest[:3]):
            return []  # `bash -c '…'`: a command, not a file
        operands = _operands(rest)
        return operands[:1]
    if _PYTHON.fullmatch(program) or program in _SCRIPT_RUNNERS:
        if any(w in ("-m", "-c", "-e", "--eval") for w in rest):
            return []
        operands = _operands(rest)
        return operands[:1] if operands and "." in operands[0].rsplit("/", 1)[-1] else []
    if words[0].startswith("./") and len(words[0]) > 2:
        return [words[0]]
    if program == "chmod":
        operands = _operands(rest)
        return (
            operands[1:]
            if operands and re.fullmatch(r"[0-7]{3,4}|[ugoa]*[-+=][rwxXst]+", operands[0])
            else []
        )
    if program == "cat":
        return _operands(rest)
    if program in ("cp", "mv"):
        operands = _operands(rest)
        if any(w in ("-t", "--target-directory") or w.startswith("--target") for w in rest):
            return []
        return operands[:-1]
    if program == "tar" and rest and re.fullmatch(r"-?[a-zA-Z]*x[a-zA-Z]*f", rest[0]):
        return rest[1:2]
    if program == "unzip":
        return _operands(rest)[:1]
    if program == "git" and rest[:1] == ["apply"]:
        return _operands(rest[1:])
    if program == "patch":
        return list(_option_values(rest, "-i", "--input"))
    return []


def _moved(folder: str | None, to: str) -> str | None:
    """The folder `cd to` leads to from `folder`; None when it cannot be told."""
    if folder is None or not to or re.search(r"[$`~*?]", to) or to == "-":
        return None
    return posixpath.normpath(posixpath.join(folder, to))


def _under(path: str, folder: str) -> bool:
    """True when `path` is `folder` or below it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@dataclass
class _Step:
    """One instruction of a stage's chain, with the working folder it runs in."""

    inst: Instruction
    workdir: str | None
    copy: ContextCopy | None
    """Its copy of the build context (`ImageModel.context_copies`), when it is one."""
    workdir_made: bool = False
    """True when a WORKDIR of the chain set `workdir`."""
    _puts: list[tuple[str, bool]] | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def script(self) -> str:
        """The RUN's command and heredoc bodies, as one text (a step of a chain is asked of each file a
        later stage reads: what is read of it is read once)."""
        return self.inst.args + "".join(h.body for h in self.inst.heredocs)

    @functools.cached_property
    def commands(self) -> list[_Command] | None:
        """The commands of a shell-form RUN without heredocs; None when the shell reader cannot read it."""
        try:
            return list(_commands(sh_tokens(self.inst.args)))
        except ValueError:
            return None

    def puts(self, context: Path) -> list[tuple[str, bool]]:
        """`copied.put_paths` of the step's copy of the build context `context` (resolved; the same each
        time: a chain is read for one build), read once."""
        if self._puts is None:
            try:
                self._puts = put_paths(context, self.copy, self.workdir) if self.copy and self.workdir else []
            except (OSError, ValueError, NotImplementedError):
                self._puts = [("/", True)]  # `placed` raises on it too: asked, it answers
        return self._puts


def _shell_ok(parsed: ParsedDockerfile) -> bool:
    """True when every SHELL of the file runs a POSIX shell (a `bash -c` still reads `bash F`)."""
    for inst in parsed.instructions:
        if inst.keyword == "SHELL":
            first = (inst.exec_form or ("",))[0].rsplit("/", 1)[-1]
            if first not in POSIX_SHELLS:
                return False
    return True


def _chains(model: ImageModel, parsed: ParsedDockerfile) -> dict[int, tuple[int | None, list[_Step]]]:
    """Each stage's own steps, each with its folder, and the stage it is built on, whose steps come
    before them (`_chain`). Not each stage's whole chain: copying the chain of the stage before into
    each of 2,000 stages built on one another was n² steps."""
    copies = {copy.line: copy for copy in model.context_copies}
    chains: dict[int, tuple[int | None, list[_Step]]] = {}
    folders: dict[int, tuple[str | None, bool]] = {}
    for inst in parsed.instructions:
        stage = model.stage_at(inst.start_line)
        if stage is None:
            continue
        if stage.index not in chains:
            parent = stage.parent
            chains[stage.index] = (parent, [])
            folders[stage.index] = folders.get(parent, ("/", False)) if parent is not None else ("/", False)
        if inst.keyword == "FROM":
            continue
        if inst.keyword == "WORKDIR":
            folder = _moved(folders[stage.index][0], inst.args.strip().strip("\"'"))
            folders[stage.index] = (folder, folder is not None)
        workdir, made = folders[stage.index]
        chains[stage.index][1].append(_Step(inst, workdir, copies.get(inst.start_line), made))
    return chains


def _chain(chains: dict[int, tuple[int | None, list[_Step]]], index: int | None) -> list[_Step]:
    """The steps of the stage `index` (none for None): those of the stages it is built on, then its own."""
    parts: list[list[_Step]] = []
    while index is not None and len(parts) <= len(chains):
        index, own = chains.get(index, (None, []))
        parts.append(own)
    return [step for own in reversed(parts) for step in own]


def early_reads(
    model: ImageModel, parsed: ParsedDockerfile, context: Path | None, built: frozenset[str] = frozenset()
) -> Iterator[EarlyRead]:
    """Each RUN of a stage the build builds that reads a file a later COPY or ADD of its stage brings
    and no earlier step put there (see the module), at most one a stage (the build stops there), in
    the order of the Dockerfile's lines, each stage read only when the caller asks for the next.
    `context`: the build context's folder, to tell what a later `COPY . .` brings (None: not known);
    `built`: the last names of the images the README builds (`commands.tagged_names`): a base of one of
    them may hold any folder a WORKDIR names."""
    if parsed.escape != "\\" or not _shell_ok(parsed):
        return
    stages = built_stages(model)
    chains = _chains(model, parsed)
    roots: dict[int, Stage] = {}  # the stage each stage's chain starts from, by the one it is built on
    for index, (parent, steps) in chains.items():
        stage = model.stages[index]
        root = stage if parent is None else roots.get(parent)
        if root is None:
            root, seen = stage, 0
            while root.parent is not None and seen < len(model.stages):
                root, seen = model.stages[root.parent], seen + 1
        roots[index] = root
        if stage.label not in stages:
            continue
        plain = root.parent is None and "$" not in root.base and plain_base(root.base)
        own = root.parent is not None or "$" in root.base or last_name(root.base) in built
        found = _first_early(steps, functools.partial(_chain, chains, parent), context, plain, own)
        if found is not None:
            yield found


def _first_early(
    steps: list[_Step],
    built_on: Callable[[], list[_Step]],
    context: Path | None,
    plain: bool,
    own_base: bool = False,
) -> EarlyRead | None:
    """The first early read of a stage's own RUNs (`steps`); `built_on` gives the steps of the stages it
    is built on, read only for a RUN that reads a file (a chain of n stages: n² steps when each read them);
    `plain`: the stage's chain starts from a plain image, `own_base`: from one the README builds, or one not
    known."""
    own = {id(step) for step in steps}
    below = functools.cache(built_on)  # (read once, at the first RUN that needs it)

    def earlier(at: int) -> list[_Step]:
        return below() + steps[:at]

    for at, step in enumerate(steps):
        if step.inst.keyword != "RUN" or step.workdir is None:
            continue
        inst = step.inst
        if inst.exec_form is not None or inst.heredocs:
            continue
        try:
            tokens = sh_tokens(inst.args)
        except ValueError:
            continue
        compound = any(
            (not t.operator and t.text in COMPOUND_WORDS) or (t.operator and t.text in ("(", ")"))
            for t in tokens
        )
        if compound:
            continue
        commands = list(_commands(tokens))
        here: str | None = step.workdir
        errexit = False
        for number, command in enumerate(commands):
            words = _program(command.words)
            if words[:1] in (["cd"], ["pushd"]):
                here = _moved(here, words[1].strip("\"'")) if len(words) == 2 else None
                continue
            if words[:1] == ["set"] and any(re.fullmatch(r"-\w*e\w*", w) for w in words[1:]):
                errexit = True
            reads = [*read_files(command.words), *(w for op, w in command.redirects if op == "<")]
            returned = command.before not in ("||", "|", "|&") and all(
                c.after in ("&&", ";") if errexit else c.after == "&&" for c in commands[number:-1]
            )
            if not reads or here is None or not returned or command.after in ("|", "|&", "||", "&"):
                continue
            required = requirement_files(command.words)
            nested = _nested(required, here, earlier(at), context) if required else []
            for word, via in [*((w, "") for w in reads), *nested]:
                file = _plain(word)
                if file is None:
                    continue
                # a project install (`pip install -e .`) reads the folder's pyproject.toml or setup.py
                files = _PROJECT_FILES if file == "." else (file,)
                paths = [posixpath.normpath(posixpath.join(here, f)) for f in files]
                found = [(p, b) for p in paths if (b := _brought_later(steps[at + 1 :], own, p, context))]
                if not found or any(_mounted(inst, step.workdir, p) for p in paths):
                    continue
                if any(_may_put(s, p) for s in earlier(at) for p in paths) or any(
                    _put_before(commands[:number], step.workdir, p) for p in paths
                ):
                    continue
                path, brought = found[0]
                file = posixpath.basename(path) if file == "." else file
                sure = (plain and not _system(path)) or (
                    not file.startswith("/")
                    and here == step.workdir
                    and step.workdir_made
                    and not own_base
                    and posixpath.dirname(path) == here
                    and here not in _GENERIC_FOLDERS
                    and not _system(here)
                    and not here.startswith("/home/")
                )
                shown = " ".join(command.words)
                said = word.strip("\"'") if word.strip("\"'") != "." else file
                return EarlyRead(inst, shown, said, path, brought.start_line, brought.keyword, sure, via)
    return None


def _nested(
    requirements: Sequence[str], here: str, earlier: Sequence[_Step], context: Path | None
) -> list[tuple[str, str]]:
    """(the file as written, `file:line`) of each `-r`/`-c` line of the requirements files a pip
    install reads that an earlier COPY of the build context put in the image (`context`'s file), its
    path made relative to `here` as pip reads it from the requirements file's folder."""
    found: list[tuple[str, str]] = []
    if context is None:
        return found
    root = context.resolve()
    for word in requirements:
        file = _plain(word)
        if file is None:
            continue
        path = posixpath.normpath(posixpath.join(here, file))
        local = None
        for step in reversed(earlier):
            if step.copy is not None and step.workdir is not None:
                if not any(at == path or whole and _under(path, at) for at, whole in step.puts(root)):
                    continue  # (asking `placed` of every earlier copy reads the context again each time)
                try:
                    local = placed(root, step.copy, path, step.workdir)
                except (OSError, ValueError, NotImplementedError):
                    local = None
                if local is not None:
                    break
        text = text_or_none(local, MAX_PROJECT_FILE_BYTES) if local is not None and local.is_file() else None
        for number, line in enumerate((text or "").splitlines(), start=1):
            if (match := _NESTED.fullmatch(line)) is None or _plain(match.group(1)) is None:
                continue
            named = posixpath.normpath(posixpath.join(posixpath.dirname(path), match.group(1)))
            found.append((posixpath.relpath(named, here), f"{file}:{number}"))
    return found


def _system(path: str) -> bool:
    return path.strip("/").split("/")[0] in _OS_FOLDERS


def _brought_later(later: list[_Step], own: set[int], path: str, context: Path | None) -> Instruction | None:
    """The first later COPY or ADD of the build context in the stage that puts a file at
    `path`: a source of its name copied into its folder (or to that very path), or a folder of
    `context` holding it."""
    name = posixpath.basename(path)
    for step in later:
        if id(step) not in own or step.copy is None or step.workdir is None or step.copy.heredoc:
            continue
        copy = step.copy
        dest = copy.dest.strip("\"'")
        if "$" in dest:
            continue
        target = posixpath.normpath(posixpath.join(step.workdir, dest))
        for source in copy.sources:
            source = source.strip("\"'").rstrip("/")
            if "$" in source or "://" in source:
                continue
            if posixpath.basename(source) == name and target in (path, posixpath.dirname(path)):
                return step.inst
            if source in (".", "") and _under(path, target) and path != target:
                return step.inst  # (the whole context: a partial checkout may lack the file)
        if context is not None and _under(path, target):
            try:
                if placed(context.resolve(), copy, path, step.workdir) is not None:
                    return step.inst
            except (OSError, ValueError, NotImplementedError):
                continue
    return None


def _mounted(inst: Instruction, workdir: str | None, path: str) -> bool:
    """True when a `--mount` of the RUN shows something at `path` or a folder above it."""
    for flag in inst.flags_named("mount"):
        options = flag.options()
        target = options.get("target") or options.get("dst") or options.get("destination")
        if target is None or workdir is None or "$" in target:
            return True
        if _under(path, posixpath.normpath(posixpath.join(workdir, target))):
            return True
    return False


def _may_put(step: _Step, path: str) -> bool:
    """True when an earlier step may have put a file at `path` (see the module)."""
    inst = step.inst
    name = posixpath.basename(path)
    if inst.keyword in ("COPY", "ADD"):
        words = list(inst.exec_form) if inst.exec_form is not None else inst.args.split()
        if step.copy is not None:
            words = [*step.copy.sources, step.copy.dest]
        if len(words) < 2 or step.workdir is None:
            return True
        dest = words[-1].strip("\"'")
        if "$" in dest:
            return True
        target = posixpath.normpath(posixpath.join(step.workdir, dest))
        if not _under(path, target):
            return False
        for source in words[:-1]:
            source = source.strip("\"'").rstrip("/")
            base = posixpath.basename(source.split("://", 1)[-1])
            if inst.keyword == "ADD" and (_ARCHIVE.search(base) and "://" not in source or ".git" in source):
                return True  # a local archive ADD unpacks, a repository ADD clones
            if (
                base == name
                or fnmatchcase(name, base)
                or "." not in base
                or "$" in source
                or source in (".", "")
            ):
                return True  # a folder, a glob, the file itself, a name only the build knows
        return False
    if inst.keyword != "RUN":
        return False
    if name in step.script and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", step.script):
        return True
    if inst.exec_form is not None or inst.heredocs or step.commands is None:
        return True
    return _put_before(step.commands, step.workdir, path)


def _put_before(commands: Sequence[_Command], workdir: str | None, path: str) -> bool:
    """True when one of `commands`, run from `workdir`, may put a file at `path`: it names the file, or
    fills a folder that is `path`'s or one above it with files it does not name, or runs where the
    folder cannot be told."""
    name = posixpath.basename(path)
    here = workdir
    for command in commands:
        words = _program(command.words)
        if any(name in w for w in command.words) or any(name in w for _, w in command.redirects):
            return True
        if words[:1] in (["cd"], ["pushd"]):
            here = _moved(here, words[1].strip("\"'")) if len(words) == 2 else None
            continue
        if not words or words[0].rsplit("/", 1)[-1] not in _FILLS:
            continue
        if here is None:
            return True
        operands = [w.strip("\"'") for w in words[1:] if not w.startswith("-")]
        if words[0] == "git":
            if operands[:1] != ["clone"] or len(operands) < 2:
                continue
            cloned = posixpath.basename(operands[1].rstrip("/")).removesuffix(".git")
            places = operands[2:3] or [cloned]
        elif words[0] in ("tar", "bsdtar", "unzip", "7z", "7za", "cpio"):
            given = [w for w in words if w.startswith(("-C", "--directory", "-d", "-o"))]
            places = ["."] if not given else [operands[-1] if operands else "."]
            if given:
                return True  # (where `-C DIR` lands is read no further)
        else:
            places = operands[-1:] or ["."]
        for place in places:
            folder = _moved(here, place)
            if folder is None or _under(path, folder):
                return True
    return False
