"""Claims read from fenced blocks: the `--build-arg` names and pins of a `docker build`, images a
command pulls or runs, `pkg==version` lists, and blocks of `NAME=VALUE` or `NAME: what it sets` under
words about build args.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from docgen.audit.aside import other_tool_args
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.commands import (
    TAG_FLAG,
    build_paths,
    fence_commands,
    joined,
    lines_of_commands_with_file,
    lines_of_elided_commands,
    without_prompt,
)
from docgen.audit.names import docker_run
from docgen.audit.paths import path_words
from docgen.audit.prose import PIN, audit_text, same_base, tag_parts
from docgen.audit.versions import name_keys
from docgen.audit.wording import (
    ASSIGNMENT,
    COMMAND_LANGS,
    DIGIT,
    FROM_LINE,
    IMAGE_REF,
    NOT_A_BUILD_ARG,
    NOT_CURRENT,
    SHELL_LANGS,
    UPPER_SNAKE,
    UPPER_WORD,
    is_shell_fence,
    says_build_args,
)
from docgen.build_scripts import BUILD, container_command, tag_targets
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic
from docgen.sources.pip import PIP

_LIST_PIN = re.compile(
    r"[ \t]*(?:[-*][ \t]+)?[\"'`]?([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[A-Za-z0-9_,.-]*\])?[ \t]*"
    r"(===|==|=|>=|~=)[ \t]*([A-Za-z0-9][A-Za-z0-9._+!/-]*)[\"'`]?[ \t]*(?:#.*)?\Z"
)
"""One line of a `pkg==version` list in a fenced block (`flash_attn=2.7.4.post1` with one `=` too, a
pin in quotes as a Dockerfile writes it: `"jax[cuda12]==0.8.0"`)."""


_ASSIGNMENT_LANGS = frozenset({"", "text", "txt", "plaintext", "plain", "ini", "env", "dotenv", "properties"})
"""Fence languages of a block that lists `NAME=VALUE` lines as data (a shell block runs them: its
variables are the shell's)."""


def assignment_block(fence: Fence, intro: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A data block (```` ``` ````, ```` ```text ````, ```` ```ini ````) of `NAME=VALUE` lines only, under
    words that can only mean build args (`## Build args`, `Build arguments:`): each name no ARG declares
    (`PYTHON=3.11`, one word or UPPER_SNAKE), as plain as a table row (`certain`). Under environment
    words it is an env file, no claim."""
    if fence.lang not in _ASSIGNMENT_LANGS or not says_build_args(intro):
        return
    if NOT_A_BUILD_ARG.search(intro) or other_tool_args(intro):
        return
    content = [  # `PYTHON=3.11  # the interpreter`: the comment is no part of the value
        (line, text.split(" #", 1)[0].strip())
        for line, text in fence.lines
        if text.strip() and not text.lstrip().startswith("#")
    ]
    assignments = [(line, ASSIGNMENT.match(text)) for line, text in content]
    if not content or not all(match for _, match in assignments):
        return
    for line, match in assignments:
        if match is not None:
            yield from some(auditor.arg_claim(line, match.group(1), CERTAIN))


_DESCRIBED = re.compile(r"[ \t]*`?([A-Z][A-Z0-9_]*)`?[ \t]*:(?:[ \t]+\S.*)?\Z")
"""A line `NAME:   what it sets` of a block listing build args (`PYTORCH_VERSION:  rocm/pytorch tag`)."""


def described_block(fence: Fence, said: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A block (of any language: `NAME: text` is no shell or YAML a program reads) of `NAME: what it
    sets` lines only, under a heading or an introduction (`said`) that says build args (`## ARG
    options`), one of whose names an ARG declares: each other UPPER_SNAKE name no ARG declares, as
    plain as a row of a build-argument table (`certain`). A block none of whose names is declared is
    a sibling image's (`* Tensorflow docker:` over the block of `TENSORFLOW_VERSION`)."""
    if not says_build_args(said) or NOT_A_BUILD_ARG.search(said):
        return
    content = [
        (line, text) for line, text in fence.lines if text.strip() and not text.lstrip().startswith("#")
    ]
    described = [(line, _DESCRIBED.match(text)) for line, text in content]
    names = [(line, match.group(1)) for line, match in described if match is not None]
    if not names or len(names) < len(content) or not any(n in auditor.declared for _, n in names):
        return
    for line, name in names:
        if UPPER_SNAKE.match(name):
            yield from some(auditor.arg_claim(line, name, CERTAIN))


_PULL = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:image[ \t]+)?pull\b")
_PULL_OR_RUN = re.compile(_PULL.pattern + "|" + container_command())
_GPU_CHECK = re.compile(r"\bnvidia-smi\b|\brocm-smi\b|\bnpu-smi\b")
"""A command a README runs to check the host's devices in some image, not to use this one's base."""
_BASE_COMMENT = re.compile(r"\bbase[ \t]+(?:docker[ \t]+)?images?\b|\bbase[ \t]+layer\b", re.IGNORECASE)
"""A comment over a pull that says it fetches the base image (`# Check base image availability`)."""


def beside_own_runs(doc: Document, auditor: Auditor) -> frozenset[int]:
    """The sections (README line of their heading) where a `docker run` of a base image's repository is
    the upstream image run as it is, beside the project's own: the README builds an image (a `docker
    build` in a block) and a block of the section runs an image of a repository no FROM uses (the one
    built, a tag of its own). Its tag there is the README's choice of upstream release (`docker run …
    nvcr.io/nvidia/tritonserver:23.08-py3 tritonserver …` under `### Run Server`, beside `docker run …
    triton_test:latest`), no claim about the Dockerfile's base."""
    commands = [(fence.section, joined(c)) for fence in doc.fences for c in fence_commands(fence)]
    if not any(BUILD.search(text) for _, text in commands):
        return frozenset()
    found: set[int] = set()
    for section, text in commands:
        run = docker_run(without_prompt(text.strip()))
        if run is None or section in found or re.search(r"[$<>{}]", run[1]):
            continue
        repository = run[1].split("@", 1)[0]
        if ":" in repository.rsplit("/", 1)[-1]:
            repository = repository.rsplit(":", 1)[0]
        if repository.lower() not in auditor.facts.images:
            found.add(section)
    return frozenset(found)


def made_references(doc: Document) -> frozenset[str]:
    """The image references (lower case) the README's own commands give an image: a build's `-t`
    (`docker build -t org/app:1.0 .`) and a `docker tag`'s target (`docker tag org/app:latest
    org/app:v1.0.0`). A run of one of them runs what the README made, whatever its repository."""
    found: set[str] = set()
    for fence in doc.fences:
        for lines in fence_commands(fence):
            text = joined(lines)
            if text.lstrip().startswith("#"):
                continue
            if BUILD.search(text):
                found.update(m.group(1).lower() for m in TAG_FLAG.finditer(text))
            found.update(target.lower() for target in tag_targets(text))
    return frozenset(found)


def _pulled_bases(
    fence: Fence, auditor: Auditor, own_runs: bool = False, made: frozenset[str] = frozenset()
) -> Iterator[Diagnostic]:
    """`docker pull` / `docker run` (continued lines too) of an image of the repository a FROM uses,
    with a tag of the same shape (`21.10-py3-sdk` for `22.08-py3-sdk`, versions aside) that is none of
    the tags FROM uses: the README pulls an older (or newer) release of the base. A `docker pull` of a
    tag of another shape counts too when, as `prose.same_base` reads tags, it is no other variant and
    its version or distribution differs from every tag FROM uses there (`12.9.1-devel-ubuntu22.04` for
    `13.0.1-cudnn-devel-ubuntu24.04`; not `12.9.1-base`, a `runtime` tag for a `devel` base, nor one
    lacking a variant word of FROM's tag in the same distribution: `_another_release`).
    `likely`, but a pull under a comment saying it fetches the base image (`# Check base image
    availability`) is `certain`. Not a command that checks the host's GPUs (`nvidia-smi`), which may
    use any image, nor one under a comment about older releases (`# previous release`), nor an image
    the README's own commands tag (`made`: `docker tag …:latest …:v1.0.0` then `docker run …:v1.0.0`,
    of a build of another project that starts from the same repository)."""
    command = False
    comment = ""
    for line, text in fence.lines:
        if not command and text.lstrip().startswith("#"):
            comment = text
            continue
        if not text.strip():
            comment = ""
        command = command or bool(_PULL_OR_RUN.search(text))
        if command and not _GPU_CHECK.search(text) and not NOT_CURRENT.search(comment):
            start = m.end() if (m := _PULL_OR_RUN.search(text)) else 0
            pull = bool(_PULL.search(text))
            if own_runs and not pull:
                command = command and text.rstrip().endswith("\\")
                continue  # the upstream image run beside the project's own (`beside_own_runs`)
            labelled = pull and bool(_BASE_COMMENT.search(comment))
            for match in IMAGE_REF.finditer(text, start):
                if match.group().lower() in made:
                    continue  # the image the README tagged itself
                sure = CERTAIN if labelled else LIKELY
                found = auditor.base_tag_claim(line, match, "pulls" if pull else "runs", sure)
                if found is None and pull:
                    found = _other_shape(line, match, auditor, sure)
                yield from some(found)
        command = command and text.rstrip().endswith("\\")


def _another_release(claim: str, fact: str) -> bool:
    """True when the tag `claim` is of another release than the tag `fact` FROM uses (`same_base` says
    they disagree); when `claim` lacks one of `fact`'s variant words (`12.9.1-devel-ubuntu22.04` for
    `13.0.1-cudnn-devel-ubuntu24.04`), only if its distribution differs too: `23.10-py3` for
    `24.03-py3-sdk` may be another image of the repository (the SDK's), not an older base."""
    if same_base(claim, fact) is not False:
        return False
    _, words, distros = tag_parts(claim)
    _, fact_words, fact_distros = tag_parts(fact)
    return words == fact_words or bool(distros and fact_distros and not distros & fact_distros)


def _other_shape(line: int, match: re.Match[str], auditor: Auditor, confidence: str) -> Diagnostic | None:
    """The finding of a pull of the base's repository at a tag of another shape that `same_base` says
    disagrees with every tag FROM uses there (`_pulled_bases`)."""
    repo, tag = match.group(1), match.group(2)
    bases = auditor.facts.images.get(repo.lower(), [])
    if repo.lower() in auditor.shared.published_runs:
        return None  # the published image a README that makes none runs as it is
    if not bases or any(not _another_release(tag, fact.value) for fact in bases):
        return None
    return Diagnostic(
        auditor.path,
        line,
        f"README pulls {match.group()} but {auditor.where(bases[0])} says {repo}:{bases[0].value}",
        confidence=confidence,
    )


_COMMENT = re.compile(r"[ \t]*#+[ \t]*(\S.*)")
"""A comment line of a command block and its text."""
_DOCKERFILE_NAMES = frozenset({"dockerfile", "containerfile"})
"""The file a build without `-f` reads in its context."""


def build_comments(fence: Fence, auditor: Auditor) -> Iterator[tuple[int, str]]:
    """(line, text) of each `#` comment of a command block heading (right above it, no blank line
    between) a build command of the image audited, one passing no `--build-arg`: a `docker build`
    whose `-f` names a Dockerfile audited by its file name, or, without `-f`, whose context is `.` or a
    folder of the name of an audited plain `Dockerfile`'s folder (`docker build -t app docker/app/`).
    Such a comment (`# build an image with PyTorch 1.6, CUDA 10.1`) says what that build makes, as a
    sentence would. A comment over another command (`docker pull`, `pip install`), over a build of
    another Dockerfile (`-f Dockerfile.cpu`, `docker/serve/`), over a build passing build args (the
    comment may tell what they choose: `# a CUDA 10.2 build` over `--build-arg BASE_IMAGE=…`), or a
    blank line away from the build says nothing of this image."""
    audited = [PurePosixPath(path) for path in dict.fromkeys(model.path for model in auditor.models)]
    comments: list[tuple[int, str]] = []
    for command in fence_commands(fence):
        comment = _COMMENT.match(command[0][1]) if len(command) == 1 else None
        if comment is not None:
            comments.append((command[0][0], comment.group(1)))
            continue
        text = without_prompt(joined(command))
        if comments and BUILD.search(text) and "--build-arg" not in text:
            paths = build_paths(text)
            if paths is not None and _builds_audited(paths, audited):
                yield from comments
        comments = []


def _builds_audited(paths: tuple[str | None, str], audited: list[PurePosixPath]) -> bool:
    """Whether a build of `paths` (`build_paths`: its `-f` file or None, its context) builds one of the
    `audited` Dockerfiles, as far as the command tells."""
    file, context = paths
    if file is not None:
        return PurePosixPath(file).name.lower() in {path.name.lower() for path in audited}
    folder = PurePosixPath(context).name
    plain = [path for path in audited if path.name.lower() in _DOCKERFILE_NAMES]
    if context in (".", "./"):
        return bool(plain)
    return bool(folder) and folder not in ("..", ".") and any(path.parent.name == folder for path in plain)


def audit_fence(
    fence: Fence, auditor: Auditor, own_runs: bool = False, made: frozenset[str] = frozenset()
) -> Iterator[Diagnostic]:
    """A shell block showing a `docker build`: its `--build-arg` names and its pins. A block listing
    `pkg==version` lines (an "Important packages version" block): each pin, up to a comment such as
    `# Preview` after which the versions are not this image's. `made`: the references the README's
    commands tag (`made_references`), whose runs are of its own images."""
    body = "\n".join(text for _, text in fence.lines)
    if fence.lang in COMMAND_LANGS and any(w in body for w in ("docker", "podman", "buildah", "--build-arg")):
        named = lines_of_commands_with_file(fence)
        elided = lines_of_elided_commands(fence)
        told: set[tuple[int, str]] = set()
        for line, text in fence.lines:
            for found in audit_text(
                line, text, auditor, prose=False, named_file=line in named, elided=line in elided
            ):
                told.add((found.line, found.message))
                yield found
        for line, text in build_comments(fence, auditor):
            for found in audit_text(line, text, auditor, prose=True, commented=True):
                if (found.line, found.message) not in told:
                    told.add((found.line, found.message))
                    yield dataclasses.replace(found, confidence=LIKELY)
        yield from _pulled_bases(fence, auditor, own_runs, made)
        return
    for line, name, operator, version in _package_list(fence, _family_words(auditor)):
        yield from some(auditor.version_claim(line, name, operator, version, CERTAIN))


def _family_words(auditor: Auditor) -> set[str]:
    """The words of the names and folders of the Dockerfiles of the part (`preview` for
    `Dockerfile.app.sglang-preview.mcore0.12`)."""
    return {word for model in auditor.models for word in path_words(model.path)}


def _package_list(fence: Fence, built: set[str]) -> Iterator[tuple[int, str, str, str]]:
    """(line, name, operator, version) of each line of a block listing `pkg==version` lines (at least
    half its lines), up to a comment such as `# Preview` after which the versions are not this
    image's, unless a Dockerfile audited is that (`built`: the words of their names and folders, as
    `preview` of `Dockerfile.app.sglang-preview.mcore0.12`): the lines after it are then still the
    family's; `flash_attn=2.7.4` is `==`, `ROCM_VERSION=6.2` (a variable set) is no line of it."""
    pins = [(line, _LIST_PIN.match(text)) for line, text in fence.lines]
    listed = [(line, m) for line, m in pins if m]
    content = [text for _, text in fence.lines if text.strip() and not text.lstrip().startswith("#")]
    if not listed or len(listed) * 2 < len(content):
        return  # code or a config file, not a list of packages
    for line, text in fence.lines:
        if text.lstrip().startswith("#") and NOT_CURRENT.search(text):
            if {m.group().lower() for m in NOT_CURRENT.finditer(text)} - built:
                return
            continue
        match = _LIST_PIN.match(text)
        if match is None:
            continue
        operator = "==" if match.group(2) in ("=", "===") else match.group(2)
        version = match.group(3)
        if not DIGIT.search(version) or (match.group(2) == "=" and UPPER_WORD.match(match.group(1))):
            continue  # `ROCM_VERSION=6.2` is a variable set to a value, as in an env file
        yield line, match.group(1), operator, version


_VERSION_ENTRY = re.compile(
    r"[ \t]*(?:[-*][ \t]+)?`?([A-Za-z_][A-Za-z0-9._-]*[A-Za-z0-9])`?(?:[ \t]+version)?"
    r"(?::[ \t]+v?([0-9][A-Za-z0-9._+!-]*)[ \t]*"
    r"|[ \t]+v?([0-9][A-Za-z0-9._+!-]*)(?:[ \t]+[A-Za-z0-9_][\w.+!-]*){0,2}[ \t]*)\Z"
)
"""One line of a listing of installed versions: `numpy: 2.1.1`, `PyTorch version: 2.4.1` (what a check
script prints), `numpy      2.1.1` (`pip list`),
`numpy  1.26.4  py311h64a7726_0  conda-forge` (`conda list`: its build and channel after)."""
_LISTING_HEADER = re.compile(r"#?[ \t]*(?:package|name)s?[ \t]+version\b|[-=]{3,}[- \t=]*\Z", re.I)
"""The header of a `pip list` or `conda list` listing (`Package    Version`, `# Name  Version  Build`) and
the dashes under it, read on the line stripped (a `[ \t]*` before the `#?[ \t]*` tried every split of a
line's leading blanks: 80,000 blanks took 40 s)."""
_ELIDED = re.compile(r"[ \t]*(?:\.{3}|…|\(\.{3}\)|\[\.{3}\])[ \t]*\Z")
"""A line standing for the entries left out of a listing (`...`, `(...)`)."""
_CONTAINER_LISTING = re.compile(r"\b(?:docker|podman|nerdctl)[ \t]+(?:container[ \t]+)?(?:exec|run)\b")
"""A command run in a container (`docker exec app pip list`, `docker run --rm app python check.py`): what
it prints is the image's."""
_VARIABLE = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+\Z")
"""An UPPER_SNAKE name: a variable (`CUDA_VERSION: 12.1`), no package."""
_LISTING_LANGS = (
    frozenset({"", "text", "txt", "plaintext", "plain", "console", "output", "log", "none", "shell-session"})
    | SHELL_LANGS
)
"""Fence languages of a block a listing is shown in: a data or terminal block (a `yaml` block of `key:
value` lines is a configuration: `device: 0` sets a value)."""
_ENTRIES = 2
"""The fewest entries a listing has (one `Python 3.10.12` line is an output, not a list)."""


def listed_versions(fence: Fence, said: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """A block listing installed versions as `pip list`, `conda list` or a `name: version` report writes
    them (`numpy: 2.1.1`, `numpy      2.1.1` under `Package  Version`): each entry against the image's
    pins and the versions its base image tag gives (`torch: 2.4.1+cu121` on `pytorch/pytorch:2.9.0-…`),
    compared by meaning (`1.4.0` is `1.4.0.post1`'s release, a `+cu121` label no other release). Only a
    block that is all listing (headers, `...` and comments aside) of two entries or more; one holding a
    command only when it runs in a container (`docker exec app pip list`): a `pip list` run where the
    reader stands lists the host's. Not under words about older releases (`said`:
    `Previous versions`). An entry no build pins is not decidable. `likely`: a listing is a snapshot of
    some build, which a later install over the pins may have moved."""
    for line, name, version in listing_entries(fence, said):
        yield from some(auditor.version_claim(line, name, "==", version, LIKELY))


def listing_entries(fence: Fence, said: str) -> list[tuple[int, str, str]]:
    """(line, name, version) of each entry of a listing of installed versions (`listed_versions`), []
    when the block is none."""
    if fence.lang not in _LISTING_LANGS or NOT_CURRENT.search(said) or _pinned_list(fence):
        return []
    entries: list[tuple[int, str, str]] = []
    for line, text in fence.lines:
        if not _listing_content(text) or _CONTAINER_LISTING.search(text):
            continue
        match = _VERSION_ENTRY.match(text)
        if match is None:
            return []  # prose, code or a config file: no listing
        name, version = match.group(1), match.group(2) or match.group(3)
        if not _VARIABLE.match(name) and "." in version:  # `gpus  2` is a count
            entries.append((line, name, version))
    return entries if len(entries) >= _ENTRIES else []


def _listing_content(text: str) -> bool:
    """Whether a line of a listing is an entry (or what would spoil one): not blank, a comment, its
    header or an ellipsis."""
    stripped = text.strip()
    return (
        bool(stripped)
        and not stripped.startswith("#")
        and not _LISTING_HEADER.match(stripped)
        and not _ELIDED.match(text)
    )


def _pinned_list(fence: Fence) -> bool:
    """Whether `_package_list` reads the block as a `pkg==version` list (its own rule)."""
    return any(True for _ in _package_list(fence, set()))


def listed_not_installed(fence: Fence, auditor: Auditor) -> Iterator[Diagnostic]:
    """A package a `pkg==version` list of the images (`vllm==0.8.5.post1`) names that no image of the
    part installs, pins or names in a base image tag, nor anything of a name a slip away
    (`vidia-cudnn-cu12`), when what the images are built on is known: each is built FROM an image a
    Dockerfile of the family builds (its tag names that Dockerfile: `base-…-fi0.2.6` for
    `Dockerfile.base.fi0.2.6`, whose installs count too), or is such a base Dockerfile. An image on
    another image (a base not built here), or installing from a requirements file or a script docgen
    does not read, may hold anything. `likely`: the base Dockerfile's own base may hold it."""
    chain = auditor.own_base_chain
    if not chain:
        return
    installed = {
        key for model in chain for comp in model.components for key in name_keys(comp.name, auditor.names)
    }
    for line, name, operator, version in _package_list(fence, _family_words(auditor)):
        keys = name_keys(name, auditor.names)
        if keys & installed or auditor.facts.lookup(name, auditor.names):
            continue
        if any(
            difflib.SequenceMatcher(None, key, other).ratio() >= 0.8 for key in keys for other in installed
        ):
            continue  # `vidia-cudnn-cu12`: a slip of a name installed, not another package
        shown = f"{name} {version}" if operator == "==" else f"{name}{operator}{version}"
        paths = list(dict.fromkeys(m.path for m in auditor.models))
        whom = f"{paths[0]} does not install" if len(paths) == 1 else f"none of {', '.join(paths)} installs"
        yield Diagnostic(auditor.path, line, f"README lists {shown} but {whom} {name}", confidence=LIKELY)


_DOCKERFILE_LANGS = frozenset({"dockerfile", "containerfile"})
_INSTALL = re.compile(r"\b(?:" + PIP + r"|uv[ \t]+pip)[ \t]+install\b|\buv[ \t]+add\b")
"""A pip or uv command that installs packages (`pip install`, `uv pip install`, `python3 -m pip install`)."""
_RUN_LINE = re.compile(r"[ \t]*(?:RUN[ \t]|(?:sudo[ \t]+)?(?:pip3?|uv|python3?(?:\.\d+)?)[ \t])")
"""A line of a shell block that is one of the image's build lines: `RUN …` or a pip/uv command."""
_THE_IMAGES = re.compile(
    r"\b(?:dockerfile|containerfile)s?\b"
    r"|\b(?:the|this|our)[ \t]+(?:docker[ \t]+)?(?:image|container)\b[^.]*?\b(?:install|build|ship|run)",
    re.IGNORECASE,
)
"""Words presenting a block as the image's own build lines (`Dockerfile Example`, `The image installs:`)."""
_OVERRIDE = re.compile(
    r"\b(?:overrid\w*|customi[sz]\w*|your|extend\w*|instead|different|derived?|replac\w*|modif\w*"
    r"|on[ \t]+top[ \t]+of|change[ \t]+(?:the|it)|another|other|add|upgrade|downgrade|extra|additional"
    r"|optional)\b",
    re.IGNORECASE,
)
"""Words presenting a block as a change to make or another image (`To use a different vLLM:`, `Extend
the image:`, `Add to your Dockerfile:`): its pins are what a user may write, not what the image has."""


def image_build_block(fence: Fence, said: str, auditor: Auditor) -> Iterator[Diagnostic]:
    """`pkg==version` pins of the pip and uv install commands of a block showing the image's own build
    lines, compared like inline pins: a ```` ```dockerfile ```` block whose `FROM` is the base of an
    audited image (compared with the images built on it), or one with no `FROM`, or a shell block of
    `RUN`/pip lines only, under words (`said`: its introduction and heading) presenting it as the image's
    (`Dockerfile Example`). A block introduced as a change or another image's (`To use a different
    version`, `Extend the image`) says nothing of this one."""
    if _OVERRIDE.search(said):
        return
    content = [
        (line, text) for line, text in fence.lines if text.strip() and not text.lstrip().startswith("#")
    ]
    if fence.lang in _DOCKERFILE_LANGS:
        bases = [m.group(1).lower() for _, text in content if (m := FROM_LINE.match(text))]
        if bases:
            built_on = tuple(m for m in auditor.models if bases[0] in {s.base.lower() for s in m.stages})
            if not built_on:
                return  # another image's Dockerfile (or one built FROM this image)
            auditor = auditor._with(built_on)
        elif not _THE_IMAGES.search(said):
            return
    elif is_shell_fence(fence, SHELL_LANGS):
        continued = False
        for _, text in content:
            if not continued and not _RUN_LINE.match(text):
                return  # a script, not the image's build lines
            continued = text.rstrip().endswith("\\")
        if not content or not _THE_IMAGES.search(said):
            return
    else:
        return
    installing = False
    for line, text in fence.lines:
        installing = installing or bool(_INSTALL.search(text))
        if installing:
            for match in PIN.finditer(text):
                version = match.group(3).rstrip(".,;:*")
                yield from some(auditor.version_claim(line, match.group(1), match.group(2), version, CERTAIN))
        installing = installing and text.rstrip().endswith("\\")
