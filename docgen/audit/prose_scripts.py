"""A script the prose tells to run by its path (`` build using `builder/build.sh` ``, `` run
`scripts/train.sh` ``) that is not in its folder, while that folder is there and holds other scripts:
the script was renamed or removed and the sentence still names it.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, dockerfile_read
from docgen.audit.container_blocks import IN_IMAGE
from docgen.audit.missing import (
    ANY_SCRIPT,
    COMMON_SCRIPTS,
    PATH,
    PLACEHOLDER,
    SCRIPT_SUFFIXES,
    Listings,
    in_commands,
    made_names,
    name_key,
    prose_bases,
    prose_fix,
    repository_files,
    script_names_in_files,
)
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import Submodules
from docgen.markdown import Document, Link, code_spans, fenced_only, links
from docgen.model import Diagnostic, ImageModel

_RUN_WORDS = re.compile(
    r"\b(?:run|runs|running|execute|executing|launch|invoke|call|start|build(?:ing)?[ \t]+(?:using|with|via)"
    r"|using|via|with)\b[^`]{0,40}`[^`]*\Z",
    re.IGNORECASE,
)
"""The words of a sentence, before a code span, that tell to run what it names: `build using`, `run`,
`execute`, `with` (`Build the image with `tools/build.sh``)."""
_MAKE_WORDS = re.compile(
    r"\b(?:creat|writ|sav|add|generat|download|copy|cop(?:ie)|edit|put|place|rename|new)\w*", re.IGNORECASE
)
"""Words saying the reader makes the file (`create `tools/run.sh``): it may well not be there yet."""


def _scripts_in(folder: Path) -> list[str]:
    """The names of the scripts (by their suffix) in `folder`; none when it is no folder."""
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if os.path.isfile(entry))
    except (OSError, ValueError):
        return []
    return [n for n in names if n.rsplit(".", 1)[-1].lower() in SCRIPT_SUFFIXES and "." in n]


_SCRIPT_SPAN = re.compile(r"`[^`\s]*/[^`\s]*\.(?:sh|bash|zsh|py)(?:[ \t][^`]*)?`", re.IGNORECASE)
"""A code span holding a script's path with a folder, its arguments after it (`./tests/run.sh <NAME>`):
the only lines worth reading further."""


def _script_spans(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, text) of each code span of the prose that holds a script's path with a folder."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "`" in text and _SCRIPT_SPAN.search(text):
                yield from ((line, content) for _, _, content in code_spans(text))


_SEPARATOR = re.compile(r"[,;:.!?]|\b(?:or|and|then)\b")
"""What ends the words that run a span: a mark of punctuation, `or`, `and`, `then`."""


class Line:
    """One line of the README read once for the words before its spans: where each text between two
    neighbouring backticks first stands, where each separator ends, and whether it runs in the
    container. Each span's words are then found by looking back only to the last separator, so a line
    of thousands of paths costs what its length does."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.first: dict[str, int] = {}  # the text between two neighbouring backticks: its first backtick
        ticks = [m.start() for m in re.finditer("`", text)]
        for opening, closing in zip(ticks, ticks[1:], strict=False):
            self.first.setdefault(text[opening + 1 : closing], opening)
        self.ends = [m.end() for m in _SEPARATOR.finditer(text)]
        self.in_container = IN_IMAGE.search(text) is not None
        self.lead = len(text) - len(text.lstrip())  # where its first word starts

    def start(self, code: str) -> int:
        """Where the first `` `code` `` of the line starts; the line's end when there is none."""
        if "`" in code:  # a span of longer backtick runs: rare, looked up the plain way
            start = self.text.find(f"`{code}`")
        else:
            start = self.first.get(code, -1)
        return len(self.text) if start < 0 else start

    def words(self, start: int) -> str:
        """The words of the line before `start`, back to the last separator before it."""
        last = bisect.bisect_right(self.ends, start) - 1
        return self.text[self.ends[last] if last >= 0 else 0 : start]


def missing_prose_scripts(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    checkout: bool = False,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """A script path in code in the prose (`` `builder/build.sh` ``: a folder and a script's suffix;
    not absolute, not a placeholder, nothing a command of the README makes or runs) that the sentence
    tells to run (`build using`, `run`, `execute`; not in the container) and that does not exist, while
    its folder does, from the README's folder or the repository root, and holds other scripts
    (`certain`: the folder is this repository's, and the script the sentence runs is not in it). A path
    a slip away from an existing one is `missing`'s (`did you mean`).

    With `checkout` (the README clones this very repository and enters it: its paths are the
    checkout's), a script whose first folder is nowhere at all (`./tests/tool_use/run.sh <NAME>` with no
    `tests/`) is a finding too, unless an audited Dockerfile (`models`) names that folder (the path may
    be the image's) or a command of the README makes it (another checkout). Nor a script that may be in a
    git submodule not fetched (`paths.Submodules`)."""
    made: set[str] | None = None  # what the README's commands make or run: read once, when needed
    submodules: Submodules | None = None
    bases = prose_bases(directory)
    listings = Listings()
    seen: set[str] = set()
    lines: dict[int, Line] = {}  # the lines read so far
    for line, code in _script_spans(doc):
        path = (code.strip().split(None, 1) or [""])[0].removeprefix("./")
        if not PATH.fullmatch(path) or "/" not in path.rstrip("/") or PLACEHOLDER.search(path):
            continue
        folder, _, name = path.rpartition("/")
        suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        if suffix not in SCRIPT_SUFFIXES or path in seen:
            continue
        if line not in lines:
            lines[line] = Line(source[line - 1] if 0 < line <= len(source) else "")
        read = lines[line]
        start = read.start(code)
        clause = read.words(start)  # the words that run it
        if start <= read.lead and line > 1:  # the span opens its line: the words running it end the last
            if line - 1 not in lines:
                lines[line - 1] = Line(source[line - 2])
            clause = lines[line - 1].words(len(lines[line - 1].text))
        clause += "`"
        if not _RUN_WORDS.search(clause) or _MAKE_WORDS.search(clause) or read.in_container:
            continue
        if made is None:
            made = made_names(fenced_only(doc)) | in_commands(fenced_only(doc))
        if any(part in made for part in path.split("/")):
            continue
        if any(os.path.exists(base / path) for base in bases) or prose_fix(bases, path, suffix, listings):
            continue
        if submodules is None:
            submodules = Submodules(doc)
        if any(submodules.holds(base / path, base) for base in bases):
            continue  # a script of a git submodule not fetched
        others = next((s for base in bases if (s := _scripts_in(base / folder))), [])
        top = path.split("/", 1)[0]
        if others:
            said = f"the scripts in {folder}/: {', '.join(others[:5])}"
        elif (
            checkout and not any(os.path.exists(base / top) for base in bases) and not _named_in(top, models)
        ):
            said = f"the repository has no {top}/ folder"
        else:
            continue
        seen.add(path)
        yield Diagnostic(
            readme, line, f"README runs {path}, which does not exist ({said})", confidence=CERTAIN
        )


def _named_in(folder: str, models: Sequence[ImageModel]) -> bool:
    """True when a Dockerfile of `models` names `folder` as a word of a path (`COPY tests/ /app/tests/`,
    `WORKDIR /opt/tests`), or one of them cannot be read: the path may be the image's."""
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None or re.search(rf"(?<![\w.-]){re.escape(folder)}(?![\w.-])", read[0]):
            return True
    return False


_BARE_SCRIPT = re.compile(r"(?<![\w./\\$<{-])`?([A-Za-z][\w-]*\.(?:py|sh))`?(?![\w/(-]|[:#]L?\d)")
"""A script's name with no folder in a line of prose, bare or in a code span (`force_cuda.py`); not one
a line number follows (`template.py:1980`, `runner.py#L52`): a citation of code, most often another
project's (the upstream package's, the base image's)."""
_ELSEWHERE_WORDS = re.compile(
    r"://|\bwww\.|\b(?:repo|repository|repositories|project|clone|github|gitlab|upstream|package|pip|conda|"
    r"your|own|example|e\.g\.|such[ \t]+as|named|called|output|log)\b"
    r"|\b(?:in|from|of|by|inside)[ \t]+(?:the[ \t]+|its[ \t]+)?base\b"
    r"|\bbase[ \t]+(?:image|container|layer)s?\b",
    re.IGNORECASE,
)
"""Words saying the file is another repository's or package's, the base image's (`present in the base
at`), the reader's own, or an example's."""
_OWNER = re.compile(r"(?:[\w.)-]['\u2019]s|s['\u2019])[ \t]+`?\Z")
"""A possessive just before a name (`LLaMA-Factory's `runner.py``, `upstream's run.sh`): the file of
the project or package it names, not this repository's."""
_SENTENCE_CUT = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z])")
"""Where a sentence of a line ends: the words about a name are those of its own sentence."""


def absent_prose_scripts(
    doc: Document,
    source: Sequence[str],
    readme: str,
    directory: Path,
    models: Sequence[ImageModel] = (),
) -> Iterator[Diagnostic]:
    """A script's name with no folder in a line of prose (`Make sure the force_cuda.py script is
    available`), bare or in a code span, that no file of the repository has, while the README names
    another script of the same suffix that the repository holds (`--python ../render.py`): the script
    was renamed or replaced and the sentence still names the old one (`likely`). Not a name a command
    of the README makes or runs, a placeholder (`name_of_the_script.sh`, `your_script.py`,
    `missing.PLACEHOLDER`), one an audited Dockerfile or any other file of the repository names
    (a file a program writes, fetches or finds in the image), a name every project has its own of
    (`setup.py`), nor one on a line about another repository, a package, the reader's own file, an
    example, or the container (`_ELSEWHERE_WORDS`, `_MAKE_WORDS`, `IN_IMAGE`)."""
    fenced = {line for fence in doc.fences if not fence.inline for line, _ in fence.lines}
    named: dict[str, tuple[int, int]] = {}  # each name once: the first line naming it, where on it
    for line, text in enumerate(source, start=1):
        if line in fenced or not re.search(r"\.(?:py|sh)\b", text):
            continue
        for match in _BARE_SCRIPT.finditer(text):
            named.setdefault(match.group(1), (line, match.start(1)))
    if not named:
        return
    root = repository_root(directory) or directory.resolve()
    files = repository_files(root)
    if files is None:
        return
    held = {f.name for f in files}
    keys = {name_key(n) for n in held}
    mentioned = sorted({m.group(0) for text in source for m in ANY_SCRIPT.finditer(text)} & held)
    made = made_names(fenced_only(doc)) | in_commands(fenced_only(doc))
    in_files: set[str] | None = None  # the script names the repository's files name: read once, if needed
    read = False
    beside_scripts: list[str] | None = None  # the scripts of the README's folder: listed once, if needed
    build_runs: dict[str, str] | None = None  # the scripts the audited Dockerfiles' RUNs run: read once
    build_time: dict[int, bool] = {}  # line → whether it speaks of the build's time (read once a line)
    cut_at: dict[int, list[int]] = {}  # line → where its sentences start, then its end
    sentences: dict[tuple[int, int], bool] = {}  # (line, sentence) → whether its words allow a finding
    linked: dict[int, tuple[list[Link], list[int]]] = {}  # line → its links and their starts, read once
    for name, (line, at) in named.items():
        suffix = name.rsplit(".", 1)[-1]
        if name in held or name in made or name in COMMON_SCRIPTS or name_key(name) in keys:
            continue  # (a slip of a file it has: `missing`'s and `case_slips`' `did you mean`)
        if PLACEHOLDER.search(name):
            continue  # `name_of_the_script.sh`: whichever script the reader picks
        others = [n for n in mentioned if n.endswith("." + suffix)][:3]
        text = source[line - 1]
        beside: list[str] = []  # the README's folder's own scripts, when the sentence runs this one
        built: list[str] = []  # the scripts the build runs, when the sentence says the build runs this one
        if line not in build_time:
            build_time[line] = _BUILD_TIME.search(text) is not None
        if build_time[line] and _runs_at_build(text[at : at + len(name) + 60], name):
            if build_runs is None:
                build_runs = _build_runs(models)
            built = [f"{n} ({where})" for n, where in build_runs.items() if n.endswith("." + suffix)][:3]
        if not others and not built:
            if not _runs_the_script(text, name):
                continue
            if beside_scripts is None:
                beside_scripts = _scripts_in(directory)
            beside = [n for n in beside_scripts if n.endswith("." + suffix)][:3]
            if not beside:
                continue
        if line not in cut_at:
            cut_at[line] = [0, *(m.start() for m in _SENTENCE_CUT.finditer(text)), len(text)]
        cuts = cut_at[line]
        index = bisect.bisect_right(cuts, at) - 1
        if (line, index) not in sentences:
            sentence = text[cuts[index] : cuts[index + 1]]
            sentences[line, index] = not (
                _ELSEWHERE_WORDS.search(sentence) or _MAKE_WORDS.search(sentence) or IN_IMAGE.search(sentence)
            )
        if not sentences[line, index] or _OWNER.search(text, max(0, at - 12), at):
            continue
        if line not in linked:
            found = links(text)
            linked[line] = found, [link.start for link in found]
        if linked[line][0] and _linked_text(*linked[line], at, directory, root):
            continue
        if not read:
            in_files, read = script_names_in_files(files, models), True
        if in_files is None or name in in_files:
            continue
        if built:
            yield Diagnostic(
                readme,
                line,
                f"README says {name} runs during the Docker build, but no RUN of the Dockerfile runs it"
                f" (the build runs {', '.join(built)})",
                confidence=LIKELY,
            )
            continue
        if beside:
            said = f"the .{suffix} scripts next to the README: {', '.join(beside)}"
        else:
            kind = f"a .{suffix} script" if len(others) == 1 else f".{suffix} scripts"
            said = f"it names {', '.join(others)}, {kind} the repository has"
        yield Diagnostic(
            readme,
            line,
            f"README names {name}, which does not exist in the repository ({said})",
            confidence=LIKELY,
        )


_BUILD_TIME = re.compile(
    r"\b(?:during|at|in)[ \t]+(?:the[ \t]+)?(?:docker[ \t]+|image[ \t]+|container[ \t]+)?"
    r"build(?:[ \t-]?time)?\b",
    re.IGNORECASE,
)
"""Words saying a thing happens while the image builds (`during Docker build`, `at build time`)."""
_RUN_LINE = re.compile(r"^[ \t]*RUN\b", re.IGNORECASE)
_SCRIPT_WORD = re.compile(r"(?<![\w.-])([A-Za-z][\w-]*\.(?:py|sh))(?![\w.-])")


def _runs_at_build(text: str, name: str) -> bool:
    """True when `text`, the words of a line from the script's name on, say the script `name` runs (is
    run, executes) while the image builds: `` `preload.py` script runs during Docker build ``."""
    quoted = rf"`?{re.escape(name)}`?"
    return (
        re.search(
            rf"{quoted}[ \t]+(?:script[ \t]+)?(?:runs|is[ \t]+(?:run|executed)|executes|will[ \t]+run)[ \t]+"
            rf"(?:automatically[ \t]+)?(?:during|at|in)\b",
            text,
            re.IGNORECASE,
        )
        is not None
    )


def _build_runs(models: Sequence[ImageModel]) -> dict[str, str]:
    """The scripts the `RUN` instructions of the audited Dockerfiles run by name (`uv run
    docker_models.py`), each with `Dockerfile:line` of the first."""
    found: dict[str, str] = {}
    for model in models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            continue
        going = False
        for number, row in enumerate(read[0].splitlines(), 1):
            if going or _RUN_LINE.match(row):
                for match in _SCRIPT_WORD.finditer(row.split("#", 1)[0] if not going else row):
                    found.setdefault(match.group(1), f"{os.path.basename(model.path or model.file)}:{number}")
            going = (going or bool(_RUN_LINE.match(row))) and row.rstrip().endswith("\\")
    return found


def _runs_the_script(text: str, name: str) -> bool:
    """True when the README line `text` tells to run `name` as this project's script by its name: `use
    the helper `launch.sh` script`, `run the provided script run.sh` (a verb that runs, `the`, the word
    `script`). Not `make sure the x.sh script is available` (the reader may bring it)."""
    quoted = rf"`?{re.escape(name)}`?"
    return (
        re.search(
            rf"\b(?:use|run|execute|launch|invoke|call)[ \t]+the[ \t]+(?:{_HELPER}[ \t]+)?"
            rf"(?:{quoted}[ \t]+(?:{_HELPER}[ \t]+)?script|script[ \t]+{quoted})(?![\w-])",
            text,
            re.IGNORECASE,
        )
        is not None
    )


_HELPER = r"(?:helper|provided|included|bundled|accompanying)"
"""Words before or after a script's name saying it comes with the project (`the helper x.sh script`)."""


def _linked_text(found: list[Link], starts: list[int], at: int, directory: Path, root: Path) -> bool:
    """True when offset `at` of a README line is in the text of one of its links `found` (in order
    of their start, at `starts`) whose target is a file or folder of the repository
    (`[test_file.py](examples/post_file.py)`, relative to the README's folder, or to the repository's
    root for `/…`): the link is the reference, and its text only a label."""
    index = bisect.bisect_right(starts, at) - 1
    if index < 0 or not found[index].text_start <= at < found[index].text_end:
        return False
    target = (found[index].target or "").split("#", 1)[0].split("?", 1)[0]
    if not target or "://" in target or target.startswith(("mailto:", "~")):
        return False
    return os.path.exists(root / target.lstrip("/") if target.startswith("/") else directory / target)
