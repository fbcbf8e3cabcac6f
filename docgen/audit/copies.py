"""A Dockerfile pasted into the README as the content of an audited one: a ```` ```dockerfile ```` block the
README ties to the file by its name (`Create docker/Dockerfile.jetson … paste the following content:`, or
the block's first comment `# Dockerfile.jetson - …`), most of whose `ENV` and `ARG` names the file
declares. Its `FROM`, `ENV` values and `ARG` defaults are claims about that file: one the file has
changed since is a stale copy (`certain`); so are the distribution packages it apt-installs that the file
installs by name nowhere (`_stale_packages`). A block of any language or none that reads as a Dockerfile
(`A copy of the Dockerfile is included here:` over a bare fence) is a copy too, named or not, of the
audited Dockerfile it shares most instructions with word for word (`_unnamed_copy`). The defaults of a
copy's `${NAME:-default}` expansions are compared with those of the file's instruction of the same words
(`_changed_defaults`); a block whose instructions are a file's, one for one, but for those defaults is
its copy with no name needed, fenced or pasted into the prose as plain text (`plain_copies`). A block of one
`FROM` line said to be every Dockerfile's
(`All custom Dockerfiles use the universal base image:`) is compared with each audited one's first `FROM`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from docgen.analysis import model_of
from docgen.audit.auditor import CERTAIN, Auditor, dockerfile_read
from docgen.audit.commands import image_repository
from docgen.audit.wording import FROM_LINE
from docgen.dockerfile import parse_dockerfile
from docgen.errors import DocgenError
from docgen.files import dockerfiles_in, real_path
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic, ImageModel, ParsedDockerfile

DOCKERFILE_LANGS = frozenset({"dockerfile", "containerfile", "docker"})
PLAIN_LANGS = frozenset({"", "text", "txt", "plain", "plaintext"})
"""Languages of a block that may hold a Dockerfile with no name for it."""
_ABOVE = 12
"""How many README lines above a block may name the file it is a copy of."""
_ENV = re.compile(r"[ \t]*ENV[ \t]+(.*)", re.IGNORECASE)
_ARG = re.compile(r"[ \t]*ARG[ \t]+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S*))?[ \t]*\Z", re.IGNORECASE)
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S*)")
_OTHER = re.compile(
    r"\b(?:your|example|e\.g\.|for[ \t]+instance|extend\w*|custom\w*|derived?|own|template|minimal"
    r"|change|modif\w*|replac\w*|instead|switch)\b",
    re.IGNORECASE,
)
"""Words presenting a block as a Dockerfile the reader writes, not as the file's content."""


def pasted_copies(doc: Document, fence: Fence, auditor: Auditor) -> Iterator[Diagnostic]:
    """The `FROM`, `ENV` and `ARG` lines of `fence` that differ from the audited Dockerfile it is a copy
    of (see the module docstring); nothing for a block that is not one."""
    if not fence.lines:
        return
    fenced = fence.lang.lower() in DOCKERFILE_LANGS
    whole = reads_as_dockerfile(fence)
    if not fenced and not whole:
        if fence.lang.lower() in PLAIN_LANGS:
            yield from _twin_copy(doc, fence, auditor)
        return
    if fenced and _OTHER.search(_text_above(doc, fence)):
        model = _unnamed_only(doc, fence, auditor)
        if model is None:
            return
    else:
        model = _copy_of(doc, fence, auditor)
    if model is None:
        yield from _twin_copy(doc, fence, auditor)
        return
    readme, shown = auditor.path, model.path
    froms = [(line, m.group(1)) for line, text in fence.lines if (m := FROM_LINE.match(text))]
    if froms and model.stages and "$" not in froms[0][1]:
        line, said = froms[0]
        stage = model.stages[0]
        if said.lower() not in {stage.base.lower(), stage.base_raw.lower()}:
            yield Diagnostic(
                readme,
                line,
                f"README's copy of {shown} says FROM {said} but {shown}:{stage.line} says FROM "
                f"{stage.base_raw}",
                confidence=CERTAIN,
            )
    env = env_values(model)
    for line, name, value in _block_env(fence):
        values = env.get(name)
        if values and value not in {v for v, _ in values} and "$" not in value:
            fact, at = values[-1]
            yield Diagnostic(
                readme,
                line,
                f"README's copy of {shown} sets ENV {name}={value} but {shown}:{at} sets {name}={fact}",
                confidence=CERTAIN,
            )
    args = {a.name: a for a in model.args if a.raw_default is not None}
    for line, text in fence.lines:
        if (m := _ARG.match(text)) and m.group(2) is not None and m.group(1) in args:
            said, declared = m.group(2).strip("\"'"), args[m.group(1)]
            fact = (declared.raw_default or "").strip("\"'")
            if said != fact and "$" not in said + fact:
                yield Diagnostic(
                    readme,
                    line,
                    f"README's copy of {shown} says ARG {m.group(1)}={said} but {shown}:{declared.line} "
                    f"says {m.group(1)}={fact}",
                    confidence=CERTAIN,
                )
    yield from _changed_ports(fence, model, readme)
    yield from _changed_requirements(fence, model, readme)
    yield from _changed_defaults(block_instructions(fence.lines), model, readme, twin=False)
    yield from _stale_packages(fence, model, readme)
    yield from _left_out_packages(doc, fence, model, readme)


def _exposed(lines: Lines) -> list[tuple[int, set[str]]]:
    """(line, its ports) of each `EXPOSE` of `lines`, `/tcp` dropped; a port given by a variable spoils
    the line (an empty set)."""
    found: list[tuple[int, set[str]]] = []
    for keyword, instruction in block_instructions(lines):
        if keyword != "EXPOSE":
            continue
        words = " ".join(t.strip().removesuffix("\\") for _, t in instruction).split()[1:]
        ports = {w.lower().removesuffix("/tcp") for w in words}
        found.append((instruction[0][0], set() if any("$" in p for p in ports) else ports))
    return found


_PIP_INSTALL = re.compile(
    r"\b(?:pip3?(?:\.\d+)?|uv[ \t]+pip|python3?(?:\.\d+)?[ \t]+-m[ \t]+pip)[ \t]+install\b"
)
"""A pip install command of a RUN (`pip install`, `uv pip install`, `python3 -m pip install`)."""
_WORD = re.compile(r"\"([^\"]*)\"|'([^']*)'|([^\s\"'\\]+)")
"""A shell word of a RUN line: double-quoted, single-quoted or bare."""
_BOUNDED = re.compile(r"[<>!~]|==")


def pip_requirements(lines: Lines) -> dict[str, list[tuple[int, str, SpecifierSet]]]:
    """Each package a `RUN … pip install` of `lines` names with version specifiers (`"ray[data]<2.45.0"`,
    `torch==2.3.0`), by its canonical name: (line, the requirement as written, its specifiers). Words
    with a variable, a URL or no specifier are left out."""
    found: dict[str, list[tuple[int, str, SpecifierSet]]] = {}
    for keyword, instruction in block_instructions(lines):
        if keyword != "RUN" or not _PIP_INSTALL.search(" ".join(text for _, text in instruction)):
            continue
        for line, text in instruction:
            if text.lstrip().startswith("#"):
                continue
            for m in _WORD.finditer(text):
                word = m.group(1) if m.group(1) is not None else m.group(2) or m.group(3) or ""
                if "$" in word or not _BOUNDED.search(word):
                    continue
                try:
                    req = Requirement(word)
                except InvalidRequirement:
                    continue
                if req.url is None and req.specifier:
                    found.setdefault(canonicalize_name(req.name), []).append((line, word, req.specifier))
    return found


def _exact(spec: SpecifierSet) -> bool:
    """True for one `==` (or `===`) specifier: a pin."""
    return len(spec) == 1 and next(iter(spec)).operator in ("==", "===")


def _changed_requirements(fence: Fence, model: ImageModel, readme: str) -> Iterator[Diagnostic]:
    """The pip requirements of a pasted copy whose version specifiers differ from those its Dockerfile
    gives the same package (`"ray[data]>=2.45.0"` in the copy, `"ray[data]<2.45.0"` in the file), by
    `packaging`'s reading (`>=2.45` is `>=2.45.0`): `certain`. Nothing for a package the file installs
    with a variable in its version or with several different specifiers, nor for two exact pins (the
    README's pins are compared with the file's as versions, `docgen.audit.versions`)."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return
    theirs = pip_requirements(list(enumerate(read[0].splitlines(), 1)))
    for name, said in pip_requirements(fence.lines).items():
        held = theirs.get(name)
        if not held or len({str(spec) for _, _, spec in held}) != 1:
            continue
        at, fact, spec = held[0]
        for line, word, mine in said:
            if mine != spec and not (_exact(mine) and _exact(spec)):  # pins: `versions` compares them
                yield Diagnostic(
                    readme,
                    line,
                    f"README's copy of {model.path} installs {word} but {model.path}:{at} installs {fact}",
                    confidence=CERTAIN,
                )


def _changed_ports(fence: Fence, model: ImageModel, readme: str) -> Iterator[Diagnostic]:
    """The ports an `EXPOSE` of a pasted copy names that no `EXPOSE` of its Dockerfile names, when the file
    has `EXPOSE` lines too (`certain`): the file exposes another port now. Nothing when a port of
    either is a variable."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return
    theirs = _exposed(list(enumerate(read[0].splitlines(), 1)))
    mine = _exposed(fence.lines)
    if not theirs or not mine or any(not ports for _, ports in (*theirs, *mine)):
        return
    known = set().union(*(ports for _, ports in theirs))
    shown = " ".join(sorted(known))
    for line, ports in mine:
        if stale := sorted(ports - known):
            yield Diagnostic(
                readme,
                line,
                f"README's copy of {model.path} says EXPOSE {' '.join(stale)} but "
                f"{model.path}:{theirs[0][0]} exposes {shown}",
                confidence=CERTAIN,
            )


def _copy_of(doc: Document, fence: Fence, auditor: Auditor) -> ImageModel | None:
    """The audited Dockerfile `fence` is a pasted copy of: named above it (`_copied`) or not
    (`_unnamed_copy`); None when it is none's."""
    fenced = fence.lang.lower() in DOCKERFILE_LANGS
    whole = reads_as_dockerfile(fence)
    model = _copied(fence, _text_above(doc, fence), auditor.models) if fenced else None
    if model is None and whole and not _OTHER.search(intro_words(doc, fence, auditor.family)):
        model = _unnamed_copy(fence, auditor)
    return model


def _unnamed_only(doc: Document, fence: Fence, auditor: Auditor) -> ImageModel | None:
    """The audited Dockerfile a ```` ```dockerfile ```` block is a copy of when the README's text above it
    (`_text_above`, twelve lines) has words of the reader's own Dockerfile (`your`, `change`): only a block
    that shares most of its instructions with the file word for word (`_unnamed_copy`), under words just
    above it (`intro_words`) that have none of them. Those words further up are about something else (`make
    sure your system supports nvidia-docker`, a list of steps); a name of the file there is not read."""
    if not reads_as_dockerfile(fence) or _OTHER.search(intro_words(doc, fence, auditor.family)):
        return None
    return _unnamed_copy(fence, auditor)


def copied_model(doc: Document, fence: Fence, auditor: Auditor) -> ImageModel | None:
    """The audited Dockerfile whose copy `fence` is, as `pasted_copies` and `_twin_copy` read it (a
    named or unnamed copy, or a twin but for defaults), when the words above do not present it as the
    reader's own; None when it is no copy."""
    if not fence.lines:
        return None
    if fence.lang.lower() in DOCKERFILE_LANGS and _OTHER.search(_text_above(doc, fence)):
        return _unnamed_only(doc, fence, auditor)
    model = _copy_of(doc, fence, auditor)
    if model is None and not _OTHER.search(intro_words(doc, fence, auditor.family)):
        model = _twin(block_instructions(fence.lines), auditor.models)
    return model


_COMMAND = re.compile(r"(\A|&&|\|\||[;|(]|\bthen\b|\bdo\b)[ \t]*(?:sudo[ \t]+)?(\S+)(?:[ \t]+(\S+))?")
"""The first word of each command of a RUN (after `&&`, `;`, a pipe …) and the word after it."""
_SHELLS = frozenset({"sh", "bash", "zsh", "source", "."})


def runs_unread(body: str) -> bool:
    """True when a RUN's `body` may install packages it does not name: it runs a shell script
    (`bash install.sh`, `./setup.sh`, a download piped into `sh`) or feeds `apt-get` a list (`xargs`)."""
    for m in _COMMAND.finditer(body):
        piped, first, second = m.group(1) == "|", m.group(2), m.group(3) or ""
        if first in _SHELLS and (piped or (second and not second.startswith("-"))):
            return True
        if first.endswith(".sh") or first == "xargs":
            return True
    return False


def _apt_names(model: ImageModel) -> dict[str, int]:
    """Each distribution package (apt) the image installs by name → the line of its first install."""
    names: dict[str, int] = {}
    for comp in model.components:
        if comp.kind == "apt":
            names.setdefault(comp.name, comp.line)
    return names


def _stale_packages(fence: Fence, model: ImageModel, readme: str) -> Iterator[Diagnostic]:
    """The apt packages a pasted copy installs by name that its Dockerfile installs by name nowhere
    (`certain`: the copy was tied to the file above): the file has dropped them, or gets them from
    elsewhere now (a downloaded `.deb`, named in the message). Nothing when the file installs apt
    packages it does not name (a variable docgen cannot expand) or runs a shell script (it may install
    them), nor when it installs no apt package by name at all (another package manager); a package a RUN
    of the file names as a word of its own (in a branch of an `if` on a build arg) is not counted."""
    file_names = _apt_names(model)
    if not file_names or any("apt package name not understood" in s.message for s in model.skipped):
        return
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return
    runs_of = [i for i in read[1].instructions if i.keyword.upper() == "RUN"]
    bodies = [i.body for i in runs_of]
    if any(runs_unread(body) for body in bodies):
        return
    try:
        block = model_of(parse_dockerfile("\n".join(text for _, text in fence.lines) + "\n", readme))
    except DocgenError:
        return
    runs = "\n".join(bodies)
    gone = [
        name
        for name in _apt_names(block)
        if name not in file_names and not _names_package(name, runs)  # (a branch not taken)
    ]
    if not gone:
        return
    first = _line_naming(fence, gone[0])
    downloads = {
        comp.name: comp.line for comp in model.components if comp.kind != "apt" and comp.name in gone
    }
    elsewhere = ""
    if downloads:
        shown = ", ".join(sorted(downloads, key=gone.index))
        elsewhere = f" (it installs {shown} from a download instead, line {min(downloads.values())})"
    yield Diagnostic(
        readme,
        first,
        f"README's copy of {model.path} apt-installs {', '.join(gone)}, which {model.path} does not "
        f"install from the distribution's packages{elsewhere}",
        confidence=CERTAIN,
    )


_COMPARED_KINDS = ("apt", "pip")
"""The package managers whose installs a copy and its file are compared by: distribution packages and
Python packages."""
EXCERPT = re.compile(
    r"\b(?:excerpts?|simplified|abridged|snippet|shortened|trimmed|partial|abbreviated|outline|skeleton"
    r"|essentials?|(?:the[ \t]+)?(?:main|key|relevant)[ \t]+(?:parts?|lines|steps)|parts?[ \t]+of)\b"
    r"|\.\.\.|…|抜粋|一部|省略",
    re.IGNORECASE,
)
"""Words or marks saying a block shows part of a file (`an excerpt`, `simplified`, `# ...`)."""
_LISTED_ELSEWHERE = re.compile(
    r"(?:^|[ \t])(?:-r|--requirement|-c|--constraint|-e)[ \t=]|[ \t]\.(?:[ \t]|\Z)"
)
"""A pip install from a file or a local project (`-r requirements.txt`, `-e .`): packages it names not."""


def _stage_labels(model: ImageModel, bases: set[str]) -> set[str]:
    """The labels of the stages of `model` starting from one of the image repositories `bases`."""
    return {
        stage.name or f"#{stage.index}"
        for stage in model.stages
        if image_repository(stage.base_raw.lower()) in bases
    }


def _left_out_packages(doc: Document, fence: Fence, model: ImageModel, readme: str) -> Iterator[Diagnostic]:
    """The packages the Dockerfile a pasted copy was tied to installs by name (apt, pip) that the copy
    names nowhere, and the Python packages the copy installs that the file names nowhere: the file has
    changed since it was copied (`certain`), one finding per copy. A package manager is compared only
    when the copy installs with it; only the stages of the file that start from an image a stage of the
    copy starts from count (a copy of the runtime stage is not missing the build stage's compilers).
    Nothing when the words above or the block say it shows part of the file (`excerpt`, `simplified`,
    `...`), nor for the pip side when the copy installs from a requirements file or a local project,
    nor when the copy runs a shell script (it may install them)."""
    text = "\n".join(body for _, body in fence.lines)
    if EXCERPT.search(_text_above(doc, fence)) or EXCERPT.search(text) or runs_unread(text):
        return
    try:
        block = model_of(parse_dockerfile(text + "\n", readme))
    except DocgenError:
        return
    bases = {image_repository(stage.base_raw.lower()) for stage in block.stages if "$" not in stage.base_raw}
    stages = _stage_labels(model, bases)
    if not stages or not model.file:
        return
    read = dockerfile_read(model.file)
    if read is None:
        return
    runs = "\n".join(i.body for i in read[1].instructions if i.keyword.upper() == "RUN")
    missing: list[str] = []  # per manager: the file's packages the copy leaves out
    added: list[str] = []  # the Python packages only the copy installs
    cited: list[int] = []  # block lines of the copy's installs concerned
    for kind in _COMPARED_KINDS:
        mine = {c.name.lower(): c.line for c in block.components if c.kind == kind}
        if not mine:
            continue
        theirs: dict[str, int] = {}
        for comp in model.components:
            if comp.kind == kind and comp.stage in stages:
                theirs.setdefault(comp.name, comp.line)
        left = [
            (name, line)
            for name, line in theirs.items()
            if name.lower() not in mine and not _names_package(name, text)
        ]
        if kind == "pip" and _LISTED_ELSEWHERE.search(text):
            left = []
        if left:
            names = ", ".join(name for name, _ in left)
            missing.append(f"{names} ({kind}, {model.path}:{min(line for _, line in left)})")
            cited.append(min(mine.values()))
        if kind == "pip":
            known = {name.lower() for name in theirs}
            added = [n for n in mine if n not in known and not _names_package(n, runs)]
            cited += [mine[n] for n in added]
    if not cited:
        return
    line = fence.lines[min(min(cited), len(fence.lines)) - 1][0]
    said = [f"leaves out packages {model.path} installs: {'; '.join(missing)}"] if missing else []
    if added:
        said.append(f"pip-installs {', '.join(added)}, which {model.path} does not install")
    yield Diagnostic(
        readme, line, f"README's copy of {model.path} {'; and it '.join(said)}", confidence=CERTAIN
    )


def _package_word(name: str) -> re.Pattern[str]:
    """The package `name` as a word of its own, as an install names it (not in a URL or a file name:
    `…/libze1_1.34.0+u24.04_amd64.deb`)."""
    return re.compile(rf"(?<![\w./+-]){re.escape(name)}(?![\w/+-]|[.:=]\w)")


def _names_package(name: str, text: str) -> bool:
    """True when `text` names the package `name` as a word of its own (`_package_word`); the pattern is
    made only when the name is in the text at all (a copy of thousands of packages compiled one each)."""
    return name in text and _package_word(name).search(text) is not None


def _line_naming(fence: Fence, name: str) -> int:
    """The README line of `fence` that names the package `name` (its first line if none does)."""
    word = _package_word(name)
    return next((line for line, text in fence.lines if word.search(text)), fence.lines[0][0])


_EVERY = re.compile(
    r"\b(?:all|every|each)\b[^.:]*?\b(?:dockerfiles?|images?|containers?)\b[^.:]*?"
    r"\b(?:use|uses|start|starts|are[ \t]+(?:built|based)|is[ \t]+(?:built|based)|build|builds|derive)\b",
    re.IGNORECASE,
)
"""Words saying every Dockerfile of the README starts from one base (`All custom Dockerfiles use the
universal base image:`)."""


_YOURS = re.compile(r"\b(?:your|extend\w*|e\.g\.|for[ \t]+example|change|instead|replac\w*)\b", re.IGNORECASE)
"""Words presenting a `FROM` line as one the reader writes (`Start your Dockerfile with:`)."""


def every_base(doc: Document, fence: Fence, auditor: Auditor) -> Iterator[Diagnostic]:
    """A block holding only a `FROM` line, under words saying every Dockerfile uses it (`All custom
    Dockerfiles use the universal PyTorch base image:`), when some audited Dockerfiles start from it and
    others start from another image: those are named (`certain`). A base given by a variable, or a
    Dockerfile starting from a stage or from another image of the family, is not compared."""
    models = auditor.family or auditor.models  # (a section may be tied to one image: the claim is of all)
    if fence.lang.lower() not in DOCKERFILE_LANGS or len(models) < 2:
        return
    content = [
        (line, text) for line, text in fence.lines if text.strip() and not text.lstrip().startswith("#")
    ]
    if len(content) != 1 or (m := FROM_LINE.match(content[0][1])) is None or "$" in m.group(1):
        return
    above = _text_above(doc, fence)
    if not _EVERY.search(above) or _YOURS.search(above):
        return
    said = m.group(1)
    built = {name.lower() for model in models for name in (model.image_name,) if name}
    firsts = [(model, model.stages[0]) for model in models if model.stages]
    agree = [model for model, stage in firsts if said.lower() in {stage.base.lower(), stage.base_raw.lower()}]
    others = [
        (model, stage)
        for model, stage in firsts
        if model not in agree
        and "$" not in stage.base_raw
        and stage.parent is None
        and image_repository(stage.base_raw.lower()) not in built
    ]
    if not agree or not others:
        return
    shown = "; ".join(
        f"{model.path}:{stage.line} starts FROM {stage.base_raw}" for model, stage in others[:4]
    )
    more = f" and {len(others) - 4} more" if len(others) > 4 else ""
    message = f"README says every Dockerfile starts FROM {said}, but {shown}{more}"
    yield Diagnostic(auditor.path, content[0][0], message, confidence=CERTAIN)


def _text_above(doc: Document, fence: Fence) -> str:
    """The README's text in the `_ABOVE` lines over `fence` (paragraphs, headings and other blocks), and the
    block's own leading comments."""
    start = fence.lines[0][0]
    texts: list[str] = []
    first = bisect.bisect_left(doc.paragraphs, start - _ABOVE, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[first:]:
        if para.lines[0][0] >= start:
            break
        texts.extend(text for _, text in para.lines)
    at = bisect.bisect_left(
        doc.fences, start - _ABOVE, key=lambda other: other.lines[-1][0] if other.lines else 0
    )
    for other in doc.fences[at:]:
        if not other.lines or other.lines[0][0] >= start:
            break
        texts.extend(text for _, text in other.lines)
    heading = bisect.bisect_right(doc.headings, start, key=lambda h: h[0]) - 1
    if heading >= 0 and doc.headings[heading][0] >= start - _ABOVE:
        texts.append(doc.headings[heading][1])
    texts.extend(_leading_comments(fence))
    return "\n".join(texts)


def _file_comments(file: str) -> set[str]:
    """The comment lines of the Dockerfile at `file`, their spaces collapsed."""
    read = dockerfile_read(file)
    if read is None:
        return set()
    return {" ".join(line.split()) for line in read[0].splitlines() if line.lstrip().startswith("#")}


def _leading_comments(fence: Fence) -> list[str]:
    """The comment lines a block starts with (blank lines among them skipped), where a copy may name
    its file (`# Dockerfile.jetson - …`)."""
    comments: list[str] = []
    for _, text in fence.lines:
        if not text.strip():
            continue
        if not text.lstrip().startswith("#"):
            break
        comments.append(text)
    return comments


def intro_words(doc: Document, fence: Fence, shown: tuple[ImageModel, ...] = ()) -> str:
    """The words just above `fence` (the last two lines of a paragraph ending at most two lines over it),
    its heading and its leading comments: where a README says whose Dockerfile a block is (`A copy of
    the Dockerfile:`, `Add this to your Dockerfile:`). A leading comment one of the Dockerfiles `shown`
    has word for word is the file's, copied with it (`# you can find your built docker`): left out."""
    start = fence.lines[0][0]
    texts: list[str] = []
    first = bisect.bisect_left(doc.paragraphs, start - 3, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[first : first + 2]:
        if start - 3 <= para.lines[-1][0] < start:
            texts.extend(text for _, text in para.lines[-2:])
    heading = bisect.bisect_right(doc.headings, start, key=lambda h: h[0]) - 1
    if heading >= 0:
        texts.append(doc.headings[heading][1])
    theirs = set().union(*(_file_comments(m.file) for m in shown if m.file))
    texts.extend(c for c in _leading_comments(fence) if " ".join(c.split()) not in theirs)
    return "\n".join(texts)


def _copied(fence: Fence, above: str, models: tuple[ImageModel, ...]) -> ImageModel | None:
    """The one audited Dockerfile `above` names (`_names_file`) that the block copies: more than half of
    the block's `ENV`/`ARG` names (at least two) are the file's, or the block (three instructions or
    more) starts `FROM` the repository the file starts from (`nvidia/cuda`, another tag)."""
    named = [m for m in models if _names_file(above, m.path, models)]
    if len(named) != 1:
        return None
    model = named[0]
    block = {name for _, name, _ in _block_env(fence)} | {
        m.group(1) for _, text in fence.lines if (m := _ARG.match(text))
    }
    declared = {e.name for e in model.env if not e.inherited} | {a.name for a in model.args}
    shared = block & declared
    if len(shared) >= 2 and 2 * len(shared) > len(block):
        return model
    instructions = [text for _, text in fence.lines if _INSTRUCTION.match(text)]
    froms = [m.group(1) for text in instructions if (m := FROM_LINE.match(text))]
    if len(instructions) >= 3 and froms and model.stages and "$" not in froms[0]:
        if image_repository(froms[0].lower()) == image_repository(model.stages[0].base_raw.lower()):
            return model
    return None


_INSTRUCTION = re.compile(
    r"[ \t]*(?:FROM|RUN|ENV|ARG|COPY|ADD|WORKDIR|CMD|ENTRYPOINT|EXPOSE|USER)[ \t]", re.I
)


def _names_file(text: str, path: str, models: tuple[ImageModel, ...]) -> bool:
    """`text` names the Dockerfile at `path`: by its path, or by its file name — a bare `Dockerfile`
    only in code (`` `Dockerfile` ``) and when no other audited file has that name (the word alone is
    any Dockerfile)."""
    posix = PurePosixPath(path)
    if len(posix.parts) > 1 and re.search(rf"(?<![\w./-]){re.escape(str(posix))}(?![\w-]|\.\w)", text):
        return True
    if sum(PurePosixPath(m.path).name == posix.name for m in models) != 1:
        return False
    if posix.name.lower() in {"dockerfile", "containerfile"}:
        return f"`{posix.name}`" in text
    return re.search(rf"(?<![\w.-]){re.escape(posix.name)}(?![\w-]|\.\w)", text) is not None


def _block_env(fence: Fence) -> Iterator[tuple[int, str, str]]:
    """(README line, name, value) of each `ENV NAME=value` (several on a line too; `ENV NAME value`)."""
    for line, text in fence.lines:
        if (m := _ENV.match(text)) is None:
            continue
        body = m.group(1).rstrip("\\ \t")
        pairs = _PAIR.findall(body)
        if pairs:
            for name, value in pairs:
                yield line, name, value.strip("\"'")
        elif len(parts := body.split(None, 1)) == 2:
            yield line, parts[0], parts[1].strip().strip("\"'")


def env_values(model: ImageModel) -> dict[str, list[tuple[str, int]]]:
    """Each `ENV` name the Dockerfile sets itself → its (value, line)s, in order."""
    values: dict[str, list[tuple[str, int]]] = {}
    for env in model.env:
        if not env.inherited and env.value is not None:
            values.setdefault(env.name, []).append((env.value, env.line))
    return values


# --------------------------------------------------------------------------------------------------
# A copy in a block of any language, tied to its file by the lines they share

_KEYWORDS = frozenset(
    "FROM RUN CMD LABEL MAINTAINER EXPOSE ENV ADD COPY ENTRYPOINT VOLUME USER WORKDIR ARG ONBUILD "
    "STOPSIGNAL HEALTHCHECK SHELL".split()
)
_MOSTLY = 0.8
"""The share of a block's lines (continued lines as one) that must be Dockerfile instructions."""
_SIBLINGS = 20
"""Dockerfiles not audited that a block is compared with at most (the file it may copy instead)."""


def _logical(fence: Fence) -> list[str]:
    """The lines of `fence` that are neither blank nor comments, continued lines (`\\`) joined."""
    found: list[str] = []
    continued = False
    for _, text in fence.lines:
        stripped = text.strip()
        if not continued and (not stripped or stripped.startswith("#")):
            continue
        if continued and found:
            found[-1] += " " + stripped
        else:
            found.append(stripped)
        continued = stripped.endswith("\\")
    return found


def reads_as_dockerfile(fence: Fence) -> bool:
    """True when a block of another language (or none) is a Dockerfile: three instructions or more, the
    first that is no `ARG` a `FROM`, and most of its lines (`_MOSTLY`) instructions, upper case as
    Dockerfiles write them."""
    lines = _logical(fence)
    words = [line.split(None, 1)[0] for line in lines]
    instructions = [word for word in words if word in _KEYWORDS]
    if len(instructions) < 3 or len(instructions) < _MOSTLY * len(words):
        return False
    first = next((word for word in words if word != "ARG"), "")
    return first == "FROM"


def _parsed_lines(parsed: ParsedDockerfile) -> set[str]:
    """Each instruction of `parsed` as one line, its spaces collapsed: what two copies share."""
    return {f"{i.keyword.upper()} {' '.join(i.args.split())}" for i in parsed.instructions}


def _block_lines(fence: Fence) -> set[str]:
    """The instructions of a block read as a Dockerfile (`_parsed_lines`); none when it cannot be read."""
    try:
        return _parsed_lines(parse_dockerfile("\n".join(text for _, text in fence.lines) + "\n", "README"))
    except DocgenError:
        return set()


def _file_lines(file: str) -> set[str]:
    """The instructions of the Dockerfile at `file` (`_parsed_lines`); none when it cannot be read."""
    read = dockerfile_read(file) if file else None
    return _parsed_lines(read[1]) if read is not None else set()


def _first_base(fence: Fence) -> str | None:
    """The image of the block's first `FROM`."""
    for _, text in fence.lines:
        if m := FROM_LINE.match(text):
            return m.group(1)
    return None


def _unnamed_copy(fence: Fence, auditor: Auditor) -> ImageModel | None:
    """The audited Dockerfile a block that reads as one (`reads_as_dockerfile`, any language) copies,
    named or not: the one sharing the most instructions with it, word for word, when they are half of
    the block's or more (two at least), no other audited Dockerfile shares as many, and the block starts
    FROM the repository the file starts from (a block starting from another image — the project's own,
    `FROM ourimage:tag` — is one built on top). A Dockerfile beside the README or the file that is not
    audited and shares as many is the one copied: none then."""
    block = _block_lines(fence)
    said = _first_base(fence)
    if len(block) < 3 or said is None:
        return None
    scored = sorted(
        ((len(block & _file_lines(m.file)), i) for i, m in enumerate(auditor.family) if m.file),
        reverse=True,
    )
    if not scored:
        return None
    best, index = scored[0]
    if best < 2 or 2 * best < len(block) or (len(scored) > 1 and scored[1][0] == best):
        return None
    model = auditor.family[index]
    if not model.stages or "$" in said or "$" in model.stages[0].base_raw:
        return None
    if image_repository(said.lower()) != image_repository(model.stages[0].base_raw.lower()):
        return None
    audited = {Path(m.file).resolve() for m in auditor.family if m.file}
    try:
        beside = dockerfiles_in(Path(model.file).parent, 0, pass_unreadable=True)
    except DocgenError:
        return None
    others = [p for p in beside if real_path(p) not in audited][:_SIBLINGS]
    if any(len(block & _file_lines(str(other))) >= best for other in others):
        return None
    return model


# --------------------------------------------------------------------------------------------------
# Defaults of `${NAME:-default}` in a copy's instructions, and copies pasted as plain text

_DEFAULTED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?-([^}]*)\}")
"""A shell expansion with a default (`${MODEL_NAME:-google/gemma-2b-it}`)."""
_PLAIN_FROM = re.compile(r"FROM[ \t]+\S+(?:[ \t]+(?:AS|as)[ \t]+\S+)?[ \t]*\Z")
"""A `FROM` line as a Dockerfile writes it, alone on a README line of prose."""

Lines = list[tuple[int, str]]


def block_instructions(lines: Lines) -> list[tuple[str, Lines]]:
    """(keyword, its lines) of each instruction of `lines` (a block's, a Dockerfile's), continued
    lines (`\\`) with it; blank and comment lines left out."""
    found: list[tuple[str, Lines]] = []
    continued = False
    for line, text in lines:
        stripped = text.strip()
        if continued and found:
            found[-1][1].append((line, text))
        elif stripped and not stripped.startswith("#"):
            found.append((stripped.split(None, 1)[0].upper(), [(line, text)]))
        continued = stripped.endswith("\\")
    return found


def instruction_shape(lines: Lines) -> str:
    """An instruction's words, continuation marks and the defaults of its expansions left out: what a
    copy and its file share when only a default has changed."""
    joined = " ".join(text.strip().removesuffix("\\") for _, text in lines)
    return " ".join(_DEFAULTED.sub(lambda m: "${" + m.group(1) + ":-}", joined).split())


def _defaults(lines: Lines) -> list[tuple[int, str, str]]:
    """(line, name, default) of each `${NAME:-default}` of an instruction's lines, in order."""
    return [(line, m.group(1), m.group(2)) for line, text in lines for m in _DEFAULTED.finditer(text)]


def file_instructions(model: ImageModel) -> list[tuple[str, Lines]]:
    """(keyword, its lines) of each instruction of the audited Dockerfile of `model`, as written."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return []
    return block_instructions(list(enumerate(read[0].splitlines(), 1)))


def _changed_defaults(
    block: list[tuple[str, Lines]], model: ImageModel, readme: str, twin: bool
) -> Iterator[Diagnostic]:
    """The `${NAME:-default}` defaults of a copy's instructions that differ from those of the file's
    instruction of the same words (`certain`). Each instruction of the copy is compared with the one of
    the file whose words (`instruction_shape`) are its own, when only one is; with `twin`, the copy's
    instructions are the file's, one for one, in order."""
    theirs = file_instructions(model)
    pairs: list[tuple[Lines, Lines]] = []
    if twin:
        pairs = [(mine[1], other[1]) for mine, other in zip(block, theirs, strict=True)]
    else:
        by_shape: dict[tuple[str, str], list[Lines]] = {}  # each file instruction's shape made once
        for keyword, other in theirs:
            by_shape.setdefault((keyword, instruction_shape(other)), []).append(other)
        for keyword, lines in block:
            same = by_shape.get((keyword, instruction_shape(lines)), [])
            if len(same) == 1:
                pairs.append((lines, same[0]))
    for mine, other in pairs:
        said, fact = _defaults(mine), _defaults(other)
        for (line, name, value), (at, _, default) in zip(said, fact, strict=True):
            if value != default and "$" not in value + default:
                yield Diagnostic(
                    readme,
                    line,
                    f"README's copy of {model.path} says ${{{name}:-{value}}} but {model.path}:{at} says "
                    f"${{{name}:-{default}}}",
                    confidence=CERTAIN,
                )


def _twin(block: list[tuple[str, Lines]], models: tuple[ImageModel, ...]) -> ImageModel | None:
    """The one audited Dockerfile whose instructions are the block's, one for one and word for word
    (`instruction_shape`: only the defaults of expansions may differ), two at least, starting from the
    same image; None when no file or several are."""
    if len(block) < 2 or block[0][0] != "FROM":
        return None
    shapes = [instruction_shape(lines) for _, lines in block]
    found = [m for m in models if [instruction_shape(lines) for _, lines in file_instructions(m)] == shapes]
    return found[0] if len(found) == 1 else None


def _plain_blocks(doc: Document) -> Iterator[Fence]:
    """Dockerfiles pasted into the README's prose with no fence (a tutorial copied as plain text): from a
    line that is only `FROM image`, the lines that are instructions or continue one (`\\`), across blank
    lines, up to the first that is neither."""
    paragraphs = sorted(doc.paragraphs, key=lambda p: p.lines[0][0])
    lines = [item for para in paragraphs for item in para.lines]
    index = 0
    while index < len(lines):
        if not _PLAIN_FROM.match(lines[index][1]):
            index += 1
            continue
        block = [lines[index]]
        continued = False
        index += 1
        while index < len(lines):
            text = lines[index][1]
            if not continued and not (_INSTRUCTION.match(text) and text.lstrip() == text):
                break
            block.append(lines[index])
            continued = text.rstrip().endswith("\\")
            index += 1
        yield Fence("", block, 0)


def _twin_copy(doc: Document, fence: Fence, auditor: Auditor) -> Iterator[Diagnostic]:
    """The changed defaults (`_changed_defaults`) of a block that is an audited file's twin (`_twin`),
    unless the words just above present it as the reader's own or an example."""
    instructions = block_instructions(fence.lines)
    model = _twin(instructions, auditor.models)
    if model is not None and not _OTHER.search(intro_words(doc, fence, auditor.family)):
        yield from _changed_defaults(instructions, model, auditor.path, twin=True)


def plain_copies(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A Dockerfile pasted into the README as plain text (`_plain_blocks`) whose instructions are an
    audited file's, one for one, but for the defaults of its expansions: those defaults are compared
    (`certain`), unless the words just above present it as the reader's own or an example."""
    for block in _plain_blocks(doc):
        yield from _twin_copy(doc, block, auditor)
