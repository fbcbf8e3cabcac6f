"""A `.sif` image a README's Singularity or Apptainer commands run that its own pull never writes:
`singularity pull docker://ghcr.io/acme/md-tool:latest` writes `md-tool_latest.sif` (`<name>_<tag>.sif`
when no output file is given), while the next lines run `singularity exec … md-tool_main.sif`. The file
is not there, and every command using it fails.

The same for a pull from the Singularity Hub, a library or an ORAS registry (`singularity pull
shub://owner/guppy` writes `guppy_latest.sif`), and for a file in the shape such a pull writes with the
pull's tag but another image's name (`other_latest.sif`) run in the same block after that pull, with no
other pull or build between them: the command was copied from another project's README.

Told (`likely`, at the first use, the others listed) only when a `pull` of a `docker://`, `shub://`,
`library://` or `oras://` image with no output name (no second operand, no `--name`) comes before the
use, the file used has the name part of what that pull writes (`md-tool`) with another tag or none
(`md-tool.sif`) or is the case above, no pull or `build` of the
README writes it, no line of the README other than its uses names it (a download, a `mv`, a `cp`), no
file of that name is in the repository, and its name holds no placeholder (`$SIF`, `<image>.sif`). The
folder written before it (`/path/to/md-tool_main.sif`) is not compared: the reader may keep it anywhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.commands import without_prompt
from docgen.audit.references import command_lines, project_top
from docgen.audit.wording import COMMAND_LANGS, NOT_CURRENT
from docgen.markdown import Document, headings_over, read_document
from docgen.model import Diagnostic

_TOOL = r"\b(?:singularity|apptainer)[ \t]+"
_PULL = re.compile(_TOOL + r"pull\b(?P<rest>[^;&|#]*)")
_BUILD = re.compile(_TOOL + r"build\b(?P<rest>[^;&|#]*)")
_USE = re.compile(_TOOL + r"(?:exec|run|shell|inspect|test|instance[ \t]+start)\b(?P<rest>[^;&|#]*)")
_PULL_VALUES = frozenset({"--name", "--arch", "--library", "--dir", "--platform", "--authfile"})
"""The options of `pull` that take a value."""
_USE_VALUES = frozenset(
    "-B --bind -H --home --env --env-file --pwd -W --workdir --overlay -o -S --scratch --security --app "
    "--network --network-args --mount --hostname --dns --apply-cgroups --fusemount --nv-ccli".split()
)
"""The options of `exec`, `run`, `shell` that take a value (`--overlay x.sif` is no image run)."""
_SIF = re.compile(r"[\w./-]+\.sif")
_URI = re.compile(
    r"(?:docker|shub|library|oras)://(?:[^/\s]+/)*(?P<name>[A-Za-z0-9][\w.-]*?)(?::(?P<tag>[\w.-]+))?"
    r"(?:@\S+)?"
)
"""An image a pull with no output name writes as `<name>_<tag>.sif`: from Docker Hub or a registry, the
Singularity Hub (`shub://owner/name`), a library (`library://user/collection/name:tag`) or an ORAS one."""
_MAX_FOLDERS = 2000
"""The folders of the project looked through for a file of the name used, at most."""


def _operands(rest: str, values: frozenset[str]) -> list[str]:
    """The words of a command that are no option nor an option's value (`values`: the options taking
    the next word)."""
    words = rest.replace("\\", " ").split()
    found: list[str] = []
    index = 0
    while index < len(words):
        word = words[index].strip("\"'")
        if word.startswith("-"):
            index += 2 if word in values and "=" not in word else 1
            continue
        found.append(word)
        index += 1
    return found


def _in_project(name: str, top: Path) -> bool:
    """True when a file named `name` is in the project (or the project is too large to look through)."""
    for seen, (_, subfolders, files) in enumerate(os.walk(top)):
        if seen >= _MAX_FOLDERS or name in files:
            return True
        subfolders[:] = [d for d in subfolders if not d.startswith(".") and d != "node_modules"]
    return False


def sif_files(
    doc: Document, readme: str, text: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The `.sif` files the README's commands run that its pulls do not write (see the module). The
    README is read again from its `text`: `doc` no longer holds the sections about Singularity or
    Apptainer (`aside` sets them aside as no Docker claims); a block under a heading about an old or a
    coming version (`wording.NOT_CURRENT`) is not read."""
    if ".sif" not in text:
        return
    doc = read_document(text, readme)
    written: set[str] = set()  # file names a pull or build writes
    defaults: dict[str, str] = {}  # name part → the file a pull with no output name writes
    uses: dict[str, list[int]] = {}  # file name used → README lines
    shown: dict[str, str] = {}
    after: dict[str, tuple[int, str, str]] = {}  # file used → (line, file, tag) of the pull just before
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS or any(
            NOT_CURRENT.search(h) for h in headings_over(doc, fence.lines[0][0])
        ):
            continue
        last: tuple[int, str, str] | None = None  # the block's last pull, when it has no output name
        for line, code in command_lines(fence, joined=True):
            step = without_prompt(code)
            if (pull := _PULL.search(step)) is not None:
                operands = _operands(pull.group("rest"), _PULL_VALUES)
                named = re.search(r"--name(?:[ \t]+|=)[\"']?([^\s\"']+)", pull.group("rest"))
                if named is not None:
                    written.add(os.path.basename(named.group(1)))
                elif len(operands) == 2:
                    written.add(os.path.basename(operands[0]))
                elif len(operands) == 1 and (uri := _URI.fullmatch(operands[0])) is not None:
                    name, tag = uri.group("name"), uri.group("tag") or "latest"
                    defaults[name] = f"{name}_{tag}.sif"
                    written.add(defaults[name])
                    last = (line, defaults[name], tag)
                    continue
                last = None
                continue
            if (build := _BUILD.search(step)) is not None:
                operands = _operands(build.group("rest"), frozenset({"--section", "--bind", "-B"}))
                if operands:
                    written.add(os.path.basename(operands[0]))
                last = None
                continue
            if (use := _USE.search(step)) is not None and defaults:
                operands = _operands(use.group("rest"), _USE_VALUES)
                if operands and _SIF.fullmatch(operands[0]):
                    name = os.path.basename(operands[0])
                    uses.setdefault(name, []).append(line)
                    shown.setdefault(name, operands[0])
                    if last is not None:
                        after.setdefault(name, last)
    if not uses:
        return
    use_lines = {n for lines in uses.values() for n in lines}
    texts = [(n, t) for f in doc.fences for n, t in f.lines if n not in use_lines]
    texts += [(n, t) for p in doc.paragraphs for n, t in p.lines]
    texts += [(n, cell) for t in doc.tables for n, cells in t.rows for cell in cells]
    top = project_top(directory, project)
    for name, lines in uses.items():
        stem = name.removesuffix(".sif")
        part = stem.rsplit("_", 1)[0] if "_" in stem else stem
        pulled, at = defaults.get(part), ""
        if pulled is None and (before := after.get(name)) is not None and stem.endswith(f"_{before[2]}"):
            # another image's name in the shape a pull gives (`other_latest.sif`) just after a pull
            pulled, at = before[1], f" at line {before[0]}"
        if pulled is None or name in written or pulled == name:
            continue
        if stem != part and not re.fullmatch(r"[\w.-]+", stem[len(part) + 1 :]):
            continue
        word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
        if any(word.search(text) for _, text in texts) or _in_project(name, top):
            continue
        yield Diagnostic(
            readme,
            lines[0],
            f"README runs {shown[name]}, but its singularity pull{at} (no output name) writes {pulled}; "
            f"no pull or build of the README writes {name}{also_at(lines)}",
            confidence=LIKELY,
        )
