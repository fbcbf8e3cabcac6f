"""`docgen audit`: the image a run script runs after the README's build script, and the image and
container names a script's compose command gives (docgen/audit/script_names.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = "FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-devel\nRUN pip install timm==0.9.2\n"

# a research environment: one script builds, the other runs, with its options in variables
BUILD_SH = """\
#!/bin/bash
set -e
IMAGE="eyetrack"
docker build -t $IMAGE .
"""
RUN_SH = """\
#!/bin/bash
set -e
NAME="--name lab"
GPU="--gpus all"
PORTS="-p 8701:22
       -p 6006:6006"
# Image
IMAGE="eyetrack"
IMAGE="labuser/eyetrack:2.0"
docker run -it $NAME $GPU $PORTS --shm-size 32G $IMAGE
"""
RESEARCH = """\
# Eye tracking

- Check the settings in these scripts
```
build.sh
run.sh
```
- Build and run the container
```
sh build.sh
sh run.sh
```
"""


def _found(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "makes the" in d.message or "the build script made" in d.message
    ]


def test_a_run_script_that_runs_another_image_than_the_build_script_tags(tmp_path: Path) -> None:
    files = {"README.md": RESEARCH, "build.sh": BUILD_SH, "run.sh": RUN_SH}
    assert _found(tmp_path, files) == [
        (
            11,
            "README runs build.sh, then run.sh: build.sh:4 tags eyetrack, but run.sh:10 runs "
            "labuser/eyetrack:2.0 ($IMAGE set at run.sh:9), not the image the build script made",
            "certain",
        )
    ]


def test_run_scripts_that_run_the_built_image_or_another_on_purpose(tmp_path: Path) -> None:
    cases = {
        # the last assignment is the built name (`:latest` is the tag a bare name gets)
        "same": RUN_SH.replace('IMAGE="labuser/eyetrack:2.0"\n', 'IMAGE="eyetrack:latest"\n'),
        # an image of another name: a helper container, not the build's
        "other": RUN_SH.replace("labuser/eyetrack:2.0", "nvidia/cuda:12.1.0-base-ubuntu22.04"),
        # the run script pulls what it runs itself
        "pulls": RUN_SH.replace("docker run", "docker pull $IMAGE\ndocker run"),
        # the image from the environment or an argument: not known
        "argument": RUN_SH.replace('IMAGE="labuser/eyetrack:2.0"\n', 'IMAGE="$1"\n'),
    }
    for name, run in cases.items():
        files = {"README.md": RESEARCH, "build.sh": BUILD_SH, "run.sh": run}
        assert _found(tmp_path / name, files) == [], name
    # the README pulls the image the run script runs: named by the README, not the build's
    pulled = RESEARCH.replace("sh build.sh\n", "sh build.sh\ndocker pull labuser/eyetrack:2.0\n")
    files = {"README.md": pulled, "build.sh": BUILD_SH, "run.sh": RUN_SH}
    assert _found(tmp_path / "pulled", files) == []
    # only listed (no `sh`, no `./`): no script is run, nothing chained
    listed = RESEARCH.replace("sh build.sh\nsh run.sh\n", "build.sh\nrun.sh\n")
    files = {"README.md": listed, "build.sh": BUILD_SH, "run.sh": RUN_SH}
    assert _found(tmp_path / "listed", files) == []


# a serving image: a Quick Start whose numbered steps build, then run, in blocks of their own
SERVE_BUILD = """\
#!/usr/bin/env bash
IMAGE_NAME="${IMAGE_NAME:-llm-serve-navi:tokenizer-fix}"
docker build -t "$IMAGE_NAME" .
"""
SERVE_RUN = """\
#!/usr/bin/env bash
MODEL="${1:-org/model-7b}"
IMAGE_NAME="${IMAGE_NAME:-llm-serve-navi:baseline}"
docker run -d --name serve --device=/dev/kfd -p 8000:8000 "$IMAGE_NAME" "$MODEL" --port 8000
"""
SERVE = """\
# Serving on Navi

## Quick Start

1. Build:

```bash
./scripts/build.sh
```

2. Run:

```bash
./scripts/run.sh org/model-7b
```

## Older images

```bash
./scripts/run.sh org/model-7b
```
"""


def test_a_run_block_after_a_build_block_of_the_same_section(tmp_path: Path) -> None:
    files = {"README.md": SERVE, "scripts/build.sh": SERVE_BUILD, "scripts/run.sh": SERVE_RUN}
    assert _found(tmp_path, files) == [
        (
            14,
            "README runs scripts/build.sh, then scripts/run.sh: scripts/build.sh:3 tags "
            "llm-serve-navi:tokenizer-fix, but scripts/run.sh:4 runs llm-serve-navi:baseline ($IMAGE_NAME "
            "set at scripts/run.sh:3), not the image the build script made",
            "certain",
        )
    ]


def test_run_blocks_of_another_section_or_before_the_build(tmp_path: Path) -> None:
    # the run comes first, the build after it: nothing was built yet when it runs
    swapped = SERVE.replace("./scripts/build.sh\n", "@@\n").replace(
        "./scripts/run.sh org/model-7b\n```\n\n##", "./scripts/build.sh\n```\n\n##", 1
    )
    swapped = swapped.replace("@@\n", "./scripts/run.sh org/model-7b\n")
    files = {"README.md": swapped, "scripts/build.sh": SERVE_BUILD, "scripts/run.sh": SERVE_RUN}
    assert _found(tmp_path / "swapped", files) == []
    # the build under a heading of its own: the later section's run is not its chain
    apart = SERVE.replace("2. Run:", "## Run")
    files = {"README.md": apart, "scripts/build.sh": SERVE_BUILD, "scripts/run.sh": SERVE_RUN}
    assert _found(tmp_path / "apart", files) == []


# a robot learning dev container: scripts export a tag, compose builds and starts the service
COMPOSE = """\
services:
  dev:
    build:
      context: .
      dockerfile: Dockerfile
    image: ${USER}/armlab:${TAG_NAME}
    container_name: ${USER}_armlab
    network_mode: host
"""
BUILD_COMPOSE = """\
#!/bin/sh
if [ ! -z $1 ]; then
  export TAG_NAME=$1
else
  export TAG_NAME="gpu-dev"
fi
docker-compose -p armlab build
"""
RUN_COMPOSE = BUILD_COMPOSE.replace("build\n", "up &\n")
ROBOT = """\
# Dev container

### 1. Build the image
Creating an image named `{YOUR_HOST_NAME}/armlab:latest`
```bash
./build_image.sh
```

### 2. Run the container
Creating a container named `{YOUR_HOST_NAME}_armnet`
```bash
./run_container.sh
```

### 3. Enter it
```bash
docker exec -it {YOUR_HOST_NAME}_armlab bash
```
"""


def test_names_a_script_s_compose_command_gives_otherwise(tmp_path: Path) -> None:
    files = {
        "README.md": ROBOT,
        "docker-compose.yml": COMPOSE,
        "build_image.sh": BUILD_COMPOSE,
        "run_container.sh": RUN_COMPOSE,
    }
    assert _found(tmp_path, files) == [
        (
            4,
            "README says build_image.sh makes the image {YOUR_HOST_NAME}/armlab:latest, but its docker "
            "compose build (build_image.sh:7) names it otherwise: service dev sets image: "
            "${USER}/armlab:${TAG_NAME} (docker-compose.yml:6), ${USER}/armlab:gpu-dev as the script sets it",
            "certain",
        ),
        (
            10,
            "README says run_container.sh makes the container {YOUR_HOST_NAME}_armnet, but its docker "
            "compose up (run_container.sh:7) names it otherwise: service dev sets container_name: "
            "${USER}_armlab (docker-compose.yml:7)",
            "certain",
        ),
    ]


def test_names_a_script_s_compose_command_can_give(tmp_path: Path) -> None:
    # placeholders of either side stand for any text; the tag the script exports
    readme = ROBOT.replace("armlab:latest", "armlab:gpu-dev").replace("_armnet", "_armlab")
    files = {
        "README.md": readme,
        "docker-compose.yml": COMPOSE,
        "build_image.sh": BUILD_COMPOSE,
        "run_container.sh": RUN_COMPOSE,
    }
    assert _found(tmp_path, files) == []
    # `<user>` and `$USER` placeholders, and a service that names neither: Compose names them itself
    readme = ROBOT.replace("{YOUR_HOST_NAME}/armlab:latest", "$USER/armlab:gpu-dev").replace(
        "{YOUR_HOST_NAME}_armnet", "<user>_armlab"
    )
    files["README.md"] = readme
    assert _found(tmp_path / "own", files) == []
    files["docker-compose.yml"] = "services:\n  dev:\n    build: .\n"
    files["README.md"] = ROBOT
    assert _found(tmp_path / "unnamed", files) == []
    # a name said far from the block running the script is no claim about it
    far = ROBOT.replace("Creating an image named", "Creating an image named").replace(
        "`{YOUR_HOST_NAME}/armlab:latest`\n", "`{YOUR_HOST_NAME}/armlab:latest`\n\nThen.\n\nMore.\n\nAnd.\n"
    )
    files = {
        "README.md": far,
        "docker-compose.yml": COMPOSE,
        "build_image.sh": BUILD_COMPOSE,
        "run_container.sh": RUN_COMPOSE,
    }
    assert [line for line, _, _ in _found(tmp_path / "far", files)] == [16]


def test_the_cited_assignment_is_the_one_the_run_used(tmp_path: Path) -> None:
    """`IMAGE=eyetrack echo …` gives the variable to that command only: the run uses the assignment
    above it, and the finding cites that one."""
    run_sh = RUN_SH.replace(
        "docker run", 'IMAGE=eyetrack echo "starting $IMAGE"\nIMAGE="a b" true\ndocker run'
    )
    files = {"README.md": RESEARCH, "build.sh": BUILD_SH, "run.sh": run_sh}
    assert [d[1] for d in _found(tmp_path, files)] == [
        "README runs build.sh, then run.sh: build.sh:4 tags eyetrack, but run.sh:12 runs "
        "labuser/eyetrack:2.0 ($IMAGE set at run.sh:9), not the image the build script made"
    ]


def test_scripts_outside_the_project_are_not_read(tmp_path: Path) -> None:
    """A README path that climbs out of the project (`../run.sh`) or starts at the root (`/…/run.sh`)
    names a script the audit does not read: only the project's files are looked at."""
    project = tmp_path / "project"
    robot = ROBOT.replace("./build_image.sh", "sh ../build_image.sh").replace(
        "./run_container.sh", f"{tmp_path}/run_container.sh"
    )
    research = RESEARCH.replace("sh build.sh", "sh ../build.sh").replace("sh run.sh", f"sh {tmp_path}/run.sh")
    make_tree(
        tmp_path,
        {
            "build.sh": BUILD_SH,
            "run.sh": RUN_SH,
            "build_image.sh": BUILD_COMPOSE,
            "run_container.sh": RUN_COMPOSE,
            "project/Dockerfile": DOCKERFILE,
            "project/docker-compose.yml": COMPOSE,
        },
    )
    model = build_model(project / "Dockerfile", "Dockerfile")
    for readme in (research, robot):
        found = audit(readme, "README.md", model, {}, project, project)
        assert [
            d.message for d in found if "makes the" in d.message or "the build script made" in d.message
        ] == []


# `described_chains`: a file list saying a run script runs the image a build script builds.
ORIN_BUILD = """\
#!/bin/sh
TAG='10.2-runtime'
tar -czh . | docker build - \\
  --build-arg TAG=$TAG \\
  --tag=robo/cuda-base:$TAG
"""
ORIN_RUN = """\
#!/bin/sh
xhost +si:localuser:root
nvidia-docker run -it \\
  --gpus all \\
  --net=host \\
  --name robo-cuda \\
  robo/cuda-base:11.4-runtime
xhost -si:localuser:root
"""
ORIN = """\
# robo base

## Files
- Dockerfile : the environment
- Build.sh : script to build the Dockerfile
- run-orin.sh : script for running the docker image that was built from Build.sh
"""


def _described(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "runs the image built by" in d.message
    ]


def test_a_listed_run_script_that_runs_another_tag_than_the_build_script_gives(tmp_path: Path) -> None:
    files = {"README.md": ORIN, "build.sh": ORIN_BUILD, "run-orin.sh": ORIN_RUN}
    assert _described(tmp_path, files) == [
        (
            6,
            "README says run-orin.sh runs the image built by Build.sh: build.sh:5 tags "
            "robo/cuda-base:10.2-runtime, but run-orin.sh:3 runs robo/cuda-base:11.4-runtime",
            "likely",
        )
    ]


def test_a_sentence_about_a_research_setup(tmp_path: Path) -> None:
    readme = "# Lab\n\nUse `run.sh`, which starts the container made with `build.sh`; edit IMAGE first.\n"
    files = {"README.md": readme, "build.sh": BUILD_SH, "run.sh": RUN_SH}
    [(line, message, _)] = _described(tmp_path, files)
    assert line == 3 and "build.sh:4 tags eyetrack, but run.sh:10 runs labuser/eyetrack:2.0" in message


def test_described_run_scripts_that_run_the_built_image_are_silent(tmp_path: Path) -> None:
    same = ORIN_RUN.replace("11.4-runtime", "10.2-runtime")
    assert _described(tmp_path, {"README.md": ORIN, "build.sh": ORIN_BUILD, "run-orin.sh": same}) == []
    # a build script whose tag comes from its argument: any tag
    given = ORIN_BUILD.replace("TAG='10.2-runtime'", "TAG=$1")
    assert _described(tmp_path, {"README.md": ORIN, "build.sh": given, "run-orin.sh": ORIN_RUN}) == []
    # another repository: an image of another project
    other = ORIN_RUN.replace("robo/cuda-base:11.4-runtime", "nvcr.io/nvidia/l4t-ml:r32.6.1-py3")
    assert _described(tmp_path, {"README.md": ORIN, "build.sh": ORIN_BUILD, "run-orin.sh": other}) == []
    # the run script pulls its image itself
    pulls = ORIN_RUN.replace("xhost +si", "docker pull robo/cuda-base:11.4-runtime\nxhost +si")
    assert _described(tmp_path, {"README.md": ORIN, "build.sh": ORIN_BUILD, "run-orin.sh": pulls}) == []


# `named_runs`: a run script the README names or runs with no build script, against the builds of its folder

TRAINER_BUILD = """\
BASE=2.1.0-cuda12.1
FLAVOUR=cu121
docker build \\
  --build-arg BASE=${BASE} \\
  -t trainbox:3.2.0-${FLAVOUR} \\
  -t $(whoami)/trainbox:3.2.0-${FLAVOUR} \\
  -t trainbox:latest .
"""
TRAINER_PUSH = "docker push someone/trainbox:3.2.0-cu121\n"


def _trainer_run(image: str) -> str:
    return (
        "VOL=trainbox-data\ndocker volume create ${VOL}\ndocker run -it --rm \\\n  --gpus all \\\n"
        f"  -p 8888:8888 \\\n  -v ${{VOL}}:/workspace \\\n  {image}\n"
    )


def _named(tmp_path: Path, readme: str, files: dict[str, str]) -> list[str]:
    make_tree(tmp_path, {"README.md": readme, **files})
    dockerfile = next(p for p in files if p.endswith("Dockerfile"))
    model = build_model(tmp_path / dockerfile, dockerfile)
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "to start the image" in d.message]


# a set of images in folders, the README telling of one as the example and naming its run scripts in prose
TRAINER = """\
# trainer images

## Local check

Taking trainbox as the example (the other images work the same way), first add a `.env` file.

Then run `run-rm.sh` or `run-keep.sh` locally to start the image.
"""


def _trainer_files(rm: str, keep: str, build: str = TRAINER_BUILD) -> dict[str, str]:
    return {
        "trainbox/Dockerfile": DOCKERFILE,
        "trainbox/build.sh": build,
        "trainbox/push.sh": TRAINER_PUSH,
        "trainbox/run-rm.sh": _trainer_run(rm),
        "trainbox/run-keep.sh": _trainer_run(keep),
    }


def test_a_run_script_named_in_prose_runs_a_tag_its_build_never_gives(tmp_path: Path) -> None:
    files = _trainer_files("trainbox:3.2.0-cu121", "trainbox:3.2.0")
    assert _named(tmp_path, TRAINER, files) == [
        "7: README names trainbox/run-keep.sh to start the image: trainbox/build.sh:7 tags trainbox:latest, "
        "but trainbox/run-keep.sh:3 runs trainbox:3.2.0, a tag no build script of its folder gives (likely)"
    ]


# a dev container: the README runs its run script in a block, the build script beside it is not run
DEVBOX = """\
# devbox

Build once with the script in `docker/`, then start the container:

```bash
./docker/start.sh
```
"""


def test_a_run_script_a_block_runs_with_a_build_script_beside_it(tmp_path: Path) -> None:
    files = {
        "docker/Dockerfile": DOCKERFILE,
        "docker/build.sh": "docker build -t acme/devbox:1.4-gpu -f docker/Dockerfile .\n",
        "docker/start.sh": "docker run --rm -it --gpus all acme/devbox:1.4\n",
    }
    assert _named(tmp_path, DEVBOX, files) == [
        "6: README runs docker/start.sh to start the image: docker/build.sh:1 tags acme/devbox:1.4-gpu, but "
        "docker/start.sh:1 runs acme/devbox:1.4, a tag no build script of its folder gives (certain)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # both scripts run tags the build gives
        (TRAINER, _trainer_files("trainbox:3.2.0-cu121", "trainbox:latest")),
        # the build's tag comes from an argument: any tag may be made
        (
            TRAINER,
            _trainer_files("trainbox:3.2.0-cu121", "trainbox:3.2.0", "docker build -t trainbox:$1 .\n"),
        ),
        # another script of the folder pulls the run's image
        (
            TRAINER,
            {
                **_trainer_files("trainbox:3.2.0-cu121", "trainbox:3.2.0"),
                "trainbox/pull.sh": "docker pull trainbox:3.2.0\n",
            },
        ),
        # the reader is told to edit the script
        (
            TRAINER.replace("Then run", "Edit the image in `run-keep.sh` and then run"),
            _trainer_files("trainbox:3.2.0-cu121", "trainbox:3.2.0"),
        ),
        # the script's name is held by two folders: which one is meant cannot be told
        (
            TRAINER,
            {
                **_trainer_files("trainbox:3.2.0-cu121", "trainbox:3.2.0"),
                "other/run-keep.sh": _trainer_run("x:1"),
            },
        ),
        # the README runs the build script itself: `chained_runs` reads that chain
        (
            DEVBOX.replace("./docker/start.sh", "./docker/build.sh\n./docker/start.sh"),
            {
                "docker/Dockerfile": DOCKERFILE,
                "docker/build.sh": "docker build -t acme/devbox:1.4-gpu -f docker/Dockerfile .\n",
                "docker/start.sh": "docker run --rm -it --gpus all acme/devbox:1.4-gpu\n",
            },
        ),
    ],
)
def test_a_run_script_whose_image_the_build_may_give(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert _named(tmp_path, readme, files) == []


# A speech project's docker/ folder of one-line scripts, described item by item in Japanese
ASR_BUILD = """\
#!/bin/bash
docker build \\
    --pull \\
    -f docker/Dockerfile \\
    -t \\
    asr_lab:latest "."
"""
ASR_RUN = """\
#!/bin/bash
docker run -d --rm -it \\
    --gpus=all \\
    --name=AsrLab \\
    --volume=$PWD:/workspace \\
    asr_lab:latest ${@-bash}
"""
ASR_EXEC = "#!/bin/bash\ndocker exec -it AsrLab ${@-bash}\n"
ASR_README = """\
# AsrLab

音声認識の学習コードです．

- `./docker/build.sh`: Dockerイメージを作ります．イメージの名前は`AsrLab`です．
- `./docker/run.sh`: コンテナを起動します．コンテナ名は`asr_lab`です．
- `./docker/exec.sh`: 動作中のコンテナでコマンドを実行します．
"""


def _said_named(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"docker/Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "docker/Dockerfile", "docker/Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if d.message.startswith("README says") and (" tags " in d.message or " names it " in d.message)
    ]


def test_image_and_container_names_a_list_of_scripts_swaps(tmp_path: Path) -> None:
    files = {
        "README.md": ASR_README,
        "docker/build.sh": ASR_BUILD,
        "docker/run.sh": ASR_RUN,
        "docker/exec.sh": ASR_EXEC,
    }
    assert _said_named(tmp_path, files) == [
        (
            5,
            "README says docker/build.sh makes the image AsrLab, but docker/build.sh:6 tags asr_lab:latest",
            "likely",
        ),
        (
            6,
            "README says docker/run.sh makes the container asr_lab, but docker/run.sh:4 names it AsrLab; "
            "docker/exec.sh:2 enter AsrLab too",
            "likely",
        ),
    ]


# A geodata toolbox whose README speaks of its scripts in English (and one in Chinese)
GEO_BUILD = "#!/bin/sh\nVERSION=0.2\ndocker build -t geo-tools:$VERSION -f Dockerfile .\n"
GEO_START = "#!/bin/sh\nNAME=geo-dev\ndocker run -d --name $NAME -p 8888:8888 geo-tools:0.2\n"


def test_names_a_sentence_gives_that_the_scripts_do_not(tmp_path: Path) -> None:
    readme = """\
# geo-tools

Run `scripts/build.sh`; it builds an image named `geo-tools:0.3`.

`scripts/start.sh` starts a container named `geo` in the background.

`scripts/start.sh`：容器名称为`geo_dev`。
"""
    files = {"README.md": readme, "scripts/build.sh": GEO_BUILD, "scripts/start.sh": GEO_START}
    make_tree(tmp_path, {"Dockerfile": DOCKERFILE})
    assert _said_named(tmp_path, files) == [
        (
            3,
            "README says scripts/build.sh makes the image geo-tools:0.3, but scripts/build.sh:3 tags "
            "geo-tools:0.2",
            "likely",
        ),
        (
            5,
            "README says scripts/start.sh makes the container geo, but scripts/start.sh:3 names it geo-dev",
            "likely",
        ),
        (
            7,
            "README says scripts/start.sh makes the container geo_dev, but scripts/start.sh:3 names it "
            "geo-dev",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Run `scripts/build.sh`; it builds an image named `geo-tools`.",  # the repository, any tag
        "Run `scripts/build.sh`; it builds an image named `Geo-Tools:0.2`.",
        "Run `scripts/build.sh`; it builds an image named `<your-name>`.",  # a placeholder
        "`scripts/start.sh` starts a container named `geo-dev`.",
        "Edit `scripts/start.sh` to give the container named `mybox` another name.",  # the reader's
        "`scripts/build.sh` and `scripts/start.sh` make the image named `geo`.",  # which script?
        "`scripts/start.sh` starts the container; see `docker ps`.",  # no name said
        "`scripts/compose.sh` builds an image named `geo-api`.",  # compose names it: compose_names
        "`scripts/from_env.sh` builds an image named `geo-api`.",  # a tag the caller gives
        "`scripts/missing.sh` builds an image named `geo-api`.",  # no such script
        "Before 0.2, `scripts/build.sh` used to build an image named `geotools`.",  # history
        "## Changelog\n\n- 0.1: `scripts/build.sh` builds an image named `geotools`.",  # history
    ],
)
def test_names_the_scripts_can_give(tmp_path: Path, line: str) -> None:
    files = {
        "README.md": f"# geo-tools\n\n{line}\n",
        "scripts/build.sh": GEO_BUILD,
        "scripts/start.sh": GEO_START,
        "scripts/compose.sh": "#!/bin/sh\ndocker compose build api\n",
        "docker-compose.yml": "services:\n  api:\n    build: .\n",
        "scripts/from_env.sh": "#!/bin/sh\ndocker build -t $IMAGE .\n",
    }
    assert _said_named(tmp_path, files) == []


# a training image whose run script keeps the demo behind a `#`
DEMO_BUILD_RUN = """\
docker build . -t lab/petals
docker run --rm \\
  --gpus all \\
  -v $(pwd)/train.py:/workspace/train.py -it lab/petals bash # python train.py --epochs 2
"""
DEMO = """\
# Petals

### Docker
To build the image and launch a container that runs a short train on CIFAR-10:
```
sh docker.sh
```
"""


def _commented(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(text, "README.md", model, {}, root, root)
        if "in a comment" in d.message
    ]


def test_a_script_whose_promised_program_is_a_comment(tmp_path: Path) -> None:
    files = {"README.md": DEMO, "docker.sh": DEMO_BUILD_RUN}
    assert _commented(tmp_path, files) == [
        (
            6,
            "README says docker.sh runs train ('To build the image and launch a container that runs a short "
            "train on CIFAR-10:'), but docker.sh:4 leaves `python train.py --epochs 2` in a comment "
            "(`lab/petals bash # python train.py --epochs 2`): the shell drops it, and the container runs "
            "only what comes before",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("bash # python train.py", "python train.py", "docker.sh"),  # the program runs
        ("bash # python train.py", "bash -c '# python train.py", "docker.sh"),  # inside quotes
        ("that runs a short train on CIFAR-10:", "with a shell:", "README.md"),  # no promise
        ("runs a short train on", "opens a shell; the demo is", "README.md"),  # another program named
    ],
)
def test_comments_that_drop_nothing_promised(tmp_path: Path, old: str, new: str, where: str) -> None:
    files = {"README.md": DEMO, "docker.sh": DEMO_BUILD_RUN}
    files[where] = files[where].replace(old, new)
    assert _commented(tmp_path, files) == []


# a model server: a script converts the model and builds the image, the README then runs a tag of its own
MAKE_IMAGE = """\
MODEL_PATH=$1
NAME=$2
python tools/export.py -m $MODEL_PATH
echo "Building the image"
docker build -t serving_probe:v2 . --no-cache
bash cleanup.sh
"""
SERVING = """\
# Serving a classifier

1. Install the requirements.
2. Run the script `make_serving_image.sh`, giving it:
  1. model_path: the model's folder.
  2. model_name: the name the API uses.

# Running the container

```
docker run --shm-size=256m -p8000:8000 serving_cls_model:v1
```

# Manual build

```
docker build -t serving_cls_model:v1 .
```
"""


def _script_built(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "the image the script made" in d.message
    ]


def test_a_run_after_the_build_script_of_another_tag(tmp_path: Path) -> None:
    files = {"README.md": SERVING, "make_serving_image.sh": MAKE_IMAGE, "cleanup.sh": "rm -rf build\n"}
    assert _script_built(tmp_path, files) == [
        (
            11,
            "README runs serving_cls_model:v1 after make_serving_image.sh (line 4), but "
            "make_serving_image.sh:5 tags the image it builds serving_probe:v2: the run does not start the "
            "image the script made (the README builds serving_cls_model:v1 only at line 17, after the run)",
            "likely",
        )
    ]


def test_a_run_block_after_a_block_running_the_build_script(tmp_path: Path) -> None:
    readme = (
        "# OCR API\n\n```bash\n./scripts/build_image.sh\n```\n\nThen start it:\n\n"
        "```bash\ndocker run --rm -p 8080:8080 acme/ocr-api:2.0\n```\n"
    )
    build = 'VERSION=2.1\ndocker build -t "acme/ocr-api:${VERSION}" -f Dockerfile .\n'
    files = {"README.md": readme, "scripts/build_image.sh": build}
    assert [(line, confidence) for line, _, confidence in _script_built(tmp_path, files)] == [(10, "likely")]


@pytest.mark.parametrize(
    ("run", "build"),
    [
        # the very image, with or without `:latest`
        ("docker run -p8000:8000 serving_probe:v2", MAKE_IMAGE),
        ("docker run serving_probe", MAKE_IMAGE.replace("serving_probe:v2", "serving_probe")),
        ("docker run serving_probe:latest", MAKE_IMAGE.replace("serving_probe:v2", "serving_probe")),
        # an image of another name altogether: a check of the GPU, a public image
        ("docker run --rm --gpus all nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi", MAKE_IMAGE),
        # the script's tag not known
        ("docker run serving_cls_model:v1", MAKE_IMAGE.replace("serving_probe:v2", "$2")),
        # the README tags, pulls or builds the image before it runs it
        ("docker tag serving_probe:v2 serving_cls_model:v1\ndocker run serving_cls_model:v1", MAKE_IMAGE),
        ("docker pull acme/serving_cls_model:v1\ndocker run acme/serving_cls_model:v1", MAKE_IMAGE),
        ("docker build -t serving_cls_model:v1 .\ndocker run serving_cls_model:v1", MAKE_IMAGE),
        # the script starts a container itself
        ("docker run serving_cls_model:v1", MAKE_IMAGE + "docker run -d serving_probe:v2\n"),
    ],
)
def test_runs_the_build_script_makes_or_another_step_gives(tmp_path: Path, run: str, build: str) -> None:
    readme = SERVING.replace("docker run --shm-size=256m -p8000:8000 serving_cls_model:v1", run)
    assert _script_built(tmp_path, {"README.md": readme, "make_serving_image.sh": build}) == []


def test_build_scripts_the_readme_does_not_run_first(tmp_path: Path) -> None:
    # the script to edit, a file beside the README naming the run image, a run before the script
    edited = SERVING.replace("2. Run the script", "2. Edit the image name in")
    assert _script_built(tmp_path, {"README.md": edited, "make_serving_image.sh": MAKE_IMAGE}) == []
    compose = "services:\n  api:\n    image: serving_cls_model:v1\n    build: .\n"
    files = {"README.md": SERVING, "make_serving_image.sh": MAKE_IMAGE, "compose.yaml": compose}
    assert _script_built(tmp_path, files) == []
    ahead = "# Serving\n\n```\ndocker run serving_cls_model:v1\n```\n\nBuilt by `make_serving_image.sh`.\n"
    assert _script_built(tmp_path, {"README.md": ahead, "make_serving_image.sh": MAKE_IMAGE}) == []


def test_a_run_of_the_image_the_readme_builds_before_an_alternative_script(tmp_path: Path) -> None:
    """The README builds and tags the image itself, then offers a build script as another way (which
    tags another name): the run afterwards starts the README's own build, not the script's."""
    readme = (
        "# Web UI\n\n```\ndocker build -t webui:latest .\n```\n\nOr use the script:\n\n"
        "```\n./build.sh\n```\n\nThen run:\n\n```\ndocker run --gpus all -p 7860:7860 webui:latest\n```\n"
    )
    build = "#!/bin/sh\ndocker build -t webui:gpu .\n"
    assert _script_built(tmp_path, {"README.md": readme, "build.sh": build}) == []
    alone = readme.replace("```\ndocker build -t webui:latest .\n```\n\nOr use the script:\n\n", "")
    assert [
        line for line, _, _ in _script_built(tmp_path / "alone", {"README.md": alone, "build.sh": build})
    ] == [10]


# an edge-device project with a PC port: `build.sh` makes the device image (its tag from a release the
# script sources), a sibling `build_pc.sh` makes the PC one, and the PC page runs the first
DEVICE_BUILD = """\
#!/usr/bin/env bash
source ./tools/release.sh
REPO="posebox"
TAG="r$RELEASE"
echo "docker build -t $REPO:$TAG -f Dockerfile ."
docker build -t $REPO:$TAG \\
    -f Dockerfile .
"""
PC_BUILD = """\
#!/usr/bin/env bash
REPO="posebox"
TAG="trt-0.2-pc"
docker build -t $REPO:$TAG -f Dockerfile.pc .
"""
PC_RUN = 'IMAGE=""\nwhile :; do case $1 in --image) IMAGE=$2; shift;; *) break;; esac; shift; done\n'
PC_RUN += "docker run --gpus all -it --rm $IMAGE\n"
PC_PAGE = """\
# posebox on a PC

```
./build.sh
./run_pc.sh --image posebox:trt-0.2-pc
```
"""


def _device_files(readme: str, **more: str) -> dict[str, str]:
    return {
        "README.md": readme,
        "Dockerfile.pc": DOCKERFILE,
        "build.sh": DEVICE_BUILD,
        "build_pc.sh": PC_BUILD,
        "run_pc.sh": PC_RUN,
        **more,
    }


def test_an_image_given_a_run_script_that_only_a_sibling_build_script_makes(tmp_path: Path) -> None:
    assert _script_built(tmp_path, _device_files(PC_PAGE)) == [
        (
            5,
            "README passes posebox:trt-0.2-pc to run_pc.sh after build.sh (line 4), but build.sh:6 tags "
            "the image it builds posebox:r* (*: a value it does not set itself): the run does not start "
            "the image the script made (build_pc.sh:4 tags posebox:trt-0.2-pc: did you mean "
            "./build_pc.sh?)",
            "likely",
        )
    ]


def test_a_docker_run_of_what_only_a_sibling_build_script_makes(tmp_path: Path) -> None:
    # a lab's segmenter: `scripts/build.sh` makes the GPU image, the CPU one is `scripts/build_cpu.sh`'s
    readme = "# Segmenter\n\n```\nbash scripts/build.sh\ndocker run --rm lab/segmenter:cpu\n```\n"
    files = {
        "README.md": readme,
        "scripts/build.sh": "docker build -t lab/segmenter:gpu-1.3 -f Dockerfile .\n",
        "scripts/build_cpu.sh": "docker build -t lab/segmenter:cpu -f Dockerfile .\n",
    }
    assert [message for _, message, _ in _script_built(tmp_path, files)] == [
        "README runs lab/segmenter:cpu after scripts/build.sh (line 4), but scripts/build.sh:1 tags the "
        "image it builds lab/segmenter:gpu-1.3: the run does not start the image the script made "
        "(scripts/build_cpu.sh:1 tags lab/segmenter:cpu: did you mean ./scripts/build_cpu.sh?)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the README runs the sibling too, or names it as the way for a PC
        PC_PAGE.replace("./build.sh\n", "./build.sh\n./build_pc.sh\n"),
        PC_PAGE + "\nOn a PC, build with `build_pc.sh` instead.\n",
        # a word given the run script that is another repository (its base image)
        PC_PAGE.replace("--image posebox:trt-0.2-pc", "--base nvcr.io/nvidia/pytorch:21.02-py3"),
        # a tag the script's unknown part may give
        PC_PAGE.replace("posebox:trt-0.2-pc", "posebox:r32.5.1"),
    ],
)
def test_images_given_a_run_script_that_the_build_script_may_make(tmp_path: Path, readme: str) -> None:
    assert _script_built(tmp_path, _device_files(readme)) == []


def test_a_tag_a_script_reads_from_elsewhere_that_may_be_the_run(tmp_path: Path) -> None:
    files = _device_files(PC_PAGE, **{"build.sh": DEVICE_BUILD.replace('TAG="r$RELEASE"', 'TAG="$RELEASE"')})
    assert _script_built(tmp_path, files) == []
