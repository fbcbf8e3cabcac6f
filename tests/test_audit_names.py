"""`docgen.audit.names`: names a README's commands and examples share with the files beside it.

- `docker exec NAME` / `docker logs NAME` when the compose file beside the README names its containers
  (`container_name:`) and NAME is none of them while one is a slip away;
- `docker run … IMAGE` in a section whose build command tags a near name (`trainr` for `trainer`);
- a compose example in the README copied from the compose file beside it, whose `dockerfile:`, `args:`
  or `image:` the file no longer has.

Each rule: a planted drift next to the nearest true statement (a trap). The project trees are small
models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree, run

from docgen import compose
from docgen.audit import audit
from docgen.audit.names import docker_run, image_at
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM python:3.12-slim
ARG APP_VERSION=1.4
RUN pip install flask==3.0.3
"""
COMPOSE = """\
services:
  web:
    build:
      context: .
      dockerfile: Dockerfile
      args:
        APP_VERSION: "1.4"
    image: shop/web:1.4
    container_name: shop_web
    ports:
      - "8080:8080"
    restart: unless-stopped
  worker:
    build: .
    container_name: shop_worker
    restart: unless-stopped
"""


def _audit(tmp_path: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE, "README.md": readme, **(files or {})})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", model, {}, tmp_path, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_compose_services_are_read_as_written() -> None:
    services = compose.services(COMPOSE.encode(), "compose.yaml")
    assert [(s.name, s.line, s.container_name, s.image, s.dockerfile) for s in services] == [
        ("web", 2, "shop_web", "shop/web:1.4", "Dockerfile"),
        ("worker", 13, "shop_worker", None, None),
    ]
    assert services[0].args == (("APP_VERSION", "1.4"),)
    assert ("restart", "unless-stopped") in services[0].settings


# --------------------------------------------------------------------------------------------------
# docker exec / docker logs NAME


def test_a_container_name_the_compose_file_does_not_give(tmp_path: Path) -> None:
    readme = """\
# Shop

## Run

```bash
docker compose up -d web
docker exec -it shop_web bash
docker exec -it shopweb bash
docker logs -f shop_wrker
```

Debug with `docker logs <container_name>`, or start one by hand:

```bash
docker run -d --name shop_scratch shop/web:1.4
docker exec -it shop_scratch sh
docker exec -it postgres psql
```
"""
    assert _audit(tmp_path, readme, {"compose.yaml": COMPOSE}) == [
        "8: README enters container shopweb, which no compose file names: compose.yaml:2 names service "
        "web's container shop_web (certain)",
        "9: README enters container shop_wrker, which no compose file names: compose.yaml:13 names "
        "service worker's container shop_worker (likely)",
    ]


def test_a_container_name_compose_gives_a_service_without_container_name(tmp_path: Path) -> None:
    plain = COMPOSE.replace("    container_name: shop_worker\n", "")
    readme = "```bash\ndocker exec -it shop-worker-1 bash\ndocker exec -it shop_webb bash\n```\n"
    assert _audit(tmp_path, readme, {"docker-compose.yml": plain}) == [
        "3: README enters container shop_webb, which no compose file names: docker-compose.yml:2 names "
        "service web's container shop_web (likely)"
    ]


def test_no_compose_file_no_container_claim(tmp_path: Path) -> None:
    assert _audit(tmp_path, "```bash\ndocker exec -it shopweb bash\n```\n") == []


# --------------------------------------------------------------------------------------------------
# docker run IMAGE next to docker build -t


def test_a_run_image_that_the_section_does_not_build(tmp_path: Path) -> None:
    readme = """\
# Trainer

## Quick start

```bash
docker build -t trainer:1.0 .
```

### Run it

```bash
docker run --rm -it \\
    -v $PWD:/work \\
    --name train \\
    trainr:tag bash
docker run -it trainer:<tag> bash
docker run --rm nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi
docker run --rm -it ubuntu:24.04 bash
```

## Other images

```bash
docker run -it trainr:latest
```
"""
    assert _audit(tmp_path, readme) == [
        "15: README runs image trainr:tag, but the build command of its section tags trainer (no "
        "command of the README builds trainr) (likely)"
    ]


def test_a_container_created_from_another_sections_image(tmp_path: Path) -> None:
    # `docker create` takes an image as `docker run` does; a name written like the built one but for a
    # word is another section's pasted in.
    readme = """\
# Solver

## Usage

### Build

```bash
docker build -t solver_image .
```

### Results

```bash
docker run --gpus all solver_image
docker create --name scratch graphs_image bash
docker container create -ti solver_image bash
docker create --name other postproc bash
```
"""
    # `postproc`, like nothing built, is still a local name nothing makes, run in the section of the
    # README's only build (`_lone_build_runs`)
    assert _audit(tmp_path, readme) == [
        "15: README runs image graphs_image, but the build command of its section tags solver_image (no "
        "command of the README builds graphs_image) (likely)",
        "17: README runs image postproc, but the only image the README builds is solver_image (no command "
        "of the README builds, tags or pulls postproc) (likely)",
    ]
    # two built names a word away: which one is meant cannot be told
    two = readme.replace(
        "docker build -t solver_image .", "docker build -t solver_image .\ndocker build -t cfd_image ."
    )
    assert _audit(tmp_path, two) == []


def test_a_run_image_a_script_or_a_pull_makes_is_no_claim(tmp_path: Path) -> None:
    readme = """\
## Build

```bash
docker build -t trainer:1.0 .
docker pull example/trainer-gpu:2.0
docker run -it example/trainer-gpu:2.0
docker run -it trainers:dev
```
"""
    script = "#!/bin/sh\ndocker build -t trainers:dev -f Dockerfile .\n"
    assert _audit(tmp_path, readme, {"build.sh": script}) == []
    assert _audit(tmp_path, readme.replace("trainers:dev", "trainerz:dev"), {"build.sh": script}) == [
        "7: README runs image trainerz:dev, but the build command of its section tags trainer (no "
        "command of the README builds trainerz) (likely)"
    ]


COMMITTED = """\
## From scratch

```bash
docker run -it nvidia/cuda:12.4.1-base-ubuntu22.04 bash
pip install openfold
exit
docker commit <CONTAINER_ID> lab/openfold-test
```

## Utilities

```bash
docker run -d -t -v out:/work/out lab/openfold-test
docker run -it lab/openfold-tests
docker build -t lab/openfold-test-v2 .
```
"""
"""A README that builds its image under one name and makes another of a container by hand."""


def test_a_run_image_a_commit_or_an_import_makes_is_no_claim(tmp_path: Path) -> None:
    # `docker commit CONTAINER NAME` makes NAME (the run of it is silent); a slip of it is still told
    assert _audit(tmp_path, COMMITTED) == [
        "14: README runs image lab/openfold-tests, but the build command of its section tags "
        "lab/openfold-test-v2 (no command of the README builds lab/openfold-tests) (likely)"
    ]
    fixed = COMMITTED.replace("docker run -it lab/openfold-tests\n", "")
    assert _audit(tmp_path, fixed) == []
    for made in (
        'docker commit -a "Lab" -m "add openfold, fix perms" 3f2a9c lab/openfold-test:v1',
        "docker container commit --change 'CMD [\"bash\"]' 3f2a9c lab/openfold-test",
        "docker import https://example.org/rootfs.tar.gz lab/openfold-test",
        "docker image import - lab/openfold-test < rootfs.tar",
        "docker load -i openfold.tar",
    ):
        assert _audit(tmp_path, fixed.replace("docker commit <CONTAINER_ID> lab/openfold-test", made)) == []
    # a commit of no name (an image id only) makes no name: the renamed run is told
    nameless = fixed.replace("docker commit <CONTAINER_ID> lab/openfold-test", "docker commit -p 3f2a9c")
    assert _audit(tmp_path, nameless) == [
        "13: README runs image lab/openfold-test, but the build command of its section tags "
        "lab/openfold-test-v2 (no command of the README builds lab/openfold-test) (likely)"
    ]


def test_a_run_image_without_the_namespace_its_build_script_tags(tmp_path: Path) -> None:
    readme = """\
## Quick start

```bash
./tools/make-images.sh
docker run --rm -it trainer:latest python -V
docker run --rm -it lab/trainer:latest python -V
docker run --rm -it ubuntu:24.04 bash
```
"""
    script = """\
#!/usr/bin/env bash
OWNER="${OWNER:-lab}"
VERSION=latest
for name in "trainer" "server"; do
  build_one "$name"
done
build_one() {
  local name=$1
  local ref="${OWNER}/${name}:${VERSION}"
  docker build -t "${ref}" -f "images/Dockerfile.${name}" .
}
"""
    assert _audit(tmp_path, readme, {"tools/make-images.sh": script}) == [
        "5: README runs image trainer:latest, but tools/make-images.sh tags lab/trainer: without the "
        "namespace, docker looks for another image (likely)"
    ]
    # the script also tags the short name, or the README tags it: the image exists (traps)
    tags_both = script.replace('"${ref}"', '"${ref}" -t "${name}:${VERSION}"')
    assert _audit(tmp_path, readme, {"tools/make-images.sh": tags_both.replace("${name}:", "trainer:")}) == []
    tagged = readme.replace("./tools/", "docker tag lab/trainer:latest trainer:latest\n./tools/")
    assert _audit(tmp_path, tagged, {"tools/make-images.sh": script}) == []


def test_a_run_image_without_the_namespace_of_the_readme_build(tmp_path: Path) -> None:
    readme = "## Build\n\n```bash\ndocker build -t acme/trainer:1.0 .\ndocker run -it trainer:1.0\n```\n"
    assert _audit(tmp_path, readme) == [
        "5: README runs image trainer:1.0, but a build command of the README tags acme/trainer: without "
        "the namespace, docker looks for another image (likely)"
    ]
    # a script that takes the namespace from its caller says nothing of it (trap)
    script = '#!/bin/sh\ndocker build -t "$1/trainer" .\n'
    runs = "## Run\n\n```bash\n./build.sh\ndocker run -it trainer:1.0\n```\n"
    assert _audit(tmp_path, runs, {"build.sh": script}) == []


def test_a_container_named_with_one_dash_is_no_image(tmp_path: Path) -> None:
    # modelled on a transcriber's compose project (`-name scribe` above the mounts, the image last) and
    # a web UI's quick start (`-name webui -p …`): the word after `-name` is the container's name, as
    # the author meant `--name`; the slip of the dash is a finding of its own (docker_cli)
    compose = "services:\n  scribe:\n    image: lab/scribe:latest\n    container_name: scribe\n"
    readme = (
        "## Run\n\n```sh\ndocker run -d -name scribe \\\n-v ./cache:/root/.cache \\\nlab/scribe:latest\n```\n"
    )

    def runs(root: Path, readme: str, files: dict[str, str] | None = None) -> list[str]:
        return [f for f in _audit(root, readme, files) if "runs image" in f]

    assert runs(tmp_path / "a", readme, {"compose.yaml": compose}) == []
    webui = "## Run\n\n```sh\ndocker build -t acme/webui .\ndocker run -name webui -p 80:80 acme/webui\n```\n"
    assert runs(tmp_path / "b", webui) == []
    # the image itself without the namespace is still told
    bare = webui.replace("-p 80:80 acme/webui", "-p 80:80 webui")
    assert runs(tmp_path / "c", bare) == [
        "5: README runs image webui, but a build command of the README tags acme/webui: without the "
        "namespace, docker looks for another image (likely)"
    ]
    assert docker_run("docker run -d -name scribe -volume a:/b lab/scribe") == (10, "lab/scribe")


RUN_TAG = """\
## Docker

### Build

```bash
docker build -t solver:cu12.4-cudnn-jammy -f Dockerfile .
```

### Run

```bash
docker run -it --gpus all \\
    -v ~/work:/work \\
    solver:cu12.4-jammy
```
"""


def test_a_run_tag_the_readme_never_builds(tmp_path: Path) -> None:
    # the build's tag changed (or the run's), the repository did not: nothing makes the image run
    assert _audit(tmp_path, RUN_TAG) == [
        "14: README runs image solver:cu12.4-jammy, but no command of it builds that tag: its build "
        "command (line 6) tags solver:cu12.4-cudnn-jammy (certain)"
    ]
    # with a namespace the tag may be a published one: likely
    spaced = RUN_TAG.replace("solver:", "lab/solver:")
    assert _audit(tmp_path, spaced) == [
        "14: README runs image lab/solver:cu12.4-jammy, but no command of it builds that tag: its build "
        "command (line 6) tags lab/solver:cu12.4-cudnn-jammy (likely)"
    ]


VERSIONED = (
    "## Instalación\n\n1. Crear la imagen:\n\n"
    "    ```\n    docker build . -t md-kit:v4 --progress=plain\n    ```\n"
    "2. Correr el contenedor:\n\n    ```\n    docker run -d -p 8888:8888 md-kit:v1\n    ```\n"
)


def test_a_run_of_another_version_than_the_build_tags(tmp_path: Path) -> None:
    # a notebook image's README: built as v4, run as v1 (the one tag built; too short for a slip)
    assert _audit(tmp_path, VERSIONED) == [
        "11: README runs image md-kit:v1, but no command of it builds that tag: its build command "
        "(line 6) tags md-kit:v4 (certain)"
    ]
    # a trainer's README: `1.2` built, `1.1` run, under a namespace: the tag may be published
    trainer = "```bash\ndocker build -t lab/trainer:1.2 .\ndocker run --gpus all lab/trainer:1.1\n```\n"
    assert _audit(tmp_path, trainer) == [
        "3: README runs image lab/trainer:1.1, but no command of it builds that tag: its build command "
        "(line 2) tags lab/trainer:1.2 (likely)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # two versions built: which one the run means is not told
        "```bash\ndocker build -t kit:v3 .\ndocker build -t kit:v4 .\ndocker run kit:v2\n```\n",
        # a version run against a named tag built, or the other way round: not two versions
        "```bash\ndocker build -t kit:gpu .\ndocker run kit:v2\n```\n",
        "```bash\ndocker build -t kit:v2 .\ndocker run kit:gpu\n```\n",
        # the README names the version elsewhere: one it published or built before
        "Earlier releases stay on the hub as `kit:v1`.\n\n"
        "```bash\ndocker build -t kit:v2 .\ndocker run kit:v1\n```\n",
    ],
)
def test_runs_of_a_version_that_cannot_be_told(tmp_path: Path, readme: str) -> None:
    assert _audit(tmp_path, readme) == []


def test_a_run_tag_something_else_makes_is_no_claim(tmp_path: Path) -> None:
    spaced = RUN_TAG.replace("solver:", "lab/solver:")
    # pulled (the published image), or named in prose as one that exists
    pulled = spaced.replace("### Run\n", "### Run\n\n```bash\ndocker pull lab/solver:cu12.4-jammy\n```\n")
    assert _audit(tmp_path, pulled) == []
    said = spaced.replace("### Run\n", "### Run\n\nOr take the prebuilt `lab/solver:cu12.4-jammy`.\n")
    assert _audit(tmp_path, said) == []
    # a script, a Makefile or a bake file beside the README that names the tag
    assert _audit(tmp_path, RUN_TAG, {"tag.sh": "docker tag a solver:cu12.4-jammy\n"}) == []
    assert _audit(tmp_path, RUN_TAG, {"Makefile": "TAG ?= cu12.4-jammy\n"}) == []
    # a command that makes images the README does not show
    loaded = RUN_TAG.replace("### Run\n", "### Run\n\n```bash\ndocker load -i solver.tar\n```\n")
    assert _audit(tmp_path, loaded) == []


def test_a_published_tag_run_before_the_readme_builds_is_no_claim(tmp_path: Path) -> None:
    # a web UI's README: run the published image first, build a custom one further down (trap)
    published = (
        "## Run\n\n```bash\ndocker run --rm -it lab/webui:latest-cuda bash webui.sh\n```\n\n"
        "## Build a custom image\n\n```bash\ndocker build -t lab/webui:custom-cuda .\n```\n"
    )
    assert _audit(tmp_path, published) == []
    # a solver's README in the same order, its run tag one slip from the build's: the same reading
    run = "## Run\n\n```bash\ndocker run -it lab/solver:cu12.4-jammy\n```\n\n"
    solver = run + RUN_TAG.split("### Run")[0]
    assert _audit(tmp_path, solver) == []
    # without a namespace no registry holds it, whatever the order: the run cannot start
    bare = solver.replace("lab/solver", "solver")
    assert [f.split(":", 1)[0] for f in _audit(tmp_path, bare)] == ["4"]
    # a build whose tag is a placeholder, a run of a placeholder, of no tag, of a tag far from any built
    assert _audit(tmp_path, RUN_TAG.replace("-t solver:cu12.4-cudnn-jammy", "-t solver:${TAG}")) == []
    assert _audit(tmp_path, RUN_TAG.replace("solver:cu12.4-jammy", "solver:<tag>")) == []
    assert _audit(tmp_path, RUN_TAG.replace("solver:cu12.4-jammy", "solver")) == []
    assert _audit(tmp_path, RUN_TAG.replace("solver:cu12.4-jammy", "solver:latest")) == []
    # the very tag, written inside `$(docker create …)`
    made = RUN_TAG.replace("solver:cu12.4-cudnn-jammy", "solver:local").replace(
        "docker run -it --gpus all \\\n    -v ~/work:/work \\\n    solver:cu12.4-jammy",
        'id=$(docker create solver:local)\ndocker cp "$id:/out" .',
    )
    assert "docker create solver:local)" in made
    assert _audit(tmp_path, made) == []


# --------------------------------------------------------------------------------------------------
# A compose example copied from the compose file beside the README

EXAMPLE = """\
## Compose

```yaml
services:
  web:
    build:
      context: .
      dockerfile: Dockerfile.dev
      args:
        APP_VERSION: "1.3"
    container_name: shop_web
    ports:
      - "8080:8080"
    restart: unless-stopped
  cache:
    image: redis:7
```
"""


def test_a_compose_example_that_the_file_beside_it_changed(tmp_path: Path) -> None:
    assert _audit(tmp_path, EXAMPLE, {"compose.yaml": COMPOSE}) == [
        "8: README's compose example gives service web dockerfile Dockerfile.dev but compose.yaml:2 "
        "says Dockerfile (certain)",
        "10: README's compose example gives service web APP_VERSION 1.3 but compose.yaml:2 says 1.4 "
        "(certain)",
    ]


def test_a_compose_example_that_is_no_copy_is_likely_and_one_that_agrees_is_none(tmp_path: Path) -> None:
    agreeing = EXAMPLE.replace("Dockerfile.dev", "./Dockerfile").replace('"1.3"', '"1.4"')
    assert _audit(tmp_path, agreeing, {"compose.yaml": COMPOSE}) == []
    short = "```yaml\nservices:\n  web:\n    image: shop/web:2.0\n```\n"
    assert _audit(tmp_path, short, {"compose.yaml": COMPOSE}) == [
        "4: README's compose example gives service web image shop/web:2.0 but compose.yaml:2 says "
        "shop/web:1.4 (likely)"
    ]


# --------------------------------------------------------------------------------------------------
# docker tag SERVICE after docker compose build SERVICE

BUILT = """\
services:
  gpu:
    build:
      context: .
      args:
        APP_VERSION: "1.4"
    image: ghcr.io/shop/gpu:latest
  cpu:
    build: .
    image: cpu:latest
"""


def test_a_tag_of_the_service_name_that_compose_names_otherwise(tmp_path: Path) -> None:
    readme = """\
# Build your own

```
docker compose build --pull --progress plain gpu && docker image tag gpu:latest gpu-1.5:latest
docker-compose build cpu && docker tag cpu:latest cpu-1.5:latest
docker tag ghcr.io/shop/gpu:latest gpu-1.5:latest
```

```
docker tag gpu:latest mirror/gpu:latest
```
"""
    # `cpu` is its image's name; the tag of the image name, and a tag in a block that builds no
    # service, are no claim (traps)
    assert _audit(tmp_path, readme, {"compose.yaml": BUILT}) == [
        "4: README tags image gpu:latest after building service gpu, but compose.yaml:7 names that "
        "image ghcr.io/shop/gpu:latest (Compose builds no image gpu) (certain)"
    ]


# --------------------------------------------------------------------------------------------------
# NAME=VALUE settings a compose service's environment: overrides

SERVED = """\
services:
  api:
    build: .
    env_file:
      - .env
    ports:
      - "${API_PORT:-8000}:8000"
    volumes:
      - "${DATA_DIR}:/srv/data"
    environment:
      - DATA_FILE=/srv/data/${DATA_NAME}
      - API_PORT=${API_PORT:-8000}
      - LOG_LEVEL=info
"""


def test_a_setting_the_compose_environment_overrides(tmp_path: Path) -> None:
    readme = """\
# Shop

## Prerequisites

Create `.env`:

```
API_PORT=8000
DATA_DIR=./data
DATA_FILE=/data/catalog.db
LOG_LEVEL=info
```
"""
    # API_PORT is read from the env file; LOG_LEVEL agrees (traps)
    assert _audit(tmp_path, readme, {"compose.yaml": SERVED}) == [
        "10: README sets DATA_FILE=/data/catalog.db, but compose.yaml:11 sets "
        "DATA_FILE=/srv/data/${DATA_NAME} in service api's environment, which overrides the env file: "
        "the value has no effect (certain)"
    ]
    # a block naming none of the variables the service reads is about something else
    other = "# Shop\n\n```\nDATA_FILE=/data/catalog.db\nTHREADS=4\n```\n"
    assert _audit(tmp_path, other, {"compose.yaml": SERVED}) == []


# --------------------------------------------------------------------------------------------------
# What a compose file's container launches

TRAIN = """\
services:
  train:
    build: .
    command:
      - bash
      - -lc
      - python tools/fetch.py && python train.py --epochs 3
"""
TRAIN_CPU = """\
services:
  train-cpu:
    build: .
    command: python scripts/all_cores.py train.py
"""


def test_a_launcher_the_compose_file_named_does_not_run(tmp_path: Path) -> None:
    readme = """\
# Training

With `docker-compose.train.yml`, data is fetched first. The container now launches via
`scripts/all_cores.py`, which uses every core.

With `docker-compose.cpu.yml`, the container launches via `scripts/all_cores.py` too.
The container runs `train.py` with `docker-compose.train.yml`.
"""
    files = {"docker-compose.train.yml": TRAIN, "docker-compose.cpu.yml": TRAIN_CPU}
    # the CPU file runs the launcher; train.py is in the train command (traps)
    assert _audit(tmp_path, readme, files) == [
        "4: README says the container launches via scripts/all_cores.py, but docker-compose.train.yml:2 "
        "runs service train with bash -lc python tools/fetch.py && python train.py --epochs 3 "
        "and no command of it names all_cores.py (likely)"
    ]


PULLED = """\
services:
  bot:
    image: registry.example/team/bot:gpu
    container_name: bot
    restart: unless-stopped
"""


def test_an_example_that_builds_a_service_the_file_pulls_names_its_own_image(tmp_path: Path) -> None:
    # The README shows how to build the image instead of pulling it: its `image:` is the reader's name.
    building = (
        "```yaml\nservices:\n  bot:\n    image: bot:gpu  # any name\n    build:\n      context: ../..\n"
        "    container_name: bot\n    restart: unless-stopped\n```\n"
    )
    assert _audit(tmp_path, building, {"compose.yaml": PULLED}) == []
    # an example that pulls too is a copy of the file's service: its other image is a drift
    pulling = building.replace("    build:\n      context: ../..\n", "")
    assert _audit(tmp_path, pulling, {"compose.yaml": PULLED}) == [
        "4: README's compose example gives service bot image bot:gpu but compose.yaml:2 says "
        "registry.example/team/bot:gpu (certain)"
    ]


SSH_LAYER = (
    "ARG PARENT_IMAGE\nFROM ${PARENT_IMAGE}\nRUN apt-get update && apt-get install -y openssh-server\n"
)
TWO_STEPS = """\
# Train image

```bash
docker build -t trainer:cu12.4-py3.12-app-1.4-rev-${git rev} .
```

Then the login layer:

```bash
docker build --build-arg PARENT_IMAGE=trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev} \\
    -f Dockerfile.login -t trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev}-login .
```
"""


def test_a_base_image_arg_naming_a_tag_no_build_of_the_readme_makes(tmp_path: Path) -> None:
    found = _audit(tmp_path, TWO_STEPS, {"Dockerfile.login": SSH_LAYER})
    assert found == [
        "10: README builds with --build-arg "
        "PARENT_IMAGE=trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev}, an image no command of the "
        "README makes: line 4 builds trainer:cu12.4-py3.12-app-1.4-rev-${git rev} (certain)"
    ]
    quoted = TWO_STEPS.replace(
        "PARENT_IMAGE=trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev}",
        'PARENT_IMAGE="trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev}"',
    )
    assert [f[:3] for f in _audit(tmp_path, quoted, {"Dockerfile.login": SSH_LAYER})] == ["10:"]
    namespaced = TWO_STEPS.replace("trainer:", "acme/trainer:")
    assert [f[-8:] for f in _audit(tmp_path, namespaced, {"Dockerfile.login": SSH_LAYER})] == ["(likely)"]


def test_base_image_args_that_a_build_pull_or_file_may_make(tmp_path: Path) -> None:
    files = {"Dockerfile.login": SSH_LAYER}
    traps = [
        # the tag the first step makes, its placeholder matching anything
        TWO_STEPS.replace(
            "cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev} \\", "cu12.4-py3.12-app-1.4-rev-abc123 \\"
        ),
        # no tag on either side: both are latest
        TWO_STEPS.replace("-t trainer:cu12.4-py3.12-app-1.4-rev-${git rev} .", "-t trainer .").replace(
            "PARENT_IMAGE=trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev} ", "PARENT_IMAGE=trainer "
        ),
        # a placeholder the reader fills in
        TWO_STEPS.replace("cu12.4-cudnn9-py3.12-app-1.4-rev-${git rev} \\", "<tag> \\"),
        # the repository is pulled: a registry publishes its tags
        TWO_STEPS.replace("Then the login layer:", "```bash\ndocker pull trainer:stable\n```"),
        # a registry path
        TWO_STEPS.replace("PARENT_IMAGE=trainer:", "PARENT_IMAGE=ghcr.io/acme/trainer:"),
        # retagged by a command of the README
        TWO_STEPS.replace(
            "Then the login layer:",
            "```bash\ndocker tag trainer:cu12.4-py3.12-app-1.4-rev-x "
            "trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-x\n```",
        ),
        # the only build of the repository is the one passing the arg
        TWO_STEPS.split("Then")[0].replace("-t trainer:", "-t coach:") + "Then" + TWO_STEPS.split("Then")[1],
    ]
    for readme in traps:
        assert _audit(tmp_path, readme, files) == [], readme
    script = "#!/bin/sh\ndocker build -t trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-$1 .\n"
    assert _audit(tmp_path, TWO_STEPS, {**files, "build.sh": script}) == []
    compose_file = (
        "services:\n  app:\n    build: .\n    image: trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-main\n"
    )
    assert _audit(tmp_path, TWO_STEPS, {**files, "compose.yaml": compose_file}) == []


def test_a_base_a_makefile_beside_the_readme_may_tag(tmp_path: Path) -> None:
    makefile = "base:\n\tdocker build -t trainer:cu12.4-cudnn9-py3.12-app-1.4-rev-$(REV) .\n"
    assert _audit(tmp_path, TWO_STEPS, {"Dockerfile.login": SSH_LAYER, "Makefile": makefile}) == []


def test_a_run_of_the_other_variant_beside_its_dockerfile_is_no_claim(tmp_path: Path) -> None:
    # the README builds the cpu variant and says to change the word for gpu: `ocr:gpu` is built from
    # gpu/Dockerfile the same way (trap); with no gpu Dockerfile audited the tag is a renamed one (drift)
    readme = (
        "# OCR\n\n```\ncd cpu\ndocker build -t ocr:cpu .\n```\n\n"
        "```\ndocker run -dp 9960:9960 --gpus all --name ocr ocr:gpu\n```\n"
    )
    make_tree(tmp_path, {"cpu/Dockerfile": DOCKERFILE, "gpu/Dockerfile": DOCKERFILE, "README.md": readme})
    models = [build_model(tmp_path / f"{v}/Dockerfile", f"{v}/Dockerfile") for v in ("cpu", "gpu")]
    assert audit(readme, "README.md", models, {}, tmp_path, tmp_path) == []
    alone = audit(readme, "README.md", models[:1], {}, tmp_path, tmp_path)
    assert [f"{d.line}: {d.message} ({d.confidence})" for d in alone] == [
        "9: README runs image ocr:gpu, but no command of it builds that tag: its build command (line 5) "
        "tags ocr:cpu (certain)"
    ]


SENT_BACK = """\
# Sensor tools

```
docker pull acme/sensor
```

## Running the container

```
docker run -it --rm \\
    --device-cgroup-rule "c 81:* rmw" \\
    acme/sensor rs-list
```

## Building the image

Build it with the [script](build_image.sh):
```
./build_image.sh
```

Then, running the container is done as described [above](#running-the-container).
"""
BUILD_SCRIPT = """\
#!/bin/sh
TAG=`git describe --tags`
docker build \\
    --target runtime \\
    --tag sensor --tag sensor:$TAG \\
    .
"""


def test_a_local_build_sent_to_runs_of_the_published_image(tmp_path: Path) -> None:
    # the script tags `sensor`; the runs the README sends the reader back to start `acme/sensor`
    assert _audit(tmp_path, SENT_BACK, {"build_image.sh": BUILD_SCRIPT}) == [
        "12: README runs image acme/sensor for the image built at line 19, but build_image.sh:5 tags it "
        "sensor: the run starts the published image, not the one built (likely)"
    ]
    # the same with the build command in the README
    built = SENT_BACK.replace("./build_image.sh", "docker build -t sensor .")
    assert _audit(tmp_path, built) == [
        "12: README runs image acme/sensor for the image built at line 19, but the build command tags it "
        "sensor: the run starts the published image, not the one built (likely)"
    ]


def test_runs_of_the_published_image_without_a_way_back_are_no_claim(tmp_path: Path) -> None:
    files = {"build_image.sh": BUILD_SCRIPT}
    # no sentence sends the local build to the runs: the runs are of the pulled image
    alone = SENT_BACK.replace(
        "Then, running the container is done as described [above](#running-the-container).", ""
    )
    assert _audit(tmp_path, alone, files) == []
    # the script also tags the published name, or the README tags it so
    both = {"build_image.sh": BUILD_SCRIPT.replace("--tag sensor ", "--tag sensor --tag acme/sensor ")}
    assert _audit(tmp_path, SENT_BACK, both) == []
    tagged = SENT_BACK.replace("./build_image.sh\n", "./build_image.sh\ndocker tag sensor acme/sensor\n")
    assert _audit(tmp_path, tagged, files) == []
    # runs of another image, or a script whose tag is not known
    other = SENT_BACK.replace("acme/sensor rs-list", "acme/viewer rs-list")
    assert _audit(tmp_path, other, files) == []
    unknown = {"build_image.sh": BUILD_SCRIPT.replace("--tag sensor --tag sensor:$TAG", "--tag $NAME")}
    assert _audit(tmp_path, SENT_BACK, unknown) == []


def test_the_image_of_a_run_with_short_options_in_one_word() -> None:
    # `-dp` is `-d -p`: its value is the next word; a quoted value is one word; `-rm` (old Docker's
    # one-dash long option) takes none
    assert docker_run("docker run -dp 8866:8866 --name ocr ocr:cpu") == (10, "ocr:cpu")
    assert docker_run("docker run -itv /data:/data ocr:cpu bash") == (10, "ocr:cpu")
    assert docker_run('docker run --device-cgroup-rule "c 81:* rmw" acme/sensor') == (10, "acme/sensor")
    assert docker_run("docker run -rm -t -i ocr:cpu") == (10, "ocr:cpu")
    assert docker_run("docker run -dit ocr:cpu") == (10, "ocr:cpu")


def test_the_image_of_a_run_is_found_after_a_container_named_like_it() -> None:
    # `--name webui` names the container first; the image is the word after the options
    command = "docker run -d --name webui -p 8000:8000 webui"
    assert image_at(command, 10, "webui") == command.rindex("webui")
    quoted = 'docker run --device-cgroup-rule "c 81:* rmw" -e NAME=acme acme'
    assert image_at(quoted, 10, "acme") == quoted.rindex("acme")
    assert image_at("docker run -dp 8866:8866 ocr:cpu bash", 10, "ocr:cpu") == 25
    assert image_at("docker run --rm", 10, "acme") == -1


def test_a_build_script_that_is_a_link_out_of_the_repository_is_not_read(tmp_path: Path) -> None:
    # the script that would tag lab/trainer lies outside the repository: not read, so no tag is known
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "make-images.sh").write_text(
        "#!/usr/bin/env bash\ndocker build -t lab/trainer:latest -f images/Dockerfile.trainer .\n"
    )
    project = tmp_path / "project"
    readme = "## Quick start\n\n```bash\n./make-images.sh\ndocker run -it trainer:latest python -V\n```\n"
    (project / ".git").mkdir(parents=True)
    (project / "make-images.sh").symlink_to(tmp_path / "elsewhere" / "make-images.sh")
    assert [m for m in _audit(project, readme) if "without the namespace" in m] == []


# --------------------------------------------------------------------------------------------------
# docker run of a compose file's container_name

BUILT_COMPOSE = """\
services:
  lab:
    build:
      context: .
      dockerfile: Dockerfile
    container_name: lab_env
    tty: true
"""


def test_a_run_of_the_container_name_compose_gives(tmp_path: Path) -> None:
    readme = """\
# Lab

docker compose up -d --build

docker exec -it lab_env bash

docker run -it --rm --gpus all lab_env
"""
    found = _audit(tmp_path, readme, {"docker-compose.yml": BUILT_COMPOSE})
    assert len(found) == 1, found
    assert found[0].startswith("7: README runs image lab_env, but lab_env is the container name")
    assert "Compose tags the image it builds" in found[0] and "(certain)" in found[0]


def test_the_image_compose_tags_is_the_services_image_key(tmp_path: Path) -> None:
    # a ROCm stack whose service names its image under a registry namespace (`image:`): Compose tags
    # the build so, not `<folder>-<service>`; a run of the container's name is still no image
    compose = BUILT_COMPOSE.replace("    tty: true\n", "    image: acme-gpu/lab_env:latest\n")
    readme = "# Lab\n\n```bash\ndocker compose build\ndocker run -it lab_env:latest\n```\n"
    found = [f for f in _audit(tmp_path, readme, {"docker-compose.yml": compose}) if "container name" in f]
    assert len(found) == 1, found
    assert "Compose tags the image it builds acme-gpu/lab_env:latest (docker-compose.yml:7)" in found[0]
    assert "-lab" not in found[0]  # no project-named image the service's `image:` replaces


def test_a_container_name_started_entered_or_made_an_image_is_no_claim(tmp_path: Path) -> None:
    readme = """\
# Lab

```bash
docker compose up -d
docker exec -it lab_env bash
docker logs -f lab_env
docker start lab_env
docker run --rm --volumes-from lab_env --name lab_env busybox ls
```
"""
    assert _audit(tmp_path, readme, {"docker-compose.yml": BUILT_COMPOSE}) == []
    # a compose `image:` of that name: the image Compose builds is tagged so
    named = BUILT_COMPOSE.replace("    tty: true\n", "    image: lab_env\n")
    run = readme.replace("busybox ls", "busybox ls\ndocker run -it lab_env")
    assert _audit(tmp_path / "image", run, {"docker-compose.yml": named}) == []
    # a build of the README's that tags it, a commit of the container under that name
    for n, made in enumerate(("docker build -t lab_env .", "docker commit lab_env lab_env:latest")):
        shown = run.replace("docker compose up -d\n", f"docker compose up -d\n{made}\n")
        assert _audit(tmp_path / str(n), shown, {"docker-compose.yml": BUILT_COMPOSE}) == [], made
    # a service that pulls its image: its container name is no image compose builds
    pulled = BUILT_COMPOSE.replace(
        "    build:\n      context: .\n      dockerfile: Dockerfile\n", "    image: org/lab:1\n"
    )
    assert _audit(tmp_path / "pulled", run, {"docker-compose.yml": pulled}) == []
    # the name Compose tags the image it builds with anyway (`<folder>-<service>`)
    project = BUILT_COMPOSE.replace("lab_env", "shop-lab")
    shop = readme.replace("lab_env", "shop-lab") + "\nThen `docker run -it shop-lab`.\n"
    assert _audit(tmp_path / "shop", shop, {"docker-compose.yml": project}) == []


def test_many_services_built_from_one_dockerfile_each_run_by_its_container_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shape `container-name-runs` of benchmarks/bench_shapes.py: a compose file of 60 services,
    each building the one Dockerfile and naming its container, and a README running 12 of the container
    names as images. Each run is one finding (its service, the image Compose tags), none for the
    `docker compose up` before them; found the same when each image of the family was told its own base
    again for every one (auditor.OwnBases reads the family once)."""
    services = "".join(
        f"  cell{k}:\n    build:\n      context: .\n      dockerfile: Dockerfile\n"
        f"    container_name: grid_box{k}\n"
        for k in range(60)
    )
    runs = "".join(f"docker run -it --rm grid_box{k % 12}\n" for k in range(36))
    make_tree(
        tmp_path,
        {
            "Dockerfile": "FROM ubuntu:22.04\nRUN pip install torch==2.1.0\n",
            "docker-compose.yml": "services:\n" + services,
            "README.md": f"# Grid\n\n```bash\ndocker compose up -d --build\n{runs}```\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    result = run("audit", "README.md", "--confidence", "likely")
    folder = tmp_path.name.lower()
    expected = [
        f"README.md:{k + 5}: error: README runs image grid_box{k}, but grid_box{k} is the container name "
        f"docker-compose.yml:{5 * k + 2} gives service cell{k}, not an image: Compose tags the image it "
        f"builds {folder}-cell{k}, and nothing of the README builds, tags or pulls grid_box{k} [DG103] "
        "(certain)"
        for k in range(12)
    ]
    assert result.code == 1
    assert result.out.splitlines()[:-1] == expected


# --- a run of a local name nothing makes, after the README's only build ---------------------------------

LONE = """\
# Fine-tuning image

The pre-built image is on Docker Hub as acme/tuner_arm64.

## Building the Docker Image

```bash
sudo docker build -t tuner_image:latest .
```

## Running the Docker Image

To run the image after the build:

```bash
sudo docker run -it --rm --gpus all --ipc=host local_tuner:latest
```
"""
"""A build and a run in sections of their own, the run naming another local image (the shape of a
GH200 fine-tuning README)."""

DEMO = """\
# Log parser

# Demo run in Docker

- from the project's root

```
sudo docker build --no-cache -t parser-demo:1 -f ./Dockerfile .
```

```
sudo docker run -it --rm demo-parser:1 /bin/sh
```
"""
"""Build and run under one heading, the run's name another (the shape of a Maven demo README)."""


def test_a_run_of_a_local_name_the_only_build_does_not_make(tmp_path: Path) -> None:
    assert _audit(tmp_path, LONE) == [
        "16: README runs image local_tuner:latest, but the only image the README builds is "
        "tuner_image:latest (no command of the README builds, tags or pulls local_tuner) (likely)"
    ]
    assert _audit(tmp_path, DEMO) == [
        "12: README runs image demo-parser:1, but the only image the README builds is parser-demo:1 (no "
        "command of the README builds, tags or pulls demo-parser) (likely)"
    ]
    # the right name: nothing to say
    assert _audit(tmp_path, LONE.replace("local_tuner:latest", "tuner_image:latest")) == []


PLACEHOLDER_RUNS = """\
# Text recogniser

From the root of the repository, build the GPU image:

```
docker build -t ocr-tf:gpu -f docker/gpu/Dockerfile .
```

Run it in a container:

```
nvidia-docker run -it --rm -v <path to project>:/app ocr-tf:gpu
docker run -it --rm -v <your data folder>:/data --name <container name> ocr-tf:gpu
```
"""
"""Runs whose placeholders hold spaces (`<path to project>`, the shape of a CRNN README and a
speech-to-text one): each placeholder is one value the reader fills in."""


def test_a_placeholder_of_several_words_is_one_word(tmp_path: Path) -> None:
    assert docker_run("docker run -it --rm -v <path to project>:/app ocr-tf:gpu") == (10, "ocr-tf:gpu")
    assert docker_run("docker run -it <image id> --diarize") == (10, "<image id>")
    assert docker_run("docker run --rm app < input.txt > out.txt") == (10, "app")
    assert [f for f in _audit(tmp_path, PLACEHOLDER_RUNS) if "only image" in f] == []
    # the wrong name after the same placeholder is still told
    renamed = PLACEHOLDER_RUNS.replace("/app ocr-tf:gpu", "/app textreader:latest")
    assert [f for f in _audit(tmp_path / "b", renamed) if "only image" in f] == [
        "12: README runs image textreader:latest, but the only image the README builds is ocr-tf:gpu (no "
        "command of the README builds, tags or pulls textreader) (likely)"
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an official image, one with an owner or a registry, a placeholder, the reader's own name
        ("local_tuner:latest", "mongo:7"),
        ("local_tuner:latest", "acme/tuner_arm64"),
        ("local_tuner:latest", "ghcr.io/acme/tuner"),
        ("local_tuner:latest", "<image>"),
        ("local_tuner:latest", "your_image"),
        ("-t tuner_image:latest", "-t your-image-name"),
        # a build that tags an owner, two images built, one the README pulls, tags or loads
        ("-t tuner_image:latest", "-t acme/tuner_image:latest"),
        (
            "-t tuner_image:latest .",
            "-t tuner_image:latest .\nsudo docker build -t tuner_cpu -f cpu.Dockerfile .",
        ),
        ("-t tuner_image:latest .", "-t tuner_image:latest .\nsudo docker pull local_tuner:latest"),
        ("-t tuner_image:latest .", "-t tuner_image:latest .\nsudo docker tag tuner_image local_tuner"),
        ("-t tuner_image:latest .", "-t tuner_image:latest .\ndocker load -i images.tar"),
        # another builder may make it under that name (compose, make, a script, a buildpack)
        ("-t tuner_image:latest .", "-t tuner_image:latest .\ndocker compose build"),
        ("-t tuner_image:latest .", "-t tuner_image:latest .\nmake images"),
        ("-t tuner_image:latest .", "-t tuner_image:latest .\n./build_all.sh"),
        ("-t tuner_image:latest .", "-t tuner_image:latest .\npack build local_tuner --builder acme/b"),
        # the README names it elsewhere: made or described outside the runs
        ("To run the image after the build:", "Build local_tuner from the base repository first."),
        # a later section not about running the image built, or about other images
        ("## Running the Docker Image", "## Benchmarks"),
        ("## Running the Docker Image", "## Running other images"),
        ("## Running the Docker Image", "## Running the prebuilt image"),
    ],
)
def test_a_run_of_a_name_that_may_be_made_elsewhere_is_no_finding(tmp_path: Path, old: str, new: str) -> None:
    readme = LONE.replace(old, new)
    assert readme != LONE
    assert [f for f in _audit(tmp_path, readme) if "only image the README builds" in f] == [], new


WORDS = """\
# Edge board

## Build

```
cd board
docker build -t base .
```

## Run

```
docker run -it --device /dev/apex_0:/dev/apex_0 {image} /bin/bash
```

Check that your {word} is at `/dev/apex_0`.

```
{inside}
```
"""
"""A run of a name that is also a word of the prose around it (the shape of a Coral TPU README), with
a demo run inside the container by an absolute path."""


@pytest.mark.parametrize(
    ("image", "word", "inside"),
    [
        ("coral", "coral device", "python3 /usr/share/edgetpu/examples/classify.py --image bird.bmp"),
        ("sandbox", "sandbox board", "bash /opt/tools/selftest.sh"),
    ],
)
def test_a_run_of_a_plain_word_the_prose_uses_as_a_word(
    tmp_path: Path, image: str, word: str, inside: str
) -> None:
    """The name written as a word of prose (`your coral device`) names no image, and a script run by an
    absolute path is the container's, no builder: the run names an image nothing makes."""
    readme = WORDS.format(image=image, word=word, inside=inside)
    assert [f for f in _audit(tmp_path, readme) if "only image" in f] == [
        f"13: README runs image {image}, but the only image the README builds is base (no command of the "
        f"README builds, tags or pulls {image}) (likely)"
    ]


@pytest.mark.parametrize(
    ("word", "inside"),
    [
        ("`coral` build", "python3 /usr/share/edgetpu/examples/classify.py"),  # in code: the image's name
        ("coral image", "python3 /usr/share/edgetpu/examples/classify.py"),  # said to be an image
        ("coral device", "./make_coral.sh"),  # a script of the checkout may build it
    ],
)
def test_a_plain_word_said_as_an_image_or_a_builder_beside(tmp_path: Path, word: str, inside: str) -> None:
    readme = WORDS.format(image="coral", word=word, inside=inside)
    assert [f for f in _audit(tmp_path, readme) if "only image" in f] == []


def test_a_run_before_the_build_is_no_finding(tmp_path: Path) -> None:
    readme = "# App\n\n## Quick start\n\n```bash\ndocker run -it demo-tool\ndocker build -t app .\n```\n"
    assert [f for f in _audit(tmp_path, readme) if "only image" in f] == []


# --------------------------------------------------------------------------------------------------
# the image and the container of the one script the README runs (`_ran_script_misses`)

RUN_SCRIPT = """\
#!/bin/bash
xhost +local:root
docker run -it \\
  --gpus all \\
  --env DISPLAY=$DISPLAY \\
  --network host \\
  --name {name} \\
  {image}
"""
SCRIPT_README = """\
## Simulator dev image (run from the gpu/ folder)

```bash
docker build -t sim_gpu_image .
./start_sim.bash
docker start -ai sim_gpu_box
docker exec -it sim_gpu_box bash
docker stop sim_gpu_box
```
"""


def _script_pair(
    root: Path, script: str, readme: str = SCRIPT_README, more: dict[str, str] | None = None
) -> list[str]:
    files = {"gpu/Dockerfile": DOCKERFILE, "gpu/start_sim.bash": script, "README.md": readme}
    make_tree(root, files | (more or {}))
    model = build_model(root / "gpu" / "Dockerfile", "gpu/Dockerfile")
    found = audit(readme, "README.md", model, {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


def test_a_script_the_readme_runs_runs_another_image_and_names_another_container(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the README runs its commands from the audited Dockerfile's folder
    shown = "./start_sim.bash (gpu/start_sim.bash:3)"
    assert _script_pair(tmp_path, RUN_SCRIPT.format(name="sim_box", image="sim_img")) == [
        f"5: README builds image sim_gpu_image and then runs {shown}, whose docker run runs image sim_img, "
        "which nothing of the README or the repository builds, tags or pulls (likely)",
        f"6: README names container sim_gpu_box, but the only container made is the one {shown} runs, "
        "--name sim_box; also at lines 7, 8 (likely)",
    ]


@pytest.mark.parametrize(
    "script",
    [
        RUN_SCRIPT.format(name="sim_gpu_box", image="sim_gpu_image"),  # both as the README says
        RUN_SCRIPT.format(name='"$SIM_BOX"', image="$SIM_IMAGE"),  # names from variables
        RUN_SCRIPT.format(name="sim_gpu_box", image="${IMAGE:-sim_img}"),  # the environment may set it
        "IMAGE=$1\n" + RUN_SCRIPT.format(name="sim_gpu_box", image="$IMAGE"),  # an argument
        RUN_SCRIPT.format(name="sim_gpu_box", image="acme/sim_img"),  # another owner's published image
        RUN_SCRIPT.format(name="sim_gpu_box", image="ubuntu:22.04"),  # an official image
        "docker build -t sim_img .\n" + RUN_SCRIPT.format(name="sim_gpu_box", image="sim_img"),  # it builds
        "docker pull sim_img\n" + RUN_SCRIPT.format(name="sim_gpu_box", image="sim_img"),
    ],
)
def test_a_script_whose_image_and_container_may_be_the_readmes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _script_pair(tmp_path, script) == []


BOX_COMPOSE = "services:\n  sim:\n    image: sim_gpu_image\n    container_name: sim_gpu_box\n"


@pytest.mark.parametrize(
    ("readme", "more"),
    [
        # the README runs a container of its own: `docker exec` may enter it
        (
            SCRIPT_README.replace(
                "./start_sim.bash\n", "./start_sim.bash\ndocker run -d --name sim_gpu_box sim_gpu_image\n"
            ),
            {},
        ),
        # compose makes the container
        (
            SCRIPT_README.replace("./start_sim.bash\n", "./start_sim.bash\ndocker compose up -d\n"),
            {"compose.yaml": BOX_COMPOSE},
        ),
        # two scripts: which one made the container is not told
        (
            SCRIPT_README.replace("./start_sim.bash\n", "./start_sim.bash\n./gpu/attach.sh\n"),
            {"gpu/attach.sh": "docker start sim_gpu_box\n"},
        ),
        # a placeholder the reader fills in
        (SCRIPT_README.replace("sim_gpu_box", "<container-name>"), {}),
        # the README names the container in prose: it is made elsewhere (a devcontainer, by hand)
        (SCRIPT_README + "\nThe dev container `sim_gpu_box` is made by the IDE.\n", {}),
    ],
)
def test_container_commands_the_script_may_not_be_alone_in_making(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, readme: str, more: dict[str, str]
) -> None:
    monkeypatch.chdir(tmp_path)
    script = RUN_SCRIPT.format(name="sim_box", image="sim_gpu_image")
    assert _script_pair(tmp_path, script, readme, more) == []


def test_the_container_only_when_the_readme_builds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    readme = SCRIPT_README.replace("docker build -t sim_gpu_image .\n", "")
    found = _script_pair(tmp_path, RUN_SCRIPT.format(name="sim_box", image="sim_img"), readme)
    assert [f.split(":", 1)[0] for f in found] == ["5"]
    assert "container sim_gpu_box" in found[0]


# A README that builds an image and then runs a script whose `docker run` runs a slip of the built name:
# modelled on two shapes, an inference image whose README builds `owner/name` and runs a start script
# beside it (a Windows twin of it runs the built name), and a robotics workspace whose README builds a
# local name and runs a `.bash` script under `docker/`.
SLIP_README = """\
Serving quantized models
===

## Build

```bash
docker build -t deskai/llm-serve-gptq .
```

## Start

```
# Linux
./start.sh
# Windows
start.bat
```

## Inside

```bash
pip install -r requirements.txt
./serve.py
```
"""
SLIP_SCRIPT = """\
#!/usr/bin/env bash
docker run \\
    --rm -it --gpus all \\
    -v "$PWD":/work \\
    {image} \\
    bash
"""
SLIP_PUSH = "jobs:\n  p:\n    steps:\n      - run: docker push deskai/llm-serve-gpqt\n"
ROS_README = """\
# Rover workspace

## Docker

```bash
docker build -t rover_humble_desktop .
./docker/run_rover.bash
```
"""
ROS_SCRIPT = "#!/bin/bash\nxhost +local:docker\ndocker run -it --net host --privileged {image} bash\n"


def _slip_pair(
    tmp_path: Path, readme: str, script: str, image: str, more: dict[str, str] | None = None
) -> list[str]:
    files = {
        "start.sh": SLIP_SCRIPT.format(image=image),
        "start.bat": "docker run -it deskai/llm-serve-gptq\n",
    }
    if script == "ros":
        files = {"docker/run_rover.bash": ROS_SCRIPT.format(image=image)}
    return _audit(tmp_path, readme, files | (more or {}))


def test_a_script_the_readme_runs_runs_a_slip_of_the_built_image(tmp_path: Path) -> None:
    assert [
        f for f in _slip_pair(tmp_path, SLIP_README, "start", "deskai/llm-serve-gpqt") if "slip" in f
    ] == [
        "14: README builds image deskai/llm-serve-gptq (line 7) and then runs ./start.sh (start.sh:5), "
        "whose docker run runs image deskai/llm-serve-gpqt, a slip of deskai/llm-serve-gptq: nothing of "
        "the README or the repository builds, tags or pulls deskai/llm-serve-gpqt (certain)"
    ]


def test_a_local_name_slip_in_a_script_under_a_folder(tmp_path: Path) -> None:
    found = _slip_pair(tmp_path, ROS_README, "ros", "rover_humbel_desktop:latest")
    assert found == [
        "7: README builds image rover_humble_desktop (line 6) and then runs ./docker/run_rover.bash "
        "(docker/run_rover.bash:3), whose docker run runs image rover_humbel_desktop:latest, a slip of "
        "rover_humble_desktop: nothing of the README or the repository builds, tags or pulls "
        "rover_humbel_desktop (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "image", "more"),
    [
        (SLIP_README, "deskai/llm-serve-gptq", {}),  # the built name
        (SLIP_README, "deskai/llm-serve-gptq:latest", {}),
        (SLIP_README.replace("gptq .", "gptq-cpu ."), "deskai/llm-serve-gptq-gpu", {}),  # a variant word
        (SLIP_README.replace("gptq .", "py310 ."), "deskai/llm-serve-py311", {}),  # a version
        (SLIP_README, "deskai/llm-serve-gptqs", {}),  # a word of four letters with one added
        (SLIP_README.replace("-gptq .", "-model ."), "deskai/llm-serve-models", {}),  # a plural
        (SLIP_README, "ghcr.io/deskai/llm-serve-gpqt", {}),  # a registry's image
        (SLIP_README, "$IMAGE", {}),  # from a variable
        (
            SLIP_README + "\nThe `deskai/llm-serve-gpqt` image is published nightly.\n",
            "deskai/llm-serve-gpqt",
            {},
        ),
        # something of the repository makes or names it
        (
            SLIP_README,
            "deskai/llm-serve-gpqt",
            {"Makefile": "image:\n\tdocker build -t deskai/llm-serve-gpqt .\n"},
        ),
        (
            SLIP_README,
            "deskai/llm-serve-gpqt",
            {"compose.yaml": "services:\n  a:\n    image: deskai/llm-serve-gpqt\n"},
        ),
        (
            SLIP_README,
            "deskai/llm-serve-gpqt",
            {".github/workflows/push.yml": SLIP_PUSH},
        ),
        # a command before the script may make it
        (SLIP_README.replace("./start.sh\n", "make image\n./start.sh\n"), "deskai/llm-serve-gpqt", {}),
        # the script is run before the build
        (
            SLIP_README.replace("## Build", "## Before\n\n```bash\n./start.sh\n```\n\n## Build"),
            "deskai/llm-serve-gpqt",
            {},
        ),
        # the README builds two images, both a slip away
        (
            SLIP_README.replace("gptq .", "gptq .\ndocker build -t deskai/llm-serve-gqpt ."),
            "deskai/llm-serve-gpqt",
            {},
        ),
        # a build whose tag the reader sets
        (SLIP_README.replace("deskai/llm-serve-gptq", "$NAME"), "deskai/llm-serve-gpqt", {}),
    ],
)
def test_a_script_image_that_is_no_slip_or_may_be_made(
    tmp_path: Path, readme: str, image: str, more: dict[str, str]
) -> None:
    assert [f for f in _slip_pair(tmp_path, readme, "start", image, more) if "slip" in f] == []


# A README that builds its image by running a script, then runs an image of the same owner one word off.
# Modelled on two shapes: a Jupyter GPU image whose README writes its commands as code spans
# (```bash make_image.sh```, ```docker run … owner/name:latest```), and one with command blocks whose
# script tags `owner/lab:gpu` from a variable.
SPAN_README = """\
# Notebook image for cell analysis (GPU)

## Build

From the project folder:

```bash make_image.sh```

## Run

You can start it with:

```docker run -p 8888:8888 --name cells ann/cell-lab:latest```
"""
MAKE_IMAGE = "#!/bin/bash\n\nSTAMP='2025-02-01.3'\n\ndocker build --no-cache -t ann/cell-lab-gpu:$STAMP .\n"
BLOCK_README = """\
# Lab image

```bash
./scripts/lab.sh
```

Then:

```bash
docker run --gpus all -p 8888:8888 -d bo/lab:latest
```
"""
PUSH_WORKFLOW = "jobs:\n  p:\n    steps:\n      - run: docker push ann/cell-lab\n"
LAB_SCRIPT = "#!/bin/sh\nNAME=bo/lab-cuda\ndocker build -t ${NAME}:gpu -f Dockerfile .\n"


def test_a_run_of_a_near_name_of_what_the_script_builds(tmp_path: Path) -> None:
    assert _audit(tmp_path, SPAN_README, {"make_image.sh": MAKE_IMAGE}) == [
        "13: README runs image ann/cell-lab:latest, but make_image.sh (run at line 7) builds "
        "ann/cell-lab-gpu; nothing of the README or the repository builds, tags, pulls or pushes "
        "ann/cell-lab (likely)"
    ]
    assert _audit(tmp_path / "b", BLOCK_README, {"scripts/lab.sh": LAB_SCRIPT}) == [
        "10: README runs image bo/lab:latest, but ./scripts/lab.sh (run at line 4) builds bo/lab-cuda; "
        "nothing of the README or the repository builds, tags, pulls or pushes bo/lab (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "more"),
    [
        # the run names what the script builds
        (SPAN_README.replace("ann/cell-lab:latest", "ann/cell-lab-gpu:2025-02-01.3"), {}),
        # a published image of the same owner, pulled first
        (SPAN_README.replace("You can start it with:", "```docker pull ann/cell-lab:latest```\n\nThen:"), {}),
        # the reader picks the tag and the name
        (SPAN_README.replace("You can start it with:", "Replace the image with the one you built:"), {}),
        (SPAN_README.replace("ann/cell-lab:latest", "ann/cell-lab:<tag>"), {}),
        # a heading over the run tells of the published image
        (SPAN_README.replace("## Run", "## Run the prebuilt image"), {}),
        # the compose file of another service names it
        (SPAN_README, {"compose.yaml": "services:\n  lab:\n    image: ann/cell-lab:latest\n"}),
        # a workflow of the repository pushes it
        (
            SPAN_README,
            {".github/workflows/push.yml": PUSH_WORKFLOW},
        ),
        # another owner's image, a name further off
        (SPAN_README.replace("ann/cell-lab:latest", "jupyter/cell-lab:latest"), {}),
        (SPAN_README.replace("ann/cell-lab:latest", "ann/notebook:latest"), {}),
        # the README names it elsewhere: made another way
        (SPAN_README + "\nThe CPU image `ann/cell-lab` is built in the sister repository.\n", {}),
    ],
)
def test_runs_of_an_image_the_script_may_not_be_alone_in_making(
    tmp_path: Path, readme: str, more: dict[str, str]
) -> None:
    assert _audit(tmp_path, readme, {"make_image.sh": MAKE_IMAGE, **more}) == []


def test_a_script_whose_tags_cannot_be_told_or_a_readme_that_builds_itself(tmp_path: Path) -> None:
    script = "#!/bin/bash\ndocker build -t ann/cell-lab-gpu:1 .\ndocker build -t $1 .\n"
    assert _audit(tmp_path, SPAN_README, {"make_image.sh": script}) == []
    readme = SPAN_README.replace("```bash make_image.sh```", "```docker build -t ann/cell-lab-gpu .```")
    assert _audit(tmp_path / "b", readme, {"make_image.sh": MAKE_IMAGE}) == []


def test_a_run_in_another_section_of_the_tag_the_readme_built(tmp_path: Path) -> None:
    # the build and the run sit under two top headings; the run keeps the tag and renames the image
    readme = """\
# build the cuda image
```
docker build -f Dockerfile -t gpu_base:v2.1 .
```

# start a container (with a mount)
```
docker run -d -t --name gpu_box -v $(pwd):/workspace --gpus all gpu_dev:v2.1
```
"""
    assert _audit(tmp_path, readme) == [
        "8: README runs image gpu_dev:v2.1, but the build command of the README tags gpu_base:v2.1 "
        "(no command of the README builds gpu_dev) (certain)"
    ]


@pytest.mark.parametrize(
    "run",
    [
        "docker run --rm ghcr.io/acme/gpu_dev:v2.1",  # a registry's image
        "docker run --rm acme/gpu_dev:v2.1",  # another owner's published image
        "docker run --rm gpu_dev:latest",  # no tag of its own to match
        "docker run --rm gpu_dev:${TAG}",  # a tag the reader fills in
        "docker run --rm postgres:v2.1",  # a name far from the built one
        "docker tag gpu_base:v2.1 gpu_dev:v2.1 && docker run --rm gpu_dev:v2.1",  # tagged between
    ],
)
def test_runs_of_another_section_that_are_no_renamed_build(tmp_path: Path, run: str) -> None:
    readme = f"""\
# Build

```
docker build -t gpu_base:v2.1 .
```

# Deploy

```
{run}
```
"""
    assert _audit(tmp_path, readme) == []


LABELLED = """\
Build the image:
     docker build -t labuser/seg-torch:1.2.0 .

Tag it for your account:
     docker tag <image name> <user name>/<image name>:<version>

Train on a GPU:
    docker run --rm --gpus all -v /data:/app labuser/seg-torch:1.1.0 python /app/train.py
"""


def test_commands_under_a_label_line_are_read_as_commands(tmp_path: Path) -> None:
    # Markdown folds the indented lines into the label's paragraph: they are still the commands
    assert _audit(tmp_path, LABELLED) == [
        "8: README runs image labuser/seg-torch:1.1.0, but no command of it builds that tag: its build "
        "command (line 2) tags labuser/seg-torch:1.2.0 (likely)"
    ]
    assert _audit(tmp_path, LABELLED.replace("seg-torch:1.1.0", "seg-torch:1.2.0")) == []


BASE_DOCKERFILE = "FROM python:3.11-slim\nRUN pip install numpy==1.26.4\n"


def _based(tmp_path: Path, readme: str, app: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(
        tmp_path,
        {
            "Dockerfile": DOCKERFILE,
            "base.dockerfile": BASE_DOCKERFILE,
            "app.dockerfile": app,
            **(files or {}),
        },
    )
    models = [
        build_model(tmp_path / name, name) for name in ("Dockerfile", "base.dockerfile", "app.dockerfile")
    ]
    found = audit(readme, "README.md", models, {}, tmp_path, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "FROM" in d.message]


BASED_README = """\
# Tracker

## Docker
We build a base image first, which holds only the requirements.
To build it run `docker build -t reg.io/lab/trk/base_image -f base.dockerfile .`
Then build the app with `docker build -t reg.io/lab/trk/app -f app.dockerfile .`
"""


def test_a_from_at_a_tag_the_readmes_build_of_the_base_does_not_give(tmp_path: Path) -> None:
    app = "FROM reg.io/lab/trk/base_image:0.3\nCOPY src /app\n"
    assert _based(tmp_path, BASED_README, app) == [
        "6: README builds app.dockerfile, which starts FROM reg.io/lab/trk/base_image:0.3 "
        "(app.dockerfile:1), but the README builds that base as reg.io/lab/trk/base_image:latest "
        "(line 5, -f base.dockerfile): no command of the README makes reg.io/lab/trk/base_image:0.3 "
        "(likely)"
    ]


def test_a_local_base_at_another_tag_is_certain(tmp_path: Path) -> None:
    readme = """\
# App

```
docker build -t trackbase:1.0 -f base.dockerfile .
docker build -t trackapp:1.0 -f app.dockerfile .
```
"""
    found = _based(tmp_path, readme, "FROM trackbase:0.9\nCOPY src /app\n")
    assert [f[:3] + f[-9:] for f in found] == ["5: (certain)"]


@pytest.mark.parametrize(
    ("app", "extra", "files"),
    [
        ("FROM reg.io/lab/trk/base_image:latest\n", "", {}),  # the tag built
        ("FROM reg.io/lab/trk/base_image\n", "", {}),  # latest, written out nowhere
        ("FROM reg.io/lab/trk/base_image:${BASE_TAG}\n", "", {}),  # a variable
        (
            "FROM reg.io/lab/trk/base_image:0.3\n",
            "`docker pull reg.io/lab/trk/base_image:0.3`",
            {},
        ),
        (
            "FROM reg.io/lab/trk/base_image:0.3\n",
            "`docker tag reg.io/lab/trk/base_image reg.io/lab/trk/base_image:0.3`",
            {},
        ),
        (
            "FROM reg.io/lab/trk/base_image:0.3\n",
            "",
            {"release.sh": "docker build -t reg.io/lab/trk/base_image:0.3 -f base.dockerfile .\n"},
        ),
        ("FROM python:3.11-slim\n", "", {}),  # another image
    ],
)
def test_froms_the_readme_builds_or_cannot_know(
    tmp_path: Path, app: str, extra: str, files: dict[str, str]
) -> None:
    assert _based(tmp_path, BASED_README + "\n" + extra + "\n", app + "COPY src /app\n", files) == []


# a script the README runs starts the README's repository under another tag (`_other_script_tag`)

SIM_README = """\
# Sim with ROS 2

## Build

```bash
cd docker/sim-humble
docker build -t sim:4.2-humble .
```

## Run

```bash
xhost +local:docker
bash run_sim.sh
```

## Inside the container

```bash
cd /opt/sim
./launch_app.sh
```
"""
SIM_SCRIPT = """\
docker rm -f sim
docker run --name sim -it --gpus all --rm --network=host \\
  -v ~/sim/cache:/root/.cache:rw \\
  {image} \\
  ./launch_app.sh
"""


def _sim_pair(
    root: Path, image: str, readme: str = SIM_README, more: dict[str, str] | None = None
) -> list[str]:
    files = {
        "docker/sim-humble/Dockerfile": DOCKERFILE,
        "docker/sim-humble/run_sim.sh": SIM_SCRIPT.format(image=image),
        "README.md": readme,
    }
    make_tree(root, files | (more or {}))
    model = build_model(root / "docker/sim-humble/Dockerfile", "docker/sim-humble/Dockerfile")
    found = audit(readme, "README.md", model, {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "image" in d.message]


def test_a_script_the_readme_runs_starts_another_tag_of_the_built_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # (`./launch_app.sh` runs in the container: no script of the repository, not a second one run)
    assert _sim_pair(tmp_path, "sim:4.1-jammy") == [
        "14: README builds image sim:4.2-humble and then runs run_sim.sh (docker/sim-humble/run_sim.sh:4), "
        "whose docker run runs image sim:4.1-jammy: the same repository with a tag nothing of the README "
        "or the repository builds, tags or pulls (likely)"
    ]


def test_a_ros_script_without_a_tag_runs_latest_not_the_tag_built(tmp_path: Path) -> None:
    readme = (
        "# Noetic desktop\n\n```sh\ndocker build -t noetic_desk:gpu .\n```\n\nThen start it:\n\n"
        "```sh\n./run_sim.sh\n```\n"
    )
    files = {
        "Dockerfile": DOCKERFILE,
        "run_sim.sh": SIM_SCRIPT.format(image="noetic_desk"),
        "README.md": readme,
    }
    make_tree(tmp_path, files)
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = [
        d for d in audit(readme, "README.md", model, {}, tmp_path, tmp_path) if "same repository" in d.message
    ]
    assert [(d.line, d.confidence) for d in found] == [(10, "likely")]
    assert "runs image noetic_desk: the same repository" in found[0].message


@pytest.mark.parametrize(
    ("image", "readme", "more"),
    [
        ("sim:4.2-humble", SIM_README, None),  # the very tag built
        ("sim:${SIM_TAG}", SIM_README, None),  # a tag the reader sets
        ("sim:<tag>", SIM_README, None),  # a placeholder
        (
            "sim:4.1-jammy",
            SIM_README.replace("-t sim:4.2-humble", "-t sim:$TAG"),
            None,
        ),  # the README's variable
        ("sim:4.1-jammy", SIM_README.replace("xhost", "docker pull sim:4.1-jammy\nxhost"), None),  # pulled
        (
            "sim:4.1-jammy",
            SIM_README.replace("-t sim:4.2-humble .", "-t sim:4.2-humble -t sim:4.1-jammy ."),
            None,
        ),
        (  # a script beside it builds that tag
            "sim:4.1-jammy",
            SIM_README,
            {"docker/sim-humble/build_old.sh": "docker build -t sim:4.1-jammy .\n"},
        ),
        (  # the README tells of that image in prose: made another way
            "sim:4.1-jammy",
            SIM_README.replace(
                "## Run\n", "## Run\n\nThe script starts `sim:4.1-jammy`, the base guide's image.\n"
            ),
            None,
        ),
        ("other/sim:4.1-jammy", SIM_README, None),  # another repository: not this rule's
    ],
)
def test_a_script_tag_something_makes_or_the_reader_sets_is_no_claim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, image: str, readme: str, more: dict[str, str] | None
) -> None:
    monkeypatch.chdir(tmp_path)
    assert not [f for f in _sim_pair(tmp_path, image, readme, more) if "same repository" in f]


def test_a_run_tag_in_blocks_whose_info_string_names_a_file(tmp_path: Path) -> None:
    # ```bash:bash (Qiita's `lang:filename`): still a shell block, its commands read
    readme = (
        "# ros:noetic_gpu\n\n1. ## Build Image\n    ```bash:bash\n"
        "    docker build -t lab/ros:noetic ros_noetic\n    ```\n\n2. ## Run\n    ```bash:bash\n"
        "        docker run -it --name ros lab/ros:noetic_gpu /bin/bash\n    ```\n"
    )
    assert _audit(tmp_path, readme) == [
        "10: README runs image lab/ros:noetic_gpu, but no command of it builds that tag: its build command "
        "(line 5) tags lab/ros:noetic (likely)"
    ]


@pytest.mark.parametrize(
    ("command", "image"),
    [
        # a command substitution with a space inside an option's value is one word to the shell
        (
            "docker run -it --mount type=bind,src=`echo ~/.cache/hf/`,dst=/root/.cache/hf tuner:dev",
            "tuner:dev",
        ),
        ('docker run --rm -u $(id -u):$(id -g) -v "$(pwd)/out dir":/out lab/app:2 serve', "lab/app:2"),
        # (the shell splits an unquoted expansion's output, but never a substitution's words before that)
        ("docker run -e N=$(nproc) -v `pwd`:/w img", "img"),
    ],
)
def test_docker_run_reads_a_command_substitution_as_one_word(command: str, image: str) -> None:
    found = docker_run(command)
    assert found is not None and found[1] == image


def test_tags_of_a_build_continued_over_lines(tmp_path: Path) -> None:
    from docgen.audit.commands import tagged_names
    from docgen.markdown import read_document

    readme = (
        "# T\n\n```shell\ndocker build \\\n  --rm \\\n  -f Dockerfile.train \\\n"
        "  -t llm-train:latest . && \\\n"
        "docker run -it \\\n  -t other \\\n  llm-train:latest\n```\n"
    )
    assert tagged_names(read_document(readme, "README.md")) == frozenset({"llm-train"})


# --------------------------------------------------------------------------------------------------
# docker run of a compose service's own name

SPEECH_COMPOSE = """\
services:
  asr:
    build: .
    ports:
      - "9000:9000"
  cache:
    image: redis:7
"""


def test_a_run_of_the_service_name_compose_builds(tmp_path: Path) -> None:
    # a speech API: `docker compose build` tags `<folder>-asr`, the run names the service
    readme = "# ASR\n\n```bash\ndocker compose build\ndocker run --gpus all -p 9000:9000 asr\n```\n"
    found = _audit(tmp_path / "speech", readme, {"docker-compose.yml": SPEECH_COMPOSE})
    assert found == [
        "5: README runs image asr, but asr is the name of a service of docker-compose.yml:2, not an image: "
        "Compose tags the image it builds speech-asr, and nothing of the README builds, tags or pulls asr "
        "(certain)"
    ]
    # a ROCm robotics stack whose service names its image otherwise
    ros = "services:\n  ros-dev:\n    build: .\n    image: labs/humble-rocm:6.2\n"
    readme = "# ROS\n\nBuild with `docker compose build`, then start `docker run -it ros-dev bash`.\n"
    [message] = _audit(tmp_path / "ros", readme, {"compose.yaml": ros})
    assert message.startswith(
        "3: README runs image ros-dev, but ros-dev is the name of a service of compose.yaml:2"
    )
    assert "Compose tags the image it builds labs/humble-rocm:6.2 (compose.yaml:4)" in message


@pytest.mark.parametrize(
    ("readme", "compose"),
    [
        # compose runs the service's image itself
        ("```bash\ndocker compose build\ndocker compose run --rm asr bash\n```\n", SPEECH_COMPOSE),
        # a build of the README tags the name
        ("```bash\ndocker build -t asr .\ndocker run -it asr\n```\n", SPEECH_COMPOSE),
        # the service's image: is the name
        (
            "```bash\ndocker compose build\ndocker run -it asr\n```\n",
            SPEECH_COMPOSE.replace("build: .", "build: .\n    image: asr"),
        ),
        # the name Compose gives it
        ("```bash\ndocker compose build\ndocker run -it speech-asr\n```\n", SPEECH_COMPOSE),
        # a README that never starts Compose: its run's image may be made otherwise
        ("```bash\ndocker run -it --rm asr\n```\n", SPEECH_COMPOSE),
        # the run before the compose build: told only after it
        ("```bash\ndocker run -it asr\ndocker compose up -d\n```\n", SPEECH_COMPOSE),
        # a service that pulls its image
        (
            "```bash\ndocker compose up -d\ndocker run --rm redis redis-cli ping\n```\n",
            SPEECH_COMPOSE.replace("cache:", "redis:"),
        ),
    ],
)
def test_a_service_name_run_that_is_right(tmp_path: Path, readme: str, compose: str) -> None:
    assert _audit(tmp_path / "speech", "# ASR\n\n" + readme, {"docker-compose.yml": compose}) == []


# A robot simulator's README (the shape of an Isaac Sim + ROS 2 one): option 1 builds the current
# release, option 2 offers pre-built containers listed by version; the run examples use one of those.
OPTIONS = """\
## Installation

### Option 1: Build the image

```bash
docker build -t nav_sim:2.5.0 .
```

### Option 2: Download a pre-built container

| Version | Notes |
|---|---|
| 2.0.0 | First release |
| 2.1.0 | Git settings |

## Usage

```bash
docker run -it --rm --network=host \\
    -v /data/cache:/home/sim/.cache:rw \\
    nav_sim:2.1.0
```
"""


def test_a_run_of_a_version_the_readme_offers_pre_built(tmp_path: Path) -> None:
    assert _audit(tmp_path, OPTIONS) == []
    # the same under `## Pre-built images` with the versions in a list
    listed = OPTIONS.replace("### Option 2: Download a pre-built container", "### Prebuilt images").replace(
        "| Version | Notes |\n|---|---|\n| 2.0.0 | First release |\n| 2.1.0 | Git settings |",
        "- 2.0.0: first release\n- 2.1.0: git settings",
    )
    assert _audit(tmp_path, listed) == []


def test_a_run_tag_no_section_offers_is_still_a_slip(tmp_path: Path) -> None:
    # the version named only in a changelog line, not under a heading offering images: a slip of the tag
    changelog = OPTIONS.replace("### Option 2: Download a pre-built container", "### Changes")
    assert _audit(tmp_path, changelog) == [
        "21: README runs image nav_sim:2.1.0, but no command of it builds that tag: its build command "
        "(line 6) tags nav_sim:2.5.0 (certain)"
    ]
