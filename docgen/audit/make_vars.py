"""Variables a README passes to `make` that no makefile reads: `make build PYTHON_CUSTOM_VERSION=3.12`
while the Makefile (with the `common.mk` it includes) reads `CUSTOM_PYTHON_VERSION`. make takes the
value and nothing uses it: the build silently makes the default image.

A variable of the make command line reaches every makefile the build reads (the one `make` reads in
the folder the README's command runs in, the files it `include`s, the makefiles its recipes run `make`
in) and, in their environment, every command the recipes run. A name is unread when none of those
makefiles holds it as a word (`$(NAME)`, `ifdef NAME`, `$$NAME`, `--build-arg NAME`) and no script,
compose or bake file a recipe runs or reads holds it either. Only a name a slip away from a variable
the makefiles do read is told (its words reordered, one letter off, the same stem with another version
word), with that variable: `certain` when every makefile and every command of the build could be read,
`likely` when one could not (a sub-make in a folder the checkout lacks, a program docgen does not know
that may read its environment). A name make or its implicit rules read themselves (`CFLAGS`, `V`) is
not told; nor is anything when a makefile computes variable names (`$($(X)_VERSION)`).

Each makefile, script and file is read once; every pattern runs on one line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY, also_at
from docgen.audit.commands import without_prompt
from docgen.audit.make_targets import makefile_in, makefile_of, makefile_text
from docgen.audit.versions import near_names, one_slip
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic

MAKE = re.compile(
    r"(?:^|[;&|(][ \t]*|sudo[ \t]+)((?:[A-Za-z_][A-Za-z0-9_]*=[^\s;&|]*[ \t]+)*)make((?:[ \t]+[^\s;&|)#`]+)*)"
)
"""A `make` command, the `NAME=value` words before it and its own words."""
ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)")
_CD = re.compile(r"(?:^|&&|;)[ \t]*(?:pushd|cd)[ \t]+([^\s;&|]+)")
ELSEWHERE = re.compile(
    container_command("run|exec", DOCKER_PODMAN, container=False, compose=True)
    + r"|\bgit[ \t]+clone\b|\bssh[ \t]"
)
"""A command after which a block's commands may run elsewhere: in a container, a clone, a remote host."""
_BUILTIN = frozenset(
    "CC CXX CPP FC LD AR AS CFLAGS CXXFLAGS CPPFLAGS LDFLAGS LDLIBS ASFLAGS FFLAGS ARFLAGS TARGET_ARCH "
    "OUTPUT_OPTION RM MAKE MAKEFLAGS MAKEFILES MAKEOVERRIDES SHELL VPATH GPATH LEX YACC LFLAGS YFLAGS "
    "MAKEINFO TEX DESTDIR PREFIX V VERBOSE Q".split()
)
"""Variables make, its implicit rules or generated makefiles read without a makefile naming them."""
BLIND = frozenset(
    "echo printf mkdir cp mv rm rmdir ln cd touch cat tee test [ true false exit sleep ls chmod chown "
    "install sed awk grep egrep fgrep find tar gzip gunzip unzip zip wget curl git date head tail sort "
    "uniq wc cut tr basename dirname realpath readlink pwd which type export unset set : shift read dd "
    "cmp diff patch id whoami uname hostname nproc xargs fi done esac then else exit rsync scp du df "
    "docker podman buildah nerdctl skopeo".split()
)
"""Programs that read no variable of the make command line from their environment (a bare `docker
build --build-arg NAME` does, but names it, and the name is a word of the makefile)."""
INTERPRETERS = frozenset("sh bash zsh dash python python3 perl ruby node".split())
_ENV_FILES = re.compile(r"(?:docker-)?compose[\w.-]*\.ya?ml|docker-bake[\w.-]*\.(?:hcl|json)")
"""Files `docker compose` and `docker buildx bake` read variables of the environment into."""


@dataclass
class _Build:
    """What a `make` run from one folder reads, all its makefiles, scripts and files together."""

    shown: list[str] = field(default_factory=list)
    """The makefiles read, as the README's reader finds them."""
    words: set[str] = field(default_factory=set)
    variables: dict[str, str] = field(default_factory=dict)
    """The variables the makefiles set or read → where first (`common.mk:6`)."""
    computed: bool = False
    unknown: list[str] = field(default_factory=list)
    """What could not be read, in words (`pytorch/Makefile:9 runs make in ../base, which is not there`)."""


class _Reader:
    """Reads the makefiles a `make` command reads, and what their recipes run, each file once."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.seen: set[Path] = set()
        self.build = _Build()

    def shown(self, path: Path) -> str:
        return Path(os.path.relpath(path, self.directory)).as_posix()

    def read_makefile(
        self, path: Path, cwd: Path, outside: dict[str, tuple[str, int]]
    ) -> dict[str, tuple[str, int]]:
        """Reads the makefile at `path` run from `cwd`, the files it includes first; the variables they
        set, for what includes it."""
        key = real_path(path)
        if key in self.seen:
            return outside
        self.seen.add(key)
        text = makefile_text(path)
        if text is None:
            self.build.unknown.append(f"{self.shown(path)} cannot be read")
            return outside
        shown = self.shown(path)
        self.build.shown.append(shown)
        first = makefile.reading(text, outside)
        known = dict(outside)
        for written, optional, line in first.includes:
            if "$" in written:
                self.build.unknown.append(f"{shown}:{line} includes {written}")
                continue
            matches = sorted(cwd.glob(written)) if any(c in written for c in "*?[") else [cwd / written]
            for included in matches:
                if os.path.isfile(included):
                    known = self.read_makefile(included, cwd, known)
                elif not optional:
                    self.build.unknown.append(f"{shown}:{line} includes {written}, which is not there")
        read = makefile.reading(text, known) if known != outside else first
        self.build.words |= read.words
        self.build.computed |= read.computed
        for name, line in read.variables.items():
            self.build.variables.setdefault(name, f"{shown}:{line}")
        for command in read.commands:
            self.command(command, cwd, shown)
        return {**known, **read.assigned}

    def command(self, command: makefile.Command, cwd: Path, shown: str) -> None:
        """Reads what one command of a recipe may read of its environment."""
        words = [w.replace("$CURDIR", str(cwd)) for w in command.words]
        program = words[0]
        at = f"{shown}:{command.line}"
        if command.folder is not None or program in ("make", "gmake", "$MAKE") or program.endswith("/make"):
            if command.folder is None:
                self.build.unknown.append(f"{at} runs make in a folder docgen cannot tell")
                return
            sub = real_path(cwd / command.folder)
            files = [v for f, v in zip(words, words[1:], strict=False) if f in ("-f", "--file", "--makefile")]
            path = (sub / files[-1]) if files else makefile_in(sub)
            if path is None or not os.path.isfile(path):
                self.build.unknown.append(f"{at} runs make in {command.folder}, which is not there")
                return
            self.read_makefile(path, sub, {})
            return
        if program in ("docker-compose",) or (
            program in ("docker", "podman") and any(w in ("compose", "bake", "stack") for w in words[1:3])
        ):
            self.env_files(words, cwd, at)
            return
        if program in BLIND:
            return
        script = None
        if program in INTERPRETERS:
            rest = [w for w in words[1:] if not w.startswith("-")]
            if "-m" in words[1:] or "-c" in words[1:]:
                if "-m" in words[1:]:
                    self.build.unknown.append(f"{at} runs {' '.join(words[:3])}")
                return
            script = rest[0] if rest else None
        elif "/" in program or re.search(r"\.(?:sh|py|bash|pl|rb)\Z", program):
            script = program
        if script is None or "$" in script:
            self.build.unknown.append(f"{at} runs {program}")
            return
        self.file(cwd / script, at)

    def file(self, path: Path, at: str) -> None:
        """Reads the words of a script or file a recipe runs or reads."""
        key = real_path(path)
        if key in self.seen:
            return
        self.seen.add(key)
        text = text_or_none(path)
        if text is None:
            self.build.unknown.append(f"{at} runs {self.shown(path)}, which is not there")
            return
        self.build.words |= set(makefile.VARIABLE_NAME.findall(text))

    def env_files(self, words: list[str], cwd: Path, at: str) -> None:
        """Reads the compose or bake files a `docker compose` / `docker buildx bake` reads variables
        into: those its `-f` names, else those of the folder."""
        named = [v for f, v in zip(words, words[1:], strict=False) if f in ("-f", "--file")]
        paths = [cwd / n for n in named] if named else []
        if not paths:
            try:
                paths = sorted(p for p in cwd.iterdir() if _ENV_FILES.fullmatch(p.name))
            except OSError:
                paths = []
        if not paths:
            self.build.unknown.append(f"{at} runs {' '.join(words[:2])}")
        for path in paths:
            self.file(path, at)


def _near(name: str, variables: dict[str, str]) -> list[str]:
    """The variables of `variables` the name `name` is a slip from: its words in another order
    (`PYTHON_CUSTOM_VERSION`, `CUSTOM_PYTHON_VERSION`), one letter off, or `near_names`."""
    words = sorted(name.upper().split("_"))
    found = {v for v in variables if len(words) > 1 and v != name and sorted(v.upper().split("_")) == words}
    if len(name) >= 6:
        found |= {v for v in variables if one_slip(name, v)}
    found |= set(near_names(name, variables))
    return sorted(found)


@dataclass(frozen=True)
class _Call:
    """A `make` command of the README: its line, the folder it runs in (relative to the README's,
    '' for it), its makefile (`-f`, None for the one make finds) and the variables it passes."""

    line: int
    folder: str
    file: str | None
    passed: tuple[tuple[str, str], ...]


def _call(line: int, folder: str, before: str, words: list[str]) -> _Call | None:
    """The `_Call` of a make command's words (and the `NAME=value` words before it); None when it names
    no variable or runs in a folder that cannot be told."""
    passed = [(m.group(1), m.group(2)) for w in before.split() if (m := ASSIGNED.fullmatch(w))]
    file = None
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word in ("-C", "--directory", "-f", "--file", "--makefile") and at < len(words):
            value = words[at].strip("\"'")
            at += 1
            if "$" in value or value.startswith(("/", "~")):
                return None
            if word in ("-C", "--directory"):
                folder = os.path.normpath(os.path.join(folder, value)) if folder else value
            else:
                file = value
        elif (m := ASSIGNED.fullmatch(word)) is not None:
            passed.append((m.group(1), m.group(2)))
    return _Call(line, folder, file, tuple(passed)) if passed else None


def _calls(doc: Document) -> Iterator[_Call]:
    """The `make` commands of the README's command blocks, each with the folder the block's `cd` lines
    put it in, up to a `cd` that cannot be told or a command that moves elsewhere; and those written
    as inline code."""
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        folder: str | None = ""
        for line, text in fence.lines:
            command = without_prompt(text.strip())
            if command.startswith("#") or folder is None:
                continue
            if ELSEWHERE.search(command):
                break
            for part in re.split(r"&&|;|\|\|", command):
                cd = _CD.match(part)
                if cd is not None:
                    target = cd.group(1).strip("\"'")
                    if target.startswith(("$", "/", "~", "-")) or folder is None:
                        folder = None
                    else:
                        moved = os.path.normpath(os.path.join(folder, target))
                        folder = "" if moved == "." else moved
                    continue
                make = MAKE.search(part.strip())
                if make is not None and folder is not None:
                    found = _call(line, folder, make.group(1), make.group(2).split())
                    if found is not None:
                        yield found
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "make" not in text:
                continue
            for _, _, code in code_spans(text):
                make = MAKE.fullmatch(code.strip())
                if make is not None and (found := _call(line, "", make.group(1), make.group(2).split())):
                    yield found


def _mentions(doc: Document, name: str) -> list[int]:
    """The README lines that name `name` as a word."""
    pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?!\w)")
    lines = [
        line for para in doc.paragraphs for line, text in para.lines if name in text and pattern.search(text)
    ]
    lines += [
        line for fence in doc.fences for line, text in fence.lines if name in text and pattern.search(text)
    ]
    lines += [t.line for t in doc.tables if any(pattern.search(c) for c in t.header)]
    lines += [n for t in doc.tables for n, row in t.rows if any(pattern.search(c) for c in row)]
    return sorted(set(lines))


def make_vars(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """A variable a README's `make` command passes that no makefile of the build reads while one a slip
    away from it is read: `README passes PYTHON_CUSTOM_VERSION=3.12 to make, but no makefile it reads
    (pytorch/Makefile, common.mk) reads PYTHON_CUSTOM_VERSION: did you mean CUSTOM_PYTHON_VERSION
    (common.mk:6)?` — `certain` when the whole build could be read from the makefile beside the folder
    the command runs in, `likely` otherwise (see the module's docstring)."""
    builds: dict[tuple[str, str | None], tuple[_Build, bool] | None] = {}
    told: set[str] = set()
    for call in _calls(doc):
        key = (call.folder, call.file)
        if key not in builds:
            builds[key] = _read_build(directory, project, call)
        read = builds[key]
        if read is None:
            continue
        build, beside = read
        if build.computed:
            continue
        for name, value in call.passed:
            if name in told or name in _BUILTIN or name in build.words:
                continue
            near = _near(name, build.variables)
            if not near:
                continue
            told.add(name)
            meant = " or ".join(f"{n} ({build.variables[n]})" for n in near)
            message = (
                f"README passes {name}={value} to make, but no makefile it reads ({', '.join(build.shown)}) "
                f"reads {name}: did you mean {meant}?"
            )
            sure = beside and not build.unknown
            if build.unknown:
                message += f" ({build.unknown[0]}, and may read it)"
            lines = [call.line, *(n for n in _mentions(doc, name) if n != call.line)]
            yield Diagnostic(
                readme, call.line, message + also_at(lines), confidence=CERTAIN if sure else LIKELY
            )


def _read_build(directory: Path, project: Path | None, call: _Call) -> tuple[_Build, bool] | None:
    """What the make of `call` reads, and whether its makefile is in the folder the command runs in
    (not one found above the README's folder); None when no makefile is found."""
    cwd = real_path(directory / call.folder) if call.folder else directory.resolve()
    beside = True
    if call.file is not None:
        path: Path | None = cwd / call.file
    else:
        path = makefile_in(cwd)
        if path is None and not call.folder:
            path = makefile_of(directory, project)
            beside = False
            cwd = path.parent if path is not None else cwd
    if path is None or not os.path.isfile(path):
        return None
    reader = _Reader(directory.resolve())
    reader.read_makefile(path, cwd, {})
    return reader.build, beside
