"""Which image each part of a README is about: the sections a build command's `-f`, a link, a
heading (a Dockerfile or its variant named, `Community images`) or a base image ties to some of the
audited Dockerfiles, tables introduced as about several of them, and the words naming images that are
not audited (`ROCm images` next to CUDA ones).
"""

from __future__ import annotations

import bisect
import re
import urllib.parse
from collections.abc import Mapping, Sequence

from docgen.audit.commands import PLACEHOLDER, build_commands, build_paths, file_flags, swapped_flags
from docgen.audit.paths import (
    HEADING_FILE,
    VAGUE_PARTS,
    basename,
    files_named,
    matching,
    reference_path,
    variant,
)
from docgen.audit.references import meant_dockerfiles
from docgen.audit.wording import IMAGE_REF, heading_of, is_passed_value
from docgen.files import is_dockerfile_name
from docgen.markdown import Document, code_spans
from docgen.model import ImageModel
from docgen.shell import shell_split
from docgen.stages import built_stages

_HEADING_WORD = re.compile(r"[a-z0-9][a-z0-9._+-]*")
_OTHERS_HEADING = re.compile(r"\b(?:community|third[- ]party|unofficial)\b", re.IGNORECASE)
"""A heading over images others build (`## Community Image`): not the images audited. Not the README's
own title (`_is_title`): `# Unofficial CUDA Dockerfile for LAMMPS` says what this project is."""


_PART_HEADING = re.compile(r"\b(?:dockerfile|containerfile|image|container)s?\b|-based\b", re.IGNORECASE)
"""A heading about an image (`### UBI-based Dockerfile`, `## The RHEL image`)."""


def _named_part(title: str, variants: Sequence[str | None], others: set[str]) -> set[int]:
    """The Dockerfile whose name alone has a word of the heading `title` about an image, when its
    variant has several words: `### UBI-based Dockerfile` names `.cd/Dockerfile.rhel.ubi.vllm` among
    `Dockerfile.ubuntu.pytorch.vllm` and `Dockerfile.rhel.ubi.vllm`. A word two names share (`vllm`),
    a word of a Dockerfile that is not audited (`others`), a vague word (`latest`), or a heading not
    about an image ties nothing."""
    if not _PART_HEADING.search(title):
        return set()
    owners: dict[str, set[int]] = {}
    for index, name in enumerate(variants):
        parts = re.split(r"[._-]+", name or "")
        for part in parts if len(parts) > 1 else ():  # one word: the whole variant, tied above
            owners.setdefault(part, set()).add(index)
    for name in others:
        for part in re.split(r"[._-]+", name):
            owners.setdefault(part, set()).add(-1)
    words = {w for w in re.split(r"[^a-z0-9]+", title.lower()) if w}
    found: set[int] = set()
    for word in words - VAGUE_PARTS:
        who = owners.get(word, set())
        if len(who) == 1 and -1 not in who and len(word) >= 3 and not word.isdigit():
            found |= who
    return found if len(found) == 1 else set()


_FILE_KIND_PARTS = frozenset({"template", "tmpl", "tpl", "j2", "in", "dockerfile", "containerfile"})
"""Words of a Dockerfile's name that say what kind of file it is (`Dockerfile.jetson.template`), not
which image."""
_COMMON_STAGES = VAGUE_PARTS | frozenset(
    {"builder", "runtime", "final", "runner", "deps", "prod", "production", "test", "app", "stage"}
)
"""Stage names too common to say which Dockerfile a heading is about (`## Runtime configuration`)."""


def _named_platform_or_stage(
    title: str,
    models: Sequence[ImageModel],
    variants: Sequence[str | None],
    others: set[str],
) -> set[int]:
    """The one audited image a word of the heading `title` names, when no heading word names another:
    a platform word (`_PLATFORMS`: `## Jetson Support (ARM64)`) that is a word of only that
    Dockerfile's name among the audited ones and those next to the README (`others`: their variants),
    `Dockerfile.jetson.template` next to `Dockerfile.template`; or the name of a stage only that
    Dockerfile has (`### The wheels-builder stage`) and no other name has. Words of the kind of file
    (`template`), common stage names (`builder`, `runtime`) and vague words (`latest`) name nothing;
    `_named_part` reads the other words of a heading about an image (`### UBI-based Dockerfile`)."""
    words = {w.strip(".") for w in _HEADING_WORD.findall(title.lower())}
    words |= {w for word in words for w in re.split(r"[^a-z0-9]+", word) if w}
    owners: dict[str, set[int]] = {}  # name word → audited image indices (-1: a Dockerfile not audited)
    for index, name in enumerate(variants):
        for part in re.split(r"[._-]+", name or ""):
            owners.setdefault(part, set()).add(index)
    for name in others:
        for part in re.split(r"[._-]+", name):
            owners.setdefault(part, set()).add(-1)
    stage_owners: dict[str, set[str]] = {}  # stage name → Dockerfile paths with a stage of that name
    for model in models:
        for stage in model.stages:
            if stage.name:
                stage_owners.setdefault(stage.name.lower().replace("_", "-"), set()).add(model.path)
    found: set[int] = set()
    for word in words - _FILE_KIND_PARTS - VAGUE_PARTS:
        who = owners.get(word, set())
        if word in _PLATFORMS and len(who) == 1 and -1 not in who:
            found |= who
        paths = stage_owners.get(word, set())
        if len(paths) == 1 and word not in _COMMON_STAGES and len(word) >= 4 and not owners.get(word):
            (path,) = paths
            indices = {i for i, m in enumerate(models) if m.path == path}
            if len(indices) == 1:
                found |= indices
    return found if len(found) == 1 else set()


_FILE_LABEL = re.compile(
    r"[ \t]*[*_]*(?:file|dockerfile)[*_]*[ \t]*:[ \t]*[*_]*[ \t]*`([^`\s]{1,200})`[*_]*[ \t]*\Z", re.I
)
"""A line labelling the file a section is about: `**File:** `Dockerfile.cpu``,
`Dockerfile: `x/Dockerfile``."""
_TITLE_NUMBER = re.compile(r"\A[ \t]*(?:\d{1,3}(?:\.\d{1,3})*[.)]?|[A-Za-z][.)])[ \t]+")
_TITLE_NOTE = re.compile(r"\([^()]{0,60}\)")


_TITLE_VERSION = re.compile(r"\d+(?:\.\d+)+")


def _other_versions(one: str, other: str) -> bool:
    """True when two titles of the same words say different versions (`Carla Image (v0.9.15)` and
    `Carla Image (v0.9.13)`): the same kind of section about two images."""
    versions = set(_TITLE_VERSION.findall(one)), set(_TITLE_VERSION.findall(other))
    return all(versions) and versions[0] != versions[1]


def _bare_title(title: str) -> str:
    """A heading's words without its number and notes in brackets, in lower case: `1. ROCm Variant
    (Default)` and `ROCm Variant` are both `rocm variant`; '' for a title of one word (`Build`, `Usage`),
    which says nothing of an image by itself."""
    words = re.findall(r"[a-z0-9][a-z0-9.+-]*", _TITLE_NOTE.sub(" ", _TITLE_NUMBER.sub("", title)).lower())
    return " ".join(words) if len(words) >= 2 else ""


_VERB_VARIANTS = frozenset({"build"})
"""Variants of a Dockerfile's name (`Dockerfile.build`) that a heading says as a verb (`## Build`): they tie
a section only when the heading names the file itself."""


def tied_sections(
    doc: Document,
    models: Sequence[ImageModel],
    siblings: Sequence[str],
    dead: set[tuple[int, str]] = set(),  # noqa: B006 (never changed)
    staged: Mapping[str, int] = {},  # noqa: B006 (never changed)
) -> dict[int, frozenset[int]]:
    """The sections (heading lines, 0 before the first heading) that say which of `models` they are
    about → the indices of those models; an empty set when they are about other images only (`siblings`:
    the Dockerfiles next to the README that are not audited). A section says it with

    - the `-f` of a build command in it, or a Dockerfile named in its heading (`## Dockerfile.cuda`):
      that Dockerfile, another image when it is none of `models`;
    - a link to a Dockerfile in it (`[Dockerfile.rocm](Dockerfile.rocm)`): that one, when it is audited
      or next to the README;
    - a word of its heading that is the variant of a Dockerfile's name (`### GB200 Environment (gb200)`
      for `envs/Dockerfile.gb200`), of an audited one or of one next to the README;
    - a platform word of its heading only one Dockerfile's name has (`## Jetson Support (ARM64)` for
      `Dockerfile.jetson.template`), or a stage only one Dockerfile has (`_named_platform_or_stage`);
    - a base image (`rocm/dev-ubuntu-22.04:6.4.1-complete`) only some of `models` are built on;
    - `Community`, `Third-party` or `Unofficial` in its heading: images others build, none of `models`,
      whatever else the section names (one of `models` may be built on a community image it names).

    A `-f` or link in `dead` ((README line, target) of those naming a Dockerfile that no longer exists)
    ties its section to the Dockerfile it most likely means now (`meant_dockerfiles`); when none is clear, a
    `-f` ties it to none, a link does not tie it.
    A section headed by the name of a stage no build target builds (`### ITEX XPU Base`) is about another
    image: the one `staged` gives (stage slug → index of a model built to that stage), else none.
    A section that says nothing is about what the heading above it is about."""
    paths = [m.path for m in models]
    named: dict[int, set[int]] = {}
    other: set[int] = set()  # sections naming an image that is not audited
    foreign: set[int] = set()  # sections headed `Community images`: whatever else they name

    def tie(section: int, found: set[int], known_other: bool) -> None:
        if found:
            named.setdefault(section, set()).update(found)
        elif known_other:
            other.add(section)

    sections = sorted(doc.levels)

    def section_of(line: int) -> int:
        index = bisect.bisect_right(sections, line) - 1
        return sections[index] if index >= 0 else 0

    def meant(line: int, reference: str) -> set[int]:
        return meant_dockerfiles(reference_path(reference), paths, siblings, heading_of(doc, line))

    for fence in doc.fences:
        swapped = swapped_flags(fence)  # `# replace cu124 with the one you want`: an example, any image
        for line, flag in file_flags(fence):
            if line in swapped:
                continue
            tie(fence.section, meant(line, flag) if (line, flag) in dead else matching(flag, paths), True)
    for line, link in doc.links:
        target = urllib.parse.unquote(link.split("#", 1)[0])
        if (line, link) in dead:  # a link may be a "see also": unclear, it leaves the section as it is
            tie(section_of(line), meant(line, link), False)
        elif "://" not in target and is_dockerfile_name(basename(target)):
            tie(section_of(line), matching(target, paths), bool(matching(target, siblings)))
    variants = [variant(p) for p in paths]
    other_variants = {v for v in map(variant, siblings) if v} - set(variants)
    platforms = other_images_words(models, siblings)
    bases = [{c.name.lower() for c in m.components if c.kind == "image"} for m in models]
    unbuilt = _stages_built_by_none(models)
    folder_keys = _folder_keys(paths)
    folder_names = _folder_names(paths)
    for head_line, title in doc.headings:  # `## Dockerfile.cuda`, `### The `Dockerfile.rocm` image`
        for word in HEADING_FILE.findall(title):
            if is_dockerfile_name(basename(word)) and word not in ("Dockerfile", "Containerfile"):
                tie(head_line, matching(word, paths), True)
        if _OTHERS_HEADING.search(title) and not _is_title(doc, head_line):  # `## Community images`
            foreign.add(head_line)
        if (subject := IMAGE_SUBJECT.match(title)) and other_images(subject, *platforms):  # `## ROCm images`
            tie(head_line, set(), True)
        words = {w.rstrip(".") for w in _HEADING_WORD.findall(title.lower())}
        # not `build` (`Dockerfile.build`): a heading's `Build` is the verb (`## Build`, `How to build`)
        variant_words = words - _VERB_VARIANTS
        tie(
            head_line,
            {i for i, v in enumerate(variants) if v in variant_words},
            bool(variant_words & other_variants),
        )
        # a bake target's name (`## cu124-py311`); not a vague one (`default`, `latest`)
        baked = {i for i, m in enumerate(models) if m.image_name.lower() in words - VAGUE_PARTS - {"default"}}
        tie(head_line, baked, False)
        tie(head_line, _named_part(title, variants, other_variants), False)
        tie(head_line, _named_platform_or_stage(title, models, variants, other_variants), False)
        tie(head_line, _named_folder(title, folder_keys), False)
        tie(head_line, _named_whole_folder(title, folder_names), False)
        if (slug := _slug(title)) in unbuilt:  # `### IPEX XPU Base` when no target builds `AS ipex-xpu-base`
            tie(head_line, {staged[slug]} if slug in staged else set(), True)
    # a base image only some images are built on
    texts = [(p.section, t) for p in doc.paragraphs for _, t in p.lines]
    texts += [(t.section, " ".join(c for _, row in t.rows for c in row)) for t in doc.tables]
    for section, text in texts:
        for match in IMAGE_REF.finditer(text):
            if is_passed_value(text, match):
                continue  # `--build-arg IMAGE=nvidia/cuda:…`: what to pass, not what an image is built on
            users = {i for i, repos in enumerate(bases) if match.group(1).lower() in repos}
            if users and len(users) < len(models):
                tie(section, users, False)
    for para in doc.paragraphs:  # `**File:** `Dockerfile.cuda``: the file a section is about
        for _line, text in para.lines:
            if (label := _FILE_LABEL.match(text)) is not None and is_dockerfile_name(
                basename(label.group(1))
            ):
                tie(para.section, matching(label.group(1), paths), bool(matching(label.group(1), siblings)))
    # `### ROCm Variant` under `## Environment Variables` is about what `### 1. ROCm Variant (Default)` is
    titled: dict[str, set[int]] = {}  # a title said again → the sections it is the heading of
    titles = dict(doc.headings)
    for head_line, title in doc.headings:
        titled.setdefault(_bare_title(title), set()).add(head_line)
    above: list[tuple[int, int]] = []  # (level, line) of the headings above, to know a heading's parents
    for head_line, title in doc.headings:
        level = doc.levels.get(head_line, 6)
        while above and above[-1][0] >= level:
            above.pop()
        over = [h for _, h in above]
        above.append((level, head_line))
        if head_line in named or head_line in other or not (bare := _bare_title(title)):
            continue
        if any(h in named or h in other for h in over):
            continue  # `#### Build image` under `### CUDA`: about what its parent is about
        ties = {
            frozenset(named[h])
            for h in titled[bare]
            if h < head_line and h in named and not _other_versions(titles[h], title)
        }
        if len(ties) == 1 and not any(h < head_line and h in other for h in titled[bare]):
            tie(head_line, set(ties.pop()), False)
    for head_line in foreign:  # a base image named there is what the others build on, not ours
        named.pop(head_line, None)
        other.add(head_line)
    tied: dict[int, frozenset[int]] = {}
    if 0 in named or 0 in other:
        tied[0] = frozenset(named.get(0, ()))
    parents: list[tuple[int, int]] = []  # (level, heading line) of the headings above
    for line, level in sorted(doc.levels.items()):
        while parents and parents[-1][0] >= level:
            parents.pop()
        parents.append((level, line))
        for _, heading in reversed(parents):
            if heading in named or heading in other:
                tied[line] = frozenset(named.get(heading, ()))
                break
    return tied


def _is_title(doc: Document, head_line: int) -> bool:
    """True when the heading at `head_line` is the README's title: its first heading, at level 1. A title
    saying `Unofficial`, `Community` or `Third-party` (`# Unofficial NVIDIA CUDA Dockerfile for LAMMPS`,
    `# ROCm Community Containers`) tells what this project is next to an upstream one; the images under
    it are the ones audited, not images others build."""
    return bool(doc.headings) and doc.headings[0][0] == head_line and doc.levels.get(head_line) == 1


def _folder_keys(paths: Sequence[str]) -> list[str]:
    """What tells apart the folders of plain `Dockerfile`s of a family, in words joined by `-`: the
    folder's name without the words every folder shares (`comfyui` and `faster-whisper` for
    `rocm_comfyui/Dockerfile` and `rocm_faster_whisper/Dockerfile`); '' for a Dockerfile of another
    name, a short or vague key, a key that is the whole folder's name (the folders share no word), or a
    family of one folder."""
    words: list[list[str]] = []
    for path in paths:
        parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
        plain = len(parts) >= 2 and parts[-1] in ("Dockerfile", "Containerfile")
        words.append([w for w in re.split(r"[^a-z0-9]+", parts[-2].lower()) if w] if plain else [])
    folders = {tuple(w) for w in words if w}
    if len(folders) < 2:
        return [""] * len(paths)
    shared = set.intersection(*(set(f) for f in folders))
    keys = ["-".join(w for w in each if w not in shared) for each in words]
    # a key that is the whole folder's name is an entry's name (`keyed`): it ties the list under it only
    return [
        k if len(k) >= 4 and k not in VAGUE_PARTS and k != "-".join(each) else ""
        for k, each in zip(keys, words, strict=True)
    ]


def _folder_names(paths: Sequence[str]) -> list[str]:
    """The whole folder's name of each plain `Dockerfile` of a family of such folders (`cuda12` of
    `cuda12/Dockerfile` beside `cuda13/Dockerfile`), lower-cased; '' for a Dockerfile of another name, a
    short or vague name, or a family of one folder."""
    names: list[str] = []
    for path in paths:
        parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
        plain = len(parts) >= 2 and parts[-1] in ("Dockerfile", "Containerfile")
        names.append(parts[-2].lower() if plain else "")
    if len({n for n in names if n}) < 2:
        return [""] * len(paths)
    return [n if len(n) >= 4 and n not in VAGUE_PARTS else "" for n in names]


def _named_whole_folder(title: str, names: Sequence[str]) -> set[int]:
    """The images whose folder's whole name (`_folder_names`) a heading of more words names in code
    (`### CUDA 12 Variant (`cuda12`)`) or, a name with a digit, as a word of its own (`## The cu121 image`):
    the section is about that image. A heading that is the name alone (`## cu118-py310`) is an entry's
    name (`keyed`), which ties the list under it only."""
    spans = {code.strip().lower() for _, _, code in code_spans(title)}
    slug = _slug(title)
    found: set[int] = set()
    for index, name in enumerate(names):
        if not name or slug == _slug(name):
            continue
        if name in spans or (re.search(r"\d", name) and f"-{_slug(name)}-" in f"-{slug}-"):
            found.add(index)
    return found


def _named_folder(title: str, keys: Sequence[str]) -> set[int]:
    """The images whose folder's key (`_folder_keys`: `keys`, one an image) a heading names as words of
    its own (`## ComfyUI` for `rocm_comfyui/Dockerfile`, `## Faster-Whisper & CTranslate` for
    `rocm_faster_whisper/`)."""
    slug = f"-{_slug(title)}-"
    return {i for i, key in enumerate(keys) if key and f"-{key}-" in slug}


def headed_unbuilt_stages(doc: Document, models: Sequence[ImageModel]) -> list[tuple[int, str]]:
    """(index of a model, stage name) of each stage of its Dockerfile that no build target builds and a
    heading names (`### ITEX XPU Base` over `FROM … AS itex-xpu-base`, its compose service commented
    out): an image the README documents that the build files do not build. Each stage once."""
    unbuilt = _stages_built_by_none(models) & {_slug(title) for _, title in doc.headings}
    found: dict[tuple[str, str], tuple[int, str]] = {}
    for index, model in enumerate(models):
        for stage in model.stages:
            if stage.name and stage.name.lower().replace("_", "-") in unbuilt:
                found.setdefault((model.path, stage.name.lower()), (index, stage.name))
    return list(found.values())


def _slug(title: str) -> str:
    """A heading as a stage would be named: `IPEX XPU Base` → `ipex-xpu-base`."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _stages_built_by_none(models: Sequence[ImageModel]) -> set[str]:
    """The named stages (`-` for `_`) of each Dockerfile whose images are all build targets of it (bake,
    compose, `target =`) that none of them builds. A section headed by one is about an image the build
    files do not build (a service commented out, a target of another file), not about these. A
    Dockerfile built plainly has none: a heading naming one of its stages is about a part of it."""
    by_path: dict[str, list[ImageModel]] = {}
    for model in models:
        by_path.setdefault(model.path, []).append(model)
    unbuilt: set[str] = set()
    built: set[str] = set()
    for same in by_path.values():
        labels = {label for m in same for label in built_stages(m)}
        built |= {label.lower().replace("_", "-") for label in labels}
        if all(m.target_index >= 0 for m in same):
            unbuilt |= {
                s.name.lower().replace("_", "-") for s in same[0].stages if s.name and s.name not in labels
            }
    return unbuilt - built


def shared_tables(doc: Document, paths: Sequence[str]) -> dict[int, frozenset[int]]:
    """The tables (their header lines) introduced as about several Dockerfiles ("`Dockerfile` and
    `Dockerfile.standalone` support the following build arguments:", a heading naming two images) →
    the audited ones of them (none: the table is about other images). Such a table is not one image's."""
    shared: dict[int, frozenset[int]] = {}
    for table in doc.tables:
        named = files_named(table.context)
        if len(named) >= 2:
            shared[table.line] = frozenset(i for name in named for i in matching(name, paths))
    return shared


_PLATFORMS = frozenset(
    "cuda rocm hip xpu cpu npu hpu gaudi ascend cann musa jetson tpu neuron mlu dcu sycl oneapi "
    "openvino metal vulkan".split()
)
"""Words that name a variant of an image by what it runs on (`ROCm images`, `the CUDA variant`)."""
IMAGE_SUBJECT = re.compile(
    r"(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?[*_]*(?:(?:for|on|with|in)[ \t]+)?(?:(?:the|all|our)[ \t]+)?"
    r"((?:[`\w.+-]+[ \t]+){1,3}?)(?:images?|variants?|containers?|builds?|flavou?rs?)\b",
    re.IGNORECASE,
)
"""A sentence that starts by naming images (`ROCm images use …`, `The CUDA variant takes …`,
`For XPU builds, pass …`): the words before the noun say which."""
NOT_A_VARIANT = frozenset({"base", "docker", "default", "final", "official", "resulting", "same", "this"})
"""Words before `image` that say what an image is for the audited one too (`The base image is …`), even
when a Dockerfile next to the README is named after one (`Dockerfile.base`)."""


def other_images_words(models: Sequence[ImageModel], siblings: Sequence[str]) -> tuple[set[str], set[str]]:
    """(words naming the audited images, words naming images that are not audited): the variants of
    the audited Dockerfiles' names and the platform words their names, base images, build args and
    the local labels of the builds they install (`+xpu`) mention; the variants of the Dockerfiles next
    to the README, and the platform words none of the audited ones mentions."""
    ours = {v for v in (variant(m.path) for m in models) if v}
    said = " ".join(
        [m.path for m in models]
        + [s.base for m in models for s in m.stages]
        + [f"{a.name} {a.effective_default or ''}" for m in models for a in m.args]
        # the local label of a build it installs (`torch==2.6.0+xpu`, `+rocm6.2`) names its platform
        + [
            (c.version or "").split("+", 1)[-1]
            for m in models
            for c in m.components
            if "+" in (c.version or "")
        ]
    ).lower()
    ours |= {word for word in _PLATFORMS if word in said}
    others = {v for v in (variant(s) for s in siblings) if v} | _PLATFORMS
    return ours, others - ours


def other_images(subject: re.Match[str], ours: set[str], others: set[str]) -> bool:
    """True when the words before `images` in `subject` (an `IMAGE_SUBJECT` match) name images none
    of the audited ones is."""
    words = {w.strip("`*_").lower() for w in subject.group(1).split()} - NOT_A_VARIANT
    return bool(words & others) and not words & ours


Build = tuple[int, tuple[tuple[str, str], ...]]
"""One image as a build command builds it: (index of the audited model, the literal `--build-arg`
values it passes that the Dockerfile declares, sorted; none for a build with the defaults)."""


def passed_args(command: str) -> dict[str, str]:
    """The build args a build command (its continued lines joined) passes with a literal value:
    `--build-arg BASE=nvcr.io/x:6.1.1-devel`, `--build-arg="TAG=1.2"`. A value read from the shell or to
    be filled in (`NAME=$TAG`, `NAME=<version>`, bare `NAME`) and an empty one are left out."""
    try:  # as the shell splits it: a quoted value keeps its blanks (`--build-arg "A=x y"`)
        words = shell_split(re.sub(r"\\(?=\s|$)", " ", command))
    except ValueError:  # an unclosed quote: which values it passes cannot be told
        return {}
    passed: dict[str, str] = {}
    for index, word in enumerate(words):
        if word == "--build-arg":
            given = words[index + 1] if index + 1 < len(words) else ""
        elif word.startswith("--build-arg="):
            given = word.removeprefix("--build-arg=")
        else:
            continue
        name, eq, value = given.partition("=")
        value = value.strip("\"'")
        if eq and value and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and not PLACEHOLDER.search(value):
            passed[name] = value
    return passed


def section_builds(
    doc: Document, models: Sequence[ImageModel], tied: dict[int, frozenset[int]]
) -> dict[int, frozenset[Build]]:
    """The sections (heading lines) whose build commands pass a build arg a literal value → the images
    those commands build. A section runs from its heading to the next heading of the same or a higher
    level, its subsections included. A command's image is the one its `-f` names (none audited: no
    build), else the one image its section is about, else the plain `Dockerfile` of them; a command
    passing no literal value the Dockerfile declares builds that image with its defaults. Sections
    whose commands pass none are left out: they are about the images as the Dockerfiles declare them,
    and so is a section whose builds are those of several of its subsections (`## Images` over `### 6.0`
    and `### 6.1`), and the document's title (the one heading of the highest level: `# My image` over
    `## Building`) counts only its own. A section without any is about the builds right under the
    nearest heading above it that has them."""
    paths = [m.path for m in models]
    everything = frozenset(range(len(models)))
    own: dict[int, set[Build]] = {}
    for fence in doc.fences:
        for lines in build_commands(fence):
            command = " ".join(text for _, text in lines)
            told = build_paths(command)
            file = told[0] if told else None
            if file is not None:
                images = matching(file, paths)
            else:
                images = set(tied.get(fence.section, everything))
                if len(images) > 1:
                    images = {i for i in images if basename(paths[i]) in ("Dockerfile", "Containerfile")}
            if len(images) != 1:
                continue
            index = images.pop()
            declared = {a.name for a in models[index].args}
            passed = {k: v for k, v in passed_args(command).items() if k in declared}
            own.setdefault(fence.section, set()).add((index, tuple(sorted(passed.items()))))
    # each section's builds, its subsections' included, and the subsections they come from
    parents: dict[int, list[int]] = {}  # heading line → the heading lines above it, innermost first
    above: list[tuple[int, int]] = []
    for line, level in sorted(doc.levels.items()):
        while above and above[-1][0] >= level:
            above.pop()
        parents[line] = [heading for _, heading in reversed(above)]
        above.append((level, line))
    total: dict[int, set[Build]] = {}
    sources: dict[int, set[int]] = {}  # section → its subsections (direct) that hold builds
    for section, found in own.items():
        child = section
        for heading in [section, *parents.get(section, [])]:
            total.setdefault(heading, set()).update(found)
            if heading != child:
                sources.setdefault(heading, set()).add(child)
            child = heading
    top = min(doc.levels.values(), default=0)
    titles = [line for line, level in doc.levels.items() if level == top]
    title = titles[0] if len(titles) == 1 else -1  # the document's title: its intro is about them all
    result: dict[int, frozenset[Build]] = {}
    for section in doc.levels:  # the text before the first heading is no section (host notes, badges)
        chosen: set[Build] = set()
        if section in total:  # its own builds; none when they are its subsections' several ones
            if section in own:
                chosen = own[section] if section == title else total[section]
            elif len(sources.get(section, ())) == 1 and section != title:
                chosen = total[section]
        else:  # a section without a build: a build right under a heading above it
            chosen = next((own[h] for h in parents.get(section, []) if h in own), set())
        if any(args for _, args in chosen):
            result[section] = frozenset(chosen)
    return result
