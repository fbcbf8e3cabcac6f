"""`docgen.audit`: text that reads like a claim about the image but is about something else (issue 16,
the false alarms of a blind run on public READMEs), and the real drift of the same shape next to it.

- another build tool's arguments (`Required CMake build arguments:`) are not Docker build args;
- a list after `History (…, predates the switch to …):` tells the past, whatever the parenthesis says;
- `docker build -f Dockerfile.gpu .` is run from the folder of the Dockerfiles, not the README's;
- a section or a step about the host (`if not using the container`, `Native build`, `make sure your
  machine has:`) says nothing of the image;
- in `The default CUDA version used by CMake is 13.0` the version is CUDA's;
- the release a sentence says removed something (`CUDA 13.0+ has removed sm_70 support`) is that
  release's fact, not the image's version;
- a build-argument table: a row named in plain words (`| OS |`) is a row, and an arg the README
  documents elsewhere (`--build-arg PIP_INDEX_URL`) is not missing from it.

Each case is a trap that must not be flagged and, next to it, the drift of the same shape that must.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, gone, make_tree, misplaced, told_at

from docgen.audit import audit
from docgen.audit.aside import config_file_keys
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import build_model, model_of

TOOLKIT = """\
FROM nvidia/cuda:13.0.0-devel-ubuntu24.04
ARG CUDA_VERSION=13.0
ARG OS=ubuntu24.04
ARG JOBS=8
ARG PIP_INDEX_URL=
RUN pip install cmake==3.31.6 torch==2.6.0
RUN echo $JOBS $OS $CUDA_VERSION $PIP_INDEX_URL
"""


def found(readme: str) -> list[tuple[int, str]]:
    model = model_of(parse_dockerfile(TOOLKIT, "Dockerfile"))
    return [(d.line, d.message) for d in audit(readme, "README.md", model)]


def undeclared(name: str) -> str:
    return f"README documents build arg {name} but Dockerfile does not declare it"


# --------------------------------------------------------------------------------------------------
# 1. Another tool's build arguments


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        ("Required CMake build arguments:", []),
        ("Optional cmake options:", []),
        ("Arguments passed to setup.py:", []),
        ("The make variables:", []),
        # Docker's, said in words or with the flag, and the plain build args of the image
        ("Required Docker build arguments:", [(3, undeclared("TRT_ROOT"))]),
        ("Build arguments (`--build-arg`), also used by CMake:", [(3, undeclared("TRT_ROOT"))]),
        ("Build arguments:", [(3, undeclared("TRT_ROOT"))]),
    ],
)
def test_a_list_of_another_tools_build_arguments_names_no_build_arg(
    intro: str, expected: list[tuple[int, str]]
) -> None:
    readme = f"- {intro}\n  - `JOBS`: parallel jobs\n  - `TRT_ROOT`: where the libraries are\n"
    assert found(readme) == expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("### CMake build options", []),
        ("### Options for cmake", []),
        ("### Build arguments", [(5, "README says JOBS defaults to 4 but Dockerfile:4 says 8")]),
    ],
)
def test_a_table_of_another_tools_options_is_no_build_argument_table(
    heading: str, expected: list[tuple[int, str]]
) -> None:
    # A `cmake -D JOBS=4` option of the same name as the image's ARG: neither its default nor the
    # image's args it leaves out are findings.
    table = "| Argument | Default |\n|---|---|\n| `JOBS` | `4` |\n| `CUDA_VERSION` | `13.0` |\n"
    table += "| `OS` | `ubuntu24.04` |\n| `PIP_INDEX_URL` | empty |\n"
    assert found(f"{heading}\n\n{table}") == expected


def test_a_heading_about_build_args_does_not_outrank_an_introduction_naming_cmake() -> None:
    readme = "## Build arguments\n\nThe CMake build arguments:\n\n- `TRT_ROOT`: where the libraries are\n"
    assert found(readme) == []
    readme = "## Build arguments\n\nThe image's build arguments:\n\n- `TRT_ROOT`: where the libraries are\n"
    assert found(readme) == [(5, undeclared("TRT_ROOT"))]


# --------------------------------------------------------------------------------------------------
# 2. History


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        ("History (nightly-based images, predates the switch to the stable torch base):", []),
        ("Previous versions (before the base image moved to CUDA 13):", []),
        # the same shape, about the current image
        (
            "Current (stable-based images, since the switch to the stable torch base):",
            [
                (2, "README says PyTorch 2.4.0 but Dockerfile:6 says 2.6.0"),
                (3, "README says PyTorch 2.3.1 but Dockerfile:6 says 2.6.0"),
            ],
        ),
    ],
)
def test_a_history_list_with_a_long_parenthesis_tells_the_past(
    intro: str, expected: list[tuple[int, str]]
) -> None:
    assert found(f"{intro}\n- PyTorch 2.4.0, CMake 3.31.6\n- PyTorch 2.3.1\n") == expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("## Previous versions", []),
        ("## Older images", []),
        ("## Legacy", []),
        ("## Versions", [(3, "README says PyTorch 2.4.0 but Dockerfile:6 says 2.6.0")]),
    ],
)
def test_a_section_headed_as_the_past_is_not_compared(heading: str, expected: list[tuple[int, str]]) -> None:
    assert found(f"{heading}\n\nShips PyTorch 2.4.0.\n\n## Now\n\nShips PyTorch 2.6.0.\n") == expected


# --------------------------------------------------------------------------------------------------
# 3. `-f NAME` run from the folder of the Dockerfiles

GPU = "FROM nvidia/cuda:13.0.0-runtime-ubuntu24.04\nRUN pip install torch==2.6.0\n"
CPU = "FROM python:3.12-slim\nRUN pip install torch==2.6.0\n"


def audit_docs(root: Path, commands: str, dockerfiles: list[str]) -> list[tuple[int, str, str]]:
    """audit of docs/guide.md (a tutorial far from the Dockerfiles) against `dockerfiles`."""
    make_tree(
        root,
        {
            "docs/guide.md": f"# Building\n\n```shell\n{commands}\n```\n",
            "tools/docker/Dockerfile": CPU,
            "tools/docker/Dockerfile.gpu": GPU,
            "Dockerfile.cuda": GPU,
        },
    )
    models = [build_model(root / d, d) for d in dockerfiles]
    text = (root / "docs/guide.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence) for d in audit(text, "docs/guide.md", models, {}, root / "docs")
    ]


BOTH = ["tools/docker/Dockerfile", "tools/docker/Dockerfile.gpu"]


@pytest.mark.parametrize(
    ("commands", "expected"),
    [
        # the commands are run in tools/docker, where the Dockerfiles are (the guide says so)
        (
            "# in tools/docker/Dockerfile*\ndocker build -t serving .\n"
            "docker build -t serving-gpu -f Dockerfile.gpu .",
            [],
        ),
        ("cd tools/docker\ndocker build -t serving-gpu -f Dockerfile.gpu .", []),
        # a guide that never puts the reader there: the bare name is not found from where it is run
        (
            "docker build -t serving-gpu -f Dockerfile.gpu .",
            [(4, misplaced("Dockerfile.gpu", "tools/docker/Dockerfile.gpu"), "certain")],
        ),
        ("docker build -f docker/Dockerfile.gpu tools", []),  # from tools/
        # a name found nowhere is gone
        ("docker build -f Dockerfile.rocm .", [(4, gone("Dockerfile.rocm"), "certain")]),
        # moved up: the command fails as written, the file it means is known by its name
        (
            "docker build -f build/Dockerfile.cuda .",
            [(4, misplaced("build/Dockerfile.cuda", "Dockerfile.cuda"), "certain")],
        ),
    ],
)
def test_a_bare_file_flag_is_read_from_the_folder_of_the_dockerfiles(
    tmp_path: Path, commands: str, expected: list[tuple[int, str, str]]
) -> None:
    dockerfiles = [*BOTH, "Dockerfile.cuda"] if "cuda" in commands else BOTH
    assert audit_docs(tmp_path, commands, dockerfiles) == expected


def test_a_file_flag_naming_a_file_next_to_an_audited_dockerfile_is_not_dead(chdir_tmp: Path) -> None:
    # Audited against the CPU image only: Dockerfile.gpu is not audited, but it is there, next to it.
    there = "# first: cd tools/docker\n"
    assert (
        audit_docs(chdir_tmp, there + "docker build -f Dockerfile.gpu .", ["tools/docker/Dockerfile"]) == []
    )
    found = audit_docs(chdir_tmp, there + "docker build -f Dockerfile.tpu .", ["tools/docker/Dockerfile"])
    assert found == [(5, gone("Dockerfile.tpu", "tools/docker/Dockerfile"), "certain")]


# --------------------------------------------------------------------------------------------------
# 4. The host


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # a list introduced as what the machine needs
        (
            "## Requirements\n\nBefore you start, make sure your machine has:\n\n- CUDA 12.9\n",
            [],
        ),
        ("Ensure that your environment meets the following requirements:\n- CUDA 12.9\n", []),
        ("## System requirements\n\n- CUDA 12.9\n", []),
        # the same list about the image
        (
            "## Contents\n\nThe image ships:\n\n- CUDA 12.9\n",
            [(5, "README says CUDA 12.9 but Dockerfile:2 says 13.0")],
        ),
    ],
)
def test_what_the_host_needs_is_not_compared_with_the_image(
    readme: str, expected: list[tuple[int, str]]
) -> None:
    assert found(readme) == expected


WINDOWS_STEPS = """\
## GPU

{intro}

1. Install the latest [NVIDIA driver](https://example.com/driver)
2. Install [CUDA Toolkit 13.1 or later](https://example.com/cuda)
3. Set up [Docker with WSL2](https://example.com/wsl)
"""


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        # what the reader installs on a desktop system: the host's driver and toolkit, not the image's
        ("For GPU support on Windows, you may need to:", []),
        ("On macOS with an eGPU, first:", []),
        ("Windows users:", []),
        # the same steps said of the image: the toolkit is a claim
        (
            "The image build will:",
            [(6, "README says CUDA Toolkit 13.1+ but Dockerfile:2 says 13.0")],
        ),
        (
            "For Windows containers, the build will:",
            [(6, "README says CUDA Toolkit 13.1+ but Dockerfile:2 says 13.0")],
        ),
    ],
)
def test_a_list_of_steps_for_the_readers_desktop_system_is_the_hosts(
    intro: str, expected: list[tuple[int, str]]
) -> None:
    assert [f for f in found(WINDOWS_STEPS.format(intro=intro)) if "CUDA" in f[1]] == expected


LOOSE_LIST = """\
## Software

{intro}

- Kernel:
    - Version: 5.15.0

- NVIDIA-SMI:
    > command: `nvidia-smi`
    - CUDA Version: 12.4

- Python 3.12
"""


@pytest.mark.parametrize(
    ("intro", "expected"),
    [
        # the author's own machine: every item of the list, blank lines between them, is the host's
        ("My system is currently running on the following OS & drivers:", []),
        ("20240313: my machine has the following drivers:", []),
        ("Make sure your machine has the following:", []),
        # the same loose list about the image: its later items are claims too
        (
            "The image installs the following:",
            [(10, "README says CUDA Version 12.4 but Dockerfile:2 says 13.0")],
        ),
    ],
)
def test_every_item_of_a_loose_list_introduced_as_the_hosts_is_the_hosts(
    intro: str, expected: list[tuple[int, str]]
) -> None:
    assert [f for f in found(LOOSE_LIST.format(intro=intro)) if "CUDA" in f[1]] == expected


STEPS = """\
## Getting the toolkit

1. #### {first}

   Download the toolkit with the links below:

   - [Toolkit 2.0 for CUDA 12.9, Linux](https://example.com/toolkit-cuda-12.9.tgz)

   **Example: Ubuntu 22.04 with cuda-12.9**

2. #### Start the build container

   It has CUDA 12.9.

   **Example: {caption} with CUDA 12.9**
"""


@pytest.mark.parametrize(
    ("first", "caption", "expected"),
    [
        ("(Optional - if not using the container) Get the toolkit", "Native build on Windows", [13]),
        ("Install the toolkit without Docker", "Bare-metal build", [13]),
        # the same steps inside the container
        ("Get the toolkit", "Build in the container", [7, 9, 13, 15]),
    ],
)
def test_a_step_about_building_without_the_container_is_not_compared(
    first: str, caption: str, expected: list[int]
) -> None:
    told = found(STEPS.format(first=first, caption=caption))
    lines = [at for line, message in told for at in told_at(line, message)]
    assert sorted(lines) == expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("## Native build", []),
        ("## Building without Docker", []),
        ("## Installing on your machine", []),
        ("## Building the image", [(3, "README says CUDA 12.9 but Dockerfile:2 says 13.0")]),
        (
            "## Installing the image on your machine",
            [(3, "README says CUDA 12.9 but Dockerfile:2 says 13.0")],
        ),
    ],
)
def test_a_section_about_the_host_is_not_compared(heading: str, expected: list[tuple[int, str]]) -> None:
    assert found(f"{heading}\n\nIt uses CUDA 12.9.\n\n## Image\n\nIt uses CUDA 13.0.\n") == expected


# --------------------------------------------------------------------------------------------------
# 5. A version that is another component's


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The default CUDA version used by CMake is 13.0.", []),
        ("The version of CUDA targeted by CMake is 13.0.", []),
        (
            "The default CUDA version used by CMake is 12.9.",
            ["README says CUDA 12.9 but Dockerfile:2 says 13.0"],
        ),
        # the version is the name's
        ("The version of PyTorch is 2.5.0.", ["README says PyTorch 2.5.0 but Dockerfile:6 says 2.6.0"]),
        ("CMake 3.20.1 builds the plugins.", ["README says CMake 3.20.1 but Dockerfile:6 says 3.31.6"]),
        # a subject docgen does not know: no claim either way
        ("The default toolset version used by CMake is 14.2.", []),
    ],
)
def test_a_version_belongs_to_the_component_it_qualifies(sentence: str, expected: list[str]) -> None:
    assert [message for _, message in found(sentence + "\n")] == expected


# --------------------------------------------------------------------------------------------------
# 6. Completeness of a build-argument table


def missing(name: str, line: int) -> str:
    return f"build arg {name} (Dockerfile:{line}) is missing from the README's build-argument table"


@pytest.mark.parametrize(
    ("rows", "after", "expected"),
    [
        # every arg is in the table or documented elsewhere in the README
        ("| OS | ubuntu24.04 |\n", "To use a mirror, pass `--build-arg PIP_INDEX_URL=…`.\n", []),
        (
            "| **OS** | ubuntu24.04 |\n",
            "```bash\ndocker build --build-arg PIP_INDEX_URL=http://m .\n```\n",
            [],
        ),
        ("| OS | ubuntu24.04 |\n", "Build args:\n\n- `PIP_INDEX_URL`: a mirror\n", []),
        # left out of the table and said nowhere else
        ("", "To use a mirror, pass `--build-arg PIP_INDEX_URL=…`.\n", [(1, missing("OS", 3))]),
        ("| OS | ubuntu24.04 |\n", "Set `PIP_INDEX_URL` at run time.\n", [(1, missing("PIP_INDEX_URL", 5))]),
        # a row named in plain words is compared like any other
        (
            "| OS | ubuntu22.04 |\n",
            "Pass `--build-arg PIP_INDEX_URL`.\n",
            [(5, "README says OS defaults to ubuntu22.04 but Dockerfile:3 says ubuntu24.04")],
        ),
    ],
)
def test_an_arg_in_the_table_or_documented_elsewhere_is_not_missing(
    rows: str, after: str, expected: list[tuple[int, str]]
) -> None:
    table = "| Argument | Default |\n|---|---|\n| `CUDA_VERSION` | `13.0` |\n| `JOBS` | `8` |\n" + rows
    assert found(f"{table}\n{after}") == expected


# --------------------------------------------------------------------------------------------------
# 7. Another tool's recipe (Singularity, Apptainer, conda, Vagrant)


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("## Singularity", []),
        ("## Building the Apptainer image", []),
        ("## From the pytorch.def recipe", []),
        ("## Conda environment", []),
        ("## Vagrant VM", []),
        # a heading that names Docker too is still the image's, and so is a plain one
        ("## Docker and Singularity", [(5, "README says PyTorch 2.4.0 but Dockerfile:6 says 2.6.0")]),
        ("## Versions", [(5, "README says PyTorch 2.4.0 but Dockerfile:6 says 2.6.0")]),
    ],
)
def test_a_section_about_another_tools_recipe_is_not_compared(
    heading: str, expected: list[tuple[int, str]]
) -> None:
    readme = f"{heading}\n\nThe recipe installs:\n\n- PyTorch 2.4.0\n\n## Docker\n\nShips PyTorch 2.6.0.\n"
    assert found(readme) == expected


# --------------------------------------------------------------------------------------------------
# 8. A version said to be gone, and another component's requirement

SWAPPED = "FROM python:3.11-slim\nRUN pip uninstall -y vllm && pip install vllm==0.28.0 numpy==1.26.4\n"


def swapped(readme: str) -> list[tuple[int, str]]:
    model = model_of(parse_dockerfile(SWAPPED, "Dockerfile"))
    return [(d.line, d.message) for d in audit(readme, "README.md", model)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The build removes its vLLM 0.20.2 install and\ninstalls vLLM 0.28.0.", []),
        ("The stock vLLM 0.20.2 is uninstalled first.", []),
        ("CI rejects an old image instead of testing\nvLLM 0.20.2.", []),
        ("The image no longer ships vLLM 0.20.2.", []),
        ("Here OpenCV 4.13 requires\nNumPy >= 2, while the image pins NumPy 1.26.4.", []),
        # the version installed now, next to the one removed, and the image's own requirement
        (
            "The build removes its vLLM 0.20.2 install and\ninstalls vLLM 0.27.0.",
            [(2, "README says vLLM 0.27.0 but Dockerfile:2 says 0.28.0")],
        ),
        ("The image requires NumPy >= 2.", [(1, "README says NumPy>=2 but Dockerfile:2 says 1.26.4")]),
        # the project's own need is the image's: `we` build it
        (
            "We need NumPy 1.25.0 for the solver.",
            [(1, "README says NumPy 1.25.0 but Dockerfile:2 says 1.26.4")],
        ),
        ("We need NumPy 1.26 for the solver.", []),
        ("Your host needs NumPy 1.25.0 to run the client.", []),
        (
            "Here OpenCV 4.13 requires NumPy >= 2, while the image pins NumPy 1.25.0.",
            [(1, "README says NumPy 1.25.0 but Dockerfile:2 says 1.26.4")],
        ),
    ],
)
def test_a_version_said_gone_or_required_by_another_component_is_no_claim(
    text: str, expected: list[tuple[int, str]]
) -> None:
    assert swapped(text + "\n") == expected


SOURCE_BUILT = "FROM python:3.12-slim\nARG TORCH_REF=2.7.1\nRUN pip install torch==${TORCH_REF}\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # why the image builds from source: what others publish, not what the image has
        ("- NVIDIA official board PyTorch wheels only support Python 3.10", []),
        ("- Upstream prebuilt packages only go up to PyTorch 2.5", []),
        ("AMD's torch binaries stop at PyTorch 2.4.", []),
        ("Stock PyPI wheels do not exist for Python 3.13.", []),
        # the nearest truths: the same words about the image, or our own wheels
        ("The image ships Python 3.10.", [(1, "README says Python 3.10 but Dockerfile:1 says 3.12")]),
        (
            "- Our official wheels only support Python 3.10",
            [(1, "README says Python 3.10 but Dockerfile:1 says 3.12")],
        ),
        (
            "- The wheels only go up to PyTorch 2.5",
            [(1, "README says PyTorch 2.5 but Dockerfile:2 says 2.7.1")],
        ),
    ],
)
def test_a_sentence_about_an_artifact_made_outside_the_project_is_no_claim(
    text: str, expected: list[tuple[int, str]]
) -> None:
    model = model_of(parse_dockerfile(SOURCE_BUILT, "Dockerfile"))
    found = [(d.line, d.message) for d in audit(text + "\n", "README.md", model)]
    assert found == expected


RUNTIME_DEBS = """\
FROM ubuntu:24.04
ARG COMPUTE_RUNTIME_VERSION=26.35.39758.10
ARG CR=https://github.com/intel/compute-runtime/releases/download/${COMPUTE_RUNTIME_VERSION}
RUN curl -fsSL -O "${CR}/libze-intel-gpu1_${COMPUTE_RUNTIME_VERSION}-0_amd64.deb" && dpkg -i ./*.deb
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # why the image takes the runtime from GitHub: what the distribution's archive carries
        (
            "- **Root Cause**: The default Ubuntu 24.04 apt repositories contain `intel-opencl-icd` and "
            "`libze-intel-gpu1` version `23.43.27642.40` (built late 2023).",
            [],
        ),
        ("Ubuntu 24.04's apt repositories carry libze-intel-gpu1 23.43.27642.40.", []),
        ("Debian's archive only has libze-intel-gpu1 23.43.27642.40.", []),
        # the nearest truths: the image, or a source named by the component (one a Dockerfile adds)
        (
            "The image contains `libze-intel-gpu1` version `23.43.27642.40`.",
            [(1, "README says libze-intel-gpu1 23.43.27642.40 but Dockerfile:2 says 26.35.39758.10-0")],
        ),
        (
            "- The Intel graphics apt repository contains libze-intel-gpu1 23.43.27642.40.",
            [(1, "README says libze-intel-gpu1 23.43.27642.40 but Dockerfile:2 says 26.35.39758.10-0")],
        ),
    ],
)
def test_what_another_package_source_carries_is_no_claim(text: str, expected: list[tuple[int, str]]) -> None:
    model = model_of(parse_dockerfile(RUNTIME_DEBS, "Dockerfile"))
    found = [(d.line, d.message) for d in audit(text + "\n", "README.md", model)]
    assert found == expected


SWAP_PROXY = """\
FROM rocm/dev-ubuntu-24.04:6.4.1
ARG LLAMA_SWAP_VERSION=217
ARG SWAP=https://github.com/mostlygeek/llama-swap/releases/download/v${LLAMA_SWAP_VERSION}
RUN wget -qO /tmp/llama-swap.tar.gz "${SWAP}/llama-swap_${LLAMA_SWAP_VERSION}_linux_amd64.tar.gz" && \\
    tar -C /usr/local/bin -xzf /tmp/llama-swap.tar.gz llama-swap
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # why this image exists: what the images of another project, named by reference, lack
        (
            "- **Pre-built llama.cpp ROCm images** (`ghcr.io/ggml-org/llama.cpp:server-rocm`)\n"
            "  are useful but don't include llama-swap for model swapping.",
            [],
        ),
        ("Official images (`ollama/ollama:rocm`) do not include llama-swap.", []),
        # the nearest truths: this image, or our own published images
        (
            "This image does not include llama-swap.",
            [(1, "README says llama-swap is not installed but Dockerfile:4 installs llama-swap_217")],
        ),
        (
            "- Our pre-built images (`ghcr.io/me/rocm-llama:latest`) don't include llama-swap.",
            [(1, "README says llama-swap is not installed but Dockerfile:4 installs llama-swap_217")],
        ),
    ],
)
def test_what_images_of_others_lack_is_no_claim(text: str, expected: list[tuple[int, str]]) -> None:
    model = model_of(parse_dockerfile(SWAP_PROXY, "Dockerfile"))
    found = [(d.line, d.message) for d in audit(text + "\n", "README.md", model)]
    assert found == expected


REASONS = "PyTorch is compiled in the image. We do this because:\n\n{items}\n"


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        # why it is compiled: what other things lack, not what the image holds
        ("- PyTorch 2.5 lacks kernels for the board\n- Python 3.10 is all the vendor builds for", []),
        # the nearest truth: an item whose subject is the image is still a claim
        (
            "- PyTorch 2.5 lacks kernels for the board\n- the image must run Python 3.10",
            [(4, "README says Python 3.10 but Dockerfile:1 says 3.12")],
        ),
    ],
)
def test_the_items_of_a_list_of_reasons_are_no_claims(items: str, expected: list[tuple[int, str]]) -> None:
    model = model_of(parse_dockerfile(SOURCE_BUILT, "Dockerfile"))
    found = [(d.line, d.message) for d in audit(REASONS.format(items=items), "README.md", model)]
    assert found == expected
    plain = f"PyTorch is compiled in the image. Its stack:\n\n{items}\n"  # no reasons: claims
    assert [d.line for d in audit(plain, "README.md", model)][:1] == [3]


CUDA_126 = "FROM nvidia/cuda:12.6.2-devel-ubuntu22.04\nARG CUDA_ARCH=80,86\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- **CUDA Architecture**: `80,86` (mainstream GPUs, 120 requires CUDA 12.8+)", []),
        ("- Arch list `80;90`; sm_100 needs CUDA 12.8 or newer.", []),
        # the nearest truth: the image itself named as needing it, and a plain claim after the clause
        ("- The image requires CUDA 12.8+.", [(1, "README says CUDA 12.8+ but Dockerfile:1 says 12.6.2")]),
        (
            "- 120 requires CUDA 12.8+, and this image ships CUDA 12.4.",
            [(1, "README says CUDA 12.4 but Dockerfile:1 says 12.6.2")],
        ),
    ],
)
def test_a_gpu_target_s_requirement_is_no_claim_of_the_image_s_version(
    text: str, expected: list[tuple[int, str]]
) -> None:
    model = model_of(parse_dockerfile(CUDA_126, "Dockerfile"))
    assert [(d.line, d.message) for d in audit(text + "\n", "README.md", model)] == expected


# --------------------------------------------------------------------------------------------------
# 9. `latest` for a version arg with an empty default


@pytest.mark.parametrize(
    ("arg", "cell", "expected"),
    [
        ("ARG TF_VERSION=", "latest", []),
        ("ARG TF_VERSION", "newest", []),
        # a pinned default is no `latest`, and an empty default is no version
        (
            "ARG TF_VERSION=2.15.0",
            "latest",
            ["README says TF_VERSION defaults to latest but Dockerfile:2 says 2.15.0"],
        ),
        ("ARG TF_VERSION=", "2.15.0", ['README says TF_VERSION defaults to 2.15.0 but Dockerfile:2 says ""']),
    ],
)
def test_latest_agrees_with_an_empty_version_default(arg: str, cell: str, expected: list[str]) -> None:
    dockerfile = (
        f"FROM python:3.11-slim\n{arg}\nRUN pip install tensorflow${{TF_VERSION:+==${{TF_VERSION}}}}\n"
    )
    readme = (
        f"| Argument | Description | Default |\n|---|---|---|\n| TF_VERSION | TensorFlow version | {cell} |\n"
    )
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    assert [d.message for d in audit(readme, "README.md", model)] == expected


# --------------------------------------------------------------------------------------------------
# 10. A build matrix of published images

MATRIX_DOCKERFILE = """\
FROM ubuntu:22.04
ARG PYTORCH_VERSION=1.13.1
ARG PYTHON_VERSION=3.10
RUN pip install torch==${PYTORCH_VERSION} numpy==1.26.4
"""


def matrix(first: str, rows: list[str]) -> list[tuple[int, str]]:
    table = f"| {first} | PyTorch | Python | NumPy |\n|---|---|---|---|\n" + "".join(
        f"| {r} |\n" for r in rows
    )
    model = model_of(parse_dockerfile(MATRIX_DOCKERFILE, "Dockerfile"))
    return [(d.line, d.message) for d in audit(table, "README.md", model)]


def test_a_build_matrix_is_not_compared_with_build_arg_defaults() -> None:
    rows = ["img:2.3.0-py3.11 | 2.3.0 | 3.11 | {np}", "img:2.3.0-py3.10 | 2.3.0 | 3.10 | {np}"]
    rows += ["img:2.2.0-py3.10 | 2.2.0 | 3.10 | {np}"]
    # each row is built with its own --build-arg PYTORCH_VERSION: the default 1.13.1 is none of them
    assert matrix("Image", [r.format(np="1.26.4") for r in rows]) == []
    # a version the Dockerfile hard-codes is every row's
    assert matrix("Image", [r.format(np="1.25.0") for r in rows]) == [
        (3, "README says NumPy 1.25.0 but Dockerfile:4 says 1.26.4")
    ]
    # a release per row (the first column tells them apart) is still compared with the defaults
    releases = [
        "24.03 | 2.3.0 | 3.10 | 1.26.4",
        "24.02 | 2.3.0 | 3.10 | 1.26.4",
        "24.01 | 2.2.0 | 3.10 | 1.26.4",
    ]
    assert matrix("Container", releases) == [(3, "README says PyTorch 2.3.0 but Dockerfile:2 says 1.13.1")]


# --------------------------------------------------------------------------------------------------
# 11. A build command continued with ` /` instead of ` \`


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("conda.Dockerfile", []),
        (
            "slim.Dockerfile",
            [
                (
                    6,
                    gone("slim.Dockerfile", "conda.Dockerfile"),
                )
            ],
        ),
    ],
)
def test_a_command_continued_with_a_slash_still_names_its_file(
    tmp_path: Path, name: str, expected: list[tuple[int, str]]
) -> None:
    make_tree(
        tmp_path, {"conda.Dockerfile": "FROM python:3.12-slim\nARG USERID=1000\nRUN useradd -u $USERID app\n"}
    )
    readme = (
        f"# Build\n\n```console\ndocker build -t app:latest /\n--build-arg USERID=1000 /\n-f {name} .\n```\n"
    )
    model = build_model(tmp_path / "conda.Dockerfile", "conda.Dockerfile")
    assert [(d.line, d.message) for d in audit(readme, "README.md", [model], {}, tmp_path)] == expected


# --------------------------------------------------------------------------------------------------
# 12. An address a service listens on is no version of it

MONITORING = """\
FROM ubuntu:22.04
ARG PROMETHEUS_VERSION=2.53.0
ARG LOKI_VERSION=3.1.0
ARG DCGM_VERSION=3.3.5.1
RUN curl -fsSL https://example.com/prometheus-${PROMETHEUS_VERSION}.tar.gz | tar xz
"""


def test_an_address_after_a_service_is_no_version() -> None:
    readme = """\
# Monitoring

- **Prometheus** (`127.0.0.1:9090`) runs on the head node.
- **Loki** (`0.0.0.0`) keeps the logs.
- **Prometheus** (`2.51.0`) scrapes every node.
- **DCGM** 3.3.6.1 exports the GPU metrics.

| Service | Address |
|---|---|
| Prometheus | `192.168.1.20:9090` |
"""
    # Lines 3, 4 and 10 say where a service listens (traps); line 5 is Prometheus's version, and four
    # numbers without a port are one too (line 6): drifts.
    model = model_of(parse_dockerfile(MONITORING, "Dockerfile"))
    assert [(d.line, d.message) for d in audit(readme, "README.md", model)] == [
        (5, "README says Prometheus 2.51.0 but Dockerfile:2 says 2.53.0"),
        (6, "README says DCGM 3.3.6.1 but Dockerfile:4 says 3.3.5.1"),
    ]


# --------------------------------------------------------------------------------------------------
# 13. Several values of one name in one claim: one of them agreeing is no drift

SEVERAL = "FROM ubuntu:20.04\nARG CUDA_VERSION=12.1.1\nRUN pip install torch==2.3.0\n"


def test_one_of_several_values_of_a_name_agreeing_is_no_drift() -> None:
    readme = """\
# Dockerfiles for Ubuntu* 18.04 and Ubuntu* 20.04

We provide images for Ubuntu 18.04, Ubuntu 20.04 or Ubuntu 22.04, with CUDA 11.8 or CUDA 12.1.
The images are built on Ubuntu 16.04 and Ubuntu 18.04.
It ships PyTorch 2.2.0 on Ubuntu 20.04.
Tested with PyTorch 2.3.0/PyTorch 2.4.0.
"""
    # Lines 1, 3 and 6 each name the image's value among others (traps); line 4 names two and neither
    # is the image's, line 5 one of PyTorch and one of Ubuntu: drifts.
    model = model_of(parse_dockerfile(SEVERAL, "Dockerfile"))
    assert [(d.line, d.message) for d in audit(readme, "README.md", model)] == [
        (4, "README says Ubuntu 16.04 but Dockerfile:1 says 20.04"),
        (4, "README says Ubuntu 18.04 but Dockerfile:1 says 20.04"),
        (5, "README says PyTorch 2.2.0 but Dockerfile:3 says 2.3.0"),
    ]


def test_a_file_flag_not_found_where_the_command_runs_names_the_dockerfile_of_its_name(
    tmp_path: Path,
) -> None:
    # run from the guide's folder or the top, `-f Dockerfile.gpu` fails: it is tools/docker/Dockerfile.gpu
    found = audit_docs(tmp_path, "docker build -f Dockerfile.gpu -t srv --shm-size=2g .", BOTH)
    assert found == [(4, misplaced("Dockerfile.gpu", "tools/docker/Dockerfile.gpu"), "certain")]
    # the guide says where to run it: not a finding
    said = "# Run this from the tools/docker folder:\ndocker build -f Dockerfile.gpu -t srv .\n"
    assert audit_docs(tmp_path, said, BOTH) == []


# --------------------------------------------------------------------------------------------------
# The build context holds what the Dockerfile copies

SERVE = """\
FROM python:3.12-slim AS base
COPY hooks /opt/hooks
COPY ./settings.toml /etc/app/
COPY --from=base /etc/os-release /tmp/
ADD https://example.com/tool.tgz /tmp/
COPY *.pem /certs/
"""


def context_findings(root: Path, files: dict[str, str], commands: str) -> list[tuple[int, str, str]]:
    """audit of README.md at `root` (its commands in one shell block) against deploy/Dockerfile."""
    make_tree(root, {"README.md": f"# Build\n\n```shell\n{commands}\n```\n", **files})
    model = build_model(root / "deploy/Dockerfile", "deploy/Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


DEPLOY = {"deploy/Dockerfile": SERVE, "deploy/hooks/start.sh": "", "deploy/settings.toml": ""}


def test_a_context_holding_none_of_what_the_dockerfile_copies_is_a_finding(tmp_path: Path) -> None:
    found = context_findings(tmp_path, DEPLOY, "docker build -f deploy/Dockerfile -t app .")
    assert found == [
        (
            4,
            "README builds deploy/Dockerfile with the context ., which holds none of what it copies: "
            "hooks (line 2), settings.toml (line 3) are in deploy/",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "docker build -f deploy/Dockerfile -t app deploy",  # the context is where the sources are
        "cd deploy\ndocker build -t app .",  # a cd first
        "docker build -f deploy/Dockerfile -t app $CONTEXT",  # a variable: not told
        "docker build -f deploy/Dockerfile -t app <context>",  # a placeholder
        "git clone https://example.com/app.git\ndocker build -f deploy/Dockerfile .",  # any file may be there
        "cp -r deploy/hooks deploy/settings.toml .\ndocker build -f deploy/Dockerfile .",  # made first
    ],
)
def test_a_context_that_may_hold_the_sources_is_no_finding(tmp_path: Path, commands: str) -> None:
    assert context_findings(tmp_path, DEPLOY, commands) == []


ROOTED = """\
FROM python:3.12-slim
COPY serving/xpu/docker/start.sh serving/xpu/docker/bench.py /llm/
COPY python/llm /llm/src
"""


def rooted_findings(root: Path, files: dict[str, str], commands: str) -> list[tuple[int, str, str]]:
    """audit of serving/xpu/docker/README.md (its commands in one shell block) against the Dockerfile
    next to it, with `root` as the project."""
    folder = root / "serving/xpu/docker"
    make_tree(folder, {"README.md": f"# Build\n\n```shell\n{commands}\n```\n", "Dockerfile": ROOTED})
    make_tree(root, files)
    model = build_model(folder / "Dockerfile", "Dockerfile")
    text = (folder / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, folder, root)]


def test_sources_written_from_a_folder_above_prove_the_context(tmp_path: Path) -> None:
    # The checkout lacks python/ and bench.py: the paths alone say the context is the top.
    found = rooted_findings(tmp_path, {"serving/xpu/docker/start.sh": ""}, "docker build -t app:latest .")
    assert found == [
        (
            4,
            "README builds ./Dockerfile with the context ., which cannot hold what it copies: "
            "serving/xpu/docker/start.sh (line 2) is written from the folder above serving/xpu/docker/ "
            "(build there with -f serving/xpu/docker/Dockerfile)",
            "certain",
        )
    ]
    # none of the files there: the two-folder path still tells, less surely
    assert [c for _, _, c in rooted_findings(tmp_path / "b", {}, "docker build -t app .")] == ["likely"]


@pytest.mark.parametrize(
    "commands",
    [
        "cd ../../..\ndocker build -f serving/xpu/docker/Dockerfile -t app .",  # from the top: true
        "docker build -f Dockerfile -t app ../../..",
    ],
)
def test_a_context_at_the_folder_the_sources_are_written_from(tmp_path: Path, commands: str) -> None:
    assert rooted_findings(tmp_path, {"serving/xpu/docker/start.sh": ""}, commands) == []


def test_a_context_missing_one_source_found_next_to_the_dockerfile(tmp_path: Path) -> None:
    files = {**DEPLOY, "settings.toml": ""}  # the top holds settings.toml, not hooks/
    found = context_findings(tmp_path, files, "docker build -f deploy/Dockerfile .")
    assert found == [
        (
            4,
            "README builds deploy/Dockerfile with the context ., which does not hold hooks (line 2) "
            "that it copies (is in deploy/)",
            "likely",
        )
    ]
    files["hooks/start.sh"] = ""  # both there: the true statement
    assert context_findings(tmp_path, files, "docker build -f deploy/Dockerfile .") == []


@pytest.mark.parametrize(
    "extra",
    [
        {".dockerignore": "hooks\n"},  # left out on purpose
        {"deploy/Dockerfile": SERVE.replace("COPY hooks", "COPY dist/hooks")},  # made by a build
        {"x/y": ""},  # the control: nothing ignored, hooks is missing from the context
    ],
)
def test_ignored_or_generated_sources_are_not_looked_for(tmp_path: Path, extra: dict[str, str]) -> None:
    files = {**DEPLOY, "settings.toml": "", **extra}
    expected = [4] if "x/y" in extra else []
    found = context_findings(tmp_path, files, "docker build -f deploy/Dockerfile .")
    assert [line for line, _, _ in found] == expected


@pytest.mark.parametrize(
    ("extra", "found"),
    [
        # the `.dockerignore` read as BuildKit reads it (`copied.dockerignore`), not as a `.gitignore`
        ({".dockerignore": "/hooks\n"}, False),  # a leading `/` is the context's top too
        ({".dockerignore": "**/hooks\n"}, False),  # `**` any depth, the top included
        ({".dockerignore": "hooks\n!hooks\n"}, True),  # `!` takes it back: hooks is sent, and missing
        ({".dockerignore": "*\n!settings.toml\n"}, False),  # all but one left out
        ({"deploy/Dockerfile.dockerignore": "hooks\n"}, False),  # the Dockerfile's own
        # the Dockerfile's own wins: the context's is not read, hooks is sent and missing
        ({"deploy/Dockerfile.dockerignore": "*.md\n", ".dockerignore": "hooks\n"}, True),
    ],
)
def test_a_dockerignore_read_by_buildkit_s_rules(tmp_path: Path, extra: dict[str, str], found: bool) -> None:
    files = {**DEPLOY, "settings.toml": "", **extra}
    lines = [line for line, _, _ in context_findings(tmp_path, files, "docker build -f deploy/Dockerfile .")]
    assert lines == ([4] if found else [])


@pytest.mark.parametrize(
    ("ignore", "found"),
    [
        ("hooks\n", True),  # BuildKit: a name without `/` is the context's top only, not conf/hooks
        ("**/hooks\n", False),  # any depth
        ("conf/hooks\n", False),
        ("conf\n", False),  # a folder above it
        ("conf/*\n", False),
    ],
)
def test_a_dockerignore_pattern_below_the_top(tmp_path: Path, ignore: str, found: bool) -> None:
    files = {
        **DEPLOY,
        "deploy/Dockerfile": SERVE.replace("COPY hooks", "COPY conf/hooks"),
        "deploy/conf/hooks/start.sh": "",
        "settings.toml": "",
        ".dockerignore": ignore,
    }
    lines = [line for line, _, _ in context_findings(tmp_path, files, "docker build -f deploy/Dockerfile .")]
    assert lines == ([4] if found else [])


def test_sources_found_in_no_one_folder_are_a_likely_wrong_context(tmp_path: Path) -> None:
    # the context holds none of them: one is beside the Dockerfile, the other nowhere (a partial copy, or a
    # file never committed): the build from `.` stops all the same, told as likely, naming both groups
    files = {"deploy/Dockerfile": SERVE, "deploy/hooks/start.sh": ""}
    assert context_findings(tmp_path, files, "docker build -f deploy/Dockerfile -t app .") == [
        (
            4,
            "README builds deploy/Dockerfile with the context ., which holds none of what it copies: hooks "
            "(line 2) is in deploy/; settings.toml (line 3) is in no folder of the project",
            "likely",
        )
    ]


# --------------------------------------------------------------------------------------------------
# Prerequisites, a dev host, another tool's requirement, a list of published images

CUDNN = """\
FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04
ARG PYTHON_VERSION=3.11
RUN apt-get update && apt-get install -y python${PYTHON_VERSION} libcudnn9-cuda-12=9.1.0.70-1
"""


def test_prerequisites_and_what_to_install_first_are_the_hosts() -> None:
    from helpers import findings

    readme = """\
## 1. Prerequisites

- Python 3.8 on the machine that converts models

## 2. Setup

You need to install the following basic components first:
a. Docker
b. Python 3.9

## 3. The image

The image ships Python 3.10.
"""
    assert findings(readme, {"Dockerfile": CUDNN}) == [
        "13: README says Python 3.10 but Dockerfile:2 says 3.11"
    ]


def test_a_step_on_a_dev_host_and_a_tools_requirement_are_not_the_images() -> None:
    from helpers import findings

    readme = """\
### Step 1: convert the model on an x86 dev host

Conversion needs Python 3.8.

### Step 2: serve it

`conv-kit` (the converter) **requires** Python 3.9 on any machine.

The container runs Python 3.10.
"""
    assert findings(readme, {"Dockerfile": CUDNN}) == [
        "9: README says Python 3.10 but Dockerfile:2 says 3.11"
    ]


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        # a dev box is as often the container (a dev-container image project) as the host
        (
            "# Devbox: a CUDA dev box\n\n## Dev box\n\nThe container runs Python 3.10.\n",
            ["5: README says Python 3.10 but Dockerfile:2 says 3.11"],
        ),
        (
            "# Devbox\n\n## The dev box\n\nIt ships Python 3.10.\n",
            ["5: README says Python 3.10 but Dockerfile:2 says 3.11"],
        ),
        # the reader's own box, or the box named as the host, is the host
        ("# Devbox\n\n## Set up your dev box\n\nInstall Python 3.10 first.\n", []),
        ("# Devbox\n\n## Steps on the build box host\n\nInstall Python 3.10 first.\n", []),
    ],
)
def test_a_dev_box_is_the_host_only_when_a_host_word_says_so(readme: str, expected: list[str]) -> None:
    from helpers import findings

    assert findings(readme, {"Dockerfile": CUDNN}) == expected


RUNTIME = "FROM pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime\nRUN pip install flask==3.0.3\n"


def test_a_list_of_published_images_is_not_the_current_base() -> None:
    from helpers import findings

    readme = """\
# Runtime image

## Available images

### Image 2.4.1

Base image: pytorch/pytorch:2.4.1-cuda12.4-cudnn9-runtime

```bash
docker pull example/runtime:20241005
```

### Image 2.5.1

Base image: pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime

```bash
docker pull example/runtime:20250119
```

## Base image

Base image: pytorch/pytorch:2.8.0-cuda12.8-cudnn9-runtime
"""
    assert findings(readme, {"Dockerfile": RUNTIME}) == [
        "23: README says pytorch/pytorch:2.8.0-cuda12.8-cudnn9-runtime but Dockerfile:1 says "
        "pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime"
    ]
    # Headed by dates, two sections pulling the same tag are no list of releases: each is the image's.
    dated = readme.replace("### Image 2.4.1", "### 20241005").replace("### Image 2.5.1", "### 20250119")
    same = dated.replace("runtime:20250119", "runtime:20241005")
    assert [f.split(":", 1)[0] for f in findings(same, {"Dockerfile": RUNTIME})] == ["7", "15", "23"]
    # The entry headed by the version built now is the image's: its base is compared, right or wrong.
    current = readme.replace(
        "## Base image\n",
        "### Image 2.9.0\n\nBase image: pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime\n\n"
        "```bash\ndocker pull example/runtime:20250901\n```\n\n## Base image\n",
    )
    assert [f.split(":", 1)[0] for f in findings(current, {"Dockerfile": RUNTIME})] == ["31"]
    stale = current.replace("2.9.0-cuda12.8-cudnn9-runtime\n\n```", "2.9.0-cuda12.6-cudnn9-runtime\n\n```")
    assert [f.split(":", 1)[0] for f in findings(stale, {"Dockerfile": RUNTIME})] == ["23", "31"]
    # Headed by versions the image is not built with, they are past releases whatever they pull.
    same = readme.replace("runtime:20250119", "runtime:20241005")
    assert [f.split(":", 1)[0] for f in findings(same, {"Dockerfile": RUNTIME})] == ["23"]


SERVICE = "FROM python:3.12.7-slim\nRUN pip install fastapi==0.115.0\n"

RELEASES = """\
# API server

## Published builds

### Version 0.110.0

- Built on python:3.10.14-slim
- Built on python:3.11.9-slim

### Version 0.112.0

| Component | Version |
|-----------|---------|
| Python    | 3.11.9  |
| FastAPI   | 0.112.0 |

### Version 0.115.0

- Python 3.12.7
- FastAPI 0.115.0
"""


def test_sections_of_past_releases_are_those_releases_however_many_entries() -> None:
    # two bases under one past release's heading, a table under another: the past, no claim
    assert findings(RELEASES, {"Dockerfile": SERVICE}) == []


def test_the_current_releases_section_is_still_compared() -> None:
    # the heading naming the version the Dockerfile pins (fastapi 0.115.0) is the image's
    stale = RELEASES.replace("- Python 3.12.7", "- Python 3.12.5")
    assert findings(stale, {"Dockerfile": SERVICE}) == [
        "19: README says Python 3.12.5 but Dockerfile:1 says 3.12.7"
    ]


def test_a_versioned_section_that_builds_is_no_past_release() -> None:
    # a section running `docker build` builds its variant now, from the Dockerfile: compared
    built = RELEASES.replace(
        "| FastAPI   | 0.112.0 |\n", "| FastAPI   | 0.112.0 |\n\n    docker build -t api:0.112.0 .\n"
    )
    assert findings(built, {"Dockerfile": SERVICE}) == [
        "14: README says Python 3.11.9 but Dockerfile:1 says 3.12.7",
        "15: README says FastAPI 0.112.0 but Dockerfile:2 says 0.115.0",
    ]


def test_sections_headed_by_a_components_versions_are_variants_not_releases() -> None:
    # `### Python 3.11` / `### Python 3.12`: versions of a component the image holds, each a claim
    readme = "# API server\n\n### Python 3.11\n\n- FastAPI 0.110.0\n\n### Python 3.12\n\n- FastAPI 0.115.0\n"
    assert findings(readme, {"Dockerfile": SERVICE}) == [
        "3: README says Python 3.11 but Dockerfile:1 says 3.12.7",
        "5: README says FastAPI 0.110.0 but Dockerfile:2 says 0.115.0",
    ]


def test_one_section_naming_a_version_is_no_list_of_releases() -> None:
    # no sibling names another version: the section describes the image, stale or current
    readme = "# API server\n\n## Version 0.112.0\n\n- Python 3.11.9\n"
    assert findings(readme, {"Dockerfile": SERVICE}) == [
        "5: README says Python 3.11.9 but Dockerfile:1 says 3.12.7"
    ]
    current = readme.replace("0.112.0", "0.115.0")
    assert findings(current, {"Dockerfile": SERVICE}) == [
        "5: README says Python 3.11.9 but Dockerfile:1 says 3.12.7"
    ]


def test_sibling_headings_with_other_words_are_no_list_of_releases() -> None:
    # `Changes in 2.1` and `Upgrading to 3.0` are two topics, not two releases of one thing
    readme = "# API server\n\n### Changes in 2.1\n\n- Python 3.11.9\n\n### Upgrading to 3.0\n\nText.\n"
    assert findings(readme, {"Dockerfile": SERVICE}) == [
        "5: README says Python 3.11.9 but Dockerfile:1 says 3.12.7"
    ]


# --------------------------------------------------------------------------------------------------
# A version the README gives the CI build, which a workflow file sets

CI_CUDA = 'ARG BASE=11.8.0-runtime-ubuntu22.04\nFROM nvidia/cuda:${BASE}\nCMD ["serve"]\n'
CI_WORKFLOW = """\
jobs:
  build-gpu:
    strategy:
      matrix:
        include:
          - base: 12.6.3-runtime-ubuntu22.04
    steps:
      - run: docker build -f Dockerfile.gpu --build-arg BASE=${{ matrix.base }} .
"""


@pytest.mark.parametrize(
    "said",
    [
        "The published image is built by GitHub Actions on CUDA 12.6.3 (see the `build-gpu` job).",
        "The GPU image is built on CUDA 12.6.3 by [the workflow](.github/workflows/images.yml).",
    ],
)
def test_a_version_given_to_the_ci_build_that_its_workflow_sets(tmp_path: Path, said: str) -> None:
    make_tree(tmp_path, {".github/workflows/images.yml": CI_WORKFLOW, "Dockerfile.gpu": CI_CUDA})
    assert findings(f"# GPU\n\n{said}\n", {"Dockerfile.gpu": CI_CUDA}, tmp_path) == []


@pytest.mark.parametrize(
    ("said", "files"),
    [
        # a version the workflow does not set: compared as before
        (
            "The published image is built by GitHub Actions on CUDA 12.4.1.",
            {".github/workflows/images.yml": CI_WORKFLOW},
        ),
        # no workflow file: nothing says the CI passes another value
        ("The published image is built by GitHub Actions on CUDA 12.6.3.", {}),
        # the version the workflow sets, in a sentence that is not about the CI build
        ("The image is built on CUDA 12.6.3.", {".github/workflows/images.yml": CI_WORKFLOW}),
    ],
)
def test_versions_the_ci_does_not_set_or_not_given_to_the_ci(
    tmp_path: Path, said: str, files: dict[str, str]
) -> None:
    make_tree(tmp_path, {**files, "Dockerfile.gpu": CI_CUDA})
    found = findings(f"# GPU\n\n{said}\n", {"Dockerfile.gpu": CI_CUDA}, tmp_path)
    assert len(found) == 1 and found[0].startswith("3: README says CUDA 12."), found


# --------------------------------------------------------------------------------------------------
# In a git checkout, a COPY source no folder holds is missing (a partial copy stays silent)

LONE = {"deploy/Dockerfile": SERVE, "deploy/hooks/start.sh": "", "deploy/ca.pem": ""}
"""(`ca.pem` for `COPY *.pem`: a pattern that matches nothing is a finding of its own in a checkout)"""


@pytest.mark.parametrize("git", [{".git/HEAD": "ref: refs/heads/main\n"}, {".git": "gitdir: /elsewhere\n"}])
def test_a_source_a_git_checkout_holds_nowhere(tmp_path: Path, git: dict[str, str]) -> None:
    found = context_findings(tmp_path, {**LONE, **git}, "docker build -f deploy/Dockerfile -t app deploy")
    assert found == [
        (
            4,
            "README builds deploy/Dockerfile with the context deploy, which does not hold settings.toml "
            "(line 3) that it copies, in a git checkout that holds every file",
            "certain",  # one file of the context's top: the build stops there
        )
    ]


@pytest.mark.parametrize(
    "files",
    [
        # no .git, and the context lacks a folder it copies too: a copy of some of the project's files
        {"deploy/Dockerfile": SERVE},
        {**LONE, ".git/HEAD": "", "deploy/settings.toml": ""},  # the true statement
        {**LONE, ".git/HEAD": "", ".gitignore": "settings.toml\n"},  # ignored: made by the reader
    ],
)
def test_a_source_missing_outside_a_git_checkout_or_ignored_is_no_finding(
    tmp_path: Path, files: dict[str, str]
) -> None:
    assert context_findings(tmp_path, files, "docker build -f deploy/Dockerfile -t app deploy") == []


def test_a_dockerignore_is_no_reason_for_a_source_to_be_missing(tmp_path: Path) -> None:
    """A source the `.dockerignore` leaves out is not sent to the builder: missing from the checkout too,
    the COPY fails all the same (a `.gitignore`d one is the reader's to make)."""
    files = {**LONE, ".git/HEAD": "", "deploy/.dockerignore": "settings.toml\n"}
    found = context_findings(tmp_path, files, "docker build -f deploy/Dockerfile -t app deploy")
    assert [(line, confidence) for line, _, confidence in found] == [(4, "certain")]
    assert "settings.toml (line 3)" in found[0][1]


@pytest.mark.parametrize("folder", ["cmake-build-release", "cmake-build-debug", "build"])
def test_binaries_an_ide_or_cmake_build_leaves_are_made_not_missing(tmp_path: Path, folder: str) -> None:
    """A Dockerfile that packages what a local CMake build made (CLion's `cmake-build-release/`) copies
    files no checkout holds on purpose; a source in another folder is still missing (the trap)."""
    dockerfile = f"FROM ubuntu:22.04\nCOPY {folder}/server /app/\nCOPY config/server.toml /app/\n"
    files = {"deploy/Dockerfile": dockerfile, "config/server.toml": "", ".git/HEAD": ""}
    assert context_findings(tmp_path / "a", files, "docker build -f deploy/Dockerfile -t app .") == []
    del files["config/server.toml"]
    assert context_findings(tmp_path / "b", files, "docker build -f deploy/Dockerfile -t app .") == [
        (
            4,
            "README builds deploy/Dockerfile with the context ., which does not hold config/server.toml "
            "(line 3) that it copies, in a git checkout that holds every file",
            "likely",
        )
    ]


# --------------------------------------------------------------------------------------------------
# A pin in an instruction to edit a file, or given as an example of how to write one


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("For reproducible builds, pin each line (e.g. turn `torch>=2.0.0` into `torch==2.0.0`).", []),
        ("To freeze it, change `torch>=2.0.0` to `torch==2.0.0` in requirements.txt.", []),
        ("Replace `torch==2.1.0` with the release your code needs.", []),
        ("需要固定版本时，请将`torch>=2.0.0`修改为`torch==2.0.0`。", []),
        ("需要固定版本时（比如`torch==2.0.0`），编辑 requirements.txt。", []),
        ("Write exact pins, such as `torch==2.0.0`, in your own file.", []),
        # the trap: the same pin said of the image, and a lower bound the image does not meet
        ("The image installs `torch==2.0.0`.", [(1, "README says torch 2.0.0 but Dockerfile:6 says 2.6.0")]),
        (
            "After the upgrade the image holds `torch>=2.8.0`.",
            [(1, "README says torch>=2.8.0 but Dockerfile:6 says 2.6.0")],
        ),
        # a lower bound the image meets is true, whatever the version it names
        ("The image needs `torch>=2.0.0`.", []),
    ],
)
def test_a_pin_in_an_instruction_to_edit_a_file_is_no_claim(
    sentence: str, expected: list[tuple[int, str]]
) -> None:
    assert found(sentence + "\n") == expected


# --------------------------------------------------------------------------------------------------
# The keys of a build script's configuration files

SCRIPTED = """\
ARG ROCM_BASE=rocm/dev-ubuntu-24.04:7.1-complete
ARG GPU_TARGET=gfx1100
ARG CMAKE_BUILD_TYPE=Release
FROM ${ROCM_BASE}
ARG GPU_TARGET
ARG CMAKE_BUILD_TYPE
RUN cmake -DAMDGPU_TARGETS=${GPU_TARGET} -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} . && make
"""

KEYS = """\
| Variable | Used for |
|---|---|
| `ROCM_BASE` | Development base image |
| `GPU_TARGET` | LLVM target the backend is compiled for |
| `IMAGE_LABEL` | Name fragment for the image tag |
"""


def scripted(readme: str) -> list[tuple[int, str]]:
    model = model_of(parse_dockerfile(SCRIPTED, "Dockerfile"))
    return [(d.line, d.message) for d in audit(readme, "README.md", model)]


@pytest.mark.parametrize(
    "headings",
    [
        "## Build config files\n\n`build.sh` reads three files.\n\n### Architectures\n\n",
        "## Configuration\n\n### Neutral axis (`conf/build-config.env`)\n\n",
        "## Settings in `.env`\n\n",
    ],
)
def test_a_table_of_a_scripts_configuration_keys_names_no_build_arg(headings: str) -> None:
    # two of three names are the image's ARGs, the third is the script's (it names the tag): the table
    # lists what the script reads from its files, not the Dockerfile's build args
    assert scripted(f"# Image\n\n{headings}{KEYS}") == []


def test_the_same_table_not_said_to_be_a_configuration_files_is_a_build_argument_table() -> None:
    readme = f"# Image\n\n## Variables\n\n### Architectures\n\n{KEYS}"
    line = readme.splitlines().index("| Variable | Used for |") + 1
    assert scripted(readme) == [
        (line, "build arg CMAKE_BUILD_TYPE (Dockerfile:3) is missing from the README's build-argument table"),
        (line + 4, "README documents build arg IMAGE_LABEL but Dockerfile does not declare it"),
    ]
    # naming Docker's arguments, a configuration file's table is the Dockerfile's build args again
    docker = readme.replace("## Variables", "## Config files passed as `--build-arg`")
    assert [message for _, message in scripted(docker)] == [message for _, message in scripted(readme)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Architectures Build config files llama", True),
        ("Neutral axis (`conf/build-config.env`)", True),
        ("Copy `.env.example` to .env and set:", True),
        ("Environment file", True),
        ("Build config files, each passed to the Dockerfile", False),
        ("Build config files read with --build-arg", False),
        ("Build arguments", False),
        ("Configure the build", False),
    ],
)
def test_what_names_configuration_files(text: str, expected: bool) -> None:
    assert config_file_keys(text) is expected


# --------------------------------------------------------------------------------------------------
# The machine the author tested on, and the host's GPU check

DEVCONTAINER = (
    "FROM nvidia/cuda:12.1.1-base-ubuntu22.04\nRUN apt-get update && apt-get install -y python3-pip\n"
)


def _devcontainer(readme: str) -> list[tuple[int, str, str]]:
    model = model_of(parse_dockerfile(DEVCONTAINER, "Dockerfile"))
    return [(d.line, d.message, d.confidence) for d in audit(readme, "README.md", [model], {})]


HOST_TABLE = "| item | version |\n|---|:-:|\n| NVIDIA Driver | 536.23 |\n| CUDA Toolkit | 11.1 |\n"


@pytest.mark.parametrize(
    "heading",
    [
        "## Tested Environment",
        "### Verified setup",
        "## Tested on",
        "## 検証環境",
        "## Environment tested",
        "### Tested ENV",  # the abbreviation
        "## Envs tested",
    ],
)
def test_a_table_of_the_machine_the_author_tested_on_is_the_hosts(heading: str) -> None:
    base = "- **Base Image**: `nvidia/cuda:12.1.1-base-ubuntu22.04`"
    readme = f"# pytorch-cuda-devcontainer\n\n{base}\n\n{heading}\n\n{HOST_TABLE}"
    assert _devcontainer(readme) == []


@pytest.mark.parametrize(
    "heading",
    [
        "## Environment",  # the image's
        "## Testing",  # running the tests, in the image
        "# Warp C++ Test Environment",  # an image made for tests
        "## Test ENV",  # the same, abbreviated
        "## Tested with",  # what the image was tested with may be its components
        "## Tested environment (inside the container)",  # the image named
        "# ComfyUI verified on RTX 4090",  # the README's title: what all of it is about
    ],
)
def test_a_table_under_another_heading_is_compared(heading: str) -> None:
    readme = f"# devcontainer\n\n{heading}\n\n{HOST_TABLE}"
    assert _devcontainer(readme) == [
        (8, "README says CUDA Toolkit 11.1 but Dockerfile:1 says 12.1.1", "certain")
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "The above results show that NVIDIA graphics drivers are correctly installed (580.95.05), "
        "and the CUDA runtime environment is visible (CUDA 13.0).",
        "Running `nvidia-smi` shows CUDA 13.0, the newest the driver supports.",
        "If the drivers are not installed, CUDA 13.0 is not visible either.",
    ],
)
def test_a_sentence_reading_the_hosts_gpu_check_is_no_claim(sentence: str) -> None:
    readme = f"# ComfyUI\n\n## Troubleshooting\n\n{sentence}\n"
    assert _devcontainer(readme) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The image ships CUDA 13.0.",
        # the GPU check, but the sentence names the container too: still read
        "`nvidia-smi` works once the drivers are installed, and the container has CUDA 13.0.",
    ],
)
def test_a_sentence_naming_the_image_is_still_read(sentence: str) -> None:
    readme = f"# ComfyUI\n\n## Troubleshooting\n\n{sentence}\n"
    assert [message for _, message, _ in _devcontainer(readme)] == [
        "README says CUDA 13.0 but Dockerfile:1 says 12.1.1"
    ]


PYTHON_311 = "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3.11 python3.11-venv\n"
PY310 = "README says Python 3.10 but Dockerfile:2 says 3.11"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # why the image needs another Python: what the distribution has by default
        ("Ubuntu 22.04 (JetPack 6.2) defaults to Python 3.10. Immich requires `>=3.11`.", []),
        ("Debian 12 ships Python 3.10 by default.", []),
        # the clause after it is still the image's
        (
            "Ubuntu 22.04 defaults to Python 3.10, so the image installs Python 3.12.",
            [(1, "README says Python 3.12 but Dockerfile:2 says 3.11")],
        ),
        (
            "Ubuntu 22.04 has Python 3.10 by default and the image adds Python 3.12.",
            [(1, "README says Python 3.12 but Dockerfile:2 says 3.11")],
        ),
        # the nearest truths: what the image has, in a list of its parts, without `by default`
        ("- Ubuntu 22.04 comes with Python 3.10", [(1, PY310)]),
        ("The image ships Python 3.10.", [(1, PY310)]),
    ],
)
def test_what_the_distribution_has_by_default_is_no_claim(text: str, expected: list[tuple[int, str]]) -> None:
    model = model_of(parse_dockerfile(PYTHON_311, "Dockerfile"))
    found = [(d.line, d.message) for d in audit(text + "\n", "README.md", model)]
    assert found == expected


# --------------------------------------------------------------------------------------------------
# Another tool's argument, a script option's default and a note of a docs page (facorpus2)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # the argument is `make`'s: the README passes it on a `make` command line
        ("The argument `DOCKER_PULL=1` instructs `make` to pull the image first.", []),
        ("The argument `JOBS=4` is read by `cmake -S .` only.", []),
        # the same shape, an argument of the build, and build args named as such next to `make`
        ("The argument `DOCKER_PULL=1` pulls the image first.", [(1, undeclared("DOCKER_PULL"))]),
        ("The build argument `DOCKER_PULL=1` is read by `make`.", [(1, undeclared("DOCKER_PULL"))]),
    ],
)
def test_an_argument_of_a_build_tool_named_in_code_is_no_build_arg(
    sentence: str, expected: list[tuple[int, str]]
) -> None:
    assert found(sentence + "\n") == expected


STALE_CUDA = (1, "README says CUDA 12.1 but Dockerfile:2 says 13.0")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # the default of a script's option, which the script passes: not the Dockerfile's
        ("You can set the CUDA version with `--docker_cuda` (default version set at CUDA=12.1).", []),
        ("Pick the toolkit with `./run.sh --cuda-version`, default CUDA 12.1.", []),
        # no option: the image's default; a build arg's default is the ARG's; an image named between
        ("You can set the CUDA version (default version set at CUDA=12.1).", [STALE_CUDA]),
        ("Build with `--build-arg CUDA_VERSION=12.4` (default CUDA 12.1).", [STALE_CUDA]),
        ("With `--gpus all` the default image has CUDA 12.1.", [STALE_CUDA]),
    ],
)
def test_a_version_said_to_be_an_options_default_is_the_scripts(
    sentence: str, expected: list[tuple[int, str]]
) -> None:
    assert found(sentence + "\n") == expected


def test_a_fenced_block_in_a_docs_note_is_a_fence() -> None:
    # MkDocs (Python-Markdown) reads the indented body of `!!! note` and `=== "Tab"` as Markdown: the
    # host's `pip3 install` shown in a note is a command block, not a line of prose about the image
    note = (
        "## Development environment\n\n!!! Note\n    For GPU support, install PyTorch for your CUDA:\n"
        "    ```shell\n    # For CUDA support (example for CUDA 11.8):\n    pip3 install torch==2.1.0\n"
        "    ```\n"
    )
    assert found(note) == []
    # a package list in a content tab is still the image's, read as a block of pins
    tab = '## Versions\n\n=== "CUDA"\n    ```text\n    torch==2.1.0\n    cmake==3.31.6\n    ```\n'
    assert found(tab) == [(5, "README says torch 2.1.0 but Dockerfile:6 says 2.6.0")]


# --------------------------------------------------------------------------------------------------
# A catalogue of pushed image tags, each entry built with its own build args (sweep19: a DGX image
# family whose README lists every pushed tag with its versions, the Dockerfile's defaults an older set)

STACK_BASE = """\
ARG GPU_VERSION=12.8.0
ARG TORCH_VERSION=2.7.0
FROM nvidia/cuda:${GPU_VERSION}-devel-ubuntu24.04
ARG TORCH_VERSION
ARG SERVE_VERSION=0.21.0
RUN pip install torch==${TORCH_VERSION} servekit==${SERVE_VERSION}
"""

CATALOGUE = """\
# Spark stacks

## Available Images

#### Latest Releases

##### Servekit 0.24.0

- `acme/spark-serve:0.24.0-r2`
    - Servekit 0.24.0
    - PyTorch 2.9.0
    - CUDA 12.9.1

- `acme/spark-serve:0.24.0-r3`
    - Same as above, with a newer tokenizer

##### Servekit 0.23.2

- `acme/spark-serve:0.23.2-r2`
    - Servekit 0.23.2
    - PyTorch 2.8.0
    - CUDA 12.9.0

### Development base

- **`acme/spark-torch-dev:2.9.0-cu129`**
    - PyTorch 2.9.0
    - Built on `nvidia/cuda:12.9.1-devel-ubuntu24.04`

- **`acme/spark-torch-dev:2.8.0-cu129`**
    - PyTorch 2.8.0
    - Built on `nvidia/cuda:12.9.0-devel-ubuntu24.04`

## Tags

- `0.24.0-r3` → Servekit 0.24.0 with release 3 of the tokenizer
"""


def test_a_catalogue_of_pushed_tags_is_not_compared_with_the_defaults() -> None:
    # each entry names a tag of its own with a version the Dockerfile is not built with: its build args
    assert findings(CATALOGUE, {"Dockerfile": STACK_BASE}) == []


def test_the_catalogue_entry_of_the_version_built_now_is_compared() -> None:
    # the entry whose tag names the default (0.21.0) is what the Dockerfile builds: a stale CUDA in it is
    current = CATALOGUE.replace(
        "### Development base",
        "##### Servekit 0.21.0\n\n- `acme/spark-serve:0.21.0-r2`\n    - Servekit 0.21.0\n"
        "    - CUDA 12.6.3\n\n### Development base",
    )
    assert findings(current, {"Dockerfile": STACK_BASE}) == [
        "28: README says CUDA 12.6.3 but Dockerfile:1 says 12.8.0"
    ]


def test_one_pushed_tag_alone_is_no_catalogue() -> None:
    # a single entry is the image the README documents: its versions are claims
    single = "# Spark stacks\n\n- `acme/spark-serve:0.24.0-r2`\n    - PyTorch 2.9.0\n"
    assert findings(single, {"Dockerfile": STACK_BASE}) == [
        "4: README says PyTorch 2.9.0 but Dockerfile:2 says 2.7.0"
    ]


def test_entries_whose_tags_name_no_version_are_no_catalogue() -> None:
    # `:latest` and `:latest-cpu` are the current build's names: what they hold is compared
    latest = (
        "# Spark stacks\n\n- `acme/spark-serve:latest`\n    - PyTorch 2.9.0\n\n"
        "- `acme/spark-serve:latest-cpu`\n    - PyTorch 2.9.0\n"
    )
    assert findings(latest, {"Dockerfile": STACK_BASE}) == [
        "4: README says PyTorch 2.9.0 but Dockerfile:2 says 2.7.0; also at line 7"
    ]


VOLTA = "FROM nvidia/cuda:12.6.3-devel-ubuntu22.04\nRUN cmake -B build -DCMAKE_CUDA_ARCHITECTURES=70\n"


@pytest.mark.parametrize(
    "said",
    [
        "These images stay on CUDA 12.6.3 for Volta. CUDA 13.0+ has removed sm_70 offline compilation.",
        "CUDA 13.0 and later dropped Volta, so the image keeps an older toolkit.",
        "Note: CUDA 12.8+ deprecates Maxwell, Pascal and Volta.",
        "The image pins an older toolkit since CUDA 13.0 no longer supports sm_70.",
    ],
)
def test_the_release_a_sentence_says_removed_something_is_no_claim(said: str) -> None:
    # what that release changed is why the image stays on another one, not what it holds
    assert findings(f"# Volta images\n\n{said}\n", {"Dockerfile": VOLTA}) == []


def test_a_floor_the_image_needs_and_the_image_s_own_version_are_still_claims() -> None:
    readme = """\
# Volta images

These images use CUDA 12.4, which dropped an old driver branch.

CUDA 12.8+ required.

The image keeps CUDA 12.4 because CUDA 13.0 removed sm_70.

Requires a host driver supporting CUDA 13.1+.
"""
    # `, which dropped`: the version before the comma is the image's; a bare floor is a need (both
    # contradict 12.6.3); the host driver's floor is the host's
    assert findings(readme, {"Dockerfile": VOLTA}) == [
        "3: README says CUDA 12.4 but Dockerfile:1 says 12.6.3; also at line 7",
        "5: README says CUDA 12.8+ but Dockerfile:1 says 12.6.3",
    ]


# --------------------------------------------------------------------------------------------------
# Entries of a list of builds labelled alike, one of them the image built now


def base_found(readme: str, base: str) -> list[tuple[int, str]]:
    dockerfile = f"FROM {base}\nRUN pip install torch==2.9.0\nWORKDIR /app\n"
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [(d.line, d.message) for d in audit(readme, "README.md", model)]


# modelled on a lab runtime's README: one list item per published build
BUILD_ITEMS = """\
# Lab runtime

## Published builds

- **Base image:** `nvidia/cuda:12.4.1-runtime-ubuntu22.04`, pulled as `acme/lab:2024-10`
- **Base image:** `nvidia/cuda:12.8.1-runtime-ubuntu24.04`, pulled as `acme/lab:2025-03`
"""
# modelled on a PyTorch base image's README: a label line and a pull block per build, two under one heading
BUILD_BLOCKS = """\
# Torch runtime

## Releases

### Torch 2.9

Base Image: pytorch/pytorch:2.9.0-cuda13.0-cudnn9-runtime

```bash
docker pull acme/torch-runtime:05112025
```

Base Image: pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime

```bash
docker pull acme/torch-runtime:08112025
```
"""
CUDA_128 = "nvidia/cuda:12.8.1-runtime-ubuntu24.04"
TORCH_128 = "pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime"


@pytest.mark.parametrize(
    ("readme", "base", "expected"),
    [
        # one entry is the image built now: the others are earlier builds
        (BUILD_ITEMS, CUDA_128, []),
        (BUILD_ITEMS, "nvidia/cuda:12.4.1-runtime-ubuntu22.04", []),
        (BUILD_BLOCKS, TORCH_128, []),
        (BUILD_BLOCKS, f"docker.io/{TORCH_128}", []),
        # none is: which one the README means is not known, each is compared
        (
            BUILD_ITEMS,
            "nvidia/cuda:12.9.0-runtime-ubuntu24.04",
            [
                (
                    5,
                    "README says nvidia/cuda:12.4.1-runtime-ubuntu22.04 but Dockerfile:1 says "
                    "nvidia/cuda:12.9.0-runtime-ubuntu24.04",
                ),
                (
                    6,
                    "README says nvidia/cuda:12.8.1-runtime-ubuntu24.04 but Dockerfile:1 says "
                    "nvidia/cuda:12.9.0-runtime-ubuntu24.04",
                ),
            ],
        ),
        # one entry alone is a claim, whatever its label
        (
            "# Lab runtime\n\n- **Base image:** `nvidia/cuda:12.4.1-runtime-ubuntu22.04`\n",
            CUDA_128,
            [(3, "README says nvidia/cuda:12.4.1-runtime-ubuntu22.04 but Dockerfile:1 says " + CUDA_128)],
        ),
        # a placeholder is no entry: the one real entry is still compared
        (
            BUILD_ITEMS.replace("nvidia/cuda:12.8.1-runtime-ubuntu24.04", "nvidia/cuda:<version>-runtime"),
            CUDA_128,
            [(5, "README says nvidia/cuda:12.4.1-runtime-ubuntu22.04 but Dockerfile:1 says " + CUDA_128)],
        ),
    ],
)
def test_entries_labelled_alike_beside_the_one_built_now_are_earlier_builds(
    readme: str, base: str, expected: list[tuple[int, str]]
) -> None:
    assert base_found(readme, base) == expected


# modelled on a transcription service's variants page (one `**Base Image:**` line under each variant's
# heading, the variant's Dockerfile named by a `**File:**` line) and on a whisper image's GPU/CPU pair
VARIANT_BASES = """\
# Image variants

## Variants

### 1. ROCm variant

**File:** `Dockerfile`

**Base Image:** `{rocm}`

### 2. CPU variant

**File:** `Dockerfile.cpu`

**Base Image:** `python:3.11-slim`

### 3. CUDA variant

**File:** `Dockerfile.cuda`

**Base Image:** `{cuda}`
"""
ROCM_702 = "rocm/dev-ubuntu-22.04:7.0.2"
CUDA_131 = "nvidia/cuda:13.1.0-runtime-ubuntu22.04"


def variants_found(readme: str, bases: dict[str, str]) -> list[tuple[int, str]]:
    models = [
        model_of(parse_dockerfile(f"FROM {base} AS base\nRUN pip install torch==2.4.1\n", name))
        for name, base in bases.items()
    ]
    return [(d.line, d.message) for d in audit(readme, "docs/VARIANTS.md", models)]


VARIANTS = {"Dockerfile": ROCM_702, "Dockerfile.cpu": "python:3.11-slim", "Dockerfile.cuda": CUDA_131}


def test_entries_labelled_alike_naming_each_variant_s_base_are_each_a_claim() -> None:
    # one entry names a base built now, the others the repositories of its siblings' bases: each is the
    # claim of its own variant (its section's `**File:**`), not an earlier build
    assert variants_found(VARIANT_BASES.format(rocm=ROCM_702, cuda=CUDA_131), VARIANTS) == []
    drifted = VARIANT_BASES.format(
        rocm="rocm/dev-ubuntu-22.04:6.0.2", cuda="nvidia/cuda:12.1.0-runtime-ubuntu22.04"
    )
    assert variants_found(drifted, VARIANTS) == [
        (9, f"README says rocm/dev-ubuntu-22.04:6.0.2 but Dockerfile:1 says {ROCM_702}"),
        (21, f"README says nvidia/cuda:12.1.0-runtime-ubuntu22.04 but Dockerfile.cuda:1 says {CUDA_131}"),
    ]
    # trap: with the CUDA variant's Dockerfile not audited, its entry is another image's, left alone
    two = {name: base for name, base in VARIANTS.items() if name != "Dockerfile.cuda"}
    assert [line for line, _ in variants_found(drifted, two)] == [9]


def test_a_changelog_table_of_bases_under_its_heading_is_not_compared() -> None:
    readme = (
        "# Lab runtime\n\nBuilt on `nvidia/cuda:12.8.1-runtime-ubuntu24.04`.\n\n## Changelog\n\n"
        "| Date | Base |\n|---|---|\n| 2024-10 | `nvidia/cuda:12.4.1-runtime-ubuntu22.04` |\n"
    )
    assert base_found(readme, CUDA_128) == []
    drifted = readme.replace("Built on `nvidia/cuda:12.8.1", "Built on `nvidia/cuda:12.6.3")
    assert [line for line, _ in base_found(drifted, CUDA_128)] == [3]


# --------------------------------------------------------------------------------------------------
# A list item describing a sibling image's README or Dockerfile

SIBLING_README = """\
# Arch image

Built on Arch Linux with ROCm.

## Related

- **`docker/gpu/README.md`** — Ubuntu-based GPU image (source build, no pacman).
- [`cuda/Dockerfile`](../cuda/Dockerfile): the Ubuntu-based CUDA image.
"""


def sibling_found(root: Path, readme: str) -> list[tuple[int, str]]:
    make_tree(
        root,
        {
            "docker/arch/README.md": readme,
            "docker/arch/Dockerfile": "FROM archlinux:latest\nRUN pacman -Syu --noconfirm\n",
        },
    )
    model = build_model(root / "docker/arch/Dockerfile", "docker/arch/Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "docker/arch/README.md", model, {}, root / "docker/arch", root)
        if "Ubuntu" in d.message
    ]


def test_what_an_item_says_of_a_sibling_readme_or_dockerfile_is_not_compared(tmp_path: Path) -> None:
    assert sibling_found(tmp_path, SIBLING_README) == []


@pytest.mark.parametrize(
    "item",
    [
        "- Ubuntu-based GPU image (source build, no pacman).",  # no file named: the image's own
        "- **`docker/arch/README.md`** — Ubuntu-based image.",  # the audited image's own folder
        "- [`Dockerfile`](Dockerfile): the Ubuntu-based image.",  # the audited Dockerfile
    ],
)
def test_an_item_about_the_audited_image_is_still_compared(tmp_path: Path, item: str) -> None:
    readme = SIBLING_README.replace(
        "- **`docker/gpu/README.md`** — Ubuntu-based GPU image (source build, no pacman).", item
    )
    assert [line for line, _ in sibling_found(tmp_path, readme)] == [7]


# -- a CI section: the runner's toolchain is no claim about the image

SLIM = """\
FROM python:3.10-slim
WORKDIR /app
COPY . .
CMD ["python", "serve.py"]
"""
"""Modelled on a small Python service image."""

PIPELINE = """\
# Captioner

## CI/CD Pipeline

### Stages
1. **Test stage**:
   - Sets up Python 3.11 environment
   - Runs `pytest`
2. **Build stage**: builds and pushes the image.

## Usage
Run `docker run captioner`.
"""
"""Modelled on a fine-tuning demo whose README describes its GitHub Actions jobs."""

ACTIONS = """\
# Geo tiles

Everything runs in the container (Python 3.10).

## Continuous integration

The workflow uses `actions/setup-python` with Python 3.12 to lint the code.
"""
"""Modelled on a map tile server's README with a lint job."""


def python_claims(readme: str) -> list[tuple[int, str]]:
    model = model_of(parse_dockerfile(SLIM, "Dockerfile"))
    return [(d.line, d.message) for d in audit(readme, "README.md", model) if "Python" in d.message]


@pytest.mark.parametrize("readme", [PIPELINE, ACTIONS])
def test_a_ci_jobs_python_is_the_runners(readme: str) -> None:
    assert python_claims(readme) == []


@pytest.mark.parametrize(
    ("readme", "line"),
    [
        # the same section, a sentence about the image: still compared
        (PIPELINE.replace("builds and pushes the image.", "builds the Docker image on Python 3.11."), 9),
        # the same words outside a CI section
        (PIPELINE.replace("## CI/CD Pipeline", "## Environment"), 7),
        # an inference pipeline is the image's software, no CI
        (PIPELINE.replace("## CI/CD Pipeline", "## Inference pipeline"), 7),
    ],
)
def test_the_image_named_in_a_ci_section_or_no_ci_section(readme: str, line: int) -> None:
    assert python_claims(readme) == [(line, "README says Python 3.11 but Dockerfile:1 says 3.10")]


ROCM_IMAGE = """\
FROM rocm/dev-ubuntu-22.04:5.7-complete
RUN pip install torch==2.3.1 && pip install transformers==4.40.0
RUN git clone --branch v0.3.60 https://github.com/comfyanonymous/ComfyUI /opt/ComfyUI
ENV PYTHON_VERSION=3.10
"""


def _rocm(readme: str) -> list[str]:
    return findings(readme, {"Dockerfile": ROCM_IMAGE})


def test_a_japanese_prerequisites_heading_is_the_hosts() -> None:
    readme = (
        "# ComfyUI for Radeon\n\n## 前提\n\n- Ubuntu 24.04 LTS\n- Docker 24 以降\n\n"
        "## イメージの構成\n\n- ベース: Ubuntu 20.04\n"  # line 10: planted, the image's base
    )
    assert _rocm(readme) == ["10: README says Ubuntu 20.04 but Dockerfile:1 says 22.04"]


def test_what_a_japanese_or_chinese_clause_says_another_component_requires_is_not_the_images() -> None:
    readme = (
        "# ComfyUI for Radeon\n\n## 制約\n\n"
        "`transformers >= 4.45` は `torch >= 2.4` を要求するため、一部のノードは動かない。\n\n"
        "新しい ComfyUI を使うには PyTorch 2.5 + rocm6.x の組み合わせを実験するしかない。\n\n"
        "新版 xformers 依赖 torch 2.6。\n\n"
        "## 構成\n\nこのイメージは PyTorch 2.2 を要求する。\n"  # line 13: planted, the image's own
    )
    assert _rocm(readme) == ["13: README says PyTorch 2.2 but Dockerfile:2 says 2.3.1"]


def test_a_release_named_as_what_removed_something_is_not_the_images() -> None:
    readme = (
        "# ComfyUI for Radeon\n\n## ROCm のサポート状況\n\n"
        "- ROCm 6.4.0 で rocBLAS の gfx906 用ライブラリが同梱されない\n"
        "- ROCm 6.2 起不再支持 gfx906\n\n"
        "## 構成\n\n- ROCm 6.1\n"  # line 10: planted
    )
    assert _rocm(readme) == ["10: README says ROCm 6.1 but Dockerfile:1 says 5.7"]


def test_a_newer_release_a_sentence_hedges_about_is_not_the_images() -> None:
    readme = (
        "# Course image\n\n## Python\n\n"
        "* **Recommended:** Python 3.10\n"
        "* **Note:** Python 3.13+ may have limited PyTorch wheels; use Docker.\n"
        "* CUDA 13 or later lacks kernels for old GPUs.\n\n"
        "The image runs Python 3.12.\n"  # line 9: planted
    )
    assert _rocm(readme) == ["9: README says Python 3.12 but Dockerfile:4 says 3.10 (ENV PYTHON_VERSION)"]
