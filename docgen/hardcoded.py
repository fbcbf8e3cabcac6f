"""Hard-coded values: the lines where a build arg's default is written literally although the line
does not read the arg (`cp312` wheels beside `ARG PYTHON_VERSION=3.12`), found once per model build.

The scan feeds the model (`ImageModel.hardcoded`): the build-args table notes each such arg
(`note_for`) and `docgen lint` warns about it (rule DG002), both reading what the model carries.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS, Evaluation
from docgen.model import ArgDecl, HardCoded, Instruction, ParsedDockerfile

__all__ = ["hardcoded", "is_comment", "note_for", "ranges"]


def is_comment(text: str) -> bool:
    """True for a comment line (`# …`, indented or not)."""
    return text.lstrip().startswith("#")


def _blocks_holding(
    instructions: Sequence[Instruction], keys: Sequence[str]
) -> list[tuple[int, int, str, list[int]]]:
    """(instruction index, first line number, text, where keys start in it) of each block (an
    instruction's own lines, then each heredoc body) holding one of `keys`, in order.

    The blocks are joined and each key found with `str.find`: a few substring searches of the whole
    file instead of a pattern's scan of every line (most lines hold none)."""
    blocks: list[tuple[int, int, str]] = []
    for index, inst in enumerate(instructions):
        blocks.append((index, inst.start_line, inst.original))
        if inst.heredocs:
            blocks.extend((index, h.start_line, h.body) for h in inst.heredocs)
    starts = list(itertools.accumulate((len(text) + 1 for _, _, text in blocks), initial=0))
    joined = "\n".join(text for _, _, text in blocks)  # a key holds no newline: never across two blocks
    hits: dict[int, list[int]] = {}
    for key in keys:
        at = joined.find(key)
        while at >= 0:
            block = bisect.bisect_right(starts, at) - 1
            hits.setdefault(block, []).append(at - starts[block])
            at = joined.find(key, at + 1)
    return [(*blocks[i], sorted(hits[i])) for i in sorted(hits)]


def _matches_on_lines(pattern: re.Pattern[str], text: str, positions: list[int]) -> Iterator[re.Match[str]]:
    """What `pattern.finditer(text)` finds, looking only at the lines holding `positions` (where a
    match can start; none spans two lines). A line is scanned up to its newline included, so the
    pattern's look-ahead sees what it would see in the whole text, and its look-behind sees before it."""
    end = -1
    for at in positions:
        if at <= end:
            continue
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        yield from pattern.finditer(text, start, end + 1)


# --------------------------------------------------------------------------------------------------
# A build arg's default written literally elsewhere (lint rule DG002)

# The boundaries of each kind of literal: a dotted version is matched whole (7.0.2 is not found in
# 17.0.25 or 7.0.21), a compact Python/CUDA version (cp312, cu124) and a commit as a whole word.
_BOUNDS = {
    # a pre- or post-release of the value is another version (`v0.10.2rc1`, `1.9.0a0`, `2.8.0.post1`)
    "version": (
        r"(?<![0-9])(?<![0-9]\.)",
        r"(?![0-9]|\.[0-9]|[._-]?(?:a|b|c|rc|alpha|beta|pre|dev|post)[0-9])",
    ),
    "compact": (r"(?<![A-Za-z0-9])", r"(?![0-9])"),
    "hex": (r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"),
}


def _literal_pattern(keys: Sequence[str]) -> re.Pattern[str]:
    """One pattern finding any of `keys` (versions, compact versions, commits) with its boundaries."""
    kinds: dict[str, list[str]] = {"version": [], "compact": [], "hex": []}
    for key in keys:
        kind = "version" if "." in key else "compact" if key[:2] in ("cp", "py", "cu") else "hex"
        kinds[kind].append(key)
    parts = []
    for kind, found in kinds.items():
        if found:
            before, after = _BOUNDS[kind]
            words = "|".join(re.escape(k) for k in sorted(found, key=len, reverse=True))
            parts.append(f"{before}(?P<{kind}>{words}){after}")
    return re.compile("|".join(parts))


_PREFIX = re.compile(r"(?:rocm-rel-|rocm-?|python-?|py|cuda-?|cu|v)\Z", re.IGNORECASE)
_VERSION_VALUE = re.compile(r"v?([0-9]+)\.([0-9]+)(?:\.[0-9]+)*")
_HEX_VALUE = re.compile(r"(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}")
_SEPARATORS = frozenset(" \t\r\n/\"'=:,;()[]{}<>|&")
_STEM_SUFFIX = re.compile(r"_(?:VERSION|VER|TAG|COMMIT|SHA|REF|RELEASE)\Z")
_ALIASES = {"python": ("python", "py", "cp"), "cuda": ("cuda", "cu")}
_GLUED_NAME = re.compile(r"([A-Za-z][A-Za-z0-9_.]*?[A-Za-z])[-_]?(?:[=~!<>]=+|==|@|-|_)?v?\Z")
_GLUED_CHARS = string.ascii_letters + string.digits + "_.-=~!<>@"
"""Every character `_GLUED_NAME` can match."""
_CASE_AFTER = re.compile(r"[\"'*]*\s*[|)]")
_WINDOW = 64  # characters looked at around a literal: keeps a pathological long line linear
_GENERIC_WORDS = frozenset({"v", "rel", "release", "version", "ver", "tag"})


@dataclass(frozen=True)
class _Candidate:
    decl: ArgDecl
    stems: re.Pattern[str]
    """Lower-case words that tie a text to this arg (`rocm`; `python`, `py`, `cp`), not glued to other
    letters (`rocm7.0.2`, `python3.12`, `cp312`, but not `torchaudio` or `pytorch` for TORCH_VERSION)."""
    needs_stem: bool
    """True for short values (`3.12`): only counted on a line that also names the arg's subject."""
    glued: bool = False
    """True for the major.minor of a longer default (`12.1` of 12.1.0): counted only in a word that
    names the arg's subject (`cuda-12.1`, `rocm6.4`), never alone."""


@functools.lru_cache(maxsize=1024)  # the same arg names in file after file
def _stems(name: str) -> re.Pattern[str]:
    stem = _STEM_SUFFIX.sub("", name).lower()
    words: tuple[str, ...] = (stem,)
    for key, aliases in _ALIASES.items():
        if key in stem:
            words = aliases
    return re.compile("(?<![a-z])(?:" + "|".join(re.escape(w) for w in words) + ")(?![a-z])")


def _candidates(evaluation: Evaluation) -> tuple[dict[str, list[_Candidate]], set[str]]:
    """Token → the args whose default it spells, and the names of those args."""
    table: dict[str, list[_Candidate]] = {}
    seen: set[tuple[str, str]] = set()
    for decl in evaluation.args:
        value = decl.default
        if decl.raw_default is None or not value or decl.name in PREDEFINED_ARGS or decl.name in PROXY_ARGS:
            continue
        if (decl.name, value) in seen:
            continue
        seen.add((decl.name, value))
        stems = _stems(decl.name)
        version = _VERSION_VALUE.fullmatch(value)
        if version:
            short = value.count(".") == 1
            plain = value.lstrip("v")
            table.setdefault(plain, []).append(_Candidate(decl, stems, short))
            if plain.count(".") > 1:
                major_minor = f"{version.group(1)}.{version.group(2)}"
                table.setdefault(major_minor, []).append(_Candidate(decl, stems, True, glued=True))
            compact = version.group(1) + version.group(2)
            if "python" in decl.name.lower():
                for prefix in ("cp", "py"):
                    table.setdefault(prefix + compact, []).append(_Candidate(decl, stems, False))
            elif "cuda" in decl.name.lower():
                table.setdefault("cu" + compact, []).append(_Candidate(decl, stems, False))
        elif _HEX_VALUE.fullmatch(value):
            table.setdefault(value, []).append(_Candidate(decl, stems, False))
    names = {c.decl.name for cands in table.values() for c in cands}
    return table, names


def _plain(lowered: str) -> str:
    """Lower-case text with the `+` of wheel URLs decoded (`%2brocm7.0.2` → `+rocm7.0.2`)."""
    return lowered.replace("%2b", "+")


def _token_around(text: str, start: int, end: int) -> str:
    """The lower-cased word around `text[start:end]` (at most _WINDOW characters each side)."""
    left, lowest = start, max(0, start - _WINDOW)
    while left > lowest and text[left - 1] not in _SEPARATORS:
        left -= 1
    right, highest = end, min(len(text), end + _WINDOW)
    while right < highest and text[right] not in _SEPARATORS:
        right += 1
    return text[left:right].lower()


_NONE: frozenset[str] = frozenset()


def hardcoded(parsed: ParsedDockerfile, evaluation: Evaluation) -> tuple[HardCoded, ...]:
    """Every line where a build arg's default (or a usual spelling of it: `cp312`, `python3.12`,
    `rocm-rel-7.0.2`) is written literally although that line does not read the arg, by line.

    Versions match whole (7.0.2 is not found in 17.0.25); short defaults such as `3.12` count only on
    a line that also names their subject (`python3.12`); empty, single-number, `true`-like and other
    non-version defaults are ignored. The ARG lines that declare the value are skipped. Only the lines
    holding a value (found by substring search) are scanned, with one pattern for all the values.
    """
    table, names = _candidates(evaluation)
    if not table:
        return ()
    keys = list(table)
    pattern = _literal_pattern(keys)
    references = re.compile(r"\$\{?(" + "|".join(re.escape(n) for n in sorted(names)) + r")(?![A-Za-z0-9_])")
    arg_defaults: dict[int, set[str]] = {}
    for decl in evaluation.args:
        if decl.default is not None and decl.raw_default is not None:
            arg_defaults.setdefault(decl.line, set()).add(decl.default.lstrip("v"))
    found: dict[tuple[str, int, str], HardCoded] = {}
    stages = evaluation.stages
    scopes = evaluation.scopes
    last = -1  # the instruction of the previous block
    for index, first, block, positions in _blocks_holding(parsed.instructions, keys):
        if index >= len(scopes):
            break
        if index != last:
            inst, scope, last = parsed.instructions[index], scopes[index], index
            own = arg_defaults.get(inst.start_line, _NONE) if inst.keyword == "ARG" else _NONE
            related: set[str] | None = None  # labels of this stage and the stages it copies from
        # one scan per block; a match's line is found by counting newlines since the previous one
        number, line_start, line_end = first, 0, -1
        read: set[str] | None = None
        lowered = ""
        named: dict[str, bool] = {}  # arg name -> the current line names its subject
        for match in _matches_on_lines(pattern, block, positions):
            token = match.group(0)
            cands = table.get(token)
            if not cands or token in own:
                continue
            if scope.stage is not None:
                # an arg declared in a stage claims the literals of that stage (and of stages built
                # on it or copying from it), not those of an unrelated stage (`FROM rust` installing
                # python3.11 while another stage declares PYTHON_VERSION=3.11)
                if related is None:
                    stage = stages[scope.stage]
                    related = {stage.label, *(stages[d].label for d in stage.depends_on)}
                cands = [c for c in cands if c.decl.stage is None or related.intersection(c.decl.stages)]
                if not cands:
                    continue
            if match.start() > line_end:
                number += block.count("\n", line_start, match.start())
                line_start = block.rfind("\n", 0, match.start()) + 1
                line_end = block.find("\n", match.start())
                line_end = len(block) if line_end < 0 else line_end
                read, lowered = None, ""
                named = {}
            text = block[line_start:line_end]
            if is_comment(text):
                continue
            if read is None:
                read = set(references.findall(text))
                lowered = _plain(text.lower())
            if any(c.decl.name in read for c in cands):
                continue  # the line reads an arg with this value: the literal is about that arg
            start, end = match.start() - line_start, match.end() - line_start
            if _is_case_pattern(text, start, end):
                continue  # `12.6.1) CUINDEX=126 ;;` tests the value, it does not use it
            chosen = _attribute(cands, text, lowered, named, (start, end), match.lastgroup == "version")
            if not chosen:
                continue
            prefix = ""
            if match.lastgroup == "version":
                found_prefix = _PREFIX.search(text, max(0, start - 9), start)
                prefix = found_prefix.group(0) if found_prefix else ""
            spelling = prefix + token
            for cand in chosen:
                key = (cand.decl.name, number, spelling)
                if key not in found:
                    found[key] = HardCoded(
                        cand.decl.name, cand.decl.line, cand.decl.default or "", number, spelling
                    )
    return tuple(sorted(found.values(), key=lambda h: (h.line, h.arg)))


def _is_case_pattern(text: str, start: int, end: int) -> bool:
    """True when `text[start:end]` is a pattern of a shell `case`: it opens the line, follows `in` or
    another alternative (`|`), and is closed by `)` or `|` (quotes and globs around it allowed)."""
    head = text[max(0, start - _WINDOW) : start].rstrip(" \t\"'*")
    opens_line = not head and start <= _WINDOW
    after_in = head.endswith("in") and (len(head) == 2 or not head[-3].isalnum())
    return (opens_line or after_in or head.endswith(("|", "("))) and bool(_CASE_AFTER.match(text, end))


def _attribute(
    cands: list[_Candidate],
    text: str,
    lowered: str,
    named: dict[str, bool],
    span: tuple[int, int],
    version: bool,
) -> list[_Candidate]:
    """The args the literal `text[start:end]` (`span`) belongs to: those whose subject the token
    (else the line; `named` caches that per arg) names; an ambiguous long version (two args with
    default 7.0.2, neither named nearby) belongs to both."""
    start, end = span
    if version:
        # another package's version (`torchaudio-2.5.1`, `foo==2.5.1`): a name glued to the number
        # that is not the subject of any candidate arg
        before = _plain(text[max(0, start - _WINDOW) : start].lower())
        # (a match runs to the end: it starts after the last character it cannot hold)
        glued = _GLUED_NAME.search(before, len(before.rstrip(_GLUED_CHARS)))
        if glued and glued.group(1) not in _GENERIC_WORDS:
            cands = [c for c in cands if c.stems.search(glued.group(1))]
            if not cands:
                return []
    token = _plain(_token_around(text, start, end))
    near = [c for c in cands if c.stems.search(token)]
    if near:
        return near
    cands = [c for c in cands if not c.glued]
    for c in cands:  # one search of the line per arg, however many literals it holds
        if c.decl.name not in named:
            named[c.decl.name] = bool(c.stems.search(lowered))
    on_line = [c for c in cands if named[c.decl.name]]
    if on_line:
        return on_line
    return [c for c in cands if not c.needs_stem]


def note_for(entries: Sequence[HardCoded]) -> str:
    """The build-args table note for one arg's hard-coded lines."""
    lines = sorted({h.line for h in entries})
    spellings = ", ".join(dict.fromkeys(h.spelling for h in entries))
    if len(lines) == 1:
        return f"Also hard-coded at line {lines[0]} ({spellings}): overriding it does not change that line."
    return f"Also hard-coded at lines {ranges(lines)} ({spellings}): overriding it does not change those."


def ranges(numbers: Sequence[int]) -> str:
    """`118-122, 140` for 118, 119, 120, 121, 122, 140."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)
