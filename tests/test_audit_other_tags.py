"""`docgen audit` of a README about a family of images that names the tags of images it does not audit.

A family whose Dockerfiles are named by the versions they build (`vexa1.2-cu121-torch2.3/Dockerfile.app…`,
`cu118-py310/Dockerfile`) has a README listing the tags of every image, those of other versions too
(a preview, the next CUDA). A tag spelling a word of the audited Dockerfile's name with another release
(`vexa1.3`, `cu124`) is another image's: what its line says is not compared with the audited one.
Each rule has a planted drift that must be found and a trap that must not be reported.
"""

from __future__ import annotations

from pathlib import Path

from helpers import audit_tree, findings

from docgen.audit.paths import names_other_image, spelled_releases
from docgen.audit.versions import norm

# --------------------------------------------------------------------------------------------------
# The tag and the Dockerfile's name

APP = "docker/vexa1.2-cu121-torch2.3/Dockerfile.app.serve.mcore0.9"
BASE = "docker/vexa1.2-cu121-torch2.3/Dockerfile.base"


def test_a_tag_spelling_the_names_words_counts_the_same_and_other_releases() -> None:
    assert spelled_releases("app-vexa1.2-serve0.5.2-mcore0.9.1", APP, norm) == (2, 0)
    assert spelled_releases("app-vexa1.3-serve0.6.0-mcore0.9.1", APP, norm) == (1, 1)
    assert spelled_releases("base-vexa1.3-cu124-torch2.5.0", BASE, norm) == (0, 3)
    assert spelled_releases("12.1.0-devel-ubuntu22.04", BASE, norm) == (0, 0)  # no word of the name


def test_a_tag_of_another_release_of_every_audited_name_is_another_images() -> None:
    family = [APP, BASE, "docker/Dockerfile.rocm"]
    assert names_other_image("base-vexa1.3-cu124-cudnn9.1-torch2.5.0", family, norm)
    assert names_other_image("app-vexa1.3-serve0.6.0-mcore0.9.1", family, norm)
    assert not names_other_image("base-vexa1.2-cu121-cudnn9.1-torch2.3", family, norm)
    assert not names_other_image("app-vexa1.2-serve0.5.2-mcore0.9.1", family, norm)


def test_a_tag_sharing_one_word_or_a_plain_dockerfile_beside_says_nothing() -> None:
    # one word in common (`ubuntu`) is a base image's tag, not the family's naming
    assert not names_other_image("12.1.0-devel-ubuntu20.04", ["ubuntu22.04/Dockerfile"], norm)
    # a plain Dockerfile of no versioned folder may build the tag's image (the newest release)
    assert not names_other_image("base-vexa1.3-cu124-torch2.5.0", [BASE, "docker/Dockerfile"], norm)
    # `cu12` of the name and `cu124` of the tag, `py310` and `py3.10`: one release each
    assert not names_other_image("cu124-py3.10", ["cu12-py310/Dockerfile"], norm)


# --------------------------------------------------------------------------------------------------
# A README of base, app and preview images (tags in prose and list items)

BASE_TEXT = """\
FROM nvcr.io/nvidia/pytorch:24.05-py3
RUN pip install torch==2.3.0
"""
APP_TEXT = """\
FROM acme/vexa:base-vexa1.2-cu121-cudnn9.1-torch2.3
RUN pip install "serve==0.5.2"
RUN pip install git+https://github.com/NVIDIA/Megatron-LM.git@core_v0.9.1
"""
VEXA = {BASE: BASE_TEXT, APP: APP_TEXT}
VEXA_README = """\
# Images of vexa

## Base image

The stable base image is `acme/vexa:base-vexa1.2-cu121-cudnn9.1-torch2.3`.

The preview base images are `acme/vexa:base-vexa1.3-cu124-cudnn9.1-torch2.5.0` and
`acme/vexa:base-vexa1.3-preview-cu128-cudnn9.1-torch2.5.0`, for newer GPUs.

## Application images

- **Serve with Megatron**: `acme/vexa:app-vexa1.2-serve{serve}-mcore0.9.1`
- **Preview of Serve with Megatron, CUDA 12.4**: `acme/vexa:app-vexa1.3-serve0.6.0-mcore0.9.1`
  - Megatron 0.10.0 and serve 0.6.0 inside
"""


def test_the_preview_images_tags_and_items_are_not_compared_with_the_audited_image() -> None:
    assert findings(VEXA_README.format(serve="0.5.2"), VEXA) == []


def test_the_stable_images_tag_is_still_compared_with_its_dockerfile() -> None:
    assert findings(VEXA_README.format(serve="0.5.1"), VEXA) == [
        f"12: README says serve 0.5.1 but {APP}:2 says 0.5.2"
    ]


def test_a_stale_base_tag_of_the_audited_release_is_still_found() -> None:
    stable = "acme/vexa:base-vexa1.2-cu121-cudnn9.1-torch2.3"
    readme = VEXA_README.format(serve="0.5.2").replace(
        f"{stable}`", "acme/vexa:base-vexa1.2-cu121-cudnn8.9-torch2.3`"
    )
    assert findings(readme, VEXA) == [
        f"5: README says acme/vexa:base-vexa1.2-cu121-cudnn8.9-torch2.3 but {APP}:1 says {stable}"
    ]


def test_a_tag_the_readme_builds_is_the_audited_images_whatever_it_spells() -> None:
    readme = VEXA_README.format(serve="0.5.2") + (
        "\n## Build\n\n```bash\ndocker build -f docker/vexa1.2-cu121-torch2.3/Dockerfile.app.serve.mcore0.9"
        " -t acme/vexa:app-vexa1.3-serve0.6.0-mcore0.9.1 .\n```\n"
    )
    assert any(line.startswith("13: ") for line in findings(readme, VEXA))


# --------------------------------------------------------------------------------------------------
# A README of one folder per image: a table of tags, a section per tag

CONDA = """\
FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04
ARG PYTHON=3.10.14
RUN conda install -y python=${PYTHON} pytorch==2.1.2
"""
FOLDERS = {"cu118-py310/Dockerfile": CONDA}
TABLE_README = """\
# Conda images

| Image | CUDA | Python | PyTorch |
|---|---|---|---|
| `cu118-py310` | 11.8.0 | {python} | 2.1.2 |
| `cu124-py311` | 12.4.1 | 3.11.9 | 2.4.0 |

## cu124-py311

- Python 3.11.9
- PyTorch 2.4.0
"""


def test_a_row_and_a_section_of_another_folders_tag_are_not_compared() -> None:
    assert findings(TABLE_README.format(python="3.10.14"), FOLDERS) == []


def test_the_row_of_the_audited_folder_is_still_compared() -> None:
    assert findings(TABLE_README.format(python="3.10.9"), FOLDERS) == [
        "5: README says Python 3.10.9 but cu118-py310/Dockerfile:2 says 3.10.14"
    ]


# --------------------------------------------------------------------------------------------------
# Entries under an image's name, and an instruction to edit the tag

ENTRY_TEXT = """\
FROM nvidia/cuda:{cuda}-cudnn8-devel-ubuntu20.04
ENV PYVER={python}
RUN wget https://www.python.org/ftp/python/${{PYVER}}/Python-${{PYVER}}.tgz
"""
ENTRIES = {
    "cu117-py38-u20/Dockerfile": ENTRY_TEXT.format(cuda="11.7.1", python="3.8.17"),
    "cu118-py310-u20/Dockerfile": ENTRY_TEXT.format(cuda="11.8.0", python="3.10.13"),
}
ENTRIES_README = """\
# Images

> cu117-py38-u20
> cuda: 11.7.1 / python{python} / ubuntu20.04

> cu121-py38-u20
> cuda: 12.1.1 / python3.8.18 / ubuntu20.04

- `cu124-py311-u22`: CUDA 12.4.1, Python 3.11.9, Ubuntu 22.04

For CUDA 12.6, replace `cu124` with `cu126` in the image tag: CUDA 12.6.3 then.
"""


def test_an_entry_or_item_under_another_images_name_is_not_compared(tmp_path: Path) -> None:
    result = audit_tree(tmp_path, {"README.md": ENTRIES_README.format(python="3.8.17"), **ENTRIES})
    assert (result.code, result.out) == (
        0,
        "README.md: no claim outside the docgen blocks contradicts cu117-py38-u20/Dockerfile, "
        "cu118-py310-u20/Dockerfile\n",
    )


def test_the_entry_of_an_audited_image_is_still_compared(tmp_path: Path) -> None:
    result = audit_tree(tmp_path, {"README.md": ENTRIES_README.format(python="3.8.16"), **ENTRIES})
    assert result.out.splitlines() == [
        "README.md:4: error: README says python 3.8.16 but cu117-py38-u20/Dockerfile:2 says 3.8.17 "
        "[DG101] (certain)",
        "1 claim in README.md contradicts cu117-py38-u20/Dockerfile, cu118-py310-u20/Dockerfile",
    ]


def test_a_base_images_tag_one_word_off_the_folders_name_is_still_a_stale_base() -> None:
    # `ubuntu22.04` against the folder's `ubuntu20.04`: the image's own base, written stale, not another image
    family = {"cudnn8-ubuntu20.04/Dockerfile": "FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu20.04\n"}
    readme = "# Image\n\nBuilt on `nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04`.\n"
    assert findings(readme, family) == [
        "3: README says nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04 but cudnn8-ubuntu20.04/Dockerfile:1 says "
        "nvidia/cuda:11.8.0-cudnn8-devel-ubuntu20.04"
    ]
