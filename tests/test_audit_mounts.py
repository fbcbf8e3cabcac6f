"""`docgen.audit.mounts`: the folder a README's `docker run -v "$PWD:/app" IMAGE python main.py` mounts
the current folder at, against the WORKDIR a container of the image starts in. A planted drift and the
nearest true commands as traps; the READMEs and Dockerfiles are small models written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit


def _audit(tmp_path: Path, readme: str, dockerfile: str, files: dict[str, str] | None = None) -> list[str]:
    make_tree(tmp_path, {"Dockerfile": dockerfile, "README.md": readme, **(files or {})})
    model = build_model(tmp_path / "Dockerfile", "Dockerfile")
    found = audit(readme, "README.md", [model], {}, tmp_path)
    return [f"{d.line}: {d.message} ({d.confidence})" for d in found]


RUNTIME = """\
FROM python:3.11-slim
RUN pip install --no-cache-dir torch==2.5.1
WORKDIR /workspace
"""

RUNS = """\
# PyTorch runtime

```bash
docker build -t acme/torch .
docker run --rm -it --gpus=all --volume="$PWD:/app" acme/torch python3 main.py
docker run --rm -v $(pwd):/workspace acme/torch python3 main.py
docker run --rm -v $(pwd):/app -w /app acme/torch python3 main.py
docker run --rm -v $(pwd):/app acme/torch python3 -m train
docker run --rm -v $(pwd):/app acme/torch python3 /app/main.py
docker run --rm -v $(pwd)/data:/app acme/torch python3 main.py
```
"""


def test_a_script_run_from_a_folder_the_container_does_not_start_in(tmp_path: Path) -> None:
    # line 5 mounts the folder at /app, the container starts in /workspace; line 6 mounts it there;
    # line 7 starts in /app (-w); line 8 runs a module; line 9 an absolute path; line 10 mounts another
    # folder than the current one
    assert _audit(tmp_path, RUNS, RUNTIME) == [
        "5: README runs main.py from the current folder mounted at /app, but Dockerfile:3 says WORKDIR "
        "/workspace: the container starts there, where main.py is not (likely)"
    ]


def test_an_image_that_copies_the_context_may_hold_the_script(tmp_path: Path) -> None:
    # (the context holds main.py: without it, unshipped_cmd.unshipped_run_scripts reports the run)
    assert _audit(tmp_path, RUNS, RUNTIME + "COPY . .\n", {"main.py": "print(1)\n"}) == []


def test_a_base_that_may_set_the_working_directory(tmp_path: Path) -> None:
    assert _audit(tmp_path, RUNS, "FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime\n") == []


SERVED = """\
FROM python:3.11-slim
COPY ./requirements.txt /srv/reader/requirements.txt
WORKDIR /srv/reader
RUN pip install -r requirements.txt
COPY . /srv/reader
CMD ["uvicorn", "api:app", "--host", "0.0.0.0", "--port", "80"]
"""

HIDES = (
    "README mounts {0}, a folder of one person's machine, over /srv/reader, where Dockerfile:5 copies "
    "the project and the container starts: elsewhere docker makes it empty and it hides the image's code "
    "(likely)"
)


def _served(run: str, prose: str = "Run it:") -> str:
    return f"# Reader\n\n```\ndocker build -t mirela77/reader:ocr .\n```\n\n{prose}\n\n```\n{run}\n```\n"


def _hides(found: list[str]) -> list[str]:
    return [f for f in found if "one person's machine" in f]


@pytest.mark.parametrize(
    "host",
    [
        "~/mirela/reader-api",  # a folder named after the image's owner (mirela77)
        "/home/tomasz/code/reader",  # a named user's home
        "/Users/tomasz/dev/reader",
        "C:\\Users\\tomasz\\reader",
    ],
)
def test_a_folder_of_the_authors_machine_over_the_code(tmp_path: Path, host: str) -> None:
    readme = _served(f"docker run --gpus all -v {host}:/srv/reader -p 80:80 mirela77/reader:ocr")
    assert _hides(_audit(tmp_path, readme, SERVED)) == [f"10: {HIDES.format(host)}"]


@pytest.mark.parametrize(
    ("run", "prose", "dockerfile"),
    [
        ("docker run -v $(pwd):/srv/reader mirela77/reader:ocr", "Run it:", SERVED),  # the checkout
        ("docker run -v ${PWD}:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v .:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /home/user/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),  # anyone's
        ("docker run -v /home/ubuntu/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /home/$USER/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /path/to/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v /home/<you>/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),
        ("docker run -v ~/projects/reader:/srv/reader mirela77/reader:ocr", "Run it:", SERVED),  # not a name
        ("docker run -v /home/tomasz/scans:/data mirela77/reader:ocr", "Run it:", SERVED),  # a data folder
        ("docker run -v /home/tomasz/out:/srv/reader/out mirela77/reader:ocr", "Run it:", SERVED),
        (  # the prose tells to put one's own folder there
            "docker run -v /home/tomasz/reader:/srv/reader mirela77/reader:ocr",
            "Replace /home/tomasz/reader with the folder you cloned into:",
            SERVED,
        ),
        ("docker run -v /home/tomasz/reader:/srv/reader tomasz/other", "Run it:", SERVED),  # not built here
        (  # the image copies no project into the folder
            "docker run -v /home/tomasz/reader:/srv/reader mirela77/reader:ocr",
            "Run it:",
            SERVED.replace("COPY . /srv/reader\n", "COPY api.py /srv/reader/\n"),
        ),
        (  # nor starts there
            "docker run -v /home/tomasz/reader:/srv/reader mirela77/reader:ocr",
            "Run it:",
            SERVED + "WORKDIR /tmp\n",
        ),
    ],
)
def test_mounts_that_keep_the_code(tmp_path: Path, run: str, prose: str, dockerfile: str) -> None:
    assert _hides(_audit(tmp_path, _served(run, prose), dockerfile)) == []


# A fine-tuning image that bakes its training script into / and runs it from there (modelled on small
# LoRA/QLoRA trainer repositories), and a speech model image whose README opens a shell in it (modelled
# on single-Dockerfile wrappers of TTS projects).
TRAINER = """\
FROM nvidia/cuda:12.4.1-base-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip install peft trl
COPY train_lora.py .
CMD ["python3", "train_lora.py"]
"""

TRAIN = """\
# LoRA trainer

Edit train_lora.py with your dataset, then:

```bash
docker build -t lora-trainer .
docker run -it --gpus all \\
  -v $(pwd):/work \\
  lora-trainer
```
"""


def test_a_mount_the_image_never_uses(tmp_path: Path) -> None:
    assert _audit(tmp_path, TRAIN, TRAINER, {"train_lora.py": "print(1)\n"}) == [
        "8: README mounts the current folder at /work, but nothing in the image uses it: the container "
        "starts in / and its CMD (Dockerfile:5) runs the copy of train_lora.py that Dockerfile:4 puts "
        "there, not the mounted one (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "dockerfile"),
    [
        # the container starts in the mount
        (TRAIN, TRAINER.replace("COPY train_lora.py .", "WORKDIR /work\nCOPY train_lora.py .")),
        # the image names the folder (the script may write there)
        (
            TRAIN,
            TRAINER.replace("RUN pip install peft trl", "RUN pip install peft trl && mkdir -p /work/out"),
        ),
        # the README names the folder elsewhere: the outputs land there
        (TRAIN + "\nCheckpoints are written to /work/checkpoints.\n", TRAINER),
        # the run gives the command or the working folder
        (TRAIN.replace("  lora-trainer\n", "  lora-trainer python3 /work/train_lora.py\n"), TRAINER),
        (TRAIN.replace("-v $(pwd):/work", "-v $(pwd):/work -w /work"), TRAINER),
        # a base that may start its containers in the folder
        (
            TRAIN,
            TRAINER.replace(
                "nvidia/cuda:12.4.1-base-ubuntu22.04", "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime"
            ),
        ),
        # an ENTRYPOINT script may use the folder
        (TRAIN, TRAINER + 'ENTRYPOINT ["/entry.sh"]\n'),
    ],
)
def test_mounts_the_image_may_use_stay_silent(tmp_path: Path, readme: str, dockerfile: str) -> None:
    assert [
        f
        for f in _audit(tmp_path, readme, dockerfile, {"train_lora.py": "print(1)\n"})
        if "nothing in the image" in f
    ] == []


VOICE = """\
FROM python:3.10-slim
WORKDIR /opt/voice
COPY . /opt/voice
ENTRYPOINT ["bash"]
"""

SPEAK = """\
# Voice

```bash
docker build -t voice .
docker run -it \\
  -v $PWD/weights:/opt/voice/weights \\
  -v $PWD/out:/opt/voice/out \\
  voice
```

Then, in the container:

```bash
python3 speak.py --weights weights --save-dir opt/voice/out/run1
```
"""


def test_a_path_typed_in_the_shell_that_spells_the_mount_from_the_top(tmp_path: Path) -> None:
    assert _audit(tmp_path, SPEAK, VOICE, {"speak.py": "print(1)\n"}) == [
        "14: README gives opt/voice/out/run1 in the container the command at line 5 opens, which starts in "
        "/opt/voice (Dockerfile:2 says WORKDIR): it names /opt/voice/opt/voice/out/run1, outside "
        "/opt/voice/out that `-v $PWD/out:/opt/voice/out` mounts, so what is written there is lost with the "
        "container and nothing there comes from the host (likely)"
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # the path relative to where the container starts, or absolute
        (SPEAK.replace("opt/voice/out/run1", "out/run1"), {}),
        (SPEAK.replace("opt/voice/out/run1", "/opt/voice/out/run1"), {}),
        # the shell was left before the command
        (SPEAK.replace("```bash\npython3 speak.py", "```bash\nexit\npython3 speak.py"), {}),
        # the README's folder holds such a folder: the path may be the host's
        (SPEAK, {"opt/voice/out/.keep": ""}),
        # not an interactive shell: the run starts the image's program
        (SPEAK.replace("docker run -it", "docker run -d"), {}),
    ],
)
def test_paths_the_mount_holds_stay_silent(tmp_path: Path, readme: str, files: dict[str, str]) -> None:
    found_here = _audit(tmp_path, readme, VOICE, {"speak.py": "print(1)\n", **files})
    assert [f for f in found_here if "outside" in f] == []


POSE = """\
FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04
ARG APP_ROOT=/srv/posekit
RUN git clone https://example.org/vision/posekit.git $APP_ROOT
WORKDIR $APP_ROOT
COPY demo.py $APP_ROOT/tools/
"""

POSE_README = """\
# Pose demo

```
docker build -t posekit-demo .
```

Start the container:

```
docker run --rm -it \\
    -v $(pwd)/clips:/clips \\
    -v $(pwd)/{host}:/srv/posekit/weights \\
    -w /srv/posekit \\
    posekit-demo /bin/bash
```

Once it runs:

```
python tools/demo.py --clip /clips/a.mp4 --weights {path}
```
"""


def _pose(
    root: Path, host: str = "weights", path: str = "/weights/coco/w32.pth", dockerfile: str = POSE
) -> list[str]:
    readme = POSE_README.format(host=host, path=path)
    found = _audit(root, readme, dockerfile, {"demo.py": "print(1)\n"})
    return [f for f in found if "nothing is at" in f]


def test_a_path_at_the_top_that_the_run_mounts_below_another_folder(tmp_path: Path) -> None:
    # modelled on a pose-estimation demo: the weights folder is mounted below the clone, the command
    # typed in the container's shell names it at the top
    assert _pose(tmp_path) == [
        "20: README gives /weights/coco/w32.pth in the container the command at line 10 opens, but "
        "nothing is at /weights there: the run mounts $(pwd)/weights at /srv/posekit/weights (line 12) "
        "and the image makes no /weights, so the path misses the mount: nothing of the host's folder is "
        "there, and what is written there is lost with the container (it is "
        "/srv/posekit/weights/coco/w32.pth) (likely)"
    ]


CKPT = """\
FROM python:3.11-slim
WORKDIR /home/app
COPY . .
RUN pip install -r requirements.txt
"""

CKPT_README = """\
# Sketch lab

```bash
docker build -t sketch-lab .
docker run --rm -v "$(pwd)/checkpoints":/home/app/checkpoints sketch-lab \\
  python3 generate.py --ckpt {path} --steps 30
```
"""


def test_a_path_at_the_top_given_as_the_run_command_s_argument(tmp_path: Path) -> None:
    # modelled on an image generator: the argument of the run's own command
    readme = CKPT_README.format(path="/checkpoints/v1.safetensors")
    files = {"generate.py": "print(1)\n", "requirements.txt": "torch\n"}
    found = [f for f in _audit(tmp_path, readme, CKPT, files) if "nothing is at" in f]
    assert found == [
        "6: README gives /checkpoints/v1.safetensors in the container the command at line 5 runs, but "
        "nothing is at /checkpoints there: the run mounts $(pwd)/checkpoints at /home/app/checkpoints "
        "(line 5) and the image makes no /checkpoints, so the path misses the mount: nothing of the host's "
        "folder is there, and what is written there is lost with the container (it is "
        "/home/app/checkpoints/v1.safetensors) (likely)"
    ]


@pytest.mark.parametrize(
    ("host", "path", "dockerfile"),
    [
        # the path the mount gives
        ("weights", "/srv/posekit/weights/coco/w32.pth", POSE),
        # a relative path from where the run starts
        ("weights", "weights/coco/w32.pth", POSE),
        # a folder mounted at the top
        ("weights", "/clips/b.mp4", POSE),
        # the host folder has another name: the path may be another thing
        ("checkpoints", "/weights/coco/w32.pth", POSE),
        # the image makes or names that folder itself
        ("weights", "/weights/coco/w32.pth", POSE + "RUN mkdir -p /weights\n"),
        ("weights", "/weights/coco/w32.pth", POSE + "ENV WEIGHTS_DIR=/weights\n"),
        # a placeholder, and a folder every image has
        ("weights", "/path/to/weights/w32.pth", POSE),
        ("weights", "/tmp/weights/w32.pth", POSE),
    ],
)
def test_paths_the_container_has_stay_silent(tmp_path: Path, host: str, path: str, dockerfile: str) -> None:
    assert _pose(tmp_path, host, path, dockerfile) == []


def test_a_path_after_the_shell_is_left_or_mounted_by_another_run_stays_silent(tmp_path: Path) -> None:
    readme = POSE_README.format(host="weights", path="/weights/coco/w32.pth")
    left = readme.replace("python tools/demo.py", "exit\npython tools/demo.py")
    assert [f for f in _audit(tmp_path / "a", left, POSE, {"demo.py": ""}) if "nothing is at" in f] == []
    other = readme + "\n```\ndocker run --rm -v $(pwd)/weights:/weights posekit-demo ls /weights\n```\n"
    assert [f for f in _audit(tmp_path / "b", other, POSE, {"demo.py": ""}) if "nothing is at" in f] == []


def test_a_path_short_for_a_placeholder_mount_stays_silent(tmp_path: Path) -> None:
    # modelled on a speech-synthesis README (`-v /path/to/working/directory/speech:` the same path in the
    # container, then `--dataset-path /speech/data`) and on a training guide mounting `<your-dir>/corpus`:
    # the folder mounted at is the reader's own choice, the short path the author's name for it
    speech = CKPT_README.format(path="/checkpoints/v1.safetensors").replace(
        '"$(pwd)/checkpoints":/home/app/checkpoints',
        "/path/to/work/checkpoints:/path/to/work/checkpoints",
    )
    files = {"generate.py": "print(1)\n", "requirements.txt": "torch\n"}
    assert [f for f in _audit(tmp_path / "a", speech, CKPT, files) if "nothing is at" in f] == []
    corpus = CKPT_README.format(path="/checkpoints/v1.safetensors").replace(
        '"$(pwd)/checkpoints":/home/app/checkpoints', "~/checkpoints:/your-dir/checkpoints"
    )
    assert [f for f in _audit(tmp_path / "b", corpus, CKPT, files) if "nothing is at" in f] == []
    # a mount at a real folder of the image below another one is still told
    real = CKPT_README.format(path="/checkpoints/v1.safetensors").replace(
        '"$(pwd)/checkpoints":/home/app/checkpoints', "/path/to/checkpoints:/home/app/checkpoints"
    )
    assert len([f for f in _audit(tmp_path / "c", real, CKPT, files) if "nothing is at" in f]) == 1
