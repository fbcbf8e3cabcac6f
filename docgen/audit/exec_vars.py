"""Environment variables a README documents as settings of the container while the image reads them only
as `${NAME}` inside an exec-form ENTRYPOINT or CMD, which expands nothing.

```
ENV WORKERS=2
ENTRYPOINT ["python", "-m", "acme.serve", "--workers", "${WORKERS}"]
```

An exec form (a JSON array) runs its program with the words as written: no shell reads them, so the
program gets the literal text `${WORKERS}`, whatever the container's environment holds. A README that
says `WORKERS` sets the number of workers (a row of a table of environment variables, `-e WORKERS=4` in
a `docker run` of the image it builds) is then wrong: `certain`; an item of a list under a heading about
environment variables: `likely`.

A README that builds no image and runs a published one is taken to run the image of its only Dockerfile
(`_published`) when the README links the image's Docker Hub page or a GitHub repository of its owner
(`certain`), or the run passes two or more of the variables the exec form names (`likely`); never for an
official image or one a stage is built on.

Silent when anything else may read the variable: a shell (a shell-form ENTRYPOINT or CMD, `["sh", "-c",
"…"]`, a shell anywhere in the words), a script the container starts (`entrypoint.sh`, `start.sh`: it may
read it from the environment), a HEALTHCHECK naming it, a variable in CMD behind an ENTRYPOINT that is a
script or a shell (it may `eval` its arguments), a README whose own commands expand it (`$NAME`), a `docker
run` with its own `--entrypoint` or (for a variable of CMD) its own command, and the variables runtimes and
libraries read themselves (`CUDA_VISIBLE_DEVICES`, `HF_TOKEN`, `VLLM_…`, `OMP_NUM_THREADS`, …).

And a variable a shell-form CMD or ENTRYPOINT (the one the container starts) reads only as `$NAME` inside
single quotes (`CMD jupyter lab --NotebookApp.token='$LAB_TOKEN'`): the shell does not expand inside
single quotes, so the program gets the literal text `$LAB_TOKEN`. Reported for a variable the README
documents as above (`certain` for a table row or `-e`, `likely` for a list item), and for one a compose
file of the README's folder sets in the `environment:` of a service built from the Dockerfile, when the
README runs `docker compose up` and names the value it sets (`use hunter2 to log in`): `likely`. Silent
when the command names the variable anywhere else (`"$NAME"`, unquoted), for `${NAME}` (a program may
read that syntax itself), and when anything may read the single-quoted text again as shell or script: a
shell, `eval`, `su`, `envsubst`, `awk`, `sed`, an interpreter option (`-c`, `-e`, `-r`), or the `'\''`
idiom of nested quoting.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, clipped
from docgen.audit.commands import built_repositories, fence_commands, image_repository, joined
from docgen.audit.run_args import docker_runs, own_model
from docgen.audit.wording import BUILD_ARG_WORDS, CODE_NAME, LIST_ITEM, about_env, heading_of
from docgen.build_scripts import BUILD
from docgen.errors import DocgenError
from docgen.files import DOCKERFILE, built_dockerfile, real_path, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel, Setting
from docgen.shell import referenced_names

_READ_ELSEWHERE = re.compile(
    r"(?:CUDA|NVIDIA|HIP|ROCR|ROCM|HSA|HF|HUGGING_?FACE|TRANSFORMERS|VLLM|SGLANG|NCCL|RCCL|OMP|MKL|TORCH|PYTORCH"
    r"|TF|XLA|JAX|PYTHON|LD|GPU_DEVICE|ZE|ONEAPI|OPENAI|AWS|GOOGLE|AZURE|HTTPS?|NO|PIP|UV|CONDA|NODE|JAVA)_"
    r"|(?:PATH|HOME|USER|LANG|TZ|TERM|SHELL|PWD|HOSTNAME)\Z"
)
"""Variables runtimes and libraries read from the environment themselves (`CUDA_VISIBLE_DEVICES`,
`HF_TOKEN`, `VLLM_LOGGING_LEVEL`, `OMP_NUM_THREADS`): setting one works whatever the command line says."""
_SHELLS = frozenset("sh bash dash ash zsh ksh mksh".split())
_SCRIPT = re.compile(r"\.(?:sh|bash)\Z|entrypoint|start|launch|run", re.IGNORECASE)
"""A program the container starts that is a script of the project (it may read the environment)."""
_SCRIPT_FILE = re.compile(r"\.(?:sh|bash)\Z")
"""A shell script named anywhere in the words (`["tini", "--", "/start.sh"]`)."""


def _started(model: ImageModel) -> tuple[Setting | None, Setting | None]:
    """The last ENTRYPOINT and CMD of the image `model` builds (its target stage and those it is built on)."""
    labels = {stage.label for stage in model.chain()}
    last = {}
    for setting in model.settings:
        if setting.keyword in ("ENTRYPOINT", "CMD") and setting.stage in labels:
            last[setting.keyword] = setting
    return last.get("ENTRYPOINT"), last.get("CMD")


def _plain_program(words: tuple[str, ...]) -> bool:
    """True when the exec form `words` runs a program with no shell and no script of the project in it."""
    if not words or _SCRIPT.search(posixpath.basename(words[0])):
        return False
    return not any(posixpath.basename(w) in _SHELLS or _SCRIPT_FILE.search(w) for w in words)


def _exec_only(model: ImageModel) -> dict[str, tuple[Setting, bool]]:
    """NAME → (the exec-form ENTRYPOINT or CMD naming `${NAME}`, whether it is CMD) of the variables the
    container's command holds unexpanded, when nothing else of the image may read them (see the module
    docstring)."""
    entry, cmd = _started(model)
    if entry is not None and entry.exec_form is None:
        cmd = None  # a shell-form ENTRYPOINT ignores CMD
    found: dict[str, tuple[Setting, bool]] = {}
    shelled: set[str] = set()
    for setting, is_cmd in ((entry, False), (cmd, True)):
        if setting is None:
            continue
        if setting.exec_form is None:
            shelled |= referenced_names(setting.value)
            continue
        names = referenced_names(" ".join(setting.exec_form))
        plain = _plain_program(setting.exec_form)
        if is_cmd and entry is not None and entry.exec_form and not _plain_program(entry.exec_form):
            plain = False  # a script or shell ENTRYPOINT may expand its arguments
        if not plain:
            shelled |= names
            continue
        for name in names:
            found.setdefault(name, (setting, is_cmd))
    for setting in model.settings:
        if setting.keyword == "HEALTHCHECK":
            shelled |= referenced_names(setting.value)
    return {n: v for n, v in found.items() if n not in shelled and not _READ_ELSEWHERE.match(n)}


def documented_env(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(line, name, confidence) of each variable the README documents as a setting of the container: a
    row of a table of environment variables (its first column's header, its heading or the lines just
    before it say so: `Environment variables:`; `certain`), an item of a list under a heading about them
    (`likely`)."""
    for table in doc.tables:
        if not table.header or BUILD_ARG_WORDS.search(table.header[0]):
            continue
        if about_env(table.header[0]) or about_env(heading_of(doc, table.line)) or about_env(table.context):
            for line, cells in table.rows:
                if cells and (name := CODE_NAME.match(cells[0])) is not None:
                    yield line, name.group(1), CERTAIN
    for para in doc.paragraphs:
        if not about_env(para.heading) or BUILD_ARG_WORDS.search(para.heading):
            continue
        for line, text in para.lines:
            item = LIST_ITEM.match(text)
            spans = code_spans(text[item.end() :]) if item else []
            if item and spans and spans[0][0] == 0 and (name := CODE_NAME.match(spans[0][2])) is not None:
                yield line, name.group(1), LIKELY


def passed_env(
    doc: Document, models: Sequence[ImageModel], held: Mapping[str, Mapping[str, object]]
) -> Iterator[tuple[int, str, ImageModel, bool, str]]:
    """(line, name, model, whether the run gives its own command, confidence) of each `-e NAME=…` /
    `--env NAME` of a `docker run` of the image, with no `--entrypoint` of its own: an image the README
    builds from one of `models` (`certain`), or the published image of the only Dockerfile when the
    README builds none (`_published`)."""
    built = built_repositories(doc)
    builds = bool(built) or any(BUILD.search(joined(c)) for f in doc.fences for c in fence_commands(f))
    owners = None if builds or len(models) != 1 else _linked_owners(doc)
    if not built and owners is None:
        return
    for line, image, read, after in docker_runs(doc):
        if any(n == "--entrypoint" for n, _ in read.values):
            continue
        names = [
            word.group(0)
            for option, value in read.values
            if option in ("-e", "--env") and (word := re.match(r"[A-Za-z_][A-Za-z0-9_]*", value))
        ]
        confidence = CERTAIN
        model = own_model(image, built, models) if built else None
        if model is None and owners is not None:
            model, confidence = _published(image, models[0], owners, names, held[models[0].path])
        if model is None:
            continue
        for name in names:
            yield line, name, model, bool(after), confidence


_HUB = re.compile(r"https?://hub\.docker\.com/r/([\w.-]+)/([\w.-]+)", re.IGNORECASE)
_GITHUB = re.compile(r"https?://(?:www\.)?github\.com/([\w.-]+)/[\w.-]+", re.IGNORECASE)


def _linked_owners(doc: Document) -> tuple[frozenset[str], frozenset[str]]:
    """The owners of the GitHub repositories the README links, and the `owner/name` of the Docker Hub
    pages it links, lower case."""
    owners: set[str] = set()
    pages: set[str] = set()
    for _, target in doc.destinations:
        if hub := _HUB.match(target):
            pages.add(f"{hub.group(1)}/{hub.group(2)}".lower())
        elif github := _GITHUB.match(target):
            owners.add(github.group(1).lower())
    return frozenset(owners), frozenset(pages)


def _published(
    image: str,
    model: ImageModel,
    linked: tuple[frozenset[str], frozenset[str]],
    names: Sequence[str],
    held: Mapping[str, object],
) -> tuple[ImageModel | None, str]:
    """(`model`, confidence) when the image a README that builds nothing runs is taken for the published
    image of its only Dockerfile: an `owner/name` of no official namespace that no stage is built on,
    whose Docker Hub page or whose owner's GitHub repository the README links (`certain`), or which the
    run gives two or more of the variables the Dockerfile's exec form names (`likely`); (None, '')
    otherwise."""
    repository = image_repository(image).lower().removeprefix("docker.io/")
    parts = repository.split("/")
    if len(parts) != 2 or parts[0] in ("library", "_"):
        return None, ""
    if any(
        image_repository(stage.base).lower().removeprefix("docker.io/") == repository
        for stage in model.stages
    ):
        return None, ""
    owners, pages = linked
    if repository in pages or parts[0] in owners:
        return model, CERTAIN
    if len({n for n in names if n in held}) >= 2:
        return model, LIKELY
    return None, ""


def _reads(model: ImageModel, name: str) -> bool:
    """True when the command or health check a container of `model` starts names `name` at all."""
    entry, cmd = _started(model)
    settings = [s for s in (entry, cmd) if s is not None]
    settings += [s for s in model.settings if s.keyword == "HEALTHCHECK"]
    return any(name in referenced_names(" ".join(s.exec_form) if s.exec_form else s.value) for s in settings)


def exec_form_env(
    doc: Document, text: str, readme: str, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring). With several images, a variable another one
    reads (in any form) is left alone."""
    held = {model.path: _exec_only(model) for model in models}
    if not any(held.values()):
        return
    expanded = referenced_names(text)  # the README's own commands read it

    def finding(line: int, name: str, model: ImageModel, confidence: str, how: str) -> Diagnostic:
        setting = held[model.path][name][0]
        form = clipped(json.dumps(list(setting.exec_form or ())), 48)
        word = next((w for w in setting.exec_form or () if name in referenced_names(w)), f"${{{name}}}")
        return Diagnostic(
            readme,
            line,
            f"README {how} {name} as a setting of the container, but {model.path}:{setting.line} reads it "
            f"only in its exec-form {setting.keyword} ({form}), which expands no variables: the program "
            f"gets the literal text {clipped(word)}",
            confidence=confidence,
        )

    told: set[str] = set()
    for line, name, confidence in documented_env(doc):
        if name in expanded or name in told:
            continue
        holding = [model for model in models if name in held[model.path]]
        if not holding or any(_reads(m, name) for m in models if name not in held[m.path]):
            continue
        told.add(name)
        yield finding(line, name, holding[0], confidence, "documents")
    for line, name, model, own_command, confidence in passed_env(doc, models, held):
        names = held[model.path]
        if name in expanded or name in told or name not in names or (own_command and names[name][1]):
            continue
        told.add(name)
        yield finding(line, name, model, confidence, "passes")


_REREAD = frozenset(
    "sh bash dash ash zsh ksh mksh eval su runuser envsubst awk gawk mawk sed perl php ruby watch ssh expect "
    "make jq -c -e -r --eval --command --exec -exec".split()
)
"""Words after which single-quoted text may be read again as code (a shell, an interpreter's code)."""
_UNBRACED = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_EXPANDED = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def _literal_in_quotes(text: str) -> set[str]:
    """Names `text` (shell words) holds as `$NAME` only inside single quotes, where no shell expands them;
    empty when something may read the text again as code (see the module docstring)."""
    if "'\\''" in text or "`" in text:
        return set()
    quoted: set[str] = set()
    expanded: set[str] = set()
    words: list[str] = []
    word: list[str] = []
    state = ""
    i = 0
    while i < len(text):
        char = text[i]
        if state == "'":
            if char == "'":
                state = ""
            elif match := _UNBRACED.match(text, i):
                quoted.add(match.group(1))  # `'${NAME}'` is not read: a program may expand that itself
            word.append(char)
        elif char == "\\":
            word.append(text[i : i + 2])
            i += 2
            continue
        elif char == "$" and (match := _EXPANDED.match(text, i)):
            expanded.add(match.group(1))
            word.append(char)
        elif state == '"':
            if char == '"':
                state = ""
            word.append(char)
        elif char == "'" or char == '"':
            state = char
            word.append(char)
        elif char in " \t\n;&|()":
            if word:
                words.append("".join(word))
                word = []
        else:
            word.append(char)
        i += 1
    if state:
        return set()  # quotes that do not close: not read
    if word:
        words.append("".join(word))
    if any(posixpath.basename(w) in _REREAD for w in words):
        return set()
    return quoted - expanded


def _single_quoted(model: ImageModel) -> dict[str, Setting]:
    """NAME → the shell-form ENTRYPOINT or CMD the container starts, of each variable it reads only inside
    single quotes."""
    entry, cmd = _started(model)
    if entry is not None and entry.exec_form is None:
        start: Setting | None = entry
    elif (entry is None or entry.exec_form == ()) and cmd is not None and cmd.exec_form is None:
        start = cmd
    else:
        return {}
    if start is None:
        return {}
    health = set()
    for setting in model.settings:
        if setting.keyword == "HEALTHCHECK":
            health |= referenced_names(setting.value)
    return {n: start for n in sorted(_literal_in_quotes(start.value)) if n not in health}


def _quoted_finding(
    readme: str, line: int, model: ImageModel, name: str, setting: Setting, how: str, confidence: str
) -> Diagnostic:
    """A finding of a variable read only inside single quotes."""
    return Diagnostic(
        readme,
        line,
        f"README {how}, but {model.path}:{setting.line} reads {name} only as '${name}' inside single quotes "
        f"in its shell-form {setting.keyword} ({clipped(setting.value, 60)}): the shell does not expand "
        f"there, so the program gets the literal text ${name}",
        confidence=confidence,
    )


_COMPOSE_UP = re.compile(r"\bdocker(?:[ \t]+compose|-compose)[ \t]+(?:-d[ \t]+)?up\b")


def _compose_up_line(doc: Document) -> int:
    """README line of the first `docker compose up` (no `-f`) of a command block; 0 when none."""
    for fence in doc.fences:
        for command in fence_commands(fence):
            text = joined(command)
            if (
                re.search(r"\bdocker(?:[ \t]+compose|-compose)[ \t]+(?:-d[ \t]+)?up\b", text)
                and " -f" not in text
            ):
                return command[0][0]
    return 0


def single_quoted_env(
    doc: Document, text: str, readme: str, directory: Path | None, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The single-quoted variables of this module's docstring."""
    held = {model.path: _single_quoted(model) for model in models}
    if not any(held.values()):
        return
    expanded = referenced_names(text)
    told: set[str] = set()
    for line, name, confidence in documented_env(doc):
        holding = [m for m in models if name in held[m.path]]
        if name in expanded or name in told or len(holding) != 1:
            continue
        told.add(name)
        how = f"documents {name} as a setting of the container"
        yield _quoted_finding(readme, line, holding[0], name, held[holding[0].path][name], how, confidence)
    for line, name, model, own_command, confidence in passed_env(doc, models, held):
        if name in expanded or name in told or name not in held[model.path] or own_command:
            continue
        told.add(name)
        how = f"passes {name} as a setting of the container"
        yield _quoted_finding(readme, line, model, name, held[model.path][name], how, confidence)
    if directory is None or not (up := _compose_up_line(doc)):
        return
    for path in compose.default_files(directory):
        data = text_or_none(path)
        try:
            services = compose.services(data.encode(), path.name) if data is not None else ()
        except DocgenError:
            continue
        for service in services:
            if not service.builds:
                continue
            built = real_path(
                built_dockerfile(path.parent / (service.context or ".") / (service.dockerfile or DOCKERFILE))
            )
            own = next((m for m in models if m.file and Path(m.file).resolve() == built), None)
            if own is None:
                continue
            for name, value, _ in service.environment:
                if name in told or name not in held[own.path] or not re.fullmatch(r"\w{4,}", value):
                    continue
                said = _value_line(doc, value, up)
                if not said:
                    continue
                told.add(name)
                how = f"runs docker compose up and gives {value}, which {path.name} sets {name} to"
                yield _quoted_finding(readme, said, own, name, held[own.path][name], how, LIKELY)


def _value_line(doc: Document, value: str, after: int) -> int:
    """README line of prose after line `after` naming `value` as a word; 0 when none."""
    word = re.compile(rf"(?<![\w$-]){re.escape(value)}(?![\w-])")
    for para in doc.paragraphs:
        for line, text in para.lines:
            if line > after and word.search(text):
                return line
    return 0
