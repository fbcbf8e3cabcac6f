"""`docgen.audit.said_values`: the sentence introducing a command block gives a variable a value
(`(NAME=V)`, `with NAME set to V`) and the block under it gives the variable another one (`-e NAME=W`,
`--build-arg NAME=W`, `NAME=W cmd`): `likely`. Defaults, examples, other blocks, other variables and
values equal but for quotes are not."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
ARG CUDA_VERSION=12.4
ENV SLOTS="0" ACCEL="on" WORKERS=2
COPY serve.sh /serve.sh
ENTRYPOINT ["/serve.sh"]
"""


def found(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "introduces the command" in d.message
    ]


RUNS = """\
# Crunch on Docker

## How to run it

Start with the accelerator and every core (SLOTS=0):

```
docker run -d --name crunch \\
    --gpus all \\
    -e DONOR="me" \\
    ferro/crunch
```

Start with no accelerator and 1 core (SLOTS=1) :

```
docker run -d --name crunch \\
    -e DONOR="me" \\
    -e ACCEL="off" \\
    -e SLOTS="0" \\
    ferro/crunch
```
"""
"""Modelled on a volunteer-computing client's README: two runs, the second says one core and passes 0."""


def test_a_run_that_passes_another_value_than_its_sentence() -> None:
    assert found(RUNS) == [
        '14: README introduces the command under it with SLOTS=1, but the command passes SLOTS="0" '
        "(line 20): the example does not do what the sentence says (likely)"
    ]


BUILDS = """\
# Solver images

Build the image for CUDA 12.1 (`CUDA_VERSION=12.1`):

```bash
docker build -t acme/solver:cuda121 --build-arg CUDA_VERSION=11.8 .
```

Run the server with `WORKERS` set to `4`:

```bash
WORKERS=2 ./serve.sh
```
"""
"""Modelled on a build script README of a GPU library: one build command per CUDA version."""


def test_a_build_arg_and_an_assignment_that_differ_from_their_sentences() -> None:
    assert found(BUILDS) == [
        "3: README introduces the command under it with CUDA_VERSION=12.1, but the command passes "
        "CUDA_VERSION=11.8 (line 6): the example does not do what the sentence says (likely)",
        "9: README introduces the command under it with WORKERS=4, but the command passes WORKERS=2 "
        "(line 12): the example does not do what the sentence says (likely)",
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the sentence names the default and the block overrides it on purpose
        RUNS.replace(
            "Start with no accelerator and 1 core (SLOTS=1) :", "One core is the default (SLOTS=1); here all:"
        ),
        RUNS.replace("Start with no accelerator and 1 core (SLOTS=1) :", "Override the default (SLOTS=1):"),
        # values equal but for quotes and case
        RUNS.replace('-e SLOTS="0"', "-e SLOTS='1'"),
        BUILDS.replace("CUDA_VERSION=11.8", '"CUDA_VERSION=12.1"').replace("WORKERS=2", "WORKERS=4"),
        RUNS.replace('-e ACCEL="off"', '-e ACCEL="OFF"').replace("(SLOTS=1)", "(ACCEL=off)"),
        # another variable
        RUNS.replace("(SLOTS=1)", "(THREADS=1)"),
        # the sentence does not introduce the block (no colon), or a block that is not the first under it
        RUNS.replace("(SLOTS=1) :", "(SLOTS=1)."),
        "# A\n\nRun it with one core (SLOTS=1):\n\n```\ndocker run ferro/crunch\n```\n\n"
        "Or with all of them:\n\n```\ndocker run -e SLOTS=0 ferro/crunch\n```\n",
        # the block gives it two values, or a placeholder, or an expansion
        "# A\n\nRun both (SLOTS=1):\n\n```\ndocker run -e SLOTS=1 a/b\ndocker run -e SLOTS=4 a/b\n```\n",
        "# A\n\nRun it (SLOTS=1):\n\n```\ndocker run -e SLOTS=<n> a/b\n```\n",
        "# A\n\nRun it (SLOTS=1):\n\n```\ndocker run -e SLOTS=$SLOTS a/b\n```\n",
        "# A\n\nRun it (SLOTS=<cores>):\n\n```\ndocker run -e SLOTS=4 a/b\n```\n",
        # an example value, a list of values in the parentheses, lower-case names, a comment
        "# A\n\nPick your cores (SLOTS=1):\n\n```\ndocker run -e SLOTS=4 a/b\n```\n",
        "# A\n\nBuild for both (GPU_ARCH=gfx90a, gfx942):\n\n```\n"
        "docker build --build-arg GPU_ARCH=gfx942 .\n```\n",
        "# A\n\nSolve it (x=1):\n\n```\nx=2 ./solve.sh\n```\n",
        "# A\n\nRun it (SLOTS=1):\n\n```\n# SLOTS=4 for a big host\ndocker run a/b  # SLOTS=4 too\n```\n",
        # the defaults listed, then a build that sets another value
        "# A\n\nDefault build variables:\n\n* CUDA_VERSION=12.4\n\nBuild with variables:\n\n```sh\n"
        "docker build --build-arg CUDA_VERSION=12.6 -t a/b .\n```\n",
    ],
)
def test_sentences_and_blocks_that_agree_or_do_not_say(readme: str) -> None:
    assert found(readme) == []
