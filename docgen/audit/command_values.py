"""What a README says the server of its compose file is started with, against the `command:` the
compose file really gives it.

- `command_values`: a README table of the server's options and their values (`| `--ctx-size` |
  262144 | … |`, a column of options and one headed `Value`/`Setting`) whose value for an option
  differs from the value every service of the compose files the README starts passes it in its
  `command:` (string form, or list form with the value on the item after the option: `- --ctx-size`,
  `- "1048576"`). The README's prose repeating the same `--option value` in a code span is named as
  another line of the claim. `certain` (a table cell against the file).
- `help_commands`: a `docker compose up` of the README whose compose file starts a service whose
  `command:` only asks the program for its help or version (`llama-server --help`): it prints them and
  exits, so the server the README then talks about never runs. `certain`.

Silent when the value may be another: a compose value read from a variable (`${CTX:-8192}`), several
services giving the option with the README's value among theirs, a table of defaults (`Default`
column: the program's own, not the compose file's), a table under a heading that offers values to try
(`Tuning`, `Tips`, `Examples`, `Alternatives`), a table sharing fewer than two options with the
commands; and, for `help_commands`, a README that tells the reader to change the compose `command:`
before that `up`.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, also_at
from docgen.audit.compose_paths import (
    compose_ups,
    entry_line,
    read_services,
    service_items,
    started_compose,
)
from docgen.audit.settings import Image
from docgen.files import real_path
from docgen.markdown import Document, code_spans, plain
from docgen.model import Diagnostic, ImageModel

_OPTION = re.compile(r"--?[A-Za-z][\w-]*")
_VALUE_HEADER = re.compile(r"\b(?:values?|settings?|configured|used|set\s+to)\b", re.I)
_DEFAULT_HEADER = re.compile(r"\b(?:defaults?|range|allowed|choices|options?\s+are)\b", re.I)
_OFFERED = re.compile(
    r"\b(?:tun(?:e|ing)|tips?|examples?|alternatives?|variants?|optional|customi[sz]\w*|adjust\w*|"
    r"override\w*|troubleshoot\w*)\b",
    re.I,
)
_CELL_VALUE = re.compile(r"[\w.:/+@-]+")
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_SAID = re.compile(r"(--?[A-Za-z][\w-]*)(?:[ \t]+|=)([\w.:/+@-]+)")
_HELP = frozenset({"--help", "-h", "-help", "--version", "--usage"})
_MIN_SHARED = 2
"""A README table names at least this many options the compose commands pass to be read as theirs."""


@dataclass(frozen=True)
class _Passed:
    """A value a service's command passes an option."""

    value: str | None
    """None: read from a variable (any value)."""
    where: str
    """`file:line`."""


def _command_words(value: object) -> list[str] | None:
    """A `command:` as its words: a list's items as they are (a value stays one word), a string split
    as the shell would; None when it cannot be read."""
    if isinstance(value, list):
        return [w for w in value if isinstance(w, str)] if all(isinstance(w, str) for w in value) else None
    if isinstance(value, str):
        try:
            return shlex.split(value, comments=True)
        except ValueError:
            return None
    return None


def _options(words: list[str]) -> Iterator[tuple[str, str | None, str]]:
    """(option, value, the word holding the value) of each `--opt value` / `--opt=value` of a command;
    value '' for a switch followed by another option or nothing."""
    for at, word in enumerate(words):
        if not word.startswith("-") or word == "--":
            continue
        name, eq, rest = word.partition("=")
        if not _OPTION.fullmatch(name):
            continue
        if eq:
            yield name, rest, word
        elif at + 1 < len(words) and not _OPTION.fullmatch(words[at + 1]):
            yield name, words[at + 1], words[at + 1]
        else:
            yield name, "", word


def _same(said: str, passed: str) -> bool:
    """The README's value and the command's, compared loosely (quotes, case, `1.0` = `1`)."""
    a, b = said.strip("\"'").lower(), passed.strip("\"'").lower()
    if a == b:
        return True
    if _NUMBER.fullmatch(a) and _NUMBER.fullmatch(b):
        return float(a) == float(b)
    return False


def _value_line(lines: tuple[str, ...], start: int | None, option: str, word: str) -> int | None:
    """The compose line holding the value `word` of `option`: the first line from the option's on."""
    at = entry_line(lines, start, option)
    return entry_line(lines, at, word) if at is not None else None


def _passed(doc: Document, directory: Path, project: Path | None) -> dict[str, list[_Passed]]:
    """Option → what each service of the compose files the README starts passes it in `command:`."""
    found: dict[str, list[_Passed]] = {}
    for started in started_compose(doc, directory, project):
        read = read_services(started.path)
        if read is None:
            continue
        services, lines = read
        for _name, service in service_items(services):
            words = _command_words(service.get("command"))
            if not words:
                continue
            start = compose.line_of(service, "command")
            for option, value, word in _options(words):
                if value is None or "$" in value:
                    found.setdefault(option, []).append(_Passed(None, started.shown))
                    continue
                at = _value_line(lines, start, option, word)
                found.setdefault(option, []).append(_Passed(value, f"{started.shown}:{at or start}"))
    return found


def _table_claims(doc: Document) -> Iterator[tuple[int, str, str]]:
    """(line, option, value) of each row of a README table of options and the values they are set to."""
    for table in doc.tables:
        if _OFFERED.search(table.context.splitlines()[0] if table.context else ""):
            continue
        headers = [plain(h).strip() for h in table.header]
        values = [
            i for i, h in enumerate(headers) if _VALUE_HEADER.search(h) and not _DEFAULT_HEADER.search(h)
        ]
        if len(values) != 1 or any(_DEFAULT_HEADER.search(h) for h in headers):
            continue
        column = values[0]
        rows = []
        for line, cells in table.rows:
            if len(cells) <= column:
                continue
            names = [i for i, c in enumerate(cells) if i != column and _OPTION.fullmatch(plain(c).strip())]
            if len(names) != 1:
                continue
            value = plain(cells[column]).strip().strip("`")
            if not _CELL_VALUE.fullmatch(value) or not re.search(r"\w", value):
                continue
            rows.append((line, plain(cells[names[0]]).strip(), value))
        yield from rows


def _prose_spans(doc: Document) -> dict[str, list[tuple[int, str]]]:
    """Option → (line, value) of each prose code span that is one `--option value`."""
    found: dict[str, list[tuple[int, str]]] = {}
    for para in doc.paragraphs:
        for line, text in para.lines:
            for _s, _e, span in code_spans(text):
                said = _SAID.fullmatch(span.strip())
                if said:
                    found.setdefault(said.group(1), []).append((line, said.group(2)))
    return found


def _image_passed(models: Sequence[ImageModel], doc: Document) -> dict[str, list[_Passed]]:
    """Option → what the ENTRYPOINT and CMD of each audited image pass it, for the options the README's
    command blocks never pass themselves (a run's own options replace or add to CMD's)."""
    typed = "\n".join(text for fence in doc.fences for _, text in fence.lines)
    found: dict[str, list[_Passed]] = {}
    for model in models:
        image = Image(model)
        words: list[str] = []
        lines: list[int] = []
        for keyword in ("ENTRYPOINT", "CMD"):
            setting = image.last(keyword)
            if setting is None:
                continue
            read = list(setting.exec_form) if setting.exec_form is not None else _command_words(setting.value)
            if read is None:
                return {}
            words += read
            lines += [setting.line] * len(read)
        for option, value, word in _options(words):
            if re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", typed):
                continue
            at = lines[words.index(word)] if word in words else lines[0]
            known = None if value is None or "$" in value else value
            found.setdefault(option, []).append(_Passed(known, f"{model.path}:{at}"))
    return found


def command_values(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None
) -> Iterator[Diagnostic]:
    """README table values of a server's options that every service of the compose files the README
    starts passes otherwise in its `command:` (with no compose command, the audited image's CMD)."""
    claims = list(_table_claims(doc))
    if not claims:
        return
    passed = _passed(doc, directory, project)
    whose = "the compose command the README starts"
    if not passed:
        passed, whose = _image_passed(models, doc), "the image's ENTRYPOINT/CMD"
    if len({option for _, option, _ in claims if option in passed}) < _MIN_SHARED:
        return
    spans = _prose_spans(doc)
    for line, option, value in claims:
        given = passed.get(option)
        if not given or any(p.value is None or p.value == "" or _same(value, p.value) for p in given):
            continue
        shown = ", ".join(f"{option} {p.value} ({p.where})" for p in given[:3])
        told = [line, *(at for at, said in spans.get(option, []) if _same(value, said))]
        yield Diagnostic(
            readme,
            line,
            f"README gives {option} the value {value}, but {whose} passes {shown}{also_at(told)}",
            confidence=CERTAIN,
        )


_CHANGE_COMMAND = re.compile(
    r"\b(?:change|edit|modify|replace|update|set|adjust|add)\b[^.\n]{0,60}\bcommand\b|"
    r"\bcommand\b[^.\n]{0,40}\b(?:change|edit|modify|replace|update)\b",
    re.I,
)


def _help_only(words: list[str]) -> bool:
    """A program given only help or version options (`llama-server --help`)."""
    return len(words) >= 2 and not words[0].startswith("-") and all(w in _HELP for w in words[1:])


def help_commands(doc: Document, readme: str, directory: Path, project: Path | None) -> Iterator[Diagnostic]:
    """`docker compose up` commands of the README that start a service whose `command:` only prints
    its program's help or version and exits."""
    told: set[tuple[Path, str]] = set()
    edits = [line for para in doc.paragraphs for line, text in para.lines if _CHANGE_COMMAND.search(text)]
    edits += [
        line
        for fence in doc.fences
        for line, text in fence.lines
        if text.lstrip().startswith("#") and _CHANGE_COMMAND.search(text)
    ]
    for up in compose_ups(doc, directory, project):
        if any(e < up.line for e in edits):
            continue
        for path in up.paths:
            read = read_services(path)
            if read is None:
                continue
            services, lines = read
            for name, service in service_items(services):
                if (str(name) not in up.services) if up.services else bool(service.get("profiles")):
                    continue
                words = _command_words(service.get("command"))
                if not words or not _help_only(words) or (path, str(name)) in told:
                    continue
                told.add((path, str(name)))
                start = compose.line_of(service, "command")
                at = entry_line(lines, start, words[-1]) if start else None
                shown = _shown(path, directory)
                yield Diagnostic(
                    readme,
                    up.line,
                    f"README starts the compose service {name} with docker compose up, but its command "
                    f"({shown}:{at or start}) is `{' '.join(words)}`, which prints the program's "
                    f"{'version' if 'version' in words[-1].lower() else 'help'} and exits: no server runs",
                    confidence=CERTAIN,
                )


def _shown(path: Path, directory: Path) -> str:
    """The compose file's path from the README's folder."""
    return Path(os.path.relpath(path, real_path(directory))).as_posix()
