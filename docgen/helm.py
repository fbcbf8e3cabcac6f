"""Helm charts beside a README: the keys of a chart's `values.yaml` flattened to dotted paths
(`image.repository`, `resources.limits.nvidia.com/gpu`) with their defaults, the subcharts its
`Chart.yaml` depends on, and the `.Values.x` paths its templates read, for `audit`.

`values.yaml` is read with PyYAML (the `[compose]` extra) through the compose reader's loader: every
scalar kept as written (`1.0`, `yes`), `null` as None, the line of each key recorded. A chart that
cannot be read (no PyYAML, invalid YAML, a file too large) is no chart: the audit says nothing of it.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.compose import LINE, loader
from docgen.errors import MAX_FILE_BYTES

VALUES_FILES = ("values.yaml", "values.yml")
CHART_FILES = ("Chart.yaml", "Chart.yml")
MAX_TEMPLATES = 500
"""The template files of a chart read for `.Values` paths; a chart with more is read no further."""


@dataclass(frozen=True)
class ValueKey:
    """One key of a values file, at any depth."""

    path: str
    """The dotted path (`image.tag`; a key holding dots stays whole: `resources.limits.nvidia.com/gpu`)."""
    line: int
    """Line of the key in the values file."""
    default: str | None
    """A scalar as written (`"1.0"` → `1.0`), None for `null`, an empty value or a mapping or list."""
    container: bool
    """The value is a mapping or a list (`{}`, `[]` included)."""
    empty: bool
    """`null`, `""`, `{}` or `[]`: keys under it are the user's to choose (`podAnnotations: {}`)."""
    listed: bool = False
    """The value is a list (`tolerations[0].key` names an item of it)."""
    described: bool = False
    """A helm-docs `# @default --` comment above it says its default in words."""


@dataclass(frozen=True)
class Chart:
    """A chart folder: its values, subcharts and what its templates read."""

    folder: Path
    values_file: Path
    name: str | None
    """`name:` of its Chart.yaml; None for a folder with a values file and no Chart.yaml."""
    values: Mapping[str, ValueKey]
    subcharts: frozenset[str]
    """Names (and aliases) of the charts it depends on (Chart.yaml `dependencies`, `requirements.yaml`,
    folders under `charts/`): their values sit under those keys."""
    reads: frozenset[str] | None
    """The `.Values` paths its templates read (`.Values.image.tag` → `image.tag`; `""` for `.Values`
    itself, passed whole); None when it has no `templates/` folder."""

    @functools.cached_property
    def spellings(self) -> dict[str, str]:
        """Each key by its `spelling` (the first key of a spelling)."""
        found: dict[str, str] = {}
        for path in self.values:
            found.setdefault(spelling(path), path)
        return found

    @functools.cached_property
    def endings(self) -> dict[str, list[str]]:
        """The keys by the `spelling` of their last part (`image.tag`, `initImage.tag` under `tag`)."""
        found: dict[str, list[str]] = {}
        for path in self.values:
            found.setdefault(spelling(path.rpartition(".")[2]), []).append(path)
        return found

    def read_by_templates(self, key: str) -> bool:
        """True when a template reads `key` or a key above it (`{{ toYaml .Values.resources }}` reads
        every key under `resources`)."""
        if self.reads is None:
            return False
        if "" in self.reads:
            return True
        return any(prefix in self.reads for prefix in prefixes(key))


def spelling(path: str) -> str:
    """A key without case, `_` or `-` in each part: `model_id`, `modelId` and `model-id` are one."""
    return ".".join(part.replace("_", "").replace("-", "").lower() for part in path.split("."))


def prefixes(key: str) -> Iterator[str]:
    """`key` and each path above it, split at its dots (`a.b.c` → `a`, `a.b`, `a.b.c`)."""
    at = key.find(".")
    while at > 0:
        yield key[:at]
        at = key.find(".", at + 1)
    yield key


def _yaml() -> Any:
    try:
        return importlib.import_module("yaml")
    except ImportError:
        return None


def _load(path: Path) -> Any:
    """The YAML document of `path` as the compose loader reads it; None when it cannot be read."""
    yaml = _yaml()
    if yaml is None:
        return None
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        text = path.read_text(encoding="utf-8")
        return yaml.load(text, Loader=loader(yaml))  # noqa: S506 (a SafeLoader subclass)
    except (OSError, UnicodeDecodeError, RecursionError, yaml.YAMLError):
        return None


def _lines_of(mapping: Mapping[Any, Any]) -> Mapping[Any, int]:
    lines = mapping.get(LINE)
    return lines if isinstance(lines, dict) else {}


_DESCRIBED = re.compile(r"^\s*#\s*@default\s+--")


def flatten(document: Mapping[Any, Any], text_lines: list[str] | None = None) -> dict[str, ValueKey]:
    """Every key of a values document (as the compose loader reads it) by dotted path, in file order."""
    found: dict[str, ValueKey] = {}
    lines = text_lines or []

    def described(line: int) -> bool:
        at = line - 2
        while 0 <= at < len(lines) and lines[at].lstrip().startswith("#"):
            if _DESCRIBED.match(lines[at]):
                return True
            at -= 1
        return False

    def walk(mapping: Mapping[Any, Any], above: str, depth: int) -> None:
        where = _lines_of(mapping)
        for key, value in mapping.items():
            if key == LINE or depth > 32:
                continue
            path = f"{above}.{key}" if above else str(key)
            line = where.get(key, 0)
            if isinstance(value, dict):
                entries = [k for k in value if k != LINE]
                found[path] = ValueKey(path, line, None, True, not entries, described=described(line))
                walk(value, path, depth + 1)
            elif isinstance(value, list):
                found[path] = ValueKey(
                    path, line, None, True, not value, described=described(line), listed=True
                )
            else:
                text = None if value is None else str(value)
                found[path] = ValueKey(path, line, text, False, not text, described=described(line))

    walk(document, "", 0)
    return found


_VALUES_READ = re.compile(r"\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)*)")
"""`.Values.image.tag` (or `$.Values…`, `$root.Values…`) in a template: the path read; `.Values` alone
passes them all."""
_INDEX_READ = re.compile(
    r"\bindex[ \t]+\(?\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\)?((?:[ \t]+\"[^\"]*\")+)"
)
"""`index .Values.x "nvidia.com/gpu"`: a key a dotted path cannot name."""


def template_reads(folder: Path) -> frozenset[str] | None:
    """The `.Values` paths the files under `folder` (a chart's `templates/`) read; None without it."""
    if not os.path.isdir(folder):
        return None
    found: set[str] = set()
    count = 0
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            count += 1
            if count > MAX_TEMPLATES:
                return frozenset({""})  # too many to read: as if every key were read
            path = Path(root) / name
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            indexed: set[int] = set()
            for match in _INDEX_READ.finditer(text):
                keys = re.findall(r"\"([^\"]*)\"", match.group(2))
                found.add(".".join(filter(None, [match.group(1)[1:], *keys])))
                indexed.add(match.start(1))
            found.update(m.group(1)[1:] for m in _VALUES_READ.finditer(text) if m.start(1) not in indexed)
    return frozenset(found)


def _subcharts(folder: Path, chart: Any) -> frozenset[str]:
    names: set[str] = set()
    documents = [chart, _load(folder / "requirements.yaml")]
    for document in documents:
        dependencies = document.get("dependencies") if isinstance(document, dict) else None
        for entry in dependencies if isinstance(dependencies, list) else ():
            if isinstance(entry, dict):
                names.update(str(entry[k]) for k in ("name", "alias") if entry.get(k))
    try:
        for entry in sorted(os.listdir(folder / "charts")):
            names.add(re.sub(r"-v?\d+(?:\.\d+)*.*\.tgz$", "", entry).removesuffix(".tgz"))
    except OSError:
        pass
    return frozenset(names)


def read_chart(folder: Path) -> Chart | None:
    """The chart in `folder` (a values file, with or without a Chart.yaml); None when there is none or
    its values file cannot be read (no PyYAML, invalid YAML, not a mapping)."""
    values_file = next((folder / n for n in VALUES_FILES if os.path.isfile(folder / n)), None)
    if values_file is None:
        return None
    document = _load(values_file)
    if document is None:
        document = {} if _yaml() is not None and _is_blank(values_file) else None
    if not isinstance(document, dict):
        return None
    try:
        text_lines = values_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        text_lines = []
    chart_file = next((folder / n for n in CHART_FILES if os.path.isfile(folder / n)), None)
    chart = _load(chart_file) if chart_file is not None else None
    name: str | None = None
    if chart_file is not None:
        name = str(chart.get("name") or folder.name) if isinstance(chart, dict) else folder.name
    return Chart(
        folder,
        values_file,
        name,
        flatten(document, text_lines),
        _subcharts(folder, chart),
        template_reads(folder / "templates"),
    )


def _is_blank(path: Path) -> bool:
    try:
        return not any(
            line.strip() and not line.lstrip().startswith("#")
            for line in path.read_text(encoding="utf-8").splitlines()
        )
    except (OSError, UnicodeDecodeError):
        return False


def charts_near(directory: Path) -> list[Chart]:
    """The charts in `directory` and in its immediate subfolders (`chart/`, `helm/`), in name order."""
    found: list[Chart] = []
    folders = [directory]
    try:  # (scandir: an entry's type comes with its name, no stat per file of a large folder)
        with os.scandir(directory) as entries:
            folders += sorted(
                Path(e.path)
                for e in entries
                if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
            )
    except OSError:
        pass
    for folder in folders:
        chart = read_chart(folder)
        if chart is not None and (chart.name is not None or folder == directory):
            found.append(chart)
    return found
