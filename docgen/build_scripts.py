"""Shell build scripts (`build.sh`): the images their `docker build -t`, `docker tag` and `docker push`
commands name, for `audit`.

A tag is read as the script writes it with the variables it gives a literal value expanded: `NAME=x`,
`NAME="${NAME:-x}"` (the default, as a plain run gives it), `local image="${REGISTRY}/${name}:${TAG}"`
(the variables before it). A variable the script does not give a literal (`$1`, `$(date)`, one from
the environment) stays `*`: `rocm-docker/*:latest` says the namespace, not the name.

Given the words a caller runs it with (a make recipe's `bash ./build.sh build x86 22`), a script is read
as that run goes through it (`run_walk`): `$1`, `$2` … are the words, and the `if`/`elif`/`else` chains
whose tests it can decide keep only the branch taken.

It also holds the one reading of a build command (`BUILD`, `build_command`, `BUILD_LINE`), for scripts,
Makefiles, workflows and every audit rule that looks for a `docker build` in a README.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from docgen.shell import DECLARE, NAME, sh_code, sh_words

ASSIGN = re.compile(r"^[ \t]*(?:" + DECLARE + ")?(" + NAME + r")=(\S*)[ \t]*(?:#.*)?$")
_DEFAULT = re.compile(r"\$\{(" + NAME + r"|[0-9]):?-([^${}]*)\}")
"""`${NAME:-default}`, `${1:-default}`: the default, as a plain run (no argument) gives it."""
_REFERENCE = re.compile(r"\$\{(" + NAME + r"|[0-9])\}|\$(" + NAME + r"|[0-9])")
"""`${NAME}`, `$NAME`, and a positional `$1`, `${2}` (put in only when the caller gives it); also what
a word of a test reads (`_word_value`)."""
ENGINES = "docker|podman|nerdctl"
"""The programs whose `build` builds an image from a Dockerfile with Docker's words (Podman and nerdctl
copy Docker's command line)."""


def build_command(engines: str = ENGINES) -> str:
    """The regular expression (its text) of a build command of one of `engines` (alternatives, as
    `ENGINES`): `docker build`, `docker buildx build`, `docker builder build`, `docker image build`, the
    word `build` whole (`docker buildx create`, `docker build-push` are none). A rule that reads one
    engine's options (`audit.grammar`) names that engine alone."""
    return r"\b(?:" + engines + r")(?:[ \t]+(?:buildx|builder|image))?[ \t]+build(?![\w-])"


def container_command(
    verbs: str = "run",
    engines: str = ENGINES,
    *,
    start: str = r"\b",
    end: str = r"\b",
    container: bool = True,
    compose: bool = False,
) -> str:
    """The regular expression (its text) of a container command: one of `engines` (alternatives, as
    `ENGINES`), then `container` or not (`docker container run`), then one of `verbs` (`run|create`). The
    one home of the `docker run` patterns of the audit rules: each rule passes its own engines, verbs and
    edges, so what a rule matches stays its own. `start` is what must come before the engine (a word
    edge by default; `NOT_AFTER_DASH` keeps `nvidia-docker run` out; `""` takes `mydocker run` too),
    `end` what must follow the verb (a word edge by default; `WORD_END` a blank or the end, so `docker
    run-app` is none). `container=False` leaves `docker container run` out, for the rules that never
    took it; `compose` takes `docker compose run`, `docker-compose exec` too."""
    middle = (r"(?:[ \t]+container)?" if container else "") + (
        r"(?:[ \t]+compose|-compose)?" if compose else ""
    )
    return start + "(?:" + engines + ")" + middle + r"[ \t]+(?:" + verbs + ")" + end


DOCKER = "docker"
"""Docker alone: a rule that reads Docker's options (`audit.grammar`) or only ever saw Docker's."""
DOCKER_PODMAN = "docker|podman"
"""Docker and podman, whose `run` takes the same options (`-p`, `-v`, `--name`)."""
WITH_NVIDIA = "docker|nvidia-docker|podman"
"""Docker, podman and the `nvidia-docker` wrapper, for a rule that reads where the match starts (a word
edge meets `docker` inside `nvidia-docker` too, a match that starts later)."""
ALL_ENGINES = "docker|podman|nerdctl|nvidia-docker"
"""Every engine a README runs a container with."""
WORD_END = r"(?=[ \t]|$)"
"""After a verb: a blank or the end, for a rule that reads the words that follow (`docker run-app` is
none, where a word edge would take it)."""
LINE_WORD_END = r"(?=[ \t]|\Z)"
"""As `WORD_END`, where a final newline is not an end (`docker run` and a newline is none)."""
BLANK_AFTER = r"(?=[ \t])"
"""After a verb: a blank, for a rule that reads the run's words (a bare `docker run` is none)."""
BLANK = r"[ \t]"
"""After a verb: a blank, taken into the match (the run's words start at its end)."""
NOT_AFTER_DASH = r"(?<![\w-])"
"""Before an engine: no word or dash (`nvidia-docker run` is another command for the rule)."""


BUILD_COMMAND = "(?:" + build_command() + r"|\bbuildah[ \t]+(?:bud|build)(?![\w-]))"
"""The text of `BUILD`, for a pattern that reads more around it (the words after it, a `make` too)."""
BUILD = re.compile(BUILD_COMMAND)
"""A command that builds an image (`docker build`, `docker buildx build`, `podman image build`, `nerdctl
build`, `buildah bud`), in a script, a Makefile, a workflow or a README's command: the one reading of it
every rule shares."""
LEAD = r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?"
"""What a command line may hold before its program: indentation, a `$ ` prompt, `sudo`."""
BUILD_LINE = re.compile(LEAD + BUILD_COMMAND)
"""A line whose command is a build (`$ sudo docker build …`), for `match`: not a word of another
command (`./build.sh`, `echo docker build`), whose script may read more than the build does."""
_TAG_FLAG = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)(\"[^\"]*\"|'[^']*'|[^\s;|&]+)")
TAG_COMMAND = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?tag[ \t]+(?:-\S+[ \t]+)*"
    r"(\"[^\"]*\"|[^\s\\]+)[ \t]+(\"[^\"]*\"|[^\s\\;&|)`]+)"
)
"""`docker tag SOURCE TARGET` (`podman tag`, `docker image tag`), its options skipped: the image it names
(group 1) and the name it gives it (group 2), each a double-quoted word or a word up to a blank, a
backslash or the end of its command (`;`, `&`, `|`, `)`, a backtick). The one reading of a tag command,
for scripts and every audit rule that looks for one in a README (`tag_targets`)."""
_PUSHED = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?push[ \t]+(?:-\S+[ \t]+)*(\"[^\"]*\"|[^\s;|&-][^\s;|&]*)"
)
UNKNOWN = "*"
"""What a part of a tag the script does not give a literal stands for."""


def expand(value: str, variables: dict[str, str]) -> str:
    """`value` with its quotes removed and its `${NAME:-default}`, `${NAME}`, `$NAME` replaced by what the
    script gives them (a default when it gives nothing), `*` for what it does not know."""
    if value[:1] == "'" and value[-1:] == "'":
        return value[1:-1]
    value = value.replace('"', "")
    value = _DEFAULT.sub(lambda m: variables.get(m.group(1), m.group(2)), value)
    value = _REFERENCE.sub(lambda m: _reference(m, variables), value)
    return UNKNOWN if "$" in value or "`" in value else value


def _reference(match: re.Match[str], variables: Mapping[str, str]) -> str:
    """What a `$NAME` (`_REFERENCE`) stands for: its value, `*` when not known; a positional `$1` the
    caller does not give stays as written (the whole value is then not known)."""
    name = match.group(1) or match.group(2)
    if name.isdigit():
        return variables.get(name, match.group(0))
    return variables.get(name, UNKNOWN)


def built_tags(text: str) -> tuple[str, ...]:
    """The image references the shell script `text` tags (`docker build -t`, `docker tag SRC DEST`) or
    pushes, in order, variables expanded (see the module docstring)."""
    return tuple(tag for _, tag in built_tag_lines(text))


def built_tag_lines(
    text: str, inherited: Mapping[str, str] | None = None, arguments: Sequence[str] | None = None
) -> tuple[tuple[int, str], ...]:
    """(script line, image reference) of each tag `built_tags` finds. With `inherited`, the variables
    the script's caller gives it (`export IMAGE_TAG=…` before `./docker/build.sh`): they win over the
    default of `X="${X:-x}"`. With `arguments`, the words a caller runs it with (`bash ./build.sh build
    x86 22` of a make recipe): the script is read as that run goes through it (`run_walk`)."""
    found: list[tuple[int, str]] = []
    lines = text.splitlines()
    walked = (
        walk_assignments(lines, inherited or {})
        if arguments is None
        else run_walk(lines, inherited or {}, arguments)
    )
    for index, line, variables in walked:
        number = index + 1
        if BUILD.search(line) or (line.lstrip().startswith(("-t", "--tag")) and index > 0):
            for match in _TAG_FLAG.finditer(line):
                tag, at = match.group(1), number
                if tag == "\\" and index + 1 < len(lines):  # `-t \` with the tag on the next line
                    tag, at = (lines[index + 1].split() or [""])[0], number + 1
                found.append((at, expand(tag, variables)))
        found += [(number, expand(target, variables)) for target in tag_targets(line)]
        found += [(number, expand(m.group(1), variables)) for m in _PUSHED.finditer(line)]
    return tuple((n, tag) for n, tag in found if tag and tag != UNKNOWN)


def tag_targets(text: str) -> list[str]:
    """The names the `docker tag` commands of `text` give their images, as written (`TAG_COMMAND`)."""
    return [match.group(2) for match in TAG_COMMAND.finditer(text)]


_CALL = re.compile(
    r"[ \t]*(?:(?:bash|sh|source|\.)[ \t]+([^\s;&|$`]+\.sh)|(\.{1,2}/[^\s;&|$`]+\.sh))(?=[ \t;&|]|\Z)"
)
"""A line running a script as its command: `./docker/build.sh`, `bash docker/build.sh`, `. env.sh`."""


def called_scripts(text: str) -> tuple[tuple[int, str, dict[str, str]], ...]:
    """(script line, the path of the script it runs as written, the variables given by then) of each
    line of the shell script `text` that runs another script (`_CALL`): the callee sees what the
    caller exported (`export IMAGE_TAG=torch2.1.1-…` then `./docker/build.sh`)."""
    return tuple(
        (index + 1, call.group(1) or call.group(2), dict(variables))
        for index, line, variables in walk_assignments(text.splitlines(), {})
        if (call := _CALL.match(line)) is not None
    )


def walk_assignments(
    lines: list[str], inherited: Mapping[str, str]
) -> Iterator[tuple[int, str, dict[str, str]]]:
    """(index, line, the variables given a literal value so far) of each line of a script that is no
    assignment, `inherited` first."""
    variables = dict(inherited)
    for index, line in enumerate(lines):
        if (assign := ASSIGN.match(line)) is not None:
            name, raw = assign.groups()
            if raw.startswith("(") or "$(" in raw or "`" in raw:
                variables.pop(name, None)
                continue
            # `X="${X:-x}"`: the default, as a plain run gives it (the caller's value when it gives one)
            seen = {k: v for k, v in variables.items() if k != name or name in inherited}
            expanded = expand(raw, seen)
            if expanded == UNKNOWN:
                variables.pop(name, None)
            else:
                variables[name] = expanded
            continue
        yield index, line, variables


_IF = re.compile(r"^[ \t]*(if|elif)[ \t]+(.+?)[ \t]*(?:;[ \t]*then)?[ \t]*$")
_ELSE = re.compile(r"^[ \t]*else\b[ \t]*$")
_FI = re.compile(r"^[ \t]*fi\b")
_THEN = re.compile(r"^[ \t]*then[ \t]*$")
_BLOCK_OPENS = re.compile(
    r"^[ \t]*(?:case|while|until|for|select)\b|^[ \t]*(?:function[ \t]+)?[\w.:-]+[ \t]*\(\)[ \t]*\{?[ \t]*$"
    r"|^[ \t]*function[ \t]+[\w.:-]+[ \t]*\{?[ \t]*$"
)
"""A line opening a block: a loop, a `case`, a function (`f() {`, `function f() {`, `function f {`)."""
_BLOCK_CLOSES = re.compile(r"^[ \t]*(?:esac|done)\b|^[ \t]*\}[ \t]*$")
_EXIT = re.compile(r"(?:^|;)[ \t]*exit\b")
"""An `exit` the line surely runs: its first command, or one after a `;` (not after `||` or `&&`)."""
_INTEGER = re.compile(r"-?[0-9]+")


def _word_value(word: str, variables: Mapping[str, str], unknown: set[str]) -> str | None:
    """A word of a test with the variables put in as the run gives them: a name never set so far is
    empty (a plain run sets nothing), one set to a value docgen cannot tell makes the word not known
    (None), as does a command substitution."""
    if "`" in word or "$(" in word:
        return None
    missing = False

    def put(match: re.Match[str]) -> str:
        nonlocal missing
        name = match.group(1) or match.group(2)
        if name in unknown:
            missing = True
        return variables.get(name, "")

    value = _REFERENCE.sub(put, word)
    return None if missing or "$" in value else value


def _condition(test: str, variables: Mapping[str, str], unknown: set[str]) -> bool | None:
    """The outcome of an `if`'s test as the run gives it: `[ A == B ]`, `[[ A != B ]]`, `[ -z A ]`,
    `test -n A`, `[ A -eq B ]`; None for any other test or a word not known."""
    try:
        words = sh_words(test)
    except ValueError:
        return None
    if words[:1] == ["test"]:
        words = words[1:]
    elif words[:1] in (["["], ["[["]) and words[-1:] in (["]"], ["]]"]):
        words = words[1:-1]
    else:
        return None
    negated = words[:1] == ["!"]
    words = words[1:] if negated else words
    values = [_word_value(w, variables, unknown) for w in words]
    if any(v is None for v in values):
        return None
    known = [v or "" for v in values]
    outcome: bool | None = None
    if len(known) == 2 and known[0] in ("-z", "-n"):
        outcome = (known[1] == "") == (known[0] == "-z")
    elif len(known) == 1:
        outcome = known[0] != ""
    elif len(known) == 3 and known[1] in ("=", "==", "!="):
        outcome = (known[0] == known[2]) == (known[1] != "!=")
    elif len(known) == 3 and known[1] in ("-eq", "-ne") and all(_INTEGER.fullmatch(k) for k in known[::2]):
        outcome = (int(known[0]) == int(known[2])) == (known[1] == "-eq")
    return None if outcome is None else outcome != negated


def run_walk(
    lines: list[str], inherited: Mapping[str, str], arguments: Sequence[str]
) -> Iterator[tuple[int, str, dict[str, str]]]:
    """(index, line, the variables given so far) of each line of a script run with `arguments` (`$1`,
    `$2` …) that the run goes through and that is no assignment, as `walk_assignments` gives them but
    following its `if`/`elif`/`else` chains: a test docgen can decide (`_condition`) keeps only the
    branch the run takes; in a branch it cannot decide, or a loop, `case` or function, a variable
    assigned is no longer known. An `exit` the run surely reaches ends it."""
    variables = dict(inherited)
    variables.update({str(n): word for n, word in enumerate(arguments[:9], start=1)})
    unknown: set[str] = set()
    # each open block: [the branch read is taken (True, False, None: not known), a branch was taken]
    blocks: list[list[bool | None]] = []
    for index, line in enumerate(lines):
        if (branch := _IF.match(line)) is not None and not re.search(r"\bfi[ \t]*$", line):
            opening = branch.group(1) == "if"
            through = all(b[0] is not False for b in (blocks if opening else blocks[:-1]))
            outcome = _condition(branch.group(2), variables, unknown) if through else False
            if opening:
                blocks.append([outcome, outcome if through else True])  # (a skipped chain takes no branch)
            elif blocks:
                top = blocks[-1]
                if top[1] is True:
                    top[0] = False
                elif top[1] is False:
                    top[0], top[1] = outcome, outcome
                else:
                    top[0] = None if outcome is not False else False
            continue
        if _ELSE.match(line) and blocks:
            top = blocks[-1]
            top[0] = None if top[1] is None else not top[1]
            top[1] = True if top[1] is not None else None
            continue
        if _FI.match(line) and blocks:
            blocks.pop()
            continue
        if _THEN.match(line):
            continue
        if _BLOCK_OPENS.match(line) and not re.search(r"\b(?:done|esac)\b|\}[ \t]*$", line):
            blocks.append([None, None])
            continue
        if _BLOCK_CLOSES.match(line) and blocks:
            blocks.pop()
            continue
        if any(b[0] is False for b in blocks):
            continue
        sure = all(b[0] is True for b in blocks)
        if (assign := ASSIGN.match(line)) is not None:
            name, raw = assign.groups()
            value = UNKNOWN if raw.startswith("(") or "$(" in raw or "`" in raw else expand(raw, variables)
            if value == UNKNOWN or not sure:
                variables.pop(name, None)
                unknown.add(name)
            else:
                variables[name] = value
                unknown.discard(name)
            continue
        if sure and _EXIT.search(sh_code(line)):
            return
        yield index, line, variables
