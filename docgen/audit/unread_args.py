"""The ROCm or CUDA release of the base image beside a version build arg nothing reads.

`FROM rocm/dev-ubuntu-22.04:6.1.1_hip_update` and, lower down, `ARG ROCM_VERSION='6.0.2'`: the Key
versions row of the image is the arg's (the Dockerfile's own row wins over its base's), and a README
saying `ROCm 6.1` would contradict it. When no instruction reads the arg, it installs nothing and the
image's ROCm is the base's: the base's release is then a fact of the image too, and a claim agreeing
with either is no drift (`base_releases`).

An arg counts as read, and nothing is added, when:

- `$NAME` or `${NAME…}` is anywhere in the Dockerfile (a RUN, an ENV, a FROM, another ARG, a heredoc,
  a comment), or the name is a word of any instruction but the ARG lines declaring it
  (`RUN printenv ROCM_VERSION`, `--build-arg ROCM_VERSION`);
- a script the build copies from the context may read it: BuildKit gives every ARG in scope to the
  environment of each RUN, in the declaring stage and in every stage built FROM it. When a stage of
  that scope copies files from the context and one of its RUNs comes after the arg, each copied file
  must be there to read and none may name the arg; a source that names nothing there (a file a saved
  copy left out, a URL, a folder past `copied.TEXT_LIMIT`) may read it. Code fetched in the RUN itself
  (a `git clone` built with `setup.py`) is not read: its reads of the project's own arg name are not
  known, and what it builds for is no release of ROCm or CUDA the image installs.

Only the release of the base image the built target starts from counts, and only when the arg's name
is that item's (`ROCM_VERSION` for ROCm, `CUDA_VERSION` for CUDA).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.baseimage import Reading, read_reference
from docgen.copied import copied_texts
from docgen.model import ArgDecl, ImageModel, ParsedDockerfile
from docgen.rows import VERSION_ARG

_ITEMS = frozenset({"rocm", "cuda"})
"""The releases a base image's tag gives that an unread arg of the same name does not override."""


def _named(name: str, text: str) -> bool:
    """True when `name` is a word of `text` (`ROCM_VERSION`, not `MY_ROCM_VERSION`)."""
    return re.search(rf"(?<![\w]){re.escape(name)}(?!\w)", text) is not None


def _scope(model: ImageModel, decl: ArgDecl) -> set[int]:
    """Indexes of the stages whose RUNs get the arg: the declaring stage and the stages built FROM it."""
    labels = set(decl.stages)
    return {s.index for s in model.stages if s.label in labels or s.index == decl.stage}


def _read_by_instruction(decl: ArgDecl, text: str, parsed: ParsedDockerfile) -> bool:
    if re.search(rf"\$\{{?{re.escape(decl.name)}(?!\w)", text):
        return True
    for inst in parsed.instructions:
        words = inst.original or inst.args
        bodies = "".join(h.body for h in inst.heredocs)
        if inst.keyword == "ARG" and not bodies:
            # `ARG ROCM_VERSION=6.0.2`: declaring the name is no read of it
            declared = re.sub(rf"(?<![\w]){re.escape(decl.name)}(?==|\s|$)", "", words)
            if not _named(decl.name, declared):
                continue
        if _named(decl.name, words) or _named(decl.name, bodies):
            return True
    return False


def _read_by_copied_script(model: ImageModel, decl: ArgDecl, parsed: ParsedDockerfile) -> bool:
    scope = _scope(model, decl)
    runs = False
    for inst in parsed.instructions:
        if inst.keyword != "RUN":
            continue
        stage = model.stage_at(inst.start_line)
        index = stage.index if stage is not None else None
        if index in scope and (index != decl.stage or inst.start_line > decl.line):
            runs = True
            break
    if not runs:
        return False
    copies = tuple(c for c in model.context_copies if c.stage in scope)
    if not copies:
        return False
    if not model.file:
        return True
    read = copied_texts(model.file, copies)
    if read is None:
        return True  # more than docgen reads: one of them may
    files, missing = read
    if missing:
        return True  # a file left out, a URL: what it does is not known
    return any(_named(decl.name, body) for _, body in files)


def _conflicts(model: ImageModel) -> Iterator[tuple[ArgDecl, Reading, int]]:
    """(arg, the base's reading of its item, the FROM line) of each version arg with a default whose
    item (ROCm, CUDA) the base image the target starts from gives another release of."""
    chain = model.chain()
    if not chain:
        return
    root = chain[-1]
    readings = {r.name.lower(): r for r in read_reference(root.base) if r.name.lower() in _ITEMS}
    if not readings:
        return
    for decl in model.args:
        match = VERSION_ARG.search(decl.name)
        if match is None or decl.bare or not decl.default or match.start() == 0:
            continue
        reading = readings.get(decl.name[: match.start()].rstrip("_").lower())
        if reading is not None and reading.version != decl.default:
            yield decl, reading, root.line


def read_over_base(model: ImageModel, text: str, parsed: ParsedDockerfile) -> frozenset[tuple[str, int]]:
    """(item, FROM line) of each base image release (ROCm, CUDA) that a version arg of the same item
    with another default replaces when a RUN reads it (`${ROCM_VERSION}` in a download URL, a clone's
    branch): the arg's release is what the Dockerfile installs, and the base's tag no fact beside it.
    (`text`: unused, for the same call as `base_releases`.)"""
    found: set[tuple[str, int]] = set()
    for decl, reading, line in _conflicts(model):
        used = re.compile(rf"\$\{{?{re.escape(decl.name)}(?!\w)")
        for inst in parsed.instructions:
            if inst.keyword == "RUN" and any(
                used.search(t) for t in (inst.args, *(h.body for h in inst.heredocs))
            ):
                found.add((reading.name.lower(), line))
    return frozenset(found)


def base_releases(
    model: ImageModel, text: str, parsed: ParsedDockerfile
) -> Iterator[tuple[ArgDecl, Reading, int]]:
    """(arg, the base image's reading of the item the arg names, the FROM line) of each version arg with
    a default that no instruction and no copied script reads, whose item (ROCm, CUDA) the base image
    the target starts from gives another release of. `text` and `parsed`: the Dockerfile as read."""
    for decl, reading, line in _conflicts(model):
        if not _read_by_instruction(decl, text, parsed) and not _read_by_copied_script(model, decl, parsed):
            yield decl, reading, line
