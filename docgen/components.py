"""Components and pins found in FROM, RUN, COPY, ADD and ENV (sources, versions, how installed).

Walks the instructions with the ARG/ENV scope the evaluator computed for each, and hands RUN text to
the recognisers in `docgen.sources` (git, pip, downloads, apt). Images come from FROM, `COPY --from`
and `RUN --mount=…,from=`; `ADD` of a URL is a download (or a git source). Git clones are kept per
stage until the whole file is read, so a checkout in a later RUN of the stage still pins them.

Anything not understood is skipped with a diagnostic (`docgen show --verbose` lists them); this
module never raises on input it cannot read.
"""

from __future__ import annotations

import bisect
import fnmatch
import posixpath
import re
from collections.abc import Sequence

from docgen import renovate
from docgen.baseimage import environment, image_name
from docgen.evaluate import Evaluation, Scope, env_pairs
from docgen.model import Component, Diagnostic, Instruction, ManifestInstall, ParsedDockerfile, Stage
from docgen.shell import expand, referenced_names, split_words
from docgen.sources import downloads
from docgen.sources.context import (
    VERSION_NAME,
    GitClone,
    Recorder,
    RunContext,
    StageState,
    git_component,
    package_key,
)
from docgen.sources.naming import repo_name
from docgen.sources.run import read_run
from docgen.sources.script import ShellState, Word
from docgen.value_lines import value_lines

__all__ = ["extract", "split_image"]


def split_image(ref: str) -> tuple[str, str | None, str | None]:
    """`name[:tag][@digest]` → (name, tag, digest); no tag and no digest means tag `latest`.

    Unknown parts in the `${NAME}` form are never split (`${IMG:?}` is one name); an image whose name
    is unknown has no tag unless one is written (`${IMG}` is not `${IMG}:latest`)."""
    masked = _UNKNOWN_PART.sub(lambda m: "x" * len(m.group()), ref) if "${" in ref else ref
    at = masked.find("@")
    name, digest = (ref[:at], ref[at + 1 :]) if at >= 0 else (ref, "")
    slash = masked.rfind("/", 0, len(name))
    colon = masked.rfind(":", 0, len(name))
    tag = None
    if colon > slash:
        name, tag = name[:colon], name[colon + 1 :]
    if tag is None and not digest and "${" not in name:
        tag = "latest"
    return name, tag, digest or None


_UNKNOWN_PART = re.compile(r"\$\{[^{}]*\}")


def image_component(ref: str, stage: str, line: int, arg: str | None) -> Component:
    """The component for an external image reference (after ARG expansion)."""
    name, tag, digest = split_image(ref)
    unknown = "$" in ref
    return Component(
        name=image_name(name),
        kind="image",
        version=tag,
        ref=digest,
        source=ref,
        method="prebuilt",
        stage=stage,
        line=line,
        pinned=not unknown and (bool(digest) or tag not in (None, "latest")),
        arg=arg,
    )


def extract(
    parsed: ParsedDockerfile, evaluation: Evaluation
) -> tuple[tuple[Component, ...], tuple[Diagnostic, ...]]:
    """The components of one Dockerfile, in Dockerfile order, and the constructs that were skipped."""
    found, skipped, _, _ = extract_all(parsed, evaluation)
    return found, skipped


def extract_all(
    parsed: ParsedDockerfile, evaluation: Evaluation
) -> tuple[
    tuple[Component, ...], tuple[Diagnostic, ...], tuple[tuple[str, int], ...], tuple[ManifestInstall, ...]
]:
    """`extract`, the (build arg, RUN line) pairs of the RUNs that read an arg only in shell branches
    the default build does not take (see `docgen.sources.reach`), sorted, and the manifests the RUNs
    install (`ImageModel.installs`)."""
    arg_names = frozenset(a.name for a in evaluation.args)
    arg_values: dict[str, tuple[str, ...]] = {}
    for decl in evaluation.args:
        if decl.default and decl.unknown is None and decl.default not in arg_values.get(decl.name, ()):
            arg_values[decl.name] = (*arg_values.get(decl.name, ()), decl.default)
    given = {decl.name for decl in evaluation.args if decl.raw_default is not None}
    recorder = Recorder(
        parsed.path, arg_names, _env_sources(parsed, arg_names), arg_values, arg_names - given
    )
    stage_names = frozenset(s.name for s in evaluation.stages if s.name is not None)
    for decl in evaluation.args:
        for label in decl.stages:
            recorder.stage_args[label] = recorder.stage_args.get(label, frozenset()) | {decl.name}
    states: dict[int, StageState] = {}
    for inst, scope in zip(parsed.instructions, evaluation.scopes, strict=False):
        if scope.stage is None and inst.keyword != "FROM":
            continue
        try:
            if inst.keyword == "FROM":
                index = len(states)
                if index < len(evaluation.stages):
                    stage = evaluation.stages[index]
                    parent = states.get(stage.parent) if stage.parent is not None else None
                    states[index] = (
                        parent.child(stage.label)
                        if parent
                        else StageState(stage.label, base_env=environment(stage.base))
                    )
                    _from(stage, recorder, arg_names)
                continue
            if scope.stage is None or scope.stage not in states:
                continue
            _instruction(inst, scope, states[scope.stage], stage_names, recorder, parsed.escape)
        except Exception as exc:  # a recogniser bug must not stop the documentation from being made
            recorder.skip(inst.start_line, f"{inst.keyword} not read ({type(exc).__name__}: {exc})")
    for clone in recorder.clones:
        if clone.removed is not None:
            recorder.skip(clone.line, f"{repo_name(clone.url)} is {clone.removed}; not listed")
        else:
            recorder.add(git_component(clone, recorder))
    lineages = {state.label: state.lineage for state in states.values()}
    kept = _one_version_each(recorder, lineages)
    unchosen = stages_not_chosen(evaluation.stages)
    if unchosen:
        for line, _, comp in kept:
            if comp.stage in unchosen:
                recorder.skip(
                    line, f"{comp.name} is in stage {comp.stage}, {unchosen[comp.stage]}; not listed"
                )
        kept = [entry for entry in kept if entry[2].stage not in unchosen]
    found = tuple(c for _, _, c in sorted(kept, key=lambda t: (t[0], t[1])))
    # args that set a component the image no longer has (`pip install …@${VERL_VERSION} && pip
    # uninstall -y verl`): an annotation must not bring that component back
    gone: set[str | None] = {comp.arg for _, _, comp in recorder.components}
    gone |= {git_component(clone, recorder).arg for clone in recorder.clones if clone.removed is not None}
    unreached = tuple(sorted(recorder.reach.unreached))
    identified = value_lines(renovate.identify(parsed, evaluation, found, gone - {None}), parsed, evaluation)
    return identified, tuple(recorder.skipped), unreached, tuple(recorder.installs)


_VARIABLE = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
_WILDCARD = re.compile(r"[*?\[]")
"""The characters that start a wildcard in a glob pattern (`fnmatch`)."""


def stages_not_chosen(stages: Sequence[Stage]) -> dict[str, str]:
    """Stages the default build does not build: one of a family that `FROM name_${ARG}` chooses from
    (`fetch_vllm_0` / `fetch_vllm_1` for `FROM fetch_vllm_${REMOTE_VLLM}`), other than the one the
    arg's default picks, when no FROM, `COPY --from` or `--mount=from=` uses it otherwise.
    Label → why (`FROM fetch_vllm_${REMOTE_VLLM} at line 124 picks fetch_vllm_0 by default`)."""
    used = {s.parent for s in stages if s.parent is not None}
    used.update(i for s in stages for i in s.depends_on)
    # named stages sorted by name: a family's members share the pattern's text before its first
    # wildcard, found by bisection (trying every earlier stage made 10,000 stages cost 1.6 s)
    named = sorted((s.name, s.index) for s in stages if s.name is not None)
    names = [name for name, _ in named]
    found: dict[str, str] = {}
    for stage in stages:
        if stage.parent is None or "$" not in stage.base_raw:
            continue
        pattern = _VARIABLE.sub("*", stage.base_raw).lower()
        if len(pattern.replace("*", "")) < 2:
            continue  # `FROM ${DEVEL_IMAGE}`: any stage may be passed, no family to choose from
        chosen = stages[stage.parent]
        prefix = _WILDCARD.split(pattern, maxsplit=1)[0]  # every name the pattern matches starts so
        family = []
        i = bisect.bisect_left(names, prefix)
        while i < len(names) and names[i].startswith(prefix):
            if named[i][1] < stage.index:
                family.append(named[i][1])
            i += 1
        for other in (stages[index] for index in sorted(family)):
            if other.index == chosen.index or other.index in used or other.name is None:
                continue
            if fnmatch.fnmatchcase(other.name, pattern):
                found[other.label] = (
                    f"which FROM {stage.base_raw} at line {stage.line} builds only when its arg is "
                    f"not the default ({chosen.label} by default)"
                )
    return found


_ONE_VERSION = {
    "pip": "python",
    "wheel": "python",
    "conda": "conda",
    "apt": "apt",
    "apk": "apk",
    "rpm": "rpm",
}
"""Kinds whose installs share one environment, where a package has one version at a time."""


def _one_version_each(
    recorder: Recorder, lineages: dict[str, tuple[str, ...]]
) -> list[tuple[int, int, Component]]:
    """The components, each package once per stage line: installing it again with the same version (in
    the stage or one it is built FROM) keeps the first row; with another version, the new one replaces
    the old (`pip install torch` then `pip install torch==2.7.1`: the image has 2.7.1), unless one of
    them is installed in an `if` or `case`: then both are kept, each a version the image may hold."""
    kept: dict[int, tuple[int, int, Component]] = {}
    latest: dict[tuple[str, str], list[int]] = {}
    for entry in recorder.listed():
        comp = entry[2]
        family = _ONE_VERSION.get(comp.kind)
        if family is None or comp.method == "requirements":
            kept[entry[1]] = entry
            continue
        lineage = lineages.get(comp.stage, (comp.stage,))
        earlier = latest.setdefault((family, package_key(comp.name)), [])
        earlier[:] = [i for i in earlier if i in kept]  # those replaced are gone for good
        same_line = [i for i in earlier if kept[i][2].stage in lineage]
        if any(
            kept[i][2].display_version == comp.display_version and kept[i][2].condition == comp.condition
            for i in same_line
        ):  # (an arm64-only install and the same package on every other platform are two rows)
            recorder.skip(comp.line, f"{comp.name} {comp.display_version} is installed again; listed once")
            continue
        if entry[1] in recorder.branched or any(i in recorder.branched for i in same_line):
            earlier.append(entry[1])  # `if [ "$CUDA" = 13 ]; then pip install torch==2.9.0; else …`: both
            kept[entry[1]] = entry
            continue
        for i in same_line:
            old = kept.pop(i)[2]
            recorder.skip(
                old.line, f"{old.name} {old.display_version} is replaced at line {comp.line}; not listed"
            )
        earlier.append(entry[1])
        kept[entry[1]] = entry
    return list(kept.values())


def env_args(
    parsed: ParsedDockerfile, arg_names: frozenset[str]
) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """(ENV name, line, build args its value expands, in the order written) for every ENV value that
    reads a build arg: `ENV TORCH_CUDA_ARCH_LIST=${torch_cuda_arch_list}` is set with
    `--build-arg torch_cuda_arch_list=…`, not with `--build-arg TORCH_CUDA_ARCH_LIST=…`."""
    found = []
    for inst in parsed.instructions:
        if inst.keyword != "ENV" or "$" not in inst.args:
            continue  # (a value without `$` reads no arg)
        for name, raw in env_pairs(inst, parsed.escape):
            used = sorted(
                (n for n in referenced_names(raw) if n in arg_names), key=lambda n: (raw.find(n), n)
            )
            if used:
                found.append((name, inst.start_line, tuple(used)))
    return tuple(found)


def _env_sources(parsed: ParsedDockerfile, arg_names: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """ENV name → the other build args its value is set from (`ENV TORCH=${TORCH_VERSION}`)."""
    result: dict[str, tuple[str, ...]] = {}
    for name, _, used in env_args(parsed, arg_names):
        others = tuple(sorted(n for n in used if n != name))
        if others:
            result[name] = others
    return result


def _from(stage: Stage, recorder: Recorder, arg_names: frozenset[str]) -> None:
    if stage.parent is not None or stage.base.lower() == "scratch":
        return
    raw = stage.base_raw
    # in the order they are written: `golang:${GO_VERSION}-alpine${ALPINE_VERSION}` is about Go
    used = sorted((n for n in referenced_names(raw) if n in arg_names), key=lambda n: (raw.find(n), n))
    _, tag, digest = split_image(stage.base)
    version = tag or digest
    arg = recorder.arg_in_version(used, version) if version else None
    if arg is None:
        versioned = [n for n in used if VERSION_NAME.search(n) or n.endswith(("_IMAGE", "_BASE"))]
        chosen = versioned or used
        arg = chosen[0] if chosen else None
    recorder.add(image_component(stage.base, stage.label, stage.line, arg))


def _expanded_word(raw: str, scope: Scope) -> Word:
    """`raw` expanded as BuildKit expands COPY/ADD/WORKDIR arguments, remembering the names used."""
    names = frozenset(n for n in referenced_names(raw) if scope.lookup(n) is not None)
    try:
        result = expand(raw, scope.lookup)
    except Exception:
        return Word(raw, names, False)
    return Word(result.text, names, result.known)


def _is_stage(ref: str, stage_names: frozenset[str]) -> bool:
    low = ref.lower()
    return low.isdigit() or low in stage_names


def _instruction(
    inst: Instruction,
    scope: Scope,
    state: StageState,
    stage_names: frozenset[str],
    recorder: Recorder,
    escape: str,
) -> None:
    keyword = inst.keyword
    if keyword == "WORKDIR":
        target = _expanded_word(inst.args.strip(), scope)
        state.workdir = posixpath.normpath(posixpath.join(state.workdir, target.text))
        return
    if keyword not in ("RUN", "COPY", "ADD"):
        return
    refs = [f.value or "" for f in inst.flags_named("from")] if inst.flags else []
    if inst.flags:
        refs += [f.options().get("from", "") for f in inst.flags_named("mount")]
    for raw in refs:
        if not raw:
            continue
        word = _expanded_word(raw, scope)
        if _is_stage(word.text, stage_names):
            continue
        recorder.add(image_component(word.text, state.label, inst.start_line, recorder.arg_for(word)))
    if keyword == "RUN":
        shell = ShellState(
            scope.lookup,
            declared=recorder.arg_names,
            in_stage=recorder.stage_args.get(state.label, frozenset()),
            base_env=state.base_env,
        )
        ctx = RunContext(recorder, state, shell, inst.start_line, state.workdir)
        recorder.reach.begin()
        read_run(inst, ctx, escape)
        recorder.reach.settle(inst.start_line, recorder.arg_names)
    elif keyword == "ADD":
        _add(inst, scope, state, recorder, escape)


_LOCAL_TAR = re.compile(r"\.(?:tar(?:\.(?:gz|bz2|xz|zst))?|tgz|tbz2|txz)\Z", re.IGNORECASE)
"""A tar archive `ADD` unpacks when it is a local file of the context (`ADD ComfyUI-0.3.75.tar.gz /opt/`):
what it holds is in the image, at the version its name says (a URL is never unpacked: a download)."""


def _add(inst: Instruction, scope: Scope, state: StageState, recorder: Recorder, escape: str) -> None:
    """`ADD [--checksum=…] URL… dest`: each URL is a download, a git URL a git source, a local tar
    archive (unpacked into the image) a component named and versioned by its file name."""
    raws = list(inst.exec_form) if inst.exec_form is not None else split_words(inst.args, escape)
    checksum_flag = inst.flag("checksum")
    checksum = (
        _expanded_word(checksum_flag.value, scope).text if checksum_flag and checksum_flag.value else None
    )
    for raw in raws[:-1]:
        word = _expanded_word(raw, scope) if inst.exec_form is None else Word(raw)
        text = word.text
        if text.startswith("<<"):
            continue
        base = text.split("#", 1)[0]
        if base.endswith(".git") or text.startswith("git@"):
            fragment = text.split("#", 1)[1] if "#" in text else ""
            clone = GitClone(
                url=base,
                directory="",
                stage=state.label,
                line=inst.start_line,
                url_words=(word,),
                built=False,
            )
            if fragment:
                ref = fragment.split(":", 1)[0]
                clone.ref, clone.ref_words = ref, (Word(ref, word.names, word.known),)
            recorder.clones.append(clone)
            continue
        if "://" not in text and not _LOCAL_TAR.search(base):
            continue  # a local file ADD copies as it is; a local tar archive it unpacks (below)
        arg = recorder.arg_for(word)
        found = downloads.component(
            word, state.label, inst.start_line, arg, checksum, recorder.value_in(arg, word.text)
        )
        if found is not None:
            recorder.add(found)
