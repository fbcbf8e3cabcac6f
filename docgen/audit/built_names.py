"""A sentence right above a build command that names the image it builds (`follow below command to build
the lumen-text-gen image.`, `Build the `lumen-serve` image:`) while the command tags another
(`docker build -t acme/eval-suite:latest …`): a name left over from another project or image.

Read only when the name is image-like (lower case, with a `-`, `/` or `_`, or in backticks; a word
such as `multi-arch`, `pre-built`, `gpu-enabled` names no image), shares no word with the command's
tags nor with the Dockerfile it names (`-f Dockerfile.serve` for the `serve-gpu` image), and the
sentence does not name the tag's repository itself. A tag the reader fills in (`$IMAGE`, `<name>`) is
not read. `likely`: the sentence may name a project, not the image's tag.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen import build_scripts, compose
from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import FILE_FLAG, TAG_FLAG, build_commands, fence_commands, joined, without_prompt
from docgen.audit.grammar import read_compose
from docgen.audit.names import compose_file
from docgen.build_scripts import BUILD
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, Fence
from docgen.model import Diagnostic
from docgen.shell import shell_split

_NAMED = re.compile(
    r"\bthe[ \t]+(?:`(?P<quoted>[a-z0-9][a-z0-9._/:-]*)`|(?P<plain>[a-z0-9]+(?:[-_/][a-z0-9]+)+))"
    r"[ \t]+(?:docker[ \t]+|container[ \t]+)?image\b"
)
"""`the lumen-text-gen image`, `the `serve` docker image`: an image named by the sentence."""
_BUILD_WORD = re.compile(r"\bbuild(?:s|ing)?\b|\bcreate[sd]?\b|\bcreating\b", re.IGNORECASE)
_GENERIC = frozenset(
    """
    multi arch stage platform pre built prebuilt all in one enabled based ready only docker container
    image base final default new custom own local official same above below following this that your
    my the a an cpu gpu
    """.split()
)
"""Words of a hyphenated name that make it a description, not an image (`multi-arch`, `gpu-enabled`)."""
_TOKEN = re.compile(r"[a-z0-9]+")
_FILLED_IN = re.compile(r"[$<>{}]")


def named_builds(doc: Document, path: str) -> Iterator[Diagnostic]:
    """A finding for each build command whose sentence just above names an image the command does not
    tag (`likely`)."""
    ends = _paragraph_ends(doc)
    for fence in doc.fences:
        intro = _sentence_above(doc, fence, ends)
        if intro is None:
            continue
        line, sentence = intro
        if not _BUILD_WORD.search(sentence):
            continue
        named = [m.group("quoted") or m.group("plain") for m in _NAMED.finditer(sentence)]
        if not named:
            continue
        for command in build_commands(fence):
            text = joined(command)
            tags = [m.group(1) for m in TAG_FLAG.finditer(text)]
            if not tags or any(_FILLED_IN.search(tag) for tag in tags):
                continue
            files = [m.group(1) for m in FILE_FLAG.finditer(text)]
            known = {t for word in [*tags, *files] for t in _TOKEN.findall(word.lower())}
            if any(_repository_name(tag) in sentence.lower() for tag in tags):
                continue
            for name in named:
                words = set(_TOKEN.findall(name))
                if not words or words <= _GENERIC or words & known:
                    continue
                said = (
                    f"README says the command builds the {name} image but it tags {', '.join(tags)} "
                    f"(line {command[0][0]})"
                )
                yield Diagnostic(path, line, said, confidence=LIKELY)
                break
            break  # the sentence is about the block's first build


def _paragraph_ends(doc: Document) -> dict[int, int]:
    """README line of the last line of each paragraph → the index of the first paragraph ending there:
    made once, so each block finds the paragraph above it without reading them all again."""
    ends: dict[int, int] = {}
    for index, para in enumerate(doc.paragraphs):
        ends.setdefault(para.lines[-1][0], index)
    return ends


def _sentence_above(doc: Document, fence: Fence, ends: dict[int, int]) -> tuple[int, str] | None:
    """The README line and text of the last sentence of the paragraph ending just above `fence` (a
    blank line between at most); `ends`: `_paragraph_ends(doc)`."""
    if not fence.lines:
        return None
    opening = fence.lines[0][0] - 1
    above = [ends[last] for last in (opening - 2, opening - 1) if last in ends]
    if not above:
        return None
    last, text = doc.paragraphs[min(above)].lines[-1]
    sentences = [s for s in _sentences(text.strip()) if s]
    return (last, sentences[-1]) if sentences else None


def _sentences(text: str) -> list[str]:
    """`text` split after each `.`, `!`, `?` or `:` followed by a blank, but for a `:` within
    parentheses (`build the image (tag: `lab`):` is one sentence)."""
    found: list[str] = []
    start = depth = 0
    for match in re.finditer(r"[()]|(?<=[.!?:])[ \t]+", text):
        if match.group() == "(":
            depth += 1
        elif match.group() == ")":
            depth = max(depth - 1, 0)
        elif not (depth and text[match.start() - 1] == ":"):
            found.append(text[start : match.start()])
            start = match.end()
    found.append(text[start:])
    return found


def _repository_name(tag: str) -> str:
    """The last part of a tag's repository, lower case: `genai-eval` for `acme/genai-eval:latest`."""
    name = tag.split("@", 1)[0].rsplit("/", 1)[-1]
    return name.split(":", 1)[0].lower()


_TAG_CLAIM = re.compile(
    r"(?:\btagged(?:[ \t]+(?:as|with))?|\bbuild(?:s|ing)?[ \t]+(?:the[ \t]+|an?[ \t]+)?"
    r"(?:docker[ \t]+|container[ \t]+)?image|\bimage[ \t]+(?:named|called|tagged)"
    r"|\bimage[ \t]*\((?:tag|tagged|named?|called)[ \t]*:?)[ \t]+"
    r"(?:`(?P<quoted>[A-Za-z0-9][\w./:@-]*)`|(?P<plain>[a-z0-9][\w.-]*(?:/[\w.-]+)*:[\w.-]*\w))",
    re.IGNORECASE,
)
"""`(will be tagged ai_deploy_optimize:latest)`, `builds the image `acme/app:1.2``, `an image named
`lab/tool``, `the image (tag: `lab`)`: the image a sentence says a build makes. A name without backticks
is read only with a tag."""
_SCRIPT = re.compile(r"(?:(?:ba|z)?sh[ \t]+)?(\.{0,2}/?[\w./-]+\.(?:sh|bash))(?=[ \t]|\Z)")
"""A script a command runs: `./docker/build.sh`, `bash build.sh`."""
_CHOOSE = re.compile(r"\b(?:your|replace|change|e\.g\.|for example|such as|or any|custom)\b", re.IGNORECASE)
"""A sentence that tells the reader to pick the name."""


def tagged_builds(doc: Document, path: str, directory: Path) -> Iterator[Diagnostic]:
    """A finding for each sentence just above a command block that says what the block's build tags the
    image (`will be tagged ai_deploy_optimize:latest`) while every tag the build gives is known and none
    is that image: the block's own `docker build -t`, or the tags of a script it runs found beside the
    README (`./docker/build.sh`, read with `build_scripts.built_tag_lines`). `certain` for a backticked
    name, `likely` for a plain one (the sentence may be older than the script)."""
    top = _real(directory)
    if top is None:
        return
    ends = _paragraph_ends(doc)
    for fence in doc.fences:
        if fence.inline:
            continue
        intro = _sentence_above(doc, fence, ends)
        if intro is None:
            continue
        line, sentence = intro
        claims = [
            (m.group("quoted") or m.group("plain"), m.group("quoted") is not None)
            for m in _TAG_CLAIM.finditer(sentence)
        ]
        claims = [
            (n, q)
            for n, q in claims
            if not _FILLED_IN.search(n) and ("/" in n or ":" in n or "_" in n or "-" in n or q)
        ]
        if not claims or _CHOOSE.search(sentence):
            continue
        made = _block_tags(fence, directory, top)
        if not made:
            continue
        where, tags = made
        full = {_with_tag(t) for t in tags}
        repositories = {_with_tag(t).rsplit(":", 1)[0] for t in tags}
        for name, quoted in claims:
            wanted = _with_tag(name) if ":" in name.rsplit("/", 1)[-1] else None
            if wanted is not None and wanted in full:
                continue
            if wanted is None and name.lower() in repositories:
                continue
            if wanted is None and not quoted:
                continue
            if wanted is not None and wanted.rsplit(":", 1)[0] not in repositories and not quoted:
                continue  # another name altogether in plain prose: `named_builds` reads those
            if isinstance(where, _Composed):
                if where.may_name(name):
                    continue
                said = f"README says the build makes {name}, but {where.told()}"
            else:
                said = f"README says the build makes {name}, but {where} tags {', '.join(tags)}"
            yield Diagnostic(path, line, said, confidence=CERTAIN if quoted else LIKELY)
            break


def _real(directory: Path) -> Path | None:
    try:
        return real_path(directory)
    except (OSError, ValueError, RuntimeError):
        return None


def _with_tag(reference: str) -> str:
    """`reference` with `:latest` when it names no tag (a digest left as it is)."""
    if "@" in reference or ":" in reference.rsplit("/", 1)[-1]:
        return reference
    return f"{reference}:latest"


def _block_tags(fence: Fence, directory: Path, top: Path) -> tuple[str | _Composed, list[str]] | None:
    """(what tags, the tags) of the one build of a command block: a `docker build` whose `-t` are all
    literal, one script it runs, beside the README, whose builds' tags are all literal and that runs
    no other script, or a compose command that builds (`_compose_tags`). None when the block builds
    nothing, several things, or a tag cannot be told."""
    found: list[tuple[str | _Composed, list[str]]] = []
    moved = False
    for command in fence_commands(fence):
        text = joined(command)
        if BUILD.search(text):
            tags = [m.group(1) for m in TAG_FLAG.finditer(text)]
            if not tags or any(_FILLED_IN.search(t) for t in tags):
                return None
            found.append((f"the command at line {command[0][0]}", tags))
            continue
        for part in re.split(r"&&|\|\||;", text):
            part = without_prompt(part.strip()).removeprefix("sudo ").strip()
            moved = moved or part.startswith(("cd ", "pushd ")) or "COMPOSE_" in part
            composed = _COMPOSE_COMMAND.match(part)
            if composed is not None:
                if moved:
                    return None  # compose reads the files of another folder, or another project
                read = _compose_tags(composed.group(1), command[0][0], directory, top)
                if read is None:
                    return None
                if read.tags:
                    found.append((read, list(read.tags)))
                continue
            match = _SCRIPT.match(part)
            if match is None:
                continue
            if TAG_FLAG.search(part[match.end() :]) or "$" in part:
                return None  # a tag given to the script
            tags_of = _script_tags(directory / match.group(1), top)
            if tags_of is None:
                return None
            if tags_of:
                found.append((f"{match.group(1)} (run at line {command[0][0]})", tags_of))
    return found[0] if len(found) == 1 else None


_COMPOSE_COMMAND = re.compile(r"(?:docker[ \t]+compose|docker-compose)(?=[ \t]|\Z)(.*)")
_BUILDING = frozenset({"build", "up", "run", "create"})
"""The compose commands that build a service's image (`up`, `run` and `create` when it is missing)."""
_PROJECT_KEY = re.compile(r"^name:[ \t]*[\"']?([\w.-]+)[\"']?[ \t]*$", re.MULTILINE)
_PROJECT_SET = re.compile(r"^[ \t]*COMPOSE_PROJECT_NAME=", re.MULTILINE)


@dataclass(frozen=True)
class _Composed:
    """What a compose command of a block builds: the services, the names Compose tags their images
    with, and where each is written."""

    line: int
    """The README line of the command."""
    tags: tuple[str, ...]
    built: tuple[tuple[str, str | None, str, str], ...]
    """(service, its `image:` or None, `file:line` of the service, the name Compose tags its image with)
    of each service it builds."""
    named: frozenset[str]
    """The repositories every service of the files names in an `image:` (pulled ones too)."""

    def may_name(self, name: str) -> bool:
        """Whether `name` may be the image of a service after all: one an `image:` names, or one ending
        in a service's name that Compose names after the project (`-p`, `COMPOSE_PROJECT_NAME`)."""
        repository = _with_tag(name).rsplit(":", 1)[0].lower()
        if repository in self.named:
            return True
        return any(
            image is None and repository.endswith((f"-{service}", f"_{service}"))
            for service, image, _, _ in self.built
        )

    def told(self) -> str:
        """How the command tags what it builds, for a finding."""
        parts = []
        for service, image, at, tagged in self.built:
            if image is None:
                parts.append(f"service {service} ({at}), which has no image: key, and tags {tagged}")
            else:
                parts.append(f"service {service} ({at}), which its image: key tags {image}")
        return f"the docker compose command at line {self.line} builds " + "; ".join(parts)


def _compose_tags(rest: str, line: int, directory: Path, top: Path) -> _Composed | None:
    """What the compose command whose words after `docker compose` are `rest`, run in the README's
    folder, builds: each service it builds (those it names, else every one with a `build:`) and the name
    Compose tags its image with (its `image:`, else `<project>-<service>`, the project from `-p`, the
    files' `name:` or the folder). A `_Composed` with no tags for a command that builds nothing; None
    when what it builds cannot be told (an unknown option, a file not read, an `include:` or `extends:`,
    an `image:` or a project the environment fills in)."""
    try:
        words = shell_split(rest)
    except ValueError:
        return None
    call = read_compose(words)
    if not call.complete or call.verb is None:
        return None
    if call.verb not in _BUILDING:
        return _Composed(line, (), (), frozenset())
    if any(name == "--project-directory" or name == "--env-file" for name, _ in call.top.values):
        return None
    paths = [directory / f for f in call.files] if call.files else compose.default_files(directory)
    if not paths:
        return None
    services: dict[str, tuple[str | None, bool, str]] = {}
    project = next((v for n, v in call.top.values if n in ("-p", "--project-name")), None)
    for path in paths:
        body = text_or_none(path, MAX_PROJECT_FILE_BYTES, top)
        read = compose_file(path)
        if body is None or read is None or read[1] or "extends:" in body:
            return None
        if project is None and (key := _PROJECT_KEY.search(body)) is not None:
            project = key.group(1)
        shown = os.path.relpath(path, directory)
        for service in read[0]:
            image, builds, at = services.get(service.name, (None, False, f"{shown}:{service.line}"))
            services[service.name] = (service.image or image, builds or service.builds, at)
    env = text_or_none(paths[0].parent / ".env", MAX_PROJECT_FILE_BYTES, top) or ""
    if project is None and _PROJECT_SET.search(env):
        return None
    project = compose.project_name(project or real_path(paths[0].parent).name)
    if not project or any(image is not None and "$" in image for image, _, _ in services.values()):
        return None
    chosen = [s for s in call.services if s in services] if call.services else list(services)
    built = tuple(
        (s, services[s][0], services[s][2], compose.built_image(services[s][0], s, project))
        for s in chosen
        if services[s][1]
    )
    tags = tuple(tagged for _, _, _, tagged in built)
    named = frozenset(
        _with_tag(image).rsplit(":", 1)[0].lower() for image, _, _ in services.values() if image is not None
    )
    return _Composed(line, tags, built, named)


def _script_tags(script: Path, top: Path) -> list[str] | None:
    """The tags the builds of `script` give, all literal; [] for a script that builds nothing (or is not
    there); None when a tag cannot be told (a variable with no default, an argument, another script)."""
    if ".." in script.parts or not os.path.isfile(script):
        return []
    try:
        if not real_path(script).is_relative_to(top):
            return None
    except (OSError, ValueError, RuntimeError):
        return None
    content = text_or_none(script)
    if content is None:
        return None
    lines = build_scripts.built_tag_lines(content)
    told = {number: sum(n == number for n, _ in lines) for number, _ in lines}
    if build_scripts.called_scripts(content) or any(
        len(TAG_FLAG.findall(line)) > told.get(number, 0)
        for number, line in enumerate(content.splitlines(), 1)
        if BUILD.search(line)
    ):
        return None
    tags = [tag for _, tag in lines]
    if any(build_scripts.UNKNOWN in tag for tag in tags):
        return None
    if any(BUILD.search(line) for line in content.splitlines()) and not tags:
        return None  # builds with no tag we can read
    return list(dict.fromkeys(tags))
