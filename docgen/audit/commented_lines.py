"""Commented lines a README says a Dockerfile holds for the reader to uncomment (`The Dockerfile includes
commented lines to copy `extras/` into `/opt/tools/`; uncomment them in `docker/Dockerfile.gpu``,
`uncomment the line in the Dockerfile that copies `prefs.json``) while no line of that Dockerfile names
anything the README says those lines do: the lines were dropped or never written, and the instructions
cannot be followed.

Read only when all of this holds:

- a sentence says to uncomment lines (`uncomment`) or that the file has commented lines (`commented
  lines`, `commented-out lines`, `lines commented out`);
- the paragraph names exactly one Dockerfile audited (its path, or its file name when no other audited
  Dockerfile has that name), or says `the Dockerfile` while one Dockerfile is audited;
- those sentences name what the lines do in code: a path or a file (`.cd/templates`, `/root/scripts/`,
  `nginx.conf`) or one word (`pandas`); an environment variable, a Dockerfile keyword, a URL or the
  Dockerfile itself is no such name;
- no line of the Dockerfile, comment or not, names any of them (its last path part, whole:
  `# COPY extras /opt/tools` names `extras/`; `vllm.entrypoints.openai` does not name `entrypoints/`).

`likely`: the README may mean another copy of the file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.references import inside
from docgen.audit.wording import line_at, sentences
from docgen.files import real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_UNCOMMENT = re.compile(
    r"\buncomment(?:ing)?\b|\bcommented(?:[ \t-]+out)?[ \t]+(?:lines?|instructions?|steps?)\b"
    r"|\blines?[ \t]+(?:that[ \t]+(?:are|is)[ \t]+)?commented[ \t]+out\b",
    re.IGNORECASE,
)
"""A sentence about lines of a file to uncomment, or that are commented."""
_CODE = re.compile(r"`([^`\n]{1,200})`")
_THE_DOCKERFILE = re.compile(r"\bthe[ \t]+`?Dockerfile`?(?![\w.-])", re.IGNORECASE)
_KEYWORDS = frozenset(
    "RUN COPY ADD ENV ARG FROM ENTRYPOINT CMD WORKDIR EXPOSE USER LABEL VOLUME SHELL HEALTHCHECK".split()
)
_ENV_NAME = re.compile(r"\$?\{?[A-Z][A-Z0-9_]*\}?\Z")
_WORD = re.compile(r"[a-z][a-z0-9_+-]{2,40}\Z")
"""One word of code naming a package (`pandas`, `datasets`)."""
_PATH = re.compile(r"[\w.~-]*(?:/[\w.-]*)+|[\w-]+(?:\.[\w-]+)*\.[a-z]{1,5}")
"""A path (`.cd/templates`, `/root/scripts/`) or a file name (`nginx.conf`, `prefs.json`)."""


_COMMENT_WORD = re.compile(r"[A-Za-z][\w+-]{3,40}")
"""A word of four letters or more of a comment the README quotes (`poetry` of `# Install dep with
poetry`)."""
_PLAIN = frozenset(
    "install installs installing installed with from this that these those here there lines line "
    "dependencies dependency deps packages package setup uncomment comment enable optional needed "
    "your the and for into when then only also below above under step steps".split()
)
"""Words of a quoted comment that name nothing the lines do: any Dockerfile's comments have them."""


def _named_dockerfile(text: str, auditor: Auditor) -> ImageModel | None:
    """The one audited Dockerfile `text` names (its path, or a file name no other audited one has), or the
    one audited Dockerfile when `text` says `the Dockerfile`; None when it names none, or several."""
    models = [m for m in (auditor.family or auditor.models) if m.file]
    found: dict[str, ImageModel] = {}
    words = {w.strip("`'\"()[],;:").rstrip(".").strip("`'\"()").removeprefix("./") for w in text.split()}
    for model in models:
        path = model.path.removeprefix("./")
        name = PurePosixPath(path).name
        same_name = sum(PurePosixPath(m.path).name == name for m in models)
        for word in words:
            if (
                (word == path and word != "Dockerfile")
                or ("/" in word and path.endswith("/" + word))
                or (word == name and same_name == 1 and name != "Dockerfile")
            ):
                found[model.path] = model
    if not found and len(models) == 1 and _THE_DOCKERFILE.search(text):
        if PurePosixPath(models[0].path).name == "Dockerfile":
            return models[0]
    return next(iter(found.values())) if len(found) == 1 else None


def _terms(sentence: str, model: ImageModel | str) -> list[tuple[str, str]]:
    """(as written, the key a line must name) of each path, file or word the sentence names in code, and
    of each word of a comment it quotes (`# Install dep with poetry`: `poetry`) but the plain ones
    (`_PLAIN`); `model` is the file the lines are in (the name it is given is no such term)."""
    own = PurePosixPath(model if isinstance(model, str) else model.path).name.lower()
    found: list[tuple[str, str]] = []
    for code in _CODE.finditer(sentence):
        written = code.group(1).strip()
        if "://" in written or written.upper() in _KEYWORDS:
            continue
        tokens = written.split()
        if written.startswith("#"):  # the comment the lines are under (`# Install dep with poetry`)
            for word in _COMMENT_WORD.findall(written):
                if word.lower() not in _PLAIN and word.upper() not in _KEYWORDS:
                    found.append((written, word.lower()))
            continue
        if len(tokens) == 1 and _WORD.fullmatch(written):
            found.append((written, written.lower()))
            continue
        for token in tokens:
            if token in _KEYWORDS or _ENV_NAME.match(token) or not _PATH.fullmatch(token):
                continue
            key = next((part for part in reversed(token.split("/")) if part and part != "."), "")
            if len(key) >= 3 and key.lower() != own and "dockerfile" not in key.lower():
                found.append((written, key.lower()))
    return found


def _names(lines: list[str], key: str) -> bool:
    """True when a line names `key` whole (no word, dot or dash of a longer name next to it)."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(key)}(?![\w-])(?!\.\w)", re.IGNORECASE)
    return any(pattern.search(line) for line in lines)


def commented_lines_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for each paragraph saying a Dockerfile has commented lines to uncomment for what it
    names in code, while no line of that Dockerfile names any of it."""
    for para in doc.paragraphs:
        joined = " ".join(text for _, text in para.lines)
        if not _UNCOMMENT.search(joined):
            continue  # (most paragraphs)
        model = _named_dockerfile(joined, auditor)
        if model is None or model.file is None:
            continue
        claims = [(start, s) for start, _, s in sentences(para.lines) if _UNCOMMENT.search(s)]
        terms = [term for _, sentence in claims for term in _terms(sentence, model)]
        if not terms:
            continue
        read = dockerfile_read(model.file)
        if read is None:
            continue
        lines = read[0].splitlines()
        if any(_names(lines, key) for _, key in terms):
            continue
        shown = ", ".join(dict.fromkeys(f"`{written}`" for written, _ in terms))
        yield Diagnostic(
            auditor.path,
            line_at(para.lines, claims[0][0]),
            f"README says {model.path} has commented lines to uncomment for {shown}, but no line of "
            f"{model.path}, comment or not, names any of them",
            confidence=LIKELY,
        )


_MODEL_STEP = re.compile(
    r"\b(?:comment(?:ing)?[ \t]+out|remov(?:e|ing)|delet(?:e|ing)|skip(?:ping)?|disabl(?:e|ing))\b[^.]{0,80}?"
    r"\b(?:code|steps?|lines?|sections?|parts?|instructions?|commands?)[ \t]+(?:in|of|from)[ \t]+"
    r"(?:the[ \t]+)?"
    r"`?(?P<file>[\w./-]*Dockerfile[\w.-]*)`?[ \t]+(?:that|which)[ \t]+"
    r"(?P<does>(?:pre-?)?(?:cache|download|fetch|bake)(?:e?s)?(?:[ \t]+in)?)[ \t]+(?:the[ \t]+|all[ \t]+)?"
    r"(?:[\w-]+[ \t]+)?(?P<what>models?|weights|checkpoints?)\b",
    re.IGNORECASE,
)
"""A sentence telling the reader to take out the Dockerfile's step that gets the models (`comment out or
remove the code in the `Dockerfile` that caches the models`)."""
_MODEL_WORDS = re.compile(
    r"(?<![A-Za-z])(?:models?|weights|checkpoints?|ckpts?)(?![A-Za-z])(?![ \t_-]*downloader)"
    r"|hf_hub_download|snapshot_download|from_pretrained|huggingface|\bhf[ \t]+download\b|civitai\.com"
    r"|\.(?:safetensors|ckpt|gguf|pth|onnx|bin)\b|\bcach(?:e|es|ed|ing)[ \t_-]*(?:the[ \t_-]*)?models?",
    re.IGNORECASE,
)
"""What a line getting models names: the word (not a model-downloader tool an image installs: `Install
CivitAI Model Downloader`), a Hugging Face call or site, a weights file."""


def _one_dockerfile(named: str, auditor: Auditor) -> ImageModel | None:
    """The Dockerfile `named` is (as `_named_dockerfile` tells), or for `Dockerfile` the one file every
    image audited is built from (the targets of a bake file share it); None when it is several."""
    if named != "Dockerfile":
        return _named_dockerfile(named, auditor)
    models = [m for m in (auditor.family or auditor.models) if m.file]
    files = {os.path.normpath(m.file) for m in models if m.file}
    if len(files) != 1 or PurePosixPath(models[0].path).name != "Dockerfile":
        return None
    return models[0]


_QUOTE_MARK = re.compile(r"(?<=\s)>(?=\s)")
"""A block quote's mark inside a sentence that runs over quoted lines."""


def model_step_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A sentence telling the reader to comment out or remove the code of a Dockerfile that caches or
    downloads the models (`_MODEL_STEP`; the Dockerfile named as `_named_dockerfile` tells) while no line
    of that Dockerfile, comment or not, names a model, weights or checkpoints, a Hugging Face download or a
    weights file (`_MODEL_WORDS`): the step is gone, or was never in this Dockerfile (`likely`: a script
    it runs may fetch them, but the README points at the Dockerfile's own code)."""
    for para in doc.paragraphs:
        for start, _, sentence in sentences(para.lines):
            match = _MODEL_STEP.search(_QUOTE_MARK.sub(" ", sentence))
            if match is None:
                continue
            model = _one_dockerfile(match.group("file"), auditor)
            if model is None or model.file is None:
                continue
            read = dockerfile_read(model.file)
            if read is None or _MODEL_WORDS.search(read[0]):
                continue
            does = " ".join(match.group("does").split()).lower()
            what = match.group("what").lower()
            yield Diagnostic(
                auditor.path,
                line_at(para.lines, start),
                f"README says {model.path} has code that {does} the {what}, but no line of {model.path},"
                " comment or not, names models or downloads them",
                confidence=LIKELY,
            )


_SETTINGS_FILE = re.compile(
    r"(?:[\w.-]+/)*[\w.-]*\.(?:ya?ml|json|jsonc|toml|ini|cfg|conf|txt|env|properties)", re.IGNORECASE
)
"""A settings or package-list file a README may tell to uncomment lines of (`env.yml`,
`.devcontainer/devcontainer.json`, `requirements.txt`)."""


def commented_file_claims(doc: Document, path: str, directory: Path) -> Iterator[Diagnostic]:
    """A finding for each sentence telling the reader to uncomment lines of one settings or package-list
    file it names in code (`Uncomment the `nvidia` channel and `pytorch-cuda` lines in `env.yml``), the
    file beside the README (or below it), when no line of it, comment or not, names anything else the
    sentence names in code (`likely`). A Dockerfile is `commented_lines_claims`'s."""
    top = real_path(directory)
    for para in doc.paragraphs:
        if not _UNCOMMENT.search(" ".join(text for _, text in para.lines)):
            continue  # (most paragraphs)
        for start, _, sentence in sentences(para.lines):
            if not _UNCOMMENT.search(sentence):
                continue
            files = {
                code.group(1).strip().removeprefix("./")
                for code in _CODE.finditer(sentence)
                if _SETTINGS_FILE.fullmatch(code.group(1).strip())
            }
            if len(files) != 1:
                continue
            (written,) = files
            if "dockerfile" in written.lower():
                continue
            place = inside(top / written, top)
            if place is None or not os.path.isfile(place):
                continue
            terms = [t for t in _terms(sentence, written) if t[0].removeprefix("./") != written]
            text = text_or_none(place)
            if not terms or text is None:
                continue
            lines = text.splitlines()
            if any(_names(lines, key) for _, key in terms):
                continue
            shown = ", ".join(dict.fromkeys(f"`{term}`" for term, _ in terms))
            yield Diagnostic(
                path,
                line_at(para.lines, start),
                f"README says to uncomment the lines of {written} for {shown}, but no line of {written}, "
                "comment or not, names any of them",
                confidence=LIKELY,
            )
