"""Build commands in a README's command blocks: which lines are a `docker build` (continued lines
too), and the Dockerfile its `-f` names, from the folder a `cd` put the reader in; the folders the
blocks' `git clone` commands make, and the lines where a block leaves its folder (`cd`, `pushd`).
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator

from docgen.audit.root_vars import from_root
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD, BUILD_COMMAND
from docgen.markdown import Document, Fence
from docgen.shell import sh_code, sh_words

FILE_FLAG = re.compile(r"(?:^|[ \t])(?:-f|--file)(?:[ \t]+|=)[\"']?([^\s\"'`;|&]+)")
"""The Dockerfile a `docker build` / `podman build` command names."""
TAG_FLAG = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)[\"']?([^\s\"'`;|&]+)")
"""The name and tag a build command gives the image (`-t org/app:1.0`), up to a quote, a space or the
end of its command (`-t org/app&& docker run …`)."""


PLACEHOLDER = re.compile(r"\{[^{}/]*\}|<[^<>/]*>|\$\{[^{}/]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
"""A part of a `-f` path the reader fills in: `{DOCKER_FILE_NAME}`, `<dockerfile>`, `$DOCKERFILE`. A `${`
reads no further than the next `{` (else a run of `${` was read to its end from each: n²)."""


PICKED = re.compile(r"[<>${}*]|(?:\A|[/._:-])(?:your|my|some|example|foo|bar)(?:[/._:-]|\Z)", re.IGNORECASE)
"""An image name (or part of one) the reader picks or fills in: `your-image-name`, `my_app`, `<user>`,
`YOUR_DOCKERHUB_USER`."""
VERSION_PLACEHOLDER = re.compile(
    r"v?[xX](?:\.[xyzXYZ]){1,3}|<[\w-]*ver[\w-]*>|\{[\w-]*ver[\w-]*\}|\$\{?[A-Za-z_]*VER[A-Za-z_]*\}?",
    re.IGNORECASE,
)
"""A path part a reader fills with a version: `x.y.z`, `X.Y`, `<version>`, `{ver}`, `${VERSION}`."""


def placeholder_pattern(path: str) -> re.Pattern[str] | None:
    """The Dockerfile paths a `-f` with a placeholder may name (`{NAME}.dockerfile`: any `*.dockerfile`;
    `<dockerfile>`: any), matched at the end of a path; None for a `-f` without one."""
    if not PLACEHOLDER.search(path):
        return None
    pieces: list[str] = []
    at = 0
    for match in PLACEHOLDER.finditer(path):
        pieces += [re.escape(path[at : match.start()]), "[^/]*" if len(match.group()) < len(path) else ".*"]
        at = match.end()
    pieces.append(re.escape(path[at:]))
    return re.compile(r"(?:\A|/)" + "".join(pieces).removeprefix(r"\./") + r"\Z")


CD = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?cd[ \t]+([^\s;&|]+)[ \t]*(?:$|&&|;)")
"""`cd main` (or `$ cd main &&` before the build on the same line): later `-f` paths are from there."""


def file_flags(
    fence: Fence, roots: frozenset[str] = frozenset(), checkout: bool = False
) -> Iterator[tuple[int, str]]:
    """(README line, path) of each `-f PATH` of a build command in a command block (continued lines too),
    from the folder the block is in after its `cd` lines; after a `cd` to a place that cannot be told
    (`cd $WORKDIR`, `cd ~/src`) a path starts with `$`. A `cd` into a variable that is the repository's
    root (`cd $ROOT/docker`, `ROOT` in `roots` or a name such as `REPO_ROOT`: `root_vars.from_root`)
    goes to that folder from the root. With `checkout`, a `cd` into a placeholder of the reader's
    checkout (`cd /path/to/app`, `cd <repo>`, `cd ~/src/app`) in a block that clones nothing leads to
    `CHECKOUT` (`$CHECKOUT/docker/Dockerfile.x`): the caller tells whether that is this project's root."""
    if fence.lang not in COMMAND_LANGS:
        return
    building = False
    folder = ""
    cloned = False
    for line, text in fence.lines:
        cloned = cloned or bool(_CLONE.search(text))
        if (cd := CD.match(text)) is not None:
            if checkout and not cloned and PLACED_CHECKOUT.fullmatch(cd.group(1).strip("\"'").rstrip("/")):
                folder = CHECKOUT
            elif checkout and folder.startswith(CHECKOUT) and not cd.group(1).startswith(("/", "$", "~")):
                folder = posixpath.normpath(posixpath.join(folder, cd.group(1).strip("\"'")))
            else:
                folder = entered(folder, cd.group(1), roots)
        # a `cd` first in a quoted shell string (`sh -c 'cd docker && docker build -f …'`) moves only
        # the string's commands
        here = folder
        if (shell := SHELL_STRING_START.match(text)) and (cd := CD.match(text[shell.end() :])):
            here = entered(folder, cd.group(1), roots)
        building = building or bool(BUILD.search(text))
        if building:
            for match in FILE_FLAG.finditer(text):
                path = match.group(1)
                if here and not path.startswith(("/", "$")):
                    path = posixpath.normpath(posixpath.join(here, path))
                yield line, path
        if not continued(text):
            building = False


_SWAP_NOTE = re.compile(r"[ \t]*#.*\b(?:replace|change|substitute|swap)\b", re.IGNORECASE)
"""A comment in a command block telling the reader to put another value in (`# replace the version
number cu124 with the one you want to use`)."""


def swapped_flags(fence: Fence) -> set[int]:
    """The README lines of the build commands in `fence` whose `-f` the block says is an example of the
    family: a comment above it tells the reader to replace the Dockerfile's variant (`# replace the
    version number cu124 with the one you want to use` over `docker build -f Dockerfile.cu124 .`, or a
    pattern: `# replace .cu** with .rocm for AMD GPU`). Such a build is not about that one image."""
    notes: list[str] = []
    found: set[int] = set()
    for line, text in fence.lines:
        if _SWAP_NOTE.match(text):
            notes.append(text.lower())
            continue
        if not notes:
            continue
        for match in FILE_FLAG.finditer(text):
            name = posixpath.basename(match.group(1)).lower()
            part = name.split("dockerfile.", 1)[1] if name.startswith("dockerfile.") else ""
            part = part or (name.rsplit(".dockerfile", 1)[0] if name.endswith(".dockerfile") else "")
            if part and any(part in note or (part[:2] and f".{part[:2]}*" in note) for note in notes):
                found.add(line)
    return found


SHELL_STRING_START = re.compile(
    r"[ \t]*(?:\$[ \t]+)?(?:[A-Za-z_][A-Za-z0-9_]*=[^\s'\"]*[ \t]+)*(?:sudo[ \t]+)?(?:bash|sh|zsh)[ \t]+"
    r"(?:-[a-z]+[ \t]+)*?-[a-z]*c[ \t]+['\"]"
)
"""The start of a command that runs a quoted shell string, up to its opening quote (`bash -c '`,
`BASE=x sudo sh -lc "`)."""


CHECKOUT = "$CHECKOUT"
"""The folder `file_flags` says a `cd` into a placeholder of the reader's checkout leads to."""
PLACED_CHECKOUT = re.compile(
    r"(?:/?(?:[\w.-]+/)*path/to|~/(?:[\w.-]+/)*(?:src|code|projects?|repos?|git|workspace|dev))/[\w.-]+"
    r"|<[\w.-]+>|/path/to/<[\w.-]+>",
    re.IGNORECASE,
)
"""A `cd` target that stands for where the reader keeps a checkout: `/path/to/app`, `path/to/app`,
`~/src/app`, `~/code/app`, `<repo>`, `/path/to/<repo>`."""
_CLONE = re.compile(r"\bgit[ \t]+clone\b|\bgh[ \t]+repo[ \t]+clone\b")
"""A line that clones a repository: a `cd` after it may enter that clone, not this checkout."""


def entered(folder: str, target: str, roots: frozenset[str]) -> str:
    """The folder a `cd TARGET` leads to from `folder` (as `file_flags` keeps it: `$CD` when it cannot
    be told)."""
    target = target.strip("\"'")
    rooted = from_root(target, roots)
    if rooted is not None:
        return posixpath.normpath(rooted) if rooted else ""
    if target.startswith(("/", "$", "~", "-")) or folder.startswith("$"):
        return "$CD"
    moved = posixpath.normpath(posixpath.join(folder, target))
    return "" if moved == "." else moved


def continued(text: str) -> bool:
    """True when a command line goes on on the next: it ends with `\\`, or with ` /`, the slip of a
    README that writes `docker build -t x /` then `-f conda.Dockerfile .` (a build of the root folder
    `/` is no command anyone documents)."""
    end = text.rstrip()
    return end.endswith("\\") or end.endswith((" /", "\t/"))


def _lines_of_commands(
    fence: Fence, marked: Callable[[str], bool], goes_on: Callable[[str], bool] = lambda text: False
) -> set[int]:
    """The README lines of the commands of `fence` (a line and the lines it continues with `\\`, or that
    `goes_on` says the command goes on after) with a line that is `marked`."""
    found: set[int] = set()
    command: list[int] = []
    hit = False
    for line, text in fence.lines:
        command.append(line)
        hit = hit or marked(text)
        if goes_on(text):
            continue
        if not continued(text):
            if hit:
                found.update(command)
            command, hit = [], False
    if hit:
        found.update(command)
    return found


def lines_of_commands_with_file(fence: Fence) -> set[int]:
    """The README lines of the commands of `fence` that name a Dockerfile with `-f`."""
    return _lines_of_commands(fence, lambda text: bool(FILE_FLAG.search(text)))


_ELISION = re.compile(r"(?<!\S)(?:\.{3,}|…)(?!\S)")
"""A word of a command that stands for what the README leaves out: `...`, `....`, `…`."""


def lines_of_elided_commands(fence: Fence) -> set[int]:
    """The README lines of the commands of `fence` in which a word is an ellipsis (`docker build \\`,
    `  ....`, `  --build-arg "NEW_ARG=…"`; a line of dots alone goes on to the next line, whatever its
    end): an excerpt showing where a flag goes, not a build to run, so its `--build-arg`s are no claim
    about the Dockerfile."""
    return _lines_of_commands(
        fence,
        lambda text: bool(_ELISION.search(text.split("#", 1)[0])),
        lambda text: bool(_ELISION.fullmatch(text.strip())),
    )


SHELL_PROMPT = re.compile(
    r"[ \t]*(?:\([\w.-]+\)[ \t]*)?"
    r"(?:(?:[\w.-]+@)?[\w.-]+(?::[~/][^\s$#%]*)?(?:[ \t]*\$|[#%])|\$)[ \t]+(?=\S)"
)
"""The prompt a console shows before a command, host words and all: `$ `, `laptop $ `, `user@host:~$ `,
`(venv) $ `, `root# `; not a comment (`# build`) or a variable (`$HOME`)."""


def without_prompt(text: str) -> str:
    """The command of a command-block line, without the prompt written before it (`SHELL_PROMPT`)."""
    prompt = SHELL_PROMPT.match(text)
    return text[prompt.end() :] if prompt else text


PROSE_WORD = re.compile(
    r"(?i)(?<![\w./-])(?:the|a|an|to|and|or|will|would|is|are|be|then|with|for|of|in|it|its|this|that"
    r"|these|you|your|can|should|must|may|which|when|if|now|first|here|also)(?![\w./-])"
)
"""A word of a sentence, which a command line of a README does not hold."""
_SENTENCE_END = (".", ":", ",", ";", "!", "?", ")")


def bare_commands(doc: Document, start: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """(README line, command) of each prose line that is a command written outside any code: one that
    starts with what `start` matches (after a prompt or `sudo`), holds no code span, does not end as
    a sentence does and has no word of one (`docker compose run --rm --service-ports /bin/bash` as a
    paragraph of its own). A README with no code blocks writes its commands so."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            command = without_prompt(text.strip())
            command = command.removeprefix("sudo ").lstrip()
            if (
                "`" in command
                or start.match(command) is None
                or command.endswith(_SENTENCE_END)
                or PROSE_WORD.search(command)
            ):
                continue
            yield line, command


def fence_commands(fence: Fence) -> Iterator[list[tuple[int, str]]]:
    """The lines of each command of a command block (a line and those it continues with `\\`), as
    written."""
    if fence.lang not in COMMAND_LANGS:
        return
    command: list[tuple[int, str]] = []
    for line, text in fence.lines:
        command.append((line, text))
        if not text.rstrip().endswith("\\"):
            yield command
            command = []
    if command:
        yield command


def joined(command: list[tuple[int, str]]) -> str:
    """The text of a command (lines of `fence_commands`) on one line, the `\\` ending each dropped."""
    return " ".join(text.rstrip().removesuffix("\\") for _, text in command)


def joined_starts(command: list[tuple[int, str]]) -> list[int]:
    """Where each line of `command` starts in `joined(command)`: the README line of the character at
    `offset` is `joined_line(command, starts, offset)`."""
    starts: list[int] = []
    at = 0
    for _, text in command:
        starts.append(at)
        at += len(text.rstrip().removesuffix("\\")) + 1
    return starts


def joined_line(command: list[tuple[int, str]], starts: list[int], offset: int) -> int:
    """The README line of the character at `offset` of `joined(command)` (`starts`: `joined_starts`)."""
    return command[bisect.bisect_right(starts, offset) - 1][0]


def build_commands(fence: Fence, start: re.Pattern[str] = BUILD) -> Iterator[list[tuple[int, str]]]:
    """The lines of each build command (`docker build`, or what `start` finds, continued lines too) of a
    command block, from the line `start` is found on."""
    for command in fence_commands(fence):
        first = next((i for i, (_, text) in enumerate(command) if start.search(text)), None)
        if first is not None:
            yield command[first:]


def command_files(command: list[tuple[int, str]]) -> list[str]:
    """The `-f` values of a build command (lines of `build_commands`), line by line, in order."""
    return [match.group(1) for _, text in command for match in FILE_FLAG.finditer(text)]


_VALUE_OPTIONS = frozenset(
    "-f --file -t --tag --build-arg --target --platform --label --network --secret --ssh --cache-from "
    "--cache-to -o --output --progress --add-host --iidfile --metadata-file --build-context --shm-size "
    "-m --memory --memory-swap --cpuset-cpus --cpuset-mems --cpu-shares -c --cpu-period --cpu-quota "
    "--ulimit --isolation --allow --attest --annotation --builder --cgroup-parent --security-opt --sbom "
    "--provenance --no-cache-filter --call --format --layers --jobs --volume -v --device --env -e "
    "--from --arch --os "
    "--variant --manifest --creds --authfile --cert-dir --isolation --userns --ipc --pid --uts".split()
)
"""The options of `docker build` (`buildx`, `podman`, `buildah`) that take the next word as their value."""
_BUILD_WORDS = re.compile(BUILD_COMMAND + r"(?P<rest>.*)")
"""A build command and the rest of its line (`rest`), for the words after it."""


def build_words(words: list[str]) -> tuple[list[tuple[str, str]], list[str]] | None:
    """The options ((name, value) in order: `-t` given twice is there twice) and the operands of the
    words of a build command after `build`; None when they cannot be told: an option docgen does not
    know that may take the next word as its value (`--foo bar .`)."""
    options: list[tuple[str, str]] = []
    positional: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-") and word != "-":
            name, eq, value = word.partition("=")
            if not eq and name in _VALUE_OPTIONS:
                value = words[index + 1] if index + 1 < len(words) else ""
                index += 1
            elif not eq and name.startswith("--") and name not in _NO_VALUE_OPTIONS:
                return None
            options.append((name, value))
            index += 1
            continue
        positional.append(word)
        index += 1
    return options, positional


def build_paths(command: str) -> tuple[str | None, str] | None:
    """(the `-f` path or None, the context) of one build command (its continued lines joined), or None
    when it cannot be told: no context or several, an option docgen does not know that may take a
    value (`--foo bar .`), or a context read from standard input (`-`)."""
    match = _BUILD_WORDS.search(command)
    if match is None:
        return None
    rest = re.split(r"[ \t](?:&&|\|\||;|\||#|>|2>)", f" {match.group('rest')}", maxsplit=1)[0]
    read = build_words([w.strip("\"'") for w in rest.replace("\\", " ").split()])
    if read is None:
        return None
    options, positional = read
    files = [value for name, value in options if name in ("-f", "--file")]
    if len(positional) != 1 or positional[0] == "-":
        return None
    return (files[-1] or None if files else None), positional[0]


_NO_VALUE_OPTIONS = frozenset(
    "--no-cache --pull --push --load -q --quiet --rm --force-rm --squash --compress "
    "--disable-content-trust --check --debug --tls-verify --omit-history --sign-by --all-platforms".split()
)
"""The options of a build command that take no value."""


_COMMAND_END = re.compile(r"[ \t](?:&&|\|\||;|\||>|2>|<(?![^<>]*>))")
"""Where a command's words end: the next command, a pipe or a redirection (not a `<name>` the reader
fills in). A comment ends them too, where `sh_words` finds one (not a `#` in a quoted value)."""
_PROMPT = re.compile(r"^[ \t]*>[ \t]")
"""The prompt a console shows on a continued line (`> .`), not a redirection."""
_OTHER_CONTINUATION = ("`", "^")
"""How PowerShell and cmd continue a line: a command so continued is not read (its end is not known)."""


def _substitution_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each command substitution of `text` outside single quotes (`$(…)`, nested ones
    inside it, and `` `…` ``), the outer ones. A quote of one kind inside the other's is a letter
    (`MSG="it's"`). An unclosed one runs to the end of `text`."""
    spans: list[tuple[int, int]] = []
    index, single, double = 0, False, False
    while index < len(text):
        char = text[index]
        if char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
        elif not single and (text.startswith("$(", index) or char == "`"):
            spans.append((index, substitution_end(text, index)))
            index = spans[-1][1]
            continue
        index += 1
    return spans


def _replaced(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each of `spans` (`_substitution_spans`) replaced by the word `$_`."""
    parts: list[str] = []
    at = 0
    for start, end in spans:
        parts += [text[at:start], "$_"]
        at = end
    parts.append(text[at:])
    return "".join(parts)


def substituted(text: str) -> str:
    """`text` with each command substitution (`$(…)`, nested ones included, and `` `…` ``) outside
    single quotes replaced by the word `$_`: its words are another command's, not this one's
    (`--build-arg GID=$(stat -c '%g' /dev/dri/renderD128)` passes one value)."""
    return _replaced(text, _substitution_spans(text))


_SHELL_STEP = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|\\.|(&&|\|\||;|\|)")
"""A step's end (`&&`, `||`, `;`, a pipe, group 1), or what holds one as text: a quoted string (`-c
"import torch; print(1)"`), an escaped character (`\\;`)."""


def _split_steps(text: str) -> list[str]:
    """`text` split at each step's end outside quotes (`_SHELL_STEP`)."""
    steps: list[str] = []
    at = 0
    for match in _SHELL_STEP.finditer(text):
        if match.group(1) is not None:
            steps.append(text[at : match.start()])
            at = match.end()
    steps.append(text[at:])
    return steps


def shell_steps(text: str) -> list[str]:
    """The steps of a shell line (after `&&`, `||`, `;`, a pipe): those of the line itself, each command
    substitution one word `$_` in them (`docker run -v $(pwd)/w:/w app` stays one step, its image
    read), then those of each substitution (`CID=$(docker run -d app)`), read the same way. A
    substitution nested in another is a word of it, not read again: each character is read a bounded
    number of times, however deep the nesting."""
    spans = _substitution_spans(text)
    steps = _split_steps(_replaced(text, spans))
    for start, end in spans:
        opened = start + (1 if text[start] == "`" else 2)
        closed = end - 1 if end > opened and text[end - 1] == (")" if text[start] == "$" else "`") else end
        steps += _split_steps(substituted(text[opened:closed]))
    return steps


def substitution_end(text: str, start: int) -> int:
    """The index after the command substitution that starts at `start` (`$(` or a backquote); the
    parentheses inside quotes (`$(echo ")")`) or escaped are text, not the substitution's end."""
    if text[start] == "`":
        end = text.find("`", start + 1)
        return len(text) if end < 0 else end + 1
    # One [depth, in double quotes] a substitution open; a `$(` inside double quotes opens another.
    open_, index = [[0, False]], start + 1
    while index < len(text):
        char, level = text[index], open_[-1]
        if char == "\\":
            index += 1  # an escaped character, quote or parenthesis
        elif char == '"':
            level[1] = not level[1]
        elif level[1]:
            if text.startswith("$(", index):
                open_.append([0, False])
        elif char == "'":
            end = text.find("'", index + 1)
            index = len(text) if end < 0 else end
        elif char == "(":
            level[0] += 1
        elif char == ")":
            level[0] -= 1
            if level[0] == 0:
                open_.pop()
                if not open_:
                    return index + 1
        index += 1
    return len(text)


def command_words(command: list[tuple[int, str]], start: re.Pattern[str]) -> list[str] | None:
    """The words after the match of `start` in a command of a command block (its lines, as
    `build_commands` gives them, joined), up to the end of that command (`&&`, `;`, a pipe, a comment,
    a redirection), quotes removed as the shell removes them. None when the match is in a comment, the
    words cannot be split (an open quote), or a line goes on the PowerShell or cmd way (`` ` ``, `^`)."""
    if any(text.rstrip().endswith(_OTHER_CONTINUATION) for _, text in command):
        return None
    parts = [text.rstrip().removesuffix("\\") for _, text in command]
    joined = " ".join([parts[0], *(_PROMPT.sub("", part) for part in parts[1:])])
    match = start.search(joined)
    if match is None or len(sh_code(joined[: match.end()])) <= match.start():
        return None  # the match is in a comment
    rest = _COMMAND_END.split(" " + substituted(joined[match.end() :]), maxsplit=1)[0]
    try:
        return sh_words(rest)
    except ValueError:
        return None


_CLONE = re.compile(r"\bgit[ \t]+clone[ \t]+([^;&|#]+)")
CLONE_STEP = re.compile(r"\bgit[ \t]+clone\b((?:[ \t]+[^\s;&|)]+)+)")
"""A `git clone` step of a RUN or a script, with its words (group 1) up to the step's end (`;`, `&&`,
`|`, `)`): `clone_operands` reads them. Every clone of a text is found with `finditer`."""
"""A `git clone` command's words, up to the end of the command."""
CLONE_VALUED = frozenset(
    "-b --branch -o --origin -u --upload-pack -j --jobs -c --config --depth --shallow-since --shallow-exclude"
    " --reference --reference-if-able --separate-git-dir --template --filter --server-option --bundle-uri"
    " --ref-format --revision".split()
)
"""Options of `git clone` that take a value, as `git clone --help` lists them: the next word, or after
`=` (`--depth=1`); a short one also glued on (`-bmain`). `--recurse-submodules` and `--recursive` take
theirs only after `=`, so the word after them is an operand."""
_SHORT_VALUED = frozenset(o[1] for o in CLONE_VALUED if len(o) == 2)


def clone_operands(words: Iterable[str], strip: str = "") -> list[str]:
    """The operands of a `git clone` whose words after `clone` are `words` (the address, then the folder
    when one is given), its options and their values (`--depth 1`, `-b main`, `--filter=blob:none`)
    left out; each word first stripped of the characters `strip` (quotes, `<>` around a placeholder).
    After `--` every word is an operand."""
    operands: list[str] = []
    skip = ended = False
    for raw in words:
        word = raw.strip(strip) if strip else raw
        if skip:
            skip = False
        elif ended or not word.startswith("-"):
            operands.append(word)
        elif word == "--":
            ended = True
        elif word.startswith("--"):
            skip = word in CLONE_VALUED
        else:  # short options, bundled: the first that takes a value takes the rest, or the next word
            valued = next((i for i, c in enumerate(word[1:], 1) if c in _SHORT_VALUED), None)
            skip = valued == len(word) - 1
    return operands


def clones(doc: Document) -> Iterator[tuple[str, str | None]]:
    """(repository, folder) of each `git clone URL [DIR]` of the README's blocks: the URL without a
    trailing `/`, and DIR, None when the clone makes the folder its URL names."""
    for fence in doc.fences:
        for _, text in fence.lines:
            if (clone := clone_of(text)) is not None:
                yield clone


def clone_of(text: str) -> tuple[str, str | None] | None:
    """(repository, folder) of the `git clone URL [DIR]` on a line, as `clones` gives them; None when
    the line clones nothing."""
    clone = _CLONE.search(text)
    if clone is None:
        return None
    operands = clone_operands(clone.group(1).split(), "'\"`<>()")
    if not operands:
        return None
    return operands[0].rstrip("/"), operands[1] if len(operands) > 1 else None


def cloned_folder(url: str) -> str:
    """The folder `git clone URL` makes: the URL's last part without `.git`."""
    return url.rsplit("/", 1)[-1].removesuffix(".git")


def clone_target(words: Iterable[str]) -> tuple[str, str] | None:
    """(the folder, the address) of a `git clone` whose words after `clone` are `words`, when its first
    operand is an address (`https://…`, `git@…`) and the folder it makes (the second operand, else the
    address's last part without `.git`) is a single name; None otherwise. Options and their values are
    passed over (`--depth 1 URL`, `-b main URL`: `clone_operands`)."""
    operands = clone_operands(words)
    if not operands or ("://" not in operands[0] and "@" not in operands[0]):
        return None
    url = operands[0]
    folder = (operands[1] if len(operands) > 1 else cloned_folder(url.rstrip("/"))).strip("/")
    return (folder, url) if folder and "/" not in folder else None


CD_STEP = re.compile(r"(?:^|&&|;)[ \t]*(?:\$[ \t]+)?(?:cd|pushd)(?:[ \t]+([^\s;&|]+))?[ \t]*(?=$|&&|;)")
"""A whole `cd` or `pushd` step of a command (`cd app &&`, `$ pushd src`), with the folder it enters
(none: the home folder)."""
MOVE = re.compile(r"(?:^|&&|;)[ \t]*(?:\$[ \t]+)?(?:cd|pushd)[ \t]+([^\s;&|]*)")
"""A `cd` or `pushd` command (`cd build`, `make && cd ..`, `$ pushd src`), with the folder it enters."""


def moves(fence: Fence) -> Iterator[tuple[int, str]]:
    """(README line, folder) of each `cd` or `pushd` of a block: the commands after it may read another
    folder's files."""
    for line, text in fence.lines:
        for match in MOVE.finditer(text):
            yield line, match.group(1)


def image_repository(image: str) -> str:
    """An image reference without its tag or digest: `org/app` for `org/app:1.0@sha256:…`."""
    image = image.split("@", 1)[0]
    head, _, tail = image.rpartition("/")
    return (f"{head}/" if head else "") + tail.split(":", 1)[0]


def image_tag(image: str) -> str:
    """An image reference's tag, `latest` when it names none: `1.0` for `org/app:1.0@sha256:…`, `latest`
    for `localhost:5000/app`."""
    return image.split("@", 1)[0].rpartition("/")[2].partition(":")[2] or "latest"


def tagged_reference(image: str) -> str:
    """An image reference with its tag, `latest` when it names none, and no digest: `app:latest` for
    `app`, `org/app:1.0` for `org/app:1.0@sha256:…`."""
    name = image.split("@", 1)[0]
    return name if ":" in name.rpartition("/")[2] else f"{name}:latest"


def last_name(image: str) -> str:
    """The last part of an image's repository, lower case: `torch` for `ghcr.io/org/torch:1.0`."""
    return image_repository(image).rsplit("/", 1)[-1].lower()


def tagged_builds(doc: Document) -> Iterator[tuple[str, str | None, str]]:
    """(image as written, Dockerfile, command) of each `-t` of the README's `docker build` commands: the
    Dockerfile the command names with `-f`, None when it names none or one through a variable."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if not BUILD.search(command):
                continue
            flag = FILE_FLAG.search(command)
            file = flag.group(1) if flag is not None and not re.search(r"[<>${}]", flag.group(1)) else None
            for match in TAG_FLAG.finditer(command):
                yield match.group(1), file, command


def built_repositories(doc: Document) -> dict[str, set[str | None]]:
    """The repositories the README's `docker build -t` commands tag → the Dockerfiles those commands
    name with `-f` (None: a command that names none, or names one through a variable)."""
    built: dict[str, set[str | None]] = {}
    for image, file, _ in tagged_builds(doc):
        built.setdefault(image_repository(image), set()).add(file)
    return {b: files for b, files in built.items() if not re.search(r"[<>${}]", b)}


def tagged_names(doc: Document) -> frozenset[str]:
    """The last names (`last_name`) of the images the README's lines naming `build` tag (`-t`)."""
    names: set[str] = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            if "build" in text:
                names.update(last_name(tag) for tag in TAG_FLAG.findall(text))
        if any(text.rstrip().endswith("\\") for _, text in fence.lines):
            for command in fence_commands(fence):  # (a build continued over lines: `-t` on a line of its own)
                for step in _STEPS.split(joined(command)):
                    if _BUILD_STEP.search(step):
                        names.update(last_name(tag) for tag in TAG_FLAG.findall(step))
    return frozenset(names)


_STEPS = re.compile(r"&&|\|\||[;|]")
_BUILD_STEP = re.compile(r"\b(?:docker|podman|buildah|nerdctl)[ \t]+(?:image[ \t]+|buildx[ \t]+)?build\b")


OFFICIAL = frozenset(
    """
    adminer aerospike almalinux alpine alt amazoncorretto amazonlinux api-firewall arangodb
    archlinux backdrop bash bonita buildpack-deps busybox caddy cassandra chronograf cirros
    clearlinux clefos clickhouse clojure composer convertigo couchbase couchdb crate dart debian
    docker drupal eclipse-mosquitto eclipse-temurin eggdrop elasticsearch elixir emqx erlang fedora
    flink fluentd friendica gazebo gcc geonetwork ghost golang gradle groovy haproxy haskell haxe
    hello-world hitch homeassistant httpd hylang ibm-semeru-runtimes ibmjava influxdb irssi jetty
    jobber joomla jruby julia kapacitor kibana kong krakend lightstreamer liquibase logstash mageia
    mariadb matomo maven mediawiki memcached mongo mongo-express monica mono mysql nats neo4j
    neurodebian nextcloud nginx node notary odoo open-liberty openjdk oraclelinux orientdb percona
    perl photon php php-zendserver phpmyadmin plone postfixadmin postgres pypy python r-base
    rabbitmq rakudo-star redis redmine registry rethinkdb rocket.chat rockylinux ros ruby rust
    sapmachine satosa scratch silverpeas solr sonarqube spark spiped storm swift swipl teamspeak
    telegraf tomcat tomee traefik ubuntu unit varnish websphere-liberty wordpress xwiki yourls znc
    zookeeper java centos celery django rails iojs jenkins nats-streaming owncloud piwik sentry
    kaazing-gateway glassfish jboss-wildfly ubuntu-upstart ubuntu-debootstrap opensuse sl crux swarm
    thrift nuxeo express-gateway known rapidoid hipache consul vault
    """.split()
)
"""Docker official images (`docker.io/library/NAME`), written from the `library/` folder of
github.com/docker-library/official-images as of 2025, with retired names that still pull (`centos`,
`java`, `django`, `rails`, `jenkins`, …) and `scratch`."""
