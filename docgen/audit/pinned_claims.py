"""A README sentence saying every dependency of the image is pinned (`All dependencies are pinned for
reproducibility`, `Pinned package versions`, `Versión fija de cada dependencia`, `所有依赖均固定版本`)
while the Dockerfile installs Python packages with no version (`pip install transformers peft`): the
build takes the newest release the day it runs, so the image is not the same twice.

Read only when docgen sees every install of the image's stages (`floating_pins.stage_installs`):

- the claim is about all of them: a word for the whole (`all`, `every`, `each`, `todas`, `所有`) or a
  plural with no name before it (`pinned versions`, `dependencies are pinned`); a claim about one
  component (`PyTorch is pinned to 2.3`, `the CUDA and PyTorch versions are pinned`) is not, nor one
  naming a file (`pinned in requirements.txt`, `poetry.lock`), nor one about the reader, an option, the
  future or an absence (`you should pin`, `not pinned`, `will be pinned`), nor system packages (`apt`);
- the Dockerfile names no constraints (`-c`, `PIP_CONSTRAINT`), no lock file, no install from a lock
  (`uv sync`, `poetry install`), no file of packages (`-r requirements.txt`, a copied `pyproject.toml`,
  `-e .`: the sentence may be about that file), no install script run or piped into a shell;
- a floating name is not a packaging tool (`pip`, `setuptools`, `wheel`, `uv`), not raised on purpose
  (`--upgrade`), not held by a bound in the same command, and not named in the base image (`pip install
  vllm` over `vllm/vllm-openai:v0.6.3` keeps the base's).

A changelog section is never read (`markdown` drops it). `likely`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.floating_pins import stage_installs
from docgen.audit.versions import raw_name
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_PINNED_WORD = r"(?:pinned|fixed|locked|frozen|version-locked)"
_WHOLE_NOUN = r"(?:dependenc(?:y|ies)|packages?|librar(?:y|ies)|requirements?|versions?|deps)"
_CLAIM = re.compile(
    # `all dependencies are pinned`, `every package version is fixed`, `each library pinned`
    rf"\b(?:all|every|each)[ \t]+(?:(?:python|pip|package|library|dependency|of[ \t]+the|the|its|our)[ \t]+)*"
    rf"{_WHOLE_NOUN}(?:[ \t]+{_WHOLE_NOUN})?[ \t]+"
    r"(?:(?:are|is|have[ \t]+been|has[ \t]+been|being|kept)[ \t]+)?"
    rf"(?:(?:all|strictly|explicitly|exactly)[ \t]+)?{_PINNED_WORD}\b"
    # `pinned versions`, `pinned dependencies`, `fixed package versions`, `locked Python dependencies`
    rf"|(?<![\w-])(?:(?:strictly|explicitly|fully|exactly)[ \t]+)?{_PINNED_WORD}[ \t]+"
    r"(?:(?:python|pip|package|library|dependency)[ \t]+)?"
    r"(?:versions|dependencies|packages|requirements|deps)\b"
    r"(?![ \t]+(?:of|for)[ \t]+"
    r"(?!(?:all|every|each|the[ \t]+(?:image|container|environment|build)|reproducib)))"
    # `dependencies are pinned`, `package versions are all fixed` (nothing named before: `_NAMED`)
    rf"|(?:^|(?<=[.!:;(*]))[ \t*_]*(?:(?:the|its|our|python|pip|package|library|dependency)[ \t]+)*"
    rf"(?:dependencies|packages|versions|requirements|libraries|deps)[ \t]+(?:(?:are|have[ \t]+been)[ \t]+)?"
    rf"(?:(?:all|strictly|explicitly|exactly)[ \t]+)?{_PINNED_WORD}\b"
    # Spanish: `versión fija de cada dependencia`, `versiones fijas`, `todas las dependencias fijadas`
    r"|\bversi[oó]n(?:es)?[ \t]+(?:fijas?|fijadas?|bloqueadas?)[ \t]+(?:de|para)[ \t]+(?:cada|todas)\b"
    r"|\bversiones[ \t]+(?:fijas|fijadas|bloqueadas)\b"
    r"|\btodas[ \t]+las[ \t]+(?:dependencias|librer[ií]as|versiones)[ \t]+(?:est[aá]n[ \t]+)?"
    r"(?:fijadas|fijas|bloqueadas)"
    # Chinese: `所有依赖均固定版本`, `依赖版本固定`, `全部依赖锁定版本`
    r"|(?:所有|全部)(?:的)?(?:依赖|依赖包|包|库)[^。；，,]{0,8}?(?:固定|锁定)"
    r"|(?:依赖|依赖包)(?:的)?版本(?:均|都|已)?(?:固定|锁定)",
    re.IGNORECASE,
)
"""A claim that every dependency (package, library, version) of the image is pinned."""
_NAMED = re.compile(
    r"(?:(?<![\w.+-])[A-Za-z][\w.+-]*|`[^`]+`)[ \t]*,?[ \t]+(?:and[ \t]+[\w.+-]+[ \t]+)?"
    r"(?:versions?|packages?|dependenc(?:y|ies))"
    r"[ \t]+(?:are|is|have[ \t]+been)[ \t]+(?:all[ \t]+)?" + _PINNED_WORD + r"\b",
    re.IGNORECASE,
)
"""A component named before the noun (`The CUDA and PyTorch versions are pinned`): about those, not all."""
_GENERIC_BEFORE = frozenset(
    {"all", "every", "each", "the", "its", "our", "python", "pip", "package", "library"}
)
_NOT_A_CLAIM = re.compile(
    r"\b(?:you|your|should|could|would|consider|recommend(?:ed|s)?|todo|will|won't|planned|plan|future|if|unless"
    r"|not|no|never|without|unpinned|un-pinned|instead|might|cannot|can't|don't|doesn't|isn't|aren't"
    r"|to[ \t]+pin|try|avoid|apt|apt-get|system[ \t]+packages?|os[ \t]+packages?|debian|ubuntu|alpine"
    r"|npm|node"
    r"|conda|helm|chart|actions?|images?[ \t]+tags?|base[ \t]+images?|digests?|sha256)\b"
    r"|\b(?:sin|deber[ií]as?|puedes|no)\b|不|没有|未|请|建议|可以"
    r"|(?<![\w.-])[\w.-]+\.(?:txt|lock|toml|ya?ml|cfg|in|json)\b"
    r"|\bPipfile\b|\bconstraints?\b|\block[ \t-]*files?\b",
    re.IGNORECASE,
)
"""Words making the sentence about the reader, an option, the future, an absence, another kind of
package or a file of packages (the claim may be that file's), not every install of the image."""
_LONG_MARKS = re.compile(r"[ \t*_]{64,}")
"""A run of blanks and emphasis marks longer than any claim writes: `_CLAIM`'s third branch may start
after each `*` of it and read the rest (n²: 20,000 `*` took 28 s), so it is cut to `_SHORT_MARKS`."""
_SHORT_MARKS = 8
_TASK = re.compile(r"[ \t]*(?:[-*+][ \t]+)?\[[ xX]?\]")
"""A task list item (`- [ ] Dependencies are pinned`): a thing to do or check, not a claim."""
_VERSION = re.compile(r"\d+\.\d+")
"""A version said before the claim: the claim is about what it names."""
_PINNED_TO = re.compile(
    r"[ \t]+(?:to|by|at|against|on)[ \t]+(?!(?:an?[ \t]+|their[ \t]+|its[ \t]+)?"
    r"(?:exact|specific|fixed|known|tested|concrete|particular)\b)",
    re.IGNORECASE,
)
"""`pinned to the framework's release`, `pinned by date`: pinned to something other than exact versions."""
_TOOLS = frozenset(
    {"pip", "setuptools", "wheel", "uv", "poetry", "pipenv", "piptools", "virtualenv", "pdm", "hatch"}
)
"""Packaging tools, not dependencies of what the image runs."""
_SENTENCE = re.compile(r"(?:[^.!?。！？]|[.!?](?=[^\s.!?]))+[.!?。！？]*")
"""A sentence: up to a stop followed by a space or the end (`requirements.txt` is not two)."""


def pinned_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for the first README line saying every dependency of the image is pinned, when a
    Dockerfile compared installs Python packages with no version and nothing fixes them (`likely`)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            claim = _claim(text)
            if claim is None:
                continue
            found = _floating_names(auditor)
            if found is None:
                return
            model, at, names = found
            shown = ", ".join(names[:8]) + (", …" if len(names) > 8 else "")
            said = (
                f"README says every dependency is pinned ({claim!r}) but {model.path}:{at} installs {shown} "
                "with no version, and no constraints, lock file or package list fixes them"
            )
            yield Diagnostic(auditor.path, line, said, confidence=LIKELY)
            return


def _claim(text: str) -> str | None:
    """The words of `text` claiming every dependency is pinned, in a sentence that is a claim; None else."""
    text = _LONG_MARKS.sub(lambda run: run.group()[:_SHORT_MARKS], text)
    if not _CLAIM.search(text):
        return None
    for sentence in _SENTENCE.findall(text):
        match = _CLAIM.search(sentence)
        if match is None or _NOT_A_CLAIM.search(sentence) or _TASK.match(sentence):
            continue
        before = sentence[: match.start()]
        if (
            before.rstrip().endswith("(")
            or _VERSION.search(before)
            or _PINNED_TO.match(sentence, match.end())
        ):
            continue  # `PyTorch 2.4 (fixed versions)`, `pinned to the framework's release`: named things
        named = _NAMED.search(sentence)
        if named is not None and named.group(0).split()[0].strip("`,").lower() not in _GENERIC_BEFORE:
            continue
        return match.group(0).strip(" \t*_")
    return None


def _floating_names(auditor: Auditor) -> tuple[ImageModel, int, list[str]] | None:
    """The first Dockerfile compared that installs Python packages with no version, nothing fixing them:
    the model, the line of the first such install and the names as written; None when there is none or
    docgen cannot read every Dockerfile."""
    first: tuple[ImageModel, int, list[str]] | None = None
    for model in auditor.models:
        installs = stage_installs(model)
        if installs is None:
            return None
        if installs.fixed or installs.locked or installs.lists:
            continue
        bases = " ".join(
            raw_name(s.base or "") + " " + (s.base or "").lower() for s in model.chain() if s.parent is None
        )
        names = [
            name
            for name in installs.bare
            if name not in _TOOLS
            and name not in installs.specified
            and name not in installs.named
            and name not in bases
            and installs.spelled.get(name, name).lower() not in bases
        ]
        if names and first is None:
            at = min(installs.bare[name] for name in names)
            first = (model, at, [installs.spelled.get(name, name) for name in names])
    return first


_PROVIDED_LOCK = re.compile(
    r"\b(?:the|our|this)[ \t]+(?:provided|included|supplied|bundled|accompanying)[ \t]+lock[ \t-]?file\b"
    r"|\block[ \t-]?file[ \t]+(?:provided|included|supplied)[ \t]+(?:here|in[ \t]+this)",
    re.IGNORECASE,
)
"""Words saying the project comes with a lock file the build uses (`with the provided lock file`)."""
_LOCK_LIKE = re.compile(
    r"lock|\Arequirements[\w.-]*\.txt\Z|\Aconstraints[\w.-]*\.txt\Z|\Aenvironment[\w.-]*\.ya?ml\Z"
    r"|\A(?:pyproject|pixi)\.toml\Z|\APipfile\Z|\Apackage\.json\Z|\ADESCRIPTION\Z",
    re.IGNORECASE,
)
"""A file a README may call its lock file: any name with `lock` (`pixi.lock`, `conda-lock.yml`,
`renv.lock`), a requirements, constraints or environment file, a project manifest."""
_LOCK_WORDS = re.compile(r"lock|frozen|--require-hashes|constraint", re.IGNORECASE)
"""Words of a Dockerfile that may use a lock file (`COPY pixi.lock`, `uv sync --locked`, `--frozen`)."""


def provided_locks(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """The first prose line saying the build uses the lock file the project provides (`build this
    package on docker with the provided lock file`), when neither the README's folder nor an audited
    Dockerfile's holds a file that may be one (`_LOCK_LIKE`) and no audited Dockerfile names a lock
    (`_LOCK_WORDS`): the sentence was copied from a sibling image built from a lock file (`likely`).
    Silent with no Dockerfile read, or a folder that cannot be listed."""
    if not models:
        return
    for para in doc.paragraphs:
        for line, text in para.lines:
            if _PROVIDED_LOCK.search(text) is None:
                continue
            texts = []
            folders = {directory}
            for model in models:
                read = dockerfile_read(model.file) if model.file else None
                if read is None:
                    return
                texts.append(read[0])
                folders.add(Path(model.file).parent)
            if any(_LOCK_WORDS.search(t) for t in texts):
                return
            for folder in folders:
                try:
                    names = os.listdir(folder)
                except (OSError, ValueError):
                    return
                if any(_LOCK_LIKE.search(name) for name in names):
                    return
            shown = ", ".join(model.path for model in models)
            yield Diagnostic(
                readme,
                line,
                f"README says the build uses a provided lock file, but its folder holds none and {shown} "
                "names no lock file",
                confidence=LIKELY,
            )
            return
