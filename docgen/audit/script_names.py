"""Image and container names of the scripts a README runs, against what the README says they are.

Two claims, each `certain` (names read from the files as written):

- `chained_runs`: a README block runs a build script, then a run script (`sh docker_build.sh`, `sh
  docker_run.sh`), or a later block of the same section does (`1. Build:` then `2. Run:`), and the
  image the run script's `docker run` runs is not one the build script tags while both name the same
  repository (`gaze` built, `balinlin/gaze:1.0.0` run: a later assignment of `IMAGE` in the run script
  wins). The run does not start the image the build just made. Variables are
  read as a plain run (no argument) gives them (`build_scripts`), the last literal assignment before
  the line winning; a variable holding options (`GPU="--gpus all"`) is skipped as options. Silent when
  the run script builds, pulls or tags an image itself, when the image cannot be told, and when the
  README names the run image anywhere (a pull, a tag of its own).
- `compose_names`: a sentence naming the image or container a script makes (`Creating an image named
  `{YOUR_HOST_NAME}/lerobot:latest``, `a container named `…_gnfactor``) right above the block running
  the script, whose `docker-compose` / `docker compose` command builds or starts services of the compose
  file beside the README: their `image:` (for an image) or `container_name:` (for a container), the
  script's variables put in (`TAG_NAME` the script exports), none of which can be the name. A
  placeholder of the README (`{YOUR_HOST_NAME}`, `<user>`, `$USER`) and a variable neither the script
  nor the file gives (`${USER}`) stand for any text; a name without a tag is `:latest`.

And, `likely`, `script_built_runs`: a `docker run` of the README after a build script it tells the
reader to run (a code span of its prose, `Run the script `make_serving_image.sh``, or a command block),
whose image the script never tags while their names share a word (`serving_cls_model:v1` run,
`serving_probe:v2` built): the run does not start the image the script made. Read only when the script
builds with tags it gives in full and starts no container itself, nothing the README runs between them
pulls, builds, tags, loads or composes an image, and no script, compose, bake or Make file beside the
README names the run image. The run may be an image of the script's repository the README gives a run
script (`./run.sh --container app:0.1-amd64`); a tag of the script with a part it does not set itself
(`app:r$L4T`) is a pattern no run matching it is told against; and another shell script of its folder
the README does not name that tags the run's image exactly is named ("did you mean ./build_amd64.sh?")
instead of silencing the finding as a file naming the image.

And, `likely` (read from prose), `commented_programs`: a block runs a script the line above says runs a
program (`run a test demo`) that the script's `docker run` line holds only behind a `#`. And
`prose_names`: a line naming one script (`` `./docker/build.sh`: the image's name is `App` ``,
`イメージの名前は`…``, `容器名称为`…``) and the name of the image or the container it makes, which
no `-t` / `docker tag` of the script (a name with no tag: its repository) or no `--name` of its
`docker run` (else the container its `docker exec` / `docker attach` enters) can be.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from docgen import compose, patterns
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import TAG_FLAG, fence_commands, image_repository, joined, without_prompt
from docgen.audit.grammar import COMPOSE, EXEC, RUN, options_grammar, read_compose, read_words
from docgen.audit.missing import WALK_LIMIT
from docgen.audit.names import compose_file, takes_value
from docgen.audit.pulled_runs import named_beside
from docgen.audit.references import inside, project_top
from docgen.audit.run_args import image_runs
from docgen.audit.wording import line_above
from docgen.build_scripts import (
    ASSIGN,
    BLANK_AFTER,
    BUILD,
    UNKNOWN,
    WITH_NVIDIA,
    built_tag_lines,
    container_command,
    walk_assignments,
)
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic
from docgen.shell import shell_split

_SCRIPT = re.compile(r"^(?:(?:ba|z)?sh[ \t]+([\w./-]+\.sh)|(\.{0,2}/[\w./-]+\.sh))(?=[ \t]|$)")
"""A script the README runs: `./run.sh`, `bash tools/run.sh`, `sh run.sh` (a bare `run.sh` is a name in a
list of files, not run: the shell looks for it on the PATH)."""
_RUN = re.compile(
    r"(?:^|[;&|(]|\b(?:then|do|else|sudo|exec|time|nohup)[ \t])[ \t]*"
    + container_command("run", WITH_NVIDIA, start="", end=BLANK_AFTER)
)
"""A `docker run` (`nvidia-docker run`) where a command starts (not in an `echo` or a comment's words)."""
_GIVES = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?(?:pull|tag|load|import)\b|" + BUILD.pattern)
"""What gives a machine an image: a pull, a tag, a load, an import or a build."""
_RAW_ASSIGN = re.compile(r"^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)=(.*)$")
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?\Z")
_REFERENCE = re.compile(r"\$\{([A-Za-z_]\w*)(?::?-([^{}]*))?\}|\$([A-Za-z_]\w*)")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|<[^<>]*>|\[[^\[\]]*\]|\$\{[^{}]*\}|\$[A-Za-z_]\w*")
_NAMED = re.compile(
    r"\b(?:an?|the)[ \t]+(image|container)[ \t]+(?:named|called|tagged(?:[ \t]+as)?)[ \t]+`([^`\s]+)`",
    re.IGNORECASE,
)
"""`Creating an image named `x/app:latest``, `a container called `x_app``: a name a sentence gives."""


def _readme_scripts(commands: list[list[tuple[int, str]]]) -> list[tuple[int, str]]:
    """(README line, script path) of each script the commands run, in order."""
    found = []
    for lines in commands:
        command = without_prompt(joined(lines).strip())
        if command.startswith("#"):
            continue
        for part in re.split(r"&&|;|\|\|", command):
            script = _SCRIPT.match(part.strip().removeprefix("sudo ").strip())
            if script is not None:
                found.append((lines[0][0], script.group(1) or script.group(2)))
    return found


def _option_variables(text: str) -> set[str]:
    """The variables every assignment of the script `text` gives a value starting with `-`: options
    (`GPU="--gpus all"`, `VOLUMES="-v=…`)."""
    raws: dict[str, list[str]] = {}
    for line in text.splitlines():
        if (assign := _RAW_ASSIGN.match(line)) is not None:
            raws.setdefault(assign.group(1), []).append(assign.group(2).strip().lstrip("\"'"))
    return {name for name, values in raws.items() if all(v.startswith("-") for v in values)}


def _joined_lines(text: str) -> list[str]:
    """The lines of the script `text` with each continued command (`\\` at a line's end) joined on its
    first line, the lines it took blank: a line keeps its number."""
    lines = text.splitlines()
    start = 0
    while start < len(lines):
        at = start
        while (
            lines[start].endswith("\\") and at + 1 < len(lines) and not lines[start].lstrip().startswith("#")
        ):
            at += 1
            lines[start] = lines[start][:-1] + " " + lines[at]
            lines[at] = ""
        start = at + 1
    return lines


def _run_images(text: str) -> list[tuple[int, str, str | None]]:
    """(script line, image, the variable it is read from) of each `docker run` of the script `text`
    whose image can be told."""
    options = _option_variables(text)
    found = []
    for index, line, variables in walk_assignments(_joined_lines(text), {}):
        run = _RUN.search(line.strip())
        if run is None or line.lstrip().startswith("#"):
            continue
        rest = re.split(r"&&|\|\||;|\|", line.strip()[run.end() :], maxsplit=1)[0]
        try:
            words = shell_split(rest)
        except ValueError:
            continue
        at = 0
        image = None
        while at < len(words):
            word = words[at]
            variable = _VARIABLE.fullmatch(word)
            if variable is not None and variable.group(1) not in variables:
                if variable.group(1) in options:
                    at += 1
                    continue
                break  # a word not known
            value = variables[variable.group(1)] if variable is not None else word
            if value.startswith("-"):
                at += 1 if "=" in value or not takes_value(value) else 2
                continue
            image = value if "$" not in value and UNKNOWN not in value else None
            break
        if image:
            found.append((index + 1, image, variable.group(1) if variable is not None else None))
    return found


def _set_at(text: str, name: str, before: int) -> int | None:
    """The script line of the last assignment of `name` before line `before` of the script `text`, read
    as `walk_assignments` reads assignments (`build_scripts.ASSIGN`): the one whose value the run used, not a
    command's own environment (`IMAGE=x echo …`) nor a value `walk_assignments` does not take."""
    lines = text.splitlines()[: before - 1]
    return next(
        (n for n in range(len(lines), 0, -1) if (a := ASSIGN.match(lines[n - 1])) and a.group(1) == name),
        None,
    )


def _script_text(directory: Path, script: str, top: Path) -> str | None:
    """The text of the script `script` (a README's path) from the README's folder `directory`, when it
    is a file inside the project `top` (`../x.sh`, `/abs/x.sh` and links out of it are not read)."""
    if "$" in script:
        return None
    found = inside(directory.absolute() / script, top)
    return text_or_none(found) if found is not None else None


def _repository(image: str) -> str:
    name = image.lower().removeprefix("docker.io/").removeprefix("library/")
    tail = name.rsplit("/", 1)[-1]
    return name.rsplit(":", 1)[0] if ":" in tail else name


def _full(image: str) -> str:
    """`image` with `:latest` when it names no tag, without `docker.io/` and `library/`."""
    name = image.lower().removeprefix("docker.io/").removeprefix("library/")
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"


def chained_runs(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The first claim of the module (see its docstring)."""
    text_of: dict[str, str | None] = {}
    top = project_top(directory, project)

    def body(script: str) -> str | None:
        if script not in text_of:
            text_of[script] = _script_text(directory, script, top)
        return text_of[script]

    said = "\n".join(t for f in doc.fences for _, t in f.lines)
    section_built: dict[int, list[tuple[str, int, str]]] = {}
    for fence in doc.fences:
        # (script, line, tag) of the builds run so far in the fence's section: a Quick Start's `1.
        # Build` block then its `2. Run` block are one chain
        built = section_built.setdefault(fence.section, []) if fence.section else []
        for run_line, script in _readme_scripts(list(fence_commands(fence))):
            text = body(script)
            if text is None:
                continue
            tags = built_tag_lines(text)
            if tags or _GIVES.search(text):
                built.extend((script, n, t) for n, t in tags)
                continue
            for source, told in _other_runs(text, script, built, said) if built else ():
                yield Diagnostic(
                    readme,
                    run_line,
                    f"README runs {source}, then {script.removeprefix('./')}: {told}, not the image the "
                    "build script made",
                    confidence="certain",
                )


_COMMENTED_PROGRAM = re.compile(
    r"[ \t]#[ \t]*(?P<command>(?:python3?|bash|sh|torchrun|accelerate|deepspeed|jupyter|\./)[^\n#]*?)[ \t]*$"
)
"""A `docker run` line ending in a command behind `#` (`… zakuro/sakura bash # python demo.py`)."""
_RUN_VERB = re.compile(r"\b(?:run|runs|running|launch\w*|start\w*|execut\w*|train\w*|test\w*)\b", re.I)


def _commented_runs(text: str) -> Iterator[tuple[int, str, str]]:
    """(script line, the command before the `#`, the command behind it) of each `docker run` of the
    script `text` whose line ends in a command left in a comment: the shell drops it. The line is the
    one holding the `#`."""
    raw = text.splitlines()
    for index, line in enumerate(_joined_lines(text)):
        run = _RUN.search(line.strip())
        if run is None or line.lstrip().startswith("#"):
            continue
        comment = _COMMENTED_PROGRAM.search(line)
        if comment is None:
            continue
        before = line[: comment.start()]
        if before.count('"') % 2 or before.count("'") % 2 or "$(" in before[before.rfind("#") :]:
            continue  # a `#` inside quotes is no comment
        at = next(
            (n for n in range(index, len(raw)) if "#" in raw[n] and comment.group("command") in raw[n]), index
        )
        yield at + 1, before.strip(), comment.group("command")


def commented_programs(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A README block runs a script (`sh docker.sh`) that the line above says runs something (`To
    build the image and launch a container to run a test demo on MNIST.`), while the script's `docker
    run` line holds that program only behind a `#` (`… -it zakuro/sakura bash # python demo.py`): the
    shell drops the comment, the container starts the command before it, and the program the README
    promises never runs (`likely`: the promise is prose). The program is matched by its file's stem
    (`demo` of `demo.py`) or its name, as a word of the line above."""
    top = project_top(directory, project)
    for fence in doc.fences:
        if fence.inline or fence.loose:
            continue
        above = line_above(doc, fence) or ""
        if not _RUN_VERB.search(above):
            continue
        for run_line, script in _readme_scripts(list(fence_commands(fence))):
            text = _script_text(directory, script, top)
            if text is None:
                continue
            for line, before, command in _commented_runs(text):
                words = command.split()
                files = [w for w in words if re.search(r"\.(?:py|sh|ipynb)\Z", w)]
                key = PurePosixPath(files[0]).stem if files else words[0].lstrip("./")
                if len(key) < 3 or not re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", above, re.I):
                    continue
                kept = " ".join(before.split()[-2:])
                yield Diagnostic(
                    readme,
                    run_line,
                    f"README says {script.removeprefix('./')} runs {key} ({above.strip()!r}), but "
                    f"{script.removeprefix('./')}:{line} leaves `{command}` in a comment (`{kept} # "
                    f"{command}`): the shell drops it, and the container runs only what comes before",
                    confidence=LIKELY,
                )
                break


def _other_runs(
    text: str, script: str, built: list[tuple[str, int, str]], said: str
) -> Iterator[tuple[str, str]]:
    """What is told of each `docker run` of the run script `text` that runs an image of a repository the
    build scripts `built` tag ((script, line, tag)), under a name none of them gives and the README
    (`said`, its command text) never writes: (the build script, `build.sh:3 tags …, but run.sh:9 runs
    …`)."""
    for line, image, variable in _run_images(text):
        made = {_full(t) for _, _, t in built}
        if _full(image) in made or _repository(image) in said.lower():
            continue
        last = _repository(image).rsplit("/", 1)[-1]
        same = [b for b in built if _repository(b[2]).rsplit("/", 1)[-1] == last]
        if not same:
            continue
        source, at, tag = same[-1]
        runs = script.removeprefix("./")
        set_at = _set_at(text, variable, line) if variable is not None else None
        where = f" (${variable} set at {runs}:{set_at})" if set_at is not None else ""
        yield (
            source.removeprefix("./"),
            f"{source.removeprefix('./')}:{at} tags {tag}, but {runs}:{line} runs {image}{where}",
        )


_PATH_WORD = patterns.compile(r"[\w./-]++")
"""A run of the letters a script's path is written with, whole (possessive: a huge word is read once)."""
_BUILT_FROM = re.compile(
    r"`?[^.;]*?\b(?:built|made|created)[ \t]+(?:from|by|with|using)"
    r"[ \t]+(?:the[ \t]+)?`?(?P<build>[\w./-]+\.sh)\b",
    re.IGNORECASE,
)
"""What follows a run script's name in `run-orin.sh : script for running docker image that was built
from Build.sh`: the words naming the build script whose image it runs."""


def _built_from(text: str) -> Iterator[tuple[str, str]]:
    """(run script, build script) of each sentence of `text` naming a run script and the build script
    whose image it runs (`_BUILT_FROM` after a word ending `.sh`)."""
    for word in _PATH_WORD.finditer(text):
        if word.group().endswith(".sh") and (after := _BUILT_FROM.match(text, word.end())) is not None:
            yield word.group(), after.group("build")


def _case_path(directory: Path, script: str, top: Path) -> str | None:
    """`script` as the README writes it when it is a file, else the one file of its folder whose name
    differs only in case (`Build.sh` for `build.sh`: the sentence still means that script)."""
    if "$" in script or "\0" in script:
        return None
    if inside(directory.absolute() / script, top) is not None and os.path.isfile(directory / script):
        return script
    folder, _, name = script.rpartition("/")
    try:
        names = [n for n in os.listdir(directory / folder) if n.lower() == name.lower()]
    except (OSError, ValueError):
        return None
    return (f"{folder}/{names[0]}" if folder else names[0]) if len(names) == 1 else None


def described_chains(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A sentence saying a run script runs the image a build script builds (`run-orin.sh : script for
    running docker image that was built from Build.sh`), while the run script's `docker run` runs another
    tag of the repository the build script tags (`likely`: read from prose)."""
    top = project_top(directory, project)
    said = "\n".join(t for f in doc.fences for _, t in f.lines)
    told: set[tuple[str, str]] = set()
    for para in doc.paragraphs:
        for line, text in para.lines:
            for said_run, said_build in _built_from(text):
                run = _case_path(directory, said_run, top)
                build = _case_path(directory, said_build, top)
                if run is None or build is None or run == build or (run, build) in told:
                    continue
                run_text, build_text = _script_text(directory, run, top), _script_text(directory, build, top)
                if run_text is None or build_text is None or _GIVES.search(run_text):
                    continue
                built = [(build, n, t) for n, t in built_tag_lines(build_text)]
                if not built or any(UNKNOWN in t or "$" in t for _, _, t in built):
                    continue
                for _, what in _other_runs(run_text, run, built, said):
                    told.add((run, build))
                    yield Diagnostic(
                        readme,
                        line,
                        f"README says {said_run} runs the image built by {said_build}: {what}",
                        confidence=LIKELY,
                    )


def _pattern(name: str) -> str:
    """`name` with its placeholders as `*`."""
    return _PLACEHOLDER.sub(UNKNOWN, name)


def _could_be(a: str, b: str) -> bool:
    """True when the names `a` and `b`, each `*` standing for any text, can be one name."""
    if UNKNOWN not in a or UNKNOWN not in b:
        pattern, other = (a, b) if UNKNOWN in a else (b, a)
        regex = ".*".join(re.escape(p) for p in pattern.split(UNKNOWN))
        return re.fullmatch(regex, other) is not None
    x, y = a.split(UNKNOWN), b.split(UNKNOWN)
    starts = x[0].startswith(y[0]) or y[0].startswith(x[0])
    ends = x[-1].endswith(y[-1]) or y[-1].endswith(x[-1])
    return starts and ends


def _put_in(value: str, variables: dict[str, str], star: bool) -> str:
    """`value` with the variables the script gives put in; the others `*` (`star`) or as written."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(3)
        if name in variables:
            return variables[name]
        if match.group(2) is not None:
            return match.group(2)
        return UNKNOWN if star else match.group(0)

    return _REFERENCE.sub(one, value)


def compose_names(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """The second claim of the module (see its docstring)."""
    top = project_top(directory, project)
    claims = [
        (line, m.group(1).lower(), m.group(2))
        for para in doc.paragraphs
        for line, text in para.lines
        if code_spans(text)
        for m in _NAMED.finditer(text)
    ]
    if not claims:
        return
    fences = sorted(doc.fences, key=lambda f: f.lines[0][0] if f.lines else 0)
    for line, kind, name in claims:
        fence = next((f for f in fences if f.lines and f.lines[0][0] > line), None)
        if fence is None or fence.lines[0][0] - line > 3:
            continue
        for _, script in _readme_scripts(list(fence_commands(fence))):
            text = _script_text(directory, script, top)
            if text is None:
                continue
            found = _compose_name(text, script, kind, name, directory)
            if found is not None:
                yield Diagnostic(readme, line, found, confidence="certain")


def _compose_name(text: str, script: str, kind: str, name: str, directory: Path) -> str | None:
    """What `compose_names` says of the script `text`, None when its compose services can be the name."""
    verbs = ("build", "up") if kind == "image" else ("up", "run", "create")
    for index, line, variables in walk_assignments(text.splitlines(), {}):
        match = COMPOSE.search(line)
        if match is None or line.lstrip().startswith("#"):
            continue
        try:
            words = shell_split(re.split(r"&&|\|\||;|\||&", line[match.end() :], maxsplit=1)[0])
        except ValueError:
            return None
        call = read_compose(words)
        if call.verb not in verbs or not call.complete or any("$" in f for f in call.files):
            continue
        paths = [directory / f for f in call.files] if call.files else compose.default_files(directory)
        services = []
        for path in paths:
            read = compose_file(path)
            if read is None or read[1]:
                return None
            services += [(path, s) for s in read[0] if not call.services or s.name in call.services]
        if not services:
            return None
        said = _full(_pattern(name)) if kind == "image" else _pattern(name)
        shown = []
        for path, service in services:
            given = service.image if kind == "image" else service.container_name
            if not given or (kind == "image" and not service.builds):
                return None  # Compose names it itself: not read
            value = _put_in(given, variables, True)
            if _could_be(said, _full(value) if kind == "image" else value):
                return None
            line_ = service.image_line if kind == "image" else service.container_name_line or service.line
            at = f"{path.name}:{line_}" if line_ else path.name
            now = _put_in(given, variables, False)
            put = f", {now} as the script sets it" if now != given else ""
            key = "image" if kind == "image" else "container_name"
            shown.append(f"service {service.name} sets {key}: {given} ({at}){put}")
        return (
            f"README says {script.removeprefix('./')} makes the {kind} {name}, but its docker compose "
            f"{call.verb} ({script.removeprefix('./')}:{index + 1}) names it otherwise: " + "; ".join(shown)
        )
    return None


_SPAN_SCRIPT = re.compile(r"(?:(?:ba|z)?sh[ \t]+|\./)?([\w.-]+(?:/[\w.-]+)*\.sh)")
"""A script a code span of the prose names, run or not: `run-local-rm.sh`, `./docker/run.sh`, `bash x.sh`."""
_EDITED = re.compile(r"\b(?:edit|modify|change|replace|adapt|your)\b|修改|替换", re.IGNORECASE)
"""Words of a sentence telling the reader to change the script: its image is theirs to set."""


def named_runs(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A run script the README starts (a code span of its prose, `然后在本地执行`run-local-bind.sh``, or a
    block) while it runs no build script itself, found beside the README or, named without a folder, in
    the one folder below it that holds that name (`kohya_ss/run-local-bind.sh`, the README's example
    folder), whose `docker run` runs an image of a repository the build scripts in its own folder tag,
    under a tag none of them gives and the README's blocks never write (`build.sh` tags
    `runpod-kohya_ss:21.5.10-cu118`, the script runs `runpod-kohya_ss:21.5.10`). `certain` from a block,
    `likely` from prose. Silent when a build's tag cannot be told, when a script of the folder names the
    image (a pull, a tag), when the run script gives an image itself, and on a sentence telling the
    reader to edit the script."""
    top = project_top(directory, project)
    said = "\n".join(t for f in doc.fences for _, t in f.lines)
    block_runs = [s for f in doc.fences for s in _readme_scripts(list(fence_commands(f)))]
    named: list[tuple[int, str, bool]] = []  # (README line, script as written, from a block)
    texts: dict[str, str | None] = {}
    for _, script in block_runs:
        texts[script] = _script_text(directory, script, top)
    if any(t is not None and (built_tag_lines(t) or _GIVES.search(t)) for t in texts.values()):
        return  # the README runs a build script: `chained_runs` reads its chain
    named += [(line, script, True) for line, script in block_runs]
    for para in doc.paragraphs:
        for line, text in para.lines:
            if _EDITED.search(text):  # (once a line, not once a span of it)
                continue
            for _, _, code in code_spans(text):
                match = _SPAN_SCRIPT.fullmatch(code.strip())
                if match is not None:
                    named.append((line, match.group(1), False))
    if not named:
        return
    files: list[Path] | None = None
    told: set[str] = set()
    for line, script, in_block in named:
        if script in told or "$" in script or "\0" in script:
            continue
        told.add(script)
        place = inside(directory.absolute() / script, top)
        if place is None or not os.path.isfile(place):
            if "/" in script or in_block:
                continue
            if files is None:
                files = _files_below(directory.absolute())
            holders = {f.parent for f in files if f.name == script}
            if len(holders) != 1:
                continue
            place = inside(next(iter(holders)) / script, top)
            if place is None:
                continue
        yield from _named_run(readme, line, directory, place, said, in_block)


def _files_below(directory: Path) -> list[Path]:
    """The files below `directory` (hidden folders left out; none past `WALK_LIMIT` entries)."""
    found: list[Path] = []
    seen = 0
    for folder, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        seen += len(dirs) + len(names)
        if seen > WALK_LIMIT:
            return []
        found += [Path(folder) / n for n in names]
    return found


def _named_run(
    readme: str, line: int, directory: Path, place: Path, said: str, in_block: bool
) -> Iterator[Diagnostic]:
    """The finding of `named_runs` for the run script at `place`, named at README `line`."""
    run_text = text_or_none(place)
    if run_text is None or _GIVES.search(run_text):
        return
    folder = place.parent
    shown = os.path.relpath(place, directory.absolute())
    built: list[tuple[str, int, str]] = []
    others: list[str] = []
    try:
        siblings = sorted(n for n in os.listdir(folder) if n.endswith(".sh") and n != place.name)
    except OSError:
        return
    for name in siblings[:50]:
        body = text_or_none(folder / name)
        if body is None:
            continue
        others.append(body)
        if not BUILD.search(body):
            continue  # a push or a pull: it makes no image here
        built += [
            (os.path.relpath(folder / name, directory.absolute()), n, t) for n, t in built_tag_lines(body)
        ]
    if not built:
        return
    for _, image, _ in _run_images(run_text):
        full = _full(image)
        if any(UNKNOWN in t and _could_be(_full(t), full) for _, _, t in built):
            return  # a tag the build reads from a variable may be the run's
        if any(re.search(rf"(?<![\w./:-]){re.escape(image)}(?![\w.:-])", body) for body in others):
            return  # another script of the folder names it (a pull, a tag)
    for _, what in _other_runs(run_text, shown, built, said):
        yield Diagnostic(
            readme,
            line,
            f"README {'runs' if in_block else 'names'} {shown} to start the image: {what}, a tag no build "
            "script of its folder gives",
            confidence=CERTAIN if in_block else LIKELY,
        )


_NAME_SAID = re.compile(
    r"\b(?P<en>image|container)[ \t]+(?:named|called|tagged(?:[ \t]+as)?)[ \t]+`(?P<n1>[^`\s]+)`"
    r"|\b(?P<en2>image|container)(?:'s)?[ \t]+name[ \t]+(?:is|will[ \t]+be)[ \t]+`(?P<n2>[^`\s]+)`"
    r"|\bname[ \t]+of[ \t]+the[ \t]+(?P<en3>image|container)[ \t]+(?:is|will[ \t]+be)[ \t]+`(?P<n3>[^`\s]+)`"
    r"|(?P<ja>イメージ|コンテナ)(?:の名前|の名称|名)(?:は|が)[ \t]*`(?P<n4>[^`\s]+)`"
    r"|(?P<zh>镜像|容器)的?(?:名称|名字|名)(?:为|是)[ \t]*`(?P<n5>[^`\s]+)`",
    re.IGNORECASE,
)
"""A name a sentence says an image or a container has: `an image named `x``, `the container's name is
`x``, `Dockerイメージの名前は`x``, `容器名称为`x``."""
_ASIDE = re.compile(
    r"\b(?:was|were|used[ \t]+to|previously|formerly|older|legacy|deprecated|no[ \t]+longer|instead"
    r"|e\.g\.|for[ \t]+example|such[ \t]+as)\b|以前|旧|例えば|例如|之前",
    re.IGNORECASE,
)
"""Words of a line about a name that is gone or an example (`used to build an image named `x``)."""
_HISTORY_HEADING = re.compile(r"change|history|release|news|履歴|更新|变更|历史", re.IGNORECASE)
_KINDS = {"イメージ": "image", "コンテナ": "container", "镜像": "image", "容器": "container"}
_CODE = re.compile(r"`[^`]*`")
_TARGETS = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+)?(exec|attach)[ \t]+(.*)")
"""A `docker exec` / `docker attach` of a script: the container it enters."""
_ATTACH = options_grammar("--detach-keys", "--no-stdin --sig-proxy --help")


def _said_names(text: str) -> Iterator[tuple[str, str]]:
    """(kind, name) of each image or container name the line `text` gives (`_NAME_SAID`)."""
    for match in _NAME_SAID.finditer(text):
        kind = next(g for g in ("en", "en2", "en3", "ja", "zh") if match.group(g))
        name = next(match.group(f"n{i}") for i in range(1, 6) if match.group(f"n{i}"))
        yield _KINDS.get(match.group(kind), match.group(kind).lower()), name


def _container_names(text: str) -> list[tuple[int, str]]:
    """(script line, name) of the containers the script `text` names: the `--name` of its `docker run` /
    `docker create`, else the container its `docker exec` / `docker attach` enters; variables the script
    gives put in, the others `*`."""
    named: list[tuple[int, str]] = []
    entered: list[tuple[int, str]] = []
    for index, line, variables in walk_assignments(_joined_lines(text), {}):
        code = line.strip()
        if code.startswith("#"):
            continue
        run = _RUN.search(code) or _CREATE.search(code)
        target = _TARGETS.search(code)
        rest = code[run.end() :] if run is not None else target.group(2) if target is not None else None
        if rest is None:
            continue
        try:
            words = shell_split(re.split(r"&&|\|\||;|\|", rest, maxsplit=1)[0])
        except ValueError:
            continue
        if run is not None:
            read = read_words(words, RUN)
            named += [(index + 1, _put_in(v, variables, True)) for o, v in read.values if o == "--name"]
        elif target is not None:
            read = read_words(words, EXEC if target.group(1) == "exec" else _ATTACH)
            if read.complete and read.positional:
                entered.append((index + 1, _put_in(read.positional[0], variables, True)))
    return named or entered


_CREATE = re.compile(
    r"(?:^|[;&|(]|\b(?:then|do|else|sudo|exec|time|nohup)[ \t])[ \t]*"
    + container_command("create", WITH_NVIDIA, start="", end=BLANK_AFTER)
)


def _source_line(text: str, start: int, value: str) -> int:
    """The line of the script `text`, from line `start` on, that holds `value` (a continued command's
    word): `start` when none does."""
    lines = text.splitlines()
    return next((n for n in range(start, len(lines) + 1) if value in lines[n - 1]), start)


def prose_names(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A line of prose naming one script (a code span: `` `./docker/build.sh`: builds the image; its name
    is `App` ``) and the name of the image or container it makes, while the script says otherwise: no tag
    of its build (`-t`, `docker tag`, its variables put in) can be the image, or no `--name` of its
    `docker run` / `docker create` (else the container its `docker exec` / `docker attach` enters) is the
    container (`likely`: read from prose). Silent when the script gives no name or one it cannot tell
    (`$NAME` from the caller), on a placeholder (`<name>`), on a line telling the reader to edit the
    script or speaking of a name that is gone or an example (`used to`, `e.g.`), under a changelog's
    heading, and when the line names several scripts."""
    top = project_top(directory, project)
    for para in doc.paragraphs:
        if _HISTORY_HEADING.search(para.heading):
            continue
        for line, text in para.lines:
            if "`" not in text or _EDITED.search(text) or _ASIDE.search(_CODE.sub(" ", text)):
                continue
            claims = list(_said_names(text))
            if not claims:
                continue
            scripts = {
                m.group(1)
                for _, _, code in code_spans(text)
                if (m := _SPAN_SCRIPT.fullmatch(code.strip())) is not None
            }
            if len(scripts) != 1:
                continue
            script = next(iter(scripts))
            body = _script_text(directory, script, top)
            if body is None:
                continue
            shown = script.removeprefix("./")
            for kind, name in claims:
                said = _pattern(name)
                if kind == "image":
                    tags = built_tag_lines("\n".join(_joined_lines(body)))
                    if not tags or any(UNKNOWN in t or "$" in t for _, t in tags):
                        continue
                    tagged = ":" in said.rsplit("/", 1)[-1]  # (a name with no tag names the repository)
                    if any(
                        _could_be(_full(said), _full(t))
                        if tagged
                        else _could_be(_repository(said), _repository(t))
                        for _, t in tags
                    ):
                        continue
                    at, tag = tags[0]
                    where = _source_line(body, at, tag)
                    yield Diagnostic(
                        readme,
                        line,
                        f"README says {shown} makes the image {name}, but {shown}:{where} tags {tag}"
                        + (f" (and {len(tags) - 1} more tags, none of that name)" if len(tags) > 1 else ""),
                        confidence=LIKELY,
                    )
                    continue
                names = _container_names(body)
                if not names or any(UNKNOWN in n or "$" in n for _, n in names):
                    continue
                if any(_could_be(said, n) for _, n in names):
                    continue
                at, given = names[0]
                where = _source_line(body, at, given)
                others = _entering(directory, script, given, top)
                also = f"; {', '.join(others)} enter {given} too" if others else ""
                yield Diagnostic(
                    readme,
                    line,
                    f"README says {shown} makes the container {name}, but {shown}:{where} names it {given}"
                    + also,
                    confidence=LIKELY,
                )


def _entering(directory: Path, script: str, name: str, top: Path) -> list[str]:
    """The other scripts of `script`'s folder whose `docker exec` / `docker attach` enters `name` (as
    `folder/x.sh:line`), for the finding to show."""
    found = []
    for sibling, shown in _sibling_scripts(directory, script, top):
        body = text_or_none(sibling)
        if body is None or _GIVES.search(body) or _RUN.search(body):
            continue
        at = next((n for n, n_name in _container_names(body) if n_name == name), None)
        if at is not None:
            found.append(f"{shown}:{at}")
    return found


def _sibling_scripts(directory: Path, script: str, top: Path) -> list[tuple[Path, str]]:
    """(path, name as the README would run it) of the other shell scripts of `script`'s folder, up to
    50 in name order; none when the folder is outside `top` or cannot be listed."""
    folder = (directory / script).parent
    if inside(folder.absolute(), top) is None:
        return []
    try:
        siblings = sorted(n for n in os.listdir(folder) if n.endswith(".sh") and n != Path(script).name)
    except OSError:
        return []
    prefix = os.path.relpath(folder, directory)
    return [(folder / n, n if prefix == "." else f"{prefix}/{n}") for n in siblings[:50]]


_GIVEN = re.compile(
    _GIVES.pattern + r"|\b(?:docker[ \t]+compose|docker-compose|podman-compose)\b|\bbake\b|\bmake\b"
)
"""A README command that may give the machine an image: a pull, tag, load, import or build, a compose,
bake or make command."""
_WORD = re.compile(r"[a-z]{3,}")
_NO_NAME = frozenset("docker image images container app test build latest base dev the and".split())
"""Words of an image's name that name nothing of its own."""


def _name_words(image: str) -> set[str]:
    """The words of three letters or more of an image's last name (`serving_cls_model` → `serving`,
    `cls`, `model`), those naming nothing of its own left out."""
    last = _repository(image).rsplit("/", 1)[-1]
    return set(_WORD.findall(last)) - _NO_NAME


def _build_scripts_named(
    doc: Document, directory: Path, top: Path, read: dict[str, str | None]
) -> list[tuple[int, str]]:
    """(README line, script) of each build script the README runs in a command block or names in a
    code span of its prose (not on a line telling the reader to edit it), in line order; `read` keeps
    each script's text."""
    named: list[tuple[int, str]] = []
    for fence in doc.fences:
        named += _readme_scripts(list(fence_commands(fence)))
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" not in text or _EDITED.search(text):
                continue
            for _, _, code in code_spans(text):
                if (match := _SPAN_SCRIPT.fullmatch(code.strip())) is not None:
                    named.append((line, match.group(1)))
    found = []
    for line, script in sorted(named):
        if script not in read:
            read[script] = _script_text(directory, script, top)
        body = read[script]
        if (
            body is not None
            and BUILD.search(body)
            and not any(_RUN.search(t.strip()) for t in body.splitlines())
        ):
            found.append((line, script))
    return found


_SCRIPT_IMAGE = re.compile(r"(?:--?[\w-]+=)?([a-z0-9][\w.-]*(?:/[\w.-]+)*:\w[\w.-]*)")
"""An image with its tag among the words a README passes a script (`--container app:1.0-amd64`)."""


def _script_run_images(doc: Document) -> list[tuple[int, str, str]]:
    """(README line, image, script) of each image a README command passes a script it runs (`./run.sh
    --container jetson-pose:0.1-amd64`): a word naming a repository and a tag, alone or as an option's
    value after `=`."""
    found = []
    for fence in doc.fences:
        for lines in fence_commands(fence):
            command = without_prompt(joined(lines).strip())
            if command.startswith("#"):
                continue
            for part in re.split(r"&&|;|\|\|", command):
                part = part.strip().removeprefix("sudo ").strip()
                script = _SCRIPT.match(part)
                if script is None:
                    continue
                try:
                    words = shell_split(part[script.end() :])
                except ValueError:
                    continue
                ran = (script.group(1) or script.group(2)).removeprefix("./")
                found += [(lines[0][0], m.group(1), ran) for w in words if (m := _SCRIPT_IMAGE.fullmatch(w))]
    return found


def _may_be(tag: str, image: str) -> bool:
    """True when the tag a script gives (`built_tag_lines`: `*` for a part it does not know, a `$1` it is
    not given) may be `image`."""
    pattern = "".join(
        ".*" if part == UNKNOWN or part.startswith("$") else re.escape(part)
        for part in re.split(r"(\*|\$\{?\w+\}?)", _full(tag))
        if part
    )
    return re.fullmatch(pattern, _full(image)) is not None


_SCRIPT_NAME = re.compile(r"[\w.-]+\.sh\b")


def _mentioned_scripts(doc: Document) -> frozenset[str]:
    """The file names of the shell scripts the README names anywhere (`./build_amd64.sh`, `build.sh`)."""
    lines = [t for f in doc.fences for _, t in f.lines] + [t for p in doc.paragraphs for _, t in p.lines]
    return frozenset(m.group(0) for t in lines for m in _SCRIPT_NAME.finditer(t))


def _sibling_builds(
    directory: Path, script: str, image: str, top: Path, run: frozenset[str]
) -> list[tuple[str, int]]:
    """(script as the README would run it, line) of each other shell script of `script`'s folder that
    tags `image` exactly, the README runs nowhere nor names (`run`: the scripts' file names it runs or
    names)."""
    found = []
    for sibling, shown in _sibling_scripts(directory, script, top):
        if sibling.name in run or (body := text_or_none(sibling)) is None or not BUILD.search(body):
            continue
        at = next((n for n, t in _run_tags(body) if _full(t) == _full(image)), None)
        if at is not None:
            found.append((shown, at))
    return found


_ECHOED = re.compile(r"[ \t]*(?:echo|printf)\b")


def _run_tags(text: str) -> tuple[tuple[int, str], ...]:
    """The tags of the script `text` (`built_tag_lines`, continued commands joined), those of a line that
    only prints the command (`echo "docker build -t …"`) left out when the script runs one too."""
    tags = built_tag_lines("\n".join(_joined_lines(text)))
    lines = text.splitlines()
    run = tuple((n, t) for n, t in tags if not (0 < n <= len(lines) and _ECHOED.match(lines[n - 1])))
    return run or tags


def script_built_runs(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A README `docker run` after a build script it has the reader run, of an image the script never
    tags while the names share a word (see the module's docstring): `README runs serving_cls_model:v1
    after make_serving_image.sh (line 4), but make_serving_image.sh:5 tags the image it builds
    serving_probe:v2: …` (`likely`). Not a run of an image a README build above it tags (`docker build
    -t app .`, then "or use build.sh"): the script is another way to build, and the run is the README's.
    Told for a run of the script's repository under another tag, or of an image the README builds only
    after the run; a name nothing makes is `names`' (a near name of what the script builds)."""
    top = project_top(directory, project)
    read: dict[str, str | None] = {}
    scripts = _build_scripts_named(doc, directory, top, read)
    if not scripts:
        return
    commands = [
        (lines[0][0], without_prompt(joined(lines).strip()))
        for f in doc.fences
        for lines in fence_commands(f)
    ]
    # the lines of the commands that may give an image, sorted: one look-up a run (`bisect`)
    giving = sorted(n for n, c in commands if not c.startswith("#") and _GIVEN.search(c))
    built = sorted((n, {_full(t) for t in TAG_FLAG.findall(c)}) for n, c in commands if BUILD.search(c))
    told: set[str] = set()
    starts = [n for n, _ in scripts]
    tagged: dict[str, tuple[tuple[int, str], ...]] = {}  # script → its tags, read once
    runs = [(line, image, "") for line, image, _, _ in image_runs(doc)]
    runs += _script_run_images(doc)  # (the script given the image: "" for a `docker run`)
    mentioned: frozenset[str] | None = None  # the file names of the scripts the README names, on first use
    for line, image, passed in sorted(runs):
        before = bisect.bisect_left(starts, line)
        if not before or image in told or "$" in image or "<" in image:
            continue
        at, script = scripts[before - 1]
        text = read[script] or ""
        if script not in tagged:
            tagged[script] = _run_tags(text)
        tags = tagged[script]
        if not tags or any(_may_be(t, image) for _, t in tags):
            continue
        if passed and all(image_repository(t) != image_repository(image) for _, t in tags):
            continue  # a word given a script names the script's image only by the script's repository
        if bisect.bisect_left(giving, at) < bisect.bisect_left(giving, line):
            continue  # a step between them may give the image
        if any(n < line and _full(image) in names for n, names in built):
            continue  # the README's own build tags it: the script is another way to build
        shared = [(n, t) for n, t in tags if _name_words(t) & _name_words(image)]
        if not shared:
            continue
        if mentioned is None:
            mentioned = _mentioned_scripts(doc)
        siblings = _sibling_builds(directory, script, image, top, mentioned)
        if not siblings and named_beside(directory, script, image):
            continue  # a file beside it may make the image, and the README may use it
        later = next((n for n, tagged in built if n > line and _full(image) in tagged), None)
        if later is None and all(image_repository(t) != image_repository(image) for _, t in shared):
            continue  # another name nothing else makes: `names._script_build_runs`' finding
        told.add(image)
        tag_line, tag = shared[0]
        after = f" (the README builds {image} only at line {later}, after the run)" if later else ""
        said = f"{tag} ({UNKNOWN}: a value it does not set itself)" if UNKNOWN in tag else tag
        if len(siblings) == 1:
            after += f" ({siblings[0][0]}:{siblings[0][1]} tags {image}: did you mean ./{siblings[0][0]}?)"
        shown = script.removeprefix("./")
        yield Diagnostic(
            readme,
            line,
            f"README {f'passes {image} to {passed}' if passed else f'runs {image}'} after {shown} "
            f"(line {at}), but "
            f"{shown}:{_source_line(text, tag_line, tag)} tags the image it builds {said}: the run does not "
            f"start the image the script made{after}",
            confidence=LIKELY,
        )
