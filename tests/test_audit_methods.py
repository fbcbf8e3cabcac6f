"""How the README says components are installed, against the Dockerfile (`docgen/audit/methods.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DET = """\
FROM rocm/pytorch:rocm7.1.1_ubuntu22.04_py3.10_pytorch_release_2.9.1
RUN pip install --no-cache-dir mmengine
RUN pip wheel --no-build-isolation "git+https://github.com/open-mmlab/mmcv.git@v2.1.0" -w /tmp/wheels && \\
    pip install /tmp/wheels/mmcv-*.whl
RUN pip install "mmdet>=3.0.0,<3.3.0"
RUN python -c "import mmcv; print(mmcv.__version__)"
"""
VISION = """\
FROM ubuntu:22.04
RUN pip3 install torch torchvision --index-url https://download.pytorch.org/whl/cpu
"""


def methods(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


INSTALLS = (
    "# Detection\n\nKey properties:\n\n"
    "- Installs:\n  - `openmim`, then `mmengine`, `mmcv>=2.0`\n    using `mim install`.\n"
)


def test_packages_said_to_be_installed_with_a_tool_the_dockerfile_never_runs(tmp_path: Path) -> None:
    assert methods(tmp_path / "a", INSTALLS, DET) == [
        "6: README says openmim, mmengine, mmcv are installed using mim but Dockerfile never runs mim"
        " and installs no openmim (likely)"
    ]
    # the same words over a Dockerfile that does run it
    with_mim = DET.replace(
        "pip install --no-cache-dir mmengine", "pip install openmim && mim install mmengine"
    )
    assert methods(tmp_path / "b", INSTALLS, with_mim) == []
    # a script it runs may run the installer
    scripted = DET + "COPY install.sh /tmp/\nRUN bash /tmp/install.sh\n"
    assert methods(tmp_path / "c", INSTALLS, scripted) == []
    # advice to the user, not what the image installs
    advice = "# Detection\n\nTo add a model later, use `mim install mmdet3d`.\n"
    assert methods(tmp_path / "d", advice, DET) == []


def test_built_from_source_against_a_prebuilt_wheel_and_the_reverse(tmp_path: Path) -> None:
    table = "# Vision\n\n| Component | Requirement |\n|---|---|\n| **torchvision** | Build from source |\n"
    assert methods(tmp_path / "a", table, VISION) == [
        "5: README says torchvision is built from source but Dockerfile installs a prebuilt torchvision"
        " from a package index (likely)"
    ]
    built = (
        "FROM ubuntu:22.04\nRUN pip3 install torch && git clone https://github.com/pytorch/vision torchvision"
    )
    built += " && cd torchvision && python3 setup.py install\n"
    assert methods(tmp_path / "b", table, built) == []
    prose = "# Detection\n\nLow-level kernels remain in MMCV/MMDetection, "
    prose += "which are installed from prebuilt wheels.\n"
    assert methods(tmp_path / "c", prose, DET) == [
        "3: README says MMCV is installed from prebuilt wheels but Dockerfile builds MMCV from source"
        " (likely)"
    ]
    wheel = (
        "FROM rocm/pytorch:rocm7.1.1_ubuntu22.04_py3.10_pytorch_release_2.9.1\nRUN pip install mmcv==2.1\n"
    )
    assert methods(tmp_path / "d", prose, wheel) == []
    negated = "# Detection\n\nMMCV never comes from prebuilt wheels here.\n"
    assert methods(tmp_path / "e", negated, DET) == []


def test_a_way_of_installing_is_said_of_the_names_it_follows(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu:22.04\nRUN pip3 install torch --index-url https://download.pytorch.org/whl/cpu\n"
        'RUN pip3 install mmengine "git+https://github.com/open-mmlab/mmcv.git@v2.1.0"\n'
    )
    # PyTorch comes from an index, mmcv is built: each name is of its own words
    readme = "# Image\n\nIt installs PyTorch from the CPU index and builds mmcv from source.\n"
    assert methods(tmp_path / "a", readme, dockerfile) == []
    readme = "# Image\n\nmmengine comes from PyPI, mmcv from git at v2.1.0.\n"
    assert methods(tmp_path / "b", readme, dockerfile) == []
    # the same sentence shapes, wrong
    readme = "# Image\n\nIt builds mmcv and PyTorch from source; mmengine comes from PyPI.\n"
    assert methods(tmp_path / "c", readme, dockerfile) == [
        "3: README says PyTorch is built from source but Dockerfile installs a prebuilt PyTorch from a"
        " package index (likely)"
    ]


def test_only_the_nearest_component_is_said_to_be_built(tmp_path: Path) -> None:
    # `with vLLM nightly and LMCache from source`: LMCache is built, vLLM comes as a nightly wheel
    dockerfile = (
        "FROM ubuntu:22.04\nRUN pip install vllm --extra-index-url https://wheels.vllm.ai/nightly\n"
        "RUN git clone https://github.com/LMCache/LMCache.git && cd LMCache && pip install -e .\n"
    )
    readme = "# Image\n\n- `image-build`: Builds with vLLM nightly and LMCache from source\n"
    assert methods(tmp_path, readme, dockerfile) == []


def test_an_install_from_an_index_is_no_build_and_a_conditional_is_no_claim(tmp_path: Path) -> None:
    index = "FROM ubuntu:22.04\nRUN pip install torch && pip install flash-attn==2.7.2 --no-build-isolation\n"
    cloned = "FROM ubuntu:22.04\nRUN git clone https://github.com/Dao-AILab/flash-attention flash-attn"
    cloned += " && cd flash-attn && pip install --no-build-isolation .\n"
    prebuilt = "# Image\n\nflash-attn is installed from a prebuilt wheel.\n"
    when = "# Image\n\nflash-attn installs from a prebuilt wheel when one matches; the kernels compile.\n"
    source = "# Image\n\nflash-attn is built from source.\n"
    # an index install, with or without build isolation, takes a matching wheel: either claim may hold
    assert methods(tmp_path / "a", prebuilt, index) == []
    assert methods(tmp_path / "b", source, index) == []
    # a conditional says what happens in some case only
    assert methods(tmp_path / "c", when, cloned) == []
    # a clone built in place contradicts a prebuilt wheel
    assert methods(tmp_path / "d", prebuilt, cloned) == [
        "3: README says flash-attn is installed from prebuilt wheels but Dockerfile builds flash-attn"
        " from source (likely)"
    ]


# --------------------------------------------------------------------------------------------------
# the channel PyTorch comes from

ARC = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install --pre torch torchvision torchaudio --index-url https://download.pytorch.org/whl/{index}
CMD ["python3", "main.py"]
"""
ARC_README = "# ComfyUI on Arc\n\nThe image has:\n\n- Intel GPU runtime\n- {said}\n"


MEDIA = """\
FROM ubuntu:20.04
RUN apt-get update && apt-get install -y build-essential cmake git mpv libx264-dev && \\
    rm -rf /var/lib/apt/lists/*
RUN git clone https://github.com/example/framegrab.git /src/framegrab && cd /src/framegrab && \\
    ./configure --enable-gpu && make -j8 && make install
RUN pip3 install --no-binary :all: pillow==9.5.0
"""


def test_built_from_source_against_a_distribution_package(tmp_path: Path) -> None:
    readme = "# Media\n\n## In this image\n\n- mpv (built from source)\n"
    readme += "- framegrab (built from source)\n- pillow (built from source)\n"
    assert methods(tmp_path, readme, MEDIA) == [
        "5: README says mpv is built from source but Dockerfile installs mpv as a prebuilt package of the "
        "distribution and builds none (likely)"
    ]


def test_a_distribution_package_next_to_a_build_of_its_source(tmp_path: Path) -> None:
    dockerfile = MEDIA.replace(
        "RUN pip3",
        "RUN apt-get install -y mpv && wget https://example.org/mpv-0.36.tar.gz && ./configure\nRUN pip3",
    )
    readme = "# Media\n\n- mpv (built from source)\n"
    assert methods(tmp_path, readme, dockerfile) == []
    assert methods(tmp_path, "# Media\n\n- mpv (from the Ubuntu packages)\n", MEDIA) == []


SIM = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip libosmesa6-dev libglfw3
RUN pip install --no-cache-dir mujoco gymnasium[mujoco]==0.29.1 box2d-py
RUN echo 'import gymnasium; env = gymnasium.make("Ant-v4")' > /opt/check.py
"""
"""Modelled on a reinforcement-learning sandbox: the simulator from PyPI, its GL libraries from apt (and a
check script whose `gymnasium.make(` is no build)."""


def test_a_system_package_said_of_a_component_pip_installs(tmp_path: Path) -> None:
    readme = (
        "# RL sandbox\n\n## Installed stack\n\n- gymnasium with MuJoCo\n- MuJoCo (system-level install)\n"
    )
    assert methods(tmp_path / "a", readme, SIM) == [
        "6: README says MuJoCo is installed as a package of the distribution but Dockerfile installs MuJoCo "
        "only with pip, from a package index (no apt, apk or rpm package of it) (likely)"
    ]
    said = "# RL sandbox\n\nThe simulator, MuJoCo, is installed via apt.\n"
    assert len(methods(tmp_path / "b", said, SIM)) == 1
    # traps: the distribution's package or a download of it too, a component apt installs, a negation
    apt = SIM.replace("libglfw3", "libglfw3 libmujoco-dev")
    assert methods(tmp_path / "c", readme, apt) == []
    fetched = (
        SIM + "RUN wget -q https://example.org/mujoco-2.1.0-linux-x86_64.tar.gz && tar xzf mujoco-2.1.0*\n"
    )
    assert methods(tmp_path / "d", readme, fetched) == []
    assert methods(tmp_path / "e", "# RL sandbox\n\n- libglfw3 (system-level install)\n", SIM) == []
    assert methods(tmp_path / "f", "# RL sandbox\n\n- MuJoCo (not a system-level install)\n", SIM) == []


def test_pytorch_said_to_be_nightly_but_installed_from_the_release_index(tmp_path: Path) -> None:
    readme = ARC_README.format(said="PyTorch with XPU support (from `torch` nightly)")
    assert methods(tmp_path, readme, ARC.format(index="xpu")) == [
        "6: README says PyTorch comes from the nightly channel, but Dockerfile:3 installs torch from the "
        "release index https://download.pytorch.org/whl/xpu (certain)"
    ]
    # the nightly index: true (`--pre` alone does not make an index nightly, the index's path does)
    assert methods(tmp_path / "b", readme, ARC.format(index="nightly/xpu")) == []


def test_pytorch_said_to_be_stable_but_installed_from_the_nightly_index(tmp_path: Path) -> None:
    readme = "# ComfyUI on Arc\n\nThis image ships stable PyTorch for Intel GPUs.\n"
    assert methods(tmp_path, readme, ARC.format(index="nightly/xpu")) == [
        "3: README says PyTorch comes from the stable channel, but Dockerfile:3 installs torch from the "
        "nightly index https://download.pytorch.org/whl/nightly/xpu (likely)"
    ]
    assert methods(tmp_path / "b", readme, ARC.format(index="xpu")) == []


def test_a_channel_that_is_no_claim_about_the_image(tmp_path: Path) -> None:
    dockerfile = ARC.format(index="xpu")
    for said in (
        "PyTorch for XPU (no longer from `torch` nightly)",  # history
        "PyTorch stable or nightly, as you choose",  # an option
        "the vLLM nightly build, with PyTorch",  # another component's channel
        "`pytorch-nightly` images are published too",  # a name, not the channel
    ):
        assert methods(tmp_path / str(len(said)), ARC_README.format(said=said), dockerfile) == [], said


def test_no_single_pytorch_index_no_channel(tmp_path: Path) -> None:
    readme = ARC_README.format(said="PyTorch nightly")
    both = ARC.format(index="xpu") + (
        "RUN pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/xpu\n"
    )
    assert methods(tmp_path / "a", readme, both) == []
    pypi = "FROM python:3.12\nRUN pip install torch==2.5.1 torchvision\n"
    assert methods(tmp_path / "b", readme, pypi) == []


def test_an_index_a_build_arg_picks_has_no_known_channel(tmp_path: Path) -> None:
    dockerfile = (
        "FROM nvidia/cuda:12.0.1-cudnn8-devel-ubuntu22.04\nARG TORCH_CUDA_VERSION=cu121\n"
        "RUN pip install --pre torch --index-url https://download.pytorch.org/whl/${TORCH_CUDA_VERSION}\n"
    )
    readme = ARC_README.format(said="PyTorch nightly for CUDA 12.1 (build.sh passes `nightly/cu121`)")
    assert methods(tmp_path, readme, dockerfile) == []


# the channel a base image of PyTorch names, when no RUN installs torch over it

MIGX = """\
FROM {base}
ARG GPU_ARCH="gfx90a;gfx942"
COPY . /workspace/mgx
RUN git clone https://github.com/ROCm/AMDMIGraphX.git && cd AMDMIGraphX && git checkout develop
RUN cd /workspace/mgx/py && python -m pip install .
"""
MIGX_README = "# Graph lowering\n\n## Docker\n\nBuild with `./build.sh`.\n\n{said}\n"


def test_pytorch_said_to_be_nightly_but_the_base_is_a_release_image(tmp_path: Path) -> None:
    readme = MIGX_README.format(said="The Dockerfile builds on the nightly PyTorch container.")
    base = "rocm/pytorch:rocm6.3_ubuntu24.04_py3.12_pytorch_release_2.5.1"
    assert methods(tmp_path / "a", readme, MIGX.format(base=base)) == [
        f"7: README says PyTorch comes from the nightly channel, but Dockerfile:1 starts FROM {base}, a "
        "release image of PyTorch (likely)"
    ]
    # the older tag spelling (`…_pytorch_2.1.2`) and pytorch/pytorch's (`2.4.1-…-devel`: a flavour)
    for base in (
        "rocm/pytorch:rocm6.0_ubuntu22.04_py3.10_pytorch_2.1.2",
        "pytorch/pytorch:2.4.1-cuda12.4-cudnn9-devel",
    ):
        assert len(methods(tmp_path / base.replace("/", "_"), readme, MIGX.format(base=base))) == 1, base
    # a nightly base: true
    assert methods(tmp_path / "b", readme, MIGX.format(base="rocm/pytorch-nightly:latest")) == []


def test_pytorch_said_to_be_stable_but_the_base_is_a_nightly_image(tmp_path: Path) -> None:
    readme = MIGX_README.format(said="- stable PyTorch with ROCm")
    assert methods(tmp_path, readme, MIGX.format(base="docker.io/rocm/pytorch-nightly:latest")) == [
        "7: README says PyTorch comes from the stable channel, but Dockerfile:1 starts FROM "
        "docker.io/rocm/pytorch-nightly:latest, a nightly image of PyTorch (certain)"
    ]


def test_the_base_through_parent_stages(tmp_path: Path) -> None:
    dockerfile = (
        "FROM rocm/pytorch:rocm6.3_ubuntu24.04_py3.12_pytorch_release_2.5.1 AS deps\n"
        "RUN pip install pybind11\nFROM deps AS final\nCOPY . /src\n"
    )
    readme = MIGX_README.format(said="It ships nightly PyTorch.")
    assert len(methods(tmp_path, readme, dockerfile)) == 1


def test_a_base_that_says_no_channel_or_is_not_the_image_pytorch(tmp_path: Path) -> None:
    readme = MIGX_README.format(said="The Dockerfile builds on the nightly PyTorch container.")
    release = "rocm/pytorch:rocm6.3_ubuntu24.04_py3.12_pytorch_release_2.5.1"
    for n, dockerfile in enumerate(
        (
            MIGX.format(base="rocm/pytorch:latest"),  # a tag of no version
            MIGX.format(base="nvcr.io/nvidia/pytorch:24.08-py3"),  # NGC's monthly builds are pre-releases
            MIGX.format(base="rocm/pytorch:rocm6.3_ubuntu24.04_py3.12_pytorch_2.6.0rc2"),  # a candidate
            MIGX.format(base="rocm/dev-ubuntu-22.04:6.3"),  # no PyTorch in it
            # a build arg picks the base: a README may describe another build of it
            f"ARG BASE_IMAGE={release}\n" + MIGX.format(base="${BASE_IMAGE}"),
            # torch installed over the base: its channel is that install's (PyPI says none)
            MIGX.format(base=release) + "RUN pip install --pre torch==2.6.0\n",
            MIGX.format(base=release) + "RUN conda install -y pytorch -c pytorch-nightly\n",
        )
    ):
        assert methods(tmp_path / str(n), readme, dockerfile) == [], dockerfile
    # a requirements file the image installs pins torch: pip replaces the base's build with that pin
    make_tree(tmp_path / "req", {"requirements.txt": "torch==2.6.0\nnumpy<2\n"})
    dockerfile = (
        MIGX.format(base=release) + "COPY requirements.txt /tmp/\nRUN pip install -r /tmp/requirements.txt\n"
    )
    assert methods(tmp_path / "req", readme, dockerfile) == []
    make_tree(tmp_path / "req2", {"requirements.txt": "numpy<2\n"})
    assert len(methods(tmp_path / "req2", readme, dockerfile)) == 1  # one that does not: the base's
    # the README's words are no claim about the image's PyTorch
    for n, said in enumerate(
        (
            "`rocm/pytorch-nightly` images are published too",  # a name
            "The Dockerfile can build on the nightly PyTorch container if you pass BASE_IMAGE.",  # an option
            "It no longer builds on the nightly PyTorch container.",  # history
        )
    ):
        assert methods(tmp_path / f"s{n}", MIGX_README.format(said=said), MIGX.format(base=release)) == []


FORGE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ENV PATH=/opt/miniconda3/bin:$PATH
# Miniforge: conda-forge only, no Anaconda channels
RUN wget -q https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-Linux-x86_64.sh \\
    && bash Miniforge3-Linux-x86_64.sh -b -p /opt/miniconda3 && rm Miniforge3-Linux-x86_64.sh
RUN conda create -y -n splat python=3.10
"""


def test_a_conda_distribution_said_while_the_image_installs_another_makers(tmp_path: Path) -> None:
    said = "# Splat\n\n## Notes\n\n- The container uses Miniconda to manage its environments.\n"
    assert methods(tmp_path / "a", said, FORGE) == [
        "5: README says the image uses Miniconda but Dockerfile:4 installs Miniforge3, not Miniconda (likely)"
    ]
    conda = FORGE.replace(
        "https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-Linux-x86_64.sh",
        "https://repo.anaconda.com/miniconda/Miniconda3-latest-Linux-x86_64.sh",
    ).replace("Miniforge3-Linux", "Miniconda3-latest-Linux")
    forge = said.replace("Miniconda", "Miniforge")
    assert methods(tmp_path / "b", forge, conda) == [
        "5: README says the image uses Miniforge but Dockerfile:4 installs Miniconda3, not Miniforge (likely)"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "The container uses Miniforge to manage its environments.",  # what it installs
        "We switched from Miniconda to Miniforge to avoid the Anaconda terms.",  # history
        "Conda lives in /opt/miniconda3 inside the container.",  # the folder's name
        "If you prefer Miniconda, edit the Dockerfile.",  # a choice
    ],
)
def test_conda_distribution_sentences_that_match_or_are_no_claim(tmp_path: Path, sentence: str) -> None:
    assert methods(tmp_path, f"# Splat\n\n{sentence}\n", FORGE) == []


def test_a_conda_distribution_from_a_base_image_of_it(tmp_path: Path) -> None:
    readme = "# Lab\n\nThis image is based on Miniforge and adds JupyterLab.\n"
    assert methods(
        tmp_path / "a", readme, "FROM continuumio/miniconda3:24.1.2-0\nRUN conda install -y jupyterlab\n"
    ) == [
        "3: README says the image uses Miniforge but Dockerfile:1 installs continuumio/miniconda3, not"
        " Miniforge (likely)"
    ]
    assert (
        methods(
            tmp_path / "b", readme, "FROM condaforge/miniforge3:24.3.0-0\nRUN conda install -y jupyterlab\n"
        )
        == []
    )


AARCH = """\
FROM nvcr.io/nvidia/l4t-pytorch:r32.7.1-pth1.10-py3
RUN python3 -m pip install --upgrade pip && python3 -m pip install fastai
"""


def test_a_package_said_to_come_from_a_linked_source_the_build_never_uses(tmp_path: Path) -> None:
    readme = "# fastai on Jetson\n\nfastai is installed from [these wheels](https://github.com/acme/jetson-wheels).\n"
    assert methods(tmp_path / "a", readme, AARCH) == [
        "3: README says fastai is installed from https://github.com/acme/jetson-wheels but Dockerfile:2"
        " installs it from the default index, and nothing of the build names that source (likely)"
    ]
    # the build uses the source: an index, links, the repository named
    for used in (
        "fastai -f https://github.com/acme/jetson-wheels/releases",
        "--extra-index-url https://pypi.example.org/simple fastai",
        "/tmp/fastai-2.7.0-py3-none-any.whl",
    ):
        dockerfile = AARCH.replace("pip install fastai", f"pip install {used}")
        assert methods(tmp_path / used.replace("/", "_")[:20], readme, dockerfile) == []
    # history, and a package the image does not install at all (another rule's)
    old = readme.replace("fastai is installed", "fastai was previously installed")
    assert methods(tmp_path / "c", old, AARCH) == []
    other = readme.replace("fastai is", "torchvision is")
    assert methods(tmp_path / "d", other, AARCH) == []


# modelled on an image for a SYCL compiler's CUDA examples, which builds the compiler with a script
SYCL = """\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git ninja-build python3
RUN git clone -b nightly-2024-01-01 https://github.com/acme/sycl-llvm.git /root/llvm
ADD build_sycl.sh /
RUN chmod +x /build_sycl.sh
RUN /build_sycl.sh
ENV PATH=/opt/sycl/bin:$PATH
"""
SYCL_README = "# SYCL examples\n\nThis image uses a pre-built SYCL CUDA compiler to run the examples.\n"
# modelled on an inference server image that compiles llama.cpp itself
LLAMA = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y git cmake build-essential
RUN git clone --branch b3000 https://github.com/ggerganov/llama.cpp /opt/llama.cpp \\
    && cd /opt/llama.cpp && cmake -B build && cmake --build build -j
"""
LLAMA_README = "# Llama box\n\nThe build downloads prebuilt binaries of llama.cpp for CPU inference.\n"


def test_a_prebuilt_thing_the_dockerfile_builds_from_source(tmp_path: Path) -> None:
    assert methods(tmp_path / "a", SYCL_README, SYCL) == [
        "3: README says the image uses `pre-built SYCL CUDA compiler` but Dockerfile:6 builds SYCL from"
        " source (`/build_sycl.sh`): it is no prebuilt (likely)"
    ]
    assert methods(tmp_path / "b", LLAMA_README, LLAMA) == [
        "3: README says the image uses `prebuilt binaries of llama.cpp` but Dockerfile:3 builds llama.cpp"
        " from source (`https://github.com/ggerganov/llama.cpp, checked out and built`): it is no prebuilt"
        " (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # a builder stage compiles it and the image copies the result: a prebuilt for the image
        (
            SYCL_README,
            SYCL.replace(
                "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04",
                "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04 AS build",
            )
            + "FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04\nCOPY --from=build /opt/sycl /opt/sycl\n",
        ),
        # the image downloads a release as well: a prebuilt may be what it uses
        (
            SYCL_README,
            SYCL + "RUN wget https://example.org/sycl-linux-2024.tar.gz && tar xf sycl-linux-2024.tar.gz\n",
        ),
        # the build script runs only when asked
        (
            SYCL_README,
            SYCL.replace("RUN /build_sycl.sh", 'RUN if [ "$FROM_SOURCE" = 1 ]; then /build_sycl.sh; fi'),
        ),
        # a script only made runnable, never run
        (SYCL_README, SYCL.replace("RUN /build_sycl.sh\n", "")),
        # the repository cloned, never built
        (
            LLAMA_README,
            LLAMA.replace(" \\\n    && cd /opt/llama.cpp && cmake -B build && cmake --build build -j", ""),
        ),
        # an image that ships or provides pre-built binaries may have compiled them itself, for its users
        ("The container ships prebuilt binaries of llama.cpp for CPU inference.\n", LLAMA),
        ("This image provides a pre-built SYCL compiler for the examples.\n", SYCL),
        # builds available elsewhere
        ("Pre-built binaries of llama.cpp are available, but this image uses its own build.\n", LLAMA),
        # words that name no one thing, a negation, a condition
        ("The image uses pre-built CUDA binaries.\n", SYCL),
        ("This image does not use a pre-built SYCL compiler.\n", SYCL),
        ("It uses a pre-built SYCL compiler if one is available.\n", SYCL),
        ("Pull the pre-built Docker image from the registry.\n", SYCL),
    ],
)
def test_a_prebuilt_thing_that_is_no_claim_or_may_be_true(
    tmp_path: Path, readme: str, dockerfile: str
) -> None:
    assert not [f for f in methods(tmp_path, readme, dockerfile) if "pre-built" in f or "prebuilt" in f]


# A sentence about what happens in the other case: `If a wheel isn’t available and it compiles from
# source, …` (typographic apostrophe), `If the wheel download fails, … is built from source` (modelled
# on a GPT trainer's troubleshooting notes and on a speech toolkit's install notes); the same words
# said plainly of the image are a claim.
WHEELS = """\
FROM ubuntu:22.04
RUN python3 -m pip install --upgrade pip setuptools wheel
RUN pip install torchaudio --index-url https://download.pytorch.org/whl/cpu
"""


@pytest.mark.parametrize(
    "sentence",
    [
        "If a wheel isn’t available and it compiles from source, give the build more RAM.",
        "If a wheel isn't available and torchaudio compiles from source, set MAX_JOBS.",
        "If the wheel download fails, torchaudio is built from source (slow).",
        "torchaudio is built from source when no wheel matches.",
        "Unless a matching wheel exists, torchaudio compiles from source.",
    ],
)
def test_a_conditional_about_the_other_case_is_no_claim(tmp_path: Path, sentence: str) -> None:
    assert methods(tmp_path, f"# Speech\n\nTroubleshooting: {sentence}\n", WHEELS) == []


def test_a_plain_build_from_source_beside_a_conditional(tmp_path: Path) -> None:
    readme = "# Speech\n\nIf the wheel download fails, retry.\n\ntorchaudio is built from source.\n"
    assert methods(tmp_path, readme, WHEELS) == [
        "5: README says torchaudio is built from source but Dockerfile installs a prebuilt torchaudio"
        " from a package index (likely)"
    ]
