"""The one Dockerfile a README links as its own (`We provide a [Dockerfile](docker/Dockerfile) to build
an image`) while every build command of the README builds another one (`docker build -t app
docker/app/`): the link sends the reader to a recipe the image is not built from.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.missing import SCHEME
from docgen.audit.own_repo import DEFAULT_BRANCHES, checked_out, forge_file, remote_names, repository_root
from docgen.audit.paths import basename, reference_path
from docgen.audit.references import bases_above, context_builds, indented_blocks, inside, project_top
from docgen.build_scripts import BUILD
from docgen.files import bytes_or_none, is_dockerfile_name, real_path
from docgen.markdown import Document, links
from docgen.model import Diagnostic

_ANOTHER_ROLE = re.compile(
    r"\b(?:base[sd]?|extend\w*|parent|upstream|original|official|examples?|samples?|templates?|(?-i:FROM)"
    r"|inspired|adapted|modell?ed|derived|reference)\b",
    re.IGNORECASE,
)
"""Words of the linking line that give the linked Dockerfile another part than the image's recipe: the
base it is built on (`based on [this Dockerfile](…)`), another project's, an example to adapt."""
_OTHER_BUILDS = re.compile(
    r"\bcompose\b|\bbake\b|\bbuildah\b|\bkaniko\b|\bpacker\b|(?:^|[\s;&|(])(?:make|just|task|\./[\w./-]+"
    r"|(?:ba)?sh[ \t]+[\w./-]+)\b|\.sh\b|\bbuild\.py\b"
)
"""A way to build besides `docker build` (compose, bake, make, a script): it may build the one linked."""


def _linked_dockerfiles(doc: Document, directory: Path, root: Path) -> list[tuple[int, str, Path | None]]:
    """(README line, target, file) of each link to a Dockerfile: a relative one read from the README's
    folder (`/` from the root), a GitHub address of the repository itself (a remote names it; with no
    remote, its path is there from the root) at the branch checked out; the file None when neither."""
    branch = checked_out(root)
    remotes = remote_names(root)
    found: list[tuple[int, str, Path | None]] = []
    for line, raw in doc.destinations:
        target = raw.strip()
        if "://" in target:
            forge = forge_file(target, (branch,) if branch else DEFAULT_BRANCHES)
            if not is_dockerfile_name(basename(target.split("?", 1)[0].split("#", 1)[0].rstrip("/"))):
                continue
            file = None
            if forge is not None and (forge[0] in remotes or not remotes):
                file = root / forge[2]
            found.append((line, target, file))
            continue
        if SCHEME.match(target) or target.startswith("#"):
            continue
        path = reference_path(target)
        if not is_dockerfile_name(basename(path)):
            continue
        base = root if path.startswith("/") else directory
        found.append((line, target, Path(os.path.normpath(base / path.lstrip("/")))))
    return found


def _link_text(doc: Document, line: int, target: str) -> tuple[str, str] | None:
    """(the text of the link to `target` on README `line`, the whole line) in the prose; None elsewhere."""
    for para in doc.paragraphs:
        for number, text in para.lines:
            if number == line and "](" in text:
                for link in links(text):
                    if link.target is not None and link.target.strip() == target:
                        return link.text, text
    return None


def unbuilt_links(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """The only Dockerfile the README links, introduced as its Dockerfile by a link of no other words
    (`a [Dockerfile](…)`, `the [`Dockerfile`](…)`, its own file name), when the README builds with
    `docker build` only, every build of it resolves to one Dockerfile, and that one is another file with
    other text (`likely`). Not when the README links more than one Dockerfile (several images), the
    linking line gives the link another part (`based on`, `upstream`, an example: `_ANOTHER_ROLE`), a
    build command cannot be followed or builds the one linked (a base built first), or the README builds
    some other way (compose, bake, make, a script: `_OTHER_BUILDS`)."""
    root = repository_root(directory)
    if root is None:
        return
    linked = _linked_dockerfiles(doc, directory, root)
    if len({target for _, target, _ in linked}) != 1:
        return
    line, target, file = linked[0]
    if file is None or not os.path.isfile(file) or any(other != line for other, _, _ in linked):
        return
    said = _link_text(doc, line, target)
    if said is None:
        return
    text, sentence = said
    words = re.sub(r"\A(?:the|a|an|this|our|its)[ \t]+", "", text.strip("`*_ ").lower()).strip("`*_ ")
    if words not in ("dockerfile", file.name.lower()) or _ANOTHER_ROLE.search(sentence.replace(target, "")):
        return
    blocks = sorted([*doc.fences, *indented_blocks(doc)], key=lambda b: b.lines[0][0] if b.lines else 0)
    steps = [text for block in blocks if block.lang.lower() != "mermaid" for _, text in block.lines]
    if any(_OTHER_BUILDS.search(step) for step in steps):
        return
    wanted = sum(len(BUILD.findall(step)) for step in steps)
    if not wanted:
        return
    top = project_top(directory, project)
    bases = bases_above(directory, top)
    builds = list(context_builds(blocks, bases, top))
    built = {real_path(dockerfile): dockerfile for _, _, dockerfile, _, _ in builds}
    if len(builds) != wanted or len(built) != 1:
        return
    ((dockerfile, spelled),) = built.items()  # `spelled`: read as found, to see a link out of the project
    if dockerfile == real_path(file) or inside(real_path(file), top) is None:
        return
    if any(real_path(base / shown) == real_path(file) for _, shown, _, _, _ in builds for base in bases):
        return  # `docker build .` read from the README's folder may be run from the root, which has it
    built_text, linked_text = bytes_or_none(spelled), bytes_or_none(file)
    if built_text is None or linked_text is None or built_text == linked_text:
        return  # one recipe in two places, or one docgen does not read (a link out, too large)
    first, shown = builds[0][0], builds[0][1]
    linked_shown = os.path.relpath(real_path(file), top)
    yield Diagnostic(
        readme,
        line,
        f"README links {linked_shown} as its Dockerfile, but every build command of it builds {shown} "
        f"(line {first}), another recipe",
        confidence=LIKELY,
    )
