"""Docker commands of a README that the Docker CLI refuses before doing anything: a subcommand it does
not have, a slip away from one it has (`docker exect -it app bash`: `did you mean exec?`), and an image
to run whose repository has upper-case letters (`docker run … ApulisVision`: docker answers "repository
name must be lowercase"), an image name a build's `-t`, a `docker tag`, `push` or `pull` gives that
docker refuses (in the README or a script beside it that the README names: `-t P11_image`, `-t :1`,
`-t mycontainer/OpenMM`: a part the reader may replace, `mycontainer`, leaves the others as typed), and
a `docker push`,
`docker pull` or `docker tag` given another number of images than it takes (`docker push org/app .`:
docker answers "requires 1 argument"), and a `docker run` / `docker create` whose options the CLI or
the daemon refuses before making a container: a memory reservation above `-m`, `--memory-swap` below
`-m` or without it, `--cpus` with `--cpu-period` / `--cpu-quota`, `--rm` with a restart policy, `-a`
with `-d`, `--no-healthcheck` with a `--health-*` option, `--network container:NAME` with `-p`, `-P`,
`-h`, `--dns`, `--add-host`, `--link` or `--expose`, a restart policy docker does not have or a retry
count for one other than `on-failure` (`always:3`), and `--memory-swappiness`, `--oom-score-adj`,
`--blkio-weight` or a memory size out of the range docker takes on any machine (`refused_options`, which
`command_slips` reads in the scripts a README runs too). Warnings are not told: `--network host` with
`-p` only drops the published ports.

And a `docker compose` / `docker-compose` command whose command word (after compose's own options) is
no compose command (`docker compose ollama ollama list`: compose answers "unknown docker command"); when
that word is a service of the compose file of the README's folder (or one above it), the command
lacks `exec` (or `run`), and the finding says so with the service's line.

And a `docker buildx` command given a build's options with no `build` subcommand (`docker buildx
--platform=linux/arm64 -t app .`: buildx answers "unknown flag"), or a command word a slip away from one
of buildx's (`docker buildx biuld`): `_buildx_commands`.

The subcommands are those of the Docker CLI reference (docs.docker.com/reference/cli/docker/: the
common, management and swarm commands and their aliases), with the plugins Docker ships or documents
(`compose`, `buildx`, `scout`, `sbom`, `init`, `debug`, `model`, …). A word no known subcommand is near
(a newer plugin, a name of the README's own) is not reported: only slips are.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import (
    TAG_FLAG,
    fence_commands,
    image_repository,
    joined,
    shell_steps,
    without_prompt,
)
from docgen.audit.grammar import (
    BUILD_GRAMMAR,
    RUN,
    missing_context,
    options_grammar,
    read_compose,
    read_words,
)
from docgen.audit.paths import resolves_inside
from docgen.build_scripts import BUILD, TAG_COMMAND
from docgen.files import bytes_or_none, real_path
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import sh_code, sh_words

SUBCOMMANDS = frozenset(
    "attach bake build builder buildx checkpoint commit compose config container context cp create diff "
    "events exec export history image images import info init inspect kill load login logout logs "
    "manifest network node pause plugin port ps pull push rename restart rm rmi run save search secret "
    "service stack start stats stop swarm system tag top trust unpause update version volume wait "
    "debug scout sbom scan extension desktop dev feedback ai model mcp offload sandbox app help "
    "machine cloud hub agent".split()
)
"""The words the Docker CLI takes as its command (the reference's list and the plugins of Docker's)."""
_GLOBAL_VALUES = frozenset(
    "-H --host -c --context --config -l --log-level --tlscacert --tlscert --tlskey".split()
)
"""The global options of `docker` that take a value (`docker -H ssh://host ps`)."""
_SLIP = 0.75
"""How close an unknown word must be to a subcommand to be a slip of it (`exect`, `exce`, `imagess`)."""
LEAD = re.compile(r"[ \t]*(?:(?:sudo|time|exec|command)[ \t]+(?:-\S+[ \t]+)*)*(?:[A-Za-z_]\w*=\S*[ \t]+)*")
"""What may come before a command in its step: `sudo`, `time`, variables set for it."""
_MAKES_CONTAINER = {"run": "runs", "create": "creates a container of"}
"""The subcommands that make a container of an image, and how a finding names each."""
_PLACEHOLDER_WORDS = frozenset(
    "image name repo repository tag user username org organization owner container project account "
    "namespace registry".split()
)
"""The words a placeholder part of an image's path is made of (`ImageName`, `user-name`, `Repo`)."""


def _placeholder_part(part: str) -> bool:
    """True when a part of an image's path (`owner`, `app` of `owner/app`) is one the reader fills in:
    in capitals (`IMAGE`, `PROJECT`), starting `my` or `your` (`MyImage`, `yourorg`), or made of a
    placeholder's words only (`ImageName`, `username`). The other parts of the name are typed as written:
    `mycontainer/OpenMM` fails on `OpenMM` whatever `mycontainer` is, `Pose_image` on itself."""
    if part.isupper() or part.lower().startswith(("my", "your")):
        return True
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", part)
    return bool(words) and all(word.lower() in _PLACEHOLDER_WORDS for word in words)


def docker_words(step: str) -> list[str] | None:
    """The words after `docker` of a shell step that runs docker (`sudo docker -H x ps -a`), quotes
    removed; None for a step that runs something else or cannot be split."""
    step = LEAD.sub("", without_prompt(step), count=1)
    if not step.startswith("docker ") and not step.startswith("docker\t"):
        return None
    try:
        return sh_words(step)[1:]
    except ValueError:
        return None


def _subcommand(words: list[str]) -> tuple[str, int] | None:
    """(the subcommand, where its words start) of `docker`'s words, global options passed over."""
    at = 0
    while at < len(words) and words[at].startswith("-"):
        at += 2 if words[at] in _GLOBAL_VALUES else 1
    return (words[at], at + 1) if at < len(words) else None


def docker_verb(words: list[str]) -> tuple[str, int] | None:
    """`_subcommand`, with the management command's form folded in: `docker container exec` is `exec`."""
    found = _subcommand(words)
    if found is None:
        return None
    verb, at = found
    if verb == "container" and at < len(words):
        return words[at], at + 1
    return verb, at


def docker_commands(doc: Document) -> Iterator[tuple[int, list[str]]]:
    """(README line, `docker`'s words) of each docker command: a step of a command block's command, and
    an inline code span in prose holding one with an argument (`docker exec -it app bash`; two words,
    `docker volumes`, may be a noun)."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined([(n, sh_code(t)) for n, t in lines])
            if text.lstrip().startswith("#"):
                continue
            for step in shell_steps(text):
                if (words := docker_words(step)) is not None:
                    yield lines[0][0], words
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "docker" not in text:
                continue
            for _, _, code in code_spans(text):
                words = docker_words(code.strip())
                if words is not None and len(words) >= 2:
                    yield line, words


def _unknown_subcommands(commands: list[tuple[int, list[str]]], readme: str) -> Iterator[Diagnostic]:
    """A docker command of `commands` whose subcommand docker does not have, a slip away from one it
    has (`docker exect`): it cannot run (`certain`)."""
    known = sorted(SUBCOMMANDS)
    for line, words in commands:
        found = _subcommand(words)
        if found is None or found[0] in SUBCOMMANDS or not re.fullmatch(r"[a-z][a-z-]{2,}", found[0]):
            continue
        close = difflib.get_close_matches(found[0], known, n=1, cutoff=_SLIP)
        if close:
            yield Diagnostic(
                readme,
                line,
                f"README runs docker {found[0]}, which is no docker command: it cannot run (did you mean "
                f"{close[0]}?)",
                confidence=CERTAIN,
            )


BUILDX_VERBS = frozenset(
    "bake build create dap debug dial-stdio du history imagetools inspect install ls policy prune rm stop "
    "uninstall use version b f help".split()
)
"""The commands of `docker buildx` (its reference page; `b` and `f` are the aliases of build and bake)."""
_BUILDX_VALUES = frozenset({"--builder"})
_BUILDX_FLAGS = frozenset({"-D", "--debug"})
"""The options of `docker buildx` itself, before its command."""


def _buildx_commands(commands: list[tuple[int, list[str]]], readme: str) -> Iterator[Diagnostic]:
    """A `docker buildx` whose first word after buildx's own options (`--builder`, `--debug`) is an
    option of `docker build` (`--platform`, `-t`, `--build-arg`): buildx has no such option and refuses
    the command ("unknown flag"), the `build` subcommand is missing (`certain`); or a command word a slip
    away from a buildx command (`docker buildx biuld`: "unknown command", `certain`). A newer command or
    option of buildx is not read: only build options and slips are."""
    build_options = BUILD_GRAMMAR.values | BUILD_GRAMMAR.flags
    for line, words in commands:
        found = _subcommand(words)
        if found is None or found[0] != "buildx":
            continue
        at = found[1]
        while at < len(words):
            name = words[at].partition("=")[0]
            if name in _BUILDX_VALUES:
                at += 1 if "=" in words[at] else 2
            elif name in _BUILDX_FLAGS:
                at += 1
            else:
                break
        if at >= len(words):
            continue
        word = words[at]
        name = word.partition("=")[0] if word.startswith("--") else word[:2]
        if word.startswith("-") and name in build_options and name not in ("-h", "--help"):
            rest = " ".join(words[found[1] :])
            shown = rest if len(rest) <= 60 else rest[:57] + "…"
            yield Diagnostic(
                readme,
                line,
                f"README runs docker buildx {shown}, but {name} is no option of docker buildx itself "
                f"(buildx refuses it: unknown flag): the build subcommand is missing (did you mean docker "
                f"buildx build {name} …?)",
                confidence=CERTAIN,
            )
        elif re.fullmatch(r"[a-z][a-z-]{2,}", word) and word not in BUILDX_VERBS:
            close = difflib.get_close_matches(word, sorted(BUILDX_VERBS), n=1, cutoff=_SLIP)
            if close:
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs docker buildx {word}, which is no docker buildx command: it cannot run "
                    f"(did you mean {close[0]}?)",
                    confidence=CERTAIN,
                )


def _upper_case_images(
    doc: Document, commands: list[tuple[int, list[str]]], readme: str
) -> Iterator[Diagnostic]:
    """A `docker run` or `docker create` whose image has upper-case letters in its repository's path
    (`ApulisVision`, `org/MyApp`; a registry host may have them): docker refuses it ("repository name
    must be lowercase"), so it cannot run (`certain`). Named with the tag the README's build gives it
    (`-t apulisvision:1.5.0`), or its one build tag. A placeholder (`<image>`, `IMAGE`, `YourImage`) is
    the reader's to fill in."""
    tags: list[str] = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = joined(lines)
            if BUILD.search(command):
                tags += [m.group(1) for m in TAG_FLAG.finditer(command)]
    for line, words in commands:
        found = docker_verb(words)
        if found is None:
            continue
        verb, at = found
        if verb not in _MAKES_CONTAINER:
            continue
        read = read_words(words[at:], RUN)
        if not read.complete or not read.positional:
            continue
        image = read.positional[0]
        path = image_repository(image)
        first, _, rest = path.partition("/")
        if rest and ("." in first or ":" in first or first == "localhost"):
            path = rest  # a registry host may be written in upper case
        if _FILLED_IN.search(image) or all(p == p.lower() or _placeholder_part(p) for p in path.split("/")):
            continue
        same = [t for t in tags if image_repository(t) == image_repository(image).lower()]
        hint = ""
        if same or len(set(tags)) == 1:
            hint = f"; the README's build tags {(same or tags)[0]}"
        yield Diagnostic(
            readme,
            line,
            f"README {_MAKES_CONTAINER[verb]} image {image}, which docker refuses: a repository name must be "
            f"lowercase{hint}",
            confidence=CERTAIN,
        )


_PATH_PART = re.compile(r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*")
"""A part of a repository's path as docker takes it (the distribution reference grammar)."""
_TAG_PART = re.compile(r"[\w][\w.-]{0,127}")
"""A tag as docker takes it (`V1` too: upper case is allowed in a tag)."""
_FILLED_IN = re.compile(r"[<>${}\[\]*%`\\]")
"""A reference the reader or the shell fills in (`<name>`, `$IMAGE`, `${TAG}`): no claim. A part of it
that is a placeholder's word (`your-app`, `MyImage`) is left to `_placeholder_part`."""
_SCRIPT_NAMED = re.compile(r"(?<![\w./-])((?:\./)?[\w-]+(?:/[\w-]+)*\.(?:sh|bash))(?![\w/-])")
"""A shell script a README names in a command or a code span (`docker_build.sh`, `./scripts/build.sh`)."""


def reference_problem(reference: str) -> str | None:
    """Why docker refuses `reference` as an image name (`invalid reference format`, or a repository name
    with upper case), None when it takes it or the reference has parts filled in later (`$TAG`,
    `<name>`), has a placeholder in capitals (`IMAGE`, `gcr.io/PROJECT/app`) or is no name at all (`\\`)."""
    reference = reference.strip("\"'")
    if not re.search(r"[A-Za-z0-9]", reference) or _FILLED_IN.search(reference):
        return None
    name = reference.split("@", 1)[0]
    head, _, tail = name.rpartition("/")
    last, colon, tag = tail.partition(":")
    parts = [*(head.split("/") if head else []), last]
    if len(parts) > 1 and ("." in parts[0] or ":" in parts[0] or parts[0] == "localhost"):
        parts = parts[1:]  # a registry host may be written in upper case
    path = "/".join(parts)
    if not path:
        return "an image name with no repository is an invalid reference"
    typed = [part for part in parts if not _placeholder_part(part)]  # (`IMAGE`, `gcr.io/PROJECT/app`)
    if any(part != part.lower() for part in typed):
        return "a repository name must be lowercase"
    if len(typed) < len(parts):
        return None  # the reader writes the rest of the name
    if any(not _PATH_PART.fullmatch(part) for part in parts) or (colon and not _TAG_PART.fullmatch(tag)):
        return "it is an invalid reference format"
    return None


_PUSH_PULL = re.compile(
    r"\bdocker[ \t]+(?:image[ \t]+)?(?:push|pull)(?:[ \t]+-[-\w]+(?:=\S+)?)*[ \t]+[\"']?([^\s\"'`;|&)]+)"
)
"""The image a `docker push` or `docker pull` names (`docker push Acme/app:1`)."""


def _given_names(text: str) -> Iterator[str]:
    """The image names a command line gives: a build's `-t` values, a `docker tag`'s source and target,
    the image of a `docker push` or `docker pull`."""
    if BUILD.search(text):
        yield from (m.group(1) for m in TAG_FLAG.finditer(text))
    for match in TAG_COMMAND.finditer(text):  # (both must be valid references)
        yield from match.groups()
    yield from (m.group(1) for m in _PUSH_PULL.finditer(text))


def _invalid_names(doc: Document, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """A `docker build -t` or `docker tag` of the README, or of a shell script beside it that the README
    names (`Build the image via `docker_build.sh``), giving an image name docker refuses (`-t P11_image`:
    "repository name must be lowercase"; `-t .app`, `-t :1`: "invalid reference format"): the build fails
    (`certain`). A name with a variable or placeholder is not read; upper case in a tag (`:V1`) is valid."""
    named: dict[str, int] = {}  # script as written → first README line naming it
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined(lines)
            if text.lstrip().startswith("#"):
                continue
            for ref in _given_names(text):
                if (problem := reference_problem(ref)) is not None:
                    line = next((n for n, t in lines if ref in t), lines[0][0])
                    yield Diagnostic(
                        readme,
                        line,
                        f"README names image {ref}, which docker refuses: {problem}",
                        confidence=CERTAIN,
                    )
            for match in _SCRIPT_NAMED.finditer(text):
                named.setdefault(match.group(1), lines[0][0])
    for para in doc.paragraphs:
        for line, text in para.lines:
            if ".sh" not in text and ".bash" not in text:
                continue  # (no script named: its code spans are not read)
            for _, _, code in code_spans(text):
                for match in _SCRIPT_NAMED.finditer(code):
                    named.setdefault(match.group(1), line)
    if directory is None:
        return
    top = real_path(directory)
    for script, line in sorted(named.items(), key=lambda item: item[1]):
        path = directory / script
        if not os.path.isfile(path) or not resolves_inside(path, top):
            continue
        data = bytes_or_none(path)
        if data is None:
            continue
        for number, text in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            code = text.split(" #", 1)[0]
            if code.lstrip().startswith("#"):
                continue
            for ref in _given_names(code):
                if (problem := reference_problem(ref)) is not None:
                    yield Diagnostic(
                        readme,
                        line,
                        f"README runs {script}, whose docker command ({script}:{number}) names image {ref}, "
                        f"which docker refuses: {problem}",
                        confidence=CERTAIN,
                    )


_ARITY = {"push": 1, "pull": 1, "tag": 2}
"""The subcommands whose number of positional words is fixed (the CLI's `ExactArgs`): an image for
`push` and `pull`, a source and a target for `tag` (`docker image push`, … are the same commands)."""
_ARITY_OPTIONS = options_grammar("--platform", "-a --all-tags --disable-content-trust -q --quiet --help")
"""Their options (push's and pull's; `tag` has none but `--help`): `--platform` takes a value."""
_NOT_AN_ARGUMENT = re.compile(r"[<>\[\]{}|&;*?$`]|\.\.\.|\A[A-Z][A-Z_]*\Z|\A\^\Z")
"""A word that makes the count unsure: a redirection, a placeholder (`<image>`, `NAME[:TAG]`, `IMAGE`,
`...`), a glob, a variable (unquoted, it may be no word or several), a command substitution, a cmd
continuation (`^`)."""


def _wrong_arity(commands: list[tuple[int, list[str]]], readme: str) -> Iterator[Diagnostic]:
    """A `docker push` / `pull` (one image) or `docker tag` (two) given another number of positional
    words (`docker push org/app .`): docker refuses it before doing anything (`certain`). Not read: a
    command with an option the table lacks (its value may be a word), a placeholder, a variable, a
    redirection, and one given nothing (a name in a list of commands)."""
    for line, words in commands:
        found = _subcommand(words)
        if found is None:
            continue
        verb, at = found
        if verb == "image" and at < len(words):
            verb, at = words[at], at + 1
        wanted = _ARITY.get(verb)
        if wanted is None or any(_NOT_AN_ARGUMENT.search(w) for w in words[at:]):
            continue
        read = read_words(words[at:], _ARITY_OPTIONS)
        if not read.complete or read.help or len(read.positional) in (0, wanted):
            continue
        given = " ".join(read.positional) or "nothing"
        takes = "one image" if wanted == 1 else "two images (a source and a target)"
        yield Diagnostic(
            readme,
            line,
            f"README's docker {verb} is given {given}, but docker {verb} takes {takes}: it cannot run",
            confidence=CERTAIN,
        )


_SIZE = re.compile(r"(\d+(?:\.\d+)?) ?([kmgtp])?i?b?", re.IGNORECASE)
"""A size as docker reads `--memory` and its kin (go-units `RAMInBytes`: `2g`, `512m`, `1.5GiB`, bytes
with no unit; each unit 1024 of the one below)."""
_MIN_MEMORY = 6 * 1024 * 1024
"""The smallest memory limit or reservation the daemon takes (`linuxMinMemory`, "allowed is 6MB")."""


_RESTART = re.compile(r"(no|always|unless-stopped|on-failure)(?::(-?\d+))?")
"""A restart policy as `--restart` takes it, with a retry count after `:`."""
_NOT_WITH_CONTAINER_NETWORK = (
    "-p",
    "--publish",
    "-h",
    "--hostname",
    "--dns",
    "--add-host",
    "--link",
    "--expose",
)
"""The options the daemon refuses with `--network container:NAME` (the network, its name and hosts, and the
ports are the other container's)."""


def _size(value: str) -> int | None:
    """The bytes of the size `value`; None when it is no size (a variable, a placeholder)."""
    match = _SIZE.fullmatch(value.strip())
    if match is None:
        return None
    power = " kmgtp".index(match.group(2).lower()) if match.group(2) else 0
    return int(float(match.group(1)) * 1024**power)


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def refused_options(read_values: list[tuple[str, str]], flags: list[str], verb: str) -> Iterator[str]:
    """Why docker refuses the options of one `docker run` / `docker create` (`read_values`, the options
    that took a value as written, the last one of a name winning; `flags`, the flags set), each the
    CLI's or the daemon's own rule, checked before a container is made: options that contradict each
    other, and values out of the range docker takes whatever the machine."""
    given: dict[str, tuple[str, str]] = {}  # option's long name → (as written, value)
    longs = {"-m": "--memory", "-a": "--attach", "-c": "--cpu-shares"}
    for name, value in read_values:
        given[longs.get(name, name)] = (name, value)

    def shown(option: str) -> str:
        name, value = given[option]
        return f"{name} {value}"

    def size(option: str) -> int | None:
        return _size(given[option][1]) if option in given else None

    memory, reservation = size("--memory"), size("--memory-reservation")
    swap_value = given.get("--memory-swap", ("", ""))[1].strip()
    swap = None if swap_value == "-1" else size("--memory-swap")
    if memory is not None and reservation is not None and 0 < memory < reservation:
        yield (
            f"{shown('--memory-reservation')} asks a memory reservation above the memory limit "
            f"{shown('--memory')}, which docker refuses (minimum memory limit can not be less than memory "
            "reservation limit)"
        )
    if memory is not None and 0 < memory < _MIN_MEMORY:
        yield f"{shown('--memory')} is below the 6MB memory limit docker takes at least"
    if reservation is not None and 0 < reservation < _MIN_MEMORY:
        yield f"{shown('--memory-reservation')} is below the 6MB memory reservation docker takes at least"
    if swap is not None and swap > 0:
        if memory is None and "--memory" not in given:
            yield f"{shown('--memory-swap')} is given without -m/--memory, which docker refuses"
        elif memory is not None and 0 < swap < memory:
            yield (
                f"{shown('--memory-swap')} is below the memory limit {shown('--memory')}, which docker "
                "refuses (the swap limit counts memory and swap together)"
            )
    cpus = _number(given["--cpus"][1]) if "--cpus" in given else None
    if cpus is not None and cpus > 0:
        for other in ("--cpu-period", "--cpu-quota"):
            set_to = _number(given[other][1]) if other in given else None
            if set_to is not None and set_to > 0:
                yield f"{shown('--cpus')} and {shown(other)} cannot both be set (docker: conflicting options)"
    restart = given.get("--restart", ("", ""))[1].strip()
    if "--rm" in flags and re.fullmatch(r"always|unless-stopped|on-failure(?::\d+)?", restart):
        yield f"--rm and {shown('--restart')} cannot both be set (docker: conflicting options)"
    policy = _RESTART.fullmatch(restart)
    if policy is not None and policy.group(2) and policy.group(1) != "on-failure":
        yield (
            f"{shown('--restart')} gives a retry count to a policy that takes none (docker: maximum retry "
            "count can only be used with 'on-failure')"
        )
    elif policy is None and re.fullmatch(r"[A-Za-z][\w-]*(?::\d+)?", restart):
        yield (
            f"{shown('--restart')} is no restart policy (docker takes no, always, unless-stopped, "
            "on-failure[:N])"
        )
    health = [name for name in given if name.startswith("--health-")]
    if "--no-healthcheck" in flags and health:
        yield f"--no-healthcheck and {shown(health[0])} cannot both be set (docker: conflicting options)"
    network = next((given[n][1].strip() for n in ("--network", "--net") if n in given), "")
    if network.startswith("container:"):
        clash = next((n for n in _NOT_WITH_CONTAINER_NETWORK if n in given), None)
        clash = clash or next((f for f in ("-P", "--publish-all") if f in flags), None)
        if clash is not None:
            option = shown(clash) if clash in given else clash
            yield (
                f"{option} cannot be set with --network {network}, which shares another container's network "
                "(docker: conflicting options)"
            )
    if verb == "run" and "--attach" in given and ({"-d", "--detach"} & set(flags)):
        yield f"{shown('--attach')} and -d/--detach cannot both be set (docker: conflicting options)"
    ranges = {
        "--memory-swappiness": (0, 100, "-1"),
        "--oom-score-adj": (-1000, 1000, None),
        "--blkio-weight": (10, 1000, "0"),
    }
    for option, (low, high, also) in ranges.items():
        if option not in given or given[option][1].strip() == also:
            continue
        number = _number(given[option][1])
        if number is not None and number == int(number) and not low <= number <= high:
            yield f"{shown(option)} is out of the range docker takes ({low} to {high})"


def _refused_runs(commands: list[tuple[int, list[str]]], readme: str) -> Iterator[Diagnostic]:
    """A `docker run` / `docker create` whose options docker refuses together or by their value
    (`refused_options`: `-m 2g --memory-reservation=4g`, `--rm --restart always`, `--cpus 2 --cpu-quota
    50000`): it fails before a container is made (`certain`). Read only when every option is known (a
    value may otherwise be misread); a variable or placeholder is no value."""
    for line, words in commands:
        found = docker_verb(words)
        if found is None or found[0] not in _MAKES_CONTAINER:
            continue
        verb, at = found
        read = read_words(words[at:], RUN)
        if not read.complete or read.help:
            continue
        for why in refused_options(read.values, read.flags, verb):
            yield Diagnostic(
                readme,
                line,
                f"README's docker {verb}: {why}: it cannot run",
                confidence=CERTAIN,
            )


COMPOSE_VERBS = frozenset(
    "attach bridge build commit config convert cp create down events exec export images kill logs ls pause "
    "port ps publish pull push restart rm run scale start stats stop top unpause up version viz volumes "
    "wait watch alpha help bundle".split()
)
"""The commands of `docker compose` (v2's reference, its experimental `alpha`) and of `docker-compose`
v1 (`help`, `bundle`)."""
_STANDALONE = re.compile(r"docker-compose(?=[ \t]|$)")
_VERB_WORD = re.compile(r"[a-z][a-z0-9_-]{2,}")
"""A command word that can be read: not a placeholder (`<command>`, `COMMAND`, `[cmd]`) or a version."""


def compose_commands(
    doc: Document, commands: list[tuple[int, list[str]]] | None = None
) -> Iterator[tuple[int, list[str]]]:
    """(README line, the words after `docker compose` / `docker-compose`) of each compose command of a
    command block that starts its shell step (not `apt-get install docker-compose jq`), and of an
    inline code span in prose that is one with a command word. `commands`: the README's
    `docker_commands`, when the caller has read them already (each line and code span read once)."""
    for line, words in docker_commands(doc) if commands is None else commands:
        found = _subcommand(words)
        if found is not None and found[0] == "compose":
            yield line, words[found[1] :]
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined([(n, sh_code(t)) for n, t in lines])
            if text.lstrip().startswith("#"):
                continue
            for step in shell_steps(text):
                step = LEAD.sub("", without_prompt(step), count=1)
                if _STANDALONE.match(step):
                    try:
                        yield lines[0][0], sh_words(step)[1:]
                    except ValueError:
                        continue
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "docker-compose " not in text:
                continue
            for _, _, code in code_spans(text):
                step = LEAD.sub("", without_prompt(code.strip()), count=1)
                if _STANDALONE.match(step):
                    try:
                        words = sh_words(step)[1:]
                    except ValueError:
                        continue
                    if len(words) >= 2:
                        yield line, words


def _services(directory: Path | None) -> dict[str, tuple[str, int | None]]:
    """The services of the default compose file of `directory` or the nearest folder above it (four
    up at most): name → (file name, line)."""
    if directory is None:
        return {}
    start = directory.resolve()
    for folder in [start, *start.parents][:5]:
        files = compose.default_files(folder)
        if not files:
            continue
        found: dict[str, tuple[str, int | None]] = {}
        for path in files:
            data = bytes_or_none(path)
            if data is None:
                continue
            shown = path.relative_to(start).as_posix() if path.is_relative_to(start) else path.name
            try:
                services = compose.services(data, shown)
            except Exception:  # noqa: BLE001 (a compose file docgen cannot read names no service)
                continue
            for service in services:
                found.setdefault(service.name, (shown, service.line))
        return found
    return {}


def _unknown_compose_commands(
    doc: Document, commands: list[tuple[int, list[str]]], readme: str, directory: Path | None
) -> Iterator[Diagnostic]:
    """A compose command whose command word compose does not have (`certain`): a service's name (it
    lacks `exec`), a slip from a command (`docker compose upp`), or another word of a command's shape."""
    services: dict[str, tuple[str, int | None]] | None = None
    told: set[tuple[int, str]] = set()
    for line, words in compose_commands(doc, commands):
        call = read_compose(words)
        verb = call.verb
        if (
            verb is None
            or not call.top.complete
            or call.top.help
            or verb in COMPOSE_VERBS
            or not _VERB_WORD.fullmatch(verb)
            or (line, verb) in told
        ):
            continue
        told.add((line, verb))
        if services is None:
            services = _services(directory)
        shown = " ".join(["docker compose", *words])
        if verb in services:
            file, at = services[verb]
            rest = " ".join(words[call.top.after - 1 :])
            said = (
                f"README runs {shown}, but {verb} is no docker compose command (compose refuses it: "
                f"unknown command) but a service of {file}{f':{at}' if at else ''}: to run a command in "
                f"it, use docker compose exec {rest} (or run)"
            )
        else:
            close = difflib.get_close_matches(verb, sorted(COMPOSE_VERBS), n=1, cutoff=_SLIP)
            if not close:
                continue
            said = (
                f"README runs {shown}, but {verb} is no docker compose command: it cannot run (did you mean "
                f"{close[0]}?)"
            )
        yield Diagnostic(readme, line, said, confidence=CERTAIN)


_GLUED = re.compile(
    r"(docker)(build|run|exec|compose|pull|push|images|ps|stop|start|logs|tag|rmi|login|inspect)"
    r"|(docker-compose)(up|down|build|run|exec|logs|ps|pull|restart|stop)"
)
"""A first word that is a docker or compose command with the blank before its subcommand left out
(`dockerbuild`, `dockerrun`, `docker-composeup`): no program is named so."""


def _glued_commands(doc: Document, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """A step of a command block whose program is a docker or compose command run together with its
    subcommand (`sudo dockerbuild -t app .`): the shell finds no such program (`certain`), unless the
    README defines it (`alias dockerbuild=…`, a function) or a file of the project is named so. For a
    build, the finding adds a context that does not exist (`grammar.missing_context`)."""
    text = "\n".join(t for fence in doc.fences for _, t in fence.lines)
    for fence in doc.fences:
        for lines in fence_commands(fence):
            code = joined([(n, sh_code(t)) for n, t in lines])
            for step in shell_steps(code):
                step = LEAD.sub("", without_prompt(step), count=1)
                word = step.split(maxsplit=1)[0] if step.strip() else ""
                glued = _GLUED.fullmatch(word)
                if glued is None or re.search(rf"\b{word}\s*(?:=|\(\))", text):
                    continue
                if directory is not None and os.path.lexists(directory / word):
                    continue
                program, verb = (glued.group(1), glued.group(2)) if glued.group(1) else glued.group(3, 4)
                said = (
                    f"README runs {word}, which is no program: it runs {program} {verb} without the blank "
                    f"between them, so the shell answers command not found (did you mean {program} {verb}?)"
                )
                if verb == "build" and program == "docker":
                    try:
                        read = read_words(sh_words(step)[1:], BUILD_GRAMMAR)
                    except ValueError:
                        read = None
                    if read is not None and read.complete and len(read.positional) == 1:
                        context = read.positional[0]
                        if missing_context(context, directory):
                            said += f"; its build context {context} does not exist either"
                yield Diagnostic(readme, lines[0][0], said, confidence=CERTAIN)


def docker_cli(doc: Document, readme: str, directory: Path | None = None) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    commands = list(docker_commands(doc))  # (each line and code span read once)
    yield from _unknown_subcommands(commands, readme)
    yield from _unknown_compose_commands(doc, commands, readme, directory)
    yield from _buildx_commands(commands, readme)
    yield from _upper_case_images(doc, commands, readme)
    yield from _invalid_names(doc, readme, directory)
    yield from _wrong_arity(commands, readme)
    yield from _refused_runs(commands, readme)
    yield from _glued_commands(doc, readme, directory)
