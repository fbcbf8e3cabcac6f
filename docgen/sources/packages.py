"""Distribution packages other than apt: apk (Alpine) and the RPM family (dnf, yum, microdnf, rpm).

`apk add name=1.2-r0` is a pin; `name~1.2`, `name>1.2` are kept as written and not pinned; packages
added to a `--virtual` group are build dependencies removed again with `apk del GROUP`, so they are
noted as skipped, not listed.

An RPM name may itself end in numbers (`cuda-cudart-12-4`), so `dnf install name-1.2.3-1` is split into
name and version only when that is unambiguous: the last two `-` fields are a version with a dot and a
release starting with a digit (`libcublas-12-4-12.4.5.8-1` → libcublas-12-4 12.4.5.8-1); anything
else is a name without a version. An `.rpm` given by URL (to dnf, yum or `rpm -i`) is a download.
`dnf config-manager --add-repo URL` and `yum-config-manager --add-repo URL` add an `rpm-repo`.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

from docgen.sources import apt, downloads
from docgen.sources.context import RunContext
from docgen.sources.installer import Options, add, is_exact, is_path, is_url, read_options, short
from docgen.sources.script import Word

RPM_COMMANDS = frozenset({"dnf", "dnf5", "yum", "microdnf", "tdnf"})

_APK_VALUES = frozenset(
    {
        "-t",
        "--virtual",
        "-X",
        "--repository",
        "-p",
        "--root",
        "--keys-dir",
        "--arch",
        "--cache-dir",
        "--repositories-file",
        "--cache-max-age",
        "--timeout",
    }
)
_APK_PACKAGE = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.+\-]*)(@[A-Za-z0-9_.\-]+)?(?:(=~|[<>]=?|[=~])(.*))?\Z")

_DNF_VALUES = frozenset(
    {
        "--setopt",
        "--enablerepo",
        "--disablerepo",
        "--repo",
        "--repoid",
        "--releasever",
        "--installroot",
        "-c",
        "--config",
        "-x",
        "--exclude",
        "--repofrompath",
        "--disableplugin",
        "--enableplugin",
        "--forcearch",
        "--downloaddir",
        "--destdir",
        "--comment",
        "--add-repo",
        "--from-repofile",
        "-d",
        "--debuglevel",
        "-e",
        "--errorlevel",
        "--rpmverbosity",
        "--color",
    }
)
_DNF_INSTALL = frozenset({"install", "localinstall", "reinstall", "in"})
_DNF_NOT_READ = frozenset({"groupinstall", "group", "module", "groups"})
_ARCHES = (".x86_64", ".noarch", ".aarch64", ".i686", ".i386", ".ppc64le", ".s390x", ".armv7hl", ".src")
_NEVR = re.compile(
    r"(?P<name>[A-Za-z0-9_+][A-Za-z0-9_+.\-]*?)-(?P<version>(?:\d+:)?\d[A-Za-z0-9_+~^]*\.[A-Za-z0-9_.+~^]*)"
    r"-(?P<release>\d[A-Za-z0-9_.+~^]*)\Z"
)
_RPM_NAME = re.compile(r"[A-Za-z0-9_+][A-Za-z0-9_+.\-]*\Z")
_RELATION = re.compile(r"([A-Za-z0-9_+][A-Za-z0-9_+.\-]*)\s*(<=|>=|=|<|>)\s*(\S+)\Z")

_DISTRO = re.compile(
    r"(?:(?:rhel|el|centos|fedora|rocky|alma|almalinux|amzn|amazonlinux|sles|opensuse|ubi|ol)\d+"
    r"|x86_64|aarch64|noarch|ppc64le|s390x|\$basearch|\$releasever)\Z",
    re.IGNORECASE,
)
_RPM_VALUES = frozenset(
    {"--root", "--dbpath", "--prefix", "--relocate", "--excludepath", "--define", "-D", "--rcfile"}
)


# --------------------------------------------------------------------------------------------------
# apk


def apk(words: list[Word], ctx: RunContext) -> None:
    """`apk add …` (`words` start after `apk`)."""
    options = read_options(words, _APK_VALUES)
    if not options.operands or options.operands[0].text != "add":
        return
    packages = options.operands[1:]
    group = options.value("-t", "--virtual")
    if group is not None:
        names = " ".join(w.text for w in packages)
        ctx.recorder.skip(
            ctx.line,
            f"apk add --virtual {group.text}: build dependencies removed again with apk del, "
            f"not listed: {names}",
        )
        return
    repository = options.value("-X", "--repository")
    source = repository.text if repository is not None and repository.known else None
    for word in packages:
        text = word.text.strip()
        if is_url(text) or is_path(text) or text.endswith(".apk"):
            continue  # a local or downloaded .apk: the download is the component
        match = _APK_PACKAGE.match(text)
        if match is None:
            ctx.recorder.skip(ctx.line_of(word), f"apk package name not understood: {text}")
            continue
        name, tag, operator, version = match.groups()
        pinned = operator == "=" and is_exact(version or "", word)
        if operator and operator != "=":
            version = operator + (version or "")
        add(
            ctx,
            word,
            name=name,
            kind="apk",
            version=version,
            pinned=pinned,
            source=source or (tag[1:] if tag else None),
            method="package",
        )


# --------------------------------------------------------------------------------------------------
# dnf, yum, microdnf, rpm


def dnf(command: str, words: list[Word], ctx: RunContext) -> None:
    """`dnf|yum|microdnf …` (`words` start after the command name)."""
    options = read_options(words, _DNF_VALUES)
    if not options.operands:
        return
    verb = options.operands[0].text
    if verb == "config-manager":
        add_repo(options, ctx)
    elif verb in _DNF_NOT_READ:
        if any(w.text in ("install", "enable") for w in options.operands[1:2]) or verb == "groupinstall":
            ctx.recorder.skip(
                ctx.line, f"{command} {verb} is not read by docgen: {short([Word(command), *words])}"
            )
    elif verb in _DNF_INSTALL:
        for word in options.operands[1:]:
            _rpm_package(word, ctx)


def config_manager(words: list[Word], ctx: RunContext) -> None:
    """`yum-config-manager --add-repo URL` (`words` start after the command name)."""
    add_repo(read_options(words, _DNF_VALUES), ctx)


def add_repo(options: Options, ctx: RunContext) -> None:
    """The repositories named by `--add-repo URL` (dnf 4, yum) or `--from-repofile=URL` (dnf 5)."""
    for word in options.all_values("--add-repo", "--from-repofile"):
        url = word.text
        name, version = repo_name_version(url)
        add(
            ctx,
            word,
            name=name,
            kind="rpm-repo",
            version=version,
            pinned=version is not None and word.known and "$" not in version,
            source=url,
            method="package",
        )


def repo_name_version(url: str) -> tuple[str, str | None]:
    """(name, version) of a repository URL: a `.repo` file is named by its file name
    (`…/cuda-rhel9.repo` → cuda-rhel9), otherwise as an apt repository URL is."""
    name, version = apt.repo_name_version(url)
    try:
        segments = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    except ValueError:
        segments = []
    filename = segments[-1] if segments else ""
    if filename.endswith(".repo") and len(filename) > len(".repo"):
        return filename.removesuffix(".repo"), version
    if _DISTRO.match(name) and name in segments:
        # `…/rocm/rhel9/6.2.4/main`: the name is the segment before the distribution release and arch
        # (`…/vault/rocky/8.5/…` is Rocky's own repository: `rocky` has no release number)
        before = [s for s in segments[: segments.index(name)] if not _DISTRO.match(s)]
        name = before[-1] if before else name
    return name, version


def rpm(words: list[Word], ctx: RunContext) -> None:
    """`rpm -i|-U|-F … FILE|URL` (`words` start after `rpm`): URLs are downloads."""
    options = read_options(words, _RPM_VALUES)
    installs = any(
        flag in ("--install", "--upgrade", "--freshen", "--reinstall")
        or (not flag.startswith("--") and flag[1] in "iUF")
        for flag in options.flags
    )
    if installs:
        for word in options.operands:
            if is_url(word.text):
                _rpm_url(word, ctx)


def _rpm_package(word: Word, ctx: RunContext) -> None:
    text = word.text.strip()
    if is_url(text):
        _rpm_url(word, ctx)
        return
    if is_path(text) or text.endswith(".rpm"):
        return  # a local .rpm: where it came from is the component
    if text.startswith("@") or any(c in text for c in "*?[("):
        ctx.recorder.skip(ctx.line_of(word), f"rpm group, module, capability or pattern not read: {text}")
        return
    relation = _RELATION.match(text)  # `"python3 >= 3.9"`
    if relation is not None:
        name, operator, version = relation.groups()
        pinned = operator == "=" and is_exact(version, word)
        _add_rpm(word, ctx, name, version if operator == "=" else operator + version, pinned)
        return
    name, version = split_nevra(text)
    if not _RPM_NAME.match(name):
        ctx.recorder.skip(ctx.line_of(word), f"rpm package name not understood: {text}")
        return
    _add_rpm(word, ctx, name, version, version is not None and word.known)


def _add_rpm(word: Word, ctx: RunContext, name: str, version: str | None, pinned: bool) -> None:
    add(ctx, word, name=name, kind="rpm", version=version, pinned=pinned, source=None, method="package")


def split_nevra(text: str) -> tuple[str, str | None]:
    """(name, version-release) of an RPM package word, the version only when the split is unambiguous:
    `libcublas-12-4-12.4.5.8-1.x86_64` → (libcublas-12-4, 12.4.5.8-1); `cuda-cudart-12-4` → itself."""
    for arch in _ARCHES:
        if text.endswith(arch):
            text = text[: -len(arch)]
            break
    match = _NEVR.match(text)
    if match is None:
        return text, None
    return match.group("name"), f"{match.group('version')}-{match.group('release')}"


def _rpm_url(word: Word, ctx: RunContext) -> None:
    """An `.rpm` given by URL: a download, named and versioned from its NEVRA file name when it has one."""
    found = downloads.component(word, ctx.stage.label, ctx.line_of(word), ctx.recorder.arg_for(word))
    try:
        filename = unquote(posixpath.basename(urlsplit(word.text).path))
    except ValueError:
        filename = ""
    if filename.endswith(".rpm"):
        name, version = split_nevra(filename.removesuffix(".rpm"))
        if version is None:
            name = re.sub(r"-latest(?:-\d+)?\Z", "", name)  # epel-release-latest-9 → epel-release
        add(
            ctx,
            word,
            name=name,
            kind="download",
            version=version,
            pinned=version is not None and word.known,
            source=word.text,
            method="prebuilt",
        )
    elif found is not None:
        ctx.recorder.add(found)
