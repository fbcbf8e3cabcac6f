"""Downloads: curl, wget and `ADD` of tarballs, installers and `.deb` files with a version in the URL.

The version comes from the file name (`cmake-3.26.4-linux-x86_64.tar.gz` → cmake 3.26.4), else from a
path segment (`/releases/download/v1.2.3/…`, `/uv/0.4.0/install.sh`), else a GitHub archive ref. Keys,
lists, patches and plain scripts without a version are not components. `ADD --checksum` pins.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from docgen.model import Component
from docgen.sources.naming import (
    ARCHIVE_EXTENSIONS,
    directory_name,
    github_repo,
    is_generic_stem,
    is_hex,
    name_version,
    ref_kind,
    split_extension,
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
    url: Word, stage: str, line: int, arg: str | None, checksum: str | None = None
) -> Component | None:
    """The download component of `url`, or None when the URL is not something installed."""
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
        path = urlsplit(text).path
    except ValueError:
        path = ""
    branch = False
    if repo is not None and "/archive/" in path:
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
    if version is None and ref is None:
        path_name, version = version_in_path(text)
        if name is None or is_generic_stem(name) or version is not None and name == stem:
            name = path_name or (repo[1] if repo else None) or name
    if name is None or is_generic_stem(name):
        name = (repo[1] if repo else None) or directory_name(text) or host_name(text)
    if version is None and ref is None and checksum is None:
        if ext not in ARCHIVE_EXTENSIONS:
            return None
        name = re.split(r"[-_]", name)[0] or name
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
