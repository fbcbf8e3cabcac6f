"""Files a `curl` command of the README uploads (`-F "file=@./images/cat.jpg"`, `--data-binary
@samples/a.wav`, `-T data/x.csv`) that the repository lacks, in a folder it has (`images/` holding only
`dog.jpg`): the example cannot run as written. `likely`: the reader may be meant to bring a file of their
own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.missing import CREATES, made_names
from docgen.audit.paths import resolves_inside
from docgen.audit.references import ELSEWHERE, cd_target
from docgen.markdown import Document
from docgen.model import Diagnostic

_UPLOAD = re.compile(
    r"(?<![\w-])(?:(?:-F|--form)[ \t]+[\"']?[\w.\[\]-]+=@"
    r"|(?:--data-binary|--data|-d)[ \t]+[\"']?@"
    r"|(?:-T|--upload-file)[ \t]+[\"']?)"
    r"((?:\./)?[\w.-]+(?:/[\w.-]+)+)(?=[\"';, \t]|\\|$)"
)
"""An upload of a file by a relative path with a folder (`-F "files=@./images/cat.jpg"`); not `@-`
(stdin), a variable, an absolute path, nor a path with a `;type=` suffix read past its end."""
_CURL = re.compile(r"(?<![\w-])curl(?![\w-])")


def curl_uploads(doc: Document, directory: Path, readme: str) -> Iterator[Diagnostic]:
    """A file (see the module) a `curl` of a command block uploads, read from the README's folder, that
    does not exist while its folder does; not in a block that `cd`s before it, nor a file a line of
    the README makes (`wget -O images/cat.jpg`), nor one a
    container's curl uploads (`docker exec app curl …`). One finding a path, at its first upload."""
    made = made_names(doc, CREATES - {"curl"})  # (a curl writes only where -o or > tells)
    seen: set[str] = set()
    base = directory.resolve()
    for fence in doc.fences:
        in_curl = moved = False
        for line, text in fence.lines:
            step = text.strip()
            if cd_target(step) is not None:
                moved = True
            curl = _CURL.search(text)
            if curl is not None:
                in_curl = not ELSEWHERE.search(text, 0, curl.start())  # (`docker exec app curl …`)
            elif not text.lstrip().startswith("-"):
                in_curl = False  # not a continued option line of the command before
            if moved or not in_curl:
                continue
            for match in _UPLOAD.finditer(text):
                path = match.group(1).removeprefix("./")
                folder, _, name = path.rpartition("/")
                if path in seen or name in made or ".." in path.split("/"):
                    continue
                if not _folder_inside(base, folder) or os.path.lexists(base / path):
                    continue
                seen.add(path)
                try:
                    held = sorted(e for e in os.listdir(base / folder) if not e.startswith("."))
                except OSError:
                    continue
                shown = ", ".join(held[:5]) + (" …" if len(held) > 5 else "") if held else "nothing"
                yield Diagnostic(
                    readme,
                    line,
                    f"README uploads {path} with curl, which does not exist ({folder}/ holds {shown})",
                    confidence=LIKELY,
                )


def _folder_inside(base: Path, folder: str) -> bool:
    """True when `folder` is a folder below `base`, its links resolved: a link out of the project is not
    listed (its files are no business of the README's), and a name the file system refuses (longer than
    it allows) is no folder."""
    try:
        return os.path.isdir(base / folder) and resolves_inside(base / folder, base)
    except OSError:
        return False
