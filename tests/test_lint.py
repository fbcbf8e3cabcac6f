"""`docgen lint`: each rule with a Dockerfile that triggers it and a near miss that must not.

The rules are the mistakes reviewers caught by hand in the ROCm Dockerfile refactor: an ARG used in a
stage that does not declare it, a version hard-coded next to the build arg that claims to control it,
a build arg nothing reads, a git source not pinned (or pinned to a branch).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.errors import DocgenError
from docgen.evaluate import evaluate
from docgen.hardcoded import hardcoded
from docgen.lint import lint
from docgen.model import HardCoded
from docgen.pipeline import build_model, lint_file, model_of
from docgen.rows import build_arg_rows

ROOT = Path(__file__).resolve().parent.parent


def findings(text: str) -> list[tuple[int, str]]:
    """(line, message) of every lint warning for Dockerfile `text`."""
    parsed = parse_dockerfile(text, "Dockerfile")
    evaluation = evaluate(parsed)
    found, _ = extract(parsed, evaluation)
    diagnostics = lint(parsed, evaluation, found)
    assert all(d.path == "Dockerfile" for d in diagnostics)
    assert [d.line for d in diagnostics] == sorted(d.line for d in diagnostics)
    return [(d.line, d.message) for d in diagnostics]


def messages(text: str, start: str) -> list[tuple[int, str]]:
    """The findings whose message starts with `start`."""
    return [(line, m) for line, m in findings(text) if m.startswith(start)]


def scope_message(name: str, stage: str, from_line: int) -> str:
    return (
        f"${{{name}}} is used in stage {stage}, but {name} is not declared there "
        f"(add `ARG {name}` after its FROM at line {from_line}); --build-arg {name} has no effect here"
    )


# --------------------------------------------------------------------------------------------------
# The seed review's Dockerfile, in miniature: every finding, and nothing else

SEED = """\
# syntax=docker/dockerfile:1
# GPU_ARCH GPU targets to compile kernels for.
ARG GPU_ARCH="gfx942;gfx950"
# PYTHON_VERSION Python version of the image.
ARG PYTHON_VERSION=3.12
# ROCM_VERSION ROCm release.
ARG ROCM_VERSION=7.0.2
# APEX_COMMIT Apex commit (left over from an earlier layout).
ARG APEX_COMMIT=07c3ee53

FROM ubuntu:24.04 AS base
RUN apt-get update && apt-get install -y python3 python3-pip git

FROM base AS rocm_deb
ARG ROCM_VERSION
RUN echo "deb https://repo.radeon.com/rocm/apt/${ROCM_VERSION}/ noble main" > /etc/apt/rocm.list

FROM base AS rocm_torch
ARG GPU_ARCH
ENV PYTORCH_ROCM_ARCH=${GPU_ARCH}
RUN WHEELS=https://repo.radeon.com/rocm/manylinux/rocm-rel-${ROCM_VERSION} \\
    && pip install "$WHEELS/torch-2.9.1%2Brocm7.0.2-cp312-cp312-linux_x86_64.whl" \\
    && python3 -c "import sys; assert sys.version.startswith('${PYTHON_VERSION}')"

FROM rocm_torch AS te
# TE_COMMIT TransformerEngine commit.
ARG TE_COMMIT=386bd316
RUN git clone https://github.com/ROCm/TransformerEngine.git /tmp/te \\
    && cd /tmp/te && git checkout ${TE_COMMIT} \\
    && patch /usr/local/lib/python3.12/dist-packages/torch/utils/hipify/hipify_python.py < hipify.patch \\
    && pip install .

FROM te AS final
RUN pip install "git+https://github.com/ROCm/aiter.git@main" \\
    && git clone https://github.com/NVIDIA/Megatron-LM.git /opt/megatron
"""


def test_seed_review_dockerfile() -> None:
    assert findings(SEED) == [
        (9, "build arg APEX_COMMIT is declared but never used"),
        (21, scope_message("ROCM_VERSION", "rocm_torch", 18)),
        # one warning per arg, naming every line that overriding it leaves behind
        (22, hardcoded_message("3.12", "cp312, python3.12", "PYTHON_VERSION", 5, "line 30")),
        (22, hardcoded_message("7.0.2", "rocm7.0.2", "ROCM_VERSION", 7)),
        (23, scope_message("PYTHON_VERSION", "rocm_torch", 18)),
        (
            34,
            "pip install of git+https://github.com/ROCm/aiter.git checks out branch main, "
            "which moves; pin a commit or tag",
        ),
        (
            35,
            "git clone of https://github.com/NVIDIA/Megatron-LM.git is not pinned to a commit "
            "or tag (add git checkout <commit>)",
        ),
    ]


def test_seed_review_fixed() -> None:
    fixed = SEED.replace("ARG GPU_ARCH\n", "ARG GPU_ARCH\nARG ROCM_VERSION\nARG PYTHON_VERSION\n")
    assert messages(fixed, "${") == []


# --------------------------------------------------------------------------------------------------
# 1. ARG used where it is not in scope


def test_global_arg_not_redeclared() -> None:
    text = "ARG V=1.2.3\nFROM ubuntu:22.04 AS base\nRUN echo $V\n"
    assert findings(text) == [(3, scope_message("V", "base", 2))]


def test_redeclared_inherited_or_env_is_in_scope() -> None:
    text = (
        "ARG V=1.2.3\n"
        "FROM ubuntu:22.04 AS base\n"
        "ARG V\n"  # re-declared bare: the global value
        "RUN echo ${V}\n"
        "FROM base AS child\n"  # inherits base's V
        "RUN echo ${V}\n"
        "FROM ubuntu:22.04 AS other\n"
        "ENV V=2.0.0\n"  # an ENV of the same name
        "RUN echo ${V}\n"
    )
    assert messages(text, "${") == []


def test_declared_without_value_is_in_scope() -> None:
    # `ARG MAX_JOBS` leaves MAX_JOBS unset unless passed; that is the point, not a mistake
    text = "FROM ubuntu:22.04 AS build\nARG MAX_JOBS\nRUN make -j${MAX_JOBS:-4}\n"
    assert findings(text) == []


def test_only_build_args_declared_in_the_file() -> None:
    # shell variables, special parameters and command substitutions are not build args
    text = (
        "FROM ubuntu:22.04 AS base\nRUN echo $PATH $HOME $1 $? $(nproc) ${UNDECLARED:-x}\nARG HOME_DIR=/opt\n"
    )
    assert messages(text, "${") == []


def test_set_by_the_script_itself() -> None:
    text = (
        "ARG V=1.2.3\nARG W=4.5.6\nARG X=7.8.9\n"
        "FROM ubuntu:22.04 AS base\n"
        "RUN for V in a b; do echo $V; done && W=2 && echo $W && export X=3 && echo ${X}\n"
    )
    assert messages(text, "${") == []


def test_self_referencing_assignment_still_reads_the_arg() -> None:
    text = 'ARG MAX_JOBS=8\nFROM ubuntu:22.04 AS base\nRUN MAX_JOBS="${MAX_JOBS:-4}" make\n'
    assert messages(text, "${") == [(3, scope_message("MAX_JOBS", "base", 2))]


def test_proxy_args_are_left_alone_platform_args_need_a_declaration() -> None:
    # BuildKit defines TARGETARCH & co. in the global scope only: a stage must re-declare them
    # (https://docs.docker.com/build/building/variables/#multi-platform-build-arguments); proxy args
    # reach every RUN without a declaration
    text = (
        "FROM ubuntu:22.04 AS a\nARG TARGETARCH\nARG HTTP_PROXY\nRUN echo $TARGETARCH $HTTP_PROXY\n"
        "FROM a AS a2\nRUN echo $TARGETARCH\n"  # inherited from a
        "FROM --platform=$BUILDPLATFORM ubuntu:22.04 AS b\nRUN echo $TARGETARCH $HTTP_PROXY $BUILDPLATFORM\n"
        "RUN ARCH=$(uname -m) && TARGETOS=linux && echo $ARCH $TARGETOS\n"  # set by the script
    )
    assert messages(text, "${") == [
        (
            8,
            "${BUILDPLATFORM} is used in stage b, but BUILDPLATFORM is not declared there (add `ARG "
            "BUILDPLATFORM` after its FROM at line 7); BuildKit sets platform args for FROM lines only, "
            "so it is empty here",
        ),
        (
            8,
            "${TARGETARCH} is used in stage b, but TARGETARCH is not declared there (add `ARG "
            "TARGETARCH` after its FROM at line 7); BuildKit sets platform args for FROM lines only, "
            "so it is empty here",
        ),
    ]


def test_base_image_chosen_with_the_arg_may_set_it() -> None:
    # nvidia/cuda images set ENV CUDA_VERSION themselves, matching the tag the arg chose
    text = (
        "ARG CUDA_VERSION=12.4.1\n"
        "FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS base\n"
        "FROM base AS build\n"
        "RUN echo building for CUDA $CUDA_VERSION\n"
    )
    assert messages(text, "${") == []
    through_an_arg = (
        "ARG CUDA_VERSION=12.4.1\n"
        "ARG BASE_IMAGE=nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04\n"
        "FROM ${BASE_IMAGE} AS base\n"
        "RUN echo building for CUDA $CUDA_VERSION\n"
    )
    assert messages(through_an_arg, "${") == []


def test_declared_in_a_sibling_stage_only() -> None:
    text = (
        "FROM ubuntu:22.04 AS a\nARG TORCH_VERSION=2.5.1\nRUN pip install torch==${TORCH_VERSION}\n"
        "FROM ubuntu:22.04 AS b\nRUN pip install torchvision && pip install torch==${TORCH_VERSION}\n"
    )
    assert messages(text, "${") == [(5, scope_message("TORCH_VERSION", "b", 4))]


def test_buildkit_expanded_instructions_and_one_warning_per_stage() -> None:
    text = (
        "ARG APP_DIR=/opt/app\n"
        "FROM ubuntu:22.04 AS base\n"
        "WORKDIR ${APP_DIR}\n"
        "COPY . ${APP_DIR}\n"
        "RUN ls $APP_DIR\n"
        'CMD ["sh", "-c", "echo $APP_DIR"]\n'
    )
    assert findings(text) == [(3, scope_message("APP_DIR", "base", 2))]


def test_exec_form_run_and_escaped_dollar_are_not_expanded() -> None:
    text = 'ARG V=1.2.3\nFROM ubuntu:22.04 AS base\nRUN ["echo", "$V"]\nWORKDIR /opt/\\$V\n'
    assert messages(text, "${") == []


def test_used_before_the_stage_declares_it() -> None:
    text = "ARG V=1.2.3\nFROM ubuntu:22.04 AS base\nRUN echo $V\nARG V\nRUN echo $V\n"
    assert findings(text) == [
        (
            3,
            "${V} is used in stage base before `ARG V` at line 4 declares it there, so it is "
            "empty here (move the ARG up); --build-arg V has no effect on this line",
        )
    ]


def test_the_line_of_the_use_in_a_long_run_and_a_heredoc() -> None:
    text = (
        "ARG V=1.2.3\n"
        "FROM ubuntu:22.04 AS base\n"
        "RUN apt-get update \\\n"
        "# a comment naming $V\n"
        "    && echo ${V}\n"
        "FROM ubuntu:22.04 AS other\n"
        "RUN <<EOF\n"
        "set -e\n"
        "echo $V\n"
        "EOF\n"
    )
    assert [line for line, _ in findings(text)] == [5, 9]


def test_quoted_heredoc_written_to_a_file_is_not_read_at_build_time() -> None:
    # `cat > /entrypoint.sh <<'EOF'` keeps `$VAR` for the container's run time; `RUN <<'EOF' bash`
    # runs the body, where the shell reads the build args from its environment
    text = (
        "ARG APP_PORT=8080\n"
        "FROM python:3.12-slim AS app\n"
        "RUN cat > /entrypoint.sh <<'EOF' && chmod +x /entrypoint.sh\n"
        'echo "listening on ${APP_PORT} for $TARGETARCH"\n'
        "EOF\n"
        "RUN <<'EOF' bash\n"
        "echo ${APP_PORT}\n"
        "EOF\n"
    )
    assert findings(text) == [(7, scope_message("APP_PORT", "app", 2))]


# --------------------------------------------------------------------------------------------------
# 2. A build arg's default hard-coded elsewhere


def hardcoded_message(value: str, spelling: str, arg: str, arg_line: int, others: str = "") -> str:
    """The warning for `value` written literally; `others` names the other lines (`line 6`)."""
    where, behind = (f"here and on {others}", "these lines") if others else ("here", "this line")
    return (
        f"{value} is written literally {where} ({spelling}) although build arg {arg} "
        f"(line {arg_line}) controls it; overriding --build-arg {arg} leaves {behind} behind"
    )


def test_hardcoded_version_spellings() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG PYTHON_VERSION=3.12\n"
        "ARG ROCM_VERSION=7.0.2\n"
        "RUN apt-get install -y python${PYTHON_VERSION} rocm-${ROCM_VERSION}\n"
        "RUN pip install https://repo.radeon.com/rocm/manylinux/rocm-rel-7.0.2/apex-1.9.0-cp312-none.whl\n"
        "RUN cp fix.py /usr/lib/python3.12/site-packages/ && echo py3.12\n"
    )
    assert findings(text) == [
        (5, hardcoded_message("3.12", "cp312, python3.12, py3.12", "PYTHON_VERSION", 2, "line 6")),
        (5, hardcoded_message("7.0.2", "rocm-rel-7.0.2", "ROCM_VERSION", 3)),
    ]
    parsed = parse_dockerfile(text, "Dockerfile")
    assert hardcoded(parsed, evaluate(parsed)) == (
        HardCoded("PYTHON_VERSION", 2, "3.12", 5, "cp312"),
        HardCoded("ROCM_VERSION", 3, "7.0.2", 5, "rocm-rel-7.0.2"),
        HardCoded("PYTHON_VERSION", 2, "3.12", 6, "python3.12"),
        HardCoded("PYTHON_VERSION", 2, "3.12", 6, "py3.12"),
    )


def test_hardcoded_lines_of_one_instruction_are_one_warning() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG CUDA_VERSION=12.4.1\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cu124 \\\n"
        "    && pip install torchaudio --index-url https://download.pytorch.org/whl/cu124 \\\n"
        "    && pip install xformers --index-url https://download.pytorch.org/whl/cu124\n"
        "RUN echo ${CUDA_VERSION}\n"
    )
    assert findings(text) == [
        (
            3,
            "12.4.1 is written literally here and on lines 4-5 (cu124) although build arg "
            "CUDA_VERSION (line 2) controls it; overriding --build-arg CUDA_VERSION leaves these lines "
            "behind",
        )
    ]


def test_hardcoded_lines_of_a_heredoc_and_a_long_run() -> None:
    # only the lines holding the value are looked at: each literal keeps its own line number, and a
    # pre-release at the end of a line is still another version
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG ROCM_VERSION=6.4.1\n"
        "RUN echo start \\\n"
        "    && echo middle \\\n"
        "    && echo rocm-6.4.1rc2 \\\n"
        "    && echo rocm-6.4.1\n"
        "RUN <<EOF\n"
        "echo one\n"
        "echo /opt/rocm-6.4.1/bin\n"
        "EOF\n"
    )
    parsed = parse_dockerfile(text, "Dockerfile")
    assert hardcoded(parsed, evaluate(parsed)) == (
        HardCoded("ROCM_VERSION", 2, "6.4.1", 6, "rocm-6.4.1"),
        HardCoded("ROCM_VERSION", 2, "6.4.1", 9, "rocm-6.4.1"),
    )


def test_similar_numbers_are_not_the_value() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG ROCM_VERSION=7.0.2\n"
        "ARG PYTHON_VERSION=3.12\n"
        "RUN echo ${ROCM_VERSION} ${PYTHON_VERSION}\n"
        "RUN wget https://example.com/llvm-17.0.25.tar.gz https://example.com/x-7.0.21.tgz 27.0.2\n"
        "RUN pip install foo==3.12 bar==3.12.1 && echo 3.12\n"  # 3.12 with nothing about Python\n"
        "RUN pip install https://example.com/x-cp3120-none.whl https://example.com/python-foo==3.12\n"
    )
    assert findings(text) == []


def test_lines_reading_the_arg_and_its_own_line_are_skipped() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG ROCM_VERSION=7.0.2\n"
        "ARG AMDGPU_VERSION=7.0.2\n"  # another arg with the same value: its own default
        'RUN if [ "${ROCM_VERSION}" != "7.0.2" ]; then echo "rocm ${ROCM_VERSION} is not 7.0.2"; fi \\\n'
        "    && echo amdgpu/${AMDGPU_VERSION}\n"
        "# a comment saying rocm-rel-7.0.2 is fine\n"
        "RUN true\n"
    )
    assert findings(text) == []


def test_generic_defaults_are_ignored() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        'ARG DEBUG=0\nARG JOBS=1\nARG USE_CK=true\nARG EMPTY=\nARG NAME=verl\nARG EXTRA=""\n'
        "RUN echo 0 1 true verl ${DEBUG} ${JOBS} ${USE_CK} ${EMPTY} ${NAME} ${EXTRA}\n"
    )
    assert findings(text) == []


def test_another_packages_version_is_not_the_args() -> None:
    # torchaudio 2.5.1 has the same number as TORCH_VERSION=2.5.1 but is not the torch version
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG TORCH_VERSION=2.5.1\n"
        "RUN pip install torch==${TORCH_VERSION}\n"
        "RUN pip install https://download.pytorch.org/whl/torchaudio-2.5.1-none.whl numpy==2.5.1\n"
        "RUN pip install torch==2.5.1\n"
    )
    assert findings(text) == [(5, hardcoded_message("2.5.1", "2.5.1", "TORCH_VERSION", 2))]


def test_shared_value_goes_to_the_arg_the_text_names() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG ROCM_VERSION=7.0.2\n"
        "ARG AMDGPU_VERSION=7.0.2\n"
        "RUN echo ${ROCM_VERSION} ${AMDGPU_VERSION} && pip install torch-2.9.1%2Brocm7.0.2-cp310.whl\n"
        "RUN pip install https://repo.radeon.com/rocm/manylinux/rocm-rel-7.0.2/torch.whl\n"
    )
    assert findings(text) == [(5, hardcoded_message("7.0.2", "rocm-rel-7.0.2", "ROCM_VERSION", 2))]


def test_hardcoded_commit() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG FA_COMMIT=83f9e450cd10e20701fb109db9c7703d376f282b\n"
        "RUN git clone https://github.com/ROCm/flash-attention /fa && cd /fa \\\n"
        "    && git checkout 83f9e450cd10e20701fb109db9c7703d376f282b\n"
    )
    assert messages(text, "83f9") == [
        (
            4,
            hardcoded_message(
                "83f9e450cd10e20701fb109db9c7703d376f282b",
                "83f9e450cd10e20701fb109db9c7703d376f282b",
                "FA_COMMIT",
                2,
            ),
        )
    ]


def test_build_args_table_note() -> None:
    text = (
        "ARG PYTHON_VERSION=3.12\n"
        "FROM ubuntu:22.04 AS base\n"
        "ARG PYTHON_VERSION\n"
        "RUN apt-get install -y python${PYTHON_VERSION}\n"
        "RUN pip install https://example.com/a-1.0-cp312-cp312-linux_x86_64.whl \\\n"
        "        https://example.com/b-1.0-cp312-cp312-linux_x86_64.whl\n"
        "RUN pip install https://example.com/c-1.0-cp312-cp312-linux_x86_64.whl\n"
        "ARG OTHER_VERSION=1.2.3\n"
        "RUN echo ${OTHER_VERSION}\n"
    )
    model = model_of(parse_dockerfile(text, "Dockerfile"))
    rows = {row.name: row for row in build_arg_rows(model)}
    assert rows["PYTHON_VERSION"].notes == (
        "Also hard-coded at lines 5-7 (cp312): overriding it does not change those.",
    )
    assert rows["OTHER_VERSION"].notes == ()


def test_bundled_dockerfile_notes() -> None:
    model = build_model(ROOT / "docker" / "rocm" / "Dockerfile.rocm", "Dockerfile.rocm")
    rows = {row.name: row for row in build_arg_rows(model)}
    assert rows["PYTHON_VERSION"].notes == (
        "Also hard-coded at lines 118-122 (cp312): overriding it does not change those.",
    )
    assert rows["ROCM_VERSION"].notes == (
        "Also hard-coded at lines 118-122 (rocm-rel-7.0.2, rocm7.0.2): overriding it does not change those.",
    )
    assert all(not row.notes for name, row in rows.items() if name not in ("PYTHON_VERSION", "ROCM_VERSION"))


def test_case_patterns_test_the_value_they_do_not_use_it() -> None:
    # SGLang: `case "$CUDA_VERSION" in` with one pattern per line; the patterns are not left behind
    text = (
        "ARG CUDA_VERSION=12.6.1\n"
        "FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04\n"
        'RUN case "$CUDA_VERSION" in \\\n'
        "      12.6.1) CUINDEX=126 ;; \\\n"
        "      12.4.1|12.6.1) CUINDEX=12x ;; \\\n"
        '      "12.6.1") CUINDEX=q ;; \\\n'
        "    esac && echo pinned 12.6.1\n"
    )
    assert findings(text) == [(7, hardcoded_message("12.6.1", "12.6.1", "CUDA_VERSION", 1))]


def test_major_minor_of_a_long_default_glued_to_its_subject() -> None:
    # `cuda-12.1`, `rocm7.0` go stale with CUDA_VERSION=12.1.0, ROCM_VERSION=7.0.2; a bare 12.1 does not
    text = (
        "ARG CUDA_VERSION=12.1.0\n"
        "ARG ROCM_VERSION=7.0.2\n"
        "FROM ubuntu:22.04\n"
        "ENV LD_LIBRARY_PATH=/usr/local/cuda-12.1/lib64\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/rocm7.0\n"
        "RUN pip install numpy==12.1 && echo 12.1 7.0 && apt-get install -y libnccl2=2.18.1-1+cuda12.1\n"
    )
    found = findings(text)
    assert [(line, m.split(" although")[0]) for line, m in found if "literally" in m] == [
        (4, "12.1.0 is written literally here and on line 6 (cuda-12.1, cuda12.1)"),
        (5, "7.0.2 is written literally here (rocm7.0)"),
    ]


# --------------------------------------------------------------------------------------------------
# 3. Declared but never used


def test_declared_but_never_used() -> None:
    text = "ARG OLD_TAG=v1.2.3\nFROM ubuntu:22.04 AS base\nARG APEX_VERSION=1.9.0\nRUN pip install apex\n"
    assert findings(text) == [
        (1, "build arg OLD_TAG is declared but never used"),
        (3, "build arg APEX_VERSION is declared but never used"),
    ]


def test_used_only_in_from_or_in_a_global_default() -> None:
    text = (
        "ARG CUDA_VERSION=12.4.1\n"
        "ARG BASE_IMAGE=nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04\n"
        "ARG UBUNTU_TAG=22.04\n"
        "FROM ${BASE_IMAGE} AS base\n"
        "FROM ubuntu:${UBUNTU_TAG} AS other\n"
    )
    assert findings(text) == []


def test_environment_for_run_counts_as_use() -> None:
    # pip reads PIP_INDEX_URL, setup.py reads MAX_JOBS from the environment: no `$` needed
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG PIP_INDEX_URL=https://mirror.example/simple\n"
        "ARG MAX_JOBS=8\n"
        "ARG DEBIAN_FRONTEND=noninteractive\n"
        "RUN pip install . && apt-get install -y git\n"
    )
    assert findings(text) == []


def test_other_names_are_unused_even_with_a_run_after_them() -> None:
    text = "FROM ubuntu:22.04 AS base\nARG UNUSED=1\nARG PIP_NO_CACHE_DIR=1\nRUN pip install .\n"
    assert findings(text) == [(2, "build arg UNUSED is declared but never used")]


def test_environment_arg_with_no_run_after_it() -> None:
    text = "FROM ubuntu:22.04 AS base\nRUN pip install .\nARG MAX_JOBS=8\n"
    assert findings(text) == [(3, "build arg MAX_JOBS is declared but never used")]


def test_never_given_a_value_is_for_the_environment() -> None:
    # TGI's build.rs reads GIT_SHA and DOCKER_LABEL; CACHE_BUST only invalidates the RUN cache
    text = (
        "FROM rust:1.85 AS builder\n"
        "ARG GIT_SHA\n"
        "ARG DOCKER_LABEL CACHE_BUST\n"
        "RUN cargo build --release\n"
        "ARG LEFTOVER_SHA=0123abc\n"
        "RUN cargo test\n"
        "ARG LATE\n"  # no RUN after it: passing it changes nothing
    )
    assert findings(text) == [
        (5, "build arg LEFTOVER_SHA is declared but never used"),
        (7, "build arg LATE is declared but never used"),
    ]


def test_script_files_and_use_flags_read_the_environment() -> None:
    # PyTorch's CI images: `ARG X` then `RUN bash ./install_x.sh`, which reads $X; setup.py reads USE_*
    text = (
        "ARG ROCM_VERSION=6.4\n"
        "FROM ubuntu:22.04\n"
        "ARG ROCM_VERSION\n"
        "ARG SCCACHE_VERSION=0.8.2\n"
        "COPY ./common/install_rocm.sh install_rocm.sh\n"
        "RUN bash ./install_rocm.sh && rm install_rocm.sh\n"
        "FROM ubuntu:22.04 AS torch\n"
        "ARG USE_CCACHE=0\n"
        "ARG OTHER_VERSION=1.2.3\n"
        "RUN curl -LsSf https://astral.sh/uv/install.sh | sh && python3 setup.py bdist_wheel\n"
    )
    assert findings(text) == [(9, "build arg OTHER_VERSION is declared but never used")]


def test_a_run_that_only_handles_a_script_file_runs_no_script() -> None:
    # a segmentation base image: `chmod` of the start script it copies runs nothing at build time, so its
    # args reach no script; a web app's `sed` of its entrypoint and a `wget -O` of an installer likewise
    text = (
        "FROM ubuntu:22.04\n"
        "ARG USER_UID=2323\n"
        "ARG APP_ENV=prod\n"
        "COPY start.sh /app/start.sh\n"
        "RUN chmod 755 /app/start.sh && sed -i 's/x/y/' /app/start.sh > /tmp/log.sh\n"
        "RUN wget -O /tmp/get.sh https://example.org/get.sh\n"
        'CMD ["/app/start.sh"]\n'
    )
    assert findings(text) == [
        (2, "build arg USER_UID is declared but never used"),
        (3, "build arg APP_ENV is declared but never used"),
    ]


@pytest.mark.parametrize(
    "run",
    [
        "RUN chmod +x /app/start.sh && /app/start.sh",  # then run
        "RUN cat /app/start.sh | bash",  # its text piped into a shell
        "RUN chmod +x /app/start.sh\nRUN bash /app/start.sh",
        "RUN <<EOF\nchmod +x /app/start.sh\n/app/start.sh\nEOF",  # a heredoc: one command a line
        "RUN if [ -f /app/start.sh ]; then sh /app/start.sh; fi",
    ],
)
def test_runs_that_run_the_script_they_name(run: str) -> None:
    text = f"FROM ubuntu:22.04\nARG USER_UID=2323\nCOPY start.sh /app/start.sh\n{run}\n"
    assert findings(text) == []


def test_buildkit_args_and_global_environment_args() -> None:
    # BuildKit reads BUILDKIT_* itself; a global DEBIAN_FRONTEND never reaches a RUN
    text = (
        "ARG BUILDKIT_SBOM_SCAN_CONTEXT=true\n"
        "ARG DEBIAN_FRONTEND=noninteractive\n"
        "FROM ubuntu:22.04\n"
        "ARG BUILDKIT_INLINE_CACHE=1\n"
        "RUN apt-get update\n"
    )
    assert findings(text) == [
        (
            2,
            "build arg DEBIAN_FRONTEND is declared but never used; declared before the first FROM, it "
            "is seen by FROM lines only, not by RUN (declare it after the FROM of the stages that need it)",
        )
    ]


def test_onbuild_reads_the_args() -> None:
    # vLLM's ROCm image clones the repository in an ONBUILD trigger
    text = (
        "FROM ubuntu:22.04 AS fetch\n"
        'ARG VLLM_REPO="https://github.com/ROCm/vllm.git"\n'
        'ARG VLLM_BRANCH="v0.9.1"\n'
        "ONBUILD RUN git clone ${VLLM_REPO} && cd vllm && git fetch origin ${VLLM_BRANCH}\n"
    )
    assert findings(text) == []


# --------------------------------------------------------------------------------------------------
# 4. Git sources not pinned, or pinned to a branch


def test_unpinned_clone_and_branches() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "RUN git clone https://github.com/org/floating.git /src/floating\n"
        "RUN git clone -b main https://github.com/org/main.git\n"
        "RUN git clone https://github.com/org/rel.git && cd rel && git checkout release/2.10\n"
        "RUN pip install git+https://github.com/org/pipped.git\n"
    )
    assert findings(text) == [
        (
            2,
            "git clone of https://github.com/org/floating.git is not pinned to a commit or tag "
            "(add git checkout <commit>)",
        ),
        (
            3,
            "git clone of https://github.com/org/main.git checks out branch main, which moves; "
            "pin a commit or tag",
        ),
        (
            4,
            "git clone of https://github.com/org/rel.git checks out branch release/2.10, which "
            "moves; pin a commit or tag",
        ),
        (
            5,
            "pip install of git+https://github.com/org/pipped.git is not pinned to a commit or "
            "tag (add @<commit> to the URL)",
        ),
    ]


def test_pinned_commit_tag_and_later_checkout() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG VLLM_COMMIT=ed6e9075d31e32c8548b480a47d1ffb77da1f54c\n"
        "RUN git clone https://github.com/vllm-project/vllm.git /src/vllm\n"
        "WORKDIR /src/vllm\n"
        "RUN git checkout ${VLLM_COMMIT}\n"
        "RUN git clone --branch v2.6.3 https://github.com/org/tagged.git\n"
        'RUN pip install "git+https://github.com/org/pkg.git@v0.15.1"\n'
        "RUN git clone https://github.com/org/short.git && cd short && git checkout 45c428e54\n"
    )
    assert findings(text) == []


def test_ref_from_an_arg_without_a_default() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "ARG TE_COMMIT\n"
        "RUN git clone https://github.com/ROCm/TransformerEngine.git && cd TransformerEngine \\\n"
        "    && git checkout ${TE_COMMIT}\n"
    )
    assert findings(text) == [
        (
            3,
            "git clone of https://github.com/ROCm/TransformerEngine.git checks out ${TE_COMMIT}, "
            "which has no value here; give build arg TE_COMMIT a commit or tag as its default",
        )
    ]


def test_add_of_a_git_url_without_a_fragment() -> None:
    text = "FROM alpine\nADD https://github.com/org/r.git#v1.0.0 /r\nADD https://github.com/org/s.git /s\n"
    assert findings(text) == [
        (3, "ADD of https://github.com/org/s.git is not pinned to a commit or tag (add #<commit> to the URL)")
    ]


def test_downloads_from_a_branch() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "RUN curl -L https://github.com/triton-lang/triton/archive/refs/heads/main.tar.gz | tar xz\n"
        "RUN wget https://gitlab.com/o/r/-/archive/master/r-master.tar.gz \\\n"
        "    https://github.com/google/googletest/archive/release-1.8.0.tar.gz \\\n"
        "    https://github.com/ggml-org/llama.cpp/archive/b4567.tar.gz \\\n"
        "    https://github.com/o/r/archive/refs/tags/v1.0.zip \\\n"
        "    https://raw.githubusercontent.com/o/r/v1.2.3/install.sh\n"
        "# RUN curl https://raw.githubusercontent.com/o/r/main/old.sh\n"
        "ADD https://raw.githubusercontent.com/pytorch/pytorch/main/requirements.txt /tmp/\n"
    )
    assert findings(text) == [
        (
            2,
            "download of https://github.com/triton-lang/triton/archive/refs/heads/main.tar.gz takes "
            "branch main, which moves; put a commit or tag in the URL",
        ),
        (
            3,
            "download of https://gitlab.com/o/r/-/archive/master/r-master.tar.gz takes branch master, "
            "which moves; put a commit or tag in the URL",
        ),
        (
            9,
            "download of https://raw.githubusercontent.com/pytorch/pytorch/main/… takes branch main, "
            "which moves; put a commit or tag in the URL",
        ),
    ]


# --------------------------------------------------------------------------------------------------
# Whole files


def test_bundled_dockerfile_findings() -> None:
    found = lint_file(ROOT / "docker" / "rocm" / "Dockerfile.rocm", "docker/rocm/Dockerfile.rocm")
    assert [(d.line, d.message.split(" although")[0]) for d in found] == [
        (118, "3.12 is written literally here and on lines 119-122 (cp312)"),
        (118, "7.0.2 is written literally here and on lines 119-122 (rocm-rel-7.0.2, rocm7.0.2)"),
        (
            240,
            "pip install of git+https://github.com/volcengine/verl.git is not pinned to a commit "
            "or tag (add @<commit> to the URL)",
        ),
    ]
    assert str(found[0]).startswith("docker/rocm/Dockerfile.rocm:118: 3.12 is written literally")


# Dockerfiles modelled on public GPU/ML images (tests/data/lint/<name>/Dockerfile), with the reviewers'
# mistakes planted in some ("Planted:" comments) and kept out of others: every finding, exactly.
LINT_CORPUS: dict[str, list[tuple[int, str]]] = {
    "debian-pins": [
        (24, "3.0.13 is written literally here and on line 25 (3.0.13)"),
        # a heredoc script with no `#!` line: /bin/sh runs it, dash on Debian, and `<<<` is bash's
        (
            45,
            "RUN uses `<<<`, bash-only syntax, but /bin/sh runs it and /bin/sh is dash in "
            "debian:bookworm-20240701-slim: a syntax error: dash runs none of the RUN (rewrite it for sh, or "
            'put SHELL ["/bin/bash", "-c"] before this RUN)',
        ),
    ],
    "go-multiarch": [
        (
            33,
            "${TARGETARCH} is used in stage tools, but TARGETARCH is not declared there (add `ARG "
            "TARGETARCH` after its FROM at line 29); BuildKit sets platform args for FROM lines only, so it "
            "is empty here",
        ),
    ],
    "llama-cpp-cuda": [],
    "megatron": [],
    "pytorch-rocm": [
        (55, "6.4 is written literally here (rocm6.4)"),
        (
            70,
            "git clone of https://github.com/ROCm/aotriton.git checks out branch main, which moves; pin a "
            "commit or tag",
        ),
    ],
    "sglang": [],
    "tgi": [
        # not line 17: the Rust builder's python3.11-dev is outside PYTHON_VERSION's stages
        (106, "3.11 is written literally here and on line 107 (python3.11)"),
    ],
    "verl-rocm": [
        (8, "build arg APEX_COMMIT is declared but never used"),
        (
            26,
            "${ROCM_VERSION} is used in stage rocm_torch, but ROCM_VERSION is not declared there (add `ARG "
            "ROCM_VERSION` after its FROM at line 23); --build-arg ROCM_VERSION has no effect here",
        ),
        (28, "3.12 is written literally here and on lines 29, 42 (cp312, python3.12)"),
        (28, "7.0.2 is written literally here and on line 29 (rocm7.0.2)"),
        (
            30,
            "${PYTHON_VERSION} is used in stage rocm_torch, but PYTHON_VERSION is not declared there (add "
            "`ARG PYTHON_VERSION` after its FROM at line 23); --build-arg PYTHON_VERSION has no effect here",
        ),
        (
            48,
            "git clone of https://github.com/ROCm/aiter.git checks out branch main, which moves; pin a "
            "commit or tag",
        ),
        (
            53,
            "git clone of https://github.com/ROCm/flash-attention.git is not pinned to a commit or tag (add "
            "git checkout <commit>)",
        ),
    ],
    "vllm-cuda": [
        (143, "12.8.1 is written literally here (cu128)"),
        (154, "3.12 is written literally here (python3.12)"),
    ],
    "vllm-rocm": [
        (
            66,
            "git clone of https://github.com/ROCm/rocmProfileData.git checks out branch nvtx_enabled, which "
            "moves; pin a commit or tag",
        ),
    ],
    "vllm-rocm-base": [],
}


@pytest.mark.parametrize("name", sorted(LINT_CORPUS))
def test_lint_corpus(name: str) -> None:
    found = lint_file(ROOT / "tests" / "data" / "lint" / name / "Dockerfile", "Dockerfile")
    assert [(d.line, d.message.split(" although")[0]) for d in found] == LINT_CORPUS[name]


def test_lint_corpus_is_complete() -> None:
    on_disk = {p.parent.name for p in (ROOT / "tests" / "data" / "lint").glob("*/Dockerfile")}
    assert on_disk == set(LINT_CORPUS)


lines = st.sampled_from(
    [
        "ARG V=1.2.3",
        "ARG PYTHON_VERSION=3.12",
        "ARG REF=main",
        "ARG W",
        "FROM ubuntu:22.04 AS a",
        "FROM a AS b",
        "ENV V=2",
        "RUN echo $V ${W:-x} python3.12 cp312 1.2.3",
        "RUN git clone https://github.com/o/r.git && cd r && git checkout ${REF}",
        "RUN pip install git+https://github.com/o/p.git@$REF",
        "WORKDIR /opt/${V}",
        "RUN <<EOF\necho $V 1.2.3\nEOF",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(lines, max_size=12))
def test_lint_never_raises(body: list[str]) -> None:
    text = "FROM ubuntu:22.04 AS start\n" + "\n".join(body) + "\n"
    try:
        parsed = parse_dockerfile(text, "Dockerfile")
        evaluation = evaluate(parsed)
    except DocgenError:
        return
    found, _ = extract(parsed, evaluation)
    for diagnostic in lint(parsed, evaluation, found):
        assert diagnostic.line >= 1 and diagnostic.path == "Dockerfile"
        assert "\n" not in diagnostic.message and not diagnostic.message.startswith("warning")


def test_arg_defaulting_to_itself_is_explained_not_called_useless() -> None:
    ((line, message),) = findings("ARG A=1\nFROM a\nARG A=${A}\nRUN echo $A\n")
    assert line == 3
    assert message.startswith("`ARG A=${A}` in stage #0 does not take the global default of A (line 1)")
    assert "write `ARG A` to re-declare the global default" in message
    assert "has no effect" not in message
    ((_, alone),) = findings("FROM a\nARG A=${A}\nRUN echo $A\n")
    assert "refers to A itself, which is not set yet here" in alone


def test_lint_file_also_reports_the_readers_warnings(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text('FROM x\nARG TORCH_BRANCH="8514f05" # release/2.10\nRUN echo "$TORCH_BRANCH"\n')
    messages = [(d.line, d.message) for d in lint_file(dockerfile, "Dockerfile")]
    assert (2, "'#' is not a comment here: it is part of the ARG arguments") in messages


# --------------------------------------------------------------------------------------------------
# Variables a base image sets are not "empty here"


def test_path_like_variable_extended_from_the_base_image_is_not_empty() -> None:
    # `ARG PATH=…:${PATH}` and an ENV that extends CPATH before a later `ARG CPATH`: in a stage built
    # on an image, `${PATH}` is the image's value; docgen used to say it was empty
    text = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
        "ARG INSTALL_DIR=/opt\n"
        "ARG PATH=${INSTALL_DIR}/bin:${PATH}\n"
        "ARG LD_LIBRARY_PATH=/usr/local/lib:$LD_LIBRARY_PATH\n"
        "ENV LD_LIBRARY_PATH=$LD_LIBRARY_PATH\n"
        "FROM build AS app\n"
        "ENV CPATH=/usr/local/cuda/include:${CPATH}\n"
        "ARG CPATH\n"
        "RUN echo $PATH $CPATH\n"
    )
    assert findings(text) == []


def test_own_variable_before_its_arg_is_still_empty() -> None:
    # the same shapes with a name no image sets keep their warnings
    text = (
        "FROM ubuntu:22.04 AS build\nARG MYVAR=${MYVAR}\nENV APP_HOME_DIR=/x:${APP_DIR}\nARG APP_DIR=/app\n"
    )
    assert [line for line, _ in findings(text)] == [2, 3]
    assert "so it is empty here" in findings(text)[1][1]


def test_path_in_a_stage_from_scratch_is_still_reported() -> None:
    assert [line for line, _ in findings("FROM scratch\nARG PATH=/x:${PATH}\n")] == [2]


# --------------------------------------------------------------------------------------------------
# 5. pip options pip rejects


@pytest.mark.parametrize(
    ("command", "line", "message"),
    [
        (
            "pip install -v -no-build-isolation .",
            2,
            'pip install option -no-build-isolation: pip has no short option -n and stops with "no such '
            'option: -n" (did you mean --no-build-isolation?)',
        ),
        (
            "python3 -m pip install -upgrade pip",
            2,
            'pip install option -upgrade: pip has no short option -u and stops with "no such option: -u" '
            "(did you mean --upgrade?)",
        ),
        (
            "true \\\n && /opt/venv/bin/pip3.11 wheel -w /w -no-deps .",
            3,
            'pip wheel option -no-deps: pip has no short option -n and stops with "no such option: -n" '
            "(did you mean --no-deps?)",
        ),
        (
            "pip install --no-cache-dir \\\n    # the kernels need torch\n    -no-build-isolation .",
            4,
            'pip install option -no-build-isolation: pip has no short option -n and stops with "no such '
            'option: -n" (did you mean --no-build-isolation?)',
        ),
        (
            "pip uninstall -y -e foo",
            2,
            'pip uninstall option -e: pip has no short option -e and stops with "no such option: -e"',
        ),
    ],
)
def test_pip_short_option_pip_rejects(command: str, line: int, message: str) -> None:
    assert findings(f"FROM python:3.12\nRUN {command}\n") == [(line, message)]


def test_pip_rejected_options_one_warning_per_command() -> None:
    # pip stops at the first one: the next are not separate causes
    text = "FROM python:3.12\nRUN pip install -no-deps \\\n  -upgrade x \\\n && pip install -no-index y\n"
    assert [(line, m.split(":")[0]) for line, m in findings(text)] == [
        (2, "pip install option -no-deps"),
        (4, "pip install option -no-index"),
    ]


def test_pip_options_on_many_continuation_lines_stay_linear() -> None:
    # 20,000 rejected options on continuation lines of one command took 384 s (a search of every line
    # per option); one warning, found in one pass
    text = (
        "FROM python:3.12\nRUN pip install \\\n"
        + "".join(f"  -nope{i} \\\n" for i in range(20_000))
        + "  x\n"
    )
    assert [line for line, _ in findings(text)] == [3]


@pytest.mark.parametrize(
    "command",
    [
        "pip install -Uq torch -rrequirements.txt -r req.txt -e . -c c.txt -i https://x/simple -f /w -t /t",
        "pip install -vvv -I -C editable_mode=compat .",
        "pip install $(find /wheels -name '*.whl') `ls -d /x`",
        "uv pip install -n foo",  # uv's options are not pip's
        "pip download -d /d -q torch && pip uninstall -y torch",
        "pip install foo -- -not-an-option",
        "pip install -U${EXTRA} foo",
        "echo pip installed -nothing",
    ],
)
def test_pip_options_pip_accepts(command: str) -> None:
    assert findings(f"FROM python:3.12\nRUN {command}\n") == []


# --------------------------------------------------------------------------------------------------
# 6. GPU target lists that disagree


def test_gpu_targets_compared_as_sets_across_spellings() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        'ENV TORCH_CUDA_ARCH_LIST="8.0 9.0+PTX" CMAKE_CUDA_ARCHITECTURES="90-real;80"\n'
        "ARG PYTORCH_ROCM_ARCH=gfx90a;gfx942\n"
        "ENV GPU_TARGETS=gfx942,gfx90a:xnack- AMDGPU_TARGETS=${PYTORCH_ROCM_ARCH}\n"
    )
    assert findings(text) == []


def test_gpu_targets_that_disagree_one_warning_per_image() -> None:
    text = (
        "FROM rocm/dev-ubuntu-22.04:6.4.1 AS base\n"
        'ARG GPU_ARCH="gfx942;gfx950"\n'
        "ENV PYTORCH_ROCM_ARCH=${GPU_ARCH}\n"
        "ENV GPU_TARGETS=gfx942 HIP_ARCHITECTURES=gfx942;gfx950\n"
        'ENV TORCH_CUDA_ARCH_LIST="native" CMAKE_CUDA_ARCHITECTURES=90\n'  # `native`: not compared
        "FROM base AS app\n"
        "RUN true\n"
    )
    assert findings(text) == [
        (
            4,
            "AMD GPU targets disagree: PYTORCH_ROCM_ARCH (line 3) lists gfx942, gfx950, but GPU_TARGETS "
            "(line 4) lists gfx942 (not gfx950); the tools reading each build for different GPUs",
        )
    ]


def test_gpu_target_spellings() -> None:
    from docgen.lint import gpu_target_set

    assert gpu_target_set("NVIDIA", "7.5;8.0;8.6+PTX") == gpu_target_set("NVIDIA", "75 sm_80 86-virtual")
    assert gpu_target_set("NVIDIA", "9.0a 10.0") == frozenset({"90a", "100"})
    assert gpu_target_set("NVIDIA", "all-major") is None
    assert gpu_target_set("AMD", "gfx90a:sramecc+:xnack-;gfx1100") == frozenset({"gfx90a", "gfx1100"})
    assert gpu_target_set("AMD", "${GPU_ARCH}") is None


# --------------------------------------------------------------------------------------------------
# Realistic Dockerfiles written for these tests (tests/data/contents/)


def test_training_image_warnings_one_per_cause() -> None:
    found = lint_file(ROOT / "tests" / "data" / "contents" / "verl-cuda.Dockerfile", "Dockerfile")
    assert [(d.line, d.message.split(";")[0].split(" although")[0]) for d in found] == [
        (
            8,  # sm_100 on the CUDA 12.6.3 base
            "CMAKE_CUDA_ARCHITECTURES lists GPU target 100, which the base image's CUDA 12.6.3 cannot "
            "compile: sm_100 needs CUDA 12.8 or later",
        ),
        (
            8,
            "NVIDIA GPU targets disagree: TORCH_CUDA_ARCH_LIST (line 8) lists 80, 90, but "
            "CMAKE_CUDA_ARCHITECTURES (line 8) lists 80, 90, 100 (also 100)",
        ),
        # thirteen lines hard-code python3.11: one warning naming them all
        (
            19,
            "3.11 is written literally here and on lines 22-24, 41, 43-44, 50, 55, 59-60, 68-69 (python3.11)",
        ),
        (42, "12.6.3 is written literally here (cu126)"),
        (
            50,
            'pip install option -no-build-isolation: pip has no short option -n and stops with "no such '
            'option: -n" (did you mean --no-build-isolation?)',
        ),
    ]


def test_serving_image_warnings() -> None:
    found = lint_file(ROOT / "tests" / "data" / "contents" / "sglang-rocm.Dockerfile", "Dockerfile")
    assert [(d.line, d.message.split(";")[0]) for d in found] == [
        (
            8,
            "AMD GPU targets disagree: PYTORCH_ROCM_ARCH (line 8) lists gfx942, gfx950, but GPU_TARGETS "
            "(line 8) lists gfx942 (not gfx950)",
        )
    ]


def test_a_shell_keyword_joined_to_an_install_command_is_a_warning_not_a_package(tmp_path: Path) -> None:
    """`pip install x \\` then `fi`: the `;` is missing, so the shell hands pip a package called `fi`
    (seen in a public SGLang Dockerfile); `echo done` is no install and stays quiet."""
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "FROM python:3.12\nARG CUDA_VERSION=12.9.1\n"
        'RUN if [ "${CUDA_VERSION%%.*}" != "13" ]; then \\\n'
        "      pip install nvidia-nvshmem-cu12==3.4.5 \\\n"
        "    fi && apt-get install -y curl done && echo done\n"
    )
    found = lint_file(dockerfile, "Dockerfile")
    assert [(d.line, d.rule, d.message.split(":")[0]) for d in found] == [
        (5, "DG008", "pip install gets `fi` as an argument"),
        (5, "DG008", "apt-get install gets `done` as an argument"),
    ]
    names = [c.name for c in build_model(dockerfile, "Dockerfile").components]
    assert names == ["python", "nvidia-nvshmem-cu12", "curl"]


def test_a_gpu_target_the_base_images_cuda_cannot_compile(tmp_path: Path) -> None:
    """`TORCH_CUDA_ARCH_LIST` with 12.0 on a CUDA 12.6 base: nvcc 12.6 knows no sm_120, the build fails
    (DG009). The same list on a CUDA 12.8 base, a list the release knows, and a stage whose base states
    no CUDA release stay quiet."""
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "ARG CUDA=12.6.3\n"
        "FROM nvidia/cuda:${CUDA}-devel-ubuntu22.04 AS build\n"
        'ARG TORCH_CUDA_ARCH_LIST="8.0;9.0;12.0"\n'
        "ENV CUDA_ARCHS=80;90\n"
        "RUN echo $TORCH_CUDA_ARCH_LIST $CUDA_ARCHS\n"
        "FROM example/runtime:latest\n"
        "ENV CMAKE_CUDA_ARCHITECTURES=120\n"
    )
    found = [(d.line, d.rule, d.message) for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG009"]
    assert found == [
        (
            3,
            "DG009",
            "TORCH_CUDA_ARCH_LIST lists GPU target 12.0, which the base image's CUDA 12.6.3 cannot "
            "compile: sm_120 needs CUDA 12.8 or later",
        )
    ]
    dockerfile.write_text(dockerfile.read_text().replace("12.6.3", "12.8.1"))
    assert [d for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG009"] == []


# --------------------------------------------------------------------------------------------------
# DG011: a RUN that only sets shell variables


def lost(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(text)
    return [(d.line, d.message) for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG011"]


def test_an_allocator_switch_made_of_shell_variables_is_lost(tmp_path: Path) -> None:
    """Modelled on an Intel GPU image: a build arg picks an allocator by setting two shell variables in
    an `if` of their own RUN, and later lines read the ARGs of the same names, which never changed."""
    text = (
        "FROM ubuntu:22.04\n"
        "ARG ALLOCATOR=tcmalloc\n"
        "ARG ALLOCATOR_PACKAGE=libgoogle-perftools-dev\n"
        "ARG ALLOCATOR_LD_PRELOAD=/usr/lib/libtcmalloc.so\n"
        'RUN if [ "${ALLOCATOR}" = "jemalloc" ] ; then \\\n'
        "       ALLOCATOR_PACKAGE=libjemalloc-dev; \\\n"
        "       ALLOCATOR_LD_PRELOAD=/usr/lib/libjemalloc.so; \\\n"
        "    fi\n"
        "RUN apt-get update && apt-get install -y ${ALLOCATOR_PACKAGE}\n"
        "ENV LD_PRELOAD=${ALLOCATOR_LD_PRELOAD}\n"
    )
    assert lost(tmp_path, text) == [
        (
            5,
            "RUN only sets shell variables ALLOCATOR_PACKAGE, ALLOCATOR_LD_PRELOAD: they end with this RUN's "
            "shell, so no later instruction sees them (set them with ENV or ARG, or use them in the same "
            "RUN); line 9 reads ${ALLOCATOR_PACKAGE}, which still has its old value there",
        )
    ]


@pytest.mark.parametrize(
    "run",
    [
        "RUN export PATH=/opt/conda/bin:$PATH",  # modelled on a conda image's PATH line
        "RUN PATH=/usr/local/bin:$PATH",
        "RUN cd /workspace && export PYTHONPATH=/workspace/src",
        "RUN set -eux; export CUDA_HOME=/usr/local/cuda; echo $CUDA_HOME",
        "RUN declare -x TORCH_CUDA_ARCH_LIST='8.0;9.0'",
    ],
)
def test_a_run_that_only_sets_variables(tmp_path: Path, run: str) -> None:
    found = lost(tmp_path, f"FROM ubuntu:22.04\n{run}\nRUN make\n")
    assert [line for line, _ in found] == [2]
    assert "it ends with this RUN's shell" in found[0][1] or "they end with" in found[0][1]


@pytest.mark.parametrize(
    "run",
    [
        "RUN export DEBIAN_FRONTEND=noninteractive && apt-get update",  # a program reads it
        "RUN CC=clang make -j8",  # passed to the program
        "RUN echo 'export PATH=/opt/bin:$PATH' >> /etc/bash.bashrc",  # written to a file
        "RUN . /opt/venv/bin/activate",  # sourcing: another rule's concern, not a plain assignment
        'RUN ["/bin/sh", "-c", "X=1"]',  # exec form
        "RUN for v in 1 2; do X=$v; done",  # a loop: left alone
        'RUN case "$ARCH" in amd64) X=1 ;; esac',  # a case: left alone
        "RUN (X=1)",  # a subshell: left alone
        "RUN echo hello",  # nothing set
        "RUN <<EOF\nX=1\nEOF",  # a heredoc script: left alone
    ],
)
def test_runs_that_do_more_than_set_variables_are_quiet(tmp_path: Path, run: str) -> None:
    assert lost(tmp_path, f"FROM ubuntu:22.04\n{run}\n") == []


def test_a_powershell_image_is_not_read_as_sh(tmp_path: Path) -> None:
    text = (
        "FROM mcr.microsoft.com/windows/servercore:ltsc2022\n"
        'SHELL ["powershell", "-Command"]\n'
        "RUN $env:X = 1\n"
        "RUN X=1\n"
    )
    assert lost(tmp_path, text) == []


def test_shell_syntax_in_a_copy(tmp_path: Path) -> None:
    """`COPY … || true` (modelled on a GPU app image copying optional helper scripts) and `ADD … 2>/dev/null`
    (a web image's optional config): no shell runs them, the words are sources and the destination is
    `true`, so the build fails (DG012). A glob, a folder destination, exec form, a heredoc and a RUN stay
    quiet."""
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "FROM nvidia/cuda:12.6.0-runtime-ubuntu22.04\n"
        'SHELL ["/bin/bash", "-o", "pipefail", "-c"]\n'
        "COPY ./services/app/scripts /home/app/scripts || true\n"
        "ADD conf/site.conf /etc/nginx/site.conf 2>/dev/null\n"
        "COPY app.py setup.cfg /srv/\n"
        "COPY extras* /opt/extras/\n"
        'COPY ["a b.json", "/srv/"]\n'
        "COPY <<EOF /srv/run.sh\ncp a b || true\nEOF\n"
        "RUN cp /srv/a /srv/b 2>/dev/null || true\n"
        "COPY entry.sh | tee /srv/entry.sh || true\n"  # a shell word among the first two, one after them
        "COPY | /srv/pipe\n"  # only among the first two: two plain sources and a destination
    )
    found = [d for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG012"]
    assert [(d.line, d.message.split(":")[0]) for d in found] == [
        (3, "COPY holds shell syntax (`|| true`)"),
        (4, "ADD holds shell syntax (`2>/dev/null`)"),
        (12, "COPY holds shell syntax (`|| true`)"),
    ]
    assert found[0].message.endswith(
        "no shell runs it, so these words are read as more sources and the destination true, which does "
        "not end in / as several sources need: the build fails (use a RUN, or a glob that may match nothing)"
    )


OCR_SERVER = """\
ARG CUDA=12.4.1
FROM nvidia/cuda:${CUDA}-cudnn-runtime-ubuntu22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y python3-pip > /dev/null 2>&1 \\
    && rm -rf /var/lib/apt/lists/*
RUN pip3 install --no-cache-dir \\
      inkscan>=2.9.1 \\
      "glyphnet<3" \\
      'tabread>=0.4' \\
      pageflow==1.2.0 \\
      layoutkit~=0.8 \\
      fastapi\\>=0.110 \\
      uvicorn 2>&1 | tee /tmp/pip.log
RUN python3 -m pip install -c /constraints.txt ocrserve >> /var/log/pip.log
RUN ["pip3", "install", "inkscan>=2.9.1"]
RUN echo inkscan>=2.9.1 && pip3 install gunicorn>/dev/null
RUN cat > /tmp/req.txt <<EOF
inkscan>=2.9.1
EOF
"""
"""A CUDA OCR server: one unquoted bound (line 7); quoted, escaped, `==`, `~=`, a pip log after a blank,
`2>&1`, a constraints file, exec form, an `echo`, a file target and a heredoc file body stay quiet."""

ROCM_TRAINER = """\
FROM rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0
ARG PYTORCH_ROCM_ARCH=gfx90a;gfx942
RUN pip install torch<2.6 deepspeed>=0.14,<0.16 && pip install accelerate >> /tmp/log
RUN <<EOT
set -e
pip install peftkit>=0.11
EOT
RUN conda install -y -c conda-forge mpi4py>=3.1 && uv pip install --system evalkit>1
RUN bash -c "pip install trlkit>=0.9"
# docgen: ignore=DG013 the log file is wanted
RUN pip install sentencekit>=0.2
"""
"""A ROCm trainer: `<` (the build fails: no file 2.6), a bound of two parts, a heredoc script, conda, `uv
pip`, a `bash -c` script (its shell reads the quoted text again), and one silenced in place."""


def test_an_unquoted_version_bound_is_a_redirection(tmp_path: Path) -> None:
    """`pip install inkscan>=2.9.1` in shell form: the shell installs `inkscan` with no bound and writes
    its output to a file `=2.9.1` (DG013); the components follow the shell."""
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(OCR_SERVER)
    found = [d for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG013"]
    assert [(d.line, d.message) for d in found] == [
        (
            7,
            "RUN line 6: pip3 install inkscan>=2.9.1 is read by the shell as inkscan with its output "
            'redirected to =2.9.1: quote the requirement ("inkscan>=2.9.1")',
        )
    ]
    dockerfile.write_text("".join(OCR_SERVER.splitlines(keepends=True)[:13]))  # the pip3 install RUN last
    versions = {c.name: c.version for c in build_model(dockerfile, "Dockerfile").components}
    assert (versions["inkscan"], versions["glyphnet"], versions["tabread"]) == (None, "<3", ">=0.4")
    assert "2.9.1" not in versions and "=2.9.1" not in versions


def test_unquoted_bounds_in_a_rocm_trainer(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(ROCM_TRAINER)
    found = [
        (d.line, d.message.split(" is read")[0])
        for d in lint_file(dockerfile, "Dockerfile")
        if d.rule == "DG013"
    ]
    assert found == [
        (3, "RUN line 3: pip install torch<2.6"),
        (3, "RUN line 3: pip install deepspeed>=0.14,<0.16"),
        (6, "RUN line 4: pip install peftkit>=0.11"),
        (8, "RUN line 8: conda install mpi4py>=3.1"),
        (8, "RUN line 8: uv pip install evalkit>1"),
        (9, "RUN line 9: pip install trlkit>=0.9"),
        (11, "RUN line 11: pip install sentencekit>=0.2"),
    ]
    torch = next(d for d in lint_file(dockerfile, "Dockerfile") if "torch<2.6" in d.message)
    assert "its input read from the file 2.6, which fails the build when there is none" in torch.message
    two = next(d for d in lint_file(dockerfile, "Dockerfile") if "deepspeed" in d.message)
    assert two.message.endswith('quote the requirement ("deepspeed>=0.14,<0.16")')


# DG014: bash-only syntax in a RUN dash runs

# modelled on a vision-language fine-tuning image that activates conda on PyTorch's Ubuntu image
CONDA_TUNE = """\
FROM pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel
COPY environment.yaml /tmp/environment.yaml
RUN source activate base && \\
    conda env create -f /tmp/environment.yaml
RUN conda run -n tune pip install flash-attn --no-build-isolation
RUN bash -c 'source activate tune && pip install peft'
RUN ["bash", "-c", "source activate tune && python -c 'import peft'"]
RUN echo "source activate tune" >> ~/.bashrc
RUN . /opt/conda/etc/profile.d/conda.sh && conda activate tune
"""

# modelled on a ROS 2 workspace image on Ubuntu: a builder stage sets SHELL, the runtime stage built on
# it inherits it; a second image from ubuntu relinks /bin/sh first
ROS_WORKSPACE = """\
ARG ROS=humble
FROM ubuntu:22.04 AS base
RUN mkdir -p /ws/{src,install}
RUN if [[ -n "$ROS" ]]; then echo ros; fi
FROM base AS builder
SHELL ["/bin/bash", "-c"]
RUN source /opt/ros/humble/setup.bash && colcon build
FROM builder AS runtime
RUN source /ws/install/setup.bash && ros2 pkg list
FROM ubuntu:22.04 AS tools
RUN ln -sf /bin/bash /bin/sh
RUN source /etc/profile && make tools
FROM ubuntu:22.04 AS heredocs
RUN <<EOF
#!/bin/bash
source /etc/profile
EOF
RUN <<EOF
function fetch { curl -fsSL "$1"; }
EOF
RUN cat > /ws/env.sh <<'EOF'
source /opt/ros/humble/setup.sh
EOF
"""


def test_bash_syntax_dash_runs(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(CONDA_TUNE)
    found = [d for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG014"]
    assert [d.line for d in found] == [3]
    assert found[0].message == (
        "RUN uses `source`, bash-only syntax, but /bin/sh runs it and /bin/sh is dash in "
        "pytorch/pytorch:2.6.0-cuda12.6-cudnn9-devel: `source: not found`, status 127 and the RUN fails "
        '(use `.` for `source`, or put SHELL ["/bin/bash", "-c"] before this RUN)'
    )


def test_bash_syntax_follows_stages_shells_and_heredocs(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(ROS_WORKSPACE)
    found = [d for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG014"]
    assert [(d.line, d.message.split(",")[0]) for d in found] == [
        (3, "RUN uses `{src"),
        (4, "RUN uses `[[`"),
        (19, "RUN uses `function`"),
    ]
    assert "it makes one path named `/ws/{src,install}`" in found[0].message
    assert "a syntax error: dash runs none of the RUN" in found[2].message


@pytest.mark.parametrize(
    "base",
    ["alpine:3.20", "rockylinux:9", "nvidia/cuda:12.4.1-devel-ubi9", "myorg/base:1", "python:3.12-alpine"],
)
def test_bash_syntax_on_other_shells_is_silent(tmp_path: Path, base: str) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(f"FROM {base}\nRUN source /etc/profile && [[ -d /opt ]] && make\n")
    assert [d for d in lint_file(dockerfile, "Dockerfile") if d.rule == "DG014"] == []
