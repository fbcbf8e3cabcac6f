"""What the default build really installs: branches a build arg's default rules out, platform-only
installs, stages a `FROM name_${ARG}` does not pick, pip run by any interpreter, `-r` files and apt
repositories (sources, not components), and the Key versions and build-args text that follow.

The Dockerfile snippets are written for these tests in the style of public GPU images (vLLM, SGLang,
verl, Isaac Lab); they are not copies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate
from docgen.model import Component
from docgen.pipeline import build_model
from docgen.render import RenderOptions, render_sections
from docgen.rows import version_rows


def _read(text: str) -> tuple[list[Component], list[str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    return [c for c in found if c.kind != "image"], [s.message for s in skipped]


def _rows(text: str) -> list[tuple[str, str, str | None]]:
    found, _ = _read(text)
    return [(c.name, c.display_version, c.condition) for c in found]


def _sections(tmp_path: Path, text: str, *sections: str) -> dict[str, str]:
    path = tmp_path / "Dockerfile"
    path.write_text(text, encoding="utf-8")
    model = build_model(path, "Dockerfile")
    return render_sections(model, RenderOptions(), list(sections))


def _key_versions(tmp_path: Path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "Dockerfile"
    path.write_text(text, encoding="utf-8")
    return [(r.name, r.version) for r in version_rows(build_model(path, "Dockerfile"), {}, None)]


# --------------------------------------------------------------------------------------------------
# Class 2: conditions


SCCACHE = """\
FROM ubuntu:22.04
ARG USE_SCCACHE
ARG SCCACHE_VERSION=0.8.1
RUN if [ "$USE_SCCACHE" = "1" ]; then \\
        curl -fsSL -o /tmp/sccache.tgz \\
          https://github.com/mozilla/sccache/releases/download/v${SCCACHE_VERSION}/sccache.tar.gz \\
        && tar -xzf /tmp/sccache.tgz -C /usr/local/bin --strip-components=1; \\
    fi
RUN pip install ninja==1.11.1
"""


def test_a_branch_an_unset_build_arg_rules_out_is_not_listed() -> None:
    found, skipped = _read(SCCACHE)
    assert [(c.name, c.display_version) for c in found] == [("ninja", "1.11.1")]
    assert any("in a branch the default build does not take" in s and "curl" in s for s in skipped)


@pytest.mark.parametrize(
    ("test", "installed"),
    [
        ('[ "$INSTALL_JIT" = "1" ]', False),
        ('[ "$INSTALL_JIT" != "0" ]', False),
        ('[ -n "$GB_ONLY" ]', False),
        ('[ -z "$GB_ONLY" ]', True),
        ('[[ "$INSTALL_JIT" == 1 ]]', False),
        ('test "$INSTALL_JIT" -eq 0', True),
        ('! [ "$INSTALL_JIT" = "1" ]', True),
        ('[[ "$CUDA_VERSION" == 12.* ]]', True),
        ('[ "${CUDA_VERSION%%.*}" = "13" ]', False),
    ],
)
def test_tests_on_build_arg_defaults_are_evaluated(test: str, installed: bool) -> None:
    text = (
        "FROM python:3.12\nARG INSTALL_JIT=0\nARG GB_ONLY=\nARG CUDA_VERSION=12.9.1\n"
        f"RUN if {test}; then pip install flashinfer-jit-cache==0.5.0; fi\n"
    )
    assert [name for name, _, _ in _rows(text)] == (["flashinfer-jit-cache"] if installed else [])


def test_else_and_elif_follow_the_default() -> None:
    text = (
        "FROM python:3.12\nARG GRACE_BLACKWELL=0\n"
        'RUN if [ "$GRACE_BLACKWELL" = "1" ]; then \\\n'
        "      git clone -b gb200_blog https://github.com/example/DeepEP.git /opt/DeepEP; \\\n"
        '    elif [ "$GRACE_BLACKWELL" = "2" ]; then pip install deep-ep==0.1; \\\n'
        "    else \\\n"
        "      git clone https://github.com/deepseek-ai/DeepEP.git /opt/DeepEP \\\n"
        "      && cd /opt/DeepEP && git checkout 9af0e0d0e74f3577af1979c9b9e1ac2cad0104ee \\\n"
        "      && pip install .; \\\n"
        "    fi\n"
    )
    assert _rows(text) == [("DeepEP", "9af0e0d0", None)]


def test_a_list_of_tests_joined_by_or_is_evaluated() -> None:
    """ci_base of the vLLM ROCm image: `ARG DEEPEP_NIC` bare, so neither cx7 nor io."""
    text = (
        "FROM ubuntu:22.04\nARG DEEPEP_NIC\n"
        'RUN if [ "${DEEPEP_NIC}" = "cx7" ] || [ "${DEEPEP_NIC}" = "io" ]; then \\\n'
        "    git clone --branch v62.0 --depth 1 https://github.com/linux-rdma/rdma-core.git /tmp/rdma \\\n"
        "    && cd /tmp/rdma && bash build.sh; fi\n"
    )
    assert _rows(text) == []
    assert _rows(text.replace("ARG DEEPEP_NIC\n", "ARG DEEPEP_NIC=io\n")) == [("rdma-core", "v62.0", None)]


def test_a_test_joined_by_and_or_or_to_one_command() -> None:
    text = (
        "FROM python:3.12\nARG SLIM=0\n"
        'RUN [ "$SLIM" = 1 ] && pip install tiny==1.0\n'
        'RUN [ "$SLIM" = 1 ] || pip install full==2.0\n'
    )
    assert [name for name, _, _ in _rows(text)] == ["full"]


ARM = """\
FROM nvidia/cuda:12.8.1-devel-ubuntu22.04
ARG TARGETPLATFORM
RUN if [ "$TARGETPLATFORM" = "linux/arm64" ]; then \\
        pip install --pre torch==2.8.0.dev20250318+cu128 torchvision==0.22.0.dev20250319 \\
          --index-url https://download.pytorch.org/whl/nightly/cu128; \\
    else \\
        pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/cu128; \\
    fi
RUN if [ "$TARGETPLATFORM" = "linux/arm64" ]; then pip install "bitsandbytes>=0.42.0"; \\
    else pip install "bitsandbytes>=0.45.3"; fi
"""


def test_a_platform_test_keeps_both_branches_with_a_note() -> None:
    assert _rows(ARM) == [
        ("torch", "2.8.0.dev20250318+cu128", "linux/arm64 only"),
        ("torchvision", "0.22.0.dev20250319", "linux/arm64 only"),
        ("torch", "2.7.1", "not linux/arm64"),
        ("bitsandbytes", ">=0.42.0", "linux/arm64 only"),
        ("bitsandbytes", ">=0.45.3", "not linux/arm64"),
    ]


def test_key_versions_never_take_a_platform_only_row(tmp_path: Path) -> None:
    assert ("PyTorch", "2.7.1") not in _key_versions(tmp_path, ARM)  # the amd64 row is conditional too
    assert not [v for name, v in _key_versions(tmp_path, ARM) if name == "PyTorch"]
    contents = _sections(tmp_path, ARM, "contents")["contents"]
    assert "torch (linux/arm64 only)" in contents or "PyTorch (linux/arm64 only)" in contents


def test_case_on_the_machine_names_the_platform() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "RUN case $(uname -m) in \\\n"
        "      x86_64) pip install memfabric==1.1.1 ;; \\\n"
        "      aarch64|arm64) pip install memfabric-arm==1.1.1 ;; \\\n"
        "    esac\n"
        'RUN [ "$TARGETARCH" = "arm64" ] && pip install sgl-kernel-npu==0.2.0\n'
    )
    assert _rows(text) == [
        ("memfabric", "1.1.1", "x86_64 only"),
        ("memfabric-arm", "1.1.1", "aarch64/arm64 only"),
        ("sgl-kernel-npu", "0.2.0", "arm64 only"),
    ]


def test_a_case_on_a_build_arg_takes_the_default_branch() -> None:
    text = (
        "FROM python:3.12\nARG CUDA_VERSION=12.9.1\n"
        'RUN case "$CUDA_VERSION" in 12.*) pip install nvidia-nccl-cu12==2.27.7 ;; '
        "13.*) pip install nvidia-nccl-cu13==2.28.3 ;; *) pip install nccl-other==1 ;; esac\n"
    )
    assert _rows(text) == [("nvidia-nccl-cu12", "2.27.7", None)]


REMOTE = """\
ARG REMOTE_VLLM="0"
ARG VLLM_REPO="https://github.com/vllm-project/vllm.git"
ARG VLLM_BRANCH="main"
FROM rocm/dev-ubuntu-22.04:7.0 AS base
FROM base AS fetch_0
COPY ./ /app/vllm/
FROM base AS fetch_1
ARG VLLM_REPO
ARG VLLM_BRANCH
RUN git clone ${VLLM_REPO} /app/vllm && cd /app/vllm && git checkout ${VLLM_BRANCH}
FROM fetch_${REMOTE_VLLM} AS fetch
FROM base AS final
COPY --from=fetch /app/vllm /app/vllm
RUN pip install vllm-extras==0.1.0
"""


def test_a_stage_a_from_variable_does_not_pick_is_not_listed(tmp_path: Path) -> None:
    found, skipped = _read(REMOTE)
    assert [c.name for c in found] == ["vllm-extras"]
    assert any("stage fetch_1" in s and "fetch_0 by default" in s for s in skipped)
    assert "vLLM" not in [name for name, _ in _key_versions(tmp_path, REMOTE)]  # not `vLLM main`


# --------------------------------------------------------------------------------------------------
# Class 3: pip by any name


@pytest.mark.parametrize(
    "pip",
    [
        "/workspace/isaaclab/_isaac_sim/python.sh -m pip",
        "${PYTHON} -m pip",
        "python3.12 -m pip",
        "$VENV/bin/pip",
        "/opt/venv/bin/pip3",
        "uv pip",
        "pip3.11",
        "/opt/venv/bin/python -m uv pip",
    ],
)
def test_pip_run_any_way_is_read(pip: str) -> None:
    text = f"FROM python:3.11\nRUN {pip} install --system easydict==1.9 robosuite==1.4.0\n"
    if "uv" not in pip:
        text = text.replace(" --system", "")
    assert _rows(text) == [("easydict", "1.9", None), ("robosuite", "1.4.0", None)]


def test_a_script_option_m_is_not_pip() -> None:
    assert _rows("FROM python:3.11\nRUN ./run.sh -m fast install x==1\n") == []


# --------------------------------------------------------------------------------------------------
# Class 4: requirements files


def test_requirements_files_are_not_rows_and_say_whose_they_are() -> None:
    text = (
        "FROM python:3.12\nARG PYTORCH_BRANCH=8514f051\n"
        "RUN git clone https://github.com/ROCm/pytorch.git /app/pytorch && cd /app/pytorch \\\n"
        "    && git checkout ${PYTORCH_BRANCH} && pip install -r requirements.txt \\\n"
        "    && python3 setup.py install\n"
        "RUN git clone --branch v2.9.0 https://github.com/pytorch/audio.git /app/audio && cd /app/audio \\\n"
        "    && pip install -r requirements.txt && pip install .\n"
    )
    found, skipped = _read(text)
    assert [c.name for c in found] == ["pytorch", "audio"]
    assert (
        "pip install -r requirements.txt of the pytorch checkout: its pins live in that file; not listed"
        in skipped
    )
    assert (
        "pip install -r requirements.txt of the audio checkout: its pins live in that file; not listed"
        in skipped
    )


# --------------------------------------------------------------------------------------------------
# Class 6: apt repositories


def test_a_ppa_is_the_source_of_its_packages_not_a_row() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "RUN add-apt-repository -y ppa:deadsnakes/ppa && apt-get update \\\n"
        "    && apt-get install -y python3.12 python3.12-dev\n"
        'RUN echo "deb https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64 /" \\\n'
        "      > /etc/apt/sources.list.d/cuda.list && apt-get update && apt-get install -y libglfw3\n"
        'RUN echo "deb [arch=amd64] https://repo.radeon.com/rocm/apt/6.4.1 jammy main" \\\n'
        "      > /etc/apt/sources.list.d/rocm.list && apt-get update && apt-get install -y rocm-dev\n"
    )
    found, _ = _read(text)
    assert [(c.name, c.kind, c.source) for c in found] == [
        ("python3.12", "apt", "ppa:deadsnakes/ppa"),
        ("python3.12-dev", "apt", "ppa:deadsnakes/ppa"),
        ("libglfw3", "apt", None),
        ("rocm", "apt-repo", "https://repo.radeon.com/rocm/apt/6.4.1"),  # a release: ROCm 6.4.1
        ("rocm-dev", "apt", "https://repo.radeon.com/rocm/apt/6.4.1"),
    ]


# --------------------------------------------------------------------------------------------------
# Class 8: post and dev releases in Key versions


def test_key_versions_keep_post_and_dev_releases(tmp_path: Path) -> None:
    text = (
        "FROM nvcr.io/nvidia/pytorch:24.05-py3\n"
        'RUN pip install vllm==0.6.3.post1 "sglang[all]==0.4.6.post5" triton==3.3.0.dev20250301\n'
    )
    rows = dict(_key_versions(tmp_path, text))
    assert rows["vLLM"] == "0.6.3.post1"
    assert rows["SGLang"] == "0.4.6.post5"
    assert rows["Triton"] == "3.3.0.dev20250301"


def test_a_local_label_is_left_out_only_when_the_link_shows_it(tmp_path: Path) -> None:
    wheel = "https://example.com/whl/torch-2.9.1.dev20251204%2Brocm7.0.2-cp312-cp312-linux_x86_64.whl"
    text = f"FROM python:3.12\nRUN pip install {wheel}\nRUN pip install flash-attn==2.8.3+cu12torch2.7\n"
    rows = dict(_key_versions(tmp_path, text))
    assert rows["PyTorch"] == "2.9.1.dev20251204"
    assert rows["Flash Attention"] == "2.8.3+cu12torch2.7"  # its link (pypi) does not show it


# --------------------------------------------------------------------------------------------------
# Class 9: names


def test_a_codeload_archive_is_named_by_its_repository() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "ADD --checksum=sha256:3bf25681b3e22ce9eb8160e5161fc3d18a6a58e7c9c1ac806d55dc0b786ed3b3 \\\n"
        "    https://codeload.github.com/ROCm/triton/tar.gz/0f380657dbf3ee86eb57558ff71df24f03b5d4e7 \\\n"
        "    /tmp/rocm-triton.tar.gz\n"
    )
    found, _ = _read(text)
    assert [(c.name, c.ref) for c in found] == [("triton", "0f380657dbf3ee86eb57558ff71df24f03b5d4e7")]


# --------------------------------------------------------------------------------------------------
# Class 12: untrue text


def test_proxy_args_given_a_default_are_build_args(tmp_path: Path) -> None:
    text = (
        "FROM isaac-lab-base:latest\n"
        "ARG http_proxy=http://10.1.2.3:3128\nARG HTTPS_PROXY=${http_proxy}\n"
        "RUN pip install easydict==1.9\n"
    )
    body = _sections(tmp_path, text, "build-args")["build-args"]
    assert "declares no build arguments" not in body
    assert "`http_proxy`" in body and "`HTTPS_PROXY`" in body
    plain = _sections(tmp_path, "FROM ubuntu:22.04\nARG http_proxy\nRUN true\n", "build-args")["build-args"]
    assert "declares no build arguments" in plain  # declared bare: Docker's own proxy arg


def test_an_install_script_without_a_version_names_the_script(tmp_path: Path) -> None:
    text = "FROM ubuntu:22.04\nCOPY install_nccl.sh /tmp/\nRUN bash /tmp/install_nccl.sh\n"
    found, _ = _read(text)
    assert [(c.name, c.display_version) for c in found] == [("nccl", "version set by install_nccl.sh")]
    assert "unpinned" not in _sections(tmp_path, text, "contents")["contents"]


def test_a_global_arg_the_base_image_may_set_leaves_the_test_undecided() -> None:
    """`ARG CUDA_VERSION` only before FROM; in RUN `$CUDA_VERSION` is whatever the base image sets,
    which the tag of an image docgen knows nothing about does not tell."""
    text = (
        "ARG CUDA_VERSION=12.9.1\nFROM org/cuda-base:${CUDA_VERSION}\n"
        'RUN if [ "${CUDA_VERSION%%.*}" = "12" ]; then pip install nvidia-nccl-cu12==2.28.3; \\\n'
        '    elif [ "${CUDA_VERSION%%.*}" = "13" ]; then pip install nvidia-nccl-cu13==2.28.3; fi\n'
    )
    depends = "depends on the base image's CUDA_VERSION"
    assert _rows(text) == [("nvidia-nccl-cu12", "2.28.3", depends), ("nvidia-nccl-cu13", "2.28.3", depends)]


def test_the_cuda_version_an_nvidia_cuda_image_sets_decides_the_test() -> None:
    """SGLang: `ARG CUDA_VERSION` only before FROM; every nvidia/cuda image sets `ENV CUDA_VERSION` to
    the release of its tag, so the branch the build takes is known, for the default and a variant."""
    text = (
        "ARG CUDA_VERSION=12.9.1\nFROM nvidia/cuda:${CUDA_VERSION}-cudnn-devel-ubuntu22.04\n"
        'RUN if [ "${CUDA_VERSION%%.*}" = "12" ]; then pip install nvidia-nccl-cu12==2.28.3; \\\n'
        '    elif [ "${CUDA_VERSION%%.*}" = "13" ]; then \\\n'
        "      pip install nvidia-nccl-cu13==2.28.3 torch==2.9.0; fi\n"
        'RUN case "$CUDA_VERSION" in 12.9.1) pip install sgl-kernel==0.3.16 ;; \\\n'
        "    *) pip install sgl-kernel==0.3.17 ;; esac\n"
    )
    assert _rows(text) == [("nvidia-nccl-cu12", "2.28.3", None), ("sgl-kernel", "0.3.16", None)]
    assert _rows(text.replace("=12.9.1", "=13.0.1")) == [
        ("nvidia-nccl-cu13", "2.28.3", None),
        ("torch", "2.9.0", None),
        ("sgl-kernel", "0.3.17", None),
    ]
    # a tag that gives no whole release (`12.9`) says nothing of the ENV: undecided, as before
    undecided = _rows(text.replace("${CUDA_VERSION}-cudnn", "12.9-cudnn"))
    assert {note for _, _, note in undecided} == {"depends on the base image's CUDA_VERSION"}


def test_a_shell_substitution_in_a_release_file_name_is_not_the_name() -> None:
    text = (
        "FROM ubuntu:22.04\nARG KERNEL_TAG=main\n"
        "RUN wget https://github.com/sgl-project/sgl-kernel-npu/releases/download/${KERNEL_TAG}/"
        "sgl-kernel-npu-${KERNEL_TAG}-torch2.10.0-py311-a3-$(arch).zip\n"
    )
    found, _ = _read(text)
    assert [(c.name, c.version) for c in found] == [("sgl-kernel-npu", "main")]


def test_a_from_that_is_only_a_variable_rules_no_stage_out() -> None:
    """TensorRT-LLM: `FROM ${DEVEL_IMAGE} AS wheel` (default `devel`) leaves `tritondevel` a target."""
    text = (
        "ARG DEVEL_IMAGE=devel\nFROM ubuntu:22.04 AS devel\nRUN pip install numpy==2.1.3\n"
        "FROM devel AS tritondevel\nRUN pip install tritonclient==2.59.0\n"
        "FROM ${DEVEL_IMAGE} AS wheel\nRUN pip install build==1.2.2\n"
    )
    assert [name for name, _, _ in _rows(text)] == ["numpy", "tritonclient", "build"]


def test_a_package_on_one_platform_and_on_the_others_keeps_both_rows() -> None:
    text = (
        "FROM python:3.12\n"
        'RUN if [ "$TARGETPLATFORM" = "linux/arm64" ]; then \\\n'
        '    pip install accelerate "bitsandbytes>=0.42.0"; \\\n'
        '    else pip install accelerate "bitsandbytes>=0.45.3"; fi\n'
    )
    assert _rows(text) == [
        ("accelerate", "unpinned", "linux/arm64 only"),
        ("bitsandbytes", ">=0.42.0", "linux/arm64 only"),
        ("accelerate", "unpinned", "not linux/arm64"),
        ("bitsandbytes", ">=0.45.3", "not linux/arm64"),
    ]


def test_an_installer_piped_to_a_shell_takes_the_version_it_is_told() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "RUN curl --proto '=https' -sSf https://just.systems/install.sh | \\\n"
        "    sed 's|github.com|mirror.example|g' | bash -s -- --tag 1.42.4 --to /usr/local/bin\n"
    )
    assert _rows(text) == [("just", "1.42.4", None)]


def test_key_versions_skip_a_row_the_base_image_decides(tmp_path: Path) -> None:
    text = (  # an image whose ENV docgen does not know (an nvidia/cuda tag would tell it)
        "ARG CUDA_VERSION=12.9.1\nFROM org/cuda-base:${CUDA_VERSION}-cudnn-devel-ubuntu22.04\n"
        'RUN if [ "${CUDA_VERSION%%.*}" = "13" ]; then pip install torch==2.9.0; fi\n'
    )
    assert "PyTorch" not in [name for name, _ in _key_versions(tmp_path, text)]
    assert (
        "PyTorch (depends on the base image's CUDA_VERSION)"
        in _sections(tmp_path, text, "contents")["contents"]
    )


# --------------------------------------------------------------------------------------------------
# Stages that build an artifact: in the image only when the image installs what they built

WHEEL_STAGES = """\
FROM rocm/dev-ubuntu-22.04:6.3.1-complete AS base
RUN pip install ninja==1.11.1

FROM base AS build_triton
RUN git clone https://github.com/ROCm/triton.git /src/triton \\
    && cd /src/triton && git checkout 3ca2f498e98ed7249b82722587c511a5610e00c4 \\
    && cd python && pip wheel . --no-deps -w /dist

FROM base AS final
"""


def test_a_wheel_built_in_a_stage_and_installed_in_the_final_one_is_listed(tmp_path: Path) -> None:
    text = WHEEL_STAGES + "RUN --mount=type=bind,from=build_triton,src=/dist,target=/w pip install /w/*.whl\n"
    assert ("Triton", "3ca2f498") in _key_versions(tmp_path, text)


def test_a_wheel_collected_by_a_stage_that_copies_it_is_listed(tmp_path: Path) -> None:
    text = WHEEL_STAGES.replace(
        "FROM base AS final\n",
        "FROM base AS wheels\n"
        "RUN --mount=type=bind,from=build_triton,src=/dist,target=/w cp /w/*.whl /wheels\n"
        "FROM base AS final\n"
        "RUN --mount=type=bind,from=wheels,src=/wheels,target=/w pip install /w/*.whl\n",
    )
    assert ("Triton", "3ca2f498") in _key_versions(tmp_path, text)


def test_the_final_stages_own_install_wins_over_a_wheel_stage(tmp_path: Path) -> None:
    """The final stage takes other files from the wheel stage and installs Triton from PyPI."""
    text = WHEEL_STAGES + (
        "COPY --from=build_triton /src/triton/LICENSE /licenses/\nRUN pip install triton==3.2.0\n"
    )
    assert ("Triton", "3.2.0") in _key_versions(tmp_path, text)
    assert ("Triton", "3ca2f498") not in _key_versions(tmp_path, text)


def test_a_wheel_used_up_building_another_stage_is_not_listed(tmp_path: Path) -> None:
    """Triton is installed into the stage that builds vLLM against it; the image gets only vLLM's
    wheel, and the Triton of its base image."""
    text = WHEEL_STAGES.replace(
        "FROM base AS final\n",
        "FROM base AS build_vllm\n"
        "RUN --mount=type=bind,from=build_triton,src=/dist,target=/w pip install /w/*.whl\n"
        "RUN git clone --branch v0.8.1 https://github.com/vllm-project/vllm.git /src/vllm \\\n"
        "    && cd /src/vllm && python3 setup.py bdist_wheel --dist-dir=/dist\n"
        "FROM base AS final\n"
        "RUN --mount=type=bind,from=build_vllm,src=/dist,target=/w pip install /w/*.whl\n",
    )
    rows = _key_versions(tmp_path, text)
    assert ("vLLM", "v0.8.1") in rows
    assert [name for name, _ in rows if name == "Triton"] == []


def test_a_pytorch_built_and_installed_wins_over_the_base_images(tmp_path: Path) -> None:
    text = (
        "FROM rocm/pytorch:rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.5.1 AS base\n"
        "FROM base AS build_torch\n"
        "RUN git clone --branch v2.6.0 https://github.com/pytorch/pytorch.git /src/pytorch \\\n"
        "    && cd /src/pytorch && python3 setup.py bdist_wheel --dist-dir=/dist\n"
        "FROM base\n"
        "COPY --from=build_torch /dist /tmp/dist\n"
        "RUN pip install /tmp/dist/*.whl\n"
    )
    assert ("PyTorch", "v2.6.0") in _key_versions(tmp_path, text)
