"""Why a generated block is out of date, and which Dockerfile lines are behind the rows that changed.

`docgen check` compares each block's body with what docgen renders now. When they differ, the begin
marker's fingerprint (`docgen.fingerprint`) tells the cause apart:

- `text` no longer matches the body: the block was **edited by hand**;
- `dockerfile` differs from the Dockerfile's fingerprint now: the **Dockerfile changed**, and the rows
  that changed name their Dockerfile lines (the `L62` line links, or the build arg's declaration);
- `setup` differs: the **configuration, templates or docgen** changed;
- no fingerprint at all: the block predates fingerprints (or was written by hand); `docgen sync` adds one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from docgen import markdown, markers
from docgen.fingerprint import parse_attributes, text_digest
from docgen.markers import Block
from docgen.model import ImageModel
from docgen.rows import RenderOptions, arch_value, build_arg_rows

HAND_EDIT = "hand-edit"
DOCKERFILE = "dockerfile"
SETUP = "setup"
UNKNOWN = "unknown"

# the line cell of a row: `[L62](Dockerfile#L62)` or a bare `L62` cell
_LINE_CELL = re.compile(r"\[L(\d+)\]\(|\|[ \t]*L(\d+)[ \t]*\|")


@dataclass(frozen=True)
class RowSource:
    """A changed row of a generated table and the Dockerfile line it comes from."""

    row: str
    """The row's first cell, as plain text (`ROCm`, `MAX_JOBS`)."""
    line: int
    """1-based Dockerfile line."""


@dataclass(frozen=True)
class Drift:
    """One out-of-date block: what differs, why, and the Dockerfile lines behind it."""

    document: str
    """The Markdown file, as shown to the user."""
    block: str
    """The block name (`versions`)."""
    line: int
    """1-based line of the block's begin marker."""
    first_changed: int
    """1-based line of the document where the block's first differing line is."""
    causes: tuple[str, ...]
    """`hand-edit`, `dockerfile`, `setup` (one or more), or `unknown`."""
    reason: str
    """The causes in one sentence."""
    fix: str
    """What to do about it."""
    diff: str
    """Unified diff from the current body to the generated one."""
    dockerfile: str
    """The Dockerfile, as shown to the user."""
    sources: tuple[RowSource, ...] = ()
    """Rows added or changed, with their Dockerfile lines (when the Dockerfile changed)."""
    removed: tuple[str, ...] = ()
    """Rows the Dockerfile no longer produces."""


def _first_cell(line: str) -> str:
    """The first cell of a Markdown table row as plain text ('' for a line that is not a row)."""
    stripped = line.strip()
    if not stripped.startswith("|") or set(stripped) <= set("|-: "):
        return ""
    return markdown.plain(markdown.table_cells(stripped)[0], html_tags=False)


def _lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of `text` as Markdown and `find_blocks` count them (`\n`, `\r\n`, `\r` end a line;
    U+2028, NEL and form feeds, which `str.splitlines` also splits at, do not)."""
    if keepends:
        return [line for line in markers.split_lines(text) if line]
    return markdown.source_lines(text)


def _changed_lines(old: str, new: str) -> tuple[list[str], list[str]]:
    """Lines only in `old` (removed) and lines only in `new` (added or changed)."""
    old_lines, new_lines = _lines(old), _lines(new)
    removed: list[str] = []
    added: list[str] = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += old_lines[i1:i2]
            added += new_lines[j1:j2]
    return removed, added


def _causes(
    found: Mapping[str, str], name: str, current: str, dockerfile_digest: str, setup_digest: str
) -> list[str]:
    """What the fingerprints `found` on block `name` (body `current`) say changed since docgen wrote it,
    given the digests of its Dockerfile(s) and setup now; `UNKNOWN` when they say nothing."""
    if "text" not in found:
        return [UNKNOWN]
    causes = []
    if found["text"] != text_digest(name, current):
        causes.append(HAND_EDIT)
    if found.get("dockerfile") != dockerfile_digest:
        causes.append(DOCKERFILE)
    if found.get("setup") != setup_digest:
        causes.append(SETUP)
    return causes or [UNKNOWN]


def _diff(document: str, name: str, current: str, generated: str) -> str:
    """The unified diff from a block's body `current` to the `generated` one, every line ended."""
    return "".join(
        line if line.endswith("\n") else line + "\n"
        for line in difflib.unified_diff(
            _lines(current, keepends=True),
            _lines(generated, keepends=True),
            fromfile=f"current {document} (docgen:{name})",
            tofile=f"generated {document} (docgen:{name})",
        )
    )


def _first_difference(old: str, new: str) -> int:
    """0-based index of the first line where `old` and `new` differ."""
    old_lines, new_lines = _lines(old), _lines(new)
    for index, (a, b) in enumerate(zip(old_lines, new_lines, strict=False)):
        if a != b:
            return index
    return min(len(old_lines), len(new_lines))


def row_sources(
    section: str, old: str, new: str, model: ImageModel, options: RenderOptions
) -> tuple[tuple[RowSource, ...], tuple[str, ...]]:
    """The rows of `section` that `new` adds or changes, with their Dockerfile lines, and the rows
    only `old` has."""
    removed_lines, added_lines = _changed_lines(old, new)
    arg_lines = {row.name: row.line for row in build_arg_rows(model)}
    _, arch_line = arch_value(model, options.arch_arg)
    sources: dict[RowSource, None] = {}  # insertion-ordered set
    for text in added_lines:
        name = _first_cell(text)
        lines = [int(m.group(1) or m.group(2)) for m in _LINE_CELL.finditer(text)]
        # the build args a row names (first cell of build-args, `Build arg` cell of versions)
        lines += [arg_lines[c] for _, _, c in markdown.code_spans(text) if c in arg_lines]
        if not lines and section == "hardware" and arch_line:
            lines.append(arch_line)
        for line in lines:
            sources.setdefault(RowSource(name or text.strip(), line), None)
    added_names = {s.row for s in sources}
    gone = tuple(
        dict.fromkeys(n for n in (_first_cell(t) for t in removed_lines) if n and n not in added_names)
    )
    return tuple(sources), gone


def explain(
    document: str,
    block: Block,
    current: str,
    generated: str,
    model: ImageModel,
    options: RenderOptions,
    dockerfile_digest: str,
    setup_digest: str,
) -> Drift:
    """Why block `block` of `document` (current body `current`) differs from `generated`."""
    found = parse_attributes(block.attributes)
    causes = _causes(found, block.name, current, dockerfile_digest, setup_digest)
    sources, removed = row_sources(block.name, current, generated, model, options)
    if DOCKERFILE not in causes and UNKNOWN not in causes:
        sources = ()  # the Dockerfile did not change: its lines are not the cause
    reason = _reason(causes, model.path, sources, _unknown(found, current, generated))
    return _drift(document, block, current, generated, causes, reason, model.path, sources, removed)


def _drift(
    document: str,
    block: Block,
    current: str,
    generated: str,
    causes: list[str],
    reason: str,
    dockerfile: str,
    sources: tuple[RowSource, ...] = (),
    removed: tuple[str, ...] = (),
) -> Drift:
    """The `Drift` of block `block` of `document` from its body `current` to `generated`: where it
    first differs, the diff, and the fix its `causes` call for."""
    return Drift(
        document=document,
        block=block.name,
        line=block.begin_line,
        first_changed=block.begin_line + 1 + _first_difference(current, generated),
        causes=tuple(causes),
        reason=reason,
        fix=_fix(causes),
        diff=_diff(document, block.name, current, generated),
        dockerfile=dockerfile,
        sources=sources,
        removed=removed,
    )


def _reason(causes: list[str], dockerfile: str, sources: tuple[RowSource, ...], unknown: str) -> str:
    parts = []
    if HAND_EDIT in causes:
        parts.append("the block was edited by hand since docgen wrote it")
    if DOCKERFILE in causes:
        lines = ", ".join(str(s.line) for s in sorted(set(sources), key=lambda s: s.line))
        changed = f" (changed rows come from line{'s' if ',' in lines else ''} {lines})" if lines else ""
        parts.append(f"{dockerfile} changed since the last sync{changed}")
    if SETUP in causes:
        parts.append("the configuration, templates or docgen itself changed since the last sync")
    if UNKNOWN in causes:
        parts.append(unknown)
    return "; ".join(parts)


def _unknown(found: dict[str, str], current: str, generated: str) -> str:
    """Why a block differs when its fingerprint cannot tell."""
    if "text" not in found:
        return "the block has no fingerprint of the last sync, so the cause is not known"
    if current.replace("\r\n", "\n") == generated.replace("\r\n", "\n"):
        ending = "CRLF" if "\r\n" in generated else "LF"
        return (
            "the document's line endings changed since the last sync (blocks are written with the "
            f"line ending most of its lines use, now {ending})"
        )
    return (
        "its fingerprint matches the Dockerfile, setup and text, so something docgen does not "
        "fingerprint changed (an installed library, say)"
    )


def _fix(causes: list[str]) -> str:
    if HAND_EDIT in causes:
        return (
            "generated blocks are overwritten by `docgen sync`: put the change in the Dockerfile "
            "(an ARG's doc comment gives its purpose), the config or a template, then run `docgen sync`"
        )
    return "run `docgen sync` and commit the result"


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row as plain text (see `_first_cell`)."""
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    return [_first_cell(f"|{cell}|") or cell.strip() for cell in re.split(r"(?<!\\)\|", stripped)]


def _by_image(body: str, names: list[str]) -> dict[str, tuple[str, ...]]:
    """Image name → its cells in an `images` or `matrix` table: its row when the first cells name
    images, else its column (the header names them)."""
    rows = [_cells(line) for line in _lines(body) if line.strip().startswith("|")]
    rows = [row for row in rows if not all(set(cell) <= set("-: ") for cell in row)]
    if not rows:
        return {}
    header, rest = rows[0], rows[1:]
    if any(row and row[0] in names for row in rest) or not any(cell in names for cell in header[1:]):
        return {row[0]: tuple(row[1:]) for row in rest if row}
    return {
        name: tuple(row[column] if column < len(row) else "" for row in rest)
        for column, name in enumerate(header)
        if column
    }


def explain_family(
    document: str,
    block: Block,
    current: str,
    generated: str,
    images: list[tuple[str, str]],
    dockerfile_digest: str,
    setup_digest: str,
) -> Drift:
    """Why block `block` of `document`, an `images` or `matrix` block about `images` ((name, Dockerfile
    as shown), in order), differs from `generated`: the causes its fingerprint tells, and which images
    changed, were added or are no longer listed."""
    found = parse_attributes(block.attributes)
    causes = _causes(found, block.name, current, dockerfile_digest, setup_digest)
    names = [name for name, _ in images]
    before, after = _by_image(current, names), _by_image(generated, names)
    changed = [(name, path) for name, path in images if name in before and before[name] != after.get(name)]
    added = [name for name in names if name not in before]
    gone = [name for name in before if name not in after]
    parts = []
    if HAND_EDIT in causes:
        parts.append("the block was edited by hand since docgen wrote it")
    if changed:
        shown = ", ".join(f"{name} ({path})" for name, path in changed)
        parts.append(f"image{'s' if len(changed) > 1 else ''} {shown} changed since the last sync")
    for listed, what in ((added, "now list"), (gone, "no longer list")):
        if listed:
            many = len(listed) > 1
            verb = what if many else what + "s"
            parts.append(f"image{'s' if many else ''} {', '.join(listed)} {verb} {document}")
    if not parts:
        parts.append(
            _reason(
                [c for c in causes if c != HAND_EDIT],
                ", ".join(p for _, p in images),
                (),
                _unknown(found, current, generated),
            )
        )
    dockerfiles = ", ".join(path for _, path in (changed or images))
    return _drift(
        document, block, current, generated, causes, "; ".join(parts), dockerfiles, removed=tuple(gone)
    )
