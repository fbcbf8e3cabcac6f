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


# `loaded_tags`: an archive a make target saves under one tag, loaded elsewhere and used under another.
EXPORT_MAKEFILE = """\
NAME = paint-rocm
TAG = 1.6.0
OUT = out
build:
\tdocker buildx build -t $(NAME):$(TAG) -t $(NAME):latest . --load
export:
\tdocker save $(NAME):$(TAG) | gzip > $(OUT)/paint-rocm-$(TAG).tar.gz
all: build export
"""
EXPORT = """\
# Paint on ROCm

```bash
make all
```

On the target machine:

```bash
docker load -i /path/to/paint-rocm-1.6.0.tar.gz
```

```yaml
services:
  paint:
    image: paint-rocm:latest
```
"""


def _loaded(root: Path, readme: str, makefile: str = EXPORT_MAKEFILE) -> list[tuple[int, str]]:
    make_tree(root, {"Dockerfile": DEPS, "Makefile": makefile, "README.md": readme})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root, root)
        if d.message.startswith("README uses")
    ]


def test_a_loaded_archive_used_under_a_tag_it_does_not_hold(tmp_path: Path) -> None:
    assert _loaded(tmp_path, EXPORT) == [
        (
            16,
            "README uses paint-rocm:latest after loading paint-rocm-1.6.0.tar.gz (line 10), but Makefile:7 "
            "saves it as paint-rocm:1.6.0 only: the loaded image has no latest tag",
        )
    ]


def test_a_save_with_an_output_file_and_a_run_of_another_version(tmp_path: Path) -> None:
    makefile = "image:\n\tdocker build -t acme/api:2.0 .\n\tdocker save -o api.tar acme/api:2.0\n"
    readme = (
        "```sh\nmake image\nscp api.tar host:\ndocker load < api.tar\n```\n\n"
        "```yaml\nimage: acme/api:2.1\n```\n"
    )
    [(line, message)] = _loaded(tmp_path, readme, makefile)
    assert line == 8 and "Makefile:3 saves it as acme/api:2.0 only" in message


@pytest.mark.parametrize(
    ("readme", "makefile"),
    [
        # the tag the archive holds
        (EXPORT.replace("paint-rocm:latest", "paint-rocm:1.6.0"), EXPORT_MAKEFILE),
        # a save of the name alone holds every tag
        (EXPORT, EXPORT_MAKEFILE.replace("$(NAME):$(TAG) |", "$(NAME) |")),
        # the README tags the loaded image itself
        (
            EXPORT.replace("tar.gz\n```", "tar.gz\ndocker tag paint-rocm:1.6.0 paint-rocm:latest\n```"),
            EXPORT_MAKEFILE,
        ),
        # another archive than the one the make target writes
        (EXPORT.replace("paint-rocm-1.6.0.tar.gz\n```", "paint-rocm-1.5.0.tar.gz\n```"), EXPORT_MAKEFILE),
        # an image of another repository
        (EXPORT.replace("image: paint-rocm:latest", "image: redis:7"), EXPORT_MAKEFILE),
    ],
)
def test_loaded_images_used_as_saved_are_silent(tmp_path: Path, readme: str, makefile: str) -> None:
    assert _loaded(tmp_path, readme, makefile) == []


# `_slipped`: a push or tag of a name a slip away from the one the README made. Modelled on two shapes:
# a framework image whose Build section tags `<your hub name>/…` and pushes a differently spelt name,
# and a service that builds `ghcr.io/lumen/indexer` then tags `ghcr.io/lumen/idnexer` for a registry.
FRAMEWORK = """\
# Tensor toolkit image

Pull it: `docker pull lumen/tensorkit`

```shell
docker pull lumen/tensorkit
python3 check.py
```

## Changelog

- 0.3: renamed from tensorkt

# Build
```shell
docker build --tag tensorkit:latest .
docker tag tensorkit:latest <your hub name>/tensorkt:latest
docker push <your hub name>/tensorkit:latest
```
"""
INDEXER = """\
# Indexer

```bash
docker build -t ghcr.io/lumen/indexer:2.1 .
docker tag ghcr.io/lumen/idnexer:2.1 registry.local/indexer:2.1
docker push registry.local/indexer:2.1
```
"""


def _slips(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(root, {"Dockerfile": DEPS, "README.md": readme, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "a slip away" in d.message]


def test_a_pushed_name_a_slip_from_the_tagged_one(tmp_path: Path) -> None:
    assert _slips(tmp_path, FRAMEWORK) == [
        "18: README runs docker push <your hub name>/tensorkit:latest, but no build, tag or pull of the "
        "README makes <your hub name>/tensorkit: it makes <your hub name>/tensorkt:latest (docker tag at "
        "line 17), a slip away (certain)"
    ]
    assert _slips(tmp_path / "b", INDEXER) == [
        "5: README runs docker tag ghcr.io/lumen/idnexer:2.1, but no build, tag or pull of the README makes "
        "ghcr.io/lumen/idnexer: it makes ghcr.io/lumen/indexer:2.1 (-t at line 4), a slip away (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the same placeholder and name on both sides; another placeholder spelling is another name
        (FRAMEWORK.replace("/tensorkt:latest", "/tensorkit:latest"), {}),
        (FRAMEWORK.replace("<your hub name>/tensorkit", "<your hub name>/tensorkt"), {}),
        # pulled, or tagged later in the README
        (INDEXER.replace("docker tag", "docker pull ghcr.io/lumen/idnexer:2.1\ndocker tag"), {}),
        (
            FRAMEWORK.replace(
                "docker push", "docker tag tensorkit:latest <your hub name>/tensorkit\ndocker push"
            ),
            {},
        ),
        # two images told apart by a number
        (INDEXER.replace("idnexer", "indexer2").replace("/indexer:2.1 .", "/indexer1:2.1 ."), {}),
        # a name through a variable, a load, a script whose files name it
        (INDEXER.replace("-t ghcr.io/lumen/indexer:2.1", "-t $IMAGE"), {}),
        (INDEXER.replace("docker tag", "docker load -i images.tar\ndocker tag"), {}),
        (
            INDEXER.replace("docker tag", "./build_all.sh\ndocker tag"),
            {"build_all.sh": "docker build -t ghcr.io/lumen/idnexer:2.1 legacy/\n"},
        ),
    ],
)
def test_pushed_names_that_may_be_there(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _slips(tmp_path, readme, files) == []


def test_a_script_that_names_no_such_image_leaves_the_slip(tmp_path: Path) -> None:
    readme = INDEXER.replace("docker tag", "./lint.sh\ndocker tag")
    assert [r.split(":")[0] for r in _slips(tmp_path, readme, {"lint.sh": "hadolint Dockerfile\n"})] == ["6"]
