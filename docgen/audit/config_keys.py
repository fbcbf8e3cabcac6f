"""A sentence of the prose that tells the reader to set, remove or change a named key of a config file of
the repository that has no such key, while it has one a slip away from it: "To use the camera model,
remove obstacle_sensor from [config/settings.yaml](config/settings.yaml)" while the file has
`object_sensor:` and no `obstacle_sensor` anywhere. The key was renamed; a reader looking for it finds
nothing to remove or set.

The file is a link, a code span or a path of the sentence with a config file's suffix (`.yaml`, `.yml`,
`.json`, `.toml`, `.ini`, `.cfg`, `.conf`, `.env`) that exists from the README's folder, inside the
repository. The key is a code span (`` `batch_size` ``, `` `batch_size: 8` ``, `` `BATCH=8` ``: the name
before the value) or a snake_case word of the sentence. Its keys are read line by line (no YAML reader
needed): `name:` of YAML, `"name":` of JSON, `name =` and `[section]` of TOML and INI, `NAME=` of a .env
file. Not read: a sentence that adds a key (`add`, `insert`, `append`, `create`, `new`), a sentence with
two config files, a key with a dot (a nested path, `model.layers`), a key the file holds anywhere as a
word (a key, a value, a comment), and a key no key of the file is a slip away from (a key the reader adds
may well be meant). `likely`: read from prose.
"""

from __future__ import annotations

import bisect
import difflib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.audit.auditor import LIKELY
from docgen.audit.own_repo import repository_root
from docgen.audit.paths import resolves_inside
from docgen.errors import MAX_PROJECT_FILE_BYTES
from docgen.files import text_or_none
from docgen.markdown import Document, code_spans, links
from docgen.model import Diagnostic

_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".ini", ".cfg", ".conf", ".env")
_VERB = re.compile(
    r"\b(?:set|setting|remove|removing|delete|deleting|change|changing|edit|editing|modify|modifying"
    r"|update|updating|uncomment|uncommenting|comment(?:ing)?[ \t]+out|adjust|adjusting|replace|replacing"
    r"|disable|disabling|enable|enabling)\b",
    re.IGNORECASE,
)
"""Words telling the reader to act on a key the file has."""
_ADDING = re.compile(
    r"\b(?:add|adding|insert|inserting|append|appending|create|creating|new)\b", re.IGNORECASE
)
"""Words saying the key is new: it need not be in the file."""
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n[ \t]*\n")
_FILE_WORD = re.compile(r"(?<![\w./-])[\w./-]+")
"""A word that may be a path (`config/settings.yaml`): one with a config file's suffix names it."""
_SPAN_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)(?:[ \t]*[:=].*)?")
"""A code span naming a key, maybe with its value (`batch_size: 8`, `BATCH=8`): the name."""
_SNAKE = re.compile(r"(?<![\w./:@$-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/-]|\.\w)")
"""A snake_case word of the prose (`obstacle_sensor`), not part of a path, an address or a variable."""
_YAML_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?([\"']?)([A-Za-z0-9_][\w.-]*)\1[ \t]*:(?:[ \t]|$)", re.MULTILINE)
_JSON_KEY = re.compile(r"\"([^\"\\\n]{1,200})\"[ \t]*:")
_INI_KEY = re.compile(r"^[ \t]*(?:export[ \t]+)?([A-Za-z0-9_][\w.-]*)[ \t]*[=:]", re.MULTILINE)
_SECTION = re.compile(r"^[ \t]*\[+([^\]\n]*)\]", re.MULTILINE)
_CLOSE = 0.8


def _keys(text: str, suffix: str) -> set[str]:
    """The keys of a config file's text, read line by line by its kind (`suffix`)."""
    if suffix in (".yaml", ".yml"):
        return {m.group(2) for m in _YAML_KEY.finditer(text)}
    if suffix == ".json":
        return set(_JSON_KEY.findall(text))
    found = set(_INI_KEY.findall(text))
    for section in _SECTION.findall(text):
        found.update(part.strip("\"' \t") for part in section.split("."))
    return found


def _slip(key: str, keys: set[str]) -> str | None:
    """The one key of `keys` a slip away from `key`: alike by `_CLOSE`, or the same words but one
    (`object_sensor` for `obstacle_sensor`); None when none is, or two are."""
    parts = key.lower().split("_")
    words = [
        k
        for k in keys
        if len(parts) > 1
        and len(k.split("_")) == len(parts)
        and sum(a != b for a, b in zip(parts, k.lower().split("_"), strict=True)) == 1
    ]
    close = sorted(set(words) | set(difflib.get_close_matches(key, sorted(keys), n=2, cutoff=_CLOSE)))
    return close[0] if len(close) == 1 else None


def _files(sentence: str) -> list[tuple[int, str]]:
    """(offset, path) of each config file the sentence names: a link, a code span, a path in words."""
    found: list[tuple[int, str]] = []
    spans = code_spans(sentence)
    for link in links(sentence):
        target = (link.target or "").split("#", 1)[0].strip()
        if target and "://" not in target and target.lower().endswith(_SUFFIXES):
            found.append((link.start, target))
    for start, _, content in spans:
        if content.strip().lower().endswith(_SUFFIXES) and " " not in content.strip():
            found.append((start, content.strip()))
    cuts = [(start, end) for start, end, _ in spans] + [(link.text_end, link.end) for link in links(sentence)]
    bare = _blank(sentence, sorted(cuts))  # (a link's target is read once, as the link)
    words = ((m.start(), m.group(0).rstrip(".").removeprefix("./")) for m in _FILE_WORD.finditer(bare))
    found += [(at, word) for at, word in words if word.lower().endswith(_SUFFIXES) and word[:1] not in "/"]
    return found


def _blank(text: str, cuts: list[tuple[int, int]]) -> str:
    """`text` with the stretches `cuts` (start, end; in order, apart) blanked out, offsets kept."""
    out: list[str] = []
    at = 0
    for start, end in cuts:
        if start >= at:
            out += [text[at:start], " " * (end - start)]
            at = end
    return "".join([*out, text[at:]])


def _named_keys(sentence: str, files: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(offset, key) of each key the sentence names: a code span that is no file, a snake_case word."""
    spans = code_spans(sentence)
    found: list[tuple[int, str]] = []
    paths = {path for _, path in files}
    for start, _, content in spans:
        if content.strip() in paths:
            continue
        if (key := _SPAN_KEY.fullmatch(content.strip())) is not None:
            found.append((start, key.group(1)))
    cuts = [(start, end) for start, end, _ in spans] + [(link.start, link.end) for link in links(sentence)]
    bare = _blank(sentence, sorted(cuts))
    found += [(m.start(1), m.group(1)) for m in _SNAKE.finditer(bare)]
    return found


def paragraph_sentences(text: str) -> Iterator[tuple[int, str]]:
    """(offset, text) of each sentence of a paragraph's text."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        yield start, text[start : end.end()]
        start = end.end()
    if start < len(text):
        yield start, text[start:]


def config_keys(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """The findings of this module (see its docstring)."""
    top = repository_root(directory) or directory.resolve()
    read: dict[str, tuple[str, set[str]] | None] = {}
    seen: set[tuple[str, str]] = set()  # (file, key) read once
    for paragraph in doc.paragraphs:
        text = "\n".join(t for _, t in paragraph.lines)
        if not any(s in text.lower() for s in _SUFFIXES):
            continue
        starts = list(_starts(paragraph.lines))
        for at, sentence in paragraph_sentences(text):
            files = _files(sentence)
            if (
                len({path for _, path in files}) != 1
                or not _VERB.search(sentence)
                or _ADDING.search(sentence)
            ):
                continue
            path = files[0][1]
            if path not in read:
                read[path] = _read(directory, top, path)
            got = read[path]
            if got is None:
                continue
            content, keys = got
            verb = _VERB.search(sentence)
            said = " ".join(verb.group(0).lower().split()) if verb is not None else "change"
            for offset, key in _named_keys(sentence, files):
                if (path, key) in seen:
                    continue
                seen.add((path, key))
                if "." in key or re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", content, re.IGNORECASE):
                    continue
                close = _slip(key, keys)
                if close is None:
                    continue
                line = paragraph.lines[bisect.bisect_right(starts, at + offset) - 1][0]
                where = next((n for n, t in enumerate(content.splitlines(), 1) if close in t), 0)
                yield Diagnostic(
                    readme,
                    line,
                    f"README says to {said} key {key} of {path}, but {path} has no {key} anywhere; it has "
                    f"{close}" + (f" (line {where})" if where else "") + ": the key was renamed",
                    confidence=LIKELY,
                )


def _starts(lines: list[tuple[int, str]]) -> Iterator[int]:
    """Where each line starts in the paragraph's text (its lines joined by newlines)."""
    at = 0
    for _, text in lines:
        yield at
        at += len(text) + 1


def _read(directory: Path, top: Path, path: str) -> tuple[str, set[str]] | None:
    """The text and keys of the config file `path` from the README's folder (from the repository root
    when it starts with `/`), None when it is not a file inside the repository."""
    file = (top / path.lstrip("/")) if path.startswith("/") else directory / path
    if not os.path.isfile(file) or not resolves_inside(file, top):
        return None
    content = text_or_none(file, MAX_PROJECT_FILE_BYTES)
    if content is None:
        return None
    suffix = "." + file.name.rsplit(".", 1)[-1].lower() if "." in file.name else ""
    keys = _keys(content, suffix)
    return (content, keys) if keys else None


_KEY_LINE = re.compile(r"([ \t]*)([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")
"""A line of YAML that names a key (`  beam_size: 5`, `evaluation:`), its indentation."""
_YAML_ITEM = re.compile(r"[ \t]*-(?:[ \t]|$)")
_YAML_LANGS = frozenset({"", "yaml", "yml"})


def _yaml_paths(lines: list[tuple[int, str]]) -> dict[tuple[str, ...], int] | None:
    """Each key path of YAML lines (`("evaluation", "beam_size")`) → its line, read by indentation (no
    YAML reader); None when a line is neither a key, a list item, a comment nor blank (not YAML)."""
    paths: dict[tuple[str, ...], int] = {}
    stack: list[tuple[int, str]] = []
    for number, raw in lines:
        text = re.sub(r"(?:^|[ \t])#.*", "", raw).rstrip()
        if not text.strip():
            continue
        if _YAML_ITEM.match(text):
            continue
        match = _KEY_LINE.match(text)
        if match is None:
            if stack and len(text) - len(text.lstrip()) > stack[-1][0]:
                continue  # a value continued on an indented line
            return None
        indent = len(match.group(1).expandtabs(2))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = (*(k for _, k in stack), match.group(2))
        paths.setdefault(path, number)
        stack.append((indent, match.group(2)))
    return paths


def nested_keys(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """A YAML block of the README (no language, `yaml`) showing a part of a YAML config file the README
    names (a link, a code span, a path) whose key sits at another place in that file: the block nests
    `manifest_path` under `evaluation:` while the file has it at the top level. Read when at least two
    other keys of the block are at the same place in the file (the block is a part of that file), the
    key is at no place the block gives it, and the file holds a key of that name at one other place
    only, none of whose keys the block gives under it (`likely`: once per key, at the block's line). Not
    read: a key the file lacks (a key the reader adds), a block that is not all keys, list items and
    comments, a name several places of the file hold."""
    named = {
        path
        for para in doc.paragraphs
        for _, text in para.lines
        for _, path in _files(text)
        if path.lower().endswith((".yaml", ".yml"))
    }
    if not named or not doc.fences:
        return
    top = repository_root(directory) or directory.resolve()
    files: list[tuple[str, dict[tuple[str, ...], int]]] = []
    for path in sorted(named):
        got = _read(directory, top, path)
        if got is None:
            continue
        paths = _yaml_paths(list(enumerate(got[0].splitlines(), start=1)))
        if paths:
            files.append((path, paths))
    if not files:
        return
    told: set[tuple[str, tuple[str, ...]]] = set()
    for fence in doc.fences:
        if fence.lang.lower() not in _YAML_LANGS or len(fence.lines) < 3:
            continue
        block = _yaml_paths(fence.lines)
        if not block or len(block) < 3:
            continue
        for path, paths in files:
            same = [p for p in block if p in paths]
            if len(same) < 2:
                continue
            for key, line in block.items():
                if key in paths or len(key) < 1:
                    continue
                if any(p[: len(key)] == key and len(p) > len(key) for p in block):
                    continue  # (a mapping of the block: its keys are read themselves)
                elsewhere = [p for p in paths if p[-1] == key[-1]]
                if len(elsewhere) != 1 or (path, key) in told:
                    continue
                there = elsewhere[0]
                if key[:-1] and key[:-1] not in paths:
                    continue  # (a section the file lacks: the block is of another version or file)
                told.add((path, key))
                place = "the top level" if len(there) == 1 else ".".join(there[:-1])
                said_place = "the top level" if len(key) == 1 else ".".join(key[:-1])
                yield Diagnostic(
                    readme,
                    line,
                    f"README's block puts {key[-1]} at {said_place}, but {path} has it at {place} (line "
                    f"{paths[there]}): a program reading {path} does not find it where the block shows it",
                    confidence=LIKELY,
                )
