"""Shell build scripts (`build.sh`): the images their `docker build -t`, `docker tag` and `docker push`
commands name, for `audit`.

A tag is read as the script writes it with the variables it gives a literal value expanded: `NAME=x`,
`NAME="${NAME:-x}"` (the default, as a plain run gives it), `local image="${REGISTRY}/${name}:${TAG}"`
(the variables before it). A variable the script does not give a literal (`$1`, `$(date)`, one from
the environment) stays `*`: `rocm-docker/*:latest` says the namespace, not the name.

It also holds the one reading of a build command (`BUILD`, `build_command`, `BUILD_LINE`), for scripts,
Makefiles, workflows and every audit rule that looks for a `docker build` in a README.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from docgen.shell import DECLARE, NAME

ASSIGN = re.compile(r"^[ \t]*(?:" + DECLARE + ")?(" + NAME + r")=(\S*)[ \t]*(?:#.*)?$")
_DEFAULT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]):?-([^${}]*)\}")
"""`${NAME:-default}`, `${1:-default}`: the default, as a plain run (no argument) gives it."""
_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
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
_TAGGED = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?tag[ \t]+\S+[ \t]+(\"[^\"]*\"|[^\s;|&]+)")
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
    value = _REFERENCE.sub(lambda m: variables.get(m.group(1) or m.group(2), UNKNOWN), value)
    return UNKNOWN if "$" in value or "`" in value else value


def built_tags(text: str) -> tuple[str, ...]:
    """The image references the shell script `text` tags (`docker build -t`, `docker tag SRC DEST`) or
    pushes, in order, variables expanded (see the module docstring)."""
    return tuple(tag for _, tag in built_tag_lines(text))


def built_tag_lines(text: str, inherited: Mapping[str, str] | None = None) -> tuple[tuple[int, str], ...]:
    """(script line, image reference) of each tag `built_tags` finds. With `inherited`, the variables
    the script's caller gives it (`export IMAGE_TAG=…` before `./docker/build.sh`): they win over the
    default of `X="${X:-x}"`."""
    found: list[tuple[int, str]] = []
    lines = text.splitlines()
    for index, line, variables in walk_assignments(lines, inherited or {}):
        number = index + 1
        if BUILD.search(line) or (line.lstrip().startswith(("-t", "--tag")) and index > 0):
            for match in _TAG_FLAG.finditer(line):
                tag, at = match.group(1), number
                if tag == "\\" and index + 1 < len(lines):  # `-t \` with the tag on the next line
                    tag, at = (lines[index + 1].split() or [""])[0], number + 1
                found.append((at, expand(tag, variables)))
        found += [(number, expand(m.group(1), variables)) for m in _TAGGED.finditer(line)]
        found += [(number, expand(m.group(1), variables)) for m in _PUSHED.finditer(line)]
    return tuple((n, tag) for n, tag in found if tag and tag != UNKNOWN)


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
