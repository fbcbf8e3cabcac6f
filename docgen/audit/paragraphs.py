"""Claims read from paragraphs and lists: build-arg names in code in a sentence or list about build
args, defaults in list items (`` `CUDA_VERSION` set to `12.4.0` ``), `NAME=VALUE` lists, required args
(`X must be explicitly specified`), list items a scope note binds to one image, and a base image said to
be each image's. A prose line that is a command making a host environment (`$ conda create -n x
cuda=12.2`) is no claim on the image's versions.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Callable, Iterator

from docgen.audit.aside import other_tool_args
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, dockerfile_read, some
from docgen.audit.cells import default_in_cell
from docgen.audit.contents import stage_lines
from docgen.audit.keyed import item_scopes
from docgen.audit.members import member_sentences
from docgen.audit.paths import basename
from docgen.audit.prose import BASE_WORDS, audit_text
from docgen.audit.wording import (
    ASSIGNMENT,
    DEFAULT_WORDS,
    DIGIT,
    IMAGE_REF,
    LIST_ITEM,
    NOT_BUILD_ARG_WORDS,
    SENTENCE_END,
    UPPER_SNAKE,
    WORD,
    about_build_args,
    about_env,
    about_project_setup,
    about_this_image,
    build_evidence,
    line_at,
    listed_versions,
    offered_items,
    opened_versions,
    says_build_args,
    sentences,
)
from docgen.build_scripts import BUILD_LINE
from docgen.markdown import Document, Fence, Paragraph, code_spans
from docgen.model import Diagnostic

_DEFAULT_LEAD = re.compile(r"(?:the[ \t]+)?default(?:[ \t]+value)?(?:[ \t]+(?:of|for))?[ \t]+", re.IGNORECASE)
"""A list item that starts with the word: `Default `CUDA` is `10.0``, `The default for `JOBS` is `4``."""
_IS_VALUE = re.compile(r"[ \t]*(?:is|=|:)[ \t]*(?=`|<code>)", re.IGNORECASE)
_SET_TO = re.compile(r"[ \t]*(?:is[ \t]+)?set[ \t]+to[ \t]*(?=`|<code>)", re.IGNORECASE)
_DEFAULT_IS = re.compile(
    r"\bdefault(?:s|[ \t]+value)?(?:[ \t]+(?:is|to))?[ \t]*(?:[:=][ \t]*)?(?=`|<code>)", re.I
)

_HOST_ENV_COMMAND = re.compile(
    r"[ \t]*(?:[$>%][ \t]+)?(?:sudo[ \t]+)?"
    r"(?:(?:conda|mamba|micromamba)[ \t]+(?:create|install|env[ \t]+create)"
    r"|pyenv[ \t]+(?:install|local|global|virtualenv)|nvm[ \t]+(?:install|use)|asdf[ \t]+install)\b"
)
"""A prose line that is a command making an environment on the reader's machine (`$ conda create -n
cuda122 cuda=12.2`, `pyenv install 3.10.4`): the versions it names are that environment's, not the
image's."""


def _items(para: Paragraph) -> list[list[tuple[int, str]]]:
    """The lines of each list item of `para`; the lines before the first item (the text introducing
    the list, or the whole paragraph when it is no list) make one more, first."""
    chunks: list[list[tuple[int, str]]] = []
    for line, text in para.lines:
        if LIST_ITEM.match(text) or not chunks:
            chunks.append([])
        chunks[-1].append((line, text))
    return chunks


def item_auditors(para: Paragraph, auditor: Auditor) -> dict[int, Auditor | None]:
    """The auditor of each line of `para` whose list item has a scope note naming an image (`(only for
    `horovod` image)`): that image's, or None for a sibling's; lines without one are absent."""
    scopes: dict[int, Auditor | None] = {}
    for chunk in _items(para):
        text = "".join(line_text + " " for _, line_text in chunk)
        if not LIST_ITEM.match(text):
            continue  # the text introducing the list: a note there is no item's
        scoped = auditor.scoped(text)
        if scoped is not auditor:
            scopes.update(dict.fromkeys((line for line, _ in chunk), scoped))
    return scopes


_LINKED_NAME = re.compile(r"\[([^\[\]]{1,80})\]\([^()\s]{1,500}\)(?=[ \t]+v?\d)")
"""A link right before a version (`[ComfyUI](https://github.com/…) v0.12.3`): its text is the name."""


def nested_file_scopes(para: Paragraph, auditor: Auditor) -> dict[int, Auditor | None]:
    """The auditor of each line of a list item whose nested items name one audited Dockerfile by its
    file name, and no other (`- **`ROCM_VERSION`** (default: `7.1.1`)` over `  - Used in: Makefile
    line 12, Dockerfile ARG`): that Dockerfile's, for the item and its nested items. With one Dockerfile
    audited, none."""
    if len(auditor.models) < 2:
        return {}
    scopes: dict[int, Auditor | None] = {}
    item: list[tuple[int, str]] = []

    def close() -> None:
        nested = " ".join(text for _, text in item[1:])
        named = [m for m in auditor.models if _names_file(nested, basename(m.path))]
        if len(named) == 1:
            scopes.update(dict.fromkeys((line for line, _ in item), auditor._with((named[0],))))

    for line, text in para.lines:
        marker = LIST_ITEM.match(text)
        if marker is not None and (not item or _indent(text) <= _indent(item[0][1])):
            if item:
                close()
            item = [(line, text)]
        elif item:
            item.append((line, text))
    if item:
        close()
    return scopes


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _names_file(text: str, name: str) -> bool:
    """True when `text` names the file `name` as a word of its own (`Dockerfile ARG` names `Dockerfile`,
    not `Dockerfile.minimal`)."""
    return re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w-]|\.\w)", text) is not None


def audit_paragraph(para: Paragraph, auditor: Auditor, untitled: bool = False) -> Iterator[Diagnostic]:
    """The claims of one paragraph (or list) of prose that contradict `auditor`'s images. `untitled`: the
    paragraph is under no heading but the README's title (`wording.listed_versions`)."""
    scopes = item_auditors(para, auditor)
    for line, judge in nested_file_scopes(para, auditor).items():
        scopes.setdefault(line, judge)
    for line, one in item_scopes(para.lines, auditor).items():
        scopes.setdefault(line, one)
    if scopes:  # items bound to an image by a note: each checked with that image alone
        yield from _audit_scoped_paragraph(para, auditor, scopes)
        return
    if about_project_setup(para.heading):  # `## Installation`: the project's needs, not the image's
        auditor = auditor.without_defaults
    stages = stage_lines(para.lines, para.heading, auditor.stages)  # lines describing a build stage
    # `- PyTorch 2.5.1` under `## Versions`, or a list of nothing else under no heading but the title
    listed = listed_versions(para.heading, para.lines, untitled, para.before)
    # `- PyTorch 2.1.0 with CUDA 12.1` under `## What's Included`: its opening version as sure as a bare one
    opened = opened_versions(para.heading, para.lines, para.before) - listed
    plain = about_this_image(para.heading)
    # `- CUDA 12.1: `--cuda-index-url …/cu121`` under `override via `--cuda-index-url`:`: a value to pass
    offered = offered_items(para.lines, para.before)
    # `Jetson images were built with CUDA 10.1.`: that sentence is compared with the Jetson image alone
    rest, members = member_sentences(para.lines, auditor)
    for judge, lines in [(auditor, rest), *members]:
        for line, text in lines:
            if not text.strip() or _HOST_ENV_COMMAND.match(text):
                continue
            yield from audit_text(
                line,
                text,
                judge,
                prose=True,
                stage=stages.get(line),
                listed=line in listed,
                plain=plain,
                opened=line in opened,
                offered_item=line in offered,
            )
    for line, text in para.lines:
        if _LINKED_NAME.search(text):  # `[ComfyUI](https://…) v0.12.3`: the link's text names it
            named = _LINKED_NAME.sub(r"\1", text)
            yield from audit_text(line, named, auditor, prose=True, stage=stages.get(line))
    yield from _bases_of_each(para, auditor)
    # Backticked names are build-arg claims only in build-arg context: a sentence that mentions build
    # args, or a list item that starts with the name under a build-args heading or introduction.
    # The nearest introduction naming another tool's arguments (`Required CMake build arguments:`)
    # outranks a heading about build args.
    intro = para.lines[0][1] + (" " + para.before if para.before.rstrip().endswith(":") else "")
    # `CMake options:`, `## Environment variables`: its items' defaults are that tool's, or the
    # container's (`env_defaults` compares those with ENV), not a build arg's
    other_tool = other_tool_args(intro) or about_env(para.heading) or about_env(intro)
    list_context = not other_tool and bool(
        about_build_args(para.heading)
        or (para.before.rstrip().endswith(":") and about_build_args(para.before))
        or about_build_args(para.lines[0][1])
    )
    yield from _assignment_list(para, auditor)
    for line, text in para.lines:
        item = LIST_ITEM.match(text)
        if not item:
            continue
        body = text[item.end() :].lstrip("*_[ ")
        spans = code_spans(body, html_code=True)
        lead = _DEFAULT_LEAD.match(body)  # `Default `CUDA` is `10.0-…``: the name after the word
        if spans and lead and spans[0][0] == lead.end():
            name = spans[0][2].strip()
            is_value = _IS_VALUE.match(body, spans[0][1])
            value = code_spans(body[is_value.end() :], html_code=True) if is_value else []
            if is_value and value and value[0][0] == 0 and name in auditor.declared:
                claim = default_in_cell(body[is_value.end() :][: value[0][1]])
                yield from some(auditor.default_claim(line, name, claim, LIKELY))
            continue
        if not spans or spans[0][0] != 0:
            continue
        yield from _shared_default(line, body, spans, auditor)
        name = spans[0][2].strip().split("=", 1)[0].strip()
        if UPPER_SNAKE.match(name) and (list_context or about_build_args(text)):
            said = " ".join((para.heading, para.before, para.lines[0][1], text))
            if name not in auditor.runtime or build_evidence(said):
                yield from some(auditor.arg_claim(line, name, LIKELY))
        if name not in auditor.declared or other_tool:
            continue
        # A default: `CUDA_VERSION` set to `12.4.0` (right after the name), `BUILD_FA`: … default is `1`.
        default = _SET_TO.match(body, spans[0][1]) or _DEFAULT_IS.search(body, spans[0][1])
        value = code_spans(body[default.end() :], html_code=True) if default else []
        if default and value and value[0][0] == 0:
            claim = default_in_cell(body[default.end() :][: value[0][1]])
            yield from some(auditor.default_claim(line, name, claim, LIKELY))
    for chunk in _items(para):
        yield from _audit_sentences(chunk, auditor, defaults=not other_tool)


_NAME_JOINER = re.compile(r"[ \t]*(?:,|/|&|\band\b|\bor\b)[ \t]*(?:(?:and|or)[ \t]+)?")
"""What separates the names a list item starts with: `` `A`, `B` and `C` ``, `` `A` / `B` ``."""
_SHARED_DEFAULT = re.compile(
    r"\b(?:by[ \t]+default,?[ \t]+(?:they|these|both|all[ \t]+of[ \t]+them|each[ \t]+of[ \t]+them)"
    r"[ \t]+(?:are|=)(?:[ \t]+(?:equal|set)[ \t]+to)?"
    r"|(?:they|these|both)[ \t]+(?:all[ \t]+)?default[ \t]+to"
    r"|their[ \t]+defaults?(?:[ \t]+values?)?[ \t]+(?:is|are))[ \t]*:?[ \t]*",
    re.IGNORECASE,
)
"""Words giving one default to every name a list item starts with: `By default, they are equal to
"master"`, `they default to `main``, `their default is `1``; `the default is` may be one name's."""
_QUOTED = re.compile(r"\"[^\"\s]{1,80}\"|'[^'\s]{1,80}'")


def _shared_default(
    line: int, body: str, spans: list[tuple[int, int, str]], auditor: Auditor
) -> Iterator[Diagnostic]:
    """A list item that starts with several build args in code (`` `A`, `B`, `C` - … ``) and gives them
    one default (`By default, they are equal to "master"`): that default against each one's ARG. The
    value is in code or in quotes; a value in words (`empty`) is not read."""
    names = [spans[0][2].strip()]
    end = spans[0][1]
    for start, stop, content in spans[1:]:
        joiner = _NAME_JOINER.fullmatch(body, end, start)
        if joiner is None:
            break
        names.append(content.strip())
        end = stop
    if len(names) < 2 or not all(UPPER_SNAKE.match(n) for n in names):
        return
    said = _SHARED_DEFAULT.search(body, end)
    if said is None:
        return
    rest = body[said.end() :]
    value = code_spans(rest, html_code=True)
    if value and value[0][0] == 0:
        claim = default_in_cell(rest[: value[0][1]])
    elif (quoted := _QUOTED.match(rest)) is not None:
        claim = default_in_cell(quoted.group())
    else:
        return
    for name in names:
        if name in auditor.declared:
            yield from some(auditor.default_claim(line, name, claim, LIKELY))


_EACH_IMAGE = re.compile(
    r"\bin[ \t]+(?:both|all)[ \t]+cases\b"
    r"|\b(?:both|each|every|all)[ \t]+(?:of[ \t]+)?(?:the[ \t]+|these[ \t]+)?"
    r"(?:images?|dockerfiles?|containers?|variants?)\b",
    re.IGNORECASE,
)
"""A sentence about each image of the section (`In both cases, the default base image is …`)."""


def _bases_of_each(para: Paragraph, auditor: Auditor) -> Iterator[Diagnostic]:
    """A base image stated in a sentence that says it is each image's (`In both cases, the default base
    image is nvidia/cuda:11.5.2-devel-ubuntu20.04`), in a section about several images: compared with
    each of them, not only with one of them, as image references in prose are (`audit_text`)."""
    if len(auditor.models) < 2:
        return
    for start, _, sentence in sentences(para.lines):
        if not _EACH_IMAGE.search(sentence) or not BASE_WORDS.search(sentence):
            continue
        for match in IMAGE_REF.finditer(sentence):
            line = line_at(para.lines, start + match.start())
            for each in auditor.each:
                for found in audit_text(line, match.group(), each, prose=True):
                    if found.message.startswith(f"README says {match.group()} but"):
                        yield dataclasses.replace(found, confidence=LIKELY)


def _audit_scoped_paragraph(
    para: Paragraph, auditor: Auditor, scopes: dict[int, Auditor | None]
) -> Iterator[Diagnostic]:
    """`para` whose list items bind some of its lines to other images: the lines of each image, with
    the text introducing the list, audited with that image's auditor; a sibling's not at all."""
    first = next((i for i, (_, text) in enumerate(para.lines) if LIST_ITEM.match(text)), len(para.lines))
    intro = " ".join(text.strip() for _, text in para.lines[:first]) or para.before
    groups: dict[int, tuple[Auditor, list[tuple[int, str]]]] = {}
    for line, text in para.lines:
        judge = scopes.get(line, auditor)
        if judge is not None:
            groups.setdefault(id(judge), (judge, []))[1].append((line, text))
    for judge, lines in groups.values():
        yield from audit_paragraph(Paragraph(lines, para.heading, intro, para.section), judge)
    # A note binding some items to one image says the others are about each image of the section:
    # their defaults must be each one's (not only one's, as in a list about a family).
    ours = [judge for judge in scopes.values() if judge is not None and judge.models != auditor.models]
    unscoped = groups.get(id(auditor))
    if ours and unscoped and len(auditor.models) > 1:
        for each in auditor.each:
            part = Paragraph(unscoped[1], para.heading, intro, para.section)
            yield from (d for d in audit_paragraph(part, each) if _DEFAULT_FINDING.search(d.message))


_DEFAULT_FINDING = re.compile(r"\A(?:README says [A-Z][A-Z0-9_]* (?:defaults to|has no default))")
"""A finding about a build arg's default (`default_claim`)."""


def _assignment_list(para: Paragraph, auditor: Auditor) -> Iterator[Diagnostic]:
    """A list of `NAME=VALUE` items introduced as build args or their defaults ("Default build
    variables:", "默认参数变量："): each default against the ARG's, each name no ARG declares. A list is
    about build args when its introduction (the line ending in `:` before it, else the heading) says so,
    or most of its names are declared ARGs; its values are defaults only when the introduction says
    "default" (else they are values to pass)."""
    first = next((i for i, (_, text) in enumerate(para.lines) if LIST_ITEM.match(text)), None)
    if first is None:
        return
    lead = " ".join(text.strip() for _, text in para.lines[:first]) or para.before.strip()
    intro = lead if lead.endswith((":", "：")) else para.heading
    items = [(line, text[m.end() :]) for line, text in para.lines if (m := LIST_ITEM.match(text))]
    assignments = [(line, m) for line, body in items if (m := ASSIGNMENT.match(body))]
    if not intro or not assignments or len(assignments) * 2 < len(items) or other_tool_args(intro):
        return
    declared = sum(1 for _, m in assignments if m.group(1) in auditor.declared)
    if not about_build_args(intro) and (
        NOT_BUILD_ARG_WORDS.search(intro) or declared * 2 <= len(assignments)
    ):
        return
    defaults = bool(DEFAULT_WORDS.search(intro))
    # A one-word name (`PYTHON=3.11`) is a claim only under words that can only mean build args.
    strict = says_build_args(intro)
    for line, match in assignments:
        name, value = match.group(1), match.group(2).strip("\"'")
        if name in auditor.declared:
            if defaults and value:
                yield from some(auditor.default_claim(line, name, default_in_cell(value), LIKELY))
        elif UPPER_SNAKE.match(name) or strict:
            yield from some(auditor.arg_claim(line, name, LIKELY))


def _audit_sentences(
    lines: list[tuple[int, str]], auditor: Auditor, *, defaults: bool = True
) -> Iterator[Diagnostic]:
    """Backticked UPPER_SNAKE names (and `NAME=VALUE` lists, `_BARE_ASSIGNMENT`) in sentences of `lines`
    (one list item or paragraph) that mention build args; required args and defaults stated in any
    sentence (`_stated_arg_defaults`) unless `defaults` is false (a list of another tool's options or
    of environment variables: its defaults are not a build arg's)."""
    joined = ""
    offsets: list[int] = []
    for _, text in lines:
        offsets.append(len(joined))
        joined += text + " "
    sentence_start = 0
    for boundary in [*SENTENCE_END.finditer(joined), None]:
        end = boundary.start() if boundary else len(joined)
        sentence = joined[sentence_start:end]

        def line_at(offset: int, base: int = sentence_start) -> int:
            return lines[bisect.bisect_right(offsets, base + offset) - 1][0]

        about = about_build_args(sentence)
        claims = bool(_ARG_CLAIM_WORDS.search(sentence))
        spans = code_spans(sentence, html_code=True) if about or claims else []
        if about:
            # `NAME=VALUE` lists of one-word names only in words that can only mean build args
            # (`Build args: CUDA=12.4 PYTHON=3.11`), never next to env words (`docker run -e PORT=80`).
            strict = says_build_args(sentence)
            for start, _, content in spans:
                assignment = ASSIGNMENT.fullmatch(content.strip())
                name = content.strip().split("=", 1)[0].strip()
                if (UPPER_SNAKE.match(name) or (strict and assignment)) and (
                    name not in auditor.runtime or build_evidence(sentence)
                ):
                    yield from some(auditor.arg_claim(line_at(start), name, LIKELY))
            if strict:
                bare = sentence
                for start, stop, _ in spans:  # what is in code was checked above
                    bare = bare[:start] + " " * (stop - start) + bare[stop:]
                for match in _BARE_ASSIGNMENT.finditer(bare):
                    yield from some(auditor.arg_claim(line_at(match.start(1)), match.group(1), LIKELY))
        if claims and defaults:
            yield from _stated_arg_defaults(sentence, spans, line_at, auditor)
        sentence_start = boundary.end() if boundary else end


_BARE_ASSIGNMENT = re.compile(
    r"(?<![\w$./:=-])(?<!-e )(?<!-e=)(?<!--env )(?<!export )(?<!ENV )(?<!env )(?<!set )"
    r"([A-Z][A-Z0-9_]*)=(?=[\w\"'.:/-])"
)
"""`PYTHON=3.11` in prose, not after `-e`, `--env`, `export`, `ENV` or `set` (a variable of the shell
or of the running container)."""
_ARG_REQUIRED = re.compile(
    r"[ \t`*]*(?:\((?:required|mandatory)\)"
    r"|(?:must|needs?[ \t]+to|has[ \t]+to)[ \t]+be[ \t]+(?:explicitly[ \t]+)?"
    r"(?:specified|set|provided|given|passed|defined)"
    r"|is[ \t]+(?:required|mandatory)"
    r"|has[ \t]+no[ \t]+default(?:[ \t]+value)?)"
    r"(?![ \t]+(?:to|for|when|if|by|at|in|on|with|unless|only)\b)",
    re.IGNORECASE,
)
"""`X must be explicitly specified`, `X is required`, `X has no default`, right after the name, and
not for a case (`is required for GPU builds`, `must be set to your GPU`)."""
_ARG_DEFAULTS = re.compile(
    r"[ \t`*]*(?:\([ \t]*default(?:[ \t]+value)?[ \t]*(?:is|:|=)?"
    r"|(?:\([ \t]*)?(?:defaults[ \t]+to|default(?:[ \t]+value)?[ \t]*(?:is|:|=)))[ \t]*",
    re.IGNORECASE,
)
"""`X defaults to `12.4``, `X (default: `12.4`)`, `X (default `4`)`: the words before a default right
after the name."""
_PLAIN_DEFAULT = re.compile(
    r"(?:the[ \t]+)?(\"[^\"\s]{1,80}\"|'[^'\s]{1,80}'|[A-Za-z0-9](?:[\w.+/-]*[A-Za-z0-9])?)"
    r"(?![\w+/-]|\.\w)(?=[ \t]*(?:[.,;:()]|\Z))"
)
"""A default in plain words after them (`GPU_ARCH defaults to gfx942.`): one word with a digit, or quoted,
that ends the clause; not the first of a phrase, a choice or a case (`py3 images`, `12.4 or newer`,
`gfx942 on MI300`)."""


_ARG_CLAIM_WORDS = re.compile(r"default|required|mandatory|\b(?:must|needs?|has)\b", re.IGNORECASE)
"""A word `_ARG_REQUIRED` or `_ARG_DEFAULTS` needs: a sentence without one is not read for them."""


def _stated_arg_defaults(
    sentence: str,
    spans: list[tuple[int, int, str]],
    line_at: Callable[[int], int],
    auditor: Auditor,
) -> Iterator[Diagnostic]:
    """A declared build arg (in code, or a bare UPPER_SNAKE word) the sentence says has no default and
    must be passed, while the Dockerfile gives it one, or a default in code after it that differs from
    the Dockerfile's (one declared without a default included)."""
    names = [(start, stop, content.strip()) for start, stop, content in spans]
    span_end = {start: stop for start, stop, _ in spans}  # the sentence's spans, parsed once
    names += [
        (m.start(), m.end(), m.group()) for m in WORD.finditer(sentence) if UPPER_SNAKE.match(m.group())
    ]
    for start, stop, name in names:
        if name not in auditor.declared:
            continue
        if _ARG_REQUIRED.match(sentence, stop):
            yield from some(auditor.default_claim(line_at(start), name, "", LIKELY, required=True))
        elif (lead := _ARG_DEFAULTS.match(sentence, stop)) is not None:
            if (value_end := span_end.get(lead.end())) is not None:  # a code span right after the words
                claim = default_in_cell(sentence[lead.end() : value_end])
                yield from some(auditor.default_claim(line_at(start), name, claim, LIKELY))
            elif (plain := _PLAIN_DEFAULT.match(sentence, lead.end())) is not None and (
                plain.group(1)[0] in "\"'" or DIGIT.search(plain.group(1))
            ):
                claim = default_in_cell(plain.group(1))
                yield from some(auditor.default_claim(line_at(start), name, claim, LIKELY))


_SET_FOR_BUILD = re.compile(
    r"\b(?:replace|change|set|fill[ \t]+in|update|provide|substitute|put)[ \t]+(?:in[ \t]+)?"
    r"(?:the[ \t]+)?(?:(?:value|values)[ \t]+(?:of|for)[ \t]+)?`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`",
    re.IGNORECASE,
)
"""Words telling the reader to give a variable a value (`replace the value of `GITHUB_TOKEN``, `set
`HF_TOKEN``), the name in code, upper case with an `_` (`GITHUB_TOKEN`, not `TOKEN` nor `path`)."""
_BUILD_WORDS = re.compile(r"\bbuild(?:s|ing)?\b[^.]{0,60}\b(?:image|container|docker)\b", re.IGNORECASE)
"""A sentence about building the image (`Use the following command to build the docker image.`)."""


def set_for_build(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A paragraph telling to build the image (`Use the following command to build the docker image.`)
    right before a block whose build is a plain `docker build`, that tells the reader to set a variable
    for it (`Make sure to replace the value of `GITHUB_TOKEN` with your own token.`) while no audited
    Dockerfile names it (no ARG, no ENV, no `--mount=type=secret,id=…`, no use) and the block names it
    nowhere (no `--build-arg`, `--secret`, `export`): the build cannot see the value, the sentence
    documents a build arg that is gone (`auditor.arg_claim`, `certain`: the build command is read).
    Not a variable of another command (`docker run -e`), one the block sets or passes, nor a sentence far
    from the build (a paragraph with a blank line before the block is next to it; any other text is
    not)."""
    texts: list[str] | None = None
    opening: dict[int, Fence] = {}  # each block by its first line (the first of a line wins, as in order)
    for each in doc.fences:
        if each.lines:
            opening.setdefault(each.lines[0][0], each)
    for para in doc.paragraphs:
        last = para.lines[-1][0]
        fence = next((opening[at] for at in range(last + 1, last + 4) if at in opening), None)
        if fence is None or not any(BUILD_LINE.match(t) for _, t in fence.lines):
            continue
        said = " ".join(t for _, t in para.lines)
        if not _BUILD_WORDS.search(said):
            continue
        block = "\n".join(t for _, t in fence.lines)
        for line, text in para.lines:
            for found in _SET_FOR_BUILD.finditer(text):
                name = found.group(1)
                if name in block:
                    continue
                if texts is None:
                    read = (dockerfile_read(m.file) if m.file else None for m in auditor.models)
                    texts = [r[0] for r in read if r is not None]
                if len(texts) != len(auditor.models) or any(re.search(rf"\b{name}\b", t) for t in texts):
                    continue
                yield from some(auditor.arg_claim(line, name, CERTAIN))
