"""`docgen.audit.saved_images`: a `docker save`, `docker push` or `docker tag` source naming a tag of the
README's own repository that none of its builds gives.

Modelled on two shapes: an HPC guide whose builds tag `$(cat TAG)` in the folders its `cd`s enter and
which then saves an older tag, and a service README that builds `-t ghcr.io/orbit/node:1.4 --ssh
default` and then pushes `ghcr.io/orbit/node:1.5`. Each drift sits next to the traps that must stay
silent. The trees are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DEPS = "FROM vendor/hpc-sdk:22.1-devel-ubuntu22.04\nRUN echo deps\n"
APP = "FROM acme/hpc:22.1-devel-deps AS builder\nRUN echo app\nFROM acme/hpc:22.1-runtime-base\n"
GUIDE = """\
# Weather model containers

```
git clone git@example.org:acme/containers
cd containers/model
```

```
cd model-deps
docker build -t $(cat TAG) --ssh default .
```

Then the GPU application, e.g.:

```
cd ../model-gpu
docker build -t $(cat TAG) --ssh default .
```

Save it, e.g.,

```
docker save acme/hpc:22.1-devel-model -o model.tar
```
"""
TREE = {
    "model/model-deps/Dockerfile": DEPS,
    "model/model-deps/TAG": "acme/hpc:22.1-devel-deps\n",
    "model/model-gpu/Dockerfile": APP,
    "model/model-gpu/TAG": "acme/hpc:22.1-runtime-model-gpu\n",
}
SERVICE = """\
# Orbit node

```bash
docker build -t ghcr.io/orbit/node:1.4 --ssh default .
docker push ghcr.io/orbit/node:1.5
```
"""


def _audit(root: Path, readme: str, files: dict[str, str], dockerfile: str, where: str = "") -> list[str]:
    make_tree(root, files | {f"{where}README.md": readme})
    model = build_model(root / dockerfile, dockerfile)
    found = audit(readme, f"{where}README.md", model, {}, root / where, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "no build, tag or pull" in d.message]


def test_a_saved_tag_no_build_gives(tmp_path: Path) -> None:
    assert _audit(tmp_path, GUIDE, TREE, "model/model-gpu/Dockerfile", "model/") == [
        "23: README runs docker save acme/hpc:22.1-devel-model, but its builds tag acme/hpc only as "
        "acme/hpc:22.1-devel-deps (model-deps/TAG), acme/hpc:22.1-runtime-model-gpu (model-gpu/TAG): "
        "no build, tag or pull of the README makes acme/hpc:22.1-devel-model (likely)"
    ]
    assert _audit(tmp_path / "b", SERVICE, {"Dockerfile": DEPS}, "Dockerfile") == [
        "5: README runs docker push ghcr.io/orbit/node:1.5, but its builds tag ghcr.io/orbit/node only as "
        "ghcr.io/orbit/node:1.4 (-t at line 4): no build, tag or pull of the README makes "
        "ghcr.io/orbit/node:1.5 (likely)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the tag a build gives, or a `docker tag` made
        GUIDE.replace("acme/hpc:22.1-devel-model", "acme/hpc:22.1-runtime-model-gpu"),
        GUIDE.replace(
            "docker save", "docker tag acme/hpc:22.1-runtime-model-gpu acme/hpc:22.1-devel-model\ndocker save"
        ),
        # pulled first, or a base an audited Dockerfile starts from
        GUIDE.replace("docker save", "docker pull acme/hpc:22.1-devel-model\ndocker save"),
        GUIDE.replace("acme/hpc:22.1-devel-model", "acme/hpc:22.1-runtime-base"),
        # a name the reader picks, another repository
        GUIDE.replace("acme/hpc:22.1-devel-model", "acme/hpc:<your-tag>"),
        GUIDE.replace("acme/hpc:22.1-devel-model", "my-image:latest"),
        GUIDE.replace("acme/hpc:22.1-devel-model", "acme/other:22.1"),
        # a tag through a variable, a TAG file not found, a folder that cannot be told
        GUIDE.replace(
            "docker build -t $(cat TAG) --ssh default .\n```\n\nSave", "docker build -t $IMAGE .\n```\n\nSave"
        ),
        GUIDE.replace("cat TAG", "cat VERSION"),
        GUIDE.replace("cd ../model-gpu", "cd $WORK/model-gpu"),
        # a script, make or compose may tag anything; a load gives names not shown
        GUIDE.replace("docker save", "./tag_all.sh\ndocker save"),
        GUIDE.replace("docker save", "docker load -i base.tar\ndocker save"),
        # a run pulls a published tag
        GUIDE.replace(
            "docker save acme/hpc:22.1-devel-model -o model.tar", "docker run acme/hpc:22.1-devel-model"
        ),
    ],
)
def test_images_that_may_be_there(tmp_path: Path, readme: str) -> None:
    assert _audit(tmp_path, readme, TREE, "model/model-gpu/Dockerfile", "model/") == []
