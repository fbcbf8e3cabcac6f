"""The name a README's `docker build` gives the image, and the folder it builds, read as claims about it.

A build command says which image it makes: its `-t` names it, its `-f` (or the plain `Dockerfile` of
its context) says which Dockerfile. Three claims are read there, each `certain` (a build command):

- the image tagged with the name of its own base: `docker build -t owner/opt_base0 .` whose Dockerfile
  starts `FROM owner/opt_base0:latest` (a README carried over from the base's repository). The build
  replaces the base under its name, and the next build of the image starts from itself. Only the very
  name and tag count (`latest` when none is written): `owner/opt_base0-ros`, `${USER}/ros:…` for
  `dustynv/ros:…`, `pytorch:2.6.0-…` for `pytorch/pytorch:2.6.0-…` are other images. A Docker official
  base (no namespace: `-t ubuntu:22.04` over `FROM ubuntu:22.04`) is shadowed on purpose by a local
  image of the team's own, and not read. Read also from a
  build written inline as a labelled list item (`1. Build: docker build -t owner/opt_base0"`,
  `_inline_builds`);
- a tag written as jetson-containers writes its tags, `NAME:VERSION-rL4T` (`jetson-pytorch:2.4-r36.3.0`:
  PyTorch 2.4 for L4T R36.3.0): the L4T release against the one the Jetson image the build starts
  FROM names (`nvcr.io/nvidia/l4t-base:r36.2.0`), to the precision the tag writes; and VERSION against
  the pins of the component NAME names once words such as `jetson`, `l4t`, `base` are dropped
  (`pytorch` of `jetson-pytorch`), when the image pins it. A name naming no component the image pins
  (`xinference:2.1-r36.2.0`, a version copied from the base's tag; `myapp-torch:1.0-r36.2.0`, the
  project's own release) is no claim, nor a tag of another shape (`myimg:1.2.0`, `latest`);
- the folder a build command builds, given as a Git URL's `#ref:folder` or a path, when the README sits
  beside the Dockerfile it documents and the folder's name is one `-` part away from the README's own
  (`…/cuda8-cudnn5/tensorflow-notebook` for a README in `tensorflow-v1.1-notebook/`): the README was
  copied from that sibling, and its command builds the sibling's image (`copied_contexts`; or a
  sentence right above a build of `.` names that folder, `from within /path_to/segm/3.4.0_cuda12.1`:
  `said_contexts`, `likely`). Not the reader's own application folder: one the repository has nowhere,
  that the build tags by its own name (`docker build -t cuda-app ./cuda-app`), after text telling the
  reader to write that Dockerfile (`insert `FROM nvidia` at the beginning of your CUDA application
  Dockerfile`) (`_users_own_app`).

And, `likely`, several builds of one folder under names of several images, one of which names by a word
of its own another folder beside it that has a Dockerfile (`-t seg-liver seg-task-abdomen/` while
`seg-task-liver/` has one): a line copied, its folder left (`crossed_contexts`).

A build whose `-f` names another Dockerfile than the one audited, or with no `-f` from a folder other
than the Dockerfile's, is about another image (a sibling documented in its own section, the base built
first) and is not read. Pulls are not builds: `docker pull` of the base is how a README fetches it.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.commands import (
    CD,
    build_words,
    clone_of,
    cloned_folder,
    continued,
    entered,
    image_repository,
    image_tag,
    without_prompt,
)
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import basename, own_page, path_named, reference_path
from docgen.audit.references import indented_blocks
from docgen.audit.wording import COMMAND_LANGS
from docgen.base_contents import l4t_release
from docgen.baseimage import split_reference
from docgen.build_scripts import BUILD, BUILD_COMMAND
from docgen.files import is_dockerfile_name, real_path, text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic, ImageModel, Stage
from docgen.shell import shell_split

_JETSON_TAG = re.compile(
    r"(?:(?P<version>v?\d+(?:\.\d+)+)-)?(?:l4t-?)?r(?P<l4t>3[2-9](?:\.\d+){1,2})(?=\Z|[-_])"
)
"""A jetson-containers tag, or its L4T part: `2.4-r36.3.0`, `r35.4.1`, `humble-desktop-l4t-r35.2.1`."""
_NOT_A_COMPONENT = frozenset(
    "jetson l4t nvidia tegra orin xavier nano agx docker image images container containers base dev devel "
    "runtime app my test builder build demo".split()
)
"""Words of an image's name that name no component (`jetson-pytorch` is PyTorch's)."""
_PLACEHOLDER = re.compile(r"[$<>{}\[\]]")
_GIT_CONTEXT = re.compile(r"(?:\.git|github\.com/[^#\s]+|gitlab\.com/[^#\s]+)#[^:\s]*:(?P<folder>[^\s]+)\Z")
"""A Git URL context with a folder: `https://github.com/o/r.git#master:ubuntu14.04/gpu/x`."""


@dataclass(frozen=True)
class _Build:
    """A `docker build` of a command block: its first README line, its `-t` values, its `-f` (None when
    it has none), its context, and the folder the block's `cd` lines put the reader in ('' for the
    README's, `$CD` when it cannot be told)."""

    line: int
    tags: tuple[str, ...]
    file: str | None
    context: str
    folder: str
    settings: tuple[str, ...] = ()
    """The values of its other options (`--build-arg MODEL=lung`, `--target lung`)."""


def _builds(doc: Document) -> Iterator[_Build]:
    """The build commands of the README's command blocks (fenced or indented) whose words can be read."""
    for fence in [*doc.fences, *indented_blocks(doc)]:
        if fence.lang not in COMMAND_LANGS:
            continue
        folder = ""
        cloned: set[str] = set()  # the folders the block's `git clone` commands make
        command: list[tuple[int, str]] = []
        for line, text in fence.lines:
            if (clone := clone_of(text)) is not None:
                url, named = clone
                cloned.add(named or cloned_folder(url))
            if not command and (cd := CD.match(without_prompt(text))) is not None:
                target = cd.group(1).strip("'\"").rstrip("/")
                # `git clone …/app.git && cd app`: the checkout itself, where the README's commands run
                folder = "" if not folder and target in cloned else entered(folder, target, frozenset())
            command.append((line, text))
            if continued(text):
                continue
            found = _read_build(command, folder)
            command = []
            if found is not None:
                yield found


_INLINE_BUILD = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\*\*)?[A-Za-z][\w ]{0,20}(?:\*\*)?:(?:\*\*)?[ \t]*`?"
    r"(?P<command>(?:sudo[ \t]+)?" + BUILD_COMMAND + r"[ \t][^`]*?)`?[ \t]*\Z"
)
"""A list item that is a labelled build command written inline (`1. Build: docker build -t owner/app .`)."""


def _inline_builds(doc: Document) -> Iterator[_Build]:
    """The build commands written inline as labelled list items (`_INLINE_BUILD`), out of any command
    block: a quote left unclosed at the end (`docker build -t owner/app"`) is a slip and dropped, and a
    command that names no context builds the folder the README is in (its `.` forgotten)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if (m := _INLINE_BUILD.match(text)) is None:
                continue
            command = m.group("command").rstrip()
            if command.count('"') % 2 and command.endswith('"'):
                command = command[:-1]
            if command.count("'") % 2 and command.endswith("'"):
                command = command[:-1]
            found = _read_build([(line, command)], "", context=".")
            if found is not None:
                yield found


_NAME_WORD = re.compile(r"[a-z0-9][\w.-]*(?::[\w.-]+)?")
"""A word that is an image's last name, with its tag or not (`seg-liver:latest`)."""


def _read_build(command: list[tuple[int, str]], folder: str, context: str | None = None) -> _Build | None:
    """The build a command (its lines) runs, None when it runs none or its words cannot be told. With
    `context`, a command that names none builds that one."""
    text = " ".join(t.rstrip().removesuffix("\\") for _, t in command)
    start = BUILD.search(text)
    if start is None or "#" in text[: start.start()]:
        return None
    before = text[: start.start()]
    if (cd := re.search(r"\bcd[ \t]+([^\s;&|]+)[ \t]*&&[ \t]*(?:sudo[ \t]+)?\Z", before)) is not None:
        folder = entered(folder, cd.group(1), frozenset())  # `cd docker && docker build …`
    rest = re.split(r"[ \t](?:&&|\|\||;|\||#|>|2>)", " " + text[start.end() :], maxsplit=1)[0]
    try:
        words = shell_split(rest)
    except ValueError:
        return None
    read = build_words(words)
    if read is None:
        return None
    options, positional = read
    tags = [value for name, value in options if name in ("-t", "--tag")]
    if len(positional) == 2 and tags and tags[-1].endswith("/") and _NAME_WORD.fullmatch(positional[0]):
        # `-t registry/team/ app:1.0 ctx/`: a tag split at a space (docker refuses it); the name meant
        tags[-1] += positional.pop(0)
    files = [value for name, value in options if name in ("-f", "--file")]
    file = files[-1] if files else None
    if not positional and context is not None:
        positional = [context]
    if len(positional) != 1:
        return None
    settings = tuple(value for name, value in options if name not in ("-t", "--tag", "-f", "--file"))
    return _Build(command[0][0], tuple(tags), file, positional[0], folder, settings)


def _built_model(build: _Build, models: tuple[ImageModel, ...]) -> ImageModel | None:
    """The image of `models` `build` makes: the one its `-f` names; with no `-f`, the one model, when it
    is a plain `Dockerfile` and the build's folder is where the README reader stands or the Dockerfile's
    folder (`cd docker && docker build .`). None when the build is another image's or cannot be told."""
    if build.file is not None:
        if _PLACEHOLDER.search(build.file):
            return None
        index = path_named(reference_path(build.file), [m.path for m in models])
        return models[index] if index is not None else None
    if len(models) != 1 or basename(models[0].path).lower() not in ("dockerfile", "containerfile"):
        return None
    if "://" in build.context or "#" in build.context or build.folder.startswith("$"):
        return None
    where = posixpath.normpath(posixpath.join(build.folder, build.context)) if build.folder else build.context
    where = posixpath.normpath(where)
    parent = models[0].path.replace("\\", "/").rsplit("/", 2)
    folder = parent[-2] if len(parent) >= 2 else ""
    if where in (".", "") or (folder and basename(where) == folder):
        return models[0]
    return None


def _root(model: ImageModel) -> Stage | None:
    """The stage the image built starts from an image in: the first of its target's chain. A chain
    starting `FROM scratch` that copies from one stage only (`COPY --from=base / /`, an image squashed
    to one layer) holds what that stage's chain starts from."""
    stage = model.target
    seen = 0
    while stage is not None and seen <= len(model.stages):
        if stage.parent is not None:
            stage = model.stages[stage.parent]
        elif stage.base.lower() == "scratch" and len(stage.depends_on) == 1:
            stage = model.stages[stage.depends_on[0]]
        else:
            break
        seen += 1
    return stage


def _same_image(a: str, b: str) -> bool:
    """True when the image references `a` and `b` name one image: the same repository as pulled
    (`docker.io/library/` dropped) and the same tag (`latest` when none is written)."""
    (name_a, tag_a), (name_b, tag_b) = split_reference(a), split_reference(b)
    return name_a == name_b and (tag_a or "latest") == (tag_b or "latest")


def _takes_base_name(tag: str, base: str) -> bool:
    """True when a build's `tag` is the very name of its `base` and that base is no Docker official
    image: `-t owner/opt_base0` over `FROM owner/opt_base0:latest` (a name carried over from the base's
    README), not `-t ubuntu:22.04` over `FROM ubuntu:22.04` (the official image shadowed on purpose by a
    local one of the team's own: the command works and names what the README means)."""
    return not _PLACEHOLDER.search(tag) and _same_image(tag, base) and "/" in split_reference(base)[0]


def _component_name(repository: str) -> str:
    """What an image's name names once the words naming no component are dropped: `jetson-pytorch` →
    `pytorch`, `l4t-llama_cpp` → `llama-cpp`, `myapp-torch` → `myapp-torch` (no component: the name of
    the project, which the version is the release of)."""
    last = repository.rsplit("/", 1)[-1]
    words = [w for w in re.split(r"[-_.]+", last) if w and w not in _NOT_A_COMPONENT and not w.isdigit()]
    return "-".join(words)


def _l4t_agrees(claim: str, fact: str) -> bool:
    """True when the L4T release `claim` (as a tag writes it) is `fact`'s, to the precision it writes."""
    said, have = claim.split("."), fact.split(".")
    return have[: len(said)] == said or said[: len(have)] == have


_TAG_HEADING = re.compile(r"[ \t]*`?([a-z0-9][\w./-]*:[\w.-]+)`?[ \t]*\Z")
"""A heading that is an image reference and nothing else: `## jetson-pytorch:2.4-r36.3.0`."""


def image_tag_claims(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """The findings of this module's first two claims (see its docstring) on one part of the README.
    A first heading that is an image reference (`## jetson-pytorch:2.4-r36.3.0`) over a part whose
    builds all make one image is that image's tag too (its jetson-containers version and L4T release),
    read when no build of the part gives that very tag (which is read there)."""
    built: set[str] = set()
    said: set[str] = set()
    for build in _inline_builds(doc):
        model = _built_model(build, auditor.models)
        root = _root(model) if model is not None else None
        if model is None or root is None or root.parent is not None:
            continue
        for tag in build.tags:
            if tag and _takes_base_name(tag, root.base):
                yield _own_base(auditor, build.line, model, tag, root)
    for build in _builds(doc):
        model = _built_model(build, auditor.models)
        built.add(model.path if model is not None else "")
        said.update(build.tags)
        tags = [t for t in build.tags if t]  # (`${USER}/ros:humble-…-r35.2.1` still tells its L4T)
        if not tags or model is None:
            continue
        root = _root(model)
        base = root.base if root is not None and root.parent is None else ""
        for tag in tags:
            if root is not None and base and _takes_base_name(tag, base):
                yield _own_base(auditor, build.line, model, tag, root)
                continue
            yield from _jetson_tag(build.line, tag, model, base, root, auditor)
    titled = _TAG_HEADING.match(doc.headings[0][1]) if doc.headings else None
    if titled is not None and titled.group(1) not in said and len(built) == 1 and "" not in built:
        model = next(m for m in auditor.models if m.path in built)
        root = _root(model)
        base = root.base if root is not None and root.parent is None else ""
        yield from _jetson_tag(doc.headings[0][0], titled.group(1), model, base, root, auditor)
    elif titled is not None and len(auditor.models) == 1 and auditor.models[0].path not in built:
        model = auditor.models[0]
        root = _root(model)
        if root is not None and root.parent is None and own_page(auditor.path, model.path):
            found = _l4t_claim(doc.headings[0][0], titled.group(1), model, root, auditor, LIKELY)
            if found is not None:
                yield found


_DOWNLOAD = re.compile(
    r"https?://[^\s\"'<>]*/(?P<name>[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z][A-Za-z0-9]*)*)[-_]v?"
    r"(?P<version>\d+(?:\.\d+)+(?:[-_.]\d+)*)"
    r"(?:\.(?:tar\.[a-z0-9]+|tgz|txz|zip|deb|rpm|run|sh|xz|gz|bz2))"
    r"(?=[\s\"'/]|\Z)"
)
"""A download of a versioned archive (`https://…/amdgpu-pro-17.40.2712-510357.tar.xz`): its name, its
version."""
_VERSION_TAG = re.compile(r"v?(\d+\.\d+(?:[-_.]\d+)*)")
"""A tag that is a version and nothing else (`18.30-641594`, `v2.1`)."""


def _downloads(model: ImageModel) -> list[tuple[int, str, str]]:
    """(line, name, version) of each versioned archive the Dockerfile of `model` downloads by a URL
    written out (`_DOWNLOAD`), each (name, version) once."""
    if not model.file:
        return []
    text = text_or_none(Path(model.file))
    if text is None:
        return []
    found: dict[tuple[str, str], int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        for match in _DOWNLOAD.finditer(line):
            found.setdefault((match.group("name"), match.group("version")), number)
    return [(at, name, version) for (name, version), at in found.items()]


def _version_parts(version: str) -> list[str]:
    return re.split(r"[-_.]", version)


def _tag_download(tag: str, model: ImageModel) -> tuple[str, tuple[int, str, str]] | None:
    """The version a build's tag gives (`izone/amdgpu:18.30-641594` → `18.30-641594`) and the one
    archive the built Dockerfile downloads whose name holds every word of the image's last name
    (`amdgpu-pro-…` for `amdgpu`, `vulkan-sdk-…` for `vulkan-sdk`): what the tag names the release
    of. None when the tag is no version, or no archive, or several of other versions, are so named."""
    name, version_tag = split_reference(tag)
    if not version_tag or _PLACEHOLDER.search(tag) or (said := _VERSION_TAG.fullmatch(version_tag)) is None:
        return None
    words = set(re.split(r"[-_.]", name.rsplit("/", 1)[-1].lower())) - {""}
    if not any(len(w) >= 3 for w in words):
        return None
    named = [d for d in _downloads(model) if words <= set(re.split(r"[-_]", d[1].lower()))]
    if len({d[2] for d in named}) != 1:
        return None
    return said.group(1), named[0]


def _agrees(said: str, version: str) -> bool:
    """True when the version `said` is `version` to the precision either writes (`17.40` of
    `17.40.2712-510357`)."""
    a, b = _version_parts(said), _version_parts(version)
    return a[: len(b)] == b or b[: len(a)] == a


def _which_model(build: _Build, models: tuple[ImageModel, ...]) -> ImageModel | None:
    """The image of `models` `build` makes (`_built_model`); with no `-f`, among several, the plain
    `Dockerfile` (the one a build without `-f` reads)."""
    if build.file is None:
        models = tuple(m for m in models if basename(m.path).lower() in ("dockerfile", "containerfile"))
    return _built_model(build, models)


def _tags_name_downloads(doc: Document, auditor: Auditor) -> bool:
    """True when a build of the README tags its image with the very version of the archive its
    Dockerfile downloads (`-t izone/amdgpu:17.40.2712 -f Dockerfile_17.40.2712`): the README's tags
    name the driver's release, and another build's tag that names another is certainly a slip."""
    for build in _builds(doc):
        model = _which_model(build, auditor.family)
        if model is None:
            continue
        for tag in build.tags:
            found = _tag_download(tag, model)
            if found is not None and _agrees(found[0], found[1][2]):
                return True
    return False


def download_tags(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each build of the README whose tag is a version other than that of the archive of the image's
    name its Dockerfile downloads (`_download_tag`), against every Dockerfile audited (`family`)."""
    confirmed = _tags_name_downloads(doc, auditor)
    for build in _builds(doc):
        if (model := _which_model(build, auditor.family)) is not None:
            for tag in build.tags:
                yield from some(_download_tag(build.line, tag, model, auditor, confirmed))


def _download_tag(
    line: int, tag: str, model: ImageModel, auditor: Auditor, confirmed: bool
) -> Diagnostic | None:
    """The finding of a build's tag that is a version (`izone/amdgpu:18.30-641594`) other than that of
    the one archive of the image's name its Dockerfile downloads (`amdgpu-pro-17.40.2712-510357.tar.xz`):
    the tag names a release the image does not hold. `certain` when another build of the README tags
    its image with its archive's very version (`_tags_name_downloads`), else `likely`."""
    found = _tag_download(tag, model)
    if found is None:
        return None
    said, (at, name, version) = found
    if _agrees(said, version):
        return None
    return Diagnostic(
        auditor.path,
        line,
        f"README tags the image {tag} (version {said}), but {model.path}:{at} downloads and installs "
        f"{name} {version}",
        confidence=CERTAIN if confirmed else LIKELY,
    )


def _l4t_claim(
    line: int, tag: str, model: ImageModel, root: Stage, auditor: Auditor, confidence: str
) -> Diagnostic | None:
    """The finding of a tag whose L4T release (`…-r32.7.1`) is not the one of the Jetson image `root`
    starts FROM, to the precision the tag writes; None when it agrees or says none."""
    version_tag = split_reference(tag)[1]
    if not version_tag or _PLACEHOLDER.search(version_tag):
        return None
    match = _JETSON_TAG.search(version_tag.lower())
    release = l4t_release(root.base) if match is not None else None
    if match is None or release is None or _l4t_agrees(match.group("l4t"), release):
        return None
    return Diagnostic(
        auditor.path,
        line,
        f"README tags the image {tag} (L4T R{match.group('l4t')}), but {model.path}:{root.line} starts "
        f"FROM {root.base} (L4T R{release})",
        confidence=confidence,
    )


def _own_base(auditor: Auditor, line: int, model: ImageModel, tag: str, root: Stage) -> Diagnostic:
    """The finding of a build tagging the image with the name of the base it starts from."""
    return Diagnostic(
        auditor.path,
        line,
        f"README builds {model.path} as {tag}, but {model.path}:{root.line} starts FROM {root.base}: "
        "the image takes the name of its own base, and a later build of it starts from itself",
        confidence=CERTAIN,
    )


def _jetson_tag(
    line: int, tag: str, model: ImageModel, base: str, root: Stage | None, auditor: Auditor
) -> Iterator[Diagnostic]:
    """The L4T release and the component version a jetson-containers tag (`NAME:VERSION-rL4T`) says,
    compared with the Jetson base's L4T release and with the image's pins of the component NAME names."""
    repository, version_tag = split_reference(tag)
    if not version_tag or _PLACEHOLDER.search(version_tag):
        return
    match = _JETSON_TAG.search(version_tag.lower())
    if match is None:
        return
    if base and root is not None and (found := _l4t_claim(line, tag, model, root, auditor, CERTAIN)):
        yield found
    version = match.group("version")
    if version is None or match.start() != 0:
        return
    image = auditor._with((model,))
    name = _component_name(repository)
    facts = image.facts.lookup(name, image.names) if name else []
    if not facts:
        return  # a name naming no component the image pins: the project's own release
    if all(fact.unpinned for fact in facts):
        return  # a clone of a default branch tagged with a release: the tag names the build, no pin
    found = image.version_claim(line, name, "==", version.lstrip("v"), CERTAIN)
    if found is not None:
        yield Diagnostic(
            found.path,
            found.line,
            found.message.replace("README says", f"README tags the image {tag}:", 1),
            confidence=found.confidence,
        )


def copied_contexts(
    doc: Document,
    readme: str,
    directory: Path,
    models: tuple[ImageModel, ...],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """The third claim of this module (see its docstring): a build of a folder one `-` part away from
    the README's own, when an audited Dockerfile is beside the README; not the reader's own application
    folder (`_users_own_app`, the repository read from `project`, else its root)."""
    here = directory.resolve()
    beside = [m for m in models if m.file and Path(m.file).resolve().parent == here]
    if not beside:
        return
    own = here.name
    for build in _builds(doc):
        context = build.context
        if (git := _GIT_CONTEXT.search(context)) is not None:
            folder = git.group("folder").rstrip("/")
        elif "://" in context or _PLACEHOLDER.search(context) or build.folder.startswith("$"):
            continue
        else:
            local = posixpath.normpath(posixpath.join(build.folder, context) if build.folder else context)
            if local.startswith("/") or real_path(here / local) == here:
                continue
            folder = local
        name = basename(folder)
        if name in (".", "..", "", own) or not _one_part_away(name, own):
            continue
        if _users_own_app(doc, build, name, project or repository_root(directory) or directory):
            continue
        yield Diagnostic(
            readme,
            build.line,
            f"README builds {context}, the folder {name}/, but it sits in {own}/ beside "
            f"{basename(beside[0].path)}: the command builds another folder's image (a README copied "
            f"from {name}/?)",
            confidence=CERTAIN,
        )


_SAID_FOLDER = re.compile(
    r"\b(?:from[ \t]+within|from[ \t]+inside|within|inside|in|from|under)[ \t]+(?:the[ \t]+)?"
    r"(?:(?P<path>[\w.~-]*/[\w./~-]*[\w.-])|`(?P<quoted>[\w./~-]+)`[ \t]+(?:folder|directory|dir)\b)",
    re.IGNORECASE,
)
"""A sentence naming the folder to build from: `(from within /path_to/segm/3.4.0_cuda12.1)`, `From a
terminal in the `ros-humble` directory`."""
_SAID_ABOVE = 4
"""How many lines above a command block's first line the sentence introducing it may start."""


def said_contexts(
    doc: Document, readme: str, directory: Path, models: tuple[ImageModel, ...]
) -> Iterator[Diagnostic]:
    """A build of `.` (no `cd` before it) right below a sentence naming the folder to run it from, when
    that folder is one `-` part away from the README's own, beside an audited Dockerfile: the
    `copied_contexts` claim, written in prose (`* Build the image from Docker file (from within
    /path_to/segm/3.4.0_cuda12.1)` in `3.4.0-1_cuda12.1/`). Not a build tagged with the named folder's
    name (`-t ros-humble`: that folder's image, built first on purpose). `likely`: the sentence may
    mean another step."""
    here = directory.resolve()
    beside = [m for m in models if m.file and Path(m.file).resolve().parent == here]
    if not beside:
        return
    own = here.name
    prose = {line: text for para in doc.paragraphs for line, text in para.lines}
    first = {
        line: fence.lines[0][0] for fence in [*doc.fences, *indented_blocks(doc)] for line, _ in fence.lines
    }
    for build in _builds(doc):
        if build.context not in (".", "./") or build.folder or build.line not in first:
            continue
        start = first[build.line]
        said = [
            (line, m)
            for line in range(start - _SAID_ABOVE, start - 1)
            if line in prose
            for m in _SAID_FOLDER.finditer(prose[line])
        ]
        for line, match in said[-1:]:
            name = basename((match.group("path") or match.group("quoted")).rstrip("/"))
            if name in (".", "..", "", own) or not _one_part_away(name, own):
                continue
            if any(name in (basename(image_repository(t)), image_tag(t)) for t in build.tags):
                continue
            yield Diagnostic(
                readme,
                build.line,
                f"README says to build from {name}/ (line {line}), but it sits in {own}/ beside "
                f"{basename(beside[0].path)}: docker build . run there builds that folder's image, not this "
                f"one's (a README copied from {name}/?)",
                confidence=LIKELY,
            )


_OWN_DOCKERFILE = re.compile(
    r"\byour(?:[ \t]+own)?(?:[ \t]+[\w.-]+){0,3}?[ \t]+(?:`?Dockerfile`?|docker[ \t]?file)\b"
    r"|\b(?:write|create|make)[ \t]+(?:a|an|your)(?:[ \t]+own)?(?:[ \t]+[\w.-]+){0,2}?[ \t]+`?Dockerfile\b",
    re.IGNORECASE,
)
"""Text telling the reader to write a Dockerfile of their own: `your CUDA application Dockerfile`, `your
own Dockerfile`, `create a Dockerfile`."""
_WALK_DEPTH = 6
"""How deep below the repository's top a folder of the built name is looked for."""


def _users_own_app(doc: Document, build: _Build, name: str, top: Path) -> bool:
    """True when the folder `name` a build command builds is the reader's own application: the build
    tags the image by the folder's name (`-t cuda-app ./cuda-app`), text above the build in the README
    tells the reader to write their own Dockerfile, and the repository has no folder of that name."""
    if not any(basename(image_repository(tag)) == name for tag in build.tags):
        return False
    told = any(
        _OWN_DOCKERFILE.search(text)
        for para in doc.paragraphs
        for line, text in para.lines
        if line < build.line
    )
    return told and not _folder_anywhere(top, name)


def _folder_anywhere(top: Path, name: str) -> bool:
    """True when a folder named `name` is in the repository at `top` (hidden folders left out; up to
    `_WALK_DEPTH` folders deep; links not followed)."""
    base = len(top.parts)
    for folder, folders, _ in os.walk(top):
        if name in folders:
            return True
        depth = len(Path(folder).parts) - base
        folders[:] = [] if depth >= _WALK_DEPTH else [f for f in folders if not f.startswith(".")]
    return False


def _one_part_away(a: str, b: str) -> bool:
    """True when the folder names `a` and `b` (`-`/`_`-separated parts) differ by one part added, taken
    out or replaced, and share another: `tensorflow-notebook` and `tensorflow-v1.1-notebook`,
    `debian-10` and `debian-11`."""
    x, y = re.split(r"[-_]", a.lower()), re.split(r"[-_]", b.lower())
    if not set(x) & set(y):
        return False
    if len(x) == len(y):
        return sum(1 for p, q in zip(x, y, strict=True) if p != q) == 1
    short, long = (x, y) if len(x) < len(y) else (y, x)
    if len(long) != len(short) + 1:
        return False
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def crossed_contexts(
    doc: Document, readme: str, directory: Path, project: Path | None = None
) -> Iterator[Diagnostic]:
    """Several README builds of one folder under names of different images, one of which names, by a
    word of its own, another folder beside it that holds a Dockerfile, and none of the built folder's
    (`-t seg-liver ctx-abdomen/` next to `-t seg-abdomen ctx-abdomen/`, while `ctx-liver/` has its
    Dockerfile): the lines were copied and the folder left as it was, so the image named for one task
    is built from another's Dockerfile (`likely`). A word of a folder's name counts as its own when no
    other folder beside it has it (`task` of `nnunet-task-liver` is every task's)."""
    top = (project or repository_root(directory) or directory).resolve()
    by_context: dict[Path, list[tuple[_Build, str]]] = {}
    for build in _builds(doc):
        context = build.context
        if "://" in context or _PLACEHOLDER.search(context) or build.folder.startswith("$"):
            continue
        local = posixpath.normpath(posixpath.join(build.folder, context) if build.folder else context)
        folder = real_path(directory / local)
        if local.startswith("/") or folder == top or top not in folder.parents:
            continue
        for tag in build.tags:
            if not _PLACEHOLDER.search(tag):
                by_context.setdefault(folder, []).append((build, basename(image_repository(tag))))
    for folder, built in by_context.items():
        if len({name for _, name in built}) < 2:
            continue
        own = _own_words(folder)
        if own is None:
            continue
        mine, others = own
        for build, name in built:
            words = _words(name)
            if words & mine:
                continue
            named = [(other, sorted(words & theirs)) for other, theirs in others.items() if words & theirs]
            if len(named) != 1 or any(_words(v) & words for v in build.settings):
                continue  # (a build arg or target of the name: one folder builds each image on purpose)
            other, shared = named[0]
            shown, built_here = os.path.relpath(other, directory), os.path.relpath(folder, directory)
            yield Diagnostic(
                readme,
                build.line,
                f"README builds {name} from {build.context}, but the word {shared[0]} of its name names "
                f"{shown}/, a "
                f"folder beside it with a Dockerfile of its own, and no word of it names {built_here}/: "
                f"the image gets {built_here}/'s Dockerfile, not {shown}/'s (a line copied from another "
                "build?)",
                confidence=LIKELY,
            )


_NAME_PART = re.compile(r"[a-z][a-z0-9]{2,}")


def _words(name: str) -> set[str]:
    """The words of three characters or more of a folder's or image's name, lower case, a plural's `s`
    dropped (`livers` → `liver`)."""
    return {w.removesuffix("s") if len(w) > 4 else w for w in _NAME_PART.findall(name.lower())}


def _own_words(folder: Path) -> tuple[set[str], dict[Path, set[str]]] | None:
    """(the words of `folder`'s name no folder beside it has, the same for each folder beside it that
    holds a Dockerfile), when `folder` holds a Dockerfile; None otherwise."""
    parent = folder.parent
    try:
        names = sorted(e.name for e in os.scandir(parent) if e.is_dir() and not e.name.startswith("."))
    except OSError:
        return None
    built = [parent / n for n in names if any(is_dockerfile_name(f) for f in _listed(parent / n))]
    if folder not in built or len(built) < 2:
        return None
    words = {f: _words(f.name) for f in built}
    count: dict[str, int] = {}
    for found in words.values():
        for word in found:
            count[word] = count.get(word, 0) + 1
    own = {f: {w for w in found if count[w] == 1} for f, found in words.items()}
    return own[folder], {f: w for f, w in own.items() if f != folder and w}


def _listed(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []
