"""A file the README tells the reader to edit that the project holds nowhere: "All training configuration is
controlled via `config.yaml`", "Edit `config.yaml` and update the `dataset` section" while no
`config.yaml` is in the README's folder nor anywhere in the project, and nothing the README runs makes
it. The reader has nothing to edit: the file was renamed, moved or never committed.

The file is a code span of a sentence, a name with no space and the suffix of a settings file (`.yaml`,
`.yml`, `.json`, `.toml`, `.ini`, `.cfg`, `.conf`) that the sentence tells to edit, change, modify,
adjust, tweak or set (`_EDIT`; not `update`, which keeps a file in step with a change), or says controls
or configures something (`controlled via`, `configured in`, `_CONTROLS`); or the suffix of a script
(`.py`, `.sh`, …) that the sentence tells to edit. Missing: no file at its path from the README's folder
and no file of the project (listed once, `missing.repository_files`) of its name. `likely`; `certain`
when a command of the README also names it (`python train.py --config config.yaml`): the command fails
too.

Silent for a file the README makes or has made: a command line naming it with a command that writes (`cp
config.example.yaml config.yaml`, `> config.yaml`, `-o`, `tee`, `touch`), a README that runs an `init`,
`configure`, `setup` or `generate` command (it may write any), a template of it in the project
(`config.yaml.example`, `config.sample.yaml`); for a sentence after a command block that runs in another
folder (`cd charts/app`, `# Run from …/charts/app path`: the file may be that folder's), a name the
README also writes with a folder the project lacks (the copy lacks the folder: other rules tell it), a
name a tree of the project's files in the README lists (`└── config.py`); for a name that is an example
(`my_config.yaml`, `your-config.yaml`, `custom.yaml`, a placeholder `<name>.yaml`), a dotenv file (the
reader writes it with their secrets), a path of the container or the machine (`/etc/app.conf`,
`~/.cache/…`), a sentence about the container (`inside the container, edit …`), a file ignored by git or
in a folder a build makes, a file another file of the project names (a script that reads it: it may be
made by a step the README does not show), and any README that clones a repository other than its own (the
file may be that repository's), or a sentence that adds or creates the file.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.config_keys import paragraph_sentences
from docgen.audit.missing import TEXT_SUFFIXES, one_edit, repository_files
from docgen.audit.own_repo import repository_root
from docgen.audit.references import build_ignored
from docgen.compose import FILE_NAME as COMPOSE_NAME
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic

_CONFIG = (".yaml", ".yml", ".json", ".jsonc", ".toml", ".ini", ".cfg", ".conf")
_SCRIPT = (".py", ".sh", ".bash", ".js", ".ts", ".rb", ".pl", ".lua")
_EDIT = re.compile(
    r"\b(?:edit|editing|change|changing|modify|modifying|adjust|adjusting|tweak|tweaking)\b",
    re.IGNORECASE,
)
"""Words telling the reader to change what a file holds (not `set … in`, said as often of a file the
program writes on its first run)."""
_EDIT_STEP = re.compile(
    r"^[ \t]*(?:#|//|::|REM\b)[ \t]*(?:edit|change|modify|adjust|update|tweak)[ \t]+(?:the[ \t]+)?`?"
    r"((?:\./)?[\w.-]+(?:/[\w.-]+)*)`?[ \t]*(?:[:.,;(-]|$)",
    re.IGNORECASE,
)
"""A comment line of a command block that is a step of its own telling the reader to edit a settings file
(`# update vscode-image.jsonc`, `# edit config.yaml:`): a comment opening with the verb and the file
right after it, followed by nothing but a stop or a colon and what comes after it. `update` counts here: the
reader is told to change the file before the next command."""
_CONTROLS = re.compile(
    r"\b(?:controlled|configured|defined|specified|set[ \t]+up)[ \t]+(?:via|by|in|through|from)\b"
    r"|\b(?:controls|configures)\b",
    re.IGNORECASE,
)
"""Words saying a file holds the settings of something."""
_ADDING = re.compile(
    r"\b(?:add|adding|create|creating|new|generate|generating|write|writing|copy|copying|rename|renaming"
    r"|save|saving|make|making|download|downloading)\b",
    re.IGNORECASE,
)
"""Words saying the reader makes the file: it need not be there."""
_CONTAINER = re.compile(r"\b(?:container|inside|docker[ \t]+exec)\b", re.IGNORECASE)
_EXAMPLE = re.compile(
    r"(?:^|[\W_])(?:my|your|example|examples|sample|custom|foo|bar|xxx|own|template|path|file|name)"
    r"(?:[\W_]|$)|[<>{}$*%\[\]]",
    re.IGNORECASE,
)
"""A name that stands for the reader's own file (`my_config.yaml`, `your-config.yaml`, `<name>.yaml`)."""
_TEMPLATE = re.compile(r"example|sample|template|default|dist|tmpl|orig", re.IGNORECASE)
_MAKES = re.compile(
    r"(?:^|[\s;&|(])(?:cp|mv|ln|touch|tee|install|wget|curl|envsubst|echo|cat|printf)\b|>|(?:^|\s)-o\b"
    r"|--out\w*",
)
"""A command line that writes a file it names."""
_INIT = re.compile(
    r"(?<![\w./-])[\w./-]+[ \t]+(?:init|configure|setup|generate|bootstrap)\b"
    r"|(?:^|[;&|])[ \t]*(?:init|setup|generate|bootstrap)\b|\bconfigure\b"
)
"""A command that may write a settings file it does not name (`app init`, `./configure`)."""
_CLONE = re.compile(r"\bgit[ \t]+clone\b")
_ELSEWHERE = re.compile(r"^[ \t]*(?:cd|pushd)[ \t]+\S|^[ \t]*#.*\bfrom[ \t]+\S*/", re.IGNORECASE)
"""A block's line that moves to another folder (`cd charts/app`, `# Run from $REPO/charts/app path`)."""
_TREE = re.compile(r"[├└│][─ \t]*[─-]+[ \t]*([\w.-]+)")
"""A line of a tree of the project's files (`│   └── config.py`): the name it lists."""
_ABSOLUTE = re.compile(r"(?<![\w.-])(?:~|\$\w+|\$\{\w+\})?/(?:[\w.-]+/)*([\w.-]+)")
"""A path from the root, the home or a variable (`/home/app/.config/settings.json`): its file's name."""
_WORD = re.compile(r"(?<![\w.-])[\w.-]+")


def edited_configs(
    doc: Document,
    readme: str,
    directory: Path,
    project: Path | None = None,
    own_clone: Callable[[int, str], tuple[str, Path] | None] | None = None,
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring). `own_clone` (`steps.own_clones`) tells a clone
    of this very repository from one of another."""
    commands = [(line, text) for fence in doc.fences for line, text in fence.lines]
    for line, text in commands:
        if _CLONE.search(text) and (own_clone is None or own_clone(line, text) is None):
            return  # (a file it names may be the other repository's)
        if _INIT.search(text.split("#", 1)[0]):
            return
    top = (project or repository_root(directory) or directory).resolve()
    told: dict[str, list[int]] = {}  # file as written → the README lines telling to edit it
    made: set[str] = set()  # names a sentence has the reader create, write, copy … (anywhere)
    # the first line of each block that runs in another folder (`cd chart/`, `# from …/chart path`)
    moved = {
        fence.lines[0][0]
        for fence in doc.fences
        if fence.lines and any(_ELSEWHERE.search(t) for _, t in fence.lines)
    }
    blocks = sorted(fence.lines[0][0] for fence in doc.fences if fence.lines)
    for paragraph in doc.paragraphs:
        before = bisect.bisect_left(blocks, paragraph.lines[0][0])
        if before and blocks[before - 1] in moved:
            continue  # (a file it names may be of the folder that block entered)
        text = "\n".join(t for _, t in paragraph.lines)
        if "`" not in text:
            continue
        starts = [0]
        for _, t in paragraph.lines:
            starts.append(starts[-1] + len(t) + 1)
        for at, sentence in paragraph_sentences(text):
            if _ADDING.search(sentence):
                made.update(c.strip().rsplit("/", 1)[-1] for _, _, c in code_spans(sentence))
                continue
            if _CONTAINER.search(sentence):
                continue
            edit = _EDIT.search(sentence)
            controls = _CONTROLS.search(sentence)
            if edit is None and controls is None:
                continue
            for start, _, content in code_spans(sentence):
                name = content.strip()
                lower = name.lower()
                if not _candidate(name) or not (
                    lower.endswith(_CONFIG) or (edit is not None and lower.endswith(_SCRIPT))
                ):
                    continue
                if re.search(r"\byour[ \t]*$", sentence[:start], re.IGNORECASE):
                    continue  # `your `docker-compose.yml``: the reader's own file
                line = paragraph.lines[bisect.bisect_right(starts, at + start) - 1][0]
                told.setdefault(name, []).append(line)
    for fence in doc.fences:  # `# update app.jsonc` over a block's commands: a step of its own
        if fence.lines and fence.lines[0][0] in moved:
            continue
        for line, text in fence.lines:
            if (step := _EDIT_STEP.match(text)) is not None and _candidate(step.group(1)):
                if step.group(1).lower().endswith(_CONFIG):
                    told.setdefault(step.group(1), []).append(line)
    if not told:
        return
    files = repository_files(top)
    if files is None:
        return
    names = {f.name for f in files} | _hidden_names(top)
    # a name written with a folder the project lacks: the copy lacks that folder (told by other rules)
    lost = {
        n.rsplit("/", 1)[-1] for n in told if "/" in n and not os.path.isdir(directory / n.rsplit("/", 1)[0])
    }
    listed = {m.group(1) for _, text in commands if (m := _TREE.search(text))}
    texts = [t for p in doc.paragraphs for _, t in p.lines] + [t for _, t in commands]
    # the names of files written with a path from the root or the home: of the image or the machine
    absolute = {m.group(1) for t in texts for m in _ABSOLUTE.finditer(t)}
    # the command lines naming each word (and each part of it before a `.`), read once
    naming: dict[str, list[str]] = {}
    for _, text in commands:
        if text.lstrip().startswith(("#", "//")):
            continue
        for word in set(_WORD.findall(text)):
            for end in [i for i, c in enumerate(word) if c == "."][:8] + [len(word)]:  # (a few: a name)
                naming.setdefault(word[:end], []).append(text)
    for name, places in told.items():
        base = name.rsplit("/", 1)[-1]
        if os.path.lexists(directory / name) or base in names or base in lost or base in listed:
            continue
        if base in made or COMPOSE_NAME.fullmatch(base.lower()) or _slipped(base, names):
            continue  # made by the reader; a compose file's or a slip's finding is other rules'
        if base in absolute:
            continue  # a file of the image or the machine (`/home/app/.config/settings.json`)
        if build_ignored(name, [directory, top], docker=False) or _templated(base, names):
            continue
        uses = list(dict.fromkeys(naming.get(base, [])))
        if any(_MAKES.search(text) for text in uses) or _named_by(base, files):
            continue
        folder = os.path.relpath(directory.resolve(), top)
        where = "the README's folder" if folder == "." else f"{folder}/"
        for line in places:  # (one message: told once, `also at` its other lines)
            yield Diagnostic(
                readme,
                line,
                f"README has the reader edit {name} for its settings, but the project has no {base}: not "
                f"in {where} nor in any other folder, and nothing the README runs makes it",
                confidence=CERTAIN if uses else LIKELY,
            )


_HIDDEN_SKIPPED = frozenset(
    {".git", ".hg", ".svn", ".venv", ".tox", ".cache", ".mypy_cache", ".pytest_cache"}
)
_HIDDEN_LIMIT = 2000


def _hidden_names(top: Path) -> set[str]:
    """The names of the files in the folders of `top` whose name starts with a dot (`.devcontainer/`,
    `.vscode/`, `.github/`: settings files a README has the reader edit), which `repository_files` leaves
    out; version control and caches aside, up to `_HIDDEN_LIMIT` entries."""
    names: set[str] = set()
    try:
        tops = [e.path for e in os.scandir(top) if e.name.startswith(".") and e.is_dir(follow_symlinks=False)]
    except OSError:
        return names
    seen = 0
    for hidden in tops:
        if os.path.basename(hidden) in _HIDDEN_SKIPPED:
            continue
        for _, dirs, files in os.walk(hidden):
            dirs[:] = [d for d in dirs if d not in _HIDDEN_SKIPPED and d != "node_modules"]
            seen += len(dirs) + len(files)
            if seen > _HIDDEN_LIMIT:
                return names
            names.update(files)
    return names


def _candidate(name: str) -> bool:
    """True when a code span names a file of the project the reader may edit: a relative path with no
    space, not an example's name, a dotenv file, nor a path of the container or the machine."""
    base = name.rsplit("/", 1)[-1]
    if not name or any(c.isspace() for c in name) or "://" in name or name.startswith(("/", "~", "$")):
        return False
    if ".." in name.split("/") or base.startswith(".") or base.lower().endswith(".env"):
        return False
    stem = base.rsplit(".", 1)[0]
    return bool(stem) and _EXAMPLE.search(stem) is None and ".cache" not in name


def _slipped(base: str, names: set[str]) -> bool:
    """True when the project holds a file a slip away from `base` (`config.yml` for `config.yaml`,
    `settings.yml` for `setting.yaml`, the stems a slip apart or alike): the finding about the slip is
    `missing`'s, which names the file when it can tell one."""
    low = base.lower()
    stem = low.rsplit(".", 1)[0]
    for other in names:
        other_stem = other.lower().rsplit(".", 1)[0]
        if one_edit(low, other.lower()) or other_stem == stem or one_edit(stem, other_stem):
            return True
    return False


def _templated(base: str, names: set[str]) -> bool:
    """True when the project holds a template of the file `base` (`config.yaml.example`,
    `config.sample.yaml`, `example.config.yaml`): the reader makes the file from it."""
    stem = base.rsplit(".", 1)[0].lower()
    return any(
        other.lower() != base.lower() and stem in other.lower() and _TEMPLATE.search(other) for other in names
    )


def _named_by(base: str, files: list[Path]) -> bool:
    """True when a file of the project that is no text for readers names `base` (a script reading
    `config.yaml`, a Dockerfile copying it): the project knows the file, which a step the README does not
    show may make."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(base)}(?![\w-])")
    for path in files:
        if path.suffix.lower() in TEXT_SUFFIXES or path.name.lower().startswith("readme"):
            continue
        text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if text is not None and pattern.search(text):
            return True
    return False
