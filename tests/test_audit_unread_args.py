"""`docgen audit`: the ROCm or CUDA release of the base image beside a version build arg nothing reads
(docgen/audit/unread_args.py). A README agreeing with the base is silent; the traps (an arg a RUN, a
word, a copied script or a stage built on it may read) keep the finding."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen.baseimage import read_reference

README = (
    "# Serving image\n\n"
    "Latency drops by a tenth when tuning runs on top of {item} {version} and PyTorch 2.4.\n"
)

ROCM_BASE = "FROM rocm/dev-ubuntu-22.04:6.3.2_hip_update AS base\n"
UNREAD = """\
ARG TORCH_VERSION='2.4.0'
ARG ROCM_VERSION='6.2.1'
ARG MAMBA_VERSION=24.1.0-0
RUN curl -fsSL -o /tmp/m.sh "https://example.org/mamba/${MAMBA_VERSION}/m.sh" && bash /tmp/m.sh
"""


def _audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], claim: str = "6.3") -> str:
    item = "CUDA" if "nvidia/cuda" in files["Dockerfile"] else "ROCm"
    make_tree(tmp_path, {"README.md": README.format(item=item, version=claim), **files})
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely")
    return result.out


@pytest.mark.parametrize(
    ("reference", "rocm"),
    [
        ("rocm/dev-ubuntu-22.04:6.3.2_hip_update", "6.3.2"),
        ("rocm/dev-ubuntu-22.04:6.3.2-complete", "6.3.2"),
        ("rocm/dev-ubuntu-24.04:6.4", "6.4"),
        ("rocm/dev-almalinux-8:6.3.2_hip_update", "6.3.2"),
    ],
)
def test_the_rocm_of_a_rocm_dev_tag_with_a_suffix(reference: str, rocm: str) -> None:
    assert [r.version for r in read_reference(reference) if r.name == "ROCm"] == [rocm]


def test_a_tag_with_a_second_version_after_it_is_not_read() -> None:
    assert not [r for r in read_reference("rocm/dev-ubuntu-22.04:6.3.2-6.4") if r.name == "ROCm"]


def test_the_base_release_outranks_an_arg_nothing_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "ROCm" not in _audit(tmp_path, monkeypatch, {"Dockerfile": ROCM_BASE + UNREAD})


def test_a_claim_of_the_unread_arg_stays_silent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "ROCm" not in _audit(tmp_path, monkeypatch, {"Dockerfile": ROCM_BASE + UNREAD}, claim="6.2")


def test_a_claim_of_neither_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _audit(tmp_path, monkeypatch, {"Dockerfile": ROCM_BASE + UNREAD}, claim="5.7")
    assert "README says ROCm 5.7 but Dockerfile:3 says 6.2.1" in out


def test_the_cuda_of_an_nvidia_base_outranks_an_unread_arg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dockerfile = "FROM nvidia/cuda:12.6.3-devel-ubuntu22.04\nARG CUDA_VERSION=12.2.0\nRUN apt-get update\n"
    assert "CUDA" not in _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile}, claim="12.6")


@pytest.mark.parametrize(
    "reader",
    [
        # the arg in a download URL: the image gets that release's packages
        'RUN curl -fsSLO "https://repo.example.org/rocm/apt/${ROCM_VERSION}/rocm-extra.deb"\n',
        "RUN curl -fsSLO https://repo.example.org/rocm/apt/$ROCM_VERSION/rocm-extra.deb\n",
        "ENV ROCM_RELEASE=${ROCM_VERSION}\n",
        "ARG ROCM_SERIES=rocm$ROCM_VERSION\n",
        # the name as a word: read from the environment
        "RUN printenv ROCM_VERSION > /etc/rocm-release\n",
        "RUN python3 -c 'import os; print(os.environ[\"ROCM_VERSION\"])'\n",
    ],
)
def test_an_arg_an_instruction_reads_still_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    out = _audit(tmp_path, monkeypatch, {"Dockerfile": ROCM_BASE + UNREAD + reader})
    assert "README says ROCm 6.3 but Dockerfile:3 says 6.2.1" in out


def test_a_copied_script_naming_the_arg_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dockerfile = ROCM_BASE + UNREAD + "COPY setup_libs.sh /tmp/\nRUN bash /tmp/setup_libs.sh\n"
    script = 'apt-get install -y "rocm-libs${ROCM_VERSION:+-$ROCM_VERSION}"\n'
    out = _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile, "setup_libs.sh": script})
    assert "README says ROCm 6.3 but Dockerfile:3 says 6.2.1" in out


def test_a_copied_script_not_there_may_read_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dockerfile = ROCM_BASE + UNREAD + "COPY setup_libs.sh /tmp/\nRUN bash /tmp/setup_libs.sh\n"
    out = _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile})
    assert "README says ROCm 6.3 but Dockerfile:3 says 6.2.1" in out


def test_a_stage_built_on_the_arg_s_stage_gets_it_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # BuildKit passes the arg on to `FROM base`: its copied Makefile, absent here, may read it
    dockerfile = ROCM_BASE + UNREAD + "FROM base AS kernels\nCOPY kernels/Makefile Makefile\nRUN make build\n"
    out = _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile})
    assert "README says ROCm 6.3 but Dockerfile:3 says 6.2.1" in out


def test_a_copied_script_that_does_not_name_it_does_not_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dockerfile = ROCM_BASE + UNREAD + "COPY setup_libs.sh /tmp/\nRUN bash /tmp/setup_libs.sh\n"
    files = {"Dockerfile": dockerfile, "setup_libs.sh": "apt-get install -y rocm-libs\n"}
    assert "ROCm" not in _audit(tmp_path, monkeypatch, files)


def test_a_copy_before_the_arg_with_no_run_after_it_is_no_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the only RUN after the arg downloads; a file copied into another stage cannot see the arg
    dockerfile = (
        "FROM ubuntu:22.04 AS tools\nCOPY tools.sh /tmp/\nRUN bash /tmp/tools.sh\n" + ROCM_BASE + UNREAD
    )
    assert "ROCm" not in _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile})


def test_the_arg_of_another_item_is_not_the_base_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # HIP_VERSION is no ROCm release the tag gives: the arg's row stays the only one
    dockerfile = ROCM_BASE + "ARG ROCM_VERSION='6.3.2'\nARG HIP_VERSION='6.2.1'\nRUN apt-get update\n"
    files = {"Dockerfile": dockerfile}
    make_tree(tmp_path, {"README.md": "# Image\n\nBuilt on top of HIP 6.3 and PyTorch 2.4.\n", **files})
    monkeypatch.chdir(tmp_path)
    out = run("audit", "README.md", "--dockerfile", "Dockerfile", "--confidence", "likely").out
    assert "README says HIP 6.3 but Dockerfile:3 says 6.2.1" in out


@pytest.mark.parametrize("tag", ["6.3.2-complete", "6.3.2_hip_update", "6.3.2"])
@pytest.mark.parametrize(
    "download",
    [
        'RUN curl -fsSLO "https://repo.example.org/rocm/apt/${ROCM_VERSION}/rocm-extra.deb"\n',
        'RUN echo "deb https://repo.example.org/rocm/apt/${ROCM_VERSION} jammy main" > /etc/apt/s.list\n',
    ],
)
def test_an_arg_a_run_downloads_replaces_the_base_s_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tag: str, download: str
) -> None:
    # the Dockerfile's own release wins over its base's, whatever the shape of the tag
    dockerfile = f"FROM rocm/dev-ubuntu-22.04:{tag}\n" + UNREAD + download
    out = _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile})
    assert "README says ROCm 6.3 but Dockerfile:3 says 6.2.1" in out


def test_a_run_reading_the_arg_of_the_same_release_keeps_the_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dockerfile = (
        ROCM_BASE
        + "ARG ROCM_VERSION=6.3.2\nRUN wget -q https://repo.example.org/rocm/${ROCM_VERSION}/x.deb\n"
    )
    assert "ROCm" not in _audit(tmp_path, monkeypatch, {"Dockerfile": dockerfile})
