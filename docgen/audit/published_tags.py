"""Published images a README lists that the project's publishing workflow never pushes, platforms it
says they are published for that the workflow does not build, and hardware it says they are for that
the Dockerfile they are built from is not.

A docs page lists `ghcr.io/acme/tool:light`, `:server`, `:full-rocm` "(platforms: linux/amd64,
linux/arm64)" once, and the workflow that publishes the images moves on: it pushes `full` and
`full-cuda` only, and its `docker/build-push-action` steps set no `platforms:`, so the runner's own
linux/amd64 is all that is built. Or a README calls `:latest` the "CPU-only" image while the step
pushing `latest` builds a Dockerfile starting from a CUDA image (or a job re-tags the CUDA image as
`latest`). Read only when docgen sees every way the project publishes:

- exactly one workflow of the repository builds images, every push of it is a
  `docker/build-push-action` step whose tags docgen reads (`workflows.pushes`: literal tags, matrix
  values, env, the `docker/metadata-action` rules it pushes by as patterns; the repository part may be
  `${{ github.repository }}`, which a README placeholder `[owner]` matches too) or a `docker push` line
  of a script (`workflows.script_pushes`), and it pushes no other way (`--push`, bake, another push
  action); a tag docgen cannot read (`${{ github.ref_name }}`, a metadata rule or placeholder it does
  not know) stands for any tag;
- no other publishing path in the project: no Makefile, script, bake file or other CI system that
  pushes (`docker push`, `buildx … --push`, `docker-bake.hcl`, `.gitlab-ci.yml`, `Jenkinsfile`, …);
- the README names the image the workflow pushes: a `REPOSITORY:TAG` matching a pushed tag's pattern,
  with at least one tag the workflow pushes (so `ghcr.io/${{ github.repository }}` is that repository
  and no other `ghcr.io` image).

Then a tag of that repository the README names (prose, list, table or command; bare in code on a line
labelled `Tags:` or in a table column headed `Tag`) that no push gives, and that the README does not
build or tag itself (`docker build -t REPO:TAG`), is a finding; a line naming one pushed tag and a
platform (`linux/arm64`) the step does not build (its `platforms:`, or the runner's platform when it
sets none on a plain GitHub runner) is another; and one saying a pushed tag is the CPU-only, CUDA or
ROCm image (itself, or the label over its code block or list) while the Dockerfile its step builds
starts from another's base (`nvidia/cuda`, a `cuda` base tag, `rocm/…`) or installs CPU builds only
(`cpu_only.cpu_builds`) is a third. A line about building locally, an absence, the past or a plan is
not read. `likely`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen import workflows
from docgen.audit.auditor import LIKELY
from docgen.audit.commands import clones
from docgen.audit.cpu_only import cpu_builds
from docgen.errors import DocgenError
from docgen.files import built_dockerfile, bytes_or_none
from docgen.markdown import Document, code_spans, headings_over
from docgen.model import Diagnostic, ImageModel

_BUILDS = re.compile(
    r"docker/build-push-action|docker/bake-action|\bdocker[ \t]+(?:buildx[ \t]+)?(?:build|bake)\b"
    r"|\b(?:buildah|kaniko|podman[ \t]+build)\b"
)
"""A workflow that builds an image."""
_OTHER_PUSH = re.compile(
    r"\b(?:docker|podman|buildah|nerdctl)[ \t]+(?:image[ \t]+)?push\b|--push\b|\bbake\b|push-to-registry"
    r"|\b(?:kaniko|crane|skopeo|jib|ko[ \t]+build|docker[ \t]+manifest|imagetools)\b|docker/metadata-action"
    r"|steps\.[\w-]+\.outputs\.tags",
    re.IGNORECASE,
)
"""Another way a workflow or a file of the project may publish an image, or tags docgen cannot read."""
_OTHER_CI = (
    ".gitlab-ci.yml",
    "Jenkinsfile",
    ".travis.yml",
    "azure-pipelines.yml",
    ".drone.yml",
    "cloudbuild.yaml",
    "cloudbuild.yml",
    ".circleci",
    "docker-bake.hcl",
    "docker-bake.json",
    "bitbucket-pipelines.yml",
    ".woodpecker.yml",
    "buildkite.yml",
    ".buildkite",
)
_SCRIPTS = re.compile(
    r"(?:Makefile|GNUmakefile|justfile|Taskfile\.ya?ml|.*\.(?:mk|sh|bash|ps1|py|hcl))\Z", re.I
)
_DEPTH = 3
_SKIPPED = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__"})
"""Folders below the project root searched for a script that pushes."""
_MOST_FILES = 3000
"""The most files looked at; a larger project may push from anywhere (silent)."""
_HOSTED = re.compile(r"(?:ubuntu|windows|macos)-[\w.-]+\Z")
_ARM_RUNNER = re.compile(r"-arm\b|arm64", re.I)
_PLATFORM = re.compile(r"\blinux/(amd64|arm64(?:/v8)?|arm/v[5-8]|386|ppc64le|s390x|riscv64)\b")
_PLACEHOLDER = re.compile(r"\[[\w .-]+\]|<[\w .-]+>|\{[\w.-]+\}")
"""A part of a README's image name left for the reader to fill (`[owner]`, `<your-org>`, `{user}`)."""
_REFERENCE = re.compile(
    r"(?<![\w./-])([a-z0-9][\w.-]*(?::\d+)?(?:/(?:[\w.-]+|\[[\w .-]+\]|<[\w .-]+>|\{[\w.-]+\}))+)"
    r":([\w][\w.-]{0,127})(?![\w/{<\[$-])"
)
"""An image reference with a tag (`ghcr.io/acme/tool:light`, `ghcr.io/[owner]/tool:light`)."""
_LOCAL_BUILD = re.compile(r"\b(?:build|buildx|tag)\b")
_NOT_PUBLISHED = re.compile(
    r"\b(?:locally|local[ \t]+build|build[ \t]+(?:it|them|the[ \t]+images?)?[ \t]*yourself|not|no[ \t]+longer"
    r"|never|removed|deprecated|discontinued|planned|upcoming|coming[ \t]+soon|future|todo|was|were"
    r"|used[ \t]+to"
    r"|previously|formerly|old|upstream|fork|original)\b",
    re.IGNORECASE,
)
"""Words making a line about a local build, an absence, the past, a plan or another project's images."""
_OWNER, _NAME = "docgen-owner-0", "docgen-name-0"
"""What the workflow's names of its repository are read as (`${{ github.repository_owner }}`): any
owner or name, or a README's placeholder for one."""
_ANY_PART = r"(?:[a-z0-9][\w.-]*|<owner>)"
_TAG_LABEL = re.compile(
    r"[-*+>\s]*(?:\*\*|__)?(?:(?:available|image|docker|published|container)[ \t]+)?tags?(?:\*\*|__)?"
    r"[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*`",
    re.IGNORECASE,
)
"""A line that lists bare tags (`- Tags: `latest`, `cpu``)."""
_BARE_TAG = re.compile(r"[\w][\w.-]{0,127}")


_RELEASE_RULE = re.compile(r"\{\{[ \t]*(?:version|major|minor|patch|raw)[ \t]*\}\}|<tag>|\*")
"""A metadata rule's tags as shown that release tags may be (a version, a git tag, any tag)."""


_PLACEHOLDER_TAG = re.compile(r"[A-Z]{2,}|(?<![A-Za-z0-9])(?:[xX]{1,2}|[yYzZ])(?![A-Za-z0-9])")
"""A tag written for the reader to fill (`vX.Y.Z`, `VERSION`, `xx.xx-py3`)."""


def _readme_repository(name: str) -> str:
    """A repository as the README names it, compared: lower case, each placeholder `<owner>`."""
    return _PLACEHOLDER.sub("<owner>", _normal(name))


@dataclass
class _Published:
    pattern: re.Pattern[str]
    """The repository part of the pushed tags (`ghcr.io/[^:]+`), as a pattern over README text."""
    tags: dict[str, workflows.Push | None]
    """Tag → the push that publishes it (the first; None for a script's `docker push`)."""
    rules: list[tuple[re.Pattern[str], str, workflows.Push | None]] = field(default_factory=list)
    """The tags of a pattern it is pushed under (`docker/metadata-action` rules, an expression docgen
    cannot read), as shown, and the push."""

    def gives(self, tag: str) -> bool:
        """True when a push of the workflow may give the image the tag `tag`."""
        return tag in self.tags or any(rule.fullmatch(tag) for rule, _, _ in self.rules)

    def push_of(self, tag: str) -> workflows.Push | None:
        """The push giving the tag `tag` when it is one build-push step's (None otherwise)."""
        if tag in self.tags:
            return self.tags[tag]
        pushes = {id(p): p for rule, _, p in self.rules if rule.fullmatch(tag)}
        return pushes.popitem()[1] if len(pushes) == 1 else None

    def versioned(self) -> bool:
        """True when a rule tags releases (`{{version}}`, a git tag's name)."""
        return any(_RELEASE_RULE.search(shown) for _, shown, _ in self.rules)

    def shown(self) -> str:
        return ", ".join(sorted(self.tags) + sorted({s for _, s, _ in self.rules} - set(self.tags)))


def published_tags(
    doc: Document, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    if not models:
        return
    top = project if project is not None else _spanned(directory, models)
    read = publishing(directory, top)
    if read is None:
        return
    shown, published, root = read
    lines = _lines(doc)
    named = [(group, found) for group in published if (found := _repository(group, lines)) is not None]
    # (bare tags are the image's when the README names one image of the workflow's only)
    bare = _bare_tags(doc, named[0][1][0]) if len(named) == 1 else {}
    for group, (repository, written) in named:
        others = [g for g in published if g is not group and g.pattern.match(repository)]
        built = _built_here(doc, repository)
        claims: dict[tuple[str, str], list[int]] = {}
        for line, text in lines:
            if _NOT_PUBLISHED.search(text):
                continue
            spelled = [m for m in _REFERENCE.finditer(text) if _readme_repository(m.group(1)) == repository]
            said = [m.group(2) for m in spelled] + bare.get(line, [])
            here = spelled[0].group(1) if spelled else written
            absent = [
                t
                for t in dict.fromkeys(said)
                if not _PLACEHOLDER_TAG.search(t)
                and not any(g.gives(t) for g in [group, *others])
                and t not in built
                and not (group.versioned() and _VERSION_TAG.fullmatch(t))
            ]  # (a release tag of a workflow tagging releases: `version_prefixes` reads it)
            if absent:
                yield Diagnostic(
                    path,
                    line,
                    f"README names {', '.join(f'{here}:{t}' for t in absent)}, but {shown}, the only "
                    f"workflow that publishes the image, pushes only the tags {group.shown()}",
                    confidence=LIKELY,
                )
                continue
            if len(set(said)) != 1:
                continue
            push = group.push_of(said[0]) if not any(g.gives(said[0]) for g in others) else None
            if push is not None:
                yield from _platform_claims(path, line, text, here, said[0], push, shown)
                claim = _variant_claim(doc, line, text)
                if claim is not None:
                    claims.setdefault((said[0], claim), []).append(line)
        for (tag, claim), at in claims.items():
            push = group.push_of(tag)
            made = _built_variant(push, root, models) if push is not None else None
            if push is None or made is None or made[0] not in _CLASHES[claim]:
                continue
            where = f"{shown}:{push.line}" if push.line is not None else shown
            also = f" (also line {', '.join(map(str, at[1:]))})" if at[1:] else ""
            yield Diagnostic(
                path,
                at[0],
                f"README says {written}:{tag} is the {_SAID[claim]} image{also}, but {where}, the workflow "
                f"that publishes it, builds it from {push.dockerfile}, {made[1]}",
                confidence=LIKELY,
            )


_CLAIMS = (
    (
        "cpu",
        re.compile(
            r"\bCPU[- ]?only\b(?![- \t]+(?:machines?|hosts?|systems?|laptops?|computers?|servers?"
            r"|nodes?|environments?|users?|mode|fallback)\b)"
            r"|\bCPU[ \t]+(?:image|variant|version|build|flavou?r|tag)s?\b"
            r"|\b(?:no|non|without)[- ]CUDA\b|\(CPU\)",
            re.IGNORECASE,
        ),
    ),
    ("cuda", re.compile(r"\bCUDA\b|\bNVIDIA[ \t]+GPUs?\b", re.IGNORECASE)),
    ("rocm", re.compile(r"\bROCm\b|\bAMD[ \t]+GPUs?\b", re.IGNORECASE)),
)
"""The words saying which hardware an image is for: the one without CUDA, NVIDIA's (CUDA), AMD's
(ROCm). A line saying two of them says none; `CPU-only machines` (`hosts`, `mode` …) is about where a
CUDA image may run too, not about the image."""
_SAID = {"cpu": "CPU-only", "cuda": "CUDA", "rocm": "ROCm"}
_CLASHES = {"cpu": {"cuda", "rocm"}, "cuda": {"cpu", "rocm"}, "rocm": {"cpu", "cuda"}}
"""For each variant said, the variants built that it cannot be."""
_NOT_CUDA = re.compile(r"\b(?:no|non|without)[- ]CUDA\b", re.IGNORECASE)
_CUDA_BASE = re.compile(r"cuda|cudnn|\Anvcr\.io/nvidia/|\A(?:docker\.io/)?nvidia/", re.IGNORECASE)
"""A base image carrying CUDA (`nvidia/cuda:…`, `…/pytorch-notebook:cuda-12.3.1-…`, `…-cuda12.1-…`)."""
_ROCM_BASE = re.compile(r"rocm", re.IGNORECASE)
_ARG_REFERENCE = re.compile(r"\$\{[^}]*\}|\$\w+")


def _claimed(text: str) -> str | None:
    """The one variant `text` says an image is (`_CLAIMS`); None for none or several."""
    found = {
        name for name, words in _CLAIMS if words.search(_NOT_CUDA.sub("", text) if name == "cuda" else text)
    }
    return found.pop() if len(found) == 1 else None


def _variant_claim(doc: Document, line: int, text: str) -> str | None:
    """The variant README `line` (text `text`) says its image is, read from the line itself when it is
    prose or a table row, else from the caption over it: the label just above the code block holding it
    (`**CPU-only (multi-arch)**`), the label a list of it starts with (`**CPU-only:**` then `- Tags:
    …`); None when none says one."""
    for fence in doc.fences:
        if fence.lines and fence.lines[0][0] <= line <= fence.lines[-1][0]:
            caption = _caption(doc, fence.lines[0][0])
            return _claimed(caption) if caption is not None else None
    if (said := _claimed(text)) is not None:
        return said
    for para in doc.paragraphs:
        if para.lines and para.lines[0][0] < line <= para.lines[-1][0]:
            first = para.lines[0][1].strip()
            return _claimed(first) if first.endswith((":", ":**", "**")) else None
    return None


def _caption(doc: Document, opening: int) -> str | None:
    """The last line of the paragraph ending just above the code block whose first line is `opening`
    (at most one blank line and the fence's own line between)."""
    above = [p.lines[-1] for p in doc.paragraphs if p.lines and opening - 3 <= p.lines[-1][0] < opening]
    return above[-1][1] if above else None


def _built_variant(push: workflows.Push, root: Path, models: Sequence[ImageModel]) -> tuple[str, str] | None:
    """(variant, why) of the image the Dockerfile `push` builds, when docgen audits that Dockerfile:
    `cuda` or `rocm` when its final stage starts (through the stages it builds on) from a CUDA or ROCm
    image, `cpu` when it installs explicit CPU builds only on a plain base (`cpu_only.cpu_builds`);
    None otherwise."""
    if push.dockerfile is None:
        return None
    wanted = built_dockerfile(root / push.dockerfile).resolve()
    for model in models:
        if not model.file or Path(model.file).resolve() != wanted or not model.stages:
            continue
        stage = model.stages[-1]
        while stage.parent is not None:
            stage = model.stages[stage.parent]
        # (what a build arg, which CI may pass, writes of the base is not read: `nvidia/cuda:${CUDA}-…`
        # is a CUDA image whatever the arg, `${BASE_IMAGE}` may be any)
        written = _ARG_REFERENCE.sub("", stage.base_raw)
        if _CUDA_BASE.search(written):
            return "cuda", f"which starts from the CUDA image {stage.base}"
        if _ROCM_BASE.search(written):
            return "rocm", f"which starts from the ROCm image {stage.base}"
        cpu = cpu_builds(model) if all("$" not in s.base_raw for s in model.stages) else None
        if cpu is not None:
            shown = ", ".join(f"{c.name} (line {c.line})" for c in cpu)
            return "cpu", f"which installs CPU builds only ({shown}) on {stage.base}, with no CUDA or ROCm"
        return None
    return None


_NAMING_COLUMN = re.compile(r"\W*(?:image|repository|repo|name|registry)s?\W*", re.IGNORECASE)
"""A table column that may name, row by row, the image a tag column's tag is of."""


def _bare_tags(doc: Document, repository: str) -> dict[int, list[str]]:
    """README line → the bare tags it lists of `repository` (`- Tags: `latest`, `cpu``, a `Tag`
    column's cells, in a row whose column naming an image, if any, names this one)."""
    found: dict[int, list[str]] = {}
    for para in doc.paragraphs:
        for line, text in para.lines:
            if _TAG_LABEL.match(text):
                tags = [c.strip() for _, _, c in code_spans(text)]
                found[line] = [t for t in tags if _BARE_TAG.fullmatch(t)]
    last = repository.rsplit("/", 1)[-1]
    for table in doc.tables:
        columns = [
            i
            for i, cell in enumerate(table.header)
            if re.fullmatch(r"\W*(?:image[ \t]+)?tags?\W*", cell, re.I)
        ]
        naming = [i for i, cell in enumerate(table.header) if _NAMING_COLUMN.fullmatch(cell)]
        for line, cells in table.rows:
            if any(i < len(cells) and last not in cells[i].lower() for i in naming):
                continue
            for index in columns:
                if index < len(cells):
                    spans = [c.strip() for _, _, c in code_spans(cells[index])] or [cells[index].strip()]
                    found.setdefault(line, []).extend(t for t in spans if _BARE_TAG.fullmatch(t))
    return found


def _spanned(directory: Path, models: Sequence[ImageModel]) -> Path:
    """The folder holding the README's and every Dockerfile compared: the project spans it at least."""
    folders = [str(directory.resolve())] + [str(Path(m.file).resolve().parent) for m in models if m.file]
    try:
        return Path(os.path.commonpath(folders))
    except ValueError:
        return directory


def _own_names(text: str) -> str:
    """A workflow's text with its names of its own repository as `_OWNER` and `_NAME`."""
    values = {"repository": f"{_OWNER}/{_NAME}", "repository_owner": _OWNER, "event.repository.name": _NAME}
    return _REPOSITORY_EXPRESSION.sub(functools.partial(_expanded, values), text)


_NAMED = re.compile(r"[^$\x00]*/[^/$\x00]*[a-z0-9][^/$\x00]*", re.IGNORECASE)
"""A pushed repository whose last part (the image's own name) docgen reads (`ghcr.io/\x00/app`, not
`ghcr.io/\x00` nor `$IMAGE`)."""


def _group_pattern(repository: str) -> re.Pattern[str]:
    """A pushed repository (lower case) as a pattern over the README's (`_readme_repository`)."""
    parts = []
    for part in repository.split(workflows.UNKNOWN):
        escaped = re.escape(part)
        parts.append(escaped.replace(re.escape(_OWNER), _ANY_PART).replace(re.escape(_NAME), _ANY_PART))
    return re.compile(r"(?:[a-z0-9][\w.-]*|<owner>)(?:/[\w.-]+)?".join(parts) + r"\Z")


def publishing(directory: Path, top: Path) -> tuple[str, list[_Published], Path] | None:
    """The one workflow that publishes the project's images (as shown, from `top`), what it pushes,
    grouped by repository pattern, and the folder its paths start from; None when docgen cannot tell
    (see the module docstring)."""
    builder = _one_builder(directory, top)
    if builder is None:
        return None
    file, data = builder
    text = _own_names(data.decode("utf-8", errors="replace"))
    if _OTHER_PUSH.search(_NOT_A_PUSH.sub("", workflows.SCRIPT_PUSH.sub("", text))):
        return None
    root = file.parent.parent.parent
    shown = Path(os.path.relpath(file, root)).as_posix()
    try:
        pushes = workflows.pushes(text.encode("utf-8"), shown)
        retags: dict[str, str] = {}
        scripts = (
            workflows.script_pushes(text.encode("utf-8"), shown, f"{_OWNER}/{_NAME}", retags)
            if workflows.SCRIPT_PUSH.search(text)
            else ()
        )
    except DocgenError:
        return None
    if pushes is None or scripts is None or not (pushes or scripts) or _pushes_elsewhere(root):
        return None
    groups: dict[str, _Published] = {}

    def group(repository: str) -> _Published:
        key = _normal(repository)
        if key not in groups:
            groups[key] = _Published(_group_pattern(key), {})
        return groups[key]

    named = [t.rpartition(":")[0] for p in pushes for t in p.tags] + [
        i for p in pushes for i, _, _ in p.rules
    ]
    if any(not _NAMED.fullmatch(r) for r in named + [r.rpartition(":")[0] for r in scripts]):
        return None  # an image whose name docgen cannot read may be the README's, with any tag
    for push in pushes:
        for tag in push.tags:
            repository, sep, name = tag.rpartition(":")
            if not sep or "/" in name:
                return None  # a digest-less reference with no tag
            if workflows.UNKNOWN in name or "$" in name:
                group(repository).rules.append((re.compile(workflows.ANY_TAG), "*", push))
            else:
                group(repository).tags.setdefault(name, push)
        for image, pattern, written in push.rules:
            if not image or "$" in image:
                return None
            group(image).rules.append((re.compile(pattern), written, push))
    for reference in scripts:
        repository, sep, name = reference.rpartition(":")
        if not sep or "/" in name or not repository:
            return None
        if "$" in name:
            group(repository).rules.append((re.compile(workflows.ANY_TAG), "*", None))
        else:  # (a `docker tag` of an image a step pushes: that step's image)
            source, _, tag = retags.get(reference, "").rpartition(":")
            built = groups.get(_normal(source))
            group(repository).tags.setdefault(name, built.push_of(tag) if built is not None else None)
    return shown, list(groups.values()), root


def _pushes_elsewhere(root: Path) -> bool:
    """True when the project at `root` may publish images another way: another CI system, a bake file,
    or a Makefile or script that pushes (or too many files to look at)."""
    if any(os.path.exists(root / name) for name in _OTHER_CI):
        return True
    seen = 0
    for here, folders, files in os.walk(root):
        depth = len(Path(here).relative_to(root).parts)
        folders[:] = [f for f in folders if f not in _SKIPPED] if depth < _DEPTH else []
        for name in files:
            seen += 1
            if seen > _MOST_FILES:
                return True
            if not _SCRIPTS.match(name):
                continue
            data = bytes_or_none(Path(here) / name)
            if data is not None and _OTHER_PUSH.search(data.decode("utf-8", errors="replace")):
                return True
    return False


def _lines(doc: Document) -> list[tuple[int, str]]:
    """Every line of the README that may name an image: prose, list items, table rows, code blocks."""
    found = [(line, text) for para in doc.paragraphs for line, text in para.lines]
    found += [(line, " | ".join(cells)) for table in doc.tables for line, cells in table.rows]
    found += [(line, text) for fence in doc.fences for line, text in fence.lines]
    return sorted(found)


def _repository(group: _Published, lines: list[tuple[int, str]]) -> tuple[str, str] | None:
    """The one repository the README names that `group`'s pattern matches with a tag it pushes
    (`_readme_repository`), and as the README first writes it; None when there is none or more than one."""
    matched: dict[str, str] = {}
    confirmed: set[str] = set()
    for _, text in lines:
        for match in _REFERENCE.finditer(text):
            repository = _readme_repository(match.group(1))
            if group.pattern.match(repository):
                matched.setdefault(repository, match.group(1))
                if group.gives(match.group(2)):
                    confirmed.add(repository)
    if len(confirmed) != 1 or len(matched) != 1:
        return None
    return next(iter(matched.items()))


def _built_here(doc: Document, repository: str) -> set[str]:
    """The tags of `repository` a command line of the README builds or tags itself."""
    found: set[str] = set()
    for fence in doc.fences:
        for _, text in fence.lines:
            if _LOCAL_BUILD.search(text):
                found.update(
                    m.group(2)
                    for m in _REFERENCE.finditer(text)
                    if _readme_repository(m.group(1)) == repository
                )
    return found


def _platform_claims(
    path: str, line: int, text: str, repository: str, tag: str, push: workflows.Push, shown: str
) -> Iterator[Diagnostic]:
    """A platform the line says `repository:tag` is published for that its push does not build."""
    said = list(dict.fromkeys("linux/" + m.group(1).removesuffix("/v8") for m in _PLATFORM.finditer(text)))
    if not said:
        return
    if push.platforms is not None:
        if any(workflows.UNKNOWN in p or "$" in p for p in push.platforms):
            return
        built = {p.strip().removesuffix("/v8") for p in push.platforms}
        how = f"builds it for {', '.join(push.platforms)}"
    else:
        if push.runner is None or not _HOSTED.match(push.runner) or push.platform_said:
            return  # (`platforms:` of setup-buildx-action, `DOCKER_DEFAULT_PLATFORM`: not read)
        built = {"linux/arm64" if _ARM_RUNNER.search(push.runner) else "linux/amd64"}
        how = (
            f"sets no `platforms:`, so it builds it for the runner's {next(iter(built))} ({push.runner}) only"
        )
    missing = [p for p in said if p not in built]
    if missing:
        where = f"{shown}:{push.line}" if push.line is not None else shown
        yield Diagnostic(
            path,
            line,
            f"README says {repository}:{tag} is published for {', '.join(missing)}, but {where} {how}",
            confidence=LIKELY,
        )


_WORKFLOW_LINK = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)/actions/workflows/([\w.-]+\.ya?ml)\b")
"""A link to a workflow of a GitHub repository (a status badge's): the repository it runs in."""
_REPOSITORY_EXPRESSION = re.compile(
    r"\$\{\{[ \t]*github\.(repository(?:_owner)?|event\.repository\.name)[ \t]*\}\}"
)
"""The workflow expressions naming the repository it runs in, its owner or its name."""
_GITHUB_CLONE = re.compile(r"(?:https?://|git@)(?:www\.)?github\.com[/:]([\w.-]+)/([\w.-]+)")
"""The address of a GitHub repository a README clones."""
_USES_IMAGE = re.compile(r"\b(?:docker|podman)[ \t]+(?:image[ \t]+|container[ \t]+)?(?:pull|run)[ \t]")
"""A command that pulls or runs an image."""


def _repository_of(doc: Document, names: set[str]) -> tuple[str, str] | None:
    """(owner, name) of the GitHub repository the README's links to one of the workflows `names` (file
    names: a status badge, `actions/workflows/deploy.yaml`) run in; None when they name none or several."""
    found = {
        (m.group(1).lower(), m.group(2).lower())
        for para in doc.paragraphs
        for _, text in para.lines
        for m in _WORKFLOW_LINK.finditer(text)
        if m.group(3) in names
    }
    return found.pop() if len(found) == 1 else None


def _cloned_repository(doc: Document, names: set[str]) -> tuple[str, str] | None:
    """(owner, name), lower case, of the one GitHub repository the README clones, when it also names one
    of the workflows `names` (a link to `.github/workflows/docker-image.yml`) and an image under that
    owner and name (`ghcr.io/owner/name…`): the repository the README and its workflows live in."""
    found = set()
    for url, _ in clones(doc):
        match = _GITHUB_CLONE.fullmatch(url)
        if match is None:
            return None
        found.add((match[1].lower(), match[2].lower().removesuffix(".git")))
    if len(found) != 1:
        return None
    owner, name = found.pop()
    text = "\n".join([t for _, t in _lines(doc)] + [t for _, t in doc.destinations]).lower()
    if (
        not any(n.lower() in text for n in names)
        or re.search(
            rf"(?<![\w.-])[a-z0-9][\w.-]*\.[a-z]+/{re.escape(owner)}/{re.escape(name)}(?![\w.-])", text
        )
        is None
    ):
        return None
    return owner, name


def _expanded(values: dict[str, str], match: re.Match[str]) -> str:
    return values[match.group(1)]


def _pushed_repositories(directory: Path, top: Path, doc: Document) -> tuple[list[str], set[str]] | None:
    """(the workflows that build images, as shown; the repositories their pushes name, lower case) when
    docgen sees every way the project publishes (see `pushed_names`); None otherwise."""
    builders: list[tuple[Path, str]] = []
    for file in workflows.files(directory.resolve(), top.resolve()):
        data = bytes_or_none(file, top=top)
        if data is None:
            return None
        text = data.decode("utf-8", errors="replace")
        if _BUILDS.search(text):
            builders.append((file, text))
    if not builders or any(_OTHER_PUSH.search(workflows.SCRIPT_PUSH.sub("", text)) for _, text in builders):
        return None  # (a `docker push` line of a script is read by `workflows.script_pushes`)
    if _pushes_elsewhere(builders[0][0].parent.parent.parent):
        return None
    names = {file.name for file, _ in builders}
    slug = _repository_of(doc, names) or _cloned_repository(doc, names)
    shown: list[str] = []
    pushed: set[str] = set()
    for file, text in builders:
        scripted = workflows.SCRIPT_PUSH.search(text) is not None
        if _REPOSITORY_EXPRESSION.search(text) or "GITHUB_REPOSITORY" in text:
            if slug is None:
                return None
            owner, name = slug
            values = {
                "repository": f"{owner}/{name}",
                "repository_owner": owner,
                "event.repository.name": name,
            }
            text = _REPOSITORY_EXPRESSION.sub(functools.partial(_expanded, values), text)
        display = Path(os.path.relpath(file, file.parent.parent.parent)).as_posix()
        try:
            pushes = workflows.pushes(text.encode("utf-8"), display, "/".join(slug) if slug else None)
        except DocgenError:
            return None
        try:
            scripts = (
                workflows.script_pushes(text.encode("utf-8"), display, "/".join(slug) if slug else None)
                if scripted
                else ()
            )
        except DocgenError:
            return None
        if pushes is None or scripts is None:
            return None
        for tag in [t for push in pushes for t in push.tags] + list(scripts):
            repository, sep, rest = tag.rpartition(":")
            if not sep or "/" in rest:
                repository = tag
            if not repository or workflows.UNKNOWN in repository or re.search(r"[${}]", repository):
                return None  # a name docgen cannot read may be any
            pushed.add(repository.lower())
        shown.append(display)
    return (shown, pushed) if pushed else None


def pushed_names(
    doc: Document, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """An image the README pulls or runs (`docker pull ghcr.io/acme/solver`) on the registry and under
    the owner the project's workflows push to, a name near one they push (one holds the other, or a
    slip: `ghcr.io/acme/solver-gpu-container`), while they push only other names: no such image is
    published (`likely`). Read only when docgen sees every way the project publishes: each workflow
    that builds images pushes only with `docker/build-push-action` tags or `docker push` script lines it
    reads (`${{ github.repository }}` and `GITHUB_REPOSITORY` read from the README's link to that
    workflow, its status badge, or from its one clone of its own repository: `_cloned_repository`), no
    other push, no other CI
    system, bake file, Makefile or script that pushes; and only for registries named by host (`ghcr.io`,
    `quay.io`), not Docker Hub's short names. An image the README builds or tags itself is not read."""
    if not models:
        return
    read = _pushed_repositories(
        directory, project if project is not None else _spanned(directory, models), doc
    )
    if read is None:
        return
    shown, pushed = read
    hosted = {r.split("/", 1)[0]: r for r in pushed if "/" in r and "." in r.split("/", 1)[0]}
    if not hosted:
        return
    owners = {tuple(r.split("/")[:2]) for r in pushed if r.split("/", 1)[0] in hosted}
    hosts = "|".join(re.escape(h) for h in sorted(hosted))
    reference = re.compile(
        rf"(?<![\w./-])((?:{hosts})/[a-z0-9][\w.-]*(?:/[\w.-]+)+)(?::[\w][\w.-]*)?(?![\w/.-])", re.I
    )
    texts = [(line, text) for fence in doc.fences for line, text in fence.lines]
    texts += [
        (line, code)
        for p in doc.paragraphs
        for line, text in p.lines
        if "docker" in text or "podman" in text
        for _, _, code in code_spans(text)
    ]
    built = {
        m.group(1).lower() for _, text in texts if _LOCAL_BUILD.search(text) for m in reference.finditer(text)
    }
    used = [
        (line, match)
        for line, text in sorted(texts)
        if _USES_IMAGE.search(text)
        for match in reference.finditer(text)
    ]
    if any(match.group(1).lower() in pushed for _, match in used):
        return  # it uses a pushed image too: the others are another project's
    told: set[str] = set()
    for line, match in used:
        repository = match.group(1).lower()
        parts = repository.split("/")
        if (
            repository in pushed
            or repository in built
            or tuple(parts[:2]) not in owners
            or repository in told
        ):
            continue
        name = parts[-1]
        near = [
            r
            for r in sorted(pushed)
            if r.split("/")[:2] == parts[:2]
            and (
                name in r.rsplit("/", 1)[-1] or r.rsplit("/", 1)[-1] in name or r.startswith(repository + "/")
            )
        ]
        if not near:
            continue
        told.add(repository)
        yield Diagnostic(
            path,
            line,
            f"README uses image {match.group(1)}, but the workflows that publish the project's images "
            f"({', '.join(shown)}) push only {', '.join(sorted(pushed))}",
            confidence=LIKELY,
        )


_VERSION_TAG = re.compile(r"v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?")
"""A tag that names a release (`1.0.0`, `v2.3`, `1.2.0-cuda12`)."""
_TAGGED_HEADING = re.compile(r"\btags?\b", re.IGNORECASE)
_NOT_A_PUSH = re.compile(
    r"docker/metadata-action|steps\.[\w-]+\.outputs\.tags|\bdocker[ \t]+manifest[ \t]+inspect\b"
)
"""What `_OTHER_PUSH` finds that pushes nothing docgen does not read: the metadata step and its tags
(read by `workflows.version_tags`), a look at a published manifest."""


def _normal(repository: str) -> str:
    """A repository as Docker Hub reads it: lower case, without `docker.io/` (`index.docker.io/`)."""
    name = repository.lower()
    for host in ("docker.io/", "index.docker.io/", "registry-1.docker.io/"):
        name = name.removeprefix(host)
    return name


def _version_forms(directory: Path, top: Path) -> tuple[str, dict[str, list[workflows.VersionForm]]] | None:
    """(the workflow, as shown, that tags the images by `docker/metadata-action`; repository → the forms
    of the version tags it gives it) when docgen sees every way the project publishes: one workflow
    builds images, pushing only by `docker/build-push-action` with tags it reads or the metadata step's,
    no other CI, bake file or script pushes; None otherwise. A repository one rule of which docgen
    cannot read is left out."""
    builder = _one_builder(directory, top)
    if builder is None:
        return None
    file, data = builder
    text = data.decode("utf-8", errors="replace")
    if "docker/metadata-action" not in text or _OTHER_PUSH.search(_NOT_A_PUSH.sub("", text)):
        return None
    if _pushes_elsewhere(file.parent.parent.parent):
        return None
    shown = Path(os.path.relpath(file, file.parent.parent.parent)).as_posix()
    try:
        tagged = workflows.version_tags(data, shown)
        pushes = workflows.pushes(data, shown)
    except DocgenError:
        return None
    if pushes is None:
        return None
    forms: dict[str, list[workflows.VersionForm]] = {}
    unread: set[str] = set()
    for step in tagged:
        for image in step.images:
            if workflows.UNKNOWN in image or "$" in image:
                return None  # an image docgen cannot name may be any
            if step.forms is None:
                unread.add(_normal(image))
            else:
                forms.setdefault(_normal(image), []).extend(step.forms)
    for push in pushes:
        for tag in push.tags:
            if workflows.UNKNOWN in tag:
                continue  # (the metadata step's tags, read above)
            repository, sep, name = tag.rpartition(":")
            if sep and "/" not in name and (version := _VERSION_TAG.fullmatch(name)) is not None:
                prefix = "v" if version.group(0).startswith("v") else ""
                forms.setdefault(_normal(repository), []).append(
                    workflows.VersionForm(prefix, True, tag, push.tags_line)
                )
    return shown, {r: f for r, f in forms.items() if r not in unread and f}


def version_prefixes(
    doc: Document, path: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """A release tag of the project's image the README names (`FROM acme/app:1.0.0`, `` `1.0.0` `` in a
    section about the tags) that none of the version tags its one publishing workflow gives can be: the
    workflow writes them `v1.0.0` (a `v` its script puts before the version, a `type=ref,event=tag` of
    `v*` tags) where the README writes `1.0.0`, or `1.0.0` (`type=semver,pattern={{version}}` drops the
    `v` of the git tag) where the README writes `v1.0.0` (`likely`). Read only when docgen sees every
    way the project publishes (`_version_forms`) and each rule of the workflow's that makes a version
    tag can be read; a line about a local build, the past or another project is not read."""
    if not models:
        return
    read = _version_forms(directory, project if project is not None else _spanned(directory, models))
    if read is None:
        return
    shown, forms = read
    named = {
        r for _, text in _lines(doc) for m in _REFERENCE.finditer(text) if (r := _normal(m.group(1))) in forms
    }
    if not named:
        return
    for line, text in _lines(doc):
        if _NOT_PUBLISHED.search(text) or _LOCAL_BUILD.search(text):
            continue
        said = [
            (r, m.group(2))
            for m in _REFERENCE.finditer(text)
            if (r := _normal(m.group(1))) in named and _VERSION_TAG.fullmatch(m.group(2))
        ]
        if not said and len(named) == 1 and _TAGGED_HEADING.search(" ".join(headings_over(doc, line)[:1])):
            only = next(iter(named))  # `1.0.0` alone in code under `### Available Tags`
            said = [
                (only, code.strip())
                for _, _, code in code_spans(text)
                if _VERSION_TAG.fullmatch(code.strip())
            ]
        wrong = [(r, t) for r, t in dict.fromkeys(said) if not any(f.may_give(t) for f in forms[r])]
        if not wrong:
            continue
        repository, tag = wrong[0]
        form = forms[repository][0]
        where = f"{shown}:{form.line}" if form.line is not None else shown
        begins = f"{form.prefix} and then the version's digits" if form.prefix and form.digit else form.prefix
        if tag[:1].isdigit() and form.prefix:
            meant = f"{form.prefix}{tag}, not {tag}"
        elif tag.startswith("v") and not form.prefix and form.digit:
            meant = f"{tag[1:]}, not {tag}"
        else:
            meant = f"no {tag}"
        tags = ", ".join(t for _, t in wrong)
        yield Diagnostic(
            path,
            line,
            f"README names {tags} as {'tags' if len(wrong) > 1 else 'a tag'} of {repository}, but {where}, "
            f"the workflow that publishes it, tags its releases by {form.rule}, which starts with "
            f"{begins or 'the version digits'}: it pushes {meant}",
            confidence=LIKELY,
        )


def _one_builder(directory: Path, top: Path) -> tuple[Path, bytes] | None:
    """(file, bytes) of the one workflow of the project that builds images; None when none or several
    do, or one cannot be read (a link out of the project, which may push)."""
    builders: list[tuple[Path, bytes]] = []
    for file in workflows.files(directory.resolve(), top.resolve()):
        data = bytes_or_none(file, top=top)
        if data is None:
            return None
        if _BUILDS.search(data.decode("utf-8", errors="replace")):
            builders.append((file, data))
    return builders[0] if len(builders) == 1 else None
