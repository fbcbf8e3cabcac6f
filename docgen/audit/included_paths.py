"""A folder or file the README says the image includes (`The example notebooks are in
`/workspace/examples``, `the image ships the benchmark scripts under /opt/bench`) that nothing of the
build puts there.

A sentence of prose is a claim when it names the image or the container, says it has something (`ships`,
`includes`, `contains`, `comes with`, `are in`, `located`, `available` …) and names one absolute path of
two parts or more. It is a drift (`likely`) only when the image is known to lack the path:

- every audited image starts (its last stage, through the stages it builds on) from a plain OS image
  (`ubuntu`, `debian`, `alpine`, `rockylinux`, `python`, `nvidia/cuda` …), whose folders are the
  system's: another base (`nvcr.io/nvidia/pytorch` has `/workspace/examples`) may hold anything;
- no COPY or ADD puts the path or a folder above it there, no WORKDIR, `mkdir`, clone, install prefix,
  `tar -C`, `pip install --target`, link or ENV value names it or a folder above it, no RUN enters a
  folder above it (`image_paths.read_image`), and neither the Dockerfile nor the build-context files
  next to it or copied by it name the path or anything below it;
- no RUN runs a downloaded script (`curl … | sh`: it may make any path), and the folder the path is
  named by (the one under `/opt` or `/srv`, else its first) is no word of the Dockerfile's instructions
  or its context (a package makes a folder under its own name: `apt-get install rocm-dev` fills
  `/opt/rocm`);
- the path is not in a system folder (`/usr`, `/etc`, `/home`, `/root`, `/tmp` …), nor one the README
  mounts (`-v $PWD:/workspace`) or makes with a command (`mkdir -p /opt/bench`).

A sentence about mounting, the reader's files, or what the container writes at run time (`your`,
`mount`, `volume`, `output`, `saved`, `logs`, `will`) is no claim of what the image holds. A link's
target is no path of the image (`The [Dockerfile](/docker/Dockerfile) …`: GitHub reads `/` as the
repository's top), nor is a path that is a file or folder of the checkout counted from its top.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import LIKELY, also_at
from docgen.audit.image_paths import (
    ABSOLUTE,
    NAMED,
    Image,
    clean_path,
    context_text,
    mounted_folders,
    named_paths,
    read_image,
    readme_paths,
)
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import under_any
from docgen.audit.plain_bases import plain_base, root_base
from docgen.markdown import Document, without_links
from docgen.model import Diagnostic, ImageModel

_IMAGE = re.compile(r"\b(?:image|images|container|containers|docker)\b", re.IGNORECASE)
_HAS = re.compile(
    r"\b(?:includes?|included|including|ships?|shipped|contains?|comes[ \t]+with|bundles?|bundled"
    r"|provides?|provided|pre-?installed|pre-?loaded|available|located|stored|found|lives?|are[ \t]+in"
    r"|is[ \t]+in|are[ \t]+under|is[ \t]+under|has|have)\b",
    re.IGNORECASE,
)
"""Words saying the image has something."""
NOT_HELD = re.compile(
    r"\b(?:your|yours|mount\w*|volumes?|bind|host|output\w*|saved?|writes?|written|stores?|generated?"
    r"|created?|download\w*|will|cache\w*|logs?|results?|upload\w*|checkpoints?|put|place|copy|move"
    r"|should|must|need|needs|may|if|when|for[ \t]+example|e\.g)\b|(?<![\w-])-v\b",
    re.IGNORECASE,
)
"""Words saying a sentence is about what the reader gives or the container writes, or a condition."""
_SENTENCE = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z`])")
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]")
_SYSTEM_TOPS = frozenset(
    "usr etc var lib lib32 lib64 libx32 bin sbin proc sys dev tmp run root home mnt media boot opt/nvidia"
    " opt/conda opt/python opt/_internal opt/rh".split()
)
"""Folders (as their first part, or two) a base image or the system fills."""


_WORDS = re.compile(r"[^a-z0-9]+")
_GENERIC = frozenset("opt srv".split())
"""Folders a package or an installer makes its own folder in (`/opt/rocm`, `/srv/app`)."""


def system(path: str) -> bool:
    parts = path.strip("/").split("/")
    return parts[0] in _SYSTEM_TOPS or "/".join(parts[:2]) in _SYSTEM_TOPS


def path_claims(doc: Document) -> Iterator[tuple[int, str]]:
    """(README line, path) of each sentence of the prose saying the image has an absolute path; a
    sentence may run over several lines of its paragraph (the path is told at the line it is on)."""
    for para in doc.paragraphs:
        if not any("/" in text for _, text in para.lines):
            continue
        starts: list[int] = []  # where each line starts in the paragraph's text
        joined = ""
        for _, text in para.lines:
            starts.append(len(joined))
            item = _ITEM.match(text) is not None  # a list item starts a sentence of its own
            # a link's target is a page or a file of the repository (`[Dockerfile](/docker/Dockerfile)`:
            # GitHub reads `/` as the repository's top), not a path of the image: only its text is read
            plain = without_links(text)
            joined += ("\n" if item else "") + plain.replace("`", " ").replace("*", " ") + " "
        at = 0
        for sentence in (s for chunk in joined.split("\n") for s in _SENTENCE.split(chunk)):
            begin = joined.index(sentence, at)
            at = begin + len(sentence)
            if "/" not in sentence or not _IMAGE.search(sentence) or not _HAS.search(sentence):
                continue
            if NOT_HELD.search(sentence):
                continue
            # (a path ending a sentence is told without its full stop: `… under /opt/bench.`)
            found = [
                (m.start(), p)
                for m in ABSOLUTE.finditer(sentence)
                if (p := clean_path(m.group(1).rstrip(".")))
            ]
            paths = [(start, p) for start, p in found if p.count("/") >= 2]
            if len({p for _, p in paths}) == 1:
                line = para.lines[bisect.bisect_right(starts, begin + paths[0][0]) - 1][0]
                yield line, paths[0][1]


def included_paths(
    doc: Document, models: Sequence[ImageModel], readme: str, directory: Path
) -> Iterator[Diagnostic]:
    """A path the README says the image has that no image audited is known to have (see the module
    docstring): one finding a path, at its first line (`likely`)."""
    claims = [(line, path) for line, path in path_claims(doc) if not system(path)]
    if not claims:
        return
    bases = [root_base(m) for m in models]
    if not models or any(base is None or not plain_base(base) for base in bases):
        return
    images = [image for m in models if m.file and (image := read_image(m)) is not None]
    if len(images) != len(models) or any(image.piped for image in images):
        return
    given = mounted_folders(doc) | {path for _, path, made in readme_paths(doc) if made}
    root = repository_root(directory)
    seen: dict[str, list[int]] = {}
    for line, path in claims:
        if any(_under(path, other) for other in given):
            continue
        if any(holds_path(image, path) for image in images):
            continue
        if root is not None and os.path.lexists(root / path.lstrip("/")):
            continue  # a file or folder of the repository named from its top (`/docker/Dockerfile`)
        seen.setdefault(path, []).append(line)
    if not seen:
        return
    for image in images:
        text = context_text(image.file, image.copies, str(directory))
        if text is None:
            return
        image.text, image.named = text, named_paths(text)
    paths = list(dict.fromkeys(m.path for m in models))
    starts = ", ".join(dict.fromkeys(str(base) for base in bases))
    if len(paths) == 1:
        whom, base = f"{paths[0]} puts nothing there", f"its base {starts} is"
    else:
        whom, base = f"none of {', '.join(paths)} puts anything there", f"their bases {starts} are"
    # a folder of two parts or more that a RUN or a file of the context names may be where a tool writes
    # (`pip download --dest /opt/wheels`): what is below it is not known
    literal = {match.group().rstrip("/") for image in images for match in NAMED.finditer(image.text)}
    folders = {p for p in literal if p.count("/") >= 2}
    # a folder a package or an installer makes under its own name (`apt-get install rocm-dev` fills
    # /opt/rocm, `intel-oneapi-…` /opt/intel): a name of the path the build's text has as a word
    # (comments left out: `# LLVM is deliberately not baked in` names what the image lacks)
    words = {
        word
        for image in images
        for line in image.text.lower().splitlines()
        if not line.lstrip().startswith("#")
        for word in _WORDS.split(line)
        if word
    }
    for path, lines in seen.items():
        if any(path in image.named for image in images) or any(_under(path, f) for f in folders):
            continue
        if _own_name(path).lower() in words:
            continue
        message = (
            f"README says the image has {path}, but {whom} (no COPY, ADD, WORKDIR or RUN makes or names "
            f"it) and {base} a plain OS image{also_at(lines)}"
        )
        yield Diagnostic(readme, lines[0], message, confidence=LIKELY)


def _own_name(path: str) -> str:
    """The part of `path` a package or an installer would name it by: the folder under `/opt` or
    `/srv` (`rocm` of `/opt/rocm/bin`), else its first folder (`workspace` of `/workspace/examples`)."""
    parts = path.strip("/").split("/")
    return parts[1] if parts[0] in _GENERIC and len(parts) > 1 else parts[0]


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def holds_path(image: Image, path: str) -> bool:
    """True when the Dockerfile of `image` makes, fills or enters `path` or a folder above it (`/` left
    out)."""
    return path not in ("/", "") and (under_any(path, image.made.keys()) or under_any(path, image.entered))
