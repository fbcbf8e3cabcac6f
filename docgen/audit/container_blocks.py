"""Which of a README's command blocks a reader takes as run inside the container, and the words that say
so: the one home of that reading for every rule (`references`, `moved_scripts`, `container_scripts`,
`clone_scripts`, `unmounted_scripts`, `setup_files`, `prose_scripts`, `script_builds`,
`unentered_mounts`).

- `IN_IMAGE`: words or commands saying commands run in the container, its image or a pod (`Inside the
  container:`, `from the image`, `docker exec -it app bash`); `IN_CONTAINER`: those, or a command moving
  the reader to another machine or runtime (`ssh`, `singularity`).
- `SAID_INSIDE`: the narrower words that name the container itself (`inside the running docker
  container`), for rules where `from the image` or a `docker run` line above a block says too little.
- `IN_MACHINE`: the wider words of a reader put in a container, VM or node, or its shell (`Once you are
  inside`, `drops you into a shell`), for the setup steps `setup_files` follows.
- `carried_intros`: an introduction ending in a colon that still holds over the captioned blocks after
  it (`Inside the container:` / `**Run the demo:**` / a block).
- `container_blocks`: the first line of each block a reader takes as run in the container;
  `container_lines`: every line of them. `reach` names how far the words above a block hold: `INTRO`
  (its heading, the prose just above it in its section, an introduction carried over captions) or
  `SECTION` (its heading, or any paragraph of its section before it saying so).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Literal

from docgen.build_scripts import DOCKER, container_command
from docgen.markdown import Document, Fence

_IN_IMAGE = (
    r"\b(?:in|inside|within|into|from)[ \t]+(?:the[ \t]+|a[ \t]+|your[ \t]+)?(?:running[ \t]+)?"
    r"(?:docker[ \t]+)?(?:container|image|pod)\b"
    + "|"
    + container_command("run|exec", DOCKER, container=False)
)
IN_IMAGE = re.compile(_IN_IMAGE, re.IGNORECASE)
"""Words saying a command runs in the container, its image or a pod (`run `tools/serve.sh` inside the
container`, `from the image`, `docker exec -it app bash`): a path it names is the image's, which need
not be the repository's. Not another machine or runtime (`ssh`, `singularity`): a prose line naming one
(`To run R studio with singularity, use the helper `launch.sh``) still runs the repository's script."""
IN_CONTAINER = re.compile(_IN_IMAGE + r"|\b(?:ssh|kubectl[ \t]+exec|singularity|apptainer)\b", re.IGNORECASE)
"""`IN_IMAGE`, or a command moving the reader to another machine or runtime (`ssh`, `kubectl exec`,
`singularity`, `apptainer`): words saying the commands of a block run in the container, not on the
host in the checkout (`Inside the container:`, `docker exec -it app bash`)."""

SAID_INSIDE = re.compile(
    r"\b(?:in|inside|within|into)(?:[ \t]+of)?[ \t]+(?:(?:the|your|a)[ \t]+)?(?:running[ \t]+)?"
    r"(?:docker[ \t]+)?container\b",
    re.IGNORECASE,
)
"""Words naming the container as where commands run (`Inside the docker container, run:`, `inside of
the running container`, `# in container`)."""

IN_MACHINE = re.compile(
    r"\b(?:inside|within|in|into|from)[ \t]+(?:the[ \t]+|a[ \t]+|your[ \t]+|this[ \t]+)?(?:running[ \t]+)?"
    r"(?:docker[ \t]+|dev[ \t]+)?(?:container|image|pod|vm|node)\b"
    r"|\bcontainer(?:'s)?[ \t]+(?:shell|terminal)\b|\bonce[ \t]+(?:you[ \t]+are[ \t]+)?(?:inside|in)\b"
    r"|\bin[ \t]+the[ \t]+(?:docker|container)[ \t]+(?:shell|env)"
    r"|\b(?:places?|puts?|drops?|lands?)[ \t]+you[ \t]+in(?:to)?[ \t]+(?:a|the)[ \t]+(?:shell|container)\b"
    r"|\b(?:inside|within|in|into)[ \t]+(?:the[ \t]+|a[ \t]+|your[ \t]+)?[\w.-]+[ \t]+container\b",
    re.IGNORECASE,
)
"""Words saying the reader is in a container, a VM or a cluster node, or its shell (`in the dev
container`, `Once you are inside`, `This drops you into a shell`, `inside the app_dev container`)."""

_INTRO_END = re.compile(r"[:：][ \t*_]*\Z")
"""The end of a paragraph introducing what follows (`Inside the container:`, `**Run Demo:**`)."""
_BOLD_LINE = re.compile(r"[ \t]*(?:\*\*|__)[^*_]+(?:\*\*|__)[ \t:]*\Z")
"""A paragraph that is one bold line: the caption of the example below it."""
_LEAVES = re.compile(
    r"\b(?:host|outside|exit|leave|locally|local[ \t]+machine|your[ \t]+machine)\b", re.IGNORECASE
)
"""Words of an introduction moving the reader out of where the ones before put them (`On the host:`)."""
_EXIT = re.compile(r"[ \t]*(?:\$[ \t]+)?exit[ \t]*\Z")


def carried_intros(doc: Document, pattern: re.Pattern[str]) -> set[int]:
    """README lines of the first line of each block of `doc` whose introductions above it in its section
    that still hold (`Inside the container:`), joined with a space, `pattern` finds words in: a paragraph
    ending with a colon introduces every block after it in its section while only blocks and captions
    (one bold line, or another line ending with a colon) come between, as in `Inside the container:` /
    `**Run the reconstruction:**` / a block / `**Run the demo:**` / a block. A paragraph of other prose,
    a heading, an introduction about the host (`On the host:`, `Outside the container:`) or an `exit`
    line of a block ends what came before. One pass over the paragraphs and blocks in README order, each
    introduction searched once with the one before it: a run of a thousand captions is not joined again
    for each block (`pattern` reads words and blanks, so a match spans at most two introductions, each
    ending in a colon or bold marks)."""
    events: list[tuple[int, int, int]] = []  # (first line, 0 paragraph / 1 block, index)
    events += [(p.lines[0][0], 0, i) for i, p in enumerate(doc.paragraphs) if p.lines]
    events += [(f.lines[0][0], 1, i) for i, f in enumerate(doc.fences) if f.lines and not f.inline]
    events.sort()
    found: set[int] = set()
    last: str | None = None  # the last introduction that holds, if any does
    said_in = False  # `pattern` finds words in the introductions that hold, joined
    section = -1
    for first, kind, index in events:
        if kind == 0:
            para = doc.paragraphs[index]
            if para.section != section:
                last, said_in, section = None, False, para.section
            text = para.lines[-1][1]
            if _INTRO_END.search(text) or (len(para.lines) == 1 and _BOLD_LINE.match(text)):
                said = " ".join(t for _, t in para.lines[-2:])
                if last is None or _LEAVES.search(said):
                    said_in = bool(pattern.search(said))
                else:
                    said_in = said_in or bool(pattern.search(last + " " + said))
                last = said
            else:
                last, said_in = None, False
            continue
        fence = doc.fences[index]
        if fence.section != section:
            last, said_in, section = None, False, fence.section
        if last is not None and said_in:
            found.add(first)
        if any(_EXIT.match(t) for _, t in fence.lines):
            last, said_in = None, False
    return found


INTRO: Literal["intro"] = "intro"
"""`reach`: a block's heading, the last two lines of the paragraph just above it in its section, or an
introduction that still holds over it (`carried_intros`) say it runs in the container."""
SECTION: Literal["section"] = "section"
"""`reach`: a block's heading, or any paragraph of its section before it (up to the block's first line),
says so: `Inside the container:`, then prose, then the block still runs there."""


def container_blocks(
    doc: Document,
    *,
    words: re.Pattern[str] = IN_CONTAINER,
    reach: Literal["intro", "section"] = INTRO,
    langs: Collection[str] | None = None,
) -> set[int]:
    """The README line of the first line of each block (of an info string in `langs`, any when None) a
    reader takes as run in the container: its section's heading, or the prose above it as far as `reach`
    holds, matches `words`. One pass over the blocks and paragraphs in README order."""
    return {fence.lines[0][0] for fence in _blocks(doc, words, reach, langs)}


def container_lines(
    doc: Document,
    *,
    words: re.Pattern[str] = IN_CONTAINER,
    reach: Literal["intro", "section"] = SECTION,
    langs: Collection[str] | None = None,
) -> set[int]:
    """Every README line of the blocks `container_blocks` reads as run in the container (with `reach`
    `SECTION` by default: a paragraph of the block's section saying so holds to the section's end)."""
    return {number for fence in _blocks(doc, words, reach, langs) for number, _ in fence.lines}


def _blocks(
    doc: Document, words: re.Pattern[str], reach: Literal["intro", "section"], langs: Collection[str] | None
) -> list[Fence]:
    """The blocks `container_blocks` reads as run in the container, in README order."""
    titles = dict(doc.headings)
    # (README line, section, the words it says): the paragraphs in README order, keyed by where they
    # start to hold, with what of them `reach` reads (SECTION: any line; INTRO: the last two)
    if reach == SECTION:
        said = sorted(
            (para.lines[0][0], para.section, True)
            for para in doc.paragraphs
            if para.lines and any(words.search(text) for _, text in para.lines)
        )
        carried: set[int] = set()
    else:
        said = sorted(
            (
                para.lines[-1][0] + 1,  # holds from the line after its end
                para.section,
                words.search(" ".join(t for _, t in para.lines[-2:])) is not None,
            )
            for para in doc.paragraphs
            if para.lines
        )
        carried = carried_intros(doc, words)
    found: list[Fence] = []
    at, over = 0, (0, -1, False)  # the paragraph above the block: (line, section, says so)
    for fence in sorted((f for f in doc.fences if f.lines), key=lambda f: f.lines[0][0]):
        first = fence.lines[0][0]
        while at < len(said) and said[at][0] <= first:
            over = said[at]
            at += 1
        if langs is not None and fence.lang not in langs:
            continue
        if (
            words.search(titles.get(fence.section, ""))
            or (over[2] and over[1] == fence.section)
            or first in carried
        ):
            found.append(fence)
    return found
