"""What the recognisers share: the stage being read, the RUN being read, and where findings go."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from docgen.model import Component, Diagnostic, ManifestInstall
from docgen.sources.naming import fork_of, is_pinned_ref, ref_kind, repo_name
from docgen.sources.reach import Reach
from docgen.sources.script import ShellState, Word

VERSION_NAME = re.compile(r"(?:^|_)(?:VERSION|VER|MAJOR|MINOR|TAG|COMMIT|BRANCH|REF|SHA|REPO|RELEASE)\Z")
"""ARG/ENV names that hold versions or refs (`TORCH_VERSION`, `FA_TAG`, `VLLM_COMMIT`, `FA_REPO`)."""


@dataclass
class GitClone:
    """A repository cloned in a stage; filled in as later commands check out a ref or build it."""

    url: str
    directory: str
    stage: str
    line: int
    ref: str | None = None
    ref_words: tuple[Word, ...] = ()
    url_words: tuple[Word, ...] = ()
    fetched: str | None = None
    fetched_words: tuple[Word, ...] = ()
    built: bool = False
    known: bool = True
    used: bool = False
    """True when files were copied or moved out of the tree (`cp -r DeepGEMM/include /usr/local`)."""
    removed: str | None = None
    """Why the clone is not listed: its tree was deleted before anything was installed from it."""
    condition: str | None = None
    """The platform the clone is made on only (`linux/arm64 only`), as `Component.condition`."""


@dataclass
class StageState:
    """Filesystem facts a stage accumulates across its RUNs (inherited by `FROM stage` children)."""

    label: str
    workdir: str = "/"
    repos: dict[str, GitClone] = field(default_factory=dict)
    apt_repos: list[Component] = field(default_factory=list)
    lineage: tuple[str, ...] = ()
    """Labels of this stage and of the stages it is built FROM: what a removal here takes away."""
    base_env: dict[str, str] = field(default_factory=dict)
    """ENV the external image the stage is built on sets, as its tag tells (`baseimage.environment`)."""
    repo_depth: int = 0
    """The most `/` of a key of `repos` (a bound: a removed clone leaves it): `repo_at` looks no deeper."""

    def __post_init__(self) -> None:
        if not self.lineage:
            self.lineage = (self.label,)

    def child(self, label: str) -> StageState:
        return StageState(
            label,
            self.workdir,
            dict(self.repos),
            list(self.apt_repos),
            (*self.lineage, label),
            self.base_env,
            self.repo_depth,
        )


@dataclass
class Recorder:
    """Collects components, deferred git clones and skipped constructs for one Dockerfile."""

    path: str
    arg_names: frozenset[str]
    env_args: dict[str, tuple[str, ...]]
    """ENV name → build args its value was set from (`ENV TORCH_VERSION=${TORCH_VERSION}`)."""
    arg_values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Build arg name → its known defaults (one per declaration that gives one)."""
    unset_args: frozenset[str] = frozenset()
    """Build args no declaration gives a value (`ARG REF`): only `--build-arg` sets them."""
    components: list[tuple[int, int, Component]] = field(default_factory=list)
    """(line, order read, component), every one added; `listed()` leaves out those removed again."""
    removed: set[int] = field(default_factory=set)
    """Order numbers of the components a later command removed."""
    by_key: dict[str, list[tuple[int, int, Component]]] = field(default_factory=dict)
    """`package_key` of a component's name → its entries, so a removal looks at its name only."""
    clone_keys: dict[str, list[GitClone]] = field(default_factory=dict)
    """`package_key` of a clone's repository name → the clones, filled as removals need it."""
    clones_indexed: int = 0
    """How many of `clones` are in `clone_keys`."""
    read: int = 0
    """How many components were added so far."""
    branch: bool = False
    """True while the command being read sits in an `if` or `case` (set for each command)."""
    branched: set[int] = field(default_factory=set)
    """Order numbers of the components added in an `if` or `case`: another version does not replace them."""
    clones: list[GitClone] = field(default_factory=list)
    skipped: list[Diagnostic] = field(default_factory=list)
    condition: str | None = None
    """The platform the command being read runs on (`linux/arm64 only`); what it adds carries it."""
    stage_args: dict[str, frozenset[str]] = field(default_factory=dict)
    """Stage label → the build args declared in it (or brought into it by a bare `ARG NAME`)."""
    reach: Reach = field(default_factory=Reach)
    """The build args RUNs read only in branches the default build does not take (`Reach`)."""
    installs: list[ManifestInstall] = field(default_factory=list)
    """The requirements files and local projects the RUNs install (`ImageModel.installs`)."""

    def add(self, component: Component) -> None:
        if not component.name.strip(" @=~-"):  # `go install @v1.2.3`, `apk add =1.0`: no package
            self.skip(component.line, f"{component.kind} item without a name: {component.source or ''}")
            return
        version = component.version
        # not a version: an operator alone (`apk add foo~`), or what the shell works out at build time
        # (`pytorch-cuda=$(echo $CUDA_VERSION | cut -d. -f1-2)`)
        if version and (not any(c.isalnum() for c in version) or "$(" in version or "`" in version):
            component = replace(component, version=None, pinned=False)
        if self.condition and component.condition is None:
            component = replace(component, condition=self.condition)
        entry = (component.line, self.read, component)
        self.components.append(entry)
        self.by_key.setdefault(package_key(component.name), []).append(entry)
        if self.branch:
            self.branched.add(self.read)
        self.read += 1

    def remove(self, kinds: frozenset[str], name: str, stage: StageState, line: int, how: str) -> None:
        """Take back what `how` (`pip uninstall`, `apt-get purge` …) removes at `line`: components of
        one of `kinds` called `name` installed earlier in `stage` or a stage it is built FROM, and
        clones of that name built there. The image ends without them, so they are not listed (a
        later install lists the package again); `docgen show --verbose` says where each went."""
        key = package_key(name)
        for _, order, comp in self.by_key.get(key, ()):
            if order not in self.removed and comp.kind in kinds and comp.stage in stage.lineage:
                self.removed.add(order)
                self.skip(comp.line, f"{comp.name} is removed again at line {line} ({how}); not listed")
        if "git" in kinds:
            for clone in self.clones[self.clones_indexed :]:
                self.clone_keys.setdefault(package_key(repo_name(clone.url)), []).append(clone)
            self.clones_indexed = len(self.clones)
            for clone in self.clone_keys.get(key, ()):
                if clone.built and clone.removed is None and clone.stage in stage.lineage:
                    clone.removed = f"removed again at line {line} ({how})"

    def set_version(self, position: int, version: str) -> None:
        """Give the component at `position` of `components` the version an option names."""
        line, order, comp = self.components[position]
        entry = (line, order, replace(comp, version=version, pinned=True))
        self.components[position] = entry
        same = self.by_key.get(package_key(comp.name), [])
        same[:] = [entry if e[1] == order else e for e in same]

    def listed(self) -> list[tuple[int, int, Component]]:
        """The components added and not removed again, in the order they were read."""
        return [entry for entry in self.components if entry[1] not in self.removed]

    def skip(self, line: int, message: str, rule: str = "") -> None:
        """Say why something at `line` is not listed (`show --verbose`); with a lint `rule` id, it is
        a mistake in the Dockerfile that `docgen lint` reports too."""
        self.skipped.append(Diagnostic(self.path, line, message, rule=rule))

    def arg_for(self, *groups: tuple[Word, ...] | Word | None, version: str | None = None) -> str | None:
        """The build arg behind the first group of words that uses one: when the component's `version`
        is known, the one whose default sits in it (see `arg_in_version`: `golang:${GO_VERSION}-alpine
        ${ALPINE_VERSION}` → GO_VERSION; `nvidia/cuda:${CUDA}-base` → CUDA); else the version-like one
        (`*_VERSION`, `*_TAG`, `*_REPO` …). Args that only choose something else (`BUILD_TYPE`, a
        mirror URL) are not linked."""
        for group in groups:
            if group is None:
                continue
            words = (group,) if isinstance(group, Word) else group
            found: list[str] = []
            for word in words:
                if not word.names:  # (most words)
                    continue
                for name in sorted(word.names):
                    if name in self.arg_names:
                        found.append(name)
                    found.extend(self.env_args.get(name, ()))
            if not found:
                continue
            chosen = self.arg_in_version(found, version) if version else None
            if chosen:
                return chosen
            versioned = [n for n in found if VERSION_NAME.search(n)]
            if versioned:
                return versioned[0]
        return None

    def value_in(self, arg: str | None, text: str) -> str | None:
        """The default of build arg `arg` that `text` spells out, if any (the longest)."""
        found = [v for v in self.arg_values.get(arg or "", ()) if v in text]
        return max(found, key=len) if found else None

    def arg_in_version(self, names: list[str], version: str) -> str | None:
        """Of `names`, the one whose default (with a digit in it) `version` starts with, or holds
        earliest and longest (`12.3.2-base-ubuntu22.04`: CUDA=12.3.2, not UBUNTU_VERSION=22.04), or
        that holds the whole version (`PYTORCH_PACKAGE=torch==1.10.1+cu113` for `1.10.1+cu113`)."""
        best, rank = None, (len(version) + 1, 0)
        for name in names:
            for value in self.arg_values.get(name, ()):
                if not any(c.isdigit() for c in value):
                    continue
                at = version.find(value)
                if at < 0 and len(version) >= 3 and "." in version and version in value:
                    at = 0  # the arg holds a whole requirement or reference around the version
                    value = version
                if at >= 0 and (at, -len(value)) < rank:
                    best, rank = name, (at, -len(value))
        return best


@dataclass
class RunContext:
    """One RUN (or one nested script of it) being read."""

    recorder: Recorder
    stage: StageState
    state: ShellState
    line: int
    cwd: str
    depth: int = 0
    dirstack: list[str] = field(default_factory=list)
    repos_here: list[Component] = field(default_factory=list)
    """apt repositories added by this RUN."""
    list_file: str | None = None
    """The apt sources list the command being read writes to (`echo 'deb …' >
    /etc/apt/sources.list.d/x.list`)."""
    donors: dict[int, str] = field(default_factory=dict)
    """Order numbers (`Recorder.read`) of the versioned apt repositories this RUN added and installed
    nothing from yet → the sources list each was written to: removed again before any install, such
    a repository only lent packages to download (`apt-get download`), it is not the image's release."""
    conditional: bool = False
    """True for the command being read when it follows a test joined by `&&` or `||`."""
    run_line: int = 0
    """The line the RUN starts on (its first line: nested scripts keep it)."""
    installer: int | None = None
    """Position in `recorder.components` of the install script this RUN downloaded last
    (`curl -sSf https://just.systems/install.sh | bash -s -- --tag 1.42.4`), for the shell it is piped to."""

    def in_branch(self) -> bool:
        """True inside an `if` or `case` (or past the nesting docgen follows), or right after a test
        joined by `&&` / `||` (`conditional`): what a command there removes, a default build may keep."""
        compounds = self.state.compounds
        return (
            self.conditional
            or self.state.untracked > 0
            or (bool(compounds) and any(c.keyword in ("if", "case") for c in compounds))
        )

    def drop_donors(self, target: str, line: int) -> None:
        """`rm` of `target` (a sources list, or a folder holding it) at `line`: the versioned
        repositories written to it that nothing was installed from since (`donors`) are gone from the
        image, and their release is not its own (`repo.radeon.com/rocm/apt/6.3/` added to download one
        rocBLAS package into `FROM rocm/dev-ubuntu-22.04:7.0.2` leaves ROCm 7.0.2)."""
        if self.in_branch():
            return
        folder = target.rstrip("/") + "/"
        for order, listed in list(self.donors.items()):
            if listed == target or listed.startswith(folder):
                del self.donors[order]
                self.recorder.removed.add(order)
                repo = self.recorder.components[order][2]
                self.recorder.skip(
                    repo.line,
                    f"apt repository {repo.source} ({listed}) is removed again at line {line} before "
                    "anything was installed from it (a package downloaded from it at most): not the "
                    "image's release, not listed",
                )

    def remove(self, kinds: frozenset[str], name: str, word: Word, how: str) -> None:
        """`Recorder.remove` for a package named by `word`, unless only a branch removes it."""
        if self.in_branch():
            self.recorder.skip(self.line_of(word), f"{how} {name} in an if or case: still listed")
        else:
            self.recorder.remove(kinds, name, self.stage, self.line_of(word), how)

    def install(self, kind: str, word: Word, path: str = "", extras: tuple[str, ...] = ()) -> None:
        """Note that the command being read installs the manifest `word` names (its text, or `path`
        when given), a `requirements` file or a local `project`; a path only the build knows is not
        noted."""
        text = path or word.text
        if word.known and "$" not in text:
            found = ManifestInstall(kind, self.path(text), extras, self.line_of(word), self.stage.label)
            self.recorder.installs.append(found)

    def line_of(self, word: Word) -> int:
        """The Dockerfile line of `word`, else of the command being read."""
        return word.line or self.line

    def path(self, target: str) -> str:
        """`target` resolved against the current directory."""
        return posixpath.normpath(posixpath.join(self.cwd, target)) if target else self.cwd

    def repo_at(self, directory: str) -> GitClone | None:
        """The clone whose tree contains `directory` (the deepest one).

        Looks up `directory` and each folder above it in the stage's clones (keyed by normalised path),
        so the cost is the depth of the path, not the number of clones so far (which made thousands
        of clones cost the square of their count), and no deeper than the deepest clone (`cd a && cd b
        && …` 4,000 times in one RUN made each command walk 4,000 folders up)."""
        repos = self.stage.repos
        if not repos:
            return None
        path = posixpath.normpath(directory) if directory else directory
        if path.count("/") > self.stage.repo_depth:  # (a folder deeper than every clone: from its
            path = "/".join(path.split("/")[: self.stage.repo_depth + 1])  # ancestor as deep as the deepest)
        while True:
            clone = repos.get(path)
            if clone is not None:
                return clone
            parent = posixpath.dirname(path)
            if parent == path:
                return None
            path = parent


def package_key(name: str) -> str:
    """`name` compared as package managers compare it: case and `-` `_` `.` runs do not matter."""
    if "_" not in name and "." not in name and "--" not in name:
        return name.lower()  # nothing to replace (most names): no regex
    return _SEPARATOR_RUN.sub("-", name).lower()


_SEPARATOR_RUN = re.compile(r"[-_.]+")


def git_component(clone: GitClone, recorder: Recorder) -> Component:
    """The component a clone turns into once its stage has been read."""
    ref = clone.ref
    words = clone.ref_words
    if ref == "FETCH_HEAD" or (ref is None and clone.fetched):
        ref, words = clone.fetched, clone.fetched_words
    unset = ref == ""
    if unset:
        ref = _unset_args(words, recorder)  # `git checkout $REF`, `ARG REF` with no default: no kind
    kind = ref_kind(ref) if ref and not unset else None
    if ref and kind == "tag" and ref.startswith(("refs/tags/", "tags/")):
        ref = ref.split("tags/", 1)[1]
    url = clone.url or _unset_args(clone.url_words, recorder) or ""
    return Component(
        name=repo_name(url),
        kind="git",
        version=None,
        ref=ref,
        source=url,
        method="source" if clone.built else "checkout",
        stage=clone.stage,
        line=clone.line,
        pinned=bool(ref) and kind is not None and is_pinned_ref(kind) and all(w.known for w in words),
        arg=recorder.arg_for(words, clone.url_words),
        ref_kind=kind,
        fork=fork_of(clone.url, clone.built),
        condition=clone.condition,
    )


def _unset_args(words: tuple[Word, ...], recorder: Recorder) -> str | None:
    """`${NAME}` for words that came out empty from ARGs declared with no default (given only with
    `--build-arg`), as the tables should show them; None when no such ARG is behind them (an ARG
    whose default is `""` is empty, not unknown)."""
    names = sorted({name for word in words for name in word.names} & recorder.unset_args)
    return "".join(f"${{{name}}}" for name in names) or None


def operands(words: Sequence[Word], value_options: frozenset[str]) -> Iterator[Word]:
    """The words of a command's arguments that are not options: every `-…` word is skipped, and with
    one of `value_options` the word after it too (`apt-get install -o Dpkg::Options::=… NAME`)."""
    i = 0
    while i < len(words):
        word = words[i]
        i += 2 if word.text in value_options else 1
        if not word.text.startswith("-"):
            yield word
