"""Versions as a reader knows them: Debian versions without epoch and revision, release branches named like
versions, one row per package, section headers and tool directives that are no purpose, and pins one step
removed (an install script's argument, a version assembled in the RUN)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate
from docgen.model import Component
from docgen.pipeline import build_model
from docgen.rows import version_rows
from docgen.sources.naming import ref_kind


def _read(text: str) -> tuple[tuple[Component, ...], list[str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    return found, [s.message for s in skipped]


def _one(text: str, name: str) -> Component:
    matches = [c for c in _read(text)[0] if c.name == name]
    assert len(matches) == 1, matches
    return matches[0]


@pytest.mark.parametrize(
    ("pin", "shown"),
    [
        ("1:2.34.1-1ubuntu1.10", "2.34.1"),
        ("2.21.5-1+cuda12.4", "2.21.5"),
        ("2.20.5.60204-139~22.04", "2.20.5.60204"),
        ("1.2", "1.2"),
    ],
)
def test_debian_versions_show_the_upstream_release_and_keep_the_whole_pin(pin: str, shown: str) -> None:
    comp = _one(f"FROM ubuntu:22.04\nRUN apt-get install -y git={pin}\n", "git")
    assert (comp.display_version, comp.pinned) == (shown, True)
    assert comp.ref == (pin if pin != shown else None)


@pytest.mark.parametrize(
    ("ref", "kind"),
    [
        ("core_r0.16.0", "branch"),
        ("release/2.10", "branch"),
        ("releases/v1.2", "branch"),
        ("r2.5", "branch"),
        ("release_v2.6", "branch"),
        ("v1.19.x", "branch"),  # a maintenance branch: it moves with every fix release
        ("2.4.x", "branch"),
        ("v0.5.8", "tag"),
        ("v1.19.0", "tag"),
        ("core_v0.13.0", "tag"),
        ("2.5.1", "tag"),
    ],
)
def test_release_branches_named_like_versions_are_branches(ref: str, kind: str) -> None:
    assert ref_kind(ref) == kind


def test_a_clone_of_a_release_branch_is_not_pinned() -> None:
    comp = _one(
        "FROM python:3.12\nRUN git clone -b core_r0.16.0 https://github.com/NVIDIA/Megatron-LM.git /opt/mlm"
        " && pip install -e /opt/mlm\n",
        "Megatron-LM",
    )
    assert (comp.ref, comp.ref_kind, comp.pinned) == ("core_r0.16.0", "branch", False)


def test_an_arg_called_ver_alone_is_no_key_version(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text("FROM ubuntu:22.04\nARG VER=12-3\nRUN apt-get install -y cuda-toolkit-${VER}\n")
    rows = [(r.name, r.version) for r in version_rows(build_model(path), {}, None)]
    assert rows == [("Ubuntu", "22.04")]


def test_the_same_package_twice_is_one_row() -> None:
    found, skipped = _read(
        "FROM python:3.12\nRUN pip install flash_attn==2.8.1 && pip install flash-attn==2.8.1\n"
        "RUN apt-get install -y curl git && apt-get install -y curl\n"
    )
    assert [(c.name, c.display_version) for c in found if c.kind != "image"] == [
        ("flash_attn", "2.8.1"),
        ("curl", "unpinned"),
        ("git", "unpinned"),
    ]
    assert "flash-attn 2.8.1 is installed again; listed once" in skipped


def test_a_package_installed_again_with_another_version_keeps_the_last() -> None:
    found, skipped = _read(
        "FROM python:3.12 AS base\nRUN pip install torch==2.6.0\n"
        "FROM base\nRUN pip install --upgrade-strategy only-if-needed torch==2.7.1\n"
    )
    assert [(c.name, c.display_version, c.stage) for c in found if c.kind != "image"] == [
        ("torch", "2.7.1", "#1")
    ]
    assert skipped == ["torch 2.6.0 is replaced at line 4; not listed"]


def test_the_same_package_in_sibling_stages_is_listed_in_each() -> None:
    stage = "FROM python:3.12 AS {}\nRUN pip install numpy==2.1.0\n"
    found, _ = _read(stage.format("a") + stage.format("b"))
    assert [c.stage for c in found if c.name == "numpy"] == ["a", "b"]


def test_a_removal_then_more_installs_keeps_every_later_row() -> None:
    found, _ = _read(
        "FROM ubuntu:22.04\nRUN apt-get install -y curl libnuma-dev && apt-get purge -y curl"
        " && apt-get install -y cuda-toolkit-12-8 wget\n"
    )
    assert [c.name for c in found if c.kind == "apt"] == ["libnuma-dev", "cuda-toolkit-12-8", "wget"]


@pytest.mark.parametrize(
    "comment",
    [
        "# renovate: datasource=github-tags depName=volcengine/verl",
        "# Install DeepEP",
        "# =========================\n# Install DeepEP\n# =========================",
        "# hadolint ignore=DL3008",
        "# dependabot: ignore",
    ],
)
def test_section_headers_and_tool_directives_are_no_purpose(comment: str) -> None:
    parsed = parse_dockerfile(f"FROM ubuntu:22.04\n{comment}\nARG DEEPEP_COMMIT=b92d0d4\n", "Dockerfile")
    assert [a.description for a in evaluate(parsed).args] == [""]


def test_a_sentence_starting_with_install_is_a_purpose() -> None:
    parsed = parse_dockerfile(
        "FROM ubuntu:22.04\n# Install the CUDA toolkit from this repository.\nARG CUDA_REPO=x\n"
        "# Build type\nARG BUILD_TYPE=Release\n",
        "Dockerfile",
    )
    assert [a.description for a in evaluate(parsed).args] == [
        "Install the CUDA toolkit from this repository.",
        "Build type",
    ]


@pytest.mark.parametrize(
    ("run", "name", "version", "arg"),
    [
        ("bash install_nccl.sh --NCCL_VER=${NCCL_VERSION}", "nccl", "2.27.3", "NCCL_VERSION"),
        ("./install_deepep.sh 1.2.1", "deepep", "1.2.1", None),
        ("bash scripts/install_mooncake.sh ${MOONCAKE_VERSION}", "mooncake", "0.3.6", "MOONCAKE_VERSION"),
        ("sh ./install-ucx.sh --version v1.19.0", "ucx", "v1.19.0", None),
    ],
)
def test_a_version_passed_to_an_install_script(run: str, name: str, version: str, arg: str | None) -> None:
    comp = _one(f"FROM ubuntu:22.04\nARG NCCL_VERSION=2.27.3\nARG MOONCAKE_VERSION=0.3.6\nRUN {run}\n", name)
    assert (comp.kind, comp.version, comp.pinned, comp.arg) == ("script", version, True, arg)


def test_an_install_script_without_a_version_says_the_script_sets_it() -> None:
    comp = _one("FROM ubuntu:22.04\nRUN bash /opt/common/install_cmake.sh\n", "cmake")
    assert (comp.version, comp.pinned, comp.source, comp.method) == (
        None,
        False,
        "/opt/common/install_cmake.sh",
        "script",
    )


def test_a_script_named_after_the_distribution_gives_it_no_version() -> None:
    # `-p 3.6` is the Python the script installs; the base image says which Ubuntu
    text = "FROM ubuntu:18.04\nARG PYTHON_VERSION=3.6\nRUN ./install_ubuntu.sh -p ${PYTHON_VERSION} 2.1\n"
    found, _ = _read(text)
    assert [(c.name, c.kind, c.version) for c in found] == [
        ("ubuntu", "image", "18.04"),
        ("ubuntu", "script", None),
    ]
    assert _one("FROM scratch\nRUN ./install_centos.sh --version 7.9\n", "centos").version is None


def test_scripts_that_name_nothing_in_particular_are_no_rows() -> None:
    found, _ = _read(
        "FROM ubuntu:22.04\nRUN bash install_base.sh && bash ./install_deps.sh && bash run.sh 5"
        " && ./build-deb-packages.sh 2.5\n"
    )
    assert [c.kind for c in found] == ["image"]


def test_an_apt_repository_whose_path_holds_the_version() -> None:
    found, _ = _read(
        "FROM ubuntu:22.04\nRUN echo 'deb [arch=amd64] https://repo.radeon.com/rocm/apt/6.4.1 jammy main'"
        " > /etc/apt/sources.list.d/rocm.list"
        " && echo 'deb https://repo.radeon.com/amdgpu/6.4.1/ubuntu jammy main'"
        " > /etc/apt/sources.list.d/amdgpu.list\n"
    )
    assert [(c.name, c.version, c.pinned) for c in found if c.kind == "apt-repo"] == [
        ("rocm", "6.4.1", True),
        ("amdgpu", "6.4.1", True),
    ]


def test_a_version_assembled_in_the_run_with_a_command_substitution() -> None:
    comp = _one(
        "FROM ubuntu:22.04\nRUN V=2025.6.1_2025.6.1.190-1_$(dpkg --print-architecture) && wget -q "
        "https://developer.nvidia.com/downloads/assets/tools/secure/nsight-systems/2025_6/nsight-systems-${V}.deb\n",
        "nsight-systems",
    )
    assert (comp.version, comp.pinned) == ("2025.6.1", True)
    assert comp.source is not None and comp.source.endswith("_$(dpkg --print-architecture).deb")


def test_versions_installed_in_different_branches_are_both_listed() -> None:
    # the test reads the base image's CUDA_VERSION (no ARG here), which this tag does not tell (an
    # nvidia/cuda tag would): either branch may run
    found, _ = _read(
        "FROM org/cuda-base:12.9.1-devel-ubuntu22.04\n"
        'RUN if [ "$CUDA_VERSION" = 13 ]; then pip install torch==2.9.0; else pip install torch==2.8.0; fi\n'
    )
    assert [c.version for c in found if c.name == "torch"] == ["2.9.0", "2.8.0"]


def test_the_branch_a_build_arg_default_rules_out_is_not_listed() -> None:
    found, skipped = _read(
        "FROM python:3.12\nARG CUDA_VERSION=12.9.1\n"
        'RUN if [ "${CUDA_VERSION%%.*}" = 13 ]; then pip install torch==2.9.0; \\\n'
        "    else pip install torch==2.8.0; fi\n"
    )
    assert [c.version for c in found if c.name == "torch"] == ["2.8.0"]
    assert any("torch==2.9.0: in a branch the default build does not take" in s for s in skipped)


@pytest.mark.parametrize(
    ("run", "version"),
    [
        ("bash install_tensorrt.sh --CUDA_VER=12.9 --TRT_VER=10.11.0.33 --NCCL_VER=2.27.5", "10.11.0.33"),
        ("bash install_nccl.sh --CUDA_VER=12.9 --NCCL_VER=2.27.5", "2.27.5"),
        ("bash install_ucx.sh --CUDA_VER=12.9 --GDR_VER=2.5", None),
    ],
)
def test_an_install_script_takes_the_version_named_for_it(run: str, version: str | None) -> None:
    name = run.split("install_", 1)[1].split(".sh", 1)[0]
    assert _one(f"FROM ubuntu:22.04\nRUN {run}\n", name).version == version
