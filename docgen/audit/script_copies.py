"""A README block that shows the content of a script of the repository (```` ```sh:run.sh ````, or under
words saying what the script runs) whose `docker run` the script has changed since: an option the
script passes that the copy lacks (`--net=host`), one the copy passes that the script no longer does,
an option of the same name with another value (`-v …/outputs:…/outputs` where the script mounts
`…/output:…/output`), or another image. Whoever reads the README believes the script runs what it shows.

A block is tied to a script of the README's folder (or a path below it) that exists:
- by its fence's info string, `lang:name` (`` ```bash:run.sh ``), or by a heading that is only the
  script's name right over it (`### run.sh`): `certain`;
- by the words just above it naming the script and saying the block is what it holds or runs (`the
  content of run.sh`, `` `start.sh` which runs: ``), or by the block just above it, with no words
  between, that only runs the script (`bash start_sd_web.sh`, then the command): `likely`.

Not compared: a block that only runs the script (`./run.sh --gpu 0`); a block the words above or its own
lines present as part of the script (`excerpt`, `simplified`, `...`) or as another way to run
(`instead`, `manually`, `without the script`, `for example`); a script the README ties two blocks or
more to (a tutorial building the file up step by step); a script or block with more than one `docker
run`, or options docgen does not know; a value with a placeholder (`<host user>`) or a variable that
neither side sets. Variables each side sets once (`IMAGE=app:1.0`) are expanded before comparing, so
`ros2docker:$DISTRO` with `DISTRO=galactic` is `ros2docker:galactic`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import without_prompt
from docgen.audit.copies import EXCERPT
from docgen.audit.grammar import RUN
from docgen.build_scripts import BLANK, WITH_NVIDIA, container_command
from docgen.files import text_or_none
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic
from docgen.shell import sh_code, sh_words

_SCRIPT = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:sh|bash))(?![\w/-])")
"""A shell script's name or path (`run.sh`, `docker/start_gpu.sh`)."""
_SHOWS = re.compile(
    r"\b(?:contents?[ \t]+of|contains?|which[ \t]+(?:runs|does|executes|calls)|runs[ \t]+the[ \t]+following"
    r"|(?:is|are|looks)[ \t]+(?:as[ \t]+follows|like[ \t]+this)|consists[ \t]+of)\b|の中身|の内容|内容如下",
    re.IGNORECASE,
)
"""Words saying a block is what a script holds or runs (`the content of run.sh`, `start.sh, which runs:`)."""
_ANOTHER_WAY = re.compile(
    r"\b(?:instead|without|manually|directly|alternative(?:ly)?|otherwise|or[ \t]+(?:run|use)|for[ \t]+"
    r"example|e\.g\.|for[ \t]+instance|example|similar|equivalent|something[ \t]+like|your|custom\w*"
    r"|modif\w*|change)\b",
    re.IGNORECASE,
)
"""Words presenting a block as another way to run, or as the reader's own version of the script."""
_RUNS_SCRIPT = re.compile(r"(?:sudo[ \t]+)?(?:(?:ba|z)?sh[ \t]+)?(?:\./)?((?:[\w.-]+/)*[\w.-]+\.(?:sh|bash))")
"""A command that only runs a script (`bash start.sh`, `./run.sh`, `sh docker/run.sh`)."""
_DOCKER_RUN = re.compile(
    r"(?:\A|&&|\|\||;)[ \t]*(?:sudo[ \t]+)?" + container_command("run", WITH_NVIDIA, start="", end=BLANK)
)
_ASSIGNMENT = re.compile(r"[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=(\S*)[ \t]*\Z")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_NAMES = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
"""The name of each variable a value reads, in any form (`$HOME`, `${PORT:-80}`)."""
_UNREAD = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*[^A-Za-z0-9_}]|\$\(|`")
"""A value docgen does not work out: a default or another expansion (`${PORT:-80}`), a command's output."""
_PLACEHOLDER = re.compile(r"[<>]|\byour|/path/to|\bxxx", re.IGNORECASE)
_ALIASES = {
    "--volume": "-v",
    "--env": "-e",
    "--publish": "-p",
    "--net": "--network",
    "--workdir": "-w",
    "--user": "-u",
    "--interactive": "-i",
    "--tty": "-t",
    "--detach": "-d",
    "--hostname": "-h",
    "--memory": "-m",
    "--label": "-l",
    "--attach": "-a",
    "--cpu-shares": "-c",
    "--publish-all": "-P",
    "--net-alias": "--network-alias",
    "--dns-opt": "--dns-option",
}
_SHOWN = {"-v": "-v", "-e": "-e", "-p": "-p", "-w": "-w", "-u": "-u"}


@dataclass(frozen=True)
class _Run:
    """A `docker run` of a block or a script: its options and image, each with the line it is on."""

    options: list[tuple[str, str | None, int, str]]
    """(option, its value or None for a flag, line, the option as written), the option's name folded to
    one spelling (`--net` is `--network`)."""
    image: str
    image_line: int
    first: int
    """The line the command starts on."""
    open_ended: bool
    """Some of its words are a variable alone (`$GPU_OPTS`, `"$@"`): options may come from it."""


def _logical(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """The lines of each command of `lines` (a line and those it continues with `\\`), comments left out."""
    command: list[tuple[int, str]] = []
    for line, text in lines:
        if not command and text.lstrip().startswith("#"):
            continue
        command.append((line, text))
        if not text.rstrip().endswith("\\"):
            yield command
            command = []
    if command:
        yield command


def _assignments(lines: list[tuple[int, str]]) -> dict[str, str]:
    """The variables `lines` set once each, outside any condition (`NAME=value`); quotes removed."""
    seen: dict[str, list[str]] = {}
    for _, text in lines:
        if (m := _ASSIGNMENT.match(text)) is not None:
            seen.setdefault(m.group(1), []).append(m.group(2).strip("\"'"))
    return {
        name: values[0]
        for name, values in seen.items()
        if len(values) == 1 and not _PLACEHOLDER.search(values[0])  # (`<host_dir>`: the reader's to set)
    }


def _expanded(value: str, variables: dict[str, str]) -> str:
    """`value` with the `$NAME`s that `variables` set replaced, once."""
    return _VARIABLE.sub(lambda m: variables.get(m.group(1) or m.group(2), m.group(0)), value)


def _runs(lines: list[tuple[int, str]]) -> list[_Run] | None:
    """Each `docker run` of `lines`, read; None when one cannot be read (an unknown option, a quote left
    open)."""
    found: list[_Run] = []
    for command in _logical(lines):
        text = " ".join(sh_code(without_prompt(t)).rstrip().removesuffix("\\") for _, t in command)
        m = _DOCKER_RUN.search(text)
        if m is None:
            continue
        if len(text) > 4000:
            return None
        try:
            words = sh_words(text[m.end() :])
        except ValueError:
            return None
        run = _read(words, command)
        if run is None:
            return None
        found.append(run)
    return found


def _line_of(command: list[tuple[int, str]], word: str) -> int:
    """The line of `command` that holds `word` (its first line when none does)."""
    return next((line for line, text in command if word and word in text), command[0][0])


def _read(words: list[str], command: list[tuple[int, str]]) -> _Run | None:
    """The options and image of `docker run`'s words; None when an option is unknown or there is no image."""
    options: list[tuple[str, str | None, int, str]] = []
    open_ended = False
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if _VARIABLE.fullmatch(word):
            open_ended = True
            continue
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            if name in RUN.values:
                if not eq:
                    if at >= len(words):
                        return None
                    value = words[at]
                    at += 1
                options.append((_ALIASES.get(name, name), value, _line_of(command, value or name), name))
            elif name in RUN.flags and not eq:
                options.append((_ALIASES.get(name, name), None, _line_of(command, name), name))
            else:
                return None
            continue
        if word.startswith("-") and len(word) > 1:
            for index, char in enumerate(word[1:], start=1):
                option = "-" + char
                if option in RUN.values:
                    value = word[index + 1 :].removeprefix("=")
                    if not value:
                        if at >= len(words):
                            return None
                        value = words[at]
                        at += 1
                    options.append((option, value, _line_of(command, value), option))
                    break
                if option not in RUN.flags:
                    return None
                options.append((option, None, _line_of(command, word), option))
            continue
        return _Run(options, word, _line_of(command, word), command[0][0], open_ended)
    return None


def _shown(option: str, value: str | None) -> str:
    """An option as a finding writes it."""
    if value is None:
        return option
    return f"{option} {value}" if option in _SHOWN else f"{option}={value}"


def _intro(doc: Document, fence: Fence) -> tuple[str, int]:
    """The last two lines of the paragraph ending at most two lines over `fence`, and its last line (0
    when there is none)."""
    start = fence.lines[0][0]
    at = bisect.bisect_left(doc.paragraphs, start - 3, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[at : at + 2]:
        if start - 3 <= para.lines[-1][0] < start:
            return "\n".join(text for _, text in para.lines[-2:]), para.lines[-1][0]
    return "", 0


def _between_is_blank(doc: Document, starts: list[int], after: int, before: int) -> bool:
    """True when no paragraph, heading or block of `doc` lies between the lines `after` and `before`."""
    heading = bisect.bisect_right(doc.headings, after, key=lambda h: h[0])
    if heading < len(doc.headings) and doc.headings[heading][0] < before:
        return False
    fence = bisect.bisect_right(starts, after)
    if fence < len(starts) and starts[fence] < before:
        return False
    at = bisect.bisect_left(doc.paragraphs, after + 1, key=lambda para: para.lines[-1][0])
    return not any(para.lines[0][0] < before for para in doc.paragraphs[at : at + 1])


def _tie(doc: Document, starts: list[int], fence: Fence, index: int) -> tuple[str, str] | None:
    """(the script `fence` shows the content of, how sure that is), as the module docstring says."""
    start = fence.lines[0][0]
    named = fence.title
    if named and (m := _SCRIPT.fullmatch(named.strip())) is not None:
        return m.group(1), CERTAIN
    heading = bisect.bisect_right(doc.headings, start, key=lambda h: h[0]) - 1
    if heading >= 0:
        line, text = doc.headings[heading]
        title = text.strip().strip("`*").removeprefix("~/")
        if (m := _SCRIPT.fullmatch(title)) is not None and _between_is_blank(doc, starts, line, start):
            return PurePosixPath(m.group(1)).name if "~" in text else m.group(1), CERTAIN
    intro, last = _intro(doc, fence)
    if intro and _between_is_blank(doc, starts, last, start):
        names = {m.group(1) for m in _SCRIPT.finditer(intro)}
        if len(names) == 1 and _SHOWS.search(intro) and not _ANOTHER_WAY.search(intro):
            return names.pop(), LIKELY
    if index > 0:
        above = doc.fences[index - 1]
        commands = [
            " ".join(t.strip() for _, t in c)
            for c in _logical(above.lines)
            if "".join(t for _, t in c).strip()
        ]
        if (
            above.lines
            and len(commands) == 1
            and (m := _RUNS_SCRIPT.fullmatch(without_prompt(commands[0]).strip())) is not None
            and _between_is_blank(doc, starts, above.lines[-1][0], start)
        ):
            return m.group(1), LIKELY
    return None


def _normal(value: str, variables: dict[str, str]) -> str:
    """`value` as compared: the variables `variables` set expanded, `${NAME}` as `$NAME`, `$(pwd)` as
    `$PWD`, a leading `~` as `$HOME`."""
    value = _expanded(value, variables)
    value = _VARIABLE.sub(lambda m: "$" + (m.group(1) or m.group(2)), value).replace("$(pwd)", "$PWD")
    return re.sub(r"(?:(?<=\A)|(?<=[=:]))~(?=/|\Z)", "$HOME", value)


def _differences(
    mine: _Run, theirs: _Run, mine_vars: dict[str, str], their_vars: dict[str, str], close: bool
) -> Iterator[tuple[int, str]]:
    """(README line, what differs, `{script}` standing for the script's name) between a copy's `docker
    run` and its script's. The copy's variables are expanded with its own values, then the script's (the
    reader sets them as the script does). With `close`, nothing unless most options of both are the
    same (two at least): a block tied to the script by the words or the block over it only (the next
    step's command under a block running a build script is no copy of it)."""
    copy_vars = {**their_vars, **mine_vars}
    placeholder = {
        name for name, value, _, _ in mine.options if value is not None and _PLACEHOLDER.search(value)
    }
    left = [o for o in mine.options if o[0] not in placeholder]
    right = [o for o in theirs.options if o[0] not in placeholder]
    right_keys = [(n, None if v is None else _normal(v, their_vars)) for n, v, _, _ in right]
    unmatched: list[tuple[str, str | None, int, str]] = []
    for name, value, line, written in left:
        key = (name, None if value is None else _normal(value, copy_vars))
        hit = next((i for i, k in enumerate(right_keys) if k == key), None)
        if hit is None:
            unmatched.append((name, value, line, written))
        else:
            del right[hit], right_keys[hit]
    matched = len(left) - len(unmatched)
    if close and (matched < 2 or 2 * matched < max(len(left), len(theirs.options))):
        return
    by_name: dict[str, list[tuple[str, str | None, int, str]]] = {}
    for option in right:
        by_name.setdefault(option[0], []).append(option)
    for name, value, line, written in unmatched:
        others = by_name.get(name, [])
        if value is not None and others and others[0][1] is not None:
            other = others.pop(0)
            said, fact = _normal(value, copy_vars), _normal(other[1] or "", their_vars)
            if _NAMES.findall(said) != _NAMES.findall(fact) or _UNREAD.search(said + fact):
                continue  # (written with other variables, `$HOME` for `/home/$USER`, or a default, a command)
            yield (
                line,
                f"passes {_shown(written, value)} where {{script}}:{other[2]} passes "
                f"{_shown(other[3], other[1])}",
            )
        elif not theirs.open_ended and not others:
            yield line, f"passes {_shown(written, value)}, which {{script}} does not pass"
    for options in by_name.values():
        for _, value, line, written in options:
            yield mine.first, f"lacks {_shown(written, value)}, which {{script}}:{line} passes"
    said, fact = _normal(mine.image, copy_vars), _normal(theirs.image, their_vars)
    if said != fact and "$" not in said + fact and not _PLACEHOLDER.search(said):
        yield mine.image_line, f"runs the image {said} where {{script}}:{theirs.image_line} runs {fact}"


def script_copies(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The `docker run` differences between each block tied to a script and the script (see the module
    docstring)."""
    tied: dict[str, list[tuple[Fence, str]]] = {}
    starts = [f.lines[0][0] if f.lines else 0 for f in doc.fences]  # (in order)
    for index, fence in enumerate(doc.fences):
        if not fence.lines:
            continue
        found = _tie(doc, starts, fence, index)
        if found is not None:
            tied.setdefault(found[0], []).append((fence, found[1]))
    for name, blocks in tied.items():
        if len(blocks) != 1 or ".." in PurePosixPath(name).parts or name.startswith("/"):
            continue
        fence, confidence = blocks[0]
        text = text_or_none(directory / name)
        if text is None:
            continue
        intro, _ = _intro(doc, fence)
        body = "\n".join(t for _, t in fence.lines)
        if EXCERPT.search(intro) or EXCERPT.search(body):
            continue
        script_lines = list(enumerate(text.splitlines(), 1))
        mine, theirs = _runs(fence.lines), _runs(script_lines)
        if mine is None or theirs is None or len(mine) != 1 or len(theirs) != 1:
            continue
        mine_vars, their_vars = _assignments(fence.lines), _assignments(script_lines)
        for line, said in _differences(mine[0], theirs[0], mine_vars, their_vars, confidence == LIKELY):
            message = f"README's copy of {name} " + said.replace("{script}", name)
            yield Diagnostic(readme, line, message, confidence=confidence)
