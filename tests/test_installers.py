"""Package managers besides apt and pip: conda / mamba / micromamba, apk, dnf / yum / microdnf / rpm,
`npm install -g`, `go install`, `cargo install`, `uv tool install`, pipx and `python -mpip`.

Snippets come from public-style Dockerfiles (PyTorch's docker/, TGI, micromamba images, Alpine and UBI
bases, Next.js, Go and Rust services, uv's example); each test states what a careful reader of the
snippet sees installed.
"""

from __future__ import annotations

import pytest

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate
from docgen.model import Component, ImageModel
from docgen.render import RenderOptions, render_sections
from docgen.rows import version_rows
from docgen.sources.packages import split_nevra

Row = tuple[str, str | None, str, bool]


def read(text: str) -> tuple[list[Component], list[str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    return list(found), [s.message for s in skipped]


def rows(text: str, *kinds: str) -> list[Row]:
    """(name, version, kind, pinned) of each component of `kinds` (all but images when none given)."""
    found, _ = read(text)
    return [
        (c.name, c.version, c.kind, c.pinned)
        for c in found
        if (c.kind in kinds if kinds else c.kind != "image")
    ]


def only(text: str, name: str) -> Component:
    found, _ = read(text)
    matches = [c for c in found if c.name == name]
    assert len(matches) == 1, [c.name for c in found]
    return matches[0]


# --------------------------------------------------------------------------------------------------
# conda, mamba, micromamba


def test_conda_install_specs_and_build_arg() -> None:
    text = (
        "FROM continuumio/miniconda3:24.7.1-0\nARG PYTHON_VERSION=3.11\n"
        "RUN /opt/conda/bin/conda install -y python=${PYTHON_VERSION} cmake conda-build pyyaml numpy ipython"
        " && /opt/conda/bin/conda clean -ya\n"
    )
    assert rows(text) == [
        ("python", "3.11", "conda", True),
        ("cmake", None, "conda", False),
        ("conda-build", None, "conda", False),
        ("pyyaml", None, "conda", False),
        ("numpy", None, "conda", False),
        ("ipython", None, "conda", False),
    ]
    assert only(text, "python").arg == "PYTHON_VERSION"


def test_micromamba_channels_options_and_ranges() -> None:
    text = (
        "FROM mambaorg/micromamba:1.5.10\nARG PYTORCH_VERSION=2.4.1\n"
        "RUN micromamba install -y -n base -f /tmp/env.yaml && \\\n"
        "    micromamba install -y -n base -c pytorch -c nvidia -c conda-forge \\\n"
        "        pytorch=${PYTORCH_VERSION} \\\n"
        "        pytorch-cuda=12.1 \\\n"
        '        "numpy>=1.26,<2" \\\n'
        "        rdkit==2024.03.5 \\\n"
        "        openmm && \\\n"
        "    micromamba clean --all --yes\n"
    )
    found, skipped = read(text)
    got = {
        c.name: (c.version, c.pinned, c.method, c.source, c.line, c.arg) for c in found if c.kind == "conda"
    }
    assert got == {
        "/tmp/env.yaml": (None, False, "requirements", "/tmp/env.yaml", 3, None),
        "pytorch": ("2.4.1", True, "prebuilt", "https://anaconda.org/pytorch/pytorch", 5, "PYTORCH_VERSION"),
        "pytorch-cuda": ("12.1", True, "prebuilt", "https://anaconda.org/pytorch/pytorch-cuda", 6, None),
        "numpy": (">=1.26,<2", False, "prebuilt", "pytorch, nvidia, conda-forge", 7, None),
        "rdkit": ("2024.03.5", True, "prebuilt", "pytorch, nvidia, conda-forge", 8, None),
        "openmm": (None, False, "prebuilt", "pytorch, nvidia, conda-forge", 9, None),
    }
    # option values are not packages
    assert not {"base", "nvidia", "conda-forge", "-y"} & {c.name for c in found}
    assert skipped == []


def test_conda_quoted_specs_from_build_args_with_channels_from_args() -> None:
    text = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        "ARG PYTHON_VERSION=3.11\nARG PYTORCH_VERSION=2.6.0\nARG INSTALL_CHANNEL=pytorch\n"
        'RUN /opt/conda/bin/conda install -c "${INSTALL_CHANNEL}" -y "python=${PYTHON_VERSION}" '
        '"pytorch=$PYTORCH_VERSION" "pytorch-cuda=$(echo $CUDA_VERSION | cut -d. -f 1-2)"\n'
    )
    found, _ = read(text)
    got = {c.name: (c.version, c.pinned, c.arg, c.source) for c in found if c.kind == "conda"}
    assert got["python"] == ("3.11", True, "PYTHON_VERSION", "https://anaconda.org/pytorch/python")
    assert got["pytorch"] == ("2.6.0", True, "PYTORCH_VERSION", "https://anaconda.org/pytorch/pytorch")
    name, version = "pytorch-cuda", got["pytorch-cuda"][0]
    assert version is None and got[name][1] is False  # `$(…)`: the shell decides; shown unpinned


@pytest.mark.parametrize(
    ("spec", "version", "pinned"),
    [
        ("numpy", None, False),
        ("numpy=1.26.4", "1.26.4", True),
        ("numpy=1.26.4=py311h64a7726_0", "1.26.4", True),
        ("numpy==1.26.4", "1.26.4", True),
        ("'numpy>=1'", ">=1", False),
        ('"numpy 1.26"', "1.26", True),
        ("numpy=1.26.*", "1.26.*", False),
        ("'numpy=1.25|1.26'", "1.25|1.26", False),
        ("conda-forge::numpy=1.26.4", "1.26.4", True),
    ],
)
def test_conda_spec_forms(spec: str, version: str | None, pinned: bool) -> None:
    c = only(f"FROM continuumio/miniconda3\nRUN conda install -y {spec}\n", "numpy")
    assert (c.version, c.pinned, c.kind) == (version, pinned, "conda")


def test_conda_channel_written_in_the_spec_is_the_source() -> None:
    c = only("FROM continuumio/miniconda3\nRUN mamba install -y conda-forge::numpy=1.26.4\n", "numpy")
    assert c.source == "https://anaconda.org/conda-forge/numpy"


def test_conda_create_and_run() -> None:
    text = (
        "FROM continuumio/miniconda3:24.7.1-0 AS conda\n"
        "RUN conda create -n app python=3.10 -y && \\\n"
        "    conda install -n app -c conda-forge -y numpy=1.26.4 scipy pandas=2.2.2 && \\\n"
        "    conda run -n app pip install fastapi==0.115.0\n"
    )
    assert rows(text) == [
        ("python", "3.10", "conda", True),
        ("numpy", "1.26.4", "conda", True),
        ("scipy", None, "conda", False),
        ("pandas", "2.2.2", "conda", True),
        ("fastapi", "0.115.0", "pip", True),
    ]


def test_conda_env_create_clean_and_update_are_not_packages() -> None:
    found, skipped = read(
        "FROM continuumio/miniconda3\n"
        "RUN conda env create -f env.yml && conda clean -afy\n"
        "RUN /opt/conda/bin/conda update -y -n base -c defaults conda\n"
        "RUN conda config --add channels conda-forge\n"
    )
    assert [c.kind for c in found] == ["image"]
    assert skipped == ["conda env create is not read by docgen: conda env create -f env.yml"]


# --------------------------------------------------------------------------------------------------
# apk


def test_apk_pins_ranges_and_virtual_group() -> None:
    text = (
        "FROM alpine:3.20\nARG NGINX_VERSION=1.26.2-r0\n"
        "RUN apk add --no-cache \\\n"
        "        nginx=${NGINX_VERSION} \\\n"
        "        ca-certificates \\\n"
        "        python3=~3.12 \\\n"
        "        py3-pip \\\n"
        "    && apk add --no-cache --virtual .build-deps gcc musl-dev python3-dev \\\n"
        "    && pip3 install --no-cache-dir --break-system-packages supervisor==4.2.5 \\\n"
        "    && apk del .build-deps\n"
    )
    found, skipped = read(text)
    assert [(c.name, c.version, c.kind, c.pinned, c.method) for c in found if c.kind == "apk"] == [
        ("nginx", "1.26.2-r0", "apk", True, "package"),
        ("ca-certificates", None, "apk", False, "package"),
        ("python3", "=~3.12", "apk", False, "package"),
        ("py3-pip", None, "apk", False, "package"),
    ]
    assert only(text, "nginx").arg == "NGINX_VERSION"
    assert only(text, "supervisor").version == "4.2.5"
    assert not {".build-deps", "gcc", "musl-dev"} & {c.name for c in found}
    assert skipped == [
        "apk add --virtual .build-deps: build dependencies removed again with apk del, not listed: "
        "gcc musl-dev python3-dev"
    ]


def test_apk_options_before_the_subcommand_and_fuzzy_version() -> None:
    text = (
        "FROM alpine:3.20\n"
        "RUN apk --no-cache add -X https://dl-cdn.alpinelinux.org/alpine/edge/testing tini~0.19\n"
    )
    c = only(text, "tini")
    assert (c.version, c.pinned, c.source) == (
        "~0.19",
        False,
        "https://dl-cdn.alpinelinux.org/alpine/edge/testing",
    )


# --------------------------------------------------------------------------------------------------
# dnf, yum, microdnf, rpm


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("libcublas-12-4-12.4.5.8-1", ("libcublas-12-4", "12.4.5.8-1")),
        ("cuda-cudart-12-4", ("cuda-cudart-12-4", None)),
        ("python3.12-devel", ("python3.12-devel", None)),
        ("gcc-c++", ("gcc-c++", None)),
        ("java-1.8.0-openjdk", ("java-1.8.0-openjdk", None)),
        (
            "nodejs-20.11.1-1.module+el9.3.0+21189+2a3c4e5f.x86_64",
            ("nodejs", "20.11.1-1.module+el9.3.0+21189+2a3c4e5f"),
        ),
        ("kernel-devel-5.14.0-427.el9", ("kernel-devel", "5.14.0-427.el9")),
        ("openssl-3.0.7", ("openssl-3.0.7", None)),
        ("pandoc-3.5-1.x86_64", ("pandoc", "3.5-1")),
    ],
)
def test_rpm_name_version_split_only_when_unambiguous(word: str, expected: tuple[str, str | None]) -> None:
    assert split_nevra(word) == expected


def test_dnf_repo_packages_and_rpm_urls() -> None:
    text = (
        "FROM registry.access.redhat.com/ubi9/ubi:9.5\nARG CUDA_MAJOR=12\nARG CUDA_MINOR=4\n"
        "RUN dnf config-manager --add-repo "
        "https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/cuda-rhel9.repo && \\\n"
        "    dnf install -y --setopt=install_weak_deps=False --enablerepo crb \\\n"
        "        cuda-cudart-${CUDA_MAJOR}-${CUDA_MINOR} \\\n"
        "        libcublas-${CUDA_MAJOR}-${CUDA_MINOR}-12.4.5.8-1 && \\\n"
        "    dnf install -y https://dl.fedoraproject.org/pub/epel/epel-release-latest-9.noarch.rpm && \\\n"
        "    dnf clean all\n"
        "RUN yum install -y gcc-c++ make && yum clean all\n"
        "RUN rpm -ivh https://github.com/jgm/pandoc/releases/download/3.5/pandoc-3.5-1.x86_64.rpm || true\n"
        "RUN rpm --import https://example.com/RPM-GPG-KEY && rpm -qa\n"
    )
    found, skipped = read(text)
    assert [(c.name, c.version, c.kind, c.pinned, c.method) for c in found if c.kind != "image"] == [
        ("cuda-rhel9", None, "rpm-repo", False, "package"),
        ("cuda-cudart-12-4", None, "rpm", False, "package"),
        ("libcublas-12-4", "12.4.5.8-1", "rpm", True, "package"),
        ("epel-release", None, "download", False, "prebuilt"),
        ("gcc-c++", None, "rpm", False, "package"),
        ("make", None, "rpm", False, "package"),
        ("pandoc", "3.5-1", "download", True, "prebuilt"),
    ]
    assert not {"crb", "install_weak_deps=False"} & {c.name for c in found}
    assert skipped == []


def test_microdnf_and_yum_config_manager() -> None:
    text = (
        "FROM registry.access.redhat.com/ubi9/ubi-minimal:9.5\nARG PYTHON_VERSION=3.12\n"
        "RUN microdnf install -y --nodocs python${PYTHON_VERSION}-devel shadow-utils\n"
        "RUN yum-config-manager --add-repo=https://repo.radeon.com/rocm/rhel9/6.2.4/main \\\n"
        " && yum-config-manager --add-repo https://dl.rockylinux.org/vault/rocky/8.5/AppStream/\\$basearch/\n"
        "RUN dnf -y module install nodejs:20\n"
    )
    found, skipped = read(text)
    assert [(c.name, c.version, c.kind, c.pinned) for c in found if c.kind != "image"] == [
        ("python3.12-devel", None, "rpm", False),
        ("shadow-utils", None, "rpm", False),
        ("rocm", "6.2.4", "rpm-repo", True),
        ("rocky", "8.5", "rpm-repo", True),
    ]
    assert skipped == ["dnf module is not read by docgen: dnf -y module install nodejs:20"]


# --------------------------------------------------------------------------------------------------
# npm, go, cargo


def test_npm_global_installs_only() -> None:
    text = (
        "FROM node:20-alpine\n"
        "RUN npm ci && npm install && npm install express@4.21.0\n"
        "RUN npm install -g pnpm@9.15.0 turbo@^2 @angular/cli@18.2.1 typescript\n"
        "RUN npm i --location=global --registry https://registry.example.com/ yarn@1.22.22\n"
        "RUN yarn global add serve@14.2.4 && yarn install --frozen-lockfile\n"
    )
    assert rows(text) == [
        ("pnpm", "9.15.0", "npm", True),
        ("turbo", "^2", "npm", False),
        ("@angular/cli", "18.2.1", "npm", True),
        ("typescript", None, "npm", False),
        ("yarn", "1.22.22", "npm", True),
        ("serve", "14.2.4", "npm", True),
    ]
    assert only(text, "pnpm").source == "https://www.npmjs.com/package/pnpm"
    assert only(text, "yarn").source == "https://registry.example.com/"


def test_go_install_versions_and_build_arg() -> None:
    text = (
        "FROM golang:1.23.4-alpine3.21\nARG GOLANGCI_LINT_VERSION=v1.62.2\n"
        "RUN go install github.com/golangci/golangci-lint/cmd/golangci-lint@${GOLANGCI_LINT_VERSION} \\\n"
        " && go install -ldflags '-s -w' github.com/swaggo/swag/cmd/swag@v1.16.4 \\\n"
        " && go install golang.org/x/tools/cmd/goimports@latest \\\n"
        " && go install github.com/org/tool/v2@master \\\n"
        " && go install ./cmd/... && go build -o /out/server ./cmd/server\n"
    )
    found, _ = read(text)
    got = [(c.name, c.version, c.ref, c.pinned, c.method) for c in found if c.kind == "go"]
    assert got == [
        ("golangci-lint", "v1.62.2", None, True, "source"),
        ("swag", "v1.16.4", None, True, "source"),
        ("goimports", None, None, False, "source"),
        ("tool", None, "master", False, "source"),
    ]
    c = only(text, "golangci-lint")
    assert (c.arg, c.source, c.line) == (
        "GOLANGCI_LINT_VERSION",
        "https://pkg.go.dev/github.com/golangci/golangci-lint/cmd/golangci-lint",
        3,
    )


def test_cargo_install_and_cargo_build() -> None:
    text = (
        "FROM rust:1.83.0-slim-bookworm\n"
        "RUN cargo install cargo-chef --version 0.1.68 --locked \\\n"
        " && cargo install sqlx-cli@0.8.2 --no-default-features --features postgres \\\n"
        " && cargo install --git https://github.com/org/tool --tag v1.2.0 tool \\\n"
        " && cargo +nightly install just@^1\n"
        "RUN git clone https://github.com/org/app /src/app && cd /src/app && cargo build --release\n"
    )
    found, _ = read(text)
    got = [(c.name, c.version, c.ref, c.pinned, c.source) for c in found if c.kind == "cargo"]
    assert got == [
        ("cargo-chef", "0.1.68", None, True, "https://crates.io/crates/cargo-chef"),
        ("sqlx-cli", "0.8.2", None, True, "https://crates.io/crates/sqlx-cli"),
        ("tool", None, "v1.2.0", True, "https://github.com/org/tool"),
        ("just", "^1", None, False, "https://crates.io/crates/just"),
    ]
    assert not {"postgres", "--locked"} & {c.name for c in found}
    app = only(text, "app")
    assert (app.kind, app.method) == ("git", "source")  # `cargo build` still marks the clone as built


def test_cargo_install_path_marks_the_clone_built() -> None:
    text = (
        "FROM rust:1.83\nRUN git clone https://github.com/org/cli /src/cli && cargo install --path /src/cli\n"
    )
    found, _ = read(text)
    assert [(c.name, c.kind, c.method) for c in found if c.kind != "image"] == [("cli", "git", "source")]


# --------------------------------------------------------------------------------------------------
# uv tool, pipx, python -mpip


def test_uv_tool_and_pipx_are_pip_packages() -> None:
    text = (
        "FROM python:3.12-slim\n"
        "RUN uv pip install --system 'httpx==0.27.2' && uv tool install ruff@0.6.9 \\\n"
        " && uv tool install --python 3.12 --with 'mypy-extensions==1.0.0' mypy \\\n"
        " && uv tool install --from 'black==24.10.0' black \\\n"
        " && pipx install --pip-args=--no-cache-dir poetry==1.8.4 && pipx install pre-commit\n"
    )
    assert rows(text) == [
        ("httpx", "0.27.2", "pip", True),
        ("ruff", "0.6.9", "pip", True),
        ("mypy", None, "pip", False),
        ("mypy-extensions", "1.0.0", "pip", True),
        ("black", "24.10.0", "pip", True),
        ("poetry", "1.8.4", "pip", True),
        ("pre-commit", None, "pip", False),
    ]
    assert only(text, "ruff").source == "https://pypi.org/project/ruff/"


def test_python_dash_m_pip_without_a_space() -> None:
    text = "FROM python:3.11\nRUN /opt/conda/bin/python -mpip install -r requirements.txt numpy==2.1.3\n"
    found, _ = read(text)
    assert [(c.name, c.version, c.method) for c in found if c.kind == "pip"] == [
        ("numpy", "2.1.3", "prebuilt"),
    ]


def test_still_unread_installers_are_noted() -> None:
    _, skipped = read("FROM ruby:3.3\nRUN gem install bundler:2.5.0\n")
    assert skipped == ["gem install is not read by docgen: gem install bundler:2.5.0"]


# --------------------------------------------------------------------------------------------------
# What users see


def _model(text: str) -> ImageModel:
    parsed = parse_dockerfile(text, "Dockerfile")
    evaluation = evaluate(parsed)
    found, skipped = extract(parsed, evaluation)
    return ImageModel(
        path="Dockerfile",
        stages=evaluation.stages,
        args=evaluation.args,
        env=evaluation.env,
        components=found,
        skipped=tuple(skipped),
    )


def test_conda_pytorch_is_a_key_version() -> None:
    model = _model(
        "FROM mambaorg/micromamba:1.5.10\nARG PYTORCH_VERSION=2.4.1\n"
        "RUN micromamba install -y -c pytorch python=3.11 pytorch=${PYTORCH_VERSION}\n"
    )
    got = [(r.name, r.version, r.arg) for r in version_rows(model, {}, None)]
    assert ("PyTorch", "2.4.1", "PYTORCH_VERSION") in got
    assert ("Python", "3.11", None) in got


def test_contents_table_groups_the_new_kinds() -> None:
    model = _model(
        "FROM alpine:3.20\nRUN apk add --no-cache nginx=1.26.2-r0\n"
        "RUN go install github.com/swaggo/swag/cmd/swag@v1.16.4\nRUN npm install -g pnpm@9.15.0\n"
    )
    contents = render_sections(model, RenderOptions(), ["contents"])["contents"]
    prebuilt, _, rest = contents.partition("**Built from source**")
    source, _, packages = rest.partition("**Also installed:**")
    assert "pnpm" in prebuilt and "swag" in source and "nginx" in packages
    assert "[www.npmjs.com/package/pnpm](https://www.npmjs.com/package/pnpm)" in prebuilt


def test_rpm_modes_and_local_files() -> None:
    found, skipped = read(
        "FROM rockylinux:9\n"
        "RUN rpm -Uvh --nodeps https://example.com/pkgs/tool-2.1.0-3.el9.x86_64.rpm\n"
        "RUN rpm -qa | grep tool && rpm -e tool\n"
        "COPY local.rpm /tmp/\nRUN dnf install -y /tmp/local.rpm && rpm -i /tmp/local.rpm\n"
    )
    assert [(c.name, c.version, c.kind, c.pinned) for c in found if c.kind != "image"] == [
        ("tool", "2.1.0-3.el9", "download", True)
    ]
    assert skipped == []
