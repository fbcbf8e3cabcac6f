"""`docgen audit`: arguments a README gives a script the image holds, run in a container by `docker
run` or `docker exec`, that the script refuses or never reads (docgen/audit/container_args.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

DEV_IMAGE = """\
FROM ubuntu:22.04
WORKDIR /code
COPY scripts/create-user.sh /start-scripts/
COPY scripts/entry.sh /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"""
CREATE_USER = """\
#!/bin/bash
set_password() {
    local user=$1
    echo "${user}:$2" | chpasswd
}
if ! id "$MY_USER" &>/dev/null; then
    adduser --disabled-password --gecos "" --uid $MY_UID $MY_USER
    set_password "$MY_USER" "$MY_PASSWORD"
fi
"""
DEV_README = """\
# CUDA dev box

```bash
docker run -d --name dev -p 2222:22 cuda-dev
```

### Adding users

```bash
docker exec -it dev /start-scripts/create-user.sh <username>
```
"""


def _found(root: Path, dockerfile: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": dockerfile, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "(run in the container)" in d.message
    ]


def _dev(root: Path, readme: str = DEV_README, script: str = CREATE_USER) -> list[tuple[int, str, str]]:
    files = {
        "README.md": readme,
        "scripts/create-user.sh": script,
        "scripts/entry.sh": '#!/bin/sh\nexec "$@"\n',
    }
    return _found(root, DEV_IMAGE, files)


def test_an_argument_a_script_in_the_image_never_reads(tmp_path: Path) -> None:
    assert _dev(tmp_path) == [
        (
            10,
            "README runs /start-scripts/create-user.sh with <username>, but create-user.sh reads no argument "
            "(no $1, $@, shift or getopts): what it is given changes nothing (run in the container)",
            "likely",
        )
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<username>", ""),  # no argument given
        ("docker exec -it dev", "docker exec -it -v /x:/y dev"),  # an option exec does not have
        ("-p 2222:22", "-v $(pwd)/scripts:/start-scripts -p 2222:22"),  # the folder mounted over
        ("/start-scripts/create-user.sh", "/entrypoint.sh"),  # passes its arguments on
        ("/start-scripts/create-user.sh", "/opt/create-user.sh"),  # no file the image puts there
    ],
)
def test_runs_in_the_container_left_alone(tmp_path: Path, old: str, new: str) -> None:
    assert _dev(tmp_path, DEV_README.replace(old, new)) == []


@pytest.mark.parametrize("reads", ['MY_USER="${1:-$MY_USER}"', "shift", "source /etc/profile.d/users.sh"])
def test_a_script_in_the_image_that_reads_its_arguments(tmp_path: Path, reads: str) -> None:
    assert _dev(tmp_path, script=CREATE_USER.replace("if ! id", f"{reads}\nif ! id")) == []


RNN_IMAGE = """\
FROM nvcr.io/nvidia/pytorch:20.06-py3
WORKDIR /usr/src/app
COPY requirements.txt ./
COPY . .
"""
TRAIN = """\
import argparse
import sys


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("-s", "--session", required=True)
    parser.add_argument("-n", "--number", default=200)
    parser.add_argument("-d", "--data_dir")
    args = parser.parse_args()
    print(args)


if __name__ == "__main__":
    main(sys.argv[1:])
"""
RNN_README = """\
# rnn-midi

## train

    docker run --rm -v $(pwd)/workspace:/workspace rnn:latest python train.py --mode train -s m3
    docker run --rm -v $(pwd)/workspace:/workspace rnn:latest python train.py -d /workspace/txt -s m3
"""


def test_an_option_the_images_script_does_not_declare(tmp_path: Path) -> None:
    files = {"README.md": RNN_README, "train.py": TRAIN, "requirements.txt": "torch\n"}
    [(line, message, confidence)] = _found(tmp_path, RNN_IMAGE, files)
    assert (line, confidence) == (5, "certain")
    assert message.startswith(
        "README runs train.py with --mode, but train.py does not accept it: its argparse"
    )


def test_an_option_the_mounted_checkouts_script_does_not_declare(tmp_path: Path) -> None:
    readme = RNN_README.replace("-v $(pwd)/workspace:/workspace", "-v $(pwd):/usr/src/app")
    files = {"README.md": readme, "train.py": TRAIN, "requirements.txt": "torch\n"}
    [(line, message, confidence)] = _found(tmp_path, RNN_IMAGE, files)
    assert (line, confidence) == (5, "likely")  # the host's checkout runs: this very train.py, likely
    assert message.startswith("README runs train.py with --mode, but train.py does not accept it")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("--rm -v", "--rm -w /workspace -v"),  # run from a folder the image puts no train.py in
        ("python train.py --mode", "python -m train --mode"),  # no script path
    ],
)
def test_python_runs_in_the_container_left_alone(tmp_path: Path, old: str, new: str) -> None:
    files = {"README.md": RNN_README.replace(old, new), "train.py": TRAIN, "requirements.txt": "torch\n"}
    assert _found(tmp_path, RNN_IMAGE, files) == []


# --------------------------------------------------------------------------------------------------
# A Python script run by a relative path the README's folder does not hold (`unplaced_script_options`)

SLIDING = """\
import argparse


def main():
    parser = argparse.ArgumentParser(description="sliding window reconstruction")
    parser.add_argument("--image_path", type=str, required=True)
    parser.add_argument("--output_file", type=str, default="result.ply")
    parser.add_argument("--window_size", type=int, default=5)
    args = parser.parse_args()
    print(args)


if __name__ == "__main__":
    main()
"""
SLIDING_README = """\
# Reconstruction container

## Usage
Inside the container:

**Sliding window:**
```bash
python {script} {words}
```
"""
SEGMENT = """\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="sam-b")
parser.add_argument("--images", required=True)
args = parser.parse_args()
"""
SEGMENT_IMAGE = """\
FROM python:3.11-slim
WORKDIR /srv
COPY tools/segment.py /srv/segment.py
CMD ["bash"]
"""
SEGMENT_README = """\
# Segmentation service

Start a shell in the image with `docker run -it seg`, then:

```bash
python segment.py {words}
```
"""


def _unplaced(root: Path, readme: str, files: dict[str, str], dockerfile: str | None = None) -> list[str]:
    make_tree(root, {"README.md": readme, **files, **({"Dockerfile": dockerfile} if dockerfile else {})})
    models = [build_model(root / "Dockerfile", "Dockerfile")] if dockerfile else []
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", models, {}, root, root)
        if "does not accept it" in d.message or "positional argument" in d.message
    ]


def test_unplaced_script_without_image_is_read_from_the_one_file_below(tmp_path: Path) -> None:
    readme = SLIDING_README.format(script="sliding.py", words="--input_dir /data/images --output_file o.ply")
    found = _unplaced(tmp_path, readme, {"scripts/sliding.py": SLIDING})
    assert len(found) == 1, found
    assert found[0].startswith("8: README runs sliding.py with --input_dir, but scripts/sliding.py")
    assert "scripts/sliding.py:6" in found[0] and found[0].endswith("(certain)")


def test_unplaced_script_the_image_copies_to_its_workdir(tmp_path: Path) -> None:
    readme = SEGMENT_README.format(words="--model sam-l --input ./frames")
    found = _unplaced(tmp_path, readme, {"tools/segment.py": SEGMENT}, SEGMENT_IMAGE)
    assert len(found) == 1, found
    assert "README runs segment.py with --input, but tools/segment.py" in found[0]


def test_unplaced_script_whose_copy_source_is_misplaced(tmp_path: Path) -> None:
    image = SEGMENT_IMAGE.replace("COPY tools/segment.py", "COPY segment.py")
    readme = SEGMENT_README.format(words="--images ./frames --device cuda")
    found = _unplaced(tmp_path, readme, {"tools/segment.py": SEGMENT}, image)
    assert len(found) == 1 and "with --device" in found[0], found


@pytest.mark.parametrize(
    ("words", "files"),
    [
        # the options the parser declares
        ("--image_path /data/images --window_size 7", {"scripts/sliding.py": SLIDING}),
        # a placeholder the user fills in, words after `--`
        ("--image_path /data --<option> <value>", {"scripts/sliding.py": SLIDING}),
        # two files below end with the path: which one is meant is not known
        ("--input_dir /data", {"scripts/sliding.py": SLIDING, "legacy/sliding.py": SLIDING}),
        # a parser that passes unknown options on
        ("--input_dir /data", {"scripts/sliding.py": SLIDING.replace("parse_args()", "parse_known_args()")}),
        # a parser built in a helper module
        (
            "--input_dir /data",
            {
                "scripts/sliding.py": "from cli import build_parser\n\nargs = build_parser().parse_args()\n",
                "scripts/cli.py": SLIDING,
            },
        ),
        # a click command
        (
            "--input_dir /data",
            {
                "scripts/sliding.py": "import click\n\n\n@click.command()\n@click.option('--image_path')\n"
                "def main(image_path):\n    pass\n\n\nmain()\n"
            },
        ),
    ],
)
def test_unplaced_script_traps(tmp_path: Path, words: str, files: dict[str, str]) -> None:
    readme = SLIDING_README.format(script="sliding.py", words=words)
    assert _unplaced(tmp_path, readme, files) == []


def test_unplaced_script_in_a_clone_the_image_makes_is_not_the_projects(tmp_path: Path) -> None:
    # The image's workdir is an upstream clone; the project's own train.py is another program.
    image = 'FROM python:3.11\nRUN git clone https://github.com/org/up.git /up\nWORKDIR /up\nCMD ["bash"]\n'
    readme = SEGMENT_README.replace("segment.py", "train.py").format(words="--epochs 3")
    train = 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--steps")\np.parse_args()\n'
    assert _unplaced(tmp_path, readme, {"examples/train.py": train}, image) == []


def test_unplaced_script_under_a_mounted_folder_is_not_judged(tmp_path: Path) -> None:
    readme = SEGMENT_README.format(words="--input ./frames").replace(
        "`docker run -it seg`", "`docker run -it -v $PWD/work:/srv seg`"
    )
    assert _unplaced(tmp_path, readme, {"tools/segment.py": SEGMENT}, SEGMENT_IMAGE) == []


def test_unplaced_script_the_readme_folder_holds_is_left_to_the_host_check(tmp_path: Path) -> None:
    readme = SLIDING_README.format(script="sliding.py", words="--input_dir /data")
    found = _unplaced(tmp_path, readme, {"sliding.py": SLIDING, "scripts/sliding.py": SLIDING})
    assert len(found) == 1 and "its argparse (sliding.py:6)" in found[0], found


# --------------------------------------------------------------------------------------------------
# The words after the image, given to the Python script the ENTRYPOINT runs (`entry_script_args`)

TRANSCRIBE = """\
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", required=True)
    parser.add_argument("--output")
    parser.add_argument("--model", default="base")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda", "auto"])
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(args)


if __name__ == "__main__":
    main()
"""
TRANSCRIBE_IMAGE = """\
FROM python:3.11-slim
WORKDIR /app
COPY . /app/
ENTRYPOINT ["python3", "-u", "/app/transcribe.py"]
"""
TRANSCRIBE_README = """\
# voxbox

```bash
docker build -t voxbox .
docker run --rm -v $(pwd)/audio:/audio voxbox {words}
```
"""


def _entry(root: Path, words: str, **changes: str) -> list[tuple[int, str, str]]:
    files = {
        "README.md": changes.get("readme", TRANSCRIBE_README).format(words=words),
        "transcribe.py": changes.get("script", TRANSCRIBE),
    }
    make_tree(root, {"Dockerfile": changes.get("image", TRANSCRIBE_IMAGE), **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "appends the words after the image to the ENTRYPOINT" in d.message
    ]


def test_an_option_the_entrypoint_script_does_not_declare(tmp_path: Path) -> None:
    assert _entry(tmp_path, "--input /audio/a.wav --format srt") == [
        (
            5,
            "README runs /app/transcribe.py with --format, but transcribe.py does not accept it: its "
            "argparse (transcribe.py:6) takes -h, --device, --help, --input, --model, --output, --verbose "
            "(docker run voxbox appends the words after the image to the ENTRYPOINT Dockerfile:4 gives, "
            "which runs /app/transcribe.py)",
            "certain",
        )
    ]


def test_a_required_option_and_a_choice_the_entrypoint_script_refuses(tmp_path: Path) -> None:
    [(_, missing, _)] = _entry(tmp_path, "--output /audio/a.txt")
    assert missing.startswith(
        "README runs /app/transcribe.py with no --input, but its argparse (transcribe.py:6) requires it"
    )
    [(_, choice, _)] = _entry(tmp_path / "gpu", "--input /audio/a.wav --device gpu")
    assert "allows only cpu, cuda, auto for --device" in choice


def test_a_relative_entrypoint_script_and_its_own_words(tmp_path: Path) -> None:
    image = TRANSCRIBE_IMAGE.replace('"/app/transcribe.py"]', '"transcribe.py", "--input", "/audio/in.wav"]')
    [(line, message, confidence)] = _entry(tmp_path, "--verbose --beam 5", image=image)
    assert (line, confidence) == (5, "certain")
    assert message.startswith("README runs transcribe.py with --beam, but transcribe.py does not accept it")
    assert _entry(tmp_path / "ok", "--verbose", image=image) == []


def test_a_published_image_named_after_the_project(tmp_path: Path) -> None:
    readme = "# Voxbox\n\n```bash\ndocker run --rm ghcr.io/acme/voxbox:cpu-1.0 {words}\n```\n"
    [(line, message, confidence)] = _entry(tmp_path, "--input a.wav --lang en", readme=readme)
    assert (line, confidence) == (4, "likely")
    assert "with --lang, but transcribe.py does not accept it" in message


@pytest.mark.parametrize(
    ("words", "changes"),
    [
        ("--input /audio/a.wav --device cuda --output /audio/a.txt", {}),  # all taken
        ("--inp /audio/a.wav", {}),  # a prefix argparse takes
        ("--help", {}),
        ("$ARGS", {}),
        ("--input <file> --lang en", {"script": TRANSCRIBE.replace("parse_args()", "parse_known_args()[0]")}),
        (
            "--input a.wav --lang en",
            {"script": TRANSCRIBE.replace("import argparse", "import argparse\nimport click")},
        ),
        ("bash", {}),  # another program asked for: not the script's words
        ("--gpus all --input a.wav", {}),  # docker's own options after the image: `misplaced_options`
        ("python3 -c 'print(1)'", {}),
        ("--input a.wav --lang en", {"image": TRANSCRIBE_IMAGE.replace("ENTRYPOINT [", "CMD [")}),
        (
            "--input a.wav --lang en",
            {
                "image": TRANSCRIBE_IMAGE.replace(
                    '["python3", "-u", "/app/transcribe.py"]', "python3 /app/transcribe.py"
                )
            },
        ),
        (
            "--input a.wav --lang en",
            {"readme": TRANSCRIBE_README.replace("--rm -v", "--rm --entrypoint python3 -v")},
        ),
        (
            "--input a.wav --lang en",
            {"readme": TRANSCRIBE_README.replace("$(pwd)/audio:/audio", "$(pwd):/app")},
        ),
        # an image the README does not build, named after nothing of the project, run with no option
        # the script declares: another program's options
        ("--lang en --beam 5", {"readme": "# Tools\n\n```bash\ndocker run other/whisper {words}\n```\n"}),
    ],
)
def test_entrypoint_script_runs_left_alone(tmp_path: Path, words: str, changes: dict[str, str]) -> None:
    assert _entry(tmp_path, words, **changes) == []


# --------------------------------------------------------------------------------------------------
# Options after an image with no ENTRYPOINT, meant for the one script it copies
# (`unentered_script_args`)

FLATFIELD = """\
#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("-i", "--input", required=True)
parser.add_argument("-o", "--output_folder", required=True)
parser.add_argument("-d", "--device", choices=["cpu", "gpu"], default="cpu")
args = parser.parse_args()
"""
FLATFIELD_IMAGE = """\
ARG BASE_IMAGE="ghcr.io/acme/conda-base:latest"
FROM ${BASE_IMAGE}
RUN pip install numpy
COPY ./flatfield.py /opt/
"""
FLATFIELD_BUILD = """\
#!/bin/bash
VERSION=0.3.0
docker buildx build --push \\
    -t acme/flatfield-tool:$VERSION \\
    -t acme/flatfield-tool:latest .
"""
FLATFIELD_README = """\
# Flat-field correction in a container

```bash
docker run --rm -v /data:/data ghcr.io/acme/flatfield-tool:latest {words}
```
"""


def _unentered(root: Path, words: str, **changes: str) -> list[tuple[int, str, str]]:
    files = {
        "README.md": changes.get("readme", FLATFIELD_README).format(words=words),
        "flatfield.py": changes.get("script", FLATFIELD),
        "build.sh": changes.get("build", FLATFIELD_BUILD),
        **({"helper.py": changes["helper"]} if "helper" in changes else {}),
    }
    make_tree(root, {"Dockerfile": changes.get("image", FLATFIELD_IMAGE), **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(files["README.md"], "README.md", model, {}, root, root)
        if "the one script the image copies" in d.message
    ]


def test_options_meant_for_the_one_script_an_image_with_no_entrypoint_copies(tmp_path: Path) -> None:
    assert _unentered(tmp_path, "--cpu /data/a.tif -o /data/") == [
        (
            4,
            "README runs ghcr.io/acme/flatfield-tool:latest with --cpu, but flatfield.py does not accept it: "
            "its argparse (flatfield.py:5) takes -d, -h, -i, -o, --device, --help, --input, "
            "--output_folder; the words after the image are meant for /opt/flatfield.py, the one script "
            "the image copies (Dockerfile:4), and Dockerfile sets no ENTRYPOINT or CMD, so unless "
            "ghcr.io/acme/conda-base:latest sets an ENTRYPOINT docker runs --cpu itself as the "
            "container's program",
            "likely",
        )
    ]


def test_a_required_option_left_out_of_the_words_for_the_copied_script(tmp_path: Path) -> None:
    [(_, message, _)] = _unentered(tmp_path, "-d gpu -o /data/")
    assert "with no -i/--input, but its argparse (flatfield.py:5) requires it" in message


@pytest.mark.parametrize(
    ("words", "changes"),
    [
        ("-i /data/a.tif -o /data/ --device gpu", {}),  # the script takes them
        ("--cpu /data/a.tif --out /data/", {}),  # no word the script declares: meant for another program
        (
            "--cpu /data/a.tif -o /data/",
            {"image": FLATFIELD_IMAGE + 'ENTRYPOINT ["python3", "/opt/flatfield.py"]\n'},
        ),
        (
            "--cpu /data/a.tif -o /data/",
            {"image": FLATFIELD_IMAGE + 'CMD ["python3", "/opt/flatfield.py"]\n'},
        ),
        ("--cpu /data/a.tif -o /data/", {"build": FLATFIELD_BUILD.replace("flatfield-tool", "other-tool")}),
        (
            "--cpu /data/a.tif -o /data/",
            {"image": FLATFIELD_IMAGE + "COPY helper.py /opt/\n", "helper": FLATFIELD},
        ),
        ("--cpu /data/a.tif -o /data/", {"script": FLATFIELD.replace("parse_args()", "parse_known_args()")}),
        ("-e MODE=1 -o /data/", {}),  # a docker option written after the image: another rule's
    ],
)
def test_options_after_an_image_with_no_entrypoint_left_alone(
    tmp_path: Path, words: str, changes: dict[str, str]
) -> None:
    assert _unentered(tmp_path, words, **changes) == []


ENTRY_SH = """\
#!/bin/sh
set -e
echo "starting transcription"
exec python3 -u transcribe.py "$@"
"""


@pytest.mark.parametrize(
    "entry",
    [
        '["/app/entrypoint.sh"]',  # a shell script handing its words on
        '["bash", "/app/entrypoint.sh"]',
        '["/bin/sh", "-c", "python ./transcribe.py \\"$@\\"", "--"]',
        '["./transcribe.py"]',  # the script itself, by its shebang
    ],
)
def test_entrypoints_that_hand_the_words_on_to_the_script(tmp_path: Path, entry: str) -> None:
    image = TRANSCRIBE_IMAGE.replace('["python3", "-u", "/app/transcribe.py"]', entry)
    make_tree(tmp_path, {"entrypoint.sh": ENTRY_SH})
    [(line, message, _)] = _entry(tmp_path, "--input a.wav --lang en", image=image)
    assert line == 5
    assert "with --lang, but transcribe.py does not accept it" in message


@pytest.mark.parametrize(
    "script",
    [
        ENTRY_SH.replace('echo "starting transcription"', 'case "$1" in serve) exec serve;; esac'),
        ENTRY_SH.replace('echo "starting transcription"', "shift"),
        ENTRY_SH.replace('echo "starting transcription"', "cd /srv"),
        ENTRY_SH + 'exec python3 other.py "$@"\n',
    ],
)
def test_entrypoint_scripts_that_read_the_words_themselves(tmp_path: Path, script: str) -> None:
    image = TRANSCRIBE_IMAGE.replace('["python3", "-u", "/app/transcribe.py"]', '["/app/entrypoint.sh"]')
    make_tree(tmp_path, {"entrypoint.sh": script})
    assert _entry(tmp_path, "--input a.wav --lang en", image=image) == []


# --------------------------------------------------------------------------------------------------
# A script of the project run in a container by a relative path (`project_script_args`)

EVALUATE = """\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--model-path", required=True)
parser.add_argument("--episodes", type=int, default=5)
parser.add_argument("--render", action="store_true")
args = parser.parse_args()
"""
EVAL_README = """\
# Walker training

```bash
{command}
```
"""


def _project(root: Path, command: str, dockerfile: str | None = None) -> list[tuple[int, str, str]]:
    readme = EVAL_README.format(command=command)
    make_tree(
        root,
        {"README.md": readme, "evaluate.py": EVALUATE, **({"Dockerfile": dockerfile} if dockerfile else {})},
    )
    models = [build_model(root / "Dockerfile", "Dockerfile")] if dockerfile else []
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", models, {}, root, root)
        if "(run in the container)" in d.message
    ]


def test_an_option_a_compose_run_gives_the_projects_script(tmp_path: Path) -> None:
    found = _project(
        tmp_path, "docker compose run walker python3 evaluate.py --model-path m.zip --num-episodes 2"
    )
    assert found == [
        (
            4,
            "README runs evaluate.py with --num-episodes, but evaluate.py does not accept it: its argparse "
            "(evaluate.py:4) declares --episodes, not --num-episodes (run in the container)",
            "likely",
        )
    ]


def test_a_required_option_a_docker_exec_leaves_out(tmp_path: Path) -> None:
    [(_, message, confidence)] = _project(tmp_path, "docker exec -it walker python evaluate.py --render")
    assert confidence == "likely"
    assert message.startswith(
        "README runs evaluate.py with no --model-path, but its argparse (evaluate.py:4)"
    )


@pytest.mark.parametrize(
    ("command", "dockerfile"),
    [
        ("docker-compose run --rm walker python3 evaluate.py --model-path m.zip --episodes 2 --render", None),
        ("docker compose exec walker python evaluate.py --model-path <path>", None),
        # a run of an image that copies no evaluate.py and mounts nothing: the file is missing there
        ("docker run walker python evaluate.py --num-episodes 2", "FROM python:3.11\nWORKDIR /app\n"),
        # the image's own copy: `container_script_args` reads that one
        ("docker run walker python evaluate.py --model-path m", "FROM python:3.11\nWORKDIR /app\nCOPY . .\n"),
        # the current folder mounted elsewhere than where the command runs
        (
            "docker run -v $(pwd):/src walker python evaluate.py --num-episodes 2",
            "FROM python:3.11\nWORKDIR /app\n",
        ),
    ],
)
def test_project_script_runs_left_alone(tmp_path: Path, command: str, dockerfile: str | None) -> None:
    assert _project(tmp_path, command, dockerfile) == []


def test_a_run_mounting_the_checkout_where_it_runs(tmp_path: Path) -> None:
    found = _project(
        tmp_path,
        "docker run -v $(pwd):/app walker python evaluate.py --model-path m --num-episodes 2",
        "FROM python:3.11\nWORKDIR /app\n",
    )
    assert [(line, confidence) for line, _, confidence in found] == [(4, "likely")]
