"""`docgen.audit.unshipped_cmd`: a `docker run` of the image the README builds, with no command and no
mount, while the image's CMD runs a script of the build context the image never copies, is a finding; a
mount onto the working folder, a run through Compose, a script of the base image, a project installed by
pip, a copy of the source and a run with a command of its own are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /work/trainer
COPY deps/requirements.txt /tmp/requirements.txt
RUN pip install --no-cache-dir -r /tmp/requirements.txt
ENV PYTHONPATH=/work/trainer
CMD ["python3", "tools/probe_env.py"]
"""

README = """\
# Trainer image

```bash
docker build -t trainer:cpu .
{run}
```
"""


def found(root: Path, run: str, dockerfile: str = DOCKERFILE, script: bool = True) -> list[str]:
    files = {
        "README.md": README.format(run=run),
        "Dockerfile": dockerfile,
        "deps/requirements.txt": "numpy==2.1.0\n",
        "compose.yaml": "services:\n  t:\n    build: .\n    volumes: ['.:/work/trainer']\n",
    }
    if script:
        files["tools/probe_env.py"] = "print('ok')\n"
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "default command" in d.message
    ]


@pytest.mark.parametrize("run", ["docker run --rm --network none trainer:cpu", "docker run -it trainer:cpu"])
def test_planted(tmp_path: Path, run: str) -> None:
    assert found(tmp_path, run) == [
        "5: README runs the image with its default command, Dockerfile:6 CMD running tools/probe_env.py "
        "from WORKDIR /work/trainer (line 2), but no COPY or ADD puts /work/trainer/tools/probe_env.py in "
        "the image and the run mounts nothing: the script is in the build context only (mount the source "
        "or COPY it) (likely)"
    ]


@pytest.mark.parametrize(
    "run",
    [
        'docker run --rm -v "$PWD":/work/trainer trainer:cpu',  # the source mounted onto the WORKDIR
        "docker run --rm --mount type=bind,src=.,dst=/work/trainer trainer:cpu",
        "docker run --rm trainer:cpu python3 -c 'import torch'",  # a command of its own
        "docker compose up",  # Compose's volumes bring the source
        "docker run --rm other/image:1",  # not the image built here
    ],
)
def test_traps(tmp_path: Path, run: str) -> None:
    assert found(tmp_path, run) == []


def test_the_source_copied(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("ENV PYTHONPATH", "COPY . /work/trainer\nENV PYTHONPATH")
    assert found(tmp_path, "docker run --rm trainer:cpu", dockerfile=dockerfile) == []


def test_a_script_of_the_base_image(tmp_path: Path) -> None:
    assert found(tmp_path, "docker run --rm trainer:cpu", script=False) == []


def test_the_project_installed_by_pip(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("ENV PYTHONPATH", "RUN pip install .\nENV PYTHONPATH")
    assert found(tmp_path, "docker run --rm trainer:cpu", dockerfile=dockerfile) == []


def test_an_entrypoint_of_its_own(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("CMD", 'ENTRYPOINT ["/usr/local/bin/start.sh"]\nCMD')
    assert found(tmp_path, "docker run --rm trainer:cpu", dockerfile=dockerfile) == []


def test_the_script_added_into_a_folder_named_without_a_slash(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace(
        "ENV PYTHONPATH",
        "RUN mkdir -p /work/trainer/tools\nADD tools/probe_env.py /work/trainer/tools\nENV PYTHONPATH",
    )
    assert found(tmp_path, "docker run --rm trainer:cpu", dockerfile=dockerfile) == []


def test_the_context_copied_to_a_relative_destination(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.replace("ENV PYTHONPATH", "COPY . .\nENV PYTHONPATH")
    assert found(tmp_path, "docker run --rm trainer:cpu", dockerfile=dockerfile) == []


# --------------------------------------------------------------------------------------------------
# A container command that is a script named without a folder: Docker looks it up on the PATH

DEBLUR = "FROM pytorch/conda-cuda:latest\nRUN apt-get update && apt-get install -y python3-opencv\n"
BARE = """\
# Deblur

```
docker build -t deblur:0.1 .
{run}
```
"""


def bare(root: Path, run: str, dockerfile: str = DEBLUR, files: dict[str, str] | None = None) -> list[str]:
    tree = {"README.md": BARE.format(run=run), "Dockerfile": dockerfile, "entrypoint.sh": "python train.py\n"}
    make_tree(root, {**tree, **(files or {})})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "named without a folder" in d.message
    ]


@pytest.mark.parametrize(
    "run",
    [
        "docker run -d --gpus all --name dg -w /workspace -v $(pwd):/workspace deblur:0.1 entrypoint.sh",
        "docker run --rm -it \\\n  -v $PWD:/app -w /app \\\n  deblur:0.1 entrypoint.sh --epochs 3",
    ],
)
def test_a_bare_script_as_the_container_command(tmp_path: Path, run: str) -> None:
    assert bare(tmp_path, run) == [
        "5: README's docker run gives the container the command entrypoint.sh, a script named without a "
        "folder: Docker looks such a command up on the PATH, and Dockerfile neither copies entrypoint.sh "
        "into the image nor sets PATH, so the container does not start (executable file not found in $PATH; "
        "run ./entrypoint.sh or bash entrypoint.sh) (likely)"
    ]


@pytest.mark.parametrize(
    ("run", "dockerfile"),
    [
        ("docker run -v $(pwd):/workspace -w /workspace deblur:0.1 ./entrypoint.sh", DEBLUR),
        ("docker run -v $(pwd):/workspace -w /workspace deblur:0.1 bash entrypoint.sh", DEBLUR),
        ("docker run -it deblur:0.1 bash", DEBLUR),
        # the image puts its working folder on the PATH, or copies the script onto it
        (
            "docker run -v $(pwd):/ws -w /ws deblur:0.1 entrypoint.sh",
            DEBLUR + "WORKDIR /ws\nENV PATH=/ws:$PATH\n",
        ),
        ("docker run deblur:0.1 entrypoint.sh", DEBLUR + "COPY entrypoint.sh /usr/local/bin/\n"),
        # an ENTRYPOINT takes the word as its argument
        ("docker run deblur:0.1 entrypoint.sh", DEBLUR + 'ENTRYPOINT ["/bin/bash"]\n'),
        ("docker run --entrypoint bash deblur:0.1 entrypoint.sh", DEBLUR),
        ("docker run -e PATH=/workspace:/usr/bin -v $(pwd):/workspace deblur:0.1 entrypoint.sh", DEBLUR),
        # another image, whose PATH is not known; a script the project does not hold
        ("docker run -v $(pwd):/w -w /w ghcr.io/example/runner:1 entrypoint.sh", DEBLUR),
        ("docker run -v $(pwd):/w -w /w deblur:0.1 start.sh", DEBLUR),
    ],
)
def test_container_commands_found_on_the_path(tmp_path: Path, run: str, dockerfile: str) -> None:
    assert bare(tmp_path, run, dockerfile) == []


# --------------------------------------------------------------------------------------------------
# A container command the image puts on the PATH under another name

SUBS = """\
FROM python:3.12-slim
RUN pip install --no-cache-dir faster-whisper
COPY extract_audio.sh /usr/local/bin/extract_audio
COPY make_captions.sh /usr/local/bin/make_captions
COPY make_german_captions.sh /usr/local/bin/make_german_captions
"""
SUBS_README = """\
# captions

```bash
docker run --rm -v $PWD:/data -w /data acme/captions extract_audio talk.mp4
docker run --rm -v $PWD:/data -w /data acme/captions make_captions talk.wav
```

Straight to German:

```bash
{run}
```
"""
THUMBS = """\
FROM debian:bookworm
RUN apt-get update && apt-get install -y imagemagick
COPY scripts/thumbs.sh /usr/bin/make-thumbnails
"""
THUMBS_README = """\
# thumbs

```
docker build -t thumbs .
{run}
```
"""


def renamed(root: Path, readme: str, dockerfile: str) -> list[str]:
    make_tree(root, {"README.md": readme, "Dockerfile": dockerfile})
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "puts it on the PATH as" in d.message
    ]


def test_a_program_run_by_a_near_name(tmp_path: Path) -> None:
    run = "docker run --rm -v $PWD:/data -w /data acme/captions make_german_subs talk.mp4 --out talk.de.srt"
    assert renamed(tmp_path / "a", SUBS_README.format(run=run), SUBS) == [
        "11: README runs make_german_subs in the container, but the image has no program of that name: "
        "Dockerfile:5 puts it on the PATH as make_german_captions; the container fails (executable file "
        "not found in $PATH) (likely)"
    ]
    assert renamed(
        tmp_path / "b", THUMBS_README.format(run="docker run -v $PWD:/in thumbs make-thumbs /in"), THUMBS
    ) == [
        "5: README runs make-thumbs in the container, but the image has no program of that name: "
        "Dockerfile:3 puts it on the PATH as make-thumbnails; the container fails (executable file not "
        "found in $PATH) (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the name the Dockerfile gives; a program of the base image; a script by its path
        (SUBS_README.format(run="docker run acme/captions make_german_captions talk.mp4"), SUBS),
        (SUBS_README.format(run="docker run acme/captions python -m faster_whisper"), SUBS),
        (SUBS_README.format(run="docker run acme/captions ./make_german_subs talk.mp4"), SUBS),
        # a RUN names (installs) the word; an ENTRYPOINT takes it; the run replaces the entrypoint
        (
            SUBS_README.format(run="docker run acme/captions make_german_subs x"),
            SUBS + "RUN pip install make_german_subs\n",
        ),
        (
            SUBS_README.format(run="docker run acme/captions make_german_subs x"),
            SUBS + 'ENTRYPOINT ["/run.sh"]\n',
        ),
        (SUBS_README.format(run="docker run --entrypoint sh acme/captions make_german_subs"), SUBS),
        (
            SUBS_README.format(run="docker run acme/captions make_german_subs x"),
            SUBS + "COPY . /src\nRUN pip install /src -r /src/requirements.txt\n",
        ),
        # another image (no run of it starts a program of this Dockerfile, the README builds none)
        (SUBS_README.format(run="docker run other/tools make_german_subs x"), SUBS),
        # a word near none of the names, or near two alike
        (THUMBS_README.format(run="docker run thumbs convert a.png b.jpg"), THUMBS),
        (
            THUMBS_README.format(run="docker run thumbs make-thumbs /in"),
            THUMBS + "COPY scripts/t2.sh /usr/bin/make-thumbnail\n",
        ),
    ],
)
def test_programs_by_the_names_the_image_has(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert renamed(tmp_path, readme, dockerfile) == []


# -- an exec-form start whose program holds its arguments ----------------------------------------------

SPACED = """\
FROM python:3.12-slim
WORKDIR /srv
COPY . /srv
EXPOSE 8188
{start}
"""


def spaced(root: Path, start: str, block: str, compose: str | None = None) -> list[str]:
    files = {"Dockerfile": SPACED.format(start=start), "main.py": "print('ui')\n"}
    if compose is not None:
        files["docker-compose.yml"] = compose
    files["README.md"] = f"# Studio\n\n```bash\ndocker build -t studio .\n```\n\n```bash\n{block}\n```\n"
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "in one string" in d.message
    ]


def test_an_entrypoint_whose_one_string_holds_the_program_and_its_arguments(tmp_path: Path) -> None:
    # modelled on a ComfyUI image started by `docker run` and by compose, whose ENTRYPOINT is one string
    compose = "services:\n  ui:\n    image: studio\n    network_mode: host\n"
    block = "docker compose up\ndocker run -it --rm --network=host -v ./:/pwd studio"
    assert spaced(tmp_path, 'ENTRYPOINT ["python3 main.py"]', block, compose) == [
        '8: README starts the image, but Dockerfile:5 ENTRYPOINT ["python3 main.py"] is the exec form with '
        'the program and its arguments in one string: docker looks for a program named "python3 main.py", '
        'finds none, and the container cannot start (write ["python3", "main.py"]); also at line 9 (certain)'
    ]


def test_a_cmd_whose_one_string_holds_a_server_and_its_options(tmp_path: Path) -> None:
    # modelled on a Flask service: CMD ["gunicorn -b 0.0.0.0:8000 app:app"], run bare
    got = spaced(
        tmp_path,
        'CMD ["gunicorn -b 0.0.0.0:8000 app:app", "--workers", "2"]',
        "docker run -p 8000:8000 studio",
    )
    assert len(got) == 1
    assert got[0].startswith(
        '8: README starts the image, but Dockerfile:5 CMD ["gunicorn -b 0.0.0.0:8000 app:app"]'
    )


@pytest.mark.parametrize(
    ("start", "block", "compose"),
    [
        ('ENTRYPOINT ["python3", "main.py"]', "docker run studio", None),  # the exec form, right
        ("ENTRYPOINT python3 main.py", "docker run studio", None),  # the shell form
        ('ENTRYPOINT ["python3 main.py"]', "docker run --entrypoint python3 studio main.py", None),
        ('CMD ["python3 main.py"]', "docker run studio python3 main.py --port 8188", None),  # its own command
        ('ENTRYPOINT ["${APP_CMD} serve"]', "docker run studio", None),  # a variable
        ('ENTRYPOINT ["python3 main.py"]', "docker run other/image", None),  # not the image built
        (
            'ENTRYPOINT ["python3 main.py"]',
            "docker compose up",
            "services:\n  ui:\n    image: studio\n    entrypoint: [python3, main.py]\n",
        ),
        (
            'CMD ["python3 main.py"]',
            "docker compose up",
            "services:\n  ui:\n    image: studio\n    command: python3 main.py\n",
        ),
    ],
)
def test_starts_that_run_or_are_replaced(tmp_path: Path, start: str, block: str, compose: str | None) -> None:
    assert spaced(tmp_path, start, block, compose) == []


# -- a start in one string in one of several Dockerfiles, run by the built name or a registry's ---------

BASE = "FROM ubuntu:22.04\nRUN apt-get update\n"
CHECK = """\
FROM ghcr.io/acme/board-base:r1
RUN apt-get install -y gcc
CMD ["/opt/samples/install.sh . && /opt/samples/deviceQuery"]
"""


def two_images(root: Path, runs: str, check: str = CHECK) -> list[tuple[str, str]]:
    # modelled on a board-support repository: a base image and a test image built on it, each built with
    # its `-f`; the test image's CMD holds a whole shell line in one string
    readme = (
        "# Board images\n\n```bash\n"
        "docker build -f base/board.Dockerfile -t board-base:r1 .\n"
        "docker build -f test/board_test.Dockerfile -t board-test:r1 .\n"
        f"```\n\n```bash\n{runs}\n```\n"
    )
    make_tree(
        root,
        {"README.md": readme, "base/board.Dockerfile": BASE, "test/board_test.Dockerfile": check},
    )
    models = [
        build_model(root / "base/board.Dockerfile", "base/board.Dockerfile"),
        build_model(root / "test/board_test.Dockerfile", "test/board_test.Dockerfile"),
    ]
    return [
        (d.message, d.confidence)
        for d in audit(readme, "README.md", models, {}, root)
        if "one string" in d.message
    ]


STARTS_SHELL = (
    'test/board_test.Dockerfile:3 CMD ["/opt/samples/install.sh . && /opt/samples/deviceQuery"] is the exec '
    "form with the program and its arguments in one string: docker looks for a program named "
    '"/opt/samples/install.sh . && /opt/samples/deviceQuery", finds none, and the container cannot start '
    '(write it in the shell form, or as ["/bin/sh", "-c", "/opt/samples/install.sh . && '
    '/opt/samples/deviceQuery"])'
)


def test_a_start_in_one_string_of_one_of_several_dockerfiles(tmp_path: Path) -> None:
    assert two_images(tmp_path, "docker run --rm -it --runtime nvidia board-test:r1") == [
        (f"README starts the image, but {STARTS_SHELL}", "certain")
    ]


def test_a_registry_image_of_the_built_name_and_tag(tmp_path: Path) -> None:
    assert two_images(tmp_path, "docker run --rm -it ghcr.io/acme/board-test:r1") == [
        (
            "README starts ghcr.io/acme/board-test:r1, a registry's image of the name and tag it builds from "
            f"test/board_test.Dockerfile (board-test:r1), but {STARTS_SHELL}",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    "runs",
    [
        "docker run --rm -it board-base:r1",  # the other image, whose start is its base's
        "docker run --rm -it ghcr.io/acme/board-test:r2",  # another tag
        "docker run --rm -it board-test:r1 bash",  # a command of its own
        "docker run --rm -it ghcr.io/acme/board-base:r1",
    ],
)
def test_runs_of_the_other_image_or_with_a_command(tmp_path: Path, runs: str) -> None:
    assert two_images(tmp_path, runs) == []


def test_a_build_that_names_no_dockerfile_among_several(tmp_path: Path) -> None:
    readme_runs = "docker run board-test:r1"
    got = two_images(tmp_path, readme_runs)
    assert len(got) == 1
    # the same README building the test image without `-f` cannot tell which file it builds
    text = (tmp_path / "README.md").read_text(encoding="utf-8").replace("-f test/board_test.Dockerfile ", "")
    models = [
        build_model(tmp_path / "base/board.Dockerfile", "base/board.Dockerfile"),
        build_model(tmp_path / "test/board_test.Dockerfile", "test/board_test.Dockerfile"),
    ]
    assert [d for d in audit(text, "README.md", models, {}, tmp_path) if "one string" in d.message] == []


# -- a start program that is a slip of one the image has ------------------------------------------------

SLIPPED = """\
FROM python:3.11-slim
WORKDIR /workspace
COPY . /workspace
RUN pip install --no-cache-dir -e . && pip install transformers==4.36.0{more}
{start}
"""


def slipped(root: Path, start: str, block: str, compose: str | None = None, more: str = "") -> list[str]:
    files = {"Dockerfile": SLIPPED.format(start=start, more=more), "finetune.py": "print('tune')\n"}
    if compose is not None:
        files["compose.yaml"] = compose
    files["README.md"] = f"# Tuner\n\n```bash\n{block}\n```\n"
    make_tree(root, files)
    model = build_model(root / "Dockerfile", "Dockerfile")
    text = (root / "README.md").read_text(encoding="utf-8")
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(text, "README.md", [model], {}, root)
        if "one letter from" in d.message
    ]


def test_an_entrypoint_a_letter_off_a_launcher_started_by_compose(tmp_path: Path) -> None:
    # modelled on a fine-tuning image whose compose service builds it and appends its own arguments
    compose = "services:\n  tuner:\n    build: .\n    command: launch finetune.py lora.yml\n"
    got = slipped(
        tmp_path, 'ENTRYPOINT ["accelrate", "launch", "finetune.py"]', "docker compose up -d", compose
    )
    assert got == [
        "4: README starts the image, but Dockerfile:5 ENTRYPOINT runs accelrate, a program nothing in the "
        "Dockerfile names, one letter from accelerate (the launcher of Hugging Face's accelerate): docker "
        'finds no executable "accelrate" in $PATH and the container cannot start (likely)'
    ]


def test_a_cmd_with_two_letters_swapped_of_an_installed_server(tmp_path: Path) -> None:
    # modelled on an API image: `pip install uvicorn fastapi`, CMD ["uvicron", …], run bare
    got = slipped(
        tmp_path,
        'CMD ["uvicron", "app:app", "--host", "0.0.0.0"]',
        "docker build -t tuner .\ndocker run -p 8000:8000 tuner",
        more=" uvicorn fastapi",
    )
    assert len(got) == 1
    assert (
        "CMD runs uvicron" in got[0] and "one letter from uvicorn (the Dockerfile installs uvicorn)" in got[0]
    )


@pytest.mark.parametrize(
    ("start", "block", "more"),
    [
        (
            'ENTRYPOINT ["accelerate", "launch", "finetune.py"]',
            "docker build -t tuner .\ndocker run tuner",
            "",
        ),
        ('CMD ["python2", "finetune.py"]', "docker build -t tuner .\ndocker run tuner", ""),  # a version
        ('CMD ["uvicron", "app:app"]', "docker build -t tuner .\ndocker run tuner", " uvicron"),  # installed
        ('CMD ["accelrate", "launch"]', "docker build -t tuner .\ndocker run tuner bash", ""),  # own command
        ('ENTRYPOINT ["accelrate"]', "docker build -t tuner .\ndocker run --entrypoint sh tuner", ""),
        ('ENTRYPOINT ["accelrate"]', "docker run other/image", ""),  # not the image built
        ("ENTRYPOINT accelrate launch finetune.py", "docker build -t tuner .\ndocker run tuner", ""),
        ('CMD ["./accelrate", "launch"]', "docker build -t tuner .\ndocker run tuner", ""),  # a path
    ],
)
def test_starts_that_are_no_slip_or_are_replaced(tmp_path: Path, start: str, block: str, more: str) -> None:
    assert slipped(tmp_path, start, block, more=more) == []


def test_a_script_of_the_context_of_that_name_is_silent(tmp_path: Path) -> None:
    make_tree(tmp_path, {"accelrate": "#!/bin/sh\n"})
    block = "docker build -t tuner .\ndocker run tuner"
    assert slipped(tmp_path, 'ENTRYPOINT ["accelrate", "launch"]', block) == []
