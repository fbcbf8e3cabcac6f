"""Findings for people and for machines: the rule ids of `docgen lint`, `audit` and `check`, silencing a
rule in place (`# docgen: ignore=DG003`) or in the config, and the output formats `text`, `json`, `github`
(workflow-command annotations) and `sarif` (SARIF 2.1.0, which GitHub code scanning shows inline).

The ids are stable: a rule keeps its id when its wording changes, and an id is never reused
(docs/lint.md lists them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen import __version__
from docgen.model import Diagnostic

SCHEMA_VERSION = 1
"""The version of the JSON documents docgen prints (docs/json.md); raised when a field changes meaning
or goes away, not when one is added."""

READER = "DG010"
AUDIT = "DG101"
MISSING_FILE = "DG102"
BROKEN_COMMAND = "DG103"
STALE = "DG201"

AUDIT_RULES = (AUDIT, MISSING_FILE, BROKEN_COMMAND)
"""The rule ids of `docgen audit`'s findings, one a family of checks (`docgen.audit.FAMILIES`). The first,
DG101, was every audit finding's id before the families had their own: silencing it (in place or in the
config) still silences them all."""

RULES: dict[str, tuple[str, str]] = {
    "DG001": ("arg-out-of-scope", "A build arg is used in a stage that does not declare it"),
    "DG002": ("hard-coded-default", "A build arg's default is also written literally elsewhere"),
    "DG003": ("unused-arg", "A build arg is declared but never used"),
    "DG004": ("unpinned-source", "A git (or go/cargo) source is not pinned, or is pinned to a branch"),
    "DG005": ("branch-download", "A download URL takes a branch, which moves"),
    "DG006": ("pip-rejected-option", "A pip command has an option pip rejects (`-no-build-isolation`)"),
    "DG007": (
        "gpu-targets-disagree",
        "GPU target lists of one stage disagree (`PYTORCH_ROCM_ARCH`, `GPU_TARGETS`)",
    ),
    "DG008": ("shell-keyword-argument", "A `fi`, `done` … is an argument of an install command"),
    "DG009": (
        "gpu-target-toolkit",
        "A GPU target list names a target the base image's CUDA release cannot compile",
    ),
    "DG011": ("lost-shell-variable", "A RUN only sets shell variables, which end with it (`RUN export X=1`)"),
    "DG012": ("copy-shell-syntax", "A COPY or ADD holds shell syntax (`|| true`), which no shell runs"),
    "DG013": (
        "redirected-requirement",
        "An unquoted version bound in a RUN (`pip install x>=1`) is read by the shell as a redirection",
    ),
    "DG014": (
        "dash-bash-syntax",
        "A RUN run by dash (Debian's and Ubuntu's /bin/sh) holds bash-only syntax (`source`, `[[`)",
    ),
    READER: ("reader", "The reader or the evaluator noticed something odd (a '#' that is no comment …)"),
    AUDIT: (
        "stale-claim",
        "A claim in a hand-written README contradicts the image (ignoring it ignores DG102 and DG103 too)",
    ),
    MISSING_FILE: (
        "missing-file",
        "A file, folder or script a hand-written README names or its commands need is not in the project",
    ),
    BROKEN_COMMAND: (
        "broken-command",
        "A command of a hand-written README cannot work as written (a rejected option, a broken line …)",
    ),
    STALE: ("stale-block", "A generated block is out of date"),
}
"""Rule id → (name, one-line description)."""

_IGNORE = re.compile(r"docgen:[ \t]*ignore[ \t]*=[ \t]*([A-Za-z]+[0-9]+(?:[ \t]*,[ \t]*[A-Za-z]+[0-9]+)*)")
"""`# docgen: ignore=DG003` (Dockerfile) or `<!-- docgen: ignore=DG101 -->` (Markdown); ids separated by
commas. What follows the ids is a reason (`# docgen: ignore=DG003 read by the CI matrix`), not more ids."""
_WORD = r"[A-Za-z]\w*(?:-[A-Za-z]\w*)*"
_IGNORE_WORDS = re.compile(rf"docgen:[ \t]*ignore[ \t]*=[ \t]*({_WORD}(?:[ \t]*,[ \t]*{_WORD})*)")
"""The same comment as `_IGNORE` with any word where an id should be (`ignore=unused-arg`, `ignore=DG03`),
to tell the ids that silence nothing."""


@dataclass(frozen=True)
class Finding:
    """One finding as the formats print it."""

    rule: str
    """Its rule id (`DG003`)."""
    level: str
    """`warning` or `error`."""
    path: str
    """The file, as shown to the user (`/`-separated)."""
    line: int
    """1-based line; 0 for the whole file."""
    message: str
    """What is wrong."""
    confidence: str = ""
    """audit: how sure docgen is, `certain` or `likely` (`CONFIDENCE_RANK`); '' for lint and check."""

    @property
    def text(self) -> str:
        """`path:line: warning: message [DG003]`, and `(certain)` or `(likely)` after an audit finding."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        sure = f" ({self.confidence})" if self.confidence else ""
        return f"{where}: {self.level}: {self.message} [{self.rule}]{sure}"


CONFIDENCE_RANK = {"certain": 90, "likely": 50}
"""An audit finding's confidence as a SARIF `rank` (0 to 100: how much a reader should trust it)."""


def rule_of(diagnostic: Diagnostic, default: str = READER) -> str:
    """The rule id of a diagnostic (the reader's own warnings have none: `DG010`)."""
    return getattr(diagnostic, "rule", "") or default


def from_diagnostics(
    diagnostics: Iterable[Diagnostic], default: str = READER, level: str = "warning"
) -> list[Finding]:
    """Diagnostics as findings."""
    return [Finding(rule_of(d, default), level, d.path, d.line, d.message, d.confidence) for d in diagnostics]


def silencing(rule: str) -> set[str]:
    """The ids that silence a finding of `rule`: itself, and DG101 for every audit family (`AUDIT_RULES`)."""
    return {rule, AUDIT} if rule in AUDIT_RULES else {rule}


def ignored_at(lines: Sequence[str], line: int) -> set[str]:
    """The rule ids silenced at 1-based `line` of a file: by `docgen: ignore=ID,…` on that line or on the
    line above it."""
    found: set[str] = set()
    for number in (line, line - 1):
        if 1 <= number <= len(lines) and "docgen" in lines[number - 1]:
            for match in _IGNORE.finditer(lines[number - 1]):
                found.update(i.strip().upper() for i in match.group(1).split(",") if i.strip())
    return found


def unknown_ignores(text: str, path: str) -> list[Finding]:
    """A warning (rule `READER`) for each id in a `docgen: ignore=…` comment of `text` (file `path` as
    shown) that is no rule id: a typo there would silence nothing, in silence."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "docgen" not in line:
            continue
        for match in _IGNORE_WORDS.finditer(line):
            for word in match.group(1).split(","):
                if word.strip().upper() not in RULES:
                    message = f"unknown rule id {word.strip()} in an ignore comment: it silences nothing"
                    found.append(Finding(READER, "warning", path, number, message))
    return found


def keep(findings: Iterable[Finding], texts: dict[str, str], disabled: Iterable[str] = ()) -> list[Finding]:
    """`findings` without those of a `disabled` rule, or silenced in place in their file (`texts`: path
    → text of the files the findings are about; a file not in it silences nothing). DG101 disables and
    silences every audit finding, whatever its family (`silencing`)."""
    off = set(disabled)
    split = {path: text.splitlines() for path, text in texts.items()}
    silenced: dict[tuple[str, int], set[str]] = {}  # each line's ids read once, however many findings

    def ignored(f: Finding) -> bool:
        key = (f.path, f.line)
        if key not in silenced:
            silenced[key] = ignored_at(split.get(f.path, []), f.line)
        return not silenced[key].isdisjoint(silencing(f.rule))

    return [f for f in findings if off.isdisjoint(silencing(f.rule)) and not (f.line and ignored(f))]


def unknown_rules(ids: Iterable[str]) -> list[str]:
    """The ids in `ids` that are no rule."""
    return [i for i in ids if i not in RULES]


# --------------------------------------------------------------------------------------------------
# Formats


def to_json(findings: Sequence[Finding], **extra: Any) -> dict[str, Any]:
    """`--format json` of lint and audit (schema in docs/json.md)."""
    return {
        "schema_version": SCHEMA_VERSION,
        **extra,
        "findings": [finding_json(f) for f in findings],
    }


def finding_json(finding: Finding) -> dict[str, Any]:
    """One finding in JSON (`confidence` only when it has one: audit's)."""
    data: dict[str, Any] = {
        "rule": finding.rule,
        "level": finding.level,
        "path": finding.path,
        "line": finding.line,
        "message": finding.message,
    }
    if finding.confidence:
        data["confidence"] = finding.confidence
    return data


def annotation(level: str, path: str | None, line: int | None, message: str, title: str = "docgen") -> str:
    """A GitHub Actions workflow command (`::error file=…,line=…::message`), escaped as GitHub asks."""

    def data(value: str) -> str:
        return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def prop(value: str) -> str:
        return data(value).replace(":", "%3A").replace(",", "%2C")

    where = f"file={prop(path)}," + (f"line={line}," if line else "") if path else ""
    return f"::{level} {where}title={prop(title)}::{data(message)}"


def to_github(findings: Sequence[Finding]) -> list[str]:
    """`--format github`: one annotation a finding, titled with its rule."""
    return [
        annotation(
            f.level, f.path, f.line, f.message, " ".join(filter(None, ("docgen", f.rule, f.confidence)))
        )
        for f in findings
    ]


SOURCE_ROOT = "%SRCROOT%"
"""The `uriBaseId` of SARIF locations: the repository root, as GitHub code scanning and the SARIF
standard's examples name it."""


def repository_root(project: Path) -> Path:
    """The root SARIF locations are relative to: the nearest folder at or above `project` (the project
    root) holding `.git` (a folder, or a file in a worktree), else `project` itself."""
    start = project.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def to_sarif(findings: Sequence[Finding], root: Path | None = None) -> dict[str, Any]:
    """`--format sarif`: a SARIF 2.1.0 log with one run; every rule docgen has is described, each
    result points at its rule by id and index, and its location is the file relative to `root` (the
    repository root, `repository_root`; default: the current folder's) with `uriBaseId` `%SRCROOT%`,
    which the run's `originalUriBaseIds` maps to `root`. A file outside `root` gets an absolute
    `file:` URI."""
    ids = list(RULES)
    base = (root or repository_root(Path.cwd())).resolve()
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "docgen",
                        "version": __version__,
                        "rules": [
                            {
                                "id": rule,
                                "name": name,
                                "shortDescription": {"text": description},
                                "defaultConfiguration": {"level": "error" if rule == STALE else "warning"},
                            }
                            for rule, (name, description) in RULES.items()
                        ],
                    }
                },
                "originalUriBaseIds": {SOURCE_ROOT: {"uri": base.as_uri().rstrip("/") + "/"}},
                "results": [
                    _sarif_result(f, ids.index(f.rule) if f.rule in ids else -1, base) for f in findings
                ],
            }
        ],
    }


def _artifact(path: str, root: Path) -> dict[str, str]:
    """A SARIF artifactLocation of `path` (as shown: relative to the current folder, or absolute)."""
    from urllib.parse import quote

    full = Path(os.path.abspath(Path.cwd() / path.replace("\\", "/")))
    try:
        return {"uri": quote(full.relative_to(root).as_posix()), "uriBaseId": SOURCE_ROOT}
    except ValueError:
        try:  # the current folder through a symlink, or a file there
            return {"uri": quote(full.resolve().relative_to(root).as_posix()), "uriBaseId": SOURCE_ROOT}
        except (ValueError, OSError, RuntimeError):
            return {"uri": full.as_uri()}


def _sarif_result(finding: Finding, index: int, root: Path) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": _artifact(finding.path, root)}
    if finding.line:
        location["region"] = {"startLine": finding.line}
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "level": finding.level,
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": location}],
    }
    if index >= 0:
        result["ruleIndex"] = index
    if finding.confidence:
        result["rank"] = CONFIDENCE_RANK.get(finding.confidence, -1)
        result["properties"] = {"confidence": finding.confidence}
    return result
