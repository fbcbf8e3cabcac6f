"""Rows of the rendered sections as a maintainer reads them: faults found by reading the golden
READMEs of tests/data/realworld-readmes/ row by row, one test each."""

from __future__ import annotations

import io
from pathlib import Path

from helpers import make_tree

from docgen.cli import main
from docgen.pipeline import build_model
from docgen.render import RenderOptions, render_sections


def sections(tmp_path: Path, text: str, **options: object) -> dict[str, str]:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(text, encoding="utf-8")
    return render_sections(build_model(dockerfile, "Dockerfile"), RenderOptions(**options))  # type: ignore[arg-type]


SELECTED_STAGE = """\
ARG REMOTE_VLLM="0"
ARG VLLM_BRANCH="v0.11.0"
FROM rocm/vllm-dev:base AS base
FROM base AS fetch_vllm_0
COPY ./ vllm/
FROM base AS fetch_vllm_1
ARG VLLM_BRANCH
RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout ${VLLM_BRANCH}
FROM fetch_vllm_${REMOTE_VLLM} AS fetch_vllm
FROM fetch_vllm AS build_vllm
RUN cd vllm && python3 setup.py bdist_wheel
FROM base AS final
ARG PYTHON_VERSION=3.12
RUN --mount=type=bind,from=build_vllm,src=/app/vllm/dist,target=/install pip install /install/*.whl
"""


def test_no_key_version_from_an_arg_of_a_stage_the_default_build_skips(tmp_path: Path) -> None:
    # REMOTE_VLLM=0 builds the checkout of the build context: v0.11.0 is not the image's vLLM
    versions = sections(tmp_path, SELECTED_STAGE)["versions"]
    assert "v0.11.0" not in versions
    assert "| Python | `3.12` |" in versions  # an arg of a stage that is built still gives its row


def test_key_version_from_an_arg_of_a_stage_the_target_copies_from(tmp_path: Path) -> None:
    text = SELECTED_STAGE.replace('REMOTE_VLLM="0"', 'REMOTE_VLLM="1"')
    assert "| vLLM | `v0.11.0` |" in sections(tmp_path, text)["versions"]


def test_a_note_without_a_purpose_does_not_start_with_a_line_break(tmp_path: Path) -> None:
    text = (
        "FROM ubuntu:22.04\nARG CUDA_VER=13.0\nARG NCCL_VER=2.27.7-1+cuda13.0\n"
        "RUN echo ${CUDA_VER} ${NCCL_VER}\n"
    )
    row = next(r for r in sections(tmp_path, text)["build-args"].splitlines() if r.startswith("| `CUDA_VER`"))
    assert "| `13.0` | Also hard-coded at line 3 (cuda13.0)" in row
    assert "<br>" not in row


def test_an_arch_env_from_the_base_image_is_not_said_to_be_missing(tmp_path: Path) -> None:
    text = (
        "FROM rocm/vllm-dev:base\nARG ARG_PYTORCH_ROCM_ARCH\n"
        "ENV PYTORCH_ROCM_ARCH=${ARG_PYTORCH_ROCM_ARCH:-${PYTORCH_ROCM_ARCH}}\n"
    )
    found = sections(tmp_path, text, arch_arg="PYTORCH_ROCM_ARCH")["hardware"]
    assert "sets no" not in found
    assert found == (
        "No GPU targets listed: `PYTORCH_ROCM_ARCH` is set at L3 from a value this Dockerfile does not give "
        "(its base image's environment); `--build-arg ARG_PYTORCH_ROCM_ARCH=...` sets it.\n"
    )


def test_nvidia_library_wheels_are_the_key_versions_of_nccl_and_cudnn(tmp_path: Path) -> None:
    text = (
        "FROM nvidia/cuda:12.9.1-cudnn-devel-ubuntu24.04\n"
        "RUN pip install torch==2.8.0 nvidia-nccl-cu12==2.27.6 nvidia-cudnn-cu12==9.10.2.21\n"
    )
    found = sections(tmp_path, text)
    assert "| NCCL | `2.27.6` | [pypi.org/project/nvidia-nccl-cu12/]" in found["versions"]
    assert "| cuDNN | `9.10.2.21` | [pypi.org/project/nvidia-cudnn-cu12/]" in found["versions"]
    assert "| nvidia-nccl-cu12 | `2.27.6` |" in found["contents"]  # the contents row keeps the package name


def test_nvidia_library_debs_are_the_key_versions_of_nccl_and_cudnn(tmp_path: Path) -> None:
    text = (
        "FROM nvidia/cuda:12.2.2-devel-ubuntu22.04\n"
        "RUN apt-get update && apt-get install -y libcudnn8=8.9.7.29-1+cuda12.2 libnccl2=2.19.3-1+cuda12.2 "
        "libssl3=3.0.2-0ubuntu1\n"
    )
    found = sections(tmp_path, text)
    assert "| cuDNN | `8.9.7.29` |" in found["versions"]
    assert "| NCCL | `2.19.3` |" in found["versions"]
    assert "| ssl |" not in found["versions"] and "| libssl3 |" not in found["versions"]  # not a key library


def test_a_release_candidate_of_the_value_is_not_the_value_written_again(tmp_path: Path) -> None:
    text = (
        "FROM ubuntu:22.04\nARG VLLM_TAG=v0.10.2\nARG VLLM_ASCEND_TAG=v0.10.2rc1\n"
        "RUN git clone -b ${VLLM_TAG} https://github.com/vllm-project/vllm.git\n"
        "RUN pip install torch==2.7.1 && pip install apex==2.7.1.post1\n"
        "ARG TORCH_VERSION=2.7.1\nRUN echo ${VLLM_ASCEND_TAG} ${TORCH_VERSION}\n"
    )
    rows = {r.split(" | ")[0]: r for r in sections(tmp_path, text)["build-args"].splitlines()}
    assert "hard-coded" not in rows["| `VLLM_TAG`"]
    assert "Also hard-coded at line 5 (2.7.1)" in rows["| `TORCH_VERSION`"]  # the exact value still counts


def test_a_one_line_file_header_is_not_the_purpose_of_the_first_arg(tmp_path: Path) -> None:
    text = (
        "# syntax=docker/dockerfile:1\n# RL training image for AMD GPUs on top of AMD's PyTorch image.\n"
        "ARG BASE_IMAGE=rocm/pytorch:latest\nFROM ${BASE_IMAGE}\n"
    )
    assert "| `BASE_IMAGE` | `rocm/pytorch:latest` |  |" in sections(tmp_path, text)["build-args"]


def test_a_global_arg_a_from_line_reads_says_so_next_to_its_stages(tmp_path: Path) -> None:
    # `--build-arg CUDA_VERSION=13.0.1` changes the base image, not only what stage base does with it
    text = (
        "ARG CUDA_VERSION=12.9.1\nFROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04 AS base\n"
        "ARG CUDA_VERSION\nRUN echo ${CUDA_VERSION}\nARG OTHER=1\n"
    )
    rows = sections(tmp_path, text)["build-args"]
    assert "| `CUDA_VERSION` | `12.9.1` |  | global (FROM lines), base |" in rows
    assert "| `OTHER` | `1` |  | base |" in rows


def test_targets_of_a_base_image_built_by_a_configured_dockerfile(tmp_path: Path) -> None:
    block = "<!-- BEGIN docgen:hardware -->\n<!-- END docgen:hardware -->\n"
    make_tree(
        tmp_path,
        {
            "pyproject.toml": (
                '[tool.docgen]\narch-arg = "PYTORCH_ROCM_ARCH"\n'
                '[[tool.docgen.images]]\ndockerfile = "Dockerfile.base"\noutputs = ["BASE.md"]\n'
                'produces = ["org/base:1"]\n'
                '[[tool.docgen.images]]\ndockerfile = "Dockerfile"\noutputs = ["README.md"]\n'
            ),
            "Dockerfile.base": "FROM rocm/dev-ubuntu-22.04:7.0-complete\nARG PYTORCH_ROCM_ARCH=gfx942\n",
            "Dockerfile": (
                "FROM org/base:1\nARG ARG_PYTORCH_ROCM_ARCH\n"
                "ENV PYTORCH_ROCM_ARCH=${ARG_PYTORCH_ROCM_ARCH:-${PYTORCH_ROCM_ARCH}}\n"
            ),
            "BASE.md": block,
            "README.md": block,
        },
    )
    assert main(["sync", "--config", str(tmp_path / "pyproject.toml")], io.StringIO(), io.StringIO()) == 0
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "| `gfx942` | AMD | CDNA3 |" in readme
    assert (
        "Kernels are compiled for the targets in `PYTORCH_ROCM_ARCH` of the base image, set in "
        "`Dockerfile.base` ([L2](Dockerfile.base#L2)), which builds it (`--build-arg PYTORCH_ROCM_ARCH=...` "
        "of that build changes them); `--build-arg ARG_PYTORCH_ROCM_ARCH=...` changes the targets of what "
        "this Dockerfile compiles.\n"
    ) in readme


def test_audit_takes_a_sibling_image_named_by_its_version_for_no_claim(tmp_path: Path) -> None:
    from docgen.audit import audit

    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("ARG CUDA_VERSION=12.9.1\nFROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04\n")
    model = build_model(dockerfile, "Dockerfile")
    readme = (
        "# Serving image\n\nThe CUDA 13.0 image has its own Dockerfile.\n\n"
        "Uses the CUDA 12.8 image.\n\nIt ships CUDA 13.0.\n"
    )
    found = [(d.line, d.message) for d in audit(readme, "README.md", model)]
    assert [line for line, _ in found] == [5, 7]  # what this image holds, not the sibling named on line 3


def test_a_clone_of_pytorch_vision_is_torchvision(tmp_path: Path) -> None:
    text = (
        "FROM ubuntu:22.04\nARG PYTORCH_VISION_BRANCH=v0.24.0\n"
        "RUN git clone https://github.com/pytorch/vision.git && cd vision\n"
        "RUN cd vision && git checkout ${PYTORCH_VISION_BRANCH} && python3 setup.py bdist_wheel\n"
    )
    assert (
        "| torchvision | `v0.24.0` | [github.com/pytorch/vision.git]" in sections(tmp_path, text)["contents"]
    )
    renamed = sections(tmp_path, text, names={"vision": "TorchVision (source)"})["contents"]
    assert "| TorchVision (source) | `v0.24.0` |" in renamed  # the config's name still wins


def test_torch_npu_is_a_key_version_of_an_ascend_image(tmp_path: Path) -> None:
    text = (
        "FROM quay.io/ascend/cann:8.2.rc1-910b-ubuntu22.04-py3.11\n"
        "RUN pip install torch==2.7.1 torch_npu==2.7.1\n"
    )
    assert "| torch-npu | `2.7.1` |" in sections(tmp_path, text)["versions"]


def test_a_narrower_target_list_of_the_image_is_named_under_the_table(tmp_path: Path) -> None:
    text = (
        "FROM rocm/dev-ubuntu-22.04:7.0-complete\nARG PYTORCH_ROCM_ARCH=gfx90a;gfx942;gfx950;gfx1100\n"
        "ENV PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}\nENV AITER_ROCM_ARCH=gfx942;gfx950\n"
        "ENV GFX_ARCH=gfx90a|gfx942|gfx950|gfx1100\nARG TARGETARCH\nENV MY_ARCH=x86_64\n"
    )
    found = sections(tmp_path, text, arch_arg="PYTORCH_ROCM_ARCH")["hardware"]
    assert found.endswith(
        "`AITER_ROCM_ARCH` (L4) lists other targets, `gfx942;gfx950`: what reads it is built for those.\n"
    )
    assert "GFX_ARCH" not in found and "MY_ARCH" not in found  # the same targets; not a target list


def test_stages_the_default_build_skips_are_marked(tmp_path: Path) -> None:
    found = sections(tmp_path, SELECTED_STAGE)
    assert "| `VLLM_BRANCH` | `v0.11.0` |  | fetch_vllm_1 (not built by default) |" in found["build-args"]
    assert "| `PYTHON_VERSION` | `3.12` |  | final |" in found["build-args"]
    # what the stage the default build does not choose installs is not in the image: no row (the
    # rows of a stage no target reaches are marked instead; see the next test)
    assert "fetch_vllm_1" not in found["contents"]


def test_rows_of_a_stage_no_target_reaches_are_marked(tmp_path: Path) -> None:
    """A stage built only with `--target test` is still documented, marked, not dropped."""
    text = (
        "FROM python:3.12-slim AS app\nRUN pip install flask==3.0.3\n"
        "FROM app AS test\nRUN pip install pytest==8.3.2\n"
        "FROM app AS final\nCOPY . /app\n"
    )
    found = sections(tmp_path, text)
    assert (
        "| pytest | `8.3.2` | [pypi.org/project/pytest/](https://pypi.org/project/pytest/) "
        in (found["contents"])
    )
    assert "| `test` (not built by default) | L4 |" in found["contents"]
    assert "| `app` | L2 |" in found["contents"]


def test_python_from_the_base_tag_alone_keeps_the_pinned_components_of_an_unknown_stack(
    tmp_path: Path,
) -> None:
    # `python:3.11-slim` names Python, but nothing else of the stack is a name docgen knows: the
    # versions the Dockerfile pins by build args stay Key versions
    text = "FROM python:3.11-slim\nARG ESPNET_VERSION=202412\nRUN pip install espnet==${ESPNET_VERSION}\n"
    versions = sections(tmp_path, text)["versions"]
    assert "| Python | `3.11` |" in versions and "`202412`" in versions


def test_paddlepaddle_is_the_framework_of_a_paddle_image(tmp_path: Path) -> None:
    text = (
        "FROM example.com/paddle/qa:cuda126-py310-base\n"
        "ARG PADDLE_VERSION=3.2.1\n"
        "RUN python -m pip install paddlepaddle-gpu==${PADDLE_VERSION}\n"
    )
    assert "| PaddlePaddle | `3.2.1` |" in sections(tmp_path, text)["versions"]


OPTIONAL_BUILD = """\
FROM rocm/dev-ubuntu-22.04:6.4-complete
ENV WITH_FLASHINFER=0
ARG FLASHINFER_COMMIT=3c1f3a2b9d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a
ARG DEEPSPEED_VERSION=0.16.4
RUN pip install deepspeed==${DEEPSPEED_VERSION} && \\
    if [ "$WITH_FLASHINFER" = "1" ]; then \\
        git clone https://github.com/flashinfer-ai/flashinfer.git \\
     && cd flashinfer && git checkout ${FLASHINFER_COMMIT} && pip install . ; \\
    fi
"""


def test_no_key_version_from_an_arg_read_only_in_a_branch_the_build_never_takes(tmp_path: Path) -> None:
    # ENV WITH_FLASHINFER=0: the clone is not in the image, nor is the commit its arg names
    found = sections(tmp_path, OPTIONAL_BUILD)
    assert "3c1f3a2b" not in found["versions"] and "FlashInfer" not in found["versions"]
    assert "| DeepSpeed | `0.16.4` |" in found["versions"]
    commit = "3c1f3a2b9d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a"
    assert f'| `FLASHINFER_COMMIT` | <code title="{commit}">' in found["build-args"]  # a user may pass it


def test_a_case_branch_the_build_never_takes_reads_no_key_version(tmp_path: Path) -> None:
    text = (
        "FROM ubuntu:24.04\nENV GPU_VENDOR=amd\nARG FA_COMMIT=b7d29fb\nARG TORCH_VERSION=2.7.1\n"
        'RUN pip install torch==${TORCH_VERSION} && case "$GPU_VENDOR" in \\\n'
        "  nvidia) pip install git+https://github.com/Dao-AILab/flash-attention.git@${FA_COMMIT} ;; \\\n"
        "  *) echo no flash-attention ;; \\\n  esac\n"
    )
    versions = sections(tmp_path, text)["versions"]
    assert "Flash Attention" not in versions and "| PyTorch | `2.7.1` |" in versions


def test_an_arg_read_in_a_branch_docgen_cannot_decide_keeps_its_key_version(tmp_path: Path) -> None:
    text = OPTIONAL_BUILD.replace('[ "$WITH_FLASHINFER" = "1" ]', "[ -f /opt/want-flashinfer ]")
    assert "| FlashInfer | `3c1f3a2b` |" in sections(tmp_path, text)["versions"]


def test_an_arg_read_outside_the_dead_branch_too_keeps_its_key_version(tmp_path: Path) -> None:
    text = OPTIONAL_BUILD + 'RUN echo "flashinfer $(echo ${FLASHINFER_COMMIT})" >> /opt/versions.txt\n'
    assert "| FlashInfer | `3c1f3a2b` |" in sections(tmp_path, text)["versions"]
    same_run = OPTIONAL_BUILD.replace("RUN pip", "RUN echo ${FLASHINFER_COMMIT} && pip")
    assert "| FlashInfer | `3c1f3a2b` |" in sections(tmp_path, same_run)["versions"]


def test_an_arg_a_false_test_reads_is_still_read(tmp_path: Path) -> None:
    # the test runs even though its branch does not: TORCH_VERSION is what the image was built with
    text = (
        "FROM ubuntu:24.04\nARG TORCH_VERSION=2.6.0\n"
        'RUN if [ "$TORCH_VERSION" = "2.4.0" ]; then pip install old-shim; fi\n'
    )
    assert "| PyTorch | `2.6.0` |" in sections(tmp_path, text)["versions"]


FORKED = """\
FROM rocm/dev-ubuntu-22.04:6.4-complete
RUN git clone https://github.com/acme-labs/vllm_fork.git && cd vllm_fork \\
 && git checkout v0.9.2-mi300 && python3 setup.py develop
RUN pip install git+https://github.com/acme-labs/torch_memory_saver.git@v0.0.8
"""


def test_a_fork_named_after_vllm_is_vllm_with_its_source(tmp_path: Path) -> None:
    found = sections(tmp_path, FORKED)
    source = "[github.com/acme-labs/vllm_fork.git](https://github.com/acme-labs/vllm_fork.git)"
    assert f"| vLLM | `v0.9.2-mi300` | {source} |" in found["versions"]
    assert f"| vLLM (acme-labs fork) | `v0.9.2-mi300` | {source} |" in found["contents"]
    assert "| torch_memory_saver | `v0.0.8` |" in found["contents"]  # another project, not PyTorch


def test_a_fork_named_checkout_that_is_not_built_keeps_its_name(tmp_path: Path) -> None:
    # a checkout nothing installs may be a folder of patches: it is not vLLM
    text = FORKED.replace(" && python3 setup.py develop", "")
    found = sections(tmp_path, text)
    assert "vLLM" not in found["versions"] and "| vllm_fork | `v0.9.2-mi300` |" in found["contents"]


def test_vllm_ascend_stays_a_plugin_of_its_own(tmp_path: Path) -> None:
    text = (
        "FROM quay.io/ascend/cann:8.2.rc1-910b-ubuntu22.04-py3.11\n"
        "RUN git clone -b v0.9.1 https://github.com/vllm-project/vllm-ascend.git\n"
        "RUN cd vllm-ascend && pip install -e .\n"
    )
    versions = sections(tmp_path, text)["versions"]
    assert "| vLLM Ascend | `v0.9.1` |" in versions and "| vLLM |" not in versions
