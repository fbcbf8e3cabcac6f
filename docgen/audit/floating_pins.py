"""An exact pin a README gives (`- `torchvision==0.21.0``) for a package the Dockerfile installs with no
version (`pip install torchvision`, `uv pip install torchvision`, `poetry add torchvision`, `uv add …`):
an unpinned install takes the newest release the day the image is built, so the README's version is
not what the build gives.

Read only when nothing else can hold the version where the README says (each checked for every
Dockerfile the part of the README is about that installs it):

- every base the image starts from holds no Python package: a plain OS or language image, an image
  known to ship no Python, or a bare local name (an image the project builds) that no other audited
  Dockerfile may build with the package (`pinned_installs.bare_base`); a vendor's image (`pytorch/pytorch`,
  `nvcr.io/…`) may hold it, and pip keeps what is installed;
- no constraints (`-c`, `--constraint`, `PIP_CONSTRAINT`, `UV_CONSTRAINT`, `UV_OVERRIDE`), no lock file
  copied in (`poetry.lock`, `uv.lock`, `*.lock`, a requirements file with `--hash`), nor in a folder
  copied whole when a command installs from one (`uv sync`, `poetry install`, `pdm sync`, `pip-sync`);
- no other install of the package: no pin of it anywhere in the image's stages (`name==…`, `name>=…`, a
  wheel or archive URL whose file name carries it), no other command naming it (a conda install, an
  apt package); `python -c "import …"` checks are not installs;
- no upgrade (`-U`, `--upgrade`: the install asks for the newest release on purpose, the README may be
  read against another base), no other package of the same command held below a version (`==`, `<`,
  `<=`, `~=`: the resolver picks the release that fits them; a lower bound `>=` holds nothing back);
- every file of packages the build reads (`-r F`, a copied `pyproject.toml`, `setup.py`, `setup.cfg`,
  `requirements*.txt`) is found and names it not; a `-r F` that cannot be found may pin it. A local
  project installed (`pip install -e DIR`) whose files are not in the checkout is read as naming nothing;
  an install script run, or a download piped into a shell, may install anything: silent.

The README line must give the pin as what the image holds: not a command (`pip install x==1`), not
about the reader or the host (`you`, `requires`), no `latest`, not an example. `likely`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import CHMOD, PIPED, RUNS_FILE, copied_context
from docgen.audit.pinned_installs import bare_base
from docgen.audit.versions import raw_name
from docgen.audit.wording import is_example
from docgen.base_contents import is_plain, lacks_python
from docgen.files import stays_home
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Instruction
from docgen.shell import sh_tokens, sh_words
from docgen.sources.pip import read_redirect_warning

_PIN = re.compile(r"(?<![\w.=<>~!/-])`?([A-Za-z][\w.-]*[A-Za-z0-9])(?:\[[\w,.-]*\])?==(\d[\w.+!-]*[\w+])`?")
"""A package at an exact version, as pip writes it: `torchvision==0.21.0`."""
_NOT_THE_IMAGE_WORDS = (
    r"\b(?:you|your|yourself|manually|optional(?:ly)?|if|unless|need|needs|requires?|required|host"
    r"|latest|newest|not|no|never|older|previous(?:ly)?|was|were)\b"
    r"|\b(?:pip3?|uv|conda|mamba|poetry|pipx)[ \t]+(?:pip[ \t]+)?(?:install|add)\b|--build-arg"
    r"|手动|自行|可选|需要|如需|请|最新"
)
_NOT_THE_IMAGE = re.compile(_NOT_THE_IMAGE_WORDS + r"|[<>~]=?", re.IGNORECASE)
"""Words making a pin about the reader, the host, an option, a command to type or the past, not what
the image holds; a line with a range (`>=`, `~=`) mixes what the project supports with what it pins
only when the pin is the line's own word (`- `x==1``): such lines are read when the range is another
item's."""
_BARE_ITEM = re.compile(r"[-*+][ \t]+")
_SEPARATORS = re.compile(r"&&|\|\||[;|\n]")
_PROGRAMS = frozenset({"sudo", "env", "nice", "nohup", "exec", "command", "time"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_PIP = re.compile(r"(?:[\w./${}-]*/)?pip(?:\d+(?:\.\d+)?)?\Z")
_PYTHON = re.compile(r"(?:[\w./${}-]*/)?python(?:\d+(?:\.\d+)?)?\Z")
_VALUE_OPTIONS = frozenset(
    """
    -i --index-url --extra-index-url --index --default-index -f --find-links -t --target --prefix --root
    --python -p --cache-dir --group -G --source --platform --python-version --abi --implementation
    --only-binary --no-binary --progress-bar --timeout --retries --trusted-host --resume-retries --log
    --proxy --upgrade-strategy --src --config-settings -C --extra --optional --dev-dependency
    --index-strategy --keyring-provider --link-mode --python-platform --torch-backend
    """.split()
)
"""Options of pip, uv and poetry that take the next word as their value."""
_CONSTRAINT_OPTIONS = frozenset({"-c", "--constraint", "--constraints", "--override", "--build-constraint"})
_REQUIREMENT_OPTIONS = frozenset({"-r", "--requirement", "--requirements"})
_EDITABLE_OPTIONS = frozenset({"-e", "--editable"})
_UPGRADE = frozenset({"-U", "--upgrade", "--upgrade-package", "-P", "--force-reinstall"})
_NAME = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)(\[[\w,.-]*\])?\Z")
_SPECIFIED = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[\w,.-]*\])?[ \t]*(?:===?|~=|!=|<=?|>=?|@)(.*)\Z")
_HOLDS_BACK = re.compile(r"===?|~=|<")
"""A specifier that keeps the resolver below a release: `==1.2`, `~=1.2`, `<2`, `<=1.9`."""
_CONSTRAINT_SETTINGS = re.compile(r"\b(?:PIP_CONSTRAINT|UV_CONSTRAINT|UV_OVERRIDE|PIP_REQUIRE_HASHES)\b")
_LOCK_FILE = re.compile(
    r"(?:^|[\s/\"'\[,])[\w.-]*(?:\.lock|lock\.(?:txt|json|ya?ml))\b|--require-hashes", re.I
)
"""A lock file (`poetry.lock`, `uv.lock`, `Pipfile.lock`, `requirements.lock`, `conda-lock.yml`)."""
_PACKAGE_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile")
_PACKAGE_FILE = re.compile(
    r"(?:pyproject\.toml|setup\.py|setup\.cfg|Pipfile|[\w.-]*requirements[\w.-]*\.(?:txt|in))\Z"
)
_LOCK_INSTALL = re.compile(
    r"(?:uv[ \t]+sync|poetry[ \t]+install|pdm[ \t]+(?:install|sync)|pipenv[ \t]+(?:install|sync)|pip-sync)\b"
)
"""A command that installs what a lock file pins: `uv sync`, `poetry install`, `pdm sync`, `pip-sync`."""
_LOCKS = ("poetry.lock", "uv.lock", "pdm.lock", "Pipfile.lock")
_MOST_BYTES = 1_000_000
"""A package file larger than this is not read (no list of packages is)."""
_UP = 4
"""Folders above the Dockerfile's a build context may be (the files a build copies are looked for there)."""


@dataclass
class _Installs:
    """What the image's stages install of Python packages, as far as the floating-pin rule needs."""

    floating: dict[str, int] = field(default_factory=dict)
    """Normalised name → line of an install of it with no version (the first)."""
    shown: dict[str, str] = field(default_factory=dict)
    """Normalised name → the command that installs it floating (`poetry add`)."""
    spelled: dict[str, str] = field(default_factory=dict)
    """Normalised name → the name as the install writes it (`flash-attn`)."""
    bare: dict[str, int] = field(default_factory=dict)
    """Normalised name → line of its first install with no version, bounds or upgrades around it or not."""
    specified: set[str] = field(default_factory=set)
    """Normalised names an install gives a version, a bound or a URL of."""
    held: set[str] = field(default_factory=set)
    """Normalised names something else may hold at a version: a pin, an upgrade, a same-command bound."""
    named: set[str] = field(default_factory=set)
    """Normalised names another command of the stages names as a word."""
    fixed: bool = False
    """True when anything may fix every version: constraints, a lock file, an unread list or script."""
    locked: bool = False
    """True when a command installs what a lock file says (`uv sync`, `poetry install`, `pdm sync`)."""
    lists: list[str] = field(default_factory=list)
    """Files of packages read (`-r F`, `-e DIR`, a copied `pyproject.toml`), as written."""
    copies: list[tuple[str, str]] = field(default_factory=list)
    """(source, destination) of each COPY/ADD from the build context."""


def floating_pins(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for each exact pin a README line gives of a package every Dockerfile compared that
    installs it installs with no version, nothing else holding it (`likely`)."""
    read: dict[int, _Installs | None] = {}  # each Dockerfile's installs, read at the first pin
    for line, text in _pin_lines(doc):
        for match in _PIN.finditer(text):
            if is_example(text, match):
                continue
            name, version = match.group(1), match.group(2)
            found = _floating(raw_name(name), auditor, read)
            if found is None:
                continue
            model, at, how = found
            said = (
                f"README pins {name}=={version} but {model.path}:{at} installs {name} with no version "
                f"(`{how}`), which takes the newest release, and nothing else fixes it (built on "
                f"{_root_bases(model)})"
            )
            yield Diagnostic(auditor.path, line, said, confidence=LIKELY)
    yield from _redirected_bounds(doc, auditor, read)


_SAYS_PINNED = re.compile(
    r"\b(?:the|this|our|each|every)[ \t]+(?:docker[ \t]+)?(?:image|container|dockerfile|build)s?[ \t]+"
    r"(?:(?:also|now|still|explicitly|additionally)[ \t]+)?pins?[ \t]+"
    r"`([A-Za-z][\w.-]*[A-Za-z0-9])(?:\[[\w,.-]*\])?==(\d[\w.+!-]*[\w+])`",
    re.IGNORECASE,
)
"""A sentence saying the image itself pins a package (`the image pins `transformers==5.7.0``), in
the present tense, the pin in a code span."""


def pins_never_named(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for a pin the README says the image makes (`_SAYS_PINNED`: `the image pins
    `transformers==5.7.0``) of a package no Dockerfile compared names, in none of its instructions
    and none of the build-context files it copies: no install of the image pins it (`likely`; a list
    or project docgen cannot read that it installs is told, since it may bring the package at a version
    of its own). Silent for an example, and when any Dockerfile compared or its files name the package
    (`floating_pins` and the version rules compare it)."""
    if not auditor.models or any(not m.file for m in auditor.models):
        return
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "==" not in text:
                continue
            for match in _SAYS_PINNED.finditer(text):
                if is_example(text, match):
                    continue
                name, version = match.group(1), match.group(2)
                key = re.sub(r"[^a-z0-9]", "", name.lower())
                if len(key) < 3:
                    continue
                read = [copied_context(model) for model in auditor.models]
                if any(key in context for context, _, _ in read):
                    continue
                unread = any(run or packages for _, run, packages in read)
                paths = ", ".join(m.path for m in auditor.models)
                said = (
                    f"README says the image pins {name}=={version} but no line of {paths} or the files it "
                    f"copies names {name}"
                )
                if unread:
                    said += " (it installs a list or runs a script docgen cannot read, which may bring it)"
                yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


_BOUND = re.compile(
    r"(?<![\w.=<>~!/-])(`?)([A-Za-z][\w.-]*[A-Za-z0-9])(?:\[[\w,.-]*\])?"
    r"((?:>=|<=|>|<|~=)[ \t]*\d[\w.*+!-]*(?:[ \t]*,[ \t]*(?:>=|<=|>|<|~=|!=|==)[ \t]*\d[\w.*+!-]*)*)`?"
)
"""A package with a version bound, as pip writes it: `paddleocr>=2.9.1`, `torch>=2.4,<2.6`."""
_NOT_THE_IMAGE_BOUND = re.compile(_NOT_THE_IMAGE_WORDS, re.IGNORECASE)
_LIST_OR_CELL = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")


def _redirected_bounds(
    doc: Document, auditor: Auditor, read: dict[int, _Installs | None]
) -> Iterator[Diagnostic]:
    """A finding for each version bound a README line gives of a package (`paddleocr>=2.9.1`) that a
    Dockerfile compared writes with that bound unquoted in a RUN, so the shell reads the bound as a
    redirection (`docgen lint`'s DG013) and the image gets the package with no bound, nothing else
    installing it with one. `certain` in a list item, a table cell or a code span, `likely` in prose."""
    for line, text, listed in _bound_lines(doc):
        for match in _BOUND.finditer(text):
            if is_example(text, match):
                continue
            name, bound = match.group(2), re.sub(r"[ \t]+", "", match.group(3))
            found = _redirected(raw_name(name), auditor, read)
            if found is None:
                continue
            model, at, written = found
            said = (
                f"README says {name}{bound} but {model.path}:{at} installs {name} with no bound (the shell "
                f"reads {written} unquoted in a RUN as {_redirection_words(written)}: docgen lint DG013)"
            )
            yield Diagnostic(
                auditor.path, line, said, confidence=CERTAIN if listed or match.group(1) else LIKELY
            )


def _redirection_words(written: str) -> str:
    """How the shell reads an unquoted requirement with a bound: `paddleocr>=2.9.1` → `paddleocr with
    its output redirected to =2.9.1`; `torch<2.6` → `torch with its input read from the file 2.6`."""
    pieces = re.split(r"([<>])", written)
    said = [
        f"its output redirected to {target}" if op == ">" else f"its input read from the file {target}"
        for op, target in zip(pieces[1::2], pieces[2::2], strict=False)
    ]
    return f"{pieces[0]} with {' and '.join(said)}"


def _bound_lines(doc: Document) -> Iterator[tuple[int, str, bool]]:
    """The README lines that may state a version bound as the image's: prose and list items, table rows,
    and the lines of a block that lists requirements alone; True for a list item, a table row or a block
    line."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if ("<" in text or ">" in text or "~=" in text) and not _NOT_THE_IMAGE_BOUND.search(text):
                yield line, text, _LIST_OR_CELL.match(text) is not None
    for table in doc.tables:
        for line, cells in table.rows:
            text = " | ".join(cells)
            if ("<" in text or ">" in text or "~=" in text) and not _NOT_THE_IMAGE_BOUND.search(text):
                yield line, text, True
    for fence in doc.fences:
        lines = [(n, t.strip()) for n, t in fence.lines if t.strip()]
        if lines and all(_BOUND.fullmatch(t) or _PIN.fullmatch(t) for _, t in lines):
            yield from ((n, t, True) for n, t in lines)


def _redirected(
    name: str, auditor: Auditor, read: dict[int, _Installs | None]
) -> tuple[ImageModel, int, str] | None:
    """The Dockerfile, line and requirement as written (`paddleocr>=2.9.1`) of a DG013 warning naming
    `name`, when every model compared that installs `name` installs it with no version so (`stage_installs`,
    which reads the shell's words), none with a bound; None otherwise."""
    first: tuple[ImageModel, int, str] | None = None
    for index, model in enumerate(auditor.models):
        if index not in read:
            read[index] = stage_installs(model)
        installs = read[index]
        if installs is None:
            return None
        if name not in installs.bare:
            if name in installs.specified:
                return None
            continue
        if name in installs.specified or installs.fixed or _listed(model, installs, name):
            return None
        redirected = [
            (d.line, spec)
            for d in model.skipped
            if d.rule == "DG013"
            and (read_back := read_redirect_warning(d.message)) is not None
            and raw_name(read_back[0]) == name
            for spec in (read_back[1],)
        ]
        if not redirected:
            return None
        if first is None:
            first = (model, redirected[0][0], redirected[0][1])
    return first


def _pin_lines(doc: Document) -> Iterator[tuple[int, str]]:
    """The README lines that may state a pin as the image's: prose and list items, table rows, and the
    lines of a block that lists pins alone (`torch==2.6.0` a line, no command)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "==" in text and not _NOT_THE_IMAGE.search(_BARE_ITEM.sub("", text.strip(), count=1)):
                yield line, text
    for table in doc.tables:
        for line, cells in table.rows:
            text = " | ".join(cells)
            if "==" in text and not _NOT_THE_IMAGE.search(text):
                yield line, text
    for fence in doc.fences:
        lines = [(n, t.strip()) for n, t in fence.lines if t.strip()]
        if lines and all(_PIN.fullmatch(t) for _, t in lines):
            yield from lines


def _floating(
    name: str, auditor: Auditor, read: dict[int, _Installs | None]
) -> tuple[ImageModel, int, str] | None:
    """The Dockerfile, line and command of an install of `name` with no version, when every model
    compared that installs it installs it so and nothing holds it; None otherwise. `read` keeps each
    model's `stage_installs` by its place in `auditor.models`."""
    first: tuple[ImageModel, int, str] | None = None
    for index, model in enumerate(auditor.models):
        if index not in read:
            read[index] = stage_installs(model)
        installs = read[index]
        if installs is None:
            return None
        if name not in installs.floating:
            if name in installs.held or name in installs.named:
                return None
            continue
        if (
            installs.fixed
            or name in installs.held
            or name in installs.named
            or not _holds_nothing(model, name, auditor)
            or _listed(model, installs, name)
            or (installs.locked and _lock_copied(model, installs.copies))
        ):
            return None
        if first is None:
            first = (model, installs.floating[name], installs.shown[name])
    return first


def _holds_nothing(model: ImageModel, name: str, auditor: Auditor) -> bool:
    """True when no base the image starts from may hold `name`: each is a plain OS or language image,
    one known to ship no Python, or a bare local name no other audited Dockerfile names `name` in."""
    roots = [stage.base for stage in model.chain() if stage.parent is None]
    if not roots:
        return False
    for base in roots:
        if is_plain(base) or (base and "$" not in base and lacks_python(base)):
            continue
        if not bare_base(base):
            return False
        for other in auditor.family:
            if other.path != model.path and other.file and _names(_text_of(other.file), name):
                return False
    return True


def _text_of(file: str) -> str:
    """The text of the Dockerfile at `file`, empty when it cannot be read."""
    read = dockerfile_read(file)
    return read[0] if read is not None else ""


def _names(text: str, name: str) -> bool:
    """True when `text` names the package `name` (normalised) as a word of its own."""
    return any(raw_name(word) == name for word in re.findall(r"[A-Za-z0-9][\w.-]*", text))


def stage_installs(model: ImageModel) -> _Installs | None:
    """What the stages of the image built install (`_Installs`); None when the Dockerfile cannot be read."""
    if not model.file:
        return None
    read = dockerfile_read(model.file)
    if read is None:
        return None
    text, parsed = read
    found = _Installs()
    if _CONSTRAINT_SETTINGS.search(text):
        found.fixed = True
    chain = model.chain()
    for inst in parsed.instructions:
        if model.stage_at(inst.start_line) not in chain:
            continue
        if inst.keyword in ("COPY", "ADD"):
            _copy(inst, found)
        elif inst.keyword == "RUN":
            body = inst.body
            if PIPED.search(body) or RUNS_FILE.search(CHMOD.sub("", body)):
                found.fixed = True  # an install script may install and pin anything
            for command in _SEPARATORS.split(body):
                _command(command, inst.start_line, found)
    return found


def _copy(inst: Instruction, found: _Installs) -> None:
    """Note a COPY/ADD from the build context: a lock file fixes versions, a file of packages is read."""
    if any(flag.name == "from" for flag in inst.flags):
        return
    if _LOCK_FILE.search(inst.args):
        found.fixed = True
    words = list(inst.exec_form) if inst.exec_form else inst.args.split()
    if len(words) < 2:
        return
    for source in words[:-1]:
        found.copies.append((source, words[-1]))
        if _PACKAGE_FILE.search(source):
            found.lists.append(source)


def _command(command: str, line: int, found: _Installs) -> None:
    """Read one shell command of a RUN into `found`, as the shell reads it: a redirection and its target
    are no words of the command (`paddleocr>=2.9.1` unquoted installs `paddleocr`, output to `=2.9.1`)."""
    try:
        words = sh_words(_without_redirections(command.replace("\\\n", " ")))
    except ValueError:
        return
    while words and (words[0] in _PROGRAMS or _ASSIGNMENT.match(words[0])):
        words = words[1:]
    if not words:
        return
    if _LOCK_INSTALL.match(" ".join([PurePosixPath(words[0]).name, *words[1:2]])):
        found.locked = True
    args, how = _install_args(words)
    if args is None:
        if _PYTHON.match(words[0]) and "-c" in words:
            return  # `python -c "import torch"`: a check, not an install
        for word in words[1:]:
            found.named.add(raw_name(word.split("=", 1)[0]))
        return
    _install(args, how, line, found)


def _without_redirections(command: str) -> str:
    """`command` without its redirections (`> /dev/null`, `2>&1`, the `>=2.9.1` of an unquoted
    `paddleocr>=2.9.1`), read with the shell's tokens (`sh_tokens`: quoted `"torch<2.6"` is a word);
    `command` itself when it has none."""
    if "<" not in command and ">" not in command:
        return command
    try:
        tokens = sh_tokens(command)
    except ValueError:
        return command
    kept: list[str] = []
    target = False
    for token in tokens:
        if token.operator and token.text[:1] in "<>":
            if kept and kept[-1].isdigit():
                kept.pop()  # a file descriptor (`2>`)
            target = not token.text.endswith("&") or token.text in ("<&", ">&")
            continue
        if target and not token.operator:
            target = False
            continue
        target = False
        kept.append(token.text)
    return " ".join(kept)


def _install_args(words: list[str]) -> tuple[list[str] | None, str]:
    """The words after an install command (`pip install`, `python -m pip install`, `uv pip install`,
    `uv add`, `poetry add`) and the command as shown; None when the command is no such install."""
    if _PYTHON.match(words[0]) and words[1:3] == ["-m", "pip"]:
        words = ["pip", *words[3:]]
    program = PurePosixPath(words[0]).name
    rest = words[1:]
    if _PIP.match(words[0]) and rest[:1] == ["install"]:
        return rest[1:], f"{program} install"
    if program == "uv" and rest[:2] == ["pip", "install"]:
        return rest[2:], "uv pip install"
    if program in ("uv", "poetry") and rest[:1] == ["add"]:
        return rest[1:], f"{program} add"
    return None, ""


def _install(args: list[str], how: str, line: int, found: _Installs) -> None:
    """Read the words of one install command: names with no version float, the rest hold."""
    bare: list[str] = []
    bounded = upgrade = False
    index = 0
    while index < len(args):
        word = args[index]
        option = word.split("=", 1)[0]
        value = word.split("=", 1)[1] if "=" in word and word.startswith("--") else None
        if option in _CONSTRAINT_OPTIONS:
            found.fixed = True
        if option in _UPGRADE:
            upgrade = True
        if option in _REQUIREMENT_OPTIONS or option in _EDITABLE_OPTIONS:
            listed = value if value is not None else (args[index + 1] if index + 1 < len(args) else "")
            found.lists.append(listed if option in _EDITABLE_OPTIONS else "-r " + listed)
            index += 1 if value is not None else 2
            continue
        if word.startswith("-"):
            index += 2 if option in _VALUE_OPTIONS and value is None else 1
            continue
        index += 1
        if (named := _NAME.match(word)) is not None and "/" not in word:
            bare.append(raw_name(named.group(1)))
            found.spelled.setdefault(bare[-1], named.group(1))
        elif (specified := _SPECIFIED.match(word)) is not None:
            found.held.add(raw_name(specified.group(1)))
            found.specified.add(raw_name(specified.group(1)))
            bounded = bounded or _HOLDS_BACK.search(word) is not None or "@" in word
        elif "/" in word or word.startswith("."):
            if "://" in word:
                file = word.rsplit("/", 1)[-1]
                found.held.add(raw_name(re.split(r"-\d", file, maxsplit=1)[0]))
                found.specified.add(raw_name(re.split(r"-\d", file, maxsplit=1)[0]))
            else:
                found.lists.append(word)  # a local project or wheel: its files are read
    for name in bare:
        found.bare.setdefault(name, line)
        if upgrade or bounded:
            found.held.add(name)
        elif name not in found.floating:
            found.floating[name] = line
            found.shown[name] = how


def _listed(model: ImageModel, installs: _Installs, name: str) -> bool:
    """True when a file of packages the build reads may hold `name`: it names it or carries hashes, or
    it is a `-r` list that cannot be found."""
    for listed in installs.lists:
        required = listed.startswith("-r ")
        path = listed[3:] if required else listed
        texts = package_texts(model, path, installs.copies)
        if required and not texts:
            return True
        if any(_names(text, name) or "--hash" in text for text in texts):
            return True
    return False


def _lock_copied(model: ImageModel, copies: list[tuple[str, str]]) -> bool:
    """True when a folder the build copies from its context may hold a lock file: one is found in it, or
    the folder cannot be found."""
    for source, _ in copies:
        if PurePosixPath(source).suffix and source not in (".", "./"):
            continue  # a file (a lock file copied by name fixes the versions already)
        places = _places(model, source)
        if not any(os.path.isdir(place) for place in places):
            return True
        if any(os.path.isfile(place / lock) for place in places for lock in _LOCKS):
            return True
    return False


def _places(model: ImageModel, source: str) -> list[Path]:
    """Where the build-context path `source` may be: under the Dockerfile's folder and a few above."""
    if source.startswith("/") or "$" in source or not model.file:
        return []
    folder = Path(model.file).resolve().parent
    found = [folder / source]
    for _ in range(_UP):
        if folder.parent == folder:
            break
        folder = folder.parent
        found.append(folder / source)
    return found


def package_texts(model: ImageModel, path: str, copies: list[tuple[str, str]]) -> list[str]:
    """The texts of the package files `path` (a file, or a project folder) of the image is, looked for
    under the folders a build context may be (the Dockerfile's and a few above), through the COPY that
    brought it in."""
    sources = {path}
    for source, destination in copies:
        dest = destination.rstrip("/")
        if path.rstrip("/") in (dest, "."):
            sources.add(source)
        elif PurePosixPath(path).name == PurePosixPath(source).name or path.startswith(dest + "/"):
            sources.add(source + path[len(dest) :] if path.startswith(dest + "/") else source)
    texts: list[str] = []
    for place in (place for source in sources for place in _places(model, source)):
        files = [place / n for n in _PACKAGE_FILES] if os.path.isdir(place) else [place]
        for file in files:
            try:
                if os.path.isfile(file) and stays_home(file) and file.stat().st_size < _MOST_BYTES:
                    texts.append(file.read_text(errors="replace"))
            except OSError:
                continue
    return texts


def _root_bases(model: ImageModel) -> str:
    """The images the stages of the image built start from, joined with `, `."""
    return ", ".join(dict.fromkeys(s.base for s in model.chain() if s.parent is None))
