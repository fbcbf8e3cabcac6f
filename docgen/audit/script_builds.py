"""The `docker build` of a script a README runs (`./make_image.sh 1.4.0`), as that script runs it from
the folder the README runs it in: build args it passes that the Dockerfile it builds declares in no
stage (BuildKit leaves them unused: `--build-arg SEGKIT_RELEASE=v$1` of a Dockerfile that installs
whatever source it copies), when their value is the README's (the script's arguments, a variable the
README sets) or the README names them (an arg set to the script's own value, `--build-arg
CUDNN=8`, is the script's business: BuildKit warns and builds), and a context that lacks what the
Dockerfile copies or installs (`docker build .` run from docker/ while the Dockerfile does `COPY . /app`
then `pip install -e .`, which needs the repository's root).

A script is run by a command of the README (`./build.sh`), or by a sentence naming it bare (`Run build.sh`,
`运行build.sh`: `prose_runs`, from the README's folder). A script whose `docker compose` command reads the
project's compose file while none is where it runs is told too (`script_composes`).

A script is followed only as far as its folder is known: the folder the README runs it in, or its own
(`cd "$(dirname "$0")"`, `/..` after it followed); another `cd` ends the reading. A build whose
Dockerfile or context holds a variable the script does not give a literal value is not read, nor a
script that writes or edits a Dockerfile.
"""

from __future__ import annotations

import dataclasses
import os
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, NOT_BUILD_ARGS, some
from docgen.audit.commands import build_paths, cloned_folder, clones, substituted
from docgen.audit.container_blocks import IN_IMAGE
from docgen.audit.grammar import BUILD_GRAMMAR, read_words
from docgen.audit.paths import resolves_inside
from docgen.audit.references import (
    PROJECT_FILES,
    RUN_SCRIPT,
    MadeFiles,
    Walk,
    context_findings,
    context_installs,
    context_reads,
    in_checkout,
    inside,
    project_top,
    run_folders,
)
from docgen.audit.wording import BUILD_ARG_FLAG, line_above
from docgen.build_scripts import BUILD, UNKNOWN, expand, walk_assignments
from docgen.dockerfile import read_dockerfile
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.files import DOCKERFILE, built_dockerfile, context_dockerfile, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, Instruction
from docgen.shell import shell_split

SHELL = re.compile(r"\A#![^\n]*\b(?:ba|z|da|k)?sh\b")
CD = re.compile(r"(?:^|&&|\|\||;|\()[ \t]*(?:cd|pushd|popd)\b(?P<target>[^;&|)]*)")
"""A `cd` (or `pushd`/`popd`) as a command of a script line, and what it is given."""
_OWN_CD = re.compile(
    r"[ \t]*(?:cd|pushd)[ \t]+\"?\$\((?:dirname|realpath)[ \t]+"
    r"\"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)\"?\)"
    r"\"?(?P<up>(?:/\.\.)*)/?\"?[ \t]*(?:(?:&&|\|\||;)[ \t]*(?:exit|return)?[ \t]*\d*[ \t]*)?\Z"
)
"""`cd "$(dirname "$0")"`, `cd $(dirname ${BASH_SOURCE[0]})/..`: the script's own folder, or one above."""
WRITER = re.compile(r">|\btee\b|\bsed[ \t]+-i|\bcp\b|\bmv\b|\bln\b|\benvsubst\b|\bm4\b|\bjinja|\bgomplate\b")
"""What writes, copies or edits a file named after it on its line."""


def _writes_dockerfile(text: str) -> bool:
    """True when a line of the script writes, copies or edits a Dockerfile (`sed -i … Dockerfile`, `>
    Dockerfile.gen`, `envsubst < t > Containerfile`): the script builds what it makes, not the file read.
    Each line is searched twice, from its start (no pattern scans to its end from each `>`)."""
    for line in text.splitlines():
        named = max(line.rfind("Dockerfile"), line.rfind("Containerfile"), line.lower().rfind(".dockerfile"))
        if named >= 0 and (writer := WRITER.search(line)) is not None and writer.start() < named:
            return True
    return False


SHOWN = re.compile(r"^[ \t]*(?:#|echo\b|printf\b)")
"""A line that only shows a command (a comment, `echo "docker build …"`)."""


@dataclass(frozen=True)
class _ScriptBuild:
    """One `docker build` of a script a README runs, resolved from where the README runs it."""

    line: int
    """The README line running the script."""
    run: str
    """The script as the README writes it (`./make_image.sh`)."""
    script: Path
    at: int
    """The script's line of the build."""
    args: tuple[str, ...]
    """The `--build-arg` names it passes, in order, once each."""
    shown: str
    """The Dockerfile as the build names it (`Dockerfile` for the context's default)."""
    dockerfile: Path
    context: Path
    written: str
    """The context as the build writes it (`.`)."""
    others: tuple[Path, ...]
    """The Dockerfiles the build would read were it run from the script's own folder or the README's
    (when they differ from the one it reads): an arg one of them declares is not told."""
    target: str | None = None
    """The stage its `--target` names, None when it builds the last one."""
    more: bool = False
    """True when it may pass build args it does not show (`$ARGS`, `"$@"`, an option docgen does not
    know, a `--target` the script fills in)."""


def project_lines(path: Path) -> list[str]:
    """The lines of the project file at `path`; none when it cannot be read or is larger than docgen reads."""
    return (text_or_none(path, MAX_PROJECT_FILE_BYTES) or "").splitlines()


def logical_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(first line, text) of each command line of a script, lines continued with `\\` joined."""
    found: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 0
    for index, text in enumerate(lines):
        if not pending:
            start = index + 1
        stripped = text.rstrip()
        if stripped.endswith("\\") and not stripped.lstrip().startswith("#"):
            pending.append(stripped[:-1])
            continue
        pending.append(text)
        found.append((start, " ".join(pending)))
        pending = []
    if pending:
        found.append((start, " ".join(pending)))
    return found


def script_runs(
    doc: Document,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[tuple[int, str, Path, Path]]:
    """(README line, the script as written, the script's real path, the folder the README runs it in) of
    each script a command block runs that is found where the block runs it (`references.Walk`). With
    `cloned` (`steps.own_clones`), a clone of this very repository makes a folder a later `cd` enters as
    its root (`git clone …/app.git` then `cd app`), and a `cd` through a clone into a folder of the
    README's own folder's name (`cd app/docker` from a README in `docker/`) enters the README's folder."""
    top = project_top(directory, project)
    walk = Walk(run_folders(directory, audited, top), top, home=True)
    if cloned is not None:
        here = directory.resolve()
        for url, into in clones(doc):
            name = into or cloned_folder(url)
            for depth in range(1, min(3, len(here.parts) - 1) + 1):
                walk.aliases.setdefault("/".join((name, *here.parts[-depth:])), [here])
    for line, step in walk.steps(doc.fences, joined=True):
        own = cloned(line, step) if cloned is not None else None
        if own is not None:
            walk.aliases[own[0]] = [own[1]]
            continue
        for match in [*RUN_SCRIPT.finditer(step), *_BARE_RUN.finditer(step)]:
            path = match.group(1)
            folder = next((f for f in walk.folders if os.path.isfile(f / path)), None)
            if folder is not None and resolves_inside(folder / path, top):
                yield line, path, Path(os.path.realpath(folder / path)), folder


_BARE_RUN = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?(\./[\w-]+(?:/[\w-]+)*)(?=$|[ \t;&|)])"
)
"""A script with no suffix run by its path in the place of the command (`./build`): the shell runs a file
with no `#!` line itself (`shell_scripts_run`)."""
_PROSE_RUN = re.compile(
    r"(?:\b(?:run|execute|launch)(?:[ \t]+the)?(?:[ \t]+script)?[ \t]+|运行|执行)[ \t]*"
    r"`?(?:\./)?([A-Za-z][\w.-]*\.(?:sh|bash))`?(?![\w/.-]*\w)",
    re.IGNORECASE,
)
"""A sentence telling to run a script of the README's folder by its bare name: `Run build.sh to make the
image`, `运行build.sh，开始编译docker镜像` (a word of a Chinese sentence, no space around it)."""


def prose_runs(doc: Document, directory: Path, top: Path) -> Iterator[tuple[int, str, Path, Path]]:
    """`script_runs` of the prose: (README line, the script as written, its real path, the README's
    folder) of each script with no folder that a sentence tells to run (`_PROSE_RUN`) and the README's
    folder holds; not one a sentence runs in the container (`in the container`, `docker exec`)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "sh" not in text or IN_IMAGE.search(text):
                continue
            for match in _PROSE_RUN.finditer(text):
                path = directory / match.group(1)
                if os.path.isfile(path) and resolves_inside(path, top):
                    yield line, match.group(1), Path(os.path.realpath(path)), directory.absolute()


def readme_runs(
    doc: Document,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> list[tuple[int, str, Path, Path]]:
    """`script_runs` and `prose_runs` together, in the README's order (`cloned`: as `script_runs`)."""
    top = project_top(directory, project)
    runs = [*script_runs(doc, directory, audited, project, cloned), *prose_runs(doc, directory, top)]
    return sorted(runs, key=lambda run: run[0])


def build_start(script: Path, cwd: Path, top: Path) -> tuple[Path, list[str]] | None:
    """The folder the builds of `script` run in, run from `cwd`, and its lines with the `cd` into its own
    folder (`cd "$(dirname "$0")/.."`) blanked; None when a `cd` into its own folder leads out of `top`."""
    lines = project_lines(script)
    for index, text in enumerate(lines):
        code = text.split(" #", 1)[0]
        if CD.search(substituted(code)) is None or BUILD.search(code):
            continue
        own = _OWN_CD.match(code)
        if own is None:
            return cwd, lines  # another `cd`: `_script_builds` stops there
        folder = inside(script.parent / (own.group("up").strip("/") or "."), top)
        if folder is None:
            return None
        lines = lines[:index] + [""] + lines[index + 1 :]
        return folder, lines
    return cwd, lines


def shell_scripts_run(
    doc: Document,
    directory: Path,
    audited: Sequence[str],
    project: Path | None,
    cloned: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[tuple[int, str, Path, Path, str]]:
    """Each shell script (`.sh`, `.bash`, or a shell's `#!` line) the README runs (`readme_runs`), once,
    at the first README line running it: (that line, the run, the script, the folder it runs in, its
    text). With `cloned` (`steps.own_clones`), a `cd` into a clone of this very repository is followed."""
    seen: set[Path] = set()
    for line, run, script, cwd in readme_runs(doc, directory, audited, project, cloned):
        if script in seen:
            continue
        seen.add(script)
        text = "\n".join(project_lines(script))
        # a file with no suffix and no `#!` line run as a command (`./build`) is run by the shell itself
        bare = not script.suffix and text.strip() and not text.startswith("#!") and run.startswith("./")
        if script.suffix in (".sh", ".bash") or SHELL.match(text) or bare:
            yield line, run, script, cwd, text


def script_builds(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None
) -> Iterator[_ScriptBuild]:
    """Each `docker build` of each script the README runs, once per script (at the first README line
    running it), with a Dockerfile found in the project."""
    top = project_top(directory, project)
    for line, run, script, cwd, text in shell_scripts_run(doc, directory, audited, project):
        if _writes_dockerfile(text):
            continue
        started = build_start(script, cwd, top)
        if started is None:
            continue
        folder, lines = started
        for at, args, file, context, target, more in _builds_of(lines):
            where = inside(folder / context, top)
            dockerfile = inside(folder / file, top) if file else where and context_dockerfile(where)
            if where is None or dockerfile is None or not os.path.isfile(dockerfile):
                continue
            others = []
            for other in {cwd, script.parent, directory.resolve()} - {folder}:
                place = inside(other / (file or posixpath.join(context, DOCKERFILE)), top)
                place = place and built_dockerfile(place)
                if place is not None and place != dockerfile and os.path.isfile(place):
                    others.append(place)
            shown = file or posixpath.join(context, dockerfile.name).removeprefix("./")
            yield _ScriptBuild(
                line, run, script, at, args, shown, dockerfile, where, context, tuple(others), target, more
            )


def _builds_of(lines: list[str]) -> Iterator[tuple[int, tuple[str, ...], str, str, str | None, bool]]:
    """(script line, build args, Dockerfile as written or "", context as written, `--target` or None,
    whether it may pass more than it shows: `_ScriptBuild.more`) of each `docker build` of a script's
    `lines` before any `cd`, its literal variables expanded."""
    logical = logical_lines(lines)
    numbers = [n for n, _ in logical]
    for index, line, variables in walk_assignments([t for _, t in logical], {}):
        if SHOWN.match(line):
            continue
        code = substituted(line)
        build = BUILD.search(code)
        if any(build is None or m.start() < build.start() for m in CD.finditer(code)):
            return  # a `cd`: the folder of what follows is not known
        if build is None:
            continue
        paths = build_paths(code[build.start() :])
        if paths is None:
            continue
        file = expand(paths[0], variables) if paths[0] else ""
        context = expand(paths[1], variables)
        if UNKNOWN in file + context or "$" in file + context or not context:
            continue
        args = tuple(dict.fromkeys(BUILD_ARG_FLAG.findall(code[build.start() :])))
        target, more = _target_and_more(code[build.end() :], variables)
        yield numbers[index], args, file, context, target, more


def _target_and_more(rest: str, variables: dict[str, str]) -> tuple[str | None, bool]:
    """The `--target` of a build command whose words after `docker build` are `rest` (the script's
    literal `variables` expanded), and whether it may pass build args it does not show: a word the shell
    splits into options of its own where the context goes (`$ARGS`, `"$@"`), an option `docker build`
    has not (`--build-arg-file`), a target docgen cannot tell."""
    try:
        words = shell_split(_BUILD_END.split(f" {rest}", maxsplit=1)[0])
    except ValueError:
        return None, True
    read = read_words(words, BUILD_GRAMMAR)
    if not read.complete or len(read.positional) != 1:
        return None, True
    targets = [expand(value, variables) for name, value in read.values if name == "--target"]
    if any(UNKNOWN in t or "$" in t for t in targets):
        return None, True
    return (targets[-1] if targets else None), False


def _declared(path: Path) -> frozenset[str] | None:
    """The names the ARGs of the Dockerfile at `path` declare, in every stage and before the first FROM;
    None when it cannot be read."""
    try:
        parsed = read_dockerfile(path)
    except DocgenError:
        return None
    return frozenset(
        word.split("=", 1)[0]
        for instruction in parsed.instructions
        if instruction.keyword == "ARG"
        for word in instruction.args.split()
    )


def _passed_undeclared(build: _ScriptBuild) -> list[str]:
    """The build args `build` passes that neither its Dockerfile nor one of its `others` declares, nor
    BuildKit predefines."""
    declared = [_declared(p) for p in (build.dockerfile, *build.others)]
    if any(d is None for d in declared):
        return []
    return [
        name
        for name in build.args
        if not any(name in d for d in declared if d is not None)
        and name not in PREDEFINED_ARGS
        and name not in PROXY_ARGS
        and name not in NOT_BUILD_ARGS
        and not name.startswith(("BUILDKIT_", "BUILDX_"))
    ]


_POSITIONAL = re.compile(r"\$(?:\{?[1-9@*#]|\{[1-9]\d*)")
"""A read of the script's arguments: `$1`, `${2:-cpu}`, `"$@"`, `$*`."""
_ASSIGNED = re.compile(r"(?:^|[\s;&|(])(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)=(\S*)")


def _readme_given(name: str, build: _ScriptBuild, source: Sequence[str]) -> bool:
    """True when the build arg `name` of `build` takes its value from the README's run of the script (its
    value reads the script's arguments, directly or through a variable set from them, or a variable the
    README sets), or the README names the arg (a word of its text)."""
    if any(re.search(rf"(?<![\w$]){re.escape(name)}(?!\w)", text) for text in source):
        return True
    text = "\n".join(project_lines(build.script)[: build.at + 40])
    value = _build_arg_value(text, name)
    if value is None:
        return False
    if _POSITIONAL.search(value):
        return True
    read = set(re.findall(r"\$\{?([A-Za-z_]\w*)", value))
    fed = {m.group(1) for m in _ASSIGNED.finditer(text) if _POSITIONAL.search(m.group(2))}
    said = {v for v in read if any(re.search(rf"(?<![\w$]){re.escape(v)}=", t) for t in source)}
    return bool(read & fed or said)


def _build_arg_value(text: str, name: str) -> str | None:
    """The value a `--build-arg NAME=value` of the script `text` gives `name` as written, '' for a bare
    `--build-arg NAME` (the caller's environment); None when none is found."""
    match = re.search(rf"--build-arg(?:[ \t]+|=)[\"']?{re.escape(name)}(?:=([^\s\"']*))?", text)
    if match is None:
        return None
    return match.group(1) or ""


def relative_path(path: Path, directory: Path) -> str:
    """`path` relative to `directory` (resolved), as a finding shows it."""
    return os.path.relpath(path, directory.resolve())


def script_build_claims(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """Of each `docker build` of a script the README runs: the build args it passes that the Dockerfile
    it builds declares in no stage (`certain`: the build leaves them unused, whatever the README's
    arguments set); a context that lacks what the Dockerfile copies (`references.context_findings`,
    as for a README's own build) or what a `pip install` reads from the copy of the whole context
    (`context_installs`, `likely`). A file a line of the script above its build makes (`cp
    /etc/apt/trusted.gpg.d/key.asc ./`, `wget …`) is in the context when the build runs."""
    top = project_top(directory, project)
    for build in script_builds(doc, directory, audited, project):
        # a file the script itself writes before its build (`cp /etc/…/key.asc ./`) is in the context
        made = MadeFiles(source, ["\n".join(project_lines(build.script)[: build.at - 1])])
        script = relative_path(build.script, directory)
        dockerfile = relative_path(build.dockerfile, directory)
        names = _passed_undeclared(build)
        # an arg whose value is the script's own (`--build-arg CUDNN=8`) makes no claim of the README,
        # and BuildKit only warns: told are those the README's run gives (`./make_image.sh 1.4.0` into
        # `v$1`) or the README names
        names = [n for n in names if _readme_given(n, build, source)]
        if names:
            listed = ", ".join(names)
            them, which = ("it", "no such ARG") if len(names) == 1 else ("them", "none of them")
            yield Diagnostic(
                readme,
                build.line,
                f"README runs {build.run}, whose docker build ({script}:{build.at}) passes --build-arg "
                f"{listed}, but {dockerfile} declares {which} in any stage: the build leaves {them} unused",
                confidence=CERTAIN,
            )
        try:
            parsed = read_dockerfile(build.dockerfile, dockerfile)
        except DocgenError:
            continue
        folder = relative_path(build.context, directory)
        shown = f"{build.context.name}/, the README's folder" if folder == "." else f"{folder}/"
        lead = (
            f"README runs {build.run}, whose docker build ({script}:{build.at}) builds {dockerfile} with the "
            f"context {build.written} ({shown})"
        )
        told = list(
            context_findings(
                readme, build.line, lead, parsed.instructions, build.dockerfile, build.context, top, made
            )
        )
        installs, scripts = context_reads(parsed.instructions, build.context)
        if told:
            # the build fails already: what else it reads from its copy of the context is told with it
            more = _listed_reads(installs, scripts, told[0].message)
            if more:
                first = told[0]
                told[0] = dataclasses.replace(first, message=first.message + more)
        yield from told
        yield from some(_named_other(doc, readme, build, directory, script, dockerfile))
        if told:
            continue
        if scripts:
            listed = ", ".join(f"{name} (line {at})" for at, name in scripts)
            said = f"{lead}, which does not hold {listed} that it runs from its copy of the context"
            sure = CERTAIN if in_checkout(build.context, top) else LIKELY
            yield Diagnostic(readme, build.line, said, confidence=sure)
            continue
        yield from _missing_installs(readme, build, lead, parsed.instructions, top)


def _listed_reads(installs: Sequence[tuple[int, str]], scripts: Sequence[tuple[int, str]], said: str) -> str:
    """The words adding to a finding `said` of a context lacking what its Dockerfile copies the files
    the Dockerfile installs or runs from its copy of the whole context that the context lacks too (those
    `said` does not name already); '' when there are none."""
    parts: list[str] = []
    for reads, verb in ((installs, "installs"), (scripts, "runs")):
        named = [(at, name) for at, name in reads if f"{name} (line {at})" not in said]
        if named:
            listed = ", ".join(f"{name} (line {at})" for at, name in named)
            parts.append(f"{listed} that it {verb} from its copy of the context")
    return "; nor does it hold " + " and ".join(parts) if parts else ""


_DOCKERFILE_NAME = re.compile(
    r"(?<![\w./-])((?:[\w.-]+/)*(?:[\w-]+\.)?[Dd]ockerfile(?:[._-][\w.-]*\w)?)(?![\w/-])"
)
"""A Dockerfile's name in a sentence (`Dockerfile`, `gpu.Dockerfile`, `docker/Dockerfile.cuda`)."""


def _named_other(
    doc: Document, readme: str, build: _ScriptBuild, directory: Path, script: str, dockerfile: str
) -> Diagnostic | None:
    """The finding of a sentence introducing the block that runs a build script (`Build docker image
    based on Dockerfile.` over `./build`) that names a Dockerfile of the project other than the one the
    script builds (`-f gpu.Dockerfile`), and not that one: the reader edits and trusts a file the
    build never reads (`likely`)."""
    fence = next((f for f in doc.fences if any(n == build.line for n, _ in f.lines)), None)
    intro = line_above(doc, fence) if fence is not None else None
    if intro is None:
        return None
    folder = Path(os.path.realpath(directory))
    named = {m.group(1): inside(folder / m.group(1), folder) for m in _DOCKERFILE_NAME.finditer(intro)}
    files = {n for n, found in named.items() if found is not None and os.path.isfile(found)}
    if not files or any(named[n] == Path(os.path.realpath(build.dockerfile)) for n in files):
        return None
    said = sorted(files)[0]
    line = next((p.lines[-1][0] for p in doc.paragraphs if p.lines[-1][1] == intro), build.line)
    return Diagnostic(
        readme,
        line,
        f"README says {build.run} builds the image from {said}, but its docker build ({script}:{build.at}) "
        f"builds {dockerfile}",
        confidence=LIKELY,
    )


def _missing_installs(
    readme: str, build: _ScriptBuild, lead: str, instructions: Sequence[Instruction], top: Path
) -> Iterator[Diagnostic]:
    """`context_installs` of `build`, told when a folder above the context holds what it lacks (the
    build was written for it) or the context is a folder kept for container files (`docker/`), which
    holds no project of its own (`likely`)."""
    missing = context_installs(instructions, build.context)
    if not missing:
        return
    names = [name for _, name in missing]
    above = [f for f in list(build.context.parents)[:3] if f.is_relative_to(top)]
    home = next((f for f in above if all(_held(f, name) for name in names)), None)
    if home is None and build.context.name.lower() not in _CONTEXT_FOLDERS:
        return
    listed = ", ".join(f"{name} (line {at})" for at, name in missing)
    said = f"{lead}, which does not hold {listed} that it installs from its copy of the context"
    if home is not None:
        verb = "is" if len(missing) == 1 else "are"
        said += f" ({verb} in {os.path.relpath(home, build.context)}/)"
    yield Diagnostic(readme, build.line, said, confidence=LIKELY)


def _held(folder: Path, name: str) -> bool:
    """True when `folder` holds `name` (for `setup.py or pyproject.toml`, one of the project files)."""
    if name == "setup.py or pyproject.toml":
        return any(os.path.lexists(folder / f) for f in PROJECT_FILES)
    return os.path.lexists(folder / name)


_CONTEXT_FOLDERS = ("docker", ".docker", "dockerfiles", "container", "containers", ".devcontainer")
"""Names of a folder kept for container files only: one that holds no Python project of its own."""


# --------------------------------------------------------------------------------------------------
# A build arg a script's `docker build` writes without `--build-arg`

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*")
"""A `NAME=value` word (`CUDA_VERSION=$4`)."""
_BUILD_END = re.compile(r"[ \t](?:&&|\|\||;|\||>|2>|#)")


def _span_runs(doc: Document, directory: Path, top: Path) -> Iterator[tuple[int, str, Path, Path]]:
    """`script_runs` of code spans that are a whole command running a script of the README's folder (a
    list item's `bash ./build_push.sh user 11.4.3`): (README line, the script as written, its real path,
    the README's folder)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "sh" not in text or "`" not in text:
                continue
            for _, _, code in code_spans(text):
                match = RUN_SCRIPT.match(code.strip())
                if match is None:
                    continue
                path = directory / match.group(1)
                if os.path.isfile(path) and resolves_inside(path, top):
                    yield line, match.group(1), Path(os.path.realpath(path)), directory.absolute()


def unflagged(code: str) -> tuple[list[str], str] | None:
    """(the `NAME=value` words, the context) of a `docker build` command line `code` whose options are
    all known and that has more than one positional word, some of them `NAME=value`: build args written
    without `--build-arg` (`--build-arg A=$1 B=$2 .`); None otherwise."""
    build = BUILD.search(code)
    if build is None:
        return None
    rest = _BUILD_END.split(f" {code[build.end() :]}", maxsplit=1)[0]
    try:
        words = shell_split(rest.replace("\\\n", " "))
    except ValueError:
        return None
    read = read_words(words, BUILD_GRAMMAR)
    if not read.complete or read.help or len(read.positional) < 2:
        return None
    assigned = [w for w in read.positional if _ASSIGNMENT.fullmatch(w)]
    context = [w for w in read.positional if not _ASSIGNMENT.fullmatch(w)]
    if not assigned or len(context) != 1:
        return None
    return assigned, context[0]


def unflagged_build_args(
    doc: Document, readme: str, directory: Path, audited: Sequence[str], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A `docker build` line of a shell script the README runs (a command block, a sentence, a code span
    that is the command) that writes build args as bare `NAME=value` words (`docker build --build-arg
    BASE=$1 CUDA_VERSION=$4 TRT_VERSION=$5 .`: only the first has `--build-arg`): docker build takes one
    positional word, the context, and refuses the command ("requires exactly 1 argument"), so the
    script the README runs cannot build (`certain`). Read when every option of the build is known and
    one positional word is left besides the assignments; not a line that only shows a command
    (`echo "docker build …"`, a comment)."""
    top = project_top(directory, project)
    runs = [*readme_runs(doc, directory, audited, project), *_span_runs(doc, directory, top)]
    seen: set[Path] = set()
    for line, _, script, _ in sorted(runs, key=lambda run: run[0]):
        if script in seen:
            continue
        seen.add(script)
        lines = project_lines(script)
        text = "\n".join(lines)
        if script.suffix not in (".sh", ".bash") and not SHELL.match(text):
            continue
        for at, code in logical_lines(lines):
            if SHOWN.match(code):
                continue
            found = unflagged(code)
            if found is None:
                continue
            assigned, context = found
            listed = ", ".join(assigned)
            shown = relative_path(script, directory)
            yield Diagnostic(
                readme,
                line,
                f"README runs {shown}, whose docker build ({shown}:{at}) passes {listed} without "
                "--build-arg: docker build "
                f"reads {'it' if len(assigned) == 1 else 'them'} as positional words besides the context "
                f"{context} and refuses to run (it takes exactly 1 argument), so the image is not built "
                f"(write --build-arg before each)",
                confidence=CERTAIN,
            )
