"""CMake options a README quotes from the image's build that the Dockerfile now sets to another value: a
block of `-DNAME=VALUE` lines (```` ```cmake ````, untagged, shell) under `Clone COLMAP and build with:`,
each line an option the Dockerfile's `cmake` passes (`-DCMAKE_CUDA_ARCHITECTURES="75;80;86;89;90"  # GPUs`),
where a RUN now passes `-DCMAKE_CUDA_ARCHITECTURES="80;86;89;90"`.

A block counts when each of its lines (comments and `\\` aside) holds `-D` options only: a quoted list
of the build's options, not a command the reader runs. The option is compared with each `-DNAME=` of
the audited Dockerfiles' RUN, ENV and ARG lines (a comment line is no setting); an option agreeing with
any of them is no claim. Values are compared as CMake reads them: case aside, `ON`/`TRUE`/`YES`/`1` as
one, `OFF`/`FALSE`/`NO`/`0` as one, a `;` list as the set of its items (`86;80` is `80;86`).

Not read: a block the words above present as the reader's or an example (`for example`, `your own`,
`instead`, `change`), a block holding a command (`cmake ..`), an option no audited Dockerfile passes
(another project's), an option the Dockerfile passes from a variable (`-DX=${ARCHS}`: its value is the
build's), a README value with a placeholder (`<archs>`, `...`). `likely`: the block is the README's own
summary of the build.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, Auditor, dockerfile_read
from docgen.audit.copies import intro_words
from docgen.audit.excerpts import EXAMPLE, PLACEHOLDER
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic

_OPTION = re.compile(
    r"(?<![\w-])-D([A-Za-z_][A-Za-z0-9_]*)(?::[A-Za-z]+)?=(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'\\;]+(?:;[^\s\"'\\;]+)*)"
)
"""A CMake option `-DNAME=VALUE` (`-DNAME:BOOL=ON`, a quoted value, an unquoted `a;b` list)."""
_COMMENT = re.compile(r"[ \t]#")
"""Where a trailing comment starts (`-DUSE_GPU=ON  # GPU meshing`)."""
_LANGS = frozenset({"", "cmake", "text", "txt", "bash", "sh", "shell", "console"})
"""Block languages a quoted list of options is written in."""
_KEYWORDS = frozenset({"RUN", "ENV", "ARG"})
_TRUE = frozenset({"on", "true", "yes", "y", "1"})
_FALSE = frozenset({"off", "false", "no", "n", "0"})


def _norm(value: str) -> str | frozenset[str]:
    """`value` as CMake reads it (see the module's docstring)."""
    value = value.strip().strip("\"'").strip().lower()
    if value in _TRUE:
        return "on"
    if value in _FALSE:
        return "off"
    if ";" in value:
        return frozenset(item.strip() for item in value.split(";") if item.strip())
    return value


def _quoted_options(fence: Fence) -> list[tuple[int, str, str]]:
    """(README line, name, value) of each option of a block holding `-D` options only; [] otherwise."""
    found: list[tuple[int, str, str]] = []
    for line, text in fence.lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        code = _COMMENT.split(stripped, 1)[0].rstrip().removesuffix("\\").strip()
        options = [(line, m.group(1), m.group(2)) for m in _OPTION.finditer(code)]
        if not options or _OPTION.sub(" ", code).strip():
            return []  # a line holding something else: a command, prose
        found.extend(options)
    return found


def _build_options(auditor: Auditor) -> dict[str, list[tuple[str, int, str]]]:
    """Name → (Dockerfile, line, value) of each `-DNAME=VALUE` the audited Dockerfiles' RUN, ENV and
    ARG lines pass (comment lines skipped)."""
    options: dict[str, list[tuple[str, int, str]]] = {}
    for model in auditor.models:
        read = dockerfile_read(model.file) if model.file else None
        if read is None:
            continue
        for inst in read[1].instructions:
            if inst.keyword.upper() not in _KEYWORDS:
                continue
            for offset, text in enumerate((inst.original or inst.args).splitlines()):
                if text.lstrip().startswith("#") or "-D" not in text:
                    continue
                for m in _OPTION.finditer(text):
                    options.setdefault(m.group(1), []).append(
                        (model.path, inst.start_line + offset, m.group(2))
                    )
    return options


def build_flag_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A finding for each option of a quoted block of `-D` options (see the module's docstring) whose
    value no audited Dockerfile passes, when one passes the option with a plain value."""
    options: dict[str, list[tuple[str, int, str]]] | None = None
    for fence in doc.fences:
        if fence.lang.lower() not in _LANGS or not any("-D" in text for _, text in fence.lines):
            continue
        quoted = _quoted_options(fence)
        if not quoted or EXAMPLE.search(intro_words(doc, fence)):
            continue
        if options is None:
            options = _build_options(auditor)
        for line, name, said in quoted:
            set_to = options.get(name)
            if not set_to or PLACEHOLDER.search(said) or any("$" in value for _, _, value in set_to):
                continue
            if any(_norm(value) == _norm(said) for _, _, value in set_to):
                continue
            path, at, value = set_to[0]
            message = (
                f"README says -D{name}={said.strip(chr(34) + chr(39))} but {path}:{at} builds with "
                f"-D{name}={value.strip(chr(34) + chr(39))}"
            )
            yield Diagnostic(auditor.path, line, message, confidence=LIKELY)
