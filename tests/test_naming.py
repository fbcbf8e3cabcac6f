"""Names and versions of downloads and apt repositories, and which repository an apt package comes from.

Cases are snippets of public Dockerfiles (the QA pass on /tmp/qa-public, sections B6 and C1–C5), next
to the behaviours that must stay as they were.
"""

from __future__ import annotations

import pytest
from helpers import findings

from docgen.audit.versions import norm
from docgen.components import extract
from docgen.dockerfile import parse_dockerfile
from docgen.evaluate import evaluate
from docgen.model import Component
from docgen.sources import downloads
from docgen.sources.naming import contains_word, name_version, split_extension, strip_platform
from docgen.sources.script import Word


def components_of(text: str) -> tuple[tuple[Component, ...], list[str]]:
    parsed = parse_dockerfile(text, "Dockerfile")
    found, skipped = extract(parsed, evaluate(parsed))
    return found, [s.message for s in skipped]


def of_kind(text: str, kind: str) -> list[Component]:
    found, _ = components_of(text)
    return [c for c in found if c.kind == kind]


def download(url: str, before: str = "") -> tuple[str, str | None, bool] | None:
    """(name, version, pinned) of the one download `RUN [BEFORE] curl -fsSLO URL` gives, else None."""
    found = of_kind(f"FROM ubuntu:22.04\nRUN {before}curl -fsSLO {url}\n", "download")
    assert len(found) <= 1, found
    return (found[0].name, found[0].version, found[0].pinned) if found else None


# --------------------------------------------------------------------------------------------------
# File names (name_version)


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        # kept as they were
        ("cmake-3.26.4-linux-x86_64.tar.gz", ("cmake", "3.26.4")),
        ("boost_1_82_0.tar.gz", ("boost", "1.82.0")),
        ("libnccl2_2.18.3-1+cuda12.2_amd64.deb", ("libnccl2", "2.18.3-1+cuda12.2")),
        ("cuda-keyring_1.1-1_all.deb", ("cuda-keyring", "1.1-1")),
        (
            "cuda-repo-ubuntu2204-12-4-local_12.4.1-550.54.15-1_amd64.deb",
            ("cuda-repo-ubuntu2204-12-4-local", "12.4.1-550.54.15-1"),
        ),
        ("node-v18.17.0-linux-x64.tar.xz", ("node", "18.17.0")),
        ("go1.22.5.linux-amd64.tar.gz", ("go", "1.22.5")),
        ("mft-4.28.0-92-x86_64-deb.tgz", ("mft", "4.28.0")),
        ("NsightSystems-linux-public-2024.4.1.61-3431596.run", ("NsightSystems-linux-public", "2024.4.1.61")),
        (
            "flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp310-cp310-linux_x86_64.whl",
            ("flash-attn", "2.7.4.post1+cu12torch2.6cxx11abiFALSE"),
        ),
        # platform words are not part of a name (C3)
        ("vulkansdk-linux-x86_64-1.4.321.1.tar.xz", ("vulkansdk", "1.4.321.1")),
        ("nvshmem_src_cuda12-all-all-3.3.9.tar.gz", ("nvshmem", "3.3.9")),
        ("MLNX_OFED_LINUX-4.9-7.1.0.0-ubuntu20.04-x86_64.tgz", ("MLNX-OFED", "4.9")),
        # a local-repository .deb is versioned by its name, not by the repository package's version (C1)
        ("cudnn-local-repo-ubuntu2204-9.8.0_1.0-1_amd64.deb", ("cudnn", "9.8.0")),
        # no version: the stem, whole
        ("vs_buildtools.exe", ("vs_buildtools", None)),
        # Intel installers: `l_` (Linux) before the name, `_p` (a product) after it
        (
            "l_openvino_toolkit_ubuntu22_2024.0.0.14509.34caeefd078_x86_64.tgz",
            ("openvino-toolkit", "2024.0.0.14509.34caeefd078"),
        ),
        ("l_HPCKit_p_2023.2.0.49440_offline.sh", ("HPCKit", "2023.2.0.49440")),
        # a name that only starts with an `l` keeps it
        ("libxml2_2.9.14_amd64.deb", ("libxml2", "2.9.14")),
        ("l_2.0.tar.gz", ("l", "2.0")),
    ],
)
def test_name_version(filename: str, expected: tuple[str, str | None]) -> None:
    assert name_version(*split_extension(filename)) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("vulkansdk-linux-x86_64", "vulkansdk"),
        ("clang-format-16_linux-amd64", "clang-format-16"),
        ("tool-linux-${TARGETARCH}", "tool"),
        ("linux-amd64", "linux"),  # the first word always stays
        ("NsightSystems-linux-public", "NsightSystems-linux-public"),
        ("vs_buildtools", "vs_buildtools"),
    ],
)
def test_strip_platform(name: str, expected: str) -> None:
    assert strip_platform(name) == expected


def test_contains_word_does_not_match_inside_a_longer_version() -> None:
    assert contains_word("cuda_12.4.1_550.54.15_linux.run", "12.4.1")
    assert not contains_word("cuda_12.4.1_550.54.15_linux.run", "12.4")
    assert not contains_word("foo-112.4-linux", "12.4")


# --------------------------------------------------------------------------------------------------
# Downloads


def test_a_version_value_repeated_in_the_path_is_the_whole_version() -> None:
    """C1: one build arg / ENV written in a directory and in the file name is the version, whole."""
    text = (
        "FROM ubuntu:20.04\n"
        "ENV MLNX_OFED_VERSION=4.9-7.1.0.0\n"
        "RUN wget -q -O - http://www.mellanox.com/downloads/ofed/MLNX_OFED-${MLNX_OFED_VERSION}/"
        "MLNX_OFED_LINUX-${MLNX_OFED_VERSION}-ubuntu20.04-x86_64.tgz | tar xzf -\n"
        "ARG MAMBA_VERSION=24.3.0-0\n"
        'RUN curl -fsSL -o ~/m.sh "https://github.com/conda-forge/miniforge/releases/download/'
        '${MAMBA_VERSION}/Mambaforge-${MAMBA_VERSION}-Linux-x86_64.sh"\n'
    )
    got = {c.name: (c.version, c.pinned, c.arg) for c in of_kind(text, "download")}
    assert got == {
        "MLNX-OFED": ("4.9-7.1.0.0", True, None),
        "Mambaforge": ("24.3.0-0", True, "MAMBA_VERSION"),
    }


def test_the_value_of_the_arg_is_the_version_when_the_caller_knows_it() -> None:
    url = Word("https://example.com/dl/tool-1.2.3-4-linux-x86_64.tar.gz", frozenset({"TOOL_VERSION"}))
    found = downloads.component(url, "base", 3, "TOOL_VERSION", value="1.2.3-4")
    assert found is not None and (found.name, found.version) == ("tool", "1.2.3-4")
    # a value that only starts the file's version is not taken (12.4 is not 12.4.1)
    url = Word("https://example.com/cuda_12.4.1_550.54.15_linux.run", frozenset({"CUDA_VERSION"}))
    found = downloads.component(url, "base", 3, "CUDA_VERSION", value="12.4")
    assert found is not None and (found.name, found.version) == ("cuda", "12.4.1")


def test_a_local_repo_deb_is_named_by_its_directory() -> None:
    """C1: `/cudnn/9.8.0/…/cudnn-local-repo-ubuntu2204-9.8.0_1.0-1_amd64.deb` is cudnn 9.8.0."""
    url = (
        "https://developer.download.nvidia.com/compute/cudnn/9.8.0/local_installers/"
        "cudnn-local-repo-ubuntu2204-9.8.0_1.0-1_amd64.deb"
    )
    assert download(url) == ("cudnn", "9.8.0", True)
    url = (
        "https://developer.download.nvidia.com/compute/cuda/12.4.1/local_installers/"
        "cuda-repo-ubuntu2204-12-4-local_12.4.1-550.54.15-1_amd64.deb"
    )
    assert download(url) == ("cuda", "12.4.1-550.54.15-1", True)


def test_get_pip_under_a_python_version_is_not_pip_of_that_version() -> None:
    """C2: in bootstrap.pypa.io/pip/3.6/get-pip.py, 3.6 is the Python version."""
    assert download("https://bootstrap.pypa.io/pip/3.6/get-pip.py") is None
    assert download("https://bootstrap.pypa.io/get-pip.py") is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://sdk.lunarg.com/sdk/download/1.4.321.1/linux/vulkansdk-linux-x86_64-1.4.321.1.tar.xz",
            ("vulkansdk", "1.4.321.1", True),
        ),
        (
            "https://developer.download.nvidia.com/compute/redist/nvshmem/3.3.9/source/"
            "nvshmem_src_cuda12-all-all-3.3.9.tar.gz",
            ("nvshmem", "3.3.9", True),
        ),
        ("https://aka.ms/vs/17/release/vs_buildtools.exe", ("vs_buildtools", None, False)),
    ],
)
def test_platform_words_are_not_part_of_a_download_name(url: str, expected: tuple[str, str, bool]) -> None:
    """C3."""
    assert download(url) == expected


def test_a_github_release_tag_pins_whatever_it_looks_like() -> None:
    """B6: `…/releases/download/master-32d3ac78/clang-format-16_linux-amd64` is pinned to that release."""
    url = (
        "https://github.com/muttleyxd/clang-tools-static-binaries/releases/download/master-32d3ac78/"
        "clang-format-16_linux-amd64"
    )
    assert download(url) == ("clang-format-16", "master-32d3ac78", True)
    # a tag a project moves to every build is not a pin
    url = "https://github.com/neovim/neovim/releases/download/nightly/nvim-linux-x86_64.tar.gz"
    assert download(url) == ("nvim", "nightly", False)


def test_a_latest_url_is_an_unpinned_download_of_what_it_names() -> None:
    """B6: micro.mamba.pm/api/micromamba/linux-64/latest is micromamba, unpinned."""
    assert download("https://micro.mamba.pm/api/micromamba/linux-64/latest") == ("micromamba", None, False)
    url = '"https://micro.mamba.pm/api/micromamba/linux-${arch}/latest"'
    assert download(url, "arch=$(uname -m) && ") == ("micromamba", None, False)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/mikefarah/yq/releases/download/v4.44.1/yq_linux_amd64", ("yq", "4.44.1", True)),
        (
            "https://github.com/Kitware/CMake/releases/download/v3.27.9/cmake-3.27.9-linux-x86_64.tar.gz",
            ("cmake", "3.27.9", True),
        ),
        (
            "https://github.com/protocolbuffers/protobuf/releases/download/v25.1/protoc-25.1-linux-x86_64.zip",
            ("protoc", "25.1", True),
        ),
        ("https://astral.sh/uv/0.4.30/install.sh", ("uv", "0.4.30", True)),
        ("https://astral.sh/uv/install.sh", ("uv", None, False)),
        ("https://example.com/tools/foo-linux-amd64.tar.gz", ("foo", None, False)),
        ("https://example.com/tools/x_linux_amd64", None),
        (
            "https://boostorg.jfrog.io/artifactory/main/release/1.82.0/source/boost_1_82_0.tar.gz",
            ("boost", "1.82.0", True),
        ),
        ("https://github.com/o/r/archive/refs/tags/v1.2.0.tar.gz", ("r", "1.2.0", True)),
        ("https://github.com/openai/triton/archive/main.tar.gz", ("triton", None, False)),
        (
            "https://download.open-mpi.org/release/open-mpi/v4.1/openmpi-4.1.6.tar.bz2",
            ("openmpi", "4.1.6", True),
        ),
    ],
)
def test_downloads_kept_as_they_were(url: str, expected: tuple[str, str | None, bool] | None) -> None:
    assert download(url) == expected


def test_a_long_word_in_a_url_path_is_read_at_once() -> None:
    """A directory of 40 letters beside the version: its segment was tried 2⁴⁰ ways (no end)."""
    folder = "internalmirrorforbuildtoolsandcompilerss"
    text = (
        "FROM ubuntu:22.04\n"
        f"RUN curl -fsSLO https://example.org/ninja/1.12.1/{folder}/ninja-linux.zip\n"
        f'RUN echo "deb https://example.org/{folder}/llvm-18.1 jammy main" '
        "> /etc/apt/sources.list.d/llvm.list\n"
    )
    found, _ = components_of(text)
    assert [(c.kind, c.name, c.version) for c in found if c.kind != "image"] == [
        ("download", "ninja", "1.12.1"),
        ("apt-repo", "llvm", "18.1"),
    ]


# --------------------------------------------------------------------------------------------------
# apt repositories


def test_apt_repository_names() -> None:
    """C4: a `name_N.x` channel is version N of the host's repository; `pub/repos/apt` says nothing."""
    text = (
        "FROM ubuntu:22.04\n"
        "ARG NODE_MAJOR=20\n"
        'RUN echo "deb [signed-by=/k.gpg] https://deb.nodesource.com/node_${NODE_MAJOR}.x nodistro main" '
        "> /etc/apt/sources.list.d/nodesource.list\n"
        'RUN echo "deb http://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" '
        "> /etc/apt/sources.list.d/pgdg.list\n"
        "RUN apt-get update && apt-get install -y nodejs postgresql-client-16 jq\n"
    )
    found, _ = components_of(text)
    repos = {c.name: (c.version, c.source) for c in found if c.kind == "apt-repo"}
    assert repos == {
        "nodesource": ("20", "https://deb.nodesource.com/node_20.x"),
    }  # pgdg names no release: only the source of postgresql-client-16, not a row
    sources = {c.name: c.source for c in found if c.kind == "apt"}
    assert sources == {
        "nodejs": "https://deb.nodesource.com/node_20.x",
        "postgresql-client-16": "http://apt.postgresql.org/pub/repos/apt",
        "jq": None,
    }


def test_an_apt_line_whose_url_arg_is_empty_adds_no_repository() -> None:
    """C4: with DEADSNAKES_MIRROR_URL empty, `$(lsb_release` is not a repository."""
    text = (
        "FROM ubuntu:22.04\n"
        "ARG DEADSNAKES_MIRROR_URL\n"
        'RUN echo "deb [signed-by=/k.gpg] ${DEADSNAKES_MIRROR_URL} $(lsb_release -cs) main" '
        "> /etc/apt/sources.list.d/deadsnakes.list\n"
    )
    found, skipped = components_of(text)
    assert [c for c in found if c.kind == "apt-repo"] == []
    assert any("apt source line without a URL" in message for message in skipped)


def test_apt_repository_with_a_version_kept_as_it_was() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "ARG ROCM_VERSION=6.3\n"
        "RUN echo 'deb [arch=amd64] https://repo.radeon.com/rocm/apt/'${ROCM_VERSION}' jammy main' "
        "| tee /etc/apt/sources.list.d/rocm.list\n"
        "RUN echo 'deb http://apt.llvm.org/jammy/ llvm-toolchain-jammy-17 main' "
        "> /etc/apt/sources.list.d/llvm.list\n"
        "RUN apt-get update && apt-get install -y rocm-dev clang-17 curl\n"
    )
    found, _ = components_of(text)
    repos = {c.name: (c.version, c.pinned, c.arg) for c in found if c.kind == "apt-repo"}
    assert repos == {"rocm": ("6.3", True, "ROCM_VERSION"), "llvm": ("17", True, None)}
    sources = {c.name: c.source for c in found if c.kind == "apt"}
    assert sources == {
        "rocm-dev": "https://repo.radeon.com/rocm/apt/6.3",
        "clang-17": "http://apt.llvm.org/jammy/",
        "curl": None,
    }


# --------------------------------------------------------------------------------------------------
# Which repository an apt package comes from (C5)


def test_a_ppa_is_credited_only_with_what_it_ships() -> None:
    """vllm-cuda: libibverbs-dev installed after adding the deadsnakes PPA comes from Ubuntu."""
    text = (
        "FROM ubuntu:22.04\n"
        "ARG PYTHON_VERSION=3.12\n"
        "RUN add-apt-repository -y ppa:deadsnakes/ppa && apt-get update -y \\\n"
        " && apt-get install -y python${PYTHON_VERSION} python${PYTHON_VERSION}-dev libibverbs-dev \\\n"
        "    python-is-python3\n"
        "RUN apt-get install -y python3.12-venv curl\n"
    )
    sources = {c.name: c.source for c in of_kind(text, "apt")}
    assert sources == {
        "python3.12": "ppa:deadsnakes/ppa",
        "python3.12-dev": "ppa:deadsnakes/ppa",
        "libibverbs-dev": None,
        "python-is-python3": None,
        "python3.12-venv": "ppa:deadsnakes/ppa",
        "curl": None,
    }


def test_a_ppa_named_like_its_package() -> None:
    """deepspeed: `ppa:git-core/ppa` then `apt-get install git` — git comes from the PPA."""
    text = (
        "FROM ubuntu:20.04\n"
        "RUN add-apt-repository ppa:git-core/ppa -y && apt-get update && apt-get install -y git wget\n"
    )
    sources = {c.name: c.source for c in of_kind(text, "apt")}
    assert sources == {"git": "ppa:git-core/ppa", "wget": None}


def test_a_repository_in_a_parent_stage_still_counts() -> None:
    text = (
        "FROM ubuntu:22.04 AS base\n"
        "RUN add-apt-repository -y ppa:deadsnakes/ppa\n"
        "FROM base\n"
        "RUN apt-get update && apt-get install -y python3.11 git\n"
    )
    sources = {c.name: c.source for c in of_kind(text, "apt")}
    assert sources == {"python3.11": "ppa:deadsnakes/ppa", "git": None}


# --------------------------------------------------------------------------------------------------
# Forks: a known project under an owner that is neither its own nor named after it


@pytest.mark.parametrize(
    ("url", "fork"),
    [
        ("https://github.com/ROCm/flash-attention", "ROCm"),
        ("https://github.com/ROCm/TransformerEngine.git", "ROCm"),
        ("https://github.com/jdoe/vllm.git", "jdoe"),
        # the project's organisations, current and former, are upstream
        ("https://github.com/verl-project/verl.git", None),
        ("https://github.com/volcengine/verl", None),
        ("https://github.com/microsoft/DeepSpeed.git", None),
        ("https://github.com/deepspeedai/DeepSpeed.git", None),
        ("https://github.com/Dao-AILab/flash-attention.git", None),
        # an organisation named after the project is its own, wherever it moved (no table entry needed)
        ("https://github.com/vllm-org/vllm", None),
        ("https://github.com/triton-lang/triton", None),
        ("https://github.com/sglang-ai/sglang", None),
        # a repository docgen does not know is never called a fork
        ("https://github.com/ISEEKYAN/mbridge.git", None),
        ("https://gitlab.com/someone/private-tool", None),
    ],
)
def test_fork_of(url: str, fork: str | None) -> None:
    from docgen.sources.naming import fork_of

    assert fork_of(url) == fork


@pytest.mark.parametrize(
    ("repo", "project"),
    [
        ("vllm-patch", "vllm"),
        ("vllm_fork", "vllm"),
        ("my-vllm", "vllm"),
        ("flash-attention-rocm", "flash-attention"),
        ("Megatron-LM_patched", "megatron-lm"),
        # the project itself, a plugin or port of its own, another project, a folder of patches
        ("vllm", None),
        ("vllm-ascend", None),
        ("triton-ascend", None),
        ("triton_xpu", None),
        ("torch_memory_saver", None),
        ("sglang-router", None),
        ("vllm-patches", None),
        ("Megatron-LM-amd_version", None),
    ],
)
def test_forked_project(repo: str, project: str | None) -> None:
    from docgen.sources.naming import forked_project

    assert forked_project(repo) == project


def test_a_repository_named_after_a_project_is_a_fork_only_when_installed() -> None:
    from docgen.sources.naming import fork_of

    assert fork_of("https://github.com/RLFoundation/vllm-patch.git", installed=True) == "RLFoundation"
    assert fork_of("https://github.com/RLFoundation/vllm-patch.git") is None  # a checkout: maybe patches
    assert fork_of("https://github.com/vllm-project/vllm-fork.git", installed=True) is None  # its own


VISION = """\
FROM ubuntu:22.04
ARG OV=l_openvino_toolkit_ubuntu22_2024.1.0.15008.f4afc983258_x86_64
RUN curl -L https://storage.example.org/openvino/2024.1/${OV}.tgz -o ov.tgz \\
    && tar -xf ov.tgz -C /opt/intel
"""


def test_an_intel_installer_is_the_product_a_readme_names() -> None:
    readme = "# Vision\n\n## Versions\n\n- Ubuntu 22.04\n- OpenVINO 2023.3.0\n"
    assert findings(readme, {"Dockerfile": VISION}) == [
        "6: README says OpenVINO 2023.3.0 but Dockerfile:2 says 2024.1.0.15008.f4afc983258"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "- OpenVINO 2024.1.0",  # the release, without Intel's build number
        "- OpenVINO 2024.1",
        "Upgraded from OpenVINO 2023.3.0 in March.",  # history
    ],
)
def test_an_intel_installer_agreeing_with_the_readme(said: str) -> None:
    assert findings(f"# Vision\n\n## Versions\n\n- Ubuntu 22.04\n{said}\n", {"Dockerfile": VISION}) == []


@pytest.mark.parametrize(
    ("installed", "shown"),
    [
        ("sage", "SageMath"),  # conda-forge's name
        ("pymol-open-source", "PyMOL"),
        ("pyg", "PyTorch Geometric"),
        ("torch-geometric", "PyG"),
        ("tesseract-ocr", "Tesseract"),  # apt's name
        ("ninja-build", "Ninja"),
        ("postgres", "PostgreSQL"),  # the image's name
        ("node", "Node.js"),
        ("pytorch-gpu", "PyTorch"),  # a build for a device
        ("tensorflow-gpu", "TensorFlow"),
        ("opencv-contrib-python", "OpenCV"),
        ("sklearn", "scikit-learn"),  # the import name
        ("openbabel", "Open Babel"),  # the same letters
    ],
)
def test_one_project_under_its_conda_apt_image_and_display_names(installed: str, shown: str) -> None:
    assert norm(installed) == norm(shown)


@pytest.mark.parametrize(("one", "other"), [("sage", "sagemaker"), ("node", "nodemon"), ("pyg", "pygame")])
def test_names_that_only_start_alike_stay_apart(one: str, other: str) -> None:
    assert norm(one) != norm(other)
