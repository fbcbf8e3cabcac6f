"""`docgen.audit.sif_files`: a `.sif` image a README's Singularity or Apptainer commands run that its own
pull never writes (`pull docker://…/NAME:TAG` with no output name writes `NAME_TAG.sif`).

Modelled on two shapes: an HPC guide that pulls `docker://ghcr.io/…:latest` and then runs
`NAME_main.sif` in several blocks (the tag changed in the pull only), and a chemistry code's page that
pulls with `apptainer pull docker://owner/code:2023.2_generic` and runs `code.sif`. Each drift sits next
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
        (GUIDE.replace("docker://ghcr.io/acme/md-tool:latest", "library://acme/md-tool:latest"), {}),
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
