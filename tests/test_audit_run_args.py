"""`docgen.audit.run_args`: a `docker run` of the README's own image whose words after the image start
with an option while the image has no ENTRYPOINT is a finding (`certain` on a plain OS or CUDA base,
`likely` on another base); an ENTRYPOINT (exec or shell form, in the built stage or one it is built
on), `--entrypoint`, a program after the image, or an image the README does not build is not. A
program after the image whose ENTRYPOINT is a bare shell (`["/bin/bash"]`) is a finding (`certain` for
an image the README builds, `likely` for one its title names); a command (`-c`), a script, a path, or an
ENTRYPOINT that runs a command or a script is not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.model import ImageModel
from docgen.pipeline import build_model, model_of

PLAIN = 'FROM ubuntu:22.04\nCOPY draw.sh /draw.sh\nCMD ["/draw.sh"]\n'


def found(readme: str, dockerfile: str = PLAIN) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    diagnostics = audit(readme, "README.md", model)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in diagnostics if "replace CMD" in d.message]


README = """\
# Sketch

```bash
docker build -t acme/sketch .
docker run --rm \\
    -v "$PWD/in:/in" \\
    acme/sketch:latest --frames 12 --scale 2
```
"""


def test_an_option_after_the_image_replaces_cmd() -> None:
    assert found(README) == [
        "7: README runs acme/sketch:latest --frames …, but Dockerfile has no ENTRYPOINT: words after the "
        "image replace CMD, so docker executes --frames as the container's program and it fails (put the "
        "program first, or use --entrypoint) (certain)"
    ]


@pytest.mark.parametrize(
    ("words", "first"),
    [
        ("mode=train train.max_steps=10", "mode=train"),  # a trainer's settings
        ("+trainer.devices=2 data=imagenet", "+trainer.devices=2"),  # Hydra's added key
    ],
)
def test_a_setting_after_the_image_replaces_cmd(words: str, first: str) -> None:
    readme = (
        f"```bash\ndocker build -t acme/sketch .\ndocker run --gpus all acme/sketch:latest {words}\n```\n"
    )
    assert found(readme) == [
        f"3: README runs acme/sketch:latest {first} …, but Dockerfile has no ENTRYPOINT: words after the "
        f"image replace CMD, so docker executes {first} as the container's program and it fails (put the "
        "program first, or use --entrypoint) (certain)"
    ]
    # a program first takes them as its arguments; an ENTRYPOINT does too
    program = readme.replace(f"latest {words}", f"latest train-llm {words}")
    assert found(program) == []
    assert found(readme, 'FROM ubuntu:22.04\nENTRYPOINT ["train-llm"]\n') == []


@pytest.mark.parametrize("words", ["<args...>", "<server-args>", "<OPTIONS>"])
def test_a_placeholder_for_the_programs_arguments_replaces_cmd(words: str) -> None:
    # an image with no ENTRYPOINT, run with a placeholder for options (a server's `<args...>`): what the
    # reader puts there replaces CMD
    readme = f"```bash\ndocker build -t vllm .\ndocker run --gpus all -p 8000:8000 vllm {words}\n```\n"
    assert found(readme, "FROM nvidia/cuda:11.8.0-base-ubuntu22.04\nRUN pip install vllm\n") == [
        f"3: README runs vllm {words}, but Dockerfile has no ENTRYPOINT: the arguments {words} stands for "
        "replace CMD, so docker executes the first of them as the container's program (put the program "
        "first, or set an ENTRYPOINT) (likely)"
    ]
    # a placeholder for a command, or an image with an ENTRYPOINT, is what the reader means
    assert found(readme.replace(words, "<command>"), PLAIN) == []
    entry = 'FROM python:3.12\nENTRYPOINT ["vllm", "serve"]\n'
    assert found(readme, entry) == []


def test_an_unknown_base_may_set_an_entrypoint() -> None:
    dockerfile = 'FROM acme/toolbox:3\nCMD ["/draw.sh"]\n'
    assert found(README, dockerfile) == [
        "7: README runs acme/sketch:latest --frames …, but Dockerfile sets no ENTRYPOINT (unless "
        "acme/toolbox:3 does): words after the image replace CMD, so docker executes --frames as the "
        "container's program and it fails (put the program first, or use --entrypoint) (likely)"
    ]


def test_an_entrypoint_cleared_in_the_built_stage() -> None:
    dockerfile = 'FROM ubuntu:22.04 AS base\nENTRYPOINT ["/draw.sh"]\nFROM base\nENTRYPOINT []\nCMD ["x"]\n'
    assert len(found(README, dockerfile)) == 1


@pytest.mark.parametrize(
    "dockerfile",
    [
        'FROM ubuntu:22.04\nENTRYPOINT ["/draw.sh"]\n',  # exec form
        "FROM ubuntu:22.04\nENTRYPOINT /draw.sh\n",  # shell form
        'FROM ubuntu:22.04 AS base\nENTRYPOINT ["/draw.sh"]\nFROM base\nCMD ["--help"]\n',  # inherited
    ],
)
def test_an_entrypoint_takes_the_options(dockerfile: str) -> None:
    assert found(README, dockerfile) == []


@pytest.mark.parametrize(
    "command",
    [
        "docker run --entrypoint /draw.sh acme/sketch:latest --frames 12",  # entrypoint given
        "docker run acme/sketch:latest /draw.sh --frames 12",  # a program first
        "docker run acme/other:latest --frames 12",  # not the image the README builds
        "docker run acme/sketch:latest",  # nothing after the image
        "docker run acme/sketch -e MODE=fast",  # a misplaced docker option (reported by grammar)
    ],
)
def test_shapes_that_stay_silent(command: str) -> None:
    readme = f"```bash\ndocker build -t acme/sketch .\n{command}\n```\n"
    assert found(readme) == []


def test_an_image_the_readme_does_not_build_is_not_judged() -> None:
    assert found("```bash\ndocker run acme/sketch:latest --frames 12\n```\n") == []


def dropped(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(PLAIN, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "library/" in d.message
    ]


def test_a_run_image_that_lost_its_namespace() -> None:
    readme = """\
# Sketch

```
$ docker pull acme/sketch-lab:2
$ docker run --rm -p 9000:9000 sketch-lab:2
```
"""
    assert dropped(readme) == [
        "5: README runs image sketch-lab:2, which nothing it builds, tags or pulls is named so: docker "
        "looks for docker.io/library/sketch-lab (did you mean acme/sketch-lab?) (likely)"
    ]


@pytest.mark.parametrize(
    "commands",
    [
        "docker pull acme/sketch-lab:2\ndocker build -t sketch-lab:2 .\ndocker run sketch-lab:2",  # built
        "docker pull acme/sketch-lab:2\ndocker tag acme/sketch-lab:2 sketch-lab:2\ndocker run sketch-lab:2",
        "docker load -i sketch.tar\ndocker pull acme/sketch-lab:2\ndocker run sketch-lab:2",  # loaded
        "docker pull acme/ubuntu:2\ndocker run ubuntu:22.04 bash",  # an official image
        "docker pull acme/sketch-lab:2\ndocker run acme/sketch-lab:2",  # the same name
        "docker run sketch-lab:2",  # nothing under a namespace
        "dokcer build -t sketch-lab:2 .\ndocker pull acme/sketch-lab:2\ndocker run sketch-lab:2",  # tagged
        "docker build -t acme/sketch-lab:2 .\ndocker run sketch-lab:2",  # built: `names` tells it
    ],
)
def test_run_images_that_stay_silent(commands: str) -> None:
    assert dropped(f"```bash\n{commands}\n```\n") == []


def test_a_run_one_slip_from_the_image_its_block_pulls() -> None:
    # a segmentation lab: each method's block pulls its image, then runs it by a slipped local name
    readme = """\
# Cortex segmentation

```
docker pull ghcr.io/neurolab/cortex-segnet:{version}
docker run --rm --gpus all -v $(pwd):/data cortex-segnt:{version} /data/T1.nii.gz
```
"""
    assert dropped(readme) == [
        "5: README runs image cortex-segnt:{version}, which nothing it builds, tags or pulls is named so: "
        "docker looks for docker.io/library/cortex-segnt (line 4 pulls ghcr.io/neurolab/cortex-segnet) "
        "(likely)"
    ]


def test_a_run_of_the_name_a_split_build_tag_meant() -> None:
    # a task image built under a registry namespace with a space after the `/`, then run by its name
    readme = """\
```
docker build -t registry.example.org/tools/ seg-kidney:latest task-kidney/
```

```
docker run --gpus all seg-kidney:latest
```
"""
    assert dropped(readme) == [
        "6: README runs image seg-kidney:latest, which nothing it builds, tags or pulls is named so: docker "
        "looks for docker.io/library/seg-kidney (did you mean registry.example.org/tools/seg-kidney?) "
        "(likely)"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # the pull is in another block: the run may be of another way to get it
        "```\ndocker pull ghcr.io/neurolab/cortex-segnet:1\n```\n\n```\ndocker run cortex-segnt:1\n```\n",
        # two slips, a plural, a short part: another name
        "```\ndocker pull ghcr.io/neurolab/cortex-segnet:1\ndocker run cortex-sgnt:1\n```\n",
        "```\ndocker pull ghcr.io/neurolab/cortex-segnet:1\ndocker run cortex-segnets:1\n```\n",
        "```\ndocker pull ghcr.io/neurolab/seg-net:1\ndocker run seg-nt:1\n```\n",
        # the run is before the pull
        "```\ndocker run cortex-segnt:1\ndocker pull ghcr.io/neurolab/cortex-segnet:1\n```\n",
        # the slipped name is built
        "```\ndocker pull ghcr.io/neurolab/cortex-segnet:1\ndocker build -t cortex-segnt:1 .\n"
        "docker run cortex-segnt:1\n```\n",
        # a split tag whose name a build of its own tags whole
        "```\ndocker build -t registry.example.org/tools/ seg-kidney:latest task-kidney/\n"
        "docker build -t seg-kidney:latest task-kidney/\ndocker run seg-kidney:latest\n```\n",
    ],
)
def test_runs_near_a_pull_or_a_split_tag_that_stay_silent(readme: str) -> None:
    assert dropped(readme) == []


def test_a_compose_image_names_it() -> None:
    readme = (
        "```yaml\nservices:\n  lab:\n    image: sketch-lab:2\n```\n\n"
        "```bash\ndocker pull acme/sketch-lab:2\ndocker run sketch-lab:2\n```\n"
    )
    assert dropped(readme) == []


SHELLED = (
    "FROM nvidia/cuda:12.2.0-base-ubuntu22.04\n"
    "RUN apt-get update && apt-get install -y ffmpeg\n"
    'ENTRYPOINT ["/bin/bash"]\n'
)


def shelled(readme: str, dockerfile: str = SHELLED, directory: Path | None = None) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    diagnostics = audit(readme, "README.md", model, directory=directory)
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in diagnostics
        if "a shell given no command" in d.message
    ]


CLIP = """\
# Clip

```bash
docker build -t acme/clip .
docker run --gpus all -v "$PWD:/media" \\
    acme/clip:2 ffmpeg -i /media/in.mkv -c:v h264_nvenc /media/out.mp4
```
"""


def test_a_program_after_an_image_whose_entrypoint_is_a_bare_shell() -> None:
    assert shelled(CLIP) == [
        '6: README runs acme/clip:2 ffmpeg …, but Dockerfile:3 sets ENTRYPOINT ["/bin/bash"], a shell '
        "given no command: docker starts /bin/bash ffmpeg …, which reads ffmpeg as a script file, and "
        'ffmpeg is a program (pass -c "ffmpeg …", or use --entrypoint ffmpeg) (certain)'
    ]


def test_an_image_named_by_the_title_is_likely() -> None:
    readme = (
        "# Clip-Transcoder\n\n```\ndocker pull acme/clip-transcoder\n"
        "docker run acme/clip-transcoder nvidia-smi\n```\n"
    )
    assert shelled(readme) == [
        '5: README runs acme/clip-transcoder nvidia-smi …, but Dockerfile:3 sets ENTRYPOINT ["/bin/bash"], '
        "a shell given no command: docker starts /bin/bash nvidia-smi …, which reads nvidia-smi as a "
        'script file, and nvidia-smi is a program (pass -c "nvidia-smi …", or use --entrypoint '
        "nvidia-smi) (likely)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        'docker run acme/clip:2 -c "ffmpeg -i in.mkv out.mp4"',  # the shell given a command
        "docker run acme/clip:2 transcode.sh in.mkv",  # a script
        "docker run acme/clip:2 ./transcode in.mkv",  # a path: may be a script
        "docker run acme/clip:2 $TOOL in.mkv",  # a variable
        "docker run --entrypoint ffmpeg acme/clip:2 -i in.mkv out.mp4",  # entrypoint given
        "docker run acme/other:2 ffmpeg -i in.mkv",  # not the image the README builds
        "docker run nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi",  # the base image
        "docker run acme/clip:2",  # nothing after the image
    ],
)
def test_shell_entrypoint_shapes_that_stay_silent(command: str) -> None:
    assert shelled(f"```bash\ndocker build -t acme/clip .\n{command}\n```\n") == []


@pytest.mark.parametrize(
    "entrypoint",
    [
        'ENTRYPOINT ["/bin/bash", "-c"]',  # runs a command
        'ENTRYPOINT ["/bin/bash", "-lc"]',  # runs a command, options joined
        'ENTRYPOINT ["bash", "/opt/start.sh"]',  # runs a script
        'ENTRYPOINT ["/bin/bash", "-o", "pipefail"]',  # an option's value: not read
        "ENTRYPOINT /bin/bash",  # shell form
        'ENTRYPOINT ["/usr/bin/tini", "--"]',  # not a shell
        'ENTRYPOINT ["/bin/bash"]\nCOPY ffmpeg /usr/local/bin/',  # the image copies a file of that name
    ],
)
def test_entrypoints_that_take_the_program(entrypoint: str) -> None:
    dockerfile = f"FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y ffmpeg\n{entrypoint}\n"
    assert shelled(CLIP, dockerfile) == []


def test_a_login_shell_is_a_bare_shell() -> None:
    dockerfile = 'FROM ubuntu:22.04\nENTRYPOINT ["/bin/bash", "--login"]\n'
    assert len(shelled(CLIP, dockerfile)) == 1


def test_a_path_of_the_dockerfile_ending_in_the_name(tmp_path: Path) -> None:
    text = 'FROM ubuntu:22.04\nRUN ln -s /opt/tools/wrap.sh /usr/local/bin/ffmpeg\nENTRYPOINT ["/bin/bash"]\n'
    (tmp_path / "Dockerfile").write_text(text)
    model = replace(model_of(parse_dockerfile(text, "Dockerfile")), file=str(tmp_path / "Dockerfile"))
    assert [d for d in audit(CLIP, "README.md", model) if "a shell given no command" in d.message] == []


def test_a_script_of_that_name_beside_the_readme(tmp_path: Path) -> None:
    (tmp_path / "ffmpeg").write_text('#!/bin/bash\nexec /usr/bin/ffmpeg -hide_banner "$@"\n')
    assert shelled(CLIP, directory=tmp_path) == []


@pytest.mark.parametrize(
    "readme",
    [
        "# Clip Tools\n\n```\ndocker run acme/clip-transcoder nvidia-smi\n```\n",  # another name
        "Clip-Transcoder\n\n```\ndocker run acme/clip-transcoder nvidia-smi\n```\n",  # no heading
        "# Clip-Transcoder\n\n```\ndocker build -t acme/clip .\ndocker run acme/clip-transcoder ls\n```\n",
    ],
)
def test_images_the_title_does_not_name(readme: str) -> None:
    assert shelled(readme) == []


WAITING = 'FROM jrottenberg/ffmpeg:5.1-nvidia\nWORKDIR /srv\nCOPY worker/ .\nENTRYPOINT ["/bin/bash", "-c"]\n'


def emptied(readme: str, dockerfile: str = WAITING) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "with no command" in d.message
    ]


QUEUE = """\
# Clip worker

## Build

```bash
docker build -t clip-worker .
```

## Run

```bash
docker run --gpus all clip-worker
```
"""
"""Modelled on a transcoding worker's README: build, then a run with no command."""

NOTEBOOK = """\
# Lab image

```sh
docker build -t acme/lab:0.3 .
docker run --rm -it -p 8888:8888 \\
    acme/lab:0.3
```
"""
"""Modelled on a notebook image's README: a tagged build and a run split over two lines."""


def test_a_run_with_no_command_of_a_shell_waiting_for_one() -> None:
    assert emptied(QUEUE) == [
        '12: README runs clip-worker with no command, but Dockerfile:4 sets ENTRYPOINT ["/bin/bash", '
        '"-c"] and the image has no CMD: /bin/bash -c gets no command string and exits at once (pass '
        "the command after the image, or add a CMD) (certain)"
    ]


def test_a_login_shell_bundle_and_a_split_run() -> None:
    dockerfile = 'FROM ubuntu:22.04\nENTRYPOINT ["sh", "-l", "-ec"]\n'
    assert len(emptied(NOTEBOOK, dockerfile)) == 1


@pytest.mark.parametrize(
    "dockerfile",
    [
        WAITING + 'CMD ["python3 worker.py"]\n',  # a CMD gives the command
        WAITING.replace("WORKDIR", 'CMD ["python3 worker.py"]\nWORKDIR'),  # a CMD before it too
        'FROM ubuntu:22.04 AS base\nCMD ["python3 worker.py"]\nFROM base\nENTRYPOINT ["bash", "-c"]\n',
        WAITING.replace('"-c"]', '"-c", "python3 worker.py"]'),  # the command is in the entrypoint
        WAITING.replace('["/bin/bash", "-c"]', '["python3", "-c"]'),  # not a shell
        WAITING.replace('["/bin/bash", "-c"]', '["/bin/bash"]'),  # no -c
        WAITING.replace('["/bin/bash", "-c"]', "/bin/bash -c"),  # shell form
        WAITING.replace('["/bin/bash", "-c"]', '["bash", "-o", "pipefail", "-c"]'),  # an option's value
    ],
)
def test_images_that_start_something(dockerfile: str) -> None:
    assert emptied(QUEUE, dockerfile) == []


@pytest.mark.parametrize(
    "command",
    [
        'docker run --gpus all clip-worker "python3 worker.py"',  # the run passes the command
        "docker run --gpus all clip-worker python3 worker.py",
        "docker run --entrypoint python3 clip-worker worker.py",  # entrypoint replaced
        "docker run --gpus all acme/other-worker",  # not the image the README builds
    ],
)
def test_runs_that_give_a_command(command: str) -> None:
    assert emptied(QUEUE.replace("docker run --gpus all clip-worker", command)) == []


# -- an interactive run with no command, "inside the container" after it, of an image whose CMD is no shell

IDLE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
WORKDIR /opt/engine
COPY . .
RUN pip install -e .
CMD ["/bin/bash", "-c", "sleep infinity"]
"""
"""Modelled on an inference-engine image kept alive for `docker exec`."""

ENGINE = """\
# Engine

```sh
docker build -t engine-dev .
```

### Run
```sh
docker run --gpus all -it --rm engine-dev
```

### Check
Once inside the container, check the install:
```sh
python -c "import engine"
```
"""

SERVE = """\
FROM python:3.12-slim
WORKDIR /app
COPY . .
CMD python3 serve.py --port 8000
"""
"""Modelled on a small web service image."""

SERVICE = """\
# Notes service

```bash
docker build -t acme/notes .
docker run -it -p 8000:8000 acme/notes
# inside the container you can now run the migrations
alembic upgrade head
```
"""


def idled(readme: str, dockerfile: str) -> list[str]:
    model = model_of(parse_dockerfile(dockerfile, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "then says you are inside" in d.message
    ]


def test_an_interactive_run_of_an_image_that_only_sleeps() -> None:
    assert idled(ENGINE, IDLE) == [
        "9: README runs engine-dev with no command and then says you are inside the container (line 13), "
        'but Dockerfile:5 sets CMD ["/bin/bash", "-c", "sleep infinity"]: the container runs `sleep '
        "infinity`, not a shell (append bash to the run, or docker exec into it) (likely)"
    ]


@pytest.mark.parametrize(
    "words",
    ["Inside the container, check the install:", "- Build done. Inside the container: check the install"],
)
def test_words_that_start_a_sentence_inside_the_container(words: str) -> None:
    readme = ENGINE.replace("Once inside the container, check the install:", words)
    assert [m.split(" (line")[0] for m in idled(readme, IDLE)] == [
        "9: README runs engine-dev with no command and then says you are inside the container"
    ]


def test_a_comment_in_the_block_after_a_run_of_a_server_image() -> None:
    assert idled(SERVICE, SERVE) == [
        "5: README runs acme/notes with no command and then says you are inside the container (line 6), "
        "but Dockerfile:4 sets CMD python3 serve.py --port 8000: the container runs `python3 serve.py "
        "--port 8000`, not a shell (append bash to the run, or docker exec into it) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        (ENGINE.replace("-it --rm engine-dev", "-it --rm engine-dev bash"), IDLE),  # a shell asked for
        (ENGINE.replace("-it --rm", "-d --rm"), IDLE),  # detached: exec'd into later
        (ENGINE.replace("-it --rm", "-dit --rm"), IDLE),
        (ENGINE.replace("Once inside the container, check", "Then check from the host"), IDLE),
        (ENGINE, IDLE.replace('["/bin/bash", "-c", "sleep infinity"]', '["/bin/bash"]')),  # a shell
        (ENGINE, IDLE.replace('CMD ["/bin/bash", "-c", "sleep infinity"]', 'CMD ["./start.sh"]')),  # a script
        (ENGINE, IDLE.replace("CMD [", 'ENTRYPOINT ["/entry.sh"]\nCMD [')),  # an ENTRYPOINT decides
        (ENGINE, IDLE.replace('CMD ["/bin/bash", "-c", "sleep infinity"]', 'CMD ["python3"]')),  # a prompt
        (ENGINE, IDLE.replace('CMD ["/bin/bash", "-c", "sleep infinity"]\n', "")),  # the base's CMD
        (ENGINE.replace("-it --rm engine-dev", "-it --rm nvcr.io/acme/engine:24.01"), IDLE),  # not built here
        (  # another block between the run and the words
            ENGINE.replace("### Check\n", "```sh\ndocker exec -it engine bash\n```\n\n### Check\n"),
            IDLE,
        ),
        (  # "inside the container" places a setting, not the reader
            ENGINE.replace(
                "Once inside the container, check the install:",
                "- To change the port inside the container, set `PORT` (default 8000).",
            ),
            IDLE,
        ),
        (
            SERVICE.replace(
                "# inside the container you can",
                "# the log level inside the container: set LOG_LEVEL; you can",
            ),
            SERVE,
        ),
    ],
)
def test_runs_that_reach_a_shell_or_say_nothing_of_one(readme: str, dockerfile: str) -> None:
    assert idled(readme, dockerfile) == []


NOTEBOOK_IDLE = """\
FROM nvidia/cuda:12.1.0-base-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && pip install jupyterlab
CMD [ "/bin/sh" , "-c", "tail -f /dev/null" ]
"""
"""Modelled on a fine-tuning notebook image kept alive for `docker exec`."""

NOTEBOOK_STEPS = """\
# Tuner notebook

## Usage

1. Build the image by running `docker build -t tuner .` in the project folder.
2. Run the container using `docker run -it tuner`.
3. To start JupyterLab, run `jupyter lab --ip=0.0.0.0 --port=8888` inside the container.
4. Open `http://localhost:8888`.
"""
"""A README whose steps are list items with their commands in code spans."""


def test_a_run_in_a_list_item_then_a_command_typed_inside_the_container() -> None:
    assert idled(NOTEBOOK_STEPS, NOTEBOOK_IDLE) == [
        "6: README runs tuner with no command and then says you are inside the container (line 7), but "
        'Dockerfile:3 sets CMD ["/bin/sh", "-c", "tail -f /dev/null"]: the container runs '
        "`tail -f /dev/null`, not a shell (append bash to the run, or docker exec into it) (likely)"
    ]


def test_a_fenced_run_then_a_command_typed_inside_the_container() -> None:
    readme = ENGINE.replace(
        "Once inside the container, check the install:", "Run `engine --check` inside the container."
    )
    assert [m.split(" (line")[0] for m in idled(readme, IDLE)] == [
        "9: README runs engine-dev with no command and then says you are inside the container"
    ]


@pytest.mark.parametrize(
    "readme",
    [
        NOTEBOOK_STEPS.replace("`docker run -it tuner`", "`docker run -it tuner bash`"),
        NOTEBOOK_STEPS.replace("`docker run -it tuner`", "`docker run -d tuner`"),
        NOTEBOOK_STEPS.replace(" inside the container", " on the host"),
        NOTEBOOK_STEPS.replace("3. To start", "3. Enter it with `docker exec -it tuner bash`.\n4. To start"),
        NOTEBOOK_STEPS.replace("`docker build -t tuner .`", "`docker pull lab/tuner`"),  # not built here
        NOTEBOOK_STEPS.replace(
            " inside the container.", ".\n\nInside the container the notebook folder is `/work`."
        ),
    ],
)
def test_list_item_runs_that_reach_a_shell_or_say_nothing_of_one(readme: str) -> None:
    assert idled(readme, NOTEBOOK_IDLE) == []


# `alternative_pulls`: a pull offered instead of the build, followed by a run of the build's local name
# only (a splatting project: build `-t splat` or pull `lab/splat:latest`, then `docker run … splat`; a
# shortener whose two ways each give the same name, which is whole).
SPLAT = """\
# Splat

**Docker**

You can build the docker image by running:
```
docker build -f splat.dockerfile -t splat .
```

If you don't want to build the docker image, you can pull a pre-built image from docker hub:
```
docker pull lab/splat:latest
```

Now create a container from the image and run it.
```
docker run -it --gpus all --shm-size=50G --name splat -v /home/username:/workspace splat
cd /workspace
```
"""


def test_a_run_of_the_build_name_after_a_pull_offered_instead() -> None:
    assert dropped(SPLAT) == [
        "17: README runs image splat, which only its build (line 7) tags, while line 12 offers to pull "
        "lab/splat:latest instead of building: after the pull docker looks for docker.io/library/splat "
        "(did you mean lab/splat:latest?) (likely)"
    ]


def test_an_option_heading_offers_the_pull_first() -> None:
    readme = (
        "# Viewer\n\n### Option 1: Pull from Docker Hub\n\n```\ndocker pull mira/viewer:2.1\n```\n\n"
        "### Option 2: Build locally\n\n```\ndocker build -t viewer .\n```\n\n### Run\n\n"
        "```\ndocker run -p 8080:8080 viewer\n```\n"
    )
    [finding] = dropped(readme)
    assert finding.startswith(
        "18: README runs image viewer, which only its build (line 12) tags, while line 6"
    )


@pytest.mark.parametrize(
    "readme",
    [
        # each way is whole: the pull's own run
        SPLAT + "\nWith the pulled image:\n```\ndocker run -it --gpus all lab/splat:latest\n```\n",
        # the pulled image is tagged to the local name
        SPLAT.replace(
            "docker pull lab/splat:latest", "docker pull lab/splat:latest\ndocker tag lab/splat splat"
        ),
        # both ways give one name (a shortener: `Or build one yourself`)
        "# Shortener\n\nPull it:\n```\ndocker pull dacu/shortener\n```\n\nOr build one yourself:\n"
        "```\ndocker build -t dacu/shortener:latest .\n```\n\n"
        "```\ndocker run -d -p 80:80 dacu/shortener\n```\n",
        # pulled and built one after the other, nothing offers a choice
        "# Splat\n\n```\ndocker pull lab/splat:latest\ndocker build -t splat .\ndocker run splat\n```\n",
        # the run comes before the pull is offered
        SPLAT.replace("docker pull lab/splat:latest", "docker pull lab/base:latest")
        + "\nOr pull it:\n```\ndocker pull lab/splat:latest\n```\n",
        # the pulled image's repository name is another one
        SPLAT.replace("lab/splat:latest", "lab/splat-cuda:latest"),
        # images loaded from an archive
        SPLAT + "\n```\ndocker load -i splat.tar\n```\n",
    ],
)
def test_alternative_pulls_that_stay_silent(readme: str) -> None:
    assert dropped(readme) == []


def after_image(readme: str, models: list[ImageModel] | None = None, root: Path | None = None) -> list[str]:
    found = audit(readme, "README.md", models or [], {}, root, root)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found if "after the image" in d.message]


PULLED = """\
# Local LLM server

Set `THREADS` to your core count.

```bash
docker pull ghcr.io/acme/llm-server:cpu
docker run -d --name llm -p 8091:8091 ghcr.io/acme/llm-server:cpu -e THREADS="8" -v ./models:/srv/models
```
"""


def test_options_after_a_pulled_image_with_no_dockerfile() -> None:
    assert after_image(PULLED) == [
        "7: README's docker run passes -e THREADS=8, -v ./models:/srv/models after the image "
        "ghcr.io/acme/llm-server:cpu: docker run gives the words after the image to the container as its "
        "command, so they are not docker's options (no variable is set, no volume is mounted: put them "
        "before the image) (certain)"
    ]


def test_a_name_after_the_image_follows_another_misplaced_option() -> None:
    readme = "```sh\ndocker run -d org/whisper-api:gpu --gpus all --name whisper\n```\n"
    assert [r.split(": docker run")[0] for r in after_image(readme)] == [
        "2: README's docker run passes --gpus all, --name whisper after the image org/whisper-api:gpu"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "docker run --rm -e THREADS=8 -v ./models:/srv/models ghcr.io/acme/llm-server:cpu",  # before
        "docker run --rm willhallonline/ansible:2.16 -e env=prod -v site.yml",  # ansible's own -e
        "docker run --rm docker:27-cli run -e X=1 -v a:/b alpine",  # a command first
        "docker run --rm docker:27-cli -e X=1",  # the docker CLI's image
        "docker run --rm org/whisper-api:gpu --name whisper",  # a name alone: the program's flag
        "docker run --rm org/whisper-api:gpu -e production",  # not NAME=value
        "docker run --rm <image> -e X=1 -v ./m:/m",  # a placeholder
    ],
)
def test_words_after_the_image_that_stay_silent(command: str) -> None:
    assert after_image(f"```bash\n{command}\n```\n") == []


def test_an_entrypoint_that_takes_the_options_itself(tmp_path: Path) -> None:
    readme = (
        "# Deployer\n\n```bash\ndocker build -t acme/deployer .\n"
        "docker run acme/deployer -e env=prod site.yml\n```\n"
    )
    for dockerfile, said in (
        ('FROM python:3.12-slim\nENTRYPOINT ["ansible-playbook"]\n', False),
        ('FROM python:3.12-slim\nCOPY run.sh /run.sh\nENTRYPOINT ["/run.sh"]\n', False),  # reads -e
        ('FROM python:3.12-slim\nCOPY go.sh /go.sh\nENTRYPOINT ["/go.sh"]\n', True),  # passes "$@" on
        ('FROM python:3.12-slim\nCMD ["python", "deploy.py"]\n', True),
    ):
        (tmp_path / "Dockerfile").write_text(dockerfile, encoding="utf-8")
        (tmp_path / "run.sh").write_text(
            'while getopts "e:v" o; do\n  case $o in\n    e) E=$OPTARG;;\n  esac\ndone\n'
        )
        (tmp_path / "go.sh").write_text('#!/bin/sh\nexec python deploy.py "$@"\n')
        model = build_model(tmp_path / "Dockerfile", "Dockerfile")
        assert bool(after_image(readme, [model], tmp_path)) is said, dockerfile


def test_an_option_the_readmes_usage_listing_gives() -> None:
    readme = """\
# Deployer

```bash
docker run --rm ghcr.io/acme/deployer:1 -e env=prod -v site.yml
```

```text
usage: deployer [options] PLAYBOOK
  -e, --extra-vars KEY=VALUE   set a variable
  -v, --verbose                say more
```
"""
    assert after_image(readme) == []
    assert len(after_image(readme.replace("  -e, --extra-vars", "  --extra-vars"))) == 1


def renamed(readme: str) -> list[str]:
    model = model_of(parse_dockerfile(PLAIN, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model)
        if "after the pull there is no" in d.message
    ]


# a grasping network: the pull is in inline code, the build tags the owner's other account
GRASP = """\
# Docker setup

you can directly run:

`docker pull woodenheart777/grasp:cuda12.2`

or you can build on your own:

`docker build -t woodenheart/grasp:cuda12.2 -f docker/Dockerfile .`

then run

`docker run --gpus all -it woodenheart/grasp:cuda12.2 bash`
"""


def test_a_pull_offered_instead_of_the_build_under_another_owner() -> None:
    assert renamed(GRASP) == [
        "5: README pulls woodenheart777/grasp:cuda12.2 instead of building, but its runs (line 13) use "
        "woodenheart/grasp:cuda12.2, the name its build (line 9) tags: after the pull there is no "
        "woodenheart/grasp:cuda12.2 (likely)"
    ]
    # a fenced README of a render farm: an option heading offers the pull
    readme = (
        "# Farm\n\n### Option 1: pull\n\n```\ndocker pull ghcr.io/renderco/farm:2.0\n```\n\n"
        "### Option 2: build\n\n```\ndocker build -t renderlab/farm:2.0 .\n```\n\n"
        "```\ndocker run --rm renderlab/farm:2.0 --frames 10\n```\n"
    )
    [finding] = renamed(readme)
    assert finding.startswith("6: README pulls ghcr.io/renderco/farm:2.0 instead of building")


@pytest.mark.parametrize(
    "readme",
    [
        # the pulled image is tagged to the built name
        GRASP.replace(
            "`docker pull woodenheart777/grasp:cuda12.2`",
            "`docker pull woodenheart777/grasp:cuda12.2 && docker tag woodenheart777/grasp:cuda12.2 "
            "woodenheart/grasp:cuda12.2`",
        ),
        # the pulled name is run too
        GRASP + "\nor `docker run --gpus all -it woodenheart777/grasp:cuda12.2 bash`\n",
        # another tag: another image
        GRASP.replace("woodenheart777/grasp:cuda12.2", "woodenheart777/grasp:cuda11.8"),
        # a run of a local name: alternative_pulls tells it
        SPLAT,
        # nothing offers a choice: pulled as a base, then built
        "# G\n\n```\ndocker pull acme/grasp:1.0\ndocker build -t lab/grasp:1.0 .\n"
        "docker run lab/grasp:1.0\n```\n",
    ],
)
def test_renamed_pulls_that_stay_silent(readme: str) -> None:
    assert renamed(readme) == []


# an OCR tool published to a registry: the README runs it, never builds it, and passes the tool's options
OCR_DOCKERFILE = """\
FROM python:3.9-bullseye AS builder
RUN pip install poetry
COPY . /src
RUN cd /src && poetry build
FROM nvcr.io/nvidia/l4t-pytorch:r32.5.0-pth1.7-py3
COPY --from=builder /src/dist/*.whl /tmp/
RUN pip3 install /tmp/*.whl
CMD ["ocrx", "/data"]
"""
OCR_README = """\
# OCRX21P4 - OCR on the Jetson

```sh
docker run --rm -v /path/to/scans:/data ghcr.io/lab/ocrx21-p4:main --skip-models --json /data/out.json /data
docker run --rm -v /path/to/scans:/data ghcr.io/lab/ocrx21-p4:main --skip-models /data/one.png
```
"""


def test_an_option_after_an_image_the_title_names() -> None:
    assert found(OCR_README, OCR_DOCKERFILE) == [
        "4: README runs ghcr.io/lab/ocrx21-p4:main --skip-models …, the image of Dockerfile by its name, but "
        "Dockerfile sets no ENTRYPOINT (unless nvcr.io/nvidia/l4t-pytorch:r32.5.0-pth1.7-py3 does), only CMD "
        '["ocrx", "/data"] (Dockerfile:8): words after the image replace CMD, so docker executes '
        "--skip-models as the container's program and it fails (put the program first, or set an "
        "ENTRYPOINT) (likely)"
    ]  # one finding an image


def test_an_option_after_a_titled_image_on_a_python_base() -> None:
    # a web scraper on the official python image, which sets no ENTRYPOINT
    readme = "# page-grab\n\n```\ndocker run --rm someone/page-grab:1.2 --url https://example.org\n```\n"
    dockerfile = 'FROM python:3.12-slim\nCOPY grab.py /grab.py\nCMD ["python", "/grab.py"]\n'
    [finding] = found(readme, dockerfile)
    assert "Dockerfile has no ENTRYPOINT, only CMD" in finding and finding.endswith("(likely)")


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the image sets an ENTRYPOINT
        (OCR_README, OCR_DOCKERFILE.replace('CMD ["ocrx", "/data"]', 'ENTRYPOINT ["ocrx"]\nCMD ["/data"]')),
        # another image than the title's
        (OCR_README.replace("ocrx21-p4", "tesseract-server"), OCR_DOCKERFILE),
        # the image the Dockerfile starts FROM
        (OCR_README.replace("ghcr.io/lab/ocrx21-p4:main", "ocrx21p4"), 'FROM ocrx21p4\nCMD ["ocrx"]\n'),
        # a base whose ENTRYPOINT takes options (known to set one)
        (
            OCR_README,
            OCR_DOCKERFILE.replace(
                "FROM nvcr.io/nvidia/l4t-pytorch:r32.5.0-pth1.7-py3", "FROM ocrx/runtime:2"
            )
            + 'ENTRYPOINT ["/usr/bin/tini", "--", "ocrx"]\n',
        ),
        # --entrypoint names the program
        (OCR_README.replace("--rm -v", "--rm --entrypoint ocrx -v"), OCR_DOCKERFILE),
    ],
)
def test_titled_images_that_take_the_option(readme: str, dockerfile: str) -> None:
    assert found(readme, dockerfile) == []


# --------------------------------------------------------------------------------------------------
# An image the README runs but does not build, which a build file of the project tags

SEG_IMAGE = """\
FROM ubuntu:22.04
RUN apt-get update && apt-get install -y python3
COPY seg.py /opt/seg.py
"""
SEG_BUILD = """\
#!/bin/bash
set -e
docker build -t acme/segtool:1.0 -t acme/segtool:latest .
docker push acme/segtool --all-tags
"""
SEG_README = """\
# Cell segmentation in a box

```bash
docker run --rm -v /data:/data ghcr.io/acme/segtool:latest --weights /data/w.pt /data/cells.tif
```
"""


def _published(root: Path, image: str = SEG_IMAGE, build: str = SEG_BUILD) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": image, "build.sh": build, "seg.py": "print(1)\n", "README.md": SEG_README})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(SEG_README, "README.md", [model], {}, root, root)
        if "words after the image replace CMD" in d.message
    ]


def test_an_option_after_an_image_a_build_script_tags(tmp_path: Path) -> None:
    assert _published(tmp_path) == [
        (
            4,
            "README runs ghcr.io/acme/segtool:latest --weights …, the image build.sh:3 tags, but Dockerfile "
            "has no ENTRYPOINT: words after the image replace CMD, so docker executes --weights as the "
            "container's program and it fails (put the program first, or set an ENTRYPOINT)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("image", "build"),
    [
        (SEG_IMAGE.replace("ubuntu:22.04", "ghcr.io/acme/seg-base:1"), SEG_BUILD),  # a base not seen
        (SEG_IMAGE + 'ENTRYPOINT ["python3", "/opt/seg.py"]\n', SEG_BUILD),
        (SEG_IMAGE, SEG_BUILD.replace("acme/segtool", "acme/other")),  # another image
        (SEG_IMAGE, "services:\n  seg:\n    image: acme/segtool:latest\n"),  # (build.sh: no tag)
    ],
)
def test_published_images_left_alone(tmp_path: Path, image: str, build: str) -> None:
    assert _published(tmp_path, image, build) == []
