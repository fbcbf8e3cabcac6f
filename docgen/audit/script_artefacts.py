"""A script of the project the README says sets up a system artefact (`` `setup_lxc_passthrough.sh`:
host-side script configuring udev rules ``, `install.sh creates a systemd service`, `adds a cron job`)
whose text never names it: no udev rule, `rules.d` or `udevadm`; no `systemd`, `systemctl` or `.service`
file; no `cron` or `crontab`. The sentence describes a script that was rewritten, or one never written.

A claim is one sentence of the prose (a list item, a table row) naming the script (a `.sh`, `.bash` or
`.py` file the README's folder, the repository's top or, by a name only one file of the repository has,
the repository holds) and, after it, a verb of making (`configures`, `creates`, `installs`, `sets up`,
`registers`, `enables`) before the artefact. Not when the sentence denies it or leaves it to the reader
(`not`, `without`, `instead of`, `manually`, `you`), nor when the script may get the artefact elsewhere: it
installs packages (a package may ship udev rules or a unit), downloads something, or names another
file of the repository that names the artefact (a helper it runs or sources). `likely`: the words are the
README's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.missing import repository_files
from docgen.audit.own_repo import repository_root
from docgen.audit.references import inside
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_ARTEFACTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str], str], ...] = (
    (
        "udev rules",
        re.compile(r"\budev(?:[ \t]+rules?)?\b", re.IGNORECASE),
        re.compile(r"udev|rules\.d|\.rules\b", re.IGNORECASE),
        "no udev rule, rules.d folder or udevadm",
    ),
    (
        "a systemd unit",
        re.compile(r"\bsystemd\b(?:[ \t]+(?:units?|services?|timers?))?", re.IGNORECASE),
        re.compile(r"systemd|systemctl|\.service\b|\.timer\b", re.IGNORECASE),
        "no systemd, systemctl or .service file",
    ),
    (
        "a cron job",
        re.compile(r"\bcron(?:[ \t]*jobs?|tab)?\b", re.IGNORECASE),
        re.compile(r"cron", re.IGNORECASE),
        "no cron or crontab",
    ),
)
"""(what is said, its words in the README, the words of a file that makes it, what the file lacks)."""

_SCRIPT = re.compile(r"(?<![\w./$<{-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:sh|bash|py))(?![\w/-])")
"""A script's path as prose names it (`lxc/setup.sh`, `install.py`)."""
_MAKING = re.compile(
    r"\b(?:configur|creat|install|writ|add|generat|register|enabl|deploy|set(?:s|ting)?[ \t]+up|sets?\b)\w*"
    r"[^.;]{0,40}\Z",
    re.IGNORECASE,
)
"""A verb of making just before the artefact (`configuring udev rules`, `creates a systemd service`)."""
_DENIED = re.compile(
    r"\b(?:not|no|without|instead|never|rather|unlike|manually|yourself|you|your|optional(?:ly)?|if)\b|n't\b",
    re.IGNORECASE,
)
"""Words denying the sentence or leaving the artefact to the reader."""
_ELSEWHERE = re.compile(
    r"\b(?:apt(?:-get)?|dnf|yum|zypper|pacman|apk|snap|brew)[ \t]+(?:-\S+[ \t]+)*(?:install|add|-S)\b"
    r"|\b(?:pip3?|dpkg|rpm|npm|conda|ansible(?:-playbook)?|curl|wget|git[ \t]+clone)\b"
    r"|\bsubprocess\b|\bos\.system\b",
    re.IGNORECASE,
)
"""What a script may get the artefact from without naming it: a package manager, a download, a program
run with words docgen does not read."""
_SENTENCE = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z`*])")
_SCRIPT_LIMIT = 200_000
"""Bytes of a script read at most."""


def _sentences(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, text) of each sentence of the prose and of each table row (its cells joined)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            for sentence in _SENTENCE.split(text):
                yield line, sentence
    for table in doc.tables:
        for line, cells in table.rows:
            yield line, " | ".join(cells)


def _claims(doc: Document) -> Iterator[tuple[int, str, int]]:
    """(README line, script path, index in `_ARTEFACTS`) of each sentence saying a script it names makes
    an artefact (see the module)."""
    for line, sentence in _sentences(doc):
        if "." not in sentence or _DENIED.search(sentence):
            continue
        for index, (_, said, _, _) in enumerate(_ARTEFACTS):
            artefact = said.search(sentence)
            if artefact is None:
                continue
            before = sentence[: artefact.start()]
            named = [m.group(1) for m in _SCRIPT.finditer(before)]
            if named and _MAKING.search(before[before.rfind(named[-1]) + len(named[-1]) :]):
                yield line, named[-1], index


class _Files:
    """The repository's files, listed once, when a claim needs them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: list[Path] | None = None
        self._listed = False

    def files(self) -> list[Path]:
        """The files below the repository's top (none past the walk's limit)."""
        if not self._listed:
            self._files, self._listed = repository_files(self.root), True
        return self._files or []


def _script_file(path: str, directory: Path, files: _Files) -> Path | None:
    """The file `path` names: from the README's folder or the repository's top, else the one file of
    the repository of its name; None when there is none or several."""
    for base in (directory, files.root):
        place = inside(base / path, files.root)
        if place is not None and os.path.isfile(place):
            return place
    name = path.rsplit("/", 1)[-1]
    found = [f for f in files.files() if f.name == name and f.as_posix().endswith("/" + path)]
    return found[0] if len(found) == 1 else None


def _names_elsewhere(text: str, script: Path, files: _Files, evidence: re.Pattern[str]) -> bool:
    """True when `text` (the script's) names another file of the repository that names the artefact
    (`evidence`) or cannot be read: the script may run or source it."""
    for other in files.files():
        if other == script or not re.search(rf"(?<![\w.-]){re.escape(other.name)}(?![\w-])", text):
            continue
        read = text_or_none(other, _SCRIPT_LIMIT)
        if read is None or evidence.search(read):
            return True
    return False


def script_artefacts(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A script the README says makes udev rules, a systemd unit or a cron job whose text never names
    it (see the module), `likely`. One finding a script and artefact."""
    claims = list(_claims(doc))
    if not claims:
        return
    root = repository_root(directory) or directory.resolve()
    files = _Files(root)
    seen: set[tuple[str, int]] = set()
    for line, path, index in claims:
        if (path, index) in seen:
            continue
        seen.add((path, index))
        what, _, evidence, lacks = _ARTEFACTS[index]
        script = _script_file(path, directory.resolve(), files)
        if script is None:
            continue
        text = text_or_none(script, _SCRIPT_LIMIT)
        if text is None or not text.strip() or evidence.search(text) or _ELSEWHERE.search(text):
            continue
        if _names_elsewhere(text, script, files, evidence):
            continue
        shown = script.relative_to(root).as_posix() if script.is_relative_to(root) else path
        lines = text.count("\n") + (not text.endswith("\n"))
        yield Diagnostic(
            readme,
            line,
            f"README says {path} sets up {what}, but {shown} (lines 1-{lines}) names {lacks}: it makes none",
            confidence=LIKELY,
        )
