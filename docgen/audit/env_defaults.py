"""Defaults a README gives the environment variables of a container of the image, against the value
the image's ENV sets: a `Default` column (or `default is 0.90` in a cell) of a table of environment
variables, and `` `NAME=VALUE` `` in a sentence saying it is the default (`The image sets
`PIN_MEMORY=1` by default`).

Only a variable the image built sets (an ENV of its target stage, inherited ones included) with a
value docgen knows is compared; a variable the Dockerfile leaves to the base image or the application
says nothing here. The ENV value is what a container starts with, so a different default is a finding:
`certain`, or `likely` when the container starts a script, which may set it again.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY, Auditor
from docgen.audit.cells import empty_word
from docgen.audit.paths import resolves_inside
from docgen.audit.wording import (
    CODE_NAME,
    about_build_args,
    about_env,
    heading_of,
    is_example,
    sentences,
)
from docgen.files import real_path, text_or_none
from docgen.markdown import Document, ListBlock, code_spans, headings_over, lists
from docgen.model import Diagnostic, ImageModel
from docgen.script_env import environment_defaults

_ENV_COLUMN = re.compile(r"[ \t*]*env(?:ironment)?[ \t]+(?:name|var(?:iable)?)s?\b", re.IGNORECASE)
"""A name column headed `Env Name`, `Environment variable`."""
_DEFAULT_HEADER = re.compile(r"\bdefault\b|默认", re.IGNORECASE)
_DEFAULT_IN_CELL = re.compile(
    r"\bdefaults?(?P<joined>(?:[ \t]+(?:value|is|to))*[ \t]*[:=]?)[ \t]*"
    r"(`[^`]{1,80}`|[\"'][^\"']{1,80}[\"']|[\w.:/-]{1,80})",
    re.IGNORECASE,
)
"""`default is 0.90`, `Default: `8080``, `defaults to "auto"`, `(default 1)` in a description cell."""
_WHEN_WORD = frozenset(
    {
        "for",
        "on",
        "in",
        "at",
        "with",
        "when",
        "where",
        "if",
        "unless",
        "since",
        "from",
        "under",
        "of",
        "per",
        "across",
        "except",
        "depending",
        "the",
        "a",
        "an",
        "this",
        "that",
        "and",
        "or",
        "but",
        "only",
    }
)
"""A word after `default` that starts a condition or a phrase, not a value: `(default for gfx1100)`,
`default on ROCm builds`, `the default when unset`."""
_MORE_WORDS = re.compile(r"[ \t]+[\w`(]")
_NO_VALUE = frozenset({"", "-", "—", "none", "n/a", "(none)", "*(none)*", "(empty)", '""', "''", "unset"})
_COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")
"""A commit, maybe shortened: a shorter one that begins a longer one is the same."""
_SAID = re.compile(r"`([A-Z][A-Z0-9_]*)=([^`\s]{0,80})`")
"""`` `NAME=VALUE` `` in code in a sentence."""
_DEFAULT_WORD = re.compile(r"\bby[ \t]+default\b|\bdefaults?[ \t]+to\b|\bthe[ \t]+default\b", re.IGNORECASE)
_NOT_THE_IMAGE = re.compile(
    r"(?:-e|--env)[ \t]+`?$|\bnot\b|n't\b|\bif\b|\bwhen\b|\bunless\b|\bcompose\b|\b\.env\b|\bhost\b",
    re.IGNORECASE,
)


def env_defaults(part: Document, whole: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """Each default the part's tables of environment variables, and its sentences, give a variable
    every image compared sets to another value with ENV."""
    envs = [final_env(model) for model in auditor.models]
    if not any(envs):
        return
    for table in part.tables:
        if not table.header:
            continue
        if not any(about_env(t) for t in (table.header[0], heading_of(whole, table.line), table.context)):
            if not _ENV_COLUMN.match(table.header[0]):
                continue
        column = next((i for i, cell in enumerate(table.header) if _DEFAULT_HEADER.search(cell)), None)
        needed = next((i for i, cell in enumerate(table.header) if _REQUIRED_HEADER.search(cell)), None)
        for line, cells in table.rows:
            name = CODE_NAME.match(cells[0]) if cells else None
            if name is None:
                continue
            said = cell_default(cells, column)
            if said is not None:
                yield from _compare(auditor, envs, line, name.group(1), said)
            elif column is not None and needed is not None and max(column, needed) < len(cells):
                if cells[column].strip().strip("`").lower() in _NO_VALUE and _YES.match(cells[needed]):
                    yield from _required_yet_defaulted(auditor, envs, line, name.group(1))
    yield from _listed_values(part, whole, auditor, envs)
    yield from _labelled_defaults(part, auditor, envs)
    for para in part.paragraphs:
        if not _DEFAULT_WORD.search(" ".join(text for _, text in para.lines)):
            continue  # (most paragraphs)
        for _start, _end, sentence in sentences(para.lines):
            if not _DEFAULT_WORD.search(sentence) or _NOT_THE_IMAGE.search(sentence):
                continue
            for match in _SAID.finditer(sentence):
                before = sentence[max(0, match.start() - 12) : match.start()]
                if is_example(sentence, match) or _NOT_THE_IMAGE.search(before):
                    continue  # (`before`: a `-e` right before it passes the value at run time)
                line = next((n for n, t in para.lines if match.group(0) in t), para.lines[0][0])
                yield from _compare(auditor, envs, line, match.group(1), match.group(2).strip("\"'"))


_LABEL = re.compile(
    r"[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?[*_]{0,2}`?([A-Z][A-Z0-9_]{2,})`?[*_]{0,2}"
    r"[ \t]*(?::|[ \t]-|[ \t]?[–—])[ \t]"
)
"""A line (or list item) that is about one variable, named first: `MODEL_NAME: Set this to …`,
`` - `PORT` – the port to serve on ``."""
_LABEL_DEFAULT = re.compile(
    r"\bdefaults?(?:[ \t]+(?:value|is|to|of))*[ \t]*[:=]?[ \t]*"
    r"(?:`([^`\s]{1,80})`|\"([^\"\s]{1,80})\"|'([^'\s]{1,80})'|(?![:=])([\w.:/-]*[\d./:-][\w.:/-]*)"
    r"|([A-Za-z]\w{0,40})(?=[ \t]*\)))",
    re.IGNORECASE,
)
"""The default such a line gives: `default: `8000``, `defaults to "auto"`, `the default
google/gemma-2b-it model`, `(default: true)`; a bare word is a value only with a digit, dot, slash,
colon or dash in it (`the default revision` names none), or when it alone closes a parenthesis
(`(default: true)`, `(default on)`). The `:` after `default` is never the value (`(default: )`)."""


def _labelled_defaults(
    part: Document, auditor: Auditor, envs: list[dict[str, tuple[str, int, str]]]
) -> Iterator[Diagnostic]:
    """The default a line about one variable gives it (`MODEL_NAME: … Remove this variable to deploy
    the default google/gemma-2b-it model`, `` - `PORT`: port to serve on (default: `8080`) ``) when
    every image compared gives that variable a value (an ENV, or a default the started command reads
    it with): a different one is a finding (`_compare`). Lines about build args (their defaults are
    the ARG's) and sentences about a compose file, the host or a condition are left alone."""
    given = set.intersection(*(set(env) for env in envs)) if envs else set()
    if not given:
        return
    for para in part.paragraphs:
        if about_build_args(para.heading):
            continue
        for line, text in para.lines:
            label = _LABEL.match(text)
            if label is None or label.group(1) not in given or about_build_args(text):
                continue
            rest = text[label.end() :]
            for _start, _end, sentence in sentences([(line, rest)]):
                said = _LABEL_DEFAULT.search(sentence)
                if said is None or _NOT_THE_IMAGE.search(sentence) or is_example(sentence, said):
                    continue
                value = next(group for group in said.groups() if group is not None).rstrip(".,;:")
                if value.lower() in _NO_VALUE or not any(c.isalnum() for c in value):
                    break  # a value is never empty nor punctuation alone (`(default: -)`)
                yield from _compare(auditor, envs, line, label.group(1), value)
                break


_SET_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+`([A-Z][A-Z0-9_]*)=([^`\s$<>]{1,80})`")
"""A list item that starts with a variable and its value in code: `` - `FORCE_GPU=true` - Force GPU ``."""
_VALUE_ITEM = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(\*\*|__|)`?([A-Z][A-Z0-9_]*)`?\1[ \t]*[:=][ \t]*"
    r"`?([^`\s$<>]{1,80}?)`?[.,;]?[ \t]*\Z"
)
"""A list item that is a variable and one value, nothing more: `- **LAUNCHER_VERSION**: 24.12`,
`` - `OMP_NUM_THREADS`: `8` `` (a description, `- **PORT**: the port to serve on`, is more words)."""


def _listed_values(
    part: Document, whole: Document, auditor: Auditor, envs: list[dict[str, tuple[str, int, str]]]
) -> Iterator[Diagnostic]:
    """The `` `NAME=VALUE` `` items of the lists under a heading about environment variables (`##
    Environment Variables`, maybe with a subheading naming the image, `### ROCm Variant`): what the
    image sets. A value every image compared sets otherwise is a finding (`_compare`); so is, for a part
    of the README about some images of several, a variable none of them sets (no ENV or ARG of it) while
    another image of the README sets it with ENV: `certain`, the list is of image settings, and the
    siblings show this is one."""
    listed = [items for block in lists(part) if (items := _set_items(whole, block))]
    if not listed:
        return
    # lists of the values the images set, not of examples to pass: one of their items (of this part,
    # or of any list when the part is about some images of several) is an ENV as written
    mirrored = [it for items in listed for it in items]
    some = len(auditor.models) < len(auditor.family)
    if some:
        mirrored = [it for block in lists(whole) for it in _set_items(whole, block)]
    family = [final_env(model) for model in auditor.family]
    if not any(same(said, env[name][0]) for _, name, said in mirrored for env in family if name in env):
        return
    ours = {e.name for m in auditor.models for e in m.env} | {a.name for m in auditor.models for a in m.args}
    for items in listed:
        for line, name, said in items:
            yield from _compare(auditor, envs, line, name, said)
            if some and name not in ours:
                yield from _set_by_sibling(auditor, line, name, said)


def _set_items(whole: Document, block: ListBlock) -> list[tuple[int, str, str]]:
    """(line, name, value) of the `` `NAME=VALUE` `` items of `block` when it is under a heading about
    environment variables and nothing says they are not the image's (`compose`, `host`, `if`)."""
    titles = headings_over(whole, block.items[0][0]) if block.items else []
    if not any(about_env(t) for t in titles) or _NOT_THE_IMAGE.search(" ".join([block.intro, *titles])):
        return []
    found = []
    for line, text in block.items:
        if (m := _SET_ITEM.match(text)) is not None:
            found.append((line, m.group(1), m.group(2).strip("\"'")))
        elif (m := _VALUE_ITEM.match(text)) is not None and m.group(3).lower() not in _NO_VALUE:
            found.append((line, m.group(2), m.group(3).strip("\"'")))
    return found


def _set_by_sibling(auditor: Auditor, line: int, name: str, said: str) -> Iterator[Diagnostic]:
    """The finding for `name`, which no image of `auditor.models` sets, when another image of the
    family sets it with ENV: the ENV line shown is one setting the value said, if any."""
    ours = {m.path for m in auditor.models}
    setting = sorted(
        (not same(said, e.value or ""), model.path, e.line)
        for model in auditor.family
        if model.path not in ours
        for e in model.env
        if e.name == name
    )
    if setting:
        _, path, at = setting[0]
        said_of = ", ".join(sorted(ours))
        message = f"README says {said_of} sets {name}={said}, but it sets no {name} ({path}:{at} does)"
        yield Diagnostic(auditor.path, line, message, confidence=CERTAIN)


def cell_default(cells: list[str], column: int | None) -> str | None:
    """The default a row gives: its `Default` cell's first code span (or text), else `default is X`
    in one of its other cells; None when it gives none or one in words."""
    if column is not None:
        if column >= len(cells):
            return None
        cell = cells[column].strip()
        spans = code_spans(cell)
        value = spans[0][2] if spans else cell
    else:
        found = next((m for c in cells[1:] for m in [_DEFAULT_IN_CELL.search(c)] if m), None)
        if found is None or _says_when(found):
            return None
        value = found.group(2).strip("`")
    value = value.strip().strip("\"'").rstrip(".,;")
    if value.lower() in _NO_VALUE or " " in value:
        return None
    return value


_REQUIRED_HEADER = re.compile(r"\brequired\b|\bmandatory\b|必填|必须|必需", re.IGNORECASE)
_YES = re.compile(r"[ \t*]*(?:yes|y|true|required|✅|✔️?|☑️?|是)[ \t*]*(?:\Z|[ \t(])", re.IGNORECASE)
_FALLBACK = re.compile(r"\$\{([A-Z][A-Z0-9_]*):?-")
_STOPS = re.compile(r"-z[ \t]+\"?\$\{?NAME\b|\$\{NAME:?\?")


def _fallback(text: str, name: str) -> tuple[str, int] | None:
    """(value, line) of the literal `text` falls back to when `name` is unset: `${NAME:-value}`, the
    innermost of `${NAME:-${OTHER:-value}}`; None when it reads none, an empty one, one that expands
    anything else, or stops when it is unset (`[ -z "$NAME" ]`, `${NAME:?}`)."""
    if re.search(_STOPS.pattern.replace("NAME", re.escape(name)), text):
        return None
    for match in _FALLBACK.finditer(text):
        if match.group(1) != name:
            continue
        at = match.end()
        while (inner := _FALLBACK.match(text, at)) is not None:
            at = inner.end()
        end = text.find("}", at)
        value = text[at:end] if end > at else ""
        if not value or "$" in value or "\n" in value or len(value) > 200:
            return None
        return value, text.count("\n", 0, match.start()) + 1
    return None


def _required_yet_defaulted(
    auditor: Auditor, envs: list[dict[str, tuple[str, int, str]]], line: int, name: str
) -> Iterator[Diagnostic]:
    """A row of a table of environment variables with no default and `Required: Yes` for a variable
    every image compared gives a value when it is unset: an ENV, a default what it starts reads it with,
    or a fallback (`${NAME:-value}`) of a script its Dockerfile writes."""
    given: list[tuple[str, str]] = []
    for model, env in zip(auditor.models, envs, strict=True):
        if name in env:
            value, at, _how = env[name]
            given.append((value, f"{model.path}:{at}"))
            continue
        text = text_or_none(Path(model.file), 2_000_000) if model.file else None
        found = _fallback(text, name) if text is not None else None
        if found is None:
            return
        given.append((found[0], f"{model.path}:{found[1]}"))
    if not given or any(not value or "$" in value for value, _ in given):
        return
    shown = "; ".join(f"{where} gives it {value}" for value, where in given)
    yield Diagnostic(
        auditor.path,
        line,
        f"README's table says {name} is required and has no default, but the image gives it one when it is "
        f"unset: {shown}",
        confidence=LIKELY,
    )


def _says_when(found: re.Match[str]) -> bool:
    """Whether the words after `default` say when it is the default, not its value: a bare word
    followed by more words, that is a condition's or a phrase's word (`(default for gfx1100)`,
    `defaults to the latest`), or any word with no `is`, `to`, `:` or `=` before it (`default on
    ROCm builds`, `default enabled on MI300`). `(default 1)`, `(default on)`, `defaults to auto` give a
    value."""
    value = found.group(2)
    if value[0] in "`\"'" or not _MORE_WORDS.match(found.string, found.end()):
        return False
    if value.lower() in _WHEN_WORD:
        return True
    return not found.group("joined").strip() and value.isalpha()


def final_env(model: ImageModel) -> dict[str, tuple[str, int, str]]:
    """The variables the image built gives a known value → (value, line, how it gives it): an ENV of
    its target stage (`sets ENV PORT=8080`), else a default the command it starts with reads the
    variable with (`starts with ${MODEL_NAME:-llama}`)."""
    if model.target is None:
        return {}
    label = model.target.label
    env = {
        e.name: (e.value, e.line, f"sets ENV {e.name}={e.value}")
        for e in model.env
        if e.stage == label and e.value is not None
    }
    for name, (value, line) in _started_defaults(model).items():
        env.setdefault(name, (value, line, f"starts the container with ${{{name}:-{value}}}"))
    return env


_SHELL_C = re.compile(
    r'\A\[[ \t]*"(?:/bin/|/usr/bin/)?(?:sh|bash)"[ \t]*,[ \t]*"-c"[ \t]*,[ \t]*"(.*)"[ \t]*\]\Z', re.S
)
"""An exec-form command that is a shell's (`["sh", "-c", "…"]`): the text the shell expands."""


def _started_defaults(model: ImageModel) -> dict[str, tuple[str, int]]:
    """NAME → (default, Dockerfile line) of each variable the command a container of the image starts
    with reads with a default (`ENTRYPOINT python3 -m server --model ${MODEL_NAME:-llama}`): the last
    ENTRYPOINT and CMD of its target stage and the stages it builds on, in shell form or a shell's `-c`
    (an exec form expands nothing)."""
    chain = {s.label for s in model.chain()}
    found: dict[str, tuple[str, int]] = {}
    for keyword in ("ENTRYPOINT", "CMD"):
        last = next((s for s in reversed(model.settings) if s.keyword == keyword and s.stage in chain), None)
        if last is None:
            continue
        text = last.value.strip()
        if text.startswith("["):
            shell = _SHELL_C.match(text)
            if shell is None:
                continue
            text = shell.group(1)
        for name, (_, value) in environment_defaults(text).items():
            if value and "$" not in value:
                found.setdefault(name, (value, last.line))
    return found


def same(said: str, value: str) -> bool:
    """Whether the value a README says (`8080`, `*(empty)*`) is the one a file gives (`8080.0`, ``):
    case aside, a shortened commit, a number written otherwise, an empty value spelled as a word."""
    if said == value or said.lower() == value.lower():
        return True
    if value.strip() in ("", '""', "''") and empty_word(said):
        return True
    if _COMMIT.fullmatch(said) and _COMMIT.fullmatch(value):  # `878d65f` is the commit `878d65f2…`
        return value.lower().startswith(said.lower()) or said.lower().startswith(value.lower())
    try:
        return float(said) == float(value)
    except ValueError:
        return False


def _compare(
    auditor: Auditor, envs: list[dict[str, tuple[str, int, str]]], line: int, name: str, said: str
) -> Iterator[Diagnostic]:
    if "$" in said or "<" in said:
        return
    set_by = [(model, env[name]) for model, env in zip(auditor.models, envs, strict=True) if name in env]
    if not set_by or len(set_by) < len(envs):
        return  # an image leaves it to its base image or the application
    if any("$" in value or same(said, value) for _, (value, _at, _how) in set_by):
        return
    model, (value, at, how) = set_by[0]
    # a script the container starts may set an ENV's variable again; a default it reads is its own
    scripted = how.startswith("sets ENV") and any(
        ".sh" in s.value or "entrypoint" in s.value.lower()
        for m, _ in set_by
        for s in m.settings
        if s.keyword in ("ENTRYPOINT", "CMD")
    )
    yield Diagnostic(
        auditor.path,
        line,
        f"README says {name} defaults to {said} but {model.path}:{at} {how}",
        confidence=LIKELY if scripted else CERTAIN,
    )


# --------------------------------------------------------------------------------------------------
# a default nothing gives: the variable is substituted plainly and no file holds the value

_MOST_FILES = 3_000
_DEPTH = 5
_ENVSUBST = re.compile(r"(?<![\w-])envsubst(?![\w-])")
_SCRIPT_FILE = re.compile(
    r"\.(?:sh|bash|py|js|ts|go|rb|pl|ps1|bat|mk)\Z|\A(?:Makefile|Dockerfile.*|.*\.Dockerfile|.*compose.*\.ya?ml)\Z"
)
"""A file that reads a variable itself (a script, code, a Dockerfile, a compose file): not a template."""
_PROSE_FILE = re.compile(r"\.(?:md|markdown|rst|txt|adoc|html?)\Z", re.IGNORECASE)


def _project_texts(top: Path, readme: Path) -> list[tuple[Path, str]] | None:
    """(path, text) of each text file below `top` but pages of prose and the README (hidden folders
    left out, `_DEPTH` folders down); None when there are more than `_MOST_FILES` files."""
    found: list[tuple[Path, str]] = []
    base = len(top.parts)
    seen = 0
    for folder, dirs, names in os.walk(top):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d not in ("node_modules", "__pycache__")
            and len(here.parts) - base < _DEPTH
        )
        for name in sorted(names):
            seen += 1
            if seen > _MOST_FILES:
                return None
            path = here / name
            if _PROSE_FILE.search(name) or not resolves_inside(path, top) or real_path(path) == readme:
                continue
            text = text_or_none(path)
            if text is not None:
                found.append((path, text))
    return found


def unprovided_defaults(
    doc: Document, readme: str, directory: Path, project: Path | None, models: Sequence[ImageModel]
) -> Iterator[Diagnostic]:
    """A default a table of environment variables gives a variable that nothing gives: no image sets
    it (ENV, ARG, a default its command reads), a template of the project holds it plainly
    (`${MAX_SEQUENCE_LENGTH}` in a `config.pbtxt`, no `:-` default) while a file of the project runs
    `envsubst`, and no file naming it holds the value or assigns it one. A container started without
    it gets an empty value, not the default said (`likely`)."""
    rows: list[tuple[int, str, str]] = []
    for table in doc.tables:
        if not table.header:
            continue
        if not any(about_env(t) for t in (table.header[0], heading_of(doc, table.line), table.context)):
            if not _ENV_COLUMN.match(table.header[0]):
                continue
        column = next((i for i, cell in enumerate(table.header) if _DEFAULT_HEADER.search(cell)), None)
        if column is None:
            continue
        for line, cells in table.rows:
            named = CODE_NAME.match(cells[0]) if cells else None
            said = cell_default(cells, column) if named else None
            if named is None or said is None or "$" in said or "<" in said:
                continue
            key = named.group(1)
            if any(key in final_env(m) or any(a.name == key for a in m.args) for m in models):
                continue  # the image gives it a value (`env_defaults` compares it)
            rows.append((line, key, said))
    if not rows:
        return
    top = real_path(project if project is not None else directory)
    texts = _project_texts(top, real_path(directory / os.path.basename(readme)))
    if texts is None:
        return
    if not any(_ENVSUBST.search(text) for _, text in texts):
        return  # (a template only `envsubst` fills with an empty value; a program may default it)
    for line, name, said in rows:
        word = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
        naming = [(path, text) for path, text in texts if word.search(text)]
        value = re.compile(rf"(?<![\w.]){re.escape(said)}(?![\w.])")
        assigned = re.compile(
            rf"(?<![\w$]){re.escape(name)}[\"']?[ \t]*(?:=|:(?!-))[ \t]*[\"']?[^\s\"'$]"
            rf"|\$\{{{re.escape(name)}:?[-=]"
        )
        if not naming or any(value.search(t) or assigned.search(t) for _, t in naming):
            continue
        plain = re.compile(rf"\$\{{{re.escape(name)}\}}")
        where = next(
            (
                (path, text.count("\n", 0, m.start()) + 1)
                for path, text in naming
                if not _SCRIPT_FILE.search(path.name) and (m := plain.search(text)) is not None
            ),
            None,
        )
        if where is None:
            continue
        shown = where[0].relative_to(top).as_posix() if where[0].is_relative_to(top) else where[0].name
        yield Diagnostic(
            readme,
            line,
            f"README says {name} defaults to {said}, but nothing gives it a default: no Dockerfile sets it, "
            f"{shown}:{where[1]} substitutes ${{{name}}} with none, and no file naming it holds {said}",
            confidence=LIKELY,
        )
