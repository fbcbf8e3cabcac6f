"""Entries of a README about a family, each under the name of one image's folder (`docgen.audit.keyed`)."""

from __future__ import annotations

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

CUDA = "FROM nvidia/cuda:{}-cudnn8-devel-ubuntu22.04\nRUN pip install torch=={}\n"
FAMILY = {
    "basic/cu121-py310/Dockerfile": CUDA.format("12.1.1", "2.3.1"),
    "basic/cu118-py310/Dockerfile": CUDA.format("11.8.0", "2.1.2"),
    "basic/cu118-py311/Dockerfile": CUDA.format("11.8.0", "2.2.0"),
}


def found(readme: str, files: dict[str, str] = FAMILY) -> list[tuple[int, str, str]]:
    models = [model_of(parse_dockerfile(text, path)) for path, text in files.items()]
    return [(d.line, d.message, d.confidence) for d in audit(readme, "IMAGES.md", models)]


ENTRIES = """# Images

> cu121-py310
> cuda: 12.1.1 / torch: 2.3.1 / ubuntu22.04

> cu118-py310
> cuda: {cuda} / torch: 2.1.2 / ubuntu22.04

**cu118-py311**
CUDA {cuda} / {torch} / Ubuntu 22.04
"""


def test_an_entry_under_a_folder_name_is_compared_with_that_image_only() -> None:
    # 12.1.1 is a sibling's CUDA: true of the family, false of the image the entry names
    readme = ENTRIES.format(cuda="12.1.1", torch="torch2.2.0")
    assert found(readme) == [
        (7, "README says cuda 12.1.1 but basic/cu118-py310/Dockerfile:1 says 11.8.0", "certain"),
        (10, "README says CUDA 12.1.1 but basic/cu118-py311/Dockerfile:1 says 11.8.0", "certain"),
    ]
    # a glued version (`torch2.1.2`) is read as one too: the cu118-py310 image's torch, not cu118-py311's
    assert found(ENTRIES.format(cuda="11.8.0", torch="torch2.1.2")) == [
        (10, "README says torch 2.1.2 but basic/cu118-py311/Dockerfile:2 says 2.2.0", "certain")
    ]


def test_entries_that_agree_or_name_no_audited_image_are_no_findings() -> None:
    assert found(ENTRIES.format(cuda="11.8.0", torch="torch2.2.0")) == []
    # a name no Dockerfile's folder has (an image not audited) says nothing of the audited ones
    assert found("> cu124-py310\n> cuda: 11.8.0 / torch: 2.3.1\n") == []
    # a name two folders share alike (`cu118` is in both cu118 folders) names neither
    assert found("> cu118\n> torch: 2.1.2\n") == []


NESTED = {
    "cuda/Dockerfile": "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\n",
    "cuda-tpls/Dockerfile": "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\n"
    "RUN git clone -b v2.4.0 --depth=1 https://github.com/NVIDIA/AMGX.git && cd AMGX && make\n",
}


def test_a_version_nested_under_an_image_item_is_as_sure_as_a_table_cell() -> None:
    readme = (
        "- [`cuda-sm70`](https://example.org/pkgs/cuda-sm70)\n    - CUDA toolkit 11.8\n"
        "- [`cuda-tpls-sm70`](https://example.org/pkgs/cuda-tpls-sm70)\n    - CUDA toolkit 11.8\n"
        "    - AmgX {amgx}\n"
    )
    assert found(readme.format(amgx="8.2.1"), NESTED) == [
        (5, "README says AmgX 8.2.1 but cuda-tpls/Dockerfile:2 says v2.4.0", "certain")
    ]
    assert found(readme.format(amgx="2.4.0"), NESTED) == []


def test_a_heading_naming_one_image_ties_the_list_under_it() -> None:
    readme = "# Images\n\n## cu118-py310\n\n- CUDA {cuda}\n- torch 2.1.2\n\nBuilt for CUDA 12.1.1.\n"
    assert found(readme.format(cuda="12.1.1")) == [
        (5, "README says CUDA 12.1.1 but basic/cu118-py310/Dockerfile:1 says 11.8.0", "certain")
    ]
    # the list agrees; the sentence after it is prose, true of a sibling, and not an entry
    assert found(readme.format(cuda="11.8.0")) == []


TOOLCHAINS = {
    "stacks/gnu-xenial/Dockerfile": "FROM ubuntu:16.04\nRUN apt-get install -y gfortran\n",
    "stacks/cuda-xenial/Dockerfile": "FROM nvidia/cuda:9.2-devel-ubuntu16.04\n"
    "RUN apt-get install -y gfortran=5.3.1-1ubuntu1\n",
    "stacks/gnu-bionic/Dockerfile": "FROM ubuntu:18.04\nRUN apt-get install -y gfortran\n",
}
ITEMS = """## Toolchain images

We build:
- `gnu-xenial`: Ubuntu 16.04 with gfortran 5.4.1
- `cuda-xenial`: the same on nvidia/cuda:9.2-ubuntu16.04
- **gnu-bionic** - Ubuntu {bionic} with gfortran 7.5.0
"""


def test_an_item_that_starts_with_an_image_name_is_about_that_image_only() -> None:
    # the item's own text is that image's: 16.04 is a sibling's Ubuntu, not gnu-bionic's
    assert found(ITEMS.format(bionic="16.04"), TOOLCHAINS) == [
        (6, "README says Ubuntu 16.04 but stacks/gnu-bionic/Dockerfile:1 says 18.04", "likely")
    ]


def test_an_item_names_image_whose_pins_say_nothing_of_a_component_is_no_finding() -> None:
    # gnu-xenial installs gfortran unpinned: cuda-xenial's pin does not contradict its item, and the
    # base image the next item names does not make the list about cuda-xenial
    assert found(ITEMS.format(bionic="18.04"), TOOLCHAINS) == []
    # plain words need a colon to be a name: `gnu-bionic Ubuntu …` is a sentence about the family
    assert found("- gnu-bionic runs on Ubuntu 16.04\n", TOOLCHAINS) == []
    assert found("- gnu-bionic: Ubuntu 16.04\n", TOOLCHAINS) == [
        (1, "README says Ubuntu 16.04 but stacks/gnu-bionic/Dockerfile:1 says 18.04", "likely")
    ]


def test_a_table_row_named_for_one_image_is_compared_with_that_image_only() -> None:
    # 12.1.1 is cu121-py310's CUDA: true of the family, stale in the row of cu118-py311
    readme = (
        "| Image | CUDA | PyTorch |\n|---|---|---|\n"
        "| `cu121-py310` | 12.1.1 | 2.3.1 |\n| `cu118-py311` | {} | 2.2.0 |\n"
    )
    assert found(readme.format("12.1.1")) == [
        (4, "README says CUDA 12.1.1 but basic/cu118-py311/Dockerfile:1 says 11.8.0", "certain")
    ]
    assert found(readme.format("11.8.0")) == []


def test_a_name_running_into_a_long_run_of_underscores_is_read_in_one_pass() -> None:
    """A fact whose name runs into thousands of `_` is read as before (the run is the name's marks,
    or a word's tail when another word follows), and one with no version after the run is refused in
    one pass, not by trying the name's end at each `_`."""
    run = "_" * 20_000
    drift = found(f"> cu118-py310\n> cuda{run}: 12.1.1 / torch: 2.1.2\n")
    assert drift == found("> cu118-py310\n> cuda: 12.1.1 / torch: 2.1.2\n")
    assert len(drift) == 1 and "12.1.1" in drift[0][1]
    assert found(f"> cu118-py310\n> cuda{run}!: 12.1.1 / torch{run} 2.1.2\n") == []
    assert found(f"> cu118-py310\n> cuda: 11.8.0 / torch{run}\n") == []


def test_the_name_version_pattern_reads_what_it_read_before() -> None:
    """`PAIR` with the name kept from ending inside a run of `_` (so that a long run is not tried at
    each `_`) gives the same name and version as the plain pattern on strings of names, marks,
    separators and versions."""
    import itertools
    import re

    from docgen.audit.keyed import PAIR

    plain = re.compile(
        r"[*_`]*([A-Za-z][\w+.-]*?(?:[ \t]+[A-Za-z][\w+-]*){0,2})[*_`]*(?:[ \t]*:[ \t]*|[ \t]+)[*_`]*"
        r"v?(\d+(?:\.\d+)+)[*_`]*\Z"
    )
    names = ["cuda", "CUDA toolkit", "a_b", "x.y", "a b c d", "t"]
    marks = ["", "_", "___", "**", "`", "_*`"]
    runs = ["", "_____", "  "]
    tails = [":", " ", ": ", "\t", ""]
    versions = ["2.3.1", "v11.8", "12", "x 1.2"]
    for name, run, mark, tail, version, end in itertools.product(names, runs, marks, tails, versions, marks):
        text = f"{mark}{name}{run}{mark}{tail}{mark}{version}{end}"
        new, old = PAIR.match(text), plain.match(text)
        assert (new and new.groups()) == (old and old.groups()), text
