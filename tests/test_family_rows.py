"""The rows of `images` and `matrix` tables as a maintainer of a family reads them against its
Dockerfiles: which Key versions an image's row shows, the order of the matrix, and the value of a
cell. Dockerfiles written here on the idioms of public CUDA, ROCm and Ascend families."""

from __future__ import annotations

from pathlib import Path

from docgen.model import ImageModel
from docgen.pipeline import build_model
from docgen.rows import RenderOptions, image_row, matrix_rows, version_rows

ASCEND = """\
FROM quay.io/ascend/cann:8.3.rc1-910b-ubuntu22.04-py3.11
RUN git clone --depth 1 --branch v0.11.0 https://github.com/vllm-project/vllm.git \\
 && git clone --depth 1 --branch v0.11.0rc1 https://github.com/vllm-project/vllm-ascend.git
RUN pip install torch==2.7.1 torch_npu==2.7.1 torchvision==0.22.1 \\
 && cd vllm && VLLM_TARGET_DEVICE=empty pip install -e . && cd .. \\
 && cd vllm-ascend && pip install -e .
"""

CUDA = """\
FROM nvidia/cuda:12.9.1-devel-ubuntu22.04
RUN add-apt-repository ppa:deadsnakes/ppa -y && apt-get update \\
 && apt-get install -y python3.12 python3.12-dev
RUN pip install torch==2.9.0 --index-url https://download.pytorch.org/whl/cu129
RUN pip install vllm==0.12.0
"""

NGC = """\
FROM nvcr.io/nvidia/pytorch:24.08-py3
# put CUDA 12.4 back over the container's own
RUN wget https://developer.download.nvidia.com/compute/cuda/12.4.1/local_installers/cuda-repo-ubuntu2204-12-4-local_12.4.1-550.54.15-1_amd64.deb \\
 && dpkg -i cuda-repo-ubuntu2204-12-4-local_12.4.1-550.54.15-1_amd64.deb \\
 && apt-get update && apt-get -y install cuda-toolkit-12-4
RUN pip install "sglang[all]==0.4.6.post5" "torch==2.6.0"
"""  # noqa: E501


def model(tmp_path: Path, name: str, text: str) -> ImageModel:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return build_model(path, name)


def summary(tmp_path: Path, name: str, text: str, **options: object) -> list[tuple[str, str]]:
    row = image_row(name, model(tmp_path, name, text), RenderOptions(**options))  # type: ignore[arg-type]
    return [(version.name, version.version) for version in row.summary]


def test_an_images_row_shows_the_accelerator_stack_the_framework_and_the_engine(tmp_path: Path) -> None:
    # the Key versions block keeps the Dockerfile's order (the base image's tag first) …
    ascend = model(tmp_path, "Dockerfile.ascend", ASCEND)
    assert [row.name for row in version_rows(ascend, {}, None)][:3] == ["CANN", "Python", "Ubuntu"]
    # … the images row shows the three a reader of a family looks for first, not the OS
    assert summary(tmp_path, "Dockerfile.ascend", ASCEND) == [
        ("CANN", "8.3.rc1"),
        ("PyTorch", "2.7.1"),
        ("torch-npu", "2.7.1"),
    ]
    assert summary(tmp_path, "Dockerfile.cuda", CUDA) == [
        ("CUDA", "12.9.1"),
        ("PyTorch", "2.9.0"),
        ("vLLM", "0.12.0"),
    ]


def test_configured_versions_keep_their_order_in_the_images_row(tmp_path: Path) -> None:
    chosen = ("Ubuntu", "vLLM", "CUDA", "PyTorch")
    assert summary(tmp_path, "Dockerfile.cuda", CUDA, versions=chosen) == [
        ("Ubuntu", "22.04"),
        ("vLLM", "0.12.0"),
        ("CUDA", "12.9.1"),
    ]


def test_the_matrix_rows_come_in_the_order_a_reader_looks_for_them(tmp_path: Path) -> None:
    images = [
        image_row("ascend", model(tmp_path, "Dockerfile.ascend", ASCEND), RenderOptions()),
        image_row("cuda", model(tmp_path, "Dockerfile.cuda", CUDA), RenderOptions()),
    ]
    assert [row.name for row in matrix_rows(images)] == [
        "CUDA",
        "CANN",
        "PyTorch",
        "torch-npu",
        "vLLM",
        "vLLM Ascend",
        "Python",
        "Ubuntu",
    ]
    # one row per component whatever image it comes from: PyTorch of both in one row
    torch = next(row for row in matrix_rows(images) if row.name == "PyTorch")
    assert [cell.version if cell else None for cell in torch.cells] == ["2.7.1", "2.9.0"]
    # every image's Key versions listed by the configuration: the rows in the order they first appear
    chosen = RenderOptions(versions=("Ubuntu", "vLLM"))
    listed = [
        image_row("ascend", model(tmp_path, "Dockerfile.ascend", ASCEND), chosen),
        image_row("cuda", model(tmp_path, "Dockerfile.cuda", CUDA), chosen),
    ]
    assert [row.name for row in matrix_rows(listed)] == ["Ubuntu", "vLLM"]


def test_a_python_installed_by_its_release_name_is_the_python_row(tmp_path: Path) -> None:
    rows = version_rows(model(tmp_path, "Dockerfile.cuda", CUDA), {}, None)
    python = next(row for row in rows if row.name == "Python")
    assert (python.version, python.line, python.source) == ("3.12", 3, "ppa:deadsnakes/ppa")
    # a package named from a build arg is that arg's row, at the ARG line
    from_arg = CUDA.replace("FROM nvidia", "ARG PYTHON_VERSION=3.11\nFROM nvidia").replace(
        "python3.12 python3.12-dev", "python${PYTHON_VERSION}"
    )
    rows = version_rows(model(tmp_path, "Dockerfile.arg", from_arg), {}, None)
    python = next(row for row in rows if row.name == "Python")
    assert (python.version, python.line, python.arg) == ("3.11", 1, "PYTHON_VERSION")


def test_a_cuda_local_repository_package_shows_the_cuda_release(tmp_path: Path) -> None:
    rows = version_rows(model(tmp_path, "Dockerfile.ngc", NGC), {}, None)
    cuda = next(row for row in rows if row.name == "CUDA")
    # not `12.4.1-550.54.15-1`: the driver build and the package revision are not the CUDA release
    assert (cuda.version, cuda.line) == ("12.4.1", 3)


def test_a_key_item_built_from_a_release_branch_shows_the_branch(tmp_path: Path) -> None:
    text = (
        "FROM nvidia/cuda:12.9.1-devel-ubuntu22.04\n"
        "RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@release_v2.11\n"
        "RUN git clone --branch core_r0.16.0 https://github.com/NVIDIA/Megatron-LM.git\n"
        "RUN git clone --branch main https://github.com/deepspeedai/DeepSpeed.git\n"
        "RUN git clone --branch release/2.4 https://github.com/example/helper.git\n"
    )
    rows = version_rows(model(tmp_path, "Dockerfile", text), {}, None)
    found = {row.name: (row.version, row.line) for row in rows}
    # a release line of a key item is a row; `main` names no release; a branch of a helper is no key item
    assert found["TransformerEngine"] == ("release_v2.11", 2)
    assert found["Megatron-LM"] == ("core_r0.16.0", 3)
    assert "DeepSpeed" not in found and "helper" not in found


def test_the_triton_of_an_xpu_or_ascend_image_is_the_triton_row(tmp_path: Path) -> None:
    xpu = (
        "FROM intel/deep-learning-essentials:2025.3.2-0-devel-ubuntu24.04\n"
        "RUN uv pip uninstall triton triton-xpu && uv pip install triton-xpu==3.6.0\n"
    )
    npu = (
        "FROM quay.io/ascend/cann:8.3.rc1-910b-ubuntu22.04-py3.11\n"
        "RUN pip install -i https://test.pypi.org/simple/ triton_ascend==3.2.0.dev20251226\n"
    )
    images = [
        image_row("xpu", model(tmp_path, "Dockerfile.xpu", xpu), RenderOptions()),
        image_row("npu", model(tmp_path, "Dockerfile.npu", npu), RenderOptions()),
    ]
    triton = next(row for row in matrix_rows(images) if row.name == "Triton")
    assert [(cell.version, cell.line) if cell else None for cell in triton.cells] == [
        ("3.6.0", 2),
        ("3.2.0.dev20251226", 2),
    ]


def test_the_summary_line_shows_the_versions_a_reader_looks_for_first(tmp_path: Path) -> None:
    from docgen.render import render_sections

    ascend = model(tmp_path, "Dockerfile.ascend", ASCEND)
    line = render_sections(ascend, RenderOptions(), ["summary"])["summary"]
    assert line.startswith("**CANN** `8.3.rc1` · **PyTorch** `2.7.1` · **torch-npu** `2.7.1` · **vLLM** ")
    chosen = render_sections(ascend, RenderOptions(versions=("Ubuntu", "CANN")), ["summary"])["summary"]
    assert chosen.startswith("**Ubuntu** `22.04` · **CANN** `8.3.rc1` · **GPU targets**")


def test_one_component_named_two_ways_is_one_matrix_row(tmp_path: Path) -> None:
    """verl: an app image on a base tagged `mcore0.13.0`, another cloning Megatron-LM at `core_v0.13.0`."""
    on_tag = "FROM example/verl:app-verl0.5-vllm0.10.0-mcore0.13.0-te2.2\nRUN pip install vllm==0.10.0\n"
    cloned = (
        "FROM nvidia/cuda:12.6.3-devel-ubuntu22.04\n"
        "RUN pip3 install --no-deps git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.13.0\n"
    )
    images = [
        image_row("app", model(tmp_path, "Dockerfile.app", on_tag), RenderOptions()),
        image_row("cuda", model(tmp_path, "Dockerfile.cuda", cloned), RenderOptions()),
        image_row("torch", model(tmp_path, "Dockerfile.pt", CUDA), RenderOptions()),
        image_row("named", model(tmp_path, "Dockerfile.pt", CUDA), RenderOptions(names={"torch": "Pytorch"})),
    ]
    rows = {row.name: [cell.version if cell else None for cell in row.cells] for row in matrix_rows(images)}
    assert rows["Megatron-core"] == ["0.13.0", "core_v0.13.0", None, None]
    assert "Megatron-LM" not in rows
    # spelled in another case by one image's display names: one row still
    assert rows["PyTorch"] == [None, None, "2.9.0", "2.9.0"] and "Pytorch" not in rows
