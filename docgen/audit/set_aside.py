"""What of a README `audit` does not read as claims about the audited images: sections and lists about
the host or the past (`aside.aside_lines`), sentences about other images, what a sentence says is gone,
and in the caption of a build command the components the command sets.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from docgen.audit.aside import (
    aside_lines,
    built_versions,
    catalogue_lines,
    is_host_intro,
    not_current_spans,
    release_list_lines,
    superseded_entry_lines,
)
from docgen.audit.commands import image_repository, image_tag, tagged_builds
from docgen.audit.linked_rows import without_lines
from docgen.audit.paths import names_other_image
from docgen.audit.sections import IMAGE_SUBJECT, other_images, other_images_words
from docgen.audit.versions import name_keys, norm, skeleton
from docgen.audit.wording import (
    BUILD_ARG_FLAG,
    COMMAND_LANGS,
    DEFAULT_WORDS,
    IMAGE_REF,
    LIST_ITEM,
    WORD,
    sentences,
)
from docgen.build_scripts import BUILD
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, Fence, Paragraph, code_spans, headings_over, lists
from docgen.model import ImageModel
from docgen.rows import VERSION_ARG as _VERSION_ARG
from docgen.rows import display_name, renamed


def _blank(lines: list[tuple[int, str]], spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """`lines` (joined with one space each) with the characters of `spans` (offsets in the joined
    text) replaced by spaces."""
    out: list[tuple[int, str]] = []
    offset = 0
    for line, text in lines:
        chars = list(text)
        for start, end in spans:
            for pos in range(max(start, offset), min(end, offset + len(text))):
                chars[pos - offset] = " "
        out.append((line, "".join(chars)))
        offset += len(text) + 1
    return out


def _about_other_images(para: Paragraph, ours: set[str], others: set[str]) -> Paragraph:
    """`para` without the sentences that start by naming images none of the audited Dockerfiles is
    (`ROCm images use ROCm-specific arguments such as ROCM_VERSION` next to CUDA images; `The
    lightweight variant takes X` when Dockerfile.lightweight is not audited): what they claim is
    another image's."""
    spans = []
    for start, end, sentence in sentences(para.lines):
        match = IMAGE_SUBJECT.match(sentence)
        if match is not None and other_images(match, ours, others):
            spans.append((start + match.start(1), end))
    if not spans:
        return para
    return dataclasses.replace(para, lines=_blank(para.lines, spans))


_TAG_NAME = re.compile(r"[A-Za-z][\w.+]*(?:[-_][\w.+]+)+")
"""A name written as an image tag is, without its repository (`cu124-py311`, `app-verl0.5-sglang0.4.8`)."""


_TAG_EDIT = re.compile(
    r"\breplac(?:e|ing)\b(?:[^.;:]|\.(?!\s)){0,80}?\bwith\b(?:[^.;:]|\.(?!\s)){0,80}?\b(?:in|of)[ \t]+"
    r"(?:(?:the|an?|any|each|your)[ \t]+)?"
    r"(?:(?:above|image|docker|container)[ \t]+)*tags?\b",
    re.IGNORECASE,
)
"""A sentence telling to edit an image tag into another's (`just replace `mcore0.12.1` with
`mcore0.13.0-preview` in the above image tag`): what it says is of the images so tagged."""


_ENTRY_LEAD = re.compile(r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?")
_ENTRY_WORD = re.compile(r"[A-Za-z](?:[\w.+]|-(?=[\w.+]))*")


def _entry_name(line: str) -> str | None:
    """The image's name a line is only of, as an entry of a list of images opens (`> cu121-py38-u20`,
    `**cu121-py38-u20**`, `- `cu121-py38-u20``): a word of parts joined by `-` or `_`. Stripped by hand,
    not by one pattern: `_` is a word's letter and an emphasis both, and a pattern weighing the two split
    a run of 20,000 `_` n² ways."""
    lead = _ENTRY_LEAD.match(line)
    rest = line[lead.end() if lead else 0 :].rstrip(" \t").removesuffix(":").rstrip("*_`").lstrip("*_`")
    if _ENTRY_WORD.fullmatch(rest) and any(c in "-_" for c in rest[1:-1]):
        return rest
    return None


class _OtherTags:
    """The image tags of a README that are another image's than the audited ones (`paths.names_other_image`:
    `verlai/verl:app-verl0.5-…` or `` `cu124-py311` `` beside `verl0.4-cu124-…/Dockerfile.app` or
    `cu121-py310/Dockerfile`), unless the README's own builds tag the image so (`built`)."""

    def __init__(self, models: Sequence[ImageModel], built: frozenset[str]) -> None:
        self.paths = list(dict.fromkeys(m.path for m in models))
        self.built = built
        self.bases = frozenset(
            (image_repository(s.base).lower(), skeleton(image_tag(s.base))) for m in models for s in m.stages
        )
        """The repository and tag shape of each image the images are built on: a tag of that shape of
        that repository spelling a single word of a name otherwise may be a stale base (`…-ubuntu22.04`
        in `cudnn8-ubuntu20.04/`), no other image."""
        self._seen: dict[tuple[str, int], bool] = {}

    def other(self, tag: str, repository: str = "") -> bool:
        """True when `tag` (a tag, or a name written as one; of `repository`) is another image's."""
        key = (tag, 2 if (repository.lower(), skeleton(tag)) in self.bases else 1)
        if key not in self._seen:
            self._seen[key] = tag not in self.built and names_other_image(tag, self.paths, norm, key[1])
        return self._seen[key]

    def in_text(self, text: str, bare: bool = False) -> list[int]:
        """The offsets in `text` of the tags of other images it names: `repository:tag` references, and
        names written as a tag that are all of a code span (or, with `bare`, any word of it)."""
        found = [
            m.start()
            for m in IMAGE_REF.finditer(text)
            if m.group() not in self.built and self.other(m.group(2), m.group(1))
        ]
        named = "`" in text and any(self.other(m.group()) for m in _TAG_NAME.finditer(text))
        spans = [(a, c) for a, _, c in code_spans(text)] if named else []  # (read only for a name of one)
        if bare:
            spans += [(m.start(), m.group()) for m in _TAG_NAME.finditer(text)]
        found += [at for at, name in spans if _TAG_NAME.fullmatch(name.strip()) and self.other(name.strip())]
        return sorted(found)


def _about_other_tags(para: Paragraph, tags: _OtherTags) -> Paragraph:
    """`para` without the sentences, and the list items with their nested lines, that name an image tag
    of another image of the family (`_OtherTags`) or tell to edit a tag into another's (`_TAG_EDIT`): what
    they say of that image (its CUDA, its versions, its base) is not the audited one's."""
    joined = " ".join(text for _, text in para.lines)
    others = tags.in_text(joined) if (":" in joined or "`" in joined) else []
    others += [m.start() for m in _TAG_EDIT.finditer(joined)] if "replac" in joined.lower() else []
    named = [_entry_name(text) for _, text in para.lines]
    entries = [i for i, name in enumerate(named) if name is not None and tags.other(name)]
    if not others and not entries:
        return para
    starts, offset = [], 0  # (offset in `joined`, indent) of each line
    for _, text in para.lines:
        starts.append((offset, len(text) - len(text.lstrip())))
        offset += len(text) + 1
    spans = []
    for index in entries:  # an entry under another image's name (`> cu121-py38-u20`), to the next name
        last = next((i for i in range(index + 1, len(named)) if named[i] is not None), len(named))
        spans.append((starts[index][0], starts[last][0] if last < len(starts) else len(joined) + 1))
    for start, end, _sentence in sentences(para.lines):
        if not any(start <= at < end for at in others):
            continue
        index = max(i for i, (at, _) in enumerate(starts) if at <= start)
        if starts[index][0] == start and LIST_ITEM.match(para.lines[index][1]):
            # a list item: all of it, its wrapped and nested lines too, to the next item as far out
            last = index + 1
            while last < len(starts) and not (
                starts[last][1] <= starts[index][1] and LIST_ITEM.match(para.lines[last][1])
            ):
                last += 1
            end = max(end, starts[last][0] if last < len(starts) else len(joined) + 1)
        spans.append((start, end))
    return dataclasses.replace(para, lines=_blank(para.lines, spans))


def _other_tag_lines(doc: Document, tags: _OtherTags) -> set[int]:
    """The README lines about another image's tag outside paragraphs: a table row naming one in a cell
    (a reference, or a cell that is only the name), and every line of a section whose heading names one
    (`## cu124-py311` beside `cu121-py310/Dockerfile`), down to the next heading as high."""
    lines: set[int] = set()
    for table in doc.tables:
        for line, cells in table.rows:
            whole = [_TAG_NAME.fullmatch(cell.strip(" *_`")) is not None for cell in cells]
            if any(tags.in_text(cell, bare=bare) for cell, bare in zip(cells, whole, strict=True)):
                lines.add(line)
    ends: dict[int, int | None] = {}
    for index, (line, title) in enumerate(doc.headings):
        if not tags.in_text(title, bare=True):
            continue
        level = doc.levels.get(line, 6)
        ends[line] = next(
            (later for later, _ in doc.headings[index + 1 :] if doc.levels.get(later, 6) <= level),
            None,
        )
    for heading, end in ends.items():
        for para in doc.paragraphs:
            lines.update(n for n, _ in para.lines if n > heading and (end is None or n < end))
        for table in doc.tables:
            if table.line > heading and (end is None or table.line < end):
                lines.update(n for n, _ in table.rows)
    return lines


_FILE_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+[*_]*\[?[*_]*`?"
    r"((?:[\w.-]+/)+(?:[\w.-]*readme[\w.-]*\.md|[\w.-]*dockerfile[\w.-]*|containerfile))"
    r"`?[*_]*\]?(?:\([^()\s]*\))?[*_]*[ \t]*(?:—|–|--?|:)[ \t]",
    re.IGNORECASE,
)
"""A list item that opens by naming a README or a Dockerfile of another folder and then says what it is:
`` - **`docker/gpu/README.md`** — Ubuntu-based GPU image (source build) ``,
`- [cuda/Dockerfile](cuda/Dockerfile): the CUDA image`."""


def _about_other_files(para: Paragraph, models: Sequence[ImageModel]) -> Paragraph:
    """`para` without the list items that describe another image's README or Dockerfile (`_FILE_ITEM`):
    one in a folder none of the audited Dockerfiles is in, or a Dockerfile none of them is. What the item
    says (`Ubuntu-based GPU image`) is that sibling's, not the audited image's."""
    if not models:
        return para
    files: list[str] = []  # the audited Dockerfiles, read at the first item naming a file
    folders: list[str] = []
    out: list[tuple[int, str]] = []
    changed = False
    for number, text in para.lines:
        match = _FILE_ITEM.match(text)
        if match is not None:
            if not files:
                paths = dict.fromkeys(os.path.normpath(os.path.abspath(m.path)) for m in models)
                files = ["/" + path.replace(os.sep, "/").lower() for path in paths]
                folders = [f.rsplit("/", 1)[0] for f in files]
            named = "/" + match.group(1).strip("./").lower()
            folder, _, name = named.rpartition("/")
            if name.endswith(".md"):
                other = not any(f.endswith(folder) for f in folders)
            else:
                other = not any(f.endswith(named) for f in files)
            if other:
                text = text[: match.end()] + " " * (len(text) - match.end())
                changed = True
        out.append((number, text))
    return dataclasses.replace(para, lines=out) if changed else para


def _not_current(para: Paragraph) -> Paragraph:
    """`para` without what its sentences say is gone or another component's requirement
    (`aside.not_current_spans`): `The Dockerfile removes its vLLM 0.20.2`, `OpenCV 4.13 requires
    NumPy >= 2`."""
    spans = [
        (start + a, start + b)
        for start, _, sentence in sentences(para.lines)
        for a, b in not_current_spans(sentence)
    ]
    return dataclasses.replace(para, lines=_blank(para.lines, spans)) if spans else para


_REASONS_INTRO = re.compile(
    r"(?:\bbecause\b[^:：]{0,20}|\breasons?[ \t]*|\bdue[ \t]+to[ \t]+the[ \t]+following[ \t]*"
    r"|原因|因为[^:：]{0,10})[:：][ \t*_]*\Z",
    re.IGNORECASE,
)
"""The introduction of a list of reasons (`This is necessary because:`, `for these reasons:`)."""
_ITEM_SUBJECT = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+[*_`]*(?:the[ \t]+|this[ \t]+|our[ \t]+)?"
    r"(?:image|container|dockerfile|build|it|we|our)\b",
    re.IGNORECASE,
)
"""A list item whose subject is the image or the project (`- the image needs CUDA 12.8`)."""


def _reason_lines(doc: Document) -> set[int]:
    """The lines of the items of each list of reasons (`_REASONS_INTRO`: `This is necessary because:`)
    whose subject is not the image (`_ITEM_SUBJECT`): why the image is built as it is, what other
    things lack (`- PyTorch 2.5 lacks sm_120 kernels`), not what it holds."""
    found: set[int] = set()
    for block in lists(doc):
        if not block.items or not _REASONS_INTRO.search(block.intro):
            continue
        starts = [line for line, _ in block.items]
        last = max(
            (p.lines[-1][0] for p in doc.paragraphs if p.lines[0][0] <= starts[-1]), default=starts[-1]
        )
        ends = [*(n - 1 for n in starts[1:]), last]
        for (line, text), end in zip(block.items, ends, strict=True):
            if not _ITEM_SUBJECT.match(text):
                found.update(range(line, end + 1))
    return found


def _without_lines(para: Paragraph, lines: set[int]) -> Paragraph:
    """`para` with its README `lines` blanked."""
    if not any(line in lines for line, _ in para.lines):
        return para
    kept = [(line, " " * len(text) if line in lines else text) for line, text in para.lines]
    return dataclasses.replace(para, lines=kept)


def _captioned(para: Paragraph, fence: Fence, names: Mapping[str, str]) -> Paragraph:
    """`para` right before the build command `fence`, without what its last sentence says of the
    components the command sets with `--build-arg`: "An example to build an image with PyTorch 1.11 and
    CUDA 11.3" over `docker build --build-arg PYTORCH=1.9.0 --build-arg CUDA=11.1 …` captions an example
    build, it does not tell the defaults. Left out are the names of the args (`PYTORCH`, `CUDA` for
    `CUDA_VERSION`) and the versions their values hold ("To build with CUDA 12.1:" over `--build-arg
    BASE_IMAGE=nvidia/cuda:12.1.0-devel…`). A caption that says "default" is still a claim."""
    overridden: set[str] = set()
    values: list[str] = []
    passed: set[str] = set()  # the args by name: "Arguments: `CACHE_SIZE`" still says the image takes it
    for _, text in fence.lines:
        for match in BUILD_ARG_FLAG.finditer(text):
            name = match.group(1)
            passed.add(name)
            version = _VERSION_ARG.search(name)
            overridden |= name_keys(name, names)
            if version and version.start():
                overridden |= name_keys(name[: version.start()], names)
            if text.startswith("=", match.end()):
                values.append(re.split(r"[\s\"']", text[match.end() + 1 :].lstrip("\"'"), maxsplit=1)[0])
    if not overridden:
        return para
    start, _, sentence = list(sentences(para.lines))[-1]
    if DEFAULT_WORDS.search(sentence):
        return para
    spans = [
        (start + word.start(), start + word.end())
        for word in WORD.finditer(sentence)
        if name_keys(word.group(), names) & overridden
        and (word.group() not in passed or _VERSION_NEXT.match(sentence, word.end()))
    ]
    spans += [
        (start + found.start(), start + found.end())
        for found in _CAPTION_VERSION.finditer(sentence)
        if any(re.search(rf"(?<![\d.]){re.escape(found.group())}(?![\d])", value) for value in values)
    ]
    return dataclasses.replace(para, lines=_blank(para.lines, spans)) if spans else para


_VERSION_NEXT = re.compile(r"[ \t]*v?\d")
"""A version right after a word: `CUDA 11.3` is a component's version, `` `CACHE_SIZE` `` an arg's name."""
_CAPTION_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+")


_CI_WORDS = re.compile(
    r"\bgithub[ \t]+actions?\b|\bworkflows?\b|\.github/workflows/|\.gitlab-ci\.ya?ml\b|\bCI\b"
    r"|\bpublished[ \t]+images?\b|\bbuild[ \t]+matrix\b",
    re.IGNORECASE,
)
"""Words saying a sentence is about the images a CI workflow builds and publishes, with the values it
passes (`built with GitHub Actions on CUDA 12.8.1`, `see docker-image.yml`)."""
_WORKFLOW_GLOBS = (".github/workflows/*.yml", ".github/workflows/*.yaml", ".gitlab-ci.yml")


_CI_HEADING = re.compile(
    r"(?-i:\bCI\b)|\bcontinuous[ \t]+(?:integration|delivery|deployment)\b"
    r"|\bgithub[ \t]+(?:actions?|workflows?)\b|\bgitlab[ \t-]+ci\b"
    r"|\b(?:build|release|deploy(?:ment)?)[ \t]+pipelines?\b",
    re.IGNORECASE,
)
"""A heading over a section about the CI pipeline (`## CI/CD Pipeline`, `### GitHub Actions`,
`## Continuous Integration`, `## Build pipeline`): its jobs run on the CI runner. Not a bare
`Pipeline` (`## Inference pipeline` is the image's software) nor `Workflows` (ComfyUI's)."""
_IMAGE_NAMED = re.compile(
    r"\b(?:images?|containers?|dockerfiles?|docker|containerfiles?|base)\b|--build-arg\b|\bbuild[- ]?args?\b",
    re.IGNORECASE,
)
"""Words tying a sentence of a CI section to the image (`builds the Docker image on CUDA 12.1`)."""


def _ci_section(para: Paragraph, doc: Document) -> Paragraph:
    """`para` without the versions of its sentences that a CI section (`_CI_HEADING`, the heading over
    it or one holding its section) gives the runner's jobs and that name no image (`Sets up Python
    3.11 environment` in a test stage, `actions/checkout@v4.1.1`): a job's toolchain is set up on the
    runner (`actions/setup-python`), not in the image. A sentence naming the image, the Docker build
    or its build args (`builds the Docker image on CUDA 12.1`) stays a claim about the image."""
    if not para.lines or not any(_CI_HEADING.search(h) for h in headings_over(doc, para.lines[0][0])):
        return para
    spans = []
    for start, _, sentence in sentences(para.lines):
        if _IMAGE_NAMED.search(sentence):
            continue
        spans += [(start + v.start(), start + v.end()) for v in _CAPTION_VERSION.finditer(sentence)]
    return dataclasses.replace(para, lines=_blank(para.lines, spans)) if spans else para


def ci_workflows(directory: Path, project: Path | None = None) -> list[str]:
    """The texts of the CI workflow files of the README's repository: `.github/workflows/*.yml` (and
    `.gitlab-ci.yml`) in `directory` or the nearest of the four folders above it (not above `project`)
    that has any."""
    folder = directory
    for _ in range(5):
        found = sorted(p for pattern in _WORKFLOW_GLOBS for p in folder.glob(pattern) if os.path.isfile(p))
        if found:
            return [text for path in found[:50] if (text := text_or_none(path)) is not None]
        if project is not None and real_path(folder) == project.resolve():
            break
        if folder.parent == folder:
            break
        folder = folder.parent
    return []


def _ci_built(para: Paragraph, workflows: Sequence[str]) -> Paragraph:
    """`para` without the versions a sentence gives the CI build (`_CI_WORDS`) that a workflow file
    sets (`the CUDA image is built by GitHub Actions on cuda 12.8.1` over a matrix `base_image:
    12.8.1-cudnn-runtime-ubuntu22.04`): the workflow passes them, the Dockerfile's defaults differ."""
    spans = []
    for start, _, sentence in sentences(para.lines):
        if not _CI_WORDS.search(sentence):
            continue
        for found in _CAPTION_VERSION.finditer(sentence):
            value = re.compile(rf"(?<![\w.]){re.escape(found.group().lstrip('vV'))}(?![\d])")
            if any(value.search(text) for text in workflows):
                spans.append((start + found.start(), start + found.end()))
    return dataclasses.replace(para, lines=_blank(para.lines, spans)) if spans else para


def _build_fence_after(doc: Document, lines: Sequence[str]) -> dict[int, Fence]:
    """The last line of each paragraph that a command block running a build follows (only blank lines
    between) → that block."""
    opening = {
        fence.lines[0][0] - 1: fence
        for fence in doc.fences
        if fence.lines and fence.lang in COMMAND_LANGS and any(BUILD.search(text) for _, text in fence.lines)
    }
    after: dict[int, Fence] = {}
    for para in doc.paragraphs:
        line = para.lines[-1][0] + 1
        while line <= len(lines) and not lines[line - 1].strip() and line not in opening:
            line += 1
        if line in opening:
            after[para.lines[-1][0]] = opening[line]
    return after


def _host_list_lines(doc: Document) -> set[int]:
    """The first lines of the paragraphs of each list introduced as the host's (`is_host_intro`: `My
    system is currently running on the following OS & drivers:`) when blank lines set its items apart:
    every item is the host's, not only the first one, the only one whose paragraph holds the
    introduction or follows it."""
    found: set[int] = set()
    for block in lists(doc):
        if not block.items or not is_host_intro(block.intro):
            continue
        first, last = block.items[0][0], block.items[-1][0]
        for para in doc.paragraphs:
            if para.lines[-1][0] >= first and para.lines[0][0] <= last:
                found.add(para.lines[0][0])
    return found


def _current_versions(models: Sequence[ImageModel]) -> frozenset[str]:
    """The versions the audited images are built with: those written in their FROM images, their
    components' versions and refs, and their build arg defaults."""
    values: list[str | None] = []
    for model in models:
        values += [stage.base for stage in model.stages]
        values += [c.version for c in model.components] + [c.ref for c in model.components]
        values += [arg.default for arg in model.args]
    return built_versions(values)


def _component_words(models: Sequence[ImageModel]) -> frozenset[str]:
    """The names, lower case, of what the audited images hold (their components and the repositories of
    their FROM images: `pytorch/pytorch` → `pytorch`) and of well-known components (`python`, `cuda`):
    a heading naming one with a version (`### Python 3.11`) is about that component's version."""
    words = {name.lower() for name in renamed({})} | {display_name(n, {}).lower() for n in renamed({})}
    for model in models:
        words.update(c.name.lower() for c in model.components)
        for stage in model.stages:
            repository = stage.base.split("@", 1)[0].rsplit("/", 1)[-1].split(":", 1)[0]
            words.add(repository.lower())
    return frozenset(words)


def drop_aside(doc: Document, source: Sequence[str], models: Sequence[ImageModel] = ()) -> set[int]:
    """Remove from `doc` what is about the host or the past, not the image (`aside.aside_lines`):
        sections on building or installing without the container or on what the machine needs, lists
        introduced as the host's (`is_host_intro`), sections headed `Previous versions` or `Legacy`, and the
    entries of a list of published images or of past releases (`release_list_lines`, told from the
    current release by the versions of `models`); with no `models`, a section about another tool's
    recipe (`## Apptainer`) stays: its file and command claims are all there is to audit. (Their
        links and `-f` paths were checked before: a Dockerfile they name must still exist.)"""
    titles = dict(doc.headings)
    heads = {line: (level, titles.get(line, "")) for line, level in doc.levels.items()}
    current = _current_versions(models)
    releases = release_list_lines(source, heads, current, _component_words(models))
    if models:  # entries of a list of builds other than the one built now (`Base Image: …` each)
        superseded = superseded_entry_lines(source, heads, [s.base for m in models for s in m.stages])
        doc.paragraphs[:] = [_without_lines(p, superseded) for p in doc.paragraphs]
        releases |= superseded
    host = aside_lines(source, heads, recipes=bool(models)) | releases
    hosts_list = _host_list_lines(doc)
    # the entries of a catalogue of pushed image tags, each built with its own args, leave their paragraphs
    catalogue = catalogue_lines(source, heads, current) if models else set()
    if catalogue:
        doc.paragraphs[:] = [_without_lines(p, catalogue) for p in doc.paragraphs]
        host |= {line for line in catalogue if line in heads}
    doc.paragraphs[:] = [
        p
        for p in doc.paragraphs
        if p.lines[0][0] not in host
        and p.lines[0][0] not in hosts_list
        and not is_host_intro(p.before)
        and not (len(p.lines) > 1 and is_host_intro(p.lines[0][1]))
    ]
    doc.tables[:] = [t for t in doc.tables if t.line not in host]
    doc.fences[:] = [f for f in doc.fences if not f.lines or f.lines[0][0] not in host]
    return host  # the headings stay: they still tell what a dead reference's section is about


def set_aside(
    doc: Document,
    source: Sequence[str],
    models: Sequence[ImageModel],
    siblings: Sequence[str],
    names: Mapping[str, str],
    workflows: Sequence[str] = (),
) -> None:
    """Blank out in `doc`'s paragraphs what is not a claim about the audited images: the items of a
    list of reasons that are not about the image (`_reason_lines`), sentences about other images
    (`_about_other_images`), what is gone or another component's requirement
    (`_not_current`), the versions a sentence gives a CI build that its `workflows` set (`_ci_built`),
    the versions of a CI section's sentences that name no image (`_ci_section`) and, in the caption
    of a build command, the components the command sets (`_captioned`)."""
    ours, others = other_images_words(models, siblings)
    built = frozenset(tag for image, _, _ in tagged_builds(doc) for tag in (image, image.rsplit(":", 1)[-1]))
    tags = _OtherTags(models, built)
    without_lines(doc, _other_tag_lines(doc, tags))
    after = _build_fence_after(doc, source)
    reasons = _reason_lines(doc)
    paragraphs = []
    for para in doc.paragraphs:
        # (tags first: `replace X with Y in the tag` says what it replaces, which `_not_current` blanks)
        para = _about_other_tags(_without_lines(para, reasons), tags)
        para = _not_current(_about_other_images(para, ours, others))
        para = _about_other_files(para, models)
        if workflows:
            para = _ci_built(para, workflows)
        para = _ci_section(para, doc)
        fence = after.get(para.lines[-1][0])
        paragraphs.append(_captioned(para, fence, names) if fence is not None else para)
    doc.paragraphs[:] = paragraphs
