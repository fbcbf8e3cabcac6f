"""Downloads: curl, wget and `ADD` of tarballs, installers and `.deb` files with a version in the URL.

The version comes from the file name (`cmake-3.26.4-linux-x86_64.tar.gz` → cmake 3.26.4), lengthened to
the whole value when a directory repeats it (`/24.3.0-0/Mambaforge-24.3.0-0-…` → 24.3.0-0), else from a
path segment (`/releases/download/v1.2.3/…`, `/uv/0.4.0/install.sh`), else a GitHub archive ref or
release tag (`/releases/download/master-32d3ac78/…` pins whatever it looks like). Names lose trailing
platform words (`vulkansdk-linux-x86_64` → vulkansdk) and take the path's name when the path says
`name/version/` for the same version (`/nvshmem/3.3.9/nvshmem_src_cuda12-all-all-3.3.9.tar.gz`). Keys,
lists, patches and plain scripts without a version are not components; a URL ending in `/latest` is an
unpinned download of what its path names. `ADD --checksum` pins.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from docgen.model import Component
from docgen.sources.naming import (
    ARCHIVE_EXTENSIONS,
    contains_word,
    directory_name,
    github_repo,
    is_generic_stem,
    is_hex,
    name_version,
    ref_kind,
    release_tag,
    repeated_version,
    split_extension,
    strip_platform,
    url_filename,
    version_in_path,
)
from docgen.sources.script import Word

_URL = re.compile(r"(?:https?|ftp)://", re.IGNORECASE)
_NOT_COMPONENTS = (
    ".gpg",
    ".key",
    ".asc",
    ".pub",
    ".list",
    ".repo",
    ".txt",
    ".json",
    ".yaml",
    ".yml",
    ".toml",
    ".patch",
    ".diff",
    ".cfg",
    ".conf",
    ".pem",
    ".crt",
    ".sig",
    ".sha256",
    ".md5",
    ".sha512",
    ".html",
    ".md",
)
_PATH_IS_NOT_THE_VERSION = frozenset({"bootstrap.pypa.io"})
"""Hosts whose path versions are not the download's (`bootstrap.pypa.io/pip/3.6/get-pip.py`: Python 3.6)."""
_MOVING_TAGS = frozenset({"latest", "nightly", "continuous"})
"""GitHub release tags that projects move to each new build."""
_HOST_NOISE = frozenset(
    {"www", "apt", "repo", "repos", "download", "downloads", "dl", "packages", "developer", "files"}
)


def urls(words: list[Word]) -> list[Word]:
    """The words of a curl/wget command that are URLs (the `-o FILE` and headers are not)."""
    return [w for w in words if _URL.match(w.text)]


def host_name(url: str) -> str:
    """A short name from a host (`apt.llvm.org` → `llvm`, `cmake.org` → `cmake`)."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        host = ""
    labels = [label for label in host.split(".") if label and label not in _HOST_NOISE]
    if len(labels) >= 2:
        labels = labels[:-1]
    return labels[-1] if labels else host


def component(
    url: Word,
    stage: str,
    line: int,
    arg: str | None,
    checksum: str | None = None,
    value: str | None = None,
) -> Component | None:
    """The download component of `url`, or None when the URL is not something installed.

    `value` is the value of `arg` when the caller knows it: a value the file name repeats whole
    (`Mambaforge-${MAMBA_VERSION}-…` with `24.3.0-0`) is the version, not just its first part.
    """
    text = url.text
    filename = url_filename(text)
    low = filename.lower()
    if low.endswith(_NOT_COMPONENTS):
        return None
    stem, ext = split_extension(filename)
    name: str | None
    version: str | None
    ref: str | None = None
    name, version = name_version(stem, ext) if stem else (None, None)
    repo = github_repo(text)
    try:
        parts = urlsplit(text)
        path, host = parts.path, (parts.hostname or "").lower()
    except ValueError:
        path, host = "", ""
    branch = False
    codeload = path.strip("/").split("/") if host == "codeload.github.com" else []
    if len(codeload) >= 4 and codeload[2] in _CODELOAD_FORMATS:
        # codeload.github.com/O/R/tar.gz/<ref>: the archive GitHub serves for a ref of O/R
        name, version = codeload[1], None
        archive_ref = "/".join(codeload[3:]).removeprefix("refs/tags/").removeprefix("refs/heads/")
        if is_hex(archive_ref) and len(archive_ref) >= 7:
            ref = archive_ref
        elif ref_kind(archive_ref) == "branch":
            ref, branch = archive_ref, True
        else:
            version = (
                archive_ref[1:] if archive_ref[:1] == "v" and archive_ref[1:2].isdigit() else archive_ref
            )
    elif repo is not None and "/archive/" in path:
        # github.com/O/R/archive/refs/tags/v1.2.tar.gz, …/archive/<sha>.tar.gz, …/archive/main.tar.gz
        name = repo[1]
        version = None
        archive_ref = path.split("/archive/", 1)[1]
        archive_ref = archive_ref.removesuffix(ext) if ext else archive_ref
        if is_hex(stem) and len(stem) >= 7:
            ref = stem
        elif ref_kind(archive_ref) == "branch":
            ref, branch = stem, True  # a branch moves: the archive is not pinned
        else:
            version = stem[1:] if stem[:1] == "v" and stem[1:2].isdigit() else stem
    elif version is not None:
        version = _whole_version(text, filename, version, value)
        if host not in _PATH_IS_NOT_THE_VERSION:
            path_name, path_version = version_in_path(text)
            same = path_version is not None and (version + "-").startswith(path_version + "-")
            if path_name and same and _is_longer_name(name, path_name):
                name = path_name  # /nvshmem/3.3.9/nvshmem_src_cuda12-all-all-3.3.9.tar.gz → nvshmem
    if version is None and ref is None and host not in _PATH_IS_NOT_THE_VERSION:
        path_name, version = version_in_path(text)
        if name is None or is_generic_stem(name) or version is not None and name == stem:
            name = path_name or (repo[1] if repo else None) or name
    tag = release_tag(text)
    if version is None and ref is None and tag is not None:
        # a GitHub release tag names fixed assets whatever it looks like (`master-32d3ac78`)
        version = tag[1:] if tag[:1] == "v" and tag[1:2].isdigit() else tag
        branch = tag.lower() in _MOVING_TAGS
    if name is not None and ("$(" in name or "`" in name) and repo is not None:
        name = repo[1]  # `…-a3-$(arch).zip`: what the shell prints is no part of a name; the repository is
    if name is None or is_generic_stem(name):
        name = (repo[1] if repo else None) or directory_name(text) or host_name(text)
    if version is None and ref is None and checksum is None:
        if ext not in ARCHIVE_EXTENSIONS and low != "latest":
            return None  # a script or a page; `…/latest` is an unpinned download of what it names
    name = strip_platform(name)
    pinned = (version is not None and "$" not in version and "`" not in version) or ref is not None
    pinned = (pinned and not branch) or checksum is not None  # a checksum pins even a branch archive
    return Component(
        name=name,
        kind="download",
        version=version,
        ref=ref or checksum,
        source=text,
        method="prebuilt",
        stage=stage,
        line=line,
        pinned=pinned,
        arg=arg,
        ref_kind="branch" if branch else None,
    )


_CODELOAD_FORMATS = frozenset({"tar.gz", "zip", "legacy.tar.gz", "legacy.zip", "tar", "legacy.tar"})


def _whole_version(url: str, filename: str, version: str, value: str | None) -> str:
    """`version` read from the file name, lengthened to the whole value the URL repeats (see `component`)."""
    if value:
        whole = value[1:] if value[:1] == "v" and value[1:2].isdigit() else value
        if len(whole) > len(version) and whole.startswith(version) and contains_word(filename, whole):
            return whole
    return repeated_version(url, version) or version


def _is_longer_name(name: str | None, path_name: str) -> bool:
    """True when the file's `name` is the path's name with more words (`nvshmem_src_cuda12` vs nvshmem)."""
    if name is None:
        return True
    file_name = name.lower().replace("_", "-")
    short = path_name.lower().replace("_", "-")
    return file_name != short and file_name.startswith(short + "-")
