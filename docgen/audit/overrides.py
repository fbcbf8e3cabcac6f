"""A command the README gives a container of the image that the image's ENTRYPOINT throws away:

- the words after the image of a `docker run` (`docker run … IMAGE python -m x --port 8000`), and the
  compose `command:` a sentence tells the user to edit (`Edit the `command` parameter to customize
  what arguments the web-ui runs on`) when a compose file beside the Dockerfile gives one to a service
  building it, while the image's ENTRYPOINT is in shell form (`ENTRYPOINT python launch.py`): BuildKit
  runs it as `/bin/sh -c "…"`, which drops CMD and every argument of the run (an exec-form
  `["sh", "-c", "…"]` that never reads `$@`, `$1` … does the same);
- the words after the image of a `docker run` while the image's exec-form ENTRYPOINT starts a shell
  script the image copies in from the build context (`ENTRYPOINT ["/app/entrypoint.sh"]`) that never
  reads its arguments: no `"$@"`, `$*`, `$1`, `$#`, `shift` or `getopts`; the words reach the script
  and it launches what it always launches.

Left alone: a run that replaces the entrypoint (`--entrypoint`), a run with nothing after the image, a
run of an image the README does not build or of the base; an ENTRYPOINT the base sets (docgen cannot
see it); a script that sources another file (`source`, `.`), runs `eval`, is not a shell script, is
not beside the Dockerfile, or that a RUN of the image edits; an exec-form ENTRYPOINT that starts a
program rather than a script. Each finding reads a command of the README (or a sentence naming a
compose `command:` the compose file has) and a Dockerfile instruction, and is `certain`.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, Auditor, dockerfile_read
from docgen.audit.commands import fence_commands, joined
from docgen.audit.names import compose_file, docker_run, image_at
from docgen.audit.paths import resolves_inside
from docgen.audit.run_time import RunImage, runs_ours
from docgen.audit.wording import line_at, sentences
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, Setting

_SHELLS = frozenset({"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/bin/dash", "/usr/bin/bash"})
"""Shells an exec-form ENTRYPOINT may start its script with (`["bash", "/start.sh"]`)."""
READS_ARGS = re.compile(
    r"\$[@*#1-9]|\$\{[@*#1-9]|\bshift\b|\bgetopts\b|\bBASH_ARGV\b|\bset[ \t]+--"
    r"|(?:^|[;&|{(][ \t]*|\bthen[ \t]+|\bdo[ \t]+)(?:source|\.)[ \t]+\S|\beval\b",
    re.MULTILINE,
)
"""A script that reads its arguments, or may by means docgen cannot follow (a file it sources, `eval`)."""
_COMMAND_LINE = re.compile(r"[ \t]*[^\s#]")
"""A line of a script that is neither blank nor a comment."""
_SHELL_SCRIPT = re.compile(r"\A#![ \t]*/\S*/(?:env[ \t]+)?(?:ba|da|z)?sh\b")
_CUT = re.compile(r"[ \t](?:&&|\|\||[|;#]|\d?>)|[ \t]*\Z")
"""Where the words after a `docker run`'s image end: the next command, a pipe, a redirection, a comment."""


def _discards(image: RunImage) -> tuple[Setting, str] | None:
    """(the ENTRYPOINT, why it drops the arguments of a run) of an image whose ENTRYPOINT, set by one of
    its own stages, throws away CMD and the words after the image of a `docker run`; None otherwise."""
    entry = image.last("ENTRYPOINT")
    if entry is None:
        return None
    words = entry.exec_form
    if words is None:  # (BuildKit: anything but a JSON array of strings is the shell form)
        return entry, "is in shell form: /bin/sh -c runs it and drops CMD and every argument of the run"
    if not words:
        return None
    if posixpath.basename(words[0]) in ("sh", "bash", "dash") and len(words) >= 3 and words[1] == "-c":
        if READS_ARGS.search(words[2]):
            return None
        return entry, f"runs `{words[2]}` with sh -c, which never reads the arguments of the run"
    script = words[1] if words[0] in _SHELLS and len(words) > 1 else words[0]
    found = _copied_script(image, script)
    if found is None or not _never_reads_arguments(found[1], script.endswith(".sh")):
        return None
    return entry, f"starts {script} ({found[0]}), a script that never reads its arguments"


def _never_reads_arguments(path: Path, named_sh: bool) -> bool:
    """True when the file at `path` is a shell script (a shell's `#!`, or none and `named_sh`: its name
    ends in `.sh`) with a command, that never reads its arguments (`READS_ARGS`); False when it cannot be
    read. Read once for every part of the README, again only when the file has changed (its size or
    modification time): a script of megabytes is searched whole."""
    try:
        stat = path.stat()
    except OSError:
        return False
    return _never_reads_arguments_at(str(path), stat.st_mtime_ns, stat.st_size, named_sh)


@functools.lru_cache(maxsize=64)
def _never_reads_arguments_at(path: str, mtime_ns: int, size: int, named_sh: bool) -> bool:
    """`_never_reads_arguments` of the file as it was at that modification time and size (the cache key)."""
    text = text_or_none(Path(path))
    if text is None or not (_SHELL_SCRIPT.match(text) or (named_sh and not text.startswith("#!"))):
        return False
    if READS_ARGS.search(text) or not any(_COMMAND_LINE.match(line) for line in text.splitlines()):
        return False  # (a script with no command is a stand-in for one docgen is not shown)
    return True


def _copied_script(image: RunImage, script: str) -> tuple[str, Path] | None:
    """(path shown, path) of the file of the build context, beside the Dockerfile, that the image copies
    to the path `script` its ENTRYPOINT starts (`RunImage.context_file`: as `docgen.copied` reads the
    copy); None when none does, it is no file or a RUN of the image names it (it may be edited)."""
    model = image.model
    if not model.file:
        return None
    name = posixpath.basename(script)
    copied = image.copied_to(name)
    if copied is None or (
        script.startswith("/") and posixpath.normpath(copied[0]) != posixpath.normpath(script)
    ):
        return None
    path = image.context_file(name, copied[1])
    if path is None or _edited(model.file, name):
        return None
    inside = path.relative_to(Path(model.file).parent.resolve()).as_posix()
    return posixpath.normpath(posixpath.join(posixpath.dirname(model.path), inside)), path


def _resolved(folder: Path) -> Path | None:
    """`folder` with its links resolved, the top the files read beside a Dockerfile must stay in; None
    when it cannot be resolved (a symlink loop)."""
    try:
        return real_path(folder)
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return None


def _edited(dockerfile: str, name: str) -> bool:
    """True when a RUN of the Dockerfile names the file `name` (other than making it executable), or the
    Dockerfile cannot be read."""
    read = dockerfile_read(dockerfile)  # (parsed once for every part of the README)
    if read is None:
        return True
    for inst in read[1].instructions:
        if inst.keyword != "RUN":
            continue
        text = " ".join([inst.args, *(h.body for h in inst.heredocs)])
        for part in re.split(r"&&|;|\|\|", text):
            if name in part and not re.match(r"\s*chmod\b", part):
                return True
    return False


# --------------------------------------------------------------------------------------------------
# the README's claims


def discarded_commands(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of this module on one part of the README (see the module docstring)."""
    images = [RunImage(model) for model in auditor.models]
    facts = [_discards(image) for image in images]
    if not images or any(fact is None for fact in facts):
        return
    entry, why = facts[0] or (None, "")
    if entry is None:
        return
    fact = f"the ENTRYPOINT of {images[0].model.path}:{entry.line} {why}"
    yield from _run_commands(part, auditor, fact, entry.exec_form or [])
    if "shell form" in why or "sh -c" in why:
        yield from _compose_commands(part, auditor, images, fact)


def _run_commands(
    part: Document, auditor: Auditor, fact: str, entry: Sequence[str] = ()
) -> Iterator[Diagnostic]:
    """A finding for each `docker run` of an image the README builds with words after the image, but
    for words that are the ENTRYPOINT's own (`entry`, exec form: `./run.sh` after an image starting
    `./run.sh`), which run what the ENTRYPOINT runs anyway."""
    whole = [posixpath.normpath(word) for word in entry]
    own = (whole, whole[-1:])
    ours = runs_ours(auditor)
    for fence in part.fences:
        for command in fence_commands(fence):
            text = joined(command).replace("[", " ").replace("]", " ")
            if (run := docker_run(text)) is None:
                continue
            start, image = run
            if not ours(image):
                continue
            at = image_at(text, start, image)
            if at < 0 or "--entrypoint" in text[start:at]:
                continue
            rest = text[at + len(image) :]
            rest = rest[: _CUT.search(rest).start()].strip()  # type: ignore[union-attr]
            if not rest or [posixpath.normpath(w) for w in rest.split()] in own:
                continue
            first = rest.split()[0]
            line = next((n for n, t in command if first in t and image not in t), command[0][0])
            shown = " ".join(rest.split()[:4]) + (" …" if len(rest.split()) > 4 else "")
            yield Diagnostic(
                auditor.path,
                line,
                f"README passes `{shown}` to a container of {image}, but {fact}: the command is ignored",
                confidence=CERTAIN,
            )


_COMMAND_SPAN = re.compile(r"(?:command|command:|CMD)\Z")
_EDIT_VERB = re.compile(r"\b(?:edit|change|modify|customi[sz]e|adjust|set|override|pass)\w*\b", re.IGNORECASE)
_ARGUMENTS = re.compile(r"\b(?:arguments?|args|flags?|options?|parameters?)\b", re.IGNORECASE)


def tells_to_edit(sentence: str) -> bool:
    """True when `sentence` tells the user to give the program arguments through a compose `command:`: a
    verb of editing (`_EDIT_VERB`) before a word for arguments (`_ARGUMENTS`), or one after it other than
    `set` (`arguments … to change`). Each pattern is searched once: a `.*` between them made a long
    sentence of such verbs cost its length squared."""
    verbs = [m for m in _EDIT_VERB.finditer(sentence)]
    words = [m for m in _ARGUMENTS.finditer(sentence)]
    if not verbs or not words:
        return False
    after = [m for m in verbs if not m.group().lower().startswith("set")]
    return verbs[0].end() <= words[-1].start() or (bool(after) and words[0].end() <= after[-1].start())


def _compose_commands(
    part: Document, auditor: Auditor, images: list[RunImage], fact: str
) -> Iterator[Diagnostic]:
    """A finding for a sentence telling the user to edit the `command` of a compose service that builds
    the image (a compose file beside its Dockerfile gives the service one)."""
    given = [c for image in images for c in _compose_given(image)]
    if not given:
        return
    where, service = given[0]
    for para in part.paragraphs:
        for start, _end, sentence in sentences(para.lines):
            if not any(_COMMAND_SPAN.match(code.strip()) for _, _, code in code_spans(sentence)):
                continue
            if not tells_to_edit(sentence):
                continue
            yield Diagnostic(
                auditor.path,
                line_at(para.lines, start),
                f"README says to edit the `command` of the container, but {fact}: the `command:` "
                f"{where} gives service {service} is ignored",
                confidence=CERTAIN,
            )


def _compose_given(image: RunImage) -> Iterator[tuple[str, str]]:
    """(compose file shown, service) of each service of a compose file beside the image's Dockerfile that
    builds it (no `image:` of its own, its `dockerfile:` this one or none) and gives it a `command:`; a
    compose file linked out of the Dockerfile's folder is not read."""
    if not image.model.file:
        return
    dockerfile = Path(image.model.file)
    folder = dockerfile.parent
    top = _resolved(folder)
    for path in compose.default_files(folder):
        read = compose_file(path) if top is not None and resolves_inside(path, top) else None
        if read is None:
            continue
        for service in read[0]:
            if service.image is not None or not any(k == "command" for k, _ in service.settings):
                continue
            named = service.dockerfile or "Dockerfile"
            if posixpath.basename(named) != dockerfile.name:
                continue
            yield posixpath.join(posixpath.dirname(image.model.path), path.name), service.name
