"""apt: repositories added (deb lines written to `sources.list.d`, `add-apt-repository`) and installs.

A repository with a version in its URL (`https://repo.radeon.com/rocm/apt/7.0.2/`, or a `node_20.x`
channel) is a pinned `apt-repo` component; one without (a PPA, `…/cuda/repos/ubuntu2204/x86_64`) is only
the source of the packages installed from it, not a row; `pkg=version` is a pinned `apt` package; a
plain package name is unpinned. A package is credited to an added repository only when its name starts
like the repository's (rocm → rocm-dev, git-core → git) or the repository is known to ship it
(deadsnakes → python3.X); otherwise its source is left empty (the distribution's own archive).
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

from docgen.sources.context import RunContext, operands
from docgen.sources.downloads import host_name
from docgen.sources.installer import add
from docgen.sources.naming import SEGMENT_VERSION
from docgen.sources.script import Word

_VALUE_OPTIONS = frozenset({"-o", "-t", "--target-release", "--default-release", "-c", "--config-file"})
_GENERIC_SEGMENTS = frozenset(
    {
        "apt",
        "ubuntu",
        "debian",
        "repos",
        "repo",
        "deb",
        "dists",
        "compute",
        "main",
        "pool",
        "linux",
        "packages",
        "pub",
    }
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_CHANNEL = re.compile(r"([A-Za-z][A-Za-z0-9]*)[-_](\d+)\.x\Z")
_PACKAGE = re.compile(r"[a-z0-9][a-z0-9+.\-]*\Z")


def install(words: list[Word], ctx: RunContext) -> None:
    """`apt-get install …` / `apt install …` (`words` start after `install`)."""
    ctx.donors.clear()  # it may install from any repository added before it
    for word in operands(words, _VALUE_OPTIONS):
        text = word.text
        if not text:
            continue
        name, sep, version = text.partition("=")
        name = name.split("/", 1)[0] if not name.startswith(("/", ".")) else name
        if name.endswith(".deb") or name.startswith(("/", ".")):
            continue  # a downloaded .deb: the download is the component
        if not _PACKAGE.match(name):
            ctx.recorder.skip(ctx.line, f"apt package name not understood: {text}")
            continue
        pinned = bool(sep and version and word.known and "*" not in version)
        upstream = upstream_version(version) if sep and version else None
        add(
            ctx,
            word,
            name=name,
            kind="apt",
            version=upstream,
            ref=version if upstream and upstream != version else None,
            source=_repo_for(name, ctx),
            method="package",
            pinned=pinned,
            arg_version=version if sep and version else None,
        )


_DEB_FILE = re.compile(r"([a-z0-9][a-z0-9+.\-]*)_((?:[0-9]+%3a)?[0-9][A-Za-z0-9.+~\-]*)_[a-z0-9]+\.deb\Z")
"""A Debian package file as `dpkg-deb` names it: `NAME_VERSION_ARCH.deb`
(`libcudnn8_8.1.1.33-1+cuda11.2_amd64.deb`)."""


def dpkg_install(words: list[Word], ctx: RunContext) -> None:
    """`dpkg -i FILE.deb …` (`words` after `dpkg`): each package file whose name is `NAME_VERSION_ARCH.deb`
    is the package NAME at VERSION, pinned (the file is that version and no other). A file named
    otherwise (`cuda-repo.deb`, a wildcard) tells no version and is not a component."""
    if not any(w.text in ("-i", "--install") or re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", w.text) for w in words):
        return
    ctx.donors.clear()  # a package downloaded from a repository added before is installed
    for word in words:
        if word.text.startswith("-") or not word.text.endswith(".deb"):
            continue
        match = _DEB_FILE.match(posixpath.basename(word.text))
        if match is None or not word.known:
            continue
        name, version = match.group(1), match.group(2).replace("%3a", ":")
        upstream = upstream_version(version)
        add(
            ctx,
            word,
            name=name,
            kind="apt",
            version=upstream,
            ref=version if upstream != version else None,
            source=None,
            method="package",
            pinned=True,
            arg_version=version,
        )


_DEBIAN_VERSION = re.compile(r"(?:[0-9]+:)?([0-9][A-Za-z0-9.+~]*?)(?:-[A-Za-z0-9.+~]+)?\Z")


def upstream_version(version: str) -> str:
    """The release a reader knows from a Debian version: epoch and Debian revision dropped
    (`1:2.34.1-1ubuntu1.10` → 2.34.1, `2.21.5-1+cuda12.4` → 2.21.5); anything else as written."""
    match = _DEBIAN_VERSION.match(version)
    return match.group(1) if match else version


def remove(words: list[Word], ctx: RunContext, how: str) -> None:
    """`apt-get remove|purge NAME…` (`words` start after the verb): the packages are not in the image."""
    for word in words:
        name = word.text.partition("=")[0].split(":", 1)[0]
        if word.known and _PACKAGE.match(name):
            ctx.remove(_APT_KINDS, name, word, how)


_APT_KINDS = frozenset({"apt"})


def _repo_for(package: str, ctx: RunContext) -> str | None:
    """The repository added in this stage that plausibly ships `package`, else None (the distribution).

    A repository ships the packages that start with its first word (`rocm` → rocm-dev, `git-core` → git,
    `postgresql` → postgresql-client-16) and those a few well-known ones are added for (`_SHIPS`).
    """
    low = package.lower()
    for repo in reversed(ctx.stage.apt_repos):
        repo_name = repo.name.lower()
        if _first_word(low) == _first_word(repo_name) or low.startswith(repo_name):
            return repo.source
        if low.startswith(_SHIPS.get(repo_name, ())):
            return repo.source
    return None


def _first_word(name: str) -> str:
    m = re.match(r"[a-z]+", name)
    return m.group(0) if m else name


_SHIPS: dict[str, tuple[str, ...]] = {
    "deadsnakes": ("python3.",),
    "cuda": ("libcudnn", "libnccl", "libcublas", "libcusparse", "libnvinfer", "tensorrt", "nsight-"),
    "nodesource": ("nodejs",),
    "llvm": ("clang", "lld", "lldb", "llvm", "libllvm", "libclang", "libomp", "libc++", "libunwind"),
    "docker": ("docker-", "containerd.io"),
    "ubuntu-toolchain-r": ("gcc-", "g++-", "gfortran-", "cpp-", "libstdc++"),
}
"""Repositories named unlike what they are added for: repository name → package name prefixes."""


def deb_lines(text: str, word: Word, ctx: RunContext) -> None:
    """Every `deb …` line in text written to an apt sources list."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("deb ", "deb-src ", "deb\t")):
            deb_line(stripped, word, ctx)


def deb_line(line: str, word: Word, ctx: RunContext) -> None:
    """One `deb [options] URL suite components…` line."""
    tokens = line.split()[1:]
    while tokens and tokens[0].startswith("["):
        # options may contain spaces: [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg]
        while tokens and not tokens[0].endswith("]"):
            tokens.pop(0)
        if tokens:
            tokens.pop(0)
    if not tokens:
        ctx.recorder.skip(ctx.line, f"apt source line not understood: {line}")
        return
    url = tokens[0]
    if not _SCHEME.match(url):
        # `deb ${MIRROR_URL} $(lsb_release -cs) main` with the URL arg empty: there is no repository
        ctx.recorder.skip(ctx.line, f"apt source line without a URL: {line}")
        return
    suite = tokens[1] if len(tokens) > 1 else ""
    name, version = repo_name_version(url, suite)
    _add_repo(name, version, url, word, ctx)


def repo_name_version(url: str, suite: str = "") -> tuple[str, str | None]:
    """(name, version) of an apt repository URL (`…/rocm/apt/7.0.2/` → rocm, 7.0.2)."""
    try:
        segments = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    except ValueError:
        segments = []
    for seg in segments:
        m = _CHANNEL.match(seg)
        if m:  # deb.nodesource.com/node_20.x: the major version channel of the host's repository
            return host_name(url), m.group(2)
    for i, seg in enumerate(segments):
        m = SEGMENT_VERSION.match(seg)
        if m:
            before = [s for s in segments[:i] if s.lower() not in _GENERIC_SEGMENTS]
            prefix = seg[: m.start(1)].rstrip("-_v")
            name = prefix or (before[-1] if before else host_name(url))
            return name, m.group(1)
    named = [s for s in segments if s.lower() not in _GENERIC_SEGMENTS]
    name = named[0] if named else host_name(url)
    m = re.search(r"-(\d+(?:\.\d+)*)\Z", suite)
    if m:
        return host_name(url), m.group(1)
    return name, None


def list_file(url: Word, target: str, ctx: RunContext) -> None:
    """A sources list downloaded whole (`wget -qO /etc/apt/sources.list.d/lunarg-vulkan.list URL`):
    a repository named after the file, its contents unknown."""
    name = posixpath.basename(target)
    for suffix in (".list", ".sources"):
        name = name.removesuffix(suffix)
    _add_repo(name or "apt", None, url.text, url, ctx)


def _add_repo(name: str, version: str | None, source: str, word: Word, ctx: RunContext) -> None:
    pinned = version is not None and "$" not in version
    order = ctx.recorder.read
    comp = add(
        ctx,
        word,
        name=name,
        kind="apt-repo",
        version=version,
        source=source,
        method="package",
        pinned=pinned,
        record=False,
    )
    ctx.stage.apt_repos.append(comp)
    ctx.repos_here.append(comp)
    if comp.version is not None:
        # a repository is where packages come from (their source), not something the image contains;
        # one whose path names a release (`repo.radeon.com/rocm/apt/7.0.2`) is a row: that release
        ctx.recorder.add(comp)
        if ctx.list_file is not None and ctx.recorder.read > order:
            ctx.donors[order] = ctx.list_file
    else:
        ctx.recorder.skip(comp.line, f"apt repository {source}: the source of the packages installed from it")


def add_repository(words: list[Word], ctx: RunContext) -> None:
    """`add-apt-repository [-y] ppa:user/name | 'deb …' | URL`."""
    for word in words:
        text = word.text.strip()
        if text.startswith("-") or not text:
            continue
        if text.startswith("ppa:"):
            user = text[4:].split("/", 1)[0]
            _add_repo(user, None, text, word, ctx)
        elif text.startswith("deb"):
            deb_line(text, word, ctx)
        elif "://" in text:
            name, version = repo_name_version(text)
            _add_repo(name, version, text, word, ctx)
        return
