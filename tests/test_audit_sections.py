"""`docgen.audit.sections`: which image a section of the README is about. A heading saying `Community`,
`Third-party` or `Unofficial` is over images others build, except the README's own title (its first
heading, at level 1): `# Unofficial CUDA image for LAMMPS` says what this project is."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build
ARG GPU_SM=sm_80
RUN git clone https://github.com/example/md-engine.git && make -C md-engine ARCH=${GPU_SM}

FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
WORKDIR /work
COPY --from=build /md-engine/bin/md /opt/md
"""

BODY = """\
Builds the engine for one GPU: the upstream images skip sm_75.

### Build

```bash
docker build --build-arg GPU_ARCH=sm_89 -t md:0.1 .
```

The image is built on Ubuntu 20.04.
"""


def found(root: Path, readme: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", [model], {}, root)]


def drifts(first: int) -> list[str]:
    """The two drifts of `BODY` when it starts at line `first`."""
    return [
        f"{first + 5}: README documents build arg GPU_ARCH but Dockerfile does not declare it (certain)",
        f"{first + 8}: README says Ubuntu 20.04 but Dockerfile:5 says 22.04 (likely)",
    ]


@pytest.mark.parametrize(
    "title",
    [
        "# Unofficial CUDA Dockerfile for the MD engine",
        "# MD engine (community build)",
        "# Third-party GPU image of the MD engine",
        "MD engine, unofficial CUDA image\n================================",
    ],
)
def test_a_title_calling_the_project_unofficial_keeps_its_claims(tmp_path: Path, title: str) -> None:
    # the title says what this project is next to upstream's: the README is about the Dockerfile
    assert found(tmp_path, f"{title}\n\n{BODY}") == drifts(title.count("\n") + 3)


@pytest.mark.parametrize(
    "readme",
    [
        # a section about others' images below a plain title
        f"# MD engine\n\nSee below.\n\n## Community images\n\n{BODY}",
        # the first heading is a section, not a title
        f"Notes first.\n\n## Unofficial builds\n\n{BODY}",
        # a second level-1 heading is no title: the images under it are others'
        f"# Unofficial CUDA image for the MD engine\n\nSee below.\n\n# Community images\n\n{BODY}",
    ],
)
def test_a_community_section_is_still_about_others_images(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


# --------------------------------------------------------------------------------------------------
# A build command the block says is an example of the family (sweep19: `# replace the version number
# cu124 with the one you want to use` over `docker build -f Dockerfile.cu124 .`)

KERNEL_CUDA = "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nRUN echo cuda\n"
KERNEL_ROCM = "FROM rocm/dev-ubuntu-24.04:6.2-complete\nRUN echo rocm\n"
KERNEL_README = """\
The image ships ROCm 6.1 for AMD cards.

```bash
cd kernels/docker
{note}
docker build -t kernels -f Dockerfile.cu121 .
```
"""


def kernel_findings(note: str) -> list[str]:
    readme = KERNEL_README.format(note=note)
    return findings(readme, {"docker/Dockerfile.cu121": KERNEL_CUDA, "docker/Dockerfile.rocm": KERNEL_ROCM})


def test_a_build_the_block_says_to_replace_is_about_every_image() -> None:
    # the -f is an example: the text is compared with the family, and the ROCm image has 6.2
    expected = ["1: README says ROCm 6.1 but docker/Dockerfile.rocm:1 says 6.2"]
    assert kernel_findings("# replace cu121 with the CUDA release you want") == expected
    assert kernel_findings("# replace .cu* with .rocm for AMD GPUs") == expected


@pytest.mark.parametrize(
    "note",
    [
        "",  # no comment: the build is the image this README documents
        "# change the tag to your registry",  # a comment replacing something else
    ],
)
def test_a_build_with_no_note_to_replace_its_dockerfile_ties_the_section(note: str) -> None:
    # tied to the CUDA image alone: its ROCm is no version to compare, only an absent component
    found = kernel_findings(note)
    assert len(found) == 1 and "docker/Dockerfile.cu121 installs no ROCm" in found[0]


# A heading naming a folder's whole name with other words: the section is about that folder's image
NOTEBOOKS = {
    "gpu-notebook/Dockerfile": "FROM jupyter/base-notebook:2024-01-01\nRUN pip install rapids-singlecell\n",
    "gpu-notebook/cuda12/Dockerfile": "FROM nvidia/cuda:12.9.0-runtime-ubuntu22.04\n",
    "gpu-notebook/cuda13/Dockerfile": "FROM nvidia/cuda:13.0.0-runtime-ubuntu24.04\n",
}
VARIANTS = """\
# GPU notebook

## Variants

### CUDA 12 Variant (`cuda12`)

The `cuda12` variant includes:

- **CUDA {twelve}**: the CUDA 12.x toolkit

### CUDA 13 Variant (`cuda13`)

- **CUDA {thirteen}**: the newest toolkit
"""
ROBOTS = {
    "humble/Dockerfile": "FROM ros:humble-ros-base-jammy\nFROM ubuntu:22.04\n",
    "jazzy/Dockerfile": "FROM ros:jazzy-ros-base-noble\nFROM ubuntu:24.04\n",
}
DISTROS = "# ROS images\n\n## ROS 2 Jazzy (`jazzy`)\n\nIt runs on Ubuntu {ubuntu}.\n"


def test_a_heading_naming_a_folder_in_code_ties_its_section() -> None:
    # 12.9 is the cuda12 image's CUDA: true of its section, whatever the cuda13 image has
    assert findings(VARIANTS.format(twelve="12.9", thirteen="13.0"), NOTEBOOKS) == []
    assert findings(VARIANTS.format(twelve="13.0", thirteen="13.0"), NOTEBOOKS) == [
        "9: README says CUDA 13.0 but gpu-notebook/cuda12/Dockerfile:1 says 12.9.0"
    ]
    # a robotics family of distro folders: `jazzy` in code ties the section, 22.04 is the humble image's
    assert findings(DISTROS.format(ubuntu="24.04"), ROBOTS) == []
    assert findings(DISTROS.format(ubuntu="22.04"), ROBOTS) == [
        "5: README says Ubuntu 22.04 but jazzy/Dockerfile:2 says 24.04"
    ]


def test_a_heading_that_is_the_folder_name_alone_stays_an_entry() -> None:
    # `## cuda12` alone: the list under it is that image's (`keyed`), the prose after it the family's
    readme = "# GPU notebook\n\n## cuda12\n\nok\n\nBuilt for CUDA 13.0.\n"
    assert findings(readme, NOTEBOOKS) == []


def test_a_claim_of_a_tied_section_is_not_compared_with_a_sibling() -> None:
    # the cuda12 image installs CUDA through conda (a pin docgen does not read): its section's 12.9 is
    # no claim against the cuda13 image's torch wheels
    family = {
        "gpu-notebook/Dockerfile": NOTEBOOKS["gpu-notebook/Dockerfile"],
        "gpu-notebook/cuda12/Dockerfile": "FROM jupyter/base-notebook:2024-01-01\n"
        "RUN mamba install --yes 'rapids=25.12' 'cuda-version=12.9'\n",
        "gpu-notebook/cuda13/Dockerfile": "FROM jupyter/base-notebook:2024-01-01\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cu130\n",
    }
    assert findings(VARIANTS.format(twelve="12.9", thirteen="13.0"), family) == []
