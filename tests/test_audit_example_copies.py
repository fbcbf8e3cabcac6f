"""`docgen.audit.example_copies`: an example Dockerfile in the README that is the audited one but for
its base, still at an older tag. A planted drift and the nearest blocks that must stay silent (the
project's image extended, another image, the reader's own lines, placeholders, another variant). The
READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVER = """\
ARG BASE_IMAGE=registry.example.org/ml/jaxbox:25.02-py3
FROM ${BASE_IMAGE}

ENV XLA_FLAGS_PREALLOC=false
ENV COLLECTIVE_MODE="ASYNC"

WORKDIR /srv

COPY setup.sh .
RUN ./setup.sh

COPY . .
"""

EXAMPLE = """\
# Sharded model server

## Building the image

The simplest way is a jaxbox container. Example `Dockerfile` that can be used to run the server:

```Dockerfile
ARG BASE_IMAGE=registry.example.org/ml/jaxbox:24.06-py3
FROM ${BASE_IMAGE}

ENV XLA_FLAGS_PREALLOC=false
ENV COLLECTIVE_MODE="ASYNC"

WORKDIR /srv

COPY setup.sh .
RUN ./setup.sh
RUN pip install <server package>

COPY . .
```
"""


def _audit(tmp_path: Path, readme: str, dockerfile: str = SERVER) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme, "setup.sh": "#!/bin/sh\n"})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_an_example_dockerfile_at_an_older_base(tmp_path: Path) -> None:
    # every line but the base is the file's (the pip line a placeholder): the file moved on, the example not
    assert _audit(tmp_path, EXAMPLE) == [
        "8: README's example Dockerfile is Dockerfile but for its base: it says FROM "
        "registry.example.org/ml/jaxbox:24.06-py3 but Dockerfile:2 says FROM "
        "registry.example.org/ml/jaxbox:25.02-py3 (likely)"
    ]
    # the base written in the FROM line itself
    direct = EXAMPLE.replace(
        "ARG BASE_IMAGE=registry.example.org/ml/jaxbox:24.06-py3\nFROM ${BASE_IMAGE}",
        "FROM registry.example.org/ml/jaxbox:24.06-py3",
    )
    assert _audit(tmp_path, direct) == [
        "8: README's example Dockerfile is Dockerfile but for its base: it says FROM "
        "registry.example.org/ml/jaxbox:24.06-py3 but Dockerfile:2 says FROM "
        "registry.example.org/ml/jaxbox:25.02-py3 (likely)"
    ]


def test_examples_that_are_not_the_file_at_an_older_base(tmp_path: Path) -> None:
    # the same base: nothing to say
    assert _audit(tmp_path, EXAMPLE.replace("24.06-py3", "25.02-py3")) == []
    # the reader's own line (not the file's, no placeholder): their Dockerfile, built their way
    own = EXAMPLE.replace("RUN pip install <server package>", "RUN pip install my-extra==1.0")
    assert _audit(tmp_path, own) == []
    # built on the project's own image, to extend it; on another image
    extend = EXAMPLE.replace("registry.example.org/ml/jaxbox:24.06-py3", "acme/shard-server:1.2")
    assert _audit(tmp_path, extend) == []
    other = EXAMPLE.replace("ml/jaxbox:24.06-py3", "ml/torchbox:24.06-py3")
    assert _audit(tmp_path, other) == []
    # another variant of the repository, a placeholder tag, a base left a variable
    assert _audit(tmp_path, EXAMPLE.replace("24.06-py3", "24.06-py3-igpu")) == []
    assert _audit(tmp_path, EXAMPLE.replace("24.06-py3", "<tag>")) == []
    assert (
        _audit(tmp_path, EXAMPLE.replace("ARG BASE_IMAGE=registry.example.org/ml/jaxbox:24.06-py3\n", ""))
        == []
    )
    # too few of the file's lines to be its example
    short = (
        "# S\n\nExample:\n\n```Dockerfile\nFROM registry.example.org/ml/jaxbox:24.06-py3\n"
        "WORKDIR /srv\nCOPY . .\n```\n"
    )
    assert _audit(tmp_path, short) == []
    # presented as a past state of the file
    past = EXAMPLE.replace("Example `Dockerfile` that", "The older `Dockerfile` that")
    assert _audit(tmp_path, past) == []
