"""A README telling the reader to reach the container by SSH (`No Jupyter notebook, connect with SSH.`,
`ssh into the container`, `ssh root@localhost -p 2222`, a `-p 2222:22` port of a `docker run`) while
the image runs no SSH server: no Dockerfile audited nor a build-context file next to it or copied by it
names one (`openssh-server`, `sshd`, `dropbear`, `EXPOSE 22`), and every image starts from a plain OS,
language or CUDA image (`ubuntu`, `python`, `nvidia/cuda`), which carries none. Another base (a dev
image, a cloud notebook image) may ship its own sshd and keeps it silent, and so does a build context
docgen cannot read whole. A connection by SSH to a host, a server or a cluster (`connect to your server
with SSH`) is none: only a clause with no object or the container's. One finding, the first line, `likely`:
a server may be started by a way docgen does not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.image_paths import Image, context_text, read_image
from docgen.audit.plain_bases import plain_base, root_base
from docgen.audit.wording import COMMAND_LANGS
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_THE = r"(?:the[ \t]+|this[ \t]+|your[ \t]+|a[ \t]+)?(?:running[ \t]+)?(?:docker[ \t]+)?"
_TARGET = rf"(?:(?:in)?to[ \t]+{_THE}(?:container|image)[ \t]+)?"
_SAID = re.compile(
    rf"\b(?:connect|log[ \t]*in|login|access)(?:s|ed|ing)?[ \t]+{_TARGET}"
    r"(?:with|via|over|using|through|by)[ \t]+SSH\b"
    rf"|\bSSH[ \t]+(?:in(?:to)?|to)[ \t]+{_THE}container\b",
    re.IGNORECASE,
)
"""A clause saying the reader reaches the container by SSH: with no object (`connect with SSH`) or the
container's (`connect to the container via SSH`, `ssh into the container`)."""
_NOT = re.compile(r"\b(?:no|not|without|never|cannot|can't|don't|instead[ \t]+of)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.;,!?](?=\s|$)")
_SSH_LOCAL = re.compile(
    r"(?:^|[;&|][ \t]*)(?:\$[ \t]+)?ssh[ \t]+(?:\S+[ \t]+)*?[\w.-]+@"
    r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?![\w.])"
)
"""`ssh root@localhost -p 2222`: a login to a container on the reader's machine."""
_PORT_22 = re.compile(
    r"\bdocker[ \t]+(?:container[ \t]+)?run\b.*?(?<![\w-])(?:-p|--publish)(?:[ \t]+|=)"
    r"(?:[\d.]+:)?\d+:22(?![\d/])"
)
"""A `docker run` publishing the container's port 22 (`-p 2222:22`)."""
_SERVER = re.compile(
    r"openssh-server|\bsshd\b|dropbear|ssh-server|\bEXPOSE\b[^\n]*(?<![\w:])22(?![\w:])", re.IGNORECASE
)
"""What installs, starts or opens an SSH server in a Dockerfile or a file of its build context."""


def _claims(doc_lines: Sequence[tuple[int, str, bool]]) -> Iterator[tuple[int, str]]:
    """(line, what the README says) of each claim that the container is reached by SSH."""
    for number, text, code in doc_lines:
        if code:
            for pattern in (_SSH_LOCAL, _PORT_22):
                if (match := pattern.search(text.strip())) is not None:
                    yield number, match.group().strip(" ;&|$")
            continue
        start = 0
        for end in [m.start() for m in _CLAUSE.finditer(text)] + [len(text)]:
            clause, start = text[start:end], end + 1
            if (match := _SAID.search(clause)) is not None and not _NOT.search(clause[: match.end()]):
                yield number, match.group()


def ssh_access(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """One finding at the first claim that the container is reached by SSH when the image has no SSH
    server (see the module's docstring)."""
    lines: list[tuple[int, str, bool]] = []
    for fence in doc.fences:
        if fence.lang in COMMAND_LANGS:
            lines += [(n, t, True) for n, t in fence.lines]
    for para in doc.paragraphs:
        lines += [(n, t, False) for n, t in para.lines]
    claims = sorted(_claims(lines))
    if not claims or not models:
        return
    images: list[Image] = []
    for model in models:
        base = root_base(model)
        if not model.file or base is None or not plain_base(base) or (image := read_image(model)) is None:
            return  # another base may ship an sshd; what the image holds is not known
        images.append(image)
    texts = [context_text(image.file, image.copies, str(directory)) for image in images]
    if any(t is None or _SERVER.search(t) for t in texts):
        return
    line, said = claims[0]
    files = ", ".join(sorted({m.path for m in models}))
    yield Diagnostic(
        readme,
        line,
        f"README says the container is reached by SSH ({said}), but {files} installs and starts no SSH "
        f"server (no openssh-server, sshd or dropbear; its base {root_base(models[0])} carries none) and "
        "opens no port 22",
        confidence=LIKELY,
    )
