"""A release of a component the README names by its codename (`Gazebo Harmonic`, `Ubuntu Noble`,
`Debian Bookworm`) while the build arg named for that component's version defaults to another codename
of the same component (`ARG GAZEBO_VERSION=fortress`, used as `gazebo-${GAZEBO_VERSION}`).

Versions are compared as numbers elsewhere; a codename is a word. Read only when the component is named
on both sides: the README's words are the component's name and a codename of its releases right after it
(`Gazebo Harmonic`, `Ignition **Fortress**`), the arg's name is that component's with `_VERSION`,
`_DISTRO`, `_RELEASE` or `_CODENAME` (`GAZEBO_VERSION`, `UBUNTU_CODENAME`), and its default is one
codename of the same list. Gazebo (with its former name Ignition and `gz`), Ubuntu and Debian are known;
ROS distributions are `ros_variants`'. `likely` (prose).

Not a claim: a README naming two codenames of the component (a choice, a family of images), a line about
the history, a choice or another machine (`from`, `or`, `supports`, `upgrade`, `host`), a section about
the host, a README naming the arg itself (it tells the reader to pass another value), an arg declared
with two different defaults, and an arg whose default is a variable or a number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.audit.aside import is_host_heading
from docgen.audit.auditor import LIKELY, also_at
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel

CODENAMES: dict[str, frozenset[str]] = {
    "gazebo": frozenset(
        "acropolis blueprint citadel dome edifice fortress garden harmonic ionic jetty".split()
    ),
    "ubuntu": frozenset(
        "trusty xenial bionic focal jammy kinetic lunar mantic noble oracular plucky questing".split()
    ),
    "debian": frozenset("jessie stretch buster bullseye bookworm trixie forky".split()),
}
"""The codenames of each component's releases (Gazebo's since Ignition Acropolis)."""
_FAMILY = {"gazebo": "gazebo", "ignition": "gazebo", "gz": "gazebo", "ubuntu": "ubuntu", "debian": "debian"}
"""The component an arg's or a README's word names."""
_ARG = re.compile(r"([A-Z][A-Z0-9]*)_(?:VERSION|DISTRO|RELEASE|CODENAME)\Z")
_SAID = re.compile(r"\b(Gazebo|Ignition|Ubuntu|Debian)[ \t]+\**([A-Za-z]+)\b", re.IGNORECASE)
"""A component and the word after it: `Gazebo Harmonic`, `ubuntu **noble**`."""
_NOT_THE_IMAGE = re.compile(
    r"\b(?:from|ported|migrat\w*|previous\w*|former\w*|older|legacy|upgrad\w*|downgrad\w*|instead"
    r"|support\w*|compatib\w*|or|also|switch\w*|tested|unlike|until|was|were|used|deprecated|eol|host"
    r"|laptop|locally|outside|machine|computer|robot|other)\b",
    re.IGNORECASE,
)
"""Words of a line naming a release that is not (only) the image's."""


def _arg_facts(models: Sequence[ImageModel]) -> dict[str, tuple[str, str, int, str]]:
    """Component → (arg name, codename default, line, path) of the one arg of each component the audited
    Dockerfiles declare with a codename default; a component with two different defaults is left out."""
    found: dict[str, tuple[str, str, int, str]] = {}
    mixed: set[str] = set()
    for model in models:
        for arg in model.args:
            match = _ARG.match(arg.name)
            family = _FAMILY.get(match.group(1).lower()) if match else None
            default = (arg.raw_default or "").strip("\"'").lower()
            if family is None or default not in CODENAMES[family]:
                continue
            if family in found and found[family][1] != default:
                mixed.add(family)
            found.setdefault(family, (arg.name, default, arg.line, model.path))
    return {family: fact for family, fact in found.items() if family not in mixed}


def codename_claims(
    doc: Document, text: str, models: Sequence[ImageModel], readme: str
) -> Iterator[Diagnostic]:
    """Each component whose codename the README gives (see the module) differs from its arg's default,
    told once at the first line."""
    facts = _arg_facts(models)
    if not facts:
        return
    said: dict[str, list[tuple[int, str, str]]] = {}  # component → (line, codename, as written)
    named: dict[str, set[str]] = {}
    for para in doc.paragraphs:
        host = is_host_heading(para.heading)
        for line, words in para.lines:
            for match in _SAID.finditer(words):
                family = _FAMILY[match.group(1).lower()]
                codename = match.group(2).lower()
                if family not in facts or codename not in CODENAMES[family]:
                    continue
                named.setdefault(family, set()).add(codename)
                if not host and not _NOT_THE_IMAGE.search(words):
                    said.setdefault(family, []).append((line, codename, match.group().replace("*", "")))
    for family, claims in said.items():
        name, default, at, path = facts[family]
        if len(named[family]) != 1 or claims[0][1] == default or name in text:
            continue
        lines = [line for line, _, _ in claims]
        yield Diagnostic(
            readme,
            lines[0],
            f"README says {claims[0][2]} but {path}:{at} sets {name}={default} ({family.capitalize()} "
            f"{default.capitalize()}){also_at(lines)}",
            confidence=LIKELY,
        )
