"""`docgen.audit.recipe_bases`: the base image a README says a Singularity or Apptainer definition file
beside it starts from, against the `From:` of that file's header. Shapes modelled on a template
repository holding a Dockerfile and a Singularity recipe side by side (each section naming its base) and
on a bioinformatics tool whose Apptainer `.def` is documented next to its Docker image; planted drifts
next to the nearest true statements (traps)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.audit.recipe_bases import definition_bases
from docgen.pipeline import build_model

DOCKERFILE = "FROM nvcr.io/nvidia/pytorch:19.01-py3\nRUN /opt/conda/bin/conda install -y seaborn\n"
RECIPE = (
    "Bootstrap: docker\n\nFrom: pytorch/pytorch:1.0.1-cuda9-cudnn7-devel\n\n%post\n  pip install seaborn\n"
)
TEMPLATE = """\
# torch template

Holds a Dockerfile and a Singularity recipe.

### Docker
Base image is nvcr.io/nvidia/pytorch, and seaborn is installed.

### Singularity
Base image is {base}, and you can also install other packages by editing the recipe.
"""
APPTAINER = "Bootstrap: docker\nFrom: docker.io/library/ubuntu:22.04\n\n%post\n  apt-get update\n"
TOOL = """\
# aligner

## Apptainer

The definition file `aligner.def` is based on `{base}` and installs the aligner.

If you want a smaller image, you can base it on `alpine:3.19` instead.
"""


def found(root: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", [model], {}, root, root)
        if "From:" in d.message
    ]


def test_another_repository_than_the_recipe_starts_from(tmp_path: Path) -> None:
    readme = TEMPLATE.format(base="docker://tensorflow/tensorflow")
    assert found(tmp_path / "a", readme, {"Singularity.1.0.1-cuda9": RECIPE}) == [
        "9: README says the Singularity recipe's base image is docker://tensorflow/tensorflow, but "
        "Singularity.1.0.1-cuda9:3 starts from pytorch/pytorch:1.0.1-cuda9-cudnn7-devel (its From:) (likely)"
    ]


def test_the_recipe_s_own_base_is_no_finding(tmp_path: Path) -> None:
    # the same repository without a tag, with its tag, or under `docker://`: what the header says
    for index, base in enumerate(
        ("docker://pytorch/pytorch", "pytorch/pytorch:1.0.1-cuda9-cudnn7-devel", "`pytorch/pytorch`")
    ):
        readme = TEMPLATE.format(base=base)
        assert found(tmp_path / str(index), readme, {"Singularity": RECIPE}) == []


def test_another_tag_of_the_recipe_s_repository(tmp_path: Path) -> None:
    readme = TOOL.format(base="ubuntu:20.04")
    assert found(tmp_path / "a", readme, {"aligner.def": APPTAINER}) == [
        "5: README says the base image is ubuntu:20.04, but aligner.def:2 starts from "
        "docker.io/library/ubuntu:22.04 (its From:) (likely)"
    ]
    # the header's own image, its registry and `library/` aside: true; `alpine` is advice (line 7)
    assert found(tmp_path / "b", TOOL.format(base="ubuntu:22.04"), {"aligner.def": APPTAINER}) == []


def test_the_docker_section_and_plain_words_are_not_read(tmp_path: Path) -> None:
    # `Base image is nvcr.io/nvidia/pytorch` is the Dockerfile's (under `### Docker`, naming no recipe);
    # `based on Ubuntu` names no image
    readme = TEMPLATE.format(base="Ubuntu")
    assert found(tmp_path / "a", readme, {"Singularity": RECIPE}) == []


def test_no_definition_file_no_finding(tmp_path: Path) -> None:
    # a README about a recipe kept elsewhere; a `.def` of another format (no `Bootstrap:` header)
    readme = TEMPLATE.format(base="docker://tensorflow/tensorflow")
    assert found(tmp_path / "a", readme, {}) == []
    assert found(tmp_path / "b", readme, {"module.def": "LIBRARY x\nEXPORTS\n  f\n"}) == []


def test_definition_bases_reads_the_header_only(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "Singularity": RECIPE,
            "local.def": "Bootstrap: localimage\nFrom: base.sif\n",
            "late.def": "Bootstrap: docker\nFrom: ubuntu:22.04\n%post\nFrom: not/this\n",
            "notes.txt": "Bootstrap: docker\nFrom: x/y\n",
        },
    )
    assert definition_bases(tmp_path) == [
        ("Singularity", 3, "pytorch/pytorch:1.0.1-cuda9-cudnn7-devel"),
        ("late.def", 2, "ubuntu:22.04"),
    ]
