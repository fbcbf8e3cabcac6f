"""A README's documentation of a Helm chart's values (`| Parameter | Description | Default |` with
`image.repository`, a helm-docs `## Values` table, a list of `` `modelId` `` entries under `## Key
template variables`) and the `--set key=value` of its `helm install` commands, against the chart's
`values.yaml` (`docgen.helm`): a key it does not have (renamed, `model_id` for `modelId`, or gone) and
a default that differs."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from docgen.audit.auditor import CERTAIN, LIKELY
from docgen.audit.commands import build_commands, command_words, moves
from docgen.files import real_path
from docgen.helm import Chart, charts_near, prefixes, read_chart, spelling
from docgen.markdown import Document, code_spans, lists
from docgen.model import Diagnostic

_ABOUT = re.compile(
    r"\bvalues?\b|\bparameters?\b|\bconfigurations?\b|\bconfigurable\b|\bsettings?\b|\boptions\b"
    r"|\bvariables\b|--set\b|\bchart\b|\bkeys\b",
    re.IGNORECASE,
)
"""Words of a heading or an introduction about a chart's values."""
_CHART_WORDS = re.compile(
    r"\bvalues?\b|\bparameters?\b|\bchart\b|\bhelm\b|\btemplates?\b|--set\b", re.IGNORECASE
)
"""The words of those that can only be about a chart's values (not `settings` or `options`, which may
be an application's): a key missing under other words is `likely`."""
_KEY = re.compile(r"[A-Za-z_][\w-]*(?:\.[\w\-/]+|\.\"[^\"\s]+\"|\\\.[\w\-/]+|\[\d+\])*")
"""A values key as READMEs write it: `image.tag`, `resources.limits.nvidia.com/gpu`,
`nodeSelector."kubernetes.io/os"`, `tolerations[0].key`, `kubernetes\\.io/os` (as `--set` escapes it)."""
_FILE_NAME = re.compile(r"\.(?:ya?ml|json|sh|py|md|txt|toml|tgz|conf)\Z", re.IGNORECASE)
_UPPER = re.compile(r"[A-Z][A-Z0-9_]*")
_DEFAULT_HEADER = re.compile(r"\bdefault|^\s*values?\s*$", re.IGNORECASE)
_ITEM_KEY = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\*\*|__)?`([^`]+)`(?:\*\*|__)?(?=[\s:,(—–-]|\Z)")
_NO_CLAIM = frozenset({"", "-", "--", "—", "n/a", "see values.yaml", "see below", "..."})
_EMPTY = frozenset({"nil", "null", "~", "none", "{}", "[]", '""', "''", "empty", "(empty)", "unset"})
_TRUE = frozenset({"true", "yes", "on"})
_FALSE = frozenset({"false", "no", "off"})
_HELM = re.compile(r"\bhelm[ \t]+(?:install|upgrade|template)\b")
_SET_FLAGS = frozenset({"--set", "--set-string", "--set-file", "--set-json", "--set-literal"})
_HELM_VALUED = frozenset(
    "-n --namespace -f --values --version --repo --kube-context --kubeconfig -o --output --timeout "
    "--post-renderer --post-renderer-args --description --name-template --username --password "
    "--ca-file --cert-file --key-file --keyring --history-max --labels -l --kube-apiserver "
    "--kube-token --kube-as-user --kube-as-group --registry-config --repository-config "
    "--repository-cache --api-versions -a --show-only -s --output-dir --release-name".split()
)
"""The options of `helm install`/`upgrade`/`template` that take the next word as their value."""


@dataclass(frozen=True)
class _Verdict:
    """What a chart's values say of one documented key."""

    found: bool
    """The chart takes it: a key of values.yaml, a key under an empty map or a list, a subchart's, or
    one its templates read."""
    exact: bool = False
    """It is a key of values.yaml as written."""
    twin: str | None = None
    """The key of values.yaml it names with other case or separators (`model_id` → `modelId`)."""


def _normal(key: str) -> str:
    """A key as Helm reads it: quotes dropped, `\\.` a dot."""
    return key.replace('"', "").replace("'", "").replace("\\.", ".")


def _verdict(chart: Chart, written: str) -> _Verdict:
    key = _normal(written)
    if "[" in key:  # an item of a list: the list must be there
        base = key.split("[", 1)[0]
        if base in chart.values:
            return _Verdict(True, True)
        key = base
    if key in chart.values:
        return _Verdict(True, True)
    for above in list(prefixes(key))[:-1]:
        held = chart.values.get(above)
        if held is not None and (held.empty or held.listed):
            return _Verdict(True)  # `podAnnotations: {}`, `tolerations: [...]`, `nodeSelector:` (null)
    first = key.split(".", 1)[0]
    if first in chart.subcharts or (first == "global" and chart.subcharts):
        return _Verdict(True)
    if chart.read_by_templates(key):
        return _Verdict(True)
    return _Verdict(False, twin=chart.spellings.get(spelling(key)))


def _cell_key(cell: str) -> str | None:
    """The values key a first cell names (`` `image.tag` ``, `image.tag`, `**image.tag**`)."""
    spans = code_spans(cell)
    if spans:
        start, _, text = spans[0]
        if cell[:start].strip(" *_"):
            return None
    else:
        text = cell.strip().strip("*_").strip()
    text = text.strip().replace("\\_", "_")
    return text if _is_key(text) else None


def _is_key(text: str) -> bool:
    return bool(_KEY.fullmatch(text)) and not _FILE_NAME.search(text) and "://" not in text


def _shown(path: Path, directory: Path) -> str:
    try:
        return path.relative_to(directory).as_posix()
    except ValueError:
        return path.as_posix()


def _nearest(chart: Chart, key: str) -> list[str]:
    """The keys of values.yaml a documented key most likely means: those ending in its last part
    (`tag` → `image.tag`), else the one spelt closest."""
    ending = chart.endings.get(spelling(key.rpartition(".")[2]), [])
    return ending[:2] or difflib.get_close_matches(key, list(chart.values), n=1, cutoff=0.8)


def _missing(
    chart: Chart,
    written: str,
    verdict: _Verdict,
    said: str,
    readme: str,
    line: int,
    directory: Path,
    sure: bool = True,
) -> Diagnostic:
    """The finding for a key the chart does not have: `certain` for one values.yaml names otherwise or,
    in a chart with a Chart.yaml and templates, one no template reads; `likely` otherwise, and when not
    `sure` the README speaks of the chart's values there."""
    values = _shown(chart.values_file, directory)
    if verdict.twin is not None:
        at = chart.values[verdict.twin].line
        return Diagnostic(
            readme,
            line,
            f"README {said} chart value {written}, but {values}:{at} names it {verdict.twin}",
            confidence=CERTAIN if sure else LIKELY,
        )
    checked = chart.name is not None and chart.reads is not None
    tail = (
        f" and no template under {_shown(chart.folder / 'templates', directory)} reads it" if checked else ""
    )
    near = "; ".join(f"{p}, {values}:{chart.values[p].line}" for p in _nearest(chart, _normal(written)))
    hint = f" (nearest: {near})" if near else ""
    return Diagnostic(
        readme,
        line,
        f"README {said} chart value {written}, but {values} has no such key{tail}{hint}",
        confidence=CERTAIN if checked and sure else LIKELY,
    )


def _meaning(text: str) -> str | None:
    """A default compared by meaning: `""`, `{}`, `nil` … are one empty value, `yes`/`true` one, numbers
    by value, quotes dropped; None for a cell that makes no claim."""
    value = text.strip()
    if value.lower() in _NO_CLAIM:
        return None
    if value.lower() in _EMPTY:
        return ""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
        if not value:
            return ""
    lowered = value.lower()
    if lowered in _TRUE:
        return "true"
    if lowered in _FALSE:
        return "false"
    try:
        return repr(float(value))
    except ValueError:
        return value


def _cell_default(cell: str) -> str | None:
    """The default a cell gives: its only code span (text in parentheses may follow), else its one word;
    None for words, several values or HTML (`<pre>`)."""
    spans = code_spans(cell)
    if len(spans) == 1:
        start, end, text = spans[0]
        rest = (cell[:start] + cell[end:]).strip()
        return text if not rest or (rest.startswith("(") and rest.endswith(")")) else None
    if spans or "<" in cell:
        return None
    words = cell.split()
    return words[0] if len(words) == 1 else ("" if not words else None)


def _pick(charts: Sequence[Chart], keys: Sequence[str]) -> tuple[Chart, list[_Verdict]] | None:
    """The chart most of `keys` are the values of (at least one as written, and half of them taken or
    named otherwise), with each key's verdict; None for none, or two alike."""
    best: list[tuple[int, Chart, list[_Verdict]]] = []
    for chart in charts:
        verdicts = [_verdict(chart, key) for key in keys]
        exact = sum(v.exact for v in verdicts)
        known = sum(v.found or v.twin is not None for v in verdicts)
        if exact >= 1 and 2 * known >= len(keys):
            best.append((known, chart, verdicts))
    best.sort(key=lambda item: -item[0])
    if not best or (len(best) > 1 and best[0][0] == best[1][0]):
        return None
    return best[0][1], best[0][2]


def chart_values(doc: Document, readme: str, directory: Path) -> Iterator[Diagnostic]:
    """Tables and lists of a chart's values, and `helm install --set` keys, against the charts beside
    the README (in its folder or a folder below it), those it links to and those its commands
    install."""
    read = _Charts(directory)
    installs = list(_installs(doc, directory, read))
    yield from _set_keys(readme, directory, installs)
    charts = [*read.near, *read.linked(doc)]
    charts += [c for _, c, _ in installs if all(c is not o for o in charts)]
    if not charts:
        return
    # the entries of each section about values: (line, key, default cell or None)
    sections: dict[int, list[tuple[int, str, str | None]]] = {}
    sure: set[int] = set()  # the lines of entries under words only a chart's values are spoken of with
    for table in doc.tables:
        if not table.header or not _ABOUT.search(table.context):
            continue
        column = next(
            (
                i
                for i, cell in enumerate(table.header)
                if i > 0 and _DEFAULT_HEADER.search(cell) and "example" not in cell.lower()
            ),
            None,
        )
        for line, cells in table.rows:
            key = _cell_key(cells[0]) if cells else None
            if key is not None:
                default = cells[column] if column is not None and column < len(cells) else None
                sections.setdefault(table.section, []).append((line, key, default))
                if _CHART_WORDS.search(table.context):
                    sure.add(line)
    for block in lists(doc):
        if not _ABOUT.search(f"{block.heading} {block.intro}"):
            continue
        for line, text in block.items:
            match = _ITEM_KEY.match(text)
            if match and _is_key(match.group(1).strip()):
                sections.setdefault(block.section, []).append((line, match.group(1).strip(), None))
                if _CHART_WORDS.search(f"{block.heading} {block.intro}"):
                    sure.add(line)
    for entries in sections.values():
        entries = [e for e in entries if not _UPPER.fullmatch(e[1]) or any(e[1] in c.values for c in charts)]
        if len(entries) < 2:
            continue
        picked = _pick(charts, [key for _, key, _ in entries])
        if picked is None:
            continue
        chart, verdicts = picked
        for (line, key, cell), verdict in zip(entries, verdicts, strict=True):
            if not verdict.found:
                yield _missing(chart, key, verdict, "documents", readme, line, directory, line in sure)
            elif verdict.exact and cell is not None and chart.name is not None:
                yield from _default(chart, key, cell, readme, line, directory)


def _default(
    chart: Chart, key: str, cell: str, readme: str, line: int, directory: Path
) -> Iterator[Diagnostic]:
    """A default in a table that differs from the scalar values.yaml gives (not one it leaves empty for
    a template to fill, nor one a helm-docs `@default --` comment describes)."""
    held = chart.values.get(_normal(key))
    said = _cell_default(cell)
    if held is None or held.container or held.empty or held.described or said is None:
        return
    if "\n" in (held.default or "") or "\\n" in said or said.endswith(("...", "…")):
        return  # a text of several lines, or one the README cuts short
    ours, theirs = _meaning(said), _meaning(held.default or "")
    if ours is None or theirs is None or ours == theirs:
        return
    yield Diagnostic(
        readme,
        line,
        f"README says chart value {key} defaults to {said}, but "
        f"{_shown(chart.values_file, directory)}:{held.line} gives {held.default}",
        confidence=CERTAIN,
    )


def _split_set(value: str) -> list[str]:
    """The keys of a `--set` value (`a=1,b.c={x,y}`), commas inside braces and `\\,` not splitting."""
    keys: list[str] = []
    depth, start, at = 0, 0, 0
    pieces: list[str] = []
    while at < len(value):
        char = value[at]
        if char == "\\":
            at += 2
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            pieces.append(value[start:at])
            start = at + 1
        at += 1
    pieces.append(value[start:])
    for piece in pieces:
        key, eq, _ = piece.partition("=")
        if eq and key:
            keys.append(key)
    return keys


def _helm_command(words: list[str]) -> tuple[str | None, list[str]]:
    """(the chart a `helm install`/`upgrade`/`template` names, the keys its `--set` options set)."""
    positional: list[str] = []
    keys: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("-"):
            name, eq, value = word.partition("=")
            if name in _SET_FLAGS:
                if not eq:
                    index += 1
                    value = words[index] if index < len(words) else ""
                keys += _split_set(value)
            elif not eq and name in _HELM_VALUED:
                index += 1
            index += 1
            continue
        positional.append(word)
        index += 1
    return (positional[-1] if positional else None), keys


class _Charts:
    """The charts of a README's folder read once each, by resolved folder."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.near = charts_near(directory)
        self.read: dict[Path, Chart | None] = {real_path(c.folder): c for c in self.near}

    def at(self, folder: Path) -> Chart | None:
        """The chart with a Chart.yaml in `folder` (the README's own folder: any with a values file)."""
        try:
            key = real_path(folder)
        except (OSError, RuntimeError):
            return None
        if key not in self.read:
            chart = read_chart(folder) if os.path.isdir(folder) else None
            self.read[key] = chart if chart is None or chart.name is not None else None
        return self.read[key]

    def linked(self, doc: Document) -> list[Chart]:
        """The charts the README links to (a chart's folder or a file in it: `chart/values.yaml`)."""
        found: list[Chart] = []
        for path in dict.fromkeys(t.split("#", 1)[0].split("?", 1)[0] for _, t in doc.destinations):
            if not path or "://" in path or path.startswith(("/", "mailto:")):
                continue
            where = self.directory / path
            for folder in (where, where.parent) if where.suffix else (where,):
                chart = self.at(folder)
                if chart is not None and all(chart is not c for c in (*self.near, *found)):
                    found.append(chart)
        return found


def _installs(
    doc: Document, directory: Path, charts: _Charts
) -> Iterator[tuple[list[tuple[int, str]], Chart, list[str]]]:
    """(command lines, chart, `--set` keys) of each `helm install`/`upgrade`/`template` of a local
    chart: a path from the folder of the block's last `cd`, the README's folder or one of the four
    above it."""
    above = list(directory.resolve().parents)[:4]
    for fence in doc.fences:
        if not any("helm" in text for _, text in fence.lines):
            continue
        steps = list(moves(fence))
        for command in build_commands(fence, _HELM):
            words = command_words(command, _HELM)
            if not words:
                continue
            target, keys = _helm_command(words)
            if target is None or not re.fullmatch(r"[\w./-]+", target):
                continue
            went = [folder for at, folder in steps if at <= command[0][0]]
            bases = [directory, *above]
            if went and re.fullmatch(r"[\w.-][\w./-]*", went[-1]):
                bases.insert(0, directory / went[-1])
            chart = next((c for base in bases if (c := charts.at(base / target)) is not None), None)
            if chart is not None:
                yield command, chart, keys


def _set_keys(
    readme: str, directory: Path, installs: Sequence[tuple[list[tuple[int, str]], Chart, list[str]]]
) -> Iterator[Diagnostic]:
    """Each `--set` key of a `helm install` of a local chart that its values.yaml lacks and no template
    reads."""
    for command, chart, keys in installs:
        for key in keys:
            if not _is_key(key):
                continue
            verdict = _verdict(chart, key)
            if not verdict.found:
                line = next((n for n, text in command if f"{key}=" in text), command[0][0])
                yield _missing(chart, key, verdict, "sets (--set)", readme, line, directory)
