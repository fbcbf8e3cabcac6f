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
