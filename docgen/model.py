"""The frozen dataclasses every stage of the pipeline passes around.

The reader (`docgen.dockerfile`) produces `Instruction`s, the evaluator (`docgen.evaluate`) turns them
into `Stage`s, `ArgDecl`s and `EnvVar`s, the extractor (`docgen.components`) adds `Component`s, and
everything ends up in one `ImageModel` that the renderer and the CLI read. Nothing here has behaviour
beyond small derived properties, so templates stay free of logic.
"""

from __future__ import annotations

import bisect
from dataclasses import MISSING, dataclass, field, fields
from typing import TypeVar

GLOBAL_SCOPE = "global"
"""The `scope` of an ARG declared before the first FROM."""


def short_commit(value: str) -> str:
    """A full 40-hex commit shortened to 8 characters, like `git log --oneline`; anything else unchanged."""
    if len(value) == 40 and all(c in "0123456789abcdef" for c in value.lower()):
        return value[:8]
    return value


@dataclass(frozen=True)
class Diagnostic:
    """A warning or a note about the input, shown as `path:line: message`."""

    path: str
    """The file the diagnostic is about, as given by the user."""
    line: int
    """1-based line number (0 when the diagnostic concerns the whole file)."""
    message: str
    """What is wrong, in one sentence."""
    rule: str = ""
    """The lint rule's stable id (`DG003`, see `docgen.findings.RULES`); '' for the reader's own notes."""
    confidence: str = ""
    """How sure `docgen audit` is that a claim contradicts the Dockerfile: `certain` (a table cell, a pin,
    a build command, a file reference), `likely` (read from prose); '' for everything else."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


# --------------------------------------------------------------------------------------------------
# Reader output


@dataclass(frozen=True)
class Flag:
    """One `--name=value` flag written before an instruction's arguments."""

    name: str
    """The flag name without dashes, lower-cased (`mount`, `from`, `platform`, `checksum`)."""
    value: str | None
    """The text after `=`, unexpanded; None for a bare `--link`-style flag."""

    def options(self) -> dict[str, str]:
        """The comma-separated `key=value` options of a flag such as `--mount` (order-independent)."""
        result: dict[str, str] = {}
        for part in (self.value or "").split(","):
            key, sep, value = part.partition("=")
            if key:
                result[key.strip().lower()] = value.strip() if sep else "true"
        return result


@dataclass(frozen=True)
class Heredoc:
    """A here-document attached to a RUN, COPY or ADD instruction."""

    name: str
    """The delimiter word without quotes (`EOF`)."""
    body: str
    """The body text; each line ends with a newline; leading tabs removed for `<<-`."""
    expand: bool
    """False when the delimiter was quoted (`<<'EOF'`, `<<"EOF"`): no variable expansion."""
    strip_tabs: bool
    """True for `<<-EOF`."""
    start_line: int
    """1-based line of the first body line."""
    end_line: int
    """1-based line of the closing delimiter."""


@dataclass(frozen=True)
class Instruction:
    """One logical Dockerfile instruction, continuation lines joined."""

    keyword: str
    """The instruction upper-cased (`FROM`, `RUN`, `ARG` …)."""
    args: str
    """The text after the keyword and its flags, continuation lines joined with nothing in between
    (as BuildKit does), comment lines inside the continuation dropped; heredoc bodies excluded."""
    flags: tuple[Flag, ...]
    """Flags written before the arguments, in order."""
    start_line: int
    """1-based line where the instruction starts."""
    end_line: int
    """1-based line where it ends (the heredoc terminator line when it has heredocs)."""
    exec_form: tuple[str, ...] | None = None
    """The parsed JSON array for exec form (`RUN ["pip", "install", "x"]`), else None."""
    heredocs: tuple[Heredoc, ...] = ()
    """Here-documents in the order their delimiters appear on the line."""
    comment: tuple[str, ...] = ()
    """The comment block right before the instruction: consecutive full-line comments since the
    previous instruction, `#` and one following space removed; an empty `#` line ends a block."""
    original: str = ""
    """The source lines of the instruction (without heredoc bodies), as written."""
    comment_tail: int = 0
    """How many of the last lines of `comment` sit right above the instruction with no blank line
    between or among them (0 when a blank line separates the block from the instruction)."""
    comment_lines: tuple[int, ...] = ()
    """The 1-based line of each line of `comment`."""

    @property
    def body(self) -> str:
        """`args` and each here-document's body after it, a newline between (what a `RUN <<EOF` runs)."""
        return "\n".join((self.args, *(h.body for h in self.heredocs)))

    def flag(self, name: str) -> Flag | None:
        """The first flag called `name`, if any."""
        for f in self.flags:
            if f.name == name:
                return f
        return None

    def flags_named(self, name: str) -> tuple[Flag, ...]:
        """Every flag called `name` (`--mount` may repeat)."""
        return tuple(f for f in self.flags if f.name == name)


@dataclass(frozen=True)
class ParsedDockerfile:
    """What the reader makes of one Dockerfile: syntax only, no semantics."""

    path: str
    """The path as given by the user."""
    directives: tuple[tuple[str, str], ...]
    """Parser directives found at the top, keys lower-cased (`(("syntax", "docker/dockerfile:1"),)`)."""
    escape: str
    """The escape character: `\\` or `` ` ``."""
    instructions: tuple[Instruction, ...]
    """All instructions, in order."""
    warnings: tuple[Diagnostic, ...] = ()
    """Things BuildKit accepts but warns about (blank lines in continuations, `#` after ARG …)."""


# --------------------------------------------------------------------------------------------------
# Evaluator output


@dataclass(frozen=True)
class ContextCopy:
    """A COPY or ADD of the build context (no `--from`), its words ARG-expanded in its stage's scope
    (a part no ARG or ENV gives stays `${NAME}`)."""

    stage: int
    """Index of the stage it copies into."""
    line: int
    """1-based line of the instruction."""
    sources: tuple[str, ...]
    """What it copies: the JSON array's items but the last, else its words but the last (a heredoc's
    `<<EOF` too), quotes as written."""
    dest: str
    """Where it copies to."""
    heredoc: bool = False
    """True when it copies a here-document (`COPY <<EOF /etc/app.conf`)."""


@dataclass(frozen=True)
class Stage:
    """One build stage, from its FROM line to the next."""

    index: int
    """0-based position of the stage."""
    name: str | None
    """The name given with `AS`, lower-cased; None when the stage is unnamed."""
    line: int
    """1-based line of the FROM instruction."""
    base: str
    """The FROM argument after ARG expansion (`ubuntu:22.04`, or the parent stage's name)."""
    base_raw: str
    """The FROM argument as written (`${BASE_IMAGE}`)."""
    parent: int | None
    """Index of the earlier stage this one builds on, or None when it starts from an image."""
    platform: str | None = None
    """The `--platform` flag as written, if any."""
    depends_on: tuple[int, ...] = ()
    """Indexes of earlier stages used through `COPY --from` or `RUN --mount=…,from=`."""
    used_up: tuple[int, ...] = ()
    """The stages of `depends_on` whose files only `RUN --mount=…,from=` reads, in RUNs that copy
    nothing out of the mount (`pip install /wheels/*.whl`): what they built is used up in this
    stage (installed into it, built against), not kept among its files for a later stage to take."""

    @property
    def label(self) -> str:
        """The name users see: the stage name, or `#index` for an unnamed stage."""
        return self.name if self.name is not None else f"#{self.index}"

    @property
    def image(self) -> str | None:
        """The external image this stage starts from, or None when it builds on a stage."""
        return None if self.parent is not None else self.base


@dataclass(frozen=True)
class ArgDecl:
    """One name declared by one ARG instruction (an `ARG A B=1` line yields two)."""

    name: str
    """The ARG name, case kept."""
    scope: str
    """`global` before the first FROM, else the label of the stage that declares it."""
    stage: int | None
    """Index of the declaring stage, None for a global ARG."""
    line: int
    """1-based line of the ARG instruction."""
    raw_default: str | None
    """The default as written (quotes kept), None when declared without `=`."""
    default: str | None
    """The resolved default: quotes removed and variables expanded; for a bare re-declaration of a
    global ARG, the global value. None when there is none or it cannot be known (see `unknown`)."""
    unknown: str | None
    """Why the default cannot be known from the Dockerfile alone (None when it can)."""
    bare: bool
    """True when declared without a value (`ARG GPU_ARCH`)."""
    description: str
    """The purpose, from a BuildKit doc comment (`# NAME purpose`) or the comment block above."""
    stages: tuple[str, ...]
    """Labels of the stages where this declaration is in effect (the declaring stage and the stages
    built FROM it); for a global ARG, the stages that re-declare it bare."""
    used_lines: tuple[int, ...]
    """1-based lines of instructions that use the value of this declaration."""
    effective_default: str | None = None
    """What a reader should see as the default: `default`, or for an empty/unset ARG the shell
    fallback used in RUN lines (`${MAX_JOBS:-$(nproc)}` → `$(nproc)`)."""

    @property
    def is_global(self) -> bool:
        """True for an ARG declared before the first FROM."""
        return self.stage is None


@dataclass(frozen=True)
class EnvVar:
    """One ENV name set in one stage (inherited ones are listed again in child stages)."""

    name: str
    """The variable name, case kept."""
    value: str | None
    """The value after expansion; None when it depends on something unknown."""
    stage: str
    """Label of the stage where the value is in effect."""
    line: int
    """1-based line of the ENV instruction that set it."""
    inherited: bool = False
    """True when the value comes from a parent stage."""


# --------------------------------------------------------------------------------------------------
# Components (sources and pins)


@dataclass(frozen=True)
class Component:
    """Something the image contains that comes from a source with (ideally) a pinned version."""

    name: str
    """A readable name: the package name, or the repository name for a git source."""
    kind: str
    """Where it comes from: `image`, `git`, `download`; a Python package `pip` (also `uv tool`, pipx) or
    `wheel`; a distribution package `apt`, `apk`, `rpm` and the repositories `apt-repo`, `rpm-repo`; a
    registry package `conda` (conda, mamba, micromamba), `npm` (global installs), `go` (`go install`),
    `cargo` (`cargo install`); `script`, what an install script the build runs installs
    (`bash install_nccl.sh --NCCL_VER=2.27.3`)."""
    version: str | None
    """The version, when the source gives one (`2.9.1`, `3.26.4`)."""
    ref: str | None
    """The git ref or image digest/tag as written (`83f9e450cd…`, `v0.15.1`); for an apt package, the
    whole Debian version pinned when `version` shows less of it (`1:2.34.1-1ubuntu1.10` for 2.34.1)."""
    source: str | None
    """Where it comes from: a URL, an image reference or an index."""
    method: str
    """How it gets into the image: `prebuilt` (an image, a wheel or a package from an index),
    `source` (checked out and built, also by `go install` and `cargo install`), `checkout` (cloned,
    never built), `requirements` (a `-r FILE` or conda `--file` whose pins live in that file),
    `package` (a distribution package: apt, apk, rpm) or `script` (an install script docgen does not read:
    the version is the one passed to it, else unknown)."""
    stage: str
    """Label of the stage that installs it."""
    line: int
    """1-based line of the instruction that installs it."""
    pinned: bool
    """True when version or ref fixes exactly what gets installed."""
    arg: str | None = None
    """The build arg that sets the version or ref, when one does."""
    ref_kind: str | None = None
    """For git refs: `commit`, `short-commit`, `tag` or `branch`."""
    fork: str | None = None
    """For a git source hosted under an organisation that is not the upstream, e.g. `ROCm`."""
    condition: str | None = None
    """The platform it is installed on only, when the RUN tests one (`linux/arm64 only`, `not aarch64`):
    the default build's platform is not known. Branches a build arg's default rules out are not listed."""
    value_line: int | None = None
    """1-based line that writes the version or ref, when another line than `line` does: the ARG or
    ENV that gives it (`ENV PYVER=3.8.17` for `wget …/Python-${PYVER}.tgz`, followed through `ENV A=${B}`
    to the line with the value), or the shell assignment of the RUN (`V=1.2 && \\` above `wget …$V…`)."""

    @property
    def cited_line(self) -> int:
        """The line a finding about the version cites: where a maintainer changes it (`value_line`),
        else the instruction that installs it."""
        return self.value_line or self.line

    @property
    def display_version(self) -> str:
        """The version, else the ref shortened like `git log --oneline`, else for an install script run
        without one `version set by install_nccl.sh` (the script picks it), else `unpinned`."""
        if self.version:
            return self.version
        if self.ref:
            return self.short_ref
        if self.method == "script" and self.source:
            return f"version set by {self.source[self.source.rfind('/') + 1 :]}"
        return "unpinned"

    @property
    def short_ref(self) -> str:
        """A full 40-hex commit shortened to 8 characters; anything else unchanged."""
        return short_commit(self.ref or "")


@dataclass(frozen=True)
class Setting:
    """An instruction that sets how a container of the image runs rather than what it holds (EXPOSE,
    USER, WORKDIR, ENTRYPOINT, CMD, HEALTHCHECK): a stage built on its stage inherits it."""

    keyword: str
    """The instruction, upper case (`EXPOSE`)."""
    value: str
    """Its arguments: for EXPOSE, USER and WORKDIR expanded as BuildKit does (`${PORT}` → `8000`, an
    unknown part left as written), for the others as written."""
    stage: str
    """Label of the stage it is in."""
    line: int
    """1-based line of the instruction."""
    exec_form: tuple[str, ...] | None = None
    """For ENTRYPOINT and CMD (and any instruction written so), the words of the exec form (a JSON array
    of strings, as the reader reads it: `Instruction.exec_form`); None for the shell form."""


@dataclass(frozen=True)
class HardCoded:
    """A build arg's default value written literally on a line that does not read the arg."""

    arg: str
    """The build arg whose default the line repeats (`PYTHON_VERSION`)."""
    arg_line: int
    """1-based line of the ARG declaration holding that default."""
    value: str
    """The default (`3.12`)."""
    line: int
    """1-based line where the value is written literally."""
    spelling: str
    """How it is written there (`cp312`, `python3.12`, `rocm-rel-7.0.2`)."""


@dataclass(frozen=True)
class ManifestInstall:
    """A manifest a RUN command installs, as the extraction reads the command: a requirements file
    (`pip install -r F`, `uv pip install -r F`, conda `--file F`) or a local project (`pip install .`,
    `-e './app[gpu]'`, `uv sync`). Its pins live in the build context (`docgen.manifests` reads them)."""

    kind: str
    """`requirements` (a file) or `project` (a folder holding `pyproject.toml`, or that file)."""
    path: str
    """Where the command reads it in the image: variables expanded, resolved against the working
    directory the command runs in (WORKDIR, then `cd`)."""
    extras: tuple[str, ...]
    """For a project, the optional extras installed with it (`.[serve]`, `--extra serve`)."""
    line: int
    """1-based Dockerfile line of the word naming it."""
    stage: str
    """Label of the stage whose RUN installs it."""


@dataclass(frozen=True)
class ManifestPin:
    """A package a manifest the Dockerfile installs pins exactly: a requirements file given to `pip
    install -r` (`uv pip install -r`, conda `--file`), or the PEP 621 dependencies of a local project
    installed with `pip install .` (`-e .`, `uv pip install .`, `uv sync`), read from the build context."""

    name: str
    """The package name as the manifest writes it (`jupyterlab`)."""
    version: str
    """The version its `==` (or `===`) pin fixes (`4.4.3`, `2.7.0+cu128`)."""
    file: str
    """The manifest, shown as the Dockerfile's path is (its folder joined with the file's place in the
    build context: `docker/requirements.txt`)."""
    line: int
    """1-based line of the pin in the manifest."""
    installed: int
    """1-based Dockerfile line of the RUN that installs the manifest."""
    stage: str
    """Label of the stage that installs it."""


@dataclass(frozen=True)
class StatedVersion:
    """A version the Dockerfile states in words about its image, not in an instruction that installs it:
    a label's description (`LABEL org.opencontainers.image.description="PyTorch 2.10.0 CUDA 12.8"`) or a
    present-tense comment about the base (`# the base ships Python 3.10`)."""

    name: str
    """The name as written (`Pytorch`, `CUDA`, `Ubuntu`)."""
    version: str
    """The version written after it (`2.10.0`)."""
    line: int
    """1-based line of the LABEL instruction or of the comment line."""
    where: str
    """`label` (a description's words), `version-label` (a label whose key names the component and
    its version: `com.nvidia.cuda.version="12.4.1"`), `comment` (about the base) or `stack-comment`
    (a line of a comment listing the image's stack under `# for a docker image with:`)."""
    key: str = ""
    """For a `version-label`, the label's key."""


# --------------------------------------------------------------------------------------------------
# The whole model


@dataclass(frozen=True)
class Gpu:
    """One GPU target named in the architecture arg, with what it means."""

    target: str
    """As written (`gfx942`, `gfx90a:xnack+`, `9.0+PTX`, `sm_90a`)."""
    vendor: str
    """`AMD`, `NVIDIA`, `Huawei` (Ascend NPUs), or `unknown`."""
    family: str | None
    """The architecture family (`CDNA3`, `Hopper`), None when the target is unknown."""
    products: str | None
    """Products built on it, None when the target is unknown."""

    @property
    def known(self) -> bool:
        """True when the target is in docgen's table."""
        return self.family is not None


@dataclass(frozen=True)
class Hardware:
    """What the Supported hardware section says: the targets, where they are set, and what changes them."""

    gpus: tuple[Gpu, ...] = ()
    """The targets, looked up (`docgen.hardware`)."""
    value: str | None = None
    """The list as written, None when there is none."""
    line: int | None = None
    """The line that sets it (the ARG, the ENV, or the FROM whose image tag names the NPU)."""
    override: str | None = None
    """The build arg that changes it (`--build-arg NAME=…`); None when the value is fixed at `line`."""
    image: str | None = None
    """When the targets come from the base image's tag (`…/cann:8.5.0-910b-…`), that image."""
    others: tuple[tuple[str, str, int], ...] = ()
    """Other target lists of the default target that name other GPUs of the same vendor (name, value,
    line): `ENV AITER_ROCM_ARCH=gfx942;gfx950` next to a longer `PYTORCH_ROCM_ARCH`."""


@dataclass(frozen=True)
class RequiredArg:
    """A build arg declared with no default (in any ARG of its name) that a RUN cannot do without."""

    name: str
    """The build arg."""
    line: int
    """The first line of the RUN."""
    stage: str
    """The label of the RUN's stage: a build needs the arg only when it builds that stage."""
    command: str = ""
    """The command that fails with the arg empty, as written (`useradd -m ${USER}`); '' when the RUN
    tests the arg itself (`test -n "$REF" && …`)."""


@dataclass(frozen=True)
class ImageModel:
    """Everything docgen knows about one Dockerfile."""

    path: str
    """The Dockerfile path as given (relative to the project root when it came from config)."""
    stages: tuple[Stage, ...]
    """Build stages in order; the last is the default target."""
    args: tuple[ArgDecl, ...]
    """Every ARG declaration, in Dockerfile order."""
    env: tuple[EnvVar, ...]
    """ENV values per stage, inherited ones included."""
    components: tuple[Component, ...] = ()
    """Sources and pins, in Dockerfile order."""
    warnings: tuple[Diagnostic, ...] = ()
    """Reader and evaluator warnings."""
    skipped: tuple[Diagnostic, ...] = ()
    """Constructs the extractor did not understand (shown by `docgen show --verbose`)."""
    directives: tuple[tuple[str, str], ...] = field(default=())
    """Parser directives found at the top of the file."""
    hardcoded: tuple[HardCoded, ...] = ()
    """Build arg defaults written literally elsewhere (overriding the arg leaves them behind), by line."""
    instruction_lines: tuple[int, ...] = ()
    """The first line of every instruction, in order (the contents table groups packages by instruction)."""
    build_args: tuple[tuple[str, str], ...] = ()
    """The build args this image is documented with (an image's `args` in the configuration), as
    `docker build --build-arg NAME=VALUE` would give them, sorted by name."""
    env_args: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    """(ENV name, line, build args its value expands) for each ENV value set from build args
    (`ENV TORCH_CUDA_ARCH_LIST=${torch_cuda_arch_list}`): what `--build-arg` changes it."""

    required_args: tuple[RequiredArg, ...] = ()
    """Each build arg declared without a default that a RUN fails the build without, by line: a test
    of it (`RUN test -n "$REF" && …`, `test -n "$REF" || exit 1`, `${REF:?}`) or a command that fails
    with no value in its place (`RUN useradd -m ${USER}`)."""
    inert_args: tuple[tuple[str, int, str, str], ...] = ()
    """(build arg, RUN line, the option it feeds, the setting that selects another GPU backend) of each
    build arg every instruction reading it gives only to a `cmake` option of a backend the command does
    not build (`-D HIP_ARCH=${SM_NUMBER}` next to `-D GPU_API=CUDA`): a value of it changes nothing."""
    unreached_uses: tuple[tuple[str, int], ...] = ()
    """(build arg, RUN line) of each RUN that reads the arg only in shell branches the default build
    does not take (`if [ "$BUILD_VLLM" = "1" ]` under `ENV BUILD_VLLM=0`): no use the image sees."""
    unbound_reads: tuple[tuple[str, int], ...] = ()
    """(name, RUN line) of each `$NAME` a RUN reads that no ARG or ENV in its scope sets (a shell
    variable of its own, one of the base image's, or a name no ARG declares: `${INC_VER}` next to
    `ARG INC_VERSION`)."""
    target_index: int = -1
    """Index of the stage built: the one the image's `target` names (`docker build --target`), else the
    last (-1)."""
    image_name: str = ""
    """The image's name when its Dockerfile is built as several images (a bake target's name,
    `cu128-py312`): how a README's rows and headings name it. Empty otherwise."""
    arg_origins: tuple[tuple[str, str, int | None], ...] = ()
    """(build arg, file as shown, line) of each build arg the build sets outside the Dockerfile (a bake
    target's `args`): where a value is changed."""
    called_args: frozenset[str] = frozenset()
    """The build args the Dockerfile gives no default that only the build's caller passes (a CI
    workflow): what the image is built with, not a default a README documents."""
    published_args: tuple[tuple[str, str], ...] = ()
    """(build arg, value) of each value a CI workflow of the repository passes to an ARG of this
    Dockerfile when it builds it (`docgen.audit.ci_args`): a version a README gives that one of them
    gives is the published image's, whatever the ARG's default."""
    file: str = ""
    """Where the Dockerfile was read from, as opened (empty for a model of text parsed elsewhere): the
    audit reads the build-context files it copies and runs next to it."""
    settings: tuple[Setting, ...] = ()
    """The EXPOSE, USER, WORKDIR, ENTRYPOINT, CMD and HEALTHCHECK instructions, in Dockerfile order: what
    the audit compares a README's "exposes port 8000" or "runs as a non-root user" with."""
    stated: tuple[StatedVersion, ...] = ()
    """Versions the labels' descriptions and present-tense comments about the base state in words
    (`docgen.stated`): not pins, what the image says it holds when nothing pins it."""
    installs: tuple[ManifestInstall, ...] = ()
    """The requirements files and local projects the RUNs install, in Dockerfile order: whose pins
    live in the build context, not in the Dockerfile's text."""
    context_copies: tuple[ContextCopy, ...] = ()
    """The COPY and ADD instructions from the build context (no `--from`) of every stage, in order,
    ARG-expanded in their stage's scope (the evaluation's)."""
    named_python: tuple[str, int] | None = None
    """(release, first line) of the one Python release the RUNs name by path or name (`ln -s
    /usr/bin/python3.10 /usr/bin/python`, `python3.11 -m pip`: `sources.pip.named_python`), as
    written, in any stage; None when they name none or several."""
    foreign_toolchains: tuple[tuple[str, int], ...] = ()
    """(`python` or `gcc`, line) of each RUN or COPY, in any stage, that brings a Python or a compiler
    other than the distribution's default package (conda, pyenv, `gcc-12`: `sources.toolchains`)."""

    @property
    def target(self) -> Stage | None:
        """The build target: the stage `--target` names, by default the last stage."""
        return self.stages[self.target_index] if self.stages else None

    def stage_named(self, name: str) -> Stage | None:
        """The stage `FROM … AS name` names, in any case (BuildKit reads `--target` and `--from` so);
        None when no stage has that name."""
        name = name.lower()
        return next((s for s in self.stages if s.name == name), None)

    def stage_from(self, ref: str) -> Stage | None:
        """The stage a `COPY --from=` or `RUN --mount=…,from=` reference names: its index (`--from=0`)
        or its name; None for an image."""
        if ref.isdigit() and int(ref) < len(self.stages):
            return self.stages[int(ref)]
        return self.stage_named(ref)

    def stage_lines(self, stage: Stage) -> tuple[int, int]:
        """The (first, last) Dockerfile lines of `stage`: from its FROM to the line before the next FROM;
        the last stage's run on to the end of the file (`1 << 30`)."""
        later = stage.index + 1
        return stage.line, (self.stages[later].line - 1 if later < len(self.stages) else 1 << 30)

    def stage_at(self, line: int) -> Stage | None:
        """The stage the Dockerfile line `line` belongs to: the last whose FROM is at or above it; None
        for a line above the first FROM (a global ARG)."""
        at = bisect.bisect_right(self.stages, line, key=lambda s: s.line)
        return self.stages[at - 1] if at else None

    def chain(self, stage: Stage | None = None) -> list[Stage]:
        """`stage` (by default the target) and the stages it is built FROM in turn, the one built FROM
        a base image last: the stages whose files are the image's own."""
        found: list[Stage] = []
        stage = stage if stage is not None else self.target
        while stage is not None:
            found.append(stage)
            stage = self.stages[stage.parent] if stage.parent is not None else None
        return found

    @property
    def unread(self) -> tuple[Diagnostic, ...]:
        """The skips saying the extractor did not understand something, so the image may hold what no
        component lists: not those of a mistake it read, which `docgen lint` reports under a rule id
        (`pip install x>=1` unquoted, DG013; a stray `fi` argument, DG008)."""
        return tuple(d for d in self.skipped if not d.rule)


# --------------------------------------------------------------------------------------------------
# Table rows (what templates iterate over)


@dataclass(frozen=True)
class BuildArgRow:
    """One row of the build-argument table: a name a user can pass with `--build-arg`."""

    name: str
    """The ARG name."""
    defaults: tuple[tuple[str | None, tuple[str, ...]], ...]
    """(effective default, stages) pairs; one pair when every declaration agrees. None = no default."""
    purpose: str
    """The description from the doc comment ('' when there is none)."""
    stages: tuple[str, ...]
    """Stages where the arg is in effect (empty for an arg only FROM lines read)."""
    line: int
    """1-based line of the first declaration."""
    unknown: str | None = None
    """Why the default is not fully known, if it is not."""
    notes: tuple[str, ...] = ()
    """Extra remarks shown with the purpose (e.g. values hard-coded elsewhere)."""
    from_lines: bool = False
    """True when a FROM line reads it (a global ARG), besides the stages in `stages`."""

    @property
    def varies(self) -> bool:
        """True when stages declare different defaults."""
        return len(self.defaults) > 1


@dataclass(frozen=True)
class VersionRow:
    """One row of the Key versions table."""

    name: str
    """The name shown (`PyTorch`, `ROCm`)."""
    version: str
    """The version or ref shown."""
    source: str | None
    """Where it comes from (a URL or image reference), if known."""
    line: int
    """1-based Dockerfile line the value comes from."""
    arg: str | None = None
    """The build arg that overrides it, if one does."""
    origin: str | None = None
    """Where the value is read when it is not the Dockerfile's own: `tag` (the base image's tag),
    `name` (the base image's name, `manylinux_2_28`), `release-notes` (what NVIDIA's release notes
    state for the NGC release the tag names), `config` (declared in the configuration for
    that base image) or `base-dockerfile` (the configured Dockerfile that builds the base image)."""
    origin_file: str | None = None
    """For `config`, the configuration file; for `base-dockerfile`, that Dockerfile (as displayed)."""
    link: str | None = None
    """For `base-dockerfile`, the link target of that Dockerfile (line links add `#L<n>`)."""
    value_line: int | None = None
    """For a component's row, the line that writes its version when another line does
    (`Component.value_line`)."""

    @property
    def cited_line(self) -> int:
        """The line a finding about the row's version cites (`Component.cited_line`)."""
        return self.value_line or self.line


@dataclass(frozen=True)
class PackageGroup:
    """One row of the contents table for the unpinned packages one install command adds (`apt-get
    install -y build-essential git …`), none of them a key component. It answers to the attributes a
    contents template reads of a `Component`, so a template written for components renders it too."""

    kind: str
    """The package manager's kind, as in `Component.kind` (`apt`, `pip`, `conda` …)."""
    members: tuple[str, ...]
    """The package names, in the order the command gives them."""
    source: str | None
    """The source all members share (a PPA, an index), else the host they share, else None."""
    stage: str
    """Label of the stage that installs them."""
    line: int
    """1-based line of the instruction that installs them."""
    method: str = "package"
    version: None = None
    ref: None = None
    pinned: bool = False
    fork: None = None
    arg: None = None

    @property
    def name(self) -> str:
        """`apt packages (12): build-essential, ca-certificates, …`, every member named."""
        return f"{self.kind} packages ({len(self.members)}): {', '.join(self.members)}"

    @property
    def display_version(self) -> str:
        return "unpinned"


# --------------------------------------------------------------------------------------------------
# Building the model's objects

_Class = TypeVar("_Class", bound=type)


def store_fields_at_once(cls: _Class) -> _Class:
    """Give the frozen dataclass `cls` an `__init__` that stores its fields in one step.

    A frozen dataclass's own `__init__` sets each field through `object.__setattr__` (the class
    refuses `self.x = …`): about 4 µs for a `Component`. Reading one Dockerfile makes thousands of
    instructions, scopes, declarations and components, which made a sixth of `build_model`'s time on
    the benchmark corpus (benchmarks/bench_scale.py); this `__init__` sets the instance's `__dict__`
    whole (about 1.5 µs). Its signature, defaults included, is the dataclass's; equality, hashing,
    `repr`, `replace` and refusing assignment are the dataclass's own.
    """
    params, items = [], []
    namespace: dict[str, object] = {"_store": object.__setattr__}
    for f in fields(cls):
        if f.default_factory is not MISSING or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields and defaults are stored at once")
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        items.append(f"{f.name!r}: {f.name}")
    source = (
        f"def __init__(self, {', '.join(params)}):\n    _store(self, '__dict__', {{{', '.join(items)}}})\n"
    )
    exec(source, namespace)  # as `dataclasses` makes its methods
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    cls.__init__ = init  # type: ignore[misc]
    return cls


for _made_by_the_thousand in (Diagnostic, Flag, Instruction, Stage, ArgDecl, EnvVar, Component):
    store_fields_at_once(_made_by_the_thousand)
