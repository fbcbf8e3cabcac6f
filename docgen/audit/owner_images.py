"""An image the README tells the reader to use that is the build's own image under another owner: the
README says `Recommend use `docker.io/ann/gpu-base:6.1-full`` (or a manifest's `image:` line names it)
while the Dockerfile starts `FROM docker.io/bob/gpu-base:6.1-full` or a script beside it pushes
`bob/gpu-base`, and no file of the build names `ann` at all. The README was kept from the project the
repository was forked from, and sends the reader to the upstream image (`likely`).

Read only when the two names share the repository name and a versioned tag (`6.1-full`, not `latest`),
both have an owner that is no Docker official namespace (`library`, `arm64v8` …), the README names the
build's owner nowhere, and the line does not say where the image comes from (`based on`, `upstream`,
`forked from`, `replace … with`). The build's files are the audited Dockerfiles and the scripts,
compose, bake and environment files beside them and beside the README, and in the folders above up to
the repository's root (their top level only); each is read once.

And an image the README pulls or names (`docker pull majesticl/render-worker:latest`) that no file of
the build names, one slip from exactly one image the build names or a GitHub Actions workflow of the
repository pushes (`tags: majestic/render-worker:latest`): one letter added, dropped, changed or two
swapped in one part of the name (`owner`, or a word of the repository name between `-`, `_`, `.`) of
five letters or more (four by a swap), or a `-`, `_`, `.` dropped or added (`dotnetopenvino`); not a
digit (`v1`, `user2`), not a plural (`worker` and `workers` may both be published), on the same
registry, whatever the tag (`likely`, "did you mean …?"). A list item starting with an image's name
out of code (`- owner/app: the app`) names it too. Silent when the build names the repository name
under an owner it reads from a variable (`${{ secrets.DOCKERHUB_USERNAME }}/render-worker`), and on a
line saying where the image comes from.

And the image a `docker run` of the README starts (`docker run … ann/comfyui:latest`, any tag) when the
repository's bake file tags its targets (`${REGISTRY_USER}/${APP}:…`, variables at their defaults)
with that repository name under exactly one other owner on the same registry, no build file names
`ann/comfyui` (the base image `ann/runpod-base` is another name), the README does not tag that name
itself (`docker build -t`), no other file of the build names the repository name under an owner it
reads from a variable, and no workflow or script runs bake (which may set the owner) (`likely`).

And a manifest's or compose example's `image:` line naming the build's image under an old name
(`renamed_images`: `orpheus-tts-fast` where the build pushes `orpheus-trtllm-fast`, one word apart,
the README running the latter with the same tag elsewhere) (`likely`).

And the image of one of two `docker run`s of the README that start one repository name under two owners
(`semhoun/unsloth`, `unsloth/unsloth`) when a LABEL of the audited Dockerfile names the other owner only
(`maintainer="…@semhoun.net"`), and no build file, no prose line and no build of the README names the
image run (`likely`, `twin_owner_runs`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from docgen import bake, makefile
from docgen.audit.auditor import LIKELY, also_at, dockerfile_read
from docgen.audit.commands import PICKED, tagged_names
from docgen.audit.env_slips import SlipIndex
from docgen.audit.memo import per_audit
from docgen.audit.missing import one_slip
from docgen.audit.references import project_top
from docgen.audit.run_args import TAGGING as _TAGGING
from docgen.audit.run_args import image_runs
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.files import stays_home, text_or_none
from docgen.markdown import Document, code_spans, headings_over
from docgen.model import Diagnostic, ImageModel
from docgen.workflows import files as workflow_files

_REF = (
    r"(?<![\w./:-])(?:(?P<registry>[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]+)?)/)?"
    r"(?P<owner>[a-z0-9][a-z0-9._-]*)/(?P<name>[a-z0-9][a-z0-9._-]*)"
    r"(?::(?P<tag>[A-Za-z0-9_][A-Za-z0-9_.-]*))?(?![\w/$:{])"
)
"""`[registry/]owner/name[:tag]`, two path parts only (`gcr.io/proj/team/app` is not read)."""
_IMAGE = re.compile(_REF)
_WHOLE = re.compile(r"\A" + _REF + r"\Z")
_FENCE_IMAGE = re.compile(
    r"^[ \t]*(?:-[ \t]+)?(?:image:|(?:docker|podman)[ \t]+pull[ \t]+|FROM[ \t]+)"
    r"[ \t]*[\"']?(\S+?)[\"']?[ \t]*$"
)
"""A line of a command block or manifest naming one image: `image: x`, `docker pull x`, `FROM x`."""
_PROVENANCE = re.compile(
    r"\b(?:based|base[ \t]+image|upstream|original(?:ly)?|fork(?:ed|s)?|inspired|credits?|thanks?"
    r"|derived|derives|built[ \t]+(?:up)?on|on[ \t]+top[ \t]+of|replace[sd]?|instead|mirror(?:ed|s)?"
    r"|old(?:er)?|previous(?:ly)?|deprecated|legacy|formerly|was|were|alternative(?:ly)?)\b",
    re.IGNORECASE,
)
"""Words of a line that tell where an image comes from, or that it is not the one of this build."""
_OFFICIAL_OWNERS = frozenset(
    {"library", "amd64", "arm32v5", "arm32v6", "arm32v7", "arm64v8", "i386", "ppc64le", "s390x", "riscv64"}
    | {"mips64le", "windows-amd64", "winamd64"}
)
"""Namespaces of Docker official images: one image under each, not several owners."""
_BUILD_FILE = re.compile(
    r"(?:\.(?:sh|bash|bat|cmd|ps1|env|ya?ml|hcl|json|toml|cfg|conf|mk|txt)|Dockerfile[\w.-]*|\.[Dd]ockerfile"
    r"|Makefile|justfile|Justfile|\.env[\w.-]*)\Z"
)
"""The files of a folder read as the build's: scripts, environment, compose, bake, Make, Dockerfiles."""
_VERSIONED = re.compile(r"[0-9]")


@dataclass(frozen=True)
class _Ref:
    """An image named in a file."""

    text: str
    registry: str
    """The registry, `docker.io` when none is written."""
    owner: str
    name: str
    tag: str | None


def _ref(match: re.Match[str]) -> _Ref:
    registry = (match.group("registry") or "docker.io").lower()
    if registry in ("index.docker.io", "registry-1.docker.io", "registry.hub.docker.com"):
        registry = "docker.io"
    owner, name = match.group("owner").lower(), match.group("name").lower()
    return _Ref(match.group(0), registry, owner, name, match.group("tag"))


def build_files(directory: Path, dockerfiles: Sequence[str], readme: Path, top: Path) -> list[Path]:
    """The audited Dockerfiles `dockerfiles`, then the build files at the top of the README's folder, of
    theirs and of the folders above them up to `top`; the README itself left out."""
    found: list[Path] = []
    folders: list[Path] = []
    for dockerfile in dockerfiles:
        file = Path(dockerfile).resolve()
        found.append(file)
        folders.append(file.parent)
    folders.append(directory.resolve())
    seen_folders: set[Path] = set()
    for folder in folders:
        while folder not in seen_folders:
            seen_folders.add(folder)
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                names = []
            for name in names:
                path = folder / name
                if (
                    _BUILD_FILE.search(name)
                    and path != readme
                    and path not in found
                    and os.path.isfile(path)
                    and stays_home(path)
                ):
                    found.append(path)
            if folder == top or top not in folder.parents:
                break
            folder = folder.parent
    return found


def build_texts(
    directory: Path, models: Sequence[ImageModel], readme: str, top: Path
) -> tuple[tuple[Path, str], ...]:
    """(file, text) of each build file of the project (`build_files`) that can be read: read once an
    audit for every rule that looks through them (this module's, `script_images`')."""
    return _read_build_files(directory, _dockerfiles(models), readme, top)


def _dockerfiles(models: Sequence[ImageModel]) -> tuple[str, ...]:
    """The Dockerfiles of `models` (those read from a file)."""
    return tuple(m.file for m in models if m.file)


@per_audit(maxsize=8)
def _read_build_files(
    directory: Path, dockerfiles: tuple[str, ...], readme: str, top: Path
) -> tuple[tuple[Path, str], ...]:
    files = build_files(directory, dockerfiles, (directory / Path(readme).name).resolve(), top)
    return tuple((f, body) for f in files if (body := text_or_none(f, MAX_PROJECT_FILE_BYTES)) is not None)


@per_audit(maxsize=8)
def workflow_texts(directory: Path, top: Path) -> tuple[tuple[Path, str], ...]:
    """(path, text) of the GitHub Actions workflows of the README's repository (`workflows.files`): the
    images the repository's CI pushes; read once an audit. A `.github` or `workflows` folder linked out
    of the project gives none (`files.text_or_none` with `top`: its files are no files of this
    project)."""
    return tuple(
        (path, body)
        for path in workflow_files(directory.resolve(), top.resolve())
        if (body := text_or_none(path, MAX_PROJECT_FILE_BYTES, top)) is not None
    )


_ITEM_IMAGE = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\*\*)?([a-z0-9][\w.-]*/[a-z0-9][\w.-]*(?::\w[\w.-]*)?)(?:\*\*)?"
    r"(?=:[ \t]|[ \t]+[-–—][ \t]|[ \t]*\Z)"
)
"""A list item that starts with an image's name, out of code (`- owner/app: the app and its models`,
`* owner/app - …`): the images a README's list says the project has."""


def _said_images(doc: Document) -> Iterator[tuple[int, bool, _Ref]]:
    """(README line, whether the line tells where the image comes from (`_PROVENANCE`), image) of each
    image the README names in a code span that is the image alone, at the start of a list item
    (`_ITEM_IMAGE`), or on a command-block line naming one image (`image: …`, `docker pull …`). Each
    line is searched for those words once, whatever the number of images on it."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            provenance: bool | None = None
            if (item := _ITEM_IMAGE.match(text)) is not None and (match := _WHOLE.match(item.group(1))):
                yield line, _PROVENANCE.search(text) is not None, _ref(match)
                continue
            for _, _, code in code_spans(text):
                match = _WHOLE.match(code.strip())
                if match is not None:
                    if provenance is None:
                        provenance = _PROVENANCE.search(text) is not None
                    yield line, provenance, _ref(match)
    for fence in doc.fences:
        for line, text in fence.lines:
            named = _FENCE_IMAGE.match(text)
            if named is not None and (match := _WHOLE.match(named.group(1))) is not None:
                yield line, _PROVENANCE.search(text) is not None, _ref(match)


def _owner_named(owner: str, text: str) -> bool:
    """True when `text` names `owner` as the first part of a path or an image (`owner/…`)."""
    return re.search(r"(?<![\w.-])" + re.escape(owner) + r"/", text, re.IGNORECASE) is not None


def other_owner_images(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """Each image the README names for use (`Recommend use `ann/gpu-base:6.1-full``, a manifest's
    `image:` line) whose repository name and versioned tag the build names under one other owner (a
    Dockerfile's FROM or ARG default, a script's tag or push), when no build file names the README's
    owner and the README never names the build's (`likely`): `README names image
    ann/gpu-base:6.1-full, but the build uses bob/gpu-base:6.1-full (Dockerfile:1) and no file of it
    names ann: the image of another owner (the project this one was forked from?)`."""
    said = list(_said_images(doc))
    if not said:
        return
    top = project_top(directory, project)
    texts = build_texts(directory, models, readme, top)
    told: set[str] = set()
    # each read once, whatever the number of images the README names
    in_build: dict[str, bool] = {}  # owner → whether a build file names it
    unknown_owner: dict[str, bool] = {}  # image name → whether a build file names it under a variable
    in_readme: dict[str, bool] = {}  # owner → whether the README names it
    refs: dict[tuple[str, str, str | None], list[tuple[Path, int, _Ref]]] | None = None
    workflows: list[tuple[Path, str]] | None = None  # the build files and the workflows, read on first use
    names: dict[tuple[str, str, str], tuple[Path, int, _Ref]] = {}
    index = SlipIndex(())
    squashed: dict[str, list[str]] = {}  # `owner/name` without `-`, `_`, `.` → the names written so
    by_written: dict[
        str, list[tuple[str, str, tuple[Path, int, _Ref]]]
    ] = {}  # `owner/name` → (registry, owner, image)
    variable_owned: set[str] = set()  # the names the build files and workflows name under a variable owner
    for line, provenance, image in said:
        if PICKED.search(image.owner):
            continue  # `your-image-name/app:1.0`, `<user>/app:1.0`: a name the reader picks
        if image.owner not in _OFFICIAL_OWNERS and not provenance and image.text not in told:
            if workflows is None:
                workflows = [*texts, *workflow_texts(directory, top)]
                names = _named_images(workflows)
                index = SlipIndex((f"{owner}/{name}" for _, owner, name in names), _SPLIT)
                squashed = {}
                for _, owner, name in names:
                    squashed.setdefault(_squashed(f"{owner}/{name}"), []).append(f"{owner}/{name}")
                for (registry, owner, name), named in names.items():
                    by_written.setdefault(f"{owner}/{name}", []).append((registry, owner, named))
                variable_owned = {n for _, body in workflows for n in _variable_owned(body)}
            meant = _slipped(image, names, index, by_written, squashed)
            if meant is not None and image.name not in variable_owned:
                file, at, ref = meant
                yield Diagnostic(
                    readme,
                    line,
                    f"README names image {image.text}, but no file of the build names it; "
                    f"{os.path.relpath(file, directory.resolve())}:{at} names {ref.text} "
                    f"(did you mean {ref.owner}/{ref.name}?)",
                    confidence=LIKELY,
                )
                continue
        if (
            image.owner in _OFFICIAL_OWNERS
            or image.tag is None
            or not _VERSIONED.search(image.tag)
            or provenance
            or image.text in told
        ):
            continue
        if image.owner not in in_build:
            in_build[image.owner] = any(_owner_named(image.owner, body) for _, body in texts)
        if in_build[image.owner]:
            continue
        if image.name not in unknown_owner:
            unknown_owner[image.name] = any(_some_owner(image.name, body) for _, body in texts)
        if unknown_owner[image.name]:
            continue
        if refs is None:
            refs = _build_images(texts)
        others = [
            (file, at, ref)
            for file, at, ref in refs.get((image.registry, image.name, image.tag), [])
            if ref.owner != image.owner and ref.owner not in _OFFICIAL_OWNERS
        ]
        owners = {ref.owner for _, _, ref in others}
        if len(owners) != 1:
            continue
        owner = next(iter(owners))
        if owner not in in_readme:
            in_readme[owner] = _owner_named(owner, text)
        if in_readme[owner]:
            continue
        file, at, ref = others[0]
        where = os.path.relpath(file, directory.resolve())
        yield Diagnostic(
            readme,
            line,
            f"README names image {image.text}, but the build uses {ref.text} ({where}:{at}) and no file "
            f"of it names {image.owner}: the image of another owner (the project this one was forked "
            "from?)",
            confidence=LIKELY,
        )


_VARIABLE_OWNED = re.compile(r"(?:\$\w+|\})/([\w.-]+)")
"""An image name after an owner read from a variable (`$ORG/name`, `${{ … }}/name`), whole."""


def _variable_owned(text: str) -> Iterator[str]:
    """The image names (lower case) `text` names under an owner it reads from a variable: those
    `_some_owner` finds, read once for every name."""
    for match in _VARIABLE_OWNED.finditer(text):
        yield match.group(1).lower()


def _some_owner(name: str, text: str) -> bool:
    """True when `text` names the image `name` under an owner it reads from a variable (`$ORG/name`,
    `${{ github.repository_owner }}/name`): the build's owner is then not known."""
    return re.search(r"(?:\$\w+|\})/" + re.escape(name) + r"(?![\w.-])", text, re.IGNORECASE) is not None


def _build_images(
    texts: Sequence[tuple[Path, str]],
) -> dict[tuple[str, str, str | None], list[tuple[Path, int, _Ref]]]:
    """(file, line, image) of each image of the build files `texts`, in order, by (registry, repository
    name, tag), read once: the README's image is the build's under another owner when one with its
    registry, name and tag has another owner, in no official namespace (on another registry an owner is
    another account: `ghcr.io/ann/x` and `docker.io/ann-dev/x` may be one project's)."""
    found: dict[tuple[str, str, str | None], list[tuple[Path, int, _Ref]]] = {}
    for file, body in texts:
        for number, line in enumerate(body.splitlines(), start=1):
            for match in _IMAGE.finditer(line):
                ref = _ref(match)
                found.setdefault((ref.registry, ref.name, ref.tag), []).append((file, number, ref))
    return found


_SPLIT = re.compile(r"[/._-]")


def _squashed(written: str) -> str:
    """`owner/name` without its `-`, `_` and `.` (`acme/dotnetopenvino` for `acme/dotnet-openvino`)."""
    return re.sub(r"[._-]", "", written)


def _named_images(texts: Sequence[tuple[Path, str]]) -> dict[tuple[str, str, str], tuple[Path, int, _Ref]]:
    """(registry, owner, repository name) → the first (file, line, image) naming it, of the files
    `texts`, read once."""
    found: dict[tuple[str, str, str], tuple[Path, int, _Ref]] = {}
    for file, body in texts:
        for number, line in enumerate(body.splitlines(), start=1):
            for match in _IMAGE.finditer(line):
                ref = _ref(match)
                found.setdefault((ref.registry, ref.owner, ref.name), (file, number, ref))
    return found


def _slipped(
    image: _Ref,
    names: dict[tuple[str, str, str], tuple[Path, int, _Ref]],
    index: SlipIndex,
    by_written: dict[str, list[tuple[str, str, tuple[Path, int, _Ref]]]],
    squashed: dict[str, list[str]],
) -> tuple[Path, int, _Ref] | None:
    """The one image of `names` (by registry, owner and repository name; `index` of their `owner/name`,
    `by_written` the same by `owner/name`, `squashed` by it without separators) that `image` is one slip
    from, or one `-`, `_` or `.` from (`dotnetopenvino`, `dotnet-openvino`), when `names` lacks `image`
    itself and exactly one is."""
    if (image.registry, image.owner, image.name) in names:
        return None
    written = f"{image.owner}/{image.name}"
    parts = _SPLIT.split(written)
    others = [other for other in index.near(written) if one_slip(parts, _SPLIT.split(other))]
    others += [other for other in squashed.get(_squashed(written), ()) if other != written]
    near = [
        named
        for other in dict.fromkeys(others)
        for registry, owner, named in by_written.get(other, ())
        if registry == image.registry and owner not in _OFFICIAL_OWNERS
    ]
    return near[0] if len(near) == 1 else None


_BAKE_FILE = re.compile(r"(?:\.hcl|\A docker-bake[\w.-]*\.json)\Z".replace(" ", ""))
"""A bake file among the build files: `docker-bake.hcl`, `docker-bake.override.json`."""


def _owned_runs(doc: Document) -> list[tuple[int, _Ref]]:
    """(README line, image) of each `docker run` of the README (`image_runs`, the last image of a line)
    whose image has an owner that is not an official image's."""
    return [
        (line, _ref(match))
        for line, image, _, _ in image_runs(doc, last=True)
        if (match := _WHOLE.match(image)) is not None and match.group("owner").lower() not in _OFFICIAL_OWNERS
    ]


def run_owner_images(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """The image a `docker run` of the README starts (`image_runs`) whose repository name the bake file
    of the build publishes under one other owner only, while no build file names the README's
    `owner/name` (`likely`): `README runs ann/comfyui:latest, but docker-bake.hcl:N tags the build
    bob/comfyui:cu128-v1 and no file of the build names ann/comfyui`."""
    runs = _owned_runs(doc)
    if not runs:
        return
    top = project_top(directory, project)
    texts = build_texts(directory, models, readme, top)
    published = _baked(texts)
    unbaked = [(f, body) for f, body in texts if not _BAKE_FILE.search(f.name)]
    runners = [(f, body) for f, body in unbaked if _RUNNER.search(f.name)]
    if not published or any(_RUNS_BAKE.search(b) for _, b in [*runners, *workflow_texts(directory, top)]):
        return  # (a script or workflow running bake may set the owner: `REGISTRY_USER=… bake`)
    provenance = {n for fence in doc.fences for n, t in fence.lines if _PROVENANCE.search(t)}
    tagged = tagged_names(doc)
    told: set[str] = set()
    for line, image in runs:
        written = f"{image.owner}/{image.name}"
        if line in provenance or written in told or image.name in tagged:
            continue
        told.add(written)
        others = [
            (f, at, ref) for f, at, ref in published.get(image.name, ()) if ref.registry == image.registry
        ]
        owners = {ref.owner for _, _, ref in others}
        if len(owners) != 1 or image.owner in owners:
            continue
        if any(_names_image(written, body) for _, body in texts) or any(
            _some_owner(image.name, body) for _, body in unbaked
        ):
            continue
        file, at, ref = others[0]
        where = os.path.relpath(file, directory.resolve())
        yield Diagnostic(
            readme,
            line,
            f"README runs {image.text}, but {where}:{at} tags the build {ref.text} and no file of the build "
            f"names {written}: the image of another owner (the project this one was forked from?)",
            confidence=LIKELY,
        )


_MAKEFILE = re.compile(r"\A(?:GNUmakefile|[Mm]akefile|[\w.-]+\.mk)\Z")
_DOCKER_WORDS = frozenset({"docker", "podman"})


def _made_by_make(texts: Sequence[tuple[Path, str]]) -> list[tuple[Path, int, str, _Ref]]:
    """(Makefile, line, name as the recipe gives it, image) of each image a recipe of the Makefiles
    among `texts` tags or pushes (`docker build -t $(REGISTRY)/$(IMAGE):$(TAG)`, `docker push …`), the
    Makefile's variables put in (`REGISTRY := shvid`, `IMAGE=cu102-ubuntu18-dev`); a tag left a
    variable (`$(shell git describe …)`) is shown as written. Not an image whose owner or repository
    name keeps a variable."""
    found: list[tuple[Path, int, str, _Ref]] = []
    for file, body in texts:
        if not _MAKEFILE.search(file.name):
            continue
        for command in makefile.reading(body).commands:
            words = list(command.words)
            if not words or words[0] not in _DOCKER_WORDS:
                continue
            given: list[str] = []
            if "push" in words[1:3] or "tag" in words[1:3]:
                given = [w for w in words[2:] if not w.startswith("-") and w not in ("push", "tag")]
            if "build" in words[1:3]:
                given += [v for f, v in zip(words, words[1:], strict=False) if f in ("-t", "--tag")]
                given += [w.split("=", 1)[1] for w in words if w.startswith("--tag=")]
            for name in given:
                name = name.strip("\"'")
                plain = name.partition(":")[0]
                match = _WHOLE.match(plain.lower())
                if match is None or "$" in plain:
                    continue
                found.append((file, command.line, name, _ref(match)))
    return found


def _made_from(texts: Sequence[tuple[Path, str]]) -> set[str] | None:
    """The file names of the Dockerfiles the `docker build`s of the Makefiles among `texts` read (`-f
    Dockerfile.desktop`; `Dockerfile` with no `-f`); None when a `-f` keeps a variable."""
    found: set[str] = set()
    for file, body in texts:
        if not _MAKEFILE.search(file.name):
            continue
        for command in makefile.reading(body).commands:
            words = list(command.words)
            if len(words) < 2 or words[0] not in _DOCKER_WORDS or "build" not in words[1:3]:
                continue
            given = [v for f, v in zip(words, words[1:], strict=False) if f in ("-f", "--file")]
            given += [w.split("=", 1)[1] for w in words if w.startswith("--file=")]
            if any("$" in name for name in given):
                return None
            found.update(PurePosixPath(name.strip("\"'")).name for name in given or ["Dockerfile"])
    return found


def make_renamed_runs(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """The image the README's `docker run`s start (`owner/name`, every run of that owner the same
    repository) while the README builds nothing and the Makefile of the build tags or pushes images of
    that owner under one other repository name only (`docker build -t $(REGISTRY)/$(IMAGE):$(TAG)` with
    `REGISTRY := shvid`, `IMAGE=cu102-ubuntu18-dev`), and no file of the build or workflow names the
    README's `owner/name`: the build never makes the image the README runs (`likely`). Silent when an
    audited Dockerfile is one no build of the Makefile reads (`make build` reads `-f Dockerfile.desktop`
    beside a `Dockerfile`): the image run may be that one's, published from it (`slaclab/app-docker:2.2.0`
    run while the Makefile builds `slaclab/app-desktop`)."""
    runs = _owned_runs(doc)
    if not runs or tagged_names(doc):
        return
    top = project_top(directory, project)
    texts = build_texts(directory, models, readme, top)
    made = _made_by_make(texts)
    if not made:
        return
    built = _made_from(texts)
    if built is None or any(Path(m.path).name not in built for m in models if m.file):
        return  # an audited Dockerfile no build of the Makefile reads may make the image the README runs
    provenance = {n for fence in doc.fences for n, t in fence.lines if _PROVENANCE.search(t)}
    others = [*texts, *workflow_texts(directory, top)]
    told: set[str] = set()
    for line, image in runs:
        written = f"{image.owner}/{image.name}"
        owned = {r.name for _, r in runs if r.owner == image.owner and r.registry == image.registry}
        if line in provenance or written in told or len(owned) != 1:
            continue
        same = [m for m in made if m[3].owner == image.owner and m[3].registry == image.registry]
        if len({m[3].name for m in same}) != 1 or same[0][3].name == image.name:
            continue
        if any(_names_image(written, body) for _, body in others):
            continue
        told.add(written)
        file, at, name, _ = same[0]
        where = os.path.relpath(file, directory.resolve())
        yield Diagnostic(
            readme,
            line,
            f"README runs {image.text}, but the build makes {name} ({where}:{at}) and no file of the "
            f"build names {written}: the image it runs is not the one the project builds",
            confidence=LIKELY,
        )


def _names_image(written: str, text: str) -> bool:
    """True when `text` names the image `written` (`owner/name`), with any tag or none."""
    return re.search(r"(?<![\w./-])" + re.escape(written) + r"(?![\w/-])", text, re.IGNORECASE) is not None


_RUNS_BAKE = re.compile(r"\b(?:buildx|docker)[ \t]+bake\b|docker/bake-action")
"""A workflow or script that runs bake: it may set the variables the tags are made of (`REGISTRY_USER=…`)."""
_RUNNER = re.compile(r"\.(?:sh|bash|mk)\Z|\A(?:Makefile|GNUmakefile|[Jj]ustfile)\Z")
"""A build file that may run bake: a script, a Makefile, a justfile."""


def _baked(texts: Sequence[tuple[Path, str]]) -> dict[str, list[tuple[Path, int, _Ref]]]:
    """Repository name → (bake file, line of its target, image) of each tag of each target of the bake
    files among `texts`, variables at their defaults; {} when a bake file cannot be read or a tag keeps
    a variable or names no owner (the owner is then not known)."""
    found: dict[str, list[tuple[Path, int, _Ref]]] = {}
    for file, body in texts:
        if not _BAKE_FILE.search(file.name):
            continue
        try:
            parsed = bake.parse(body.encode(), file.name)
            tags = [(name, tag) for name in parsed.names for tag in parsed.target(name).tags]
        except (DocgenError, ValueError, TypeError):
            return {}
        for name, tag in tags:
            match = _WHOLE.match(tag.lower())
            if match is None:
                return {}
            at = next((n for n, t in enumerate(body.splitlines(), start=1) if f'target "{name}"' in t), 1)
            ref = _ref(match)
            found.setdefault(ref.name, []).append((file, at, ref))
    return found


_BAKE_SETS = re.compile(
    r"(?<![\w-])[A-Za-z_]\w*=[\"']?latest\b|\bbake\b[^\n]*(?:--set\b|--file[ \t=]+-|-f[ \t]+-)"
)
"""A README command line that may make a bake file tag `latest`: a variable set to it (`RELEASE=latest`),
a bake run overriding attributes (`--set *.tags=…`)."""
_BAKE_PUSH = re.compile(r"\bbake\b[^\n]*--push\b")
"""A README command publishing with bake (`docker buildx bake -f docker-bake.hcl --push`)."""
_PULLED = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?pull[ \t]+(?:-\S+[ \t]+)*([^\s;&|\\]+)")


_SCRIPT_VALUE = re.compile(r"%~?\w+%?|\$\{[^{}]*\}|\$\([^()]*\)|\$\w+")
"""A value a script puts in: `%1`, `%VERSION%` (Windows batch), `${TAG}`, `$(date +%F)`, `$TAG`."""


def _given_tags(name: str, texts: Sequence[tuple[Path, str]]) -> list[tuple[Path, int, str]] | None:
    """(file, line, tag) of each tag the build files `texts` give the repository `name` (`owner/name`,
    `docker.io/` left out) with a build's `-t`, a compose `image:`, a `docker tag` or `docker push`, a
    value the script puts in as `*` (`11.7-%1` is `11.7-*`); None when one names it otherwise (a `FROM`,
    no tag at all, a tag that is all variable)."""
    found: list[tuple[Path, int, str]] = []
    written = re.compile(
        r"(?<![\w./-])(?:docker\.io/)?" + re.escape(name) + r"(?![\w./-])([^\s\"']*)", re.IGNORECASE
    )
    for file, body in texts:
        if name not in body.lower():
            continue
        for number, line in enumerate(body.splitlines(), start=1):
            for match in written.finditer(line):
                tagging = any(name in m.group(1).lower() for m in _TAGGING.finditer(line))
                tag = re.match(r":([\w.*-]+)\Z", _SCRIPT_VALUE.sub("*", match.group(1)))
                if not tagging or tag is None or not tag.group(1).strip("*-._"):
                    return None
                found.append((file, number, tag.group(1)))
    return found


def _may_be(pattern: str, tag: str) -> bool:
    """Whether the tag `pattern` (`*` any text) can be `tag`."""
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("*")), tag) is not None


_PUBLISHED_PAGE = re.compile(
    r"(?:hub\.docker\.com/(?:r|repository/docker)/|shields\.io/docker/[\w-]+/|badgen\.net/docker/[\w-]+/"
    r"|microbadger\.com/images/)([\w.-]+/[\w.-]+)",
    re.IGNORECASE,
)
"""A Docker Hub page or a badge of an image (`hub.docker.com/r/ann/app`, `shields.io/docker/pulls/ann/app`):
the image is published, and Docker Hub's automated builds push `latest` with no file of the repository."""
_READER_OWNER = re.compile(
    r"\A(?:your[\w-]*|my[-_]?(?:user(?:name)?|name|org|account|namespace|repo|docker\w*|hub)"
    r"|user(?:name)?|example|namespace|owner|org(?:anization)?)\Z"
)
"""An owner the reader puts their own name in place of (`yourname/app`, `user/app`)."""


_HUB = re.compile(r"\bdocker[ \t-]*hub\b|\bhub\.docker\.com\b", re.IGNORECASE)


_OWN_NAME = re.compile(
    r"\b(?:substitut|replac|chang|swap|renam|edit)\w*\b[^.\n]{0,80}?\b(?:images?|tags?|names?)\b"
    r"[^.\n]{0,60}?\byours?\b"
    r"|\b(?:use|with|to|put|give)[ \t]+your[ \t]+own[ \t]+(?:image|tag|name|registry|repository|namespace)",
    re.IGNORECASE,
)
"""A sentence telling the reader to put their own image name or tag in place of the one a command
names (`You can substitute the image name and tag with your own`, `replace the tag with yours`)."""


def _own_name_said(doc: Document, line: int) -> bool:
    """True when the paragraph right above or right below the command block holding `line` (within
    three lines of it) tells the reader to use their own image name or tag (`_OWN_NAME`): the image
    the block names is an example, not a claim that a build of the project makes it."""
    fence = next((f for f in doc.fences if f.lines and f.lines[0][0] <= line <= f.lines[-1][0]), None)
    if fence is None:
        return False
    first, last = fence.lines[0][0], fence.lines[-1][0]
    for para in doc.paragraphs:
        if not para.lines:
            continue
        near = 0 < first - para.lines[-1][0] <= 3 or 0 < para.lines[0][0] - last <= 3
        if near and _OWN_NAME.search(" ".join(text for _, text in para.lines)):
            return True
    return False


def _hub_said(doc: Document, line: int) -> bool:
    """True when the heading over README `line` (`### Download the image from the Docker Hub`) or the
    text of the paragraph ending right above its block names Docker Hub: the README says the image is
    published there, as a link to its page does (`_PUBLISHED_PAGE`)."""
    if any(_HUB.search(title) for title in headings_over(doc, line)[:1]):
        return True
    fence = next((f for f in doc.fences if f.lines and f.lines[0][0] <= line <= f.lines[-1][0]), None)
    if fence is None:
        return False
    before = [p for p in doc.paragraphs if p.lines and p.lines[-1][0] < fence.lines[0][0]]
    if not before:
        return False
    last = max(before, key=lambda p: p.lines[-1][0])
    if fence.lines[0][0] - last.lines[-1][0] > 3:
        return False
    return any(_HUB.search(text) for _, text in last.lines)


def _pulls_and_runs(doc: Document) -> list[tuple[int, str, re.Match[str]]]:
    """(README line, `pulls` or `runs`, image) of each Docker Hub image of no official namespace that a
    command block pulls (`docker pull`) or runs (`docker run`, which pulls an image the machine lacks),
    on a line not telling where the image comes from, in README order."""
    provenance = {n for fence in doc.fences for n, t in fence.lines if _PROVENANCE.search(t)}
    found = [
        (line, "pulls", match)
        for fence in doc.fences
        for line, text in fence.lines
        if line not in provenance
        for pulled in _PULLED.finditer(text)
        if (match := _WHOLE.match(pulled.group(1))) is not None
    ]
    found += [
        (line, "runs", match)
        for line, image, _, _ in image_runs(doc, last=True)
        if line not in provenance and (match := _WHOLE.match(image)) is not None
    ]
    return sorted(
        (
            (line, kind, match)
            for line, kind, match in found
            if (match.group("registry") or "docker.io") == "docker.io"
            and match.group("owner").lower() not in _OFFICIAL_OWNERS
            and not _READER_OWNER.match(match.group("owner").lower())
        ),
        key=lambda item: item[0],
    )


def pulled_latest(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """An image the README pulls or runs (a run pulls an image the machine lacks) without a tag (or as
    `:latest`) whose repository every build file that names it tags with versioned tags only (`docker
    build -t maximofn/coqui_tts:1.0.1`, the compose `image: maximofn/coqui_tts:1.0.1`, a build script's
    `-t hgfkeep/vllm:cudnn8-torch2.0.1` and its push): the build never makes `latest`, and the pulled
    image is not the one the project runs. Silent when the repository has a CI workflow (which may push
    `latest` under a scheme not read), for `latest` when the README links the image's Docker Hub page
    or a badge of it (Docker Hub's automated builds push `latest` from the default branch), when a
    build file names the repository otherwise (a `FROM`, a variable or no tag), when the README tags or
    builds the name itself, for an owner the reader puts their own name in (`yourname/app`), and on a
    line telling where the image comes from (`likely`). A run is told at the first command-block line
    naming the image, with the others.

    A bake file's target tags (variables at their defaults: `${REGISTRY_USER}/${APP}:${RELEASE}`) are
    build tags too; its name's Docker Hub page does not silence `latest` when the README publishes with
    `bake … --push` itself. Silent for a bake-tagged name when a target gives it no tag, a script or
    Makefile runs bake, or a README command sets a variable to `latest` or bake's `--set`."""
    said = _pulls_and_runs(doc)
    if not said:
        return
    top = project_top(directory, project)
    if workflow_texts(directory, top):
        return
    files = build_files(directory, _dockerfiles(models), (directory / Path(readme).name).resolve(), top)
    if any(f.name in (".gitlab-ci.yml", "Jenkinsfile", ".travis.yml", "cloudbuild.yaml") for f in files):
        return
    texts = build_texts(directory, models, readme, top)
    tagged = tagged_names(doc)
    commands = "\n".join(t for fence in doc.fences for _, t in fence.lines).lower()
    published = {
        m.group(1).lower() for _, target in doc.destinations for m in _PUBLISHED_PAGE.finditer(target)
    }
    baked = _baked(texts)
    bake_set = any(_RUNS_BAKE.search(b) for f, b in texts if _RUNNER.search(f.name)) or any(
        _BAKE_SETS.search(t) for fence in doc.fences for _, t in fence.lines
    )
    bake_pushed = _BAKE_PUSH.search(commands) is not None
    told: set[str] = set()
    for line, kind, match in said:
        name = f"{match.group('owner')}/{match.group('name')}".lower()
        tag = match.group("tag") or "latest"
        if name in told or match.group("name").lower() in tagged or _own_name_said(doc, line):
            continue
        told.add(name)
        if re.search(r"\btag\b[^\n]*" + re.escape(name), commands):
            continue
        given = _given_tags(name, texts)
        if given is None:
            continue
        from_bake = [
            (f, at, ref.tag)
            for f, at, ref in baked.get(match.group("name").lower(), ())
            if ref.registry == "docker.io" and ref.owner == match.group("owner").lower()
        ]
        if from_bake and (bake_set or any(t is None for _, _, t in from_bake)):
            continue  # (a script or the README may set the tag; a bake tag with none is latest)
        if (
            tag == "latest"
            and (name in published or _hub_said(doc, line))
            and not (from_bake and bake_pushed)
        ):
            continue
        given = given + [(f, at, t) for f, at, t in from_bake if t is not None]
        if not given or any(_may_be(g, tag) for _, _, g in given):
            continue
        if tag == "latest" and not all(_VERSIONED.search(g) for _, _, g in given):
            continue
        said_tag = "" if match.group("tag") else " (the tag latest)"
        shown = ", ".join(f"{os.path.relpath(f, directory.resolve())}:{at}" for f, at, _ in given[:3])
        tags = ", ".join(dict.fromkeys(g.replace("*", "…") for _, _, g in given))
        also = ""
        if kind == "runs":
            lines = _naming_lines(doc, match.group(0))
            line, also = (lines[0], also_at(lines)) if lines else (line, "")
        yield Diagnostic(
            readme,
            line,
            f"README {kind} {match.group(0)}{said_tag}, but the build tags {name} only as {tags} "
            f"({shown}): no build of the project makes {tag}{also}",
            confidence=LIKELY,
        )


def _naming_lines(doc: Document, image: str) -> list[int]:
    """The command-block lines naming `image` as a word of its own (a run, the image of a run a missing
    `\\` left on a line of its own), in README order."""
    word = re.compile(r"(?<![\w./:-])" + re.escape(image) + r"(?![\w./:-])")
    return [line for fence in doc.fences for line, text in fence.lines if word.search(text)]


_MANIFEST_IMAGE = re.compile(r"^[ \t]*(?:-[ \t]+)?image:[ \t]*[\"']?(\S+?)[\"']?[ \t]*$")
"""A manifest's or compose file's `image:` line of a command block."""
_VARIANT_WORDS = frozenset(
    "cpu gpu cuda rocm amd nvidia intel arm arm64 amd64 aarch64 x86 dev devel slim full lite base runtime "
    "server client worker api web ui cli min debug test prod latest nightly edge stable".split()
)
"""Words that tell sibling images of one project apart (`app-cpu`, `app-gpu`): another one is no slip."""


def renamed_images(
    doc: Document,
    text: str,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """An image a manifest or compose example of the README runs (`image: ann/tts-fast:cu121`) that no
    build file names, while the build names exactly one image of the same owner whose repository name
    differs in one word (`ann/trtllm-fast`: words between `-`, `_`, `.`, the same number of them, at
    least two, the differing words no variant words such as `cpu`, `gpu`, `dev`), and the README itself
    runs that image with the same tag elsewhere: the example names an image the build never makes, an
    old name of it (`likely`). Silent on a line telling where the image comes from, a name the build
    files give under a variable owner, and an unversioned tag."""
    said = [
        (line, m.group(1))
        for fence in doc.fences
        for line, raw in fence.lines
        if (m := _MANIFEST_IMAGE.match(raw)) is not None and not _PROVENANCE.search(raw)
    ]
    if not said:
        return
    top = project_top(directory, project)
    texts = [*build_texts(directory, models, readme, top), *workflow_texts(directory, top)]
    names = _named_images(texts)
    variable_owned = {n for _, body in texts for n in _variable_owned(body)}
    owned: dict[str, dict[str, tuple[Path, int, _Ref]]] = {}  # owner → its names in the build files
    told: set[str] = set()
    for line, written in said:
        match = _WHOLE.match(written)
        if match is None:
            continue
        image = _ref(match)
        if (
            image.tag is None
            or not _VERSIONED.search(image.tag)
            or image.owner in _OFFICIAL_OWNERS
            or (image.registry, image.owner, image.name) in names
            or image.name in variable_owned
            or image.text in told
        ):
            continue
        if image.owner not in owned:
            owned[image.owner] = _owner_names(image.owner, texts)
        if image.name in owned[image.owner]:
            continue
        words = re.split(r"[._-]", image.name)
        near = [named for name, named in owned[image.owner].items() if _one_word_apart(words, name)]
        if len(near) != 1:
            continue
        file, at, ref = near[0]
        used = re.compile(
            rf"(?<![\w./-])(?:[\w.-]+/)?{re.escape(ref.owner)}/{re.escape(ref.name)}:{re.escape(image.tag)}(?![\w.-])",
            re.IGNORECASE,
        )
        if not used.search(text):
            continue
        told.add(image.text)
        yield Diagnostic(
            readme,
            line,
            f"README's example runs image {image.text}, which no file of the build names; "
            f"{os.path.relpath(file, directory.resolve())}:{at} builds {ref.owner}/{ref.name}, the image "
            f"the README runs elsewhere as {ref.owner}/{ref.name}:{image.tag} (did you mean it?)",
            confidence=LIKELY,
        )


def _owner_names(owner: str, texts: Sequence[tuple[Path, str]]) -> dict[str, tuple[Path, int, _Ref]]:
    """Repository name → the first (file, line, image) of the build files `texts` naming `owner/name`,
    also as a variable's default (`${IMAGE:-owner/name}`, which `_IMAGE` does not read)."""
    pattern = re.compile(rf"(?<![\w./]){re.escape(owner)}/([a-z0-9][a-z0-9._-]*)(?![\w/$])", re.IGNORECASE)
    found: dict[str, tuple[Path, int, _Ref]] = {}
    for file, body in texts:
        for number, line in enumerate(body.splitlines(), start=1):
            for match in pattern.finditer(line):
                name = match.group(1).lower().rstrip(".")
                found.setdefault(name, (file, number, _Ref(match.group(0), "docker.io", owner, name, None)))
    return found


def _one_word_apart(words: Sequence[str], name: str) -> bool:
    """True when repository name `name` has as many words as `words` (at least three), differing in
    exactly one, neither of the two a variant word (`_VARIANT_WORDS`) nor a number."""
    other = re.split(r"[._-]", name)
    if len(other) != len(words) or len(words) < 3:
        return False
    apart = [(a, b) for a, b in zip(words, other, strict=True) if a != b]
    return len(apart) == 1 and not any(w in _VARIANT_WORDS or _VERSIONED.search(w) for w in apart[0])


def _label_lines(file: str) -> list[tuple[int, str]]:
    """(line, text) of each line of the LABEL instructions of Dockerfile `file`, as BuildKit reads them
    (`auditor.dockerfile_read`: continued lines too, not a LABEL word in a heredoc or a comment)."""
    read = dockerfile_read(file)
    if read is None:
        return []
    text, parsed = read
    lines = text.splitlines()
    return [
        (number, lines[number - 1])
        for inst in parsed.instructions
        if inst.keyword == "LABEL"
        for number in range(inst.start_line, min(inst.end_line, len(lines)) + 1)
    ]


def _names_owner(owner: str, text: str) -> bool:
    """True when `text` holds `owner` as a word of its own (`semhoun` in `nathanael@semhoun.net`)."""
    return re.search(r"(?<![a-z0-9])" + re.escape(owner) + r"(?![a-z0-9])", text, re.IGNORECASE) is not None


def twin_owner_runs(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """The README's `docker run`s start one repository name under two owners (`semhoun/unsloth` in the
    Quick Start, `unsloth/unsloth` in a later example) where a LABEL of the audited Dockerfile names
    one owner (`maintainer="…@semhoun.net"`) and no build file, no prose line of the README and no
    build of it names the other's image, and neither run's line says where an image comes from: the run of the
    other owner's image starts an image this build does not make (`likely`)."""
    runs = _owned_runs(doc)
    owners: dict[tuple[str, str], dict[str, int]] = {}
    for line, ref in runs:
        owners.setdefault((ref.registry, ref.name), {}).setdefault(ref.owner, line)
    twins = {key: seen for key, seen in owners.items() if len(seen) == 2}
    if not twins:
        return
    labels = [(Path(m.file), n, t) for m in models if m.file for n, t in _label_lines(m.file)]
    if not labels:
        return
    top = project_top(directory, project)
    texts = [body for _, body in build_texts(directory, models, readme, top)]
    prose = "\n".join(t for para in doc.paragraphs for _, t in para.lines)
    provenance = {n for fence in doc.fences for n, t in fence.lines if _PROVENANCE.search(t)}
    tagged = tagged_names(doc)
    for (_, name), seen in twins.items():
        if name in tagged or any(line in provenance for line in seen.values()):
            continue
        labelled = {o: next(((f, n) for f, n, t in labels if _names_owner(o, t)), None) for o in seen}
        own = [o for o, at in labelled.items() if at is not None]
        if len(own) != 1:
            continue
        other = next(o for o in seen if o != own[0])
        if any(_names_image(f"{other}/{name}", body) for body in [*texts, prose]):
            continue
        file, at = labelled[own[0]] or (Path(), 0)
        where = os.path.relpath(file, directory.resolve())
        yield Diagnostic(
            readme,
            seen[other],
            f"README runs {other}/{name}, but its run at line {seen[own[0]]} starts {own[0]}/{name}, the "
            f"owner {where}:{at}'s LABEL names, and no file of the build names {other}/{name}: the image "
            "of another owner",
            confidence=LIKELY,
        )


_PATH_PART = r"[a-z0-9][a-z0-9._-]*"
_NESTED = re.compile(
    r"(?<![\w./:-])(?P<registry>[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]+)?)/(?P<path>"
    + _PATH_PART
    + r"(?:/"
    + _PATH_PART
    + r")+)(?::(?P<tag>[A-Za-z0-9_][A-Za-z0-9_.-]*))?(?![\w/:{$])"
)
"""`registry/owner/…/name[:tag]` with its registry written (`ghcr.io/acme/apps/tool:rocm`): a registry
other than Docker Hub may hold a repository under any depth of path."""
_TEMPLATE_VALUE = r"(?:\$\{\{[^}\n]{0,200}\}\}|\$\{[^}\n]{0,100}\}|\$\([^)\n]{0,100}\)|\$\w+)"
_NESTED_BUILT = re.compile(
    r"(?<![\w./:-])(?P<registry>[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]+)?)/(?P<path>(?:[a-z0-9._-]|"
    + _TEMPLATE_VALUE
    + r")+(?:/(?:[a-z0-9._-]|"
    + _TEMPLATE_VALUE
    + r")+)+)(?::(?P<tag>(?:[A-Za-z0-9_.-]|"
    + _TEMPLATE_VALUE
    + r")+))?",
    re.IGNORECASE,
)
"""An image a build file names, its path and tag possibly made of variables (`${SUFFIX}`, `${{ … }}`)."""
_TEMPLATE = re.compile(_TEMPLATE_VALUE)
_MOST_VARIABLE = 64
"""The most images of one registry (or one owner and name) build files name with a variable in their
path (or tag) that `moved_images` compares a README's image with."""


def _template(written: str) -> re.Pattern[str]:
    """`written` (a path or tag a build file gives, variables in it) as a pattern: a variable any text."""
    return re.compile(".*".join(re.escape(p) for p in _TEMPLATE.split(written)), re.IGNORECASE)


@dataclass(frozen=True)
class _Named:
    """An image a build file names: where, as written, and as patterns (variables any text)."""

    file: Path
    line: int
    text: str
    registry: str
    path: re.Pattern[str]
    written_path: str
    tag: re.Pattern[str]
    written_tag: str


def _nested_namings(texts: Sequence[tuple[Path, str]]) -> list[_Named]:
    """Each image with its registry written that the build files `texts` name (`_NESTED_BUILT`), in order;
    read once an audit."""
    found: list[_Named] = []
    for file, body in texts:
        for number, line in enumerate(body.splitlines(), start=1):
            if "/" not in line or "." not in line:
                continue
            for match in _NESTED_BUILT.finditer(line):
                path = match.group("path").lower()
                found.append(
                    _Named(
                        file,
                        number,
                        match.group(0),
                        match.group("registry").lower(),
                        _template(path),
                        path,
                        _template(match.group("tag") or "latest"),
                        match.group("tag") or "latest",
                    )
                )
    return found


def _said_nested(doc: Document) -> Iterator[tuple[int, str, re.Match[str]]]:
    """(README line, the line, image) of each image with its registry written that the README names in a
    code span that is the image alone, on a command-block line naming one image (`image:`, `docker
    pull`, `FROM`) or as the image of a `docker run`."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            for _, _, code in code_spans(text):
                if (match := _NESTED.fullmatch(code.strip())) is not None:
                    yield line, text, match
    for fence in doc.fences:
        for line, text in fence.lines:
            named = _FENCE_IMAGE.match(text)
            if named is not None and (match := _NESTED.fullmatch(named.group(1))) is not None:
                yield line, text, match
    runs = {line: text for fence in doc.fences for line, text in fence.lines}
    for line, image, _, _ in image_runs(doc, last=True):
        if (match := _NESTED.fullmatch(image)) is not None:
            yield line, runs.get(line, ""), match


def moved_images(
    doc: Document,
    readme: str,
    directory: Path,
    models: Sequence[ImageModel],
    project: Path | None = None,
) -> Iterator[Diagnostic]:
    """An image of a registry named by its host (`ghcr.io/acme/portable/tool:rocm`) the README names (a
    code span of its own, a command block's `image:`, `docker pull`, `FROM` or `docker run`) that no build
    file names with that tag, while the build files (compose, bake, scripts, Makefiles, Dockerfiles, the
    repository's workflows) name it with that tag under exactly one other path of the same registry, owner
    and last name (`ghcr.io/acme/apps/tool:rocm${SUFFIX}`, a variable any text): the image moved in the
    registry and the README kept the old path (`likely`). Silent on a line telling where an image comes
    from, for an owner the reader picks (`<you>`, `your-org`), when a build file names the README's path
    under a variable that may spell it, and when the README builds or tags the name itself."""
    said = [
        (line, match)
        for line, text, match in _said_nested(doc)
        if not _PROVENANCE.search(text) and not PICKED.search(match.group("path"))
    ]
    if not said:
        return
    top = project_top(directory, project)
    named = _nested_namings([*build_texts(directory, models, readme, top), *workflow_texts(directory, top)])
    if not named:
        return
    # the namings found by what the README's image has: (registry, path) for those of a path of no
    # variable, (registry, owner, last name, tag) for those of a tag of none too, else by registry
    exact: dict[tuple[str, str], list[_Named]] = {}
    by_tag: dict[tuple[str, str, str, str], list[_Named]] = {}
    by_last: dict[tuple[str, str, str], list[_Named]] = {}  # (a tag holding a variable)
    templated: dict[str, list[_Named]] = {}
    for n in named:
        if _TEMPLATE.search(n.written_path):
            templated.setdefault(n.registry, []).append(n)
            continue
        exact.setdefault((n.registry, n.written_path), []).append(n)
        owner, last = n.written_path.split("/", 1)[0], n.written_path.rsplit("/", 1)[-1]
        if _TEMPLATE.search(n.written_tag):
            by_last.setdefault((n.registry, owner, last), []).append(n)
        else:
            by_tag.setdefault((n.registry, owner, last, n.written_tag.lower()), []).append(n)
    tagged = tagged_names(doc)
    told: set[str] = set()
    for line, match in said:
        registry, path = match.group("registry").lower(), match.group("path").lower()
        tag = match.group("tag") or "latest"
        if match.group(0) in told or path.rsplit("/", 1)[-1] in tagged:
            continue
        owner, last = path.split("/", 1)[0], path.rsplit("/", 1)[-1]
        same = exact.get((registry, path), [])
        unknown = templated.get(registry, [])
        variable = by_last.get((registry, owner, last), [])
        if len(unknown) > _MOST_VARIABLE or len(variable) > _MOST_VARIABLE:
            continue  # (more names made of variables than a project has: any may be this one)
        if any(n.tag.fullmatch(tag) for n in same) or any(
            n.path.fullmatch(path) and n.tag.fullmatch(tag) for n in unknown
        ):
            continue
        moved = [
            n
            for n in [*by_tag.get((registry, owner, last, tag.lower()), ()), *variable]
            if n.written_path != path and n.tag.fullmatch(tag)
        ]
        if len({n.written_path for n in moved}) != 1:
            continue
        told.add(match.group(0))
        first = moved[0]
        meant = f"{registry}/{first.written_path}:{tag}"
        yield Diagnostic(
            readme,
            line,
            f"README names image {match.group(0)}, but no file of the build names {registry}/{path} with "
            f"the tag {tag}; {os.path.relpath(first.file, directory.resolve())}:{first.line} names "
            f"{first.text}" + ("" if first.text.lower() == meant else f" (did you mean {meant}?)"),
            confidence=LIKELY,
        )
