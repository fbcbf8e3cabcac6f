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
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY
from docgen.audit.docker_cli import _commands, _verb
from docgen.audit.names import CLOSE
from docgen.audit.paths import resolves_inside
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

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
    r"\A(?:[0-9a-f]{12}|[0-9a-f]{64})\Z|container|\A(?:name|id|ctr|cid)\Z|\A(?:my|your)|example|foo|xxx"
    r"|[-_]\d+\Z",
    re.IGNORECASE,
)
"""A name the reader fills in (`container_id`, `my_container`), a container ID, or one Compose gives a
service's container (`app-web-1`, `app_web_1`)."""
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


def _files(top: Path, readme: Path) -> list[Path] | None:
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
    for line, words in _commands(doc):
        head = _verb(words)
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
    """A container a docker command of the README addresses (`docker exec`, `logs`, `attach`, `stop`,
    …) by a name nothing gives it (see the module docstring): `likely`."""
    addressed = [
        (line, verb, name)
        for line, verb, name in _addressed(doc)
        if _NAME.fullmatch(name)
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
    files = _files(top, (directory / Path(readme).name).resolve())
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
