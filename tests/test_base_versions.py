"""Key versions and hardware read from base images: tags, the configuration's `base-images`, a base
image built by another configured Dockerfile (`produces`), and advice that names the build arg that
really changes a value. The Dockerfiles in tests/data/baseimage/ are written after public GPU images."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen.config import load_config
from docgen.dockerfile import parse_dockerfile
from docgen.errors import ConfigError
from docgen.model import ImageModel
from docgen.pipeline import build_model, model_of
from docgen.render import RenderOptions, render_sections
from docgen.rows import version_rows

DATA = Path(__file__).resolve().parent / "data" / "baseimage"


def rendered(name: str, arch_arg: str = "GPU_ARCH", **options: object) -> dict[str, str]:
    model = build_model(DATA / name, name)
    return render_sections(model, RenderOptions(arch_arg=arch_arg, **options), ["hardware", "versions"])  # type: ignore[arg-type]


def model(text: str) -> ImageModel:
    return model_of(parse_dockerfile(text, "Dockerfile"))


def rows(text: str, **kwargs: object) -> list[tuple[str, str, str | None, str | None]]:
    return [(r.name, r.version, r.arg, r.origin) for r in version_rows(model(text), {}, None, **kwargs)]  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# realistic Dockerfiles, read as a maintainer would


def test_ngc_container_release_and_lower_case_arch_arg() -> None:
    out = rendered("Dockerfile.ngc", "TORCH_CUDA_ARCH_LIST")
    assert (
        "| NGC release | `24.08` | `nvcr.io/nvidia/pytorch:24.08-py3` (from the base image's tag) |  | L3 |"
        in out["versions"]
    )
    assert "| `9.0+PTX` | NVIDIA | Hopper | H100, H200, GH200 |" in out["hardware"]
    # the ENV is set from the lower-case build arg: that is the one to pass
    assert (
        "Kernels are compiled for the targets in `TORCH_CUDA_ARCH_LIST` (L7), set from build arg "
        "`torch_cuda_arch_list`; override it with `--build-arg torch_cuda_arch_list=...`."
    ) in out["hardware"]
    assert "--build-arg TORCH_CUDA_ARCH_LIST" not in out["hardware"]


def test_a_known_ngc_release_adds_what_its_release_notes_state() -> None:
    out = render_sections(
        model("ARG NGC=25.12\nFROM nvcr.io/nvidia/pytorch:${NGC}-py3\nRUN pip install --no-deps .\n"),
        RenderOptions(),
        ["versions"],
    )["versions"]
    source = "`nvcr.io/nvidia/pytorch:25.12-py3`"
    assert f"| NGC release | `25.12` | {source} (from the base image's tag) | `NGC` | L2 |" in out
    notes = "(from NVIDIA's release notes for the base image's release)"
    for name, version in (("CUDA", "13.1.0"), ("PyTorch", "2.10.0a0+b4e4ee81d3"), ("Python", "3.12")):
        assert f"| {name} | `{version}` | {source} {notes} | `NGC` | L2 |" in out


def test_rocm_pytorch_tag_and_env_fixed_arch_list() -> None:
    out = rendered("Dockerfile.rocm_pytorch", "PYTORCH_ROCM_ARCH")
    source = "`rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0` (from the base image's tag)"
    for name, version in (("ROCm", "6.4"), ("PyTorch", "2.6.0"), ("Python", "3.10"), ("Ubuntu", "22.04")):
        assert f"| {name} | `{version}` | {source} |  | L2 |" in out["versions"]
    assert "| `gfx1150` | AMD | RDNA3.5 | Radeon 890M (Ryzen AI 300, Strix Point APUs) |" in out["hardware"]
    assert "override it with" not in out["hardware"]
    assert "an `ENV` fixed at L4: no build arg changes it" in out["hardware"]


def test_ascend_cann_image_gives_versions_and_the_npu() -> None:
    out = rendered("Dockerfile.ascend")
    source = "`quay.io/ascend/cann:8.5.0-910b-ubuntu22.04-py3.11` (from the base image's tag)"
    assert f"| CANN | `8.5.0` | {source} | `CANN_TAG` | L3 |" in out["versions"]
    assert f"| Python | `3.11` | {source} | `CANN_TAG` | L3 |" in out["versions"]
    assert "| vLLM Ascend | `v0.9.1rc1` |" in out["versions"]
    assert (
        "| `910b` | Huawei | Ascend 910B | Atlas A2 series (Atlas 800T A2, Atlas 800I A2, Atlas 900 A2 PoD) |"
        in (out["hardware"])
    )
    assert "chosen with `--build-arg CANN_TAG=...`" in out["hardware"]


def test_cuda_pair_built_from_one_arg_reads_the_image_the_target_ships() -> None:
    out = rendered("Dockerfile.cuda", "CMAKE_CUDA_ARCHITECTURES")
    assert (
        "| CUDA | `12.9.1` | `nvidia/cuda:12.9.1-cudnn-runtime-ubuntu24.04` (from the base image's tag) "
        "| `CUDA_VERSION` | L11 |"
    ) in out["versions"]
    # the Ubuntu release is written on the FROM line: no build arg changes it
    image = "`nvidia/cuda:12.9.1-cudnn-runtime-ubuntu24.04`"
    assert f"| Ubuntu | `24.04` | {image} (from the base image's tag) |  | L11 |" in out["versions"]
    # the build stage's devel image is not a row of its own (it said `12.9.1-cudnn-devel-ubuntu24.04`)
    assert "devel" not in out["versions"]
    assert "override it with `--build-arg CMAKE_CUDA_ARCHITECTURES=...`" in out["hardware"]


def test_cann_tag_assembled_from_four_args() -> None:
    """Ascend images write the tag as `$CANN_VERSION-$DEVICE_TYPE-$OS-$PYTHON_VERSION`."""
    text = (
        "ARG CANN_VERSION=8.3.rc2\nARG DEVICE_TYPE=a3\nARG OS=ubuntu22.04\nARG PYTHON_VERSION=py3.11\n"
        "FROM quay.io/ascend/cann:$CANN_VERSION-$DEVICE_TYPE-$OS-$PYTHON_VERSION\n"
    )
    assert rows(text) == [
        ("CANN", "8.3.rc2", "CANN_VERSION", "tag"),
        ("Python", "3.11", "PYTHON_VERSION", "tag"),
        ("Ubuntu", "22.04", "OS", "tag"),
    ]
    out = render_sections(model(text), RenderOptions(), ["hardware"])["hardware"]
    assert "| `a3` | Huawei | Atlas A3 |" in out
    assert "chosen with `--build-arg DEVICE_TYPE=...`" in out


def test_base_images_as_build_args_name_the_arg_users_pass() -> None:
    """vLLM's shape: `ARG FINAL_BASE_IMAGE=nvidia/cuda:${CUDA_VERSION}-base-ubuntu22.04`."""
    out = rendered("Dockerfile.vllm_cuda", "TORCH_CUDA_ARCH_LIST")
    image = "`nvidia/cuda:12.8.1-base-ubuntu22.04` (from the base image's tag)"
    assert f"| CUDA | `12.8.1` | {image} | `CUDA_VERSION` | L17 |" in out["versions"]
    assert f"| Ubuntu | `22.04` | {image} | `FINAL_BASE_IMAGE` | L17 |" in out["versions"]
    assert "ubuntu20.04" not in out["versions"]  # the build stage's image is not what ships
    assert "override it with `--build-arg torch_cuda_arch_list=...`" in out["hardware"]


def test_overriding_the_arg_reads_the_other_image() -> None:
    text = (DATA / "Dockerfile.cuda").read_text().replace("CUDA_VERSION=12.9.1", "CUDA_VERSION=13.0.2")
    assert ("CUDA", "13.0.2", "CUDA_VERSION", "tag") in rows(text)


# --------------------------------------------------------------------------------------------------
# rules


def test_the_dockerfile_own_row_wins_over_the_base_tag() -> None:
    text = (
        "FROM rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0\nRUN pip install torch==2.7.0\n"
    )
    found = rows(text)
    assert ("PyTorch", "2.7.0", None, None) in found
    assert not any(name == "PyTorch" and origin == "tag" for name, _, _, origin in found)
    assert ("ROCm", "6.4", None, "tag") in found


def test_unknown_base_image_shows_the_image_as_before() -> None:
    assert rows("FROM rocm/vllm-dev:base\nRUN true\n") == [("rocm/vllm-dev", "base", None, None)]


def test_versions_list_can_name_tag_rows_and_the_image_itself() -> None:
    text = "ARG CUDA_VERSION=12.4.1\nFROM nvidia/cuda:${CUDA_VERSION}-cudnn9-devel-ubuntu22.04\n"
    picked = version_rows(model(text), {}, ("cuDNN", "nvidia/cuda", "CUDA"))
    assert [(r.name, r.version) for r in picked] == [
        ("cuDNN", "9"),
        ("nvidia/cuda", "12.4.1-cudnn9-devel-ubuntu22.04"),
        ("CUDA", "12.4.1"),
    ]


def test_build_arg_holding_the_whole_image() -> None:
    text = "ARG BASE_IMAGE=python:3.11-slim-bookworm\nFROM ${BASE_IMAGE}\n"
    assert rows(text) == [
        ("Python", "3.11", "BASE_IMAGE", "tag"),
        ("Debian", "12 (bookworm)", "BASE_IMAGE", "tag"),
    ]


def test_digest_pinned_base_image() -> None:
    text = "FROM nvcr.io/nvidia/pytorch:24.08-py3@sha256:" + "a" * 64 + "\n"
    assert rows(text) == [("NGC release", "24.08", None, "tag")]


def test_provides_declares_what_the_tag_does_not_say() -> None:
    text = "FROM org/base:2025.1\n"
    found = rows(
        text, provides={"org/base": {"PyTorch": "2.6.0", "CUDA": "12.4"}}, provides_file="pyproject.toml"
    )
    assert found == [("PyTorch", "2.6.0", None, "config"), ("CUDA", "12.4", None, "config")]


def test_hardware_from_an_arch_arg_declared_only_as_env_without_arg() -> None:
    text = 'FROM ubuntu:22.04\nENV GPU_ARCH="gfx942"\n'
    out = render_sections(model(text), RenderOptions(), ["hardware"])["hardware"]
    assert "an `ENV` fixed at L2" in out
    assert "override it with" not in out


# --------------------------------------------------------------------------------------------------
# configuration: base-images and produces, end to end


PYPROJECT = """\
[tool.docgen]
arch-arg = "PYTORCH_ROCM_ARCH"

[[tool.docgen.images]]
dockerfile = "docker/Dockerfile.rocm_base"
outputs = ["docker/README.base.md"]
produces = ["rocm/vllm-dev:base"]

[[tool.docgen.images]]
dockerfile = "docker/Dockerfile.rocm"
outputs = ["docker/README.md"]

[tool.docgen.base-images."rocm/dev-ubuntu-22.04"]
provides = { "HIP" = "6.4.43482" }
"""

README = "# Image\n\n<!-- BEGIN docgen:versions -->\n<!-- END docgen:versions -->\n"


@pytest.fixture
def vllm_project(chdir_tmp: Path) -> Path:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": PYPROJECT,
            "docker/Dockerfile.rocm_base": (DATA / "Dockerfile.rocm_base").read_text(),
            "docker/Dockerfile.rocm": (DATA / "Dockerfile.rocm").read_text(),
            "docker/README.base.md": README,
            "docker/README.md": README,
        },
    )
    return chdir_tmp


def test_produces_follows_the_base_dockerfile(vllm_project: Path) -> None:
    assert run("sync").code == 0
    text = (vllm_project / "docker/README.md").read_text()
    note = "(in `docker/Dockerfile.rocm_base`, which builds the base image)"
    image = "`rocm/dev-ubuntu-22.04:6.4.1-complete`"
    base_arg = "`BASE_IMAGE` (of the base image's build)"
    assert f"| ROCm | `6.4.1` | {image} {note} | {base_arg} | [L3](Dockerfile.rocm_base#L3) |" in text
    assert f"| HIP | `6.4.43482` | {image} {note} |  | [L3](Dockerfile.rocm_base#L3) |" in text
    pytorch = "[github.com/pytorch/pytorch](https://github.com/pytorch/pytorch)"
    assert f"| PyTorch | `v2.7.0` | {pytorch} {note} | `PYTORCH_BRANCH` (of the base image's build) |" in text
    vllm = "[github.com/vllm-project/vllm](https://github.com/vllm-project/vllm)"
    assert f"| vLLM | `v0.9.1` | {vllm} | `VLLM_BRANCH` | [L7](Dockerfile.rocm#L7) |" in text
    assert "rocm/vllm-dev" not in text  # the image name says nothing; its Dockerfile does
    base = (vllm_project / "docker/README.base.md").read_text()
    link = "[L3](Dockerfile.rocm_base#L3)"
    assert f"| ROCm | `6.4.1` | {image} (from the base image's tag) | `BASE_IMAGE` | {link} |" in base
    assert f"| Ubuntu | `22.04` | {image} (from the base image's name) | `BASE_IMAGE` |" in base
    assert f"| HIP | `6.4.43482` | {image} (declared for the base image in `pyproject.toml`) |  |" in base
    assert run("check").code == 0


def test_changing_the_base_dockerfile_makes_the_derived_readme_stale(vllm_project: Path) -> None:
    assert run("sync").code == 0
    base = vllm_project / "docker/Dockerfile.rocm_base"
    base.write_text(base.read_text().replace("PYTORCH_BRANCH=v2.7.0", "PYTORCH_BRANCH=v2.8.0"))
    result = run("check")
    assert result.code == 1
    assert "docker/README.md is out of date" in result.out
    assert run("sync").code == 0
    assert "| PyTorch | `v2.8.0` |" in (vllm_project / "docker/README.md").read_text()


def test_changing_provides_makes_the_readme_stale(vllm_project: Path) -> None:
    assert run("sync").code == 0
    config = vllm_project / "pyproject.toml"
    config.write_text(config.read_text().replace("6.4.43482", "6.4.43483"))
    assert run("check").code == 1


def test_images_built_on_each_other_end_the_cycle(chdir_tmp: Path) -> None:
    make_tree(
        chdir_tmp,
        {
            "pyproject.toml": (
                '[tool.docgen]\n[[tool.docgen.images]]\ndockerfile = "a/Dockerfile"\n'
                'outputs = ["a/README.md"]\nproduces = ["org/a"]\n[[tool.docgen.images]]\n'
                'dockerfile = "b/Dockerfile"\noutputs = ["b/README.md"]\nproduces = ["org/b"]\n'
            ),
            "a/Dockerfile": "FROM org/b:1\nRUN pip install torch==2.6.0\n",
            "b/Dockerfile": "FROM org/a:1\nRUN pip install vllm==0.9.1\n",
            "a/README.md": README,
            "b/README.md": README,
        },
    )
    assert run("sync").code == 0
    a = (chdir_tmp / "a/README.md").read_text()
    assert "| PyTorch | `2.6.0` |" in a and "| vLLM | `0.9.1` |" in a
    assert run("check").code == 0


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        (
            '[tool.docgen.base-images."org/base"]\nprovides = { PyTorch = 2.6 }\n',
            ":3: [tool.docgen.base-images.'org/base'].provides.PyTorch must be a version written as a string",
        ),
        ('[tool.docgen.base-images."org/base"]\nprovide = {}\n', "unknown key 'provide'"),
        (
            '[tool.docgen.base-images]\n"org/base" = "2.6"\n',
            ":3: [tool.docgen.base-images.'org/base'] must be a table",
        ),
        (
            '[[tool.docgen.images]]\ndockerfile = "D"\nproduces = ["org/x"]\n'
            '[[tool.docgen.images]]\ndockerfile = "E"\nproduces = ["org/x"]\n',
            "produces = 'org/x' is listed by two [[tool.docgen.images]] (entries 1 and 2)",
        ),
        ('[[tool.docgen.images]]\ndockerfile = "D"\nproduces = ["${IMG}"]\n', "must be an image name"),
    ],
)
def test_config_errors(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.docgen]\n" + toml)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "pyproject.toml")
    assert message in str(info.value)
