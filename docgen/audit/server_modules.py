"""A Python module a README's server command starts (`uvicorn embedding_api:app`, `gunicorn web:app`,
`hypercorn api:app`, `python -m service.run`) that the repository does not have, while the module is
plainly the project's own: the command fails as written.

A command is read from a command block, a code span or a prose line that is a command by itself
(`bare_commands`), up to its end (`&&`, `;`, `|`). The app of `uvicorn`, `gunicorn`, `hypercorn` or
`granian` is its first word `module:attribute` (`pkg.mod:app`, `app:create_app()`); the module of
`python -m` the word after `-m`. A module is in the repository when a file or folder of it ends with
the module's path (`embedding_api.py`, `service/run.py`, `service/run/`), at any depth: a `src/`
layout, an `--app-dir` or a `cd` first all find it. It is plainly the project's own when

- its top package is a folder of the repository that holds Python files (`service/`), but not the
  module (`service/run.py`), or
- a server command of the project (a Dockerfile's CMD, ENTRYPOINT or RUN, a compose file) starts a
  module of the repository with the same server (`uvicorn app.main:app`), and the README names the
  module only in its commands.

A module of a package the project installs is no claim: one whose top package the Dockerfiles, the
requirements, `pyproject.toml`, `setup.py` or `environment.yml` name anywhere (`fastchat`,
`vllm.entrypoints.openai.api_server`), one of Python's own (`http.server`, `pip`, `venv`), one the
README names elsewhere (a step may write or install it). A command inside a container of another image
is no claim either: a line that runs `docker`, `podman` or `kubectl`, and every line of a block after
one that enters a container (`docker run -it`, `docker exec`). A README that clones a repository (or a
Dockerfile that does) may start that repository's modules: only a top package folder of the
repository itself tells then. The finding is `certain` when the Dockerfile's own CMD or ENTRYPOINT
starts another module of the repository with the server, `likely` otherwise.

A module the repository does hold must bind the attribute (`_unbound_apps`): `serve build
fruit:deployment_graph` where `fruit.py` binds only `graph`, the `import_path:` of a Ray Serve config the
README deploys, the image's CMD or a compose `command:` the README starts (`certain`).
"""

from __future__ import annotations

import ast
import bisect
import collections
import difflib
import itertools
import os
import posixpath
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, also_at, dockerfile_read
from docgen.audit.commands import (
    TAG_FLAG,
    bare_commands,
    fence_commands,
    image_repository,
    joined,
    without_prompt,
)
from docgen.audit.references import inside
from docgen.build_scripts import BUILD, DOCKER_PODMAN, NOT_AFTER_DASH, container_command
from docgen.compose import COMPOSE_FILE
from docgen.copied import FILE_LIMIT, copied_files
from docgen.files import text_or_none
from docgen.findings import BROKEN_COMMAND
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_SERVERS = frozenset({"uvicorn", "gunicorn", "hypercorn", "granian", "daphne"})
"""ASGI and WSGI servers that take the app as `module:attribute`."""
_APP = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*)(?:\(.*)?\Z")
"""A server's app: `pkg.mod:app`, `main:create_app()`."""
_MODULE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\Z")
_PYTHON = re.compile(r"(?:[\w./-]*/)?python(?:\d(?:\.\d+)?)?\Z")
_START = re.compile(
    r"(?:[\w./-]*/)?(?:uvicorn|gunicorn|hypercorn|granian|daphne|flask|serve|python(?:\d(?:\.\d+)?)?)[ \t]"
)
"""A prose line that is a server command (`bare_commands`)."""
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_COMMAND_END = frozenset({"&&", "||", ";", "|", "&"})
_CONTAINER = re.compile(r"(?<![\w-])(?:docker|podman|kubectl|nerdctl|singularity|apptainer)(?![\w-])")
"""A line that runs a command in a container (of an image that may be any project's)."""
_ENTERS = re.compile(container_command("run|exec", DOCKER_PODMAN, start=NOT_AFTER_DASH) + r"[^#]*?[ \t]-\w*i")
"""A line that opens a shell in a container: every later line of its block runs in it."""
_CLONES = re.compile(r"\bgit[ \t]+clone\b")
_PLACEHOLDER = re.compile(r"(?i)\A(?:your|my)_?|\A(?:module|package|project|example|path)\Z")
"""A module name a reader fills in (`your_module`, `myapp`, `module`)."""
_MANIFESTS = ("pyproject.toml", "setup.py", "setup.cfg", "environment.yml", "environment.yaml", "Pipfile")
_ENTRIES_LIMIT = 20_000
"""Folders and files walked at most below the repository's root: a larger tree is not read."""
_SKIPPED = frozenset({"node_modules", "site-packages", "__pycache__", "venv", "env"})


@dataclass(frozen=True)
class _Start:
    """A module a command starts."""

    tool: str
    """`uvicorn`, `gunicorn`, `hypercorn`, `granian` or `python -m`."""
    module: str
    shown: str
    """The words as written (`uvicorn embedding_api:app`)."""
    attribute: str = ""
    """The module's attribute the tool takes (`app` of `embedding_api:app`); empty for `python -m`."""


def _starts(command: str) -> Iterator[_Start]:
    """The modules the commands of one line start (see the module's docstring)."""
    words = [w.strip("\"'`[],") for w in command.replace("`", " ").split()]
    begin = True
    for i, word in enumerate(words):
        if word in _COMMAND_END or (begin and (_ASSIGNMENT.match(word) or word.endswith(":"))):
            begin = True  # a command starts after `&&`, `VAR=x`, a compose key (`command:`)
            continue
        name = word.rsplit("/", 1)[-1]
        if _PYTHON.fullmatch(word) and i + 2 < len(words) and words[i + 1] == "-m":
            module = words[i + 2]
            if module in _SERVERS:
                yield from _app(words, i + 3, module)
            elif _MODULE.match(module):
                yield _Start("python -m", module, f"python -m {module}")
        elif name in _SERVERS and (begin or words[i - 1] in {"exec", "sudo", "nohup", "env"}):
            yield from _app(words, i + 1, name)
        elif name == "serve" and i + 1 < len(words) and words[i + 1] in _SERVE and _runs(words, i, begin):
            yield from _app(words, i + 2, f"serve {words[i + 1]}", every=True)
        elif name == "flask" and _runs(words, i, begin):
            yield from _flask_app(words, i + 1)
        begin = False


_SERVE = frozenset({"run", "build", "deploy"})
"""Ray Serve's commands that take applications as `module:attribute` (`serve build fruit:graph`)."""
_ATTRIBUTE_ONLY = frozenset({"serve run", "serve build", "serve deploy", "flask"})
"""Tools whose missing module is not told (their targets may be installed anywhere): only an attribute
the module found in the repository does not bind."""


def _runs(words: list[str], at: int, begin: bool) -> bool:
    """Whether the word at `at` is the program of a command (not an argument of another)."""
    return begin or (at > 0 and words[at - 1] in {"exec", "sudo", "nohup", "env"})


def _flask_app(words: list[str], at: int) -> Iterator[_Start]:
    """The app of `flask --app hello:app run` (`--app=`, `-A`): only a `module:attribute` one."""
    for index, word in enumerate(words[at:], start=at):
        if word in _COMMAND_END:
            return
        value = word.split("=", 1)[1] if word.startswith("--app=") else None
        if value is None and word in ("--app", "-A") and index + 1 < len(words):
            value = words[index + 1]
        if value is not None:
            if (app := _APP.match(value)) is not None:
                yield _Start("flask", app.group(1), f"flask --app {value}", app.group(2))
            return


def _app(words: list[str], at: int, tool: str, every: bool = False) -> Iterator[_Start]:
    """The module of the app a server's words from `at` give, the first `module:attribute` word (with
    `every`, each one: `serve build --multi-app a:graph b:graph`)."""
    for word in words[at:]:
        if word in _COMMAND_END:
            return
        if (app := _APP.match(word)) is not None:
            yield _Start(tool, app.group(1), f"{tool} {word}", app.group(2))
            if not every:
                return


def _readme_commands(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, command) of every command the README's blocks, code spans and prose lines give,
    but those that run in a container (see the module's docstring)."""
    for fence in doc.fences:
        inside = False
        for command in fence_commands(fence):
            text = without_prompt(joined(command).strip())
            if _ENTERS.search(text):
                inside = True
            if not inside and not _CONTAINER.search(text):
                yield command[0][0], text
    for para in doc.paragraphs:
        for line, text in para.lines:
            for _, _, span in code_spans(text):
                if not _CONTAINER.search(span):
                    yield line, span
    for line, text in bare_commands(doc, _START):
        if not _CONTAINER.search(text):
            yield line, text


def _modules(root: Path) -> tuple[set[str], set[str], dict[str, list[Path]]] | None:
    """The modules of the tree at `root`, each under every dotted tail of its path (`app/main.py` is
    `main` and `app.main`), the folders holding a Python file by name, and the files of each dotted
    tail (a package's `__init__.py`, its folder when it has none); None when the tree is larger than
    `_ENTRIES_LIMIT`."""
    modules: set[str] = set()
    packages: set[str] = set()
    paths: dict[str, list[Path]] = {}
    walked = 0
    for top, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in _SKIPPED)
        walked += len(folders) + len(files)
        if walked > _ENTRIES_LIMIT:
            return None
        parts = Path(top).relative_to(root).parts
        python = [f[:-3] for f in files if f.endswith(".py")]
        if python and parts:
            packages.add(parts[-1])
            modules.update(".".join(parts[i:]) for i in range(len(parts)))
            if "__init__" not in python:
                for i in range(len(parts)):
                    paths.setdefault(".".join(parts[i:]), []).append(Path(top))
        for name in python:
            path = (*parts, name) if name != "__init__" else parts
            modules.update(".".join(path[i:]) for i in range(len(path)))
            for i in range(len(path)):
                paths.setdefault(".".join(path[i:]), []).append(Path(top) / f"{name}.py")
    return modules, packages, paths


def _project_starts(
    models: Sequence[ImageModel], root: Path, directory: Path
) -> list[tuple[_Start, str, int, bool]]:
    """(start, file shown, line, is the image's own command) of each server command of the project:
    the Dockerfiles' CMD, ENTRYPOINT and RUN, and the compose files of the README's folder and root."""
    found: list[tuple[_Start, str, int, bool]] = []
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            continue
        for instruction in read[1].instructions:
            if instruction.keyword in {"CMD", "ENTRYPOINT", "RUN"}:
                text = " ".join(instruction.exec_form) if instruction.exec_form else instruction.args
                own = instruction.keyword != "RUN"
                found += ((s, model.path, instruction.start_line, own) for s in _starts(text))
    for folder in dict.fromkeys((directory, root)):
        for compose in sorted(folder.iterdir()) if os.path.isdir(folder) else ():
            if COMPOSE_FILE.fullmatch(compose.name) and (written := text_or_none(compose)) is not None:
                for number, line in enumerate(written.splitlines(), 1):
                    found += ((s, compose.name, number, False) for s in _starts(line.strip(" -[]\"'")))
    return found


def _installed(root: Path, directory: Path, models: Sequence[ImageModel]) -> str:
    """The text that names what the project installs: its Dockerfiles, requirements and manifests."""
    texts = [r[0] for m in models if m.file and (r := dockerfile_read(m.file)) is not None]
    for folder in dict.fromkeys((directory, root)):
        for file in sorted(folder.iterdir()) if os.path.isdir(folder) else ():
            if file.name in _MANIFESTS or (file.name.startswith("requirements") and file.suffix == ".txt"):
                texts.append(text_or_none(file) or "")
    return "\n".join(texts)


_RUN = re.compile(r"[\w./-]+")
_SEGMENT = re.compile(r"[./]")


def _within(spans: list[tuple[int, int]], line: int) -> bool:
    """True when `line` is in one of the sorted, disjoint (first, past the last) `spans`."""
    at = bisect.bisect_right(spans, (line, 10**9)) - 1
    return at >= 0 and spans[at][0] <= line < spans[at][1]


class _Names:
    """How often a text names each module as a word (`app` in `uvicorn app.main:api`, `app/`), and, with
    `as_package`, each package of pip (`-` and `_` alike: `sentence_transformers` is
    `sentence-transformers`), case aside. The text is read once: a README starting thousands of
    modules is not searched again for each."""

    def __init__(self, text: str) -> None:
        self._words: collections.Counter[str] = collections.Counter()
        self._packages: collections.Counter[str] = collections.Counter()
        for run in _RUN.findall(text):
            low = run.lower()
            self._words[_SEGMENT.split(low, maxsplit=1)[0]] += 1
            self._packages[low.replace("-", "_")] += 1

    def count(self, name: str, as_package: bool = False) -> int:
        """How often the text names module `name` (a word followed by no letter, digit, `_` or `-`);
        with `as_package`, package `name` (a whole word, not a folder: `COPY app/ .`)."""
        low = name.lower()
        return self._packages[low.replace("-", "_")] if as_package else self._words[low]


def server_modules(
    doc: Document,
    text: str,
    models: Sequence[ImageModel],
    readme: str,
    directory: Path,
    project: Path | None,
) -> Iterator[Diagnostic]:
    """One finding per module a README's server command starts that the repository does not have
    while it is plainly the project's own (see the module's docstring)."""
    starts: dict[tuple[str, str], tuple[_Start, list[int]]] = {}
    apps: dict[tuple[str, str], tuple[_Start, list[int]]] = {}
    configs: list[tuple[int, str]] = []  # (README line, config file a `serve deploy|run` reads)
    said: list[str] = []  # every start as written, as often as the README writes it
    yield from _misplaced_apps(doc, text, models, readme)
    for line, command in _readme_commands(doc):
        for start in _starts(command):
            said.append(start.shown)
            if not _PLACEHOLDER.search(start.module.split(".", 1)[0]):
                starts.setdefault((start.tool, start.module), (start, []))[1].append(line)
                if start.attribute and not _PLACEHOLDER.search(start.attribute):
                    apps.setdefault((start.module, start.attribute), (start, []))[1].append(line)
        configs += ((line, m.group(1)) for m in _SERVE_CONFIG.finditer(command))
    root = project if project is not None else directory
    started = _project_starts(models, root, directory) if _runs_any(text) else []
    if not starts and not configs and not any(s.attribute for s, *_ in started):
        return
    tree = _modules(root)
    if tree is None:
        return
    modules, packages, files = tree
    if not modules:
        return
    yield from _unbound_apps(apps, configs, files, readme, directory, root)
    yield from _unbound_project_apps(doc, [p for p in started if p[0].module in modules], files, readme, root)
    if not starts:
        return
    project_starts = [p for p in _project_starts(models, root, directory) if p[0].module in modules]
    installed = _installed(root, directory, models)
    cloned = _CLONES.search(text) is not None or _CLONES.search(installed) is not None
    in_installs, in_text, in_starts = _Names(installed), _Names(text), _Names(" ".join(said))
    for (tool, module), (start, written) in starts.items():
        lines = sorted(set(written))
        top = module.split(".", 1)[0]
        if module in modules or tool in _ATTRIBUTE_ONLY:
            continue
        if top in sys.stdlib_module_names or top in _SERVERS | {"pip"}:
            continue
        if in_installs.count(top, as_package=True):
            continue  # a package the project installs
        if top in packages:
            others: list[tuple[_Start, str, int, bool]] = []
        elif cloned or in_text.count(top) > in_starts.count(top):
            continue  # a module of a clone, or one the README writes or installs
        else:
            others = [p for p in project_starts if p[0].tool == tool and p[0].module != module]
            if tool not in _SERVERS or not others:
                continue  # `python -m` of a package not in the repository: installed anywhere
        own = [p for p in others if p[3]]
        if own:
            other, where, at, _ = own[0]
            runs = f": {where}:{at} runs {other.shown.split(' ', 1)[1]}"
        elif others:
            other, where, at, _ = others[0]
            runs = f": {where}:{at} runs {other.shown.split(' ', 1)[1]}"
        else:
            runs = f": package {top} has no {module.split('.', 1)[1].replace('.', '/')}.py"
        yield Diagnostic(
            readme,
            lines[0],
            f"README runs `{start.shown}`, but the repository has no module {module}{runs}{also_at(lines)}",
            confidence=CERTAIN if own else LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# An app the module the README's command starts does not bind

_SERVE_CONFIG = re.compile(
    r"(?<![\w-])serve[ \t]+(?:deploy|run)[ \t]+(?:-\S+[ \t]+)*([\w./-]+\.ya?ml)(?![\w.-])"
)
"""`serve deploy fruit.yaml`: a Ray Serve config file whose `import_path:` entries are started."""
_IMPORT_PATH = re.compile(
    r"^[ \t-]*import_path:[ \t]*[\"']?([A-Za-z_][\w.]*:[A-Za-z_]\w*)[\"']?[ \t]*(?:#.*)?$"
)
"""A Ray Serve config's application: `import_path: fruit:graph`."""
_APP_MAKERS = re.compile(
    r"(?:\.bind|FastAPI|Flask|Starlette|Quart|Sanic|Litestar|get_[aw]sgi_application|App|Application"
    r"|(?:create|make|build|get)_app)\Z"
)
"""A call making an app (`DAGDriver.bind(…)`, `FastAPI()`): the binding a finding names as the one meant."""
_SOURCE_LIMIT = 1_000_000


def _bound(path: Path) -> dict[str, tuple[int, bool]] | None:
    """name → (line, made by an app-making call) of each name the module at `path` binds at its top
    level (assigned, imported, defined, declared `global` anywhere), in any branch; None when it cannot
    be read or may bind names another way (`from x import *`, a module `__getattr__`, `globals()`)."""
    if path.name != "__init__.py" and not path.name.endswith(".py"):
        return None  # a package without `__init__.py`: its attributes are its modules
    source = text_or_none(path, _SOURCE_LIMIT)
    if source is None or re.search(r"\b(?:globals|vars|setattr|__getattr__|exec)\b", source):
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    names: dict[str, tuple[int, bool]] = {}
    top = {id(statement) for statement in tree.body}
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.setdefault(node.name, (node.lineno, False))
            for inner in ast.walk(node):
                if isinstance(inner, ast.Global):
                    names.update((n, (inner.lineno, False)) for n in inner.names)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.setdefault(alias.asname or alias.name.split(".", 1)[0], (node.lineno, False))
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names[node.id] = (node.lineno, names.get(node.id, (0, False))[1])
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made = id(node) in top and _APP_MAKERS.search(ast.unparse(node.value.func)) is not None
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = (node.lineno, made)
        pending.extend(ast.iter_child_nodes(node))
    return names


def _unbound_apps(
    apps: dict[tuple[str, str], tuple[_Start, list[int]]],
    configs: list[tuple[int, str]],
    files: dict[str, list[Path]],
    readme: str,
    directory: Path,
    root: Path,
) -> Iterator[Diagnostic]:
    """A `module:attribute` a README's command starts (`serve build fruit:deployment_graph`, `uvicorn
    main:api`, `flask --app web:app`), or one a Ray Serve config file the README deploys gives
    (`import_path:`), whose module is in the repository and binds no such name at its top level: the
    command fails importing it (`certain`). Silent when a module of that name may bind it another way
    (`_bound`: None) or any file of that module binds it."""
    for (module, attribute), (start, written) in apps.items():
        said = _unbound(module, attribute, files, root)
        if said is not None:
            lines = sorted(set(written))
            yield Diagnostic(
                readme,
                lines[0],
                f"README runs `{start.shown}`, but {said}{also_at(lines)}",
                confidence=CERTAIN,
            )
    told: set[tuple[int, str]] = set()
    for line, name in configs:
        config = inside(Path(os.path.abspath(directory / name)), Path(os.path.abspath(root)))
        text = text_or_none(config) if config is not None and os.path.isfile(config) else None
        for number, entry in enumerate((text or "").splitlines(), 1):
            found = _IMPORT_PATH.match(entry)
            if found is None or (line, found.group(1)) in told:
                continue
            module, attribute = found.group(1).split(":")
            said = _unbound(module, attribute, files, root)
            if said is not None:
                told.add((line, found.group(1)))
                yield Diagnostic(
                    readme,
                    line,
                    f"README deploys {name}, whose import_path ({name}:{number}) is {found.group(1)}, "
                    f"but {said}",
                    confidence=CERTAIN,
                )


_RUNS_IMAGE = re.compile(container_command("run", DOCKER_PODMAN, start=NOT_AFTER_DASH))
_ENGINE = re.compile(r"\b(?:docker|podman)\b")
_RUN_WORD = re.compile(r"\b(?:run|up)\b")


def _runs_any(text: str) -> bool:
    """Whether a line of `text` has `run` or `up` after `docker` or `podman`: a README that may start the
    image or the compose services (`_RUNS_IMAGE`, `_RUNS_COMPOSE` tell). After the line's first
    `docker` only: a line of thousands of `docker build` is not read again from each of them."""
    for line in text.split("\n"):
        engine = _ENGINE.search(line)
        if engine is not None and _RUN_WORD.search(line, engine.end()):
            return True
    return False


_RUNS_COMPOSE = re.compile(
    r"(?<![\w-])(?:docker[ \t]+compose|docker-compose|podman-compose)[ \t]+(?:-\S+[ \t]+\S+[ \t]+)*up\b"
)


def _unbound_project_apps(
    doc: Document,
    project_starts: list[tuple[_Start, str, int, bool]],
    files: dict[str, list[Path]],
    readme: str,
    root: Path,
) -> Iterator[Diagnostic]:
    """The image's own CMD or ENTRYPOINT, or a compose file's `command:`, starting a `module:attribute`
    of the repository that binds no such name, told at the README's first `docker run` (for the image)
    or `docker compose up` (for the compose file): the container the README starts fails at once."""
    runs: dict[str, int] = {}
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = joined(command)
            if _RUNS_IMAGE.search(text):
                runs.setdefault("image", command[0][0])
            if _RUNS_COMPOSE.search(text):
                runs.setdefault("compose", command[0][0])
    told: set[tuple[str, str]] = set()
    for start, where, at, own in project_starts:
        kind = "image" if own else "compose" if COMPOSE_FILE.fullmatch(where) else ""
        line = runs.get(kind)
        if line is None or not start.attribute or (start.module, start.attribute) in told:
            continue
        said = _unbound(start.module, start.attribute, files, root)
        if said is None:
            continue
        told.add((start.module, start.attribute))
        yield Diagnostic(
            readme,
            line,
            f"README starts the {'image' if own else 'compose services'}, whose {where}:{at} runs "
            f"`{start.shown}`, but {said}",
            confidence=CERTAIN,
        )


def _unbound(module: str, attribute: str, files: dict[str, list[Path]], root: Path) -> str | None:
    """What the repository says when no file of `module` binds `attribute` (`fruit.py binds no
    deployment_graph: fruit.py:98 binds graph`); None when one does or may, or binds no name at all."""
    candidates = files.get(module, [])
    if not candidates:
        return None
    read = [(path, _bound(path)) for path in candidates]
    if any(not names or attribute in names for _, names in read):
        return None  # one may bind it, or one binds nothing at all (an empty `__init__.py`)
    path, names = read[0]
    assert names is not None
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    close = difflib.get_close_matches(attribute, sorted(names), n=1, cutoff=0.6)
    made = sorted((line, n) for n, (line, app) in names.items() if app)
    meant = close[0] if close else made[-1][1] if made else None  # the last app made: the one served
    hint = f": {shown}:{names[meant][0]} binds {meant}" if meant else ""
    return f"{shown} binds no {attribute}{hint}"


_IMAGE_SERVERS = frozenset({"uvicorn", "gunicorn", "hypercorn"})
"""The servers whose app an image's command names by a module path read from its working folder."""
_ELSEWHERE = re.compile(r"--(?:app-dir|chdir|pythonpath|paste)\b")
"""A server option that reads the app from another folder than the working one."""
_INSTALLS_PROJECT = re.compile(
    r"\bpip3?[ \t]+install\b[^&|;\n]*?[ \t](?:-e[ \t]+)?(?:\.|/[\w./-]*)(?:\[[\w,-]+\])?(?=[ \t]|$)"
    r"|\b(?:poetry[ \t]+install|uv[ \t]+sync|pdm[ \t]+install|setup\.py[ \t]+(?:install|develop))\b"
)
"""A RUN that installs a local project: its packages import from anywhere."""
_MOVES = re.compile(r"\b(?:mv|cp|ln|rsync|git[ \t]+clone|tar|unzip)\b")
"""A RUN that may put the app's module in place by itself."""
_DOCKER_WORD = re.compile(r"(?i)\bdocker(?:ized|file|[ \t-]compose)?\b")
_REQUEST = re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})\b")
_PORT_WORD = re.compile(r"(?:--port|-p)[ =]?(\d{2,5})\Z|(?:--bind|-b)[ =]?[\w.]*:(\d{2,5})\Z")


def _image_app(words: list[str]) -> tuple[str, str, str] | None:
    """(server, module, port) of the server an image's command starts with an app `module:attribute`
    (`uvicorn app.main:app --port 8000`, `python -m gunicorn -b :8080 web.wsgi:application`); None when
    there is none, or the command reads the app from elsewhere (`--app-dir`, `--chdir`) or a variable."""
    if any("$" in w or _ELSEWHERE.match(w) for w in words):
        return None
    for at, word in enumerate(words):
        tool = word.rsplit("/", 1)[-1]
        if tool not in _IMAGE_SERVERS:
            continue
        app = next((m for w in words[at + 1 :] if (m := _APP.match(w.strip("\"'"))) is not None), None)
        if app is None:
            return None
        joined_words = " ".join(words[at + 1 :])
        port = next(
            (
                found.group(1) or found.group(2)
                for w in re.split(r"[ \t]+(?=-)", joined_words)
                if (found := _PORT_WORD.search(w.strip())) is not None
            ),
            "",
        )
        return tool, app.group(1), port
    return None


def _misplaced_apps(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """The image's own command (its target's last ENTRYPOINT and CMD) starting a server on an app
    `module:attribute` (`uvicorn app.main:app`) that the image cannot import from its WORKDIR, while a
    COPY of the build context puts the module's file elsewhere: `COPY app/ /app` then `WORKDIR /app`
    gives /app/main.py, and `app.main` needs /app/app/main.py. The server stops at its start and the
    container with it. Told at the README's first `docker run` (`certain`), else, in a README that
    speaks of Docker, at its first request to the port the command serves on (`curl
    localhost:8000/…`, `likely`: the request may be to a server run otherwise).

    Silent: a command that reads the app from elsewhere (`--app-dir`, `--chdir`) or with a variable, an
    image that sets PYTHONPATH or installs a local project (`pip install .`, `poetry install`), a module
    the copies do put under the WORKDIR, one whose file the build context does not hold at its module
    path (a partial copy, a package installed from an index)."""
    runs = None
    built: set[str] = set()  # the names the README's builds tag
    for fence in doc.fences:
        for command in fence_commands(fence):
            said = joined(command)
            if BUILD.search(said):  # (the names a build tags, their tags left off)
                built.update(image_repository(m.group(1)) for m in TAG_FLAG.finditer(said))
            run = _RUNS_IMAGE.search(said)
            if (
                runs is None
                and run is not None
                and any(
                    re.search(r"(?<![\w./-])" + re.escape(name) + r"(?![\w./-])", said[run.end() :])
                    for name in built
                )
            ):
                runs = command[0][0]
    if runs is None and not _DOCKER_WORD.search(text):
        return
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            continue
        # the lines each stage of the chain spans: from its FROM to the next stage's
        chain = model.chain()
        lines = sorted(s.line for s in model.stages)
        spans = sorted(
            (stage.line, lines[at] if (at := bisect.bisect_right(lines, stage.line)) < len(lines) else 10**9)
            for stage in chain
        )
        steps = [i for i in read[1].instructions if _within(spans, i.start_line)]
        starts = [i for i in steps if i.keyword in ("ENTRYPOINT", "CMD")]
        if not starts or any(
            i.keyword == "RUN" and _MOVES.search(i.args) or i.keyword == "COPY" and i.flags_named("from")
            for i in steps
        ):
            continue
        if any(
            i.keyword == "ENV"
            and "PYTHONPATH" in i.args
            or i.keyword == "RUN"
            and _INSTALLS_PROJECT.search(i.args)
            for i in steps
        ):
            continue
        cmd = starts[-1]
        words: list[str] = []
        for last in (
            [e for e in starts if e.keyword == "ENTRYPOINT"][-1:],
            [cmd] if cmd.keyword == "CMD" else [],
        ):
            for i in last:
                words += list(i.exec_form) if i.exec_form is not None else i.args.split()
        started = _image_app(words)
        if started is None:
            continue
        tool, module, port = started
        workdir, at_copy = "/", {}
        for step in steps:
            if step.keyword == "WORKDIR":
                value = step.args.strip().strip("\"'")
                if "$" in value:
                    workdir = ""
                    break
                workdir = posixpath.normpath(posixpath.join(workdir, value))
            at_copy[step.start_line] = workdir
        if not workdir:
            continue
        root = Path(model.file).parent.resolve()
        indexes = {stage.index for stage in chain}
        copies = [c for c in model.context_copies if c.stage in indexes]
        parts = module.split(".")
        wanted = {
            posixpath.join(workdir, *parts) + ".py",
            posixpath.join(workdir, *parts, "__init__.py"),
        }
        below = posixpath.join(workdir, *parts[:1])
        sources = {root.joinpath(*parts[:-1], parts[-1] + ".py"), root.joinpath(*parts, "__init__.py")}
        moved: tuple[str, str, int] | None = None
        held = False
        for copied in itertools.islice(copied_files(root, copies, model.file), FILE_LIMIT):
            if copied.path is None:
                continue
            place = posixpath.normpath(posixpath.join(at_copy.get(copied.line, "/"), copied.dest))
            if place in wanted or place == below + ".py" or place.startswith(below + "/"):
                held = True
                break
            if moved is None and copied.path in sources:
                moved = (copied.path.relative_to(root).as_posix(), place, copied.line)
        if held or moved is None:
            continue
        file, place, line = moved
        meant = posixpath.join(workdir, file)
        said = (
            f"runs `{tool} {module}:{_attribute(words, module)}` from WORKDIR {workdir}, but the COPY of "
            f"line {line} puts {file} at {place}, not {meant}: the server cannot import {module} and the "
            "container stops"
        )
        shown = f"{model.path}:{cmd.start_line}"
        if runs is not None:
            yield Diagnostic(
                readme,
                runs,
                f"README starts the image, whose {shown} {said}",
                confidence=CERTAIN,
                rule=BROKEN_COMMAND,
            )
            continue
        written = [*(x for p in doc.paragraphs for x in p.lines), *(x for f in doc.fences for x in f.lines)]
        lines = sorted(
            n for n, said_line in written if any(m.group(1) == port for m in _REQUEST.finditer(said_line))
        )
        if not port or not lines:
            continue
        request = lines[0]
        yield Diagnostic(
            readme,
            request,
            f"README sends a request to port {port}, which the image's {shown} serves with "
            f"`{tool} {module}:{_attribute(words, module)}` " + said.split("` ", 1)[1],
            confidence=LIKELY,
            rule=BROKEN_COMMAND,
        )


def _attribute(words: list[str], module: str) -> str:
    """The attribute the command's `module:attribute` names."""
    return next((w.split(":", 1)[1] for w in words if w.startswith(module + ":")), "app")
