"""Components a sentence says the image provides, with no version, that no install brings
(`docgen/audit/provides.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import findings, make_tree

from docgen.analysis import build_model
from docgen.audit import audit

SERVING = """\
FROM intel/oneapi-basekit:2025.0.1-0-devel-ubuntu22.04
RUN git clone --depth 1 -b v0.8.3 https://github.com/vllm-project/vllm /opt/vllm && \\
    cd /opt/vllm && python setup.py install
RUN pip install fastapi uvicorn
"""
WEB = """\
FROM ubuntu:24.04
RUN apt-get update && apt-get install -y \\
        nginx \\
    # the cache, when wanted
    #   redis-server \\
        curl
"""


def provided(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_a_component_the_image_is_said_to_support_that_nothing_installs(tmp_path: Path) -> None:
    readme = "# Serving\n\nThe image supports two serving engines: **FastChat** and **vLLM**.\n"
    assert provided(tmp_path / "a", readme, SERVING) == [
        "3: README says the image provides FastChat but Dockerfile installs no FastChat "
        "(of those named, it installs vLLM) (likely)"
    ]
    # FastChat's pip name is fschat: installed, it is there
    fschat = SERVING.replace("fastapi uvicorn", "fastapi uvicorn fschat")
    assert provided(tmp_path / "b", readme, fschat) == []
    # alone, on a base that may hold anything: no sign the sentence is about what the Dockerfile adds
    alone = "# Serving\n\nThe image supports **FastChat**.\n"
    assert provided(tmp_path / "c", alone, SERVING) == []


def test_a_component_installed_only_in_a_comment_on_a_plain_base(tmp_path: Path) -> None:
    readme = "# Web\n\nIt lets you pick the versions of:\n\n- **Nginx**\n- **Redis**\n"
    assert provided(tmp_path / "a", readme, WEB) == [
        "6: README says the image provides Redis but Dockerfile installs no Redis "
        "(of those named, it installs Nginx) (likely)"
    ]
    assert provided(tmp_path / "b", "# Web\n\nThe container comes with **Redis**.\n", WEB) == [
        "3: README says the image provides Redis but Dockerfile installs no Redis (likely)"
    ]
    live = WEB.replace("    #   redis-server", "        redis-server")
    assert provided(tmp_path / "c", readme, live) == []


def test_sentences_that_do_not_say_the_image_holds_it(tmp_path: Path) -> None:
    for sentence in (
        "Make sure the image includes **Redis** before you deploy.",  # a requirement
        "The image does not include **Redis**.",  # an absence
        "The image supports **NVIDIA** GPUs and **x86_64** hosts.",  # hardware, not components
        "This repository provides **Redis** configuration examples.",  # not the image
        "The image supports **Redis** 7.2.",  # a version: compared elsewhere
    ):
        assert provided(tmp_path / str(hash(sentence)), f"# Web\n\n{sentence}\n", WEB) == [], sentence


NGC = "FROM nvcr.io/nvidia/pytorch:24.05-py3\nRUN pip install --no-cache-dir transformers==4.44.0\n"


def test_an_add_on_the_framework_base_does_not_ship(tmp_path: Path) -> None:
    # NGC's PyTorch image carries Apex and Transformer Engine, not DeepSpeed; the Dockerfile installs none
    readme = "# Trainer\n\nThe container comes with **Apex**, **Transformer Engine** and **DeepSpeed**.\n"
    assert provided(tmp_path / "a", readme, NGC) == [
        "3: README says the image provides DeepSpeed but Dockerfile installs no DeepSpeed (likely)"
    ]
    # a base docgen does not know may carry anything
    other = NGC.replace("nvcr.io/nvidia/pytorch:24.05-py3", "myorg/trainer:2.1")
    assert provided(tmp_path / "b", readme, other) == []
    # a package it installs pulls it in
    pulled = "# Server\n\nThe image provides **vLLM** with **xformers** kernels.\n"
    assert provided(tmp_path / "c", pulled, NGC + "RUN pip install vllm==0.6.3\n") == []


# A features list of a fine-tuning image whose entrypoint installs Jupyter when a container starts, and a
# Spanish sentence over a framework image (modelled on two fine-tuning projects).
TRAINER = """\
FROM nvidia/cuda:12.6.3-runtime-ubuntu24.04
RUN apt-get update && apt-get install -y python3-pip nano vim git && rm -rf /var/lib/apt/lists/*
RUN pip install --break-system-packages torch==2.7.1 transformers peft accelerate
COPY train.py /work/
COPY start.sh /work/
RUN chmod +x /work/start.sh
ENTRYPOINT ["/work/start.sh"]
"""
START = """\
#!/bin/bash
if [ "$NOTEBOOK" = "yes" ]; then
    pip install --break-system-packages notebook -q
    jupyter notebook --ip=0.0.0.0 --allow-root
else
    exec "$@"
fi
"""
FEATURES = """\
# Fine-tuning box

## Features

- **Docker image**: one container for training
- **Handy tools**: Includes {names} and a few other utilities
"""


def _trainer(root: Path, readme: str, dockerfile: str = TRAINER) -> list[str]:
    make_tree(root, {"train.py": "print(1)\n", "start.sh": START})
    return [f for f in provided(root, readme, dockerfile) if "provides" in f]


def test_a_tool_only_the_start_script_installs_is_not_in_the_image(tmp_path: Path) -> None:
    assert _trainer(tmp_path, FEATURES.format(names="Jupyter, nano, vim")) == [
        "6: README says the image provides Jupyter but nothing of Dockerfile installs it: start.sh:3 "
        "installs it when a container starts (pip install --break-system-packages notebook -q), not in "
        "the image (likely)"
    ]


def test_a_tool_the_build_installs_and_the_start_script_only_starts(tmp_path: Path) -> None:
    dockerfile = TRAINER.replace("accelerate\n", "accelerate notebook\n")
    assert _trainer(tmp_path, FEATURES.format(names="Jupyter, nano, vim"), dockerfile) == []


def test_an_item_of_a_list_about_no_image_says_nothing_of_it(tmp_path: Path) -> None:
    readme = "# Fine-tuning box\n\n## Features\n\n- **Handy**: Includes Jupyter, nano, vim\n"
    assert _trainer(tmp_path, readme) == []


def test_a_library_a_spanish_sentence_says_the_image_includes(tmp_path: Path) -> None:
    sentence = (
        "La imagen Docker incluye Python 3.x y todas las librerías (Transformers, PEFT, BitsAndBytes, etc.) "
        "necesarias para entrenar."
    )
    assert _trainer(tmp_path, f"# Fine-tuning box\n\n{sentence}\n") == [
        "3: README says the image provides BitsAndBytes but Dockerfile installs no BitsAndBytes (of those "
        "named, it installs PEFT, Transformers) (likely)"
    ]


def test_names_of_a_spanish_sentence_the_image_holds(tmp_path: Path) -> None:
    sentence = "La imagen incluye PyTorch, PEFT y BitsAndBytes."  # `PyTorch` is torch
    dockerfile = TRAINER.replace("peft", "peft bitsandbytes")
    assert _trainer(tmp_path, f"# Fine-tuning box\n\n{sentence}\n", dockerfile) == []
    assert (
        _trainer(tmp_path, "# Fine-tuning box\n\nSi la imagen incluye BitsAndBytes, entrena en 4 bits.\n")
        == []
    )


# A component a sentence says one named Dockerfile of several holds (`- **dockerfile_gpu_ros** contains
# …`, `` `base.dockerfile`, which includes … ``): compared with that file alone.

GPU_ROS = """\
FROM nvidia/cudagl:11.4.2-base-ubuntu20.04
RUN apt-get update && apt-get install -y --no-install-recommends ros-noetic-desktop-full python3-rosdep
"""
"""A ROS image on NVIDIA's CUDA-with-OpenGL base, nothing else added."""
GPU_ROS_V2 = GPU_ROS + "RUN pip3 install torch torchvision && apt-get install -y x11vnc xvfb\n"
"""Its later sibling, which does add PyTorch and a VNC server."""
RL = "FROM gpu_ros:latest\nRUN pip3 install tensorflow stable-baselines3\n"


def family_provided(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {**files, "README.md": readme})
    models = [build_model(root / path, path) for path in files]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, root)]


def test_a_component_a_named_dockerfile_of_several_is_said_to_contain(tmp_path: Path) -> None:
    files = {"dockerfile_gpu_ros": GPU_ROS, "dockerfile_gpu_ros_v2": GPU_ROS_V2, "dockerfile_rl": RL}
    readme = (
        "# Robot learning images\n\n"
        "- **dockerfile_gpu_ros** contains CUDA with ROS, PyTorch and a desktop for visualization\n"
        "- **dockerfile_rl** contains gpu_ros with the packages for RL research\n"
    )
    assert family_provided(tmp_path / "ros", readme, files) == [
        "3: README says dockerfile_gpu_ros provides PyTorch but dockerfile_gpu_ros installs no PyTorch "
        "(of those named, it installs CUDA) (likely)"
    ]
    # a deep-learning family: the named file in code, `which includes`, on a plain OS base
    plain = "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3-pip && pip3 install numpy\n"
    files = {"docker/cpu.dockerfile": plain, "docker/serve.dockerfile": plain + "RUN pip3 install vllm\n"}
    readme = "# Stack\n\nThe CPU image, `cpu.dockerfile`, which includes NumPy and Ollama.\n"
    assert family_provided(tmp_path / "plain", readme, files) == [
        "3: README says docker/cpu.dockerfile provides Ollama but docker/cpu.dockerfile installs no Ollama "
        "(likely)"
    ]


def test_named_dockerfile_traps_stay_silent(tmp_path: Path) -> None:
    files = {"dockerfile_gpu_ros": GPU_ROS, "dockerfile_gpu_ros_v2": GPU_ROS_V2}
    # the later sibling, which does hold them: its name is not the shorter one's
    v2 = "# Images\n\n- **dockerfile_gpu_ros_v2** contains CUDA with ROS and PyTorch\n"
    assert family_provided(tmp_path / "v2", v2, files) == []
    # two files named in the sentence: which holds what is not said
    both = "# Images\n\n- **dockerfile_gpu_ros** and dockerfile_gpu_ros_v2 contain ROS and PyTorch\n"
    assert family_provided(tmp_path / "both", both, files) == []
    # no audited file named before the verb: a script on the host
    host = "# Images\n\nThe setup script installs Docker, ROS and PyTorch on the host machine.\n"
    assert family_provided(tmp_path / "host", host, files) == []
    # a base that carries it: a framework image holds PyTorch
    rocm = {
        "rocm.dockerfile": "FROM rocm/pytorch:latest\nRUN pip3 install transformers\n",
        "serve.dockerfile": "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y nginx\n",
    }
    said = (
        "# Stacks\n\nThe one base image, `rocm.dockerfile`, which includes ROCm, PyTorch and Transformers.\n"
    )
    assert family_provided(tmp_path / "rocm", said, rocm) == []
    # not said (negated, a condition)
    negated = "# Images\n\n- **dockerfile_gpu_ros** contains no PyTorch; use the v2 file for that\n"
    assert family_provided(tmp_path / "negated", negated, files) == []


# A name after another, `with … support`: how that component is built, not a component of its own
SCVI = (
    "FROM python:3.12-slim\nRUN pip install --no-cache-dir scanpy==1.10.2 \\\n"
    "  && pip install --no-cache-dir torch==2.4.0 --index-url https://download.pytorch.org/whl/cu118\n"
)
VISION = (
    "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3-pip && pip install opencv-python\n"
)


def test_a_name_that_says_how_another_is_built_is_no_component(tmp_path: Path) -> None:
    # a bioinformatics image's steps: torch from a CUDA wheel index is `PyTorch with CUDA support`
    steps = (
        "# scvi\n\nThe Dockerfile follows these steps:\n\n"
        "1. Installs PyTorch with CUDA support from the index\n"
    )
    assert provided(tmp_path / "a", steps, SCVI) == []
    # a vision image: `OpenCV with **CUDA** acceleration` names OpenCV's build
    said = "# Vision\n\nThe image includes **OpenCV** with **CUDA** acceleration.\n"
    assert provided(tmp_path / "b", said, VISION) == []


def test_components_beside_a_built_with_name_are_still_read(tmp_path: Path) -> None:
    said = "# Vision\n\nThe image includes **OpenCV** with **CUDA** acceleration and **Jupyter**.\n"
    assert provided(tmp_path / "a", said, VISION) == [
        "3: README says the image provides Jupyter but Dockerfile installs no Jupyter "
        "(of those named, it installs OpenCV) (likely)"
    ]
    # a name first in the claim is a component of its own, `with … support` or not
    alone = "# Vision\n\nThe container comes with **CUDA** support and **OpenCV**.\n"
    assert provided(tmp_path / "b", alone, VISION) == [
        "3: README says the image provides CUDA but Dockerfile installs no CUDA "
        "(of those named, it installs OpenCV) (likely)"
    ]


# A component named by its display name while the Dockerfile installs it by its conda, apt or pip name
# (`SageMath` for `mamba install sage`, `PyTorch Geometric` for `conda install pyg`, `Tesseract` for
# `apt-get install tesseract-ocr`): the one table of names (`sources.naming.SAME_PROJECT`) makes them
# one component. Modelled on a molecular-dynamics conda image and on a graph-learning image.
CHEMISTRY = """\
FROM ubuntu:22.04
RUN wget https://example.org/miniforge.sh -O /tmp/m.sh && bash /tmp/m.sh -b -p /opt/conda
RUN pip install ase
RUN mamba install -y sage -c conda-forge
RUN conda install -c conda-forge openmm openbabel
"""
GRAPHS = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y tesseract-ocr ninja-build
RUN conda install -y -c pyg pyg=2.4.0 && conda install -y -c conda-forge pytorch-gpu
"""


def test_a_component_installed_under_its_conda_or_apt_name(tmp_path: Path) -> None:
    readme = "# Tools\n\nThis image includes:\n* [ASE](https://example.org/ase)\n* [SageMath](https://example.org/sage)\n"
    readme += "* [OpenMM](https://example.org/openmm)\n"
    assert provided(tmp_path / "a", readme, CHEMISTRY) == []
    graphs = "# Graphs\n\nThe image includes PyTorch, PyTorch Geometric, Tesseract and Ninja.\n"
    assert provided(tmp_path / "b", graphs, GRAPHS) == []
    # drift: a component no install brings, next to those the table matches
    missing = readme + "* [GROMACS](https://example.org/gromacs)\n"
    assert provided(tmp_path / "c", missing, CHEMISTRY) == [
        "7: README says the image provides GROMACS but Dockerfile installs no GROMACS (of those named, it "
        "installs ASE, OpenMM, SageMath) (likely)"
    ]


def test_a_version_of_a_component_installed_under_its_conda_name() -> None:
    # the conda name's pin is the display name's version
    assert findings("# Graphs\n\nThe image ships PyG 2.4.0.\n", {"Dockerfile": GRAPHS}) == []
    assert findings("# Graphs\n\nThe image ships PyTorch Geometric 2.5.0.\n", {"Dockerfile": GRAPHS}) == [
        "3: README says PyTorch Geometric 2.5.0 but Dockerfile:3 says 2.4.0"
    ]
