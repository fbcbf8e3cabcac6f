"""`docgen.audit.cpu_only`: a `docker run --gpus …` of an image whose every install that could use a GPU is a
CPU build, on a base with no CUDA or ROCm, is a finding (`likely`). Traps: a CUDA base, CPU torch plus a
CUDA library, an image that reaches the GPU through a runtime of its own (ollama, llama.cpp), torch from
PyPI, a requirements file, a package docgen does not know, a `--gpus` run of a sibling CUDA image. The
READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(
    tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: tuple[str, ...] = ("Dockerfile",)
) -> list[str]:
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / name, name) for name in dockerfiles]
    found = audit(readme, "README.md", models, {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "(GPU support)" in d.message]


# modelled on a CPU-wheel LLM runtime image whose usage guide offers `--gpus all`
CPU_IMAGE = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y python3-pip git ocl-icd-opencl-dev
RUN pip install torch --index-url https://download.pytorch.org/whl/cpu
RUN pip install --pre acme-runtime-nightly-cpu numpy transformers jupyter
WORKDIR /workspace
CMD ["bash"]
"""

README = """\
# Acme runtime

```bash
docker build -t acme/runtime .
docker run -it --rm acme/runtime
# With GPU support (if available)
docker run -it --rm --gpus all \\
  -v $(pwd):/workspace \\
  acme/runtime
```
"""


def test_gpus_for_an_image_of_cpu_builds(tmp_path: Path) -> None:
    assert _audit(tmp_path, README, {"Dockerfile": CPU_IMAGE}) == [
        "7: README runs acme/runtime with --gpus (GPU support), but the image installs only CPU builds "
        "(torch from https://download.pytorch.org/whl/cpu (Dockerfile:3), acme-runtime-nightly-cpu "
        "(Dockerfile:4)) on ubuntu:22.04, which has no CUDA or ROCm: nothing in the container can use the "
        "GPU (likely)"
    ]


def test_a_cuda_base(tmp_path: Path) -> None:
    dockerfile = CPU_IMAGE.replace("ubuntu:22.04", "nvidia/cuda:12.4.1-runtime-ubuntu22.04")
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


def test_cpu_torch_and_a_cuda_library(tmp_path: Path) -> None:
    dockerfile = CPU_IMAGE.replace("ocl-icd-opencl-dev", "nvidia-cuda-toolkit")
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


def test_a_runtime_of_its_own(tmp_path: Path) -> None:
    dockerfile = CPU_IMAGE + "RUN curl -fsSL https://ollama.com/install.sh | sh\n"
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


def test_torch_from_pypi(tmp_path: Path) -> None:
    dockerfile = CPU_IMAGE.replace(" --index-url https://download.pytorch.org/whl/cpu", "")
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


def test_a_requirements_file(tmp_path: Path) -> None:
    dockerfile = CPU_IMAGE + "COPY requirements.txt .\nRUN pip install -r requirements.txt\n"
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile, "requirements.txt": "x\n"}) == []


def test_a_package_docgen_does_not_know(tmp_path: Path) -> None:
    # (a speech package of this kind ships CUDA kernels in its PyPI wheels)
    dockerfile = CPU_IMAGE.replace("numpy transformers", "numpy acme-whisper-fast")
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


# modelled on a repository with a CPU and a CUDA image side by side
SIBLING = """\
FROM nvidia/cuda:12.1.0-cudnn8-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip install torch acme-runtime
"""

SIBLING_README = """\
# Acme runtime

```bash
docker build -t acme/runtime-cpu -f Dockerfile .
docker build -t acme/runtime-gpu -f Dockerfile.cuda .
docker run --rm acme/runtime-cpu
docker run --rm --gpus all acme/runtime-gpu
```
"""


def test_gpus_on_the_sibling_cuda_image(tmp_path: Path) -> None:
    files = {"Dockerfile": CPU_IMAGE, "Dockerfile.cuda": SIBLING}
    assert _audit(tmp_path, SIBLING_README, files, ("Dockerfile", "Dockerfile.cuda")) == []


def test_gpus_on_the_cpu_image_of_two(tmp_path: Path) -> None:
    files = {"Dockerfile": CPU_IMAGE, "Dockerfile.cuda": SIBLING}
    readme = SIBLING_README.replace("--rm acme/runtime-cpu", "--rm --gpus all acme/runtime-cpu")
    found = _audit(tmp_path, readme, files, ("Dockerfile", "Dockerfile.cuda"))
    assert len(found) == 1 and found[0].startswith("6: README runs acme/runtime-cpu with --gpus")


def test_no_gpu_run(tmp_path: Path) -> None:
    readme = README.replace("--gpus all ", "")
    assert _audit(tmp_path, readme, {"Dockerfile": CPU_IMAGE}) == []


def test_a_build_arg_picks_the_torch_build(tmp_path: Path) -> None:
    # modelled on a Dockerfile whose flavour arg defaults to `cpu`: a build may pass `cu121`
    dockerfile = CPU_IMAGE.replace(
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cpu",
        'ARG TORCH_FLAVOR="cpu"\nRUN pip install torch --index-url "https://download.pytorch.org/whl/${TORCH_FLAVOR}"',
    )
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


def test_a_build_arg_picks_the_base(tmp_path: Path) -> None:
    dockerfile = "ARG BASE=ubuntu:22.04\n" + CPU_IMAGE.replace("FROM ubuntu:22.04", "FROM ${BASE}")
    assert _audit(tmp_path, README, {"Dockerfile": dockerfile}) == []


# What the README's words say the image runs on: `gpu_claims`, `cpu_claims`, `swapped_variants`.


def _said(
    tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: tuple[str, ...] = ("Dockerfile",)
) -> list[str]:
    """The findings of the three readers of what the README says the image runs on."""
    make_tree(tmp_path, {**files, "README.md": readme})
    models = [build_model(tmp_path / name, name) for name in dockerfiles]
    found = audit(readme, "README.md", models, {}, tmp_path)
    said = ("(a GPU build)", "a GPU (CUDA or ROCm) build", "README says to replace")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if any(s in d.message for s in said)]


# modelled on a tutorial image pair built from generated Dockerfiles: the GPU one kept the CPU wheels
GPU_NAMED_CPU = """\
FROM debian:12
RUN apt-get update && apt-get install -y curl git
RUN curl -fsSL -o /tmp/conda.sh https://repo.example.org/Miniforge3-Linux-x86_64.sh && bash /tmp/conda.sh -b
RUN conda install -y python=3.11 notebook numpy
RUN pip install brainmaps-tutorials
RUN pip install torch torchvision --index-url https://download.pytorch.org/whl/cpu
"""
CPU_TWIN = GPU_NAMED_CPU
GPU_VERSION_README = """\
# Tutorials in a container

To build the CPU version, run
```
docker build --tag tutorials --file cpu.Dockerfile .
```

To build the GPU version, check that the NVIDIA driver and CUDA are installed, then build with
```
docker build --tag tutorials --file gpu.Dockerfile .
```
"""


def test_the_gpu_version_of_cpu_wheels(tmp_path: Path) -> None:
    found = _said(
        tmp_path,
        GPU_VERSION_README,
        {"gpu.Dockerfile": GPU_NAMED_CPU, "cpu.Dockerfile": CPU_TWIN},
        ("cpu.Dockerfile", "gpu.Dockerfile"),
    )
    assert found == [
        "8: README calls the image 'GPU version' (a GPU build), but gpu.Dockerfile starts from debian:12 "
        "(no CUDA or ROCm) and installs only CPU builds of its frameworks (torch from "
        "https://download.pytorch.org/whl/cpu (gpu.Dockerfile:6), torchvision from "
        "https://download.pytorch.org/whl/cpu (gpu.Dockerfile:6)) (and 1 more image): nothing in the image "
        "can use a GPU (likely)"
    ]


def test_the_gpu_version_with_a_cuda_twin(tmp_path: Path) -> None:
    """Trap: the GPU Dockerfile installs torch from the CUDA wheel index; the CPU one is CPU."""
    cuda = GPU_NAMED_CPU.replace("whl/cpu", "whl/cu121")
    files = {"gpu.Dockerfile": cuda, "cpu.Dockerfile": CPU_TWIN}
    assert _said(tmp_path, GPU_VERSION_README, files, ("cpu.Dockerfile", "gpu.Dockerfile")) == []


def test_gpu_enabled_on_a_base_carrying_torch(tmp_path: Path) -> None:
    """Trap: the base carries CUDA torch; the image installs nothing of its own that is a CPU build."""
    readme = "# Lab\n\nA GPU-enabled image for the lab's notebooks.\n"
    dockerfile = "FROM pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime\nRUN pip install jupyterlab\n"
    assert _said(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_gpu_support_of_the_host(tmp_path: Path) -> None:
    """Trap: `Docker with GPU support` is the host's; a sentence about the CPU image too names both."""
    readme = (
        "# Tutorials\n\n## Requirements\n\n- Docker with GPU support\n\n"
        "The CPU image is the default; a GPU image is planned.\n"
    )
    assert _said(tmp_path, readme, {"Dockerfile": GPU_NAMED_CPU}) == []


def test_gpu_claim_with_an_unknown_gpu_word(tmp_path: Path) -> None:
    """Trap: a RUN naming a GPU stack (a CUDA toolkit from apt) may make the image a GPU one."""
    dockerfile = GPU_NAMED_CPU.replace("curl git", "curl git nvidia-cuda-toolkit")
    readme = "# Tutorials\n\nThis is the GPU version of the tutorials image.\n"
    assert _said(tmp_path, readme, {"Dockerfile": dockerfile}) == []


# modelled on a small text-generation API whose README promises a CPU-only setup
SERVING = """\
FROM nvidia/cuda:12.1.0-cudnn8-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
COPY requirements.txt .
RUN pip3 install -r requirements.txt
COPY app/ /app
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0"]
"""
SERVING_README = """\
# Text service

- FastAPI for the REST interface
- CPU-only setup (GPU-ready upgrade available)
- Runs on CPU or scales to GPU
"""


def test_cpu_only_on_a_cuda_base(tmp_path: Path) -> None:
    files = {"Dockerfile": SERVING, "requirements.txt": "fastapi\ntransformers\n"}
    assert _said(tmp_path, SERVING_README, files) == [
        "4: README calls the image 'CPU-only', but Dockerfile:1 starts FROM "
        "nvidia/cuda:12.1.0-cudnn8-runtime-ubuntu22.04, a GPU (CUDA or ROCm) build: the image is made for a "
        "GPU (likely)"
    ]


def test_cpu_only_with_cuda_wheels(tmp_path: Path) -> None:
    """A plain base whose torch is the CUDA build is a GPU image too."""
    dockerfile = "FROM python:3.11-slim\nRUN pip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121\n"
    readme = "# Sentiment\n\nThe sentiment server image is a CPU only build.\n"
    assert _said(tmp_path, readme, {"Dockerfile": dockerfile}) == [
        "3: README calls the image 'CPU only', but Dockerfile:2 installs torch from "
        "https://download.pytorch.org/whl/cu121, a GPU (CUDA or ROCm) build: the image is made for a GPU "
        "(likely)"
    ]


# modelled on a course image pair: a multi-arch CPU image and an amd64 CUDA image, both in one README
PAIR_README = """\
# Course notebooks

**CPU-only (multi-arch)**
```bash
docker pull ghcr.io/acme/course:latest
```

**GPU-enabled (amd64 + CUDA)**
```bash
docker run --rm -it --gpus all ghcr.io/acme/course-gpu:latest
```
"""


def test_cpu_only_beside_a_cpu_variant(tmp_path: Path) -> None:
    """Trap: one Dockerfile of the part is a CPU one; the claim is that variant's."""
    files = {
        "Dockerfile": "FROM quay.io/jupyter/scipy-notebook:python-3.11\nRUN pip install torch --index-url https://download.pytorch.org/whl/cpu\n",
        "Dockerfile.gpu": "FROM quay.io/jupyter/pytorch-notebook:cuda12-python-3.11\n",
    }
    assert _said(tmp_path, PAIR_README, files, ("Dockerfile", "Dockerfile.gpu")) == []


def test_cpu_only_when_both_are_cuda(tmp_path: Path) -> None:
    files = {
        "Dockerfile": "FROM quay.io/jupyter/pytorch-notebook:cuda-12.3.1-cudnn8-runtime-ubuntu22.04\n",
        "Dockerfile.gpu": "FROM quay.io/jupyter/pytorch-notebook:cuda12-python-3.11\n",
    }
    assert _said(tmp_path, PAIR_README, files, ("Dockerfile", "Dockerfile.gpu")) == [
        "3: README calls the image 'CPU-only', but Dockerfile:1 starts FROM "
        "quay.io/jupyter/pytorch-notebook:cuda-12.3.1-cudnn8-runtime-ubuntu22.04 (and 1 more image), a GPU "
        "(CUDA or ROCm) build: the image is made for a GPU (likely)"
    ]


def test_cpu_only_mode_of_a_gpu_image(tmp_path: Path) -> None:
    """Trap: a CPU-only mode or run of a GPU image, and CPU-only hosts, say nothing of the image."""
    readme = (
        "# Upscaler\n\nFor CPU-only mode, use this command instead:\n\n"
        "```\ndocker run --rm upscaler --device cpu\n```\n\n"
        "It also works on CPU-only machines, slowly.\n\nSet `FORCE_GPU=false` for CPU-only inference.\n"
    )
    dockerfile = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN apt-get update\n"
    assert _said(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_cpu_only_on_a_plain_base(tmp_path: Path) -> None:
    """Trap: a CPU-only image on Alpine is what it says."""
    readme = "# llama server\n\nA (cpu-only) docker image based on llama.cpp.\n"
    dockerfile = "FROM alpine:3.20\nRUN apk add --no-cache build-base cmake git\n"
    assert _said(tmp_path, readme, {"Dockerfile": dockerfile}) == []


# modelled on a model-server image whose README tells to switch the base's tag to the GPU one
SWAP_README = """\
Commands to run docker

for the cpu instance
docker run --rm -p8080:8080 spellfix

for the gpu instance
To run on a GPU instance first replace -cpu from the docker image with -gpu then build the image.
docker run --rm -p8080:8080 --gpus all spellfix
"""


def test_replace_cpu_with_gpu_already_done(tmp_path: Path) -> None:
    dockerfile = "FROM pytorch/torchserve:0.8.2-gpu\nCOPY model-store/ /tmp/models/\n"
    assert _said(tmp_path, SWAP_README, {"Dockerfile": dockerfile}) == [
        "7: README says to replace -cpu with -gpu in the base image, but Dockerfile:1 already starts FROM "
        "pytorch/torchserve:0.8.2-gpu and no FROM names cpu: the default build is already the GPU image "
        "(likely)"
    ]


def test_replace_cpu_with_gpu_to_do(tmp_path: Path) -> None:
    """Trap: the instruction to change the base for the user's own GPU build fits the Dockerfile."""
    dockerfile = "FROM pytorch/torchserve:0.8.2-cpu\nCOPY model-store/ /tmp/models/\n"
    assert _said(tmp_path, SWAP_README, {"Dockerfile": dockerfile}) == []


def test_change_cpu_to_gpu_with_a_base_arg(tmp_path: Path) -> None:
    """Trap: a base a build arg picks may be either."""
    readme = "# Server\n\nTo use a GPU, change `cpu` to `gpu` in the `BASE_TAG` build arg.\n"
    dockerfile = "ARG BASE_TAG=0.8.2-gpu\nFROM pytorch/torchserve:${BASE_TAG}\n"
    assert _said(tmp_path, readme, {"Dockerfile": dockerfile}) == []


def test_gpu_version_picked_by_a_flag(tmp_path: Path) -> None:
    """Trap: the GPU version is built by a switch of a script (another Dockerfile, a build arg)."""
    readme = (
        "# Faces\n\n```bash\n./docker/build.sh\n```\n\nTo build the GPU version, add the `--gpu` flag.\n\n"
        "Run `make GPU=1` for the GPU image.\n"
    )
    assert _said(tmp_path, readme, {"Dockerfile": GPU_NAMED_CPU, "docker/build.sh": "docker build .\n"}) == []
