"""Environment variables a README gives a container of the image beside others that the start of the
image reads, while nothing reads them: `-e DATA_PATH=… -e EPOCH=1000` in a `docker run` of the image
whose CMD is `sh -c "python train.py --path $DATA_PATH"`, or a block of `-e NAME=…` lines under an
environment-variables heading (`-e START_GUI=true`, `-e REREGISTER_EXTENSIONS=true`) for an image whose
entrypoint script tests `$START_GUI` and never names `REREGISTER_EXTENSIONS`. The value set changes
nothing (`likely`: the program the start runs may read the variable after all).

What the start is: the shell script of the build context the image's ENTRYPOINT (or CMD) starts
(`run_time.RunImage.script`), else a CMD or ENTRYPOINT that is a shell string (shell form, `["sh",
"-c", "…"]`). The variables passed with it show the README documents that start: of the others of its
group (one `docker run`, one block of `-e` lines, the tables and lists of environment variables), the
start reads at least one, and at least half, as `$NAME` or `${NAME}`. A table of `Variable`s under a
heading that does not call them environment variables (`## Configuration`, `run_time.variable_rows`) is
a group only when the start hands one of its other rows to its program as an option's value (`--host
"$LLAMA_HOST"`, `_handed_on`).

Silent for a name the application, a library or the shell may read itself (`run_time.APP_READ`:
`HF_TOKEN`, `CUDA_VISIBLE_DEVICES`, `*_DIR`, `*_PORT` …), one any ENV, ARG or line of a Dockerfile
audited names, one the ENTRYPOINT, CMD or a file the image copies in names, one a file (not Markdown) of
the Dockerfiles' folders and their direct subfolders names (`preset_env.folder_files`: a mounted script,
a compose file; not an env template, `.env.example`, which reads nothing, unless the project hands an
env file to the container or reads settings by names it does not write: `_named_beside`), an
ENTRYPOINT that is neither a script docgen reads nor a shell, and a README that passes `--entrypoint`
anywhere (a run may skip the start). An image compared whose start reads none of the
variables passed with it is not the one they document; no image may name the variable, and each one
whose start reads some of the others must read most of them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.commands import fence_commands, joined, joined_line, joined_starts
from docgen.audit.memo import per_audit
from docgen.audit.names import docker_run, image_at
from docgen.audit.preset_env import folder_files
from docgen.audit.run_time import (
    APP_READ,
    ENV_OPTION,
    LIBRARY_READ,
    PREFIXED_RUN,
    RunImage,
    env_entries,
    runs_ours,
    variable_rows,
)
from docgen.audit.wording import about_env, heading_of
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic
from docgen.script_env import env_file

_ENV_LINE = re.compile(r"[ \t]*(?:-e|--env)(?:[ \t]+|=)[\"']?([A-Z][A-Z0-9_]*)=[^\s\\]*[ \t]*\\?[ \t]*")
"""A command-block line that is one `-e NAME=value` option alone (`-e "START_GUI=true"`)."""
_SHELLS = frozenset({"sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/env"})
_MAX_SCRIPT = 200_000
"""Bytes of a started script read."""


def _listed_options(fence: Fence, whole: Document) -> list[tuple[int, str]]:
    """(line, NAME) of each `-e NAME=…` line of a command block under an environment-variables heading
    whose lines are all such options or comments (a list of the container's variables to pass); [] for
    any other block."""
    lines = [(line, text) for line, text in fence.lines if text.strip()]
    if not lines or not about_env(heading_of(whole, lines[0][0])):
        return []
    found = [(line, m.group(1)) for line, text in lines if (m := _ENV_LINE.fullmatch(text))]
    if found and len(found) == sum(1 for _, text in lines if not text.lstrip().startswith("#")):
        return found
    return []


_RUN_SCRIPT = re.compile(
    r"(?:^|[;&|(]|\b(?:then|else|do)\b)[ \t]*(?:(?:exec|nohup|bash|sh|source|\.)[ \t]+)?([\"']?)"
    r"((?:/|\./)[\w./-]+\.sh)\1(?![\w./-])",
    re.MULTILINE,
)
"""A script a shell script runs as a command by its path (`/pre_start.sh`, `bash /scripts/setup.sh`,
`source ./env.sh`), not one it only prints (`echo "run /start_app.sh"`)."""
_MAX_CHAIN = 8
"""Scripts of a start chain read (the started one and those it runs in turn)."""


def _chain(image: RunImage, name: str, text: str) -> tuple[str, str] | None:
    """(how a finding names them, their text) of the script `name` the image starts (its text `text`)
    and the scripts it runs by their path in turn (`start.sh` runs `/pre_start.sh`, which runs
    `/start_app.sh`) that the image copies to that path from the build context; None when a COPY puts
    one there that docgen cannot read (`COPY scripts/* /` and no such file beside the Dockerfile): what
    it reads is not known. A script no COPY puts there (the base image's) is not followed."""
    names, texts = [name], [text]
    seen = {name}
    at = 0
    while at < len(texts):
        for match in _RUN_SCRIPT.finditer(texts[at]):
            path = match.group(2)
            run = path.rsplit("/", 1)[-1]
            if run in seen:
                continue
            seen.add(run)
            copied = image.copied_to(run)
            if copied is None or (path.startswith("/") and copied[0] != path):
                continue  # not the project's (the base image's): read as before, not followed
            file = image.context_file(run)
            read = text_or_none(file, _MAX_SCRIPT) if file is not None else None
            if read is None or len(texts) >= _MAX_CHAIN:
                return None
            names.append(run)
            texts.append(read)
        at += 1
    shown = names[0] if len(names) == 1 else f"{names[0]} (with {', '.join(names[1:])}, which it runs)"
    return shown, "\n".join(texts)


@per_audit(maxsize=32)  # (asked for each variable of a group: the script is read once an image)
def _started(image: RunImage) -> tuple[str, str] | None:
    """(how a finding names it, its text) of what the image starts: the shell script of the build
    context its ENTRYPOINT or CMD starts, with the scripts it runs in turn (`_chain`), else a shell CMD
    or ENTRYPOINT; None when it starts a program or a script docgen does not read."""
    script = image.script()
    if script is not None:
        text = text_or_none(script[1], _MAX_SCRIPT)
        return _chain(image, script[0], text) if text is not None else None
    commands = image.commands()
    if not commands:
        return None
    for setting in commands:
        words = setting.exec_form
        if words is not None and not (words and words[0] in _SHELLS and "-c" in words):
            return None
    shown = commands[-1]
    where = f"{shown.keyword} ({image.model.path}:{shown.line})"
    return where, "\n".join(s.value for s in commands)


_START_ONLY = re.compile(r"\A(?:VENV|VIRTUALENV)_", re.IGNORECASE)
"""Names of the start's own making (`VENV_PATH`: where the start activates a venv): the program it runs
in the venv never reads them, so the `_PATH`/`_DIR` ending does not make them the program's."""


def _app_read(name: str) -> bool:
    """Whether the application, a library or the shell may read `name` itself (`run_time.APP_READ`),
    save a name of the start's own (`_START_ONLY`)."""
    if _START_ONLY.search(name):
        return LIBRARY_READ.search(name) is not None
    return APP_READ.search(name) is not None


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


def _unnamed_in(image: RunImage, name: str) -> tuple[str, tuple[str, str] | None] | None:
    """(the Dockerfile's text, what it starts as `_started` gives it) of `image` when neither of them
    names the variable `name` nor an ENV of the image sets it; None when one does, or the Dockerfile
    cannot be read."""
    if name in image.env or not image.model.file:
        return None
    read = dockerfile_read(image.model.file)
    if read is None or _word(name).search(read[0]):
        return None
    started = _started(image)
    if started is not None and _word(name).search(started[1]):
        return None
    return read[0], started


@per_audit(maxsize=32)
def _expanded(text: str) -> frozenset[str]:
    """The variables a shell text reads as `$NAME` or `${NAME…}`."""
    return frozenset(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", text))


def _unread_fact(image: RunImage, name: str, others: set[str]) -> tuple[str, int] | None:
    """Why `name` reaches nothing of the image, and how many of `others` (the variables passed with it)
    what it starts (`_started`) reads; ('', 0) when it starts nothing docgen reads or reads none of
    `others` (the variables are not about it); None when the image may read `name`: an ENV sets it, or
    its Dockerfile, what it starts or a file it copies in names it."""
    if name in image._read_at_run_time:
        return None
    texts = _unnamed_in(image, name)
    if texts is None:
        return None
    _, started = texts
    reads = sorted(others & _expanded(started[1])) if started else []
    if started is None or not reads:
        return "", 0
    return f"{started[0]}, which the image starts, reads {', '.join(reads)} and never {name}", len(reads)


def _beside(auditor: Auditor) -> tuple[tuple[Path, str], ...]:
    folders = tuple(dict.fromkeys(real_path(Path(m.file).parent) for m in auditor.models if m.file))
    return folder_files(folders)


def _handed_on(image: RunImage) -> frozenset[str] | None:
    """The variables what the image starts (`_started`) passes to its program as an option's value
    (`--host "$APP_HOST"`, `--fps=${FPS:-15}`): the start turns them into the program's options, and a
    table of `Variable`s under a heading that does not call them environment variables
    (`run_time.variable_rows`) that lists them lists what the start takes. A start that only tests its
    variables, or exports them, may leave the rest to a program reading its own (`OLLAMA_MODELS`). None
    when it starts nothing docgen reads."""
    started = _started(image)
    if started is None:
        return None
    return frozenset(_HANDED.findall(started[1]))


_HANDED = re.compile(r"(?<![\w-])-{1,2}[A-Za-z][\w.-]*(?:[ \t]+|=)[\"']?\$\{?([A-Za-z_][A-Za-z0-9_]*)")
"""An option given a variable as its value: `--host "$HOST"`, `--fps=${FPS:-15}`, `-p ${PORT}`."""


_PASSES_ENV_FILE = re.compile(r"\benv_file\b|--env-file\b")
"""A compose `env_file:` or a `docker run --env-file`: an env file's variables reach the container."""


def _named_beside(auditor: Auditor, names: set[str], doc: Document | None = None) -> set[str]:
    """Those of `names` a file (not Markdown) of the Dockerfiles' folders or their direct subfolders
    names. With the README `doc` (the start the variables are passed to reads their siblings, and
    nothing else of the image is known to read them), an env file or its template (`script_env.env_file`:
    `.env.example`, which the user fills in as the README says) reads nothing and does not count,
    unless the project hands an env file to the container (a compose `env_file:`, a `--env-file` there
    or in `doc`: its program may read them) or a file there reads variables by names it does not write
    (`_DYNAMIC_ENV`: a settings class may take its fields from it)."""
    files = _beside(auditor)
    counted = (
        doc is None
        or any(_DYNAMIC_ENV.search(text) or _PASSES_ENV_FILE.search(text) for _, text in files)
        or any(_PASSES_ENV_FILE.search(t) for f in doc.fences for _, t in f.lines)
    )
    found: set[str] = set()
    for path, text in files:
        if not counted and env_file(path.name, text):
            continue
        found.update(n for n in names if n in text and _word(n).search(text))
    return found


def _in_env_files(auditor: Auditor, name: str) -> list[str]:
    """The names of the env files beside the Dockerfiles that name `name` (`script_env.env_file`)."""
    return [
        path.name
        for path, text in _beside(auditor)
        if name in text and _word(name).search(text) and env_file(path.name, text)
    ]


def _groups(
    part: Document, whole: Document, ours: Callable[[str], bool]
) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """(what it is, the (line, NAME) of its variables) of each group the README passes together: the `-e
    NAME=…` of one `docker run` of an image audited (`run`), one block of `-e` lines under an
    environment-variables heading (`options`), the entries of its tables and lists of environment
    variables (`entries`), the rows of a table of `Variable`s under another heading (`rows`,
    `run_time.variable_rows`)."""
    for fence in part.fences:
        for command in fence_commands(fence):
            text = joined(command).replace("[", " ").replace("]", " ")
            if PREFIXED_RUN.search(text) or (run := docker_run(text)) is None or not ours(run[1]):
                continue
            start, image = run
            end = image_at(text, start, image)
            options = text[start : end if end >= 0 else len(text)]
            starts = joined_starts(command)
            found = [
                (joined_line(command, starts, start + m.start(1)), m.group(1))
                for m in ENV_OPTION.finditer(options)
            ]
            if found:
                yield "run", found
    for fence in part.fences:
        if found := _listed_options(fence, whole):
            yield "options", found
    if found := list(env_entries(part, whole)):
        yield "entries", found
    if found := list(variable_rows(part, whole)):  # (`| Variable |` under `## Configuration`)
        yield "rows", found


def unread_env_claims(part: Document, whole: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not auditor.models or any("--entrypoint" in text for f in whole.fences for _, text in f.lines):
        return
    found = list(_groups(part, whole, runs_ours(auditor)))
    listed = {name for kind, group in found if kind != "run" for _, name in group}
    # (variables to read, all of the group, whether the start must pass the others on as options)
    groups: list[tuple[list[tuple[int, str]], set[str], bool]] = []
    for kind, group in found:
        names = {name for _, name in group}
        if len(group) >= 2:
            groups.append((group, names, kind == "rows"))
        elif kind == "run" and len(listed - names) >= 2:  # a lone `-e` beside the README's table
            groups.append((group, names | listed, False))
    if not groups:
        return
    images = [RunImage(model) for model in auditor.models]
    handed = [_handed_on(image) if any(loose for *_, loose in groups) else None for image in images]
    candidates: dict[str, tuple[int, str]] = {}
    for group, names, loose in groups:
        for line, name in group:
            if _app_read(name) or len(name) < 4 or name in candidates:
                continue
            others = names - {name}
            facts = [_unread_fact(image, name, others) for image in images]
            if any(fact is None or 0 < fact[1] * 2 < len(others) for fact in facts):
                continue  # (an image may read it, or reads a few of the others only)
            if loose and not all(given is None or given & others for given in handed):
                continue  # (a table that does not say it is of environment variables: see `_handed_on`)
            shown = [fact[0] for fact in facts if fact is not None and fact[1]]
            if shown:  # (an image whose start reads most of the others: the group documents it)
                candidates[name] = line, shown[0]
    unread = set(candidates) - _named_beside(auditor, set(candidates), whole)
    near = _near_candidates(found, images, auditor, set(candidates))
    unread |= set(near) - _named_beside(auditor, set(near))
    candidates.update(near)
    entries = {entry for kind, group in found if kind in ("entries", "rows") for entry in group}
    for name in sorted(unread, key=lambda n: candidates[n][0]):
        line, fact = candidates[name]
        how = "documents" if (line, name) in entries else "passes"  # (a table's row, a list's item)
        if templates := _in_env_files(auditor, name):
            fact += f"; besides the README, only {', '.join(templates)} names it"
        yield Diagnostic(
            auditor.path,
            line,
            f"README {how} {name} as an environment variable of the container, but nothing in the image "
            f"reads it: {fact}",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# A variable a run passes whose near name the image sets or its code reads

_CODE_READ = re.compile(
    r"(?:getenv|environ\.get|environ\.setdefault|environ\.pop|env::var|env\.get)\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"
    r"|environ\[\s*[\"']([A-Z][A-Z0-9_]*)[\"']\s*\]|process\.env\.([A-Z][A-Z0-9_]*)"
    r"|process\.env\[\s*[\"']([A-Z][A-Z0-9_]*)[\"']",
    re.IGNORECASE,
)
"""A program's read of a variable by its name (`os.getenv("BATCH_SIZE")`, `os.environ["X"]`,
`process.env.X`, `os.Getenv("X")`, `env::var("X")`)."""
_SCRIPT_READ = re.compile(r"\$\{?([A-Z][A-Z0-9_]*)")


def near(name: str, known: set[str]) -> list[str]:
    """The names of `known` one `_`-part away from `name` at its start or its end, sharing two parts or
    more with it (`TRAIN_BATCH_SIZE` for `BATCH_SIZE`, `CHUNK_SEC` for `AUDIO_CHUNK_SEC`)."""
    parts = name.split("_")
    if "" in parts:
        return []
    found = []
    for other in sorted(known):
        others = other.split("_")
        short, long = (parts, others) if len(parts) < len(others) else (others, parts)
        if len(long) - len(short) != 1 or len(short) < 2 or "" in long:
            continue
        if long[1:] == short or long[:-1] == short:
            found.append(other)
    return found


def _known(images: list[RunImage], auditor: Auditor) -> tuple[dict[str, str], bool]:
    """(name: where) of the variables the images set (ENV) and the files of the Dockerfiles' folders and
    their direct subfolders read by name, and whether one of those files reads variables by names it
    does not write (`BaseSettings`, `os.environ[key]`: any name may be read)."""
    known: dict[str, str] = {}
    for image in images:
        for env in image.model.env:
            if env.stage in image.labels:
                known.setdefault(env.name, f"{image.model.path}:{env.line} sets {env.name} (ENV)")
    folders = tuple(dict.fromkeys(real_path(Path(m.file).parent) for m in auditor.models if m.file))
    root = next(  # (the project's folder: where the models' paths are told from)
        (m.file[: -len(m.path)] or "." for m in auditor.models if m.file and m.file.endswith("/" + m.path)),
        ".",
    )
    for path, text in folder_files(folders):
        if _DYNAMIC_ENV.search(text):
            return known, True
        try:
            shown = os.path.relpath(path, os.path.realpath(root))
        except ValueError:
            shown = path.name
        if shown.startswith(".."):
            shown = path.name
        names = {next(g for g in m.groups() if g) for m in _CODE_READ.finditer(text)}
        if path.suffix in (".sh", ".bash") or text.startswith("#!"):
            names.update(m.group(1) for m in _SCRIPT_READ.finditer(text))
        for read in sorted(names):
            if read not in known:
                line = text.count("\n", 0, text.find(read)) + 1
                known[read] = f"{shown}:{line} reads {read}"
    return known, False


def _near_candidates(
    found: list[tuple[str, list[tuple[int, str]]]],
    images: list[RunImage],
    auditor: Auditor,
    taken: set[str],
) -> dict[str, tuple[int, str]]:
    """(name: (line, why)) of the variables a `docker run` of the image passes (`-e BATCH_SIZE=4`) that
    no image sets or names, while the image sets, or a file beside it reads, a near name
    (`TRAIN_BATCH_SIZE`, `near`): the README names the variable that does that job otherwise."""
    passed = [(line, name) for kind, group in found if kind == "run" for line, name in group]
    names = {name for _, name in passed}
    candidates: dict[str, tuple[int, str]] = {}
    known: tuple[dict[str, str], bool] | None = None
    for line, name in passed:
        if name in taken or name in candidates or _app_read(name) or "_" not in name:
            continue
        if any(_unread_fact(image, name, set()) is None for image in images):
            continue
        if known is None:
            known = _known(images, auditor)
        if known[1]:
            return {}
        close = near(name, set(known[0]))
        if close and not names.intersection(close):  # (one passed too: the README knows both names)
            said = ", ".join(known[0][other] for other in close[:3])
            mean = close[0] if len(close) == 1 else f"one of {', '.join(close[:3])}"
            candidates[name] = (
                line,
                f"no ENV of the image nor a file beside it names {name}, while {said}: did you mean {mean}?",
            )
    return candidates


# --------------------------------------------------------------------------------------------------
# Variables a sentence says the container reads, for an image that starts one Python script

_ENV_WORDS = re.compile(r"\benv(?:ironment)?[ \t-]+var(?:iable)?s?\b|\benv[ \t]+vars?\b", re.IGNORECASE)
"""`environment variables`, `env var`: what a sentence calls the names it gives."""
_CODE_NAME = re.compile(r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})`")
"""A variable's name in a code span of its own (`SEQ_LEN`, `FORCE_CPU`)."""
_NOT_THE_CONTAINER = re.compile(
    r"--build-arg|\bbuild[ \t-]+(?:arg|time)|\bARG\b|\bon[ \t]+(?:the|your)[ \t]+host\b"
    r"|\bin[ \t]+your[ \t]+shell\b|\bexport\b|\bGitHub[ \t]+(?:Actions|secrets)\b|\bCI\b|\bworkflow\b"
    r"|\bcompose\b",
    re.IGNORECASE,
)
"""A sentence about a build, the host's shell or CI: its variables are not the container's."""
_PYTHON = re.compile(r"\A(?:/usr/(?:local/)?bin/)?python[0-9.]*\Z")
_DYNAMIC_ENV = re.compile(
    r"environ\[(?![\"'])|(?:getenv|environ\.get|environ\.setdefault)\((?![\"'])|\bfor\b[^\n]*\bos\.environ\b"
    r"|dict\(os\.environ|\*\*os\.environ|BaseSettings|envvar|env_prefix|auto_envvar"
    r"|\b(?:import|from)[ \t]+(?:environs|decouple)\b"
    r"|ConfigArgParse|configargparse|env_var",
)
"""A Python reading of variables by names it does not write (`os.environ[key]`, pydantic's
`BaseSettings`, click's `envvar=`): any name may be read."""
_MAX_PY = 1_000_000
_DISPLAY_READ = re.compile(r"(?:DISPLAY|WAYLAND_DISPLAY|XAUTHORITY|XDG_\w+|QT_\w+|SDL_\w+|PULSE_\w+)\Z")
"""Names the display and sound libraries a GUI program loads read themselves."""


def _python_start(image: RunImage) -> tuple[str, str] | None:
    """(how a finding names it, its text) of the Python script of the build context the image's
    ENTRYPOINT or CMD runs (`["python", "/app/awq_quantize.py", …]`), when the first of them is a
    Python interpreter and the script is copied in and read; None otherwise (a module, a shell, a
    program docgen does not read)."""
    commands = image.commands()
    if not commands:
        return None
    setting = commands[0]
    words = setting.exec_form if setting.exec_form is not None else setting.value.split()
    if not words or not _PYTHON.fullmatch(words[0]):
        return None
    script = next((w for w in words[1:] if not w.startswith("-")), None)
    if script is None or not script.endswith(".py") or "$" in script:
        return None
    name = script.rsplit("/", 1)[-1]
    copied = image.copied_to(name)
    if copied is None or (script.startswith("/") and copied[0] != script):
        return None
    path = image.context_file(name)
    text = text_or_none(path, _MAX_PY) if path is not None else None
    if text is None:
        return None
    return f"{name}, which the {setting.keyword} starts ({image.model.path}:{setting.line})", text


def _said_env(part: Document) -> Iterator[tuple[int, str]]:
    """(line, NAME) of each variable a sentence of the prose calls an environment variable of the
    container (`optionally set `SEQ_LEN` or `FORCE_CPU` as environment variables`)."""
    for para in part.paragraphs:
        for line, text in para.lines:
            for sentence in re.split(r"(?<=[.!?;])[ \t]+", text):
                if not _ENV_WORDS.search(sentence) or _NOT_THE_CONTAINER.search(sentence):
                    continue
                for match in _CODE_NAME.finditer(sentence):
                    yield line, match.group(1)


def _option_of(name: str, text: str) -> str | None:
    """The command-line option of the script `text` that is `name` in lower case (`--seq_len`,
    `--seq-len` for `SEQ_LEN`), None when it has none."""
    for option in (f"--{name.lower()}", f"--{name.lower().replace('_', '-')}"):
        if re.search(rf"[\"']{re.escape(option)}[\"']", text):
            return option
    return None


def prose_env_claims(part: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Variables a sentence of the prose says the container takes as environment variables (in code
    spans, with the words `environment variable`) when every image audited starts one Python script
    of its build context (an exec or shell ENTRYPOINT/CMD `python /app/x.py`) that reads variables by
    name only, and neither that script, the Dockerfile, nor a file of its folder and direct subfolders
    names the variable: setting it changes nothing (`likely`). The script's own option of that name in
    lower case (`--seq_len` for `SEQ_LEN`) is told: the README meant it."""
    if not auditor.models:
        return
    said = list(_said_env(part))
    if not said:
        return
    images = [RunImage(model) for model in auditor.models]
    starts: list[tuple[str, str]] = []
    for image in images:
        start = _python_start(image)
        if start is None or _DYNAMIC_ENV.search(start[1]):
            return
        starts.append(start)
    candidates: dict[str, tuple[int, str]] = {}
    for line, name in said:
        if name in candidates or APP_READ.search(name) is not None or _DISPLAY_READ.match(name):
            continue
        if any(
            name in image.env or name in image._read_at_run_time or not image.model.file for image in images
        ):
            continue
        reads = [dockerfile_read(image.model.file) for image in images if image.model.file]
        if any(read is None or _word(name).search(read[0]) for read in reads):
            continue
        if any(_word(name).search(text) for _, text in starts):
            continue
        shown, text = starts[0]
        option = _option_of(name, text)
        told = f"; it takes the option {option}" if option else ""
        candidates[name] = line, f"{shown} names no {name}{told}"
    unread = set(candidates) - _named_beside(auditor, set(candidates))
    for name in sorted(unread, key=lambda n: (candidates[n][0], n)):
        line, fact = candidates[name]
        yield Diagnostic(
            auditor.path,
            line,
            f"README says the container takes {name} as an environment variable, but nothing in the image "
            f"reads it: {fact}",
            confidence=LIKELY,
        )


# --------------------------------------------------------------------------------------------------
# A variable a table calls required that the start gives an empty value and goes on without

_REQUIRED_CELL = re.compile(r"[ \t*_]*(?:required|mandatory)[ \t*_!.]*(?:\Z|[ \t(])", re.IGNORECASE)
"""A `Default` cell that says the variable has none and must be passed (`Required`)."""
_YES_CELL = re.compile(
    r"[ \t*_]*(?:yes|y|true|required|mandatory|✅|✔️?)[ \t*_!.]*(?:\Z|[ \t(])", re.IGNORECASE
)
"""A `Required` cell that says yes."""
_REQUIRED_COLUMN = re.compile(r"\brequired\b|\bmandatory\b", re.IGNORECASE)
_DEFAULT_COLUMN = re.compile(r"\bdefault\b", re.IGNORECASE)


def _optional_at(text: str, name: str) -> int | None:
    """The offset in the start's text `text` where it gives `name` an empty value when it is unset and
    goes on (`: "${NAME:=}"`, `NAME="${NAME:-}"`), None when it does not or may stop without it: it
    tests it (`[ -z "$NAME" ]`, `[ -n "$NAME" ] || exit`) or expands it with `${NAME:?}`/`${NAME?}`."""
    quoted = re.escape(name)
    if re.search(rf"-[zn][ \t]+\"?\$\{{?{quoted}\b|\$\{{{quoted}:?\?", text):
        return None
    found = re.search(
        rf"^[ \t]*(?::[ \t]+\"?\$\{{{quoted}:=\}}\"?"
        rf"|(?:export[ \t]+)?{quoted}=\"?\$\{{{quoted}:?-\}}\"?)[ \t]*(?:#.*)?$",
        text,
        re.MULTILINE,
    )
    return found.start() if found is not None else None


def _required_rows(part: Document, whole: Document) -> Iterator[tuple[int, str]]:
    """(line, NAME) of each row of a table of environment variables (`env_entries`) whose `Default`
    cell says `Required` or whose `Required` cell says yes."""
    listed = set(env_entries(part, whole))
    for table in part.tables:
        header = table.header
        if not header:
            continue
        needed = [i for i, c in enumerate(header) if i > 0 and _REQUIRED_COLUMN.search(c)]
        defaults = [
            i for i, c in enumerate(header) if i > 0 and _DEFAULT_COLUMN.search(c) and i not in needed
        ]
        for line, cells in table.rows:
            name = cells[0].strip().strip("`") if cells else ""
            if (line, name) not in listed:
                continue
            if any(i < len(cells) and _YES_CELL.match(cells[i]) for i in needed) or any(
                i < len(cells) and _REQUIRED_CELL.match(cells[i]) for i in defaults
            ):
                yield line, name


def required_optional_claims(part: Document, whole: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A row of a table of environment variables that calls a variable required (`| TAILSCALE_AUTHKEY |
    … | Required |`) when the shell script every image compared starts (`_started`) gives it an empty
    value when it is unset (`: "${TAILSCALE_AUTHKEY:=}"`) and never tests it: the container starts
    without it (`likely`). Silent when an image starts no script docgen reads, sets the variable with
    ENV, or its start tests or demands the variable (`[ -z "$NAME" ]`, `${NAME:?}`)."""
    if not auditor.models:
        return
    rows = list(_required_rows(part, whole))
    if not rows:
        return
    images = [RunImage(model) for model in auditor.models]
    starts: list[tuple[str, str]] = []
    for image in images:
        started = _started(image)
        if started is None:
            return
        starts.append(started)
    for line, name in rows:
        shown: list[str] = []
        for image, (where, text) in zip(images, starts, strict=True):
            at = _optional_at(text, name) if name not in image.env else None
            if at is None:
                break
            said = text[at:].split("\n", 1)[0].strip()
            if "(with " in where:
                shown.append(f"{where} gives it an empty value when it is unset ({said}) and goes on")
            else:
                number = text.count("\n", 0, at) + 1
                shown.append(
                    f"{where}:{number} gives it an empty value when it is unset ({said}) and goes on"
                )
        else:
            yield Diagnostic(
                auditor.path,
                line,
                f"README's table says {name} is required, but the container starts without it: "
                f"{'; '.join(dict.fromkeys(shown))}",
                confidence=LIKELY,
            )


# --------------------------------------------------------------------------------------------------
# A library's variable the start overrides with the launch's own option

_OVERRIDDEN: dict[str, re.Pattern[str]] = {
    "GRADIO_SERVER_PORT": re.compile(
        r"--server[_-]port(?:[ \t]+|=)[\"']?([^\s\"'\\]+)|\bserver_port[ \t]*=[ \t]*([^\s,)]+)"
    ),
    "GRADIO_SERVER_NAME": re.compile(
        r"--server[_-]name(?:[ \t]+|=)[\"']?([^\s\"'\\]+)|\bserver_name[ \t]*=[ \t]*([^\s,)]+)"
    ),
    "STREAMLIT_SERVER_PORT": re.compile(r"--server\.port(?:[ \t]+|=)[\"']?([^\s\"'\\]+)"),
    "STREAMLIT_SERVER_ADDRESS": re.compile(r"--server\.address(?:[ \t]+|=)[\"']?([^\s\"'\\]+)"),
}
"""Variables a library reads itself only when the launch gives no value of its own (Gradio's
`launch(server_port=…)` and its apps' `--server_port`, Streamlit's `--server.port`), and the option or
argument that gives it."""


def _overriding(image: RunImage, name: str) -> tuple[str, str] | None:
    """(where, the option as written) of the launch option that gives the value `name` stands for in
    the image's Dockerfile (a start script a RUN writes, a CMD) or what it starts, when neither names
    `name` itself (`--server_port ${GRADIO_SERVER_PORT}` reads it) nor an ENV of the image sets it;
    None otherwise."""
    texts = _unnamed_in(image, name)
    if texts is None:
        return None
    dockerfile, started = texts
    pattern = _OVERRIDDEN[name]
    for where, text in ((image.model.path, dockerfile), started or ("", "")):
        found = pattern.search(text)
        if found is None:
            continue
        line = text.count("\n", 0, found.start()) + 1
        shown = where if "(with " in where or where.endswith(")") else f"{where}:{line}"
        return shown, found.group(0).strip()
    return None


def overridden_env_claims(part: Document, whole: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A variable the README gives the container (a table or list of its environment variables, `-e`
    of a run of the image) that the library would read itself (`GRADIO_SERVER_PORT`), when every
    image compared launches the program with that value as an option of its own (`--server_port
    ${PORT:-8080}` in the start a RUN writes): the option wins, the variable changes nothing
    (`likely`). Silent when the image sets or names the variable anywhere (it is passed on), a file
    beside the Dockerfiles names it, or the README passes `--entrypoint` (a run may skip the start)."""
    if not auditor.models or any("--entrypoint" in text for f in whole.fences for _, text in f.lines):
        return
    said: dict[str, int] = {}
    for _, group in _groups(part, whole, runs_ours(auditor)):
        for line, name in group:
            if name in _OVERRIDDEN:
                said.setdefault(name, line)
    if not said:
        return
    images = [RunImage(model) for model in auditor.models]
    candidates: dict[str, tuple[int, str]] = {}
    for name, line in said.items():
        facts = [told for image in images if (told := _overriding(image, name)) is not None]
        if len(facts) == len(images):
            shown = "; ".join(dict.fromkeys(f"{where} passes {option}" for where, option in facts))
            candidates[name] = line, shown
    for name in sorted(
        set(candidates) - _named_beside(auditor, set(candidates)), key=lambda n: candidates[n][0]
    ):
        line, fact = candidates[name]
        yield Diagnostic(
            auditor.path,
            line,
            f"README sets {name} for the container, but the image's launch gives that value itself, which "
            f"overrides the variable: {fact}",
            confidence=LIKELY,
        )
