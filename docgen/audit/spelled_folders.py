"""A file the README places in a folder of the image whose contents the build spells out, which the build
does not put there (`We have included a script /llm/start-lightweight-service in the image` while the
Dockerfile copies `start-vllm-service.sh` and `start-pp-service.sh` into `/llm/`).

A folder's contents are spelled out when everything the build puts in it has a name the Dockerfile
writes: a COPY or ADD of named files (a folder of the build context copied there is read from the
context), `COPY --from` of a stage's folder whose contents are spelled out, `mkdir`, `git clone` to a
named destination, a download with `-O /folder/name`, a redirect to `/folder/name`. Anything else that
may write there unnamed makes the folder's contents unknown, and nothing is told of it: a folder or a
glob the context does not hold, a `COPY --from` of an image or of a stage folder not known, a RUN that
works in the folder (a WORKDIR or `cd` there, then anything but the commands that write no file where
they run: `rm`, `apt-get`, `pip install` …), a RUN naming the folder itself as where a tool writes
(`cp x /llm/`, `tar -C /llm`), a `cd` or a destination the build gives by a variable, a download run in
a shell (`curl … | sh`), a VOLUME. The last stage's base must be an image docgen knows the folders of
(a plain OS or language image, or a vendor's: `intel/…`, `nvidia/…`), never by a variable, and the folder
no system folder nor one such bases fill (`/opt`, `/workspace`, `/usr` …).

Two claims are read (`likely`):

- an absolute path in a command block or a code span of the prose, or in a sentence saying the image
  includes it (`included_paths.path_claims`), that lies in such a folder, unless the README mounts or makes
  it or its line is about what the reader puts there (`mount`, `your`, `e.g.` …);
- a script the README runs by a bare name (`python bench_extra.py`) when another command of the README
  runs, the same way, a script the build copies into the last WORKDIR (`python bench.py`): it is run
  there too. The name must be no file of the README's folder or the Dockerfile's (it may run on the
  host).

In both, the name must be one the Dockerfile and its build context never write, and one of the names the
build puts in the folder must be near it (`image_paths.near`): the one the README most likely means.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.commands import clone_operands, image_repository
from docgen.audit.contents import PIPED
from docgen.audit.image_paths import (
    clean_path,
    context_bases,
    context_text,
    mounted_folders,
    named_paths,
    near,
    readme_paths,
)
from docgen.audit.included_paths import NOT_HELD, path_claims, system
from docgen.audit.missing import code_paths
from docgen.audit.paths import folders_above, resolves_inside, under_any
from docgen.audit.plain_bases import plain_base
from docgen.audit.wording import COMMAND_LANGS
from docgen.copied import context_path
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_VENDORS = frozenset("intel nvidia nvcr.io/nvidia rocm amd".split())
"""Namespaces of vendors' images, which fill system folders, `/opt` and `/workspace` only."""
_BASE_TOPS = frozenset("opt workspace workspaces srv app home root".split())
"""First folders a vendor's base image may fill (`/opt/intel`, `/workspace/examples`)."""
_SAFE = frozenset(
    "rm rmdir cd pushd popd echo printf export set unset apt-get apt apk yum dnf microdnf dpkg ldconfig"
    " chmod chown true false source . sed useradd groupadd usermod test [ exit which command sleep"
    " add-apt-repository update-alternatives locale-gen ls cat grep".split()
)
"""Commands that write no file where they run (their redirects are read apart)."""
_READS = frozenset("mkdir cd pushd rm rmdir chmod chown ls test [ cat".split())
"""Commands that name a folder without writing files of new names in it."""
_STEP = re.compile(r"&&|\|\||[;|()\n]")
_ASSIGN = re.compile(r"[A-Za-z_]\w*=\S*")
_REDIRECT = re.compile(r"(?<![0-9&])>>?[ \t]*([^\s;&|<>()]+)")
_OUT_FLAG = re.compile(r"(?:^|[ \t])(?:-O|-o|--output(?:-document)?)(?:=|[ \t]+)([^\s;&|]+)")
_RUN_SCRIPT = re.compile(r"^[ \t]*(?:\$[ \t]+)?(?:python3?|bash|sh)[ \t]+([\w.-]+\.(?:py|sh))(?=[ \t]|$)")
"""A command that runs a script by its bare name (`python bench.py …`, `bash run.sh`)."""
_FILE_NAME = re.compile(r".+\.[A-Za-z0-9]{1,5}")
"""A name with an extension: a file, not a folder, when the context does not hold it."""
_WALK_LIMIT = 5_000
_ARCHIVE = re.compile(r"\.(?:tar|tgz|tbz2?|txz|gz|bz2|xz|zst)$", re.IGNORECASE)
"""A local archive, which ADD unpacks."""
_NAME = re.compile(r"[\w.+-]+")
"""A name a Dockerfile or a file of its context writes."""


@dataclass
class _Stage:
    """What one stage puts in its folders."""

    names: dict[str, dict[str, int]] = field(default_factory=dict)
    """Folder → the name of each thing the build puts right in it → a line doing it."""
    unknown: set[str] = field(default_factory=set)
    """Folders something may write in under a name the Dockerfile does not give."""
    lost: bool = False
    """True when the stage writes where docgen cannot tell (a variable, a download run in a shell)."""
    workdir: str | None = "/"

    def put(self, path: str, line: int) -> None:
        """Record `path` and each folder above it as put there."""
        while path not in ("/", ""):
            folder, name = posixpath.split(path)
            self.names.setdefault(folder, {}).setdefault(name, line)
            path = folder

    def copy_of(self) -> _Stage:
        return _Stage({k: dict(v) for k, v in self.names.items()}, set(self.unknown), self.lost, self.workdir)


def _at(stage: _Stage, path: str, cwd: str | None) -> str | None:
    """`path` read from `cwd` (None when it has a variable or `cwd` is not known)."""
    if path.startswith("/"):
        return clean_path(path)
    if cwd is None or any(c in path for c in "$*?[{<>`\\"):
        return None
    return clean_path(posixpath.join(cwd, path))


def _copy(
    stage: _Stage,
    inst_words: list[str],
    line: int,
    bases: Sequence[Path],
    stages: dict[str, _Stage],
    source_of: str | None,
    add: bool = False,
) -> None:
    """A COPY or ADD (`add`): its sources put in its destination."""
    dest_word = inst_words[-1].strip("\"'")
    sources = [w.strip("\"'") for w in inst_words[:-1]]
    dest = _at(stage, dest_word, stage.workdir)
    if dest is None:
        stage.lost = True
        return
    into = dest_word.endswith("/") or len(sources) > 1 or dest in stage.names
    for source in sources:
        if source_of is not None:
            _copy_from(stage, stages.get(source_of), source, dest, into, line)
            continue
        inner = context_path(source)
        if inner == "." or (add and _ARCHIVE.search(source)):
            stage.unknown.add(dest)  # the whole context (which one is not sure), an archive ADD unpacks
            continue
        if inner is None or "://" in source:
            if into:
                stage.unknown.add(dest)
            else:
                stage.put(dest, line)
            continue
        found = (  # (a link leading out of the folder it is in is not followed)
            [b / inner for b in bases if os.path.exists(b / inner) and resolves_inside(b / inner, b)]
            if not any(c in inner for c in "*?[")
            else []
        )
        if found and os.path.isdir(found[0]):
            stage.put(dest, line)
            try:
                entries = [e.name for each in found if os.path.isdir(each) for e in each.iterdir()]
            except OSError:
                stage.unknown.add(dest)
                continue
            if len(entries) > _WALK_LIMIT:
                stage.unknown.add(dest)
            for entry in entries[:_WALK_LIMIT]:
                stage.put(posixpath.join(dest, entry), line)
            continue
        if found or (_FILE_NAME.fullmatch(posixpath.basename(inner)) and not any(c in inner for c in "*?[")):
            stage.put(posixpath.join(dest, posixpath.basename(inner)) if into else dest, line)
        else:
            stage.unknown.add(dest)


def _copy_from(stage: _Stage, other: _Stage | None, source: str, dest: str, into: bool, line: int) -> None:
    """A `COPY --from` of `source` in stage `other` (None: an image) to `dest`."""
    path = clean_path(source)
    if path is None:
        stage.unknown.add(dest)
        return
    if other is not None and not other.lost and (path in other.names or path in other.unknown):
        stage.put(dest, line)
        for folder, names in other.names.items():
            if folder == path or folder.startswith(path + "/"):
                moved = dest + folder[len(path) :]
                for name in names:
                    stage.put(posixpath.join(moved, name), line)
        for folder in other.unknown:
            if folder == path or folder.startswith(path + "/"):
                stage.unknown.add(dest + folder[len(path) :])
        return
    if _FILE_NAME.fullmatch(posixpath.basename(path)):
        stage.put(posixpath.join(dest, posixpath.basename(path)) if into else dest, line)
    else:
        stage.unknown.add(dest)


def _clone_target(args: Sequence[str]) -> str:
    """The folder `git clone ARGS` makes: its destination, else the repository's name ('' when none)."""
    plain = clone_operands(args)
    if len(plain) >= 2:
        return plain[1]
    return posixpath.basename(plain[0].rstrip("/")).removesuffix(".git") if plain else ""


def _run(stage: _Stage, script: str, line: int) -> None:
    """A RUN: what each of its steps puts where, from the folder it works in."""
    if any(True for _ in PIPED.finditer(script)):
        stage.lost = True
    cwd = stage.workdir
    for step in _STEP.split(script):
        words = step.split()
        while words and (
            _ASSIGN.fullmatch(words[0]) or words[0] in ("sudo", "then", "do", "else", "{", "}", "!")
        ):
            words.pop(0)
        if not words or words[0].startswith("#"):
            continue
        command = posixpath.basename(words[0])
        args = [w.strip("\"'") for w in words[1:]]
        for match in _REDIRECT.finditer(step):
            target = match.group(1).strip("\"'")
            if target.startswith("/dev/"):
                continue
            where = _at(stage, target, cwd)
            if where is None:
                stage.lost = stage.lost or not target.startswith("/")
            else:
                stage.put(where, line)
        if command in ("cd", "pushd"):
            target = next((a for a in args if not a.startswith("-")), "~")
            cwd = _at(stage, target, cwd) if target not in ("~", "-") else None
            continue
        if command == "popd":
            cwd = None
            continue
        outputs = [m.group(1).strip("\"'") for m in _OUT_FLAG.finditer(" " + " ".join(words[1:]))]
        if command in ("wget", "curl") and outputs:
            for out in outputs:
                if (where := _at(stage, out, cwd)) is not None:
                    stage.put(where, line)
                elif cwd is None or "$" in out:
                    stage.lost = True
            safe = True
        elif command == "mkdir":
            for arg in args:
                if arg.startswith("-"):
                    continue
                if (where := _at(stage, arg, cwd)) is not None:
                    stage.put(where, line)
                elif "$" in arg or cwd is None:
                    stage.lost = True
            safe = True
        elif command == "git" and args[:1] == ["clone"]:
            target = _clone_target(args[1:])
            if target and (where := _at(stage, target, cwd)) is not None:
                stage.put(where, line)
            else:
                stage.lost = True
            safe = True
        elif command in ("pip", "pip3") or (command.startswith("python") and args[:2] == ["-m", "pip"]):
            rest = args[2:] if command.startswith("python") else args
            safe = rest[:1] == ["install"] and not any(
                a in ("-e", "--editable", ".", "-t", "--target") or a.startswith("--target") for a in rest
            )
        elif command in ("conda", "mamba", "micromamba"):
            safe = args[:1] in (["install"], ["clean"], ["create"])
        elif command == "npm":
            safe = "-g" in args or "--global" in args
        else:
            safe = command in _SAFE
        # absolute paths it names: each folder above them holds what they name
        for arg in args:
            path = clean_path(arg) if arg.startswith("/") else None
            if path is None:
                continue
            if command not in _READS and (arg.endswith("/") or path in stage.names or arg is args[-1]):
                stage.unknown.add(path)  # a tool writing into the folder itself (`cp x /llm/`)
            if command != "rm":
                stage.put(path, line)
        if not safe:
            if cwd is None:
                stage.lost = True
            else:
                stage.unknown.add(cwd)


def _stages(model: ImageModel, readme_folder: str) -> _Stage | None:
    """What the stage `model` builds (its target, else its last) puts in its folders (None when the
    Dockerfile cannot be read)."""
    read = dockerfile_read(model.file)
    if read is None:
        return None
    bases = context_bases(model.file, readme_folder)
    by_name: dict[str, _Stage] = {}
    stage = _Stage()
    index = -1
    for inst in read[1].instructions:
        line = inst.start_line
        if inst.keyword == "FROM":
            index += 1
            words = inst.args.split()
            base = words[0].lower() if words else ""
            stage = by_name[base].copy_of() if base in by_name else _Stage()
            stage.workdir = stage.workdir if base in by_name else "/"
            if len(words) >= 3 and words[1].lower() == "as":
                by_name[words[2].lower()] = stage
            by_name[str(index)] = stage
        elif inst.keyword == "WORKDIR":
            stage.workdir = _at(stage, inst.args.strip().strip("\"'"), stage.workdir)
            if stage.workdir is None:
                stage.lost = True
            else:
                stage.put(stage.workdir, line)
        elif inst.keyword in ("COPY", "ADD"):
            if inst.heredocs:
                heredoc = inst.exec_form or tuple(inst.args.split())
                dest = _at(stage, heredoc[-1].strip("\"'"), stage.workdir) if heredoc else None
                if dest is not None:
                    stage.put(dest, line)
                continue
            words = list(inst.exec_form or inst.args.split())
            if len(words) < 2:
                continue
            origin = inst.flag("from")
            source_of = (origin.value or "").lower() if origin is not None else None
            if source_of is not None and source_of not in by_name:
                source_of = "\0image"
            _copy(stage, words, line, bases, by_name, source_of, inst.keyword == "ADD")
        elif inst.keyword == "RUN":
            _run(stage, inst.body, line)
        elif inst.keyword == "VOLUME":
            for word in inst.exec_form or inst.args.split():
                if (path := clean_path(word.strip("\"'[],"))) is not None:
                    stage.unknown.add(path)
                    stage.put(path, line)
    return by_name.get(str(model.target_index), stage) if model.target_index >= 0 else stage


def _known_base(model: ImageModel) -> bool | None:
    """True when the image the last stage of `model` builds on is a plain OS or language image, False
    for a vendor's (`intel/…`: it fills `/opt` and `/workspace` too), None for any other or one given
    by a variable (its folders are not known)."""
    stage = model.target
    seen = 0
    while stage is not None and stage.parent is not None and seen < len(model.stages):
        stage, seen = model.stages[stage.parent], seen + 1
    if stage is None or stage.parent is not None or "$" in stage.base_raw + stage.base:
        return None
    repo = image_repository(stage.base.lower()).removeprefix("docker.io/")
    if plain_base(stage.base):
        return True
    return False if any(repo.startswith(v + "/") for v in _VENDORS) else None


def _spelled(stage: _Stage, folder: str, plain: bool) -> bool:
    """True when what the build puts in `folder` is all named, and the base (`plain`: a plain OS image,
    else a vendor's) puts nothing there."""
    top = folder.strip("/").split("/")[0]
    if (
        stage.lost
        or folder not in stage.names
        or system(folder)
        or folder in ("/opt", "/srv")
        or (not plain and top in _BASE_TOPS)
    ):
        return False
    return not under_any(folder, stage.unknown)


_IN_CONTAINER = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:(?:container[ \t]+)?(?:exec|run)\b.*?(?<![\w-])"
    r"(?:cp|mv|touch|mkdir|wget|curl|tee|ln|git|unzip|tar)(?![\w-])|(?:container[ \t]+)?cp\b)"
)
"""A command the README runs in the container that makes a path there (`docker exec app cp a /srv/b`),
or a `docker cp` into it."""
_IN_CONTAINER_PATH = re.compile(r"(?<![\w.~$}{/@%-])(/[A-Za-z0-9_.+@-]+(?:/[A-Za-z0-9_.+@-]+)*)")


def _made_in_container(doc: Document) -> set[str]:
    """The absolute paths on each README command line that makes paths in the container (`docker exec app
    cp a /srv/b`, `docker cp a app:/srv/b`): the README makes them."""
    found: set[str] = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            if _IN_CONTAINER.search(text) or (
                ">" in text and re.search(r"\b(?:docker|podman)[ \t]+exec\b", text)
            ):
                for match in _IN_CONTAINER_PATH.finditer(text):
                    if (path := clean_path(match.group(1))) is not None:
                        found.add(path)
    return found


_CD_LINE = re.compile(r"(?:^[ \t]*(?:\$[ \t]+)?|[;&|(][ \t]*)cd[ \t]")
_WRITES = re.compile(
    r"(?:>|(?<![\w-])(?:-o|-O|--output)(?:=|[ \t])"
    r"|\b(?:wget|curl|cp|mv|touch|tee|git[ \t]+clone|docker[ \t]+cp)\b)"
)
"""A README command line that writes a file (a redirect, a download, a copy)."""


def _host_files(directory: Path, models: Sequence[ImageModel]) -> set[str]:
    """The names of the files in the folders of the README and each Dockerfile, and below them (at most
    `_WALK_LIMIT` of them, else all names count as there: `{""}` stands for that)."""
    names: set[str] = set()
    count = 0
    for folder in {directory.resolve(), *(Path(m.file).parent.resolve() for m in models if m.file)}:
        for _, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
            names.update(files)
            count += len(files)
            if count > _WALK_LIMIT:
                return {""}
    return names


def spelled_folders(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A path the README places in a folder whose contents the build spells out, which the build does not
    put there, with a name near one it does: one finding a path, at its first line (`likely`). See the
    module's docstring."""
    audited = [m for m in models if m.file]
    bases = [_known_base(m) for m in audited]
    if not audited or None in bases:
        return
    plain = all(bases)
    stages = [(m, s) for m in audited if (s := _stages(m, str(directory))) is not None]
    if len(stages) != len(audited):
        return
    spans = {number for number, _ in code_paths(doc)}
    prose = {number: text for para in doc.paragraphs for number, text in para.lines}
    mounted = mounted_folders(doc)
    used = list(readme_paths(doc))
    made = mounted | {path for _, path, by_readme in used if by_readme} | _made_in_container(doc)
    wanted: list[tuple[int, str]] = [
        (line, path)
        for line, path, by_readme in used
        if not by_readme and not (line in spans and NOT_HELD.search(prose.get(line, "")))
    ]
    wanted += list(path_claims(doc))
    # scripts run by a bare name next to one the build copies into the last WORKDIR
    runs: list[tuple[int, str]] = []
    makes: list[str] = []  # the README's command lines that write a file
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        moved = False  # after a `cd`, a bare name is the folder's it went to
        for number, text in fence.lines:
            match = _RUN_SCRIPT.match(text)
            moved = moved or bool(_CD_LINE.search(text))
            if match and not moved:
                runs.append((number, match.group(1)))
            elif _WRITES.search(text):
                makes.append(text)
    runs = [(n, name) for n, name in runs if not any(name in text for text in makes)]
    host = _host_files(directory, audited)
    bare: dict[str, str] = {}  # path in the WORKDIR → the script copied there the README runs alike
    for _, stage in stages:
        work = stage.workdir
        if work is None or not _spelled(stage, work, plain):
            continue
        there = stage.names.get(work, {})
        alike = next((name for _, name in runs if name in there), None)
        if alike is None:
            continue
        for number, name in runs:
            if name not in there and name not in host and "" not in host:
                wanted.append((number, posixpath.join(work, name)))
                bare.setdefault(posixpath.join(work, name), alike)
    seen: dict[str, list[int]] = {}
    where: dict[str, tuple[ImageModel, str, list[str]]] = {}
    for line, path in sorted(wanted):
        if under_any(path, made):
            continue
        first = ""
        for model, stage in stages:
            folder = next((f for f in folders_above(path) if f in stage.names), None)
            if folder is None or not _spelled(stage, folder, plain):
                break
            name = path[len(folder) + 1 :].split("/")[0]
            if name in stage.names[folder]:
                break
            first = posixpath.join(folder, name)
            where.setdefault(first, (model, folder, sorted(stage.names[folder])))
        else:
            if first:
                seen.setdefault(first, []).append(line)
    texts: dict[str, frozenset[str] | None] = {}
    for first, lines in seen.items():
        model, folder, names = where[first]
        name = posixpath.basename(first)
        meant = near(name, names)
        if meant is None:
            continue
        if model.file not in texts:
            context = context_text(model.file, model.context_copies, str(directory))
            texts[model.file] = (
                None if context is None else named_paths(context) | frozenset(_NAME.findall(context))
            )
        known = texts[model.file]
        if known is None or first in known or name in known:
            continue
        listed = ", ".join(names) if len(names) <= 16 else f"{len(names)} names"
        told = (
            f"README runs {name} where it runs {bare[first]}, in {folder} (the WORKDIR)"
            if first in bare
            else f"README places {first} in the image"
        )
        yield Diagnostic(
            readme,
            lines[0],
            f"{told}, but {model.path} puts no {name} there: it puts only {listed} in {folder} "
            f"(did you mean {posixpath.join(folder, meant)}?){also_at(lines)}",
            confidence=LIKELY,
        )
