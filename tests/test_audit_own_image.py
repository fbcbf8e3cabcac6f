"""`docgen audit`: a README naming one Dockerfile of several documents that image and the Dockerfiles it
is built on (docgen/audit/own_image.py), not every Dockerfile of its folder.

- a version a sibling outside that chain pins contradicts nothing the README says;
- when the image the named Dockerfile is built on is a local one no tag names and siblings may build,
  a claim is a finding only when it contradicts every way to complete the chain (`likely`, unless the
  named Dockerfile's own pin contradicts it);
- a README naming no Dockerfile, or several, is still compared with every image.

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

SERVER = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN pip install vllm ray==2.40.0\n"
ALTERNATE = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN pip install vllm==0.9.0 ray==2.40.0\n"
TABLE = """\
# Serving image

| Component | Version |
|---|---|
| vLLM | 0.8.5.dev3 |
| Ray | {ray} |
| requests | {requests} |
"""
BUILD = """
## Build

```bash
docker build -f {path} -t serve .
```
"""


def found(root: Path, base: str, readme: str) -> list[tuple[int, str, str]]:
    files = {
        "svc/Dockerfile.gateway": f"FROM {base}\nRUN pip install requests==2.31.0\n",
        "svc/Dockerfile.engine-base": SERVER,
        "svc/Dockerfile.engine-alt": ALTERNATE,
        "svc/README.md": readme,
    }
    make_tree(root, files)
    models = [build_model(root / p, p) for p in sorted(files) if "Dockerfile" in p]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "svc/README.md", models, {}, root / "svc", root)
    ]


@pytest.mark.parametrize(
    "named",
    [
        BUILD.format(path="svc/Dockerfile.gateway"),
        "\n## Source\n\nThe image is built from [its Dockerfile](Dockerfile.gateway).\n",
    ],
)
def test_a_sibling_outside_the_named_images_chain_contradicts_nothing(tmp_path: Path, named: str) -> None:
    # the gateway is built on the engine-base image, its tag naming that Dockerfile
    readme = TABLE.format(ray="2.40.0", requests="2.31.0") + named
    assert found(tmp_path, "example/engine:engine-base-cu124", readme) == []


def test_a_claim_the_named_chain_contradicts_is_still_certain(tmp_path: Path) -> None:
    readme = TABLE.format(ray="2.41.0", requests="2.30.0") + BUILD.format(path="svc/Dockerfile.gateway")
    assert found(tmp_path, "example/engine:engine-base-cu124", readme) == [
        (6, "README says Ray 2.41.0 but svc/Dockerfile.engine-base:2 says 2.40.0", "certain"),
        (7, "README says requests 2.30.0 but svc/Dockerfile.gateway:2 says 2.31.0", "certain"),
    ]


def test_an_untold_local_base_needs_a_contradiction_of_every_sibling_that_may_build_it(
    tmp_path: Path,
) -> None:
    # `engine-local:gpu` may be either engine Dockerfile's image: vLLM is pinned by one only
    readme = TABLE.format(ray="2.41.0", requests="2.30.0") + BUILD.format(path="svc/Dockerfile.gateway")
    assert found(tmp_path, "engine-local:gpu", readme) == [
        (6, "README says Ray 2.41.0 but svc/Dockerfile.engine-alt:2 says 2.40.0", "likely"),
        (7, "README says requests 2.30.0 but svc/Dockerfile.gateway:2 says 2.31.0", "certain"),
    ]


@pytest.mark.parametrize(
    "build",
    [
        "",  # names no Dockerfile
        BUILD.format(path="svc/Dockerfile.gateway") + BUILD.format(path="svc/Dockerfile.engine-alt"),
    ],
)
def test_a_readme_naming_no_one_dockerfile_is_compared_with_every_image(tmp_path: Path, build: str) -> None:
    readme = TABLE.format(ray="2.40.0", requests="2.31.0") + build
    assert [f[:2] for f in found(tmp_path, "example/engine:engine-base-cu124", readme)] == [
        (5, "README says vLLM 0.8.5.dev3 but svc/Dockerfile.engine-alt:2 says 0.9.0")
    ]
