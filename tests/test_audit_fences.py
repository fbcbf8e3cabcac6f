"""Tests for docgen.audit.fences: the comment of a command block heading a build of the image audited,
read as a sentence of its versions (`build_comments`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import findings, make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

TORCH = "FROM pytorch/pytorch:1.9.0-cuda10.2-cudnn7-runtime\nRUN pip install lmdb==1.2.1\n"
"""A Dockerfile whose base tag gives PyTorch 1.9.0 and CUDA 10.2 (the shape of `pytorch/pytorch`'s)."""


def _likely(readme: str, dockerfiles: dict[str, str]) -> list[str]:
    """`line: message (confidence)` of each finding of `audit`."""
    models = [model_of(parse_dockerfile(text, path)) for path, text in dockerfiles.items()]
    return [f"{d.line}: {d.message} ({d.confidence})" for d in audit(readme, "README.md", models, {}, None)]


def test_a_comment_over_the_build_states_the_image_s_versions() -> None:
    # the shape of a paper repository's docker README copied from a toolbox's: the comment kept the
    # toolbox's versions while the Dockerfile moved on
    readme = """\
# Docker

```shell
# build an image with PyTorch 1.6, CUDA 10.1
sudo docker build -t vsr .
```
"""
    assert _likely(readme, {"Dockerfile": TORCH}) == [
        "4: README says PyTorch 1.6 but Dockerfile:1 says 1.9.0 (likely)",
        "4: README says CUDA 10.1 but Dockerfile:1 says 10.2 (likely)",
    ]


def test_a_comment_over_a_build_of_the_image_s_folder() -> None:
    # the shape of a detection toolbox fork: `docker build -t name:1.5.0 docker/name/`
    readme = (
        "```shell\n# build an image with PyTorch 1.5, CUDA 10.1\ndocker build -t seg:1.5.0 docker/seg/\n```\n"
    )
    assert findings(readme, {"docker/seg/Dockerfile": TORCH}) == [
        "2: README says PyTorch 1.5 but docker/seg/Dockerfile:1 says 1.9.0",
        "2: README says CUDA 10.1 but docker/seg/Dockerfile:1 says 10.2",
    ]


def test_a_true_comment_is_silent() -> None:
    readme = "```bash\n# build an image with PyTorch 1.9.0, CUDA 10.2\ndocker build -t vsr .\n```\n"
    assert findings(readme, {"Dockerfile": TORCH}) == []


def test_comments_that_are_no_claim_about_the_image_built() -> None:
    readme = """\
```bash
# build an image with PyTorch 1.6, CUDA 10.1
docker build -t vsr-serve docker/serve/
# the CPU image, PyTorch 1.6
docker build -t vsr-cpu -f Dockerfile.cpu .
# build an image with PyTorch 1.6, CUDA 10.1

docker build -t vsr .
# the host needs CUDA 10.1 drivers or newer
docker build -t vsr .
# requires at least CUDA 10.1
docker build -t vsr .
# PyTorch 1.6, CUDA 10.1
docker pull example/other:latest
# For example, for a CUDA 10.1 and Python 3.7 build:
docker build -t vsr --build-arg BASE_IMAGE=pytorch/pytorch:1.6.0-cuda10.1-cudnn7-runtime .
```

```bash
# evaluate in a conda environment on the host with PyTorch 1.6
pip install torch==1.6.0 && docker build -t vsr .
```
"""
    assert findings(readme, {"docker/Dockerfile": TORCH}) == []


def test_a_comment_does_not_repeat_a_pin_the_command_line_tells() -> None:
    readme = "```bash\n# lmdb==1.0.0 here\ndocker build -t vsr .\n```\n"
    assert _likely(readme, {"Dockerfile": TORCH}) == [
        "2: README says lmdb 1.0.0 but Dockerfile:2 says 1.2.1 (certain)"
    ]


NGC_DOCKERFILE = (
    "FROM nvcr.io/nvidia/tensorflow:24.10-tf2-py3\nRUN apt-get update && apt-get install -y vim\n"
)
UPSTREAM_ONLY = (
    "# Model check\n\n## Images\n\n- `nvcr.io/nvidia/tensorflow:25.02-tf2-py3` (steps 1-2)\n"
    "- `nvcr.io/nvidia/tensorrt:25.06-py3` (steps 3-5)\n\n## Run\n\n```bash\n"
    "docker run --rm -it --gpus all -v $(pwd):/workspace nvcr.io/nvidia/tensorflow:25.02-tf2-py3 bash\n"
    "mkdir build && cd build && cmake .. && make -j4\n```\n\n"
    "```bash\ndocker pull nvcr.io/nvidia/tensorflow:25.02-tf2-py3\n```\n"
)


STEPS = (
    "#!/bin/bash\ndocker run --rm --gpus all -v $(pwd):/workspace \\\n"
    "  nvcr.io/nvidia/tensorflow:25.02-tf2-py3 python cifar10.py\n"
)


def test_the_upstream_image_a_readme_that_builds_none_runs_is_no_claim_of_the_base(tmp_path: Path) -> None:
    # the scripts beside the README run the same upstream tag: the README tells their workflow
    make_tree(tmp_path, {"run_steps.sh": STEPS, "Dockerfile": NGC_DOCKERFILE, "README.md": UPSTREAM_ONLY})
    assert findings(UPSTREAM_ONLY, {"Dockerfile": NGC_DOCKERFILE}, tmp_path) == []


def test_an_upstream_tag_no_script_runs_is_still_the_base_s(tmp_path: Path) -> None:
    # no script runs 25.02 (or one runs another tag): the README is the Dockerfile's, left behind
    make_tree(tmp_path, {"Dockerfile": NGC_DOCKERFILE, "README.md": UPSTREAM_ONLY})
    assert any(
        "25.02-tf2-py3 but Dockerfile:1 says" in f
        for f in findings(UPSTREAM_ONLY, {"Dockerfile": NGC_DOCKERFILE}, tmp_path)
    )
    make_tree(tmp_path, {"run_steps.sh": STEPS.replace("25.02", "24.10")})
    assert any(
        "25.02-tf2-py3 but Dockerfile:1 says" in f
        for f in findings(UPSTREAM_ONLY, {"Dockerfile": NGC_DOCKERFILE}, tmp_path)
    )


@pytest.mark.parametrize(
    "added",
    [
        "```bash\ndocker build -t check .\n```\n",  # the README builds its image
        "The Dockerfile adds vim to the image.\n",  # and speaks of the Dockerfile
        "```bash\ndocker compose up\n```\n",  # a compose build may make it
    ],
)
def test_a_readme_that_makes_its_image_still_claims_the_base(added: str) -> None:
    found = findings(UPSTREAM_ONLY + "\n" + added, {"Dockerfile": NGC_DOCKERFILE})
    assert any("25.02-tf2-py3 but Dockerfile:1 says" in f for f in found)


LAB = "FROM txn2/lab-base:v2.0.1\nRUN pip install nbdime==3.2.1\n"
"""An image built on the project's own base image, published at v2.0.1."""


def test_a_run_of_a_tag_the_readme_gives_its_own_build_is_no_base_claim() -> None:
    # the base rebuilt from another project's checkout and tagged by hand, then tried out: the README's
    # own image, not a stale base; a run of a tag nothing of the README makes stays a claim
    readme = """\
# Lab

## Rebuild the base from the upstream project

```bash
docker build -t txn2/lab-base:latest ./upstream/.build/
docker tag txn2/lab-base:latest txn2/lab-base:v1.0.0
docker run --rm -p 8888:8888 txn2/lab-base:v1.0.0
```

## Other ways to make the base

```bash
podman build --tag=txn2/lab-base:v1.1.0 ./alt/
docker run --rm txn2/lab-base:v1.1.0
```

## Run the published base

```bash
docker run --rm -p 8888:8888 txn2/lab-base:v1.9.0
```
"""
    assert _likely(readme, {"Dockerfile": LAB}) == [
        "21: README runs txn2/lab-base:v1.9.0 but Dockerfile:1 says txn2/lab-base:v2.0.1 (likely)",
    ]


# Listings of installed versions (`listed_versions`): the shapes `pip list`, `conda list` and a
# `name: version` report write, modelled on a single-cell analysis image (a `name:  version` report in a
# collapsed section) and a deep-learning research image (`pip list` output under `Library lists:`).
SCIENCE = """\
FROM pytorch/pytorch:2.9.0-cuda12.8-cudnn9-devel
RUN pip install numpy==2.3.3 scipy==1.15.3 statsmodels \\
    'cellkit[dask,leiden]==1.11.5' "jax[cuda12]==0.8.0" jaxlib==0.8.0 \\
    "varitools[cuda]==1.4.0.post1" plotlib==3.10.7
"""


def _listing(
    body: str, lang: str = "text", above: str = "# Installed library versions (latest build)"
) -> str:
    return f"# Sci image\n\n{above}\n\n```{lang}\n{body}```\n"


def test_a_name_colon_version_report_against_the_pins_and_the_base_tag() -> None:
    readme = _listing(
        "Brotli:          1.1.0\n"
        "cellkit:         1.11.4\n"  # the pin moved to 1.11.5
        "jax:             0.4.21\n"  # `"jax[cuda12]==0.8.0"`, extras and quotes around
        "jaxlib:          0.8.0\n"
        "numpy:           2.1.1\n"
        "plotlib:         3.10.7\n"
        "statsmodels:     0.14.2\n"  # unpinned: nothing to compare with
        "torch:           2.4.1+cu121\n"  # the base tag gives PyTorch 2.9.0
        "varitools:       1.4.0\n"  # the release of `1.4.0.post1`: the same
    )
    assert _likely(readme, {"Dockerfile": SCIENCE}) == [
        "7: README says cellkit 1.11.4 but Dockerfile:3 says 1.11.5 (likely)",
        "8: README says jax 0.4.21 but Dockerfile:3 says 0.8.0 (likely)",
        "10: README says numpy 2.1.1 but Dockerfile:2 says 2.3.3 (likely)",
        "13: README says torch 2.4.1+cu121 but Dockerfile:1 says 2.9.0 (likely)",
    ]


def test_pip_list_and_conda_list_output() -> None:
    pip_list = (
        "Package        Version\n"
        "-------------- -----------\n"
        "jaxlib         0.8.0\n"
        "numpy          2.1.1\n"
        "torch          2.9.0+cu128\n"  # the base's release with its local label: agrees
        "...\n"
    )
    assert _likely(_listing(pip_list, "", "Library lists:"), {"Dockerfile": SCIENCE}) == [
        "9: README says numpy 2.1.1 but Dockerfile:2 says 2.3.3 (likely)"
    ]
    conda_list = (
        "# packages in environment at /opt/conda:\n"
        "#\n"
        "# Name                    Version                   Build  Channel\n"
        "_libgcc_mutex             0.1                 conda_forge    conda-forge\n"
        "numpy                     2.3.3           py311h64a7726_0    conda-forge\n"
        "scipy                     1.14.1          py311h64a7726_0    conda-forge\n"
    )
    assert _likely(_listing(conda_list, "console", "Packages:"), {"Dockerfile": SCIENCE}) == [
        "11: README says scipy 1.14.1 but Dockerfile:2 says 1.15.3 (likely)"
    ]


def test_what_a_version_check_prints() -> None:
    body = "$ docker run --rm sci python check.py\nPyTorch version: 2.4.1\nJAX version: 0.8.0\n"
    assert _likely(_listing(body, "", "It prints:"), {"Dockerfile": SCIENCE}) == [
        "7: README says PyTorch 2.4.1 but Dockerfile:1 says 2.9.0 (likely)"
    ]


def test_a_listing_of_a_container_s_packages_is_read() -> None:
    body = "$ docker exec sci pip list | grep -E 'numpy|jax'\njax      0.8.0\nnumpy    2.2.0\n"
    assert _likely(_listing(body, "bash", "Check the versions:"), {"Dockerfile": SCIENCE}) == [
        "8: README says numpy 2.2.0 but Dockerfile:2 says 2.3.3 (likely)"
    ]


@pytest.mark.parametrize(
    ("body", "lang", "above"),
    [
        # every entry agrees (and a quoted pin list of the same shape)
        ("numpy: 2.3.3\njax: 0.8.0\ntorch: 2.9.0\n", "text", "Versions:"),
        ("\"numpy==2.3.3\"\n'cellkit[dask]==1.11.5'\n", "text", "Versions:"),
        # the versions of an older release of the image
        ("numpy: 1.26.4\njax: 0.4.21\n", "text", "## Previous versions"),
        # `pip list` run on the reader's machine lists the host's packages
        ("laptop$ pip list\nPackage  Version\nnumpy    1.26.4\njax      0.4.21\n", "bash", "On your laptop:"),
        # a configuration, not a listing: `yaml` blocks set values
        ("numpy: 1.0\njax: 0.1\n", "yaml", "Settings:"),
        # one output line is no list; a count is no version; variables are no packages
        ("numpy 1.26.4\n", "text", "It prints:"),
        ("numpy  2\njax  1\n", "text", "Workers:"),
        ("NUMPY_VERSION: 1.26.4\nJAX_VERSION: 0.4.21\n", "text", "Set:"),
        # a block mixing prose with a version line is no listing
        ("Install numpy 1.26.4 first\njax: 0.4.21\n", "text", "Notes:"),
        # `docker images` output: a tag, an id, a date, a size
        (
            "REPOSITORY   TAG   IMAGE ID       CREATED       SIZE\n"
            "sci   1.0   3f2a9c1d0b7e   2 days ago   9GB\n",
            "",
            "You see:",
        ),
    ],
)
def test_listings_that_claim_nothing_against_the_pins(body: str, lang: str, above: str) -> None:
    assert _likely(_listing(body, lang, above), {"Dockerfile": SCIENCE}) == []
