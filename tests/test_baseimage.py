"""Versions read from base image references (docgen.baseimage): real-world tags of GPU projects."""

from __future__ import annotations

import pytest

from docgen.baseimage import (
    controlling_arg,
    environment,
    floating_releases,
    image_rows,
    matching_key,
    npu_of,
    read_reference,
    split_reference,
)
from docgen.model import VersionRow


def versions(ref: str) -> list[tuple[str, str]]:
    return [(r.name, r.version) for r in read_reference(ref)]


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        # operating systems
        ("ubuntu:22.04", [("Ubuntu", "22.04")]),
        ("ubuntu:24.04", [("Ubuntu", "24.04")]),
        ("ubuntu:jammy", [("Ubuntu", "22.04 (jammy)")]),
        ("ubuntu:noble-20240904", [("Ubuntu", "24.04 (noble)")]),
        ("debian:bookworm-slim", [("Debian", "12 (bookworm)")]),
        ("debian:12", [("Debian", "12")]),
        ("rockylinux:9", [("Rocky Linux", "9")]),
        ("rockylinux/rockylinux:9.3-minimal", [("Rocky Linux", "9.3")]),
        ("almalinux:8", [("AlmaLinux", "8")]),
        # python
        ("python:3.11-slim-bookworm", [("Python", "3.11"), ("Debian", "12 (bookworm)")]),
        ("python:3.12", [("Python", "3.12")]),
        ("python:3.12.4-slim", [("Python", "3.12.4")]),
        ("python:3.12-alpine3.20", [("Python", "3.12"), ("Alpine", "3.20")]),
        # nvidia/cuda
        ("nvidia/cuda:13.0.2-devel-ubuntu24.04", [("CUDA", "13.0.2"), ("Ubuntu", "24.04")]),
        ("nvidia/cuda:12.9.1-cudnn-devel-ubuntu24.04", [("CUDA", "12.9.1"), ("Ubuntu", "24.04")]),
        (
            "nvidia/cuda:12.4.1-cudnn9-runtime-ubuntu22.04",
            [("CUDA", "12.4.1"), ("cuDNN", "9"), ("Ubuntu", "22.04")],
        ),
        (
            "nvidia/cuda:11.8.0-cudnn8-devel-ubuntu20.04",
            [("CUDA", "11.8.0"), ("cuDNN", "8"), ("Ubuntu", "20.04")],
        ),
        ("nvidia/cuda:12.2.2-devel-rockylinux8", [("CUDA", "12.2.2"), ("Rocky Linux", "8")]),
        ("nvidia/cuda:12.6.3-base-ubi9", [("CUDA", "12.6.3"), ("Red Hat UBI", "9")]),
        ("nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04", [("CUDA", "12.4.1"), ("Ubuntu", "22.04")]),
        (
            "pytorch/pytorch:2.6.0-cuda12.4-cudnn9-devel",
            [("CUDA", "12.4"), ("cuDNN", "9"), ("PyTorch", "2.6.0")],
        ),
        # NGC containers
        ("nvcr.io/nvidia/pytorch:24.08-py3", [("NGC release", "24.08")]),
        ("nvcr.io/nvidia/pytorch:25.01-py3-igpu", [("NGC release", "25.01")]),
        ("nvcr.io/nvidia/tritonserver:24.08-trtllm-python-py3", [("NGC release", "24.08")]),
        ("nvcr.io/nvidia/tritonserver:25.03-vllm-python-py3", [("NGC release", "25.03")]),
        ("nvcr.io/nvidia/nemo:25.02.01", [("NGC release", "25.02.01")]),
        (
            "nvcr.io/nvidia/cuda-dl-base:25.01-cuda12.8-devel-ubuntu24.04",
            [("NGC release", "25.01"), ("CUDA", "12.8"), ("Ubuntu", "24.04")],
        ),
        ("nvcr.io/nvidia/tensorrt-llm/release:1.0.0rc4", [("TensorRT-LLM", "1.0.0rc4")]),
        ("nvcr.io/nvidia/tensorrt-llm/release:0.21.0", [("TensorRT-LLM", "0.21.0")]),
        # ROCm
        ("rocm/dev-ubuntu-22.04:7.1-complete", [("ROCm", "7.1"), ("Ubuntu", "22.04")]),
        ("rocm/dev-ubuntu-22.04:6.4.1-complete", [("ROCm", "6.4.1"), ("Ubuntu", "22.04")]),
        ("rocm/dev-ubuntu-24.04:6.4.1", [("ROCm", "6.4.1"), ("Ubuntu", "24.04")]),
        ("rocm/dev-almalinux-8:6.4.1-complete", [("ROCm", "6.4.1"), ("AlmaLinux", "8")]),
        ("rocm/dev-ubuntu-22.04:latest", [("Ubuntu", "22.04")]),
        (
            "rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0",
            [("ROCm", "6.4"), ("PyTorch", "2.6.0"), ("Python", "3.10"), ("Ubuntu", "22.04")],
        ),
        (
            "rocm/pytorch:rocm7.0_ubuntu24.04_py3.12_pytorch_release_2.7.1",
            [("ROCm", "7.0"), ("PyTorch", "2.7.1"), ("Python", "3.12"), ("Ubuntu", "24.04")],
        ),
        ("rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715", [("vLLM", "0.9.1"), ("ROCm", "6.4.1")]),
        ("rocm/vllm:rocm7.0.0_vllm_0.11.2_20251210", [("vLLM", "0.11.2"), ("ROCm", "7.0.0")]),
        (
            "rocm/vllm:rocm6.3.1_mi300_ubuntu22.04_py3.12_vllm_0.6.6",
            [("vLLM", "0.6.6"), ("ROCm", "6.3.1"), ("Python", "3.12"), ("Ubuntu", "22.04")],
        ),
        (
            "rocm/vllm-dev:rocm7.1.1_navi_ubuntu24.04_py3.12_pytorch_2.8_vllm_0.10.2rc1",
            [
                ("vLLM", "0.10.2rc1"),
                ("ROCm", "7.1.1"),
                ("PyTorch", "2.8"),
                ("Python", "3.12"),
                ("Ubuntu", "24.04"),
            ],
        ),
        ("rocm/vllm-dev:rocm6.2_ubuntu22.04", [("ROCm", "6.2"), ("Ubuntu", "22.04")]),
        ("nvcr.io/nvidia/tensorrt-llm/release:1.1.0rc2.post2", [("TensorRT-LLM", "1.1.0rc2.post2")]),
        ("rocm/primus:v26.4", [("Primus image release", "26.4")]),
        ("rocm/primus:v25.9", [("Primus image release", "25.9")]),
        # inference servers
        ("vllm/vllm-openai:v0.9.1", [("vLLM", "0.9.1")]),
        ("vllm/vllm-openai:v0.10.1.1", [("vLLM", "0.10.1.1")]),
        ("vllm/vllm-openai-rocm:v0.10.1", [("vLLM", "0.10.1")]),
        ("lmsysorg/sglang:v0.5.2-cu129", [("SGLang", "0.5.2"), ("CUDA", "12.9")]),
        ("lmsysorg/sglang:v0.5.14-cu130", [("SGLang", "0.5.14"), ("CUDA", "13.0")]),
        ("lmsysorg/sglang:v0.4.7.post1-cu124", [("SGLang", "0.4.7.post1"), ("CUDA", "12.4")]),
        ("lmsysorg/sglang:v0.4.9-rocm630", [("SGLang", "0.4.9"), ("ROCm", "6.3.0")]),
        ("lmsysorg/sglang:v0.4.9.post2-rocm630-mi30x", [("SGLang", "0.4.9.post2"), ("ROCm", "6.3.0")]),
        ("lmsysorg/sglang:v0.5.9-cu129-amd64-runtime", [("SGLang", "0.5.9"), ("CUDA", "12.9")]),
        ("lmsysorg/sglang:v0.5.18", [("SGLang", "0.5.18")]),
        # Ascend
        (
            "quay.io/ascend/cann:8.5.0-910b-ubuntu22.04-py3.11",
            [("CANN", "8.5.0"), ("Python", "3.11"), ("Ubuntu", "22.04")],
        ),
        (
            "swr.cn-south-1.myhuaweicloud.com/ascendhub/cann:8.2.rc1-a3-openeuler24.03-py3.11",
            [("CANN", "8.2.rc1"), ("Python", "3.11"), ("openEuler", "24.03")],
        ),
        (
            "ascendai/cann:8.1.rc1-310p-ubuntu22.04-py3.10",
            [("CANN", "8.1.rc1"), ("Python", "3.10"), ("Ubuntu", "22.04")],
        ),
        ("quay.io/ascend/vllm-ascend:v0.9.1rc1", [("vLLM Ascend", "0.9.1rc1")]),
        ("quay.io/ascend/cann:8.5.0-a3", [("CANN", "8.5.0")]),
        (
            "quay.io/ascend/cann:8.3.rc1.alpha001-a3-ubuntu22.04-py3.11",
            [("CANN", "8.3.rc1.alpha001"), ("Python", "3.11"), ("Ubuntu", "22.04")],
        ),
        (
            "quay.io/ascend/cann:9.2.0-beta.1-910b-ubuntu22.04-py3.10-devel",
            [("CANN", "9.2.0-beta.1"), ("Python", "3.10"), ("Ubuntu", "22.04")],
        ),
        (
            "quay.io/ascend/cann:8.1.rc1-910b-openeuler24.03-py3.10",
            [("CANN", "8.1.rc1"), ("Python", "3.10"), ("openEuler", "24.03")],
        ),
        # manylinux: the glibc the policy name states (PEP 600, PEP 599)
        ("quay.io/pypa/manylinux_2_28_x86_64", [("glibc", "2.28")]),
        ("quay.io/pypa/manylinux_2_34_aarch64:2025.01.01-1", [("glibc", "2.34")]),
        ("quay.io/pypa/manylinux2014_x86_64:latest", [("glibc", "2.17")]),
        ("quay.io/pypa/musllinux_1_2_x86_64", [("musl", "1.2")]),
    ],
)
def test_read_reference_real_world_tags(ref: str, expected: list[tuple[str, str]]) -> None:
    assert versions(ref) == expected


@pytest.mark.parametrize(
    "ref",
    [
        "docker.io/library/ubuntu:22.04",
        "index.docker.io/library/ubuntu:22.04",
        "library/ubuntu:22.04",
        "ubuntu:22.04@sha256:" + "a" * 64,
        "mirror.gcr.io/library/ubuntu:22.04",
        "registry.example.com:5000/ubuntu:22.04",
        "localhost:5000/ubuntu:22.04",
        "UBUNTU:22.04",
    ],
)
def test_registries_ports_and_digests(ref: str) -> None:
    assert versions(ref) == [("Ubuntu", "22.04")]


def test_registry_with_port_before_a_hub_image() -> None:
    assert versions("registry.local:5000/nvidia/cuda:12.4.1-devel-ubuntu22.04@sha256:" + "b" * 64) == [
        ("CUDA", "12.4.1"),
        ("Ubuntu", "22.04"),
    ]


@pytest.mark.parametrize(
    "ref",
    [
        "ubuntu",  # latest: the tag states nothing
        "ubuntu:latest",
        "ubuntu:rolling",
        "ubuntu@sha256:" + "c" * 64,
        "nvidia/cuda:latest",
        "nvidia/cuda:12.4.1-devel-windows",  # a flavour docgen does not know
        "rocm/vllm-dev:base",  # built by a sibling Dockerfile: the tag says nothing
        "rocm/vllm-dev:nightly_main_20250714",
        "rocm/pytorch:latest",
        "vllm/vllm-openai:latest",
        "lmsysorg/sglang:dev",
        "nvcr.io/nvidia/pytorch:latest",
        "someorg/ubuntu:22.04",  # not the official image
        "ghcr.io/someorg/cuda:12.4.1-devel",  # no word of the tag states a version by itself
        "nvidia/pytorch:24.08-py3",  # NGC names live on nvcr.io only
        "nvcr.io/nvidia/tensorrt-llm/release:spark-single-gpu-dev",
        "quay.io/ascend/cann:latest",
        "org/name:base-v1-thin",  # `thin` is a word, not `th` and a version
        "org/name:pytorch-latest",  # `pytorch` with no version
        "org/name:pt-cuda",
        "org/name:cu124-cu126",  # one item named twice: nothing sure
        "${BASE_IMAGE}",
        "nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04",  # an unknown part: never guessed
        "",
        "scratch",
    ],
)
def test_unknown_families_and_tags_yield_nothing(ref: str) -> None:
    assert read_reference(ref) == ()


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        (
            "verlai/verl:base-v1-cu124-cudnn9.8-torch2.6-fa2.7.4-te2.3",
            [("CUDA", "12.4"), ("cuDNN", "9.8"), ("PyTorch", "2.6"), ("Flash Attention", "2.7.4"),
             ("TransformerEngine", "2.3")],
        ),
        (
            "org/app:ngc-th2.6.0-cu124-vllm0.8.2",  # `th`: PyTorch, as verl's images write it
            [("vLLM", "0.8.2"), ("CUDA", "12.4"), ("PyTorch", "2.6.0")],
        ),
        (
            "rocm/private-build:ubuntu22.04_rocm6.4.3.127_aiter_6b586ae_vllm_5b842c2_20250911",
            [("ROCm", "6.4.3.127"), ("Ubuntu", "22.04")],  # `vllm_5b842c2`: a commit, two words
        ),
        ("org/base:py3.11-rocm630-sglang0.4.6.post2", [("SGLang", "0.4.6.post2"), ("ROCm", "6.3.0"),
                                                       ("Python", "3.11")]),
        ("org/base:mcore0.13.1-cuda12.8.1", [("CUDA", "12.8.1"), ("Megatron-core", "0.13.1")]),
        ("ghcr.io/someorg/cuda:12.4.1-devel-ubuntu22.04", [("Ubuntu", "22.04")]),
        ("org/base:v2-torch2.5.1-cuda12.4", [("CUDA", "12.4"), ("PyTorch", "2.5.1")]),
        ("org/base:pt2.4-py310-rocm6.3", [("ROCm", "6.3"), ("PyTorch", "2.4"), ("Python", "3.10")]),
        ("org/base:py39-cu118", [("CUDA", "11.8"), ("Python", "3.9")]),
        ("org/qa:cuda126-py310-cibase", [("CUDA", "12.6"), ("Python", "3.10")]),
        ("org/base:ubuntu2404-cuda1291", [("Ubuntu", "24.04")]),  # `cuda1291`: four digits, not read
    ],
)  # fmt: skip
def test_a_projects_own_tag_is_read_word_by_word(ref: str, expected: list[tuple[str, str]]) -> None:
    """An image of no known family: each word of its tag that states one version whole is read, so a
    project's own base image (`…-cu124-cudnn9.8-torch2.6-fa2.7.4`) shows what it was built with."""
    assert [(r.name, r.version) for r in read_reference(ref)] == expected
    assert all(not r.in_name for r in read_reference(ref))


@pytest.mark.parametrize(
    "ref",
    [
        "nvcr.io/nvidia/pytorch:24.08" + "-a" * 100_000 + "!",
        "rocm/vllm:rocm6.4" + "_x" * 100_000 + "!",
        "ubuntu:" + "9" * 600,
    ],
)
def test_hostile_references_yield_nothing(ref: str) -> None:
    assert read_reference(ref) == ()
    assert npu_of(ref) is None


def test_readings_say_where_in_the_reference_they_are() -> None:
    rocm, ubuntu = read_reference("rocm/dev-ubuntu-22.04:6.4.1-complete")
    assert (rocm.written, rocm.in_name) == ("6.4.1", False)
    assert (ubuntu.written, ubuntu.in_name) == ("22.04", True)
    sglang, cuda = read_reference("lmsysorg/sglang:v0.5.2-cu129")
    assert (sglang.written, cuda.written, cuda.version) == ("0.5.2", "129", "12.9")


def test_codenames_docgen_does_not_know_yield_nothing() -> None:
    assert read_reference("ubuntu:questing") == ()
    assert read_reference("debian:forky-slim") == ()


# --------------------------------------------------------------------------------------------------
# NPUs


@pytest.mark.parametrize(
    ("ref", "npu"),
    [
        ("quay.io/ascend/cann:8.5.0-910b-ubuntu22.04-py3.11", "910b"),
        ("quay.io/ascend/cann:8.2.rc1-a3-ubuntu22.04-py3.11", "a3"),
        ("swr.cn-south-1.myhuaweicloud.com/ascendhub/cann:8.1.rc1-310p-openeuler22.03-py3.10", "310p"),
        ("quay.io/ascend/vllm-ascend:v0.10.0rc1-a3", "a3"),
        ("quay.io/ascend/vllm-ascend:v0.9.1rc1", None),  # the tag does not say: not guessed
        ("quay.io/ascend/cann:8.5.0-a3", "a3"),
        ("nvidia/cuda:12.4.1-devel-ubuntu22.04", None),
        ("someorg/cann:8.5.0-910b-ubuntu22.04-py3.11", None),
    ],
)
def test_npu_of(ref: str, npu: str | None) -> None:
    assert npu_of(ref) == npu


# --------------------------------------------------------------------------------------------------
# references, keys, build args


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("ubuntu", ("ubuntu", None)),
        ("docker.io/library/ubuntu:22.04", ("ubuntu", "22.04")),
        ("localhost:5000/org/img:1.0@sha256:" + "d" * 64, ("localhost:5000/org/img", "1.0")),
        ("Org/Img:Tag", ("org/img", "Tag")),
    ],
)
def test_split_reference(ref: str, expected: tuple[str, str | None]) -> None:
    assert split_reference(ref) == expected


def test_matching_key_prefers_the_exact_tag() -> None:
    keys = ["org/base", "org/base:2.0"]
    assert matching_key("org/base:2.0", keys) == "org/base:2.0"
    assert matching_key("org/base:1.0", keys) == "org/base"
    assert matching_key("docker.io/org/base:1.0@sha256:" + "e" * 64, keys) == "org/base"
    assert matching_key("org/other:2.0", keys) is None
    assert matching_key("org/base", ["org/base:latest"]) == "org/base:latest"
    assert matching_key("org/base:1.0", ["org/base:2.0"]) is None


@pytest.mark.parametrize(
    ("written", "raw", "defaults", "expected"),
    [
        (
            "12.9.1",
            "nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04",
            {"CUDA_VERSION": "12.9.1"},
            "CUDA_VERSION",
        ),
        ("24.04", "nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04", {"CUDA_VERSION": "12.9.1"}, None),
        ("22.04", "${BASE_IMAGE}", {"BASE_IMAGE": "ubuntu:22.04"}, "BASE_IMAGE"),
        ("129", "lmsysorg/sglang:v0.5.2-cu${CU}", {"CU": "129"}, "CU"),
        ("9", "nvidia/cuda:${CUDA}-cudnn9-runtime-ubuntu22.04", {"CUDA": "12.4.1"}, None),
        # the first arg whose value holds it, not merely the first arg read
        (
            "8.5.0",
            "${REGISTRY}/cann:${CANN_VERSION}-910b-ubuntu22.04-py3.11",
            {"REGISTRY": "quay.io/ascend", "CANN_VERSION": "8.5.0"},
            "CANN_VERSION",
        ),
    ],
)
def test_controlling_arg(
    written: str, raw: str, defaults: dict[str, str | None], expected: str | None
) -> None:
    assert controlling_arg(written, raw, defaults) == expected


def test_controlling_arg_follows_an_arg_to_the_arg_its_default_reads() -> None:
    defaults: dict[str, str | None] = {
        "CUDA_VERSION": "12.8.1",
        "FINAL_BASE_IMAGE": "nvidia/cuda:12.8.1-base-ubuntu22.04",
    }
    raws = {"CUDA_VERSION": "12.8.1", "FINAL_BASE_IMAGE": "nvidia/cuda:${CUDA_VERSION}-base-ubuntu22.04"}
    assert controlling_arg("12.8.1", "${FINAL_BASE_IMAGE}", defaults, raws) == "CUDA_VERSION"
    assert controlling_arg("22.04", "${FINAL_BASE_IMAGE}", defaults, raws) == "FINAL_BASE_IMAGE"
    # args defined through each other end where the loop closes
    loop = {"A": "${B}", "B": "${A}"}
    assert controlling_arg("1.0", "${A}", {"A": "x:1.0", "B": "x:1.0"}, loop) in ("A", "B")


def test_image_rows_marks_origins_and_orders_by_authority() -> None:
    produced = {"org/base": (VersionRow("vLLM", "0.9.1", None, 4, origin="base-dockerfile"),)}
    provides = {"org/base:1.0": {"PyTorch": "2.6.0"}}
    rows = image_rows("org/base:1.0", "org/base:1.0", 3, {}, provides, "pyproject.toml", produced)
    assert [(r.name, r.version, r.origin, r.origin_file) for r in rows] == [
        ("vLLM", "0.9.1", "base-dockerfile", None),
        ("PyTorch", "2.6.0", "config", "pyproject.toml"),
    ]
    tagged = image_rows(
        "nvidia/cuda:12.9.1-devel-ubuntu24.04",
        "nvidia/cuda:${CUDA_VERSION}-devel-ubuntu24.04",
        5,
        {"CUDA_VERSION": "12.9.1"},
        {},
        None,
        {},
    )
    assert [(r.name, r.version, r.arg, r.origin, r.line) for r in tagged] == [
        ("CUDA", "12.9.1", "CUDA_VERSION", "tag", 5),
        ("Ubuntu", "24.04", None, "tag", 5),
    ]
    assert [r.origin for r in image_rows("quay.io/pypa/manylinux_2_28_x86_64", "x", 1, {}, {}, None, {})] == [
        "name"
    ]


@pytest.mark.parametrize(
    ("ref", "env"),
    [
        ("nvidia/cuda:12.9.1-cudnn-devel-ubuntu22.04", {"CUDA_VERSION": "12.9.1"}),
        ("nvcr.io/nvidia/cuda:13.0.1-devel-ubuntu24.04", {"CUDA_VERSION": "13.0.1"}),
        (
            "registry:5000/nvidia/cuda:12.8.1-runtime-ubuntu22.04@sha256:" + "a" * 64,
            {"CUDA_VERSION": "12.8.1"},
        ),  # noqa: E501
        ("nvidia/cuda:12.9-devel-ubuntu22.04", {}),  # no whole release: the ENV holds more than the tag
        ("nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04", {}),
        ("rocm/dev-ubuntu-22.04:7.0.2-complete", {}),
        ("org/cuda:12.9.1", {}),
    ],
)
def test_the_env_an_image_family_sets_from_its_tag(ref: str, env: dict[str, str]) -> None:
    assert environment(ref) == env


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("vllm/vllm-openai:v0.8.3-th2.6.0-cu124",
         [("vLLM", "0.8.3"), ("CUDA", "12.4"), ("PyTorch", "2.6.0")]),
        ("lmsysorg/sglang:v0.4.6-cu124-torch2.5.1",
         [("SGLang", "0.4.6"), ("CUDA", "12.4"), ("PyTorch", "2.5.1")]),
        ("vllm/vllm-openai:v0.8.3-thin", [("vLLM", "0.8.3")]),
        ("vllm/vllm-openai:v0.9.2-cu128-ubuntu2404",
         [("vLLM", "0.9.2"), ("CUDA", "12.8"), ("Ubuntu", "24.04")]),
        # the pattern's own reading stays: the words only fill in what it did not read
        ("rocm/pytorch:rocm6.3_ubuntu22.04_py3.10_pytorch_release_2.6.0",
         [("ROCm", "6.3"), ("PyTorch", "2.6.0"), ("Python", "3.10"), ("Ubuntu", "22.04")]),
    ],
)  # fmt: skip
def test_the_words_after_a_known_familys_tag_are_read(ref: str, expected: list[tuple[str, str]]) -> None:
    assert [(r.name, r.version) for r in read_reference(ref)] == expected


def test_a_word_read_from_the_tag_names_its_build_arg() -> None:
    rows = image_rows(
        "org/base:th2.6.0-py310", "org/base:th${TORCH}-py310", 3, {"TORCH": "2.6.0"}, {}, None, {}
    )
    assert [(r.name, r.version, r.arg) for r in rows] == [
        ("PyTorch", "2.6.0", "TORCH"),
        ("Python", "3.10", None),
    ]


@pytest.mark.parametrize(
    "ref",
    [
        "nvcr.io/nvidia/pytorch:25.12-py3",
        "nvcr.io/nvidia/pytorch:25.12-py3-igpu",
        "nvcr.io/nvidia/pytorch:25.12-py3@sha256:" + "e" * 64,
    ],
)
def test_a_known_ngc_pytorch_release_gives_what_its_release_notes_state(ref: str) -> None:
    assert versions(ref) == [
        ("NGC release", "25.12"),
        ("CUDA", "13.1.0"),
        ("PyTorch", "2.10.0a0+b4e4ee81d3"),
        ("Python", "3.12"),
    ]


def test_an_item_the_release_notes_do_not_state_is_left_out() -> None:
    assert versions("nvcr.io/nvidia/pytorch:20.06-py3") == [
        ("NGC release", "20.06"),
        ("CUDA", "11.0.167"),
        ("Python", "3.6"),
    ]


@pytest.mark.parametrize(
    "ref",
    [
        "nvcr.io/nvidia/pytorch:24.08-py3",  # a release whose notes docgen has not read
        "nvcr.io/nvidia/pytorch:25.12-py3-custom",  # not a tag NVIDIA publishes for the release
        "nvcr.io/nvidia/tritonserver:25.12-py3",  # another NGC container of the same month
        "nvcr.io/nvidia/nemo:25.12",
    ],
)
def test_other_ngc_references_give_the_release_only(ref: str) -> None:
    assert [name for name, _ in versions(ref)] == ["NGC release"]


def test_versions_from_release_notes_are_written_as_the_release() -> None:
    """The tag writes the release, not the CUDA of its notes: the build arg that sets the release
    sets them all."""
    rows = image_rows(
        "nvcr.io/nvidia/pytorch:25.12-py3",
        "nvcr.io/nvidia/pytorch:${NGC}-py3",
        1,
        {"NGC": "25.12"},
        {},
        None,
        {},
    )
    assert [(row.name, row.arg, row.origin) for row in rows] == [
        ("NGC release", "NGC", "tag"),
        ("CUDA", "NGC", "release-notes"),
        ("PyTorch", "NGC", "release-notes"),
        ("Python", "NGC", "release-notes"),
    ]


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("rocm/pytorch:latest", ("ROCm", "PyTorch")),
        ("rocm/pytorch", ("ROCm", "PyTorch")),
        ("docker.io/pytorch/pytorch:latest", ("PyTorch", "CUDA")),
        ("tensorflow/tensorflow:latest-gpu", ("TensorFlow",)),
        ("rocm/dev-ubuntu-22.04:latest", ("ROCm",)),
        ("vllm/vllm-openai:nightly", ("vLLM",)),
        # a tag naming a release, a digest, a build arg, another repository: nothing floats
        ("rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0", ()),
        ("pytorch/pytorch:2.6.0-cuda12.4-cudnn9-devel", ()),
        ("rocm/pytorch@sha256:" + "0" * 64, ()),
        ("${BASE}", ()),
        ("ubuntu:latest", ()),
        ("lab/pytorch:latest", ()),
    ],
)
def test_floating_releases(ref: str, expected: tuple[str, ...]) -> None:
    assert floating_releases(ref) == expected
