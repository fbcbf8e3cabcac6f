"""Commands of a README that cannot run as written, judged by the command's own grammar: a `docker build`
(`docker buildx build`, `docker image build`) with no build context (`docker build -t app -f Dockerfile`,
no `.`), and an option `docker build`, `docker run` or `docker compose` (`up`, `build`, `run`, `exec`)
does not have, a slip away from one it has (`--build-args` for `--build-arg`).

The options are those of the Docker CLI reference (docs.docker.com/reference/cli/docker/buildx/build/,
…/docker/container/run/, …/docker/compose/ and its `up`, `build`, `run`, `exec` pages), the legacy
builder's and `docker-compose` v1's too, and for `podman build` those of podman-build(1) on top. `podman
build` and `buildah bud` take the current folder when no context is given, so they are not read for one.
An option the table lacks is reported only when it is a slip from one it has: an option newer than the
table is silent, and one only a plugin has cannot be met (only these commands are read).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen.audit.auditor import CERTAIN
from docgen.audit.commands import _build_commands, _command_words
from docgen.markdown import Document
from docgen.model import Diagnostic


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
        return _Grammar(self.values | other.values, self.flags | other.flags, self.interspersed)


def _grammar(values: str, flags: str, interspersed: bool = True) -> _Grammar:
    return _Grammar(frozenset(values.split()), frozenset(flags.split()), interspersed)


# The tables, from the reference pages named in the module docstring.
_BUILD = _grammar(
    "--add-host --allow --annotation --attest --build-arg --build-context --builder --cache-from --cache-to "
    "--call --cgroup-parent -f --file --iidfile --label --metadata-file --network --no-cache-filter -o "
    "--output --platform --progress --provenance --sbom --secret --shm-size --ssh -t --tag --target "
    "--ulimit -c --cpu-shares --cpu-period --cpu-quota --cpuset-cpus --cpuset-mems --isolation -m --memory "
    "--memory-swap --security-opt --policy",
    "--check --detach --load --no-cache --pull --push -q --quiet -D --debug --help --rm --force-rm --print "
    "--squash --compress --stream --disable-content-trust",
)
_PODMAN_BUILD = _BUILD | _grammar(
    "--arch --authfile --cap-add --cap-drop --cert-dir --cgroupns --creds --decryption-key --device --dns "
    "--dns-option --dns-search --env --format --from --group-add --hooks-dir --ignorefile --ipc --jobs "
    "--logfile --manifest --os --os-feature --os-version --pid --retry --retry-delay --runtime "
    "--runtime-flag --sign-by --signature-policy --source-date-epoch --timestamp --unsetenv --unsetlabel "
    "--userns --userns-gid-map --userns-gid-map-group --userns-uid-map --userns-uid-map-user --uts "
    "--variant -v --volume --tls-verify --layers --http-proxy --identity-label --inherit-labels",
    "--all-platforms --compat-volumes --disable-compression --no-hosts --omit-history --rewrite-timestamp "
    "--skip-unused-stages --squash-all --stdin --logsplit",
)
_RUN = _grammar(
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
_COMPOSE = _grammar(
    "-f --file -p --project-name --profile --env-file --project-directory --ansi --progress --parallel "
    "--log-level -H --host -c --context --tlscacert --tlscert --tlskey",
    "--compatibility --dry-run --all-resources --verbose --no-ansi --tls --tlsverify --skip-hostname-check "
    "--help -v --version",
    interspersed=False,
)
_COMPOSE_COMMANDS = {
    "up": _grammar(
        "--attach --exit-code-from --no-attach --pull --scale -t --timeout --wait-timeout",
        "--abort-on-container-exit --abort-on-container-failure --always-recreate-deps --attach-dependencies "
        "--build -d --detach --force-recreate --menu --no-build --no-color --no-deps --no-log-prefix "
        "--no-recreate --no-start --quiet-build --quiet-pull --remove-orphans -V --renew-anon-volumes "
        "--timestamps --wait -w --watch -y --yes",
    ),
    "build": _grammar(
        "--build-arg --builder -m --memory --provenance --sbom --ssh --progress",
        "--check --no-cache --print --pull --push -q --quiet --with-dependencies --compress --force-rm "
        "--no-rm",
    ),
    "run": _grammar(
        "--cap-add --cap-drop --entrypoint -e --env --env-from-file -l --label --name -p --publish --pull -u "
        "--user -v --volume -w --workdir",
        "--build -d --detach -i --interactive -T --no-TTY --no-deps -q --quiet --quiet-build --quiet-pull "
        "--remove-orphans --rm -P --service-ports --use-aliases -t --tty",
        interspersed=False,
    ),
    "exec": _grammar(
        "-e --env --index -u --user -w --workdir",
        "-d --detach -T --no-TTY --privileged -i --interactive -t --tty",
        interspersed=False,
    ),
}
"""The `docker compose` commands whose options are read (the global ones are theirs too)."""

_DOCKER_BUILD = re.compile(r"\bdocker[ \t]+(?:buildx[ \t]+|image[ \t]+)?build(?=[ \t]|$)")
_PODMAN_BUILD_COMMAND = re.compile(r"\bpodman[ \t]+(?:image[ \t]+)?build(?=[ \t]|$)")
_DOCKER_RUN = re.compile(r"\bdocker[ \t]+(?:container[ \t]+)?run(?=[ \t]|$)")
_DOCKER_COMPOSE = re.compile(r"\bdocker(?:[ \t]+compose|-compose)(?=[ \t]|$)")
_SLIP = 0.85
"""How close an option the command lacks must be to one it has to be a slip (`--build-args`)."""


@dataclass
class _Read:
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


def _read(words: list[str], grammar: _Grammar) -> _Read:
    """The positional words and the unknown long options of `words`, by `grammar` (`--` ends options;
    a short option may hold its value, `-tname`, or be bundled, `-it`)."""
    read = _Read([], [])
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            read.positional.extend(words[at:])
            break
        if word.startswith("--"):
            name, eq, _ = word.partition("=")
            read.help = read.help or name == "--help"
            if name in grammar.values and not eq:
                at += 1
            elif name not in grammar.values and name not in grammar.flags:
                read.unknown.append(name)
                read.complete = False
            continue
        if word.startswith("-") and word != "-":
            for index, char in enumerate(word[1:], start=1):
                option = "-" + char
                read.help = read.help or option == "-h" and grammar is not _RUN
                if option in grammar.values:
                    at += 0 if index < len(word) - 1 else 1
                    break
                if option not in grammar.flags:
                    read.complete = False
                    break
            continue
        read.positional.append(word)
        if not grammar.interspersed:
            read.after = at
            break
    return read


def _slips(read: _Read, grammar: _Grammar, command: str, line: int, readme: str) -> Iterator[Diagnostic]:
    """An unknown long option a slip away from one `grammar` has: `certain`."""
    known = sorted(o for o in grammar.values | grammar.flags if o.startswith("--"))
    for name in read.unknown:
        close = difflib.get_close_matches(name, known, n=1, cutoff=_SLIP)
        if close:
            said = f"README passes {name} to {command}, which has no such option (did you mean {close[0]}?)"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)


def _command_grammar(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """Each `docker build` / `buildx build` of a command block that names no build context (`certain`),
    and an option of a `docker build`, `podman build`, `docker run` or `docker compose` command that
    the command lacks, a slip from one it has (`certain`)."""
    for fence in doc.fences:
        for lines in _build_commands(fence, _COMMANDS):
            yield from _check(lines, readme)


_COMMANDS = re.compile(
    "|".join(p.pattern for p in (_DOCKER_BUILD, _PODMAN_BUILD_COMMAND, _DOCKER_RUN, _DOCKER_COMPOSE))
)


def _check(lines: list[tuple[int, str]], readme: str) -> Iterator[Diagnostic]:
    line = lines[0][0]
    if (words := _command_words(lines, _DOCKER_BUILD)) is not None:
        read = _read(words, _BUILD)
        yield from _slips(read, _BUILD, "docker build", line, readme)
        if read.complete and not read.positional and words and not read.help:
            said = "README's docker build names no build context (a folder, a URL or -): it cannot run"
            yield Diagnostic(readme, line, said, confidence=CERTAIN)
    elif (words := _command_words(lines, _PODMAN_BUILD_COMMAND)) is not None:
        yield from _slips(_read(words, _PODMAN_BUILD), _PODMAN_BUILD, "podman build", line, readme)
    elif (words := _command_words(lines, _DOCKER_RUN)) is not None:
        yield from _slips(_read(words, _RUN), _RUN, "docker run", line, readme)
    elif (words := _command_words(lines, _DOCKER_COMPOSE)) is not None:
        read = _read(words, _COMPOSE)
        yield from _slips(read, _COMPOSE, "docker compose", line, readme)
        verb = read.positional[0] if read.complete and read.positional else None
        if verb in _COMPOSE_COMMANDS:
            grammar = _COMPOSE_COMMANDS[verb] | _COMPOSE
            rest = words[read.after :]
            yield from _slips(_read(rest, grammar), grammar, f"docker compose {verb}", line, readme)
