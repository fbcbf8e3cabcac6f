"""What a Dockerfile removes again is not listed: `pip uninstall`, `apt-get remove|purge`, `conda|mamba
remove`, and `rm -rf` of a clone nothing was installed from, in the same RUN, a later RUN or a stage built
FROM the one that installed it. A later install lists the package again; `--verbose` says where each went."""

from __future__ import annotations

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate


def _read(text: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    rows = [(c.name, c.display_version, c.stage) for c in found if c.kind != "image"]
    return rows, [s.message for s in skipped]


def test_pip_install_then_uninstall_in_the_same_run_keeps_only_the_dependencies() -> None:
    rows, skipped = _read(
        "FROM python:3.12\nARG VERL_VERSION=v0.6.1\n"
        'RUN pip install "git+https://github.com/volcengine/verl.git@${VERL_VERSION}" && \\\n'
        "    pip uninstall -y verl\n"
    )
    assert rows == []
    assert skipped == ["verl is removed again at line 4 (pip uninstall); not listed"]


def test_uninstall_matches_names_as_pip_does() -> None:
    rows, _ = _read(
        "FROM python:3.12\nRUN pip install flash_attn==2.8.1 torch==2.7.1\nRUN pip uninstall -y Flash-Attn\n"
    )
    assert rows == [("torch", "2.7.1", "#0")]


def test_a_package_reinstalled_after_its_removal_is_listed_with_the_new_version() -> None:
    rows, _ = _read(
        "FROM python:3.12 AS base\nRUN pip install triton==3.2.0\n"
        "FROM base AS final\nRUN pip uninstall -y triton && pip install triton==3.3.1\n"
    )
    assert rows == [("triton", "3.3.1", "final")]


def test_a_removal_in_a_child_stage_takes_back_a_built_clone_of_the_parent() -> None:
    rows, _ = _read(
        "FROM python:3.12 AS base\n"
        "RUN git clone -b v3.3.1 https://github.com/triton-lang/triton.git /src/triton \\\n"
        "    && cd /src/triton/python && pip install . && rm -rf /src/triton\n"
        "FROM base\nRUN pip uninstall -y triton\n"
    )
    assert rows == []


def test_a_removal_in_a_sibling_stage_leaves_the_other_stage_alone() -> None:
    rows, _ = _read(
        "FROM python:3.12 AS a\nRUN pip install numpy==2.1.0\n"
        "FROM python:3.12 AS b\nRUN pip uninstall -y numpy\n"
    )
    assert rows == [("numpy", "2.1.0", "a")]


def test_uninstall_before_install_removes_nothing_installed_later() -> None:
    rows, _ = _read(
        "FROM python:3.12\nRUN pip uninstall -y vllm && git clone -b v0.6.3 https://github.com/vllm-project/vllm.git"
        " && cd vllm && python3 setup.py install && cd .. && rm -rf vllm\n"
    )
    assert rows == [("vllm", "v0.6.3", "#0")]


def test_apt_purge_and_remove() -> None:
    rows, skipped = _read(
        "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y curl git=1:2.34.1-1ubuntu1.12 wget \\\n"
        "    && apt-get purge -y --auto-remove curl && apt-get remove -y wget && apt-get autoremove -y\n"
    )
    assert [name for name, _, _ in rows] == ["git"]
    assert "curl is removed again at line 3 (apt-get purge); not listed" in skipped


def test_conda_and_mamba_remove() -> None:
    rows, _ = _read(
        "FROM condaforge/miniforge3:24.9.0-0\n"
        "RUN mamba install -y -c nvidia cuda-nvcc=12.6.85 numactl=2.0.18 && mamba remove -y cuda-nvcc\n"
        "RUN conda install -y conda-forge::gcc=13.2.0\nRUN conda uninstall -y gcc\n"
    )
    assert rows == [("numactl", "2.0.18", "#0")]


def test_a_clone_deleted_before_anything_was_installed_from_it_is_not_listed() -> None:
    rows, skipped = _read(
        "FROM python:3.12\n"
        "RUN git clone -b core_r0.16.0 https://github.com/NVIDIA/Megatron-LM.git /tmp/mlm \\\n"
        "    && rm -rf /tmp/mlm\n"
    )
    assert rows == []
    assert skipped == ["Megatron-LM is deleted at line 3 before anything was installed from it; not listed"]


def test_a_clone_built_or_copied_from_before_its_deletion_is_listed() -> None:
    rows, _ = _read(
        "FROM python:3.12\nWORKDIR /src\n"
        "RUN git clone https://github.com/deepseek-ai/DeepGEMM.git && cd DeepGEMM \\\n"
        "    && git checkout a1b2c3d4 \\\n"
        "    && cp -r include/deep_gemm /usr/local/include/ && cd .. && rm -rf DeepGEMM\n"
        "RUN git clone -b v1.7.1 https://github.com/NVIDIA/cutlass.git && cd cutlass && cmake -B build . \\\n"
        "    && cd /src && rm -rf cutlass\n"
    )
    assert [(name, version) for name, version, _ in rows] == [("DeepGEMM", "a1b2c3d4"), ("cutlass", "v1.7.1")]


def test_a_clone_configured_from_a_build_folder_beside_it_is_built() -> None:
    # `cmake ../src` (or `-S src`, `meson setup build src`) in a build folder of its own, `make install`
    # there, and both folders deleted: what was installed stays in the image, so the clone is listed
    rows, skipped = _read(
        "FROM ubuntu:22.04\n"
        "RUN mkdir -p /work && cd /work && git clone https://github.com/example/solver solver.src \\\n"
        "    && mkdir -p solver.build && cd solver.build \\\n"
        "    && cmake ../solver.src -DCMAKE_INSTALL_PREFIX=/opt/solver && make -j4 && make install\n"
        "RUN cd /work && git clone -b 1.4.0 https://github.com/example/meshkit && mkdir mk-build \\\n"
        "    && meson setup mk-build meshkit && ninja -C mk-build install\n"
        "RUN git clone https://github.com/example/notes /work/notes && mkdir /work/b && cd /work/b \\\n"
        "    && cmake -DNOTES_DIR=/work/notes /work/elsewhere && make\n"
        "RUN rm -rf /work\n"
    )
    assert [(name, version) for name, version, _ in rows] == [("solver", "unpinned"), ("meshkit", "1.4.0")]
    assert skipped == ["notes is deleted at line 9 before anything was installed from it; not listed"]


def test_deleting_a_clone_in_a_later_run_or_a_child_stage() -> None:
    rows, _ = _read(
        "FROM python:3.12 AS base\nRUN git clone https://github.com/ROCm/rocm-docs.git /src/docs\n"
        "FROM base\nRUN rm -rf /src\n"
    )
    assert rows == []


def test_a_removal_in_an_if_or_case_keeps_the_row() -> None:
    # CUDA_VERSION comes from the base image here, whose tag does not tell it (an nvidia/cuda one
    # would): the branch may run or not
    rows, skipped = _read(
        "FROM org/cuda-base:12.9.1-devel-ubuntu22.04\nRUN pip install torch==2.8.0 \\\n"
        ' && if [ "${CUDA_VERSION%%.*}" = "13" ]; then pip uninstall -y torch; fi\n'
        'RUN case "$CUDA_VERSION" in 13.*) apt-get purge -y curl ;; esac\n'
    )
    assert rows == [("torch", "2.8.0", "#0")]
    assert skipped[0] == "pip uninstall torch in an if or case: still listed"


def test_a_removal_in_a_loop_is_made() -> None:
    rows, _ = _read(
        "FROM python:3.12\nRUN pip install torch==2.8.0 && for p in torch; do pip uninstall -y torch; done\n"
    )
    assert rows == []


def test_a_clone_whose_own_script_ran_before_its_deletion_is_listed() -> None:
    rows, _ = _read(
        "FROM ubuntu:22.04\nRUN git clone -b v2.23.4-1 https://github.com/NVIDIA/nccl-tests.git /tmp/nt \\\n"
        "    && cd /tmp/nt && bash ./scripts/setup_env.sh && rm -rf /tmp/nt\n"
    )
    assert rows == [("nccl-tests", "v2.23.4-1", "#0")]


def test_a_removal_after_a_test_joined_by_and_keeps_the_row() -> None:
    rows, _ = _read(
        "FROM python:3.12\nARG SLIM=0\nRUN pip install torch==2.8.0 && "
        '[ "$SLIM" = "1" ] && pip uninstall -y torch || true\n'
    )
    assert rows == [("torch", "2.8.0", "#0")]
