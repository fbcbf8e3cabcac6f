"""`make TARGET` commands of a README (in a command block or in inline code) against the Makefile `make`
reads: a target no rule of it makes (`make rocm-toolbox` while the rule is `toolbox-rocm:`, the name
only listed in `.PHONY`) cannot be made.

The Makefile is the one in the README's folder (`GNUmakefile`, `makefile`, `Makefile`, as `make` looks),
else the nearest one above it in the project; its rules are read once (`docgen.makefile.rule_targets`).
"""

from __future__ import annotations

import bisect
import difflib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import MOVE
from docgen.audit.memo import per_audit
from docgen.audit.wording import COMMAND_LANGS
from docgen.build_scripts import DOCKER_PODMAN, container_command
from docgen.errors import MAX_FILE_BYTES
from docgen.files import stays_home
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic

_MAKE = re.compile(r"(?:^|[;&|(][ \t]*|\$[ \t]+|sudo[ \t]+)make((?:[ \t]+[^\s;&|)#`]+)*)")
"""A `make` command and its words (`make rocm-gfx1100 BUILD_ARGS=`, `$ make image`, `&& make test`)."""
_ELSEWHERE = frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir"})
"""Options that make `make` read another Makefile: such a command is not read."""
_VALUED = frozenset({"-j", "--jobs", "-l", "--load-average", "-o", "--old-file", "-W", "--what-if"})
_NOT_A_TARGET = re.compile(r"[=<>{}$\[\]*/.\\\"']|^-")
"""A variable (`V=1`), an option, a placeholder, a path or a file: not a rule's name."""
_MOVE = re.compile(
    MOVE.pattern
    + "|"
    + container_command("run|exec", DOCKER_PODMAN, container=False, compose=True)
    + r"|\bgit[ \t]+clone\b|\bssh[ \t]"
)
"""A line after which a block's commands may run elsewhere: a `cd`, a container, a clone, a remote host."""


def named_targets(words: list[str]) -> list[str] | None:
    """The targets a `make` command's words name; None when it reads another folder or file (`-C`)."""
    found: list[str] = []
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
        if not _NOT_A_TARGET.search(word):
            found.append(word)
    return found


def make_commands(doc: Document) -> Iterator[tuple[int, list[str]]]:
    """(README line, targets) of each `make` command of a command block before any `cd`, container,
    clone or remote shell in it, and of
    each inline code span that is one."""
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, text in fence.lines:
            if _MOVE.search(text):
                break
            if text.lstrip().startswith("#"):
                continue
            for match in _MAKE.finditer(text.strip()):
                if (targets := named_targets(match.group(1).split())) is not None:
                    yield line, targets
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "make" not in text:
                continue
            for _, _, code in code_spans(text):
                whole = _MAKE.fullmatch(code.strip())
                if whole is not None and (targets := named_targets(whole.group(1).split())) is not None:
                    yield line, targets


def makefile_of(directory: Path, project: Path | None) -> Path | None:
    """The Makefile of the README's folder, else of the nearest folder above it (up to `project`, by
    default four folders up)."""
    start = directory.resolve()
    above = [start, *start.parents][:5]
    if project is not None:
        top = project.resolve()
        above = [start, *(p for p in start.parents if p == top or top in p.parents)]
    return next((path for folder in above if (path := makefile_in(folder)) is not None), None)


def makefile_in(folder: Path) -> Path | None:
    """The Makefile `make` reads in `folder` without `-f` (the first of `makefile.DEFAULT_FILES`), if any."""
    return next((folder / name for name in makefile.DEFAULT_FILES if os.path.isfile(folder / name)), None)


def makefile_text(path: Path) -> str | None:
    """The text of the Makefile at `path`; None when it cannot be read or is larger than docgen reads."""
    try:
        if not os.path.isfile(path) or not stays_home(path) or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


@per_audit(maxsize=16)
def _rules(path: Path) -> frozenset[str] | None:
    text = makefile_text(path)
    return makefile.rule_targets(text) if text is not None else None


def _made_otherwise(target: str, rules: frozenset[str], folder: Path) -> bool:
    """True when `make target` works without a rule of that name: a pattern rule matches it, or a file
    or folder of that name is there."""
    for rule in rules:
        if "%" in rule:
            head, _, tail = rule.partition("%")
            if target.startswith(head) and target.endswith(tail) and len(target) > len(head) + len(tail):
                return True
    return os.path.exists(folder / target)


def _close(target: str, rules: frozenset[str]) -> str | None:
    """The rule a target is a slip from: its words in another order (`rocm-toolbox`, `toolbox-rocm`), or
    a near spelling."""
    words = sorted(re.split(r"[-_]", target))
    for rule in sorted(rules):
        if sorted(re.split(r"[-_]", rule)) == words:
            return rule
    close = difflib.get_close_matches(target, sorted(r for r in rules if "%" not in r), n=1, cutoff=0.8)
    return close[0] if close else None


_TARGET_WORD = re.compile(r"\btargets?\b", re.IGNORECASE)
_NAMED_FILE = re.compile(
    r"(?<![\w./-])`?([A-Za-z][\w.-]{0,60}?)`?[ \t]*\([ \t]*`?(?:\./)?(?:[\w.-]+/){0,4}"
    r"(Dockerfile(?:[.-][\w.-]{1,60})?)`?[ \t]*\)"
)
"""A make target named with the Dockerfile it builds in prose: `x86_no_cuda (Dockerfile.x86_no_cuda)`."""


def _prose_targets(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(README line, target, Dockerfile name) of each target a sentence about make targets names with
    the Dockerfile it builds in brackets (`Target arm64 (Dockerfile.arm64) and x86_no_cuda
    (Dockerfile.x86_no_cuda) provide …`)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "Dockerfile" not in text or not _TARGET_WORD.search(text):
                continue
            for match in _NAMED_FILE.finditer(text):
                if match.group(1).lower() not in ("target", "targets", "and", "or", "the", "image", "file"):
                    yield line, match.group(1), match.group(2)


def _builders(text: str, rules: frozenset[str], dockerfile: str) -> list[tuple[str, int]]:
    """(rule, makefile line) of each rule of the Makefile `text` whose recipe, prerequisites included,
    runs one image build, of the Dockerfile named `dockerfile` (`makefile.target_recipe`)."""
    found = []
    for rule in sorted(r for r in rules if "%" not in r):
        recipe = makefile.target_recipe(text, rule)
        if recipe is None or len(recipe.builds) != 1:
            continue
        build = recipe.builds[0]
        if build.dockerfile is not None and build.dockerfile.rsplit("/", 1)[-1] == dockerfile:
            found.append((rule, build.line))
    return found


def _named_targets(
    doc: Document, readme: str, path: Path, rules: frozenset[str], shown: str, reported: set[str]
) -> Iterator[Diagnostic]:
    """A target prose names with the Dockerfile it builds (`x86_no_cuda (Dockerfile.x86_no_cuda)`) that no
    rule of the Makefile makes while exactly one rule builds that Dockerfile: `likely` (prose)."""
    named = [found for found in _prose_targets(doc) if found[1] not in rules and found[1] not in reported]
    text = makefile_text(path) if named else None
    if text is None:
        return
    for line, target, dockerfile in named:
        if target in reported or _made_otherwise(target, rules, path.parent):
            continue
        builders = _builders(text, rules, dockerfile)
        if len(builders) != 1:
            continue
        reported.add(target)
        rule, at = builders[0]
        said = (
            f"README names {target} as the make target of {dockerfile}, but no rule of {shown} makes it; "
            f"rule {rule} builds {dockerfile} ({shown}:{at})"
        )
        yield Diagnostic(readme, line, said, confidence=LIKELY)


_FILLED = re.compile(
    r"(?<!\S)(?P<head>[\w.-]*)(?P<hole>\[[^\[\]<>{}\n]{1,40}\]|<[^\[\]<>{}\n]{1,40}>|\{[^\[\]<>{}\n]{1,40}\})"
    r"(?P<tail>[\w.-]*)(?!\S)"
)
"""A target with a part the reader fills in (`run_[model name]`, `train-<model>`, `{arch}-image`)."""
_VALUE = re.compile(r"[A-Za-z0-9][\w.+-]{0,60}")
"""A value a placeholder of a target may take (`UNet`, `deeplabv3+`, `cu118`)."""
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+`?([A-Za-z0-9][\w.+-]{0,60})`?(?:[ \t]*(?:[:(—–-].*)?)?\Z")
"""A list item that starts with a value (`- UNet`, `` * `fastfcn`: the fast one ``)."""
_WINDOW = 8
"""How many lines around a make command the values of its placeholder are looked for in."""


def _filled_commands(doc: Document) -> Iterator[tuple[int, str, str, str]]:
    """(README line, head, placeholder, tail) of each target of a `make` command (a block's, or an inline
    code span that is one) with a part the reader fills in and a literal part beside it (`make
    run_[model name]`: run_, [model name], '')."""
    lines = [
        (line, text) for fence in doc.fences if fence.lang in COMMAND_LANGS for line, text in fence.lines
    ]
    spans = [
        (line, code)
        for para in doc.paragraphs
        for line, text in para.lines
        for _, _, code in code_spans(text)
    ]
    for line, text in [*lines, *spans]:
        if "make" not in text or text.lstrip().startswith("#"):
            continue
        for match in _MAKE.finditer(text.strip()):
            for hole in _FILLED.finditer(match.group(1)):
                if hole.group("head") or hole.group("tail"):
                    yield line, hole.group("head"), hole.group("hole"), hole.group("tail")


def _hole_words(hole: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", hole.lower())) - {"name", "the", "a", "your"}


def _hole_values(doc: Document, line: int, hole: str) -> tuple[int, list[str], bool] | None:
    """(README line, values, from a table) of the values a placeholder (`[model name]`) is said to take
    near the command at `line`: the other code spans of a prose line naming the placeholder
    (`` `UNet`, `DeepLabV3Plus` and `FastFCN` are available in `[model name]` ``), the items of a list
    after a line naming it, or the cells of a table's column headed by its words (`Model`); at least
    two, each a plain value. None when no line near the command says."""
    inner = hole[1:-1].strip().lower()
    words = _hole_words(hole)
    first = bisect.bisect_left(doc.paragraphs, line - _WINDOW, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[first:]:
        if para.lines[0][0] > line + _WINDOW:
            break
        for at, (number, text) in enumerate(para.lines):
            if hole not in text and inner not in text.lower():
                continue
            values = [c for _, _, c in code_spans(text) if c != hole and inner not in c.lower()]
            if len(values) >= 2 and all(_VALUE.fullmatch(v) for v in values):
                return number, values, False
            items = [m.group(1) for _, item in para.lines[at + 1 :] if (m := _ITEM.match(item)) is not None]
            if len(items) >= 2:
                return number, items, False
    for table in doc.tables:
        if abs(table.line - line) > 2 * _WINDOW or not words:
            continue
        for column, head in enumerate(table.header):
            if not (set(re.findall(r"[a-z0-9]+", head.lower())) & words):
                continue
            cells = [cells[column].strip().strip("`*") for _, cells in table.rows if column < len(cells)]
            if len(cells) >= 2 and all(_VALUE.fullmatch(c) for c in cells):
                return table.line, cells, True
    return None


def _rule_line(text: str, rule: str) -> int | None:
    """The Makefile line of `rule`'s rule (`run_cityscape:`)."""
    found = re.search(rf"^{re.escape(rule)}(?:[ \t][^:\n]*)?[ \t]*::?(?!=)", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _filled_targets(
    doc: Document, readme: str, path: Path, rules: frozenset[str], shown: str, beside: bool
) -> Iterator[Diagnostic]:
    """A target a `make` command names with a placeholder (`make run_[model name]`) whose values the
    README gives near it (`_hole_values`), filled in with each, that no rule of the Makefile makes:
    `likely` for values read from prose, `certain` from a table beside the Makefile's folder."""
    text = ""
    for line, head, hole, tail in _filled_commands(doc):
        found = _hole_values(doc, line, hole)
        if found is None:
            continue
        at, values, tabled = found
        missing = [
            head + v + tail
            for v in values
            if head + v + tail not in rules and not _made_otherwise(head + v + tail, rules, path.parent)
        ]
        if not missing:
            continue
        named = ", ".join(missing[:-1]) + (" or " if len(missing) > 1 else "") + missing[-1]
        where = "the table" if tabled else "line"
        said = (
            f"README runs make {head}{hole}{tail} with {hole} one of {', '.join(values)} ({where} {at}), "
            f"but no rule of {shown} makes {named}"
        )
        text = text or makefile_text(path) or ""
        siblings = sorted(r for r in rules if r.startswith(head) and r.endswith(tail) and (head or tail))
        shown_rules = [f"{r} ({shown}:{n})" if (n := _rule_line(text, r)) else r for r in siblings[:4]]
        if shown_rules:
            said += f" (its {head}…{tail} rules: {', '.join(shown_rules)})"
        yield Diagnostic(readme, line, said, confidence=CERTAIN if tabled and beside else LIKELY)


def unmade_targets(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """A target a README's `make` command names that no rule of the Makefile makes: `README runs make
    rocm-toolbox, but no rule of Makefile makes it (did you mean toolbox-rocm?)` — `certain` for the
    Makefile beside the README, `likely` for one above it (the README may mean another)."""
    commands = list(make_commands(doc))
    if not commands and not any(True for _ in _prose_targets(doc)) and not any(_filled_commands(doc)):
        return
    path = makefile_of(directory, project)
    rules = _rules(path) if path is not None else None
    if path is None or not rules or len(rules) < 2:
        return
    beside = path.parent == directory.resolve()
    shown = Path(os.path.relpath(path, directory.resolve())).as_posix()
    reported: set[str] = set()
    for line, targets in commands:
        for target in targets:
            if target in rules or target in reported or _made_otherwise(target, rules, path.parent):
                continue
            reported.add(target)
            close = _close(target, rules)
            said = f"README runs make {target}, but no rule of {shown} makes it"
            said += f" (did you mean {close}?)" if close else ""
            yield Diagnostic(readme, line, said, confidence=CERTAIN if beside else LIKELY)
    yield from _named_targets(doc, readme, path, rules, shown, reported)
    yield from _filled_targets(doc, readme, path, rules, shown, beside)


@per_audit(maxsize=16)
def _slips(path: Path) -> tuple[makefile.SeparatorSlip, ...]:
    text = makefile_text(path)
    return makefile.separator_slips(text) if text is not None else ()


def unread_makefiles(
    doc: Document, readme: str, directory: Path, project: Path | None
) -> Iterator[Diagnostic]:
    """The `make` commands of a README when the Makefile `make` reads (`makefile_of`) has a line GNU make
    stops at (`makefile.separator_slips`: a recipe line indented with spaces, not a tab): make reads the
    whole file before it makes anything, so every target the README runs stops with "missing separator".
    Told once, at the first command. `certain` for the Makefile beside the README and a line naming no
    variable; `likely` when a variable's value could make the line a rule, or the Makefile is above the
    README's folder (the README may mean another)."""
    commands = list(make_commands(doc))
    if not commands:
        return
    path = makefile_of(directory, project)
    slips = _slips(path) if path is not None else ()
    if path is None or not slips:
        return
    slip = slips[0]
    beside = path.parent == directory.resolve()
    shown = Path(os.path.relpath(path, directory.resolve())).as_posix()
    runs: dict[str, int] = {}
    for line, targets in commands:
        runs.setdefault(" ".join(["make", *targets]), line)
    said = ", ".join(f"{run} (line {line})" for run, line in list(runs.items())[:4])
    lead = len(slip.text) - len(slip.text.lstrip(" "))
    yield Diagnostic(
        readme,
        commands[0][0],
        f"README runs {said}, but {shown}:{slip.line} is indented with {lead} spaces, not a tab "
        f'({slip.text.strip()[:60]}): make stops reading {shown} there ("missing separator"), so no '
        "target of it can be made",
        confidence=CERTAIN if beside and not slip.expanded else LIKELY,
    )
