"""`docgen.audit.swapped_headings`: a "Build" heading over only a `docker run` and a "Run" heading over
only a `docker build` in one README are swapped (`likely`, both told); one of them alone, "Build and
run", a Build section that runs after its build, a Run section that builds first and a build run in a
builder container are not findings."""

from __future__ import annotations

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

MODEL = model_of(parse_dockerfile('FROM debian:12-slim\nCMD ["kiln"]\n', "Dockerfile"))


def found(readme: str) -> list[str]:
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", MODEL)
        if "headings look swapped" in d.message
    ]


def test_swapped_bare_commands() -> None:
    readme = """\
# Kiln

Kiln fires pots.

# Run
docker build -t potter/kiln:3 .

# Build
docker run --rm -d -p 7070:7070 potter/kiln:3 kiln --hot
"""
    assert found(readme) == [
        '5: README\'s heading "Run" is over `docker build -t potter/kiln:3 .`, which builds the image and is '
        'the only kind of command under it, while its heading "Build" is over the other: the headings look '
        "swapped (likely)",
        '8: README\'s heading "Build" is over `docker run --rm -d -p 7070:7070 potter/kiln:3 kiln --hot`, '
        'which runs the image and is the only kind of command under it, while its heading "Run" is over the '
        "other: the headings look swapped (likely)",
    ]


def test_swapped_in_blocks_and_numbered_headings() -> None:
    readme = """\
# Kiln

## 1. Running the container

```bash
$ sudo docker build -t kiln .
```

## 2. Build the image

```bash
docker run -it kiln
```
"""
    assert [f.split(":", 1)[0] for f in found(readme)] == ["3", "9"]


@pytest.mark.parametrize(
    "readme",
    [
        # one heading alone over the other kind of command
        "# Kiln\n\n## Build\n\n```\ndocker run --rm kiln ./fire.sh\n```\n\n"
        "## Usage\n\n```\ndocker run kiln\n```\n",
        "# Kiln\n\n## Run\n\n```\ndocker build -t kiln .\n```\n",
        # both wrong only with one named "Build and run"
        "# Kiln\n\n## Build and run\n\n```\ndocker run kiln\n```\n\n"
        "## Run\n\n```\ndocker build -t kiln .\n```\n",
        # a Build section that runs after its build; a Run section that builds first
        "# Kiln\n\n## Build\n\n```\ndocker build -t kiln .\ndocker run kiln\n```\n\n"
        "## Run\n\n```\ndocker build -t kiln . && docker run kiln\n```\n",
        # a build run in a builder container, a run section built by compose
        "# Kiln\n\n## Build\n\n```\ndocker run -v $PWD:/src potter/builder ./compile.sh\n```\n\n"
        "## Run\n\n```\ndocker build -t kiln .\n```\n",
        "# Kiln\n\n## Build\n\n```\ndocker run kiln\n```\n\n## Run\n\n```\ndocker build -t kiln .\n"
        "docker compose up -d\n```\n",
        # the run under a subsection of Run
        "# Kiln\n\n## Build\n\n```\ndocker run kiln\n```\n\n## Run\n\n```\ndocker build -t kiln .\n```\n\n"
        "### Start it\n\n```\ndocker run -d kiln\n```\n",
        # right headings
        "# Kiln\n\n## Build\n\n`docker build -t kiln .`\n\n## Run\n\n`docker run kiln`\n",
    ],
)
def test_traps(readme: str) -> None:
    assert found(readme) == []
