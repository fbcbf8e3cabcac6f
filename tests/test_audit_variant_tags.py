"""`docgen audit`: compose services whose image tag names one hardware variant (`cuda`, `rocm`, `cpu` …)
while the Dockerfile they build is named for, or built on, another (docgen/audit/variant_tags.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

NVIDIA = "ARG CU=12.3.1\nFROM nvidia/cuda:${CU}-devel-ubuntu22.04\nRUN make SERVE_CUBLAS=1\n"
AMD = (
    "ARG DISTRO=22.04\nARG ROCM=6.0\nARG DEV=rocm/dev-ubuntu-${DISTRO}:${ROCM}-complete\n"
    'FROM ${DEV} AS build\nRUN make SERVE_HIPBLAS=1\nFROM build\nCMD ["serve"]\n'
)
PLAIN = "FROM python:3.11-slim\nRUN pip install llmserve\n"

# an inference server with an NVIDIA and an AMD image: the service reserves NVIDIA GPUs and tags
# its image `cuda`, but was last pointed at the AMD Dockerfile
SERVE = (
    "services:\n"
    "  serve:\n"
    "    deploy:\n      resources:\n        reservations:\n          devices:\n"
    "            - driver: nvidia\n              capabilities: [gpu]\n"
    "    image: me/llmserve:cuda\n"
    "    build:\n      context: .\n      dockerfile: noncuda.dockerfile\n"
    '    ports:\n      - "5100:5100"\n'
)
SERVE_README = (
    "# llmserve\n\n"
    "Run it with the [docker-compose.yml](docker-compose.yml) file.\n"
    "For AMD cards use the `noncuda` tag.\n\n"
    "## Building\n\n```bash\ndocker compose build\n```\n"
)


def found(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "hardware variant" in d.message or "naming `" in d.message
    ]


def test_a_cuda_tag_built_from_the_non_cuda_dockerfile(tmp_path: Path) -> None:
    files = {"Dockerfile": NVIDIA, "noncuda.dockerfile": AMD, "docker-compose.yml": SERVE}
    assert found(tmp_path, SERVE_README, files) == [
        (
            9,
            "README builds or names image `me/llmserve:cuda`: docker-compose.yml:9 (service serve) tags the "
            "image it builds `me/llmserve:cuda`, naming `cuda`, but its Dockerfile `noncuda.dockerfile` is "
            "named for `nocuda`",
            "certain",
        )
    ]


def test_a_sentence_naming_the_compose_file_only_is_likely(tmp_path: Path) -> None:
    files = {"Dockerfile": NVIDIA, "noncuda.dockerfile": AMD, "docker-compose.yml": SERVE}
    readme = SERVE_README.split("## Building")[0]
    assert [(n, c) for n, _, c in found(tmp_path, readme, files)] == [(3, "likely")]


def test_a_cuda_tag_on_a_rocm_base_and_a_gpu_tag_from_the_cpu_file(tmp_path: Path) -> None:
    build = "    build:\n      context: .\n      dockerfile:"
    compose = (
        "services:\n"
        "  api-cpu:\n    image: me/ocr-api:cpu\n"
        f"{build} Dockerfile.cpu\n"
        "  api-gpu:\n    image: me/ocr-api:gpu\n"
        f"{build} Dockerfile.cpu\n"
        "  api-cuda:\n    image: me/ocr-api:cuda\n    build: ./amd\n"
    )
    readme = (
        "# OCR API\n\nCPU-only image:\n\n```bash\ndocker compose up api-cpu\n```\n\n"
        "NVIDIA image:\n\n```bash\ndocker compose up api-gpu\n```\n\n"
        "Or pull `me/ocr-api:cuda`.\n"
    )
    files = {
        "Dockerfile": PLAIN,
        "Dockerfile.cpu": PLAIN,
        "amd/Dockerfile": AMD,
        "docker-compose.yml": compose,
    }
    got = found(tmp_path, readme, files)
    assert [(n, c) for n, _, c in got] == [(12, "certain"), (15, "certain")]
    assert "`Dockerfile.cpu` is named for `cpu`" in got[0][1]
    assert "builds on `rocm/dev-ubuntu-22.04:6.0-complete` (rocm)" in got[1][1]


def test_silent_on_variants_that_agree_or_may_hold_together(tmp_path: Path) -> None:
    build = "    build:\n      context: .\n      dockerfile:"
    compose = (
        "services:\n"
        # a cuda tag on a plain Dockerfile built on nvidia/cuda
        "  a:\n    image: me/llmserve:cuda\n"
        f"{build} Dockerfile\n"
        # gpu and cuda hold together; nocuda and rocm too
        "  b:\n    image: me/llmserve:gpu\n"
        f"{build} Dockerfile.cuda\n"
        "  c:\n    image: me/llmserve:nocuda\n"
        f"{build} rocm.dockerfile\n"
        # a tag naming both sides
        "  d:\n    image: me/llmserve:cuda-rocm\n"
        f"{build} cpu.dockerfile\n"
        # a Dockerfile that is not there
        "  e:\n    image: me/llmserve:cuda\n"
        f"{build} Dockerfile.cpu\n"
        # a plain Dockerfile on a plain base
        "  f:\n    image: me/llmserve:rocm\n    build:\n      context: ./plain\n"
    )
    readme = "# llmserve\n\n```\ndocker compose build\ndocker compose up a b c d e f\n```\n"
    files = {
        "Dockerfile": NVIDIA,
        "Dockerfile.cuda": NVIDIA,
        "rocm.dockerfile": AMD,
        "cpu.dockerfile": PLAIN,
        "plain/Dockerfile": PLAIN,
        "docker-compose.yml": compose,
    }
    assert found(tmp_path, readme, files) == []


def test_silent_when_a_build_arg_or_a_target_selects_the_variant(tmp_path: Path) -> None:
    # the variant is chosen by an arg (a base tag defaulting to rocm) or a stage target
    by_arg = (
        "services:\n  engine:\n    image: me/engine:cuda\n    build:\n      context: .\n"
        "      dockerfile: docker/engine.rocm.Dockerfile\n      args:\n"
        "        ENGINE_BASE_TAG: ${ENGINE_TAG:-rocm}\n"
    )
    by_target = (
        "services:\n  engine:\n    image: me/engine:cuda\n    build:\n      context: .\n"
        "      dockerfile: docker/engine.rocm.Dockerfile\n      target: nvidia\n"
    )
    readme = "# Engine\n\n```\ndocker compose up -d --build\n```\n"
    for compose in (by_arg, by_target):
        files = {
            "Dockerfile": NVIDIA,
            "docker/engine.rocm.Dockerfile": AMD,
            "docker-compose.yml": compose,
        }
        assert found(tmp_path, readme, files) == []


def test_silent_when_the_readme_uses_another_compose_file_or_none(tmp_path: Path) -> None:
    files = {"Dockerfile": NVIDIA, "noncuda.dockerfile": AMD, "docker-compose.yml": SERVE}
    other = "# llmserve\n\n```\ndocker compose -f compose.cpu.yml up --build\n```\n"
    assert found(tmp_path, other, files) == []
    silent = "# llmserve\n\nPull `me/llmserve:latest` and run it.\n"
    assert found(tmp_path, silent, files) == []


# `platform_builds`: a README about one GPU platform whose build makes an image of another

CUDA_SERVER = (
    "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
    "RUN apt-get update && apt-get install -y python3-pip\n"
    "RUN pip install torch==2.1.0\nWORKDIR /voice\nCOPY . .\nARG EXTRAS\nRUN pip install -r $EXTRAS\n"
)
ROCM_SERVER = "FROM python:3.10-bookworm\nWORKDIR /voice\nCOPY . .\nRUN pip install -r requirements-amd.txt\n"
ROCM_COMPOSE = (
    "services:\n  voice:\n    devices:\n      - /dev/kfd\n      - /dev/dri\n    image: vocal/voice-server\n"
    "    build:\n      context: ../\n      dockerfile: {dockerfile}\n"
    "      args:\n        EXTRAS: requirements-amd.txt\n"
    '    ports:\n      - "7100:7100"\n'
)
ROCM_README = (
    "# Voice server on AMD GPUs (ROCm)\n\n## Build\n\nFrom the `docker-amd` folder:\n\n"
    "```bash\ndocker compose build\n```\n\nthen `docker compose up -d`.\n"
)


def platform_found(
    root: Path, readme: str, files: dict[str, str], folder: str = ""
) -> list[tuple[int, str, str]]:
    make_tree(root, {f"{folder}README.md": readme, **files})
    dockerfile = next(p for p in files if "Dockerfile" in p)
    model = build_model(root / dockerfile, dockerfile)
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", [model], {}, root / folder, root)
        if "README is about" in d.message
    ]


def test_a_rocm_readme_whose_compose_builds_the_cuda_dockerfile(tmp_path: Path) -> None:
    files = {
        "docker/Dockerfile": CUDA_SERVER,
        "docker-amd/Dockerfile": ROCM_SERVER,
        "docker-amd/docker-compose.yml": ROCM_COMPOSE.format(dockerfile="docker/Dockerfile"),
    }
    assert platform_found(tmp_path, ROCM_README, files, "docker-amd/") == [
        (
            8,
            "README is about ROCm (heading `Voice server on AMD GPUs (ROCm)`), but its build "
            "(service voice of docker-compose.yml) builds ../docker/Dockerfile, built on "
            "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04 (CUDA), which names nothing of ROCm; "
            "the ROCm Dockerfile beside the README (Dockerfile) is not built",
            "certain",
        )
    ]


# an image generator with one section per accelerator; the Intel one builds the CUDA wheel image
XPU_README = (
    "# imagegen\n\n## NVIDIA\n\n```bash\ndocker build -f docker/Dockerfile.cuda -t imagegen:cuda .\n```\n\n"
    "## Intel Arc\n\nBuild the XPU image:\n\n```bash\ndocker build -f {dockerfile} -t imagegen:xpu .\n```\n"
)
CUDA_WHEELS = (
    "FROM python:3.11-slim\nRUN pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cu121\n"
)
XPU_WHEELS = (
    "FROM intel/oneapi-basekit:2024.1.0-devel-ubuntu22.04\n"
    "RUN pip install torch==2.3.1 intel-extension-for-pytorch==2.3.110+xpu\n"
)


def test_an_intel_section_whose_build_makes_the_cuda_image(tmp_path: Path) -> None:
    files = {"docker/Dockerfile.cuda": CUDA_WHEELS, "docker/Dockerfile.xpu": XPU_WHEELS}
    readme = XPU_README.format(dockerfile="docker/Dockerfile.cuda")
    assert platform_found(tmp_path, readme, files) == [
        (
            14,
            "README is about Intel XPU (heading `Intel Arc`), but its build (-f docker/Dockerfile.cuda) "
            "builds docker/Dockerfile.cuda, which installs download.pytorch.org/whl/cu121 (CUDA), which "
            "names nothing of Intel XPU",
            "certain",
        )
    ]
    # the NVIDIA section building the CUDA image, the Intel one the XPU image: nothing to tell
    assert platform_found(tmp_path, XPU_README.format(dockerfile="docker/Dockerfile.xpu"), files) == []


def test_silent_when_the_build_may_be_of_the_readme_platform(tmp_path: Path) -> None:
    compose = ROCM_COMPOSE.format(dockerfile="docker/Dockerfile")
    cases = [
        # the compose file builds the ROCm image
        {"docker/Dockerfile": "FROM rocm/pytorch:rocm6.0_ubuntu22.04_py3.10\nRUN pip install voice\n"},
        # a plain base that installs ROCm itself
        {"docker/Dockerfile": "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y rocm-dev\n"},
        # a plain base with nothing of either platform: no other platform to tell
        {"docker/Dockerfile": "FROM python:3.10-slim\nRUN pip install voice\n"},
    ]
    for index, files in enumerate(cases):
        root = tmp_path / str(index)
        tree = {**files, "docker-amd/docker-compose.yml": compose}
        assert platform_found(root, ROCM_README, tree, "docker-amd/") == []
    # a build arg picks the base
    picked = compose.replace("EXTRAS: requirements-amd.txt", "BASE: rocm/pytorch:latest")
    tree = {"docker/Dockerfile": "ARG BASE=nvidia/cuda:12.1.0-runtime-ubuntu22.04\nFROM ${BASE}\n"}
    tree["docker-amd/docker-compose.yml"] = picked
    assert platform_found(tmp_path / "arg", ROCM_README, tree, "docker-amd/") == []
    # headings naming two platforms
    both = ROCM_README.replace("# Voice server on AMD GPUs (ROCm)", "# Voice server on NVIDIA or AMD (ROCm)")
    tree = {"docker/Dockerfile": CUDA_SERVER, "docker-amd/docker-compose.yml": compose}
    assert platform_found(tmp_path / "both", both, tree, "docker-amd/") == []


def test_silent_when_the_block_s_introduction_names_the_other_platform(tmp_path: Path) -> None:
    # a section titled for one platform whose first block is introduced as the other's
    readme = (
        "# serve\n\n## AMD ROCm 6.x\n\nFor CUDA:\n\n"
        "```bash\ndocker build -f Dockerfile-nvidia -t me/serve .\n```\n\n"
        "For ROCm:\n\n```bash\ndocker build -f Dockerfile-amd -t me/serve .\n```\n"
    )
    files = {
        "Dockerfile-nvidia": "FROM nvidia/cuda:12.2.0-devel-ubuntu22.04\nRUN pip install serve\n",
        "Dockerfile-amd": "FROM rocm/dev-ubuntu-22.04:6.0.2-complete\nRUN pip install serve\n",
    }
    assert platform_found(tmp_path, readme, files) == []
    # the same block with no introduction: the heading is the claim
    bare = readme.replace("For CUDA:\n\n", "")
    assert [line for line, _, _ in platform_found(tmp_path / "bare", bare, files)] == [6]
