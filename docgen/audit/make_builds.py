"""The image builds a README runs through make: `make TARGET` in a command block, or a script the README
runs (`./build.sh`, `./build` with no extension: a `#!` line names its interpreter) whose command runs
`make TARGET`, the target written out or chosen by a variable (`make $IMAGE`, `'make {}'.format(name)`
in a Python script). Each `docker build` of the target's recipe and of its prerequisites' is read from
the Makefile's folder (make runs every recipe line there), and a context that lacks what its Dockerfile
copies is told as for a README's own build (`references.context_findings`).

A target chosen by a variable is each rule of the Makefile that the variable's word can spell (`$X_nvidia`
spells `ros1_nvidia`) and that the script's own literals make up whole (`'ros1'` and `"_nvidia"`, a
shell assignment's value, a `case` pattern): the targets the script may name, not every rule; such a
build is told `likely`. The Makefile is the one of the folder the script runs make in (a literal `cd`
before it on its line, else the folder the script starts in, its own, or the README's), holding a rule
of the target. A build in a folder a recipe enters with `cd`, of a context or Dockerfile written with a
variable make does not know, or of a context the project does not hold, is not read; nor is `make -C`
or `make -f`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_paths
from docgen.audit.make_targets import make_commands, makefile_in, makefile_of, makefile_text
from docgen.audit.paths import resolves_inside
from docgen.audit.references import MadeFiles, Walk, context_findings, inside, project_top, run_folders
from docgen.audit.script_builds import SHOWN, build_start, readme_runs, unflagged
from docgen.dockerfile import read_dockerfile
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import context_dockerfile, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_BARE_SCRIPT = re.compile(
    r"(?:^|&&|\|\||;)[ \t]*(?:\$[ \t]+)?(?:(?:sudo|time|nohup|exec)[ \t]+)?"
    r"(?:[A-Za-z_][A-Za-z0-9_]*=[^\s;&|]*[ \t]+)*"
    r"((?:\.{1,2}/)+[\w-]+(?:/[\w-]+)*)(?=$|[ \t;&|)])"
)
"""A script with no extension in the place of the command (`./build`, `$ ./tools/make-image --gpu`)."""
_MAKE_CALL = re.compile(
    r"(?:^|(?<=[\s;&|(`'\"]))make(?:[ \t]+(?P<rest>(?:\"[^\"\n]*\"|'[^'\n]*'|[^\n;&|)`'\"#])*))?"
    r"(?P<joined>['\"][ \t]*[+%])?"
)
"""`make` as a command of a script line and the words after it, to the end of its command or string
(`'cd {} && make {}'.format(…)`); `joined`: the string ends there and a value is added to it (`"make " +
target`, `"make %s" % target`)."""
_VARIABLE = re.compile(r"\$\{[^}]*\}|\$\([^)]*\)|\$\w+|\{[^{}]*\}|%(?:\(\w+\))?s")
"""A value put in a word: `$NAME`, `${NAME}`, `$(cmd)`, a Python format field `{}` / `{name}`, `%s`."""
_PARTS = re.compile(f"({_VARIABLE.pattern})")
_ELSEWHERE = frozenset({"-C", "--directory", "-f", "--file", "--makefile"})
_VALUED = frozenset({"-j", "--jobs", "-l", "--load-average", "-o", "--old-file", "-W", "--what-if"})
_QUOTED = re.compile(r"""(['"])([\w.+-]+)\1""")
_ASSIGNED = re.compile(r"(?:^|[\s;])[A-Za-z_]\w*=([\w.+-]+)(?=[\s;]|$)", re.MULTILINE)
_CASE_ARM = re.compile(r"^[ \t]*\(?([\w.+|-]+)\)", re.MULTILINE)
_LEADING_CD = re.compile(r"(?:^|[\s;&'\"])cd[ \t]+([\w./-]+)[ \t]*(?:&&|;)")
_MOST = 8
"""More targets than this for one variable: the script may make any of them, none is told."""


def _literals(text: str) -> frozenset[str]:
    """The pieces a script may spell a target from: its quoted words (`'ros1'`, `"_nvidia"`), the values
    of its shell assignments (`IMAGE=base`) and the patterns of its `case` arms (`cpu|gpu)`)."""
    found = {m.group(2) for m in _QUOTED.finditer(text)}
    found |= {m.group(1) for m in _ASSIGNED.finditer(text)}
    for match in _CASE_ARM.finditer(text):
        found |= set(match.group(1).split("|"))
    return frozenset(f for f in found if f)


def _spelled(target: str, pieces: frozenset[str]) -> bool:
    """True when `target` is one or more of `pieces` end to end (`ros1` + `_nvidia`)."""
    reach = [True] + [False] * len(target)
    for end in range(1, len(target) + 1):
        reach[end] = any(reach[start] and target[start:end] in pieces for start in range(end))
    return reach[-1]


def _words(rest: str) -> list[str] | None:
    """The target words of a `make` command's words; None when it reads another Makefile (`-C`, `-f`)."""
    found: list[str] = []
    words = [w.strip("\"'") for w in rest.split()]
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        name = word.split("=", 1)[0]
        if name in _ELSEWHERE or (word[:2] in _ELSEWHERE and not word.startswith("--")):
            return None
        if name in _VALUED and "=" not in word:
            if at < len(words) and (words[at].isdigit() or name not in ("-j", "--jobs")):
                at += 1
            continue
        if word.startswith("-") or re.match(r"[A-Za-z_]\w*=", word) or word.startswith("{}=") or "/" in word:
            continue
        found.append(word)
    return found


def _script_targets(
    text: str, rules: frozenset[str]
) -> Iterator[tuple[int, str, tuple[str, ...], bool, str | None]]:
    """(script line, the target as written, the rules it makes, chosen by a variable, the literal folder
    a `cd` before it on its line enters) of each `make` command of a script's `text`."""
    pieces: frozenset[str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if "make" not in line or SHOWN.match(line):
            continue
        for match in _MAKE_CALL.finditer(line):
            words = _words(match.group("rest") or "")
            if words is None:
                continue
            if match.group("joined") and not _VARIABLE.search(match.group("rest") or ""):
                words = [*words, "{}"]  # the value added to the string
            cd = _LEADING_CD.search(line[: match.start()])
            folder = cd.group(1) if cd is not None else None
            for word in words:
                if not _VARIABLE.search(word):
                    if word in rules:
                        yield number, word, (word,), False, folder
                    continue
                parts = [p for p in _PARTS.split(word.replace("$$", "$")) if p]
                pattern = "".join(".+" if _VARIABLE.fullmatch(p) else re.escape(p) for p in parts)
                if pieces is None:
                    pieces = _literals(text)
                literal = frozenset(p for p in parts if not _VARIABLE.fullmatch(p))
                made = tuple(
                    sorted(
                        rule
                        for rule in rules
                        if re.fullmatch(pattern, rule) and _spelled(rule, pieces | literal)
                    )
                )
                if made and len(made) <= _MOST:
                    yield number, word, made, True, folder


def _script_text(path: Path) -> str | None:
    """The text of a script the README runs, when it is one (`.sh`, `.py` …, or a `#!` line)."""
    text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
    if text is None or "\0" in text:
        return None
    return text if path.suffix or text.startswith("#!") else None


def _runs(
    doc: Document, directory: Path, audited: Sequence[str], project: Path | None
) -> list[tuple[int, str, Path, Path]]:
    """(README line, the script as written, its real path, the folder it runs in) of each script the
    README runs: `script_builds.readme_runs`, and those with no extension a command block runs."""
    top = project_top(directory, project)
    found = list(readme_runs(doc, directory, audited, project))
    walk = Walk(run_folders(directory, audited, top), top, home=True)
    for line, step in walk.steps(doc.fences, joined=True):
        for match in _BARE_SCRIPT.finditer(step):
            path = match.group(1)
            folder = next((f for f in walk.folders if os.path.isfile(f / path)), None)
            if folder is not None and resolves_inside(folder / path, top):
                found.append((line, path, Path(os.path.realpath(folder / path)), folder))
    return sorted(found, key=lambda run: run[0])


def _builds(text: str, target: str, base: Path, top: Path) -> Iterator[tuple[int, Path, Path, str]]:
    """(Makefile line, Dockerfile, context, context as written) of each image build `make target` runs
    with the Makefile `text` of the folder `base`, read from there."""
    recipe = makefile.target_recipe(text, target)
    if recipe is None:
        return
    for build in recipe.builds:
        paths = build_paths(build.command) if build.command else None
        if paths is None:
            continue
        file, written = paths
        if "$" in written or (file is not None and "$" in file):
            continue
        context = inside(base / written, top)
        if context is None or not os.path.isdir(context):
            continue
        dockerfile = inside(base / file, top) if file else context_dockerfile(context)
        if dockerfile is None or not os.path.isfile(dockerfile):
            continue
        yield build.line, dockerfile, context, written


def _told(
    readme: str,
    line: int,
    lead: str,
    makefile_path: Path,
    text: str,
    target: str,
    directory: Path,
    top: Path,
    made: MadeFiles,
    seen: set[tuple[Path, Path]],
    guessed: bool,
) -> Iterator[Diagnostic]:
    base = makefile_path.parent
    shown = os.path.relpath(makefile_path, directory.resolve())
    for at, dockerfile, context, written in _builds(text, target, base, top):
        if (dockerfile, context) in seen:
            continue
        seen.add((dockerfile, context))
        try:
            parsed = read_dockerfile(dockerfile, os.path.relpath(dockerfile, directory.resolve()))
        except DocgenError:
            continue
        named = os.path.relpath(dockerfile, directory.resolve())
        said = f"{lead}, whose recipe ({shown}:{at}) builds {named} with the context {written}"
        instructions = parsed.instructions
        for found in context_findings(readme, line, said, instructions, dockerfile, context, top, made):
            yield Diagnostic(found.path, found.line, found.message, confidence=LIKELY) if guessed else found


def make_builds(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    audited: Sequence[str],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """A context that lacks what its Dockerfile copies, of each image build a `make` command of the
    README runs, or one of a script the README runs (`certain` or `likely` as `context_findings` tells;
    `likely` for a target a variable of the script chooses)."""
    top = project_top(directory, project)
    made = MadeFiles(source)
    seen: set[tuple[Path, Path]] = set()
    path = makefile_of(directory, project)
    text = makefile_text(path) if path is not None else None
    if path is not None and text is not None and resolves_inside(path, top):
        for line, targets in make_commands(doc):
            for target in targets:
                lead = f"README runs make {target}"
                yield from _told(readme, line, lead, path, text, target, directory, top, made, seen, False)
    done: set[Path] = set()
    for line, run, script, cwd in _runs(doc, directory, audited, project):
        if script in done:
            continue
        done.add(script)
        body = _script_text(script)
        if body is None or "make" not in body:
            continue
        started = build_start(script, cwd, top)
        folder = started[0] if started is not None else cwd
        shown = os.path.relpath(script, directory.resolve())
        rules = _all_rules(folder, script, directory)
        for at, word, wanted, guessed, entered in _script_targets(body, rules):
            places = [folder, script.parent, directory.resolve()]
            if entered is not None and (into := inside(folder / entered, top)) is not None:
                places = [into, *places]
            found = _makefile_with(places, wanted, top)
            if found is None:
                continue
            mk, mk_text = found
            for target in wanted:
                which = f" (here {target}, a target a variable chooses)" if guessed else ""
                lead = f"README runs {run}, which runs make {word} ({shown}:{at}){which}"
                yield from _told(readme, line, lead, mk, mk_text, target, directory, top, made, seen, guessed)


def _all_rules(folder: Path, script: Path, directory: Path) -> frozenset[str]:
    """The rules of the Makefiles a script may run make with (its starting folder's, its own folder's, the
    README's)."""
    found: set[str] = set()
    for place in {folder, script.parent, directory.resolve()}:
        path = makefile_in(place)
        text = makefile_text(path) if path is not None else None
        if text is not None:
            found |= makefile.rule_targets(text) or frozenset()
    return frozenset(found)


def _makefile_with(places: Sequence[Path], wanted: Sequence[str], top: Path) -> tuple[Path, str] | None:
    """The first Makefile of `places` (inside `top`) with a rule of each of `wanted`, and its text."""
    for place in places:
        path = makefile_in(place)
        text = makefile_text(path) if path is not None else None
        if path is None or text is None or not resolves_inside(path, top):
            continue
        rules = makefile.rule_targets(text) or frozenset()
        if all(t in rules for t in wanted):
            return path, text
    return None


def unflagged_recipe_args(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """A `docker build` of the recipe a README's `make TARGET` runs (its rule's and its prerequisites')
    that writes build args as bare `NAME=value` words (`--build-arg BASE=$(BASE) CUDA=$(CUDA) .`):
    docker build takes one positional word, the context, and refuses the command (`certain`), as
    `script_builds.unflagged_build_args` tells for a script."""
    top = project_top(directory, project)
    path = makefile_of(directory, project)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None or not resolves_inside(path, top):
        return
    shown = os.path.relpath(path, directory.resolve())
    seen: set[int] = set()
    for line, targets in make_commands(doc):
        for target in targets:
            recipe = makefile.target_recipe(text, target)
            for build in recipe.builds if recipe is not None else ():
                found = unflagged(build.command) if build.command and build.line not in seen else None
                if found is None:
                    continue
                seen.add(build.line)
                assigned, context = found
                them = "it" if len(assigned) == 1 else "them"
                yield Diagnostic(
                    readme,
                    line,
                    f"README runs make {target}, whose recipe's docker build ({shown}:{build.line}) passes "
                    f"{', '.join(assigned)} without --build-arg: docker build reads {them} as positional "
                    f"words besides the context {context} and refuses to run (it takes exactly 1 argument), "
                    "so the image is not built (write --build-arg before each)",
                    confidence=CERTAIN,
                )
