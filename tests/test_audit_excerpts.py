"""`docgen.audit.excerpts`: a Dockerfile shown piecewise in fences of one to three instructions, each tied
to the file's instruction of its kind and name (a FROM's repository, an ARG's or ENV's name, a pip pin's
package) and compared with it; blocks presented as the reader's own, examples, placeholders and other
images' lines are no claim."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVING = """\
FROM nvcr.io/nvidia/pytorch:24.05-py3
ARG CUDA_VERSION=12.4
ENV MAX_JOBS=16
RUN pip install vllm==0.5.1 && pip install flash-attn==2.5.8
WORKDIR /app
COPY serve.py /app/serve.py
CMD ["python", "/app/serve.py"]
"""


def _findings(root: Path, readme: str, dockerfile: str = SERVING) -> list[str]:
    make_tree(root, {"Dockerfile": dockerfile, "serve.py": "print('up')\n"})
    found = audit(readme, "README.md", [build_model(root / "Dockerfile", "Dockerfile")], {}, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_a_stale_excerpt_of_each_kind(tmp_path: Path) -> None:
    readme = (
        "# Serving image\n\n## How the image is built\n\n"
        "We start from NVIDIA's PyTorch container:\n\n"
        "```dockerfile\nFROM nvcr.io/nvidia/pytorch:24.01-py3\n```\n\n"  # line 8: planted
        "The CUDA release the kernels are compiled for is a build argument:\n\n"
        "```dockerfile\nARG CUDA_VERSION=12.1\n```\n\n"  # line 14: planted
        "Compilation uses several jobs:\n\n"
        "```\nENV MAX_JOBS=8\n```\n\n"  # line 20: planted, in an untagged block
        "Then vLLM is installed:\n\n"
        "```dockerfile\n# the server\nRUN pip install vllm==0.4.0\n```\n"  # line 27: planted
    )
    assert _findings(tmp_path, readme) == [
        "8: README's excerpt of Dockerfile says FROM nvcr.io/nvidia/pytorch:24.01-py3 but Dockerfile:1 says "
        "FROM nvcr.io/nvidia/pytorch:24.05-py3 (certain)",
        "14: README's excerpt of Dockerfile says ARG CUDA_VERSION=12.1 but Dockerfile:2 says "
        "CUDA_VERSION=12.4 (certain)",
        "20: README's excerpt of Dockerfile sets ENV MAX_JOBS=8 but Dockerfile:3 sets MAX_JOBS=16 (likely)",
        "27: README's excerpt of Dockerfile installs vllm==0.4.0 but Dockerfile:4 pins vllm==0.5.1 (certain)",
    ]


def test_excerpts_that_agree_or_leave_lines_out_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "# Serving image\n\nThe base:\n\n"
        "```dockerfile\nFROM nvcr.io/nvidia/pytorch:24.05-py3\n...\nARG CUDA_VERSION=12.4\n```\n\n"
        "The packages:\n\n"
        "```dockerfile\nRUN pip install vllm==0.5.1 && pip install flash-attn==2.5.8\n```\n\n"
        "A line cut short:\n\n```dockerfile\nRUN ... \\\n  pip install vllm==0.3.0\n```\n"
    )
    assert _findings(tmp_path, readme) == []


def test_blocks_of_the_readers_own_or_of_another_image_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "# Serving image\n\n## Extend this image\n\n"
        "To add your own package:\n\n"
        "```dockerfile\nFROM serving-image:latest\nRUN pip install vllm==0.3.0\n```\n\n"
        "## Build arguments\n\n"
        "For example, you could pin another CUDA release:\n\n"
        "```dockerfile\nARG CUDA_VERSION=11.8\n```\n\n"
        "## Versions\n\n"
        "The version is set in the Dockerfile:\n\n"
        "```dockerfile\nFROM nvcr.io/nvidia/pytorch:<release>-py3\n```\n\n"  # a placeholder
        "```dockerfile\nFROM nvcr.io/nvidia/pytorch:24.05-py3-igpu\n```\n\n"  # another variant of the base
        "The sidecar image's setting:\n\n"
        "```dockerfile\nENV QUEUE_SIZE=8\n```\n\n"  # a name the Dockerfile does not set
        "```dockerfile\nENV MAX_JOBS=${JOBS}\n```\n\n"  # a variable
        "Change this line of the Dockerfile to build fewer kernels:\n\n"
        "```dockerfile\nENV MAX_JOBS=4\n```\n"
    )
    assert _findings(tmp_path, readme) == []


def test_a_name_declared_twice_is_taken_in_the_order_of_the_excerpts(tmp_path: Path) -> None:
    dockerfile = (
        "FROM ubuntu:22.04 AS build\nARG PYTHON_VERSION=3.10\nRUN echo build\n"
        "FROM ubuntu:22.04 AS runtime\nARG PYTHON_VERSION=3.12\nRUN echo run\n"
    )
    readme = (
        "# App\n\nThe build stage:\n\n"
        "```dockerfile\nFROM ubuntu:22.04 AS build\nARG PYTHON_VERSION=3.10\n```\n\n"
        "The runtime stage:\n\n```dockerfile\nFROM ubuntu:22.04 AS runtime\nARG PYTHON_VERSION=3.11\n```\n"
    )
    assert _findings(tmp_path, readme, dockerfile) == [
        "14: README's excerpt of Dockerfile says ARG PYTHON_VERSION=3.11 but Dockerfile:5 says "
        "PYTHON_VERSION=3.12 (certain)"
    ]


def test_a_whole_copy_is_left_to_the_copy_rules(tmp_path: Path) -> None:
    readme = (
        "# Serving image\n\nThe `Dockerfile`:\n\n"
        "```dockerfile\nFROM nvcr.io/nvidia/pytorch:24.01-py3\nARG CUDA_VERSION=12.4\nENV MAX_JOBS=16\n```\n"
    )
    assert _findings(tmp_path, readme) == [
        "6: README's copy of Dockerfile says FROM nvcr.io/nvidia/pytorch:24.01-py3 but Dockerfile:1 says "
        "FROM nvcr.io/nvidia/pytorch:24.05-py3 (certain)"
    ]


def test_an_excerpt_tagged_as_shell_is_likely(tmp_path: Path) -> None:
    readme = (
        "# Serving image\n\n## Dockerfile configuration\n\n"
        "```bash\nFROM nvcr.io/nvidia/pytorch:24.01-py3\n\nCOPY serve.py /app/serve.py\n```\n\n"
        "```bash\ndocker build -t serving .\n```\n"  # a command: no excerpt
    )
    assert _findings(tmp_path, readme) == [
        "6: README's excerpt of Dockerfile says FROM nvcr.io/nvidia/pytorch:24.01-py3 but Dockerfile:1 says "
        "FROM nvcr.io/nvidia/pytorch:24.05-py3 (likely)"
    ]


def test_an_indented_code_block_is_an_excerpt_too(tmp_path: Path) -> None:
    readme = (
        "# Serving image\n\n## Build arguments\n\n### CUDA\n\n"
        "    ARG CUDA_VERSION=12.1\n\n"  # line 7: planted, Markdown's indented code
        "The release the kernels are built for.\n\n### Jobs\n\n"
        "    ENV MAX_JOBS=16\n\n"  # agrees
        "- a list item\n\n    with an indented line of prose that is no instruction\n"
    )
    assert _findings(tmp_path, readme) == [
        "7: README's excerpt of Dockerfile says ARG CUDA_VERSION=12.1 but Dockerfile:2 says "
        "CUDA_VERSION=12.4 (likely)"
    ]


def test_a_long_word_before_an_env_pair_is_read_once(tmp_path: Path) -> None:
    """`NAME=value` pairs were looked for from every letter of a long word with no `=` in it: n² (20,000
    letters: 4 s; the 60,000 here would take minutes). The pair after it is still compared."""
    readme = (
        "# Serving image\n\nCompilation uses several jobs:\n\n```dockerfile\nENV "
        + "a" * 60_000
        + (" MAX_JOBS=8\n```\n")
    )
    assert _findings(tmp_path, readme) == [
        "6: README's excerpt of Dockerfile sets ENV MAX_JOBS=8 but Dockerfile:3 sets MAX_JOBS=16 (certain)"
    ]


ROCM = """\
FROM rocm/dev-ubuntu-22.04:5.7-complete
RUN pip install torch==2.3.1
ENV HSA_OVERRIDE_GFX_VERSION=9.0.6
ENV PYTORCH_ROCM_ARCH=gfx906
CMD ["python", "/app/serve.py"]
"""


def test_a_block_whose_comments_name_the_current_value_is_a_proposed_edit(tmp_path: Path) -> None:
    # an excerpt showing the lines as another GPU needs them, each comment saying what the file has now
    readme = (
        "# Radeon image\n\n## Vega 10 cards\n\n"
        "Vega 10 cards take these lines:\n\n"
        "```dockerfile\n"
        "ENV HSA_OVERRIDE_GFX_VERSION=9.0.0   # for gfx900 (currently 9.0.6)\n"
        "ENV PYTORCH_ROCM_ARCH=gfx900         # (now: gfx906)\n"
        "```\n\n"
        "## Stale\n\nThe target is fixed by the image:\n\n"
        "```dockerfile\nENV PYTORCH_ROCM_ARCH=gfx908   # MI100 (gfx90a also works)\n```\n"  # line 17: planted
    )
    assert _findings(tmp_path, readme, ROCM) == [
        "17: README's excerpt of Dockerfile sets ENV PYTORCH_ROCM_ARCH=gfx908 but Dockerfile:4 sets "
        "PYTORCH_ROCM_ARCH=gfx906 (certain)",
    ]


def test_japanese_and_chinese_words_of_an_edit_over_a_block_are_no_claim(tmp_path: Path) -> None:
    readme = (
        "# Radeon image\n\n### Vega 56 / 64 で動かす場合\n\n"
        "Vega 10 系で試す場合は 2 箇所の書き換えが必要:\n\n"
        "```dockerfile\nENV HSA_OVERRIDE_GFX_VERSION=9.0.0\n```\n\n"
        "### 其他显卡\n\n将最后一行修改为:\n\n"
        "```dockerfile\nENV PYTORCH_ROCM_ARCH=gfx900\n```\n\n"
        "### 現在の設定\n\nイメージの設定:\n\n"
        "```dockerfile\nENV PYTORCH_ROCM_ARCH=gfx1030\n```\n"  # line 24: planted, no word of an edit
    )
    assert _findings(tmp_path, readme, ROCM) == [
        "24: README's excerpt of Dockerfile sets ENV PYTORCH_ROCM_ARCH=gfx1030 but Dockerfile:4 sets "
        "PYTORCH_ROCM_ARCH=gfx906 (certain)",
    ]


# The versions section of an Ascend CANN image's README: an indented block of the Dockerfile's ARG lines
# with their defaults, longer than a piecewise excerpt, half of them stale (a release candidate since
# released, a post release built on another arg).
ASCEND = """\
FROM ubuntu:22.04
ARG CANN_VERSION="8.0.0"
ARG CHIP_TYPE="310b"
ARG TORCH_VERSION="2.1.0"
ARG TORCH_NPU_VERSION=${TORCH_VERSION}.post10
ARG MINDIE_VERSION="1.0.0"
ARG ABI="abi0"
ARG MODELS_PKG="atb-models_${MINDIE_VERSION}_py310_torch$TORCH_VERSION-${ABI}.tar.gz"
RUN echo ${CANN_VERSION} ${CHIP_TYPE} ${TORCH_NPU_VERSION} ${MODELS_PKG}
"""
VERSIONS = """\
# CANN image

## Versions

The build args below set the versions; each is shown with its default.

    ARG CANN_VERSION="8.0.RC3"
    ARG CHIP_TYPE="310b"
    ARG TORCH_VERSION="2.1.0"
    ARG TORCH_NPU_VERSION=${TORCH_VERSION}.post8
    ARG MINDIE_VERSION="1.0.RC3"
    ARG ABI="abi0"
    ARG MODELS_PKG="atb-models_${MINDIE_VERSION}_py310_torch${TORCH_VERSION}-$ABI.tar.gz"
"""


def test_a_block_of_the_files_args_is_an_excerpt_however_long(tmp_path: Path) -> None:
    # `$ABI` and `${ABI}` are one expansion: the last line agrees with the file
    assert _findings(tmp_path, VERSIONS, ASCEND) == [
        "7: README's excerpt of Dockerfile says ARG CANN_VERSION=8.0.RC3 but Dockerfile:2 says "
        "CANN_VERSION=8.0.0 (likely)",
        "10: README's excerpt of Dockerfile says ARG TORCH_NPU_VERSION=${TORCH_VERSION}.post8 but "
        "Dockerfile:5 says TORCH_NPU_VERSION=${TORCH_VERSION}.post10 (likely)",
        "11: README's excerpt of Dockerfile says ARG MINDIE_VERSION=1.0.RC3 but Dockerfile:6 says "
        "MINDIE_VERSION=1.0.0 (likely)",
    ]


def test_a_long_block_of_another_images_args_is_no_claim(tmp_path: Path) -> None:
    other = VERSIONS.replace("CHIP_TYPE", "NPU_CHIP").replace("ARG ABI", "ARG TORCH_ABI")
    other = other.replace("ARG MINDIE_VERSION", "ARG MINDIE_RELEASE").replace("ARG MODELS_PKG", "ARG ATB_PKG")
    assert _findings(tmp_path, other, ASCEND) == []
