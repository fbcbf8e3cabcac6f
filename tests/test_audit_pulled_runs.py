"""`docgen audit`: a README that pulls an image, then runs a make target or script whose `docker run`
runs another image (docgen/audit/pulled_runs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.pulled_runs import runs_of_script
from docgen.pipeline import build_model

DOCKERFILE = "FROM ubuntu:24.04\nRUN echo serve\n"
MAKEFILE = """\
ARCH ?= gfx90a
image:
\tdocker build -t llm-server-$(ARCH) .
serve: ## start the server
\t@NAME="$(filter-out $@,$(MAKECMDGOALS))"; \\
\tPORT=9000 ./serve.sh $$NAME
%:
\t@:
"""
SERVE = """\
#!/usr/bin/env bash
set -euo pipefail
if [[ "${FULL:-0}" == "1" ]]; then
  IMAGE="llm-server-gfx90a"
else
  IMAGE="llm-server-gfx90a.slim"
fi
[ -t 0 ] && TTY="-it" || TTY="-i"
ARGS=(docker run --rm $TTY \\
  --device /dev/kfd \\
  -v "$(pwd)/models:/models:ro")
ARGS+=( -p 9000:9000 )
ARGS+=( "$IMAGE" )
"${ARGS[@]}" /opt/serve.sh "$@"
"""
README = """\
# LLM server

```sh
docker pull acme/llm-server:latest
```

```sh
make serve small-model
```
"""


def found(
    root: Path, readme: str, makefile: str = MAKEFILE, serve: str = SERVE, files: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    tree = {
        "Dockerfile": DOCKERFILE,
        "Makefile": makefile,
        "serve.sh": serve,
        "README.md": readme,
        **(files or {}),
    }
    make_tree(root, {k: v for k, v in tree.items() if v})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if d.message.startswith("README pulls")
    ]


def test_a_pulled_image_the_wrapper_never_runs(tmp_path: Path) -> None:
    assert found(tmp_path, README + "\n```sh\nmake serve big-model\n```\n") == [
        (
            8,
            "README pulls acme/llm-server:latest (line 4), but make serve runs serve.sh, whose docker run "
            "(serve.sh:9) runs llm-server-gfx90a or llm-server-gfx90a.slim, which nothing the README pulls, "
            "builds or tags before is named; also at line 12",
            "likely",
        )
    ]


def test_a_script_the_readme_runs(tmp_path: Path) -> None:
    readme = README.replace("make serve small-model", "./serve.sh small-model")
    [(line, message, _)] = found(tmp_path, readme)
    assert line == 8 and "but serve.sh, whose docker run (serve.sh:9)" in message


@pytest.mark.parametrize(
    "readme",
    [
        README.replace("make serve small-model", "make image\nmake serve small-model"),  # built first
        README.replace("make serve small-model", "./build.sh\nmake serve small-model"),  # a script builds
        README.replace("make serve small-model", "make -C base image\nmake serve small-model"),  # elsewhere
        README.replace(
            "docker pull acme/llm-server:latest",
            "docker pull acme/llm-server:latest\ndocker tag acme/llm-server:latest llm-server-gfx90a.slim\n"
            "docker tag acme/llm-server:latest llm-server-gfx90a",
        ),
        README.replace("docker pull acme/llm-server:latest", "docker load -i llm-server.tar"),
        README.replace("docker pull acme/llm-server:latest", "docker build -t $IMAGE ."),  # not known
        "# LLM server\n\n```sh\nmake serve small-model\ndocker pull acme/llm-server:latest\n```\n",  # after
        "# LLM server\n\n```sh\nmake serve small-model\n```\n",  # nothing pulled
    ],
)
def test_readme_traps_stay_silent(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


@pytest.mark.parametrize(
    "serve",
    [
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="acme/llm-server:latest"'),  # the pulled one
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="${SERVER_IMAGE:-llm-server-gfx90a.slim}"'),
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="$1"'),
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="ghcr.io/acme/llm-server:slim"'),  # pullable
        SERVE.replace('IMAGE="llm-server-gfx90a.slim"', 'IMAGE="ubuntu:24.04"'),  # official
        SERVE.replace("set -euo pipefail", "docker pull acme/llm-server:latest"),  # the script gets it
        SERVE.replace("set -euo pipefail", "docker build -t llm-server-gfx90a.slim ."),
        SERVE.replace('ARGS+=( "$IMAGE" )\n', ""),  # the image cannot be told
        SERVE.replace("[ -t 0 ]", "read -r IMAGE; [ -t 0 ]"),
        SERVE.replace("[ -t 0 ]", "[ -f .image ] && IMAGE=$(cat .image)\n[ -t 0 ]"),  # set by a command
    ],
)
def test_script_traps_stay_silent(tmp_path: Path, serve: str) -> None:
    assert found(tmp_path, README, serve=serve) == []


@pytest.mark.parametrize(
    "makefile",
    [
        MAKEFILE.replace("serve: ## start the server\n", "serve: image\n"),  # the target builds first
        MAKEFILE.replace("PORT=9000 ./serve.sh $$NAME", "$(SCRIPT) $$NAME"),  # script not known
        MAKEFILE.replace("PORT=9000 ./serve.sh $$NAME", "./serve.sh $$NAME && ./other.sh"),  # two scripts
    ],
)
def test_makefile_traps_stay_silent(tmp_path: Path, makefile: str) -> None:
    assert found(tmp_path, README, makefile=makefile) == []


def test_script_runs_reads_a_plain_command() -> None:
    runs = runs_of_script('NAME=app-gpu\ndocker run --rm -e A=1 --name x "$NAME" serve\n')
    assert runs is not None and (runs.images, runs.line) == (("app-gpu",), 2)
    assert runs_of_script("docker run --rm $OPTS app serve\n") is None  # an option list not known
    # words about a run, not one: a comment, an echo, an array opened on the line before
    assert runs_of_script('# the docker run command\necho "docker run app"\nlog "docker run x"\n') is None
    assert runs_of_script("local cmd=(\n  docker run\n  --rm app\n)\n") is None


def test_many_commands_each_see_what_the_readme_ran_before(tmp_path: Path) -> None:
    # (benchmarks/bench_shapes.py `pulled-runs`: each command read every command before it, and each
    # script, again)
    makefile = "ARCH ?= gfx90a\nimage:\n\tdocker build -t llm-server-$(ARCH) .\n" + "".join(
        f"serve{k}:\n\tPORT=900{k} ./serve.sh\n" for k in range(8)
    )
    block = "".join(f"make serve{k}\n" for k in range(4)) + "./serve.sh\nmake image\n"
    block += "".join(f"make serve{k}\n" for k in range(4, 8))
    readme = f"# LLM server\n\n```sh\ndocker pull acme/llm-server:latest\n```\n\n```sh\n{block}```\n"
    [(line, message, confidence)] = found(tmp_path, readme, makefile)
    assert (line, confidence) == (8, "likely")
    assert message.startswith("README pulls acme/llm-server:latest (line 4), but make serve0 runs serve.sh")
    assert message.endswith("; also at lines 9, 10, 11, 12")  # not after make image builds the image


# `built_never_run`: a make target the README runs to build, whose tag is a slip of the image the run
# script runs (two projects' shapes: a `.minimal` variant named two ways, a versioned repository).

SLIM_MAKEFILE = """\
ARCH ?= gfx1100
IMAGE := llm-server-$(ARCH)
SLIM := llmserver_rocm_${ARCH}.slim
build:
\tdocker build -t $(IMAGE) .
slim:
\tdocker build -f Dockerfile.slim -t $(SLIM) .
serve:
\t./serve.sh
"""
SLIM_SERVE = """\
#!/usr/bin/env bash
IMAGE="llm-server-gfx1100.slim"
docker run --rm -it \\
  --device /dev/kfd \\
  "$IMAGE" /opt/serve.sh
"""
SLIM_README = """\
# Slim server

```sh
make build
make slim
```

Then start it:

```sh
make serve
```
"""


def _built(
    root: Path, readme: str, makefile: str = SLIM_MAKEFILE, serve: str = SLIM_SERVE
) -> list[tuple[int, str]]:
    make_tree(
        root,
        {
            "Dockerfile": DOCKERFILE,
            "Dockerfile.slim": DOCKERFILE,
            "Makefile": makefile,
            "serve.sh": serve,
            "README.md": readme,
        },
    )
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root, root)
        if d.message.startswith("README builds with make")
    ]


def test_a_make_tag_that_is_a_slip_of_the_image_the_run_script_runs(tmp_path: Path) -> None:
    assert _built(tmp_path, SLIM_README) == [
        (
            5,
            "README builds with make slim, which tags llmserver_rocm_gfx1100.slim (Makefile:7), but make "
            "serve runs serve.sh (line 11), whose docker run (serve.sh:3) runs llm-server-gfx1100.slim: "
            "nothing the README runs makes llm-server-gfx1100.slim",
        )
    ]


def test_a_versioned_tag_the_run_script_runs_under_another_version(tmp_path: Path) -> None:
    makefile = (
        "VERSION = 1.2\nbuild:\n\tdocker build -t acme/cuda-base:$(VERSION)-runtime .\nserve:\n\t./serve.sh\n"
    )
    serve = "#!/bin/sh\ndocker run -it acme/cuda-base:1.4-runtime bash\n"
    readme = "# Base\n\n```sh\nmake build\nmake serve\n```\n"
    [(line, message)] = _built(tmp_path, readme, makefile, serve)
    assert (
        line == 4
        and "tags acme/cuda-base:1.2-runtime" in message
        and "makes acme/cuda-base:1.4-runtime" in message
    )


@pytest.mark.parametrize(
    ("readme", "makefile", "serve"),
    [
        # the run image is the one the build tags
        (
            SLIM_README,
            SLIM_MAKEFILE.replace("llmserver_rocm_${ARCH}.slim", "llm-server-${ARCH}.slim"),
            SLIM_SERVE,
        ),
        # the README pulls the run image
        (
            "```sh\ndocker pull llm-server-gfx1100.slim\nmake slim\nmake serve\n```\n",
            SLIM_MAKEFILE,
            SLIM_SERVE,
        ),
        # another image, not a slip of the built one
        (SLIM_README, SLIM_MAKEFILE, SLIM_SERVE.replace("llm-server-gfx1100.slim", "redis-cache")),
        # the tag part the README sets (`ARCH=`) is the only difference
        (
            "```sh\nexport ARCH=gfx90a\nmake slim\nmake serve\n```\n",
            SLIM_MAKEFILE.replace("llmserver_rocm_${ARCH}.slim", "llm-server-${ARCH}.slim"),
            SLIM_SERVE.replace("gfx1100", "gfx90a"),
        ),
        # a script run before the start that may tag anything
        ("```sh\nmake slim\n./retag.sh\nmake serve\n```\n", SLIM_MAKEFILE, SLIM_SERVE),
        # a build whose tag is the reader's
        ("```sh\nmake slim\ndocker build -t $NAME .\nmake serve\n```\n", SLIM_MAKEFILE, SLIM_SERVE),
    ],
)
def test_built_images_the_run_can_find_are_silent(
    tmp_path: Path, readme: str, makefile: str, serve: str
) -> None:
    (tmp_path / "retag.sh").write_text("#!/bin/sh\ndocker tag a b\n")
    assert _built(tmp_path, readme, makefile, serve) == []


# `pulled_runs` after a build: the README builds one image by hand, then runs a quick-start script
# whose `docker run` starts a local name nothing makes (a speech API built as `tts-api`, run as
# `voice-tts:latest`; a notebook server built as `lab-notebook`, run as `notebook-gpu`).
QUICK = """\
#!/bin/bash
mkdir -p models/
docker run -itd --gpus all --name speech \\
-p 8020:8020 \\
-v $(pwd)/models:/app/models \\
speech-api:latest \\
python server.py --port 8020
"""
QUICK_README = """\
# Speech API

## Docker

```bash
docker build -t tts-api .
docker run -d -p 8020:8020 tts-api
```

### Quick start script

```bash
chmod +x run_docker.sh
./run_docker.sh
```
"""


def _after_build(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root, root)
        if d.message.startswith("README builds") and "which nothing the README pulls" in d.message
    ]


def test_a_run_script_starting_an_image_the_readme_build_never_names(tmp_path: Path) -> None:
    assert _after_build(tmp_path, QUICK_README, {"run_docker.sh": QUICK}) == [
        (
            14,
            "README builds tts-api (line 6), but run_docker.sh, whose docker run (run_docker.sh:3) runs "
            "speech-api:latest, which nothing the README pulls, builds or tags before is named",
        )
    ]


def test_a_start_script_with_its_options_in_variables(tmp_path: Path) -> None:
    start = (
        '#!/bin/bash\nENVS="  --env=DISPLAY\n        --env=QT_X11_NO_MITSHM=1\n        --gpus all"\n'
        "docker run -it --rm $ENVS --net=host notebook-gpu bash\n"
    )
    readme = "# Lab\n\n```\ndocker build -t lab-notebook .\n```\n\n```\nbash start.sh\n```\n"
    [(line, message)] = _after_build(tmp_path, readme, {"start.sh": start})
    assert line == 8 and "runs notebook-gpu" in message


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the script starts the image built
        (QUICK_README, {"run_docker.sh": QUICK.replace("speech-api:latest", "tts-api")}),
        # the script is run before the build
        (
            "```bash\n./run_docker.sh\n```\n\n```bash\ndocker build -t tts-api .\n```\n",
            {"run_docker.sh": QUICK},
        ),
        # a build script beside the README tags the script's image
        (QUICK_README, {"run_docker.sh": QUICK, "build.sh": "docker build -t speech-api:latest .\n"}),
        # a compose file beside it names it, and the README runs compose
        (
            QUICK_README.replace("chmod +x", "docker compose build\nchmod +x"),
            {"run_docker.sh": QUICK, "compose.yml": "services:\n  api:\n    build: .\n"},
        ),
        # the image comes from the environment
        (QUICK_README, {"run_docker.sh": QUICK.replace("speech-api:latest", "${IMAGE:-speech-api:latest}")}),
        # a namespaced image the script pulls from a registry
        (QUICK_README, {"run_docker.sh": QUICK.replace("speech-api:latest", "acme/speech-api:latest")}),
        # a build with no tag known
        (QUICK_README.replace("-t tts-api", "-t $IMAGE"), {"run_docker.sh": QUICK}),
    ],
)
def test_builds_then_scripts_that_stay_silent(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _after_build(tmp_path, readme, files) == []


# `committed_unrun`: a container saved with `docker commit` under a name the run script never starts
# (a point-cloud detector whose run.sh starts `owner/name:latest`, the README saving `name:latest`; a
# ROS workspace whose start script starts `name:humble`, the README saving `name:built`).
DETECT_RUN = """\
#!/bin/bash
XSOCK=/tmp/.X11-unix
VOLUMES="--volume=$XSOCK:$XSOCK
         --volume=$HOME/data:/data:ro"
docker run -it --rm \\
        $VOLUMES \\
        --net=host \\
        kiwi/pointdet:latest bash
"""
DETECT_README = """\
# Docker PointDet

Build the image:
```
./build.sh
```
Then start it (edit it to mount your dataset):
```
./run.sh
```
The first time, install the repo with `python3 setup.py develop`.
Save the container with `docker commit ${CONTAINER ID} pointdet:latest`
"""


def _committed(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message)
        for d in audit(readme, "README.md", model, {}, root, root)
        if d.message.startswith("README commits")
    ]


_DETECT = {"build.sh": "#!/bin/bash\ndocker build -t kiwi/pointdet:latest .\n", "run.sh": DETECT_RUN}


def test_a_committed_image_the_run_script_never_starts(tmp_path: Path) -> None:
    assert _committed(tmp_path, DETECT_README, _DETECT) == [
        (
            12,
            "README commits the container as pointdet:latest, but run.sh, which the README runs (line 9), "
            "starts kiwi/pointdet:latest (run.sh:5) and nothing the README runs starts pointdet:latest: the "
            "next run starts the built image, not the saved one (did you mean kiwi/pointdet:latest?)",
        )
    ]


def test_a_committed_tag_beside_the_one_the_readme_runs(tmp_path: Path) -> None:
    readme = (
        "# ROS workspace\n\n```bash\ndocker build -t rosws:humble .\n"
        "docker run -it --name ws rosws:humble\ncolcon build\ndocker commit ws rosws:built\n```\n"
    )
    [(line, message)] = _committed(tmp_path, readme, {})
    assert line == 7 and "its docker run (line 5) starts rosws:humble" in message


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the saved name is the one the script starts
        (DETECT_README.replace("} pointdet:latest", "} kiwi/pointdet:latest"), _DETECT),
        # the README runs the saved image afterwards
        (DETECT_README + "\n```\ndocker run -it pointdet:latest\n```\n", _DETECT),
        # the README pushes or tags it further
        (DETECT_README + "\n```\ndocker tag pointdet:latest reg.example.com/pointdet\n```\n", _DETECT),
        # a name the reader fills in
        (DETECT_README.replace("pointdet:latest`", "<new_image_name>`"), _DETECT),
        # the run script takes the image from the environment
        (
            DETECT_README,
            {**_DETECT, "run.sh": DETECT_RUN.replace("kiwi/pointdet:latest", "${IMAGE:-kiwi/pointdet}")},
        ),
        # another image altogether
        (DETECT_README.replace("} pointdet:latest", "} scratchpad:latest"), _DETECT),
        # the commit comes before anything runs
        ("```\ndocker commit ws pointdet:latest\n./run.sh\n```\n", _DETECT),
        # images loaded from an archive
        (DETECT_README + "\n```\ndocker load -i pointdet.tar\n```\n", _DETECT),
        # a public image the reader customises, which nothing of the project builds
        (
            "```\ndocker run -it --name c nvidia/cuda:12.1.0-devel-ubuntu22.04\n"
            "docker commit c cuda:mine\n```\n",
            {},
        ),
        # the image the script starts is built by nothing of the project
        (DETECT_README, {"run.sh": DETECT_RUN}),
    ],
)
def test_commits_that_stay_silent(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    assert _committed(tmp_path, readme, files) == []


# a pull offered beside the script that runs the image: `docker pull X` "or" `cd stack && ./pull_run.sh`
STACK_CONFIG = 'USER_NAME=$USER\nCUDA_VERSION="12.1.0"\nORT_VERSION="v1.17.1"\n'
STACK_RUN = """\
#!/bin/bash
source "$(dirname "$0")"/config.sh
IMAGE="ghcr.io/kitlab/vision-cu${CUDA_VERSION//./}-${ORT_VERSION//./}-trt:latest"
docker run -it --rm \\
    $DETACH \\
    --gpus all \\
    --env USER_NAME=$USER_NAME \\
    "${IMAGE}" \\
    "${CMD:-bash}"
"""
STACK_README = """\
# Images

## Vision (`vision-stack`)

```bash
docker pull ghcr.io/kitlab/vision-cu1210-1171-trt:latest

# or

cd vision-stack
./pull_run.sh
```
"""


def slips(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "differ in one part" in d.message
    ]


def test_a_pulled_name_one_part_off_the_image_the_script_offered_beside_it_runs(tmp_path: Path) -> None:
    files = {"vision-stack/config.sh": STACK_CONFIG, "vision-stack/pull_run.sh": STACK_RUN}
    assert slips(tmp_path, STACK_README, files) == [
        (
            6,
            "README pulls ghcr.io/kitlab/vision-cu1210-1171-trt:latest, then runs vision-stack/pull_run.sh "
            "(line 11), whose docker run (vision-stack/pull_run.sh:4, with the values vision-stack/config.sh "
            "gives) runs ghcr.io/kitlab/vision-cu1210-v1171-trt:latest: the names differ in one part, 1171 "
            "and v1171, and the image pulled is not the one run",
            "likely",
        )
    ]


def test_a_pulled_release_the_run_script_moved_on_from(tmp_path: Path) -> None:
    run = 'ROCM=6.2\ndocker run --rm --device /dev/kfd "acme/llm-rocm${ROCM}:2024.05" serve\n'
    readme = "# LLM\n\n```sh\ndocker pull acme/llm-rocm6.1:2024.05\n./run.sh\n```\n"
    assert [line for line, _, _ in slips(tmp_path, readme, {"run.sh": run})] == [4]


@pytest.mark.parametrize(
    ("readme", "run"),
    [
        # the very image the script runs
        (STACK_README.replace("-1171-", "-v1171-"), STACK_RUN),
        # a variant, not a slip: parts without a digit
        (
            "```sh\ndocker pull acme/app-cpu:1.0\n./pull_run.sh\n```\n",
            "docker run --rm --gpus all acme/app-gpu:1.0\n",
        ),
        # another owner, another tag
        (STACK_README.replace("kitlab/", "otherlab/"), STACK_RUN),
        (STACK_README.replace(":latest", ":2024.05"), STACK_RUN),
        # the README names the run image too (both are pulled)
        (
            STACK_README + "\n`ghcr.io/kitlab/vision-cu1210-v1171-trt:latest` has the fixed runtime.\n",
            STACK_RUN,
        ),
        # the script builds its image itself, or takes it from the caller
        (STACK_README, STACK_RUN.replace("docker run", 'docker build -t "$IMAGE" . && docker run')),
        (
            STACK_README,
            STACK_RUN.replace('IMAGE="ghcr', 'IMAGE="${IMAGE:-ghcr').replace(':latest"', ':latest}"'),
        ),
        # the pull comes after the script, in another block
        (
            "```sh\ncd vision-stack\n./pull_run.sh\n```\n\n"
            "```sh\ndocker pull ghcr.io/kitlab/vision-cu1210-1171-trt:latest\n```\n",
            STACK_RUN,
        ),
    ],
)
def test_pulls_and_offered_scripts_that_agree_or_say_nothing(tmp_path: Path, readme: str, run: str) -> None:
    folder = "" if "vision-stack" not in readme else "vision-stack/"
    files = {f"{folder}config.sh": STACK_CONFIG, f"{folder}pull_run.sh": run}
    assert slips(tmp_path, readme, files) == []


# --- a run image with a part the caller fills in (`llm-server-${ARCH}`) ------------------------------

CALLED = MAKEFILE.replace("PORT=9000 ./serve.sh", "ARCH=$(ARCH) ./serve.sh")
OPEN_SERVE = SERVE.replace('"llm-server-gfx90a"', '"llm-server-${ARCH}"').replace(
    '"llm-server-gfx90a.slim"', '"llm_rocm_${ARCH}.slim"'
)


def test_a_run_image_named_with_a_variable_of_the_caller(tmp_path: Path) -> None:
    # a ROCm server whose script names its image after the GPU target make passes: no value of it
    # makes the pulled `acme/…` name, nor a namespace or an official image
    assert found(tmp_path, README, makefile=CALLED, serve=OPEN_SERVE) == [
        (
            8,
            "README pulls acme/llm-server:latest (line 4), but make serve runs serve.sh, whose docker run "
            "(serve.sh:9) runs llm-server-${ARCH} or llm_rocm_${ARCH}.slim (${ARCH}: the caller's value), "
            "which nothing the README pulls, builds or tags before is named",
            "likely",
        )
    ]
    # a vision app's run script: the pull is of the same shape under a local name, another target
    vision = README.replace("acme/llm-server:latest", "visionlab/detector:cuda").replace(
        "make serve small-model", "./serve.sh small-model"
    )
    serve = OPEN_SERVE.replace("llm-server-${ARCH}", "detector_${GPU}_run").replace(
        "llm_rocm_${ARCH}.slim", "detector_${GPU}_run"
    )
    [(line, message, _)] = found(tmp_path / "vision", vision, serve=serve)
    assert line == 8 and "runs detector_${GPU}_run (${GPU}: the caller's value)" in message


@pytest.mark.parametrize(
    ("readme", "serve"),
    [
        # a part that may hold a registry or an owner, or the whole tag
        (README, OPEN_SERVE.replace('"llm_rocm_${ARCH}.slim"', '"${REGISTRY}/llm-server"')),
        (README, OPEN_SERVE.replace('"llm_rocm_${ARCH}.slim"', '"llm-server:${TAG}"')),
        (README, OPEN_SERVE.replace('"llm_rocm_${ARCH}.slim"', '"${IMAGE_NAME}"')),
        # a value that makes the pulled name, or a name tagged before
        (
            README.replace("acme/llm-server:latest", "llm-server-gfx90a"),
            OPEN_SERVE.replace("llm_rocm_", "llm-server-"),
        ),
        (
            README.replace(
                "docker pull acme/llm-server:latest",
                "docker pull acme/llm-server:latest\ndocker tag acme/llm-server:latest llm_rocm_gfx90a.slim\n"
                "docker tag acme/llm-server:latest llm-server-gfx90a",
            ),
            OPEN_SERVE,
        ),
        # an official image under a variable tag part
        (README, OPEN_SERVE.replace('"llm_rocm_${ARCH}.slim"', '"ubuntu${ARCH}"')),
    ],
)
def test_open_parts_that_may_name_the_pulled_image_stay_silent(
    tmp_path: Path, readme: str, serve: str
) -> None:
    assert found(tmp_path, readme, makefile=CALLED, serve=serve) == []


def test_other_readers_of_run_scripts_keep_open_parts_unknown() -> None:
    assert runs_of_script(OPEN_SERVE) is None
    runs = runs_of_script(OPEN_SERVE, open_parts=True)
    assert runs is not None and runs.images == ("llm-server-${ARCH}", "llm_rocm_${ARCH}.slim")
