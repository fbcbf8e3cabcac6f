"""Components a README says the image has at their newest release (`- JupyterLab (latest)`, `JupyterLab:
latest`, `the latest JupyterLab`) while the build pins them exactly (`jupyterlab==4.4.3` in the
pyproject.toml `uv pip install .` installs, `ARG TORCH_VERSION=2.7.1`): the image holds that release,
newest or not, until the pin changes. `likely`: the README may mean "the latest when the pin was set".
Silent when the README names the build arg holding the pin (`OLLAMA_VERSION - Ollama version to
build`): the release is the reader's to set.

Build args a README says leave the build at the latest release when they are not set, while the
Dockerfile pins them (`latest_args`): `This will either be the latest release or the version set through
--build-arg=HEAT_VERSION=1.2.0`, `By default the newest version of the SDK is installed; pass
SDK_VERSION to pin one`, against `ARG HEAT_VERSION=1.2.0`. A build that does not set the arg gets the
pinned default, never a newer release.

Read: the sentences of the README's paragraphs and list items that speak of the latest (newest, most
recent) release, version, tag or commit, say how a build goes without the arg (`by default`, `either …
or`, `unless`, `otherwise`, `if not set`, `when omitted`, `without`) and name exactly one build arg
an audited Dockerfile declares and reads. Told when every declaration of the arg has a known default
that is a pinned version (digits in it; not `latest`, `main`, `nightly` …) that the paragraph does not
write out (`the latest release (1.2.0) by default` says the pin). `likely`: the pin may have been the
latest release when the README was written, but the build will not follow newer ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.auditor import LIKELY, Auditor, Fact
from docgen.audit.coverage import unread_args
from docgen.audit.wording import claims_said
from docgen.markdown import Document, code_spans
from docgen.model import ArgDecl, Diagnostic, ImageModel

_LATEST = re.compile(
    r"(?<![\w.+/:-])([A-Za-z][\w.+-]{1,40}?)[*_`]{0,2}[ \t]*"
    r"(?:\([ \t]*(?:the[ \t]+)?latest(?:[ \t]+(?:version|release|stable))?[ \t]*\)"
    r"|:[ \t]*[*_`]{0,2}latest(?:[ \t]+(?:version|release))?[*_`]{0,2}[ \t]*(?:$|[,;.]))"
    r"|\b(?:the[ \t]+)?latest[ \t]+(?:version[ \t]+of[ \t]+|release[ \t]+of[ \t]+)?[*_`]{0,2}"
    r"([A-Z][\w.+-]{1,40})",
    re.IGNORECASE,
)
"""A name said to be at its newest release: `JupyterLab (latest)`, `PyTorch: latest`, `latest
JupyterLab`, `the latest version of vLLM` (a capitalised name: `latest image` is no component)."""
_VERSION_IN_LINE = re.compile(r"\d+\.\d+")
"""A line that gives a version itself (`Latest PyTorch: uses PyTorch 2.5.1`) is read by the version rules."""
_PIN = re.compile(r"v?\d+(?:\.\d+)+(?:\+[\w.]+)?\Z")
"""A release pin (`4.4.3`, `2.7.0+cu128`); not an image tag (`25.10-py3`) or a file name."""
_TAG_WORD = re.compile(r":latest\b|\blatest[ \t]+(?:tag|image|build|commit|changes?)\b", re.IGNORECASE)
"""`image:latest`, `the latest tag`: about an image's tag, not a component's release."""


_ITEM_LATEST = re.compile(
    r"[ \t]*[-*+][ \t]+[*_`]{0,2}([A-Za-z][\w.+]{1,40}?)-latest[*_`]{0,2}[ \t]*\Z", re.I
)
"""A list item naming a component at its newest release the way its pinned neighbours name theirs
(`- libtorch-latest` beside `- ceres-2.1.0`)."""


def latest_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for each name a paragraph or list says is at its latest release while every pin the
    build has of it is exact (`==`, an ARG default, a clone at a tag), the first of them shown. A build
    arg nothing reads pins nothing (`coverage.unread_args`); a download named for the component
    (`libtorch-cxx11-abi-shared-with-deps-2.0.1%2Bcpu.zip` for libtorch) pins it."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "latest" not in text.lower() or _TAG_WORD.search(text) or _VERSION_IN_LINE.search(text):
                continue
            item = _ITEM_LATEST.match(text)
            names = [item.group(1)] if item else [(m.group(1) or m.group(2)) for m in _LATEST.finditer(text)]
            for name in (n.strip("*_`") for n in names):
                if name.lower() in ("version", "release", "the", "image", "container", "tag"):
                    continue
                facts = _pins(auditor, name)
                if not facts or not all(f.exact and _PIN.match(f.value) for f in facts):
                    continue
                fact = facts[0]
                if _names_release(doc, name, fact.value):
                    continue  # `Keras <small>(2.1.4)</small>` in the README's tag list: it says the release
                if _names_setting(doc, auditor, fact.value):
                    continue  # `OLLAMA_VERSION - Ollama version to build`: the release is the reader's to set
                message = (
                    f"README says {name} is the latest release but {auditor.where(fact)} pins {fact.shown}"
                )
                yield Diagnostic(auditor.path, line, message, confidence=LIKELY)


def _pins(auditor: Auditor, name: str) -> list[Fact]:
    """The pins of `name` (`Facts.lookup`) but those of build args nothing reads, after the exact versions
    of the downloads whose name starts with it and a dash (`libtorch-cxx11-abi-shared-with-deps`)."""
    idle = {
        (m.path, a.line)
        for m in auditor.models
        for a in m.args
        if a.name in unread_args(m, auditor.shared.lint)
    }
    facts = [f for f in auditor.facts.lookup(name, auditor.names) if (f.path, f.line) not in idle]
    prefix = f"{name.lower()}-"
    downloads = [
        Fact(c.version, f"{c.name} {c.version}", c.cited_line, model.path, exact=True)
        for model in auditor.models
        for c in model.components
        if c.kind == "download" and c.name.lower().startswith(prefix) and c.pinned and c.version
    ]
    return [*downloads, *facts]  # (what is downloaded is what the image holds)


def _names_release(doc: Document, name: str, value: str) -> bool:
    """True when a line of the README's prose or lists gives `name` the very release the build pins
    (`*Keras* <small>(2.1.4)</small>` in a list of image tags): the README says which release it calls the
    latest, the one it was written for, so the word is no claim the pin contradicts."""
    release = re.compile(r"(?<![\w.])v?" + re.escape(value.lstrip("v")) + r"(?![\w]|\.\d)")
    lowered = name.lower()
    return any(
        lowered in text.lower() and release.search(text) is not None
        for para in doc.paragraphs
        for _, text in para.lines
    )


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _names_setting(doc: Document, auditor: Auditor, value: str) -> bool:
    """True when the README names a build arg of an audited image that holds the pinned release `value`
    as its default and that an instruction reads (`ARG OLLAMA_VERSION=v0.12.6` under the README's
    "`OLLAMA_VERSION` - Ollama version to build", `--build-arg VLLM_VERSION=…`): the README tells the
    reader the release is theirs to set, so "latest" is what they pick, not a claim on the default."""
    bare = value.lstrip("vV")
    args = {
        a.name
        for m in auditor.models
        for a in m.args
        if a.used_lines and a.default is not None and a.default.strip("\"'").lstrip("vV") == bare
    }
    if not args:
        return False
    texts = [text for para in doc.paragraphs for _, text in para.lines]
    texts += [text for fence in doc.fences for _, text in fence.lines]
    texts += [cell for table in doc.tables for _, row in table.rows for cell in row]
    return any(word in args for text in texts for word in _WORD.findall(text))


_LATEST_UNSET = re.compile(
    r"\b(?:the[ \t]+)?(?:latest|newest|most[ \t]+recent)"
    r"(?:[ \t]+(?:stable|available|published|released|official|upstream|tagged|[A-Za-z][\w.+-]*))?"
    r"[ \t]+(?:releases?|versions?|tags?|commits?|revisions?|builds?)\b",
    re.IGNORECASE,
)
"""`the latest release`, `the newest version`, `the most recent PyPI release`, `latest heat release`."""
_UNSET = re.compile(
    r"\bby[ \t]+default\b|\bdefaults?\b|\beither\b|\bunless\b|\botherwise\b|\bwithout\b"
    r"|\b(?:if|when)[ \t]+(?:it[ \t]+is[ \t]+|they[ \t]+are[ \t]+)?(?:not|no|none|unset|omitted|left|empty)\b"
    r"|\bif[ \t]+(?:\S+[ \t]+){1,3}(?:is|are)[ \t]+(?:not|unset|omitted|empty)\b",
    re.IGNORECASE,
)
"""Words saying what a build does when the arg is not given."""
_HOST_RELEASE = re.compile(
    r"\b(?:Ubuntu|Debian|Alpine|CentOS|Rocky|Fedora|LTS|distro|OS|driver|drivers|docker|Docker[ \t]+Engine"
    r"|Compose|Podman|kernel)\b",
)
"""A sentence about the host's or the distribution's latest release, not the arg's."""
_FOLLOWING = re.compile(
    r"latest|nightly|main|master|head|stable|edge|rolling|dev|develop|trunk", re.IGNORECASE
)
"""Defaults that follow new releases."""
_A_DIGIT = re.compile(r"[0-9]")
_ARG_WORD = re.compile(r"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])")


def _pinned(decl: ArgDecl) -> bool:
    """True when `decl` has a known default that names one version (`1.2.0`, `v2.4`, a commit)."""
    value = decl.default
    return bool(value) and value is not None and bool(_A_DIGIT.search(value)) and not _FOLLOWING.search(value)


def _named(sentence: str, declared: dict[str, list[tuple[ImageModel, ArgDecl]]]) -> set[str]:
    """The declared args `sentence` names: in code, after `--build-arg`, or spelt like an arg (upper
    case, or with `_`) in words."""
    spans = [(start, end) for start, end, _ in code_spans(sentence)]
    found = set()
    for match in _ARG_WORD.finditer(sentence):
        name = match.group(0)
        if name not in declared:
            continue
        coded = any(start <= match.start() < end for start, end in spans)
        if coded or "_" in name or name.isupper():
            found.add(name)
    return found


def latest_args(doc: Document, models: Sequence[ImageModel], path: str) -> Iterator[Diagnostic]:
    """A README sentence saying a build without the arg takes the latest release, of an arg whose every
    declaration pins a version the paragraph does not write (`likely`)."""
    declared: dict[str, list[tuple[ImageModel, ArgDecl]]] = {}
    for model in models:
        for decl in model.args:
            declared.setdefault(decl.name, []).append((model, decl))
    if not declared:
        return
    told: set[str] = set()
    for line, claim in claims_said(doc, _LATEST_UNSET, _HOST_RELEASE):
        sentence = claim.string
        if not _UNSET.search(sentence):
            continue
        names = _named(sentence, declared)
        if len(names) != 1:
            continue
        name = names.pop()
        decls = declared[name]
        if name in told or not all(_pinned(d) for _, d in decls):
            continue
        if not any(d.used_lines for _, d in decls):
            continue  # (an arg nothing reads is `idle`'s)
        defaults = {d.default for _, d in decls if d.default}
        paragraph = next((p for p in doc.paragraphs if any(at == line for at, _ in p.lines)), None)
        text = " ".join(t for _, t in paragraph.lines) if paragraph is not None else sentence
        text = re.sub(
            rf"{re.escape(name)}[ \t]*=[ \t]*\S+", " ", text
        )  # (`--build-arg NAME=1.2.0` offers it)
        if any(value in text for value in defaults):
            continue
        told.add(name)
        written = [(m, d) for m, d in decls if d.raw_default is not None] or decls
        model, decl = min(written, key=lambda md: md[1].line)
        yield Diagnostic(
            path,
            line,
            f"README says a build that does not set {name} takes {claim.group(0).strip()}, but "
            f"{model.path}:{decl.line} gives {name} the default {decl.default}: such a build gets "
            f"{decl.default}, whatever the newest release is",
            confidence=LIKELY,
        )
