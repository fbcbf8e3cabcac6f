"""Components a sentence says the image provides, without a version (`the image supports two serving
engines: **FastChat** and **vLLM**`, `It lets you select versions of:` then `- **TensorRT**`, `La imagen
Docker incluye … (Transformers, Accelerate, BitsAndBytes, PEFT, etc.)`, a list item about the image
starting `Includes Jupyter, nano, vim`), that no install of the image brings: no RUN (comment lines are
not part of it), COPY/ADD source or copied build-context file names them; or that only the script the
container starts with installs (`pip install jupyter` in `entrypoint.sh`): it comes when a container
starts, not in the image.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import (
    CHMOD,
    LATER,
    MAYBE,
    built_bases,
    copied_context,
    final_components,
    in_ranges,
    item_component,
    kept_text,
    known_keys,
    label_item,
    unbuilt_lines,
)
from docgen.audit.memo import per_audit
from docgen.audit.versions import norm, raw_name
from docgen.audit.wording import is_example, line_at, sentences
from docgen.base_contents import brought_by, carries
from docgen.copied import copied_texts
from docgen.markdown import Document, code_spans, lists
from docgen.model import Diagnostic, ImageModel

_PROVIDES = re.compile(
    r"\b(?:image|container)s?\b[^.;:]{0,40}?\b(?:supports|provides|includes|contains|offers|bundles"
    r"|comes[ \t]+with|ships(?:[ \t]+with)?)\b"
    r"|\b(?:it|image|container|dockerfile)[ \t]+(?:lets|allows)[ \t]+you\b[^.:]{0,40}?"
    r"\b(?:select|choose|pick|customi[sz]e)\b"
    r"|\b(?:imagen|contenedor|imagem|cont[eê]iner|conteneur)s?\b[^.;:]{0,40}?"
    r"\b(?:incluye|contiene|trae|inclui|cont[eé]m|inclut|contient|fournit)\b"
    r"|(?P<for>\b(?:image|container)[ \t]+for[ \t]+(?:the[ \t]+)?)",
    re.IGNORECASE,
)
"""Words saying the image holds what follows: `the image supports two serving engines:`, `The container
comes with`, `It allows you to easily customize and select specific versions of:`; in Spanish,
Portuguese and French (`La imagen Docker incluye`, `A imagem contém`, `L'image contient`); `a Docker
container for JAX` (group `for`: the one name right after it, `_FOR_REACH`; last, so that `the image for
ComfyUI includes …` is read as what it includes)."""
_FOR_REACH = 2
"""How far after `image for` the name it is for starts (its bold or code marks)."""
_ITEM_SAYS = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:[*_]{2}[^*_]{1,80}?[*_]{2}[ \t]*:?[ \t]*|[^:]{1,60}:[ \t]+)?"
    r"(?:also[ \t]+)?(?:includes|comes[ \t]+with|ships[ \t]+with|bundles)\b",
    re.IGNORECASE,
)
"""A list item whose subject is the image it is listed under (`- **Development Ready**: Includes
Jupyter, nano, vim`): read in a list about the image (`_ABOUT_IMAGE`) only."""
_ABOUT_IMAGE = re.compile(r"\b(?:image|container|docker|dockerfile)s?\b", re.IGNORECASE)
"""Words making a list about the image (its heading, introduction or another item): `Docker build`."""
NEGATED = re.compile(r"\b(?:not|no|never|without|neither|nor)\b|n't\b", re.IGNORECASE)
_NOT_SAID = re.compile(r"\b(?:si|cuando|quand|caso|pas|sin|sans|sem|n[aã]o|nunca|jamais)\b", re.IGNORECASE)
"""The same in Spanish, Portuguese and French: a condition or a negation (`Si la imagen incluye …`)."""
_BOLD = re.compile(r"\*\*([^*]{2,40})\*\*|__([^_]{2,40})__")
_WORD = re.compile(r"[A-Za-z][\w.+-]*[A-Za-z0-9]")
_PRODUCT = re.compile(r"[A-Za-z][\w.+-]*[A-Z][\w.+-]*|[A-Z][\w.+-]+")
_HARDWARE = frozenset(
    {"nvidia", "amd", "intel", "arm", "arm64", "x86", "x86_64", "gpu", "gpus", "cpu", "cpus"}
)
REQUIRED = re.compile(r"\b(?:ensure|make[ \t]+sure|must|should|needs?[ \t]+to|requires?)\b", re.IGNORECASE)
"""Words making the sentence a requirement (`ensure that the image includes …`), not a statement."""
_VERSIONED = re.compile(r"\A[ \t]*v?\d")
"""What follows a name that gives its version (`vLLM 0.8.3`): a claim read elsewhere (`prose.py`)."""
_STACK = frozenset(
    {"pytorch", "tensorflow", "jax", "triton", "rocm", "python", "tensorrt", "cudnn", "nccl", "rccl"}
    | {"cann", "amdgpu", "cuda", "ubuntu", "torchvision", "paddlepaddle", "mindspore"}
)
"""Known components a framework base image may hold, or another package's dependencies bring: said to
be missing only when the image is built on a plain OS, language or CUDA image and reads everything."""


def _product(name: str) -> bool:
    """True when a name in bold or code reads as a product's (`FastChat`, `vLLM`, `TensorRT`): one word
    with a capital letter, no platform or hardware word; or a name docgen knows."""
    name = name.strip()
    if norm(name) in known_keys():
        return True
    return bool(_PRODUCT.fullmatch(name)) and name.lower() not in _HARDWARE


def _named(text: str) -> list[tuple[int, str]]:
    """(offset, name) of each component `text` names: a product's name in bold or code (`_product`),
    or a name docgen knows."""
    marked = [(m.start(), m.group(1) or m.group(2)) for m in _BOLD.finditer(text)]
    marked += [(start, content) for start, _, content in code_spans(text)]
    taken = [(start, start + len(name) + 4) for start, name in marked]
    found = [(start, name) for start, name in marked if _product(name)]
    for match in _WORD.finditer(text):
        if norm(match.group()) in known_keys() and not any(a <= match.start() < b for a, b in taken):
            found.append((match.start(), match.group()))
    named = []
    for start, name in sorted(found):
        end = text.find(name, start) + len(name)
        if _VERSIONED.match(text[end:].lstrip("*`_")):
            continue  # a version after it: `prose.py` compares it
        named.append((start, name.strip()))
    return named


_FETCH_ONLY = re.compile(
    r"\bgit[ \t]+(?:clone|checkout|fetch|pull|submodule|config)\b[^&;|\n]*|(?<![\w-])cd[ \t]+[^&;|\n]*"
    r"|(?<![\w-])(?:mkdir|rm|ls|echo)[ \t]+[^&;|\n]*"
)
"""The parts of a RUN that fetch, enter or tidy a source tree and install nothing (`git clone
https://github.com/tensorflow/tensorflow`, `cd tensorflow`)."""


@functools.lru_cache(maxsize=32)
def install_text(model: ImageModel, fetches: bool = True) -> str:
    """What the Dockerfile of `model` installs or copies, as `raw_name` text: its RUN commands (comments
    dropped, as BuildKit drops them) and COPY/ADD/FROM arguments, with the build-context files it copies
    (`copied_context`'s files, read without the Dockerfile's own comments). Without `fetches`, the parts of a
    RUN that only fetch or enter a source tree (`_FETCH_ONLY`) are left out: a clone installs nothing."""
    read = dockerfile_read(model.file)
    if read is None:
        return ""
    text, parsed = read
    unbuilt = unbuilt_lines(model)
    parts = [
        i.args if fetches or i.keyword != "RUN" else _FETCH_ONLY.sub(" ", i.args)
        for i in parsed.instructions
        if i.keyword in ("RUN", "COPY", "ADD", "FROM") and not in_ranges(i.start_line, unbuilt)
    ]
    copied = copied_context(model)[0]
    dockerfile = raw_name(kept_text(text, unbuilt))
    # `context` is the Dockerfile's text (comments too) then the files it copies: keep the files only
    files = copied[len(dockerfile) :] if copied.startswith(dockerfile) else ""
    return raw_name(" ".join(parts)) + " " + files


def name_spellings(name: str) -> set[str]:
    """The spellings of the component `name` as a list item names it (`item_component`); none if not one."""
    found = item_component(f"- {name}")
    return found[1] if found is not None else set()


def base_holds(model: ImageModel, spellings: set[str], strict: bool) -> bool:
    """True when a base image `model`'s target is built on may hold the component: its reference names
    it or its family carries it (`base_contents`: an `nvidia/cuda` base CUDA's own libraries, NGC's
    PyTorch Apex), and (`strict`) any base docgen cannot tell about (an image it does not know, a
    component a framework image may hold)."""
    for stage in built_bases(model):
        held = carries(stage.base, spellings)
        if held or (strict and held is None):
            return True
    return False


_FILE_SAYS = re.compile(
    r"\b(?:contains|includes|installs|comes[ \t]+with|ships(?:[ \t]+with)?|provides|bundles)\b", re.IGNORECASE
)
"""Words saying what a Dockerfile named before them holds (`- **Dockerfile.gpu** contains CUDA and
PyTorch`, `` `base.dockerfile`, which includes ROCm ``): read only with an audited file named
(`_named_file`)."""
_NAME_END = r"(?![\w.-]*[\w])"
"""The end of a file name as prose writes it: no more letters of a longer name (`dockerfile_ros` is
not `dockerfile_ros_v2`), a full stop after it ending the sentence."""


def _named_file(before: str, sentence: str, models: Sequence[ImageModel]) -> ImageModel | None:
    """The one audited Dockerfile (of `models`, all the README's) `before` (the words of a claim before
    its verb) names, by its path, its
    file name, or its folder's name followed by `dockerfile` (`the `cu110` dockerfile contains`) when that
    folder holds no other; None when it names none, or `sentence` names more than one."""
    if len(models) < 2:
        return None  # one Dockerfile: every claim is compared with it already

    def names(model: ImageModel, text: str) -> bool:
        path = PurePosixPath(model.path)
        spelt = {model.path, path.name}
        folder = path.parent.name
        if folder and sum(PurePosixPath(m.path).parent.name == folder for m in models) == 1:
            if re.search(rf"(?<![\w.-]){re.escape(folder)}[`*_]*[ \t]+dockerfile\b", text, re.IGNORECASE):
                return True
        return any(re.search(rf"(?<![\w./-]){re.escape(n)}{_NAME_END}", text) for n in spelt if n)

    named = [m for m in models if names(m, before)]
    if len(named) != 1 or sum(names(m, sentence) for m in models) != 1:
        return None
    return named[0]


_FLAVOUR_BEFORE = re.compile(r"\b(?:with|w/)[ \t]+\Z", re.IGNORECASE)
_FLAVOUR_AFTER = re.compile(
    r"[*_`]*[ \t]+(?:GPU[ \t]+)?(?:support|acceleration|backend|enabled|bindings|kernels)\b", re.IGNORECASE
)
"""`PyTorch with CUDA support`, `OpenCV with **CUDA** acceleration`: the words around a name that make it
how the component named before it is built, not a component of its own."""


def _flavour(sentence: str, offset: int, name: str) -> bool:
    """True when the name `name` at `offset` of `sentence`, after another name, says how that one is
    built (`Installs PyTorch with CUDA support`: torch from a CUDA index, not a CUDA install)."""
    end = sentence.find(name, offset) + len(name)
    blank = offset  # the blanks before the name, and `with` or `w/` before them: read back from it, not
    while blank and sentence[blank - 1] in " \t":  # the whole sentence before it (n² for n names)
        blank -= 1
    before = _FLAVOUR_BEFORE.search(sentence, max(0, blank - len("with")), offset)
    return bool(before) and bool(_FLAVOUR_AFTER.match(sentence, end))


def _claims(doc: Document) -> Iterator[tuple[int, str, str, list[tuple[int, str]]]]:
    """(README line, the words of the claim, the names it gives each its line) of each sentence saying
    what the image provides, with the items of the list it introduces (a sentence ending in `:`); and
    of each saying what holds them in words of a file (`_FILE_SAYS`) with its words before the verb
    (`''` for the others: `_named_file` reads them)."""
    intros: dict[str, list[tuple[int, str]]] = {}
    for block in lists(doc):
        if block.intro:
            items = []
            for line, text in block.items:
                if label_item(text):
                    continue  # `**Linters**: shellcheck, hadolint`: the label is no component
                item = item_component(_BOLD.sub(r"\1\2", text))
                if item is not None and not LATER.search(text):
                    items.append((line, item[0].strip("*_ ")))
            intros.setdefault(block.intro.strip(), items)
    for para in doc.paragraphs:
        about: bool | None = None
        for start, _, sentence in sentences(para.lines):
            match = _PROVIDES.search(sentence)
            if match is None and (match := _ITEM_SAYS.match(sentence)) is not None:
                if about is None:  # (read once a paragraph, on its first such item)
                    about = bool(_ABOUT_IMAGE.search(f"{para.heading} {para.before}")) or any(
                        _ABOUT_IMAGE.search(text) for _, text in para.lines
                    )
                match = match if about else None
            by_file = match is None and (match := _FILE_SAYS.search(sentence)) is not None
            if (
                match is None
                or NEGATED.search(sentence)
                or MAYBE.search(sentence)
                or _NOT_SAID.search(sentence)
            ):
                continue
            if REQUIRED.search(sentence, 0, match.start()):
                continue
            if is_example(sentence, match):
                continue
            line = line_at(para.lines, start)
            given = [(offset, name) for offset, name in _named(sentence) if offset > match.end()]
            if match.re is _PROVIDES and match.group("for"):  # `a container for JAX`: that name only
                given = [(o, n) for o, n in _named(sentence) if match.end() <= o <= match.end() + _FOR_REACH]
            named = [
                (line_at(para.lines, start + offset), name)
                for index, (offset, name) in enumerate(given)
                if not (index and _flavour(sentence, offset, name))
            ]
            tail = sentence.rstrip()
            if tail.endswith(":"):
                for intro, items in intros.items():
                    if intro.endswith(tail.strip()):
                        named += items
            if named:
                yield line, sentence, sentence[: match.start()] if by_file else "", named


def provided_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A component a sentence says the image supports, provides, includes or lets you select (`the
    image supports two serving engines: **FastChat** and **vLLM**`) that no install of any image
    compared brings (`likely`). Sure when the image reads everything and is built on a plain OS,
    language or CUDA image; else only when the same claim names another component the Dockerfile does
    install (the claim is about what it adds) and the component is no framework a base may hold."""
    models = [m for m in auditor.models if m.file]
    if not models or len(models) != len(auditor.models):
        return
    for _, sentence, before, named in _claims(doc):
        compared = models
        if before:  # `- **Dockerfile.gpu** includes PyTorch`: that file alone, or no claim
            family = [m for m in auditor.family if m.file] or models
            if (file := _named_file(before, sentence, family)) is None:
                continue
            compared = [file]
        subject = f"{compared[0].path} provides" if compared is not models else "the image provides"
        spelt = [(line, name, name_spellings(name)) for line, name in named]
        spelt = [(line, name, s) for line, name, s in spelt if s]
        installed = {name for _, name, s in spelt if any(x in install_text(m) for m in compared for x in s)}
        for line, name, spellings in spelt:
            if name in installed:
                started = [started_install(m, frozenset(spellings)) for m in compared]
                first = started[0]
                if first is not None and all(s is not None for s in started):
                    script, at, command = first
                    yield Diagnostic(
                        auditor.path,
                        line,
                        f"README says {subject} {name} but nothing of {compared[0].path} installs "
                        f"it: {script}:{at} installs it when a container starts ({command}), not in the "
                        "image",
                        confidence=LIKELY,
                    )
                continue
            peers = bool(installed) and not any(norm(name) == k or k in spellings for k in _STACK)
            if all(missing_from(m, spellings, peers) for m in compared):
                said = f"README says {subject} {name} but {compared[0].path} installs no {name}"
                if installed:  # what it does install of those the claim names
                    said += f" (of those named, it installs {', '.join(sorted(installed, key=str.lower))})"
                yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


def missing_from(model: ImageModel, spellings: set[str], peers: bool) -> bool:
    """True when `model` cannot hold a component of `spellings`: no install of it names one or pulls
    one in (`base_contents.brought_by`), and its base images cannot hold it; without `peers` (another
    component of the claim it installs), only an image docgen reads whole, on bases known not to carry
    it (`base_contents.carries`: a plain OS, CUDA for a name not its own, NGC's PyTorch for DeepSpeed)."""
    if any(s in install_text(model) for s in spellings):
        return False
    if brought_by((c.name for c in final_components(model)), spellings) is not None:
        return False  # `pip install vllm` brings xformers
    if peers:
        return not base_holds(model, spellings, strict=False)
    _, unread_run, unread_packages = copied_context(model)
    if unread_run or unread_packages:
        return False
    return not base_holds(model, spellings, strict=True)


_STARTS_INSTALL = re.compile(
    r"\b(?:(?:pip3?|uv[ \t]+pip|conda|mamba|micromamba|npm|yarn|pipx|gem|cargo)[ \t]+(?:install|add|i)\b"
    r"|(?:apt-get|apt|apk|dnf|yum|zypper)[ \t]+(?:-\S+[ \t]+)*(?:install|add)\b)[^\n;&|]*"
)
"""An install command of a start script (`pip install jupyter -q`, `apt-get install -y htop`)."""


@per_audit(maxsize=64)
def started_install(model: ImageModel, spellings: frozenset[str]) -> tuple[str, int, str] | None:
    """(the script's path, its line, the command) when the only install of a component under `spellings`
    is a command of a script the container starts with (named by ENTRYPOINT or CMD, run by no RUN) that
    the Dockerfile copies in: `pip install jupyter -q` in `entrypoint.sh`. None when the build names it
    (a RUN, FROM, COPY or ADD, another copied file), runs or installs from what docgen cannot read, pulls
    it in with a package, or starts from a base that may carry it."""
    read = dockerfile_read(model.file) if model.file else None
    copies = copied_texts(model.file, model.context_copies) if model.file else None
    if read is None or copies is None:
        return None
    _, unread_run, unread_packages = copied_context(model)
    if unread_run or unread_packages:
        return None
    parsed = read[1]
    starts = " ".join(i.args for i in parsed.instructions if i.keyword in ("ENTRYPOINT", "CMD"))
    runs = " ".join(CHMOD.sub("", i.args) for i in parsed.instructions if i.keyword == "RUN")
    build = [i.args for i in parsed.instructions if i.keyword in ("RUN", "FROM", "COPY", "ADD")]
    scripts = []
    for copied, text in copies[0]:
        if copied.name and copied.name in starts and copied.name not in runs:
            scripts.append((copied, text))
        else:
            build.append(text)
    if not scripts or any(s in raw_name(" ".join(build)) for s in spellings):
        return None
    if brought_by((c.name for c in final_components(model)), spellings) is not None:
        return None
    bases = built_bases(model)
    if not bases or any(carries(stage.base, spellings) is not False for stage in bases):
        return None
    for copied, text in scripts:
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            for command in _STARTS_INSTALL.finditer(line):
                words = {raw_name(w) for w in command.group().split()}
                if words & spellings or brought_by(words, spellings) is not None:
                    return copied.source.strip("\"'"), number, " ".join(command.group().split())
    return None
