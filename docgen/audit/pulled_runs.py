"""A README that pulls an image and then runs a make target or a script whose `docker run` runs another
image: `docker pull org/llm-server:latest`, then `make serve`, whose recipe runs `./serve.sh`, which runs
`docker run … llm-server-gfx90a` (a name set in the script). The pulled image is never run, and docker
cannot find the other one: it has no namespace, so docker looks it up as an official image.

Read: the README's command blocks (pulls, builds, tags, `make TARGET`, `./script.sh`), the Makefile in
its folder (`docgen.makefile.target_recipe`) and the scripts its recipe or the README runs. The image a
script's `docker run` runs is read from the command's words, from the script's literal assignments of
the variable it names (every value it may take: `IMAGE=a` in one branch, `IMAGE=b` in the other), and
for a command built as an array (`CMD=(docker run …)`, `CMD+=("$IMAGE")`) from the array's later
appends. Told (`likely`) only when every image it may run has no namespace, is no official image, is
none of the pulled ones, and no build or tag the README runs before the command names it, and the make
target or script pulls, builds, tags and loads nothing itself. A script the README runs before that
gives an image, or a make target whose recipe cannot be told, runs make or a script that gives one, may
give it: silent. Silent when an image comes from an argument, the environment (`${IMAGE:-…}`) or a
command, and when the README loads or imports images.

The same after a README build (`docker build -t indextts-api .`) instead of a pull, when no script,
compose, bake or Make file beside the README names the run image (it may build it) and no compose
command of the README runs before.

And a `docker commit CONTAINER NAME` (a command block's or a code span's) whose NAME nothing the README
runs or names elsewhere, while the run script it ran before (or a run of its own) starts the same
repository name under an owner or another tag (`committed_unrun`): the saved image is never started.

And a pull whose name is one part off the image a script run after it in the same block runs
(`pulled_slips`): `docker pull ghcr.io/kit/vision-cu1210-1171-trt:latest`, `# or`, `cd vision-stack`,
`./pull_run.sh`, whose `docker run` runs `ghcr.io/kit/vision-cu1210-v1171-trt:latest` once the values of
the script and of the files it sources (`source "$(dirname "$0")"/config.sh`) are put in
(`${ORT_VERSION//./}` with `ORT_VERSION="v1.17.1"`). The same registry, owner and tag, the names'
`-`/`_` parts all alike but one, and both parts of that one hold a digit (a release: `cpu` and `gpu` are
two variants). Silent when the script pulls, builds or tags an image, its image comes from the caller,
and when the README names the run image anywhere (`likely`).

Each README line, recipe and script is read once; every pattern runs on one line.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.commands import CD, entered, fence_commands, joined, without_prompt
from docgen.audit.make_targets import makefile_in, makefile_text, named_targets
from docgen.audit.make_vars import MAKE
from docgen.audit.memo import per_audit
from docgen.audit.names import takes_value
from docgen.audit.run_args import OFFICIAL
from docgen.audit.run_args import image_runs as _image_runs
from docgen.build_scripts import BLANK_AFTER, BUILD, DOCKER_PODMAN, TAG_COMMAND, container_command
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.script_env import logical_lines, sourced_files
from docgen.shell import ExpansionError, Unknown, shell_split
from docgen.shell import expand as shell_expand

_PULL = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?pull[ \t]+(?:-\S+[ \t]+)*([^\s\\;&|]+)")
_TAG_FLAG = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)[\"']?([^\s\"']+)")
_HAS = re.compile(
    r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+)?(?:pull|tag|load|import)\b|" + BUILD.pattern
)
"""What gives a machine an image: a pull, a tag, a load, an import or a build."""
_LOADS = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+)?(?:load|import)\b")
_SCRIPT = re.compile(r"^(?:(?:ba|z)?sh[ \t]+)?(\.{0,2}/?[\w./-]+\.sh)(?=[ \t]|$)")
"""A script the README runs: `./serve.sh`, `bash tools/run.sh`, `sh run.sh`."""
_RUN = re.compile(
    r"(?:^|[;&|(]|\b(?:then|do|else|sudo|exec|time|nohup)[ \t])[ \t]*"
    + container_command("run", DOCKER_PODMAN, start="", end=BLANK_AFTER)
)
"""A `docker run` where a command starts (not in an `echo` or a comment's words), or first in an array."""
_ASSIGN = re.compile(
    r"^[ \t]*(?:local[ \t]+|export[ \t]+|readonly[ \t]+|declare[ \t]+(?:-\w+[ \t]+)?)?"
    r"([A-Za-z_]\w*)(\+?=)(.*)$"
)
_OPEN = re.compile(
    r"\$\{([A-Za-z_]\w*):?[-=?]|\bread[ \t]+(?:-\S+[ \t]+)*([A-Za-z_]\w*)|\bfor[ \t]+([A-Za-z_]\w*)"
)
"""A variable the environment, input or a loop may set: `${IMAGE:-…}`, `read IMAGE`, `for IMAGE in`."""
_ANY_ASSIGN = re.compile(r"(?<![\w$-])([A-Za-z_]\w*)\+?=")
_PARTS = re.compile(r"&&|\|\||;")
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?\Z")


@dataclass(frozen=True)
class _Runs:
    """The images a script's `docker run` commands run (every value each may take), where."""

    images: tuple[str, ...]
    line: int
    """The script line of the first such command."""


def _values(text: str) -> tuple[dict[str, list[str]], set[str], dict[str, list[str]]]:
    """A script's scalar assignments (name → every value; one that is not a literal is kept as `$`),
    the names something else may set (the environment, `read`, a loop, an assignment not read at the
    start of a command), and its array assignments and appends (name → their texts)."""
    scalars: dict[str, list[str]] = {}
    appends: dict[str, list[str]] = {}
    opened: set[str] = set()
    parsed: dict[str, int] = {}
    seen: dict[str, int] = {}
    for _, line in _quoted_lines(text):
        for match in _OPEN.finditer(line):
            opened.add(next(g for g in match.groups() if g))
        for match in _ANY_ASSIGN.finditer(line):
            seen[match.group(1)] = seen.get(match.group(1), 0) + 1
        for part in _PARTS.split(line) if "(" not in line else [line]:
            assign = _ASSIGN.match(re.sub(r"^[ \t]*(?:then|else|do)[ \t]+", "", part))
            if assign is None:
                continue
            name, how, value = assign.groups()
            parsed[name] = parsed.get(name, 0) + 1
            value = value.strip()
            if value.startswith("("):
                appends.setdefault(name, []).append(
                    value[1 : value.rfind(")")] if ")" in value else value[1:]
                )
                continue
            value = value.split(" #", 1)[0].strip()
            if how == "+=" or not value:
                opened.add(name)
                continue
            try:
                words = shell_split(value)
            except ValueError:
                words = [value, "$"]
            if len(words) == 1 and words[0].split() != words:
                words = words[0].split()  # `ENVS="--env=A --gpus all"`, split where `$ENVS` is used
            if len(words) > 1 and _options_only(words):
                words = [_OPTIONS]  # `ENVS="--env=A --gpus all"`: options a `docker run $ENVS` passes
            scalars.setdefault(name, []).append(words[0] if len(words) == 1 else "$")
    opened.update(name for name, count in seen.items() if count > parsed.get(name, 0))
    return scalars, opened, appends


_OPEN_QUOTE = re.compile(r'^[ \t]*(?:export[ \t]+)?[A-Za-z_]\w*="')


def _quoted_lines(text: str) -> Iterator[tuple[int, str]]:
    """`logical_lines` of `text`, an assignment whose double-quoted value goes on over lines (`ENVS="
    --env=A` … `--gpus all"`) joined into one."""
    held: list[str] = []
    start = 0
    for number, line in logical_lines(text):
        if held:
            held.append(line)
            if line.replace('\\"', "").count('"') % 2:
                yield start, " ".join(held)
                held = []
        elif _OPEN_QUOTE.match(line) and line.replace('\\"', "").count('"') % 2:
            start, held = number, [line]
        else:
            yield number, line
    if held:
        yield start, " ".join(held)


_OPTIONS = "--(options)"
"""The value of a variable holding `docker run` options only, read as one option that takes no value."""


def _options_only(words: list[str]) -> bool:
    """Whether `words` are `docker run` options, each with its value when it takes one."""
    index = 0
    while index < len(words):
        word = words[index]
        if not word.startswith("-"):
            return False
        index += 1 if "=" in word or not takes_value(word) else 2
    return index == len(words)


@functools.lru_cache(maxsize=64)
def runs_of_script(text: str, sourced: str = "", open_parts: bool = False) -> _Runs | None:
    """The images the `docker run` commands of the script `text` run; None when one cannot be told or
    the script has none. `sourced`: the text of the files it sources first (`source config.sh`), whose
    assignments give the names the script itself never sets. A value reading other variables that
    each have one literal value is put together as the shell does (`torch-onnx${ONNX//./}-trt:latest`
    with `ONNX="1.15.0"` is `torch-onnx1150-trt:latest`); with `open_parts`, a variable without one
    (set by the caller: `llamacpp_rocm_${ROCM_GPU_ARCH}.minimal`) is kept in it as `${NAME}`. Kept for
    each text: thousands of `make` targets may run the one script."""
    scalars, opened, appends = _values(text)
    if sourced:
        given, given_opened, _ = _values(sourced)
        for name, sourced_values in given.items():
            if name not in scalars and name not in opened and name not in given_opened:
                scalars[name] = sourced_values

    def known(name: str) -> str | Unknown | None:
        values = scalars.get(name)
        if name in opened or not values or len(values) != 1 or "$" in values[0] or "`" in values[0]:
            return Unknown("not one literal value of the script")
        return values[0]

    def put_together(value: str) -> str | None:
        """`value` with the variables it reads put in, None when one has no one literal value."""
        if "`" in value or "$(" in value:
            return None
        try:
            expanded = shell_expand(value, known)
        except ExpansionError:
            return None
        if open_parts and not _LOOSE_DOLLAR.search(_OPEN_PART.sub("", expanded.text)):
            return expanded.text
        return None if expanded.unknown or "$" in expanded.text else expanded.text

    def resolved(word: str) -> list[str] | None:
        variable = _VARIABLE.fullmatch(word)
        if variable is None:
            if "$" in word or "`" in word:
                whole = put_together(word)
                return [whole] if whole else None
            return [word]
        name = variable.group(1)
        values = scalars.get(name)
        if name in opened or not values:
            return None
        put = [v if "$" not in v else put_together(v) for v in values]
        filled = [v for v in put if v is not None and "`" not in v]
        return filled if len(filled) == len(values) else None

    images: list[str] = []
    first = 0
    for number, line in logical_lines(text):
        run = _RUN.search(line.strip())
        if run is None or line.lstrip().startswith("#"):
            continue
        line = line.strip()
        array = _ASSIGN.match(line)
        rest = line[run.end() :]
        if array is not None and array.group(3).strip().startswith("("):
            rest = rest[: rest.rfind(")")] if ")" in rest else rest
            rest = " ".join([rest, *appends.get(array.group(1), [])[1:]])
        rest = re.split(r"&&|\|\||;|\|", rest, maxsplit=1)[0]
        try:
            words = shell_split(rest)
        except ValueError:
            return None
        found: list[str] | None = None
        index = 0
        while index < len(words):
            word = words[index]
            unset = _VARIABLE.fullmatch(word)
            if unset is not None and _never_set(unset.group(1), scalars, opened):
                if index + 1 < len(words) and words[index + 1].startswith("-"):
                    index += 1  # `$DETACH` before `--gpus all`: options from the caller, none in a plain run
                    continue
            values = resolved(word)
            if values is None:
                return None
            if all(v.startswith("-") for v in values):
                index += 1 if "=" in word or not all(takes_value(v) for v in values) else 2
                continue
            if any(v.startswith("-") for v in values):
                return None
            found = values
            break
        if found is None:
            return None
        images.extend(found)
        first = first or number
    return _Runs(tuple(dict.fromkeys(images)), first) if images else None


_OPEN_PART = re.compile(r"\$\{[A-Za-z_]\w*\}")
"""A part of an image name a variable with no value of the script's fills in (`runs_of_script`)."""
_LOOSE_DOLLAR = re.compile(r"\$")


def _open_pattern(image: str) -> re.Pattern[str] | None:
    r"""The names the `_name`d image `image` with `${NAME}` parts may stand for, each part a text with
    no `/` (`llamacpp_rocm_[^/]*\.minimal`): None when a part starts the name, a path part or the tag
    (`${REGISTRY}/app`, `app:${TAG}`), where it may be anything."""
    if _OPEN_PART.search(image) is None:
        return re.compile(re.escape(image))
    if re.search(r"(?:\A|[/:@])\$\{", image):
        return None
    parts = _OPEN_PART.split(image)
    return re.compile("[^/:]*".join(re.escape(p) for p in parts))


def _never_set(name: str, scalars: dict[str, list[str]], opened: set[str]) -> bool:
    """True when a script (and the files it sources) never sets `name`, nor reads it with a default."""
    return name not in scalars and name not in opened


_PATTERN_RULE = re.compile(r"^%[^:\n]*::?[^=\n]*\n((?:\t[^\n]*\n)*)", re.MULTILINE)


def _idle_goal(text: str, target: str) -> bool:
    """Whether `make TARGET` does nothing in the Makefile `text` but for the other goals of its line:
    no rule names `target`, and each pattern rule's recipe does nothing (`%:` with `@:`), the way a
    Makefile takes a goal as a word for another (`make run model-a`)."""
    rules = makefile.rule_targets(text)
    if rules is None or target in rules:
        return False
    bodies = [m.group(1) for m in _PATTERN_RULE.finditer(text + "\n")]
    return bool(bodies) and all(
        line.strip() in ("@:", ":", "@true", "true") for body in bodies for line in body.splitlines()
    )


def _gives_nothing_unread(
    recipe: makefile.TargetRecipe, body_of: Callable[[str], tuple[str | None, bool]]
) -> bool:
    """Whether the other commands of a make target's `recipe` give no image: no sub-make, no pull, tag
    or load, and each script they run read (`body_of`: its text, whether it pulls, tags or loads) and
    doing none of these."""
    for command in recipe.others:
        program = command.words[0]
        if program in ("make", "gmake", "$MAKE") or program.endswith("/make"):
            return False
        if _HAS.search(" ".join(command.words)):
            return False
        if "/" in program or program.endswith(".sh"):
            if "$" in program:
                return False
            body, has = body_of(program)
            if body is None or has:
                return False
    return True


def _name(image: str) -> str:
    """An image reference without `docker.io/`, `library/` and a `:latest` tag, lower case."""
    image = image.lower().removeprefix("docker.io/").removeprefix("library/")
    return image.removesuffix(":latest")


@dataclass
class _Readme:
    """What the README's command blocks pull, tag, build and run, in line order."""

    pulls: list[tuple[int, str]]
    tags: list[tuple[int, str | None]]
    """(line, image name; None for a build whose tag is not known)."""
    runs: list[tuple[int, str, str]]
    """(line, `make`, `script` or `other` (a make of another folder or file), the target or the
    script's path)."""
    loads: bool
    builds: list[tuple[int, str]]
    """(line, image name) of each tag a `docker build -t` gives literally."""


_COMPOSE_MAKES = re.compile(
    r"\b(?:docker[ \t]+compose|docker-compose|podman-compose|podman[ \t]+compose)\b[^\n]*?"
    r"\b(?:build|up|run|create)\b"
)
"""A compose command that may build its services' images, under the `image:` names of its file."""


def _readme(doc: Document) -> _Readme:
    found = _Readme([], [], [], False, [])
    for fence in doc.fences:
        for lines in fence_commands(fence):
            line = lines[0][0]
            command = without_prompt(joined(lines).strip())
            if command.startswith("#"):
                continue
            found.loads = found.loads or bool(_LOADS.search(command))
            found.pulls += [(line, m.group(1)) for m in _PULL.finditer(command)]
            for match in TAG_COMMAND.finditer(command):
                found.tags += [(line, match.group(1)), (line, match.group(2))]
            if BUILD.search(command):
                tags = _TAG_FLAG.findall(command)
                found.tags += [(line, None if "$" in t else t) for t in tags] or [(line, None)]
                found.builds += [(line, t) for t in tags if "$" not in t]
            if _COMPOSE_MAKES.search(command):
                found.tags.append((line, None))  # images a compose file names, not read here
            for part in re.split(r"&&|;|\|\|", command):
                part = part.strip().removeprefix("sudo ").strip()
                make = MAKE.search(part)
                if make is not None:
                    targets = named_targets(make.group(2).split())
                    found.runs += (
                        [(line, "make", t) for t in targets] if targets is not None else [(line, "other", "")]
                    )
                    continue
                script = _SCRIPT.match(part)
                if script is not None:
                    found.runs.append((line, "script", script.group(1)))
    return found


def pulled_runs(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A make target or script the README runs after pulling an image, whose `docker run` runs an image
    that is none of those pulled (see the module's docstring): `README pulls org/llm-server:latest
    (line 9), but make serve runs serve.sh, whose docker run (serve.sh:12) runs llm-server-gfx90a,
    which nothing the README pulls, builds or tags before is named` (`likely`)."""
    read = _readme(doc)
    if not (read.pulls or read.builds) or read.loads or not read.runs:
        return
    path = makefile_in(directory)
    text = makefile_text(path) if path is not None else None
    made: dict[str, makefile.TargetRecipe | None] = {}

    def recipe(target: str) -> makefile.TargetRecipe | None:
        if target not in made:
            made[target] = makefile.target_recipe(text, target) if text is not None else None
        return made[target]

    # each script, make target and earlier command read once, whatever the number of commands
    bodies: dict[str, tuple[str | None, bool]] = {}  # script → (its text, whether it gives an image)
    script_runs: dict[str, _Runs | None] = {}

    def body_of(script: str) -> tuple[str | None, bool]:
        if script not in bodies:
            body = text_or_none(directory / script)
            bodies[script] = (body, body is not None and bool(_HAS.search(body)))
        return bodies[script]

    def runs_of(script: str, body: str) -> _Runs | None:
        if script not in script_runs:
            script_runs[script] = runs_of_script(body, open_parts=True)
        return script_runs[script]

    def given(kind: str, target: str) -> set[str | None] | None:
        """The image names a command run before may give (None: one not read), None when it gives none."""
        if kind == "other":
            return {None}  # a make in another folder or of another file
        if kind == "script":
            earlier_body, has = body_of(target)
            return {None} if earlier_body is None or has else None  # a script run first may give the image
        earlier = recipe(target)
        if earlier is None and text is not None and _idle_goal(text, target):
            return None  # a word for the target before it (`make run model-a`), made by an idle `%:`
        if earlier is None or not _gives_nothing_unread(earlier, body_of):
            return {None}  # a target made first may give it in a way not read
        return {_name(t) if t is not None else None for b in earlier.builds for t in b.tags}

    # the first README line at which each image name (None: one not known) is pulled, and at which it
    # is built, tagged or given by a command run: a command sees what comes before its line
    first_pulled: dict[str | None, int] = {}
    for n, i in read.pulls:
        first_pulled[_name(i)] = min(n, first_pulled.get(_name(i), n))
    first_before: dict[str | None, int] = {}
    for n, t in read.tags:
        key_ = _name(t) if t is not None else None
        first_before[key_] = min(n, first_before.get(key_, n))
    gives: dict[tuple[str, str], set[str | None] | None] = {}
    for target_line, target_kind, target in read.runs:
        if (target_kind, target) not in gives:
            gives[(target_kind, target)] = given(target_kind, target)
        for key_ in gives[(target_kind, target)] or ():
            first_before[key_] = min(target_line, first_before.get(key_, target_line))

    def seen(first: dict[str | None, int], name: str | None, line: int) -> bool:
        at = first.get(name)
        return at is not None and at < line

    named: dict[str, tuple[bool, int | None, str]] = {}  # script → (never told, told before, key)
    told: dict[str, tuple[int, list[int]]] = {}
    messages: dict[str, str] = {}
    for line, kind, name in read.runs:
        if kind == "other":
            continue
        pulled = next(((n, i) for n, i in read.pulls if n < line), None)
        built = next(((n, i) for n, i in read.builds if n < line), None)
        if pulled is None and built is None:
            continue
        if kind == "make":
            got = recipe(name)
            if got is None or got.builds:
                continue
            scripts = [c for c in got.others if c.words[0].endswith(".sh") or "/" in c.words[0]]
            if len(scripts) != 1 or any(_HAS.search(" ".join(c.words)) for c in got.others):
                continue
            script, shown = scripts[0].words[0], f"make {name} runs {scripts[0].words[0].removeprefix('./')}"
        else:
            script, shown = name, f"{name.removeprefix('./')}"
        if "$" in script:
            continue
        body, has = body_of(script)
        if body is None or has:
            continue
        runs = runs_of(script, body)
        if runs is None:
            continue
        if script not in named:
            # a script's images, read once: never told when one has a namespace or is an official image,
            # nor from the first line on that pulls, builds, tags or gives one
            names = [_name(i) for i in runs.images]
            patterns = [_open_pattern(n) for n in names]
            fixed = any(
                "/" in i
                or pattern is None
                or any(p.fullmatch(o) for o in OFFICIAL if (p := _open_pattern(n.split(":", 1)[0])))
                for i, n, pattern in zip(runs.images, names, patterns, strict=True)
            )
            lines_ = [
                at
                for pattern in patterns
                if pattern is not None
                for first in (first_pulled, first_before)
                for given_name, at in first.items()
                if given_name is not None and pattern.fullmatch(given_name)
            ]
            named[script] = (fixed, min(lines_, default=None), f"{script}\0{' '.join(runs.images)}")
        fixed, from_line, key = named[script]
        if seen(first_before, None, line) or fixed or (from_line is not None and from_line < line):
            continue
        if pulled is None and any(named_beside(directory, script, i) for i in runs.images):
            continue  # with no pull, a file of the build beside the README may make it
        if key in told:
            told[key][1].append(line)
            continue
        told[key] = (line, [line])
        got_line, got_image = pulled or built or (0, "")
        verb = "pulls" if pulled else "builds"
        script_name = script.removeprefix("./")
        images = " or ".join(runs.images)
        callers = list(dict.fromkeys(m.group() for i in runs.images for m in _OPEN_PART.finditer(i)))
        if callers:
            images += f" ({', '.join(callers)}: the caller's value)"
        messages[key] = (
            f"README {verb} {got_image} (line {got_line}), but {shown}, whose docker "
            f"run ({script_name}:{runs.line}) runs {images}, which nothing the README pulls, builds or tags "
            "before is named"
        )
    for key, (line, lines) in told.items():
        yield Diagnostic(readme, line, messages[key] + also_at(lines), confidence=LIKELY)


_BESIDE = re.compile(r"\.(?:sh|bash|ya?ml|mk|hcl|json)\Z|\A(?:Makefile|GNUmakefile|[Jj]ustfile)\Z")
"""The files beside a README that may build or name an image: scripts, compose, bake, Make."""


def named_beside(directory: Path, script: str, image: str) -> bool:
    """Whether a file of the build in `directory` other than `script` names the repository of `image`
    as a word of its own (a build script, compose or bake file the README does not run may make it).
    The files are read once an audit (`_beside_texts`), whatever the number of images asked about."""
    repository = _name(image).split(":", 1)[0]
    word = re.compile(rf"(?<![\w./-]){re.escape(repository)}(?![\w/-])", re.IGNORECASE)
    ran = real_path(directory / script)
    return any(word.search(text) for path, text in _beside_texts(directory) if path != ran)


@per_audit(maxsize=16)
def _beside_texts(directory: Path) -> tuple[tuple[Path, str], ...]:
    """(real path, text) of each file of the build in `directory` (`_BESIDE`), in name order."""
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if _BESIDE.search(entry.name))
    except OSError:
        return ()
    found = []
    for name in names:
        path = directory / name
        if os.path.isfile(path) and (text := text_or_none(path)) is not None:
            found.append((real_path(path), text))
    return tuple(found)


_SET = re.compile(r"(?:^|[\s;&|])(?:export[ \t]+)?([A-Za-z_]\w*)=")
"""A variable a README command sets (`export ROCM_GPU_ARCH=gfx1100`, `make build ARCH=x`)."""
_MAKE_DEFAULT = re.compile(
    r"^[ \t]*(?:export[ \t]+|override[ \t]+)?([A-Za-z_]\w*)[ \t]*[?:+]?=[ \t]*(\S+)[ \t]*$"
)
_WORDS = re.compile(r"[-_./]+")


def _split(image: str) -> tuple[str, str]:
    """(repository, tag) of a `_name`d image (`latest` when none)."""
    tail = image.rsplit("/", 1)[-1]
    if ":" in tail:
        repository, tag = image.rsplit(":", 1)
        return repository, tag
    return image, "latest"


def _near(built: str, run: str) -> bool:
    """Whether the image `run` reads as a slip of the name `built`: the same repository under another
    tag (`jetson/cuda-base:10.2` built, `…:11.4` run), or the same tag under a name ending in the same
    word and sharing two words (`llamacpp_rocm_gfx1151.minimal` built, `llama-cpp-gfx1151.minimal`
    run)."""
    (b_repo, b_tag), (r_repo, r_tag) = _split(built), _split(run)
    if b_repo == r_repo:
        return b_tag != r_tag
    if b_tag != r_tag or ("/" in b_repo) != ("/" in r_repo):
        return False
    b_words, r_words = _WORDS.split(b_repo), _WORDS.split(r_repo)
    return b_words[-1] == r_words[-1] and len(set(b_words) & set(r_words)) >= 2


def built_never_run(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A make target the README runs to build an image, whose tag is a slip of the image the make target
    or script the README runs to start it runs: `make minimal` tags `llamacpp_rocm_gfx1151.minimal`
    (`MINIMAL_IMAGE_NAME := llamacpp_rocm_${ROCM_GPU_ARCH}.minimal`), `make run` runs `run_wrapper.sh`,
    whose `docker run` runs `llama-cpp-gfx1151.minimal`. Nothing the README does makes the run image,
    and nothing runs the built one (`likely`: the run script may pick another image in a branch)."""
    read = _readme(doc)
    if read.loads or not read.runs:
        return
    path = makefile_in(directory)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None:
        return
    bodies: dict[str, tuple[str | None, bool]] = {}  # script → (its text, whether it gives an image)

    def body_of(script: str) -> tuple[str | None, bool]:
        if script not in bodies:
            body = text_or_none(directory / script)
            bodies[script] = (body, body is not None and bool(_HAS.search(body)))
        return bodies[script]

    recipes: dict[str, makefile.TargetRecipe | None] = {}
    for _, kind, target in read.runs:
        if kind == "make" and target not in recipes:
            recipes[target] = makefile.target_recipe(text, target)
    made: set[str] = {_name(i) for _, i in read.pulls}
    for _, tag in read.tags:
        if tag is None:
            return  # a build whose tag is not known may make any image
        made.add(_name(tag))
    builds: list[tuple[int, str, int, str]] = []  # (README line, target, makefile line, tag)
    starts: list[tuple[int, str, str, _Runs]] = []  # (README line, shown, script, what it runs)
    unread: list[int] = []  # README lines of commands that may give an image in a way not read
    for line, kind, target in read.runs:
        if kind == "other":
            return
        if kind == "script":
            body, has = body_of(target) if "$" not in target else (None, True)
            if body is None or has:
                unread.append(line)  # a script that may give an image itself
                continue
            runs = runs_of_script(body)
            if runs is not None:
                starts.append((line, target.removeprefix("./"), target, runs))
            continue
        recipe = recipes.get(target)
        if recipe is None:
            if not _idle_goal(text, target):
                unread.append(line)
            continue
        for build in recipe.builds:
            for tag in build.tags:
                if tag is None:
                    return
                made.add(_name(tag))
                builds.append((line, target, build.line, tag))
        scripts = [c for c in recipe.others if c.words[0].endswith(".sh") or "/" in c.words[0]]
        if any(_HAS.search(" ".join(c.words)) for c in recipe.others) or not _gives_nothing_unread(
            recipe, body_of
        ):
            unread.append(line)
            continue
        if recipe.builds or len(scripts) != 1 or "$" in scripts[0].words[0]:
            continue
        script = scripts[0].words[0]
        body, has = body_of(script)
        if body is None or has:
            unread.append(line)
            continue
        runs = runs_of_script(body)
        if runs is not None:
            starts.append((line, f"make {target} runs {script.removeprefix('./')}", script, runs))
    if not builds or not starts:
        return
    if any(at < max(line for line, *_ in [*builds, *starts]) for at in unread):
        return  # a command before the last build or start may make the image: only later steps are not read
    # a value the README gives a make variable makes that part of a built tag any text
    given = {m.group(1) for _, lines in _commands(doc) for m in _SET.finditer(lines)}
    defaults = {m.group(1): m.group(2) for line in text.splitlines() if (m := _MAKE_DEFAULT.match(line))}
    varying = [defaults[name] for name in given if name in defaults and "$" not in defaults[name]]
    run_anywhere = {_name(i) for *_, runs in starts for i in runs.images}
    told: set[str] = set()
    for line, target, at, tag in builds:
        built = _name(tag)
        if built in run_anywhere or built in told:
            continue
        for start_line, shown, script, runs in starts:
            missing = [i for i in runs.images if _name(i) not in made and _near(built, _name(i))]
            if not missing or any(_loose(built, value, _name(i)) for i in missing for value in varying):
                continue
            told.add(built)
            images = " or ".join(runs.images)
            yield Diagnostic(
                readme,
                line,
                f"README builds with make {target}, which tags {tag} ({path.name}:{at}), but {shown} "
                f"(line {start_line}), whose docker run ({script.removeprefix('./')}:{runs.line}) runs "
                f"{images}: nothing the README runs makes {missing[0]}",
                confidence=LIKELY,
            )
            break


def _loose(built: str, value: str, run: str) -> bool:
    """Whether `built` with the text `value` (one a README variable replaces) read as any text names
    `run`."""
    if not value or value not in built:
        return False
    pattern = ".*".join(re.escape(p) for p in built.split(value))
    return re.fullmatch(pattern, run) is not None


def _commands(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, command text) of each command of the README's blocks."""
    for fence in doc.fences:
        for lines in fence_commands(fence):
            yield lines[0][0], without_prompt(joined(lines).strip())


_COMMIT = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+)?commit[ \t]+([^`\n;&|]*)")
"""A `docker commit`, and the words after it (to the end of its command or code span)."""
_COMMIT_VALUES = frozenset("-a --author -c --change -m --message".split())
_FILLED = re.compile(r"\$\{[^{}]*\}|<[^<>]*>|\[[^\[\]]*\]")
"""A value the reader fills in: `${CONTAINER ID}`, `<container_id>`, `[container]` (spaces inside)."""


def _committed(words_text: str) -> str | None:
    """The image a `docker commit`'s words (`_COMMIT`'s group) name, None when they name none or name it
    through a value the reader fills in."""
    try:
        words = shell_split(_FILLED.sub("CONTAINER", words_text))
    except ValueError:
        return None
    positional: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = "=" not in word and word in _COMMIT_VALUES
        else:
            positional.append(word)
    if len(positional) != 2 or re.search(r"[$<>{}\[\]`'\"]", positional[1]):
        return None
    return positional[1]


def _commits(doc: Document) -> list[tuple[int, str]]:
    """(README line, image) of each `docker commit` of a command block or of a code span of the prose."""
    found: list[tuple[int, str]] = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            for match in _COMMIT.finditer(without_prompt(joined(lines))):
                image = _committed(match.group(1))
                if image is not None:
                    found.append((lines[0][0], image))
    for para in doc.paragraphs:
        for line, text in para.lines:
            for _, _, code in code_spans(text):
                for match in _COMMIT.finditer(code):
                    image = _committed(match.group(1))
                    if image is not None:
                        found.append((line, image))
    return sorted(found)


_TAGS_IN = re.compile(r"(?:^|[ \t])(?:-t|--tag)(?:[ \t]+|=)[\"']?([^\s\"';|&]+)", re.MULTILINE)


def _project_built(repository: str, doc: Document, directory: Path) -> bool:
    """Whether a build of the README or of a script, Make, compose or bake file beside it tags
    `repository` (`docker.io/` and a tag aside): an image of the project, not a public one."""
    tags = {t for _, t in _readme(doc).builds}
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if _BESIDE.search(entry.name))
    except OSError:
        names = []
    for name in names:
        path = directory / name
        if os.path.isfile(path):
            tags.update(_TAGS_IN.findall(text_or_none(path) or ""))
    return any(_name(t).split(":", 1)[0] == repository for t in tags if "$" not in t)


def committed_unrun(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A `docker commit` of the README saving the container under a name (`openpcdet:latest`) that
    nothing the README runs starts, while the run script the README runs before it (`./run.sh`) starts
    the same repository name under an owner or another tag (`darrenjkt/openpcdet:latest`) with no way to
    change it (a literal image: no argument, no environment default): the next run starts the image
    built, not the one saved, and what was done in the container is lost (`likely`, "did you mean …?").
    Silent when the README runs, tags, pushes or names the saved image anywhere but in its commit, when
    it loads or imports images, when the run script's image comes from a variable the reader may set,
    for a name the reader fills in (`<new_image>`), and when no build of the README or file beside it
    tags the image run (a public image the reader customises)."""
    commits = _commits(doc)
    if not commits:
        return
    read = _readme(doc)
    if read.loads:
        return
    # the images the README's runs and the scripts it runs start: (README line, image, script, line)
    started: list[tuple[int, str, str, int]] = [
        (line, image, "", line) for line, image, _, _ in _image_runs(doc)
    ]
    for line, kind, script in read.runs:
        if kind != "script" or "$" in script:
            continue
        body = text_or_none(directory / script)
        runs = runs_of_script(body) if body is not None else None
        if runs is not None:
            started += [(line, image, script.removeprefix("./"), runs.line) for image in runs.images]
    if not started:
        return
    commit_lines = {line for line, _ in commits}
    texts = [t for f in doc.fences for n, t in f.lines if n not in commit_lines]
    texts += [t for p in doc.paragraphs for n, t in p.lines if n not in commit_lines]
    texts += [cell for t in doc.tables for _, cells in t.rows for cell in cells]
    told: set[str] = set()
    for line, image in commits:
        saved = _name(image)
        repository = saved.split(":", 1)[0]
        if saved in told or any(_name(i) == saved for _, i, _, _ in started):
            continue
        tag = saved.split(":", 1)[1] if ":" in saved else "latest"
        word = re.compile(
            rf"(?<![\w./-]){re.escape(repository)}"
            + (r"(?::latest)?" if tag == "latest" else rf":{re.escape(tag)}")
            + r"(?![\w/:-])(?!\.\w)"
        )
        if any(word.search(t) for t in texts):
            continue
        last = repository.rsplit("/", 1)[-1]
        near = [s for s in started if s[0] < line and _name(s[1]).split(":", 1)[0].rsplit("/", 1)[-1] == last]
        if len({_name(s[1]) for s in near}) != 1:
            continue
        at, run_image, script, script_line = near[0]
        if not _project_built(_name(run_image).split(":", 1)[0], doc, directory):
            continue  # a public image the reader customises (`nvidia/cuda` saved as `cuda:mine`)
        told.add(saved)
        where = f"{script}, which the README runs (line {at}), starts {run_image} ({script}:{script_line})"
        if not script:
            where = f"its docker run (line {at}) starts {run_image}"
        yield Diagnostic(
            readme,
            line,
            f"README commits the container as {image}, but {where} and nothing the README runs starts "
            f"{image}: the next run starts the built image, not the saved one (did you mean {run_image}?)",
            confidence=LIKELY,
        )


def one_part_apart(first: str, second: str) -> tuple[str, str] | None:
    """The parts in which two last names of images differ when they split at `-` and `_` alike but in
    one part, each side of it holding a digit (`onnx1150-1171`, `onnx1150-v1171`: `1171`, `v1171`); None
    otherwise."""
    a, b = re.split(r"[-_]", first), re.split(r"[-_]", second)
    if len(a) != len(b):
        return None
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differ) != 1 or not all(re.search(r"[0-9]", part) for part in differ[0]):
        return None
    return differ[0]


def _one_part_off(pulled: str, run: str) -> tuple[str, str] | None:
    """The parts (`1171`, `v1171`) in which the image `run` differs from `pulled`: the same registry,
    owner and tag, the last names one part apart (`one_part_apart`); None otherwise."""
    (p_repo, p_tag), (r_repo, r_tag) = _split(_name(pulled)), _split(_name(run))
    p_head, _, p_last = p_repo.rpartition("/")
    r_head, _, r_last = r_repo.rpartition("/")
    if p_tag != r_tag or p_head != r_head:
        return None
    return one_part_apart(p_last, r_last)


def pulled_slips(doc: Document, text: str, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A pull one part off the image the script run after it in the same block runs (see the module's
    docstring): `README pulls X, then runs vision-stack/pull_run.sh (line 11), whose docker run (…)
    runs Y: the names differ in one part, …` (`likely`), at the pull's line."""
    said = text.lower()
    read: dict[str, tuple[_Runs, str] | None] = {}  # script path → its runs and the files it sources

    def runs_at(path: str, folder: str) -> tuple[_Runs, str] | None:
        if path not in read:
            read[path] = _sourced_runs(directory, path, folder)
        return read[path]

    for fence in doc.fences:
        folder = ""
        pulls: list[tuple[int, str]] = []
        for lines in fence_commands(fence):
            command = without_prompt(joined(lines).strip())
            if command.startswith("#"):
                continue
            for part in re.split(r"&&|;|\|\|", command):
                part = part.strip().removeprefix("sudo ").strip()
                if (cd := CD.match(part)) is not None:
                    folder = entered(folder, cd.group(1), frozenset())
                    continue
                pulls += [(lines[0][0], m.group(1)) for m in _PULL.finditer(part)]
                script = _SCRIPT.match(part)
                if script is None or not pulls or folder.startswith("$") or "$" in script.group(1):
                    continue
                path = posixpath.normpath(posixpath.join(folder, script.group(1)))
                found = runs_at(path, folder)
                if found is None:
                    continue
                runs, sourced = found
                pulled_line, pulled = pulls[-1]
                if any(_name(i) == _name(pulled) for i in runs.images):
                    continue
                for image in runs.images:
                    off = _one_part_off(pulled, image)
                    if off is None or _name(image).split(":", 1)[0] in said:
                        continue
                    given = f", with the values {sourced} gives" if sourced else ""
                    yield Diagnostic(
                        readme,
                        pulled_line,
                        f"README pulls {pulled}, then runs {path} (line {lines[0][0]}), whose docker run "
                        f"({path}:{runs.line}{given}) runs {image}: the names differ in one part, {off[0]} "
                        f"and {off[1]}, and the image pulled is not the one run",
                        confidence=LIKELY,
                    )
                    break


def _sourced_runs(directory: Path, path: str, folder: str) -> tuple[_Runs, str] | None:
    """The images the script at `path` (from the README's folder) runs, the files it sources first read
    (from its own folder, or `folder`, where the README runs it), and those files' paths as shown; None
    when it cannot be read, pulls, builds, tags or loads an image itself, or its images cannot be told."""
    body = text_or_none(directory / path)
    if body is None or _HAS.search(body):
        return None
    texts: list[str] = []
    shown: list[str] = []
    for sourced in sourced_files(body):
        base = posixpath.dirname(path) if sourced.in_script else folder
        where = posixpath.normpath(posixpath.join(base, sourced.path))
        given = text_or_none(directory / where) if not where.startswith("..") else None
        if given is None or _HAS.search(given):
            return None
        texts.append(given)
        shown.append(where)
    runs = runs_of_script(body, "\n".join(texts))
    return (runs, " and ".join(shown)) if runs is not None else None
