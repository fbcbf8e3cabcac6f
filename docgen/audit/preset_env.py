"""Environment variables a README says are set already (`By default, the following options are set:`
then `` - `CTX_SIZE_LIMIT`: … (default is 2048) ``, `` `TRACKING_URL` is already set in the environment ``,
`环境变量已经设置好 NAME`) that nothing sets: no ENV of an audited image, no `environment:` of a compose
service beside the README or the Dockerfiles, no file there that names it at all (an entrypoint's
`export NAME=…`, an env file, a script passing `-e NAME=…`), and no command of the README passing it.

A finding is `likely`: the base image or the application may give the variable its value. It is
`certain` when the sentence names the file that should set it (`` in the `compose.yaml` file ``,
`` `.env` ``, a Dockerfile), that file is there, and it does not name the variable.

Each line of the README is read once; the files of the few folders read are read once each, to a
bounded size and number.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.memo import per_audit
from docgen.audit.names import compose_files
from docgen.files import real_path, stays_home
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_SAID_SET = re.compile(
    r"\b(?:(?:are|is|were|has[ \t]+been|have[ \t]+been|gets?|comes?)[ \t]+"
    r"(?:already[ \t]+|automatically[ \t]+)?"
    r"(?:set|configured|defined|exported|pre-?set|pre-?configured)"
    r"|pre-?(?:set|configured|defined))\b"
    r"|已经?(?:被)?(?:设置|设定|配置|定义)|(?:默认|预先|预)(?:设置|设定|配置)",
    re.IGNORECASE,
)
"""Words saying variables have their values already: `are set`, `is already configured`, `preset`,
已经设置."""
_DEFAULT = re.compile(
    r"\bby[ \t]+default\b|\balready\b|\bautomatically\b|\bpre-?(?:set|configured|defined)\b|默认|已|预",
    re.IGNORECASE,
)
"""Words saying it is so before the reader does anything."""
_NOT = re.compile(
    r"\b(?:not|n't|no|never|unless|if|when|must|should|need|needs|can|could|may|might|optional(?:ly)?"
    r"|to[ \t]+set|override|overridden)\b|如果|需要|请|必须|可以|未|没有|不",
    re.IGNORECASE,
)
"""Words of a condition, an instruction or a denial: `must be set`, `if set`, `not set`, `you can set`."""
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*)?`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`")
"""A list item starting with a variable's name in code (`` * `CTX_SIZE_LIMIT`: … ``,
`` - `PORT_BASE=80` ``)."""
_NAME = re.compile(r"(?<![A-Za-z0-9_$-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![A-Za-z0-9_-])")
"""A variable's name, with a `_` (`TRACKING_URL`; not a word such as `GPU`)."""
_ENV_WORD = re.compile(r"\benv(?:ironment)?\b|环境变量", re.IGNORECASE)
_COMMENT = re.compile(r"[ \t]*(?:#|//)[ \t]*(.*)")
_SETTING_FILE = re.compile(
    r"(?:^|/)(?:(?:docker-)?compose(?:[.-][\w.-]+)?\.ya?ml|[\w.-]*\.env|\.env[\w.-]*"
    r"|(?:[\w.-]+\.)?(?:Docker|Container)file(?:\.[\w.-]+)?)\Z"
)
"""A file a sentence may name as the one setting the variables: a compose file, an env file, a
Dockerfile."""
_BASE_NAMES = re.compile(
    r"(?:NVIDIA|NV|CUDA|CUDNN|NCCL|LD|PATH|PYTHON|PIP|CONDA|LANG|LC|HOME|DEBIAN|ROCM|HIP|HSA|JAVA|TZ|TERM"
    r"|PYTORCH|TORCH|TF|OMP|MKL|GPG|NODE|NPM|YARN|GO|RUST|CARGO|HOSTNAME|USER|SHELL|DISPLAY|XDG)(?:_|\Z)"
)
"""Names base images and the system set themselves (`NVIDIA_VISIBLE_DEVICES`, `PYTHON_VERSION`,
`LD_LIBRARY_PATH`): the base may well set them, as it may those named after it (`OLLAMA_HOST` on
`ollama/ollama`)."""
_WORDS = re.compile(r"[a-z0-9]+")
_RUN_PASSES = re.compile(r"(?:-e|--env)[ \t=]+[\"']?([A-Za-z_][A-Za-z0-9_]*)")
_MAX_FILES = 200
_MAX_BYTES = 262_144


def preset_env(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """Each variable the README says is set already (see the module docstring) that nothing sets."""
    claims = list(_claims(doc))
    if not claims:
        return
    envs = {e.name for m in models for e in m.env} | {a.name for m in models for a in m.args}
    passed = {m.group(1) for f in doc.fences for _, t in f.lines for m in _RUN_PASSES.finditer(t)}
    composed = compose_files(directory, models, project)
    in_compose = {
        name
        for f in composed
        for s in f.services
        for name in (
            *(k for k, _, _ in s.environment),
            *(k for k, _ in s.args),
            *(w for _, text in s.settings for w in _NAME.findall(text)),
        )
    }
    reading_files = any(s.env_file for f in composed for s in f.services)
    folders = [directory, *(Path(m.file).parent for m in models if m.file)]
    texts = [text for _, text in folder_files(tuple(dict.fromkeys(real_path(f) for f in folders)))]
    bases = {
        w for m in models for c in m.components if c.kind == "image" for w in _WORDS.findall(c.name.lower())
    }
    for line, name, named in claims:
        if name in envs or name in passed or name in in_compose or _BASE_NAMES.match(name):
            continue
        if name.split("_", 1)[0].lower() in bases:
            continue  # `OLLAMA_HOST` on `ollama/ollama`: the base image's own software may set it
        if reading_files or any(name in text for text in texts):
            continue
        confidence, said = LIKELY, "is set already"
        if named is not None:
            file = real_path(directory / named)
            if os.path.isfile(file) and name not in _read(file):
                confidence, said = CERTAIN, f"is set in {named}"
        message = (
            f"README says {name} {said}, but nothing sets it: no ENV of the image, no compose service's "
            "environment, no file beside the README names it"
        )
        yield Diagnostic(readme, line, message, confidence=confidence)


def _claims(doc: Document) -> Iterator[tuple[int, str, str | None]]:
    """(line, variable, the file the README says sets it or None) of each variable said set already."""
    for para in doc.paragraphs:
        intro: str | None = None  # the introduction of a list of variables said set, when one is open
        if para.lines and _ITEM.match(para.lines[0][1]):
            last = para.before.strip().rsplit("\n", 1)[-1]
            intro = para.before if last.rstrip().endswith((":", "：")) and _said_set(last) else None
        for number, text in para.lines:
            item = _ITEM.match(text)
            if item is not None:
                if intro is not None:
                    yield number, item.group(1), _named_file(intro)
                continue
            if text.rstrip().endswith((":", "：")) and _said_set(text):
                intro = " ".join(t for _, t in para.lines)
                continue
            intro = None
            yield from _sentence_claims(number, text)
    for fence in doc.fences:  # `# the environment variable NAME is already set` in an example
        for number, text in fence.lines:
            comment = _COMMENT.match(text)
            if comment is not None and _ENV_WORD.search(comment.group(1)):
                yield from _sentence_claims(number, comment.group(1))


def _said_set(text: str) -> bool:
    return bool(_SAID_SET.search(text) and _DEFAULT.search(text) and not _NOT.search(text))


def _sentence_claims(number: int, text: str) -> Iterator[tuple[int, str, str | None]]:
    """The variables one line says are set already, in so many words about the environment
    (`` `TRACKING_URL` is already set in the environment ``)."""
    if not _ENV_WORD.search(text) or not _said_set(text):
        return
    for name in dict.fromkeys(_NAME.findall(text)):
        yield number, name, _named_file(text)


def _named_file(text: str) -> str | None:
    """The file a sentence names in code as setting the variables (a compose file, an env file, a
    Dockerfile), when it names one."""
    found = [c.strip() for _, _, c in code_spans(text) if _SETTING_FILE.search(c.strip())]
    return found[0] if len(found) == 1 else None


@per_audit(maxsize=64)
def _read(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return handle.read(_MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


@per_audit(maxsize=16)
def folder_files(folders: tuple[Path, ...]) -> tuple[tuple[Path, str], ...]:
    """(path, text) of the files (not Markdown) in `folders` and their direct subfolders, at most
    `_MAX_FILES` of them, each to `_MAX_BYTES`: where an entrypoint, an env file or a script may set or
    name a variable (this rule, `env_slips`)."""
    found: list[tuple[Path, str]] = []
    queue = [(folder, 0) for folder in folders]
    seen: set[Path] = set()
    while queue and len(found) < _MAX_FILES:
        folder, depth = queue.pop(0)
        if folder in seen:
            continue
        seen.add(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".git") or entry.name == "node_modules":
                continue
            if entry.is_dir(follow_symlinks=False) and depth == 0:
                queue.append((Path(entry.path), 1))
            elif (
                os.path.isfile(entry)
                and not entry.name.lower().endswith((".md", ".markdown", ".rst"))
                and stays_home(Path(entry.path))  # (not a link out of the project)
            ):
                found.append((Path(entry.path), _read(Path(entry.path))))
                if len(found) >= _MAX_FILES:
                    break
    return tuple(found)
