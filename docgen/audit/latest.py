"""Components a README says the image has at their newest release (`- JupyterLab (latest)`, `JupyterLab:
latest`, `the latest JupyterLab`) while the build pins them exactly (`jupyterlab==4.4.3` in the
pyproject.toml `uv pip install .` installs, `ARG TORCH_VERSION=2.7.1`): the image holds that release,
newest or not, until the pin changes. `likely`: the README may mean "the latest when the pin was set".
Silent when the README names the build arg holding the pin (`OLLAMA_VERSION - Ollama version to
build`): the release is the reader's to set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, Fact
from docgen.audit.coverage import unread_args
from docgen.markdown import Document
from docgen.model import Diagnostic

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
