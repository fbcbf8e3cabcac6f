"""`docgen audit`: files a README's setup steps read that the repository holds nowhere: the source of a
copy, a script sourced or run, a file printed (docgen/audit/setup_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = 'FROM python:3.12-slim\nWORKDIR /app\nCOPY . /app\nCMD ["python", "serve.py"]\n'
"""A project's own image: what it runs comes from the checkout."""
UPSTREAM = (
    "FROM nvidia/cuda:12.8.1-runtime-ubuntu24.04\n"
    "RUN git clone https://github.com/example/webui.git /app\nWORKDIR /app\n"
)
"""An image of another project, cloned: the scripts its README runs may be that project's."""


def found(
    root: Path, files: dict[str, str], dockerfile: str = APP, git: bool = True
) -> list[tuple[int, str, str]]:
    """(line, message, confidence) of `audit` of root/README.md against root/Dockerfile, the project
    `root`, a git checkout when `git`."""
    make_tree(root, {"Dockerfile": dockerfile, **files})
    if git:
        (root / ".git").mkdir()
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [(d.line, d.message, d.confidence) for d in audit(text, "README.md", model, {}, root, root)]


# --------------------------------------------------------------------------------------------------
# Templates a setup step copies

SETUP = """# WebUI in Docker

## Configuration

Create the folders the container mounts:
```bash
mkdir -p models outputs
```

Copy the configuration files:
```bash
cp config.json.example config.json
cp ui-config.json.example ui-config.json
```
"""


def test_a_template_copied_that_no_folder_holds_is_certain(tmp_path: Path) -> None:
    assert found(tmp_path, {"README.md": SETUP, "docker-compose.yml": "services: {}\n"}) == [
        (12, "README copies config.json.example, which does not exist in the repository", "certain"),
        (13, "README copies ui-config.json.example, which does not exist in the repository", "certain"),
    ]


def test_a_template_is_read_in_a_copy_of_the_readme_too(tmp_path: Path) -> None:
    # a template is never made by a step: its absence needs no checkout to tell
    assert [f[0] for f in found(tmp_path, {"README.md": SETUP}, git=False)] == [12, 13]


def test_a_template_named_with_its_words_in_another_order_is_named(tmp_path: Path) -> None:
    files = {"README.md": SETUP, "conf/config.example.json": "{}", "ui-config.json.example": "{}"}
    assert found(tmp_path, files) == [
        (
            12,
            "README copies config.json.example, which does not exist in the repository (did you mean "
            "conf/config.example.json?)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "block",
    [
        "cp config/config.json.example config.json",  # there, in a folder of the repository
        "cd config && cp config.json.example ../config.json",
        "wget https://example.com/config.json.example\ncp config.json.example config.json",  # fetched
        "touch settings.ini.example && cp settings.ini.example settings.ini",  # made first
        "cp $CONFIG config.json",  # a variable
        "cp <your-config>.json config.json",  # a placeholder
        "cp path/to/config.json.example config.json",
        "cp *.example .",  # a glob
        "cp /etc/app/config.json.example config.json",  # absolute: the host's file
        "docker run --rm app cp config.json.example /out/config.json",  # the container's file
        "docker cp app:/app/config.json.example config.json",
        "git clone https://github.com/example/webui.git\ncd webui\ncp env.example .env",  # another repository
    ],
)
def test_a_copy_of_a_file_that_may_be_there_is_silent(tmp_path: Path, block: str) -> None:
    files = {"README.md": f"# App\n\n```bash\n{block}\n```\n", "config/config.json.example": "{}"}
    assert found(tmp_path, files) == []


def test_a_template_in_a_block_run_inside_the_container_is_silent(tmp_path: Path) -> None:
    readme = "# App\n\nInside the container, run:\n\n```bash\ncp defaults.yaml.sample defaults.yaml\n```\n"
    assert found(tmp_path, {"README.md": readme}) == []


def test_a_template_after_an_interactive_container_in_its_section_is_silent(tmp_path: Path) -> None:
    readme = (
        "# App\n\n## Use\n\n```bash\ndocker run -it --rm app bash\n```\n\nThen:\n\n"
        "```bash\ncp defaults.yaml.sample defaults.yaml\n```\n"
    )
    assert found(tmp_path, {"README.md": readme}) == []


def test_a_template_after_an_alias_entering_a_container_is_silent(tmp_path: Path) -> None:
    readme = (
        "# App\n\n```bash\nalias drun='sudo docker run -it --device=/dev/kfd app'\n```\n\n"
        "```bash\ndrun --name app app:latest\ncp defaults.yaml.sample defaults.yaml\n```\n"
    )
    assert found(tmp_path, {"README.md": readme}) == []


def test_a_here_document_s_lines_are_not_commands(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\ncat > setup.sh <<EOF\ncp base.env.example base.env\nEOF\n```\n"
    assert found(tmp_path, {"README.md": readme}) == []


def test_a_template_git_ignores_is_silent(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\ncp local/settings.yaml.example settings.yaml\n```\n"
    assert found(tmp_path, {"README.md": readme, ".gitignore": "local/\n"}) == []


# --------------------------------------------------------------------------------------------------
# Scripts a step sources or runs, files it prints


def test_a_script_run_in_a_quoted_shell_string_that_no_folder_holds(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\nsudo bash -c 'cd docker && ./prepare.sh && docker build -t app .'\n```\n"
    assert found(tmp_path, {"README.md": readme, "docker/README.md": "x"}) == [
        (4, "README runs prepare.sh, which does not exist in the repository", "likely")
    ]


def test_a_script_whose_output_a_variable_takes_that_no_folder_holds(tmp_path: Path) -> None:
    # a device list for `docker run`, made by a helper the repository never had
    readme = "# GPU app\n\n```bash\nGPU_FLAGS=$(sudo ./tools/gpu_flags.sh)\ndocker run $GPU_FLAGS app\n```\n"
    assert found(tmp_path, {"README.md": readme, "tools/other.sh": ""}) == [
        (4, "README runs tools/gpu_flags.sh, which does not exist in the repository", "likely")
    ]
    # there: nothing to say; a nested substitution or backticks are not read
    for command in ("GPU_FLAGS=$(sudo ./tools/other.sh)", "F=$(echo $(./tools/gpu_flags.sh))"):
        text = readme.replace("GPU_FLAGS=$(sudo ./tools/gpu_flags.sh)", command)
        assert found(tmp_path / command[:3], {"README.md": text, "tools/other.sh": ""}) == []


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("source env/setup.sh", "README sources env/setup.sh, which does not exist in the repository"),
        (". ./activate-rocm.sh", "README sources activate-rocm.sh, which does not exist in the repository"),
        ("bash scripts/fetch.sh", "README runs scripts/fetch.sh, which does not exist in the repository"),
        ("cat config/app.yaml", "README prints config/app.yaml, which does not exist in the repository"),
    ],
)
def test_a_file_a_step_reads_that_no_folder_holds_is_likely(
    tmp_path: Path, command: str, message: str
) -> None:
    readme = f"# App\n\n```bash\n{command}\n```\n"
    assert found(tmp_path, {"README.md": readme}) == [(4, message, "likely")]


def test_a_python_script_a_block_runs_that_no_folder_holds_is_certain(tmp_path: Path) -> None:
    """The interpreter fails on a script no folder holds (a shell script or a file read may be made by
    a step docgen does not read; a Python script's run is the step)."""
    readme = "# App\n\n```bash\npython3 tools/convert.py --out x\n```\n"
    message = "README runs tools/convert.py, which does not exist in the repository"
    assert found(tmp_path, {"README.md": readme}) == [(4, message, "certain")]


def test_a_script_named_with_its_words_in_another_order_is_certain(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\nbash run_docker.sh\n```\n"
    assert found(tmp_path, {"README.md": readme, "scripts/docker_run.sh": "x"}) == [
        (
            4,
            "README runs run_docker.sh, which does not exist in the repository (did you mean "
            "scripts/docker_run.sh?)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    "block",
    [
        "bash scripts/fetch.sh",  # there, in the checkout
        "python -m venv .venv\nsource .venv/bin/activate",  # made by a step
        "source ~/.bashrc",
        "source /opt/ros/humble/setup.bash",
        "colcon build\nsource install/setup.bash",  # after a build: any file may be there
        "make\npython tools/report.py",  # (a Makefile is there: `make` may make any file)
        "docker exec -it app python tools/report.py",  # in the container
        "docker run --rm app bash -c 'python tools/report.py'",
        "ssh gpu-node\npython tools/report.py",  # on another host
        "cat > app.yaml <<EOF\nkey: 1\nEOF",  # a redirect writes it
        "cat nohup.out",  # an output, no file of the repository
        "python serve.py",  # the image's own command
        "bash scripts/fetch.sh > out.txt\ncat out.txt",  # an output
    ],
)
def test_a_script_or_file_that_may_be_there_is_silent(tmp_path: Path, block: str) -> None:
    files = {"README.md": f"# App\n\n```bash\n{block}\n```\n", "scripts/fetch.sh": "x"}
    if block.startswith("make"):
        files["Makefile"] = "all:\n\tpython gen.py\n"
    assert found(tmp_path, files) == []


def test_a_script_in_a_copy_of_the_readme_is_silent(tmp_path: Path) -> None:
    # no checkout: the scripts of the repository were not copied with its README
    readme = "# App\n\n```bash\nbash scripts/fetch.sh\n```\n"
    assert found(tmp_path, {"README.md": readme}, git=False) == []


def test_a_script_of_an_image_that_clones_another_project_is_silent(tmp_path: Path) -> None:
    readme = "# WebUI\n\n```bash\npython launch.py --listen\n```\n"
    assert found(tmp_path, {"README.md": readme}, dockerfile=UPSTREAM) == []


# A lab's container helpers (modelled on a robot stack's docker folder): the image clones other projects,
# but a script named for driving containers is the checkout's host tooling, not one of theirs
HELPERS = """# Robot image

**enter the running container again**
```
laptop $ source nx_docker_join.sh
```
"""


def test_a_container_helper_of_an_image_that_clones_another_project(tmp_path: Path) -> None:
    got = found(tmp_path, {"README.md": HELPERS}, UPSTREAM)
    assert got == [(5, "README sources nx_docker_join.sh, which does not exist in the repository", "likely")]
    readme = HELPERS.replace("nx_docker_join.sh", "nx_env_join.sh")  # (named for no container: theirs)
    assert found(tmp_path / "b", {"README.md": readme}, UPSTREAM) == []


# --------------------------------------------------------------------------------------------------
# Another repository's clone, another container: their files, not this repository's

FORK = """# Bridge

## Clone and build the simulator

Our fork of the simulator carries a few patches.

```
# on the host:

git clone https://github.com/example/simstack --single-branch -b bridge
cd simstack
./docker/scripts/sim_start.sh
./docker/scripts/sim_into.sh
```

Then build the stack:
```
./simstack.sh build_gpu
```

## Run the bridge

```
./scripts/start_bridge.sh
```
"""
"""A README that clones another project with a branch option, enters it and runs its scripts, in the
block and in the next block of its section; the next section runs this repository's script again."""


def test_scripts_run_in_another_repository_s_clone_are_its_own(tmp_path: Path) -> None:
    # the clone's scripts (both blocks of the section) are silent; the section after it is read again
    assert found(tmp_path, {"README.md": FORK}) == [
        (24, "README runs scripts/start_bridge.sh, which does not exist in the repository", "likely")
    ]
    files = {"README.md": FORK, "scripts/start_bridge.sh": "x"}
    assert found(tmp_path / "there", files) == []


@pytest.mark.parametrize(
    "clone",
    [
        "git clone --quiet --branch=0.5.0 --depth=1 --recursive https://github.com/example/simstack",
        "git clone -b v2.1 --depth 1 https://github.com/example/simstack.git && echo cloned",
        "git clone https://github.com/example/sim-stack.git simstack",
    ],
)
def test_a_clone_s_folder_is_read_past_its_options(tmp_path: Path, clone: str) -> None:
    readme = f"# App\n\n## Tools\n\n```bash\n{clone}\ncd simstack\n./build.sh\n```\n\n"
    readme += "```bash\n./tools/gen.sh\n```\n"
    assert found(tmp_path, {"README.md": readme}) == []


def test_a_cd_back_out_of_a_clone_reads_this_repository_again(tmp_path: Path) -> None:
    readme = (
        "# App\n\n## Setup\n\n```bash\ngit clone -b main https://github.com/example/simstack\n"
        "cd simstack/docker\n./setup_sim.sh\ncd ../..\n./scripts/prepare.sh\n```\n\n"
        "```bash\ncd simstack\n./run_sim.sh\ncd -\n./scripts/finish.sh\n```\n"
    )
    assert found(tmp_path, {"README.md": readme}) == [
        (10, "README runs scripts/prepare.sh, which does not exist in the repository", "likely"),
        (17, "README runs scripts/finish.sh, which does not exist in the repository", "likely"),
    ]


def test_a_clone_running_a_file_of_this_repository_is_this_repository(tmp_path: Path) -> None:
    # the clone's folder is entered in a block of its own, then a script found here runs by its path:
    # the clone is this repository's, and a script missing after it is told; a bare name found here
    # (`./build.sh`) may be the other repository's too
    readme = (
        "# App\n\n## Get started\n\n```\ngit clone https://github.com/example/vision-demo.git\n```\n\n"
        "```\ncd vision-demo\n```\n\n```\nbash docker/build.sh\n```\n\n```\nbash docker.run.sh\n```\n"
    )
    # (the rule on missing scripts tells it, naming the path its name joins: references._joined_folder)
    assert found(tmp_path, {"README.md": readme, "docker/build.sh": "x", "docker/run.sh": "x"}) == [
        (
            18,
            "README runs docker.run.sh, which does not exist next to it or in a folder above it (did you "
            "mean docker/run.sh?)",
            "certain",
        )
    ]
    bare = readme.replace("bash docker/build.sh", "./build.sh")
    assert found(tmp_path / "bare", {"README.md": bare, "build.sh": "x", "docker/run.sh": "x"}) == []


def test_a_script_of_this_repository_run_in_its_own_clone_is_read(tmp_path: Path) -> None:
    # the clone is this repository's (its next step runs a script found here): its scripts are ours
    clone = "git clone https://github.com/example/app.git app"
    readme = f"# App\n\n```bash\n{clone}\ncd app\nbash scripts/fetch.sh\nbash scripts/convert.sh\n```\n"
    assert [f[0] for f in found(tmp_path, {"README.md": readme, "scripts/fetch.sh": "x"})] == [7]


@pytest.mark.parametrize(
    "block",
    [
        "```\n# run in sim_dev_user container:\n\n./simstack.sh build_gpu\n```",
        "```bash\n./scripts/fetch.sh\n# inside the builder container\n./make_all.sh\n```",
        "Now in the solver container, build it:\n```bash\n./build_solver.sh\n```",
    ],
)
def test_a_block_said_to_run_in_a_named_container_is_its_files(tmp_path: Path, block: str) -> None:
    readme = f"# App\n\n## Build\n\n{block}\n"
    assert found(tmp_path, {"README.md": readme, "scripts/fetch.sh": "x"}) == []


def test_a_comment_of_a_block_on_the_host_is_no_container(tmp_path: Path) -> None:
    readme = "# App\n\n```bash\n# run on the local machine:\n./scripts/fetch.sh\n```\n"
    assert found(tmp_path, {"README.md": readme}) == [
        (5, "README runs scripts/fetch.sh, which does not exist in the repository", "likely")
    ]


# --------------------------------------------------------------------------------------------------
# A Python script run on the host that the project holds nowhere (`python x.py`, `uv run x.py`),
# in a checkout and in a README copied with its project outside one

VOICES = (
    "FROM python:3.11-slim\nWORKDIR /opt/tts\nCOPY voices/ /opt/tts/voices/\n"
    'COPY server.py /opt/tts/\nCMD ["python", "server.py"]\n'
)
"""A small text-to-speech image: the project holds server.py and voices/."""


def runs(
    root: Path, readme: str, dockerfile: str = VOICES, extra: dict[str, str] | None = None, git: bool = False
) -> list[tuple[int, str, str]]:
    """The findings on scripts run of `readme` in a project of the text-to-speech image."""
    files = {"README.md": readme, "server.py": "print('serve')\n", "voices/en.json": "{}\n", **(extra or {})}
    return [f for f in found(root, files, dockerfile, git) if f[1].startswith("README runs")]


def nowhere(line: int, path: str, confidence: str) -> tuple[int, str, str]:
    return (line, f"README runs {path}, which does not exist in the repository", confidence)


USAGE = """\
Text-to-speech server images.

### Usage
1. fetch the voices, `{first}`
2. build the image, `docker build -t tts:latest .`
3. {second}
4. `docker run -d -p 5002:5002 tts:latest`
"""


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # the steps run scripts the project does not have: `likely` (the prose's inline code)
        (
            "python fetch_voices.py",
            "warm the cache, `python3 -u warm_cache.py --all`",
            [nowhere(4, "fetch_voices.py", "likely"), nowhere(6, "warm_cache.py", "likely")],
        ),
        ("python3.11 fetch_voices.py", "echo", [nowhere(4, "fetch_voices.py", "likely")]),
        ("uv run fetch_voices.py", "echo", [nowhere(4, "fetch_voices.py", "likely")]),
        ("poetry run python fetch_voices.py", "echo", [nowhere(4, "fetch_voices.py", "likely")]),
        ("python3 tools/fetch_voices.py", "echo", [nowhere(4, "tools/fetch_voices.py", "likely")]),
        # the script is there
        ("python server.py", "echo", []),
        # a module, a program in words, a placeholder: no script of the project
        ("python -m voices.fetch", "echo", []),
        ('python -c "import voices"', "echo", []),
        ("python <your_script>.py", "echo", []),
        ("python $SCRIPT", "echo", []),
        ("python your_fetcher.py", "echo", []),
        ("python path/to/fetch.py", "echo", []),
        ("python custom_fetch.py", "echo", []),
        # a shell script outside a checkout: `references.missing_scripts`' (a script missing where others are)
        ("./fetch_voices.sh", "echo", []),
        ("bash fetch_voices.sh", "echo", []),
        # a name every project has its own of
        ("python setup.py install", "echo", []),
        # a step in the container
        ("docker exec -it tts python fetch_voices.py", "echo", []),
        ("docker compose exec tts python fetch_voices.py", "echo", []),
    ],
)
def test_a_step_runs_a_python_script_the_project_holds_nowhere(
    tmp_path: Path, first: str, second: str, expected: list[tuple[int, str, str]]
) -> None:
    assert runs(tmp_path, USAGE.format(first=first, second=second)) == expected


def test_a_script_the_readme_downloads_first_is_no_finding(tmp_path: Path) -> None:
    readme = (
        "# TTS\n\n1. download the helper: `wget https://example.com/tools/fetch_voices.py`\n"
        "2. fetch the voices, `python fetch_voices.py`\n"
    )
    assert runs(tmp_path, readme) == []
    readme = "# TTS\n\nSave the following as `fetch_voices.py`:\n\n```python\nprint(1)\n```\n\n"
    readme += "```bash\npython fetch_voices.py\n```\n"
    assert runs(tmp_path / "b", readme) == []


def test_another_file_of_the_project_names_the_script(tmp_path: Path) -> None:
    """A Makefile writes it, the Dockerfile copies it: the name is the project's, which other rules read
    (a generated file, a build context's miss)."""
    readme = USAGE.format(first="python fetch_voices.py", second="echo")
    extra = {"Makefile": "voices:\n\tcurl -o fetch_voices.py https://example.com/f.py\n"}
    assert runs(tmp_path, readme, extra=extra) == []
    assert runs(tmp_path / "b", readme, VOICES + "COPY fetch_voices.py /opt/tts/\n") == []


def test_a_script_a_slip_away_from_a_file_is_another_rules(tmp_path: Path) -> None:
    readme = USAGE.format(first="python fetch-voices.py", second="echo")
    assert runs(tmp_path, readme, extra={"tools/fetch_voices.py": ""}) == []


def test_a_copy_whose_links_miss_files_is_partial(tmp_path: Path) -> None:
    """A README copied with its Dockerfile alone: the files it links to are missing too, and so may be
    every script it runs (the missing links are told)."""
    readme = USAGE.format(first="python fetch_voices.py", second="see [the voices](docs/voices.md)")
    assert runs(tmp_path, readme) == []
    # in a checkout, the listing is the repository's whole
    assert runs(tmp_path / "b", readme, git=True) == [nowhere(4, "fetch_voices.py", "likely")]


def test_no_project_given_no_listing(tmp_path: Path) -> None:
    make_tree(tmp_path, {"README.md": USAGE.format(first="python fetch_voices.py", second="echo")})
    (tmp_path / "Dockerfile").write_text(VOICES, encoding="utf-8")
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    text = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert [d for d in audit(text, "README.md", model, {}, tmp_path) if "fetch_voices" in d.message] == []


QUICKSTART = """\
# Segmenter

Train and serve a segmentation model.

## Quick start

{intro}

```bash
{commands}
```
"""


@pytest.mark.parametrize(
    ("intro", "commands", "expected"),
    [
        # a command block: `certain`
        (
            "Prepare the data:",
            "pip install -r requirements.txt\npython3 prepare_data.py --split val",
            [nowhere(11, "prepare_data.py", "certain")],
        ),
        ("Train:", "uv run python train.py --epochs 3", [nowhere(10, "train.py", "certain")]),
        ("Train:", "$ python -u tools/train.py", [nowhere(10, "tools/train.py", "certain")]),
        # the rest of the block runs in the container
        ("Train:", "docker run -it --gpus all seg bash\npython train.py", []),
        ("Train:", "docker compose exec seg bash\npython train.py", []),
        # the script is an argument of the container's command
        ("Train:", "docker run --rm seg python train.py", []),
        # the block is about the container
        ("Inside the container:", "python train.py", []),
        # another project's checkout
        (
            "Run this from the root of the [trainer](https://github.com/org/trainer) repository:",
            "python train.py",
            [],
        ),
        ("Clone it first:", "git clone https://github.com/org/trainer && cd trainer && python train.py", []),
        (
            "Clone it first:",
            "git clone https://github.com/org/trainer\ncd trainer\npython setup.py install",
            [],
        ),
    ],
)
def test_a_command_block_runs_a_python_script_the_project_holds_nowhere(
    tmp_path: Path, intro: str, commands: str, expected: list[tuple[int, str, str]]
) -> None:
    readme = QUICKSTART.format(intro=intro, commands=commands)
    assert runs(tmp_path, readme, extra={"requirements.txt": "torch\n"}) == expected


def test_after_a_script_that_enters_the_container_commands_run_inside(tmp_path: Path) -> None:
    readme = "# Seg\n\n```\nsh run_container.sh\n```\n\n# Test\n\n```\npython smoke_test.py\n```\n"
    entering = {"run_container.sh": "#!/bin/sh\ndocker run -it --gpus all seg:latest\n"}
    assert runs(tmp_path, readme, extra=entering) == []
    assert runs(tmp_path / "b", readme, extra=entering, git=True) == []
    detached = {"run_container.sh": "#!/bin/sh\ndocker run -d --gpus all seg:latest\n"}
    assert runs(tmp_path / "c", readme, extra=detached) == [nowhere(10, "smoke_test.py", "certain")]


def test_a_whole_command_in_a_sentence_is_likely(tmp_path: Path) -> None:
    readme = "# Seg\n\nTo check the GPU, run `python gpu_check.py` before building.\n"
    assert runs(tmp_path, readme) == [nowhere(3, "gpu_check.py", "likely")]
    readme = "# Seg\n\nInside the container, run `python gpu_check.py`.\n"
    assert runs(tmp_path / "b", readme) == []


def test_a_cd_into_a_folder_the_copy_lacks_shows_it_partial(tmp_path: Path) -> None:
    readme = "# Seg\n\n```bash\ncd services/trainer\nuv run train.py\n```\n"
    assert runs(tmp_path, readme) == []
    readme = "# Seg\n\n```bash\ncd voices\nuv run train.py\n```\n"
    assert runs(tmp_path / "b", readme) == [nowhere(5, "train.py", "certain")]


# --------------------------------------------------------------------------------------------------
# A requirements file a `pip install -r` reads, named a slip off the one the repository holds

PIP = """# Explainer demo

Install the requirements:
```bash
{install}
```
"""


@pytest.mark.parametrize(
    ("install", "files", "meant"),
    [
        ("pip install -r requirements", {"requirements.txt": "gradio\n"}, "requirements.txt"),
        (
            "python3 -m pip install --requirement=requirement.txt",
            {"requirements.txt": "x\n"},
            "requirements.txt",
        ),
        ("uv pip install -r deps/requirments.txt", {"deps/requirements.txt": "x\n"}, "deps/requirements.txt"),
    ],
)
@pytest.mark.parametrize("git", [True, False])
def test_a_requirements_file_named_a_slip_off(
    tmp_path: Path, install: str, files: dict[str, str], meant: str, git: bool
) -> None:
    said = found(tmp_path, {"README.md": PIP.format(install=install), **files}, git=git)
    path = install.split()[-1].split("=")[-1]
    assert said == [
        (
            5,
            f"README installs packages from {path}, which does not exist in the repository: pip stops "
            f"(could not open requirements file) (did you mean {meant}?)",
            "certain",
        )
    ]


@pytest.mark.parametrize(
    ("install", "files"),
    [
        ("pip install -r requirements/dev.txt", {"requirements/dev.txt": "x\n"}),  # there
        ("pip install -r requirements.txt", {"requirements.txt": "x\n"}),
        # made first: the file is the README's own
        ("pip freeze > requirements\npip install -r requirements", {"requirements.txt": "x\n"}),
        # no neighbour a slip away: another layout, not told outside a checkout
        ("pip install -r reqs/gpu.txt", {"requirements.txt": "x\n"}),
        ("pip install -r $REQS", {"requirements.txt": "x\n"}),
        ("pip install -r <requirements file>", {"requirements.txt": "x\n"}),
        # two neighbours a slip away: which one is meant is not known
        ("pip install -r requirements", {"requirements.txt": "x\n", "requirements.in": "x\n"}),
    ],
)
def test_requirements_files_that_are_there_or_unknown(
    tmp_path: Path, install: str, files: dict[str, str]
) -> None:
    said = found(tmp_path, {"README.md": PIP.format(install=install), **files}, git=False)
    assert [s for s in said if "installs packages" in s[1]] == []


# --------------------------------------------------------------------------------------------------
# A requirements file of another flavour than the folder's, and one read in a container that mounts the
# README's folder


@pytest.mark.parametrize(("git", "confidence"), [(True, "certain"), (False, "likely")])
def test_a_requirements_file_of_a_flavour_the_folder_lacks(
    tmp_path: Path, git: bool, confidence: str
) -> None:
    install = "pip install -r requirements.txt\npip install -r requirements-dev.txt"
    said = found(tmp_path, {"README.md": PIP.format(install=install), "requirements.txt": "x\n"}, git=git)
    assert said == [
        (
            6,
            "README installs packages from requirements-dev.txt, which does not exist in the repository: pip "
            "stops (could not open requirements file); its folder holds requirements.txt",
            confidence,
        )
    ]


@pytest.mark.parametrize(
    ("install", "files"),
    [
        # compiled from its `.in` source by pip-compile: a step docgen does not read makes it
        ("pip install -r requirements-dev.txt", {"requirements.txt": "x\n", "requirements-dev.in": "x\n"}),
        # the file is in another folder of the repository
        (
            "pip install -r requirements-gpu.txt",
            {"requirements.txt": "x\n", "ci/requirements-gpu.txt": "x\n"},
        ),
        # made by a step above
        (
            "pip-compile -o requirements-lock.txt requirements.txt\npip install -r requirements-lock.txt",
            {"requirements.txt": "x\n"},
        ),
        # another first word: another layout, not a flavour of the folder's list
        ("pip install -r deps-dev.txt", {"requirements.txt": "x\n"}),
        ("pip install -r requirements/gpu.txt", {"requirements.txt": "x\n"}),
    ],
)
def test_requirements_flavours_that_are_no_finding(
    tmp_path: Path, install: str, files: dict[str, str]
) -> None:
    said = found(tmp_path, {"README.md": PIP.format(install=install), **files})
    assert [s for s in said if "installs packages" in s[1]] == []


MOUNTED = """# Quantized inference

## Build
```bash
docker build -t lab/infer .
```

## Run
```
./run-container.sh
```

## In the container
Once you are inside the container shell, run this the first time:
```bash
python3 -m venv ./venv && source ./venv/bin/activate
{install}
```
"""
RUN_SCRIPT = (
    "#!/usr/bin/env bash\n"
    'docker run --rm -it --gpus all \\\n    -v "$PWD":/workspace \\\n    lab/infer bash\n'
)


def test_a_requirements_file_read_in_a_container_that_mounts_the_readmes_folder(tmp_path: Path) -> None:
    # the start script mounts the checkout at /workspace; the block reads requirements.txt of it too,
    # so it runs there: requirements-dev.txt is not in the folder
    install = "pip install -r requirements.txt\npip install -r requirements-dev.txt"
    files = {
        "README.md": MOUNTED.format(install=install),
        "run-container.sh": RUN_SCRIPT,
        "requirements.txt": "",
    }
    assert found(tmp_path, files, dockerfile="FROM nvcr.io/nvidia/pytorch:24.03-py3\n") == [
        (
            18,
            "README installs packages from requirements-dev.txt, which does not exist in the repository: pip "
            "stops (could not open requirements file); its folder holds requirements.txt (run in the "
            "container, where run-container.sh:3 mounts the README's folder)",
            "certain",
        )
    ]


SHELL_IN = """# Speech service

```shell
docker build -t speech .
docker run -it --rm -v $(pwd):/src -w /src speech bash
```

Inside the container:

```shell
pip install -r requirements.txt
pip install -r {said}
python -m speech.serve
```
"""


@pytest.mark.parametrize(
    ("said", "files", "expected"),
    [
        # the README's own `docker run` mounts the folder: requirements.txt is read there
        ("requirements-gpu.txt", {}, "requirements.txt"),
        ("requirments.txt", {}, None),  # a slip: told with the file meant
        ("requirements-gpu.txt", {"requirements-gpu.txt": ""}, ""),  # there
        ("requirements-gpu.txt", {"docker/requirements-gpu.txt": ""}, ""),  # in another folder
    ],
)
def test_requirements_read_in_a_container_the_readme_runs_with_its_folder(
    tmp_path: Path, said: str, files: dict[str, str], expected: str | None
) -> None:
    tree = {"README.md": SHELL_IN.format(said=said), "requirements.txt": "", **files}
    messages = [m for _, m, _ in found(tmp_path, tree) if "installs packages" in m]
    if expected == "":
        assert messages == []
    elif expected is None:
        assert messages == [
            f"README installs packages from {said}, which does not exist in the repository: pip stops (could "
            "not open requirements file) (did you mean requirements.txt?) (run in the container, where "
            "README line 5 mounts the README's folder)"
        ]
    else:
        assert messages == [
            f"README installs packages from {said}, which does not exist in the repository: pip stops (could "
            f"not open requirements file); its folder holds {expected} (run in the container, where README "
            "line 5 mounts the README's folder)"
        ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # no mount of the README's folder: the container's files are the image's
        (
            MOUNTED.format(install="pip install -r requirements.txt\npip install -r requirements-dev.txt"),
            {"run-container.sh": "docker run --rm -it -v /data:/data lab/infer bash\n"},
        ),
        # the mount is there, but nothing else the block reads is of the folder: where the shell is, unknown
        (
            MOUNTED.format(install="pip install -r requirements-dev.txt"),
            {"run-container.sh": RUN_SCRIPT},
        ),
        # the block moves to the image's own folder first
        (
            MOUNTED.format(
                install="pip install -r requirements.txt\ncd /opt/app\npip install -r requirements-dev.txt"
            ),
            {"run-container.sh": RUN_SCRIPT},
        ),
    ],
)
def test_requirements_in_a_container_that_are_no_finding(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    said = found(tmp_path, {"README.md": readme, "requirements.txt": "", **files})
    assert [s for s in said if "installs packages" in s[1]] == []


# --------------------------------------------------------------------------------------------------
# Settings files a command is given (`--config_path configs/x.yml`) in a folder that holds others

HYENA = """# Striped model

Once the environment is set up, generate text with:
```
python generate.py --config_path ./configs/7b-base.yml \\
--checkpoint_path <path_to_ckpt> --cached_generation \\
--prompt_file <prompt_txt_file>
```
"""
HYENA_FILES = {"generate.py": "", "configs/7b-v0.1.yml": "d: 1\n", "requirements.txt": "torch\n"}


@pytest.mark.parametrize("git", [True, False])
def test_a_settings_file_passed_that_its_folder_does_not_hold(tmp_path: Path, git: bool) -> None:
    assert found(tmp_path, {"README.md": HYENA, **HYENA_FILES}, git=git) == [
        (
            5,
            "README passes configs/7b-base.yml, which does not exist in the repository: its folder holds "
            "configs/7b-v0.1.yml",
            "certain",
        )
    ]


TRAINER = """# Detector

## Train

```bash
bash tools/dist_train.sh configs/yolo/yolo_s_coco.py 8
python tools/train.py --cfg experiments/exp_large.yaml --workers 4
```
"""
TRAINER_FILES = {
    "tools/dist_train.sh": "",
    "tools/train.py": "",
    "configs/yolo/yolo_m_voc.py": "",
    "experiments/exp_small.yaml": "",
}


def test_an_operand_and_an_option_of_settings_files_that_are_not_there(tmp_path: Path) -> None:
    assert found(tmp_path, {"README.md": TRAINER, **TRAINER_FILES}, git=True) == [
        (
            6,
            "README passes configs/yolo/yolo_s_coco.py, which does not exist in the repository: its folder "
            "holds configs/yolo/yolo_m_voc.py",
            "certain",
        ),
        (
            7,
            "README passes experiments/exp_large.yaml, which does not exist in the repository: its folder "
            "holds experiments/exp_small.yaml",
            "certain",
        ),
    ]


def test_outside_a_checkout_a_settings_file_of_another_name_family_is_likely(tmp_path: Path) -> None:
    files = {"README.md": TRAINER.replace("exp_large", "large"), **TRAINER_FILES}
    assert found(tmp_path, files, git=False)[-1] == (
        7,
        "README passes experiments/large.yaml, which does not exist in the repository: its folder holds "
        "experiments/exp_small.yaml",
        "likely",
    )


@pytest.mark.parametrize(
    "command",
    [
        "python generate.py --config_path configs/7b-v0.1.yml",  # there
        "python generate.py --output configs/7b-out.yml",  # an output the run writes
        "python generate.py --config configs/7b.yml > configs/run.yml",  # a redirection writes it
        "python generate.py --save_path configs/best.yaml",  # a saved file
        "python generate.py --data_path data/train.yml",  # the reader's data
        "python generate.py --config checkpoints/run1/hparams.yaml",  # a download's folder
        "python generate.py --config configs/your_config.yml",  # a placeholder
        "python generate.py --config configs/custom.yml",  # the reader's own
        "python generate.py --config settings/app.yml",  # a folder the repository does not have
        "python generate.py --config configs/app.toml",  # no sibling of its suffix
        "python generate.py --labels configs/labels.json",  # a json not said to be settings
        "vim configs/local.yml",  # an editor makes it
        "docker-compose -f configs/gpu.yml up -d",  # a compose file, told by the compose rules
        "cp configs/7b-v0.1.yml configs/mine.yml && python generate.py --config configs/mine.yml",
        "docker run app python generate.py --config configs/7b.yml",  # the container's files
        "make && python generate.py --config configs/built.yml",  # a build may make it
        "python generate.py --config configs/local.yml",  # git ignores it
    ],
)
def test_settings_files_passed_that_are_not_told(tmp_path: Path, command: str) -> None:
    readme = f"# App\n\nRun:\n```bash\n{command}\n```\n"
    files = {"README.md": readme, **HYENA_FILES, ".gitignore": "configs/local.yml\n"}
    assert [f for f in found(tmp_path, files) if "README passes" in f[1]] == []


# a settings file named alone after an option that says so: modelled on a training toolkit run with `-c` and
# a model server given `--config`, each beside settings files of other names
ALONE_FILES = {"train.py": "", "serve.py": "", "train.example.yaml": "a: 1\n", "serve-13b.yml": "a: 1\n"}


@pytest.mark.parametrize("git", [True, False])
def test_a_settings_file_named_alone_that_the_folder_does_not_hold(tmp_path: Path, git: bool) -> None:
    readme = "# App\n\n```bash\npython train.py -c train.yaml\npython serve.py --config serve-7b.yml\n```\n"
    assert found(tmp_path, {"README.md": readme, **ALONE_FILES}, git=git) == [
        (
            4,
            "README passes train.yaml, which does not exist in the repository: its folder holds "
            "train.example.yaml",
            "likely",
        ),
        (
            5,
            "README passes serve-7b.yml, which does not exist in the repository: its folder holds "
            "serve-13b.yml",
            "likely",
        ),
    ]


@pytest.mark.parametrize(
    "command",
    [
        "python train.py -c train.example.yaml",  # there
        "python train.py -c model.yaml",  # no settings file of its words: any of the reader's
        "python train.py train.yaml",  # an operand named alone: not said to be settings
        "python train.py --out train.yaml",  # an output
        "cp train.example.yaml train.yaml && python train.py -c train.yaml",  # made
        "cd ~/runs && python train.py -c train.yaml",  # another folder
        "./fetch.sh && python train.py -c train.yaml",  # a script may make it
        "python -c train.yaml",  # python's own -c: a command
    ],
)
def test_settings_files_named_alone_that_are_not_told(tmp_path: Path, command: str) -> None:
    readme = f"# App\n\n```bash\n{command}\n```\n"
    files = {"README.md": readme, **ALONE_FILES, "fetch.sh": ""}
    assert [f for f in found(tmp_path, files) if "README passes" in f[1]] == []


def test_a_settings_file_the_readme_tells_to_make_is_not_told(tmp_path: Path) -> None:
    readme = (
        "# App\n\nCreate `configs/7b-base.yml` from the released one, then run:\n"
        "```bash\npython generate.py --config_path configs/7b-base.yml\n```\n"
    )
    assert found(tmp_path, {"README.md": readme, **HYENA_FILES}) == []


# --------------------------------------------------------------------------------------------------
# The project of the README's folder installed with pip when the folder has no project files

INSTALL = """# Connect-four agents

## Setup
```bash
cd {where}
python3.11 -m venv venv
source venv/bin/activate
pip install -r requirements.txt
{install}
```

Train with `python train.py`.
"""
PROJECT_FILES = {"requirements.txt": "torch==2.5.1\n", "train.py": "print('train')\n"}
NO_PROJECT = (
    "README installs the project of its folder (.) with pip, which needs a setup.py, setup.cfg or "
    "pyproject.toml there; the repository has none, so pip has nothing to install"
)


@pytest.mark.parametrize(
    "install",
    ["pip install -e .", "pip install --editable '.[dev]'", "python -m pip install .", "uv pip install -e ."],
)
def test_installing_a_folder_with_no_project_files_is_found(tmp_path: Path, install: str) -> None:
    readme = INSTALL.format(where="/home/ubuntu/connect_four", install=install)
    assert found(tmp_path, {"README.md": readme, **PROJECT_FILES}) == [(9, NO_PROJECT, "certain")]


def test_outside_a_checkout_a_whole_copy_is_likely(tmp_path: Path) -> None:
    readme = INSTALL.format(where="~/code/connect_four", install="pip install -e .")
    assert found(tmp_path, {"README.md": readme, **PROJECT_FILES}, git=False) == [(9, NO_PROJECT, "likely")]


@pytest.mark.parametrize("project_file", ["setup.py", "pyproject.toml", "setup.cfg"])
def test_a_folder_with_a_project_file_is_silent(tmp_path: Path, project_file: str) -> None:
    readme = INSTALL.format(where="/home/ubuntu/connect_four", install="pip install -e .")
    assert found(tmp_path, {"README.md": readme, project_file: "", **PROJECT_FILES}) == []


def test_a_project_file_at_the_root_above_a_docs_readme_is_silent(tmp_path: Path) -> None:
    readme = INSTALL.format(where="/home/ubuntu/connect_four", install="pip install -e .")
    make_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'c4'\n"})
    (tmp_path / ".git").mkdir()
    make_tree(tmp_path, {"docs/README.md": readme, "Dockerfile": APP, **PROJECT_FILES})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    text = (tmp_path / "docs/README.md").read_text(encoding="utf-8")
    assert [d.message for d in audit(text, "docs/README.md", model, {}, tmp_path / "docs", tmp_path)] == []


@pytest.mark.parametrize(
    "block",
    [
        # a clone of another project, entered: its own setup.py
        "git clone https://github.com/example/evalplus.git\ncd evalplus\npip install -e .",
        "git clone https://github.com/example/evalplus.git && cd evalplus && pip install -e .",
        # a folder of the project entered first: not the README's folder
        "cd tools/kit\npip install -e .",
        # another folder than the reader's home: unknown
        "cd /opt/kit\npip install -e .",
        # inside the container
        "docker exec -it c4 bash\npip install -e .",
    ],
)
def test_an_install_elsewhere_is_silent(tmp_path: Path, block: str) -> None:
    readme = f"# Agents\n\n## Setup\n```bash\n{block}\n```\n"
    assert found(tmp_path, {"README.md": readme, "tools/kit/x.py": "", **PROJECT_FILES}) == []


def test_an_install_in_a_section_about_the_container_is_silent(tmp_path: Path) -> None:
    readme = (
        "# Agents\n\n## Inside the container\n\nOnce inside the container:\n```bash\npip install -e .\n```\n"
    )
    assert found(tmp_path, {"README.md": readme, **PROJECT_FILES}) == []


def test_outside_a_checkout_a_copy_without_its_requirements_is_silent(tmp_path: Path) -> None:
    # the copy lacks the requirements file the README installs too: the project's files were not copied
    readme = INSTALL.format(where="~/code/connect_four", install="pip install -e .")
    assert found(tmp_path, {"README.md": readme, "train.py": ""}, git=False) == []


# --------------------------------------------------------------------------------------------------
# Manifests and values files kubectl, helm and compose are given

PLUGIN = """# GPU sharing plugin

```shell
git clone https://github.com/acme/gpu-share-plugin.git && cd gpu-share-plugin
docker build -t acme/gpu-share-plugin:v1 .
```

Deploy it:

```shell
{deploy}
```
"""
PLUGIN_FILES = {
    "deploy/k8s/share-plugin.yaml": "kind: DaemonSet\n",
    "deploy/k8s/share-plugin-legacy-v1beta1.yaml": "kind: DaemonSet\n",
    "charts/relay/values.yaml": "replicas: 1\n",
    "charts/relay/values-gpu.yaml": "gpu: true\n",
    "compose/docker-compose.gpu.yml": "services: {}\n",
}


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize(
    ("deploy", "said"),
    [
        (
            "kubectl create -f gpu-share-plugin.yaml",
            "README gives gpu-share-plugin.yaml to kubectl -f, which does not exist in the repository (did "
            "you mean deploy/k8s/share-plugin.yaml?)",
        ),
        (
            "helm install relay ./charts/relay --values charts/relay/relay-values-gpu.yaml",
            "README gives charts/relay/relay-values-gpu.yaml to helm --values, which does not exist in the "
            "repository (did you mean charts/relay/values-gpu.yaml?)",
        ),
        (
            "docker compose -f docker-compose.gpu.yml up -d",
            "README gives docker-compose.gpu.yml to docker compose -f, which is not in the folder the "
            "command runs in (the repository has compose/docker-compose.gpu.yml)",
        ),
    ],
)
def test_a_manifest_given_to_a_command_that_the_repository_renamed(
    tmp_path: Path, deploy: str, said: str, git: bool
) -> None:
    files = {"README.md": PLUGIN.format(deploy=deploy), **PLUGIN_FILES}
    assert [f for f in found(tmp_path / "gpu-share-plugin", files, git=git) if " gives " in f[1]] == [
        (11, said, "likely")
    ]


@pytest.mark.parametrize(
    "deploy",
    [
        # the file as the repository has it; from a folder a `cd` enters
        "kubectl apply -f deploy/k8s/share-plugin.yaml",
        "cd deploy/k8s\nkubectl apply -f share-plugin.yaml",
        "cd deploy\nkubectl apply -f share-plugin.yaml",
        # a URL, stdin, a folder, a variable, the reader's own file, a placeholder
        "kubectl apply -f https://raw.githubusercontent.com/acme/gpu-share-plugin/main/gpu-share-plugin.yaml",
        "cat gpu-share-plugin.yaml | kubectl apply -f -",
        "kubectl apply -f deploy/",
        "kubectl apply -f $MANIFEST",
        "helm install relay ./charts/relay -f my-values-gpu.yaml",
        "kubectl apply -f <your-share-plugin>.yaml",
        # a file a line above makes; a subcommand that reads no file
        "helm template relay ./charts/relay > gpu-share-plugin.yaml\nkubectl apply -f gpu-share-plugin.yaml",
        "kubectl delete pod -l app=gpu-share-plugin",
        # no file of the repository is a slip from it
        "kubectl apply -f ingress-nginx.yaml",
    ],
)
def test_manifests_given_that_are_there_or_the_reader_s(tmp_path: Path, deploy: str) -> None:
    files = {"README.md": PLUGIN.format(deploy=deploy), **PLUGIN_FILES}
    assert [f for f in found(tmp_path / "gpu-share-plugin", files) if " gives " in f[1]] == []


CAPTIONED_STEPS = """\
# Segmenter

## Examples

{intro}

**Evaluate:**
```bash
python evaluate.py --split val
```

**Demo:**
```bash
python demo.py
```
"""


def test_an_introduction_about_the_container_holds_over_the_captioned_blocks_after_it(tmp_path: Path) -> None:
    readme = CAPTIONED_STEPS.format(intro="Inside the container:")
    assert runs(tmp_path, readme) == []
    # on the host (no introduction, or one naming the host), both scripts are the checkout's and missing
    expected = [nowhere(9, "evaluate.py", "certain"), nowhere(14, "demo.py", "certain")]
    assert runs(tmp_path / "b", CAPTIONED_STEPS.format(intro="Run the examples:")) == expected
    back = CAPTIONED_STEPS.format(intro="Inside the container:\n\nBack on the host:")
    assert runs(tmp_path / "c", back) == [
        nowhere(11, "evaluate.py", "certain"),
        nowhere(16, "demo.py", "certain"),
    ]


# --------------------------------------------------------------------------------------------------
# A `mkdir` without `-p` into a folder the repository lacks: mkdir makes no parent folder

LIDAR = """# Lidar-Bench

```bash
git clone https://github.com/tolva/Lidar-Bench.git
cd Lidar-Bench
docker build -t lidar-bench .
```

## Get the data

```bash
mkdir data/kitti
wget https://example.org/kitti/seq00.zip -O data/kitti/seq00.zip
```
"""
"""Modelled on a SLAM benchmark README that makes a dataset folder below one the repository lacks."""
WEBAPP = """# Ledger app

Prepare the volumes, then start the stack:

```
mkdir volumes volumes/db
mkdir runtime/cache
docker compose up -d
```
"""
"""Modelled on a compose web app: the first line makes its parent first, the second does not."""
MKDIR = (
    "README runs mkdir {0} without -p, but the repository holds no folder {1} where the commands run: "
    "mkdir makes no parent folder, so it fails (No such file or directory)"
)


def test_a_mkdir_below_a_folder_the_checkout_lacks(tmp_path: Path) -> None:
    assert found(tmp_path / "a", {"README.md": LIDAR}) == [
        (12, MKDIR.format("data/kitti", "data/"), "certain")
    ]
    assert found(tmp_path / "b", {"README.md": WEBAPP, "docker-compose.yml": "services: {}\n"}) == [
        (7, MKDIR.format("runtime/cache", "runtime/"), "certain")
    ]


def test_a_mkdir_below_a_missing_folder_outside_a_checkout_is_likely(tmp_path: Path) -> None:
    # a copy of some of the repository's files may lack the folder
    assert found(tmp_path, {"README.md": LIDAR}, git=False) == [
        (12, MKDIR.format("data/kitti", "data/"), "likely")
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("mkdir data/kitti", "mkdir -p data/kitti"),  # -p makes the parents
        ("mkdir data/kitti", "mkdir --parents data/kitti"),
        ("mkdir data/kitti", "mkdir data data/kitti"),  # its parent first
        ("mkdir data/kitti", "mkdir data && mkdir data/kitti"),
        ("## Get the data\n", "## Get the data\n\nDownload the archives into `data/` first.\n"),  # made
        ("mkdir data/kitti", "./fetch_data.sh\nmkdir data/kitti"),  # a script may make it
        ("mkdir data/kitti", "docker run -d -v $PWD/data:/data lidar-bench\nmkdir data/kitti"),  # a mount
        ("mkdir data/kitti", "mkdir ~/data/kitti"),  # the reader's home
        ("mkdir data/kitti", "mkdir $DATA/kitti"),  # a variable
        ("## Get the data\n", "## Get the data\n\n```\nlabel -in data/raw.csv\n```\n"),  # used above
        ("cd Lidar-Bench\n", "cd ~/catkin_ws\n"),  # a folder not known
        ("```bash\nmkdir data/kitti", "```powershell\nmkdir data/kitti"),  # PowerShell makes parents
        ("```bash\nmkdir data/kitti", "Inside the container:\n\n```bash\nmkdir data/kitti"),
        ("```bash\nmkdir data/kitti", "```bash\ndocker exec -it bench bash\nmkdir data/kitti"),
    ],
)
def test_mkdirs_that_may_work(tmp_path: Path, old: str, new: str) -> None:
    readme = LIDAR.replace(old, new)
    assert [f for f in found(tmp_path, {"README.md": readme, "fetch_data.sh": ""}) if "mkdir" in f[1]] == []


def test_a_mkdir_into_a_folder_the_checkout_holds(tmp_path: Path) -> None:
    files = {"README.md": LIDAR, "data/README.md": "put the sequences here\n"}
    assert [f for f in found(tmp_path, files) if "mkdir" in f[1]] == []


# --------------------------------------------------------------------------------------------------
# A Python script run in the container that neither the image nor the checkout holds

STRESS = "FROM nvcr.io/nvidia/pytorch:24.08-py3\nWORKDIR /work\nCOPY load_gpu.py .\nCMD python load_gpu.py\n"
"""A GPU load test (the shape of a cluster operator's): one script copied into its working folder."""
STRESS_README = """\
## Watch the GPUs from inside a pod

```bash
nvidia-smi -l 1
```

```bash
python stress.py --device cuda
```
"""
SOLVER = (
    "FROM ubuntu:24.04\nRUN apt-get update && apt-get install -y python3 python3-numpy\n"
    "WORKDIR /opt/solver\nCOPY solver/ /opt/solver/\n"
)
"""A course's solver image (the shape of a numerics lab's): a package folder copied in."""
SOLVER_README = """\
# Solver

```
docker build -t solver .
docker run -it solver bash
```

Inside the container, run the benchmark:

```
python3 bench.py --size 4096
```
"""


def test_a_script_run_in_the_container_that_no_file_of_the_repository_is(tmp_path: Path) -> None:
    files = {"README.md": STRESS_README, "load_gpu.py": "import torch\n"}
    assert found(tmp_path / "a", files, STRESS) == [
        (
            8,
            "README runs stress.py in the container, but the image cannot hold it: no Dockerfile line names "
            "it, and no file of the repository, whose files are all the image's build can copy, has that "
            "name, so python cannot open it",
            "likely",
        )
    ]
    files = {"README.md": SOLVER_README, "solver/__init__.py": "", "solver/core.py": ""}
    assert [(line, conf) for line, _, conf in found(tmp_path / "b", files, SOLVER)] == [(11, "likely")]


@pytest.mark.parametrize(
    "changes",
    [
        # a copy of some of the project's files: any may be left out
        {".git": ""},
        # the repository holds it, in any folder
        {"solver/bench.py": ""},
        # the Dockerfile names it (made or fetched in the image)
        {"Dockerfile": SOLVER + "RUN curl -fsSLO https://example.org/bench.py\n"},
        # the image clones another project, whose scripts it may be
        {"Dockerfile": SOLVER + "RUN git clone https://example.org/lab/bench.git /opt/bench\n"},
        # the README mounts a folder: the reader's own files
        {"README.md": SOLVER_README.replace("run -it solver", "run -it -v $PWD:/opt/solver solver")},
        # the README makes it first in the container
        {
            "README.md": SOLVER_README.replace(
                "```\npython3", "```\nwget https://example.org/bench.py\npython3"
            )
        },
        # the working folder is the base image's
        {"Dockerfile": SOLVER.replace("WORKDIR /opt/solver\n", "")},
        # a placeholder
        {"README.md": SOLVER_README.replace("bench.py", "<script>.py")},
    ],
)
def test_a_script_the_container_may_hold(tmp_path: Path, changes: dict[str, str]) -> None:
    files = {"README.md": SOLVER_README, "solver/__init__.py": "", "Dockerfile": SOLVER, **changes}
    git = ".git" not in files
    dockerfile = files.pop("Dockerfile")
    files = {k: v for k, v in files.items() if k != ".git"}
    assert [f for f in found(tmp_path, files, dockerfile, git) if "in the container" in f[1]] == []


# --------------------------------------------------------------------------------------------------
# A file a step reads named a slip off one of the repository (a training project run with python; a
# Kubernetes launcher applied with kubectl)

SLIPPED_FILES = {
    "environment.yml": "name: trainer\n",
    "train.py": "print('train')\n",
    "scripts/build_wheels.sh": "#!/bin/sh\n",
    "requirements.txt": "torch\n",
    "deploy/launcher.yaml": "kind: Job\n",
    "deploy/workers.yaml": "kind: StatefulSet\n",
    "tools/export.py": "print('export')\n",
    "tools/export2.py": "print('export2')\n",
}


@pytest.mark.parametrize(
    ("step", "said"),
    [
        (
            "python trian.py --epochs 3",
            "README runs trian.py, which does not exist in the repository (did you mean train.py?)",
        ),
        (
            "python tools/exprot.py --onnx",
            "README runs tools/exprot.py, which does not exist in the repository (did you mean "
            "tools/export.py?)",
        ),
        (
            "cat requirments.txt",
            "README prints requirments.txt, which does not exist in the repository (did you mean "
            "requirements.txt?)",
        ),
        (
            "kubectl apply -f deploy/launcher.yml",
            "README gives deploy/launcher.yml to kubectl -f, which does not exist in the repository (did you "
            "mean deploy/launcher.yaml?)",
        ),
        (
            "conda env create -f enviroment.yml",
            "README gives enviroment.yml to conda -f, which does not exist in the repository (did you mean "
            "environment.yml?)",
        ),
        (
            "kubectl create -f deploy/wokers.yaml",
            "README gives deploy/wokers.yaml to kubectl -f, which does not exist in the repository (did you "
            "mean deploy/workers.yaml?)",
        ),
    ],
)
def test_a_file_a_step_reads_a_slip_off_one_of_the_repository_is_named(
    tmp_path: Path, step: str, said: str
) -> None:
    readme = f"# Trainer\n\nRun it:\n\n```bash\n{step}\n```\n"
    assert found(tmp_path, {"README.md": readme, **SLIPPED_FILES}) == [(6, said, "certain")]


@pytest.mark.parametrize(
    "step",
    [
        "python tools/export2.py",  # a sibling of a near name that is there itself
        "python tools/export3.py",  # another version of a name two files share
        "wget https://example.com/trian.py && python trian.py",  # a step above makes it
        "python <your-script>.py",  # a placeholder
        "conda env create -f environment.yml",  # the file as it is
        "conda env create -f my-environment.yml",  # the reader's own
        "cp deploy/launcher.yaml deploy/launcher.yml && kubectl apply -f deploy/launcher.yml",
    ],
)
def test_files_near_a_name_that_a_step_makes_or_that_are_there(tmp_path: Path, step: str) -> None:
    readme = f"# Trainer\n\nRun it:\n\n```bash\n{step}\n```\n"
    assert [
        f for f in found(tmp_path, {"README.md": readme, **SLIPPED_FILES}) if "did you mean" in f[1]
    ] == []


def test_a_slip_outside_a_checkout_stays_as_sure_as_before(tmp_path: Path) -> None:
    # a copy holding some files only: a manifest's slip is `likely`, a script run outside one unread
    readme = "# Trainer\n\n```bash\nkubectl apply -f deploy/launcher.yml\n```\n"
    assert found(tmp_path, {"README.md": readme, **SLIPPED_FILES}, git=False) == [
        (
            4,
            "README gives deploy/launcher.yml to kubectl -f, which does not exist in the repository (did you "
            "mean deploy/launcher.yaml?)",
            "likely",
        )
    ]


# --------------------------------------------------------------------------------------------------
# Manifests given by a path with a folder that a git checkout holds nowhere (`_nowhere_applied`): the
# deployment steps of a model-serving README (the shape of a TorchServe-on-Kubernetes guide) and of a
# GPU operator's install guide (helm values, a conda environment)

SERVING = """# Sentiment model serving

## Kubernetes

Create the storage class and the volume claim by running the following commands inside the
[manifests](./manifests/) directory:

```bash
kubectl apply -f ./manifests/storage-class.yaml
kubectl apply -f ./manifests/volume-claim.yaml
```

Deploy the model:

```bash
kubectl apply -f ./k8/serving.yaml
```
"""
SERVING_FILES = {
    "manifests/volume-claim.yaml": "kind: PersistentVolumeClaim\n",
    "manifests/debug-pod.yaml": "kind: Pod\n",
    "serve/handler.py": "",
}


def test_a_manifest_with_a_folder_the_checkout_holds_nowhere(tmp_path: Path) -> None:
    got = [f for f in found(tmp_path, {"README.md": SERVING, **SERVING_FILES}) if " gives " in f[1]]
    assert got == [
        (
            9,
            "README gives manifests/storage-class.yaml to kubectl -f, which the git checkout holds nowhere "
            "(manifests/ holds no storage-class.yaml, and no folder holds a file of its name): kubectl "
            "stops, the file does not exist",
            "likely",
        ),
        (
            16,
            "README gives k8/serving.yaml to kubectl -f, which the git checkout holds nowhere (there is no "
            "folder k8/, and no folder holds a file of its name): kubectl stops, the file does not exist",
            "likely",
        ),
    ]


OPERATOR = """# GPU operator

```shell
helm install gpu-operator ./chart -f deploy/values-a100.yaml
conda env create -f envs/tools.yml
```
"""


def test_values_and_environment_files_the_checkout_holds_nowhere(tmp_path: Path) -> None:
    files = {
        "README.md": OPERATOR,
        "chart/Chart.yaml": "name: gpu-operator\n",
        "deploy/values.yaml": "a: 1\n",
    }
    got = [(line, f.split(",")[0], conf) for line, f, conf in found(tmp_path, files) if " gives " in f]
    assert got == [
        (4, "README gives deploy/values-a100.yaml to helm -f", "likely"),
        (5, "README gives envs/tools.yml to conda -f", "likely"),
    ]


@pytest.mark.parametrize(
    "deploy",
    [
        # a bare name: a manifest the reader downloads or writes as easily as one of the checkout
        "kubectl apply -f storage-class.yaml",
        # the file a step above writes, or a line says to save
        "mkdir -p out && helm template relay ./chart > out/relay.yaml\nkubectl apply -f out/relay.yaml",
        "kubectl apply -f manifests/volume-claim.yaml",
        # the folder a `cd` enters holds it
        "cd manifests && kubectl apply -f ./volume-claim.yaml",
        # a compose file: compose_builds reads those
        "docker compose -f deploy/compose.gpu.yml up -d",
        # a placeholder, a variable
        "kubectl apply -f path/to/storage-class.yaml",
        "kubectl apply -f $MANIFESTS/storage-class.yaml",
        # after a build step, any file may be there
        "make manifests\nkubectl apply -f generated/storage-class.yaml",
    ],
)
def test_manifests_with_a_folder_that_are_there_or_made(tmp_path: Path, deploy: str) -> None:
    readme = f"# Serving\n\n```bash\n{deploy}\n```\n"
    files = {"README.md": readme, **SERVING_FILES, "Makefile": "manifests:\n\ttrue\n"}
    assert [f for f in found(tmp_path, files) if " gives " in f[1]] == []


def test_a_manifest_a_line_says_to_save(tmp_path: Path) -> None:
    readme = (
        "# Serving\n\nSave the following as `k8s/pvc.yaml`:\n\n```yaml\nkind: PersistentVolumeClaim\n```\n\n"
        "```bash\nkubectl apply -f k8s/pvc.yaml\n```\n"
    )
    assert [f for f in found(tmp_path, {"README.md": readme, **SERVING_FILES}) if " gives " in f[1]] == []


def test_outside_a_checkout_a_manifest_nowhere_is_silent(tmp_path: Path) -> None:
    # a copy of the README need not hold the project's manifests
    files = {"README.md": SERVING, **SERVING_FILES}
    assert [f for f in found(tmp_path, files, git=False) if " gives " in f[1]] == []


def test_a_manifest_a_script_run_before_may_write(tmp_path: Path) -> None:
    readme = "# Serving\n\n```bash\n./render.sh\nkubectl apply -f k8s/serving.yaml\n```\n"
    files = {
        "README.md": readme,
        **SERVING_FILES,
        "render.sh": "#!/bin/sh\nhelm template x > k8s/serving.yaml\n",
    }
    assert [f for f in found(tmp_path, files) if " gives " in f[1]] == []
    # a script that names it not: the file is still missing
    files["render.sh"] = "#!/bin/sh\necho rendering\n"
    assert [f[0] for f in found(tmp_path / "b", files) if " gives " in f[1]] == [5]
