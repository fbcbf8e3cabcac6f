"""Commands of a README that cannot run as written, judged by the command's own grammar: a `docker build`
(`docker buildx build`, `docker image build`) with no build context (`docker build -t app -f Dockerfile`,
no `.`) or with two positional words (`docker build app:v1 ./`, the tag without `-t`), and an option
`docker build`, `docker run` or `docker compose` (`up`, `build`, `run`, `exec`) does not have, a slip away
from one it has (`--build-args` for `--build-arg`) or mangled by a character no option has (`--^Cntime`
for `--runtime`) or glued to its value with `:` (`--network:container:<id>`: docker splits an option
from its value only at `=` or a blank), a short option `docker run` does not have (`-b`), a long option
written with one dash (`-env="DISPLAY"`: docker reads `-e nv="DISPLAY"`), and a `docker exec` (`docker
compose exec`) given `docker run`'s options, before its container or after it (`docker exec -it app --gpus
all bash`: exec runs `--gpus` as the command).

The options are those of the Docker CLI reference (docs.docker.com/reference/cli/docker/buildx/build/,
…/docker/container/run/, …/docker/compose/ and its `up`, `build`, `run`, `exec` pages), the legacy
builder's and `docker-compose` v1's too, and for `podman build` those of podman-build(1) on top. `podman
build` and `buildah bud` take the current folder when no context is given, so they are not read for one.
An option the table lacks is reported only when it is a slip from one it has: an option newer than the
table is silent, and one only a plugin has cannot be met (only these commands are read).

A package installer command of a block or a code span (`pip install ---no-cache-dir`, `apt-get install
-y --no-install-recomends`) given an option its program refuses is told too (`installer_options`).

`read_compose` is the one reading of a `docker compose` command by these tables (its files, profiles,
command and services), for `compose_builds` and `compose_services` too.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_commands, command_words, fence_commands, joined, without_prompt
from docgen.build_scripts import DOCKER, DOCKER_PODMAN, WORD_END, build_command, container_command
from docgen.installer_options import refused_option
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel
from docgen.shell import sh_tokens


@dataclass(frozen=True)
class _Grammar:
    """The options of one command."""

    values: frozenset[str]
    """Options followed by a value (`--tag`, `-t`)."""
    flags: frozenset[str]
    """Options that take none (`--rm`, `-d`)."""
    interspersed: bool = True
    """Options may follow its positional words (`docker build . --pull`); False when the first positional
    word ends them (`docker run IMAGE --flag`: the flag is the container's)."""

    def __or__(self, other: _Grammar) -> _Grammar:
        """These options and `other`'s, an option of both names taken as this grammar has it (a compose
        command's own `-f`, `logs --follow`, hides the global `-f`, `--file`)."""
        values = self.values | (other.values - self.flags)
        return _Grammar(values, self.flags | (other.flags - self.values), self.interspersed)


def options_grammar(values: str, flags: str, interspersed: bool = True) -> _Grammar:
    return _Grammar(frozenset(values.split()), frozenset(flags.split()), interspersed)


# The tables, from the reference pages named in the module docstring.
_BUILD = options_grammar(
    "--add-host --allow --annotation --attest --build-arg --build-context --builder --cache-from --cache-to "
    "--call --cgroup-parent -f --file --iidfile --label --metadata-file --network --no-cache-filter -o "
    "--output --platform --progress --provenance --sbom --secret --shm-size --ssh -t --tag --target "
    "--ulimit -c --cpu-shares --cpu-period --cpu-quota --cpuset-cpus --cpuset-mems --isolation -m --memory "
    "--memory-swap --security-opt --policy",
    "--check --detach --load --no-cache --pull --push -q --quiet -D --debug --help --rm --force-rm --print "
    "--squash --compress --stream --disable-content-trust",
)
_BUILD_LONG = sorted(o for o in _BUILD.values | _BUILD.flags if o.startswith("--"))
_PODMAN_BUILD = _BUILD | options_grammar(
    "--arch --authfile --cap-add --cap-drop --cert-dir --cgroupns --creds --decryption-key --device --dns "
    "--dns-option --dns-search --env --format --from --group-add --hooks-dir --ignorefile --ipc --jobs "
    "--logfile --manifest --os --os-feature --os-version --pid --retry --retry-delay --runtime "
    "--runtime-flag --sign-by --signature-policy --source-date-epoch --timestamp --unsetenv --unsetlabel "
    "--userns --userns-gid-map --userns-gid-map-group --userns-uid-map --userns-uid-map-user --uts "
    "--variant -v --volume --tls-verify --layers --http-proxy --identity-label --inherit-labels",
    "--all-platforms --compat-volumes --disable-compression --no-hosts --omit-history --rewrite-timestamp "
    "--skip-unused-stages --squash-all --stdin --logsplit",
)
BUILD_GRAMMAR = _BUILD
"""The options of `docker build` (for a build read outside the README, `script_builds`)."""

RUN = options_grammar(
    "--add-host --annotation -a --attach --blkio-weight --blkio-weight-device --cap-add --cap-drop "
    "--cgroup-parent --cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota --cpu-rt-period "
    "--cpu-rt-runtime -c --cpu-shares --cpus --cpuset-cpus --cpuset-mems --detach-keys --device "
    "--device-cgroup-rule --device-read-bps --device-read-iops --device-write-bps --device-write-iops --dns "
    "--dns-opt --dns-option --dns-search --domainname --entrypoint -e --env --env-file --expose --gpus "
    "--group-add --health-cmd --health-interval --health-retries --health-start-interval "
    "--health-start-period --health-timeout -h --hostname --io-maxbandwidth --io-maxiops --ip --ip6 --ipc "
    "--isolation --kernel-memory -l --label --label-file --link --link-local-ip --log-driver --log-opt "
    "--mac-address -m --memory --memory-reservation --memory-swap --memory-swappiness --mount --name "
    "--network --net --network-alias --net-alias --oom-score-adj --pid --pids-limit --platform -p --publish "
    "--pull --restart --runtime --security-opt --shm-size --stop-signal --stop-timeout --storage-opt "
    "--sysctl --tmpfs --ulimit -u --user --userns --uts -v --volume --volume-driver --volumes-from -w "
    "--workdir",
    "-d --detach --disable-content-trust --help --init -i --interactive --no-healthcheck --oom-kill-disable "
    "--privileged -P --publish-all -q --quiet --read-only --rm --sig-proxy -t --tty --use-api-socket",
    interspersed=False,
)
EXEC = options_grammar(
    "--detach-keys -e --env --env-file -u --user -w --workdir",
    "-d --detach -i --interactive --privileged -t --tty --help",
    interspersed=False,
)
"""The options of `docker exec`: the first positional word is the container, the rest its command."""
_COMPOSE = options_grammar(
    "-f --file -p --project-name --profile --env-file --project-directory --ansi --progress --parallel "
    "--log-level -H --host -c --context --tlscacert --tlscert --tlskey",
    "--compatibility --dry-run --all-resources --verbose --no-ansi --tls --tlsverify --skip-hostname-check "
    "--help -v --version",
    interspersed=False,
)
"""The options of `docker compose` itself, before its command. After it they are read too, so that a
command's words stay right, but compose refuses them there (`up --profile x`: "unknown flag"): they are
not persistent flags (`_PROJECT_OPTIONS`)."""
_PROJECT_OPTIONS = frozenset(
    "-f --file -p --project-name --profile --env-file --project-directory --ansi --progress "
    "--parallel".split()
)
"""The options of `docker compose` itself that take a value and that no command of it inherits: compose
v2 adds them to the root command's own flags (only `--dry-run` is persistent) and `docker-compose` v1's
docopt usage puts them before the command, so after a command that has no option of the name either
refuses them."""
_COMPOSE_COMMANDS = {
    "up": options_grammar(
        "--attach --exit-code-from --no-attach --pull --scale -t --timeout --wait-timeout",
        "--abort-on-container-exit --abort-on-container-failure --always-recreate-deps --attach-dependencies "
        "--build -d --detach --force-recreate --menu --no-build --no-color --no-deps --no-log-prefix "
        "--no-recreate --no-start --quiet-build --quiet-pull --remove-orphans -V --renew-anon-volumes "
        "--timestamps --wait -w --watch -y --yes",
    ),
    "build": options_grammar(
        "--build-arg --builder -m --memory --provenance --sbom --ssh --progress",
        "--check --no-cache --print --pull --push -q --quiet --with-dependencies --compress --force-rm "
        "--no-rm --parallel",
    ),
    "run": options_grammar(
        "--cap-add --cap-drop --entrypoint -e --env --env-from-file -l --label --name -p --publish --pull -u "
        "--user -v --volume -w --workdir",
        "--build -d --detach -i --interactive -T --no-TTY --no-deps -q --quiet --quiet-build --quiet-pull "
        "--remove-orphans --rm -P --service-ports --use-aliases -t --tty",
        interspersed=False,
    ),
    "exec": options_grammar(
        "-e --env --index -u --user -w --workdir",
        "-d --detach -T --no-TTY --privileged -i --interactive -t --tty",
        interspersed=False,
    ),
    "create": options_grammar(
        "--pull --scale",
        "--build --force-recreate --no-build --no-recreate --quiet-pull --remove-orphans -y --yes",
    ),
    "down": options_grammar("--rmi -t --timeout", "--remove-orphans -v --volumes"),
    "kill": options_grammar("-s --signal", "--remove-orphans"),
    "logs": options_grammar(
        "--index -n --tail --since --until", "-f --follow --no-color --no-log-prefix -t --timestamps"
    ),
    "pause": options_grammar("", ""),
    "pull": options_grammar(
        "--policy",
        "--ignore-buildable --ignore-pull-failures --include-deps -q --quiet --parallel --no-parallel",
    ),
    "push": options_grammar("", "--ignore-push-failures --include-deps -q --quiet"),
    "restart": options_grammar("-t --timeout", "--no-deps"),
    "rm": options_grammar("", "-f --force -s --stop -v --volumes -a --all"),
    "start": options_grammar("--wait-timeout", "--wait"),
    "stop": options_grammar("-t --timeout", ""),
    "unpause": options_grammar("", ""),
}
"""The `docker compose` commands read, each with its own options (the reference page of each): the
global ones are theirs too. Their positional words are services (of `run` and `exec`, the first: the
rest is the command the container runs)."""
_ONE_SERVICE = frozenset({"run", "exec"})
"""The compose commands whose first positional word only is a service (the rest is what it runs)."""
_CHECKED = frozenset({"up", "build", "run", "exec"})
"""The compose commands whose options are judged for slips."""

_DOCKER_BUILD = re.compile(build_command("docker"))
_PODMAN_BUILD_COMMAND = re.compile(build_command("podman"))
"""A build of one engine: each reads its own options (`_BUILD`, `_PODMAN_BUILD`)."""
_DOCKER_RUN = re.compile(container_command("run", DOCKER, end=WORD_END))
_DOCKER_EXEC = re.compile(container_command("exec", DOCKER, end=WORD_END))
_CONTAINER_RUN = re.compile(container_command("run|create", DOCKER_PODMAN, end=WORD_END))
"""A `docker run`/`create` or `podman run`/`create`: read for an env value split by a blank."""
DOCKER_COMPOSE = re.compile(r"\bdocker(?:[ \t]+compose|-compose)(?=[ \t]|$)")
"""Docker's compose command, whose options the tables hold."""
COMPOSE = re.compile(r"(?<![\w./-])(?:docker[ \t]+compose|docker-compose|podman-compose)(?![\w.-])")
"""A compose command, Docker's or podman-compose (which reads compose files the same way, and whose own
options `read_compose` leaves unknown)."""
_SLIP = 0.85
"""How close an option the command lacks must be to one it has to be a slip (`--build-args`)."""


@dataclass
class Read:
    """What a command's words are, by its grammar."""

    positional: list[str]
    unknown: list[str]
    """Its long options the grammar does not have, in order."""
    complete: bool = True
    """Every option was known, so the positional words are right."""
    help: bool = False
    """It asks for the command's help (`--help`), not for the command."""
    after: int = 0
    """Where the words after the first positional one start, for a grammar that is not interspersed."""
    values: list[tuple[str, str]] = field(default_factory=list)
    """Each option that took a value, with it (`-fx`, `-f=x`, `--file=x` and `--file x`: `("-f", "x")`)."""
    short: list[tuple[str, str]] = field(default_factory=list)
    """Each short option the grammar does not have, with the word after its bundle (`-e X=1`: `("-e",
    "X=1")`; `""` when none follows). Reading stops at it within its bundle."""
    doubtful: set[int] = field(default_factory=set)
    """The places in `positional` of the words right after an unknown long option written without `=`
    (`--gpus all`): the option's value as likely as a positional word."""
    flags: list[str] = field(default_factory=list)
    """Each option taking no value that was set (`-it`: `-i`, `-t`; `--rm`, `--rm=true`; not `--rm=false`)."""


def read_words(words: list[str], grammar: _Grammar) -> Read:
    """The positional words and the unknown long options of `words`, by `grammar` (`--` ends options;
    a short option may hold its value, `-tname`, or be bundled, `-it`)."""
    read = Read([], [])
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            read.positional.extend(words[at:])
            break
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            read.help = read.help or name == "--help"
            if name in grammar.values:
                if not eq and at < len(words):
                    read.values.append((name, words[at]))
                elif eq:
                    read.values.append((name, value))
                at += 0 if eq else 1
            elif name in grammar.flags:
                if not eq or value.lower() in ("true", "1"):
                    read.flags.append(name)
            else:
                read.unknown.append(name)
                read.complete = False
                if not eq and at < len(words) and not words[at].startswith("-"):
                    read.doubtful.add(len(read.positional))
            continue
        if word.startswith("-") and word != "-":
            for index, char in enumerate(word[1:], start=1):
                option = "-" + char
                read.help = read.help or option == "-h" and grammar is not RUN
                if option in grammar.values:
                    if index < len(word) - 1:
                        read.values.append((option, word[index + 1 :].removeprefix("=")))
                    elif at < len(words):
                        read.values.append((option, words[at]))
                    at += 0 if index < len(word) - 1 else 1
                    break
                if option in grammar.flags:
                    read.flags.append(option)
                    continue
                read.complete = False
                if option != "-h":
                    read.short.append((option, words[at] if at < len(words) else ""))
                break
            continue
        read.positional.append(word)
        if not grammar.interspersed:
            read.after = at
            break
    return read


@dataclass(frozen=True)
class ComposeCall:
    """One `docker compose` command, read by the tables above as the Docker CLI reads it."""

    words: tuple[str, ...]
    """Its words after `docker compose`."""
    top: Read
    """Its global options, up to the command (`positional[0]`)."""
    verb: str | None
    """The command (`up`, `exec`, …), the first word that is not an option; None when there is none."""
    options: Read | None
    """The words after the command, by its options and the global ones; None for a command the tables do
    not have."""

    @property
    def complete(self) -> bool:
        """Every option it passes is known, so its command and services are right."""
        return self.top.complete and (self.options is None or self.options.complete)

    @property
    def files(self) -> tuple[str, ...]:
        """The compose files its `-f` / `--file` options name, in order (none: the folder's default)."""
        return tuple(value for name, value in self.top.values if name in ("-f", "--file"))

    @property
    def profiles(self) -> tuple[str, ...]:
        """The profiles its `--profile` options enable, before or after the command."""
        read = [self.top, *([self.options] if self.options is not None else [])]
        return tuple(value for r in read for name, value in r.values if name == "--profile")

    @property
    def services(self) -> tuple[str, ...]:
        """The services it names (of `run` and `exec`, the first word after the options only): none of
        the words that may be an unknown option's value (`Read.doubtful`)."""
        if self.options is None:
            return ()
        read = self.options
        if self.verb in _ONE_SERVICE:
            # after an unknown option (`run --gpus all trainer`) the service is not known
            return () if 0 in read.doubtful else tuple(read.positional[:1])
        return tuple(w for at, w in enumerate(read.positional) if at not in read.doubtful)

    @property
    def rest(self) -> tuple[str, ...]:
        """Its words after the command."""
        return self.words[self.top.after :] if self.verb is not None else ()


def read_compose(words: list[str]) -> ComposeCall:
    """The `docker compose` command whose words (after `docker compose`) are `words`."""
    top = read_words(words, _COMPOSE)
    verb = top.positional[0] if top.positional else None
    grammar = _COMPOSE_COMMANDS.get(verb or "")
    options = None if grammar is None else read_words(words[top.after :], grammar | _COMPOSE)
    return ComposeCall(tuple(words), top, verb, options)


def _slips(read: Read, grammar: _Grammar, command: str, line: int, readme: str) -> Iterator[Diagnostic]:
    """An unknown long option a slip away from one `grammar` has, or a short option (a bundle of them)
    written with two dashes (`--p`, `--it`: `_doubled_dash`, read first): `certain`."""
    known = sorted(o for o in grammar.values | grammar.flags if o.startswith("--"))
    for name in read.unknown:
        if (glued := _glued_value(name, grammar)) is not None:
            option, value = glued
            said = (
                f"README passes {name} to {command}, which has no such option: {command} refuses the command "
                f"(unknown flag: {name}); {option} takes its value after `=` or a blank, not `:` "
                f"({option}={value} or {option} {value})"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
        elif (cluster := _doubled_dash(name, grammar)) is not None:
            what = "a short option" if len(cluster) == 2 else "a bundle of short options"
            said = (
                f"README passes {name} to {command}, which has no such option: {command} refuses the command "
                f"(unknown flag: {name}); {what} takes one dash (did you mean {cluster}?)"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
        elif close := difflib.get_close_matches(name, known, n=1, cutoff=_SLIP):
            said = f"README passes {name} to {command}, which has no such option (did you mean {close[0]}?)"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
        elif (meant := _mangled(name, known)) is not None:
            said = (
                f"README passes {name} to {command}, which has no such option: {command} refuses the command "
                f"(unknown flag: {name}); the option holds characters no option has (did you mean {meant}?)"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)


_CONTROL = re.compile(r"\^[A-Z@\[\\\]^_?]|[\x00-\x1f\x7f]")
"""A control character as a terminal echoes it (`^C`, `^[`) or as it is."""
_STRAY = re.compile(r"[\^~!@#%+,;?|'\"`/:\x00-\x1f\x7f]")
"""A character no option's name has, that is not a placeholder's (`<name>`, `[opts]`, `${X}`, `...`)."""
_MANGLED_SLIP = 0.7
"""How close a mangled option, stray characters taken out, must be to a known one."""


def _mangled(name: str, known: Sequence[str]) -> str | None:
    """The known option `name` is a mangled spelling of: a long option holding a control character or a
    character no option has (`--^Cntime` for `--runtime`, a Ctrl-C struck while typing), close to a known
    option once those characters are taken out (`_MANGLED_SLIP`); None otherwise (a placeholder, a word of
    its own)."""
    letters = name[2:]
    if not _STRAY.search(letters) or re.search(r"[<>\[\]{}$*.]", letters):
        return None
    cleaned = "--" + _STRAY.sub("", _CONTROL.sub("", letters))
    if len(cleaned) < 4:
        return None
    close = difflib.get_close_matches(cleaned, known, n=1, cutoff=_MANGLED_SLIP)
    return close[0] if close else None


def _glued_value(name: str, grammar: _Grammar) -> tuple[str, str] | None:
    """(the option, its value) of an unknown long option `name` that is an option of `grammar` taking a
    value, glued to it with `:` (`--network:container:<id>`, `--shm-size:8g`): docker splits an option
    from its value only at `=`, so it reads the whole word as one flag it lacks; None otherwise."""
    option, colon, value = name.partition(":")
    return (option, value) if colon and value and option in grammar.values else None


def _doubled_dash(name: str, grammar: _Grammar) -> str | None:
    """The short option or bundle of them an unknown long option `name` spells with a dash too many
    (`--p`, `--it`, `--itd`: `-p`, `-it`, `-itd`): each of its one to four letters a short option of
    `grammar` that takes no value, but the last, which may; None otherwise (`--gpu`, a word, is a slip or
    a newer option)."""
    letters = name[2:]
    if not 1 <= len(letters) <= 4 or not letters.isalpha() or len(set(letters)) != len(letters):
        return None
    if any(f"-{c}" not in grammar.flags for c in letters[:-1]):
        return None
    last = f"-{letters[-1]}"
    return "-" + letters if last in grammar.flags or last in grammar.values else None


_RUN_SHAPES = {
    "-e": re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*"),
    "--env": re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:=.*)?"),
    "-v": re.compile(r"[^:\s]+:/[^\s]*"),
    "--volume": re.compile(r"[^:\s]+:/[^\s]*"),
    "-p": re.compile(r"(?:[\d.]+:)?\d+:\d+(?:/(?:tcp|udp))?"),
    "--publish": re.compile(r"(?:[\d.]+:)?\d+(?::\d+)?(?:/(?:tcp|udp))?"),
    "--gpus": re.compile(r"all|\d+|\"?device=.*"),
    "--device": re.compile(r"/dev/\S+"),
    "--shm-size": re.compile(r"\d+[bkmgBKMG]?"),
    "--ipc": re.compile(r"host|private|shareable|none"),
    "--env-file": re.compile(r"\S*\.env\S*|\S*env\S*"),
}
"""The `docker run` options that, with a value of their shape, cannot be a container program's own
(`-e NAME=value`, `-v ./models:/app/models`, `-p 8080:8080`, `--gpus all`, `--device /dev/kfd`)."""


IMAGE_WORD = re.compile(r"[A-Za-z0-9$][\w.:/${}@-]*")
"""A word that can be an image reference: not an elision (`docker run ... -e X=1 ...`) or a placeholder
(`<image>`, `[IMAGE]`)."""


def misplaced(after: list[str]) -> str | None:
    """The first of the words after a `docker run`'s image (`after`), when it is a `docker run` option
    with a value of its shape (`-e THREADS=10`): docker gives it to the container, where no program
    but docker's own reads it. None when a command comes first (`bash -c …`) or the option has
    another shape (`-v` alone, `-p 8080`: a program's verbose or port flag)."""
    if not after:
        return None
    name, eq, value = after[0].partition("=")
    if not eq:
        value = after[1] if len(after) > 1 else ""
    shape = _RUN_SHAPES.get(name)
    if shape is None or not value or not shape.fullmatch(value.strip("\"'")):
        return None
    return f"{name} {value}" if not eq else after[0]


def command_grammar(
    doc: Document,
    readme: str,
    models: Sequence[ImageModel] = (),
    directory: Path | None = None,
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """Each `docker build` / `buildx build` of a command block that names no build context (`certain`),
    or a file as its context (`file_context`, in a code span of prose too), an option of a `docker
    build`, `podman build`, `docker run` or `docker compose` command that the command lacks, a slip from
    one it has (`certain`), and an option of `docker run` or a short option a `docker build` is given,
    which it does not have (`certain`; with `--build-arg` when its value sets a build arg of `models`)."""
    args = {d.name: (m.path, d.line) for m in models for d in m.args}
    yield from _installer_options(doc, readme)
    for fence in doc.fences:
        made = None
        for lines in build_commands(fence, _COMMANDS):
            if made is None:
                made = any(_CREATES_FOLDERS.search(text) for _, text in fence.lines)
            yield from _check(lines, readme, args, directory, None if made else project or directory)
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "docker" not in text:
                continue  # (no span of it can be a docker build: not read for spans)
            for _, _, content in code_spans(text):
                command = without_prompt(content.strip()).removeprefix("sudo ").lstrip()
                if _DOCKER_BUILD.match(command) is None:
                    continue
                words = command_words([(line, command)], _DOCKER_BUILD)
                if words is not None:
                    yield from _file_context(read_words(words, _BUILD), line, readme, directory)


_INSTALLER = re.compile(r"pip|apt|conda|mamba")
"""A text that may hold a package installer command (`installer_options` reads it)."""


def _installer_options(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """Each package installer command of a command block or a code span of prose (`pip install
    ---no-cache-dir`, `apt-get install -y --no-install-recomends`) given an option its program refuses
    (`installer_options.refused_option`): it stops before it installs anything. `certain`, or `likely` for
    a slip from a known option (a newer release may have one of that name)."""
    commands = [command for fence in doc.fences for command in fence_commands(fence)]
    commands += [
        [(line, content.strip())]
        for para in doc.paragraphs
        for line, text in para.lines
        if _INSTALLER.search(text)
        for _, _, content in code_spans(text)
    ]
    for command in commands:
        text = joined([(line, without_prompt(part)) for line, part in command])
        if _INSTALLER.search(text) is None:
            continue
        try:
            found = refused_option(sh_tokens(text))
        except ValueError:
            continue
        if found is None:
            continue
        line = next((n for n, part in command if found.word in part), command[0][0])
        said = (
            f"README's {found.program} passes {found.word}, an option {found.tool} does not take "
            f'({found.why}): it stops with "{found.said}", so the command cannot run'
        )
        yield Diagnostic(readme, line, said, confidence=CERTAIN if found.certain else LIKELY)


_FILE_NAME = re.compile(r"(?:Dockerfile|Containerfile|[^/]*\.(?:Dockerfile|dockerfile|Containerfile))\Z")
"""The last part of a path that names a Dockerfile (`Dockerfile`, `gpu.Dockerfile`, `Containerfile`)."""


def file_context(context: str, directory: Path | None = None) -> bool:
    """Whether the build context `context` of a `docker build` names a file, not a folder: its last part
    is a Dockerfile's name (`/path/to/Dockerfile`, `docker/app.Dockerfile`), or it is a file beside the
    README (`directory`). Not a URL (`https://…`, `git@…`), standard input (`-`), a path ending in `/`,
    or a folder of that name beside the README (`dockerfile/`)."""
    if (
        not context
        or context == "-"
        or "://" in context
        or context.startswith("git@")
        or context.endswith("/")
    ):
        return False
    if directory is not None and not context.startswith(("~", "$", "/")):
        place = directory / context
        if os.path.isdir(place):
            return False
        if os.path.isfile(place):
            return True
    return _FILE_NAME.search(context.rsplit("/", 1)[-1]) is not None


_CREATES_FOLDERS = re.compile(
    r"(?:^|[\s;&|(])(?:cd|pushd|git[ \t]+clone|mkdir|wget|curl|unzip|tar|cp|mv|ln)\b"
)
"""A command of a block that may make or enter a folder before a build, whose context is then read from
there (`git clone … app`, `cd app`, `mkdir ctx`)."""
_DOT_SLIP = re.compile(r"\.{1,2}[A-Za-z,;]{1,2}")
"""A context that is `.` with a key struck beside it (`.h`, `.,`, `..h`), not a synopsis's `...`: no
folder the README means by name; a name of its own (`./cuda-app`) may be the reader's own project, not
read."""
_WALK_CAP = 20000
"""The most folders read for the names a project's folders have (cost bounded on a large tree)."""


def _folder_names(top: Path) -> frozenset[str]:
    """The names of the folders under `top` (`.git` left out, links not followed), at most `_WALK_CAP`."""
    names: set[str] = set()
    for count, (_, subs, _) in enumerate(os.walk(top)):
        if count >= _WALK_CAP:
            break
        subs[:] = [d for d in subs if d != ".git"]
        names.update(subs)
    return frozenset(names)


def missing_context(context: str, directory: Path | None, project: Path | None = None) -> bool:
    """Whether the build context `context`, a relative path written out, is no folder beside the README
    (`directory`), above it, or by its last name anywhere in `project`, when it is either `.` with a key
    struck beside it (`.h`) or a path into a folder of the project that is there (`docker/gpu` with
    `docker/` but no `gpu/`): the build cannot find it. False for a URL, `-`, a variable, a placeholder
    (`PATH`, `<dir>`), an absolute or home path, a file (left to `file_context`) and a folder of a name
    of its own (`./my-app`: the reader's own project)."""
    if directory is None or not context or context in (".", "./", "-"):
        return False
    if not _PLAIN_WORD.fullmatch(context) or "://" in context or context.startswith(("git@", "/", "~")):
        return False
    if context.isupper() or context.startswith("-"):
        return False
    bare = context.rstrip("/")
    for folder in (directory, *directory.parents):
        if os.path.lexists(os.path.join(folder, bare)):
            return False
        if project is not None and folder == project:
            break
    name = bare.rsplit("/", 1)[-1]
    if name in (".", "..") or name in _folder_names(project or directory):
        return False
    parts = [p for p in bare.split("/") if p != "."]
    if not parts or parts[0] == "..":
        return False
    if len(parts) == 1:  # a name of its own (`./cuda-app`: the reader's app) only when a slip of `.`
        return _DOT_SLIP.fullmatch(parts[0]) is not None
    return os.path.isdir(directory / parts[0]) or project is not None and os.path.isdir(project / parts[0])


def _missing_context(
    read: Read, line: int, readme: str, directory: Path | None, project: Path | None
) -> Iterator[Diagnostic]:
    """A `docker build` whose one context (`read`) is a path that does not exist (`missing_context`):
    docker answers "unable to prepare context: path not found", `certain`. Not when its `-f` is a path
    into that context: the Dockerfile gone with its folder is the finding (`references.dead_references`)."""
    if read.complete and not read.help and len(read.positional) == 1:
        context = read.positional[0]
        inside = context.rstrip("/") + "/"
        if any(o in ("-f", "--file") and v.removeprefix("./").startswith(inside) for o, v in read.values):
            return
        if missing_context(context, directory, project):
            said = (
                f"README's docker build gives {context} as its build context, which does not exist: docker "
                "cannot find the context (path not found), so the build cannot run"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _file_context(read: Read, line: int, readme: str, directory: Path | None) -> Iterator[Diagnostic]:
    """A `docker build` whose one context is a file (`file_context`): docker refuses it ("unable to
    prepare context: context must be a directory"), `certain`."""
    if (
        read.complete
        and not read.help
        and len(read.positional) == 1
        and file_context(read.positional[0], directory)
    ):
        said = (
            f"README's docker build gives the file {read.positional[0]} as its build context: docker "
            "build takes a folder (or a URL, or -), so it cannot run (name the Dockerfile with -f and give "
            "its folder)"
        )
        yield Diagnostic(readme, line, said, confidence=CERTAIN)


_PLAIN_WORD = re.compile(r"[\w./:@-]+")
"""A positional word written out: no variable, placeholder (`<tag>`, `[PATH]`, `PATH`) or elision."""


def _two_contexts(read: Read, line: int, readme: str) -> Iterator[Diagnostic]:
    """A `docker build` given more than one positional word (`docker build app:v1 ./`, no `-t`): docker
    build takes exactly one, the context, and refuses the command ("docker build requires exactly 1
    argument"), `certain`. Read only when every option is known and every word is written out (a
    variable may expand to options; `PATH`, `<tag>` and `...` are a synopsis)."""
    words = read.positional
    if not read.complete or read.help or len(words) < 2:
        return
    if any(not _PLAIN_WORD.fullmatch(w) or w.isupper() or "..." in w for w in words):
        return
    said = (
        f"README's docker build passes {len(words)} positional words ({', '.join(words)}): docker build "
        "takes exactly one, the build context, so it cannot run"
    )
    if ":" in words[0] and not words[0].startswith((".", "/")):
        said += f" (did you mean -t {words[0]}?)"
    yield Diagnostic(readme, line, said, confidence=CERTAIN)


_RUN_ONLY = frozenset(
    (RUN.values | RUN.flags) - _BUILD.values - _BUILD.flags - {"--device", "--help", "--pull"}
)
"""The options of `docker run` that `docker build` lacks (`-e`, `--env`, `-v`, `--gpus`): given to a
build, it refuses them. `--device` is left out: buildx may grow it for builds."""
_ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)")


def _not_build_options(
    read: Read, words: list[str], line: int, readme: str, args: Mapping[str, tuple[str, int]]
) -> Iterator[Diagnostic]:
    """A short option `docker build` does not have (`-e`, `-v`: its short options are few and fixed),
    and a long one only `docker run` has (`--env`, `--gpus`), passed to a `docker build` (`certain`).
    When its value sets a build arg (`-e SM=sm_89`, `ARG SM`), the finding says to pass it with
    `--build-arg`."""
    told = {name for name in read.unknown if difflib.get_close_matches(name, _BUILD_LONG, n=1, cutoff=_SLIP)}
    passed = list(read.short)
    for name in read.unknown:
        if name in _RUN_ONLY and name not in told:
            at = next((i for i, w in enumerate(words) if w.partition("=")[0] == name), len(words))
            given = words[at].partition("=")
            passed.append((name, given[2] if given[1] else words[at + 1] if at + 1 < len(words) else ""))
    for option, value in passed:
        said = f"README passes {option} to docker build, which has no such option"
        if option in _RUN_ONLY:
            said += " (it is docker run's)"
        assigned = _ASSIGNED.fullmatch(value.strip("\"'"))
        if assigned is not None and assigned.group(1) in args:
            path, at = args[assigned.group(1)]
            said += (
                f": {assigned.group(1)} is a build arg ({path}:{at}), did you mean --build-arg "
                f"{assigned.group(0)}?"
            )
        else:
            said += ": docker refuses the build"
        yield Diagnostic(readme, line, said, confidence=CERTAIN)
    for name in read.unknown:
        if _ARG_SHAPED.fullmatch(name) and name not in told:
            yield _arg_as_option(name, words, line, readme, args)


_ARG_SHAPED = re.compile(r"--[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
"""A long option spelt like a build arg (`--PYTORCH_IMG`, `--CUDA_VERSION`): no docker option is upper
case, so it is a build arg passed without `--build-arg`."""


def _arg_as_option(
    option: str, words: list[str], line: int, readme: str, args: Mapping[str, tuple[str, int]]
) -> Diagnostic:
    """A build arg passed to `docker build` as an option of its own (`--PYTORCH_IMG=22.05-py3`): docker
    refuses it (`certain`); the finding says whether an audited Dockerfile declares the arg, since
    `--build-arg` would change nothing where none does."""
    at = next((i for i, w in enumerate(words) if w.partition("=")[0] == option), len(words))
    given = words[at].partition("=") if at < len(words) else ("", "", "")
    value = given[2] if given[1] else words[at + 1] if at + 1 < len(words) else ""
    name = option[2:]
    setting = f"{name}={value}" if value and not value.startswith("-") else name
    said = f"README passes {option} to docker build, which has no such option: docker refuses the build"
    if name in args:
        path, declared = args[name]
        said += f"; {name} is a build arg ({path}:{declared}), did you mean --build-arg {setting}?"
    else:
        paths = sorted({path for path, _ in args.values()})
        none = f"{paths[0]} does not declare" if len(paths) == 1 else f"none of {', '.join(paths)} declares"
        said += (
            f"; it reads as build arg {name}, which {none if paths else 'no Dockerfile declares'} either, "
            f"so --build-arg {setting} would change nothing"
        )
    return Diagnostic(readme, line, said, confidence=CERTAIN)


_COMMANDS = re.compile(
    "|".join(
        p.pattern
        for p in (_DOCKER_BUILD, _PODMAN_BUILD_COMMAND, _CONTAINER_RUN, _DOCKER_EXEC, DOCKER_COMPOSE)
    )
)
_PODMAN_RUN = options_grammar(
    "--arch --authfile --cert-dir --cgroup-conf --cgroups --chrootdirs --conmon-pidfile --creds "
    "--decryption-key --env-merge --gidmap --gpus --group-entry --health-log-destination "
    "--health-max-log-count --health-max-log-size --health-on-failure --health-startup-cmd "
    "--health-startup-interval --health-startup-retries --health-startup-success --health-startup-timeout "
    "--hostuser --http-proxy --image-volume --init-ctr --init-path --log-level --network-alias --os "
    "--passwd-entry --personality --pod --pod-id-file --preserve-fd --preserve-fds --rdt-class --requires "
    "--retry --retry-delay --sdnotify --seccomp-policy --secret --subgidname --subuidname --timeout "
    "--tls-verify --uidmap --umask --unsetenv --variant --mac-address",
    "--env-host --no-hosts --passwd --read-only-tmpfs --replace --rootfs --rmi --unsetenv-all",
    interspersed=False,
)
"""The options podman-run(1) has that docker run's table lacks: with `RUN`, what podman run takes."""
_ENV_OPTIONS = frozenset({"-e", "--env"})


def _split_env(
    words: list[str], grammar: _Grammar, command: str, lines: list[tuple[int, str]], readme: str
) -> Iterator[Diagnostic]:
    """A word of a `docker run`/`create` (`words`: after the verb), before the image, that follows an
    unquoted `-e NAME=value` whose value starts with `-` and is itself an option the command does not
    have (`-e EXTRA_ARGS=--lowvram --disable-xformers`): the shell splits the value at the blank, so the
    command reads that word as its own option, which it does not know, and refuses to run (`certain`).
    A word that is a slip from a known option is left to `_slips`."""
    read = read_words(words, grammar)
    mine = words[: read.after - 1] if read.positional else words
    known = sorted(o for o in grammar.values | grammar.flags if o.startswith("--"))
    at = 0
    while at < len(mine):
        word = mine[at]
        name, eq, value = word.partition("=")
        at += 1
        if name not in _ENV_OPTIONS:
            continue
        if not eq:
            value = mine[at] if at < len(mine) else ""
            at += 1
        assigned = _ASSIGNED.fullmatch(value)
        if assigned is None or not assigned.group(2).startswith("-") or at >= len(mine):
            continue
        after = mine[at]
        option = after.partition("=")[0] if after.startswith("--") else after[:2]
        if not after.startswith("-") or after == "-" or option in grammar.values or option in grammar.flags:
            continue
        if after.startswith("--") and difflib.get_close_matches(option, known, n=1, cutoff=_SLIP):
            continue
        line = next((n for n, text in lines if assigned.group(0) in text), lines[0][0])
        said = (
            f"README's {command} passes {name} {value} {after}: the value is not quoted, so {command} reads "
            f"{after} as an option of its own, which it does not have, and refuses to run (quote the "
            f'value: {name} "{assigned.group(1)}={assigned.group(2)} {after}")'
        )
        yield Diagnostic(readme, line, said, confidence=CERTAIN)


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DOCKER_OPTION_AFTER = frozenset(o for o in RUN.values | RUN.flags if o.startswith("--")) | {"-e", "-v"}
"""The options after a run's image that are docker's own, not its program's (`--gpus`, `-e`, `-v`): a
program takes few long options of docker run's names and `-e` / `-v` with an env var or mount after."""


def env_takes_image(read: Read, after: Sequence[str]) -> bool:
    """Whether the last option of a `docker run` before its image (`read`) is an `-e NAME` with no value,
    and the words after the image (`after`) go on with docker's own options: the README means `-e NAME
    value` and the image later (`_env_image`), not options after its image."""
    if not read.values or not after:
        return False
    option, name = read.values[-1]
    return (
        option in _ENV_OPTIONS
        and _ENV_NAME.fullmatch(name) is not None
        and after[0].partition("=")[0] in _DOCKER_OPTION_AFTER
    )


def _env_image(
    words: list[str], read: Read, lines: list[tuple[int, str]], readme: str
) -> Iterator[Diagnostic]:
    """A `docker run` (`words`: after `run`, read as `read`) that passes `-e NAME value` or `--env NAME
    value` with a blank for the `=`, when the run's image comes later: `-e NAME` alone passes the host's
    variable through, so docker takes `value` as the image and the image written later as the command it
    runs (`certain`). The image comes later when the words after `value` go on with docker's own options
    (`-e OTHER=1`, `--gpus all`, `-v a:/b`). Not read: `-e NAME` before another option (a pass-through),
    or with nothing after its value (`docker run -e DISPLAY app`)."""
    if not read.complete or read.help or not read.positional or read.after < 3:
        return
    option, name, value = words[read.after - 3 : read.after]
    rest = words[read.after :]
    if option not in _ENV_OPTIONS or not _ENV_NAME.fullmatch(name) or not rest:
        return
    if rest[0].partition("=")[0] not in _DOCKER_OPTION_AFTER or not IMAGE_WORD.fullmatch(value):
        return
    line = next(
        (n for n, text in lines if re.search(rf"{re.escape(name)}\s+{re.escape(value)}", text)), lines[0][0]
    )
    said = (
        f"README's docker run passes {option} {name} {value} with a blank for the `=`: {option} {name} "
        f"passes the host's {name} through, so docker takes {value} as the image and runs it, and the "
        f"options after it ({rest[0]} …) as its command (write {option} {name}={value})"
    )
    yield Diagnostic(readme, line, said, confidence=CERTAIN)


_INTERPRETER = re.compile(r"(?:/usr(?:/local)?/bin/|/bin/)?(?:python[\d.]*|bash|sh|node|perl|ruby)")
"""A program whose own `-m` / `-c` is what a README means after `--entrypoint` (`python -m pkg`, `sh -c`)."""
_TAKEN_AS = {
    "-m": ("--memory", re.compile(r"\d+(?:\.\d+)?[bkmgBKMG]?")),
    "-c": ("--cpu-shares", re.compile(r"\d+")),
}
"""docker run's own short options of those letters, and the values docker takes for them."""


def _split_entrypoint(words: list[str], line: int, readme: str) -> Iterator[Diagnostic]:
    """A `docker run --entrypoint` (of `words`, docker's own: those before the image) given more than one
    word: one value with a space (`--entrypoint
    "python -m app"`: docker looks for a program of that whole name), or an interpreter followed by its
    own `-m` / `-c` (`--entrypoint python -m app.server`: docker reads `-m app.server` as its `--memory`,
    which refuses a value of that shape). `certain`: docker refuses it or finds no such program."""
    for at, word in enumerate(words):
        name, eq, value = word.partition("=")
        if name != "--entrypoint":
            continue
        if not eq:
            value = words[at + 1] if at + 1 < len(words) else ""
        rest = words[at + (1 if eq else 2) :]
        if " " in value.strip():
            said = (
                f'README\'s docker run gives --entrypoint "{value.strip()}": --entrypoint takes one '
                f'program, so docker looks for a program named "{value.strip()}" and cannot start it '
                "(give the program's arguments after the image)"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
        elif _INTERPRETER.fullmatch(value) and len(rest) >= 2 and rest[0] in _TAKEN_AS:
            option, shape = _TAKEN_AS[rest[0]]
            if not shape.fullmatch(rest[1]):
                said = (
                    f"README's docker run gives --entrypoint {value} {rest[0]} {rest[1]}: --entrypoint takes "
                    f"one word, so docker reads {rest[0]} {rest[1]} as its own {option} and refuses it (give "
                    "the program's arguments after the image)"
                )
                yield Diagnostic(readme, line, said, confidence=CERTAIN)
        return


_SHORT_LETTER = re.compile(r"-[A-Za-z]")


def run_command(words: list[str]) -> tuple[str, list[str], list[tuple[str, str]]] | None:
    """The image, the words after it (the container's command) and docker's own options with a value of
    a `docker run` whose words after `run` are `words`; None when an option is unknown (the image is not
    known then) or it asks for help."""
    read = read_words(words, RUN)
    if not read.complete or read.help or not read.positional:
        return None
    return read.positional[0], words[read.after :], read.values


def _not_run_options(read: Read, line: int, readme: str) -> Iterator[Diagnostic]:
    """A short option `docker run` does not have (`-b ./audio:/data`: its short options are few and
    fixed, `-a -c -d -e -h -i -l -m -p -P -q -t -u -v -w`), before the image: docker refuses the command
    ("unknown shorthand flag"), so it cannot run (`certain`). Only a letter is read (`-<flag>` is a
    placeholder), once a command; `--help` asks for help, not a run."""
    if read.help:
        return
    for option, _ in read.short:
        if _SHORT_LETTER.fullmatch(option):
            said = (
                f"README passes {option} to docker run, which has no such option: docker refuses the "
                f"command (unknown shorthand flag: '{option[1]}')"
            )
            if option == "-b" or option == "-V":
                said += " (a bind mount is -v or --mount)"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
            return


def _project_options_after(read: Read, command: str, line: int, readme: str) -> Iterator[Diagnostic]:
    """Each option of compose itself (`_PROJECT_OPTIONS`) a compose command of a known grammar is given
    after its command word, when the command has no option of that name (`docker compose up --profile
    llama`, `docker-compose up -f gpu.yml`): compose refuses the command ("unknown flag: --profile"), so it
    cannot run (`certain`). Not read: an option the command has too (`build --progress`, `logs -f`,
    `run -p`), one before the command (`docker compose -f x.yml --profile gpu up -d`)."""
    own = _COMPOSE_COMMANDS[command.rsplit(" ", 1)[-1]]
    seen: set[str] = set()
    for name, value in read.values:
        if name not in _PROJECT_OPTIONS or name in own.values or name in own.flags or name in seen:
            continue
        seen.add(name)
        base, _, verb = command.rpartition(" ")
        said = (
            f"README passes {name} {value} after {verb} in {command}, but {name} is an option of {base} "
            f"itself, not of its {verb} command: compose refuses it there (unknown flag), so the command "
            f"cannot run (put it before {verb}: {base} {name} {value} {verb})"
        )
        yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _bundle(word: str, following: str, grammar: _Grammar) -> tuple[list[str], str | None, bool]:
    """How a command of `grammar` reads `word` (one dash and letters) as a bundle of short options: each
    option with its value (`-env=X`: `["-e nv=X"]`), the letter it refuses (`-name`: `n`; None when it
    takes them all), and whether a value option last in the bundle takes the next word (`following`)."""
    parts: list[str] = []
    for index, char in enumerate(word[1:], start=1):
        option = "-" + char
        if option in grammar.values:
            last = index == len(word) - 1
            parts.append(f"{option} {following if last else word[index + 1 :]}")
            return parts, None, last
        if option not in grammar.flags:
            return parts, char, False
        parts.append(option)
    return parts, None, False


def _one_dash(
    words: list[str], grammar: _Grammar, command: str, line: int, readme: str
) -> Iterator[Diagnostic]:
    """The first of a command's own words (`words`: after its verb) that is one of its long options
    written with one dash (`-env="DISPLAY"`, `-name web`, `-rm`): the Docker CLI reads one dash and
    letters as a bundle of short options, so it refuses the command (`-name`: unknown shorthand flag
    'n') or reads something else (`-env=X` is `-e nv=X`: a variable `nv`). `certain`. A bundle of two
    letters that it takes (`-ip 8080:80`: `-i -p 8080:80`) is left alone: it may be meant."""
    longs = {o[2:] for o in grammar.values | grammar.flags if o.startswith("--")}
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            return
        if word.startswith("--"):
            name, eq, _ = word.partition("=")
            at += 1 if name in grammar.values and not eq else 0
            continue
        if not word.startswith("-") or word == "-":
            if not grammar.interspersed:
                return
            continue
        letters = word[1:].partition("=")[0]
        parts, refused, takes_next = _bundle(word, words[at] if at < len(words) else "", grammar)
        if letters in longs and (len(letters) >= 3 or refused is not None):
            if refused is not None:
                said = (
                    f"README passes {word} to {command}: a long option takes two dashes, and with one "
                    f"{command} reads it as short options and refuses the command (unknown shorthand flag: "
                    f"'{refused}' in {word}), so it cannot run (did you mean -{word}?)"
                )
            else:
                said = (
                    f"README passes {word} to {command}: a long option takes two dashes, and with one "
                    f"{command} reads it as short options ({' '.join(parts)}), not as --{letters} (did you "
                    f"mean -{word}?)"
                )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
            return
        at += 1 if takes_next else 0


_SET_AT_MAKING = "is set when the container is made"


def _options_named(names: list[str]) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _exec_options(
    words: list[str], grammar: _Grammar, command: str, line: int, readme: str
) -> Iterator[Diagnostic]:
    """A `docker exec` (or `docker compose exec`, `command`; `words` after its verb, read by `grammar`)
    given an option it lacks that `docker run` (or the other exec) has, before its container (`docker
    exec --gpus all app bash`: "unknown flag"), or options of docker's after its container (`docker exec
    -it app --runtime=nvidia --gpus all bash`): exec runs the words after the container as its command,
    and no container has a program named `--runtime=nvidia`. `certain` both. An option no table has is
    left alone (a newer one: the container is then not known)."""
    compose = command != "docker exec"
    what = "service" if compose else "container"
    other = _COMPOSE_COMMANDS["exec"] if not compose else EXEC
    other_name = "docker exec" if compose else "docker compose exec"
    read = read_words(words, grammar)
    if read.help:
        return
    if not read.complete:
        for name in read.unknown:
            if name in RUN.values | RUN.flags:
                said = (
                    f"README passes {name} to {command}, which has no such option: {command} refuses the "
                    f"command (unknown flag: {name}), so it cannot run ({name} is docker run's: it "
                    f"{_SET_AT_MAKING})"
                )
                yield Diagnostic(readme, line, said, confidence=CERTAIN)
                return
        for option, _ in read.short:
            if not _SHORT_LETTER.fullmatch(option):
                continue
            owner = other_name if option in other.values | other.flags else "docker run"
            if owner == "docker run" and option not in RUN.values | RUN.flags:
                continue
            shorts = (w for w in words if w.startswith("-") and not w.startswith("--") and option[1] in w)
            bundle = next(shorts, option)
            said = (
                f"README passes {option} to {command}, which has no such option: {command} refuses the "
                f"command (unknown shorthand flag: '{option[1]}' in {bundle}), so it cannot run ({option} "
                f"is {owner}'s)"
            )
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
            return
        return
    if not read.positional:
        return
    container, after = read.positional[0], words[read.after :]
    docker = grammar | RUN
    shown: list[str] = []
    names: list[str] = []
    at = 0
    while at < len(after):
        word = after[at]
        name = word.partition("=")[0] if word.startswith("--") else word[:2]
        if not word.startswith("-") or word in ("-", "--") or name not in docker.values | docker.flags:
            break
        names.append(name)
        shown.append(word)
        at += 1
        if name in docker.values and "=" not in word and len(word) == len(name) and at < len(after):
            shown.append(after[at])
            at += 1
    if not names:
        return
    own = [n for n in dict.fromkeys(names) if n in grammar.values | grammar.flags]
    run_only = [n for n in dict.fromkeys(names) if n not in own]
    tails = []
    if run_only:
        are = "is an option" if len(run_only) == 1 else "are options"
        they = "it" if len(run_only) == 1 else "they"
        made = _SET_AT_MAKING if len(run_only) == 1 else _SET_AT_MAKING.replace("is", "are", 1)
        tails.append(f"{_options_named(run_only)} {are} of docker run, not of {command}: {they} {made}")
    if own:
        are = "is an option" if len(own) == 1 else "are options"
        it = "it" if len(own) == 1 else "them"
        tails.append(f"{_options_named(own)} {are} of {command}: put {it} before the {what}")
    said = (
        f"README's {command} gives {' '.join(shown)} after the {what} {container}: {command} runs the words "
        f"after the {what} as its command, so it runs a program named {after[0]}, which the container does "
        f"not have (executable file not found), and the command cannot run; {'; '.join(tails)}"
    )
    yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _check(
    lines: list[tuple[int, str]],
    readme: str,
    args: Mapping[str, tuple[str, int]],
    directory: Path | None,
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """The findings on one command of a block (`lines`); a build's context is looked for when `project`
    is given (its block makes or enters no folder first)."""
    line = lines[0][0]
    if (words := command_words(lines, _DOCKER_BUILD)) is not None:
        if dashed := list(_one_dash(words, _BUILD, "docker build", line, readme)):
            yield from dashed
            return  # (docker reads the rest otherwise than it is written)
        read = read_words(words, _BUILD)
        yield from _slips(read, _BUILD, "docker build", line, readme)
        yield from _not_build_options(read, words, line, readme, args)
        if read.complete and not read.positional and words and not read.help:
            said = "README's docker build names no build context (a folder, a URL or -): it cannot run"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
        yield from _file_context(read, line, readme, directory)
        if project is not None:
            yield from _missing_context(read, line, readme, directory, project)
        yield from _two_contexts(read, line, readme)
    elif (words := command_words(lines, _PODMAN_BUILD_COMMAND)) is not None:
        yield from _slips(read_words(words, _PODMAN_BUILD), _PODMAN_BUILD, "podman build", line, readme)
    elif (words := command_words(lines, _DOCKER_RUN)) is not None:
        if dashed := list(_one_dash(words, RUN, "docker run", line, readme)):
            yield from dashed
            return  # (docker reads the rest otherwise than it is written)
        yield from _split_env(words, RUN, "docker run", lines, readme)
        read = read_words(words, RUN)
        yield from _env_image(words, read, lines, readme)
        yield from _slips(read, RUN, "docker run", line, readme)
        yield from _not_run_options(read, line, readme)
        yield from _split_entrypoint(words[: read.after] if read.positional else words, line, readme)
    elif (words := command_words(lines, _DOCKER_EXEC)) is not None:
        dashed = list(_one_dash(words, EXEC, "docker exec", line, readme))
        yield from dashed
        if not dashed:
            yield from _slips(read_words(words, EXEC), EXEC, "docker exec", line, readme)
            yield from _exec_options(words, EXEC, "docker exec", line, readme)
    elif (words := command_words(lines, _CONTAINER_RUN)) is not None:
        match = _CONTAINER_RUN.search(" ".join(text for _, text in lines))
        command = " ".join(match.group(0).split()) if match else "docker run"
        grammar = RUN | _PODMAN_RUN if command.startswith("podman") else RUN
        yield from _split_env(words, grammar, command, lines, readme)
    elif (words := command_words(lines, DOCKER_COMPOSE)) is not None:
        call = read_compose(words)
        yield from _slips(call.top, _COMPOSE, "docker compose", line, readme)
        if call.top.complete and call.options is not None and call.verb in _CHECKED:
            grammar = _COMPOSE_COMMANDS[call.verb] | _COMPOSE
            yield from _slips(call.options, grammar, f"docker compose {call.verb}", line, readme)
            if call.verb == "exec":
                yield from _exec_options(list(call.rest), grammar, "docker compose exec", line, readme)
        if call.top.complete and call.options is not None and call.verb is not None:
            match = DOCKER_COMPOSE.search(" ".join(text for _, text in lines))
            command = " ".join(match.group(0).split()) if match else "docker compose"
            yield from _project_options_after(call.options, f"{command} {call.verb}", line, readme)
