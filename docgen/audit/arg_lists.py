"""Build args documented in a list, one item each: `` - `CUDA_VERSION`: CUDA release (default `12.4.1`) ``,
`* **PYTHON_VERSION** – defaults to 3.10`, `- DMB_APP_PHP_VER (default 7.0)`, `- For ROCm: `ROCM_VERSION`
(default: 6.0.2)`, `` * `BASE_IMAGE`: Must be explicitly specified ``. An item names the arg first (in
code, in bold or bare), then may give its default or say it is required.

Under a list introduction or heading that says build args in so many words (`Available build
arguments:`, `## Build args`, `### ARG options`) an item is as plain as a row of a build-argument table:
a name no ARG declares, a default that differs from the ARG's and a required arg that has a default
are `certain`. Under a heading of generic words (`## Arguments`, `## Options`, `参数`) the items are build
args only when most of the names they give are declared ARGs; a list with no such words whose items
mostly name declared ARGs gives its defaults `likely` and its other names nothing (an environment
list names some args too). Not read: a list introduced as another tool's arguments (`CMake options:`),
a name in lower case no ARG declares (`` `time` ``: a tag's part), the names of an item that starts
with a label (`For CUDA:`: it may be a sibling image's), a default in words (`set in
docker/Dockerfile.cuda`, `-`, `none`, `pinned`).

A list under a heading of its own (`### CUDA Variant`) in a section whose heading says build args (`##
Build Arguments`) is that variant's: its declared names' defaults are compared, `certain`
(`_under_build_args`); its other names are not reported.

The list as a whole: when its introduction says it is all the build args (`Build arguments:`) and no
build-argument table is, an arg it leaves out (`build_arg_lists`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from docgen import patterns
from docgen.audit.aside import other_tool_args
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, some
from docgen.audit.cells import default_in_cell, is_build_arg_table
from docgen.audit.coverage import family_pattern
from docgen.audit.wording import (
    ARGS_TITLE,
    LIST_ITEM,
    LISTS_ALL,
    NOT_A_BUILD_ARG,
    UPPER_SNAKE,
    about_build_args,
    about_env,
    chosen_args,
    says_build_args,
)
from docgen.markdown import Document, ListBlock, code_spans, headings_over, lists
from docgen.model import Diagnostic

_LABEL = re.compile(r"(?:for|in|on|with)[ \t]+[\w.+/ -]{1,30}?[ \t]*:[ \t]*", re.IGNORECASE)
"""A label an item starts with before its name: `For CUDA: `, `For ROCm: `."""
_BOLD_NAME = re.compile(r"(\*\*|__)`?([A-Za-z_][A-Za-z0-9_]*)`?\1")
"""A name in bold: `**PYTHON_VERSION**`."""
_BARE_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w=-])")
"""A bare UPPER_SNAKE name: `DMB_APP_PHP_VER (default 7.0)`."""
_JOINER = re.compile(r"[ \t]*(?:,|/|&|\band\b|\bor\b)?[ \t]*")
"""What separates the names an item starts with: `` `A` `B` ``, `` `A`, `B` ``, `` `A` / `B` ``."""
_DEFAULT_SAID = re.compile(
    r"(?P<paren>\()[ \t]*(?:defaults?(?:[ \t]+to)?|default[ \t]+value|默认值?)[ \t]*(?:[:=：]|is|为)?[ \t]*"
    r"|\b(?:default(?:[ \t]+value)?[ \t]*(?:is|[:=])|defaults[ \t]+to|defaulting[ \t]+to)[ \t]*"
    r"|默认值?(?:为|是|[:：])[ \t]*",
    re.IGNORECASE,
)
"""Words giving an item's default, the value right after: `(default: 3.11)`, `(default `12.4.1`)`,
`default value is 22.`, `– defaults to 3.10`, `(默认值：1000)`."""
_BARE_VALUE = re.compile(r"[\"']?[^\s,;()\"'`]+[\"']?")
_QUOTED_VALUE = re.compile(r"([\"'])([^\"'`\n]{1,200})\1")
"""A value in quotes, spaces and all: `(默认: '8.0 9.0a'，针对 A100)`, `(default: "gfx90a gfx942")`."""
_ARG_LINE = re.compile(r"ARG[ \t]+(?=[A-Za-z_])")
"""An item's name given as the Dockerfile line declaring it: `` `ARG CUDA_TAG=12.4.1-devel-ubuntu22.04` ``,
its default after `=`."""
_SWITCH = frozenset({"true", "false", "yes", "no", "on", "off"})
_PLACE_AFTER_ON = re.compile(r"[ \t]+(?!(?:for|when|if|with|unless|by|in|and|or|but)\b)[\w.]", re.IGNORECASE)
"""After `default on`, a word that is not a conjunction or a preposition: `(default on CUDA 12)`, `default on
MI300`, says on which platform the arg has its default, not that its value is `on` (`default on for ROCm`
is the value `on`, with when)."""
_REQUIRED = patterns.compile(
    r"[ \t]*+(?:[:=–—-][ \t]*+)?\(?[ \t]*+(?:required|mandatory"
    r"|(?:must|needs?[ \t]+to|has[ \t]+to)[ \t]+be[ \t]+(?:explicitly[ \t]+)?"
    r"(?:specified|set|provided|given|passed|defined))"
    r"(?![ \t]+(?:to|for|when|if|with|only|by|in|on|unless)\b)",
    re.IGNORECASE,
)
"""An item saying its arg has no default right after the name: `: Must be explicitly specified`,
`(required)`; not for a case (`must be set to your GPU`)."""
_GENERIC_TITLE = re.compile(
    r"\A[*_ \t]*(?:(?:available|supported|docker|build|image)[ \t]+)?(?:arguments|args|options|parameters"
    r"|参数|构建参数|编译参数)[ \t]*[:：]?[*_ \t]*\Z",
    re.IGNORECASE,
)
"""A heading of generic words (`## Arguments`, `## Options`, `### 参数`): build args only when most of
its items name declared ARGs."""
_HTML_TAG = re.compile(r"<[^<>]{1,80}>")
_CAPTION_WORDS = 8
"""How many words a list's introduction may have to be its caption (`<summary>Build args</summary>`,
`**Options**`) when it does not end in `:`."""
_MOST_DECLARED = 2
"""How many names of a list must be declared ARGs for it to be build args by its content."""


@dataclass(frozen=True)
class _Item:
    """A list item naming build args first."""

    line: int
    names: tuple[str, ...]
    labelled: bool
    """The item starts with a label (`For CUDA:`): its names may be a sibling image's."""
    default: str | None
    """The default the item gives its one name (`default_in_cell`), None for none or one in words."""
    required: bool
    text: str
    arg_line: bool = False
    """The item names its arg as the Dockerfile line declaring it (`` `ARG CUDA_TAG=12.4.1` ``)."""


def _item(line: int, text: str) -> _Item | None:
    """The build args a list item starts with, and the default it gives or its saying the arg is
    required; None for an item that starts with no name."""
    marker = LIST_ITEM.match(text)
    body = text[marker.end() if marker else 0 :].strip()
    label = _LABEL.match(body)
    at = label.end() if label else 0
    names: list[str] = []
    declared: str | None = None  # the default of `` `ARG NAME=value` ``: the line of a Dockerfile
    arg_line = False
    spans = code_spans(body, html_code=True)
    at_start = {span[0]: span for span in reversed(spans)}  # (the first span starting there)
    while True:
        joiner = _JOINER.match(body, at)
        start = joiner.end() if names and joiner else at
        span = at_start.get(start)
        bold = _BOLD_NAME.match(body, start)
        if span is not None:
            code = span[2].strip()
            line_of_dockerfile = _ARG_LINE.match(code)
            if line_of_dockerfile is not None:
                code, arg_line = code[line_of_dockerfile.end() :], arg_line or not names
                if "=" in code and not names:
                    declared = default_in_cell(code.split("=", 1)[1].strip())
            name, end = code.removeprefix("--build-arg").strip().split("=", 1)[0].strip(), span[1]
        elif bold is not None:
            name, end = bold.group(2), bold.end()
        elif (bare := _BARE_NAME.match(body, start)) is not None:
            name, end = bare.group(), bare.end()
        else:
            break
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            break
        names.append(name)
        at = end
    if not names:
        return None
    rest = body[at:]
    required = _REQUIRED.match(rest) is not None
    default = declared if declared is not None and len(names) == 1 else _stated_default(rest)
    return _Item(line, tuple(names), label is not None, default, required, text, arg_line)


def _stated_default(rest: str) -> str | None:
    """The default the words after an item's names give: in code right after the words, or one bare
    word that is a value (a digit in it, `true`, or the whole of a `(default: main)`), normalised by
    `default_in_cell`; None for none, or one in words (`default value is set in …`)."""
    said = _DEFAULT_SAID.search(rest)
    if said is None:
        return None
    after = rest[said.end() :]
    spans = code_spans(after, html_code=True)
    if spans and spans[0][0] == 0:
        return default_in_cell(after[: spans[0][1]])
    if (quoted := _QUOTED_VALUE.match(after)) is not None:
        return default_in_cell(quoted.group())
    bare = _BARE_VALUE.match(after)
    if bare is None:
        return None
    value = bare.group().rstrip(".")
    if value.lower() == "on" and _PLACE_AFTER_ON.match(after, bare.end()):
        return None  # `(default on CUDA 12)`: where, not what
    closed = said.group("paren") is not None and after[bare.end() :].lstrip().startswith(")")
    if closed or any(c.isdigit() for c in value) or value.lower() in _SWITCH:
        return default_in_cell(value)
    return None


def _list_items(block: ListBlock) -> list[_Item]:
    return [item for line, text in block.items if (item := _item(line, text)) is not None]


def arg_list_claims(part: Document, auditor: Auditor, whole: Document | None = None) -> Iterator[Diagnostic]:
    """Each item of a list of build args (`_item`): a name no ARG declares, a default that differs from
    the ARG's, a required arg that has a default; `certain` under words that can only mean build args,
    or generic ones (`## Options`) over a list most of whose names are declared; `likely` (defaults
    only) for a list whose names are mostly declared ARGs under no such words. A list under a heading
    of its own (`### CUDA Variant`) in a section that says build args (`## Build Arguments`, `whole`'s
    headings) gives its declared names' defaults `certain` (`_under_build_args`)."""
    for block in lists(part):
        intro = _HTML_TAG.sub(" ", block.intro).strip()  # `<summary>Build argument descriptions</summary>`
        said = intro if intro.endswith((":", "：")) or len(intro.split()) <= _CAPTION_WORDS else ""
        words = " ".join(w for w in (said, block.heading) if w)
        if other_tool_args(words) or NOT_A_BUILD_ARG.search(words):
            continue
        items = _list_items(block)
        names = [name for item in items for name in item.names]
        declared = sum(1 for name in names if name in auditor.declared)
        mostly = declared >= _MOST_DECLARED and 2 * declared > len(names)
        titled = any(says_build_args(w) for w in (said, block.heading) if w) or _arg_lines(items)
        generic = bool(_GENERIC_TITLE.match(block.heading))
        inherited = False
        if titled or (generic and mostly):
            confidence = CERTAIN
        elif mostly and not about_env(block.heading) and not about_env(said):
            confidence = LIKELY  # no words say build args: its defaults only, by its names
        elif _under_build_args(whole or part, block, said):
            confidence, inherited = CERTAIN, True
        else:
            continue
        for item in items:
            judge = auditor.scoped(item.text)  # `(only for `horovod-ray` image)`: that image's item
            if judge is None:
                continue
            yield from _item_claims(item, judge, confidence, names_too=not inherited)


def _arg_lines(items: list[_Item]) -> bool:
    """True when every item (two or more) names its arg as an `ARG` line of a Dockerfile (`` - `ARG
    CUDA_TAG=12.4.1-devel-ubuntu22.04`: The CUDA base image tag. ``): a list of build args by its form,
    whatever its introduction calls them (`The docker build command accepts the following arguments:`)."""
    return len(items) >= 2 and all(item.arg_line for item in items)


def _under_build_args(whole: Document, block: ListBlock, said: str) -> bool:
    """True when `block` is under a heading of its own (`### ROCm Variant`) that holds no words of
    environment variables or another tool, in a section whose heading says build args (`## Build
    Arguments` over `### ROCm Variant` over `` - `ROCM_WHEEL_INDEX` - … (default: rocm6.0) ``): the
    variant's build args, one subsection an image."""
    if not block.items or not block.heading:
        return False
    titles = headings_over(whole, block.items[0][0])
    own = " ".join(w for w in (said, titles[0] if titles else "") if w)
    if len(titles) < 2 or about_env(own) or other_tool_args(own) or NOT_A_BUILD_ARG.search(own):
        return False
    return any(says_build_args(title) for title in titles[1:])


def _item_claims(
    item: _Item, judge: Auditor, confidence: str, names_too: bool = True
) -> Iterator[Diagnostic]:
    """`names_too`: a name no ARG declares is a finding too (under words saying build args); else only
    the defaults of declared names are compared."""
    for name in item.names:
        if name in judge.declared:
            continue
        if names_too and confidence == CERTAIN and not item.labelled and UPPER_SNAKE.match(name):
            yield from some(judge.arg_claim(item.line, name, confidence))
    if len(item.names) != 1 or item.names[0] not in judge.declared:
        return
    if item.required:
        yield from some(judge.default_claim(item.line, item.names[0], "", confidence, required=True))
    elif item.default is not None:
        yield from some(judge.default_claim(item.line, item.names[0], item.default, confidence))


def build_arg_lists(part: Document, auditor: Auditor, elsewhere: frozenset[str]) -> Iterator[Diagnostic]:
    """A list introduced as the build args (`Arguments and their defaults are listed below.` then
    `` - `BASE_IMAGE`: … `` items, blank lines between them too), read like a build-argument table:
    each item's name no ARG declares, and, when the introduction says it lists them all (`LISTS_ALL`)
    and no build-argument table does, each arg it leaves out (`likely`) that the README
    does not document elsewhere (`elsewhere`: after `--build-arg` …)."""
    for block in lists(part):
        intro = block.intro or block.heading
        if not about_build_args(intro) or other_tool_args(intro):
            continue
        items = _named_items(block)
        names = [
            (line, name, text)
            for line, name, text in items
            if UPPER_SNAKE.match(name) or name in auditor.declared
        ]
        if 2 * sum(1 for _, name, _ in names if name in auditor.declared) <= len(items):
            continue  # a list of something else (environment variables, options) that names some args
        for line, name, text in names:
            judge = auditor.scoped(text)  # `(only for `horovod-ray` image)`: that image's item
            if judge is not None:
                yield from some(judge.arg_claim(line, name, LIKELY))
        tables = any(is_build_arg_table(t, auditor.declared, auditor.passed) is not None for t in part.tables)
        if tables:
            continue
        listed = {name for _, name, _ in names} | {n for _, n, _ in items if family_pattern(n) is not None}
        if chosen_args(block.heading, block.intro):
            continue  # `### Useful build args`, `Key build arguments:`: some of them, by its own words
        if LISTS_ALL.search(block.intro):
            yield from auditor.missing_args(
                block.intro_line, listed | elsewhere, "build-argument list", LIKELY
            )
        elif _titled_all_args(block, items, auditor.declared):
            yield from auditor.missing_args(
                block.section, listed | elsewhere, "build-argument list", LIKELY, said_all=False
            )


def _titled_all_args(block: ListBlock, items: list[tuple[int, str, str]], declared: frozenset[str]) -> bool:
    """True when `block` comes right under its heading (no introduction), that heading is the title of
    the build args (`ARGS_TITLE`), and every item starts with a declared ARG in code: a list that
    stands for the build args of the image, as a table under that heading would."""
    return (
        not block.intro
        and block.section > 0
        and bool(ARGS_TITLE.match(block.heading))
        and len(items) == len(block.items) >= 2
        and all(name in declared for _, name, _ in items)
    )


def _named_items(block: ListBlock) -> list[tuple[int, str, str]]:
    """(line, name, item's first line) of each item of `block` that starts with a name in code."""
    named = []
    for line, text in block.items:
        item = LIST_ITEM.match(text)
        body = text[item.end() if item else 0 :].lstrip("*_[ ")
        spans = code_spans(body, html_code=True)
        if spans and spans[0][0] == 0:
            named.append((line, spans[0][2].strip().split("=", 1)[0].strip(), text))
    return named
