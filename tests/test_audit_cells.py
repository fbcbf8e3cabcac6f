"""`docgen.audit.cells`: a build-argument table's default cell that describes a URL default rather than
stating it (`` alice's `chat.jinja` `` for `https://example.org/alice/…/chat.jinja`) agrees; one whose
owner words name no part of the URL is stale (`likely`); a cell stating another file is compared as
written (`certain`).
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.audit.cells import default_column, default_in_cell

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


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("`12.4.1`", "12.4.1"),
        ("(empty)", ""),
        ('`""`', ""),
        ("no default", ""),
        # a mark or words give no value: not compared
        ("-", None),
        ("—", None),
        ("none", None),
        ("*(none)*", ""),  # the deliberate form (docgen's own tables write it) says "no default"
        ("n/a", None),
        ("pinned", None),
        ("see below", None),
    ],
)
def test_what_a_default_cell_claims(cell: str, expected: str | None) -> None:
    assert default_in_cell(cell) == expected


SEVERAL = """\
ARG CUDA_VERSION=12.6.2
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04
ARG PYTHON_VERSION=3.11
ARG TORCH_TAG=v2.5.1
RUN echo ${PYTHON_VERSION} ${TORCH_TAG}
"""


@pytest.mark.parametrize(
    "header",
    [
        "| 参数 | 默认值 | 说明 |",
        "| Argument | Value | Description |",
        "| Build arg | Default value | Notes |",
    ],
)
def test_a_default_column_in_other_words(header: str) -> None:
    readme = (
        f"## Build args\n\n{header}\n|---|---|---|\n| `CUDA_VERSION` | `12.4.1` | CUDA |\n"
        "| `PYTHON_VERSION` | - | Python |\n| `TORCH_TAG` | none | torch |\n"
        "| `VLLM_TAG` / `AITER_TAG` | pinned | two names, no value |\n"
    )
    assert findings(readme, {"Dockerfile": SEVERAL}) == [
        "5: README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2",
        "8: README documents build arg VLLM_TAG but Dockerfile does not declare it",
        "8: README documents build arg AITER_TAG but Dockerfile does not declare it",
    ]


def test_a_value_column_of_values_a_build_passes_holds_no_defaults() -> None:
    readme = (
        "## Build args passed by CI\n\n| Argument | Value |\n|---|---|\n"
        "| `CUDA_VERSION` | `12.4.1` |\n| `PYTHON_VERSION` | `3.11` |\n| `TORCH_TAG` | `v2.5.1` |\n"
    )
    assert findings(readme, {"Dockerfile": SEVERAL}) == []
    # the nearest drift: the same table of defaults
    defaults = readme.replace("passed by CI", "and their defaults")
    assert findings(defaults, {"Dockerfile": SEVERAL}) == [
        "5: README says CUDA_VERSION defaults to 12.4.1 but Dockerfile:1 says 12.6.2"
    ]


def test_the_default_column() -> None:
    assert default_column(["argument", "default", "description"]) == 1
    assert default_column(["argument", "value", "default value"]) == 2
    assert default_column(["参数", "默认值", "说明"]) == 1
    assert default_column(["argument", "value"], "Example values:") is None
    assert default_column(["argument", "description"]) is None


@pytest.mark.parametrize(
    ("cell", "stale"),
    [
        ("`86f7292...`", False),  # the start of the commit, shortened
        ("`86f7292…`", False),
        ("`86f7293...`", True),  # another commit
        ("`86f...`", True),  # too short to stand for one
    ],
)
def test_a_shortened_default_agrees_with_the_value_it_starts(cell: str, stale: bool) -> None:
    dockerfile = "FROM ubuntu:24.04\nARG OLLAMA_REF=86f72929348d384336b6f0adc129e71b2122abdc\n"
    dockerfile += "RUN git clone https://github.com/ollama/ollama && git -C ollama checkout ${OLLAMA_REF}\n"
    readme = "## Build arguments\n\n| 参数名 | 默认值 | 说明 |\n| :--- | :--- | :--- |\n"
    readme += f"| `OLLAMA_REF` | {cell} | Git commit |\n"
    assert bool(findings(readme, {"Dockerfile": dockerfile})) == stale
