"""Components a README lists as in the image whose only install is commented out: the lines that would
install them are Dockerfile comments (`#RUN wget …/abinit-${ABINIT_VERSION}.tar.gz | tar xz`), and no
RUN, COPY/ADD source, base image or copied build-context file names them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, _Auditor, _dockerfile_read
from docgen.audit.contents import _FEATURES, _LATER, _NEEDED, _VERSION_IN, _context, _item_component
from docgen.audit.provides import _base_holds, _install_text
from docgen.audit.versions import _raw
from docgen.markdown import Document, lists
from docgen.model import Diagnostic, ImageModel

_COMMENTED = re.compile(r"[ \t]*#+[ \t]*(RUN|ENV|ARG|COPY|ADD|WORKDIR)[ \t]", re.IGNORECASE)
"""A Dockerfile comment that is an instruction set aside (`#RUN make install`, `# ENV X=1`)."""


@functools.lru_cache(maxsize=32)
def _commented_out(file: str) -> tuple[tuple[int, str, bool], ...]:
    """(line, `_raw` text, whether a RUN) of each commented-out instruction of the Dockerfile at `file`,
    a line of a continued one (`#    -DPKG_PYTHON=on \\`) joined to it."""
    read = _dockerfile_read(file)
    if read is None:
        return ()
    found: list[tuple[int, str, bool]] = []
    going = False
    for number, line in enumerate(read[0].splitlines(), 1):
        start = _COMMENTED.match(line)
        if start is not None or going and line.lstrip().startswith("#"):
            run = start.group(1).upper() == "RUN" if start is not None else found[-1][2]
            found.append((number, _raw(line), run))
            going = line.rstrip().endswith("\\")
        else:
            going = False
    return tuple(found)


def _disabled_install(model: ImageModel, spellings: set[str]) -> int | None:
    """The Dockerfile line of the commented-out instruction (a RUN first) that names a component under
    one of `spellings` when nothing else of `model` can bring it: no live RUN, COPY/ADD or FROM, no
    copied build-context file, no script docgen cannot read; None otherwise."""
    if not model.file or _context(model)[1] or _base_holds(model, spellings, strict=False):
        return None
    if any(s in _install_text(model) for s in spellings):
        return None
    hits = [(not run, n) for n, text, run in _commented_out(model.file) if any(s in text for s in spellings)]
    return min(hits)[1] if hits else None


def _disabled_installs(doc: Document, auditor: _Auditor) -> Iterator[Diagnostic]:
    """An unversioned item of a list that is the image's by what it holds (at least two of its
    components, and at least half of them, are installed by a Dockerfile compared) whose only install in
    every Dockerfile compared is commented out (`_disabled_install`) (`likely`). Not a list of what the
    reader needs or of features, nor an item fetched later or optional."""
    models = [m for m in auditor.models if m.file]
    if not models:
        return
    for block in lists(doc):
        words = f"{block.heading} {block.intro}"
        if _NEEDED.search(words) or _FEATURES.search(words) or _LATER.search(words):
            continue
        named = [
            (line, found)
            for line, text in block.items
            if (found := _item_component(text)) and not _LATER.search(text) and not _VERSION_IN.search(text)
        ]
        held = sum(1 for _, f in named if any(s in _install_text(m) for m in models for s in f[1]))
        if held < 2 or 2 * held < len(named):
            continue
        for line, (name, spellings, _) in named:
            where = [_disabled_install(m, spellings) for m in models]
            if all(n is not None for n in where):
                yield Diagnostic(
                    auditor.path,
                    line,
                    f"README lists {name} as in the image, but its install is commented out "
                    f"({models[0].path}:{where[0]}) and nothing else installs it",
                    confidence=LIKELY,
                )
