"""A component a README lists as in the image (`## Additional` over `- CMake`, `The image includes:`)
that only a stage the image is not built from installs: the builder downloads CMake to compile a plugin
(`FROM base AS builder`, `RUN wget …/cmake-3.19.5-Linux-x86_64.tar.gz … && cp -rf bin/ share/
/usr/local/`), and the final stage starts again from `base` and takes only the plugin (`COPY
--from=builder /TensorRT /tmp/TensorRT`). The README read the Dockerfile top to bottom, or was written
before the build was split into stages.

Told (`likely`) for an item of a list `contents.contents_items` reads when, in every image compared:

- a live instruction of a stage the default target builds but is not built from (`ImageModel.chain`)
  names the component (a comment does not count);
- nothing of the image's own stages names it (their instructions, a `COPY --from` of its files, the
  build-context files they copy), and they run nothing docgen cannot read;
- every `COPY --from` of that stage takes a named folder or file that is no place installs go
  (`/usr/local`, `/opt/conda`, a virtual environment, `site-packages`, `~/.local`, wheels: `_BROAD`),
  that no instruction of the stage installing it points an installer at (the install's RUN, an ENV,
  ARG or WORKDIR of that stage), with no glob or variable in it; no `RUN --mount=…,from=` and no other
  builder stage takes its files;
- no package the image installs pulls it in, and for a list that is not of what the image adds to its
  base (`## Additional`), the image's base is known not to carry it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import (
    contents_items,
    context_of,
    final_components,
    item_components,
    labelled_components,
    unbuilt_lines,
)
from docgen.audit.memo import per_audit
from docgen.audit.versions import raw_name
from docgen.base_contents import brought_by, carries
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Instruction
from docgen.stages import built_stages


@dataclass(frozen=True)
class _Aside:
    """A stage the image is built without, and what the image's stages take of its files."""

    index: int
    label: str
    first: int
    last: int
    """The Dockerfile lines the stage spans."""
    taken: tuple[tuple[str, int], ...]
    """(source as written, line) of each `COPY --from` of the stage in the image's own stages."""
    shut: bool
    """True when the stage's files may reach the image some other way: a source with a glob or a
    variable, a broad place (`_BROAD`), a `RUN --mount=…,from=` of it, another stage copying from it."""
    pointed: str
    """The text of the stage's ENV and ARG instructions: where its installers may be pointed."""
    workdirs: tuple[str, ...]
    """The stage's working folders (its WORKDIRs), normalised."""


_BROAD = re.compile(
    r"\A/(?:(?:usr|opt|home|root|var|etc|srv|bin|sbin|lib\w*)(?:/[\w.-]+)?)?\Z"
    r"|/(?:\.[\w.-]+|\.?venvs?|\.?env|\w*conda\w*|\w*mamba\w*|site-packages|dist-packages|python[\d.]*"
    r"|wheels?|whl|wheelhouse|node_modules)(?:/|\Z)"
    r"|/(?:bin|sbin|lib|lib32|lib64|libexec|share|include|packages|\w+-linux-gnu\w*)\Z",
    re.IGNORECASE,
)
"""A source of a `COPY --from` that may hold what an installer put in the stage: the root, a system
folder or one just below it (`/usr/local`, `/opt/conda`, `/home/user`), a virtual environment, a conda prefix,
`site-packages`, a hidden folder (`~/.local`), wheels, a folder of programs or libraries (`/go/bin`). A
named folder or file deeper down (`/src/out/server`, `/usr/local/bin/server`) holds what it names."""
_NOT_ONE = re.compile(r"[*?\[{$]")
"""A source that names no one path: a glob, a variable."""


@per_audit(maxsize=32)
def _asides(model: ImageModel) -> tuple[_Aside, ...]:
    """The stages `model`'s default target builds without being built from them (a builder whose files it
    copies), each with what the image's stages take of it."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None or len(model.stages) < 2:
        return ()
    own = {stage.index for stage in model.chain()}
    built = built_stages(model)
    aside = [s for s in model.stages if s.label in built and s.index not in own]
    if not aside:
        return ()
    taken: dict[int, list[tuple[str, int]]] = {s.index: [] for s in aside}
    shut: set[int] = set()
    pointed: dict[int, list[str]] = {s.index: [] for s in aside}
    workdirs: dict[int, list[str]] = {s.index: [] for s in aside}
    stage = -1
    for inst in read[1].instructions:
        if inst.keyword == "FROM":
            stage += 1
            continue
        if stage < 0:
            continue
        if stage in pointed and inst.keyword in ("ENV", "ARG"):
            pointed[stage].append(inst.args)
        if stage in workdirs and inst.keyword == "WORKDIR" and inst.args.strip().startswith("/"):
            workdirs[stage].append(posixpath.normpath(inst.args.strip().strip("\"'")))
        for flag in inst.flags:
            if flag.name == "mount" and (origin := flag.options().get("from")) is not None:
                if (origin_stage := model.stage_from(origin)) is not None:
                    shut.add(origin_stage.index)  # (files read where the image is built: used there)
        source = inst.flag("from")
        if inst.keyword not in ("COPY", "ADD") or source is None or source.value is None:
            continue
        origin_stage = model.stage_from(source.value)
        index = origin_stage.index if origin_stage is not None else None
        if index not in taken:
            continue
        if stage not in own:
            shut.add(index)  # (another builder takes its files on: followed no further)
            continue
        words = list(inst.exec_form) if inst.exec_form else inst.args.split()
        for word in [w for w in words if not w.startswith("--")][:-1]:
            taken[index].append((word, inst.start_line))
            path = posixpath.normpath("/" + word.strip("\"'").lstrip("/"))
            if _NOT_ONE.search(word) or _BROAD.search(path):
                shut.add(index)
    return tuple(
        _Aside(
            s.index,
            s.label,
            *model.stage_lines(s),
            tuple(taken[s.index]),
            s.index in shut or not taken[s.index],
            "\n".join(pointed[s.index]),
            tuple(workdirs[s.index]),
        )
        for s in aside
    )


def _names(text: str, path: str) -> bool:
    """True when `text` names `path` (or a folder holding it, or a path below it) as a path."""
    path = path.rstrip("/")
    while path:
        if re.search(rf"(?<![\w.-]){re.escape(path)}(?![\w.+@-])", text):
            return True
        path = path.rpartition("/")[0]
    return False


@dataclass(frozen=True)
class _Left:
    """Where an image's only install of a component is: a stage it is not built from."""

    line: int
    stage: str
    taken: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class _Read:
    """An instruction of a stage aside, with its words as `raw_name` reads them: worked out once an
    audit (`_read_asides`), not once for each list item."""

    inst: Instruction
    raw: str
    """The instruction's body, `raw_name`d."""
    commands: tuple[tuple[str | None, str], ...]
    """For a RUN, each command's program (`raw_name` of its file name; None when none leads it) and the
    command, `raw_name`d; () for another instruction."""


@per_audit(maxsize=32)
def _read_asides(model: ImageModel) -> tuple[_Read, ...]:
    """The instructions of the stages of `_asides(model)`, read for `_named` and `_installs`; () when
    there are none or the file is not read."""
    asides = _asides(model)
    read = dockerfile_read(model.file) if asides and model.file else None
    if read is None:
        return ()
    found = []
    for inst in read[1].instructions:
        if not any(a.first <= inst.start_line <= a.last for a in asides):
            continue
        commands: list[tuple[str | None, str]] = []
        if inst.keyword == "RUN":
            for command in _COMMANDS.split(inst.body):
                command = command.strip()
                lead = _LEAD.match(command)
                program = raw_name(posixpath.basename(lead.group(1))) if lead is not None else None
                commands.append((program, raw_name(command)))
        found.append(_Read(inst, raw_name(inst.body), tuple(commands)))
    return tuple(found)


def _left_in_builder(model: ImageModel, spellings: set[str], added: bool) -> _Left | None:
    """Where `model` installs a component under one of `spellings` only in a stage it is not built from,
    and takes other files of that stage (see the module's docstring); None otherwise."""
    asides = _asides(model)
    inside = _read_asides(model)
    if not inside:
        return None
    ranges = tuple((a.first, a.last) for a in asides)
    first = next(
        (
            r.inst
            for r in inside
            if (r.inst.keyword != "RUN" and _named(r, spellings)) or _installs(r, spellings)
        ),
        None,
    )
    if first is None:
        return None
    holding = [
        a
        for a in asides
        if any(a.first <= r.inst.start_line <= a.last and _named(r, spellings) for r in inside)
    ]
    if any(a.shut for a in holding):
        return None  # (a stage that names it and whose files may all reach the image)
    aside = next(a for a in holding if a.first <= first.start_line <= a.last)
    copies = tuple(c for c in model.context_copies if not any(a.first <= c.line <= a.last for a in asides))
    text, unread_run, unread_packages = context_of(model.file or "", copies, unbuilt_lines(model) + ranges)
    if unread_run or unread_packages or any(s in text for s in spellings):
        return None
    installs = [r.inst for r in inside if _installs(r, spellings)]
    if any(_RELATIVE_DEST.search(i.body) for i in installs):
        return None  # (installed into a folder docgen does not follow: `pip install --target ./deps`)
    for stage in holding:
        for source, _ in stage.taken:
            path = posixpath.normpath("/" + source.strip("\"'").lstrip("/"))
            if _names(stage.pointed, path) or any(_names(i.body, path) for i in installs):
                return None  # (an installer may have been pointed there)
            if any(w == path or w.startswith(path.rstrip("/") + "/") for w in stage.workdirs):
                return None  # (the copy takes a working folder whole)
    if brought_by((c.name for c in final_components(model)), spellings) is not None:
        return None
    if not added and not all(carries(stage.base, spellings) is False for stage in model.chain()[-1:]):
        return None
    return _Left(first.start_line, aside.label, aside.taken)


_RELATIVE_DEST = re.compile(
    r"(?:--target|--prefix|--root|--home|--install-dir|--install-option|(?<![\w-])-t|DESTDIR|INSTALL_PREFIX"
    r"|(?<![\w-])PREFIX)(?:[ \t]*=[ \t]*|[ \t]+)[\"']?(?!/)"
)
"""An installer pointed at a folder that is no absolute path (`pip install --target ./deps`, `make install
DESTDIR=$OUT`): where it puts files is not read here."""
_COMMANDS = re.compile(r"&&|\|\||[;|\n]")
_LEAD = re.compile(r"\A(?:[A-Za-z_]\w*=\S*[ \t]+|sudo[ \t]+)*(\S+)")


def _named(read: _Read, spellings: set[str]) -> bool:
    return any(s in read.raw for s in spellings)


def _installs(read: _Read, spellings: set[str]) -> bool:
    """True when a command of the RUN `read` names the component other than by running it (`cmake ..`
    builds something with it; `wget …/cmake-3.19.5-….tar.gz` and `pip install cmake` bring it)."""
    return any(
        (program is None or program not in spellings) and any(s in command for s in spellings)
        for program, command in read.commands
    )


def builder_installs(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An item of a list of what the image holds whose only install, in every image compared, is in a
    stage the image is not built from and does not take it from (see the module's docstring)."""
    models = auditor.models
    if not models or not all(m.file and len(m.stages) > 1 for m in models):
        return
    if not any(_asides(m) for m in models):
        return  # (most Dockerfiles: one stage, or every stage built on the one before)
    for item in contents_items(doc):
        for name, spellings, data in item_components(item.text) or labelled_components(item.text):
            if data:
                continue
            left = [_left_in_builder(m, spellings, item.added) for m in models]
            if any(found is None for found in left):
                continue
            found = left[0]
            assert found is not None
            model = models[0]
            shown = ", ".join(dict.fromkeys(source for source, _ in found.taken))
            yield Diagnostic(
                auditor.path,
                item.line,
                f"README lists {name} as in the image, but {model.path} installs it only in stage "
                f"{found.stage} ({model.path}:{found.line}), which the image is not built from: it takes "
                f"only {shown} of that stage (line {found.taken[0][1]})",
                confidence=LIKELY,
            )
