"""Lint: the Dockerfile mistakes reviewers otherwise catch by hand, as warnings with a line.

The rules, all pure functions of the reader's and the evaluator's output (see docs/lint.md):

1. a stage reads a build arg it has not declared (BuildKit gives it the empty string there, so
   `--build-arg` silently does nothing for that stage), platform args such as TARGETARCH included;
2. a build arg's default is also written literally on another line (overriding the arg leaves that
   line behind: `cp312` wheels with `PYTHON_VERSION=3.11`);
3. a build arg is declared but nothing reads it;
4. a git source (clone, pip `git+`, `ADD` of a repository, source archive) is not pinned, or is
   pinned to a branch, which moves;
5. a pip option pip rejects (`-no-build-isolation`: one dash, so pip reads `-n` and stops);
6. GPU target lists that disagree between the variables different build tools read
   (`PYTORCH_ROCM_ARCH` and `GPU_TARGETS`, `TORCH_CUDA_ARCH_LIST` and `CMAKE_CUDA_ARCHITECTURES`);
7. an NVIDIA GPU target list naming a compute capability the stage's CUDA release cannot compile
   (`TORCH_CUDA_ARCH_LIST="9.0;12.0"` on a CUDA 12.6 base image);
8. a RUN whose only lasting work would be setting shell variables (`RUN export PATH=/opt/x/bin:$PATH`):
   they end with the RUN's shell, so no later instruction sees them;
9. a COPY or ADD holding shell syntax (`COPY scripts /app/scripts || true`): no shell runs it, so the
   operator and the words after it are more sources and the destination, and the build fails;
10. bash-only syntax (`source`, `[[`, `${x//a/b}` …) in a RUN that `/bin/sh` runs on a base image whose
   `/bin/sh` is dash (Debian, Ubuntu and images built on them), with no SHELL naming bash (DG014).

Two more come from the extraction, which reads RUN scripts as the shell does (`docgen.sources.run`): an
install command given a shell keyword as an argument (DG008), and a version bound written unquoted after
a package name (`pip install paddleocr>=2.9.1`), which the shell reads as a redirection (DG013).

Each rule errs on the side of silence: a warning should always be worth reading. Each has a stable id
(DG001 … DG007, DG009, DG011, DG012 and DG014, in that order, then DG008 and DG013; `docgen.findings` lists
them and handles `# docgen: ignore=ID`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence

from docgen import baseimage, hardware
from docgen.base_contents import dash_sh
from docgen.evaluate import PREDEFINED_ARGS, PROXY_ARGS, Evaluation
from docgen.hardcoded import hardcoded, is_comment, ranges
from docgen.installer_options import PIP_VALUED, pip_short_refused
from docgen.model import ArgDecl, Component, Diagnostic, HardCoded, Instruction, ParsedDockerfile, Stage
from docgen.shell import (
    DECLARE,
    NAME,
    POSIX_SHELLS,
    DashRejected,
    ShToken,
    dash_rejected,
    referenced_names,
    sh_tokens,
    split_words,
)
from docgen.sources.pip import PIP

__all__ = ["dash_runs", "lint", "only_assigned"]

# Instructions whose arguments BuildKit expands with ARG/ENV values (RUN is expanded by the shell,
# which sees ARGs in scope as environment variables; CMD/ENTRYPOINT run later, where no ARG exists).
_EXPANDED = frozenset(
    {"ADD", "COPY", "ENV", "EXPOSE", "LABEL", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR", "ARG"}
)


def lint(
    parsed: ParsedDockerfile,
    evaluation: Evaluation,
    components: Sequence[Component],
    found_hardcoded: Sequence[HardCoded] | None = None,
) -> tuple[Diagnostic, ...]:
    """Every lint warning for one Dockerfile, sorted by line. `found_hardcoded` is `hardcoded(parsed,
    evaluation)` when the caller already has it (the model carries it)."""
    out_of_scope = _out_of_scope(parsed, evaluation)
    if found_hardcoded is None:
        found_hardcoded = hardcoded(parsed, evaluation)
    found = [
        *(d for _, d in out_of_scope),
        *_hardcoded_warnings(parsed, found_hardcoded),
        # an arg only ever read out of scope is unused too; the scope warning says why
        *_unused(parsed, evaluation, {name for name, _ in out_of_scope}),
        *_unpinned_git(parsed, components),
        *_branch_downloads(parsed),
        *_pip_options(parsed),
        *_gpu_targets(evaluation, parsed.path),
        *_toolkit_targets(evaluation, parsed.path),
        *_lost_variables(parsed),
        *_shell_in_copies(parsed),
        *_dash_warnings(parsed, evaluation.stages),
    ]
    return tuple(sorted(found, key=lambda d: (d.line, d.message)))


# --------------------------------------------------------------------------------------------------
# Physical lines


def _source_lines(inst: Instruction) -> Iterator[tuple[int, str]]:
    """(line number, text) of an instruction's own lines, then of its heredoc bodies."""
    for offset, text in enumerate(inst.original.split("\n")):
        yield inst.start_line + offset, text
    for heredoc in inst.heredocs:
        for offset, text in enumerate(heredoc.body.split("\n")):  # not splitlines: U+2028 is no line break
            yield heredoc.start_line + offset, text


# --------------------------------------------------------------------------------------------------
# 1. ARG used where it is not in scope


def _reference(name: str) -> re.Pattern[str]:
    """`$NAME` or `${NAME…}` not escaped with a backslash."""
    return re.compile(r"(?<!\\)\$\{?" + re.escape(name) + r"(?![A-Za-z0-9_])")


# Shell assignments and loop/read variables: `X=…`, `export X=…`, `for X in`, `read -r X`.
_ASSIGNED = re.compile(
    r"(?:^|(?<=[\s;&|(`]))(?:" + DECLARE + r")?(?P<assign>" + NAME + r")\+?="
    r"|\bfor\s+(?P<loop>[A-Za-z_][A-Za-z0-9_]*)\s+in\b"
    r"|\bread\s+(?:-\w+\s+)*(?P<read>[A-Za-z_][A-Za-z0-9_]*)"
)


def _set_by_script(text: str, name: str) -> bool:
    """True when the shell text sets `name` before it first reads it (`X=1 … $X`, `for X in …`).

    `X="${X:-4}"` reads X in its own assignment, so it does not count as set before use.
    """
    use = _reference(name).search(text)
    if use is None:
        return True
    for match in _ASSIGNED.finditer(text, 0, use.start()):
        group = next(g for g in ("assign", "loop", "read") if match.group(g))
        if match.group(group) != name:
            continue
        if group == "assign" and text[match.end() : use.start()] in ("", '"'):
            continue  # the value of this very assignment
        return True
    return False


def _read_texts(inst: Instruction, escape: str) -> list[str]:
    """The texts of `inst` whose variables get expanded (by BuildKit, or by the RUN shell)."""
    texts = [f.value or "" for f in inst.flags]
    if inst.keyword == "RUN":
        if inst.exec_form is None:
            texts.append(inst.args)
            run = _run_heredocs(inst.args) if inst.heredocs else set()
            texts.extend(h.body for h in inst.heredocs if h.expand or h.name in run)
    elif inst.keyword == "ARG":
        texts.extend(w.partition("=")[2] for w in split_words(inst.args, escape))
    elif inst.keyword in _EXPANDED:
        texts.append(inst.args)
        texts.extend(h.body for h in inst.heredocs if h.expand)
    return texts


# Variables a base image sets for every later stage and that Dockerfiles extend rather than set
# (`ENV PATH=/opt/conda/bin:${PATH}`): search paths and tool homes. In a stage that starts from an
# image, a use of one reads the image's value, declared ARG or not.
_INHERITED_ENV = re.compile(
    r"(?:LD_LIBRARY_|LIBRARY_|C|C_INCLUDE_|CPLUS_INCLUDE_|PKG_CONFIG_|PYTHON|MAN|CMAKE_PREFIX_|GO|CLASS)?PATH"
    r"|LD_PRELOAD|(?:CUDA|ROCM|HIP)_(?:HOME|PATH)|CONDA_PREFIX|JAVA_HOME|GOROOT|CARGO_HOME|RUSTUP_HOME"
    r"|HOME|LANG|LC_[A-Z]+|TZ|SHELL|USER"
)

# The platform args BuildKit defines in the global scope only: like a global ARG, a stage sees one
# only after `ARG TARGETARCH` (https://docs.docker.com/build/building/variables/#multi-platform-build-arguments).
_PLATFORM_ARGS = frozenset(
    f"{side}{part}" for side in ("TARGET", "BUILD") for part in ("PLATFORM", "OS", "ARCH", "VARIANT")
)


_HEREDOC_MARKER = re.compile(r"<<-?\s*(['\"]?)([^\s'\"<>;&|]+)\1")
_REDIRECTION = re.compile(r"<<-?\s*\S+|\d*[<>]+&?\s*\S+")


def _run_heredocs(command: str, shells: Collection[str] = POSIX_SHELLS) -> set[str]:
    """The heredocs a RUN runs as a script (`RUN <<'EOF'`, `bash <<'EOF'`, `<<EOF sh -e`), where the
    shell reads the build args from its environment; the others are data (`cat > /entrypoint.sh
    <<'EOF'`), whose `$VAR`s a quoted delimiter leaves for the container's run time. `shells`: the
    programs that count (`_DASH_NAMES` for the ones `/bin/sh` runs: `RUN <<EOF` alone, or `sh <<EOF`)."""
    run: set[str] = set()
    for part in re.split(r"&&|\|\||[;|\n]", command):
        names = [m.group(2) for m in _HEREDOC_MARKER.finditer(part)]
        if names:
            words = [w for w in _REDIRECTION.sub(" ", part).split() if "=" not in w]
            if not words or words[0].rsplit("/", 1)[-1] in shells:
                run.update(names)
    return run


_WHOLE_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def _out_of_scope(parsed: ParsedDockerfile, evaluation: Evaluation) -> list[tuple[str, Diagnostic]]:
    """(name, warning) for the first use of each build arg in each stage where it is not in scope."""
    declared: dict[str, list[ArgDecl]] = {name: [] for name in _PLATFORM_ARGS}
    for decl in evaluation.args:
        if decl.name not in PREDEFINED_ARGS and decl.name not in PROXY_ARGS:
            declared.setdefault(decl.name, []).append(decl)
    stages = evaluation.stages
    # Names the external image a stage starts from was chosen with (`FROM nvidia/cuda:${CUDA_VERSION}`,
    # also through a global `ARG BASE=nvidia/cuda:${CUDA_VERSION}`): such images commonly set an ENV
    # of the same name, so the shell may well see a value.
    global_reads: dict[str, set[str]] = {}
    for decl in evaluation.args:
        if decl.stage is None and decl.raw_default and "$" in decl.raw_default:
            global_reads.setdefault(decl.name, set()).update(referenced_names(decl.raw_default))
    image_names: list[set[str]] = []
    for stage in stages:
        if stage.parent is not None:
            image_names.append(image_names[stage.parent])
            continue
        names, todo = set(), list(referenced_names(stage.base_raw))
        while todo:
            name = todo.pop()
            if name not in names:
                names.add(name)
                todo.extend(global_reads.get(name, ()))
        whole = _WHOLE_REFERENCE.fullmatch(stage.base_raw)
        if whole:  # `FROM ${BASE_IMAGE}`: the arg holds the whole image name, no image sets an ENV of it
            names.discard(whole.group(1))
        image_names.append(names)
    found: list[tuple[str, Diagnostic]] = []
    reported: set[tuple[int, str]] = set()
    for inst, scope in zip(parsed.instructions, evaluation.scopes, strict=False):
        expanded = inst.keyword == "RUN" or inst.keyword in _EXPANDED or inst.flags
        if scope.stage is None or not expanded:
            continue
        label = stages[scope.stage].label
        for text in _read_texts(inst, parsed.escape):
            if "$" not in text:
                continue
            for name in sorted(referenced_names(text) & declared.keys()):
                key = (scope.stage, name)
                if key in reported or name in scope.values or name in image_names[scope.stage]:
                    continue
                if scope.base_unknown and _INHERITED_ENV.fullmatch(name):
                    continue  # `ENV PATH=/opt/x/bin:${PATH}`: the base image's value, as meant
                if any(_declared_here(d, label, inst.start_line) for d in declared[name]):
                    continue  # declared without a value (`ARG MAX_JOBS`): unset unless passed, as meant
                if inst.keyword == "RUN" and _set_by_script(text, name):
                    continue
                if inst.keyword != "RUN" and not _reference(name).search(text):
                    continue  # only escaped (`\$NAME`): literal text
                if inst.keyword == "ARG" and (f"${{{name}:-" in text or f"${{{name}-" in text):
                    continue  # `ARG HOSTTYPE=${HOSTTYPE:-x86_64}`: the fallback is the default, as meant
                reported.add(key)
                line = _first_line_with(_reference(name), _source_lines(inst), inst.start_line)
                if name in _PLATFORM_ARGS:
                    message = (
                        f"${{{name}}} is used in stage {label}, but {name} is not declared there "
                        f"(add `ARG {name}` after its FROM at line {stages[scope.stage].line}); "
                        f"BuildKit sets platform args for FROM lines only, so it is empty here"
                    )
                elif inst.keyword == "ARG" and name in arg_names(inst, parsed.escape):
                    message = _self_default_message(name, label, evaluation)
                else:
                    message = _scope_message(name, scope.stage, line, evaluation)
                found.append((name, Diagnostic(parsed.path, line, message, rule="DG001")))
    return found


def arg_names(inst: Instruction, escape: str) -> set[str]:
    """The names an ARG instruction declares (`ARG A=1 B` declares A and B)."""
    return {word.partition("=")[0] for word in split_words(inst.args, escape)}


def _self_default_message(name: str, stage: str, evaluation: Evaluation) -> str:
    """`ARG NAME=${NAME}` in a stage: `--build-arg` works, but the default is not the global one."""
    globals_ = [d.line for d in evaluation.args if d.name == name and d.stage is None]
    if not globals_:
        return (
            f"`ARG {name}=${{{name}}}` in stage {stage}: the default refers to {name} itself, which is "
            f"not set yet here, so it is empty (or what the base image sets)"
        )
    return (
        f"`ARG {name}=${{{name}}}` in stage {stage} does not take the global default of {name} "
        f"(line {globals_[0]}): its default is expanded before {name} is in scope here, so it is empty "
        f"(or what the base image sets); write `ARG {name}` to re-declare the global default"
    )


def _declared_here(decl: ArgDecl, stage: str, line: int) -> bool:
    """True when `decl` is in effect in `stage` at `line` (declared there before it, or in a parent)."""
    return decl.stage is not None and decl.line < line and stage in decl.stages


def _first_line_with(pattern: re.Pattern[str], source: Iterator[tuple[int, str]], default: int) -> int:
    for number, text in source:
        if not is_comment(text) and pattern.search(text):
            return number
    return default


def _scope_message(name: str, stage_index: int, line: int, evaluation: Evaluation) -> str:
    stage = evaluation.stages[stage_index]
    later = [d.line for d in evaluation.args if d.name == name and d.stage == stage_index and d.line > line]
    if later:
        return (
            f"${{{name}}} is used in stage {stage.label} before `ARG {name}` at line {later[0]} "
            f"declares it there, so it is empty here (move the ARG up); "
            f"--build-arg {name} has no effect on this line"
        )
    return (
        f"${{{name}}} is used in stage {stage.label}, but {name} is not declared there "
        f"(add `ARG {name}` after its FROM at line {stage.line}); "
        f"--build-arg {name} has no effect here"
    )


# --------------------------------------------------------------------------------------------------
# 2. A build arg's default written literally elsewhere


def _hardcoded_warnings(parsed: ParsedDockerfile, entries: Sequence[HardCoded]) -> list[Diagnostic]:
    """One warning per arg (one cause: overriding it leaves every such line behind), on the first line,
    naming the others."""
    groups: dict[str, list[HardCoded]] = {}
    for entry in entries:
        groups.setdefault(entry.arg, []).append(entry)
    found = []
    for arg, group in groups.items():
        lines = sorted({h.line for h in group})
        spellings = ", ".join(dict.fromkeys(h.spelling for h in group))
        others = lines[1:]
        where = "here"
        if others:
            where += f" and on line{'s' if len(others) > 1 else ''} {ranges(others)}"
        behind = "this line" if len(lines) == 1 else "these lines"
        first = group[0]
        found.append(
            Diagnostic(
                parsed.path,
                lines[0],
                f"{first.value} is written literally {where} ({spellings}) although build arg "
                f"{arg} (line {first.arg_line}) controls it; overriding --build-arg {arg} leaves "
                f"{behind} behind",
                rule="DG002",
            )
        )
    return found


# --------------------------------------------------------------------------------------------------
# 3. Declared but never used

# An ARG is an environment variable for the RUN commands in its scope, and some tools read theirs
# from there without any `$NAME` in the Dockerfile: apt reads DEBIAN_FRONTEND, pip PIP_INDEX_URL,
# PyTorch extensions MAX_JOBS and TORCH_CUDA_ARCH_LIST, PyTorch's setup.py every USE_*. Such
# well-known names are not "unused" when a RUN sees them; neither is a name the file never gives a
# value, nor any name in scope of a RUN that runs a shell script file. Other names are.
_ENVIRONMENT = re.compile(
    r"(?:\w*CACHE_?BUST(?:ER)?\w*|BUILD_?DATE|BUILD_?TIME(?:STAMP)?|DEBIAN_FRONTEND|DEBCONF_\w+|MAX_JOBS|NVCC_THREADS|TORCH_CUDA_ARCH_LIST|PYTORCH_ROCM_ARCH|GPU_ARCHS"
    r"|CC|CXX|FC|CUDACXX|HIPCXX|\w*FLAGS|CUDA_HOME|CUDA_PATH|ROCM_PATH|ROCM_HOME|TZ|LANG|LANGUAGE"
    r"|SOURCE_DATE_EPOCH|GOPROXY|GOPRIVATE|GONOSUMDB|GIT_\w+|SSL_CERT_\w+|REQUESTS_CA_BUNDLE"
    r"|(?:PIP|UV|CMAKE|HIP|NVTE|LC|PYTHON|CONDA|MAMBA|HF|HUGGINGFACE|TRANSFORMERS|CARGO|SETUPTOOLS"
    r"|POETRY|NPM|npm_config|BUILDKIT|CCACHE|VLLM|FLASH_ATTENTION|FLASH_ATTN|NCCL|TORCH_NVCC|USE)_\w+)\Z"
)
# A RUN that runs a shell script file (`bash ./install_rocm.sh`, `./build.sh`): PyTorch's and ROCm's
# CI images pass their build args to such scripts through the environment. URLs are not files here.
_RUNS_SCRIPT = re.compile(r"(?<![\w./:-])(?:\.{0,2}/)?[\w./-]*[\w-]\.sh\b")
# Commands that only handle a script's file (`chmod +x /entrypoint.sh`, `sed -i … run.sh`, `wget -O
# install.sh …`): the script named there does not run, unless their output goes on into a pipe
# (`cat install.sh | bash`).
_FILE_ONLY = frozenset(
    "chmod chown chgrp cp mv rm ln mkdir touch cat ls dos2unix sed echo printf install tr wget curl test [ "
    "head tail stat file sha256sum md5sum grep".split()
)
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_ENDS_COMMAND = frozenset({"&&", "||", ";", ";;", "|", "|&", "&", "(", ")"})


def _runs_script(text: str) -> bool:
    """True when the shell text `text` may run a shell script file (`_RUNS_SCRIPT`): a command naming one
    that is no command handling its file only (`_FILE_ONLY`). A text the reader cannot split may."""
    if not _RUNS_SCRIPT.search(text):
        return False
    for line in text.replace("\\\n", " ").splitlines():
        if not _RUNS_SCRIPT.search(line):
            continue
        try:
            tokens = sh_tokens(line)
        except ValueError:
            return True
        words: list[str] = []
        redirected = False  # the word after `>`, `<` … is a file the shell opens, no word of the command
        for token in [*tokens, ShToken(";", True)]:
            if not token.operator:
                if not redirected:
                    words.append(token.text)
                redirected = False
                continue
            if token.text not in _ENDS_COMMAND:
                redirected = True
                continue
            head = next((w for w in words if not _ASSIGNMENT.match(w) and w != "sudo"), "")
            if any(_RUNS_SCRIPT.search(w) for w in words) and (
                head.rsplit("/", 1)[-1] not in _FILE_ONLY or token.text in ("|", "|&")
            ):
                return True
            words = []
    return False


_WINDOWS_READ = re.compile(r"\$\{?env:([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%", re.IGNORECASE)
_SUBSTITUTED = re.compile(r"(?:_|\A)(?:VERSION|VER|TAG|COMMIT|SHA|REF|BRANCH|REPO|RELEASE)\Z")


def _unused(parsed: ParsedDockerfile, evaluation: Evaluation, explained: set[str]) -> list[Diagnostic]:
    by_name: dict[str, list[ArgDecl]] = {}
    for decl in evaluation.args:
        if decl.name not in PROXY_ARGS:
            by_name.setdefault(decl.name, []).append(decl)
    run_lines: dict[int, list[int]] = {}  # stage index -> start lines of its RUN instructions
    script_lines: dict[int, list[int]] = {}  # the same, for RUNs that run a shell script file
    read_elsewhere: set[str] = set()  # `ARG BASE=img:${TAG}` before the first FROM reads TAG; ONBUILD
    for inst, scope in zip(parsed.instructions, evaluation.scopes, strict=False):
        if inst.keyword == "RUN" and scope.stage is not None:
            run_lines.setdefault(scope.stage, []).append(inst.start_line)
            if any(_runs_script(text) for text in _read_texts(inst, parsed.escape)):
                script_lines.setdefault(scope.stage, []).append(inst.start_line)
        elif inst.keyword == "ARG" and scope.stage is None and "$" in inst.args:
            for text in _read_texts(inst, parsed.escape):
                read_elsewhere |= referenced_names(text)
        elif inst.keyword == "ONBUILD":  # expanded when a later build uses this stage as its base
            read_elsewhere |= referenced_names(inst.args)
        if inst.keyword == "RUN" and ("env:" in inst.original or "%" in inst.original):
            # read from the environment by PowerShell (`$env:NAME`, `${env:NAME}`) or cmd (`%NAME%`)
            read_elsewhere.update(m.group(1) or m.group(2) for m in _WINDOWS_READ.finditer(inst.original))
    labels = {stage.label: stage.index for stage in evaluation.stages}
    found = []
    for name, decls in by_name.items():
        if name in explained or name in read_elsewhere or any(d.used_lines for d in decls):
            continue
        if name.startswith("BUILDKIT_"):
            continue  # read by BuildKit itself (`ARG BUILDKIT_SBOM_SCAN_CONTEXT=true`, inline cache …)
        if any(_reaches_run(d, script_lines, labels) for d in decls):
            continue  # a script file the Dockerfile cannot show runs with it in its environment
        # a name never given a value in the file (`ARG GIT_SHA`) exists only to pass --build-arg
        # into the environment of the RUNs (or to invalidate their cache): not a leftover
        from_environment = _ENVIRONMENT.match(name) and not _SUBSTITUTED.search(name)
        from_environment = from_environment or all(d.raw_default is None for d in decls)
        if from_environment and any(_reaches_run(d, run_lines, labels) for d in decls):
            continue  # a RUN sees it as an environment variable, where a tool reads it
        message = f"build arg {name} is declared but never used"
        if from_environment and all(d.stage is None for d in decls):
            message += (
                "; declared before the first FROM, it is seen by FROM lines only, not by RUN "
                "(declare it after the FROM of the stages that need it)"
            )
        found.append(Diagnostic(parsed.path, decls[0].line, message, rule="DG003"))
    return found


def _reaches_run(decl: ArgDecl, run_lines: dict[int, list[int]], labels: dict[str, int]) -> bool:
    """True when some RUN runs with the declaration in its environment."""
    if decl.stage is None:
        return False
    for label in decl.stages:  # the declaring stage and the stages built FROM it, which come later
        index = labels.get(label)
        if index is not None and any(line > decl.line for line in run_lines.get(index, ())):
            return True
    return False


# --------------------------------------------------------------------------------------------------
# 4. Git sources not pinned, or pinned to a branch


# A download from a branch of a GitHub/GitLab repository: a source archive (`…/archive/main.tar.gz`,
# `…/archive/refs/heads/main.zip`, `…/-/archive/master/r-master.tar.gz`) or a raw file
# (`raw.githubusercontent.com/o/r/main/install.sh`, `…/-/raw/master/…`), like a clone of that branch.
# Only explicit `refs/heads/` or a usual branch name counts: tags have every shape (`b4567`).
_URL_CHARS = r"[^\s\"'?#]"
_BRANCH_URL = re.compile(
    rf"https?://(?:github\.com|gitlab\.com)/{_URL_CHARS}+?/archive/(?P<a>(?:refs/heads/)?[^/\s\"'?#]+?)"
    rf"(?:/[^/\s\"'?#]+)?\.(?:tar\.gz|tgz|tar\.bz2|zip)(?!{_URL_CHARS})"
    rf"|https?://raw\.githubusercontent\.com/[^/\s\"']+/[^/\s\"']+/(?P<r>(?:refs/heads/)?[^/\s\"']+)/"
    rf"|https?://gitlab\.com/{_URL_CHARS}+?/-/raw/(?P<g>[^/\s\"']+)/"
)
_BRANCHES = frozenset({"main", "master", "develop", "dev", "devel", "trunk", "head", "nightly"})


def _branch_downloads(parsed: ParsedDockerfile) -> list[Diagnostic]:
    """A RUN or ADD that downloads from a branch (see _BRANCH_URL), once per line and URL."""
    found = []
    for inst in parsed.instructions:
        if inst.keyword not in ("RUN", "ADD") or "://" not in inst.original:
            continue
        for number, text in _source_lines(inst):
            if is_comment(text) or "://" not in text:
                continue
            for match in _BRANCH_URL.finditer(text):
                ref = match.group("a") or match.group("r") or match.group("g") or ""
                if ref.startswith("refs/heads/") or ref.lower() in _BRANCHES:
                    url = match.group(0) + ("…" if match.group(0).endswith("/") else "")
                    message = (
                        f"download of {url} takes branch {ref.removeprefix('refs/heads/')}, "
                        "which moves; put a commit or tag in the URL"
                    )
                    found.append(Diagnostic(parsed.path, number, message, rule="DG005"))
    return found


def _unpinned_git(parsed: ParsedDockerfile, components: Sequence[Component]) -> list[Diagnostic]:
    lines = {n: text for inst in parsed.instructions for n, text in _source_lines(inst)}
    added = {inst.start_line for inst in parsed.instructions if inst.keyword == "ADD"}
    found = []
    for comp in components:
        if comp.kind in ("go", "cargo") and comp.ref_kind == "branch" and not comp.pinned:
            # `go install …@master`, `cargo install --git … --branch main`: a moving source as well
            found.append(
                Diagnostic(
                    parsed.path,
                    comp.line,
                    f"{comp.kind} install of {comp.name} builds branch {comp.ref}, which moves; "
                    "pin a version, tag or commit",
                    rule="DG004",
                )
            )
            continue
        if comp.kind != "git" or comp.pinned:
            continue
        url = comp.source or comp.name
        if f"{url}/archive/" in lines.get(comp.line, ""):
            continue  # `pip install https://github.com/o/r/archive/main.tar.gz`: a download, said below
        pip = f"git+{url}" in lines.get(comp.line, "")
        what = f"pip install of git+{url}" if pip else f"git clone of {url}"
        if comp.line in added:  # `ADD https://github.com/o/r.git /src`: the ref goes after a `#`
            what, pip = f"ADD of {url}", True
        ref = comp.ref
        if comp.arg and ref in (None, "", f"${{{comp.arg}}}"):  # `git checkout ${TE_COMMIT}`, bare ARG
            message = (
                f"{what} checks out ${{{comp.arg}}}, which has no value here; "
                f"give build arg {comp.arg} a commit or tag as its default"
            )
        elif not ref:
            fix = "add git checkout <commit>"
            if pip:
                fix = f"add {'#' if comp.line in added else '@'}<commit> to the URL"
            message = f"{what} is not pinned to a commit or tag ({fix})"
        elif "$" in ref:
            message = (
                f"{what} checks out {ref}, which the Dockerfile gives no value; "
                "give that build arg a commit or tag as its default"
            )
        elif comp.ref_kind == "branch":
            message = f"{what} checks out branch {ref}, which moves; pin a commit or tag"
        else:
            message = f"{what} checks out {ref}, which is not known when the Dockerfile is read"
        found.append(Diagnostic(parsed.path, comp.line, message, rule="DG004"))
    return found


# --------------------------------------------------------------------------------------------------
# 5. pip options pip rejects

# (pip's short options: `installer_options`, the one table of them)
_PIP_COMMAND = re.compile(
    r"(?<![\w./-])(?<!uv )(?:[\w./-]*/)?" + PIP + r"\s+(install|wheel|download|uninstall)\b([^;&|\n]*)"
)


_SUBSTITUTION = re.compile(r"\$\((?:[^()]|\([^()]*\))*\)?|`[^`]*`?")


def _pip_options(parsed: ParsedDockerfile) -> list[Diagnostic]:
    """A pip command with a short option pip does not have, most often a long option written with one
    dash (`-no-build-isolation`, which pip reads as `-n` …): the build stops there, so one warning per
    command, for the first such option."""
    found = []
    for inst in parsed.instructions:
        if inst.keyword != "RUN" or "pip" not in inst.original:
            continue
        lines = [(n, t) for n, t in _source_lines(inst) if not is_comment(t)]
        at = 0  # the commands come in order: each search starts at the line of the one before
        # the command with its continuation lines joined (an option may sit on the next line), then
        # the heredoc bodies
        for block in (inst.args, *(h.body for h in inst.heredocs)):
            for match in _PIP_COMMAND.finditer(block):
                command = match.group(1)
                # a command substitution is another command (`pip install $(find . -name '*.whl')`)
                word, rejected = _first_rejected(command, _SUBSTITUTION.sub(" ", match.group(2)).split())
                if word is None or rejected is None:
                    continue
                pattern = re.compile(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])")
                here = next((i for i in range(at, len(lines)) if pattern.search(lines[i][1])), None)
                line = inst.start_line if here is None else lines[here][0]
                at = at if here is None else here
                hint = f" (did you mean --{word[1:]}?)" if len(word) > 2 and word[1:2].islower() else ""
                found.append(
                    Diagnostic(
                        parsed.path,
                        line,
                        f"pip {command} option {word}: pip has no short option {rejected} and stops with "
                        f'"no such option: {rejected}"{hint}',
                        rule="DG006",
                    )
                )
    return found


def _first_rejected(command: str, words: list[str]) -> tuple[str | None, str | None]:
    """The first word of a pip command's arguments that pip rejects, and the option pip names."""
    value_next = False
    for raw in words:
        word = raw.strip("\"'")
        if word == "--":
            break
        if value_next:
            value_next = False
            continue
        if not re.match(r"-[A-Za-z]", word):
            continue
        letter = pip_short_refused(command, word)
        if letter is not None:
            return word, f"-{letter}"
        value_next = len(word) == 2 and word[1] in PIP_VALUED  # `-r FILE`: FILE is a value
    return None, None


# --------------------------------------------------------------------------------------------------
# 6. GPU target lists that disagree

# Variables that different build tools read for the GPU targets to compile for; within a family they
# should list the same GPUs.
_GPU_TARGET_VARS = {
    "AMD": ("PYTORCH_ROCM_ARCH", "GPU_TARGETS", "GPU_ARCHS", "HIP_ARCHITECTURES", "AMDGPU_TARGETS",
            "CMAKE_HIP_ARCHITECTURES"),
    "NVIDIA": ("TORCH_CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES", "CUDA_ARCHITECTURES"),
}  # fmt: skip
_AMD_TARGET = re.compile(r"(gfx[0-9a-f]+)(?::[a-z+-]+)*")
_NVIDIA_TARGET = re.compile(r"(?:sm_|compute_)?(\d+)\.?(\d)([a-f]?)(?:\+ptx|-real|-virtual)?")


def gpu_target_set(family: str, value: str) -> frozenset[str] | None:
    """The GPU targets a value lists, spelled one way (`9.0`, `90`, `sm_90`, `9.0+PTX` → `90`;
    `gfx90a:xnack-` → `gfx90a`); None when a part is not a plain target (`native`, `all`, `$X`)."""
    pattern = _AMD_TARGET if family == "AMD" else _NVIDIA_TARGET
    found = set()
    for token in re.split(r"[;,\s|]+", value.strip().strip("\"'").lower()):
        if not token:
            continue
        m = pattern.fullmatch(token)
        if m is None:
            return None
        found.add("".join(g for g in m.groups() if g))
    return frozenset(found) or None


def _gpu_targets(evaluation: Evaluation, path: str) -> list[Diagnostic]:
    """One warning per disagreement: per stage, the ENV (else the ARG default) of each variable of a
    family, compared as sets; a stage built on another repeats its values, and is not said twice."""
    wanted = {name for names in _GPU_TARGET_VARS.values() for name in names}
    per_stage: dict[str, dict[str, tuple[str, int]]] = {}  # stage label -> name -> (value, line)
    for decl in evaluation.args:
        if decl.name in wanted and decl.effective_default:
            for label in decl.stages:
                per_stage.setdefault(label, {})[decl.name] = (decl.effective_default, decl.line)
    for env in evaluation.env:  # after the ARGs: an ENV of the name wins
        if env.name in wanted and env.value is not None:
            per_stage.setdefault(env.stage, {})[env.name] = (env.value, env.line)
    found: dict[str, Diagnostic] = {}
    for stage in evaluation.stages:
        values = per_stage.get(stage.label, {})
        for family, names in _GPU_TARGET_VARS.items():
            sets = []
            for name in names:
                if name in values:
                    targets = gpu_target_set(family, values[name][0])
                    if targets is not None:
                        sets.append((values[name][1], name, targets))
            if len({targets for _, _, targets in sets}) < 2:
                continue
            sets.sort(key=lambda entry: (entry[0], names.index(entry[1])))
            (first_line, first, first_set), *others = sets
            parts = []
            for line, name, targets in others:
                if targets != first_set:
                    parts.append(_difference(first, first_set, name, targets, line))
            key = "; ".join(parts)
            line = max(line for line, _, targets in sets if targets != first_set)
            found.setdefault(
                f"{first}:{key}",
                Diagnostic(
                    path,
                    line,
                    f"{family} GPU targets disagree: {first} (line {first_line}) lists "
                    f"{_listed(first_set)}, but {key}; the tools reading each build for different GPUs",
                    rule="DG007",
                ),
            )
    return list(found.values())


def _difference(first: str, first_set: frozenset[str], name: str, targets: frozenset[str], line: int) -> str:
    """`GPU_TARGETS (line 9) lists gfx942 (not gfx90a; also gfx950)`."""
    missing, extra = first_set - targets, targets - first_set
    notes = ([f"not {_listed(missing)}"] if missing else []) + ([f"also {_listed(extra)}"] if extra else [])
    return f"{name} (line {line}) lists {_listed(targets)} ({'; '.join(notes)})"


def _listed(targets: frozenset[str]) -> str:
    """Targets in numeric order (`80, 90, 100`; `gfx90a, gfx942`)."""
    return ", ".join(
        sorted(targets, key=lambda t: [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", t)])
    )


_CUDA_TARGET_NAME = re.compile(r"(?:CUDA|NVCC|SM)_?ARCH(?:S|_LIST|ITECTURES)?\Z|TORCH_CUDA_ARCH_LIST\Z")
"""NVIDIA target list variables besides `_GPU_TARGET_VARS`' (`CUDA_ARCH`, `CUDA_ARCHS`, `NVCC_ARCHS`)."""


def _stage_cuda(evaluation: Evaluation, index: int) -> str | None:
    """The CUDA release the base image of stage `index` (or of the stage it builds on) names in its
    tag, None when it names none (`baseimage.stage_cuda`)."""
    found = baseimage.stage_cuda(evaluation.stages, index)
    return found[0] if found is not None else None


def _toolkit_targets(evaluation: Evaluation, path: str) -> list[Diagnostic]:
    """One warning per NVIDIA target list (an ARG default in scope in a stage, or an ENV of the stage)
    naming a compute capability its base image's CUDA release cannot compile
    (`hardware.cuda_cannot_build`)."""
    wanted = set(_GPU_TARGET_VARS["NVIDIA"])
    lists: dict[tuple[str, int], tuple[str, set[str]]] = {}  # (name, line) -> (value, stage labels)
    for decl in evaluation.args:
        if (decl.name in wanted or _CUDA_TARGET_NAME.search(decl.name.upper())) and decl.effective_default:
            lists.setdefault((decl.name, decl.line), (decl.effective_default, set()))[1].update(decl.stages)
    for env in evaluation.env:
        if (
            not env.inherited
            and env.value
            and (env.name in wanted or _CUDA_TARGET_NAME.search(env.name.upper()))
        ):
            lists.setdefault((env.name, env.line), (env.value, set()))[1].add(env.stage)
    cuda = {stage.label: _stage_cuda(evaluation, stage.index) for stage in evaluation.stages}
    found = []
    for (name, line), (value, labels) in sorted(lists.items(), key=lambda item: item[0][1]):
        releases = {release for label in labels if (release := cuda.get(label))}
        for target in hardware.parse_targets(value):
            reasons = [hardware.cuda_cannot_build(target, release) for release in sorted(releases)]
            if reasons and all(reasons):
                found.append(
                    Diagnostic(
                        path,
                        line,
                        f"{name} lists GPU target {target}, which the base image's CUDA "
                        f"{', '.join(sorted(releases))} cannot compile: {reasons[0]}",
                        rule="DG009",
                    )
                )
                break
    return found


# --------------------------------------------------------------------------------------------------
# Shell variables a RUN sets and loses


_ASSIGNMENT = re.compile(rf"({NAME})\+?=")
_SETTING_WORDS = frozenset({"export", "readonly", "declare", "typeset", "local"})
"""Commands that only set (or mark) shell variables: `export PATH=…`, `declare -x X=1`."""
_NO_LASTING_WORK = frozenset({"[", "[[", "test", "true", "false", ":", "set", "cd", "echo", "printf"})
"""Commands that leave nothing behind in the image when no redirection writes their output: tests,
`cd` (the next RUN starts in the WORKDIR again), `set`, output to the build log."""
_CONTROL_WORDS = frozenset({"if", "then", "else", "elif", "fi", "!", "{", "}"})
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&"})


def _lost_variables(parsed: ParsedDockerfile) -> list[Diagnostic]:
    """DG011: a RUN in a POSIX shell whose commands are only variable assignments (`X=1`, `export
    X=1`, in `if … fi` branches too), tests, `cd`, `set` and `echo`: the variables die with the RUN's
    shell. Silent when a command of the RUN does other work, writes a file (a redirection), loops or
    branches with `case`, or when a SHELL instruction names another shell (PowerShell)."""
    for inst in parsed.instructions:
        if (
            inst.keyword == "SHELL"
            and inst.exec_form
            and inst.exec_form[0].rsplit("/", 1)[-1] not in POSIX_SHELLS
        ):
            return []
    found: list[Diagnostic] = []
    for inst in parsed.instructions:
        if inst.keyword != "RUN" or inst.exec_form is not None or inst.heredocs:
            continue
        names = only_assigned(inst.args)
        if not names:
            continue
        shown = ", ".join(names)
        later = next(
            (
                (other.start_line, name)
                for other in parsed.instructions
                if other.start_line > inst.end_line
                for name in names
                if name in referenced_names(other.args)
            ),
            None,
        )
        one = len(names) == 1
        message = (
            f"RUN only sets shell variable{'' if one else 's'} {shown}: {'it ends' if one else 'they end'} "
            f"with this RUN's shell, so no later instruction sees {'it' if one else 'them'} (set "
            f"{'it' if one else 'them'} with ENV or ARG, or use {'it' if one else 'them'} in the same RUN)"
        )
        if later is not None:
            message += f"; line {later[0]} reads ${{{later[1]}}}, which still has its old value there"
        found.append(Diagnostic(parsed.path, inst.start_line, message, rule="DG011"))
    return found


def only_assigned(command: str) -> list[str]:
    """The variables `command` (a RUN's shell text) sets, in order, when setting them is all the
    lasting work it does (DG011, `_lost_variables`; `docgen.audit.idle.lost_args`); [] otherwise."""
    try:
        tokens = sh_tokens(command.replace("\n", " ; "))
    except ValueError:
        return []
    names: list[str] = []
    words: list[str] = []
    for token in [*tokens, None]:
        if token is not None and not token.operator:
            words.append(token.text)
            continue
        if token is not None and token.text not in _SEPARATORS:
            return []  # a redirection, a subshell, `;;`: more than setting variables
        while words and words[0] in _CONTROL_WORDS:
            words.pop(0)
        if words:
            first = words[0]
            assigned = [m.group(1) for w in words if (m := _ASSIGNMENT.match(w))]
            if first in _SETTING_WORDS:
                names += [m.group(1) for w in words[1:] if (m := _ASSIGNMENT.match(w))]
            elif len(assigned) == len(words):
                names += assigned
            elif first not in _NO_LASTING_WORK or assigned:
                return []  # a program runs (`X=1 make` passes X to it)
        words = []
    return list(dict.fromkeys(names))


# Shell syntax in a COPY or ADD

_SHELL_WORD = re.compile(r"\|\||&&|;|\||&|[0-9]?>>?(?:&[0-9]|\S+)?|&>>?\S*")
"""A word of shell syntax: an operator (`||`, `&&`, `;`, `|`) or a redirection (`>`, `2>/dev/null`,
`2>&1`)."""


def copy_shell_words(inst: Instruction) -> str | None:
    """The shell syntax a COPY or ADD (shell form, no heredoc) holds from its first shell word on (`|| true`),
    when that makes its build fail: Docker splits the arguments at blanks and runs no shell, so the
    operator and the words after it are more sources and the destination, and with several sources the
    destination must end in `/`. None when no word after the first two is shell syntax, or the last word
    ends in `/` (the copy may then only miss a source), or the instruction is exec form or has a
    heredoc."""
    if inst.keyword not in ("COPY", "ADD") or inst.exec_form is not None or inst.heredocs:
        return None
    words = inst.args.split()
    at = next((i for i in range(2, len(words)) if _SHELL_WORD.fullmatch(words[i])), None)
    if at is None or words[-1].endswith("/"):
        return None
    return " ".join(words[at:])


def _shell_in_copies(parsed: ParsedDockerfile) -> list[Diagnostic]:
    """Each COPY or ADD of `parsed` holding shell syntax that fails the build (`copy_shell_words`)."""
    found = []
    for inst in parsed.instructions:
        shell = copy_shell_words(inst)
        if shell is None:
            continue
        message = (
            f"{inst.keyword} holds shell syntax (`{shell}`): no shell runs it, so these words are read as "
            f"more sources and the destination {inst.args.split()[-1]}, which does not end in / as several "
            "sources need: the build fails (use a RUN, or a glob that may match nothing)"
        )
        found.append(Diagnostic(parsed.path, inst.start_line, message, rule="DG012"))
    return found


# --------------------------------------------------------------------------------------------------
# Bash syntax in a RUN that dash runs

_RELINKED_SH = re.compile(
    r"\bln\b[^;&|\n]*[ \t]/bin/sh\b|dpkg-reconfigure\b[^;&|\n]*\bdash\b|dash/sh\b"
    r"|\b(?:mv|cp)\b[^;&|\n]*bash[^;&|\n]*[ \t]/bin/sh\b"
)
"""A RUN that points `/bin/sh` at another shell (`ln -sf /bin/bash /bin/sh`, `dpkg-reconfigure dash`
answering no): the RUNs after it are run by that shell."""
_DASH_NAMES = frozenset({"sh", "dash"})


def dash_runs(
    parsed: ParsedDockerfile, stages: Sequence[Stage]
) -> list[tuple[Instruction, int, DashRejected, str]]:
    """(RUN, the Dockerfile line of the syntax, the syntax, the base image whose `/bin/sh` is dash) for
    each RUN that dash runs holding bash-only syntax (`shell.dash_rejected`): the first such syntax of
    its script, or of a heredoc `/bin/sh` runs (`RUN <<EOF` with no `#!` line). A stage's shell is its
    base image's (`base_contents.dash_sh`), or the shell of the stage it is built on, until a SHELL
    names another one or a RUN points `/bin/sh` elsewhere (`_RELINKED_SH`); exec-form RUNs run no
    shell. None on a Dockerfile with another escape character."""
    if parsed.escape != "\\":
        return []
    found: list[tuple[Instruction, int, DashRejected, str]] = []
    shells: dict[int, str | None] = {}  # stage index -> the dash image its RUNs run on (None: not dash)
    current: int | None = None
    at_line = {s.line: s.index for s in stages}
    for inst in parsed.instructions:
        if inst.keyword == "FROM":
            current = at_line.get(inst.start_line)
            if current is not None:
                stage = stages[current]
                if stage.parent is not None:
                    shells[current] = shells.get(stage.parent)
                else:
                    shells[current] = stage.base if dash_sh(stage.base) else None
            continue
        if current is None or shells.get(current) is None:
            continue
        if inst.keyword == "SHELL":
            if not inst.exec_form or inst.exec_form[0].rsplit("/", 1)[-1] not in _DASH_NAMES:
                shells[current] = None
            continue
        if inst.keyword != "RUN" or inst.exec_form is not None:
            continue
        base = shells[current]
        if base is None:
            continue
        if _RELINKED_SH.search(inst.args) or any(_RELINKED_SH.search(h.body) for h in inst.heredocs):
            shells[current] = None
            continue
        first = _deciding(dash_rejected(inst.args))
        if first is not None:
            found.append((inst, _line_of(inst.original, first.written, inst.start_line), first, base))
            continue
        run = _run_heredocs(inst.args, _DASH_NAMES) if inst.heredocs else set()
        for heredoc in inst.heredocs:
            if heredoc.name not in run or heredoc.body.startswith("#!"):
                continue
            first = _deciding(dash_rejected(heredoc.body))
            if first is not None:
                line = _line_of(heredoc.body, first.written, heredoc.start_line)
                found.append((inst, line, first, base))
                break
    return found


def _deciding(rejected: Sequence[DashRejected]) -> DashRejected | None:
    """The syntax that decides what dash does with a script: a syntax error first (dash runs none of
    it), else the first failure that fails the script, else the first rejected syntax."""
    return next(
        (r for r in rejected if r.kind == "syntax"),
        next((r for r in rejected if r.fails), rejected[0] if rejected else None),
    )


def _line_of(text: str, written: str, first_line: int) -> int:
    """The line of `text` (starting at `first_line`) where `written` first is."""
    at = text.find(written)
    return first_line + text.count("\n", 0, at) if at >= 0 else first_line


_DASH_EFFECTS = {
    "source": ("`source: not found`, status 127", "use `.` for `source`"),
    "[[": ("`[[: not found`, status 127", "use `[ … ]` with `=`"),
    "==": ("`[: unexpected operator`, status 2", "use `=`"),
}


def dash_effect(rejected: DashRejected) -> tuple[str, str]:
    """(what dash does with `rejected`, how to write it for dash)."""
    key = rejected.construct.split(" ", 1)[0]
    if key in _DASH_EFFECTS:
        return _DASH_EFFECTS[key]
    if rejected.kind == "syntax":
        return "a syntax error: dash runs none of the RUN", "rewrite it for sh"
    if rejected.kind == "expansion":
        return "`Bad substitution`: dash stops there", "rewrite it with sed or POSIX expansions"
    if rejected.kind == "command":
        return (
            f"dash does not expand braces, and no file `{rejected.written}` is there",
            "name each path",
        )
    return f"dash does not expand braces: it makes one path named `{rejected.written}`", "name each path"


def _dash_warnings(parsed: ParsedDockerfile, stages: Sequence[Stage]) -> list[Diagnostic]:
    """DG014: each RUN of `dash_runs`, at the line of its bash-only syntax."""
    found = []
    for _inst, line, rejected, base in dash_runs(parsed, stages):
        effect, fix = dash_effect(rejected)
        stops = " and the RUN fails" if rejected.fails and rejected.kind in ("command",) else ""
        message = (
            f"RUN uses `{rejected.construct}`, bash-only syntax, but /bin/sh runs it and /bin/sh is dash in "
            f'{base}: {effect}{stops} ({fix}, or put SHELL ["/bin/bash", "-c"] before this RUN)'
        )
        found.append(Diagnostic(parsed.path, line, message, rule="DG014"))
    return found
