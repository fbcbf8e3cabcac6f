"""Claims about the GPU targets an image is built for: a table column or a list of targets (`gfx942`,
`sm_90`) under words saying the image is built for them, against the default of the build arg that lists
them and against the value the README's own build passes it (`make build` or `./build.sh` passing
`--build-arg GPU_ARCH=$GPU_ARCH` from an env file the Makefile includes or the script sources); a block
the README shows as that env file's content against the file; and targets a README's commands build for
that the image's CUDA release cannot compile (`--build-arg TORCH_CUDA_ARCH_LIST="9.0;12.0"` on a CUDA
12.6 image).
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docgen import baseimage, hardware
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, Fact, some
from docgen.audit.cells import first_code, plain_cell
from docgen.audit.wording import COMMAND_LANGS, LIST_ITEM, fence_intro
from docgen.files import text_or_none
from docgen.markdown import Document, Table, code_spans
from docgen.model import ArgDecl, Diagnostic, ImageModel

_TARGET = re.compile(r"gfx[0-9a-f]{3,4}|sm_\d{2,3}[af]?", re.IGNORECASE)
"""A GPU target spelled so it can be nothing else (`gfx942`, `sm_90`); `9.0` alone could be anything."""
BUILT_FOR = re.compile(
    r"\b(?:built|compiled)\b[^.]{0,60}?\b(?:for|covering|targeting)\b"
    r"|\bfat[ \t]+build\b|\bbuild[ \t]+targets?\b",
    re.IGNORECASE,
)
"""Words saying a list of GPU targets is what the image is built for (`a fat build covering`, `compiled
for`), not which GPUs a project supports or was tested on."""
_IMAGE_BUILT_FOR = re.compile(
    r"\b(?:image|images|container|build|binar(?:y|ies))[ \t]+(?:is|are)[ \t]+(?:built|compiled)[ \t]+"
    r"(?:\w+[ \t]+){0,4}?(?:for|covering|targeting)\b",
    re.IGNORECASE,
)
"""An introduction saying what the image itself is built for (`This image is compiled for broad AMD GPU
compatibility:`), not what a project supports: the list after it is the image's build targets."""
_TARGET_CHOICE = re.compile(r"\b(?:your|pick|choose|select|override|instead|e\.g)\b|--build-arg", re.I)
"""Words making a list of targets ones to choose from (`to build for your GPU, pick its target`)."""
_ARCH_ARG_NAME = re.compile(r"(?:ARCH|ARCHS|ARCH_LIST|TARGETS|ARCHITECTURES)\Z")


def _target_column(table: Table) -> list[str] | None:
    """The targets of the column of `table` every non-empty cell of which is one GPU target."""
    columns: list[list[str]] = [[] for _ in table.header]  # each cell read once (rows may be short)
    for _, row in table.rows:
        for index, cell in enumerate(row[: len(columns)]):
            if text := (first_code(cell) or plain_cell(cell)).strip():
                columns[index].append(text)
    for texts in columns:
        if len(texts) >= 2 and all(_TARGET.fullmatch(t) for t in texts):
            return texts
    return None


def audit_targets(doc: Document, auditor: Auditor) -> Iterator[Diagnostic]:
    """A table column or a list of GPU targets (`gfx942`, `sm_90`) under text saying the image is built
    for them (`a fat build covering every architecture`, `compiled for`), against the default of the
    build arg listing the targets (`GPU_ARCH`, `PYTORCH_ROCM_ARCH`, `ROCM_DOCKER_ARCH`,
    `TORCH_CUDA_ARCH_LIST` …): targets the README lists that it lacks, and targets it has that the
    README leaves out."""
    lists: list[tuple[int, list[str], bool, bool, int]] = []  # (+ the line of the list's start)
    sections: dict[int, _SectionText] = {}
    defaults = _target_defaults(auditor)  # once, not once a list (n lists × n images read n² args)
    for table in doc.tables:
        targets = _target_column(table)
        if targets:
            if not sections:  # the prose of each section, joined once
                for para in doc.paragraphs:
                    sections.setdefault(para.section, _SectionText()).lines.extend(para.lines)
            text = sections.setdefault(table.section, _SectionText())
            lists.append((table.line, targets, text.built_for(table.context, table.line), False, table.line))
    for para in doc.paragraphs:
        items = [(line, text[m.end() :]) for line, text in para.lines if (m := LIST_ITEM.match(text))]
        listed = [(line, _item_targets(item)) for line, item in items]
        if len(items) >= 2 and all(targets for _, targets in listed):
            intro = " ".join(text for _, text in para.lines if not LIST_ITEM.match(text))
            context = " ".join((para.heading, para.before, intro))
            every = [t for _, targets in listed for t in targets]
            # The finding is on the first item naming a target the default lacks, else on the list.
            at = _first_line_with_extra(listed, defaults) or para.lines[0][0]
            # said of the image in the sentence introducing the list: its items are the build's targets
            opening = para.before if para.before.rstrip().endswith(":") else intro
            of_image = bool(_IMAGE_BUILT_FOR.search(opening))
            lists.append((at, every, _built_for(context), of_image, para.lines[0][0]))
    passed = build_path_values(doc, auditor) if lists else {}
    for line, targets, built, of_image, start in lists:
        if not built:
            continue
        claimed = {hardware.target_key(t) for t in targets}
        given = [v for v in passed.values() if _same_vendor(v.targets, claimed)]
        if any(set(v.targets) == claimed for v in given):
            continue  # the list the README's own build passes
        yield from some(_targets_claim(line, targets, defaults, auditor, of_image))
        for value in given:
            yield _passed_claim(start, targets, value, auditor, of_image)
    yield from _shown_env_files(doc, passed, auditor)


@dataclass(frozen=True)
class _Passed:
    """The value the README's own build passes a target build arg, from an env file of the project."""

    name: str
    value: str
    targets: list[str]
    """The targets of `value` as `hardware.target_key` spells them."""
    file: str
    """The env file, as a path from the README's folder."""
    line: int
    via: str
    """How the build gets it (`make: Makefile includes versions.env, build.sh passes --build-arg …`)."""


def _same_vendor(targets: Sequence[str], claimed: set[str]) -> bool:
    return bool(targets) and {t.startswith("gfx") for t in targets} == {t.startswith("gfx") for t in claimed}


_MAKE = re.compile(r"(?:^|[\s;&|(])(?:sudo[ \t]+)?make(?:[ \t]|$)")
"""A `make` command of a README block."""
_SCRIPT = re.compile(r"(?:^|[\s;&|(])(?:(?:ba)?sh[ \t]+)?(?:\./)?([\w.-]+\.sh)(?=$|[\s;&|)])")
"""A script a README block (or a recipe) runs from its folder (`./build.sh`, `bash build.sh`)."""
_INCLUDE = re.compile(r"^[ \t]*-?s?include[ \t]+([\w.-]+)[ \t]*(?:#.*)?$", re.M)
"""A makefile's `include versions.env` of a file of its folder."""
_SOURCE = re.compile(
    r"(?:^|[;&|{][ \t]*|\b(?:then|do)[ \t]+)(?:source|\.)[ \t]+(\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|]+)", re.M
)
_FOLDER_PREFIX = re.compile(r"\A(?:\$\{?\w+\}?|\$\(dirname[^)]*\)|\.)/")
"""A script's own folder before a file name (`${SCRIPT_DIR}/`, `$(dirname "$0")/`, `./`)."""
_ENV_LINE = re.compile(r"^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=(.*)$")
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_MOST = 1_000_000
"""The largest Makefile, script or env file read."""


def _passes(name: str, text: str, make: bool) -> bool:
    """True when `text` passes build arg `name` its own variable: `--build-arg NAME=$NAME` (a script, an
    array's `"--build-arg" "NAME=$NAME"`) or `--build-arg NAME=$(NAME)` (a makefile)."""
    value = rf"\$\(?{name}\)" if make else rf"\$\{{?{name}\}}?"
    return re.search(rf"--build-arg[\"']?(?:[ \t]+|=)[\"']?{name}=[\"']?{value}(?!\w)", text) is not None


def _sourced(text: str) -> list[str]:
    """The files of its own folder a script sources (`source "${SCRIPT_DIR}/versions.env"`, a variable
    the script sets to such a path followed once)."""
    found = []
    for match in _SOURCE.finditer(text):
        word = match.group(1).strip("\"'")
        if (variable := re.fullmatch(r"\$\{?(\w+)\}?", word)) is not None:
            assigned = re.search(rf"\b{variable.group(1)}=(\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|]+)", text)
            if assigned is None:
                continue
            word = assigned.group(1).strip("\"'")
        word = _FOLDER_PREFIX.sub("", word)
        if re.fullmatch(r"[\w.-]+", word) and word not in (".", ".."):
            found.append(word)
    return found


def _env_values(path: str) -> dict[str, tuple[str, int]]:
    """NAME → (value, line) of the last uncommented assignment of each name in the env file at `path`."""
    text = text_or_none(Path(path), _MOST)
    if text is None:
        return {}
    found = {}
    for number, line in enumerate(text.splitlines(), 1):
        if (match := _ENV_LINE.match(line)) is not None:
            value = re.sub(r"[ \t]+#.*$", "", match.group(2)).strip().strip("\"'")
            found[match.group(1)] = (value, number)
    return found


def build_path_values(doc: Document, auditor: Auditor) -> dict[str, _Passed]:
    """The target build args (`_ARCH_ARG_NAME`) of `auditor`'s images that the README's own build passes
    a value from an env file of the Dockerfile's folder: the README runs `make` and the Makefile there
    includes the file and exports the name (or passes `--build-arg NAME=$(NAME)`), or the README (or a
    recipe) runs a script there that sources the file, and the makefile or the script passes
    `--build-arg NAME=$NAME`. A name the README's commands set (`make GPU_ARCH=…`, `GPU_ARCH=… ./build.sh`)
    or exports is left out, and nothing is read when the README also builds the image with `docker build`."""
    commands = [
        text for fence in doc.fences if fence.lang.lower() in COMMAND_LANGS | {""} for _, text in fence.lines
    ]
    if any(re.search(r"\bdocker[ \t]+(?:buildx[ \t]+)?build\b", text) for text in commands):
        return {}
    runs_make = any(_MAKE.search(text) for text in commands)
    scripts = {m.group(1) for text in commands for m in _SCRIPT.finditer(text)}
    # the lines that set a name for the build: `make GPU_ARCH=…`, `GPU_ARCH=… ./build.sh`, `export GPU_ARCH=…`
    said = " ".join(
        t for t in commands if _MAKE.search(t) or _SCRIPT.search(t) or t.lstrip().startswith("export")
    )
    names = {
        decl.name
        for model in auditor.models
        for decl in model.args
        if _ARCH_ARG_NAME.search(decl.name.upper()) and not re.search(rf"\b{decl.name}=", said)
    }
    found: dict[str, _Passed] = {}
    directory = auditor.shared.directory
    if not names or directory is None:
        return found
    for folder in sorted({os.path.dirname(m.file) for m in auditor.models if m.file}):
        texts: list[tuple[str, str, bool]] = []  # (file name, text, is a makefile)
        makefile = next((n for n in _MAKEFILES if os.path.isfile(os.path.join(folder, n))), None)
        make_text = text_or_none(Path(folder, makefile), _MOST) if runs_make and makefile else None
        run = set(scripts)
        if make_text is not None and makefile is not None:
            texts.append((makefile, make_text, True))
            run |= {m.group(1) for m in _SCRIPT.finditer(make_text)}
        for script in sorted(run):
            if os.path.isfile(os.path.join(folder, script)):
                if (text := text_or_none(Path(folder, script), _MOST)) is not None:
                    texts.append((script, text, False))
        for name in sorted(names):
            passing = [file for file, text, make in texts if _passes(name, text, make)]
            if not passing:
                continue
            for file, text, make in texts:
                if make:
                    exported = (
                        re.search(rf"^[ \t]*export(?:[ \t]+[\w ]*\b{name}\b|[ \t]*$)", text, re.M) is not None
                        or ".EXPORT_ALL_VARIABLES" in text
                        or file in passing
                    )
                    env_files = _INCLUDE.findall(text) if exported else []
                    how = f"{file} includes {{}}"
                else:
                    env_files = _sourced(text)
                    how = f"{file} sources {{}}"
                for env in env_files:
                    values = _env_values(os.path.join(folder, env))
                    if name not in values or "$" in values[name][0]:
                        continue
                    value, line = values[name]
                    targets = [hardware.target_key(t) for t in hardware.parse_targets(value)]
                    if not targets or not all(
                        _TARGET.fullmatch(t) or re.fullmatch(r"\d+\.\d", t) for t in targets
                    ):
                        continue
                    shown = os.path.relpath(os.path.join(folder, env), directory)
                    arg = f"$({name})" if passing[0] in _MAKEFILES else f"${name}"
                    via = f"{how.format(env)} and {passing[0]} passes --build-arg {name}={arg}"
                    found.setdefault(name, _Passed(name, value, targets, shown, line, via))
    return found


def _passed_claim(line: int, listed: list[str], passed: _Passed, auditor: Auditor, said: bool) -> Diagnostic:
    """The targets a list the README says the image is built for names that the value its own build
    passes (`passed`) does not build, and those it builds the list leaves out."""
    extra = [t for t in listed if hardware.target_key(t) not in passed.targets]
    claimed = {hardware.target_key(t) for t in listed}
    missing = [t for t in passed.targets if t not in claimed]
    message = (
        f"README lists GPU targets the image is built for, but the README's build passes "
        f"{passed.name}={passed.value} ({passed.file}:{passed.line}; {passed.via})"
    )
    if len(extra) == len(listed):
        message += f": it builds {', '.join(missing)} only, none of them"
        missing = []
    elif extra:
        message += f": it does not build {', '.join(extra)}"
    if missing:
        message += f"{', and' if extra else ':'} it builds {', '.join(missing)}, which the list leaves out"
    return Diagnostic(auditor.path, line, message, confidence=CERTAIN if said else LIKELY)


_EXAMPLE = re.compile(r"\b(?:e\.g|example|for instance|such as|your|change|set|replace|instead)\b", re.I)
"""Words making a block values to write, not the file as it is (`Example for MI200 series only:`)."""


def _shown_env_files(doc: Document, passed: Mapping[str, _Passed], auditor: Auditor) -> Iterator[Diagnostic]:
    """A block whose introduction names an env file the README's build reads (`Edit `versions.env`:`) and
    that shows a target build arg's line of it (`GPU_ARCH=gfx803,gfx900,...`, a trailing `...` a list
    cut short) with other targets than the file's, while another of its lines agrees with the file."""
    by_file: dict[str, list[_Passed]] = {}
    for value in passed.values():
        by_file.setdefault(os.path.basename(value.file), []).append(value)
    directory = auditor.shared.directory
    if not by_file or directory is None:
        return
    for fence in doc.fences:
        intro = fence_intro(doc, fence)
        named = [name for name in by_file if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", intro)]
        if len(named) != 1 or _EXAMPLE.search(intro.replace(named[0], "")):
            continue
        first = by_file[named[0]][0]
        values = _env_values(os.path.join(directory, first.file))
        shown: dict[str, tuple[int, str]] = {}
        for number, text in fence.lines:
            if (match := _ENV_LINE.match(text)) is not None:
                shown[match.group(1)] = (number, match.group(2).strip().strip("\"'"))
        agree = [n for n, (_, v) in shown.items() if n in values and values[n][0] == v]
        for value in by_file[named[0]]:
            if value.name not in shown or not [n for n in agree if n != value.name]:
                continue
            number, written = shown[value.name]
            cut = written.endswith(("...", "…"))
            listed = [
                hardware.target_key(t) for t in hardware.parse_targets(written.rstrip(".…").rstrip(",; "))
            ]
            if not listed or (listed == value.targets[: len(listed)] if cut else listed == value.targets):
                continue
            yield Diagnostic(
                auditor.path,
                number,
                f"README shows {value.file} setting {value.name}={written}, but {value.file}:{value.line} "
                f"sets {value.name}={value.value}",
                confidence=CERTAIN,
            )


def _built_for(context: str) -> bool:
    """True when `context` says the image is built for a list of targets and does not offer a choice."""
    return bool(BUILT_FOR.search(context)) and not _TARGET_CHOICE.search(context)


_REACH = 200
"""More than the longest match of `BUILT_FOR` and `_TARGET_CHOICE` (but for one holding a run of 140
blanks: `fat`, the blanks, `build`), so text read once for them is read again only this far back."""


@dataclass
class _SectionText:
    """The paragraph lines of a section, joined with spaces, read for `_built_for` before each table of
    the section in turn: each part of the text once, not once a table (a section of n paragraphs and n
    tables of GPU targets cost n²)."""

    lines: list[tuple[int, str]] = field(default_factory=list)
    text: str | None = None
    ends: list[int] = field(default_factory=list)
    read: dict[int, tuple[int, bool]] = field(default_factory=dict)  # pattern → (read up to, found)

    def built_for(self, context: str, line: int) -> bool:
        """`_built_for(context + " " + the lines before `line`, joined)`, for tables in line order."""
        if self.text is None:
            self.text = " ".join(text for _, text in self.lines)
            self.ends = list(itertools.accumulate(len(text) + 1 for _, text in self.lines))
        count = bisect.bisect_left(self.lines, line, key=lambda item: item[0])
        upto = self.ends[count - 1] - 1 if count else 0  # the end of " ".join(the first `count` lines)
        head = context + " " + self.text[: min(upto, _REACH)]  # matches that start in `context`
        found = []
        for pattern in (BUILT_FOR, _TARGET_CHOICE):
            match = pattern.search(head)
            done, seen = self.read.get(id(pattern), (-1, False))
            if done > upto:  # a table before the last one read: from the start
                done, seen = -1, False
            if not seen and done < upto:  # the new lines, and the end of the old ones a match may span
                seen = pattern.search(self.text, max(0, done - _REACH), upto) is not None
                self.read[id(pattern)] = (upto, seen)
            found.append(seen or (match is not None and match.start() <= len(context)))
        return found[0] and not found[1]


_LABEL = re.compile(r"[ \t*_]*[^:`*_]{1,40}?[*_]*:[*_]*[ \t]+")
"""The label of a list item that names its targets after it: `RDNA 1: gfx1010, gfx1012`."""
_MORE_TARGETS = re.compile(r"[ \t]*(?:,|/|\band\b)[ \t]*`?(gfx[0-9a-f]{3,4}|sm_\d{2,3}[af]?)\b`?", re.I)


def _item_targets(item: str) -> list[str]:
    """The GPU targets a list item names: its first word (`gfx942 (MI300X)`), or the first word after
    a label (`CDNA 3: gfx942`), with those joined to it (`gfx1010, gfx1012`, `gfx1100 / gfx1101`).
    None when the item does not start so (`Tested on gfx942`)."""
    label = _LABEL.match(item)
    for start in (0, label.end() if label else None):
        if start is None:
            continue
        rest = item[start:]
        head = _first_word(rest)
        if not _TARGET.fullmatch(head):
            continue
        targets = [head]
        at = rest.find(head) + len(head)
        at += 1 if rest[at : at + 1] == "`" else 0
        while (more := _MORE_TARGETS.match(rest, at)) is not None:
            targets.append(more.group(1))
            at = more.end()
        return targets
    return []


_Defaults = list[tuple[ImageModel, ArgDecl, list[str]]]


def _first_line_with_extra(listed: list[tuple[int, list[str]]], known: _Defaults) -> int | None:
    """The line of the first item naming a target none of the target build args' defaults `known`
    has, when there is one."""
    defaults = {key for _, _, keys in known for key in keys}
    if not defaults:
        return None
    for line, targets in listed:
        if any(hardware.target_key(t) not in defaults for t in targets):
            return line
    return None


def _target_defaults(auditor: Auditor) -> _Defaults:
    """Each target build arg of `auditor`'s images that has a default (`PYTORCH_ROCM_ARCH=gfx90a;gfx942`):
    its image, its declaration, and the targets of its default (as `hardware.target_key` spells them)."""
    return [
        (model, decl, [hardware.target_key(t) for t in hardware.parse_targets(decl.effective_default)])
        for model in auditor.models
        for decl in model.args
        if not decl.bare and decl.effective_default and _ARCH_ARG_NAME.search(decl.name.upper())
    ]


def _first_word(item: str) -> str:
    """The first word of a list item, or its first code span when it starts with one (`gfx942`)."""
    body = item.lstrip("*_ ")
    spans = code_spans(body, html_code=True)
    if spans and spans[0][0] == 0:
        return spans[0][2].strip()
    return body.split(" ", 1)[0].rstrip(":,;.")


def _targets_claim(
    line: int, listed: list[str], known: _Defaults, auditor: Auditor, said: bool = False
) -> Diagnostic | None:
    """The targets a list or a column (`listed`) names that the closest target build arg's default does
    not build, and those it builds that the list leaves out: `certain` when the list's introduction says
    the image is built for them (`said`) and the list is that default's (three in four of each's
    targets are the other's, two at least), else `likely`."""
    claimed = {hardware.target_key(t) for t in listed}
    candidates = []
    for model, decl, default in known:
        if not default or not all(_TARGET.fullmatch(t) or re.fullmatch(r"\d+\.\d", t) for t in default):
            continue
        if {t.startswith("gfx") for t in default} != {t.startswith("gfx") for t in claimed}:
            continue  # another vendor's list
        if set(default) == claimed:
            return None
        candidates.append((len(claimed & set(default)), model, decl, default))
    if not candidates:
        return None
    _, model, decl, default = max(candidates, key=lambda c: c[0])
    extra = [t for t in listed if hardware.target_key(t) not in default]
    missing = [t for t in default if t not in claimed]
    default_at = f"{decl.name}'s default ({model.path}:{decl.line})"
    if extra:
        message = f"README lists GPU targets {', '.join(extra)} that {default_at} does not build"
        message += f", and leaves out {', '.join(missing)} that it builds" if missing else ""
    else:
        message = f"README leaves out GPU targets {', '.join(missing)} that {default_at} builds"
    shared = len(claimed & set(default))
    same = shared >= 2 and 4 * shared >= 3 * len(claimed) and 4 * shared >= 3 * len(set(default))
    return Diagnostic(auditor.path, line, message, confidence=CERTAIN if said and same else LIKELY)


_ARCH_ASSIGNMENT = re.compile(
    r"(?:--build-arg|-e|--env)(?:[ \t]+|=)([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s\"']+)"
)
"""A target list passed to a build (`--build-arg TORCH_CUDA_ARCH_LIST="8.0;12.0"`) or to a container
that compiles (`-e CUDA_ARCHS=120`); the name says which (`_ARCH_ARG_NAME`)."""
_TARGET_LIST_WORD = re.compile(
    r"(?<![\w.=/-])([\"']?)((?:sm_)?\d{2,3}[af]?(?:[ \t]*[,;][ \t]*(?:sm_)?\d{2,3}[af]?)+)\1(?![\w.=/-])"
)
"""A word of a command that is a list of compute capabilities (`"80,86,89,120"`, `sm_90;sm_120`): what
a build script takes as its GPU targets (`./build.sh "80,86,89,120"`)."""
_SCRIPT_RUN = re.compile(r"(?:^|[\s;&|])(?:\./|(?:ba|z)?sh[ \t]+)?[\w./-]*\.sh\b|(?:^|[\s;&|])\./[\w.-]+")


def toolkit_targets(
    doc: Document, auditor: Auditor, forwarded: Mapping[int, Sequence[tuple[str, str]]] = {}
) -> Iterator[Diagnostic]:
    """GPU targets a command of a command block builds the image (or compiles in its container) for,
    that every CUDA release the image is built on cannot compile (`hardware.cuda_cannot_build`): a
    target build arg or variable passed with `--build-arg` or `-e`, or set in front of a script that
    passes it on as a build arg (`forwarded`, README line → (name, value): `CUDA_ARCH=120 ./rebuild.sh`),
    or a list of compute capabilities given to a script (`./build.sh "80,86,89,120"`). Compared with the
    CUDA versions the Key versions rows read (a base image's tag, a `CUDA_VERSION` arg), as the
    section's build commands build it. And the values a table or a list offers for a declared target
    build arg (`_offered_values`), compared with the CUDA of the stages that read the arg."""
    built: list[tuple[int, list[str]]] = []
    for fence in doc.fences:
        if fence.lang not in COMMAND_LANGS:
            continue
        for line, text in fence.lines:
            command = text.split("#", 1)[0] if not text.lstrip().startswith("#") else ""
            listed: list[str] = []
            for match in _ARCH_ASSIGNMENT.finditer(command):
                if _ARCH_ARG_NAME.search(match.group(1).upper()):
                    listed += hardware.parse_targets(match.group(2))
            for name, value in forwarded.get(line, ()) if command else ():
                if _ARCH_ARG_NAME.search(name.upper()):
                    listed += hardware.parse_targets(value)
            if _SCRIPT_RUN.search(command):
                for match in _TARGET_LIST_WORD.finditer(command):
                    targets = hardware.parse_targets(match.group(2))
                    if all(hardware.is_cuda_target(t) for t in targets):  # not `--epochs 10,20`
                        listed += targets
            if listed:
                built.append((line, listed))
    offered = list(_offered_values(doc, auditor))
    if not built and not offered:
        return  # (the CUDA pins looked up only for a README that builds for a target list)
    releases = [f for f in auditor.facts.lookup("CUDA", auditor.names) if re.match(r"\d+\.\d+", f.value)]
    if releases:
        for line, listed in built:
            yield from some(_unbuildable(line, listed, releases, auditor))
    for line, name, target in offered:
        yield from some(_unbuildable_value(line, name, target, releases, auditor))


_CAVEAT = re.compile(r"\bCUDA[ \t-]*v?1\d\.\d|\b(?:requires?|needs?|only[ \t]+with)\b", re.IGNORECASE)
"""Words of a row or an introduction saying a value asks for another CUDA (`needs CUDA 12.8`)."""


def _target_args(auditor: Auditor) -> frozenset[str]:
    """The target build args (`_ARCH_ARG_NAME`) the images of `auditor` declare."""
    return frozenset(
        decl.name
        for model in auditor.models
        for decl in model.args
        if _ARCH_ARG_NAME.search(decl.name.upper())
    )


def _named_arg(text: str, args: frozenset[str]) -> str | None:
    """The one target build arg of `args` the code spans of `text` name (`` `CUDA_ARCH` ``), if one."""
    named = {span[2].strip().split("=", 1)[0] for span in code_spans(text, html_code=True)} & args
    return next(iter(named)) if len(named) == 1 else None


def _cell_targets(cell: str) -> list[str]:
    """The compute capabilities a cell names (`` `120` ``, `8.6`, `sm_90 (default)`), none when it names
    anything else (`Ampere`, `all`)."""
    text = first_code(cell) or re.sub(r"\([^)]*\)", " ", plain_cell(cell))
    targets = hardware.parse_targets(text)
    return targets if targets and all(hardware.is_cuda_target(t) for t in targets) else []


def _offered_values(doc: Document, auditor: Auditor) -> Iterator[tuple[int, str, str]]:
    """(README line, arg, target) of each NVIDIA target a table or a list offers as a value of a target
    build arg the images declare: a table column headed by the arg (`| `CUDA_ARCH` | GPU |`), or the
    first column of a table, or the items of a list, introduced by text naming it in code. A row or
    item that says the value needs another CUDA (`_CAVEAT`) offers nothing."""
    args = _target_args(auditor)
    if not args:
        return
    for table in doc.tables:
        column, name = 0, None
        for index, cell in enumerate(table.header):
            if (
                name := _named_arg(cell, args) or (plain_cell(cell) if plain_cell(cell) in args else None)
            ) is not None:
                column = index
                break
        if name is None:
            name = _named_arg(table.context, args)
        if name is None or _CAVEAT.search(table.context):
            continue
        for line, row in table.rows:
            if column < len(row) and not _CAVEAT.search(" ".join(row)):
                for target in _cell_targets(row[column]):
                    yield line, name, target
    for para in doc.paragraphs:
        items = [(line, text[m.end() :]) for line, text in para.lines if (m := LIST_ITEM.match(text))]
        if len(items) < 2:
            continue
        intro = " ".join([para.before, *(text for _, text in para.lines if not LIST_ITEM.match(text))])
        name = _named_arg(intro, args)
        if name is None or _CAVEAT.search(intro):
            continue  # (most lists: their items are not read)
        listed = [(line, _cell_targets(f"`{_first_word(item)}`"), item) for line, item in items]
        if not all(targets for _, targets, _ in listed):
            continue
        for line, targets, item in listed:
            if not _CAVEAT.search(item):
                for target in targets:
                    yield line, name, target


def _arg_cuda(auditor: Auditor, name: str) -> list[tuple[str, str, int, bool]]:
    """(CUDA release, Dockerfile, FROM line, pinned) of each stage reading the build arg `name` whose
    base image's tag names a CUDA release (`baseimage.stage_cuda`); pinned when that FROM is written
    without a variable (no `--build-arg` changes it)."""
    found = []
    for model in auditor.models:
        index = {stage.label: stage.index for stage in model.stages}
        for decl in model.args:
            for label in decl.stages if decl.name == name else ():
                held = baseimage.stage_cuda(model.stages, index[label]) if label in index else None
                if held is not None:
                    release, stage = held
                    found.append((release, model.path, stage.line, "$" not in stage.base_raw))
    return found


def _unbuildable_value(
    line: int, name: str, target: str, releases: list[Fact], auditor: Auditor
) -> Diagnostic | None:
    """The finding on `line` when the value `target` offered for the target build arg `name` is one the
    CUDA of every stage reading `name` cannot compile (`certain` when every such stage's FROM is
    pinned), or, when no stage's base names a CUDA release, no CUDA release of `releases` compiles."""
    stages = _arg_cuda(auditor, name)
    if stages:
        reasons = [hardware.cuda_cannot_build(target, release) for release, _, _, _ in stages]
        if not all(reasons):
            return None
        release, path, at, _ = stages[0]
        sure = CERTAIN if all(pinned for _, _, _, pinned in stages) else LIKELY
        said = f"README offers {name}={target} but {path}:{at} builds on CUDA {release}: {reasons[0]}"
        return Diagnostic(auditor.path, line, said, confidence=sure)
    found = _unbuildable(line, [target], releases, auditor)
    if found is None:
        return None
    return Diagnostic(
        auditor.path,
        line,
        f"README offers {name}={target}; " + found.message.removeprefix("README "),
        confidence=LIKELY,
    )


def _unbuildable(line: int, listed: list[str], releases: list[Fact], auditor: Auditor) -> Diagnostic | None:
    """The finding on `line` when a target of `listed` is one no CUDA release of `releases` compiles."""
    for target in listed:
        reasons = [hardware.cuda_cannot_build(target, fact.value) for fact in releases]
        if all(reasons):
            fact = releases[0]
            said = f"README builds for GPU target {target} but {auditor.where(fact)} says CUDA {fact.shown}"
            return Diagnostic(auditor.path, line, f"{said}: {reasons[0]}", confidence=LIKELY)
    return None
