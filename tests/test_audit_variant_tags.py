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
