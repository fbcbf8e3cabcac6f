"""The facts of one audit that every part of the README asks for, read once.

`audit` runs its claim readers once per part of the README (one per image, or per build a section's
command makes), each with its own `_Auditor`. Some of what they compare with is the same for every part:
the images the whole README's build commands tag, the files of the project the images copy in, what
`docgen lint` says of a Dockerfile. `AuditFacts` reads each of them on first use and keeps it for the
rest of the audit; every part's auditor carries the one `audit` made (`_Auditor.shared`), so a rule
asks `auditor.shared` where it used to read the whole README again. Nothing outlives the audit.

The whole-README facts are read from the README as the audit compares it: after the sections about the
host, releases and other tools are set aside (`set_aside`). `audit` says when that is done (`settle`);
a fact asked before then would be read from text that is no claim, and is refused rather than kept.
"""

from __future__ import annotations

import functools
from pathlib import Path

from docgen.audit.commands import built_repositories, tagged_names
from docgen.audit.coverage import lint_of
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel


class AuditFacts:
    """What the whole README (`doc`) and the project's files say, for every part of one audit."""

    def __init__(self, doc: Document, directory: Path | None = None) -> None:
        self._doc = doc
        self.directory = directory
        """The README's folder (None when the audit is given none): where its commands run."""
        self._settled = False
        self._texts: dict[Path, str | None] = {}
        self._lints: dict[tuple[str, str], tuple[Diagnostic, ...] | None] = {}

    def settle(self) -> None:
        """Called by `audit` once the asides are set aside: the whole-README facts may be read from now."""
        self._settled = True

    @property
    def doc(self) -> Document:
        """The whole README, its asides set aside. Asked before `settle`, it is a fault of the caller."""
        if not self._settled:
            raise RuntimeError("AuditFacts.doc asked before the README's asides were set aside (settle)")
        return self._doc

    @functools.cached_property
    def built(self) -> dict[str, set[str | None]]:
        """The repositories the README's `docker build -t` commands tag → the Dockerfiles those commands
        name with `-f` (`commands.built_repositories`)."""
        return built_repositories(self.doc)

    @functools.cached_property
    def tagged(self) -> frozenset[str]:
        """The last names of the images the README's build lines tag (`commands.tagged_names`)."""
        return tagged_names(self.doc)

    def text(self, path: Path) -> str | None:
        """The text of the project's file at `path` (`files.text_or_none`: None when it is no text)."""
        if path not in self._texts:
            self._texts[path] = text_or_none(path)
        return self._texts[path]

    def lint(self, model: ImageModel) -> tuple[Diagnostic, ...] | None:
        """What `docgen lint` says of the Dockerfile of `model` (`coverage.lint_of`), read once per file."""
        key = (model.file, model.path)
        if key not in self._lints:
            self._lints[key] = lint_of(model)
        return self._lints[key]
