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


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("-v $(pwd)/workspace:/workspace", "-v $(pwd):/usr/src/app"),  # the host's checkout runs
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
