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

import bisect
import functools
import os
import re
from pathlib import Path

from docgen.audit.commands import built_repositories, fence_commands, joined, tagged_names, without_prompt
from docgen.audit.coverage import lint_of
from docgen.audit.wording import IMAGE_REF
from docgen.build_scripts import BUILD, container_command
from docgen.files import text_or_none
from docgen.makefile import DEFAULT_FILES, build_args
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_SCRIPT_SUFFIXES = (".sh", ".bash", ".py", ".yml", ".yaml", ".ps1", ".bat")
"""Files of the README's folder that may run an image (`published_runs`)."""
_DOCKERFILE = re.compile(r"dockerfile|containerfile", re.IGNORECASE)
_MAKES_IMAGE = re.compile(
    r"\bcompose\b|\bbake\b|\bapptainer\b|\bsingularity\b|[\w./-]*build[\w.-]*\.sh\b"
    r"|(?:^|[;&|(][ \t]*|\b(?:ba)?sh[ \t]+)(?:\./|[\w.-]+/)*build\b(?![ \t]*&&)"
)
"""A command that may build an image the README does not show: compose, make, a `build` script
(`mkdir build && cd build` is a folder for a compiler, not an image)."""
_MAKE = re.compile(r"(?<![\w-])make\b")
_RUN = re.compile(container_command())


_EXAMPLE = re.compile(
    r"\b(?:(?:the|this)[ \t]+example|example[ \t]+(?:below|above)"
    r"|(?:the|this)[ \t]+(?:command|script)[ \t]+below|the[ \t]+following[ \t]+(?:command|example))\b",
    re.IGNORECASE,
)
"""Words of a line introducing the command below it as an example (`The example below builds …`)."""
_PASSED_NUMBER = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)*)(?![\w.])")
"""A version a command passes, whole (`3.12` of `--py_version 3.12`, `v2.1`)."""
_EXAMPLE_REACH = 4
"""How many lines below such a line its command block may start (a blank line, a line of prose)."""


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
    def _line_texts(self) -> dict[int, str]:
        texts: dict[int, str] = {}
        for para in self._doc.paragraphs:
            for number, text in para.lines:
                texts.setdefault(number, text)
        for table in self._doc.tables:
            for number, cells in table.rows:
                texts.setdefault(number, " | ".join(cells))
        for number, text in self._doc.headings:
            texts.setdefault(number, text)
        return texts

    def line_text(self, line: int) -> str | None:
        """The words of README `line` as the prose, a table row (its cells joined by ` | `) or a heading
        holds them, read once for the whole README. One line's own words, which setting the asides aside
        does not change: asked at any time (a rule comparing one claim reads the words around it)."""
        return self._line_texts.get(line)

    def example_passes(self, line: int, version: str) -> bool:
        """True when README `line` speaks of the command below it (`The example below builds Python 3.12
        container`, `the following command builds …`) and the command block after it, a few lines down,
        passes `version` (`./build/rocm/ci_build.sh --py_version 3.12`): the version is the example's
        choice, which the build passes on through its script, not a claim about the Dockerfile's default."""
        passed = self._example_numbers.get(line)
        return passed is not None and version.lstrip("vV") in passed

    @functools.cached_property
    def _example_numbers(self) -> dict[int, frozenset[str]]:
        """README line introducing the command block below it (`_EXAMPLE`) → the versions that block
        passes (`3.12` of `--py_version 3.12`, each number whole: not `3.12` of `3.12.1`). Read once for
        the README: a line of thousands of version claims asks once per claim."""
        found: dict[int, frozenset[str]] = {}
        starts = sorted((f.lines[0][0], index) for index, f in enumerate(self._doc.fences) if f.lines)
        firsts = [first for first, _ in starts]
        for line, text in self._line_texts.items():
            if not _EXAMPLE.search(text):
                continue
            at = bisect.bisect_right(firsts, line)
            if at == len(starts) or starts[at][0] > line + _EXAMPLE_REACH:
                continue
            fence = self._doc.fences[starts[at][1]]
            found[line] = frozenset(m for _, code in fence.lines for m in _PASSED_NUMBER.findall(code))
        return found

    @functools.cached_property
    def built(self) -> dict[str, set[str | None]]:
        """The repositories the README's `docker build -t` commands tag → the Dockerfiles those commands
        name with `-f` (`commands.built_repositories`)."""
        return built_repositories(self.doc)

    @functools.cached_property
    def tagged(self) -> frozenset[str]:
        """The last names of the images the README's build lines tag (`commands.tagged_names`)."""
        return tagged_names(self.doc)

    @functools.cached_property
    def published_runs(self) -> frozenset[str]:
        """The repositories (lower case) of the images the README runs by name (`docker run
        nvcr.io/nvidia/tensorflow:25.02-tf2-py3 bash`) when it never makes an image of its own: no block
        builds one (`docker build`, `docker compose`, `make`, a `build` script) and no word of it names a
        Dockerfile, and that the scripts beside the README run too, at the same tag. Such a README's
        environment is the published image as its scripts use it; a tag of a base's repository it names is
        that image's, no claim about the Dockerfile's FROM (`Auditor.base_tag_claim`). A README whose
        scripts do not run that tag still describes the Dockerfile beside it."""
        doc = self.doc
        words = [text for p in doc.paragraphs for _, text in p.lines]
        words += [text for _, text in doc.headings]
        words += [cell for t in doc.tables for _, row in t.rows for cell in [*row, *t.header]]
        words += [text for f in doc.fences for _, text in f.lines]
        if any(_DOCKERFILE.search(text) for text in words):
            return frozenset()
        # `make` may build the image when the README's folder has a Makefile; not after `cmake`, which
        # wrote the one it reads
        folder = str(self.directory) if self.directory is not None else None
        made = folder is None or any(
            os.path.isfile(os.path.join(folder, name)) for name in ("Makefile", "makefile", "GNUmakefile")
        )
        found: set[str] = set()
        for fence in doc.fences:
            for command in fence_commands(fence):
                text = without_prompt(joined(command).strip())
                if (
                    BUILD.search(text)
                    or _MAKES_IMAGE.search(text)
                    or (_MAKE.search(text) and made and "cmake" not in text)
                ):
                    return frozenset()
                if (run := _RUN.search(text)) is not None:
                    found.update(m.group(0) for m in IMAGE_REF.finditer(text, run.end()))
        # only an image the project's own scripts run too: then the README describes the workflow of those
        # scripts (`run_tensorflow_steps.sh` runs the same tag), not a README left behind by its Dockerfile
        scripts = self._script_texts()
        return frozenset(ref.split(":")[0].lower() for ref in found if any(ref in text for text in scripts))

    def _script_texts(self) -> list[str]:
        """The texts of the scripts, Makefiles and compose files in the README's folder."""
        if self.directory is None:
            return []
        try:
            names = sorted(os.listdir(self.directory))
        except OSError:
            return []
        texts = []
        for name in names:
            if name.endswith(_SCRIPT_SUFFIXES) or name in ("Makefile", "makefile", "GNUmakefile"):
                path = self.directory / name
                if os.path.isfile(path) and (text := self.text(path)) is not None:
                    texts.append(text)
        return texts

    @functools.cached_property
    def make_passed(self) -> dict[str, frozenset[tuple[str, str]]]:
        """The build args the Makefile `make` reads in the README's folder passes to `docker build`
        (`--build-arg ROCM_VERSION=$(ROCM_VERSION)` with `ROCM_VERSION ?= 7.1.1`) → (value with a plain
        `make`, the Dockerfile's file name) of each; a value needing the environment is left out. A
        README listing the variables of its `make build` gives these as the defaults."""
        if self.directory is None:
            return {}
        path = next((self.directory / n for n in DEFAULT_FILES if os.path.isfile(self.directory / n)), None)
        text = self.text(path) if path is not None else None
        found: dict[str, set[tuple[str, str]]] = {}
        for passed in build_args(text) if text is not None and "--build-arg" in text else ():
            if passed.value is not None:
                found.setdefault(passed.name, set()).add((passed.value, os.path.basename(passed.dockerfile)))
        return {name: frozenset(values) for name, values in found.items()}

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
