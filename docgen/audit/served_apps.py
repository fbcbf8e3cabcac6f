"""A well-known application a sentence says will be available at an address (`When the process is
completed, ComfyUI will be available at http://localhost.`) that nothing of the project holds: no
install, clone, copy or command of an image compared, and no file of the repository (Dockerfile,
Compose file, script, Makefile, requirements) names it. The sentence was copied from a sibling project
that serves another application (`likely`).

Only applications of `APPS` are read: a web UI a README names by its own name, not a word it may use for
anything. Silent when any file of the repository names it (a base image named after it, a script the
image copies that starts it, another image of the repository that installs it), when a code block or
span of the README does (`pip install open-webui`: the reader gets it from elsewhere), when the sentence
is a condition, a negation or a comparison (`like ComfyUI`), or when the tree is too large to read whole.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.memo import per_audit
from docgen.audit.provides import install_text
from docgen.audit.wording import sentences
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

APPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (r"ComfyUI", "ComfyUI", ("comfy",)),
    (r"Open[ -]?WebUI", "Open WebUI", ("openwebui",)),
    (
        r"AUTOMATIC1111|A1111|Stable[ -]Diffusion[ -]web[ -]?UI|SD[ -]?WebUI",
        "Stable Diffusion web UI",
        ("automatic1111", "a1111", "stablediffusionwebui", "sdwebui"),
    ),
    (
        r"text-generation-webui|Text[ -]generation[ -]web[ -]?UI|oobabooga",
        "text-generation-webui",
        ("textgenerationwebui", "oobabooga", "textgen"),
    ),
    (r"InvokeAI", "InvokeAI", ("invoke",)),
    (r"Fooocus", "Fooocus", ("fooocus",)),
    (r"SillyTavern", "SillyTavern", ("sillytavern", "tavern")),
    (r"(?:Stable)?SwarmUI", "SwarmUI", ("swarm",)),
    (r"SD\.Next", "SD.Next", ("sdnext", "vladmandic")),
    (r"kohya(?:_ss)?", "kohya_ss", ("kohya",)),
)
"""Applications a README names when it says where one is served: (pattern of its names in prose, the
name shown, the spellings that make a file name it, lower case letters and digits only). Not here:
JupyterLab (framework base images ship it), Ollama (often the reader's own, on the host)."""
_APP = re.compile("|".join(f"(?P<a{i}>{pattern})" for i, (pattern, _, _) in enumerate(APPS)), re.IGNORECASE)
_ADDRESS = r"(?:https?://|localhost\b|127\.0\.0\.1|0\.0\.0\.0|<[\w .-]{1,30}>|\bport[ \t]+\d)"
_SERVED = re.compile(
    rf"[ \t]+(?:will[ \t]+(?:now[ \t]+)?be|is[ \t]+(?:now[ \t]+)?|should[ \t]+be|becomes)[ \t]*"
    rf"(?:available|accessible|reachable|served|running|up(?:[ \t]+and[ \t]+running)?|ready)\b"
    rf"[^.]{{0,40}}?{_ADDRESS}"
    rf"|[ \t]+(?:opens|runs|listens|starts)[ \t]+(?:at|on)[ \t]+(?:the[ \t]+)?{_ADDRESS}",
    re.IGNORECASE,
)
"""What follows the name when the sentence says where it is served: `will be available at
http://localhost`, `is running on port 7860`, `opens at localhost:8188`."""
_OPEN_BEFORE = re.compile(
    r"\b(?:open|access|visit|go[ \t]+to|browse[ \t]+to)[ \t]+(?:the[ \t]+)?\Z", re.IGNORECASE
)
_OPEN_AFTER = re.compile(
    rf"(?:[ \t]+(?:web[ \t]?ui|ui|interface))?[ \t]+(?:at|on|via)[ \t]+{_ADDRESS}", re.IGNORECASE
)
"""`Open ComfyUI at http://localhost:8188`: the reader told where it is served (the words before the
name, then those after it)."""
_NOT_A_CLAIM = re.compile(
    r"\b(?:not|no|never|if|unless|instead|like|similar|such[ \t]+as|alternatively|optional(?:ly)?|host"
    r"|your[ \t]+own|compared|unlike)\b|n't\b|\be\.g\.",
    re.IGNORECASE,
)
"""Words making the sentence no statement that the project serves the application."""
_ENTRIES_LIMIT = 20_000
"""Folders and files walked at most below the repository's root: a larger tree is not read."""
_SKIPPED = frozenset({"node_modules", "site-packages", "__pycache__", "venv", "env"})
_PROSE = re.compile(r"\.(?:md|markdown|rst|adoc|html?)\Z|\A(?:license|copying|notice)", re.IGNORECASE)
"""Files of prose: what they name is said, not built (the README itself among them)."""
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def served_apps(
    doc: Document,
    models: Sequence[ImageModel],
    path: str,
    directory: Path | None,
    project: Path | None,
) -> Iterator[Diagnostic]:
    """A sentence of `doc` saying an application of `APPS` is served at an address that no image of
    `models` installs and no file of the repository (`project`, else the README's `directory`) names."""
    root = project if project is not None else directory
    if root is None:
        return
    said: list[tuple[int, str, tuple[str, ...]]] = []
    for para in doc.paragraphs:
        joined = " ".join(t for _, t in para.lines)
        if not _APP.search(joined):
            continue  # (most paragraphs)
        for start, _, sentence in sentences(para.lines):
            if _NOT_A_CLAIM.search(sentence):
                continue
            for match in _APP.finditer(sentence):
                opened = _OPEN_BEFORE.search(sentence[max(0, match.start() - 20) : match.start()])
                if not (
                    _SERVED.match(sentence, match.end())
                    or (opened and _OPEN_AFTER.match(sentence, match.end()))
                ):
                    continue
                index = int(next(k for k, v in match.groupdict().items() if v)[1:])
                _, shown, spellings = APPS[index]
                said.append((_line_of(para.lines, start + match.start()), shown, spellings))
                break
    if not said:
        return
    installed = " ".join(_NOT_ALNUM.sub("", install_text(m).lower()) for m in models if m.file)
    installed += " " + _NOT_ALNUM.sub("", _commands(doc).lower())
    named = _named_in_tree(str(root))
    if named is None:
        return
    for line, shown, spellings in said:
        if any(s in installed or s in named for s in spellings):
            continue
        yield Diagnostic(
            path,
            line,
            f"README says {shown} will be available, but no Dockerfile or file of the repository "
            f"installs, starts or names {shown}",
            confidence=LIKELY,
        )


def _commands(doc: Document) -> str:
    """The README's code blocks and code spans: a command there (`pip install open-webui`, `docker run
    ghcr.io/open-webui/open-webui`) gives the reader the application from outside the repository."""
    fenced = " ".join(t for f in doc.fences for _, t in f.lines)
    spans = " ".join(c for p in doc.paragraphs for _, t in p.lines for _, _, c in code_spans(t))
    return f"{fenced} {spans}"


def _line_of(lines: list[tuple[int, str]], offset: int) -> int:
    """The README line of the character at `offset` of the sentences' text (`sentences` joins the
    lines with one space)."""
    seen = 0
    for line, text in lines:
        seen += len(text) + 1
        if offset < seen:
            return line
    return lines[-1][0]


@per_audit(maxsize=8)
def _named_in_tree(root: str) -> str | None:
    """The files of the tree at `root` but prose (`_PROSE`), as one text of lower case letters and
    digits; None when the tree is larger than `_ENTRIES_LIMIT`."""
    parts: list[str] = []
    walked = 0
    top_path = Path(root)
    for top, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in _SKIPPED)
        walked += len(folders) + len(files)
        if walked > _ENTRIES_LIMIT:
            return None
        for name in sorted(files):
            if _PROSE.search(name):
                continue
            parts.append(_NOT_ALNUM.sub("", name.lower()))
            text = text_or_none(Path(top) / name, top=top_path)
            if text is not None and "\0" not in text:
                parts.append(_NOT_ALNUM.sub("", text.lower()))
    return " ".join(parts)
