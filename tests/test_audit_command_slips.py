"""`docgen audit`: commands that fail or do nothing as written: a git option before the subcommand, pip's
`install` given to venv (docgen/audit/command_slips.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.audit.command_slips import (
    clone_slip,
    misplaced_option,
    run_option,
    self_copy,
    swallowed_script,
    venv_install,
)
from docgen.pipeline import build_model

APP = "FROM ubuntu:22.04\nCOPY . /src\n"
PREPARE = """\
#!/bin/bash
set -e
TAG=${TAG:-v1.4}
# git -b "$TAG" clone https://example.org/old.git   (history)
if [ ! -d sdk ]; then
  sudo git -b ${TAG} clone https://example.org/sdk.git sdk
fi
git -C sdk submodule update --init
docker build -t app .
"""


def found(
    root: Path, files: dict[str, str], said: str = "before its subcommand"
) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": APP, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    readme = files["README.md"]
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if said in d.message
    ]


def test_a_script_the_readme_runs(tmp_path: Path) -> None:
    readme = (
        "# SDK image\n\n```bash\nTAG=v1.5 ./prepare.sh\n```\n\nThen again:\n\n```bash\n./prepare.sh\n```\n"
    )
    assert found(tmp_path, {"prepare.sh": PREPARE, "README.md": readme}) == [
        (
            4,
            "README runs ./prepare.sh, whose line 6 runs git with -b before its subcommand (sudo git -b "
            "${TAG} clone https://example.org/sdk.git sdk): git takes only its own options there (-C, -c, "
            '--git-dir, …) and exits with "unknown option: -b"',
            "likely",
        )
    ]  # one finding a script
    fixed = PREPARE.replace("sudo git -b ${TAG} clone", "sudo git clone -b ${TAG}")
    assert found(tmp_path / "fixed", {"prepare.sh": fixed, "README.md": readme}) == []


def test_a_readme_command(tmp_path: Path) -> None:
    readme = (
        "# Plugins\n\nFetch the plug-in:\n\n```console\n$ cd plugins && git --depth 1 clone "
        "https://example.org/p.git\n```\n"
    )
    [(line, message, confidence)] = found(tmp_path, {"README.md": readme})
    assert (line, confidence) == (6, "certain")
    assert message.startswith("README runs git with --depth before its subcommand (git --depth 1 clone")


@pytest.mark.parametrize(
    "step",
    [
        "git -C repo checkout v1",
        "git -c http.sslVerify=false clone https://example.org/a.git",
        "git --no-pager log -1",
        "git --git-dir=/src/.git --work-tree /src status",
        "git --version",
        "apt-get install -y git -q",
        "echo git -b main clone",
        "git clone -b main https://example.org/a.git",
        "git $GIT_FLAGS clone https://example.org/a.git",
        "GIT_SSH_COMMAND='ssh -i key' git -c core.sshCommand=x fetch",
        "git -b",  # no subcommand: not a command to read
    ],
)
def test_options_git_takes_before_its_subcommand(step: str) -> None:
    assert misplaced_option(step) is None


@pytest.mark.parametrize(
    ("step", "option"),
    [
        ("sudo -E git -b main clone https://example.org/a.git", "-b"),
        ("then git --recursive clone https://example.org/a.git", "--recursive"),
        ("GIT_TRACE=1 git -C repo --hard reset", "--hard"),
    ],
)
def test_options_git_refuses_before_its_subcommand(step: str, option: str) -> None:
    assert misplaced_option(step) == option


PUSH = """\
#!/bin/bash
set -e
docker buildx build --output type=local,dest=out .
if [ "$PUSH" == "1" ]; then
  python3 -m venv .venv
  source ./.venv/bin/activate
  python3 -m venv install s3cmd
  s3cmd put -r out s3://wheels/
fi
"""


def test_pips_install_given_to_venv_in_a_script(tmp_path: Path) -> None:
    readme = (
        "# Wheels\n\nThe push step creates a venv and installs `s3cmd`.\n\n```bash\nPUSH=1 ./push.sh\n```\n"
    )
    # told at the sentence saying the script installs the package: the claim the step breaks
    assert found(tmp_path, {"push.sh": PUSH, "README.md": readme}, "nothing is installed") == [
        (
            3,
            "README says ./push.sh installs s3cmd, but its line 7 runs python3 -m venv install s3cmd: venv "
            "takes each word as a folder to make an environment in (install, s3cmd), so nothing is "
            "installed (`install` is pip's word)",
            "likely",
        )
    ]
    # no line says so (a wheel builder's table of scripts, a prerequisite naming the tool): at the run
    # (the table row naming the script is where the README runs it)
    for at, other in (
        (
            7,
            "# Wheels\n\n- `s3cmd`: only needed to push wheels.\n- The push step installs `awscli`.\n\n"
            "```bash\nPUSH=1 ./push.sh\n```\n",
        ),
        (
            5,
            "# Wheels\n\n| Script | Does |\n|---|---|\n| `./push.sh` | pushes the wheels |\n\n"
            "```bash\nPUSH=1 ./push.sh\n```\n",
        ),
    ):
        told = found(tmp_path / str(at), {"push.sh": PUSH, "README.md": other}, "nothing is installed")
        assert [(line, message.split(",")[0]) for line, message, _ in told] == [(at, "README runs ./push.sh")]
    fixed = PUSH.replace("python3 -m venv install s3cmd", "pip install s3cmd")
    assert found(tmp_path / "fixed", {"push.sh": fixed, "README.md": readme}, "nothing is installed") == []


@pytest.mark.parametrize(
    ("step", "folders"),
    [
        ("python3 -m venv install s3cmd", ["install", "s3cmd"]),
        ("sudo python3.11 -m venv --clear install awscli boto3", ["install", "awscli", "boto3"]),
        ("python -m venv .venv", None),
        ("python3 -m venv install", None),  # one folder named install: an environment there
        ("python3 -m venv envs/install s3cmd", None),
        ("python3 -m pip install s3cmd", None),
        ("python3 -m venv $VENV install", None),
        ("virtualenv install s3cmd", None),
    ],
)
def test_venv_install(step: str, folders: list[str] | None) -> None:
    assert venv_install(step) == folders


SLAM = """\
#!/bin/bash
# git clone clone https://example.org/slam.git   (an old note)
docker pull lab/slam:focal_cpu
docker run -td --name="slam" -v `pwd`/SLAM:/SLAM lab/slam:focal_cpu bash
docker exec -it slam bash -i -c "git clone clone https://example.org/slam.git /SLAM && cd /SLAM && ./build.sh"
"""
"""A SLAM image's build script (the shape of one that pulls an image, then clones and builds inside it)."""
SLAM_README = """\
# SLAM docker

Follow these steps:

- `./download_sample.sh`
- `build_container_cpu.sh`

Then `docker exec -it slam bash`.
"""


def test_a_clone_given_three_operands_in_a_script_a_list_item_runs(tmp_path: Path) -> None:
    files = {"build_container_cpu.sh": SLAM, "README.md": SLAM_README}
    assert found(tmp_path, files, "Too many arguments") == [
        (
            6,
            "README runs build_container_cpu.sh, whose line 5 runs git clone clone https://example.org/slam.git"
            " /SLAM: git clone takes a repository and at most a folder, but is given 3 operands (clone "
            'written twice), so it exits with "fatal: Too many arguments" and clones nothing',
            "likely",
        )
    ]
    fixed = SLAM.replace("git clone clone", "git clone")
    assert found(tmp_path / "fixed", {**files, "build_container_cpu.sh": fixed}, "git clone") == []
    # a sentence that only names the script runs nothing
    named = SLAM_README.replace(
        "- `build_container_cpu.sh`", "- `build_container_cpu.sh` is kept for reference"
    )
    assert found(tmp_path / "named", {**files, "README.md": named}, "git clone") == []


def test_a_readme_clone_with_three_operands(tmp_path: Path) -> None:
    readme = "# Tools\n\n```bash\ngit clone https://example.org/tools.git tools v2\ncd tools\n```\n"
    [(line, message, confidence)] = found(tmp_path, {"README.md": readme}, "Too many arguments")
    assert (line, confidence) == (4, "certain")
    assert "is given 3 operands," in message


@pytest.mark.parametrize(
    ("step", "said"),
    [
        ("git clone clone https://example.org/a.git /src", "given 3 operands (clone written twice)"),
        ("git clone clone https://example.org/a.git", "repository 'clone' does not exist"),
        ("sudo git clone --depth 1 -b main https://example.org/a.git a b", "given 3 operands,"),
        ('bash -c "git clone https://example.org/a.git a b && make"', "given 3 operands,"),
        ("git clone https://example.org/a.git", None),
        ("git clone --depth 1 https://example.org/a.git src", None),
        ("git clone -b v1 --recurse-submodules https://example.org/a.git src", None),
        ("git clone <url> [<dir>] extra", None),  # a synopsis
        ("git clone $REPO $DIR $EXTRA", None),
        ("git clone https://example.org/a.git src 2>/dev/null", None),
        ('echo "then git clone it into the folder"', None),
    ],
)
def test_clone_slip(step: str, said: str | None) -> None:
    found_said = clone_slip(step)
    assert (found_said if said is None else (found_said is not None and said in found_said)) in (None, True)


JUPYTER = """\
#!/bin/bash

PASSWORD=
NOTEBOOK_DIR="$PWD/notebooks"

nvidia-docker run -d \\
-n jupyter_gpu
-p 8888:8888 \\
-v $NOTEBOOK_DIR:/notebooks \\
jupyter-gpu
"""
"""A Jupyter GPU image's start script (the shape of one written for nvidia-docker 1): `-n` for `--name`,
and its line left without the `\\` that carries the options on."""


def test_a_scripts_docker_run_given_an_option_it_lacks(tmp_path: Path) -> None:
    readme = "# Jupyter GPU\n\n```sh\n# Start jupyter server\n$ ./scripts/start.sh\n```\n"
    files = {"scripts/start.sh": JUPYTER, "README.md": readme}
    assert found(tmp_path, files, "docker run") == [
        (
            5,
            "README runs ./scripts/start.sh, whose line 6 runs nvidia-docker run with -n, which docker run "
            "does not have: docker refuses the command (unknown shorthand flag: 'n')",
            "likely",
        ),
        (
            5,
            "README runs ./scripts/start.sh, whose nvidia-docker run (scripts/start.sh:6) ends at line 7 "
            "without a `\\`, so the option -p on the next line is not passed to it: the run ends before it "
            "and the shell runs line 8 (-p 8888:8888 \\) as a command of its own (the step cannot work as "
            "written)",
            "certain",
        ),
    ]
    fixed = JUPYTER.replace("-n jupyter_gpu\n", "--name jupyter_gpu \\\n")
    assert found(tmp_path / "fixed", {**files, "scripts/start.sh": fixed}, "docker run") == []


SERVICE_RUN = """\
#!/bin/bash

docker run \\
    --rm --gpus all \\
    -d \\
    -p 8000:8000 \\
    -v ./models:/app/models \\
    --name llmserver \\
    --restart unless-stopped \\
    llmserver
"""
"""An LLM server's run script (the shape of one kept beside a README whose own `docker run` has no `--rm`):
removal on exit and a restart policy, which docker refuses together."""


def test_a_scripts_docker_run_given_options_docker_refuses_together(tmp_path: Path) -> None:
    readme = "# LLM server\n\n## Run\n\nThis starts the server as a service. You can also run `run.sh`.\n"
    files = {"run.sh": SERVICE_RUN, "README.md": readme}
    assert found(tmp_path, files, "docker refuses") == [
        (
            5,
            "README runs run.sh, whose line 3 runs docker run with options docker refuses: --rm and "
            "--restart unless-stopped cannot both be set (docker: conflicting options), so no container "
            "starts",
            "likely",
        )
    ]
    # a run script of a sidecar on a VPN container's network, run in a block
    sidecar = "#!/bin/sh\ndocker run -d --network=container:vpn -p 9091:9091 acme/torrent\n"
    block = {"start.sh": sidecar, "README.md": "# Torrent\n\n```sh\n./start.sh\n```\n"}
    assert [c for _, _, c in found(tmp_path / "b", block, "docker refuses")] == ["likely"]


@pytest.mark.parametrize(
    "script",
    [
        SERVICE_RUN.replace("--rm ", ""),
        SERVICE_RUN.replace("unless-stopped", "no"),
        SERVICE_RUN.replace("--restart unless-stopped", "--restart $RESTART"),
        SERVICE_RUN.replace("--gpus all", "--fancy-new-flag all"),  # an option docgen does not know
    ],
)
def test_a_scripts_docker_run_docker_takes(tmp_path: Path, script: str) -> None:
    readme = "# LLM server\n\nYou can also run `run.sh`.\n"
    assert found(tmp_path, {"run.sh": script, "README.md": readme}, "docker refuses") == []


@pytest.mark.parametrize(
    ("step", "option"),
    [
        ("nvidia-docker run -d -n app -p 80:80 img", "-n"),
        ("sudo docker run -it -b ./data:/data img", "-b"),
        ("docker container run -itx img", "-x"),
        ("docker run -it --rm img python -n 3", None),  # the container's command's option
        ("docker run --help", None),
        ("docker run $FLAGS -n app img", None),  # a variable first: the image is not known
        ("docker run -d --name app -e A=1 -v /a:/a img", None),
        ("docker build -n .", None),
    ],
)
def test_run_option(step: str, option: str | None) -> None:
    said = run_option(step)
    assert (said is None) if option is None else (said is not None and f"with {option}," in said)


# an image build script whose name assignment has a space after `=`
SPACED_BUILD = """\
#!/bin/bash

IMAGE_NAME= "acme/x86_64/ubuntu22.04/trt8.5/image"
TAG="1"

docker build --no-cache -t ${IMAGE_NAME}:${TAG} .
"""
# a release script of a web service: the same slip with a registry path, read as $REGISTRY
SPACED_PUSH = """\
#!/usr/bin/env bash
set -e
REGISTRY= registry.example.com/team
docker build -t shop-api .
docker tag shop-api $REGISTRY/shop-api:latest
docker push $REGISTRY/shop-api:latest
"""


def test_a_script_assigning_with_a_space_after_the_equals_sign(tmp_path: Path) -> None:
    readme = "# Image\n\nTo build it:\n\n```bash\nbash build_docker.sh\n```\n"
    assert found(tmp_path, {"build_docker.sh": SPACED_BUILD, "README.md": readme}, "space after =") == [
        (
            6,
            'README runs build_docker.sh, whose line 3 assigns IMAGE_NAME= "acme/x86_64/ubuntu22.04/'
            'trt8.5/image" with a space after =: the shell runs "acme/x86_64/ubuntu22.04/trt8.5/image" as a '
            "command and leaves IMAGE_NAME empty, so line 6 reads an empty ${IMAGE_NAME}",
            "certain",
        )
    ]
    readme = "# Shop API\n\n```sh\n./release.sh\n```\n"
    [(line, message, _)] = found(
        tmp_path / "p", {"release.sh": SPACED_PUSH, "README.md": readme}, "space after ="
    )
    assert (
        line == 4 and "line 3 assigns REGISTRY= registry.example.com/team" in message and "line 5" in message
    )


@pytest.mark.parametrize(
    "script",
    [
        # fixed
        SPACED_BUILD.replace('IMAGE_NAME= "', 'IMAGE_NAME="'),
        # an environment for one command, the variable never read
        "#!/bin/sh\nLANG= sort names.txt\nCC= make\ndocker build -t app .\n",
        # set again before it is read
        SPACED_BUILD.replace('TAG="1"', 'TAG="1"\nIMAGE_NAME=acme/image'),
        # a command that is a path, run with an empty variable on purpose
        "#!/bin/bash\nPYTHONPATH= ./tools/gen.sh\necho $PYTHONPATH\n",
        # indented, inside a branch the script may not take
        '#!/bin/bash\nif [ -n "$1" ]; then\n  NAME= "acme/app"\nfi\ndocker build -t $NAME .\n',
    ],
)
def test_assignments_that_are_meant_or_fixed(tmp_path: Path, script: str) -> None:
    readme = "# Image\n\n```bash\nbash build_docker.sh\n```\n"
    assert found(tmp_path, {"build_docker.sh": script, "README.md": readme}, "space after =") == []


def test_a_spaced_assignment_in_a_script_the_readme_never_runs(tmp_path: Path) -> None:
    readme = "# Image\n\n```bash\ndocker build -t app .\n```\n"
    assert found(tmp_path, {"build_docker.sh": SPACED_BUILD, "README.md": readme}, "space after =") == []


# A robot kit's run script (the shape of one written for a board's base image): every option on a line of
# its own, the mount's line left without its `\`, the image a variable on the last line.
KIT_RUN = """\
IMAGE=acme/rover:base
DATA=$1

sudo docker run -it --rm \\
    --runtime nvidia \\
    --network host \\
    --device /dev/video0 \\
    -p 8888:8888 \\
    -v $DATA:/data
    $IMAGE
"""


def unjoined(root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    return found(root, files, "as a command of its own")


def test_a_run_scripts_image_cut_off_by_a_missing_continuation(tmp_path: Path) -> None:
    readme = "# Rover\n\n## Run\n\n```bash\ncd rover/docker\n./run.sh <data_dir>\n```\n"
    assert unjoined(tmp_path, {"run.sh": KIT_RUN, "README.md": readme}) == [
        (
            7,
            "README runs ./run.sh, whose docker run (run.sh:4) ends at line 9 without a `\\`, so the image "
            "$IMAGE on the next line is not passed to it: the run ends before it and the shell runs line 10 "
            "($IMAGE) as a command of its own (the step cannot work as written)",
            "certain",
        )
    ]
    fixed = KIT_RUN.replace("/data\n", "/data \\\n")
    assert unjoined(tmp_path / "fixed", {"run.sh": fixed, "README.md": readme}) == []


# A segmentation zoo's Makefile (the shape of one whose `docker_run` recipe lost a `\` in its middle).
ZOO_MAKEFILE = """\
docker_build:
\t\tdocker build -t zoo:latest -f docker/Dockerfile .

docker_run:
\t\tdocker run --gpus all -it --rm \\
\t\t\t--network host \\
\t\t\t--volume ${PWD}:/app/zoo
\t\t\t--name zoo \\
\t\t\tzoo:latest /bin/bash

run_%:
\t\tpython zoo/run.py configs/$*.yaml
"""


def test_a_make_recipes_option_cut_off_by_a_missing_continuation(tmp_path: Path) -> None:
    readme = "# Zoo\n\n1) Build\n```\nmake docker_build\n```\n\n2) Start the container\n"
    readme += "```\nmake docker_run\n```\n"
    assert unjoined(tmp_path, {"Makefile": ZOO_MAKEFILE, "README.md": readme}) == [
        (
            10,
            "README runs make docker_run, whose docker run (Makefile:5) ends at line 7 without a `\\`, so "
            "the option --name on the next line is not passed to it: the run ends before it and make runs "
            "line 8 (--name zoo \\) as a command of its own (the step cannot work as written)",
            "certain",
        )
    ]
    fixed = ZOO_MAKEFILE.replace("/app/zoo\n", "/app/zoo \\\n")
    assert unjoined(tmp_path / "fixed", {"Makefile": fixed, "README.md": readme}) == []


def test_a_build_scripts_context_and_an_exec_scripts_option(tmp_path: Path) -> None:
    build = "#!/bin/sh\ndocker build \\\n  -t acme/api:dev \\\n  -f docker/Dockerfile\n  .\n"
    shell = '#!/bin/bash\nif [ -n "$1" ]; then\n  docker exec -it \\\n    -u app\n    -w /srv api bash\nfi\n'
    readme = "# API\n\n```sh\n./build.sh\n./shell.sh\n```\n"
    said = unjoined(tmp_path, {"build.sh": build, "shell.sh": shell, "README.md": readme})
    assert [(line, confidence) for line, _, confidence in said] == [(4, "certain"), (5, "likely")]
    assert "the context . on the next line" in said[0][1]
    assert "the option -w on the next line" in said[1][1]


@pytest.mark.parametrize(
    "script",
    [
        # every line continued rightly, the image a variable
        "#!/bin/bash\nIMAGE=acme/rover\ndocker run -it --rm \\\n    -v $PWD:/w \\\n    $IMAGE\n",
        # a line ending in `&& \`: the run is the list's next command
        "#!/bin/bash\ndocker build -t acme/rover . && \\\n    docker run --rm \\\n    -v $PWD:/w \\\n"
        "    acme/rover\n",
        # a run that names its image, then a command of its own
        "#!/bin/bash\ndocker run -d \\\n    -p 80:80 acme/web\n$IMAGE_CHECK\n",
        # a heredoc writes another script: its lines are text
        "#!/bin/bash\ncat > inner.sh <<'EOF'\ndocker run --rm \\\n    -v a:/a\n    $IMAGE\nEOF\n"
        "sh inner.sh\n",
        "#!/bin/bash\ncat <<-EOF\n\tdocker run --rm \\\n\t  -p 80:80\n\t  --name web\n\tEOF\n",
        # a run on one line, then a case arm
        "#!/bin/bash\ncase $1 in\n  -r|--run)\n    docker run --rm -p 80:80 acme/web\n    ;;\n"
        "  -h)\n    echo help\n    ;;\nesac\n",
        # a quoted string the shell reads on over lines
        '#!/bin/bash\ndocker run --rm \\\n  acme/web sh -c "echo one\n  -v a:/a\n  echo two"\n',
        # a here-string is no heredoc
        '#!/bin/bash\ncat <<<"x"\ndocker run --rm \\\n  -p 80:80 \\\n  acme/web\n',
        # an array of the run's words, one a line: no `\` needed
        '#!/bin/bash\nrun() {\n    local cmd=(\n        docker run\n        --name "$1"\n        -it\n    )\n'
        '    cmd+=("$IMAGE")\n    "${cmd[@]}"\n}\n',
    ],
)
def test_scripts_continued_rightly(tmp_path: Path, script: str) -> None:
    readme = "# Rover\n\n```bash\n./run.sh\n```\n"
    assert unjoined(tmp_path, {"run.sh": script, "README.md": readme}) == []


@pytest.mark.parametrize(
    "recipe",
    [
        # `;` joins a recipe's commands, a `\` carries them on
        "up:\n\tdocker run -d --name web \\\n\t\t-p 80:80 acme/web ; \\\n\techo started\n",
        # a recipe after the rule's `;`, then a line make ignores the errors of
        "up: ; docker run -d --name web acme/web\n\t-docker rm -f old\n",
        # `-docker`: make's prefix, not an option, at the recipe's own depth
        "up:\n\tdocker run -d \\\n\t\t--name web acme/web\n\t-docker rm -f old\n\t@echo done\n",
        # a pattern rule makes the target: its recipe is not told
        "%:\n\tdocker run -d \\\n\t\t-p 80:80\n\t\t--name web acme/web\n",
    ],
)
def test_recipes_continued_rightly(tmp_path: Path, recipe: str) -> None:
    readme = "# Web\n\n```\nmake up\n```\n"
    assert unjoined(tmp_path, {"Makefile": recipe + "down:\n\tdocker rm -f web\n", "README.md": readme}) == []


def test_a_bare_image_name_indented_below_a_run_that_names_none(tmp_path: Path) -> None:
    script = "#!/bin/bash\ndocker run -d \\\n    --name notebook \\\n    -p 8888:8888\n    jupyter-gpu\n"
    readme = "# Notebook\n\n```bash\nbash start.sh\n```\n"
    [(line, said, confidence)] = unjoined(tmp_path, {"start.sh": script, "README.md": readme})
    assert (line, confidence) == (4, "certain")
    assert "so the image jupyter-gpu on the next line is not passed to it" in said
    # at the run's own depth: a command of its own after a run broken otherwise
    apart = script.replace("    jupyter-gpu\n", "echo started\n")
    assert unjoined(tmp_path / "apart", {"start.sh": apart, "README.md": readme}) == []


def test_a_python_option_that_swallows_the_script(tmp_path: Path) -> None:
    # a SLAM image's run step (the shape of one that silences warnings twice)
    readme = (
        "# Mapper\n\n## Run\n\n```bash\ncd /home/mapper\npython -W ignore -W run_mapper.py --dataset_path "
        "/data/room0 --viewer\n```\n"
    )
    assert found(tmp_path, {"README.md": readme}, "as the value of") == [
        (
            7,
            "README runs python -W ignore -W run_mapper.py --dataset_path …: python takes run_mapper.py as "
            "the value of its -W option (a warning filter), not as the script to run, and then reads "
            "--dataset_path as an option of its own (unknown option): run_mapper.py never runs",
            "certain",
        )
    ]
    fixed = readme.replace("-W ignore -W run_mapper.py", "-W ignore run_mapper.py")
    assert found(tmp_path / "fixed", {"README.md": fixed}, "as the value of") == []


def test_a_python_module_option_given_a_script_file(tmp_path: Path) -> None:
    # a bot's start line (the shape of `python -m main.py` that many READMEs write): python imports
    # `serve`, then fails to find a module `serve.py`
    readme = "# Bot\n\n```sh\npython3 -m serve.py --port 8000\n```\n"
    [(line, message, confidence)] = found(tmp_path, {"README.md": readme}, "as the value of")
    assert (line, confidence) == (4, "likely")
    assert message.startswith(
        "README runs python3 -m serve.py --port …: python takes serve.py as the value of its -m option (a "
        "module name), not as the script to run"
    )
    assert "Error while finding module specification" in message


@pytest.mark.parametrize(
    ("step", "said"),
    [
        ("python -W ignore -W slam.py --config c.txt", "-W"),
        ("CUDA_VISIBLE_DEVICES=0 python3.10 -u -W train.py", "-W"),
        ("python3 -X infer.py --input a.png", "-X"),
        ("/usr/bin/python3 -c demo.py", "-c"),
        ("sudo python -OW ignore -W tools/run.py", "-W"),
        ("python -m main.py", "-m"),
        ("docker exec -it app python -W ignore -W eval.py --ckpt last.pt", "-W"),
        ("python -W ignore train.py --epochs 3", None),
        ("python -m pytest tests/test_io.py", None),
        ("python -mpytest tests/test_io.py", None),
        ("python -X importtime -W error::DeprecationWarning app.py", None),
        ('python -c "import torch; print(torch.__version__)"', None),
        ("python -m http.server 8000", None),
        ("python -W ignore:::legacy.py run.py", None),  # a filter naming a module
        ("update-alternatives --install /usr/bin/python python /usr/bin/python3.10 1", None),
        ("python setup.py -W install", None),  # the script's own option
        ("python $PY_FLAGS -W x.py", None),
    ],
)
def test_swallowed_script(step: str, said: str | None) -> None:
    found_said = swallowed_script(step)
    assert (found_said[0] if found_said is not None else None) == said


DOCKING = """\
# Docking tools

Run the GUI:

```
docker run --rm --user=$(id -u) \\
           --workdir=\\`pwd\\` \\
           --volume=/home/$USER:/home/$USER \\
           lab/docking:mesa adt
```

Run the scorer:

```
docker run --rm \\
           --workdir=`pwd` \\
           --volume=`pwd`:\\`pwd\\` \\
           lab/docking:mesa score
```

Or alias it in .bashrc:

```
alias score='docker run --rm --workdir=\\`pwd\\` --volume=\\`pwd\\`:\\`pwd\\` lab/docking:mesa score'
```
"""
"""A docking tools README (the shape of one whose author escaped the backticks of `pwd` as prose needs)."""


def test_escaped_backticks_docker_takes_literally(tmp_path: Path) -> None:
    told = found(tmp_path, {"README.md": DOCKING}, "backtick")
    assert [(line, confidence) for line, _, confidence in told] == [
        (7, "certain"),
        (17, "certain"),
        (24, "certain"),
    ]
    assert told[0][1] == (
        "README's docker run gives --workdir=\\`pwd\\`: outside double quotes the shell reads \\` as a "
        "backtick character, not as a command substitution, so docker gets the text `pwd` in backticks as "
        "its working directory, which is not an absolute path: docker refuses the run (write `pwd` or "
        "$(pwd), with no backslashes)"
    )
    assert "the mount's path in the container is the text `pwd` in backticks" in told[1][1]
    assert told[2][1].startswith(
        "README's alias score='docker run --rm --workdir=\\`pwd\\` …' holds \\`pwd\\` inside single quotes: "
        "the shell keeps the backslashes, and when the alias runs it reads \\` as a backtick character"
    )
    fixed = DOCKING.replace("\\`", "`")
    assert found(tmp_path / "fixed", {"README.md": fixed}, "backtick") == []


def test_an_escaped_backtick_in_a_mounts_host_path(tmp_path: Path) -> None:
    # a notebook image's run line (the shape of one that mounts its work folder)
    readme = (
        "# Notebook\n\n```bash\ndocker run -p 8888:8888 -v \\`pwd\\`/work:/opt/work lab/notebook\n```\n\n"
        "```bash\ncd \\`pwd\\`/build\n```\n"
    )
    told = found(tmp_path, {"README.md": readme}, "backtick")
    assert [(line, confidence) for line, _, confidence in told] == [(4, "certain"), (8, "likely")]
    assert "takes the text `pwd`/work for the name of a volume" in told[0][1]
    assert told[1][1] == (
        "README runs cd \\`pwd\\`/build: outside double quotes the shell reads \\` as a backtick character, "
        "not as a command substitution, so cd gets the text `pwd`/build with its backticks, not the output "
        "of pwd (write `pwd` or $(pwd), with no backslashes)"
    )


@pytest.mark.parametrize(
    "block",
    [
        'alias nb="docker run -v \\`pwd\\`:/w lab/notebook"',  # double quotes: run when the alias runs
        "cat <<EOF > start.sh\nDIR=\\`pwd\\`\ncd $DIR && ./app\nEOF",  # a script's body
        'echo "built in \\`pwd\\`"',
        "docker run -v `pwd`:/w lab/notebook",
        "docker run -v $(pwd):/w lab/notebook",
        "echo `echo \\`pwd\\``",  # nested in a substitution
        "printf '%s' \\`",  # a lone backtick
    ],
)
def test_backticks_the_shell_runs(tmp_path: Path, block: str) -> None:
    readme = f"# Notebook\n\n```bash\n{block}\n```\n"
    assert found(tmp_path, {"README.md": readme}, "backtick") == []


def test_escaped_backticks_in_prose_render_as_backticks(tmp_path: Path) -> None:
    readme = "# Notebook\n\n- docker run --name nb -p 8888:8888 -v \\`pwd\\`:/source lab/notebook\n"
    assert found(tmp_path, {"README.md": readme}, "backtick") == []


def moved(operands: str, count: int, twice: bool = False) -> str:
    written = " (cd written twice)" if twice else ""
    return (
        f"README runs cd {operands}: cd takes one folder but is given {count}{written}, so it fails with "
        '"cd: too many arguments" and changes no folder: the commands after it run in the folder the reader '
        "was in"
    )


@pytest.mark.parametrize(
    ("block", "said"),
    [
        ("cd cd ~/work/gpu-builder\n./build_gpu_builder", moved("cd ~/work/gpu-builder", 2, twice=True)),
        (
            "git clone https://example.org/acme/serve.git && cd serve docker\ndocker build -t serve .",
            moved("serve docker", 2),
        ),
        ("$ cd -P tools vendor\n$ make", moved("tools vendor", 2)),
    ],
)
def test_a_cd_given_more_than_one_folder(tmp_path: Path, block: str, said: str) -> None:
    readme = f"# Builder\n\n```bash\n{block}\n```\n"
    assert found(tmp_path, {"README.md": readme}, said="cd takes one folder") == [(4, said, "certain")]


@pytest.mark.parametrize(
    "block",
    [
        "cd ~/work/gpu-builder && ./build.sh",
        'cd "My Projects/app"',  # quoted: one folder
        "cd My\\ Projects/app",
        "cd $HOME/src $EXTRA",  # a variable may be empty
        "cd <path to the repo>",  # a placeholder
        "cd path/to the repo",  # prose
        "cd /d C:\\work\\app",  # cmd's `cd /d`, in a block with no language
        "cd app # the folder cloned above",
        "cd app 2>/dev/null || mkdir app",
        "cd -- -odd-folder",
    ],
)
def test_a_cd_given_one_folder(tmp_path: Path, block: str) -> None:
    readme = (
        f"# Builder\n\n```bash\n{block}\n```\n\n```text\ncd one two\n```\n\n```cmd\ncd My Documents\n```\n"
    )
    assert found(tmp_path, {"README.md": readme}, said="cd takes one folder") == []


# A copy onto itself: the step meant to make a settings file from its example names the file twice.
# Modelled on an inference server's setup block (`# copy the example config` over `cp cfg.yaml cfg.yaml`)
# and on a web app's `.env` step.
def test_a_readme_copy_onto_itself(tmp_path: Path) -> None:
    readme = (
        "# Server\n\n```bash\n# if settings.yaml is missing, copy settings(example).yaml to it\n"
        "cp settings.yaml settings.yaml\npython serve.py\n```\n"
    )
    assert found(tmp_path, {"README.md": readme}, "same file") == [
        (
            5,
            "README runs cp settings.yaml settings.yaml: cp is given the same file as its source and its "
            'destination, so it fails with "are the same file" and makes no file from another',
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("step", "wrong"),
    [
        ("cp .env .env", True),
        ("sudo mv ./app.conf app.conf", True),
        ("cp -f config/a.yml config/./a.yml", True),
        ("cp .env.example .env", False),  # the usual step
        ("cp --backup=numbered db.sqlite db.sqlite", False),  # a backup onto itself, on purpose
        ("cp -b notes.txt notes.txt", False),
        ("cp $SRC $SRC", False),  # a variable: not told
        ("cp a.txt a.txt b/", False),  # three operands: another error, not this one
        ("cp -r . .", False),
        ("echo cp a a", False),
    ],
)
def test_self_copy(step: str, wrong: bool) -> None:
    assert (self_copy(step) is not None) == wrong
