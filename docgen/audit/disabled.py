"""Components a README lists as in the image whose only install is commented out: the lines that would
install them are Dockerfile comments (`#RUN wget …/abinit-${ABINIT_VERSION}.tar.gz | tar xz`), and no
RUN, COPY/ADD source, base image or copied build-context file names them.
"""

from __future__ import annotations

import functools
import re
import urllib.parse
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, also_at, clipped, dockerfile_read
from docgen.audit.contents import (
    FEATURES,
    LATER,
    NEEDED,
    TRIED,
    VERSION_IN,
    copied_context,
    item_component,
    versions_agree,
)
from docgen.audit.memo import per_audit
from docgen.audit.provides import base_holds, install_text
from docgen.audit.versions import raw_name
from docgen.audit.wording import is_example, line_at, sentences
from docgen.base_contents import is_plain, lacks_python
from docgen.markdown import Document, lists, plain
from docgen.model import Diagnostic, ImageModel

_COMMENTED = re.compile(r"[ \t]*#+[ \t]*(RUN|ENV|ARG|COPY|ADD|WORKDIR)[ \t]", re.IGNORECASE)
"""A Dockerfile comment that is an instruction set aside (`#RUN make install`, `# ENV X=1`)."""


@per_audit(maxsize=32)
def _commented_out(file: str) -> tuple[tuple[int, str, bool], ...]:
    """(line, `raw_name` text, whether a RUN) of each commented-out instruction of the Dockerfile at `file`,
    a line of a continued one (`#    -DPKG_PYTHON=on \\`) joined to it."""
    read = dockerfile_read(file)
    if read is None:
        return ()
    found: list[tuple[int, str, bool]] = []
    going = False
    for number, line in enumerate(read[0].splitlines(), 1):
        start = _COMMENTED.match(line)
        if start is not None or going and line.lstrip().startswith("#"):
            run = start.group(1).upper() == "RUN" if start is not None else found[-1][2]
            found.append((number, raw_name(line), run))
            going = line.rstrip().endswith("\\")
        else:
            going = False
    return tuple(found)


def _disabled_install(model: ImageModel, spellings: set[str]) -> int | None:
    """The Dockerfile line of the commented-out instruction (a RUN first) that names a component under
    one of `spellings` when nothing else of `model` can bring it: no live RUN, COPY/ADD or FROM, no
    copied build-context file, no script docgen cannot read; None otherwise."""
    if not model.file or copied_context(model)[1] or base_holds(model, spellings, strict=False):
        return None
    if any(s in install_text(model) for s in spellings):
        return None
    hits = [(not run, n) for n, text, run in _commented_out(model.file) if any(s in text for s in spellings)]
    return min(hits)[1] if hits else None


def disabled_installs(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """An unversioned item of a list that is the image's by what it holds (at least two of its
    components, and at least half of them, are installed by a Dockerfile compared, or its versioned
    items say what the Dockerfile says: `versions_agree`) whose only install in
    every Dockerfile compared is commented out (`_disabled_install`) (`likely`). Not a list of what the
    reader needs or of features, nor an item fetched later or optional."""
    models = [m for m in auditor.models if m.file]
    if not models:
        return
    for block in lists(doc):
        words = f"{block.heading} {block.intro}"
        if NEEDED.search(words) or FEATURES.search(words) or LATER.search(words):
            continue
        named = [
            (line, found)
            for line, text in block.items
            if (found := item_component(text)) and not LATER.search(text) and not VERSION_IN.search(text)
        ]
        held = sum(1 for _, f in named if any(s in install_text(m) for m in models for s in f[1]))
        if (held < 2 or 2 * held < len(named)) and (
            TRIED.search(words) or not versions_agree(block.items, models)
        ):
            continue
        for line, (name, spellings, _) in named:
            where = [_disabled_install(m, spellings) for m in models]
            if all(n is not None for n in where):
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README lists {name} as in the image, but its install is commented out "
                    f"({models[0].path}:{where[0]}) and nothing else installs it",
                    confidence=LIKELY,
                )


_PROMISE = re.compile(
    r"\b(?:image|container|dockerfile|environment)s?\b[^.;:]{0,60}?\b(?:with|including|includes|supports"
    r"|provides|contains|bundles|ships[ \t]+with|comes[ \t]+with"
    r"|(?:(?:for|that)[ \t]+build(?:s|ing)[ \t]*)+)\b"
    r"|\boption[ \t]+to[ \t]+use\b",
    re.IGNORECASE,
)
"""Words saying the image has what follows: `Dockerfile for building an image with Tensorflow`, `with
the option to use Keras or TFLearn`, `The container includes`, `Dockerfile for building the framework
Tensorflow`."""
_NOT_PROMISED = re.compile(
    r"\b(?:not|no|never|without|disabled?|optional(?:ly)?|unless|if|uncomment\w*|comment(?:ed)?[ \t]+out"
    r"|to[ \t]+enable|can[ \t]+be[ \t]+(?:enabled|added|installed)|yourself|manually|build[- ]?args?"
    r"|host|future|planned|todo|soon|removed|deprecated|previous(?:ly)?|used[ \t]+to|was|were)\b"
    r"|--build-arg|n't\b",
    re.IGNORECASE,
)
"""Words making a sentence no promise of what the image as built holds: absent, optional, for the
reader to switch on, the host's, past or to come."""
_NAME = re.compile(r"(?<![\w/.@-])(?:[A-Z][\w+]*[A-Za-z0-9+]|[a-z][a-z0-9]+(?:-[a-z0-9]+)+)(?![\w/@-])")
"""A word that reads as a product's name: capitalised (`Tensorflow`, `TFLearn`, `Keras`) or a
hyphenated lower-case name (`code-server`)."""
_NOT_NAMES = frozenset(
    {"docker", "dockerfile", "image", "images", "container", "containers", "the", "this", "that", "it"}
    | {"a", "an", "and", "or", "with", "for", "gpu", "gpus", "cpu", "nvidia", "amd", "intel", "linux"}
    | {"ubuntu", "debian", "python", "python3", "pip", "git", "bash", "option", "options", "support"}
    | {"version", "versions", "license", "build", "status", "ci", "pulls", "stars", "release", "ready"}
    | {"platform", "made", "powered", "use", "using", "run", "runs", "see", "note", "base", "latest"}
)
"""Words that name no component a commented-out install could be the only one of."""
_INSTALLING = ("install", "build", "make", "setup")
"""`raw_name` words of a command that installs (the line to show first), not one that enters or fetches."""
_BADGE = re.compile(r"img\.shields\.io/badge/([^/?#\s()\"'<>]+)")
_BADGE_VERSION = re.compile(r"\A[vV]?\d")
_BASE_SAYS = re.compile(r"\bbase\b|\bparent\b|\binherit", re.IGNORECASE)
"""Words saying the base image brings a component (`TensorFlow comes from the base image`)."""


def _badge_label(path: str) -> tuple[str, str]:
    """(label, message) of a shields.io static badge path (`code--server-4.2-blue`: `--` a dash, `__` an
    underscore); the message is '' for a two-part badge (`code--server-blue`)."""
    escaped = urllib.parse.unquote(path).replace("--", "\0").replace("__", "\1")
    parts = [p.replace("\0", "-").replace("\1", "_").strip() for p in escaped.split("-")]
    if len(parts) == 3:
        return parts[0], parts[1]
    return (parts[0], "") if len(parts) == 2 else ("", "")


def promised(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, name) of each component a sentence (`an image with Tensorflow, with the option to
    use Keras or TFLearn`) or an unversioned shields.io badge (`code--server-VS Code-blue`) says the image
    has."""
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            line = line_at(para.lines, start)
            for badge in _BADGE.finditer(sentence):
                label, message = _badge_label(badge.group(1))
                if label and label.lower() not in _NOT_NAMES and not _BADGE_VERSION.match(message):
                    yield line, label
            if _NOT_PROMISED.search(sentence):
                continue
            # Each promise reads up to the end of the next one: the words after that are the next
            # promise's too, read once, not once for each promise before them.
            promises = [m for m in _PROMISE.finditer(sentence) if not is_example(sentence, m)]
            told: set[str] = set()
            for index, match in enumerate(promises):
                after = promises[index + 1].end() if index + 1 < len(promises) else len(sentence)
                said = plain(sentence[match.end() : after])
                said = said[: end.start()] if (end := _CLAUSE_END.search(said)) else said
                for name in _NAME.finditer(said):
                    if name.group().lower() in _NOT_NAMES or _VERSION_AFTER.match(said, name.end()):
                        continue
                    if name.group() not in told:
                        told.add(name.group())
                        yield line, name.group()


_VERSION_AFTER = re.compile(r"[ \t]*v?\d+(?:\.\d+)")
"""A version after a name (`Keras 2.1`): a version claim, compared elsewhere."""
_CLAUSE_END = re.compile(
    r"\b(?:so|to|that|which|where|when|in|on|for|from|via|by|using|if|while|because|than)\b|[;:(]",
    re.IGNORECASE,
)
"""Where the words a promise is about end (`an image with Jupyter, so that you can run it in Chrome`)."""


def base_sayings(doc: Document) -> str:
    """The sentences of the README saying something comes with the base image (`_BASE_SAYS`), as
    `raw_name` text, one a line: read once a README, whatever the number of components it promises."""
    return "\n".join(
        raw_name(sentence)
        for para in doc.paragraphs
        for _, _, sentence in sentences(para.lines)
        if _BASE_SAYS.search(sentence)
    )


@per_audit(maxsize=32)
def _base_comments(file: str) -> str:
    """The comments of the Dockerfile at `file` that say something comes with the base image (`# keras
    comes with the base image`; not a commented-out instruction), as `raw_name` text, one a line."""
    read = dockerfile_read(file)
    if read is None:
        return ""
    return "\n".join(
        raw_name(line)
        for line in read[0].splitlines()
        if line.lstrip().startswith("#") and not _COMMENTED.match(line) and _BASE_SAYS.search(line)
    )


def _given_to_base(sayings: str, model: ImageModel, spellings: set[str]) -> bool:
    """True when the README (`sayings`: its sentences naming a base, `base_sayings`) or a comment of
    the Dockerfile (`# keras comes with the base image`) names the component next to its base image."""
    comments = _base_comments(model.file) if model.file else ""
    return any(s in sayings or s in comments for s in spellings)


def _install_commented_out(model: ImageModel, spellings: set[str]) -> int | None:
    """The line of the first commented-out RUN naming a component under one of `spellings` when no live
    instruction of `model` installs it (a clone of its source installs nothing: `install_text` without
    fetches), no copied build-context file names it, no script docgen cannot read may bring it and no base
    is known to carry it; None otherwise."""
    if not model.file or copied_context(model)[1] or base_holds(model, spellings, strict=False):
        return None
    if any(s in install_text(model, fetches=False) for s in spellings):
        return None
    hits = [
        (not any(w in text for w in _INSTALLING), n)
        for n, text, run in _commented_out(model.file)
        if run and any(s in text for s in spellings)
    ]
    return min(hits)[1] if hits else None


def disabled_promises(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A component a sentence or a badge says the image has (`promised`) whose only install in every
    Dockerfile compared is a commented-out RUN (`_install_commented_out`), whatever its base (a base
    docgen does not know is no reason to stay silent: the Dockerfile meant to install it), unless the
    README or the Dockerfile says the base brings it (`likely`)."""
    models = [m for m in auditor.models if m.file]
    if not models or len(models) != len(auditor.models):
        return
    sayings: str | None = None
    for line, name in promised(doc):
        spellings = {raw_name(name)} | (found[1] if (found := item_component(f"- {name}")) else set())
        spellings = {s for s in spellings if len(s) > 2}
        if not spellings:
            continue
        where = [_install_commented_out(m, spellings) for m in models]
        if not all(n is not None for n in where):
            continue
        sayings = base_sayings(doc) if sayings is None else sayings
        if not any(_given_to_base(sayings, m, spellings) for m in models):
            yield Diagnostic(
                auditor.path,
                line,
                f"README says the image has {name}, but {models[0].path} installs no {name}: its install "
                f"is commented out ({models[0].path}:{where[0]})",
                confidence=LIKELY,
            )


# --------------------------------------------------------------------------------------------------
# A model the README says the image holds, whose only download is commented out

_PRELOADED = re.compile(
    r"\bpre-?(?:download|load|fetch|bak)\w*|\bbaked[ \t]+in|\b(?:image|container|dockerfile)s?\b[^.;:]{0,40}?"
    r"\b(?:includes|contains|bundles|ships[ \t]+with|comes[ \t]+with)\b",
    re.IGNORECASE,
)
"""Words saying the image holds what follows already: `pre-downloads`, `a pre-downloaded model`, `baked
in`, `The container includes`."""
_MODEL_WORD = re.compile(r"\b(?:models?|weights|checkpoints?|ckpts?)\b", re.IGNORECASE)
_AT_RUN_TIME = re.compile(
    r"\b(?:at|on)[ \t]+(?:the[ \t]+)?(?:first[ \t]+)?(?:run|start|startup|launch|use)\b|\bruntime\b"
    r"|\brun[ \t]+time\b"
    r"|\bwhen[ \t]+(?:the[ \t]+)?(?:container|image|server)[ \t]+(?:starts|runs|is[ \t]+started)"
    r"|\bmount\w*|\bvolumes?\b|\bhost\b",
    re.IGNORECASE,
)
"""Words placing a model outside the image built: fetched when the container starts, or mounted."""
_MODEL_FETCH = (
    "huggingfacecli",
    "hfdownload",
    "snapshotdownload",
    "hfhubdownload",
    "frompretrained",
    "huggingfaceco",
    "ollamapull",
    "modelscope",
    "downloadmodel",
    "safetensors",
    "gguf",
    "ckpt",
    "gitlfs",
)
"""`raw_name` words of a command that fetches a model (`huggingface-cli download`, `snapshot_download`,
`hf_hub_download`, a `…/resolve/main/x.safetensors` URL, `ollama pull`, `git lfs`)."""
_MODEL_PATH = re.compile(r"model|weight|checkpoint|ckpt", re.IGNORECASE)


def _model_download_disabled(model: ImageModel) -> int | None:
    """The line of the first commented-out RUN of `model` that fetches a model (`_MODEL_FETCH`), when no
    live instruction does (a RUN, a copied build-context file, the ENTRYPOINT or CMD), no COPY or ADD
    brings a models folder, and no script docgen cannot read may fetch one; None otherwise."""
    if not model.file or copied_context(model)[1]:
        return None
    read = dockerfile_read(model.file)
    if read is None:
        return None
    live = (
        install_text(model)
        + " "
        + " ".join(raw_name(i.args) for i in read[1].instructions if i.keyword in ("ENTRYPOINT", "CMD"))
    )
    if any(word in live for word in _MODEL_FETCH):
        return None
    for inst in read[1].instructions:
        if inst.keyword in ("COPY", "ADD") and _MODEL_PATH.search(inst.args):
            return None  # the model comes from the build context
    hits = [n for n, text, run in _commented_out(model.file) if run and any(w in text for w in _MODEL_FETCH)]
    return min(hits) if hits else None


def disabled_downloads(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying the image holds a model already (`The container includes a pre-downloaded 1.3B
    model`, `pre-downloads the T2V-1.3B model`) while the only model download of every Dockerfile
    compared is a commented-out RUN (`_model_download_disabled`) (`likely`), told once, at the first
    such sentence. Not a sentence placing the model outside the image (fetched at start, mounted from
    the host), nor one saying it is optional or to uncomment (`_NOT_PROMISED`)."""
    models = [m for m in auditor.models if m.file]
    if not models or len(models) != len(auditor.models):
        return
    lines: list[int] = []
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            said = _PRELOADED.search(sentence)
            if (
                said is not None
                and _MODEL_WORD.search(sentence)
                and not _AT_RUN_TIME.search(sentence)
                and not _NOT_PROMISED.search(sentence)
                and not is_example(sentence, said)
            ):
                lines.append(line_at(para.lines, start))
    if not lines:
        return
    where = [_model_download_disabled(m) for m in models]
    if any(n is None for n in where):
        return
    yield Diagnostic(
        auditor.path,
        lines[0],
        f"README says the image holds a model already, but {models[0].path} downloads none: its model "
        f"download is commented out ({models[0].path}:{where[0]}){also_at(lines)}",
        confidence=LIKELY,
    )


# --------------------------------------------------------------------------------------------------
# A package source the README names whose only use in the Dockerfile is commented out

_PPA_SAID = re.compile(
    r"\b(?:from|via|through|using|out[ \t]+of)[ \t]+(?:the[ \t]+)?[`*_]{0,2}"
    r"(?:ppa:([a-z0-9][\w.+-]*)/[\w.+-]+|([a-z0-9][\w.+-]*)/ppa\b|([a-z0-9][\w.+-]*)[`*_]{0,2}[ \t]+PPA\b)",
    re.IGNORECASE,
)
"""A Launchpad PPA named as where something comes from, by its owner: `(from deadsnakes/ppa)`, `from
the deadsnakes PPA`, `via ppa:deadsnakes/ppa`."""
_NOT_A_SOURCE = re.compile(
    r"\b(?:if|unless|when|optional(?:ly)?|instead|alternative(?:ly)?|can|could|may|might|you|your"
    r"|needed|older|previous(?:ly)?|used[ \t]+to|was|were|no[ \t]+longer|not|no|never|uncomment\w*"
    r"|e\.g|example|host)\b",
    re.IGNORECASE,
)
"""Words making a named source a choice, a condition, the past or the host's, not the image's."""
_NOT_OWNERS = frozenset({"the", "a", "an", "official", "ubuntu", "launchpad", "this", "that", "our", "own"})
_PPA_ADDED = (
    r"(?:add-apt-repository|apt-add-repository)\b[^\n]*\bppa:{owner}/"
    r"|\bdeb\b[^\n]*\bppa\.launchpad(?:content)?\.net/~?{owner}/"
)
"""A command that adds the PPA of `{owner}`: `add-apt-repository ppa:deadsnakes/ppa`, or a sources-list
line `deb http://ppa.launchpad.net/deadsnakes/ppa/ubuntu …`."""


def _ppa_claims(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(README line, owner, words as written) of each PPA a sentence, list item or table row names as
    where something of the image comes from, not as a choice or a condition (`_NOT_A_SOURCE`)."""
    texts: list[tuple[int, str]] = []
    for para in doc.paragraphs:
        texts += [(line_at(para.lines, start), sentence) for start, _, sentence in sentences(para.lines)]
    for table in doc.tables:
        texts += [(line, " | ".join(cells)) for line, cells in table.rows]
    for line, text in texts:
        if "ppa" not in text.lower() or _NOT_A_SOURCE.search(text):
            continue
        for match in _PPA_SAID.finditer(text):
            owner = next(group for group in match.groups() if group)
            if owner.lower() not in _NOT_OWNERS and len(owner) > 2 and not is_example(text, match):
                yield line, owner, match.group().strip()


def _ppa_commented_out(model: ImageModel, owner: str) -> tuple[int, str] | None:
    """(line, command) of the first comment of the Dockerfile of `model` that is a command adding the PPA
    of `owner` (`#    && add-apt-repository ppa:deadsnakes/ppa`, inside a RUN or an instruction set
    aside), when no live instruction, copied build-context file or base may bring it: nothing live names
    `owner` (a download piped into a shell neither), no shell script docgen cannot read runs, and every
    base the image starts from is a plain OS or language image or one known to ship no Python (a
    vendor's image may carry the PPA). None otherwise."""
    if not model.file or copied_context(model, strict=False)[1]:
        return None  # (a download piped into a shell that adds the PPA names it: `install_text` below)
    roots = [stage.base for stage in model.chain() if stage.parent is None]
    if not roots or not all(
        base and "$" not in base and (is_plain(base) or lacks_python(base)) for base in roots
    ):
        return None
    if raw_name(owner) in install_text(model):
        return None
    read = dockerfile_read(model.file)
    if read is None:
        return None
    return _commented_ppas(read[0]).get(owner.lower())


_ADDED_OWNER = re.compile(r"\bppa:([^\s/]+)/|\bppa\.launchpad(?:content)?\.net/~?([^\s/]+)/", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def _commented_ppas(text: str) -> dict[str, tuple[int, str]]:
    """The owner (lower-cased) of each PPA a comment of the Dockerfile `text` adds (`_PPA_ADDED`) →
    (line, command) of its first such comment. One walk of the comments for all the PPAs a README
    names, not one a PPA."""
    found: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if not stripped.startswith("#") or "ppa" not in stripped.lower():
            continue
        owners = {
            owner.lower()
            for match in _ADDED_OWNER.finditer(stripped)
            if (owner := match.group(1) or match.group(2))
        }
        for owner in owners - found.keys():
            added = re.compile(_PPA_ADDED.format(owner=re.escape(owner)), re.IGNORECASE)
            if (hit := added.search(stripped)) is not None:
                found[owner] = number, clipped(stripped[hit.start() :].rstrip(" \\").split("&&")[0].strip())
    return found


def disabled_sources(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A PPA the README names as where something of the image comes from (`Python 3.12 (from
    deadsnakes/ppa)`, `_ppa_claims`) that every Dockerfile compared adds only in a comment
    (`_ppa_commented_out`): the packages come from the distribution's own archive (`likely`)."""
    models = [m for m in auditor.models if m.file]
    if not models or len(models) != len(auditor.models):
        return
    for line, owner, said in _ppa_claims(doc):
        where = [w for m in models if (w := _ppa_commented_out(m, owner)) is not None]
        if len(where) != len(models):
            continue
        at, command = where[0]
        yield Diagnostic(
            auditor.path,
            line,
            f"README says `{said}` but {models[0].path}:{at} adds the {owner} PPA only in a comment "
            f"(`{command}`) and no live line uses it: what the image installs comes from the "
            f"distribution's own archive",
            confidence=LIKELY,
        )
