"""`docgen.audit.cells`: a build-argument table's default cell that describes a URL default rather than
stating it (`` alice's `chat.jinja` `` for `https://example.org/alice/…/chat.jinja`) agrees; one whose
owner words name no part of the URL is stale (`likely`); a cell stating another file is compared as
written (`certain`).
"""

from __future__ import annotations

from helpers import findings

DOCKERFILE = """\
FROM python:3.12-slim
ARG TEMPLATE_URL="https://example.org/alice/templates/resolve/main/chat.jinja"
ARG PATCH_URL=https://example.org/bob/patches/raw/main/fix.patch
ARG NOTES_URL=https://example.org/bob/notes/raw/main/notes.md
ADD ${TEMPLATE_URL} /etc/app/chat.jinja
ADD ${PATCH_URL} /etc/app/fix.patch
ADD ${NOTES_URL} /etc/app/notes.md
"""


def test_a_default_cell_describing_a_url() -> None:
    readme = """\
| Build arg | Default | Description |
|---|---|---|
| `TEMPLATE_URL` | alice's `chat.jinja` | chat template shipped in the image |
| `PATCH_URL` | carol's `fix.patch` | patch applied at start |
| `NOTES_URL` | `release-notes.md` | notes shipped with the image |
"""
    assert findings(readme, {"Dockerfile": DOCKERFILE}) == [
        "4: README says PATCH_URL defaults to carol's fix.patch but Dockerfile:3 says "
        "https://example.org/bob/patches/raw/main/fix.patch",
        "5: README says NOTES_URL defaults to release-notes.md but Dockerfile:4 says "
        "https://example.org/bob/notes/raw/main/notes.md",
    ]


def test_the_file_name_alone_or_with_the_repository_owner_agrees() -> None:
    readme = """\
| Build arg | Default | Description |
|---|---|---|
| `TEMPLATE_URL` | `chat.jinja` | chat template |
| `PATCH_URL` | Bob's `fix.patch` | patch |
| `NOTES_URL` | `notes.md` from bob's repository | notes |
"""
    assert findings(readme, {"Dockerfile": DOCKERFILE}) == []


SERVICES = """\
FROM alicevision/alicevision:3.2.0-ubuntu20.04-cuda11.3.1
"""


def test_a_column_of_bare_numbers_is_no_version_column() -> None:
    # Ports under a header in words: no version is read from them. A column of versions under a
    # header docgen does not know is still one.
    ports = """\
| Service | Host port | Tool |
|---|---|---|
| meshing | 50053 | AliceVision (command line) |
| scanning | 50052 | COLMAP |
"""
    assert findings(ports, {"Dockerfile": SERVICES}) == []
    versions = """\
| Tool | Shipped |
|---|---|
| AliceVision | 2.4.0 |
| COLMAP | 3.9 |
"""
    assert findings(versions, {"Dockerfile": SERVICES}) == [
        "3: README says AliceVision 2.4.0 but Dockerfile:1 says 3.2.0-ubuntu20.04-cuda11.3.1"
    ]
