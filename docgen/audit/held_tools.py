"""An installer the README says the image holds (`The container includes uv package manager for fast
installations:`, then `uv pip install …` to run in it), or says its build uses (`Multi-stage Docker build
with uv package manager`, `**Package Manager**: uv` beside the base image), that nothing of the image
installs, on a base docgen knows comes without it (a plain OS, language or CUDA image): the commands fail
in the container with `uv: command not found`, and the build installs with another tool.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import MAYBE, built_bases, copied_context
from docgen.audit.devcontainers import devcontainer_names
from docgen.audit.methods import TOOLS
from docgen.audit.provides import NEGATED, REQUIRED
from docgen.audit.wording import line_at, sentences
from docgen.base_contents import carries
from docgen.copied import copied_texts
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_HOLDS = re.compile(
    r"\b(?:image|container)s?\b[^.;:]{0,40}?\b(?:includes|contains|provides|bundles|has"
    r"|comes[ \t]+with|ships(?:[ \t]+with)?)[ \t]+(?:the[ \t]+|an?[ \t]+)?[`*]{0,2}(?P<tool>[a-z]+)[`*]{0,2}"
    r"(?![\w-]|\.\w)",
    re.IGNORECASE,
)
"""`The container includes uv`, `this image comes with `conda``: the installer the image is said to hold,
right after the word that says so."""


_BROUGHT_WITH = {
    "conda": ("miniconda", "miniforge", "mambaforge", "anaconda"),
    "mamba": ("miniforge", "mambaforge"),
    "npm": ("node", "nodejs"),
    "cargo": ("rustup",),
}
"""Installers a distribution of another name brings (Miniforge's installer puts conda and mamba in the
image, Node.js npm, rustup cargo): a Dockerfile naming one of those may hold the installer."""


def _word(tool: str) -> re.Pattern[str]:
    """The installer's name as a word of a command or path (`uv pip`, `astral-sh/uv:0.5`, `/uv`), not
    inside another name (`uvicorn`, `UV_SYSTEM_PYTHON`), or the start of a word naming what brings it
    (`_BROUGHT_WITH`: `Miniforge3-Linux-x86_64.sh` for conda)."""
    brought = "".join(f"|(?<![\\w.-]){re.escape(name)}" for name in _BROUGHT_WITH.get(tool, ()))
    return re.compile(rf"(?<![\w.-]){re.escape(tool)}(?![\w-]){brought}", re.IGNORECASE)


@functools.lru_cache(maxsize=32)
def _written(model: ImageModel) -> str:
    """What the image's Dockerfile says, comments dropped, and the build-context files it copies: where
    an install of the installer would show (`pip install uv`, `COPY --from=ghcr.io/astral-sh/uv …`,
    `curl -LsSf https://astral.sh/uv/install.sh | sh`, a copied script that installs it)."""
    read = dockerfile_read(model.file)
    if read is None:
        return ""
    _, parsed = read
    texts = [f"{i.keyword} {i.args}" for i in parsed.instructions]
    copied = copied_texts(model.file, model.context_copies)
    texts += [text for _, text in copied[0]] if copied is not None else []
    return "\n".join(texts)


def _lacks(model: ImageModel, tool: str) -> bool:
    """True when `model` cannot hold `tool`: docgen reads all it runs and installs, none of it names the
    installer, and each base it is built on is known to come without it (`base_contents.carries`)."""
    _, run_unread, packages_unread = copied_context(model)
    if run_unread or packages_unread or _word(tool).search(_written(model)):
        return False
    if devcontainer_names(model.file, frozenset({tool, *_BROUGHT_WITH.get(tool, ())})):
        return False  # a dev container feature or command may add it
    bases = built_bases(model)
    return bool(bases) and all(carries(s.base, [TOOLS[tool]]) is False for s in bases)


_TOOL = r"(?:\[[`*]{0,2}([a-z]+)[`*]{0,2}\]\([^()\s]{0,300}\)|[`*]{0,2}([a-z]+)[`*]{0,2}(?![\w-]|\.\w))"
"""An installer's name as a README writes it: plain, in code or bold, or a link's text (`[uv](…)`)."""
_USES = re.compile(
    r"\b(?:uses|using|via|thanks[ \t]+to|powered[ \t]+by)[ \t]+(?:the[ \t]+)?"
    + _TOOL
    + r"|\b(?:built|installed|managed|builds?|installs|manages)[ \t]+(?:\w+[ \t]+){0,2}?with[ \t]+"
    + r"(?:the[ \t]+)?"
    + _TOOL
    + r"|\bwith[ \t]+(?:the[ \t]+)?"
    + _TOOL
    + r"[ \t]+(?:package[ \t]+manager|installer)\b",
    re.IGNORECASE,
)
"""Words saying the build installs with an installer: `Docker build with uv package manager`, `build
speed (using uv)`, `faster package installation … thanks to uv`, `built with conda`."""
_LABELLED = re.compile(
    r"\A[ \t]*(?:[-*+]|\d{1,9}[.)])?[ \t]*[*_]{0,2}(?:python[ \t]+)?(?:package|dependency|environment)"
    r"[ \t]+(?:manager|management)[*_]{0,2}[ \t]*:[*_]{0,2}[ \t]*" + _TOOL,
    re.IGNORECASE,
)
"""A list item labelling the installer (`- **Package Manager**: uv (Rust-based …)`)."""
_ABOUT_IMAGE = re.compile(r"\b(?:image|container|docker|dockerfile|build|builds|built)\b", re.IGNORECASE)
"""Words making a sentence about the image and its build, not the project or the reader's machine."""
_IMPERATIVE = re.compile(
    r"\A[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:[*_]{2}[^*_]{1,60}[*_]{2}:?[ \t]*)?"
    r"(?:install|run|use|build|create|set|add|sync|execute|make|clone|activate|type|open|manage|update)\b",
    re.IGNORECASE,
)
"""A sentence telling the reader what to do (`Install the dependencies using uv`): not what the image is."""


def _said(match: re.Match[str]) -> str:
    """The installer a `_USES` or `_LABELLED` match names (the group of its alternative that took part)."""
    return next((group for group in match.groups() if group), "").lower()


def held_tool_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence saying the image includes, contains, provides or comes with an installer (`uv`,
    `conda`, `poetry` …), and the sentences saying its build uses one (`_USES`, about the image or its
    build; a `Package manager: uv` item of a list about the image), that no image compared installs,
    each read whole and built on bases known to lack it (`likely`): one finding for the first sentence
    saying the image includes it, one for those saying the build uses it."""
    models = auditor.models
    if not models or not all(m.file for m in models):
        return
    held: dict[str, list[int]] = {}
    used: dict[str, list[int]] = {}
    for para in doc.paragraphs:
        about = _ABOUT_IMAGE.search(f"{para.heading} {para.before}") or any(
            _ABOUT_IMAGE.search(text) for _, text in para.lines
        )
        for start, _, sentence in sentences(para.lines):
            if NEGATED.search(sentence) or MAYBE.search(sentence):
                continue
            line = line_at(para.lines, start)
            match = _HOLDS.search(sentence)
            if match is not None and not REQUIRED.search(sentence, 0, match.start()):
                held.setdefault(match.group("tool").lower(), []).append(line)
                continue
            if _IMPERATIVE.match(sentence) or REQUIRED.search(sentence):
                continue
            labelled = _LABELLED.match(sentence) if about else None
            uses = _USES.search(sentence) if _ABOUT_IMAGE.search(sentence) else None
            for found in (labelled, uses):
                if found is not None:
                    used.setdefault(_said(found), []).append(line)
                    break
    lacking = functools.cache(lambda tool: tool in TOOLS and all(_lacks(m, tool) for m in models))
    base = built_bases(models[0])[0].base if built_bases(models[0]) else ""
    for tool, lines in held.items():
        if lacking(tool):
            said = (
                f"README says the image includes {tool} but {models[0].path} installs no {tool}, "
                f"and its base {base} comes without it"
            )
            yield Diagnostic(auditor.path, lines[0], said, confidence=LIKELY)
    for tool, lines in used.items():
        if lacking(tool):
            others = sorted(set(lines[1:]) - {lines[0]})
            also = (
                f"; also at line{'s' if len(others) > 1 else ''} {', '.join(map(str, others))}"
                if others
                else ""
            )
            said = (
                f"README says the image is built using {tool} but {models[0].path} installs no {tool}"
                f"{_installed_with(models[0])}, and its base {base} comes without it{also}"
            )
            yield Diagnostic(auditor.path, lines[0], said, confidence=LIKELY)


def _installed_with(model: ImageModel) -> str:
    """` (it installs its packages with pip)` when the image installs Python packages, all with pip."""
    kinds = {c.kind for c in model.components if c.kind in ("pip", "conda")}
    return " (it installs its Python packages with pip)" if kinds == {"pip"} else ""
