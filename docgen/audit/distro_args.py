"""A value a README offers for a build arg of the base image (`FROM nvidia/cuda:12.2.0-${OS}`) that names
a distribution family (`centos7`, `rockylinux9`, `ubi8`, `fedora`, `alpine3.19`, `opensuse`) whose
package manager no RUN of the Dockerfile uses, while its RUNs use only Debian's (`apt-get`): the base
has no `apt-get`, and the build stops at the first RUN that calls it.

The README line gives the value after `NAME=` (`--build-arg OS=centos7`), or starts with the arg's name
(as the Dockerfile writes it, a list item's first word: `- OS (eg: `ubuntu22.04` or `centos7`)`) and
gives it in a code span. Silent when the
Dockerfile reads the distribution (`os-release`, `command -v`, `which`, `if`, `case`: it may branch
on it), names any other package manager (`yum`, `dnf`, `microdnf`, `apk`, `zypper`, `rpm`), runs a
script (`.sh`: it may), when a Dockerfile next to it does, on a table row (a list of published tags),
and on a line that says the value is not for it (`not`, `unsupported`, `except`). `likely`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.dockerfile import read_dockerfile
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import is_dockerfile_name, text_or_none
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, Instruction

_FAMILY = re.compile(
    r"(?<![\w.-])(centos|rockylinux|rocky|almalinux|ubi|fedora|amzn|amazonlinux|oraclelinux|alpine|opensuse|sles)"
    r"(?:[\d.:-][\w.:-]*)?(?![\w])",
    re.IGNORECASE,
)
"""A value naming a distribution family with no `apt-get` (`centos7`, `ubi8`, `alpine3.19`)."""
_APT = re.compile(r"\bapt(?:-get)?[ \t]+(?:-\S+[ \t]+)*(?:install|update)\b")
_OTHER = re.compile(
    r"\b(?:yum|dnf|microdnf|tdnf|apk|zypper|rpm|pacman|os-release|command[ \t]+-v|which|if|case|type)\b"
    r"|\.sh\b"
)
"""What lets a Dockerfile build on another family, or may: another package manager, a branch, a script."""
_NOT = re.compile(r"\b(?:not|no|unsupported|never|except|without|instead)\b", re.IGNORECASE)


def distro_args(doc: Document, readme: str, directory: Path, audited: Sequence[str]) -> Iterator[Diagnostic]:
    """The findings told in the module's words."""
    told: set[int] = set()
    for shown in audited:
        file = Path(shown) if os.path.isfile(Path(shown)) else directory / shown
        try:
            parsed = read_dockerfile(file, shown)
        except (DocgenError, OSError):
            continue
        judged = _judged(parsed.instructions)
        if judged is None or _siblings_differ(file):
            continue
        names, base_line, apt_line = judged
        for line, name, value in _offers(doc, names):
            if line in told:
                continue
            told.add(line)
            yield Diagnostic(
                readme,
                line,
                f"README offers {name}={value} for the base image ({shown} line {base_line} reads "
                f"${{{name}}} in FROM), but every package step uses apt-get (line {apt_line}), which a "
                f"{value} base does not have",
                confidence=LIKELY,
            )


def _judged(instructions: Sequence[Instruction]) -> tuple[dict[str, int], int, int] | None:
    """({arg read in a FROM: its line}, a FROM line, the first apt-get line) of a Dockerfile whose
    RUNs use apt-get and nothing that may build on another family; None otherwise."""
    names: dict[str, int] = {}
    apt_line = 0
    for instruction in instructions:
        if instruction.keyword == "FROM":
            for name in re.findall(r"\$\{?(\w+)", instruction.args):
                names.setdefault(name, instruction.start_line)
        elif instruction.keyword == "RUN":
            text = " ".join(instruction.exec_form) if instruction.exec_form else instruction.args
            text += "\n".join(h.body for h in instruction.heredocs) if instruction.heredocs else ""
            if _OTHER.search(text):
                return None
            if _APT.search(text) and not apt_line:
                apt_line = instruction.start_line
    if not names or not apt_line:
        return None
    return names, min(names.values()), apt_line


def _siblings_differ(file: Path) -> bool:
    """True when a Dockerfile next to `file` uses another package manager or branches (see `_OTHER`)."""
    try:
        others = [
            f for f in file.parent.iterdir() if f != file and is_dockerfile_name(f.name) and os.path.isfile(f)
        ]
    except OSError:
        return True
    for other in others[:50]:
        text = text_or_none(other, MAX_PROJECT_FILE_BYTES)
        if text is None or _OTHER.search(text):  # (none: unread, so it may branch)
            return True
    return False


def _offers(doc: Document, names: dict[str, int]) -> Iterator[tuple[int, str, str]]:
    """(README line, arg, value) of each line naming an arg of `names` with a value of `_FAMILY`."""
    lines = [(n, t) for p in doc.paragraphs for n, t in p.lines]
    lines += [(n, t) for f in doc.fences for n, t in f.lines]
    for line, text in sorted(lines):
        if text.lstrip().startswith("|") or _NOT.search(text):
            continue
        for name in names:
            assigned = re.search(rf"(?<![\w$]){re.escape(name)}=[\"']?([\w.:-]+)", text)
            if assigned is not None:
                values = [assigned.group(1)]
            elif re.match(rf"[ \t]*(?:(?:[-*+]|\d+[.)])[ \t]+)?[`*]*{re.escape(name)}(?!\w)", text):
                values = [span for _, _, span in code_spans(text)]
            else:
                continue
            found = next((v for v in values if _FAMILY.fullmatch(v.strip())), None)
            if found is not None:
                yield line, name, found.strip()
                break
