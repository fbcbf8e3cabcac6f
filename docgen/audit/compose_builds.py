"""Compose builds a README runs that cannot succeed: a `docker compose [-f FILE …] build|up|run|create`
of a command block whose `-f` file is not there, or whose services build from a context folder or a
`dockerfile:` that does not exist beside the compose file, or a `target:` stage that Dockerfile does not
define, or whose Dockerfile copies a file its context does not hold (`references.context_findings`, as
for a README's own `docker build`; a source written with a build arg as the service's `args:` and the
`.env` beside the compose file expand it). A `make TARGET` whose recipe runs `docker compose build` is
read the same way (`_made_starts`). The services are read by `docgen.compose` (each file once).

Also a README build whose image the compose command after it never uses (`unused_builds`): compose
builds and tags its own image of the same repository under another tag; or runs another tag of it that
no step makes and no registry holds (`retagged_runs`: `image: vocalis:v2.0` after `docker build -t
vocalis:latest .`).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from docgen import compose, makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import (
    OFFICIAL,
    TAG_FLAG,
    build_commands,
    command_words,
    fence_commands,
    last_name,
    moves,
    tagged_names,
    without_prompt,
)
from docgen.audit.fetched_copies import expanded_with
from docgen.audit.grammar import DOCKER_COMPOSE, read_compose
from docgen.audit.make_targets import make_commands, makefile_of, makefile_text
from docgen.audit.memo import per_audit
from docgen.audit.missing import gitignore_patterns, ignored
from docgen.audit.names import compose_file
from docgen.audit.paths import resolves_inside
from docgen.audit.references import MadeFiles, context_findings, in_checkout, inside
from docgen.bake import Target
from docgen.build_scripts import BUILD
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import (
    DOCKERFILE,
    built_dockerfile,
    bytes_or_none,
    context_dockerfile,
    in_submodule,
    text_or_none,
)
from docgen.markdown import Document
from docgen.model import Diagnostic
from docgen.workflows import files as workflow_files

_BUILDS = frozenset({"build", "up", "run", "create"})
"""The compose commands that build a service's image (`up`, `run` and `create` when it is missing)."""
_NOT_A_NAME = re.compile(r"[$<>{}*?\[\]]")
_AS = re.compile(r"(?:^|\s)AS\s+(\S+)\s*$", re.IGNORECASE)


@per_audit(maxsize=16)
def _services(path: Path) -> tuple[Target, ...] | None:
    """The services of the compose file at `path` that build an image; None when it cannot be read."""
    data = bytes_or_none(path)
    if data is None:
        return None
    try:
        return compose.parse(data, path.name)
    except DocgenError:
        return None


_PASSED_VALUE = re.compile(r"\$\{([A-Za-z_]\w*)(?::?-([\w.+@%:,/-]*))?\}|\$([A-Za-z_]\w*)")
"""A build arg's value that is one variable (`${MODEL_NAME}`, `$TAG`, `${TAG:-v1}`)."""
_LITERAL = re.compile(r"[\w.+@%:,/-]*")


@per_audit(maxsize=16)
def _every_service(path: Path) -> dict[str, compose.Service] | None:
    """Every service of the compose file at `path` by its name, read once for all of them (a file of
    thousands of services, each read again for each: `_given_args`); None when it cannot be read."""
    data = bytes_or_none(path)
    if data is None:
        return None
    try:
        found: dict[str, compose.Service] = {}
        for service in compose.services(data, path.name):
            found.setdefault(service.name, service)
        return found
    except DocgenError:
        return None


def _given_args(path: Path, name: str) -> dict[str, str] | None:
    """The build args compose passes the service `name` of the compose file at `path`, as compose reads
    them with the `.env` beside it and nothing in the shell: a literal as written, a variable (`${NAME}`,
    `${NAME:-default}`) the `.env`'s value, else its default, else blank (compose warns "variable is not
    set. Defaulting to a blank string"). None when a value is none of those (`${A}${B}`, `$${X}`), the
    file cannot be read, or the service is not one of it."""
    services = _every_service(path)
    service = services.get(name) if services is not None else None
    if service is None:
        return None
    env_data = bytes_or_none(path.parent / ".env")
    env = compose.dotenv(env_data) if env_data is not None else {}
    given: dict[str, str] = {}
    for key, value in service.args:
        match = _PASSED_VALUE.fullmatch(value)
        if match is None:
            if _LITERAL.fullmatch(value) is None:
                return None
            given[key] = value
            continue
        variable = match.group(1) or match.group(3)
        if variable in env:
            given[key] = env[variable][0]
        else:
            given[key] = match.group(2) or ""
    return given


@per_audit(maxsize=16)
def _stages(path: Path) -> frozenset[str] | None:
    """The stage names of the Dockerfile at `path` (lower case); None when one cannot be told (`AS
    ${NAME}`) or the file cannot be read."""
    try:
        parsed = read_dockerfile(path)
    except (OSError, DocgenError):
        return None
    names: set[str] = set()
    for inst in parsed.instructions:
        if inst.keyword.upper() == "FROM" and (match := _AS.search(inst.args)):
            if "$" in match.group(1):
                return None
            names.add(match.group(1).lower())
    return frozenset(names)


def compose_builds(
    doc: Document,
    readme: str,
    directory: Path,
    project: Path | None = None,
    source: Sequence[str] = (),
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """A compose command of a command block (before any `cd` in it) that builds, read against the files
    it names (`-f`, else the default compose file and its override in the README's folder): a `-f` file
    that is not there, and for each service it builds (those it names, else all), a context folder, a
    `dockerfile:` or a `target:` stage that does not exist (`certain` for `build` and `--build`, or a
    service with no `image:` to pull instead; `likely` otherwise); with the README's `source` lines, a
    source a service's Dockerfile copies that its context does not hold. Not a command naming a file in a git
    submodule (`.gitmodules`): a checkout holds its files only when cloned with its submodules. With
    `cloned` (`steps.built_clones`), a `cd` into the folder of a clone of this very repository made
    before it (`git clone …/app.git`, `cd app`) enters the README's folder."""
    top = (project or directory).resolve()
    entered: list[tuple[int, Path]] = []  # (README line, folder) of each `cd` of the blocks read so far
    made: MadeFiles | None = None
    cloned_at: dict[
        str, int
    ] = {}  # folder of each clone of this repository → the first README line making it
    for fence in doc.fences:
        if cloned is not None:
            for line, text in fence.lines:
                if (
                    "clone" in text
                    and (own := cloned(line, text)) is not None
                    and own[1] == directory.resolve()
                ):
                    cloned_at[own[0]] = min(line, cloned_at.get(own[0], line))
        # the block's `cd`s but those into a clone of this repository made above them, each read once
        kept = sorted(
            (line, _own_folder(folder, directory, top))
            for line, folder in moves(fence)
            if not cloned_at.get(folder.strip("\"'").rstrip("/"), line) < line
        )
        index, moved, all_own = 0, False, True
        for lines in build_commands(fence, DOCKER_COMPOSE):
            while index < len(kept) and kept[index][0] <= lines[-1][0]:
                moved, all_own, index = True, all_own and kept[index][1], index + 1
            if moved and not all_own:
                continue
            words = command_words(lines, DOCKER_COMPOSE)
            if words is not None:
                if made is None and source:
                    made = MadeFiles(source)  # (read once: thousands of compose commands)
                yield from _check(words, lines[0][0], readme, directory, top, source, entered, made)
        for line, folder in moves(fence):
            if (place := _entered_folder(folder, directory, top)) is not None:
                entered.append((line, place))
    yield from _made_starts(doc, readme, directory, project, top, source)


_CD_WORD = re.compile(r"(?:^|[;&|(][ \t]*)cd\b")
_ENV_INCLUDE = re.compile(r"^[ \t]*-?s?include[ \t]+[\w./-]*\.env[ \t]*$", re.MULTILINE)
"""A Makefile's include of an env file (`include .env`, `-include config/app.env`)."""


def _made_starts(
    doc: Document, readme: str, directory: Path, project: Path | None, top: Path, source: Sequence[str]
) -> Iterator[Diagnostic]:
    """The env files (`_env_file_findings`) of the compose commands a README's `make TARGET` starts: the
    Makefile's recipe for it (and for what it depends on) runs `$(COMPOSE) ${COMPOSE_FILES} up -d` with
    its variables expanded (`docker compose -f docker-compose.yml up -d app`), from the Makefile's
    folder. Not a recipe that changes folder (`cd`); a name the recipe writes counts as the README's."""
    commands = list(make_commands(doc))
    made = makefile_of(directory, project) if commands else None
    text = makefile_text(made) if made is not None else None
    if made is None or text is None or not resolves_inside(made, top):
        return
    # (an included env file, `include .env`, sets variables and makes no rule: its line read as blank)
    rules_only = _ENV_INCLUDE.sub("", text)
    by_line: dict[int, list[tuple[str, ...]]] = {}
    for command in makefile.reading(text).commands:
        by_line.setdefault(command.line, []).append(command.words)
    shown = Path(os.path.relpath(made, directory)).as_posix()
    told = False
    for line, targets in commands:
        for target in targets:
            recipe = makefile.recipe_lines(text, target) or makefile.recipe_lines(rules_only, target) or ()
            if any(_CD_WORD.search(written) for _, written in recipe):
                continue
            said_lines = [*source, *(written for _, written in recipe)]
            for number, _ in recipe:
                for words in by_line.get(number, ()):
                    if list(words[:2]) == ["docker", "compose"]:
                        rest = list(words[2:])
                    elif words[:1] == ("docker-compose",):
                        rest = list(words[1:])
                    else:
                        continue
                    call = read_compose(rest)
                    if call.verb not in _BUILDS or not call.top.complete or call.options is None:
                        continue
                    if any(_NOT_A_NAME.search(name) or name == "-" for name in call.files):
                        continue
                    paths = (
                        [made.parent / name for name in call.files]
                        if call.files
                        else compose.default_files(made.parent)
                    )
                    if not paths or not all(os.path.isfile(p) and resolves_inside(p, top) for p in paths):
                        continue
                    said = (
                        f"README runs make {target}, whose recipe ({shown}:{number}) runs docker compose "
                        f"{call.verb}"
                    )
                    if call.verb == "build" and len(paths) == 1:
                        # a build's services, their Dockerfiles' sources against their contexts
                        made_files = MadeFiles(said_lines)
                        built: set[tuple[str, str]] = set()  # (one finding a Dockerfile and context)
                        for service in _services(paths[0]) or ():
                            if call.services and service.name not in call.services:
                                continue
                            if (service.dockerfile, service.context) in built:
                                continue
                            built.add((service.dockerfile, service.context))
                            lead = f"{said}, whose service {service.name}"
                            for found in _service_build(
                                paths[0], service, lead, line, readme, LIKELY, top, made_files
                            ):
                                told = True
                                yield found
                        if told:
                            return
                        continue
                    for found in _env_file_findings(
                        paths, call.services, said, line, readme, top, said_lines
                    ):
                        told = True
                        yield found
                    if told:
                        return


def _entered_folder(folder: str, directory: Path, top: Path) -> Path | None:
    """The project's folder a block's `cd folder` enters from the README's folder (`cd compose`), when
    it is written plainly (no variable, no home or absolute path) and is there; else None."""
    folder = folder.strip("\"'").rstrip("/")
    if not folder or folder.startswith(("/", "~", "-")) or _NOT_A_NAME.search(folder):
        return None
    place = inside((directory / folder).absolute(), top)
    return place if place is not None and os.path.isdir(place) else None


def _cd_folder(
    names: Sequence[str], directory: Path, top: Path, entered: Sequence[tuple[int, Path]]
) -> Path | None:
    """The folder an earlier block's `cd` entered (the latest first) that holds the compose files
    `names` (the first of them at least; with no names, a default compose file), when the README's
    folder and those above it hold them not: the reader's shell is still there (`cd compose` at one step,
    `docker compose -f docker-compose.yml up` at a later one)."""
    for _, place in reversed(entered):
        if names and os.path.isfile(place / names[0]):
            return place
        if not names and compose.default_files(place):
            return place
    return None


def _own_folder(folder: str, directory: Path, top: Path) -> bool:
    """True when a block's `cd folder` enters the README's own folder from the project's top (`cd
    docker-rocm` in docker-rocm/README.md): the commands after it run where the README is, not in a
    folder below it (the README's folder holds no folder of that name)."""
    folder = folder.strip("\"'").rstrip("/")
    if not folder or folder.startswith(("/", "~", "-")) or "$" in folder or os.path.isdir(directory / folder):
        return False
    entered = inside(top / folder, top)
    return entered is not None and entered == directory.resolve() and entered != top


def _check(
    words: list[str],
    line: int,
    readme: str,
    directory: Path,
    top: Path,
    source: Sequence[str] = (),
    entered: Sequence[tuple[int, Path]] = (),
    made: MadeFiles | None = None,
) -> Iterator[Diagnostic]:
    """The findings of one compose command of the README's blocks; `made`: `MadeFiles(source)`."""
    call = read_compose(words)
    verb = call.verb if call.top.complete else None
    if verb not in _BUILDS or call.options is None:
        return
    named = call.files
    if any(_NOT_A_NAME.search(name) or name == "-" for name in named):
        return
    rest = call.rest
    if "--no-build" in rest or not call.options.complete:
        return
    wanted = call.services
    builds = verb == "build" or "--build" in rest
    if named:
        folder = compose.run_folder(directory, named, top)
        if not os.path.isfile(folder / named[0]):
            folder = _cd_folder(named, directory, top, entered) or folder
        paths = [folder / name for name in named]
    else:
        paths = compose.default_files(directory)
        if not paths and (place := _cd_folder((), directory, top, entered)) is not None:
            paths = compose.default_files(place)
        if not paths:
            return
    if any(in_submodule(path, directory) for path in paths):
        return  # a file of a git submodule: a checkout may not have it, and the services are not known
    shown = " ".join(f"-f {name}" for name in named)
    said = f"README runs docker compose {shown + ' ' if shown else ''}{verb}"
    seen: dict[str, int] = {}
    found: list[tuple[Path, Target]] = []
    for path in paths:
        if not resolves_inside(path, top):
            return
        if not os.path.isfile(path):
            yield Diagnostic(
                readme,
                line,
                f"{said}, but {path.name} is not in the README's folder nor in one above it",
                confidence=CERTAIN,
            )
            continue
        services = _services(path)
        if services is None:
            return
        for service in services:
            seen[service.name] = seen.get(service.name, 0) + 1
            found.append((path, service))
    if verb in _STARTS:
        yield from _env_file_findings(paths, wanted, said, line, readme, top, source)
    if made is None and source:
        made = MadeFiles(source)
    for path, service in found:
        if seen[service.name] > 1 or (wanted and service.name not in wanted):
            continue  # a service several files set (merged), or one the command does not build
        sure = CERTAIN if builds or not service.tags else LIKELY
        yield from _service_build(
            path, service, f"{said}, whose service {service.name}", line, readme, sure, top, made
        )


_TEMPLATE_ENDS = (".example", ".sample", ".template", ".dist", ".default", ".tmpl", ".in")


def _env_file_findings(
    paths: Sequence[Path],
    wanted: Sequence[str],
    said: str,
    line: int,
    readme: str,
    top: Path,
    source: Sequence[str],
) -> Iterator[Diagnostic]:
    """An `env_file:` of a service a README's `docker compose up` (`run`, `create`) starts that is not
    beside the compose file: compose refuses to start ("env file … not found") unless the entry says
    `required: false`. Only the services the command names, else those without `profiles:`; not a
    path with a variable or outside the project, a hidden one (`.env`: the reader's own secrets, most
    often ignored by git and missing from a copy), one git ignores (the reader makes it), one with a
    template beside it (`.env.example`), nor one whose name the README writes (it tells the reader to
    make it). `certain`: read from the command and the compose file. A hidden one is told `likely` when
    the README never speaks of env files, variables or secrets: in a git checkout, or with a template
    beside it the README does not name either (`cp .env.example .env` is a step it never gives)."""
    text = "\n".join(source)
    for path in paths:
        read = compose_file(path)  # (parsed once an audit for every rule reading it)
        data = bytes_or_none(path) if read is not None else None
        if read is None or data is None:
            continue
        services = read[0]
        folder = path.parent
        rows = data.decode("utf-8", errors="replace").splitlines()
        missing: dict[str, list[str]] = {}  # env file → the services reading it
        hidden: set[str] = set()  # (those told by the README's silence on env files: `likely`)
        templates: dict[str, str] = {}  # a hidden one → its template beside it the README never names
        for service in services:
            if (wanted and service.name not in wanted) or (not wanted and service.profiles):
                continue
            for name in dict.fromkeys(service.required_env_files):
                if _NOT_A_NAME.search(name) or name.startswith(("/", "~")) or not name.strip():
                    continue
                full = inside((folder / name).absolute(), top)
                if full is None or os.path.exists(full):
                    continue
                base = name.rstrip("/").rsplit("/", 1)[-1]
                # a hidden one (`.env`, `.docker.env`: the reader's own settings, most often git-ignored)
                # only when the README never speaks of env files, variables or secrets, and only
                # in a git checkout (a copy of some of the project's files may lack its hidden ones)
                untold = base.startswith(".") and _silent_on_env(text) and in_checkout(full.parent, top)
                # a template beside it (`.env.example`) is the file the reader makes it from, when the
                # README says so; a README silent on env files leaves it unmade (a copy keeps templates)
                template = _template(full.parent, base)
                if template is not None and base.startswith(".") and _silent_on_env(text):
                    if base not in text and template not in text:
                        templates[name] = template
                        hidden.add(name)
                        missing.setdefault(name, []).append(service.name)
                    continue
                if (base.startswith(".") and not untold) or base in text or template is not None:
                    continue
                chain = [full.parent, *(p for p in full.parent.parents if p == top or top in p.parents)]
                if untold or not ignored(full, gitignore_patterns(chain, top)):
                    missing.setdefault(name, []).append(service.name)
                    if untold:
                        hidden.add(name)
        for name, readers in missing.items():
            at = next(
                (n for n, row in enumerate(rows, 1) if name in row and "#" not in row.split(name)[0]), None
            )
            where = f"{path.name}:{at}" if at else path.name
            yield Diagnostic(
                readme,
                line,
                f"{said}, whose service{'s' if len(readers) > 1 else ''} {', '.join(readers)} read"
                f"{'' if len(readers) > 1 else 's'} env_file {name} ({where}), which does not exist;"
                " compose does not start without it"
                + (
                    f", and the README never says to make it (from {templates[name]} beside it)"
                    if name in templates
                    else ", and the README never says to make it"
                    if name in hidden
                    else ""
                ),
                confidence=LIKELY if name in hidden else CERTAIN,
            )


_ENV_WORDS = re.compile(r"\.env\b|\benv(?:ironment)?[ \t_-]*(?:files?|variables?|vars?)\b|\bsecrets?\b", re.I)


def _silent_on_env(text: str) -> bool:
    """True when the README (and the recipe it runs) says nothing of an env file, environment
    variables or secrets: a hidden env file (`.env`) its compose file requires is then one the reader
    is never told to make."""
    return _ENV_WORDS.search(text) is None


def _template(folder: Path, name: str) -> str | None:
    """The name of a template of the file `name` that `folder` holds (`.env.example`, `example.env`)."""
    try:
        entries = sorted(e.name for e in os.scandir(folder)) if os.path.isdir(folder) else []
    except OSError:
        return None
    stem = name.lstrip(".").rsplit(".", 1)[0].lower()
    for entry in entries:
        low = entry.lower()
        if low.startswith(name.lower()) and low.endswith(_TEMPLATE_ENDS):
            return entry
        if stem and stem in low and any(t.strip(".") in low for t in _TEMPLATE_ENDS):
            return entry
    return None


def _service_build(
    path: Path,
    service: Target,
    said: str,
    line: int,
    readme: str,
    sure: str,
    top: Path,
    made: MadeFiles | None = None,
) -> Iterator[Diagnostic]:
    """What keeps compose from building `service` of the compose file at `path`: its context folder, its
    `dockerfile:`, its `target:` stage missing, or (with `made`: what the README's lines before make) a
    source its Dockerfile copies that the context does not hold (`references.context_findings`, as for
    a README's own `docker build`; `likely` when `sure` is: the service may pull its image instead). A
    source written with a variable is read as the service's build args expand it (`_given_args`: the
    `.env` beside the compose file read, an unset one blank), `likely` (the reader's shell may set it);
    with build args given, only such sources are read (an arg may name the file another `COPY` reads),
    and none when an arg's value cannot be told."""
    folder = path.parent
    context = folder / service.context
    if service.context.startswith("/") or not os.path.isdir(context):
        if not service.context.startswith("/"):
            yield Diagnostic(
                readme, line, f"{said} builds from {service.context}, which does not exist", confidence=sure
            )
        return
    dockerfile = built_dockerfile(folder / service.dockerfile)
    if service.dockerfile.startswith("/"):
        return  # a Dockerfile of the machine that builds, not of the project
    if not os.path.isfile(dockerfile):
        shown = service.dockerfile
        yield Diagnostic(readme, line, f"{said} builds {shown}, which does not exist", confidence=sure)
        return
    if service.target is not None:
        stages = _stages(dockerfile)
        if stages is None:
            return
        if service.target.lower() not in stages:
            close = difflib.get_close_matches(service.target.lower(), sorted(stages), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]}?)" if close else ""
            text = f"{said} builds stage {service.target}, which {service.dockerfile} does not define{hint}"
            yield Diagnostic(readme, line, text, confidence=sure)
            return
    if made is None:
        return
    passed = _given_args(path, service.name)
    if service.args and passed is None:
        return  # (build args may name other files: `COPY requirements-${ENV}.txt`)
    try:
        parsed = read_dockerfile(dockerfile, service.dockerfile)
    except (OSError, DocgenError):
        return
    # the sources written with a variable, as the service's build args (its `.env` read) expand them
    expanded = expanded_with(parsed, passed) if passed is not None else []
    # (the context and Dockerfile as absolute, real paths inside the project, as a README's own build
    # reads them: a README audited from its folder gives `.`, from which no folder above is seen)
    context_at, dockerfile_at = inside(context.absolute(), top), inside(dockerfile.absolute(), top)
    if context_at is None or dockerfile_at is None:
        return  # (a context or Dockerfile reached through a link out of the project)
    lead = f"{said} builds {service.dockerfile} with the context {service.context}"
    instructions = parsed.instructions
    for found in context_findings(
        readme, line, lead, instructions, dockerfile_at, context_at, top, made, expanded
    ):
        # (a source a variable names: the reader's shell may set one compose reads blank)
        by_variable = any(f" {p} (line {at})" in found.message for at, p in expanded)
        if service.args and not by_variable:
            continue  # (with build args given, only the sources they name are read)
        yield replace(found, confidence=LIKELY) if sure != CERTAIN or by_variable else found


_STARTS = frozenset({"up", "run", "create"})
_GIVES_ANY = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?:pull|load|import|tag|commit)\b|\bmake\b|\bjust\b"
    r"|\.(?:sh|bash|bat|ps1)\b|\bbake\b"
)
"""A README command that may give an image a name the README does not show."""
_COMMENTED_BUILD = re.compile(r"^[ \t]*#[ \t]*build[ \t]*:", re.MULTILINE)


def _naming_nothing(doc: Document) -> list[str] | None:
    """The README's commands, one string each (prompts taken off); None when one of them may give an
    image a name (`_GIVES_ANY`: a pull, a tag, a load, a script, `make`, a bake)."""
    commands = [
        without_prompt(" ".join(text for _, text in lines))
        for fence in doc.fences
        for lines in fence_commands(fence)
    ]
    return None if any(_GIVES_ANY.search(c) for c in commands) else commands


def unbuilt_images(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A service a README's `docker compose up` (`run`, `create`) starts from an `image:` that is a local
    name (no registry, owner or official image: `image: faster-whisper`) while the service has no
    `build:` (its `build:` commented out) and nothing the README runs builds that name: compose looks
    the name up on Docker Hub instead of building it. Read only when the compose file holds a
    commented-out `build:`, no service of the files builds that image, and the README builds, tags,
    pulls or loads no image of that name and runs no script, `make` or bake that may (`likely`)."""
    commands = _naming_nothing(doc)
    if commands is None:
        return
    tagged = tagged_names(doc)
    top = (project or directory).resolve()
    told: set[str] = set()
    for fence in doc.fences:
        if any(True for _ in moves(fence)):
            continue
        for lines in build_commands(fence, DOCKER_COMPOSE):
            words = command_words(lines, DOCKER_COMPOSE)
            if words is None:
                continue
            call = read_compose(words)
            if not call.top.complete or call.verb not in _STARTS or call.options is None or call.files:
                continue
            if "--build" in call.rest and "--no-build" not in call.rest:
                continue
            for path in compose.default_files(directory):
                if not resolves_inside(path, top):
                    return
                read = compose_file(path)
                body = text_or_none(path)
                if read is None or read[1] or body is None:
                    continue
                commented = _COMMENTED_BUILD.search(body) is not None
                if not commented and not _dockerfile_said(doc, lines[0][0], path.parent, top):
                    continue
                built = {s.image for s in read[0] if s.builds and s.image}
                for service in read[0]:
                    image = service.image
                    if (
                        service.builds
                        or not image
                        or (call.services and service.name not in call.services)
                        or _NOT_A_NAME.search(image)
                        or "/" in image
                        or image in built
                        or image.split(":", 1)[0] in OFFICIAL
                        or last_name(image) in tagged
                        or image in told
                        or (not commented and _named_beside(path.parent, image, top))
                    ):
                        continue
                    told.add(image)
                    at = f"{path.name}:{service.image_line}" if service.image_line else path.name
                    why = (
                        "its build: is commented out"
                        if commented
                        else "no service has a build: (the README names the Dockerfile beside it)"
                    )
                    yield Diagnostic(
                        readme,
                        lines[0][0],
                        f"README runs docker compose {call.verb}, whose service {service.name} runs image "
                        f"{image} ({at}), but {why} and nothing the README runs builds "
                        f"{image}: compose pulls it from Docker Hub",
                        confidence=LIKELY,
                    )


_DOCKERFILE_WORD = re.compile(r"\bDockerfile\b")
_NOT_BUILD_FILES = re.compile(
    r"(?:\.(?:md|rst|txt|png|jpe?g|gif|svg|pth|onnx|bin|pt)|Dockerfile[\w.-]*)\Z", re.I
)
"""Files beside a compose file that give no image a name (docs, weights, Dockerfiles)."""


def _dockerfile_said(doc: Document, line: int, folder: Path, top: Path) -> bool:
    """True when the compose file's folder holds a Dockerfile and a prose line of the README's section
    holding `line` (from its heading to `line`) names the Dockerfile: the README means the compose
    service to run the image that Dockerfile makes."""
    beside = context_dockerfile(folder)
    if not os.path.isfile(beside) or not resolves_inside(beside, top):
        return False
    start = max((n for n, _ in doc.headings if n < line), default=0)
    return any(
        start < n < line and _DOCKERFILE_WORD.search(text)
        for para in doc.paragraphs
        for n, text in para.lines
    )


def _named_beside(folder: Path, image: str, top: Path) -> bool:
    """True when a file beside the compose file (a script, a Makefile, a workflow of the project, not a
    doc or a Dockerfile) names `image`: it may build or tag it. True when the folder cannot be read."""
    texts = _texts_beside(folder, top)
    if texts is None:
        return True
    word = re.compile(r"(?<![\w./-])" + re.escape(image) + r"(?![\w/-])")
    return any(word.search(body) for body in texts)


@per_audit(maxsize=4)
def _texts_beside(folder: Path, top: Path) -> tuple[str, ...] | None:
    """The texts of the files `_named_beside` reads beside a compose file in `folder` (the first 200 of
    the folder, the project's workflows), read once for every service's image; None when the folder
    cannot be read."""
    places: list[Path] = []
    try:
        places += [folder / n for n in sorted(os.listdir(folder))[:200]]
    except OSError:
        return None
    places += [Path(f) for f in workflow_files(folder.resolve(), top.resolve())]
    texts: list[str] = []
    for place in places:
        if _NOT_BUILD_FILES.search(place.name) or compose.FILE_NAME.match(place.name):
            continue
        if not os.path.isfile(place):
            continue
        body = text_or_none(place)
        if body is not None:
            texts.append(body)
    return tuple(texts)


_CLONE = re.compile(
    r"\bgit[ \t]+clone[ \t]+(?:-\S+[ \t]+)*(\S+?)(?:\.git)?/?(?:[ \t]+([\w.-]+))?[ \t]*(?:$|&&|;|\\)"
)
"""A `git clone URL [FOLDER]` step: the folder it makes is FOLDER, else the URL's last part."""


def unused_builds(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A command block that builds an image (`docker build -t app:local .`) and then starts compose
    (`docker compose up`, `run`, `create`, no `-f`) in the same folder, whose compose file builds a
    service's image itself and tags it with the same repository and another tag (`build: .` with
    `image: app:universal`): compose starts its own build, and the image the README built is never used
    (`likely`). The folder is the README's, one a `cd` of the block enters, or the project's top after a
    `cd` into the folder a `git clone` of the block made (a checkout of the project). Silent when a
    service the command starts runs the built reference (`image: app:local`, `app` for `app:latest`),
    when the compose file or a service's Dockerfile writes it (a base image, a build arg), when the
    README writes it in another command (`docker run app:local`), and when a tag is a variable or a
    placeholder."""
    top = (project or directory).resolve()
    every = [text for fence in doc.fences for _, text in fence.lines]
    for fence in doc.fences:
        starts = {lines[0][0]: lines for lines in build_commands(fence, DOCKER_COMPOSE)}
        if not starts:
            continue
        cds = dict(moves(fence))
        folder: Path | None = directory
        cloned: set[str] = set()
        builds: list[tuple[int, str]] = []
        for line, text in fence.lines:
            for match in _CLONE.finditer(text):
                cloned.add(match.group(2) or match.group(1).rsplit("/", 1)[-1])
            if line in cds and folder is not None:
                to = cds[line].strip("\"'").rstrip("/")
                if to in cloned:
                    folder = top
                elif to and not to.startswith(("/", "~", "-", "$")) and os.path.isdir(folder / to):
                    folder = inside(folder / to, top)
                else:
                    folder = None
                builds = []  # (a build in another folder: its context is not compose's)
            if BUILD.search(text):
                builds += [(line, m.group(1)) for m in TAG_FLAG.finditer(text)]
            if line not in starts or folder is None or not builds:
                continue
            words = command_words(starts[line], DOCKER_COMPOSE)
            call = read_compose(words) if words is not None else None
            if call is None or call.verb not in _STARTS or not call.complete or call.files:
                continue
            found = _unused(builds, call.services, folder, top, every, line)
            if found is not None:
                at, ref, path, service = found
                shown = os.path.relpath(path, directory if path.parent == directory else top)
                yield Diagnostic(
                    readme,
                    at,
                    f"README builds image {ref} and then runs docker compose {call.verb} (line {line}), "
                    f"but {shown}:{service.image_line} "
                    + (
                        f"builds service {service.name}'s own image and tags it {service.image}"
                        if service.builds
                        else f"runs service {service.name} from image {service.image} and builds none"
                    )
                    + ": the image the README builds is never used",
                    confidence=LIKELY if service.builds else CERTAIN,
                )
                builds = []


def _unused(
    builds: Sequence[tuple[int, str]],
    started: Sequence[str],
    folder: Path,
    top: Path,
    every: Sequence[str],
    line: int,
) -> tuple[int, str, Path, compose.Service] | None:
    """(README line, reference, compose file, service) of `unused_builds`'s finding for the `builds`
    before the compose command at `line` that starts `started` (none: all) in `folder`; None when there
    is none."""
    for path in compose.default_files(folder):
        if not resolves_inside(path, top):
            return None
    files = [(path, compose_file(path), text_or_none(path)) for path in compose.default_files(folder)]
    if not files or any(read is None or read[1] or body is None for _, read, body in files):
        return None
    services = [(path, s) for path, read, _ in files if read is not None for s in read[0]]
    services = [(p, s) for p, s in services if not started or s.name in started]
    images = [s.image for _, s in services if s.image]
    if not services or any(_NOT_A_NAME.search(i) for i in images):
        return None
    texts = [body for _, _, body in files if body is not None]
    for path, service in services:
        if service.builds:
            dockerfile = built_dockerfile(
                path.parent / (service.context or ".") / (service.dockerfile or DOCKERFILE)
            )
            text = text_or_none(dockerfile) if inside(dockerfile, top) is not None else None
            texts.append(text or "")
    for at, ref in builds:
        if _NOT_A_NAME.search(ref):
            return None
        repo, tag = _reference(ref)
        written = re.compile(rf"(?<![\w./:-]){re.escape(ref)}(?![\w./:-])")
        if any(_reference(i) == (repo, tag) for i in images) or any(written.search(t) for t in texts):
            continue
        if sum(1 for t in every if written.search(t)) > 1:
            continue  # (run, tagged or named in another command of the README)
        for path, service in services:
            if service.builds and service.image and service.image_line:
                other = _reference(service.image)
                if other[0] == repo and other[1] != tag:
                    return at, ref, path, service
        if any(s.builds for _, s in services) or any(_EXTENDS.search(t) for t in texts):
            continue
        for path, service in services:
            image = service.image
            if (
                image
                and service.image_line
                and image.split(":", 1)[0] not in OFFICIAL
                and _reference(image)[0] != repo  # (a release of the image the README builds)
                and not any(image in t for t in every)  # (an image the README pulls or names itself)
            ):
                return at, ref, path, service  # (no service builds: compose runs another image)
    return None


_COPIES_COMPOSE = re.compile(
    r"(?:^|[;&|][ \t]*|\s)(?:cp|mv)[ \t]+(?:-\w+[ \t]+)*(?P<source>[\w./-]+)[ \t]+"
    r"(?P<target>[\w./-]+)[ \t]*(?:$|[;&|#])"
)
"""A `cp|mv SOURCE TARGET` step: the compose file a README makes from an example
(`cp docker-compose-example.yml docker-compose.yml`)."""


def retagged_runs(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A README that builds an image (`docker build -t vocalis:latest .`), then, in a later command of
    any block, starts compose in its own folder (`docker-compose up`, `run`, `create`), whose file (the
    folder's, or the example a `cp` of the README made it from: `cp compose-example.yml
    docker-compose.yml`) runs a service from another tag of the same repository (`image: vocalis:v2.0`)
    and builds none. The repository has no owner and is no official image, so compose pulls
    `docker.io/library/vocalis`, which no one publishes: the command fails, and the image just built is
    not run. Silent when a block `cd`s elsewhere, when the README runs anything that may tag an image
    (a pull, a tag, a load, a script, `make`), writes the tag in another command, or a file beside the
    compose file names it (`likely`: a machine may hold the tag from an earlier build)."""
    commands = _naming_nothing(doc)
    if commands is None:
        return
    top = (project or directory).resolve()
    every = [text for fence in doc.fences for _, text in fence.lines]
    given: dict[str, bool] = {}  # an image → True when a README line or a file beside names it
    built: list[tuple[int, str]] = []
    made: dict[str, tuple[int, Path]] = {}  # a compose file's name → (README line, the example it copies)
    for fence in doc.fences:
        if any(True for _ in moves(fence)):
            continue
        starts = {lines[0][0]: lines for lines in build_commands(fence, DOCKER_COMPOSE)}
        for line, text in fence.lines:
            if BUILD.search(text):
                built += [(line, m.group(1)) for m in TAG_FLAG.finditer(text)]
            for match in _COPIES_COMPOSE.finditer(without_prompt(text)):
                source, target = directory / match.group("source"), match.group("target").removeprefix("./")
                if target in compose.DEFAULT_FILES and os.path.isfile(source):
                    made[target] = (line, source)
            if line not in starts or not built:
                continue
            words = command_words(starts[line], DOCKER_COMPOSE)
            call = read_compose(words) if words is not None else None
            if call is None or call.verb not in _STARTS or not call.complete:
                continue
            program = "docker-compose" if "docker-compose" in text else "docker compose"
            for path, copied in _started_files(call.files, directory, made):
                if not resolves_inside(path, top):
                    continue
                read = compose_file(path)
                if read is None or read[1]:
                    continue
                for service in read[0]:
                    found = _retagged(service, call.services, built, every, given, path.parent, top)
                    if found is None:
                        continue
                    at, ref = found
                    given[service.image or ""] = True  # (told once)
                    shown = os.path.relpath(path, directory)
                    made_at = f" (copied to {copied[1]} at line {copied[0]})" if copied else ""
                    yield Diagnostic(
                        readme,
                        at,
                        f"README builds image {ref} and then runs {program} {call.verb} (line {line}), but "
                        f"{shown}:{service.image_line}{made_at} runs service {service.name} from image "
                        f"{service.image} and builds none: nothing the README runs makes {service.image}, "
                        "and compose pulls it from Docker Hub, which has no such image",
                        confidence=LIKELY,
                    )


def _started_files(
    files: Sequence[str], directory: Path, made: dict[str, tuple[int, Path]]
) -> list[tuple[Path, tuple[int, str] | None]]:
    """The compose files a command with `files` (`-f`, none for the folder's default) reads in
    `directory`, each with (README line, name) of the `cp` that made it from an example (`made`), or
    None."""
    if files:
        return [
            (made[f][1], (made[f][0], f)) if f in made else (directory / f, None)
            for f in (name.removeprefix("./") for name in files)
        ]
    present = compose.default_files(directory)
    if present:
        return [(path, None) for path in present]
    name = next((n for n in compose.DEFAULT_FILES if n in made), None)
    return [] if name is None else [(made[name][1], (made[name][0], name))]


def _retagged(
    service: compose.Service,
    started: Sequence[str],
    built: Sequence[tuple[int, str]],
    every: Sequence[str],
    given: dict[str, bool],
    folder: Path,
    top: Path,
) -> tuple[int, str] | None:
    """(README line, reference) of the build `retagged_runs` tells against `service`, None for none;
    `given` holds the images already read (True: named elsewhere, or told)."""
    image = service.image
    if service.builds or not image or not service.image_line or _NOT_A_NAME.search(image):
        return None
    if started and service.name not in started:
        return None
    repo, tag = _reference(image)
    if "/" in repo or repo in OFFICIAL:
        return None
    same = [(at, ref) for at, ref in built if _reference(ref)[0] == repo]
    if not same or any(_NOT_A_NAME.search(ref) or _reference(ref)[1] == tag for _, ref in same):
        return None
    if image not in given:  # (each image read once, however many compose commands start it)
        written = re.compile(rf"(?<![\w./:-]){re.escape(image)}(?![\w./:-])")
        given[image] = any(written.search(t) for t in every) or _named_beside(folder, image, top)
    return None if given[image] else same[-1]


_EXTENDS = re.compile(r"^[ \t]*extends[ \t]*:", re.MULTILINE)
"""A service that takes its settings, maybe its `build:`, from another service or file."""


def _reference(image: str) -> tuple[str, str]:
    """(repository, tag) of an image reference, `latest` when it writes no tag."""
    head, _, tail = image.rpartition("/")
    name, _, tag = tail.partition(":")
    return (f"{head}/" if head else "") + name, tag or "latest"


_COMPOSE_NAME = re.compile(r"(?:^|[-_.])compose(?:[-_.][\w.-]*)?\.ya?ml$|^docker-compose[\w.-]*\.ya?ml$")
"""A compose file's name (`docker-compose.yml`, `docker-compose-dev.yml`, `compose.prod.yaml`)."""


def doubled_images(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A compose file in the README's folder whose service has no `build:` and runs an `image:` that is a
    reference the README builds (`docker build -t acme/app .`) with one part of its path written twice
    (`image: acme/acme/app`): no build makes that name, and compose pulls it from a registry that has no
    such repository (Docker Hub takes two parts). Not an image with a registry (`ghcr.io/…`), a
    variable, nor one a service of the file builds (`certain`)."""
    built: dict[str, int] = {}
    for fence in doc.fences:
        for line, text in fence.lines:
            if "build" in text:
                for tag in TAG_FLAG.findall(text):
                    if not _NOT_A_NAME.search(tag):
                        built.setdefault(_reference(tag)[0], line)
    if not built:
        return
    top = (project or directory).resolve()
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    told: set[str] = set()
    for name in names:
        path = directory / name
        if not _COMPOSE_NAME.search(name) or not os.path.isfile(path) or not resolves_inside(path, top):
            continue
        read = compose_file(path)
        if read is None or read[1]:
            continue
        made = {s.image for s in read[0] if s.builds and s.image}
        for service in read[0]:
            image = service.image
            if service.builds or not image or image in made or image in told or _NOT_A_NAME.search(image):
                continue
            repo = _reference(image)[0]
            parts = repo.split("/")
            if len(parts) < 3 or "." in parts[0] or ":" in parts[0] or parts[0] == "localhost":
                continue
            for index in range(len(parts) - 1):
                if parts[index] != parts[index + 1]:
                    continue
                meant = "/".join(parts[:index] + parts[index + 1 :])
                if meant in built:
                    told.add(image)
                    at = f"{name}:{service.image_line}" if service.image_line else name
                    yield Diagnostic(
                        readme,
                        built[meant],
                        f"README builds image {meant}, but {at} runs service {service.name} from image "
                        f"{image} ({parts[index]} written twice) and builds none: no build makes that "
                        "name, and compose pulls it from a registry instead",
                        confidence=CERTAIN,
                    )
                    break
