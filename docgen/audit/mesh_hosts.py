"""A README giving the Tailscale (MagicDNS) address of its container (`http://runpod-app.tailnet-name.ts.net`)
under a machine name the project's start scripts do not register: `tailscale up --hostname=runpod-forge`
(or the `TS_HOSTNAME=` of the tailscale image) in a script, Dockerfile or compose file beside the README
or an audited Dockerfile. The container joins the tailnet as `runpod-forge`, so the address the README
gives names no machine.

Silent when any name a file registers is not a plain word (`--hostname=$TS_NAME`, `${HOST:-app}`: the
user picks it), when the README itself sets the name (`--hostname`, `TS_HOSTNAME`), for a placeholder
address (`<machine>.ts.net`, `your-host.…`) and when no file registers a name. Each finding is `likely`.

The README's lines are read once; the project's files once each.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

_ADDRESS = re.compile(
    r"(?<![\w.<>{}$-])([A-Za-z0-9][A-Za-z0-9-]{0,62})\.(?:[^\s/.`'\")]+\.)?ts\.net\b", re.IGNORECASE
)
"""A MagicDNS address: the machine name, the tailnet's name (or a placeholder for it), `ts.net`."""
_PLACEHOLDER = re.compile(
    r"your|^my-|example|machine|device|hostname|^host$|^node$|^name$|^x{3,}|^server$|^container$",
    re.IGNORECASE,
)
"""Machine names that stand for the user's own (`your-host`, `<machine>` is cut by `_ADDRESS`)."""
_HOSTNAME_OPTION = re.compile(r"--hostname(?:=|[ \t]+)(\S+)")
_TS_HOSTNAME = re.compile(r"(?<![\w])TS_HOSTNAME[ \t]*(?:=|:[ \t])[ \t]*(\S+)")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")
_LONG = 4000
_FILE = re.compile(r"(?:.*\.(?:sh|bash)|(?:.*\.)?[Dd]ockerfile(?:\..*)?|.*compose.*\.ya?ml|entrypoint.*)")


def _files(directory: Path, models: Sequence[ImageModel]) -> list[Path]:
    """The scripts, Dockerfiles and compose files directly in `directory` and in the folders of the
    audited Dockerfiles (`models`), each once, in name order."""
    folders = {str(directory)}
    folders.update(os.path.dirname(m.file) for m in models if m.file)
    found: dict[str, Path] = {}
    for folder in sorted(folders):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if _FILE.fullmatch(name) and os.path.isfile(path) and not os.path.islink(path):
                found.setdefault(os.path.realpath(path), Path(path))
    return list(found.values())


def _logical(text: str) -> Iterator[tuple[int, str]]:
    """(first line, text) of each line of `text` with its backslash continuations joined."""
    start, parts = 0, list[str]()
    for number, line in enumerate(text.split("\n"), 1):
        if not parts:
            start = number
        parts.append(line.rstrip())
        if not line.rstrip().endswith("\\"):
            yield start, " ".join(p.rstrip("\\") for p in parts)
            parts = []
    if parts:
        yield start, " ".join(p.rstrip("\\") for p in parts)


def _registered(files: list[Path], directory: Path) -> list[tuple[str, str, int]] | None:
    """(name, file shown, line) of each Tailscale machine name the files register; None when one is
    not a plain word (set by a variable or a placeholder: the user chooses it)."""
    names: list[tuple[str, str, int]] = []
    for path in files:
        text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
        if text is None or "tailscale" not in text.lower() and "TS_HOSTNAME" not in text:
            continue
        shown = os.path.relpath(path, directory)
        lines = text.split("\n")
        for number, line in _logical(text):
            if line.lstrip().startswith("#"):
                continue
            values = [m.group(1) for m in _TS_HOSTNAME.finditer(line)]
            if re.search(r"\btailscale\b[^|;&]*\bup\b", line):
                values += [m.group(1) for m in _HOSTNAME_OPTION.finditer(line)]
            for value in values:
                value = value.strip("\"',")
                if not _PLAIN.fullmatch(value):
                    return None
                at = next((n for n in range(number, len(lines) + 1) if value in lines[n - 1]), number)
                names.append((value, shown, at))
    return names


def mesh_hosts(
    doc: Document, text: str, readme: str, directory: Path, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring) (`likely`): `README gives the Tailscale address
    runpod-app.tailnet-name.ts.net, but start_services.sh:91 registers the machine as runpod-forge
    (--hostname): the address is runpod-forge.<tailnet>.ts.net`."""
    if ".ts.net" not in text.lower() or re.search(r"--hostname|TS_HOSTNAME", text):
        return
    claims: list[tuple[int, str, str]] = []
    blocks = [line for para in doc.paragraphs for line in para.lines]
    blocks += [line for fence in doc.fences for line in fence.lines]
    for line, said in blocks:
        if ".ts.net" not in said.lower() or len(said) > _LONG:
            continue
        for match in _ADDRESS.finditer(said):
            if not _PLACEHOLDER.search(match.group(1)):
                claims.append((line, match.group(1), match.group(0)))
    if not claims:
        return
    names = _registered(_files(directory, models), directory)
    if not names:
        return
    known = {name.lower() for name, _, _ in names}
    told: set[int] = set()
    name, shown, at = names[0]
    for line, said, address in sorted(claims):
        if said.lower() in known or line in told:
            continue
        told.add(line)
        yield Diagnostic(
            readme,
            line,
            f"README gives the Tailscale address {address}, but {shown}:{at} registers the machine as "
            f"{name} (--hostname): the container joins the tailnet as {name}.<tailnet>.ts.net, "
            f"and no machine is named {said}",
            confidence=LIKELY,
        )
