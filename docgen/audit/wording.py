"""The words and shapes every claim rule of `audit` reads: what counts as talk about build args
(`build arg`, `--build-arg`, `ARG`, `argument` when not a program's), list items, sentences, image
references, `--build-arg NAME`, examples and values passed on the command line, and the names a README
passes at run time (`docker run -e`, compose `environment:`), which are no build args.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator

from docgen import patterns
from docgen.audit.aside import other_tool_args
from docgen.markdown import Document, Fence, code_spans

LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")


SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh"})
"""Fence info strings (lower-cased) that name a POSIX shell: a block labelled so is shell code, not output
or a file. Rules that take a block's lines for the image's own build lines (`fences`) or for Dockerfile
instructions written as shell (`excerpts`) read these alone: an unlabelled block is as often a file."""
SESSION_LANGS = frozenset({"console", "shell-session", "terminal", "commandline"})
"""Fence info strings of a terminal session: commands behind prompts, with their output (`commandline`:
what JetBrains IDEs label a pasted terminal command)."""
UNLABELLED_LANGS = frozenset({"", "none"})
"""A block with no language (or `none`): most READMEs write their commands so."""
SHELL_BLOCK_LANGS = SHELL_LANGS | SESSION_LANGS | UNLABELLED_LANGS
"""Fence info strings (lower-cased) of blocks read as shell commands to run (`continuations`,
`unentered_mounts`): a labelled shell, a session, or a block with no language."""
COMMAND_LANGS = (
    SHELL_BLOCK_LANGS | {"powershell", "ps1", "cmd", "bat"} | {"docker", "text", "txt", "plaintext", "plain"}
)
"""Fence info strings of blocks a `docker build` line in is a command to run: the shell blocks, Windows
shells, ```` ```docker ```` and plain text; a ```` ```dockerfile ```` block is a Dockerfile, its
`# docker build -f …` a comment. Compared as written (not lower-cased)."""


def is_shell_fence(fence: Fence, langs: frozenset[str] = SHELL_BLOCK_LANGS) -> bool:
    """The block's language, lower-cased, is one of `langs` (by default any block read as shell
    commands, `SHELL_BLOCK_LANGS`; `SHELL_LANGS` for a block labelled a shell)."""
    return fence.lang.lower() in langs


BUILD_ARG_WORDS = re.compile(r"build[- ]?arg|(?-i:\bARG[Ss]?\b)", re.IGNORECASE)
NOT_A_BUILD_ARG = re.compile(
    r"\b(?:not|never|no longer)[ \t]+(?:as[ \t]+)?(?:an?[ \t]+)?build[- ]?arg", re.IGNORECASE
)
_BUILD_EVIDENCE = re.compile(BUILD_ARG_WORDS.pattern + r"|构建参数|编译参数", re.IGNORECASE)
_ARGUMENT_WORDS = re.compile(r"argument|\bargs?\b|参数", re.IGNORECASE)
NOT_BUILD_ARG_WORDS = re.compile(
    r"\benv\b|environment|环境变量|(?:launcher|server|cli|command[- ]line|program|script|engine)[ \t]+arg",
    re.IGNORECASE,
)


_TOOL_SPAN = re.compile(
    r"`(?:g?make|cmake|bazel(?:isk)?|meson|ninja|scons|pip3?|cargo|gradle|mvn|npm|yarn|colcon"
    r"|\./configure|python3?[ \t]+setup\.py)(?:[ \t][^`]{0,80})?`",
    re.IGNORECASE,
)
"""A build tool named in code (`` `make` ``, `` `make -C docker` ``, `` `cmake` ``): in a sentence whose
only word for arguments is `argument`, the arguments are that tool's (`The argument `DOCKER_PULL=1`
instructs `make` to pull the image first`)."""


# Asked of each paragraph's heading: read once a heading, not once a paragraph.
@functools.lru_cache(maxsize=64)
def about_build_args(text: str) -> bool:
    """True when `text` talks about build args: `build arg`, `--build-arg`, `ARG`, or `argument` when it
    is not about environment variables, a program's arguments (`launcher argument`) or those of a build
    tool it names in code (`instructs `make``, `_TOOL_SPAN`); and does not say that something is not
    one (`HF_TOKEN is not a build argument`), nor that they are another tool's (`Required CMake build
    arguments:`)."""
    if NOT_A_BUILD_ARG.search(text) or other_tool_args(text):
        return False
    if BUILD_ARG_WORDS.search(text):
        return True
    return (
        bool(_ARGUMENT_WORDS.search(text))
        and not NOT_BUILD_ARG_WORDS.search(text)
        and not ("`" in text and _TOOL_SPAN.search(text))
    )


_SELECTION = (
    r"(?:(?:the[ \t]+)?most[ \t]+)?(?:useful|common|important|notable|handy|relevant)"
    r"|(?:most|commonly|frequently|often)[ \t]+used|common(?:ly)?[ \t]+(?:overridden|changed|tuned)"
    r"|key|main|selected|examples?(?:[ \t]+of)?|some(?:[ \t]+of)?|a[ \t]+few(?:[ \t]+of)?"
)
_CHOSEN_ARGS = re.compile(
    r"[*_ \t]*(?:(?:here[ \t]+(?:are|is)|these[ \t]+are|below[ \t]+are)[ \t]+)?(?:the[ \t]+)?"
    rf"(?:{_SELECTION})(?:[ \t]+(?:{_SELECTION}))?[ \t]+(?:the[ \t]+)?(?:docker[ \t]+)?"
    r"(?:build[- \t]?)?(?:arg(?:ument)?s|ARGs|options|parameters|settings)\b",
    re.IGNORECASE,
)
"""A title or introduction naming a selection of the build args: `### Useful build arguments`, `## Key
Build Arguments`, `Commonly used build args:`, `The most useful build args:`, `Some of the build
arguments:`, `Example build arguments`."""
_INTRO_STOP = re.compile(r"[.!?](?:[ \t]+|\Z)")


ARGS_TITLE = re.compile(
    r"\A[*_ \t]*(?:(?:the|all(?:[ \t]+the)?|available|supported)[ \t]+)?(?:docker[ \t]+)?"
    r"(?:build[- \t]?)?arg(?:ument)?s[ \t]*[:：]?[*_ \t]*\Z",
    re.IGNORECASE,
)
"""A heading that is the title of the build args (`#### Docker Arguments:`, `## Build args`), not of
some of them (`Useful build args`, `Optional arguments`; a selection is `wording.chosen_args`'s, which
tables read too)."""


LISTS_ALL = re.compile(
    r"\A[*_ \t]*(?:(?:the|all(?:[ \t]+the)?)[ \t]+)?(?:(?:available|supported|docker)[ \t]+)?"
    r"(?:build[- \t]?)?arg(?:ument)?s\b(?:[ \t]+and[ \t]+(?:their[ \t]+)?defaults?)?"
    r"(?:[ \t]*[:：][*_ \t]*\Z"
    r"|[ \t]+(?:are|is)[ \t]+(?:listed|shown|described|documented|given|as[ \t]+follows))"
    r"|\b(?:all|every)[ \t]+(?:the[ \t]+|of[ \t]+the[ \t]+)?(?:docker[ \t]+)?"
    r"(?:build[- \t]?)?arg(?:ument)?s?\b",
    re.IGNORECASE,
)
"""An introduction saying the list after it is all the build args: `Arguments and their defaults are
listed below.`, `Build arguments:`, `All build args:`; not `You can override the following variables`
(some of them) nor `Useful build arguments:` (`wording.chosen_args`, which tables read too)."""


def owes_every_arg(heading: str, intro: str = "") -> bool:
    """True when a build-argument table or list says it is all the image's build args: its heading is
    their title (`## Build arguments`, `### Supported build args`: `ARGS_TITLE`) or the sentence
    introducing it says so (`All build arguments:`, `Arguments and their defaults are listed below.`:
    `LISTS_ALL`). A table in a how-to section (`### UBI-based Dockerfile`, then `The Dockerfile supports
    the following build arguments:`) shows the args its writer picked: an arg it leaves out is an
    omission, not a contradiction, and is reported `likely` only."""
    return bool(ARGS_TITLE.match(heading) or (intro and LISTS_ALL.search(intro)))


def chosen_args(heading: str, intro: str = "") -> bool:
    """True when the heading over a list or table of build args, or the sentence introducing it (ending
    in `:`), says it shows some of them (`### Useful build arguments`, `Key build arguments for
    `Dockerfile.cuda`:`, `The most useful build args:`): it owes no row to an arg it leaves out. Words
    after the args do not choose (`Build args (useful defaults)`: the title of them all), nor does a
    mention of some args in a sentence of its own (`Some build args are set by CI.`)."""
    if _CHOSEN_ARGS.match(heading):
        return True
    said = intro.rstrip(" \t*_")
    if not said.endswith((":", "：")):
        return False
    stops = list(_INTRO_STOP.finditer(said))
    return bool(_CHOSEN_ARGS.match(said, stops[-1].end() if stops else 0))


def says_build_args(text: str) -> bool:
    """True when `text` has words that can only mean build args (`build arg`, `--build-arg`, `ARG`)
    and none of environment variables or a program's arguments: the stricter test of `NAME=VALUE`
    lists and blocks, where a one-word name is a claim too."""
    return bool(BUILD_ARG_WORDS.search(text)) and not NOT_BUILD_ARG_WORDS.search(text)


def build_evidence(text: str) -> bool:
    """True when `text` says build args in so many words (`build argument`, `--build-arg`, `ARG`), not
    only `argument`, `parameter` or 参数, which a run-time variable is called too."""
    return bool(_BUILD_EVIDENCE.search(text)) and not NOT_A_BUILD_ARG.search(text)


DIGIT = re.compile(r"[0-9]")


ARG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\Z")
UPPER_WORD = re.compile(r"[A-Z][A-Z0-9_]*\Z")
BUILD_ARG_FLAG = re.compile(r"--build-arg(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)")


WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*")


IMAGE_REF = re.compile(
    r"(?<![\w./:@-])([a-z0-9][a-z0-9._/-]*):([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)"
)
"""`repository:tag` in text; a tag ends in a letter, digit or `_` (a full stop after it ends a sentence)."""


_EXAMPLE = re.compile(r"\b(?:for example|for instance|e\.g\b)|例如|比如|譬如|举例", re.IGNORECASE)
"""Words saying what follows is an example: `for example`, `e.g.`, and the Chinese 例如, 比如."""


SENTENCE_END = re.compile(r"(?<=[.!?;])[ \t]+(?=[A-Z`*(\[])")


_RUN_ENV = re.compile(r"(?:^|[\s`(])(?:-e|--env)(?:[ \t]+|=)[\"']?([A-Za-z_][A-Za-z0-9_]*)")
"""`docker run -e NAME=…`, `--env NAME`: a variable of the container at run time."""
_ENV_WORDS = re.compile(
    r"\benv(?:ironment)?[ \t]+var(?:iable)?s?[ \t:]+`?((?-i:[A-Z][A-Z0-9_]+))"
    r"|`?\b((?-i:[A-Z][A-Z0-9_]+))`?[ \t]+env(?:ironment)?[ \t]+var(?:iable)?s?\b"
    r"|环境变量[ \t]*`?((?-i:[A-Z][A-Z0-9_]+))",
    re.IGNORECASE,
)
"""`the environment variable `NAME``, ``NAME` environment variable`."""
_COMPOSE_ENV = re.compile(r"([ \t]*)environment:[ \t]*\Z")
_COMPOSE_ITEM = re.compile(r"[ \t]*(?:-[ \t]*)?[\"']?([A-Za-z_][A-Za-z0-9_]*)[ \t]*[=:]")


def runtime_names(doc: Document) -> frozenset[str]:
    """Names the README passes to a container at run time (`docker run -e NAME=…`, `--env NAME`, a
    compose file's `environment:`, `the environment variable NAME`) or lists as environment variables
    (`_listed_as_env`), and never with `--build-arg`. A
    sentence calling one a "parameter" (参数) or "argument" does not make it a build arg."""
    runtime: set[str] = set()
    built: set[str] = set()
    texts = [text for p in doc.paragraphs for _, text in p.lines]
    for fence in doc.fences:
        indent: int | None = None
        for _, text in fence.lines:
            texts.append(text)
            item = _COMPOSE_ITEM.match(text)
            depth = len(text) - len(text.lstrip())
            if indent is not None and text.strip() and depth > indent and item:
                runtime.add(item.group(1))
            elif text.strip():
                indent = None
            if (env := _COMPOSE_ENV.match(text)) is not None:
                indent = len(env.group(1))
    runtime.update(_listed_as_env(doc))
    for text in texts:
        runtime.update(m.group(1) for m in _RUN_ENV.finditer(text))
        runtime.update(n for m in _ENV_WORDS.finditer(text) for n in m.groups() if n)
        built.update(m.group(1) for m in BUILD_ARG_FLAG.finditer(text))
    return frozenset(runtime - built)


_ENV_TITLE = re.compile(r"\benv(?:ironment)?[ \t]*var(?:iable)?s?\b|环境变量", re.IGNORECASE)
"""A heading or a column header naming environment variables (`Environment Variables`, `Env vars`)."""
FROM_LINE = re.compile(r"[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)", re.IGNORECASE)
"""A `FROM` line of a Dockerfile shown in the README, its image reference in group 1."""
CODE_NAME = re.compile(r"[ \t*_`]*([A-Z][A-Z0-9_]*)[ \t*`]*\Z")
"""A name alone in a cell or code span, in bold or code (`` `**HF_TOKEN**` ``); no `_` after the name, which
would share the name's last `_`s with the marks (a name and n `_` then a letter cost n² to refuse)."""


@functools.lru_cache(maxsize=64)  # as `about_build_args`
def about_env(title: str) -> bool:
    """True when a heading or a column header names environment variables and no arguments
    (`## Build arguments and environment variables` may list either)."""
    return bool(_ENV_TITLE.search(title)) and not _ARGUMENT_WORDS.search(title)


def _listed_as_env(doc: Document) -> Iterator[str]:
    """The names the README lists as environment variables: in the first column of a table under a
    heading about them (`### Environment Variables`) or whose first column is headed so (`| Env var |`),
    and at the start of a list item under such a heading."""
    for table in doc.tables:
        if not table.header or BUILD_ARG_WORDS.search(table.header[0]):
            continue
        if about_env(table.header[0]) or about_env(heading_of(doc, table.line)):
            for _, cells in table.rows:
                if cells and (name := CODE_NAME.match(cells[0])) is not None:
                    yield name.group(1)
    for para in doc.paragraphs:
        if not about_env(para.heading):
            continue
        for _, text in para.lines:
            item = LIST_ITEM.match(text)
            spans = code_spans(text[item.end() :]) if item else []
            if item and spans and spans[0][0] == 0 and CODE_NAME.match(spans[0][2]):
                yield spans[0][2].strip()


_VERSIONS_HEADING = re.compile(
    r"\b(?:versions?|components?|contents?|includes?|included|inside|installed|packages|stack|software|features"
    r"|in[ \t]+(?:this|the)[ \t]+(?:docker|image|container))\b|版本|组件",
    re.IGNORECASE,
)
"""A heading over what the image has: `Versions`, `Key versions`, `Components`, `The container includes`,
`In this docker`."""
NOT_THE_IMAGE = re.compile(
    r"\bhost\b|\btest(?:ed|ing)\b|\bprerequisites?\b|\brequire|\bdrivers?\b|\bhistory\b|\bprevious\b"
    r"|\bolder\b|\bchange-?log\b|\breleases?\b|\bsupport(?:ed|s)?\b|\bcompatib|\bmatrix\b|\bavailable\b"
    r"|\boptions?\b|\bchoices?\b|\bvariants?\b|\btags?\b|\bimages\b",
    re.IGNORECASE,
)
"""A heading over the host, a test setup, older images, releases or a range of choices (`Available
versions`, `Tags`, `Images`): what it lists is no statement of what this one image has."""
_PROJECT_SETUP = re.compile(
    r"\binstall(?:ation|ing)?\b|\brequirements?\b|\bdependenc(?:y|ies)\b|\bprerequisites?\b",
    re.IGNORECASE,
)
_IMAGE_NAMED = re.compile(r"\b(?:image|container|docker\w*|dockerfile)\b", re.IGNORECASE)


def about_project_setup(heading: str) -> bool:
    """True when a heading is over what a user installs or needs for the project (`## Installation`,
    `## Requirements`, `### Dependencies`) and names no image: a Python release listed there is the
    project's requirement, which says nothing of the release the image's distribution gives."""
    return bool(_PROJECT_SETUP.search(heading)) and not _IMAGE_NAMED.search(heading)


BARE_VERSION = patterns.compile(
    r"[ \t]*(?:[-*+][ \t]+)?[*_`]*([A-Za-z][A-Za-z0-9._+-]*+(?:[ \t]+[A-Za-z][A-Za-z0-9._+-]*+){0,2})[*_`]*+"
    r"(?:[ \t]*+:)?[ \t]+[*_`]*[vV]?\d+(?:\.\d+)*(?:\+[A-Za-z0-9.]+)?[*_`]*[ \t]*\Z"
)
"""A line that is a name and a version and nothing else: `- PyTorch 2.5.1`, `* CUDA: 12.4`, `Python: 3.11`,
`- torch 1.10.0+cu113`. A name takes all its `_`s, the marks after it none of them: a name and n `_` and
no version cost n² to refuse when the two could share them (this pattern, `_LABELLED`, `STACK_LINE` and
`REF_ITEM` alike)."""
_LEAD_VERSION = re.compile(
    r"[ \t]*[-*+][ \t]+(?:\*\*|__)([A-Za-z][A-Za-z0-9._+-]*(?:[ \t]+[A-Za-z][A-Za-z0-9._+-]*){0,2})"
    r"[ \t]*:?[ \t]+[vV]?\d+(?:\.\d+)*(?:\+[A-Za-z0-9.]+)?(?:\*\*|__)(?![\w.])"
)
"""A list item that opens with a `Name version` in bold, its subject, and says more of it: `- **CUDA 12.2**
and **cuDNN 8** (DNN backend enabled)`, `- **OpenCV 4.12.0** built with contrib modules`."""
_LABELLED = patterns.compile(
    r"[ \t]*(?:[-*+][ \t]+)?[*_]*((?:[A-Za-z][\w-]*+[ \t]+){0,3}[A-Za-z][\w-]*+)[*_]*+"
    r"[ \t]*[:：][*_]*[ \t]+\S"
)
"""A line that says what it lists in a short label before a colon: `Current version: UBUNTU 18.04, CUDA
10.2, PYTHON3.8`, `**Software stack:** CUDA 12.4, PyTorch 2.5`."""
_STACK_WORD = (
    r"(?!(?i:with|and|on|plus|tested|for|requires?|needs?|runs?|supports?|built|using|uses?)\b)"
    r"[A-Za-z][A-Za-z0-9._+-]*+"
)
_STACK_ITEM = (
    rf"[*_`]*{_STACK_WORD}(?:[ \t]+{_STACK_WORD}){{0,2}}[*_`]*+[ \t]+[*_`]*[vV]?\d+(?:\.\d+)*[*_`]*+"
)
STACK_LINE = patterns.compile(
    rf"[ \t]*(?:[-*+][ \t]+)?{_STACK_ITEM}"
    rf"(?:(?>[ \t]*+(?:[,+/;][ \t]*+)?(?:\b(?:with|and|on|plus)[ \t]++)?){_STACK_ITEM}){{2,}}"
    r"[ \t]*+\.?[ \t]*+\Z"
)
"""A line of nothing but three or more `Name version` joined by commas, `with`, `and` or `on`: `Ubuntu
Server 20.04 with Python 3.10, PyTorch 1.13.0, CUDA 11.8.`, the image's stack said in one line. The
blanks around a joiner are taken whole (possessive, in an atomic group): split between the `[ \t]*`
before a comma and the one after it, a version and n blanks before anything else cost n² to refuse."""
_NOT_NOW = re.compile(
    r"\b(?:latest|recommended|minimum|min|maximum|max|upstream|new|next|old|last|default)\b", re.IGNORECASE
)
"""Label words of versions other than the image's own now: `Latest version:`, `Minimum version:`."""
_LIST_MARK = re.compile(r"[ \t]*[-*+][ \t]+")
_IMAGE_ITEM = re.compile(r"[ \t]*[-*+][ \t]+`?[a-z0-9][\w.-]*(?:/[\w.-]+)+:[\w.-]+`?[ \t]*\Z")
"""A list item that is an image reference and nothing else: `- nvidia/cuda:11.3-cudnn8-runtime-ubuntu20.04`
(the base, in a list of the image's versions)."""
REF_ITEM = patterns.compile(
    r"[ \t]*[-*+][ \t]+[*_`]*[A-Za-z][A-Za-z0-9._+-]*+(?:[ \t]+[A-Za-z][A-Za-z0-9._+-]*+){0,2}[*_`]*+"
    r"(?:[ \t]*+:)?[ \t]+[*_`]*(?:[0-9a-f]{7,40}|(?:release|releases|rel)/v?\d+(?:\.\d+)*[\w.-]*)"
    r"[*_`]*[ \t]*\Z"
)
"""A list item that is a name and the commit or release branch it is pinned to and nothing else:
`- torch2trt 36656b614f3fbc067ac673932e2200d7afdae712`, `- onnx-tensorrt release/8.6-GA` (a pin, among
the image's versions)."""
_UNTITLED_ITEMS = 3
"""Bare `Name version` items a list under no heading (or the README's title) needs to be read as the
image's versions: fewer may be an aside."""


def about_this_image(heading: str) -> bool:
    """True when the section under `heading` may describe the image itself: not the host, tests, older
    images, releases or a choice of versions (`NOT_THE_IMAGE`)."""
    return not NOT_THE_IMAGE.search(heading)


def listed_versions(
    heading: str, lines: list[tuple[int, str]], untitled: bool = False, before: str = ""
) -> set[int]:
    """The lines of `lines` that are bare `Name version` lines (a list item, a `Key: value` line), or
    items opening with one in bold (`- **CUDA 12.2** and **cuDNN 8**`), under a heading about what the
    image has (`## Versions`): each says that version as plainly as a table cell. Under any heading that
    may be about the image, so is a line labelled as the image's versions (`Current version: CUDA 10.2,
    Python 3.8`) or one of nothing but three or more of them (`Ubuntu 20.04 with Python 3.10, CUDA 11.8.`).
    None under a heading about the host, tests, older images or a choice of versions, and none of a name
    listed twice (`- CUDA 11.8`, `- CUDA 12.1`: a choice, not the image's one).

    `untitled`: the lines are under no heading but the README's title (or none at all). A list there is
    the image's versions when it is nothing else: every item a bare `Name version` (or an image
    reference, the base), at least `_UNTITLED_ITEMS` of them, and no introduction (the paragraph's own
    first line, or the one before it ending in `:`) about the host, tests or a choice."""
    if NOT_THE_IMAGE.search(heading):
        return set()
    labelled = {line for line, text in lines if _labelled_versions(text) or STACK_LINE.match(text)}
    if not _about_versions(heading, lines, before):
        if not untitled or not _only_versions(lines, before):
            return labelled
    return labelled | _once(_bare_items(lines))


_OPEN_VERSION = patterns.compile(
    r"[ \t]*[-*+][ \t]+[*_`]*([A-Za-z][A-Za-z0-9._+-]*(?:[ \t]+[A-Za-z][A-Za-z0-9._+-]*){0,2})[*_`]*"
    r"(?:[ \t]*+:)?[ \t]+[*_`]*[vV]?\d+(?:\.\d+)*(?:\+[A-Za-z0-9.]+)?[*_`]*(?P<rest>[ \t]+\S.*)\Z"
)
"""A list item that opens with a plain `Name version` and says more of it: `- PyTorch 2.1.0 with CUDA
12.1`, `- faster-whisper 1.0.3 (CTranslate2 backend)`; group `rest` is what follows the version."""
OPEN_NOT_ONE = patterns.compile(
    r"[ \t]*+(?:[,/&+]|\bor\b|\band\b|[-–—]+[ \t]*\d|\(?[ \t]*(?:or|and)\b)", re.I
)
"""What after the opening version makes it one of several (`- CUDA 11.8, 12.1`, `- Python 3.10 or 3.11`,
`- CUDA 11.8 - 12.4`): a choice or a range, not the image's one version."""


def opened_versions(heading: str, lines: list[tuple[int, str]], before: str = "") -> set[int]:
    """The lines of `lines` that are list items opening with a plain `Name version` and saying more of
    it (`- PyTorch 2.1.0 with CUDA 12.1`, `- faster-whisper 1.0.3 (CTranslate2 backend)`), under a
    heading about what the image has (`## What's Included`, `## Components`) or an introduction saying
    so (`The image contains:`): the opening version is as plain as a bare item's (`listed_versions`);
    what the rest of the line says is not (the CUDA of `PyTorch … with CUDA 12.1` is PyTorch's build).
    None under a heading about the host, tests, older images or a choice, none of a name opening two
    items (`- CUDA 11.8 images`, `- CUDA 12.1 images`: a choice), and none whose rest says the version
    is one of several, not the current one, or the host's (`- CUDA 11.8 or newer`, `- Python 3.8
    (legacy)`, `- CUDA 12.1 compatible driver`)."""
    if NOT_THE_IMAGE.search(heading) or not _about_versions(heading, lines, before):
        return set()
    # a bare item of the same name makes two as well, but is not itself an opened item
    named = {name: [-1] * len(found) for name, found in _bare_items(lines).items()}
    for line, text in lines:
        opened = _OPEN_VERSION.match(text)
        if opened is None or BARE_VERSION.match(text) or _LEAD_VERSION.match(text):
            continue
        rest = opened.group("rest")
        one = not (OPEN_NOT_ONE.match(rest) or NOT_THE_IMAGE.search(rest) or NOT_CURRENT.search(rest))
        named.setdefault(opened.group(1).lower(), []).append(line if one else -1)  # -1: still a second item
    return _once(named)


def _about_versions(heading: str, lines: list[tuple[int, str]], before: str) -> bool:
    """True when the heading over `lines` or the introduction of their list says they are what the image
    has (`## Versions`, `## What's Included`, `The image contains:`)."""
    return bool(_VERSIONS_HEADING.search(heading)) or _versions_intro(lines, before)


def _bare_items(lines: list[tuple[int, str]]) -> dict[str, list[int]]:
    """The lines of `lines` that are a bare `Name version` (`- PyTorch 2.5.1`) or open with one in bold
    (`- **CUDA 12.2** and …`), by the name they give, lower-cased."""
    named: dict[str, list[int]] = {}
    for line, text in lines:
        if (bare := BARE_VERSION.match(text) or _LEAD_VERSION.match(text)) is not None:
            named.setdefault(bare.group(1).lower(), []).append(line)
    return named


def _once(named: dict[str, list[int]]) -> set[int]:
    """The line of each name given once, and as the image's own (a line number, not -1): a name listed
    twice (`- CUDA 11.8`, `- CUDA 12.1`) is a choice, not the image's one version."""
    return {found[0] for found in named.values() if len(found) == 1 and found[0] >= 0}


def _labelled_versions(text: str) -> bool:
    """True when `text` opens with a short label saying it lists what the image has now (`Current
    version:`, `Versions:`, `**Software stack:**`), nothing else (`Tested versions:`, `Supported:`)."""
    label = _LABELLED.match(text)
    if label is None:
        return False
    words = label.group(1)
    if NOT_THE_IMAGE.search(words) or _NOT_NOW.search(words):
        return False
    return bool(_VERSIONS_HEADING.search(words))


def _versions_intro(lines: list[tuple[int, str]], before: str) -> bool:
    """True when the line introducing a list (its paragraph's first line, else the paragraph before it)
    ends in `:` and says it is what the image has (`Includes:`, `The image contains these packages:`),
    and nothing else (`Tested with:`, `Supported versions:`)."""
    first = lines[0][1] if lines and not _LIST_MARK.match(lines[0][1]) else before
    intro = first.strip().rstrip("*_ \t")
    if not intro.endswith((":", "：")) or len(intro) > 120:
        return False
    return bool(_VERSIONS_HEADING.search(intro)) and not NOT_THE_IMAGE.search(intro)


def _only_versions(lines: list[tuple[int, str]], before: str) -> bool:
    """True when `lines` are a list of bare `Name version` items (and image references) and nothing
    else but an introduction, neither it nor the paragraph before (`before`, when it ends in `:`) about
    something other than the image (`Tested with:`, `Host requirements:`)."""
    items = [text for _, text in lines if _LIST_MARK.match(text)]
    intro = [text for _, text in lines[: len(lines) - len(items)]]
    if items != [text for _, text in lines[len(intro) :]] or len(intro) > 1:
        return False  # prose between the items, or more than one line before them
    said = " ".join(intro) + (" " + before if before.rstrip().endswith(":") else "")
    if NOT_THE_IMAGE.search(said) or (intro and not intro[0].rstrip().endswith(":")):
        return False
    bare = [text for text in items if BARE_VERSION.match(text)]
    others = [
        text
        for text in items
        if not (BARE_VERSION.match(text) or _IMAGE_ITEM.match(text) or REF_ITEM.match(text))
    ]
    return len(bare) >= _UNTITLED_ITEMS and not others


def heading_of(doc: Document, line: int) -> str:
    """The text of the heading `line` is under ('' before the first)."""
    index = bisect.bisect_right(doc.headings, line, key=lambda heading: heading[0]) - 1
    return doc.headings[index][1] if index >= 0 else ""


_PASSED = re.compile(r"--build-arg(?:[ \t]+|=)[\"']?[A-Za-z_][A-Za-z0-9_]*=[\"']?\Z")


def fence_intro(doc: Document, fence: Fence) -> str:
    """What introduces a fenced block: the line ending in `:` just above it (`Build args:`), else the
    heading it is under."""
    above = line_above(doc, fence)
    if above is not None and above.rstrip().endswith((":", "：")):
        return above
    return heading_of(doc, fence.lines[0][0] - 1 if fence.lines else 0)


def line_above(doc: Document, fence: Fence) -> str | None:
    """The last line of the paragraph that ends just above a fenced block (at most one blank line
    between), whatever it ends with; None when there is none."""
    opening = fence.lines[0][0] - 1 if fence.lines else 0
    first = bisect.bisect_left(doc.paragraphs, opening - 2, key=lambda para: para.lines[-1][0])
    for para in doc.paragraphs[first : first + 2]:  # in line order: those ending just above it
        last, text = para.lines[-1]
        if opening - 2 <= last < opening:
            return text
    return None


_OFFERS = re.compile(
    r"\b(?:overrid(?:e|es|ing|den)|replac(?:e|ing)|alternatives?|alternatively"
    r"|other[ \t]+(?:[\w.+-]+[ \t]+)?(?:versions|values|releases|flavou?rs|options|choices)"
    r"|if[ \t]+(?:your|you[ \t]+(?:need|want|use|have|run))\b[^:]{0,80}?"
    r"\b(?:differs?|different|another|other|older|newer)\b)",
    re.IGNORECASE,
)
"""Words of a lead-in offering the list after it as values to pick instead of the image's (`If your base
image differs, override via `--cuda-index-url`:`, `Other CUDA versions:`, `Alternatives:`); not `switch
to`, which names a change of the image as often (`Current (since the switch to the stable torch base):`)."""


def offered_items(lines: list[tuple[int, str]], before: str = "") -> frozenset[int]:
    """README lines of the list items (with their wrapped lines) that a lead-in ending in `:` offers as
    values to pass instead of the image's own: under `If your base image differs, override via
    `--cuda-index-url`:`, the items `CUDA 12.1: `--cuda-index-url …/cu121`` and `CUDA 11.8: …` name what a
    reader may choose, not what the image has. The lead-in is the last sentence of a line (an item's,
    whose nested items it offers, or the text introducing the list) or of the paragraph `before`. An
    item saying it is a default (`- `CUDA` (default: 12.4)`) is no offer."""
    found: set[int] = set()
    depth: int | None = None  # the indent the offered items are deeper than (-1: any), None: no offer
    in_offered = False
    tail = before.rstrip()
    if tail.endswith(":") and _OFFERS.search(re.split(SENTENCE_END, tail)[-1]):
        depth = -1
    for line, text in lines:
        item = LIST_ITEM.match(text)
        indent = len(text) - len(text.lstrip())
        if item is not None:
            in_offered = depth is not None and indent > depth and not DEFAULT_WORDS.search(text)
            if not in_offered and depth is not None and indent <= depth:
                depth = None
        elif depth == -1 and not in_offered and indent == 0:
            depth = None  # a line of prose after the offered list ends it
        if in_offered:
            found.add(line)
        stripped = text.rstrip()
        if stripped.endswith(":") and _OFFERS.search(re.split(SENTENCE_END, stripped)[-1]):
            depth = indent if item is not None else -1
            in_offered = False
    return frozenset(found)


def is_passed_value(text: str, match: re.Match[str]) -> bool:
    """True when `match` is the value of `--build-arg NAME=…`: an override the user passes."""
    return bool(_PASSED.search(text, max(0, match.start() - 80), match.start()))


_VARIABLE_VALUE = re.compile(
    r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[`'\"*]*[ \t]*"
    r"(?:=|:|(?:variable[ \t]+)?(?:defaults?[ \t]+to|is(?:[ \t]+set[ \t]+to)?|\(?default:?))[ \t]*[`'\"(]*\Z"
)
"""`CANN_IMAGE=`, `` `CANN_IMAGE` defaults to ``, `CANN_IMAGE (default: `: a variable whose value follows."""


def variable_of_value(text: str, match: re.Match[str]) -> str | None:
    """The variable (`CANN_IMAGE`) whose value `match` is (`CANN_IMAGE=quay.io/…`, `` `CANN_IMAGE`
    defaults to `…` ``), None when it is no variable's value."""
    found = _VARIABLE_VALUE.search(text, max(0, match.start() - 60), match.start())
    return found.group(1) if found else None


def is_example(text: str, match: re.Match[str], reach: int = 80) -> bool:
    """True when `for example`, `e.g.` or `例如` comes shortly (`reach` characters) before `match`: an
    example, not a claim."""
    return bool(_EXAMPLE.search(text, max(0, match.start() - reach), match.start()))


ASSIGNMENT = re.compile(r"`?([A-Z][A-Z0-9_]*)[ \t]*=[ \t]*(\"[^\"]*\"|'[^']*'|[^\s\"'`]*)`?[ \t]*\Z")
"""A list item that is only `NAME=VALUE` (`VERSION="22.12"`, `` `GUID=1000` ``)."""
DEFAULT_WORDS = re.compile(r"\bdefaults?\b|默认|默認|缺省", re.IGNORECASE)


NOT_CURRENT = re.compile(
    r"\b(?:preview|nightly|old(?:er)?|previous|history|legacy|deprecated|upcoming|planned|next)\b",
    re.IGNORECASE,
)
"""A comment in a package list after which the versions are not the image's current ones (`# Preview`)."""


def sentences(lines: list[tuple[int, str]]) -> Iterator[tuple[int, int, str]]:
    """(start, end, text) of each sentence of `lines` joined with one space each; a list item starts one."""
    joined = ""
    starts = []
    for _, text in lines:
        if LIST_ITEM.match(text):
            starts.append(len(joined))
        joined += text + " "
    cuts = sorted({0, *starts, *(m.end() for m in SENTENCE_END.finditer(joined))})
    for start, end in zip(cuts, [*cuts[1:], len(joined)], strict=True):
        yield start, end, joined[start:end]


def claims_said(
    part: Document, pattern: re.Pattern[str], not_a_claim: re.Pattern[str]
) -> Iterator[tuple[int, re.Match[str]]]:
    """(README line, match) of each match of `pattern` in the sentences of `part`'s paragraphs that is
    no example (`is_example`), not in a URL (`_in_url`) and whose sentence `not_a_claim` does not match:
    the walk every sentence rule shares. A paragraph `pattern` does not match at all is not cut into
    sentences."""
    for para in part.paragraphs:
        if not pattern.search(" ".join(said for _, said in para.lines)):
            continue  # (most paragraphs: one search, no sentences cut)
        for start, _end, sentence in sentences(para.lines):
            for claim in pattern.finditer(sentence):
                if is_example(sentence, claim) or _in_url(sentence, claim):
                    continue
                if not not_a_claim.search(sentence):
                    yield line_at(para.lines, start + claim.start()), claim


def _in_url(text: str, match: re.Match[str]) -> bool:
    """True when `match` starts in a URL (the run of non-space text it starts in holds `://` before
    it): a link's path (`…/vllm-ascend/0.7.3-python3.10/22.03-lts/Dockerfile`) names folders, it says
    nothing of the image."""
    run = text.rfind(" ", 0, match.start()) + 1
    return "://" in text[run : match.start()]


_ENDS: list[tuple[list[tuple[int, str]], list[int]]] = []
"""The last `lines` `line_at` was asked about, with the offset where each of its lines ends: the claims
of one paragraph are asked about one after another, so its lines are measured once, not once a claim."""


def line_at(lines: list[tuple[int, str]], offset: int) -> int:
    """The README line of `offset` in `lines` joined with one space each."""
    if not _ENDS or _ENDS[0][0] is not lines:
        ends, end = [], -1
        for _, text in lines:
            end += len(text) + 1
            ends.append(end)
        _ENDS[:] = [(lines, ends)]
    at = bisect.bisect_left(_ENDS[0][1], offset)
    return lines[min(at, len(lines) - 1)][0]
