"""A command of a README's shell block whose `\\` continues it into a comment line: the shell ends the
command there, so what the lines after it hold (the image, its arguments) is never passed.

```
docker run --rm -it --gpus all \\
    --volume $PWD:/work \\
    # on the GPU
    ffmpeg -hwaccel cuda -i in.mp4 out.mp4
```

A `\\` at the end of a line joins the next line to it; when that line starts with `#`, the joined text is
a comment to its end, and the command is over: `docker run` runs with no image, and `ffmpeg …` runs on
the host as a command of its own. `certain`: the shell's grammar says so, whatever the words.

Only shell blocks are read (```` ```sh ````, `bash`, `shell`, `console`, a block with no language or
`none`), and only when the line after the comment goes on with the command: indented deeper than its first
line or an option (an empty line, the end of the block or a command at the first line's depth after it
lost nothing: the `\\` was stray). Not read: a block of a Dockerfile (a line starting with an instruction,
`# syntax=`: BuildKit drops comment lines inside a continued RUN, which is valid), a PowerShell block
(continued with a backtick), a heredoc's body, and a `#` inside quotes that a continued line opened
(`sh -c "apt-get update && \\` then `# …` is text of the string), and a line ending where the shell
reads on past a newline (`make && \\`, `| \\`, `do \\`): a comment line after it ends nothing.

A `\\` followed by blanks (`blank_continuations`): the `\\` escapes the first blank, not the newline, so
the command ends at that line and the next, which goes on with it (indented deeper, an option), runs as a
command of its own (`certain`).

The other way round (`missing_continuations`): a `docker run` written over several lines whose last line
has no `\\`, followed by a line that is only an image reference (`org/app:latest`): the run ended before
it, so docker never gets that image and the shell runs the image's name as a command of its own. A
`docker exec` or `build` too, before an option indented deeper or a build's context. One predicate
(`unjoined`) tells it for a pair of commands; `command_slips.unjoined_lines` gives it the commands of the
scripts and make recipes the README runs (`shell_commands`: a script's, joined as the shell joins them),
read as code, where no line starts with an option.

PowerShell's continuation in a POSIX shell's block (`powershell_continuations`): a block labelled
```` ```sh ````, `bash`, `shell` or `zsh` whose command lines end in a backtick (`` docker run -it ` ``),
PowerShell's way to go on to the next line. In sh a backtick opens a command substitution that the next
backtick closes, so the lines are not joined and the command cannot run as written. `certain`: the
label says which shell reads the block. Not read: a block with no language, a `console` block, one
written at PowerShell's prompt (`PS C:\\>`), one the line above it or its heading puts on Windows
(`For Windows, run the following.`: a wrong label, not a wrong command), and a line whose backtick
closes one opened on it (`` echo `date` ``).

A command joined to the next one (`joined_commands`): a line ending in `\\` whose next line starts a
command of its own (`cd`, `docker`, `git`, `pip`, `python`, `export`, at any depth): the `\\` makes that
word and the rest of its line more arguments of the first command, and the second never runs. Read only
where the first command's grammar says the words are too many: `git clone` then holding more than its two
operands (a repository and a folder, `clone_operands`) is `certain` ("Too many arguments"); `cd DIR`, a
`docker build` / `podman build` with its context, and a `docker pull` / `push` with its image are `likely`
(a shell's `cd` may take two words). A command that takes any words after its own (`docker run IMAGE \\`
then `python app.py` runs python in the container; `sudo`, `env`, `pip install`, `export`) is not read.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from docgen.audit.auditor import CERTAIN, LIKELY, clipped
from docgen.audit.commands import SHELL_PROMPT, build_words, clone_operands, fence_commands, without_prompt
from docgen.audit.grammar import BUILD_GRAMMAR, RUN, options_grammar, read_words
from docgen.audit.wording import SHELL_LANGS, heading_of, is_shell_fence, line_above
from docgen.build_scripts import LINE_WORD_END, NOT_AFTER_DASH, container_command
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic
from docgen.shell import sh_tokens, shell_split

_DOCKERFILE_LINE = re.compile(
    r"[ \t]*(?:(?:FROM|RUN|COPY|ADD|ENV|ARG|WORKDIR|ENTRYPOINT|CMD|LABEL|EXPOSE|USER|VOLUME|SHELL"
    r"|HEALTHCHECK|ONBUILD|STOPSIGNAL|MAINTAINER)[ \t]|#[ \t]*(?:syntax|escape|check)[ \t]*=)"
)
"""A line of a Dockerfile: an instruction in capitals, or a parser directive."""
_HEREDOC = re.compile(r"(?<!<)<<-?[ \t]*([\"']?)([A-Za-z_][A-Za-z0-9_]*)\1")
"""The start of a heredoc (`<<EOF`, `<<-'END'`) and its delimiter word; not a here-string (`<<<`)."""
_COMMENT = re.compile(r"[ \t]*#")
_GOES_ON = re.compile(r"(?:&&|\|\||[|;&({]|(?<![\w-])(?:do|then|else|elif|in))[ \t]*\\[ \t]*\Z")
"""A line ending where the shell reads on past a newline (`&& \\`, `| \\`, `do \\`): a comment line after
it ends nothing (`make && \\`, `# then`, `make install` is one list)."""


def _scan(text: str, quote: str) -> tuple[str, bool]:
    """The quote still open at the end of the shell line `text` read from inside `quote` ('' for none,
    `'` or `"`), and whether the line ends in a `\\` that joins the next one; a `#` outside quotes at
    the start of a word starts a comment, which runs to the end of the line (a `\\` in it joins
    nothing)."""
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if quote == "'":
            if char == "'":
                quote = ""
        elif char == "\\":
            if i + 1 >= end:
                return quote, True
            i += 1  # the escaped character
        elif quote == '"':
            if char == '"':
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or text[i - 1] in " \t;&|("):
            return quote, False
        i += 1
    return quote, False


def shell_block(fence: Fence) -> bool:
    """A block read as shell commands (`is_shell_fence`), written out (not a prose line read as a command)
    and holding no Dockerfile and no PowerShell."""
    return (
        is_shell_fence(fence) and not fence.inline and not _is_dockerfile(fence) and not _is_powershell(fence)
    )


def _is_dockerfile(fence: Fence) -> bool:
    """A block of no or any shell language that holds a Dockerfile (an instruction, a directive)."""
    return any(_DOCKERFILE_LINE.match(text) for _, text in fence.lines)


def _is_powershell(fence: Fence) -> bool:
    """A block continued with PowerShell's backtick, or written at its prompt (`PS C:\\>`)."""
    return any(text.rstrip().endswith(" `") or text.lstrip().startswith("PS ") for _, text in fence.lines)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def comment_breaks(fence: Fence) -> Iterator[tuple[int, str, str]]:
    """(README line, comment, first line it cuts off) of each comment line a shell block's `\\`
    continues a command into, when the line after the comment (or after a run of them) goes on with
    the command: indented deeper than its first line, or an option (`-v …`); a line at the command's
    own depth is a command of its own after a stray `\\`, which lost nothing. Outside heredocs and
    quotes."""
    if not is_shell_fence(fence) or _is_dockerfile(fence) or _is_powershell(fence):
        return
    lines = fence.lines
    quote, continued, delimiter, strip, indent = "", False, "", False, 0
    i = 0
    while i < len(lines):
        text = lines[i][1]
        if delimiter:  # a heredoc's body, up to its delimiter line
            if (text.lstrip("\t") if strip else text).rstrip() == delimiter:
                delimiter = ""
            i += 1
            continue
        if continued and not quote and _COMMENT.match(text):
            j = i
            while j < len(lines) and _COMMENT.match(lines[j][1]):
                j += 1
            cut = lines[j][1] if j < len(lines) else ""
            if cut.strip() and (_indent(cut) > indent or cut.lstrip().startswith("-")):
                yield lines[i][0], lines[i][1].strip(), cut.strip()
            continued = False
            i = j
            continue
        if not continued and not quote:
            indent = _indent(text)  # a command's first line
        quote, continued = _scan(text, quote)
        continued = continued and not _GOES_ON.search(text)
        if not quote and (heredoc := _HEREDOC.search(text)) is not None:
            delimiter, strip = heredoc.group(2), text[heredoc.start() + 2 : heredoc.start() + 3] == "-"
            continued = False
        i += 1


def broken_continuations(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A comment line a `\\` continues a command of a shell block into (`comment_breaks`), `certain`."""
    for fence in doc.fences:
        for line, comment, cut in comment_breaks(fence):
            shown = clipped(cut)
            yield Diagnostic(
                readme,
                line,
                f"README continues a command with `\\` into the comment line `{comment}`: the shell ends "
                f"the command there, so `{shown}` after it is never passed to it (the command cannot run "
                "as written)",
                confidence=CERTAIN,
            )


_BLANKS_AFTER = re.compile(r"\\[ \t]+\Z")
"""A line ending in a `\\` with blanks after it: the `\\` escapes the first blank, not the newline."""


def blank_breaks(fence: Fence) -> Iterator[tuple[int, int, str, str]]:
    """(README line of the `\\`, line the command starts on, its first line, the next line) of each line of a
    shell block ending in a `\\` followed by blanks (`--env=DISPLAY \\   `) outside quotes, comments and
    heredocs, when the next line goes on with the command: indented deeper than its first line, or an
    option. Not after `&&`, `|` and the like (`_GOES_ON`)."""
    if not shell_block(fence):
        return
    lines = fence.lines
    quote, continued, delimiter, strip, indent, first = "", False, "", False, 0, 0
    for i, (number, text) in enumerate(lines):
        if delimiter:  # a heredoc's body, up to its delimiter line
            if (text.lstrip("\t") if strip else text).rstrip() == delimiter:
                delimiter = ""
            continue
        if not continued and not quote:
            indent, first = _indent(text), i  # a command's first line
        was = quote
        quote, continued = _scan(text, quote)
        continued = continued and not _GOES_ON.search(text)
        if not quote and (heredoc := _HEREDOC.search(text)) is not None:
            delimiter, strip = heredoc.group(2), text[heredoc.start() + 2 : heredoc.start() + 3] == "-"
            continued = False
            continue
        if continued or quote or not _BLANKS_AFTER.search(text) or i + 1 >= len(lines):
            continue
        bare = text.rstrip(" \t")
        if _scan(bare, was) != ("", True) or _GOES_ON.search(bare):
            continue  # (the `\\` is in a comment or a quote, or the shell reads on anyway)
        after = lines[i + 1][1]
        if (
            after.strip()
            and not _COMMENT.match(after)
            and (_indent(after) > indent or after.lstrip()[:1] == "-")
        ):
            yield number, lines[first][0], lines[first][1], after


def blank_continuations(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A command of a shell block continued with a `\\` followed by blanks into a line that goes on with it
    (`blank_breaks`), `certain`: the `\\` escapes a blank, so the shell ends the command at that line and
    runs the next one as a command of its own."""
    for fence in doc.fences:
        for line, start, head, after in blank_breaks(fence):
            shown = clipped(without_prompt(head).strip().removesuffix("\\").rstrip())
            yield Diagnostic(
                readme,
                line,
                f"README continues {shown} (line {start}) with a `\\` followed by blanks at line {line}: the "
                "`\\` escapes a blank, not the newline, so the shell ends the command there and runs "
                f"{clipped(after.strip())} as a command of its own (the command cannot run as written; "
                "delete the blanks after the `\\`)",
                confidence=CERTAIN,
            )


_BACKTICK_END = re.compile(r"(?<![`\\])`[ \t]*\Z")
"""A line that ends in a lone backtick, with blanks after it or none: PowerShell's line continuation."""
_PS_PROMPT = re.compile(r"[ \t]*PS(?:[ \t>]|[A-Za-z]:)")
"""PowerShell's prompt at the start of a line (`PS C:\\>`, `PS>`)."""
_WINDOWS = re.compile(r"windows|powershell|\bpwsh\b|\bWSL\b", re.IGNORECASE)
"""Words of an introduction or heading that put a block on Windows, where the backtick is right."""


def powershell_continuations(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """The first line of each command in a block labelled a POSIX shell (`SHELL_LANGS`) that goes on to
    the next line with PowerShell's backtick, `certain`: sh reads the backtick as a command
    substitution, so the lines are never joined."""
    for fence in doc.fences:
        if fence.inline or not is_shell_fence(fence, SHELL_LANGS) or _is_dockerfile(fence):
            continue
        if any(_PS_PROMPT.match(text) for _, text in fence.lines):
            continue
        opening = fence.lines[0][0] - 1 if fence.lines else 0
        if _WINDOWS.search(f"{line_above(doc, fence) or ''} {heading_of(doc, opening)}"):
            continue  # (`For Windows, run the following.` over a block labelled `sh`: a wrong label)
        first: tuple[int, str] | None = None
        count = 0
        for line, text in fence.lines:
            ended = bool(_BACKTICK_END.search(text)) and text.count("`") % 2 == 1
            if ended:
                if first is None:
                    first, count = (line, text.strip()), 0
                count += 1
                continue
            if first is not None:
                yield _powershell_finding(readme, first, count)
                first = None
        if first is not None:
            yield _powershell_finding(readme, first, count)


def _powershell_finding(readme: str, first: tuple[int, str], count: int) -> Diagnostic:
    line, text = first
    shown = clipped(text.rstrip("` \t"))
    lines = "its line ends" if count == 1 else f"{count} of its lines end"
    return Diagnostic(
        readme,
        line,
        f"README's shell block continues `{shown}` with PowerShell's backtick ({lines} in `` ` ``): "
        "sh reads a backtick as the start of a command substitution, not as a line continuation, so "
        "the command cannot run as written in sh (end the lines with `\\` instead)",
        confidence=CERTAIN,
    )


_DOCKER_COMMAND = re.compile(
    container_command(
        "run|create|exec|build", "nvidia-docker|docker|podman", start=NOT_AFTER_DASH, end=LINE_WORD_END
    )
)
"""A docker command whose words a missing `\\` cuts off: a run (`create`), an exec, a build."""
_TAGGED_IMAGE = re.compile(
    r"(?:[a-z0-9][a-z0-9.-]*(?::\d{1,5})?/)?[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)*"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@sha256:[0-9a-f]{64})"
)
"""An image reference with a tag or a digest (`org/app:latest`, `ghcr.io/org/app@sha256:…`): no shell
command is written so; a bare name (`app`, `bash`) may be one."""
_NAMESPACED_IMAGE = re.compile(
    r"(?:[a-z0-9][a-z0-9.-]*(?::\d{1,5})?/)?[a-z0-9][a-z0-9_-]*(?:/[a-z0-9][a-z0-9_-]*)+"
)
"""An image reference with a namespace and no tag (`org/app`, `ghcr.io/org/app`): read as the image of a
run that names none; its last part has no dot (`bin/run.sh` is a script)."""
_VARIABLE_WORD = re.compile(
    r"(?P<q>\"?)\$(?:\{[A-Za-z_]\w*\}|\([A-Za-z_]\w*\)|[A-Za-z_]\w*)(?::[\w.${}()-]+)?(?P=q)"
)
"""A variable (`$IMAGE`, `${IMAGE}:${TAG}`, a Makefile's `$(IMAGE)`, quoted or not): in a script or a
recipe, the image or the context a command naming none was meant to get."""
_PLAIN_IMAGE = re.compile(r"[a-z0-9][a-z0-9._-]*")
"""A bare image name (`jupyter-gpu`): in code, indented deeper below a run that names none, its image."""
_CONTEXT_WORD = re.compile(r"\.\.?/?|\.{0,2}/?[\w.-]+(?:/[\w.-]+)*/")
"""A build context on a line of its own: `.`, `..`, a folder ending in `/` (`docker/`)."""
_COMMENTED_END = re.compile(r"\\[ \t]+#")
"""A `\\` with a comment after it on its line (`-v a:/a \\  # the data`): it escapes the blank after it,
and the comment ends the line."""
_OPTION_LINE = re.compile(r"--?[A-Za-z]")
"""A line that starts with an option (`-o out:/out`, `--gpus all`): no command is named so."""
_CASE_ARM = re.compile(r"[ \t]*-[\w|*-]*\)")
"""A `case` arm's pattern (`-h|--help)`): a script line that starts with a dash and is no option."""
_SKETCH_LINE = re.compile(
    r"(?:\.{3}|…)[^\\]*|(?:\.{3}|…)?[ \t]*(?:<[^<>]*>|\([^()]*\)|\[[^\[\]]*\])[ \t]*(?:\.{3}|…)?"
)
"""A line of a sketch that stands for lines left out, not a command's last line: an elision (`...`,
`... (other options) ...`) or a placeholder alone (`<other options>`, `(more flags)`, `[OPTIONS]`)."""
_ADDRESS = re.compile(r"(?:localhost|[\d.]+):")
"""An address with a port (`localhost:8080`, `127.0.0.1:7000`): a place to open, not an image."""
_MOST_STEPS = 8
"""The most docker commands of one command read for the one it ends with (each reads the rest of it)."""
_STEP_ENDS = frozenset({"&&", "||", "|", ";", "&"})
_READS_ON = re.compile(r"(?:&&|\|\|?)[ \t]*\Z")
"""A line ending in `&&`, `||` or a pipe: the shell reads the next line as the list's next command."""
_EXEC = options_grammar(
    "-e --env --env-file -u --user -w --workdir --detach-keys",
    "-d --detach -i --interactive -t --tty --privileged",
)
"""The options of `docker exec`."""


@dataclass(frozen=True)
class Unjoined:
    """A docker command continued over lines whose last line lacks the `\\` the next line needs."""

    command: str
    """The command as its engine and verb (`docker run`, `nvidia-docker run`, `docker build`), after the
    tool whose command it is when another tool's (`bacalhau docker run`)."""
    first: int
    last: int
    """The lines the command starts and ends on."""
    line: int
    """The line after it, which goes on with it."""
    part: str
    """What of the command that line holds: `option`, `image` or `context`."""
    word: str
    """Its first word (`--name`, `$CONTAINER`, `.`)."""
    how: str
    """How the last line ends (`without a `\\``, or with a comment after its `\\`)."""


def _docker_command(text: str) -> tuple[str, list[str]] | None:
    """(engine and verb, the words after them) of the docker command `text` (a command's lines joined)
    ends with: the first one whose words hold no `&&`, `;` or pipe (a later step); None when there is
    none among the first `_MOST_STEPS`, or its words cannot be read."""
    for found in itertools.islice(_DOCKER_COMMAND.finditer(text), _MOST_STEPS):
        try:
            words = shell_split(text[found.end() :])
        except ValueError:
            continue
        if any(word in _STEP_ENDS or word.endswith(";") for word in words):
            continue
        engine, verb = found.group().split()[0], found.group().split()[-1]
        before = text[: found.start()].split()
        wrapper = before[-1] if before else ""
        if _WRAPPER.fullmatch(wrapper) and wrapper.lower() not in _RUNS_DOCKER:
            return f"{wrapper} {engine} {verb}", words  # (`bacalhau docker run`: its own tool's command)
        return f"{engine} {verb}", words
    return None


_WRAPPER = re.compile(r"[A-Za-z][\w.-]*")
"""A word written right before `docker run` that makes it another tool's command (`bacalhau docker run`,
a job of a scheduler with docker's own grammar): the message names that tool's command."""
_RUNS_DOCKER = frozenset("sudo doas time nohup exec env command nice then do else".split())
"""Words before `docker run` that run docker's own command: the command is still `docker run`."""


_GRAMMARS = {"build": BUILD_GRAMMAR, "exec": _EXEC}
"""The options of each verb read whose grammar is not `docker run`'s."""


def _no_operand(verb: str, words: list[str]) -> bool:
    """The command's `words` name no image (a run) or context (a build): every option is one the command
    has, none asks for help, and none of its words is positional (`docker run -v a:/b -w /c`)."""
    if verb not in ("run", "create", "build"):
        return False
    read = read_words(words, _GRAMMARS.get(verb, RUN))
    return read.complete and not read.help and not read.positional


def _known_option(verb: str, word: str) -> bool:
    """`word` is an option the command has (`-v`, `--name`, `-it`): in code, no command starts so."""
    read = read_words([word, "x"], _GRAMMARS.get(verb, RUN))
    return read.complete and not read.help


def unjoined(run: list[tuple[int, str]], after: list[tuple[int, str]], code: bool = False) -> Unjoined | None:
    """How the command `run` (its lines: a `docker run`, `create`, `exec` or `build` continued with `\\`)
    lost the `\\` of its last line, when the command `after` it (its lines) goes on with it; None when it
    does not. What goes on: an option indented deeper than the command's first line (in `code`, a
    script's or a recipe's, an option the command has at any depth too, not a `case` arm), the run's
    image (one with a tag or a digest alone on its line; one with a namespace indented deeper, in code a
    variable or a tagged one at any depth or a bare name indented deeper, while the run names none), a
    build's context (`.`, a folder, a variable) while it names none. A run on one line lost nothing
    unless an option indented deeper comes next and continues itself with `\\` (`-v a:/b \\`) or the
    run names no image yet (`docker run -it --rm` above `    -v a:/b`), in a README's block: a script's
    one-line run may be the first word of an array (`cmd=(` / `docker run` / `--name x` / `)`). Not after
    a line ending in `&&` or a pipe (the shell reads on), a comment line or a sketch's line
    (`... (other options) ...`, `_SKETCH_LINE`)."""
    last = run[-1][1]
    if not after or _COMMENT.match(last) or _READS_ON.search(last.split(" #", 1)[0].rstrip()):
        return None
    if _SKETCH_LINE.fullmatch(last.strip()):
        return None  # (a sketch line, `... (other options) ...`, stands for lines left out)
    text = " ".join(
        t.rstrip().removesuffix("\\") for t in [without_prompt(run[0][1]), *(t for _, t in run[1:])]
    )
    found = _docker_command(text)
    if found is None:
        return None
    command, words = found
    verb = command.split()[-1]
    line = after[0][1].strip()
    first = line.split()[0] if line else ""
    deeper = _indent(after[0][1]) > _indent(run[0][1])
    how = "without a `\\`"
    if _COMMENTED_END.search(last):
        how = "with a comment after its `\\` (which escapes a blank, not the newline)"
    told = functools.partial(Unjoined, command, run[0][0], run[-1][0], after[0][0], how=how)
    if _OPTION_LINE.match(first) and not _CASE_ARM.match(line):
        if (deeper or (code and _known_option(verb, first))) and (
            len(run) > 1 or len(after) > 1 or (not code and _no_operand(verb, words))
        ):
            return told("option", first)
        return None
    if len(run) < 2 or not first:
        return None
    near = deeper or code
    if verb in ("run", "create"):
        tagged = _TAGGED_IMAGE.fullmatch(line) is not None and not _ADDRESS.match(line) and len(after) == 1
        image = _NAMESPACED_IMAGE.fullmatch(first) is not None and deeper
        image = image or (code and bool(_VARIABLE_WORD.fullmatch(first) or _TAGGED_IMAGE.fullmatch(first)))
        image = image or (code and deeper and _PLAIN_IMAGE.fullmatch(first) is not None)
        if tagged or (image and (len(after) == 1 or code) and _no_operand(verb, words)):
            return told("image", line if tagged else first)
    if verb == "build" and near and len(after) == 1 and line == first and _no_operand(verb, words):
        if _CONTEXT_WORD.fullmatch(first) or (code and _VARIABLE_WORD.fullmatch(first)):
            return told("context", first)
    return None


def shell_commands(lines: Sequence[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """The lines of each command of shell code (`lines`: (line, text), a script's), joined as the shell
    joins them: a `\\` at a line's end outside a comment, a quote left open. A heredoc's body and its
    delimiter line are no command: left out."""
    quote, delimiter, strip = "", "", False
    command: list[tuple[int, str]] = []
    for line, text in lines:
        if delimiter:  # a heredoc's body, up to its delimiter line
            if (text.lstrip("\t") if strip else text).rstrip() == delimiter:
                delimiter = ""
            continue
        command.append((line, text))
        quote, continued = _scan(text, quote)
        if not quote and (heredoc := _HEREDOC.search(text)) is not None:
            delimiter, strip = heredoc.group(2), text[heredoc.start() + 2 : heredoc.start() + 3] == "-"
            continued = False
        if not (continued or quote):
            yield command
            command = []
    if command:
        yield command


def cut_off(gap: Unjoined) -> str:
    """What the missing `\\` does: `the image x on the next line is not passed to it: the run ends before
    it`, with the engine and verb's noun (`run`, `build`)."""
    noun = {"create": "command", "exec": "exec"}.get(gap.command.split()[-1], gap.command.split()[-1])
    return (
        f"the {gap.part} {clipped(gap.word)} on the next line is not passed to it: the {noun} ends before it"
    )


def missing_continuations(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A docker command of a shell block continued over several lines whose last line lacks the `\\`,
    when the next line goes on with it (`unjoined`): `certain`, the shell ends the command before it.
    Not read: a line after a prompt'd run without a prompt of its own (the run's output) unless it is
    an option indented deeper that a `\\` continues (`--gpus all \\`: no output line ends so), a
    Dockerfile block."""
    for fence in doc.fences:
        if not is_shell_fence(fence) or _is_dockerfile(fence) or _is_powershell(fence):
            continue
        commands = list(fence_commands(fence))
        for run, after in zip(commands, commands[1:], strict=False):
            gap = unjoined(run, after)
            if gap is None:
                continue
            if SHELL_PROMPT.match(run[0][1]) and not (
                gap.part == "option" and _indent(after[0][1]) > _indent(run[0][1]) and len(after) > 1
            ):
                continue  # after a prompt, a line without one is output, unless a `\` continues it
            yield Diagnostic(
                readme,
                gap.line,
                f"README's {gap.command} (line {gap.first}) ends at line {gap.last} {gap.how}, so "
                f"{cut_off(gap)} and the shell runs {clipped(gap.word)} as a command of its own (the command "
                "cannot run as written)",
                confidence=CERTAIN,
            )


_NEW_COMMAND = re.compile(
    r"[ \t]*(?:sudo[ \t]+)?(?:cd|pushd|docker|podman|git|pip3?|python3?|export)(?=[ \t]|\Z)"
)
"""A line that starts a command of its own: a joined word after a `\\` is an argument of the first."""
_MOST_LINES = 64
"""The most lines of one command read for a word joined to it: a longer run of `\\` lines is no command
a README documents (and each would be joined again)."""
_PULL_FLAGS = frozenset({"-q", "--quiet", "-a", "--all-tags", "--disable-content-trust"})
"""The options of `docker pull` / `push` that take no value (`--platform` takes one)."""


def _continued_into_commands(fence: Fence) -> Iterator[tuple[int, list[str], str]]:
    """(README line of the `\\`, the command's lines up to it, the next line) of each command of a shell
    block continued with `\\` into a line that starts a command of its own (`_NEW_COMMAND`); outside
    heredocs and quotes, not after `&& \\` or `| \\` (the shell reads on there), not into a comment."""
    if not is_shell_fence(fence) or _is_dockerfile(fence) or _is_powershell(fence):
        return
    lines = fence.lines
    quote, continued, delimiter, strip = "", False, "", False
    command: list[str] = []
    for i, (line, text) in enumerate(lines):
        if delimiter:  # a heredoc's body, up to its delimiter line
            if (text.lstrip("\t") if strip else text).rstrip() == delimiter:
                delimiter = ""
            continue
        if continued and not quote and _COMMENT.match(text):
            continued, command = False, []  # (`comment_breaks`)
            continue
        if not continued and not quote:
            command = []
        command.append(text)
        quote, continued = _scan(text, quote)
        continued = continued and not _GOES_ON.search(text)
        if not quote and (heredoc := _HEREDOC.search(text)) is not None:
            delimiter, strip = heredoc.group(2), text[heredoc.start() + 2 : heredoc.start() + 3] == "-"
            continued = False
        if (
            continued
            and not quote
            and i + 1 < len(lines)
            and len(command) <= _MOST_LINES
            and _NEW_COMMAND.match(lines[i + 1][1])
        ):
            yield line, list(command), lines[i + 1][1]


def _simple_words(text: str, last: bool) -> list[str] | None:
    """The words of the last (`last`) or first simple command of a shell line, a leading `sudo` left
    out; None when it cannot be read (a quote left open)."""
    try:
        tokens = sh_tokens(text)
    except ValueError:
        return None
    if last:
        at = max((i for i, t in enumerate(tokens) if t.operator), default=-1)
        tokens = tokens[at + 1 :]
    else:
        tokens = tokens[: next((i for i, t in enumerate(tokens) if t.operator), len(tokens))]
    words = [t.text for t in tokens]
    return words[1:] if words[:1] == ["sudo"] else words


def _too_many(words: list[str]) -> tuple[str, str] | None:
    """(what the command is, what it takes) when `words` is a command that already has all the operands
    it takes: `cd DIR`, a build with its context, a pull or push with its image; None otherwise."""
    if len(words) == 2 and words[0] in ("cd", "pushd") and not words[1].startswith("-"):
        return words[0], "one folder"
    tool = words[0] if words and words[0] in ("docker", "podman") else ""
    rest = words[1:]
    if rest[:2] == ["buildx", "build"]:
        rest = ["build", *rest[2:]]
    if tool and rest[:1] == ["build"]:
        read = build_words([w.strip("\"'") for w in rest[1:]])
        if read is not None and len(read[1]) == 1 and read[1][0] != "-":
            return f"{tool} build", "one context"
    if tool and rest[:1] in (["pull"], ["push"]):
        operands: list[str] = []
        args = iter(rest[1:])
        for word in args:
            if word == "--platform":
                next(args, None)
            elif word.startswith("--platform="):
                continue
            elif word.startswith("-"):
                if word not in _PULL_FLAGS:
                    return None
            else:
                operands.append(word)
        if len(operands) == 1:
            return f"{tool} {rest[0]}", "one image"
    return None


def joined_commands(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A command of a shell block whose `\\` joins the next line, which starts a command of its own, to
    it as more arguments (see the module docstring): `certain` for a `git clone` that so gets more than
    a repository and a folder, `likely` for `cd DIR`, a build with its context, a pull or a push with
    its image."""
    for fence in doc.fences:
        for line, command, after in _continued_into_commands(fence):
            first = without_prompt(command[0])
            text = " ".join(t.rstrip().removesuffix("\\") for t in [first, *command[1:]])
            words = _simple_words(text, last=True)
            more = _simple_words(after.strip(), last=False)
            if not words or not more:
                continue
            shown = clipped(" ".join(more))
            if words[:2] == ["git", "clone"]:
                before = clone_operands(words[2:], "'\"")
                if 0 < len(before) <= 2 < len(clone_operands(words[2:] + more, "'\"")):
                    yield Diagnostic(
                        readme,
                        line,
                        f"README's `git clone` ends with `\\`, which joins the next line `{shown}` to it: "
                        f"git clone gets `{more[0]}` and the words after it as more operands than a "
                        f'repository and a folder, so it stops ("Too many arguments") and `{more[0]}` '
                        "never runs (the command cannot run as written)",
                        confidence=CERTAIN,
                    )
                continue
            told = _too_many(words)
            if told is None:
                continue
            what, takes = told
            yield Diagnostic(
                readme,
                line,
                f"README's `{what}` ends with `\\`, which joins the next line `{shown}` to it: {what} "
                f"gets `{more[0]}` and the words after it as arguments while it takes {takes}, and "
                f"`{more[0]}` never runs as a command of its own (the command cannot run as written)",
                confidence=LIKELY,
            )
