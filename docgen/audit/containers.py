"""Containers a README's docker commands address by a name nothing gives them: `docker exec -it yolo_m
bash` when no `docker run --name yolo_m` of the README, no compose `container_name: yolo_m` and no file
of the repository (a script, a Makefile, a devcontainer) names a container so. Docker answers "No such
container", so the command fails as written.

A name is given by the README (`--name NAME`, `container_name: NAME`, wherever it is written: the name
written anywhere else in the README than in the commands that address it is taken as given), by a
compose file's `container_name:` or service, by Compose's own naming (`app-web-1`, `app_web_1`), or by any
text file of the repository that holds the name (its scripts, Makefiles, JSON). A compose file's
`name:` inside a service is no container name (Compose takes `container_name:`), so it gives none, and
the finding says so. A name a slip away from a compose file's `container_name:` is left to
`names` (a renamed container), and one named for a server the reader may run apart (`postgres`,
`redis`) is not read. Only a README that starts containers itself (`docker run`, `docker create`,
`docker compose up|run|create`) is read: one that does not addresses containers started elsewhere.

And the names a compose file's services and volumes have in it given to docker as the containers' and
volumes' own (`compose_names`): when the README brings the file up (`docker compose up`, in its commands
or in a file it sources or runs: an alias file, a script), Compose names a service's container
`<project>-<service>-1` (without `container_name:`) and a top-level volume `<project>_<volume>` (without
`name:`, not `external`). A plain `docker exec web`, `docker logs web`, `docker cp web:/x .`,
`docker run --volumes-from web` (or of `<project>_web`, a name without its replica number) finds no
such container, and `docker run -v cache:/data` makes a new, empty volume. Not read: compose's own
commands (`docker compose exec web`), Compose's own names (`app-web-1`), a name the README or a file of
the project gives itself (`--name web`, `container_name: web`, `docker volume create cache`), a `docker
run` of a service's own image (the README's way without compose), and a `docker compose up` that may
read other files (after a `cd` elsewhere, `--project-directory`, `COMPOSE_FILE=`, `include:`).
"""

from __future__ import annotations

import bisect
import dataclasses
import difflib
import os
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, also_at
from docgen.audit.commands import (
    MOVE,
    TAG_FLAG,
    cloned_folder,
    clones,
    fence_commands,
    image_repository,
    joined,
    moves,
    shell_steps,
    without_prompt,
)
from docgen.audit.docker_cli import LEAD, docker_commands, docker_verb, docker_words
from docgen.audit.grammar import RUN, read_compose, read_words
from docgen.audit.names import CLOSE, compose_file, run_image
from docgen.audit.paths import resolves_inside
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import BUILD, DOCKER_PODMAN, container_command
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import bytes_or_none, real_path, text_or_none
from docgen.markdown import Document, Fence, code_spans, plain
from docgen.model import Diagnostic
from docgen.script_env import logical_lines
from docgen.shell import sh_code, shell_split

_VERBS = {
    "exec": "-u --user -w --workdir -e --env --env-file --detach-keys",
    "logs": "-n --tail --since --until",
    "attach": "--detach-keys",
    "stop": "-t --time --timeout -s --signal",
    "restart": "-t --time --timeout -s --signal",
    "kill": "-s --signal",
    "start": "--detach-keys",
    "top": "",
}
"""The docker commands whose first operand is a container, each with its options that take a value."""
_VALUES = {verb: frozenset(options.split()) for verb, options in _VERBS.items()}
_NAME = re.compile(r"[A-Za-z0-9][\w.-]*")
"""A container name as docker takes it."""
_PLACEHOLDER = re.compile(
    r"\A(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{6,64}\Z"
    r"|container|\A(?:name|id|ctr|cid)\Z|\A(?:my|your)|example|foo|xxx|[-_]\d+\Z",
    re.IGNORECASE,
)
"""A name the reader fills in (`container_id`, `my_container`), a container ID or the first characters
of one (docker takes any unique prefix: `4afbed1fce`, a name of the author's own session: six to
sixty-four hex digits, letters and digits both), or one Compose gives a service's container
(`app-web-1`, `app_web_1`)."""
_SERVERS = re.compile(
    r"(?:postgres(?:ql)?|redis|mysql|mariadb|mongo(?:db)?|nginx|traefik|rabbitmq|kafka|zookeeper|minio"
    r"|elasticsearch|opensearch|grafana|prometheus|jenkins|registry|portainer|ollama|vault|consul)[\w.-]*",
    re.IGNORECASE,
)
"""A container named for a server the reader may run on their own (`postgres`, `redis`): not the
project's."""
_STARTS = re.compile(
    container_command("run|create", DOCKER_PODMAN)
    + r"|\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b[^\n;&|#]*?[ \t](?:up|run|create)\b"
)
"""A command that starts a container."""
_TEXT_FILE = re.compile(
    r"(?:.*\.(?:sh|bash|zsh|ps1|bat|cmd|py|mk|ya?ml|json|jsonc|toml|env|cfg|ini|conf|hcl|txt|md)"
    r"|Makefile|makefile|GNUmakefile|Justfile|justfile|\.env)\Z"
)
"""The files of the repository that may name a container (scripts, Makefiles, compose, devcontainer)."""
_DEPTH = 3
"""How deep below the folder read its files are read."""
_MOST_FILES = 400
"""At most this many files are read; a tree with more is not read at all (a name may be in the rest)."""
_SERVICE_NAME = re.compile(r"^[ \t]+name:[ \t]*[\"']?([\w.-]+)[\"']?[ \t]*$", re.MULTILINE)
"""A `name:` key indented in a compose file (a service's, a network's): no container's name."""
_CONTAINER_NAME = re.compile(r"\bcontainer_name:[ \t]*[\"']?([\w.-]+)")
_GIVEN = re.compile(r"(?:--name(?:[ \t]+|=)|container_name:[ \t]*)[\"']?([\w.-]+)")
"""A container name given on a line that may also address it (`docker run --name app … && docker exec
app`)."""


def text_files(top: Path, readme: Path) -> list[Path] | None:
    """The text files below `top` that may name a container (`_TEXT_FILE`, `_DEPTH` folders down, not
    hidden folders but `.devcontainer`), the README and links out of `top` left out; None when there are
    more than `_MOST_FILES`."""
    found: list[Path] = []
    base = len(top.parts)
    for folder, dirs, names in os.walk(top):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if (not d.startswith(".") or d == ".devcontainer")
            and d != "node_modules"
            and len(here.parts) - base < _DEPTH
        )
        for name in sorted(names):
            path = here / name
            if _TEXT_FILE.fullmatch(name) and resolves_inside(path, top) and real_path(path) != readme:
                found.append(path)
                if len(found) > _MOST_FILES:
                    return None
    return found


def _addressed(doc: Document) -> list[tuple[int, str, str]]:
    """(README line, docker command, container) of each docker command of the README that addresses a
    container by name (`_VERBS`)."""
    found: list[tuple[int, str, str]] = []
    for line, words in docker_commands(doc):
        head = docker_verb(words)
        if head is None:
            continue
        verb, at = head
        if verb not in _VALUES:
            continue
        while at < len(words) and words[at].startswith("-"):
            at += 2 if words[at] in _VALUES[verb] else 1
        if at < len(words):
            found.append((line, verb, words[at]))
    return found


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")


def container_names(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """The findings of this module: `compose_names`, then `unnamed_containers`, then `nameless_runs`,
    each of the names those before it leave out."""
    told: set[str] = set()
    for name, found in _compose_misses(doc, text, readme, directory, project):
        told.add(name)
        yield found
    for found in unnamed_containers(doc, text, readme, directory, project, told):
        told.add(found.message.split("addresses container ", 1)[1].split(",", 1)[0])
        yield found
    yield from nameless_runs(doc, text, readme, directory, project, told)


def unnamed_containers(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    project: Path | None,
    told: Collection[str] = (),
) -> Iterator[Diagnostic]:
    """A container a docker command of the README addresses (`docker exec`, `logs`, `attach`, `stop`,
    …) by a name nothing gives it (see the module docstring), but those of `told`: `likely`."""
    addressed = [
        (line, verb, name)
        for line, verb, name in _addressed(doc)
        if name not in told
        and _NAME.fullmatch(name)
        and not name.isupper()
        and not _PLACEHOLDER.search(name)
        and not _SERVERS.fullmatch(name)
    ]
    if not addressed or not _STARTS.search(text):
        return
    lines = text.splitlines()
    used = {line for line, _, _ in addressed}
    pending = {
        name: (line, verb)
        for line, verb, name in reversed(addressed)
        if not any(_word(name).search(other) for n, other in enumerate(lines, start=1) if n not in used)
    }
    for match in _GIVEN.finditer(text):
        pending.pop(match.group(1), None)
    if not pending:
        return
    top = (project or directory).resolve()
    files = text_files(top, (directory / Path(readme).name).resolve())
    if files is None:
        return
    hints: dict[str, str] = {}
    named: set[str] = set()
    for path in files:
        body = text_or_none(path)
        if body is None:
            continue
        if compose.FILE_NAME.fullmatch(path.name):
            for match in _SERVICE_NAME.finditer(body):
                if match.group(1) in pending:
                    at = body.count("\n", 0, match.start()) + 1
                    shown = Path(os.path.relpath(path, directory.resolve())).as_posix()
                    hints.setdefault(match.group(1), f"{shown}:{at}")
            body = _SERVICE_NAME.sub("", body)
            named.update(_CONTAINER_NAME.findall(body))
        for name in [n for n in pending if _word(n).search(body)]:
            del pending[name]
        if not pending:
            return
    for name, (line, verb) in sorted(pending.items(), key=lambda item: item[1]):
        if difflib.get_close_matches(name, sorted(named), n=1, cutoff=CLOSE):
            continue  # a slip of a compose container_name: names._container_misses tells it
        said = (
            f"README's docker {verb} addresses container {name}, which nothing it runs names so (no "
            f"--name {name}, no compose container_name: {name}): docker answers no such container"
        )
        if name in hints:
            said += (
                f" ({hints[name]} sets name: {name} inside a service, which Compose does not take for the "
                "container's name: container_name does)"
            )
        yield Diagnostic(readme, line, said, confidence=LIKELY)


_DETACHED = re.compile(r"\A(?:--detach|-[a-zA-Z]*d[a-zA-Z]*)\Z")
"""`docker run`'s detach option, alone or in a cluster (`-d`, `-itd`)."""
_OTHER_START = re.compile(
    r"\b(?:docker-compose|podman-compose|podman|nvidia-docker|make|just|singularity|apptainer)\b"
    r"|\.(?:sh|bash)\b|--name\b|\bcontainer_name\b"
)
"""A step other than docker's own that may start or name a container (compose, a script, `make`,
another container tool)."""
_SCRIPT = re.compile(r"(?:\A|[ \t/])([\w.-]+\.(?:sh|bash))\b")


def nameless_runs(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    project: Path | None,
    told: Collection[str] = (),
) -> Iterator[Diagnostic]:
    """A container a docker command addresses by name (`docker exec -it studio …`, `logs`, `attach`,
    `stop` …) when the step of the README that last starts a container before it is a `docker run` of
    an image the README builds (`docker build -t studio:cu118 .`) that gives no `--name`: detached, or
    with no command after the image (the server, not a one-off), so the container it addresses is that
    run's. Docker names such a container at random, and answers "No such container" (a helper script the
    README runs another way may name it; the run the README offers does not). Not read: a name the
    reader fills in, one of `told`, a step before the address that may start or name a container
    otherwise (compose, a script, `make`, `docker start`/`rename`), a name the README's `text` gives
    itself (`docker run --name studio …` elsewhere: the run without it is a side session, `docker run
    -e START_BASH=true -it studio`). `likely`."""
    built = {
        image_repository(m.group(1))
        for fence in doc.fences
        for _, t in fence.lines
        if BUILD.search(t)
        for m in TAG_FLAG.finditer(t)
    }
    if not built:
        return
    starts: list[tuple[int, list[str] | None]] = []  # (README line, a run's words, or None)
    for line, words in docker_commands(doc):  # (a block's, or a code span's of the prose)
        head = docker_verb(words)
        if head is not None and head[0] in _RUN_VERBS:
            starts.append((line, words[head[1] :]))
        elif head is not None and head[0] in ("start", "rename", "compose"):
            starts.append((line, None))
    scripts: list[str] = []
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for lines in fence_commands(fence):
            command = joined([(n, sh_code(t)) for n, t in lines])
            for step in shell_steps(command):
                if docker_words(step) is None and _OTHER_START.search(without_prompt(step).strip()):
                    starts.append((lines[0][0], None))
                    scripts += _SCRIPT.findall(step)
    if not starts:
        return
    starts.sort(key=lambda start: start[0])
    start_lines = [start[0] for start in starts]
    given = {match.group(1) for match in _GIVEN.finditer(text)}
    for line, verb, name in _addressed(doc):
        if (
            name in told
            or name in given
            or not _NAME.fullmatch(name)
            or name.isupper()
            or _PLACEHOLDER.search(name)
            or _SERVERS.fullmatch(name)
        ):
            continue
        last = bisect.bisect_left(start_lines, line) - 1  # (the last start before the address)
        if last < 0:
            continue
        at, run = starts[last]
        if run is None or not _unnamed_server(run, built):
            continue
        naming = [
            script
            for script in dict.fromkeys(scripts)
            if (body := text_or_none(directory / script)) is not None
            and any(m.group(1) == name for m in _GIVEN.finditer(body))
        ]
        hint = f" ({naming[0]}, which the README runs another way, names it)" if naming else ""
        yield Diagnostic(
            readme,
            line,
            f"README's docker {verb} addresses container {name} after the docker run at line {at}, which "
            f"gives it no --name: docker names that container at random, so docker answers no such "
            f"container{hint}",
            confidence=LIKELY,
        )


def _unnamed_server(words: list[str], built: Collection[str]) -> bool:
    """True when a `docker run`'s words (after `run`) give no `--name`, run an image of a repository of
    `built`, and are detached or give no command after the image."""
    if any(w == "--name" or w.startswith("--name=") for w in words):
        return False
    image = run_image(words)
    if image is None or image_repository(image) not in built:
        return False
    at = words.index(image) if image in words else len(words)
    return any(_DETACHED.fullmatch(w) for w in words[:at]) or at == len(words) - 1


# --------------------------------------------------------------------------------------------------
# A compose service's (or volume's) name given to docker as the container's (volume's) own

_BY_NAME = {
    "exec": "-u --user -w --workdir -e --env --env-file --detach-keys",
    "logs": "-n --tail --since --until",
    "attach": "--detach-keys",
    "top": "",
    "port": "",
    "diff": "",
    "export": "-o --output",
    "commit": "-a --author -c --change -m --message",
    "cp": "",
    "stop": "-t --time --timeout -s --signal",
    "restart": "-t --time --timeout -s --signal",
    "kill": "-s --signal",
    "start": "--detach-keys",
    "pause": "",
    "unpause": "",
    "wait": "",
    "inspect": "-f --format --type",
}
"""The docker commands that address a container by name (`cp` in its `NAME:PATH` operands), with their
options that take a value: the first operand of those of `_FIRST_ONLY`, every operand of the rest."""
_BY_NAME_VALUES = {verb: frozenset(options.split()) for verb, options in _BY_NAME.items()}
_FIRST_ONLY = frozenset(("exec", "logs", "attach", "top", "port", "diff", "export", "commit"))
_RUN_VERBS = frozenset(("run", "create"))
_SOURCED = re.compile(
    r"\A(?:(?:source|\.|bash|sh|zsh)[ \t]+(?:-\w+[ \t]+)*([^\s;&|<>]+)|(\.{1,2}/[^\s;&|<>]+))"
)
"""A step that reads a file of the project as shell: `source ./aliases`, `. env.sh`, `bash run.sh`,
`./start.sh`."""
_READS_FILE = re.compile(r"\b(?:source|sh)[ \t]|\.{1,2}/|^[ \t]*\.[ \t]", re.MULTILINE)
"""What a README that sources or runs a file holds (the quick test before `_SOURCED` is read)."""
_ALIAS = re.compile(r"""\A[ \t]*alias[ \t]+([\w.:+-]+)=(?:"([^"]*)"|'([^']*)')[ \t]*\Z""")
"""A shell alias and the command it stands for (`alias ollama="docker exec -it ollama ollama"`)."""
_COMPOSE_UP = re.compile(r"(?<![\w./-])(?:docker[ \t]+compose|docker-compose)(?![\w.-])")
"""Docker's compose command (podman-compose names its containers otherwise: not read)."""
_PROJECT_SET = re.compile(r"\bCOMPOSE_PROJECT_NAME=[\"']?([\w.-]+)")
_NO_SOURCE = re.compile(r"[/~.$`]|\A[A-Z]:")
"""A `-v` source that is a path, a variable or a drive: no named volume."""


@dataclass(frozen=True)
class _Step:
    """One shell step the README runs: in its own commands, or in a file it sources or runs."""

    line: int
    """The README line it is told at."""
    text: str
    where: str | None = None
    """`file:line` of a step read from a file, None for the README's own."""
    sure: bool = True
    """True when the README runs it as written (its own command, an alias it uses); False for a line
    of a script, which may not reach it."""
    alias: str | None = None
    """The alias it is the command of."""


@dataclass
class _Project:
    """The compose files the README's `docker compose up` reads, as Compose names what they make."""

    services: dict[str, tuple[str, compose.Service]]
    """Each service by name, with the file it is in (as shown)."""
    volumes: dict[str, str]
    """Each top-level volume Compose names `<project>_NAME` (no `name:`, not `external`), with the file
    and line that declares it."""
    named: set[str]
    """The names its files give containers and volumes themselves (`container_name:`, a volume's
    `name:`)."""
    projects: list[str]
    """The project names it may have: `-p`, `name:`, COMPOSE_PROJECT_NAME, the folder's (or clone's)
    name; the first is the one shown."""
    plugin: list[int] = dataclasses.field(default_factory=list)
    """The README lines of its `docker compose up` (Compose v2, which joins project and service with
    `-`)."""
    standalone: list[int] = dataclasses.field(default_factory=list)
    """The README lines of its `docker-compose up` (v1 joined them with `_`; the v2 binary so named too
    with `-`)."""


_SHELL_LINE = re.compile(r"(?:sudo[ \t]+)?(?:(?:docker|docker-compose|podman|cd|git)[ \t]|\.{1,2}/\w)")
"""A line of a block that is a shell command whatever the block's label (Python has no `docker up`)."""


def _shell_in(fence: Fence) -> list[list[tuple[int, str]]]:
    """The commands of a block labelled another language (```` ```python ````) whose every line but
    its comments is a docker, `cd`, `git` or `./script` command, at least one of them docker's: a shell
    block mislabelled. None for any other block."""
    lines = [(n, t) for n, t in fence.lines if t.strip() and not t.lstrip().startswith("#")]
    if not lines or not all(
        _SHELL_LINE.match(t.lstrip()) and not t.rstrip().endswith("\\") for _, t in lines
    ):
        return []
    if not any(re.match(r"(?:sudo[ \t]+)?docker", t.lstrip()) for _, t in lines):
        return []
    return [[line] for line in lines]


def _own_steps(doc: Document) -> list[_Step]:
    """The shell steps of the README's command blocks and of its inline code, each at its line."""
    found: list[_Step] = []
    for fence in doc.fences:
        for lines in fence_commands(fence) if fence.lang in COMMAND_LANGS else _shell_in(fence):
            text = joined([(n, sh_code(without_prompt(t))) for n, t in lines])
            found.extend(_Step(lines[0][0], s.strip()) for s in shell_steps(text) if s.strip())
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" in text and "docker" in text:
                found.extend(_Step(line, code.strip()) for _, _, code in code_spans(text) if code.strip())
    return found


def _alias_lines(doc: Document, steps: Sequence[_Step]) -> dict[str, int]:
    """The first README line each word is used on as a command: the first word of a step, or the first
    cell of a table row (an alias table: `ollama | Ollama CLI.`)."""
    found: dict[str, int] = {}
    for step in steps:
        words = step.text.split()
        if words:
            found.setdefault(words[0], step.line)
    for table in doc.tables:
        for line, cells in table.rows:
            if cells:
                found.setdefault(plain(cells[0]).strip().strip("`").strip(), line)
    return found


def _file_steps(
    doc: Document, steps: Sequence[_Step], directory: Path, top: Path, readme: Path
) -> tuple[list[_Step], list[str]]:
    """The steps of the files the README's steps source or run (`source ./aliases`, `./start.sh`),
    found beside the README in the project (a script's up to its first `cd`), and the texts of those
    files. An alias's command is told at
    the first README line that uses the alias (`_alias_lines`), else at the line reading the file."""
    found: list[_Step] = []
    texts: list[str] = []
    used: dict[str, int] | None = None
    seen: set[Path] = set()
    for step in steps:
        read = _SOURCED.match(LEAD.sub("", step.text, count=1))
        if read is None:
            continue
        name = (read.group(1) or read.group(2)).strip("\"'")
        path = directory / name
        if not os.path.isfile(path) or not resolves_inside(path, top) or real_path(path) in seen:
            continue
        seen.add(real_path(path))
        if real_path(path) == readme:
            continue
        body = text_or_none(path, MAX_PROJECT_FILE_BYTES, top)
        if body is None or "docker" not in body:
            continue
        texts.append(body)
        shown = Path(os.path.relpath(path, directory)).as_posix()
        moved = False  # a `cd` of the script: its later commands run in another folder
        for number, line in logical_lines(body):
            code = sh_code(line)
            alias = _ALIAS.match(code)
            moved = moved or (alias is None and MOVE.search(code) is not None)
            if moved and alias is None:
                continue
            if alias is not None:
                if used is None:
                    used = _alias_lines(doc, steps)
                at = used.get(alias.group(1), step.line)
                command = alias.group(2) if alias.group(2) is not None else alias.group(3)
                parts = [(at, s, alias.group(1)) for s in shell_steps(command)]
            else:
                parts = [(step.line, s, None) for s in shell_steps(code)]
            found.extend(
                _Step(at, s.strip(), f"{shown}:{number}", named is not None, named)
                for at, s, named in parts
                if s.strip()
            )
    return found, texts


def _compose_document(path: Path) -> dict[Any, Any] | None:
    """The compose file at `path` as a mapping, None when it cannot be read as one."""
    data = bytes_or_none(path)
    if data is None:
        return None
    try:
        document = compose.load(data, path.name)
    except DocgenError:
        return None
    return document if isinstance(document, dict) else None


def _brought_up(doc: Document, steps: Sequence[_Step], directory: Path, top: Path) -> _Project | None:
    """What the `docker compose up` of `steps` brings up from the README's folder (its `-f` files, else
    the folder's default files), read with every file of every such command; None when there is no
    such command, it may run elsewhere (`--project-directory`, `COMPOSE_FILE=`, a `cd` before it into a
    folder other than a clone's), or a file it reads cannot be read or includes others."""
    cloned = [folder or cloned_folder(url) for url, folder in clones(doc)]
    away = sorted(
        line
        for fence in doc.fences
        for line, folder in moves(fence)
        if folder.strip("/\"'").removesuffix(".git") not in cloned
    )
    project = _Project({}, {}, set(), [])
    paths: list[Path] = []
    for step in steps:
        match = _COMPOSE_UP.search(step.text)
        if match is None or (step.where is None and away and away[0] <= step.line):
            continue
        try:
            call = read_compose(shell_split(step.text[match.end() :]))
        except ValueError:
            continue
        if call.verb != "up":
            continue
        head = step.text[: match.start()]
        (project.standalone if "-" in match.group(0) else project.plugin).append(step.line)
        if "COMPOSE_FILE=" in head or any(n == "--project-directory" for n, _ in call.top.values):
            return None
        project.projects += [v for n, v in call.top.values if n in ("-p", "--project-name")]
        project.projects += _PROJECT_SET.findall(head)
        if call.files:
            folder = compose.run_folder(directory, call.files, top)
            paths += [folder / f for f in call.files]
        else:
            paths += compose.default_files(directory) or [directory / compose.DEFAULT_FILES[0]]
    if not paths:
        return None
    for path in dict.fromkeys(paths):
        read = compose_file(path) if resolves_inside(path, top) else None
        document = _compose_document(path) if read is not None and not read[1] else None
        if read is None or document is None:
            return None
        shown = Path(os.path.relpath(path, directory)).as_posix()
        for service in read[0]:
            if service.name not in project.services or service.container_name:
                project.services[service.name] = (shown, service)  # an override's container_name
            if service.container_name:
                project.named.add(service.container_name)
        volumes = document.get("volumes")
        volumes = volumes if isinstance(volumes, dict) else {}
        for key, value in volumes.items():
            if key == compose.LINE:
                continue
            value = value if isinstance(value, dict) else {}
            if isinstance(value.get("name"), str):
                project.named.add(value["name"])
            elif not value.get("external") or str(value.get("external")).lower() == "false":
                at = compose.line_of(volumes, key)
                project.volumes.setdefault(str(key), f"{shown}:{at}" if at else shown)
        env = text_or_none(path.parent / ".env", MAX_PROJECT_FILE_BYTES, top) or ""
        project.projects += [m.group(1) for m in _PROJECT_SET.finditer(env)]
        if isinstance(name := document.get("name"), str) and "$" not in name:
            project.projects.append(name)
        folder = real_path(path.parent)
        own = [c for c in cloned if c] if folder == top and len(cloned) == 1 else []
        project.projects += [*own, folder.name]
    project.projects = [p for p in dict.fromkeys(compose.project_name(p) for p in project.projects) if p]
    return project if project.services else None


def _operands(verb: str, words: list[str], at: int) -> list[str]:
    """The container names of a docker command addressing containers (`_BY_NAME`), its words from
    `at` on."""
    found: list[str] = []
    values = _BY_NAME_VALUES[verb]
    while at < len(words):
        word = words[at]
        at += 1
        if word == "--":
            found.extend(words[at:])
            break
        if word.startswith("-") and len(word) > 1:
            at += 1 if word in values else 0
            continue
        found.append(word)
        if verb in _FIRST_ONLY:
            break
    if verb == "cp":
        return [w.split(":", 1)[0] for w in found if ":" in w and not _NO_SOURCE.match(w)]
    return found


def _addressed_by(step: _Step) -> Iterator[tuple[str, str, str, str]]:
    """(kind, name, how, image) of each container or volume a docker step addresses by name: `container`
    for `docker exec NAME …` and `docker run --volumes-from NAME`, `volume` for `docker run -v NAME:/path`
    (and `--mount source=NAME`) and `docker volume inspect|rm NAME`; `how` as a finding says it, `image`
    the image a `docker run` runs (else empty)."""
    words = docker_words(step.text)
    head = docker_verb(words) if words is not None else None
    if words is None or head is None:
        return
    verb, at = head
    if verb in _BY_NAME:
        for name in _operands(verb, words, at):
            yield "container", name, f"docker {verb} {name}", ""
    elif verb in _RUN_VERBS:
        read = read_words(words[at:], RUN)
        image = read.positional[0] if read.positional else ""
        for option, value in read.values:
            if option == "--volumes-from":
                name = value.split(":", 1)[0]
                yield "container", name, f"docker {verb} --volumes-from {name}", image
            elif option in ("-v", "--volume") and ":" in value and not _NO_SOURCE.match(value):
                name = value.split(":", 1)[0]
                yield "volume", name, f"docker {verb} {option} {name}:…", image
            elif option == "--mount":
                fields = dict(f.partition("=")[::2] for f in value.split(","))
                name = fields.get("source") or fields.get("src") or ""
                if fields.get("type", "volume") == "volume" and name and not _NO_SOURCE.match(name):
                    yield "volume", name, f"docker {verb} --mount source={name}", image
    elif verb == "volume" and at + 1 < len(words) and words[at] in ("inspect", "rm"):
        for name in words[at + 1 :]:
            if not name.startswith("-"):
                yield "volume", name, f"docker volume {words[at]} {name}", ""


def _given(name: str, texts: Sequence[str]) -> bool:
    """True when one of `texts` (the README, a file it reads, the project's files) names a container or
    volume `name` itself (`--name NAME`, `container_name: NAME`, `docker volume create NAME`)."""
    given = re.compile(
        rf"(?:--name(?:[ \t]+|=)|container_name:[ \t]*|\bvolume[ \t]+create[ \t]+(?:-\S+[ \t]+)*)"
        rf"[\"']?{re.escape(name)}(?![\w.-])"
    )
    return any(given.search(text) for text in texts)


def _project_texts(top: Path, readme: Path) -> list[str] | None:
    """The texts of the project's files that may name a container (`text_files`), None when there are too
    many to read."""
    files = text_files(top, readme)
    return None if files is None else [t for path in files if (t := text_or_none(path)) is not None]


def compose_names(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """A container or volume a docker command of the README, or of a file it sources or runs, addresses
    by the name of a service (or top-level volume) of the compose files its `docker compose up` brings
    up, while Compose names it otherwise (see the module docstring): `certain` for the README's own
    command or an alias it uses, `likely` for a line of a script."""
    for _, found in _compose_misses(doc, text, readme, directory, project):
        yield found


def _compose_misses(
    doc: Document, text: str, readme: str, directory: Path, project: Path | None
) -> Iterator[tuple[str, Diagnostic]]:
    """(name, finding) of each of `compose_names`'s findings."""
    if not _COMPOSE_UP.search(text) and not _READS_FILE.search(text):
        return  # no compose command, and no file sourced or run that may hold one
    top = (project or directory).resolve()
    here = directory.resolve()
    readme_path = (directory / Path(readme).name).resolve()
    own = _own_steps(doc)
    scripted, texts = _file_steps(doc, own, here, top, readme_path)
    steps = [*own, *scripted]
    up = _brought_up(doc, steps, here, top)
    if up is None:
        return
    project_name = up.projects[0] if up.projects else "project"
    images = {s.image for _, s in up.services.values() if s.image}
    told: set[tuple[int, str]] = set()
    project_texts: list[str] | None = None
    for step in steps:
        for kind, name, how, image in _addressed_by(step):
            if (step.line, name) in told or name in up.named or image in images:
                continue  # a run of a service's own image: the README's way without compose
            if how.startswith("docker inspect") and any(i.split(":")[0] == name for i in images):
                continue  # the image of that name
            said = _misnamed(kind, name, up, project_name)
            if said is None or _given(name, [text, *texts]):
                continue
            if project_texts is None:
                project_texts = _project_texts(top, readme_path)
            if project_texts is None or _given(name, project_texts):
                continue
            told.add((step.line, name))
            if step.alias is not None:
                said = f"README's alias {step.alias} ({step.where}) runs {how}, but {said}"
            elif step.where is not None:
                said = f"{step.where}, which the README runs, runs {how}, but {said}"
            else:
                said = f"README runs {how}, but {said}"
            sure = CERTAIN if step.sure else LIKELY
            yield name, Diagnostic(readme, step.line, said, confidence=sure)
    yield from _described_containers(doc, readme, steps, up)
    yield from _image_misses(readme, steps, up, [text, *texts], top, readme_path)


_IMAGE_VERBS = frozenset(("rmi", "save", "push", "history"))
"""The docker commands whose operands are images (besides `run`, `create` and `_IMAGE_SUBVERBS`)."""
_IMAGE_SUBVERBS = frozenset(("rm", "inspect", "history", "save", "push"))
"""The `docker image` commands whose operands are images it reads (not `build`, `tag`: those make one)."""
_LOCAL_IMAGE = re.compile(r"[a-z0-9][a-z0-9._-]*")
"""An image name with no registry, no namespace and no placeholder: one Compose may have tagged."""


def _images_of(step: _Step) -> list[str]:
    """The images a docker step names: the image of `docker run|create`, the operands of `docker rmi`,
    `docker image rm|inspect|history|save|push`, `docker save|push|history`; tags left out."""
    words = docker_words(step.text)
    head = docker_verb(words) if words is not None else None
    if words is None or head is None:
        return []
    verb, at = head
    if verb in _RUN_VERBS:
        read = read_words(words[at:], RUN)
        operands = read.positional[:1]
    elif verb in _IMAGE_VERBS or (verb == "image" and at < len(words) and words[at] in _IMAGE_SUBVERBS):
        operands = [w for w in words[at + (verb == "image") :] if not w.startswith("-")]
    else:
        return []
    return [name for o in operands if _LOCAL_IMAGE.fullmatch(name := o.split(":", 1)[0])]


def _image_misses(
    readme: str, steps: Sequence[_Step], up: _Project, texts: Sequence[str], top: Path, readme_path: Path
) -> Iterator[tuple[str, Diagnostic]]:
    """An image a docker command of the README runs (or removes, saves, pushes) by Compose v1's name of
    a service's image, `<project>_<service>`, while the README brings the file up with `docker compose`
    (v2), which tags the image `<project>-<service>`: the service builds (`build:`) and has no `image:`,
    the README's compose commands are all `docker compose`, and nothing tags the name itself (`-t`,
    `docker tag`, an `image:`). Told once, at its first line: `certain` for the README's own command,
    `likely` for a line of a script it runs."""
    if not up.plugin or up.standalone:
        return  # `docker-compose` may be v1 (`_`) or v2 (`-`): which name it gives is not known
    built = {n: (f, s) for n, (f, s) in up.services.items() if s.builds and not s.image}
    if not built:
        return
    uses: dict[str, list[_Step]] = {}
    for step in steps:
        for name in _images_of(step):
            service = next((s for s in built if name.endswith(f"_{s}") and len(name) > len(s) + 1), None)
            if service is not None:
                uses.setdefault(name, []).append(step)
    project_texts: list[str] | None = None
    for name, found in uses.items():
        tagged = re.compile(
            rf"(?:(?:-t|--tag)(?:[ \t]+|=)|\btag[ \t]+\S+[ \t]+|image:[ \t]*)[\"']?"
            rf"{re.escape(name)}(?![\w.-])"
        )
        if any(tagged.search(t) for t in texts):
            continue
        if project_texts is None:
            project_texts = _project_texts(top, readme_path) or []
        if any(tagged.search(t) for t in project_texts):
            continue
        service = next(s for s in built if name.endswith(f"_{s}"))
        shown, where = built[service]
        at = f"{shown}:{where.line}" if where.line else shown
        project = name[: -len(service) - 1]
        first = found[0]
        how = f" ({first.where}, which the README runs)" if first.where is not None else ""
        said = (
            f"README names image {name}{how}, but {at} gives service {service} a build: and no image:, "
            f"and the README's docker compose up (line {up.plugin[0]}) is Compose v2, which tags it "
            f"{project}-{service}: {name} is Compose v1's (docker-compose) name, so docker finds no such "
            f"image{also_at([s.line for s in found])}"
        )
        yield name, Diagnostic(readme, first.line, said, confidence=CERTAIN if first.sure else LIKELY)


_FOLDED = re.compile(r"[-_.]")
"""What a service's name in prose may drop (`Open-WebUI` for `open-webui`)."""


def _entered_service(step: _Step, up: _Project) -> tuple[str, str] | None:
    """(service, command as told) of the container a step opens: `docker exec NAME` of a service's name
    or `container_name:`, `docker compose exec SERVICE`; None for another step."""
    compose_call = _COMPOSE_UP.search(step.text)
    if compose_call is not None:
        try:
            call = read_compose(shell_split(step.text[compose_call.end() :]))
        except ValueError:
            return None
        if call.verb == "exec" and call.services and call.services[0] in up.services:
            return call.services[0], f"docker compose exec {call.services[0]}"
        return None
    by_container = {s.container_name: n for n, (_, s) in up.services.items() if s.container_name}
    for kind, name, how, _ in _addressed_by(step):
        if kind == "container" and how.startswith("docker exec"):
            service = by_container.get(name, name if name in up.services else None)
            return (service, how) if service is not None else None
    return None


def _described_containers(
    doc: Document, readme: str, steps: Sequence[_Step], up: _Project
) -> Iterator[tuple[str, Diagnostic]]:
    """An alias a README table describes as opening one compose service's container (`open-webui_login
    | Login to Open-WebUi Container.`) whose command opens another service's (`docker exec -it ollama
    /bin/bash`): `likely`."""
    rows = {
        plain(cells[0]).strip().strip("`").strip(): (line, " ".join(plain(c) for c in cells[1:]))
        for table in doc.tables
        for line, cells in table.rows
        if len(cells) > 1
    }
    for step in steps:
        if step.alias is None or step.alias not in rows:
            continue
        entered = _entered_service(step, up)
        if entered is None:
            continue
        line, description = rows[step.alias]
        folded = _FOLDED.sub("", description.lower())
        said = [
            n
            for n in up.services
            if re.search(rf"(?<![a-z0-9]){re.escape(_FOLDED.sub('', n.lower()))}[ \t]+container", folded)
        ]
        if len(said) != 1 or said[0] == entered[0]:
            continue
        shown, service = up.services[entered[0]]
        at = f"{shown}:{service.line}" if service.line else shown
        yield (
            entered[0],
            Diagnostic(
                readme,
                line,
                f"README says alias {step.alias} opens the {said[0]} container, but {step.where} runs "
                f"{entered[1]}, the container of service {entered[0]} ({at})",
                confidence=LIKELY,
            ),
        )


def _misnamed(kind: str, name: str, up: _Project, project: str) -> str | None:
    """Why Compose gives the container or volume `name` another name (the finding's second half), None
    when it may be that name."""
    if kind == "volume":
        if name not in up.volumes:
            return None
        return (
            f"{up.volumes[name]} declares volume {name} with no name:, so Compose names it "
            f"{project}_{name}: docker makes a new, empty volume {name}"
        )
    unnamed = {n: (f, s) for n, (f, s) in up.services.items() if not s.container_name}
    service = name if name in unnamed else None
    if service is None:
        service = next((s for s in unnamed for p in up.projects if name in (f"{p}_{s}", f"{p}-{s}")), None)
    if service is None:
        return None
    shown, found = unnamed[service]
    at = f"{shown}:{found.line}" if found.line else shown
    volume = name.split("_", 1)[-1]
    also = (
        f" ({name} is the name Compose gives volume {volume})"
        if name != service and "_" in name and volume in up.volumes
        else ""
    )
    return (
        f"{at} gives service {service} no container_name, so Compose names its container "
        f"{project}-{service}-1: docker finds no container {name}{also}"
    )
