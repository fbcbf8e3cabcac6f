"""The modes of an image whose ENTRYPOINT is a shell script that picks one by its first argument, and the
README's runs and headings that the script does not honour.

```
COPY <<'EOF' /usr/local/bin/entrypoint.sh
#!/bin/bash
case "${1:-}" in
    dev) exec /bin/bash ;;
    build) run_build ;;
    *) exec "$@" ;;
esac
EOF
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
CMD ["dev"]
```

The script is read when docgen can read it whole: a here-document the Dockerfile writes to the path the
exec-form ENTRYPOINT starts (`COPY <<'EOF' /path`, `RUN cat <<'EOF' > /path`), or a shell script of the
build context a COPY puts there. Its mode switch is a `case "$1" in` (or `"${1:-}"`, `$1`) at the top
level of the script, with no `set --`, `shift` or `getopts` and no other reading of the arguments before
it, and no `case` inside a branch; each branch's patterns are its modes. Two findings (`likely`):

- a `docker run` of the image whose first word after the image matches no pattern but `*`, whose branch
  runs the arguments as they are (`exec "$@"`), while that word is no program: an option (`--help`,
  `-v`), which `exec` refuses, or — only when another run of the same image passes an option there (the
  README takes the image for a program that reads its arguments) — a plain word (`chat`) that no RUN of
  the Dockerfile names, that is no common program (`python`, `bash`, `jupyter` …), while every package
  the Dockerfile installs is named by it (no `-r requirements.txt`, `pip install .`, `npm install` …);
- a heading that calls a mode the default (`### 2. CLI Mode (Default)`) while the image's CMD selects
  another branch of the switch: the mode the heading names (a pattern's word in the heading, else the
  one branch every run of the image in its section reaches) is not CMD's (`CMD ["dev"]`), and CMD's
  word matches a pattern of its own (not `*`).

The image run is the Dockerfile's when the README builds it (`docker build -t`, the only Dockerfile or
the one `-f` names), when its last name is the image's configured name or the folder of the Dockerfile,
or when another run of the same image passes a word that only a pattern of the switch gives meaning to
(`dev`, `build`: no common program). Left alone: a run with `--entrypoint`, an ENTRYPOINT that passes the
script words of its own (`["/entrypoint.sh", "serve"]`), a script that a RUN edits, a `*` branch that
prepends a program (`exec mlc_llm "$@"`) or reads the arguments otherwise, a pattern with a variable, a
run of a base image, and a heading's claim when a compose file beside the README or the Dockerfile sets
a `command:` (it replaces CMD).

And an entrypoint script with no switch that only sets up and runs its arguments (`exiting_starts`:
`conda activate ml`, `source setup.bash`, then `exec "$@"`) in an image whose CMD gives it none (`CMD
[]`, or no CMD after the ENTRYPOINT, which resets the base image's): an interactive `docker run -it` of
the image with no command after it runs `exec` with nothing, the script ends and the container stops at
once, so the session the README opens never starts (`likely`). The image is the README's build of it, or
with one Dockerfile audited, one the README does not build that a Makefile or a script beside the
Dockerfile or the README tags (`docker build -t ml-env .` in its `build:` recipe). Left alone: a script
reading its arguments otherwise (`${@:-bash}`, `$#`, `case`), a line of it that is no setting up (a
server started, an `if`), a CMD of the ENTRYPOINT's stage or after it, a run with a command, `-d` or no
`-it`, and `--entrypoint`.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import LIKELY, dockerfile_read
from docgen.audit.commands import built_repositories, fence_commands, image_repository, joined, last_name
from docgen.audit.names import docker_run, image_at, words_of
from docgen.audit.run_args import own_model
from docgen.audit.run_time import RunImage
from docgen.build_scripts import built_tags
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Setting

_SHELLS = frozenset("sh bash dash ash zsh".split())
_INITS = frozenset("tini dumb-init tini-static".split())
_SHELL_SCRIPT = re.compile(r"\A#![ \t]*/\S*/(?:env[ \t]+)?(?:ba|da|a|z)?sh\b")
_CASE = re.compile(
    r"case[ \t]+(?:\"\$(?:1|\{1(?::?-[^}\"]*)?\})\"|\$1|\$\{1(?::?-[^}\"]*)?\})[ \t]+in[ \t]*\Z"
)
"""The switch on the first argument, written at the top level of the script (no indentation)."""
_READS_ARGS = re.compile(
    r"\$[@*#1-9]|\$\{[@*#1-9]|\bshift\b|\bgetopts\b|\bset[ \t]+--|\beval\b"
    r"|(?:^[ \t]*|[;&|{(][ \t]*|\bthen[ \t]+)(?:source|\.)[ \t]+\S"
)
"""Before the switch: a reading of the arguments, or a file sourced or text evaluated that may change them."""
_LABEL = re.compile(r"[ \t]*\(?[ \t]*([^()]*?)[ \t]*\)[ \t]*(.*)\Z")
_PASSES = re.compile(r"[ \t]*(?:exec[ \t]+)?\"\$@\"[ \t]*(?:;;)?[ \t]*\Z")
"""A branch line that runs the arguments as they are: `exec "$@"`, `"$@"`."""
_CUT = re.compile(r"[ \t](?:&&|\|\||[|;#]|\d?>)")
COMMON_PROGRAMS = frozenset(
    "sh bash dash zsh ash python python3 python2 pip pip3 ipython jupyter jupyter-lab jupyter-notebook node "
    "npm npx perl ruby java env ls cat echo printf true false sleep tail head less more grep sed awk find "
    "cp mv rm mkdir touch chmod chown id whoami uname hostname date pwd which git curl wget tar make cmake "
    "gcc g++ cc nvidia-smi top htop ps kill nano vi vim su sudo tini gosu uvicorn gunicorn pytest conda "
    "mamba micromamba uv poetry torchrun accelerate deepspeed huggingface-cli nvcc clinfo tree ssh "
    "supervisord nginx jupyterhub tensorboard streamlit gradio flask django-admin celery".split()
)
"""Programs an image commonly has on its PATH: a first word that names one runs it."""
_UNNAMED_INSTALLS = re.compile(
    r"\binstall\b[^;&|\n]*?(?:[ \t](?:-r|--requirement|-e|--editable|-c|--constraint)(?:[ \t=]|\Z)"
    r"|[ \t]\.(?:[ \t]|\[|\Z)"
    r"|\.whl\b|git\+|\.(?:deb|rpm|tar\.gz|zip)\b|file:)"
    r"|\b(?:npm|yarn|pnpm)[ \t]+(?:install|ci|add)\b|\b(?:cargo|go|gem|pipx|poetry|make)[ \t]+install\b"
    r"|\bcmake[ \t]+--install\b|\bdpkg[ \t]+-i\b|\bconda[ \t]+env\b|\buv[ \t]+sync\b|\bsetup\.py\b"
    r"|\btar[ \t]|\bunzip\b|\b(?:ba|z)?sh[ \t]+\S+\.sh\b|(?:^|[ \t])\./\S+|\|[ \t]*(?:ba|z)?sh\b"
    r"|requirements|pyproject|environment\.ya?ml",
    re.MULTILINE,
)
"""A RUN that installs what it does not name: its programs cannot be told."""
_DEFAULT_HEADING = re.compile(r"\((?:the[ \t]+)?default(?:[ \t]+mode)?\)", re.IGNORECASE)
_PLAIN = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
"""A plain program name as a subcommand is written (`chat`, `gen-config`)."""
_COMPOSE_COMMAND = re.compile(r"^[ \t]+command:", re.MULTILINE)


@dataclass(frozen=True)
class Switch:
    """The mode switch of an image's entrypoint script."""

    script: str
    """The script's path in the image."""
    line: int
    """The Dockerfile line of the ENTRYPOINT."""
    branches: tuple[tuple[str, ...], ...]
    """Each branch's patterns, quotes removed, in order."""
    passes: tuple[bool, ...]
    """Whether each branch runs the arguments as they are (`exec "$@"`)."""

    def branch(self, word: str) -> int | None:
        """The index of the branch `word` selects; None when none does."""
        for index, patterns in enumerate(self.branches):
            if any(fnmatch.fnmatchcase(word, p) for p in patterns):
                return index
        return None

    def modes(self) -> set[str]:
        """The plain words the patterns give (`dev`, `build`), not `*` or globs."""
        return {p for ps in self.branches for p in ps if re.fullmatch(r"[A-Za-z][\w.-]*", p)}


def _switch_of(text: str) -> tuple[tuple[tuple[str, ...], ...], tuple[bool, ...]] | None:
    """(patterns, passes) of each branch of the top-level `case "$1" in` of a script's `text`; None when
    there is none or it cannot be read whole."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _CASE.fullmatch(line.rstrip())), None)
    if start is None or any(_READS_ARGS.search(line) for line in lines[:start] if not _comment(line)):
        return None
    branches: list[tuple[str, ...]] = []
    passes: list[bool] = []
    body: list[str] = []
    open_branch = False
    for line in lines[start + 1 :]:
        stripped = line.strip()
        if not stripped or _comment(line):
            continue
        if stripped == "esac" and not line[:1].isspace():
            if open_branch:
                passes.append(_passes(body))
            return (tuple(branches), tuple(passes)) if branches and len(branches) == len(passes) else None
        if not open_branch:
            label = _LABEL.fullmatch(line)
            if label is None or "$" in label.group(1) or "`" in label.group(1):
                return None
            patterns = tuple(p.strip().strip("\"'") for p in label.group(1).split("|"))
            branches.append(patterns)
            open_branch, body = True, []
            rest = label.group(2)
            if rest:
                body.append(rest)
                if rest.rstrip().endswith(";;"):
                    passes.append(_passes(body))
                    open_branch = False
            continue
        if re.match(r"case\b", stripped):
            return None
        body.append(line)
        if stripped.endswith(";;"):
            passes.append(_passes(body))
            open_branch = False
    return None


def _comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _passes(body: Sequence[str]) -> bool:
    """Whether a branch's lines run the arguments as they are, changing none of them first."""
    if any(re.search(r"\bshift\b|\bset[ \t]+--|\$1|\$\{1", line) for line in body):
        return False
    return any(_PASSES.fullmatch(line.removesuffix(";;").rstrip() or line) for line in body)


def switch(model: ImageModel) -> Switch | None:
    """The mode switch of the entrypoint script of the image `model` builds; None when there is none or
    docgen cannot read the script (see the module docstring)."""
    if not model.file:
        return None
    image = RunImage(model)
    entry = image.last("ENTRYPOINT")
    words = entry.exec_form if entry is not None else None
    if entry is None or not words:
        return None
    rest = list(words)
    if posixpath.basename(rest[0]) in _INITS:
        rest = rest[1:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
    if rest and posixpath.basename(rest[0]) in _SHELLS:
        rest = rest[1:]
    if len(rest) != 1 or rest[0].startswith("-"):
        return None  # (words of its own after the script are its first arguments)
    script = rest[0]
    text = _script_text(model, image, script)
    if text is None:
        return None
    read = _switch_of(text)
    if read is None:
        return None
    return Switch(script, entry.line, read[0], read[1])


def _script_text(model: ImageModel, image: RunImage, script: str) -> str | None:
    """The text of the script at `script` in the image: a here-document of the Dockerfile written there,
    else the file of the build context a COPY puts there; None when neither, or a RUN names it (other than
    making it executable or writing it)."""
    read = dockerfile_read(model.file)
    if read is None:
        return None
    name = posixpath.basename(script)
    found: str | None = None
    for inst in read[1].instructions:
        if inst.keyword == "COPY" and len(inst.heredocs) == 1:
            dest = inst.args.split()[-1] if inst.args.split() else ""
            if dest.strip("\"'") == script:
                found = inst.heredocs[0].body
            continue
        if inst.keyword != "RUN":
            continue
        if len(inst.heredocs) == 1 and re.fullmatch(
            rf"cat[ \t]+(?:<<-?['\"]?\w+['\"]?[ \t]*)?>[ \t]*['\"]?{re.escape(script)}['\"]?"
            rf"(?:[ \t]+<<-?['\"]?\w+['\"]?)?[ \t]*"
            rf"(?:&&[ \t]*chmod[ \t]+\S+[ \t]+{re.escape(script)}[ \t]*)?",
            inst.args.strip(),
        ):
            found = inst.heredocs[0].body
            continue
        text = " ".join([inst.args, *(h.body for h in inst.heredocs)])
        for part in re.split(r"&&|;|\|\|", text):
            if name in part and not re.match(r"\s*chmod\b", part):
                return None
    if found is not None:
        return found
    copied = image.copied_to(name)
    if copied is None:
        return None
    on_path = "/" not in script and posixpath.dirname(posixpath.normpath(copied[0])).endswith("/bin")
    if not on_path and posixpath.normpath(copied[0]) != posixpath.normpath(script):
        return None
    path = image.context_file(name, copied[1])
    body = text_or_none(path) if path is not None else None
    if body is None or not (
        _SHELL_SCRIPT.match(body) or (name.endswith(".sh") and not body.startswith("#!"))
    ):
        return None
    return body


@dataclass(frozen=True)
class Run:
    """A `docker run` of a command block: its README line, its image and the words after the image."""

    line: int
    image: str
    after: tuple[str, ...]
    options: str = ""
    """The text of the run's options (between `run` and the image)."""
    first: int = 0
    """The README line the command starts on."""


def runs_of(doc: Document) -> Iterator[Run]:
    """Each `docker run` of a command block with no `--entrypoint`: its line, image and words after it."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined(lines)
            found = docker_run(text)
            if found is None:
                continue
            start, image = found
            at = image_at(text, start, image)
            if at < 0 or "--entrypoint" in text[start:at]:
                continue
            tail = text[at + len(image) :]
            if tail[:1] not in ("", " ", "\t"):
                continue
            cut = _CUT.search(tail)
            after = tuple(words_of(tail[: cut.start()] if cut else tail))
            line = next((n for n, t in lines if image in t), lines[0][0])
            yield Run(line, image, after, text[start:at], lines[0][0])


class ReadmeRuns:
    """The README's `docker run`s (`runs_of`), grouped by image repository once for every image asked
    about (`own_runs`): a compose file of hundreds of services makes hundreds of models, and reading
    every run again for each of them cost the models times the runs (`container-name-runs` in
    benchmarks/bench_shapes.py)."""

    def __init__(self, doc: Document, models: Sequence[ImageModel]) -> None:
        self.runs = list(runs_of(doc))
        self.models = models
        self.built = built_repositories(doc)
        self.by_repo: dict[str, list[Run]] = {}
        for run in self.runs:
            self.by_repo.setdefault(image_repository(run.image), []).append(run)
        # each repository's image names (`last_name`) and the first words of its runs
        self.names = {repo: {last_name(r.image) for r in runs} for repo, runs in self.by_repo.items()}
        self.firsts = {repo: {r.after[0] for r in runs if r.after} for repo, runs in self.by_repo.items()}
        # the model the README's build of each repository uses (`own_model`: by repository alone)
        self.owner = (
            {repo: own_model(runs[0].image, self.built, models) for repo, runs in self.by_repo.items()}
            if self.built
            else {}
        )
        self.order = {id(run): n for n, run in enumerate(self.runs)}

    def of(self, model: ImageModel, found: Switch | None) -> list[Run]:
        """The runs of the image `model` builds (see `own_runs`)."""
        bases = {image_repository(stage.base).lower() for stage in model.stages}
        names = {last_name(model.image_name)} if model.image_name else set()
        names.add(Path(model.file).resolve().parent.name.lower())
        modes = {m for m in found.modes() if m not in COMMON_PROGRAMS} if found is not None else set()
        ours = []
        for repo in self.by_repo:
            if repo.lower() in bases:
                continue
            if self.built:
                owned = self.owner[repo] is model
            else:
                owned = bool(self.names[repo] & names)
            if owned or (len(self.models) == 1 and self.firsts[repo] & modes):
                ours.append(repo)
        return sorted((run for repo in ours for run in self.by_repo[repo]), key=lambda r: self.order[id(r)])


def own_runs(
    doc: Document,
    model: ImageModel,
    models: Sequence[ImageModel],
    found: Switch | None = None,
    runs: ReadmeRuns | None = None,
) -> list[Run]:
    """The README's runs of the image `model` builds (see the module docstring; with no `found`, a mode
    word of its switch, read here, ties a published image to it). `runs`: the README's runs read once
    for all `models` (`ReadmeRuns`), else read here."""
    if found is None:
        found = switch(model)
    return (runs if runs is not None else ReadmeRuns(doc, models)).of(model, found)


def unnamed_installs(text: str) -> bool:
    """Whether the text of a Dockerfile's RUNs installs what it does not name (`_UNNAMED_INSTALLS`)."""
    return _UNNAMED_INSTALLS.search(text) is not None


def _names_all(model: ImageModel) -> tuple[str, bool]:
    """(the text of the Dockerfile's RUNs, whether they name every package they install)."""
    read = dockerfile_read(model.file)
    if read is None:
        return "", False
    text = "\n".join(
        " ".join([inst.args, *(h.body for h in inst.heredocs)])
        for inst in read[1].instructions
        if inst.keyword == "RUN"
    )
    copies_bin = any(re.search(r"/bin/?\Z", c.dest.strip("\"'")) for c in model.context_copies)
    return text, not _UNNAMED_INSTALLS.search(text) and not copies_bin


def unknown_programs(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """A run whose first word after the image falls to the script's `exec "$@"` and is no program (see
    the module docstring): `likely`."""
    every: ReadmeRuns | None = None  # (read at the first image that asks)
    for model in models:
        found = switch(model)
        if found is None or not any(found.passes):
            continue
        every = every or ReadmeRuns(doc, models)
        runs = own_runs(doc, model, models, found, every)
        falls = [r for r in runs if r.after and _falls(found, r.after[0])]
        options = {r.image for r in falls if _option(r.after[0])}
        text, names_all = _names_all(model) if options else ("", False)
        failing: dict[str, list[tuple[int, str, str]]] = {}
        for run in falls:
            word = run.after[0]
            if _option(word):
                why = f"{word} is an option, which exec refuses"
            else:
                if run.image not in options or not names_all or not _PLAIN.fullmatch(word):
                    continue
                if word in COMMON_PROGRAMS or re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text):
                    continue
                why = f"no RUN of the Dockerfile installs a program named {word}"
            failing.setdefault(run.image, []).append((run.line, word, why))
        for image, found_runs in failing.items():
            line, word, why = found_runs[0]
            others = ", ".join(f"{n} ({w})" for n, w, _ in found_runs[1:])
            yield Diagnostic(
                readme,
                line,
                f"README runs {image} {word} …, but the ENTRYPOINT "
                f"({model.path}:{found.line}, {found.script}) "
                f"runs any first word its case does not name (modes: {', '.join(sorted(found.modes()))}) "
                f'as a program with exec "$@", and {why}: the container fails'
                + (f"; also at lines {others}" if others else ""),
                confidence=LIKELY,
            )


def _falls(found: Switch, word: str) -> bool:
    index = found.branch(word)
    return index is not None and found.branches[index] == ("*",) and found.passes[index]


def _option(word: str) -> bool:
    return word.startswith("-") and word not in ("-", "--") and bool(re.fullmatch(r"--?[A-Za-z][\w-]*", word))


def default_modes(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None
) -> Iterator[Diagnostic]:
    """A heading that calls a mode the default while CMD selects another (see the module docstring):
    `likely`."""
    every: ReadmeRuns | None = None  # (read at the first image that asks)
    for model in models:
        found = switch(model)
        cmd = RunImage(model).last("CMD") if found is not None else None
        if found is None or cmd is None or not cmd.exec_form or _compose_command(model, directory):
            continue
        given = cmd.exec_form[0]
        default = found.branch(given)
        if default is None or found.branches[default] == ("*",):
            continue
        every = every or ReadmeRuns(doc, models)
        runs = own_runs(doc, model, models, found, every)
        if not runs:
            continue
        for index, (line, heading) in enumerate(doc.headings):
            if not _DEFAULT_HEADING.search(heading):
                continue
            level = doc.levels.get(line, 1)
            end = next(
                (n for n, _ in doc.headings[index + 1 :] if doc.levels.get(n, 1) <= level),
                10**9,
            )
            named = [
                found.branch(w)
                for w in re.findall(r"[A-Za-z][\w.-]*", _DEFAULT_HEADING.sub(" ", heading))
                if w in found.modes()
            ]
            reached = {found.branch(r.after[0] if r.after else given) for r in runs if line < r.line < end}
            branch = (
                named[0]
                if len(set(named)) == 1
                else (reached.pop() if len(reached) == 1 and not named else None)
            )
            if branch is None or branch == default:
                continue
            yield Diagnostic(
                readme,
                line,
                f"README calls {heading.strip()!r} the default, but {model.path}:{cmd.line} CMD "
                f"{given!r} selects the {given} mode of the ENTRYPOINT's case ({found.script}), not this one",
                confidence=LIKELY,
            )


def _compose_command(model: ImageModel, directory: Path | None) -> bool:
    """True when a compose file beside the README or the Dockerfile sets a `command:`."""
    folders = {Path(model.file).parent}
    if directory is not None:
        folders.add(directory)
    for folder in folders:
        for name in compose.DEFAULT_FILES:
            text = text_or_none(folder / name)
            if text is not None and _COMPOSE_COMMAND.search(text):
                return True
    return False


_SETUP = re.compile(
    r"(?:set|export|unset|shopt|umask|ulimit|source|\.|cd|echo|printf|mkdir|chmod|chown|ln|cp|touch"
    r"|(?:conda|mamba|micromamba)[ \t]+activate|eval[ \t]+\"\$\((?:conda|mamba|micromamba)[ \t][^)]*\)\""
    r"|[A-Za-z_]\w*=\S*)(?=[ \t]|\Z)"
)
"""A line of an entrypoint script that sets the container up and ends: a shell setting, an export, a
sourced environment, an activated conda env, a message, a folder or file made."""
_ARGUMENTS = re.compile(r"\$[@*#1-9]|\$\{[@*#1-9]|\bshift\b|\bgetopts\b")
_BUILD_FILES = ("Makefile", "makefile", "GNUmakefile")


def _runs_only_arguments(text: str) -> int | None:
    """The line of the `exec "$@"` that ends the entrypoint script `text`, when every line before it sets
    up and ends (`_SETUP`) and none reads the arguments otherwise; None when the script does anything
    else (an `if`, a program that keeps running, `${@:-bash}`)."""
    lines = text.splitlines()
    body = [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip() and not _comment(line)]
    if body and body[0][1].startswith("#!"):
        body = body[1:]
    if not body or not _PASSES.fullmatch(body[-1][1]) or body[-1][1].endswith(";;"):
        return None
    for _, line in body[:-1]:
        if (
            not _SETUP.match(line)
            or _ARGUMENTS.search(line)
            or re.search(r"[;&|]|\$\((?!conda|mamba|micro)", line)
        ):
            return None
    return body[-1][0]


def _given_command(image: RunImage, entry: Setting) -> Setting | None | bool:
    """The CMD the image gives its ENTRYPOINT `entry`: one of its stage or after it (an ENTRYPOINT resets
    the CMD of the stages and the base image before it); None when there is none; False when it has
    words (a command)."""
    cmd = next(
        (
            s
            for s in reversed(image.settings)
            if s.keyword == "CMD" and (s.stage == entry.stage or s.line > entry.line)
        ),
        None,
    )
    if cmd is None:
        return None
    given = cmd.exec_form if cmd.exec_form is not None else tuple(cmd.value.split())
    return cmd if not given else False


def _in_workdir(image: RunImage, script: str) -> str:
    """`script` as an absolute path: a relative one joined to the image's last absolute WORKDIR."""
    if script.startswith("/"):
        return script
    workdir = next((s.value for s in reversed(image.settings) if s.keyword == "WORKDIR"), "/")
    return posixpath.normpath(posixpath.join(workdir if workdir.startswith("/") else "/", script))


def _beside_tags(model: ImageModel, directory: Path | None) -> set[str]:
    """The repositories a Makefile or a shell script beside the Dockerfile or the README tags (`docker
    build -t ml-env .`)."""
    folders = {Path(model.file).parent, *([directory] if directory is not None else [])}
    tags: set[str] = set()
    for folder in folders:
        files = [folder / name for name in _BUILD_FILES]
        try:
            files += sorted(folder.glob("*.sh"))[:20]
        except OSError:
            continue
        for path in files:
            text = text_or_none(path)
            if text is not None and "build" in text:
                tags.update(image_repository(tag) for tag in built_tags(text))
    return tags


def _interactive(options: str) -> bool:
    """Whether a run's options (as written) make it interactive and attached: `-it`, no `-d`."""
    words = options.split()
    flags = {c for w in words if re.fullmatch(r"-[A-Za-z]+", w) for c in w[1:]}
    flags |= {"i" for w in words if w == "--interactive"} | {"t" for w in words if w == "--tty"}
    return {"i", "t"} <= flags and "d" not in flags and "--detach" not in words


def exiting_starts(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path | None = None
) -> Iterator[Diagnostic]:
    """An interactive run with no command of an image whose entrypoint script only runs its arguments
    and whose CMD gives none (see the module docstring): `likely`."""
    every: ReadmeRuns | None = None  # (read at the first image that asks)
    for model in models:
        if not model.file:
            continue
        image = RunImage(model)
        entry = image.last("ENTRYPOINT")
        words = list(entry.exec_form or ()) if entry is not None else []
        if words and posixpath.basename(words[0]) in _INITS:
            words = words[1:][1:] if words[1:2] == ["--"] else words[1:]
        if words and posixpath.basename(words[0]) in _SHELLS:
            words = words[1:]
        if entry is None or len(words) != 1 or words[0].startswith("-"):
            continue
        cmd = _given_command(image, entry)
        if cmd is False:
            continue
        text = _script_text(model, image, _in_workdir(image, words[0]))
        passes = _runs_only_arguments(text) if text is not None else None
        if passes is None:
            continue
        every = every or ReadmeRuns(doc, models)
        runs = every.of(model, None)
        if not every.built and len(models) == 1:
            tagged = _beside_tags(model, directory)
            runs += [r for r in every.runs if image_repository(r.image) in tagged and r not in runs]
        run = next(
            (r for r in sorted(runs, key=lambda r: r.line) if not r.after and _interactive(r.options)), None
        )
        if run is None:
            continue
        given = (
            f"CMD [] ({model.path}:{cmd.line}) gives none"
            if isinstance(cmd, Setting)
            else "no CMD gives one (an ENTRYPOINT resets the base image's CMD)"
        )
        yield Diagnostic(
            readme,
            run.line,
            f"README runs {run.image} interactively with no command, but its ENTRYPOINT ({model.path}:"
            f'{entry.line}, {words[0]}) only runs the command it is given (exec "$@", line {passes}) and '
            f"{given}: the script exits once set up, so the container stops at once and no shell starts "
            "(append bash to the run)",
            confidence=LIKELY,
        )
