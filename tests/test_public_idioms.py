"""Idioms of public Dockerfiles that docgen once misread (from a QA pass over Dockerfiles modelled on
Megatron-LM, NeMo, ollama, vLLM, SGLang, TGI, TensorFlow and Jupyter's): each test is the snippet
that showed the problem and what a careful reader of that snippet sees."""

from __future__ import annotations

import pytest

from docgen.components import extract, split_image
from docgen.dockerfile import parse_dockerfile
from docgen.errors import DocgenError
from docgen.evaluate import evaluate
from docgen.lint import lint
from docgen.model import Component
from docgen.sources.naming import strip_platform


def components(text: str) -> list[Component]:
    parsed = parse_dockerfile(text)
    return list(extract(parsed, evaluate(parsed))[0])


def rows(text: str) -> list[tuple[str, str | None, str, int, str | None]]:
    """(name, version or ref, kind, line, arg) of each component."""
    return [(c.name, c.version or c.ref, c.kind, c.line, c.arg) for c in components(text)]


def warnings(text: str) -> list[tuple[int, str]]:
    parsed = parse_dockerfile(text)
    evaluation = evaluate(parsed)
    found = lint(parsed, evaluation, extract(parsed, evaluation)[0])
    return [(d.line, d.message) for d in found]


# --------------------------------------------------------------------------------------------------
# FROM


def test_base_image_given_only_with_build_arg() -> None:
    """Megatron-LM: `ARG FROM_IMAGE_NAME` (no default) / `FROM $FROM_IMAGE_NAME` is read, not refused."""
    text = "ARG FROM_IMAGE_NAME\nFROM $FROM_IMAGE_NAME as main\nRUN pip install x==1\n"
    parsed = parse_dockerfile(text)
    evaluation = evaluate(parsed)
    assert evaluation.stages[0].base == "${FROM_IMAGE_NAME}"
    found = components(text)
    assert [(c.name, c.version, c.pinned, c.arg) for c in found] == [
        ("${FROM_IMAGE_NAME}", None, False, "FROM_IMAGE_NAME"),
        ("x", "1", True, None),
    ]


def test_unset_image_name_with_a_known_tag() -> None:
    text = "ARG IMG\nARG TAG=1.0\nFROM ${IMG}:${TAG}\n"
    assert evaluate(parse_dockerfile(text)).stages[0].base == "${IMG}:1.0"
    (image,) = components(text)
    assert (image.name, image.version, image.pinned) == ("${IMG}", "1.0", False)


def test_required_image_name_is_one_word() -> None:
    """`${IMG:?}` is not split at its colon into image `${IMG` and tag `?}`."""
    (image,) = components("ARG IMG\nFROM ${IMG:?} AS a\n")
    assert (image.name, image.version, image.pinned) == ("${IMG:?}", None, False)
    assert split_image("${REGISTRY}/cuda:${TAG}@sha256:ab") == ("${REGISTRY}/cuda", "${TAG}", "sha256:ab")
    assert split_image("ubuntu") == ("ubuntu", "latest", None)


@pytest.mark.parametrize("text", ['ARG B=""\nFROM $B\n', "FROM $NOT_DECLARED\n"])
def test_a_base_no_build_arg_can_fill_is_still_an_error(text: str) -> None:
    with pytest.raises(DocgenError, match="expands to an empty image name"):
        evaluate(parse_dockerfile(text))


def test_stage_chosen_by_platform_arg() -> None:
    """ollama: `FROM base-${TARGETARCH}` builds on the base-amd64 or base-arm64 stage, not an image."""
    text = (
        "ARG FLAVOR=${TARGETARCH}\n"
        "FROM --platform=linux/amd64 almalinux:8 AS base-amd64\n"
        "ENV ARCH_DIR=x86_64\n"
        "FROM --platform=linux/arm64 almalinux:8 AS base-arm64\n"
        "FROM base-${TARGETARCH} AS base\n"
        "RUN pip install x==1\n"
        "FROM ${FLAVOR} AS archive\n"
    )
    stages = evaluate(parse_dockerfile(text)).stages
    assert (stages[2].parent, stages[2].depends_on, stages[2].base) == (0, (1,), "base-${TARGETARCH}")
    assert stages[3].parent is None  # wholly unknown: could be any stage or image
    names = [c.name for c in components(text)]
    assert "base-${TARGETARCH}" not in names
    assert names.count("almalinux") == 2


def test_image_arg_is_the_one_that_sets_the_version() -> None:
    """Not the alphabetically first: golang is set by GO_VERSION, nvidia/cuda by CUDA."""
    text = (
        "ARG GO_VERSION=1.23.4\nARG ALPINE_VERSION=3.21\nARG CUDA=12.3.2\nARG UBUNTU_VERSION=22.04\n"
        "FROM golang:${GO_VERSION}-alpine${ALPINE_VERSION} AS builder\n"
        "FROM nvidia/cuda:${CUDA}-base-ubuntu${UBUNTU_VERSION}\n"
    )
    assert [(c.name, c.arg) for c in components(text)] == [("golang", "GO_VERSION"), ("nvidia/cuda", "CUDA")]


# --------------------------------------------------------------------------------------------------
# RUN


def test_clone_from_args_without_defaults_shows_the_args() -> None:
    text = (
        "FROM ubuntu:22.04\nARG MCORE_REPO\nARG MCORE_REF\n"
        "RUN git init && git remote add origin ${MCORE_REPO} && git fetch origin $MCORE_REF "
        "&& git checkout $MCORE_REF\n"
    )
    git = components(text)[1]
    assert (git.name, git.source, git.ref, git.ref_kind, git.pinned) == (
        "${MCORE_REPO}",
        "${MCORE_REPO}",
        "${MCORE_REF}",
        None,
        False,
    )
    assert warnings(text) == [
        (
            4,
            "git clone of ${MCORE_REPO} checks out ${MCORE_REF}, which has no value here; give build "
            "arg MCORE_REF a commit or tag as its default",
        )
    ]


def test_comment_as_second_line_keeps_line_numbers() -> None:
    """Jupyter docker-stacks: a comment right after the first line of a RUN."""
    text = (
        "FROM ubuntu:24.04\n"
        "RUN apt-get update && \\\n"
        "    # - `apt-get upgrade` is run\n"
        "    apt-get install --yes \\\n"
        "    bzip2 \\\n"
        "    wget\n"
    )
    assert [(c.name, c.line) for c in components(text)[1:]] == [("bzip2", 5), ("wget", 6)]


def test_pip_wheel_of_remote_requirements() -> None:
    """Megatron-LM builds wheels of git sources and pins in a builder stage, then installs them."""
    text = (
        "FROM python:3.12 AS w\n"
        "RUN pip3 wheel -v git+https://github.com/fanshiqing/grouped_gemm@v1.1.2\n"
        "RUN pip wheel --no-deps flash-attn==2.7.4 -w /wheels\n"
        "RUN git clone https://github.com/o/proj /proj && cd /proj && git checkout v1.0 && pip wheel .\n"
    )
    assert [(name, version, kind) for name, version, kind, _, _ in rows(text)] == [
        ("python", "3.12", "image"),
        ("grouped_gemm", "v1.1.2", "git"),
        ("flash-attn", "2.7.4", "pip"),
        ("proj", "v1.0", "git"),
    ]
    assert components(text)[3].method == "source"  # `pip wheel .` builds the clone


def test_pip_requirement_whose_version_the_shell_sets() -> None:
    """vLLM: the version comes from an if/else in the same RUN; the package is still listed."""
    text = (
        "FROM python:3.12\n"
        'RUN if [ "$TARGETPLATFORM" = "linux/arm64" ]; then V="0.42.0"; else V="0.46.1"; fi; \\\n'
        "    uv pip install --system accelerate \"bitsandbytes>=${V}\" 'timm==0.9.10' "
        "runai-model-streamer runai-model-streamer[s3]\n"
    )
    assert [(name, version) for name, version, _, _, _ in rows(text)[1:]] == [
        ("accelerate", None),
        ("bitsandbytes", None),
        ("timm", "0.9.10"),
        ("runai-model-streamer", None),
    ]


def test_editable_folder_with_extras_is_local() -> None:
    """SGLang: `pip install -e "python[all]"` installs the checkout's python/ folder, not PyPI's python."""
    text = (
        "FROM python:3.12\nARG BUILD_TYPE=all\n"
        "RUN git clone https://github.com/sgl-project/sglang.git && cd sglang && git checkout v0.4.0 \\\n"
        '    && python3 -m pip install -e "python[${BUILD_TYPE}]"\n'
    )
    found = components(text)
    assert [(c.name, c.ref, c.method) for c in found[1:]] == [("sglang", "v0.4.0", "source")]


def test_requirements_file_only_the_shell_knows_is_skipped() -> None:
    """NeMo: `for f in requirements*.txt; do pip install -r $f; done` has no file name to show."""
    text = "FROM python:3.12\nRUN for f in $(ls requirements*.txt); do pip3 install -r $f; done\n"
    assert [c.name for c in components(text)] == ["python"]
    arg = "FROM python:3.12\nARG CUDA=cu124\nRUN pip install -r requirements-${CUDA}.txt\n"
    assert [c.name for c in components(arg)][1:] == []  # a file of pins is not itself a row


# --------------------------------------------------------------------------------------------------
# lint


def test_literal_in_an_unrelated_stage_is_not_the_args() -> None:
    """TGI: the Rust builder's python3.11-dev is not tied to PYTHON_VERSION of the conda stage."""
    text = (
        "FROM rust:1.85 AS builder\n"
        "RUN apt-get install -y --no-install-recommends python3.11-dev\n"
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS pytorch-install\n"
        "ARG PYTHON_VERSION=3.11\n"
        "RUN conda install python=${PYTHON_VERSION}\n"
        "FROM ubuntu:22.04\n"
        "COPY --from=pytorch-install /opt/conda/lib/python3.11/site-packages /opt/site-packages\n"
    )
    assert [line for line, _ in warnings(text)] == [7]


def test_a_global_arg_claims_every_stage() -> None:
    text = (
        "ARG PYTHON_VERSION=3.11\nFROM ubuntu:22.04 AS a\nARG PYTHON_VERSION\nRUN echo $PYTHON_VERSION\n"
        "FROM ubuntu:22.04 AS b\nRUN apt-get install -y python3.11-dev\n"
    )
    assert [line for line, _ in warnings(text)] == [6]


@pytest.mark.parametrize("read", ["$env:PYTHON_VERSION", "${env:PYTHON_VERSION}", "%PYTHON_VERSION%"])
def test_args_read_the_windows_way_are_used(read: str) -> None:
    text = (
        "# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\nARG PYTHON_VERSION=3.12.7\n"
        'SHELL ["powershell", "-Command"]\n'
        f'RUN Invoke-WebRequest -Uri "https://www.python.org/ftp/python/{read}/python.exe" -OutFile p.exe\n'
    )
    assert warnings(text) == []


def test_cache_bust_arg_is_used_by_the_runs_after_it() -> None:
    text = "FROM ubuntu:22.04\nARG CACHEBUST=0\nRUN pip install jet-client --upgrade\n"
    assert [m for _, m in warnings(text) if "never used" in m] == []
    unused = "FROM ubuntu:22.04\nARG TORCH_VERSION=2.4.0\nRUN pip install jet-client --upgrade\n"
    assert [m for _, m in warnings(unused)] == ["build arg TORCH_VERSION is declared but never used"]


def test_whole_base_image_arg_used_in_a_run_of_its_stage() -> None:
    """NeMo: `${BASE_IMAGE}` in a RUN of the stage FROM ${BASE_IMAGE} is empty there."""
    text = (
        "ARG BASE_IMAGE=nvcr.io/nvidia/pytorch:24.07-py3\nFROM ${BASE_IMAGE} as nemo\n"
        'RUN /bin/echo "export BASE_IMAGE=${BASE_IMAGE}" >> /root/.bashrc\n'
    )
    assert [(line, m.split(",")[0]) for line, m in warnings(text)] == [
        (3, "${BASE_IMAGE} is used in stage nemo")
    ]
    tag = "ARG CUDA_VERSION=12.4.1\nFROM nvidia/cuda:${CUDA_VERSION}-devel\nRUN echo ${CUDA_VERSION}\n"
    assert warnings(tag) == []  # the image sets an ENV of that name


def test_go_and_cargo_installs_of_a_branch_are_warned() -> None:
    text = (
        "FROM golang:1.23\n"
        "RUN go install github.com/x/tool/cmd/tool@master \\\n"
        "    && go install golang.org/x/tools/cmd/goimports@v0.3.0\n"
        "RUN cargo install --git https://github.com/o/r --branch main rtool && cargo install sqlx-cli@0.8.2\n"
    )
    assert warnings(text) == [
        (2, "go install of tool builds branch master, which moves; pin a version, tag or commit"),
        (4, "cargo install of rtool builds branch main, which moves; pin a version, tag or commit"),
    ]


def test_download_version_is_the_whole_arg_value_the_file_name_repeats() -> None:
    text = (
        "FROM ubuntu:22.04\nARG FOO_VERSION=1.2.3-4\n"
        "RUN curl -LO https://example.com/dl/foo-${FOO_VERSION}.tar.gz\n"
        "ADD https://example.com/dl/bar-${FOO_VERSION}-linux.tar.gz /tmp/\n"
    )
    assert [(c.name, c.version, c.arg) for c in components(text)[1:]] == [
        ("foo", "1.2.3-4", "FOO_VERSION"),
        ("bar", "1.2.3-4", "FOO_VERSION"),
    ]


def test_unquoted_variables_are_split_into_words() -> None:
    """`PKGS="git wget"; apt-get install $PKGS`: the shell passes two words."""
    text = 'FROM ubuntu:22.04\nARG EXTRA="curl jq"\nRUN P="git wget"; apt-get install -y $P ${EXTRA} "$P-x"\n'
    # ("$P-x" is one word, "git wget-x", which is no package name)
    assert [c.name for c in components(text)[1:]] == ["git", "wget", "curl", "jq"]


def test_bash_arrays() -> None:
    """Ray: `APT_PKGS=( … )` then `apt-get install "${APT_PKGS[@]}"`."""
    text = (
        "FROM ubuntu:22.04\n"
        "RUN <<EOF\n"
        "APT_PKGS=(\n"
        "    git  # for the sources\n"
        "    wget\n"
        ")\n"
        "APT_PKGS+=(curl)\n"
        'apt-get install -y "${APT_PKGS[@]}"\n'
        "PIP_PKGS=(setuptools==71.1.0 cython)\n"
        'pip install "${PIP_PKGS[@]}"\n'
        "EOF\n"
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [
        ("git", None),
        ("wget", None),
        ("curl", None),
        ("setuptools", "71.1.0"),
        ("cython", None),
    ]


def test_python_m_uv_pip() -> None:
    text = (
        "FROM python:3.10\nRUN python3.10 -m uv pip install --no-cache-dir torch==2.5.1 invisible_watermark\n"
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [
        ("torch", "2.5.1"),
        ("invisible_watermark", None),
    ]


def test_arg_holding_a_whole_requirement_is_linked() -> None:
    """Horovod: `ARG PYTORCH_PACKAGE=torch==1.10.1+cu113` / `pip install ${PYTORCH_PACKAGE}`."""
    text = "FROM python:3.10\nARG PYTORCH_PACKAGE=torch==1.10.1+cu113\nRUN pip install ${PYTORCH_PACKAGE}\n"
    (torch,) = components(text)[1:]
    assert (torch.name, torch.version, torch.arg) == ("torch", "1.10.1+cu113", "PYTORCH_PACKAGE")


def test_version_from_a_command_substitution_is_not_shown_as_one() -> None:
    text = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV CUDA_VERSION=12.4.1\n"
        "RUN conda install -y \"pytorch-cuda=$(echo $CUDA_VERSION | cut -d'.' -f 1-2)\"\n"
    )
    (conda,) = components(text)[1:]
    assert (conda.name, conda.version, conda.pinned) == ("pytorch-cuda", None, False)


def test_blank_continuation_lines_keep_line_numbers() -> None:
    """docker-library's style: a line holding only a tab and the escape."""
    text = (
        "FROM debian:bookworm-slim\n"
        "RUN set -ex; \\\n"
        "\t\\\n"
        "\texport A=1; \\\n"
        "\tapt-get install -y gcc; \\\n"
        "\tapt-get install -y \\\n"
        "\t\tmake\n"
    )
    assert [(c.name, c.line) for c in components(text)[1:]] == [("gcc", 5), ("make", 7)]


def test_purpose_is_only_the_comment_lines_right_above() -> None:
    parsed = parse_dockerfile(
        "# The base image of the Ray images.\n\n"
        "# Target the CUDA build image\nARG C=nvidia/cuda:12.4.0\n\nARG D=x\n"
        'FROM ubuntu\n# Install dependencies\n# TODO: Add --std=c++14\nARG COMPILER_LAUNCHER=""\n'
    )
    described = {a.name: a.description for a in evaluate(parsed).args}
    assert described == {"C": "Target the CUDA build image", "D": "", "COMPILER_LAUNCHER": ""}


def test_pip_install_of_a_github_archive_is_the_repository_at_that_ref() -> None:
    """MIOpen CI: `pip3 install https://github.com/RadeonOpenCompute/rbuild/archive/<sha>.tar.gz`."""
    text = (
        "FROM ubuntu:22.04\nRUN pip3 install "
        "https://github.com/RadeonOpenCompute/rbuild/archive/6d78a0553babdaea8d2da5de15cbda7e869594b8.tar.gz "
        "https://gitlab.com/o/tool/archive/refs/tags/v1.2.0.zip https://github.com/o/t2/archive/main.tar.gz\n"
    )
    assert [(c.name, c.ref, c.source, c.pinned) for c in components(text)[1:]] == [
        (
            "rbuild",
            "6d78a0553babdaea8d2da5de15cbda7e869594b8",
            "https://github.com/RadeonOpenCompute/rbuild",
            True,
        ),
        ("tool", "v1.2.0", "https://gitlab.com/o/tool", True),
        ("t2", "main", "https://github.com/o/t2", False),
    ]
    assert [m for _, m in warnings(text)] == [
        "download of https://github.com/o/t2/archive/main.tar.gz takes branch main, which moves; "
        "put a commit or tag in the URL"
    ]


def test_arg_defaulting_to_itself_with_a_fallback_is_not_warned() -> None:
    """Ray: `ARG HOSTTYPE=${HOSTTYPE:-x86_64}` means "x86_64 unless given"."""
    assert warnings("FROM ubuntu:22.04\nARG HOSTTYPE=${HOSTTYPE:-x86_64}\nRUN echo $HOSTTYPE\n") == []
    assert len(warnings("FROM ubuntu:22.04\nARG HOSTTYPE=${HOSTTYPE}\nRUN echo $HOSTTYPE\n")) == 1


def test_apt_repositories_added_indirectly() -> None:
    """MIOpen CI and LocalAI: `sh -c 'echo deb …'` unquoted, and a sources list downloaded whole."""
    text = (
        "FROM ubuntu:22.04\n"
        "RUN export ROCM_APT_VER=6.3;\\\n"
        "sh -c 'echo deb [arch=amd64 trusted=yes] http://repo.radeon.com/rocm/apt/$ROCM_APT_VER/ jammy main "
        "> /etc/apt/sources.list.d/rocm.list'\n"
        "RUN wget -qO /etc/apt/sources.list.d/lunarg-vulkan-jammy.list "
        "https://packages.lunarg.com/vulkan/lunarg-vulkan-jammy.list\n"
    )
    assert [(c.name, c.version, c.kind, c.line) for c in components(text)[1:]] == [
        ("rocm", "6.3", "apt-repo", 3),
    ]  # the lunarg list names no release: a source of packages, not a row


def test_variables_set_in_branches_are_unknown() -> None:
    """SGLang: CUINDEX is set by a `case` branch; the index is not the last branch's."""
    text = (
        "FROM python:3.12\nARG CUDA_VERSION=12.6.1\n"
        'RUN case "$CUDA_VERSION" in 12.6.1) CUINDEX=126 ;; 12.8.1) CUINDEX=128 ;; esac \\\n'
        " && pip install torch --index-url https://download.pytorch.org/whl/cu${CUINDEX}\n"
        'RUN if [ -n "$X" ]; then V=1; else V=2; fi; pip install foo==$V\n'
        "RUN V=3; pip install bar==$V\n"
    )
    assert [(c.name, c.version, c.source) for c in components(text)[1:]] == [
        ("torch", None, "https://download.pytorch.org/whl/cu${CUINDEX}"),
        ("foo", None, "https://pypi.org/project/foo/"),
        ("bar", "3", "https://pypi.org/project/bar/"),
    ]


def test_package_whose_version_arg_has_no_default_is_listed() -> None:
    text = 'FROM python:3.12\nARG TORCH_VERSION\nRUN pip install "torch==${TORCH_VERSION}"\n'
    (torch,) = components(text)[1:]
    assert (torch.name, torch.version, torch.pinned, torch.arg) == ("torch", None, False, "TORCH_VERSION")


def test_malformed_specs_give_no_nameless_rows() -> None:
    text = "FROM alpine:3.20\nRUN go install @v1.2.3 && cargo install @1.0 && apk add foo~\n"
    assert [(c.name, c.version) for c in components(text)[1:]] == [("foo", None)]


def test_headers_banners_and_tool_directives_are_not_purposes() -> None:
    parsed = parse_dockerfile(
        "# ---------- Build stage ----------\nARG PYTHON_VERSION=3.11\n"
        "##############################\n# Base image\n##############################\n"
        "ARG BASE=ubuntu:22.04\n"
        "# Copyright (c) 2024, NVIDIA CORPORATION.  All rights reserved.\nARG CUDA_VERSION=12.1\n"
        "FROM ${BASE}\n# shellcheck disable=SC2086\nARG JOBS=4\n# hadolint ignore=DL3008\nARG APT_PKGS=curl\n"
        "# Build settings\n# CUDA_ARCHS CUDA architectures to build for.\nARG CUDA_ARCHS=80\n"
    )
    described = {a.name: a.description for a in evaluate(parsed).args}
    assert described == {
        "PYTHON_VERSION": "",
        "BASE": "",
        "CUDA_VERSION": "",
        "JOBS": "",
        "APT_PKGS": "",
        "CUDA_ARCHS": "CUDA architectures to build for.",
    }


def test_assignments_keep_their_value_whole() -> None:
    """`TORCH_CUDA_ARCH_LIST=$ARCHS pip install …`: the shell does not split an assignment."""
    text = (
        'FROM ubuntu:22.04\nARG CMAKE_FLAGS="-DGGML_CUDA=on -DX=80"\nARG CUDA_ARCHS="8.0 9.0"\n'
        "RUN CMAKE_ARGS=$CMAKE_FLAGS pip install llama-cpp-python==0.2.90\n"
        "RUN TORCH_CUDA_ARCH_LIST=${CUDA_ARCHS} pip install flash-attn==2.5.8 --no-build-isolation\n"
        'RUN PKGS="curl git" && ALL=$PKGS && export MORE=$PKGS && apt-get install -y $ALL $MORE\n'
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [
        ("llama-cpp-python", "0.2.90"),
        ("flash-attn", "2.5.8"),
        ("curl", None),
        ("git", None),
    ]  # `$ALL $MORE` is `curl git curl git`: each package listed once


def test_a_subshell_is_no_case_branch() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "RUN (cd /tmp && make) && TORCH=2.3.0 && pip install torch==$TORCH\n"
        'RUN case "$A" in a) V=1 ;; b) V=2 ;; esac; W=3; pip install foo==$V bar==$W\n'
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [
        ("torch", "2.3.0"),
        ("foo", None),
        ("bar", "3"),
    ]


def test_a_value_set_in_a_branch_holds_within_it_and_is_unknown_after() -> None:
    text = (
        "FROM python:3.12\n"
        'RUN if [ -n "$X" ]; then V=1.2; pip install foo==$V; else V=2.0; W=3; fi; \\\n'
        "    pip install bar==$V baz==$W\n"
        "RUN for p in a b; do Q=4; done; pip install qux==$Q\n"
        "RUN if true; then if true; then R=5; fi; fi; pip install quux==$R\n"
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [
        ("foo", "1.2"),
        ("bar", None),
        ("baz", None),
        ("qux", None),
        ("quux", None),
    ]


def test_appends_in_a_branch_are_kept() -> None:
    """Ray: `APT_PKGS+=("libgoogle-perftools-dev")` only on x86_64: still a package the image may hold."""
    text = (
        "FROM ubuntu:22.04\nRUN <<EOF\nAPT_PKGS=(sudo git)\n"
        'if [[ "$HOSTTYPE" == "x86_64" ]]; then\n  APT_PKGS+=("libgoogle-perftools-dev")\nfi\n'
        'apt-get install -y "${APT_PKGS[@]}"\nEOF\n'
    )
    assert [c.name for c in components(text)[1:]] == ["sudo", "git", "libgoogle-perftools-dev"]


def test_an_if_without_else_keeps_the_value_from_before() -> None:
    """Jupyter docker-stacks: the override for a special value is a branch the default build skips."""
    text = (
        "FROM ubuntu:24.04\nARG PYTHON_VERSION=3.12\n"
        'RUN PYTHON_SPECIFIER="python=${PYTHON_VERSION}" && \\\n'
        '    if [[ "${PYTHON_VERSION}" == "default" ]]; then PYTHON_SPECIFIER="python"; fi && \\\n'
        '    micromamba install --yes "${PYTHON_SPECIFIER}"\n'
        "RUN V=1; if a; then V=2; else V=3; fi; pip install foo==$V\n"
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [("python", "3.12"), ("foo", None)]


def test_an_assignment_after_a_test_is_a_branch() -> None:
    text = (
        "FROM python:3.12\n"
        'RUN V=1.0; [ -n "$X" ] && V=2.0; pip install foo==$V\n'
        'RUN [ -z "$W" ] && W=3.0; pip install bar==$W\n'
        "RUN cd /x && U=4.0 && pip install baz==$U\n"
    )
    assert [(c.name, c.version) for c in components(text)[1:]] == [
        ("foo", "1.0"),
        ("bar", None),
        ("baz", "4.0"),
    ]


@pytest.mark.parametrize(
    ("run", "version"),
    [
        # `else \` joined with the `if` on the next line: the outer if has an else
        (
            'CUINDEX=121; if [ "$CUDA" = "11.8" ]; then CUINDEX=118; else '
            'if [ "$CUDA" = "12.4" ]; then CUINDEX=124; fi; fi; pip install torch==2.3.0+cu${CUINDEX}',
            None,
        ),
        ("V=1; if a; then V=2; else case $X in a) V=3;; esac; fi; pip install torch==$V", None),
        # compounds after a prefix word
        (
            '{ if [ "$(uname -m)" = aarch64 ]; then V=1.2.0-arm; else V=1.2.0; fi; } '
            "&& pip install torch==$V",
            None,
        ),
        ("V=1; ! if a; then V=2; fi; pip install torch==$V", "1"),
        ("V=1; time for x in a; do V=2; done; pip install torch==$V", None),
        # a string changed in branches is a branch's value; a list grown there keeps the item
        ("S=2.1; if a; then S+=.1; else S+=.2; fi; pip install torch==$S", None),
        # an ARG's value before an if with no else is kept
        ('if [ -n "$X" ]; then TORCH=9.9; fi; pip install torch==$TORCH', "2.5.1"),
        # an argument after `then` is no assignment
        ("if a; then make install TORCH=9; fi; pip install torch==$TORCH", "2.5.1"),
    ],
)
def test_branches_found_in_any_spelling(run: str, version: str | None) -> None:
    text = f"FROM python:3.12\nARG CUDA=12.1\nARG TORCH=2.5.1\nRUN {run}\n"
    (torch,) = [c for c in components(text) if c.name == "torch"]
    assert torch.version == version


def test_deep_nesting_is_read_in_linear_time_and_correctly() -> None:
    depth = 200
    script = "".join("for x in a; do " for _ in range(depth)) + "V=1; " + "done; " * depth
    text = f"FROM python:3.12\nRUN {script}pip install foo==$V bar==2.0\n"
    assert [(c.name, c.version) for c in components(text)[1:]] == [("foo", None), ("bar", "2.0")]


def test_platform_words_and_variables_come_off_names_whole() -> None:
    assert strip_platform("tool-linux-$TARGET_ARCH") == "tool"
    assert strip_platform("Miniconda3-latest-Linux-${MINICONDA_ARCH}") == "Miniconda3"
    assert strip_platform("foo_x86_64") == "foo"
    assert strip_platform("nvshmem_src_cuda12-all-all") == "nvshmem"


def test_appending_to_an_unknown_value_stays_unknown() -> None:
    text = "FROM python:3.12\nRUN V=$(cat /VERSION); V+=.1; pip install foo==$V\n"
    (foo,) = components(text)[1:]
    assert (foo.version, foo.pinned) == (None, False)
