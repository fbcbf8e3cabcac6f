"""An image a README builds (or tags, or pushes) and then deploys with `kubectl apply -f` / `kubectl
create -f`, while the containers of the manifests it applies run another image of the same name: the
built one under another registry, owner or tag (`docker build -t team/mnist-test:1.0 .` then a job whose
`image: gcr.io/team-ci/mnist_test:1.0`), or a placeholder the README never says to fill in (`image:
gcr.io/<your_project>/mnist:latest`). The job never runs what the README built.

The images compared are those of `containers:` and `initContainers:` in the applied files (a folder: its
YAML files); an image of another name (a sidecar, a database) is not. A file missing where the command
reads it is read at the one place below the README's folder holding a file of that name (the README
kept an old layout; the missing file is its own finding). Silent when a manifest image is one the README
builds, or one the README's text names elsewhere (a published image it offers); when the README edits
the manifest (`sed`, `envsubst`, `yq`, `kustomize edit`) or tells the reader to (`edit the image in
job.yaml`, `replace <your_project>`); when a manifest is a template (`{{ … }}`) or an image a variable;
when the command runs in another folder (a `cd` before it, but into the README's repository as a `git
clone` made it: its top). `likely`: a cluster may be set up to pull the other name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.commands import (
    MOVE,
    TAG_FLAG,
    clone_of,
    cloned_folder,
    fence_commands,
    image_repository,
    joined,
    shell_steps,
    tagged_reference,
)
from docgen.audit.memo import per_audit
from docgen.audit.references import inside
from docgen.audit.wording import sentences
from docgen.build_scripts import BUILD, TAG_COMMAND
from docgen.files import text_or_none
from docgen.markdown import Document
from docgen.model import Diagnostic

_APPLY = re.compile(
    r"^[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?(?:(?:microk8s|k3s)[ \t]+)?(?:kubectl|oc)[ \t]+"
    r"(?P<verb>apply|create)\b"
)
_FILE = re.compile(r"(?:^|[ \t])(?:-f|--filename)(?:[ \t]+|=)[\"']?(?P<path>[^\s\"']+)")
_PUSH = re.compile(
    r"\b(?:docker|podman)[ \t]+(?:image[ \t]+)?push[ \t]+(?:-\S+[ \t]+)*[\"']?(?P<image>[^\s\"';&|)]+)"
)
_EDITS = re.compile(r"\b(?:sed|envsubst|yq|kustomize|kpt|perl[ \t]+-p?i|ytt|jsonnet)\b")
"""A command that rewrites a manifest before it is applied."""
_EDIT_WORDS = re.compile(
    r"\b(?:edit|change|update|replace|modify|adjust|set|specify|substitute|fill[ \t]+in|point|customi[sz]e"
    r"|use[ \t]+your)\b",
    re.I,
)
_EDITED = re.compile(
    r"\bimages?\b|\bmanifests?\b|\.ya?ml\b|\byaml\b|\bregistry\b|\bproject\b|<[^>\s]+>", re.I
)
"""A sentence telling the reader to edit the manifest or its image: an edit word with one of these."""
_CONTAINERS = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:containers|initContainers)[ \t]*:")
_IMAGE_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]+)?image[ \t]*:[ \t]*[\"']?(?P<image>[^\s\"'#]+)")
_PLACEHOLDER = re.compile(
    r"<[^>]*>|\byour[_-]?\w*|\bmy[_-]\w+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bPROJECT(?:_ID)?\b"
)
"""A placeholder in an image reference (`<your_project>`, `YOUR_REGISTRY`, `your-org`)."""
_YAML = (".yaml", ".yml")
_LIMIT = 50
_WALK_LIMIT = 5000


def unrun_builds(
    doc: Document, path: str, directory: Path | None, project: Path | None
) -> Iterator[Diagnostic]:
    """Builds of the README whose image the manifests a later `kubectl apply -f` applies do not run (see
    the module's docstring)."""
    if directory is None:
        return
    directory = Path(os.path.abspath(directory))
    top = Path(os.path.realpath(project or directory))
    built: dict[str, tuple[str, int]] = {}
    applied: list[tuple[int, str, str, Path]] = []
    base: Path | None = directory
    cloned: set[str] = set()
    for fence in sorted(doc.fences, key=lambda f: f.lines[0][0] if f.lines else 0):
        for command in fence_commands(fence):
            text = joined(command)
            line = command[0][0]
            if _EDITS.search(text):
                return
            for step in shell_steps(text):
                if (clone := clone_of(step)) is not None:
                    cloned.add(clone[1] or cloned_folder(clone[0]))
                for move in MOVE.finditer(step):
                    # (a `cd` into the clone of the README's repository is its top; any other, unknown)
                    entered = move.group(1).rstrip("/")
                    base = top if project is not None and entered in cloned else None
                if BUILD.search(step):
                    for match in TAG_FLAG.finditer(step):
                        built.setdefault(_normal(match.group(1)), (match.group(1), line))
                for match in TAG_COMMAND.finditer(step):
                    target = match.group(2).strip('"')
                    built.setdefault(_normal(target), (target, line))
                for match in _PUSH.finditer(step):
                    built.setdefault(_normal(match.group("image")), (match.group("image"), line))
                apply = _APPLY.match(step)
                if built and base is not None and apply:
                    applied.extend(
                        (line, apply.group("verb"), m.group("path"), base) for m in _FILE.finditer(step)
                    )
    built = {k: v for k, v in built.items() if not re.search(r"[$<>{}]", k)}
    if not built or not applied or _told_to_edit(doc):
        return
    readme_text = "\n".join(text for para in doc.paragraphs for _, text in para.lines)
    readme_text += "\n" + "\n".join(text for fence in doc.fences for _, text in fence.lines)
    unrun: dict[tuple[tuple[Path, str | None], ...], tuple[tuple[str, int], str, str, str | None] | None] = {}
    for line, verb, given, folder in applied:
        files = _files(given, folder, top)
        if files is None:
            continue
        if tuple(files) not in unrun:  # (read once: a README applies one manifest after each build)
            unrun[tuple(files)] = _unrun(files, built, directory, readme_text)
        found = unrun[tuple(files)]
        if found is None:
            continue
        (built_as, built_line), image, where, held = found
        placeholder = bool(_PLACEHOLDER.search(image.replace(image_repository(image).rsplit("/", 1)[-1], "")))
        moved_to = f" (no such file there; the one of its name below is {held})" if held else ""
        fact = f"{image} ({where})" + (
            ", a placeholder the README never says to fill in" if placeholder else ""
        )
        yield Diagnostic(
            path,
            built_line,
            f"README builds {built_as}, then `kubectl {verb} -f {given}` at line {line}{moved_to} deploys "
            f"containers that run {fact}: the workload never runs the image the README built",
            confidence=LIKELY,
        )


def _normal(image: str) -> str:
    """An image reference as docker reads it: a tag (`latest`), no `docker.io/` or `library/`."""
    reference = tagged_reference(image.strip("\"'")).lower()
    for prefix in ("docker.io/", "index.docker.io/", "library/"):
        reference = reference.removeprefix(prefix)
    return reference


def _words(image: str) -> frozenset[str]:
    """The words of an image's last name: `{pytorch, dist, mnist}` for `gcr.io/x/pytorch_dist-mnist:1`."""
    return frozenset(w for w in re.split(r"[-_.]+", image_repository(image).rsplit("/", 1)[-1].lower()) if w)


def _same_name(one: frozenset[str], other: frozenset[str]) -> bool:
    """True when two last names are one name: the same words, or those of one all in the other, two at
    least (`pytorch-dist-mnist` and `pytorch-dist-mnist-test`)."""
    if one == other:
        return bool(one)
    small = one if len(one) < len(other) else other
    return len(small) >= 2 and (one <= other or other <= one)


def _told_to_edit(doc: Document) -> bool:
    """True when a sentence of the README tells the reader to edit a manifest or its image."""
    for para in doc.paragraphs:
        for _start, _end, sentence in sentences(para.lines):
            if _EDIT_WORDS.search(sentence) and _EDITED.search(sentence):
                return True
    return False


def _unrun(
    files: list[tuple[Path, str | None]], built: dict[str, tuple[str, int]], directory: Path, readme: str
) -> tuple[tuple[str, int], str, str, str | None] | None:
    """(the build, the image a container runs, its file:line, where a moved file is held) of the first
    container image of `files` of a built image's name that is not it; None when a container runs a
    built image, or when the files cannot be read."""
    images: list[tuple[str, str, str | None]] = []
    for file, held in files:
        read = _images(str(file))
        if read is None:
            return None
        shown = os.path.relpath(file, directory).replace(os.sep, "/")
        images.extend((image, f"{shown}:{line}", held) for image, line in read)
    if any(_normal(image) in built for image, _, _ in images):
        return None
    for image, where, held in images:
        if re.search(rf"(?<![\w./-]){re.escape(image)}(?![\w:./-])", readme, re.I):
            continue  # a published image the README offers
        mine = _words(image)
        for build in built.values():
            if _same_name(mine, _words(build[0])):
                return build, image, where, held
    return None


@per_audit(maxsize=256)
def _images(file: str) -> list[tuple[str, int]] | None:
    """(image, line) of each container of the YAML manifest `file` (`containers:` and `initContainers:`);
    None when it cannot be read, is a template or names an image by a variable."""
    text = text_or_none(Path(file))
    if text is None or "{{" in text or "{%" in text:
        return None
    found: list[tuple[str, int]] = []
    under: int | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if under is not None and indent <= under and not stripped.startswith("-"):
            under = None
        opened = _CONTAINERS.match(line)
        if opened:
            under = len(opened.group("indent"))
            continue
        image = _IMAGE_LINE.match(line)
        if under is not None and image is not None and len(image.group("indent")) >= under:
            if "$" in image.group("image"):
                return None
            found.append((image.group("image"), number))
    return found


def _files(given: str, directory: Path, top: Path) -> list[tuple[Path, str | None]] | None:
    """The manifests `kubectl -f given` reads from the README's folder (a folder: its YAML files), each
    with where it is held when the README's path is missing and one file of its name is below the
    folder; None for a URL, stdin, a variable, a file out of the project or none to read."""
    if "://" in given or "$" in given or given == "-" or "\0" in given or len(given) > 400:
        return None
    place = inside(directory / given, top)
    if place is None:
        return None
    if os.path.isdir(place):
        try:
            listed = sorted(p for p in place.iterdir() if p.name.endswith(_YAML) and os.path.isfile(p))
        except OSError:
            return None
        return [(p, None) for p in listed[:_LIMIT]] or None
    if os.path.isfile(place):
        return [(place, None)] if place.name.endswith(_YAML) else None
    if not place.name.endswith(_YAML) or os.path.exists(place):
        return None
    held = _named_below(str(directory)).get(place.name)
    if held is None or len(held) != 1:
        return None
    shown = os.path.relpath(held[0], directory).replace(os.sep, "/")
    return [(Path(held[0]), shown)]


@per_audit(maxsize=16)
def _named_below(directory: str) -> dict[str, list[str]]:
    """The YAML files below `directory` by name (a bounded walk; hidden folders skipped)."""
    named: dict[str, list[str]] = {}
    seen = 0
    for root, folders, names in os.walk(directory):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in names:
            seen += 1
            if name.endswith(_YAML):
                named.setdefault(name, []).append(os.path.join(root, name))
        if seen > _WALK_LIMIT:
            return {}
    return named
