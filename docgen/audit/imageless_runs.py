"""A `docker run` that leaves out its image, so docker reads the program as the image: `sudo docker run -d
--gpus all -p 8888:8888 -v ~/work:/work jupyter notebook --ip 0.0.0.0` while the README's other run line is
`docker run … torch-lab/nano jupyter notebook …`. Docker takes the first word that is no option (`jupyter`)
as the image, looks for `docker.io/library/jupyter`, and the container never starts.

A run is read when its image word is a plain name (no namespace, tag, registry, placeholder or variable)
that is a program the README starts in an image: the first word after the image of another of its `docker
run` lines (one with no `--entrypoint`, whose words after the image are the program's), or the first word of
the CMD of an audited Dockerfile (its last stage, in exec form or not; an image with an ENTRYPOINT is passed
over: its CMD holds arguments). The word after it must be an argument that program is given there
(`notebook`) or an option (`--ip`), so the line reads as that program's command. Not read: a name the README
builds, tags, pulls or names in a compose file, a Docker official image (`python`, `node` …: the line may
mean that image), a README that loads or imports images, and a command whose options docgen does not know
(the image word cannot be told). Placeholders with spaces (`-p <local port>:<container port>`) are one word
each. `likely`: the line may be a template whose reader knows to add the image.

And a `docker run` / `docker create` of a shell block that gives only options, so no image at all
(`optioned_runs`: `docker run -td --name x --gpus=all -v `pwd`/data:/data`, the image fallen off the
end): docker refuses it ("docker run" requires at least 1 argument), `certain`, read with no Dockerfile
too. Only a command of three words or more whose options docker all has, not a help request, an option
shown alone (`docker run --gpus all`), an elision or a placeholder (a positional word), a line continued
the cmd or PowerShell way, and a run whose next line carries its image or an option without the `\\`
(`continuations.unjoined` tells that).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import OFFICIAL, fence_commands, joined, shell_steps, tagged_names
from docgen.audit.continuations import shell_block, unjoined
from docgen.audit.docker_cli import docker_verb, docker_words
from docgen.audit.grammar import RUN, read_words
from docgen.audit.run_args import COMPOSE_IMAGE, GOT, LOADS
from docgen.audit.run_args import OFFICIAL as _RUN_OFFICIAL
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel
from docgen.shell import sh_code

_SPACED_PLACEHOLDER = re.compile(r"<([^<>\n]{1,80})>")
"""A placeholder the reader replaces, maybe with spaces (`<local port>`): made one word."""
_NAME = re.compile(r"[a-z][a-z0-9_-]*")
"""A plain image word with no namespace, tag or registry: what a program's name looks like too."""


def _runs(doc: Document) -> Iterator[tuple[int, str, list[str], bool]]:
    """(README line, image word, the words after it, whether it sets `--entrypoint`) of each `docker
    run` of a command block whose options are all known."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined([(n, sh_code(t)) for n, t in lines])
            if text.lstrip().startswith("#"):
                continue
            text = _SPACED_PLACEHOLDER.sub(lambda m: "<" + re.sub(r"\s+", "_", m.group(1)) + ">", text)
            for step in shell_steps(text):
                words = docker_words(step)
                found = docker_verb(words) if words else None
                if words is None or found is None or found[0] != "run":
                    continue
                read = read_words(words[found[1] :], RUN)
                if not read.complete or not read.positional:
                    continue
                image = read.positional[0]
                line = next((n for n, t in lines if re.search(rf"(?<![\w/.:-]){re.escape(image)}\b", t)), 0)
                entry = any(n == "--entrypoint" for n, _ in read.values)
                yield line or lines[0][0], image, words[found[1] + read.after :], entry


def _cmd_programs(models: Sequence[ImageModel]) -> dict[str, set[str]]:
    """The program of each audited image's CMD (its last stage's) → the words it is given there."""
    programs: dict[str, set[str]] = {}
    for model in models:
        labels = {stage.label for stage in model.chain()}
        if any(s.keyword == "ENTRYPOINT" and s.stage in labels for s in model.settings):
            continue  # CMD gives the ENTRYPOINT its arguments: its first word is no program
        for setting in reversed(model.settings):
            if setting.keyword == "CMD" and setting.stage in labels:
                words = list(setting.exec_form or ()) or setting.value.split()
                if words and _NAME.fullmatch(posixpath.basename(words[0])):
                    programs.setdefault(posixpath.basename(words[0]), set()).add(
                        words[1] if len(words) > 1 else ""
                    )
                break
    return programs


def imageless_runs(
    doc: Document, text: str, readme: str, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if LOADS.search(text):
        return
    runs = list(_runs(doc))
    programs = _cmd_programs(models)
    have = set(tagged_names(doc)) | {n.lower() for m in GOT.finditer(text) for n in m.groups() if n}
    have |= {n.lower() for n in COMPOSE_IMAGE.findall(text)}
    shown: dict[str, tuple[int, str]] = {}  # program → (line, image) of a run that starts it in an image
    for line, image, after, entry in runs:
        if after and not entry and (re.search(r"[/:.]", image) or image in have):
            program = posixpath.basename(after[0]) if after else ""
            if _NAME.fullmatch(program):
                programs.setdefault(program, set()).add(after[1] if len(after) > 1 else "")
                shown.setdefault(program, (line, image))
    if not programs:
        return
    for line, image, after, _ in runs:
        if not _NAME.fullmatch(image) or image not in programs or not after:
            continue
        if image in have or image in OFFICIAL or image in _RUN_OFFICIAL:
            continue
        if not (after[0].startswith("-") or after[0] in programs[image]):
            continue
        where = shown.get(image)
        told = f"; line {where[0]} runs {where[1]} {image} …" if where is not None else ""
        yield Diagnostic(
            readme,
            line,
            f"README runs {image} {after[0]} … as a container, but no image is named: docker reads "
            f"{image}, the program to start, as the image and looks for docker.io/library/{image}{told} "
            "(put the image before the program)",
            confidence=LIKELY,
        )


_OTHER_CONTINUATION = re.compile(r"[`^][ \t]*\Z")
"""A line continued the cmd (`^`) or PowerShell (`` ` ``) way: its command's end is not where sh sees it."""
_MOST_OPTIONS = 3
"""The fewest words after `run` an optioned run without an image has (fewer: an option shown alone)."""


def optioned_runs(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A `docker run` / `create` of a shell block whose words are all options and their values (see the
    module docstring): `certain`."""
    for fence in doc.fences:
        if not shell_block(fence):
            continue
        commands = list(fence_commands(fence))
        for at, lines in enumerate(commands):
            if any(_OTHER_CONTINUATION.search(text) for _, text in lines):
                continue
            text = joined([(n, sh_code(t)) for n, t in lines])
            for step in shell_steps(text):
                words = docker_words(step)
                found = docker_verb(words) if words else None
                if words is None or found is None or found[0] not in ("run", "create"):
                    continue
                mine = words[found[1] :]
                read = read_words(mine, RUN)
                if not read.complete or read.help or read.positional or len(mine) < _MOST_OPTIONS:
                    continue
                if at + 1 < len(commands) and unjoined(lines, commands[at + 1]) is not None:
                    continue  # (the next line carries it on: `continuations` tells that)
                raw = joined(lines).split()
                last = max((i for i, w in enumerate(raw) if w.startswith("-")), default=len(raw) - 1)
                shown = " ".join(raw[last : last + 2])
                verb = found[0]
                yield Diagnostic(
                    readme,
                    lines[0][0],
                    f"README's docker {verb} gives only options (the last: {shown}) and names no image: "
                    f'docker refuses it ("docker {verb}" requires at least 1 argument), so no container '
                    "starts (the image goes after the options)",
                    confidence=CERTAIN,
                )
