"""A README build command that cannot complete because a RUN of the Dockerfile it builds fails whatever
the reader's machine: the build stops at that step (`certain`: the build command names its Dockerfile,
and the RUN is read with docgen's shell reader, `shell.sh_tokens`).

The kinds of RUN (shell form, `/bin/sh`, in a stage the build builds):

- a shell syntax error: two operators in a row (`&& &&`, `&& ;`, `| |`, a continued line that starts with
  `&&` after one that ended with it), or a command list that starts with one. `sh` refuses the whole
  command before running any of it.
- bash-only syntax dash rejects (`source`, `[[`, `${x//a/b}`, `function f`) on a base image whose `/bin/sh`
  is dash (Debian, Ubuntu and images built on them), where it fails the RUN: a syntax error, a bad
  substitution, or a failing command of the last list when that list joins its commands with `&&` only
  (`docgen lint`'s DG014, `lint.dash_runs`).
- `ln`, `cp` or `mv` on a line ending in `\\` with no `&&` before a line that starts a command of its own
  (`pip3 install …`): its words become more operands, and an option ln/cp/mv lacks, or a last operand
  that is a package with a version bound (no folder), fails the RUN (`swallowed_line`).
- a package installer (`pip install`, `apt-get install`, `conda create` …) given an option it refuses
  (`---no-cache-dir`, `-upgrade`; `installer_options.refused_option`): `certain`, or `likely` for a slip
  from a known option that a newer release may have.
- a command list that ends in `test -n "$NAME" && …` (or `[ -n "$NAME" ] && …`, `-z`, `[ "$NAME" ]`)
  whose test is false with the values the README's build gives: the RUN's status is its last list's,
  and a false test makes that 1. NAME's value is what the build passes with `--build-arg` when the stage
  declares `ARG NAME` before the RUN, else the ARG's default; a name the stage does not declare is empty
  in the RUN whatever the build passes (Docker hands a RUN only declared build args).

- a `git checkout` (`switch`, `reset --hard`) of a tag or commit in a clone an earlier step made with
  `--depth` (`shallow_checkouts`, `likely`: the tip may be that commit).
- a file of the build context a command reads by name (`conda env create -f conda_env.yml`, `pip install
  -r requirements.txt`, `bash install.sh`) before a later COPY or ADD of the stage brings it, with no
  earlier step that may have put it there (`early_reads`; read under a `SHELL` of bash too): `certain` on
  a plain base or in a folder only a WORKDIR of the build names, else `likely`.

A README build is a `docker build` of a block, or a `docker compose build|up|run|create` of one whose
default compose file in the README's folder, or the one file its `-f` names (in the README's folder or
one above it), has services that build (`build: .`).

And a README build (in a block, or a prose line or code span of its own) of a Dockerfile whose FROM names
a placeholder only a CI job, workflow or script of the project fills in (`FROM CI_REGISTRY/git/base` and
`sed -i "s#CI_REGISTRY#$CI_REGISTRY#" Dockerfile` in `.gitlab-ci.yml`): docker has no such image to pull
(`placeholder_bases`).

Left alone: a build whose Dockerfile, context or `--target` cannot be read or that may run elsewhere (a
`cd` before it into a folder other than a clone of this repository's: the clone's address names a
remote of the checkout, or its folder has the checkout's name or the README's title), the RUNs of a
Dockerfile with a `SHELL` (its COPYs and ADDs are still read), a Dockerfile with another escape
character, exec-form and heredoc RUNs, a list with `||`, a pipe, `&`, a
subshell, `if`/`case`/`{ }` in its last list, a test whose word is not one quoted variable, a name an
ENV sets, a predefined or proxy arg, a name the RUN assigns, an ARG default that is not known, a build
arg passed without a value (from the environment), and an undeclared name the README never passes with
`--build-arg` or that a base image may set (`CUDA_VERSION`).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from docgen import compose
from docgen.audit.auditor import CERTAIN, LIKELY, also_at, dockerfile_read
from docgen.audit.commands import (
    MOVE,
    build_commands,
    build_words,
    clone_of,
    cloned_folder,
    command_words,
    tagged_names,
)
from docgen.audit.coverage import scopeless_args
from docgen.audit.early_reads import EarlyRead, early_reads
from docgen.audit.grammar import DOCKER_COMPOSE, read_compose
from docgen.audit.memo import per_audit
from docgen.audit.missing import name_key
from docgen.audit.own_repo import remote_names, repository_root
from docgen.audit.shallow_checkouts import shallow_checkouts
from docgen.audit.steps import own_clone
from docgen.bake import Target
from docgen.build_scripts import BUILD
from docgen.errors import MAX_PROJECT_FILE_BYTES, DocgenError
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS
from docgen.files import DOCKERFILE, built_dockerfile, bytes_or_none, text_or_none
from docgen.installer_options import refused_option
from docgen.lint import copy_shell_words, dash_effect, dash_runs
from docgen.markdown import Document, code_spans
from docgen.model import Diagnostic, ImageModel, Instruction, ParsedDockerfile
from docgen.shell import COMPOUND_WORDS, ShToken, sh_tokens
from docgen.stages import built_stages

_JOINS = frozenset(("&&", "||", "|"))
"""Operators that need a command after them."""
_BASE_LIKE = re.compile(
    r"(?:PATH|HOME|LANG|LC_\w+|TZ|TERM|DEBIAN_FRONTEND|GPG_KEY|CUDA\w*|CUDNN\w*|NCCL\w*|NV\w*|PYTHON\w*"
    r"|PIP\w*|JAVA\w*|GO\w*|NODE\w*|YARN\w*|ROS\w*|CONDA\w*|ROCM\w*|HIP\w*|TORCH\w*|TF_\w+|MKL\w*"
    r"|OMP\w*|\w*_VERSION|\w*_HOME|\w*_PATH|\w*_DIR)"
)
"""Names a base image may set with ENV (a CUDA image's `CUDA_VERSION`, `NVIDIA_VISIBLE_DEVICES`): a RUN
may see its value whatever the ARG, so a test of one is left alone unless the README passes it."""
_QUOTED_VAR = re.compile(r'"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"')
"""A test's word that is one variable in double quotes (`"$NAME"`, `"${NAME}"`)."""


def syntax_error(tokens: Sequence[ShToken]) -> str | None:
    """The two operators (or the leading one) that make a command's tokens a shell syntax error
    (`&& &&`, `&& ;`, `| |`, `; &&`), None when there are none such."""
    previous = "^"  # the start of the command: an operator may not come first
    for token in tokens:
        if token.operator and token.text in (*_JOINS, ";"):
            if previous == "^":
                return f"{token.text} first"
            if previous in _JOINS or (previous == ";" and token.text != ";" or previous == token.text == ";"):
                return f"{previous} {token.text}"
            previous = token.text
        else:
            previous = ""
    return None


_FILE_LONG = {
    "ln": "backup directory force interactive logical no-dereference no-target-directory physical relative "
    "suffix symbolic target-directory verbose help version",
    "cp": "archive attributes-only backup copy-contents debug dereference force interactive keep-directory-"
    "symlink link no-clobber no-dereference no-preserve no-target-directory one-file-system parents "
    "preserve recursive reflink remove-destination sparse strip-trailing-slashes suffix symbolic-link "
    "target-directory update verbose context help version",
    "mv": "backup context debug exchange force interactive no-clobber no-copy no-target-directory "
    "strip-trailing-slashes suffix target-directory update verbose help version",
}
"""The long options of GNU coreutils' ln, cp and mv (any unambiguous prefix of one is taken too)."""
_SWALLOWED = re.compile(
    r"(?:pip[\d.]*|python[\d.]*|apt-get|apt|apk|yum|dnf|conda|mamba|micromamba|npm|yarn|git|cd|mkdir|echo"
    r"|curl|wget|rm|chmod|chown|ln|cp|mv|make|cmake|tar|unzip|useradd|groupadd|export|uv|sed|touch)"
)
"""Programs that start a command of their own: a continued line opening with one was meant as one."""
_VERSION_SPEC = re.compile(r"[A-Za-z][\w.-]*(?:\[[\w,.-]+\])?(?:[=!<>~]=|[<>])\S*")
"""A package with a version bound (`pydantic-settings~=2.0`, `torch==2.4`): no folder of the image."""


_NEXT_LINE = r"\\[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*"
"""A `\\` that continues a line, then the blank and comment lines before the next one's first word."""


def swallowed_line(inst: Instruction, tokens: Sequence[ShToken]) -> str | None:
    """Why a RUN fails when a command `ln`, `cp` or `mv` of it ends its line with a `\\` and no `&&`, and
    the next line starts another command (`ln -sf a /lib/a.so \\` then `pip3 install --x pkg~=2.0`): the
    shell joins them, so that command's words are more operands of ln/cp/mv, which fails when one of them
    is a long option it does not have (GNU's read options anywhere: "unrecognized option") or, with more
    than two operands, the last (the folder they would go into) is a package with a version bound, no
    folder (`certain`). None otherwise, or when `--` or `-t` comes before them."""
    command: list[str] = []
    for token in [*tokens, ShToken(";", True)]:
        if not token.operator:
            command.append(token.text)
            continue
        words = command[1:] if command[:1] == ["sudo"] else command
        command = []
        if len(words) < 3 or words[0] not in _FILE_LONG:
            continue
        program = words[0]
        for at, word in enumerate(words[1:], start=1):
            if not _SWALLOWED.fullmatch(word) or at < 2:
                continue
            line = re.search(_NEXT_LINE + re.escape(word) + r"(?=[ \t])", inst.original)
            if line is None:
                continue
            before, after = words[1:at], words[at:]
            if "--" in before or any(w in ("-t", "-T") or w.startswith("--target") for w in before):
                break
            number = inst.start_line + inst.original.count("\n", 0, line.end())
            shown = " ".join(after[:3]) + (" …" if len(after) > 3 else "")
            head = (
                f"runs {program} on a line ending in \\ with no && before `{shown}` on the next (line "
                f"{number}): the shell joins them, so {program} takes {word}'s words as more operands"
            )
            known = _FILE_LONG[program].split()
            for option in after:
                name = option.partition("=")[0]
                if "--" in after[: after.index(option)]:
                    break
                if name.startswith("--") and len(name) > 2 and not any(k.startswith(name[2:]) for k in known):
                    return f"{head} and fails (unrecognized option '{name}')"
            operands = [w for w in words[1:] if not w.startswith("-")]
            if len(operands) > 2 and _VERSION_SPEC.fullmatch(operands[-1].strip("\"'")):
                return f"{head} and fails (target '{operands[-1]}' is not a directory)"
            break
    return None


def _last_test(tokens: Sequence[ShToken]) -> tuple[str, str] | None:
    """(kind, name) of the test that starts the last list of a command when that list is `test … && …`
    with `&&` only (kind `-n`: true when NAME is not empty, or `-z`), None otherwise."""
    if any(t.operator and t.text in ("(", ")", "&", ";;", "|&") for t in tokens):
        return None
    end = len(tokens)
    while end and tokens[end - 1].operator and tokens[end - 1].text == ";":
        end -= 1
    start = max((i + 1 for i in range(end) if tokens[i].operator and tokens[i].text == ";"), default=0)
    last = tokens[start:end]
    joins = [t.text for t in last if t.operator and t.text in (*_JOINS, ";")]
    if (
        not joins
        or any(j != "&&" for j in joins)
        or any(not t.operator and t.text in COMPOUND_WORDS for t in last)
    ):
        return None
    first: list[str] = []
    for token in last:
        if token.operator:
            break
        first.append(token.text)
    if first[:1] == ["["]:
        if first[-1:] != ["]"]:
            return None
        first = first[1:-1]
    elif first[:1] == ["test"]:
        first = first[1:]
    else:
        return None
    kind = "-n"
    if len(first) == 2 and first[0] in ("-n", "-z"):
        kind, first = first[0], first[1:]
    if len(first) != 1 or (quoted := _QUOTED_VAR.fullmatch(first[0])) is None:
        return None
    return kind, quoted.group(1) or quoted.group(2)


def _value(
    model: ImageModel, parsed: ParsedDockerfile, run: Instruction, name: str, passed: Mapping[str, str | None]
) -> str | None:
    """What `$name` is in the RUN with the build args `passed`: '' when empty, None when not known."""
    if (
        name in PREDEFINED_ARGS
        or name in PROXY_ARGS
        or re.search(rf"\b{name}=|\bexport\b|\bread\b", run.args)
    ):
        return None
    if any(i.keyword == "ENV" and re.search(rf"\b{name}\b", i.args) for i in parsed.instructions):
        return None
    stage = model.stage_at(run.start_line)
    index = stage.index if stage is not None else None
    declared = [a for a in model.args if a.name == name and a.stage == index and a.line < run.start_line]
    if not declared:
        return ""
    decl = declared[-1]
    if name in passed:
        return passed[name]
    if decl.unknown is not None:
        return None
    return decl.default or ""


def _build_runs(model: ImageModel) -> tuple[ParsedDockerfile, list[tuple[Instruction, list[ShToken]]]] | None:
    """The parse of `model`'s Dockerfile and the shell-form RUNs of the stages its default target builds,
    each with its tokens, and their shell-form COPYs and ADDs (no tokens); None when the file is not read
    or has another escape character. A SHELL changes what runs a RUN, not how COPY reads its words: under
    one, the RUNs are left out and the COPYs and ADDs kept."""
    read = dockerfile_read(model.file) if model.file else None
    if read is None:
        return None
    parsed = read[1]
    if parsed.escape != "\\":
        return None
    other_shell = any(i.keyword == "SHELL" for i in parsed.instructions)
    built = built_stages(model)
    runs: list[tuple[Instruction, list[ShToken]]] = []
    for inst in parsed.instructions:
        if inst.keyword not in ("RUN", "COPY", "ADD") or inst.exec_form is not None or inst.heredocs:
            continue
        stage = model.stage_at(inst.start_line)
        if stage is None or stage.label not in built:
            continue
        if inst.keyword != "RUN":
            runs.append((inst, []))  # a COPY or ADD: its words are read by `shell_in_copy`
            continue
        if other_shell:
            continue
        try:
            runs.append((inst, sh_tokens(inst.args)))
        except ValueError:
            continue
    return parsed, runs


def shell_in_copy(inst: Instruction) -> str | None:
    """The shell syntax a COPY or ADD holds that fails its build (`lint.copy_shell_words`, DG012)."""
    return copy_shell_words(inst)


def _built_files(
    doc: Document, directory: Path, project: Path | None = None
) -> Iterator[tuple[int, str, list[tuple[str, str]], Path]]:
    """(README line, the real path of the Dockerfile it builds, its options, its build context) of each
    build command of the README's blocks that names its Dockerfile plainly, builds no `--target` and
    runs in this checkout; and of each compose command that builds a service of the README folder's
    compose file, or of the one file its `-f` names (`_compose_built`; looked for up to `project`, the
    project's top, else the checkout's)."""
    root = repository_root(directory) or directory.resolve()
    top = project.resolve() if project is not None else root
    remotes = remote_names(repository_root(directory))
    title = doc.headings[0][1].strip("` ") if doc.headings else ""
    clones: set[str] = set()  # the folders of the README's clones of this very repository
    moves: list[tuple[int, str]] = []  # (README line, folder) of each `cd` of its blocks
    for fence in doc.fences:
        for number, text in fence.lines:
            moves.extend((number, m.group(1)) for m in MOVE.finditer(text))
            clone = clone_of(text.rstrip().removesuffix("\\"))
            if clone is None:
                continue
            folder = clone[1] or cloned_folder(clone[0])
            operands = [clone[0], *([clone[1]] if clone[1] else [])]
            if own_clone(operands, root, remotes) is not None or (
                title and name_key(title) == name_key(folder)
            ):
                clones.add(folder)
    for fence in doc.fences:
        for command in build_commands(fence, BUILD):
            line = command[0][0]
            if any(t.strip("\"'").rstrip("/") not in clones for n, t in moves if n <= line):
                continue
            words = command_words(command, BUILD)
            read = build_words(words) if words is not None else None
            if read is None:
                continue
            options, positional = read
            if len(positional) != 1 or any(name == "--target" for name, _ in options):
                continue
            named = [value for name, value in options if name in ("-f", "--file")]
            file = named[-1] if named else os.path.join(positional[0], DOCKERFILE)
            if re.search(r"[$<>{}~`]|://|^/|@", file + positional[0]):
                continue
            yield (
                line,
                os.path.realpath(built_dockerfile(directory / file)),
                options,
                directory / positional[0],
            )
        own_moves = [(n, m.group(1)) for n, text in fence.lines for m in MOVE.finditer(text)]
        for command in build_commands(fence, DOCKER_COMPOSE):
            line = command[0][0]  # (as `compose_builds` reads it: the `cd`s of its own block)
            if any(t.strip("\"'").rstrip("/") not in clones for n, t in own_moves if n <= line):
                continue
            words = command_words(command, DOCKER_COMPOSE)
            if words is not None:
                yield from _compose_built(words, line, directory, top)


_COMPOSE_BUILDS = frozenset({"build", "up", "run", "create"})
"""The compose commands that build a service's image (`up`, `run` and `create` when it is missing)."""


@per_audit(maxsize=16)
def _compose_services(path: Path) -> tuple[Target, ...] | None:
    """The services of the compose file `path` that build an image (`compose.parse`), read once for the
    README's compose commands (thousands of `docker compose up --build NAME`); None for a file Compose
    refuses."""
    data = bytes_or_none(path)
    try:
        return compose.parse(data, path.name) if data is not None else ()
    except DocgenError:
        return None


def _compose_built(
    words: list[str], line: int, directory: Path, top: Path
) -> Iterator[tuple[int, str, list[tuple[str, str]], Path]]:
    """(README line, the real path of the Dockerfile, its build args as `--build-arg` options, its
    context) of each service a README compose command builds from the default compose file of the
    README's folder (`docker compose up -d`), or from the one file its `-f` names (`compose.run_folder`:
    the README's folder or one above it, up to `top`, the project's): those it names, else all; not one
    with a `target:` stage, a Dockerfile or context out of the project's folder."""
    call = read_compose(words)
    if call.verb not in _COMPOSE_BUILDS or call.options is None or not call.complete or len(call.files) > 1:
        return
    if "--no-build" in call.rest:
        return
    wanted = set(call.services)
    if call.files:
        named = call.files[0]
        if re.search(r"[$<>{}*?~`\[\]]|^/|^-$", named):
            return
        files = [compose.run_folder(directory, call.files, top) / named]
    else:
        files = [p for p in compose.default_files(directory) if p.parent.resolve() == directory.resolve()]
    for path in files:  # (os.path.isfile: Path.is_file raises on a name too long before Python 3.12)
        if not os.path.isfile(path) or not path.resolve().is_relative_to(top):
            continue
        services = _compose_services(path)
        if services is None:
            return
        for service in services:
            if (wanted and service.name not in wanted) or service.target is not None:
                continue
            if re.search(r"[$<>{}~`]|://|^/|@", service.dockerfile + service.context):
                continue
            options = [("--build-arg", f"{k}={v}" if "$" not in v else k) for k, v in service.args.items()]
            yield (
                line,
                os.path.realpath(built_dockerfile(path.parent / service.dockerfile)),
                options,
                path.parent / service.context,
            )


def _readme_builds(
    doc: Document, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[tuple[int, ImageModel, dict[str, str | None], Path]]:
    """(README line, the audited Dockerfile it builds, the build args it passes: None for one taken from
    the environment, the build context) of each build command of `_built_files` whose Dockerfile is
    audited."""
    files = {os.path.realpath(m.file): m for m in models if m.file}
    for line, file, options, context in _built_files(doc, directory, project):
        model = files.get(file)
        if model is None:
            continue
        passed: dict[str, str | None] = {}
        for name, value in options:
            if name == "--build-arg":
                key, eq, said = value.partition("=")
                passed[key] = said if eq else None
        yield line, model, passed, context


def unreadable_builds(
    doc: Document, readme: str, directory: Path, unreadable: Mapping[str, DocgenError]
) -> Iterator[Diagnostic]:
    """Each README build of a Dockerfile docker cannot read (`unreadable`: its real path → the error of
    docgen's reader, which refuses what BuildKit's parser refuses: an `ENV` with a name and no value, a
    heredoc never closed), told once per Dockerfile at the first build of it: the build stops before
    its first step."""
    if not unreadable:
        return
    told: dict[str, list[int]] = {}
    for line, file, _, _ in _built_files(doc, directory):
        if file in unreadable:
            told.setdefault(file, []).append(line)
    for file, lines in told.items():
        yield Diagnostic(
            readme,
            lines[0],
            f"README's build cannot start: docker cannot read the Dockerfile it builds ({unreadable[file]})"
            f"{also_at(lines)}",
            confidence=CERTAIN,
        )


def broken_runs(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[Diagnostic]:
    """Each README build whose Dockerfile has a RUN that fails whatever the machine (see the module), told
    once per failing RUN at the first build that reaches it."""
    builds = list(_readme_builds(doc, directory, models, project))
    if not builds:
        return
    passed_anywhere = {name for _, _, passed, _ in builds for name in passed}
    tagged = tagged_names(doc)  # (the README's own images: a base of one may hold any folder)
    read = {id(m): _build_runs(m) for _, m, _, _ in builds}
    failing: dict[
        tuple[str, int, str, str, str], list[int]
    ] = {}  # (Dockerfile, line, keyword, why) → README lines
    for line, model, passed, context in builds:
        runs = read[id(model)]
        if runs is None:
            continue
        parsed, instructions = runs
        # the build stops at its first failing step: of the early reads, only the first (in the order of
        # the lines) can be one (reading them all was n² in a chain of stages that each have one)
        first_early = next(early_reads(model, parsed, context, tagged), None)
        early = {first_early.run.start_line: first_early} if first_early is not None else {}
        steps: list[tuple[Instruction, list[ShToken] | None]] = [*instructions]
        if early.keys() - {inst.start_line for inst, _ in instructions}:  # (RUNs under a SHELL: bash)
            steps += [
                (found.run, None)
                for at, found in early.items()
                if at not in {i.start_line for i, _ in instructions}
            ]
            steps.sort(key=lambda step: step[0].start_line)
        scopeless: dict[str, int] | None = None  # (read from `docgen lint` when a RUN needs it)
        dashed = {
            inst.start_line: (at, rejected, base)
            for inst, at, rejected, base in dash_runs(parsed, model.stages)
            if rejected.fails
        }
        shallow = {
            found.run.start_line: found
            for found in shallow_checkouts(
                model, parsed, functools.partial(_value, model, parsed, passed=passed)
            )
        }
        for inst, tokens in steps:
            why = None
            sure = CERTAIN
            if (first := early.get(inst.start_line)) is not None and tokens is None:
                why, sure = _early_why(first)
            elif tokens is None:
                continue
            elif inst.keyword != "RUN":
                if (shell := shell_in_copy(inst)) is not None:
                    why = (
                        f"holds shell syntax (`{shell}`): {inst.keyword} reads its words as more sources and "
                        f"the destination {inst.args.split()[-1]}, which does not end in / as several "
                        "sources need"
                    )
            elif (error := syntax_error(tokens)) is not None:
                why = f"is a shell syntax error (`{error}`{_error_line(inst, error)})"
            elif (dash := dashed.get(inst.start_line)) is not None:
                at, rejected, base = dash
                place = f" (line {at})" if at != inst.start_line else ""
                why = (
                    f"uses `{rejected.construct}`{place}, which bash has and dash does not: with no SHELL, "
                    f"/bin/sh runs the RUN, and in {base} /bin/sh is dash: {dash_effect(rejected)[0]}"
                )
                why += "" if rejected.kind == "syntax" else ", and the RUN fails with it"
            elif (swallowed := swallowed_line(inst, tokens)) is not None:
                why = swallowed
            elif (first := early.get(inst.start_line)) is not None:
                why, sure = _early_why(first)
            elif (checkout := shallow.get(inst.start_line)) is not None:
                kind, ref = checkout.kind, checkout.ref
                why = (
                    f"runs `{checkout.command}`{_word_line(inst, checkout.command.split()[-1])} in the "
                    f"clone of {checkout.clone} that line {checkout.clone_line} makes with --depth: a "
                    f"shallow clone holds only the tip of one branch, so git finds no {kind} {ref} and the "
                    f"RUN fails (clone it with --branch {ref}, or fetch the {kind} first)"
                )
                sure = LIKELY  # (the tip may be that very commit, or carry the tag)
            elif (refused := refused_option(tokens)) is not None:
                why = (
                    f"runs {refused.program} with {refused.word}{_word_line(inst, refused.word)}, an option "
                    f"{refused.tool} does not take ({refused.why}): it stops with "
                    f'"{refused.said}" before it installs anything'
                )
                sure = CERTAIN if refused.certain else LIKELY
            elif (test := _last_test(tokens)) is not None:
                kind, name = test
                value = _value(model, parsed, inst, name, passed)
                if value is None or (name not in passed_anywhere and _BASE_LIKE.fullmatch(name)):
                    continue
                if name not in passed_anywhere and not any(a.name == name for a in model.args):
                    continue
                if (value == "") == (kind == "-n"):
                    said = "empty" if value == "" else f"set to {value}"
                    where = "" if _declared_in(model, inst, name) else f" (its stage declares no ARG {name})"
                    why = f'ends in `test {kind} "${name}" && …`, false with {name} {said}{where}'
                    why += ": the RUN exits 1"
            if why is None and inst.keyword == "RUN":
                if scopeless is None:
                    scopeless = scopeless_args(model)
                if scopeless and (blanked := _blanked_package(model, parsed, inst, scopeless)) is not None:
                    word, blank, name = blanked
                    place = _word_line(inst, word)
                    why = (
                        f"installs {word}{place}, which is {blank or 'empty'}: {name} is declared only "
                        f"before the first FROM (line {_global_line(model, name)}) and not again in the "
                        "RUN's stage, so it is empty there and no package has that name"
                    )
                    sure = LIKELY  # (a base image may still set it with ENV)
            if why is not None:
                failing.setdefault((model.path, inst.start_line, inst.keyword, why, sure), []).append(line)
                break  # the build stops at its first failing step
    for (path, at, kind, why, sure), lines in failing.items():
        yield Diagnostic(
            readme,
            lines[0],
            f"README's build of {path} cannot complete: its {kind} at line {at} {why}{also_at(lines)}",
            confidence=sure,
        )


def _early_why(found: EarlyRead) -> tuple[str, str]:
    """Why a RUN that reads a file before a later COPY brings it fails, and how sure that is."""
    place = _word_line(found.run, found.via.rpartition(":")[0] or found.word)
    reads = (
        f"whose {found.via} names {found.word}, which it reads" if found.via else f"which reads {found.word}"
    )
    why = (
        f"runs `{found.command}`{place}, {reads} ({found.path}) before the "
        f"{found.copy_keyword} at line {found.copy_line} puts it there: no earlier step of the stage brings "
        f"it, so the command finds no such file and the RUN fails (copy it before line "
        f"{found.run.start_line})"
    )
    return why, CERTAIN if found.certain else LIKELY  # (likely: the base image may hold the file)


def _word_line(inst: Instruction, word: str) -> str:
    """` (line N)`: the Dockerfile line `word` is on when it is not the RUN's first; '' otherwise."""
    at = inst.original.find(word)
    line = inst.start_line + inst.original.count("\n", 0, at) if at >= 0 else inst.start_line
    return f" (line {line})" if line != inst.start_line else ""


def _global_line(model: ImageModel, name: str) -> int:
    """The line of the ARG before the first FROM declaring `name`."""
    return next((a.line for a in model.args if a.name == name and a.stage is None), 0)


_INSTALLS = re.compile(
    r"\b(?:(?:apt-get|apt|yum|dnf|microdnf|zypper)[ \t]+(?:-\S+[ \t]+)*install|apk[ \t]+(?:-\S+[ \t]+)*add"
    r"|(?:pip3?(?:\.\d+)?|uv[ \t]+pip|python3?(?:\.\d+)?[ \t]+-m[ \t]+pip)[ \t]+install)\b([^;&|]*)"
)
"""A package install command of a RUN and the words after it, up to the next operator."""
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
_MALFORMED = re.compile(r"\A[-=.:_+]|--|[-=.:_+]\Z")
"""A package name with a blank where a variable was: `ros--desktop`, `gazebo-`, `torch==`."""


def _blanked_package(
    model: ImageModel, parsed: ParsedDockerfile, run: Instruction, scopeless: Mapping[str, int]
) -> tuple[str, str, str] | None:
    """(word as written, the word with the variable empty, the variable) of the first package an install
    command of `run` names through a build arg declared only before the first FROM and not again in the
    RUN's stage (`scopeless`, `docgen lint`'s DG001): empty in the RUN, it leaves a name no package has
    (`ros-${ROS_DISTRO}-desktop` → `ros--desktop`). None when there is none, or when a base image of the
    file may set the variable (`ROS_DISTRO` FROM `ros:humble`, `CUDA_VERSION` FROM `nvidia/cuda`)."""
    bases = " ".join(stage.base.lower() for stage in model.stages)
    for command in _INSTALLS.finditer(run.args):
        for word in command.group(1).split():
            word = word.strip("\"'")
            names = [m.group(1) or m.group(2) for m in _VARIABLE.finditer(word)]
            if word.startswith("-") or not names or any(n not in scopeless for n in names):
                continue
            if any(re.search(rf"\b{re.escape(n.split('_')[0].lower())}", bases) for n in names):
                continue
            if any(_value(model, parsed, run, n, {}) != "" for n in names):
                continue
            blank = _VARIABLE.sub("", word)
            if not blank or _MALFORMED.search(blank):
                return word, blank, names[0]
    return None


def _declared_in(model: ImageModel, run: Instruction, name: str) -> bool:
    stage = model.stage_at(run.start_line)
    index = stage.index if stage is not None else None
    return any(a.name == name and a.stage == index and a.line < run.start_line for a in model.args)


def _error_line(inst: Instruction, error: str) -> str:
    """`, line N`: the Dockerfile line the second operator of `error` (`&& &&`) is on, when it is not the
    RUN's first line; '' when it is or cannot be found."""
    first, _, second = error.partition(" ")
    if not second:
        return ""
    gap = r"[ \t]*(?:\\[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*)?[ \t]*"
    found = re.search(re.escape(first) + gap + re.escape(second), inst.original)
    if found is None:
        return ""
    line = inst.start_line + inst.original.count("\n", 0, found.end())
    return f", line {line}" if line != inst.start_line else ""


_PLACEHOLDER_TOKEN = re.compile(
    r"<[^<>/]+>|\{\{\s*\w+\s*\}\}|@[A-Za-z_]\w*@|%[A-Za-z_]\w*%?|__[A-Za-z]\w*__"
    r"|(?i:replace[_-]?me|change[_-]?me)|(?<![\w.-])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?=/)"
    r"|(?<![\w.-])[A-Z][A-Z0-9_]{2,}(?=/)"
)
"""A placeholder written into an image reference for a script to fill in (`<base>`, `{{BASE}}`,
`@BASE@`, `%BASE`, `__BASE__`, `REPLACE_ME`, a registry or namespace in capitals: `CI_REGISTRY/…`):
none is a name docker can pull (a repository path is lower case; `<`, `{`, `@`, `%` are no name's)."""
_SUBSTITUTES = re.compile(r"\b(?:sed|perl|envsubst|awk)\b|\.replace\(|\breplace\b")
"""A line that rewrites text: where a placeholder is filled in."""
_FILLERS = re.compile(
    r"(?:\.gitlab-ci\.ya?ml|Jenkinsfile|azure-pipelines\.ya?ml|\.drone\.ya?ml|bitbucket-pipelines\.ya?ml"
    r"|cloudbuild\.ya?ml|Makefile|GNUmakefile|.*\.(?:sh|bash|mk|ya?ml|py))\Z"
)
"""The files a placeholder of a Dockerfile is filled in by: CI configurations, workflows, scripts,
Makefiles."""
_FILLER_DEPTH = 3
"""How deep below the project's top they are looked for (`.github/workflows/build.yml`)."""


def _prose_builds(doc: Document, directory: Path) -> Iterator[tuple[int, str]]:
    """(README line, the real path of the Dockerfile it builds) of each build command written as a prose
    line of its own or an inline code span (`docker build -t app .` under a heading, with no block)."""
    for para in doc.paragraphs:
        for line, text in para.lines:
            if "build" not in text:
                continue
            for code in [text, *(c for _, _, c in code_spans(text))]:
                if not _PROSE_BUILD.match(code):
                    continue
                words = command_words([(line, code.strip())], BUILD)
                read = build_words(words) if words is not None else None
                if read is None or len(read[1]) != 1:
                    continue
                named = [value for name, value in read[0] if name in ("-f", "--file")]
                file = named[-1] if named else os.path.join(read[1][0], DOCKERFILE)
                if not re.search(r"[$<>{}~`]|://|^/|@", file + read[1][0]):
                    yield line, os.path.realpath(built_dockerfile(directory / file))


_PROSE_BUILD = re.compile(r"[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?docker[ \t]+(?:buildx[ \t]+)?build[ \t]")
"""A prose line or code span that is a `docker build` command."""


def _filler(top: Path, token: str, skip: set[str]) -> tuple[str, int, str] | None:
    """(path from `top`, line, text) of the first line of a CI configuration, workflow, script or
    Makefile under `top` that rewrites `token` (`sed -i "s#CI_REGISTRY#$CI_REGISTRY#" Dockerfile`);
    None when none does. `skip`: real paths not to read (the Dockerfile)."""
    for folder, dirs, files in os.walk(top):
        depth = len(Path(folder).relative_to(top).parts)
        dirs[:] = sorted(d for d in dirs if depth < _FILLER_DEPTH and d not in ("node_modules", ".git"))
        for name in sorted(files):
            path = Path(folder) / name
            if not _FILLERS.fullmatch(name) or os.path.realpath(path) in skip:
                continue
            text = text_or_none(path, MAX_PROJECT_FILE_BYTES)
            if text is None or token not in text:
                continue
            for number, line in enumerate(text.splitlines(), start=1):
                if token in line and _SUBSTITUTES.search(line):
                    shown = re.sub(r"\A-[ \t]+(?:(?:run|script|cmd):[ \t]*)?", "", line.strip())
                    return path.relative_to(top).as_posix(), number, shown
    return None


def placeholder_bases(
    doc: Document, readme: str, directory: Path, models: Sequence[ImageModel], project: Path | None = None
) -> Iterator[Diagnostic]:
    """A README build of a Dockerfile whose FROM names a placeholder (`FROM CI_REGISTRY/git/base:latest`)
    that only a CI job, workflow or script of the project fills in (`sed -i "s#CI_REGISTRY#…#"
    Dockerfile`), run directly: docker cannot pull what the placeholder names, so the build stops at its
    FROM (`certain`). Not read: a README naming that file (it runs it, or says to), a README line
    rewriting the placeholder itself, a base written with a variable."""
    builds: dict[str, list[int]] = {}
    for line, file, _, _ in _built_files(doc, directory):
        builds.setdefault(file, []).append(line)
    for line, file in _prose_builds(doc, directory):
        builds.setdefault(file, []).append(line)
    files = {os.path.realpath(m.file): m for m in models if m.file}
    top = project.resolve() if project is not None else repository_root(directory) or directory.resolve()
    for file, lines in builds.items():
        model = files.get(file)
        if model is None:
            continue
        built = built_stages(model)
        for stage in model.stages:
            if stage.parent is not None or stage.label not in built or "$" in stage.base:
                continue
            token = _PLACEHOLDER_TOKEN.search(stage.base)
            if token is None:
                continue
            said = [t for p in doc.paragraphs for _, t in p.lines] + [
                t for f in doc.fences for _, t in f.lines
            ]
            if any(token.group(0) in t and _SUBSTITUTES.search(t) for t in said):
                continue  # (the README fills it in itself)
            filler = _filler(top, token.group(0), {file, os.path.realpath(directory / readme)})
            if filler is None or any(os.path.basename(filler[0]) in t for t in said):
                continue
            where, at, text = filler
            yield Diagnostic(
                readme,
                sorted(lines)[0],
                f"README's build of {model.path} cannot start: its FROM at line {stage.line} names "
                f"{stage.base}, whose {token.group(0)} is a placeholder only {where}:{at} fills in "
                f"({text[:100]}) before its own build; run as the README says, docker has no such image to "
                f"pull and stops at the FROM{also_at(sorted(lines))}",
                confidence=CERTAIN,
            )
            break
