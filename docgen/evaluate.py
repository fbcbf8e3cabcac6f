"""Stages, ARG and ENV scope and values: what BuildKit would use, per instruction.

Mirrors BuildKit's `dockerfile2llb` dispatch (rules 9–18 of DOCKERFILE-SEMANTICS.md): global ARGs are
seen only by FROM lines until a stage re-declares them bare; a stage's own default beats the global
one; `FROM parent` inherits the parent's ARGs and ENV; defaults are expanded in order; the last ARG or
ENV of a name wins. The result keeps, for every instruction, the names in scope there, so the
component extractor can expand RUN lines the way the build would.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from docgen.dockerfile import heredoc_hint
from docgen.errors import ConfigError, DockerfileError
from docgen.model import (
    GLOBAL_SCOPE,
    ArgDecl,
    ContextCopy,
    Diagnostic,
    EnvVar,
    Instruction,
    ParsedDockerfile,
    Stage,
    store_fields_at_once,
)
from docgen.shell import (
    Expanded,
    ExpansionError,
    Unknown,
    Value,
    expand,
    fallbacks,
    referenced_names,
    split_words,
)

_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789._-"

MAX_COPIED = 2_000_000
"""How many names the scopes of one Dockerfile may copy in all (see `_Evaluator.count_copy`)."""

PREDEFINED_ARGS = frozenset(
    {
        "TARGETPLATFORM",
        "TARGETOS",
        "TARGETARCH",
        "TARGETVARIANT",
        "BUILDPLATFORM",
        "BUILDOS",
        "BUILDARCH",
        "BUILDVARIANT",
        "TARGETSTAGE",
        "BUILDKIT_SBOM_SCAN_CONTEXT",
        "BUILDKIT_SBOM_SCAN_STAGE",
    }
)
"""Args BuildKit sets from the build itself; their value depends on the build (rule 16)."""

PROXY_ARGS = frozenset(
    name
    for base in ("HTTP_PROXY", "HTTPS_PROXY", "FTP_PROXY", "NO_PROXY", "ALL_PROXY")
    for name in (base, base.lower())
)
"""Args that exist without declaration (rule 16); unset unless passed."""

_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")
"""Jinja or Go template syntax (`{{ image_name }}`, `{% if cuda %}`): a template, not a Dockerfile."""
_STAGE_NAME = re.compile(r"[a-z][a-z0-9_.-]*\Z")
_ARG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_EXPANDED_BY_BUILDKIT = frozenset(
    {"ADD", "COPY", "ENV", "EXPOSE", "FROM", "LABEL", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR", "ARG"}
)


@dataclass(frozen=True)
class Scope:
    """The names visible to one instruction, and the stage it belongs to."""

    stage: int | None
    """Index of the stage, None before the first FROM."""
    values: Mapping[str, Value]
    """Name → value for every ARG and ENV in scope; names missing are unset (or, see `base_unknown`)."""
    base_unknown: str | None = None
    """When the stage starts from an external image, why names not in `values` may still be set
    (`may come from the base image ubuntu:22.04`); None for stages built from scratch or a stage."""

    def lookup(self, name: str) -> Value | None:
        """The value of `name` here: a string, `Unknown`, or None when unset."""
        value = self.values.get(name)
        if value is None and self.base_unknown and self.stage is not None and name not in PROXY_ARGS:
            return Unknown(self.base_unknown)
        return value


store_fields_at_once(Scope)


@dataclass(frozen=True)
class Evaluation:
    """The evaluator's result for one Dockerfile."""

    stages: tuple[Stage, ...]
    args: tuple[ArgDecl, ...]
    env: tuple[EnvVar, ...]
    scopes: tuple[Scope, ...]
    """One per instruction of the parsed Dockerfile, same order: the names in scope *before* it runs."""
    warnings: tuple[Diagnostic, ...] = ()
    target: int = -1
    """Index of the stage built: the one `--target` names, else the last (-1 when there is none)."""
    unbound_reads: tuple[tuple[str, int], ...] = ()
    """(name, RUN line) of each `$NAME` a RUN reads that no ARG or ENV of the Dockerfile in its scope
    sets, by line and name: a shell variable of its own, one of the base image's, or a name no build
    arg reaches."""
    context_copies: tuple[ContextCopy, ...] = ()
    """See `ImageModel.context_copies`."""


@dataclass
class _Decl:
    """An ARG declaration being evaluated: the `ArgDecl` as declared (its `stages` and `used_lines`
    not known yet), and what later instructions add to it."""

    arg: ArgDecl
    used: set[int] = field(default_factory=set)
    fallback: str | None = None
    global_of: int | None = None  # index of the _Decl whose value a bare re-declaration repeats


@dataclass
class _StageState:
    values: dict[str, Value]
    bindings: dict[str, int]  # name -> index of the _Decl in effect (ENV removes the binding)
    base_unknown: str | None
    env_lines: dict[str, int]


def describe(name: str, comment: tuple[str, ...], tail: int = 0, alone: bool = False) -> str:
    """The purpose of ARG `name` from its comment block, else ''.

    BuildKit's doc comment first: a block that starts with the name (`# NAME purpose …`), but not a
    sentence about several args (`# ARCH and CUDA are specified again because …`). Else, since most
    public Dockerfiles do not follow that convention, a short block (at most three lines) written
    right above an ARG that declares only `name` and does not head a group of uncommented ARGs
    (`alone`), with no blank line between (its last `tail` lines, see `Instruction.comment_tail`),
    when it reads as a description: not a commented-out instruction or assignment, a banner, a bare
    URL, nor holding a TODO, note, example, reference or "keep in sync" remark.
    """
    machine = [i for i, line in enumerate(comment) if _MACHINE.match(line.strip())]
    if machine:  # `# renovate: datasource=… depName=…`, `# docgen: ignore=DG003`: for tools, never a purpose
        tail = max(tail - sum(1 for i in machine if i >= len(comment) - tail), 0) if tail else 0
        comment = tuple(line for i, line in enumerate(comment) if i not in machine)
    if not comment:
        return ""
    text = " ".join(line.strip() for line in comment if line.strip())
    if text.startswith(name + " ") or text.startswith(name + ":"):
        rest = text[len(name) + 1 :].strip()
        return "" if rest.startswith(_JOINED) else rest
    lines = [line.strip() for line in comment[len(comment) - tail :] if line.strip()] if tail else []
    for k, line in enumerate(lines):  # the convention on a later line: `# NAME purpose` from there on
        if line.startswith((name + " ", name + ":")):
            rest = " ".join(lines[k:])[len(name) + 1 :].strip()
            return "" if rest.startswith(_JOINED) else rest
    if not (lines and alone) or len(lines) > 3:
        return ""
    text = " ".join(lines)
    first = text.split(None, 1)[0]
    if (
        first.upper() in _INSTRUCTIONS
        or "=" in first
        or any(_label(line) in _NOT_PURPOSES for line in lines)
        or sum(c.isalpha() for c in text) < 6
        or not any(c.isalpha() for c in text[:3])  # a banner (`#### Build ####`, `---- deps ----`)
        or text.startswith("#")  # `## …`: a heading or a commented-out comment
        or (first.startswith(("http://", "https://")) and " " not in text)
        or (len(lines) == 1 and _label(text) in _SECTION_VERBS and len(text.split()) <= 4 and text[-1] != ".")
    ):
        return ""
    return text


_SECTION_VERBS = frozenset({"INSTALL", "INSTALLING", "CLONE", "DOWNLOAD", "COMPILE", "FETCH", "SETUP"})
"""First words of a section header above the ARGs of a step (`# Install DeepEP`), not a purpose."""
_MACHINE = re.compile(r"(?:renovate|docgen|dependabot)[ \t]*:", re.IGNORECASE)
"""A comment line written for a tool: Renovate's regex-manager annotation, docgen's own ignore comment."""


def _label(line: str) -> str:
    """The first word of a comment line, upper-cased, without the punctuation around it."""
    return line.split(None, 1)[0].upper().strip(":.,;()-*=#@") if line.split() else ""


_JOINED = ("and ", "or ", ",", "&", "/")
_INSTRUCTIONS = frozenset(
    "FROM RUN CMD LABEL EXPOSE ENV ADD COPY ENTRYPOINT VOLUME USER WORKDIR ARG ONBUILD STOPSIGNAL "
    "HEALTHCHECK SHELL MAINTAINER".split()
)
_NOT_PURPOSES = frozenset(
    {
        "TODO",
        "FIXME",
        "XXX",
        "HACK",
        "NOTE",
        "NB",
        "SYNTAX",
        "ESCAPE",
        "CHECK",
        "EXAMPLE",
        "E.G.",
        "REFERENCE",
    }
    | {"REF", "SEE", "USAGE", "WARNING", "KEEP", "SYNC", "DEPRECATED"}
    # file headers and tool directives
    | {"COPYRIGHT", "C", "©", "SPDX-LICENSE-IDENTIFIER", "LICENSED", "LICENSE", "HADOLINT", "SHELLCHECK"}
    | {"AUTHOR", "AUTHORS", "MAINTAINER", "VIM", "-*-"}
    | {"RENOVATE", "DEPENDABOT", "TRIVY", "CHECKOV", "KICS", "NOSONAR", "PRAGMA", "DOCKLE"}
)


_SET_BY_THE_BUILD = Unknown("set by the build")


class _Evaluator:
    def __init__(self, parsed: ParsedDockerfile, build_args: Mapping[str, str]) -> None:
        self.parsed = parsed
        self.build_args = build_args
        self.path = parsed.path
        self.escape = parsed.escape
        self.decls: list[_Decl] = []
        self.copied = 0  # names copied into new scopes so far (see count_copy)
        self.stages: list[Stage] = []
        # stage -> the stages it copies or mounts from, in order, each with whether any instruction
        # keeps its files (`Stage.depends_on`, `Stage.used_up`), set on the stages when all are read
        self.dependencies: dict[int, dict[int, bool]] = {}
        self.context_copies: list[ContextCopy] = []
        self.stage_states: list[_StageState] = []
        self.env: list[EnvVar] = []
        self.scopes: list[Scope] = []
        self.warnings: list[Diagnostic] = []
        self.unbound_reads: list[tuple[str, int]] = []
        self.global_values: dict[str, Value] = dict.fromkeys(PREDEFINED_ARGS, _SET_BY_THE_BUILD)
        self.global_bindings: dict[str, int] = {}
        self.global_scope_made: Scope | None = None
        self.stage_lines: dict[str, list[int]] = {}  # stage name -> the FROM lines that give it
        self.stage_by_name: dict[str, int] = {}  # stage name -> index, for the stages read so far
        self.sorted_names: list[str] = []  # the same names, sorted (for `stages_matching`)
        # ARG lines followed by another ARG without a comment of its own: a comment above the first
        # heads the group (`# Define installation arguments`) rather than describing that one arg
        self.group_heads = {
            inst.start_line
            for inst, after in zip(parsed.instructions, parsed.instructions[1:], strict=False)
            if inst.keyword == "ARG"
            and after.keyword == "ARG"
            and not after.comment
            and after.start_line == inst.end_line + 1  # a blank line ends the group
        }
        for inst in parsed.instructions:
            words = inst.args.split() if inst.keyword == "FROM" else []
            if len(words) == 3 and words[1].lower() == "as":
                self.stage_lines.setdefault(words[2].lower(), []).append(inst.start_line)

    # ------------------------------------------------------------------------------------------
    def warn(self, line: int, message: str) -> None:
        self.warnings.append(Diagnostic(self.path, line, message))

    def fail(self, line: int, message: str) -> DockerfileError:
        return DockerfileError(message, self.path, line)

    def expand(self, text: str, scope: Scope, line: int) -> Expanded:
        try:
            return expand(text, scope.lookup, self.escape)
        except ExpansionError as exc:
            raise self.fail(line, f"{exc} in {text!r}") from None
        except RecursionError:  # `${A:-${A:-…}}` thousands deep: said at its line
            raise self.fail(line, "${…} nested too deeply to read (Python's recursion limit)") from None

    # ------------------------------------------------------------------------------------------
    def run(self) -> Evaluation:
        state: _StageState | None = None
        for inst in self.parsed.instructions:
            if inst.keyword not in INSTRUCTIONS:
                raise self.fail(inst.start_line, _unknown_instruction(inst.keyword))
            if inst.keyword == "FROM":
                self.scopes.append(self.global_scope())
                self.mark_used(inst, self.global_bindings)
                state = self.start_stage(inst)
                continue
            if state is None:
                scope = self.global_scope()
                self.scopes.append(scope)
                if inst.keyword == "ARG":
                    self.declare(inst, None, scope)
                else:
                    self.warn(inst.start_line, f"{inst.keyword} before the first FROM is not allowed")
                continue
            stage_index = len(self.stages) - 1
            scope = self.scopes[-1]
            if scope.values is not state.values or scope.stage != stage_index:
                # a new scope only where ARG/ENV changed the names (they replace `state.values`)
                scope = Scope(stage_index, state.values, state.base_unknown)
            self.scopes.append(scope)
            self.mark_used(inst, state.bindings, state.values if inst.keyword == "RUN" else None)
            if inst.keyword == "ARG":
                self.declare(inst, state, scope)
            elif inst.keyword == "ENV":
                self.set_env(inst, state, scope)
            elif inst.keyword in ("COPY", "ADD") or inst.keyword == "RUN":
                self.note_dependencies(inst, stage_index)
                if inst.keyword != "RUN" and inst.flag("from") is None:
                    self.note_context_copy(inst, stage_index, scope)
        if not self.stages:
            line = self.parsed.instructions[-1].start_line if self.parsed.instructions else 0
            raise self.fail(line or 1, "no FROM instruction: this is not a Dockerfile BuildKit can build")
        for index, found in self.dependencies.items():
            used_up = tuple(d for d, kept in found.items() if not kept)
            self.stages[index] = replace(self.stages[index], depends_on=tuple(found), used_up=used_up)
        return Evaluation(
            stages=tuple(self.stages),
            args=self.finish_args(),
            env=tuple(self.env),
            scopes=tuple(self.scopes),
            warnings=tuple(sorted(self.parsed.warnings + tuple(self.warnings), key=lambda d: d.line)),
            unbound_reads=tuple(sorted(self.unbound_reads, key=lambda read: (read[1], read[0]))),
            context_copies=tuple(self.context_copies),
        )

    def global_scope(self) -> Scope:
        """The scope of the global ARGs declared so far (one object until another is declared)."""
        if self.global_scope_made is None or self.global_scope_made.values is not self.global_values:
            self.global_scope_made = Scope(None, self.global_values)
        return self.global_scope_made

    # ------------------------------------------------------------------------------------------
    def start_stage(self, inst: Instruction) -> _StageState:
        words = inst.args.split()
        index = len(self.stages)
        if len(words) == 3 and words[1].lower() == "as":
            name: str | None = words[2].lower()
        elif len(words) == 1:
            name = None
        else:
            message = "FROM needs an image and optionally 'AS name'"
            if _TEMPLATE.search(inst.args):
                message += (
                    f" ({inst.args.strip()!r} is template syntax: the file is a template to render "
                    "first, and docgen reads the Dockerfile it renders)"
                )
            raise self.fail(inst.start_line, message)
        if name is not None and not _STAGE_NAME.match(name):
            raise self.fail(inst.start_line, f"invalid stage name {words[2]!r}")
        if name is not None and name in self.stage_by_name:
            raise self.fail(inst.start_line, f"stage name {name!r} is used twice")
        expanded = self.expand(words[0], self.global_scope(), inst.start_line)
        base = expanded.text
        if not base or base[0] in ":@":  # `FROM ${IMG}` or `FROM ${IMG}:${TAG}` with IMG unset
            base = self.required_base(words[0], base, inst.start_line)
        later = self.later_stage_named(base.lower(), inst)
        if later is not None:
            what = "itself" if later == inst.start_line else f"a stage defined later, at line {later}"
            raise self.fail(inst.start_line, f"stage {name or index} builds FROM {base}, which is {what}")
        parent = self.stage_by_name.get(base.lower())
        candidates: tuple[int, ...] = ()
        if parent is None and not expanded.known:
            candidates = self.stages_matching(base)
            parent = candidates[0] if candidates else None
        platform = inst.flag("platform")
        self.stages.append(
            Stage(
                index=index,
                name=name,
                line=inst.start_line,
                base=self.stages[parent].label if parent is not None and not candidates else base,
                base_raw=words[0],
                parent=parent,
                platform=platform.value if platform else None,
                depends_on=candidates[1:],
            )
        )
        if name is not None:
            self.stage_by_name[name] = index
            bisect.insort(self.sorted_names, name)
        if parent is not None:
            p = self.stage_states[parent]
            self.count_copy(len(p.values) + len(p.bindings), inst.start_line)
            state = _StageState(dict(p.values), dict(p.bindings), p.base_unknown, dict(p.env_lines))
            label = self.stages[-1].label
            for env_name, value in p.values.items():
                if env_name in p.env_lines:
                    self.env.append(EnvVar(env_name, _known(value), label, p.env_lines[env_name], True))
        elif base.lower() == "scratch":
            state = _StageState({}, {}, None, {})
        else:
            state = _StageState({}, {}, f"may come from the base image {base}", {})
        self.stage_states.append(state)
        return state

    def count_copy(self, size: int, line: int) -> None:
        """Count `size` names copied into a new scope. Each ARG/ENV line and each `FROM stage` gives the
        instructions after it a scope of their own, so the cost is (lines) × (names in scope): fine for
        any real Dockerfile (this repository's largest copies a few thousand), quadratic for 8,000 ARG
        lines in one stage or 4,000 chained stages. Past `MAX_COPIED` docgen stops with a message."""
        self.copied += size
        if self.copied > MAX_COPIED:
            raise self.fail(
                line,
                f"too many ARG/ENV names in scope across too many ARG, ENV and FROM lines (more than "
                f"{MAX_COPIED:,} copied); docgen stops here rather than use gigabytes of memory",
            )

    def required_base(self, raw: str, base: str, line: int) -> str:
        """The base of `FROM raw`, which expanded to `base`, empty or without a name, because it names
        a global ARG declared with no default (`ARG FROM_IMAGE_NAME` / `FROM $FROM_IMAGE_NAME`): such a
        file is only built with `--build-arg`, so those args stay unknown, in the `${NAME}` form. An
        empty base that no build arg can fill (`ARG B=""`) is an error, as in BuildKit."""
        unset = [
            n
            for n in referenced_names(raw)
            if n in self.global_bindings and self.global_values.get(n) is None
        ]
        if not unset:
            if base:
                return base
            raise self.fail(line, f"FROM {raw} expands to an empty image name")

        def lookup(name: str) -> Value | None:
            return Unknown(f"set with --build-arg {name}") if name in unset else self.global_values.get(name)

        try:
            return expand(raw, lookup, self.escape).text
        except ExpansionError as exc:
            raise self.fail(line, f"{exc} in {raw!r}") from None

    def stages_matching(self, base: str) -> tuple[int, ...]:
        """Earlier stages whose name `base` can be, where its unknown parts (`base-${TARGETARCH}`) may be
        any name characters: `FROM base-${TARGETARCH}` builds on `base-amd64` or `base-arm64`,
        whichever the build's platform picks. The first in the file comes first."""
        parts = re.split(r"(\$\{[A-Za-z_][A-Za-z0-9_]*\})", base.lower())
        if len(parts) == 1 or not "".join(parts[::2]).strip("._-"):
            return ()  # nothing known to match with (`FROM ${FLAVOR}`): an image or any stage
        # only the names that start with the known prefix (a sorted list: 10,000 such FROMs stay fast)
        prefix, ordered = parts[0], self.sorted_names
        low, high = bisect.bisect_left(ordered, prefix), bisect.bisect_left(ordered, prefix + "\U0010ffff")
        names = ordered[low:high]
        if not names:
            return ()
        matcher = None
        if len(parts) > 3:  # one unknown part is the usual case: no pattern to compile for it
            pattern = "".join("[a-z0-9._-]+" if i % 2 else re.escape(part) for i, part in enumerate(parts))
            matcher = re.compile(pattern)
        suffix = parts[-1]

        def fits(n: str) -> bool:
            if matcher is not None:
                return matcher.fullmatch(n) is not None
            middle = n[len(prefix) : len(n) - len(suffix)]
            return n.endswith(suffix) and bool(middle) and not middle.strip(_NAME_CHARS)

        return tuple(sorted(self.stage_by_name[n] for n in names if fits(n)))

    def later_stage_named(self, name: str, current: Instruction) -> int | None:
        """The FROM line of a stage named `name` at or after `current`, if any (BuildKit: a cycle)."""
        return next((line for line in self.stage_lines.get(name, ()) if line >= current.start_line), None)

    def note_context_copy(self, inst: Instruction, stage_index: int, scope: Scope) -> None:
        """Record a COPY or ADD of the build context (`ImageModel.context_copies`): its words expanded as
        BuildKit expands them (a word that cannot be expanded is kept as written: the build says why)."""
        words = list(inst.exec_form if inst.exec_form is not None else inst.args.split())
        for at, word in enumerate(words):
            if "$" in word:
                try:
                    words[at] = expand(word, scope.lookup, self.escape).text
                except (ExpansionError, RecursionError):
                    pass
        dest = words[-1] if words else ""
        copy = ContextCopy(stage_index, inst.start_line, tuple(words[:-1]), dest, bool(inst.heredocs))
        self.context_copies.append(copy)

    def note_dependencies(self, inst: Instruction, stage_index: int) -> None:
        if not inst.flags:
            return
        copies = [f.value or "" for f in inst.flags_named("from")]
        mounts = [f.options().get("from", "") for f in inst.flags_named("mount")]
        deps: list[int] = []
        copied: list[int] = []  # by `COPY --from`
        for i, ref in enumerate(copies + mounts):
            ref = ref.lower()
            found = self.stage_by_name.get(ref)
            if found is None and ref.isdigit() and str(int(ref)) == ref:
                found = int(ref)
            if found is not None and found < stage_index:
                deps.append(found)
                if i < len(copies):
                    copied.append(found)
        if deps:  # gathered in place (a stage rebuilt at each RUN cost its dependencies each time: n²)
            # a RUN that copies nothing out of its mounts keeps none of their files (`pip install
            # /install/*.whl` installs into this stage; `cp /install/*.whl /app/debs` keeps them);
            # read only for a RUN that mounts another stage
            keeps = bool(copies) or _COPIES_FILES.search(inst.body) is not None
            kept = deps if keeps else copied
            found_before = self.dependencies.get(stage_index)
            if found_before is None:  # the stages its FROM names
                found_before = self.dependencies[stage_index] = dict.fromkeys(
                    self.stages[stage_index].depends_on, True
                )
            for dep in deps:
                found_before[dep] = found_before.get(dep, False) or dep in kept

    # ------------------------------------------------------------------------------------------
    def declare(self, inst: Instruction, state: _StageState | None, scope: Scope) -> None:
        words = split_words(inst.args, self.escape)
        if not words:
            raise self.fail(inst.start_line, "ARG needs at least one name")
        values = dict(self.global_values if state is None else state.values)
        self.count_copy(len(values), inst.start_line)
        stage_index = None if state is None else len(self.stages) - 1
        scope_label = GLOBAL_SCOPE if state is None else self.stages[-1].label
        for word in words:
            name, sep, raw = word.partition("=")
            if name.startswith("#"):
                break  # `ARG X=1 # note`: the reader already warned that '#' is not a comment here
            if not _ARG_NAME.match(name):
                self.warn(inst.start_line, f"ARG name {name!r} is not a valid variable name; ignored")
                continue
            global_of: int | None = None
            unknown: str | None = None
            if sep:
                if "$" in raw or "'" in raw or '"' in raw or self.escape in raw:
                    here = Scope(scope.stage, values, scope.base_unknown)
                    expanded = self.expand(raw, here, inst.start_line)
                else:
                    expanded = Expanded(raw)  # a plain default: nothing to expand or unquote
                value: Value | None = (
                    expanded.text if expanded.known else Unknown("; ".join(expanded.unknown))
                )
                default: str | None = expanded.text
                unknown = None if expanded.known else "; ".join(expanded.unknown)
            elif state is not None and name in self.global_bindings:
                global_of = self.global_bindings[name]
                value = self.global_values.get(name)
                default = self.decls[global_of].arg.default
                unknown = self.decls[global_of].arg.unknown
            elif state is not None and name in state.bindings and name in values:
                # BuildKit: a bare ARG with no global keeps the value inherited from the parent stage
                # (or declared earlier in this stage)
                global_of = state.bindings[name]
                value = values[name]
                default = self.decls[global_of].arg.default
                unknown = self.decls[global_of].arg.unknown
            elif name in PREDEFINED_ARGS:
                value = Unknown("set by the build")
                default, unknown = None, "set by the build (predefined platform arg)"
            else:
                value, default = None, None
            if name in self.build_args:  # `--build-arg NAME=VALUE` wins over any default, in any scope
                value = default = self.build_args[name]
                unknown = None
            if value is not None:  # a bare ARG with no value leaves an ENV of that name alone
                values[name] = value
            declared = ArgDecl(
                name=name,
                scope=scope_label,
                stage=stage_index,
                line=inst.start_line,
                raw_default=raw if sep else None,
                default=default,
                unknown=unknown,
                bare=not sep,
                description=(
                    describe(
                        name,
                        inst.comment,
                        inst.comment_tail,
                        len(words) == 1
                        and inst.start_line not in self.group_heads
                        # a block over the file's first instruction is the file's header, unless a
                        # blank line parts one line right above it from the rest (or from the top)
                        and not (
                            inst is self.parsed.instructions[0]
                            and (inst.comment_tail > 1 or 0 < inst.comment_tail == len(inst.comment))
                        ),
                    )
                    if inst.comment
                    else ""  # (most ARGs: no comment to read)
                ),
                stages=(),
                used_lines=(),
            )
            self.decls.append(_Decl(declared, global_of=global_of))
            if state is None:
                self.global_bindings[name] = len(self.decls) - 1
            else:
                state.bindings[name] = len(self.decls) - 1
                state.env_lines.pop(name, None)
        if state is None:
            self.global_values = values
        else:
            state.values = values

    def set_env(self, inst: Instruction, state: _StageState, scope: Scope) -> None:
        words = split_words(inst.args, self.escape)
        if not words:
            raise self.fail(inst.start_line, "ENV needs at least one name=value")
        if "=" not in words[0]:
            parts = inst.args.strip().split(None, 1)
            if len(parts) < 2:
                raise self.fail(inst.start_line, "ENV needs a name and a value")
            pairs = [(parts[0], parts[1])]
        else:
            pairs = []
            for word in words:
                name, sep, raw = word.partition("=")
                if not sep:
                    raise self.fail(inst.start_line, f"ENV {word!r} has no '=': write ENV name=value")
                pairs.append((name, raw))
        values = dict(state.values)
        self.count_copy(len(values), inst.start_line)
        label = self.stages[-1].label
        for name, raw in pairs:
            # BuildKit expands every pair of one ENV line with the values from before that line
            expanded = self.expand(raw, scope, inst.start_line)
            values[name] = expanded.text if expanded.known else Unknown("; ".join(expanded.unknown))
            state.bindings.pop(name, None)
            state.env_lines[name] = inst.start_line
            self.env.append(EnvVar(name, expanded.text if expanded.known else None, label, inst.start_line))
        state.values = values

    # ------------------------------------------------------------------------------------------
    def mark_used(
        self, inst: Instruction, bindings: Mapping[str, int], values: Mapping[str, Value] | None = None
    ) -> None:
        """Record `inst` as a user of every ARG whose value it reads; with `values` (the names in its
        scope), each name it reads that none of them is as read unset (`Evaluation.unbound_reads`)."""
        for name in self.names_read(inst):
            index = bindings.get(name)
            if index is None:
                if values is not None and name not in values:
                    self.unbound_reads.append((name, inst.start_line))
                continue
            decl = self.decls[index]
            decl.used.add(inst.start_line)
            origin = decl
            while origin.global_of is not None:
                origin = self.decls[origin.global_of]
                origin.used.add(inst.start_line)
            if inst.keyword == "RUN" and decl.fallback is None and not decl.arg.default:
                text = inst.args + "".join(h.body for h in inst.heredocs)
                found = fallbacks(text, name)
                if found:
                    decl.fallback = found[0]

    def names_read(self, inst: Instruction) -> set[str]:
        texts = [f.value for f in inst.flags if f.value]
        keyword = inst.keyword
        if keyword == "RUN":
            if inst.exec_form is None:  # exec form runs without a shell: nothing is expanded
                texts.append(inst.args)
                texts.extend(h.body for h in inst.heredocs)
        elif keyword in _EXPANDED_BY_BUILDKIT and ("$" in inst.args or inst.heredocs):
            if keyword == "ARG":
                texts.extend(w.partition("=")[2] for w in split_words(inst.args, self.escape))
            elif keyword == "FROM":
                texts.extend(inst.args.split()[:1])
            else:
                texts.append(inst.args)
                texts.extend(h.body for h in inst.heredocs if h.expand)
        names: set[str] = set()
        for text in texts:
            if "$" in text:
                names |= referenced_names(text)
        return names

    # ------------------------------------------------------------------------------------------
    def finish_args(self) -> tuple[ArgDecl, ...]:
        children: dict[int, list[int]] = {}
        for s in self.stages:
            if s.parent is not None:
                children.setdefault(s.parent, []).append(s.index)

        descendants: dict[int, list[int]] = {}  # for this call only: many ARGs share a stage

        def with_descendants(index: int) -> list[int]:
            found = descendants.get(index)
            if found is None:
                found, todo = [], [index]
                while todo:
                    i = todo.pop(0)
                    found.append(i)
                    todo.extend(children.get(i, []))
                descendants[index] = found
            return list(found)

        reached: dict[int, list[int]] = {}
        for i, d in enumerate(self.decls):
            if d.arg.stage is not None:
                reached[i] = with_descendants(d.arg.stage)
        for i in range(len(self.decls) - 1, -1, -1):  # repeats come after what they repeat
            d = self.decls[i]
            if d.global_of is not None:
                reached.setdefault(d.global_of, []).extend(reached.get(i, []))
        result = []
        for i, d in enumerate(self.decls):
            stages = sorted(set(reached.get(i, [])))
            arg = d.arg
            # an empty or unset ARG shows the shell's fallback (`${MAX_JOBS:-$(nproc)}`), if any
            effective = arg.default or (d.fallback if d.fallback is not None else arg.default)
            finished = {
                "description": arg.description or self.inherited_description(d),
                "stages": tuple(self.stages[s].label for s in stages),
                "used_lines": tuple(sorted(d.used)),
                "effective_default": effective,
            }
            # the declared fields with these filled in (`dataclasses.replace`, at a fifth of its cost)
            result.append(ArgDecl(**{**vars(arg), **finished}))
        return tuple(result)

    def inherited_description(self, decl: _Decl) -> str:
        """A bare re-declaration without a comment takes the purpose of the declaration it repeats."""
        while decl.global_of is not None and not decl.arg.description:
            decl = self.decls[decl.global_of]
        return decl.arg.description


_COPIES_FILES = re.compile(r"(?:^|[\s;&|(`])(?:cp|mv|rsync|tar|ln)\s+\S")
"""A command that copies or moves files (`cp /install/*.whl /app/debs`, `tar -C`): a
RUN running one may keep what it mounts from another stage among its own files."""


def _known(value: Value) -> str | None:
    return None if isinstance(value, Unknown) else value


INSTRUCTIONS = frozenset(
    {
        "FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
        "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL",
    }
)  # fmt: skip
"""The instructions BuildKit knows (`instructions.ParseInstruction`); any other is a parse error there.
The instruction an `ONBUILD` holds is only read when a later build starts FROM the image, so BuildKit
(and docgen) accept `ONBUILD FOO` here."""


def _unknown_instruction(keyword: str) -> str:
    """BuildKit's message for an instruction it does not know, with its suggestion when one is close."""
    import difflib  # only for this error message: importing it costs every run about 2 ms

    close = difflib.get_close_matches(keyword, sorted(INSTRUCTIONS), n=1, cutoff=0.6)
    return f"unknown instruction: {keyword}" + (f" (did you mean {close[0]}?)" if close else "")


def env_pairs(inst: Instruction, escape: str) -> list[tuple[str, str]]:
    """(name, value as written) of each variable the ENV `inst` sets, in order: each `NAME=VALUE` word
    (quotes kept, `split_words`), or the rest of the line in the legacy `ENV NAME value` form. A word
    with no `=`, or a legacy name with no value, comes with an empty value: the evaluator refuses those
    ENVs (`_Evaluator.set_env`), the readers of an evaluated Dockerfile take them as they are."""
    words = split_words(inst.args, escape)
    if words and "=" not in words[0]:
        return [(words[0], inst.args.strip()[len(words[0]) :].lstrip())]
    return [(name, value) for name, _, value in (word.partition("=") for word in words)]


def evaluate(
    parsed: ParsedDockerfile,
    build_args: Mapping[str, str] | None = None,
    target: str | None = None,
    target_at: tuple[str, int | None] | None = None,
) -> Evaluation:
    """Evaluate stages, ARG and ENV of a parsed Dockerfile as BuildKit would with `build_args` given as
    `--build-arg NAME=VALUE` (none by default): a given arg is the value of every ARG of that name, in
    the global scope and in each stage, whatever its default (a name no ARG declares changes nothing).

    `target` is `--target STAGE`: the stage built (matched as BuildKit does, ignoring case), instead of
    the last. A name no stage has is a `DocgenError` at `target_at` (the config file and the line that
    names it), else at the Dockerfile."""
    try:
        evaluation = _Evaluator(parsed, build_args or {}).run()
    except DockerfileError as exc:
        hint = heredoc_hint(parsed, exc.line) if exc.path == parsed.path and exc.line else ""
        if not hint:
            raise
        raise DockerfileError(f"{exc.message} ({hint})", exc.path, exc.line) from None
    if target is None:
        return evaluation
    return replace(evaluation, target=_target_index(evaluation.stages, target, parsed.path, target_at))


def _target_index(
    stages: tuple[Stage, ...], target: str, path: str, where: tuple[str, int | None] | None
) -> int:
    """The index of the stage `--target target` builds, or a `DocgenError` saying which stages there are."""
    for stage in stages:
        if stage.name is not None and stage.name == target.lower():
            return stage.index
    import difflib  # only for this error message

    named = [s.name for s in stages if s.name is not None]
    close = difflib.get_close_matches(target.lower(), named, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    listed = f"; its stages: {', '.join(named)}" if named else "; it names no stage (FROM … AS name)"
    message = f"target = {target!r} is no stage of {path}{hint}{listed}"
    if where is not None:
        raise ConfigError(message, where[0], where[1])
    raise DockerfileError(f"--target {target}: no such stage{hint}{listed}", path)
