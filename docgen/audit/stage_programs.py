"""A `docker run` of the README's image whose command runs an interpreter (`python3 -m app.server`,
`pip`, `node`, `java`) that the image does not hold: the stages its last stage is built FROM in turn end
at a base known to ship without it (Debian, Ubuntu, Alpine, BusyBox, `nvidia/cuda`, `scratch`,
distroless `static`/`base`/`cc`) and no instruction of those stages installs or copies one in. A
multi-stage build may install Python in a build stage and copy only binaries out of it (`COPY
--from=build /out/bin/ /app/`): the interpreter stays in the discarded stage, and the container fails
with `python3: executable file not found`.

The image run is the README's own: the one a build of the README tags (`run_args.own_model`), else, with
no build in the README, the one audited Dockerfile no other is built on, when the image's last name is
the README's title or the Dockerfile's folder. A last stage built on an image another audited Dockerfile
builds (`FROM org/app:base` and `Dockerfile-base`, `auditor.own_base`) is followed into that file when
the image is of the run's repository or a README build tags it; any other base docgen does not know
leaves the rule silent.

The command is the words after the image (or the string of `sh -c "…"`), run as the container's program:
read when the image has no ENTRYPOINT (the bases above set none, or `nvidia/cuda`'s executes its
arguments), clears it (`ENTRYPOINT []`), or starts `tini --` or a script of the build context that
executes its arguments (`exec "$@"`). Silent when the run sets `--entrypoint`, when a stage of the chain
names the interpreter or a way to get it anywhere (`python3` in a package list, pip, conda, uv, pyenv,
a venv, a package known to pull Python in), runs a script or a download docgen cannot read, installs
from a file or a command's output (`$(cat packages.txt)`, `xargs`, `-r requirements.txt`), copies a
tree that may hold one out of another stage or image (`COPY --from=… /usr/local /usr/local`, `/opt/venv`),
or reads a build arg in a FROM. Each finding is `likely`.
"""

from __future__ import annotations

import functools
import itertools
import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, dockerfile_read, own_base
from docgen.audit.commands import built_repositories, tagged_names
from docgen.audit.contents import LISTS, PIPED, RUNS_FILE
from docgen.audit.devcontainers import config_files, read_config
from docgen.audit.grammar import Read
from docgen.audit.listed_python import PULLS_PYTHON
from docgen.audit.paths import variant
from docgen.audit.run_args import image_runs, own_model, shell_lines, title_names
from docgen.audit.wording import fence_intro, heading_of
from docgen.base_contents import lacks_python
from docgen.baseimage import split_reference
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel, Instruction, Stage

_PROGRAMS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "Python",
        re.compile(r"(?:python|pip)(?:3(?:\.\d{1,2})?)?"),
        re.compile(
            r"python|pip|conda|mamba|pyenv|virtualenv|venv|(?<![\w-])uvx?(?![\w-])|jupyter|miniforge|anaconda"
            r"|pixi|poetry|site-packages|dist-packages|node-gyp|(?<![\w-])npm(?![\w-])|(?<![\w-])ros-"
            r"|(?<![\w-])(?:" + "|".join(re.escape(p) for p in sorted(PULLS_PYTHON)) + r")(?![\w-])"
        ),
    ),
    ("Node.js", re.compile(r"node(?:js)?|npm|npx"), re.compile(r"node|npm|nvm|yarn|(?<![\w-])bun|volta|fnm")),
    (
        "Java",
        re.compile(r"java"),
        re.compile(r"java|jdk|jre|temurin|corretto|zulu|sdkman|graalvm|maven|gradle"),
    ),
)
"""(the language, a pattern its programs match in full, a pattern of what in a stage's instructions
may install it or bring it in)."""
_BARE = re.compile(r"scratch|gcr\.io/distroless/(?:static|base|cc)(?:-debian\d+)?(?::[\w.-]+)?")
"""Images that hold no interpreter at all: `scratch`, distroless's static, base and cc images."""
_TREE = re.compile(
    r"\A/*(?:usr|opt|root|home|venv|env|conda|app|workspace)?/*\Z|\A/*(?:usr|opt|root|home)/"
    r"|python|venv|conda|mamba|site-packages|\.local|env|node|java|jdk|jre",
    re.IGNORECASE,
)
"""A `COPY --from` source that may hold an interpreter or an environment: the root, `/usr/local`,
`/opt/venv`, a path naming Python, a venv or conda."""
_FROM_FILE = re.compile(r"\$\(|`|\bxargs\b|(?<![<\d])<(?![<(])")
"""A RUN reading what it installs from a file or a command's output (`apt-get install $(cat pkgs.txt)`,
`xargs apt-get install < packages`): docgen cannot see the packages."""
_SHELLS = frozenset("sh bash dash ash zsh".split())
_INIT = frozenset("tini dumb-init".split())
_EXEC_ARGS = re.compile(
    r"\bexec[ \t]+(?:gosu[ \t]+\S+[ \t]+)?[\"']?\$(?:@|\{@\}|\*)|^[ \t]*\"\$@\"[ \t]*$", re.M
)
"""A script line executing its arguments: `exec "$@"`, a line `"$@"` alone."""
_ARGS_VAR = re.compile(r"^[ \t]*(\w+)=[\"']?\$(?:@|\{@\}|\*)", re.M)
"""`cmd=$@`: a variable holding the script's arguments, executed later (`exec "${cmd}"`)."""
_RUNTIME_INSTALL = re.compile(r"\b(?:apt|apt-get|apk|dnf|yum|microdnf|conda|curl|wget|install|source)\b|\.\s")


def _stage_instructions(model: ImageModel, stage: Stage) -> list[Instruction]:
    """The instructions of `stage` of `model`, FROM excluded; [] when the file cannot be read."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    first, last = model.stage_lines(stage)
    return [i for i in read[1].instructions if first < i.start_line <= last]


def _text(instruction: Instruction) -> str:
    flags = " ".join(str(f) for f in instruction.flags)
    bodies = " ".join(h.body for h in instruction.heredocs)
    return f"{instruction.keyword} {flags} {instruction.args} {bodies}".lower()


def _chain(
    model: ImageModel, family: Sequence[ImageModel], repository: str, built: frozenset[str]
) -> list[tuple[ImageModel, Stage]] | None:
    """The (model, stage) pairs of the image `model` builds, its last stage first and the stages it is
    built FROM in turn, into the audited Dockerfile that builds its base (`own_base`, or the one whose
    name is the base's tag: `Dockerfile-base` for `org/app:base`) when that base is of the run's
    `repository` or a README build tags it; None when a FROM reads a build arg."""
    found: list[tuple[ImageModel, Stage]] = []
    held: set[int] = set()
    current: ImageModel | None = model
    while current is not None and id(current) not in held:
        held.add(id(current))
        chain = current.chain()
        if not chain or any("$" in s.base_raw for s in chain):
            return None
        found += [(current, s) for s in chain]
        name, tag = split_reference(chain[-1].base)
        if not (name == repository or name.rsplit("/", 1)[-1] in built):
            return found
        base = _built_on(current, family)
        if base is None:
            return found
        current = base
    return None


def _built_on(model: ImageModel, family: Sequence[ImageModel]) -> ImageModel | None:
    """The Dockerfile of `family` that builds the image `model` is built on: `own_base`, else the one
    other whose name is the tag of the base (`Dockerfile-base`, `Dockerfile.base` for `org/app:base`)."""
    base = own_base(model, family)
    chain = model.chain()
    tag = split_reference(chain[-1].base)[1] if base is None and chain else None
    if tag:
        named = [m for m in family if m is not model and variant(m.path) == tag.lower()]
        base = named[0] if len(named) == 1 else None
    return base


def _runs_arguments(chain: list[tuple[ImageModel, Stage]]) -> bool:
    """True when a container of the image runs the words after the image as its program: no stage of
    `chain` sets an ENTRYPOINT (the known bases set none, or one that executes its arguments), the last
    one clears it, starts `tini --`, or starts a script of the build context that executes them."""
    for model, stage in chain:
        entry = [i for i in _stage_instructions(model, stage) if i.keyword == "ENTRYPOINT"]
        if not entry:
            continue
        words = entry[-1].exec_form
        if words is None:
            return False  # shell form: the arguments are dropped
        if not words:
            return True
        if posixpath.basename(words[0]) in _INIT and all(w == "--" or w.startswith("-") for w in words[1:]):
            return True
        script = words[1] if posixpath.basename(words[0]) in _SHELLS and len(words) == 2 else words[0]
        if len(words) > (2 if script != words[0] else 1):
            return False
        text = _script_text(model, script)
        if text is None:
            return False
        if _EXEC_ARGS.search(text):
            return True
        return any(
            re.search(rf"\bexec[ \t]+[\"']?\$\{{?{re.escape(v)}\b", text) for v in _ARGS_VAR.findall(text)
        )
    return True


def _script_text(model: ImageModel, path: str) -> str | None:
    """The text of the build-context file a COPY of `model` puts at `path`, looked for beside the
    Dockerfile and in the folder above it (a build run from the repository's top); None when not found."""
    name = posixpath.basename(path)
    if not model.file or not name:
        return None
    folder = Path(model.file).parent
    for copy in model.context_copies:
        dest = copy.dest.strip("\"'")
        for source in copy.sources:
            source = source.strip("\"'")
            if posixpath.basename(source.rstrip("/")) != name:
                continue
            if dest not in (path, posixpath.dirname(path), posixpath.dirname(path) + "/"):
                continue
            for where in (folder / source, folder.parent / source, folder / name):
                text = text_or_none(where)
                if text is not None:
                    return text
    return None


def _silent_stage(model: ImageModel, stage: Stage, installs: re.Pattern[str]) -> bool:
    """True when `stage` of `model` may bring the interpreter in: an instruction names it or a way to
    get it, runs a file or a download, or copies a tree that may hold one (`_TREE`) out of an image or
    out of a stage of the file that may hold one itself (`_stage_lacks`)."""
    for instruction in _stage_instructions(model, stage):
        text = _text(instruction)
        if installs.search(text):
            return True
        if instruction.keyword == "RUN" and (
            RUNS_FILE.search(text) or PIPED.search(text) or LISTS.search(text) or _FROM_FILE.search(text)
        ):
            return True
        if instruction.keyword == "ADD" and re.search(r"https?://|git@", instruction.args):
            return True
        source = next((f.value for f in instruction.flags if f.name == "from"), None)
        if instruction.keyword not in ("COPY", "ADD") or source is None:
            continue
        named = [st for st in model.stages if st.label == source.lower() or str(st.index) == source]
        if len(named) == 1 and named[0].index < stage.index and _stage_lacks(model, named[0], installs):
            continue  # an earlier stage: no cycle
        words = instruction.exec_form[:-1] if instruction.exec_form else instruction.args.split()[:-1]
        if not words or any(_TREE.search(w.strip("\"'")) for w in words):
            return True
    return False


@functools.lru_cache(maxsize=256)
def _stage_lacks(model: ImageModel, stage: Stage, installs: re.Pattern[str]) -> bool:
    """True when the stage `stage` of `model` holds no interpreter: the stages it is built FROM end at
    a base known to ship none and none of them may bring one in. Cached: stages copying out of each
    other are each read once."""
    chain = model.chain(stage)
    if not chain or not _lacking_base(chain[-1].base):
        return False
    return not any(_silent_stage(model, st, installs) for st in chain)


def _lacking_base(base: str) -> bool:
    """True when the image `base` is known to ship no interpreter (`lacks_python`, `_BARE`)."""
    return "$" not in base and (_BARE.fullmatch(base) is not None or lacks_python(base))


def _run_model(
    doc: Document, image: str, built: dict[str, set[str | None]], models: Sequence[ImageModel]
) -> ImageModel | None:
    """The model of the image the README runs as `image` (see the module docstring)."""
    model = own_model(image, built, models)
    if model is not None or built:
        return model
    bases = {id(b) for m in models if (b := _built_on(m, models)) is not None}
    tops = [m for m in models if id(m) not in bases]
    if len(tops) != 1:
        return None
    top = tops[0]
    if any(split_reference(image) == split_reference(s.base) for m in models for s in m.stages):
        return None  # the run is of a base image
    name = split_reference(image)[0]
    names = title_names(doc, top)  # (`# xandai/python-cuda`: a title naming the repository whole)
    last = name.rsplit("/", 1)[-1]
    named = {last, name, f"{last}-docker", f"docker-{last}"}  # (`# sherpa-gpu-docker` for `…/sherpa-gpu`)
    return top if named & names else None


def _program(after: list[str]) -> tuple[str, bool] | None:
    """The program the words after the image run, and whether it is read from `sh -c`'s string."""
    if not after:
        return None
    if after[0] in _SHELLS and len(after) >= 3 and after[1] in ("-c", "-lc", "-ic"):
        string = after[2]
        if _RUNTIME_INSTALL.search(string):
            return None
        try:
            words = shlex.split(string)
        except ValueError:
            return None
        return (words[0], True) if words else None
    return after[0], False


_PYTHON_WORD = re.compile(r"(?<![\w/.-])python[\w.${}-]*")
"""A word of an instruction naming Python (`python3.6`, `python3-pip`, `python${PYTHON3_VERSION}`)."""
_UNVERSIONED = re.compile(
    r"conda|mamba|pyenv|virtualenv|venv|(?<![\w-])uvx?(?![\w-])|miniforge|anaconda|pixi|poetry|alternatives"
    r"|pip[ \t]+install\b[^&;|]*--target|(?<![\w-])alias(?![\w-])"
    r"|jupyter|node-gyp|(?<![\w-])npm(?![\w-])|(?<![\w-])ros-"
    r"|(?<![\w-])(?:" + "|".join(re.escape(p) for p in sorted(PULLS_PYTHON)) + r")(?![\w-])"
)
"""What may give a `python` command beside the distribution's `python3` packages: an environment
manager, an alternatives link, a link or move of the interpreter, an alias, a package that may pull
Python in (`node-gyp` depends on Python 2 in older releases)."""
_LINKS = re.compile(r"(?<![\w-])(?:ln|mv|cp)[ \t]+([^;&|\n]*)")
"""A link, move or copy command and its words up to the end of its step."""


_FACTS = re.compile(
    r"\$\((?:nproc|arch|uname[ \t]+-[a-z]|lsb_release[ \t]+-[a-z]+|dpkg[ \t]+--print-architecture)\)"
)
"""A command substitution that reads a fact of the build machine (`make -j$(nproc)`), installing nothing."""
_PYTHON_ENV = re.compile(r"(?<![\w-])python[a-z]+(?![\w.-])")
"""An environment variable Python reads (`ENV PYTHONUNBUFFERED=1`, `PYTHONPATH`): no interpreter."""


def _runs_file(text: str) -> bool:
    """True when a RUN's `text` runs a file (`contents.RUNS_FILE`): a script by its path, or a word a
    shell or Python runs that names a file (`bash install.sh`, `python3 tools/setup`), not a package
    list's next word (`apt-get install python3.10 python3-pip`)."""
    return any(
        found.group(2) or re.search(r"[./]", found.group(1) or "") for found in RUNS_FILE.finditer(text)
    )


def _links_python(text: str) -> bool:
    """True when a `ln`, `mv` or `cp` of `text` may make a `python` command: one of its operands is no
    path whose last part is `python3` or `python3.X` (`ln -sf /usr/bin/python3.10 /usr/bin/python3`
    only moves `python3`; `ln -s python3 /usr/bin/python` or a link into a folder may make one)."""
    for found in _LINKS.finditer(text):
        operands = [w for w in found.group(1).split() if not w.startswith("-") and w != "\\"]
        if not all(re.fullmatch(r"python3(?:\.\d+)?", posixpath.basename(w)) for w in operands):
            return True
    return False


def _python3_only(chain: list[tuple[ImageModel, Stage]]) -> bool:
    """True when the stages of `chain` install Python only as the distribution's Python 3 packages
    (`python3`, `python3.6`, `python3-pip`, `python${V}` with a build arg `V` defaulting to `3…`), which
    give `python3` and no `python` command (that needs `python-is-python3`, `python-minimal`, Python 2,
    an alternatives link, conda or a venv), and nothing else that may bring one in: no file run, no
    download, no tree copied from another stage or image."""
    for model, stage in chain:
        threes = {a.name.lower() for a in model.args if (a.effective_default or "").startswith("3")}
        for instruction in _stage_instructions(model, stage):
            text = _text(instruction)
            if instruction.keyword in ("COPY", "ADD") and (
                any(f.name == "from" for f in instruction.flags) or re.search(r"https?://|git@", text)
            ):
                return False
            if instruction.keyword == "RUN" and (
                _runs_file(text)
                or PIPED.search(text)
                or LISTS.search(text)
                or _FROM_FILE.search(_FACTS.sub("", text))
            ):
                return False
            if instruction.keyword == "ENV":
                text = _PYTHON_ENV.sub("", text)
            if _UNVERSIONED.search(text) or "python-is" in text or _links_python(text):
                return False
            for word in _PYTHON_WORD.findall(text):
                if word.startswith("python3"):
                    continue
                variable = re.fullmatch(r"python\$\{?(\w+)\}?(?:-[\w.-]+)?", word)
                if variable is None or variable.group(1) not in threes:
                    return False
    return True


def _bare_python(
    doc: Document,
    readme: str,
    line: int,
    image: str,
    program: str,
    model: ImageModel,
    models: Sequence[ImageModel],
) -> Diagnostic | None:
    """The finding of a run of `python` (not `python3`) in the README's image whose chain ends at a
    Debian or Ubuntu base shipping no Python (`lacks_python`, the tag aside when only it reads a build
    arg: any tag of `nvidia/cuda` ships none) and installs Python 3 only as distribution packages
    (`_python3_only`): `likely`."""
    chain = [(model, s) for s in model.chain()]
    if not chain or "$" in chain[-1][1].base_raw.split(":", 1)[0] or own_base(model, models) is not None:
        return None
    if any("$" in s.base_raw for _, s in chain[:-1]) or not lacks_python(chain[-1][1].base):
        return None
    if not _runs_arguments(chain) or not _python3_only(chain):
        return None
    root = chain[-1][1]
    return Diagnostic(
        readme,
        _program_line(doc, line, program),
        f"README runs `{program}` in {image}, but {model.path} installs Python 3 only as distribution "
        f"packages on {root.base_raw} ({model.path}:{root.line}), which give `python3` and no `python` "
        "command (no python-is-python3, alternatives link, conda or venv): python is not found",
        confidence=LIKELY,
    )


def missing_programs(doc: Document, readme: str, models: Sequence[ImageModel]) -> Iterator[Diagnostic]:
    """An interpreter a README's `docker run` of its image runs that the image does not hold (see the
    module docstring): `likely`."""
    if not models or not all(m.file for m in models):
        return
    built = built_repositories(doc)
    tags = tagged_names(doc)
    for line, image, read, after in itertools.chain(image_runs(doc), _typed_runs(doc, models, tags)):
        if any(n == "--entrypoint" for n, _ in read.values):
            continue
        found = _program(after)
        if found is None:
            continue
        program = found[0]
        language = next(
            ((lang, installs) for lang, name, installs in _PROGRAMS if name.fullmatch(program)), None
        )
        model = _run_model(doc, image, built, models) if language is not None else None
        if language is None or model is None:
            continue
        if program == "python":
            bare = _bare_python(doc, readme, line, image, program, model, models)
            if bare is not None:
                yield bare
                continue
        chain = _chain(model, models, split_reference(image)[0], tags)
        if not chain:
            continue
        root_model, root = chain[-1]
        if not _lacking_base(root.base):
            continue
        if any(_silent_stage(m, s, language[1]) for m, s in chain):
            continue
        if not _runs_arguments(chain):
            continue
        froms = " → ".join(f"{m.path}:{st.line} FROM {st.base_raw}" for m, st in chain)
        words = (shlex.split(after[2]) if found[1] else after)[:3]
        shown = shlex.join(w for w in words if not w.startswith(("[", "<")))
        yield Diagnostic(
            readme,
            _program_line(doc, line, program),
            f"README runs `{shown}` in {image}, but the stages of that image ({froms}) install no "
            f"{language[0]} and {root.base} ships none: {program} is not found in the container",
            confidence=LIKELY,
        )


def _starts_shell(chain: list[tuple[ImageModel, Stage]], given: bool) -> bool:
    """True when a container of the image of `chain` started with no command (`given` False: its CMD)
    or with a shell named after the image (`given`) runs a shell: no stage sets an ENTRYPOINT that does
    not run its arguments, and the last CMD is a shell alone, or no stage sets one and the base is a
    distribution image (whose CMD is its shell)."""
    if not _runs_arguments(chain):
        return False
    if given:
        return True
    for model, stage in chain:
        cmd = [i for i in _stage_instructions(model, stage) if i.keyword in ("CMD", "ENTRYPOINT")]
        if not cmd:
            continue
        last = cmd[-1]
        if last.keyword == "ENTRYPOINT":
            return False
        words = list(last.exec_form) if last.exec_form is not None else last.args.split()
        return len(words) == 1 and posixpath.basename(words[0]) in _SHELLS
    return lacks_python(chain[-1][1].base) and not _BARE.fullmatch(chain[-1][1].base)


def _typed_runs(
    doc: Document, models: Sequence[ImageModel], tags: frozenset[str]
) -> Iterator[tuple[int, str, Read, list[str]]]:
    """The commands the README types into the shell of a container of its image (`run_args.shell_lines`),
    as `image_runs` gives a run: (the command's README line, the image, the run's options, its words),
    when the image starts a shell (`_starts_shell`)."""
    built = built_repositories(doc)
    for _, image, read, given, number, words in shell_lines(doc):
        model = _run_model(doc, image, built, models)
        chain = _chain(model, models, split_reference(image)[0], tags) if model is not None else None
        if chain and _starts_shell(chain, given):
            yield number, image, read, words


def _program_line(doc: Document, line: int, program: str) -> int:
    """The README line at or after `line` of the same command block that names `program`."""
    word = re.compile(rf"(?<![\w./-]){re.escape(program)}(?![\w-])")
    for fence in doc.fences:
        if not any(n == line for n, _ in fence.lines):
            continue
        for n, text in fence.lines:
            if n >= line and word.search(text):
                return n
    return line


_REOPEN = re.compile(
    r"\b(?:re-?open|open)[ \t]+(?:the[ \t]+)?(?:folder[ \t]+|workspace[ \t]+)?in[ \t]+(?:a[ \t]+|the[ \t]+)?"
    r"(?:dev[ \t]+)?container\b",
    re.IGNORECASE,
)
"""The Dev Containers command a README tells to run (`Remote-Container: Reopen in container`, `Dev
Containers: Open Folder in Container`): what follows is typed in the container it builds."""
_HOST_WORDS = re.compile(
    r"\b(?:host|outside|locally|local[ \t]+machine|your[ \t]+machine|on[ \t]+your[ \t]+computer)\b", re.I
)
_TYPED_PYTHON = re.compile(r"\A[ \t]*(?:\$[ \t]+)?(python)(?:[ \t]+\S.*)?\Z")
"""A command running the bare `python` (`python testOpen3D.py`, `python -vc "import open3d"`)."""


def devcontainer_programs(
    doc: Document, readme: str, models: Sequence[ImageModel], directory: Path
) -> Iterator[Diagnostic]:
    """The bare `python` a README runs after telling the reader to reopen the folder in its dev
    container (`_REOPEN`), in a code span or block of a section that does not move to the host, when the
    dev container configuration beside it (`.devcontainer/devcontainer.json`) builds an audited
    Dockerfile whose stages install Python 3 only as distribution packages on a Debian or Ubuntu base
    shipping none (`_python3_only`, `lacks_python`): the container has `python3` and no `python`
    (`likely`). One finding, at the first such command."""
    opened = next((n for p in doc.paragraphs for n, t in p.lines if _REOPEN.search(t)), None)
    if opened is None:
        return
    model = _devcontainer_model(models, directory)
    if model is None:
        return
    chain = [(model, s) for s in model.chain()]
    if not chain or any("$" in s.base_raw for _, s in chain) or own_base(model, models) is not None:
        return
    root = chain[-1][1]
    if not lacks_python(root.base) or not _python3_only(chain):
        return
    runs: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        if _HOST_WORDS.search(f"{para.heading} {' '.join(t for _, t in para.lines)}"):
            continue
        runs += [
            (n, code)
            for n, t in para.lines
            if n > opened
            for _, _, code in code_spans(t)
            if _TYPED_PYTHON.match(code)
        ]
    for fence in doc.fences:
        if (
            fence.lines
            and not fence.inline  # (a code span of prose: read with its paragraph above)
            and not fence.loose
            and fence.lines[0][0] > opened
            and not _HOST_WORDS.search(f"{fence_intro(doc, fence)} {heading_of(doc, fence.lines[0][0])}")
        ):
            runs += [(n, t.strip()) for n, t in fence.lines if _TYPED_PYTHON.match(t)]
    if not runs:
        return
    runs.sort(key=lambda run: run[0])
    line, command = runs[0]
    others = sorted({n for n, _ in runs[1:]} - {line})
    also = f"; also at line{'s' if len(others) > 1 else ''} {', '.join(map(str, others))}" if others else ""
    yield Diagnostic(
        readme,
        line,
        f"README runs `{command.lstrip('$ ')}` in the dev container, which builds {model.path}, but it "
        f"installs Python 3 only as distribution packages on {root.base_raw} ({model.path}:{root.line}), "
        "which give `python3` and no `python` command (no python-is-python3, alternatives link, conda or "
        f"venv): python is not found{also}",
        confidence=LIKELY,
    )


def _devcontainer_model(models: Sequence[ImageModel], directory: Path) -> ImageModel | None:
    """The audited image the dev container configuration beside the README builds (its `dockerFile`
    or `build.dockerfile`, from the configuration's folder), None when none does."""
    for config in config_files(directory):
        read = read_config(config)
        if read is None:
            continue
        settings = read[0]
        build = settings.get("build")
        named = settings.get("dockerFile") or (build.get("dockerfile") if isinstance(build, dict) else None)
        if not isinstance(named, str):
            continue
        try:
            wanted = (config.parent / named).resolve()
        except (OSError, ValueError):
            continue
        for model in models:
            if model.file and Path(model.file).resolve() == wanted:
                return model
    return None
