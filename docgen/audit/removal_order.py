"""A README clean-up that removes an image before the container made from it: `docker stop app && docker
rmi app && docker rm app`. A container, stopped or running, keeps using the image it was made from, and
while it exists the daemon refuses to remove that image's one name without `-f` ("conflict: unable to
remove repository reference … container … is using its referenced image"); joined with `&&`, the
`docker rm` after it never runs either. The order has to be `rm`, then `rmi`.

Read when the README makes the container itself: a `docker run` / `docker create` with `--name NAME`
(and no `--rm`, which removes it when it stops) of the image, and the same command block or code span
then runs `docker rmi` (`docker image rm`) of that image without `-f`, before a `docker rm` of that
container (`certain`: the daemon refuses it whatever the machine). Not read: an image the README gives
a second name (a build with two `-t`, a `docker tag` of it: removing one name of several only untags
it), a container removed before the `rmi`, names with variables or placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import fence_commands, joined, shell_steps, tagged_reference, without_prompt
from docgen.audit.docker_cli import docker_verb, docker_words
from docgen.audit.grammar import BUILD_GRAMMAR, RUN, options_grammar, read_words
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import sh_code

_RMI = options_grammar("", "-f --force --no-prune --help")
"""`docker rmi`'s options (`--platform` of newer CLIs takes a value, read as unknown: the command is
left alone)."""
_RM = options_grammar("", "-f --force -l --link -v --volumes --help")
"""`docker rm`'s options."""
_UNSURE = re.compile(r"[<>${}\[\]*`]|\.\.\.")
"""A word the shell or the reader fills in."""


@dataclass(frozen=True)
class _Step:
    """One docker command of the README, where it is."""

    line: int
    """Its README line."""
    group: int
    """The command block or code span it is in: steps are ordered within one."""
    verb: str
    """Its subcommand, the management form folded in (`container rm`: `rm`; `image rm`: `rmi`)."""
    words: list[str]
    """Its words after the subcommand."""
    text: str
    """The whole command (or code span) it is a step of."""


def _steps(doc: Document) -> Iterator[_Step]:
    """The docker commands of the README's command blocks and inline code spans, in order."""
    group = 0
    for fence in doc.fences:
        group += 1
        for lines in fence_commands(fence):
            text = without_prompt(joined([(n, sh_code(t)) for n, t in lines]))
            yield from _read(text, lines[0][0], group)
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "docker" not in text:
                continue
            for _, _, code in code_spans(text):
                group += 1
                yield from _read(without_prompt(code.strip()), line, group)


def _read(text: str, line: int, group: int) -> Iterator[_Step]:
    """The docker steps of one command's text."""
    for step in shell_steps(text):
        words = docker_words(step)
        if words is None or (found := docker_verb(words)) is None:
            continue
        verb, start = found
        rest = words[start:]
        if verb == "image" and rest[:1] in (["rm"], ["remove"]):
            verb, rest = "rmi", rest[1:]
        elif verb == "remove":
            verb = "rm"
        yield _Step(line, group, verb, rest, text)


def removed_in_use(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """Each `docker rmi` of an image a container the README made still uses, before the `docker rm` of
    that container in the same block (see the module): `certain`."""
    steps = list(_steps(doc))
    if not any(s.verb == "rmi" for s in steps):
        return
    made: dict[str, tuple[str, int]] = {}  # container → (image, README line)
    named: dict[str, int] = {}  # image → how many names the README gives its image
    for step in steps:
        if step.verb in ("run", "create"):
            read = read_words(step.words, RUN)
            names = [v for o, v in read.values if o == "--name"]
            if read.complete and read.positional and names and "--rm" not in read.flags:
                made[names[-1]] = (tagged_reference(read.positional[0]), step.line)
        elif step.verb == "build":
            tags = [
                tagged_reference(v)
                for o, v in read_words(step.words, BUILD_GRAMMAR).values
                if o in ("-t", "--tag")
            ]
            for tag in tags:
                named[tag] = max(named.get(tag, 0), len(tags))
        elif step.verb == "tag" and len(step.words) == 2:
            for word in step.words:
                named[tagged_reference(word)] = 2
    for at, step in enumerate(steps):
        if step.verb != "rmi":
            continue
        read = read_words(step.words, _RMI)
        if not read.complete or read.help or {"-f", "--force"} & set(read.flags):
            continue
        later = [s for s in steps[at + 1 :] if s.group == step.group and s.verb == "rm"]
        for image in read.positional:
            if _UNSURE.search(image) or named.get(tagged_reference(image), 1) > 1:
                continue
            for container, (used, made_at) in made.items():
                if used != tagged_reference(image) or _UNSURE.search(container):
                    continue
                removal = next((s for s in later if container in read_words(s.words, _RM).positional), None)
                if removal is None:
                    continue
                chained = removal.text == step.text and re.search(r"\brmi\b[^;|]*&&[^;|]*\brm\b", step.text)
                after = " (joined with &&, so that rm never runs either)" if chained else ""
                yield Diagnostic(
                    readme,
                    step.line,
                    f"README runs docker rmi {image} before docker rm {container}{after}: the container "
                    f"{container}, made from {image} by the docker run at README:{made_at}, still uses the "
                    "image, so the daemon refuses to remove it (conflict: unable to remove repository "
                    "reference … container … is using its referenced image); remove the container first, "
                    "then the image",
                    confidence=CERTAIN,
                )
                break
