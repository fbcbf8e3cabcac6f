"""`docgen.audit.sif_files`: a `.sif` image a README's Singularity or Apptainer commands run that its own
pull never writes (`pull docker://…/NAME:TAG` with no output name writes `NAME_TAG.sif`).

Modelled on three shapes: an HPC guide that pulls `docker://ghcr.io/…:latest` and then runs
`NAME_main.sif` in several blocks (the tag changed in the pull only), and a chemistry code's page that
pulls with `apptainer pull docker://owner/code:2023.2_generic` and runs `code.sif`, and a basecaller's
recipe repository (no Dockerfile) whose usage pulls `shub://owner/caller_gpu` and runs another project's
`tools_latest.sif`, copied from a sibling README. Each drift sits next
to the traps that must stay silent. The trees are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM python:3.12-slim\nRUN pip install numpy==2.1.0\n"
GUIDE = """\
# MD tool

## Docker

```bash
docker run --gpus all -it ghcr.io/acme/md-tool:latest
```

## Singularity (HPC)

```bash
module load singularity
singularity pull -F docker://ghcr.io/acme/md-tool:latest
singularity exec --cleanenv -H ./:/home --nv md-tool_main.sif /bin/bash
```

## Slurm

```bash
singularity exec --nv /path/to/md-tool_main.sif ./run.sh
```
"""
CHEM = """\
# Code

```
apptainer pull docker://owner/code:2023.2_generic
apptainer run -B $PWD code.sif -i input.inp
```
"""


def _audit(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if ".sif" in d.message]


def test_a_sif_file_the_pull_does_not_write(tmp_path: Path) -> None:
    assert _audit(tmp_path, GUIDE) == [
        "14: README runs md-tool_main.sif, but its singularity pull (no output name) writes "
        "md-tool_latest.sif; no pull or build of the README writes md-tool_main.sif; also at line 20 (likely)"
    ]
    assert _audit(tmp_path / "b", CHEM) == [
        "5: README runs code.sif, but its singularity pull (no output name) writes code_2023.2_generic.sif; "
        "no pull or build of the README writes code.sif (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the file the pull writes, an output name, --name, a build
        (GUIDE.replace("md-tool_main.sif", "md-tool_latest.sif"), {}),
        (GUIDE.replace("pull -F docker", "pull -F md-tool_main.sif docker"), {}),
        (GUIDE.replace("pull -F docker", "pull --name md-tool_main.sif docker"), {}),
        (GUIDE.replace("module load singularity", "singularity build md-tool_main.sif md.def"), {}),
        # named elsewhere: downloaded, moved
        (GUIDE.replace("module load singularity", "mv md-tool_latest.sif md-tool_main.sif"), {}),
        (GUIDE + "\nOr download [md-tool_main.sif](https://example.org/md-tool_main.sif).\n", {}),
        # in the repository
        (GUIDE, {"images/md-tool_main.sif": "x"}),
        # a placeholder, another image, a pull from a library
        (GUIDE.replace("md-tool_main.sif", "$SIF"), {}),
        (GUIDE.replace("md-tool_main.sif", "other_main.sif"), {}),
        # under a heading about an old version
        (
            GUIDE.replace("## Singularity (HPC)", "## Singularity (old releases)").replace(
                "## Slurm", "## Slurm (legacy)"
            ),
            {},
        ),
        # no pull before the use
        (CHEM.replace("apptainer pull docker://owner/code:2023.2_generic\n", ""), {}),
    ],
)
def test_sif_files_that_may_be_there(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _audit(tmp_path, readme, files) == []


# A Singularity Hub recipe with no Dockerfile: the usage was copied from the author's other project.
HUB = """\
# Basecaller GPU image

Built on Ubuntu 18.04 (see the `Singularity` recipe).

### Usage

```
singularity pull shub://lab/caller_gpu
singularity exec --nv seqtools_latest.sif caller --help
```

```
singularity exec --nv caller_gpu_latest.sif caller -i reads/ -s out/
```
"""


def _audit_recipe(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    """The `.sif` findings of an audit with no Dockerfile (the recipe folder has a `Singularity` file)."""
    make_tree(
        root, {"Singularity": "Bootstrap: docker\nFrom: ubuntu:18.04\n", "README.md": readme, **(files or {})}
    )
    found = audit(readme, "README.md", [], {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if ".sif" in d.message]


def test_another_image_s_file_run_right_after_a_pull_from_a_hub_or_library(tmp_path: Path) -> None:
    assert _audit_recipe(tmp_path, HUB) == [
        "9: README runs seqtools_latest.sif, but its singularity pull at line 8 (no output name) writes "
        "caller_gpu_latest.sif; no pull or build of the README writes seqtools_latest.sif (likely)"
    ]
    # a library pull writes NAME_TAG.sif as a docker:// pull does
    library = GUIDE.replace("docker://ghcr.io/acme/md-tool:latest", "library://acme/md-tool:latest")
    assert [f.split(",")[0] for f in _audit(tmp_path / "b", library)] == ["14: README runs md-tool_main.sif"]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the file the pull writes; a pull with a tag the file used does not carry (`seqtools.sif`)
        (HUB.replace("seqtools_latest.sif", "caller_gpu_latest.sif"), {}),
        (HUB.replace("seqtools_latest.sif", "seqtools.sif"), {}),
        (
            HUB.replace("shub://lab/caller_gpu", "shub://lab/caller_gpu:v4").replace("gpu_latest", "gpu_v4"),
            {},
        ),
        # an output name, another pull or a build between the pull and the use
        (HUB.replace("pull shub", "pull --name seqtools_latest.sif shub"), {}),
        (
            HUB.replace(
                "singularity exec --nv seqtools",
                "singularity build x.sif x.def\nsingularity exec --nv seqtools",
            ),
            {},
        ),
        (
            HUB.replace(
                "singularity exec --nv seqtools",
                "singularity pull x.sif docker://a/b\nsingularity exec --nv seqtools",
            ),
            {},
        ),
        # the file named elsewhere, or in the repository; no pull before it in its block
        (HUB + "\nFetch seqtools_latest.sif from the lab share first.\n", {}),
        (HUB, {"seqtools_latest.sif": "x"}),
        (HUB.replace("singularity pull shub://lab/caller_gpu\n", ""), {}),
    ],
)
def test_files_run_after_a_hub_pull_that_may_be_there(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _audit_recipe(tmp_path, readme, files) == []
