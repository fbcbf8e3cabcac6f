"""A heading "Build" over a section whose only commands run the image, and a heading "Run" over one whose
only commands build it: the two headings are swapped.

```
# Run
docker build -t org/app .

# Build
docker run --rm -p 8888:8888 org/app
```

A reader looking for how to build the image reads the run command, and the other way round. Both
headings must be wrong for a finding: one section alone named otherwise than its commands may be
introduced in words (`## Run` over "first build the image:"), a README's habit, or a step the reader is
told about elsewhere. `likely`: the headings are words.

A heading is read when it is the verb alone, give or take an article, `the`, `image`, `container`,
`docker`, `locally` or a step number (`## 2. Build the image`, `### Running`); `Build and run`, `Run
tests` are not. A section is its heading's lines up to the next heading of its level or above, its
subsections included; its commands are those of its command blocks, its commands written as lines of
their own and its inline code that is one. A section that both builds and runs (a `docker run` after
the build, a build first in a run section) is named right.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.audit.auditor import LIKELY, clipped
from docgen.audit.commands import fence_commands, joined, without_prompt
from docgen.build_scripts import ALL_ENGINES, BUILD, WORD_END, container_command
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic

_HEADING_WORD = re.compile(r"[a-z]+")
_FILLERS = frozenset({"the", "a", "an", "image", "images", "container", "docker", "locally", "it", "step"})
"""Words a heading may hold beside its verb and still be the verb alone (`Build the image`)."""
_BUILD_WORDS = frozenset({"build", "building"})
_RUN_WORDS = frozenset({"run", "running"})
_DOCKER_RUN = re.compile(container_command("run", ALL_ENGINES, start="", end=WORD_END))
"""A run of an image (`docker run`, `docker container run`)."""
_BUILDS = re.compile(
    r"(?:docker|podman|nerdctl|buildah)[ \t-]+(?:buildx[ \t]+|image[ \t]+|compose[ \t]+)?(?:build|bake|bud)\b"
    r"|\b(?:make|cmake|ninja|compile\w*)\b|build|\bdocker[ \t]+(?:pull|load|import)\b"
)
"""A command that builds or brings an image (a compose build, a pull) or builds anything (make, a
build script, a `docker run` of a builder image: `docker run -v $PWD:/src org/builder ./compile.sh`)."""
_RUNS = re.compile(
    r"(?:docker|podman|nerdctl|nvidia-docker)[ \t-]+(?:container[ \t]+|compose[ \t]+)?"
    r"(?:run|create|start|exec|up)\b|run[\w.-]*\.sh\b"
)
"""A command that runs a container (a compose up or run, an exec, a run script)."""
_STEP = re.compile(r"&&|\|\||;|\|")


def _kind(heading: str) -> str:
    """`build` or `run` when the heading is that verb alone (`_FILLERS` and numbers aside), else ''."""
    words = [w for w in _HEADING_WORD.findall(heading.lower()) if w not in _FILLERS]
    if len(words) != 1:
        return ""
    return "build" if words[0] in _BUILD_WORDS else "run" if words[0] in _RUN_WORDS else ""


def _commands(doc: Document, start: int, end: int) -> list[tuple[int, str]]:
    """(README line, step) of each command step written between the README lines `start` and `end`:
    of command blocks, of lines that are commands, of inline code."""
    found: list[tuple[int, str]] = []
    for fence in doc.fences:
        if not fence.lines or not start < fence.lines[0][0] < end:
            continue
        for lines in fence_commands(fence):
            text = without_prompt(joined(lines).strip())
            if not text.startswith("#"):
                found.extend((lines[0][0], step.strip()) for step in _STEP.split(text.split(" #", 1)[0]))
    for para in doc.paragraphs:
        for line, text in para.lines:
            if not start < line < end:
                continue
            pieces = [code for _, _, code in code_spans(text)] or [without_prompt(text.strip())]
            for piece in pieces:
                found.extend((line, step.strip()) for step in _STEP.split(piece))
    return [(line, step.removeprefix("sudo ").lstrip()) for line, step in found if step.strip()]


def _mislabelled(doc: Document) -> Iterator[tuple[int, str, str, str]]:
    """(heading line, heading, its kind, the command under it) of each "Build" heading over a section
    whose commands run an image and none builds or brings one, and each "Run" heading over one whose
    commands build an image and none runs one."""
    heads = sorted(doc.levels.items())
    titles = dict(doc.headings)
    for index, (line, level) in enumerate(heads):
        kind = _kind(titles.get(line, ""))
        if not kind:
            continue
        end = next((other for other, lvl in heads[index + 1 :] if lvl <= level), 1 << 30)
        steps = _commands(doc, line, end)
        builds = [s for s in steps if _BUILDS.search(s[1])]
        runs = [s for s in steps if _RUNS.search(s[1])]
        if kind == "build" and not builds and (shown := [s for s in runs if _DOCKER_RUN.match(s[1])]):
            yield line, titles[line], kind, shown[0][1]
        elif kind == "run" and not runs and (shown := [s for s in builds if BUILD.match(s[1])]):
            yield line, titles[line], kind, shown[0][1]


def swapped_headings(doc: Document, readme: str) -> Iterator[Diagnostic]:
    """A "Build" heading over only a run and a "Run" heading over only a build, in one README
    (`_mislabelled`): each is told, `likely`."""
    found = list(_mislabelled(doc))
    if {kind for _, _, kind, _ in found} != {"build", "run"}:
        return
    for line, heading, kind, command in found:
        other = "runs the image" if kind == "build" else "builds the image"
        shown = clipped(command)
        yield Diagnostic(
            readme,
            line,
            f'README\'s heading "{heading.strip()}" is over `{shown}`, which {other} and is the only kind of '
            f'command under it, while its heading "{"Run" if kind == "build" else "Build"}" is over the '
            f"other: the headings look swapped",
            confidence=LIKELY,
        )
