"""A build whose Dockerfile runs a script that only a glob COPY could have brought, while the build's
context holds no file of that name: `COPY install-*.sh /opt/setup/` brings the `install-*.sh` files the
context has (`install-base.sh`, `install-tools.sh`), and a later `RUN /opt/setup/install-extra.sh` runs
one it does not have, so the documented build fails at that step.

Read from the README's build commands as `references.context_misses` reads them (`context_builds`: the
command blocks top to bottom, a `cd` moving the later ones). Judged only when the COPY or ADD (no
`--from`, no heredoc) has one source, a glob in its last name that matches at least one file of the
context (else the context is the wrong one, which `context_misses` tells), an absolute destination
folder (ending in `/`) that is no system folder a base image fills (`/usr/…`, `/etc/…`, `/bin`), and
the script run (`/opt/setup/x.sh`, `bash /opt/setup/x.sh`, `sh`, `source`, `.`, `exec`) is a path of
that folder whose name the glob matches. Silent when anything else in the stage may make the file: an
earlier stage it starts from (`FROM builder`), another COPY or ADD into that folder or above it (or
one with a relative destination), a RUN before (or the same RUN, before the run) naming the script or
the folder (`wget -O`, `git clone`, `cp`, `tar -C`), a RUN that tests the file first (`[ -f … ]`, `||
true`); or when the README makes the file before the build, or tells to fetch it. `likely`: a copy of
a repository may lack files the project has (a checkout holds them all).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.fetched_copies import told
from docgen.audit.references import (
    MadeFiles,
    bases_above,
    context_builds,
    indented_blocks,
    project_top,
)
from docgen.audit.steps import built_clones
from docgen.copied import context_path, glob_matches, matched
from docgen.dockerfile import read_dockerfile
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, Instruction

_WILDCARD = re.compile(r"[*?\[]")
_ARCHIVE = re.compile(r"\.(?:tar|tgz|tbz2?|txz|gz|bz2|xz|zst|lz4?)$", re.IGNORECASE)
"""A file ADD unpacks."""
_SYSTEM = ("/usr/", "/etc/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/var/", "/root/", "/home/", "/proc/")
"""Destination folders a base image fills: a script there may come with the base."""
_RUN_BEFORE = re.compile(
    r"(?:\A|&&|\|\||[;|(]|\bthen\b|\bdo\b|\belse\b)[ \t]*"
    r"(?:(?:bash|sh|dash|zsh|source|\.|exec|sudo)[ \t]+(?:-[A-Za-z]+[ \t]+)*)?\Z"
)
"""What comes right before a path the shell runs: a step's start, or a shell that runs it."""
_MAKES = re.compile(
    r"(?:\A|(?<=[\s;&|(]))(?:wget|curl|git|cp|mv|ln|tar|unzip|rsync|touch|tee|mkdir|install|gdown|sed)(?=\s)|>"
)
"""A command that makes files (`wget -P /opt/setup …`, `tar -C /opt/setup`), or a redirection."""
_GUARDED = re.compile(r"\|\|[ \t]*(?:true|:|exit[ \t]+0)\b|\bif\b|\btest\b|\[")
"""A RUN that may not fail on a missing file (`|| true`, a test of the file, a branch)."""


def globbed_scripts(
    doc: Document,
    source: Sequence[str],
    directory: Path,
    readme: str,
    project: Path | None = None,
    own: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """The findings told in the module's words, one per build command and script. `own`: `steps.own_clones`
    of the README when the caller has it (read once for every rule that asks)."""
    top = project_top(directory, project)
    blocks = sorted([*doc.fences, *indented_blocks(doc)], key=lambda b: b.lines[0][0] if b.lines else 0)
    ran: list[str] = []
    told_of: set[tuple[int, str]] = set()
    builds = context_builds(blocks, bases_above(directory, top), top, ran, built_clones(doc, directory, own))
    made: MadeFiles | None = None  # the index of making lines, made again only when a script more ran
    for line, shown, dockerfile, context, written in builds:
        try:
            parsed = read_dockerfile(dockerfile, shown)
        except DocgenError:
            continue
        for at, run_line, script, pattern in unbrought(parsed.instructions, context):
            if made is None or made.scripts != len(ran):
                made = MadeFiles(source, ran)
            name = posixpath.basename(script)
            if made.before(name, line) or told(source, name, line) or (line, script) in told_of:
                continue
            told_of.add((line, script))
            said = (
                f"README builds {shown} with the context {written}, whose line {run_line} runs {script}, "
                f"but the context holds no {name}: line {at} copies only the files {pattern} matches"
            )
            yield Diagnostic(readme, line, said, confidence=LIKELY)


def unbrought(instructions: Sequence[Instruction], context: Path) -> Iterator[tuple[int, int, str, str]]:
    """(COPY line, RUN line, script path, glob) of each script a RUN runs from the destination folder
    of a glob COPY (see the module) whose name the glob matches but no file of `context` it matches has."""
    stages: list[list[Instruction]] = []
    names: set[str] = set()
    for instruction in instructions:
        if instruction.keyword == "FROM":
            words = instruction.args.split()
            stages.append([] if words and words[0].lower() not in names else [instruction])
            if len(words) >= 3 and words[1].lower() == "as":
                names.add(words[2].lower())
        elif stages:
            stages[-1].append(instruction)
    for stage in stages:
        if stage and stage[0].keyword == "FROM":
            continue  # built on an earlier stage: it may hold any file
        yield from _stage(stage, context)


def _glob_copy(instruction: Instruction) -> tuple[str, str] | None:
    """(glob as a context path, destination folder ending in `/`) of a COPY or ADD the module judges."""
    if instruction.keyword not in ("COPY", "ADD") or instruction.heredocs:
        return None
    if any(flag.name == "from" for flag in instruction.flags):
        return None
    words = list(instruction.exec_form or instruction.args.split())
    if len(words) != 2:
        return None
    pattern, dest = context_path(words[0]), words[1].strip("\"'")
    if pattern is None or "$" in words[0] + dest or not _WILDCARD.search(posixpath.basename(pattern)):
        return None
    if _WILDCARD.search(posixpath.dirname(pattern)) or not dest.startswith("/") or not dest.endswith("/"):
        return None
    if dest == "/" or dest.startswith(_SYSTEM):
        return None
    return pattern, posixpath.normpath(dest) + "/"


def _dest(instruction: Instruction) -> str | None:
    """The destination of a COPY or ADD as written, or None for another instruction."""
    if instruction.keyword not in ("COPY", "ADD"):
        return None
    words = list(instruction.exec_form or instruction.args.split())
    return words[-1].strip("\"'") if words else ""


def _stage(stage: Sequence[Instruction], context: Path) -> Iterator[tuple[int, int, str, str]]:
    for index, instruction in enumerate(stage):
        copy = _glob_copy(instruction)
        if copy is None:
            continue
        pattern, folder = copy
        files = [p for p in matched(context, pattern) if os.path.isfile(p)]
        if not files or len(files) != len(matched(context, pattern)):
            continue
        if instruction.keyword == "ADD" and any(_ARCHIVE.search(p.name) for p in files):
            continue  # ADD unpacks a local archive: its files have other names
        brought = {p.name for p in files}
        texts = [text_or_none(p, MAX_PROJECT_FILE_BYTES) or "" for p in files]
        glob = posixpath.basename(pattern)
        for later_index in range(index + 1, len(stage)):
            later = stage[later_index]
            dest = _dest(later)
            if dest is not None and (
                not dest.startswith("/")
                or folder.startswith(dest.rstrip("/") + "/")
                or dest.startswith(folder)
            ):
                break  # another copy may bring it
            if later.keyword != "RUN":
                continue
            text = " ".join(later.exec_form) if later.exec_form else later.args
            for script, at in _runs(text, folder):
                name = script[len(folder) :]
                if name in brought or not glob_matches(glob, name) or _GUARDED.search(text):
                    continue
                if later.flags or any(name in t for t in texts):
                    continue  # a mount, or a script the glob brings that may make it
                if _named_before(stage[index + 1 : later_index], text[:at], name, folder):
                    continue
                yield instruction.start_line, later.start_line, script, pattern


def _runs(text: str, folder: str) -> Iterator[tuple[str, int]]:
    """(path, where) of each file of `folder` the shell text `text` runs."""
    for match in re.finditer(r"(?<![\w/.$-])" + re.escape(folder) + r"[\w.+-]+(?![\w/.$-])", text):
        if _RUN_BEFORE.search(text[max(0, match.start() - 60) : match.start()]):
            yield match.group(), match.start()


def _named_before(between: Sequence[Instruction], head: str, name: str, folder: str) -> bool:
    """True when a RUN between the COPY and the run, or the run's own text before it, names the
    script, or names the folder with a command that makes files (`wget -P`, `git clone`, `tar -C`):
    it may make the file."""
    texts = [head, *(i.args + " ".join(i.exec_form or ()) for i in between if i.keyword == "RUN")]
    return any(name in t or (folder.rstrip("/") in t and _MAKES.search(t)) for t in texts)
