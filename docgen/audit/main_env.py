"""Environment variables a README tells the user to set for the container that the image's Python app
reads only in code the container never runs.

```
CMD ["uvicorn", "app:app", "--host", "0.0.0.0", "--port", "8080"]

# app.py
app = FastAPI()
def main():
    uvicorn.run(app, host=os.environ.get("SERVER_HOST", "0.0.0.0"))
if __name__ == "__main__":
    main()
```

An ASGI or WSGI server (`uvicorn`, `gunicorn`, `hypercorn`, `granian`, also as `python -m uvicorn`,
behind `uv run`, `poetry run`, `tini --`, `exec`) imports the app's module by its `module:attr` word: the
module's `if __name__ == "__main__":` block does not run, nor a function only that block (or a console
script of `pyproject.toml`, `[project.scripts]`) calls, directly or through other such functions. A
variable the module reads (`os.getenv("X")`, `os.environ.get("X")`, `os.environ["X"]`, `"X" in
os.environ`) only there is never read in the container: a README that passes it with `-e NAME=…` in a
`docker run` of the image it builds, or documents it in a table of environment variables, promises a
setting that changes nothing (`certain`, read from the command or the table; an item of a list under a
heading about environment variables: `likely`).

The module is the file the image has at the `module:attr` word's path from the container's working
folder (its last WORKDIR, or `--app-dir` / `--chdir`), found through the COPY that puts it there, read
with `ast` (never run or imported), up to `_SOURCE_LIMIT` characters.

Silent when the variable may be read after all: by a read of the module outside that code (at import, in
a route, in a decorated function, a method, a function nothing or something else calls), by any other file
the image copies in (a config module, `gunicorn.conf.py`, a script) or a RUN, CMD, ENTRYPOINT or
HEALTHCHECK naming it, by the server or a library (`UVICORN_*`, `GUNICORN_CMD_ARGS`, `WEB_CONCURRENCY`,
`PORT`, `HF_TOKEN`, `CUDA_*` …); when the module reads the environment in ways not followed (a name that
is no literal, `os.environ` passed or copied whole, a settings library: pydantic's `BaseSettings`,
`environs`, `decouple`, click's `envvar`); when the container starts something else (an ENTRYPOINT
script, a shell, a chain of commands, a `docker run` with its own command or `--entrypoint`); and, for a
table or list, when the README or a platform file beside it (compose, Procfile, `railway.json` …) runs the
module as a script (`python app.py`, `python -m app`, its console script), where the variable works.
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import clipped
from docgen.audit.exec_vars import documented_env, passed_env
from docgen.audit.script_args import is_main_test
from docgen.config import parse_toml
from docgen.copied import copied_texts, dockerignore, placed
from docgen.errors import DocgenError
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Setting
from docgen.shell import referenced_names

_SOURCE_LIMIT = 1_000_000
"""Characters of the app's module read at most: a larger one is not parsed."""
_WRAPPERS = frozenset("exec tini -- dumb-init uv poetry pipenv pdm rye hatch run env".split())
"""Words that start the next word's program in the same process or as its only child, passing the
environment on (`uv run uvicorn …`, `tini -- uvicorn …`)."""
_CHAINS = frozenset({"&&", "||", ";", "|", "&"})
_LIBRARY = re.compile(
    r"\A(?:UVICORN|GUNICORN|HYPERCORN|GRANIAN|FORWARDED_ALLOW_IPS\Z|WEB_CONCURRENCY\Z|PORT\Z|HOST\Z"
    r"|CUDA|NVIDIA|HIP|ROCR|ROCM|HSA|HF|HUGGING_?FACE|TRANSFORMERS|TOKENIZERS|VLLM|SGLANG|NCCL|OMP|MKL|TORCH"
    r"|PYTORCH|TF|XLA|JAX|PYTHON|LD|OPENAI|ANTHROPIC|AWS|GOOGLE|AZURE|HTTPS?|NO|PIP|UV|CONDA|NODE|JAVA|SSL"
    r"|REQUESTS|CURL|GRADIO|STREAMLIT|FASTAPI|FLASK|DJANGO|SENTRY|OTEL|LOG_LEVEL\Z)(?:_|\Z)"
    r"|\A(?:PATH|HOME|USER|LANG|TZ|TERM|SHELL|PWD|HOSTNAME)\Z"
)
"""Variables the server, a runtime or a library reads itself: setting one may work whatever the module
does."""
_SETTINGS_LIBRARIES = re.compile(
    r"\bBaseSettings\b|\benvirons\b|\bdecouple\b|\benvvar\b|auto_envvar_prefix|\bdynaconf\b|\benvparse\b"
    r"|\bpydantic_settings\b|\bconfig_from_env\b|\bos\.environ\.copy\b"
)
"""A module reading the environment through a library (fields named after the variables)."""
_PLATFORM_FILES = re.compile(
    r"(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml|Procfile|railway\.(?:json|toml)|fly\.toml|render\.ya?ml"
    r"|app\.json|app\.ya?ml|koyeb\.ya?ml|Makefile|[\w.-]+\.sh",
    re.IGNORECASE,
)
"""Files beside the README or the Dockerfile that may start the app another way."""


_DOCUMENT = re.compile(
    r"\.(?:md|markdown|rst|adoc|txt|html?)\Z|\A(?:README|CHANGELOG|LICENSE)", re.IGNORECASE
)
"""Documents a `COPY . .` brings along (the README itself): they read no variable."""


@dataclass(frozen=True)
class _Served:
    """The app module a container of the image imports through a server."""

    shown: str
    """The server and its app word (`uvicorn app:app`)."""
    module: str
    """The module's dotted name (`app`, `api.main`)."""
    attr: str
    """The attribute the server takes (`app`, `create_app`); empty for `fastapi run`."""
    setting: Setting
    """The CMD or ENTRYPOINT holding the app word."""
    where: str
    """The module's path in the image (`/app/app.py`)."""


def _started(model: ImageModel) -> tuple[Setting | None, Setting | None]:
    """The last ENTRYPOINT and CMD of the image's target and the stages it is built on."""
    labels = {stage.label for stage in model.chain()}
    last: dict[str, Setting] = {}
    for setting in model.settings:
        if setting.keyword in ("ENTRYPOINT", "CMD") and setting.stage in labels:
            last[setting.keyword] = setting
    return last.get("ENTRYPOINT"), last.get("CMD")


def work_dir_at(model: ImageModel, before: int) -> str | None:
    """The working folder of the target's chain at Dockerfile line `before` (its WORKDIRs up to there);
    None when one is a variable."""
    labels = {stage.label for stage in model.chain()}
    where = "/"
    for setting in model.settings:
        if setting.keyword != "WORKDIR" or setting.stage not in labels or setting.line > before:
            continue
        value = setting.value.strip().strip("\"'")
        if "$" in value or not value:
            return None
        where = posixpath.normpath(posixpath.join(where, value))
    return where


def _words(setting: Setting) -> list[str] | None:
    """The words of an ENTRYPOINT or CMD: its exec form, or its shell form split on blanks when it holds
    no quotes, substitution or redirection (a plain command line)."""
    if setting.exec_form is not None:
        return list(setting.exec_form)
    if re.search(r"[\"'`\\<>()]|\$\(", setting.value):
        return None
    return setting.value.split()


_SERVERS = frozenset({"uvicorn", "gunicorn", "hypercorn", "granian"})
"""ASGI and WSGI servers that take the app as `module:attribute`."""
_APP = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):[A-Za-z_]\w*(?:\(.*\))?")
"""A server's app word: `pkg.mod:app`, `main:create_app()`."""
_PYTHON = re.compile(r"(?:.*/)?python[\d.]*")


def served(model: ImageModel) -> _Served | None:
    """The app module the container of `model` starts through a server, when the server is all it
    starts (see the module docstring)."""
    entry, cmd = _started(model)
    if entry is not None and entry.exec_form is None:
        cmd = None  # a shell-form ENTRYPOINT ignores CMD
    words: list[tuple[str, Setting]] = []
    for setting in (entry, cmd):
        if setting is None:
            continue
        read = _words(setting)
        if read is None:
            return None
        words += ((word, setting) for word in read)
    plain = [w for w, _ in words]
    if not plain or any(w in _CHAINS for w in plain):
        return None
    at = 0
    while at < len(plain) and posixpath.basename(plain[at]) not in _SERVERS | {"fastapi"}:
        word = plain[at]
        if _PYTHON.fullmatch(word) and at + 1 < len(plain) and plain[at + 1] == "-m":
            at += 2
            continue
        if posixpath.basename(word) not in _WRAPPERS and not word.startswith("-"):
            return None  # another program (a script, a shell) starts first
        at += 1
    if at >= len(plain):
        return None
    program = posixpath.basename(plain[at])
    rest = plain[at + 1 :]
    if program == "fastapi":
        if len(rest) < 2 or rest[0] not in ("run", "dev") or not rest[1].endswith(".py") or "$" in rest[1]:
            return None
        index = at + 2
        module, path, attr = rest[1][:-3].replace("/", "."), rest[1], ""
    else:
        found = next(((i, w) for i, w in enumerate(rest) if _APP.fullmatch(w)), None)
        if found is None:
            return None
        index = at + 1 + found[0]
        module = _APP.fullmatch(found[1]).group(1)  # type: ignore[union-attr]
        attr = found[1].split(":", 1)[1].split("(", 1)[0]
        path = module.replace(".", "/") + ".py"
    holder = words[index][1]
    folder = work_dir_at(model, holder.line)
    if folder is None:
        return None
    for option in ("--app-dir", "--chdir"):
        if option in rest:
            given = rest.index(option)
            if given + 1 >= len(rest) or "$" in rest[given + 1]:
                return None
            folder = posixpath.normpath(posixpath.join(folder, rest[given + 1]))
    shown = f"{program} {plain[index]}" if program != "fastapi" else f"fastapi {rest[0]} {rest[1]}"
    return _Served(shown, module, attr, holder, posixpath.normpath(posixpath.join(folder, path)))


def context_file_at(model: ImageModel, where: str) -> Path | None:
    """The build-context file a COPY of the target's chain puts at `where` in the image (the latest
    that does); None when none does."""
    if not model.file:
        return None
    indexes = {stage.index for stage in model.chain()}
    try:
        context = Path(model.file).parent.resolve()
        rules = dockerignore(context, model.file)
    except (OSError, RuntimeError):
        return None
    for copy in sorted(model.context_copies, key=lambda c: c.line, reverse=True):
        if copy.stage not in indexes:
            continue
        workdir = work_dir_at(model, copy.line)
        if workdir is None:
            return None
        try:
            found = placed(context, copy, where, workdir, rules)
        except (OSError, ValueError, NotImplementedError):
            return None
        if found is not None:
            return found if os.path.isfile(found) else None
    return None


# --------------------------------------------------------------------------------------------------
# the module, read with `ast`


def _is_environ(node: ast.expr) -> bool:
    """`os.environ` or a bare `environ`."""
    return (
        isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name)
    ) or (isinstance(node, ast.Name) and node.id == "environ")


def _is_getenv(node: ast.expr) -> bool:
    """`os.getenv`, a bare `getenv`, `os.environ.get` (`.setdefault`, `.pop`)."""
    if isinstance(node, ast.Name):
        return node.id == "getenv"
    if isinstance(node, ast.Attribute):
        if node.attr == "getenv" and isinstance(node.value, ast.Name):
            return True
        return node.attr in ("get", "setdefault", "pop") and _is_environ(node.value)
    return False


class _Reads(ast.NodeVisitor):
    """The environment reads of one region of a module and the names it refers to."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, int]] = []
        self.names: set[str] = set()
        self.unknown = False
        """True when the region reads the environment in a way not followed."""

    def visit_Call(self, node: ast.Call) -> None:
        if _is_getenv(node.func):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self.reads.append((first.value, node.lineno))
            else:
                self.unknown = True
            for arg in node.args[1:]:
                self.visit(arg)
            for keyword in node.keywords:
                self.visit(keyword.value)
            if isinstance(node.func, ast.Attribute) and not _is_environ(node.func.value):
                self.visit(node.func.value)
            return
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if _is_environ(node.value):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                if isinstance(node.ctx, ast.Load):
                    self.reads.append((key.value, node.lineno))
            else:
                self.unknown = True
            return
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        if any(_is_environ(c) for c in node.comparators) and isinstance(node.left, ast.Constant):
            if isinstance(node.left.value, str):
                self.reads.append((node.left.value, node.lineno))
            return
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _is_environ(node):
            self.unknown = True  # `os.environ` passed, copied or walked whole
            return
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id == "environ":
            self.unknown = True
        elif isinstance(node.ctx, ast.Load):
            self.names.add(node.id)


@dataclass(frozen=True)
class MainRead:
    """A variable the module reads only in code an import does not run."""

    line: int
    """The first line reading it."""
    where: str
    """What holds that code (`its if __name__ == "__main__" block (line 84)`, `main() (line 59), which
    only its __main__ block calls`)."""


def _regions(tree: ast.Module) -> tuple[dict[str, _Reads], dict[str, int], int] | None:
    """The reads of each region of the module `tree`: import-time code (`""`), its `__main__` blocks
    (`"__main__"`), each undecorated top-level function (by name); with the functions' lines and the
    first `__main__` block's line. None when a function is defined twice."""
    regions: dict[str, _Reads] = {"": _Reads(), "__main__": _Reads()}
    defined: dict[str, int] = {}
    main_line = 0
    for node in tree.body:
        if isinstance(node, ast.If) and is_main_test(node.test):
            main_line = main_line or node.lineno
            for statement in node.body:
                regions["__main__"].visit(statement)
            for statement in node.orelse:
                regions[""].visit(statement)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list:
            if node.name in defined or node.name in ("", "__main__"):
                return None  # defined twice: which one runs is not followed
            defined[node.name] = node.lineno
            region = regions.setdefault(node.name, _Reads())
            for statement in node.body:
                region.visit(statement)
            for default in (*node.args.defaults, *node.args.kw_defaults):
                if default is not None:
                    regions[""].visit(default)  # evaluated at import
        else:
            regions[""].visit(node)
    return regions, defined, main_line


def main_only_reads(
    source: str, entries: frozenset[str] = frozenset(), served: str = ""
) -> dict[str, MainRead]:
    """NAME → where the module `source` reads it, for each variable it reads only in its `if __name__ ==
    "__main__":` blocks or in top-level functions only those blocks, the console-script functions
    `entries` or other such functions call (`served`, the attribute the server takes, `create_app` of
    `module:create_app()`, is called by the server); {} when the module does not parse, is too large, or reads
    the environment in a way not followed outside that code."""
    if len(source) > _SOURCE_LIMIT or _SETTINGS_LIBRARIES.search(source):
        return {}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return {}
    try:
        read = _regions(tree)
    except RecursionError:  # nesting deeper than the walk follows
        return {}
    if read is None:
        return {}
    regions, defined, main_line = read
    if not main_line and not entries & set(defined):
        return {}
    if served:
        regions[""].names.add(served)  # the server calls an app factory itself
    # the functions import-time code reaches, and those the __main__ block or a console script reaches
    live = _reached({""}, regions, defined)
    started = (entries & set(defined)) | _reached({"__main__"} | (entries & set(defined)), regions, defined)
    if regions[""].unknown or any(regions[f].unknown for f in live):
        return {}
    found: dict[str, MainRead] = {}
    elsewhere: set[str] = set()
    for key, region in regions.items():
        if key == "" or key in live or (key != "__main__" and key not in started):
            if region.unknown:
                return {}  # (a function nothing here calls may be called from elsewhere)
            elsewhere.update(name for name, _ in region.reads)
            continue
        for name, line in region.reads:
            if name not in found or line < found[name].line:
                found[name] = MainRead(line, _holder(key, defined, main_line, regions, entries))
    return {name: read for name, read in found.items() if name not in elsewhere}


def _reached(start: set[str], regions: dict[str, _Reads], defined: dict[str, int]) -> set[str]:
    """The top-level functions the regions `start` refer to, and those these refer to, in turn."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        key = todo.pop()
        for name in regions[key].names & set(defined):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return seen


def _holder(
    key: str, defined: dict[str, int], main_line: int, regions: dict[str, _Reads], entries: frozenset[str]
) -> str:
    """Words for the code holding a read: the `__main__` block, or a function and what calls it."""
    never = "which an import never runs"
    if key == "__main__":
        return f'its `if __name__ == "__main__"` block (line {main_line}), {never}'
    callers = []
    if key in regions["__main__"].names:
        callers.append(f"the `__main__` block (line {main_line})")
    callers += [f"{name}()" for name in sorted(defined) if name != key and key in regions[name].names]
    if key in entries:
        callers.append("a console script of pyproject.toml")
    return f"{key}() (line {defined[key]}), called only by {' and '.join(callers[:3])}, {never}"


def _console_scripts(folders: Sequence[Path]) -> dict[str, str]:
    """Name → `module:function` of the console scripts (`[project.scripts]`) of the `pyproject.toml`
    files of `folders`."""
    found: dict[str, str] = {}
    for folder in folders:
        file = folder / "pyproject.toml"
        text = text_or_none(file) if os.path.isfile(file) else None
        if text is None:
            continue
        try:
            data = parse_toml(text)
        except (DocgenError, RecursionError):
            continue
        project = data.get("project")
        scripts = project.get("scripts") if isinstance(project, dict) else None
        if isinstance(scripts, dict):
            found.update((str(k), v) for k, v in scripts.items() if isinstance(v, str))
    return found


def _console_entries(scripts: dict[str, str], module: str) -> frozenset[str]:
    """The functions of `module` the console scripts `scripts` call."""
    return frozenset(
        v.partition(":")[2].strip() for v in scripts.values() if v.partition(":")[0].strip() == module
    )


def _runs_as_script(text: str, module: str, scripts: set[str]) -> bool:
    """True when `text` runs the module as a script (`python app.py`, `python -m app`, `uv run app.py`)
    or one of the console scripts `scripts`."""
    path = re.escape(module.replace(".", "/")) + r"\.py"
    if re.search(
        rf"\b(?:python[\d.]*|uv[ \t]+run|poetry[ \t]+run|pipenv[ \t]+run)[ \t]+(?:-[\w-]+[ \t]+)*"
        rf"(?:[\w./-]*/)?{path}\b|\bpython[\d.]*[ \t]+-m[ \t]+{re.escape(module)}(?![\w.])",
        text,
    ):
        return True
    return any(
        re.search(
            rf"^[ \t>]*(?:\$[ \t]+)?(?:(?:uv|poetry|pipenv|pdm|hatch|pipx)[ \t]+run[ \t]+)?{re.escape(s)}"
            rf"(?=[ \t]|$)|`{re.escape(s)}(?:[ \t][^`\n]*)?`"
            rf"|\b(?:command|entrypoint|web|startCommand)\W+{re.escape(s)}\b",
            text,
            re.MULTILINE,
        )
        for s in scripts
    )


# --------------------------------------------------------------------------------------------------
# the rule


@dataclass(frozen=True)
class _Held:
    served: _Served
    file: Path
    reads: dict[str, MainRead]
    folders: tuple[Path, ...]


def _held(model: ImageModel) -> _Held | None:
    """What a container of `model` never reads (see the module docstring); None when nothing is told."""
    found = served(model)
    if found is None or not model.file:
        return None
    file = context_file_at(model, found.where)
    source = text_or_none(file) if file is not None else None
    if file is None or source is None:
        return None
    folders = tuple(dict.fromkeys((Path(model.file).parent, file.parent)))
    reads = main_only_reads(source, _console_entries(_console_scripts(folders), found.module), found.attr)
    reads = {n: r for n, r in reads.items() if not _LIBRARY.match(n)}
    if not reads:
        return None
    copied = copied_texts(model.file, tuple(model.context_copies))
    if copied is None:
        return None
    others = "\n".join(
        text
        for each, text in copied[0]
        if each.path is not None and each.path.resolve() != file and not _DOCUMENT.search(each.path.name)
    )
    dockerfile = text_or_none(Path(model.file)) or ""
    run_text = "\n".join(
        line
        for line in dockerfile.splitlines()
        if not re.match(r"[ \t]*(?:ENV|ARG|LABEL|#)", line, re.IGNORECASE)
    )
    reads = {
        n: r
        for n, r in reads.items()
        if not re.search(rf"(?<![\w]){re.escape(n)}(?!\w)", others) and n not in referenced_names(run_text)
    }
    return _Held(found, file, reads, folders) if reads else None


def main_only_env(
    doc: Document, text: str, readme: str, directory: Path | None, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    held = {model.path: h for model in models if (h := _held(model)) is not None}
    if not held:
        return
    expanded = referenced_names(text)
    told: set[str] = set()

    def finding(line: int, name: str, model: ImageModel, confidence: str, how: str) -> Diagnostic:
        h = held[model.path]
        file = h.file.name
        read = h.reads[name]
        return Diagnostic(
            readme,
            line,
            f"README {how} {name} as a setting of the container, but {model.path}:{h.served.setting.line} "
            f"starts the app with `{clipped(h.served.shown, 48)}`, which imports {file} as a module, and "
            f"{file}:{read.line} reads {name} only in {read.where}: setting {name} changes nothing",
            confidence=confidence,
        )

    by_path = {model.path: model for model in models}
    as_script: dict[str, bool] = {}

    def runs_as_script(path: str) -> bool:
        if path not in as_script:
            h = held[path]
            scripts = set(_console_scripts(h.folders))
            texts = [text]
            for folder in dict.fromkeys((*([directory] if directory is not None else []), *h.folders)):
                try:
                    entries = sorted(os.listdir(folder))
                except OSError:
                    continue
                for entry in entries[:200]:
                    if _PLATFORM_FILES.fullmatch(entry) and os.path.isfile(folder / entry):
                        texts.append(text_or_none(folder / entry) or "")
            as_script[path] = any(_runs_as_script(t, h.served.module, scripts) for t in texts)
        return as_script[path]

    for line, name, confidence in documented_env(doc):
        holding = [p for p, h in held.items() if name in h.reads]
        if name in expanded or name in told or len(holding) != 1 or runs_as_script(holding[0]):
            continue
        told.add(name)
        yield finding(line, name, by_path[holding[0]], confidence, "documents")
    for line, name, model, own_command, confidence in passed_env(
        doc, models, {p: h.reads for p, h in held.items()}
    ):
        if name in expanded or name in told or own_command or model.path not in held:
            continue
        if name not in held[model.path].reads:
            continue
        told.add(name)
        yield finding(line, name, model, confidence, "passes")
