"""Table cells and table shapes: a cell as plain text, the build args, default or version it holds
(`none (required)`, `3.10 or newer`), and whether a table is a build-argument table or lists versions.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from docgen.audit.aside import config_file_keys, other_tool_args
from docgen.audit.versions import is_address, near_args
from docgen.audit.wording import ARG_NAME, NOT_BUILD_ARG_WORDS, UPPER_WORD, about_build_args
from docgen.markdown import Document, Table, code_spans, without_links

OR_NEWER = re.compile(r"[ \t]+(?:or|and)[ \t]+(?:newer|later|above|higher)", re.IGNORECASE)
MORE_VERSIONS = re.compile(r"[ \t]*(?:,|/|-+|–|to|and|or|through)[ \t]*v?\d", re.IGNORECASE)
OR_OLDER = re.compile(r"[ \t]+(?:or|and)[ \t]+(?:older|earlier|below|lower)", re.IGNORECASE)
MEASURED = re.compile(
    r"[*_`]*[ \t]*(?:%|×|x(?![\w.])|(?:tok(?:en)?s?|it|req(?:uest)?s?|samples?|frames?|images?|img|q)/s\b"
    r"|(?:tokens|requests|samples|frames|images)[ \t]+(?:per|a|/)[ \t]*s(?:ec(?:ond)?)?\b"
    r"|fps\b|[KMGT]i?B(?:/s)?\b|[KMGT]bps\b|ms\b|secs?\b|seconds\b|minutes\b|hours\b)",
    re.IGNORECASE,
)
"""A unit right after a number (`422.8 tok/s`, `1.5 GB`, `13.55x`, `88.6%`): a measure, not a release."""


def plain_cell(cell: str) -> str:
    """A table cell as plain text: entities decoded, links reduced to their text, emphasis removed."""
    text = html.unescape(cell.replace("\\|", "|"))
    text = without_links(text)
    return text.replace("**", "").replace("__", "").strip()


def texts_and_rows(doc: Document) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """(section, lines) of each paragraph, and of each table row as one line of its plain cells."""
    for para in doc.paragraphs:
        yield para.section, para.lines
    for table in doc.tables:
        for line, row in table.rows:
            yield table.section, [(line, " ".join(plain_cell(cell) for cell in row))]


def first_code(cell: str) -> str | None:
    """The content of the first code span (backticks or `<code>`) of a cell, if it has one."""
    text = cell.replace("\\|", "|")
    spans = code_spans(text, html_code=True)
    return html.unescape(spans[0][2]).strip() if spans else None


def arg_names_in_cell(cell: str) -> list[str]:
    """The build args a table cell names: each code span (`VLLM_TAG` / `AITER_TAG`), or the words of
    the cell when they are UPPER_SNAKE (`VLLM_TAG, AITER_TAG`)."""
    text = cell.replace("\\|", "|")
    spans = code_spans(text, html_code=True)
    if spans:
        found = []
        for _, _, content in spans:
            candidate = html.unescape(content).strip().removeprefix("--build-arg").strip()
            candidate = candidate.split("=", 1)[0].strip()
            if ARG_NAME.match(candidate):
                found.append(candidate)
            elif not found:
                return []
        return found
    words = [w.strip("*_ ") for w in re.split(r"[ \t]*(?:/|,|\bor\b|\band\b)[ \t]*", plain_cell(cell))]
    if all(UPPER_WORD.match(w) and len(w) > 2 for w in words):
        return words
    return []


_NO_VALUE = frozenset(
    {
        "pinned",
        "varies",
        "various",
        "required",
        "computed",
        "derived",
        "auto",
        "automatic",
        "see below",
        "see above",
        "see notes",
        "per variant",
        "per image",
        "set by ci",
        "ci",
        "generated",
        "latest pin",
    }
)
"""Words a default cell holds when it gives no value (`pinned`: there is one, the README does not say it)."""


REQUIRED_CELL = re.compile(
    r"(?:(?:none|no default|-|—|–)[ \t]*(?:[,;(][ \t]*)?)?\(?(?:required|mandatory|must be (?:explicitly )?"
    r"(?:set|specified|provided|given|passed))\)?\.?"
)
"""A default cell saying the arg has none and must be passed (`required`, `none (required)`)."""


def _forms(*words: str) -> frozenset[str]:
    return frozenset(
        form for word in words for form in (word, f"({word})", f"*({word})*", f"[{word}]", f"<{word}>")
    )


_EMPTY = (
    frozenset({"", "not set", "no default"}) | _forms("empty", "unset", "blank") | (_forms("none") - {"none"})
)
"""How people write "no default" in a table cell (`*(none)*`, the form docgen's own tables use)."""
_NO_MARK = frozenset({"-", "—", "–", "--", "n/a", "na", "tbd", "?", "…", "...", "none"})
"""A cell holding a mark rather than a value (`-`, a bare `none`, `n/a`): whether the arg has a
default, and which, it does not say (a column of them is often left unfilled), so it is no claim."""


_NOTHING = _EMPTY | _NO_MARK | _forms("none", "nothing", "not set", "no default") | {'""', "''", "``"}
"""Words and marks a README writes for a value that is empty (`*(empty)*`, `(none)`, `""`, `-`)."""


def empty_word(text: str) -> bool:
    """Whether `text`, a value a README gives, spells an empty one as a word or a mark (`*(empty)*`,
    `(none)`, `""`, `empty`, `-`, `` `unset` ``), emphasis and code marks around it left out."""
    bare = text.strip().strip("*_` ").strip()
    return bare.lower() in _NOTHING


def default_in_cell(cell: str) -> str | None:
    """The default a table cell claims, normalised ('' for empty), None when it is free text or a mark
    giving no value (`-`, `none`, `pinned`, `see below`)."""
    code = first_code(cell)
    text = code if code is not None else plain_cell(cell).strip("*_ ")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    if text.lower() in _NO_MARK:
        return None
    if text.lower() in _EMPTY:
        return ""
    if code is None and text.lower().rstrip(".") in _NO_VALUE:
        return None
    if code is None:
        words = text.split()
        if len(words) >= 2 and any(w.isalpha() and len(w) > 1 for w in words):
            return None
    return text


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#]+(/[^\s?#]*)?")
_POSSESSIVE = re.compile(r"(?<![\w.-])([A-Za-z0-9][\w.-]*)(?:'s|’s)\b")


def url_description(cell: str, value: str) -> bool | None:
    """Whether a default cell describes the URL `value` (a build arg's default) rather than stating
    it: True for a backticked last path segment of it (`` froggeric's `chat_template.jinja` `` for
    `https://huggingface.co/froggeric/…/chat_template.jinja`, or the segment alone) whose owner words
    (`froggeric's`), when there are any, name a part of the URL; False when the owner words name none
    (the URL's owner changed); None when the cell is no such description (compared as written)."""
    url = _URL.fullmatch(value.strip())
    code = first_code(cell)
    if url is None or code is None or "/" in code:
        return None
    segments = [s for s in (url.group(1) or "").split("/") if s]
    if not segments or code != segments[-1]:
        return None
    rest = plain_cell(re.sub(r"`[^`]*`|<code>.*?</code>", " ", cell.replace("\\|", "|")))
    owners = [m.group(1).lower() for m in _POSSESSIVE.finditer(rest)]
    if not owners:
        return True
    parts = {p.lower() for p in [*segments, *url.group(0).split("/")[2:3]]}
    named = any(owner == part or owner in part.split(".") for owner in owners for part in parts)
    return named


_ARG_HEADER = re.compile(r"(?:docker[ ]+)?(?:build[- ]?)?arg(?:ument)?s?(?:[ ]+name)?|--build-arg|构建参数")
"""A name column's header that says build args: `Argument`, `Build arg`, `ARG name`, `构建参数`."""
_NAME_HEADERS_OF_ARGS = frozenset(
    {"name", "variable", "parameter", "option", "setting", "key", "参数", "参数名", "变量", "变量名", "名称"}
)
"""A name column's header in a table its context says is about build args (`## Build args` over
`| Name | Default |`, `| 参数 | 默认值 |`)."""
_DEFAULT_HEADERS = frozenset({"value", "默认值", "默认", "缺省值", "預設值", "默認值", "值"})
"""A default column's header that does not start with `default`: `| Argument | Value |`, `| 参数 |
默认值 |`."""


def is_build_arg_table(
    table: Table, declared: frozenset[str] = frozenset(), passed: frozenset[str] = frozenset(), over: str = ""
) -> int | None:
    """The column naming build args when `table` is a build-argument table, else None: by its header,
    or (a header in another language, `| 参数 | 默认值 |`) by its first column, when at least two rows
    and most of them name, in code, a build arg that is `declared`, or, in code or not, whatever the
    header says (`| Environment Variable Name |`), one a compose or bake file passes (`passed`). Not by
    its first column when the headings `over` it say it lists configuration files' keys (`## Build
    config files`): a script reads those, and passes only some of them to `docker build`."""
    header = [plain_cell(h).strip("*_` ").lower() for h in table.header]
    if other_tool_args(table.context + " " + " | ".join(header)):
        return None  # `### CMake build arguments` over `| Argument | Default |`: `cmake -D` options
    for index, cell in enumerate(header):
        if _ARG_HEADER.fullmatch(cell):
            return index
    if about_build_args(table.context) and not NOT_BUILD_ARG_WORDS.search(" ".join(header)):
        for index, cell in enumerate(header):
            if cell in _NAME_HEADERS_OF_ARGS:
                return index
    if passed:
        plain = [plain_cell(cells[0]).strip("*_` ") for _, cells in table.rows if cells]
        hits = sum(1 for name in plain if name in passed)
        if hits >= 2 and 2 * hits > len(table.rows):
            return 0
    named = [cells[0] for _, cells in table.rows if cells and first_code(cells[0]) is not None]
    hits = sum(1 for cell in named if first_code(cell) in declared)
    if hits >= 2 and 2 * hits > len(table.rows) and not NOT_BUILD_ARG_WORDS.search(table.context):
        return None if config_file_keys(over + " " + table.context) else 0
    return None


_PASSED_VALUES = re.compile(r"\b(?:examples?|e\.g\.|passe[sd]|pass|CI)\b|示例|例如", re.IGNORECASE)
"""Words saying a table's values are ones a build passes (`Values used by CI:`), not defaults."""


def default_column(header: list[str], context: str = "") -> int | None:
    """The column of a build-argument table holding the defaults: the first whose header (plain, lower
    case) starts with `default` (`Default`, `Default value`), else one named as a value in other words
    (`Value`, `默认值`), unless the words before the table say its values are passed (`Values used by
    CI:`, `Example values`)."""
    found = next((i for i, h in enumerate(header) if h.startswith("default")), None)
    if found is None and not _PASSED_VALUES.search(context):
        found = next((i for i, h in enumerate(header) if h in _DEFAULT_HEADERS), None)
    return found


_VARIABLE_HEADER = re.compile(r"(?:env(?:ironment)?[ ]+)?var(?:iable)?s?(?:[ ]+names?)?")
"""A name column headed as variables: `Environment Variable Name`, `Variable`, `Env var`."""


def is_variable_table(table: Table, declared: frozenset[str]) -> int | None:
    """The column naming variables when `table`'s name column is headed as variables (`| Environment
    Variable Name | Default Value |`), at least two rows name (in code or not) a build arg that is
    `declared`, and most rows name one or a name a slip away from one (`INC_VERSION` for `INC_VER`):
    the build args of the image, listed as the variables to set. A table of run-time variables names
    mostly others, and is not one."""
    header = [plain_cell(h).strip("*_` ").lower() for h in table.header]
    column = next((i for i, h in enumerate(header) if _VARIABLE_HEADER.fullmatch(h)), None)
    if column is None or other_tool_args(table.context + " " + " | ".join(header)):
        return None
    names = [plain_cell(cells[column]).strip("*_` ") for _, cells in table.rows if column < len(cells)]
    hits = sum(1 for name in names if name in declared)
    near = sum(1 for name in names if name not in declared and near_args(name, declared))
    return column if hits >= 2 and 2 * (hits + near) > len(table.rows) else None


_VERSION_HEADER = re.compile(
    r"(?:pinned |current |default )?(?:version|versions|tag|commit|ref|release|pin)"
    r"(?:[ /]+(?:or|and)?[ /]*\w+)?"
)
"""A version column's header: `Version`, `Pinned version`, `Tag`, `Version or source`, `Version / ref`."""
_NAME_HEADERS = frozenset(
    {"component", "package", "name", "library", "software", "dependency", "framework", "tool", "project"}
)


def version_columns(table: Table) -> tuple[int, int] | None:
    """(name column, version column) when `table` lists versions of components: the column called
    `Version` (or `Tag` …), else the first one headed by a release (`| Component | 25.04 | 25.03 |`, NGC's
    support matrix, newest first)."""
    header = [plain_cell(h).strip("*_` ").lower() for h in table.header]
    version = next((i for i, h in enumerate(header) if _VERSION_HEADER.fullmatch(h)), None)
    if version is None:
        version = next((i for i, h in enumerate(header) if i and re.fullmatch(r"v?\d+(?:\.\d+)+", h)), None)
    if version is None and len(header) >= 2 and len(table.rows) >= 2:
        # By content (a header in another language, `| 组件 | 版本或来源 |`): a column most of whose cells
        # start with a version, next to a first column of names. A bare number is no version here: a
        # column of them holds ports, counts or sizes (`| colmap | 50052 |` under `Host port`).
        cells = [0] * len(header)  # per column, its cells and those starting with a version (read once)
        versioned = [0] * len(header)
        for _, row in table.rows:
            for index, cell in enumerate(row[: len(header)]):
                cells[index] += 1
                found = version_in_cell(cell)
                versioned[index] += found is not None and not found.isdigit()

        def most(index: int, versions: bool) -> bool:
            hits = versioned[index] if versions else cells[index] - versioned[index]
            return 2 * hits > len(table.rows)

        # (Several such columns are a column per component: `_audit_other_table`'s.)
        columns = [i for i in range(1, len(header)) if most(i, versions=True)]
        if len(columns) == 1 and most(0, versions=False):
            version = columns[0]
    if version is None or len(header) < 2:
        return None
    name = next((i for i, h in enumerate(header) if h in _NAME_HEADERS and i != version), None)
    if name is None:
        name = 0 if version != 0 else 1
    return name, version


def version_in_cell(cell: str) -> str | None:
    """The version a cell starts with (`3.10+` for `3.10 or newer`), None for none or several."""
    code = first_code(cell)
    text = code if code is not None else plain_cell(cell)
    match = re.match(r"[ \t]*(?:(==|>=)[ \t]*)?(v?\d[A-Za-z0-9.+!-]*|[0-9a-f]{7,40}(?![A-Za-z0-9]))", text)
    if not match or OR_OLDER.match(text, match.end()) or MORE_VERSIONS.match(text, match.end()):
        return None
    if MEASURED.match(text, match.end()):
        return None  # `422.8 tok/s`, `1.5 GB`: a measure, not a release
    if is_address(match.group(2), text[match.end() : match.end() + 8]):
        return None  # `127.0.0.1:9090`: an address, not a version
    version = match.group(2).rstrip(".")
    newer = match.group(1) == ">=" or OR_NEWER.match(text, match.end())
    return version + "+" if newer and not version.endswith("+") else version


def name_in_cell(cell: str) -> str:
    text = plain_cell(cell).replace("`", "")
    return text.split("(", 1)[0].strip("*_ \t")
