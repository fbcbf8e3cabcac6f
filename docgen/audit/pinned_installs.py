"""Claims that the image's build installs a package at a pinned version (`The image installs
`httpx==0.27.0``, `自动安装 `torch_npu==2.6.0``), against the installs of the Dockerfile: a package
nothing installs, on a base that brings nothing, is not in the image as said.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.contents import (
    CHMOD,
    LISTS,
    LOCAL_PROJECT,
    PIPED,
    RUNS_FILE,
    final_components,
    installed_under,
    installs_local,
)
from docgen.audit.paths import variant
from docgen.audit.versions import raw_name
from docgen.audit.wording import is_example
from docgen.base_contents import is_plain
from docgen.model import Diagnostic, ImageModel

_PINNED = re.compile(r"(?<![\w.-])`?([A-Za-z][\w.-]*[A-Za-z0-9])==(\d[\w.+!-]*[\w+])`?")
"""A package at a pinned version, as pip writes it: `torch_npu==2.6.0.post3`."""
_INSTALLS = re.compile(
    r"\b(?:installs|installed|includes|included|ships|bundles|pre-?installed|comes[ \t]+with|contains)\b"
    r"|安装|包含|预装|内置|自带|インストール|同梱",
    re.IGNORECASE,
)
"""Words saying the image holds what follows: `installs`, `includes`, `自动安装`, `包含`."""
_NOT_THE_IMAGE = re.compile(
    r"\b(?:you|your|yourself|manually|optional(?:ly)?|if|unless|need|needs|requires?|host|not|no|never)\b"
    r"|\b(?:pip3?|uv|conda|mamba|poetry)[ \t]+(?:pip[ \t]+)?(?:install|add)\b|--build-arg"
    r"|手动|自行|可选|需要|如需|请|未|不|没有",
    re.IGNORECASE,
)
"""Words making the line about the reader, an option, a command to type or an absence, not what the
build installs (`install `foo==1.0` yourself`, `` run `pip install foo==1.0` ``, `不包含`)."""


def pinned_install_claims(line: int, text: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A `name==version` the line says the image installs (`_INSTALLS`) that no Dockerfile compared
    installs under that name, when docgen reads every install of it (no script run, package list,
    local project or download piped into a shell) and its bases bring nothing (`bare_base`)
    (`likely`)."""
    if "==" not in text or not _INSTALLS.search(text) or _NOT_THE_IMAGE.search(text):
        return
    for match in _PINNED.finditer(text):
        name, version = match.group(1), match.group(2)
        if is_example(text, match):
            continue
        spellings = installed_under(name) | {raw_name(name)}
        if auditor.models and all(
            _lacks(model, spellings) and not _built_by_another(model, auditor) for model in auditor.models
        ):
            model = auditor.models[0]
            said = (
                f"README says the image installs {name}=={version} but nothing in {model.path} installs "
                f"{name} (built on {_root_bases(model)})"
            )
            yield Diagnostic(auditor.path, line, said, confidence=LIKELY)


def _lacks(model: ImageModel, spellings: set[str]) -> bool:
    """True when the image of `model` installs nothing under `spellings` (normalised names), docgen reads
    all it installs and every base it starts from brings nothing (`bare_base`)."""
    if not model.file or model.unread:
        return False
    if any(c.method in ("requirements", "script") for c in model.components):
        return False
    roots = [s.base for s in model.stages if s.parent is None]
    if not roots or not all(bare_base(base) for base in roots):
        return False
    for comp in final_components(model):
        if (installed_under(comp.name) | {raw_name(comp.name)}) & spellings:
            return False
    read = dockerfile_read(model.file)
    if read is None:
        return False
    for inst in read[1].instructions:
        if inst.keyword not in ("RUN", "ARG", "ENV"):
            continue
        body = inst.body
        if any(s in raw_name(body) for s in spellings):
            return False  # named by an install docgen may not read as a component
        if inst.keyword == "RUN" and _runs_unread(body):
            return False
    return True


def _runs_unread(body: str) -> bool:
    """True when a RUN's `body` may install what docgen does not read: a file it runs (`bash
    install.sh`, `./setup.py`), a list of packages (`pip install -r F`), a local project (`pip install
    -e .`) or a download piped into a shell."""
    if PIPED.search(body) or LOCAL_PROJECT.search(body) or installs_local(body) or LISTS.search(body):
        return True
    return RUNS_FILE.search(CHMOD.sub("", body)) is not None


def bare_base(base: str) -> bool:
    """True for a base image that brings no package a README would name: a plain OS or language image
    (`ubuntu`, `python:3.12-slim`), or a bare local name no registry or owner holds (`myproj-base:latest`,
    an image the project builds itself). A base given by a build arg (`${BASE}`) is unknown."""
    if not base or "$" in base:
        return False
    if is_plain(base):
        return True
    name = base.split("@", 1)[0]
    repo = name.rsplit(":", 1)[0] if ":" in name.rsplit("/", 1)[-1] else name
    return "/" not in repo and repo.lower() != "scratch"


def _built_by_another(model: ImageModel, auditor: Auditor) -> bool:
    """True when a base `model` starts from may be the image another Dockerfile of the README builds
    (its bake name, its folder's or variant's name or a part of it: `rover-base` for `base/Dockerfile`),
    which may install what this one does not."""
    others = [m for m in auditor.family if m.path != model.path]
    for stage in model.stages:
        if stage.parent is not None or "/" in stage.base:
            continue
        repo = stage.base.split("@", 1)[0].rsplit(":", 1)[0].lower()
        for other in others:
            names = {(other.image_name or "").rsplit(":", 1)[0].lower(), variant(other.path) or ""}
            names.add(PurePosixPath(other.path).parent.name.lower())
            if repo in names or names & set(re.split(r"[-_.]", repo)) - {""}:
                return True
    return False


def _root_bases(model: ImageModel) -> str:
    """The images `model`'s stages start from, joined with `, `."""
    return ", ".join(dict.fromkeys(s.base for s in model.stages if s.parent is None))
