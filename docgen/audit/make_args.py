"""Defaults a README states for build args that the Makefile beside it passes otherwise: a README that
tells to build with `make` (`make build`) and says `ROCM_VERSION` defaults to the Dockerfile's `ARG`
value, while the Makefile's recipe passes another (`--build-arg ROCM_VERSION=$(ROCM_VERSION)` with
`ROCM_VERSION ?= 7.1.1`): the image `make` builds does not have the default the README gives.

Each prose line is read once; the Makefile once (`docgen.makefile`).
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen import makefile
from docgen.audit.auditor import LIKELY
from docgen.audit.make_targets import makefile_in, makefile_text
from docgen.audit.versions import same_default
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel

_DEFAULT = re.compile(r"\bdefault(?:s[ \t]+to|[ \t]+(?:is|value))?[ \t]*[:=]?[ \t]*`([^`]+)`", re.IGNORECASE)
"""`(default: `7.1.1`)`, `defaults to `jammy``, `default is `gfx1151``."""
_NAME = re.compile(r"[A-Z][A-Z0-9_]*[A-Z0-9]\Z")
_MAKE = re.compile(r"(?:^|[\s`$;&|(])make(?:[ \t]+[\w.-]+)*[ \t]*(?:$|[`)\n;&|])", re.MULTILINE)
"""A `make` command (`make`, `make build`, `$ make image`)."""


def _makefile(directory: Path) -> tuple[str, tuple[makefile.PassedArg, ...]] | None:
    """(name, build args) of the Makefile `make` reads in the README's folder; None when there is none."""
    path = makefile_in(directory)
    text = makefile_text(path) if path is not None else None
    if path is None or text is None:
        return None
    return path.name, makefile.build_args(text)


def make_defaults(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A line stating the default of a build arg (its name in code or bold, `default: `V``) that agrees
    with the Dockerfile's `ARG`, when the README runs `make` and the Makefile beside it passes the arg to
    that Dockerfile's build with another value: `README says ROCM_VERSION defaults to 7.1, the
    Dockerfile's default, but make passes 7.1.1 (Makefile:15)` (`likely`: the README may mean a plain
    `docker build`). A value the Makefile takes from the environment or a function is not known."""
    if not _MAKE.search("\n".join(t for f in doc.fences for _, t in f.lines)) and not any(
        _MAKE.search(c) for line in text.splitlines() if "make" in line for _, _, c in code_spans(line)
    ):
        return
    found = _makefile(directory)
    if found is None or not found[1]:
        return
    shown, passed = found
    for para in doc.paragraphs:
        for number, line in para.lines:
            default = _DEFAULT.search(line)
            if default is None:
                continue
            names = [c.strip() for _, _, c in code_spans(line[: default.start()]) if _NAME.match(c.strip())]
            if len(set(names)) != 1:
                continue
            name, claim = names[0], default.group(1).strip()
            for model in models:
                decls = [d for d in model.args if d.name == name and not d.unknown]
                base = posixpath.basename(model.path)
                given = [p for p in passed if p.name == name and posixpath.basename(p.dockerfile) == base]
                if not decls or len(given) != 1 or given[0].value is None:
                    continue
                value = given[0].value
                as_passed = dataclasses.replace(
                    decls[0], default=value, raw_default=value, effective_default=value
                )
                if not same_default(claim, decls) or same_default(claim, [as_passed]):
                    continue
                at = given[0].variable_line or given[0].line
                yield Diagnostic(
                    readme,
                    number,
                    f"README says {name} defaults to {claim}, {model.path}'s default, but make passes "
                    f"{given[0].value} ({shown}:{at})",
                    confidence=LIKELY,
                )
                break
